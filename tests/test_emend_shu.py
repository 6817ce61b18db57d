"""What the 案 notes say of the 疏, checked against the 注疏's 疏 and the 单疏本 (DS, KR1d0027).

On the real files: 士相見禮 (集释 卷三, 注疏 卷三, 四部叢刊 卷三, 单疏本 卷七) and 燕禮 (集释 卷七, 注疏 卷六,
单疏本 卷十四).  Each record names the witness whose 疏 spoke and shows its characters; a 疏 that does not
hold what the note says is "not covered", never "contradicted".
"""

from __future__ import annotations

import pytest

from jiaokan.emend.apply import emend
from jiaokan.emend.evidence import claim_evidence
from jiaokan.emend.shu import shu_quote
from jiaokan.render.truth import claim_problem

from .conftest import KANRIPO


def _read(stem: str, siglum: str):
    from jiaokan.model import WitnessMeta
    from jiaokan.readers import read_witness

    path = KANRIPO / f"{stem}.txt"
    return read_witness(path, WitnessMeta(siglum=siglum, file=str(path), format=""))


@pytest.fixture(scope="module")
def shixiangjian():
    if not (KANRIPO / "KR1d0027_007.txt").is_file():
        pytest.skip("../shared/kanripo (with the 单疏本) not available")
    ds = _read("KR1d0027_007", "DS")
    ds.meta.role = "danshu"
    return emend(_read("KR1d0030_003", "JS"), _read("KR1d0028_003", "ZS"), danshu=[ds])


def test_a_quotation_of_the_shu_found_in_both_witnesses(shixiangjian):
    # 案上字…各本訛作士今考疏云玉藻上大夫曰下臣與此同也經文作上大夫明矣 (KR1d0030_003): the 疏 reads
    # 案玉藻云上大夫曰下臣與此同也 in the 注疏 (KR1d0028_003) and in the 单疏本 (KR1d0027_007)
    evs = {e.id: e for e in claim_evidence(shixiangjian)}
    for s in ("ZS", "DS"):
        ev = evs[f"JS3.55.jing1.an1@shu:{s}"]
        assert (ev.target, ev.verdict, ev.witness) == ("shu", "confirmed", s)
        assert "上大夫曰下臣與此同也" in ev.readings[s] and claim_problem(ev) is None
        assert "經文" not in ev.readings[s] and ev.reading.endswith("與此同也")  # the editors' own words are not claimed of the 疏
    assert "单疏本（DS）之疏作「" in evs["JS3.55.jing1.an1@shu:DS"].sentence("zh-Hans")


def test_the_shu_is_never_said_to_contradict(shixiangjian):
    recs = [e for e in claim_evidence(shixiangjian) if "@shu:" in e.id]
    assert recs and {e.verdict for e in recs} <= {"confirmed", "not covered"}
    assert all(claim_problem(e) is None for e in recs)
    missing = [e for e in recs if e.verdict == "not covered"]
    assert all(e.readings[e.witness] == "—" and "无从核对" in e.sentence("zh-Hans") for e in missing)


def test_quotation_of_the_shu():
    assert shu_quote("案某今注疏本訛作其據疏云同姓之中有伯仲同者則以某甫且字别之可證古本作某").startswith("同姓之中有伯仲")
    assert shu_quote("案今注疏本脫此四字") == ""
    assert shu_quote("案冠弁下各本衍者字今據疏刪正") == ""  # cites the 疏, quotes nothing


def test_a_witness_without_the_pian_says_so(shixiangjian):
    """The 单疏本 lost 士喪禮's 卷: the build gives the emend stage an empty 单疏本 for such a 篇, and every
    claim on the 疏 is "not covered" there, saying why."""
    from dataclasses import replace

    from jiaokan.emend.shu import check_shu
    from jiaokan.model import Witness, WitnessMeta

    lost = Witness(WitnessMeta(siglum="DS", file="KR1d0027", format="", role="danshu"))
    c = next(c for c in shixiangjian.claims if c.id == "JS3.55.jing1.an1")
    (ev,) = check_shu(c, [lost], "上", None, None)
    assert (ev.id, ev.verdict, ev.readings) == ("JS3.55.jing1.an1@shu:DS", "not covered", {"DS": "—"})
    assert "已佚" in ev.sentence("zh-Hans") and "lost" in ev.sentence("en")
    assert replace(ev, sentences={}).sentence() == ev.why
