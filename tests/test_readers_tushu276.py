"""The 图书集成 卷276 Wikisource reader (``tushu-wikisource``): real file and small real excerpts.

The excerpts are lines of ``corpus/tushu-juan276-xiangsheli.txt`` itself (with
their blank lines), so each ugly case is tested as the export has it.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest
from lxml import etree

from .conftest import corpus_file, kanripo_file
from jiaokan.model import Label, LineBreak, Text, WitnessMeta
from jiaokan.readers import READERS, ReaderError, read_witness, sniff
from jiaokan.readers.common.base import han_chars, load_source
from jiaokan.readers.common.lossless import check_lossless
from jiaokan.readers.formats.tushu_wikisource import (
    COMM,
    JING,
    Para,
    UNSURE_MARGIN,
    TushuWikisourceReader,
    commentary_score,
    label_run,
)

STEM = "tushu-juan276-xiangsheli"
READER = TushuWikisourceReader()

HEADER = """钦定古今图书集成/经济汇编/戎政典/第276卷

经济汇编 戎政典 第二百七十五卷 钦定古今图书集成
经济汇编 第二百七十六卷
经济汇编 戎政典 第二百七十七卷


考证
钦定古今图书集成经济汇编戎政典

 第二百七十六卷目录

 射部汇考二

  仪礼一乡射礼

戎政典第二百七十六卷

射部汇考二

编辑

《仪礼一》

编辑

《乡射礼》

编辑

"""

FOOTER = """
本作品在全世界都属于公有领域,因为作者逝世已经超过100年,并且于1929年1月1日之前出版。

Public domainPublic domainfalsefalse

本作品原文没有标点。标点是人工智能程序古诗文断句 v2.1创建,并且经由维基文库用户编辑改善的。本站用户之编辑以知识共享 署名-相同方式共享 4.0协议(CC BY-SA 4.0)发布。
"""


def meta(name: str = "x.txt") -> WitnessMeta:
    return WitnessMeta(siglum="TS", file=name, format="tushu-wikisource", juan="276", chapter="乡射礼")


def read_text(tmp_path: Path, body: str, *, header: str = HEADER, footer: str = FOOTER):
    p = tmp_path / "ts.txt"
    p.write_text(header + body + footer, encoding="utf-8")
    return read_witness(p, meta(str(p)), "tushu-wikisource")


def jing_texts(w) -> list[str]:
    return [p.text for p in w.pieces() if p.layer == "jing"]


def piece_with(w, layer: str, start: str):
    found = [p for p in w.pieces() if p.layer == layer and p.text.startswith(start)]
    assert len(found) == 1, f"{layer} piece starting {start!r}: {len(found)} found"
    return found[0]


def unit_of(w, piece):
    return next(u for u in w.units() if any(p is piece for p in u.pieces))


def line_breaks(piece) -> list[int]:
    return [n.n for n in piece.content if isinstance(n, LineBreak)]


@pytest.fixture(scope="module")
def real():
    """The real file, read through the registry with its manifest metadata."""
    from jiaokan.corpus import load_manifest

    entry = next(e for e in load_manifest(corpus_file(STEM).parent) if e.stem == STEM)
    return read_witness(entry.path, entry.meta, entry.meta.format)


# ---------------------------------------------------------------- format


def test_sniff_picks_this_reader_for_the_real_file_only():
    src = load_source(corpus_file(STEM))
    assert READER.sniff(src) >= 0.9
    assert sniff(src) is READERS["tushu-wikisource"]
    other = load_source("x.txt", "书名或作者\n正文关键词\n钦定古今图书集成经济汇编戎政典\n 第二百七十五卷目录\n".encode())
    assert READER.sniff(other) == 0.0


def test_wrong_format_is_a_one_line_error(tmp_path):
    p = tmp_path / "jishi.txt"
    p.write_text("大射仪\n鄭注目錄云諸侯將有祭祀之事\n鄭注大射者\n鄭注其禮\n", encoding="utf-8")
    with pytest.raises(ReaderError, match="does not look like a 'tushu-wikisource' file"):
        read_witness(p, meta(str(p)), "tushu-wikisource")


@pytest.mark.parametrize("data, message", [
    (b"", "empty file"),
    ("钦定古今图书集成/经济汇编/戎政典/第276卷\n释曰:".encode("gbk"), "not valid UTF-8"),
])
def test_bad_bytes(tmp_path, data, message):
    p = tmp_path / "bad.txt"
    p.write_bytes(data)
    with pytest.raises(ReaderError, match=message):
        read_witness(p, meta(str(p)), "tushu-wikisource")


def test_header_and_footer_without_text_is_an_error(tmp_path):
    with pytest.raises(ReaderError, match="no text paragraphs"):
        read_text(tmp_path, "")


# ---------------------------------------------------------------- structure


def test_site_header_toc_headings_and_licence_are_paratext(real):
    front, chapter, back = real.divs
    assert (front.type, chapter.type, back.type) == ("front", "chapter", "back")
    assert all(p.layer == "paratext" for u in front.units + back.units for p in u.pieces)
    kinds = [p.subtype for u in front.units for p in u.pieces]
    assert kinds[0] == "site" and "kaozheng-link" in kinds and "title" in kinds
    assert kinds.count("heading") == 2 and kinds.count("edit-link") == 2
    assert chapter.title == "乡射礼" and chapter.n == "276"
    head = chapter.units[0].pieces
    assert [(p.subtype, p.text) for p in head] == [("head", "《乡射礼》"), ("edit-link", "编辑")]
    assert {p.subtype for u in back.units for p in u.pieces} == {"licence"}
    assert "公有领域" in back.units[0].pieces[0].text


def test_header_kaozheng_split_joins_the_toc_title(real):
    """The fourth 考证 split: in the header, it cuts the table of contents' title in two."""
    toc = next(p for p in real.pieces() if p.text.startswith("钦定古今图书集成经济汇编戎政典"))
    assert toc.layer == "paratext" and toc.subtype == "toc"
    assert toc.text == "钦定古今图书集成经济汇编戎政典第二百七十六卷目录"
    assert line_breaks(toc) == [9, 11]


