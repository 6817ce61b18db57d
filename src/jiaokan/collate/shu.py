"""The 疏 collated: the 注疏's 疏 against the 单疏本's, each stretch placed by the 經/注 it explains.

The 单疏本 (role ``danshu``) has no 經 to align, so its passages cannot be grouped into
rows the usual way (:mod:`.rows`).  What it has is the 標起止 that opens each stretch
(``注筮者至廟神``: the 注 that begins 筮者 and ends 廟神).  The 注疏 moved each 疏 beside
the 經 it explains; so each lemma is resolved against the 注疏's own 經 and 注 (first
and last characters, on the collation's folded keys), and the stretch goes into the row
of the 注疏 passage that holds them.  One row per 注疏 passage; the 疏 of each row is then
aligned character by character by the ordinary engine (:func:`.engine.collate` with
these rows), so variants are typed and the apparatus written exactly as for any layer.

Rules of resolution (:func:`resolve`):

* a lemma is one or more parts: ``主人至西面`` (經), ``注X至Y`` (注), ``櫛實于簞注簞笥也``
  (經 then its 注, quoted whole), ``司射至反位　注諸公至士耦`` (two tokens);
* a part ``A至B`` matches where the folded ``A`` starts a stretch of that layer's text and
  ``B`` ends it within :data:`MAX_SPAN` characters; a part with no 至 matches where it
  occurs whole; 經 is searched in 经 and 传 (喪服's 傳曰 lemmas), 注 in 注;
* the search starts at the passage the previous lemma resolved to (the book's order),
  and only when nothing matches from there is the whole 篇 searched (``order`` False);
* what does not resolve stays with the stretch before it (listed, never dropped).

Stretches are kept in the 单疏本's own order (a row sequence that went backwards is
repaired as for any witness, :func:`.rows._keep_document_order`), so the apparatus
gives each witness back exactly.
"""

from __future__ import annotations

import re
import weakref
from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter
from typing import Iterator

from ..model import UNKNOWN_MARKS, Unit, Witness
from ..normalize import is_ignorable, key
from ..normalize.fold import key_string
from .elsewhere import LayerElsewhere
from .engine import collate
from .layertext import has_kept
from .model import Collation, Row
from .rows import _keep_document_order, body_units

#: The most characters a lemma's first and last characters may span (the longest 經 passage a 疏 takes at once).
MAX_SPAN = 800
LAYERS_OF = {"jing": ("jing", "zhuan"), "zhu": ("zhu",)}


@dataclass
class Part:
    layer: str  # jing or zhu
    first: str
    last: str  # "" when the part is quoted whole


def lemma_parts(lemma: str) -> list[Part]:
    """The parts of a 標起止 (see the module): ``注筮者至廟神`` → [Part(zhu, 筮者, 廟神)]."""
    out: list[Part] = []
    for tok in (t for t in _TOKENS_RE.split(lemma) if t):
        if tok.startswith("注"):
            out.append(_part("zhu", tok[1:]))
            continue
        at = tok.find("注", 2)
        if at > 0 and "至" not in tok[at:at + 2]:
            out.append(_part("jing", tok[:at]))
            out.append(_part("zhu", tok[at + 1:]))
        else:
            out.append(_part("jing", tok))
    return [p for p in out if p.first]


#: the spaces between the tokens of a lemma
_TOKENS_RE = re.compile(r"[\u3000\s]+")
#: 鄭目録 quoted whole as the lemma of the 疏 on it (``鄭目録云童子任職…此皆第一``).
MULU_RE = re.compile(r"^案?鄭目[録錄]云")
#: A part quoted whole longer than this is matched by its first and last :data:`ENDS` characters.
WHOLE_MAX = 10
ENDS = 4


