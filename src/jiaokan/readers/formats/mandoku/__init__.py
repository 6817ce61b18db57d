"""Readers for Kanseki Repository (Kanripo) raw files in the Mandoku format.

The format (one file per 卷, e.g. ``KR1d0028_005.txt``)::

    # -*- mode: mandoku-view -*-
    #+TITLE: 儀禮注疏
    #+PROPERTY: JUAN 5
    <pb:KR1d0028_WYG_005-1a>¶
    欽定四庫全書¶
    　儀禮注疏卷五¶
    鄉射之禮○主人戒賓賓岀迎再拜主人答再拜乃請¶

* ``#+KEY: value`` lines (``#+PROPERTY: NAME value`` too) are the header; they
  fill the :class:`~jiaokan.model.WitnessMeta` fields the user or the manifest
  left empty (title, 卷, edition; ``extra['kanripo-id']`` …);
* ``# …`` lines are the transcribers' comments.  ``# page missing`` marks a
  lacuna (a page of the source is lost): the text on either side is not
  continuous, so a double-column note never joins across it and the reader
  reports it;
* ``<pb:KR1d0028_WYG_005-1a>`` is a page break: text id, edition (``WYG``,
  ``SBCK``), 卷 and page → :class:`~jiaokan.model.PageBreak` (``facs`` = the
  Kanripo page id); a tag cut off before its ``>`` is an error;
* ``¶`` ends a printed line → :class:`~jiaokan.model.LineBreak` with the source
  line number; leading full-width spaces ``　`` are the printed indentation,
  a layout cue (commentary and titles are indented);
* ``(A/B)`` is double-column small text: right column, ``/``, left column, one
  bracket group per printed line, read A then B; a note that runs over many
  lines (and pages) is a chain of groups on consecutive lines;
* ``&KR0925;`` is a Kanripo gaiji → :class:`~jiaokan.model.Gaiji`, resolved by
  :meth:`Reader.gaiji_table` (unknown codes are kept and reported);
* org-mode ``* heading`` lines are headings; ``:DRAWER:`` … ``:END:`` blocks and
  anything after a TAB are annotations, not source text.

Three works come in this format, each with its own layout of the layers, so
there are three formats (``jiaokan formats``):

``mandoku-sbck``
    《儀禮》 鄭注, 四部叢刊 (KR1d0026): 经 in running text, 郑注 in ``(…/…)``.
    The reference for layer agreement.
``mandoku-zhushu``
    《儀禮注疏》 四库 (KR1d0028): see :mod:`.mandoku_zhushu`.
``mandoku-jishi``
    李如圭《儀禮集釋》 四库 (KR1d0030): 经 flush left, commentary indented;
    the layers are decided by :mod:`.jishi`, shared with the other 集释 readers.

Why three formats and not one: the three layouts contradict each other (a
``(…)`` group is 郑注 in the 四部丛刊, 疏 or 音義 in the 注疏, a 案 note in the
集释), so the name a user gives with ``--format`` has to say which one is meant,
and the wrong one must be refused rather than misread.

How the variant is found (:meth:`MandokuReader.sniff`): a file is Mandoku when
it has ``<pb:…>`` tags (or an org header and ``¶`` line ends); its body decides
the layout — two or more indented ``鄭注``/``釋曰``/``鄭目錄云`` lines → 集释;
otherwise two or more ``音義(``/``疏(`` groups or lines opening with ``注`` →
注疏; otherwise double-column groups → 四部丛刊.  The Kanripo text id (first page
tag or ``#+PROPERTY: ID``: KR1d0026/0028/0030) raises the score when it agrees
and decides alone when the body shows none of these; a body that shows another
layout scores 0, so ``--format mandoku-sbck`` on a 注疏 file is a one-line error
that names ``mandoku-zhushu``.

Ugly cases of the real files: the ``JUAN`` property is off by one in KR1d0026
(``JUAN 4`` in the 卷五 file; the 卷 is taken from the page tags and the title,
and the header is reported); lost pages (``# page missing``) and pages whose
image is missing but whose text is there (``# image missing``, not a lacuna);
the same page tag twice around a lost page (both kept); a file whose last line
is an empty printed line.

Dropped on purpose (:meth:`MandokuReader.consumed_markup`): the header and
comment lines, page tags, drawers, and annotations after a TAB.
"""

