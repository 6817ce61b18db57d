"""Character-level alignment of two witnesses.

Witness texts reach this module as sequences of *comparison keys*, one key per
Han character (the normalization layer decides what a key is; here a key is any
hashable, usually a one-character ``str``).  :func:`align` returns an edit script
of :class:`Op` records; :func:`align_texts` does the same for two raw strings,
skipping ignorable characters (punctuation) and reporting string offsets.

Contract of :func:`align` (what the apparatus writer may rely on)
================================================================

Every op is ``Op(kind, a0, a1, b0, b1)`` with half-open ranges ``a[a0:a1]`` and
``b[b0:b1]``.

``equal``
    ``a1 - a0 == b1 - b0 > 0`` and the keys are identical key by key.
``replace``
    ``a1 > a0`` and ``b1 > b0``; ``a`` reads ``a[a0:a1]`` where ``b`` reads
    ``b[b0:b1]``.  The lengths may differ (see "Unequal replacements" below).
    No key of one side is claimed to correspond to any key of the other.
``delete``
    ``a[a0:a1]`` (non-empty) is absent from ``b``; ``b0 == b1`` is the point in
    ``b`` where it would stand.
``insert``
    ``b[b0:b1]`` (non-empty) is absent from ``a``; ``a0 == a1`` is the point in
    ``a`` where it would stand.
``transpose``
    A moved segment: ``a[a0:a1]`` and ``b[b0:b1]`` have the same length (>= 1)
    and identical keys, but stand at different places relative to the text
    around them.  The op is listed where the segment stands **in a** (that is
    where, in diff terms, it was deleted); the place where it stands in ``b``
    (where it was inserted) gets *no* op of its own.

Ordering and coverage:

* **a side** - the ``a`` ranges of all ops, in list order, tile ``range(len(a))``
  exactly: ``ops[0].a0 == 0``, ``ops[i].a1 == ops[i + 1].a0``,
  ``ops[-1].a1 == len(a)``.
* **b side** - the ``b`` ranges of the non-``transpose`` ops are in increasing
  order and do not overlap; together with the ``b`` ranges of the ``transpose``
  ops they tile ``range(len(b))`` exactly.  Between two consecutive
  non-``transpose`` ops ``p`` and ``q`` one has ``q.b0 - p.b1 ==`` the total
  length of the transposed segments that stand there in ``b`` (these are the
  "holes" a transposition leaves in ``b`` order).  In other words: sort all
  ops by ``b0`` (ties: empty ranges first) and you walk ``b`` from start to end.

Transpositions are reported in two situations:

1. a ``delete`` and an ``insert`` of identical keys, at least
   :data:`TRANSPOSE_MIN` (2) keys long, whose distance (the number of keys
   jumped over, the larger of the count in ``a`` and the count in ``b``) is at
   most ``min(TRANSPOSE_WINDOW_MAX, TRANSPOSE_WINDOW_PER_KEY * length)`` (256,
   16 x length): a longer identical segment is stronger evidence and may
   travel further;
2. a swap of two adjacent segments (误倒): ``AB`` in ``a`` against ``BA`` in
   ``b``.  The engine sees it either as delete-equal-insert (``A`` deleted,
   ``B`` kept, ``A`` inserted) or, after chaff merging, as one ``replace`` whose
   ``b`` side is a rotation of its ``a`` side.  Here a single key may move, as
   long as the segment jumped over is at most :data:`SWAP_MAX_JUMP` (2) keys
   (甲乙 / 乙甲 is a transposition; 之 dropped here and added ten characters
   later is not).  The *shorter* half is reported as ``transpose`` (ties: the
   first half in ``a``); the other half is an ``equal`` op whose ``b`` range
   lies on the other side of the hole.  Example: ``align("甲乙丙", "甲丙乙")``
   is ``equal(0,1,0,1)``, ``transpose(1,2,2,3)``, ``equal(2,3,1,2)``.

Which of two swapped segments counts as "moved" follows the alignment: the
engine keeps the longer stretch as a match, so three keys hopping over one key
come out as that one key hopping over three - not a transposition by rule 2.
A pure delete/insert may *slide* (up to :data:`SLIDE_CAP` keys) to meet its
partner when an equivalent placement exists (an omission next to a copy of its
own first or last key); the neighbouring ``equal`` ops are adjusted and keep at
least one key.  Pairing is greedy by increasing distance (ties by position
only), so each delete and each insert takes part in at most one transposition.
Not detected: a moved segment that the LCS splits because some of its keys also
occur in the text it jumps over (about 1 in 30 of 2-6 character moves over 3-20
characters of real 集释 text), and moves longer than the window (a swapped
block of whole paragraphs is a delete plus an insert).  Pass
``transpositions=False`` to get the plain edit script.

Symmetry: the result does not depend on which witness is passed first:
``align(b, a)`` is ``align(a, b)`` with ``a``/``b`` and ``delete``/``insert``
exchanged (a ``transpose`` is then listed at its place in the new first
sequence, as the contract says).  Internally the engine always runs on the two
sequences in a canonical order and mirrors its output.

Placement of omissions: where a pure ``delete``/``insert`` could equally stand
at several places (``射射袒`` / ``射袒``), it is put as far **right** as possible.
Material one witness lacks (注, 疏, 音義, a 案 note) begins with its label and
often ends by echoing the text before it (a 疏 quoting the last words of the
注), so the rightmost place keeps the label at the start of the omitted block.

Unequal replacements
====================

Between two matched stretches, ``a`` may have ``p`` keys and ``b`` ``q`` keys
with no key in common.  ``p == q`` gives one ``replace``; ``p == 0`` or ``q == 0``
gives a ``delete`` or an ``insert``.  For ``p != q``, both non-zero, the region is
reported as **one** ``replace`` with unequal sides (``於是`` / ``乃``).  We do not
split it into a replace of ``min(p, q)`` keys plus a delete/insert of the rest,
because nothing in the keys says *which* keys of the longer side are the extra
ones: any split point is arbitrary, and a split would turn "the witnesses read
differently here" into a precise omission claim ("b lacks the 3rd character")
that the 案-note checker would then take literally.  When the evidence exists -
a shared key on either side - the shared key is an ``equal`` op and the split
comes out by itself (``司射遂袒`` / ``司射袒`` is one ``delete``).

Chaff
=====

In stretches where the two witnesses say different things (a 疏 in one against
a 释 in the other), an exact LCS matches common particles (之, 也, 者, 曰) one by
one and shreds the region into dozens of tiny ops.  With ``cleanup=True`` (the
default), an ``equal`` run of ``e <= CHAFF_MAX_EQUAL`` (2) keys is dissolved into
the surrounding change when there is a change on both sides of it (it touches
no other match and neither end of the texts) and the *substituted* keys around
it outnumber it more than ``CHAFF_RATIO`` (3) times: with ``(dl, il)`` and
``(dr, ir)`` the a/b sizes of the changes to its left and right,
``min(dl, il) + min(dr, ir) > 3 * e``.  Omitted or added keys (the excess of one
side of a change over the other) do not count, so a match next to a pure
omission - a title next to a missing 疏 - is never dissolved, however long the
omission.  Dissolving cascades (the merged change may make the next short
match chaff as well).  Real variant clusters survive: ``甲X乙`` / ``丙X丁`` stays
three ops, and ``甲之乙`` / ``丙之丁戊`` keeps its ``之``.  ``cleanup=False``
keeps every match (the engine is then LCS-optimal on every range it solves
with Myers).

Engine
======

No ``n x m`` table is ever built over a whole chapter:

1. keys are interned into a ``str`` (one code point per key) so that slicing,
   hashing and comparing stretches run at C speed;
2. a range is trimmed of its common prefix and suffix (galloping compare);
   one longer than :data:`CUT_MIN` whose sides read alike (their lengths
   within ``1 / CUT_SKEW`` of its size) is cut in two at a run of
   :data:`CUT_K` keys near its middle that each side holds once, at a place
   their lengths can explain, and each half goes on down this list: two 篇
   joined then cost what the two cost apart (see :func:`_middle_cut`);
3. small ranges (``n + m <= SMALL``), and medium ranges (``n + m <= MEDIUM``)
   whose length difference is at most ``DMAX``, go to Myers' O((n + m) D)
   algorithm - exact (LCS-optimal) - with the number of edits capped at
   ``DMAX`` (or ``n + m`` when small);
4. otherwise the range is anchored: k-grams (k = 8, 4, 2, 1, starting from a k
   suited to the range size) that occur exactly once on each side are matched;
   if there are none, rare k-grams (at most :data:`RARE_MAX` occurrences per
   side, within a bounded number of candidate pairs) are used, which keeps text
   made of repeated passages alignable.  The longest chain of matches
   increasing in both sequences (patience / Hunt-Szymanski LIS, O(r log r))
   gives the anchors, and the ranges between anchors are solved recursively.
   Only the shorter side is tabulated, and on a long range only about
   :data:`SAMPLE_TARGET` evenly spaced k-grams of it are candidates, so the
   tables stay cache-sized; the longer side is streamed once through C-level
   iterators.  A side of at most :data:`FIND_MAX_SHORT` k-grams is simply
   searched for in the other with ``str.find``;
5. a *lopsided* range - a few keys (at most :data:`EDGE_MAX_SHORT`) against a
   stretch at least four times longer, typically the remains of a 注 or a
   heading next to a 疏 that the other witness lacks - is anchored only on
   unique k-grams with k >= 2; failing that, the few keys are aligned (Myers)
   against each end of the long stretch and the better end is kept if it
   matches at least a third of them, and at least two when there are two or
   more (one lone 之 proves nothing): the material one witness lacks is one
   contiguous block, so what remains belongs next to one of its neighbours;
6. a range where none of this finds anything (for instance a 2000-character
   疏 that one side lacks, against a short 释 in the other) is left as a single
   change region instead of being exploded.

Anchoring work is capped by a budget proportional to the input size
(:data:`BUDGET_FACTOR`), so the total cost stays close to linear even on
adversarial input (random binary strings, a text against its reverse).

``difflib`` is not used.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from itertools import compress, tee
from operator import itemgetter, lt, ne
from dataclasses import dataclass
from typing import Callable, Hashable, Iterable, Literal, Sequence, TypeGuard

from ..normalize.fold import exact_keys
from ..normalize.fold import key as fold_key
from ..normalize.ignorable import is_ignorable, kept_offsets

__all__ = [
    "Op",
    "OpKind",
    "align",
    "align_texts",
    "edit_counts",
]

OpKind = Literal["equal", "replace", "delete", "insert", "transpose"]

#: Ranges with ``n + m`` at most this go straight to exact Myers (no edit cap).
SMALL = 64
#: Ranges with ``n + m`` at most this try exact Myers first, capped at ``DMAX`` edits.
MEDIUM = 4096
#: Edit cap for Myers on medium (and anchor-less) ranges.
DMAX = 48
#: A range whose shorter side has at most this many keys, against a side at
#: least 4 times longer, is "lopsided" (see ``_edge_blocks``).
EDGE_MAX_SHORT = 32
#: n-gram lengths tried for anchors, longest first.
KGRAMS = (8, 4, 2, 1)
#: A k-gram occurring at most this often on each side may serve as an anchor
#: candidate when no unique one exists.
RARE_MAX = 8
#: Cap on candidate anchor pairs per range, as a multiple of ``n + m``.
PAIR_FACTOR = 2
#: A side with at most this many k-grams is searched for in the other side
#: with ``str.find`` instead of hashing every k-gram of the other side.
FIND_MAX_SHORT = 200
#: On a range whose shorter side has more k-grams than this, only about this
#: many of them (evenly spaced) are anchor candidates.
SAMPLE_TARGET = 8192
#: Total anchoring work allowed, as a multiple of the input size.
BUDGET_FACTOR = 64
#: A range longer than this is first cut at a run of this many keys near
#: its middle that occurs once on each side (see ``_middle_cut``) ...
#: (256 since stop 44, 1,024 before: more pieces end short enough for exact Myers within
#: ``DMAX``, where a longer one exceeded it and went to the anchors; the 经 of 篇1-13
#: aligns in 17% fewer instructions, and two entries of the book, each an omission
#: beside an addition of one character, became the substitutions they are: 毋/母, 夫/大)
CUT_MIN = 256
CUT_K = 16
#: ... of at most this many runs tried, each a half run further from the middle; a range is cut only
#: where its sides differ in length by at most ``1 / CUT_SKEW`` of its size (two texts that read alike).
CUT_TRIES = 8
CUT_SKEW = 8

#: Chaff: an equal run of at most this many keys ...
CHAFF_MAX_EQUAL = 2
#: ... is dissolved when more than this many times as many keys are
#: substituted around it.
CHAFF_RATIO = 3

#: Transpositions: a moved segment has at least this many keys ...
TRANSPOSE_MIN = 2
#: ... and jumps at most this many keys per key of its length ...
TRANSPOSE_WINDOW_PER_KEY = 16
#: ... and never more than this many keys.
TRANSPOSE_WINDOW_MAX = 256
#: A single key counts as transposed only across at most this many keys (误倒).
SWAP_MAX_JUMP = 2
#: How far (in keys) a delete/insert may slide to meet its transposition partner.
SLIDE_CAP = 8


@dataclass(slots=True, unsafe_hash=True)
class Op:
    """One step of an alignment; see the module docstring for the contract.

    A value: never change one (a collation hands one list of ops to every witness that reads a text alike).
    Why not ``frozen=True``, which would say so: a frozen dataclass sets each field through
    ``object.__setattr__``, and made an op four times as slow to make (1.1 µs, against 0.3), for the 73,000
    ops of a whole-book build (``unsafe_hash``: hashed by its fields, as the frozen op was).
    """

    kind: OpKind
    a0: int
    a1: int
    b0: int
    b1: int

    def mirrored(self) -> "Op":
        """The same op seen from the other witness (a<->b, delete<->insert)."""
        kind = _MIRROR_KIND[self.kind]
        return Op(kind, self.b0, self.b1, self.a0, self.a1)


_MIRROR_KIND: dict[OpKind, OpKind] = {
    "equal": "equal",
    "replace": "replace",
    "delete": "insert",
    "insert": "delete",
    "transpose": "transpose",
}


# --------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------


def align(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    *,
    transpositions: bool = True,
    cleanup: bool = True,
) -> list[Op]:
    """Align two key sequences; return the ops described in the module docstring.

    ``transpositions=False`` skips transposition detection (plain edit script of
    equal/replace/delete/insert).  ``cleanup=False`` keeps every match the engine
    found, chaff included (useful to check the engine itself).
    """
    A, B = _encode(a, b)
    if A == B:  # the same keys (two thirds of a collation's row layers): one equal op, or none, at once
        return [Op("equal", 0, len(A), 0, len(B))] if A else []
    swap = (len(A), A) > (len(B), B)
    X, Y = (B, A) if swap else (A, B)
    blocks = _match_blocks(X, Y)
    if cleanup:
        blocks = _dissolve_chaff(blocks, len(X), len(Y))
    blocks = _slide_right(blocks, X, Y)
    blocks = _join_lone_matches(blocks, X, Y)
    if swap:  # the blocks seen from the other side make the mirrored ops at once (an op made once, not twice)
        ops = _blocks_to_ops([(j, i, length) for i, j, length in blocks], len(Y), len(X))
    else:
        ops = _blocks_to_ops(blocks, len(X), len(Y))
    if transpositions:
        ops = _detect_transpositions(ops, A, B)
    return ops


def align_texts(
    a: str,
    b: str,
    key: Callable[[str], Hashable] = lambda ch: ch,
    ignorable: Callable[[str], bool] = lambda ch: False,
    kept: tuple[Sequence[int], Sequence[int]] | None = None,
    keyed: "tuple[tuple[str, Sequence[int]] | None, tuple[str, Sequence[int]] | None] | None" = None,
    **options: bool,
) -> list[Op]:
    """Align two strings on the keys of their non-ignorable characters.

    Returns the ops of ``align(keys_a, keys_b, **options)`` with key indices
    translated into string indices, so that the caller can show the original
    characters with their punctuation.  Translation rules:

    * an op's string range runs from its first key character to its last, with
      any ignorable characters in between;
    * the ignorable characters *between* the key characters of two ops are
      given to a neighbouring op: to the preceding op if it is ``equal``,
      otherwise to the following op if that is ``equal``, otherwise to the
      preceding op.  Leading ignorables go to the first op, trailing ones to
      the last.  Changes therefore stay tight around their characters while
      punctuation rides with the surrounding agreement;
    * an empty side (the ``a`` side of an ``insert``, the ``b`` side of a
      ``delete``) is the point at the end of the string range of the op that
      holds the preceding key (0 if there is none).

    With these rules the string ranges obey the same ordering and coverage
    contract as :func:`align` (tiling both strings), provided each string has
    at least one key character; a string made only of ignorables is left
    uncovered (its ops all sit at point 0).

    ``kept``: ``(kept_positions(a), kept_positions(b))`` when the caller has them (with
    :func:`~jiaokan.normalize.ignorable.is_ignorable` only); ``keyed``: ``(exact_keys(a), exact_keys(b))``
    when the caller has them (with ``is_ignorable`` and :func:`~jiaokan.normalize.fold.key` only: the
    collation keys a base text once, not once for each witness it is aligned with).
    """
    ea = eb = None
    if ignorable is is_ignorable and key is fold_key:
        # the collation's own: keys and positions of a whole string in C (str.translate), not calls per character
        if keyed is not None:
            ea, eb = keyed
        elif kept is None:
            ea, eb = exact_keys(a), exact_keys(b)
        else:
            ea, eb = exact_keys(a, kept[0]), exact_keys(b, kept[1])
    if ea is not None and eb is not None:
        (xa, pa), (xb, pb) = ea, eb
        ops = align(xa, xb, **options)
    else:
        if ignorable is is_ignorable:
            pa, pb = kept if kept is not None else (kept_offsets(a), kept_offsets(b))
        else:
            pa = [i for i, ch in enumerate(a) if not ignorable(ch)]
            pb = [i for i, ch in enumerate(b) if not ignorable(ch)]
        ka = list(map(key, map(a.__getitem__, pa)))
        kb = list(map(key, map(b.__getitem__, pb)))
        ops = align(ka, kb, **options)
    if len(ops) == 1:  # one op (most alignments: the same keys): the whole of each string, or its point 0
        op = ops[0]
        return [Op(op.kind, 0, len(a) if op.a0 < op.a1 else 0, 0, len(b) if op.b0 < op.b1 else 0)]
    ra = _map_side(ops, pa, len(a), "a")
    rb = _map_side(ops, pb, len(b), "b")
    return [Op(op.kind, ra[t][0], ra[t][1], rb[t][0], rb[t][1]) for t, op in enumerate(ops)]


def edit_counts(ops: Iterable[Op]) -> dict[str, int]:
    """Number of keys per kind, counted on the side that has them.

    ``equal``/``transpose``/``delete`` count ``a`` keys, ``insert`` counts ``b``
    keys, ``replace`` is reported as ``replace_a`` and ``replace_b``.
    """
    out = {"equal": 0, "transpose": 0, "delete": 0, "insert": 0, "replace_a": 0, "replace_b": 0}
    for op in ops:
        if op.kind == "replace":
            out["replace_a"] += op.a1 - op.a0
            out["replace_b"] += op.b1 - op.b0
        elif op.kind == "insert":
            out["insert"] += op.b1 - op.b0
        else:
            out[op.kind] += op.a1 - op.a0
    return out


# --------------------------------------------------------------------------
# interning
# --------------------------------------------------------------------------


def _encode(a: Sequence[Hashable], b: Sequence[Hashable]) -> tuple[str, str]:
    """Turn both key sequences into ``str`` with one code point per key.

    Two keys get the same code point iff they are equal.  The code assignment
    depends only on the *set* of keys, not on argument order, so that the
    canonical orientation in :func:`align` is symmetric.
    """
    if isinstance(a, str) and isinstance(b, str):
        return a, b
    if _all_chars(a) and _all_chars(b):
        return "".join(a), "".join(b)
    keys = set(a)
    keys.update(b)
    ordered: list[Hashable]
    try:
        # keys of one type usually compare; mixed or unorderable ones raise TypeError, handled below
        ordered = sorted(keys)  # type: ignore[type-var]
    except TypeError:
        ordered = sorted(keys, key=lambda k: (type(k).__name__, repr(k)))
    table = {k: _code_point(i) for i, k in enumerate(ordered)}
    return "".join([table[k] for k in a]), "".join([table[k] for k in b])


def _all_chars(seq: Sequence[Hashable]) -> TypeGuard[Sequence[str]]:
    for k in seq:
        if type(k) is not str or len(k) != 1:
            return False
    return True


def _code_point(i: int) -> str:
    # skip the surrogate block so every code is a valid, hashable character
    i += 0x100
    if i >= 0xD800:
        i += 0x800
    return chr(i)


# --------------------------------------------------------------------------
# the engine: matching blocks (i, j, length), increasing, non-overlapping
# --------------------------------------------------------------------------


def _common_prefix(X: str, Y: str, i: int, j: int, lim: int) -> int:
    """Length of the common prefix of X[i:i+lim] and Y[j:j+lim] (galloping)."""
    if lim <= 0 or X[i] != Y[j]:
        return 0
    good, step = 1, 1
    while good < lim:
        step = min(step * 2, lim - good)
        if X[i + good : i + good + step] == Y[j + good : j + good + step]:
            good += step
        else:
            break
    else:
        return lim
    # the answer is in [good, good + step); binary search
    lo, hi = good, good + step
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if X[i + lo : i + mid] == Y[j + lo : j + mid]:
            lo = mid
        else:
            hi = mid
    return lo


def _common_suffix(X: str, Y: str, ie: int, je: int, lim: int) -> int:
    """Length of the common suffix of X[ie-lim:ie] and Y[je-lim:je]."""
    if lim <= 0 or X[ie - 1] != Y[je - 1]:
        return 0
    good, step = 1, 1
    while good < lim:
        step = min(step * 2, lim - good)
        if X[ie - good - step : ie - good] == Y[je - good - step : je - good]:
            good += step
        else:
            break
    else:
        return lim
    lo, hi = good, good + step
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if X[ie - mid : ie - lo] == Y[je - mid : je - lo]:
            lo = mid
        else:
            hi = mid
    return lo


def _match_blocks(X: str, Y: str) -> list[tuple[int, int, int]]:
    n, m = len(X), len(Y)
    out: list[tuple[int, int, int]] = []
    budget = [BUDGET_FACTOR * (n + m) + 100_000]
    # work stack: 4-tuples are ranges to solve, 3-tuples are finished blocks;
    # popped in sequence order, so ``out`` is produced in order.
    stack: list[tuple[int, ...]] = [(0, n, 0, m)]
    while stack:
        item = stack.pop()
        if len(item) == 3:
            out.append(item)
            continue
        alo, ahi, blo, bhi = item
        p = _common_prefix(X, Y, alo, blo, min(ahi - alo, bhi - blo))
        if p:
            out.append((alo, blo, p))
            alo += p
            blo += p
        s = _common_suffix(X, Y, ahi, bhi, min(ahi - alo, bhi - blo))
        if s:
            ahi -= s
            bhi -= s
            stack.append((ahi, bhi, s))
        n1, m1 = ahi - alo, bhi - blo
        if n1 == 0 or m1 == 0:
            continue
        size = n1 + m1
        if size > CUT_MIN and CUT_SKEW * abs(n1 - m1) <= size and budget[0] > 0:
            cut = _middle_cut(X, Y, alo, ahi, blo, bhi, budget)
            if cut is not None:
                i, j = cut
                stack.extend(((i + CUT_K, ahi, j + CUT_K, bhi), (i, j, CUT_K), (alo, i, blo, j)))
                continue
        tried_myers = False
        if size <= SMALL or (
            size <= MEDIUM and abs(n1 - m1) <= DMAX and (size <= 1024 or _indel_bound(X, Y, alo, ahi, blo, bhi) <= DMAX)
        ):
            tried_myers = True
            res = _myers(X, Y, alo, ahi, blo, bhi, size if size <= SMALL else DMAX)
            if res is not None:
                out.extend(res)
                continue
        anchors: list[tuple[int, int, int]] = []
        if budget[0] > 0:
            short = min(n1, m1)
            if short <= EDGE_MAX_SHORT and max(n1, m1) >= 4 * short:
                # a few keys against a long stretch: trust only unique
                # n-grams, then try the two ends of the long stretch
                anchors = _anchor_blocks(X, Y, alo, ahi, blo, bhi, budget, rare=False, min_k=2)
                if not anchors:
                    edge = _edge_blocks(X, Y, alo, ahi, blo, bhi)
                    if edge:
                        out.extend(edge)
                        continue
            if not anchors:
                anchors = _anchor_blocks(X, Y, alo, ahi, blo, bhi, budget)
        if anchors:
            sub: list[tuple[int, ...]] = []
            ci, cj = alo, blo
            for i, j, length in anchors:
                if i > ci or j > cj:
                    sub.append((ci, i, cj, j))
                sub.append((i, j, length))
                ci, cj = i + length, j + length
            if ci < ahi or cj < bhi:
                sub.append((ci, ahi, cj, bhi))
            stack.extend(reversed(sub))
            continue
        if not tried_myers and abs(n1 - m1) <= DMAX:
            res = _myers(X, Y, alo, ahi, blo, bhi, DMAX)
            if res is not None:
                out.extend(res)
                continue
        # nothing found: the range stays one change region
    return _merge_adjacent(out)


def _middle_cut(
    X: str, Y: str, alo: int, ahi: int, blo: int, bhi: int, budget: list[int]
) -> tuple[int, int] | None:
    """A sure anchor near the middle of a long range: ``(i, j)`` with ``X[i:i + CUT_K] == Y[j:j + CUT_K]``, that
    run found once in each side, and the shift between the two places within the sides' difference in length
    (plus ``DMAX``), or None.

    Why: a range too long for exact Myers is otherwise anchored on all its k-grams at once, which costs about
    three times as much per key as Myers does on a stretch that reads alike, and Myers' own cost, (n + m) times
    the edits, grows with the square of a range that reads alike throughout; two 篇 joined then cost more than
    the same two collated apart (×2.2 per doubling in instructions, 篇一-二 and 三-四).  A medium range, which
    Myers may take, is cut too: its pieces stay within Myers' edit cap ``DMAX`` more often, where the whole
    exceeded it and went to the anchors.  Cut in two at a run of
    ``CUT_K`` keys that neither side repeats, the halves go on down the same ladder (Myers where they are short
    and alike, anchors where not), so the work grows with the text and no faster.

    The runs tried lie on the shorter side, at its middle and then alternately a half run before and after it;
    each is searched for in both sides with ``str.find`` (in C).  A run found at a place that the two sides'
    lengths cannot explain (a passage moved, a phrase the text repeats in another passage) is not used: the
    range then goes to the anchors, which weigh every k-gram.
    """
    n1, m1 = ahi - alo, bhi - blo
    # the shorter side's runs are the ones tried; (S, slo, shi) that side, (L, llo, lhi) the other
    flip = n1 > m1
    if not flip:
        S, slo, shi, L, llo, lhi = X, alo, ahi, Y, blo, bhi
    else:
        S, slo, shi, L, llo, lhi = Y, blo, bhi, X, alo, ahi
    ns, nl = shi - slo, lhi - llo
    lo_shift, hi_shift = min(0, nl - ns) - DMAX, max(0, nl - ns) + DMAX
    mid = slo + (ns - CUT_K) // 2
    half = CUT_K // 2
    for t in range(CUT_TRIES):
        p = mid + (t + 1) // 2 * half * (1 if t % 2 else -1)
        if p < slo or p + CUT_K > shi:
            continue
        budget[0] -= 2 * (n1 + m1)
        run = S[p : p + CUT_K]
        if S.find(run, slo, p + CUT_K - 1) >= 0 or S.find(run, p + 1, shi) >= 0:
            continue  # repeated on its own side
        q = L.find(run, llo, lhi)
        if q < 0 or L.find(run, q + 1, lhi) >= 0:
            continue
        if not lo_shift <= (q - llo) - (p - slo) <= hi_shift:
            continue
        return (q, p) if flip else (p, q)
    return None


def _indel_bound(X: str, Y: str, alo: int, ahi: int, blo: int, bhi: int) -> int:
    """A lower bound on the insertions + deletions needed: the key counts that differ."""
    ca = Counter(X[alo:ahi])
    ca.subtract(Counter(Y[blo:bhi]))
    return sum(map(abs, ca.values()))


def _merge_adjacent(blocks: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    merged: list[tuple[int, int, int]] = []
    for i, j, length in blocks:
        if length <= 0:
            continue
        if merged:
            pi, pj, pl = merged[-1]
            if pi + pl == i and pj + pl == j:
                merged[-1] = (pi, pj, pl + length)
                continue
        merged.append((i, j, length))
    return merged


def _myers(
    X: str, Y: str, alo: int, ahi: int, blo: int, bhi: int, dmax: int
) -> list[tuple[int, int, int]] | None:
    """Exact shortest edit script (Myers 1986) of X[alo:ahi] vs Y[blo:bhi].

    Returns the matching blocks in absolute coordinates, or None when more than
    ``dmax`` insertions+deletions are needed.  Ties prefer deletions first.
    Each step keeps the furthest-reaching points (and the step that set each) it read, so backtracking
    makes each step's choice again from them: a slice of two lists a step, not a record per point.
    """
    a = X[alo:ahi]
    b = Y[blo:bhi]
    n, m = len(a), len(b)
    dmax = min(dmax, n + m)
    if abs(n - m) > dmax:
        return None
    if (not a or a[0] not in b) and set(a).isdisjoint(b):
        # no key in common (a lone substitution, a stretch rewritten): the script is every deletion and
        # insertion, n + m, found here at once where the search below walked every d up to it.  (Asked first
        # whether b holds a's first key, a search in C: two stretches that read alike do, and a set of the keys
        # of a range of thousands cost more than the search.)
        return [] if n + m <= dmax else None
    off = dmax + 1
    V = [-1] * (2 * dmax + 3)  # furthest x on each diagonal k = x - y
    T = [-1] * (2 * dmax + 3)  # the step that set it
    # V and T over diagonals -d-1 .. d+1 as they stood before each step d >= 1 (a slice each, copied in C): what
    # step d read, so the way back can make each of its choices again; what recorded a tuple for every diagonal of
    # every step (most of the search's time on a short range)
    before: list[tuple[list[int], list[int]]] = []
    found = -1
    for d in range(dmax + 1):
        if d:
            before.append((V[off - d - 1 : off + d + 2], T[off - d - 1 : off + d + 2]))
        lo_k = -d if d <= m else -m + ((d - m) & 1)
        hi_k = d if d <= n else n - ((d - n) & 1)
        for k in range(lo_k, hi_k + 1, 2):
            if d == 0:
                x = 0
            else:
                xd = V[off + k + 1]  # down: from diagonal k+1, y + 1
                if xd >= 0 and xd - k > m:
                    xd = -1
                xr = V[off + k - 1]  # right: from diagonal k-1, x + 1
                if xr >= 0:
                    xr += 1
                    if xr > n:
                        xr = -1
                if xr >= 0 and xr >= xd:
                    x = xr
                elif xd >= 0:
                    x = xd
                else:
                    continue
            y = x - k
            if x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
                if x < n and y < m and a[x] == b[y]:  # a long snake: gallop
                    step = _common_prefix(a, b, x, y, min(n - x, m - y))
                    x += step
                    y += step
            V[off + k] = x
            T[off + k] = d
            if x >= n and y >= m:
                found = d
                break
        if found >= 0:
            break
    if found < 0:
        return None
    blocks: list[tuple[int, int, int]] = []
    k, d, x = n - m, found, n  # x: where the snake of step d on diagonal k ended
    while d:
        Vb, Tb = before[d - 1]
        w = d + 1 + k  # Vb[w + j] is diagonal k + j as step d read it
        xd = Vb[w + 1]  # the choice of step d on diagonal k, made again (the same rules as above)
        if xd >= 0 and xd - k > m:
            xd = -1
        xr = Vb[w - 1]
        if xr >= 0:
            xr += 1
            if xr > n:
                xr = -1
        if xr >= 0 and xr >= xd:
            sx, j = xr, -1
        else:
            sx, j = xd, 1
        if x > sx:
            blocks.append((alo + sx, blo + sx - k, x - sx))
        # the step before: the one that last set diagonal k + j, and where its snake ended
        x, d, k = Vb[w + j], Tb[w + j], k + j
    if x > 0:  # step 0's snake, from (0, 0) on diagonal 0
        blocks.append((alo, blo, x))
    blocks.reverse()
    return blocks


def _ladder(n: int, m: int) -> tuple[int, ...]:
    big = max(n, m)
    if big >= 1000:
        start = 8
    elif big >= 100:
        start = 4
    elif big >= 24:
        start = 2
    else:
        start = 1
    return tuple(k for k in KGRAMS if k <= start and k <= min(n, m))


def _edge_blocks(X: str, Y: str, alo: int, ahi: int, blo: int, bhi: int) -> list[tuple[int, int, int]]:
    """Align a short side against either end of a long one; keep the better end.

    Material present in one witness only (a 疏, a heading, a note) is one
    contiguous stretch, so the few keys of the other side belong next to one of
    the neighbouring matches: at the start or at the end of the long side.  The
    short side is aligned exactly (Myers) against a window of ``2 * short + 8``
    keys at each end; the end with more matched keys wins (ties: the start), if
    it matches at least a third of the short side and at least two keys (one,
    if the short side has only one).
    """
    n, m = ahi - alo, bhi - blo
    short = min(n, m)
    w = min(max(n, m), 2 * short + 8)
    if n <= m:
        left = _myers(X, Y, alo, ahi, blo, blo + w, n + w)
        right = _myers(X, Y, alo, ahi, bhi - w, bhi, n + w)
    else:
        left = _myers(X, Y, alo, alo + w, blo, bhi, m + w)
        right = _myers(X, Y, ahi - w, ahi, blo, bhi, m + w)
    sl = sum(b[2] for b in left or ())
    sr = sum(b[2] for b in right or ())
    best, score = (left, sl) if sl >= sr else (right, sr)
    if not best or 3 * score < short or score < min(2, short):
        return []
    return best


def _anchor_blocks(
    X: str,
    Y: str,
    alo: int,
    ahi: int,
    blo: int,
    bhi: int,
    budget: list[int],
    rare: bool = True,
    min_k: int = 1,
) -> list[tuple[int, int, int]]:
    """Anchors for X[alo:ahi] vs Y[blo:bhi]: blocks of a longest chain of k-gram matches.

    Tries k down the ladder (not below ``min_k``); at each k, k-grams unique on
    both sides, else (when ``rare``) rare ones.
    """
    sa = X[alo:ahi]
    sb = Y[blo:bhi]
    n, m = len(sa), len(sb)
    flip = n > m  # work as (long, short) = (a, b) when a is the longer side
    short, long_ = (sb, sa) if flip else (sa, sb)
    for k in _ladder(n, m):
        if k < min_k:
            break
        budget[0] -= 2 * (n + m)
        if len(short) - k + 1 <= FIND_MAX_SHORT:
            longs, shorts = _points_by_find(short, long_, k, rare)
        else:
            longs, shorts = _points_by_hash(short, long_, k, rare)
        if not longs:
            continue
        budget[0] -= 4 * len(longs)
        longs, shorts = _lis(longs, shorts)  # increasing in both
        return _chain_to_blocks(longs, shorts, k, alo, blo) if flip else _chain_to_blocks(shorts, longs, k, alo, blo)
    return []


def _grams(s: str, k: int) -> list[str]:
    """All k-grams of ``s`` in order, made in C: a regex's lookahead captures the k characters at every
    place (where a slice object and a call of ``__getitem__`` were made for each)."""
    if k == 1:
        return list(s)
    rx = _GRAM_RX.get(k)
    if rx is None:
        rx = _GRAM_RX[k] = re.compile(f"(?=(.{{{k}}}))", re.S)
    return rx.findall(s)


#: k → the pattern of :func:`_grams`
_GRAM_RX: dict[int, re.Pattern[str]] = {}


def _points_by_hash(short: str, long_: str, k: int, rare: bool = True) -> tuple[list[int], list[int]]:
    """Matching k-gram pairs as two lists, the long indexes and the short ones, sorted by long index (ties
    by short index); a pair is the same place in both lists (two lists of ints, not a tuple for each pair:
    the k-grams of two texts that read alike pair nearly all of them, and each stage below reads one side).

    Pairs of k-grams unique on both sides if there are any; otherwise pairs of
    rare k-grams (see :data:`RARE_MAX`), within a budget of ``PAIR_FACTOR * size``
    pairs, rarest first.  Only the short side's k-grams are tabulated (at most
    about :data:`SAMPLE_TARGET` of them, evenly spaced, so the tables stay
    cache-resident); the long side's k-grams are sliced once and only its hits
    are kept.
    """
    ns = len(short) - k + 1
    # every k-gram of each side made once (in C, :func:`_grams`), then counted, matched and located by
    # C-level map/compress over those lists: where each step sliced the grams again and a Python loop
    # (comprehension) per gram chose the unique ones and paired them
    gs = _grams(short, k)
    if ns > SAMPLE_TARGET:
        sampled = set(gs[:: -(-ns // SAMPLE_TARGET)])
        cs = Counter(filter(sampled.__contains__, gs))
    else:
        cs = Counter(gs)
    gl = _grams(long_, k)
    on_short = list(map(cs.__contains__, gl))
    hits = list(compress(range(len(gl)), on_short))
    hg = list(compress(gl, on_short))
    del gl, on_short
    cl = Counter(hg)
    # once on the long side (every one is on the short) ... and once on the short; each asked only when some
    # k-gram is not (two texts that read alike repeat few of their 8-grams, often none)
    once = cl if len(cl) == len(hg) else list(compress(cl, map((1).__eq__, cl.values())))
    if ns <= SAMPLE_TARGET and len(cs) == ns:
        chosen = set(once)
    else:
        chosen = set(compress(once, map((1).__eq__, map(cs.__getitem__, once))))
    if chosen:
        pos_s = dict(zip(gs, range(ns)))  # a chosen k-gram's one place (the place of any other is not asked)
        in_l = list(map(chosen.__contains__, hg))
        return list(compress(hits, in_l)), list(map(pos_s.__getitem__, compress(hg, in_l)))
    if not rare:
        return [], []
    chosen = _choose_rare(cs, cl, len(short) + len(long_))
    if not chosen:
        return [], []
    pos_sl: dict[str, list[int]] = defaultdict(list)
    for i in compress(range(ns), map(chosen.__contains__, gs)):
        pos_sl[gs[i]].append(i)
    longs: list[int] = []
    shorts: list[int] = []
    for j, g in zip(hits, hg):
        if g in chosen:
            for i in pos_sl[g]:
                longs.append(j)
                shorts.append(i)
    return longs, shorts


def _points_by_find(short: str, long_: str, k: int, rare: bool = True) -> tuple[list[int], list[int]]:
    """Like :func:`_points_by_hash` for a short side of a few k-grams: search them in the long side."""
    pos_s: dict[str, list[int]] = defaultdict(list)
    for i in range(len(short) - k + 1):
        pos_s[short[i : i + k]].append(i)
    occ: dict[str, list[int]] = {}
    for g, ps in pos_s.items():
        if len(ps) > RARE_MAX:
            continue
        found: list[int] = []
        p = long_.find(g)
        while p >= 0 and len(found) <= RARE_MAX:
            found.append(p)
            p = long_.find(g, p + 1)
        if found and len(found) <= RARE_MAX:
            occ[g] = found
    uniq = [g for g, f in occ.items() if len(f) == 1 and len(pos_s[g]) == 1]
    if uniq:
        pts = [(occ[g][0], pos_s[g][0]) for g in uniq]
    elif not rare:
        return [], []
    else:
        counts_s = Counter({g: len(pos_s[g]) for g in occ})
        counts_l = Counter({g: len(f) for g, f in occ.items()})
        chosen = _choose_rare(counts_s, counts_l, len(short) + len(long_))
        pts = [(j, i) for g in chosen for j in occ[g] for i in pos_s[g]]
    pts.sort()
    return list(map(itemgetter(0), pts)), list(map(itemgetter(1), pts))


def _choose_rare(cs: Counter, cl: Counter, size: int) -> set[str]:
    """k-grams occurring at most RARE_MAX times on each side, rarest first, within a pair budget."""
    by_weight: dict[int, list[str]] = defaultdict(list)
    for g, c2 in cl.items():
        c = cs.get(g, 0)
        if c and c <= RARE_MAX and c2 <= RARE_MAX:
            by_weight[c * c2].append(g)
    cap = PAIR_FACTOR * size
    chosen: set[str] = set()
    total = 0
    for w in sorted(by_weight):
        grams = by_weight[w]
        if total + w * len(grams) > cap:
            # take an evenly spread subset of this weight class, then stop
            room = (cap - total) // w
            if room > 0:
                step = len(grams) / room
                chosen.update(grams[int(t * step)] for t in range(room))
            break
        chosen.update(grams)
        total += w * len(grams)
    return chosen


def _lis(firsts: list[int], js: list[int]) -> tuple[list[int], list[int]]:
    """Longest chain strictly increasing in both coordinates, of the points ``(firsts[t], js[t])``; the chain's
    points as two lists the same way.

    The points are sorted by i (ties by j ascending).  Points sharing an i are fed in
    decreasing j so that at most one of them enters a chain (Hunt-Szymanski).
    """
    # two texts that read alike give points already in one chain (their every unique k-gram in the same
    # order): then the longest chain is all of them, and one pass in C finds it, not a bisection per point
    if _increasing(firsts) and _increasing(js):
        return firsts, js
    npts = len(firsts)
    # reorder each equal-i group to decreasing j: the groups' starts found in C, a step per group (most are
    # of one point), where the reordering stepped through every point
    starts = list(compress(range(1, npts), map(ne, firsts[1:], firsts)))
    order: Iterable[int]
    if len(starts) == npts - 1:
        order = range(npts)
    else:
        order = []
        t = 0
        for u in starts + [npts]:
            order.extend(range(u - 1, t - 1, -1))
            t = u
    tails: list[int] = []  # smallest j ending a chain of each length
    tail_idx: list[int] = []
    prev = [-1] * npts
    longest = 0
    for idx in order:
        j = js[idx]
        pos = bisect_left(tails, j)
        if pos == longest:
            tails.append(j)
            tail_idx.append(idx)
            longest += 1
        else:
            tails[pos] = j
            tail_idx[pos] = idx
        if pos:
            prev[idx] = tail_idx[pos - 1]
    chain: list[int] = []
    idx = tail_idx[-1] if tail_idx else -1
    while idx >= 0:
        chain.append(idx)
        idx = prev[idx]
    chain.reverse()
    return list(map(firsts.__getitem__, chain)), list(map(js.__getitem__, chain))


def _increasing(xs: Iterable[int]) -> bool:
    """Is ``xs`` strictly increasing?"""
    a, b = tee(xs)
    next(b, None)
    return all(map(lt, a, b))


def _chain_to_blocks(
    xs: list[int], ys: list[int], k: int, alo: int, blo: int
) -> list[tuple[int, int, int]]:
    """k-gram match points ``(xs[t], ys[t])`` -> non-overlapping blocks in absolute coordinates."""
    runs: list[list[int]] = []
    for i, j in zip(xs, ys):
        if runs:
            r = runs[-1]
            if i - r[0] == j - r[1] and i <= r[0] + r[2]:
                r[2] = i + k - r[0]
                continue
        runs.append([i, j, k])
    blocks: list[tuple[int, int, int]] = []
    ea = eb = 0
    for i, j, length in runs:
        d = max(ea - i, eb - j, 0)
        if d >= length:
            continue
        i += d
        j += d
        length -= d
        blocks.append((alo + i, blo + j, length))
        ea, eb = i + length, j + length
    return blocks


# --------------------------------------------------------------------------
# post-processing
# --------------------------------------------------------------------------


def _dissolve_chaff(blocks: list[tuple[int, int, int]], n: int, m: int) -> list[tuple[int, int, int]]:
    """Drop short matches stranded between substantial two-sided changes (see module doc)."""
    if len(blocks) < 1:
        return blocks
    out: list[tuple[int, int, int]] = [(0, 0, 0)]
    for nxt in blocks + [(n, m, 0)]:
        while len(out) >= 2:
            ci, cj, cl = out[-1]
            if cl > CHAFF_MAX_EQUAL:
                break
            pi, pj, pl = out[-2]
            dl, il = ci - (pi + pl), cj - (pj + pl)
            dr, ir = nxt[0] - (ci + cl), nxt[1] - (cj + cl)
            if not (dl or il) or not (dr or ir):  # touches another match or an end
                break
            # only substitutions count as evidence: omissions/additions do not
            if min(dl, il) + min(dr, ir) <= CHAFF_RATIO * cl:
                break
            out.pop()
        out.append(nxt)
    return [blk for blk in out[1:-1]]


def _slide_right(blocks: list[tuple[int, int, int]], X: str, Y: str) -> list[tuple[int, int, int]]:
    """Canonical place for pure omissions/additions: as far right as they can go.

    ``射射袒`` / ``射袒`` can drop either 射; the choice is made here, always the
    same way, by sliding a pure delete (insert) right while its first key
    equals the key after it.  Right, because the material one witness lacks
    (注, 疏, 音義, a 案 note) begins with its label and often ends by echoing the
    text before it (a 疏 quoting the last words of the 注): the rightmost place
    keeps the label at the start of the omitted block.  The following match
    keeps at least one key, so the change never merges with another change.
    This also puts the two halves of a transposition in the same phase, so that
    their keys are identical.
    """
    out = list(blocks)
    for t in range(1, len(out)):
        pi, pj, pl = out[t - 1]
        ci, cj, cl = out[t]
        dl, il = ci - (pi + pl), cj - (pj + pl)
        if dl and il or not (dl or il):
            continue
        seq, start, end = (X, pi + pl, ci) if dl else (Y, pj + pl, cj)
        s = 0
        while s < cl - 1 and seq[start + s] == seq[end + s]:
            s += 1
        if s:
            out[t - 1] = (pi, pj, pl + s)
            out[t] = (ci + s, cj + s, cl - s)
    return out


def _join_lone_matches(blocks: list[tuple[int, int, int]], X: str, Y: str) -> list[tuple[int, int, int]]:
    """One omission, not two around a stray match: a match of at most ``CHAFF_MAX_EQUAL`` keys between two
    omissions (or two additions) of the same side, whose keys the far end of the second one holds as well,
    moves there and joins the match after it.

    ``畢北面鄭注北面立`` / ``面立`` is one omission ``畢北面鄭注北`` before ``面立``, not ``畢北``, ``面``,
    ``鄭注北面``: both keep as many matches, and which ``面`` is kept is a tie that a range's edge decides
    (Myers' ties go to deletions first from wherever its range begins, and a long range is cut in pieces:
    :func:`_middle_cut`); the text one witness lacks is one stretch.  Only between two changes of one kind:
    ``則讀之讀之`` / ``而讀之`` stays ``則``→``而`` and ``讀之`` lacking (a dittography), where a substitution
    ``則讀之``→``而`` would hide it.
    """
    out = list(blocks)
    t = 1
    while t < len(out) - 1:
        pi, pj, pl = out[t - 1]
        ci, cj, cl = out[t]
        ni, nj, nl = out[t + 1]
        bi, bj = ci - (pi + pl), cj - (pj + pl)  # the change before it
        ai, aj = ni - (ci + cl), nj - (cj + cl)  # the change after it
        if cl <= CHAFF_MAX_EQUAL and (
            (bi and ai and not bj and not aj and X[ni - cl : ni] == X[ci : ci + cl])
            or (bj and aj and not bi and not ai and Y[nj - cl : nj] == Y[cj : cj + cl])
        ):
            out[t : t + 2] = [(ni - cl, cj, cl + nl) if ai else (ci, nj - cl, cl + nl)]
            continue
        t += 1
    return out


def _blocks_to_ops(blocks: list[tuple[int, int, int]], n: int, m: int) -> list[Op]:
    ops: list[Op] = []
    ca = cb = 0
    for i, j, length in blocks + [(n, m, 0)]:
        if i > ca and j > cb:
            ops.append(Op("replace", ca, i, cb, j))
        elif i > ca:
            ops.append(Op("delete", ca, i, cb, cb))
        elif j > cb:
            ops.append(Op("insert", ca, ca, cb, j))
        if length:
            ops.append(Op("equal", i, i + length, j, j + length))
        ca, cb = i + length, j + length
    return ops


def _detect_transpositions(ops: list[Op], A: str, B: str) -> list[Op]:
    # 1. replace ops whose b side is a rotation of the a side (AB / BA)
    if any(op.kind == "replace" for op in ops):
        new: list[Op] = []
        for op in ops:
            if op.kind == "replace" and op.a1 - op.a0 == op.b1 - op.b0 >= 2:
                new.extend(_split_rotation(op, A, B))
            else:
                new.append(op)
        ops = new

    # 2. delete/insert pairs with identical keys, each allowed to slide within
    #    its neighbouring matches (an omission next to a copy of its own first
    #    or last key has several equivalent places)
    dels = [t for t, op in enumerate(ops) if op.kind == "delete"]
    inss = [t for t, op in enumerate(ops) if op.kind == "insert"]
    if not dels or not inss:
        return ops
    ins_by_key: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for u in inss:
        op = ops[u]
        for su in _slides(ops, u, B, op.b0, op.b1):
            ins_by_key[B[op.b0 + su : op.b1 + su]].append((op.a0 + su, u, su))
    for lst in ins_by_key.values():
        lst.sort()
    cands: list[tuple[int, ...]] = []
    for t in dels:
        d = ops[t]
        length = d.a1 - d.a0
        window = min(TRANSPOSE_WINDOW_MAX, TRANSPOSE_WINDOW_PER_KEY * length)
        for sd in _slides(ops, t, A, d.a0, d.a1):
            lst = ins_by_key.get(A[d.a0 + sd : d.a1 + sd], [])
            if not lst:
                continue
            da0, da1, db = d.a0 + sd, d.a1 + sd, d.b0 + sd
            lo = bisect_left(lst, (da0 - window - 1, -1, -SLIDE_CAP - 1))
            hi = bisect_right(lst, (da1 + window + 1, len(ops), SLIDE_CAP + 1))
            for ia, u, su in lst[lo:hi]:
                ins = ops[u]
                ib0, ib1 = ins.b0 + su, ins.b1 + su
                if u > t:
                    gap = max(ia - da1, ib0 - db)
                else:
                    gap = max(da0 - ia, db - ib1)
                between = -1  # length of the single match between them, if any
                if abs(u - t) == 2:
                    mid = ops[(u + t) // 2]
                    first, second = (sd, su) if t < u else (su, sd)
                    between = (mid.a1 - mid.a0) - first + second
                    if mid.kind != "equal" or between < 1:
                        continue  # the match in between would vanish
                if not (length >= TRANSPOSE_MIN and gap <= window) and not (
                    1 <= between <= SWAP_MAX_JUMP  # adjacent swap (误倒)
                ):
                    continue
                first, second = (sd, su) if t < u else (su, sd)
                cands.append((gap, min(t, u), max(t, u), abs(sd) + abs(su), first, second, t, u, sd, su))
    if not cands:
        return ops
    # greedy, nearest first; ties broken by position only (keeps align symmetric)
    cands.sort()
    cur = [[op.a0, op.a1, op.b0, op.b1] for op in ops]  # kinds stay in ops
    moved: dict[int, int] = {}
    used: set[int] = set()
    for *_, t, u, sd, su in cands:
        if t in used or u in used:
            continue
        # each slid op moves the end of the match before it and the start of
        # the match after it; every such match must keep at least one key
        delta: dict[int, list[int]] = defaultdict(lambda: [0, 0])  # index -> [start shift, end shift]
        for x, sh in ((t, sd), (u, su)):
            if sh:
                delta[x - 1][1] += sh
                delta[x + 1][0] += sh
        if any(
            not (0 <= x < len(cur)) or ops[x].kind != "equal" or (cur[x][1] + e) - (cur[x][0] + st) < 1
            for x, (st, e) in delta.items()
        ):
            continue
        for x, (st, e) in delta.items():
            cur[x][0] += st
            cur[x][2] += st
            cur[x][1] += e
            cur[x][3] += e
        for x, sh in ((t, sd), (u, su)):
            cur[x][0] += sh
            cur[x][1] += sh
            cur[x][2] += sh
            cur[x][3] += sh
        used.add(t)
        used.add(u)
        moved[t] = u
    result: list[Op] = []
    for t, (a0, a1, b0, b1) in enumerate(cur):
        if t in moved:
            u = moved[t]
            result.append(Op("transpose", a0, a1, cur[u][2], cur[u][3]))
        elif t not in used:  # (a used insert is absorbed into its transposition)
            result.append(Op(ops[t].kind, a0, a1, b0, b1))
    return result


def _slides(ops: list[Op], t: int, seq: str, s0: int, s1: int) -> list[int]:
    """Shifts (0 first) by which the pure delete/insert ``ops[t]`` can slide.

    ``seq[s0:s1]`` is its non-empty side.  Sliding by one to the right is
    possible when its first key equals the key after it, to the left when its
    last key equals the key before it; the neighbouring equal op must keep at
    least one key.  At most ``SLIDE_CAP`` each way.
    """
    out = [0]
    if t + 1 < len(ops) and ops[t + 1].kind == "equal":
        room = min(SLIDE_CAP, ops[t + 1].a1 - ops[t + 1].a0 - 1)
        r = 0
        while r < room and seq[s0 + r] == seq[s1 + r]:
            r += 1
            out.append(r)
    if t > 0 and ops[t - 1].kind == "equal":
        room = min(SLIDE_CAP, ops[t - 1].a1 - ops[t - 1].a0 - 1)
        r = 0
        while r < room and seq[s0 - r - 1] == seq[s1 - r - 1]:
            r += 1
            out.append(-r)
    return out


def _split_rotation(op: Op, A: str, B: str) -> list[Op]:
    sa = A[op.a0 : op.a1]
    sb = B[op.b0 : op.b1]
    p = len(sa)
    k = (sa + sa).find(sb, 1)
    if k <= 0 or k >= p:
        return [op]
    # sa = H1 + H2 with len(H1) == k; sb = H2 + H1
    h1, h2 = k, p - k
    if min(h1, h2) < TRANSPOSE_MIN and max(h1, h2) > SWAP_MAX_JUMP:
        return [op]
    if h1 <= h2:  # H1 moved behind H2
        return [
            Op("transpose", op.a0, op.a0 + h1, op.b0 + h2, op.b1),
            Op("equal", op.a0 + h1, op.a1, op.b0, op.b0 + h2),
        ]
    return [  # H2 moved in front of H1
        Op("equal", op.a0, op.a0 + h1, op.b0 + h2, op.b1),
        Op("transpose", op.a0 + h1, op.a1, op.b0, op.b0 + h2),
    ]


# --------------------------------------------------------------------------
# align_texts helpers
# --------------------------------------------------------------------------


def _map_side(ops: list[Op], pos: Sequence[int], length: int, side: str) -> list[tuple[int, int]]:
    """String ranges of every op on one side (see :func:`align_texts`).  (Each op's range in two flat lists,
    indexed by the op: a dict of two-item lists before, made and looked up per op of every alignment.)"""
    spans = [(op.a0, op.a1) for op in ops] if side == "a" else [(op.b0, op.b1) for op in ops]
    nonempty = [t for t, (k0, k1) in enumerate(spans) if k0 < k1]
    nonempty.sort(key=lambda t: spans[t][0])
    starts = [0] * len(ops)
    ends = [0] * len(ops)
    for t in nonempty:
        k0, k1 = spans[t]
        starts[t] = pos[k0]
        ends[t] = pos[k1 - 1] + 1
    # distribute the ignorables between consecutive ops
    last = len(nonempty) - 1
    for x, t in enumerate(nonempty):
        if x == 0:
            starts[t] = 0
        if x == last:
            ends[t] = length
            continue
        u = nonempty[x + 1]
        gap0, gap1 = ends[t], starts[u]
        if gap1 == gap0:
            continue
        if ops[t].kind != "equal" and ops[u].kind == "equal":
            starts[u] = gap0
        else:
            ends[t] = gap1
    # points: end of the range of the op holding the preceding key
    end_of_key = {spans[t][1]: ends[t] for t in nonempty}  # key index k -> string end of the op ending at k
    out: list[tuple[int, int]] = []
    for t, (k0, k1) in enumerate(spans):
        if k0 < k1:
            out.append((starts[t], ends[t]))
        else:
            p = end_of_key.get(k0, 0) if k0 > 0 else 0
            out.append((p, p))
    return out
