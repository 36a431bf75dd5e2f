"""The benchmarks' ``car-graph`` commands: synthetic, reproduce, bench, corpora, known-at-bench.

car-graph's CLI adds every click command registered in the entry-point group ``car_graph.cli``
(benchmarks/pyproject.toml registers these five), so they appear as ``car-graph synthetic`` etc.
when this package is installed and the core never imports it. Their names, options and output
are contracts (docs/results.md records the reproduce command line). Heavy modules are imported
inside each command, so ``car-graph --help`` stays quick.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from car_graph import connection, schema
from car_graph.cli import CliState, pass_state, progress_option
from car_graph.client import CarClient
from car_graph_benchmarks.corpora import DOMAINS, ENV_VAR, CorporaError, require_corpora_dir


def _show_progress(flag: bool | None) -> bool:
    """As the core commands: progress bars by default only where someone watches (a TTY)."""
    return flag if flag is not None else sys.stderr.isatty()


@click.command("synthetic")
@click.argument("out_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--docs", type=click.IntRange(100, 1_000_000), default=2400, show_default=True)
@click.option("--seed", type=int, default=7, show_default=True)
def synthetic_benchmark(out_dir: Path, docs: int, seed: int) -> None:
    """Write the deterministic synthetic benchmark (documents, queries, rules) to OUT_DIR."""
    from car_graph_benchmarks import synthetic

    paths = synthetic.write(synthetic.generate(n_docs=docs, seed=seed), out_dir)
    for name, path in paths.items():
        click.echo(f"{name}: {path}")


@click.command("reproduce")
@click.option("--raw", "raw_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Folder holding the raw security/, law/ and drug/ data (needed for --domains). "
                   f"Default: ${ENV_VAR}, else ../shared/data/raw beside the checkout.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("docs/results.md"), show_default=True,
              help="Markdown report; the TCA@k plot goes next to it (tca_at_k.png).")
@click.option("--domains", default="security,law,drug", show_default=True,
              help="Comma-separated real domains ('' for none).")
@click.option("--variants", "variant_domains", default="security,drug", show_default=True,
              help="Real domains whose failure-class sets (outside-style export) run too ('' for none).")
@click.option("--synthetic/--no-synthetic", default=True, show_default=True,
              help="Also run the synthetic benchmark (2,400 documents, seed 7).")
@click.option("--compliance/--no-compliance", default=True, show_default=True,
              help="Also run the bring-your-own-domain compliance benchmark (12,250 documents, "
                   "generic JSONL), with explicit edges and with its rules file.")
@click.option("--distractors", type=click.IntRange(0, 1_000_000), default=2000, show_default=True,
              help="Distractor documents per real domain.")
@click.option("-k", type=click.IntRange(1, 20), default=5, show_default=True)
@progress_option
@pass_state
def reproduce_benchmarks(state: CliState, raw_dir: Path | None, out: Path, domains: str,
                         variant_domains: str, synthetic: bool, compliance: bool, distractors: int,
                         k: int, progress: bool | None) -> None:
    """Wipe the local database, then ingest and score every benchmark in turn; write OUT.

    Destructive, so loopback servers only.
    """
    from car_graph_benchmarks.reproduce import REAL_DOMAINS, VARIANT_DOMAINS, reproduce

    names = tuple(d.strip() for d in domains.split(",") if d.strip())
    variant_names = tuple(d.strip() for d in variant_domains.split(",") if d.strip())
    unknown = sorted(set(names) - set(REAL_DOMAINS)) + sorted(set(variant_names) - set(VARIANT_DOMAINS))
    if unknown:
        raise click.BadParameter(f"unknown {unknown}; choose from {', '.join(REAL_DOMAINS)}",
                                 param_hint="--domains")
    if names or variant_names:
        try:
            raw_dir = require_corpora_dir(raw_dir)
        except CorporaError as exc:
            raise click.UsageError(str(exc)) from exc
    target = state.target()
    connection.ensure_local_target(  # before connecting at all
        target.uri, action="run `reproduce` (it wipes the database) against")
    database = state.settings.database
    with connection.open_driver(target) as driver, CarClient(
            driver, database, embedding_model=state.settings.embedding_model, uri=target.uri) as car:
        def reset_database() -> None:
            schema.reset(driver, database, target.uri)

        report = reproduce(car, reset_database, raw_dir, out, domains=names,
                           variant_domains=variant_names, synthetic=synthetic,
                           with_compliance=compliance,
                           n_distractors=distractors, k=k, progress=_show_progress(progress))
    click.echo(f"{report.out}: {len(report.benchmarks)} benchmarks in {report.seconds / 60:.1f} min")
    if report.plot:
        click.echo(f"{report.plot}: TCA@k for k = 1..{report.k_max}")
    for check in report.targets:
        status = "met" if check.met else f"MISSED by {check.shortfall:.3f}"
        click.echo(f"  {check.benchmark} {check.query_set}: car TCA@{report.k} = "
                   f"{check.achieved:.3f} (target {check.target:.2f}) {status}")


# The scale bench keeps one definition of its options (argparse, shared with
# `python -m car_graph_benchmarks.bench`); this command hands its arguments through unchanged,
# --help included.
@click.command("bench", add_help_option=False,
               context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def bench(ctx: click.Context, args: tuple[str, ...]) -> None:
    """Scale benchmark on a fresh local Neo4j per scale; writes docs/benchmarks.md (see --help)."""
    from car_graph_benchmarks import bench as scale_bench

    ctx.exit(scale_bench.main(list(args), prog="car-graph bench"))


@click.group("corpora")
def corpora() -> None:
    """The raw corpora of the real-corpus benchmarks (security, law, drug)."""


@corpora.command("fetch")
@click.option("--dest", type=click.Path(file_okay=False, path_type=Path),
              help="Folder to fill with <domain>/<file> (default: <car-graph home>/corpora).")
@click.option("--domain", "domains", multiple=True, type=click.Choice(DOMAINS),
              help="Only this domain (repeatable; default: all).")
@click.option("--manifest", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A corpora manifest to use instead of the bundled corpora.json (e.g. a mirror).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bars on stderr (default: on when stderr is a terminal).")
@pass_state
def corpora_fetch(state: CliState, dest: Path | None, domains: tuple[str, ...],
                  manifest: Path | None, progress: bool | None) -> None:
    """Download the raw files a public URL serves byte for byte; verify size and sha256.

    Resumes partial downloads and retries network errors. Files that were filtered or converted
    from their source (all of security/, two others) cannot be downloaded: each gets one line
    saying where it came from. Exits 1 only when a file fails to download or verify.
    """
    from car_graph_benchmarks.corpora import fetch, load_manifest

    folder = dest if dest is not None else state.settings.home / "corpora"
    report = fetch(load_manifest(manifest), folder, domains=domains, say=click.echo,
                   progress=_show_progress(progress))
    click.echo(report.summary())
    if report.failures:
        raise click.ClickException(f"{len(report.failures)} file(s) failed; see the lines above")
    if any(r.status == "derived" for r in report.results):
        click.echo(f"Copy the derived files into {folder}/<domain>/ from a shared/data/raw "
                   f"checkout, then: export {ENV_VAR}={folder}")
    else:
        click.echo(f"Use them with: export {ENV_VAR}={folder}")


@click.command("known-at-bench")
@click.option("--raw", "raw_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help=f"Folder holding the raw security/ data. Default: ${ENV_VAR}, else "
                   "../shared/data/raw beside the checkout.")
@click.option("--work", "work_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Where the step files and question sets are written (default: "
                   "<car-graph home>/known-at-bench).")
@click.option("--split", type=click.Choice(["dev", "test", "all"]), default="test",
              show_default=True, help="Which questions to score (reports cite test).")
@click.option("--distractors", type=click.IntRange(0, 1_000_000), default=2000, show_default=True,
              help="Distractor documents, as the security benchmark.")
@click.option("--max-queries", type=click.IntRange(1, 100_000), default=None,
              help="Ask only this many base questions (a quick run).")
@click.option("-k", type=click.IntRange(1, 20), default=5, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@pass_state
def known_at_bench(state: CliState, raw_dir: Path | None, work_dir: Path | None, split: str,
                   distractors: int, max_queries: int | None, k: int, as_json: bool) -> None:
    """Ingest the security corpus in the order its sources recorded it (a few steps), then score
    car and hybrid on the security questions as known at each earlier date, with --known-at and
    without, against gold computed from the raw records as they stood then.

    Wipes the database, so loopback servers only (see car_graph_benchmarks.known_at).
    """
    import json

    from car_graph_benchmarks.known_at import build_history, run_history

    try:
        raw_dir = require_corpora_dir(raw_dir)
    except CorporaError as exc:
        raise click.UsageError(str(exc)) from exc
    target = state.target()
    connection.ensure_local_target(target.uri, action="run `known-at-bench` (it wipes the "
                                                      "database) against")
    bench = build_history(raw_dir, n_distractors=distractors, max_queries=max_queries)
    folder = work_dir if work_dir is not None else state.settings.home / "known-at-bench"
    database = state.settings.database
    say = (lambda _: None) if as_json else (lambda m: click.echo(m, err=True))
    with connection.open_driver(target) as driver, CarClient(
            driver, database, embedding_model=state.settings.embedding_model, uri=target.uri) as car:
        run = run_history(car, lambda: schema.reset(driver, database, target.uri), bench, folder,
                          k=k, split=split, say=say)
    if as_json:
        click.echo(json.dumps({**run.to_json(), "stats": bench.stats}, indent=2, default=str))
    else:
        click.echo(run.table())
        click.echo(f"{bench.stats['base_questions_whose_gold_changed_between_steps']} of "
                   f"{bench.stats['base_questions']} base questions' gold changed between steps; "
                   f"{run.seconds / 60:.1f} min; load averages {run.load}")