from __future__ import annotations

import re
from collections import Counter

from ....model import Gap, PageBreak, Witness, WitnessMeta
from ...common.base import Reader, ReaderError, SourceText, WitnessBuilder
from ...registry import register
from ...layouts.jishi import JishiLayerer, PhysLine
from ...layouts.zhushu import ZhushuLayerer
from ...layouts.zhushu_markers import fold, zhuan_opening
from ...layouts.zhuan import Voices, hidden_items
from .source import (
    COUNT_RE,
    COUNT_TAIL_RE,
    KNOWN_TEXTS,
    Flat,
    Group,
    MandokuDoc,
    Seg,
    emit,
    fill_meta,
    find_groups,
    flatten,
    is_mandoku,
    juan_title,
    paratext_kind,
    scan,
    signature,
    strip_markup,
    text_id_of,
)


class MandokuReader(Reader):
    """Shared machinery of the three Mandoku variants: sniffing, metadata, the front end."""

    variant: str = ""
    layout: str = ""  # what the variant looks like, for the wrong-format message

    def sniff(self, src: SourceText) -> float:
        if not is_mandoku(src):
            return 0.0
        content = signature(src).variant()
        known = KNOWN_TEXTS.get(text_id_of(src) or "")
        if content == self.variant:
            return 0.99 if known == self.variant else 0.95
        if content is None and known == self.variant:
            return 0.9
        return 0.0

    def expected(self) -> str:
        return (f"a Kanripo Mandoku raw file ('#+TITLE:' header, '<pb:KR…>' page tags, lines ending in '¶') "
                f"laid out as {self.layout}")

    def consumed_markup(self, src: SourceText) -> str:
        return strip_markup(src)

    def parse(self, src: SourceText, meta: WitnessMeta) -> Witness:
        doc = scan(src)
        if not doc.lines:
            raise ReaderError(src.path, "no text: the file holds only Mandoku header, comment and page lines")
        notices = fill_meta(meta, doc)
        b = WitnessBuilder(meta, src, self.gaiji_table())
        for n in notices + doc.notices:
            b.warn(n.code, n.message, n.line)
        self.build_layers(b, doc)
        for mark in doc.trailing:
            b.page_mark(mark)
        return b.finish()

    def build_layers(self, b: WitnessBuilder, doc: MandokuDoc) -> None:
        """Decide the layers of the printed lines and feed the builder."""
        raise NotImplementedError


# --------------------------------------------------------------------------
# 四部丛刊 鄭注 (KR1d0026)


@register
class MandokuSbckReader(MandokuReader):
    """《儀禮》 鄭注 in the 四部丛刊 layout: 经 in running text, every ``(…)`` is 郑注.

    The title lines (``儀禮卷第五``, ``鄕射禮第五　儀禮　鄭氏注``) and the 卷's
    character count (``(經三千六百四十五字/注六千九百一十五字)``) are paratext.
    Groups on consecutive lines with nothing between are one note; after a lost
    page a note starts a unit of its own (its 经 is on the lost page).
    """

    name = "mandoku-sbck"
    role = "songben"
    variant = "sbck"
    infers_boundaries = frozenset({"zhuan"})  # 经 and 传 run on together: where an item starts is read from the 传
    layout = "四部丛刊 鄭注: 经 in running text, 郑注 in double-column '(…/…)' (KR1d0026)"
    description = "Kanripo Mandoku raw, 四部丛刊 《儀禮》 鄭注 (KR1d0026): 经 running, 郑注 in '(…/…)'; reference for layer agreement"

    def build_layers(self, b: WitnessBuilder, doc: MandokuDoc) -> None:
        b.div("chapter", b.meta.juan or None, b.meta.chapter or None)
        flat = flatten(doc.lines)
        groups = find_groups(flat, b, b.meta.file)
        emit(b, flat, SbckLayerer(flat, groups).run())


