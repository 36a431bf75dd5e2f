"""Every verdict set and probe in one run: the table the verdict work is judged by (`make verdicts`).

    python -m car_graph_benchmarks.verdicts [--raw DIR] [--split dev] [--domains security,drug]
                                            [--per-set N] [--no-probes] [--json] [--out FILE]

WIPES the database it connects to (NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD, else the managed
local server), so loopback servers only. For each variant domain (benchmarks/variants.py: an
outside user's export of a real corpus, identifiers only in attributes, explicit edges) it
ingests the export, then asks through ``CarClient.answer`` -- the public API a RAG app uses:

* every question of every variant set of the split (``<set>``);
* the phrasing probes (``probe:<template>``, benchmarks/phrasings.py: question frames of our own,
  none a variant family's) over the same rows;
* the other domain's ``structured`` and ``paraphrase`` questions (``foreign:<domain>``): their
  subject is not in this graph, so a decisive verdict is wrong and ``not_found`` is right.

Each row reports decisive precision and coverage, coverage counting an ambiguous verdict whose
readings all agree as decisive (``actionable``, as issue 56 decided), how often an ambiguous
verdict lists the gold, the stale rate (a voided document called in force) and the ``not_found``
share. Gold is the variant builder's (never computed with the code under test). Tune on ``dev``
only; ``test`` is for the report.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from car_graph import connection, schema
from car_graph.client import CarClient
from car_graph.local_server import LocalNeo4j
from car_graph.metrics import VerdictOutcome, VerdictScores, gold_among_candidates, score_verdicts, verdict_right
from car_graph.settings import Settings
from car_graph.target import resolve_target
from car_graph.verdict import Verdict, outcome
from car_graph_benchmarks.corpora import require_corpora_dir

DOMAINS = ("security", "drug")
FOREIGN_SETS = ("structured", "paraphrase")  # questions that name their subject plainly


@dataclass(frozen=True)
class SetRow:
    """One question set's verdict scores (``metrics.VerdictScores``, agreeing ambiguous verdicts
    counted as actionable), which set they are of and how long it took."""

    domain: str
    name: str
    scores: VerdictScores
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"domain": self.domain, "name": self.name, "seconds": self.seconds, **self.scores.as_dict()}


Scored = tuple[VerdictOutcome, frozenset[str], frozenset[str]]


def score_rows(domain: str, name: str, scored: Sequence[Scored], seconds: float) -> SetRow:
    """``metrics.score_verdicts`` over the (outcome, gold, anchors) triples."""
    return SetRow(domain, name, score_verdicts(scored), round(seconds, 1))


def ask_rows(car: CarClient, rows: Iterable[Mapping[str, Any]],
             record: Callable[[Mapping[str, Any], Verdict, Scored], None] | None = None) -> list[Scored]:
    """Each row's question through ``CarClient.answer`` (as of the row's ``as_of``, if any);
    ``record`` sees each row with its verdict and score."""
    scored: list[Scored] = []
    for row in rows:
        as_of = date.fromisoformat(row["as_of"]) if row.get("as_of") else None
        verdict = car.answer(row["question"], as_of=as_of)
        scored.append((outcome(verdict), frozenset(row["gold"]), frozenset(row["anchors"])))
        if record is not None:
            record(row, verdict, scored[-1])
    return scored


def evidence_line(domain: str, name: str, verdict: Verdict, scored: Scored,
                  split: str = "dev") -> dict[str, Any]:
    """What the fit reads of one verdict: the accounting, whether an entity the question links
    is held (then it is never ``not_found``), and how the verdict scored."""
    result, gold, anchors = scored
    retrieval = verdict.retrieval
    linked = retrieval is not None and (any(retrieval.anchor_held) or bool(retrieval.question_identifiers))
    return {"domain": domain, "set": name, "foreign": name.startswith("foreign:"),
            "split": split,
            "question": verdict.question, "verdict": verdict.kind.value, "linked": linked,
            "share": verdict.accounting.share if verdict.accounting is not None else None,
            "unexplained": list(verdict.accounting.unexplained) if verdict.accounting else [],
            "decisive": result.decisive,
            "right": verdict_right(result, gold, anchors) if result.decisive else None,
            "ambiguous_with_gold": result.ambiguous and gold_among_candidates(result, gold, anchors)}


def run_domain(car: CarClient, reset: Callable[[], None], domain: str, sets: Mapping[str, list[dict[str, Any]]],
               documents: Sequence[Any], foreign: Mapping[str, list[dict[str, Any]]], *,
               probes: bool, say: Callable[[str], None],
               dump: Callable[[dict[str, Any]], None] | None = None, reuse: bool = False,
               only: Sequence[str] = (), probe_cap: int | None = None) -> list[SetRow]:
    """Reset, ingest one domain's export, then score its sets, probes and the foreign questions.
    With ``reuse``, a graph already holding exactly the export's documents is asked as it is."""
    if reuse and holds_exactly(car, documents):
        say(f"[{domain}] the graph already holds the {len(documents)} documents: reused")
    else:
        reset()
        summary = car.ingest(documents)
        say(f"[{domain}] {summary.documents} documents ingested in {summary.seconds:.0f} s")
    rows: list[SetRow] = []

    def timed(name: str, questions: Sequence[Mapping[str, Any]]) -> None:
        if only and not any(name == o or name.startswith(f"{o}:") for o in only):
            return
        started = time.perf_counter()
        record = None if dump is None else (
            lambda row, verdict, one: dump(evidence_line(domain, name, verdict, one,
                                                         str(row.get("split", "dev")))))
        scored = ask_rows(car, questions, record)
        rows.append(score_rows(domain, name, scored, time.perf_counter() - started))
        say(f"[{domain}] {name}: {len(questions)} questions")

    for name, questions in sorted(sets.items()):
        if questions:
            timed(name, questions)
    if probes:
        from car_graph_benchmarks.phrasings import questions as probe_questions

        by_template: dict[str, list[dict[str, Any]]] = {}
        for text, row in probe_questions([r for rs in sets.values() for r in rs]).items():
            frame = by_template.setdefault(str(row["template"]), [])
            if probe_cap is None or len(frame) < probe_cap:
                frame.append({**row, "question": text})
        for template, questions in sorted(by_template.items()):
            timed(f"probe:{template}", questions)
    for other, questions in sorted(foreign.items()):
        if questions:
            timed(f"foreign:{other}", questions)
    return rows


