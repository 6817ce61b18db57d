"""子夏's 傳 in 喪服, in each layout: 经 item, ``傳曰`` + 传, 注 — and 記 as 经 (issue #21).

Excerpts are the real lines of the Kanripo files (KR1d0026_011, KR1d0028_011, KR1d0030_017);
the whole-卷 checks read ../shared/kanripo.
"""

from __future__ import annotations

import pytest

from jiaokan.readers.formats.mandoku import MandokuJishiReader, MandokuSbckReader, MandokuZhushuReader
from jiaokan.readers.layouts.zhuan import hidden_items, is_citation
from jiaokan.readers.layouts.zhushu_markers import fold

from .test_readers_book import SBCK_HEAD, ZHUSHU_HEAD, read_text


def body_units(w) -> list[list[tuple[str, str]]]:
    return [[(p.layer, p.text) for p in u.pieces if p.layer not in ("paratext", "shu", "yinyi")]
            for u in w.units() if any(p.layer not in ("paratext", "shu", "yinyi") for p in u.pieces)]


# --- the rule, on the text alone -------------------------------------------------------------------

def _items(text: str) -> list[tuple[str, bool]]:
    return [(text[i.start:i.end], i.certain) for i in hidden_items(fold(text))]


def test_a_zhuan_opening_after_an_answer_betrays_the_item_before_it():
    assert _items("傳曰爲父何以斬衰也父至尊也諸侯爲天子傳曰天子至尊也君傳曰君至尊也") == [
        ("諸侯爲天子", True), ("君", True)]


def test_a_zhuan_opening_after_a_question_is_a_quotation():
    assert _items("傳曰慈母者何也傳曰妾之無子者妾子之無母者") == []
    assert _items("傳曰何以期也傳曰夫死妻稺子幼") == []
    assert _items("傳曰何如則可謂之兄弟傳曰小功以下爲兄弟") == []


def test_a_zhuan_that_has_closed_no_sentence_quotes():
    assert _items("傳曰出妻之子爲母期則爲外祖父母無服傳曰絶族無施服親者屬") == []


def test_an_item_after_a_question_is_a_guess():
    # ``姪者何也`` is a question: its answer and the next item run together
    assert _items("傳曰姪者何也謂吾姑者吾謂之姪夫之祖父母傳曰何以大功也") == [("謂吾姑者吾謂之姪夫之祖父母", False)]


@pytest.mark.parametrize("text, cited", [("注春秋傳曰", True), ("注大傳曰", True), ("注閒傳曰", True),
                                         ("注母之兄弟傳曰", False), ("注女子子之夫也傳曰", False)])
def test_a_book_cited_by_name_is_not_a_zhuan(text, cited):
    folded = fold(text)
    assert is_citation(folded, folded.index(fold("傳曰"))) is cited


# --- 四部丛刊: 经 and 传 both running text ----------------------------------------------------------

SBCK_ITEMS = SBCK_HEAD + """\
(也謂復平生時食也斬衰不書受月/者天子諸侯卿大夫士虞卒哭異數)父傳曰¶
爲父何以斬衰也父至尊也諸侯爲天子傳¶
曰天子至尊也君傳曰君至尊也(天子諸侯/及&KR0056;大夫)¶
(有地者/皆曰君)父爲長子(不言適子通上下/也亦言立適以長)傳曰何¶
以三年也正體於上又乃將所傳重也庶子¶
不得爲長子三年不繼祖也(此言爲父後者/然後爲長子三)¶
(與因母同故孝子不敢殊也/因猶親也)慈母如母¶
傳曰慈母者何也傳曰妾之無子者妾子之¶
無母者父命妾曰女以爲子命子曰女以爲¶
母&KR0002;是則生養之終其身如母死則䘮之三¶
年如母貴父之命也(此主謂大夫士之妾妾/子之無母父命爲母子)¶
"""


def test_sbck_the_item_after_a_zhuan_is_jing():
    units = body_units(read_text(MandokuSbckReader(), SBCK_ITEMS))
    assert units[1] == [("jing", "父"), ("zhuan", "傳曰爲父何以斬衰也父至尊也")]
    assert units[2] == [("jing", "諸侯爲天子"), ("zhuan", "傳曰天子至尊也")]
    # the note after a run of items and 传 goes with the last item
    assert units[3] == [("jing", "君"), ("zhuan", "傳曰君至尊也"), ("zhu", "天子諸侯及卿大夫有地者皆曰君")]
    assert units[4][0] == ("jing", "父爲長子")
    # a 傳 quoting an older 傳 stays one 传
    cimu = next(u for u in units if u[0] == ("jing", "慈母如母"))
    assert [layer for layer, _ in cimu] == ["jing", "zhuan", "zhu"]
    assert cimu[1][1].startswith("傳曰慈母者何也傳曰妾之無子者") and cimu[1][1].endswith("貴父之命也")


