"""The synthetic acronym question set (car_graph_benchmarks.acronyms): its gold follows the
generated edges, base specifications define their acronym in the title while siblings merely
use it, and dev and test never share a family or a phrasing."""

from __future__ import annotations

from car_graph_benchmarks.acronyms import WORD_ACRONYMS, build


def test_the_acronym_set_has_the_failure_shape_and_a_clean_split() -> None:
    docs, questions, stats = build(count=30, seed=5)
    by_id = {d["id"]: d for d in docs}
    superseded = {old for d in docs for old in d.get("supersedes", ())}
    assert questions and stats["questions"]["dev"] and stats["questions"]["test"]
    for q in questions:
        acronym = q["info"]["acronym"]
        assert acronym in q["question"] and q["info"]["expansion"] not in q["question"]
        (anchor,) = q["anchors"]
        assert f"({acronym})" in by_id[anchor]["title"]  # the anchor's title defines it
        # gold: nothing supersedes it, and it is the anchor or reaches it through the edges
        for gold in q["gold"]:
            assert gold not in superseded
            seen, todo = set(), [gold]
            while todo:
                doc = todo.pop()
                seen.add(doc)
                todo += [old for old in by_id[doc].get("supersedes", ()) if old not in seen]
            assert anchor in seen
        # more documents use the acronym than define it: the siblings the question must not pick
        users = [d for d in docs if acronym in d["title"] and f"({acronym})" not in d["title"]]
        assert len(users) >= 4
    splits = {}
    for q in questions:
        splits.setdefault(q["info"]["acronym"], set()).add(q["split"])
    assert all(len(s) == 1 for s in splits.values())
    dev = {q["family"] for q in questions if q["split"] == "dev"}
    test = {q["family"] for q in questions if q["split"] == "test"}
    assert dev and test and not dev & test
    assert set(stats["word_acronyms"]) <= set(WORD_ACRONYMS) and stats["word_acronyms"]
