"""Losslessness: the Han characters of a source, in order, equal those of its witness.

Held code points (controls, private-use glyphs, kept as ``U-XXXX`` markers) count too.

"Source" means the file minus what the reader drops on purpose and names in its
docs (``Reader.consumed_markup``: page-marker lines, say).  Labels, notes and
paratext all count on the witness side; a gaiji counts as its entity, exactly
as the source holds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

from ...model import ReaderWarning, Witness, all_source_chars
from .base import Reader, SourceText, counted_chars


@dataclass
class LosslessReport:
    source_chars: int
    witness_chars: int
    first_difference: int | None
    context: str = ""

    @property
    def ok(self) -> bool:
        return self.first_difference is None


def witness_han(w: Witness) -> str:
    """The counted characters of the whole witness, in order: its pieces' source characters joined,
    then filtered once (a counted character is one code point, so filtering the join is filtering
    each piece).  The nodes of all the pieces are read in one join (:func:`all_source_chars` of their
    chained contents), not one join and one call per piece."""
    return counted_chars(all_source_chars(chain.from_iterable(p.content for p in w.pieces())))


def check_lossless(reader: Reader, src: SourceText, w: Witness) -> LosslessReport:
    a = counted_chars(reader.consumed_markup(src))
    b = witness_han(w)
    if a == b:
        return LosslessReport(len(a), len(b), None)
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    ctx = f"source …{a[max(0, i - 10):i + 10]}… vs witness …{b[max(0, i - 10):i + 10]}…"
    return LosslessReport(len(a), len(b), i, ctx)


def source_line_of(src: SourceText, k: int) -> int:
    """The line of the source holding its ``k``-th counted character (the last line if past the end)."""
    seen = 0
    for n, line in enumerate(src.lines, 1):
        seen += len(counted_chars(line))
        if seen > k:
            return n
    return len(src.lines)


def lossless_warning(reader: Reader, src: SourceText, w: Witness) -> ReaderWarning | None:
    """A warning if the reader lost (or made up) source characters: the safety net under every read.

    Every reader is tested to keep every character; this says so at run time for the
    file in hand, rather than leaving a scholar with a silently shortened text.
    """
    rep = check_lossless(reader, src, w)
    if rep.ok:
        return None
    assert rep.first_difference is not None
    line = source_line_of(src, rep.first_difference)
    return ReaderWarning(src.path, line, "lost-text",
                         f"the reader kept {rep.witness_chars} of the {rep.source_chars} characters of the source "
                         f"(first difference: {rep.context}); please report it with this file")
