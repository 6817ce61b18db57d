"""The parallel-text HTML edition (``jiaokan render``, the last stage of ``jiaokan build``).

Modules, one job each:

* :mod:`.inputs`     apparatus and witness TEI files → chapters (re-collating an apparatus's witnesses)
* :mod:`.chapter`    a chapter → what its parallel page and its base-text page show
* :mod:`.inline`     pieces and inline nodes → HTML with variant marks, page anchors, 案 notes
* :mod:`.marks`      where each apparatus entry falls in each witness column; footnote order
* :mod:`.appview`    apparatus entries: popover data, printed-edition footnotes, layer-gap notes
* :mod:`.notes`      案 notes with their verdict badges; the 案 summary of the index
* :mod:`.overview`   the variant-density strip
* :mod:`.searchfold` the search box's character folding table
* :mod:`.search_index` the per-chapter data files of search, citation and the 案 dialog (``search/*.js``) and of
  the apparatus popover (``apps/*.js``, shared by a chapter's views)
* :mod:`.cite`       a scholar's citation of a place: 卷, 葉, 行 and the work's title
* :mod:`.site`       templates (``jiaokan/templates``) and static files (``jiaokan/static``) → the site folder
"""

from __future__ import annotations

import os
from pathlib import Path

from .chapter import Chapter
from .notes import Verdicts
from .site import SiteReport, render_site


def render_paths(paths: list[str | Path], out: str | Path, *, verdicts: Verdicts | None = None,
                 title: str | None = None) -> SiteReport:
    """``jiaokan render``: witness and apparatus TEI files → a site in ``out``."""
    from .inputs import load_inputs

    chapters, copies = load_inputs(paths)
    return render_site(chapters, out, verdicts=verdicts, title=title, copies=copies)


def render_collations(collations: dict, witnesses: dict, out: str | Path, *, tei_paths: dict | None = None,
                      apparatus_dir: str | Path | None = None, verdicts: Verdicts | None = None,
                      title: str | None = None, jobs: int = 1, copy_tei: bool = True) -> SiteReport:
    """``jiaokan build``'s render stage: collations by name and witnesses by file stem → a site.

    Every collation gets a chapter page named after it; every witness in no collation a page of its own.
    ``copy_tei``: the TEI files the pages link to are copied into ``out/tei/`` (a site that
    stands alone); else the links point at them where they are (``../tei/…`` in a build, which
    so does not hold every TEI file twice).
    """
    tei_paths = {k: Path(v) for k, v in (tei_paths or {}).items()}
    copies: dict[str, Path] = {}
    site = Path(out)

    def href(path: Path) -> str:
        return f"tei/{path.name}" if copy_tei else Path(os.path.relpath(path, site)).as_posix()
    chapters: list[Chapter] = []
    in_collation: set[int] = set()
    stem_of = {id(w): stem for stem, w in witnesses.items()}
    for name, col in collations.items():
        tei = {}
        for s, w in col.witnesses.items():
            in_collation.add(id(w))
            stem = stem_of.get(id(w))
            if stem and stem in tei_paths:
                tei[s] = href(tei_paths[stem])
                copies[tei[s]] = tei_paths[stem]
        app_href = None
        if apparatus_dir is not None and (Path(apparatus_dir) / f"{name}.xml").is_file():
            app_href = href(Path(apparatus_dir) / f"{name}.xml")
            copies[app_href] = Path(apparatus_dir) / f"{name}.xml"
        chapters.append(Chapter(name, dict(col.witnesses), col, tei_files=tei, apparatus_file=app_href))
    for stem, w in witnesses.items():
        if id(w) in in_collation:
            continue
        tei = {}
        if stem in tei_paths:
            tei[w.meta.siglum] = href(tei_paths[stem])
            copies[tei[w.meta.siglum]] = tei_paths[stem]
        chapters.append(Chapter(stem, {w.meta.siglum: w}, None, tei_files=tei))
    return render_site(chapters, out, verdicts=verdicts, title=title, copies=copies if copy_tei else None, jobs=jobs)


__all__ = ["Chapter", "SiteReport", "render_collations", "render_paths", "render_site"]
