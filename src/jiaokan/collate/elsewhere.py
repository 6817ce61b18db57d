"""A witness's layer collated in another apparatus: the apparatus points there instead of copying it.

Why: the 注疏's 疏 is collated on its own against the 单疏本's (:mod:`.shu`, ``NAME-shu``).  In the
篇's own collation only the 注疏 has a 疏, so each of its 疏 rows there is one layer entry holding the
whole 疏 again, where no variant can arise: two-fifths of that apparatus.  Where the other apparatus
holds the very text of a row, the writers (:mod:`.apparatus`, :mod:`.leanjson`) give the witness's
reading as a pointer to that apparatus's rows, and :mod:`.apparatus_reader` reads it back from there.

A row is pointed only when all of these hold, else it keeps its copy (a pointer that gave back more
or less than the witness has in the row would make a wrong apparatus):

* the witness is the only one with text of the layer in the row, and no entry of the collation is
  there (so the row is the one entry for a layer the others lack: nothing is lost by not copying it);
* every passage of the witness in the row that has text of the layer is in a row of the other
  apparatus;
* each of those rows holds the witness's text of the layer from passages of this row only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Unit
from .layertext import has_kept
from .model import Collation, Row
from .rows import body_units
from .segments import Segment, row_layer_segments


@dataclass
class LayerElsewhere:
    """Where one witness's layer is collated apart (the 注疏's 疏 in ``NAME-shu``).

    ``name``: that apparatus's file name without its suffix, beside this one (``pian01-shu``:
    ``pian01-shu.xml`` for the TEI, ``pian01-shu.json`` for the JSON); ``rows``: each passage of the
    witness (its unit id) → the row of that apparatus that holds its text of the layer.
    """

    siglum: str
    layer: str
    name: str
    rows: dict[str, str]
    #: (the segments of the collation it was made for, :func:`pointed_rows`' answer): the TEI and the JSON
    #: writer both ask it of one collation
    _pointed: tuple[list, dict[str, list[str]]] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of_rows(cls, siglum: str, layer: str, name: str, rows: list[Row]) -> LayerElsewhere:
        """From the rows of the other collation (each lists the witness's passages it holds)."""
        return cls(siglum, layer, name, {u: r.id for r in rows for u in r.units.get(siglum, [])})


def pointed_rows(col: Collation, where: LayerElsewhere) -> dict[str, list[str]]:
    """Row of ``col`` → the rows of the other apparatus that hold its text of the layer, in order:
    for every row whose reading is a pointer (see the module for when), none other."""
    s, layer = where.siglum, where.layer
    if s not in col.witnesses or layer not in col.layers:
        return {}
    made = row_layer_segments(col)
    if where._pointed is None or where._pointed[0] is not made:
        where._pointed = (made, _pointed_rows(col, where, made))
    return where._pointed[1]


def _has_text(u: Unit, layer: str) -> bool:
    """Does passage ``u`` hold text of ``layer`` (a character that is not ignorable, as a layer text keeps)?"""
    return any(p.layer == layer and has_kept(p.text) for p in u.pieces)


def _pointed_rows(col: Collation, where: LayerElsewhere,
                  made: list[tuple[str, str, dict, list[Segment]]]) -> dict[str, list[str]]:
    """:func:`pointed_rows` of ``col``, whose row and layer segments are ``made``."""
    s, layer = where.siglum, where.layer
    entries = {(a.row, a.layer) for a in col.apps}
    # (one segment: the one entry of the layer, which the witness's reading in it stands for)
    alone = {row for row, lay, texts, segs in made if lay == layer and len(segs) == 1
             and (row, lay) not in entries and texts[s].kept() and not any(lt.kept() for t, lt in texts.items() if t != s)}
    units = {u.id: u for u in body_units(col.witnesses[s])}
    claims: dict[str, set[str]] = {}  # a row of the other apparatus → the rows here whose text it holds
    wanted: dict[str, list[str]] = {}
    for row in col.rows:
        targets: list[str] = []
        whole = True
        for uid in row.units.get(s, []):
            u = units.get(uid)
            if u is None or not _has_text(u, layer):
                continue  # (no text of the layer: nothing to find there)
            t = where.rows.get(uid)
            if t is None:
                whole = False  # a passage the other apparatus does not hold: this row keeps its copy
                continue
            claims.setdefault(t, set()).add(row.id)
            if t not in targets:
                targets.append(t)
        if whole and targets and row.id in alone:
            wanted[row.id] = targets
    return {r: ts for r, ts in wanted.items() if all(claims[t] == {r} for t in ts)}
