"""Collation on the real texts: rows, typed variants, apparatus TEI and JSON, the CLI."""

from __future__ import annotations

import json
import re

from lxml import etree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jiaokan.collate.apparatus import collation_to_tei
from jiaokan.collate.engine import CollationError, collate
from jiaokan.collate.export import collation_to_json
from jiaokan.collate.layertext import layer_text
from jiaokan.collate.rows import body_units
from jiaokan.model import Div, Gap, LineBreak, Loc, PageBreak, Piece, Text, Unit, Witness, WitnessMeta
from jiaokan.readers import READERS

from .test_cli import jiaokan

JS10 = "jishi-juan10-dasheyi-simplified"
ZS = "zhushu-dasheyi-excerpt"
JS5 = "jishi-juan05-xiangsheli-traditional"
TS = "tushu-juan276-xiangsheli"

needs_zs = pytest.mark.skipif("zhushu-ctext" not in READERS, reason="注疏 excerpt reader not available")
needs_ts = pytest.mark.skipif("tushu-wikisource" not in READERS, reason="图书集成 reader not available")


@pytest.fixture(scope="module")
def dasheyi(read_corpus):
    return collate([read_corpus(JS10), read_corpus(ZS)], base="JS")


@needs_zs
def test_required_readings_jishi_vs_zhushu(dasheyi):
    by_ctx = {a.context: a for a in dasheyi.apps if a.layer == "jing"}
    sui = next(a for c, a in by_ctx.items() if "司射【遂】袒" in c)
    assert sui.readings["ZS"].type == "omission" and sui.readings["ZS"].text == ""
    fu = next(a for c, a in by_ctx.items() if "服不【复】负侯" in c)
    assert fu.readings["ZS"].type == "omission"
    shi = next(a for c, a in by_ctx.items() if "仆人师洗升【实】觯" in c)
    assert shi.type == "substantive" and shi.readings["ZS"].text == "宾"
    # 荅/答 is a variant form: orthographic, never substantive
    da = [a for a in dasheyi.apps if a.lem.text == "荅"]
    assert da and all(a.type == "orthographic" for a in da)


@needs_zs
def test_other_base_turns_omission_into_addition(read_corpus):
    col = collate([read_corpus(JS10), read_corpus(ZS)], base="ZS")
    sui = next(a for a in col.apps if a.layer == "jing" and "司射【】袒" in a.context)
    assert sui.readings["JS"].type == "addition" and sui.readings["JS"].text == "遂"


@needs_zs
def test_layers_are_collated_separately_and_gaps_reported_once(dasheyi):
    # the excerpt has 疏, the 集释 has none: no 疏 apparatus entries, one gap per row with 疏
    assert not [a for a in dasheyi.apps if a.layer == "shu"]
    shu_gaps = [g for g in dasheyi.gaps if g.layer == "shu"]
    assert shu_gaps and all(g.absent == ["JS"] and g.kind == "layer" for g in shu_gaps)
    assert len({g.row for g in shu_gaps}) == len(shu_gaps)
    # where the excerpt does not reach, nothing is reported as omitted
    assert all(len(a.lem.text) < 60 for a in dasheyi.apps)


@needs_zs
def test_pages_and_passages_on_readings(dasheyi):
    sui = next(a for a in dasheyi.apps if "司射【遂】袒" in a.context)
    assert sui.lem.page == "13a" and sui.lem.unit.startswith("JS10.")
    assert sui.readings["ZS"].unit.startswith("ZS")


@needs_zs
def test_apparatus_tei_validates(dasheyi, profile, tei_all):
    tree = collation_to_tei(dasheyi, {"JS": f"{JS10}.xml", "ZS": f"{ZS}.xml"})
    assert profile.validate(tree), profile.error_log
    assert tei_all.validate(tree), tei_all.error_log
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    root = tree.getroot()
    assert root.find(".//t:variantEncoding", ns).get("method") == "parallel-segmentation"
    sui = [a for a in root.iterfind(".//t:app[@type='omission']", ns) if a.find("t:lem", ns).text == "遂"]
    assert sui and sui[0].find("t:rdg", ns).get("wit") == "#ZS" and sui[0].find("t:rdg", ns).text is None


