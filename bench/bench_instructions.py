#!/usr/bin/env python3
"""The whole-book build's CPU work as a count of instructions: a before/after that the machine's load does not move.

Usage::

    python bench/bench_instructions.py                                  # this tree, ../shared/kanripo, -j 1
    python bench/bench_instructions.py --against ../old/src             # and another tree, side by side
    python bench/bench_instructions.py --kanripo DIR --against ../old/src
    python bench/bench_instructions.py --stages                         # and each stage's share
    python bench/bench_instructions.py --doubled                        # each stage's growth: the book, then twice it
    python bench/bench_instructions.py --doubled -j 2                   # the same, -j 2: the forked workers counted too

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

``--stages`` counts each stage of the build apart (manifest, ingest, ..., render; ``jiaokan.build.STAGES``): the
build runs as ``jiaokan build`` does, with a stage hook that calls ``sched_yield()`` as each stage begins and ends,
and callgrind writes its counts out just before each such call (``--dump-before=sched_yield``; the build itself
never calls it: the run fails if the number of counts is not two a stage).  ``--doubled`` (implies ``--stages``)
builds the book and the book twice over (``bench_book.py``'s :func:`doubled`: the copies in 篇 of their own) and
prints each stage's growth per doubling of the characters: the growth ``bench_book.py`` holds against ×2.0 in CPU
seconds, here free of the machine's drift (what is left between the two is the memory's: caches, page faults).

``-j N`` builds with ``-j N`` (default 1).  Callgrind follows the workers a build forks (a forked process stays
under valgrind) and writes each process's counts to a file of its own (``%p``); each worker says, as it is forked,
the stage it was forked in, and its count is added to that stage's: a stage's figure is then the work of all its
processes, the workers' results pickled and read back included.  Each process counts its own work only: the build
writes its counts out before each fork as well (``--dump-before=fork``), since a forked worker inherits the
counters, and callgrind's closing "Collected" line of a worker includes its parent's counts up to the fork.
"""

from __future__ import annotations

import argparse
import compileall
import math
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


#: ``python -c`` for ``--stages``: ``jiaokan build`` itself (``jiaokan.launch.main``), its ``run_build`` given a stage
#: hook that marks each stage's start and end with ``sched_yield()`` for callgrind, and names it on stderr
_STAGED = """
import inspect, os, sys
from contextlib import contextmanager
import jiaokan.build as build
run_build = build.run_build
stage = ["start-up"]
def forked():
    sys.stderr.write("JIAOKAN-WORKER " + str(os.getpid()) + " " + stage[0] + "\\n"); sys.stderr.flush()
os.register_at_fork(after_in_child=forked)
@contextmanager
def hook(name, res):
    stage[0] = name
    sys.stderr.write("JIAOKAN-STAGE " + name + "\\n"); sys.stderr.flush(); os.sched_yield()
    try:
        yield
    finally:
        os.sched_yield()
        stage[0] = "between and after"
def staged(*args, **kw):
    if "stage_hook" in inspect.signature(run_build).parameters:
        kw["stage_hook"] = hook
    return run_build(*args, **kw)
build.run_build = staged
from jiaokan.launch import main
sys.exit(main(sys.argv[1:]))
"""
_STAGE_LINE = re.compile(r"^JIAOKAN-STAGE (\S+)$", re.M)
_WORKER_LINE = re.compile(r"^JIAOKAN-WORKER (\d+) (.+)$", re.M)
_TOTALS = re.compile(r"^totals:\s*(\d+)", re.M)
_TRIGGER = re.compile(r"^desc: Trigger: (.*)$", re.M)
#: a process's count file: ``OUT.callgrind.PID`` (its last count) or ``OUT.callgrind.PID.N`` (its N-th dump)
_COUNT_FILE = re.compile(r"\.callgrind\.(\d+)(?:\.(\d+))?$")


def _start(src: Path, manifest: Path, out: Path, log: Path, staged: bool = False, jobs: int = 1) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    build = ["build", "-q", "--corpus", str(manifest), "--out", str(out), "-j", str(jobs)]
    # each process's counts in a file of its own; with workers, a count written out before each fork, so that a
    # worker's counts start at its fork (it inherits the counters: without it a worker's file held the stage's work
    # of its parent up to the fork as well, counted twice)
    grind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.callgrind.%p",
             *(["--dump-before=fork"] if jobs > 1 else [])]
    if staged:
        cmd = [*grind, "--dump-before=sched_yield", sys.executable, "-c", _STAGED, *build]
    else:
        cmd = [*grind, sys.executable, "-m", "jiaokan", *build]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"))


