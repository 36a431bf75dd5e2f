"""The detail probe's question clause (benchmarks/details.py): pure text handling."""

from __future__ import annotations

from car_graph_benchmarks.details import detail


def test_the_clause_is_the_second_sentence_without_the_scope_names_cut_to_fourteen_words() -> None:
    text = ("Tokio-fs is unmaintained. It was part of the Tokio 0.1 ecosystem and has been "
            "superseded by the tokio crate's own fs module in every later release. Use that.")
    assert detail(text, {"tokio"}) == ("it was part of the 0.1 ecosystem and has been superseded "
                                       "by the crate's")
    # one sentence, or too few words left once the names are out: no clause
    assert detail("Tokio-fs is unmaintained.", {"tokio"}) is None
    assert detail("First. Tokio fs was tokio tokio tokio.", {"tokio", "fs"}) is None