def load_suites(raw_dir: Path, domains: Sequence[str], split: str, per_set: int | None,
                say: Callable[[str], None], n_distractors: int = 2000,
                cache: Path | None = None) -> dict[str, tuple[Any, dict[str, list[dict[str, Any]]]]]:
    """Each domain's export documents and its sets' rows of ``split`` (the first ``per_set``).
    Building an export reads the raw corpora for minutes; with ``cache`` (a folder) each built
    suite is kept there, keyed by what it is built from, and read back on the next run."""
    from car_graph_benchmarks.variants import build_variants

    suites: dict[str, tuple[Any, dict[str, list[dict[str, Any]]]]] = {}
    for domain in domains:
        key = f"{domain}-{n_distractors}-{_raw_stamp(raw_dir / domain)}.pickle"
        path = cache / key if cache is not None else None
        if path is not None and path.is_file():
            documents, all_sets = pickle.loads(path.read_bytes())
        else:
            say(f"[{domain}] building the export and its question sets")
            suite = build_variants(domain, raw_dir, n_distractors=n_distractors)
            documents, all_sets = suite.export.documents, suite.sets
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(pickle.dumps((documents, all_sets)))
        sets = {name: [r for r in rows if r["split"] == split][:per_set]
                for name, rows in all_sets.items()}
        suites[domain] = (documents, sets)
    return suites


