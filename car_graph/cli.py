"""The ``car-graph`` command line.

Conventions, so new commands stay uniform:

* Settings are resolved once, in ``main``'s callback, into ``ctx.obj`` (a ``CliState``). The
  callback never connects: ``car-graph neo4j start`` must work when no server is up.
* A command that needs the database uses ``with state.driver() as driver:`` at use time.
* Each command parses options, calls one library function, prints the result.
* ``CarGroup.invoke`` is the one place where CarError (and driver errors) become a clean
  ``Error: ...`` message and exit code 1 instead of a traceback.
* Other distributions add commands through the entry-point group ``car_graph.cli`` (each entry
  point a click command or group, named by the entry point): car-graph-benchmarks adds
  ``synthetic``, ``reproduce``, ``bench`` and ``corpora`` that way. They are loaded only when a
  name is not a built-in command or when commands are listed (``--help``), and a plugin that
  fails to load costs one warning line on stderr, never the rest of the CLI.
"""

from __future__ import annotations

import atexit
import contextlib
import csv
import functools
import gc
import io
import json
import shutil
import sys
import threading
import webbrowser
from dataclasses import dataclass
from datetime import date, datetime
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

import click
import neo4j
from neo4j.exceptions import DriverError, Neo4jError
from rich.console import Console
from rich.text import Text
from rich.tree import Tree

from car_graph import analyst, connection, cypher, plots, schema
from car_graph import browser as browser_guide
from car_graph import target as targets
from car_graph.analyst import QueryResult, cell
from car_graph.client import CarClient
from car_graph.demo import render_retrieval, run_demo
from car_graph.errors import CarError, EmptyGraphError, RulesChangeRefused
from car_graph.evaluation import DEFAULT_SYSTEMS
from car_graph.ingest.pipeline import IngestSummary
from car_graph.ingest.sources import format_help, format_names
from car_graph.local_server import DEFAULT_MEMORY, MEMORY_PROFILES, LocalNeo4j, ServerStatus, memory_profile
from car_graph.settings import Settings
from car_graph.stats import graph_stats
from car_graph.types import (
    DocumentHistory,
    Explanation,
    Hop,
    RunRef,
    instant,
    parse_known_at,
)
from car_graph.verdict import VERDICT_MARGIN, Verdict, VerdictKind


@dataclass(frozen=True)
class CliState:
    settings: Settings

    def driver(self) -> neo4j.Driver:
        """A verified driver for the configured server; use it as a context manager."""
        return targets.connect(self.settings)

    def target(self) -> connection.Target:
        return targets.resolve_target(self.settings)

    def server(self, instance: str = targets.MANAGED_INSTANCE) -> LocalNeo4j:
        return LocalNeo4j(self.settings.home, self.settings.neo4j_version, instance)


PLUGIN_GROUP = "car_graph.cli"


class CarGroup(click.Group):
    """Turns car-graph's own errors into ``Error: <message>`` for every subcommand, and adds the
    plugin commands of the ``car_graph.cli`` entry-point group on first need."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plugins_loaded = False

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:  # built-ins never wait for plugins
            self.load_plugins()
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self.load_plugins()
        return super().list_commands(ctx)

    def load_plugins(self) -> None:
        """Add each entry point of ``car_graph.cli`` once; a broken one is one warning line."""
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for entry in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
            problem = self._add_plugin(entry)
            if problem:
                click.echo(f"car-graph: warning: plugin command {entry.name!r} ({entry.value}"
                           f"{_distribution(entry)}) not loaded: {problem}", err=True)

    def _add_plugin(self, entry: EntryPoint) -> str | None:
        if entry.name in self.commands:
            return "a command of that name already exists"
        try:
            command = entry.load()
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}".splitlines()[0]
        if not isinstance(command, click.Command):
            return f"{entry.value} is a {type(command).__name__}, not a click command"
        self.add_command(command, entry.name)
        return None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CarError as exc:
            raise click.ClickException(str(exc)) from exc
        except (Neo4jError, DriverError) as exc:
            raise click.ClickException(f"Neo4j: {exc}{_hint(exc)}") from exc


def _distribution(entry: EntryPoint) -> str:
    dist = entry.dist
    return f" from {dist.name} {dist.version}" if dist is not None else ""


def _hint(exc: Exception) -> str:
    """What to do about the server errors a new user meets first."""
    message = str(exc).lower()
    if "no such" in message and "index" in message:
        return ("\nThe search indexes do not exist yet: run `car-graph schema apply`, then load "
                "documents with `car-graph ingest FILE.jsonl` (or `car-graph demo`).")
    return ""


pass_state = click.make_pass_decorator(CliState)


@functools.cache
def _skip_final_collection() -> None:
    """At exit, freeze what is alive so the interpreter's last garbage collection skips it: a
    question's process holds spaCy, ONNX Runtime and the driver, and that collection took about
    0.25 s of each ``car-graph ask`` (issue 58). Objects are still freed, atexit still runs."""
    atexit.register(gc.freeze)


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=True, default=str))


@click.group(cls=CarGroup, name="car-graph", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--uri", envvar="NEO4J_URI", help="Bolt URI of an existing server (default: the managed local one).")
@click.option("--user", envvar="NEO4J_USER", help="User for --uri (default neo4j).")
@click.option("--password", envvar="NEO4J_PASSWORD", help="Password for --uri (prefer the env var).")
@click.option("--database", envvar="NEO4J_DATABASE", help="Database name (default neo4j).")
@click.version_option(package_name="car-graph")
@click.pass_context
def main(ctx: click.Context, uri: str | None, user: str | None, password: str | None,
         database: str | None) -> None:
    """Controlling Authority Retrieval on Neo4j."""
    _skip_final_collection()
    # Server notifications are filtered where drivers are made (connection.NOTIFICATION_CONFIG),
    # so what still reaches the "neo4j.notifications" log is worth a user's attention.
    ctx.obj = CliState(Settings.from_env(
        neo4j_uri=uri, neo4j_user=user, neo4j_password=password, database=database,
    ))


# ------------------------------------------------------------------ neo4j


@main.group("neo4j")
def neo4j_group() -> None:
    """Manage the local Neo4j Community server (no Docker; jars from Maven Central)."""


instance_option = click.option(
    "--instance", default=targets.MANAGED_INSTANCE, show_default=True,
    help="Name of the local server instance.",
)


def _print_status(status: ServerStatus, password_file: str | None = None) -> None:
    if not status.running:
        click.echo(f"Neo4j ({status.instance}) is not running   [{status.home}]")
        return
    rss = f"{status.rss_bytes / 2**20:.0f} MiB" if status.rss_bytes else "?"
    uptime = f"{status.uptime_seconds:.0f} s" if status.uptime_seconds is not None else "?"
    click.echo(f"Neo4j {status.version or '?'} ({status.instance}) running, pid {status.pid}")
    click.echo(f"  bolt:     {status.uri}")
    click.echo(f"  browser:  {status.http_url}browser/")
    click.echo(f"  uptime:   {uptime}   memory: {rss}")
    click.echo(f"  home:     {status.home}")
    if password_file:
        click.echo(f"  user neo4j, password in {password_file}")


@neo4j_group.command("install")
@instance_option
@pass_state
def neo4j_install(state: CliState, instance: str) -> None:
    """Fetch Neo4j's jars from Maven Central (once; later runs reuse them)."""
    lib = state.server(instance).install(progress=click.echo)
    click.echo(f"Neo4j {state.settings.neo4j_version} jars in {lib}")


