"""The two new Mandoku formats on real lines: the 单疏本 《儀禮疏》 (KR1d0027) and 張淳《儀禮識誤》 (KR1d0029).

Every excerpt is copied from ../shared/kanripo (file and line named); the whole-file tests
read the files themselves and skip where ../shared is not beside the checkout.
"""

from __future__ import annotations

import pytest

from jiaokan.book.pian import file_stretches
from jiaokan.model import Note, WitnessMeta
from jiaokan.readers import read_witness, sniff
from jiaokan.readers.common.base import load_source
from jiaokan.readers.common.lossless import check_lossless
from jiaokan.readers.formats.mandoku.danshu import MandokuDanshuReader, lemma_of
from jiaokan.readers.formats.mandoku.shiwu import MandokuShiwuReader
from jiaokan.tei.validate import layer_errors
from jiaokan.tei.writer import witness_to_tei

from .conftest import KANRIPO

HEAD = "# -*- mode: mandoku-view -*-\n#+TITLE: {title}\n#+PROPERTY: JUAN {juan}\n"


def read(reader, body: str, title: str = "儀禮疏", juan: str = "1", name: str = "KR1d0027_001.txt"):
    src = load_source(name, (HEAD.format(title=title, juan=juan) + body).encode("utf-8"))
    w = reader.read(src, WitnessMeta(siglum="W", file=name, format=reader.name))
    report = check_lossless(reader, src, w)
    assert report.ok, report.context
    return w


def lemmas(w) -> list[tuple[str | None, str | None, str]]:
    """(lemma, subtype, first characters of the 疏) of every unit with 疏."""
    out = []
    for u in w.units():
        shu = [p for p in u.pieces if p.layer == "shu"]
        if shu:
            out.append((lemma_of(u), shu[0].subtype, shu[0].text.strip("\u3000")[:4]))
    return out


# --- 单疏本: the 標起止 forms ------------------------------------------------------------------------

# KR1d0027_001.txt lines 90-94 and 118-121: the 篇's first lemma after the marker 䟽, glued to the text
# before it; a 注 lemma after a blank; a 經 lemma; a lemma that runs over a line end (注¶主人至入與).
DS_001 = (
    "<pb:KR1d0027_SBCK_001-3b>¶\n"
    "先吉後凶盡則行祭祀吉禮次叙之法其義可知略陳儀禮元本至於¶\n"
    "禮之大義備於禮記䟽士冠至廟門　釋曰自此至宗人告事畢一¶\n"
    "節論將行冠禮先筮取日之事案下文云布席于門中闑西閾外者闑¶\n"
    "者閾外之文可參故省文也　注筮者至廟神　釋曰鄭知筮以蓍者¶\n"
    "&KR0017;謀鄭注云&KR0017;謀謂謀卜筮於廟門是也　主人至西面　釋曰此主¶\n"
    "人將欲謀日之時先服即位於禰廟門外東西面立以待筮事也　注¶\n"
    "主人至入與　釋曰經直云主人當是父子加冠之禮知兼有兄者論¶\n"
)


def test_lemma_forms_of_the_danshu_on_real_lines():
    w = read(MandokuDanshuReader(), DS_001)
    got = lemmas(w)
    assert ("士冠至廟門", None, "釋曰自此") in got  # after the marker 䟽, with no blank before it
    assert ("注筮者至廟神", "zhu-part", "釋曰鄭知") in got  # a 注's lemma: the 注疏's zhu-part
    assert ("主人至西面", None, "釋曰此主") in got
    assert ("注主人至入與", "zhu-part", "釋曰經直") in got  # over a line end
    # the 疏 text holds no lemma character: the lemma is the label that opens it
    assert all(p.text.lstrip("\u3000").startswith("釋曰") for u in w.units() if lemma_of(u)
               for p in u.pieces if p.layer == "shu")


# KR1d0027_018.txt lines 174-176: a lemma that opens a printed line has no blank before it; a 經 lemma
# and a 注 lemma explained by one 疏 (三耦至堂西　注不敢至事畢 at KR1d0027_018 line 8 has the same shape).
DS_018 = (
    "<pb:KR1d0027_SBCK_018-5a>¶\n"
    "祭侯正唯一祭俎耳故云唯祭一爲異　注祭俎至備禮　釋曰上祭¶\n"
    "侯之時祭俎不奠爵不備禮至此祭俎亦祭肺不奠爵賤亦不備禮¶\n"
    "注亦辟俎也　釋曰以其薦俎相將薦旣辟俎亦辟可知　司射至反¶\n"
    "位　注諸公至士耦　釋曰諸公卿大夫自爲耦者拾取矢在前¶\n"
)


