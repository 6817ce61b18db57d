"""Verdicts that need proof (issue #20): "contradicted" only where the evidence proves it.

Synthetic pairs show each rule on its own; the real notes of 卷十五–二十四 (the classes of
the issue) show it where it was seen.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from jiaokan.emend.apply import emend
from jiaokan.model import Div, Gaiji, Loc, Note, Piece, Text, Unit, Witness, WitnessMeta
from tests.conftest import kanripo_file


def _w(siglum: str, script: str, jing: list, uid: str) -> Witness:
    meta = WitnessMeta(siglum=siglum, file=f"{siglum.lower()}.txt", format="test", script=script, chapter="喪服")
    return Witness(meta=meta, divs=[Div("chapter", "1", "喪服", [Unit(uid, [Piece("jing", jing, Loc(1), id=f"{uid}.jing1")])])])


def _check(js: list, zs: list, nid: str = "n1"):
    res = emend(_w("JS", "traditional", js, "J.1"), _w("ZS", "traditional", zs, "Z.1"))
    return res.checks[nid]


def _note(text: str, nid: str = "n1") -> Note:
    return Note([Text(text)], Loc(1), id=nid)


def test_a_contradiction_with_context_agreeing_on_both_sides_stands():
    ch = _check([Text("君子之道費而隱夫婦之愚"), _note("案隱今注疏本訛作微"), Text("可以與知焉及其至也")],
                [Text("君子之道費而隱夫婦之愚可以與知焉及其至也")])
    assert ch.verdict == "contradicted" and ch.detail == "as-this-text", ch.summary


def test_no_contradiction_where_the_context_is_not_aligned():
    # the 注疏 has another text around the place: the window is not the anchor's alone
    ch = _check([Text("君子之道費而隱夫婦之愚"), _note("案隱今注疏本訛作微"), Text("可以與知焉及其至也")],
                [Text("君子之道費乎其隱者也夫婦之愚可以與知焉及其至也")])
    assert ch.verdict == "uncertain" and ch.detail == "context", ch.summary


def test_the_notes_reading_in_the_window_is_no_contradiction():
    # 燕尾 (卷十九): the note's reading stands in the 注疏 beside an unnoted difference
    ch = _check([Text("與有司紳齊也上正一尺燕尾一尺五寸"), _note("案燕尾一尺五寸各本訛作二尺五寸"), Text("凡衽者")],
                [Text("與有司紳齊也上正一尺燕尾二尺五寸凡用布三尺五寸凡衽者")])
    assert ch.verdict != "contradicted", ch.summary


def test_an_omission_whose_text_the_zhushu_lacks_is_confirmed_beside_another_difference():
    # 卷十七 脫此十五字: the 注疏 lacks the fifteen characters and has 也 where they stood
    ch = _check([Text("此謂大夫士之妾妾子之無母父命爲母子者其使養之"), _note("案今注疏本脫此十五字"),
                 Text("不命爲母子則亦服庶母")],
                [Text("此謂大夫士之妾也不命爲母子則亦服庶母")])
    assert ch.verdict == "confirmed" and ch.detail == "agrees-lacks", ch.summary


@pytest.mark.parametrize("zs_code, verdict", [("KR9001", "confirmed"), ("KR9002", "uncertain")])
def test_an_unresolved_gaiji_equals_only_the_same_code(zs_code, verdict):
    """Change the code of one unresolved gaiji in the 注疏 and the claim is no longer confirmed."""
    ch = _check([Text("甒亦瓦"), Gaiji("KR9001"), Text("也"), _note("案今注疏本脫也字"), Text("古文甒皆作廡")],
                [Text("甒亦瓦"), Gaiji(zs_code), Text("古文甒皆作廡")])
    assert ch.verdict == verdict, ch.summary


def test_an_unknown_character_never_contradicts():
    # 卷二十三: 瓦&KR0266;也 / 瓦器 — the gaiji may well stand for 器
    ch = _check([Text("甒亦瓦"), Gaiji("KR9001"), Text("也"), _note("案今注疏本脫也字"), Text("古文甒皆作廡")],
                [Text("甒亦瓦器古文甒皆作廡")])
    assert ch.verdict == "uncertain", ch.summary


def test_a_gap_in_the_note_is_no_reading():
    # 卷十九: 辟領今注疏本作□中 — □ is a gap of the transcription, not a character
    ch = _check([Text("尺二寸倍之四尺四寸加辟領"), _note("案辟領今注疏本作□中"), Text("八寸而又倍之")],
                [Text("尺二寸倍之四尺四寸加闊中八寸而又倍之")])
    assert ch.verdict == "uncertain", ch.summary


# ---------------------------------------------------------------------------
# the real notes of the classes (卷十五–二十四)
# ---------------------------------------------------------------------------

ZHUSHU_OF = {15: 9, 16: 10, 17: 11, 18: 11, 19: 11, 20: 12, 21: 12, 22: 12, 23: 13, 24: 13}


@lru_cache(maxsize=None)
def _checked(juan: int):
    from jiaokan.measure.an_check import check_pair

    return check_pair(kanripo_file(f"KR1d0030_{juan:03d}.txt"), kanripo_file(f"KR1d0028_{ZHUSHU_OF[juan]:03d}.txt"),
                      kanripo_file("KR1d0028_000.txt"))


@pytest.mark.parametrize("juan, claim_id, note", [
    (17, "JS17.20.zhu1.an2", "案今注疏本脫此十五字 (class 5: a neighbouring claim's character)"),
    (19, "JS19.21.zhuan1.an1", "案此下今注疏本有也字 (class 5: the identical 甥 傳 just above)"),
    (19, "JS19.24.zhu1.an1", "案昆今注疏本訛作兄… (class 5: a window too wide)"),
    (19, "JS19.52.zhu1.an1", "案燕尾一尺五寸各本訛作二尺五寸… (class 5: an unnoted neighbour)"),
    (23, "JS23.51.zhu1.an1", "案今注疏本脱也字 (class 6: 瓦&KR0266;也 / 瓦器)"),
    (19, "JS19.54.zhu1.an1", "案辟領今注疏本作□中 (class 6: a gap in the note)"),
])
def test_no_false_contradiction_on_the_real_notes(juan, claim_id, note):
    ch = _checked(juan).checks[claim_id]
    assert ch.verdict in ("confirmed", "uncertain"), ch.summary


def test_a_true_contradiction_on_the_real_notes_stands():
    """卷二十 JS20.77: 案俱今注疏本訛作居 — the 四库 注疏 reads 俱, as the 集释 does."""
    ch = _checked(20).checks["JS20.77.zhu1.an1"]
    assert ch.verdict == "contradicted" and ch.detail == "as-this-text"


@pytest.mark.parametrize("juan, claim_id", [
    (19, "JS19.14.zhu1.an2"),  # 案此注今注疏本在經文下𫝊曰上
    (18, "JS18.34.zhu1.an1"),  # 案舊讀以下三十二字各本訛在經之下傳曰之上…
    (17, "JS17.47.zhu1.an1"),  # 案以上注文今注疏本在經之下傳曰之上
])
def test_place_claims_are_checked_by_the_position_of_the_text(juan, claim_id):
    ch = _checked(juan).checks[claim_id]
    assert ch.verdict == "confirmed" and ch.detail == "agrees-place", ch.summary


def test_no_contradiction_on_an_addition_before_the_passage():
    """卷二十四 JS24.45: 此條之前今注䟽本有記文男女改服四字… — the 注疏 has them in the piece before."""
    ch = _checked(24).checks["JS24.45.jing1.an1"]
    assert ch.verdict != "contradicted", ch.summary


def test_no_private_stand_in_reaches_a_reader():
    """Unresolved gaiji are compared by code inside the check; what a reader sees shows them as �."""
    res = _checked(20)
    for ch in res.checks.values():
        for text in (ch.summary, ch.reading, ch.zs_window, ch.zs_context):
            assert not text or all(ord(x) < 0xF0000 for x in text), text


INTERNAL = ("zhuben", "zhushu", "yuanben", "otherwise", "as-this-text", "agrees", "not-anchored", "offset",
            "JS1", "ZS1", "span:", "after:", "\ufffd\ufffd\ufffd")


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
def test_every_verdict_has_a_sentence_for_a_scholar(lang):
    """Each claim's verdict reads as a sentence in Chinese and English, with no internal name in it."""
    from jiaokan.emend.evidence import claim_evidence
    from jiaokan.emend.report import verdicts_by_note

    res = _checked(19)
    for ev in claim_evidence(res):
        if "@" in ev.id:
            continue
        text = ev.sentence(lang)
        assert text and not any(x in text for x in INTERNAL), (ev.id, text)
    for nid, nv in verdicts_by_note(res).items():
        assert nv.sentence(lang), nid


