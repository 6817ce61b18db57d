"""Variant knowledge beyond Unihan: the component rule, pairs learned from the alignment, IDS in the text."""

from __future__ import annotations

from pathlib import Path

import pytest

from jiaokan.collate.engine import collate
from jiaokan.collate.learned import Decisions, load_decisions, propose, write_proposals
from jiaokan.errors import InputError
from jiaokan.model import Div, Gaiji, LineBreak, Loc, Piece, Text, Unit, Witness, WitnessMeta, ids_code, ids_description
from jiaokan.normalize import key, relation
from jiaokan.normalize.learned import set_accepted
from jiaokan.normalize.relation import orthographic_source

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "kanripo"


@pytest.mark.parametrize("form,standard", [("𩜹", "饌"), ("禭", "襚"), ("眀", "明"), ("湇", "湆"), ("祍", "衽"),
                                           ("禆", "裨"), ("屛", "屏"), ("墍", "塈"), ("衻", "袡"), ("袝", "祔")])
def test_the_component_rule_folds_forms_with_no_word_of_their_own(form, standard):
    assert key(form) == key(standard)
    assert relation(form, standard) == "orthographic"
    assert orthographic_source(form, standard) == "ids"


@pytest.mark.parametrize("a,b", [("禪", "襌"), ("裼", "禓"), ("日", "目"), ("盥", "灌"), ("析", "折")])
def test_characters_with_a_word_of_their_own_stay_apart(a, b):
    assert key(a) != key(b)
    assert relation(a, b) == "different"


def test_a_form_with_a_meaning_of_its_own_is_left_to_the_hand_table():
    # 扄 has a gloss of its own ("knocker"): the component rule leaves it; the hand table has it from 篇一
    assert orthographic_source("扄", "扃") == "hand"


def test_sources_of_other_folds_are_named():
    assert orthographic_source("荅", "答") in ("unihan", "yitizi")
    assert orthographic_source("矦", "侯") == "hand"
    assert orthographic_source("賓", "宾") is None  # script only: not a variant


def _witness(siglum: str, passages: list[str]) -> Witness:
    w = Witness(WitnessMeta(siglum=siglum, file=f"{siglum}.txt", format="gen", script="traditional"))
    d = Div("chapter", "1", None)
    for i, jing in enumerate(passages, 1):
        u = Unit(f"{siglum}.{i}")
        u.pieces.append(Piece("jing", [LineBreak(i), Text(jing)], Loc(i), id=f"{siglum}.{i}.jing1"))
        d.units.append(u)
    w.divs.append(d)
    return w


BASE = ["主人虛弓於堂上西面", "賓升虛矢於階下北面", "大夫虛言於庭中東面", "公食大夫之禮使者", "卿大夫士皆入門右"]
OTHER = ["主人虗弓於堂上西面", "賓升虗矢於階下北面", "大夫虗言於庭中東面", "公食大夫之禮使者", "卿大夫士皆入門右"]


@pytest.fixture
def no_accepted():
    set_accepted([])
    yield
    set_accepted([])


def test_a_recurring_pair_is_proposed_with_its_count(no_accepted, tmp_path):
    col = collate([_witness("A", BASE), _witness("B", OTHER)])
    assert {a.type for a in col.apps} == {"substantive"}
    props = propose([("pian01", "士冠禮", col)])
    assert [(p.a, p.b, len(p.places), p.count, p.status) for p in props] == [("虛", "虗", 3, 3, "proposed")]
    write_proposals(tmp_path / "variants-proposed.tsv", props)
    rows = [r for r in (tmp_path / "variants-proposed.tsv").read_text(encoding="utf-8").splitlines()
            if not r.startswith("#")]
    assert rows[0].split("\t")[:5] == ["proposed", "虛", "虗", "3", "3"]


def test_too_few_places_or_disagreeing_context_is_not_proposed(no_accepted):
    two = OTHER[:2] + BASE[2:]
    assert propose([("p", "c", collate([_witness("A", BASE), _witness("B", two)]))]) == []
    # a second difference right beside each one: the context does not agree
    near = ["主人虗矛於堂上西面", "賓升虗戈於階下北面", "大夫虗語於庭中東面"] + BASE[3:]
    assert propose([("p", "c", collate([_witness("A", BASE), _witness("B", near)]))]) == []


