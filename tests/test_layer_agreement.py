"""jiaokan.measure.layer_agreement (scripts/layer_agreement.py): the measure behaves (not the figures, which depend on the readers)."""

from __future__ import annotations

import copy

import pytest

from jiaokan.measure import layer_agreement
from jiaokan.model import ReaderWarning, WitnessMeta
from jiaokan.normalize import keys
from jiaokan.readers.common.base import load_source
from jiaokan.readers.formats.zhushu_ctext import ZhushuCtextReader

from .conftest import KANRIPO, corpus_file

ZS = "zhushu-dasheyi-excerpt"


#: The standard pairs of scripts/layer_agreement.py.
STANDARD_PAIRS = [(corpus_file(stem), KANRIPO / ref) for stem, ref in (
    ("tushu-juan276-xiangsheli", "KR1d0026_005.txt"), ("jishi-juan05-xiangsheli-traditional", "KR1d0026_005.txt"),
    ("jishi-juan10-dasheyi-simplified", "KR1d0026_007.txt"), ("zhushu-dasheyi-excerpt", "KR1d0026_007.txt"),
)] + [(KANRIPO / w, KANRIPO / r) for w, r in (
    ("KR1d0028_005.txt", "KR1d0026_005.txt"), ("KR1d0028_007.txt", "KR1d0026_007.txt"),
    ("KR1d0030_005.txt", "KR1d0026_005.txt"), ("KR1d0030_010.txt", "KR1d0026_007.txt"),
)]


@pytest.fixture(scope="module")
def la():
    return layer_agreement


def zs(text: str):
    reader = ZhushuCtextReader()
    src = load_source("t.txt", text.encode("utf-8"))
    return reader.read(src, WitnessMeta(siglum="ZS", file="t.txt", format=reader.name), check_format=False)


def flipped(w, old: str, new: str):
    """A copy of ``w`` with every ``old`` piece relabelled ``new``."""
    w = copy.deepcopy(w)
    for p in w.pieces():
        if p.layer == old:
            p.layer = new
    return w


def test_a_witness_against_itself_agrees_fully(la, read_corpus):
    w = read_corpus(ZS)
    res = la.measure(w, w)
    assert res.aligned > 3000
    assert res.share == 1.0
    assert (res.jing_as_comm, res.comm_as_jing, res.para, res.shu_as_jing) == (0, 0, 0, 0)
    assert res.coverage == 1.0


def test_a_flipped_layer_scores_lower_and_is_shown(la, read_corpus):
    w = read_corpus(ZS)
    bad = flipped(w, "zhu", "jing")
    res = la.measure(bad, w)
    zhu_keys = sum(1 for c in la.stream(w).classes if c == la.COMM) - sum(
        1 for p in w.pieces() if p.layer == "shu" for _ in keys(p.text))
    assert res.share < 0.8
    assert res.jing_as_comm == zhu_keys and res.comm_as_jing == 0
    kinds = {ex.kind for ex in res.examples}
    assert kinds == {"经→注"}
    assert all(ex.witness_unit.startswith("ZS") for ex in res.examples)
    # and the other way round: the reference's 经 read as commentary
    res = la.measure(flipped(w, "jing", "zhu"), w)
    assert res.comm_as_jing > 1000 and res.jing_as_comm == 0


def test_shu_labelled_jing_is_counted_from_what_the_reference_lacks(la, read_corpus):
    w = read_corpus(ZS)
    ref = copy.deepcopy(w)
    for u in ref.units():  # a reference with 经 and 注 only, like the 四部丛刊
        u.pieces = [p for p in u.pieces if p.layer != "shu"]
    assert la.measure(w, ref).shu_as_jing == 0
    res = la.measure(flipped(w, "shu", "jing"), ref)
    assert res.shu_as_jing > 1000
    assert res.share > 0.99  # the 疏 never aligns: it does not lower the share, it is counted apart
    assert any(ex.kind == "疏 as 经" for ex in res.examples)


LINES = [
    "　　甲乙丙丁戊己庚辛【注一二三四】",
    "　　天地玄黄宇宙洪荒日月盈昃【注五六七八】",
    "　　辰宿列张寒来暑往秋收冬藏【注九十】",
]


def test_text_lost_in_a_reference_lacuna_is_not_counted_as_shu(la):
    wit = zs("\n".join(LINES) + "\n")
    ref = zs("\n".join([LINES[0], LINES[2]]) + "\n")
    res = la.measure(wit, ref)
    assert (res.shu_as_jing, res.in_lacuna) == (12, 0)
    ref.warnings.append(ReaderWarning("t.txt", 1, "lacuna", "page missing"))
    res = la.measure(wit, ref)
    assert (res.shu_as_jing, res.in_lacuna) == (0, 12)


def test_a_reference_character_pinned_across_its_lacuna_still_leaves_the_run_in_it(la):
    # like 四部丛刊 卷七 …奠觶于 [page lost] 篚主人…: the 篚 after the gap aligns with the one
    # just before the lost text, so the run starts after the gap's first character
    wit = zs("\n".join(["　　甲乙丙丁戊己庚辛【注一二三四】", "　　天地玄黄宇宙洪荒日月盈昃庚辛【注五六七八】",
                        "　　寒来暑往秋收冬藏【注九十】"]) + "\n")
    ref = zs("\n".join(["　　甲乙丙丁戊己庚", "　　辛寒来暑往秋收冬藏【注九十】"]) + "\n")
    ref.warnings.append(ReaderWarning("t.txt", 1, "lacuna", "page missing"))
    res = la.measure(wit, ref)
    assert (res.shu_as_jing, res.in_lacuna) == (0, 14)


