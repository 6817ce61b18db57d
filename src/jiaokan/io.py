"""Writing outputs safely: never leave a half-written or invalid file behind.

Every file a jiaokan command writes goes through :func:`atomic_write_bytes` (or
:func:`copy_file`, which reads the source and writes through it).  The data go to a
temporary file beside the target, are optionally checked, and only then renamed into
place; on any failure the temporary file is removed and an
:class:`~jiaokan.errors.OutputError` names the *target* (never the temporary file, never a
bare "output").
"""

from __future__ import annotations

import itertools
import json
import os
import stat
from pathlib import Path
from typing import Any, Callable

from types import ModuleType

_orjson: ModuleType | None
try:  # orjson (a dependency) encodes 5-8x faster than json's C encoder; a venv made before it still runs
    import orjson as _orjson
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    _orjson = None

from .errors import OutputError

#: A check of the bytes about to be written: a list of problems (empty = fine).
Check = Callable[[bytes], list[str]]

#: Told ``(path, size)`` of every file once it is in place (None: nobody listens).  How ``jiaokan build``
#: learns the name of each file it writes, in this process or a forked worker, which inherits it
#: (:mod:`jiaokan.outputs`): the one place every output passes through.
_written: Callable[[Path, int], None] | None = None


def listen(hook: Callable[[Path, int], None] | None) -> Callable[[Path, int], None] | None:
    """Have ``hook`` told of every file written from now on (None: stop); returns the one it replaces."""
    global _written
    was, _written = _written, hook
    return was


class InvalidOutput(OutputError):
    """The content failed its check (a bug in jiaokan, or input it mishandles): this file
    is not written, but other outputs may still be (unlike a full disk).  ``str()`` is one
    line, ``TARGET: reason``; the target is left as it was."""


def _reason(exc: OSError) -> str:
    if isinstance(exc, (NotADirectoryError, FileExistsError)):
        return "a file is in the way where a directory is needed (choose another output path)"
    return f"cannot write: {exc.strerror or exc}"


#: the flags of a temporary output file: new (never an existing one), written, not inherited by a child
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
_serial = itertools.count()


def atomic_write_bytes(path: str | Path, data: bytes, check: Check | None = None) -> None:
    """Write ``data`` to a temporary file beside ``path``, check it, then rename it into place.

    Why: a crash, a full disk or a user's Ctrl-C halfway through must not leave a
    truncated file that a later step (or a scholar) would take for a real one; and a
    file that fails ``check`` (e.g. TEI invalid against the profile) must not appear at
    all.  Raises :class:`OutputError` naming ``path``; the temporary file is gone.

    No ``fsync``: the rename already makes every reader see the old file or the whole new
    one, never a part; what ``fsync`` adds is durability across a power cut, which outputs
    that the same command rebuilds do not need, and it cost a build 1.3–4.2 s of waiting on its
    300 files.  A full disk is still reported: local file systems refuse the ``write`` (the
    blocks are reserved then), network ones the ``close``.

    A regular file at ``path`` that already holds ``data`` is not replaced (:func:`_holds`): it is only
    given the time of modification a new one would have, which tools that compare times (and the build's
    stale-file sweep, :mod:`jiaokan.outputs`) read; ``check`` is asked all the same.
    """
    path = Path(path)
    if _holds(path, data):
        _refuse_invalid(path, data, check)  # (checked all the same: an invalid file is refused, whatever is there)
        if _touched(path):
            if _written is not None:
                _written(path, len(data))
            return
    # the temporary file's name is known before it exists, so an interrupt at any moment (even inside the call
    # that makes it) leaves nothing behind: ``tempfile.mkstemp`` named it only on return, and a Ctrl-C just then
    # left a ``.NAME.….tmp`` in the output (a flaky test showed it)
    tmp = ""
    made = False
    try:
        while True:  # a name of this process's own; O_EXCL: never another's file (a dead process's, same pid)
            tmp = os.path.join(path.parent, f".{path.name}.{os.getpid()}.{next(_serial)}.tmp")
            try:
                fd = os.open(tmp, _NEW, 0o666)  # the umask applies: an ordinary file, as any other output
                break
            except FileExistsError:
                continue
            except (FileNotFoundError, NotADirectoryError):
                # the folder made only when it is not there: asked before every file, it cost as much again as
                # the file (a build writes 643 into a dozen folders)
                if made:
                    raise
                tmp = ""
                _make_folder(path)
                made = True
        with os.fdopen(fd, "wb") as fh:  # a full disk says so at the write or the close (flush)
            fh.write(data)
        _refuse_invalid(path, data, check)
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            if tmp:
                os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, IsADirectoryError):
            raise OutputError(str(path), "is a directory (choose a file name)") from None
        if isinstance(exc, OSError):
            raise OutputError(str(path), _reason(exc)) from None
        raise
    if _written is not None:
        _written(path, len(data))


