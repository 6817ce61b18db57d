"""Terminal output: a progress bar for long work and plain tables for summaries."""

from __future__ import annotations

import os
import sys
import time
import unicodedata
from typing import IO, Sequence

from .errors import printable


def display_width(s: str) -> int:
    """Columns a string takes in a terminal (CJK characters take two)."""
    if s.isascii():  # most of a table's cells (numbers, sigla, times): one column a character
        return len(s)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def pad(s: str, width: int, right: bool = False, own: int | None = None) -> str:
    """``s`` padded to ``width`` columns; ``own``: its own width, when the caller has it already."""
    gap = max(0, width - (display_width(s) if own is None else own))
    return (" " * gap + s) if right else (s + " " * gap)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], numeric: set[int] | None = None) -> str:
    """A plain-text table, CJK-aware; columns in ``numeric`` are right-aligned."""
    numeric = numeric or set()
    cells = [[str(c) for c in headers]] + [[str(c) for c in r] for r in rows]
    own = [[display_width(c) for c in r] for r in cells]  # once a cell: for the column widths and the padding
    widths = [max(w[i] for w in own) for i in range(len(headers))]
    lines = []
    for k, (r, w) in enumerate(zip(cells, own)):
        lines.append("  ".join(pad(c, widths[i], i in numeric, w[i]) for i, c in enumerate(r)).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


class Progress:
    """A one-line progress bar on a terminal; one line per step otherwise (logs, CI)."""

    def __init__(self, total: int, label: str = "", stream: IO[str] | None = None, quiet: bool = False) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.done = 0
        self.start = time.perf_counter()
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def step(self, what: str) -> None:
        self.done += 1
        if self.quiet:
            return
        if self.tty:
            frac = self.done / self.total
            bar = "█" * int(frac * 24) + "·" * (24 - int(frac * 24))
            self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {what[:40]:<40}")
            if self.done >= self.total:
                self.stream.write("\n")
        else:
            self.stream.write(f"{self.label} [{self.done}/{self.total}] {what}\n")
        self.stream.flush()

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def counted(n: int, one: str, many: str | None = None) -> str:
    """``1 collation``, ``2 collations``: a count and its noun, singular for one (``many``: the plural where it is
    not ``one`` + "s"; a noun that does not change, such as 案 notes, needs no call)."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def internal_error(where: str, exc: Exception) -> str:
    """One line for an unexpected exception while handling one file, so the others still get done.

    Set ``JIAOKAN_TRACEBACK=1`` to get the traceback instead (for a bug report).
    """
    if os.environ.get("JIAOKAN_TRACEBACK"):
        raise exc
    detail = " ".join(str(exc).split())[:200]
    return printable(f"{where}: internal error ({type(exc).__name__}: {detail}); please report it with this file")


def colour_wanted(choice: str, stream: IO[str]) -> bool:
    """Whether to colour output: ``always``/``never`` as asked; ``auto`` on a terminal unless ``NO_COLOR``.

    Why: https://no-color.org — a non-empty ``NO_COLOR`` turns colour off by default, and an
    explicit command-line choice still wins over it.
    """
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return hasattr(stream, "isatty") and stream.isatty()
