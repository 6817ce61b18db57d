"""What ``jiaokan build`` wrote into its output folder, so that the next build there removes what it no longer writes.

Why: a file that fails to read (or a 篇 that fails to collate) used to leave in place what an earlier
build had made from it, which the site no longer links: a stale apparatus that a scholar could take for
the current one.  So a build keeps a record, ``OUT/.jiaokan-build.json`` (each file it wrote, relative
to OUT, with its size), and the next build into OUT removes the files the record names that it did not
write itself.  Never any other file: a file of the user's in OUT stays whatever its name, and so does a
file of the record changed since it was written (another size, or a later time than the record's own).

How the build knows its files: every output passes through :func:`jiaokan.io.atomic_write_bytes`, which
tells :class:`Recorder` each one (:func:`jiaokan.io.listen`); the recorder appends a line per file to
``OUT/.jiaokan-build.journal``, in whichever process wrote it (``--jobs`` workers are forked and
inherit the listener; a line is one ``O_APPEND`` write, so the processes' lines do not mix).

When the build ends (with errors in its input or not) :meth:`Recorder.finish` removes the stale files,
writes the record and deletes the journal.  A build that stops short (a full disk, Ctrl-C, ``kill -9``)
removes nothing and leaves its journal: the next build counts those files as an earlier build's too.
A folder with no record (a first build, or one made before builds kept it) has nothing removed; the
files there that look like a build's and that this build did not write are listed.

The record holds no times, so two builds that write the same files write the same record (``diff -r``
of two builds stays quiet).
"""

from __future__ import annotations

import json
import os
import stat
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from .errors import OutputError, printable
from .io import atomic_write_bytes, json_bytes, listen

RECORD = ".jiaokan-build.json"
JOURNAL = ".jiaokan-build.journal"

#: The folders ``jiaokan build`` writes into (with its two tables at the top of OUT): where files that
#: look like a build's are looked for when there is no record.
FOLDERS = ("tei", "apparatus", "emend", "site", "shiwu", "shu")


@dataclass
class Cleanup:
    """What :meth:`Recorder.finish` did with the files an earlier build wrote and this one did not."""

    out: Path
    removed: list[str] = field(default_factory=list)
    #: an earlier build's, changed since (another size, or later than its record): kept, and no longer recorded
    changed: list[str] = field(default_factory=list)
    #: no record in OUT: files in the build's folders that this build did not write (nothing is removed)
    unrecorded: list[str] = field(default_factory=list)

    def lines(self, verbose: bool = False) -> list[str]:
        """The summary's lines: one per kind of file, and with ``verbose`` each file on a line of its own."""
        out: list[str] = []

        def say(line: str, names: list[str]) -> None:
            out.append(line + ("" if verbose else "; -v lists them"))
            if verbose:
                out.extend(f"  {printable(n)}" for n in names)

        if self.removed:
            say(f"removed {_n(self.removed)} that an earlier build wrote in {self.out} and this one did not "
                "(stale)", self.removed)
        if self.changed:
            say(f"kept {_n(self.changed)} that an earlier build wrote in {self.out} and this one did not: changed "
                "since (remove them if they are not yours)", self.changed)
        if self.unrecorded:
            say(f"{_n(self.unrecorded)} in {self.out} that this build did not write may be an older build's (no "
                "record there of what it wrote): none removed; remove them if they are (from now on a build "
                "removes what it no longer writes)", self.unrecorded)
        return out


def _n(names: list[str]) -> str:
    return f"{len(names)} file{'s' if len(names) != 1 else ''}"