def test_an_accepted_pair_is_orthographic_with_its_source(no_accepted):
    set_accepted([("虗", "虛")])
    col = collate([_witness("A", BASE), _witness("B", OTHER)])
    assert {(a.type, a.subtype) for a in col.apps} == {("orthographic", "learned")}
    props = propose([("p", "c", col)], Decisions(accept=(("虗", "虛"),)))
    assert [p.status for p in props] == ["accepted"]


def test_a_rejected_pair_stays_substantive_and_is_marked(no_accepted):
    col = collate([_witness("A", BASE), _witness("B", OTHER)])
    props = propose([("p", "c", col)], Decisions(reject=(("虛", "虗"),)))
    assert [p.status for p in props] == ["rejected"]
    assert {a.type for a in col.apps} == {"substantive"}


def test_the_manifest_decisions(tmp_path):
    (tmp_path / "corpus.toml").write_text('[variants]\naccept = ["虗虛"]\nreject = ["摯 贄"]\n', encoding="utf-8")
    d = load_decisions(tmp_path)
    assert d.accept == (("虗", "虛"),) and d.reject == (("摯", "贄"),)
    (tmp_path / "corpus.toml").write_text('[variants]\naccept = ["虗"]\n', encoding="utf-8")
    with pytest.raises(InputError, match="not a pair of two characters"):
        load_decisions(tmp_path)


def test_ids_codes_round_trip():
    code = ids_code("沔-丏+丐")
    assert code == "IDS-6C94-2D-4E0F-2B-4E10" and ids_description(code) == "沔-丏+丐"
    assert Gaiji(code).source == "[沔-丏+丐]" and Gaiji("KR0925").source == "&KR0925;"


@pytest.mark.skipif(not (SHARED / "KR1d0026_012.txt").exists(), reason="needs ../shared/kanripo")
def test_an_ideographic_description_in_the_text_is_a_g_not_text():
    import jiaokan

    w = jiaokan.read(SHARED / "KR1d0026_012.txt", siglum="SB")
    code = ids_code("沔-丏+丐")
    assert w.char_decl.get(code, "absent") is None
    assert any(x.code == "ids" and "沔-丏+丐" in x.message for x in w.warnings)
    text = "".join(p.text for p in w.pieces())
    assert "丏+丐" not in text and "沔-" not in text
    assert not any(x.code == "lossless" for x in w.warnings)


@pytest.mark.skipif(not (SHARED / "KR1d0026_001.txt").exists(), reason="needs ../shared/kanripo")
def test_the_build_writes_both_review_tables_and_applies_the_decisions(tmp_path, no_accepted):
    """篇一 of the 注疏 and the 四部丛刊: the proposals, the gaiji report, and an accepted pair in the apparatus."""
    import json

    from jiaokan.build import run_build

    (tmp_path / "corpus.toml").write_text(f"""[corpus]
base = "ZS"
[[witness]]
siglum = "ZS"
role = "zhushu"
format = "mandoku-zhushu"
files = ["{SHARED / 'KR1d0028_001.txt'}"]
[[witness]]
siglum = "SB"
role = "songben"
format = "mandoku-sbck"
files = ["{SHARED / 'KR1d0026_001.txt'}"]
[variants]
accept = ["㪺𣂏"]
reject = ["匕七"]
""", encoding="utf-8")
    out = tmp_path / "build"
    assert run_build(tmp_path, out, quiet=True, jobs=1) == 0
    assert (out / "variants-proposed.tsv").read_text(encoding="utf-8").startswith("# Variant pairs learned")
    gaiji = [r.split("\t") for r in (out / "gaiji-resolved.tsv").read_text(encoding="utf-8").splitlines()
             if not r.startswith("#")]
    assert {r[1] for r in gaiji} >= {"KR1362"} and all(r[0] in ("resolved", "one place", "conflict", "no parallel")
                                                       for r in gaiji)
    apps = json.loads((out / "apparatus" / "pian01.json").read_text(encoding="utf-8"))["variants"]
    (accepted,) = [a for a in apps if a["readings"].get("SB") == "𣂏"]
    assert (accepted["type"], accepted["subtype"]) == ("orthographic", "learned")
    assert any(a["readings"].get("SB") == "七" and a["type"] == "substantive" for a in apps)