class SbckLayerer:
    """Decides the layers of a flattened 四部丛刊 卷: 经 outside the brackets, 郑注 inside.

    Title lines (``儀禮卷第五``, the 篇 heading) and the 卷's character count are
    paratext; a note right after the 篇 heading, before any 经, is 郑玄's 目錄
    (subtype ``mulu``).  Groups with nothing but line and page breaks between
    are one note; a lost page (``# page missing``) ends whatever was open.

    喪服 carries 子夏's 传 in the running text with the 经 (``父傳曰爲父何以斬衰也…``):
    ``傳曰`` in the 经 opens a ``zhuan`` piece of the same unit, which runs to the next
    note; the running text after that note is 经 again (this edition puts the 注 of a
    传 after the whole 传).  Where a 传 gives way to the next 经 item with no note between
    (``…父至尊也諸侯爲天子傳曰…``) the next ``傳曰`` betrays the item, and the 传's grammar
    says where it starts (:func:`..layouts.zhuan.hidden_items`; a guess is ``cert="low"``).
    """

    def __init__(self, flat: Flat, groups: list[Group]) -> None:
        self.flat = flat
        self.by_line: dict[int, list[Group]] = {}
        for g in groups:
            self.by_line.setdefault(g.line, []).append(g)
        self.segs: list[Seg] = []
        self.layer: str | None = None  # layer of the open piece
        self.after_pian = False
        self._count_open = False  # a character count opened on this line (what follows it there may be more of it)
        self.folded = fold(flat.text)

    def run(self) -> list[Seg]:
        for i, (pl, start, end) in enumerate(zip(self.flat.lines, self.flat.starts, self.flat.ends)):
            self._count_open = False
            if pl.after_lacuna:
                self.layer = None  # nothing joins across a lost page
            continues_note = self.layer == "zhu" and pl.body.startswith("(")
            kind = "head" if pl.heading else (None if continues_note else paratext_kind(pl.body))
            if kind:
                self.segs.append(Seg(start, end, "paratext", subtype=kind))
                self.layer = "paratext"
                self.after_pian = kind == "pian"
                continue
            pos = start
            for g in self.by_line.get(i, []):
                close = min(g.close + 1, end)
                self._big(pos, g.open)
                self._group(g.open, close)
                pos = close
            self._big(pos, end)
        self._hidden_items()
        return self.segs

    def _hidden_items(self) -> None:
        """Cut the 经 items hidden in a 传 (see :func:`..layouts.zhuan.hidden_items`) out of it.

        The 卷's own 经 and 传 pieces train the :class:`..layouts.zhuan.Voices` that decide
        whether the end of a 传 before a note is an item (the 注 of an item may follow it directly).
        """
        if not any(s.layer == "zhuan" for s in self.segs):
            return
        self._cut_items(None)  # the items a ``傳曰`` betrays: certain enough to train on
        pieces = self._pieces()
        text = self.folded
        self._cut_items(Voices([text[a:z] for layer, a, z, *_ in pieces if layer == "jing"],
                               [text[a:z] for layer, a, z, *_ in pieces if layer == "zhuan"]))

    def _cut_items(self, voices: Voices | None) -> None:
        """One pass of :func:`hidden_items` over the 传 pieces (with ``voices``: the items before a note)."""
        text = self.folded
        for layer, start, end, i, j in reversed(self._pieces()):
            if layer != "zhuan":
                continue
            closed = voices is not None and j < len(self.segs) and self.segs[j].layer == "zhu"
            for item in reversed(hidden_items(text[start:end], voices, closed)):
                if item.end < end - start:
                    self._open_at(i, j, start + item.end, Seg(0, 0, "zhuan", new_unit=False))
                self._open_at(i, j, start + item.start,
                              Seg(0, 0, "jing", new_unit=True, cert=None if item.certain else "low"))

    def _pieces(self) -> list[tuple[str, int, int, int, int]]:
        """The pieces the segments open: (layer, start, end, first segment, one past the last)."""
        out = []
        i = 0
        while i < len(self.segs):
            j = i + 1
            while j < len(self.segs) and self.segs[j].layer is None:
                j += 1
            layer = self.segs[i].layer
            if layer is not None:
                out.append((layer, self.segs[i].start, self.segs[j - 1].end, i, j))
            i = j
        return out

    def _open_at(self, lo: int, hi: int, pos: int, opener: Seg) -> None:
        """Open ``opener``'s piece at ``pos`` inside the segments ``lo``..``hi``: split the one that holds it."""
        for k in range(lo, hi):
            s = self.segs[k]
            if s.start <= pos < s.end:
                if pos > s.start:
                    self.segs.insert(k + 1, Seg(pos, s.end))
                    s.end = pos
                    s = self.segs[k + 1]
                s.layer, s.new_unit, s.cert = opener.layer, opener.new_unit, opener.cert
                return

    def _count_goes_on(self, start: int, end: int) -> bool:
        """After the 卷's character count, numerals and 字 are more of it: the transcription of 卷十三 set the
        two small columns (經二千五百一十六字 / 注五千四十七字) as ``(經二千五百一/注五千四十七)十(六字/字)``, and its
        十 read as 经, its 六字字 as 注, an 经 row only the 四部丛刊 had (a user's trial)."""
        return (self._count_open and self.layer == "paratext"
                and bool(COUNT_TAIL_RE.match(self.flat.reading(start, end).replace(" ", ""))))

    def _big(self, start: int, end: int) -> None:
        if start >= end:
            return
        if self._count_goes_on(start, end):
            self.segs.append(Seg(start, end))
            return
        self._count_open = False
        at = zhuan_opening(self.folded, start, end) if self.layer != "zhuan" else None
        if at is not None:
            self._big(start, at)
            self.segs.append(Seg(at, end, "zhuan", new_unit=self.layer in (None, "paratext")))
            self.layer = "zhuan"
            return
        if self.layer in ("jing", "zhuan") or not self.flat.text[start:end].strip():
            self.segs.append(Seg(start, end))  # the 经 goes on (or a blank stays where it is)
            return
        self.segs.append(Seg(start, end, "jing"))
        self.layer = "jing"
        self.after_pian = False

    def _group(self, start: int, end: int) -> None:
        if start >= end:
            return
        if COUNT_RE.match(self.flat.reading(start, end).replace(" ", "")):
            self.segs.append(Seg(start, end, "paratext", subtype="count"))
            self.layer = "paratext"
            self._count_open = True
        elif self._count_goes_on(start, end):
            self.segs.append(Seg(start, end))
        elif self.layer == "zhu":
            self.segs.append(Seg(start, end))
        else:
            subtype = "mulu" if self.after_pian else None
            self.segs.append(Seg(start, end, "zhu", subtype=subtype, new_unit=self.layer in (None, "paratext")))
            self.layer = "zhu"


