"""The generic-wording dev questions asked in phrasings of our own: how verdicts hold up on a
question frame no variant family uses (outside benchmarks phrase questions their own way).

    python -m car_graph_benchmarks.phrasings QUERIES.jsonl [QUERIES.jsonl ...] [--out FILE] [--json]

(NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD name the server holding the variant graph.) Every row
of the query files that carries ``info.flaw`` (the security ``flaw_shared*`` and ``lure*`` sets:
a flaw's generic wording) is asked once per template of ``TEMPLATES``, and every row that carries
``info.flaws`` and ``info.products`` (the security ``two_named*`` sets) once per
``PAIR_TEMPLATES`` (and, two consecutive such rows together, once per ``FOUR_NAMED_TEMPLATES``,
and their products paired across the two rows once per ``PAIR_TEMPLATES``: ``cross_pairs``), every row that carries ``info.names`` (the drug ``two_named`` set) once
per ``NAMED_PAIR_TEMPLATES``, every row that carries ``info.identifier`` and ``info.product``
(the security ``structured`` set) once per ``IDENTIFIER_TEMPLATES``, every ``partial_id`` row
(``info.digits``) once per ``PARTIAL_TEMPLATES`` (security, with ``info.product``) or
``DRUG_PARTIAL_TEMPLATES`` (drug), every law benchmark row
(``info.entity``: the case's name) once per ``CASE_TEMPLATES``, every drug ``masked_*`` row once
per ``MASKED_TEMPLATES`` frame of its family's facts, and every drug
``paraphrase`` row and drug benchmark row once per ``DRUG_NAME_TEMPLATES`` (the drug's name read
back from its question through its family's template, or the row's ``info.entity``), through
``CarClient.answer`` and scored against the row's own ``gold`` and ``anchors`` with
``metrics.score_verdicts`` -- gold from the variant builder, never from the code under test. The
same wording recurs across rows (a family's boilerplate), so the report counts each distinct
question once. Give it dev files only: ``TEMPLATES`` were written without reading the test
families (docs/notes/verdict-lab-2026-12.md); the pair frames were written after the ``two_named`` families' text
had been read in ``variants.py`` (dev and test share one table there), so they avoid those
wordings but are not blind to them; so were the partial-identifier frames.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from car_graph.client import CarClient
from car_graph.metrics import score_verdicts, verdict_right, verdict_stale
from car_graph.verdict import outcome
from car_graph_benchmarks.variants import DRUG_FAMILIES, MASKED_FACTS, opaque_id

# Question frames a user might write, none of them a variant family's: status words
# ("unresolved", "open"), filler ("our scanner flagged"), imperative and noun-phrase forms.
TEMPLATES = {
    "shipped": "Has anyone shipped a fix for {f}?",
    "current": "{f} - is this still a problem in the current version?",
    "upgrade": "Do I need to upgrade because of {f}?",
    "patched-release": "Is there a patched release for {f}?",
    "scanner": "Our scanner flagged {f}. Is it still unresolved?",
    "open-vuln": "Is {f} still an open vulnerability?",
    "status": "What is the current status of {f}?",
    "exploit": "Can {f} still be exploited?",
    # a tool or a process named in the frame ("Dependabot", "pentest", "ticket"): words a
    # question brings of its own that may be rare, even unique, in a corpus
    "dependabot": "Dependabot opened an alert about {f}. Do we still have to act on it?",
    "pentest": "The pentest report lists {f}; has a fix been published since?",
    "ticket": "Ticket SEC-triage: {f}. Can we close it as fixed upstream?",
    "container": "Our container image scan still shows {f}. Is there a patched version?",
    # written on 2026-12-05, after the frames above had been tuned on: more status words and
    # forms, a scheme's name written bare ("the CVE about ..."), lower case
    "any-news": "Any news on {f}?",
    "fixed-or-not": "{f}: fixed or not?",
    "security-update": "Is a security update available that addresses {f}?",
    "told-last-year": "We were told about {f} last year. Still relevant?",
    "remediated": "Has {f} been remediated?",
    "cve-later": "Was the CVE about {f} resolved in a later version?",
    "safe-now": "Is it safe now with regard to {f}?",
    "vendor-newer": "The vendor advisory mentions {f}. Is there a newer release that fixes it?",
    "patch-or-handled": "Do we have to patch {f} ourselves or was it already handled?",
    "auditors": "Our auditors ask whether {f} is still outstanding.",
    "lower": "still vulnerable to {f}??",
    "mitigated": "Has the issue where {f} been mitigated?",
    # ... and the asker's own stack named beside the flaw: a language, a tool, a platform
    "ctx-python": "Our Python service uses a library with {f}. Still vulnerable?",
    "ctx-npm": "In our Node.js app, npm audit reports {f}. Is there a fix?",
    "ctx-go": "Our Go microservice: {f} -- patched upstream?",
    "ctx-rust": "Rust crate issue: {f}. Resolved?",
    "ctx-debian": "The Debian security tracker shows {f}; is it fixed?",
    "ctx-github": "GitHub Dependabot says {f}. Upgrade available?",
    "ctx-docker": "Docker image scan flagged {f}. Fixed in newer versions?",
    "ctx-java": "A Java dependency has {f}. Is there a patched release?",
    "ctx-pip": "pip warns about {f}; should we upgrade?",
    "ctx-k8s": "Our Kubernetes cluster audit mentions {f}; still open?",
    "ctx-linux": "On Linux servers we saw {f}. Is a fix out?",
    "ctx-web": "Our web server logs show attempts at {f}. Are we patched?",
    # written on 2026-12-05 at night, after the rules above, before their outcomes were seen:
    # more plain forms, and more of the asker's own stack (a build tool, a platform, a language)
    "n-worry": "Hi, quick question: is {f} something we still need to worry about in the "
               "latest release?",
    "n-re": "Re {f} -- was a patched version ever published?",
    "n-newest": "Does the newest version still have {f}?",
    "n-saw": "I saw a report of {f}. Is this vulnerability fixed?",
    "n-closed-out": "Has the vulnerability involving {f} been closed out?",
    "n-any-patch": "{f}. Any patch?",
    "n-rails": "Our Ruby on Rails app is flagged for {f}. Patched?",
    "n-php": "Our PHP site may have {f}. Is there a fixed version?",
    "n-jenkins": "Jenkins plugin scan: {f}. Fix available?",
    "n-django": "In our Django project, bandit reports {f}. Fixed?",
    "n-android": "Our Kotlin Android app has {f}; should we upgrade?",
    "n-java-maven": "Maven dependency check warns about {f} in our Spring service. Resolved?",
    # written 2026-12-06, before their outcomes were seen: other stacks, scanners and reporters
    "b-snyk": "Snyk flagged {f} in my Laravel project. Is it patched?",
    "b-trivy": "Trivy reports {f} for our Alpine container. Fixed upstream?",
    "b-sonar": "SonarQube says {f} in our .NET API. Is there an update?",
    "b-wordpress": "My WordPress site might have {f}. Has it been fixed?",
    "b-ios": "Our Swift iOS app bundles a library with {f}. Safe to ship?",
    "b-gradle": "Gradle build scan shows {f} in our Kotlin backend. Is a fixed release out?",
    "b-cargo": "cargo audit warns about {f} in my Rust CLI. Is there a patched crate?",
    "b-plain": "Is {f} still a problem?",
}

# Frames for a question about two products' flaws (the ``two_named*`` rows, whose
# ``info.products`` and ``info.flaws`` give each anchor's): the flaws quoted, bracketed, listed,
# or written after both products ("respectively"), none of them a variant family's.
PAIR_TEMPLATES = {
    "either-resolved": "I'm tracking {fa} in {a} and {fb} in {b}; has either been resolved?",
    "scan-findings": "Two findings from our dependency scan: {fa} ({a}) and {fb} ({b}). "
                     "Fixed yet?",
    "respectively": "Do {a} and {b} still suffer from {fa} and {fb}, respectively?",
    "colon-list": "{a}: {fa}. {b}: {fb}. Are these patched?",
    "check-for": "Check {a} for {fa}, and {b} for {fb}: are fixes available?",
    # written on 2026-12-06 before any run, to catch verdict.asked_from setting aside a subject
    # the question names where an asker's setting or a reporter stands
    "b-our-a": "In our {a} deployment we saw {fa}; is {b} also still exposed to {fb}?",
    "b-maintainers": "{a} maintainers say {fa} is fixed. What about {fb} in {b}?",
}

# Frames for a question naming two products and nothing else (the drug ``two_named`` rows,
# whose ``info.names`` gives the two names asked): a slash, a list, a condition, a request.
NAMED_PAIR_TEMPLATES = {
    "formulary": "Our formulary lists {a} and {b}. Has either of them been withdrawn?",
    "slash": "{a} / {b}: still approved in the US?",
    "then": "Please check the approval status of {a}, then {b}.",
    "legally": "Are {a} and {b} still legally marketed?",
    "patient": "A patient takes {a} with {b}; are both still available?",
    # written on 2026-12-05
    "nf-both": "Are both {a} and {b} still approved?",
    "nf-or": "Was {a} or {b} withdrawn?",
    "nf-list": "Status of: {a}; {b}.",
    # written on 2026-12-06 before any run, as the pair frames' b-* above
    "b-my-a": "My {a} prescription and the {b} my mother takes: are both still approved?",
    "b-supplier": "Our {a} supplier says {b} is withdrawn. Is either still approved?",
}

# Frames for a question giving an advisory's identifier and its product (the security
# ``structured`` rows, whose ``info`` carries both), none of them a variant family's: an SBOM
# finding, exploitability, "anymore", a version asked for.
IDENTIFIER_TEMPLATES = {
    "sbom": "Our SBOM flags {id} in {p}. Is action still needed?",
    "exploitable": "Is {id} exploitable in the current {p} release?",
    "anymore": "Is {id} a problem for {p} users anymore?",
    "which-version": "Was {id} ever fixed for {p}, and in which version?",
    "worry": "Should we still worry about {id} ({p})?",
    "resolved": "{p} and {id}: resolved?",
}

# Frames for a question giving only an identifier's trailing digits (the ``partial_id`` rows,
# whose ``info.digits`` are what the row's question gives), none of them a variant family's: a
# scan, a reply, a tracker, an aside; with the product (security) or alone (drug applications).
PARTIAL_TEMPLATES = {
    "partial-scan": "Our scan lists {p} with an advisory numbered {n}. Still unpatched?",
    "partial-reply": "Re: {p} {n} -- has this been fixed?",
    "partial-tracker": "Our tracker has {p} vulnerability {n} open. Can we close it?",
    "partial-aside": "Is {n} (a {p} advisory) still unresolved?",
}
DRUG_PARTIAL_TEMPLATES = {
    "partial-app": "Application number {n}: is that product still on the market?",
    "partial-dispense": "Can we still dispense the product approved under application {n}?",
}

# Frames for a question naming one decision (the law benchmark's rows, whose ``info.entity``
# is the case's name), none of the benchmark's own law templates: overruled, a brief, citing.
CASE_TEMPLATES = {
    "cite": "Can I still cite {e} as good law?",
    "overruled": "Has {e} been overruled?",
    "brief": "My brief relies on {e}. Is that safe?",
    "valid": "Does {e} remain valid after later decisions?",
    "authority": "What is the current authority on the question decided in {e}?",
}

# Frames for a question that masks the drug and gives only its facts (the drug masked_* rows),
# by the facts they use: a row is asked only in the frames of its own family's facts
# (``variants.MASKED_FACTS``), the facts the builder checked to be unique (or shared) for it.
MASKED_TEMPLATES: dict[tuple[str, ...], dict[str, str]] = {
    ("ind",): {
        "masked-pulled": "Has the drug for {ind} been pulled from the market?",
        "masked-banned": "Is the medicine given for {ind} banned now?",
        "masked-prescribed": "My grandmother was prescribed a drug for {ind} decades ago. "
                             "Is it still sold?",
        "masked-this-drug": "This drug is used to treat {ind}. Does it still have FDA approval?",
        # written on 2026-12-05
        "nf-otc": "Is the {ind} medication still available by prescription in the US?",
        "nf-fda-removed": "Did the FDA remove the {ind} treatment from the market?",
        "nf-safety": "There was a safety problem with a drug for {ind}. Is it still approved?",
        "nf-lower": "drug for {ind} - withdrawn?",
        "nf-doctor": "My doctor mentioned an old {ind} medicine. Can it still be prescribed?",
        # written 2026-12-06, before their outcomes were seen: a setting and a reporter
        "b-walgreens": "Our Walgreens pharmacist says the drug for {ind} was pulled. True?",
        "b-medicare": "My Medicare plan covers a drug for {ind}. Is it still approved?",
        "b-fda-reports": "FDA reports a problem with the {ind} drug. Was it withdrawn?",
    },
    ("cls", "ind"): {"masked-class-withdrawn": "Was the {cls} for {ind} withdrawn?",
                     "nf-class": "Is the {ind} {cls} still marketed?",
                     "nf-class2": "Any {cls} for {ind} that was withdrawn?"},
    ("moa", "ind"): {"masked-moa-order": "Can we still order the {ind} drug that works by {moa}?",
                     "nf-moa": "The {ind} drug acting by {moa}: is it still on sale?"},
    ("cls", "ind", "moa"): {"masked-profile": "A {cls} for {ind} ({moa}): still approved?",
                            "nf-profile": "{cls}, {moa}, used for {ind}. Still approved?"},
}

# Frames for a question naming one drug (the drug ``paraphrase`` rows: the name is read back
# from the row's question through its family's template), none of them a variant family's:
# other status words ("pulled", "banned", "recalled"), a pharmacist, a stock decision.
DRUG_NAME_TEMPLATES = {
    "pulled": "Has {n} been pulled from the US market?",
    "banned": "Is {n} banned in the United States?",
    "pharmacist": "Can my pharmacist still dispense {n}?",
    "fda-approval": "Does {n} still have FDA approval?",
    "stock": "We would like to keep {n} in stock. Is that still allowed?",
    "what-happened": "What happened to {n}?",
    "recalled": "Was {n} recalled or withdrawn?",
    # written on 2026-12-05
    "nf-market": "Is {n} still on the market?",
    "nf-buy": "Can I still buy {n} in a US pharmacy?",
    "nf-status": "Regulatory status of {n}?",
    "nf-safe": "Was {n} taken off the market for safety reasons?",
    "nf-lower": "{n} still approved??",
    # written 2026-12-06, before their outcomes were seen: the name after "my", a reporter
    "b-my-name": "My {n} prescription ran out. Can it be refilled?",
    "b-medscape": "Medscape says {n} was withdrawn. Is that right?",
    "b-clinic": "Our clinic still stocks {n}. Is it still approved?",
}

# Frames for a question about four products' flaws: two consecutive pair rows asked together,
# their anchors and gold joined (each product's flaw beside it, as a list or in quotes).
FOUR_NAMED_TEMPLATES = {
    "four-quoted": 'Are the {a} issue "{fa}", the {b} issue "{fb}", the {c} issue "{fc}" and '
                   'the {d} issue "{fd}" all fixed?',
    "four-list": "Status check: {fa} in {a}; {fb} in {b}; {fc} in {c}; {fd} in {d}. "
                 "Which are still open?",
}


def drug_name(row: dict[str, Any]) -> str | None:
    """The drug name a drug ``paraphrase`` row's question gives, read back through its family's
    template ({t} or {g}), or a drug benchmark row's ``info.entity``; None for any other row."""
    info = row.get("info") or {}
    if info.get("domain") == "drug" and info.get("entity"):
        return str(info["entity"])
    template = DRUG_FAMILIES["paraphrase"].get(row.get("family", ""))
    if row.get("set") != "paraphrase" or not str(row.get("id", "")).startswith("drug-") or not template:
        return None
    head, _, tail = template.replace("{g}", "{t}").partition("{t}")
    found = re.fullmatch(re.escape(head) + "(.+)" + re.escape(tail), row["question"])
    return found.group(1) if found else None


