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
  order of ``witnesses``, ``null`` for a witness the entry does not list; instead of the
  CollateX layout's ``context`` (the base's text around the lemma, the lemma in 【】) an entry
  has ``at``: where its lemma starts in the base's text of its row and layer (the base's cells
  of those columns, joined), from which the context is cut again (:data:`.variants.CONTEXT` characters on
  each side); where that would not give the very context (white space in the text: once in the
  book), ``at`` is the context itself; the values of a layer, type, subtype, reading type and page
  (:data:`CODED`) are numbers, each the index of the value in ``variant_codes[field]``;
* ``layer_gaps``: one list per gap, its fields in the order ``layer_gap_fields`` names;
* ``elsewhere`` (only where there is one): a witness's layer collated in another apparatus beside this
  one (the 注疏's 疏 in ``NAME-shu.json``: :mod:`.elsewhere`), ``{"witness", "layer", "file", "rows"}``:
  the rows (``rows``: each → the rows of ``file`` that hold its text, in order) where that witness
  alone has the layer have no columns of that layer here; its text there is its cells of those rows'
  columns of that layer in ``file`` (the gap in ``layer_gaps`` still says that the others lack it);
* ``base``, ``rows``, ``counts`` as in the CollateX layout.

Nothing is lost: a cell's tokens are its characters (``n`` is :func:`jiaokan.normalize.key`
of each), :func:`json_variants` gives the entries as the CollateX layout's dicts (context
included), :func:`json_layer_gaps` the gaps, and
:func:`jiaokan.collate.apparatus_reader.rebuild_from_json` reads every layout.  A file of a
lean version these readers do not know is refused (:class:`UnknownFormat`), never read as
another.

Layout::

    {"format": "jiaokan-lean-table/4", "witnesses": ["JS", "ZS", "SB"], "base": "JS",
     "columns": [["r1", "jing", 3], ["r1", "zhu", 2], …],
     "elsewhere": {"witness": "ZS", "layer": "shu", "file": "pian01-shu.json", "rows": {"r1": ["r6"], …}},
     "table": [["士冠禮筮于", "庿", "門", …], [1, 1, 1, …], [1, "廟", 1, …]],
     "variant_fields": ["id", "passage", "row", "layer", …, "at", …],
     "variant_codes": {"layer": ["zhu", …], "type": ["substantive", …], …, "pages": ["011-2a", …]},
     "variants": [["app1", "JS1.5", "r5", 0, 0, …, 12, [0, 1, 2], [28, 29, 11], [4, 2, 16]], …],
     "layer_gap_fields": ["row", "layer", "present", "absent", "kind"], "layer_gaps": [["r1", "zhu", {"JS": 69}, ["ZS"], "edge"], …],
     "rows": […], "counts": {…}}

