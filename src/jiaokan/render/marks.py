"""Where each apparatus entry falls in each witness column, and the reading order of the entries.

An :class:`~jiaokan.collate.model.App` gives, for the base and every witness, offsets into
that witness's *layer text* of the row (see :func:`jiaokan.collate.layertext.layer_text`).
A :class:`Mark` is one such span, tagged with the app and the variant type as that witness
reads it; the inline renderer walks the pieces with the same character counting as
``layer_text`` and wraps the characters the marks cover.  An empty span (an omission in
the witness, an addition against the base) becomes an insertion sign at its offset.
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from ..collate.model import App, Collation
from ..collate.rows import body_units
from ..model import inline_text


class Mark(NamedTuple):
    """One witness's span of an entry in a row's layer.  A named tuple, not a frozen dataclass: the book's
    columns make a hundred thousand, and a frozen dataclass sets each field through ``object.__setattr__``
    (its making was a tenth of :func:`mark_index`)."""

    start: int
    end: int
    app: str
    type: str  # the variant type as this witness reads it; "agree" for a witness that reads as the base
    subtype: str | None = None
    lem: bool = False  # the base's own reading

    @property
    def empty(self) -> bool:
        return self.end <= self.start


#: a mark's span, its sort key (by start, then end; the marks of a span in the order made)
_SPAN = attrgetter("start", "end")

#: (row id, siglum) → layer → marks, sorted by start
MarkIndex = dict[tuple[str, str], dict[str, list[Mark]]]


def mark_index(col: Collation) -> MarkIndex:
    """(row, siglum) → layer → the marks of its entries, sorted by span: the base's lemma and each witness's
    reading.  The marks are made as :class:`Mark`'s tuples directly (``tuple.__new__``, the same object): the
    named tuple's ``__new__`` is a Python function, a call per mark (45,000 in the book)."""
    idx: MarkIndex = {}
    make = tuple.__new__
    base = col.base
    for a in col.apps:
        row, layer, aid, sub = a.row, a.layer, a.id, a.subtype
        idx.setdefault((row, base), {}).setdefault(layer, []).append(
            make(Mark, (a.lem.start, a.lem.end, aid, a.type, sub, True)))
        for s, r in a.readings.items():
            idx.setdefault((row, s), {}).setdefault(layer, []).append(
                make(Mark, (r.start, r.end, aid, r.type or a.type, sub, False)))
    for layers in idx.values():
        for marks in layers.values():
            marks.sort(key=_SPAN)
    return idx


def reading_order(col: Collation, siglum: str | None = None) -> dict[str, int]:
    """app id → footnote number, 1…N in the order the base text shows them.

    The base shows a row unit by unit, each unit's pieces in order (经, then 注, then 疏 …),
    while an app's offsets run over one layer of the whole row; so the order is
    (row, the piece that holds the lemma, the offset).
    """
    return {a.id: n for n, a in enumerate(_in_order(col, siglum or col.base), 1)}


