"""The analyst query library's catalogue side: names, headers, parameter binding, cells."""

from __future__ import annotations

import re
from datetime import date

import pytest

from car_graph import analyst, cypher
from car_graph.errors import QueryParameterError, UnknownQueryError
from car_graph.types import known_at_instant

EXPECTED = {"chain", "controlling_for_entity", "controlling_on_date", "stale_crowding",
            "multi_chain_scopes", "rule_audit", "withdrawn_unresolved", "changed_between"}


def test_the_library_is_part_of_the_one_catalogue() -> None:
    names = cypher.analyst_names()
    assert {n.split("/", 1)[1] for n in names} == EXPECTED
    assert set(names) <= set(cypher.query_names())
    assert cypher.load("analyst/chain").text.lstrip().startswith("// Purpose:")


@pytest.mark.catalogue
@pytest.mark.parametrize("name", cypher.analyst_names())
def test_every_analyst_query_documents_purpose_browser_params_and_columns(name: str) -> None:
    assert cypher.purpose(name)
    declared = cypher.declared_parameters(name)
    pasted = {re.match(r":param (\w+) =>", line).group(1) for line in cypher.browser_params(name)}
    assert pasted == set(declared), "one :param line per declared parameter"
    body = "\n".join(line for line in cypher.text(name).splitlines() if not line.startswith("//"))
    assert set(re.findall(r"\$(\w+)", body)) == set(declared), "header and body agree"
    returns = " ".join(line for line in cypher.header(name) if not line.startswith((":param", "params:")))
    assert "returns:" in returns


@pytest.mark.catalogue
@pytest.mark.parametrize("name", cypher.analyst_names())
def test_analyst_queries_only_read(name: str) -> None:
    body = "\n".join(line for line in cypher.text(name).splitlines() if not line.startswith("//"))
    assert not re.search(r"\b(CREATE|MERGE|SET|DELETE|REMOVE|DETACH)\b", body)


def test_names_are_identifiers_never_paths() -> None:
    for bad in ("../retrieve", "analyst/../retrieve", "/etc/passwd", "analyst/x/y", "Chain"):
        with pytest.raises(UnknownQueryError):
            cypher.text(bad)


def test_short_and_full_names_resolve_and_typos_suggest_the_nearest() -> None:
    assert analyst.resolve_name("chain") == analyst.resolve_name("analyst/chain") == "analyst/chain"
    with pytest.raises(UnknownQueryError) as caught:
        analyst.resolve_name("rule_adit")
    assert caught.value.suggestions[0] == "rule_audit"
    with pytest.raises(UnknownQueryError):
        analyst.resolve_name("retrieve")  # library statements are not analyst queries


def test_param_values_parse_as_json_else_text() -> None:
    assert analyst.parse_param("k=10") == ("k", 10)
    assert analyst.parse_param("as_of=null") == ("as_of", None)
    assert analyst.parse_param("embedding=[0.5, 1]") == ("embedding", [0.5, 1])
    assert analyst.parse_param("doc_id=scotus:478-us-186") == ("doc_id", "scotus:478-us-186")
    assert analyst.parse_param("on=2003-01-01") == ("on", "2003-01-01")
    assert analyst.parse_param('$key="007"') == ("key", "007")
    with pytest.raises(QueryParameterError):
        analyst.parse_param("no-equals-sign")


def test_binding_fills_optional_parameters_and_rejects_missing_or_unknown_ones() -> None:
    assert analyst.bind("analyst/chain", {"doc_id": "A"}) == {"doc_id": "A", "as_of": None, "known_at": None}
    with pytest.raises(QueryParameterError, match=r"needs \$doc_id \(string\)"):
        analyst.bind("analyst/chain", {"as_of": "2003-01-01"})
    with pytest.raises(QueryParameterError, match="has no parameter docid"):
        analyst.bind("analyst/chain", {"docid": "A"})


def test_declared_parameters_follow_wrapped_header_lines() -> None:
    declared = cypher.declared_parameters("analyst/stale_crowding")
    assert [(p.name, p.type, p.optional) for p in declared.values()] == [
        ("embedding", "list<float>", False), ("k", "int", False),
        ("as_of", "date|null", True), ("domain", "string|null", True),
        ("known_at", "datetime|null", True)]


# each analyst query's valid-time parameter, read off the files' headers by hand (None: the
# query reads the current graph, and takes no date)
VALID_TIME = {"analyst/chain": "as_of", "analyst/changed_between": "as_of",
              "analyst/controlling_for_entity": "as_of", "analyst/controlling_on_date": "on",
              "analyst/multi_chain_scopes": "as_of", "analyst/rule_audit": None,
              "analyst/stale_crowding": "as_of", "analyst/withdrawn_unresolved": "as_of"}
UNDATED = sorted(name for name, clock in VALID_TIME.items() if clock is None)


def test_the_valid_time_table_covers_the_library() -> None:
    assert set(VALID_TIME) == set(cypher.analyst_names())


@pytest.mark.catalogue
@pytest.mark.parametrize("name", sorted(name for name, clock in VALID_TIME.items() if clock))
def test_every_analyst_query_with_a_date_takes_the_other_clock_too(name: str) -> None:
    # valid time ($as_of, or controlling_on_date's $on) and transaction time go together, and
    # known_at is read through the shared fragments, never by hand
    declared = cypher.declared_parameters(name)
    assert {"as_of", "on"} & set(declared) == {VALID_TIME[name]}, name
    assert "known_instant" in cypher.fragments_used(name), name
    if name == "analyst/changed_between":  # the auditor's query compares two of them
        clocks = ["known_from", "known_to"]
        assert not declared["known_from"].optional and not declared["known_to"].optional
    else:
        clocks = ["known_at"]
        assert declared["known_at"].optional, name
    for clock in clocks:
        assert any(line.startswith(f":param {clock} =>") for line in cypher.browser_params(name)), name


@pytest.mark.catalogue
@pytest.mark.parametrize("name", UNDATED)
def test_an_analyst_query_without_a_date_takes_no_recorded_instant_either(name: str) -> None:
    # the two clocks go together the other way too: an undated query reads the current graph
    declared = cypher.declared_parameters(name)
    assert not {"as_of", "on", "known_at", "known_from", "known_to"} & set(declared), name
    assert "known_instant" not in cypher.fragments_used(name), name


def test_known_at_binds_as_the_command_line_option_does() -> None:
    # --param known_at=2019-06-01 is the end of that day in UTC, as --known-at 2019-06-01
    bound = analyst.bind("analyst/chain", {"doc_id": "A", "known_at": "2019-06-01"})
    assert bound["known_at"] == known_at_instant("2019-06-01")
    assert bound["known_at"].isoformat() == "2019-06-01T23:59:59.999999+00:00"
    assert analyst.bind("analyst/chain", {"doc_id": "A", "known_at": date(2019, 6, 1)})["known_at"] == bound["known_at"]
    with pytest.raises(QueryParameterError, match="known_at"):
        analyst.bind("analyst/chain", {"doc_id": "A", "known_at": "June 1st"})


def test_cells_render_paths_as_id_chains_and_nested_values_as_json() -> None:
    path = {"nodes": ["A", "B"], "relationships": [{"type": "SUPERSEDES", "from": "B", "to": "A",
                                                     "rule": "explicit"}]}
    assert analyst.cell(path) == "A <-[explicit]- B"
    assert analyst.cell({"nodes": ["A"], "relationships": []}) == "A"
    assert analyst.cell(["x", None]) == '["x", null]'
    assert analyst.cell(None) == "" and analyst.cell(3) == "3"