def test_zheng_mulu_is_zhengxuans_preface(real):
    mulu = piece_with(real, "zhu", "《郑目录》云")
    assert mulu.subtype == "mulu" and mulu.resp == "郑玄"
    assert unit_of(real, mulu).jing is None
    assert jing_texts(real)[0] == "《乡射》之礼, 主人戒宾,宾出迎,再拜,主人答“再拜”,乃 请。"


def test_punctuation_and_stray_spaces_are_kept(real):
    assert "尊于宾席之东,“两壶斯禁,左元酒,皆加勺,篚在其南, 东肆。”" in jing_texts(real)
    assert "《未:旅》。" in jing_texts(real)


def test_passage_and_commentary_alternate_in_units(real):
    first = piece_with(real, "jing", "宾礼辞许")
    unit = unit_of(real, first)
    assert [p.layer for p in unit.pieces] == ["jing", "zhu", "shu"]
    assert unit.pieces[1].text == "退还射宫,省录射事。"
    assert unit.pieces[1].resp == "郑玄" and unit.pieces[2].resp == "贾公彦"


# ---------------------------------------------------------------- 释曰 and 疏


def test_shu_starts_at_shiyue_and_keeps_it_as_text(real):
    shu = piece_with(real, "shu", "释曰:“射宫”者")
    assert isinstance(shu.content[0], Text) and not any(isinstance(n, Label) for n in shu.content)
    assert shu.loc.line == 39


def test_shiyue_broken_by_ai_brackets_still_opens_the_shu(real):
    shu = piece_with(real, "shu", "《释》曰:言“如初”")
    zhu = unit_of(real, shu).pieces[-2]
    assert zhu.layer == "zhu" and zhu.text == "酢报。"


def test_paragraph_opening_with_shiyue_is_all_shu_and_attaches_to_its_passage(real):
    shu = piece_with(real, "shu", "释曰:此还据堂上三人有席者")
    unit = unit_of(real, shu)
    assert [p.layer for p in unit.pieces] == ["jing", "shu"]
    assert unit.jing.text == "每一人献,则荐诸其席。"


def test_no_shu_is_labelled_jing(real):
    assert not any(re.search("释[》\\s]*曰", p.text) for p in real.pieces() if p.layer in ("jing", "zhu"))
    source = load_source(corpus_file(STEM)).text
    shu = "".join(p.text for p in real.pieces() if p.layer == "shu")
    assert len(re.findall("释[》\\s]*曰", shu)) == len(re.findall("释[》\\s]*曰", source)) > 30


# ---------------------------------------------------------------- the 考证 splits


