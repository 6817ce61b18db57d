"""Score jiaokan's reading of the 案 notes against a hand-checked reference.

The reference (``tests/fixtures/an_reference.tsv``, described in the README beside it)
holds, for every claim of some 集释 卷, what a person reading the raw Kanripo files found:
the kind of claim, its lemma and reading, and the verdict the 四库 注疏 supports.  This
module runs jiaokan on the same 卷 — with the same pairing as
:mod:`jiaokan.measure.an_check` (each 集释 卷 against the 注疏 卷 of its 篇) — and prints,
per verdict, precision and recall of jiaokan's verdicts, then agreement on kind, lemma and
reading, then every claim where the two disagree.

Why a script and not a test: the figures are what the issue's "done when" asks to be
reported, and they are expected to move as the grammar, anchoring and checks improve; a
test pinning them would only be edited along.  The arithmetic is tested on a synthetic
reference (``tests/test_an_reference.py``).

Claims are paired by claim id (``JS3.5.zhu1.an1``, ``…an1~2`` for a note's second claim):
a reference claim jiaokan does not produce counts as a miss for every measure, a claim
jiaokan produces that the reference lacks (in a 卷 the reference covers) as a false
positive for the verdict it was given.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Sequence, TextIO

from ..emend.apply import EmendResult
from ..emend.check import is_zhushu_claim
from ..emend.verdict import KINDS, VERDICTS
from ..errors import InputError
from .an_check import check_pair, find_front, find_pairs

__all__ = [
    "REF_VERDICTS", "Judged", "load_reference", "judged_from_result", "Scores", "score", "report", "by_juan", "main",
]

#: The verdicts of the reference: the checker's three, and ``not checkable`` for a claim no
#: witness here can decide (唐石經, 明監本, a conjecture on the 集释 itself, a lacuna, a comment).
NOT_CHECKABLE = "not checkable"
REF_VERDICTS: tuple[str, ...] = (*VERDICTS, NOT_CHECKABLE)
#: What jiaokan gives a claim about the 注疏 it could not check (no anchor): never right.
NOT_CHECKED = "not checked"
#: A reference claim jiaokan does not produce at all.
MISSING = "missing"

COLUMNS: tuple[str, ...] = (
    "juan", "claim", "source", "raw", "kind", "target", "lemma", "reading", "verdict",
    "zs_reads", "zs_page", "sb_reads", "sb_page", "remark",
)


@dataclass(frozen=True)
class Judged:
    """One claim as judged (by hand, or by jiaokan): what the scores compare."""

    claim: str
    juan: str
    kind: str
    lemma: str
    reading: str
    verdict: str
    #: the witness the claim is about (今注疏本, 各本, 原本, 唐石經 …); only the reference's is used
    target: str = ""


#: The target of the claims the issue's "done when" counts separately.
ZHUSHU_TARGET = "今注疏本"


def load_reference(path: Path) -> list[Judged]:
    """The rows of a reference TSV; ``InputError`` naming file and line for a bad row."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(str(path), f"cannot read the reference: {exc.strerror or exc}") from exc
    rows = list(csv.reader(text.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE))
    if not rows or tuple(rows[0]) != COLUMNS:
        raise InputError(str(path), f"expected the header {' '.join(COLUMNS)}", line=1)
    out: list[Judged] = []
    seen: set[str] = set()
    for n, row in enumerate(rows[1:], 2):
        if not row:
            continue
        if len(row) != len(COLUMNS):
            raise InputError(str(path), f"expected {len(COLUMNS)} tab-separated columns, found {len(row)}", line=n)
        r = dict(zip(COLUMNS, row))
        if r["kind"] not in KINDS:
            raise InputError(str(path), f"kind {r['kind']!r} is not one of {', '.join(KINDS)}", line=n)
        if r["verdict"] not in REF_VERDICTS:
            raise InputError(str(path), f"verdict {r['verdict']!r} is not one of {', '.join(REF_VERDICTS)}", line=n)
        if r["claim"] in seen:
            raise InputError(str(path), f"claim {r['claim']} given twice", line=n)
        seen.add(r["claim"])
        out.append(Judged(r["claim"], r["juan"], r["kind"], r["lemma"], r["reading"], r["verdict"], r["target"]))
    return out


