"""Reader for the ctext-like docsify export of 《仪礼注疏》 (``003``, ``zhushu-ctext``).

The export writes one paragraph per line (a section of the rite), each opened
by two full-width spaces of layout.  Inside a paragraph:

* running text outside brackets is the classic (经); each run of 经 starts a
  new unit;
* ``【…】`` is 郑注, attached to the 经 run before it; inside the same brackets
  the 疏 begins at ``疏曰``, normally after a full-width space (``　疏曰``); the
  export sometimes lost the space (``…乃反位疏曰…``), which is reported;
* a paragraph that *starts* with ``【`` continues the bracket of the paragraph
  before: 注 always follows its 经, so a bracket with no 经 before it cannot be
  a new note.  The export split one bracket in two (``…皆得】`` / ``【献故郑云…``);
  we keep the continuation in the same piece (the 疏 goes on, with a line
  break inside it) and report it;
* section headings ``右饮不胜者`` close a section (they summarise what
  precedes, like a TEI trailer) and become paratext pieces with subtype
  ``head``.  A heading either stands on its own line (``右三请射``, maybe
  followed by a bracketed note of the heading's editor, kept as paratext
  ``head-note``: 郑玄 annotates the 经, not these later headings), or is glued
  to the end of the paragraph (``…负侯而俟右献服不``, ``…】右献释获``).

Telling a glued heading from 经: ``右`` is common in the 经 (右个, 右还, 左右,
少右 …).  A heading is only looked for in the *last* 经 run of a paragraph
(nothing follows it but the line end, where the next section begins), and is
the final ``右`` + 2–6 characters there, with no punctuation, not preceded by
左 or 少 and not followed by a word that makes 右 a direction or a hand in the
经 (:data:`JING_AFTER_YOU`).  Because the rule is a heuristic, a glued heading is
marked ``cert="low"`` and reported.

Dropped on purpose: the brackets ``【】`` and the leading layout spaces (markup,
no text); the docsify comment at the top is kept as paratext.
"""

from __future__ import annotations

import re

from ...model import Witness, WitnessMeta
from ..common.base import Reader, SourceText, WitnessBuilder
from ..registry import register

LAYOUT = " \u3000\t"
COMMENT_RE = re.compile(r"^\s*<!--.*-->\s*$")
#: A heading line: 右 + a short summary, optionally one bracketed note, nothing else.
HEADING_LINE_RE = re.compile(r"^右(?P<summary>[^【】\s]{1,8})(?P<note>【[^【】]*】)?\s*$")
#: Characters that follow 右 when it is a direction or a hand in the 经, never in a heading.
JING_AFTER_YOU = frozenset("个個还還旋手执執袂袒拾取加并並祭坐之于於面首足肩股巾方上下北南东東西")
GLUED_HEADING_RE = re.compile(r"(?<![左少])右(?P<summary>[^右【】\s,，。、:：;；]{2,6})$")
SHU_RE = re.compile(r"(?P<space>[\u3000 ]?)疏曰")


def glued_heading_start(run: str) -> int | None:
    """Where a heading glued to the end of the paragraph's last 经 run starts, if any."""
    m = GLUED_HEADING_RE.search(run)
    if m is None or m.group("summary")[0] in JING_AFTER_YOU:
        return None
    return m.start()


def split_segments(body: str) -> list[tuple[str, str]]:
    """``body`` as ("text", s) runs outside brackets and ("open"/"close", "") marks."""
    out: list[tuple[str, str]] = []
    buf = ""
    for ch in body:
        if ch in "【】":
            if buf:
                out.append(("text", buf))
                buf = ""
            out.append(("open" if ch == "【" else "close", ch))
        else:
            buf += ch
    if buf:
        out.append(("text", buf))
    return out


@register
class ZhushuCtextReader(Reader):
    name = "zhushu-ctext"
    role = "zhushu"
    description = "仪礼注疏 ctext/docsify export: 经 in running text, 郑注 in 【…】, 疏 after '疏曰' inside the brackets (003)"

    def sniff(self, src: SourceText) -> float:
        head = src.lines[:200]
        brackets = sum(ln.count("【") for ln in head)
        shu = sum(len(re.findall(r"【[^【】]*疏曰", ln)) for ln in head)
        return 0.9 if brackets >= 3 and shu >= 1 else 0.0

    def expected(self) -> str:
        return "paragraphs of 经 with 郑注 in 【…】 and 疏 after '疏曰' inside the brackets"

    def consumed_markup(self, src: SourceText) -> str:
        return src.text.replace("【", "").replace("】", "")

    def parse(self, src: SourceText, meta: WitnessMeta) -> Witness:
        return _Parser(src, meta, self.gaiji_table()).run()


