"""Count the 案 notes' claims about a 宋本 and the 释文, per 卷 and verdict, from emend reports.

The command line is ``scripts/an_witness_claims.py``.  It reads the JSON reports the emend
stage writes (``jiaokan build`` → ``OUT/emend/*.json``, or ``jiaokan emend --json``), takes the
evidence records of every note (:class:`~jiaokan.emend.verdict.ClaimEvidence`) whose target
is a witness other than the 注疏 that a witness here speaks for (``songben``, ``shiwen``),
and prints per 卷 the verdicts, then the deciding rules, then every claim not confirmed with
its sentence, for a person to check against the raw files.

Why from the reports and not by running the checks again: the figures are those of the
build a reader has in hand, and the reports are the published form of the evidence.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Iterable, Sequence, TextIO

from ..emend.verdict import VERDICTS, ClaimEvidence, NoteVerdict
from ..errors import InputError
from ..normalize.numerals import chinese_numeral

__all__ = ["TARGETS", "load_evidence", "juan_of", "tally", "report", "main"]

#: The targets counted: the witnesses other than the 注疏 that a witness here speaks for.
TARGETS: tuple[str, ...] = ("songben", "shiwen")


def load_evidence(paths: Iterable[Path]) -> list[ClaimEvidence]:
    """Every evidence record of the ``by_note`` member of the reports ``paths``."""
    out: list[ClaimEvidence] = []
    for p in paths:
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(str(p), f"not a readable JSON report: {exc}") from None
        notes = data.get("by_note") if isinstance(data, dict) else None
        if not isinstance(notes, dict):
            raise InputError(str(p), "no by_note member: expected a report of `jiaokan emend --json` or `jiaokan build`")
        for nid, rec in notes.items():
            try:
                out.extend(NoteVerdict.from_dict(rec).claims)
            except (ValueError, AttributeError) as exc:
                raise InputError(str(p), f"note {nid}: {exc}") from None
    return out


def juan_of(ev: ClaimEvidence) -> int | None:
    """The 卷 of a claim, from its place (``卷十 葉一b 行5``); None when the place does not say."""
    head = (ev.place or "").split(" ", 1)[0]
    return chinese_numeral(head[1:]) if head.startswith("卷") else None


def tally(evidence: Iterable[ClaimEvidence]) -> dict[tuple[int | None, str], Counter]:
    """``{(卷, target): Counter(verdict or "not checked")}`` over the targets of :data:`TARGETS`."""
    out: dict[tuple[int | None, str], Counter] = {}
    for ev in evidence:
        if ev.target in TARGETS:
            out.setdefault((juan_of(ev), ev.target), Counter())[ev.verdict or "not checked"] += 1
    return out


def report(evidence: list[ClaimEvidence], out: TextIO) -> None:
    t = tally(evidence)
    cols = (*VERDICTS, "not checked")
    print("卷    target    " + "  ".join(f"{c:>12}" for c in cols) + "  total", file=out)
    for (juan, target), c in sorted(t.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1])):
        print(f"{juan if juan is not None else '?':<5} {target:<9} " + "  ".join(f"{c[v]:>12}" for v in cols)
              + f"  {sum(c.values()):>5}", file=out)
    for target in TARGETS:
        total: Counter = sum((c for (_, tg), c in t.items() if tg == target), Counter())
        print(f"all   {target:<9} " + "  ".join(f"{total[v]:>12}" for v in cols) + f"  {sum(total.values()):>5}",
              file=out)
    rules = Counter((ev.target, ev.verdict or "not checked", ev.rule) for ev in evidence if ev.target in TARGETS)
    print("\nby rule:", file=out)
    for (target, verdict, rule), n in sorted(rules.items()):
        print(f"  {target:<8} {verdict:<13} {rule:<22} {n}", file=out)
    print("\nnot confirmed:", file=out)
    for ev in evidence:
        if ev.target in TARGETS and ev.verdict != "confirmed":
            readings = "; ".join(f"{s}={r or '∅'}" for s, r in ev.readings.items())
            print(f"  {ev.id} [{ev.place}] {ev.verdict or 'not checked'} {ev.rule}: {readings}\n    {ev.why}", file=out)


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    ap = argparse.ArgumentParser(description="Claims about a 宋本 and the 释文 in emend reports, per 卷 and verdict.")
    ap.add_argument("reports", nargs="+", type=Path, help="emend JSON reports, or folders of them (OUT/emend)")
    args = ap.parse_args(argv)
    paths: list[Path] = []
    for p in args.reports:
        paths.extend(sorted(p.glob("*.json")) if p.is_dir() else [p])
    try:
        report(load_evidence(paths), out)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
