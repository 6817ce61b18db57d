"""The 案 note formulas of issue 13, pinned on real notes of the Kanripo 集释 (卷 and note id given).

Two levels: the grammar (what a note says, from its text alone, quoted here from
../shared/kanripo/KR1d0030_0NN.txt) and the verdict (anchored in the real 集释 卷 and
checked against the real 注疏 卷 of its 篇, paired as scripts/an_check_kanripo.py pairs them).
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from jiaokan.emend.notes import parse_note
from tests.conftest import kanripo_file

# ---------------------------------------------------------------------------
# 1. the reading stops at counts, scope words and following clauses
# ---------------------------------------------------------------------------


def test_reading_stops_at_a_following_clause_and_the_scope_word():
    r = parse_note("案絜今注疏本作潔古本皆作絜後同")  # 卷二 JS2.58.zhu1.an1
    assert (r.lemma, r.reading, r.target, r.scope) == ("絜", "潔", "zhushu", "below")
    assert [e.id for e in r.evidence] == ["guben"]


def test_reading_stops_at_the_count_fan():
    r = parse_note("案此下今注疏本有壻悉訃反從士從胥俗作婿女之夫凡十四字乃釋文前壻之二字下音義誤入于此")  # 卷二 JS2.100
    assert (r.kind, r.reading, r.position) == ("addition", "壻悉訃反從士從胥俗作婿女之夫", "after")
    assert not r.more  # 乃… is the editors' judgement, not a further claim


def test_scope_word_zhu_tong_ends_a_conjecture():
    r = parse_note("案禮賓之禮當作醴注同")  # 卷十二 JS12.7.jing1.an1
    # 注同: the 注 that follow, not every later passage (as 下同, it changed 45 禮 of 聘禮 to 醴)
    assert (r.kind, r.lemma, r.reading, r.scope) == ("conjecture", "禮", "醴", "zhu")


def test_one_counted_character_is_the_lemma():
    r = parse_note("案原本脱一有字據今注疏本補")  # 卷二 JS2.149.zhu1.an1
    assert (r.kind, r.lemma, r.count) == ("omission", "有", 1)


def test_a_further_omission_of_the_same_witness():
    r = parse_note("案今注疏本脫也字及今文無之四字")  # 卷一 JS1.130.zhu1.an1
    assert (r.kind, r.lemma) == ("omission", "也")
    assert [(m.kind, m.lemma, m.target) for m in r.more] == [("omission", "今文無之", "zhushu")]


@pytest.mark.parametrize("note, lemma", [
    ("案此于字唐石經作於應從前後作于為正", "于"),  # 卷一 JS1.10.jing1.an1
    ("案此句庿字唐石經作廟應從前後作庿爲正", "庿"),  # 卷二 JS2.10.jing1.an1
    ("案此二于字唐石經竝作於應從前後作于爲正", "于"),  # 卷一 JS1.128.jing1.an1
])
def test_this_x_zi_names_the_character_x(note, lemma):
    r = parse_note(note)
    assert (r.lemma, r.reading, r.target) == (lemma, "於" if "於" in note else "廟", "tangshijing")


@pytest.mark.parametrize("note, position", [
    ("案今注疏本脱此注文四字", "span:4"),  # 卷七 JS7.48.zhu1.an1
    ("案今注疏本脫注文十四字", "span:14"),  # 卷八 JS8.74.zhu1.an1
    ("案今注疏本脫此字據唐石經及宋本補", "span:1"),  # 卷九 JS9.165.jing1.an1
    ("案啐以下七字今注疏本訛作肺亦自貶于君六字從宋本訂正", "span:7"),  # 卷九 JS9.90.zhu1.an1
])
def test_counted_spans(note, position):
    assert parse_note(note).position == position


def test_a_numeral_lemma_is_not_a_count_without_zi():
    r = parse_note("案二十唐石經作廿")  # 卷十一 JS11.98.jing1.an1
    assert (r.lemma, r.reading, r.position) == ("二十", "廿", "preceding")


# ---------------------------------------------------------------------------
# 3. position words
# ---------------------------------------------------------------------------


def test_this_sentence_above_is_the_start_of_the_sentence():
    r = parse_note("案此句上今注疏本有爭爭闕之爭五字乃釋文訛入注内")  # 卷十四 JS14.71.zhu1.an1
    assert (r.kind, r.reading, r.position, r.more) == ("addition", "爭爭闕之爭", "sentence-start", ())


def test_x_zi_shang_is_before_x():
    r = parse_note("案獻字上朱子儀禮經𫝊通解本有凡字")  # 卷六 JS6 (line 445)
    assert (r.kind, r.reading, r.target, r.position) == ("addition", "凡", "tongjie", "before:獻")


# ---------------------------------------------------------------------------
# 6. shapes that were left unparsed
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("note, count, position, place", [
    ("案此七字今注疏本在下受福無疆之下", 7, "span:7", "after:受福無疆"),  # 卷一 JS1.119.zhu1.an1
    ("案此六字今注疏本接上注昭明也之下", 6, "span:6", "after:昭明也"),  # 卷一 JS1.121.zhu1.an1
    ("案此注今注疏本在下主人曰聞命矣之下", None, "piece", "after:主人曰聞命矣"),  # 卷二 JS2.139.zhu1.an1
    ("案此十二字今注疏本在皆所以養亷恥句下又用鴈上有納采而三字", 12, "span:12", "after:皆所以養亷恥"),  # 卷二 JS2.5
])
def test_transposed_text(note, count, position, place):
    r = parse_note(note)
    # a variant (the 注疏 has the text elsewhere; the note calls nothing an error)
    assert (r.kind, r.rule, r.target, r.count, r.position, r.place) == (
        "variant", "transposition_moved", "zhushu", count, position, place)


def test_transposed_text_then_a_further_claim():
    r = parse_note("案此十二字今注疏本在皆所以養亷恥句下又用鴈上有納采而三字")  # 卷二 JS2.5.zhu1.an2
    assert [(m.kind, m.reading, m.position) for m in r.more] == [("addition", "納采而", "before:用鴈")]


@pytest.mark.parametrize("note, kind, lemma, reading", [
    ("案今注䟽本脱者字", "omission", "者", ""),  # 卷十四 (line 551)
    ("案此下今注䟽有也字", "addition", "", "也"),  # 卷二 (line 235)
    ("案此下今注疏本冇也字", "addition", "", "也"),  # 卷一 (line 98)
    ("案婦原本及今注疏木竝訛作歸摢宋本改正", "corruption", "婦", "歸"),  # 卷二 JS2.95.zhu1.an1
])
def test_variant_forms_and_ocr_slips_of_the_formula(note, kind, lemma, reading):
    r = parse_note(note)
    assert (r.kind, r.lemma, r.reading) == (kind, lemma, reading)
    assert "zhushu" in (r.target, *r.also)


def test_ming_jianben_is_its_own_witness():
    r = parse_note("案明監本注疏脱此十四字唐石經亦有")  # 卷二 (line 699)
    assert (r.kind, r.target, r.position) == ("omission", "mingjianben", "span:14")


def test_gaiji_and_illegible_characters_inside_a_note():
    r = parse_note("案□蘆今注疏本作&KR2074;籚")  # 卷二 (line 394)
    assert (r.kind, r.lemma, r.reading, r.target) == ("variant", "□蘆", "&KR2074;籚", "zhushu")


def test_the_note_quotes_the_zhushu():
    r = parse_note("案今注疏本云作骼")  # 卷四 JS4.155.zhu1.an3: 今文胳爲骼 in the 集释
    assert (r.kind, r.lemma, r.reading, r.position) == ("variant", "", "作骼", "near")


def test_text_supplied_from_the_shu():
    r = parse_note("案此下永樂大典内刪去原文注云餘同賈疏今取疏義補之")  # 卷一 (line 84)
    assert (r.kind, r.rule, r.target, r.position) == ("lacuna", "supplied", "yuanben", "after")
    assert "shu" in r.evidence_ids


def test_a_conjecture_that_a_character_is_interpolated():
    r = parse_note("案敎繼公云禮無決而不遂者此決字當為衍文")  # 卷六 (line 31): 敎 is a slip for 敖
    assert (r.kind, r.lemma, r.reading, r.target) == ("conjecture", "決", "", "self")
    assert r.evidence_ids[0] == "aojigong"


def test_a_scholars_quotation_ends_the_claims():
    r = parse_note("案原本訛作廵張淳云儀禮逡遁字凡十一釋文皆作遁")  # 卷二 JS2.19.zhu1.an1
    assert (r.kind, r.reading, r.target, r.more) == ("corruption", "廵", "yuanben", ())
    assert "zhangchun" in r.evidence_ids


def test_a_further_claim_without_a_lemma_is_about_the_first_lemma():
    r = parse_note("案嘗唐石經作嘗卽嘗之俗體各本竝訛作常今據石經訂正")  # 卷三 JS3.23.jing1.an1
    assert [(m.lemma, m.reading, m.target, m.position) for m in r.more] == [("嘗", "常", "zhuben", "preceding")]


@pytest.mark.parametrize("note, kind, rule", [
    ("案疏云言人之者公將及升堂故以人意相存偶", "comment", "quotation"),  # 卷七 (line 116)
    ("案由猶古通用", "comment", "interchangeable"),  # 卷十二 (line 168)
    ("案前云非以君命使則不稱寡大夫寡君之老當在此下錯簡已久", "comment", "misplaced"),  # 卷三 (line 263)
    ("案敖繼公云句下當有爵字如鄉飲酒鄉射禮之所云此文脫耳", "conjecture", "conjecture_insert"),  # 卷八 (line 75)
])
def test_notes_without_a_reading_of_the_zhushu(note, kind, rule):
    r = parse_note(note)
    assert (r.kind, r.rule) == (kind, rule)


def test_a_worn_character_then_every_edition():
    # the worn 唐石經 says nothing: the note's claim is the one about 各本 (which include our 注疏)
    r = parse_note("案上字唐石經摩滅各本訛作士今考疏云玉藻上大夫曰下臣與此同也經文作上大夫明矣")  # 卷三 (line 260)
    assert (r.kind, r.lemma, r.reading, r.target, r.more) == ("corruption", "上", "士", "zhuben", ())
    assert r.remark.startswith("上字唐石經摩滅")


@pytest.mark.parametrize("note, more", [
    # a scholar's argument, then what our 注疏 reads
    ("案以原本訛作此張淳儀禮識誤據釋文改爲以今注疏本作謂此以上", [("variant", "", "謂此以上", "zhushu")]),  # 卷一 JS1.34
    ("按小各本作少張淳兼引鄉射注少退猶小辟也及少退小逡遁也釋文皆作小又辟今注疏本作避據釋文云小辟音避則古本不作避明矣",
     [("variant", "辟", "避", "zhushu")]),  # 卷四 JS4.34
    # 又脱Y字: the same witness
    ("案今注疏本輒訛作就又脱殺字據宋本訂正", [("omission", "殺", "", "zhushu")]),  # 卷九 JS9.77
    # where 原本 has an extra 云, our 注疏 has an extra 曰 (竝衍文 ends the reading)
    ("案此下原本有云字今注疏本作曰竝衍文", [("addition", "", "曰", "zhushu")]),  # 卷八 JS8.37
    # evidence, not claims: a gloss of the 釋文, what a source records, a co-witness
    ("案曏原本作鄉據今注疏本改正釋文曏許亮反張淳儀禮識誤云對鄉之鄉從鄉曩曏之曏加曰此曩曏之曏也宜加日", []),  # 卷十一
    ("案詨各本作傚據釋文載古本作詨", []),  # 卷四 JS4.85
    ("案復原本訛作服釋文云復自扶又反今注疏本亦作復", []),  # 卷四 JS4.136
])
def test_further_claims_and_what_is_only_evidence(note, more):
    r = parse_note(note)
    assert [(m.kind, m.lemma, m.reading, m.target) for m in r.more] == more


@pytest.mark.parametrize("note, kind, lemma, reading, position", [
    # 此有者衍: the character named before (無酒字)
    ("案敖繼公云上下文酌膳皆無酒字此有者衍也", "conjecture", "酒", "", "preceding"),  # 卷七 JS7.55
    # 句下: below this phrase (at the note)
    ("案敖繼公云句下當有爵字如鄉飲酒鄉射禮之所云此文脫耳", "conjecture", "", "爵", "after"),  # 卷八 JS8.16
])
def test_conjectures_that_name_their_character_elsewhere(note, kind, lemma, reading, position):
    r = parse_note(note)
    assert (r.kind, r.lemma, r.reading, r.position) == (kind, lemma, reading, position)


def test_the_words_of_the_source_after_a_claim_about_it():
    # 釋文作段云本又作腶同: 云本又作腶同 is the 釋文's own wording; then 唐石經 on the same 腶
    r = parse_note("案腶釋文作段云本又作腶同唐石經訛作□")  # 卷二 JS2.74.jing1.an1
    assert (r.lemma, r.reading, r.target) == ("腶", "段", "shiwen")
    assert [(m.lemma, m.reading, m.target) for m in r.more] == [("腶", "□", "tangshijing")]


def test_the_zhushu_as_evidence_of_a_correction_of_yuanben():
    r = parse_note("案受原本訛作授唐石經同據今注疏本改正")  # 卷四 JS4.124: 唐石經 shares 授
    assert (r.kind, r.lemma, r.reading, r.target, r.evidence_ids) == ("corruption", "受", "授", "yuanben", ["zhushu"])


@pytest.mark.parametrize("note, kind, lemma, reading", [
    ("按疑然之疑今注疏本皆作仡因公羊傳作仡然從乎趙盾而入改此注耳", "variant", "疑", "仡"),  # 卷四 JS4.32: the 疑 of 疑然
    ("案衣字原本訛在明字上據疏文改正", "corruption", "明衣", "衣明"),  # 卷一 JS1.31: 原本 had 衣 before 明
    ("案原本作别其處臣也今注疏本作别于其處臣也據釋文舉别處二字張淳儀禮識誤辨證甚明今剛正",
     "variant", "", "别其處臣也"),  # 卷十四 JS14.48 (誤 of 儀禮識誤 is no judgement)
    ("案敖繼公集說云北面者與東面者相繼當西上云東者字誤也", "conjecture", "東", "西上"),  # 卷四 JS4.161
    ("案敖繼公云大射儀云北面此東字葢誤也", "conjecture", "東", "北面"),  # 卷七 JS7.21
    ("案敖繼公云大射儀此下云卒退豐與觶如初此脱一句也", "conjecture", "", "卒退豐與觶如初"),  # 卷六 JS6.69
])
def test_shapes_with_a_claim_that_were_comments(note, kind, lemma, reading):
    r = parse_note(note)
    assert (r.kind, r.lemma, r.reading) == (kind, lemma, reading)
    assert r.rule != "unparsed"


def test_count_after_the_keyword_names_the_deleted_text():
    r = parse_note("案此文當云非以君命使則不稱寡大夫寡君之老正與玉藻互相為義衍士則曰三字耳疏内言經直云大夫")  # 卷三 JS3.52
    assert (r.kind, r.lemma, r.reading, r.count) == ("conjecture", "士則曰", "", 3)


def test_an_unresolved_gaiji_is_a_character_of_the_note():
    """卷二: 案□蘆今注疏本作&KR2074;籚 — the reader gives the gaiji it cannot resolve as U+FFFD."""
    r = parse_note("案□蘆今注疏本作\ufffd籚")
    assert (r.kind, r.lemma, r.reading, r.target) == ("variant", "□蘆", "\ufffd籚", "zhushu")


def test_not_repeated_is_an_omission_of_the_repeat():
    r = parse_note("案今注疏本不重讀之二字係訛脱")  # 卷十四 JS14.44.zhu1.an1
    assert (r.kind, r.lemma, r.count, r.target) == ("omission", "讀之", 2, "zhushu")


def test_a_slip_of_the_song_edition_is_still_the_song_edition():
    r = parse_note("案再今注疏本作等據宋木改正")  # 卷九 JS9.154: 宋木 for 宋本, as 今注疏木 for 今注疏本
    assert (r.kind, r.lemma, r.reading, r.target) == ("variant", "再", "等", "zhushu")
    assert [s.id for s in r.evidence] == ["songben"]


def test_zhou_xuejian_edited_our_zhushu():
    r = parse_note("案及周學健改作其")  # 卷一 (line 164): 周學健 signs the 四库 注疏's 考證
    assert (r.kind, r.lemma, r.reading, r.target) == ("variant", "及", "其", "zhushu")


# ---------------------------------------------------------------------------
# Verdicts on the real files (2, 3, 4, 5 and the checked 各本)
# ---------------------------------------------------------------------------

#: 集释 卷 -> 注疏 卷 of the same 篇 (../shared/kanripo/README.md)
ZHUSHU_OF = {1: 1, 2: 2, 3: 3, 4: 4, 6: 5, 7: 6, 8: 6, 9: 7, 11: 8, 12: 8, 14: 8}


@lru_cache(maxsize=None)
def _checked(juan: int):
    from jiaokan.measure.an_check import check_pair

    # with the 注疏's front matter (卷首), where it gives the 鄭目録 of every 篇
    res = check_pair(kanripo_file(f"KR1d0030_{juan:03d}.txt"), kanripo_file(f"KR1d0028_{ZHUSHU_OF[juan]:03d}.txt"),
                     kanripo_file("KR1d0028_000.txt"))
    return res


def _verdict(juan: int, claim_id: str):
    res = _checked(juan)
    return res.checks[claim_id]


@pytest.mark.parametrize("juan, claim_id, note", [
    # 2. near anchors: the 注疏 inserts a character (耦於庭下 / 揖乃升)
    (6, "JS6.6.zhu1.an1", "案今注疏本作于庭下據宋本及儀禮經傳通解所引皆無下字"),
    (9, "JS9.42.jing1.an1", "案今注疏本作乃升唐石經及宋本無乃字"),
    # 4. a whole 注 / passage the 注疏 lacks
    (1, "JS1.128.zhu1.an1", "案今注疏本脫此二十五字"),
    (8, "JS8.74.jing1.an1", "案今注疏本脫此四字"),
    # 1. counts and clauses: the reading is the 注疏's text
    (2, "JS2.58.zhu1.an1", "案絜今注疏本作潔古本皆作絜後同"),
    # 5. the 注疏 sets as 注 what this text's note places in the 经 (卒爵皆拜下…凡二十四字)
    (2, "JS2.60.zhu1.an1", "案經文卒爵皆拜下今注疏本有婦拜見上篇…凡二十四字"),
    # 6. moved text: the 注疏 has it after 受福無疆
    (1, "JS1.119.zhu1.an1", "案此七字今注疏本在下受福無疆之下"),
    (2, "JS2.139.zhu1.an1", "案此注今注疏本在下主人曰聞命矣之下"),
    # 各本 includes the 注疏
    (3, "JS3.23.jing1.an1~2", "案嘗唐石經作嘗卽嘗之俗體各本竝訛作常今據石經訂正"),
    # 不啐 / 不卒: the 注疏 reader divides 注 and 经 otherwise here
    (12, "JS12.25.zhu1.an1", "案啐今注疏本作卒似李如圭所見本亦作卒"),
    # 2. a quotation of the 注疏 longer or shorter than the stretch it stands for
    (14, "JS14.48.zhu1.an1~2", "案原本作别其處臣也今注疏本作别于其處臣也據釋文…"),
    (7, "JS7.49.zhu1.an1~2", "案原本作不以酒謝實今注疏本作不以酒惡謝賓皆脱誤…"),
    # 6. claims about our 注疏 inside the editors' argument, and further claims of the same witness
    (1, "JS1.34.zhu1.an3~2", "案以原本訛作此張淳儀禮識誤據釋文改爲以今注疏本作謂此以上"),
    (1, "JS1.69.jing1.an1~2", "…今注疏本此處經文作捷柶興乃誤據釋文改經…"),
    (8, "JS8.37.zhu1.an1~2", "案此下原本有云字今注疏本作曰竝衍文"),
    (9, "JS9.77.zhu1.an1~2", "案今注疏本輒訛作就又脱殺字據宋本訂正"),
    (4, "JS4.32.zhu1.an1", "按疑然之疑今注疏本皆作仡因公羊傳作仡然…"),
    # 6. moved text, the place quoted with a form the folding does not know (苗 / the 注疏's 苖)
    (3, "JS3.55.zhu1.an2", "案此五字今注疏本在下古文茅作苗之下"),
    # 6. 原本 corrected from our 注疏: the 注疏 reads as the editors say
    (1, "JS1.80.zhu1.an1", "案厚下原本衍之字今據注疏本刪正"),
    (4, "JS4.112.zhu1.an1", "案也原本訛作者今從注疏本改正"),
    (4, "JS4.124.jing1.an1", "案受原本訛作授唐石經同據今注疏本改正"),
    (11, "JS11.74.zhu1.an1", "案原本脱與字據今注疏本補…"),
    # …where the 注疏's piece runs on past the row's end (its passages divide otherwise)
    (2, "JS2.133.jing1.an1", "案原本脱此四字據唐石經及今注疏本補"),
    # 不重: the 注疏 has the text once, right before the place of the repeat
    (14, "JS14.44.zhu1.an1", "案今注疏本不重讀之二字係訛脱"),
    # 5. two claims of one note a few characters apart, where the 注疏 sets the passage elsewhere
    (14, "JS14.132.zhu1.an1", "案今注疏本脱自拜聘享至五字及亦非其次四字…"),
    (14, "JS14.132.zhu1.an1~2", "(the same note)"),
    # 6. 此經文及注: the passage's 经 and 注 stand before 君貺寡君 in the 注疏
    (14, "JS14.132.jing1.an1", "案此經文及注今注疏本在君貺寡君之前唐石經亦在此"),
    # the 鄭目録: the 注疏 gives it in its front matter, not in the 篇's 卷
    (9, "JS9.4.zhu1.an1", "案今注疏本脱也字據宋夲補"),
    (11, "JS11.4.zhu1.an2", "案今注疏本脱聘字"),
])
def test_confirmed_on_the_real_files(juan, claim_id, note):
    ch = _verdict(juan, claim_id)
    assert ch.verdict == "confirmed", ch.summary


@pytest.mark.parametrize("juan, claim_id, note", [
    # 此句上: the 注疏 has 爭爭鬭之爭 before the sentence, the note writes 闕 for 鬭
    (14, "JS14.71.zhu1.an1", "案此句上今注疏本有爭爭闕之爭五字乃釋文訛入注内"),
    # the 注疏 has 壻悉計反…, the note writes 訃 for 計
    (2, "JS2.100.zhu1.an1", "案此下今注疏本有壻悉訃反…凡十四字乃釋文…誤入于此"),
])
def test_an_addition_quoted_with_a_slip_is_uncertain(juan, claim_id, note):
    """The 注疏 has an extra stretch there, a character apart from the note's quotation: not confirmed (a
    table in which the 注疏 reads otherwise than the note says would contradict the verdict), not contradicted."""
    ch = _verdict(juan, claim_id)
    assert (ch.verdict, ch.detail) == ("uncertain", "nearly"), ch.summary


def test_an_unknown_character_of_the_note_proves_nothing():
    """卷二 JS2.56: the note's reading holds a gaiji (&KR1470;) the 注疏 holds too; the note's own
    code is lost before parsing, so the two are not known to be one glyph: uncertain, not confirmed."""
    ch = _verdict(2, "JS2.56.zhu1.an1")
    assert ch.verdict == "uncertain", ch.summary


def test_the_last_character_not_found_is_never_a_contradiction():
    """卷六 JS6.170: 薰 / the note's 䙧 / the 注疏's 纁 — a form the folding does not know."""
    ch = _verdict(6, "JS6.170.jing1.an1")
    assert ch.verdict == "uncertain" and ch.detail == "partly" and "纁" in ch.summary


def test_a_one_character_lemma_the_prints_confuse():
    """卷七 JS7.59: 案己今注疏本訛作也 after 拜其酌已 — found as 已, and the 注疏 reads 已 too."""
    from jiaokan.measure.an_check import check_pair

    res = check_pair(kanripo_file("KR1d0030_007.txt"), kanripo_file("KR1d0028_006.txt"))
    claim = next(c for c in res.claims if c.id == "JS7.59.zhu1.an1")
    assert claim.anchor is not None and claim.anchor.text == "已"
    assert res.checks[claim.id].verdict == "contradicted"


@pytest.mark.parametrize("juan, claim_id", [
    (1, "JS1.75.zhu1.an2"),  # 案以今注疏本訛作必: the 四库 注疏 already reads 以
    (9, "JS9.125.zhu1.an1"),  # 案張今注疏本訛作帳據宋本改正: it reads 張
])
def test_real_contradictions_stay(juan, claim_id):
    ch = _verdict(juan, claim_id)
    assert ch.verdict == "contradicted" and ch.detail == "as-this-text"


def test_where_the_zhushu_departs_from_the_note_it_reads_this_text():
    """卷九 JS9.90: 啐以下七字…訛作肺亦自貶于君; the 四库 注疏 reads 啐亦自貶於君 — it keeps this
    text's 啐 where the note says 肺: a contradiction (the 四部丛刊 has the note's 肺…)."""
    ch = _verdict(9, "JS9.90.zhu1.an1")
    assert ch.verdict == "contradicted" and ch.detail == "as-this-text", ch.summary


def test_the_zhushu_cited_as_evidence_can_contradict_the_editors():
    """卷七 JS7.73: 案以原本作亦從今注疏木 — but the 四库 注疏 reads 是亦不言成拜, as 原本 did."""
    ch = _verdict(7, "JS7.73.zhu1.an1")
    assert ch.verdict == "contradicted" and ch.detail == "as-source", ch.summary


def test_a_claim_in_the_argument_can_be_a_real_contradiction():
    """卷四 JS4.34: 按小各本作少張淳兼引…又辟今注疏本作避…: the 四库 注疏 reads 辟 (its 音義 辟音避)."""
    ch = _verdict(4, "JS4.34.zhu1.an1~2")
    assert ch.verdict == "contradicted" and ch.reading == "辟"


def test_a_near_quotation_is_anchored_on_the_stretch_the_zhushu_bears_out():
    """卷九 JS9.42: 今注疏本作乃升 — the claim is on 升 (the 注疏 inserts 乃), not on 揖升."""
    res = _checked(9)
    claim = next(c for c in res.claims if c.id == "JS9.42.jing1.an1")
    assert claim.anchor is not None and claim.anchor.text == "升"
    assert res.checks[claim.id].verdict == "confirmed"


def test_the_named_wrong_character_is_the_conjecture():
    """卷四 JS4.161: 敖繼公集說云…當西上云東者字誤也 — this text's 東上: 東 should read 西."""
    res = _checked(4)
    claim = next(c for c in res.claims if c.id == "JS4.161.jing1.an1")
    assert (claim.record.kind, claim.record.lemma, claim.record.reading) == ("conjecture", "東", "西")
    assert claim.anchor is not None and claim.anchor.text == "東"