# --------------------------------------------------------------------------
# 集释 (KR1d0030)


@register
class MandokuJishiReader(MandokuReader):
    """李如圭《儀禮集釋》 in the 四库 layout: the front end makes :class:`PhysLine` records.

    Everything about layers (经 flush left, indented commentary, 鄭注, 釋曰,
    鄭目錄云, 案 notes joined across lines and pages) is :class:`JishiLayerer`'s.
    A page tag inside a printed line (not in these files) is moved to the start
    of the next printed line, with a warning.
    """

    name = "mandoku-jishi"
    role = "jishi"
    author = "李如圭"
    variant = "jishi"
    layout = "集釋: 经 flush left, commentary indented with '　' and opened by 鄭注/釋曰 (KR1d0030)"
    description = "Kanripo Mandoku raw, 李如圭《儀禮集釋》 (KR1d0030): 经 flush left, indented 鄭注/釋曰 commentary, 案 notes"

    def build_layers(self, b: WitnessBuilder, doc: MandokuDoc) -> None:
        if not b.meta.author:
            b.meta.author = _author(doc) or ""
        b.div("chapter", b.meta.juan or None, b.meta.chapter or None)
        JishiLayerer(b, self.phys_lines(b, doc)).run()

    @staticmethod
    def phys_lines(b: WitnessBuilder, doc: MandokuDoc) -> list[PhysLine]:
        out: list[PhysLine] = []
        moved: list[PageBreak | Gap] = []
        for pl in doc.lines:
            if pl.cont and out:
                out[-1].body += pl.body
                moved.extend(pl.breaks)
                b.warn("pb-moved", "a page tag inside a printed line: the page break is placed at the next line start", pl.n)
                continue
            out.append(PhysLine(n=pl.n, body=pl.body, indent=pl.indent > 0, breaks=moved + pl.breaks))
            moved = []
        doc.trailing[:0] = moved
        return out