def _part(layer: str, s: str) -> Part:
    if MULU_RE.match(s):
        layer, s = "zhu", MULU_RE.sub("", s)
    i = s.find("至", 1)
    if 0 < i < len(s) - 1:
        first, last = s[:i], s[i + 1:]
    elif len(s) > WHOLE_MAX:
        first, last = s[:ENDS], s[-ENDS:]
    else:
        first, last = s, ""
    # a character nobody could read matches nothing: keep what is on the outer side of it
    first = _UNKNOWN_RE.split(first)[0]
    last = _UNKNOWN_RE.split(last)[-1]
    return Part(layer, first, last)


#: a character nobody could read (compiled once: a 篇's every lemma part asked it twice, the pattern made each time)
_UNKNOWN_RE = re.compile(f"[{''.join(UNKNOWN_MARKS)}]")


def _fold(s: str) -> str:
    """The keys of the characters of ``s`` that are not ignorable, as one string (in C when each is one code point)."""
    got = key_string(s)
    return got if got is not None else "".join(key(c) for c in s if not is_ignorable(c))


class _Stream:
    """One layer group of the 注疏's passages as one folded string, with the passage of every character."""

    def __init__(self, units: list[Unit], layers: tuple[str, ...]) -> None:
        chars: list[str] = []
        self.owner: list[int] = []
        self.unit_start: dict[int, int] = {}
        for i, u in enumerate(units):
            self.unit_start[i] = len(self.owner)
            for p in u.pieces:
                if p.layer in layers:
                    k = _fold(p.text)
                    chars.append(k)
                    self.owner.extend([i] * len(k))
        self.text = "".join(chars)

    def find(self, part: Part, from_unit: int) -> int | None:
        """The passage where ``part`` matches, searching from passage ``from_unit`` on."""
        return next(self.matches(part, from_unit), None)

    def find_before(self, part: Part, before_unit: int) -> int | None:
        """The last passage before ``before_unit`` where ``part`` matches.

        Searched backwards from ``before_unit``: the passages :meth:`matches` gives ascend with the place of
        the match (a later start never finds an earlier end), so the first one found going back that lies
        before ``before_unit`` is the last of them.  (Going forwards from the 篇's start, each lemma walked
        every match before it: a 篇's lemmas times its matches.)
        """
        first, last = _fold(part.first), _fold(part.last)
        if not first:
            return None
        n = len(first)
        # a match must end before the passage: its first part's last character at least (owner ascends)
        end = self.unit_start.get(before_unit, len(self.text)) + n - 1
        while (p := self.text.rfind(first, 0, end)) >= 0:
            u = self._unit_of(p, n, last)
            if u is not None and u < before_unit:
                return u
            end = p + n - 1  # the occurrence before this one (they may overlap)
        return None

    def _unit_of(self, p: int, n: int, last: str) -> int | None:
        """The passage of a match of the part's (folded) first characters at ``p`` (``n`` of them) and ``last``
        within :data:`MAX_SPAN` after them (None: ``last`` is not there): the passage that holds its end."""
        if not last:
            return self.owner[p + n - 1]
        q = self.text.find(last, p + n, p + n + MAX_SPAN)
        return self.owner[q + len(last) - 1] if q >= 0 else None

    def matches(self, part: Part, from_unit: int) -> Iterator[int]:
        first, last = _fold(part.first), _fold(part.last)
        if not first:
            return
        pos = self.unit_start.get(from_unit, len(self.text))
        while True:
            p = self.text.find(first, pos)
            if p < 0:
                return
            # the passage where the lemma's text ends: the 注疏 sets the 疏 after the passage that holds its end
            u = self._unit_of(p, len(first), last)
            if u is not None:
                yield u
            pos = p + 1


@dataclass
class Resolution:
    """Where one 单疏本 stretch went: its lemma, the 注疏 passage it explains (None: unresolved)."""

    unit: str  # the 单疏本 unit id
    lemma: str | None
    target: str | None = None
    in_order: bool = True


