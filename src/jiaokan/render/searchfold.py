"""The search box's folding table: so that 鄉射 finds 乡射, 賔 finds 宾 (the collation's own keys).

Only the characters of the page whose key differs from the character go into the
table, so it stays small (a few hundred entries).
"""

from __future__ import annotations

from typing import Iterable

from ..model import Witness, all_source_chars
from ..normalize import key


def fold_table(witnesses: Iterable[Witness]) -> dict[str, str]:
    chars: set[str] = set()
    for w in witnesses:
        for p in w.pieces():
            chars.update(p.text)
            for n in p.notes():
                chars.update(n.text)
            chars.update(all_source_chars(p.content))
    out = {}
    for ch in sorted(chars):
        if ch.isspace() or ord(ch) < 0x2E80:
            continue
        k = key(ch)
        if k and k != ch and len(k) == 1:
            out[ch] = k
    return out
