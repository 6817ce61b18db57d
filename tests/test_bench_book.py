"""The bench's doubled book (bench/bench_book.py ``doubled``): the book twice over, not every witness
twice in the same 篇 — what the growth rows of issue #24 are measured on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, kanripo_file, load_bench
from jiaokan.corpus import load_collations, load_manifest

FILES = ("KR1d0030_003.txt", "KR1d0028_003.txt", "KR1d0026_003.txt", "KR1d0029_001.txt")  # 士相見禮; 識誤 卷一


def _bench():
    return load_bench("bench_book")


def test_the_copies_are_a_second_book_not_more_witnesses_of_the_same(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in FILES:
        (src / name).symlink_to(kanripo_file(name))
    book = tmp_path / "book"
    book.mkdir()
    subprocess.run([sys.executable, "-m", "jiaokan", "init", str(src), "-o", str(book / "corpus.toml")],
                   check=True, capture_output=True)
    folder = _bench().doubled(book / "corpus.toml")
    entries = load_manifest(folder)
    sigla = sorted({e.meta.siglum for e in entries})
    # the 識誤's 卷 holds several 篇: its copy cannot be moved whole, and beside its original it would be work no
    # book twice as long has (a 单疏本 卷 so copied made a second 疏 collation of its 篇): it is not copied
    assert sigla == ["JS", "JS2", "SB", "SB2", "SW", "ZS", "ZS2"]
    placed = {e.meta.siglum: e.override for e in entries}
    for s in ("JS", "SB", "ZS"):  # the originals where their text puts them; the copies in a 篇 of their own
        assert placed[s] == ""
        assert placed[s + "2"] == "士相見禮二"


def test_growth_is_given_per_doubling_of_the_characters():
    """The doubled book is a little under twice the book (the files holding several 篇 are not copied): a cost
    ratio is turned into the ratio per doubling of the characters, so a linear cost reads ×2.0 and a quadratic
    one ×4.0, whatever the size ratio."""
    b = _bench()
    for size in (2.0, 1.97, 1.9):
        assert abs(b.per_doubling(size, size) - 2.0) < 1e-9
        assert abs(b.per_doubling(size ** 2, size) - 4.0) < 1e-9
    assert b.per_doubling(2.1, 2.0) == 2.1


def test_growth_is_the_median_of_the_rounds_each_a_pair_run_together():
    """The host's speed drifts between rounds; a round's two runs meet the same drift, so the growth is taken in
    each round (the doubled book over the book of the same round) and the rounds' median given, with their range.
    Here the second round ran 30% slower throughout, and its ratio is still the first's; the third's doubled
    book met a slower minute than its book: that round alone reads ×2.2, and the range shows it.  (The ratio of
    the medians, 2.42 over 1.1, would read ×2.2.)"""
    b = _bench()
    book = [{"cpu": {"collate": 1.0, "render": 0.5}}, {"cpu": {"collate": 1.3, "render": 0.65}},
            {"cpu": {"collate": 1.1, "render": 0.5}}]
    twice = [{"cpu": {"collate": 2.0, "render": 1.0}}, {"cpu": {"collate": 2.6, "render": 1.3}},
             {"cpu": {"collate": 2.42, "render": 1.1}}]
    g, lo, hi = b.paired_growth(book, twice, "collate", 2.0)
    assert (round(g, 6), round(lo, 6), round(hi, 6)) == (2.0, 2.0, 2.2)
    assert [round(x, 6) for x in b.paired_growth(book, twice, None, 2.0)] == [2.0, 2.0, 2.2]  # None: all stages
    assert b._growth_cell((2.0, 2.0, 2.2)) == "×2.00 (2.00-2.20)" and b._growth_cell((1.95, 1.95, 1.95)) == "×1.95"


def test_a_manifest_without_init_s_comments_is_refused_not_doubled_the_old_way(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    (book / "corpus.toml").write_text('[[witness]]\nsiglum = "JS"\nfiles = ["x_*.txt"]\n', encoding="utf-8")
    try:
        _bench().doubled(book / "corpus.toml")
    except SystemExit as exc:
        assert "names no file's 篇" in str(exc)
    else:
        raise AssertionError("doubled() accepted a manifest it cannot place")


def test_repeated_runs_print_the_median_time_and_the_largest_memory():
    def run(cpu: float, wall: float, rss: float, err: list[str]) -> dict:
        return {"cpu": {"ingest": cpu, "render": 2 * cpu}, "wall": {"ingest": wall, "render": wall},
                "process_cpu": 3 * cpu, "process_wall": 3 * wall, "peak_rss_mb": rss, "peak_pss_mb": rss / 2,
                "largest_mb": rss / 3, "processes": 3, "stage_mb": {"ingest": rss}, "out_mb": 61.7,
                "witnesses": 70, "collations": 25, "chars": 1, "errors": err}

    both = _bench().combine([run(1.0, 5.0, 300, []), run(3.0, 4.0, 380, ["x"]), run(2.0, 9.0, 350, [])])
    assert both["cpu"] == {"ingest": 2.0, "render": 4.0}  # the middle run, not the mean (2.0) by accident:
    assert both["wall"] == {"ingest": 5.0, "render": 5.0}  # 4, 5, 9 -> 5; the mean would be 6
    assert both["process_cpu"] == 6.0 and both["process_wall"] == 15.0
    assert both["peak_rss_mb"] == 380 and both["stage_mb"] == {"ingest": 380} and both["largest_mb"] == 380 / 3
    assert both["errors"] == ["x"] and both["runs"] == 3 and both["out_mb"] == 61.7


def test_side_by_side_gives_this_tree_s_change_against_the_other():
    rows = _bench().side_by_side([("collate", 4.0, 3.0), ("join", 0.01, 0.03), ("written", 61.6, 49.4)])
    assert rows == [("collate", "4.00", "3.00", "-25%"), ("join", "0.01", "0.03", "-"),
                    ("written", "61.60", "49.40", "-20%")]


def test_a_tree_to_run_against_must_hold_the_package(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_book.py"), "--against", str(tmp_path),
                        "--kanripo", str(tmp_path), "--no-doubled"], capture_output=True, text=True)
    assert r.returncode != 0 and "no jiaokan/ package" in r.stderr


def test_the_bench_leaves_no_build_behind(tmp_path):
    """Its builds go in a scratch folder removed when it ends (one left per run filled /tmp with 25 GB)."""
    src = tmp_path / "src"
    src.mkdir()
    for name in FILES[:3]:  # 士相見禮 in three witnesses: a small book, built once
        (src / name).symlink_to(kanripo_file(name))
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_book.py"), "--kanripo", str(src), "-j", "1",
                        "--no-doubled"], capture_output=True, text=True, env={**os.environ, "TMPDIR": str(scratch)})
    assert r.returncode == 0, r.stderr[-2000:]
    assert "output written (MB)" in r.stdout
    assert list(scratch.iterdir()) == []


def test_the_memory_sampler_sums_a_process_and_the_worker_it_forks():
    """The sampler's peaks (RSS from ``statm`` each tick, PSS only where it can make a new peak) count a process
    and its forked worker, each holding memory of its own: a worker started after the sampler is found too."""
    code = ("import os, time\n"
            "a = bytearray(60_000_000)\n"  # touched: resident
            "time.sleep(0.3)\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    b = bytearray(40_000_000)\n"
            "    time.sleep(0.8)\n"
            "    os._exit(0)\n"
            "os.waitpid(pid, 0)\n")
    p = subprocess.Popen([sys.executable, "-c", code])
    mem = _bench().MemorySampler(p.pid)
    mem.start()
    p.wait()
    mem.done.set()
    mem.join()
    assert p.returncode == 0
    assert mem.peak_procs == 2
    # both processes' own memory (60 + 40 MB), the copy-on-write pages they share counted once by PSS
    assert mem.peak_rss >= 100
    assert 100 <= mem.peak_pss <= mem.peak_rss


def test_a_growth_the_rounds_put_on_both_sides_of_the_target_is_unclear_not_yes_or_no():
    """A host whose speed moves reads the same stage's growth anywhere in x1.88-2.53 from one round to the next:
    the verdict is taken on the interval the median lies in with 75% odds (all rounds up to five; from six, the
    k-th lowest to the k-th highest), and where that straddles x2.0 the bench says it cannot tell rather than yes
    or NO; the target's line says which stages."""
    b = _bench()
    assert b.growth_verdict([1.90, 1.95, 1.99]) == "yes"
    assert b.growth_verdict([2.05, 2.10, 2.30]) == "NO"
    assert b.growth_verdict([1.90, 1.97, 2.10]) == "unclear"
    assert b.growth_verdict([1.78, 1.82, 2.03]) == "unclear"  # three rounds: one over the target is enough to doubt
    # from six rounds, one stray round on the far side does not make it unclear: the second lowest to second highest
    assert b.growth_verdict([1.80, 1.85, 1.90, 1.92, 1.95, 2.40]) == "yes"
    assert b.growth_verdict([1.95, 2.10, 2.12, 2.15, 2.20, 2.25]) == "NO"
    assert b.growth_verdict([2.30]) == "NO" and b.growth_verdict([1.99]) == "yes"  # one round: its figure
    assert b.growth_verdict([]) == ""
    assert b.growth_summary({"ingest": "yes", "render": "yes"}, 1.97) == "worst median ×1.97, met"
    assert "NOT met (render)" in b.growth_summary({"ingest": "unclear", "render": "NO"}, 2.2)
    line = b.growth_summary({"ingest": "unclear", "collate": "yes", "render": "unclear"}, 2.03)
    assert "not decided by this run" in line and "ingest, render" in line and "met" not in line.replace("NOT met", "")
    assert b.steadiness([{"cpu": {"a": 4.0, "b": 4.0}}, {"cpu": {"a": 5.0, "b": 5.0}}]) == (8.0, 10.0, 0.25)
    assert b.steadiness([{"cpu": {"a": 1.0}}]) is None


