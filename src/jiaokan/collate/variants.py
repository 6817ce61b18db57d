"""From an edit script to typed variants, and from per-witness variants to apparatus entries.

Typing (GUIDE §4): characters whose keys agree differ only in script (not
reported: a simplified witness would otherwise differ everywhere from a
traditional one), in variant form (``orthographic``) or by a taboo form
(``taboo``); characters whose keys differ are ``substantive`` unless the pair
is a typed taboo substitution (玄/元); a missing stretch is an ``omission``
of the witness, an extra one an ``addition``, a moved one a ``transposition``.
A difference that involves nothing but unknown characters (:data:`~jiaokan.model.UNKNOWN_MARKS`:
an unresolved gaiji, a private-use glyph, a transcriber's □) on either side is ``uncertain``: 棗 against an
unknown character is a gap in knowledge, not a substantive reading.
An ``orthographic`` variant carries the source of that decision as its subtype (``unihan``, ``yitizi``,
``ids``, ``hand``, ``gaiji``, ``learned``: :func:`jiaokan.normalize.relation.orthographic_source`).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from itertools import compress, islice
from operator import ne
from typing import Callable, Iterable, Sequence

from ..model import UNKNOWN_MARKS
from ..normalize import is_ignorable, key, relation
from ..normalize.fold import key_string
from ..normalize.ignorable import kept_offsets
from ..normalize.relation import orthographic_source
from ..normalize.script import t2s_char
from .align import Op
from .layertext import LayerText
from .model import App, Reading, strongest

#: characters of the base's text on each side of a lemma in an entry's context
CONTEXT = 8


def cut_context(text: str, start: int, end: int) -> str:
    """An entry's context: the lemma (``text[start:end]``) in 【】 with :data:`CONTEXT` characters on each side.
    One home: the lean JSON stores the lemma's offset and cuts the context again with it."""
    return f"{text[max(0, start - CONTEXT):start]}【{text[start:end]}】{text[end:end + CONTEXT]}"


@dataclass
class WitVariant:
    """One difference of one witness from the base, in layer-text offsets."""

    a0: int
    a1: int
    b0: int
    b1: int
    type: str
    subtype: str | None = None


def _key_positions(text: str, lo: int, hi: int, skip: Callable[[str], bool],
                   kept: Sequence[int] | None = None) -> Sequence[int]:
    """The offsets in ``text[lo:hi]`` of the characters ``skip`` keeps.

    ``kept``: ``kept_positions(text)`` (the collation's :meth:`LayerText.kept`), when ``skip`` is
    :func:`is_ignorable`: then a slice of it found by bisection, where each stretch of an alignment
    (an ``equal`` op is often a whole passage) was translated again, character by character.
    """
    if skip is is_ignorable:
        if kept is not None:
            return kept[bisect_left(kept, lo):bisect_left(kept, hi)]
        return kept_offsets(text, lo, hi)  # the same, in C
    return [i for i in range(lo, hi) if not skip(text[i])]


def _tight(text: str, lo: int, hi: int, skip: Callable[[str], bool],
           kept: Sequence[int] | None = None) -> tuple[int, int]:
    """Shrink [lo, hi) to its first and last key character (punctuation stays outside).

    With ``kept`` (as for :func:`_key_positions`) the two are found by bisection alone: the offsets between
    them were copied out (a slice of the array) for the two ends, and a reading is often a whole passage."""
    if kept is not None and skip is is_ignorable:
        i, j = bisect_left(kept, lo), bisect_left(kept, hi)
        return (kept[i], kept[j - 1] + 1) if i < j else (lo, lo)
    pos = _key_positions(text, lo, hi, skip, kept)
    return (pos[0], pos[-1] + 1) if pos else (lo, lo)


def _point_after_key(text: str, pos: int, skip: Callable[[str], bool]) -> int:
    """The insertion point right after the last key character before ``pos``."""
    i = min(pos, len(text)) - 1
    while i >= 0 and skip(text[i]):
        i -= 1
    return i + 1


