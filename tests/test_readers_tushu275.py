"""The 图书集成 卷275 block reader (``tushu-blocks``) on real excerpts and on the whole file."""

from __future__ import annotations

import pytest

from jiaokan.model import Label, LineBreak, WitnessMeta
from jiaokan.readers import ReaderError, read_witness
from jiaokan.readers.common.base import load_source
from jiaokan.readers.common.lossless import check_lossless
from jiaokan.readers.formats.tushu_blocks import TushuBlocksReader
from jiaokan.tei.validate import layer_errors
from jiaokan.tei.writer import witness_to_tei

from .conftest import corpus_file

TS275 = "tushu-juan275-shebu-huikao"


def read_text(text: str, name: str = "excerpt.txt"):
    reader = TushuBlocksReader()
    src = load_source(name, text.encode("utf-8"))
    w = reader.read(src, WitnessMeta(siglum="TS", file=name, format=reader.name, juan="275"))
    assert check_lossless(reader, src, w).ok
    return w


def labels(piece) -> str:
    return "".join(x.text for x in piece.content if isinstance(x, Label))


def codes(w) -> list[str]:
    return [x.code for x in w.warnings]


# --- excerpts (lines copied from the real file, trimmed) ------------------------------

HEADER = """\
书名或作者
声明:本站书库内容主要引用自 archive.org
卷二百七十五

钦定古今图书集成经济汇编戎政典

 第二百七十五卷目录

 射部汇考一
  周礼〈天官 地官 夏官 考工记〉

戎政典第二百七十五卷

射部汇考一

"""

ZHOULI = HEADER + """\
《周礼》《天官》

司裘王大射,则共虎侯,熊侯,豹侯,设其鹄,诸侯则共熊侯,豹侯,卿大夫则共麋侯,皆设其鹄。
〈订义〉史氏曰:射有三,曰宾射,曰大射,曰燕射。故射义曰:射中者,得与于祭。 郑康成曰:诸侯谓三公及王子弟封于畿内者。 王之大射,虎侯,王所自射。

《地官》

乡大夫之职,以乡射之礼五物询众庶。
贾氏曰:谓献贤能之书于王,退来乡内。 郑康成曰:以用也行乡射之礼。孔子射于矍相之圃,盖
观者如堵墙。射至于司马。 郑司农曰:询,谋也。

《夏官》

其挚,三公执璧,孤执皮帛,卿执羔,大夫雁。
王昭禹曰:三公,事道也。王之所承,有弗敢臣也。
诸侯在朝,则皆北面,诏相其法。郑康成曰:谓诸侯来朝而未归,王与之射于朝者。 贾氏曰:法谓在朝进退周旋拱揖之仪。

上纲与下纲出舌寻,縜寸焉。
郑司农曰:纲,连侯绳也。縜,笼纲者。赵氏曰:縜是圈子。 王氏详说曰:梓人曰:张皮侯而栖鹄,则大射之侯也。

《礼记》《少仪》

侍射则约矢,侍投则拥矢,胜则洗而以请,客亦如之,不角,不擢马。
贾氏曰:不在订义之中。
"""


def test_front_matter_and_chapter_heads():
    w = read_text(ZHOULI)
    front, chapter = w.divs[0], w.divs[1]
    assert front.type == "front"
    kinds = [p.subtype for u in front.units for p in u.pieces]
    assert kinds == ["site", "title", "toc", "toc"]
    # the table of contents keeps its 〈…〉 lists as text, not as commentary tags
    assert "〈天官 地官 夏官 考工记〉" in front.units[3].pieces[0].text
    assert chapter.type == "chapter"
    assert [u.pieces[0].text for u in chapter.units] == ["戎政典第二百七十五卷", "射部汇考一"]
    assert all(u.pieces[0].subtype == "head" for u in chapter.units)


def test_section_titles_become_section_divs_with_heads():
    w = read_text(ZHOULI)
    sections = [d for d in w.divs if d.type == "section"]
    assert [d.title for d in sections] == ["周礼·天官", "周礼·地官", "周礼·夏官", "礼记·少仪"]
    for d in sections:
        head = d.units[0].pieces[0]
        assert head.layer == "paratext" and head.subtype == "head" and head.text.startswith("《")


def test_dingyi_named_quotations_are_separate_pieces_with_their_authors():
    w = read_text(ZHOULI)
    unit = next(u for u in w.passages() if u.jing.text.startswith("司裘"))
    pieces = unit.pieces[1:]
    assert [(p.layer, p.resp, p.subtype) for p in pieces] == [
        ("commentary", "史氏", "dingyi"),
        ("zhu", "郑玄", "dingyi"),
    ]
    # the 〈订义〉 tag and the quoted author's name are both kept as labels
    assert labels(pieces[0]) == "〈订义〉史氏曰:"
    # a quotation inside a quotation (故射义曰) stays with its speaker
    assert "故射义曰:射中者" in pieces[0].text
    # a space with no name after it is not a new speaker
    assert pieces[1].text.endswith("王之大射,虎侯,王所自射。")
    assert "unknown-commentator" in codes(w)