def test_the_sentences_say_what_the_zhushu_reads():
    from jiaokan.emend.evidence import claim_evidence

    ev = {e.id: e for e in claim_evidence(_checked(20))}["JS20.77.zhu1.an1"]  # 案俱今注疏本訛作居
    assert ev.sentence("zh") == "今注疏本此处作「俱」，与此本同；案语谓其作「居」，不合。"
    assert ev.sentence("zh-Hant") == "今注疏本此處作「俱」，與此本同；案語謂其作「居」，不合。"
    assert ev.sentence("en").startswith("Contradicted: the 注疏 reads 俱 here, as this text does")


def test_each_front_matter_is_keyed_once_while_it_lives(monkeypatch):
    """Two 注疏 editions' front matter asked in turn, as every 篇's 案 check of a book with both asks: each is keyed
    once.  The memo held the last one only, and the two swapped and were keyed again at every 篇 (×26 calls in
    the doubled book).  An entry leaves with its witness."""
    import gc

    from jiaokan.emend import check

    made: list[str] = []
    real = check.coded_text
    monkeypatch.setattr(check, "coded_text", lambda p: made.append(p.id) or real(p))
    a = _w("ZS", "traditional", [Text("鄭目錄云")], "A.1")
    b = _w("ZS2", "traditional", [Text("鄭目錄曰")], "B.1")
    for _ in range(3):
        ka, kb = check._front_keys(a), check._front_keys(b)
    assert made == ["A.1.jing1", "B.1.jing1"] and ka != kb
    before = len(check._FRONT)
    del a
    gc.collect()
    assert len(check._FRONT) == before - 1