def classify(ops: list[Op], a: str, b: str, skip: Callable[[str], bool],
             simplified: bool = False, kept: tuple[Sequence[int], Sequence[int]] | None = None) -> list[WitVariant]:
    """Typed differences of ``b`` (a witness) from ``a`` (the base).

    ``kept``: ``(kept_positions(a), kept_positions(b))`` when the caller has them (``skip`` is
    :func:`is_ignorable`)."""
    ka_, kb_ = kept if kept is not None else (None, None)
    out: list[WitVariant] = []
    for op in ops:
        if op.kind == "equal":
            if op.a1 - op.a0 == op.b1 - op.b0 and a[op.a0:op.a1] == b[op.b0:op.b1]:
                continue  # the same characters, punctuation and all: nothing to type (most of a text; the
                # lengths first: stretches whose punctuation differs are not copied to be compared)
            pa = _key_positions(a, op.a0, op.a1, skip, ka_)
            pb = _key_positions(b, op.b0, op.b1, skip, kb_)
            sa = a[op.a0:op.a1] if len(pa) == op.a1 - op.a0 else "".join(map(a.__getitem__, pa))
            sb = b[op.b0:op.b1] if len(pb) == op.b1 - op.b0 else "".join(map(b.__getitem__, pb))  # (no punctuation)
            if sa == sb:
                continue  # the same characters, the punctuation aside (most such stretches): compared whole, in
                # one memcmp, where the step below made and compared a pair of characters for each of them
            # the pairs whose characters differ, found in C (the punctuation differs, the characters mostly
            # do not: a Python step per character of every such stretch was most of the typing)
            for t in compress(range(min(len(pa), len(pb))), map(ne, sa, sb)):
                i, j = pa[t], pb[t]
                ca, cb = a[i], b[j]
                if t2s_char(ca) == t2s_char(cb):
                    continue  # a difference of script only
                rel = relation(ca, cb, simplified=simplified)
                if rel == "taboo":
                    out.append(WitVariant(i, i + 1, j, j + 1, "taboo"))
                else:
                    out.append(WitVariant(i, i + 1, j, j + 1, "orthographic", orthographic_source(ca, cb)))
        elif op.kind == "replace":
            a0, a1 = _tight(a, op.a0, op.a1, skip, ka_)
            b0, b1 = _tight(b, op.b0, op.b1, skip, kb_)
            ka = [a[i] for i in _key_positions(a, a0, a1, skip, ka_)]
            kb = [b[j] for j in _key_positions(b, b0, b1, skip, kb_)]
            vtype, sub = "substantive", None
            if _only_unknown(ka, kb, simplified):
                vtype = "uncertain"
            elif len(ka) == len(kb):
                rels = [relation(x, y, simplified=simplified) for x, y in zip(ka, kb)]
                if all(r in ("taboo", "orthographic", "identical") for r in rels) and "taboo" in rels:
                    vtype = "taboo"
                elif all(r in ("orthographic", "identical") for r in rels):
                    # keys differ, yet every pair is one character: a pair of the alignment a scholar accepted
                    vtype = "orthographic"
                    srcs = {orthographic_source(x, y) for x, y, r in zip(ka, kb, rels) if r == "orthographic"}
                    sub = srcs.pop() if len(srcs) == 1 else None
                elif all(r in ("minor", "taboo", "orthographic", "identical") for r in rels):
                    sub = "minor"
            out.append(WitVariant(a0, a1, b0, b1, vtype, sub))
        elif op.kind == "delete":
            a0, a1 = _tight(a, op.a0, op.a1, skip, ka_)
            p = _point_after_key(b, op.b0, skip)
            gone = [a[i] for i in _key_positions(a, a0, a1, skip, ka_)]
            out.append(WitVariant(a0, a1, p, p, "uncertain" if gone and set(gone) <= UNKNOWN_MARKS else "omission"))
        elif op.kind == "insert":
            b0, b1 = _tight(b, op.b0, op.b1, skip, kb_)
            p = _point_after_key(a, op.a0, skip)
            extra = [b[j] for j in _key_positions(b, b0, b1, skip, kb_)]
            out.append(WitVariant(p, p, b0, b1, "uncertain" if extra and set(extra) <= UNKNOWN_MARKS else "addition"))
        elif op.kind == "transpose":
            a0, a1, b0, b1 = _transposed_stretch(ops, op, a, b, skip, kept)
            out.append(WitVariant(a0, a1, b0, b1, "transposition"))
    return out


