"""Check the 案 notes' claims about 今注疏本 against the aligned 注疏 witness.

For every claim about the 注疏 (target ``zhushu``; kinds corruption, omission, addition,
variant) the checker reads what the 注疏 witness has at the claim's anchor and gives a
verdict:

``confirmed``
    the 注疏 reads what the note says (北 where this text has 比; no 遂 after 司射 …);
``contradicted``
    it reads something else: either what this text reads (the 四库 注疏 was itself
    corrected by the editors in places, so some of these are genuine) or a third
    reading; ``reading`` shows what it has;
``uncertain``
    the 注疏 reaches the place, but what it reads there does not prove the claim true or
    false (see :func:`_prove_contradiction`: a contradiction is an accusation and needs
    proof; whatever falls short of it is uncertain, with the reason);
``not covered``
    no 注疏 text there: the witness does not reach the passage (an excerpt), lacks the
    layer, or no 注疏 witness was collated at all.

Claims about other witnesses, conjectures, lacunae and comments get ``verdict None``;
where the 注疏 covers their anchor, ``reading`` still says what it reads there.

How the 注疏 position of an anchor is found: the collation of the noted witness with the
注疏 (:func:`jiaokan.collate.engine.collate`) gives, for each passage row and layer, the
character alignment of the two layer texts (:class:`~jiaokan.collate.model.LayerAlignment`).
The anchor ``[s, e)`` is moved into its row's layer text; its nearest characters outside
the anchor that the alignment pairs as *equal* (L before, R after) fix the *window* of the
注疏 between them.  The note's claim predicts what the 注疏 has between L and R (this
text's window with the claimed change made); the prediction and the 注疏 window are
compared on comparison keys (:func:`jiaokan.normalize.key`: script, 异体 and taboo
forms folded, punctuation skipped), so a simplified 集释 checks against a traditional
注疏.  When the window holds a neighbouring difference as well, substitutions are
compared position by position.
"""

from __future__ import annotations

import hashlib
import weakref
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import count
from typing import Sequence

import regex

from ..alive import WhileAlive
from ..errors import EmendationError
from ..collate.align import Op
from ..collate.layertext import LayerText, layer_text
from ..collate.model import Collation, Row
from ..collate.rows import body_units
from ..model import Gaiji, Piece, Witness
from ..normalize import is_ignorable, kept_positions, key, resolve_gaiji, strip_ignorable
from .anchor import Anchor, Claim, piece_context, piece_key
from .folded import keys_joined, one_key_each
from .lexicon import INCLUDES_ZHUSHU
from .notes import NoteRecord
from .verdict import VERDICTS

__all__ = ["CHECKED_KINDS", "Check", "Aligned", "check_claims", "check_claim", "check_at", "is_zhushu_claim",
           "cites_zhushu", "read_at_anchor"]

#: Kinds of claim that say what the 注疏 reads (and so can be checked).
CHECKED_KINDS: frozenset[str] = frozenset({"corruption", "omission", "addition", "variant"})

ZS_NAME = "注疏"


def is_zhushu_claim(claim: Claim) -> bool:
    """A claim that says what the 四库 注疏 reads: about 今注疏本, or about witnesses that include it
    (各本; 原本及今注疏本)."""
    r = claim.record
    named = (r.target, *r.also)
    return any(t in INCLUDES_ZHUSHU for t in named) and r.kind in CHECKED_KINDS


@dataclass
class Check:
    """The verdict on one claim (or one later occurrence of a 下同 claim).

    ``reading`` is what the 注疏 reads at the anchor (its own characters; "" where it has
    nothing, ``None`` when it does not cover the place); ``zs_*`` locate that reading in
    the 注疏 witness (piece offsets in :attr:`Piece.text`; a point when equal) — known
    exactly for confirmed claims, approximately (the window) otherwise.  ``detail`` is a
    stable code: ``agrees`` /
    ``agrees-running`` (found in the running 经+注 text) (confirmed), ``as-this-text`` /
    ``otherwise`` (contradicted), ``nearly`` (uncertain: an added text the note quotes with a slip),
    ``moved-unseen`` (not covered),
    ``no-witness`` / ``no-passage`` / ``no-layer`` / ``edge`` (not covered),
    ``not-anchored`` / ``not-checked`` (no verdict).
    """

    claim_id: str
    note_id: str
    verdict: str | None
    detail: str
    summary: str
    reading: str | None = None
    predicted: str | None = None
    window: str | None = None  # this text's characters between the aligned neighbours
    zs_window: str | None = None  # the 注疏's characters between them
    zs_context: str | None = None
    zs_unit: str | None = None
    zs_piece: str | None = None
    zs_start: int | None = None
    zs_end: int | None = None
    zs_page: str | None = None
    row: str | None = None
    exact: bool = False  # zs_start/zs_end delimit exactly the reading the note speaks of
    role: str = "main"
    below: list["Check"] = field(default_factory=list)

    def to_dict(self) -> dict:
        d: dict[str, object] = {
            "verdict": self.verdict,
            "detail": self.detail,
            "summary": self.summary,
            "reading": self.reading,
            "predicted": self.predicted,
            "window": self.window,
            "zs_window": self.zs_window,
            "zs_context": self.zs_context,
            "zs_unit": self.zs_unit,
            "zs_piece": self.zs_piece,
            "zs_start": self.zs_start,
            "zs_end": self.zs_end,
            "zs_page": self.zs_page,
            "row": self.row,
            "role": self.role,
        }
        if self.below:
            d["below"] = [b.to_dict() for b in self.below]
        return d


#: Characters nobody could read: U+FFFD (a gaiji the reader could not resolve) and □ (a gap in
#: the note or the print).  Each compares equal to nothing, not even to another of its kind.
UNKNOWN_CHARS = frozenset("\ufffd□")
_ENTITY = regex.compile(r"&[A-Za-z][A-Za-z0-9_]*;")
_unknown_serial = count()
#: :data:`UNKNOWN_CHARS` one by one, for :func:`_no_unknown`
_UNKNOWN_EACH = tuple(sorted(UNKNOWN_CHARS))


def _no_unknown(s: str) -> bool:
    """``UNKNOWN_CHARS.isdisjoint(s)``: a search of ``s`` for each of them, in C at memory speed.

    Why: ``isdisjoint`` makes a string of every character of ``s`` to look it up (35 ns a character,
    100 times a search), and the 案 check asks it of every piece of the 篇 it keys, and of whole texts."""
    for u in _UNKNOWN_EACH:
        if u in s:
            return False
    return True
#: Where the stand-ins of unresolved gaiji codes (:func:`_code_char`) and of unknown
#: characters (:func:`_unknown_key`) live: private-use planes no text of the book uses.
_CODE_BASE, _UNKNOWN_BASE, _PLANE = 0x100000, 0xF0000, 0xFFFD
_FIRST_STAND_IN = chr(_UNKNOWN_BASE)
#: a stand-in (every code point from :data:`_FIRST_STAND_IN` on), for :func:`plain`
_STAND_IN = regex.compile(f"[{_FIRST_STAND_IN}-\U0010ffff]")
#: Set between texts keyed together (:meth:`_Keyed.keys_of`): a noncharacter, kept and keyed as itself;
#: a run of texts that holds it is keyed text by text instead.
_SEP = "\uffff"


def _unknown_key() -> str:
    """A key no other character has (a fresh private-use code point each time)."""
    return chr(_UNKNOWN_BASE + next(_unknown_serial) % _PLANE)


@lru_cache(maxsize=4096)
def _code_char(code: str) -> str:
    """The stand-in of an unresolved gaiji code (``KR1470``): equal only to the same code.

    Why the code and not "unknown": two Kanripo transcriptions that write ``&KR1470;`` mean
    the same glyph of the same font, which is evidence; two *different* codes, or a code and
    an ordinary character, are not known to be the same and compare unequal.
    """
    h = int.from_bytes(hashlib.blake2s(code.encode(), digest_size=4).digest(), "big")
    return chr(_CODE_BASE + h % _PLANE)


def _entity_key(m: regex.Match) -> str:
    name = m.group(0)
    return resolve_gaiji(name) or _code_char(name[1:-1])


def _key_of(ch: str) -> str:
    return _unknown_key() if ch in UNKNOWN_CHARS else key(ch)




def _same_key(x: str, y: str) -> bool:
    """``_k(x) == _k(y)`` for two characters that are not ignorable, without keying the same character
    twice: the pairs of an alignment's equal ops are nearly all one character (a Python call fewer per
    character of the book); a character nobody could read equals nothing, not even itself."""
    if x == y:
        return x not in UNKNOWN_CHARS
    return _k(x) == _k(y)


def _same_keys(xs: str, ys: str) -> bool:
    """``_same_key(x, y)`` for every pair of ``zip(xs, ys)`` (two texts of kept characters, of one length),
    decided on the whole strings in C where it can be: True when no character is one nobody could read
    and the texts are the same, or key alike one character each; False only where some pair may not agree."""
    if len(xs) != len(ys) or not _no_unknown(xs) or not _no_unknown(ys):
        return False
    return xs == ys or (one_key_each(xs) and one_key_each(ys) and keys_joined(xs) == keys_joined(ys))


def _k(s: str) -> str:
    """The comparison keys of ``s`` joined (punctuation skipped).

    A character nobody could read (:data:`UNKNOWN_CHARS`) gets a key of its own, so that
    no comparison holds on it: "the same unknown character" is not evidence of anything.
    An unresolved gaiji entity of a note (``&KR1470;``) keys like the same code in a
    witness's text (:func:`coded_text`).
    """
    if "&" in s:
        s = _ENTITY.sub(_entity_key, s)
    s = strip_ignorable(s)
    if not _no_unknown(s):  # each gets a key of its own, in order
        return "".join(_key_of(ch) for ch in s)
    return keys_joined(s)  # the usual case: one str.translate, not a Python call per character


