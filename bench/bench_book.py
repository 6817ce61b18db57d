#!/usr/bin/env python3
"""The whole-book build, measured stage by stage: CPU, wall time, memory of all processes, growth.

Usage::

    python bench/bench_book.py                        # ../shared/kanripo, -j 1 and -j (cores), and doubled: 3 rounds
    python bench/bench_book.py --kanripo DIR -j 2     # another folder of Kanripo clones (e.g. all 17 篇)
    python bench/bench_book.py --no-doubled           # skip the doubled book (no growth rows)
    python bench/bench_book.py --repeat 5             # each configuration 5 times: medians (default 3; 1 with --no-doubled)
    python bench/bench_book.py --against ../old/src --repeat 3   # side by side with another tree, interleaved

What it runs is what a scholar runs: ``jiaokan init`` over the folder, then ``jiaokan build``
itself (:func:`jiaokan.build.run_build`, whose stage hook times each of its stages: manifest,
ingest, gaiji from the witnesses, join each witness per 篇, relayer (the rare forms learned
meanwhile), collate with the 案 notes of each 篇 and the learned variants (the 識誤 checked
meanwhile), 識誤 (empty since), the rest of the 案 notes, render), in a fresh process per
configuration, with the garbage collector as ``jiaokan build`` has it.  (It used to call the
stages itself, and left out each stage added to the build since.)
Configurations: the book at ``-j 1``, the book at ``-j N``, and the book doubled at ``-j N``
(every witness listed twice, JS and JS2 …, the copies in 篇 of their own: twice the characters and
the 篇, each 篇 with the witnesses it had; see :func:`doubled`).

Everything printed is measured, nothing extrapolated:

* CPU: user + system seconds of the build process and every worker it forked (``getrusage``
  of the children, which include a worker once it is reaped), per stage and in all;
* wall: per stage, and of the whole process (with interpreter start-up and imports);
  the whole process's CPU and wall leave out what the child does for the bench once the build is
  done (counting the characters read, reading its PSS: 0.04 s of CPU), which ``jiaokan build`` does not;
* memory: the peak of the resident memory of the build and its workers *summed*, sampled from
  ``/proc`` every 20 ms (RSS counts pages a forked worker still shares with its parent once
  per process, so it is an upper bound; PSS, where the kernel gives it, shares them out, read
  less often: :class:`MemorySampler` says why and what the sampling costs);
  and the largest single process (``ru_maxrss``);
* output: the bytes the build wrote;
* megabytes are decimal (10⁶ bytes), as the targets are written: the kernel's and ``du``'s "MB"
  are mebibytes (2²⁰), 4.9% larger, which would flatter the figures against the targets;
* repeats (``--repeat N``): the configurations run N times, interleaved (-j 1, -j N, doubled, then
  doubled, -j N, -j 1, ...: every other round backwards), so the machine's load drifts over all of
  them alike and none is always the one run first or last; each time printed is the **median**
  of the N runs (one run's noise on a shared machine was ±0.3 in a growth ratio), each memory
  figure the **largest** of them;
* against (``--against SRC``): another source tree (a folder holding ``jiaokan/``: an older
  checkout's ``src``, say) built the same way in the same run, each of its runs next to this
  tree's, so both meet the same load; a second table puts the two side by side, stage by stage.
  On a shared machine this is the comparison to quote: the same tree measured minutes apart
  moved by 10-15% here, the two trees interleaved by a few per cent.
* growth: doubled / book at -j N, per stage (CPU time, which the machine's other load inflates
  less than wall time), per doubling of the characters read (the doubled book is a little under
  twice the book: :func:`doubled` does not copy the files that hold several 篇; the row
  "characters read" gives the ratio), held against the target ×2.0 per doubling.  With repeats,
  the median of the rounds' ratios, each round's two builds run one after the other, and their
  range in brackets (:func:`paired_growth`), and a verdict that says ``unclear`` where the rounds fall
  on both sides of the target (:func:`growth_verdict`).  Three rounds unless ``--repeat`` says
  otherwise: one round's growth moved by ±10% here from one run to the next, so a single round could
  not tell x1.95 from x2.05.  The same growth in instructions, which the machine's load does not
  move: ``bench_instructions.py --doubled``.

The targets (issue #24) are for the whole book on a quiet 2-core machine; on a shared machine
the wall times (and, less, the CPU times) are inflated: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
try:  # the package may not be installed in the running interpreter: use the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(ROOT / "src"))

KANRIPO = ROOT.parent / "shared" / "kanripo"
#: issue #24's targets for the whole build of the book on a quiet 2-core machine
TARGET_WALL_S, TARGET_CPU_J1_S, TARGET_MB, TARGET_GROWTH, TARGET_OUT_MB = 5.0, 8.0, 400, 2.0, 40
#: rounds of a bench with the doubled book unless ``--repeat`` says otherwise: one round's growth moves by ±10% on a
#: shared 2-core host, three give a median and a range to judge it by (:func:`growth_verdict`)
DEFAULT_ROUNDS = 3
#: a megabyte as the targets count it (decimal), and the kibibyte the kernel's "kB" (and ``ru_maxrss``) counts in
MB, KIB = 10**6, 1024
#: the stages of ``jiaokan build`` (jiaokan.build.STAGES), as the table lists them
STAGES = ("manifest", "ingest", "gaiji", "join", "relayer", "collate", "shiwu", "emend", "render")


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the forked workers)."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def child(corpus: Path, out: Path, jobs: int) -> dict:
    """Run ``jiaokan build`` in this process (:func:`jiaokan.build.run_build`, quiet): seconds per stage."""
    from contextlib import contextmanager, redirect_stdout
    import inspect
    import io

    from jiaokan.build import BuildResult, run_build

    wall: dict[str, float] = {}
    cpu: dict[str, float] = {}
    last: list[BuildResult] = []

    mark = os.environ.get("JIAOKAN_BENCH_STAGE")  # where the memory sampler reads the stage running now

    @contextmanager
    def stage(name: str, res: BuildResult):
        if mark:
            Path(mark).write_text(name)
        t, c = time.perf_counter(), _cpu()
        try:
            yield
        finally:
            wall[name], cpu[name] = time.perf_counter() - t, _cpu() - c
            last[:] = [res]

    if "stage_hook" not in inspect.signature(run_build).parameters:  # an older tree (a "before" of a change)
        return old_child(corpus, out, jobs)
    import gc

    # the collector as `jiaokan build` has it (jiaokan.cli.cmd_build): off before run_build and not turned back on,
    # so run_build's own pause (collector_paused) does not end by turning it on.  Turned on there, it collected at
    # once, the build's every object still held (by ``last``): a collection the command never makes, 0.19 s of CPU
    # at -j1 (0.02 s at -j2, where each stage's fork_map left the objects it froze in the oldest generation)
    gc.disable()
    with redirect_stdout(io.StringIO()):  # the build's tables: the JSON line below is the child's answer
        run_build(corpus, out, quiet=True, jobs=jobs, stage_hook=stage)
    # and the process ends as `jiaokan build` ends (jiaokan.launch.main): its objects frozen, so the exit does not
    # walk them with the collector; without this the child's exit cost 0.7-0.8 s of CPU that the command does not
    gc.freeze()
    # what follows is the bench's, not the build's: its CPU and wall are taken off the whole process's (:func:`run`)
    cpu0, wall0 = _cpu(), time.perf_counter()
    # the build's own PSS as it ends, where its memory is largest (-j 1: the peak, which the sampler's sparse PSS
    # readings may fall short of by the last stage's growth); one reading, 7 ms, after the build is timed
    end_pss = MemorySampler._kb("/proc/self/smaps_rollup", b"Pss:") * KIB / MB
    r = last[0]
    # 0.035 s of CPU over the book (1.1 M characters in 70 witness texts): counted inside the whole process's
    # figures until it was taken off them, with the PSS reading (7 ms)
    chars = sum(sum(w.layer_counts().values()) for w in r.witnesses.values())
    return {"wall": wall, "cpu": cpu, "largest_mb": _largest_mb(), "end_pss_mb": end_pss,
            "witnesses": len(r.witnesses), "collations": len(r.collations), "chars": chars,
            "errors": r.errors, "bench_cpu": _cpu() - cpu0, "bench_wall": time.perf_counter() - wall0}


def _largest_mb() -> float:
    return max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
               resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) * KIB / MB


def old_child(corpus: Path, out: Path, jobs: int) -> dict:
    """An older tree, whose build takes no stage hook: its stages called one by one, as this bench
    did then (gaiji, relayering, 識誤 and the learned variants were left out: flagged in the table)."""
    from jiaokan.build import BuildResult, collate_stage, emend_stage, ingest_stage, join_stage, render_stage

    try:  # an older tree (a "before" of a change) has no collector_paused: its build ran with the collector on
        from jiaokan.build import collector_paused
    except ImportError:
        from contextlib import nullcontext as collector_paused
    from jiaokan.corpus import load_collations, load_manifest
    from jiaokan.ui import Progress

    wall: dict[str, float] = {}
    cpu: dict[str, float] = {}
    quiet = dict(quiet=True)

    def stage(name: str, run) -> None:
        t, c = time.perf_counter(), _cpu()
        run()
        wall[name], cpu[name] = time.perf_counter() - t, _cpu() - c

    with collector_paused():
        res: BuildResult | None = None

        def manifest() -> None:
            nonlocal res
            res = BuildResult(load_manifest(corpus))

        stage("manifest", manifest)
        assert res is not None
        r = res
        try:  # ingest and join take jobs (an older tree's do not)
            ingest_stage(BuildResult([]), out, Progress(0, "ingest", **quiet), None, jobs=jobs)
            par = dict(jobs=jobs)
        except TypeError:
            par = {}
        stage("ingest", lambda: ingest_stage(r, out, Progress(len(r.entries), "ingest", **quiet), None, **par))
        stage("join", lambda: join_stage(r, corpus, out, None, **par) if r.parts else None)
        load_collations(corpus, r.units if r.parts else r.entries)
        stage("collate", lambda: collate_stage(r, corpus, out, Progress(1, "collate", **quiet), None, jobs=jobs))
        stage("emend", lambda: emend_stage(r, out, Progress(1, "emend", **quiet), None))
        stage("render", lambda: render_stage(r, corpus, out, Progress(1, "render", **quiet), jobs=jobs))
        chars = sum(sum(w.layer_counts().values()) for w in r.witnesses.values())
        return {"wall": wall, "cpu": cpu, "largest_mb": _largest_mb(), "partial": True,
                "witnesses": len(r.witnesses), "collations": len(r.collations), "chars": chars,
                "errors": r.errors}


def doubled(manifest: Path) -> Path:
    """The book twice over: a manifest whose witnesses are listed twice, the copies (siglum + ``2``) in
    篇 of their own.

    Why not simply every witness twice: that doubles the witnesses *per 篇*, and the work that
    compares witnesses of a 篇 (the 案 notes' evidence, the collation of each witness with the
    base, a page's columns) then grows faster than the text by construction.  A book twice as
    long has twice the 篇, each with the witnesses it had: so each copied file is placed, by the
    manifest's per-file ``chapter`` (the rule that places a file where its text does not say),
    in the 篇 ``NAME二`` beside its original's ``NAME``, and collated with the other copies.
    The 篇 of each file is read from the comments ``jiaokan init`` wrote above each witness
    (``#   FILE  卷 N: 篇 (how)``).  Front matter, which belongs to no 篇, is copied as it is (the copy's
    注疏 has a front matter of its own, as a book twice as long would).  A file that holds several 篇
    (the 識誤's 卷, a 单疏本 卷 that ends one 篇 and opens the next) cannot be moved whole, and is
    **not copied**: its copy beside its original made work no longer book has (a second 单疏本 in
    士冠禮 and 覲禮, each collated with the whole of the 注疏's 疏 of its 篇: two collations more,
    ×2.08 collations for ×2 the text, ~2% of the doubled collate stage).  The doubled book is then a
    little under twice the characters; the growth the bench prints is per doubling of the
    characters read (:func:`per_doubling`).
    """
    import tomllib

    text = manifest.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    blocks = re.split(r"(?m)^(?=\[\[witness\]\])", text)
    head, wits = blocks[0], blocks[1:]
    placed: dict[str, str] = {}
    several: set[str] = set()  # files holding more than one 篇 (or front matter and a 篇): not copied
    for m in re.finditer(r"(?m)^#   (\S+)  卷 \d+: (.+)$", text):
        pians = [p.rsplit(" (", 1)[0] for p in m.group(2).split(", ")]
        if len(pians) == 1 and pians[0] != "front":
            placed[m.group(1)] = pians[0]
        elif len(pians) > 1:
            several.add(m.group(1))
    if not placed:  # without them every copy would join its original's 篇: the old, faster-growing doubling
        sys.exit(f"bench_book: {manifest} names no file's 篇 in the comments jiaokan init writes "
                 "('#   FILE  卷 N: 篇 (how)'): cannot place the doubled book's copies")
    copies = []
    for w in data["witness"]:
        lines = ["[[witness]]"] + [f"{k} = {_toml(v)}" for k, v in w.items() if k != "overrides"]
        lines[1:] = [f'siglum = "{w["siglum"]}2"' if ln.startswith("siglum = ") else ln for ln in lines[1:]]
        overrides = dict(w.get("overrides", {}))
        folder = os.path.dirname(w["files"][0]) if "files" in w else None
        if "files" in w:
            kept = _copied_files(manifest.parent, w["files"], several)
            if not kept:
                continue
            lines = [f"files = {_toml(kept)}" if ln.startswith("files = ") else ln for ln in lines]
        for name, pian in placed.items():
            if folder is not None and any(Path(name).match(os.path.basename(g)) for g in w["files"]):
                key = f"{folder}/{name}"
                overrides[key] = {**overrides.get(key, {}), "chapter": f"{pian}二"}
        for key, table in overrides.items():
            lines.append(f"[witness.overrides.{_toml(key)}]")
            lines += [f"{k} = {_toml(v)}" for k, v in table.items()]
        copies.append("\n".join(lines) + "\n")
    folder = manifest.parent.parent / "doubled"  # beside the manifest's folder: its relative paths still hold
    folder.mkdir(exist_ok=True)
    (folder / "corpus.toml").write_text(head + "".join(w.rstrip("\n") + "\n\n" for w in wits + copies), encoding="utf-8")
    return folder


def _copied_files(base: Path, patterns: list[str], left_out: set[str]) -> list[str]:
    """A witness's files for its copy in the doubled book: each pattern's matches named outright (as the
    pattern names its folder: absolute, or relative to the manifest), but for the files ``left_out``;
    the patterns as they are when none of their files is left out."""
    import glob as globmod

    out: list[str] = []
    for pat in patterns:
        hits = sorted(globmod.glob(str(base / pat)))
        names = [os.path.basename(h) for h in hits]
        if not any(n in left_out for n in names):
            out.append(pat)
            continue
        out += [os.path.join(os.path.dirname(pat), n) for n in names if n not in left_out]
    return out


def per_doubling(ratio: float, size_ratio: float) -> float:
    """A cost ratio between two books whose sizes are ``size_ratio`` apart, as the ratio per doubling of the
    size: ``ratio ** (log 2 / log size_ratio)`` (the same figure when the size is exactly doubled; a cost
    that grows as size^a gives 2^a, whatever ``size_ratio``)."""
    import math

    if size_ratio <= 1.0 or ratio <= 0.0:
        return ratio
    return ratio ** (math.log(2.0) / math.log(size_ratio))


def round_growths(book: list[dict], twice: list[dict], stage: str | None, size_ratio: float) -> list[float]:
    """One stage's growth per doubling of its CPU (``stage`` None: all stages') in each round: ``twice[i] / book[i]``,
    the doubled book over the book run next to it (:func:`paired_growth` says why pairs)."""

    def cpu(r: dict) -> float:
        return float(r["cpu"][stage] if stage is not None else sum(r["cpu"].values()))

    return [per_doubling(cpu(b) / cpu(a), size_ratio) for a, b in zip(book, twice) if cpu(a) > 0]


def paired_growth(book: list[dict], twice: list[dict], stage: str | None, size_ratio: float
                  ) -> tuple[float, float, float]:
    """The growth per doubling of one stage's CPU (``stage`` None: all stages'), from runs taken in pairs:
    (the median, the lowest, the highest) over the rounds of ``twice[i] / book[i]``.

    Why pairs, not the ratio of the two medians: the host's speed drifts by 10-15% over minutes, and a round's
    two runs, made one right after the other, meet the same drift; the medians of two series taken minutes
    apart do not (one bench read ingest x2.36, where pairs run twenty minutes later read x1.62-2.04, median
    1.91).  The lowest and highest say how far the rounds disagree.  Instructions, which no drift moves, are
    ``bench_instructions.py --doubled``'s.  (Pairs do not make the memory's share go away: at -j 2 the doubled
    book's collate stage read x2.06-2.27 in every round of two runs of stop 38.)"""
    from statistics import median

    gs = round_growths(book, twice, stage, size_ratio)
    if not gs:
        return (0.0, 0.0, 0.0)
    return median(gs), min(gs), max(gs)