Version 3 (``jiaokan-lean-table/3``) has no ``elsewhere``: every layer of every row is in the table.
A table is written as version 4 only where it has an ``elsewhere`` (a reader of version 3 would read the
pointed rows as the witness lacking the layer: it refuses version 4 rather than misread it), else as
version 3, the same shape, which every reader of it still reads.  Version 2 had each entry's ``context``, its values as themselves (no
``variant_codes``) and the gaps as dicts.  All are still read, as is version 1.
"""

from __future__ import annotations

from itertools import chain
from pathlib import Path
from typing import Any

from ..io import write_json
from .elsewhere import LayerElsewhere, pointed_rows
from .export import apparatus_fields, entry_passage
from .variants import cut_context
from .model import Collation
from .segments import row_layer_segments

FORMAT = "jiaokan-lean-table/4"
#: the lean layout before ``elsewhere``: every row's every layer in the table (still read)
FORMAT_3 = "jiaokan-lean-table/3"
#: the lean layout before ``at`` replaced the entries' context and the gaps became lists (still read)
FORMAT_2 = "jiaokan-lean-table/2"
#: the first lean layout: a cell for every witness, ``[row, layer]`` per column, entries as dicts
FORMAT_1 = "jiaokan-lean-table/1"
#: the lean versions this module reads
FORMATS = (FORMAT, FORMAT_3, FORMAT_2, FORMAT_1)
#: the versions whose entries have ``at`` and ``variant_codes``, and whose gaps are lists
_CODED = (FORMAT, FORMAT_3)

#: an entry's fields, in the order a variant list holds them (as :func:`.export.apparatus_fields` makes them,
#: ``at`` for its ``context``)
VARIANT_FIELDS = ("id", "passage", "row", "layer", "type", "subtype", "readings", "types", "at", "pages",
                  "lines", "columns")
#: a layer gap's fields, in the order a gap list holds them
GAP_FIELDS = ("row", "layer", "present", "absent", "kind")
#: the fields with a value per witness
_PER_WITNESS = frozenset({"readings", "types", "pages", "lines", "columns"})
#: the fields whose values an entry gives as numbers, each the index of the value in ``variant_codes[field]``
#: (a few names said again in every entry: a layer, a type, a page)
CODED = ("layer", "type", "subtype", "types", "pages")
#: a cell of a witness that holds the very characters of the base's cell
SAME_AS_BASE = 1


class UnknownFormat(ValueError):
    """A lean table of a version this module does not know: refused rather than read as another."""


def _cell(text: str) -> str | None:
    """A witness's cell: its characters there without white space (as the CollateX layout's tokens)."""
    return "".join(text.split()) or None  # str.split() cuts at exactly the characters str.isspace() names


def _context(text: str, at: int, lemma: str) -> str:
    """The context of a lemma starting at ``at`` in ``text`` (the base's text of its row and layer)."""
    return cut_context(text, at, at + len(lemma))


def lean_json(col: Collation, elsewhere: LayerElsewhere | None = None) -> dict:
    """The collation as the lean table (see the module's docstring); ``elsewhere``: a witness's layer
    collated in another apparatus beside this one, pointed to instead of copied where that witness
    alone has it."""
    sigla, base = col.sigla, col.base
    pointers = pointed_rows(col, elsewhere) if elsewhere is not None else {}
    pointed_layer = elsewhere.layer if elsewhere is not None and pointers else None
    columns: list[list[Any]] = []
    table: dict[str, list[str | int | None]] = {s: [] for s in sigla}
    base_cells, others = table[base], [s for s in sigla if s != base]
    joined: dict[tuple[str, str], str] = {}  # (row, layer) → the base's cells there, joined: what ``at`` counts in
    for row_id, layer, texts, segments in row_layer_segments(col):
        if layer == pointed_layer and row_id in pointers:
            continue  # the witness's text of it is in the other apparatus (and it holds no entry: pointed_rows)
        if segments:
            if columns and columns[-1][0] == row_id and columns[-1][1] == layer:
                columns[-1][2] += len(segments)
            else:
                columns.append([row_id, layer, len(segments)])
        base_text = texts[base].text
        other = [(texts[s].text, s, table[s]) for s in others]
        parts = []
        for seg in segments:
            spans = seg.spans
            at = spans.get(base)
            raw = base_text[at[0]:at[1]] if at else None
            here = _cell(raw) if raw else None
            base_cells.append(here)
            if here:
                parts.append(here)
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
        key = (row_id, layer)
        joined[key] = joined.get(key, "") + "".join(parts)
    passage = entry_passage(col)
    names = list(VARIANT_FIELDS)
    # each entry's fields as a list in that order (the per-witness ones a value per siglum, None where the
    # witness has none), made at once: not a dict per entry and per field (apparatus_fields') cut up again
    variants: list[list[Any]] = []
    bi = sigla.index(base)
    for a in col.apps:
        lem, rs = a.lem, a.readings
        got = [rs.get(s) for s in sigla]
        got[bi] = lem
        types = [r.type if r is not None else None for r in got]
        types[bi] = None  # (the base's reading has no type)
        text = joined.get((a.row, a.layer), "")
        # the lemma's offset where it cuts the very context again from the table, else the context itself
        offset: int | str = lem.start if _context(text, lem.start, lem.text) == a.context else a.context
        variants.append([
            a.id, passage(a), a.row, a.layer, a.type, a.subtype,
            [r.text if r is not None else None for r in got], types, offset,
            [r.page if r is not None else None for r in got],
            [r.line if r is not None else None for r in got],
            [r.col if r is not None else None for r in got],
        ])
    fields = apparatus_fields(col, variants)
    codes = _encode(fields["variants"], names)
    fields["layer_gaps"] = [[g[k] for k in GAP_FIELDS] for g in fields["layer_gaps"]]
    there = {} if elsewhere is None or not pointers else {"elsewhere": {
        "witness": elsewhere.siglum, "layer": elsewhere.layer, "file": f"{elsewhere.name}.json", "rows": pointers}}
    # (version 4 only where there is an ``elsewhere``: a table without one is the very shape of version 3, which
    # a reader of version 3 reads rightly)
    return {"format": FORMAT if there else FORMAT_3, "witnesses": sigla, "base": fields.pop("base"),
            "columns": columns, **there,
            "table": [table[s] for s in sigla],
            "variant_fields": names, "variant_codes": codes, "layer_gap_fields": list(GAP_FIELDS), **fields}


def _encode(variants: list[list[Any]], names: list[str]) -> dict[str, list[Any]]:
    """Replace, in place, each value of the :data:`CODED` fields of ``variants`` (null left as it is) by its
    index in the list of that field's values (in the order first met), and return those lists.

    (The values are gathered and looked up by ``dict`` in C, a Python step per entry, not per value.)"""
    codes: dict[str, list[Any]] = {}
    for k in CODED:
        if k not in names:
            continue
        i = names.index(k)
        column = [v[i] for v in variants]
        seen = dict.fromkeys(chain.from_iterable(column) if k in _PER_WITNESS else column)
        seen.pop(None, None)
        values = list(seen)
        index: dict[Any, int | None] = {x: n for n, x in enumerate(values)}
        index[None] = None
        look = index.__getitem__
        if k in _PER_WITNESS:
            for v, x in zip(variants, column):
                v[i] = list(map(look, x))
        else:
            for v, x in zip(variants, column):
                v[i] = look(x)
        codes[k] = values
    return codes


def _decode(v: dict[str, Any], codes: dict[str, list[Any]]) -> None:
    """Give an entry (a dict of its fields) back the values :func:`_encode` replaced by their indices."""
    for k, values in codes.items():
        x = v[k]
        if isinstance(x, list):
            v[k] = [c if c is None else values[c] for c in x]
        elif x is not None:
            v[k] = values[x]


def _lean_version(data: dict) -> str | None:
    """The lean version of ``data`` (one of :data:`FORMATS`), None for the CollateX layout; a lean table of a
    version not known here raises :class:`UnknownFormat`."""
    fmt = data.get("format")
    if fmt is None and "columns" not in data:
        return None
    if fmt not in FORMATS:
        raise UnknownFormat(f"apparatus JSON of format {fmt!r}: this jiaokan reads {', '.join(FORMATS)} "
                            "and CollateX's layout")
    return str(fmt)


def _base_texts(data: dict) -> dict[tuple[str, str], str]:
    """(row, layer) → the base's cells of those columns, joined (what a version 3 entry's ``at`` counts in)."""
    base = data["table"][data["witnesses"].index(data["base"])]
    out: dict[tuple[str, str], str] = {}
    j = 0
    for row, layer, n in data["columns"]:
        out[row, layer] = out.get((row, layer), "") + "".join(c for c in base[j:j + n] if c)
        j += n
    return out


def json_variants(data: dict) -> list[dict]:
    """The entries of an apparatus JSON in any layout, each a dict as the CollateX layout has it
    (``{"id", "readings": {siglum: text}, "types": …, "context": …}``): what readers of the entries use."""
    fmt = _lean_version(data)
    if fmt not in (*_CODED, FORMAT_2):
        return list(data["variants"])
    sigla, base, names = data["witnesses"], data["base"], data["variant_fields"]
    texts = _base_texts(data) if fmt in _CODED else {}
    codes = data.get("variant_codes", {})
    bi = sigla.index(base)
    out = []
    for row in data["variants"]:
        v = dict(zip(names, row))
        _decode(v, codes)
        if "at" in v:  # (in the place the CollateX layout has "context")
            at = v["at"]
            v["context"] = at if isinstance(at, str) else _context(texts.get((v["row"], v["layer"]), ""), at,
                                                                   v["readings"][bi])
        # the witnesses an entry lists: those with a reading (a string, never null); types: all but the base
        listed = [i for i, r in enumerate(v["readings"]) if r is not None]
        for k in _PER_WITNESS.intersection(v):
            v[k] = {sigla[i]: v[k][i] for i in listed if k != "types" or sigla[i] != base}
        out.append({("context" if k == "at" else k): v["context" if k == "at" else k] for k in names})
    return out


def json_layer_gaps(data: dict) -> list[dict]:
    """The layer gaps of an apparatus JSON in any layout, each a dict as the CollateX layout has it."""
    if _lean_version(data) not in _CODED:
        return list(data["layer_gaps"])
    names = data["layer_gap_fields"]
    return [dict(zip(names, g)) for g in data["layer_gaps"]]


def json_columns(data: dict) -> list[tuple[str, str]]:
    """The (row, layer) of each column of a lean table of any version."""
    if _lean_version(data) == FORMAT_1:
        return [(row, layer) for row, layer in data["columns"]]
    return [(row, layer) for row, layer, n in data["columns"] for _ in range(n)]


def json_cells(data: dict) -> tuple[list[str], list[list[str | None]]]:
    """(The layer of each column, each witness's cells) of a lean table of any version."""
    if _lean_version(data) == FORMAT_1:
        return [layer for _, layer in data["columns"]], data["table"]
    layers = [layer for _, layer in json_columns(data)]
    bi = data["witnesses"].index(data["base"])
    base = data["table"][bi]
    cells = [[base[j] if c == SAME_AS_BASE else c for j, c in enumerate(row)] for row in data["table"]]
    return layers, cells


def write_lean_json(col: Collation, path: str | Path, elsewhere: LayerElsewhere | None = None) -> Path:
    write_json(path, lean_json(col, elsewhere))
    return Path(path)