@pytest.mark.parametrize("fragment, whole, before", [
    ("宾西阶上北面答拜;主人坐祭", "宾西阶上北面答拜;主人坐祭,遂饮,卒觯,兴;坐奠觯,遂拜,执觯兴。宾西阶上北面答拜;主人降洗,宾降辞 如献礼。", "酬劝酒"),
    ("司射适堂西,袒决遂,取弓于阶西,兼挟", "司射适堂西,袒决遂,取弓于阶西,兼挟乘矢,升自西阶。阶上北面告于宾,曰:“弓矢既具,有司请射。”", "司正既立"),
    ("与升饮者相左", "与升饮者相左,交于阶前,相揖,出于《司马》之南,遂适堂西,释弓,袭而俟。", "后升先降"),
])
def test_kaozheng_fragment_continues_into_the_next_paragraph(real, fragment, whole, before):
    jing = piece_with(real, "jing", fragment)
    assert jing.text == whole
    first, second = line_breaks(jing)
    assert second == first + 2  # fragment line, blank line, continuation
    # the 考证 link is paratext at the end of the unit before, after its 注
    prev_unit = real.divs[1].units[real.divs[1].units.index(unit_of(real, jing)) - 1]
    assert [p.layer for p in prev_unit.pieces][-2:] == ["zhu", "paratext"]
    assert prev_unit.pieces[-2].text.startswith(before)
    assert prev_unit.pieces[-1].subtype == "kaozheng-link" and prev_unit.pieces[-1].text == "考证"
    assert jing.cert is None


def test_kaozheng_fragment_ending_a_sentence_stands_alone(tmp_path):
    w = read_text(tmp_path, "主人揖降。\n\n主人将与众宾为礼,宾谦,不敢独居堂。\n\n考证\n"
                  "主人西南面三拜众宾,众宾皆答“一拜。”\n\n三拜,示遍也。壹拜,不备礼也。\n")
    assert jing_texts(w) == ["主人揖降。", "主人西南面三拜众宾,众宾皆答“一拜。”"]
    assert [x.code for x in w.warnings] == ["kaozheng-fragment"]


def test_kaozheng_at_the_end_of_the_text_is_reported(tmp_path):
    w = read_text(tmp_path, "主人揖降。\n\n主人将与众宾为礼,宾谦,不敢独居堂。\n\n考证\n主人西南面三拜众宾,\n")
    assert "kaozheng-fragment" in [x.code for x in w.warnings]
    assert jing_texts(w)[-1] == "主人西南面三拜众宾,"


def test_you_section_heading_is_paratext_and_restarts_alternation(tmp_path):
    w = read_text(tmp_path, "主人朝服,乃速宾,宾朝服出迎,再拜。主人答“再拜。”退, 宾送再拜。\n\n"
                  "速,召也。射宾,轻也。\n\n右速宾\n\n宾及众宾遂从之。\n\n相主人家臣摈赞传命者。\n")
    section = piece_with(w, "paratext", "右速宾")
    assert section.subtype == "section"
    assert jing_texts(w) == ["主人朝服,乃速宾,宾朝服出迎,再拜。主人答“再拜。”退, 宾送再拜。", "宾及众宾遂从之。"]
    assert not w.warnings


# ---------------------------------------------------------------- alternation and doubt


def test_split_jing_is_one_passage_marked_unsure(real):
    jing = piece_with(real, "jing", "遂告于大夫")
    assert jing.text.endswith("告于大夫曰:“某御于子。”")
    assert jing.cert == "low"
    codes = {(x.line, x.code) for x in real.warnings}
    assert {(679, "layer-unsure"), (681, "layer-unsure"), (681, "alternation-break")} <= codes


def test_split_commentary_stays_commentary(real):
    zhu = piece_with(real, "zhu", "“矢不北面”")
    unit = unit_of(real, zhu)
    assert unit.jing.text == "及楅,揖,拾取矢,知三耦。"
    assert [p.layer for p in unit.pieces] == ["jing", "zhu", "zhu"]
    assert (980, "alternation-break") in {(x.line, x.code) for x in real.warnings}


def test_wei_lü_noise_brackets_do_not_make_commentary(real):
    jing = piece_with(real, "jing", "《未:旅》")
    zhu = unit_of(real, jing).pieces[1]
    assert zhu.layer == "zhu" and zhu.text.startswith("旅,序也。")


def test_every_low_piece_has_a_warning_and_counts(real):
    low = [p for p in real.pieces() if p.cert == "low"]
    warned = {x.line for x in real.warnings if x.code == "layer-unsure"}
    assert low and all(p.loc.line in warned for p in low)
    assert sorted({x.code for x in real.warnings}) == ["alternation-break", "layer-unsure"]
    assert len(real.warnings) == 4


def test_layer_counts_and_passages(real):
    counts = real.layer_counts()
    assert counts["jing"] > 6000 and counts["zhu"] > 5000 and counts["shu"] > 1000
    assert counts["an"] == counts["kaozheng"] == 0
    assert sum(1 for _ in real.passages()) == 255


def test_score_reads_characters_not_punctuation():
    gloss = "“乃降”,将更盥也。古文壹皆作“一。”"
    rite = "主人坐取爵,兴,适洗,南面坐奠爵于篚下,盥洗。"
    assert commentary_score(gloss) > 0 > commentary_score(rite)
    assert commentary_score(re.sub(r"[^\u4e00-\u9fff]", "", gloss)) == commentary_score(gloss)
    assert commentary_score("《未:旅》。") == commentary_score("未旅")


