"""fork_map: the same results in the same order whatever the number of jobs; a dead worker's share is done here."""

from __future__ import annotations

import os

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


def test_steps_run_in_other_processes_only_when_asked():
    assert set(fork_map(_pid, None, [1, 2, 3, 4], 1)) == {os.getpid()}
    if "fork" in __import__("multiprocessing").get_all_start_methods():
        assert os.getpid() not in set(fork_map(_pid, None, [1, 2, 3, 4], 2))


def _die_in_a_worker(parent: int, item: int) -> int:
    if os.getpid() != parent and item == 2:
        os._exit(1)  # a worker killed (out of memory …)
    return item * 10


def test_a_dead_worker_leaves_its_share_to_this_process():
    notes: list[str] = []
    assert fork_map(_die_in_a_worker, os.getpid(), [1, 2, 3], 2, notes=notes) == [10, 20, 30]
    if "fork" in __import__("multiprocessing").get_all_start_methods():
        assert notes and "worker" in notes[0]


def test_pack_lightens_only_what_crosses_from_a_worker():
    packed = fork_map(_square_plus, {"plus": 0}, [2, 3], 2, pack=lambda r: -r)
    here = fork_map(_square_plus, {"plus": 0}, [2, 3], 1, pack=lambda r: -r)
    assert here == [4, 9]
    if "fork" in __import__("multiprocessing").get_all_start_methods():
        assert packed == [-4, -9]