def questions(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Distinct question -> the first row (and template) that asks it."""
    asked: dict[str, dict[str, Any]] = {}
    for row in rows:
        info = row.get("info") or {}
        asked_as: list[tuple[str, str]] = []
        if info.get("flaw"):
            asked_as = [(family, template.format(f=info["flaw"]))
                        for family, template in TEMPLATES.items()]
        elif info.get("flaws") and info.get("products"):
            (fa, fb), (a, b) = info["flaws"], info["products"]
            asked_as = [(family, template.format(a=a, b=b, fa=fa, fb=fb))
                        for family, template in PAIR_TEMPLATES.items()]
        elif info.get("names"):
            a, b = info["names"]
            asked_as = [(family, template.format(a=a, b=b))
                        for family, template in NAMED_PAIR_TEMPLATES.items()]
        elif str(row.get("set", "")).startswith("masked") and row.get("family") in MASKED_FACTS:
            keys = MASKED_FACTS[row["family"]]
            asked_as = [(family, template.format(**{k: str(info[k]).lower() for k in keys}))
                        for family, template in MASKED_TEMPLATES.get(keys, {}).items()]
        elif info.get("domain") == "law" and info.get("entity"):
            asked_as = [(family, template.format(e=info["entity"]))
                        for family, template in CASE_TEMPLATES.items()]
        elif row.get("set") == "partial_id" and info.get("digits"):
            frames = PARTIAL_TEMPLATES if info.get("product") else DRUG_PARTIAL_TEMPLATES
            asked_as = [(family, template.format(n=info["digits"], p=info.get("product", "")))
                        for family, template in frames.items()]
        elif info.get("identifier") and info.get("product"):
            asked_as = [(family, template.format(id=info["identifier"], p=info["product"]))
                        for family, template in IDENTIFIER_TEMPLATES.items()]
        elif (name := drug_name(row)) is not None:
            asked_as = [(family, template.format(n=name))
                        for family, template in DRUG_NAME_TEMPLATES.items()]
        for family, text in asked_as:
            text = text[0].upper() + text[1:]
            asked.setdefault(text, {**row, "question": text, "template": family})
    pairs = [row for row in rows if (row.get("info") or {}).get("flaws")]
    for first, second in zip(pairs[::2], pairs[1::2], strict=False):
        products = [*first["info"]["products"], *second["info"]["products"]]
        if (len({p.lower() for p in products}) < 4
                or set(first["anchors"]) & set(second["anchors"])):
            continue
        a, b, c, d = products
        fa, fb, fc, fd = (*first["info"]["flaws"], *second["info"]["flaws"])
        joined = {**first, "id": f"{first['id']}+{second['id']}",
                  "gold": sorted({*first["gold"], *second["gold"]}),
                  "anchors": sorted({*first["anchors"], *second["anchors"]})}
        for family, template in FOUR_NAMED_TEMPLATES.items():
            text = template.format(a=a, b=b, c=c, d=d, fa=fa, fb=fb, fc=fc, fd=fd)
            asked.setdefault(text, {**joined, "question": text, "template": family})
    for text, row in cross_pairs(rows).items():
        asked.setdefault(text, row)
    return asked


def anchor_golds(rows: Sequence[dict[str, Any]]) -> dict[str, frozenset[str]]:
    """Each anchor's own gold, as the variant builder gave it: from the rows asking about that
    anchor alone, and from rows every anchor of which is its own gold (open advisories, in
    force). An anchor given two different golds has none."""
    golds: dict[str, set[frozenset[str]]] = {}
    for row in rows:
        anchors, gold = row.get("anchors") or [], frozenset(row.get("gold") or ())
        if len(anchors) == 1:
            golds.setdefault(anchors[0], set()).add(gold)
        elif anchors and gold == frozenset(anchors):
            for anchor in anchors:
                golds.setdefault(anchor, set()).add(frozenset({anchor}))
    return {anchor: next(iter(found)) for anchor, found in golds.items() if len(found) == 1}


def cross_pairs(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The security pair rows' products asked across rows, once per ``PAIR_TEMPLATES`` frame:
    the first product of each row with the second of the next row of its set and split, and
    the second with the next row's first -- pairs no row asks, many more of them than the dev
    rows' own. Each product's anchor is its row's ``info.source_anchors`` entry (the builder's
    ``opaque_id``), its gold that anchor's own (``anchor_golds``); a pair with an anchor of
    unknown gold, two anchors alike, or one product twice is skipped."""
    golds = anchor_golds(rows)
    by_set: dict[tuple[str, str], list[list[tuple[str, str, str]]]] = {}
    for row in rows:
        info = row.get("info") or {}
        if not (info.get("flaws") and info.get("products") and info.get("source_anchors")):
            continue
        named = [(opaque_id("advisory", source), product, flaw) for source, product, flaw
                 in zip(info["source_anchors"], info["products"], info["flaws"], strict=True)]
        if sorted(a for a, _, _ in named) == sorted(row["anchors"]):
            by_set.setdefault((row.get("set", ""), row.get("split", "")), []).append(named)
    asked: dict[str, dict[str, Any]] = {}
    for (name, split), pairs in sorted(by_set.items()):
        for i, (first, second) in enumerate(pairwise(pairs)):
            for way, ((x, a, fa), (y, b, fb)) in zip("ab", ((first[0], second[1]), (first[1], second[0])),
                                                     strict=True):
                if x == y or a.lower() == b.lower() or x not in golds or y not in golds:
                    continue
                row = {"id": f"security-{name}-cross-{i + 1:04d}{way}", "set": name, "split": split,
                       "anchors": sorted({x, y}), "gold": sorted(golds[x] | golds[y])}
                for family, template in PAIR_TEMPLATES.items():
                    text = template.format(a=a, b=b, fa=fa, fb=fb)
                    text = text[0].upper() + text[1:]
                    asked.setdefault(text, {**row, "question": text, "template": f"cross-{family}"})
    return asked


def ask(car: CarClient, question: str, row: dict[str, Any], template: str,
        ) -> tuple[tuple[Any, frozenset[str], frozenset[str]], str]:
    """``question`` asked through ``CarClient.answer`` and scored against ``row``'s own gold and
    anchors: the (outcome, gold, anchors) ``score_verdicts`` reads, and the JSON line ``--out``
    writes. Shared with ``car_graph_benchmarks.details``."""
    verdict = car.answer(question)
    result = outcome(verdict)
    gold, anchors = frozenset(row["gold"]), frozenset(row["anchors"])
    line = json.dumps({
        "source": row["id"], "template": template, "question": question,
        "decisive": result.decisive,
        "right": verdict_right(result, gold, anchors) if result.decisive else None,
        "stale": verdict_stale(result, gold), "verdict": verdict.to_json()})
    return (result, gold, anchors), line


def report(per_template: dict[str, list[Any]], questions: int, by: str) -> dict[str, Any]:
    """The scores of every question and of each template's (under the key ``by``)."""
    everything = [s for scored in per_template.values() for s in scored]
    return {"questions": questions, "all": score_verdicts(everything).as_dict(),
            by: {t: score_verdicts(s).as_dict() for t, s in sorted(per_template.items())}}


def print_report(scores: dict[str, Any], by: str, what: str) -> None:
    overall = scores["all"]
    print(f"{scores['questions']} {what}: {overall['decisive']} decisive, "
          f"{overall['decisive_right']} right, {overall['stale']} stale")
    for template, scored in scores[by].items():
        print(f"  {template:16s} n={scored['n']:4d} decisive={scored['decisive']:3d} "
              f"right={scored['decisive_right']:3d} stale={scored['stale']:3d}")


def probe_arguments(argv: Sequence[str] | None, doc: str) -> tuple[argparse.Namespace, list[dict[str, Any]]]:
    """A probe's command line (query files, ``--out``, ``--json``; ``doc``: its module docstring)
    and every row of its query files."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("queries", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, help="one JSON line per question with its verdict")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for path in args.queries
            for line in path.read_text().splitlines() if line.strip()]
    return args, rows


def show(scores: dict[str, Any], as_json: bool, by: str, what: str) -> None:
    """A probe's report: its JSON, or the lines of ``print_report``."""
    if as_json:
        print(json.dumps(scores, indent=2))
    else:
        print_report(scores, by, what)


def main(argv: Sequence[str] | None = None) -> int:
    args, rows = probe_arguments(argv, __doc__ or "")
    asked = questions(rows)
    per_template: dict[str, list[Any]] = {}
    out = args.out.open("w") if args.out else None
    with CarClient.from_env() as car:
        for text, row in asked.items():
            scored, line = ask(car, text, row, row["template"])
            per_template.setdefault(row["template"], []).append(scored)
            if out is not None:
                out.write(line + "\n")
    if out is not None:
        out.close()
    show(report(per_template, len(asked), "by_template"), args.json, "by_template",
         "distinct questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
