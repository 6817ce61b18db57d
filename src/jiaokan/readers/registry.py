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

import sys
from importlib.metadata import EntryPoint, entry_points
from typing import TypeVar

from .common.base import Reader

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
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        load_plugin(ep)