def test_viterbi_lets_strong_cues_break_alternation():
    """A 经 whose 注 is missing, followed by another 经: both stay 经, and the 注 after stays 注."""
    texts = ["主人以宾揖,先入。", "“以”犹“与”也。先入,入门右,西面。",
             "主人坐取爵,兴,适洗,南面坐奠爵于篚下,盥洗。",
             "主人卒洗,壹揖壹让,以宾升,宾西阶上北面拜洗,主 人阼阶上北面奠爵,遂答拜,乃降。",
             "“乃降”,将更盥也。古文壹皆作“一。”"]
    paras = [Para([(i, t)], "text") for i, t in enumerate(texts)]
    label_run(paras)
    assert [p.label for p in paras] == [JING, COMM, JING, JING, COMM]
    assert min(p.margin for p in paras) >= UNSURE_MARGIN


def test_viterbi_keeps_alternation_where_cues_are_weak():
    """A 注 with no telltale words between two 经 stays 注, but only just: it is flagged."""
    texts = ["宾对。", "对答:", "主人坐取爵,兴,适洗,南面坐奠爵于篚下,盥洗。"]
    paras = [Para([(i, t)], "text") for i, t in enumerate(texts)]
    label_run(paras)
    assert [p.label for p in paras] == [JING, COMM, JING]
    assert paras[1].margin < UNSURE_MARGIN + 3


# ---------------------------------------------------------------- other 卷: traditional script


def test_traditional_script_export_reads_the_same(tmp_path):
    import opencc

    s2t = opencc.OpenCC("s2t")
    lines = load_source(corpus_file(STEM)).lines
    excerpt = "\n".join(lines[:300]) + "\n" + "\n".join(lines[1064:])
    p = tmp_path / "trad.txt"
    p.write_text(s2t.convert(excerpt), encoding="utf-8")
    w = read_witness(p, meta(str(p)))  # sniffed
    assert w.meta.format == "tushu-wikisource"
    simp = read_text(tmp_path, "\n".join(lines[30:300]) + "\n", footer="\n" + "\n".join(lines[1064:]))
    assert [p.layer for p in w.pieces()] == [p.layer for p in simp.pieces()]
    assert any(p.layer == "shu" and p.text.startswith("釋曰") for p in w.pieces())


# ---------------------------------------------------------------- losslessness, TEI, reference


def test_lossless(real):
    src = load_source(corpus_file(STEM))
    rep = check_lossless(READER, src, real)
    assert rep.ok, rep.context


def test_tei_validates_and_round_trips(real, tmp_path, profile, tei_all):
    from jiaokan.tei.reader import read_tei
    from jiaokan.tei.writer import write_tei

    path = write_tei(real, tmp_path / "ts.xml")
    doc = etree.parse(str(path))
    assert profile.validate(doc), profile.error_log
    assert tei_all.validate(doc), tei_all.error_log
    back = read_tei(path)
    for layer in ("jing", "zhu", "shu", "paratext"):
        assert [p.text for p in back.pieces() if p.layer == layer] == [p.text for p in real.pieces() if p.layer == layer]
    assert [p.cert for p in back.pieces()] == [p.cert for p in real.pieces()]


def test_layers_agree_with_the_sibu_congkan_reference(real):
    """经 vs commentary, character by character, against the 四部丛刊 乡射礼 (经 running, 郑注 in brackets).

    The reader never sees the reference; this checks its decisions.
    """
    import opencc

    t2s = opencc.OpenCC("t2s")
    ref: list[tuple[str, str]] = []
    layer = "jing"
    for line in kanripo_file("KR1d0026_005.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("<pb"):
            continue
        for ch in t2s.convert(re.sub(r"<[^>]*>", "", line)):
            if ch == "(":
                layer = "zhu"
            elif ch == ")":
                layer = "jing"
            elif han_chars(ch):
                ref.append((ch, "jing" if layer == "jing" else "comm"))
    mine = [(ch, "jing" if p.layer == "jing" else "comm")
            for p in real.pieces() if p.layer != "paratext" for ch in han_chars(p.text)]
    sm = difflib.SequenceMatcher(None, [c for c, _ in mine], [c for c, _ in ref], autojunk=False)
    agree = total = 0
    for blk in sm.get_matching_blocks():
        if blk.size < 2:
            continue
        for k in range(blk.size):
            total += 1
            agree += mine[blk.a + k][1] == ref[blk.b + k][1]
    assert total > 7000
    assert agree / total >= 0.99