def test_sbck_an_item_before_its_own_note_is_jing(book_reader):
    """``…大夫不敢降其宗也舊君(大夫待放未去者)傳曰…``: the 卷's own voices say 舊君 is an item."""
    w = book_reader("KR1d0026_011")
    jing = {p.text for p in w.pieces() if p.layer == "jing"}
    assert {"舊君", "庶孫", "從祖昆弟之子", "甥", "壻", "舅"} <= jing
    zhuan = [p.text for p in w.pieces() if p.layer == "zhuan"]
    assert not any(t.endswith(("舊君", "庶孫", "諸侯爲天子")) for t in zhuan)


def test_sbck_the_ji_is_jing(book_reader):
    w = book_reader("KR1d0026_011")
    ji = [p for p in w.pieces() if p.text.startswith("記公子爲其母")]
    assert ji and ji[0].layer == "jing"


# --- 注疏: ○ before each item; a 传 may follow the item's 注 directly --------------------------------

ZHUSHU_AFTER_ZHU = ZHUSHU_HEAD + """\
(者亦疑於外親而有服/故問之)○舅注母之兄弟傳曰何以緦從服也注從於母而服之疏(傳釋曰/傳發問)¶
(者亦疑於外親而有服/故問之)○壻注女子子之夫也傳曰何以緦也報之也疏(傳釋曰發問者怪女之父母/為外親女之夫服答云報)¶
"""


def test_zhushu_a_zhuan_after_a_zhu():
    text = ZHUSHU_HEAD + "○妻爲夫傳曰夫¶\n至尊也疏(釋曰自此已下/論婦人服也)¶\n" + ZHUSHU_AFTER_ZHU.removeprefix(ZHUSHU_HEAD)
    units = body_units(read_text(MandokuZhushuReader(), text))
    assert [("jing", "舅"), ("zhu", "母之兄弟"), ("zhuan", "傳曰何以緦從服也"), ("zhu", "從於母而服之")] in units
    assert [("jing", "壻"), ("zhu", "女子子之夫也"), ("zhuan", "傳曰何以緦也報之也")] in units


def test_zhushu_a_zhuan_after_a_zhu_only_where_the_juan_has_shown_one():
    # no 传 yet in this 卷: ``傳曰`` in a 注 is left to the 注 (other 篇 quote 傳 too)
    units = body_units(read_text(MandokuZhushuReader(), ZHUSHU_AFTER_ZHU))
    assert all(layer != "zhuan" for u in units for layer, _ in u)


def test_zhushu_the_ji_after_a_zhuan_is_jing(book_reader):
    """``記疏(釋曰儀禮諸篇有記者…)公子為其母…``: the 记 ends the 传 of the item before it."""
    w = book_reader("KR1d0028_011")
    ji = [p for p in w.pieces() if p.text == "記" or p.text.startswith("公子為其母練冠")]
    assert len(ji) == 2 and all(p.layer == "jing" for p in ji)


def test_zhushu_whole_juan_no_item_in_a_zhuan(book_reader):
    w = book_reader("KR1d0028_011")
    assert ("zhuan", "傳曰何以緦從服也") in [(p.layer, p.text) for p in w.pieces()]
    assert not any("母之兄弟傳曰" in p.text for p in w.pieces() if p.layer == "zhu")


# --- 集释: 经 flush left, the 传 on the 经 line -------------------------------------------------------

def test_jishi_items_and_zhuan(book_reader):
    w = book_reader("KR1d0030_017")
    pairs = [(p.layer, p.text) for p in w.pieces()]
    assert ("jing", "諸侯爲天子") in pairs and ("zhuan", "傳曰天子至尊也") in pairs
    assert ("jing", "妾爲君") in pairs and ("zhuan", "傳曰君至尊也") in pairs


@pytest.fixture(scope="module")
def book_reader(read_kanripo):
    return read_kanripo


JISHI_HEAD = """\
# -*- mode: mandoku-view; -*-
#+TITLE: 儀禮集釋
#+PROPERTY: ID KR1d0030
#+PROPERTY: JUAN 19
<pb:KR1d0030_WYG_019-6a>¶
欽定四庫全書¶
"""

# KR1d0030_019, 葉6a–6b: the 传 of 甥 fills its line; 壻 below it has its own 注 and 传
JISHI_FULL_ZHUAN = JISHI_HEAD + """\
甥¶
　鄭注姊妺之子¶
<pb:KR1d0030_WYG_019-6b>¶
𫝊曰甥者何也謂吾舅者吾謂之甥何以緦也報之也¶
壻¶
　鄭注女子子之夫也¶
𫝊曰何以緦(案此下今注/疏本有也字)報之也¶
　釋曰壻亦有甥名孟子曰帝館甥是也釋親曰妻之¶
　父為外舅¶
妻之父母𫝊曰何以緦從服也¶
"""