def median_interval(gs: list[float]) -> tuple[float, float]:
    """The rounds' interval for their median: the ``k``-th lowest and highest rounds, ``k`` as large as keeps the
    chance that the true median lies outside at 25% or less (order statistics: each round falls below the median
    with even odds, so fewer than ``k`` of ``n`` do so with the binomial chance ``P(B(n, 1/2) < k)``, kept at 12.5%
    or less on each side).  Up to five rounds that is all of them; six and seven drop the highest and lowest; ten
    keep the third to the eighth."""
    from math import comb

    xs, n = sorted(gs), len(gs)
    k = 1
    while k < n // 2 and sum(comb(n, i) for i in range(k + 1)) / 2**n <= 0.125:
        k += 1
    return xs[k - 1], xs[n - k]


def growth_verdict(gs: list[float], target: float = TARGET_GROWTH) -> str:
    """``yes``, ``NO``, or ``unclear``: whether the rounds' growths (:func:`round_growths`) put a stage within the
    target, above it, or cannot tell.

    Why three answers: on a host whose speed moves between runs, the same pair of builds reads a stage's growth
    anywhere in x1.88-2.53 from one round to the next (render, ten rounds of stop 39, the median x2.03), so the
    median of a few rounds falls on either side of x2.0 by chance; a bench that answered yes or NO from it told
    the reader more than it measured.  The verdict is taken on the interval the median lies in with 75% odds
    (:func:`median_interval`; with three rounds, all three): yes if it lies at or under the target, NO if above,
    ``unclear`` if it straddles it (the median is still printed; more ``--repeat``, or a quieter machine, decides).
    One round has no spread to go by: its verdict is its figure's."""
    if not gs:
        return ""
    lo, hi = median_interval(gs)
    if hi <= target:
        return "yes"
    if lo > target:
        return "NO"
    return "unclear"


