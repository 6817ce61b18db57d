#!/usr/bin/env python3
"""The whole-book build, measured stage by stage: time and peak memory, and how they grow.

Usage::

    python bench/bench_book.py                  # ../shared/kanripo (篇一–八), then the same witnesses doubled
    python bench/bench_book.py --kanripo DIR    # another folder of Kanripo clones (e.g. all 17 篇)

What it runs is exactly what a scholar runs: ``jiaokan init`` over the folder, then the
stages of ``jiaokan build`` (ingest, join each witness per 篇, collate, 案 notes, render),
each timed on its own.  Each configuration runs in a fresh process, so its peak resident
memory (``ru_maxrss``) is its own.  "Doubled" lists every witness twice (JS and JS2, ZS and
ZS2 …): twice the characters and twice the witnesses per 篇, so growth in both shows.

The targets (issue: the whole book, 64 files, 1.27 M characters, 17 篇 × 3 witnesses, in
under 20 s wall and 1 GB on this 2-core machine) are for 17 篇; ../shared holds 8, so the
line at the end scales the 8-篇 time by the share of the book's characters they hold.
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
try:  # the package may not be installed in the running interpreter: use the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(ROOT / "src"))

KANRIPO = ROOT.parent / "shared" / "kanripo"
BOOK_CHARS = 1_270_000  # the whole book's characters (64 files), as the issue measured them
TARGET_S, TARGET_MB = 20.0, 1024
STAGES = ("manifest", "ingest", "join", "collate", "emend", "render")


def child(corpus: Path, out: Path, jobs: int) -> dict:
    """Run the build's stages in this process; seconds per stage and the peak memory."""
    from jiaokan.build import BuildResult, collate_stage, emend_stage, ingest_stage, join_stage, render_stage
    from jiaokan.corpus import load_collations, load_manifest
    from jiaokan.ui import Progress

    times: dict[str, float] = {}
    t = time.perf_counter()
    entries = load_manifest(corpus)
    res = BuildResult(entries)
    times["manifest"] = time.perf_counter() - t
    quiet = dict(quiet=True)
    t = time.perf_counter()
    ingest_stage(res, out, Progress(len(entries), "ingest", **quiet), None)
    times["ingest"] = time.perf_counter() - t
    t = time.perf_counter()
    if res.parts:
        join_stage(res, corpus, out, None)
    times["join"] = time.perf_counter() - t
    load_collations(corpus, res.units if res.parts else entries)
    t = time.perf_counter()
    collate_stage(res, corpus, out, Progress(1, "collate", **quiet), None, jobs=jobs)
    times["collate"] = time.perf_counter() - t
    t = time.perf_counter()
    emend_stage(res, out, Progress(1, "emend", **quiet), None)
    times["emend"] = time.perf_counter() - t
    t = time.perf_counter()
    render_stage(res, corpus, out, Progress(1, "render", **quiet), jobs=jobs)
    times["render"] = time.perf_counter() - t
    chars = sum(sum(w.layer_counts().values()) for w in res.witnesses.values())
    return {"times": times, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "worker_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
            "witnesses": len(res.witnesses), "collations": len(res.collations), "chars": chars,
            "errors": res.errors}


def doubled(manifest: Path) -> Path:
    """A manifest listing every witness twice (the copy's siglum ends in 2)."""
    text = manifest.read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=\[\[witness\]\])", text)
    head, wits = blocks[0], blocks[1:]
    copies = [re.sub(r'(?m)^siglum = "(\w+)"', r'siglum = "\g<1>2"', w) for w in wits]
    folder = manifest.parent.parent / "doubled"  # beside the manifest's folder: its relative paths still hold
    folder.mkdir(exist_ok=True)
    (folder / "corpus.toml").write_text(head + "".join(w.rstrip("\n") + "\n\n" for w in wits + copies), encoding="utf-8")
    return folder


def run(corpus: Path, out: Path, jobs: int) -> dict:
    t = time.perf_counter()
    p = subprocess.run([sys.executable, __file__, "--child", str(corpus), str(out), str(jobs)],
                       capture_output=True, text=True)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"bench_book: the build failed:\n{p.stderr[-3000:]}")
    data = json.loads(p.stdout.strip().splitlines()[-1])
    data["wall"] = wall
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kanripo", type=Path, default=KANRIPO, help="folder of Kanripo files (default ../shared/kanripo)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="篇 collated at once, as `jiaokan build --jobs` (default: the machine's cores)")
    ap.add_argument("--child", nargs=3, metavar=("CORPUS", "OUT", "JOBS"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(Path(args.child[0]), Path(args.child[1]), int(args.child[2]))))
        return 0
    from jiaokan.ui import table

    tmp = Path(tempfile.mkdtemp(prefix="jiaokan-bench-book-"))
    book = tmp / "book"
    book.mkdir()
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "jiaokan", "init", str(args.kanripo.resolve()), "-o",
                        str(book / "corpus.toml")], capture_output=True, text=True)
    t_init = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"bench_book: init failed:\n{r.stderr}")
    one = run(book, tmp / "out1", args.jobs)
    two = run(doubled(book / "corpus.toml"), tmp / "out2", args.jobs)
    rows = [("init (separate command)", f"{t_init:.2f}", "", "")]
    for s in STAGES:
        a, b = one["times"][s], two["times"][s]
        rows.append((s, f"{a:.2f}", f"{b:.2f}", f"{b / a:.1f}×" if a > 0.01 else ""))
    ta, tb = sum(one["times"].values()), sum(two["times"].values())
    rows.append(("all stages", f"{ta:.2f}", f"{tb:.2f}", f"{tb / ta:.1f}×"))
    rows.append(("process wall (with start-up)", f"{one['wall']:.2f}", f"{two['wall']:.2f}", ""))
    rows.append(("peak memory (MB)", f"{one['peak_mb']:.0f}", f"{two['peak_mb']:.0f}",
                 f"{two['peak_mb'] / one['peak_mb']:.1f}×"))
    rows.append(("largest worker's peak (MB)", f"{one['worker_mb']:.0f}", f"{two['worker_mb']:.0f}", ""))
    rows.append(("witness texts / collations", f"{one['witnesses']} / {one['collations']}",
                 f"{two['witnesses']} / {two['collations']}", ""))
    rows.append(("characters read", f"{one['chars']:,}", f"{two['chars']:,}", ""))
    print(f"jiaokan build --jobs {args.jobs}, stage by stage: {args.kanripo} and the same witnesses doubled "
          f"(seconds; {os.cpu_count()} cores)\n")
    print(table(("stage", "book", "doubled", "growth"), rows))
    share = one["chars"] / BOOK_CHARS if one["chars"] else 1.0
    est = one["wall"] / share if share < 1 else one["wall"]
    ok = est < TARGET_S and one["peak_mb"] < TARGET_MB
    print(f"\ntarget for the whole book: < {TARGET_S:.0f} s wall and < {TARGET_MB} MB on 2 cores. "
          f"Here {one['chars']:,} characters in {one['wall']:.1f} s; at this rate the book's ~{BOOK_CHARS:,} would take "
          f"~{est:.0f} s, peak {one['peak_mb']:.0f} MB: {'within' if ok else 'NOT within'} the target.")
    errors = one["errors"] + two["errors"]
    if errors:
        print("\nerrors:", *errors[:5], sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
