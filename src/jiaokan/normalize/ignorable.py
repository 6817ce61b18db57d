"""Which characters collation skips: punctuation, whitespace, separators.

Why: witnesses differ wildly in punctuation (none in the 四库 prints, modern AI-added
punctuation in the 图书集成 export, ``○`` as the passage separator of the 注疏), so
punctuation must never count as a reading.  Everything else — including ``□`` (an
illegible character), ``〓`` (geta, a missing character) and ``〇`` (the numeral) — stands
for a character position and is kept.
"""

from __future__ import annotations

import unicodedata
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


#: ignorable → dropped, the rest kept as it is
_DROP = _Table(None, None)
#: ignorable → "\0", the rest → "\1": a mask for itertools.compress
_MASK = _Table("\0", "\1")


def strip_ignorable(text: str) -> str:
    """``text`` without its ignorable characters: ``"".join(c for c in text if not is_ignorable(c))``.

    Why: a whole string at once in C (``str.translate``), where the loop calls a Python function
    per character; collation, the 案 check and search ask it of every character of the book.
    """
    return text.translate(_DROP)


def kept_positions(text: str, lo: int = 0, hi: int | None = None) -> list[int]:
    """The indexes in ``text[lo:hi]`` of the characters that are not ignorable (indexes into ``text``)."""
    hi = len(text) if hi is None else hi
    return list(compress(range(lo, hi), text[lo:hi].translate(_MASK).encode("latin-1")))