def _make_folder(path: Path) -> None:
    """Make the folder of ``path`` and those above it; an :class:`OutputError` naming what is in the way."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(str(exc.filename or path), _reason(exc)) from None


def _refuse_invalid(path: Path, data: bytes, check: Check | None) -> None:
    """Raise :class:`InvalidOutput` for ``path`` if ``check`` finds problems in ``data``."""
    if check is not None:
        problems = check(data)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise InvalidOutput(str(path), f"not written: the output would be invalid: {problems[0]}{more}")


def _holds(path: Path, data: bytes) -> bool:
    """Is ``path`` a regular file (not a link to one) that holds ``data`` and nothing else?

    Why: a build into the folder of an earlier one writes mostly the same files again, and
    replacing a file costs the file system far more than reading it (a new inode, the old one's
    blocks freed, and ext4 starts writing the new one out at a rename over an existing file): the
    book's 643 files took 0.08–0.13 s of CPU (0.16–0.98 s of wall) to replace, 0.015 s to read and
    compare.
    """
    try:
        fd = os.open(path, _READ)
    except OSError:  # none there (a first build), a link, unreadable …: written as ever
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size != len(data):  # a folder (which open() refuses), another
            os.close(fd)                                               # size: written as ever (a folder: its error)
            return False
    except OSError:
        os.close(fd)
        return False
    with open(fd, "rb", buffering=0) as fh:
        try:
            return fh.readall() == data
        except OSError:
            return False


def _touched(path: Path) -> bool:
    """Give the file at ``path`` (not a link's target) the current time of modification; False where it cannot
    be (then it is written anew, as ever)."""
    try:
        os.utime(path, follow_symlinks=False)
    except (OSError, NotImplementedError):
        return False
    return True


#: the flags of an earlier output read to compare: never through a symbolic link (which a write replaces),
#: and not waiting at a named pipe for a writer
_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)


def atomic_write_text(path: str | Path, text: str, check: Check | None = None) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), check)


def copy_file(src: str | Path, dest: str | Path) -> None:
    """Copy ``src`` to ``dest`` atomically (a source that cannot be read names ``src``)."""
    try:
        data = Path(src).read_bytes()
    except OSError as exc:
        raise OutputError(str(dest), f"cannot copy from {src}: {exc.strerror or exc}") from None
    atomic_write_bytes(dest, data)


def json_bytes(obj: Any) -> bytes:
    """``obj`` as compact UTF-8 JSON: the bytes ``json.dumps(obj, ensure_ascii=False,
    separators=(",", ":"))`` gives, made by orjson where it is installed (a float in exponent
    form aside, ``1.5e-7`` for ``1.5e-07``: jiaokan's files hold no floats).

    The one way jiaokan writes JSON files.  Compact because an ``indent`` sends the stdlib
    to its pure-Python encoder (a third of a whole-book build once); ``python -m json.tool``
    pretty-prints any of them.
    """
    if _orjson is not None:
        try:
            data: bytes = _orjson.dumps(obj, option=_orjson.OPT_NON_STR_KEYS)
            return data
        except TypeError:  # what orjson does not take (an integer beyond 64 bits …): the stdlib does
            pass
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def write_json(path: str | Path, obj: Any) -> None:
    """``obj`` as JSON (:func:`json_bytes`) to ``path``, atomically."""
    atomic_write_bytes(path, json_bytes(obj))