def coded_text(p: Piece) -> str:
    """``p.text`` with each unresolved gaiji as the stand-in of its code (:func:`_code_char`), same length."""
    text = p.text  # (made from the piece's nodes at each asking)
    if "\ufffd" not in text:
        return text
    out = "".join(_code_char(n.code) if isinstance(n, Gaiji) and n.char is None and len(n.reading) == 1
                  else n.reading for n in p.content)
    return out if len(out) == len(text) else text


def _coded_layer(lt: LayerText) -> LayerText:
    """A layer text whose unresolved gaiji are the stand-ins of their codes (offsets unchanged)."""
    if "\ufffd" not in lt.text:
        return lt
    chars = list(lt.text)
    for off, _u, p in lt.pieces:
        t = p.text
        if "\ufffd" in t and lt.text[off : off + len(t)] == t:
            chars[off : off + len(t)] = coded_text(p)
    return replace(lt, text="".join(chars))


def has_unknown(s: str | None) -> bool:
    """Does ``s`` hold a character nobody could read (:data:`UNKNOWN_CHARS` or an unresolved gaiji entity)?"""
    if not s:
        return False
    return not _no_unknown(s) or any(resolve_gaiji(m.group(0)) is None for m in _ENTITY.finditer(s))


def _trim(s: str) -> str:
    i, j = 0, len(s)
    while i < j and is_ignorable(s[i]):
        i += 1
    while j > i and is_ignorable(s[j - 1]):
        j -= 1
    return s[i:j]


# ---------------------------------------------------------------------------
# The aligned pair
# ---------------------------------------------------------------------------


def _offset_of(side: LayerText, pkey: str) -> int | None:
    """Where the piece with anchor id ``pkey`` starts in the layer text."""
    for off, u, p in side.pieces:
        if piece_key(u, p) == pkey:
            return off
    return None


@dataclass
class _Pairing:
    a: LayerText
    b: LayerText
    ops: list[Op]
    aligned: list[int]  # a positions paired by equal ops, sorted
    amap: dict[int, int]


class _Keyed:
    """What every :class:`Aligned` on one collation makes alike, made once: the witnesses' units, the
    order of the rows, the running keys of a witness, the 注疏's keys, the pairs of a row's layer.

    Why: the 案 check of one witness aligns it with the 注疏 for the verdicts, the checks of its
    claims about a 宋本 and the 释文 align it again (:mod:`.witnesses`), and the evidence once more
    for every other witness (:mod:`.evidence`); each made the same keys of the whole 篇 again.
    Only the last collation's are kept (:func:`_keyed`): the emend stage checks one witness at a time.
    """

    def __init__(self, col: Collation) -> None:
        self.units = {s: {u.id: u for u in body_units(w)} for s, w in col.witnesses.items()}
        self.row_index = {r.id: i for i, r in enumerate(col.rows)}
        self.row_of: dict[str, dict[str, Row]] = {}
        self.ops: dict[tuple[str, str], dict[tuple[str, str], list[Op]]] = {}
        self.pairings: dict[tuple[str, str, str, str], _Pairing | None] = {}
        self.texts: dict[tuple[str, frozenset[str]], tuple[str, Sequence[str]]] = {}
        self.main_keys: dict[tuple[str, str], str] = {}
        self.running: dict[str, tuple[str, dict[str, int]]] = {}
        self._coded: dict[int, str] = {}
        self._keys: dict[int, str] = {}

    def coded(self, p: Piece) -> str:
        """:func:`coded_text` of ``p``, made once (the running texts, the 注疏's keys and the place
        claims' texts each read every piece of the 篇)."""
        t = self._coded.get(id(p))
        if t is None:
            t = self._coded[id(p)] = coded_text(p)
        return t

    def keys(self, p: Piece) -> str:
        """``_k(coded_text(p))``, made once; made anew each time where the piece holds a character
        nobody could read (its keys are fresh at every making: :func:`_k`)."""
        k = self._keys.get(id(p))
        if k is None:
            t = self.coded(p)
            k = _k(t)
            if _no_unknown(t):
                self._keys[id(p)] = k
        return k

    def keys_of(self, pieces: list[Piece]) -> list[str]:
        """:meth:`keys` of each of ``pieces``; those not yet made are keyed together, one :func:`_k` of their
        texts joined by :data:`_SEP` then cut at it; a piece that holds a character nobody could read or
        an entity is keyed alone, as :meth:`keys` does (its keys are fresh at every making).

        Why: the running texts and the 注疏's keys ask for every piece of the 篇, a few thousand short
        texts; keying them one call each was half the making of the running texts.  ``_k`` works
        character by character (dropping, then keying each), so the keys of the joined texts are the
        pieces' keys joined."""
        made = self._keys
        todo = [(p, self.coded(p)) for p in pieces if id(p) not in made]
        joined = _SEP.join([t for _p, t in todo])
        if "&" in joined or not _no_unknown(joined):  # (rare) those pieces are keyed alone, below
            todo = [(p, t) for p, t in todo if "&" not in t and _no_unknown(t)]
            joined = _SEP.join([t for _p, t in todo])
        if len(todo) > 1 and joined.count(_SEP) == len(todo) - 1 and _k(_SEP) == _SEP:
            parts = _k(joined).split(_SEP)
            if len(parts) == len(todo):
                made.update(zip([id(p) for p, _t in todo], parts))
        return [made[id(p)] if id(p) in made else self.keys(p) for p in pieces]


#: (the collation, what its keys were made from, its :class:`_Keyed`): the last collation checked
_LAST: tuple[weakref.ref[Collation], tuple, _Keyed] | None = None


def _keyed(col: Collation) -> _Keyed:
    """The :class:`_Keyed` of ``col``, made anew when another collation (or another state of it) is asked for."""
    global _LAST
    stamp = (tuple((s, id(w)) for s, w in col.witnesses.items()), col.base, id(col.rows), len(col.rows),
             id(col.alignments), len(col.alignments))
    if _LAST is not None and _LAST[0]() is col and _LAST[1] == stamp:
        return _LAST[2]
    made = _Keyed(col)
    _LAST = (weakref.ref(col), stamp, made)
    return made


#: (the front matter, its keys): the 注疏's front matter is the same for the 案 notes of every 篇
#: each front matter witness's keys, while it lives (every 篇's 案 check asks; a book may have several 注疏)
_FRONT: WhileAlive[Witness, str] = WhileAlive()


def _front_keys(front: Witness) -> str:
    """The keys of a front matter witness, all layers in order (made once per witness; made anew each time
    where it holds a character nobody could read: its keys are fresh at every making)."""
    made = _FRONT.get(front)
    if made is not None:
        return made
    texts = [coded_text(p) for u in front.units() for p in u.pieces]
    made = "".join(_k(t) for t in texts)
    if all(_no_unknown(t) for t in texts):
        _FRONT.put(front, made)
    return made


