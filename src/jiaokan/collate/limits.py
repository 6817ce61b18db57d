"""What a witness must be to be collated: no text repeated over and over, no passage too big.

Each check gives the reason a witness is refused, as a one-line :class:`CollationError`,
rather than a collation that says nothing (repeats) or one that runs out of memory (a
passage of tens of millions of characters).

**Repeated text.**  Collation aligns each passage of one witness with one passage of another.  A file
holding ten copies of the same 卷 (pasted twice, a concatenation gone wrong) was aligned
copy-for-copy with the first and the nine other copies left in rows the shorter witness
does not reach, so the collation reported 0 apparatus entries and succeeded: silence
where the honest answer is "this witness repeats itself".

The measure: among a witness's passages with at least :data:`MIN_CHARS` characters of 经
(short formulae such as 主人荅拜 do recur in 《仪礼》), the share whose 经 (on
normalized keys) is the same as an earlier passage's.  In the 81 Kanripo files of 篇一–
十三 (集释, 注疏, 四部丛刊) it is at most 1 passage in 69 (1.4 %); ten copies of a 卷
give 90 %.  :data:`MAX_SHARE` sits far from both.

**Huge passages.**  A layer of one passage is aligned character by character, which costs
about 200 bytes a character: a TEI whose 经 was one 48 MB text node took 412 s and
11 GB.  The largest passage layer in 篇一–十三 holds a few thousand characters (a whole 卷 is
under 100,000), so :data:`MAX_PASSAGE_CHARS` refuses only text that no reader split into
passages, and bounds the memory of a collation to a few hundred MB a passage.
"""

from __future__ import annotations

from itertools import chain
from typing import Callable

from ..model import Text, Witness, inline_length
from ..normalize.fold import key as fold_key
from ..normalize.ignorable import is_ignorable
from .rows import body_units, jing_keys

#: 经 shorter than this is a formula that may recur, not evidence of a copy.
MIN_CHARS = 8
#: At least this many such passages before the share means anything.
MIN_PASSAGES = 10
#: A witness with this share (or more) of repeated passages repeats itself.
MAX_SHARE = 0.25
#: The most characters one layer of one passage may hold to be aligned.
MAX_PASSAGE_CHARS = 1_000_000


def repeated_text(w: Witness, key: Callable[[str], str], ignorable: Callable[[str], bool],
                  jing: list[tuple[int, str]] | None = None) -> str | None:
    """Why ``w`` cannot be collated as it is (its passages repeat), or None.  ``jing``: the
    :func:`~.rows.jing_keys` of its :func:`~.rows.body_units`, when the caller has them (``key`` and
    ``ignorable`` the collation's own)."""
    if jing is None and key is fold_key and ignorable is is_ignorable:
        jing = jing_keys(body_units(w))
    if jing is None:
        units = body_units(w)
        jing = [(i, "".join(key(c) for c in jt.text if not ignorable(c)))
                for i, u in enumerate(units) if (jt := u.jing) is not None]
    seen: set[str] = set()
    n = repeats = 0
    for _, k in jing:
        if len(k) < MIN_CHARS:
            continue
        n += 1
        if k in seen:
            repeats += 1
        seen.add(k)
    if n < MIN_PASSAGES or repeats < MAX_SHARE * n:
        return None
    copies = n / max(1, n - repeats)
    return (f"witness {w.meta.siglum} ({w.meta.file}) repeats its own text: {repeats} of its {n} passages of "
            f"{MIN_CHARS}+ characters of 经 are the same as an earlier one (about {copies:.0f} copies of one text?); "
            "a collation would align one copy and leave the others unplaced: remove the copies")


def oversized_passage(w: Witness, layers: tuple[str, ...]) -> str | None:
    """Why ``w`` cannot be collated (a passage whose layer is beyond :data:`MAX_PASSAGE_CHARS`), or None."""
    units = body_units(w)
    # a bound first: a piece's reading text (its text nodes and gaiji readings) is at least its text nodes, so a
    # witness whose layers hold no more than the limit in all has no passage beyond it (every book).  The nodes
    # of all those pieces measured in one pass in C, neither listed nor joined: the whole witness's node list and
    # text, made only to be measured, were the largest blocks a collation grew (a copy each time they outgrew it)
    if inline_length(chain.from_iterable(p.content for u in units for p in u.pieces if p.layer in layers)) \
            <= MAX_PASSAGE_CHARS:
        return None
    for u in units:
        sizes: dict[str, int] = {}
        for p in u.pieces:
            if p.layer in layers:
                sizes[p.layer] = sizes.get(p.layer, 0) + sum(len(x.text) for x in p.content if isinstance(x, Text))
        for layer, n in sizes.items():
            if n > MAX_PASSAGE_CHARS:
                return (f"passage {u.id} of witness {w.meta.siglum} ({w.meta.file}) holds {n:,} characters of {layer}, "
                        f"more than the {MAX_PASSAGE_CHARS:,} one passage may hold to be aligned (about "
                        f"{n * 200 / 1e9:.1f} GB of memory): split the text into passages")
    return None
