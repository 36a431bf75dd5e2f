"""A fresh process reading a question loads what it needs only: spaCy without thinc's optional
PyTorch (car_graph.extraction.import_spacy), which costs about 2 s of CPU per `car-graph ask`."""

from __future__ import annotations

import importlib.util
import json
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
