"""The apparatus JSON ``jiaokan build`` writes: the alignment table with one string per cell.

Why a second layout: CollateX's (:mod:`.export`, what ``jiaokan collate --json`` writes) gives
every character a token object ``{"t", "n", "row", "layer"}``, 47 MB for the book, most of it
the same four keys again.  Here a cell is the witness's text in that column (``null`` where it
has nothing) and the row and layer are said once per column, in ``columns``; everything else
(base, variants, layer gaps, rows, counts) is as in the CollateX layout.  Nothing is lost:
a cell's tokens are its characters (``n`` is :func:`jiaokan.normalize.key` of each), and
:func:`jiaokan.collate.apparatus_reader.rebuild_from_json` reads both layouts.

Layout::

    {"format": "jiaokan-lean-table/1", "witnesses": ["JS", "ZS"],
     "columns": [["r1", "jing"], ["r1", "zhu"], …],
     "table": [["聘禮君與卿圖事", "鄭目録云…", …], [ … ]],
     "base": "JS", "variants": […], "layer_gaps": […], "rows": […], "counts": {…}}
"""

from __future__ import annotations

from pathlib import Path

from ..io import write_json
from .export import apparatus_fields
from .model import Collation
from .segments import row_layer_segments

FORMAT = "jiaokan-lean-table/1"


def _cell(text: str) -> str | None:
    """A witness's cell: its characters there without white space (as the CollateX layout's tokens)."""
    return "".join(text.split()) or None  # str.split() cuts at exactly the characters str.isspace() names


def lean_json(col: Collation) -> dict:
    """The collation as the lean table (see the module's docstring)."""
    sigla = col.sigla
    columns: list[list[str]] = []
    table: list[list[str | None]] = [[] for _ in sigla]
    for row_id, layer, texts, segments in row_layer_segments(col):
        for seg in segments:
            columns.append([row_id, layer])
            for i, s in enumerate(sigla):
                b0, b1 = seg.spans.get(s, (0, 0))
                table[i].append(_cell(texts[s].text[b0:b1]))
    return {"format": FORMAT, "witnesses": sigla, "columns": columns, "table": table, **apparatus_fields(col)}


def write_lean_json(col: Collation, path: str | Path) -> Path:
    write_json(path, lean_json(col))
    return Path(path)
