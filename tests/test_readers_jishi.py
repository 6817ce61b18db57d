"""The two 集释 readers on real excerpts and on the whole corpus files."""

from __future__ import annotations

import re

import pytest

from jiaokan.model import LineBreak, Note, PageBreak, WitnessMeta
from jiaokan.readers import ReaderError, read_witness
from jiaokan.readers.common.base import columns, load_source
from jiaokan.readers.formats.jishi_flat import JishiFlatReader
from jiaokan.readers.formats.jishi_pages import JishiPagesReader

from .conftest import corpus_file, kanripo_file

JS10 = "jishi-juan10-dasheyi-simplified"
JS5 = "jishi-juan05-xiangsheli-traditional"


def read_text(reader, text: str, name: str = "excerpt.txt", **meta):
    src = load_source(name, text.encode("utf-8"))
    return reader.read(src, WitnessMeta(siglum="JS", file=name, format=reader.name, **meta))


# --- 001: the page export ------------------------------------------------------------

PAGE_EXCERPT = """\
卷十 第 1b 页 WYG0103-0192d.png
 郑注告诸公卿于堂上尊之也
司射自西阶上北面告于大夫曰请降司射先降搢扑
反位大夫从之降适次立于三耦之南西面北上
 郑注适次由次前而北西面立
司射东面于大夫之西比耦大夫与大夫(案比今注疏/本讹作北据)
(唐石经及/宋本改正)命上射曰某御于子命下射曰子与某子射
卒遂比众耦
 郑注众耦士也
"""


def test_pages_excerpt_layers_and_joined_note():
    w = read_text(JishiPagesReader(), PAGE_EXCERPT, juan="10")
    units = list(w.units())
    # the first commentary line belongs to a passage on the previous page: kept as 郑注
    assert [p.layer for p in units[0].pieces] == ["zhu"]
    assert units[1].jing.text == "司射自西阶上北面告于大夫曰请降司射先降搢扑反位大夫从之降适次立于三耦之南西面北上"
    assert units[1].layer_text("zhu") == "适次由次前而北西面立"
    # a full 21-column line continues the passage; the note joined across the line break
    jing = units[2].jing
    assert jing.text == "司射东面于大夫之西比耦大夫与大夫命上射曰某御于子命下射曰子与某子射卒遂比众耦"
    (note,) = jing.notes()
    assert note.text == "案比今注疏本讹作北据唐石经及宋本改正"
    assert any(isinstance(x, LineBreak) and x.n == 7 for x in note.content)
    # the page marker became a page break with its image
    pb = units[0].pieces[0].content[0]
    assert isinstance(pb, PageBreak) and (pb.n, pb.facs, pb.juan) == ("1b", "WYG0103-0192d.png", "10")


def test_pages_note_runs_over_a_page_break():
    w = read_text(JishiPagesReader(), corpus_file(JS10).read_text(encoding="utf-8"), juan="10")
    notes = {n.text: n for n in w.notes()}
    key = next(t for t in notes if t.startswith("案则今注疏本讹作即"))
    assert key == "案则今注疏本讹作即据宋本改正"
    assert any(isinstance(x, PageBreak) and x.n == "30a" for x in notes[key].content)


def test_pages_whole_file(read_corpus):
    w = read_corpus(JS10)
    counts = w.layer_counts()
    assert counts["shu"] == 0 and counts["jing"] > 3000 and counts["zhu"] > 3000
    assert len(w.notes()) == 21
    assert all(n.text.startswith("案") for n in w.notes())
    # every passage is 经 followed by its 郑注 (the chapter has no 释曰)
    assert sum(1 for _ in w.passages()) == 161
    # site header kept as front-matter paratext, not dropped
    front = w.divs[0]
    assert front.type == "front" and front.units[0].pieces[0].text == "书名或作者"
    # the lines the export lost are reported, with their line numbers
    empties = [x.line for x in w.warnings if x.code == "empty-line"]
    assert 85 in empties and len(empties) == 9


def test_pages_page_breaks_count(read_corpus):
    w = read_corpus(JS10)
    pbs = [x for p in w.pieces() for x in _walk(p.content) if isinstance(x, PageBreak)]
    src = corpus_file(JS10).read_text(encoding="utf-8")
    assert len(pbs) == len(re.findall(r"^卷十 第 \w+ 页", src, re.M)) == 65


