"""Variant knowledge beyond Unihan: the component rule, pairs learned from the alignment, IDS in the text."""

from __future__ import annotations

from pathlib import Path

import pytest

from jiaokan.collate.engine import collate
from jiaokan.collate.leanjson import json_variants
from jiaokan.collate.learned import Decisions, learn_forms, load_decisions, propose, unknown_form, write_proposals
from jiaokan.errors import InputError
from jiaokan.model import Div, Gaiji, LineBreak, Loc, Piece, Text, Unit, Witness, WitnessMeta, ids_code, ids_description
from jiaokan.normalize import key, relation
from jiaokan.normalize.learned import form_pairs, pair_keys, set_accepted, set_form_pairs, set_rejected
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


def test_an_ambiguous_form_settles_on_the_head_unihan_defines_alike():
    # 疉: yitizi names 疊 (叠) and 迭; Unihan defines 疉 and 疊 word for word ("repeat, duplicate; repetitious")
    assert key("疉") == key("疊") != key("迭")
    assert relation("疉", "疊") == "orthographic" and orthographic_source("疉", "疊") == "unihan"


def test_a_form_outside_every_standard_folds_to_its_one_registered_variant():
    # 斵: Unihan's one variant is 斲, which Big5 encodes and no standard knows either
    assert key("斵") == key("斲") and orthographic_source("斵", "斲") == "unihan"
    assert key("斲") != key("斤")


@pytest.mark.parametrize("a,b", [("一", "壹"), ("迭", "疊"), ("大", "太")])
def test_two_readings_are_not_joined_by_the_new_rules(a, b):
    assert key(a) != key(b)
    assert relation(a, b) in ("minor", "different")


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


TEXT = ["主人X弓於堂上西面", "賓升X矢於階下北面", "大夫X言於庭中東面", "公食大夫之禮使者", "卿大夫士皆入門右"]


def _texts(x: str) -> list[str]:
    return [t.replace("X", x) for t in TEXT]


# 玊 for 玉: two characters Big5 registers (玊 with no gloss); the alignment proposes, a scholar decides
BASE, OTHER = _texts("玉"), _texts("玊")


@pytest.fixture
def no_accepted():
    set_accepted([])
    set_rejected([])
    set_form_pairs([])
    yield
    set_accepted([])
    set_rejected([])
    set_form_pairs([])


@pytest.mark.parametrize("form", ["畨", "𥙊", "𦵏", "虗", "𪧐", "腵"])
def test_forms_no_registry_knows(form):
    assert unknown_form(form)


@pytest.mark.parametrize("char", ["番", "祭", "玊", "摰", "郷", "爲", "捝", "㝛", "□", "a"])
def test_characters_a_standard_or_a_fold_knows_are_not_unknown_forms(char):
    # 玊 and 摰 are in Big5; 郷 folds to 乡, 爲 to 为 (t2s); 捝 is the t2s form of Big5's 挩; 㝛 folds to 宿
    assert not unknown_form(char)


def test_a_recurring_form_no_registry_knows_is_typed_orthographic(no_accepted):
    # 虗 for 虛 (the 四部丛刊's 燕禮): outside GB 2312 and Big5, folded by nothing, read 虛 at its places
    a, b = _witness("A", _texts("虛")), _witness("B", _texts("虗"))
    learn_forms([a, b])
    col = collate([a, b])
    assert {(a.type, a.subtype) for a in col.apps} == {("orthographic", "learned")}
    assert relation("虛", "虗") == "different"  # a type, not a key: nothing else changes
    props = propose([("p", "c", col)])
    assert [(p.a, p.b, len(p.places), p.status) for p in props] == [("虛", "虗", 3, "auto")]


def test_a_rejected_form_or_a_lone_place_stays_substantive(no_accepted):
    set_rejected([("虗", "虛")])
    a, b = _witness("A", _texts("虛")), _witness("B", _texts("虗"))
    learn_forms([a, b])
    assert {a.type for a in collate([a, b]).apps} == {"substantive"}
    set_rejected([])
    one = _witness("B", _texts("虛")[:1] + _texts("虗")[1:2] + _texts("虛")[2:])
    assert learn_forms([a, one])["虗"].chars == {"虛": 1}  # one place in the book is no recurrence
    assert [a.type for a in collate([a, one]).apps] == ["substantive"]


# 篇一 and 篇二 of the 注疏 write 玉𦸼 in a 疏 where the 单疏本 reads 玉藻: once in each 篇
SHU = {"pian01": "冠既不用𤣥寇故不言也云玉X者案彼注云此𤣥端服之韠也",
       "pian02": "近人故云移置席上便其食也案玉X云食坐盡前謂臨"}


