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

import collections
import gc
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, TypeVar

if TYPE_CHECKING:  # imported where a pool is started (fork_map, _fork_context): a build with one job never needs them
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = ["fork_map"]

#: steps handed to each worker at a time (see _share)
QUEUED = 2

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


def _release_freed_memory() -> None:
    """Give the memory this process has freed back to the system before forking (glibc's ``malloc_trim``).

    Why: the stages before free much of what they made (a collation's row texts and segments, the
    readers' scratch), but the allocator keeps those pages, resident; a forked worker maps them too,
    and the build's memory, summed over its processes, counted them once per process (17 MB before
    the render stage, so 34 MB at ``-j 2``).  Two milliseconds; where there is no glibc, nothing.
    """
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):  # pragma: no cover - not glibc (musl, macOS): nothing to give back this way
        pass


#: how much a worker's result pipe holds (Linux' ``F_SETPIPE_SZ``; 1 MiB is what an unprivileged process may ask)
RESULT_PIPE_BYTES = 1 << 20


def _widen_result_pipe(pool: ProcessPoolExecutor) -> None:
    """Let the pipe that carries the workers' results hold a megabyte, not the 64 KiB Linux gives a pipe.

    Why: a worker's result (a witness read, a collation; up to a megabyte pickled) is written into the
    pipe whole, and the worker waits until this process has read it; this process reads it in a thread
    that, after each pipe's worth, waits for the interpreter lock while this process works on a step of
    its own (up to the 5 ms switch interval each time).  With 64 KiB that was a wait per 64 KiB: the
    worker stood blocked for a tenth of the ingest stage (and of the 12 MB the build's workers send back
    in all, about half a second); with a megabyte, a wait or two per result.  The pipe is the pool's
    own (``_result_queue``, not public), so where it is not there, or the system refuses the size (not
    Linux, a lower ``/proc/sys/fs/pipe-max-size``), nothing changes but the time.
    """
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is None or not hasattr(writer, "fileno"):  # pragma: no cover - another Python's pool
        return
    try:
        import fcntl

        fcntl.fcntl(writer.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), RESULT_PIPE_BYTES)
    except (ImportError, OSError, ValueError):  # pragma: no cover - not Linux, or a lower pipe-max-size
        pass


def _call(item: Any) -> Any:
    assert _WORK is not None, "fork_map's worker started without its work"
    step, state, pack = _WORK
    result = step(state, item)
    return pack(result) if pack is not None else result


def fork_map(step: Callable[[Any, T], R], state: Any, items: Sequence[T], jobs: int, *,
             on_done: Callable[[int, R], None] | None = None, pack: Callable[[R], R] | None = None,
             notes: list[str] | None = None, meanwhile: Callable[[], None] | None = None,
             after: Mapping[int, Sequence[int]] | None = None,
             bind: Callable[[T, list[R]], T] | None = None) -> list[R]:
    """``[step(state, item) for item in items]``, with up to ``jobs`` of them at once: here and in
    ``jobs - 1`` forked processes.

    ``state`` is shared, not copied (the workers inherit it); ``item`` and a worker's result travel
    pickled, and ``pack`` lightens a worker's result for the trip (drop what the parent already
    holds; a step done here is not packed, as with one job).  ``on_done(index, result)`` is called
    here as each step finishes (a progress bar).  Results come back in the order of ``items``
    whatever order they finish in.  A step must return its errors rather than raise them.  If a
    worker dies (out of memory, killed), what is left is done here and a line is added to ``notes``.
    Put the longest steps first: the steps are taken in order.

    ``meanwhile()``: work of this process's own that the steps do not need (a later stage's set-up),
    done here once the workers have started on the steps and before this process takes any: the
    workers take more of the steps meanwhile, so it costs the map's wall time a share of its own
    (with one job, or no fork, it is simply done first).  The workers forked here do not have what
    it makes; those of a later ``fork_map`` inherit it.

    ``after``: step ``i`` waits for the steps ``after[i]`` (each earlier in ``items``) to finish, and
    ``bind(items[i], their results)`` (in the order of ``after[i]``; a worker's as ``pack`` left them)
    is the item it is given instead: a step that needs what an earlier step made, in the same map
    (the 经注 pages of the site need the rows of their 疏 pages).  Until then the steps after it are taken, in order; a process
    with none ready waits.  Why not two maps, one after the other: each forks the whole build again
    (its pages copied anew as the parent and the workers touch them), and the processes stand idle
    while the first map's last step finishes.

    Why this process works too, rather than wait for ``jobs`` workers: every forked worker starts
    with the parent's pages (the whole build: witnesses, collations), so each process more counts
    the build's memory once more; the parent waiting idle was one copy for nothing.
    """
    global _WORK
    results: dict[int, R] = {}
    workers = min(jobs, len(items)) - 1
    if any(not 0 <= j < i for i, js in (after or {}).items() for j in js):
        raise ValueError("fork_map: a step can only wait for a step before it")
    ctx = _fork_context() if workers >= 1 else None
    if ctx is not None:
        from concurrent.futures import ProcessPoolExecutor

        _WORK = (step, state, pack)
        lifeline_r, lifeline_w = os.pipe()  # nothing is ever written: its end-of-file tells a worker the parent died
        # what the workers inherit, out of the collector's sight: a collection in a worker would
        # otherwise walk (and so copy, page by page) everything the parent holds
        gc.freeze()
        _release_freed_memory()
        try:
            with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_die_with_parent,
                                     initargs=(os.getpid(), lifeline_r, lifeline_w)) as pool:
                _widen_result_pipe(pool)  # before the first submit forks the workers
                if not _share(pool, workers, step, state, items, results, on_done, meanwhile, after or {},
                              bind) and notes is not None:
                    notes.append("a worker process died; what was left was done in this process")
        finally:
            _WORK = None
            os.close(lifeline_r)
            os.close(lifeline_w)
            gc.unfreeze()
    elif meanwhile is not None:
        meanwhile()
    for i, item in enumerate(items):
        if i not in results:
            results[i] = step(state, _bound(i, items, results, after, bind))
            if on_done is not None:
                on_done(i, results[i])
    return [results[i] for i in range(len(items))]


