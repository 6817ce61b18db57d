"""CollateX's JSON *output* (an alignment table) read back into the witnesses it aligned.

Why: ``jiaokan collate --json`` and :func:`jiaokan.to_json` write CollateX's alignment table, and a
user who kept only that file (or who has a table CollateX itself wrote) wants to collate its witnesses
again, with another base or other witnesses beside them; ``collate(["app.json", ...])`` refused it as
malformed CollateX *input*.  Each witness's cells, read in order, are its whole text: that is what an
alignment table is (every token of every witness stands in one column).

The two layouts (:data:`jiaokan.collate.export.LAYOUTS`): CollateX-Python's ``table[i]`` is witness
``i``'s row, ``null`` for an empty cell; CollateX Java's ``table[k]`` is column ``k``, one cell per
witness, ``[]`` for an empty cell.  A table jiaokan wrote says which (``"layout"``); for one CollateX
wrote, the shape tells, by the rule the apparatus checks read tables with
(:func:`jiaokan.collate.apparatus_reader.json_layout`).

What comes back: a token's ``t`` is its text.  jiaokan's tokens, one per character, carry the passage ``row``
and ``layer`` they came from, and its table says what cells cannot (:func:`jiaokan.collate.export._places`):
where each passage began (``pieces``), where a source lost a page (``lacunae``: a
:class:`~jiaokan.model.Gap` again, so the text lost with it is a lacuna, not an omission), which tokens are
an unknown gaiji (``glyphs``), and what each witness is (``witness_meta``); so its witnesses are rebuilt
passage by passage, a piece per piece, and collate again into the same apparatus.  A token without them, as
CollateX writes, is 经 in one passage of a whole text (``extent=whole``), as for CollateX input.  The ids of
``"witness_ids"`` (where the input's ids were not sigla) become the labels again.  Pages are not in a table:
the rebuilt witnesses have none, and a passage's number stands for its line.
"""

from __future__ import annotations

from ..model import EXTENT, LAYERS, WHOLE, Div, Gaiji, Gap, Loc, Piece, Text, Unit, Witness, WitnessMeta, text_nodes
from ..errors import InputError
from ..readers.common.base import ReaderError
from .export import META_KEPT

FORMAT = "collatex-table"


def looks_like_alignment_table(data: object) -> bool:
    """CollateX's output shape: ``{"witnesses": [names], "table": [...]}`` (input's witnesses are objects)."""
    return (isinstance(data, dict) and "table" in data and isinstance(data.get("witnesses"), list)
            and not any(isinstance(w, dict) for w in data["witnesses"]))


def _cells(data: dict, name: str) -> list[list[object]]:
    """Each witness's cells, in column order (``None`` or a list of tokens each), the layout told as
    :func:`jiaokan.collate.apparatus_reader.json_layout` tells it (the one rule for both readers)."""
    from .apparatus_reader import json_layout, json_rows

    if str(data.get("format", "")).startswith("jiaokan-lean-table"):
        raise ReaderError(name, "a lean apparatus table (jiaokan build --apparatus-json) holds each passage's text, "
                                "not its witnesses' pages and lost pages: collate the witnesses' TEI files "
                                "(OUT/tei/) instead")
    try:
        json_layout(data)
    except InputError as exc:
        raise ReaderError(name, exc.message) from None
    dup = next((s for k, s in enumerate(data["witnesses"]) if s in data["witnesses"][:k]), None)
    if dup is not None:
        raise ReaderError(name, f"witnesses: {dup!r} is named twice: witness names must be unique")
    if not any(c for e in data["table"] for c in e):
        raise ReaderError(name, "the alignment table holds no text: no witness has a token in it")
    return [list(cells) for cells in json_rows(data).values()]


def _tokens(cells: list[object], where: str, name: str) -> list[dict]:
    out: list[dict] = []
    for k, cell in enumerate(cells):
        if cell is None:
            continue
        if not isinstance(cell, list):
            raise ReaderError(name, f"{where}, cell {k}: expected a list of tokens or null")
        for tok in cell:
            if not isinstance(tok, dict) or not isinstance(tok.get("t"), str):
                raise ReaderError(name, f"{where}, cell {k}: expected tokens {{\"t\": …}}")
            out.append(tok)
    return out


