"""The evidence of the 案 verdicts, and the claims about a 宋本 and the 释文 (issue 13).

On real 卷 pairs of ../shared/kanripo (集释 卷 against the 注疏 and the 四部丛刊 of its 篇):
every verdict carries the readings of every collated witness, the witness that decided, its
rule and a sentence; a 宋本 claim is checked against the 四部丛刊 and a 释文 claim against the
注疏's 音义, on notes checked by hand against the raw files.  The records round-trip through
JSON (hypothesis) and CSV.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jiaokan.emend.apply import emend
from jiaokan.emend.evidence import (claim_evidence, evidence_from_row, parse_readings_cell, place_label,
                                    readings_cell)
from jiaokan.emend.report import csv_text, to_json, verdicts_by_note
from jiaokan.emend.verdict import KINDS, UNCOVERED, VERDICTS, ClaimEvidence, NoteVerdict
from jiaokan.emend.witnesses import headwords, variants

from .conftest import KANRIPO

#: 集释 卷 → (注疏 卷, 四部丛刊 卷) of its 篇 (../shared/kanripo/README.md)
PAIRS = {"010": ("007", "007"), "002": ("002", "002"), "012": ("008", "008")}


def _read(stem: str, siglum: str):
    from jiaokan.model import WitnessMeta
    from jiaokan.readers import read_witness

    path = KANRIPO / f"{stem}.txt"
    return read_witness(path, WitnessMeta(siglum=siglum, file=str(path), format=""))


@pytest.fixture(scope="module")
def results():
    if not (KANRIPO / "KR1d0030_010.txt").is_file():
        pytest.skip("../shared/kanripo not available")
    return {js: emend(_read(f"KR1d0030_{js}", "JS"), _read(f"KR1d0028_{zs}", "ZS"), others=[_read(f"KR1d0026_{sb}", "SB")])
            for js, (zs, sb) in PAIRS.items()}


def _ev(res, cid) -> ClaimEvidence:
    return next(e for e in claim_evidence(res) if e.id == cid)


def test_every_verdict_carries_its_evidence(results):
    n = 0
    for res in results.values():
        sigla = set(res.collation.witnesses)
        assert sigla == {"JS", "ZS", "SB"}
        for ev in claim_evidence(res):
            assert ev.why and "\n" not in ev.why and ev.rule
            if ev.verdict is None:
                continue
            n += 1
            if "@shu:" in ev.id:  # a check of what the note says of the 疏: that witness's 疏 only
                assert set(ev.readings) == {ev.witness} and ev.target == "shu", ev.id
                continue
            assert set(ev.readings) == sigla, ev.id  # every witness of the collation, by siglum
            assert ev.witness in sigla and ev.witness != "JS", ev.id
            assert ev.anchor is not None and "【" in ev.anchor
            assert ev.place is not None and ev.place.startswith("卷"), ev.id
            if (ev.reading or "").startswith("在") and ev.readings["JS"].startswith("在"):
                continue  # a place claim: each witness's place of the text (test below)
            assert ev.readings["JS"] == (ev.lemma or "")
    assert n > 60


def test_no_verdict_contradicts_its_own_evidence(results):
    """The rule of the page's truth check (render/truth.py), on the 案 stage's own records: a decided
    claim's table shows the deciding witness reading what the note says exactly when it is confirmed."""
    from jiaokan.render.truth import claim_problem

    problems = [f"{ev.id}: {claim_problem(ev)}" for res in results.values() for ev in claim_evidence(res)
                if claim_problem(ev)]
    assert problems == []


def test_a_place_claim_shows_where_each_witness_sets_the_text(results):
    # 案此注今注疏本在下不敢忘命句之下 (KR1d0030_002; KR1d0028_002: 不敢忘命注勖勉也…): the evidence is the
    # place, not the characters at the anchor (the moved 注 differs of its own: 帥道婦 / 帥婦道)
    ev = _ev(results["002"], "JS2.142.zhu1.an2")
    assert (ev.verdict, ev.reading, ev.readings["ZS"]) == ("confirmed", "在「不敢忘命」之下", "在「不敢忘命」之下")
    assert ev.readings["JS"] == "在「若則有常」之下"
    assert "不敢忘命" in ev.sentence("zh-Hans") and "之下" in ev.sentence("zh-Hans")


