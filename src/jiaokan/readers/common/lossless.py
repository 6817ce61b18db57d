"""Losslessness: the Han characters of a source, in order, equal those of its witness.

Held code points (controls, private-use glyphs, kept as ``U-XXXX`` markers) count too.

"Source" means the file minus what the reader drops on purpose and names in its
docs (``Reader.consumed_markup``: page-marker lines, say).  Labels, notes and
paratext all count on the witness side; a gaiji counts as its entity, exactly
as the source holds it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...model import Witness, all_source_chars
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
    return "".join(counted_chars(all_source_chars(p.content)) for p in w.pieces())


def check_lossless(reader: Reader, src: SourceText, w: Witness) -> LosslessReport:
    a = counted_chars(reader.consumed_markup(src))
    b = witness_han(w)
    if a == b:
        return LosslessReport(len(a), len(b), None)
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    ctx = f"source …{a[max(0, i - 10):i + 10]}… vs witness …{b[max(0, i - 10):i + 10]}…"
    return LosslessReport(len(a), len(b), i, ctx)
