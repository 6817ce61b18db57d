"""The reader registry: every witness format, by name.

A format module registers its reader with the :func:`register` class decorator,
so adding a format is adding one module; a name can be taken only once (two
readers answering to one name would make ``--format`` and the TEI's recorded
format ambiguous).  Another package adds a format without touching jiaokan by
declaring an entry point in the ``jiaokan.readers`` group that names a
:class:`~jiaokan.readers.common.base.Reader` subclass::

    [project.entry-points."jiaokan.readers"]
    my-format = "my_package.reader:MyReader"

A plugin that fails to load or takes a taken name is reported (one line on
standard error, and in :data:`PLUGIN_ERRORS`) and skipped: one broken plugin
must not stop the toolkit.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, TypeVar

from .common.base import Reader

if TYPE_CHECKING:  # imported where a plugin may be declared (load_plugins): see _may_declare
    from importlib.metadata import EntryPoint

#: name → reader instance, for every registered format
READERS: dict[str, Reader] = {}

#: what went wrong loading plugins, one line each
PLUGIN_ERRORS: list[str] = []

ENTRY_POINT_GROUP = "jiaokan.readers"

R = TypeVar("R", bound=type[Reader])


class DuplicateReaderError(ValueError):
    """Two readers claim one format name."""


def register(cls: R) -> R:
    """Class decorator: register one instance of a :class:`Reader` subclass under its ``name``."""
    reader = cls()
    if not reader.name:
        raise DuplicateReaderError(f"{cls.__module__}.{cls.__qualname__} has no format name")
    taken = READERS.get(reader.name)
    if taken is not None and type(taken) is not cls:
        raise DuplicateReaderError(
            f"format name '{reader.name}' of {cls.__module__}.{cls.__qualname__} is already taken by "
            f"{type(taken).__module__}.{type(taken).__qualname__}")
    READERS[reader.name] = reader
    return cls


def load_plugin(ep: EntryPoint) -> None:
    """Register the reader an entry point names; report (never raise) what goes wrong."""
    try:
        cls = ep.load()
        if not (isinstance(cls, type) and issubclass(cls, Reader)):
            raise TypeError(f"{ep.value} is not a jiaokan.readers.Reader subclass")
        register(cls)
    except Exception as exc:  # a third party's code: anything can happen, and none of it may stop jiaokan
        msg = f"reader plugin '{ep.name}' ({ep.value}) skipped: {exc}"
        PLUGIN_ERRORS.append(msg)
        sys.stderr.write(f"jiaokan: warning: {msg}\n")


def load_plugins() -> None:
    """Register every reader declared in the ``jiaokan.readers`` entry-point group."""
    if not _may_declare(ENTRY_POINT_GROUP):
        return
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        load_plugin(ep)


def _may_declare(group: str) -> bool:
    """Whether an installed distribution may declare entry points in ``group``: False only when every
    folder on ``sys.path`` was looked in and no distribution's ``entry_points.txt`` there names it.

    Why: :mod:`importlib.metadata` (with the ``email``, ``zipfile`` and ``csv`` it imports) was a tenth
    of the command's start-up, 25 ms, paid by every command and by each build before its first step,
    to learn what is nearly always nothing.  The folders are what its finder searches (``*.dist-info``
    and ``*.egg-info``); a path entry that is no folder (a zip) or a finder of distributions other than
    the standard one is something this look cannot see into, and then importlib.metadata is asked.
    """
    import importlib.machinery

    if any(f is not importlib.machinery.PathFinder and hasattr(f, "find_distributions") for f in sys.meta_path):
        return True
    for entry in sys.path:
        root = entry or "."
        try:
            with os.scandir(root) as found:
                infos = [d.path for d in found if d.name.lower().endswith((".dist-info", ".egg-info"))]
        except (FileNotFoundError, PermissionError):
            continue  # nothing there for importlib.metadata either
        except OSError:
            return True  # a zip, or something else this look cannot read: importlib.metadata can
        for info in infos:
            try:
                with open(os.path.join(info, "entry_points.txt"), encoding="utf-8", errors="replace") as f:
                    if group in f.read():
                        return True
            except (FileNotFoundError, NotADirectoryError):
                continue  # no entry points, or a one-file egg-info (which holds none)
            except OSError:
                return True
    return False