def test_a_note_read_in_the_running_text_shows_that_reading(results):
    # 案經文卒爵皆拜下今注疏本有婦拜見上篇…凡二十四字: the 注疏 has them as a 注 of its own
    ev = _ev(results["002"], "JS2.60.zhu1.an1")
    assert (ev.verdict, ev.rule) == ("confirmed", "agrees-running")
    assert ev.readings["ZS"] == ev.reading == "婦拜見上篇見母章此篇婦見奠菜一章及内則女拜尚右手"


def test_an_addition_quoted_with_a_slip_is_uncertain_and_says_so(results):
    # 案此下今注疏本有壻悉訃反… : the 注疏 has 壻悉計反… (訃/計): not proved character for character
    ev = _ev(results["002"], "JS2.100.zhu1.an1")
    assert (ev.verdict, ev.rule, ev.readings["ZS"]) == ("uncertain", "nearly", "壻悉計反從士從胥俗作婿女之夫")
    assert "一字之差" in ev.sentence("zh-Hans") and "a character apart" in ev.sentence("en")


def test_the_evidence_of_a_claim_about_the_zhushu(results):
    ev = _ev(results["010"], "JS10.7.jing1.an1")  # 案比今注疏本訛作北據唐石經及宋本改正
    assert (ev.kind, ev.target, ev.verdict, ev.witness, ev.rule) == ("corruption", "zhushu", "confirmed", "ZS", "agrees")
    assert ev.readings == {"JS": "比", "ZS": "北", "SB": "比"}
    assert ev.place == "卷十 葉一b 行5"  # 司射東面于大夫之西比耦 is line 5 of page 1b (KR1d0030_010.txt:19)
    assert "唐石經" in ev.why  # the evidence no witness here holds is named


def test_a_songben_claim_checked_against_the_sibu_congkan(results):
    res = results["010"]
    ok = _ev(res, "JS10.7.jing1.an1@songben")  # 據…宋本改正: the 宋本 reads 比, as this text
    assert (ok.target, ok.verdict, ok.witness, ok.rule, ok.reading) == ("songben", "confirmed", "SB", "songben-agrees", "比")
    # 案二今注疏本訛作三據宋本訂正: the 四部丛刊 (KR1d0026_007, 司射…三耦) reads 三, as the 注疏
    bad = _ev(res, "JS10.105.jing1.an1@songben")
    assert (bad.verdict, bad.witness, bad.rule) == ("contradicted", "SB", "songben-as-target")
    assert bad.readings["SB"] == "三" and "明 reprint" in bad.why
    # 此下今注疏本衍還字據唐石經及宋本刪: the 宋本 has nothing there
    pt = _ev(res, "JS10.19.jing1.an1@songben")
    assert (pt.verdict, pt.readings["SB"], pt.readings["ZS"]) == ("confirmed", "", "還")


def test_a_shiwen_claim_checked_against_the_yinyi(results):
    res = results["002"]
    # 案見釋文作覸云今本亦作見, a claim about the 释文 itself: the 注疏's 音義 has 覸古遍反 (KR1d0028_002)
    ev = _ev(res, "JS2.65.zhu1.an1")
    assert not any(e.id.startswith("JS2.65.zhu1.an1@") for e in claim_evidence(res))
    assert (ev.target, ev.verdict, ev.witness, ev.rule, ev.reading) == ("shiwen", "confirmed", "ZS", "shiwen-headword", "覸")
    assert "覸古遍反" in ev.why
    note = verdicts_by_note(res)["JS2.65.zhu1.an1"]  # no claim about the 注疏: the 释文's verdict is the note's
    assert note.verdict == "confirmed" and "by ZS (shiwen)" in note.summary
    # 案曏各本作鄉今從釋文…訂正: no gloss at the place, but an earlier one says 曏音向下同
    later = _ev(results["012"], "JS12.5.zhu1.an1@shiwen")
    assert (later.verdict, later.rule) == ("confirmed", "shiwen-below") and "曏音向下同" in later.why
    # what decided is the headword of ZS's 音義 (曏), not ZS's text at the place (鄉, the main claim's table)
    assert later.readings["ZS"] == "曏" and _ev(results["012"], "JS12.5.zhu1.an1").readings["ZS"] == "鄉"


