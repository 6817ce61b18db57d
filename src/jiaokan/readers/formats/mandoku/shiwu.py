"""張淳《儀禮識誤》 (四库 文渊阁, Kanripo KR1d0029 ``WYG``): entries of errata, per 篇.

The layout (one file per 卷)::

    　　士冠禮誤字¶                                   a 篇 (indented title + 誤字)
    眂　注曰天子與其臣𤣥冕以視朔皮弁以日視朝諸¶         an entry: the headword flush left,
    　侯與其臣皮弁以視朔朝服以日視朝按釋文云眂¶         a blank, then the place quoted (經曰/注曰),
    　…各從其初所用字可也從釋文¶                      what editions read (按…), his choice (從…);
    撤　經曰徹筮席注曰徹去也按釋文寫注作撤注舉¶         continuation lines indented one blank
    　經以釋之注字必與經同宜皆作撤從釋文(案説文/無撤字)¶   the 四库 editors' notes in (案…/…),
    　(徹通徹去古皆用徹…)¶                              running over lines and pages

卷三 is 釋文誤字 (errata in the 釋文, each entry tagged with its 篇 in a small note
``(士冠/禮)``): a section of its own, a ``front`` div (matter of the book, not of one 篇); 卷〇 (目錄, 提要) is front matter.

What the reader gives: a unit per entry, one ``commentary`` piece by 張淳 (subtype
``shiwu-entry``) holding the whole entry as he wrote it (headword, blank, body), with
the editors' notes as ``an`` notes in place (parsed as the 集释's are); a 篇 title is a
paratext unit whose text is the 篇 (``士冠禮``) and whose ``誤字`` is a label, so the
book places what follows in that 篇.  The entry's meaning (place, readings, choice) is
parsed by :mod:`jiaokan.emend.shiwu`.
"""

from __future__ import annotations

import re

from ...common.base import NoteLineEmitter, SourceText, WitnessBuilder
from ...common.yili import canonical_pian
from ...registry import register
from . import MandokuReader
from .source import MandokuDoc, is_mandoku, juan_title, text_id_of

#: ``士冠禮誤字``, ``釋文誤字``: a section title (indented).
SECTION_RE = re.compile(r"^(?P<name>\S{2,8}?)誤字$")
RESP_RE = re.compile(r"^[宋元明清][\u3000\s]+\S{2,4}[\u3000\s]+(?:撰|&KR\d+;)$")
SIKU_RE = re.compile(r"^欽定四庫全書")
#: An entry's headword: up to three characters (or gaiji) before the first blank.
HEAD_RE = re.compile(r"^(?P<head>(?:&KR\d+;|[^\u3000(]){1,3})\u3000")
RESP = "張淳"


@register
class MandokuShiwuReader(MandokuReader):
    """張淳《儀禮識誤》: one unit per entry, per-篇 sections (see the module)."""

    name = "mandoku-shiwu"
    role = "shiwu"
    author = RESP
    variant = "shiwu"
    layout = "儀禮識誤: per-篇 sections (士冠禮誤字), entries with a flush headword and indented continuation (KR1d0029)"
    description = ("Kanripo Mandoku raw, 張淳《儀禮識誤》 (KR1d0029, 四库): per-篇 errata entries "
                   "(headword, 經曰/注曰 place, 按 editions, 從 choice), 四库 案 notes")

    def sniff(self, src: SourceText) -> float:
        if not is_mandoku(src):
            return 0.0
        if text_id_of(src) == "KR1d0029":
            return 0.99
        heads = sum(1 for ln in src.lines[:400] if re.match(r"^\S{1,3}\u3000(?:經|注)曰", ln))
        sections = sum(1 for ln in src.lines[:400] if SECTION_RE.match(ln.strip("\u3000¶ ")))
        return 0.96 if heads >= 3 and sections >= 1 else 0.0

    def build_layers(self, b: WitnessBuilder, doc: MandokuDoc) -> None:
        # a 卷 whose first section is not a 篇's (卷三, 釋文誤字) is matter of the book as a whole: a front div from
        # its first line, so the TEI (front before body) keeps the document order
        first = next((m.group("name") for pl in doc.lines if pl.indent
                      and (m := SECTION_RE.match(pl.body.split("(", 1)[0]))), None)
        front = first is not None and canonical_pian(first) is None
        b.div("front" if front else "chapter", b.meta.juan or None, b.meta.chapter or None)
        notes = NoteLineEmitter(b)
        last = len(doc.lines) - 1
        for i, pl in enumerate(doc.lines):
            for mark in pl.breaks:
                b.page_mark(mark)
            b.line(pl.n)
            body = pl.body
            rest = body
            if body.startswith("(") and b.current is not None:
                pass  # the editors' note goes on (or a new one attaches to the entry)
            elif (m := SECTION_RE.match(body.split("(", 1)[0])) and pl.indent:
                # (a note may follow: 鄉射禮誤字(案此篇散見永樂大典射字後今缺…) — the section is lost)
                name = m.group("name")
                pian = canonical_pian(name)
                notes.break_join()
                b.piece("paratext", subtype="pian" if pian else "title", new_unit=True)
                b.text(name)
                b.label(m.group(0)[len(name):])
                rest = body[m.end():]
            elif SIKU_RE.match(body) or juan_title(body) or RESP_RE.match(body):
                notes.break_join()
                b.piece("paratext", subtype="title" if not RESP_RE.match(body) else "resp", new_unit=True)
            elif not pl.indent:
                notes.break_join()
                b.piece("commentary", resp=RESP, subtype="shiwu-entry" if HEAD_RE.match(body) else None,
                        new_unit=True)
            elif pl.indent >= 2 or b.current is None or b.current.layer == "paratext":
                notes.break_join()  # his own words outside the entries (the 釋文 postscript), a text of its own
                b.piece("commentary", resp=RESP, new_unit=True)
            notes.feed(rest, pl.n)
            notes.end_line(pl.n, last_line=i == last)


__all__ = ["MandokuShiwuReader"]