def test_short_variants_are_not_shu(la):
    wit = zs(LINES[0].replace("庚辛", "庚辛壬癸") + "\n")
    ref = zs(LINES[0] + "\n")
    assert la.measure(wit, ref).shu_as_jing == 0


def test_command_line_one_pair(la, capsys):
    path = str(corpus_file(ZS))
    assert la.main([path, "--reference", path]) == 0
    out = capsys.readouterr().out
    assert "100.00%" in out and "zhushu-dasheyi-excerpt" in out and "疏 as 经" in out


def test_command_line_usage_errors(la, capsys):
    with pytest.raises(SystemExit) as exc:
        la.main([str(corpus_file(ZS))])
    assert exc.value.code == 2
    assert "needs --reference" in capsys.readouterr().err


def test_unreadable_pair_is_reported_not_a_traceback(la, tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    assert la.main([str(bad), "--reference", str(corpus_file(ZS))]) == 2
    assert "skipped bad.txt" in capsys.readouterr().out


def test_default_mode_runs_the_standard_pairs(la, capsys):
    assert la.main([], standard_pairs=STANDARD_PAIRS) == 0
    out = capsys.readouterr().out
    for stem in ("tushu-juan276-xiangsheli", "jishi-juan05-xiangsheli-traditional",
                 "jishi-juan10-dasheyi-simplified", "zhushu-dasheyi-excerpt"):
        assert stem in out
    assert "KR1d0026_005" in out and "KR1d0026_007" in out


def test_inferred_boundaries_and_whether_the_flags_catch_the_bad_ones(la):
    from jiaokan.model import Div, Label, Loc, Piece, Text, Unit, Witness

    def piece(layer, pid, *content, cert=None):
        return Piece(layer, list(content), Loc(1), id=pid, cert=cert)

    w = Witness(WitnessMeta(siglum="Z", file="z.txt", format="mandoku-zhushu"))
    w.divs.append(Div("chapter", "7", None, units=[
        Unit("Z.1", [piece("jing", "j1", Text("主人戒賓")), piece("zhu", "z1", Label("注"), Text("戒猶警也"))]),
        Unit("Z.2", [piece("jing", "j2", Text("賓禮辭"), cert="low"), piece("zhu", "z2", Label("注"), Text("禮辭一辭"))]),
        Unit("Z.3", [piece("jing", "j3", Label("○"), Text("乃席賓")), piece("zhu", "z3", Label("注"), Text("不言"))]),
        Unit("Z.4", [piece("jing", "j4", Text("主人答拜"))]),
    ]))
    assert la.inferred_boundaries(w) == [("z1", "j2", True), ("z3", "j4", False)]
    ws = la.stream(w)
    wrong = {i for i, p in enumerate(ws.pieces) if p == "j2"}  # the flagged boundary is the bad one
    b = la._boundaries(w, ws, wrong)
    assert (b.total, b.flagged, b.off, b.off_flagged, b.unflagged_exact) == (2, 1, 1, 1, 1)


def test_a_pian_title_pairs_with_the_references_title_not_its_jing(la):
    """KR1d0028_003 opens ``士相見禮第三`` (a title, paratext) then the 经 ``士相見之禮○贄…``.

    The reference's title (``士相見禮第三　儀禮　鄭氏注``) is aligned but not counted, so the
    witness title does not pair with the reference's 经 and no heading rule is said to eat text.
    """
    res = la.measure(la.read(KANRIPO / "KR1d0028_003.txt"), la.read(KANRIPO / "KR1d0026_003.txt"))
    assert res.para == 0
    ref = la.read(KANRIPO / "KR1d0026_003.txt")
    assert res.ref_total == len(la.stream(ref, {la.JING, la.COMM}).keys)  # titles are not in the total


# --- the whole book, per 篇, in folds --------------------------------------------------------------

def test_folds_are_ranges_of_pian_numbers(la):
    assert la.parse_folds("1-8, 9-13") == [list(range(1, 9)), list(range(9, 14))]
    assert la.parse_folds("11") == [[11]]
    for bad in ("1-x", "0-3", "5-2", ""):
        with pytest.raises(ValueError, match="--folds"):
            la.parse_folds(bad)


def test_book_mode_usage_errors_are_one_line(la, tmp_path, capsys):
    for argv in (["--book", str(tmp_path / "nothing")], ["--book", str(tmp_path), "--folds", "a-b"]):
        with pytest.raises(SystemExit) as exc:
            la.main(argv)
        assert exc.value.code == 2
        assert "Traceback" not in capsys.readouterr().err


SANGFU = ["KR1d0026_011.txt", "KR1d0028_011.txt", "KR1d0030_017.txt", "KR1d0030_018.txt", "KR1d0030_019.txt"]


def test_book_mode_sangfu_the_references_inferred_items_are_checked_by_the_jishi(la):
    """喪服: the 四部丛刊's 传/经 items are inferred from the running text, so the reference is checked by the
    集释 too; the one real disagreement (出妻之子…無服: ○ 经 in the 注疏, 传 in the other two) stays."""
    log: list[str] = []
    [row] = la.measure_book([KANRIPO / f for f in SANGFU], [[11]], held_out=0, rotate_prior=False,
                            max_examples=20, log=log)
    assert row.pian == "喪服" and row.held_out
    assert row.reader is not None and row.relayered is not None and row.reference_checked is not None
    assert row.reader.share < 0.997 <= row.reference_checked.share
    assert row.reference_checked.aligned == row.reader.aligned
    left = [ex.text for ex in row.reference_checked.examples if ex.kind == "经→注"]
    assert "出妻之子爲父後者則爲出母無服" in left
    assert any("KR1D0026" in line and "checked against KR1d0030_017+KR1d0030_018+KR1d0030_019" in line for line in log)
    report = la.book_report([row], ["11"])
    assert "11 喪服" in report and "(held out)" in report
