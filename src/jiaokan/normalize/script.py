"""The script fold: OpenCC ``t2s`` applied one character at a time.

Why per character: collation needs one key per source character, at the same position;
phrase-level conversion (OpenCC's default) may rewrite several characters at once and
would make keys depend on the neighbours.  Why repeated until stable: t2s is not
idempotent on a few characters (薴 → 苧 → 苎), and keys must be.  Why a cache: OpenCC costs
about a microsecond per call, and a chapter has 150k characters of only ~2k distinct ones.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import opencc

_FIRST_CONVERTED = 0x3400  # OpenCC t2s leaves everything below CJK Ext A unchanged
_cache: dict[str, str] = {}


@lru_cache(maxsize=1)
def _converter() -> opencc.OpenCC:
    import opencc

    return opencc.OpenCC("t2s")


def t2s_char(ch: str) -> str:
    """The simplified form of one character (``ch`` itself when t2s leaves it alone)."""
    r = _cache.get(ch)
    if r is not None:
        return r
    r = ch
    cp = ord(ch) if len(ch) == 1 else 0
    if cp >= _FIRST_CONVERTED and not (0xD800 <= cp <= 0xDFFF):
        conv = _converter()
        for _ in range(4):
            nxt = conv.convert(r)
            if nxt == r or len(nxt) != 1:
                break
            r = nxt
    _cache[ch] = r
    return r