def test_lemma_at_a_line_start_and_a_lemma_of_two_parts():
    got = lemmas(read(MandokuDanshuReader(), DS_018, juan="18", name="KR1d0027_018.txt"))
    assert ("注亦辟俎也", "zhu-part", "釋曰以其") in got
    assert ("司射至反位　注諸公至士耦", None, "釋曰諸公") in got


# KR1d0027_019.txt lines 280-282 and 290-291: a lemma glued to its 釋曰 with no blank between, after a page
# break (注士士至之節釋曰) and after a 經 quoted whole (及竟張旜誓注及至至維之釋曰); a 釋曰 glued to text that
# has no lemma shape stays inside its stretch.
DS_019 = (
    "案下文云賔入門左介皆入門右北面西上是也　習享士執庭實¶\n"
    "<pb:KR1d0027_SBCK_019-9b>¶\n"
    "注士士至之節釋曰享時庭實旅百獻國所有非止於皮知所執是皮¶\n"
    "者以其金龜竹箭之等皆列之於地不執之所執者唯有皮而巳是以¶\n"
    "右爲若降等然是也若然大夫之幣不在朝付之至郊乃付之避君禮不謂¶\n"
    "非公事　及竟張旜誓注及至至維之釋曰自此盡入境斂旜論賔¶\n"
    "至主國之境謁關人見威儀之事云張旜明事在此國者以其行道君釋曰云此¶\n"
)


def test_a_lemma_glued_to_its_opening_opens_a_stretch():
    got = lemmas(read(MandokuDanshuReader(), DS_019, juan="19", name="KR1d0027_019.txt"))
    assert ("習享士執庭實注士士至之節", None, "釋曰享時") in got
    assert ("及竟張旜誓注及至至維之", None, "釋曰自此") in got
    assert not any(lem and lem.endswith("行道君") for lem, _s, _t in got)  # no lemma shape: not an opening


# KR1d0027_026.txt lines 179-182: a 篇 heading inside a line and over a line end (覲¶禮第十), then 鄭目録.
DS_026 = (
    "<pb:KR1d0027_SBCK_026-6a>¶\n"
    "於食庶羞宰夫又設酒漿所以食庶羞可也所以然者優尊故也　覲¶\n"
    "禮第十　鄭目録云覲見也諸侯秋見天子之禮春見曰朝夏見曰宗¶\n"
    "<pb:KR1d0027_SBCK_026-6b>¶\n"
    "唯此存爾覲禮於五禮屬賔大戴第十六小戴十七別録第十　釋曰¶\n"
    "鄭云春見曰朝等大宗伯文云朝宗禮備覲遇禮省者案曲禮下云天¶\n"
)


def test_a_pian_heading_inside_a_line_opens_its_pian():
    w = read(MandokuDanshuReader(), DS_026, juan="26", name="KR1d0027_026.txt")
    heads = [p for p in w.pieces() if p.layer == "paratext" and p.subtype == "pian"]
    assert [p.text for p in heads] == ["覲禮第十"]
    got = lemmas(w)
    assert got[-1][1] == "mulu" and got[-1][0].startswith("鄭目録云覲見也")
    st = file_stretches(w, "公食大夫禮")
    assert [s.pian for s in st] == ["公食大夫禮", "覲禮"]


def test_short_titles_of_this_print_name_their_pian():
    # KR1d0027_014 line 8 (no blank before 鄭目録) and KR1d0027_016 line 8 (大射 for 大射儀)
    for line, pian in (("燕禮第六鄭目録云諸侯無事若卿大夫有勤勞之功與羣臣燕飲　釋曰此¶\n", "燕禮"),
                       ("大射第七　鄭目録云名曰大射者諸侯將有𥙊祀之事　釋曰此¶\n", "大射儀")):
        w = read(MandokuDanshuReader(), "<pb:KR1d0027_SBCK_014-1a>¶\n儀禮䟽卷第十四¶\n" + line)
        assert [s.pian for s in file_stretches(w, None)][-1] == pian