@dataclass
class ShuReport:
    """What the 疏 collation of one 篇 measured (see :func:`measure`)."""

    pian: str
    lemmas: int = 0
    resolved: int = 0
    in_order: int = 0
    ds_chars: int = 0
    ds_aligned: int = 0
    zs_chars: int = 0
    zs_aligned: int = 0
    #: stretches one witness has and the other lacks: (row, siglum that has it, characters, opening)
    unmatched: list[tuple[str, str, int, str]] = field(default_factory=list)
    resolutions: list[Resolution] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "pian": self.pian, "lemmas": self.lemmas, "resolved": self.resolved, "resolved_in_order": self.in_order,
            "resolved_share": round(self.resolved / self.lemmas, 4) if self.lemmas else None,
            "ds_shu_chars": self.ds_chars, "ds_shu_aligned": self.ds_aligned,
            "ds_aligned_share": round(self.ds_aligned / self.ds_chars, 4) if self.ds_chars else None,
            "zs_shu_chars": self.zs_chars, "zs_shu_aligned": self.zs_aligned,
            "zs_aligned_share": round(self.zs_aligned / self.zs_chars, 4) if self.zs_chars else None,
            "unmatched": [{"row": r, "has": s, "chars": n, "opening": t} for r, s, n, t in self.unmatched],
            "resolutions": [{"unit": x.unit, "lemma": x.lemma, "target": x.target, "in_order": x.in_order}
                            for x in self.resolutions],
        }


def resolve(zs: Witness, ds: Witness) -> list[Resolution]:
    """Resolve the lemma of every 单疏本 passage against the 注疏's 經 and 注 (see the module)."""
    from ..readers.formats.mandoku.danshu import lemma_of

    zunits = body_units(zs)
    streams = {k: _Stream(zunits, v) for k, v in LAYERS_OF.items()}
    out: list[Resolution] = []
    cursor = 0
    for u in body_units(ds):
        lemma = lemma_of(u)
        r = Resolution(u.id, lemma)
        out.append(r)
        if not lemma:
            continue
        parts = lemma_parts(lemma)
        ahead = _find_all(streams, parts, cursor)
        back = None
        if parts:  # the nearest match behind the cursor too: a wrong jump ahead must not strand the rest
            lead = streams[parts[0].layer].find_before(parts[0], cursor)
            found = _find_all(streams, parts, lead) if lead is not None else None
            back = found if found is not None and found < cursor else None
        hit: int | None = ahead
        if back is not None and (ahead is None or cursor - back < ahead - cursor):
            hit, r.in_order = back, False
        if hit is not None:
            r.target = zunits[hit].id
            cursor = hit
    return out


def _find_all(streams: dict[str, _Stream], parts: list[Part], start: int) -> int | None:
    """The passage of the last part that matches, each part searched from where the one before matched.

    A part that matches nowhere (a 注 the 注疏's reader took for 經, a lemma with a slip) does not
    undo the others: the stretch explains the passage they name.
    """
    at = start
    out = None
    for part in parts:
        found = streams[part.layer].find(part, at)
        if found is None:  # the print left out the 注 before a 注's lemma, or put one before a 經's
            found = streams["zhu" if part.layer == "jing" else "jing"].find(part, at)
        if found is not None:
            at = out = found
    return out


def shu_rows(zs: Witness, ds: Witness, resolutions: list[Resolution]) -> list[Row]:
    """One row per 注疏 passage; each 单疏本 passage in the row of the passage its lemma resolved to."""
    zunits = body_units(zs)
    dunits = body_units(ds)
    zidx = {u.id: i for i, u in enumerate(zunits)}
    rows: list[dict[str, list[int]]] = [{zs.meta.siglum: [i], ds.meta.siglum: []} for i in range(len(zunits))]
    if not rows:
        return []
    by_unit = {r.unit: r for r in resolutions}
    current = 0
    for j, u in enumerate(dunits):
        r = by_unit.get(u.id)
        if r is not None and r.target is not None:
            current = zidx[r.target]
        rows[current][ds.meta.siglum].append(j)
    _keep_document_order(rows, ds.meta.siglum, dunits)
    rows = _merge_neighbours(rows, zs.meta.siglum, ds.meta.siglum, zunits, dunits)
    out: list[Row] = []
    for n, row in enumerate(rows, 1):
        zs_ids = [zunits[i].id for i in row[zs.meta.siglum]]
        first = next((zunits[i].id for i in row[zs.meta.siglum] if zunits[i].jing is not None), None)
        out.append(Row(id=f"r{n}", units={zs.meta.siglum: zs_ids,
                                          ds.meta.siglum: [dunits[j].id for j in sorted(row[ds.meta.siglum])]},
                       base_passage=first))
    return out


