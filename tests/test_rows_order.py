"""rows._keep_document_order: a witness's passages stay in its own order across the rows."""

from __future__ import annotations

from types import SimpleNamespace

from jiaokan.collate.rows import _keep_document_order


def _units(*lengths: int) -> list:
    return [SimpleNamespace(jing=SimpleNamespace(text="經" * n) if n else None) for n in lengths]


def test_passages_already_in_order_are_left_as_they_are():
    rows = [{"A": [0]}, {"A": [1, 2]}, {"A": []}, {"A": [3]}]
    before = [dict(r) for r in rows]
    _keep_document_order(rows, "A", _units(5, 5, 5, 5))
    assert rows == before


def test_a_passage_linked_to_a_far_row_moves_to_the_row_of_the_kept_passage_before_it():
    """Passage 1 (a two-character formula) was linked to row 3, after passages 2 and 3: the heavier order is
    kept and it joins row 0, where passage 0 stands."""
    rows = [{"A": [0]}, {"A": [2]}, {"A": []}, {"A": [1, 3]}]
    _keep_document_order(rows, "A", _units(20, 2, 20, 20))
    assert [r["A"] for r in rows] == [[0, 1], [2], [], [3]]
    order = [i for r in rows for i in r["A"]]
    assert order == sorted(order)