def growth_summary(verdicts: dict[str, str], worst: float) -> str:
    """The growth target's line: ``met`` when every stage's verdict is yes, ``NOT met`` when one is NO, and
    otherwise ``not decided by this run`` with the stages whose rounds straddle the target
    (:func:`growth_verdict`): a host's noise is not a measurement of the build."""
    shown = f"worst median ×{worst:.2f}"
    no = [s for s, v in verdicts.items() if v == "NO"]
    if no:
        return f"{shown}, NOT met ({', '.join(no)})"
    unsure = [s for s, v in verdicts.items() if v == "unclear"]
    if unsure:
        return (f"{shown}, not decided by this run: the rounds of {', '.join(unsure)} fall on both sides of "
                f"×{TARGET_GROWTH:.1f} (more --repeat, or a quieter machine, decides)")
    return f"{shown}, met"


def steadiness(runs: list[dict]) -> tuple[float, float, float] | None:
    """(lowest, highest, their spread) of the all-stage CPU of the same build run several times: how steady this
    host was while the bench ran, printed under the growth, whose rounds move with it.  None for one run."""
    if len(runs) < 2:
        return None
    cpus = [sum(r["cpu"].values()) for r in runs]
    return min(cpus), max(cpus), max(cpus) / min(cpus) - 1.0


