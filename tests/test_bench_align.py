"""The growth bench_align.py holds collate() to (issue #24): real 篇 joined, each doubling against its own halves."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import load_bench


def _bench():
    return load_bench("bench_align")


@given(st.integers(2, 17))
def test_the_halving_tree_doubles_every_set_from_its_two_halves(n):
    tree = _bench()._halving_tree(n)
    assert sorted(tree[-1][0]) == list(range(n))  # the last doubling is the whole
    for whole, half in tree:
        other = [i for i in whole if i not in half]
        assert whole == half + other and half and other  # two neighbouring halves, in order
        assert abs(len(half) - len(other)) <= len(half)  # an odd one out joins a set at most its size


def test_a_doubling_that_costs_its_halves_reads_two():
    b = _bench()
    t = {(0,): 1.0, (1,): 3.0, (0, 1): 4.0}
    assert b._doubling(t, [0, 1], [0]) == 2.0
    assert b._doubling({**t, (0, 1): 4.4}, [0, 1], [0]) == pytest.approx(2.2)


def test_a_pian_pair_is_the_jishi_and_the_zhushu_of_those_pian():
    b = _bench()
    if not (b.KANRIPO / "KR1d0030_003.txt").exists():  # (the bench's own: JIAOKAN_KANRIPO, else /work/shared)
        pytest.skip("Kanripo files absent")
    js, zs = b._pian_pair([2])
    assert (js.meta.siglum, zs.meta.siglum) == ("JS", "ZS")
    assert any("士相見" in (d.title or "") or any("士相見" in p.text for u in d.units for p in u.pieces)
               for d in zs.divs)