def _raw_stamp(folder: Path) -> str:
    """What the raw files of a domain are, as far as a cache needs to know: names, sizes, times."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    text = "|".join(f"{p.relative_to(folder)}:{p.stat().st_size}:{p.stat().st_mtime_ns}" for p in files)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def run(car: CarClient, reset: Callable[[], None], raw_dir: Path, *, domains: Sequence[str] = DOMAINS,
        split: str = "dev", per_set: int | None = None, probes: bool = True,
        say: Callable[[str], None] = lambda _: None,
        dump: Callable[[dict[str, Any]], None] | None = None, n_distractors: int = 2000,
        cache: Path | None = None,
        foreign_questions: Mapping[str, list[dict[str, Any]]] | None = None,
        reuse: bool = False, only: Sequence[str] = (), probe_cap: int | None = None) -> list[SetRow]:
    """Each domain's graph in turn, asked its own sets, the probes, and the other domains'
    plainly named questions -- or ``foreign_questions`` (domain -> rows) when given."""
    suites = load_suites(raw_dir, domains, split, per_set, say, n_distractors, cache)
    rows: list[SetRow] = []
    for domain, (documents, sets) in suites.items():
        if foreign_questions is not None:
            foreign = {other: list(questions)  # given whole: the caller chose them
                       for other, questions in foreign_questions.items() if other != domain}
        else:  # a domain not built in this run: its committed question files
            foreign = {other: ([r for name in FOREIGN_SETS for r in suites[other][1].get(name, [])]
                               if other in suites else committed_questions(other, split))[:per_set or None]
                       for other in DOMAINS if other != domain}
        rows += run_domain(car, reset, domain, sets, documents, foreign, probes=probes, say=say,
                           dump=dump, reuse=reuse, only=only, probe_cap=probe_cap)
    return rows


def holds_exactly(car: CarClient, documents: Sequence[Any]) -> bool:
    """The graph holds as many documents as ``documents``, and every one of their ids."""
    if car.document_count() != len(documents):
        return False
    ids = [d.id for d in documents]
    held = {row["doc_id"] for row in car.store.read("existing_documents", ids=ids)}
    return held == set(ids)


def committed_questions(domain: str, split: str, sets: Sequence[str] = FOREIGN_SETS) -> list[dict[str, Any]]:
    """A domain's committed question rows (benchmarks/variants/<domain>/<set>.<split>.jsonl):
    foreign questions without building that domain's export."""
    folder = Path(__file__).resolve().parent / "variants" / domain
    return [json.loads(line) for name in sets
            for line in (folder / f"{name}.{split}.jsonl").read_text(encoding="utf-8").splitlines() if line]


def held_out(frame: str) -> bool:
    """Whether a probe frame is held out of the fit (a stable third of them, by name): the fit
    reads the variant sets and the other frames, the report shows these apart."""
    return frame.startswith("probe:") and int(hashlib.sha256(frame.encode()).hexdigest(), 16) % 3 == 0


@dataclass(frozen=True)
class Fit:
    """The NOT_FOUND threshold chosen on dev evidence, and what it does there."""

    min_share: float
    foreign_not_found: float       # share of the foreign questions answered not_found
    foreign_decisive: float        # share of them still answered decisively (wrong)
    fit_lost: dict[str, int]       # per fit set: answers lost (decisive, or ambiguous with gold)
    held_out_lost: dict[str, int]  # the same on the held-out frames

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _lost(lines: Sequence[Mapping[str, Any]], tau: float) -> dict[str, int]:
    lost: dict[str, int] = {}
    for line in lines:
        gone = (not line["linked"] and line["share"] is not None and line["share"] < tau
                and (line["decisive"] or line["ambiguous_with_gold"]))
        key = f"{line['domain']}:{line['set']}"
        lost[key] = lost.get(key, 0) + int(gone)
    return lost


def fit(lines: Sequence[Mapping[str, Any]], max_loss: float = 0.01) -> Fit:
    """The largest ``min_share`` at which no fit set loses more than ``max_loss`` of its
    questions' useful answers (a decisive verdict, or an ambiguous one listing the gold) to
    NOT_FOUND -- so the foreign questions (whose subject the graph does not hold) are
    ``not_found`` as often as the dev sets allow. Only in-domain dev lines constrain it."""
    own = [line for line in lines if not line["foreign"]]
    fitting = [line for line in own if not held_out(line["set"])]
    sizes: dict[str, int] = {}
    for line in fitting:
        key = f"{line['domain']}:{line['set']}"
        sizes[key] = sizes.get(key, 0) + 1
    shares = sorted({line["share"] for line in lines if line["share"] is not None} | {0.0})
    best = 0.0
    for low, high in zip(shares, [*shares[1:], 1.0], strict=True):
        tau = (low + high) / 2 if high > low else low  # between two observed shares
        lost = _lost(fitting, tau)
        if all(lost[name] <= int(max_loss * sizes[name]) for name in sizes):
            best = max(best, tau)
        else:
            break
    foreign = [line for line in lines if line["foreign"]]
    wanting = [line for line in foreign if not line["linked"] and line["share"] is not None
               and line["share"] < best]
    still = [line for line in foreign if line["decisive"] and line not in wanting]
    n = max(1, len(foreign))
    return Fit(round(best, 4), round((sum(line["verdict"] == "not_found" for line in foreign
                                          if line not in wanting) + len(wanting)) / n, 4),
               round(len(still) / n, 4),
               {k: v for k, v in _lost(fitting, best).items() if v},
               {k: v for k, v in _lost([x for x in own if held_out(x["set"])], best).items() if v})