def judged_from_result(res: EmendResult, juan: str) -> list[Judged]:
    """jiaokan's claims of one 卷, in the reference's terms.

    A claim's verdict is its check's where the check gave one (claims about the 注疏, and
    claims about 原本 corrected from the 注疏); a claim about the 注疏 without one is ``not
    checked``; every other claim is ``not checkable``.
    The lemma is the record's, or, where the note names none (``脫此四字``, ``今注疏本作XYZ``),
    the text jiaokan anchored: the reference resolves such lemmas to the characters meant.
    """
    out: list[Judged] = []
    for c in res.claims:
        v = res.checks[c.id].verdict if c.id in res.checks else None
        if v:  # a claim about the 注疏, or one whose evidence it is (原本…據今注疏本改正)
            verdict = v
        elif is_zhushu_claim(c):
            verdict = NOT_CHECKED
        else:
            verdict = NOT_CHECKABLE
        r = c.record
        lemma = r.lemma or (c.anchor.text if c.anchor is not None else "")
        out.append(Judged(c.id, juan, r.kind, lemma, r.reading, verdict, r.target_name or r.target))
    return out


@dataclass
class Scores:
    """The comparison of jiaokan's judgements with the reference's."""

    total: int
    #: per verdict: (true positives, jiaokan's count, the reference's count)
    verdicts: dict[str, tuple[int, int, int]]
    #: claims on which the verdicts agree / kinds / lemmas / readings agree
    agree: Counter
    #: reference claims jiaokan does not produce; jiaokan claims the reference lacks
    missing: list[str]
    extra: list[str]
    #: (claim, field, reference value, jiaokan value) for every disagreement
    diffs: list[tuple[str, str, str, str]]

    @staticmethod
    def ratio(num: int, den: int) -> str:
        return f"{100 * num / den:.1f}%" if den else "—"


FIELDS: tuple[str, ...] = ("verdict", "kind", "lemma", "reading")


def score(reference: Iterable[Judged], jiaokan: Iterable[Judged]) -> Scores:
    """Precision and recall per verdict, and agreement per field, of ``jiaokan`` against ``reference``.

    Only jiaokan claims of the 卷 the reference covers take part.  Precision of verdict v =
    claims both give v / claims jiaokan gives v; recall = claims both give v / claims the
    reference gives v.
    """
    ref = {j.claim: j for j in reference}
    juans = {j.juan for j in ref.values()}
    jk = {j.claim: j for j in jiaokan if j.juan in juans}
    tp: Counter = Counter()
    jk_n: Counter = Counter()
    ref_n: Counter = Counter()
    agree: Counter = Counter()
    diffs: list[tuple[str, str, str, str]] = []
    for cid, r in ref.items():
        ref_n[r.verdict] += 1
        j = jk.get(cid)
        if j is None:
            diffs.append((cid, "claim", r.verdict, MISSING))
            continue
        for f in FIELDS:
            a, b = getattr(r, f), getattr(j, f)
            if a == b:
                agree[f] += 1
            else:
                diffs.append((cid, f, a, b))
        if r.verdict == j.verdict:
            tp[r.verdict] += 1
    for j in jk.values():
        jk_n[j.verdict] += 1
    extra = sorted(cid for cid in jk if cid not in ref)
    for cid in extra:
        diffs.append((cid, "claim", MISSING, jk[cid].verdict))
    names = [*REF_VERDICTS, *sorted(set(jk_n) - set(REF_VERDICTS))]
    return Scores(
        total=len(ref),
        verdicts={v: (tp[v], jk_n[v], ref_n[v]) for v in names},
        agree=agree,
        missing=sorted(cid for cid in ref if cid not in jk),
        extra=extra,
        diffs=diffs,
    )


