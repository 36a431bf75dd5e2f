"""car_graph.word_frequency gives wordfreq's English Zipf values, reading plain words from
wordfreq's own list without importing wordfreq (issue 58: 0.25 s of every `car-graph ask`)."""

from __future__ import annotations

import json
import mmap
import os
import random
import string
import subprocess
import sys
from pathlib import Path

import pytest
import wordfreq

from car_graph import word_frequency


def _plain_words_of_the_list() -> list[str]:
    buckets = word_frequency._english_buckets()
    assert buckets is not None, "wordfreq's English list was not found where wordfreq keeps it"
    return [w for bucket in buckets for w in bucket if word_frequency._PLAIN.fullmatch(w)]


def test_plain_words_get_wordfreqs_own_zipf_value() -> None:
    listed = _plain_words_of_the_list()
    assert len(listed) > 100_000
    rng = random.Random(58)
    unlisted = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(1, 14)))
                for _ in range(3_000)]
    # every 7th listed word: each frequency bucket is sampled, the test stays a few seconds
    for word in listed[::7] + listed[-50:] + unlisted + ["the", "law", "hardwick", "zzzzqx"]:
        buckets = word_frequency._english_buckets()
        assert buckets is not None
        ours = word_frequency._plain_zipf(word, buckets)
        theirs = wordfreq.zipf_frequency(word, "en")
        assert repr(ours) == repr(theirs), word


@pytest.mark.parametrize("word", ["Law", "2021", "médicament", "don't", "log4j", "東京", "", "a-b"])
def test_other_words_are_asked_of_wordfreq(word: str) -> None:
    assert word_frequency.zipf_frequency(word) == wordfreq.zipf_frequency(word, "en")


def test_the_sorted_word_file_finds_each_word_in_the_bucket_the_list_holds_it_in(tmp_path: Path) -> None:
    buckets = word_frequency._english_buckets()
    assert buckets is not None
    path = tmp_path / "words.tsv"
    word_frequency._write_sorted(path, buckets)
    listed = _plain_words_of_the_list()
    rng = random.Random(7)
    unlisted = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(1, 20)))
                for _ in range(3_000)]
    with open(path, "rb") as handle:
        words = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        for word in listed[::5] + listed[:20] + listed[-20:] + unlisted + ["a", "zzzzzzzzzzzz"]:
            assert word_frequency._bucket_in_sorted(word, words) == word_frequency._bucket_of(word, buckets), word


PROBE = """
import json, sys
from car_graph.word_frequency import zipf_frequency
values = [zipf_frequency(w) for w in ("law", "good", "hardwick")]
print(json.dumps({"values": values, "loaded": sorted(m for m in ("wordfreq", "msgpack") if m in sys.modules)}))
"""


def test_a_fresh_process_weighs_plain_words_without_wordfreq_and_later_ones_without_its_list(
        tmp_path: Path) -> None:
    expected = [wordfreq.zipf_frequency(w, "en") for w in ("law", "good", "hardwick")]
    runs = []
    for _ in range(2):  # the first writes the sorted words into the home, the second reads them
        found = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120,
                               check=True, env={**os.environ, "CAR_GRAPH_HOME": str(tmp_path)})
        runs.append(json.loads(found.stdout.strip().splitlines()[-1]))
    assert [run["values"] for run in runs] == [expected, expected]
    assert runs[0]["loaded"] == ["msgpack"]
    assert runs[1]["loaded"] == []
    assert len(list((tmp_path / "word-frequency").glob("*.tsv"))) == 1