def _walk(content):
    for x in content:
        yield x
        if isinstance(x, Note):
            yield from _walk(x.content)


# --- 004: the flattened transcription ---------------------------------------------------

FLAT_EXCERPT = """\
及物揖左足履物不方足還視侯中俯正足
鄭注方猶併也志在于射左足至右足還併足則是
立也南面視侯之中乃俯視併正其足
不去旌
鄭注以其不獲
未旅
鄭注旅序也未以次序相酬以將射也旅則禮終也
三耦俟于堂西南面東上
鄭注司正既立司射𨕖弟子之中德行道藝之高者
"""


def test_flat_width_rule_and_lookahead():
    w = read_text(JishiFlatReader(), FLAT_EXCERPT, juan="5")
    got = [(u.jing.text, u.layer_text("zhu")) for u in w.units()]
    assert got == [
        # a full 20-column commentary line continues; a short one ends the piece
        ("及物揖左足履物不方足還視侯中俯正足", "方猶併也志在于射左足至右足還併足則是立也南面視侯之中乃俯視併正其足"),
        ("不去旌", "以其不獲"),
        # 鄭注 ending exactly at full width, then an unmarked line followed by 鄭注: that line is 经
        ("未旅", "旅序也未以次序相酬以將射也旅則禮終也"),
        ("三耦俟于堂西南面東上", "司正既立司射𨕖弟子之中德行道藝之高者"),
    ]


def test_flat_columns_counts_small_text_by_half():
    assert columns("拜辱者(案今注疏本脱者字據宋本補)此為習民以禮樂不主為賓") == 20
    assert columns("主人阼階上當&KR0925;北面再拜賓西階上當&KR0925;北面荅再") == 21
    assert columns("(本補考疏内引注文亦有敢字)不去者") == 9


def test_flat_gaiji_and_preface(read_corpus):
    w = read_corpus(JS5)
    assert w.char_decl == {"KR0925": "楣"}
    mulu = next(p for p in w.pieces() if p.subtype == "mulu")
    assert mulu.layer == "zhu" and mulu.text.startswith("鄭目錄云州長春秋")
    assert mulu.text.endswith("小戴及别錄皆第五")
    assert len(w.notes()) == 25
    assert not [x for x in w.warnings]


def test_flat_agrees_with_kanripo_indentation(read_corpus):
    """004 lost its indentation; the Kanripo raw file of the same 卷 still has it."""
    kr = kanripo_file("KR1d0030_005.txt").read_text(encoding="utf-8").split("\n")
    kr_lines = [re.sub(r"<pb:[^>]*>", "", ln).rstrip("¶") for ln in kr if ln and not ln.startswith(("#", "<pb:"))]
    kr_lines = kr_lines[1:]  # 004 dropped 欽定四庫全書
    w = read_corpus(JS5)
    layer_of_line = {}
    for p in w.pieces():
        for x in _walk(p.content):
            if isinstance(x, LineBreak):
                layer_of_line[x.n] = p.layer
    wrong = [
        n for n, layer in layer_of_line.items()
        if layer != "paratext" and (layer == "jing") != (not kr_lines[n - 1].startswith("\u3000"))
    ]
    assert wrong == []


# --- bad input -----------------------------------------------------------------------------


def test_cut_off_inside_a_note_is_an_error():
    text = "司射東面于大夫之西比耦大夫與大夫(案比今注疏/本訛作"
    with pytest.raises(ReaderError) as exc:
        read_text(JishiFlatReader(), "鄭注衆耦士也\n鄭注衆耦士也\n鄭注x\n" + text)
    assert "cut off" in str(exc.value) and ":4:" in str(exc.value)


def test_unclosed_bracket_at_end_is_kept_with_warning():
    w = read_text(JishiFlatReader(), "鄭注衆耦士也\n鄭注衆耦士也\n鄭注衆耦士也(旁\n")
    assert w.pieces().__next__().text == "衆耦士也"
    last = list(w.pieces())[-1]
    assert last.text.endswith("(旁")
    assert [x.code for x in w.warnings] == ["unclosed-bracket"]


def test_wrong_format_is_refused(tmp_path):
    with pytest.raises(ReaderError, match="does not look like a 'jishi-pages' file"):
        read_witness(corpus_file(JS5), fmt="jishi-pages")
