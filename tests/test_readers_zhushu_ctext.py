"""The 注疏 ctext-export reader (``zhushu-ctext``) on real excerpts and on the whole file."""

from __future__ import annotations

import pytest

from jiaokan.model import Label, LineBreak, WitnessMeta
from jiaokan.readers import ReaderError, read_witness
from jiaokan.readers.common.base import load_source
from jiaokan.readers.common.lossless import check_lossless
from jiaokan.readers.formats.zhushu_ctext import ZhushuCtextReader, glued_heading_start
from jiaokan.tei.validate import layer_errors
from jiaokan.tei.writer import witness_to_tei

from .conftest import corpus_file

ZS = "zhushu-dasheyi-excerpt"


def read_text(text: str, name: str = "excerpt.txt"):
    reader = ZhushuCtextReader()
    src = load_source(name, text.encode("utf-8"))
    w = reader.read(src, WitnessMeta(siglum="ZS", file=name, format=reader.name, juan="7"), check_format=False)
    assert check_lossless(reader, src, w).ok
    return w


def codes(w) -> list[str]:
    return [x.code for x in w.warnings]


# --- excerpts (from the real file, trimmed) ----------------------------------------------

EXCERPT = """\
<!-- { "loadSidebar": true } -->
　　司射命设丰【当饮不胜者射爵】胜者之弟子洗觯升酌散南面坐奠于丰上降反位【弟子其少者也不授者射爵犹罚爵略之　疏曰自此以上其疏见于乡射】众皆继饮射爵如三耦射爵辩乃彻丰与觯【彻除也】
　　右饮不胜者【若饮君则夹爵见前章】
　　司马正西面拜送爵反位【不俟卒爵略贱也此终言之献服不之徒乃反位疏曰服不祭侯而后卒爵】卒错获者适右个荐俎从之【不言服不言获者乡射记曰东方谓之右个疏曰按上注云郑言容二人者欲见服不与徒二人皆得】
　　【献故郑云司马正皆献之】获者皆执其荐庶子执俎从之设于乏少南【少南为复射妨旌也】服不负侯而俟右献服不
　　释获者少西辟荐反位【辟荐少西之者为复射妨司射视算亦辟俎也】右献释获
　　司马降释弓反位
　　右三请射
"""


def test_classic_zhu_and_shu_in_brackets():
    w = read_text(EXCERPT)
    units = list(w.passages())
    assert units[0].jing.text == "司射命设丰"
    assert [(p.layer, p.resp) for p in units[0].pieces] == [("jing", None), ("zhu", "郑玄")]
    u = units[1]
    assert [p.layer for p in u.pieces] == ["jing", "zhu", "shu"]
    assert u.layer_text("zhu") == "弟子其少者也不授者射爵犹罚爵略之"
    shu = u.layer_pieces("shu")[0]
    assert shu.resp == "贾公彦" and shu.text == "自此以上其疏见于乡射"
    # the full-width space and 疏曰 are the label that opens the 疏
    assert [x.text for x in shu.content if isinstance(x, Label)] == ["\u3000疏曰"]


def test_docsify_comment_is_front_matter_and_layout_spaces_are_dropped():
    w = read_text(EXCERPT)
    front = w.divs[0]
    assert front.type == "front"
    (piece,) = front.units[0].pieces
    assert (piece.layer, piece.subtype) == ("paratext", "comment")
    assert not any(p.text.startswith("\u3000") for p in w.pieces())


def test_heading_on_its_own_line_with_its_note():
    w = read_text(EXCERPT)
    unit = next(u for u in w.units() if u.pieces[0].text == "右饮不胜者")
    head, note = unit.pieces
    assert (head.layer, head.subtype, head.cert) == ("paratext", "head", None)
    assert (note.layer, note.subtype, note.text) == ("paratext", "head-note", "若饮君则夹爵见前章")
    unit = next(u for u in w.units() if u.pieces[0].text == "右三请射")
    assert unit.pieces[0].cert is None


def test_unspaced_shu_marker_is_found_and_reported():
    w = read_text(EXCERPT)
    u = next(u for u in w.passages() if u.jing.text.startswith("司马正西面"))
    assert u.layer_text("zhu") == "不俟卒爵略贱也此终言之献服不之徒乃反位"
    assert u.layer_text("shu") == "服不祭侯而后卒爵"
    assert codes(w).count("unspaced-shu") == 2


def test_bracket_split_over_two_paragraphs_continues_the_shu():
    w = read_text(EXCERPT)
    u = next(u for u in w.passages() if u.jing.text.startswith("卒错获者"))
    (shu,) = u.layer_pieces("shu")
    assert shu.text.endswith("欲见服不与徒二人皆得献故郑云司马正皆献之")
    assert any(isinstance(x, LineBreak) and x.n == 5 for x in shu.content)
    assert "split-bracket" in codes(w)
    # the paragraph's classic after the continuation is a new passage
    nxt = next(u for u in w.passages() if u.jing.text.startswith("获者皆执其荐"))
    assert nxt.layer_text("zhu") == "少南为复射妨旌也"