def test_several_commentators_on_one_line_and_a_wrapped_line():
    w = read_text(ZHOULI)
    unit = next(u for u in w.passages() if u.jing.text.startswith("乡大夫"))
    pieces = unit.pieces[1:]
    assert [(p.layer, p.resp) for p in pieces] == [("shu", "贾公彦"), ("zhu", "郑玄"), ("commentary", "郑众")]
    # the 订义 context carries on through the chapter titles of the same book
    assert {p.subtype for p in pieces} == {"dingyi"}
    # the line cut after 盖 continues on the next line, in the same piece, with the line break kept
    zheng = pieces[1]
    assert "孔子射于矍相之圃,盖观者如堵墙。射至于司马。" in zheng.text
    assert any(isinstance(x, LineBreak) for x in zheng.content[1:])


def test_classic_glued_to_its_commentary_is_split():
    w = read_text(ZHOULI)
    unit = next(u for u in w.passages() if u.jing.text.startswith("诸侯在朝"))
    assert unit.jing.text == "诸侯在朝,则皆北面,诏相其法。"
    assert [(p.layer, p.resp) for p in unit.pieces[1:]] == [("zhu", "郑玄"), ("shu", "贾公彦")]
    assert {"missing-blank-line", "classic-split"} <= set(codes(w))
    # the comment before it stays 王昭禹's, untouched
    prev = next(u for u in w.passages() if u.jing.text.startswith("其挚"))
    assert [p.resp for p in prev.pieces[1:]] == ["王昭禹"]


def test_unspaced_names_split_only_when_they_are_commentators():
    w = read_text(ZHOULI)
    unit = next(u for u in w.passages() if u.jing.text.startswith("上纲"))
    resps = [p.resp for p in unit.pieces[1:]]
    assert resps == ["郑众", "赵氏", "王氏详说"]
    # 梓人曰 (a chapter of the 考工记 quoted in passing) is not a speaker
    assert unit.pieces[-1].text.startswith("梓人曰:张皮侯")
    assert "unspaced-commentator" in codes(w)


def test_new_book_ends_the_dingyi_context():
    w = read_text(ZHOULI)
    unit = next(u for u in w.passages() if u.jing.text.startswith("侍射"))
    (jia,) = unit.pieces[1:]
    assert (jia.resp, jia.subtype) == ("贾公彦", None)


LIJI = HEADER + """\
《礼记》《射义》〈正义〉

《郑目录》云:名曰射义者,以其记,燕射、大射之礼,观德行,取于士之义。

古者诸侯之射也。必先行燕礼,故燕礼者,所以明君臣之义也。
〈注〉言别尊卑老稚,然后射,以观德行也。〈正义〉所以明君臣之义也者,谓臣于堂下。〈陈注〉诸侯之射,大射也。

故射者,进退周还必中礼,此可以观德行矣。
〈陈注〉吕氏曰:礼射者,必先比耦。其进也当阶。 其馀则皆可与
之进也。

射者,仁之道也。反求诸己而已矣。孔子曰:君子无所争。
〈陈注〉孔子曰:射之以乐也。
此行无标记。
"""


def test_tagged_title_governs_the_next_block():
    w = read_text(LIJI)
    sec = next(d for d in w.divs if d.type == "section")
    head, preface = sec.units[0].pieces[0], sec.units[1].pieces[0]
    assert head.text == "《礼记》《射义》" and head.subtype == "head"
    assert (preface.layer, preface.resp) == ("shu", "孔颖达")
    assert labels(preface) == "〈正义〉" and preface.text.startswith("《郑目录》云")
    assert sec.units[1].jing is None


def test_mid_line_tags_open_pieces():
    w = read_text(LIJI)
    unit = next(u for u in w.passages() if u.jing.text.startswith("古者"))
    assert [(p.layer, p.resp, labels(p)) for p in unit.pieces[1:]] == [
        ("zhu", "郑玄", "〈注〉"),
        ("shu", "孔颖达", "〈正义〉"),
        ("commentary", "陈澔", "〈陈注〉"),
    ]


def test_tagged_commentary_keeps_its_quotations_and_wrapped_lines():
    w = read_text(LIJI)
    unit = next(u for u in w.passages() if u.jing.text.startswith("故射者"))
    (chen,) = unit.pieces[1:]
    assert chen.resp == "陈澔"
    assert chen.text.startswith("吕氏曰:礼射者") and chen.text.endswith("其馀则皆可与之进也。")