def _growth_cell(g: tuple[float, float, float] | None) -> str:
    """``×1.95`` (one round), or ``×1.95 (1.90-2.01)`` (the median of several, and their range)."""
    if not g:
        return "-"
    return f"×{g[0]:.2f}" if g[1] == g[2] else f"×{g[0]:.2f} ({g[1]:.2f}-{g[2]:.2f})"


def _toml(value: object) -> str:
    """A TOML value for the strings and lists of strings a manifest holds (a JSON string is a TOML basic string)."""
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


class MemorySampler(threading.Thread):
    """The peak of the summed resident memory (RSS, and PSS where readable) of a process and its descendants.

    What the sampling costs the build it measures, and why it is read as it is: it runs in the bench's process,
    beside the build on the same cores.  It read each process's ``/proc/PID/smaps_rollup`` every 20 ms, and the
    kernel walks a process's page tables for it, under its memory lock: 7 ms for a 290 MB process, so 10-15 ms a
    tick at -j2 (the build and a worker), besides a read of ``/proc/N/stat`` for every process of the machine to
    find the build's workers (2 ms with 100 processes).  The sampler then took 4-5 s of CPU beside a build of
    11 s, on a 2-core machine (and the memory lock from the build's own page faults).  Now, a tick:

    * RSS from ``/proc/PID/statm`` (the same count as ``VmRSS``, 0.01 ms), every :attr:`every` seconds;
    * the process tree from a listing of ``/proc``, reading the ``stat`` (the parent) of a process only the first
      time it is listed (a process's parent does not become the build after it has started);
    * PSS only where it can make a new peak, and no more often than keeps its reading within
      :attr:`pss_share` of a core (the CPU the last reading took, times 50, and never within :attr:`pss_every`
      seconds): a process's PSS is at most its RSS, so a tick whose RSS sum is below the PSS peak so far cannot
      raise it, and the PSS peak is a plateau of a stage, not a spike of 20 ms.

    Measured at -j 2 on this project's shared host (load 9-13; a build then took 20-60 s of wall), the same child
    with the old sampler, this one and none, three rounds interleaved: the old took 4.9-5.4 s of CPU a build and
    the build's wall grew by 19-24 s over no sampler's; this one takes 1.3-1.6 s and adds 2-14 s (median 8-11),
    and finds the same peaks (RSS 370-381 MB against 374-377, PSS 272-280 against 276: what one run differs
    from the next).  Without its PSS readings it takes 0.6-0.7 s and adds nothing (median +0.02 s): what remains
    is the page-table walk of ``smaps_rollup`` (the build's memory lock held by a reader the scheduler may
    preempt), the price of the PSS row; the RSS row, the target's, costs the build nothing measurable.  At -j 1
    (load 5-6, two rounds): the old sampler added 11-24 s of wall and 0.8-0.9 s of CPU *to the build itself*
    (the whole-process CPU the -j 1 target is held against); this one -1.3 and +0.2 s of wall, no CPU, and the
    same peaks (RSS 188-190 against 188-189 MB, PSS 175-176 against 173-176).  The build's own PSS as it ends
    (:func:`child`) is taken too, where the sparse readings could fall short of a peak that the last stage makes.
    """

    def __init__(self, pid: int, every: float = 0.02, stage_file: Path | None = None, pss_every: float = 0.1,
                 pss_share: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.pid, self.every, self.stage_file = pid, every, stage_file
        self.pss_every, self.pss_share = pss_every, pss_share
        self.peak_rss = self.peak_pss = 0.0
        #: the peak RSS sum while each stage ran (the child writes the stage's name to ``stage_file``)
        self.by_stage: dict[str, float] = {}
        self.peak_procs = 0
        self.done = threading.Event()
        self._parent: dict[int, int] = {}  # every process listed so far (and still there) → its parent
        self._page = os.sysconf("SC_PAGE_SIZE")

    def _tree(self) -> list[int]:
        """The process and its descendants now (the ``stat`` of a process read once, when first listed)."""
        known, listed = self._parent, set()
        for d in os.listdir("/proc"):
            if d.isdigit():
                pid = int(d)
                listed.add(pid)
                if pid not in known:
                    try:
                        with open(f"/proc/{d}/stat", "rb") as f:
                            known[pid] = int(f.read().rsplit(b")", 1)[1].split()[1])
                    except (OSError, IndexError, ValueError):
                        continue
        for pid in known.keys() - listed:  # gone: its number may come back as another process
            del known[pid]
        children: dict[int, list[int]] = {}
        for pid, ppid in known.items():
            children.setdefault(ppid, []).append(pid)
        out, todo = [], [self.pid]
        while todo:
            p = todo.pop()
            out.append(p)
            todo.extend(children.get(p, ()))
        return out

    def _rss(self, pid: int) -> int:
        """Resident bytes of a process (``statm``'s second field, in pages), 0 once it is gone."""
        try:
            with open(f"/proc/{pid}/statm", "rb") as f:
                return int(f.read().split()[1]) * self._page
        except (OSError, ValueError, IndexError):
            return 0

    @staticmethod
    def _kb(path: str, field: bytes) -> int:
        try:
            with open(path, "rb") as f:
                for line in f:
                    if line.startswith(field):
                        return int(line.split()[1])
        except (OSError, ValueError, IndexError):
            pass
        return 0

    def run(self) -> None:
        next_pss = 0.0  # when PSS may be read again
        while not self.done.is_set():
            pids = self._tree()
            rss = sum(self._rss(p) for p in pids) / MB
            self.peak_rss = max(self.peak_rss, rss)
            now = time.perf_counter()
            if rss > self.peak_pss and now >= next_pss:  # (a lower RSS sum cannot raise the PSS peak)
                c = time.thread_time()
                pss = sum(self._kb(f"/proc/{p}/smaps_rollup", b"Pss:") for p in pids) * KIB / MB
                self.peak_pss = max(self.peak_pss, pss)
                next_pss = now + max(self.pss_every, (time.thread_time() - c) / self.pss_share)
            if self.stage_file is not None:
                try:
                    name = self.stage_file.read_text() or "start-up"
                except OSError:
                    name = "start-up"
                self.by_stage[name] = max(self.by_stage.get(name, 0.0), rss)
            self.peak_procs = max(self.peak_procs, len(pids))
            self.done.wait(self.every)


def run(corpus: Path, out: Path, jobs: int, src: Path | None = None) -> dict:
    """One configuration in a fresh process: its stage times, its whole CPU and wall time, memory, output size.
    ``src``: the source tree to build with (first on the child's ``PYTHONPATH``), else the one this runs.

    Every run is a build into an empty folder, as a scholar's first build is: the folder of the configuration's
    previous round is moved aside (:func:`_set_aside`).  Until stop 40 the rounds after the first built into the
    folder the first had filled, so they measured a rebuild (each file read back and compared, then only touched),
    and a bench's rounds mixed two workloads."""
    _set_aside(out)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    mark = out.parent / f"{out.name}.stage"
    mark.write_text("")
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, __file__, "--child", str(corpus), str(out), str(jobs)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=_env(mark, src))
    mem = MemorySampler(p.pid, stage_file=mark)
    mem.start()
    stdout, stderr = p.communicate()
    wall = time.perf_counter() - t
    mem.done.set()
    mem.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"bench_book: the build failed:\n{stderr[-3000:]}")
    data = json.loads(stdout.strip().splitlines()[-1])
    # the whole process as `jiaokan build`: less what the child did for the bench after the build (its counts, PSS)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    data.update(process_wall=wall - data.get("bench_wall", 0.0), process_cpu=cpu - data.get("bench_cpu", 0.0),
                peak_rss_mb=mem.peak_rss, peak_pss_mb=max(mem.peak_pss, data.get("end_pss_mb", 0.0)),
                processes=mem.peak_procs,
                stage_mb=mem.by_stage,
                out_mb=sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) / MB)
    return data


