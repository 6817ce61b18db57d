"""Anchor parsed 案 notes in their witness: the exact characters each claim bears on.

A 案 note sits inside the :class:`~jiaokan.model.Piece` it follows (a 经 or 注 piece),
right after the characters it discusses.  :func:`anchor_witness` parses every note of a
witness (:func:`jiaokan.emend.notes.parse_note`) and turns each *claim* (the note's
first claim and every further claim in ``record.more``) into a :class:`Claim` whose
:class:`Anchor` says where it applies: the piece, the offsets in :attr:`Piece.text`
(``start == end`` for an insertion point), the unit (passage) and the layer.

How the ``position`` of a record is resolved (GUIDE §3, :mod:`jiaokan.emend.notes`):

``preceding``
    the last occurrence of the lemma that ends at or before the note, in the note's
    piece; failing that, in the earlier pieces of the same layer of the unit (nearest
    first).  ``distance`` records how many characters lie between it and the note.
``span:N``
    the N characters right before the note (punctuation skipped).
``after`` (此下)
    the point at the note; for an omission (此下今注疏本脱X字) the lemma is the first
    occurrence of X at or after the note.
``after:X`` / ``before:X`` (X下 / X上)
    the point right after / right before the last occurrence of X before the note.
``before`` (此上)
    taken as the point at the note (flagged: the notes never say how far up).
``following`` (下文…)
    the first occurrence of the lemma after the note (same piece, then the later pieces
    of the same layer in the chapter).
``passage`` (此經文及注…)
    the piece before the note, standing for the passage's 经 and its 注 together.
``sentence`` (此句…)
    from the previous sentence stop (。；, an earlier note, or the piece start) to the
    note; approximate in unpunctuated prints, and flagged as such.
``near``
    the note does not quote this text (唐石经作賓席之前): the stretch before the note
    that shares most characters with the note's reading.
``none``
    nothing to anchor (an unparsed comment): the claim gets the note's own point and
    ``status == "none"``.

A claim with scope ``below`` (下同) gets extra anchors (``role == "below"``) at every
later occurrence of its lemma in the same layer of the same chapter.

Matching is on comparison keys (:func:`jiaokan.normalize.key`: script, 异体 and taboo
forms folded; punctuation skipped), so a note written 夲 finds 本; the anchor always
stores the witness's own characters.  A lemma that cannot be found is reported in
``Claim.error`` with ``status == "failed"``; nothing is ever anchored silently by guess.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from typing import Iterator

from ..model import UNKNOWN_CHAR, Note, Piece, Place, Unit, Where, Witness, advance, reading_places, walk
from ..normalize import is_ignorable, kept_positions, key, resolve_gaiji, strip_ignorable
from ..ui import counted
from .folded import keys_joined, one_key_each
from .notes import NoteRecord, parse_note

__all__ = ["Anchor", "Claim", "anchor_witness", "anchor_note", "note_offset", "piece_context", "piece_key"]

#: Characters that end a sentence (for ``position == "sentence"``).
SENTENCE_STOPS = frozenset("。；;！？!?")

#: Characters the prints (and the transcriptions) confuse: a one-character lemma not found
#: before its note is looked for as these (keys of :func:`jiaokan.normalize.key`).
CONFUSED: dict[str, str] = {"己": "已巳", "已": "己巳", "巳": "己已"}

#: A lemma found further than this many characters before its note is flagged.
FAR = 40

_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9_]*);")


@dataclass
class Anchor:
    """Where a claim applies: ``Piece.text[start:end]`` of piece ``piece`` (a point if equal)."""

    witness: str
    unit: str
    piece: str
    layer: str
    start: int
    end: int
    text: str
    role: str = "main"  # "main", or "below" for the later occurrences of a 下同 claim
    method: str = ""  # how it was found (the position rule that applied)
    distance: int = 0  # characters between the anchor's end and the note (0: right before it)
    page: str | None = None
    line: int | None = None
    col: int | None = None  # column on the source line (a one-line export has every note on one line)
    context: str = ""  # the piece text around the anchor, the anchor in 【】

    @property
    def is_point(self) -> bool:
        return self.start == self.end

    def to_dict(self) -> dict:
        return {
            "unit": self.unit,
            "piece": self.piece,
            "layer": self.layer,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "role": self.role,
            "method": self.method,
            "distance": self.distance,
            "page": self.page,
            "line": self.line,
            "col": self.col,
            "context": self.context,
        }


@dataclass
class Claim:
    """One claim of one 案 note, with the place it applies to.

    ``id`` is the note's id for its first claim and ``<note id>~N`` for further claims
    (N = 2, 3 …).  ``unit``/``piece``/``layer``/``note_offset`` say where the note stands
    (the offset in :attr:`Piece.text` at which the note is inserted).  ``status``:
    ``ok`` (anchored), ``failed`` (see ``error``), ``none`` (nothing to anchor: an
    unparsed comment; ``anchors`` holds the note's own point).  ``warnings`` are
    anchoring doubts a scholar should see (lemma far from the note, count mismatch …).
    """

    id: str
    note_id: str
    index: int
    record: NoteRecord
    witness: str
    unit: str
    piece: str
    layer: str
    note_offset: int
    note_text: str
    anchors: list[Anchor] = field(default_factory=list)
    status: str = "ok"
    error: str | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def anchor(self) -> Anchor | None:
        """The main anchor (None when anchoring failed)."""
        return self.anchors[0] if self.anchors and self.status != "failed" else None

    @property
    def below(self) -> list[Anchor]:
        return [a for a in self.anchors if a.role == "below"]


# ---------------------------------------------------------------------------
# Text helpers
# ---------------------------------------------------------------------------


def note_offset(piece: Piece, note: Note) -> int:
    """The offset in ``piece.text`` at which ``note`` stands (characters before it)."""
    for step in walk(piece.content):
        if step.node is note:
            return step.offset
    raise ValueError("the note is not in this piece")


def piece_key(unit: Unit, piece: Piece) -> str:
    """The id anchors use for a piece: its own id, else ``<unit id>.<layer>``."""
    return piece.id or f"{unit.id}.{piece.layer}"


def piece_context(text: str, start: int, end: int, width: int = 10) -> str:
    """``text`` around ``[start, end)`` with the span (or the point) in 【】."""
    left = text[max(0, start - width) : start]
    right = text[end : end + width]
    return f"{left}【{text[start:end]}】{right}"


def _lemma_keys(lemma: str, char_decl: dict[str, str | None]) -> list[str]:
    """Comparison keys of a lemma as the note writes it (gaiji entities resolved)."""

    def sub(m: re.Match) -> str:
        code = m.group(1)
        return char_decl.get(code) or resolve_gaiji(code) or UNKNOWN_CHAR

    lemma = _ENTITY.sub(sub, lemma)
    return [key(ch) for ch in lemma if not is_ignorable(ch)]


class _Keyed:
    """The non-ignorable characters of a text, with their offsets and keys.

    Made in C (:func:`kept_positions`, one ``str.translate`` for the keys) where every character keys to
    one character, the usual case, and searched with ``str.find`` then: a Python call per character
    (per position, for a search) was a fifth of the anchoring.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = kept_positions(text)
        kept = text if len(self.pos) == len(text) else strip_ignorable(text)  # (nothing to drop: the usual case)
        #: the keys as one string (one character each), or None where a key is empty or longer
        self._joined: str | None = keys_joined(kept) if one_key_each(kept) else None
        self.keys = list(self._joined) if self._joined is not None else [key(ch) for ch in kept]

    def occurrences(self, keys: list[str]) -> Iterator[tuple[int, int]]:
        """String spans ``(start, end)`` of every occurrence of ``keys``, left to right."""
        n = len(keys)
        if not n:
            return
        if self._joined is not None:
            # every key here one character: a list of keys matches where its characters joined do
            # (and nowhere if one of its keys is not one character)
            if any(len(k) != 1 for k in keys):
                return
            want = "".join(keys)
            i = self._joined.find(want)
            while i >= 0:
                yield self.pos[i], self.pos[i + n - 1] + 1
                i = self._joined.find(want, i + 1)
            return
        for i in range(len(self.keys) - n + 1):
            if self.keys[i : i + n] == keys:
                yield self.pos[i], self.pos[i + n - 1] + 1

    def last_before(self, keys: list[str], limit: int) -> tuple[int, int] | None:
        found = None
        for s, e in self.occurrences(keys):
            if e > limit:
                break
            found = (s, e)
        return found

    def first_after(self, keys: list[str], limit: int) -> tuple[int, int] | None:
        for s, e in self.occurrences(keys):
            if s >= limit:
                return s, e
        return None

    def count_between(self, a: int, b: int) -> int:
        """How many kept characters stand at offsets ``a`` ≤ offset < ``b``."""
        return max(0, bisect_left(self.pos, b) - bisect_left(self.pos, a))


# ---------------------------------------------------------------------------
# The chapter as a sequence of pieces
# ---------------------------------------------------------------------------


@dataclass
class _Slot:
    div: int
    unit: Unit
    piece: Piece
    keyed: _Keyed | None = None

    def k(self) -> _Keyed:
        if self.keyed is None:
            self.keyed = _Keyed(self.piece.text)
        return self.keyed


class _Doc:
    """All pieces of a witness in order, with a stable id for each."""

    def __init__(self, w: Witness) -> None:
        self.w = w
        self.slots: list[_Slot] = []
        self.index: dict[int, int] = {}  # id(piece) -> slot number
        for di, d in enumerate(w.divs):
            for u in d.units:
                for p in u.pieces:
                    self.index[id(p)] = len(self.slots)
                    self.slots.append(_Slot(di, u, p))
        self._places: dict[int, list[Place]] = {}
        # the walk's cursor before each slot (page, line, column), carried as far as a note was asked about
        self._before: list[tuple[str | None, int | None, int | None]] = []
        self._cursor = Where()

    def piece_id(self, slot: _Slot) -> str:
        return piece_key(slot.unit, slot.piece)

    def _places_of(self, n: int) -> list[Place]:
        """:func:`jiaokan.model.witness_places` of slot ``n``'s piece, without a Place for every character
        of the witness: the cursor only moves over the pieces before (:func:`jiaokan.model.advance`) and
        the places are made for the pieces the notes stand in."""
        piece = self.slots[n].piece
        places = self._places.get(id(piece))
        if places is None:
            cur = self._cursor
            while len(self._before) <= n:
                p = self.slots[len(self._before)].piece
                self._before.append((cur.page, cur.line, cur.col))
                cur.enter(p)
                advance(p.content, cur)
            places = self._places[id(piece)] = reading_places(piece, Where(*self._before[n]))
        return places

    def where(self, slot: _Slot, offset: int) -> tuple[str | None, int | None, int | None]:
        """Page, line and column of the character at ``offset`` of the slot's piece."""
        places = self._places_of(self.index[id(slot.piece)])
        if not places:
            return slot.piece.loc.page, slot.piece.loc.line or None, slot.piece.col
        pl = places[min(max(offset, 0), len(places) - 1)]
        return pl.page, pl.line, pl.col

    def same_layer(self, n: int, layer: str, *, backward: bool, unit_only: bool) -> Iterator[_Slot]:
        """Slots of ``layer`` before (``backward``) or after slot ``n``, in the same unit or chapter."""
        here = self.slots[n]
        rng = range(n - 1, -1, -1) if backward else range(n + 1, len(self.slots))
        for i in rng:
            s = self.slots[i]
            if s.div != here.div or (unit_only and s.unit is not here.unit):
                break
            if s.piece.layer == layer:
                yield s


# ---------------------------------------------------------------------------
# Anchoring
# ---------------------------------------------------------------------------


def anchor_witness(w: Witness) -> list[Claim]:
    """Every claim of every 案 note of ``w``, anchored (document order)."""
    doc = _Doc(w)
    script = w.meta.script if w.meta.script in ("simplified", "traditional") else None
    out: list[Claim] = []
    counter = 0
    for n, slot in enumerate(doc.slots):
        for node in slot.piece.content:
            if not isinstance(node, Note) or node.layer != "an":
                continue
            counter += 1
            rec = parse_note(node.text, script)
            out.extend(_anchor_note(doc, n, node, rec, counter))
    return out


def anchor_note(w: Witness, note: Note, record: NoteRecord | None = None) -> list[Claim]:
    """The anchored claims of one note of ``w`` (parsed here unless ``record`` is given)."""
    doc = _Doc(w)
    for n, slot in enumerate(doc.slots):
        if any(x is note for x in slot.piece.content):
            script = w.meta.script if w.meta.script in ("simplified", "traditional") else None
            return _anchor_note(doc, n, note, record or parse_note(note.text, script), 0)
    raise ValueError("the note is not in this witness")


def _anchor_note(doc: _Doc, n: int, note: Note, rec: NoteRecord, counter: int) -> list[Claim]:
    slot = doc.slots[n]
    note_id = note.id or f"{doc.piece_id(slot)}.an{counter}"
    off = note_offset(slot.piece, note)
    records = [rec, *rec.more]
    claims = []
    for i, r in enumerate(records):
        c = Claim(
            id=note_id if i == 0 else f"{note_id}~{i + 1}",
            note_id=note_id,
            index=i,
            record=r,
            witness=doc.w.meta.siglum,
            unit=slot.unit.id,
            piece=doc.piece_id(slot),
            layer=slot.piece.layer,
            note_offset=off,
            note_text=note.text,
        )
        _resolve(doc, n, c)
        if r.moved_to and c.anchor is not None and not r.reading:
            # 此七字今注疏本在下X之下: the target reads the same text, elsewhere; once anchored
            # the record says which (lemma = reading = the moved text)
            c.record = replace(r, reading=c.anchor.text)
        claims.append(c)
    return claims


def _make(doc: _Doc, slot: _Slot, s: int, e: int, method: str, role: str = "main", distance: int = 0) -> Anchor:
    text = slot.piece.text
    page, line, col = doc.where(slot, s)
    return Anchor(
        witness=doc.w.meta.siglum,
        unit=slot.unit.id,
        piece=doc.piece_id(slot),
        layer=slot.piece.layer,
        start=s,
        end=e,
        text=text[s:e],
        role=role,
        method=method,
        distance=distance,
        page=page,
        line=line,
        col=col,
        context=piece_context(text, s, e),
    )


def _fail(c: Claim, msg: str) -> None:
    c.status, c.error = "failed", msg


def _resolve(doc: _Doc, n: int, c: Claim) -> None:
    r = c.record
    slot = doc.slots[n]
    off = c.note_offset
    pos = r.position
    layer = r.layer or slot.piece.layer
    decl = doc.w.char_decl
    # a note that names another layer (经文X…, 注内X…) bears on that layer of its unit
    home: list[tuple[_Slot, int]]
    if layer != slot.piece.layer:
        home = [(s, len(s.piece.text)) for s in doc.slots if s.unit is slot.unit and s.piece.layer == layer]
        home.reverse()
        if not home:
            _fail(c, f"the note names the {layer} layer, but passage {slot.unit.id} has none")
            return
    else:
        home = [(slot, off)] + [(s, len(s.piece.text)) for s in doc.same_layer(n, layer, backward=True, unit_only=True)]
    where = f"{c.piece} (before the note at offset {off})"

    if pos == "none":
        c.status = "none"
        c.anchors.append(_make(doc, slot, off, off, "note"))
        return

    if pos in ("after", "before"):
        if r.kind == "omission" and r.lemma:  # 此下今注疏本脱X字: the lemma starts at the note
            keys = _lemma_keys(r.lemma, decl)
            hit = slot.k().first_after(keys, off)
            if hit is None or slot.k().count_between(off, hit[0]) > 0:
                _fail(c, f"lemma {r.lemma!r} does not follow the note in {c.piece}")
                return
            c.anchors.append(_make(doc, slot, hit[0], hit[1], "after"))
        else:
            if pos == "before":
                c.warnings.append("此上: taken as the point at the note")
            c.anchors.append(_make(doc, slot, off, off, pos))
        _check_count(c)
        return

    if pos == "sentence-start":  # 此句上…: the point before the sentence's first character
        s = _sentence_start(slot.piece, off)
        c.anchors.append(_make(doc, slot, s, s, pos))
        c.warnings.append("此句上: the sentence is taken from the previous stop, note or piece start")
        return

    if pos in ("piece", "passage"):  # 此注… / 此經文及注… (the 注 follows): the piece before the note
        kd = slot.k()
        before = [p for p in kd.pos if p < off]
        if not before:
            _fail(c, f"no text before the note in {c.piece}")
            return
        c.anchors.append(_make(doc, slot, before[0], before[-1] + 1, pos))
        return

    if pos.startswith(("after:", "before:")) and r.kind == "omission" and r.lemma:
        # X上今注疏本脱Y字: Y is the text right before X (X下…: right after X)
        side, x = pos.split(":", 1)
        lk, xk = _lemma_keys(r.lemma, decl), _lemma_keys(x, decl)
        found = _search_back(home, lk + xk if side == "before" else xk + lk)
        if found is None:
            _fail(c, f"lemma {r.lemma!r} {'before' if side == 'before' else 'after'} {x!r} not found in {where}")
            return
        s_slot, (s, e), dist = found
        kd = s_slot.k()
        i = kd.pos.index(s)
        if side == "before":
            s, e = s, kd.pos[i + len(lk) - 1] + 1
        else:
            s = kd.pos[i + len(xk)]
        c.anchors.append(_make(doc, s_slot, s, e, pos, distance=dist))
        _far(c, dist)
        return

    if pos.startswith(("after:", "before:")):
        side, x = pos.split(":", 1)
        keys = _lemma_keys(x, decl)
        found = _search_back(home, keys)
        if found is None:
            _fail(c, f"locator {x!r} ({'下' if side == 'after' else '上'}) not found in {where}")
            return
        s_slot, (s, e), dist = found
        p = e if side == "after" else s
        c.anchors.append(_make(doc, s_slot, p, p, pos, distance=dist))
        _far(c, dist)
        return

    if pos.startswith("span:"):
        try:
            k = int(pos.split(":", 1)[1])
        except ValueError:
            _fail(c, f"bad span position {pos!r}")
            return
        kd = slot.k()
        before = [p for p in kd.pos if p < off]
        if k <= 0 or len(before) < k:
            _fail(c, f"the note speaks of {counted(k, 'character')}, but only {len(before)} precede it in {c.piece}")
            return
        c.anchors.append(_make(doc, slot, before[-k], before[-1] + 1, pos))
        return

    if pos == "sentence":
        s = _sentence_start(slot.piece, off)
        if s >= off:
            _fail(c, f"no sentence before the note in {c.piece}")
            return
        c.anchors.append(_make(doc, slot, s, off, "sentence"))
        c.warnings.append("此句: the sentence is taken from the previous stop, note or piece start")
        return

    if pos == "near":
        near = _near(slot, off, r.reading, decl)
        if near is None and len(_lemma_keys(r.reading, decl)) == 1:
            # 今注疏本作蒼 after 倉: a one-character quotation bears on the character before the note
            before = [p for p in slot.k().pos if p < off]
            if before:
                near = before[-1], before[-1] + 1
                c.warnings.append("a one-character reading with no like character: taken as the character before the note")
        if near is None:
            _fail(c, f"no stretch like {r.reading!r} in the text before the note in {c.piece}")
            return
        s, e = near
        if r.rule == "conjecture_named_wrong":
            _named_wrong(doc, slot, c, s, e, off, decl)
            return
        method = "near" if not c.warnings or not c.warnings[-1].startswith("a one-character") else "near-1"
        c.anchors.append(_make(doc, slot, s, e, method, distance=slot.k().count_between(e, off)))
        return

    if pos in ("preceding", "following"):
        if not r.lemma:
            _fail(c, "the claim quotes no lemma to look for")
            return
        keys = _lemma_keys(r.lemma, decl)
        if pos == "preceding":
            found = _search_back(home, keys)
            within = _within(r, decl)
            if within is not None:  # 禮賓之禮: the 禮 of the nearest 禮賓 before the note, not the nearest 禮
                phrase = _search_back(home, within)
                if phrase is not None:
                    p_slot, (ps, pe), p_dist = phrase
                    inside = [(hs, he) for hs, he in p_slot.k().occurrences(keys) if ps <= hs and he <= pe]
                    if inside:
                        found = p_slot, inside[0], p_dist + p_slot.k().count_between(inside[0][1], pe)
            if found is None and len(keys) == 1 and keys[0] in CONFUSED:
                # 案己今注疏本訛作也 after 酌已: prints confuse 己/已/巳, and the note's copy may too
                for alt in CONFUSED[keys[0]]:
                    found = _search_back(home, _lemma_keys(alt, decl))
                    if found is not None:
                        c.warnings.append(f"the note writes {r.lemma}, the text has {alt}")
                        break
            if found is None:
                _fail(c, f"lemma {r.lemma!r} not found in {where}")
                return
        else:
            found = _search_forward(doc, n, off, layer, keys)
            if found is None:
                _fail(c, f"lemma {r.lemma!r} not found after the note in the {layer} layer of the chapter")
                return
        s_slot, (s, e), dist = found
        c.anchors.append(_make(doc, s_slot, s, e, pos, distance=dist))
        _far(c, dist)
        _check_count(c)
        if r.scope == "below":
            _below(doc, c, s_slot, e, keys, _within(r, decl))
        elif r.scope == "zhu":
            _in_zhu(doc, c, s_slot, e, keys, _within(r, decl))
        return

    _fail(c, f"unknown position {pos!r}")


def _named_wrong(doc: _Doc, slot: _Slot, c: Claim, s: int, e: int, off: int, decl: dict) -> None:
    """当西上云东者字误: of the stretch like the right phrase, keep the characters where it differs.

    Those must be the character(s) the note calls wrong; the claim becomes the replacement of
    exactly them (東 → 西), never of the phrase, so a conjecture changes no more than it says.
    """
    r = c.record
    kd = slot.k()
    idx = [i for i, p in enumerate(kd.pos) if s <= p < e]
    want = _lemma_keys(r.reading, decl)
    diff = [j for j, i in enumerate(idx) if j < len(want) and kd.keys[i] != want[j]]
    got = [kd.keys[idx[j]] for j in diff]
    if not diff or got != _lemma_keys(r.lemma, decl) or diff != list(range(diff[0], diff[-1] + 1)):
        _fail(c, f"no stretch like {r.reading!r} in {c.piece} differs from it in {r.lemma!r}")
        return
    a, b = kd.pos[idx[diff[0]]], kd.pos[idx[diff[-1]]] + 1
    reading = "".join(r.reading[j] for j in diff) if len(r.reading) == len(want) else r.reading
    c.record = replace(r, lemma=slot.piece.text[a:b], reading=reading)
    c.anchors.append(_make(doc, slot, a, b, "near", distance=kd.count_between(b, off)))


def _check_count(c: Claim) -> None:
    r = c.record
    a = c.anchors[0] if c.anchors else None
    if r.count and a is not None and not a.is_point:
        n = sum(1 for ch in a.text if not is_ignorable(ch))
        if n != r.count:
            c.warnings.append(f"the note says {counted(r.count, 'character')}, the anchor has {n}")


def _far(c: Claim, dist: int) -> None:
    if dist > FAR:
        c.warnings.append(f"the lemma stands {counted(dist, 'character')} before the note")


def _search_back(home: list[tuple[_Slot, int]], keys: list[str]) -> tuple[_Slot, tuple[int, int], int] | None:
    """The last occurrence of ``keys`` ending before each limit, nearest piece first."""
    dist = 0
    for s, limit in home:
        kd = s.k()
        hit = kd.last_before(keys, limit)
        if hit is not None:
            return s, hit, dist + kd.count_between(hit[1], limit)
        dist += kd.count_between(0, limit)
    return None


def _search_forward(doc: _Doc, n: int, off: int, layer: str, keys: list[str]):
    slot = doc.slots[n]
    hit = slot.k().first_after(keys, off) if slot.piece.layer == layer else None
    if hit is not None:
        return slot, hit, slot.k().count_between(off, hit[0])
    dist = slot.k().count_between(off, len(slot.piece.text))
    for s in doc.same_layer(n, layer, backward=False, unit_only=False):
        hit = s.k().first_after(keys, 0)
        if hit is not None:
            return s, hit, dist + s.k().count_between(0, hit[0])
        dist += len(s.k().pos)
    return None


def _below(doc: _Doc, c: Claim, s_slot: _Slot, after: int, keys: list[str], within: list[str] | None = None) -> None:
    """下同: every later occurrence of the lemma in the same layer of the chapter (of the lemma inside the phrase
    the note names it by, ``within``: 禮賓之禮 is the 禮 of 禮賓, not every 禮)."""
    n = doc.index[id(s_slot.piece)]
    slots = [(s_slot, after)] + [(s, 0) for s in doc.same_layer(n, s_slot.piece.layer, backward=False, unit_only=False)]
    for s, start in slots:
        for hs, he in _occurrences(s, keys, within):
            if hs >= start:
                c.anchors.append(_make(doc, s, hs, he, "below", role="below"))


def _in_zhu(doc: _Doc, c: Claim, s_slot: _Slot, after: int, keys: list[str], within: list[str] | None) -> None:
    """注同: the lemma's occurrences in the 注 that follow the note (of the lemma inside ``within`` where the note
    names it so), up to the next passage whose 经 has it again: the 注 that speak of this place.  禮賓之禮當作醴注同
    (聘禮) is the 禮賓 of the next passage's 注 (將禮賓徹神几); read as 下同 it had changed every later 禮 of 聘禮 (45)
    to 醴.  Said in a warning, since the note does not say how far its 注 reach."""
    n = doc.index[id(s_slot.piece)]
    found = 0
    for s in doc.slots[n:]:
        start = after if s is s_slot else 0
        if s.piece.layer == "jing" and s.unit is not s_slot.unit and _occurrences(s, keys, within):
            break  # a new place in the 经: its 注 are not this note's
        if s.piece.layer != "zhu":
            continue
        for hs, he in _occurrences(s, keys, within):
            if hs >= start:
                c.anchors.append(_make(doc, s, hs, he, "zhu", role="below"))
                found += 1
    c.warnings.append(f"注同: {counted(found, 'place')} in the 注 that follow, up to the next 经 that has it again"
                      if found else "注同: no such place in the 注 that follow (up to the next 经 that has it again)")


def _within(r, decl: dict) -> list[str] | None:
    """The keys of the phrase a note names its lemma by (禮賓之禮: 禮賓), where it does: the words before the
    claim (its ``remark``) are that phrase and 之, and the phrase holds the lemma."""
    head = r.remark
    if not head.endswith("之") or not r.lemma:
        return None
    phrase = head[:-1]
    pk, lk = _lemma_keys(phrase, decl), _lemma_keys(r.lemma, decl)
    if not lk or len(pk) <= len(lk) or not any(pk[i:i + len(lk)] == lk for i in range(len(pk) - len(lk) + 1)):
        return None
    return pk


def _occurrences(s: _Slot, keys: list[str], within: list[str] | None) -> list[tuple[int, int]]:
    """The lemma's occurrences in ``s``, or those inside an occurrence of ``within``."""
    hits = s.k().occurrences(keys)
    if within is None:
        return list(hits)
    spans = s.k().occurrences(within)
    return [(hs, he) for hs, he in hits if any(a <= hs and he <= b for a, b in spans)]


def _sentence_start(piece: Piece, off: int) -> int:
    """Start of the sentence that ends at ``off``: after the last stop or earlier note."""
    start = 0
    for step in walk(piece.content):
        if step.note is not None:
            continue
        pos = step.offset
        if pos >= off:
            break
        if isinstance(step.node, Note):
            start = pos
            continue
        for i, ch in enumerate(step.node.reading):
            if pos + i >= off:
                break
            if ch in SENTENCE_STOPS and pos + i < off - 1:
                start = pos + i + 1
    text = piece.text
    while start < off and is_ignorable(text[start]):
        start += 1
    return start


def _near(slot: _Slot, off: int, reading: str, decl: dict) -> tuple[int, int] | None:
    """The stretch before the note most like ``reading`` (same length, most shared keys, nearest)."""
    want = _lemma_keys(reading, decl)
    if not want:
        return None
    kd = slot.k()
    idx = [i for i, p in enumerate(kd.pos) if p < off]
    n = len(want)
    window = idx[-max(3 * n, 20) :]
    best = None
    for j in range(len(window) - n + 1):
        got = [kd.keys[i] for i in window[j : j + n]]
        pool = list(want)
        shared = 0
        for g in got:
            if g in pool:
                pool.remove(g)
                shared += 1
        in_place = sum(1 for g, w in zip(got, want) if g == w)
        score = (shared, in_place, j)  # ties: shared characters in the same places, then nearest the note
        if best is None or score > best[0]:
            best = (score, window[j], window[j + n - 1])
    if best is None or best[0][0] * 2 < n or best[0][0] == 0:
        return None
    return kd.pos[best[1]], kd.pos[best[2]] + 1

