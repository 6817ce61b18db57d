"""A collation → JSON (CollateX's alignment-table shape plus typed variants) and a terminal diff.

The ``table`` is what CollateX writes, in either of its two layouts
(:data:`LAYOUTS`): CollateX-Python's ``export_alignment_table_as_json``, where
``table[i]`` is the row of witness ``witnesses[i]``, one cell per column, a cell
being a list of tokens ``{"t": original, "n": key}`` or ``null`` where the
witness has nothing; or CollateX Java's, where ``table[k]`` is a column holding
one cell per witness (sigla sorted), ``[]`` where the witness has nothing.  Columns run row by row, layer by layer: stretches where
all witnesses agree, then each apparatus location (the segments of
:mod:`.segments`, so each witness's cells hold exactly its own text); tokens carry the passage
row and layer so existing tooling can still tell 经 from 注.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Callable

from ..io import atomic_write_bytes, json_bytes
from ..normalize import key
from .model import App, Collation, Reading
from .segments import row_layer_segments


def _tokens(text: str, row: str, layer: str) -> list[dict]:
    return [{"t": ch, "n": key(ch), "row": row, "layer": layer} for ch in text if not ch.isspace()]


#: the :class:`~jiaokan.model.WitnessMeta` fields a table keeps for each witness (``witness_meta``)
META_KEPT = ("title", "work", "chapter", "juan", "script", "source", "licence", "edition", "author", "role")


def _token_count(text: str) -> int:
    """How many tokens :func:`_tokens` makes of ``text`` (a token per character that is not a space)."""
    return sum(1 for ch in text if not ch.isspace())


#: The two shapes of CollateX's JSON output (``--json-layout``).
LAYOUTS = {
    "python": "CollateX-Python's export_alignment_table_as_json: table[i] is the row of witnesses[i] "
              "(witnesses in collation order, base first), one cell per column, null for an empty cell",
    "java": "CollateX (Java) 1.7's JSON: table[k] is column k, one cell per witness in the order of "
            "witnesses (sorted by siglum), [] for an empty cell",
}


def collation_to_json(col: Collation, layout: str = "python") -> dict:
    """The collation as CollateX's JSON output in ``layout`` (a key of :data:`LAYOUTS`) plus jiaokan's keys."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown JSON layout {layout!r}: choose from {', '.join(LAYOUTS)}")
    java = layout == "java"
    sigla = sorted(col.sigla) if java else col.sigla
    table: list[list] = [] if java else [[] for _ in sigla]
    # one column per segment (:mod:`.segments`): each witness's cell is its own text there, so every
    # witness's row reads back its layer text exactly (null, or [] for Java, where it has nothing)
    for row_id, layer, texts, segments in row_layer_segments(col):
        for seg in segments:
            cells = []
            for s in sigla:
                b0, b1 = seg.spans.get(s, (0, 0))
                cells.append(_tokens(texts[s].text[b0:b1], row_id, layer))
            if java:
                table.append(cells)
            else:
                for i, cell in enumerate(cells):
                    table[i].append(cell or None)
    ids = {s: w.meta.extra.get("collatex-id", s) for s, w in col.witnesses.items()}
    pieces, lacunae, glyphs = _places(col)
    return {
        "witnesses": sigla,
        "table": table,
        "layout": layout,
        **({"witness_ids": ids} if any(k != v for k, v in ids.items()) else {}),  # siglum → the CollateX input id
        # where each witness's passages begin, and where its source lost a page (_places): read back
        # (alignment_table), the witnesses collate again into these rows, a lost page's text a lacuna again
        "pieces": pieces,
        **({"lacunae": lacunae} if lacunae else {}),
        **({"glyphs": glyphs} if glyphs else {}),
        # what each witness is (title, 篇, script, role …): read back, the same witness, typed as before
        "witness_meta": {s: {k: v for k in META_KEPT if (v := getattr(w.meta, k))} for s, w in col.witnesses.items()},
        **apparatus_fields(col),
    }


def _places(col: Collation) -> tuple[dict[str, list[list]], dict[str, list[list]], dict[str, list[list]]]:
    """Where each witness's passages begin and where its source lost a page, as an alignment table cannot say:
    siglum → ``[row, layer, unit, tokens before it]`` for each piece of a collated layer (the token count within
    the row's cells of that layer), and siglum → ``[row, layer, tokens before it]`` for each lost page, in every
    row and layer (also where no witness has text: a passage whose 经 went with a page stands in a row of its own).

    Why: read back (:mod:`.alignment_table`), a table's cells alone make one passage of each row, where the
    witness may have had two (the 注疏 splits a passage the 集释 keeps whole), and a lost page's text the
    witness's omission; collated again, such witnesses gave other rows and entries than the ones the table
    was made from.  And siglum → ``[row, layer, tokens before it, code]`` of each character no code point gives
    (an unknown gaiji, ``&KR2687;``): its token is U+FFFD, which read back as is said the source had lost it."""
    pieces: dict[str, list[list]] = {}
    lacunae: dict[str, list[list]] = {}
    glyphs: dict[str, list[list]] = {}
    for row in col.rows:
        for s in col.sigla:
            for layer, lt in col.row_texts(row, s).items():
                if not lt.pieces and not lt.gaps:
                    continue
                # the tokens before each offset asked, counted once over the text (a stretch between two offsets)
                offsets = sorted({off for off, _, _ in lt.pieces} | set(lt.gaps) | set(lt.glyphs))
                before = {offsets[0]: _token_count(lt.text[:offsets[0]])}
                for a, b in zip(offsets, offsets[1:]):
                    before[b] = before[a] + _token_count(lt.text[a:b])
                for off, unit, _ in lt.pieces:
                    pieces.setdefault(s, []).append([row.id, layer, unit.id, before[off]])
                for g in lt.gaps:
                    lacunae.setdefault(s, []).append([row.id, layer, before[g]])
                for off, code in sorted(lt.glyphs.items()):
                    glyphs.setdefault(s, []).append([row.id, layer, before[off], code])
    return pieces, lacunae, glyphs