def test_a_form_once_in_each_collation_is_typed_from_its_places_in_the_book(no_accepted):
    pians = {p: [_witness("ZS", [t.replace("X", "𦸼")]), _witness("DS", [t.replace("X", "藻")])]
             for p, t in SHU.items()}
    found = learn_forms([w for ws in pians.values() for w in ws])
    assert (found["𦸼"].chars, found["𦸼"].resolution and found["𦸼"].resolution.places) == ({"藻": 2}, 2)
    cols = {p: collate(ws) for p, ws in pians.items()}
    for col in cols.values():  # one place in each collation, two in the book
        assert [(a.type, a.subtype, a.readings["DS"].text) for a in col.apps] == [("orthographic", "learned", "藻")]
    props = propose([(p, p, col) for p, col in cols.items()])
    assert [(p.a, p.b, len(p.places), p.status) for p in props] == [("𦸼", "藻", 2, "auto")]
    learn_forms(pians["pian01"])  # one 篇 alone: one place, no recurrence
    assert [a.type for a in collate(pians["pian01"]).apps] == ["substantive"]


def test_a_form_whose_places_disagree_stays_substantive(no_accepted):
    # 腵脩 (四部丛刊 士昏禮 經, 单疏本 疏) where the 注疏 reads 段脩 once and 腶脩 once: the places disagree
    sb, zs1 = _witness("SB", ["降階受笲腵脩升進北面拜奠于席"]), _witness("ZS", ["降階受笲段脩升進北面拜奠于席"])
    ds, zs2 = _witness("DS", ["脯捶之而施薑桂曰腵脩若然乾肉與脯脩"]), _witness("ZS", ["脯捶之而施薑桂曰腶脩若然乾肉與脯脩"])
    found = learn_forms([sb, zs1, ds, zs2])
    assert found["腵"].chars == {"段": 1, "腶": 1} and found["腵"].resolution is None and not form_pairs()
    assert [a.type for a in collate([zs2, ds]).apps] == ["substantive"]


def test_a_rejected_form_stays_substantive_wherever_it_stands(no_accepted):
    set_rejected([("藻", "𦸼")])
    pians = [[_witness("ZS", [t.replace("X", "𦸼")]), _witness("DS", [t.replace("X", "藻")])] for t in SHU.values()]
    learn_forms([w for ws in pians for w in ws])
    assert all(a.type == "substantive" for ws in pians for a in collate(ws).apps)


def test_a_recurring_pair_unihan_calls_one_character_is_typed_orthographic(no_accepted):
    # 勖/勗 (士昏禮 勖帥以敬): two registered characters, kSemanticVariant by kMatthews and kMeyerWempe
    assert key("勖") != key("勗")
    col = collate([_witness("A", _texts("勖")), _witness("B", _texts("勗"))])
    assert {(a.type, a.subtype) for a in col.apps} == {("orthographic", "learned")}
    one = _texts("勗")[:1] + _texts("勖")[1:]  # one place is not a recurrence
    assert [a.type for a in collate([_witness("A", _texts("勖")), _witness("B", one)]).apps] == ["substantive"]


def test_pairs_counted_for_some_keys_are_those_pairs_counted_whole(no_accepted):
    # what the typing of related pairs counts (count_pairs with keys): each pair whose keys are among them, as
    # counting every pair gives it, whichever side the base reads; no other pair
    from jiaokan.collate.learned import count_pairs

    a = _texts("勖")[:3] + _texts("玉")[:3] + TEXT[3:]
    b = _texts("勗")[:3] + _texts("玊")[:3] + TEXT[3:]
    col = collate([_witness("A", a), _witness("B", b)])
    whole = count_pairs("p", col)
    pk = pair_keys("勖", "勗")
    assert pk in whole and len(whole) > 1
    some = count_pairs("p", col, keys=frozenset(pk))
    assert list(some) == [pk]
    assert {ab: vars(p) for ab, p in some[pk].items()} == {ab: vars(p) for ab, p in whole[pk].items()}


@pytest.mark.parametrize("a,b", [("摯", "贄"), ("烹", "亨"), ("末", "未"), ("辯", "辨"), ("沈", "沉")])
def test_a_recurring_pair_of_registered_characters_is_a_reading_until_a_scholar_decides(no_accepted, a, b):
    # 古今字, 通假 and 形近 pairs recur as faithfully as any 异体: the alignment alone never types them;
    # 辯/辨 (kSemanticVariant by kMeyerWempe alone) and 沈/沉 (a specialised sense) are not Unihan's one character
    col = collate([_witness("A", _texts(a)), _witness("B", _texts(b))])
    assert {a.type for a in col.apps} == {"substantive"}
    assert [p.status for p in propose([("p", "c", col)])] == ["proposed"]


def test_a_recurring_pair_is_proposed_with_its_count(no_accepted, tmp_path):
    col = collate([_witness("A", BASE), _witness("B", OTHER)])
    assert {a.type for a in col.apps} == {"substantive"}
    props = propose([("pian01", "士冠禮", col)])
    assert [(p.a, p.b, len(p.places), p.count, p.status) for p in props] == [("玉", "玊", 3, 3, "proposed")]
    write_proposals(tmp_path / "variants-proposed.tsv", props)
    rows = [r for r in (tmp_path / "variants-proposed.tsv").read_text(encoding="utf-8").splitlines()
            if not r.startswith("#")]
    assert rows[0].split("\t")[:5] == ["proposed", "玉", "玊", "3", "3"]