@pytest.mark.parametrize("n", ["001", "011", "026", "032"])
def test_whole_danshu_files_are_lossless_valid_and_mostly_lemmatised(n):
    path = KANRIPO / f"KR1d0027_{n}.txt"
    if not path.is_file():
        pytest.skip("../shared/kanripo not available")
    src = load_source(path)
    assert sniff(src).name == "mandoku-danshu"
    w = read_witness(path)
    assert check_lossless(MandokuDanshuReader(), src, w).ok
    assert w.meta.role == "danshu" and w.meta.juan == str(int(n))
    got = lemmas(w)
    assert sum(1 for x in got if x[0]) >= 0.95 * len(got)
    assert layer_errors(witness_to_tei(w)) == []


# --- 識誤 -------------------------------------------------------------------------------------------

# KR1d0029_001.txt lines 5-24: title lines, a 篇 section, entries over lines, an editors' note inside an
# entry that runs over two lines and a page break.
SW_001 = (
    "<pb:KR1d0029_WYG_001-1a>¶\n"
    "欽定四庫全書¶\n"
    "　儀禮識誤卷一¶\n"
    "　　　　　　　　　　　　宋　張淳　撰¶\n"
    "　　士冠禮誤字¶\n"
    "眂　注曰天子與其臣𤣥冕以視朔皮弁以日視朝諸¶\n"
    "　侯與其臣皮弁以視朔朝服以日視朝按釋文云眂¶\n"
    "　各從其初所用字可也從釋文¶\n"
    "撤　經曰徹筮席注曰徹去也按釋文寫注作撤注舉¶\n"
    "　經以釋之注字必與經同宜皆作撤從釋文(案説文/無撤字)¶\n"
    "　(徹通徹去古皆用徹如篇題有司徹未聞有作撤者/也撤乃後代俗書張氏不能訂正其非轉改徹以從)¶\n"
    "<pb:KR1d0029_WYG_001-2a>¶\n"
    "　(撤疎/矣)¶\n"
    "染　注曰凡染絳一入謂之縓再入謂之赬三入謂之¶\n"
    "　從釋文¶\n"
)


def test_shiwu_entries_run_over_lines_and_hold_the_editors_notes():
    w = read(MandokuShiwuReader(), SW_001, title="儀禮識誤", name="KR1d0029_001.txt")
    entries = [p for p in w.pieces() if p.subtype == "shiwu-entry"]
    assert [p.text.split("\u3000")[0] for p in entries] == ["眂", "撤", "染"]
    assert entries[0].text.endswith("各從其初所用字可也從釋文")  # continuation lines join the entry
    notes = [n for n in entries[1].content if isinstance(n, Note)]
    assert len(notes) == 1 and notes[0].text.startswith("案説文無撤字徹通徹去") and notes[0].text.endswith("撤疎矣")
    assert "案" not in entries[1].text  # the note is not 張淳's text
    assert [s.pian for s in file_stretches(w, None)] == ["士冠禮"]


def test_shiwu_whole_files_place_every_pian_and_stay_lossless():
    files = [KANRIPO / f"KR1d0029_00{n}.txt" for n in range(4)]
    if not all(f.is_file() for f in files):
        pytest.skip("../shared/kanripo not available")
    opened = None
    seen = []
    for f in files[1:]:
        src = load_source(f)
        assert sniff(src).name == "mandoku-shiwu"
        w = read_witness(f)
        assert check_lossless(MandokuShiwuReader(), src, w).ok and w.meta.role == "shiwu"
        sts = file_stretches(w, opened)
        assert all(s.pian is not None for s in sts)
        seen += [s.pian for s in sts if s.pian not in seen]
        opened = next((s.pian for s in reversed(sts) if s.pian != "front"), opened)
    # 鄉射禮 and 大射儀 are lost from this text (the editors' note after their titles says so): a title with
    # nothing after it rides with the next 篇's, as title lines do
    assert seen[:6] == ["士冠禮", "士昏禮", "士相見禮", "鄉飲酒禮", "燕禮", "聘禮"] and "front" in seen


