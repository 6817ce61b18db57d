#!/usr/bin/env python3
"""Reading and TEI-writing time of every witness file, measured.

Usage::

    python bench/bench_readers.py            # the six Kanripo files and the corpus, best of 5
    python bench/bench_readers.py -n 10 FILE…
    python bench/bench_readers.py --scaling  # per reader: time per MB at 1×, 2×, 4×, 8× a file, and one huge line

For each file: its size, the reader (sniffed, or from the corpus manifest), the
best-of-N time to decode and read it into the witness model, and the best-of-N
time to build and serialize its TEI.  Best-of-N because the question is what
the code costs, not what else the machine was doing.  The budget the Mandoku
reader is held to: under 0.5 s for the largest file (KR1d0028_005.txt, 156 KB).

``--scaling`` asks whether reading is linear: for each reader, a real file of its format
repeated 1, 2, 4 and 8 times (its body lines, once more each time), and one commentary line of that
file repeated into a single line of ``--huge`` MB; the CPU time per MB of each.  A reader
that is linear in the length of a file and of a line shows about the same figure in every
column; one that is quadratic (piece ids counted by scanning the passage, a line's openers
searched again after each one) shows it growing with the size.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

try:  # the package may not be installed in the running interpreter: use the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from jiaokan.corpus import find_entry
from jiaokan.model import Witness
from jiaokan.readers import read_witness
from jiaokan.tei.writer import tei_bytes, witness_to_tei
from jiaokan.ui import table
from shapes import SOURCES as SCALING_SOURCES, one_huge_line, repeated  # bench/shapes.py, beside this script (the tests use it too)

ROOT = Path(__file__).resolve().parents[1]
KANRIPO = ROOT.parent / "shared" / "kanripo"
CORPUS = ROOT / "corpus"
BUDGET = 0.5  # seconds, for reading the largest Kanripo file


def default_files() -> list[Path]:
    return sorted(KANRIPO.glob("KR*.txt")) + sorted(CORPUS.glob("*.txt"))


def read(path: Path) -> Witness:
    entry = find_entry(path)
    if entry is not None:
        return read_witness(entry.path, entry.meta, entry.meta.format)
    return read_witness(path)


def best_of(n: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def measure(path: Path, n: int) -> list[object]:
    w = read(path)
    t_read = best_of(n, lambda: read(path))
    t_tei = best_of(n, lambda: tei_bytes(witness_to_tei(w)))
    size = path.stat().st_size
    return [path.name, f"{size / 1024:.1f} KB", w.meta.format, f"{t_read * 1000:.0f} ms", f"{t_tei * 1000:.0f} ms",
            sum(1 for _ in w.passages()), len(w.warnings)]




def _cpu() -> float:
    return time.process_time()


def scaling(huge_mb: float) -> int:
    """The table of ``--scaling``: CPU seconds per MB read, per reader and size."""
    import tempfile

    rows = []
    with tempfile.TemporaryDirectory(prefix="jiaokan-bench-") as tmp:
        for fmt, src in SCALING_SOURCES.items():
            if not src.exists():
                rows.append([fmt, src.name, "missing", "", "", "", "", ""])
                continue
            text = src.read_text(encoding="utf-8")
            cells: list[object] = [fmt, src.name]
            variants = [repeated(text, n) for n in (1, 2, 4, 8)] + [one_huge_line(text, int(huge_mb * 1e6))]
            for k, body in enumerate(variants):
                path = Path(tmp) / f"{fmt}-{k}.txt"
                path.write_text(body, encoding="utf-8")
                mb = path.stat().st_size / 1e6
                t = _cpu()
                read_witness(path, fmt=fmt)
                cells.append(f"{(_cpu() - t) / mb:.2f}")
                if k == 0:
                    cells.insert(2, f"{mb * 1000:.0f} KB")
            rows.append(cells)
    print(table(["reader", "file", "size", "1× s/MB", "2× s/MB", "4× s/MB", "8× s/MB", f"{huge_mb:g} MB line s/MB"],
                rows, numeric={2, 3, 4, 5, 6, 7}))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time reading and TEI writing of witness files (best of N).")
    ap.add_argument("files", nargs="*", type=Path, help="witness files (default: ../shared/kanripo/*.txt and corpus/*.txt)")
    ap.add_argument("-n", type=int, default=5, help="repetitions; the best time is reported (default 5)")
    ap.add_argument("--scaling", action="store_true",
                    help="per reader: CPU time per MB for 1x, 2x, 4x, 8x a real file and for one huge line")
    ap.add_argument("--huge", type=float, default=4.0, metavar="MB", help="size of the huge line (default 4 MB)")
    args = ap.parse_args(argv)
    if args.scaling:
        return scaling(args.huge)
    files = args.files or default_files()
    rows = [measure(p, args.n) for p in files]
    print(table(["file", "size", "format", f"read (best of {args.n})", "TEI write", "passages", "warnings"], rows,
                numeric={1, 3, 4, 5, 6}))
    kanripo = [p for p in files if p.parent.resolve() == KANRIPO.resolve()]
    if kanripo:
        largest = max(kanripo, key=lambda p: p.stat().st_size)
        t = best_of(args.n, lambda: read(largest))
        verdict = "within" if t < BUDGET else "OVER"
        print(f"\nlargest Kanripo file {largest.name}: {t * 1000:.0f} ms, {verdict} the {BUDGET * 1000:.0f} ms budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
