"""A layer's reading text over some units, with the page, line and unit of every character.

Why a separate object: alignment runs on plain strings, but the apparatus must
say where a reading stands (passage, page, line), and the HTML must find the
characters again inside the pieces.  Walking all pieces (not only the layer's)
keeps page and line state right when a page turns inside another layer.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Sequence

from ..normalize.fold import exact_keys
from ..normalize.ignorable import NEVER_IGNORABLE, kept_offsets, strip_ignorable
from ..model import (UNKNOWN_CHAR, Gaiji, Gap, Inline, Label, LabelGaiji, LineBreak, Note, PageBreak, Piece, Text, Unit, Where,
                     advance, walk)


#: the offsets of an empty text (shared: never changed by its readers)
_NO_OFFSETS: "array[int]" = array("i")
_NO_KEYS: "tuple[str, Sequence[int]]" = ("", _NO_OFFSETS)


@dataclass(slots=True)
class LayerText:
    """The reading text of one layer over some units, with where each character stands.

    ``pieces`` gives the offset at which each of the layer's pieces starts, so a
    stage holding an offset can find the piece (and the offset inside it).

    (Slotted: a book's collations make some thirty thousand, one per row, witness and layer met, and drop
    them all when the apparatus is written: a dict each was one more object to make and free.)
    """

    text: str = ""
    #: where the characters stand, a run at a time (a text node, a gaiji's reading: one unit, page and line,
    #: columns one after another): the offset each run starts at, and its (unit, page, line, column before
    #: its first character).  Why runs: the per-character lists (:attr:`units`, :attr:`pages`, :attr:`lines`,
    #: :attr:`cols`) cost four list entries a character of every text collated, for the few the apparatus asks.
    run_starts: list[int] = field(default_factory=list)
    run_where: list[tuple[str, str | None, int | None, int]] = field(default_factory=list)
    gaps: list[int] = field(default_factory=list)  # offsets where the source lost text (a Gap in the layer)
    # offset → gaiji code where the character is a marker with no reading (a private-use glyph, an
    # unmapped gaiji): the text holds UNKNOWN_CHAR there; the apparatus writes <g ref="#code"/>
    glyphs: dict[int, str] = field(default_factory=dict)
    pieces: list[tuple[int, Unit, Piece]] = field(default_factory=list)
    #: (text, its kept_positions): the collation, the segments and the writers each ask for them
    _kept: "tuple[str, array[int]] | None" = field(default=None, repr=False, compare=False)
    #: (text, exact_keys(text, kept)): a base text is aligned with every other witness
    _keyed: "tuple[str, tuple[str, Sequence[int]] | None] | None" = field(default=None, repr=False, compare=False)
    #: (text, runs, which → list): the per-character lists asked for (:meth:`_per_char`)
    _per: "tuple[str, int, dict[int, list]] | None" = field(default=None, repr=False, compare=False)

    def kept(self) -> "array[int]":
        """The offsets of the characters of :attr:`text` that are not ignorable (made once per text;
        an array of C ints, 4 bytes an offset where a list held an int object of 36 for each)."""
        memo = self._kept
        if memo is not None and memo[0] is self.text:
            return memo[1]  # (most calls: the memo, two attribute look-ups; asked per witness, row and layer)
        if not self.text:
            return _NO_OFFSETS  # most layers of a row are empty: one array for them all, none kept per text
        self._kept = (self.text, kept_offsets(self.text))
        return self._kept[1]

    def keyed(self) -> "tuple[str, Sequence[int]] | None":
        """:func:`~jiaokan.normalize.fold.exact_keys` of :attr:`text` with :meth:`kept` (made once per text:
        the base's text of a row and layer is aligned with each other witness's)."""
        if not self.text:
            return _NO_KEYS  # (as for kept: nothing kept on the text shared by every empty layer)
        if self._keyed is None or self._keyed[0] is not self.text:
            self._keyed = (self.text, exact_keys(self.text, self.kept()))
        return self._keyed[1]

    def _run(self, offset: int) -> tuple[int, tuple[str, str | None, int | None, int]] | None:
        """(offset in its run, the run's where) of the character at ``offset`` (or the last one before it)."""
        if not self.text or not self.run_starts:
            return None
        i = min(max(offset, 0), len(self.text) - 1)
        r = bisect_right(self.run_starts, i) - 1
        return i - self.run_starts[r], self.run_where[r]

    def where(self, offset: int) -> tuple[str | None, str | None, int | None]:
        """(unit, page, line) of the character at ``offset`` (or the last one before it).  :meth:`_run`'s
        search without its column (the apparatus asks it of every reading: one call, not two)."""
        starts, n = self.run_starts, len(self.text)
        if not n or not starts:
            return None, None, None
        unit, page, line, _ = self.run_where[bisect_right(starts, offset if 0 <= offset < n else min(max(offset, 0), n - 1)) - 1]
        return unit, page, line

    def place(self, offset: int) -> tuple[str | None, str | None, int | None, int | None]:
        """(unit, page, line, column) of the character at ``offset``: :meth:`where` and :meth:`col_at` with one
        search of the runs (the apparatus asks both of every reading)."""
        got = self._run(offset)
        if got is None:
            return None, None, None, None
        unit, page, line, col = got[1]
        return unit, page, line, col + got[0] + 1

    def col_at(self, offset: int) -> int | None:
        """Column on its source line of the character at ``offset`` (or the last one before it)."""
        got = self._run(offset)
        return None if got is None else got[1][3] + got[0] + 1

    def _per_char(self, which: int) -> list:
        """One of the per-character lists, made from the runs once per text (the apparatus writer reads the
        base's pages by index, once per page turn); the list is the memo's: read it, do not change it."""
        memo = self._per
        if memo is None or memo[0] is not self.text or memo[1] != len(self.run_starts):
            memo = self._per = (self.text, len(self.run_starts), {})
        got = memo[2].get(which)
        if got is None:
            ends = self.run_starts[1:] + [len(self.text)]
            got = memo[2][which] = []
            for start, end, w in zip(self.run_starts, ends, self.run_where):
                got.extend(range(w[3] + 1, w[3] + 1 + end - start) if which == 3 else [w[which]] * (end - start))
        return got

    @property
    def units(self) -> list[str]:
        """The unit of each character (made from the runs when asked)."""
        return self._per_char(0)

    @property
    def pages(self) -> list[str | None]:
        """The page of each character."""
        return self._per_char(1)

    @property
    def lines(self) -> list[int | None]:
        """The line of each character."""
        return self._per_char(2)

    @property
    def cols(self) -> list[int | None]:
        """The column on its source line of each character (model.assign_columns)."""
        return self._per_char(3)

    def piece_at(self, pos: int, point: bool = False) -> tuple[int, Unit, Piece] | None:
        """The piece holding offset ``pos`` (for a point, the piece it ends, if any)."""
        best = None
        for off, u, p in self.pieces:
            n = len(p.text)
            if off <= pos < off + n or (point and off <= pos <= off + n):
                return off, u, p
            if off <= pos:
                best = (off, u, p)
        return best


def layer_text(units: list[Unit], layer: str) -> LayerText:
    """The reading text of ``layer`` over ``units`` (see :func:`layer_texts`)."""
    return layer_texts(units, (layer,))[layer]


def layer_texts(units: list[Unit], layers: tuple[str, ...] | frozenset[str]) -> dict[str, LayerText]:
    """The reading text of each of ``layers`` over ``units``, in one walk.

    Every piece is walked (not only the layers': a page can turn in another layer)
    with one cursor; why all layers at once: the walk through a 注疏's 疏 to keep
    the page right costs as much as the 疏 itself, so doing it once per layer
    made the collation walk the 疏 five times.

    The cursor is three local variables, :class:`~jiaokan.model.Where`'s page, line and column, moved as
    :meth:`Where.enter <jiaokan.model.Where.enter>` and :func:`~jiaokan.model.walk` move them (a
    ``Where`` is filled from them only for the rare node handed to :func:`~jiaokan.model.advance`): the
    walk is a loop over every node of every row of every witness, and reading and writing the cursor's
    attributes at each was a third of it.
    """
    wanted = layers if isinstance(layers, frozenset) else frozenset(layers)
    # made for the layers met: most of a row's layers are empty in most witnesses (they get _EMPTY)
    outs: dict[str, LayerText] = {}
    runs: dict[str, list[str]] = {}
    size: dict[str, int] = {}  # each text's length so far
    where = Where()  # for advance() only: the cursor itself is page, line, col
    page: str | None = None
    line: int | None = None
    col: int | None = None
    for u in units:
        uid = u.id
        for p in u.pieces:
            # Where.enter: a piece's own place only where nothing has been seen yet
            if page is None:
                page = p.loc.page
            if line is None:
                line = p.loc.line or None
            if col is None:
                col = (p.col or 1) - 1
            layer = p.layer
            out = outs.get(layer)
            if out is None:
                if layer not in wanted:  # a piece of another layer: only the cursor moves
                    where.page, where.line, where.col = page, line, col
                    advance(p.content, where)
                    page, line, col = where.page, where.line, where.col
                    continue
                out = outs[layer] = LayerText()
                runs[layer] = []
                size[layer] = 0
            got = runs[layer]
            starts, wheres = out.run_starts, out.run_where
            at = size[layer]
            out.pieces.append((at, u, p))
            for node in p.content:
                if type(node) is Text:  # most nodes: what walk() would step through, without its steps
                    r = node.text
                    n = len(r)
                    c = col or 0
                    if n:
                        got.append(r)
                        starts.append(at)
                        wheres.append((uid, page, line, c))
                        at += n
                    col = c + n
                elif type(node) is LineBreak:  # nodes without a reading move the cursor only, as walk() would
                    line, col = node.n, 0
                elif type(node) is Label:
                    col = (col or 0) + len(node.text)
                elif type(node) is LabelGaiji:  # a character of a marker: not read, as a label's
                    col = (col or 0) + 1
                elif type(node) is PageBreak:
                    page, col = node.n, col or 0
                elif type(node) is Gaiji:  # its reading (an unknown one: a glyph the apparatus writes as g)
                    r = node.reading
                    c = col or 0
                    if r == UNKNOWN_CHAR:
                        out.glyphs[at] = node.code
                    if r:
                        got.append(r)
                        starts.append(at)
                        wheres.append((uid, page, line, c))
                        at += len(r)
                    col = c + 1
                elif type(node) is Gap:
                    out.gaps.append(at)
                    col = (col or 0) + len(node.source)
                else:  # a note (its content can turn a page: advance()'s rules), anything else: walk()'s
                    where.page, where.line, where.col = page, line, col
                    if type(node) is Note:
                        advance([node], where)
                    else:
                        at = _walk_other(node, where, uid, out, got, at)
                    page, line, col = where.page, where.line, where.col
            size[layer] = at
    for layer, out in outs.items():
        out.text = "".join(runs[layer])
    texts = dict.fromkeys(layers, _EMPTY)  # (every layer asked, in its order; the empty ones share _EMPTY)
    texts.update(outs)
    return texts


def _walk_other(node: Inline, where: Where, uid: str, out: LayerText, got: list[str], at: int) -> int:
    """A node :func:`layer_texts` has no case of its own for, read as :func:`~jiaokan.model.walk` meets it
    (its reading onto ``out`` and ``got`` from offset ``at``, a gap noted, ``where`` moved); returns the
    offset after it."""
    for step in walk([node], where):
        if step.note is not None:
            continue
        if isinstance(step.node, Gap):
            out.gaps.append(at)
            continue
        r = step.node.reading
        if isinstance(step.node, Gaiji) and r == UNKNOWN_CHAR:
            out.glyphs[at] = step.node.code
        if r:
            got.append(r)
            out.run_starts.append(at)
            out.run_where.append((uid, step.page, step.line, step.col))
            at += len(r)
    return at


#: the layer text of a layer the units do not have (shared, as :data:`_NO_OFFSETS` is: never changed by its
#: readers; a row's texts are made for every collated layer of every witness, and most are empty)
_EMPTY = LayerText()


#: a character that is never ignorable (an ideograph): a text holding one keeps a character
_IDEOGRAPH = re.compile(f"[{NEVER_IGNORABLE}]")


def has_kept(text: str) -> bool:
    """Does ``text`` hold a character that is not ignorable (``bool(strip_ignorable(text))``)?

    Why: the 疏 collation and the pointers to it ask it of every passage, whose text is long and mostly
    ideographs: the first ideograph answers (a regex search in C), where stripping the punctuation copied
    the whole text to test it for emptiness."""
    return _IDEOGRAPH.search(text) is not None or bool(strip_ignorable(text))