def test_the_median_s_interval_widens_with_fewer_rounds_and_keeps_75_percent_odds():
    """Order statistics: with n rounds the median lies between the k-th lowest and the k-th highest with odds
    1 - 2 P(B(n, 1/2) < k); k is the largest that keeps them at 75% or more."""
    from math import comb

    b = _bench()
    for n in range(1, 16):
        lo, hi = b.median_interval([float(i) for i in range(1, n + 1)])
        k = int(lo)
        assert hi == n + 1 - k
        outside = 2 * sum(comb(n, i) for i in range(k)) / 2**n
        assert outside <= 0.25 or k == 1
        if k + 1 <= n // 2:  # a narrower interval would lose the odds
            assert 2 * sum(comb(n, i) for i in range(k + 1)) / 2**n > 0.25
    assert b.median_interval([2.0, 1.0, 3.0]) == (1.0, 3.0)  # sorted first


def test_every_run_builds_into_an_empty_folder(tmp_path):
    """The rounds after the first built into the folder the first had filled: a rebuild (each file read back,
    compared and touched), so one bench mixed two workloads.  ``run`` moves the previous round's folder aside."""
    bench = _bench()
    out = tmp_path / "out-j2"
    bench._set_aside(out)  # nothing there yet: nothing to do
    assert not out.exists()
    for k in (1, 2):
        out.mkdir()
        (out / "index.html").write_text(str(k))
        bench._set_aside(out)
        assert not out.exists() and (tmp_path / f"out-j2.done{k}" / "index.html").read_text() == str(k)