class Aligned:
    """The alignment of the noted witness (``siglum``) with the 注疏 (``against``) in a collation.

    Works whichever of the two is the collation's base (the ops are mirrored as needed).
    ``front`` is the 注疏's front matter, if at hand (see :func:`_in_front_matter`).
    """

    def __init__(self, col: Collation, siglum: str, against: str, front: Witness | None = None) -> None:
        if siglum not in col.witnesses or against not in col.witnesses:
            raise EmendationError(f"the collation has no witness {siglum if siglum not in col.witnesses else against}")
        if col.base not in (siglum, against):
            raise EmendationError(f"the collation's base {col.base} is neither {siglum} nor {against}")
        if not col.aligned:
            raise EmendationError("the collation has given up its alignments (a build drops them once the 篇's "
                                  "apparatus and 案 notes are made): collate the witnesses again to check notes on it")
        self.col = col
        self.siglum = siglum
        self.against = against
        self._keyed = kd = _keyed(col)
        row_of = kd.row_of.get(siglum)
        if row_of is None:
            row_of = kd.row_of[siglum] = {}
            for row in col.rows:
                for uid in row.units.get(siglum, []):
                    row_of[uid] = row
        self.row_of: dict[str, Row] = row_of
        ops_of = kd.ops.get((siglum, against))
        if ops_of is None:
            other = against if col.base == siglum else siglum
            ops_of = kd.ops[(siglum, against)] = {}
            for al in col.alignments:
                if al.siglum == other:
                    ops_of[(al.row, al.layer)] = al.ops if col.base == siglum else [op.mirrored() for op in al.ops]
        self.ops: dict[tuple[str, str], list[Op]] = ops_of
        self.units = kd.units
        zrows = [r.id for r in col.rows if r.units.get(against)]
        self.first_row = zrows[0] if zrows else None
        self.last_row = zrows[-1] if zrows else None
        self.row_index = kd.row_index
        #: :func:`_chars_and_keys` of a witness's layers, made once for all the place claims
        self._texts = kd.texts
        #: the keys of the 注疏's front matter (a witness of its 卷首, all layers in order), where
        #: it gives the 目録 of every 篇; "" when none was given
        self.front_keys = _front_keys(front) if front is not None else ""

    def inside(self, row: Row) -> bool:
        """True when ``row`` lies between the first and the last row the 注疏 covers."""
        if self.first_row is None or self.last_row is None:
            return False
        i = self.row_index[row.id]
        return self.row_index[self.first_row] < i < self.row_index[self.last_row]

    def running(self, siglum: str) -> tuple[str, dict[str, int]]:
        """The keys of a witness's 经 and 注 in reading order, and where each piece starts in them."""
        done = self._keyed.running.get(siglum)
        if done is None:
            held = [(u, p) for u in self.units[siglum].values() for p in u.pieces if p.layer in ("jing", "zhu")]
            out = self._keyed.keys_of([p for _u, p in held])
            starts: dict[str, int] = {}
            n = 0
            for (u, p), ks in zip(held, out):
                starts[piece_key(u, p)] = n
                n += len(ks)
            done = self._keyed.running[siglum] = ("".join(out), starts)
        return done

    def main_keys(self, layer: str) -> str:
        """The comparison keys of the 注疏's 经 and 注 (and ``layer``) in reading order.

        Why not one layer: a note that says its text stands "after X" in the 注疏 may name an X
        of the 经 for a 注 (此七字今注疏本在下受福無疆之下: the 注 now follows that 经).
        """
        done = self._keyed.main_keys.get((self.against, layer))
        if done is None:
            keep = {"jing", "zhu", layer}
            done = self._keyed.main_keys[(self.against, layer)] = "".join(self._keyed.keys_of(
                [p for u in self.units[self.against].values() for p in u.pieces if p.layer in keep]))
        return done

    def layer_of_unit(self, unit: str, layer: str) -> str:
        """The keys of the noted witness's ``layer`` in passage ``unit``."""
        u = self.units[self.siglum].get(unit)
        return _k(_coded_layer(layer_text([u], layer)).text) if u is not None else ""

    def _row_text(self, row: Row, siglum: str, layer: str) -> LayerText:
        """Witness ``siglum``'s text of ``layer`` in ``row``: the collation's, where it holds it still (the
        texts its alignment was made on: made again here, they were a second walk of every row checked)."""
        made = self.col.made_row_text(row, siglum, layer)
        if made is not None:
            return made
        return layer_text([self.units[siglum][u] for u in row.units.get(siglum, [])], layer)

    def pairing(self, row: Row, layer: str) -> _Pairing | None:
        pairings = self._keyed.pairings
        k = (self.siglum, self.against, row.id, layer)
        if k not in pairings:
            ops = self.ops.get((row.id, layer))
            if ops is None:
                pairings[k] = None
            else:
                a = _coded_layer(self._row_text(row, self.siglum, layer))
                b = _coded_layer(self._row_text(row, self.against, layer))
                amap: dict[int, int] = {}
                at, bt = a.text, b.text
                for op in ops:
                    if op.kind != "equal":
                        continue
                    # the collation may pair characters its own keys cannot tell apart (two
                    # unresolved gaiji); a pair counts only where the comparison keys agree
                    pa, pb = kept_positions(at, op.a0, op.a1), kept_positions(bt, op.b0, op.b1)
                    xs, ys = at[op.a0 : op.a1], bt[op.b0 : op.b1]
                    if _same_keys(xs if len(pa) == len(xs) else strip_ignorable(xs),
                                  ys if len(pb) == len(ys) else strip_ignorable(ys)):
                        amap.update(zip(pa, pb))  # every pair agrees (the usual case): no call per pair
                    else:
                        amap.update((i, j) for i, j in zip(pa, pb) if _same_key(at[i], bt[j]))
                pairings[k] = _Pairing(a, b, ops, sorted(amap), amap)
        return pairings[k]


# ---------------------------------------------------------------------------
# Checking
# ---------------------------------------------------------------------------


def check_claims(claims: list[Claim], aligned: Aligned | None) -> dict[str, Check]:
    """A :class:`Check` for every claim, by claim id (``aligned`` None: no 注疏 collated).

    Claims are checked one by one, but where two notes bear on neighbouring characters
    (脱此十四字 … 脱者字) the 注疏 lacks both, so a claim that fails alone is tried once
    more with the changes of the other claims in its window made as well.
    """
    edits = _all_edits(claims, aligned) if aligned is not None else {}
    out = {c.id: check_claim(c, aligned, edits) for c in claims}
    if aligned is not None:
        _joint_running(claims, out, aligned)
    for ch in out.values():
        _plain_check(ch)
    return out


def plain(s: str | None) -> str | None:
    """``s`` as a reader sees it: the stand-ins of unresolved gaiji codes back to U+FFFD."""
    if not s or max(s) < _FIRST_STAND_IN:  # (max in C: most texts hold no stand-in)
        return s
    return _STAND_IN.sub("\ufffd", s)  # (a whole 篇's text may hold one: not a Python call per character)


def _plain_check(ch: Check) -> Check:
    """Every text of a check as a reader sees it (:func:`plain`), its 下同 checks too."""
    for name in ("summary", "reading", "predicted", "window", "zs_window", "zs_context"):
        setattr(ch, name, plain(getattr(ch, name)))
    ch.summary = ch.summary or ""
    for b in ch.below:
        _plain_check(b)
    return ch


#: The "not covered" reasons a joint reading of a note's claims in the running text may overturn.
UNALIGNED = frozenset({"no-layer", "no-passage"})


def _joint_running(claims: list[Claim], checks: dict[str, Check], al: Aligned) -> None:
    """Claims of one note the row alignment could not place, checked together in the running text.

    Why: 脫自拜聘享至五字及亦非其次四字 makes two claims a few characters apart; where the 注疏
    sets the passage elsewhere (no 注 in this row), each claim alone cannot be found in its
    running text, because the other's change stands in its context.  All the note's changes
    are made at once; when the changed context occurs in the 注疏's running 经+注 and the
    unchanged one does not, each claim is confirmed.
    """
    by_note: dict[str, list[Claim]] = {}
    for c in claims:
        if is_zhushu_claim(c) and c.anchor is not None and c.status == "ok":
            by_note.setdefault(c.note_id, []).append(c)
    mine, starts = al.running(al.siglum)
    theirs, _ = al.running(al.against)
    for group in by_note.values():
        if len(group) < 2 or not any(checks[c.id].detail in UNALIGNED for c in group):
            continue
        spans = []
        for c in group:
            a, new = c.anchor, _claimed_new(c)
            if a is None or new is None:
                break
            base = starts.get(a.piece)
            unit = al.units[al.siglum].get(a.unit)
            piece = next((p for p in unit.pieces if piece_key(unit, p) == a.piece), None) if unit else None
            if base is None or piece is None:
                break
            spans.append((base + len(_k(piece.text[: a.start])), base + len(_k(piece.text[: a.end])), _k(new)))
        else:
            spans.sort()
            if any(x[1] > y[0] for x, y in zip(spans, spans[1:])):
                continue
            lo, hi = spans[0][0] - CONTEXT_BEFORE, spans[-1][1] + CONTEXT_AFTER
            if lo < 0:
                continue
            want, pos = [], lo
            for s0, s1, new in spans:
                want.append(mine[pos:s0] + new)
                pos = s1
            want.append(mine[pos:hi])
            changed, have = "".join(want), mine[lo:hi]
            if changed != have and changed in theirs and have not in theirs:
                for c in group:
                    ch = checks[c.id]
                    if ch.verdict != "confirmed":
                        ch.verdict, ch.detail = "confirmed", "agrees-running"
                        ch.reading = _claimed_new(c)  # what the running text has for the lemma
                        ch.summary = (f"confirmed: the {ZS_NAME}'s running 经 and 注 read as the note's claims"
                                      f" together say (it sets this passage elsewhere)")


def check_claim(c: Claim, aligned: Aligned | None, edits: dict | None = None) -> Check:
    zs = is_zhushu_claim(c)
    if c.status != "ok" or c.anchor is None:
        why = c.error or "nothing to anchor"
        if zs:
            return Check(c.id, c.note_id, "uncertain", "not-anchored",
                         f"uncertain: the place the note speaks of was not found in this text ({why})")
        return Check(c.id, c.note_id, None, "not-anchored", f"no 注疏 claim; {why}")
    if aligned is None:
        if zs:
            return Check(c.id, c.note_id, "not covered", "no-witness", "not covered: no 注疏 witness collated")
        return Check(c.id, c.note_id, None, "not-checked", _no_claim_text(c))
    edits = edits or {}

    def others(a: Anchor) -> list[_Edit]:
        row = aligned.row_of.get(a.unit)
        return [x for x in edits.get((row.id, a.layer), []) if x.owner != (c.id, a.start, a.end)] if row else []

    if not zs and cites_zhushu(c):
        return _check_evidence(c, aligned, edits)
    main = _check_anchor(c, c.anchor, aligned, zs, others(c.anchor))
    if zs and main.verdict == "contradicted" and c.anchor.method == "near-1":
        # the anchor was a guess (the character before the note): never a contradiction on a guess
        main.verdict, main.detail = "uncertain", "unsure-anchor"
        main.summary = f"uncertain: the note quotes only {c.record.reading}, and {main.reading or '∅'} here is not it"
    if zs and c.anchor.method == "near" and main.verdict != "confirmed":
        # the note quotes the 注疏, not this text: the stretch it replaces may be shorter or longer
        # than the quotation (乃升 for 升: the 注疏 inserts 乃; 不以酒惡謝賓 for 不以酒惡充滿謝賓者),
        # so the stretches the quotation lines up with are tried; the anchor becomes the one the
        # 注疏 bears out
        for alt in _near_candidates(c.anchor, c.note_offset, c.record.reading, aligned):
            got = _check_anchor(c, alt, aligned, zs, others(alt))
            if got.verdict == "confirmed":
                main = got
                c.anchors[0] = alt
                c.warnings.append(f"the note quotes the {ZS_NAME} with its context: anchored on {alt.text}")
                break
    if zs and bool(c.record.moved_to):
        _moved(c, main, aligned)
    if zs:
        _prove_contradiction(c, main, c.anchor, aligned)
    if zs and c.record.between:
        _between(c, main, aligned)
    for a in c.below:
        b = _check_anchor(c, a, aligned, zs, others(a))
        b.role = "below"
        if zs:
            _prove_contradiction(c, b, a, aligned)
        main.below.append(b)
    if main.below and zs:
        n = {v: sum(1 for b in main.below if b.verdict == v) for v in VERDICTS}
        word = "注同" if c.record.scope == "zhu" else "下同"
        main.summary += f"; {word}: " + ", ".join(f"{k} {v}" for k, v in n.items() if v)
    return main