@needs_zs
def test_a_reading_without_its_own_pointer_stands_where_its_ab_points(dasheyi):
    """The header's rule for @corresp: a non-empty lem (the base's) or rdg of one witness points to its
    passage, or, without @corresp, stands in the passage its ab points to for that witness (an ab points
    where its row's first ab does).  Read by
    that rule, every short reading is in the text of the passage it resolves to."""
    from jiaokan.normalize import strip_ignorable
    from jiaokan.tei.writer import unit_targets

    names = {"JS": f"{JS10}.xml", "ZS": f"{ZS}.xml"}
    root = collation_to_tei(dasheyi, names).getroot()
    t = "{http://www.tei-c.org/ns/1.0}"
    units = {s: {target: uid for uid, target in unit_targets(w).items()} for s, w in dasheyi.witnesses.items()}
    by_id = {s: {u.id: u for u in body_units(w)} for s, w in dasheyi.witnesses.items()}
    own = inherited = 0
    row_at: dict[str, dict[str, str]] = {}  # row → where its first ab points (its other abs point there too)
    for ab in root.iter(t + "ab"):
        if ab.get("corresp"):
            assert ab.get("n") not in row_at  # said once per row, on its first ab
            at_ab = row_at[ab.get("n")] = {}
            for ptr in ab.get("corresp").split():
                file, _, target = ptr.partition("#")
                at_ab[next(s for s, n in names.items() if n == file)] = target
        else:
            at_ab = row_at.get(ab.get("n"), {})
        for r in ab.iter(t + "lem", t + "rdg"):
            text = strip_ignorable("".join(r.itertext()))
            wits = [w.lstrip("#") for w in r.get("wit").split()]
            if not text or (r.tag == t + "rdg" and len(wits) > 1):
                assert r.get("corresp") is None
                continue
            s = wits[0]  # the lem's first witness is the base, whose passage it points to
            if r.get("corresp"):
                own += 1
                file, _, target = r.get("corresp").partition("#")
                assert file == names[s] and target != at_ab.get(s)  # said only where it is not the ab's
            else:
                inherited += 1
                target = at_ab[s]
            if len(text) <= 3:
                passage = layer_text([by_id[s][units[s][target]]], ab.get("type")).text
                assert text in strip_ignorable(passage), (ab.get("n"), s, text, target)
    assert own and inherited > own


@needs_zs
def test_json_table_reassembles_each_witness(dasheyi):
    data = collation_to_json(dasheyi)
    assert data["witnesses"] == ["JS", "ZS"]
    assert len(data["table"][0]) == len(data["table"][1])
    # the base row of the table is the base's collated text, in order, character for character
    units = {u.id: u for u in body_units(dasheyi.witnesses["JS"])}
    expected = "".join(
        layer_text([units[u] for u in row.units["JS"]], layer).text
        for row in dasheyi.rows for layer in dasheyi.layers
    )
    got = "".join(t["t"] for cell in data["table"][0] if cell for t in cell)
    assert got == "".join(ch for ch in expected if not ch.isspace())
    v = next(v for v in data["variants"] if v["context"].startswith("司射【遂】"))
    assert v["readings"] == {"JS": "遂", "ZS": ""} and v["type"] == "omission" and v["pages"]["JS"] == "13a"


@needs_ts
def test_xiangsheli_taboo_and_transposition(read_corpus):
    col = collate([read_corpus(JS5), read_corpus(TS)], base="JS")
    xuan = [a for a in col.apps if a.lem.text == "玄" and a.readings["TS"].text == "元"]
    assert xuan and xuan[0].type == "taboo"
    tr = [a for a in col.apps if a.type == "transposition"]
    assert any(a.lem.text == "之席" and a.readings["TS"].text == "席之" for a in tr)
    # a simplified against a traditional witness: script differences are not variants
    assert not [a for a in col.apps if a.lem.text == "賓" and a.readings["TS"].text == "宾"]


def test_user_errors():
    w = Witness(WitnessMeta(siglum="A", file="a", format="x"))
    with pytest.raises(CollationError, match="at least two"):
        collate([w])
    with pytest.raises(CollationError, match="siglum A"):
        collate([w, Witness(WitnessMeta(siglum="A", file="b", format="x"))])
    with pytest.raises(CollationError, match="no witness has the siglum Z"):
        collate([w, Witness(WitnessMeta(siglum="B", file="b", format="x"))], base="Z")


