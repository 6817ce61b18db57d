"""The apparatus JSON ``jiaokan build`` writes: the alignment table with one string per cell, said once.

Why a second layout: CollateX's (:mod:`.export`, what ``jiaokan collate --json`` writes) gives
every character a token object ``{"t", "n", "row", "layer"}``, 47 MB for the book, most of it
the same four keys again.  Here everything is said once:

* ``table``: per witness, its text in each column, ``null`` where it has nothing; in the
  rows of the other witnesses, ``1`` where the witness has the very characters of the base's
  cell (most of the text: the witnesses agree);
* ``columns``: the row and layer of the columns, as runs ``[row, layer, n]`` (``n`` columns
  in a row of that row and layer);
* ``variants``: one list per entry, its fields in the order ``variant_fields`` names, and a
  field that has a value per witness (readings, types, pages, lines, columns) as a list in the
  order of ``witnesses``, ``null`` for a witness the entry does not list;
* ``base``, ``layer_gaps``, ``rows``, ``counts`` as in the CollateX layout.

Nothing is lost: a cell's tokens are its characters (``n`` is :func:`jiaokan.normalize.key`
of each), :func:`json_variants` gives the entries as the CollateX layout's dicts, and
:func:`jiaokan.collate.apparatus_reader.rebuild_from_json` reads every layout.

Layout::

    {"format": "jiaokan-lean-table/2", "witnesses": ["JS", "ZS", "SB"], "base": "JS",
     "columns": [["r1", "jing", 3], ["r1", "zhu", 2], …],
     "table": [["士冠禮筮于", "庿", "門", …], [1, 1, 1, …], [1, "廟", 1, …]],
     "variant_fields": ["id", "passage", …], "variants": [["app1", "JS1.5", …], …],
     "layer_gaps": […], "rows": […], "counts": {…}}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..io import write_json
from .export import apparatus_fields
from .model import Collation
from .segments import row_layer_segments

FORMAT = "jiaokan-lean-table/2"
#: the first lean layout: a cell for every witness, ``[row, layer]`` per column, entries as dicts
FORMAT_1 = "jiaokan-lean-table/1"

#: an entry's fields, in the order a variant list holds them (as :func:`.export.apparatus_fields` makes them)
VARIANT_FIELDS = ("id", "passage", "row", "layer", "type", "subtype", "readings", "types", "context", "pages",
                  "lines", "columns")
#: the fields with a value per witness
_PER_WITNESS = frozenset({"readings", "types", "pages", "lines", "columns"})
#: a cell of a witness that holds the very characters of the base's cell
SAME_AS_BASE = 1


def _cell(text: str) -> str | None:
    """A witness's cell: its characters there without white space (as the CollateX layout's tokens)."""
    return "".join(text.split()) or None  # str.split() cuts at exactly the characters str.isspace() names


def lean_json(col: Collation) -> dict:
    """The collation as the lean table (see the module's docstring)."""
    sigla, base = col.sigla, col.base
    columns: list[list[Any]] = []
    table: dict[str, list[str | int | None]] = {s: [] for s in sigla}
    base_cells, others = table[base], [s for s in sigla if s != base]
    for row_id, layer, texts, segments in row_layer_segments(col):
        if segments:
            if columns and columns[-1][0] == row_id and columns[-1][1] == layer:
                columns[-1][2] += len(segments)
            else:
                columns.append([row_id, layer, len(segments)])
        base_text = texts[base].text
        other = [(texts[s].text, s, table[s]) for s in others]
        for seg in segments:
            spans = seg.spans
            at = spans.get(base)
            raw = base_text[at[0]:at[1]] if at else None
            here = _cell(raw) if raw else None
            base_cells.append(here)
            for text, s, cells in other:
                at = spans.get(s)
                if at is None:
                    cells.append(None)
                    continue
                mine = text[at[0]:at[1]]
                if mine == raw:  # the very characters of the base's (most cells): the same cell, not cut again
                    cells.append(SAME_AS_BASE if here is not None else None)
                    continue
                cell = _cell(mine) if mine else None
                cells.append(SAME_AS_BASE if cell is not None and cell == here else cell)
    fields = apparatus_fields(col)
    names = list(fields["variants"][0]) if fields["variants"] else list(VARIANT_FIELDS)
    assert all(k in _PER_WITNESS for k, x in (fields["variants"] or [{}])[0].items() if isinstance(x, dict)), names
    fields["variants"] = [[list(map(v[k].get, sigla)) if k in _PER_WITNESS else v[k] for k in names]
                          for v in fields["variants"]]
    return {"format": FORMAT, "witnesses": sigla, "base": fields.pop("base"), "columns": columns,
            "table": [table[s] for s in sigla],
            "variant_fields": names, **fields}


def json_variants(data: dict) -> list[dict]:
    """The entries of an apparatus JSON in any layout, each a dict as the CollateX layout has it
    (``{"id", "readings": {siglum: text}, "types": …}``): what readers of the entries use."""
    if data.get("format") != FORMAT:
        return list(data["variants"])
    sigla, base, names = data["witnesses"], data["base"], data["variant_fields"]
    out = []
    for row in data["variants"]:
        v = dict(zip(names, row))
        # the witnesses an entry lists: those with a reading (a string, never null); types: all but the base
        listed = [i for i, r in enumerate(v["readings"]) if r is not None]
        for k in _PER_WITNESS.intersection(v):
            v[k] = {sigla[i]: v[k][i] for i in listed if k != "types" or sigla[i] != base}
        out.append(v)
    return out


def json_cells(data: dict) -> tuple[list[str], list[list[str | None]]]:
    """(The layer of each column, each witness's cells) of a lean table of either version."""
    if data.get("format") == FORMAT_1:
        return [layer for _, layer in data["columns"]], data["table"]
    layers = [layer for _, layer, n in data["columns"] for _ in range(n)]
    bi = data["witnesses"].index(data["base"])
    base = data["table"][bi]
    cells = [[base[j] if c == SAME_AS_BASE else c for j, c in enumerate(row)] for row in data["table"]]
    return layers, cells


def write_lean_json(col: Collation, path: str | Path) -> Path:
    write_json(path, lean_json(col))
    return Path(path)
