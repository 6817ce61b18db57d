"""The 案 figures of the issue's "done when", per fold of 集释 卷: tune on some folds, measure on the rest.

Why folds: a grammar tuned on the notes it is measured on looks perfect and is not (the
checker that read 394/394 notes of 卷一–十四 misread 6% of 卷十五–二十四).  The 集释 卷 are
split into folds of consecutive 卷 (default 卷一–八, 九–十六, 十七–二十四); a rule is tuned on
two folds and the third shows what it does on notes it was not tuned on.

Per fold: notes, the share parsed into a known kind, the claims about 今注疏本/各本 and the
share with a verdict, the verdicts, and — on the claims of the hand-checked reference
(``tests/fixtures/an_reference.tsv``) in the fold — the precision of "contradicted" and
the number of false "confirmed".
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Sequence

from ..errors import InputError
from .an_check import check_pair, find_front, find_pairs, table_row
from .an_reference import Judged, judged_from_result, load_reference

__all__ = ["DEFAULT_FOLDS", "fold_of", "main"]

#: (name, first 卷, last 卷) of the default folds.
DEFAULT_FOLDS: tuple[tuple[str, int, int], ...] = (("A 1-8", 1, 8), ("B 9-16", 9, 16), ("C 17-24", 17, 24))


def fold_of(stem: str, folds: Sequence[tuple[str, int, int]] = DEFAULT_FOLDS) -> str | None:
    """The fold of a 集释 file stem (``KR1d0030_017`` → ``C 17-24``); None outside every fold."""
    try:
        n = int(stem.rsplit("_", 1)[-1])
    except ValueError:
        return None
    return next((name for name, lo, hi in folds if lo <= n <= hi), None)


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "—"


def main(argv: Sequence[str] | None = None, *, default_dir: Path | None = None,
         default_reference: Path | None = None) -> int:
    """``an_folds [--kanripo DIR] [--reference FILE]``: one line per fold."""
    ap = argparse.ArgumentParser(prog="an_folds", description=__doc__.split("\n\n")[0])
    ap.add_argument("--kanripo", type=Path, default=default_dir)
    ap.add_argument("--reference", type=Path, default=default_reference)
    args = ap.parse_args(argv)
    try:
        if args.kanripo is None or not args.kanripo.is_dir():
            raise InputError(str(args.kanripo), "no such folder")
        ref = load_reference(args.reference) if args.reference is not None else []
        pairs, _problems = find_pairs(args.kanripo)
        front = find_front(args.kanripo)
    except (InputError, ValueError) as exc:
        print(f"an_folds: error: {exc}", file=sys.stderr)
        return 2
    rows: dict[str, Counter] = {}
    got: dict[str, list[Judged]] = {}
    for jishi, zhushu in pairs:
        fold = fold_of(jishi.stem)
        if fold is None or zhushu is None:
            continue
        res = check_pair(jishi, zhushu, front)
        _line, c = table_row(jishi.stem, res)
        rows.setdefault(fold, Counter()).update(c)
        got.setdefault(fold, []).extend(judged_from_result(res, jishi.stem))
    refs = {j.claim: j for j in ref}
    print(f"{'fold':<9} {'notes':>5} {'parsed':>7} {'注疏':>5} {'verdict':>7} {'conf':>5} {'contra':>6}"
          f" {'uncert':>6} {'n.cov':>5} {'ref':>4} {'contra prec':>11} {'false conf':>10}")
    total: Counter = Counter()
    for fold in [f[0] for f in DEFAULT_FOLDS]:
        c = rows.get(fold, Counter())
        judged = [j for j in got.get(fold, []) if j.claim in refs]
        contra = [j for j in judged if j.verdict == "contradicted"]
        right = sum(1 for j in contra if refs[j.claim].verdict == "contradicted")
        false_conf = sum(1 for j in judged if j.verdict == "confirmed" and refs[j.claim].verdict != "confirmed")
        c["ref"], c["contra_ref"], c["contra_right"], c["false_conf"] = len(judged), len(contra), right, false_conf
        total.update(c)
        _print(fold, c)
    _print("all", total)
    return 0


def _print(name: str, c: Counter) -> None:
    with_verdict = c["zs"] - c["not checked"]
    prec = f"{c['contra_right']}/{c['contra_ref']}" if c["ref"] else "—"
    print(f"{name:<9} {c['notes']:>5} {_pct(c['parsed'], c['notes']):>7} {c['zs']:>5} {_pct(with_verdict, c['zs']):>7}"
          f" {c['confirmed']:>5} {c['contradicted']:>6} {c['uncertain']:>6} {c['not covered']:>5} {c['ref']:>4}"
          f" {prec:>11} {c['false_conf'] if c['ref'] else '—':>10}")