# --- properties ------------------------------------------------------------------------------

def _witness(siglum: str, passages: list[tuple[str, str]]) -> Witness:
    w = Witness(WitnessMeta(siglum=siglum, file=f"{siglum}.txt", format="gen", script="traditional"))
    d = Div("chapter", "1", None)
    for i, (jing, zhu) in enumerate(passages, 1):
        u = Unit(f"{siglum}.{i}")
        u.pieces.append(Piece("jing", [LineBreak(i), Text(jing)], Loc(i), id=f"{siglum}.{i}.jing1"))
        if zhu:
            u.pieces.append(Piece("zhu", [Text(zhu)], Loc(i), resp="郑玄", id=f"{siglum}.{i}.zhu1"))
        d.units.append(u)
    w.divs.append(d)
    return w


hanzi = st.text(alphabet=st.sampled_from("司射遂袒執弓挾一个搢扑東面于三耦之西命賓主人"), min_size=3, max_size=20)


@settings(max_examples=40, deadline=None)
@given(passages=st.lists(st.tuples(hanzi, hanzi), min_size=1, max_size=6))
def test_a_witness_collated_with_itself_has_no_variants(passages):
    col = collate([_witness("A", passages), _witness("B", passages)])
    assert col.apps == [] and col.gaps == []
    assert all(len(r.units["A"]) == len(r.units["B"]) for r in col.rows)


@settings(max_examples=40, deadline=None)
@given(passages=st.lists(st.tuples(hanzi, hanzi), min_size=2, max_size=6), data=st.data())
def test_one_substitution_gives_one_entry_at_its_place(passages, data):
    k = data.draw(st.integers(0, len(passages) - 1))
    jing, zhu = passages[k]
    pos = data.draw(st.integers(0, len(zhu) - 1))
    new = "龜" if zhu[pos] != "龜" else "鼈"
    changed = list(passages)
    changed[k] = (jing, zhu[:pos] + new + zhu[pos + 1:])
    col = collate([_witness("A", passages), _witness("B", changed)])
    assert len(col.apps) == 1
    (app,) = col.apps
    assert app.layer == "zhu" and app.readings["B"].text == new and app.lem.text == zhu[pos]
    assert app.type == "substantive" and app.lem.unit == f"A.{k + 1}"


# --- lacunae --------------------------------------------------------------------------------

# 大射 in 集释 卷十 (KR1d0030_010, lines 305-318); the 四部丛刊 lost the page that held the rest
# of the first 注 and the next two passages
DASHE = [
    ("獲者左執爵右祭薦俎二手祭酒", "祭俎不奠爵不備禮也二手祭酒者獲者南面于俎北當為侯祭于豆間爵反注為一手不能正也"),
    ("適左个祭如右个中亦如之", "先祭个後中者以外即之至中若神在中"),
    ("卒祭左个之西北三歩東面", "此鄉受獻之位也不北面者嫌為侯卒爵"),
    ("設薦俎立卒爵", "不言不拜既爵司馬正已反位不拜可知也"),
]


def _lost_page_witness(with_gap: bool) -> Witness:
    w = _witness("B", [(DASHE[0][0], DASHE[0][1][:DASHE[0][1].index("豆間")]), DASHE[3]])
    if with_gap:
        jing = w.divs[0].units[1].pieces[0]
        jing.content[:0] = [PageBreak("31a"), Gap(desc="page missing"), PageBreak("32a")]
    return w


def test_text_lost_with_a_page_is_a_lacuna_not_an_omission(profile):
    col = collate([_witness("A", DASHE), _lost_page_witness(with_gap=True)])
    assert [a for a in col.apps if a.type == "omission"] == []
    lacunae = {(g.row, g.layer): g for g in col.gaps if g.kind == "lacuna"}
    rows = [r.id for r in col.rows]
    # the end of the first 注, and both layers of the two passages the page held
    assert set(lacunae) == {(rows[0], "zhu"), (rows[1], "jing"), (rows[1], "zhu"), (rows[2], "jing"), (rows[2], "zhu")}
    assert lacunae[(rows[0], "zhu")].present == {"A": len("豆間爵反注為一手不能正也")}
    assert all(g.absent == ["B"] for g in lacunae.values())
    tei = collation_to_tei(col)
    assert profile.validate(tei), profile.error_log
    apps = tei.findall(".//{http://www.tei-c.org/ns/1.0}app[@type='lacuna']")
    assert len(apps) == 5 and all(a.find(".//{http://www.tei-c.org/ns/1.0}gap") is not None for a in apps)
    assert {g["kind"] for g in collation_to_json(col)["layer_gaps"]} == {"lacuna"}