def test_gloss_headwords_and_variants():
    assert headwords("辟音避", "辟") == [0] and headwords("辟音避", "避") == []  # 音X is a sound gloss
    assert headwords("復扶又反", "又") == []  # a 反切 character
    g = "段丁亂反本又作腶同脯也"
    assert headwords(g, "段") == [0] and headwords(g, "腶") == [] and variants(g, "腶") == [7]
    assert headwords("簠音甫或作簋外圓内方曰簠内圓外方曰簋", "簋") == []  # after 作 and 曰


def test_note_verdict_carries_the_claims(results):
    res = results["010"]
    v = verdicts_by_note(res)["JS10.7.jing1.an1"]
    assert [c.id for c in v.claims] == ["JS10.7.jing1.an1", "JS10.7.jing1.an1@songben"]
    data = json.loads(json.dumps(to_json(res), ensure_ascii=False))
    assert data["by_note"]["JS10.7.jing1.an1"]["claims"][1]["witness"] == "SB"
    assert NoteVerdict.from_dict(data["by_note"]["JS10.7.jing1.an1"]) == v


def test_csv_rows_read_back_as_the_evidence(results):
    for res in results.values():
        rows = list(csv.DictReader(io.StringIO(csv_text(res))))
        assert [evidence_from_row(r) for r in rows] == claim_evidence(res)


def test_place_labels():
    assert place_label("010-1b", 19, {"010-1b": 15}) == "卷十 葉一b 行5"
    assert place_label("1a", 3, None, "5") == "卷五 葉一a line 3"
    assert place_label("014-105a", None) == "卷十四 葉一百〇五a"
    assert place_label("WYG0103-0192c.png", 4) == "WYG0103-0192c.png line 4"
    assert place_label(None, None) is None


_text = st.text(alphabet="比北宋本之也∅—=; a", max_size=6)
_evidence = st.builds(
    ClaimEvidence,
    id=st.text(alphabet="JS0123.an~@", min_size=1, max_size=12),
    kind=st.sampled_from(KINDS),
    lemma=st.none() | _text,
    reading=st.none() | _text,
    target=st.sampled_from(["zhushu", "songben", "shiwen", "self", ""]),
    verdict=st.none() | st.sampled_from(VERDICTS),
    rule=st.text(max_size=12),
    why=st.text(max_size=30),
    anchor=st.none() | _text,
    place=st.none() | st.text(max_size=10),
    witness=st.none() | st.sampled_from(["ZS", "SB"]),
    readings=st.dictionaries(st.sampled_from(["JS", "ZS", "SB"]), _text | st.just(UNCOVERED)),
)


@settings(max_examples=150, deadline=None)
@given(_evidence)
def test_claim_evidence_json_round_trip(ev):
    assert ClaimEvidence.from_dict(json.loads(json.dumps(ev.to_dict(), ensure_ascii=False))) == ev


@settings(max_examples=60, deadline=None)
@given(st.lists(_evidence, max_size=3), st.sampled_from(KINDS), st.none() | st.sampled_from(VERDICTS))
def test_note_verdict_json_round_trip(claims, kind, verdict):
    v = NoteVerdict(kind, verdict, "s", None, tuple(claims))
    assert NoteVerdict.from_dict(json.loads(json.dumps(v.to_dict(), ensure_ascii=False))) == v


