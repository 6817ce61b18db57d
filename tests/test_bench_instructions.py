"""bench/bench_instructions.py's reading of callgrind's count files: each stage's instructions, the forked
workers' counted in the stage they were forked in, none counted twice."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import load_bench


def _bench():
    return load_bench("bench_instructions")


def _dump(path, total: int, trigger: str) -> None:
    path.write_text(f"# callgrind format\nversion: 1\ndesc: Trigger: {trigger}\nsummary: {total}\ntotals: {total}\n")


def test_a_worker_s_count_goes_to_the_stage_it_was_forked_in_and_the_parent_s_parts_to_theirs(tmp_path):
    """The build's process dumps at each stage's start and end (sched_yield) and before each fork; a part is
    the stage's it ran in, whatever ended it.  A worker's file holds its own work only (counted from the fork)
    and is added to the stage it names; its "Collected" line, which includes its parent's counts up to the
    fork, is not summed."""
    b = _bench()
    out = tmp_path / "out0"
    parts = [(10, "--dump-before=sched_yield"),  # start-up, up to the first stage's start
             (5, "--dump-before=fork"), (7, "--dump-before=sched_yield"),  # ingest: up to the fork, then the rest
             (1, "--dump-before=sched_yield"),  # between ingest and collate
             (20, "--dump-before=sched_yield")]  # collate
    for n, (total, trigger) in enumerate(parts, 1):
        _dump(tmp_path / f"out0.callgrind.100.{n}", total, trigger)
    _dump(tmp_path / "out0.callgrind.100", 3, "Program termination")  # after the last stage
    _dump(tmp_path / "out0.callgrind.101", 50, "Program termination")  # the worker forked in ingest
    log = tmp_path / "log0.txt"
    log.write_text("JIAOKAN-STAGE ingest\nJIAOKAN-WORKER 101 ingest\n==101== Collected : 65\n"
                   "JIAOKAN-STAGE collate\n==100== Collected : 46\n")
    counts = b._stage_counts(out, log, "book")
    assert counts == {"start-up": 10, "ingest": 62, "collate": 20, "between and after": 4}

    class Done:
        returncode = 0

        def wait(self) -> int:
            return 0

    assert b._count(Done(), out, log, "book") == 96  # every file once: not 65 + 46


def test_a_worker_that_names_no_stage_is_an_error_not_dropped(tmp_path):
    b = _bench()
    out = tmp_path / "out0"
    _dump(tmp_path / "out0.callgrind.100.1", 10, "--dump-before=sched_yield")
    _dump(tmp_path / "out0.callgrind.100.2", 10, "--dump-before=sched_yield")
    _dump(tmp_path / "out0.callgrind.100", 1, "Program termination")
    _dump(tmp_path / "out0.callgrind.102", 9, "Program termination")
    log = tmp_path / "log0.txt"
    log.write_text("JIAOKAN-STAGE ingest\n==100== Collected : 21\n")
    with pytest.raises(SystemExit, match="process 102"):
        b._stage_counts(out, log, "book")


def test_the_stage_hook_program_names_the_stage_a_worker_is_forked_in(tmp_path):
    """The code run under callgrind (``_STAGED``): a fork inside a stage prints that stage's name from the child,
    one outside any stage "between and after"."""
    b = _bench()
    code = b._STAGED.split("from jiaokan.launch import main")[0] + (
        "import os\n"
        "with hook('collate', None):\n"
        "    pid = os.fork()\n"
        "    if pid == 0: os._exit(0)\n"
        "    os.waitpid(pid, 0)\n"
        "pid = os.fork()\n"
        "if pid == 0: os._exit(0)\n"
        "os.waitpid(pid, 0)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    stages = [line.split(" ", 2)[2] for line in r.stderr.splitlines() if line.startswith("JIAOKAN-WORKER")]
    assert stages == ["collate", "between and after"]