def _resumed_mid_zhu(siglum: str, passages: list[tuple[str, str]], lost: int, resume: int) -> Witness:
    """``passages`` as a source that lost the page holding passage ``lost``'s 经 and the start of its 注, and
    resumes at character ``resume`` of that 注: the resumed 注 is a unit without 经, as the 四部丛刊's reader gives
    it (KR1d0026_013 after 葉 5: ``也兩馬士制也…繁乎``)."""
    w = _witness(siglum, passages)
    units = w.divs[0].units
    tail = Unit(f"{siglum}.{lost + 1}t", [Piece("zhu", [PageBreak("5b"), Gap(desc="page missing"), PageBreak("5b"),
                                                        Text(passages[lost][1][resume:])], Loc(90),
                                                  id=f"{siglum}.{lost + 1}t.zhu1")])
    w.divs[0].units = units[:lost] + [tail] + units[lost + 1:]
    return w


def test_a_zhu_resumed_after_a_lost_page_stays_with_its_own_passage(profile):
    """The tail of a 注 a witness kept after its lost page is that 注's, not text it adds to the next passage's;
    the 经 and the start of the 注 the page took are a lacuna.  And where another witness differs inside the
    stretch lost, the lost witness's empty reading is a lacuna, not an omission."""
    zs = list(DASHE)
    zs[1] = ("適左个祭如右个中亦如之", "先祭个後中者以外郎之至中若神在中")  # 即/郎, in the stretch B lost
    a, b = _witness("A", DASHE), _resumed_mid_zhu("B", DASHE, lost=1, resume=12)
    col = collate([a, _witness("Z", zs), b], base="A")
    rows = [r.id for r in col.rows]
    by_row = {r.id: r.units["B"] for r in col.rows}
    assert by_row[rows[1]] == ["B.2t"]  # with passage 2, whose 注 it ends
    assert not [x for x in col.apps if x.type in ("addition", "omission")]
    lacunae = {(g.row, g.layer) for g in col.gaps if g.kind == "lacuna" and g.absent == ["B"]}
    assert (rows[1], "jing") in lacunae  # the 经 went with the page, though B has this row's 注
    tei = collation_to_tei(col)
    assert profile.validate(tei), profile.error_log
    ns = "{http://www.tei-c.org/ns/1.0}"
    zhu = tei.find(f".//{ns}ab[@n='{rows[1]}'][@type='zhu']")
    b_rdgs = [r for r in zhu.iter(f"{ns}rdg") if r.get("wit") == "#B"]
    assert b_rdgs and all(r.find(f"{ns}gap") is not None for r in b_rdgs)  # what B lost, never what it omits
    assert "".join(zhu.itertext()).endswith(DASHE[1][1][12:])  # the tail, read by all three
    nxt = tei.find(f".//{ns}ab[@n='{rows[2]}'][@type='zhu']")
    assert nxt.find(f".//{ns}app") is None  # passage 3's 注: nothing added