def _neighbours(text: str, s: int, e: int) -> tuple[int | None, int | None]:
    """The nearest characters of ``text`` before ``s`` and from ``e`` on that are not punctuation."""
    i = s - 1
    while i >= 0 and is_ignorable(text[i]):
        i -= 1
    j = e
    while j < len(text) and is_ignorable(text[j]):
        j += 1
    return (i if i >= 0 else None), (j if j < len(text) else None)


#: How many characters of the 注疏 beyond the aligned neighbours are searched for the note's
#: reading before a contradiction is accepted (the alignment may pair a repeated character
#: one place off).
NOWHERE_MARGIN = 2


def _prove_contradiction(c: Claim, ch: Check, anchor: Anchor, al: Aligned) -> None:
    """Keep a "contradicted" verdict only where the evidence proves it; otherwise "uncertain", with the reason.

    Why: "contradicted" says the 四库 editors were wrong; it is shown beside the evidence and
    must not rest on an alignment that went astray.  It stands only when

    * the alignment is sure of the place: the characters right before and right after the
      anchor (punctuation aside) are both paired as equal with the 注疏 (context on both sides
      agrees, so the window is the anchor's and nothing else);
    * no character in question is unknown (an unresolved gaiji, a □ in the note or the print);
    * the note's reading is nowhere in the 注疏 window (nor a couple of characters beyond it),
      and the 注疏's reading is not the start of the note's (a reading that runs on into the
      editors' argument is not evidence against them);
    * for an omission, the 注疏 has the lemma there (it does not lack it).

    An omission whose lemma the 注疏 window does not hold at all, with little else in its
    place, is confirmed instead: the 注疏 lacks the text, as the note says (the rest is a
    neighbouring difference).
    """
    if ch.verdict != "contradicted" or ch.detail in ("as-source",):
        return
    r = c.record
    row = al.row_of.get(anchor.unit)
    pr = al.pairing(row, anchor.layer) if row is not None else None
    off = _offset_of(pr.a, anchor.piece) if pr is not None else None
    if pr is None or off is None:
        _unsure(ch, "unaligned", "the place could not be aligned with the 注疏 with confidence")
        return
    a, b = pr.a.text, pr.b.text
    s, e = off + anchor.start, off + anchor.end
    left, right = _neighbours(a, s, e)
    bL = pr.amap[left] + 1 if left is not None and left in pr.amap else 0
    bR = pr.amap[right] if right is not None and right in pr.amap else len(b)
    if bR < bL:
        bL, bR = bR, bL
    zwin = b[bL:bR]
    kr = _k(r.reading)
    # a side agrees when its neighbour is paired as equal, or the layer text ends there and
    # the 注疏's does too (its window is then no longer than this text's and the reading); never
    # for a point at the edge (an addition before a passage: the 注疏 may have it in the piece
    # before, which this row does not show)
    edge_ok = len(_k(zwin)) <= len(_k(a[s:e])) + len(kr) + 2 and e > s
    sides = [(n is None and edge_ok) or (n is not None and n in pr.amap) for n in (left, right)]
    if not r.moved_to and not all(sides) and not _lined_up(ch, c, anchor, al):
        _unsure(ch, "context", "the text on both sides of the place is not aligned with the 注疏 with confidence"
                " (the window may hold another difference or another occurrence)")
        return
    if any(has_unknown(x) for x in (a[s:e], zwin, r.reading, r.lemma)):
        _unsure(ch, "unknown-char", "a character in question is unknown (an unresolved gaiji or a gap □),"
                " and an unknown character proves nothing")
        return
    near = _k(b[max(0, bL - NOWHERE_MARGIN) : bR + NOWHERE_MARGIN])
    kz = _k(zwin)
    if r.kind == "omission":
        kl = _k(r.lemma or a[s:e])
        if kl and kl not in near:
            if len(kz) * 2 <= len(kl):
                # the reading of the lemma is nothing; what stands beside it (zs_window) is
                # another difference, which the sentence names
                ch.verdict, ch.detail, ch.reading, ch.zs_window = "confirmed", "agrees-lacks", "", zwin
                ch.summary = (f"confirmed: the {ZS_NAME} lacks {r.lemma or a[s:e]} here, as the note says"
                              f" (it has {zwin or '∅'} in its place: another difference)")
            else:
                _unsure(ch, "not-lemma", f"the {ZS_NAME} has {zwin} here: neither the text the note says it lacks"
                        " nor nothing")
        return
    if not r.moved_to and kr and kr in near:
        _unsure(ch, "reading-near", f"the note's reading {r.reading} stands in the {ZS_NAME} at this place"
                f" ({zwin}), beside another difference")
        return
    if kr and kz and kr != kz and kr.startswith(kz):
        _unsure(ch, "reading-runs-on", f"the {ZS_NAME} reads {zwin}, the start of the note's {r.reading}:"
                " the note's reading may run on into its argument")
        return


#: How many characters of context a window may hold beside the lemma for :func:`_lined_up`.
LINED_UP_SLACK = 4


def _lined_up(ch: Check, c: Claim, anchor: Anchor, al: Aligned) -> bool:
    """A short window of the same length in both witnesses whose 注疏 side has this text's lemma at the
    lemma's own position (少退小辟 / 少退少辟: a neighbouring difference, the lemma itself as here)."""
    if ch.window is None or ch.zs_window is None:
        return False
    kw, kz, kl = _k(ch.window), _k(ch.zs_window), _k(anchor.text)
    if not kl or len(kw) != len(kz) or len(kw) > len(kl) + LINED_UP_SLACK:
        return False
    at = [i for i in range(len(kw) - len(kl) + 1) if kw[i : i + len(kl)] == kl]
    return any(kz[i : i + len(kl)] == kl for i in at)


def _unsure(ch: Check, detail: str, why: str) -> None:
    ch.verdict, ch.detail = "uncertain", detail
    ch.summary = f"uncertain: {why} ({ch.summary.split(': ', 1)[-1]})" if ch.summary else f"uncertain: {why}"


#: How many stretches :func:`_near_candidates` offers (the closest first).
NEAR_CANDIDATES = 6


def _near_candidates(a: Anchor, note_offset: int, reading: str, al: Aligned) -> list[Anchor]:
    """Stretches of this text a quotation of the 注疏 (``今注疏本作XYZ``) may stand for.

    The near anchor ``a`` is as long as the quotation; the stretch the quotation replaces may
    be shorter (乃升 for 升: the 注疏 inserts 乃; 别于其處臣也 for 别處臣也) or longer
    (不以酒惡謝賓 for 不以酒惡充滿謝賓者).  Every stretch from ``len(reading)`` characters
    before ``a`` up to the note is scored by its edit distance to the quotation (comparison
    keys); the :data:`NEAR_CANDIDATES` closest are offered, nearest the note first among equals.
    Which of them the note means is decided by the caller: only one the 注疏 bears out is taken.
    """
    u = al.units[al.siglum].get(a.unit)
    piece = next((p for p in u.pieces if piece_key(u, p) == a.piece), None) if u is not None else None
    want = [key(ch) for ch in reading if not is_ignorable(ch)]
    if piece is None or not want:
        return []
    text = piece.text
    end = min(max(a.end, note_offset), len(text))
    pos = [i for i in range(0, end) if not is_ignorable(text[i])]
    lo = max(0, bisect_left(pos, a.start) - len(want))
    region = pos[lo:]
    keys = [key(text[i]) for i in region]
    n = len(region)
    scored = []
    for si in range(n):
        last = min(n, si + 2 * len(want))
        for ei, d in zip(range(si + 1, last + 1), _edits_each(keys[si:last], want)):
            scored.append((d, n - ei, abs(ei - si - len(want)), si, ei))
    scored.sort()
    out: list[Anchor] = []
    for _d, _far, _len, si, ei in scored:
        st, en = region[si], region[ei - 1] + 1
        if (st, en) == (a.start, a.end) or any((x.start, x.end) == (st, en) for x in out):
            continue
        out.append(replace(a, start=st, end=en, text=text[st:en], context=piece_context(text, st, en)))
        if len(out) == NEAR_CANDIDATES:
            break
    return out


def _edits_each(x: list[str], y: list[str]) -> list[int]:
    """The Levenshtein distance to ``y`` of every prefix of ``x``: ``x[:1]``, ``x[:2]`` … ``x``.

    One table: the row of ``x[:k]`` is the distance of that prefix (each span from one start was
    given a table of its own, which made the rows of the shorter spans again)."""
    prev = list(range(len(y) + 1))
    out: list[int] = []
    for i, cx in enumerate(x, 1):
        cur = [i]
        for j, cy in enumerate(y, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (cx != cy)))
        prev = cur
        out.append(cur[-1])
    return out