def write_fit(result: Fit, path: Path) -> None:
    """Set ``accounting.min_share`` in the weights file, keeping the rest of it."""
    text = path.read_text(encoding="utf-8")
    lines = [f"  min_share: {result.min_share}   # fitted by car_graph_benchmarks.verdicts --fit"
             if line.strip().startswith("min_share:") else line for line in text.splitlines()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def table(rows: Sequence[SetRow]) -> str:
    """The Markdown table, one line per set."""
    lines = ["| domain | set | n | decisive precision | coverage | actionable coverage | "
             "ambiguous with gold | stale | not found |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        s = r.scores
        lines.append(f"| {r.domain} | {r.name} | {s.n} | {_pct(s.decisive_precision)} | "
                     f"{_pct(s.decisive_coverage)} | {_pct(s.actionable_coverage)} | "
                     f"{_pct(s.ambiguous_with_gold_rate)} | {_pct(s.stale_rate)} | {_pct(s.not_found_rate)} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--raw", type=Path, default=None, help="the raw corpora (default: $CAR_GRAPH_CORPORA "
                        "or ../shared/data/raw)")
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    parser.add_argument("--domains", default=",".join(DOMAINS))
    parser.add_argument("--per-set", type=int, default=None, help="ask only the first N questions of each set")
    parser.add_argument("--no-probes", action="store_true")
    parser.add_argument("--probe-cap", type=int, default=None, metavar="N",
                        help="ask at most N questions of each probe frame (the first N)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", type=Path, help="also write the JSON here")
    parser.add_argument("--dump", type=Path, help="one JSON line per question: its verdict and evidence")
    parser.add_argument("--fit", type=Path, metavar="DUMP",
                        help="fit the NOT_FOUND threshold on a --dump of a dev run and write it "
                             "to car_graph/resources/verdict.yaml (no database)")
    parser.add_argument("--instance", help="run on this managed local instance (it is wiped) "
                        "instead of NEO4J_URI or the default one")
    parser.add_argument("--only", default="", metavar="SET[,SET...]",
                        help="ask only these sets (a set name, `probe`, `foreign`, or `probe:NAME`)")
    parser.add_argument("--reuse", action="store_true",
                        help="ask a graph that already holds exactly one domain's export as it is "
                             "(run one domain per instance to keep both)")
    parser.add_argument("--cache", type=Path, default=Path("build/verdicts-cache"),
                        help="where built exports are kept between runs")
    args = parser.parse_args(argv)
    if args.fit is not None:
        evidence = [json.loads(line) for line in args.fit.read_text(encoding="utf-8").splitlines() if line]
        if any(line.get("split", "dev") != "dev" for line in evidence):
            parser.error("fit on a dev run only")
        result = fit(evidence)
        target_file = Path(__file__).resolve().parents[1] / "car_graph" / "resources" / "verdict.yaml"
        write_fit(result, target_file)
        print(json.dumps(result.to_json(), indent=2))
        return 0
    domains = [d.strip() for d in args.domains.split(",") if d.strip()]
    unknown = sorted(set(domains) - set(DOMAINS))
    if unknown:
        parser.error(f"unknown domains {unknown}; choose from {', '.join(DOMAINS)}")
    raw_dir = require_corpora_dir(args.raw)
    settings = Settings.from_env()
    if args.instance:  # a private managed server (started by `car-graph neo4j start --instance`)
        uri, user, password = LocalNeo4j(settings.home, settings.neo4j_version, args.instance).connection()
        settings = replace(settings, neo4j_uri=uri, neo4j_user=user, neo4j_password=password)
    target = resolve_target(settings)
    connection.ensure_local_target(target.uri, action="run the verdict sets (they wipe the database) against")
    started = time.perf_counter()

    def say(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    dump_file = args.dump.open("w", encoding="utf-8") if args.dump else None

    def dump(line: dict[str, Any]) -> None:
        if dump_file is not None:
            dump_file.write(json.dumps(line) + "\n")

    with CarClient.from_env(settings) as car:
        rows = run(car, lambda: schema.reset(car.driver, settings.database, target.uri), raw_dir,
                   domains=domains, split=args.split, per_set=args.per_set,
                   probes=not args.no_probes, say=say, dump=dump if dump_file else None,
                   cache=args.cache, reuse=args.reuse,
                   only=[o.strip() for o in args.only.split(",") if o.strip()],
                   probe_cap=args.probe_cap)
    if dump_file is not None:
        dump_file.close()
    data = {"split": args.split, "seconds": round(time.perf_counter() - started, 1),
            "sets": [r.to_json() for r in rows]}
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(data, indent=2) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