def test_the_sbck_resuming_mid_zhu_in_shixiangjianli_reads_as_the_raw_file_says():
    """士相見禮 in the three Kanripo witnesses: the 四部丛刊 (KR1d0026_003) lost the page holding 凡與大人言… and
    the start of its 注, and resumes at 當正容體以待之 (its line after ``# page missing``).  That tail is read in the
    passage of 凡與大人言, the rest of the 注 (and the 注疏's 顏/顔 … inside it) as lost, and nothing as added to
    the next passage (若父則遊目), where it used to stand as an addition of 54 characters."""
    from jiaokan.readers import read_witness

    from .conftest import KANRIPO

    paths = [KANRIPO / f"{n}.txt" for n in ("KR1d0030_003", "KR1d0028_003", "KR1d0026_003")]
    if not all(p.exists() for p in paths):
        pytest.skip("Kanripo files absent")
    ws = [read_witness(p, WitnessMeta(siglum=s, file=p.name, format="")) for s, p in zip(("JS", "ZS", "SB"), paths)]
    col = collate(ws, base="JS")
    js = {u.id: u for u in body_units(ws[0])}
    sb = {u.id: u for u in body_units(ws[2])}
    k = next(i for i, r in enumerate(col.rows) if any(js[u].layer_text("jing").startswith("凡與大人言")
                                                        for u in r.units["JS"]))
    row, nxt = col.rows[k], col.rows[k + 1]
    assert [sb[u].layer_text("zhu")[:7] for u in row.units["SB"]] == ["當正容體以待之"]
    assert {(g.layer, g.kind) for g in col.gaps if g.row == row.id and g.absent == ["SB"]} >= {("jing", "lacuna")}
    assert not [a for a in col.apps if a.row == nxt.id and "SB" in a.readings and a.type == "addition"]
    zhu = collation_to_tei(col).find(f".//{{http://www.tei-c.org/ns/1.0}}ab[@n='{row.id}'][@type='zhu']")
    sb_rdgs = [r for r in zhu.iter("{http://www.tei-c.org/ns/1.0}rdg") if r.get("wit") == "#SB"]
    assert sb_rdgs and all(r.get("type") in (None, "lacuna") and not (r.text or "").strip() for r in sb_rdgs)


def test_the_zhu_of_a_passage_whose_page_was_lost_right_after_its_jing_is_a_lacuna():
    """The 四部丛刊 lost a page right after a passage's 经 (燕禮: 正降自西階南面坐取觶升酌散降南面坐 | page
    missing): that passage's 注 went with the page.  It read as a layer the witness lacks ("layer"), as if the
    edition had no 注 there."""
    b = _witness("B", [(DASHE[0][0], ""), DASHE[3]])
    b.divs[0].units[1].pieces[0].content[:0] = [PageBreak("31a"), Gap(desc="page missing"), PageBreak("32a")]
    col = collate([_witness("A", DASHE), b])
    first = col.rows[0].id
    assert {(g.layer, g.kind) for g in col.gaps if g.row == first and g.absent == ["B"]} == {("zhu", "lacuna")}


def test_a_unit_without_jing_that_reads_no_row_still_rides_with_the_next_passage():
    """A heading or a 注 no row holds (nothing to match) keeps the old place: with the next passage."""
    b = _resumed_mid_zhu("B", DASHE, lost=1, resume=12)
    b.divs[0].units[1].pieces[0].content[-1] = Text("天地玄黄宇宙洪荒日月盈昃")
    col = collate([_witness("A", DASHE), b], base="A")
    assert [r.units["B"] for r in col.rows][2] == ["B.2t", "B.3"]
    assert {g.layer for g in col.gaps if g.row == col.rows[1].id and g.kind == "lacuna"} == {"jing", "zhu"}


def test_a_unit_after_a_heading_that_stays_is_not_moved_back_past_it():
    """The units of a run keep their order: after a heading (paratext, which rides with the next passage) the
    resumed 注 stays after it, though the 注 reads an earlier row.  Joined 篇 put a 篇's title and then its
    鄭目錄 in one such run; moved back, the 鄭目錄 read before its own title."""
    b = _resumed_mid_zhu("B", DASHE, lost=1, resume=12)
    heading = Unit("B.h", [Piece("paratext", [Text("鄉射禮第五")], Loc(89), id="B.h.paratext1")])
    units = b.divs[0].units
    b.divs[0].units = units[:1] + [heading] + units[1:]
    col = collate([_witness("A", DASHE), b], base="A")
    order = [u for r in col.rows for u in r.units["B"]]
    assert order == [u.id for u in b.divs[0].units]  # the witness's own order
    assert [r.units["B"] for r in col.rows][2] == ["B.h", "B.2t", "B.3"]
    # and without the heading the same 注 goes back to its passage (the rule above, unchanged)
    col = collate([_witness("A", DASHE), _resumed_mid_zhu("B", DASHE, lost=1, resume=12)], base="A")
    assert [r.units["B"] for r in col.rows][1] == ["B.2t"]


def test_without_a_gap_the_missing_text_is_still_an_omission():
    col = collate([_witness("A", DASHE), _lost_page_witness(with_gap=False)])
    assert any(a.type == "omission" and a.lem.text == "豆間爵反注為一手不能正也" for a in col.apps)
    assert not any(g.kind == "lacuna" for g in col.gaps)


