"""A fresh process reading a question loads what it needs only: spaCy without thinc's optional
PyTorch (car_graph.extraction.import_spacy), which costs about 2 s of CPU per `car-graph ask`;
without spaCy's CLI or wordfreq; one blank English tokenizer; and no last garbage collection at
exit (issue 58, docs/notes/fresh-ask-2026-12-07.md)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

from ci_policy import unavailable

PROBE = """
import json, sys
from car_graph.extraction import EntityExtractor
mentions = EntityExtractor(use_statistical=False).extract("CVE-2021-44228 in log4j-core")
import thinc.compat
out = {"torch_loaded": "torch" in sys.modules, "thinc_torch": thinc.compat.has_torch,
       "mentions": [m.key for m in mentions]}
try:
    import torch  # noqa: F401  -- anyone else still gets torch
    out["torch_importable"] = True
except ImportError:
    out["torch_importable"] = False
print(json.dumps(out))
"""


def test_the_entity_extractor_loads_spacy_without_torch_and_leaves_torch_importable() -> None:
    found = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                           timeout=300, check=True)
    out = json.loads(found.stdout.strip().splitlines()[-1])
    assert out["mentions"] == ["cve-2021-44228"]
    assert out["torch_loaded"] is False and out["thinc_torch"] is False
    if importlib.util.find_spec("torch") is None:  # sentence-transformers brings it: CI has it
        unavailable("torch is not installed: nothing else to check")
    assert out["torch_importable"] is True


QUESTION_PATH = """
import json, sys
from car_graph.extraction import EntityExtractor, english_tokenizer
from car_graph.linking import adjacent_term_pairs, is_common_word, question_terms, _tokenizer
extractor = EntityExtractor(use_statistical=False)
question = "Is Bowers v. Hardwick (CVE-2021-44228) still good law?"
out = {
    "mentions": [m.key for m in extractor.extract(question)],
    "terms": question_terms(question),
    "pairs": adjacent_term_pairs(question),
    "common": [is_common_word(w, 3.0) for w in ("good", "hardwick", "bowers")],
    "one_tokenizer": _tokenizer() is extractor.nlp.tokenizer is english_tokenizer(),
    "loaded": sorted(m for m in ("spacy.cli", "wordfreq", "typer", "weasel") if m in sys.modules),
}
import spacy.cli  # the real one: spaCy's CLI is only deferred
out["cli_after"] = callable(spacy.cli.info) and "spacy.cli.download" in sys.modules
out["info"] = sorted(spacy.info(silent=True))[:1]
print(json.dumps(out))
"""


def _run(code: str, *args: str) -> dict:
    found = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                           timeout=300, check=True)
    return json.loads(found.stdout.strip().splitlines()[-1])


def test_reading_a_question_leaves_spacys_cli_and_wordfreq_unimported_and_builds_one_tokenizer() -> None:
    out = _run(QUESTION_PATH)
    assert out["loaded"] == []
    assert out["one_tokenizer"] is True
    assert "cve-2021-44228" in out["mentions"]
    assert out["terms"] == ["bowers", "hardwick", "cve", "2021", "44228", "good", "law"]
    from wordfreq import zipf_frequency  # here, in the test's process

    assert out["common"] == [zipf_frequency(w, "en") >= 3.0 for w in ("good", "hardwick", "bowers")]
    assert out["cli_after"] is True and out["info"] == ["location"]


SAME_TOKENS = """
import json, sys
import spacy
from car_graph.extraction import EntityExtractor
from car_graph.linking import question_terms, adjacent_term_pairs
EntityExtractor(use_statistical=False)  # its tokenizer becomes the one questions are read with
texts = json.loads(sys.argv[1])
blank = spacy.blank("en").tokenizer
print(json.dumps({
    "shared": [[t.text for t in blank(x)] for x in texts] == [[t.text for t in (
        __import__("car_graph.linking", fromlist=["_tokenizer"])._tokenizer())(x)] for x in texts],
    "terms": [question_terms(x) for x in texts], "pairs": [adjacent_term_pairs(x) for x in texts]}))
"""


def test_questions_are_tokenized_by_the_shared_tokenizer_as_by_a_blank_english_one() -> None:
    texts = ["Is Bowers v. Hardwick still good law?", "What did Lochner v. New York hold?",
             "Is the medicine, prescribed for testosterone deficiency, still sold?",
             "TCK-2021-44228 in log4j-core 2.14.1 -- fixed? (U.S.) don't e-mail me@x.org"]
    out = _run(SAME_TOKENS, json.dumps(texts))
    assert out["shared"] is True
    assert out["terms"][1] == ["lochner", "new", "york", "hold"]
    assert out["pairs"][2] == [["testosterone", "deficiency"]]


FREEZE_AT_EXIT = """
import atexit, gc, sys
# registered first, so it runs last: after the CLI's own exit handlers
atexit.register(lambda: print("frozen at exit:", gc.get_freeze_count()))
from car_graph.cli import main
main(["neo4j", "status", "--instance", "probe"], standalone_mode=False)
print("frozen before exit:", gc.get_freeze_count())
"""


def test_a_cli_process_skips_the_last_garbage_collection_at_exit(tmp_path) -> None:
    found = subprocess.run([sys.executable, "-c", FREEZE_AT_EXIT], capture_output=True, text=True,
                           timeout=120, check=True, env={**os.environ, "CAR_GRAPH_HOME": str(tmp_path)})
    lines = found.stdout.strip().splitlines()
    assert "frozen before exit: 0" in lines
    frozen = [int(line.split(":")[1]) for line in lines if line.startswith("frozen at exit:")]
    assert frozen and frozen[0] > 10_000
