"""The overview strip: variant density along the chapter, one cell per passage row, each a link to it."""

from __future__ import annotations

from collections import Counter

#: How much a reading of each type weighs in the density (orthographic differences are quiet).
WEIGHT = {"substantive": 1.0, "omission": 1.0, "addition": 1.0, "transposition": 1.0, "taboo": 0.4,
          "orthographic": 0.25, "uncertain": 0.1}


def overview_cells(ch, apps_by_row: dict[str, list]) -> list[dict]:
    """Per row: href, width (base characters), density 0–1 (as a CSS custom property) and a title."""
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
            "strong": strong > 0, "solo": solo,
            # in the default interface language; the page's script gives 繁 and English (ov-cell[-solo])
            "title": f"§{i}：异文 {n}" + ("（非各本皆有此段）" if solo else ""),
            "key": "ov-cell-solo" if solo else "ov-cell", "args": f'{{"n":{i},"v":{n}}}',
        })
    return cells