def test_the_json_says_each_thing_once_and_reads_back_whole():
    """The English sentence is ``why`` (not written twice); a claim implied by the one before it leaves out the
    place, the anchor and the readings it shares with it; reading the record gives every one back."""
    said = {"zh-Hans": "宋本作「比」，与案语合。", "zh-Hant": "宋本作「比」，與案語合。", "en": "SB reads 比."}
    first = ClaimEvidence("JS1.an1", "corruption", "比", "北", "zhushu", "confirmed", "agrees", "ZS reads 北.",
                          "司射【比】耦", "卷十 葉一b 行5", "ZS", {"JS": "比", "ZS": "北", "SB": "比"},
                          {**said, "en": "ZS reads 北."})
    implied = replace(first, id="JS1.an1@songben", target="songben", reading="比", rule="songben-agrees",
                      why="SB reads 比.", witness="SB", sentences=said)
    v = NoteVerdict("corruption", "confirmed", "s", "北", (first, implied))
    data = v.to_dict()
    assert "en" not in data["claims"][0]["sentences"] and "en" not in data["claims"][1]["sentences"]
    assert not {"anchor", "place", "readings"} & set(data["claims"][1]) and data["claims"][0]["anchor"] == "司射【比】耦"
    back = NoteVerdict.from_dict(json.loads(json.dumps(data, ensure_ascii=False)))
    assert back == v and [c.sentences for c in back.claims] == [c.sentences for c in v.claims]
    assert back.claims[1].sentence("en") == "SB reads 比." and back.claims[1].readings["SB"] == "比"


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(["JS", "ZS", "SB", "X1"]), st.text(alphabet="比北之也—", max_size=5)))
def test_readings_cell_round_trip(readings):
    assert parse_readings_cell(readings_cell(readings)) == readings


def test_missing_members_are_tolerated_and_bad_ones_named():
    ev = ClaimEvidence.from_dict({"id": "JS1.1.zhu1.an1", "kind": "omission"})
    assert (ev.verdict, ev.readings, ev.witness) == (None, {}, None)
    assert NoteVerdict.from_dict({"kind": "comment", "verdict": None}).claims == ()
    with pytest.raises(ValueError, match="claim JS1: readings must map sigla to strings"):
        ClaimEvidence.from_dict({"id": "JS1", "kind": "omission", "readings": {"ZS": 1}})
    with pytest.raises(ValueError, match="claims must be a list"):
        NoteVerdict.from_dict({"kind": "comment", "claims": "x"})


def test_cli_emend_with_the_sibu_congkan(tmp_path, capsys):
    from jiaokan.cli import main

    if not (KANRIPO / "KR1d0030_010.txt").is_file():
        pytest.skip("../shared/kanripo not available")
    code = main(["emend", str(KANRIPO / "KR1d0030_010.txt"), "--against", str(KANRIPO / "KR1d0028_007.txt"),
                 "--with", str(KANRIPO / "KR1d0026_007.txt"), "--json", str(tmp_path / "e.json"),
                 "--csv", str(tmp_path / "e.csv"), "-q"])
    assert code == 0
    data = json.loads((tmp_path / "e.json").read_text(encoding="utf-8"))
    claims = [c for v in data["by_note"].values() for c in v["claims"]]
    assert len({c["witness"] for c in claims if c["target"] == "songben" and c["verdict"]}) == 1
    rows = list(csv.DictReader(io.StringIO((tmp_path / "e.csv").read_text(encoding="utf-8-sig"))))
    assert len(rows) == len(claims) and all(len(parse_readings_cell(r["readings"])) == 3 for r in rows if r["verdict"])
    code = main(["emend", str(KANRIPO / "KR1d0030_010.txt"), "--with", str(KANRIPO / "KR1d0030_010.txt"), "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "is taken by another witness" in err and len(err.strip().splitlines()) == 1


def test_witness_claims_measure(results, tmp_path):
    from jiaokan.errors import InputError
    from jiaokan.measure.witness_claims import load_evidence, main, tally

    p = tmp_path / "e10.json"
    p.write_text(json.dumps(to_json(results["010"]), ensure_ascii=False), encoding="utf-8")
    ev = load_evidence([p])
    t = tally(ev)
    assert set(t) == {(10, "songben")}  # every 宋本 claim of 卷十 placed in its 卷
    assert sum(t[(10, "songben")].values()) == sum(1 for e in ev if e.target == "songben")
    out = io.StringIO()
    assert main([str(tmp_path)], out=out) == 0 and "songben-as-target" in out.getvalue()
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(InputError, match="no by_note member"):
        load_evidence([bad])