class _Parser:
    def __init__(self, src: SourceText, meta: WitnessMeta, gaiji) -> None:
        self.src = src
        self.b = WitnessBuilder(meta, src, gaiji)
        self.layer: str | None = None  # layer of the open piece
        self.in_bracket = False
        self.bracket_line = 0
        self.after_stray = False  # a stray 】 just passed: the 经 run goes on

    def run(self) -> Witness:
        lines = list(enumerate(self.src.lines, 1))
        k = 0
        while k < len(lines) and (not lines[k][1].strip() or COMMENT_RE.match(lines[k][1])):
            k += 1
        if any(COMMENT_RE.match(ln) for _, ln in lines[:k]):
            self.b.div("front", None, "export header")
            for n, ln in lines[:k]:
                if ln.strip():
                    self.b.line(n)
                    self.b.piece("paratext", subtype="comment")
                    self.b.text(ln)
        self.b.div("chapter", self.b.meta.juan or None, self.b.meta.chapter or None)
        self.layer = None
        for n, ln in lines[k:]:
            if ln.strip():
                self._line(n, ln)
        if self.in_bracket:
            self.b.warn("unclosed-bracket", f"the 【 opened at line {self.bracket_line} is never closed; closed at the end")
        return self.b.finish()

    # -- one paragraph ------------------------------------------------------------
    def _line(self, n: int, ln: str) -> None:
        self.b.line(n)
        self.after_stray = False
        body = ln.lstrip(LAYOUT)
        if COMMENT_RE.match(body):
            self._open("paratext", subtype="comment")
            self.b.text(body)
            return
        if not self.in_bracket and (m := HEADING_LINE_RE.match(body)) and m.group("summary")[0] not in JING_AFTER_YOU:
            self._heading_line(m)
            return
        segs = split_segments(body)
        if segs and segs[0][0] == "open" and not self.in_bracket:
            self._continued_bracket(n)
            segs = segs[1:]
        last_text = max((i for i, (kind, s) in enumerate(segs) if kind == "text" and s.strip()), default=-1)
        for i, (kind, s) in enumerate(segs):
            if kind == "open":
                self._open_bracket(n)
            elif kind == "close":
                self._close_bracket(n)
            elif self.in_bracket:
                self._note_text(s, n)
            else:
                self._jing_text(s, n, paragraph_end=i == last_text)
        if self.in_bracket:
            self.b.warn("unclosed-bracket", f"the 【 opened at line {self.bracket_line} goes on to the next line", n)

    def _heading_line(self, m: re.Match[str]) -> None:
        self._open("paratext", subtype="head")
        self.b.text("右" + m.group("summary"))
        if m.group("note"):
            self._open("paratext", subtype="head-note", new_unit=False)
            self.b.text(m.group("note")[1:-1])

    def _continued_bracket(self, n: int) -> None:
        """A paragraph opening with 【: the bracket of the paragraph before goes on."""
        if self.layer in ("zhu", "shu") and self.b.current is not None:
            self.b.warn("split-bracket", f"paragraph opens with 【: continues the {self.layer} of the bracket before", n)
        else:
            self._open("zhu", cert="low", new_unit=False)
            self.b.warn("bracket-without-passage", "paragraph opens with 【 and no bracket precedes it; read as 郑注", n)
        self.in_bracket = True
        self.bracket_line = n

    # -- pieces -----------------------------------------------------------------------
    def _open(self, layer: str, *, subtype: str | None = None, cert: str | None = None,
              new_unit: bool | None = None) -> None:
        self.b.piece(layer, subtype=subtype, cert=cert, new_unit=new_unit)
        self.layer = layer

    def _open_bracket(self, n: int) -> None:
        if self.in_bracket:
            self.b.warn("nested-bracket", "【 inside an open 【; read as a continuation", n)
            return
        self.in_bracket = True
        self.bracket_line = n
        if self.layer == "paratext":
            self._open("zhu", cert="low", new_unit=False)
            self.b.warn("bracket-after-heading", "【 inside a paragraph right after a heading; read as 郑注", n)
        else:
            self._open("zhu", new_unit=False)

    def _close_bracket(self, n: int) -> None:
        if not self.in_bracket:
            self.b.warn("stray-bracket", "】 with no 【 before it; dropped as markup", n)
            self.after_stray = self.layer == "jing"
        self.in_bracket = False

    def _note_text(self, s: str, n: int) -> None:
        """Text inside a bracket: 郑注 until 疏曰, 疏 after it."""
        if self.layer == "zhu" and (m := SHU_RE.search(s)):
            self.b.text(s[:m.start()])
            if not m.group("space"):
                self.b.warn("unspaced-shu", "疏曰 without the full-width space before it; the 疏 starts there", n)
            self._open("shu", new_unit=False)
            self.b.label(m.group(0))
            self.b.text(s[m.end():])
        else:
            self.b.text(s)

    def _jing_text(self, s: str, n: int, *, paragraph_end: bool) -> None:
        if not s.strip():
            if self.b.current is not None:
                self.b.text(s)  # stray space between brackets stays with the piece before
            return
        cut = glued_heading_start(s) if paragraph_end else None
        body, head = (s, "") if cut is None else (s[:cut], s[cut:])
        if body.strip():
            if not (self.after_stray and self.layer == "jing"):
                self._open("jing")
            self.b.text(body)
        elif body and self.b.current is not None:
            self.b.text(body)
        self.after_stray = False
        if head:
            self._open("paratext", subtype="head", cert="low")
            self.b.text(head)
            self.b.warn("glued-heading", f"heading {head.strip()} glued to the end of the paragraph; split off", n)