def _total(f: Path) -> int:
    m = _TOTALS.search(f.read_text(encoding="utf-8", errors="replace"))
    return int(m.group(1)) if m else 0


def _count_files(out: Path) -> dict[int, dict[int | None, Path]]:
    """pid → its count files: N → the N-th dump (``OUT.callgrind.PID.N``), None → the last (``OUT.callgrind.PID``)."""
    files: dict[int, dict[int | None, Path]] = {}
    for f in out.parent.glob(f"{out.name}.callgrind.*"):
        if m := _COUNT_FILE.search(f.name):
            files.setdefault(int(m.group(1)), {})[int(m.group(2)) if m.group(2) else None] = f
    return files


def _stage_counts(out: Path, log: Path, what: str) -> dict[str, int]:
    """Each stage's instructions from the dumps of a ``--stages`` run: ``start-up`` (before the first stage),
    each stage's, and ``between and after`` (what runs between the stages and after the last one).  The build's
    own process is the one that dumped at each stage's start and end (``OUT.callgrind.PID.N``); every other
    process is a worker it forked, whose whole count goes to the stage it was forked in (``JIAOKAN-WORKER``)."""
    text = log.read_text(encoding="utf-8", errors="replace")
    names = _STAGE_LINE.findall(text)
    files = _count_files(out)
    dumped = [pid for pid, fs in files.items() if any(n is not None for n in fs)]
    if not names or len(dumped) != 1 or None not in files[dumped[0]]:
        sys.exit(f"bench_instructions: {what}: no stage's counts (a tree without the stage hook?); see {log}")
    build = files[dumped[0]]
    counts = {"start-up": 0, **{name: 0 for name in names}, "between and after": 0}
    marks = 0  # the stages' starts and ends passed: each a dump before sched_yield
    for n in [*sorted(n for n in build if n is not None), None]:  # each part ends where its dump was triggered
        body = build[n].read_text(encoding="utf-8", errors="replace")
        m, trigger = _TOTALS.search(body), _TRIGGER.search(body)
        part = "start-up" if marks == 0 else names[(marks - 1) // 2] if marks % 2 else "between and after"
        counts[part] += int(m.group(1)) if m else 0
        marks += trigger is not None and "sched_yield" in trigger.group(1)
    if marks != 2 * len(names):  # another sched_yield in the build, or a stage hook not taken
        sys.exit(f"bench_instructions: {what}: {marks} stage marks for {len(names)} stages (two a stage expected); "
                 f"see {log}")
    forked_in = {int(pid): stage for pid, stage in _WORKER_LINE.findall(text)}
    for pid, fs in files.items():
        if pid == dumped[0]:
            continue
        if forked_in.get(pid) not in counts:
            sys.exit(f"bench_instructions: {what}: process {pid}'s counts name no stage it was forked in; see {log}")
        counts[forked_in[pid]] += sum(map(_total, fs.values()))
    return counts


def _count(proc: subprocess.Popen, out: Path, log: Path, what: str) -> int:
    """The instructions of the build and of every worker it forked: the sum of every count file written.  (Not
    callgrind's closing "Collected" line of each process: a forked worker's includes its parent's counts up to the
    fork.)"""
    if proc.wait() != 0:
        sys.exit(f"bench_instructions: the build of {what} failed (exit {proc.returncode}); see {log}")
    files = [f for fs in _count_files(out).values() for f in fs.values()]
    if not files or not _COLLECTED.search(log.read_text(encoding="utf-8", errors="replace")):
        sys.exit(f"bench_instructions: callgrind printed no count for {what}; see {log}")
    return sum(map(_total, files))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kanripo", type=Path, default=KANRIPO, help="folder of Kanripo files (default ../shared/kanripo)")
    ap.add_argument("--against", type=Path, metavar="SRC", help="another source tree (a folder holding jiaokan/)")
    ap.add_argument("--stages", action="store_true", help="count each stage of the build apart")
    ap.add_argument("--doubled", action="store_true",
                    help="this tree on the book and on the book twice over: each stage's growth per doubling")
    ap.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                    help="build with -j N (default 1); the forked workers' instructions are counted too")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        sys.exit("bench_instructions: -j takes a count of 1 or more")
    if args.doubled and args.against is not None:
        sys.exit("bench_instructions: --doubled measures this tree alone (give --against without it)")
    if shutil.which("valgrind") is None:
        sys.exit("bench_instructions: valgrind is not installed (Debian: apt-get install valgrind)")
    staged = args.stages or args.doubled
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
        (tmp / "book").mkdir()
        manifest = tmp / "book" / "corpus.toml"
        r = subprocess.run([sys.executable, "-m", "jiaokan", "init", str(args.kanripo.resolve()), "-o", str(manifest)],
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
        if r.returncode != 0 and not manifest.is_file():
            sys.exit(f"bench_instructions: jiaokan init failed:\n{r.stderr[-2000:]}")
        # what is run, each on a core of its own: every tree on the book, or this tree on the book and twice it
        jobs = {name: (src, manifest) for name, src in trees.items()}
        if args.doubled:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            from bench_book import doubled

            jobs = {"book": (ROOT / "src", manifest), "doubled": (ROOT / "src", doubled(manifest) / "corpus.toml")}
        runs = {}
        for i, (name, (src, man)) in enumerate(jobs.items()):
            out, log = tmp / f"out{i}", tmp / f"log{i}.txt"
            runs[name] = (_start(src, man, out, log, staged, args.jobs), out, log)
        counts = {name: _count(p, out, log, name) for name, (p, out, log) in runs.items()}
        stages = {name: _stage_counts(out, log, name) for name, (_p, out, log) in runs.items()} if staged else {}
        chars = _characters(jobs) if args.doubled else {}
    print(f"jiaokan build -j {args.jobs} of {args.kanripo}: instructions executed (callgrind, PYTHONHASHSEED=0"
          f"{'; the forked workers included' if args.jobs > 1 else ''})\n")
    width = max(map(len, counts))
    for name, n in counts.items():
        print(f"  {name:<{width}}  {n / 1e9:8.3f} G")
    if args.against is not None:
        this, other = counts["this tree"], counts[str(args.against)]
        print(f"\n  change: {100 * (this - other) / other:+.1f}% (this tree against {args.against})")
    if stages:
        print()
        _print_stages(stages, chars)
    return 0


def _characters(jobs: dict[str, tuple[Path, Path]]) -> dict[str, int]:
    """The characters each book's witnesses read (the layers of every file's text, as read: ``bench_book.py``
    counts the same characters once joined per 篇), for the growth per doubling; read outside callgrind, in a
    process of its own."""
    out = {}
    for name, (src, manifest) in jobs.items():
        code = ("import sys; from pathlib import Path; from jiaokan.build import BuildResult, ingest_stage; "
                "from jiaokan.corpus import load_manifest; from jiaokan.ui import Progress; import tempfile\n"
                "r = BuildResult(load_manifest(Path(sys.argv[1])))\n"
                "with tempfile.TemporaryDirectory() as t:\n"
                "    ingest_stage(r, Path(t), Progress(len(r.entries), 'ingest', quiet=True), None)\n"
                "ws = [*r.witnesses.values(), *(w for part in r.parts.values() for _e, w in part)]\n"
                "print(sum(sum(w.layer_counts().values()) for w in ws))")
        r = subprocess.run([sys.executable, "-c", code, str(manifest.parent)], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(src)})
        if r.returncode != 0:
            sys.exit(f"bench_instructions: counting the characters of {name} failed:\n{r.stderr[-2000:]}")
        out[name] = int(r.stdout.strip().splitlines()[-1])
    return out


def _print_stages(stages: dict[str, dict[str, int]], chars: dict[str, int]) -> None:
    """The per-stage table: each run's instructions (G) and, with ``chars`` (``--doubled``), the growth per doubling."""
    names = list(stages)
    rows = list(dict.fromkeys(s for counts in stages.values() for s in counts))
    head = f"  {'stage':<18}" + "".join(f"{n[:14]:>16}" for n in names)
    size = chars["doubled"] / chars["book"] if len(chars) == 2 and chars.get("book") else None
    if size:
        head += f"{'growth':>10}  (×{size:.3f} the characters; per doubling of them)"
    print(head)
    for s in [*rows, "all"]:
        vals = [sum(c.values()) if s == "all" else c.get(s, 0) for c in stages.values()]
        line = f"  {s:<18}" + "".join(f"{v / 1e9:>14.3f} G" for v in vals)
        if size and vals[0] >= 0.05e9:  # a stage of a few million instructions has no growth worth the name
            line += f"{'×%.2f' % (vals[1] / vals[0]) ** (math.log(2) / math.log(size)):>10}"
        print(line)


if __name__ == "__main__":
    sys.exit(main())