def _only_unknown(ka: list[str], kb: list[str], simplified: bool) -> bool:
    """Is every difference between the key characters ``ka`` and ``kb`` one that involves an unknown character?

    Yes when one side is all unknown (棗 against �), when position by position every pair
    that differs has an unknown in it (大棗 against 大□), or when the two agree once the
    unknown characters are set aside.
    """
    unknown = UNKNOWN_MARKS
    if not (unknown & set(ka) or unknown & set(kb)):
        return False
    if set(ka) <= unknown or set(kb) <= unknown:
        return True

    def same(x: str, y: str) -> bool:
        return relation(x, y, simplified=simplified) in ("identical", "orthographic")

    if len(ka) == len(kb):
        return all(x in unknown or y in unknown or same(x, y) for x, y in zip(ka, kb))
    ra, rb = [x for x in ka if x not in unknown], [y for y in kb if y not in unknown]
    return len(ra) == len(rb) and all(same(x, y) for x, y in zip(ra, rb))


def _transposed_stretch(ops: list[Op], op: Op, a: str, b: str, skip: Callable[[str], bool],
                        kept: tuple[Sequence[int], Sequence[int]] | None = None) -> tuple[int, int, int, int]:
    """The whole stretch a transposition affects on each side: 之席 against 席之, not 席 against 席.

    The aligner reports only the moved segment; a reader wants to see it with
    what it jumped over, so the span runs from the segment to where it went.
    """
    ka, kb = kept if kept is not None else (None, None)
    a0, a1 = _tight(a, op.a0, op.a1, skip, ka)
    b0, b1 = _tight(b, op.b0, op.b1, skip, kb)
    others = [o for o in ops if o.kind != "transpose"]
    # where b0 falls in a: the a-start of the first op at or after b0 in b order
    pa = next((o.a0 for o in others if o.b0 >= op.b1 or o.b1 > op.b0), len(a))
    # where a0 falls in b: the b-end of the last op ending at or before a0
    pb = next((o.b1 for o in reversed(others) if o.a1 <= op.a0), 0)
    la0, la1 = _tight(a, min(a0, pa), max(a1, pa), skip, ka)
    lb0, lb1 = _tight(b, min(b0, pb), max(b1, pb), skip, kb)
    return la0, la1, lb0, lb1