def cites_zhushu(claim: Claim) -> bool:
    """A claim about 原本 that the editors corrected from our 注疏 (原本訛作者今從注疏本改正):
    the 注疏 is its evidence, so what the 注疏 reads there can be checked."""
    r = claim.record
    return r.target == "yuanben" and r.kind in CHECKED_KINDS and any(s.id == "zhushu" for s in r.evidence)


def read_at_anchor(c: Claim) -> bool:
    """Is the :class:`Check` :func:`check_claims` gives ``c`` what :func:`check_at` makes of it at its anchor,
    on the same pair of witnesses (its ``reading``: what the other witness reads there)?

    So for an anchored claim that says nothing of the 注疏, neither about it nor citing it as evidence: it is
    checked as ``check_at`` checks it (its 下同 places besides), the edits of the other claims and the
    注疏's front matter unasked.  Why: the evidence asks every witness what it reads at each claim, the
    注疏 too, and aligned these claims with it a second time (a tenth of the 案 check's alignings)."""
    return c.status == "ok" and c.anchor is not None and not is_zhushu_claim(c) and not cites_zhushu(c)


def _check_evidence(c: Claim, al: Aligned, edits: dict) -> Check:
    """The check of a 原本 claim whose evidence is our 注疏: does the 注疏 read as the corrected text?

    The claim is checked as if it were about the 注疏 (原本訛作者 → "the 注疏 reads 者"): where
    the 注疏 reads as this text (that check "contradicted, as this text") the editors' evidence is
    confirmed; where it reads as 原本 did, it is contradicted; anything else is not covered.
    """
    r = c.record
    shadow = replace(c, record=replace(r, target="zhushu", also=()), anchors=list(c.anchors[:1]))
    got = check_claim(shadow, al, edits)
    lem = c.anchor.text if c.anchor is not None else r.lemma
    said = {"corruption": f"{r.reading}", "variant": f"{r.reading}", "omission": f"no {r.lemma or lem}",
            "addition": f"an extra {r.reading}"}[r.kind]
    same = got.window is not None and got.zs_window is not None and bool(_k(got.window)) \
        and _k(got.window) == _k(got.zs_window)
    if (got.verdict == "contradicted" and got.detail == "as-this-text") or same:
        # the 注疏 reads this text's window as it stands (whatever a shadow prediction made of it)
        got.verdict, got.detail = "confirmed", "agrees"
        got.summary = (f"confirmed: the {ZS_NAME} reads {got.reading or lem or '∅'} here, as the editors took"
                       f" from it (原本 {said})")
    elif got.verdict == "confirmed" and got.detail == "agrees" and got.exact:
        got.verdict, got.detail = "contradicted", "as-source"
        got.summary = (f"contradicted: the {ZS_NAME} reads as 原本 did ({said}), not as the editors say they"
                       f" took from it")
    else:
        got.verdict, got.detail = "uncertain", got.detail or "unclear"
        why = got.summary.split(": ", 1)[-1] if got.summary else "no reading found"
        got.summary = f"uncertain: the {ZS_NAME}, cited as evidence, does not clearly read either way ({why})"
    got.below = []
    return got


#: How many characters of a moved text must stand next to the place the note names.
MOVED_KEYS = 8
#: …and at least this many, where the moved text next to X differs further in.
MIN_MOVED_KEYS = 5


def _moved(c: Claim, ch: Check, al: Aligned) -> None:
    """此七字今注疏本在下X之下: the 注疏 lacks the text here; it must stand after (before) X there."""
    r = c.record
    side, x = r.moved_to.split(":", 1) if ":" in r.moved_to else ("after", r.moved_to)
    assert c.anchor is not None
    moved, kx = _k(c.anchor.text), _k(x)
    passage = c.anchor.method == "passage"
    if passage:  # 此經文及注: the passage's 经 and 注 moved together, in that order
        moved = al.layer_of_unit(c.anchor.unit, "jing") + al.layer_of_unit(c.anchor.unit, "zhu")
    # a long moved 注 may differ in a character or two (other notes): its first (last)
    # MOVED_KEYS characters next to X decide
    want = kx + moved[:MOVED_KEYS] if side == "after" else moved[-MOVED_KEYS:] + kx
    where = "after" if side == "after" else "before"
    mine, _ = al.running(al.siglum)
    if moved and kx and _found_beside(al.main_keys(c.anchor.layer), moved, kx, side) and want not in mine:
        # the alignment may pair the moved text with its new place, so the text found there decides
        ch.verdict, ch.detail = "confirmed", "agrees"
        ch.summary = f"confirmed: the {ZS_NAME} has {c.anchor.text} {where} {x}, as the note says"
    elif moved and kx and want in mine:  # this text has that order too: the place proves nothing
        ch.verdict, ch.detail = "uncertain", "moved-unseen"
        ch.summary = f"uncertain: this text too has {c.anchor.text} {where} {x}; the move cannot be checked"
    elif ch.verdict == "confirmed" or passage:  # (the 经 alone here proves nothing of a passage)
        ch.verdict, ch.detail = "uncertain", "moved-unseen"
        ch.summary = (f"uncertain: the {ZS_NAME} lacks {c.anchor.text} here, but it was not found {where} {x}"
                      f" in its {c.anchor.layer}")


#: The layers a place claim counts as parts of a passage (the 疏 and the 集释's own 釋 are
#: commentary on all of them, set apart in each witness's own way).
PASSAGE_PARTS = frozenset({"jing", "zhu", "zhuan"})


def _parts_around(al: Aligned, siglum: str, moved: str) -> tuple[str | None, str | None] | None:
    """The parts (layers) right before and right after the one piece of ``siglum`` that holds the
    keys ``moved`` (its first :data:`MOVED_KEYS`); None when no piece or more than one holds them."""
    part = moved[:MOVED_KEYS]
    seq = [p for u in al.units[siglum].values() for p in u.pieces if p.layer in PASSAGE_PARTS]
    hits = [i for i, p in enumerate(seq) if part and part in al._keyed.keys(p)]
    if len(hits) != 1:
        return None
    i = hits[0]
    return (seq[i - 1].layer if i > 0 else None), (seq[i + 1].layer if i + 1 < len(seq) else None)


#: How a reader is told the parts of a passage a place claim names.
PART_NAMES: dict[str, str] = {"jing": "經", "zhu": "注", "zhuan": "傳"}


def _between(c: Claim, ch: Check, al: Aligned) -> None:
    """A place claim (此注今注疏本在經文下傳曰上): checked by where the 注疏 sets the text, not by its characters.

    The text is looked up in the 注疏 (its first :data:`MOVED_KEYS` keys, in exactly one piece
    of 经, 注 or 传); the parts right before and after it there are compared with the claim's
    ``between``.  Confirmed when they are those; contradicted only when the 注疏 sets the text
    as this text does (the same parts around it), which the note says it does not; uncertain
    otherwise (not found, found twice, or this text too sets it so).
    """
    r = c.record
    assert c.anchor is not None
    first, second = r.between[0], r.between[1]
    where = f"after the {PART_NAMES.get(first, first)} and before the {PART_NAMES.get(second, second)}"
    moved = _k(c.anchor.text)
    theirs = _parts_around(al, al.against, moved)
    mine = _parts_around(al, al.siglum, moved)
    ch.reading = None
    if theirs is None:
        ch.verdict, ch.detail = "uncertain", "place-unseen"
        ch.summary = f"uncertain: the {ZS_NAME} does not hold {c.anchor.text[:12]}… in one place, so where it sets it is unknown"
    elif mine == (first, second):
        ch.verdict, ch.detail = "uncertain", "moved-unseen"
        ch.summary = f"uncertain: this text too sets it {where}; the place proves nothing"
    elif theirs == (first, second):
        ch.verdict, ch.detail = "confirmed", "agrees-place"
        ch.summary = f"confirmed: the {ZS_NAME} sets this text {where}, as the note says"
    elif mine is not None and theirs == mine:
        ch.verdict, ch.detail = "contradicted", "as-this-text"
        ch.summary = f"contradicted: the {ZS_NAME} sets this text where this text does, not {where}"
    else:
        ch.verdict, ch.detail = "uncertain", "place-otherwise"
        ch.summary = f"uncertain: the {ZS_NAME} sets this text neither {where} nor where this text does"


def _found_beside(text: str, moved: str, kx: str, side: str) -> bool:
    """Does ``text`` have (the first/last :data:`MOVED_KEYS` keys of) ``moved`` right after
    (before) ``kx``?  The place the note names may differ from ``text`` in one character per
    :data:`NEARLY` (古文茅作苗 for the 注疏's 古文茅作苖: a form the folding does not know)."""
    allowed = len(kx) // NEARLY
    # the moved text next to X may itself differ further in (此宜承… for …其次宜承…: another
    # note's omission): its MOVED_KEYS keys next to X, or as few as MIN_MOVED_KEYS
    for n in range(min(MOVED_KEYS, len(moved)), min(MIN_MOVED_KEYS, len(moved)) - 1, -1):
        part = moved[:n] if side == "after" else moved[-n:]
        start = text.find(part)
        while start >= 0:
            there = (text[start - len(kx) : start] if side == "after"
                     else text[start + len(part) : start + len(part) + len(kx)])
            if len(there) == len(kx) and sum(1 for x, y in zip(there, kx) if x != y) <= allowed:
                return True
            start = text.find(part, start + 1)
    return False


