"""Check the 案 notes of Kanripo 《儀禮集釋》 chapters against the Kanripo 四库 《儀禮注疏》.

The command line is ``scripts/an_check_kanripo.py`` (:func:`main`, given the folder of
Kanripo files to scan by default).

For each 集释 卷 the script reads both files (the Mandoku readers), anchors every 案 note,
collates the 卷 with the 注疏 卷 of the same 篇 (paired by the 篇 title the readers find,
e.g. 大射儀), checks every claim about 今注疏本 and prints the share confirmed,
contradicted and not covered, then every contradicted claim with the note, its anchor in
the 集释 and what the 注疏 reads there, for a human to judge.  Claims that could not be
anchored are listed too: they are failures of the tool, never silently dropped.

Nothing here is specific to particular notes: the note language is parsed by
:mod:`jiaokan.emend.notes`, anchored by :mod:`jiaokan.emend.anchor` and checked by
:mod:`jiaokan.emend.check`.  Remember that the 四库 注疏 was itself corrected by the
editors in places (see its 考證), so some contradictions are genuine.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Sequence, TextIO

from ..errors import InputError
from ..emend.apply import EmendResult, emend
from ..emend.check import is_zhushu_claim
from ..emend.report import to_json
from ..emend.verdict import VERDICTS
from ..io import atomic_write_text
from ..model import Witness, WitnessMeta
from ..normalize import key
from ..readers import read_witness

__all__ = ["find_pairs", "check_pair", "counts", "shares", "report", "main"]

JISHI_ID = "KR1d0030"
ZHUSHU_ID = "KR1d0028"


def read(path: Path, siglum: str) -> Witness:
    return read_witness(path, WitnessMeta(siglum=siglum, file=str(path), format=""))


def chapter_key(w: Witness) -> str:
    """The 篇 a witness holds, folded (鄉射禮 / 乡射礼 → one key); "" when the reader found none."""
    name = w.meta.chapter or next((d.title for d in w.divs if d.type == "chapter" and d.title), "") or ""
    return "".join(key(ch) for ch in name)


def _chapters(folder: Path, text_id: str, siglum: str, problems: list[str]) -> list[tuple[Path, str]]:
    """(file, 篇 key) of every 卷 of Kanripo text ``text_id`` in ``folder``; unreadable files go to ``problems``."""
    out: list[tuple[Path, str]] = []
    for p in sorted(folder.glob(f"{text_id}_*.txt")):
        try:
            out.append((p, chapter_key(read(p, siglum))))
        except InputError as exc:
            problems.append(f"{p.name}: cannot read: {exc}")
    return out


def find_pairs(folder: Path) -> tuple[list[tuple[Path, Path | None]], list[str]]:
    """Every 集释 卷 of ``folder`` with the 注疏 卷 of its 篇 (None when there is none)."""
    problems: list[str] = []
    zhushu: dict[str, Path] = {}
    for p, k in _chapters(folder, ZHUSHU_ID, "ZS", problems):
        if k:
            zhushu.setdefault(k, p)
        else:
            problems.append(f"{p.name}: no 篇 title found")
    pairs: list[tuple[Path, Path | None]] = []
    for p, k in _chapters(folder, JISHI_ID, "JS", problems):
        z = zhushu.get(k)
        if z is None:
            problems.append(f"{p.name}: no 注疏 卷 for its 篇 ({k or 'no 篇 title found'}); give it with --pair")
        pairs.append((p, z))
    return pairs, problems


def check_pair(jishi: Path, zhushu: Path | None) -> EmendResult:
    js = read(jishi, "JS")
    zs = read(zhushu, "ZS") if zhushu is not None else None
    return emend(js, zs)


def counts(res: EmendResult) -> Counter:
    c: Counter = Counter()
    for cl in res.claims:
        if is_zhushu_claim(cl):
            c[res.checks[cl.id].verdict or "not checked"] += 1
    return c


def shares(c: Counter) -> str:
    total = sum(c.values())
    if not total:
        return "no claims about the 注疏"
    parts = [f"{v} {c[v]} ({100 * c[v] / total:.1f}%)" for v in VERDICTS]
    if c["not checked"]:
        parts.append(f"not checked {c['not checked']} ({100 * c['not checked'] / total:.1f}%)")
    return f"{total} claims about the 注疏: " + ", ".join(parts)


def report(res: EmendResult, jishi: Path, zhushu: Path | None, out: TextIO) -> Counter:
    w = res.witness
    c = counts(res)
    notes = len({x.note_id for x in res.claims})
    kinds = Counter(x.record.kind for x in res.claims)
    print(f"\n== {jishi.name} ({w.meta.chapter or '?'}) against {zhushu.name if zhushu else '— (no 注疏 卷)'}", file=out)
    print(f"   {notes} notes, {len(res.claims)} claims: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()), file=out)
    print(f"   {shares(c)}", file=out)
    failed = res.anchor_failures()
    if failed:
        print(f"   NOT ANCHORED ({len(failed)}):", file=out)
        for x in failed:
            print(f"     {x.id}  {x.record.raw}\n       {x.error}", file=out)
    contra = [x for x in res.claims if is_zhushu_claim(x) and res.checks[x.id].verdict == "contradicted"]
    if contra:
        print(f"   CONTRADICTED ({len(contra)}):", file=out)
        for x in contra:
            ch = res.checks[x.id]
            a = x.anchor
            assert a is not None  # only an anchored claim can be contradicted
            print(f"     {x.id}  [{x.record.kind}] {x.record.raw}", file=out)
            print(f"       集释 {a.unit} p.{a.page or '?'}: {a.context}", file=out)
            print(f"       注疏 {ch.zs_unit or '?'} p.{ch.zs_page or '?'}: {ch.zs_context or '—'}", file=out)
            print(f"       {ch.summary}", file=out)
    uncovered = [x for x in res.claims if is_zhushu_claim(x) and res.checks[x.id].verdict == "not covered"]
    if uncovered:
        print(f"   not covered ({len(uncovered)}):", file=out)
        for x in uncovered:
            a = x.anchor
            print(f"     {x.id}  {a.context if a else ''}  — {res.checks[x.id].summary}", file=out)
    return c


def main(argv: Sequence[str] | None = None, *, default_dir: Path | None = None) -> int:
    """``an_check_kanripo [--kanripo DIR | --pair JISHI ZHUSHU ...] [--json FILE]``; ``default_dir`` is scanned by default."""
    ap = argparse.ArgumentParser(prog="an_check_kanripo", description=__doc__.split("\n\n")[0])
    ap.add_argument("--kanripo", type=Path, default=default_dir, help=f"folder of Mandoku files (default {default_dir})")
    ap.add_argument("--pair", nargs=2, action="append", metavar=("JISHI", "ZHUSHU"), type=Path,
                    help="check this 集释 file against this 注疏 file (repeatable; replaces the folder scan)")
    ap.add_argument("--json", type=Path, metavar="FILE", help="write every claim and check as JSON")
    args = ap.parse_args(argv)

    if args.pair:
        pairs: list[tuple[Path, Path | None]] = [(j, z) for j, z in args.pair]
        problems: list[str] = []
    else:
        if args.kanripo is None:
            ap.error("give --kanripo DIR or --pair JISHI ZHUSHU")
        if not args.kanripo.is_dir():
            print(f"an_check_kanripo: error: {args.kanripo}: no such folder", file=sys.stderr)
            return 2
        pairs, problems = find_pairs(args.kanripo)
    for p in problems:
        print(f"note: {p}", file=sys.stderr)
    if not pairs:
        print("an_check_kanripo: error: no 集释 files to check", file=sys.stderr)
        return 2
    total: Counter = Counter()
    dump = []
    for j, z in pairs:
        try:
            res = check_pair(j, z)
        except (InputError, ValueError) as exc:
            print(f"an_check_kanripo: error: {j.name}: {exc}", file=sys.stderr)
            continue
        total += report(res, j, z, sys.stdout)
        if args.json:
            dump.append({"jishi": str(j), "zhushu": str(z) if z else None, **to_json(res)})
    print(f"\n== all: {shares(total)}")
    if args.json:
        atomic_write_text(args.json, json.dumps(dump, ensure_ascii=False, indent=1) + "\n")
        print(f"-> {args.json}", file=sys.stderr)
    return 0
