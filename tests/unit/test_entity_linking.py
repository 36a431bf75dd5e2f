"""Which scope entities a question names (pure logic of car_graph.retrieval.covers)."""

from __future__ import annotations

import pytest

from car_graph.retrieval import _PARTIAL_CVE, covers, words

STOP = frozenset({"the", "is", "in", "of", "on", "still"})


@pytest.mark.parametrize(
    ("name", "question"),
    [
        ("django", "Is Django still vulnerable to the SQL injection in QuerySet.order_by?"),
        ("Bowers v. Hardwick", "Is Bowers v. Hardwick still good law?"),
        ("The Harrisburg", "Is The Harirsburg (1886) still binding precedent?"),  # one swap
        ("Ex parte Bain", "Does the holding of Ex pate Bain (1887) still stand?"),  # one deletion
        ("fenfluramine hydrochloride", "Is fenfluramine still on the market?"),  # salt qualifier
    ],
)
def test_question_names_the_entity(name: str, question: str) -> None:
    assert covers(name, words(question), STOP)


@pytest.mark.parametrize(
    ("name", "question"),
    [
        ("golang.org/x/crypto", "Is Go still affected by a panic in crypto/tls?"),
        ("sanic", "Is Go still affected by a panic in crypto/tls?"),  # 'panic' is one edit away
        ("django-helpdesk", "Is Django still vulnerable to SQL injection?"),
        ("github.com/smallstep/certificates", "panic on certain certificates in crypto/tls"),
        ("the", "Is the library safe?"),  # a stop word names nothing
    ],
)
def test_question_does_not_name_the_entity(name: str, question: str) -> None:
    assert not covers(name, words(question), STOP)


@pytest.mark.parametrize(
    ("question", "year", "suffix"),
    [
        ("Has Go shipped a fix for the CVE ending in 15586?", None, "15586"),
        ("Is CVE-2021-…115 fixed in Go?", "2021", "115"),
        ("Is CVE-2021-3115 fixed?", "2021", "3115"),
    ],
)
def test_partial_cve_identifiers_are_recognised(question: str, year: str | None, suffix: str) -> None:
    [match] = list(_PARTIAL_CVE.finditer(question))
    assert match.group("year") == year
    assert (match.group("tail") or match.group("end")) == suffix