def _claimed_new(c: Claim) -> str | None:
    r = c.record
    if r.between:  # a place claim: the characters are not in question
        return None
    if bool(r.moved_to):
        return ""
    if r.kind in ("corruption", "variant"):
        return r.reading or None
    if r.kind == "omission":
        return ""
    if r.kind == "addition":
        return r.reading
    return None


def _all_edits(claims: list[Claim], al: Aligned) -> dict[tuple[str, str], list["_Edit"]]:
    """Every change the 注疏 claims predict, by (row, layer), in layer-text offsets."""
    out: dict[tuple[str, str], list[_Edit]] = {}
    for c in claims:
        if c.status != "ok" or not is_zhushu_claim(c):
            continue
        new = _claimed_new(c)
        if new is None:
            continue
        for a in c.anchors:
            row = al.row_of.get(a.unit)
            if row is None:
                continue
            pr = al.pairing(row, a.layer)
            off = _offset_of(pr.a, a.piece) if pr is not None else None
            if off is None:
                continue
            out.setdefault((row.id, a.layer), []).append(
                _Edit(off + a.start, off + a.end, new, owner=(c.id, a.start, a.end)))
    return out


def _no_claim_text(c: Claim) -> str:
    r = c.record
    what = {
        "conjecture": "a conjecture on this text",
        "lacuna": "a lacuna in this text's source",
        "comment": "a comment",
    }.get(r.kind, f"a claim about {r.target_name or r.target or 'another witness'}")
    return f"no 注疏 claim ({what})"


#: How many aligned characters a window may be widened by on each side when the
#: alignment placed an ambiguous match differently from the note (周南召南 / 周南).
WIDEN = 3


@dataclass
class _Edit:
    """A change some claim predicts in the 注疏, in this text's layer-text offsets."""

    start: int
    end: int
    new: str
    mine: bool = False
    owner: tuple = ()


def _check_anchor(c: Claim, anchor: Anchor, al: Aligned, zs: bool, others: list[_Edit] | None = None) -> Check:
    r = c.record
    base = Check(c.id, c.note_id, None, "not-checked", "")
    row = al.row_of.get(anchor.unit)
    if row is None or not row.units.get(al.against):
        if zs and row is not None and _absent_whole(c, anchor, al, row):
            return _absent(base, f"the {ZS_NAME} has nothing for passage {anchor.unit}, as the note says")
        return (zs and _in_front_matter(c, base, anchor, al)) or \
            _uncovered(base, zs, "no-passage", f"the {ZS_NAME} witness does not reach passage {anchor.unit}")
    base.row = row.id
    pr = al.pairing(row, anchor.layer)
    if pr is None:
        if zs and _absent_whole(c, anchor, al, row):
            return _absent(base, f"the {ZS_NAME} has no {anchor.layer} in this passage, as the note says")
        return _uncovered(base, zs, "no-layer", f"the {ZS_NAME} witness has no {anchor.layer} in this passage")
    off = _offset_of(pr.a, anchor.piece)
    if off is None:  # pragma: no cover - the anchor's piece is always in its row
        return _uncovered(base, zs, "no-layer", f"piece {anchor.piece} is not in row {row.id}")
    a, b = pr.a.text, pr.b.text
    s, e = off + anchor.start, off + anchor.end
    i = bisect_left(pr.aligned, s)
    j = bisect_left(pr.aligned, e)

    def window(w: int) -> tuple[int, int, int, int, bool, bool]:
        li, ri = i - 1 - w, j + w
        L = pr.aligned[li] if li >= 0 else None
        R = pr.aligned[ri] if ri < len(pr.aligned) else None
        bL = pr.amap[L] + 1 if L is not None else 0
        bR = pr.amap[R] if R is not None else len(b)
        if bR < bL:  # a transposition lies across the window: take the stretch between them
            bL, bR = bR, bL
        aL = L + 1 if L is not None else 0
        aR = R if R is not None else len(a)
        return aL, aR, bL, bR, L is None, R is None

    aL, aR, bL, bR, no_left, no_right = window(0)
    if no_left and row.id == al.first_row and not _k(b[:bR]):
        return (zs and _in_front_matter(c, base, anchor, al)) or \
            _uncovered(base, zs, "edge", f"the {ZS_NAME} witness begins after this point")
    if no_right and row.id == al.last_row and not _k(b[bL:]):
        return _uncovered(base, zs, "edge", f"the {ZS_NAME} witness ends before this point")
    pre, lemma, post = a[aL:s], a[s:e], a[e:aR]
    actual = b[bL:bR]
    base.window = _trim(a[aL:aR])
    base.zs_window = _trim(actual)
    kp, kl, kq, ka = _k(pre), _k(lemma), _k(post), _k(actual)
    reading, zspan = _reading_at(pr, actual, bL, kp, kl, kq, ka)
    base.reading = reading
    if zspan is not None:
        _locate(base, pr, zspan)
    if not zs:
        base.summary = _no_claim_text(c) + (f"; {ZS_NAME} reads {reading or '∅'} here" if reading is not None else "")
        return base

    # what the note predicts for the 注疏 at the anchor
    kind = r.kind
    if bool(r.moved_to):
        new: str | None = ""  # the text stands elsewhere in the 注疏: nothing here
    elif kind in ("corruption", "variant"):
        new = r.reading
        if not new and r.transposed:
            new = None  # a transposition of 3+ characters: the order is not given
    elif kind == "omission":
        new = ""
    else:  # addition
        new = r.reading

    verdict, detail = None, ""
    if new is None:  # transposition without the order: the same characters in another order
        if sorted(ka) == sorted(kp + kl + kq) and ka != kp + kl + kq:
            verdict, detail = "confirmed", "agrees"
    else:
        base.predicted = _trim(pre + new + post)
        mine = _Edit(s, e, new, True)
        for w in range(WIDEN + 1):
            aL, aR, bL, bR, *_edges = window(w)
            kw = _k(b[bL:bR])
            joint = [mine] + [x for x in (others or []) if aL <= x.start and x.end <= aR
                              and (x.end <= s or x.start >= e) and not (x.start == x.end == s)]
            for edits in ([mine], joint) if len(joint) > 1 else ([mine],):
                keys, n0, n1 = _predict(a, aL, aR, edits)
                # where this text's layer ends inside the window, the 注疏's text beyond it is
                # outside the passage: the prediction need only begin the 注疏 window
                open_end = _edges[1] and aR == len(a) and bool(keys) and kw.startswith(keys)
                if keys == kw or open_end:
                    verdict, detail = "confirmed", "agrees"
                    kb = [q for q in range(bL, bR) if not is_ignorable(b[q])]
                    if n1 > n0:
                        zspan = (kb[n0], kb[n1 - 1] + 1)
                    else:  # nothing in the 注疏: the point where the lemma would stand
                        p = kb[n0 - 1] + 1 if n0 > 0 else bL
                        zspan = (p, p)
                    _locate(base, pr, zspan)
                    base.exact = True
                    base.reading = b[zspan[0] : zspan[1]]
                    break
            if verdict:
                break
        if verdict == "confirmed" and not _k(new) and kl and not _k(a[:s]).endswith(kl) \
                and _lemma_beside(base, al, kl):
            # "lacks X" at the edge of the row, where the 注疏's piece goes on with X itself (its
            # passages divide otherwise): the 注疏 has X there
            verdict, detail = "contradicted", "as-this-text"
            base.reading, base.exact = lemma, False
        if verdict is None and len(ka) == len(kp + kl + kq) and len(_k(new)) == len(kl) and kl:
            # a neighbouring difference shares the window: compare at the lemma's positions
            got = ka[len(kp) : len(kp) + len(kl)]
            if got == _k(new):
                verdict, detail = "confirmed", "agrees"
            elif got == kl:
                verdict, detail = "contradicted", "as-this-text"
    if verdict is None and kind == "addition" and base.predicted is not None:
        verdict, detail = _nearly(kp + kl + kq, _k(new or ""), ka, len(kp))
    if verdict is None and new is not None and _in_running_text(anchor, al, new):
        verdict, detail = "confirmed", "agrees-running"
        base.reading = new  # the window is not where the 注疏 has it; its running text reads the claim
    slips = _partly(kp, kl, kq, _k(new or ""), ka) if verdict is None and kind in ("corruption", "variant") \
        and new else None
    if slips == "as-this-text":
        # 啐以下七字…訛作肺亦自貶于君, the 注疏 reading 啐亦自貶於君: where the 注疏 departs from
        # the note, it reads this text's very character: on that point the note is wrong
        base.verdict, base.detail = "contradicted", "as-this-text"
        base.summary = (f"contradicted: the {ZS_NAME} reads {base.zs_window or '∅'}: where it departs from the"
                        f" note's {r.reading}, it reads as this text ({base.window or '∅'})")
        return base
    if slips:
        # the 注疏 differs from this text, but not quite as the note quotes it (纁 for the
        # note's 䙧, a form the folding does not know): unsure, and a false "the editors were
        # wrong" is the worst error, so no contradiction
        base.verdict, base.detail = "uncertain", "partly"
        base.summary = (f"uncertain: the {ZS_NAME} reads {base.zs_window or '∅'} where this text has "
                        f"{base.window or '∅'}; the note quotes {r.reading} (a variant form or a slip?)")
        return base
    if verdict is None:
        verdict = "contradicted"
        same = ka == kp + kl + kq or (reading is not None and kl and _k(reading) == kl)
        detail = "as-this-text" if same else "otherwise"
    base.verdict, base.detail = verdict, detail
    if detail == "nearly":
        base.summary = (f"uncertain: the {ZS_NAME} has the extra {base.reading or base.zs_window or '∅'} here; the"
                        f" note quotes {r.reading}, a character apart (a slip of the note or of a transcription?)")
        return base
    base.summary = _summary(c, base, anchor)
    return base


