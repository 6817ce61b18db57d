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

__all__ = ["find_pairs", "find_front", "check_pair", "counts", "shares", "report", "table_row", "TABLE_HEAD", "main"]

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


def find_front(folder: Path) -> Path | None:
    """The 注疏's front matter (卷首): its first 卷 in which the reader finds no 篇 title.

    The 注疏 gives the 鄭目録 of every 篇 there; claims on the 集释's 目録 passages are checked
    against it (:func:`jiaokan.emend.check._in_front_matter`).  Files are read in order and
    the search stops at the first such 卷 (the front matter sorts first: ``_000``).
    """
    for p in sorted(folder.glob(f"{ZHUSHU_ID}_*.txt")):
        try:
            if not chapter_key(read(p, "ZS")):
                return p
        except InputError:
            continue
    return None


def check_pair(jishi: Path, zhushu: Path | None, front: Path | None = None) -> EmendResult:
    js = read(jishi, "JS")
    zs = read(zhushu, "ZS") if zhushu is not None else None
    fm = read(front, "ZS0") if front is not None and zs is not None else None
    return emend(js, zs, front=fm)


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


#: The columns of ``--table``: one line per 卷, the figures the issue's "done when" names.
TABLE_HEAD = (f"{'卷':<14} {'notes':>5} {'parsed':>7} {'claims':>6} {'注疏':>5} {'conf':>5} {'contra':>6}"
              f" {'n.cov':>5} {'n.chk':>5} {'verdict':>7}")


def table_row(name: str, res: EmendResult) -> tuple[str, Counter]:
    """One line of ``--table`` for a 卷, and its counts (notes, parsed notes, claims, verdicts) to sum.

    A note counts as parsed when its first claim is of a known shape (rule not ``unparsed``);
    a claim about the 注疏 has a verdict unless its check has none (``not checked``).
    """
    c: Counter = Counter()
    firsts = [x for x in res.claims if x.index == 0]
    c["notes"] = len(firsts)
    c["parsed"] = sum(1 for x in firsts if x.record.rule not in ("unparsed",) and not x.record.rule.startswith("error"))
    c["claims"] = len(res.claims)
    v = counts(res)
    c["zs"] = sum(v.values())
    for k in (*VERDICTS, "not checked"):
        c[k] = v[k]
    return format_row(name, c), c


def format_row(name: str, c: Counter) -> str:
    def pct(a: int, b: int) -> str:
        return f"{100 * a / b:.1f}%" if b else "—"
    return (f"{name:<14} {c['notes']:>5} {pct(c['parsed'], c['notes']):>7} {c['claims']:>6} {c['zs']:>5}"
            f" {c['confirmed']:>5} {c['contradicted']:>6} {c['not covered']:>5} {c['not checked']:>5}"
            f" {pct(c['zs'] - c['not checked'], c['zs']):>7}")


def main(argv: Sequence[str] | None = None, *, default_dir: Path | None = None) -> int:
    """``an_check_kanripo [--kanripo DIR | --pair JISHI ZHUSHU ...] [--json FILE]``; ``default_dir`` is scanned by default."""
    ap = argparse.ArgumentParser(prog="an_check_kanripo", description=__doc__.split("\n\n")[0])
    ap.add_argument("--kanripo", type=Path, default=default_dir, help=f"folder of Mandoku files (default {default_dir})")
    ap.add_argument("--pair", nargs=2, action="append", metavar=("JISHI", "ZHUSHU"), type=Path,
                    help="check this 集释 file against this 注疏 file (repeatable; replaces the folder scan)")
    ap.add_argument("--front", type=Path, metavar="ZHUSHU_000",
                    help="with --pair: the 注疏's front matter (its 目録 of every 篇); found in the folder otherwise")
    ap.add_argument("--json", type=Path, metavar="FILE", help="write every claim and check as JSON")
    ap.add_argument("--table", action="store_true",
                    help="print only one line per 卷: notes, share parsed, claims, claims about the 注疏 and their verdicts")
    args = ap.parse_args(argv)

    if args.pair:
        pairs: list[tuple[Path, Path | None]] = [(j, z) for j, z in args.pair]
        problems: list[str] = []
        front = args.front
    else:
        if args.kanripo is None:
            ap.error("give --kanripo DIR or --pair JISHI ZHUSHU")
        if not args.kanripo.is_dir():
            print(f"an_check_kanripo: error: {args.kanripo}: no such folder", file=sys.stderr)
            return 2
        pairs, problems = find_pairs(args.kanripo)
        front = find_front(args.kanripo)
    for p in problems:
        print(f"note: {p}", file=sys.stderr)
    if not pairs:
        print("an_check_kanripo: error: no 集释 files to check", file=sys.stderr)
        return 2
    total: Counter = Counter()
    rows: Counter = Counter()
    dump = []
    if args.table:
        print(TABLE_HEAD)
    for j, z in pairs:
        try:
            res = check_pair(j, z, front)
        except (InputError, ValueError) as exc:
            print(f"an_check_kanripo: error: {j.name}: {exc}", file=sys.stderr)
            continue
        if args.table:
            line, c = table_row(j.stem, res)
            print(line)
            rows += c
            total += counts(res)
        else:
            total += report(res, j, z, sys.stdout)
        if args.json:
            dump.append({"jishi": str(j), "zhushu": str(z) if z else None, **to_json(res)})
    if args.table:
        print(format_row("all", rows))
    print(f"\n== all: {shares(total)}")
    if args.json:
        atomic_write_text(args.json, json.dumps(dump, ensure_ascii=False, indent=1) + "\n")
        print(f"-> {args.json}", file=sys.stderr)
    return 0