@neo4j_group.command("start")
@instance_option
@click.option("--bolt-port", type=click.IntRange(1, 65535), help="Default 7687 (instance 'default').")
@click.option("--http-port", type=click.IntRange(1, 65535), help="Default 7474 (instance 'default').")
@click.option("--timeout", type=float, default=120, show_default=True, help="Seconds to wait for Bolt.")
@click.option("--memory", type=click.Choice(sorted(MEMORY_PROFILES)), default=DEFAULT_MEMORY,
              show_default=True,
              help="Heap and page cache: small (~10k documents), medium (~100k), large (~1M).")
@click.option("--heap", help="JVM heap, e.g. 4g (overrides the profile's).")
@click.option("--pagecache", help="Page cache, e.g. 2g (overrides the profile's).")
@pass_state
def neo4j_start(state: CliState, instance: str, bolt_port: int | None, http_port: int | None,
                timeout: float, memory: str, heap: str | None, pagecache: str | None) -> None:
    """Start the local server on 127.0.0.1 (installs it first if needed)."""
    server = state.server(instance)
    profile = memory_profile(memory, heap=heap, pagecache=pagecache)
    status = server.start(timeout=timeout, bolt_port=bolt_port, http_port=http_port,
                          progress=click.echo, memory=profile)
    _print_status(status, str(server.password_file))


@neo4j_group.command("stop")
@instance_option
@click.option("--timeout", type=float, default=60, show_default=True, help="Seconds before SIGKILL.")
@pass_state
def neo4j_stop(state: CliState, instance: str, timeout: float) -> None:
    """Stop the local server (only the process this instance started)."""
    state.server(instance).stop(timeout=timeout, progress=click.echo)


@neo4j_group.command("status")
@instance_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_state
def neo4j_status(state: CliState, instance: str, as_json: bool) -> None:
    """Show whether the local server runs, where, and how much memory it uses."""
    server = state.server(instance)
    status = server.status()
    if as_json:
        _echo_json(status.to_json())
    else:
        _print_status(status, str(server.password_file))