def test_glued_headings_are_split_off_with_low_certainty():
    w = read_text(EXCERPT)
    heads = [p for p in w.pieces() if p.subtype == "head"]
    assert [(p.text, p.cert) for p in heads] == [
        ("右饮不胜者", None), ("右献服不", "low"), ("右献释获", "low"), ("右三请射", None)]
    u = next(u for u in w.passages() if u.jing.text.startswith("服不负侯"))
    assert u.jing.text == "服不负侯而俟"
    assert codes(w).count("glued-heading") == 2
    # a paragraph that ends in plain 经 keeps it
    assert any(u.jing.text == "司马降释弓反位" for u in w.passages())


@pytest.mark.parametrize("run, expected", [
    ("服不负侯而俟右献服不", 6),
    ("右献释获", 0),
    ("卒错获者适右个", None),     # 右个: the right arm of the target
    ("获者荐右东面立饮", None),   # 右 followed by a direction
    ("宾降立于阶西当序北面东上左右", None),  # 左右
    ("胜者先升堂少右", None),     # 少右
    ("右", None),
    ("遂以执弣右手挟弦", None),   # 右手
])
def test_glued_heading_rule(run, expected):
    assert glued_heading_start(run) == expected


def test_a_bracket_with_no_passage_before_it_is_unsure():
    w = read_text("　　右三请射\n　　【请奏乐以为节也】公许\n")
    zhu = next(p for p in w.pieces() if p.layer == "zhu")
    assert zhu.cert == "low" and zhu.text == "请奏乐以为节也"
    assert "bracket-without-passage" in codes(w)


def test_unclosed_and_stray_brackets_are_reported_and_kept():
    w = read_text("　　公许【请奏乐以为节也\n　　始射获而未释获】公降】一等\n")
    (u1, u2) = list(w.passages())
    assert u1.layer_text("zhu") == "请奏乐以为节也始射获而未释获"
    assert u2.jing.text == "公降一等"
    assert {"unclosed-bracket", "stray-bracket"} <= set(codes(w))


def test_not_this_format():
    reader = ZhushuCtextReader()
    src = load_source("x.txt", corpus_file("tushu-juan275-shebu-huikao").read_bytes())
    assert reader.sniff(src) == 0.0


def test_empty_file_is_refused(tmp_path):
    p = tmp_path / "empty.txt"
    p.write_text("\n\n", encoding="utf-8")
    with pytest.raises(ReaderError, match="empty file"):
        read_witness(p, fmt="zhushu-ctext")


# --- the whole file ----------------------------------------------------------------


def test_whole_file(read_corpus):
    w = read_corpus(ZS)
    counts = w.layer_counts()
    assert counts["jing"] > 1000 and counts["zhu"] > 1000 and counts["shu"] > 1000
    assert counts["commentary"] == 0
    heads = [p.text for p in w.pieces() if p.subtype == "head"]
    assert heads == ["右饮不胜者", "右献服不", "右献释获", "右三请射"]
    # every passage: 经, then its 郑注, then (maybe) its 疏, in that order
    for u in w.passages():
        layers = [p.layer for p in u.pieces]
        assert layers[0] == "jing" and layers == sorted(layers, key=["jing", "zhu", "shu"].index), u.id
    # no 经 text contains a 疏 marker or a bracket
    assert not [u.id for u in w.passages() if "疏曰" in u.jing.text or "【" in u.jing.text]
    # the two glyphs of the export's private font are reported, not silently compared,
    # and kept as code-point markers (no reading)
    assert codes(w).count("held-character") == 2
    assert {c for c in w.char_decl if c.startswith("U-")} == {"U-EB8E", "U-E5AB"}


def test_whole_file_lossless_and_valid(read_corpus, profile, tei_all):
    w = read_corpus(ZS)
    rep = check_lossless(ZhushuCtextReader(), load_source(corpus_file(ZS)), w)
    assert rep.ok, rep.context
    tree = witness_to_tei(w)
    assert profile.validate(tree), profile.error_log
    assert tei_all.validate(tree), tei_all.error_log
    assert layer_errors(tree.getroot()) == []


def test_a_short_paragraph_of_jing_starting_with_you_is_not_a_heading():
    w = read_text("　　右还北面【还反也】\n")
    (u,) = list(w.passages())
    assert u.jing.text == "右还北面" and u.layer_text("zhu") == "还反也"
    assert not [p for p in w.pieces() if p.subtype == "head"]
