#!/usr/bin/env python3
"""The whole-book build's CPU work as a count of instructions: a before/after that the machine's load does not move.

Usage::

    python bench/bench_instructions.py                                  # this tree, ../shared/kanripo, -j 1
    python bench/bench_instructions.py --against ../old/src             # and another tree, side by side
    python bench/bench_instructions.py --kanripo DIR --against ../old/src

Why: on a shared 2-core host the same build's CPU time moved from 7.1 to 10.6 s within minutes (stop 35), and
`bench_book.py`'s interleaved medians could not tell a 5% change from noise: two runs twenty minutes apart gave
the same pair of trees −7% and +7%.  ``valgrind --tool=callgrind`` counts the instructions the build executes,
which is the same for the same code and input whatever else the machine does (the environment's documented
finding; here e3325d2's build counted 59.779 and 59.780 G in a run beside CI's tests, load ~8, and in one beside
another callgrind only, and the next tree's 57.04 and 57.00 G: within 0.1%, where its CPU time moved by a third).  It is a proxy, not a
time: it does not see cache misses or the kernel, and Python's work is nearly all instructions, so it tracks
the CPU time of a quiet machine.  Both trees run at once, one per core (valgrind runs a program on one core
~50 times slower: a whole book takes about ten minutes).

What it runs is ``jiaokan init`` over the folder, then ``jiaokan build -j 1 -q`` under callgrind, with
``PYTHONHASHSEED=0`` (dict and set orders, and so the instructions, the same from run to run), and the
package's bytecode compiled first, as an install has it.  It prints the instructions of each tree and the
change; the targets of issue #24 are in seconds and stay `bench_book.py`'s.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KANRIPO = ROOT.parent / "shared" / "kanripo"
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _start(src: Path, manifest: Path, out: Path, log: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.callgrind", sys.executable, "-m", "jiaokan",
           "build", "-q", "--corpus", str(manifest), "--out", str(out), "-j", "1"]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"))


def _count(proc: subprocess.Popen, log: Path, what: str) -> int:
    if proc.wait() != 0:
        sys.exit(f"bench_instructions: the build of {what} failed (exit {proc.returncode}); see {log}")
    m = _COLLECTED.search(log.read_text(encoding="utf-8", errors="replace"))
    if m is None:
        sys.exit(f"bench_instructions: callgrind printed no count for {what}; see {log}")
    return int(m.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kanripo", type=Path, default=KANRIPO, help="folder of Kanripo files (default ../shared/kanripo)")
    ap.add_argument("--against", type=Path, metavar="SRC", help="another source tree (a folder holding jiaokan/)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("bench_instructions: valgrind is not installed (Debian: apt-get install valgrind)")
    trees = {"this tree": ROOT / "src"}
    if args.against is not None:
        against = args.against.resolve()
        if not (against / "jiaokan" / "__init__.py").is_file():
            sys.exit(f"bench_instructions: --against {args.against}: no jiaokan/ package in it (give a tree's src)")
        trees[str(args.against)] = against
    for src in trees.values():
        compileall.compile_dir(src / "jiaokan", quiet=1)
    with tempfile.TemporaryDirectory(prefix="jiaokan-bench-instr-") as scratch:
        tmp = Path(scratch)
        manifest = tmp / "corpus.toml"
        r = subprocess.run([sys.executable, "-m", "jiaokan", "init", str(args.kanripo.resolve()), "-o", str(manifest)],
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
        if r.returncode != 0:
            sys.exit(f"bench_instructions: jiaokan init failed:\n{r.stderr[-2000:]}")
        runs = {name: (_start(src, manifest, tmp / f"out{i}", tmp / f"log{i}.txt"), tmp / f"log{i}.txt")
                for i, (name, src) in enumerate(trees.items())}
        counts = {name: _count(p, log, name) for name, (p, log) in runs.items()}
    print(f"jiaokan build -j 1 of {args.kanripo}: instructions executed (callgrind, PYTHONHASHSEED=0)\n")
    width = max(map(len, counts))
    for name, n in counts.items():
        print(f"  {name:<{width}}  {n / 1e9:8.3f} G")
    if args.against is not None:
        this, other = counts["this tree"], counts[str(args.against)]
        print(f"\n  change: {100 * (this - other) / other:+.1f}% (this tree against {args.against})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
