"""The parallel pages' layout, checked in the browser: what a reader sees out of place, counted row by row.

Three probes, each a JavaScript function run in a page (:func:`measure_layout` over a site: ``scripts/measure_site.py
--layout``; the browser tests run the same functions on a few pages of the book):

* :data:`OUT_OF_ORDER`: aligned rows where a column's blocks do not stand in its own order, top to bottom (喪服's
  傳 above the 注 on the 經, when the blocks were placed by their layers' rank);
* :data:`NOT_LEVEL`: rows whose columns divide the text into different numbers of 经 passages, and of those, the
  rows where the first 注 after each column's last 经 does not start at one height (鄉射禮 §1);
* :data:`HEAD_OVER_LABEL`: rows whose head (§ number, passage id) overlaps a folio label.

Why counted over every page of a build, not asserted on one: a rule written on one row (鄉射禮 §1) is measured on
the 篇 it was not written for.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: ``[aligned rows, rows with a column out of its own order, the first such row's id]``
OUT_OF_ORDER = """() => {
    let rows = 0, off = 0, first = null;
    for (const r of document.querySelectorAll('.cols.aligned')) {
        rows++;
        for (const c of [...r.querySelectorAll(':scope > .col')].filter(c => c.checkVisibility())) {
            const tops = [...c.querySelectorAll('.piece, h3')].map(p => p.getBoundingClientRect().top);
            if (tops.some((t, i) => i && t < tops[i - 1] - 1)) { off++; first = first || r.closest('section').id; break; }
        }
    }
    return [rows, off, first]; }"""

#: ``[rows whose columns have different numbers of 经 passages, those whose 注 are not level, the worst offset px]``
NOT_LEVEL = """() => {
        let rows = 0, off = 0, worst = 0;
        for (const r of document.querySelectorAll('.cols.aligned')) {
            const cols = [...r.querySelectorAll(':scope > .col')].filter(c => c.checkVisibility());
            const counts = cols.map(c => c.querySelectorAll('.piece.l-jing').length);
            if (cols.length < 2 || Math.min(...counts) === 0 || Math.min(...counts) === Math.max(...counts)) continue;
            const tops = [];
            for (const c of cols) {
                const pieces = [...c.querySelectorAll('.piece')];
                const last = pieces.map(p => p.classList.contains('l-jing')).lastIndexOf(true);
                const zhu = pieces.slice(last + 1).find(p => p.classList.contains('l-zhu'));
                if (zhu) tops.push(zhu.getBoundingClientRect().top);
            }
            if (tops.length < 2) continue;
            rows++;
            const d = Math.max(...tops) - Math.min(...tops);
            worst = Math.max(worst, d);
            if (d > 2) off++;
        }
        return [rows, off, worst]; }"""

#: ``[rows, rows whose head overlaps a folio label]``
HEAD_OVER_LABEL = """() => { let n = 0, rows = 0;
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  for (const r of document.querySelectorAll('section.row')) {
    const head = [...r.querySelectorAll('.row-head a')].map(e => e.getBoundingClientRect());
    const labels = [...r.querySelectorAll('.pb > span')].filter(e => e.checkVisibility()).map(e => {
      const rg = document.createRange(); rg.selectNodeContents(e); return rg.getBoundingClientRect(); });
    rows++;
    if (head.some(h => labels.some(l => hit(h, l)))) n++;
  } return [rows, n]; }"""


@dataclass
class LayoutFigures:
    name: str
    rows: int
    out_of_order: int
    uneven: int
    not_level: int
    head_over_label: int


def measure_layout(browser: Any, pages: list[Path], width: int = 1400) -> list[LayoutFigures]:
    """Each page's counts (:class:`LayoutFigures`), in one browser page at ``width``."""
    pg = browser.new_page(viewport={"width": width, "height": 1000})
    out = []
    try:
        for page in pages:
            pg.goto(page.as_uri())
            pg.wait_for_load_state("load")
            rows, off, _first = pg.evaluate(OUT_OF_ORDER)
            uneven, not_level, _worst = pg.evaluate(NOT_LEVEL)
            _rows, over = pg.evaluate(HEAD_OVER_LABEL)
            out.append(LayoutFigures(page.name, rows, off, uneven, not_level, over))
    finally:
        pg.close()
    return out


def layout_table(figures: list[LayoutFigures]) -> str:
    head = f"{'page':32} {'aligned rows':>12} {'out of order':>12} {'uneven rows':>11} {'注 not level':>11} {'head over label':>15}"
    lines = [head, "-" * len(head)]
    lines += [f"{f.name:32} {f.rows:>12} {f.out_of_order:>12} {f.uneven:>11} {f.not_level:>11} {f.head_over_label:>15}"
              for f in figures]
    total = [sum(getattr(f, k) for f in figures) for k in ("rows", "out_of_order", "uneven", "not_level",
                                                           "head_over_label")]
    lines.append(f"{'all':32} {total[0]:>12} {total[1]:>12} {total[2]:>11} {total[3]:>11} {total[4]:>15}")
    return "\n".join(lines)