def _fork_context() -> Any:
    """The ``fork`` start method's context, or None where there is none (Windows, and macOS' default).

    Why imported here, not at the top: ``multiprocessing`` and ``concurrent.futures`` (with the
    ``logging``, ``pickle`` and ``queue`` they import) are ~10 ms of start-up that a build with
    one job (every step done here) never uses."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    return multiprocessing.get_context("fork")


def _bound(i: int, items: Sequence[T], done: Mapping[int, R], after: Mapping[int, Sequence[int]] | None,
           bind: Callable[[T, list[R]], T] | None) -> T:
    """Step ``i``'s item, given the results of the steps it waits for (``fork_map``'s ``after``)."""
    needs = after.get(i, ()) if after else ()
    if not needs or bind is None:
        return items[i]
    return bind(items[i], [done[j] for j in needs])


def _share(pool: ProcessPoolExecutor, workers: int, step: Callable[[Any, T], R], state: Any, items: Sequence[T],
           results: dict[int, R], on_done: Callable[[int, R], None] | None,
           meanwhile: Callable[[], None] | None = None, after: Mapping[int, Sequence[int]] | None = None,
           bind: Callable[[T, list[R]], T] | None = None) -> bool:
    """Take the steps in order, each by the first that is free: this process or one of the pool's
    workers (a thread here hands each worker its next step and waits for it); a step that waits for
    others (``after``) is passed over until they are done.  False if a worker died (its step, and any
    left, are not in ``results``)."""
    after = after or {}
    ready = threading.Condition()
    left = list(range(len(items)))  # not taken yet, in order
    done: dict[int, R] = {}  # every finished step's result, for the steps that wait for it
    failed: list[BaseException] = []
    broken = threading.Event()

    def stop() -> bool:
        return broken.is_set() or bool(failed)

    def take(wait: bool = True) -> tuple[int, T] | None:
        """The first step not taken whose steps before are done, and its item; None when none is left (or
        none is ready and ``wait`` is false, or the map is stopping)."""
        with ready:
            while left and not stop():
                k = next((k for k, i in enumerate(left) if all(j in done for j in after.get(i, ()))), None)
                if k is not None:
                    i = left.pop(k)
                    return i, _bound(i, items, done, after, bind)
                if not wait:
                    return None
                ready.wait()
            return None

    def finish(i: int, r: R) -> None:
        with ready:
            done[i] = r
            ready.notify_all()

    import queue
    from concurrent.futures.process import BrokenProcessPool

    finished: queue.SimpleQueue[tuple[int, R]] = queue.SimpleQueue()

    def feed(queued: collections.deque[tuple[int, Future]]) -> None:
        try:
            while queued:
                i, fut = queued.popleft()
                r = fut.result()
                finished.put((i, r))
                finish(i, r)
                # with a step already queued for this worker, it need not wait here for one to be ready
                nxt = take(wait=not queued)
                if nxt is not None:
                    queued.append((nxt[0], pool.submit(_call, nxt[1])))
        except BrokenProcessPool:
            broken.set()
        except BaseException as exc:  # a step that raised: raised here too, as with one job
            failed.append(exc)
        finally:
            with ready:  # whoever waits for a step of this worker's must not wait for ever
                ready.notify_all()

    def report() -> None:
        while not finished.empty():
            j, r = finished.get()
            results[j] = r
            if on_done is not None:
                on_done(j, r)

    # every worker's first steps are submitted from here, before this process starts on its own: the pool
    # forks its workers at the first submit, and a fork must not happen while this thread is mid-step.
    # Each worker has QUEUED steps handed to it at a time: the next is waiting when it finishes one, rather
    # than after its result has reached this process (read by the pool's thread here, which waits for the
    # interpreter lock while this process works on a step of its own) and a thread here has handed it another
    firsts = [collections.deque((n[0], pool.submit(_call, n[1]))
                                for n in (take(wait=False) for _ in range(QUEUED)) if n is not None)
              for _ in range(workers)]
    feeders = [threading.Thread(target=feed, args=(first,), name="jiaokan-feed", daemon=True)
               for first in firsts if first]
    for t in feeders:
        t.start()
    if meanwhile is not None:
        try:
            meanwhile()
        except BaseException as exc:  # raised once the workers are done with what they hold, as a step's would be
            failed.append(exc)
    while (n := take()) is not None:
        i, item = n
        try:
            r = step(state, item)
        except BaseException as exc:  # raised once the workers are done, and none of them waits for it meanwhile
            failed.append(exc)
            with ready:
                ready.notify_all()
            break
        results[i] = r
        finish(i, r)
        if on_done is not None:
            on_done(i, r)
        report()
    for t in feeders:
        t.join()
    report()
    if failed:
        raise failed[0]
    return not broken.is_set()