def _entries(given: object, size: int, where: str, what: str, name: str, last_is_code: bool = False) -> list[list]:
    """A witness's ``pieces`` ([row, layer, unit, tokens before it]), ``lacunae`` ([row, layer, tokens before
    it]) or ``glyphs`` ([row, layer, tokens before it, gaiji code]), checked."""
    shape = ("[row, layer, tokens before it, gaiji code]" if last_is_code else
             "[row, layer, unit, tokens before it]" if size == 4 else "[row, layer, tokens before it]")
    if not isinstance(given, list):
        raise ReaderError(name, f"{what} of {where}: expected a list of {shape}")
    at = 2 if last_is_code else size - 1  # where the token count stands
    for k, e in enumerate(given):
        if not (isinstance(e, list) and len(e) == size and isinstance(e[0], str) and e[1] in LAYERS
                and isinstance(e[at], int) and not isinstance(e[at], bool) and e[at] >= 0
                and all(isinstance(x, str) and x for i, x in enumerate(e[2:], 2) if i != at)):
            raise ReaderError(name, f"{what} of {where}, entry {k}: expected {shape}")
    return given


def _units(sig: str, tokens: list[dict], order: dict[str, int], row_units: dict[str, list[str]],
           starts: list[list], lost: list[list], glyphs: list[list], where: str, name: str) -> list[Unit]:
    """The witness's passages: a unit per passage it had in each row, a piece per piece of a collated layer.

    ``order``: the rows in the collation's order; ``row_units``: the units the witness had in each row
    (jiaokan's ``rows``); ``starts``: where each piece began (``pieces``); ``lost``: where a page was lost
    (``lacunae``), put back as a :class:`~jiaokan.model.Gap`; ``glyphs``: the tokens that were a character no
    code point gives (an unknown gaiji: ``&KR2687;``), put back as that :class:`~jiaokan.model.Gaiji`.  Without
    ``pieces`` (a table CollateX wrote, or an older jiaokan's), a unit per row; tokens that name no row
    (CollateX's) are 经 in one passage."""
    if not tokens and not lost:
        return []  # a witness the collation had, with no text in it (all of it lost, or none of its layers asked)
    if not lost and not any("row" in t or "layer" in t for t in tokens):
        return [Unit(f"{sig}.1", [Piece("jing", text_nodes("".join(t["t"] for t in tokens)), Loc(line=1))])]
    runs: dict[tuple[str, str], list[str]] = {}  # (row, layer) -> its tokens' texts, in the order met
    for tok in tokens:
        row, layer = tok.get("row"), tok.get("layer")
        if not isinstance(row, str) or layer not in LAYERS:
            raise ReaderError(name, f"{where}: a token with 'row' or 'layer' needs both, the layer one of "
                                    f"{', '.join(LAYERS)} (found row {row!r}, layer {layer!r})")
        runs.setdefault((row, layer), []).append(tok["t"])
    # where a piece begins (0, its unit), a page is lost (1), a token is an unknown gaiji (2, its code), in that
    # order at one place: a lost page at a piece's start is that piece's
    cuts: dict[tuple[str, str], list[tuple[int, int, str]]] = {}
    for row, layer, unit, at in starts:
        cuts.setdefault((row, layer), []).append((at, 0, unit))
    for row, layer, at in lost:
        cuts.setdefault((row, layer), []).append((at, 1, ""))
    for row, layer, at, code in glyphs:
        cuts.setdefault((row, layer), []).append((at, 2, code))
    for key in cuts:
        runs.setdefault(key, [])
    rows: dict[str, list[str]] = {}  # row -> its layers, in the order met
    for row, layer in runs:
        rows.setdefault(row, []).append(layer)
    units: dict[str, Unit] = {}
    for row in sorted(rows, key=lambda r: order.get(r, len(order))):
        ids = row_units.get(row) or [f"{sig}.r{len(units) + 1}"]
        for uid in ids:
            units.setdefault(uid, Unit(uid))
        for layer in rows[row]:
            texts = runs[(row, layer)]
            pieces: list[tuple[Unit, list]] = []  # (unit, content), in the order the pieces began
            before: list = []  # what comes before the first piece begins (a table without ``pieces``: all)
            at = 0
            for cut, what, value in sorted(cuts.get((row, layer), [])):
                into = pieces[-1][1] if pieces else before
                into += text_nodes("".join(texts[at:cut]))
                at = max(at, cut)
                if what == 1:
                    into.append(Gap(desc="lost: a lacuna of the collated source"))
                elif what == 2:
                    into.append(Gaiji(value))  # in place of its token, the unknown character's mark
                    at = max(at, cut + 1)
                else:
                    pieces.append((units.setdefault(value, Unit(value)), []))
            (pieces[-1][1] if pieces else before).extend(text_nodes("".join(texts[at:])))
            if before or not pieces:
                pieces.insert(0, (units[ids[0]], before))
            for u, content in pieces:
                n = sum(1 for p in u.pieces if p.layer == layer) + 1
                kept = [x for x in content if not (isinstance(x, Text) and not x.text)]
                # the passage's number stands for its line: no page or line is in the table
                u.pieces.append(Piece(layer, kept, Loc(line=order.get(row, 0) + 1), id=f"{u.id}.{layer}{n}"))
    return list(units.values())


