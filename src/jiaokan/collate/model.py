"""What a collation produces: aligned passage rows, typed apparatus entries, layer gaps.

Every downstream consumer (the TEI apparatus, the JSON export, the terminal diff,
the HTML edition, the 案 checker) reads these records, never the raw edit script.
Offsets are into a unit-group's *layer text*: the concatenated reading text
(:attr:`jiaokan.model.Piece.text`) of that layer's pieces, in document order,
over the units of one row of one witness.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain
from operator import attrgetter
from dataclasses import dataclass, field

from ..model import Unit, Witness
from .layertext import LayerText, layer_texts

#: Variant types, weakest first; an app with several kinds of difference takes the strongest.
#: ``uncertain``: the only difference involves an unknown character (an unresolved gaiji, a
#: private-use glyph, a held control): a gap in knowledge, not a reading.
VARIANT_TYPES: tuple[str, ...] = ("uncertain", "orthographic", "taboo", "transposition", "addition", "omission", "substantive")
_RANK = {t: i for i, t in enumerate(VARIANT_TYPES)}

#: Layers that are collated (案 notes and paratext are not: they belong to one witness).
COLLATED_LAYERS: tuple[str, ...] = ("jing", "zhuan", "zhu", "shu", "yinyi", "shi", "kaozheng", "commentary")


_TYPE = attrgetter("type")
_READINGS = attrgetter("readings")


def strongest(types: list[str]) -> str:
    """The strongest of ``types`` (:data:`VARIANT_TYPES`; a type not listed outranks them all), the first of
    equals.  Most entries have one type: it is returned without ranking (segments and entries ask per entry)."""
    if len(types) == 1:
        return types[0]
    return max(types, key=lambda t: _RANK.get(t, len(VARIANT_TYPES)))


@dataclass
class Reading:
    """One witness's reading at an apparatus location, with where to find it."""

    siglum: str
    text: str  # original characters, punctuation trimmed at the ends
    start: int  # offsets into the row's layer text of this witness
    end: int
    unit: str | None  # the unit (passage) id where the reading stands
    page: str | None
    line: int | None
    type: str | None = None  # None for the base (lem); the variant type for the others; "agree"
    col: int | None = None  # column on the source line (a one-line export has everything on line 2)


@dataclass
class App:
    """An apparatus entry: the base reading (lem) and every other witness's reading."""

    id: str
    row: str
    layer: str
    type: str
    lem: Reading
    readings: dict[str, Reading]  # every non-base witness; type "agree" where it reads as the base
    context: str  # the base text around the lemma, with the lemma in 【】
    subtype: str | None = None  # e.g. "minor" for 古今字/通假

    def differing(self) -> dict[str, Reading]:
        return {s: r for s, r in self.readings.items() if r.type != "agree"}


@dataclass
class LayerGap:
    """A layer present in some witnesses of a row and absent from others: reported once."""

    row: str
    layer: str
    present: dict[str, int]  # siglum → characters
    absent: list[str]
    #: "layer": the layer is missing; "edge": the witness starts or ends inside the row;
    #: "lacuna": the absent witness lost the text with a page of its source (a Gap)
    kind: str = "layer"


@dataclass
class Row:
    """Aligned passages: the units of each witness that hold the same stretch of 经."""

    id: str
    units: dict[str, list[str]]  # siglum → unit ids, in order
    base_passage: str | None  # the first base unit with 经 (the row's permalink)


@dataclass
class LayerAlignment:
    """Character alignment of one layer of one row between the base and one witness."""

    row: str
    layer: str
    siglum: str
    ops: list  # jiaokan.collate.align.Op over the two layer texts (string offsets)