def test_jishi_an_item_after_a_full_zhuan_line_is_jing():
    """A 传 is never taken up again by ``傳曰`` after its own 注: the short line between is an item."""
    units = body_units(read_text(MandokuJishiReader(), JISHI_FULL_ZHUAN))
    assert [layer for layer, _ in units[0]] == ["jing", "zhu", "zhuan"]
    assert units[0][2][1] == "𫝊曰甥者何也謂吾舅者吾謂之甥何以緦也報之也"
    assert units[1][:3] == [("jing", "壻"), ("zhu", "女子子之夫也"), ("zhuan", "𫝊曰何以緦報之也")]


def test_jishi_a_zhuan_going_on_over_a_full_line_stays_zhuan():
    # the same lines with no new ``傳曰`` after the note: 壻 is where the 传 ends, its 注 follows
    text = JISHI_FULL_ZHUAN.replace("𫝊曰何以緦(案此下今注/疏本有也字)報之也¶\n", "")
    units = body_units(read_text(MandokuJishiReader(), text))
    assert units[0][2] == ("zhuan", "𫝊曰甥者何也謂吾舅者吾謂之甥何以緦也報之也壻")


def test_jishi_whole_juan_no_zhuan_taken_up_after_its_note(book_reader):
    for name in ("KR1d0030_017", "KR1d0030_018", "KR1d0030_019"):
        for u in book_reader(name).units():
            layers = [p.layer for p in u.pieces if p.layer in ("jing", "zhuan", "zhu")]
            assert layers.count("zhuan") <= 1, u.id


def test_sangfu_no_witness_holds_an_item_of_another_in_its_zhuan(book_reader):
    """喪服 as the build layers it (the 四部丛刊's inferred items checked against the 注疏's ○): no 经 item of
    one witness (two characters or more: one-character items occur inside any 传) stands inside a 传 of
    another and in none of its 经 — but for the one real disagreement, which stays."""
    import copy

    from jiaokan.collate.relayer import relayer
    from jiaokan.normalize import keys

    zs = book_reader("KR1d0028_011")
    sb = copy.deepcopy(book_reader("KR1d0026_011"))
    relayer(sb, [zs], source="pian11-ZS.xml", layers={"zhuan"})
    witnesses = {"SB": [sb], "ZS": [zs], "JS": [book_reader(f"KR1d0030_0{n}") for n in (17, 18, 19)]}

    def texts(name: str, layer: str) -> list[str]:
        return ["".join(k for _, k in keys(p.text)) for w in witnesses[name] for p in w.pieces() if p.layer == layer]

    disputed = "".join(k for _, k in keys("出妻之子爲父後者則爲出母無服"))
    for name in witnesses:
        jing, zhuan = texts(name, "jing"), texts(name, "zhuan")
        for other in witnesses.keys() - {name}:
            held = {t for t in texts(other, "jing") if len(t) >= 2 and any(t in z for z in zhuan)
                    and not any(t in j for j in jing)}
            assert held <= {disputed}, (name, other, held)
    assert disputed in texts("ZS", "jing")
    assert not any(disputed in t for t in texts("SB", "jing") + texts("JS", "jing"))


def _numeral(s: str) -> int:
    """``四千四百二十八`` → 4428 (the 卷's count; 千 is beyond :func:`jiaokan.normalize.numerals.chinese_numeral`)."""
    digits = dict(zip("一二三四五六七八九", range(1, 10)))
    total, cur = 0, 0
    for ch in s:
        if ch in digits:
            cur = digits[ch]
        elif ch in "十百千":
            total += (cur or 1) * {"十": 10, "百": 100, "千": 1000}[ch]
            cur = 0
    return total + cur


def test_sangfu_the_sbck_layers_add_up_to_its_own_counts(book_reader):
    """The 四部丛刊 closes 卷十一 with ``(經四千四百二十八字/注五千九百七十八字)``: 經 counts every large character
    (经 items and 子夏's 传), 注 the double-column ones.  The reader's layers add up to both within 1%."""
    import re

    w = book_reader("KR1d0026_011")
    [count] = [p.text for p in w.pieces() if p.layer == "paratext" and p.subtype == "count"]
    m = re.fullmatch(r"經(.+)字注(.+)字", count)
    assert m, count
    stated = {"big": _numeral(m.group(1)), "zhu": _numeral(m.group(2))}
    assert stated == {"big": 4428, "zhu": 5978}
    big = sum(len(p.text) for p in w.pieces() if p.layer in ("jing", "zhuan"))
    zhu = sum(len(p.text) for p in w.pieces() if p.layer == "zhu")
    assert abs(big - stated["big"]) <= 0.01 * stated["big"], big
    assert abs(zhu - stated["zhu"]) <= 0.01 * stated["zhu"], zhu
