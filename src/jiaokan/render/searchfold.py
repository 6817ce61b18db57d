"""The search box's folding table: so that 鄉射 finds 乡射 and 乡射 finds 鄉射, 賔 finds 宾.

The page's JavaScript folds both the query and the text through this table
(the collation's own keys).  It holds every character of the page whose key
differs from it, and every other character that folds to a key found on the
page, so a query typed in either script matches; characters that cannot occur
in a match stay out, which keeps the table to a few hundred entries.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from ..model import Witness, all_source_chars
from ..normalize import key

# the BMP blocks where traditional and variant forms a user may type live
_TYPABLE = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))


@lru_cache(maxsize=1)
def _by_key() -> dict[str, tuple[str, ...]]:
    """key → the characters that fold to it (other than itself), over the typable blocks."""
    groups: dict[str, list[str]] = {}
    for lo, hi in _TYPABLE:
        for cp in range(lo, hi + 1):
            ch = chr(cp)
            k = key(ch)
            if k and k != ch and len(k) == 1:
                groups.setdefault(k, []).append(ch)
    return {k: tuple(v) for k, v in groups.items()}


def fold_table(witnesses: Iterable[Witness]) -> dict[str, str]:
    chars: set[str] = set()
    for w in witnesses:
        for p in w.pieces():
            chars.update(p.text)
            for n in p.notes():
                chars.update(n.text)
            chars.update(all_source_chars(p.content))
    out: dict[str, str] = {}
    page_keys: set[str] = set()
    for ch in sorted(chars):
        if ch.isspace() or ord(ch) < 0x2E80:
            continue
        k = key(ch)
        if not k or len(k) != 1:
            continue
        page_keys.add(k)
        if k != ch:
            out[ch] = k
    inverse = _by_key()
    for k in sorted(page_keys):
        for ch in inverse.get(k, ()):
            out.setdefault(ch, k)
    return out
