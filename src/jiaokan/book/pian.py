"""Which 篇 each stretch of a file holds, found from the text.

The rules, in order (GUIDE: the 篇 is the division scholars collate by):

1. a per-file ``chapter`` in the manifest places the whole file (where the text does not say);
2. a 卷 numbered 0 (Kanripo's 提要, 目录, 序) is front matter, not a 篇;
3. a heading line that names a 篇 (``鄉射禮第五``, ``鄕射禮第五　儀禮　鄭氏注``, the bare
   ``聘禮`` that opens a continuing 卷) starts that 篇 from its unit on;
4. whatever comes before the first heading continues the 篇 left open by the witness's
   previous file (a 卷 that opens mid-篇), or the witness's own ``chapter``.

Only paratext is taken as a heading: a line of 疏 that happens to read ``聘禮`` is text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..model import Unit, Witness
from ..readers.common.yili import PIAN, canonical_pian, pian_index

#: The 篇 key of front matter (提要, 目录, 序): kept with the witness, never collated.
FRONT = "front"


@lru_cache(maxsize=None)
def canonical(chapter: str) -> str:
    """The 篇 a chapter name stands for, in the form of :data:`PIAN` (``乡射礼`` → ``鄉射禮``); else as given.

    Why: the manifest, the 图书集成 export and the Kanripo files spell the same 篇
    differently, and the book joins witnesses by 篇.  Kept per name (a book has a few dozen): the build
    asks it thousands of times, alone in its parent process (the 篇 table asks it of every witness for
    every 篇), and each time folded the name character by character and matched it against every title.
    """
    name = chapter.strip()
    i = pian_index(name)
    return PIAN[i] if i is not None else canonical_pian(name) or name  # a bare alias (有司) too


def slug(chapter: str) -> str:
    """A file-name part for a 篇: ``pian05`` for 鄉射禮 (its place in the book), ``front``; else the name."""
    if chapter == FRONT:
        return FRONT
    name = canonical(chapter)
    return f"pian{PIAN.index(name) + 1:02d}" if name in PIAN else name


def heading_pian(unit: Unit) -> str | None:
    """The 篇 a unit's heading names, when the unit opens with a paratext line naming one."""
    for p in unit.pieces:
        if p.layer != "paratext":
            return None
        first = re.split(r"[\u3000\s]+", p.text.strip(), maxsplit=1)[0]
        i = pian_index(first.strip("《》〈〉"))  # (the 图书集成's wikisource export heads a 篇 《乡射礼》)
        if i is not None:
            return PIAN[i]
    return None


@dataclass
class Stretch:
    """Consecutive units of one file that belong to one 篇 (``pian`` None: nothing placed them)."""

    pian: str | None
    units: list[Unit] = field(default_factory=list)
    how: str = ""  # why this 篇: "heading", "continues", "manifest", "front", "witness"


def file_stretches(w: Witness, open_pian: str | None, override: str = "", default: str = "") -> list[Stretch]:
    """The 篇 stretches of one file's witness, in order (see the module rules).

    ``open_pian`` is the 篇 the witness's previous file ended in; ``override`` the
    file's own ``chapter`` in the manifest; ``default`` the witness's.
    """
    units = list(w.units())
    if override:
        return [Stretch(canonical(override), units, "manifest")]
    if w.meta.juan.strip().lstrip("0") == "" and w.meta.juan.strip() != "":
        return [Stretch(FRONT, units, "front")]
    out: list[Stretch] = []
    if open_pian is not None:
        cur = Stretch(open_pian, [], "continues")
    elif default:
        cur = Stretch(canonical(default), [], "witness")
    else:
        cur = Stretch(None, [], "")
    front = {id(u) for d in w.divs if d.type == "front" for u in d.units}
    before_front: Stretch | None = None  # what was open when front matter interrupted it
    for u in units:
        if id(u) in front:  # a preface inside a 卷 (the 单疏本's 儀禮䟽序): front matter, as 卷0 is
            if cur.pian != FRONT:
                if cur.units:
                    out.append(cur)
                before_front = cur
                cur = Stretch(FRONT, [], "front")
            cur.units.append(u)
            continue
        if cur.pian == FRONT and cur.how == "front" and before_front is not None:
            # the front matter is over (an export's site header, a preface): what follows is the text again, in
            # the 篇 that was open before it, or none; not front matter because nothing named a 篇 (a file with a
            # header and no heading was all "front", so never collated, and init did not say it was unplaced)
            out.append(cur)
            cur = Stretch(before_front.pian, [], before_front.how)
            before_front = None
        found = heading_pian(u)
        if found is not None and found != cur.pian:
            # the title lines just before a 篇 heading (欽定四庫全書, 儀禮集釋卷五) open it too
            k = len(cur.units)
            while k and _all_paratext(cur.units[k - 1]):
                k -= 1
            lead, cur.units = cur.units[k:], cur.units[:k]
            if cur.units:
                out.append(cur)
            cur = Stretch(found, lead, "heading")
        cur.units.append(u)
    if cur.units or not out:
        out.append(cur)
    return out


def _all_paratext(u: Unit) -> bool:
    return bool(u.pieces) and all(p.layer == "paratext" for p in u.pieces)
