"""The overview strip: variant density along the chapter, one cell per passage row, each a link to it.

The strip is the same in every view of a chapter (parallel, 校勘記, each witness as the reading text, 校定本) and
on every part of a long view: written into each page it was a sixth of the site (800 cells on 聘禮, 75 bytes
each, on some 60 pages).  So it is data, written once per chapter with the apparatus entries (``apps/NAME.js``,
:func:`.search_index.write_chapter_apps`), and ``edition.js`` draws the cells into the page's empty strip, each
pointing into the part of the view that holds its row (the page's ``data-parts``).
"""

from __future__ import annotations

from ..model import Witness
from ..alive import WhileAlive

#: The layers a row's width counts (its 经 and 注: the 疏 and notes would drown the passage's own length).
WIDTH_LAYERS = ("jing", "zhu")

#: How much a reading of each type weighs in the density (orthographic differences are quiet).
WEIGHT = {"substantive": 1.0, "omission": 1.0, "addition": 1.0, "transposition": 1.0, "taboo": 0.4,
          "orthographic": 0.25, "uncertain": 0.1}

#: The flags of a cell: a row with a strong variant (darker); a row not in every witness (hatched).
STRONG, SOLO = 1, 2


def row_key(row: str | None) -> str | int | None:
    """A row's id as the chapter's data write it (a witness's ``rows``, an apparatus entry's row): ``r12`` as 12,
    any other (``front``, ``back``) as it is; the scripts write ``"r" + n`` again."""
    return int(row[1:]) if row is not None and row[:1] == "r" and row[1:].isdigit() and row[1:2] != "0" else row


def row_id(key: str | int | None) -> str | None:
    """The row id of a :func:`row_key`."""
    return f"r{key}" if isinstance(key, int) else key


#: witness → unit id → the characters of its :data:`WIDTH_LAYERS` (:func:`unit_widths`)
_widths: WhileAlive[Witness, dict[str, int]] = WhileAlive()


def unit_widths(w: Witness) -> dict[str, int]:
    """unit id → how many characters its 经 and 注 pieces read (:data:`WIDTH_LAYERS`, ``len(piece.text)``): what
    :func:`remember_widths` was told, else counted here.  The search index reads every piece of a witness anyway
    (:func:`.search_index.chapter_index`, before the strip is made) and says so; the strip counting them again
    (every piece's text joined once more, and again for each chapter the witness is in) was a fifth of it."""
    hit = _widths.get(w)
    if hit is None:
        hit = {u.id: sum(len(p.text) for p in u.pieces if p.layer in WIDTH_LAYERS) for u in w.units()}
        _widths.put(w, hit)
    return hit


def remember_widths(w: Witness, widths: dict[str, int]) -> None:
    """Keep :func:`unit_widths` of ``w`` (counted by whoever read its pieces), while the witness lives."""
    _widths.put(w, widths)


def overview_cells(ch, apps_by_row: dict[str, list]) -> list[dict]:
    """Per row: href, width (base characters), density 0–1 (as a CSS custom property), § number and variants."""
    widths = {s: unit_widths(w) for s, w in ch.witnesses.items()}
    cells = []
    nwit = len(ch.witnesses)
    for i, row in enumerate(ch.rows(), 1):
        chars = 0
        for s, ids in row.units.items():
            ws = widths[s]
            n = sum(ws[uid] for uid in ids)
            chars = max(chars, n)
        counts: dict[str, int] = {}  # (a dict, not a Counter: one per row, and a Counter's making is in Python)
        for a in apps_by_row.get(row.id, ()):
            for r in a.readings.values():
                if r.type != "agree":  # (App.differing, without a dict per entry)
                    counts[r.type] = counts.get(r.type, 0) + 1
        weight = sum(WEIGHT.get(t, 1.0) * n for t, n in counts.items())
        strong = sum(n for t, n in counts.items() if WEIGHT.get(t, 1.0) >= 1)
        density = min(1.0, weight / 3.0)
        present = sum(1 for ids in row.units.values() if ids)
        solo = nwit > 1 and present < nwit
        n = sum(counts.values())
        cells.append({
            "href": f"#{row.id}", "grow": max(chars, 8), "d": f"{density:.2f}",
            "strong": strong > 0, "solo": solo, "n": i, "v": n,
        })
    return cells


def overview_data(cells: list[dict]) -> dict:
    """The strip as ``edition.js`` draws it: per cell [width, density in hundredths, variants, flags
    (:data:`STRONG` | :data:`SOLO`)], and the row ids (``ids``) unless they are ``r1`` … ``rN`` in order, as every
    chapter's are (:func:`overview_ids` reads them either way; the list said them again, a tenth of the strip); a
    cell is named (§n: v variants) on hover or focus, in the interface's language."""
    out: dict = {"c": [[c["grow"], round(float(c["d"]) * 100), c["v"], (STRONG if c["strong"] else 0) | (SOLO if c["solo"] else 0)]
                       for c in cells]}
    ids = [c["href"][1:] for c in cells]
    if ids != [f"r{i}" for i in range(1, len(ids) + 1)]:
        out["ids"] = ids
    return out


def overview_ids(data: dict) -> list[str]:
    """The row ids of :func:`overview_data`'s cells (``edition.js`` reads them so too)."""
    ids: list[str] = data.get("ids") or [f"r{i}" for i in range(1, len(data["c"]) + 1)]
    return ids