def _shu_units(units: list[Unit]) -> list[bool]:
    """For each unit: does it hold 疏 text (a character that is not ignorable)?"""
    return [any(has_kept(p.text) for p in u.pieces if p.layer == "shu") for u in units]


def _has_shu(shu: list[bool], idx: list[int]) -> bool:
    return any(shu[i] for i in idx)


def _merge_neighbours(rows: list[dict[str, list[int]]], z: str, d: str,
                      zunits: list[Unit], dunits: list[Unit]) -> list[dict[str, list[int]]]:
    """A row with only the 单疏本's 疏 next to one with only the 注疏's is one stretch placed a passage off
    (the 注疏 put that 疏 after the next 經, or the lemma named the 經 before): one row."""
    out: list[dict[str, list[int]]] = []
    zshu, dshu = _shu_units(zunits), _shu_units(dunits)  # each unit's text once, not once per row it is next to
    for row in rows:
        if out:
            prev = out[-1]
            pz, pd = _has_shu(zshu, prev[z]), _has_shu(dshu, prev[d])
            rz, rd = _has_shu(zshu, row[z]), _has_shu(dshu, row[d])
            if (pd and not pz and rz and not rd) or (pz and not pd and rd and not rz):
                prev[z] = prev[z] + row[z]
                prev[d] = prev[d] + row[d]
                continue
        out.append({z: list(row[z]), d: list(row[d])})
    return out


def _stamp(w: Witness) -> int:
    """What :func:`_placed` checks is unchanged in a witness it placed before: its passages, their pieces
    and each piece's layer and content (the objects: the relayering replaces pieces, or their lists,
    in place), asked in C (a Python step per piece cost a fifth of what the memo saves), and kept as
    one hash (the identities of a 篇's pieces, held till the second asking, were 0.1-0.3 MB a 篇)."""
    units = body_units(w)
    pieces = list(chain.from_iterable(map(_PIECES, units)))
    return hash((tuple(map(id, units)), tuple(map(id, map(_PIECES, units))), tuple(map(id, pieces)),
                 tuple(map(_LAYER, pieces)), tuple(map(id, map(_CONTENT, pieces)))))


_PIECES, _LAYER, _CONTENT = attrgetter("pieces"), attrgetter("layer"), attrgetter("content")


#: the placements :func:`_placed` made: (id of the 注疏, id of the 单疏本) → (the two, weakly; their stamps,
#: resolutions, rows); the oldest dropped beyond :data:`_KEEP`
_MADE: dict[tuple[int, int], tuple[weakref.ref[Witness], weakref.ref[Witness], tuple[int, int], list[Resolution],
                                   list[Row]]] = {}
_KEEP = 64


