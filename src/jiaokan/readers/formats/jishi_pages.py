"""Reader for the 集释 page export (``001``: 卷十 大射仪, simplified).

The export keeps the printed lines and marks indentation with one leading
space; each page starts with a marker line ``卷十 第 1a 页 WYG0103-0192c.png``
(consumed into a page break with the page and its image name); the site's
header lines before the first page are kept as front-matter paratext.

Dropped on purpose: the page-marker lines (their content lives on in ``pb``:
page ``n``, image ``facs``, 卷 ``juan``).  Empty lines hold no text; inside a
passage they are reported, because there the export lost a printed line.
"""

from __future__ import annotations

import re

from ...model import PageBreak, Witness, WitnessMeta
from ...normalize.numerals import chinese_numeral
from ..common.base import Reader, SourceText, WitnessBuilder
from ..registry import register
from ..layouts.jishi import JishiLayerer, PhysLine

PAGE_MARK_RE = re.compile(r"^卷(?P<juan>\S+)\s+第\s*(?P<n>\d+[ab])\s*页\s+(?P<facs>\S+\.(?:png|jpg|tif))\s*$")
SITE_HEADER = ("书名或作者", "正文关键词", "声明:", "声明：")


@register
class JishiPagesReader(Reader):
    name = "jishi-pages"
    role = "jishi"
    author = "李如圭"
    description = "集释 page export: 经 flush left, commentary lines start with a space, '卷十 第 1a 页 WYG….png' page markers (001)"

    def sniff(self, src: SourceText) -> float:
        marks = sum(1 for ln in src.lines[:400] if PAGE_MARK_RE.match(ln))
        notes = sum(1 for ln in src.lines[:400] if re.match(r"^ (郑注|鄭注)", ln))
        return 0.95 if marks >= 1 and notes >= 1 else 0.0

    def expected(self) -> str:
        return "page markers like '卷十 第 1a 页 WYG0103-0192c.png' and commentary lines starting with ' 郑注'"

    def consumed_markup(self, src: SourceText) -> str:
        return "\n".join(ln for ln in src.lines if not PAGE_MARK_RE.match(ln))

    def parse(self, src: SourceText, meta: WitnessMeta) -> Witness:
        b = WitnessBuilder(meta, src, self.gaiji_table())
        first_page = next((i for i, ln in enumerate(src.lines) if PAGE_MARK_RE.match(ln)), len(src.lines))
        if first_page:
            b.div("front", None, "site header")
            for i, ln in enumerate(src.lines[:first_page], 1):
                if ln.strip():
                    b.line(i)
                    b.piece("paratext", subtype="site")
                    b.text(ln.strip())
        b.div("chapter", meta.juan or None, meta.chapter or None)
        lines: list[PhysLine] = []
        breaks: list[PageBreak] = []
        in_text = False
        for i in range(first_page, len(src.lines)):
            n = i + 1
            ln = src.lines[i]
            m = PAGE_MARK_RE.match(ln)
            if m:
                breaks.append(PageBreak(n=m.group("n"), facs=m.group("facs"), edition="WYG", juan=str(chinese_numeral(m.group("juan")) or m.group("juan"))))
                continue
            if not ln.strip():
                if in_text:
                    b.warn("empty-line", "empty line inside the text: the export may have lost a printed line here", n)
                continue
            indent = ln[:1] in (" ", "\u3000", "\t")
            lines.append(PhysLine(n=n, body=ln.strip(), indent=indent, breaks=list(breaks)))  # as list[PageBreak | Gap]
            breaks = []
            in_text = True
        JishiLayerer(b, lines).run()
        for pb in breaks:  # page markers after the last line go at the very end
            b.page_break(pb)
        return b.finish()
