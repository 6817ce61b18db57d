"""Benchmark of the character-level alignment engine (jiaokan.collate.align).

Run from the repository root::

    .venv/bin/python bench/bench_align.py              # full run (CollateX 4k takes minutes)
    .venv/bin/python bench/bench_align.py --no-collatex

Prints one table; see bench/README.md for what the rows and columns mean.
Not part of the pytest run.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import random
import re
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from jiaokan.collate.align import align  # noqa: E402

KANRIPO = Path(os.environ.get("JIAOKAN_KANRIPO", "/work/shared/kanripo"))
ZHUSHU = KANRIPO / "KR1d0028_007.txt"  # 《仪礼注疏》 卷七 (大射仪), 四库 文渊阁, Mandoku raw
JISHI = KANRIPO / "KR1d0030_010.txt"  # 李如圭《仪礼集释》 卷十 (大射仪), same edition

PAIR_SIZES = (1000, 2000, 4000)
SCALES = (1, 2, 4, 8)
COLLATEX_TIMEOUT = 600.0  # seconds per size; beyond that the time is a lower bound
REPEATS = 5  # jiaokan timings: best of this many runs (after one warm-up)
SEED = 20240607

# Han characters: CJK Unified Ideographs, Extension A, Extensions B-F, compatibility
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")


def han_chars(path: Path) -> str:
    """Crude extraction for the bench: every Han character of a Mandoku raw file.

    Drops ``#`` header lines and ``<pb:…>`` page markers, then keeps only Han
    characters, so punctuation, ``¶``, ``/`` and brackets go, but everything
    else stays in reading order: 经, 注, 疏 and 音義 text together with their
    labels (注, 疏, 音義), 案 notes, 考證, titles.  No layer separation: this
    is the hard case of whole-chapter alignment (疏 in one witness only).
    """
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"<pb:[^>]*>", "", text)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    return "".join(_HAN.findall(text))


def mutated_copy(src: str, seed: int) -> str:
    """``src`` with about 1% substitutions, 1% insertions, 1% deletions and 2 transpositions.

    Substituted and inserted characters are drawn from ``src`` itself (so they
    have the text's own frequency profile).  Each transposition moves a segment
    of 2-6 characters forward by 3-20 characters.
    """
    rng = random.Random(seed)
    chars = list(src)
    pool = src
    n = len(chars)
    out: list[str] = []
    for ch in chars:
        r = rng.random()
        if r < 0.01:  # substitution
            out.append(rng.choice(pool))
        elif r < 0.02:  # deletion
            continue
        elif r < 0.03:  # insertion before this character
            out.append(rng.choice(pool))
            out.append(ch)
        else:
            out.append(ch)
    for t in range(2):
        length = rng.randint(2, 6)
        start = rng.randrange(int(n * (0.2 + 0.5 * t)), int(n * (0.3 + 0.5 * t)))
        seg = out[start : start + length]
        del out[start : start + length]
        dest = start + rng.randint(3, 20)
        out[dest:dest] = seg
    return "".join(out)


def pair(size: int) -> tuple[str, str]:
    """The N-character test pair: first N Han chars of 集释 卷十 and a mutated copy."""
    a = han_chars(JISHI)[:size]
    return a, mutated_copy(a, SEED + size)


def relabelled(text: str, copy: int, alphabet: dict[str, int]) -> str:
    """Copy number ``copy`` of a text; copies >= 1 get a disjoint private-use alphabet."""
    if copy == 0:
        return text
    base = 0xF0000 + (copy - 1) * len(alphabet)
    return text.translate({ord(c): base + r for c, r in alphabet.items()})


def scaled(zs: str, js: str, factor: int, plain: bool = False) -> tuple[str, str]:
    """Chapter pair concatenated ``factor`` times.

    By default each copy is relabelled into its own alphabet, so ×k behaves
    like k different chapters with the statistics of this one.  ``plain=True``
    repeats the text as is (every n-gram then occurs k times: the hard case for
    unique-anchor methods).
    """
    if plain:
        return zs * factor, js * factor
    alphabet = {c: r for r, c in enumerate(sorted(set(zs) | set(js)))}
    return (
        "".join(relabelled(zs, t, alphabet) for t in range(factor)),
        "".join(relabelled(js, t, alphabet) for t in range(factor)),
    )


def equal_keys(ops) -> int:
    return sum(op.a1 - op.a0 for op in ops if op.kind == "equal")


def clock() -> float:
    """CPU seconds of this process: equal to wall time on an idle machine (the
    code is single-threaded), and not inflated when the machine is shared."""
    return time.process_time()


def time_jiaokan(a: str, b: str) -> tuple[float, int, float]:
    """Best-of-REPEATS time, equal keys, and peak traced memory (MiB) of a separate run."""
    ops = align(a, b)  # warm-up
    best = float("inf")
    for _ in range(REPEATS):
        t0 = clock()
        ops = align(a, b)
        best = min(best, clock() - t0)
    tracemalloc.start()
    align(a, b)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return best, equal_keys(ops), peak


# --------------------------------------------------------------------------
# CollateX, in a child process (isolates its memory; lets us time it out)
# --------------------------------------------------------------------------


def collatex_worker(size: int) -> None:
    import resource

    from collatex import collate

    a, b = pair(size)
    data = {
        "witnesses": [
            {"id": "A", "tokens": [{"t": c} for c in a]},
            {"id": "B", "tokens": [{"t": c} for c in b]},
        ]
    }
    t0 = clock()
    w0 = time.perf_counter()
    table = collate(data, output="table", segmentation=False)
    seconds = clock() - t0
    wall = time.perf_counter() - w0
    matched = 0
    for column in table.columns:
        tok = column.tokens_per_witness
        if "A" in tok and "B" in tok:
            ta = "".join(t.token_string for t in tok["A"])
            tb = "".join(t.token_string for t in tok["B"])
            matched += ta == tb
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "wall": wall, "matched": matched, "rss_mib": rss}))


def run_collatex(size: int) -> dict:
    try:
        proc = subprocess.run(
            [sys.executable, __file__, "--collatex-worker", str(size)],
            capture_output=True,
            text=True,
            timeout=COLLATEX_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return {"seconds": COLLATEX_TIMEOUT, "lower_bound": True, "matched": None, "rss_mib": None}
    if proc.returncode != 0:
        raise RuntimeError(f"CollateX worker failed:\n{proc.stderr}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["lower_bound"] = False
    return out


# --------------------------------------------------------------------------
# table
# --------------------------------------------------------------------------


def _repeated(w, k: int):
    """A witness whose chapter is repeated ``k`` times, unit ids made unique.

    Plain repetition (not relabelling as in :func:`scaled`): relabelled characters
    would lose their normalization folds and change what collation finds.
    """
    import copy

    out = copy.deepcopy(w)
    divs = []
    for c in range(k):
        for d in copy.deepcopy(w.divs):
            for u in d.units:
                u.id = f"{u.id}x{c}"
            divs.append(d)
    out.divs = divs
    return out


#: the target for collate()'s time per doubling of its input (issue #24: every stage of the build ≤ ×2.0)
COLLATE_GROWTH = 2.0

#: distinct real text, about doubling: 篇 of one 卷 in both the 集释 (KR1d0030) and the 注疏 (KR1d0028),
#: as (集释 卷, 注疏 卷): ×1 士昏禮; ×2 士冠禮 and 鄉飲酒禮; ×4 those three, 士相見禮 and 公食大夫禮
GROWTH_SETS = {1: (("002", "002"),),
               2: (("001", "001"), ("004", "004")),
               4: (("001", "001"), ("002", "002"), ("003", "003"), ("004", "004"), ("015", "009"))}


def _joined(files: list[Path], siglum: str):
    """One witness holding the 卷 of ``files`` one after the other, as the readers give each."""
    from jiaokan.model import WitnessMeta
    from jiaokan.readers import read_witness

    ws = [read_witness(f, WitnessMeta(siglum=siglum, file=f.name, format="")) for f in files]
    out = ws[0]
    out.divs = [d for w in ws for d in w.divs]
    return out


def _collate_best(a, b) -> tuple[float, float, int]:
    """collate() of ``a`` and ``b``: best of five runs, with the collector on, as an API user has it
    (collate() pauses it for its own work, as ``jiaokan build`` does: :mod:`jiaokan.collector`), the peak
    of the memory it allocates, and its apparatus entries."""
    from jiaokan.collate.engine import collate

    best = float("inf")
    for _ in range(5):
        gc.collect()  # a large witness leaves a large object graph behind: keep GC out of the timing
        t0 = clock()
        col = collate([a, b], base="JS")
        best = min(best, clock() - t0)
    tracemalloc.start()
    collate([a, b], base="JS")
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return best, peak, len(col.apps)


def time_layered_collation(rows: list[list[str]]) -> tuple[dict[int, float], dict[int, float]] | None:
    """collate() on 集释 卷十 and 注疏 卷七 as the readers give them, and on the pair repeated (the same
    text k times: the growth held against :data:`COLLATE_GROWTH`, though every passage is then found k
    times, a harder case than any book); then on distinct 篇, about doubling, which is the build's case
    but whose variants per character differ from set to set.

    Returns the times of the repeated pair by k, and the growth per doubling of the distinct text,
    scaled to an exact doubling of its characters (``(t₂/t₁) ** (log 2 / log(c₂/c₁))``: the sets are
    about, not exactly, twice as long)."""
    from jiaokan.model import WitnessMeta
    from jiaokan.readers import ReaderError, read_witness

    try:
        js = read_witness(JISHI, WitnessMeta(siglum="JS", file=JISHI.name, format=""))
        zs = read_witness(ZHUSHU, WitnessMeta(siglum="ZS", file=ZHUSHU.name, format=""))
    except ReaderError as exc:
        print(f"(layered collation skipped: {exc})", file=sys.stderr)
        return None
    from jiaokan.collate import engine

    times: dict[int, float] = {}
    prev = None
    guard = engine.repeated_text
    for k in (1, 2, 4):
        a, b = (js, zs) if k == 1 else (_repeated(js, k), _repeated(zs, k))
        # the copies are this bench's doing: collate() refuses a witness that repeats its own text
        # (jiaokan.collate.limits.repeated_text), so the check is left out for the repeated pair
        engine.repeated_text = guard if k == 1 else (lambda w, key, ignorable, jing=None: None)
        try:
            best, peak, n_apps = _collate_best(a, b)
        finally:
            engine.repeated_text = guard
        times[k] = best
        chars = (sum(len(p.text) for p in a.pieces()), sum(len(p.text) for p in b.pieces()))
        rows.append([f"collate() 卷十/卷七 repeated ×{k}", f"{chars[0]:,} / {chars[1]:,}", "—", fmt_s(best), "",
                     f"×{best / prev:.2f}" if prev else "", f"{peak:.1f}", "—", f"{n_apps} apps"])
        prev = best
    growth: dict[int, float] = {}
    last: tuple[float, int] | None = None
    for k, pairs in GROWTH_SETS.items():
        missing = [f for j, z in pairs for f in (KANRIPO / f"KR1d0030_{j}.txt", KANRIPO / f"KR1d0028_{z}.txt")
                   if not f.is_file()]
        if missing:
            print(f"(distinct-text growth skipped: {missing[0]} not found)", file=sys.stderr)
            return times, {}
        a = _joined([KANRIPO / f"KR1d0030_{j}.txt" for j, _ in pairs], "JS")
        b = _joined([KANRIPO / f"KR1d0028_{z}.txt" for _, z in pairs], "ZS")
        best, peak, n_apps = _collate_best(a, b)
        chars = (sum(len(p.text) for p in a.pieces()), sum(len(p.text) for p in b.pieces()))
        note = ""
        if last is not None:
            ratio_t, ratio_c = best / last[0], sum(chars) / last[1]
            growth[k] = ratio_t ** (math.log(2) / math.log(ratio_c))
            note = f"×{ratio_t:.2f} for ×{ratio_c:.2f} chars = ×{growth[k]:.2f} per doubling"
        rows.append([f"collate() distinct 篇 ×{k} ({len(pairs)} 篇)", f"{chars[0]:,} / {chars[1]:,}", "—",
                     fmt_s(best), "", note, f"{peak:.1f}", "—", f"{n_apps} apps"])
        last = (best, sum(chars))
    return times, growth


#: the 篇 of the book as (集释 KR1d0030 卷, 注疏 KR1d0028 卷), 篇一 to 篇十三 (the Kanripo README's table)
PIAN = [(("001",), "001"), (("002",), "002"), (("003",), "003"), (("004",), "004"), (("005", "006"), "005"),
        (("007", "008"), "006"), (("009", "010"), "007"), (("011", "012", "013", "014"), "008"), (("015",), "009"),
        (("016",), "010"), (("017", "018", "019"), "011"), (("020", "021", "022"), "012"), (("023", "024"), "013")]


def _pian_pair(pians: list[int]):
    """The 集释 and the 注疏 of the 篇 ``pians`` (indexes into :data:`PIAN`), each one witness, as the readers
    give each 卷, joined in order."""
    return (_joined([KANRIPO / f"KR1d0030_{j}.txt" for i in pians for j in PIAN[i][0]], "JS"),
            _joined([KANRIPO / f"KR1d0028_{PIAN[i][1]}.txt" for i in pians], "ZS"))


def _halving_tree(n: int) -> list[tuple[list[int], list[int]]]:
    """Each doubling of the 篇 ``0 .. n-1``: (a set of 篇, its two halves), from pairs of 篇 up to the whole,
    neighbours joined (an odd one out joins at the next level)."""
    level = [[i] for i in range(n)]
    out = []
    while len(level) > 1:
        nxt = [level[i] + level[i + 1] for i in range(0, len(level) - 1, 2)] + ([level[-1]] if len(level) % 2 else [])
        out += [(level[i] + level[i + 1], level[i]) for i in range(0, len(level) - 1, 2)]
        level = nxt
    return out


def _doubling(t: Mapping[tuple[int, ...], float], whole: list[int], half: list[int]) -> float:
    """collate()'s growth for one doubling: the joined 篇 against the sum of its two halves, ×2: ×2.0 where it
    costs what its halves cost apart (the same text, so no scaling by characters, and no 篇's content weighs)."""
    other = [i for i in whole if i not in half]
    return 2 * t[tuple(whole)] / (t[tuple(half)] + t[tuple(other)])


def time_joined_pian(n: int = len(PIAN), rounds: int = 3) -> list[tuple[str, float, float, list[float]]] | None:
    """collate() of real 篇 joined, against the sum of the same 篇 collated apart (:func:`_halving_tree`): the
    build's case (distinct text, every 篇 as it is), measured with the text held equal.  ``rounds`` passes, each
    the best of five calls of every set, so a doubling's ratio is read ``rounds`` times.

    Returns per doubling (its 篇, its seconds, the median ratio, the rounds' ratios)."""
    if not all((KANRIPO / f"KR1d0030_{j}.txt").is_file() for i in range(n) for j in PIAN[i][0]):
        print("(joined-篇 growth skipped: the Kanripo files are not all there)", file=sys.stderr)
        return None
    tree = _halving_tree(n)
    sets = sorted({tuple(x) for whole, half in tree for x in (whole, half, [i for i in whole if i not in half])},
                  key=lambda x: (len(x), x))
    pairs = {x: _pian_pair(list(x)) for x in sets}
    per_round = []
    for _ in range(rounds):
        t = {x: _collate_best(*pairs[x])[0] for x in sets}
        per_round.append(t)
    out = []
    for whole, half in tree:
        ratios = sorted(_doubling(t, whole, half) for t in per_round)
        out.append((_pian_label(whole), min(t[tuple(whole)] for t in per_round), ratios[len(ratios) // 2], ratios))
    return out


def _pian_label(pians: list[int]) -> str:
    return f"篇{pians[0] + 1}" if len(pians) == 1 else f"篇{pians[0] + 1}-{pians[-1] + 1}"


#: ``python -c`` under callgrind for :func:`count_joined_pian`: reads one set of 篇 (JSON), collates it
#: :data:`COUNT_AFTER` times, then once more between two ``sched_yield()`` (callgrind writes its counts out before
#: each: the count between the two is that call's).  Each set has a process of its own, and is counted in the
#: steady state its own earlier calls leave, because collate()'s count depends on what ran before it by more than
#: the growth it is to show: counted in one process after the other sets, 篇1-2 read 251.1 M instructions after a
#: warm-up on 篇1-8 and 258.2 M after one on 篇1-4 (2.8%), and ×2.010 or ×1.989 for 篇3-4 by the warm-up alone
#: (CPython 3.11's specializing interpreter quickens the code for the inputs it last saw, and a first call fills
#: the lazy fold tables).  After two calls of its own, the same call reads within 0.15% whatever ran before, and
#: to 0.01% from run to run.  Only the call lies between the marks: its argument list is made before, its result freed after, and the
#: collector has just run with the witnesses frozen out of its reach (``gc.freeze()``); else an allocation
#: inside the window could set off a full collection of them all, counted as the call's.
_COUNTED = """
import gc, json, os, sys
sys.path.insert(0, sys.argv[1])
import bench_align as B
pair = B._pian_pair(json.loads(sys.argv[2]))
from jiaokan.collate.engine import collate
for _ in range(int(sys.argv[3])):
    collate(list(pair), base="JS")
args = list(pair)
gc.collect()
gc.freeze()
os.sched_yield()
col = collate(args, base="JS")
os.sched_yield()
del col
"""

#: Calls of collate() on a set before the counted one (see :data:`_COUNTED`).
COUNT_AFTER = 2


def _count_one(pians: tuple[int, ...], tmp: Path) -> int | str:
    """Instructions of one steady-state collate() call on ``pians`` (:data:`_COUNTED`), or why there are none."""
    out = tmp / ("cg" + "_".join(map(str, pians)))
    r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}.%p", "--dump-before=sched_yield",
                        sys.executable, "-c", _COUNTED, str(Path(__file__).parent), json.dumps(list(pians)),
                        str(COUNT_AFTER)],
                       env={**os.environ, "PYTHONHASHSEED": "0"}, capture_output=True)
    if r.returncode != 0:
        return r.stderr.decode(errors="replace")[-300:]
    # dump 1 ends at the first mark (start-up, reading, the calls before), dump 2 at the second: the counted call
    dumps = sorted(tmp.glob(out.name + ".*.*"), key=lambda f: int(f.name.rsplit(".", 1)[1]))
    if len(dumps) != 2:
        return f"{len(dumps)} dumps where two were expected"
    m = re.search(r"^totals:\s*(\d+)", dumps[1].read_text(encoding="utf-8", errors="replace"), re.M)
    return int(m.group(1)) if m else "no totals in the dump"


def count_joined_pian(n: int = 8, jobs: int = 2) -> list[tuple[str, int, float]] | None:
    """:func:`time_joined_pian`'s doublings of 篇一 to ``n`` counted in instructions (valgrind's callgrind): the same
    count for the same code and text whatever the host's load, where the seconds move by ±10% between rounds.
    Each set in a process of its own (:data:`_COUNTED`), ``jobs`` at a time.

    Returns per doubling (its 篇, its instructions, the ratio), or None without valgrind."""
    import shutil
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    if shutil.which("valgrind") is None:
        print("(instruction counts skipped: valgrind is not installed; apt-get install valgrind)", file=sys.stderr)
        return None
    tree = _halving_tree(n)
    sets = sorted({tuple(x) for whole, half in tree for x in (whole, half, [i for i in whole if i not in half])},
                  key=lambda x: (-len(x), x))  # the longest first: the pool ends on short ones
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(jobs) as pool:
        got = dict(zip(sets, pool.map(lambda x: _count_one(x, Path(tmp)), sets)))
    failed = {x: why for x, why in got.items() if isinstance(why, str)}
    if failed:
        x, why = next(iter(failed.items()))
        print(f"(instruction counts failed for {_pian_label(list(x))}: {why})", file=sys.stderr)
        return None
    count = {x: int(v) for x, v in got.items()}
    return [(_pian_label(whole), count[tuple(whole)], _doubling(count, whole, half)) for whole, half in tree]


def fmt_s(x: float | None, lower: bool = False) -> str:
    if x is None:
        return "—"
    s = f"{x:.3f}" if x < 10 else f"{x:.1f}"
    return (">" if lower else "") + s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-collatex", action="store_true", help="skip CollateX (quick run)")
    ap.add_argument("--collatex-worker", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--instructions", action="store_true",
                    help="also count collate()'s instructions for 篇一-八 joined against their parts (valgrind's "
                         "callgrind; each set in a process of its own, two at a time, about four minutes on two "
                         "cores): the growth free of the host's load, which then decides the verdict")
    args = ap.parse_args()
    if args.collatex_worker:
        collatex_worker(args.collatex_worker)
        return

    rows: list[list[str]] = []
    verdicts: list[str] = []

    # 1. CollateX vs jiaokan on N-character pairs
    ratio_4k = None
    for size in PAIR_SIZES:
        a, b = pair(size)
        jk_t, jk_eq, jk_mem = time_jiaokan(a, b)
        if args.no_collatex:
            cx = None
        else:
            cx = run_collatex(size)
        if cx:
            ratio = cx["seconds"] / jk_t
            lower = cx["lower_bound"]
            ratio_s = (">" if lower else "") + f"{ratio:,.0f}×"
            cx_s = fmt_s(cx["seconds"], lower)
            eq_s = f"{cx['matched'] if cx['matched'] is not None else '?'} / {jk_eq}"
            rss_s = f"{cx['rss_mib']:.0f}" if cx["rss_mib"] else "?"
            if size == 4000:
                ratio_4k = (ratio, lower)
        else:
            ratio_s, cx_s, eq_s, rss_s = "—", "skipped", f"— / {jk_eq}", "—"
        rows.append(
            [
                f"pair {size // 1000}k",
                f"{len(a):,} / {len(b):,}",
                cx_s,
                fmt_s(jk_t),
                ratio_s,
                "",
                f"{jk_mem:.1f}",
                rss_s,
                eq_s,
            ]
        )

    # 2. jiaokan alone: the chapter pair and its doublings
    zs, js = han_chars(ZHUSHU), han_chars(JISHI)
    prev = None
    times = {}
    for factor in SCALES:
        a, b = scaled(zs, js, factor)
        jk_t, jk_eq, jk_mem = time_jiaokan(a, b)
        times[factor] = jk_t
        growth = f"×{jk_t / prev:.2f}" if prev else ""
        prev = jk_t
        rows.append(
            [
                f"chapter ×{factor}",
                f"{len(a):,} / {len(b):,}",
                "—",
                fmt_s(jk_t),
                "",
                growth,
                f"{jk_mem:.1f}",
                "—",
                f"— / {jk_eq}",
            ]
        )
    a, b = scaled(zs, js, SCALES[-1], plain=True)
    jk_t, jk_eq, jk_mem = time_jiaokan(a, b)
    rows.append(
        [
            f"chapter ×{SCALES[-1]} plain repeat",
            f"{len(a):,} / {len(b):,}",
            "—",
            fmt_s(jk_t),
            "",
            "",
            f"{jk_mem:.1f}",
            "—",
            f"— / {jk_eq}",
        ]
    )

    # 3. the real thing: both chapters read by the Mandoku reader and collated layer by layer
    layered = time_layered_collation(rows)

    # 4. collate() of the book's 篇 joined, against the same 篇 collated apart: the growth held against the target
    joined = time_joined_pian()
    for label, secs, ratio, ratios in joined or []:
        rows.append([f"collate() joined {label}", "", "—", fmt_s(secs), "",
                     f"×{ratio:.2f} of its halves apart ({', '.join(f'{r:.2f}' for r in ratios)})", "", "—", ""])
    counted = count_joined_pian() if args.instructions else None
    for label, n_ins, ratio in counted or []:
        rows.append([f"collate() joined {label}, instructions", "", "—", f"{n_ins / 1e9:.3f} G", "",
                     f"×{ratio:.3f} of its halves apart", "", "—", ""])

    header = [
        "case",
        "chars a / b",
        "CollateX s",
        "jiaokan s",
        "jiaokan vs CX",
        "growth",
        "jk peak MiB",
        "CX RSS MiB",
        "equal CX / jk",
    ]
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    line = "  ".join("-" * w for w in widths)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    print(line)
    for r in rows:
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))
    print(line)

    if ratio_4k:
        r, lower = ratio_4k
        verdicts.append(f"≥1000× CollateX at 4k: {'yes' if r >= 1000 else 'NO'} ({'>' if lower else ''}{r:,.0f}×)")
    verdicts.append(f"chapter pair < 1 s: {'yes' if times[1] < 1 else 'NO'} ({times[1]:.3f} s)")
    worst = max(times[f] / times[f // 2] for f in SCALES[1:])
    verdicts.append(f"time ×≤2.2 per doubling: {'yes' if worst <= 2.2 else 'NO'} (worst ×{worst:.2f})")
    if layered:
        repeated, distinct = layered
        verdicts.append(f"layered collate() of the chapter pair < 1 s: {'yes' if repeated[1] < 1 else 'NO'} "
                        f"({repeated[1]:.3f} s)")
        verdicts.append(f"repeated pair (not held: collate() refuses such a witness): worst ×"
                        f"{max(repeated[f] / repeated[f // 2] for f in (2, 4)):.2f}")
    # with the collector on, as users run it (collate() pauses it itself): the whole book must not grow faster than
    # its text.  Held against real 篇 joined, each doubling against its own halves collated apart (the same text
    # both ways); in instructions where counted (the seconds move with the host's load by ±10% between rounds)
    if counted:
        worst = max(r for _, _, r in counted)
        verdicts.append(f"collate() ×≤{COLLATE_GROWTH} per doubling: {'yes' if worst <= COLLATE_GROWTH else 'NO'} "
                        f"(worst ×{worst:.3f} in instructions, 篇一-八 joined against their halves)")
    elif joined:
        medians = [m for _, _, m, _ in joined]
        lows = [min(rs) for _, _, _, rs in joined]
        worst = max(medians)
        say = ("yes" if max(max(rs) for *_, rs in joined) <= COLLATE_GROWTH
               else "NO" if any(lo > COLLATE_GROWTH for lo in lows) else "unclear")
        verdicts.append(f"collate() ×≤{COLLATE_GROWTH} per doubling: {say} (worst median ×{worst:.2f} in seconds, "
                        f"篇 joined against their halves; --instructions decides)")
    print("targets: " + "; ".join(verdicts))


if __name__ == "__main__":
    main()
