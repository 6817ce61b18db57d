"""The layering engine for 李如圭《仪礼集释》 in its 四库 page layout.

Every transcription of the 集释 we know keeps the printed lines: 经 flush left,
21 columns to a line; commentary indented one column, 20 to a line; 鄭注 opens
郑玄's note, 釋曰 opens 李如圭's own comment, 鄭目錄云 is 郑玄's chapter preface;
the 四库 editors' 案 notes sit in double-column small text.  Transcriptions
differ only in how they show indentation and pages, so each format front end
(:mod:`.jishi_pages`, :mod:`.jishi_flat`, the Mandoku reader) turns its file into
:class:`PhysLine` records and this engine decides the layers.

Where indentation was lost (``indent is None``) the line width decides: a line
that fills its width continues in the same layer, a shorter one ends the piece.
The one ambiguous case is a commentary line that happens to end exactly at full
width: the next line may continue it or be a new 经 passage.  There the engine
looks ahead: a 经 line is 21 columns, which commentary never reaches; and 鄭注
never follows 鄭注 without 经 between, so lines that are followed by a 鄭注 are
经.

One leaf (卷九 1b) prints everything a column further in: 经 one column in, 鄭注 two, the 注's
continuations one.  An indented line with no marker after a commentary that ended short, with a 鄭注
after it, is that 经 (``cert="low"``, an ``indented-jing`` warning): a commentary that ended cannot go
on, and a 注 never follows a 注 without 经 between.

喪服 carries 子夏's 传 in 经-sized text: a flush line that opens with ``傳曰`` starts a
``zhuan`` piece of the same unit, and so does ``傳曰`` inside a 经 line (``父傳曰爲父何以斬衰
也父至尊也``); the 传 goes on over full lines as the 经 does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...model import Gap, PageBreak
from ..common.base import NoteLineEmitter, WitnessBuilder, columns
from ..common.yili import pian_heading
from .zhushu_markers import ZHUAN_OPEN, fold, zhuan_opening

JING_WIDTH = 21
#: Layers printed in large characters flush left: 经, and 子夏's 传 in 喪服.
TEXT_LAYERS = ("jing", "zhuan")
COMMENTARY_WIDTH = 20

ZHU_MARK = re.compile(r"^(鄭注|郑注)")
SHI_MARK = re.compile(r"^(釋曰|释曰)")
MULU_MARK = re.compile(r"^(鄭目錄云|郑目录云|鄭目録云)")
SIKU_RE = re.compile(r"^(欽定四庫全書|钦定四库全书)\s*$")
TITLE_RE = re.compile(r"^(儀禮|仪礼)集(釋|释)[卷巻]")
JUAN_LABEL_RE = re.compile(r"^卷[一二三四五六七八九十百]+\s*$")


@dataclass(slots=True)
class PhysLine:
    """One printed line of the 集释 as a front end sees it."""

    n: int
    body: str
    indent: bool | None
    breaks: list[PageBreak | Gap] = field(default_factory=list)  # page breaks and lost pages, in order


def _is_marker(body: str) -> bool:
    return bool(ZHU_MARK.match(body) or SHI_MARK.match(body) or MULU_MARK.match(body))


def _paratext_kind(body: str) -> str | None:
    if SIKU_RE.match(body):
        return "collection"
    if TITLE_RE.match(body):
        return "title"
    if pian_heading(body):
        return "pian"
    if JUAN_LABEL_RE.match(body):
        return "juan"
    return None


class JishiLayerer:
    """Decides the layer of each printed line and feeds the builder."""

    def __init__(self, builder: WitnessBuilder, lines: list[PhysLine]) -> None:
        self.b = builder
        self.lines = lines
        self.notes = NoteLineEmitter(builder)
        self.layer: str | None = None  # layer of the open piece
        self.prev_full = False

    # -- the ambiguous case -------------------------------------------------
    def _next_after_full_commentary_is_jing(self, i: int) -> bool:
        """Line ``i`` follows a commentary line of exactly full width and has no marker."""
        j = i
        while j < len(self.lines):
            body = self.lines[j].body
            if j > i and (_is_marker(body) or _paratext_kind(body)):
                break
            w = columns(body)
            if w > COMMENTARY_WIDTH:
                return True  # commentary never takes 21 columns
            if w < COMMENTARY_WIDTH:
                j += 1
                break
            j += 1
        if j < len(self.lines) and ZHU_MARK.match(self.lines[j].body):
            return True  # 鄭注 follows: what came between must be 经
        return False

    def _shifted_jing(self, i: int) -> bool:
        """Is indented line ``i``, with no marker, after a commentary line that ended short, 经 printed one column
        in?  Only where the commentary cannot go on (its last line was short) and a 鄭注 follows the lines that
        continue it (集释 卷九 1b: ``　宰戒百官有事于射者`` then ``　　鄭注宰于天子…``): a 注 never follows a 注
        without 经 between."""
        j = i + 1
        while j < len(self.lines) and self.lines[j].indent is True and not _is_marker(self.lines[j].body) \
                and columns(self.lines[j - 1].body) >= JING_WIDTH - 1:
            j += 1
        return j < len(self.lines) and bool(ZHU_MARK.match(self.lines[j].body))

    def _item_after_full_zhuan(self, i: int) -> bool:
        """Is line ``i``, after a 传 line of full width, the next 经 item rather than the 传 going on?

        ``𫝊曰甥者何也…報之也`` fills its line, so ``壻`` below it could continue the 传; but 鄭注
        follows ``壻`` and a new ``傳曰`` follows that note: a 传 is never taken up again by
        ``傳曰`` after its own 注 (the 注 of a 传 comes after the whole 传), so what stood between
        was an item with its 注 and its own 传 (经 item → 注 → 传, the order of 甥 and 壻).
        """
        if self.layer != "zhuan" or not self.prev_full or columns(self.lines[i].body) >= JING_WIDTH:
            return False
        j = i + 1
        if j >= len(self.lines) or not ZHU_MARK.match(self.lines[j].body):
            return False
        while j < len(self.lines) and (self.lines[j].indent is True or _is_marker(self.lines[j].body)
                                       or self.lines[j].body.startswith("(")):
            j += 1
        return j < len(self.lines) and fold(self.lines[j].body[:2]) == ZHUAN_OPEN

    # -- main loop -----------------------------------------------------------
    def run(self) -> None:
        b = self.b
        last_index = len(self.lines) - 1
        for i, pl in enumerate(self.lines):
            for mark in pl.breaks:
                b.page_mark(mark)
            b.line(pl.n)
            body = pl.body
            rest = body
            if body.startswith("(") and b.current is not None:
                pass  # a note continues or a new note attaches to the current piece
            elif (kind := _paratext_kind(body)) and not (self.prev_full and self.layer != "paratext"):
                self._start("paratext", subtype=kind)
                if kind == "pian":
                    b.witness.divs[-1].title = b.witness.divs[-1].title or pian_heading(body)
            elif m := ZHU_MARK.match(body):
                self._start("zhu", new_unit=self.layer is None or self.layer == "paratext")
                b.label(m.group(0))
                rest = body[m.end():]
            elif m := SHI_MARK.match(body):
                self._start("shi", new_unit=self.layer is None or self.layer == "paratext")
                b.label(m.group(0))
                rest = body[m.end():]
            elif MULU_MARK.match(body):
                self._start("zhu", subtype="mulu", new_unit=True)
            elif pl.indent is True and self.layer in ("zhu", "shi") and not self.prev_full and b.current is not None \
                    and self._shifted_jing(i):
                self._start("jing", cert="low")
                b.warn("indented-jing", "indented line with no 鄭注/釋曰 after a commentary that ended short, and a "
                       "鄭注 after it: read as 经 printed one column in (the leaf's lines are shifted)")
            elif pl.indent is True:
                if self.layer not in ("zhu", "shi") or b.current is None:
                    self._start("zhu", cert="low", new_unit=self.layer in (None, "paratext"))
                    b.warn("unmarked-commentary", "indented line with no 鄭注/釋曰 where no commentary is open; read as 郑注")
            elif self.layer != "zhuan" and fold(body[:2]) == ZHUAN_OPEN and not (
                    pl.indent is None and self.prev_full and self.layer in ("zhu", "shi")):  # not indented
                self._start("zhuan", new_unit=self.layer in (None, "paratext"))
            elif pl.indent is False:
                if not (self.layer in TEXT_LAYERS and self.prev_full) or self._item_after_full_zhuan(i):
                    self._start("jing")
            else:  # indentation lost: decide by width
                if self.prev_full and self.layer in TEXT_LAYERS and not self._item_after_full_zhuan(i):
                    pass
                elif self.prev_full and self.layer in ("zhu", "shi"):
                    if self._next_after_full_commentary_is_jing(i):
                        self._start("jing")
                else:
                    self._start("jing")
            rest = self._zhuan(rest, pl.n)
            self.notes.feed(rest, pl.n)
            self.notes.end_line(pl.n, last_line=i == last_index)
            width = JING_WIDTH if self.layer in TEXT_LAYERS else COMMENTARY_WIDTH
            self.prev_full = self.layer != "paratext" and columns(body) >= width

    def _zhuan(self, rest: str, n: int) -> str:
        """Open 子夏's 传 where ``傳曰`` stands in 经 text (outside any 案 note); what is left to feed."""
        if self.layer != "jing":
            return rest
        at = zhuan_opening(fold(rest), 0, len(rest))
        if not at or rest[:at].count("(") != rest[:at].count(")") or self.notes.open:
            return rest
        self.notes.feed(rest[:at], n)
        self._start("zhuan", new_unit=False)
        return rest[at:]

    def _start(self, layer: str, *, subtype: str | None = None, cert: str | None = None,
               new_unit: bool | None = None) -> None:
        self.notes.break_join()
        self.b.piece(layer, subtype=subtype, cert=cert, new_unit=new_unit)
        self.layer = layer
