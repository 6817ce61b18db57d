"""The note shapes of 卷十五–二十四 (issue #20, classes 1, 2, 3, 4, 7, 9): each real note read as meant.

Each row is (note, kind, rule, lemma, reading, target); the comments say which 卷 and class.
"""

from __future__ import annotations

import pytest

from jiaokan.emend.notes import parse_note


@pytest.mark.parametrize("note, kind, rule, lemma, reading, target", [
    # class 1: trailing words never glue onto the reading
    ("案孰今注疏本作熟古通用孰", "variant", "variant_lemma_first", "孰", "熟", "zhushu"),  # 卷十五
    ("案女子各本訛作子女杜佑通典兩引鄭注女子子者女子也今據以訂正", "corruption", "corruption_lemma_first",
     "女子", "子女", "zhuben"),  # 卷十七: a source (杜佑通典) ends the reading
    ("案纍即累今注疏本訛作壘", "corruption", "corruption_lemma_first", "纍", "壘", "zhushu"),  # 卷十七: a gloss
    # class 9: notes that had no claim at all
    ("案柱唐石經與此同今注疏本訛作拄", "corruption", "corruption_lemma_first", "柱", "拄", "zhushu"),  # 卷十七
    ("案黻原本今注疏本皆作黼張淳儀禮識誤云監杭本黼作黻", "variant", "variant_lemma_first", "黻", "黼", "yuanben"),
    ("案為父後者為之服期各本脫一為字今據文義補", "omission", "omission_wit_first", "為", "", "zhuben"),  # 卷十八
    ("案柲詩作閉", "variant", "source_reads", "柲", "閉", "shijing"),  # 卷二十一
    ("案此二字有脫誤當云石百二十斤", "conjecture", "conjecture_span", "", "石百二十斤", "self"),  # 卷十七
    ("案此下原本空一字應是也字", "lacuna", "lacuna", "", "", "yuanben"),  # 卷十七
    ("案敖繼公云西下脫襲字", "conjecture", "conjecture_insert", "", "襲", "self"),  # 卷十六
    ("案以上乃本節經文之傳", "comment", "identified", "", "", ""),  # 卷十八
    # class 7: a slipped formula character (宇 for 字)
    ("案此下今注疏本有也宇", "addition", "addition_has", "", "也", "zhushu"),  # 卷二十三
    # the editors' argument after the reading: 刪去下之字亦非也 is theirs, not the 注疏's text
    ("案今注疏本作赤縁之謂褖刪去下之字亦非也", "corruption", "witness_reads", "", "赤縁之謂褖", "zhushu"),  # 卷二十
    # class 4: a stretch named by its first words and its length
    ("案凡天子諸侯至此五十四字注疏本接上注受猶承也之下", "variant", "transposition_moved", "", "", "zhushu"),
])
def test_real_notes_of_the_unseen_juan(note, kind, rule, lemma, reading, target):
    r = parse_note(note)
    assert (r.kind, r.rule, r.lemma, r.reading, r.target) == (kind, rule, lemma, reading, target), r


def test_a_co_witness_between_lemma_and_witness_is_evidence():
    r = parse_note("案柱唐石經與此同今注疏本訛作拄")
    assert [s.id for s in r.evidence] == ["tangshijing"]


def test_witnesses_named_side_by_side_are_all_targets():
    r = parse_note("案黻原本今注疏本皆作黼")
    assert r.target == "yuanben" and r.also == ("zhushu",)


def test_a_slip_is_recorded():
    assert parse_note("案此下今注疏本有也宇").slips == ("宇→字",)
    assert parse_note("案此下今注疏本有也字").slips == ()


def test_a_real_lemma_is_never_repaired():
    # 宇 is a word of the 儀禮 (宇檐也): a note that parses as written keeps it
    r = parse_note("案宇今注疏本訛作寓")
    assert r.lemma == "宇" and r.slips == ()


@pytest.mark.parametrize("note, span, between", [
    # class 3: place claims name the parts of the passage, checked by position
    ("案此注今注疏本在經文下𫝊曰上", "piece", ("jing", "zhuan")),  # 卷十九
    ("案以上注文今注疏本在經之下傳曰之上", "piece", ("jing", "zhuan")),  # 卷十七
    ("案舊讀以下三十二字各本訛在經之下傳曰之上文勢遂不相貫今改正", "span:32", ("jing", "zhuan")),  # 卷十八
])
def test_place_claims(note, span, between):
    r = parse_note(note)
    assert r.rule == "placed_between" and r.position == span and r.between == between


def test_a_trailing_source_quotation_is_a_comment():
    r = parse_note("案周禮大宰職疏内引此注有左右齻及中央象齒堅九字")
    assert r.kind == "comment" and r.rule == "source_quotes"


def test_a_gap_named_by_a_parallel_quotation_is_inserted_where_it_stands():
    r = parse_note("案敖繼公云喪大記引此云旁各一筐則是此經脱一各字也各一黍稷也黍當在南")
    assert (r.kind, r.reading, r.position) == ("conjecture", "各", "after:旁")


def test_a_co_witness_that_is_our_zhushu_makes_the_claim_about_it():
    """卷十五: 脆原本訛作脃今注疏本同 — the 注疏 reads 脃 too, so the claim is checked against it."""
    r = parse_note("案脆原本訛作脃今注疏本同據宋本改正")
    assert r.target == "yuanben" and r.also == ("zhushu",)


def test_this_sentence_below_is_a_place():
    r = parse_note("案今注疏本脫主字又此句之下有也字").more[0]  # 卷十七
    assert (r.kind, r.reading, r.position) == ("addition", "也", "after")
