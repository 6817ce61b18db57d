"""Rules of the 注疏 reader about where a 郑注 gives way to the 经, each pinned on real lines of ../shared/kanripo.

The 四库 《儀禮注疏》 writes the 注 in large characters and the 经 resumes with no marker; the
reader infers the boundary (:mod:`jiaokan.readers.layouts.zhushu`).  These are the rules about
the format it applies on top of the character models.
"""

from __future__ import annotations

import pytest

from jiaokan.readers.common.base import load_source
from jiaokan.readers.formats.mandoku import MandokuZhushuReader
from jiaokan.readers.layouts.zhushu import BARE_QUOTE_PENALTY, no_bare_quote

from .conftest import kanripo_file


@pytest.fixture(scope="module")
def book(read_kanripo):
    return read_kanripo


def zhu_texts(w) -> list[str]:
    return [p.text for p in w.pieces() if p.layer == "zhu"]


# --- a 注 is never the bare quotation of the 经 it follows ------------------------------------------

def test_no_bare_quote_forbids_only_the_quotation():
    """KR1d0028_007 line 335: ``…主人升坐取觚注取觚將就瓦甒酌膳執冪者…``."""
    bonus: dict[int, float] = {}
    no_bare_quote("取觚將就瓦甒酌膳執冪者", "盥賓揖升主人升坐取觚", bonus)
    assert bonus == {1: -BARE_QUOTE_PENALTY, 2: -BARE_QUOTE_PENALTY}  # 取, 取觚: only the 经's words
    no_bare_quote("取觚將就", "", bonus)  # no 经 before: nothing to quote
    assert set(bonus) == {1, 2}


@pytest.mark.parametrize("stem, line_text, quote", [
    ("KR1d0028_007", "升坐取觚", "取觚"),  # 注取觚將就瓦甒酌膳 (the file writes 王人升坐取觚)
    ("KR1d0028_006", "主人升坐取觚", "取觚"),  # 燕禮, the same passage: 注取觚將就瓦大酌膳
    ("KR1d0028_007", "大射正受弓", "受弓"),  # 注受弓以授有司於東堂
    ("KR1d0028_005", "賓進受爵于席前復位", "復位"),  # 注復位西階上位
    ("KR1d0028_008", "公禮辭許", "禮辭"),  # 注禮辭一辭
])
def test_a_zhu_is_more_than_the_jing_it_quotes(book, stem, line_text, quote):
    w = book(stem)
    pieces = list(w.pieces())
    after = [pieces[i + 1] for i, p in enumerate(pieces[:-1]) if p.layer == "jing" and p.text.endswith(line_text)]
    assert after, f"{line_text} not found as the end of a 经 piece"
    for p in after:
        assert p.layer == "zhu" and p.text.startswith(quote) and len(p.text) > len(quote)


# --- a 注 before a ○: both readings are scored alike ------------------------------------------------

@pytest.mark.parametrize("stem, zhu", [
    ("KR1d0028_008", "為主人代公獻"),  # …宰夫獻注為主人代公獻○無行則重賄反幣
    ("KR1d0028_008", "此贊拜問大夫之辭貺賜也大夫曰老"),
    ("KR1d0028_008", "東藏之既乃介覿"),
])
def test_a_whole_zhu_before_a_ring_stays_whole(book, stem, zhu):
    """Reading all of it as 注 pays its length like the split does; these 注 are not cut."""
    assert zhu in zhu_texts(book(stem))


def test_a_jing_hidden_before_a_ring_is_still_found(book):
    """KR1d0028_005 line 1003: ``注大夫不序於下尊也衆賓繼拾取矢皆如三耦以反位○…``: 经 after 尊也."""
    w = book("KR1d0028_005")
    pieces = list(w.pieces())
    at = next(i for i, p in enumerate(pieces) if p.layer == "zhu" and p.text == "大夫不序於下尊也")
    nxt = pieces[at + 1]
    assert nxt.layer == "jing" and nxt.text.startswith("衆賓繼拾取矢") and nxt.cert == "low"


# --- a 注 that a ○ closes is not a certain 注 -------------------------------------------------------

def test_a_zhu_closed_by_a_ring_does_not_train_the_zhu_model():
    """KR1d0028_007 line 999: ``…亦曰竒注告曰某賢於某若干純若干竒若左右鈞…興共而俟○司射命設豐注當飲…``.

    The 注 before the ○ hides a 经; learnt as certain 注, it taught the 注 model its own 经.
    """
    certain = MandokuZhushuReader(voices={}).certain_texts(load_source(kanripo_file("KR1d0028_007.txt")))
    assert not any("若左右鈞則左右各執一算" in t for t in certain["zhu"])
    assert any(t.startswith("當飲不勝者射爵") for t in certain["zhu"])  # closed by its 音義: certain


def test_the_jing_hidden_before_a_ring_is_read_as_jing(book):
    """The same passage: the 经 ``若左右鈞則…興共而俟`` after the 注 ``告曰某賢於某若干純若干竒``, flagged."""
    pieces = list(book("KR1d0028_007").pieces())
    at = next(i for i, p in enumerate(pieces) if p.layer == "zhu" and p.text.startswith("告曰某賢於某"))
    assert pieces[at].text == "告曰某賢於某若干純若干竒"
    nxt = pieces[at + 1]
    assert nxt.layer == "jing" and nxt.text.startswith("若左右鈞則左右各執一") and nxt.cert == "low"


# --- the 经 holds the word the next 注 opens on ----------------------------------------------------

def test_the_lemma_of_the_next_zhu_stays_in_the_jing(book):
    """KR1d0028_005 line 53: ``注阼階東階尊於賓席之東兩壺斯禁左𤣥酒皆加勺篚在其南東肆注斯禁禁切地無足者也``."""
    pieces = list(book("KR1d0028_005").pieces())
    at = next(i for i, p in enumerate(pieces) if p.layer == "zhu" and p.text.startswith("阼階東階"))
    assert "斯禁" not in pieces[at].text  # (the rule fixes where the 经 reaches back to, not the exact split)
    assert pieces[at + 1].layer == "jing" and "兩壺斯禁左𤣥酒皆加勺" in pieces[at + 1].text