def _in_order(col: Collation, reader: str) -> list[App]:
    """The entries that ``reader`` has a reading of, in :func:`reading_order`'s order (the entries themselves: the
    校勘記's order filters them by their type, without a map from id back to entry made per reader)."""
    is_base = reader == col.base
    units = {u.id: u for u in body_units(col.witnesses[reader])}
    by_row = _apps_by_row(col)
    keys: list[tuple[int, int, int, int, str, int, App]] = []
    for ri, row in enumerate(col.rows):
        apps = by_row.get(row.id)
        if not apps:
            continue
        # per layer: (offset where a piece starts, offset where it ends, piece sequence number); each piece's
        # characters counted as layer_text counts them (``inline_text``: ``Piece.text`` without its call).  Only
        # the layers the row's entries are in: a piece of another (the 注疏's 疏 in a 篇 whose other witnesses
        # have none, most of its text) is only numbered
        layers = {a.layer for a in apps}
        spans: dict[str, list[tuple[int, int, int]]] = {}
        offs: dict[str, int] = {}
        seq = 0
        for uid in row.units.get(reader, ()):
            for p in units[uid].pieces:
                layer = p.layer
                if layer in layers:
                    o = offs.get(layer, 0)
                    n = offs[layer] = o + len(inline_text(p.content))
                    if o:
                        spans[layer].append((o, n, seq))
                    else:
                        spans.setdefault(layer, []).append((o, n, seq))
                seq += 1
        for a in apps:
            rd = a.lem if is_base else a.readings.get(reader)
            if rd is None:
                continue
            where = seq  # past the end when nothing holds it
            start = rd.start
            for lo, hi, sq in spans.get(a.layer, ()):
                if lo <= start < hi or (start == hi and hi > lo):
                    where = sq
                    if start < hi:
                        break
            # (then the entry's place among them: two entries are never compared, even if an apparatus read back
            # repeats an id; one flat tuple, which sorts as the place's tuple nested in it did, compared faster)
            keys.append((ri, where, start, rd.end, a.id, len(keys), a))
    keys.sort()
    return [k[6] for k in keys]


#: the last collation's entries by row (:func:`_apps_by_row`): asked once per witness as the reading text
_last_by_row: list[tuple[Collation, dict[str, list[App]]]] = []


def _apps_by_row(col: Collation) -> dict[str, list[App]]:
    """row id → its entries, in the collation's order; grouped once per collation, not once per reading text."""
    if not _last_by_row or _last_by_row[0][0] is not col:
        by_row: dict[str, list[App]] = {}
        for a in col.apps:
            by_row.setdefault(a.row, []).append(a)
        _last_by_row[:] = [(col, by_row)]
    return _last_by_row[0][1]


#: Entries a 校勘記 leaves out: differences of form only (异体), which the collation keeps and the page marks
#: (a switch shows them) but a printed apparatus does not list.
NOT_IN_JIAOKANJI = frozenset({"orthographic"})


#: the last collation's orders (reading text → :func:`jiaokanji_order`): a chapter's views are made one after the
#: other, and the parallel page, the base page and the search data's 校勘記 each ask for the base's
_orders: list[tuple[Collation, dict[str, dict[str, int]]]] = []


def jiaokanji_order(col: Collation, siglum: str | None = None) -> dict[str, int]:
    """app id → its number in the 篇's 校勘記 read from ``siglum`` (the base by default): :func:`reading_order`
    without the entries of :data:`NOT_IN_JIAOKANJI` and, for another reading text, without those where every
    witness reads as it does; numbered 1…N again (one sequence per 篇), the dict in the order of the numbers.
    Made once per collation and reading text (the caller must not change it)."""
    reader = siglum or col.base
    if not _orders or _orders[0][0] is not col:
        _orders[:] = [(col, {})]
    made = _orders[0][1]
    if reader not in made:
        made[reader] = _jiaokanji_order(col, reader)
    return made[reader]


def _jiaokanji_order(col: Collation, reader: str) -> dict[str, int]:
    listed = _in_order(col, reader)  # (each has a reading of ``reader``'s)
    if reader == col.base:
        ids = [a.id for a in listed if a.type not in NOT_IN_JIAOKANJI]
    else:  # the reader's reading differs from another exactly where the entry's readings are not all one
        varied = _varied(col)
        ids = [a.id for a in listed if a.id in varied and a.type not in NOT_IN_JIAOKANJI]
    return {aid: n for n, aid in enumerate(ids, 1)}


#: the last collation's :func:`_varied` (asked once per witness as the reading text)
_last_varied: list[tuple[Collation, frozenset[str]]] = []


def _varied(col: Collation) -> frozenset[str]:
    """The ids of the entries whose witnesses (the base among them) do not all read the same text."""
    if not _last_varied or _last_varied[0][0] is not col:
        _last_varied[:] = [(col, frozenset(a.id for a in col.apps
                                           if any(r.text != a.lem.text for r in a.readings.values())))]
    return _last_varied[0][1]