def _absent_whole(c: Claim, anchor: Anchor, al: Aligned, row: Row) -> bool:
    """An omission of a whole passage or 注 that the 注疏 indeed lacks (not an edge of the excerpt)."""
    r = c.record
    if not (r.kind == "omission" or bool(r.moved_to)):
        return False
    whole = al.layer_of_unit(anchor.unit, anchor.layer)
    return bool(whole) and _k(anchor.text) == whole and al.inside(row)


def _absent(ch: Check, why: str) -> Check:
    ch.verdict, ch.detail, ch.summary, ch.reading = "confirmed", "agrees", f"confirmed: {why}", ""
    return ch


#: Context (characters of this text before the anchor, and after it) that must surround the
#: claimed reading in the 注疏's running text for :func:`_in_running_text`.
CONTEXT_BEFORE, CONTEXT_AFTER = 6, 3


def _in_running_text(anchor: Anchor, al: Aligned, new: str) -> bool:
    """Does the 注疏's running 经+注 text read this text's context with the claimed change made?

    Why: the row alignment works layer by layer, so where the 注疏 divides 经 and 注
    differently (a 注 the 四库 注疏 sets as its own piece, 经 text its reader took into the 注)
    the window holds nothing or the wrong thing.  The running text of both witnesses (经 and
    注 in reading order, 疏 and 釋 left out) does not depend on that division.  The claim is
    confirmed only when the changed text occurs there and the unchanged one does not.
    """
    theirs, _ = al.running(al.against)
    return _reads_changed(anchor, al, new, theirs)


def _reads_changed(anchor: Anchor, al: Aligned, new: str, theirs: str) -> bool:
    """Do the keys ``theirs`` hold this text's context around the anchor with ``new`` for it,
    and not the unchanged context?  (:data:`CONTEXT_BEFORE` + :data:`CONTEXT_AFTER` keys of
    this text's running 经+注 must stand around it.)"""
    if anchor.layer not in ("jing", "zhu") or not theirs:
        return False
    mine, starts = al.running(al.siglum)
    base = starts.get(anchor.piece)
    if base is None:
        return False
    text = al.units[al.siglum][anchor.unit]
    piece = next((p for p in text.pieces if piece_key(text, p) == anchor.piece), None)
    if piece is None:
        return False
    a0 = base + len(_k(piece.text[: anchor.start]))
    a1 = base + len(_k(piece.text[: anchor.end]))
    pre, post = mine[max(0, a0 - CONTEXT_BEFORE) : a0], mine[a1 : a1 + CONTEXT_AFTER]
    if len(pre) < CONTEXT_BEFORE:
        return False
    want, have = pre + _k(new) + post, pre + mine[a0:a1] + post
    return want != have and want in theirs and have not in theirs


def _in_front_matter(c: Claim, base: Check, anchor: Anchor, al: Aligned) -> Check | None:
    """A confirmation from the 注疏's front matter, for a passage its 卷 does not have.

    Why: the 注疏 gives the 鄭目録 of every 篇 in its front matter (卷首), not at the head of
    the 篇's 卷, where the 集释 has it; a claim on that passage is checked there, by the
    running text (:func:`_reads_changed`).  Only a confirmation is taken from it: the front
    matter is not aligned, so a failure to find the text there proves nothing.
    """
    new = _claimed_new(c)
    if new is None or not al.front_keys or not _reads_changed(anchor, al, new, al.front_keys):
        return None
    base.verdict, base.detail, base.reading = "confirmed", "agrees-front", new
    r = c.record
    what = f"lacks {r.lemma or anchor.text}" if r.kind == "omission" else f"reads {new or '∅'} for {anchor.text or '∅'}"
    base.summary = f"confirmed: the {ZS_NAME}'s front matter (its 目録 of every 篇) {what}, as the note says"
    return base