def _witness_span(ops: list[Op], a: str, b: str, s: int, e: int, skip: Callable[[str], bool],
                  ends: list[int] | None = None,
                  kept: tuple[Sequence[int], Sequence[int]] | None = None) -> tuple[int, int]:
    """The stretch of ``b`` that stands where ``a[s:e]`` stands (for merged apparatus entries).

    ``ends``: ``[op.a1 for op in ops]``, for a caller that asks about many stretches of one alignment;
    ``kept``: ``(kept_positions(a), kept_positions(b))``, as for :func:`classify`.
    """
    ka, kb = kept if kept is not None else (None, None)
    lo: int | None = None
    hi: int | None = None
    # the ops tile ``a`` in order: start at the first that does not end before ``s`` (a bisection, not a
    # walk from the row's start for every entry, which made a row's entries cost its ops squared)
    first = bisect_left(ends if ends is not None else [op.a1 for op in ops], s)
    for op in islice(ops, first, None):
        if op.kind == "transpose":
            continue
        if op.a1 <= s and not (op.a0 == op.a1 == s):
            continue
        if op.a0 >= e and not (s == e == op.a0):
            break
        if op.kind == "equal":
            if ka is not None and kb is not None and skip is is_ignorable:
                # the op's key offsets are a stretch of each side's ``kept``: bisected in place, not copied out
                ia0, ia1 = bisect_left(ka, op.a0), bisect_left(ka, op.a1)
                ib0 = bisect_left(kb, op.b0)
                t0 = bisect_left(ka, s, ia0, ia1) - ia0
                t1 = min(bisect_left(ka, e, ia0, ia1) - ia0, bisect_left(kb, op.b1) - ib0)
                if t0 < t1:
                    f0, f1 = kb[ib0 + t0], kb[ib0 + t1 - 1] + 1
                    lo = f0 if lo is None else min(lo, f0)
                    hi = f1 if hi is None else max(hi, f1)
                continue
            pa = _key_positions(a, op.a0, op.a1, skip, ka)
            pb = _key_positions(b, op.b0, op.b1, skip, kb)
            # the pairs (pa[t], pb[t]) ascend on both sides: those with s <= pa[t] < e are a run of t
            t0, t1 = bisect_left(pa, s), min(bisect_left(pa, e), len(pb))
            if t0 < t1:
                lo = pb[t0] if lo is None else min(lo, pb[t0])
                hi = pb[t1 - 1] + 1 if hi is None else max(hi, pb[t1 - 1] + 1)
        else:
            b0, b1 = _tight(b, op.b0, op.b1, skip, kb)
            if b1 > b0 or lo is None:
                lo = b0 if lo is None else min(lo, b0)
                hi = b1 if hi is None else max(hi, b1)
    if lo is None:
        p = 0
        return p, p
    return lo, hi if hi is not None else lo


def _trimmed(text: str, lo: int, hi: int, skip: Callable[[str], bool], kept: Sequence[int] | None = None) -> str:
    t0, t1 = _tight(text, lo, hi, skip, kept)
    return text[t0:t1]


def _reads_alike(x: str, y: str, skip: Callable[[str], bool]) -> bool:
    """Whether two stretches read alike as the collation compares them: the same keys, what ``skip`` ignores
    left out (a character nobody could read has a key of its own at every making: it never reads alike).
    With the collation's own ``skip``, the two key strings made in C (:func:`key_string`), where each is one
    code point a key; else a key per character."""
    if skip is is_ignorable:
        kx, ky = key_string(x), key_string(y)
        if kx is not None and ky is not None:
            return kx == ky
    return [key(c) for c in x if not skip(c)] == [key(c) for c in y if not skip(c)]


def entry_subtype(vtype: str, typed: Iterable[tuple[str, str | None]]) -> str | None:
    """The subtype of an entry of type ``vtype`` that holds variants of these (type, subtype): the one subtype
    every variant *of the entry's type* shares ("minor", or the source of an orthographic decision), else None.

    Why only those of its type: the subtype qualifies the type.  An entry 賓已 / 賔巳 holds an orthographic 賓/賔
    (subtype unihan) and a minor substantive 已/巳; it is substantive, and its substantive difference is minor,
    as the same 已/巳 alone is.  Asking every variant for one subtype made it a plain substantive: a 古今字 the
    apparatus then counted among the readings."""
    subs = {sub for t, sub in typed if t == vtype}
    return subs.pop() if len(subs) == 1 else None


