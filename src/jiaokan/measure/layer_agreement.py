"""Layer agreement, measured: how often a witness's 经/commentary split agrees with a reference.

The command line is ``scripts/layer_agreement.py`` (:func:`main`, given the standard
pairs of this checkout).

The reference is a witness whose layers are certain: the 四部丛刊 《仪礼》 郑注
(Kanripo KR1d0026, Mandoku raw): 经 in running text, 郑注 in double-column brackets.

Method.  Both witnesses become one stream of comparison keys in reading order
(:func:`jiaokan.normalize.keys`: punctuation skipped, script and variant forms
folded).  The witness stream holds *every* layer (经, 注, 疏, 音义, 释, 案 …,
paratext); the reference stream its 经 and commentary, since 疏 and 释 present
in the witness and absent from the reference must not decide where anything goes:
they simply come out as insertions.  The reference's titles are in its stream too, so
that the witness's titles have their own counterpart, but a pair with a title of the
reference is never counted.  :func:`jiaokan.collate.align.align` aligns the
two (a tie between identical characters is settled in favour of the same layer,
:func:`_settle_ties`); over the ``equal`` characters we compare the *class* of the layer (经 against
commentary; the commentary layers 注 疏 音义 释 案 考证 and named commentators all
count as commentary).

Reported per pair:

* ``agree``: the share of aligned characters whose class agrees;
* ``经→注``: characters the witness labels 经 where the reference has commentary,
  ``注→经`` the reverse, ``para``: characters the witness labels paratext where the
  reference has 经 or commentary (a heading rule that ate text);
* ``疏 as 经``: witness 经 characters with no counterpart at all in the reference,
  in runs of at least :data:`SHU_RUN` keys.  The reference holds every 经 and 注
  character, so a long stretch of "经" it lacks is commentary the reader failed to
  see (typically 疏); short runs are ordinary textual variants and are not counted.
  This must be 0;
* ``ref cover``: the share of the reference aligned, to show the alignment found the
  text (an excerpt covers only its part of the chapter).

For a witness with inferred 注/经 boundaries (a 经 piece with no marker right after a
注 piece: the 四库 注疏), a second table says how good those guesses are and whether
the reader's ``cert="low"`` flags the bad ones: boundaries, flagged, off (some
aligned character of the 注 or the 经 on either side disagrees), off and flagged,
and unflagged exact.

A few examples of each disagreement are printed with the witness passage id (and
the reference's), so a human can read them.

The whole book (``--book FILES…``, :func:`measure_book`): every 篇 of the 注疏 against the
四部丛刊, with the files placed in 篇 as ``jiaokan init`` places them, in three stages — both
read alone; the 注疏's inferred 注/经 boundaries checked by the 集释 (a witness independent
of the judge); and the reference's own inferred boundaries checked by the 集释 as well.
Only 喪服 has any of the latter: the 四部丛刊 runs 经 items and 子夏's 传 together and its
reader infers where an item starts (:mod:`jiaokan.readers.layouts.zhuan`), so read alone
it is no certain reference there.  A disagreement the 集释 shares with the reference stays
(``出妻之子爲父後者則爲出母無服``: 经 after a ○ in the 注疏, 传 in the other two).  The 篇 are
split into folds (``--folds 1-8,9-13``); each fold is read with the 注疏 reader's prior
counted from the other folds' 注疏 files only, and the fold no rule was tuned on is marked
held out.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from ..errors import InputError
from ..collate.align import Op, align
from ..model import Inline, Where, Witness, walk
from ..normalize import keys
from ..readers import READERS, read_witness
from ..ui import table

__all__ = ["Stream", "stream", "Result", "Boundaries", "Example", "inferred_boundaries", "measure", "report",
           "run_pairs", "PianRow", "book_files", "parse_folds", "measure_book", "book_report", "main"]

#: Witness 经 runs with no reference counterpart at least this long are counted as 疏 labelled 经.
SHU_RUN = 8
#: The alignment may pin the first few reference characters after a lacuna to the same
#: characters just before the text the reference lost (``…奠觶于[lost page]篚…``):
#: a run that follows so few of them still stands in the lacuna.
LACUNA_SLACK = 3

JING, COMM, PARA = "经", "注", "para"

def layer_class(layer: str) -> str:
    """经, commentary (any commentary layer) or paratext."""
    if layer == "jing":
        return JING
    if layer == "paratext":
        return PARA
    return COMM


# --------------------------------------------------------------------------
# Streams


@dataclass
class Stream:
    """A witness as comparison keys in reading order, each with its layer class, unit and source character."""

    keys: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    chars: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # source line of each key
    pieces: list[str] = field(default_factory=list)  # id of the piece each key is in


def _runs(content: list[Inline], layer: str, line: list[int]) -> Iterable[tuple[str, str]]:
    """(text, layer) runs of inline content: text and gaiji in the piece's layer, notes in theirs.

    ``line`` (one element, updated in place) follows the line breaks passed (the one walk's).
    """
    where = Where(line=line[0])
    for step in walk(content, where):
        line[0] = where.line or line[0]
        r = step.node.reading
        if r:
            yield r, (step.note.layer if step.note is not None else layer)


def stream(w: Witness, classes: set[str] | None = None) -> Stream:
    """The key stream of ``w``; only pieces whose layer class is in ``classes`` (all when None)."""
    out = Stream()
    line = [0]
    for u in w.units():
        for p in u.pieces:
            line[0] = max(line[0], p.loc.line)
            keep = classes is None or layer_class(p.layer) in classes
            for text, layer in _runs(p.content, p.layer, line):
                if not keep:
                    continue
                cls = layer_class(layer)
                for i, k in keys(text):
                    out.keys.append(k)
                    out.classes.append(cls)
                    out.units.append(u.id)
                    out.chars.append(text[i])
                    out.lines.append(line[0])
                    out.pieces.append(p.id or "")
    return out


def lacuna_gaps(w: Witness, s: Stream) -> list[int]:
    """Key indexes of ``s`` that follow a lost page of ``w`` (its reader's ``lacuna`` warnings).

    The reference is not continuous there, so witness text it lacks at that point is
    not evidence of a layer error.
    """
    gaps: list[int] = []
    for lac in sorted(x.line for x in w.warnings if x.code == "lacuna"):
        gaps.append(next((i for i, ln in enumerate(s.lines) if ln > lac), len(s.lines)))
    return gaps


# --------------------------------------------------------------------------
# Measuring


@dataclass
class Example:
    kind: str
    witness_unit: str
    reference_unit: str
    text: str


@dataclass
class Result:
    witness: str
    reference: str
    aligned: int = 0
    agree: int = 0
    jing_as_comm: int = 0  # witness 经, reference commentary
    comm_as_jing: int = 0  # witness commentary, reference 经
    para: int = 0  # witness paratext over reference text
    shu_as_jing: int = 0
    in_lacuna: int = 0  # witness 经 the reference lacks because it lost a page there
    ref_total: int = 0
    boundaries: "Boundaries | None" = None  # inferred 注/经 boundaries, when the witness has any
    examples: list[Example] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.agree / self.aligned if self.aligned else 0.0

    @property
    def coverage(self) -> float:
        return self.aligned / self.ref_total if self.ref_total else 0.0


@dataclass
class Boundaries:
    """Inferred 注/经 boundaries against the reference: how many, and whether the flags catch the bad ones."""

    total: int = 0
    flagged: int = 0
    off: int = 0
    off_flagged: int = 0

    @property
    def unflagged_exact(self) -> int:
        return self.total - self.flagged - (self.off - self.off_flagged)


def inferred_boundaries(w: Witness) -> list[tuple[str, str, bool]]:
    """(注 piece id, 经 piece id, flagged) for every 经 piece that follows a 注 piece with no marker of its own."""
    out = []
    prev = None
    for p in w.pieces():
        first = next((x for x in p.content if x.kind not in ("lb", "pb")), None)
        if prev is not None and prev.layer == "zhu" and p.layer == "jing" and (first is None or first.kind != "label"):
            out.append((prev.id or "", p.id or "", p.cert == "low"))
        prev = p
    return out


def _boundaries(wit: Witness, ws: Stream, wrong: set[int]) -> Boundaries | None:
    found = inferred_boundaries(wit)
    if not found:
        return None
    bad_pieces = {ws.pieces[i] for i in wrong}
    res = Boundaries(total=len(found))
    for zhu, jing, flagged in found:
        off = zhu in bad_pieces or jing in bad_pieces
        res.flagged += flagged
        res.off += off
        res.off_flagged += off and flagged
    return res


def _kind(wcls: str, rcls: str) -> str | None:
    if wcls == rcls:
        return None
    if wcls == PARA:
        return "para"
    return "经→注" if wcls == JING else "注→经"


def measure(wit: Witness, ref: Witness, *, witness_name: str = "", reference_name: str = "",
            max_examples: int = 3) -> Result:
    """Align the reference's 经+commentary against the witness's full text and count layer agreement."""
    ws = stream(wit)
    # The reference's titles are aligned too, but never counted: without them the witness's
    # 篇 title (``士相見禮第三``) has nothing to pair with but the 经 that opens with the same
    # words (``士相見之禮``), and a tie of the alignment reports a heading rule that ate text.
    rs = stream(ref, {JING, COMM, PARA})
    res = Result(witness_name or wit.meta.file, reference_name or ref.meta.file,
                 ref_total=sum(c != PARA for c in rs.classes))
    partner: list[int | None] = [None] * len(ws.keys)
    disagreements: list[tuple[int, int, str]] = []  # (witness index, reference index, kind)
    for op in _settle_ties(align(rs.keys, ws.keys), ws, rs):
        if op.kind not in ("equal", "transpose"):
            continue
        for k in range(op.a1 - op.a0):
            r, w = op.a0 + k, op.b0 + k
            if rs.classes[r] == PARA:
                continue
            partner[w] = r
            res.aligned += 1
            kind = _kind(ws.classes[w], rs.classes[r])
            if kind is None:
                res.agree += 1
            else:
                disagreements.append((w, r, kind))
    counts = {"经→注": 0, "注→经": 0, "para": 0}
    for _, _, kind in disagreements:
        counts[kind] += 1
    res.jing_as_comm, res.comm_as_jing, res.para = counts["经→注"], counts["注→经"], counts["para"]
    res.examples.extend(_examples(disagreements, ws, rs, max_examples))
    reader = READERS.get(wit.meta.format)
    if reader is not None and reader.infers_boundaries:  # a format whose 注/经 boundaries are inferred (the 注疏)
        res.boundaries = _boundaries(wit, ws, {w for w, _, kind in disagreements if kind != "para"})
    _count_unmatched_jing(res, ws, partner, lacuna_gaps(ref, rs), max_examples)
    return res


#: Longest run of reference characters whose place among equal witness characters :func:`_settle_ties` decides.
TIE_MAX = 4


def _settle_ties(ops: list[Op], ws: Stream, rs: Stream) -> list[Op]:
    """Resolve the alignment's ties between identical characters in favour of the same layer.

    A short 经 item of the reference (``記``, ``適孫``) matches the same characters in the 疏
    around the witness's 经 just as well (``…記疏(釋曰儀禮諸篇有記者…)公子…``): which of them the
    aligner picks is arbitrary, and picking the 疏 reports a layer error that is not there.  So a
    short equal run whose layers disagree is moved to an identical run of the same layers inside
    the witness-only text beside it (never past another aligned character), when there is one.
    """
    out = list(ops)
    for i, op in enumerate(out):
        n = op.a1 - op.a0
        if op.kind != "equal" or n > TIE_MAX:
            continue
        want = rs.classes[op.a0:op.a1]
        if ws.classes[op.b0:op.b1] == want or PARA in want:
            continue
        lo = out[i - 1].b0 if i > 0 and out[i - 1].kind == "insert" else op.b0
        hi = out[i + 1].b1 if i + 1 < len(out) and out[i + 1].kind == "insert" else op.b1
        key = rs.keys[op.a0:op.a1]
        found = [q for q in range(lo, hi - n + 1)
                 if ws.keys[q:q + n] == key and ws.classes[q:q + n] == want]
        if found:
            q = min(found, key=lambda q: abs(q - op.b0))
            out[i] = Op("equal", op.a0, op.a1, q, q + n)
    return out


def _examples(disagreements: list[tuple[int, int, str]], ws: Stream, rs: Stream, limit: int) -> list[Example]:
    """The first ``limit`` runs of each kind: consecutive witness characters of one unit that disagree alike."""
    out: list[Example] = []
    shown: dict[str, int] = {}
    prev: tuple[int, str] | None = None
    for w, r, kind in disagreements:
        last = out[-1] if out else None
        if prev == (w - 1, kind) and last is not None and last.kind == kind and last.witness_unit == ws.units[w]:
            last.text += ws.chars[w]
        elif shown.get(kind, 0) < limit:
            out.append(Example(kind, ws.units[w], rs.units[r], ws.chars[w]))
            shown[kind] = shown.get(kind, 0) + 1
        else:
            prev = None
            continue
        prev = (w, kind)
    return out


def _count_unmatched_jing(res: Result, ws: Stream, partner: list[int | None], gaps: list[int],
                          max_examples: int) -> None:
    """Runs of witness 经 keys that the reference lacks entirely: commentary read as 经.

    A run that stands where the reference lost a page (a lacuna gap lies between the
    reference characters aligned just before and just after it, or at most
    :data:`LACUNA_SLACK` characters before the one aligned just before it) is counted apart.
    """
    n = len(ws.keys)
    i = 0
    while i < n:
        if partner[i] is not None or ws.classes[i] != JING:
            i += 1
            continue
        j = i
        while j < n and partner[j] is None and ws.classes[j] == JING:
            j += 1
        if j - i >= SHU_RUN:
            before = next((p for p in (partner[k] for k in range(i - 1, -1, -1)) if p is not None), -1)
            next_after = next((p for p in (partner[k] for k in range(j, n)) if p is not None), None)
            after = next_after if next_after is not None else max(before + 1, max(gaps, default=0))
            if any(before < g <= after or g <= before < g + LACUNA_SLACK for g in gaps):
                res.in_lacuna += j - i
            else:
                res.shu_as_jing += j - i
                if sum(ex.kind == "疏 as 经" for ex in res.examples) < max_examples:
                    res.examples.append(Example("疏 as 经", ws.units[i], "-", "".join(ws.chars[i:j])))
        i = j


# --------------------------------------------------------------------------
# Reading and reporting


def read(path: Path, fmt: str | None = None) -> Witness:
    """A witness with its manifest metadata when it is a corpus file."""
    from ..corpus import find_entry

    entry = find_entry(path)
    if entry is not None and not fmt:
        return read_witness(entry.path, entry.meta, entry.meta.format)
    return read_witness(path, None, fmt)


def report(results: list[Result], skipped: list[tuple[str, str, str]]) -> str:
    headers = ["witness", "reference", "aligned", "agree", "经→注", "注→经", "para", "疏 as 经", "ref lacuna",
               "ref cover"]
    rows = [
        [r.witness, r.reference, r.aligned, f"{100 * r.share:.2f}%", r.jing_as_comm, r.comm_as_jing, r.para,
         r.shu_as_jing, r.in_lacuna, f"{100 * r.coverage:.1f}%"]
        for r in results
    ]
    out = [table(headers, rows, numeric=set(range(2, 10)))]
    for w, ref, why in skipped:
        out.append(f"skipped {w} vs {ref}: {why}")
    inferred = [r for r in results if r.boundaries is not None]
    if inferred:
        out.append("\ninferred 注/经 boundaries (cert=low = flagged):")
        out.append(table(["witness", "boundaries", "flagged", "off", "off & flagged", "unflagged exact"],
                         [[r.witness, b.total, b.flagged, b.off, b.off_flagged, b.unflagged_exact]
                          for r in inferred if (b := r.boundaries) is not None], numeric=set(range(1, 6))))
    for r in results:
        if r.examples:
            out.append(f"\n{r.witness} vs {r.reference}: examples")
            for ex in r.examples:
                text = ex.text if len(ex.text) <= 40 else ex.text[:40] + "…"
                out.append(f"  [{ex.kind}] witness {ex.witness_unit} / reference {ex.reference_unit}: {text}")
    return "\n".join(out)


def run_pairs(pairs: Sequence[tuple[Path, Path]], *, witness_format: str | None = None,
              reference_format: str | None = None, max_examples: int = 3,
              relayer_with: Sequence[Path] = (), log: list[str] | None = None,
              ) -> tuple[list[Result], list[tuple[str, str, str]]]:
    """Measure every pair; a pair whose files cannot be read (no reader yet, missing file) is skipped with the reason.

    ``relayer_with``: files of a witness whose layers are explicit (the 集释, the 四部丛刊) that
    check and correct the witness's inferred 注/经 boundaries first, as the build does
    (:mod:`jiaokan.collate.relayer`); what was done goes to ``log``.  To measure that step
    fairly, correct with another witness than the reference (the 集释, judged by the 四部丛刊).
    """
    from ..collate.relayer import relayer

    results: list[Result] = []
    skipped: list[tuple[str, str, str]] = []
    refs: dict[Path, Witness] = {}
    for wpath, rpath in pairs:
        try:
            if rpath not in refs:
                refs[rpath] = read(rpath, reference_format)
            wit = read(wpath, witness_format)
            explicit = [refs[f] if f in refs else read(f) for f in relayer_with]
        except InputError as exc:
            skipped.append((wpath.name, rpath.name, str(exc)))
            continue
        if explicit:
            rep = relayer(wit, explicit, source="+".join(f.stem for f in relayer_with))
            if log is not None:
                log.append(rep.summary())
                log.extend(f"  {m}" for m in rep.moves)
        results.append(measure(wit, refs[rpath], witness_name=wpath.stem, reference_name=rpath.stem,
                               max_examples=max_examples))
    return results, skipped


# --------------------------------------------------------------------------
# The whole book, per 篇, in folds


#: The roles of the book mode: the witness measured (the 注疏, whose 注/经 boundaries are inferred), the
#: reference (the 四部丛刊, 注 in double columns) and the witness independent of both that checks
#: their inferred boundaries first (the 集释: 经 flush left, commentary indented).
WITNESS_ROLE, REFERENCE_ROLE, CHECK_ROLE = "zhushu", "songben", "jishi"


@dataclass
class PianRow:
    """One 篇 of the book mode: the agreement of the three stages, and whether the 篇 was held out."""

    pian: str
    number: int
    held_out: bool
    fold: int
    reader: Result | None = None  # both read alone
    relayered: Result | None = None  # the 注疏's inferred boundaries checked by the 集释
    reference_checked: Result | None = None  # the 四部丛刊's inferred 传/经 too (喪服)
    notes: list[str] = field(default_factory=list)


def book_files(paths: Sequence[Path]) -> dict[str, dict[str, list[Path]]]:
    """role → 篇 → files (in 卷 order), as ``jiaokan init`` places the files under ``paths``."""
    from ..book.init import survey

    out: dict[str, dict[str, list[Path]]] = {}
    for g in survey([str(p) for p in paths]).groups:
        by_pian = out.setdefault(g.role, {})
        for f in g.files:
            for pian, _ in f.pians:
                if pian and f.path not in by_pian.setdefault(pian, []):
                    by_pian[pian].append(f.path)
    return out


def parse_folds(spec: str) -> list[list[int]]:
    """``"1-8,9-13"`` → [[1..8], [9..13]]: 篇 numbers, one fold per comma."""
    folds = []
    for part in spec.split(","):
        lo, _, hi = part.strip().partition("-")
        try:
            a, b = int(lo), int(hi or lo)
        except ValueError:
            raise ValueError(f"--folds: expected 篇 numbers like 1-8,9-13, got {part.strip()!r}") from None
        if not 1 <= a <= b:
            raise ValueError(f"--folds: {part.strip()!r} is no range of 篇 numbers")
        folds.append(list(range(a, b + 1)))
    return folds


def measure_book(paths: Sequence[Path], folds: Sequence[Sequence[int]], *, held_out: int | None = None,
                 rotate_prior: bool = True, max_examples: int = 3,
                 log: list[str] | None = None) -> list[PianRow]:
    """Per 篇 of ``folds``: the 注疏 against the 四部丛刊, read alone, then with their inferred boundaries
    checked by the 集释 (:mod:`jiaokan.collate.relayer`), as :func:`run_pairs` does for one pair.

    ``rotate_prior``: the 注疏 reader's prior (bigram counts of the 经 and 注 its markers decide,
    :mod:`jiaokan.measure.zhushu_voices`) is counted from the *other* folds' 注疏 files for each fold,
    so every 篇 is read by models that never saw it; otherwise the shipped prior is used.
    ``held_out``: the fold (0-based) whose rules were not tuned on, marked in the report.
    """
    from ..book.pian import canonical
    from ..collate.relayer import relayer
    from ..readers.common.yili import PIAN
    from .zhushu_voices import count_voices

    files = book_files(paths)
    wit_f, ref_f, chk_f = (files.get(r, {}) for r in (WITNESS_ROLE, REFERENCE_ROLE, CHECK_ROLE))
    number = {canonical(p): i + 1 for i, p in enumerate(PIAN)}
    by_number = {number[canonical(p)]: p for p in set(wit_f) | set(ref_f) if canonical(p) in number}
    zs_reader = READERS["mandoku-zhushu"]
    saved = getattr(zs_reader, "voices", None)
    rows: list[PianRow] = []
    try:
        for k, fold in enumerate(folds):
            if rotate_prior:
                others = [f for j, other in enumerate(folds) if j != k for n in other
                          for f in wit_f.get(by_number.get(n, ""), [])]
                zs_reader.voices = count_voices(others)  # type: ignore[attr-defined]
            for n in fold:
                pian = by_number.get(n)
                row = PianRow(pian or f"篇{n}", n, held_out == k, k)
                rows.append(row)
                if pian is None or len(wit_f.get(pian, [])) != 1 or len(ref_f.get(pian, [])) != 1:
                    row.notes.append("skipped: the 篇 needs one 注疏 file and one 四部丛刊 file")
                    continue
                wpath, rpath = wit_f[pian][0], ref_f[pian][0]
                try:
                    wit, ref = read(wpath), read(rpath)
                    check = [read(f) for f in chk_f.get(pian, [])]
                except InputError as exc:
                    row.notes.append(f"skipped: {exc}")
                    continue
                name = dict(witness_name=wpath.stem, reference_name=rpath.stem, max_examples=max_examples)
                row.reader = measure(wit, ref, **name)  # type: ignore[arg-type]
                if not check:
                    row.notes.append("no 集释 for this 篇: nothing checks the inferred boundaries")
                    continue
                source = "+".join(f.stem for f in chk_f[pian])
                rep = relayer(wit, check, source=source, layers=_inferred(wit))
                row.notes.append(rep.summary())
                row.relayered = measure(wit, ref, **name)  # type: ignore[arg-type]
                rep = relayer(ref, check, source=source, layers=_inferred(ref))
                if rep.checked or rep.cut:
                    row.notes.append(rep.summary())
                    row.notes.extend(f"  {m}" for m in rep.moves)
                row.reference_checked = measure(wit, ref, **name)  # type: ignore[arg-type]
    finally:
        zs_reader.voices = saved  # type: ignore[attr-defined]
    if log is not None:
        for row in rows:
            log.extend(f"{row.pian}: {n}" for n in row.notes)
    return rows


def _inferred(w: Witness) -> frozenset[str]:
    reader = READERS.get(w.meta.format)
    return reader.infers_boundaries if reader is not None else frozenset()


def book_report(rows: Sequence[PianRow], fold_names: Sequence[str]) -> str:
    """The per-篇 table: agreement read alone, with the 注疏 checked by the 集释, and the reference too."""
    def pct(r: Result | None) -> str:
        return f"{100 * r.share:.2f}%" if r is not None else "-"

    body = []
    for row in rows:
        last = row.reference_checked or row.relayered or row.reader
        body.append([f"{row.number} {row.pian}", fold_names[row.fold] + (" (held out)" if row.held_out else ""),
                     last.aligned if last else "-", pct(row.reader), pct(row.relayered), pct(row.reference_checked),
                     last.jing_as_comm if last else "-", last.comm_as_jing if last else "-"])
    out = [table(["篇", "fold", "aligned", "read alone", "注疏 checked", "+ reference checked", "经→注", "注→经"],
                 body, numeric={2, 3, 4, 5, 6, 7})]
    for i, name in enumerate(fold_names):
        done = [r.reference_checked for r in rows if r.fold == i and r.reference_checked is not None]
        if done:
            worst = min(done, key=lambda r: r.share)
            out.append(f"fold {name}: lowest {100 * worst.share:.2f}% ({worst.witness})")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None, *, standard_pairs: Sequence[tuple[Path, Path]] = ()) -> int:
    """``layer_agreement [WITNESS --reference REF] ...``: one table; without a witness, the ``standard_pairs``."""
    ap = argparse.ArgumentParser(prog="layer_agreement", description="Share of aligned characters whose layer (经/commentary) agrees with a reference witness.")
    ap.add_argument("witness", nargs="?", help="witness file (default: the standard pairs)")
    ap.add_argument("--reference", help="reference witness file whose layers are certain (KR1d0026_00N.txt)")
    ap.add_argument("--witness-format", help="reader for the witness (default: manifest or sniffed)")
    ap.add_argument("--reference-format", help="reader for the reference (default: sniffed)")
    ap.add_argument("--examples", type=int, default=3, help="examples shown per kind of disagreement (default 3)")
    ap.add_argument("--zhushu-voices", metavar="TSV",
                    help="prior of the 注疏 boundary models instead of the shipped one (from "
                         "scripts/build_zhushu_voices.py: leave a chapter out to measure it fairly)")
    ap.add_argument("--relayer-with", metavar="FILE", action="append", type=Path, default=[],
                    help="first check the witness's inferred 注/经 boundaries against this witness whose layers "
                         "are explicit, as the build does (repeat for the files of one witness, in order; use "
                         "another witness than the reference, e.g. the 集释, to measure it fairly)")
    ap.add_argument("--book", metavar="PATH", type=Path, nargs="+", action="extend", default=[],
                    help="the whole book instead: every 篇 of the 注疏 against the 四部丛刊 among these files or folders (as "
                         "jiaokan init places them), read alone, then checked by the 集释")
    ap.add_argument("--folds", default="1-8,9-13",
                    help="with --book: 篇 numbers per fold (default 1-8,9-13); each fold is read with the 注疏 "
                         "prior counted from the other folds")
    ap.add_argument("--held-out", type=int, default=2, metavar="N",
                    help="with --book: the fold (1-based) no rule was tuned on, marked in the table (default 2)")
    ap.add_argument("--shipped-prior", action="store_true",
                    help="with --book: read every fold with the shipped 注疏 prior instead of rotating it")
    args = ap.parse_args(argv)
    if args.book:
        try:
            folds = parse_folds(args.folds)
        except ValueError as exc:
            ap.error(str(exc))
        for d in args.book:
            if not d.exists():
                ap.error(f"--book {d}: no such file or folder")
        book_log: list[str] = []
        rows = measure_book(args.book, folds, held_out=args.held_out - 1, rotate_prior=not args.shipped_prior,
                            max_examples=args.examples, log=book_log)
        print(book_report(rows, [f.strip() for f in args.folds.split(",")]))
        for row in rows:
            last = row.reference_checked or row.relayered or row.reader
            if last is not None and last.examples:
                print(f"\n{row.pian} ({last.witness} vs {last.reference}): examples")
                for ex in last.examples:
                    text = ex.text if len(ex.text) <= 40 else ex.text[:40] + "…"
                    print(f"  [{ex.kind}] witness {ex.witness_unit} / reference {ex.reference_unit}: {text}")
        print("\ncollation-informed layering:\n" + "\n".join(book_log))
        return 0
    if args.zhushu_voices:
        from ..readers import READERS
        from ..readers.layouts.zhushu_boundary import read_voices

        try:
            READERS["mandoku-zhushu"].voices = read_voices(args.zhushu_voices)  # type: ignore[attr-defined]
        except OSError as exc:
            ap.error(f"--zhushu-voices {args.zhushu_voices}: {exc.strerror}")
        except ValueError as exc:
            ap.error(f"--zhushu-voices: {exc}")
    if args.witness and not args.reference:
        ap.error("a witness needs --reference")
    if args.reference and not args.witness:
        ap.error("--reference needs a witness")
    pairs = [(Path(args.witness), Path(args.reference))] if args.witness else list(standard_pairs)
    log: list[str] = []
    results, skipped = run_pairs(pairs, witness_format=args.witness_format, reference_format=args.reference_format,
                                 max_examples=args.examples, relayer_with=args.relayer_with, log=log)
    print(report(results, skipped))
    if log:
        print("\ncollation-informed layering:\n" + "\n".join(log))
    if args.witness and not results:
        return 2
    return 0
