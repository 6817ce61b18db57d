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


#: id(witness) → (the witness, the characters it holds): a witness in two chapters (the 注疏 in its 篇 and in
#: the 疏 collated with the 单疏本) is read once
_held: dict[int, tuple[Witness, frozenset[str]]] = {}


def _chars(w: Witness) -> frozenset[str]:
    """Every character the witness holds: its reading text, its notes', and its source (gaiji as written)."""
    hit = _held.get(id(w))
    if hit is not None and hit[0] is w:
        return hit[1]
    parts: list[str] = []
    for p in w.pieces():
        parts.append(p.text)
        parts.extend(n.text for n in p.notes())
        parts.append(all_source_chars(p.content))
    chars = frozenset("".join(parts))  # one set of one string, in C
    if len(_held) >= 128:  # a book's witnesses (all alive during its build); a long-lived process keeps no more
        _held.clear()
    _held[id(w)] = (w, chars)
    return chars


def fold_table(witnesses: Iterable[Witness]) -> dict[str, str]:
    chars: set[str] = set()
    for w in witnesses:
        chars |= _chars(w)
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
