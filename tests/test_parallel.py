"""fork_map: the same results in the same order whatever the number of jobs; ``jobs`` processes work (this one
and jobs - 1 forked); a dead worker's share is done here."""

from __future__ import annotations

import os
import sys

import pytest

from jiaokan.parallel import fork_map


def _square_plus(state: dict, item: int) -> int:
    return item * item + state["plus"]


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_results_in_order_and_every_step_reported(jobs):
    seen: list[int] = []
    items = [5, 1, 4, 2, 3]
    got = fork_map(_square_plus, {"plus": 1}, items, jobs, on_done=lambda i, r: seen.append(i))
    assert got == [26, 2, 17, 5, 10]
    assert sorted(seen) == list(range(len(items)))


def _pid(state: None, item: int) -> int:
    return os.getpid()


def _slow_pid(state: None, item: int) -> int:
    __import__("time").sleep(0.2)  # long enough that the worker is forked and takes steps while this process works
    return os.getpid()


def test_steps_run_in_other_processes_only_when_asked():
    assert set(fork_map(_pid, None, [1, 2, 3, 4], 1)) == {os.getpid()}
    if "fork" in __import__("multiprocessing").get_all_start_methods():
        # two jobs: this process and one worker, each taking the next step when free
        pids = fork_map(_slow_pid, None, list(range(6)), 2)
        assert len(set(pids)) == 2 and os.getpid() in pids
        assert pids[0] != os.getpid()  # the worker's first step is handed out before this process starts


def _die_in_a_worker(parent: int, item: int) -> int:
    if os.getpid() != parent:
        os._exit(1)  # a worker killed (out of memory …) at its first step
    return item * 10


def test_a_dead_worker_leaves_its_share_to_this_process():
    notes: list[str] = []
    assert fork_map(_die_in_a_worker, os.getpid(), [1, 2, 3], 2, notes=notes) == [10, 20, 30]
    if "fork" in __import__("multiprocessing").get_all_start_methods():
        assert notes and "worker" in notes[0]


def _square_where(parent: int, item: int) -> tuple[int, bool]:
    return item * item, os.getpid() == parent


def test_pack_lightens_only_what_crosses_from_a_worker():
    def pack(r: tuple[int, bool]) -> tuple[int, bool]:
        return -r[0], r[1]

    here = fork_map(_square_where, os.getpid(), [2, 3], 1, pack=pack)
    assert here == [(4, True), (9, True)]
    both = fork_map(_square_where, os.getpid(), [2, 3, 4, 5], 2, pack=pack)
    assert all((v > 0) == in_parent for v, in_parent in both)  # packed exactly when it came from a worker
    assert [abs(v) for v, _ in both] == [4, 9, 16, 25]


_SET_UP: list[int] = []  # what a ``meanwhile`` made in this process


def _set_up_and_where(parent: int, item: int) -> tuple[list[int], bool]:
    return list(_SET_UP), os.getpid() == parent


@pytest.mark.parametrize("jobs", [1, 2])
def test_meanwhile_runs_here_once_and_later_workers_inherit_what_it_made(jobs):
    _SET_UP.clear()
    ran: list[int] = []

    def meanwhile() -> None:
        ran.append(os.getpid())
        _SET_UP.append(7)

    got = fork_map(_slow_pid, None, list(range(4)), jobs, meanwhile=meanwhile)
    assert ran == [os.getpid()] and len(got) == 4
    later = fork_map(_set_up_and_where, os.getpid(), list(range(4)), jobs)
    assert all(made == [7] for made, _ in later)  # here, and in a worker forked after it
    if jobs > 1 and "fork" in __import__("multiprocessing").get_all_start_methods():
        assert not all(here for _, here in later)
    _SET_UP.clear()


def test_meanwhile_raising_is_raised_after_the_workers_finish():
    def meanwhile() -> None:
        raise ValueError("set-up failed")

    with pytest.raises(ValueError, match="set-up failed"):
        fork_map(_slow_pid, None, list(range(4)), 2, meanwhile=meanwhile)


def _big(state: None, item: int) -> bytes:
    return bytes(item)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipe sizes are Linux's")
def test_the_workers_results_come_back_through_a_pipe_a_megabyte_wide():
    """A worker's result crosses in megabyte writes, not the 64 KiB a pipe holds by default (see
    _widen_result_pipe): if the pool's pipe moved in another Python, this says so (the results would be
    right, and a build slower)."""
    import fcntl
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from jiaokan.parallel import RESULT_PIPE_BYTES, _widen_result_pipe

    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
        _widen_result_pipe(pool)
        assert fcntl.fcntl(pool._result_queue._writer.fileno(), fcntl.F_GETPIPE_SZ) >= RESULT_PIPE_BYTES
    # and a result larger than the pipe still arrives whole
    assert fork_map(_big, None, [3 << 20, 5], 2) == [bytes(3 << 20), bytes(5)]


def _sum_after(state: None, item: tuple[int, tuple]) -> tuple[int, float, float]:
    """(the item's value plus those of the steps it waited for, when it started, when it ended)."""
    import time

    value, before = item
    start = time.time()
    time.sleep(0.3 if value == 1 else 0.02)  # the step others wait for is the slow one
    return value + sum(r[0] for r in before), start, time.time()


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_a_step_waits_for_the_steps_it_needs_and_is_given_their_results(jobs):
    """``after``/``bind``: step 1 and step 3 wait for step 0 (the slow one), step 4 for 1 and 3; each is given their
    results, starts once they have ended, and the same in one process as in three."""
    items = [(1, ()), (10, ()), (100, ()), (1000, ()), (10000, ())]
    after = {1: [0], 3: [0], 4: [1, 3]}

    def bind(item: tuple[int, tuple], before: list) -> tuple[int, tuple]:
        return item[0], tuple(before)

    got = fork_map(_sum_after, None, items, jobs, after=after, bind=bind)
    assert [r[0] for r in got] == [1, 11, 100, 1001, 10000 + 11 + 1001]
    for i, needs in after.items():
        assert all(got[i][1] >= got[j][2] for j in needs)


def test_a_step_can_only_wait_for_one_before_it():
    with pytest.raises(ValueError, match="before it"):
        fork_map(_sum_after, None, [(1, ()), (2, ())], 2, after={0: [1]}, bind=lambda item, before: item)


def _die_after(parent: int, item: tuple[int, tuple]) -> int:
    if os.getpid() != parent:  # every worker dies at its first step
        os._exit(3)
    return item[0] + sum(item[1])


def test_a_dead_worker_leaves_the_waiting_steps_to_this_process():
    """The step waiting for the dead worker's steps does not wait for ever: it is done here, after them."""
    notes: list[str] = []
    got = fork_map(_die_after, os.getpid(), [(1, ()), (2, ()), (3, ()), (4, ())], 2, notes=notes,
                   after={3: [0, 1, 2]}, bind=lambda item, before: (item[0], tuple(before)))
    assert got[:3] == [1, 2, 3] and got[3] == 4 + 1 + 2 + 3
    assert notes
