"""The markers of the 注疏 running text, in every form the transcriptions write them.

Why a module of its own: the 四库 《儀禮注疏》 opens its layers with single characters
(``注``, ``疏``, ``音義``, ``○``) that are also ordinary words, and the transcriptions of
the seventeen 卷 do not write them alike: ``䟽`` for ``疏`` (throughout some 卷), and any
other variant form the normalizer folds to the same key (``疎``, ``踈``, ``註`` …).  A
marker is recognised by its *folded* form (:func:`jiaokan.normalize.key`) and by its
*position*, never by the character alone:

* ``疏``/``音義`` (any form) only right before a double-column group;
* ``注`` (any form) in the running text, unless the text around it shows the verb
  "to pour" or its gloss: ``注于尊中`` (``乃取之三注于尊中``, 士昏禮; ``挹湆注于疏匕``,
  少牢) and ``屬注也``.  A 郑注 never opens with ``也``, and opens with ``于`` only to
  gloss that word (``注于猶爲也``), so those two contexts are safe;
* ``傳曰`` opens 子夏's 传 (喪服) where the 经 stands, never inside a 注 (郑玄 quotes
  ``春秋傳曰``).
"""

from __future__ import annotations

import re

from ...normalize import key
from ...normalize.translate import LazyTable


def _fold_char(ch: str) -> str:
    k = key(ch)
    return k if len(k) == 1 else ch  # a key of more than one character leaves its character as it is


_FOLDED = LazyTable(_fold_char)


def fold(text: str) -> str:
    """``text`` with each character replaced by its comparison key (same length: offsets carry over),
    in one ``str.translate`` (:class:`~jiaokan.normalize.translate.LazyTable`)."""
    return text.translate(_FOLDED)


ZHU = fold("注")
SHU = fold("疏")
RING = "○"
#: The characters that may be a marker of the running text (:func:`big_marks`): the ○ and the folded 注.
_BIG_MARK_RE = re.compile(f"[{re.escape(RING + ZHU)}]")
#: The group markers (folded) and the layer each opens; longest first.
GROUP_MARKERS: tuple[tuple[str, str], ...] = ((fold("音義"), "yinyi"), (SHU, "shu"))
#: Inside a 疏, where the part on the 注 starts (folded ``注釋曰``).
ZHU_PART_RE = re.compile(fold("注釋曰"))
#: Inside a 疏 of 喪服, where the part on the 傳 starts (folded ``傳釋曰``).
ZHUAN_PART_RE = re.compile(fold("傳釋曰"))
#: How a 疏 opens (folded ``釋曰``, ``注釋曰``, ``傳釋曰``): a group that does is a 疏 whatever marks it.
SHU_OPEN_RE = re.compile("(?:" + fold("注") + "|" + fold("傳") + ")?" + fold("釋曰"))
#: What opens 子夏's 传 (folded ``傳曰``).
ZHUAN_OPEN = fold("傳曰")
#: After a ``注`` these show the verb or its gloss, not the marker (see the module docstring).  Matched
#: on the text as written: ``於`` folds to ``于``, and ``注於…`` is a 郑注 (``注於三人之中…``).
VERB_AFTER_RE = re.compile("也|于(?![猶犹謂谓者讀读])")


#: A 郑注 never ends on a word that wants an object: of the 1,868 notes of the 四部丛刊 郑注 of
#: 篇一–八 none ends on 謂, 猶, 曰 or 云 (``命謂請吾子之就家`` is one 注, not ``命謂`` + 经).
NO_ZHU_END = frozenset(fold("謂猶曰云"))
#: Penalty (nats) for a split that would end a 注 on one of them: a rule, not a lean.
NO_ZHU_END_PENALTY = 30.0
_NO_ZHU_END_RE = re.compile("[" + re.escape("".join(sorted(NO_ZHU_END))) + "]")


def no_zhu_end(span: str, bonus: dict[int, float]) -> None:
    """Forbid (in ``bonus``, by split point) the splits of ``span`` that end its 注 on a :data:`NO_ZHU_END` word."""
    # the span folded once and searched in C, not folded and asked a character at a time (fold keeps offsets)
    for m in _NO_ZHU_END_RE.finditer(fold(span), 0, len(span) - 1):
        k = m.end()
        bonus[k] = bonus.get(k, 0.0) - NO_ZHU_END_PENALTY


def group_marker(folded_body: str) -> tuple[int, str] | None:
    """The marker that ends ``folded_body`` (running text right before a group): (its length, layer)."""
    for marker, layer in GROUP_MARKERS:
        if folded_body.endswith(marker):
            return len(marker), layer
    return None


def is_zhu_marker(text: str, folded: str, at: int, since: int | None = None) -> bool:
    """Is the ``注`` (any form; ``folded`` is ``text`` folded) at ``at`` the marker, not the verb "to pour"?

    ``since``: where the running text before it began (the last marker): a ``注于X`` whose ``于X`` that text
    holds is a 郑注 quoting the 经's words to gloss them (``…實于右三實一貝…唯盈注于右尸口之右``, 士喪禮), where
    the verb's ``于尊中`` is no word of the text before it (``…屬于尊…注屬注也…乃取之三注于尊中``: the 注 that
    the marker 注屬 opened)."""
    if folded[at] != ZHU:
        return False
    if not VERB_AFTER_RE.match(text, at + 1):
        return True
    quoted = folded[at + 1 : at + 3]
    return since is not None and len(quoted) == 2 and text[at + 1] != "也" and quoted in folded[since:at]


def big_marks(text: str, folded: str, start: int, end: int) -> list[tuple[int, str]]:
    """The ``○`` and ``注`` markers of a stretch of running text: (offset, ``○`` or ``注``)."""
    out = []
    since = start  # where the text before the next candidate began: the stretch's start, or the last marker
    for m in _BIG_MARK_RE.finditer(folded, start, end):  # (the few candidates found in C, not a step per character)
        i = m.start()
        ch = m.group()
        if ch == RING or is_zhu_marker(text, folded, i, since):
            out.append((i, ch))
            since = i + 1
    return out


def zhuan_opening(folded: str, start: int, end: int) -> int | None:
    """Where ``傳曰`` opens a 传 in a stretch of 经 running text, or None.

    The ``曰`` may open the next printed line (``爲人後者傳¶曰何以三年也``): the match may
    reach past ``end`` as long as it starts before it.
    """
    at = folded.find(ZHUAN_OPEN, start, min(end + len(ZHUAN_OPEN) - 1, len(folded)))
    return at if 0 <= at < end else None