# --- CLI ----------------------------------------------------------------------------------------

@needs_zs
def test_cli_collate_and_diff(tmp_path):
    from .conftest import corpus_file

    tei = tmp_path / "tei"
    assert jiaokan("ingest", str(corpus_file(JS10)), str(corpus_file(ZS)), "-o", str(tei), "-q").returncode == 0
    a, b = tei / f"{JS10}.xml", tei / f"{ZS}.xml"
    r = jiaokan("collate", str(a), str(b), "--base", "JS", "-o", str(tmp_path / "app.xml"), "--json", str(tmp_path / "app.json"))
    assert r.returncode == 0, r.stderr
    assert b"apparatus entries" in r.stderr and b"shu only in ZS" in r.stderr
    data = json.loads((tmp_path / "app.json").read_text(encoding="utf-8"))
    assert set(data) >= {"witnesses", "table", "variants"}
    assert jiaokan("validate", str(tmp_path / "app.xml")).returncode == 0
    r = jiaokan("diff", str(a), str(b), "--only", "substantive", "--color", "never")
    out = r.stdout.decode()
    assert r.returncode == 1 and "[实 | 宾]" in out and "orthographic" not in out.split("--")[0]
    r = jiaokan("collate", str(a), str(b), "--base", "XX")
    assert r.returncode == 2 and b"no witness has the siglum XX" in r.stderr
    r = jiaokan("collate", str(a), str(b), "--ignore", "bogus")
    assert r.returncode == 2 and b"unknown variant type" in r.stderr


@needs_zs
def test_writers_share_the_segments_and_see_filtered_entries(read_corpus):
    """The TEI and JSON writers share one segmentation per collation; filtering the entries (as
    ``collate --only`` does) makes a new one, so nothing stale is written."""
    col = collate([read_corpus(JS10), read_corpus(ZS)], base="JS")
    full_json = json.dumps(collation_to_json(col), ensure_ascii=False)
    assert json.dumps(collation_to_json(col), ensure_ascii=False) == full_json  # the memo gives the same
    before = len(collation_to_tei(col).getroot().findall(".//{http://www.tei-c.org/ns/1.0}app"))
    col.apps = [a for a in col.apps if a.type == "substantive"]
    after = len(collation_to_tei(col).getroot().findall(".//{http://www.tei-c.org/ns/1.0}app"))
    assert after < before
    assert json.dumps(collation_to_json(col), ensure_ascii=False) != full_json


# --- subtypes ---------------------------------------------------------------------------------

def test_an_entry_keeps_the_subtype_of_its_own_type_when_witnesses_merge_it():
    """注疏 賓已 / 单疏本 賔巳 (士冠禮 疏): a graphic 賓/賔 beside a 古今字 已/巳 is a minor substantive entry, as
    已/巳 alone is; the graphic variant's subtype (unihan) must not erase the substantive one's (minor)."""
    base = [("主人戒賓賓已許乃筮", "")]
    merged = collate([_witness("A", base), _witness("B", [("主人戒賔賔巳許乃筮", "")]),
                      _witness("C", [("主人戒賓許乃筮", "")])])
    (entry,) = [a for a in merged.apps if "已" in a.lem.text]
    assert entry.lem.text == "賓已" and entry.readings["B"].text == "賔巳" and entry.readings["C"].text == ""
    assert entry.type == "substantive" and entry.subtype == "minor"
    alone = collate([_witness("A", base), _witness("B", [("主人戒賔賔巳許乃筮", "")])])
    (same,) = [a for a in alone.apps if a.lem.text == "已"]
    assert (same.type, same.subtype) == ("substantive", "minor")
    tei = etree.tostring(collation_to_tei(merged), encoding="unicode")
    assert re.search(r'<app type="substantive" ana="#vt-substantive" subtype="minor"[^>]*><lem[^>]*>賓賓已<', tei)
    # a real difference beside the graphic one: no subtype to share
    real = collate([_witness("A", base), _witness("B", [("主人戒賔賔亦許乃筮", "")]),
                    _witness("C", [("主人戒賓許乃筮", "")])])
    (entry,) = [a for a in real.apps if "已" in a.lem.text]
    assert entry.type == "substantive" and entry.subtype is None