def merge_apps(
    row: str,
    layer: str,
    base: str,
    base_text: LayerText,
    wit_texts: dict[str, LayerText],
    wit_ops: dict[str, list[Op]],
    wit_vars: dict[str, list[WitVariant]],
    skip: Callable[[str], bool],
    next_id: Callable[[], str],
) -> list[App]:
    """One apparatus entry per base location where any witness differs.

    Variants of different witnesses that overlap are merged into one entry over
    the union of their spans (parallel segmentation cannot overlap); each
    witness's reading over that union is then read off its own alignment.
    """
    items = sorted(
        ((v.a0, v.a1, s, v) for s, vs in wit_vars.items() for v in vs),
        key=lambda t: (t[0], t[1]),
    )
    groups: list[tuple[int, int, list[tuple[str, WitVariant]]]] = []
    for a0, a1, s, v in items:
        if groups:
            g0, g1, members = groups[-1]
            overlap = (a0 < g1 and a1 > g0) or (a0 == a1 == g0 == g1) or (a0 == a1 and g0 < a0 < g1) \
                or (g0 == g1 and a0 < g0 < a1)
            if overlap:
                groups[-1] = (min(g0, a0), max(g1, a1), members + [(s, v)])
                continue
        groups.append((a0, a1, [(s, v)]))

    apps: list[App] = []
    a = base_text.text
    ends = {s: [op.a1 for op in ops] for s, ops in wit_ops.items()}
    # the texts' key offsets, made once per text (LayerText.kept), when they are what ``skip`` keeps
    own = skip is is_ignorable
    kept = {s: (base_text.kept(), lt.kept()) for s, lt in wit_texts.items()} if own else {}
    for g0, g1, members in groups:
        unit, page, line, col = base_text.place(g0 if g1 > g0 else max(g0 - 1, 0))
        lem = Reading(base, a[g0:g1], g0, g1, unit, page, line, None, col)
        readings: dict[str, Reading] = {}
        types: list[str] = []
        typed: list[tuple[str, str | None]] = []  # (type, subtype) of every variant the entry holds
        by_wit: dict[str, list[WitVariant]] = {}
        for s, v in members:
            by_wit.setdefault(s, []).append(v)
        for s, lt in wit_texts.items():
            vs = by_wit.get(s)
            b = lt.text
            if not vs:
                b0, b1 = _witness_span(wit_ops[s], a, b, g0, g1, skip, ends[s], kept.get(s)) if g1 > g0 \
                    else (0, 0)
                u, pg, ln, cl = lt.place(b0)
                if g1 > g0 and not _reads_alike(a[g0:g1], b[b0:b1], skip):
                    # no variant of its own here, yet it does not read as the base over the entry's span (it
                    # starts or ends inside it, at a layer's edge: 集释 quotes the 鄭目錄 in the 注 where the
                    # others have none, and the 注疏's 贄 for 摯 made the entry): "agree" would say it reads the
                    # base's text; its reading is given, typed uncertain
                    readings[s] = Reading(s, _trimmed(b, b0, b1, skip, lt.kept() if own else None), b0, b1, u, pg,
                                          ln, "uncertain", cl)
                    types.append("uncertain")
                    continue
                readings[s] = Reading(s, b[b0:b1] if g1 > g0 else "", b0, b1, u, pg, ln, "agree", cl)
                continue
            if len(vs) == 1 and (vs[0].a0, vs[0].a1) == (g0, g1):
                b0, b1 = vs[0].b0, vs[0].b1
                vtype = vs[0].type
                typed.append((vtype, vs[0].subtype))
            else:
                b0, b1 = _witness_span(wit_ops[s], a, b, g0, g1, skip, ends[s], kept.get(s))
                vtype = strongest([v.type for v in vs])
                typed.extend((v.type, v.subtype) for v in vs)
            at = b0 if b1 > b0 else max(b0 - 1, 0)
            u, pg, ln, cl = lt.place(at)
            text = _trimmed(b, b0, b1, skip, lt.kept() if own else None)
            readings[s] = Reading(s, text, b0, b1, u, pg, ln, vtype, cl)
            types.append(vtype)
        if not types:
            continue
        context = cut_context(a, g0, g1)
        vtype = strongest(types)
        apps.append(App(next_id(), row, layer, vtype, lem, readings, context, entry_subtype(vtype, typed)))
    return apps