def _mapping(data: dict, key: str) -> dict:
    """``data[key]`` where it is an object, else an empty one (jiaokan's keys a CollateX table does not have)."""
    got = data.get(key)
    return got if isinstance(got, dict) else {}


def witnesses_from_table(data: dict, name: str = "<json>") -> list[Witness]:
    """The witnesses of a CollateX alignment table (see the module's docstring); one-line errors."""
    from .collatex import _id_problem, siglum_for_id

    listed: list[object] = data["witnesses"]
    if not listed:
        raise ReaderError(name, "the alignment table lists no witnesses")
    bad = next((i for i, w in enumerate(listed) if not isinstance(w, str) or not w.strip()), None)
    if bad is not None:
        raise ReaderError(name, f"witnesses[{bad}]: expected a witness's name (a string, not empty), found "
                                f"{listed[bad]!r}")
    sigla = [str(w) for w in listed]
    ids, lacunae, starts, glyph_codes, metas = (_mapping(data, k) for k in ("witness_ids", "lacunae", "pieces",
                                                                             "glyphs", "witness_meta"))
    cells_of = _cells(data, name)
    order: dict[str, int] = {}  # the rows in the collation's order (jiaokan's "rows"), else as the columns run
    row_units: dict[str, dict[str, list[str]]] = {}  # siglum -> row -> its units there (jiaokan's "rows")
    rows_given = data.get("rows")
    for r in rows_given if isinstance(rows_given, list) else []:
        if isinstance(r, dict) and isinstance(r.get("id"), str):
            order.setdefault(r["id"], len(order))
            for s, uids in _mapping(r, "units").items():
                if isinstance(uids, list) and all(isinstance(u, str) for u in uids):
                    row_units.setdefault(s, {})[r["id"]] = uids
    for k in range(max((len(c) for c in cells_of), default=0)):
        for cells in cells_of:
            cell = cells[k] if k < len(cells) else None
            for tok in cell if isinstance(cell, list) else ():
                if isinstance(tok, dict) and isinstance(tok.get("row"), str):
                    order.setdefault(tok["row"], len(order))
    out: list[Witness] = []
    seen: set[str] = set()
    for i, (cells, wid) in enumerate(zip(cells_of, sigla)):
        where = f"witness {wid!r}"
        problem = _id_problem(wid)
        if problem:
            raise ReaderError(name, f"witnesses[{i}]: {problem}")
        sig = made = siglum_for_id(wid)
        k = 2
        while sig in seen:  # two names that make the same siglum ("甲本", "乙本": W): the later numbered, as for input
            sig = f"{made}_{k}"
            k += 1
        seen.add(sig)
        tokens = _tokens(cells, where, name)
        lost = _entries(lacunae.get(wid, []), 3, where, "lacunae", name)
        began = _entries(starts.get(wid, []), 4, where, "pieces", name)
        marks = _entries(glyph_codes.get(wid, []), 4, where, "glyphs", name, last_is_code=True)
        label = ids.get(wid, wid) if isinstance(ids.get(wid, wid), str) else wid
        # a table jiaokan wrote says where its passages were (``pieces``), excerpts' included; one CollateX wrote
        # holds whole texts, as its input did
        extent = {} if starts else {EXTENT: WHOLE}
        meta = WitnessMeta(siglum=sig, file=name, format=FORMAT, title=label, work="",
                           extra={**extent, **({"collatex-id": label} if label != sig else {})})
        given = _mapping(metas, wid)
        for field_name in META_KEPT:  # what jiaokan's table says the witness is (its title, 篇, script, role …)
            if isinstance(given.get(field_name), str):
                setattr(meta, field_name, given[field_name])
        units = _units(sig, tokens, order, row_units.get(wid, {}), began, lost, marks, where, name)
        chars = {n.code: None for u in units for p in u.pieces for n in p.content if isinstance(n, Gaiji)}
        out.append(Witness(meta=meta, divs=[Div("chapter", "1", None, units, id=f"{sig}.d1")], char_decl=dict(chars)))
    base = data.get("base")
    if isinstance(base, str) and base in sigla:
        # the table's base first: collate() takes the first witness as its base, and a Java-layout table lists the
        # sigla sorted, so its witnesses collated again over another base (other rows, other entries)
        out.insert(0, out.pop(sigla.index(base)))
    return out
