"""The 疏 of the 注疏 shown once: on its 疏 page, with a link to it from the 经注 page.

Why: a 篇 that both a 注疏 (ZS) and a 单疏本 (DS) hold has a 疏 collation (``NAME-shu``, :mod:`jiaokan.collate.shu`)
whose ZS column shows every ZS passage whole (经, 注 and 疏) beside the DS 疏, with the variants marked.  The 经注
page (``NAME``) showed that 疏 a second time, where no other witness has the layer and no variant can be marked
(with the "疏 仅见于 ZS" note of each such row, 1.0 of the 7.4 MB of 经注 pages on the whole book), and its long
blocks made the 经注 rows tall beside blank columns.  So there, each ZS 疏 piece is a short link to the row of the 疏 page (the part file that holds it)
that shows it (:meth:`.inline.ColumnWriter.add_unit`); the search takes a hit in that 疏 there too
(:func:`.search_index.chapter_index`, ``away``).

A 篇 without a 疏 collation (no 单疏本), or whose 经注 collation has another witness with 疏 (a variant there can
be marked only there), keeps its 疏 on the 经注 page.
"""

from __future__ import annotations

from .chapter import Chapter


def shu_pairs(chapters: list[Chapter]) -> list[tuple[Chapter, Chapter, str]]:
    """(经注 chapter, its 疏 chapter, the siglum of the 注疏) for every 疏 collation whose 注疏 (its base, the very
    same witness under the same siglum) is in a collation of the same 篇 where no other witness has 疏.

    The very same witness: the same object in a build; in ``jiaokan render``, which reads each apparatus's
    witnesses anew, read from the same TEI file (its unit ids, which the links name, are the same)."""
    out = []
    for sc in chapters:
        col = sc.collation
        if col is None or tuple(col.layers) != ("shu",):
            continue
        s = col.base
        for ch in chapters:
            if ch is sc or ch.collation is None or not _same(ch, sc, s) or ch.label != sc.label:
                continue
            if any(p.layer == "shu" for o, x in ch.witnesses.items() if o != s for p in x.pieces()):
                continue
            out.append((ch, sc, s))
            break
    return out


def _same(a: Chapter, b: Chapter, s: str) -> bool:
    """Is witness ``s`` of ``a`` the very one of ``b`` (see :func:`shu_pairs`)?"""
    if a.witnesses.get(s) is b.witnesses[s]:
        return True
    tei = b.tei_files.get(s)
    return tei is not None and a.tei_files.get(s) == tei


def link_shu(pairs: list[tuple[Chapter, Chapter, str]], part_of_row: dict[str, dict[str, str]]) -> None:
    """Give each 经注 chapter of ``pairs`` its links: :attr:`.Chapter.shu_links` (siglum → unit id → the 疏
    page's part and row that show that unit, ``NAME-shu-p2.html#r40``) and :attr:`.Chapter.shu_pages` (siglum
    → the 疏 page).  ``part_of_row``: per 疏 chapter's name, row id → the part file that holds the row."""
    for ch, sc, s in pairs:
        parts = part_of_row.get(sc.name, {})
        links = {}
        for row in sc.rows():
            page = parts.get(row.id, sc.page)
            for uid in row.units.get(s, []):
                links[uid] = f"{page}#{row.id}"
        ch.shu_links[s] = links
        ch.shu_pages[s] = sc.page