def _set_aside(out: Path) -> None:
    """Move a previous run's output folder out of the way (renamed beside it; the bench's temporary folder takes
    it away at the end), so the next build writes into an empty one.

    Why not delete it here: removing 40-80 MB of files is work the file system finishes later (its journal, and
    the discards of a file system mounted with ``discard``), in the minutes when the next build is timed."""
    if out.exists():
        k = 1
        while (aside := out.parent / f"{out.name}.done{k}").exists():
            k += 1
        out.rename(aside)


def combine(runs: list[dict]) -> dict:
    """One configuration's repeated runs as one: the median of each time (per stage and of the whole
    process), the largest of each memory figure, the output and counts of the first run (a build
    writes the same bytes each time), the errors of all."""
    from statistics import median

    first = runs[0]
    out = dict(first)
    for key in ("cpu", "wall"):
        out[key] = {s: median(r[key][s] for r in runs) for s in first[key]}
    for key in ("process_cpu", "process_wall"):
        out[key] = median(r[key] for r in runs)
    for key in ("peak_rss_mb", "peak_pss_mb", "largest_mb", "processes"):
        out[key] = max(r[key] for r in runs)
    out["stage_mb"] = {s: max(r["stage_mb"].get(s, 0.0) for r in runs) for s in first["stage_mb"]}
    out["errors"] = [e for r in runs for e in r["errors"]]
    out["runs"] = len(runs)
    return out