def _author(doc: MandokuDoc) -> str | None:
    """``儀禮集釋卷五　　　　宋　李如圭　撰`` → 李如圭."""
    for pl in doc.lines[:8]:
        m = juan_title(pl.body)
        if m and m.group("rest"):
            parts = [p for p in re.split(r"[\u3000\s]+", m.group("rest")) if p]
            if len(parts) == 3 and parts[2] in ("撰", "著", "集釋"):
                return parts[1]
    return None


# --------------------------------------------------------------------------
# 注疏 (KR1d0028)


@register
class MandokuZhushuReader(MandokuReader):
    """《儀禮注疏》 in the 四库 layout; the layers are :class:`ZhushuLayerer`'s (see :mod:`.mandoku_zhushu`)."""

    name = "mandoku-zhushu"
    role = "zhushu"
    variant = "zhushu"
    infers_boundaries = frozenset({"zhu"})  # a 注 followed by ``注`` with nothing between hides the 经's start
    layout = "注疏: running 经, '注' opening 郑注, '○' new passages, 音義(…) and 疏(…) double-column (KR1d0028)"
    description = ("Kanripo Mandoku raw, 四库 《儀禮注疏》 (KR1d0028): running 经/注 with 注 and ○ markers, "
                   "音義(…) and 疏(…) double-column, 考證 at the end")

    def __init__(self, voices: "dict[str, Counter[tuple[str, str]]] | None" = None) -> None:
        #: the prior of the 注/经 boundary models (None: the shipped one, :func:`.mandoku_boundary.shipped_voices`)
        self.voices = voices

    def build_layers(self, b: WitnessBuilder, doc: MandokuDoc) -> None:
        b.div("chapter", b.meta.juan or None, b.meta.chapter or None)
        layerer = self._layerer(b, doc)
        emit(b, layerer.flat, layerer.run())

    def certain_texts(self, src: SourceText) -> dict[str, list[str]]:
        """The 经 and 注 stretches of ``src`` that its markers delimit (see :meth:`ZhushuLayerer.certain_texts`)."""
        b = WitnessBuilder(WitnessMeta(siglum="", file=src.path, format=self.name), src, self.gaiji_table())
        return self._layerer(b, scan(src)).certain_texts()

    def _layerer(self, b: WitnessBuilder, doc: MandokuDoc) -> ZhushuLayerer:
        flat = flatten(doc.lines)
        return ZhushuLayerer(b, flat, find_groups(flat, b, b.meta.file), self.voices)


__all__ = ["MandokuJishiReader", "MandokuReader", "MandokuSbckReader", "MandokuZhushuReader"]

from . import danshu, shiwu  # noqa: E402,F401  (register the 单疏本 《儀禮疏》 KR1d0027 and 張淳《儀禮識誤》 KR1d0029)
