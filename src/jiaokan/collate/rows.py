"""Passage rows: which units of each witness hold the same stretch of 经.

Witnesses cut the 经 into passages differently (the 注疏 comments after longer
stretches than the 集释), so a row is the smallest group of consecutive
passages of every witness whose 经 align with each other.  The 经 of a whole
chapter is aligned once per witness against the base (near-linear, see
:mod:`.align`), aligned characters link their passages, and connected passages
form a row.  Units without 经 (prefaces, headings) ride with the next passage; one of commentary
alone (a 注 resumed after a lost page) joins the row whose commentary it reads.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from itertools import compress
from operator import le, ne
from typing import Callable

from ..model import COMMENTARY_LAYERS, Unit, Witness
from ..normalize.fold import key_string
from ..normalize.fold import key as fold_key
from ..normalize.ignorable import is_ignorable
from .align import align
from .model import Row

KeyFn = Callable[[str], str]
SkipFn = Callable[[str], bool]


def body_units(w: Witness) -> list[Unit]:
    """Units of the chapter/section divisions (front and back matter are not collated)."""
    return [u for d in w.divs if d.type not in ("front", "back") for u in d.units]


def jing_keys(units: list[Unit]) -> list[tuple[int, str]] | None:
    """``(index, keys of its 经)`` of each unit with 经, in order (:func:`~jiaokan.normalize.fold.key_string`),
    or None if a key is not one code point.  Why apart: the repeated-text check and the passage rows both read
    them, and the collation makes them once for both (:func:`jiaokan.collate.engine.collate`)."""
    out: list[tuple[int, str]] = []
    for i, u in enumerate(units):
        jing = u.jing
        if jing is None:
            continue
        got = key_string(jing.text)
        if got is None:
            return None
        out.append((i, got))
    return out


def _jing_stream(units: list[Unit], key: KeyFn, skip: SkipFn,
                 jing: list[tuple[int, str]] | None = None) -> tuple[str | list[str], list[int]]:
    if key is fold_key and skip is is_ignorable:  # the collation's own: each passage's keys at once, in C
        got = jing if jing is not None else jing_keys(units)
        if got is not None:
            own: list[int] = []
            for i, k in got:
                own.extend([i] * len(k))
            return "".join(k for _, k in got), own
    keys: list[str] = []
    owner: list[int] = []
    for i, u in enumerate(units):
        if u.jing is None:
            continue
        for ch in u.jing.text:
            if not skip(ch):
                keys.append(key(ch))
                owner.append(i)
    return keys, owner


REPLACE_LINK_MAX = 24
LINK_MIN_SHARED = 4


def _small(n: int, m: int) -> bool:
    return n <= REPLACE_LINK_MAX and m <= REPLACE_LINK_MAX


def _linked(shared: int, len_a: int, len_b: int) -> bool:
    """Two passages belong to one row when they share enough aligned characters.

    A stray short match (two passages that both open with 司射) must not glue
    distant passages together; a short passage (无介) shares all it has.
    """
    return shared >= LINK_MIN_SHARED or shared * 2 >= min(len_a, len_b)


class _Union:
    """Union-find over the passages of every witness, each a number: witness ``s``'s unit ``i`` is
    ``offset[s] + i``.  Why numbers in a list, not ``(siglum, index)`` keys in a dict: a find was a tuple
    hashed and compared per step, and a dict of a whole book's passages grows by resizing; the rows come out
    the same, as they depend only on which passages end up together."""

    def __init__(self, sizes: dict[str, int]) -> None:
        self.offset: dict[str, int] = {}
        total = 0
        for s, n in sizes.items():
            self.offset[s] = total
            total += n
        self.parent = list(range(total))

    def node(self, s: str, i: int) -> int:
        return self.offset[s] + i

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def passage_rows(base: str, witnesses: dict[str, Witness], key: KeyFn, skip: SkipFn,
                 jing: dict[str, list[tuple[int, str]] | None] | None = None) -> list[Row]:
    """The rows of ``witnesses`` (see the module).  ``jing``: each witness's :func:`jing_keys` of its
    :func:`body_units`, when the caller has them (``key`` and ``skip`` the collation's own)."""
    units = {s: body_units(w) for s, w in witnesses.items()}
    streams = {s: _jing_stream(units[s], key, skip, (jing or {}).get(s)) for s in witnesses}
    uf = _Union({s: len(us) for s, us in units.items()})
    bkeys, bowner = streams[base]
    blen = Counter(bowner)
    bstarts = _run_starts(bowner)
    passages = {s: [i for i, u in enumerate(us) if u.jing is not None] for s, us in units.items()}
    one_each = all(len(p) == 1 for p in passages.values())
    for s in witnesses:
        if s == base:
            continue
        if one_each:  # one passage per witness (CollateX input, a bare text): the same passage, however different
            uf.union(uf.node(base, passages[base][0]), uf.node(s, passages[s][0]))
            continue
        xkeys, xowner = streams[s]
        xlen = Counter(xowner)
        xstarts = _run_starts(xowner)
        shared: Counter[tuple[int, int]] = Counter()
        for op in align(bkeys, xkeys):
            if op.kind == "equal":  # each pair of passages the keys stand in, a step per pair of passages
                _count_pairs(shared, bowner, bstarts, op.a0, xowner, xstarts, op.b0,
                             min(op.a1 - op.a0, op.b1 - op.b0))
            elif op.kind == "replace" and _small(op.a1 - op.a0, op.b1 - op.b0):
                # a short different reading still ties its passages; a long one
                # (text one witness lacks, an excerpt's edges) must not glue rows together
                shared[(bowner[op.a0], xowner[op.b0])] += 1
                shared[(bowner[op.a1 - 1], xowner[op.b1 - 1])] += 1
        for (i, j), n in shared.items():
            if _linked(n, blen[i], xlen[j]):
                uf.union(uf.node(base, i), uf.node(s, j))

    # each component spans a range of base passages; overlapping ranges make one row
    base_idx = passages[base]  # the base's passages, in order
    comp_range: dict[int, list[int]] = {}
    for i in base_idx:
        r = uf.find(uf.node(base, i))
        lo_hi = comp_range.setdefault(r, [i, i])
        lo_hi[0], lo_hi[1] = min(lo_hi[0], i), max(lo_hi[1], i)
    spans = sorted(comp_range.values())
    merged: list[list[int]] = []
    for lo, hi in spans:
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    # base passage index → row number; rows cover the base passages in order
    row_of_base: dict[int, int] = {}
    row_of_root: dict[int, int] = {}  # a component's root → the row of its base passages (one row holds them all)
    k = 0
    for i in base_idx:  # both sorted: one sweep
        while merged[k][1] < i:
            k += 1
        row_of_base[i] = k
        row_of_root.setdefault(uf.find(uf.node(base, i)), k)
    rows: list[dict[str, list[int]]] = [{s: [] for s in witnesses} for _ in merged]
    extra_after: dict[int, list[dict[str, list[int]]]] = {}  # witness-only rows, after row k

    for i in base_idx:
        rows[row_of_base[i]][base].append(i)
    for s in witnesses:
        if s == base:
            continue
        prev_row = -1
        last_extra: dict[str, list[int]] | None = None
        for i, u in enumerate(units[s]):
            if u.jing is None:
                continue
            at = row_of_root.get(uf.find(uf.node(s, i)))
            if at is None:
                # 经 the base lacks: one row for each run of such passages, after the previous row
                if last_extra is None:
                    last_extra = {t: [] for t in witnesses}
                    extra_after.setdefault(prev_row, []).append(last_extra)
                last_extra[s].append(i)
                continue
            last_extra = None
            rows[at][s].append(i)
            prev_row = at

    ordered: list[dict[str, list[int]]] = []
    ordered.extend(extra_after.get(-1, []))
    for k, row in enumerate(rows):
        ordered.append(row)
        ordered.extend(extra_after.get(k, []))
    for s in witnesses:
        if s != base:
            _keep_document_order(ordered, s, units[s])
    ordered = [row for row in ordered if any(row.values())]
    _attach_unpassaged(ordered, units)
    out: list[Row] = []
    for n, row in enumerate(ordered, 1):
        ids = {s: [units[s][i].id for i in sorted(row.get(s, []))] for s in witnesses}
        first = next((units[base][i].id for i in sorted(row.get(base, [])) if units[base][i].jing is not None), None)
        out.append(Row(id=f"r{n}", units=ids, base_passage=first))
    return out


def _run_starts(owner: list[int]) -> list[int]:
    """The offsets in ``owner`` (a passage index per key) where a passage's keys begin, after the first."""
    return list(compress(range(1, len(owner)), map(ne, owner[1:], owner)))


def _count_pairs(shared: Counter[tuple[int, int]], aowner: list[int], astarts: list[int], a0: int,
                 bowner: list[int], bstarts: list[int], b0: int, n: int) -> None:
    """Add to ``shared`` the pairs of passages that keys ``a0 …`` and ``b0 …`` (``n`` of each) stand in.

    What ``shared.update(zip(aowner[a0:a0 + n], bowner[b0:b0 + n]))`` counts, in the same order, but a
    step per run of one pair of passages (cut where either side's passage changes: :func:`_run_starts`)
    where that was a step per key: an ``equal`` op of the chapter's 经 is often thousands of keys.
    """
    cuts = [c - a0 for c in astarts[bisect_right(astarts, a0):bisect_left(astarts, a0 + n)]]
    cuts_b = [c - b0 for c in bstarts[bisect_right(bstarts, b0):bisect_left(bstarts, b0 + n)]]
    if cuts_b:
        cuts = sorted(set(cuts).union(cuts_b))
    prev = 0
    for t in cuts:
        pair = (aowner[a0 + prev], bowner[b0 + prev])
        shared[pair] += t - prev
        prev = t
    if n > prev:
        pair = (aowner[a0 + prev], bowner[b0 + prev])
        shared[pair] += n - prev


def _keep_document_order(rows: list[dict[str, list[int]]], s: str, units: list[Unit]) -> None:
    """Rows must hold each witness's passages in its own order, or no apparatus can give its text back.

    A stray link (a heading or formula that matches a passage far away) can put a
    passage in a row before passages that precede it in the witness.  Keep the
    heaviest (by 经 characters) set of passages whose rows already increase with
    document order, and move each other passage into the row of the kept passage
    before it (the first kept row if none), where it is collated as text that row's
    other witnesses lack or read differently.
    """
    seq = sorted((i, k) for k, row in enumerate(rows) for i in row.get(s, []))
    if not seq:
        return
    rows_in_order = [k for _, k in seq]
    if all(map(le, rows_in_order, rows_in_order[1:])):
        return  # every passage already in a row at or after the previous one's (nearly always): all are kept
    weight = []
    for i, _ in seq:
        jing = units[i].jing
        weight.append(1 + (len(jing.text) if jing is not None else 0))  # every passage counts, however short
    n_rows = len(rows)
    # weighted longest non-decreasing subsequence of row numbers, by a Fenwick tree of prefix maxima
    tree = [(0, -1)] * (n_rows + 1)

    def best_upto(k: int) -> tuple[int, int]:
        out = (0, -1)
        k += 1
        while k > 0:
            out = max(out, tree[k])
            k -= k & -k
        return out

    def update(k: int, val: tuple[int, int]) -> None:
        k += 1
        while k <= n_rows:
            if val > tree[k]:
                tree[k] = val
            k += k & -k

    score, back = [0] * len(seq), [-1] * len(seq)
    for j, (_, k) in enumerate(seq):
        prev_score, prev = best_upto(k)
        score[j], back[j] = prev_score + weight[j], prev
        update(k, (score[j], j))
    j = max(range(len(seq)), key=lambda x: score[x])
    keep: set[int] = set()
    while j >= 0:
        keep.add(j)
        j = back[j]
    if len(keep) == len(seq):
        return
    first_kept = seq[min(keep)][1]
    current = first_kept
    target: list[int] = []
    for j, (_, k) in enumerate(seq):
        if j in keep:
            current = k
        target.append(current)
    for row in rows:
        row[s] = []
    for (i, _), k in zip(seq, target):
        rows[k][s].append(i)


def _attach_unpassaged(rows: list[dict[str, list[int]]], units: dict[str, list[Unit]]) -> None:
    """Units without 经 join the row of the next passage of their witness (the last row at the end); a unit
    of commentary alone joins the row whose commentary it reads (:func:`_commentary_row`), which may be an
    earlier one.

    Why: a source that lost a page resumes mid-注, and the reader opens a unit there with no 经 (the 四部丛刊's
    既夕禮 after its lost 葉 5: ``也兩馬士制也…繁乎``, the end of the 注 on 公賵𤣥纁束馬兩).  Joined to the next
    passage, that tail read as text the witness adds to the next 注, and the 注 it ends as wholly lost."""
    for s, us in units.items():
        row_of = [-1] * len(us)  # unit → its row, -1 for none (a list: the units are numbered 0 …)
        for k, row in enumerate(rows):
            for i in row.get(s, []):
                row_of[i] = k
        pending: list[int] = []
        prev = -1  # the row of the witness's previous passage
        for i, u in enumerate(us):
            if u.jing is None:
                pending.append(i)
            elif row_of[i] >= 0:
                _place(rows, units, s, pending, prev, row_of[i])
                pending = []
                prev = row_of[i]
        if pending and rows:
            last = max(max(row_of, default=-1), 0)
            _place(rows, units, s, pending, prev, last)


def _place(rows: list[dict[str, list[int]]], units: dict[str, list[Unit]], s: str, pending: list[int],
           prev: int, at: int) -> None:
    """Put witness ``s``'s units ``pending`` (no 经) in row ``at``, or a commentary unit among them in the row
    between ``prev`` and ``at`` whose commentary it reads.  The units keep their order: one never goes to an
    earlier row than the unit before it, whether that one moved back or stayed in ``at``.  Why the second: a
    篇's title stays with the 篇's first passage, and the 鄭目錄 after it, weighed against the rows before,
    could have gone back past it (it read before its own title); it is not weighed at all now."""
    lo = max(prev, 0)
    for i in pending:
        k = at
        if at > lo:
            found = _commentary_row(rows, units, s, units[s][i], lo, at)
            if found is not None:
                k = found
        lo = k  # the next ones of the run come after it
        rows[k][s].append(i)


#: A unit of commentary alone is placed by its n-grams of this many keys found in a row's other witnesses ...
PLACE_GRAM = 3
#: ... where at least this share of them is found in that row, and in no other row of the range as many.
PLACE_SHARE = 0.5


def _commentary_row(rows: list[dict[str, list[int]]], units: dict[str, list[Unit]], s: str, u: Unit,
                    lo: int, hi: int) -> int | None:
    """The row in ``lo..hi`` whose other witnesses' commentary holds most of the commentary of ``u`` (a unit
    of witness ``s`` without 经), layer by layer; None where ``u`` holds other text than commentary (a heading,
    a preface: they ride with the next passage), or no row holds :data:`PLACE_SHARE` of it, or two rows tie."""
    if not u.pieces or any(p.layer not in COMMENTARY_LAYERS for p in u.pieces):
        return None
    mine: dict[str, set[str]] = {}
    for p in u.pieces:
        mine.setdefault(p.layer, set()).update(_grams(p.text))
    total = sum(len(g) for g in mine.values())
    if not total:
        return None
    scores: list[tuple[int, int]] = []
    for k in range(lo, hi + 1):
        found = 0
        for layer, grams in mine.items():
            theirs = "".join(units[t][j].layer_text(layer) for t, idx in rows[k].items() if t != s for j in idx)
            if theirs:
                found += len(grams & _grams(theirs))
        scores.append((found, k))
    best = max(scores)
    if best[0] < PLACE_SHARE * total or sum(1 for f, _ in scores if f == best[0]) > 1:
        return None
    return best[1]


def _grams(text: str) -> set[str]:
    """The :data:`PLACE_GRAM`-grams of ``text``'s keys (the collation's fold; characters it ignores left out)."""
    keys = key_string(text)
    if keys is None:  # (a key of more than one code point: per character, as key_string says)
        keys = "".join(fold_key(ch) for ch in text if not is_ignorable(ch))
    return {keys[i:i + PLACE_GRAM] for i in range(len(keys) - PLACE_GRAM + 1)}
