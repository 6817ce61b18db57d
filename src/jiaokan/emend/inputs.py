"""What the 案 check is given, found the same way by every door (``jiaokan emend``, ``jiaokan.emend()``, ``jiaokan build``).

Why a module: the check of a claim on the 集释's 目録 passage needs the 注疏's front matter
(its 卷首 gives the 鄭目録 of every 篇, not the 篇's own 卷).  ``jiaokan build`` always had it
from the corpus; the command line and the API were given only the 注疏 卷, and said "not
covered" where the build said "confirmed".  Now each door asks :func:`front_matter_beside`
for the front matter beside the 注疏 file it was given, so the three give one verdict.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable

from ..book.pian import FRONT, slug
from ..errors import InputError
from ..model import Witness

__all__ = ["front_matter_beside", "front_matter_among", "has_chapter_title"]

#: A Kanripo file name: text id and 卷 (``KR1d0028_013``); the front matter (卷首) is 卷 000.
_KANRIPO_STEM = re.compile(r"^(?P<text>KR[0-9a-z]+)_(?P<juan>\d{3})$", re.IGNORECASE)


def has_chapter_title(w: Witness) -> bool:
    """Does ``w`` hold a 篇 (a chapter title other than the front matter's)?"""
    if w.meta.chapter:
        return w.meta.chapter != FRONT
    return any(d.type == "chapter" and d.title and d.title != FRONT for d in w.divs)


def front_matter_among(witnesses: Iterable[Witness], siglum: str) -> Witness | None:
    """The front matter of the witness ``siglum`` among ``witnesses`` (a build's): the one of that
    siglum that holds no 篇, whatever its file is called."""
    return next((w for w in witnesses if w.meta.siglum == siglum and not has_chapter_title(w)), None)


def front_matter_beside(against: str | os.PathLike[str], siglum: str) -> Path | None:
    """The 注疏's front matter beside the 注疏 file ``against``, or None.

    * a Kanripo file ``KR1d0028_013.txt``: ``KR1d0028_000.txt`` in the same folder, when its
      reader finds no 篇 title (it is the 卷首, not a 篇);
    * a TEI file a build wrote (``tei/…-ZS.xml``): ``tei/front-ZS.xml`` beside it.

    An unreadable candidate is no front matter (the check goes on without it).
    """
    from ..readers import read_witness
    from ..model import WitnessMeta

    p = Path(against)
    if p.suffix == ".xml":
        cand = p.with_name(f"{slug(FRONT)}-{siglum}.xml")
        return cand if cand.is_file() and cand.resolve() != p.resolve() else None
    m = _KANRIPO_STEM.match(p.stem)
    if m is None or m.group("juan") == "000":
        return None
    cand = p.with_name(f"{m.group('text')}_000{p.suffix}")
    if not cand.is_file():
        return None
    try:
        w = read_witness(cand, WitnessMeta(siglum=siglum, file=str(cand), format=""))
    except InputError:
        return None
    return None if has_chapter_title(w) else cand
