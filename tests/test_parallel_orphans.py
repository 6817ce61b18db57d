"""Workers die with their parent: a build killed with SIGKILL leaves no worker behind.

Before, the ``--jobs`` workers of a killed build were re-parented to PID 1 and blocked for
ever in a pipe write, holding stderr open (``jiaokan build 2>&1 | tee log`` never ended).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists() or "fork" not in multiprocessing.get_all_start_methods(),
                                reason="needs /proc and fork (Linux)")


def _children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(d.name))
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper is dead: it holds no pipe and no memory)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _kill_parent_and_check(proc: subprocess.Popen, workers: list[int]) -> None:
    try:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.05)
        survivors = [w for w in workers if _alive(w)]
        assert not survivors, f"workers {survivors} outlived their killed parent"
    finally:
        for w in workers:  # never leave a process of ours behind, even when the test fails
            if _alive(w):
                try:
                    os.kill(w, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def _wait_for_workers(proc: subprocess.Popen, n: int, timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        kids = _children(proc.pid)
        if len(kids) >= n:
            return kids
        time.sleep(0.01)
    return []


def test_fork_map_workers_end_when_the_parent_is_killed(tmp_path):
    """Deterministic: the workers are busy (sleeping) when the parent is killed."""
    script = textwrap.dedent("""
        import sys, time
        from jiaokan.parallel import fork_map
        def step(state, item):
            time.sleep(120)
            return item
        print("ready", flush=True)
        fork_map(step, None, [1, 2, 3, 4], 3)  # three jobs: this process and two workers
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    workers = _wait_for_workers(proc, 2, 60)
    assert len(workers) >= 2, proc.communicate(timeout=60)
    _kill_parent_and_check(proc, workers)


def test_a_killed_build_leaves_no_worker_alive(tmp_path):
    """``jiaokan build -j 2`` killed with SIGKILL while its workers collate: none is alive 5 s later."""
    cmd = [sys.executable, "-m", "jiaokan", "build", "--corpus", str(ROOT / "corpus"), "--out", str(tmp_path / "b"),
           "-j", "2", "-q"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    workers = _wait_for_workers(proc, 1, 300)
    if not workers:
        out = proc.communicate(timeout=300)[1].decode()
        pytest.fail(f"the build ended (status {proc.returncode}) before any worker was seen: {out[-500:]}")
    _kill_parent_and_check(proc, workers)
