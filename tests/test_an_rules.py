"""Each rule of the 案 grammar (:data:`jiaokan.emend.notes.RULES`) on its own examples: real notes and what the record says.

A new shape of note is one :class:`~jiaokan.emend.notes.Rule` with its examples; this test picks
them up (see the README, "Adding a 案 shape").
"""

from __future__ import annotations

import pytest

from jiaokan.emend.notes import RULES, NoteRecord, parse_note


def _records(r: NoteRecord):
    yield r
    for m in r.more:
        yield from _records(m)


CASES = [(rule.name, note, expected) for rule in RULES for note, expected in rule.examples]


def test_every_rule_has_an_example():
    assert {name for name, _n, _e in CASES} == {r.name for r in RULES}


@pytest.mark.parametrize("name, note, expected", CASES, ids=[f"{n}:{note[:12]}" for n, note, _e in CASES])
def test_rule_on_its_examples(name, note, expected):
    got = next((r for r in _records(parse_note(note)) if r.rule == name), None)
    assert got is not None, f"{note}: no claim of rule {name} (read as {parse_note(note).rule})"
    assert {k: getattr(got, k) for k in expected} == expected