def _env(mark: Path, src: Path | None) -> dict[str, str]:
    env = {**os.environ, "JIAOKAN_BENCH_STAGE": str(mark)}
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def side_by_side(rows: list[tuple[str, float, float]]) -> list[tuple[str, str, str, str]]:
    """Rows of (what, against, this) as the table prints them, with this tree's change in per cent."""
    out = []
    for what, old, new in rows:
        change = f"{(new - old) / old * 100:+.0f}%" if old >= 0.05 else "-"
        out.append((what, f"{old:.2f}", f"{new:.2f}", change))
    return out


def _compile_package() -> bool:
    """The package's bytecode written first, as ``pip install`` leaves it: with
    ``PYTHONDONTWRITEBYTECODE`` set (as on this project's machines) and no ``__pycache__``, every
    configuration compiled jiaokan's sources again at start-up (0.2-0.5 s of CPU no user pays)."""
    import compileall

    import jiaokan

    try:
        return bool(compileall.compile_dir(Path(jiaokan.__file__).parent, quiet=1))
    except OSError:  # a read-only install: its bytecode is whatever the install left
        return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kanripo", type=Path, default=KANRIPO, help="folder of Kanripo files (default ../shared/kanripo)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="processes, as `jiaokan build --jobs` (default: the machine's cores); -j 1 is measured too")
    ap.add_argument("--no-doubled", action="store_true", help="skip the doubled book (no growth rows)")
    ap.add_argument("--repeat", type=int, default=None, metavar="N",
                    help="run each configuration N times, interleaved, and print the medians (default 3, for the "
                         "growth's rounds; 1 with --no-doubled)")
    ap.add_argument("--against", type=Path, metavar="SRC",
                    help="another source tree (a folder holding jiaokan/, e.g. an older checkout's src) run "
                         "interleaved with this one and printed beside it")
    ap.add_argument("--child", nargs=3, metavar=("CORPUS", "OUT", "JOBS"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(Path(args.child[0]), Path(args.child[1]), int(args.child[2]))))
        return 0
    compiled = _compile_package()
    against = args.against.resolve() if args.against else None
    if against is not None:
        if not (against / "jiaokan" / "__init__.py").is_file():
            sys.exit(f"bench_book: --against {args.against}: no jiaokan/ package in it (give a tree's src folder)")
        import compileall

        compileall.compile_dir(against / "jiaokan", quiet=1)  # as an install has it, like this tree
    # the builds (the book three times over, the doubled book ~100 MB) are gone when the bench is, whatever
    # ends it: a folder left per run filled /tmp with 25 GB on this project's machine
    with tempfile.TemporaryDirectory(prefix="jiaokan-bench-book-") as scratch:
        return _measure(args, Path(scratch), compiled, against)


