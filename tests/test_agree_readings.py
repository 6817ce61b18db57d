"""A reading typed "agree" reads as the base (collate/variants.py ``merge_apps``).

A witness with no variant of its own inside an entry was typed "agree" whatever it read over the entry's span.
Where it starts or ends inside that span (a layer's edge), that said it reads the base's text when it does not: in
士相見禮 the 集释 quotes the 鄭目錄 in its first 注, the 注疏 and the 四部叢刊 have none there, and the 注疏's 贄 for
摯 made one entry of it; the 四部叢刊, reading 摯 alone, was typed "agree", and the 校勘記 sentence left it out, as
if it read the 鄭目錄 too.  On the real 卷三 of the three from ../shared/kanripo.
"""

from __future__ import annotations

import pytest

from .conftest import KANRIPO


@pytest.fixture(scope="module")
def shixiangjian():
    from jiaokan.collate.engine import collate
    from jiaokan.readers import read_witness

    paths = [KANRIPO / f"{t}_003.txt" for t in ("KR1d0030", "KR1d0028", "KR1d0026")]  # JS, ZS, SB: 士相見禮
    if not all(p.is_file() for p in paths):
        pytest.skip("../shared/kanripo not available")
    from jiaokan.model import WitnessMeta

    ws = [read_witness(p, WitnessMeta(siglum=s, file=str(p), format="")) for p, s in zip(paths, ("JS", "ZS", "SB"))]
    return collate(ws, base="JS")


def test_an_agreeing_reading_reads_as_the_base(shixiangjian):
    from jiaokan.normalize import is_ignorable, key

    def keys(t: str) -> list[str]:
        return [key(c) for c in t if not is_ignorable(c)]

    col = shixiangjian
    agree = [(a, r) for a in col.apps for r in a.readings.values() if r.type == "agree"]
    assert len(agree) > 100  # (else this tests nothing)
    assert [(a.id, r.siglum, r.text) for a, r in agree if keys(r.text) != keys(a.lem.text)] == []


def test_the_zheng_mulu_entry_names_what_the_sibu_congkan_reads(shixiangjian):
    from jiaokan.render.appview import jiaokanji

    col = shixiangjian
    a = next(a for a in col.apps if a.layer == "zhu" and a.lem.text.startswith("鄭目錄"))
    assert a.readings["SB"].text == "摯" and a.readings["SB"].type == "uncertain"
    assert a.readings["ZS"].text == "贄"
    sentence = jiaokanji(a, col)
    assert "「贄」" in sentence and "「摯」" in sentence  # both witnesses' readings, not the 注疏's alone