# ---------------------------------------------------------------------------
# 6. text the editors supplied from the 疏, marked in the TEI
# ---------------------------------------------------------------------------


def test_supplied_text_is_marked_in_the_tei(profile, tei_all):
    """卷一: 案此下永樂大典内刪去原文注云餘同賈疏今取疏義補之 + 少牢云史左執筮… (the editors' text)."""
    from lxml import etree

    from jiaokan.measure.an_check import read
    from jiaokan.model import Note, iter_notes
    from jiaokan.tei.reader import witness_from_tei
    from jiaokan.tei.writer import TEI_NS, tei_bytes, witness_to_tei

    w = read(kanripo_file("KR1d0030_001.txt"), "JS")
    tree = witness_to_tei(w)
    assert profile.validate(tree), profile.error_log
    assert tei_all.validate(tree), tei_all.error_log
    sup = tree.getroot().findall(f".//{{{TEI_NS}}}note/{{{TEI_NS}}}supplied")
    # three notes supply text; the fourth 永樂大典 note (今集釋僅缺此數…) supplies none
    assert len(sup) == 3
    assert {(s.get("reason"), s.get("resp"), s.get("source")) for s in sup} == {
        ("deleted-in-yongle-dadian", "#resp-siku", "#resp-jiagongyan")}
    first = "".join(sup[0].itertext())
    assert first.startswith("少牢云史左執筮") and "補之" not in first
    note = sup[0].getparent()
    assert "".join(note.itertext()).startswith("案此下永樂大典内刪去原文注云餘同賈疏今取疏義補之少牢云")
    # nothing is lost: the notes read back with the same text
    back = witness_from_tei(etree.fromstring(tei_bytes(tree)), "rt.xml")

    def notes(x):
        return [n.text for d in x.divs for u in d.units for p in u.pieces for n in iter_notes(p.content)
                if isinstance(n, Note)]

    assert notes(back) == notes(w)
