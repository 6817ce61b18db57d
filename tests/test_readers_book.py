"""The Mandoku readers on the whole book: marker forms, the verb 注, 子夏's 传, 記, and 篇 titles.

Each rule is pinned on real lines of ../shared/kanripo (篇一–八); 喪服 (篇十一), the one
篇 with a 传, is not there, so its rules are tested on short excerpts written in the exact
Mandoku shape of the real files.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jiaokan.model import DEFAULT_RESP, LAYERS, Label, WitnessMeta
from jiaokan.readers.common.base import load_source
from jiaokan.readers.common.lossless import check_lossless
from jiaokan.readers.common.yili import canonical_pian, pian_heading
from jiaokan.readers.formats.mandoku import MandokuJishiReader, MandokuSbckReader, MandokuZhushuReader
from jiaokan.readers.layouts.zhushu_markers import big_marks, fold, is_zhu_marker, no_zhu_end
from jiaokan.render.html import LAYER_EN, LAYER_ZH
from jiaokan.tei.validate import layer_errors
from jiaokan.tei.writer import witness_to_tei

#: 篇 of each Kanripo file of ../shared/kanripo (its README); None: front matter, no 篇.
PIAN_OF_FILE = {
    **{f"KR1d0026_00{n}": t for n, t in enumerate(
        ("士冠禮", "士昏禮", "士相見禮", "鄉飲酒禮", "鄉射禮", "燕禮", "大射儀", "聘禮"), 1)},
    **{f"KR1d0028_00{n}": t for n, t in enumerate(
        ("士冠禮", "士昏禮", "士相見禮", "鄉飲酒禮", "鄉射禮", "燕禮", "大射儀", "聘禮"), 1)},
    "KR1d0028_000": None, "KR1d0030_000": None,
    "KR1d0030_001": "士冠禮", "KR1d0030_002": "士昏禮", "KR1d0030_003": "士相見禮", "KR1d0030_004": "鄉飲酒禮",
    "KR1d0030_005": "鄉射禮", "KR1d0030_006": "鄉射禮", "KR1d0030_007": "燕禮", "KR1d0030_008": "燕禮",
    "KR1d0030_009": "大射儀", "KR1d0030_010": "大射儀", "KR1d0030_011": "聘禮", "KR1d0030_012": "聘禮",
    "KR1d0030_013": "聘禮", "KR1d0030_014": "聘禮",
}


@pytest.fixture(scope="module")
def book(read_kanripo):
    return read_kanripo


def read_text(reader, text: str, name: str = "KR_excerpt.txt"):
    src = load_source(name, text.encode("utf-8"))
    w = reader.read(src, WitnessMeta(siglum="W", file=name, format=reader.name))
    report = check_lossless(reader, src, w)
    assert report.ok, report.context
    return w


def pieces(w, layer: str | None = None) -> list:
    return [p for p in w.pieces() if layer is None or p.layer == layer]


def layer_of(w, text: str) -> list[str]:
    """The layers of the pieces whose text contains ``text``."""
    return [p.layer for p in w.pieces() if text in p.text]


# --- marker forms --------------------------------------------------------------------------------

def test_a_shu_marker_written_with_its_variant_form(book):
    """KR1d0028_002 line 43: ``…有司緇裳音義(…)䟽(注釋曰/云使者)(夫家之屬者…``."""
    w = book("KR1d0028_002")
    shu = [p for p in pieces(w, "shu") if p.text.startswith("釋曰云使者夫家之屬者")]
    assert len(shu) == 1 and shu[0].subtype == "zhu-part"
    # the 注 of 注釋曰 is the marker of the part on the 注, as the 单疏本's 標起止 (注X至Y) is: a label, kept
    assert [x.text for x in shu[0].content if isinstance(x, Label)] == ["䟽", "注"]
    assert not any("注釋曰" in p.text for p in pieces(w, "jing"))


def test_marker_forms_fold_but_stay_in_place():
    assert fold("䟽疎踈註音義") == "疏疏疏注音义"
    # a 疏 in a 经 line not before a group is the character (疏屨, 疏匕), not a marker
    w = read_text(MandokuZhushuReader(), ZHUSHU_HEAD + "疏屨者藨蒯之菲也注沽猶麤也䟽(釋曰/沽麤)¶\n")
    assert [p.layer for p in w.pieces() if p.layer != "paratext"] == ["jing", "zhu", "shu"]
    assert pieces(w, "jing")[0].text == "疏屨者藨蒯之菲也"


def test_a_shu_written_with_zhu_before_its_group(book):
    """KR1d0028_006 line 260: ``取象觚者東面注(釋曰自/此下盡)(奠于膳篚…)``: the group is a 疏."""
    w = book("KR1d0028_006")
    shu = [p for p in pieces(w, "shu") if p.text.startswith("釋曰自此下盡奠于膳篚")]
    assert len(shu) == 1
    assert any(p.text.endswith("取象觚者東面") for p in pieces(w, "zhu"))
    assert "mismarked-shu" in [x.code for x in w.warnings]


# --- the verb 注 ---------------------------------------------------------------------------------

def test_the_verb_zhu_inside_a_zhu_is_not_the_marker(book):
    """KR1d0028_002 lines 818–819: ``加勺注屬注也𤣥酒涚水…乃取之三注于尊中音義(``: one 注."""
    w = book("KR1d0028_002")
    assert layer_of(w, "屬注也𤣥酒涚水貴新昏禮又貴新故事至乃取之三注于尊中") == ["zhu"]
    assert not any(p.text in ("屬", "于尊中") for p in pieces(w))


def test_a_gloss_by_zhu_is_not_the_marker(book):
    """KR1d0028_001: ``純博寸注魁蜃蛤柎注也音義(``: 柎 is glossed by 注 (the verb), inside the 注."""
    assert layer_of(book("KR1d0028_001"), "魁蜃蛤柎注也") == ["zhu"]


@pytest.mark.parametrize("text, marker", [
    ("乃取之三注于尊中", False),  # 士昏禮: pour into
    ("挹湆注于疏匕若是者三", False),  # 少牢: pour into
    ("屬注也", False),  # a gloss: 屬 means 注
    ("主人拜送注於衆賔右", True),  # KR1d0028_004: a 注 that opens with 於
    ("升自西階注于猶爲也", True),  # a 注 that glosses 于
    ("奠于其所注所薦西也", True),
    ("三揖註將進揖", True),  # the marker in its variant form
])
def test_zhu_marker_or_verb(text, marker):
    at = text.index("注") if "注" in text else text.index("註")
    assert is_zhu_marker(text, fold(text), at) is marker


def test_a_zhu_that_quotes_the_jing_words_after_yu_is_the_marker():
    """KR1d0028_012 line 502 (士喪禮): ``…實于右三實一貝左中亦如之又實米唯盈注于右尸口之右…``: the 注 glosses
    the 经's 于右, so it is the marker though 于 follows it; the verb's 于尊中 (士昏禮, inside the 注 that 注屬 opened)
    is no word of the text since the last marker."""
    text = "主人左扱米實于右三實一貝左中亦如之又實米唯盈注于右尸口之右唯盈取滿而已"
    assert big_marks(text, fold(text), 0, len(text)) == [(text.index("注"), "注")]
    verb = "酌𤣥酒三屬于尊棄餘水于堂下階間加勺注屬注也𤣥酒涚水貴新昏禮又貴新故事至乃取之三注于尊中"
    assert big_marks(verb, fold(verb), 0, len(verb)) == [(verb.index("注屬"), "注")]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="注註于於也猶主人拜○疏", max_size=30))
def test_fold_keeps_offsets_and_marks_are_ordered(text):
    folded = fold(text)
    assert len(folded) == len(text)
    marks = big_marks(text, folded, 0, len(text))
    assert [m for m, _ in marks] == sorted({m for m, _ in marks})
    assert all(text[m] in "○注註" for m, _ in marks)


def test_a_zhu_never_ends_on_a_word_that_wants_an_object(book):
    """KR1d0028_003 line 47: ``見注命謂請吾子之就家主人對曰…``: ``命謂`` alone is no 注."""
    bonus: dict[int, float] = {}
    no_zhu_end("命謂請吾子", bonus)
    assert set(bonus) == {2} and bonus[2] < -10
    assert not any(p.text in ("命謂", "命") for p in pieces(book("KR1d0028_003"), "zhu"))


# --- 記 is 经 ------------------------------------------------------------------------------------

@pytest.mark.parametrize("stem, opening", [
    ("KR1d0028_001", "記"),  # 記疏(釋曰凡言記者…) then 冠義始冠…
    ("KR1d0028_002", "記"),
    ("KR1d0028_004", "記鄉朝服而謀賔介"),
    ("KR1d0028_005", "記大夫與則公士爲賓"),
    ("KR1d0028_006", "記燕朝服於寢"),
    ("KR1d0028_008", "記久無事則聘焉"),
    ("KR1d0026_001", "記冠義始冠緇布之冠也"),
    ("KR1d0030_004", "記鄉朝服而謀賓介"),
    ("KR1d0030_014", "記久無事則聘焉"),
])
def test_the_ji_of_a_pian_is_jing(book, stem, opening):
    w = book(stem)
    found = [p for p in w.pieces() if p.text.startswith(opening) and (len(opening) > 1 or p.text == "記")]
    assert found and all(p.layer == "jing" for p in found)


# --- 篇 titles -----------------------------------------------------------------------------------

@pytest.mark.parametrize("stem", sorted(PIAN_OF_FILE))
def test_every_file_that_has_a_pian_title_gets_it(book, stem):
    w = book(stem)
    assert (w.meta.chapter or None) == PIAN_OF_FILE[stem]
    assert w.divs[0].title == PIAN_OF_FILE[stem]


def test_a_juan_that_opens_mid_pian_invents_no_title():
    text = SBCK_HEAD.replace("䘮服第十一　子夏傳　鄭氏注¶\n", "") + "賓主人大夫揖皆由其階降(揖/也)¶\n鄕射禮第五¶\n"
    w = read_text(MandokuSbckReader(), text)
    assert not w.meta.chapter and w.divs[0].title is None


@pytest.mark.parametrize("line, title", [
    ("士昬禮第二", "士昏禮"), ("鄕飮酒禮第四", "鄉飲酒禮"), ("䘮服第十一　子夏傳", "喪服"),
    ("喪服第十一", "喪服"), ("旣夕禮", "既夕禮"), ("特牲餽食禮第十五", "特牲饋食禮"), ("有司第十七", "有司徹"),
    ("喪服經傳第十一", "喪服"), ("乡射礼", "鄉射禮"), ("士冠禮第一　儀禮　鄭氏注", "士冠禮"),
    ("燕禮小臣戒與者", None), ("記燕朝服於寢", None), ("士相見之禮", None), ("有司", None), ("有司　執事", None),
])
def test_pian_headings_in_variant_forms(line, title):
    found = pian_heading(line)
    assert (canonical_pian(found) if found else None) == title


_HEADING_PARTS = st.sampled_from(["士冠禮", "鄕飮酒禮", "䘮服", "既夕", "有司", "特牲餽食禮", "儀禮", "大射", "第", "十一",
                                  "之二", "卷", "巻第五", "考證", "　", " ", "\u2003", "\x1c", "\t", "子夏傳", "鄭氏注",
                                  "燕", "(經一千字/注二千)", "賓"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_HEADING_PARTS, max_size=8).map("".join))
def test_title_lines_are_what_their_patterns_alone_say(line):
    """pian_heading and juan_title ask a cheap question first (does the line open with a title's first
    character, hold a 卷 early enough): it must never turn away a line the pattern takes."""
    from jiaokan.readers.common.yili import PIAN_LINE_RE, _NUMBERED_ONLY, _folded, _titles
    from jiaokan.readers.formats.mandoku.source import JUAN_TITLE_RE, juan_title

    m = PIAN_LINE_RE.match(line)
    title = m.group("title") if m else None
    if title is not None and (_folded(title) not in _titles() or (title in _NUMBERED_ONLY and not m.group("n"))):
        title = None
    assert pian_heading(line) == title
    found, expected = juan_title(line), JUAN_TITLE_RE.match(line)
    assert (found and found.groupdict()) == (expected and expected.groupdict())


# --- 子夏's 传 (喪服): excerpts in the shape of the real files ---------------------------------------

ZHUSHU_HEAD = """\
# -*- mode: mandoku-view; -*-
#+TITLE: 儀禮注疏
#+PROPERTY: ID KR1d0028
#+PROPERTY: JUAN 卷十一
<pb:KR1d0028_WYG_011-1a>¶
欽定四庫全書¶
　儀禮注疏巻十一¶
　　漢鄭氏注唐陸德明音義賈公彦疏¶
　喪服第十一¶
"""

ZHUSHU_ZHUAN = ZHUSHU_HEAD + """\
喪服疏(釋曰題此二字於上/者與此一篇為總目)○斬衰裳苴絰杖絞帶冠¶
繩纓菅屨者注者者明為下出也凡服上曰衰下曰裳¶
齊衰以下用布音義(衰七囘反苴七如/反絰大結反)疏(釋曰言斬衰裳/者謂斬三升布)¶
(以為衰裳/者也)傳曰斬者何不緝也苴絰者麻之有蕡者也¶
婦人何以不杖亦不能病也注盈手曰搹搹㧖也中人¶
之㧖圍九寸音義(緝七入/反)疏(傳釋曰云斬者何/問辭)¶
(以執所不/知故云)絞帶者繩帶也冠繩纓條屬右縫冠六升¶
菅屨者菅菲也外納注屬猶著也疏(傳釋曰云絞/帶者繩帶也)¶
(者以絞麻為繩/作帶故云)○父疏(釋曰周/公設經)傳曰爲父何以斬衰也¶
父至尊也音義(爲于/僞反)疏(傳釋曰傳曰/為父何以)○妻爲夫傳曰夫¶
至尊也疏(釋曰自此已下/論婦人服也)○君疏(釋曰/臣為)傳曰君至尊也注天子諸矦及卿大夫有¶
地者皆曰君疏(注釋曰卿大夫承天/子諸矦則天子諸)¶
"""


def _layers_by_unit(w) -> list[list[tuple[str, str]]]:
    return [[(p.layer, p.text) for p in u.pieces if p.layer not in ("paratext", "shu", "yinyi")] for u in w.units()
            if any(p.layer != "paratext" for p in u.pieces)]


def test_zhushu_reads_the_zhuan_between_jing_and_zhu():
    w = read_text(MandokuZhushuReader(), ZHUSHU_ZHUAN)
    assert w.meta.chapter == "喪服"
    # ``#+PROPERTY: JUAN 卷十一`` and the title ``儀禮注疏巻十一`` (巻 for 卷) both say 卷 11
    assert w.meta.juan == "11" and "header-juan" not in [x.code for x in w.warnings]
    assert [p.text for p in pieces(w, "paratext") if p.subtype == "title"] == ["儀禮注疏巻十一"]
    units = _layers_by_unit(w)
    assert units[1] == [
        ("jing", "斬衰裳苴絰杖絞帶冠繩纓菅屨者"),
        ("zhu", "者者明為下出也凡服上曰衰下曰裳齊衰以下用布"),
        ("zhuan", "傳曰斬者何不緝也苴絰者麻之有蕡者也婦人何以不杖亦不能病也"),
        ("zhu", "盈手曰搹搹㧖也中人之㧖圍九寸"),
        ("zhuan", "絞帶者繩帶也冠繩纓條屬右縫冠六升菅屨者菅菲也外納"),  # after its 疏 (傳釋曰), the 传 goes on
        ("zhu", "屬猶著也"),
    ]
    assert units[2] == [("jing", "父"), ("zhuan", "傳曰爲父何以斬衰也父至尊也")]
    assert units[3] == [("jing", "妻爲夫"), ("zhuan", "傳曰夫至尊也")]
    assert units[4] == [("jing", "君"), ("zhuan", "傳曰君至尊也"), ("zhu", "天子諸矦及卿大夫有地者皆曰君")]
    assert {p.resp for p in pieces(w, "zhuan")} == {"子夏"}


def test_a_cited_zhuan_inside_a_zhu_stays_zhu():
    text = ZHUSHU_HEAD + "○父爲長子注春秋傳曰立適以長不以賢疏(釋曰君父/尊外)¶\n"
    w = read_text(MandokuZhushuReader(), text)
    assert [p.layer for p in w.pieces() if p.layer != "paratext"] == ["jing", "zhu", "shu"]


SBCK_HEAD = """\
# -*- mode: mandoku-view; -*-
#+TITLE: 儀禮
#+PROPERTY: ID KR1d0026
#+PROPERTY: JUAN 11
<pb:KR1d0026_SBCK_011-1a>¶
儀禮卷第十一¶
䘮服第十一　子夏傳　鄭氏注¶
"""

SBCK_ZHUAN = SBCK_HEAD + """\
䘮服斬衰裳苴絰杖絞帶冠繩纓菅屨者(者/者)¶
(明爲下出也凢服上曰衰下曰裳)¶
傳曰斬者何不緝也苴絰者麻之有蕡者也¶
旣練舎外寢始食菜果飯素食哭無時(盈手/曰搹)¶
(搹扼也中人之扼圍九寸)父傳曰¶
爲父何以斬衰也父至尊也諸侯爲天子傳¶
曰天子至尊也(天子諸侯/及卿大夫)¶
(有地者/皆曰君)父爲長子(不言適子通上下/也亦言立適以長)傳曰何¶
以三年也正體於上又乃將所傳重也¶
"""


def test_sbck_reads_the_zhuan_in_the_running_text():
    w = read_text(MandokuSbckReader(), SBCK_ZHUAN)
    assert w.meta.chapter == "喪服"
    units = _layers_by_unit(w)
    assert units[0] == [
        ("jing", "䘮服斬衰裳苴絰杖絞帶冠繩纓菅屨者"),
        ("zhu", "者者明爲下出也凢服上曰衰下曰裳"),
        ("zhuan", "傳曰斬者何不緝也苴絰者麻之有蕡者也旣練舎外寢始食菜果飯素食哭無時"),
        ("zhu", "盈手曰搹搹扼也中人之扼圍九寸"),
    ]
    # ``傳`` ends a line, ``曰`` opens the next; the next ``傳曰`` betrays the 经 item before it
    # (tests/test_readers_zhuan.py)
    assert units[1] == [("jing", "父"), ("zhuan", "傳曰爲父何以斬衰也父至尊也")]
    assert units[2] == [("jing", "諸侯爲天子"), ("zhuan", "傳曰天子至尊也"),
                        ("zhu", "天子諸侯及卿大夫有地者皆曰君")]
    assert units[3] == [("jing", "父爲長子"), ("zhu", "不言適子通上下也亦言立適以長"),
                        ("zhuan", "傳曰何以三年也正體於上又乃將所傳重也")]


JISHI_ZHUAN = """\
# -*- mode: mandoku-view; -*-
#+TITLE: 儀禮集釋
#+PROPERTY: ID KR1d0030
#+PROPERTY: JUAN 卷十七
<pb:KR1d0030_WYG_017-1a>¶
欽定四庫全書¶
　儀禮集釋卷十七　　　宋　李如圭　撰¶
喪服第十一　子夏傳¶
　鄭目録云天子以下死而相喪衣服年月親疏隆殺¶
　之禮¶
喪服斬衰裳苴絰杖絞帶冠繩纓菅屨者¶
　鄭注者者明爲下出也凡服上曰衰下曰裳麻在首¶
　在要皆曰絰¶
　釋曰凡服上曰衣下曰裳喪服以布爲衰綴之於衣¶
傳曰斬者何不緝也苴絰者麻之有蕡者也苴絰大搹¶
左本在下去五分一以爲帶¶
　鄭注盈手曰搹搹㧖也¶
父傳曰爲父何以斬衰也父至尊也¶
　釋曰嫡孫爲祖亦然¶
父爲長子¶
　鄭注不言適子通上下也¶
"""


def test_jishi_reads_the_zhuan_flush_or_inside_a_jing_line():
    w = read_text(MandokuJishiReader(), JISHI_ZHUAN)
    assert w.meta.chapter == "喪服"
    units = [[(p.layer, p.text) for p in u.pieces] for u in w.units()]
    body = [u for u in units if u and u[0][0] == "jing"]
    assert body[0] == [
        ("jing", "喪服斬衰裳苴絰杖絞帶冠繩纓菅屨者"),
        ("zhu", "者者明爲下出也凡服上曰衰下曰裳麻在首在要皆曰絰"),
        ("shi", "凡服上曰衣下曰裳喪服以布爲衰綴之於衣"),
        ("zhuan", "傳曰斬者何不緝也苴絰者麻之有蕡者也苴絰大搹左本在下去五分一以爲帶"),
        ("zhu", "盈手曰搹搹㧖也"),
    ]
    assert body[1] == [("jing", "父"), ("zhuan", "傳曰爲父何以斬衰也父至尊也"), ("shi", "嫡孫爲祖亦然")]
    assert body[2][0] == ("jing", "父爲長子")


@pytest.mark.parametrize("reader, text", [
    (MandokuZhushuReader(), ZHUSHU_ZHUAN), (MandokuSbckReader(), SBCK_ZHUAN), (MandokuJishiReader(), JISHI_ZHUAN)])
def test_the_zhuan_is_valid_tei(reader, text, profile, tei_all):
    tree = witness_to_tei(read_text(reader, text))
    assert profile.validate(tree), profile.error_log
    assert tei_all.validate(tree), tei_all.error_log
    assert layer_errors(tree.getroot()) == []
    assert tree.getroot().xpath("//*[@type='zhuan']")


def test_the_zhuan_layer_is_known_everywhere():
    assert "zhuan" in LAYERS and DEFAULT_RESP["zhuan"] == "子夏"
    assert LAYER_ZH["zhuan"] == "传" and "zhuan" in LAYER_EN


@pytest.mark.parametrize("stem, line", [
    ("KR1d0026_001", "儀禮卷第一經一千八百九十八字注三千六百二字"),  # ``儀禮卷第一(經一千八百九十八字/注三千六百二字)``
    ("KR1d0026_008", "儀禮卷第八經五千三百四注一万九百六十一"),  # the count without 字
])
def test_the_closing_title_with_its_count_is_paratext(book, stem, line):
    w = book(stem)
    assert [p.layer for p in w.pieces() if p.text == line] == ["paratext"]
    assert not any(line[:5] in p.text for p in w.pieces() if p.layer != "paratext")
