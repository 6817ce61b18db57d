"""Every 篇 read right (issue #21): the verb 注 inside a 疏, and a 经 that opens with its 篇's title."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def book(read_kanripo):
    return read_kanripo


def test_the_verb_zhu_inside_a_shu_opens_nothing(book):
    """``記云酌𤣥酒三注於尊`` (KR1d0028_002, a 疏 on 士昏禮's 記): one 疏, no 经 after the verb."""
    w = book("KR1d0028_002")
    hits = [(u, p) for u in w.units() for p in u.pieces if "酌𤣥酒三注於尊" in p.text]
    assert [p.layer for _, p in hits] == ["shu"]
    unit, shu = hits[0]
    assert "注于𤣥酒尊中禮成於三故三注之也" in shu.text.replace("\n", "")
    assert unit.jing is not None and unit.jing.text.startswith("婦入寢門贊者徹尊冪酌𤣥酒三屬于尊")
    # the 注 of that 经 keeps its verbs too: ``屬注也``, ``乃取之三注于尊中``
    assert any(p.layer == "zhu" and p.text.startswith("屬注也") and p.text.endswith("三注于尊中") for p in unit.pieces)


FIRST = {1: "士冠禮", 2: "昏禮", 3: "士相見之禮", 4: "鄉飲酒之禮", 5: "鄉射之禮", 6: "燕禮", 7: "大射之儀", 8: "聘禮",
         9: "公食大夫之禮", 10: "覲禮", 11: "喪服", 12: "士喪禮", 13: "既夕"}
FILES = [f"KR1d0026_{n:03d}" for n in FIRST] + [f"KR1d0028_{n:03d}" for n in FIRST] + \
    [f"KR1d0030_{j:03d}" for j in (1, 2, 3, 4, 5, 7, 9, 11, 15, 16, 17, 20, 23)]


@pytest.mark.parametrize("stem", FILES)
def test_a_jing_that_opens_with_its_titles_words_is_jing_and_keeps_its_zhu(book, stem):
    """The first 经 of a 篇 often repeats its title (``公食大夫之禮使大夫戒…``): it is 经, not the title,
    and no 郑注 stands before it without a 经 (only 郑玄's 目錄, subtype ``mulu``)."""
    from jiaokan.normalize import key

    w = book(stem)
    units = list(w.units())
    first = next(i for i, u in enumerate(units) if u.jing is not None)
    fold = "".join(key(c) or c for c in units[first].jing.text[:6])
    pian = int(stem[-3:]) if not stem.startswith("KR1d0030") else {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 7: 6, 9: 7, 11: 8,
                                                                    15: 9, 16: 10, 17: 11, 20: 12, 23: 13}[int(stem[-3:])]
    opening = "".join(key(c) or c for c in FIRST[pian])
    assert fold.startswith(opening[:len(fold)]) or opening.startswith(fold[:len(opening)])
    orphans = [p for u in units[:first] for p in u.pieces if p.layer == "zhu" and p.subtype != "mulu"]
    assert orphans == []