@dataclass
class Collation:
    base: str
    witnesses: dict[str, Witness]
    rows: list[Row] = field(default_factory=list)
    apps: list[App] = field(default_factory=list)
    gaps: list[LayerGap] = field(default_factory=list)
    alignments: list[LayerAlignment] = field(default_factory=list)
    #: False once :attr:`alignments` were given up (a build drops them when the 篇's apparatus and 案 notes are
    #: made): what is asked of them then (the 案 check, :class:`jiaokan.emend.check.Aligned`) is refused, never
    #: answered from an empty list as if the witnesses did not meet
    aligned: bool = True
    layers: tuple[str, ...] = COLLATED_LAYERS
    ignored: tuple[str, ...] = ()
    #: (row id, siglum) → that witness's text of every collated layer in the row: the collation, the
    #: TEI and JSON writers and the 案 check all ask for them, so they are made once
    _texts: dict[tuple[str, str], dict[str, LayerText]] = field(default_factory=dict, repr=False, compare=False)
    _units: dict[str, dict[str, Unit]] = field(default_factory=dict, repr=False, compare=False)
    #: the apparatus segments of every row and layer, with what they were made from
    #: (:func:`jiaokan.collate.segments.row_layer_segments`)
    _segments: tuple[tuple, list] | None = field(default=None, repr=False, compare=False)

    @property
    def sigla(self) -> list[str]:
        return list(self.witnesses)

    def row_texts(self, row: Row, siglum: str) -> dict[str, LayerText]:
        """The text of each collated layer (:attr:`layers`) of witness ``siglum`` in ``row``, made once per
        collation (one walk for all of them: a 注疏's 疏 is walked through to keep the page right).
        The dict is the memo's: read it, do not change it."""
        key = (row.id, siglum)
        texts = self._texts.get(key)
        if texts is None:
            texts = self._texts[key] = self._layer_texts(row, siglum, frozenset(self.layers))
        return texts

    def row_text(self, row: Row, siglum: str, layer: str) -> LayerText:
        """The layer text of witness ``siglum`` in ``row`` (computed once per collation)."""
        texts = self.row_texts(row, siglum)
        lt = texts.get(layer)
        if lt is None:  # a layer that is not collated: made on its own, and kept with the others
            lt = texts[layer] = self._layer_texts(row, siglum, frozenset((layer,)))[layer]
        return lt

    def made_row_text(self, row: Row, siglum: str, layer: str) -> LayerText | None:
        """The layer text :meth:`row_texts` made of witness ``siglum`` in ``row``, if it is at hand (None: not
        made, or dropped since): for a reader that would make it otherwise, and must not keep texts made anew
        (the 案 check of a witness whose collation's texts were dropped, :func:`jiaokan.build._trim`)."""
        texts = self._texts.get((row.id, siglum))
        return texts.get(layer) if texts is not None else None

    def _layer_texts(self, row: Row, siglum: str, layers: frozenset[str]) -> dict[str, LayerText]:
        units = self._units.get(siglum)
        if units is None:
            from .rows import body_units

            units = self._units[siglum] = {u.id: u for u in body_units(self.witnesses[siglum])}
        return layer_texts([units[u] for u in row.units.get(siglum, [])], layers)

    def drop_witnesses(self) -> list[str]:
        """Drop the witnesses and every cache made from them; returns the sigla, in order.

        For the trip from a ``build --jobs`` worker back to the build, which holds the
        witnesses already: :meth:`attach_witnesses` gives them back.
        """
        sigla = list(self.witnesses)
        self.witnesses = {}
        self._texts.clear()
        self._units.clear()
        self._segments = None
        return sigla

    def attach_witnesses(self, sigla: list[str], by_siglum: dict[str, Witness]) -> None:
        """Give back the witnesses :meth:`drop_witnesses` dropped (``sigla``: the order it returned)."""
        self.witnesses = {s: by_siglum[s] for s in sigla}

    def counts(self) -> dict[str, int]:
        """Apparatus entries per variant type (per witness reading, so two witnesses count twice)."""
        # the types of every reading counted at once in C (the site, the export and the build's tables each
        # ask): where a dict of the differing readings was made for every entry
        seen = Counter(map(_TYPE, chain.from_iterable(map(dict.values, map(_READINGS, self.apps)))))
        return {t: seen[t] for t in VARIANT_TYPES}
