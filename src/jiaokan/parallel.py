"""One way to spread independent steps over processes: :func:`fork_map`.

Why processes and fork: the heavy stages (collating a 篇, checking its 案 notes,
rendering its page) are pure Python, so threads would wait on the GIL; a forked
worker inherits everything the build holds (every witness, every collation)
without pickling it, so only each step's small input and its result cross the
process boundary.  Where fork does not exist (Windows, macOS' default spawn) or
only one job is asked for, the steps run here, one after the other, with the
same results: the outputs never depend on ``jobs``.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Sequence, TypeVar

__all__ = ["fork_map"]

T = TypeVar("T")
R = TypeVar("R")

#: (step, shared state, pack) for the forked workers: set just before the pool starts, so the
#: workers inherit it instead of receiving it pickled.
_WORK: tuple[Callable[[Any, Any], Any], Any, Callable[[Any], Any] | None] | None = None


def _die_with_parent(parent: int, lifeline: int, lifeline_w: int) -> None:
    """A worker's initializer: end this process when the parent ends, however it ends.

    Why: after ``kill -9`` of a build its workers were re-parented to PID 1, blocked for
    ever writing a result (~150 MB) into a pipe nobody read, and held stderr open, so
    ``jiaokan build 2>&1 | tee log`` never finished.  Two guards, either enough alone:
    on Linux the kernel sends SIGKILL when the parent dies (``PR_SET_PDEATHSIG``); and
    everywhere, a daemon thread waits on a pipe whose write end only the parent holds,
    and reading end-of-file there means the parent is gone.
    """
    os.close(lifeline_w)  # the parent's end: the worker must not keep its own lifeline alive
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):  # pragma: no cover - no libc or no prctl: the pipe still guards
            pass
    if os.getppid() != parent:  # the parent died before the guard was set
        os._exit(1)

    def watch() -> None:
        try:
            while os.read(lifeline, 1):
                pass
        except OSError:
            pass
        os._exit(1)

    threading.Thread(target=watch, name="jiaokan-lifeline", daemon=True).start()


def _call(item: Any) -> Any:
    assert _WORK is not None, "fork_map's worker started without its work"
    step, state, pack = _WORK
    result = step(state, item)
    return pack(result) if pack is not None else result


def fork_map(step: Callable[[Any, T], R], state: Any, items: Sequence[T], jobs: int, *,
             on_done: Callable[[int, R], None] | None = None, pack: Callable[[R], R] | None = None,
             notes: list[str] | None = None) -> list[R]:
    """``[step(state, item) for item in items]``, with up to ``jobs`` of them at once in forked processes.

    ``state`` is shared, not copied (the workers inherit it); ``item`` and the result travel
    pickled, and ``pack`` lightens a worker's result for the trip (drop what the parent
    already holds).  ``on_done(index, result)`` is called here as each step finishes (a
    progress bar).  Results come back in the order of ``items`` whatever order they finish
    in.  A step must return its errors rather than raise them.  If a worker dies (out of
    memory, killed), what is left is done here and a line is added to ``notes``.
    Put the longest steps first: the pool takes them in order.
    """
    global _WORK
    results: dict[int, R] = {}
    if jobs > 1 and len(items) > 1 and "fork" in multiprocessing.get_all_start_methods():
        _WORK = (step, state, pack)
        lifeline_r, lifeline_w = os.pipe()  # nothing is ever written: its end-of-file tells a worker the parent died
        # what the workers inherit, out of the collector's sight: a collection in a worker would
        # otherwise walk (and so copy, page by page) everything the parent holds
        gc.freeze()
        try:
            ctx = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=min(jobs, len(items)), mp_context=ctx, initializer=_die_with_parent,
                                     initargs=(os.getpid(), lifeline_r, lifeline_w)) as pool:
                futures = {pool.submit(_call, item): i for i, item in enumerate(items)}
                for fut in as_completed(futures):
                    i = futures[fut]
                    results[i] = fut.result()
                    if on_done is not None:
                        on_done(i, results[i])
        except BrokenProcessPool:
            if notes is not None:
                notes.append("a worker process died; what was left was done in this process")
        finally:
            _WORK = None
            os.close(lifeline_r)
            os.close(lifeline_w)
            gc.unfreeze()
    for i, item in enumerate(items):
        if i not in results:
            results[i] = step(state, item)
            if on_done is not None:
                on_done(i, results[i])
    return [results[i] for i in range(len(items))]