def _placed(zs: Witness, ds: Witness) -> tuple[list[Resolution], list[Row]]:
    """:func:`resolve` and :func:`shu_rows` of ``zs`` and ``ds``, made once for both of their askers.

    Why: a build asks twice of each 篇, :func:`shu_elsewhere` for the 篇's own apparatus and
    :func:`collate_shu` for the 疏 collation, and resolving every lemma of a 篇 against its 經 and 注 was
    4% of the collate stage, half of it done again.  Kept till asked again (once: then dropped), while
    the witnesses live (weakly: the memo holds no witness) and only while they hold the same passages
    (:func:`_stamp`); with ``build --jobs`` the two askers of a 篇 may run in two workers, and each makes
    its own.  The resolutions and rows are read, never changed, by both askers.
    """
    k = (id(zs), id(ds))
    stamp = (_stamp(zs), _stamp(ds))
    got = _MADE.pop(k, None)  # (a build asks twice: once given again, it is not kept)
    if got is not None and got[0]() is zs and got[1]() is ds and got[2] == stamp:
        return got[3], got[4]
    res = resolve(zs, ds)
    rows = shu_rows(zs, ds, res)
    while len(_MADE) >= _KEEP:
        del _MADE[next(iter(_MADE))]
    _MADE[k] = (weakref.ref(zs), weakref.ref(ds), stamp, res, rows)
    return res, rows


def collate_shu(zs: Witness, ds: Witness, ignore: tuple[str, ...] = ()) -> tuple[Collation, ShuReport]:
    """The 疏 of one 篇 collated across the 注疏 (base) and the 单疏本, and what was measured; ``ignore``: variant
    types left out, as :func:`~jiaokan.collate.engine.collate` takes them."""
    res, rows = _placed(zs, ds)
    col = collate([zs, ds], base=zs.meta.siglum, layers=("shu",), ignore=ignore, rows=rows)
    return col, measure(col, res, zs.meta.chapter)


def shu_elsewhere(zs: Witness, ds: Witness, name: str) -> LayerElsewhere:
    """Where the 疏 collation ``name`` of ``zs`` and ``ds`` holds each 注疏 passage's 疏: for the 篇's own
    apparatus, which points there instead of copying it (:mod:`.elsewhere`).  The rows are those
    :func:`collate_shu` makes (the same resolution of the same witnesses, made once: :func:`_placed`),
    without aligning them."""
    return LayerElsewhere.of_rows(zs.meta.siglum, "shu", name, _placed(zs, ds)[1])


def measure(col: Collation, resolutions: list[Resolution], pian: str) -> ShuReport:
    """Lemmas resolved, and the share of each witness's 疏 characters aligned with the other's.

    A character is aligned when the edit script pairs it with one of the other witness
    (equal or a different reading); text one witness has and the other lacks is not, and
    a whole stretch of it (a row where only one has 疏) is listed.
    """
    rep = ShuReport(pian, resolutions=resolutions)
    rep.lemmas = sum(1 for r in resolutions if r.lemma)
    rep.resolved = sum(1 for r in resolutions if r.target)
    rep.in_order = sum(1 for r in resolutions if r.target and r.in_order)
    base, other = col.base, next(s for s in col.witnesses if s != col.base)
    ops_by = {al.row: al.ops for al in col.alignments if al.layer == "shu"}
    for row in col.rows:
        ta, tb = col.row_text(row, base, "shu"), col.row_text(row, other, "shu")
        a, b = ta.text, tb.text
        # the characters that are not ignorable: the offsets the collation made of each text (LayerText.kept)
        ka, kb = ta.kept(), tb.kept()
        na, nb = len(ka), len(kb)
        rep.zs_chars += na
        rep.ds_chars += nb
        ops = ops_by.get(row.id)
        if ops is None:
            if na or nb:
                who, n, t = (base, na, a) if na else (other, nb, b)
                rep.unmatched.append((row.id, who, n, t.strip("\u3000 ")[:12]))
            continue
        for op in ops:
            if op.kind in ("equal", "replace"):
                rep.zs_aligned += bisect_left(ka, op.a1) - bisect_left(ka, op.a0)
                rep.ds_aligned += bisect_left(kb, op.b1) - bisect_left(kb, op.b0)
    return rep


__all__ = ["Part", "Resolution", "ShuReport", "collate_shu", "lemma_parts", "measure", "resolve", "shu_elsewhere",
           "shu_rows"]