def _measure(args: argparse.Namespace, tmp: Path, compiled: bool, against: Path | None) -> int:
    """The configurations built in ``tmp``, their table printed (:func:`main`)."""
    from jiaokan.ui import table

    book = tmp / "book"
    book.mkdir()
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "jiaokan", "init", str(args.kanripo.resolve()), "-o",
                        str(book / "corpus.toml")], capture_output=True, text=True)
    t_init = time.perf_counter() - t
    if not (book / "corpus.toml").is_file():
        sys.exit(f"bench_book: init failed:\n{r.stderr}")
    j = args.jobs
    if args.repeat is None:  # the growth needs rounds to tell the build from the host's noise (growth_verdict)
        args.repeat = 1 if args.no_doubled else DEFAULT_ROUNDS
    if args.repeat < 1:
        sys.exit("bench_book: --repeat takes a count of 1 or more")
    big = None if args.no_doubled else doubled(book / "corpus.toml")
    runs: dict[str, list[dict]] = {"one": [], "par": [], "two": []}
    old: dict[str, list[dict]] = {"one": [], "par": []}
    def one_j1() -> None:
        if against is not None:
            old["one"].append(run(book, tmp / "old-j1", 1, against))
        runs["one"].append(run(book, tmp / "out-j1", 1))

    def book_jn() -> None:
        if against is not None:
            old["par"].append(run(book, tmp / f"old-j{j}", j, against))
        runs["par"].append(run(book, tmp / f"out-j{j}", j))

    def doubled_jn() -> None:
        assert big is not None
        runs["two"].append(run(big, tmp / "out-doubled", j))

    configurations = [one_j1, *([book_jn] if j > 1 else []), *([doubled_jn] if big is not None else [])]
    for i in range(args.repeat):
        # interleaved, so the load's drift falls on every configuration alike: this host slows under sustained load
        # (the same build 7.9, 8.6, 9.1, 9.4 s of CPU back to back), and the doubled book, always run third after
        # two builds, met it at its slowest (one stage's growth read x1.88 in one bench and x2.50 in the next, 10
        # minutes apart).  Every other round runs backwards, so no configuration is always first or last, and the
        # book at -jN and the doubled book always run next to each other: the growth is their ratio in each round
        # (:func:`paired_growth`), which the drift from one round to the next does not move
        for configuration in (configurations if i % 2 == 0 else configurations[::-1]):
            configuration()
    one = combine(runs["one"])
    par = combine(runs["par"]) if j > 1 else one
    paired = runs["par"] if j > 1 else runs["one"]  # each round's book at -jN, beside that round's doubled book
    two = combine(runs["two"]) if big is not None else None

    #: the doubled book's characters over the book's (a little under 2: the files holding several 篇 are not copied)
    size = two["chars"] / one["chars"] if two is not None and one["chars"] else 2.0
    head = ["stage", "CPU -j1", f"CPU -j{j}", f"wall -j{j}", f"peak MB -j{j}"]
    if two is not None:
        head += [f"doubled CPU -j{j}", "growth", f"≤×{TARGET_GROWTH:.1f}"]
    rows: list[tuple] = []
    worst = 0.0
    verdicts: dict[str, str] = {}  # stage (or "all stages") -> yes / NO / unclear (:func:`growth_verdict`)
    for s in STAGES:
        if s not in par["cpu"]:
            rows.append((s, "not run", "", "", "", *(["", "", ""] if two is not None else [])))  # an older tree's
            continue
        mb = par["stage_mb"].get(s)
        row = [s, f"{one['cpu'][s]:.2f}", f"{par['cpu'][s]:.2f}", f"{par['wall'][s]:.2f}", f"{mb:.0f}" if mb else ""]
        if two is not None:
            b = two["cpu"][s]
            # a stage of a few ms has no growth worth the name
            g = paired_growth(paired, runs["two"], s, size) if par["cpu"][s] >= 0.05 else None
            worst = max(worst, g[0] if g else 0.0)
            if g:
                verdicts[s] = growth_verdict(round_growths(paired, runs["two"], s, size))
            row += [f"{b:.2f}", _growth_cell(g), verdicts.get(s, "")]
        rows.append(tuple(row))
    sa, sp = sum(one["cpu"].values()), sum(par["cpu"].values())
    row = ["all stages", f"{sa:.2f}", f"{sp:.2f}", f"{sum(par['wall'].values()):.2f}", ""]
    if two is not None:
        sb = sum(two["cpu"].values())
        g_all = paired_growth(paired, runs["two"], None, size)
        verdicts["all stages"] = growth_verdict(round_growths(paired, runs["two"], None, size))
        row += [f"{sb:.2f}", _growth_cell(g_all), verdicts["all stages"]]
        worst = max(worst, g_all[0])
    rows.append(tuple(row))
    ext = ["", ""] if two is not None else []
    rows.append(("whole process (start-up, imports)", f"{one['process_cpu']:.2f}", f"{par['process_cpu']:.2f}",
                 f"{par['process_wall']:.2f}", "", *([f"{two['process_cpu']:.2f}"] + ext if two else [])))
    rows.append((f"peak memory, all processes: RSS sum (MB)", f"{one['peak_rss_mb']:.0f}", f"{par['peak_rss_mb']:.0f}", "", "",
                 *([f"{two['peak_rss_mb']:.0f}"] + ext if two else [])))
    rows.append((f"  PSS sum (MB)", f"{one['peak_pss_mb']:.0f}", f"{par['peak_pss_mb']:.0f}", "", "",
                 *([f"{two['peak_pss_mb']:.0f}"] + ext if two else [])))
    rows.append(("  largest process (MB)", f"{one['largest_mb']:.0f}", f"{par['largest_mb']:.0f}", "", "",
                 *([f"{two['largest_mb']:.0f}"] + ext if two else [])))
    rows.append(("output written (MB)", f"{one['out_mb']:.1f}", f"{par['out_mb']:.1f}", "", "",
                 *([f"{two['out_mb']:.1f}"] + ext if two else [])))
    rows.append(("witness texts / collations", f"{one['witnesses']} / {one['collations']}", "", "", "",
                 *([f"{two['witnesses']} / {two['collations']}"] + ext if two else [])))
    rows.append(("characters read", f"{one['chars']:,}", "", "", "", *([f"{two['chars']:,}", f"×{size:.3f}", ""]
                                                                          if two else [])))
    load = os.getloadavg()
    print(f"jiaokan build, stage by stage: {args.kanripo} ({os.cpu_count()} cores; load average "
          f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; seconds"
          f"{f', the median of {args.repeat} runs each (memory: the largest)' if args.repeat > 1 else ', one run each'};"
          f" MB = 10⁶ bytes; init, a separate command: {t_init:.2f} s wall; "
          f"bytecode {'compiled first, as an install has it' if compiled else 'as found'})\n")
    print(table(tuple(head), rows))
    if one.get("partial"):
        print("\n(an older tree: its build has no stage hook, so its stages were called one by one and the ones "
              "marked 'not run' were left out: its CPU and wall times are below what its `jiaokan build` cost)")

    if against is not None:
        o1 = combine(old["one"])
        op = combine(old["par"]) if j > 1 else o1
        both = [(f"{s}, CPU -j1", o1["cpu"][s], one["cpu"][s]) for s in STAGES if s in o1["cpu"] and s in one["cpu"]]
        both += [("all stages, CPU -j1", sum(o1["cpu"].values()), sum(one["cpu"].values())),
                 ("whole process, CPU -j1", o1["process_cpu"], one["process_cpu"]),
                 (f"whole process, CPU -j{j}", op["process_cpu"], par["process_cpu"]),
                 (f"whole process, wall -j{j}", op["process_wall"], par["process_wall"]),
                 (f"peak memory -j{j}, RSS sum (MB)", op["peak_rss_mb"], par["peak_rss_mb"]),
                 ("output written (MB)", o1["out_mb"], one["out_mb"])]
        print(f"\nside by side, interleaved in this run: {args.against} (against) and this tree")
        print(table(("", "against", "this", "change"), side_by_side(both)))

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    print(f"\ntargets (issue #24; a quiet 2-core machine):")
    print(f"  whole build < {TARGET_WALL_S:.0f} s wall at -j{j}: {par['process_wall']:.2f} s, {verdict(par['process_wall'] < TARGET_WALL_S)}")
    print(f"  whole build < {TARGET_CPU_J1_S:.0f} s CPU at -j1: {one['process_cpu']:.2f} s, "
          f"{verdict(one['process_cpu'] < TARGET_CPU_J1_S)}")
    peak = max(one["peak_rss_mb"], par["peak_rss_mb"])
    print(f"  peak memory of all processes < {TARGET_MB} MB: {peak:.0f} MB (RSS summed), {verdict(peak < TARGET_MB)}")
    print(f"  output < {TARGET_OUT_MB} MB: {par['out_mb']:.1f} MB, {verdict(par['out_mb'] < TARGET_OUT_MB)}")
    if two is not None:
        print(f"  growth ≤ ×{TARGET_GROWTH:.1f} per doubling, every stage: {growth_summary(verdicts, worst)}")
        steady = steadiness(paired)
        if steady is not None:
            print(f"    (this host: the same build at -j{j} took {steady[0]:.2f}-{steady[1]:.2f} s of CPU "
                  f"over the {len(paired)} rounds, {steady[2]:.0%} apart)")
    errors = one["errors"] + par["errors"] + (two["errors"] if two else [])
    if errors:
        print(f"\nerrors ({len(errors)}):", *errors[:5], sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