class Recorder:
    """The files one build writes into ``out``, and those the builds before it wrote (their record and
    the journal of any that stopped short)."""

    def __init__(self, out: Path) -> None:
        self.out = Path(out)
        self._root = os.path.abspath(self.out) + os.sep
        self._journal = self.out / JOURNAL
        self._fd: int | None = None  # the journal, opened at the first file (OUT may not exist before)
        self._was: Callable[[Path, int], None] | None = None
        self._listening = False
        #: rel → (size, the time it was written by at the latest): what earlier builds wrote
        self.earlier: dict[str, tuple[int, int]] = {}
        self.recorded = False  # a record or a journal was found
        self._offset = 0  # this build's lines of the journal start here (after those of one that stopped short)
        for name in (RECORD, JOURNAL):
            try:
                path = self.out / name
                st = path.stat()
                data = path.read_bytes()
            except OSError:  # none (or OUT is no folder: the build says so when it makes it)
                continue
            files = _parse_record(data) if name == RECORD else _parse_journal(data)
            if files is None:  # not a record jiaokan wrote: as if there were none
                continue
            self.recorded = True
            self.earlier.update((rel, (size, st.st_mtime_ns)) for rel, size in files.items())
            if name == JOURNAL:
                self._offset = len(data)

    def start(self) -> None:
        self._was = listen(self._heard)
        self._listening = True

    def _heard(self, path: Path, size: int) -> None:
        full = os.path.abspath(path)
        if not full.startswith(self._root):
            return  # not in OUT (the 案 grammar's cache …)
        rel = Path(full[len(self._root):]).as_posix()
        line = json.dumps([rel, size], ensure_ascii=False).encode("utf-8") + b"\n"
        try:
            if self._fd is None:  # in a worker that forked before the first file, its own (appending) descriptor
                self._fd = os.open(self._journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o666)
            os.write(self._fd, line)
        except OSError as exc:
            raise OutputError(str(self._journal), f"cannot write: {exc.strerror or exc}") from None

    def written(self) -> dict[str, int]:
        """rel → size of every file this build has written so far (in any of its processes)."""
        try:
            with open(self._journal, "rb") as fh:
                fh.seek(self._offset)
                data = fh.read()
        except FileNotFoundError:
            return {}
        return _parse_journal(data) or {}

    def stop(self) -> None:
        """Listen no more (the journal stays: a build that stopped short leaves it for the next)."""
        if self._listening:
            listen(self._was)
            self._listening = False
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def finish(self) -> Cleanup:
        """The build is done: remove the files an earlier build wrote and this one did not (unless changed
        since), write the record of this build's files and delete the journal."""
        self.stop()
        mine = self.written()
        done = Cleanup(self.out)
        for rel in sorted(self.earlier.keys() - mine.keys()):
            size, by = self.earlier[rel]
            path = self.out / rel
            try:
                st = path.lstat()
            except OSError:
                continue  # gone already
            if not stat.S_ISREG(st.st_mode) or st.st_size != size or st.st_mtime_ns > by:
                done.changed.append(rel)
                continue
            try:
                path.unlink()
            except OSError as exc:
                raise OutputError(str(path), f"cannot remove this stale file: {exc.strerror or exc}") from None
            done.removed.append(rel)
            _prune(path.parent, self.out)
        if not self.recorded:
            done.unrecorded = _look_alike(self.out, mine)
        record = {"what": "the files `jiaokan build` wrote in this folder (with their sizes): the next build "
                          "here removes those it does not write again, unless they were changed since",
                  "files": dict(sorted(mine.items()))}
        atomic_write_bytes(self.out / RECORD, json_bytes(record) + b"\n")
        try:
            self._journal.unlink()
        except FileNotFoundError:
            pass
        return done


@contextmanager
def recording(out: Path) -> Iterator[Recorder]:
    """A :class:`Recorder` listening for the duration; the caller calls ``finish()`` when the build is done."""
    rec = Recorder(out)
    rec.start()
    try:
        yield rec
    finally:
        rec.stop()


def _parse_record(data: bytes) -> dict[str, int] | None:
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(files, dict):
        return None
    return {k: v for k, v in files.items() if _safe(k) and isinstance(v, int)}


def _parse_journal(data: bytes) -> dict[str, int] | None:
    """rel → size of a journal's lines (a later line for the same file wins; a torn last line is skipped)."""
    out: dict[str, int] = {}
    for line in data.splitlines():
        try:
            rel, size = json.loads(line)
        except (ValueError, TypeError):  # torn, or not a pair: not a line the recorder wrote
            continue
        if isinstance(rel, str) and _safe(rel) and isinstance(size, int):
            out[rel] = size
    return out


def _safe(rel: str) -> bool:
    """A path inside OUT: a record edited to name ``../x`` or ``/x`` removes nothing outside it."""
    parts = rel.split("/")
    return bool(rel) and not rel.startswith("/") and ".." not in parts and "" not in parts and "\\" not in rel


def _prune(folder: Path, out: Path) -> None:
    """Remove ``folder`` and the folders above it, up to ``out``, while they are empty."""
    while folder != out and out in folder.parents:
        try:
            folder.rmdir()
        except OSError:  # not empty (or not ours to remove)
            return
        folder = folder.parent


def _look_alike(out: Path, mine: dict[str, int]) -> list[str]:
    """Files in the folders a build writes into that this build did not write (with no record to tell)."""
    tops = set(FOLDERS) | {rel.split("/", 1)[0] for rel in mine if "/" in rel}
    found = []
    for top in sorted(tops):
        for folder, _, names in os.walk(out / top):
            for name in names:
                rel = (Path(folder) / name).relative_to(out).as_posix()
                if rel not in mine:
                    found.append(rel)
    return sorted(found)
