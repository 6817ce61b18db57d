"""Reader for the flattened 集释 (``004``: 卷五 鄉射禮, traditional, Kanripo-derived).

The transcription kept the printed lines but lost the indentation and the
page breaks, so layers come from the 四库 page layout (see :mod:`.jishi`):
21 columns for 经, 20 for indented commentary, double-column small text half
a column per character.  ``&KR0925;`` is a Kanripo gaiji (楣).

Dropped on purpose: nothing.
"""

from __future__ import annotations

import re

from ...model import Witness, WitnessMeta
from ..common.base import Reader, SourceText, WitnessBuilder
from ..registry import register
from ..layouts.jishi import JishiLayerer, PhysLine


@register
class JishiFlatReader(Reader):
    name = "jishi-flat"
    role = "jishi"
    author = "李如圭"
    description = "集释 without indentation (004): layers recovered from the 21/20-column 四库 page layout"

    def sniff(self, src: SourceText) -> float:
        head = src.lines[:400]
        if any("¶" in ln or ln.startswith("<pb:") or ln.startswith("#+") for ln in head):
            return 0.0
        notes = sum(1 for ln in head if re.match(r"^(鄭注|郑注)", ln))
        spaced = sum(1 for ln in head if re.match(r"^[ \u3000](鄭注|郑注)", ln))
        return 0.9 if notes >= 3 and spaced == 0 else 0.0

    def expected(self) -> str:
        return "lines of 经 and lines starting with '鄭注' with no indentation and no page markers"

    def parse(self, src: SourceText, meta: WitnessMeta) -> Witness:
        b = WitnessBuilder(meta, src, self.gaiji_table())
        b.div("chapter", meta.juan or None, meta.chapter or None)
        lines = [PhysLine(n=i, body=ln.strip(), indent=None) for i, ln in enumerate(src.lines, 1) if ln.strip()]
        JishiLayerer(b, lines).run()
        return b.finish()
