"""The search box's folding table: so that 鄉射 finds 乡射 and 乡射 finds 鄉射, 賔 finds 宾.

The page's JavaScript folds both the query and the text through this table
(the collation's own keys).  It holds every character of the page whose key
differs from it, and every other character that folds to a key found on the
page, so a query typed in either script matches; characters that cannot occur
in a match stay out, which keeps the table to a few hundred entries.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Iterable

from ..model import Witness, all_source_chars
from ..normalize import key, tables
from ..normalize.script import t2s_changes
from ..alive import WhileAlive

# the BMP blocks where traditional and variant forms a user may type live
_TYPABLE = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))


@lru_cache(maxsize=1)
def _by_key() -> dict[str, tuple[str, ...]]:
    """key → the characters that fold to it (other than itself), over the typable blocks.

    Only a character that one of the folds of :func:`jiaokan.normalize.key` changes can key to another: one NFC
    changes (the compatibility ideographs), a taboo form, one in the 异体 table, or one OpenCC's t2s changes.  The
    last are found by converting each block once, a character a line (no phrase spans a line break, so each
    line converts as the character alone does): asking :func:`key` of every one of the blocks' 28,000 code
    points was a third of the book's folding table."""
    taboo, variants = tables.taboo_forms(), tables.variants()
    groups: dict[str, list[str]] = {}
    for lo, hi in _TYPABLE:
        block = [chr(cp) for cp in range(lo, hi + 1)]
        changed = t2s_changes(block) or [True] * len(block)  # (None: never seen) ask every character
        for ch, t2s in zip(block, changed):
            if not t2s and ch not in taboo and ch not in variants and unicodedata.is_normalized("NFC", ch):
                continue  # no fold changes it: its key is itself
            k = key(ch)
            if k and k != ch and len(k) == 1:
                groups.setdefault(k, []).append(ch)
    return {k: tuple(v) for k, v in groups.items()}


def prepare_fold() -> None:
    """Make now what :func:`fold_table` asks whatever the book holds (the characters by key of the typable
    blocks, a twentieth of a second, kept for the process): the build does it while its workers render."""
    _by_key()



#: witness → the characters it holds (:func:`remember`): a witness in two chapters (the 注疏 in its 篇 and in the 疏
#: collated with the 单疏本) is read once, however many witnesses the book has
_held: WhileAlive[Witness, frozenset[str]] = WhileAlive()


def chars_of(w: Witness) -> frozenset[str]:
    """Every character the witness holds: its reading text, its notes', and its source (gaiji as written); what
    :func:`remember` was told, else read here."""
    hit = _held.get(w)
    if hit is not None:
        return hit
    parts: list[str] = []
    for p in w.pieces():
        parts.append(p.text)
        parts.extend(n.text for n in p.notes())
        parts.append(all_source_chars(p.content))
    chars = frozenset("".join(parts))  # one set of one string, in C
    remember(w, chars)
    return chars


def remember(w: Witness, chars: frozenset[str]) -> None:
    """Keep what the witness holds (:func:`chars_of`): the search index reads every character of a witness once
    anyway (:func:`.search_index.chapter_index`, in whichever process renders its chapter), and reading them
    all again for the book's table, after the workers, was a tenth of the render stage.  Kept while the witness
    lives (:class:`.alive.WhileAlive`)."""
    _held.put(w, chars)


def fold_table(witnesses: Iterable[Witness]) -> dict[str, str]:
    chars: set[str] = set()
    for w in witnesses:
        chars |= chars_of(w)
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
