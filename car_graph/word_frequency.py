"""English word frequencies on wordfreq's Zipf scale, without importing wordfreq for plain words.

Importing wordfreq costs about 0.25 s (ftfy, langcodes, regex, its tokenizers): an eighth of a
process that answers one question (``car-graph ask``). A plain word -- ASCII lower-case letters
only -- is one token, unchanged, to wordfreq's English tokenizer, so its frequency is the bucket
that holds it in wordfreq's own English list. ``zipf_frequency`` reads that file directly and
repeats wordfreq's arithmetic step for step (tests/unit/test_word_frequency.py compares it with
wordfreq on plain words of every frequency); any other word is asked of wordfreq itself.

Reading that list still takes 40-90 ms (2.6 MB of msgpack), so its plain words are also written
once, sorted, to ``<car-graph home>/word-frequency/`` (named by the list file's size and mtime,
so a new wordfreq writes a new one); later processes look words up in it by binary search over
a memory map, reading a few pages. Without a writable home the list is read each time.
"""

from __future__ import annotations

import bisect
import functools
import gzip
import importlib.util
import math
import mmap
import os
import re
import tempfile
import threading
from pathlib import Path

from car_graph.settings import default_home

_PLAIN = re.compile(r"[a-z]+")
_LIST_FILE = "large_en.msgpack.gz"  # what wordfreq's "best" English list is
_LOCK = threading.Lock()
_buckets: list[list[str]] | None = None


@functools.cache
def _list_path() -> Path | None:
    try:
        spec = importlib.util.find_spec("wordfreq")  # finds the package without importing it
    except (ImportError, ValueError):  # ValueError: a stand-in module without a spec
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / _LIST_FILE
    return path if path.is_file() else None


def _english_buckets() -> list[list[str]] | None:
    """wordfreq's English list: bucket i holds the words of frequency 10 ** (-i / 100), each
    bucket sorted (wordfreq.read_cBpack); None when the file is not where wordfreq keeps it."""
    global _buckets
    with _LOCK:
        if _buckets is None:
            path = _list_path()
            if path is None:
                return None
            try:
                import msgpack  # type: ignore[import-untyped]  # wordfreq's own reader
            except ImportError:
                return None

            with gzip.open(path, "rb") as handle:
                data = msgpack.load(handle, raw=False)
            header = data[0]
            if not isinstance(header, dict) or header.get("format") != "cB" or header.get("version") != 1:
                return None
            _buckets = data[1:]
        return _buckets


def _bucket_of(word: str, buckets: list[list[str]]) -> int | None:
    for index, bucket in enumerate(buckets):
        at = bisect.bisect_left(bucket, word)
        if at < len(bucket) and bucket[at] == word:
            return index
    return None


_sorted_list: mmap.mmap | None = None
_sorted_list_tried = False


def _write_sorted(path: Path, buckets: list[list[str]]) -> None:
    """``word<TAB>bucket`` per plain word, sorted, written whole or not at all."""
    rows = sorted((w, i) for i, bucket in enumerate(buckets) for w in bucket if _PLAIN.fullmatch(w))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, scratch = tempfile.mkstemp(prefix=".words-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="ascii", newline="\n") as handle:
            handle.writelines(f"{w}\t{i}\n" for w, i in rows)
        os.replace(scratch, path)
    except OSError:
        Path(scratch).unlink(missing_ok=True)
        raise


def _sorted_words() -> mmap.mmap | None:
    """The sorted plain words of wordfreq's English list, memory-mapped; written on first use;
    None when it cannot be (no list, no writable home)."""
    global _sorted_list, _sorted_list_tried
    with _LOCK:
        if _sorted_list_tried:
            return _sorted_list
        _sorted_list_tried = True
        source = _list_path()
        if source is None:
            return None
        stat = source.stat()
        path = default_home(os.environ) / "word-frequency" / f"{source.name}.{stat.st_size}.{stat.st_mtime_ns}.tsv"
    try:
        if not path.is_file():
            buckets = _english_buckets()
            if buckets is None:
                return None
            _write_sorted(path, buckets)
        with open(path, "rb") as handle:
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # ValueError: an empty file cannot be mapped
        return None
    with _LOCK:
        _sorted_list = mapped
    return mapped


def _bucket_in_sorted(word: str, words: mmap.mmap) -> int | None:
    """Binary search over the lines of ``_write_sorted``'s file; [lo, hi) always starts and
    ends at line boundaries."""
    wanted = word.encode("ascii")
    lo, hi = 0, len(words)
    while lo < hi:
        start = words.rfind(b"\n", lo, (lo + hi) // 2) + 1 or lo
        end = words.find(b"\n", start, hi)
        key, _, index = words[start:end].partition(b"\t")
        if key == wanted:
            return int(index)
        if key < wanted:
            lo = end + 1
        else:
            hi = start
    return None


def _plain_zipf(word: str, buckets: list[list[str]] | None = None) -> float | None:
    """wordfreq.zipf_frequency(word, "en") for a plain word, in wordfreq's own steps: the word's
    bucket from ``buckets`` when given, else from the sorted file (or the list, without one);
    None when neither can be read."""
    minimum = 10 ** 0.0 / 1e9  # zipf_to_freq(0.0): the default minimum
    if buckets is not None:
        index = _bucket_of(word, buckets)
    else:
        words = _sorted_words()
        if words is not None:
            index = _bucket_in_sorted(word, words)
        else:
            listed = _english_buckets()
            if listed is None:
                return None
            index = _bucket_of(word, listed)
    if index is None:
        freq = minimum  # _word_frequency: a missing token returns the minimum as it is
    else:
        one_over_result = 0.0
        one_over_result += 1.0 / 10 ** (-index / 100)
        unrounded = max(1.0 / one_over_result, minimum)
        leading_zeroes = math.floor(-math.log(unrounded, 10))
        freq = round(unrounded, leading_zeroes + 3)
    return round(math.log(freq, 10) + 9, 2)


@functools.lru_cache(maxsize=4096)
def zipf_frequency(word: str) -> float:
    """``wordfreq.zipf_frequency(word, "en")``; plain words without importing wordfreq."""
    if _PLAIN.fullmatch(word) and _list_path() is not None:
        value = _plain_zipf(word)
        if value is not None:
            return value
    from wordfreq import zipf_frequency as wordfreq_zipf

    return float(wordfreq_zipf(word, "en"))