def test_page_breaks_in_a_row_with_no_text_are_lost_pages_but_a_blank_leaf_is_not():
    """The 单疏本's transcription marks no lost page: it leaves the labels of leaves it has no text for (KR1d0027_007
    lines 165-167: 6a, 7a, 8a, the text of 5b broken off mid-sentence), and the 疏 collation read what they held as
    the 单疏本's omissions.  Breaks in a row with text after them are a lost page now (a gap, said 'inferred', and a
    notice); a leaf transcribed as blank lines is not, nor a run of breaks at the file's end."""
    from jiaokan.model import Gap

    def gaps(w):
        return [x.desc for p in w.pieces() for x in p.content if isinstance(x, Gap)]

    lost = read(MandokuDanshuReader(), DS_001 + "<pb:KR1d0027_SBCK_001-4a>¶\n<pb:KR1d0027_SBCK_001-5a>¶\n"
                "西階　釋曰上文據君所在隨便升階無常之事亦謂反燕¶\n")
    assert gaps(lost) == ["inferred: page breaks 4a, 5a with no text between"]
    assert any(x.code == "lacuna" and "4a, 5a" in x.message for x in lost.warnings)
    blank = read(MandokuDanshuReader(), DS_001 + "<pb:KR1d0027_SBCK_001-4a>¶\n\u3000¶\n\u3000¶\n"
                 "<pb:KR1d0027_SBCK_001-4b>¶\n西階　釋曰上文據君所在¶\n")
    assert gaps(blank) == []
    end = read(MandokuDanshuReader(), DS_001 + "<pb:KR1d0027_SBCK_001-4a>¶\n<pb:KR1d0027_SBCK_001-5a>¶\n")
    assert gaps(end) == []


def test_a_gaiji_inside_a_lemma_stays_in_the_lemma_and_is_not_read():
    """KR1d0027_003.txt lines 188-190: the 標起止 注肴&KR0155;至謂豚, whose middle character (升) the source gives
    as an entity.  It stays in the label (a LabelGaiji: kept, its code written in a TEI label), reads nothing,
    and the lemma still holds it; read as 疏 text it stood as an addition 升 before 釋曰 (40 such over 篇一–十三)."""
    from lxml import etree

    from jiaokan.model import Label, LabelGaiji
    from jiaokan.tei.reader import witness_from_tei

    body = ("<pb:KR1d0027_SBCK_003-6b>¶\n"
            "旨美至之貌　釋曰楚茨詩亦云籩豆有楚注云楚陳列之貌是用其¶\n"
            "再醮之籩豆不増改之故云有楚也　注肴&KR0155;至謂豚　釋曰云折俎¶\n"
            "者即謂折上&KR0002;殺之豚也　字辭至爾字　釋曰此字文在三代之下¶\n")
    w = read(MandokuDanshuReader(), body, juan="3", name="KR1d0027_003.txt")
    u = next(u for u in w.units() if (lemma_of(u) or "").startswith("注肴"))
    shu = next(p for p in u.pieces if p.layer == "shu")
    marks = [x for x in shu.content if isinstance(x, (Label, LabelGaiji))]
    assert [type(x).__name__ for x in marks] == ["Label", "LabelGaiji", "Label"]
    assert marks[1].code == "KR0155" and lemma_of(u) == "注肴" + marks[1].glyph + "至謂豚"
    assert shu.text.strip("\u3000").startswith("釋曰云折俎")  # the 疏 reads from 釋曰: the lemma is not read
    tree = witness_to_tei(w)
    assert '<label><g ref="#KR0155"' in etree.tostring(tree, encoding="unicode")
    back = witness_from_tei(tree.getroot())
    shu2 = next(p for p in back.pieces() if p.id == shu.id)
    assert [type(x).__name__ for x in shu2.content if isinstance(x, (Label, LabelGaiji))] == ["Label", "LabelGaiji", "Label"]


def test_a_label_holding_text_and_two_gaiji_reads_back_whole():
    """A ``label`` that holds text and more than one ``g`` (TEI from elsewhere; jiaokan writes one per label) is
    read back whole: each ``g`` a LabelGaiji, the text around them labels, nothing dropped."""
    from lxml import etree

    from jiaokan.model import Label, LabelGaiji
    from jiaokan.tei.reader import witness_from_tei

    w = read(MandokuDanshuReader(), "<pb:KR1d0027_SBCK_003-6b>¶\n注肴&KR0155;至&KR0002;豚　釋曰云折俎¶\n",
             juan="3", name="KR1d0027_003.txt")
    xml = etree.tostring(witness_to_tei(w), encoding="unicode")
    merged = xml.replace("</label><label>", "")  # one label: 注肴 g 至 g 豚
    assert merged.count("<label>") < xml.count("<label>")
    back = witness_from_tei(etree.fromstring(merged))
    shu = next(p for p in back.pieces() if p.layer == "shu")
    marks = [(type(x).__name__, x.text if isinstance(x, Label) else x.code)
             for x in shu.content if isinstance(x, (Label, LabelGaiji))]
    assert marks == [("Label", "注肴"), ("LabelGaiji", "KR0155"), ("Label", "至"), ("LabelGaiji", "KR0002"),
                     ("Label", "豚")]