def test_too_few_places_or_disagreeing_context_is_not_proposed(no_accepted):
    two = OTHER[:2] + BASE[2:]
    assert propose([("p", "c", collate([_witness("A", BASE), _witness("B", two)]))]) == []
    # a second difference right beside each one: the context does not agree
    near = ["主人玊矛於堂上西面", "賓升玊戈於階下北面", "大夫玊語於庭中東面"] + BASE[3:]
    assert propose([("p", "c", collate([_witness("A", BASE), _witness("B", near)]))]) == []


def test_an_accepted_pair_is_orthographic_with_its_source(no_accepted):
    set_accepted([("玊", "玉")])
    col = collate([_witness("A", BASE), _witness("B", OTHER)])
    assert {(a.type, a.subtype) for a in col.apps} == {("orthographic", "learned")}
    props = propose([("p", "c", col)], Decisions(accept=(("玊", "玉"),)))
    assert [p.status for p in props] == ["accepted"]


def test_a_rejected_pair_stays_substantive_and_is_marked(no_accepted):
    col = collate([_witness("A", BASE), _witness("B", OTHER)])
    props = propose([("p", "c", col)], Decisions(reject=(("玉", "玊"),)))
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
    assert run_build(tmp_path, out, quiet=True, jobs=1, apparatus_json=True) == 0
    assert (out / "variants-proposed.tsv").read_text(encoding="utf-8").startswith("# Variant pairs learned")
    gaiji = [r.split("\t") for r in (out / "gaiji-resolved.tsv").read_text(encoding="utf-8").splitlines()
             if not r.startswith("#")]
    assert {r[1] for r in gaiji} >= {"KR1362"} and all(r[0] in ("resolved", "one place", "conflict", "no parallel")
                                                       for r in gaiji)
    apps = json_variants(json.loads((out / "apparatus" / "pian01.json").read_text(encoding="utf-8")))
    (accepted,) = [a for a in apps if a["readings"].get("SB") == "𣂏"]
    assert (accepted["type"], accepted["subtype"]) == ("orthographic", "learned")
    assert any(a["readings"].get("SB") == "七" and a["type"] == "substantive" for a in apps)


def test_the_related_pairs_keep_two_keys_and_never_hold_a_separated_pair():
    from jiaokan.normalize import tables

    pairs = tables.related_pairs()
    assert ("炤", "照", "unihan:kSemanticVariant<kLau,kMatthews") in pairs
    separated = {frozenset((key(a), key(b))) for a, b, _ in tables.blocked_pairs()}
    separated |= {frozenset((key(p.a), key(p.b))) for p in tables.minor_pairs() if p.level == "key"}
    for a, b, _ in pairs:
        assert key(a) != key(b) and frozenset((key(a), key(b))) not in separated, (a, b)


def test_a_collation_outside_a_build_reads_the_forms_from_its_own_witnesses(no_accepted):
    # jiaokan.collate (and `jiaokan collate`) run the book's pre-pass on the witnesses they are given: two places
    # of 虗 read 虛 are typed, and a pair a previous build left registered (𦸼/藻) is not carried over
    import jiaokan

    set_form_pairs([("𦸼", "藻")])
    col = jiaokan.collate([_witness("A", _texts("虛")), _witness("B", _texts("虗"))])
    assert {(a.type, a.subtype) for a in col.apps} == {("orthographic", "learned")}
    assert form_pairs() == {pair_keys("虛", "虗")}
    one = jiaokan.collate([_witness("ZS", [SHU["pian01"].replace("X", "𦸼")]),
                           _witness("DS", [SHU["pian01"].replace("X", "藻")])])
    assert [a.type for a in one.apps] == ["substantive"]


def test_an_apparatus_read_back_types_the_pairs_it_records(no_accepted, tmp_path):
    # `jiaokan render` re-collates an apparatus from its witness files: the rare forms the build typed from the
    # whole book (none of it in these two witnesses' reach on its own) come back typed as the apparatus says
    import jiaokan
    from jiaokan.collate.apparatus_reader import load_apparatus

    a, b = _witness("A", _texts("虛")), _witness("B", _texts("虗"))
    col = jiaokan.collate([a, b])
    assert {r.type for r in col.apps} == {"orthographic"}
    for w in (a, b):
        jiaokan.to_tei(w, tmp_path / f"{w.meta.siglum}.xml")
    jiaokan.to_tei(col, tmp_path / "app.xml")
    set_form_pairs([])  # another build's registry, or none: what the apparatus records decides
    again, _ = load_apparatus(tmp_path / "app.xml")
    assert [(r.type, r.subtype) for r in again.apps] == [(r.type, r.subtype) for r in col.apps]


def test_every_character_strip_removes_is_ignorable():
    # learned._one_char asks text.strip() for the one character of a reading: sound only if this holds
    import sys

    from jiaokan.collate.learned import _one_char
    from jiaokan.normalize import is_ignorable

    assert all(is_ignorable(chr(c)) for c in range(sys.maxunicode + 1) if chr(c).isspace())
    assert [_one_char(t) for t in (" 玉\u3000", "玉", "。玉", "玉藻", "　", "")] == ["玉", "玉", None, None, None, None]
