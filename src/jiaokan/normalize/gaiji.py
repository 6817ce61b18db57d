"""Kanripo gaiji entities (``&KR0925;`` = 楣).

Why a table of our own: Kanripo writes glyphs it could not map to Unicode as entities,
and no machine-readable gaiji list comes with the texts; each code in
``data/gaiji_kanripo.tsv`` is resolved from the parallel passages of the other
witnesses and carries that evidence.  Unknown codes resolve to ``None`` so that readers
keep them as unresolved ``<g>`` rather than guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import tables

#: An entity as it appears in Mandoku text (``&KR0925;``); other projects' entities of the
#: same shape (``&CB00123;``) are recognised too, so that they count as one character.
ENTITY_RE = re.compile(r"&([A-Za-z][A-Za-z0-9_]*);")
_CODE_RE = re.compile(r"^&?([A-Za-z][A-Za-z0-9_]*);?$")


def normalize_code(code: str) -> str | None:
    """``"KR0925"``, ``"&KR0925;"`` → ``"KR0925"``; a string that is no entity name → ``None``."""
    m = _CODE_RE.match(code.strip())
    return m.group(1) if m else None


@dataclass(frozen=True)
class ParallelResolution:
    """A code the build resolved from the other witnesses (:mod:`jiaokan.collate.gaiji`), with its evidence."""

    code: str
    char: str
    places: int
    cert: str  # "high" | "medium"
    evidence: tuple[str, ...]
    witnesses: tuple[str, ...]


_parallel: dict[str, ParallelResolution] = {}


def set_parallel_resolutions(resolved: dict[str, ParallelResolution]) -> None:
    """Replace the resolutions learned from the witnesses (the build sets them once, before collating)."""
    _parallel.clear()
    _parallel.update(resolved)
    from .fold import forget_entities

    forget_entities()  # (an entity's key is what it stands for: the characters' keys stay)


def parallel_resolution(code: str) -> ParallelResolution | None:
    """How the build resolved ``code`` from the other witnesses, if it did (and the table does not know it)."""
    c = normalize_code(code)
    return _parallel.get(c) if c and tables.gaiji().get(c) is None else None


def resolve_gaiji(code: str) -> str | None:
    """The character a Kanripo gaiji code stands for, or ``None`` if unknown.

    Accepts the bare code (``KR0925``, as the readers pass it) or the entity (``&KR0925;``).
    """
    c = normalize_code(code)
    if c is None:
        return None
    entry = tables.gaiji().get(c)
    if entry is not None:
        return entry.char
    learned = _parallel.get(c)
    return learned.char if learned else None


def gaiji_evidence(code: str) -> str | None:
    """Why the table resolves ``code`` as it does (for charDecl notes and reports)."""
    c = normalize_code(code)
    entry = tables.gaiji().get(c) if c else None
    return entry.evidence if entry else None