def report(s: Scores, out: TextIO, raw: Mapping[str, str] | None = None, *, title: str = "",
           diffs: bool = True) -> None:
    """Print the scores; ``raw`` (claim → note text) lets the disagreements show their note."""
    print(f"{title}{s.total} hand-checked claims; jiaokan produces {s.total - len(s.missing)} of them"
          f" and {len(s.extra)} more", file=out)
    print(f"{'verdict':<15} {'both':>5} {'jiaokan':>8} {'ref':>5} {'precision':>10} {'recall':>8}", file=out)
    for v, (tp, jn, rn) in s.verdicts.items():
        print(f"{v:<15} {tp:>5} {jn:>8} {rn:>5} {Scores.ratio(tp, jn):>10} {Scores.ratio(tp, rn):>8}", file=out)
    for f in FIELDS:
        print(f"{f} agrees on {s.agree[f]} of {s.total} ({Scores.ratio(s.agree[f], s.total)})", file=out)
    if diffs and s.diffs:
        print(f"\ndisagreements ({len({d[0] for d in s.diffs})} claims; reference → jiaokan):", file=out)
        last = ""
        for cid, f, a, b in s.diffs:
            if cid != last and raw is not None and cid in raw:
                print(f"  {cid}  {raw[cid]}", file=out)
            elif cid != last:
                print(f"  {cid}", file=out)
            last = cid
            print(f"      {f}: {a or '∅'} → {b or '∅'}", file=out)


def by_juan(reference: Sequence[Judged], jiaokan: Sequence[Judged], out: TextIO) -> None:
    """One line per 卷: claims, verdicts agreeing, and the reference's contradictions jiaokan matches."""
    print(f"{'卷':<14} {'claims':>6} {'verdict agrees':>15} {'contradicted matched':>21}", file=out)
    for juan in sorted({j.juan for j in reference}):
        s = score([j for j in reference if j.juan == juan], [j for j in jiaokan if j.juan == juan])
        tp, _jn, rn = s.verdicts.get("contradicted", (0, 0, 0))
        a = s.agree["verdict"]
        print(f"{juan:<14} {s.total:>6} {a:>6} ({Scores.ratio(a, s.total):>6}) {tp:>10} of {rn:<3}", file=out)


def _raw_notes(path: Path) -> dict[str, str]:
    rows = csv.DictReader(path.read_text(encoding="utf-8").splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE)
    return {r["claim"]: r["raw"] for r in rows}


def main(argv: Sequence[str] | None = None, *, default_dir: Path | None = None,
         default_reference: Path | None = None) -> int:
    """``an_reference [--kanripo DIR] [--reference FILE]``: score jiaokan against the reference."""
    ap = argparse.ArgumentParser(prog="an_reference", description=__doc__.split("\n\n")[0])
    ap.add_argument("--kanripo", type=Path, default=default_dir, help=f"folder of Mandoku files (default {default_dir})")
    ap.add_argument("--reference", type=Path, default=default_reference,
                    help=f"the hand-checked reference TSV (default {default_reference})")
    args = ap.parse_args(argv)
    if args.kanripo is None or args.reference is None:
        ap.error("give --kanripo DIR and --reference FILE")
    try:
        ref = load_reference(args.reference)
        if not args.kanripo.is_dir():
            raise InputError(str(args.kanripo), "no such folder")
        pairs, _problems = find_pairs(args.kanripo)
        front = find_front(args.kanripo)
        juans = {j.juan for j in ref}
        got: list[Judged] = []
        for jishi, zhushu in pairs:
            if jishi.stem in juans:
                got.extend(judged_from_result(check_pair(jishi, zhushu, front), jishi.stem))
                juans.discard(jishi.stem)
        if juans:
            raise InputError(str(args.kanripo), f"no file for the 卷 {', '.join(sorted(juans))} of the reference")
    except (InputError, ValueError) as exc:
        print(f"an_reference: error: {exc}", file=sys.stderr)
        return 2
    zs_ref = [j for j in ref if j.target == ZHUSHU_TARGET]
    zs_ids = {j.claim for j in zs_ref}
    report(score(zs_ref, [j for j in got if j.claim in zs_ids]), sys.stdout,
           title=f"claims about {ZHUSHU_TARGET}: ", diffs=False)
    print(file=sys.stdout)
    print(file=sys.stdout)
    by_juan(ref, got, sys.stdout)
    print(file=sys.stdout)
    report(score(ref, got), sys.stdout, _raw_notes(args.reference), title="all claims: ")
    return 0
