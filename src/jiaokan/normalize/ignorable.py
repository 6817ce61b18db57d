"""Which characters collation skips: punctuation, whitespace, separators.

Why: witnesses differ wildly in punctuation (none in the 四库 prints, modern AI-added
punctuation in the 图书集成 export, ``○`` as the passage separator of the 注疏), so
punctuation must never count as a reading.  Everything else — including ``□`` (an
illegible character), ``〓`` (geta, a missing character) and ``〇`` (the numeral) — stands
for a character position and is kept.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from itertools import compress

#: Explicit ignorables beyond Unicode's punctuation/separator categories.  ``○`` (U+25CB)
#: opens a new 经 unit in the 注疏; the others are section/emphasis marks in exports.
EXTRA_IGNORABLE: frozenset[str] = frozenset("○◯●◎◦※☆★◆◇▲△▼▽¶§†‡‖｜|")

#: Common punctuation, listed for documentation and quick membership tests; ``is_ignorable``
#: also accepts every other Unicode punctuation (P*), separator (Z*) and control (Cc/Cf)
#: character, and variation selectors (which belong to the preceding ideograph's glyph).
IGNORABLE: frozenset[str] = EXTRA_IGNORABLE | frozenset(
    " \t\r\n\u3000\u00a0\ufeff"
    ".,;:!?'\"()[]{}<>/\\-_~`@#%&*"
    "、，。：；！？·・…‥—–―～〜"
    "《》〈〉「」『』“”‘’【】〔〕〖〗（）［］｛｝＜＞"
    "．，：；！？＂＇／＼＿－"
)

_CATEGORIES = ("P", "Z")
_cache: dict[str, bool] = {}


def _compute(ch: str) -> bool:
    if ch in IGNORABLE:
        return True
    cat = unicodedata.category(ch)
    if cat[0] in _CATEGORIES or cat in ("Cc", "Cf"):
        return True
    cp = ord(ch)
    # variation selectors (FE00–FE0F, E0100–E01EF) and the Mongolian FVS: glyph modifiers
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF or 0x180B <= cp <= 0x180D


def is_ignorable(ch: str) -> bool:
    """True if ``ch`` (one character) is punctuation, whitespace or a separator mark."""
    r = _cache.get(ch)
    if r is None:
        if len(ch) != 1:
            raise ValueError(f"is_ignorable expects one character, got {ch!r}")
        r = _cache[ch] = _compute(ch)
    return r


class _Table(dict[int, "int | str | None"]):
    """A ``str.translate`` table filled as characters are met: ``value(ch)`` for each code point."""

    def __init__(self, ignorable: "int | str | None", kept: "int | str | None") -> None:
        super().__init__()
        self._ignorable, self._kept = ignorable, kept

    def __missing__(self, cp: int) -> "int | str | None":
        v = self._ignorable if is_ignorable(chr(cp)) else (cp if self._kept is None else self._kept)
        self[cp] = v
        return v


#: ignorable → dropped, the rest kept as it is (the dense case of :func:`strip_ignorable`)
_DROP = _Table(None, None)

#: The code points that are never ignorable: the CJK ideograph blocks (Ext. A, the URO, the compatibility
#: ideographs, planes 2 and 3), whose characters are all ``Lo`` or unassigned.  Why: the book's texts are
#: these characters with one in three hundred something else, so finding the few others with one regex scan
#: in C, and asking :func:`is_ignorable` of them alone, does the work of a ``str.translate`` of every
#: character (a dict lookup and an int object each) in a tenth of the time.  (The tests check every code
#: point of these blocks against :func:`is_ignorable`.)
NEVER_IGNORABLE = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
_MAYBE = re.compile(f"[^{NEVER_IGNORABLE}]")
#: More candidates than one in this many characters (a modern punctuated text): one ``str.translate`` is cheaper.
_DENSE = 8


def ignorable_offsets(text: str, lo: int = 0, hi: int | None = None) -> list[int] | None:
    """The indexes in ``text[lo:hi]`` of its ignorable characters (indexes into ``text``), in order; None when
    more than one character in :data:`_DENSE` is outside the ideograph blocks (then one ``str.translate`` of the
    whole string is cheaper than a Python step for each of them)."""
    hi = len(text) if hi is None else hi
    left = (hi - lo) // _DENSE + 8
    out: list[int] = []
    cache = _cache
    for m in _MAYBE.finditer(text, lo, hi):
        left -= 1
        if not left:
            return None
        ch = m.group()
        r = cache.get(ch)
        if r is None:
            r = is_ignorable(ch)
        if r:
            out.append(m.start())
    return out


def strip_ignorable(text: str) -> str:
    """``text`` without its ignorable characters: ``"".join(c for c in text if not is_ignorable(c))``.

    Why: a whole string at once in C (a regex scan for the few characters outside the ideograph blocks,
    :data:`NEVER_IGNORABLE`, or ``str.translate`` where they are many), where the loop calls a Python function
    per character; collation, the 案 check and search ask it of every character of the book.
    """
    if _MAYBE.search(text) is None:  # most texts: ideographs only
        return text
    cuts = ignorable_offsets(text)
    if cuts is None:
        return text.translate(_DROP)
    if not cuts:
        return text
    parts = []
    prev = 0
    for i in cuts:
        parts.append(text[prev:i])
        prev = i + 1
    parts.append(text[prev:])
    return "".join(parts)


#: 0, 1, 2, …: :func:`kept_offsets` copies slices of it (a ``memcpy``) instead of making an int per offset
_iota: "array[int]" = array("i", range(1 << 16))
#: beyond this many, the offsets are made for the text at hand rather than kept for the next
_IOTA_MAX = 1 << 22


def _count_to(n: int) -> "array[int]":
    """An array holding 0 … ``n - 1`` at least (grown as longer texts come, up to :data:`_IOTA_MAX`)."""
    global _iota
    if n > len(_iota):
        if n > _IOTA_MAX:
            return array("i", range(n))
        _iota = array("i", range(min(_IOTA_MAX, max(n, 2 * len(_iota)))))
    return _iota


def kept_offsets(text: str, lo: int = 0, hi: int | None = None) -> "array[int]":
    """:func:`kept_positions` as an array of C ints (4 bytes an offset, where a list holds an int object each):
    slices of 0, 1, 2, … between the ignorable characters, which are few (:func:`ignorable_offsets`)."""
    n = len(text)
    if hi is None or hi > n:
        hi = n
    if lo < 0 or lo > hi:  # a range outside the text: what is inside it
        lo = max(0, lo)
        hi = max(lo, hi)
    iota = _iota if hi <= len(_iota) else _count_to(hi)
    if _MAYBE.search(text, lo, hi) is None:  # most texts: ideographs only
        return iota[lo:hi]
    cuts = ignorable_offsets(text, lo, hi)
    if cuts is None:  # dense: one mask for the range, in C
        return array("i", compress(range(lo, hi), text[lo:hi].translate(_MASK).encode("latin-1")))
    if not cuts:
        return iota[lo:hi]
    out = iota[lo:cuts[0]]
    prev = cuts[0] + 1
    for i in cuts[1:]:
        out += iota[prev:i]
        prev = i + 1
    out += iota[prev:hi]
    return out


#: ignorable → "\0", the rest → "\1": a mask for itertools.compress (the dense case of :func:`kept_offsets`)
_MASK = _Table("\0", "\1")


def kept_positions(text: str, lo: int = 0, hi: int | None = None) -> list[int]:
    """The indexes in ``text[lo:hi]`` of the characters that are not ignorable (indexes into ``text``)."""
    return kept_offsets(text, lo, hi).tolist()
