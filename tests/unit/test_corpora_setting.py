"""Where the tests look for the raw corpora (tests/corpora.py): the setting wins, even over a
default that would find them, and the default is shared/data/raw beside a folder above."""

from __future__ import annotations

from pathlib import Path

from corpora import DOMAINS, ENV, find_corpora


def _corpora(root: Path) -> Path:
    raw = root / "shared" / "data" / "raw"
    for domain in DOMAINS:
        (raw / domain).mkdir(parents=True)
    return raw


def test_the_setting_names_the_folder(tmp_path: Path) -> None:
    raw = _corpora(tmp_path / "elsewhere")
    assert find_corpora({ENV: str(raw)}, start=tmp_path / "checkout") == raw.resolve()


def test_a_setting_without_the_corpora_hides_the_default(tmp_path: Path) -> None:
    _corpora(tmp_path)
    checkout = tmp_path / "checkout"
    assert find_corpora({}, start=checkout) == tmp_path / "shared" / "data" / "raw"
    assert find_corpora({ENV: str(tmp_path / "missing")}, start=checkout) is None


def test_the_default_is_found_beside_the_checkout_or_a_folder_above(tmp_path: Path) -> None:
    raw = _corpora(tmp_path)
    assert find_corpora({}, start=tmp_path / "main") == raw  # /work/main -> /work/shared
    assert find_corpora({}, start=tmp_path / "wt" / "name") == raw  # a worktree, one deeper


def test_a_folder_missing_a_domain_is_no_corpora(tmp_path: Path) -> None:
    raw = _corpora(tmp_path)
    (raw / "drug").rmdir()
    assert find_corpora({}, start=tmp_path / "checkout") is None
    assert find_corpora({ENV: str(raw)}, start=tmp_path / "checkout") is None
