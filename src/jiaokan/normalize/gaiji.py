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


@dataclass(frozen=True)
class ParallelReadings:
    """A code the build could not resolve though other witnesses have text where it stands: what they read there
    (:mod:`jiaokan.collate.gaiji`), shown beside the unknown character and never put in its place.

    Why keep it: "〓, no mapping" says less than the witnesses do.  A scholar reading 設決麗于〓 wants to know that the
    四部丛刊 reads 掔 there, at seven of eight places (繫 at the eighth), and decide; the build must not decide for
    them where the witnesses disagree or speak once."""

    code: str
    status: str  # "one place" | "conflict" (:attr:`jiaokan.collate.gaiji.Finding.status`)
    readings: tuple[tuple[str, int], ...]  # character, places; most first
    witnesses: tuple[str, ...]
    evidence: tuple[str, ...]

    def said(self) -> str:
        """What the other witnesses read where the code stands, over the whole book, in a line of the page's
        language (a tooltip).  Over the book, not at this place: the counts are the code's (a reader's trial
        read 「他本同处作：腴 6 处」 on a 篇 where it stands once); no sigla, since a witness that holds the code
        at one place may read a character at another."""
        places = "、".join(f"{c} {n} 处" for c, n in self.readings)
        why = "诸本不一" if self.status == "conflict" else "仅一处可比"
        return f"全书此码所在之处，他本对应作：{places}（{why}，未定）"


_parallel: dict[str, ParallelResolution] = {}
_unsettled: dict[str, ParallelReadings] = {}


def set_parallel_resolutions(resolved: dict[str, ParallelResolution],
                             unsettled: dict[str, ParallelReadings] | None = None) -> None:
    """Replace the resolutions learned from the witnesses, and what they read where a code stays unresolved
    (the build sets them once, before collating)."""
    _parallel.clear()
    _parallel.update(resolved)
    _unsettled.clear()
    _unsettled.update(unsettled or {})
    from .fold import forget_entities

    forget_entities()  # (an entity's key is what it stands for: the characters' keys stay)


def parallel_resolution(code: str) -> ParallelResolution | None:
    """How the build resolved ``code`` from the other witnesses, if it did (and the table does not know it)."""
    c = normalize_code(code)
    return _parallel.get(c) if c and tables.gaiji().get(c) is None else None


def parallel_readings(code: str) -> ParallelReadings | None:
    """What the other witnesses read where ``code`` stands, when the build could not resolve it from them."""
    c = normalize_code(code)
    return _unsettled.get(c) if c and tables.gaiji().get(c) is None else None


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