def _partly(kp: str, kl: str, kq: str, knew: str, ka: str) -> str | None:
    """The 注疏 window has this text's context around a reading that is not this text's and
    differs from the note's in at most one character per :data:`NEARLY` (at least one).

    Returns None when not; ``"as-this-text"`` when at every such character the 注疏 has the
    character this text has there (counted from the start, or from the end, of the lemma);
    ``"slip"`` otherwise (a third character: a variant form or a slip, undecided).
    """
    if len(ka) != len(kp) + len(knew) + len(kq) or not ka.startswith(kp) or not ka.endswith(kq):
        return None
    got = ka[len(kp) : len(ka) - len(kq)]
    if got == kl:
        return None
    slips = [i for i, (x, y) in enumerate(zip(got, knew)) if x != y]
    if not 0 < len(slips) <= max(1, len(knew) // NEARLY):
        return None
    shift = len(kl) - len(got)

    def mine(i: int) -> bool:
        return (i < len(kl) and got[i] == kl[i]) or (0 <= i + shift < len(kl) and got[i] == kl[i + shift])

    return "as-this-text" if all(mine(i) for i in slips) else "slip"


#: An added stretch at least this long may differ from the note's quotation in one character
#: per this many (爭爭闕之爭 for the 注疏's 爭爭鬭之爭: a slip of the note or of the transcription).
NEARLY = 5


def _nearly(here: str, added: str, ka: str, at: int) -> tuple[str | None, str]:
    """An addition whose text the 注疏 has at the place, but for a slip in a few characters.

    ``here`` is this text's window, ``added`` the note's extra text, inserted at ``at``;
    ``ka`` the 注疏 window.  The claim (the 注疏 has extra text here) holds when the 注疏
    has this text plus a stretch of the same length that differs from the quotation in at
    most one character per :data:`NEARLY`.

    Such a claim is ``uncertain`` (detail ``nearly``), not confirmed: the 注疏 has an extra stretch
    there, but not the one the note quotes character for character, and a verdict shown above a
    table in which the 注疏 reads something else than the note says would contradict its own
    evidence.  The sentence says how close it is (壻悉計反 quoted as 壻悉訃反).
    """
    if len(added) < 4 or len(ka) != len(here) + len(added) or ka[:at] + ka[at + len(added) :] != here:
        return None, ""
    got = ka[at : at + len(added)]
    slips = sum(1 for x, y in zip(got, added) if x != y)
    if 0 < slips <= max(1, len(added) // NEARLY):
        return "uncertain", "nearly"
    return None, ""


def _clash(x: _Edit, y: _Edit) -> bool:
    """Two edits that cannot both be made: overlapping spans, a point inside a span, one point twice."""
    if (x.start, x.end) == (y.start, y.end):
        return True
    if x.start == x.end:
        return y.start < x.start < y.end
    if y.start == y.end:
        return x.start < y.start < x.end
    return x.start < y.end and y.start < x.end


def _predict(a: str, aL: int, aR: int, edits: list[_Edit]) -> tuple[str, int, int]:
    """Keys of ``a[aL:aR]`` with ``edits`` made; where the own edit's new text lies in them.

    Edits that overlap the own edit or an earlier one are left out.
    """
    mine = [x for x in edits if x.mine]
    kept: list[_Edit] = list(mine)
    for x in sorted((x for x in edits if not x.mine), key=lambda x: (x.start, x.end)):
        if not any(_clash(x, y) for y in kept):
            kept.append(x)
    out = []
    n0 = n1 = 0
    pos = aL
    length = 0
    for x in sorted(kept, key=lambda x: (x.start, x.end)):
        seg = _k(a[pos : x.start])
        out.append(seg)
        length += len(seg)
        if x.mine:
            n0 = length
        seg = _k(x.new)
        out.append(seg)
        length += len(seg)
        if x.mine:
            n1 = length
        pos = x.end
    out.append(_k(a[pos:aR]))
    return "".join(out), n0, n1


def _reading_at(pr: _Pairing, actual: str, bL: int, kp: str, kl: str, kq: str, ka: str):
    """What the 注疏 reads at the anchor: (reading, its span in the 注疏 layer text).

    The whole window when the anchor has no unaligned neighbours; the characters at the
    anchor's positions when the window holds a same-length neighbouring difference too;
    else the whole window (the summary then shows both windows).
    """
    b = pr.b.text
    kb = [q for q in range(bL, bL + len(actual)) if not is_ignorable(b[q])]
    if not kp and not kq:
        if not kb:
            return "", (bL, bL)
        return b[kb[0] : kb[-1] + 1], (kb[0], kb[-1] + 1)
    if len(ka) == len(kp) + len(kl) + len(kq) and kl:
        sel = kb[len(kp) : len(kp) + len(kl)]
        return b[sel[0] : sel[-1] + 1], (sel[0], sel[-1] + 1)
    if not kb:
        return "", (bL, bL)
    return b[kb[0] : kb[-1] + 1], (kb[0], kb[-1] + 1)


def _lemma_beside(ch: Check, al: Aligned, kl: str) -> bool:
    """Does the 注疏 piece go on with the keys ``kl`` right after the located point?

    (Only after: a text the note says is not repeated (不重讀之) stands right before it.)"""
    if ch.zs_unit is None or ch.zs_piece is None or ch.zs_start is None:
        return False
    u = al.units[al.against].get(ch.zs_unit)
    p = next((x for x in u.pieces if piece_key(u, x) == ch.zs_piece), None) if u is not None else None
    if p is None:
        return False
    return _k(p.text[ch.zs_start :]).startswith(kl)


def _locate(ch: Check, pr: _Pairing, span: tuple[int, int]) -> None:
    s, e = span
    hit = pr.b.piece_at(s, point=(s == e))
    if hit is None:
        return
    off, u, p = hit
    ch.zs_unit = u.id
    ch.zs_piece = piece_key(u, p)
    ch.zs_start = max(0, s - off)
    ch.zs_end = min(len(p.text), max(ch.zs_start, e - off))
    ch.zs_context = piece_context(p.text, ch.zs_start, ch.zs_end)
    ch.zs_page = pr.b.where(s)[1]


def _uncovered(ch: Check, zs: bool, detail: str, why: str) -> Check:
    if zs:
        ch.verdict, ch.detail, ch.summary = "not covered", detail, f"not covered: {why}"
    else:
        ch.detail, ch.summary = "not-checked", f"no 注疏 claim; {why}"
    return ch


def _summary(c: Claim, ch: Check, anchor: Anchor) -> str:
    r = c.record
    got = ch.reading if ch.reading else "∅"
    lem = anchor.text or "∅"
    if ch.verdict == "confirmed":
        what = {
            "corruption": f"reads {got} for {lem}",
            "variant": f"reads {got} for {lem}",
            "omission": f"lacks {r.lemma or lem}",
            "addition": f"has the extra {got}",
        }[r.kind]
        if ch.detail == "agrees-running":
            return (f"confirmed: the {ZS_NAME}'s running 经 and 注 read {r.reading or 'without ' + (r.lemma or lem)}"
                    f" here, as the note says (it divides 经 and 注 otherwise than this text)")
        if ch.detail == "agrees-nearly":
            return f"confirmed: the {ZS_NAME} {what}; the note quotes it as {r.reading} (a slip in a character)"
        return f"confirmed: the {ZS_NAME} {what}, as the note says"
    where = r.moved_to.replace("after:", "after ").replace("before:", "before ")
    said = {
        "corruption": f"the note says {r.reading or 'a transposition'}",
        "variant": f"the note says {r.reading}",
        "omission": f"the note says it lacks {r.lemma or lem}",
        "addition": f"the note says it has an extra {r.reading}",
    }[r.kind]
    if bool(r.moved_to):
        said = f"the note says it stands {where} there"
    if ch.detail == "as-this-text":
        if r.kind == "addition":
            return f"contradicted: the {ZS_NAME} has no extra {r.reading} here ({said})"
        shown = ch.reading if ch.reading else lem
        return f"contradicted: the {ZS_NAME} reads {shown}, as this text does ({said})"
    return f"contradicted: the {ZS_NAME} reads {ch.zs_window or '∅'} where this text has {ch.window or '∅'} ({said})"


def check_at(c: Claim, al: Aligned, record: NoteRecord | None = None, anchor: Anchor | None = None) -> Check:
    """A hook for the other witnesses (:mod:`.witnesses`, :mod:`.evidence`): the claim's anchor
    against the other witness of ``al`` (any witness, not only the 注疏).

    With ``record`` (what the note implies that witness reads, as a record of its own), the
    check of that reading, by the same rules as a claim about the 注疏; without, only what
    the witness reads at the anchor (``reading``, None where it does not reach the place).
    The ``summary`` speaks of the 注疏 and is not meant for these callers.
    """
    a = anchor or c.anchor
    if a is None:
        return Check(c.id, c.note_id, None, "not-anchored", "")
    if record is None:
        return _plain_check(_check_anchor(c, a, al, False))
    return _plain_check(_check_anchor(replace(c, record=record), a, al, True))


# ---------------------------------------------------------------------------
# The evidence of a place claim
# ---------------------------------------------------------------------------


def _chars_and_keys(al: Aligned, siglum: str, layers: frozenset[str]) -> tuple[str, Sequence[str]]:
    """A witness's ``layers`` in reading order: the comparison keys joined, and for each key the
    character it stands for (as a reader sees it: :func:`plain`).  Made once per witness and layers
    (every place claim of a witness asks for it; the caller only reads it)."""
    done = al._texts.get((siglum, layers))
    if done is None:
        done = al._texts[(siglum, layers)] = _make_chars_and_keys(al, siglum, layers)
    return done


def _make_chars_and_keys(al: Aligned, siglum: str, layers: frozenset[str]) -> tuple[str, Sequence[str]]:
    # the whole text at once in C (str.translate) where every character keys to one character (the
    # usual case); a character per Python call only where one keys to none or several, or nobody
    # could read it.  The characters are one string where every piece took the first way (a list of
    # one-character strings indexes and joins alike, at a Python object per character).  Both ways work
    # character by character: where the whole text takes the first, it is taken at once.
    # The keys are the pieces' own (:meth:`_Keyed.keys_of`, made once: the running text of the witness asked
    # for most of them before) where no piece holds an entity, which they key otherwise
    kd = al._keyed
    pieces = [p for u in al.units.get(siglum, {}).values() for p in u.pieces if p.layer in layers]
    texts = [kd.coded(p) for p in pieces]
    joined = "".join(texts)
    whole = strip_ignorable(joined)
    if _no_unknown(whole) and one_key_each(whole):
        made = "".join(kd.keys_of(pieces)) if "&" not in joined else keys_joined(whole)
        return made, plain(whole) or whole
    keys: list[str] = []
    chars: list[str | list[str]] = []  # per piece: its characters, as a string or as a list
    for coded in texts:
        text = strip_ignorable(coded)
        if _no_unknown(text) and one_key_each(text):
            keys.append(keys_joined(text))
            chars.append(plain(text) or text)
            continue
        each: list[str] = []
        for ch in text:
            k = _key_of(ch)
            keys.append(k)
            each.extend([plain(ch) or ch] + [""] * (len(k) - 1))
        chars.append(each)
    strings = [x for x in chars if isinstance(x, str)]
    if len(strings) == len(chars):
        return "".join(keys), "".join(strings)
    return "".join(keys), [ch for x in chars for ch in x]


def place_reading(c: Claim, al: Aligned, siglum: str) -> str | None:
    """Where witness ``siglum`` sets the text of a place claim, in the words the claim is judged by.

    Why: a place claim (此注今注疏本在下X之下, 此注今注疏本在經文下傳曰上) says nothing of the
    characters at the anchor; what the 注疏 reads *there* is no evidence for or against it, and a
    table of those readings under its verdict contradicts the verdict whenever the moved text has
    a difference of its own (帥道婦 / 帥婦道).  The evidence is the place: ``在「X」之下`` (the
    characters right before the text in that witness; the note's X when they are X but for the
    slip :func:`_found_beside` allows, as the check read them) or ``在經之下、傳之上`` (the parts
    around it).  None when the witness does not hold the text in exactly one place (or it is not a
    place claim).  The note's own claim in the same words is :func:`claimed_place`.
    """
    r = c.record
    a = c.anchor
    if a is None or siglum not in al.units:
        return None
    if r.between:
        moved = _k(a.text)
        parts = _parts_around(al, siglum, moved)
        return _parts_phrase(parts) if parts is not None else None
    if not r.moved_to:
        return None
    side, x = r.moved_to.split(":", 1) if ":" in r.moved_to else ("after", r.moved_to)
    moved = _k(a.text)
    if a.method == "passage":
        moved = al.layer_of_unit(a.unit, "jing") + al.layer_of_unit(a.unit, "zhu")
    kx = _k(x)
    if not moved or not kx:
        return None
    keys, chars = _chars_and_keys(al, siglum, frozenset({"jing", "zhu", a.layer}))
    allowed = len(kx) // NEARLY
    first: tuple[str, list[int]] | None = None  # the longest part found, and where
    # as :func:`_found_beside`: the moved text's MOVED_KEYS keys next to X, or as few as MIN_MOVED_KEYS
    for n in range(min(MOVED_KEYS, len(moved)), min(MIN_MOVED_KEYS, len(moved)) - 1, -1):
        part = moved[:n] if side == "after" else moved[-n:]
        hits: list[int] = []
        start = keys.find(part)
        while start >= 0 and len(hits) < 3:
            hits.append(start)
            start = keys.find(part, start + 1)
        if hits and first is None:
            first = (part, hits)
        for h in hits:  # the place the note names, if the witness has the text there
            at = (h - len(kx), h) if side == "after" else (h + len(part), h + len(part) + len(kx))
            there = keys[at[0] : at[1]]
            if at[0] >= 0 and len(there) == len(kx) and sum(1 for p, q in zip(there, kx) if p != q) <= allowed:
                return _side_phrase(side, x)
    if first is None or len(first[1]) != 1:
        return None
    part, (h,) = first
    at = (max(0, h - len(kx)), h) if side == "after" else (h + len(part), h + len(part) + len(kx))
    own = "".join(chars[at[0] : at[1]])
    return _side_phrase(side, own) if own else ("在篇首" if side == "after" else "在篇末")


def claimed_place(c: Claim) -> str | None:
    """What a place claim says of its target, in the words of :func:`place_reading`; None for other claims."""
    r = c.record
    if r.between:
        return _parts_phrase((r.between[0], r.between[1]))
    if r.moved_to:
        side, x = r.moved_to.split(":", 1) if ":" in r.moved_to else ("after", r.moved_to)
        return _side_phrase(side, x)
    return None


def _side_phrase(side: str, x: str) -> str:
    return f"在「{x}」之{'下' if side == 'after' else '上'}"


def _parts_phrase(parts: tuple[str | None, str | None]) -> str:
    a, b = (PART_NAMES.get(p, p) if p else None for p in parts)
    return "".join([f"在{a}之下" if a else "在篇首", "、" if a and b else "，", f"{b}之上" if b else "篇末"])
