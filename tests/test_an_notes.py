"""Tests for the 案 note parser (jiaokan.emend.notes) and the note census (jiaokan.measure.an_census).

The fixture ``seed_an_notes.json`` was annotated by hand from the 46 notes of the two
集释 seed files; the parser must reproduce every field of it.  The shape tests cover
the note language beyond the seeds, each in simplified and traditional script.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
try:
    from jiaokan.emend.notes import KINDS, NoteRecord, parse_note
except ModuleNotFoundError:  # the package may not be installed: use the src tree
    sys.path.insert(0, str(ROOT / "src"))
    from jiaokan.emend.notes import KINDS, NoteRecord, parse_note
from jiaokan.emend.lexicon import EXTRA_FOLD  # noqa: E402
from jiaokan.emend.notes import detect_script, fold_note_text  # noqa: E402
from jiaokan.measure import an_census as census  # noqa: E402

FIXTURE = json.loads((ROOT / "tests" / "fixtures" / "seed_an_notes.json").read_text(encoding="utf-8"))
SEED_NOTES = FIXTURE["notes"]
KANRIPO = ROOT.parent / "shared" / "kanripo"
KANRIPO_JISHI = [KANRIPO / "KR1d0030_005.txt", KANRIPO / "KR1d0030_010.txt"]


# ---------------------------------------------------------------------------
# The 46 seed notes, field by field
# ---------------------------------------------------------------------------

FIELDS = ("kind", "lemma", "reading", "target", "evidence", "scope", "position", "count", "script")


def _field(rec: NoteRecord, name: str):
    return rec.evidence_ids if name == "evidence" else getattr(rec, name)


def test_fixture_has_46_notes():
    assert len(SEED_NOTES) == 46
    assert Counter(n["file"] for n in SEED_NOTES) == {
        "corpus/jishi-juan10-dasheyi-simplified.txt": 21,
        "corpus/jishi-juan05-xiangsheli-traditional.txt": 25,
    }


@pytest.mark.parametrize("path", sorted({n["file"] for n in SEED_NOTES}))
def test_fixture_matches_extraction(path):
    """The fixture lists exactly the notes the census extraction finds, at the same lines."""
    notes, orphans = census.extract_file(ROOT / path)
    assert orphans == []
    found = [(n.line, n.raw) for n in notes]
    expected = [(n["line"], n["raw"]) for n in SEED_NOTES if n["file"] == path]
    assert found == expected


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("note", SEED_NOTES, ids=[f"{Path(n['file']).stem[:13]}:{n['line']}" for n in SEED_NOTES])
def test_seed_note_field(note, field):
    expected = note["expected"]
    if field not in expected:
        if field == "count":  # no number of characters stated in the note
            assert parse_note(note["raw"]).count is None
        return
    assert _field(parse_note(note["raw"]), field) == expected[field]


def test_seed_census():
    kinds = Counter(parse_note(n["raw"]).kind for n in SEED_NOTES)
    assert kinds == {"corruption": 13, "omission": 18, "addition": 6, "variant": 2, "conjecture": 6, "comment": 1}


# ---------------------------------------------------------------------------
# Shapes of the note language, in both scripts
# ---------------------------------------------------------------------------

# (simplified, traditional, expected fields)
SHAPES = [
    # corruption
    ("案比今注疏本讹作北据唐石经及宋本改正", "案比今注疏本訛作北據唐石經及宋本改正",
     dict(kind="corruption", lemma="比", reading="北", target="zhushu", evidence=["tangshijing", "songben"],
          position="preceding", rule="corruption_lemma_first")),
    ("案足以二字今注疏本讹作一已字据宋本订正", "案足以二字今注疏本訛作一已字據宋本訂正",
     dict(kind="corruption", lemma="足以", reading="已", count=2, evidence=["songben"])),
    ("案今注疏本比讹作北据宋本改正", "案今注疏本比訛作北據宋本改正",
     dict(kind="corruption", lemma="比", reading="北", target="zhushu", rule="corruption_wit_first")),
    ("案比监本讹北今改正", "案比監本訛北今改正",
     dict(kind="corruption", lemma="比", reading="北", target="zhushu", evidence=[])),
    ("案乃今注疏本讹作又从宋本改", "案乃今注疏本訛作又從宋本改",
     dict(kind="corruption", lemma="乃", reading="又", evidence=["songben"])),
    ("案比原本误作北今据注疏本订正", "案比原本誤作北今據注疏本訂正",
     dict(kind="corruption", lemma="比", reading="北", target="yuanben", evidence=["zhushu"])),
    ("案此二字今注疏本讹作一已据宋本改", "案此二字今注疏本訛作一已據宋本改",
     dict(kind="corruption", lemma="", reading="一已", position="span:2", count=2)),
    ("案比今注疏本讹作北与唐石经不合据宋本改正", "案比今注疏本訛作北與唐石經不合據宋本改正",
     dict(kind="corruption", lemma="比", reading="北")),
    ("案孰今注疏本作熟据宋本改", "案孰今注疏本作熟據宋本改",
     # the kind follows the note's verb (作): the evidence clause does not make it 讹作
     dict(kind="variant", lemma="孰", reading="熟", rule="variant_lemma_first")),
    ("案今注疏本宾之二字误倒据宋本乙正", "案今注疏本賓之二字誤倒據宋本乙正",
     dict(kind="corruption", lemma="宾之", reading="之宾", count=2, evidence=["songben"], rule="transposition_wit_first")),
    ("案比今注疏本讹作北据宋本改正下比字同", "案比今注疏本訛作北據宋本改正下比字同",
     dict(kind="corruption", lemma="比", scope="below")),
    # omission
    ("案今注疏本脱遂字据唐石经及宋本补", "案今注疏本脫遂字據唐石經及宋本補",
     dict(kind="omission", lemma="遂", reading="", target="zhushu", evidence=["tangshijing", "songben"],
          position="preceding")),
    ("案今注疏本脱与卑二字据宋本补", "案今注疏本脫與卑二字據宋本𥙷",
     dict(kind="omission", lemma="与卑", count=2, evidence=["songben"])),
    ("案今注疏本脱此十四字据宋本补", "案今注疏本脫此十四字據宋本補",
     dict(kind="omission", lemma="", count=14, position="span:14")),
    ("案今注疏本脱而有其二四字据宋本补", "案今注疏本脫而有其二四字據宋本補",
     dict(kind="omission", lemma="而有其二", count=4)),
    ("案今注疏本脱二字据宋本补", "案今注疏本脫二字據宋本補",
     dict(kind="omission", lemma="二", count=None)),
    ("案今注疏本脱也字据宋夲补", "案今注疏本脫也字據宋夲補",
     dict(kind="omission", lemma="也", evidence=["songben"])),
    ("案遂字今注疏本脱据宋本补", "案遂字今注疏本脫據宋本補",
     dict(kind="omission", lemma="遂", target="zhushu", rule="omission_lemma_first")),
    ("案今注疏本此下脱也字据宋本补", "案今注疏本此下脫也字據宋本補",
     dict(kind="omission", lemma="也", position="after")),
    ("案唐石经无遂字", "案唐石經無遂字",
     dict(kind="omission", lemma="遂", target="tangshijing")),
    ("案原本脱遂字今据注疏本补", "案原本脫遂字今據注疏本補",
     dict(kind="omission", lemma="遂", target="yuanben", evidence=["zhushu"])),
    ("案此句今注疏本脱据宋本补", "案此句今注疏本脫據宋本補",
     dict(kind="omission", lemma="", position="sentence")),
    ("案今注疏本脱其字据宋本补又乡饮酒礼疏引此注亦有其字", "案今注疏本脱其字據宋本補又鄕飲酒禮疏引此注亦有其字",
     dict(kind="omission", lemma="其", evidence=["songben", "shu"])),
    ("案今注疏本脱遂字唐石经宋本并有", "案今注疏本脫遂字唐石經宋本並有",
     dict(kind="omission", lemma="遂", evidence=["tangshijing", "songben"])),
    # addition
    ("案此下今注疏本衍还字据唐石经及宋本删", "案此下今注疏本衍還字據唐石經及宋本刪",
     dict(kind="addition", lemma="", reading="还", position="after", evidence=["tangshijing", "songben"])),
    ("案告上今注疏本衍言字据宋本删", "案告上今注疏本衍言字據宋本刪",
     dict(kind="addition", lemma="", reading="言", position="before:告")),
    ("案周南下今注疏本衍召南二字据宋本删", "案周南下今注疏本衍召南二字據宋本刪",
     dict(kind="addition", reading="召南", count=2, position="after:周南")),
    ("案此下今注疏本有也字宋本无", "案此下今注疏本有也字宋本無",
     dict(kind="addition", reading="也", position="after", evidence=["songben"], rule="addition_has")),
    ("案今注疏本周南下有召南二字宋本无", "案今注疏本周南下有召南二字宋本無",
     dict(kind="addition", reading="召南", position="after:周南", evidence=["songben"])),
    ("案今注疏本此句下有也字宋本无", "案今注疏本此句下有也字宋本無",
     dict(kind="addition", reading="也", position="after", evidence=["songben"])),
    ("案今注疏本重也字据宋本删", "案今注疏本重也字據宋本刪",
     dict(kind="addition", reading="也", position="after")),
    # variant
    ("案孰从宋本今注疏本作熟下同", "案孰從宋本今注疏本作熟下同",
     dict(kind="variant", lemma="孰", reading="熟", target="zhushu", evidence=["songben"], scope="below")),
    ("案蘩从唐石经今注疏本作繁", "案蘩從唐石經今注疏本作繁",
     dict(kind="variant", lemma="蘩", reading="繁", evidence=["tangshijing"], scope="here")),
    ("案孰今注疏本作熟下并同", "案孰今注疏本作熟下並同",
     dict(kind="variant", lemma="孰", reading="熟", target="zhushu", scope="below")),
    ("案孰宋本作熟", "案孰宋本作熟",
     dict(kind="variant", lemma="孰", reading="熟", target="songben")),
    ("案释文作北", "案釋文作北",
     dict(kind="variant", lemma="", reading="北", target="shiwen", position="near", rule="witness_reads")),
    # conjecture
    ("案绢当作縜考工记曰縜寸焉", "案絹當作縜考工記曰縜寸焉",
     dict(kind="conjecture", lemma="绢", reading="縜", target="self", evidence=["kaogongji"])),
    ("案敖继公云进当作退乡射云揖退是也", "案敖繼公云進當作退鄉射云揖退是也",
     dict(kind="conjecture", lemma="进", reading="退", target="self", evidence=["aojigong", "xiangsheli"])),
    ("案三耦误敖继公云三当作二二耦谓次耦下耦也", "案三耦誤敖繼公云三當作二二耦謂次耦下耦也",
     dict(kind="conjecture", lemma="三", reading="二", evidence=["aojigong"])),
    ("案绢疑縜字之讹", "案絹疑縜字之訛",
     dict(kind="conjecture", lemma="绢", reading="縜", target="self")),
    ("案进当从宋本作退", "案進當從宋本作退",
     dict(kind="conjecture", lemma="进", reading="退", target="self", evidence=["songben"], rule="conjecture_follow")),
    ("案敖继公云阼阶上告主人当北面东似衍文", "案敖繼公云阼階上告主人當北面東似衍文",
     dict(kind="conjecture", lemma="东", reading="", target="self", evidence=["aojigong"], rule="conjecture_delete")),
    ("案也字疑衍", "案也字疑衍",
     dict(kind="conjecture", lemma="也", reading="", target="self")),
    ("案此句拾取矢三字当是因上文衍", "案此句拾取矢三字當是因上文衍",
     dict(kind="conjecture", lemma="拾取矢", reading="", count=3)),
    ("案此下疑脱也字", "案此下疑脫也字",
     dict(kind="conjecture", lemma="", reading="也", target="self", position="after", rule="conjecture_insert")),
    ("案宾之二字误倒", "案賓之二字誤倒",
     dict(kind="conjecture", lemma="宾之", reading="之宾", rule="conjecture_transpose")),
    # comment
    ("案唐石经作宾席之前当是石经误倒", "案唐石經作賓席之前當是石經誤倒",
     dict(kind="comment", lemma="", reading="宾席之前", target="tangshijing", position="near", rule="witness_judged")),
    ("案敖继公云进当作退非是", "案敖繼公云進當作退非是",
     dict(kind="comment", lemma="进", reading="退", evidence=["aojigong"], rule="conjecture_rejected")),
    ("案原本作北今改正", "案原本作北今改正",
     dict(kind="variant", lemma="", reading="北", target="yuanben", position="near", rule="witness_reads")),
    ("案此字未详", "案此字未詳",
     dict(kind="comment", lemma="", reading="", target="", position="none", rule="unparsed")),
    # lacuna
    ("案此下原本缺", "案此下原本闕",
     dict(kind="lacuna", target="yuanben", position="after")),
    ("案原本阙三字", "案原本闕三字",
     dict(kind="lacuna", target="yuanben", count=3)),
    ("案此下疑有脱文", "案此下疑有脫文",
     dict(kind="lacuna", position="after")),
    ("案此处原本漫漶", "案此處原本漫漶",
     dict(kind="lacuna", target="yuanben", position="after")),
]



@pytest.mark.parametrize("script", ["simplified", "traditional"])
@pytest.mark.parametrize("shape", SHAPES, ids=[s[0] for s in SHAPES])
def test_shape(shape, script):
    simplified, traditional, expected = shape
    raw = simplified if script == "simplified" else traditional
    rec = parse_note(raw, script=script)
    for name, value in expected.items():
        if script == "traditional" and isinstance(value, str) and name in ("lemma", "reading"):
            value = _to_trad(value, traditional)
        assert _field(rec, name) == value, (name, rec)
    assert rec.script == script


def _to_trad(value: str, traditional_note: str) -> str:
    """The expected lemma/reading in the traditional note: the same characters, as written there.

    The two versions of each shape are aligned character for character (same length), so
    the traditional lemma is cut from the same place as the simplified one.
    """
    simplified = next(s for s, t, _ in SHAPES if t == traditional_note)
    if not value:
        return value
    i = simplified.find(value)
    if i >= 0 and len(simplified) == len(traditional_note):
        return traditional_note[i : i + len(value)]
    if value[::-1] in simplified:  # a transposition's reading
        j = simplified.find(value[::-1])
        return traditional_note[j : j + len(value)][::-1]
    return value


def test_lemma_and_reading_keep_the_witness_characters():
    rec = parse_note("案孰從宋本今注疏本作熟下同")
    assert (rec.lemma, rec.reading, rec.target_name, rec.evidence[0].name) == ("孰", "熟", "今注疏本", "宋本")
    rec = parse_note("案今注疏本脱也字據宋夲補")
    assert rec.evidence[0].name == "宋夲" and rec.evidence[0].id == "songben"
    rec = parse_note("案俟今注疏本訛作𠊱據宋本改正")
    assert rec.reading == "𠊱"


def test_gaiji_entity_is_one_character():
    rec = parse_note("案&KR0925;今注疏本訛作眉據宋本改正")
    assert (rec.kind, rec.lemma, rec.reading) == ("corruption", "&KR0925;", "眉")


def test_unjoined_transcription_is_joined():
    rec = parse_note("(案比今注疏/本訛作北據)¶\n(唐石經及/宋本改正)")
    assert rec.raw == "案比今注疏本訛作北據唐石經及宋本改正"
    assert (rec.kind, rec.lemma, rec.reading) == ("corruption", "比", "北")


def test_two_claims_first_drives_the_rest_in_more():
    rec = parse_note("案比今注疏本訛作北據唐石經及宋本改正又告上今注疏本衍言字據宋本刪")
    assert (rec.kind, rec.lemma, rec.reading, rec.evidence_ids) == ("corruption", "比", "北", ["tangshijing", "songben"])
    assert len(rec.more) == 1
    m = rec.more[0]
    assert (m.kind, m.reading, m.position, m.evidence_ids) == ("addition", "言", "before:告", ["songben"])
    assert m.raw == "告上今注疏本衍言字據宋本刪"


def test_second_claim_after_xiawen_and_shared_evidence():
    rec = parse_note("案比今注疏本訛作北下文北今注疏本訛作比並據宋本改正")
    assert (rec.kind, rec.lemma, rec.reading, rec.evidence_ids) == ("corruption", "比", "北", ["songben"])
    (m,) = rec.more
    assert (m.kind, m.lemma, m.reading, m.position, m.evidence_ids) == ("corruption", "北", "比", "following", ["songben"])


def test_argument_text_is_kept_in_remark():
    rec = parse_note("案今注疏本脱敢字據宋本補考疏内引注文亦有敢字")
    assert rec.remark == "考疏内引注文亦有敢字"
    rec = parse_note("案三耦誤敖繼公云三當作二二耦謂次耦下耦也")
    assert "三耦誤" in rec.remark and "二耦謂次耦下耦也" in rec.remark


def test_layer_prefix():
    rec = parse_note("案經文比今注疏本訛作北據宋本改正")
    assert (rec.layer, rec.lemma, rec.reading) == ("jing", "比", "北")


def test_to_dict_is_json_and_record_is_frozen():
    rec = parse_note("案比今注疏本讹作北据唐石经及宋本改正")
    d = rec.to_dict()
    assert json.loads(json.dumps(d, ensure_ascii=False)) == d
    assert d["evidence"] == [{"id": "tangshijing", "name": "唐石经"}, {"id": "songben", "name": "宋本"}]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.kind = "comment"  # type: ignore[misc]


# ---------------------------------------------------------------------------
# Robustness
# ---------------------------------------------------------------------------

NOTE_ALPHABET = list("今注疏本讹訛作脱脫衍有无無据據从從宋夲唐石经經及补補删刪改正订订当當此下上同字二三四十敖继公云曰考内又原缺闕疑似误誤倒比北遂也者之")
NOTE_ALPHABET += ["𥙷", "&KR0925;", "/", "(", ")", "¶"]


def _check_record(rec: NoteRecord) -> None:
    assert rec.kind in KINDS
    assert rec.scope in ("here", "below")
    assert isinstance(rec.position, str) and rec.position
    json.dumps(rec.to_dict(), ensure_ascii=False)
    for sub in rec.more:
        _check_record(sub)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_never_raises_on_arbitrary_text(tail):
    rec = parse_note("案" + tail)
    _check_record(rec)
    assert rec.rule == "unparsed" or not rec.rule.startswith("error")


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(NOTE_ALPHABET), max_size=40))
def test_never_raises_on_note_like_text(chars):
    rec = parse_note("案" + "".join(chars))
    _check_record(rec)
    assert not rec.rule.startswith("error")
    # spans are cut from the note itself (a transposition reverses its lemma)
    assert rec.lemma in rec.raw
    if rec.rule != "conjecture_transpose":
        assert rec.reading in rec.raw


# ---------------------------------------------------------------------------
# Extraction and census
# ---------------------------------------------------------------------------


def test_extraction_joins_groups_over_breaks():
    text = (
        "司射東面于大夫之西比耦大夫與大夫(案比今注疏/本訛作北據)¶\n"
        "<pb:KR1d0030_WYG_010-1b>¶\n"
        "(唐石經及/宋本改正)命上射曰某御于子\n"
        " 郑注兴酬士者(案今注疏/本脱也字)\n"
        "卷十 第 28b 页 WYG0103-0206b.png\n"
        " (据宋/本补)\n"
        "乃宣周南之化(案甲)(案乙)文(丙)\n"
    )
    notes, orphans = census.extract_notes(text, "t")
    assert [(n.line, n.raw, n.groups) for n in notes] == [
        (1, "案比今注疏本訛作北據唐石經及宋本改正", 2),
        (4, "案今注疏本脱也字据宋本补", 2),
        (7, "案甲", 1),
        (7, "案乙", 1),
    ]
    assert [(o.line, o.raw) for o in orphans] == [(7, "丙")]


kanripo_only = pytest.mark.skipif(not all(p.exists() for p in KANRIPO_JISHI), reason="Kanripo samples absent")


@kanripo_only
def test_kanripo_census_few_comments():
    """Only real comments are left as ``comment`` in the two Kanripo chapters."""
    comments = []
    total: Counter = Counter()
    for path in KANRIPO_JISHI:
        notes, orphans = census.extract_file(path)
        assert orphans == []
        for n in notes:
            rec = parse_note(n.raw)
            total[rec.kind] += 1
            if rec.kind == "comment":
                comments.append((path.name, n.line, rec.rule))
    assert sum(total.values()) == 46
    assert comments == [("KR1d0030_005.txt", 102, "witness_judged")]  # 唐石經作賓席之前…當是石經誤倒


@kanripo_only
@pytest.mark.parametrize("kanripo, seed", [
    ("KR1d0030_005.txt", "corpus/jishi-juan05-xiangsheli-traditional.txt"),
    ("KR1d0030_010.txt", "corpus/jishi-juan10-dasheyi-simplified.txt"),
])
def test_kanripo_notes_agree_with_seed_fixture(kanripo, seed):
    """The Kanripo chapters hold the same notes as the seeds: same records (script aside)."""
    notes, _ = census.extract_file(KANRIPO / kanripo)
    expected = [n["expected"] for n in SEED_NOTES if n["file"] == seed]
    assert len(notes) == len(expected)
    for n, exp in zip(notes, expected):
        rec = parse_note(n.raw)
        assert rec.script == "traditional"
        for name in ("kind", "target", "evidence", "scope", "position", "count"):
            assert _field(rec, name) == exp.get(name), (n.line, name)
        assert len(rec.lemma) == len(exp["lemma"]) and len(rec.reading) == len(exp["reading"]), n.line


def test_census_script_runs(tmp_path, capsys):
    f = tmp_path / "x.txt"
    f.write_text("比耦(案比今注疏/本讹作北据)\n(宋本改正)大夫(案此字未详)\n", encoding="utf-8")
    counts = census.census([str(f)])
    out = capsys.readouterr().out
    assert counts[str(f)] == Counter({"corruption": 1, "comment": 1})
    assert f"{f}:1" in out and "census" in out


def test_counted_lemma_of_a_conjecture():
    """``X Y二字当作Z W``: the count closes the lemma (not 事二)."""
    for raw in ("案于事二字当作於是", "案于事二字當作於是"):
        r = parse_note(raw)
        assert (r.kind, r.lemma, r.reading) == ("conjecture", "于事", "於是")


@pytest.mark.parametrize("path", [
    "corpus/jishi-juan10-dasheyi-simplified.txt",
    "corpus/jishi-juan05-xiangsheli-traditional.txt",
    "../shared/kanripo/KR1d0030_005.txt",
    "../shared/kanripo/KR1d0030_010.txt",
])
def test_readers_join_notes_as_the_independent_extraction_does(path):
    """The census script reads notes straight from the raw text; the readers must agree, note for note."""
    from jiaokan.readers import read_witness

    f = ROOT / path
    if not f.is_file():
        pytest.skip(f"{f} not available")
    found, _ = census.extract_file(f)
    w = read_witness(f)
    assert [n.text for n in w.notes()] == [n.raw for n in found]
    assert [n.loc.line for n in w.notes()] == [n.line for n in found]


# ---------------------------------------------------------------------------
# The note fold (script conversion comes from jiaokan.normalize.script)
# ---------------------------------------------------------------------------

_HAN = st.characters(min_codepoint=0x3400, max_codepoint=0x9FFF)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.one_of(_HAN, st.sampled_from(sorted(EXTRA_FOLD)), st.sampled_from("/()¶ 　")), max_size=30))
def test_note_fold_keeps_every_position_and_is_stable(text):
    folded = fold_note_text(text)
    assert len(folded) == len(text)  # spans found in the folded copy are cut from the original
    assert fold_note_text(folded) == folded
    assert detect_script(folded) in ("simplified", "unknown")


def test_note_fold_reads_the_odd_forms_as_the_grammar_words():
    assert fold_note_text("宋夲據唐石經改正") == "宋本据唐石经改正"
    assert detect_script("案比今注疏本讹作北") == "simplified"
    assert detect_script("案比今注疏本訛作北") == "traditional"
    assert detect_script("案于云") == "unknown"  # shared forms prove nothing