def apparatus_fields(col: Collation, variants: list | None = None) -> dict:
    """What the JSON says besides the alignment table: base, variants, layer gaps, rows, counts
    (shared with the lean table :mod:`.leanjson` that ``jiaokan build`` writes, which gives its
    ``variants`` made its own way, as lists: :func:`entry_passage`)."""
    if variants is None:
        passage = entry_passage(col)
        variants = [
            {
                "id": a.id,
                "passage": passage(a),
                "row": a.row,
                "layer": a.layer,
                "type": a.type,
                "subtype": a.subtype,
                "readings": {col.base: a.lem.text, **{s: r.text for s, r in a.readings.items()}},
                "types": {s: r.type for s, r in a.readings.items()},
                "context": a.context,
                "pages": {col.base: a.lem.page, **{s: r.page for s, r in a.readings.items()}},
                "lines": {col.base: a.lem.line, **{s: r.line for s, r in a.readings.items()}},
                "columns": {col.base: a.lem.col, **{s: r.col for s, r in a.readings.items()}},
            }
            for a in col.apps
        ]
    return {
        "base": col.base,
        "variants": variants,
        "layer_gaps": [{"row": g.row, "layer": g.layer, "present": g.present, "absent": g.absent, "kind": g.kind}
                       for g in col.gaps],
        "rows": [{"id": r.id, "passage": r.base_passage, "units": r.units} for r in col.rows],
        "counts": col.counts(),
    }


def entry_passage(col: Collation) -> Callable[[App], str | None]:
    """An entry's ``passage``: its lemma's unit, else the base's first unit of its row (or None).

    (The rows' first units looked up in a table made once, not by walking the rows for each entry.)"""
    first: dict[str, str | None] = {}
    for r in col.rows:
        if r.id not in first:  # (the first row of an id, as a walk of the rows would find it)
            units = r.units.get(col.base, [])
            first[r.id] = units[0] if units else None

    def passage(a: App) -> str | None:
        return a.lem.unit or first.get(a.row)

    return passage


def write_json(col: Collation, path: str | Path, layout: str = "python") -> Path:
    # compact: json's C encoder only runs without indent (with indent=1 the pure-Python
    # encoder took a third of a whole-book build); `python -m json.tool` pretty-prints it
    atomic_write_bytes(path, json_bytes(collation_to_json(col, layout)))
    return Path(path)


# ---------------------------------------------------------------- terminal diff
COLOURS: dict[str | None, str] = {  # keyed by Reading.type, which is None only for a lem
    "substantive": "\033[1;31m", "omission": "\033[35m", "addition": "\033[32m",
    "transposition": "\033[36m", "taboo": "\033[33m", "orthographic": "\033[2m", "uncertain": "\033[2;3m",
}
RESET = "\033[0m"


def _at(r: Reading) -> str:
    """``page:line:column`` of a reading (column: the k-th character the witness keeps on the line)."""
    return f"{r.page or '?'}:{r.line or '?'}" + (f":{r.col}" if r.col else "")


def format_diff(col: Collation, colour: bool, out: IO[str]) -> int:
    """Passage by passage, each apparatus entry as ``context  [base | witness] type  pages``."""
    by_row: dict[str, list[App]] = {}
    for a in col.apps:
        by_row.setdefault(a.row, []).append(a)
    shown = 0
    for row in col.rows:
        apps = by_row.get(row.id)
        if not apps:
            continue
        out.write(f"== {row.base_passage or row.id}  ({', '.join(f'{s}: {u[0]}' for s, u in row.units.items() if u)})\n")
        for a in apps:
            for s, r in a.differing().items():
                c0, c1 = (COLOURS.get(r.type, ""), RESET) if colour else ("", "")
                left, _, right = a.context.partition("【")
                mid, _, right = right.partition("】")
                where = f"{col.base} {_at(a.lem)}  {s} {_at(r)}"
                sub = f"/{a.subtype}" if a.subtype else ""
                out.write(f"  {a.layer:<5} {left}{c0}[{mid or '—'} | {r.text or '—'}]{c1}{right}  "
                          f"{c0}{r.type}{sub}{c1}  ({where})\n")
                shown += 1
    return shown