@neo4j_group.command("compact")
@instance_option
@click.option("--memory", type=click.Choice(sorted(MEMORY_PROFILES)), default=DEFAULT_MEMORY,
              show_default=True, help="Heap and page cache of the instance and its scratch copy.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@pass_state
def neo4j_compact(state: CliState, instance: str, memory: str, yes: bool, as_json: bool) -> None:
    """Rebuild the instance's store from its live records, so that what was deleted or purged
    is gone from the store files, transaction logs and index segments (docs/history.md). Stops
    the server for the swap and starts it again."""
    from car_graph.compaction import compact

    if not yes:
        click.confirm(f"Rebuild the store of instance {instance!r} (the server restarts)?", abort=True)
    report = compact(state.server(instance), memory=memory_profile(memory),
                     progress=(lambda _m: None) if as_json else click.echo)
    if as_json:
        _echo_json(report.to_json())
    else:
        click.echo(f"Compacted {report.instance}: {report.nodes} nodes, {report.relationships} "
                   f"relationships kept; {report.bytes_before / 2**20:.1f} MiB -> "
                   f"{report.bytes_after / 2**20:.1f} MiB on disk in {report.seconds} s")


# ------------------------------------------------------------------ schema


@main.group("schema")
def schema_group() -> None:
    """Constraints and indexes (graph_schema/*.cypher)."""


@schema_group.command("apply")
@click.option("--dimensions", type=click.IntRange(1, 4096), default=None,
              help="Embedding dimension of the vector index (default: the embedding model's).")
@pass_state
def schema_apply(state: CliState, dimensions: int | None) -> None:
    """Create missing constraints and indexes; refuse a vector dimension mismatch."""
    with state.driver() as driver:
        if dimensions is None:
            dimensions = _client(state, driver).embedder.dimensions
        report = schema.apply(driver, state.settings.database, dimensions)
    created = ", ".join(report.created) or "nothing (already up to date)"
    click.echo(f"Applied {len(report.applied)} statements (vector dimensions {report.dimensions}); "
               f"created: {created}")


@schema_group.command("show")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_state
def schema_show(state: CliState, as_json: bool) -> None:
    """List constraints and indexes."""
    with state.driver() as driver:
        objects = schema.describe(driver, state.settings.database)
    if as_json:
        _echo_json([o.to_json() for o in objects])
        return
    for o in objects:
        on = f"{':'.join(o.labels) or '*'}({', '.join(o.properties)})" if o.properties else "(all)"
        config = o.options.get("indexConfig") or {}
        extra = f"  {config}" if o.type in ("VECTOR", "FULLTEXT") else ""
        click.echo(f"{o.kind:<10} {o.type:<10} {o.name:<22} {on}{extra}")


# ------------------------------------------------------------------ reset


@main.command("reset")
@click.confirmation_option("--yes", prompt="Delete ALL data and car-graph's indexes and constraints?",
                           help="Confirm without prompting.")
@pass_state
def reset(state: CliState) -> None:
    """Delete all data and drop car-graph's schema (loopback servers only)."""
    target = state.target()
    connection.ensure_local_target(target.uri, action="reset")  # before connecting at all
    with connection.open_driver(target) as driver:
        report = schema.reset(driver, state.settings.database, target.uri)
    click.echo(f"Deleted {report.nodes_deleted} nodes; dropped {', '.join(report.dropped) or 'no schema'}")


# ------------------------------------------------------------------ CAR: ingest, retrieve, explain, eval


def _client(state: CliState, driver: neo4j.Driver) -> CarClient:
    return CarClient(driver, state.settings.database, embedding_model=state.settings.embedding_model,
                     uri=state.target().uri)


as_of_option = click.option(
    "--as-of", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
    help="Answer as of this date (YYYY-MM-DD): later documents and edges do not count.",
)


def _known_at(_ctx: click.Context, _param: click.Parameter,
              value: str | None) -> datetime | RunRef | None:
    try:
        return parse_known_at(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc


known_at_option = click.option(
    "--known-at", "known_at", metavar="DATE", default=None, callback=_known_at,
    help="Answer as car-graph would have then, from what it had committed by this date "
         "(YYYY-MM-DD or YYYYMMDD: the end of that day, UTC), ISO datetime, or run:N (the "
         "state run N left). Beside --as-of, which is the date the answer is about.")
strict_history_option = click.option(
    "--strict", "strict", is_flag=True,
    help="With --known-at: refuse an instant before a purge's cut-off instead of answering "
         "with a note.")


def _known_at_lines(known_at: datetime | None, note: str | None) -> str:
    """The text output's statement of which recorded state answered (empty: the current one)."""
    if known_at is None:
        return ""
    return f"as known at {known_at.isoformat()}" + (f"\nnote: {note}" if note else "")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
progress_option = click.option(
    "--progress/--no-progress", default=None,
    help="Progress bars on stderr (default: on when stderr is a terminal and --json is not given).")


def _show_progress(flag: bool | None, as_json: bool = False) -> bool:
    """Progress bars only where someone watches: never under --json, by default only on a TTY."""
    if as_json:
        return False
    return flag if flag is not None else sys.stderr.isatty()


def _day(value: datetime | None) -> date | None:
    return value.date() if value else None


@main.command("delete")
@click.argument("ids", nargs=-1, required=True)
@json_option
@pass_state
def delete(state: CliState, ids: tuple[str, ...], as_json: bool) -> None:
    """Delete documents IDS with their edges; what depended on them is re-evaluated."""
    with state.driver() as driver, _client(state, driver) as car:
        summary = car.delete(list(ids))
    if as_json:
        _echo_json(summary.to_json())
    else:
        click.echo(f"Deleted {len(summary.deleted)} document(s); re-evaluated {summary.reevaluated} neighbour(s)")
        _echo_rules_changes(summary)
    if summary.missing:
        raise click.ClickException(f"no such document(s): {', '.join(summary.missing)}")


@main.group("domains")
def domains_group() -> None:
    """The domains the graph knows: their documents, declarations and kept rule sets."""


@domains_group.command("list")
@json_option
@pass_state
def domains_list(state: CliState, as_json: bool) -> None:
    """Every domain of the graph's documents, declarations and rule sets."""
    with state.driver() as driver, _client(state, driver) as car:
        found = car.domains()
    if as_json:
        _echo_json([d.to_json() for d in found])
        return
    for d in found:
        rules = d.ruleset
        kept = (f"rules v{rules['version']} ({len(rules['rules'])} rules, {rules['source']}"
                + (f": {rules['origin']}" if rules["origin"] else "") + ")") if rules else "no rules kept"
        origin = "declared in YAML" if d.declared else "built-in" if d.builtin else "undeclared"
        click.echo(f"{d.name}: {d.documents} documents, {origin}, {kept}")


@domains_group.command("show")
@click.argument("name")
@json_option
@pass_state
def domains_show(state: CliState, name: str, as_json: bool) -> None:
    """A domain's declaration, its rules as YAML, and the recorded changes of its rules."""
    import yaml

    with state.driver() as driver, _client(state, driver) as car:
        info = car.domain(name)
    if as_json:
        _echo_json(info.to_json())
        return
    click.echo(f"{info.name}: {info.documents} documents")
    if info.declaration:
        click.echo(yaml.safe_dump({k: v for k, v in info.declaration.items() if v}, sort_keys=False).rstrip())
    if info.ruleset:
        click.echo(f"# rules v{info.ruleset['version']} ({info.ruleset['source']}, run "
                   f"{info.ruleset['run']}, {info.ruleset['recorded_at']})")
        click.echo(yaml.safe_dump({"rules": info.ruleset["rules"]}, sort_keys=False).rstrip())
    for change in info.changes:
        click.echo(f"# v{change['version']} at {change['at']} (run {change['run']}, "
                   f"{change['source']}): added {change['added']}, changed {change['changed']}, "
                   f"removed {change['removed']}; opened {change['opened']}; closed {change['closed']}")


@domains_group.command("remove")
@click.argument("name")
@click.confirmation_option("--yes", prompt="Forget this domain's declaration and rules (its rule "
                           "edges close; its documents stay)?", help="Confirm without prompting.")
@json_option
@pass_state
def domains_remove(state: CliState, name: str, as_json: bool) -> None:
    """Forget a domain's stored declaration and rule set; its rule edges close (reason 'rule
    removed'). Its documents stay: delete them with `car-graph delete`."""
    with state.driver() as driver, _client(state, driver) as car:
        removal = car.remove_domain(name)
    if as_json:
        _echo_json(removal.to_json())
    else:
        closed = sum(sum(r.values()) for r in removal.edges_closed.values())
        click.echo(f"Removed {name}: declaration {'removed' if removal.declaration else 'none'}, "
                   f"{len(removal.rules)} rule(s), {closed} edge(s) closed")


@main.command("purge")
@click.argument("doc_ids", nargs=-1, metavar="[DOC_ID]...")
@click.option("--before", "before", default=None, metavar="DATE",
              help="Erase history closed before this date (YYYY-MM-DD: before the day began) "
                   "or ISO datetime (UTC unless it names a zone).")
@click.option("--reason", default=None, help="Why: kept on the purge's recorded run.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@json_option
@pass_state
def purge(state: CliState, doc_ids: tuple[str, ...], before: str | None, reason: str | None,
          yes: bool, as_json: bool) -> None:
    """Really erase history, on purpose and on the record: everything closed before DATE
    (--before), or the whole recorded history of DOC_ID... (a deleted document's last version
    too). The purge is itself a recorded run (`car-graph runs`) with its cut-off and reason;
    the current state is untouched, and so is every answer at an instant after the cut-off.
    --known-at reads before it answer with a note (or refuse with --strict). The erased text
    stays in files on disk until `car-graph neo4j compact` (docs/history.md)."""
    if (before is None) == (not doc_ids):
        raise click.UsageError("give DOC_ID... or --before DATE (one of the two)")
    moment = None
    if before is not None:
        try:
            moment = instant(before, day_end=False)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--before") from exc
    what = (f"all history closed before {moment.isoformat()}" if moment is not None
            else f"the whole recorded history of {', '.join(doc_ids)}")
    if not yes:
        click.confirm(f"Erase {what}? This cannot be undone", abort=True, err=True)
    with state.driver() as driver, _client(state, driver) as car:
        summary = car.purge(moment, ids=doc_ids, reason=reason)
    if as_json:
        _echo_json(summary.to_json())
    else:
        click.echo(f"Purge run {summary.run}: erased {summary.versions} closed version(s), "
                   f"{summary.edges} closed edge(s) and {summary.retired} deleted document(s) "
                   + (f"closed before {summary.before}" if summary.before else
                      f"of {', '.join(summary.documents) or 'nothing'}")
                   + (f"; not in the graph: {', '.join(summary.missing)}" if summary.missing else ""))


@main.command("ingest")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(format_names()), default="jsonl", show_default=True,
              help=format_help())  # jsonl and the installed domains' formats
@click.option("--rules", "rules_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Rules YAML: the new version of the rule set of the domain it names (the graph "
                   "keeps it and applies it to every later ingest; default: the graph's rule "
                   "sets, and the bundled rules of built-in domains).")
@click.option("--strict", is_flag=True,
              help="Exit 1 if any input record was skipped (valid records are still loaded), and "
                   "refuse, before writing anything, rules that match nothing or cannot evaluate "
                   "records.")
@click.option("--dry-run", is_flag=True,
              help="Write nothing; report what the ingest would change: documents, edges opened "
                   "and closed, statuses that would flip.")
@click.option("--yes", is_flag=True,
              help="Apply a rules change even when it would close more than a quarter of its "
                   "rule set's edges (asked first on a terminal, refused otherwise).")
@click.option("--refresh", is_flag=True,
              help="Write unchanged records again too, so the rules re-evaluate them.")
@progress_option
@click.option("--batch-size", type=click.IntRange(1, 100_000), default=256, show_default=True,
              help="Records per batch: one embedding call, one write transaction, then the "
                   "batch's supersession (the unit a killed ingest resumes from).")
@json_option
@pass_state
def ingest(state: CliState, path: Path, fmt: str, rules_path: Path | None, strict: bool,
           dry_run: bool, yes: bool, refresh: bool, progress: bool | None, batch_size: int,
           as_json: bool) -> None:
    """Load documents, entities and SUPERSEDES edges (idempotent; bad lines are reported).

    Each skipped record is listed on stderr as FILE:LINE: REASON. Without --strict the command
    exits 0 when only input records were skipped; with --strict it exits 1. Rules that match no
    document, and records a rule cannot evaluate, are warned about on stderr.
    """
    with state.driver() as driver, _client(state, driver) as car:
        def ingest_once(confirmed: bool) -> IngestSummary:
            return car.ingest_file(path, format=fmt, rules_path=rules_path,
                                   progress=_show_progress(progress, as_json),
                                   batch_size=batch_size, refresh=refresh, strict=strict,
                                   yes=confirmed, dry_run=dry_run)
        try:
            summary = ingest_once(yes)
        except RulesChangeRefused as refused:
            for warning in getattr(refused.change, "warnings", ()):
                click.echo(f"warning: {warning}", err=True)
            if as_json or not sys.stdin.isatty():
                _echo_rules_changes(refused.change, err=True)
                raise
            _echo_rules_changes(refused.change)
            click.confirm(str(refused).split(";")[0] + ". Apply it?", abort=True)
            summary = ingest_once(True)
    if as_json:
        _echo_json({**summary.to_json(), "skipped_count": len(summary.skipped), "strict": strict})
    else:
        verb = "Would ingest" if summary.dry_run else "Ingested"
        click.echo(
            f"{verb} {summary.documents} documents: {summary.added} added, {summary.updated} "
            f"replaced, {summary.unchanged} unchanged ({summary.scope_links} scope links, "
            f"{summary.mentions} mentions) in {summary.seconds:.1f} s"
        )
        _echo_rules_changes(summary)
        for rule, count in sorted(summary.edges_by_rule.items()):
            click.echo(f"  SUPERSEDES by {rule}: {count}")
        click.echo(f"  unresolved flags: {summary.unresolved}; graph: {summary.graph}")
        for cycle in summary.cycles:
            click.echo(f"  cycle: {' -> '.join(cycle)} -> {cycle[0]}")
        for missing in summary.missing_references[:20]:
            click.echo(f"  reference to a missing document: {missing}")
        if summary.dry_run:
            for flip in summary.flips:
                click.echo(f"  would flip: {flip['id']} {flip['before']} -> {flip['after']}")
            click.echo("Dry run: nothing was written.")
    for warning in summary.warnings:
        click.echo(f"warning: {warning}", err=True)
    for problem in summary.skipped:
        click.echo(f"skipped {problem}", err=True)
    if summary.skipped:
        message = (f"{len(summary.skipped)} input record(s) skipped (listed above); "
                   f"every valid record was loaded")
        if strict:
            raise click.ClickException(f"{message} (--strict)")
        click.echo(f"Warning: {message}. Pass --strict to make this an error.", err=True)


def _echo_rules_changes(summary: Any, err: bool = False) -> None:
    """A summary's rules changes (the diff, edges opened and closed) and what its run changed."""
    for change in getattr(summary, "rules_changes", ()):
        diff = change.diff
        was = f"v{diff.previous_version}" if diff.previous_version else "new"
        click.echo(f"  rules {diff.ruleset} ({was} -> v{change.version}): added "
                   f"{list(diff.added)}, changed {list(diff.changed)}, removed {list(diff.removed)}",
                   err=err)
        for line in diff.lines if diff.previous_version else ():
            click.echo(f"    {line}", err=err)
    opened = ", ".join(f"{rule} {n}" for rule, n in sorted(summary.edges_opened.items()))
    closed = ", ".join(f"{rule} {n} ({reason})" for rule, reasons in sorted(summary.edges_closed.items())
                       for reason, n in sorted(reasons.items()))
    if opened or closed:
        click.echo(f"  edges opened: {opened or 'none'}; closed: {closed or 'none'}", err=err)


@main.command("retrieve")
@click.argument("question")
@click.option("-k", type=click.IntRange(1, 100), default=5, show_default=True, help="Results.")
@as_of_option
@known_at_option
@strict_history_option
@click.option("--domain", help="Only documents of this domain.")
@json_option
@pass_state
def retrieve(state: CliState, question: str, k: int, as_of: datetime | None,
             known_at: datetime | None, strict: bool, domain: str | None, as_json: bool) -> None:
    """The controlling documents for QUESTION, each with its chain from the anchor."""
    with state.driver() as driver, _client(state, driver) as car:
        verdict = car.answer(question, as_of=_day(as_of), k=k, domain=domain, known_at=known_at,
                             strict=strict)
        _refuse_empty_graph(car, verdict)
    retrieval = verdict.retrieval
    assert retrieval is not None  # answer() always keeps the retrieval it decided on
    if as_json:
        _echo_json({**retrieval.to_json(), "verdict": verdict.kind.value,
                    "verdict_summary": verdict.summary})
    else:
        if retrieval.known_at is not None:
            click.echo(_known_at_lines(retrieval.known_at, retrieval.known_at_note))
        click.echo(f"{verdict.kind.value.upper().replace('_', ' ')}: {verdict.summary}")
        click.echo(render_retrieval(retrieval))


def _refuse_empty_graph(car: CarClient, verdict: Verdict) -> None:
    """Nothing found in an empty graph is a setup problem, not an answer."""
    if verdict.kind is VerdictKind.NOT_FOUND and car.document_count() == 0:
        raise EmptyGraphError()


def render_verdict(verdict: Verdict) -> str:
    """The verdict line, then each controlling document with the chain and evidence to it."""
    lines = [f"{verdict.kind.value.upper().replace('_', ' ')}: {verdict.summary}"]
    for result in verdict.controlling:
        if result.doc_id == verdict.subject_id:
            continue
        lines.append(f"  controlling: {result.doc_id} [{result.status}] {result.title}")
        for hop in result.chain:
            lines.append(f"    {hop.from_id} -> {hop.to_id} {hop.how()}")
            if hop.evidence:
                lines.append(f"      evidence: {hop.evidence}")
    for label, readings in (("candidate", verdict.candidates), ("subject", verdict.subjects)):
        for reading in readings:
            if reading.subject_id is None:  # a named subject left open: what it could be, or why not
                what = (f"one of {', '.join(c.subject_id or '' for c in reading.candidates)}"
                        if reading.candidates else "; ".join(reading.notes))
                lines.append(f"  {label}: [{_status_of(reading)}] {what}")
                continue
            lines.append(f"  {label}: {reading.subject_id} [{_status_of(reading)}] "
                         f"{reading.subject_title}")
            for result in reading.controlling:
                if result.doc_id != reading.subject_id:
                    lines.append(f"    controlled by: {result.doc_id} [{result.status}] {result.title}")
    lines.extend(f"  note: {note}" for note in verdict.notes)
    if verdict.ambiguous_scopes:
        lines.append("  note: scope holds several chains (kappa > 1): " + ", ".join(verdict.ambiguous_scopes))
    return "\n".join(lines)


def render_why(verdict: Verdict) -> str:
    """``Verdict.why()`` as lines: the decision, each top anchor's evidence, the accounting."""
    why = verdict.why()
    head = f"why: singled out by {why['singled_out_by']}" if why["singled_out_by"] else "why:"
    if why["lead"] is not None:
        head += f" (lead {why['lead']} over the next, margin {why['margin']})"
    lines = [head]
    if why["question_entities"]:
        lines.append(f"  question links: {', '.join(why['question_entities'])}")
    for a in why["anchors"]:
        holds = f" holds {', '.join(a['holds'])}" if a["holds"] else ""
        lines.append(f"  {a['role']:9s} {a['doc_id']} score {a['score']} text fit {a['text_fit']}{holds}")
    accounting = why["accounting"]
    if accounting is not None:
        missing = f"; no document holds {', '.join(accounting['unexplained'])}" if accounting["unexplained"] else ""
        lines.append(f"  accounted for: {accounting['share']:.0%} of the question's content words "
                     f"(best {accounting['best']}){missing}")
    return "\n".join(lines)


def _status_of(verdict: Verdict) -> str:
    return "active" if verdict.kind is VerdictKind.IN_FORCE else verdict.kind.value


@main.command("ask")
@click.argument("question")
@as_of_option
@known_at_option
@strict_history_option
@click.option("-k", type=click.IntRange(1, 100), default=5, show_default=True,
              help="Results retrieved before the verdict is decided.")
@click.option("--domain", help="Only documents of this domain.")
@click.option("--context", "show_context", is_flag=True,
              help="Print the prompt-ready context block (verdict + numbered sources) instead.")
@click.option("--why", "show_why", is_flag=True,
              help="Also print the evidence weighed: each top anchor's score, text fit, the "
                   "entities it holds and its role, and what the documents found account for.")
@json_option
@pass_state
def ask(state: CliState, question: str, as_of: datetime | None, known_at: datetime | None,
        strict: bool, k: int, domain: str | None, show_context: bool, show_why: bool,
        as_json: bool) -> None:
    """Is what QUESTION asks about still in force? A verdict with the chain and evidence."""
    with state.driver() as driver, _client(state, driver) as car:
        verdict = car.answer(question, as_of=_day(as_of), k=k, domain=domain, known_at=known_at,
                             strict=strict)
        _refuse_empty_graph(car, verdict)
    # the instant the answer is for: the one asked, or the last commit when that is later
    seen = verdict.retrieval.known_at if verdict.retrieval is not None else None
    note = verdict.retrieval.known_at_note if verdict.retrieval is not None else None
    if as_json:
        # known_at only when asked for: the shape without it is unchanged
        _echo_json({**verdict.to_json(), **({"known_at": seen.isoformat()} if seen else {}),
                    **({"known_at_note": note} if note else {})})
    elif show_context:
        if seen is not None:
            click.echo(_known_at_lines(seen, note))
        click.echo(verdict.context())
    else:
        if seen is not None:
            click.echo(_known_at_lines(seen, note))
        click.echo(render_verdict(verdict))
        if show_why:
            click.echo(render_why(verdict))


@main.command("explain")
@click.argument("doc_id")
@as_of_option
@known_at_option
@strict_history_option
@json_option
@pass_state
def explain(state: CliState, doc_id: str, as_of: datetime | None, known_at: datetime | None,
            strict: bool, as_json: bool) -> None:
    """Status of DOC_ID and the chains to the documents that control it."""
    with state.driver() as driver, _client(state, driver) as car:
        explanation = car.explain(doc_id, as_of=_day(as_of), known_at=known_at, strict=strict)
    if as_json:
        _echo_json(explanation.to_json())
        return
    click.echo(render_explanation(explanation), nl=False)


CHECK_STATUSES = ("superseded", "partially_superseded", "withdrawn", "unresolved", "not_found", "mixed")


def _statuses(_ctx: click.Context, _param: click.Parameter, value: str | None) -> tuple[str, ...]:
    wanted = tuple(s.strip() for s in (value or "").split(",") if s.strip())
    unknown = [s for s in wanted if s not in CHECK_STATUSES]
    if unknown:
        raise click.BadParameter(f"unknown status {', '.join(unknown)}; choose from "
                                 f"{', '.join(CHECK_STATUSES)}")
    return wanted


@main.command("check")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@as_of_option
@known_at_option
@click.option("--format", "fmt", type=click.Choice(["table", "json", "sarif"]), default="table",
              show_default=True, help="The report: a table, JSON, or SARIF 2.1.0 for CI.")
@json_option
@click.option("--fail-on", "fail_on", default=None, callback=_statuses, metavar="STATUSES",
              help="Exit 1 when a mention cites a document of one of these statuses "
                   "(comma-separated, e.g. superseded,withdrawn).")
@pass_state
def check(state: CliState, path: Path, as_of: datetime | None, known_at: datetime | None,
          fmt: str, as_json: bool, fail_on: tuple[str, ...]) -> None:
    """Cite-check a text file (text, Markdown, text taken from a PDF): every identifier and
    name of a document the graph holds, with its line, status and controlling document."""
    text = path.read_text(encoding="utf-8", errors="replace")
    with state.driver() as driver, _client(state, driver) as car:
        report = car.check(text, as_of=_day(as_of), known_at=known_at)
    if as_json or fmt == "json":
        _echo_json(report.to_json())
    elif fmt == "sarif":
        _echo_json(report.sarif(str(path), fail_on))
    else:
        click.echo(report.table())
    failing = report.failing(fail_on)
    if failing:
        click.echo(f"{len(failing)} mention(s) cite a document that is "
                   f"{' or '.join(sorted({s for m in failing for s in m.statuses} & set(fail_on)))}",
                   err=True)
        raise SystemExit(1)


@main.command("runs")
@json_option
@pass_state
def runs(state: CliState, as_json: bool) -> None:
    """Every recorded run (ingest, delete, purge, rules removal), oldest first: its number (what
    --known-at run:N names), kind, source, when it started and when its last commit closed
    (its writes are visible to --known-at from each commit), and its counts."""
    with state.driver() as driver, _client(state, driver) as car:
        found = car.runs()
    if as_json:
        _echo_json({"runs": [r.to_json() for r in found]})
        return
    for r in found:
        counts = ", ".join(f"{k} {v}" for k, v in r.counts.items()) or "-"
        extra = (f" cut-off {r.cutoff.isoformat()}" if r.cutoff else "") + \
                (f" documents {', '.join(r.documents)}" if r.documents else "") + \
                (f" reason: {r.reason}" if r.reason else "")
        click.echo(f"run {r.run} {r.command} source {r.source or '-'} started "
                   f"{r.started.isoformat()} committed "
                   f"{r.committed.isoformat() if r.committed else 'never'} "
                   f"({r.commits} commit(s)) {counts}{extra}")


@main.command("history")
@click.argument("doc_id")
@json_option
@pass_state
def history(state: CliState, doc_id: str, as_json: bool) -> None:
    """Every recorded version of DOC_ID and every edge into or out of it, closed ones included:
    rule, evidence, valid time (published, effective) and transaction time (recorded from/until,
    the run that closed it and why). A deleted document has its history too."""
    with state.driver() as driver, _client(state, driver) as car:
        found = car.history(doc_id)
    if as_json:
        _echo_json(found.to_json())
        return
    click.echo(render_history(found), nl=False)


def render_history(found: DocumentHistory) -> str:
    """Versions oldest first, then edges by the time they were recorded; each with its
    recorded interval ("now" when still current)."""

    def interval(item: dict[str, Any]) -> str:
        until = item.get("recorded_until") or "now"
        closed = (f" (closed by run {item['closed_by_run']}: {item['closed_reason']})"
                  if item.get("closed_reason") else "")
        return f"recorded {item.get('recorded_from') or 'from the start'} .. {until}{closed}"

    status = "current" if found.current else f"deleted at {found.retired_at}"
    lines = [f"{found.doc_id} [{status}]", "versions:"]
    for version in found.versions:
        dates = ", ".join(f"{k} {version[k]}" for k in ("published", "withdrawn", "unresolved_from")
                          if version.get(k))
        lines.append(f"  {interval(version)}: {version.get('title') or '-'}"
                     + (f" ({dates})" if dates else ""))
    lines.append("edges:" if found.edges else "edges: none")
    for edge in found.edges:
        arrow = "superseded by" if edge["direction"] == "incoming" else "supersedes"
        effective = f" effective {edge['effective']}" if edge.get("effective") else " (undated)"
        part = " (in part)" if edge.get("partial") else ""
        lines.append(f"  {arrow} {edge['other_id']} via {edge['rule']}{effective}{part}; "
                     f"{interval(edge)}")
        lines.append(f"    evidence: {edge.get('evidence') or '-'}")
    return "\n".join(lines) + "\n"


def render_explanation(explanation: Explanation) -> str:
    """The document, its scope and direct edges, then each chain to a controlling document as
    a tree (statuses, dates, rules, evidence)."""

    def label(doc_id: str, title: str = "", status: str = "", published: date | None = None) -> str:
        parts = [doc_id, f"[{status}]" if status else "", title, f"({published})" if published else ""]
        return " ".join(p for p in parts if p)

    def hop_label(hop: Hop, target: str) -> str:
        when = f" on {hop.effective}" if hop.effective else " (undated)"
        return f"{target} via {hop.rule}{when}{' (in part)' if hop.partial else ''}"

    when = f" as of {explanation.as_of}" if explanation.as_of else ""
    when += f" as known at {explanation.known_at.isoformat()}" if explanation.known_at else ""
    when += f" (note: {explanation.known_at_note})" if explanation.known_at_note else ""
    root = Tree(Text(label(explanation.doc_id, explanation.title, str(explanation.status)) + when))
    root.add(Text("scope: " + (", ".join(explanation.scope) or "-")))
    if explanation.supersedes:
        older = root.add(Text("supersedes"))
        for hop in explanation.supersedes:
            older.add(Text(hop_label(hop, hop.from_id))).add(Text(f"evidence: {hop.evidence or '-'}"))
    titles = {c.doc_id: c.title for c in explanation.controlling}
    for result in explanation.controlling:
        if result.doc_id == explanation.doc_id:
            root.add(Text(f"in force itself [{result.status}]"))
            continue
        branch = root.add(Text("controlled by " + label(
            result.doc_id, result.title, str(result.status), result.published)))
        # the chain along full edges, each document with the partial edges into it beside it
        _add_amendments(branch, result.amendments, explanation.doc_id)
        for hop in result.chain:
            target = f"{hop.to_id} {titles.get(hop.to_id, '')}".strip()
            branch = branch.add(Text("superseded by " + hop_label(hop, target)))
            if hop.evidence:
                branch.add(Text(f"evidence: {hop.evidence}"))
            _add_amendments(branch, result.amendments, hop.to_id)
    out = io.StringIO()
    Console(file=out, width=max(100, shutil.get_terminal_size().columns), no_color=True,
            highlight=False, emoji=False).print(root)
    return out.getvalue()


def _add_amendments(node: Tree, amendments: tuple[Hop, ...], doc_id: str) -> None:
    """Beside a document of a chain, the partial edges in force into it that the chain does
    not take (``Result.amendments``)."""
    for amendment in amendments:
        if amendment.from_id == doc_id:
            when = f" on {amendment.effective}" if amendment.effective else " (undated)"
            node.add(Text(f"amended in part by {amendment.to_id} via {amendment.rule}{when}"
                          + (f"; evidence: {amendment.evidence}" if amendment.evidence else "")))


def _query_records(result: QueryResult) -> str:
    """Rows as records (one "column: value" line each): analyst rows hold lists and evidence
    text that no terminal-wide table shows whole."""

    width = max((len(c) for c in result.columns), default=0)
    lines = [f"{result.name}: {len(result.rows)} row(s)"]
    for number, row in enumerate(result.rows, start=1):
        lines.append(f"-- row {number}")
        lines.extend(f"{column:<{width}}  {cell(row[column])}" for column in result.columns)
    return "\n".join(lines)


@main.command("query")
@click.argument("name", required=False)
@click.option("--param", "-p", "assignments", multiple=True, metavar="NAME=VALUE",
              help="A parameter; VALUE is JSON when it parses (10, null, [..], \"text\"), else text.")
@click.option("--embed", "embeds", multiple=True, metavar="NAME=TEXT",
              help="Bind NAME to the embedding of TEXT (stale_crowding's $embedding).")
@click.option("--list", "list_queries", is_flag=True, help="List the analyst queries and their parameters.")
@click.option("--show", "show", is_flag=True,
              help="Print the statement's text instead (any catalogue name, e.g. car, anchors, "
                   "analyst/chain; includes expanded), to paste into Neo4j Browser.")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (nested values as JSON).")
@json_option
@pass_state
def query(state: CliState, name: str | None, assignments: tuple[str, ...], embeds: tuple[str, ...],
          list_queries: bool, show: bool, as_csv: bool, as_json: bool) -> None:
    """Run an analyst query (queries/analyst/NAME.cypher) in a READ transaction."""

    if show and name:
        analyst_name = f"{cypher.ANALYST_FOLDER}/{name}"
        click.echo(cypher.text(analyst_name if analyst_name in cypher.analyst_names() else name), nl=False)
        return
    if list_queries or not name:
        for full in cypher.analyst_names():
            signature = ", ".join(f"${p.name}{'?' if p.optional else ''}"
                                  for p in cypher.declared_parameters(full).values())
            purpose = cypher.purpose(full)
            click.echo(f"{full.split('/', 1)[1]:<24} {signature}\n    {purpose}")
        return
    params: dict[str, Any] = dict(analyst.parse_param(a) for a in assignments)
    with state.driver() as driver, _client(state, driver) as car:
        for key, text in (analyst.parse_param(e) for e in embeds):
            params[key] = car.embedder.embed_query(str(text))
        result = car.query(name, **params)
    if as_json:
        _echo_json(result.to_json())
    elif as_csv:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(result.columns)
        for row in result.rows:
            writer.writerow([analyst.cell(row[c]) for c in result.columns])
        click.echo(out.getvalue(), nl=False)
    else:
        click.echo(_query_records(result))


@main.command("browser")
@click.argument("doc_id", required=False)
@click.option("--question", help="Show the chain of the document this question is about (its verdict's subject).")
@as_of_option
@click.option("--open", "open_browser", is_flag=True, help="Also open Browser in the default web browser.")
@click.option("--http-url", help="Browser's server address for --uri servers (default: the Bolt host, port 7474).")
@click.option("--labels/--no-labels", default=True, show_default=True,
              help="Refresh the status labels the style colours (a write: labels only).")
@click.option("--serve-guide", is_flag=True,
              help="Also serve the steps as a Browser guide on localhost (`:guide URL`) until Ctrl-C.")
@click.option("--guide-port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port of --serve-guide (0: any free port).")
@pass_state
def browser(state: CliState, doc_id: str | None, question: str | None, as_of: datetime | None,
            open_browser: bool, http_url: str | None, labels: bool, serve_guide: bool,
            guide_port: int) -> None:
    """Print what to paste into Neo4j Browser to see a chain, coloured by status."""

    target = state.target()
    if target.managed:
        http_url = state.server().status().http_url
    login = f"user {target.user}" + (f", password in {state.server().password_file}" if target.managed else "")
    summary = None
    with connection.open_driver(target) as driver, _client(state, driver) as car:
        if question and not doc_id:
            verdict = car.answer(question, as_of=_day(as_of))
            doc_id, summary = verdict.subject_id, verdict.summary
            if doc_id is None:
                raise click.ClickException(f"no document found for {question!r}")
        elif doc_id:
            car.explain(doc_id)  # an unknown id fails here, with the nearest ids
        guide = browser_guide.guide(car.store, browser_guide.browser_url(http_url, target.uri),
                                    doc_id, _day(as_of), relabel=labels)
    if guide.labelled:
        click.echo("Status labels refreshed: " + ", ".join(f"{k} {v}" for k, v in guide.labelled.items()))
    server = None
    if serve_guide:
        server = browser_guide.GuideServer(browser_guide.guide_html(guide, question, summary),
                                           port=guide_port).start()
    click.echo(guide.text(login, guide_url=server.url if server else None))
    if open_browser:

        webbrowser.open(guide.url)
    if server:
        click.echo("Serving the guide; Ctrl-C stops it.")
        try:
            _wait_for_ctrl_c()
        finally:
            server.close()


def _wait_for_ctrl_c() -> None:
    with contextlib.suppress(KeyboardInterrupt):
        threading.Event().wait()


plot_option = click.option(
    "--plot", "plot_path", type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Also draw a PNG here (needs matplotlib: pip install 'car-graph[plot]').")


@main.command("eval")
@click.argument("queries", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-k", type=click.IntRange(1, 100), default=5, show_default=True)
@click.option("--systems", default=",".join(DEFAULT_SYSTEMS), show_default=True,
              help="Comma-separated: bm25, dense, hybrid, car.")
@click.option("--domain", help="Only documents of this domain.")
@known_at_option
@plot_option
@click.option("--k-max", type=click.IntRange(1, 100), default=20, show_default=True,
              help="With --plot: TCA@k for k = 1..K_MAX, from one run at depth K_MAX.")
@click.option("--verdicts", "verdicts", is_flag=True,
              help="Score the verdicts of `ask` instead (decisive precision and coverage, "
                   "ambiguous-with-gold, stale rate) beside the naive baseline: the top-1 dense "
                   "document's own status.")
@click.option("--margins", default=None, metavar="M[,M...]",
              help="With --verdicts: fused-score margins to score (the first is reported; "
                   f"default {VERDICT_MARGIN}).")
@progress_option
@json_option
@pass_state
def evaluate(state: CliState, queries: Path, k: int, systems: str, domain: str | None,
             known_at: datetime | None, plot_path: Path | None, k_max: int, verdicts: bool,
             margins: str | None, progress: bool | None, as_json: bool) -> None:
    """Score every system on QUERIES (JSON Lines) against the same graph, in one run. With
    --known-at, car and hybrid against the graph as recorded then (the single-index baselines
    read the current graph only)."""
    if verdicts:
        if known_at is not None:
            # the verdicts' baseline is the top-1 dense document, read from the current graph
            raise click.BadParameter("--verdicts reads the current graph only (its dense "
                                     "baseline has no recorded history)", param_hint="--known-at")
        try:
            chosen = [float(m) for m in (margins or str(VERDICT_MARGIN)).split(",") if m.strip()]
        except ValueError as exc:
            raise click.BadParameter(f"not a number in {margins!r}", param_hint="--margins") from exc
        with state.driver() as driver, _client(state, driver) as car:
            verdict_report = car.evaluate_verdicts(queries, k=k, domain=domain, margins=chosen,
                                                   progress=_show_progress(progress, as_json))
        if as_json:
            _echo_json(verdict_report.to_json())
        else:
            click.echo(verdict_report.table())
        return
    names = [s.strip() for s in systems.split(",") if s.strip()]
    if known_at is not None and systems == ",".join(DEFAULT_SYSTEMS):
        names = [n for n in names if n in ("car", "hybrid")]
    if plot_path:
        plots.new_figure(1, 1)  # a missing matplotlib fails now, not after the run
    with state.driver() as driver, _client(state, driver) as car:
        report = car.evaluate(queries, k=k, systems=names, domain=domain,
                              progress=_show_progress(progress, as_json),
                              depth=k_max if plot_path else None, known_at=known_at)
    curves = report.tca_curves(k_max) if plot_path else {}
    if plot_path:
        plots.tca_plot(curves, plot_path, k=k, title=f"{queries.name} (n = {report.n})")
    if as_json:
        data = report.to_json()
        if plot_path:
            data["plot"] = str(plot_path)
            data["tca_at_k"] = {name: [round(v, 4) for v in curve] for name, curve in curves.items()}
        _echo_json(data)
    else:
        click.echo(report.table())
        if plot_path:
            click.echo(f"{plot_path}: strict TCA@k for k = 1..{k_max}")


@main.command("stats")
@plot_option
@json_option
@pass_state
def stats(state: CliState, plot_path: Path | None, as_json: bool) -> None:
    """Chain lengths, scope sizes and edges per rule of the graph."""

    with state.driver() as driver, _client(state, driver) as car:
        report = graph_stats(car.store)
    if report.documents == 0:
        raise EmptyGraphError()  # zeros everywhere would hide the next step: loading documents
    if plot_path:
        plots.stats_plot(report, plot_path)
    if as_json:
        _echo_json({**report.to_json(), **({"plot": str(plot_path)} if plot_path else {})})
        return
    click.echo(report.text())
    if plot_path:
        click.echo(f"{plot_path}: chain lengths, scope sizes, edges by rule")


@main.command("demo")
@click.option("-k", type=click.IntRange(1, 20), default=3, show_default=True)
@progress_option
@pass_state
def demo(state: CliState, k: int, progress: bool | None) -> None:
    """Ingest the bundled real-data sample (security, law, drug) and answer its questions."""
    with state.driver() as driver, _client(state, driver) as car:
        run_demo(car, k=k, say=click.echo, progress=_show_progress(progress))
    click.echo("Next: car-graph ask \"Is Bowers v. Hardwick still good law?\"; "
               "car-graph explain scotus:392-us-183; car-graph browser scotus:392-us-183")


@main.command("mcp")
@click.option("--http", "http", is_flag=True,
              help="Serve streamable HTTP on loopback instead of stdio; every request needs the "
                   "bearer token (CAR_GRAPH_MCP_TOKEN, or a generated one printed once on stderr).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address for --http: loopback only (127.0.0.1, ::1, localhost); others are refused.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port for --http (0: any free port; the URL is printed on stderr).")
@click.option("--allow-ingest", is_flag=True,
              help="Add the ingest_records tool (writes to the graph; new ids only); off by default.")
@click.option("--allow-overwrite", is_flag=True,
              help="With --allow-ingest: let ingest_records replace documents and supersede "
                   "existing ones explicitly (the tool is then marked destructive).")
@click.option("--allow-rules", is_flag=True,
              help="With --allow-ingest: accept rules and domain declarations (identifier "
                   "patterns) in ingest_records; refused otherwise.")
@click.option("--allow-cypher", is_flag=True,
              help="Add the cypher_read tool: read-only Cypher with a deadline and a row cap.")
@click.option("--max-result-chars", type=click.IntRange(4000, None), default=40_000, show_default=True,
              help="Largest tool result, in characters of JSON; listing tools page beyond it.")
@click.option("--cypher-timeout", type=click.FloatRange(0.1, 3600), default=30.0, show_default=True,
              help="Seconds a cypher_read statement may run (and no longer than --call-timeout).")
@click.option("--call-timeout", type=click.FloatRange(0.1, 3600), default=30.0, show_default=True,
              help="Every tool call's deadline in seconds: its Neo4j transactions' timeout and its "
                   "budget; past it the call is a retryable error and its work is stopped.")
@click.option("--log-level", type=click.Choice(["DEBUG", "INFO", "WARNING", "ERROR"]),
              default="WARNING", show_default=True, help="Log level (logs go to stderr only).")
@pass_state
def mcp(state: CliState, http: bool, host: str, port: int, allow_ingest: bool,
        allow_overwrite: bool, allow_rules: bool, allow_cypher: bool, max_result_chars: int,
        cypher_timeout: float, log_level: str, call_timeout: float) -> None:
    """Serve car-graph to AI agents over the Model Context Protocol.

    \b
    Transports:
      stdio (default)  for an MCP client that starts this command itself (a desktop
                       assistant, an agent framework); stdout carries protocol messages only.
      --http           streamable HTTP at http://127.0.0.1:PORT/mcp, loopback only, with a
                       bearer token on every request (Authorization: Bearer TOKEN).

    Tools: ask, retrieve, explain, query (analyst library, read-only), list_queries, stats,
    schema, history; cypher_read with --allow-cypher; ingest_records with --allow-ingest. Needs the
    SDK: pip install 'car-graph[mcp]'.
    See docs/agents.md.
    """
    # imported here: it needs the optional SDK, and a missing one is a one-line error
    from car_graph import mcp_server

    mcp_server.serve(state.settings, http=http, host=host, port=port, allow_ingest=allow_ingest,
                     allow_overwrite=allow_overwrite, allow_cypher=allow_cypher,
                     max_result_chars=max_result_chars, cypher_timeout=cypher_timeout,
                     log_level=log_level, allow_rules=allow_rules, call_timeout=call_timeout)