def test_classic_quoting_confucius_is_not_split_and_unmarked_lines_are_low_certainty():
    w = read_text(LIJI)
    unit = next(u for u in w.passages() if u.jing.text.startswith("射者,仁之道"))
    assert unit.jing.text.endswith("孔子曰:君子无所争。")
    chen, stray = unit.pieces[1:]
    assert chen.resp == "陈澔" and chen.text == "孔子曰:射之以乐也。"
    assert (stray.layer, stray.resp, stray.cert) == ("commentary", "陈澔", "low")
    assert any(x.code == "unmarked-line" and x.line == LIJI.count("\n", 0, LIJI.index("此行无标记")) + 1
               for x in w.warnings)


def test_not_this_format():
    reader = TushuBlocksReader()
    src = load_source("x.txt", "司射命设丰【当饮不胜者射爵】\n".encode("utf-8"))
    assert reader.sniff(src) == 0.0
    with pytest.raises(ReaderError, match="does not look like a 'tushu-blocks' file"):
        reader.read(src, WitnessMeta(siglum="TS", file="x.txt", format=reader.name))


def test_tags_without_any_section_title_is_a_clear_error():
    reader = TushuBlocksReader()
    text = "射者,仁之道也。\n〈陈注〉射之以乐也。\n\n射者。\n〈朱注〉射。\n"
    src = load_source("x.txt", text.encode("utf-8"))
    with pytest.raises(ReaderError, match="no section title"):
        reader.read(src, WitnessMeta(siglum="TS", file="x.txt", format=reader.name), check_format=False)


def test_gbk_file_is_refused(tmp_path):
    p = tmp_path / "gbk.txt"
    p.write_bytes(ZHOULI.encode("gb18030"))
    with pytest.raises(ReaderError, match="GBK"):
        read_witness(p, fmt="tushu-blocks")


# --- the whole file ----------------------------------------------------------------


def test_whole_file(read_corpus):
    w = read_corpus(TS275)
    counts = w.layer_counts()
    assert counts["jing"] > 2000 and counts["commentary"] > 6000
    assert counts["zhu"] > 0 and counts["shu"] > 0
    sections = [d.title for d in w.divs if d.type == "section"]
    assert sections[0] == "诗经·小雅宾之初筵" and sections[-1] == "周礼·考工记"
    assert len(sections) == 8
    # every passage has its commentary; every named piece has a responsible person
    for u in w.passages():
        assert len(u.pieces) >= 2, u.id
        assert all(p.resp for p in u.pieces if p.layer != "jing"), u.id
    # the one classic glued to its commentary is split, and is the only split
    assert [x.code for x in w.warnings].count("classic-split") == 1
    # no piece is left unsure in the real file
    assert not [p.id for p in w.pieces() if p.cert == "low"]
    resps = {p.resp for p in w.pieces()}
    assert {"朱熹", "陈澔", "孔颖达", "郑玄", "郑众", "贾公彦", "易祓", "郑锷", "王昭禹"} <= resps


def test_whole_file_lossless_and_valid(read_corpus, profile, tei_all):
    w = read_corpus(TS275)
    rep = check_lossless(TushuBlocksReader(), load_source(corpus_file(TS275)), w)
    assert rep.ok, rep.context
    tree = witness_to_tei(w)
    assert profile.validate(tree), profile.error_log
    assert tei_all.validate(tree), tei_all.error_log
    assert layer_errors(tree.getroot()) == []


@pytest.mark.parametrize("tail", ["\n\n《射义》〈正义〉\n", "\n\n《射义》〈正义〉\n\n《射义》\n"])
def test_a_title_tag_that_governs_no_block_is_kept(tail):
    """A title's tag (〈正义〉) waits for the block it governs; at the end of the file, or before
    another title, there is none, and its characters must still be kept (found by the
    mutation property test on a shuffled copy of the real file)."""
    text = corpus_file("tushu-juan275-shebu-huikao").read_text(encoding="utf-8").split("\n\n")
    src_text = "\n\n".join(text[:12]).rstrip("\n") + tail
    w = read_text(src_text)  # (read_text asserts losslessness)
    assert "tag-without-block" in codes(w)
    assert "lost-text" not in codes(w)


def test_a_reader_that_loses_text_says_so(monkeypatch):
    """The safety net under every read: a reader that drops characters gets a lost-text warning."""
    reader = TushuBlocksReader()
    parse = reader.parse

    def lossy(src, meta):
        w = parse(src, meta)
        next(p for p in w.pieces() if p.layer == "jing").content[:] = []
        return w

    monkeypatch.setattr(reader, "parse", lossy)
    text = corpus_file("tushu-juan275-shebu-huikao").read_text(encoding="utf-8")
    w = reader.read(load_source("x.txt", text.encode("utf-8")), WitnessMeta(siglum="TS", file="x.txt", format=reader.name))
    lost = [x for x in w.warnings if x.code == "lost-text"]
    assert len(lost) == 1 and lost[0].line > 1 and "please report it" in lost[0].message
