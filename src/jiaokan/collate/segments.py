"""One row and layer of a collation cut into segments that every witness can be read back from.

Why: parallel segmentation (TEI) and the alignment table (JSON) both say, for a
stretch of the base, what each witness reads there; text outside an apparatus
entry is every witness's.  An entry list made per witness (as
:func:`.variants.merge_apps` does) can leave gaps in that promise: text a
witness lacks at an excerpt's edge or with a lost page (dropped from the
apparatus on purpose), a transposed stretch whose reading was read off a
monotone span, a whole layer one witness lacks.  This module cuts the base into
*plain* segments (every present witness has exactly these characters, up to
script) and *app* segments (the existing entries, widened or merged where needed,
and new ones where a witness lacks or has text the entries do not cover), and
gives each witness's span in its own layer text, so the writers cannot lose or
invent a character.

How: each witness's edit script is reduced to its ``equal`` character pairs,
which increase on both sides.  A base character is clean for a witness when it
is one of those pairs; the place between two base characters is clean when
their partners are neighbours in the witness (nothing inserted or moved in
between).  Everything not clean, plus the existing entries, becomes app
segments (touching ones merged where the place between them is not clean); the
rest is plain.  A witness's span for a segment runs from just after the partner
of the last base character before it to the partner of the first after it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from itertools import compress
from operator import attrgetter
from typing import Iterator, Sequence

from ..normalize import strip_ignorable
from .layertext import LayerText
from .model import App, Collation, LayerGap, strongest


@dataclass(slots=True)
class Segment:
    """A stretch of the base and what each witness reads there (spans into each witness's layer text).

    (Slotted: a book's apparatus is cut into some fifty thousand, each made once and read by the writers,
    attribute by attribute.)"""

    spans: dict[str, tuple[int, int]]  # siglum → (start, end) in that witness's layer text; the base too
    type: str | None = None  # None: plain (every witness reads the base); else the app's type
    apps: list[App] = field(default_factory=list)  # the collation's entries this segment carries
    absent: dict[str, str] = field(default_factory=dict)  # siglum → why it has nothing here (layer, edge, lacuna)
    #: witnesses that have the layer here but read nothing in this segment where their source lost a page (its
    #: gap, or the row's edge beside the loss): their empty reading is a lacuna, not an omission (:func:`_lost_in`)
    lost: frozenset[str] = frozenset()


class _Partners:
    """Which base key is paired with which witness key by the ``equal`` ops of an edit script.

    ``chains``: ``(c0, c1, d0)`` in base key indexes, ascending: base keys ``c0 .. c1-1`` are
    paired with witness keys ``d0 ..`` one for one; two ops that continue each other on both
    sides are one chain.  Why ranges: the partner of each base key, looked up key by key, cost
    a Python loop over every character of every witness.
    """

    def __init__(self, ops: list, akeys: Sequence[int], bkeys: Sequence[int]) -> None:
        self.bkeys = bkeys
        chains: list[tuple[int, int, int]] = []
        for op in ops:
            if op.kind != "equal":
                continue
            k0, d0 = bisect_left(akeys, op.a0), bisect_left(bkeys, op.b0)
            n = min(bisect_left(akeys, op.a1) - k0, bisect_left(bkeys, op.b1) - d0)  # as zip() pairs them
            if n <= 0:
                continue
            if chains and chains[-1][1] == k0 and chains[-1][2] + (k0 - chains[-1][0]) == d0:
                chains[-1] = (chains[-1][0], k0 + n, chains[-1][2])
            else:
                chains.append((k0, k0 + n, d0))
        self.chains = chains
        self.starts = [c[0] for c in chains]
        #: the witness key after the partner of the last chain's last key
        self.end_partner = chains[-1][2] + chains[-1][1] - chains[-1][0] if chains else -1

    def offset(self, k: int) -> int:
        """The witness string offset of the partner of base key ``k`` (which has one)."""
        c0, c1, d0 = self.chains[bisect_right(self.starts, k) - 1]
        if not c0 <= k < c1:
            raise KeyError(k)
        return self.bkeys[d0 + k - c0]


def _absence_kind(gaps: list[LayerGap], siglum: str) -> str:
    if not gaps:
        return "layer"
    kinds = {g.kind for g in gaps if siglum in g.absent}
    for k in ("lacuna", "edge", "layer"):
        if k in kinds:
            return k
    return "layer"


def layer_segments(col: Collation, row: str, layer: str, texts: dict[str, LayerText], present: list[str],
                   apps: list[App], gaps: list[LayerGap], ops: dict[str, list]) -> list[Segment]:
    """The segments of ``row``/``layer``; ``texts``: every witness's layer text; ``present``: the witnesses
    whose text keeps a character, in order; ``ops``: base→witness edit scripts."""
    base = col.base
    a = texts[base].text
    others = [s for s in texts if s != base]
    if base not in present:
        # a layer the base lacks here: one entry, each witness reading its whole text
        spans = {s: (0, len(texts[s].text)) if s in present else (0, 0) for s in texts}
        absent = {s: _absence_kind(gaps, s) for s in texts if s not in present}
        kind = "lacuna" if absent.get(base) == "lacuna" else "edge" if absent.get(base) == "edge" else "layer"
        return [Segment(spans, kind, [], absent)]
    akeys = texts[base].kept()
    n = len(akeys)
    wit = [s for s in others if s in present]
    absent = {s: _absence_kind(gaps, s) for s in others if s not in present}
    match = {s: _Partners(ops[s], akeys, texts[s].kept()) for s in wit}
    runs, bad_place, lone = _bad_keys(n, list(match.values()))
    if not apps and not runs and not bad_place:
        # every present witness pairs every character with the base's, in one chain from end to end (most
        # rows and layers): one plain segment, or an entry for those that lack the layer, as below
        spans = {base: (0, len(a)), **{s: (0, len(texts[s].text)) for s in wit}, **{s: (0, 0) for s in absent}}
        return [Segment(spans, _kind_of_absence(absent), [], dict(absent)) if absent else Segment(spans)]
    # intervals in base key indices: [k0, k1), with the entries they carry
    entries = [(bisect_left(akeys, ap.lem.start), bisect_left(akeys, ap.lem.end), ap) for ap in apps]
    merged = _intervals(entries, runs, bad_place, lone)

    def base_span(k0: int, k1: int) -> tuple[int, int]:
        if k1 > k0:
            return akeys[k0], akeys[k1 - 1] + 1
        p = akeys[k0 - 1] + 1 if k0 > 0 else 0
        return p, p

    # (siglum, its partners, its text's length), for the witness spans of every interval below
    partners = [(s, match[s], len(texts[s].text)) for s in wit]
    # the present witnesses that lost text here with a page (a lacuna gap of this row and layer)
    torn = {s for g in gaps if g.kind == "lacuna" for s in g.absent if s in match}

    out: list[Segment] = []
    nowhere = {s: (0, 0) for s in absent}  # the spans of the witnesses without the layer: the same in every segment
    prev_k, prev_a = 0, 0
    prev_b = {s: (0, 0) for s in wit}  # each witness's span in the interval before (the next starts at its end)

    def plain_upto(k: int, a_to: int, b_to: dict[str, tuple[int, int]]) -> None:
        """The plain text up to ``a_to`` in the base and to the start of ``b_to[s]`` in each witness."""
        if a_to > prev_a:
            spans = {base: (prev_a, a_to), **{s: (prev_b[s][1], b_to[s][0]) for s in wit}, **nowhere}
            # text some witness lacks (a whole layer of this row) is an entry with an empty reading for it;
            # punctuation between two entries is nobody's text and stays plain
            typed = absent and k > prev_k
            out.append(Segment(spans, _kind_of_absence(absent) if typed else None, [], dict(absent) if typed else {}))

    for k0, k1, carried in merged:
        a0, a1 = base_span(k0, k1)
        # each witness's span: from after the partner of the last base key before it to the partner of the first after
        spans_b = {s: (pt.offset(k0 - 1) + 1 if k0 > 0 else 0, pt.offset(k1) if k1 < n else blen)
                   for s, pt, blen in partners}
        plain_upto(k0, a0, spans_b)
        if carried:
            types = [x.type for x in carried]
            kind = strongest(types)
        else:
            kind = _untyped(a[a0:a1], {s: texts[s].text[sp[0]:sp[1]] for s, sp in spans_b.items()}, gaps, base)
        out.append(Segment({base: (a0, a1), **spans_b, **nowhere}, kind, carried, dict(absent),
                           _lost_in(spans_b, texts, torn) if torn else frozenset()))
        prev_k, prev_a, prev_b = k1, a1, spans_b
    plain_upto(n, len(a), {s: (blen, blen) for s, _, blen in partners})
    if _tiles(out, texts):
        return out
    # cannot happen if the edit scripts keep their contract; never write a file that loses text if it does
    spans = {s: (0, len(texts[s].text)) if s in present else (0, 0) for s in texts}
    return [Segment(spans, strongest([x.type for x in apps]) if apps else "substantive", list(apps), dict(absent))]


def _lost_in(spans: dict[str, tuple[int, int]], texts: dict[str, LayerText], torn: set[str]) -> frozenset[str]:
    """The witnesses of ``torn`` (present, with a lacuna in this row and layer) whose span here is empty and stands
    at a lost page: one of their text's gaps, or its start or end (the row beside a loss, whose gap is the other
    row's).  Why: a segment carrying other witnesses' entries can span the stretch such a witness lost (the 注 of
    士相見禮's 凡與大人言 resumes after the 四部丛刊's lost page, where the 注疏 differs from the 集释 by 顏/顔 and
    己/已); typed by its shape, its empty reading said the witness omits what its page took."""
    out = []
    for s in torn:
        b0, b1 = spans[s]
        lt = texts[s]
        if b0 == b1 and (b0 in lt.gaps or b0 == 0 or b0 == len(lt.text)):
            out.append(s)
    return frozenset(out)


def _bad_keys(n: int, partners: list[_Partners]) -> tuple[list[tuple[int, int]], set[int], set[int]]:
    """The base keys (``n`` of them) that some witness (its ``partners``) does not read as the base does.

    Returns the runs ``[k0, k1)`` of bad characters (a base key without a partner in some witness), fewest
    (:func:`_union`); the bad places (place ``t``: before base key ``t``, ``n``: after the last), clean only
    inside a chain of every witness (its two neighbours partnered with neighbours), at 0 and ``n`` only where
    every witness starts and ends with the base; and of those the lone ones, not in or at an end of a run of
    bad characters.  Why the lone apart: every bad character lies between two chains of its witness, so the
    places around it are bad and it merges with its neighbours in the run: the run is one interval, and a
    place in it or at its ends adds nothing (:func:`_intervals`); the places alone are intervals of their own.
    All from the chains' ranges, not a loop over the keys.
    """
    runs: list[tuple[int, int]] = []
    bad_place: set[int] = set()
    lone: set[int] = set()
    for pt in partners:
        cur_c, cur_p = 0, 1
        for c0, c1, _ in pt.chains:
            if c0 > cur_c:
                runs.append((cur_c, c0))
            if c0 + 1 > cur_p:
                places = range(cur_p, min(c0 + 1, n))
                bad_place.update(places)
                if c0 <= cur_c:  # (places from cur_p >= cur_c to c0: in the run [cur_c, c0) if there is one)
                    lone.update(places)
            cur_c, cur_p = c1, max(cur_p, c1)
        if cur_c < n:
            runs.append((cur_c, n))
        if cur_p < n:  # (then cur_c < n too: these are in the run [cur_c, n))
            bad_place.update(range(cur_p, n))
        if not pt.chains or pt.chains[0][0] != 0 or pt.chains[0][2] != 0:
            bad_place.add(0)
            if pt.chains and pt.chains[0][0] == 0:  # (else in the run from 0)
                lone.add(0)
        if n and (not pt.chains or pt.chains[-1][1] != n or pt.end_partner != len(pt.bkeys)):
            bad_place.add(n)
            if pt.chains and pt.chains[-1][1] == n:  # (else in the run to n)
                lone.add(n)
    return _union(runs), bad_place, lone


def _intervals(entries: list[tuple[int, int, App]], runs: list[tuple[int, int]], bad_place: set[int],
               lone: set[int]) -> list[list]:
    """The app segments ``[k0, k1, entries carried]`` in base key indexes, in order: the collation's entries
    (``(k0, k1, entry)``), the runs of bad characters and the lone bad places (:func:`_bad_keys`), each
    merged with the one before where they overlap, or touch at a bad place, or are one empty place."""
    items: list[tuple[int, int, list[App]]] = [(k0, k1, [ap]) for k0, k1, ap in entries]
    items += [(k0, k1, []) for k0, k1 in runs] + [(t, t, []) for t in lone]
    return _merge(items, bad_place)


def _merge(items: list[tuple[int, int, list[App]]], bad_place: set[int]) -> list[list]:
    """``items`` (``[k0, k1)`` and the entries each carries) in order, each merged with the one before where
    they overlap, or touch at a bad place, or are one empty place (two entries adding text there)."""
    items.sort(key=lambda x: (x[0], x[1]))
    merged: list[list] = []
    for k0, k1, carried in items:
        if merged:
            m0, m1, mc = merged[-1]
            if k0 < m1 or (k0 == m1 and (k0 in bad_place or k0 == k1 == m0 == m1)):
                merged[-1] = [m0, max(m1, k1), mc + carried]
                continue
        merged.append([k0, k1, carried])
    return merged


def _union(runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The runs ``[k0, k1)`` of several witnesses as the fewest runs covering the same keys (touching runs joined)."""
    runs.sort()
    out: list[tuple[int, int]] = []
    for k0, k1 in runs:
        if out and k0 <= out[-1][1]:
            if k1 > out[-1][1]:
                out[-1] = (out[-1][0], k1)
        else:
            out.append((k0, k1))
    return out


def _kind_of_absence(absent: dict[str, str]) -> str:
    kinds = set(absent.values())
    return "lacuna" if "lacuna" in kinds else "edge" if "edge" in kinds else "layer"


def _untyped(lem: str, readings: dict[str, str], gaps: list[LayerGap], base: str) -> str:
    """The type of a stretch no entry covers: text dropped at an edge or a lost page, else by its shape."""
    lem_k = strip_ignorable(lem)
    for s, r in readings.items():
        r_k = strip_ignorable(r)
        if r_k == lem_k:
            continue
        who = s if not r_k else base if not lem_k else None
        if who is not None:
            kinds = {g.kind for g in gaps if who in g.absent}
            if "lacuna" in kinds:
                return "lacuna"
            if "edge" in kinds:
                return "edge"
        return "omission" if not r_k else "addition" if not lem_k else "substantive"
    return "substantive"


def _tiles(segs: list[Segment], texts: dict[str, LayerText]) -> bool:
    """Each witness's spans tile its layer text in order (up to punctuation), so nothing is lost or repeated."""
    for s, lt in texts.items():
        kept = lt.kept()
        if not kept:
            continue  # a witness without this layer here has nothing to lose
        pos = 0
        for seg in segs:
            if s in seg.absent:
                continue
            b0, b1 = seg.spans.get(s, (pos, pos))
            # a kept character in [pos, b0) is text between two spans: found by bisection in the text's
            # kept offsets, not by stripping the stretch of its punctuation (a copy and a scan per segment)
            if b0 < pos or b1 < b0 or (b0 > pos and bisect_left(kept, b0) > bisect_left(kept, pos)):
                return False
            pos = b1
        if kept[-1] >= pos:
            return False
    return True


_TEXT = attrgetter("text")


def row_layer_inputs(col: Collation) -> Iterator[tuple[str, str, dict[str, LayerText], list[str], list[App],
                                                      list[LayerGap], dict[str, list]]]:
    """For every row and layer that some witness has: (row, layer, texts, the witnesses present (whose text
    keeps a character: asked here to skip the others, so once, not again by :func:`layer_segments`), entries,
    gaps, edit scripts)."""
    apps_by: dict[tuple[str, str], list[App]] = {}
    for ap in col.apps:
        apps_by.setdefault((ap.row, ap.layer), []).append(ap)
    gaps_by: dict[tuple[str, str], list[LayerGap]] = {}
    for g in col.gaps:
        gaps_by.setdefault((g.row, g.layer), []).append(g)
    ops_by: dict[tuple[str, str], dict[str, list]] = {}
    for al in col.alignments:
        ops_by.setdefault((al.row, al.layer), {})[al.siglum] = al.ops
    for row in col.rows:
        by_witness = [(s, col.row_texts(row, s)) for s in col.witnesses]
        had: set[str] = set()  # the layers some witness has text of (a look at each in C: 8 layers a witness)
        for _, texts in by_witness:
            had.update(compress(texts, map(_TEXT, texts.values())))
        for layer in col.layers:
            if layer not in had:
                continue  # (most layers of a row: no witness has them)
            texts = {s: their[layer] for s, their in by_witness}
            present = [s for s, lt in texts.items() if lt.text and lt.kept()]  # (an empty text: no call)
            if not present:
                continue
            yield (row.id, layer, texts, present, apps_by.get((row.id, layer), []), gaps_by.get((row.id, layer), []),
                   ops_by.get((row.id, layer), {}))


def row_layer_segments(col: Collation) -> list[tuple[str, str, dict[str, LayerText], list[Segment]]]:
    """(row, layer, texts, segments) for every row and layer that some witness has.

    Made once per collation: the TEI and the JSON writers both need every segment, and
    segmenting is most of what writing costs.  The memo is dropped when the entries,
    gaps, alignments or rows it was made from are replaced or grow (``collate --only``
    filters the entries).
    """
    stamp = (id(col.apps), len(col.apps), id(col.gaps), len(col.gaps), len(col.alignments), len(col.rows))
    memo = col._segments
    if memo is None or memo[0] != stamp:
        made = [(row, layer, texts, layer_segments(col, row, layer, texts, present, apps, gaps, ops))
                for row, layer, texts, present, apps, gaps, ops in row_layer_inputs(col)]
        memo = col._segments = (stamp, made)
    return memo[1]
