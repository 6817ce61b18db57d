"""子夏's 傳 in 喪服 (篇十一): where a 傳 starts and where it gives way to the next 经 item.

喪服 is a list of 经 items (``諸侯爲天子``, ``君``, ``妻``), each followed in every witness
by ``傳曰`` + 子夏's 傳 (question and answer: ``何以期也至尊也``) and by 郑玄's 注, in the
order the print layout allows.  The layouts (and their readers) differ in what they mark:

* 四部丛刊 (KR1d0026): 经 and 传 are both running text; the 注 of several items may wait
  until the end of a run of them (``父傳曰…父至尊也諸侯爲天子傳曰天子至尊也君傳曰君至尊也(注)``),
  so a 经 item may stand between the end of one 传 and the next ``傳曰`` with nothing to say
  so but the text (:func:`hidden_items`);
* 注疏 (KR1d0028): ``○`` opens each 经 item; a 传 may follow the item's 注 directly
  (``○舅注母之兄弟傳曰何以緦從服也注…``): ``傳曰`` inside a 注 opens the 传 unless it is
  郑玄 citing a book (``春秋傳曰``, ``大傳曰``, ``閒傳曰``, :func:`is_citation`);
* in every layout the 記 at the end of the 篇 is 经, and never part of a 传.

Two tells, both of the 傳's own grammar and nothing of any one passage:

* a ``傳曰`` inside a 传 is 子夏 quoting an older 傳 when it follows a question
  (``慈母者何也傳曰妾之無子者…``, ``何以期也傳曰夫死…``, ``何如則可謂之兄弟傳曰…``) or when the
  傳 has not yet closed a sentence with ``也`` since it opened (``傳曰出妻之子爲母期則爲外祖父母無服
  傳曰絶族無施服``); otherwise it opens the 传 of a new 经 item, and that item is what stands
  after the 传's last sentence (``…父至尊也|諸侯爲天子|傳曰``);
* when that last sentence is itself a question (``姪者何也|謂吾姑者…``), its answer and the
  next item run together and the cut is a guess: such an item is returned as uncertain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .zhushu_boundary import END, START, CharModel
from .zhushu_markers import ZHUAN_OPEN, fold

#: Folded forms of the characters the 傳's grammar turns on.
YE = fold("也")
HE = fold("何")
JI = fold("記")
YUE = fold("曰")
#: A character right before ``傳曰`` that makes it a book's name in a citation, not 子夏's
#: 传 opening: 春秋傳, 左氏傳, 公羊傳, 穀梁傳, 大傳, 閒傳 (間傳), 喪服傳, 舊傳, and the 传
#: "below"/"above"/"this"/"that" (``下傳曰``, ``上傳曰``, ``此傳曰``, ``彼傳曰``).
#: How much better (nats) the tail of a 传 before a note must read as 经 than as 传 to be taken for an
#: item.  Below zero on purpose: a one-character item (``舅``, ``甥``, ``壻``) reads about as well as a
#: 传 that stops short; on 喪服 (the only 篇 with a 传, so there is no other to hold out) the items
#: score -5.5 to +5.7, the 传 continuations -9.5 and below, but one 传 that lists relatives
#: (``…爲所後者之祖父母妻妻之父母昆弟昆弟之子若子``, +3.2) reads as an item, and one item
#: (``凡妾爲私兄弟如邦人``, -16.6) as 传: both are left to the other witnesses.
ITEM_MARGIN = -6.0
CITING = frozenset(fold("秋氏羊梁大閒間服舊下上此彼前後"))


@dataclass(frozen=True)
class HiddenItem:
    """A 经 item inside what the running text reads as one 传: ``[start, end)`` (offsets in the 传 text)."""

    start: int
    end: int  # where the next ``傳曰`` stands
    certain: bool


def is_citation(folded: str, at: int) -> bool:
    """Is the ``傳曰`` at ``at`` (of folded text) a book cited by name (``春秋傳曰``) rather than a 传 opening?"""
    return at > 0 and folded[at - 1] in CITING


def openings(folded: str, start: int = 0, end: int | None = None) -> list[int]:
    """Offsets of every ``傳曰`` in ``folded[start:end]`` (the ``曰`` may lie just past ``end``)."""
    end = len(folded) if end is None else end
    out = []
    at = folded.find(ZHUAN_OPEN, start)
    while 0 <= at < end:
        out.append(at)
        at = folded.find(ZHUAN_OPEN, at + 1)
    return out


def hidden_items(folded: str, voices: "Voices | None" = None, closed: bool = False) -> list[HiddenItem]:
    """The 经 items hidden in a stretch read as one 传 (``folded`` starts at its ``傳曰``).

    Every later ``傳曰`` of the stretch either quotes an older 传 (after a question, or
    before the 傳 closed a sentence) or opens the 传 of a new 经 item, which stands after
    the last ``也`` before it.  ``closed``: the stretch ends at a note, and what follows
    its last ``也`` may be a 经 item too (``…大夫不敢降其宗也舊君(注)``): with ``voices``
    (the 卷's own 经 and 传, :class:`Voices`) such a trailing stretch is an item when it
    reads as 经 (:meth:`Voices.is_item`).
    See the module docstring.
    """
    items: list[HiddenItem] = []
    opened = 0  # the ``傳曰`` whose 传 is running
    ends = openings(folded, len(ZHUAN_OPEN)) + ([len(folded)] if closed else [])
    for at in ends:
        body = folded[opened + len(ZHUAN_OPEN):at]
        last = body.rfind(YE)
        if last < 0:
            opened = at  # no sentence closed yet: 子夏 quotes (``無服傳曰絶族無施服``)
            continue
        tail = body[last + 1:]
        sentence = body[body.rfind(YE, 0, last) + 1:last + 1]
        if not tail or HE in tail:
            opened = at  # right after a sentence, or after a question left open: a quotation
            continue
        start = opened + len(ZHUAN_OPEN) + last + 1
        certain = HE not in sentence
        if at == len(folded):  # a trailing item: only when the 卷's voices say it is one
            if voices is None or not voices.is_item(tail):
                break
            certain = False
        items.append(HiddenItem(start, at, certain=certain))
        opened = at
    return items


class Voices:
    """The 卷's own 经 items and 传 as two character models: is a stretch 经 or still 传?

    Trained on the pieces the layout itself decides (经 after a note, 传 from ``傳曰`` to a
    note), like the 注疏's 注/经 models (:mod:`.zhushu_boundary`); nothing of any passage.
    """

    def __init__(self, jing: list[str], zhuan: list[str]) -> None:
        self.jing = CharModel(jing)
        self.zhuan = CharModel(zhuan)

    def is_item(self, tail: str) -> bool:
        """Is ``tail`` (the text after a 传's last ``也``, before a note) a 经 item rather than more 传?

        It is when it reads as 经 better than as 传 by :data:`ITEM_MARGIN` nats.  (Before a
        ``傳曰`` an item is certainly there and is taken whole, from the ``也`` on: letting the
        models move its start later, ``爲舊|君君之母妻``, put 经 characters in the 传 more
        often than it took 传 characters out of the 经.)
        """
        return self.margin(tail) > ITEM_MARGIN

    def margin(self, tail: str) -> float:
        """log P_经(tail as a whole item) - log P_传(tail going on after ``也`` and ending there)."""
        jing = self.jing.logp(START, tail[0])
        zhuan = self.zhuan.logp(YE, tail[0])
        for a, b in zip(tail, tail[1:]):
            jing += self.jing.logp(a, b)
            zhuan += self.zhuan.logp(a, b)
        return jing + self.jing.logp(tail[-1], END) - zhuan - self.zhuan.logp(tail[-1], END)


def opens_ji(folded: str, at: int) -> bool:
    """Does the 记 of the 篇 open at ``at`` (``記`` not followed by ``曰``, which would be a citation)?"""
    return folded.startswith(JI, at) and not folded.startswith(YUE, at + 1)
