"""The app segments of a row and layer, from runs and lone places, are those of the per-key definition.

:func:`jiaokan.collate.segments._bad_keys` gives the bad characters as runs and only the lone bad places as
intervals of their own (the others lie in or at the ends of a run); :func:`_intervals` merges them with the
entries.  Here both are compared, on random edit scripts and entries, with the definition read key by key:
every bad character an interval of one key, every bad place an empty interval, merged by the same rule.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from jiaokan.collate.align import Op
from jiaokan.collate.segments import _bad_keys, _intervals, _merge, _Partners


@st.composite
def scripts(draw: st.DrawFn, n: int) -> _Partners:
    """A witness's ``equal`` ops against a base of ``n`` keys (offsets = key indexes), increasing on both sides."""
    ops: list[Op] = []
    i = j = 0
    while i < n and draw(st.booleans()):
        i += draw(st.integers(0, 3))
        j += draw(st.integers(0, 3))
        size = draw(st.integers(1, 6))
        if i >= n:
            break
        size = min(size, n - i)
        ops.append(Op("equal", i, i + size, j, j + size))
        i, j = i + size, j + size
    m = j + draw(st.integers(0, 2))
    return _Partners(ops, list(range(n)), list(range(m)))


def _per_key(n: int, partners: list[_Partners]) -> tuple[set[int], set[int]]:
    """Bad characters and bad places, one key and one place at a time (the module's definition)."""
    bad_char: set[int] = set()
    bad_place: set[int] = set()
    for pt in partners:
        ch = pt.chains
        partnered = {k for c0, c1, _ in ch for k in range(c0, c1)}
        bad_char |= set(range(n)) - partnered
        bad_place |= {t for t in range(1, n) if not any(c0 < t < c1 for c0, c1, _ in ch)}
        if not ch or ch[0][0] != 0 or ch[0][2] != 0:
            bad_place.add(0)
        if n and (not ch or ch[-1][1] != n or pt.end_partner != len(pt.bkeys)):
            bad_place.add(n)
    return bad_char, bad_place


def _merged_per_key(entries: list, bad_char: set[int], bad_place: set[int]) -> list[list]:
    """The merge of every bad character and every bad place as an interval of its own (by the one rule)."""
    items = [(k0, k1, [e]) for k0, k1, e in entries]
    items += [(k, k + 1, []) for k in bad_char] + [(t, t, []) for t in bad_place]
    return _merge(items, bad_place)


@st.composite
def cases(draw: st.DrawFn) -> tuple[int, list[_Partners], list]:
    n = draw(st.integers(1, 30))
    partners = draw(st.lists(scripts(n), min_size=1, max_size=3))
    spans = draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, 4)), max_size=5))
    entries = [(k0, min(n, k0 + w), f"e{i}") for i, (k0, w) in enumerate(spans)]
    return n, partners, entries


@settings(max_examples=400, deadline=None)
@given(cases())
def test_runs_and_lone_places_merge_as_every_key_and_place_would(case):
    n, partners, entries = case
    runs, bad_place, lone = _bad_keys(n, partners)
    bad_char, places = _per_key(n, partners)
    assert {k for k0, k1 in runs for k in range(k0, k1)} == bad_char
    assert all(b[0] > a[1] for a, b in zip(runs, runs[1:]))  # the fewest runs: apart, in order
    assert bad_place == places and lone <= places
    assert _intervals(entries, runs, bad_place, lone) == _merged_per_key(entries, bad_char, places)


def test_a_lone_place_is_its_own_interval_and_a_run_takes_its_places():
    # witness 1 reads keys 0-2 and 3-5 apart (something of its own between): place 3 is lone;
    # witness 2 lacks keys 6-7: one run, whose places 6 and 8 are in it
    p1 = _Partners([Op("equal", 0, 3, 0, 3), Op("equal", 3, 8, 4, 9)], list(range(8)), list(range(9)))
    p2 = _Partners([Op("equal", 0, 6, 0, 6)], list(range(8)), list(range(6)))
    runs, bad_place, lone = _bad_keys(8, [p1, p2])
    assert runs == [(6, 8)] and lone == {3} and bad_place == {3, 6, 7, 8}
    assert _intervals([], runs, bad_place, lone) == [[3, 3, []], [6, 8, []]]
