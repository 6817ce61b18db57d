"""The 案 grammar's compiled ``regex`` patterns, kept on disk between processes (as Python keeps bytecode).

Why: the ``regex`` module parses a pattern in pure Python (an ``enum`` flag operation per literal
character), and the note grammar (:data:`jiaokan.emend.notes.GRAMMAR`: 59 patterns, 60,000
characters once the witness and source names are spelled out) took 0.3–0.4 s of CPU to compile in
every process that imports :mod:`jiaokan.emend.notes` — every build, before its first stage, since the
TEI writer imports it; the stdlib ``re`` compiles the same patterns no faster, and calling shared
sub-patterns instead of repeating them (``(?&NAME)``) saved half of that but slowed the matching.  A
compiled ``regex`` pattern pickles as the parsed code that regex's C compiler takes (regex's own
``copyreg`` reduction, ``regex._regex.compile(*data)``): loading all of them takes ~15 ms.

The cache is only ever a copy: its file is named by a hash of the patterns, their flags, the
``regex`` version and its engine's ``MAGIC``, so an edited grammar or another ``regex`` makes (and
writes) a new one; a file that cannot be read, or that holds anything but these patterns, is
ignored and the patterns are compiled as before; a cache directory that cannot be written only
costs the compile; the :data:`KEEP` newest versions of a set of patterns are kept.  Unpickling admits one callable, ``regex._regex.compile``: no other code a
file could name is run.  The directory is ``$JIAOKAN_CACHE`` (empty: no cache), else
``$XDG_CACHE_HOME/jiaokan``, else ``~/.cache/jiaokan``.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import sys
from pathlib import Path
from typing import Any, Mapping

import regex

from ..cache import cache_dir

__all__ = ["cache_dir", "compile_patterns"]

#: How many versions of one set of patterns are kept (each ~330 KB for the 案 grammar).
KEEP = 8

#: the one global a cache file may name: regex's C compiler (what a pickled pattern is made by)
_ALLOWED = ("regex._regex", "compile")


class _PatternsOnly(pickle.Unpickler):
    """An unpickler that makes regex patterns and plain data, and refuses any other callable."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == _ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a pattern cache")


def _key(patterns: Mapping[str, str], flags: int) -> str:
    h = hashlib.sha256()
    engine = (regex.__version__, getattr(regex._regex, "MAGIC", ""), sys.version_info[:2], int(flags))
    h.update(repr(engine).encode())
    for name, source in sorted(patterns.items()):
        h.update(f"\0{name}\0{source}".encode())
    return h.hexdigest()[:24]


def _load(path: Path, patterns: Mapping[str, str], flags: int) -> dict[str, regex.Pattern] | None:
    try:
        got = _PatternsOnly(io.BytesIO(path.read_bytes())).load()
    except Exception:  # a missing, truncated or foreign file: compile instead
        return None
    if not isinstance(got, dict) or got.keys() != patterns.keys():
        return None
    for name, p in got.items():
        if not isinstance(p, regex.Pattern) or p.pattern != patterns[name] or (p.flags & flags) != flags:
            return None
    return {name: got[name] for name in patterns}


def _store(folder: Path, path: Path, tag: str, compiled: dict[str, regex.Pattern]) -> None:
    from ..errors import OutputError
    from ..io import atomic_write_bytes

    try:
        atomic_write_bytes(path, pickle.dumps(compiled, protocol=pickle.HIGHEST_PROTOCOL))
        # the same patterns as other checkouts or earlier edits have them: the newest few are kept (two
        # checkouts used in turn must not each compile again), the rest removed
        made = sorted(folder.glob(f"{tag}-*.pickle"), key=lambda f: f.stat().st_mtime, reverse=True)
        for old in made[KEEP:]:
            old.unlink(missing_ok=True)
    except (OutputError, OSError):  # a read-only home, a full disk: the next process compiles again
        pass


def compile_patterns(patterns: Mapping[str, str], flags: int, tag: str) -> dict[str, regex.Pattern]:
    """``{name: regex.compile(source, flags)}``, loaded from the cache when it holds exactly these
    (``tag`` names the cache file: one per set of patterns), else compiled and written there."""
    folder = cache_dir()
    path = folder / f"{tag}-{_key(patterns, flags)}.pickle" if folder is not None else None
    if path is not None:
        got = _load(path, patterns, flags)
        if got is not None:
            return got
    compiled = {name: regex.compile(source, flags) for name, source in patterns.items()}
    if folder is not None and path is not None:
        _store(folder, path, tag, compiled)
    return compiled
