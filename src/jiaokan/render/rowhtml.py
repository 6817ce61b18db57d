"""The rows of the parallel view as HTML (chapter.html's body): a ``section`` per row, its head, a column per witness.

Why not the template: a page is its rows, some 5,000 in the book, each a handful of columns; Jinja's loop over
them (a generator step, a conditional and an escape per attribute) was a tenth of the render stage under cProfile,
and these f-strings write the same bytes.  (Timed without the profiler, at stop 32, the render stage's gain was
within the machine's noise: the profiler inflates Jinja's many small calls.)  The rest of the page (the bar, the front and back matter, the parts' navigation)
stays in the templates.

What the markup leaves out, on purpose (each byte here is written some 5,000 times): indentation; the permalinks'
tooltips, which edition.js gives at load (``keyboardMarks``); a column's ``lang`` where it is main's (the base
witness's script), which it inherits; the row's number as an attribute (its id, ``r12``, says it).
"""

from __future__ import annotations

from markupsafe import Markup

from .html import esc

#: The tooltip of "未能对齐" (a witness that has the passage elsewhere), in the interface's default language.
_UNPLACED_TIP = "此段经文见于该本他处：校勘程序未能将其对齐于此，并非该本所无"


def rows_html(rows: list[dict], lang: str) -> Markup:
    """The rows of :func:`.chapter.parallel_context` (``rows``), main's language ``lang``."""
    out: list[str] = []
    for r in rows:
        rid = esc(r["id"])
        cls = "row" + (" solo" if r["solo"] else "") + (" gappy" if r["absent"] else "")
        # the row's permalinks: their href (#the row's id, #the passage id they show) edition.js gives at load
        # (expandMarks); without scripts they show, not as links
        out.append(f'<section class="{cls}" id="{rid}">\n<div class="row-head"><a class="plink">§{r["n"]}</a>')
        if r["passage"]:
            out.append(f'<a class="pid">{esc(r["passage"])}</a>')
        out.append("</div>\n")
        slots = r["slots"]
        out.append(f'<div class="cols aligned" style="--slots:{slots}">\n' if slots else '<div class="cols">\n')
        for c in r["cols"]:
            la = "" if c["lang"] == lang else f' lang="{esc(c["lang"])}"'
            if c["empty"]:
                out.append(f'<div class="col col-empty" data-wit="{esc(c["siglum"])}"{la} aria-hidden="true"></div>\n')
            else:
                short = " col-short" if c["short"] else ""
                out.append(f'<div class="col{short}" data-wit="{esc(c["siglum"])}"{la}>{c["html"]}</div>\n')
        out.append("</div>\n")
        if r["gaps"] or r["absent"] or r["unplaced"]:
            out.append('<p class="row-notes">')
            if r["absent"]:
                out.append('<span class="absent-note"><span data-i18n="absent-in">不见于</span> '
                           + "".join(f'<b class="wit-{esc(s)}">{esc(s)}</b>' for s in r["absent"]) + "</span>")
            if r["unplaced"]:
                out.append(f'<span class="unplaced-note" data-i18n-title="unplaced-tip" title="{_UNPLACED_TIP}">'
                           '<span data-i18n="unplaced-in">未能对齐</span> '
                           + "".join(f'<b class="wit-{esc(s)}">{esc(s)}</b>' for s in r["unplaced"]) + "</span>")
            for g in r["gaps"]:
                # args: attr_json's, already safe in a single-quoted attribute; "疏 仅见于 ZS" (gap-layer) needs
                # none: its layer and witnesses are the class and data-present (edition.js argsOf), a fifth of a
                # note's bytes on every row of the 疏 pages
                args = "" if g["key"] == "gap-layer" else f' data-i18n-args=\'{g["args"]}\''
                out.append(f'<span class="gap l-{esc(g["layer"])}" data-present="{esc(g["present"])}" '
                           f'data-i18n="{esc(g["key"])}"{args}>{esc(g["text"])}</span>')
            out.append("</p>\n")
        out.append("</section>\n")
    return Markup("".join(out))
