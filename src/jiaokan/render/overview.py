"""The overview strip: variant density along the chapter, one cell per passage row, each a link to it."""

from __future__ import annotations

from collections import Counter

#: How much a reading of each type weighs in the density (orthographic differences are quiet).
WEIGHT = {"substantive": 1.0, "omission": 1.0, "addition": 1.0, "transposition": 1.0, "taboo": 0.4,
          "orthographic": 0.25, "uncertain": 0.1}


def overview_cells(ch, apps_by_row: dict[str, list]) -> list[dict]:
    """Per row: href, width (base characters), density 0–1 (as a CSS custom property), § number and variants."""
    units = {s: {u.id: u for u in w.units()} for s, w in ch.witnesses.items()}
    cells = []
    nwit = len(ch.witnesses)
    for i, row in enumerate(ch.rows(), 1):
        chars = 0
        for s, ids in row.units.items():
            n = sum(len(p.text) for uid in ids for p in units[s][uid].pieces if p.layer in ("jing", "zhu"))
            chars = max(chars, n)
        counts: Counter = Counter()
        for a in apps_by_row.get(row.id, []):
            for r in a.differing().values():
                counts[r.type] += 1
        weight = sum(WEIGHT.get(t, 1.0) * n for t, n in counts.items())
        strong = sum(n for t, n in counts.items() if WEIGHT.get(t, 1.0) >= 1)
        density = min(1.0, weight / 3.0)
        present = sum(1 for ids in row.units.values() if ids)
        solo = nwit > 1 and present < nwit
        n = sum(counts.values())
        cells.append({
            "href": f"#{row.id}", "grow": max(chars, 8), "d": f"{density:.2f}",
            "strong": strong > 0, "solo": solo, "n": i, "v": n,
            # no title in the page: the strip is on every part of a long 篇 (800 cells on 聘禮), so a cell is
            # only its link, its width and its density; edition.js names it (ov-cell[-solo]) on hover or focus
        })
    return cells
