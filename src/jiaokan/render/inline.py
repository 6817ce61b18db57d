"""Pieces and their inline nodes → HTML, with variant marks, page anchors and 案 notes.

One :class:`ColumnWriter` renders the units one witness has in one row.  It counts
characters exactly as :func:`jiaokan.collate.layertext.layer_text` does (Text and
Gaiji characters of the layer's pieces, labels and notes skipped), so the marks of
:mod:`.marks` land on the characters the apparatus means.  Inline nodes:

* Text → text, cut into ``<mark class="v-TYPE" data-a=…>`` (:func:`.html.variant_class`, :func:`.html.mark_app_attr`)
  segments where a mark covers it;
* Label (郑注, 疏 …) → a small quiet label;
* Gaiji → the resolved character (the entity in the tooltip) or, unknown, the mark 〓 with its code in the tooltip;
* PageBreak → an anchor ``SIGLUM-pN`` with a small margin label (a permalink per page: its ``href=#ID`` edition.js
  gives at load; without scripts the label and its tooltip show, not a link);
* Gap (a lost page) → a bracketed 〔缺〕 with the transcribers' words in its tooltip;
* LineBreak → not shown; the piece's tooltip gives its page and source lines;
* Note (案) → a small bracketed note at its place, with its verdict badge when known.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

from markupsafe import Markup, escape

from ..model import (DEFAULT_RESP, LAYERS, Div, Gaiji, Gap, Inline, Label, LabelGaiji, LineBreak, Note, PageBreak, Piece, Text,
                     Unit, code_codepoint, describe_codepoint)
from ..normalize import strip_ignorable
from ..normalize.gaiji import parallel_readings
from .cite import leaf_by_rule, leaf_ref
from .html import LAYER_ZH, SUBTYPE_CLASS, attrs, esc, mark_app_attr, page_id, variant_class
from .marks import Mark
from .notes import Verdicts, note_html

#: the titles readers give the parts of a file that are not the witness's text (``Builder.div("front", None,
#: "site header")``) → (the interface string's key in edition.js, ``div.KEY``; its simplified Chinese, the default):
#: a reader's English name shown as a heading in a Chinese page read as the text's (a new user's trial)
READER_LABELS: dict[str, tuple[str, str]] = {
    "site header": ("site-header", "网页页眉"),
    "export header": ("export-header", "导出说明"),
    "front matter": ("front-matter", "卷首"),
    "licence": ("licence", "版权声明"),
}

if TYPE_CHECKING:
    from .emended import Em


@dataclass
class _PieceOut:
    layer: str
    parts: list[str]
    attrs: str  # the piece's ``div`` attributes but its grid row (``style``, known when the row is laid out)


@dataclass
class PageIds:
    """Page anchors already used on a page (an id must be unique), and the image file stem of each witness's leaves
    (:meth:`bare_title`)."""

    used: set[str] = field(default_factory=set)
    facs: dict[str, str] = field(default_factory=dict)  # siglum → ``KR1d0030_WYG`` of its leaves ``…_001-1b``

    def bare_title(self, siglum: str, pid: str, pb: PageBreak) -> bool:
        """Whether the tooltip of a page anchor (:func:`page_title`) may be left to search.js
        (``pageTitles``), which makes it at load from the anchor's id and label and the page's ``data-facs``
        (:meth:`facs_attr`): the id begins ``SIGLUM-p``, the image is this witness's one stem and the label, and
        the label's 卷 and 葉 are those of the rule search.js knows (``leafRef``).  Some 7,000 anchors in the book,
        half their bytes; any other (a label outside the rule, another image name) keeps its title written."""
        if not pb.facs or "-" in siglum or " " in siglum or ":" in siglum or not pid.startswith(siglum + "-p"):
            return False
        tail = "_" + pb.n
        if not pb.facs.endswith(tail) or len(pb.facs) == len(tail):
            return False
        stem = pb.facs[:-len(tail)]
        if " " in stem or self.facs.setdefault(siglum, stem) != stem:
            return False
        juan, leaf = leaf_ref(pb.n, pb.juan, "")  # as page_title says them
        return bool(juan) and leaf_by_rule(pb.n, "") == [juan, leaf]

    def facs_attr(self) -> str:
        """``data-facs`` of the page's ``main``: ``JS:KR1d0030_WYG ZS:KR1d0028_WYG`` (:meth:`bare_title`)."""
        return " ".join(f"{s}:{stem}" for s, stem in self.facs.items())

    def take(self, siglum: str, n: str) -> str:
        base = page_id(siglum, n)
        pid, k = base, 2
        while pid in self.used:
            pid, k = f"{base}-{k}", k + 1
        self.used.add(pid)
        return pid


#: a layer's place in the book's order, paratext first (:meth:`ColumnWriter.slot_keys`)
_RANK = {layer: i for i, layer in enumerate(("paratext",) + LAYERS)}
#: the rank of 经: a slot key's layer above it is commentary (:func:`jiaokan.render.chapter._slots`)
JING_RANK = _RANK["jing"]


class ColumnWriter:
    """Render the units of one witness in one row; ``marks``: layer → marks of this row."""

    def __init__(self, siglum: str, marks: dict[str, list[Mark]] | None, pages: PageIds,
                 verdicts: Verdicts | None = None, page: str | None = None, link_units: bool = True,
                 footnotes: dict[str, int] | None = None, emend: "dict[str, list[Em]] | None" = None,
                 shu_links: dict[str, str] | None = None):
        self.siglum = siglum
        self.marks = marks or {}
        self.pages = pages
        self.verdicts = verdicts
        self.page = page  # the page the running text is on (for tooltips)
        self.link_units = link_units
        self.footnotes = footnotes  # app id → number: a footnote reference after each lemma (base-text view)
        self.emend = emend or {}  # piece id → the changes of the 案 notes in it (the emended-text view)
        self.shu_links = shu_links  # unit id → where the 疏 page shows its 疏 (:mod:`.shulink`): a link here
        self._ems: list[Em] = []
        self._em_open: Em | None = None
        self._em_stops: list[int] = []  # where the piece's changes start and end (layer offsets), sorted
        self._pstart = 0
        self.pos: dict[str, int] = {}
        # per layer, the mark covering the text from each stop (:attr:`_stops`) to the next: the marks change only
        # at a stop (every start and end is one), so a stop's mark is that of every character up to the next
        # (:meth:`_cover_at`); None where no mark covers it
        self._cover: dict[str, list[Mark | None]] = {}
        self._zero: dict[str, dict[int, list[Mark]]] = {}
        self._open: Mark | None = None
        self._last_piece: dict[str, _PieceOut] = {}
        self._units: list[tuple[Unit, Div | None, list[_PieceOut]]] = []
        # per layer, the offsets where something may happen to the text (a mark opens or ends, an insertion sign
        # stands; where a mark is about to end only when its footnote number follows it, :meth:`_maybe_ref`):
        # :meth:`_chars` copies the characters between two of them in one slice
        self._stops: dict[str, list[int]] = {}
        refs = footnotes is not None
        for layer, ms in self.marks.items():  # one pass over the marks (a writer per column of every row)
            zero: dict[int, list[Mark]] = {}
            stopset: set[int] = set()
            for m in ms:
                start, end = m.start, m.end
                if end <= start:  # an insertion sign (Mark.empty)
                    zero.setdefault(start, []).append(m)
                stopset.update((start, end - 1, end) if refs else (start, end))
            stops = sorted(stopset)
            # the first mark of the list (sorted by span) that covers a stop's characters, as a mark is drawn
            # where marks overlap: a mark's stops are those from its start to before its end
            cover: list[Mark | None] = [None] * len(stops)
            for m in ms:
                if m.end > m.start:
                    for j in range(bisect_left(stops, m.start), bisect_left(stops, m.end)):
                        if cover[j] is None:
                            cover[j] = m
            self._cover[layer] = cover
            self._zero[layer] = zero
            self._stops[layer] = stops

    # ------------------------------------------------------------------ public
    def add_unit(self, u: Unit, div: Div | None = None) -> None:
        """Render one unit; ``div`` when the unit opens a titled division (its title is shown); its 疏 as a link
        where the 疏 page shows it (:attr:`shu_links`)."""
        away = self.shu_links.get(u.id) if self.shu_links else None
        outs = [self._away(p, away) if away is not None and p.layer == "shu" else self._piece(p) for p in u.pieces]
        self._units.append((u, div, outs))

    def html(self, slots: list[int] | None = None) -> Markup:
        """All units so far; insertion marks past the last character close the last piece of their layer.

        ``slots``: the grid row of each block (:meth:`slot_keys`, numbered across the row's columns)."""
        for layer, zero in self._zero.items():
            if not zero:  # (most layers: every insertion sign drawn, or none)
                continue
            rest = sorted(o for o in zero if o >= self.pos.get(layer, 0))
            last = self._last_piece.get(layer)
            for o in rest:
                for m in zero.pop(o):
                    if last is not None:
                        last.parts.append(self._insertion(m))
        out: list[str] = []
        slot = _row_styles(slots) if slots is not None else None
        for u, div, pieces in self._units:
            if div is not None and div.title:
                style = next(slot) if slot is not None else None
                label = READER_LABELS.get(div.title) if div.type in ("front", "back") else None
                if label is not None:  # the reader's name for a part (not the witness's words): in the interface's language
                    out.append(f'<h3{attrs(cls="div-title", style=style)} data-i18n="div.{label[0]}">{label[1]}</h3>')
                else:
                    out.append(f'<h3{attrs(cls="div-title", style=style)}>{escape(div.title)}</h3>')
            # a unit per passage of every view: its id names it; a unit that is not its passage's permalink (another
            # reading of the base-text view) has no id and says its passage in data-unit (cite.js reads either)
            uid = esc(u.id)
            cls = "unit" if u.jing is not None else "unit unit-para"
            out.append(f'<div class="{cls}" id="{uid}">' if self.link_units
                       else f'<div class="{cls}" data-unit="{uid}">')
            for p in pieces:
                style = next(slot) if slot is not None else None
                out.append(f"<div{p.attrs} style=\"{style}\">{''.join(p.parts)}</div>"
                           if style is not None else f"<div{p.attrs}>{''.join(p.parts)}</div>")
            out.append("</div>")
        return Markup("".join(out))

    def slot_keys(self) -> list[tuple[int, int, int]]:
        """Where each block this writer shows (a division title, a piece) belongs in a row whose columns are
        aligned layer by layer: (the 经 passage it follows, the layer's place in the book's order, its
        repeat), so that 经 stands beside 经, 传 beside 传 and 注 beside 注 in every column."""
        rank = _RANK
        keys: list[tuple[int, int, int]] = []
        seen: dict[tuple[int, int], int] = {}
        k = 0
        for u, div, pieces in self._units:
            if u.jing is not None:
                k += 1
            if div is not None and div.title:
                keys.append((k, -1, 0))
            for p in pieces:
                r = rank.get(p.layer, len(rank))
                n = seen.get((k, r), 0)
                seen[(k, r)] = n + 1
                keys.append((k, r, n))
        return keys

    # ------------------------------------------------------------------ pieces
    def _piece(self, p: Piece) -> _PieceOut:
        parts: list[str] = []
        self._open = None
        self._pstart = self.pos.get(p.layer, 0)
        # changes only in the emended view's base; with none (most pieces) ``_ems`` and ``_em_stops`` stay empty, as
        # every piece leaves them
        ems = self.emend.get(p.id or "") if self.emend else None
        if ems:
            self._ems = list(ems)
            self._em_stops = sorted({self._pstart + x for e in ems for x in (e.start, e.end - 1, e.end)})
        self._content(p.content, p.layer, parts, take=True)
        self._close(parts)
        if self._ems:  # a change at the very end of the piece (an extra reading of the 注疏 after its last character)
            self._em_at(len(p.text), [], parts)
        if self._em_open is not None:
            parts.append(_em_close(self._em_open))
            self._em_open = None
        if ems:
            self._ems = []
            self._em_stops = []
        key = (p.layer, p.subtype, p.cert, p.resp)
        a = _PIECE_ATTRS.get(key)
        if a is None:
            if len(_PIECE_ATTRS) >= 4096:  # (a handful in a book)
                _PIECE_ATTRS.clear()
            a = _PIECE_ATTRS[key] = _piece_attrs(*key)
        out = _PieceOut(p.layer, parts, a)
        self._last_piece[p.layer] = out
        return out

    def _away(self, p: Piece, href: str) -> _PieceOut:
        """A 疏 piece that the 疏 page shows (:mod:`.shulink`): a link there, its characters counted (``疏 · 512字
        →``), and the page breaks it holds, whose anchors stay on this page (a leaf's permalink still lands where
        the leaf begins).  One line per piece, as the citation records count a unit's pieces (``cite.js``).  The
        layer's offsets move on as if it were drawn: there is no mark in it (no other witness of the page has 疏),
        but every writer counts a layer alike."""
        self._open = None
        text = p.text
        self.pos[p.layer] = self.pos.get(p.layer, 0) + len(text)
        parts = [f'<a class="shu-go" href="{esc(href)}">{LAYER_ZH[p.layer]} · {len(strip_ignorable(text))}字 →</a>']
        parts += [self._pb(node) for node in _page_breaks(p.content)]
        cls = f"piece l-{p.layer} away" + (f" st-{p.subtype}" if p.subtype else "")
        out = _PieceOut(p.layer, parts, f' class="{esc(cls)}"')
        self._last_piece[p.layer] = out
        return out

    def _content(self, content: list[Inline], layer: str, parts: list[str], take: bool) -> None:
        """The piece's own nodes go to ``parts`` (marked when ``take``); a note's nodes are gathered and rendered
        as the note.  A loop over the nodes, not :func:`jiaokan.model.walk`: the walk's step per node carries a
        place nobody here reads, and was a fifth of the columns' time; the nodes are met in the walk's order.

        The text runs between two line breaks are drawn as one run (a break is not shown, and the marks, the
        insertion signs and the changes act where their offsets say, whatever node holds the character): a
        reader cuts the text at every source line, and :meth:`_chars` was asked once per line."""
        run: list[str] = []  # the text since the last node that draws something
        for node in content:
            if type(node) is Text:  # most nodes
                run.append(node.text)
            elif type(node) is LineBreak:  # the next most: not shown (:meth:`_node` draws nothing of it)
                continue
            else:
                if run:
                    self._run(run, layer, parts, take)
                    run = []
                if isinstance(node, Note):
                    self._note(node, parts)
                else:
                    self._node(node, layer, parts, take)
        if run:
            self._run(run, layer, parts, take)

    def _run(self, texts: list[str], layer: str, parts: list[str], take: bool) -> None:
        """Consecutive text runs of a piece (:meth:`_content`) as one."""
        s = texts[0] if len(texts) == 1 else "".join(texts)
        if take:
            self._chars(s, layer, parts)
        else:
            parts.append(esc(s))

    def _note(self, note: Note, parts: list[str]) -> None:
        """A note of the piece: its nodes rendered apart (the open mark closed before it, reopened after), then
        the note itself.  A note within it ends it there, as it did when this was a pass of the walk: what
        follows is drawn and dropped (no reader nests notes)."""
        self._close(parts)
        saved, self._open = self._open, None
        inner: list[str] = []
        ended = False
        for node, owner in _note_nodes(note):
            if not ended and owner is not note:
                parts.append(note_html(note, "".join(inner), self.verdicts))
                self._open, ended = saved, True
            self._node(node, owner.layer, inner, take=False)
        if not ended:
            parts.append(note_html(note, "".join(inner), self.verdicts))
            self._open = saved

    def _node(self, node: Inline, layer: str, parts: list[str], take: bool) -> None:
        if isinstance(node, Text):
            if take:
                self._chars(node.text, layer, parts)
            else:
                parts.append(esc(node.text))
        elif isinstance(node, LabelGaiji):  # a gaiji inside a marker: shown in its label, not read
            self._close(parts)
            parts.append(f'<span class="label">{_gaiji(node)}</span>')
        elif isinstance(node, Gaiji):
            if take:
                self._chars(node.reading, layer, parts, gaiji=node)
            else:
                parts.append(_gaiji(node))
        elif isinstance(node, Label):
            self._close(parts)
            parts.append(f'<span class="label">{esc(node.text)}</span>')
        elif isinstance(node, PageBreak):
            self._close(parts)
            parts.append(self._pb(node))
        elif isinstance(node, Gap):
            self._close(parts)
            title = f"{self.siglum}：底本于此缺{'葉' if node.unit == 'page' else '文'}" + (f"（{node.desc}）" if node.desc else "")
            # its accessible name is its title (no aria-label repeating it: the name a screen reader reads is the same)
            parts.append(f'<span{attrs(cls="gap", title=title, role="note")}>〔缺〕</span>')

    def _cover_at(self, layer: str, i: int) -> Mark | None:
        """The mark covering the character at offset ``i`` of ``layer`` (:attr:`_cover`), None for none."""
        stops = self._stops.get(layer)
        if not stops:
            return None
        j = bisect_right(stops, i) - 1
        return self._cover[layer][j] if j >= 0 else None

    def _chars(self, s: str, layer: str, parts: list[str], gaiji: Gaiji | None = None) -> None:
        if (gaiji is None and layer not in self._stops and not self._em_stops and self._em_open is None
                and self._open is None):  # a layer no mark of the row touches (and no change): the text as it is
            parts.append(esc(s))
            self.pos[layer] = self.pos.get(layer, 0) + len(s)
            return
        zero = self._zero.get(layer, {})
        m: Mark | None  # an insertion mark, then the mark covering each character
        if gaiji is not None:
            # one node: its characters share one mark
            i = self.pos.get(layer, 0)
            for m in zero.pop(i, []):
                self._close(parts)
                parts.append(self._insertion(m))
            self._switch(self._cover_at(layer, i), parts)
            parts.append(_gaiji(gaiji))
            self.pos[layer] = i + len(s)
            if self._open is not None and self._open.end <= i + len(s):
                self._maybe_ref(parts)
            return
        # Only where something may happen (a stop of the layer's marks or of the piece's changes, and the first
        # character: a label or a break before it may have closed the open mark); between two stops nothing
        # does, and the characters are copied in one slice.
        start = self.pos.get(layer, 0)
        stops = self._stops.get(layer, [])
        em_stops = self._em_stops
        n = len(s)
        if (not em_stops and self._em_open is None and start not in zero
                and self._cover_at(layer, start) is self._open
                and (not stops or stops[-1] < start or stops[bisect_right(stops, start - 1)] >= start + n)):
            parts.append(esc(s))  # no stop in the run (most text): nothing to do but copy it
            self.pos[layer] = start + n
            return
        self.pos[layer] = start + n
        if not em_stops and self._em_open is None and self.footnotes is None:
            if n:
                self._segments(s, start, stops, self._cover.get(layer, []), zero, parts)
            return
        self._chars_marked(s, start, stops, em_stops, layer, zero, parts)

    def _segments(self, s: str, start: int, stops: list[int], cover: list[Mark | None],
                  zero: dict[int, list[Mark]], parts: list[str]) -> None:
        """:meth:`_chars` where only the marks act (no change of the emended text, no footnote numbers: every
        column of the parallel view): the run cut at the stops, each piece under its stop's mark, the insertion
        signs where they stand; a piece per stop, not a step per character."""
        end = start + len(s)
        j = bisect_right(stops, start) - 1  # the stop at or before the run's first character
        last = len(stops) - 1
        pos = start
        while True:
            m = cover[j] if j >= 0 else None
            nxt = stops[j + 1] if j < last else end
            if nxt > end:
                nxt = end
            zs = zero.pop(pos, None) if zero else None
            if zs:
                self._close(parts)
                for z in zs:
                    parts.append(self._insertion(z))
            if m is not self._open:
                if self._open is not None:
                    parts.append("</mark>")
                if m is not None:
                    parts.append(self._mark_open(m))
                self._open = m
            parts.append(esc(s[pos - start:nxt - start]))
            if nxt >= end:
                return
            pos = nxt
            j += 1

    def _chars_marked(self, s: str, start: int, stops: list[int], em_stops: list[int], layer: str,
                      zero: dict[int, list[Mark]], parts: list[str]) -> None:
        """:meth:`_chars` with the changes of the emended text or the footnote numbers: character by character
        where something may happen (a stop of the marks or of the changes), the characters between in a slice."""
        run: list[str] = []
        n = len(s)
        k = 0
        while k < n:
            i = start + k
            if self._ems or self._em_open is not None:
                self._em_at(i - self._pstart, run, parts)
            zs = zero.pop(i, None)
            m = self._cover_at(layer, i)
            if zs or m is not self._open:
                self._boundary(run, zs, m, parts)
            run.append(s[k])
            if self.footnotes is not None and self._open is not None and self._open.end == i + 1:
                parts.append(esc("".join(run)))
                run.clear()
                self._maybe_ref(parts)
            if self._em_open is not None and self._em_open.end == i + 1 - self._pstart:
                self._em_at(i + 1 - self._pstart, run, parts)
            k += 1
            nxt = n  # the next stop, as an index into s
            j = bisect_right(stops, i)
            if j < len(stops):
                nxt = min(nxt, stops[j] - start)
            if em_stops:
                j = bisect_right(em_stops, i)
                if j < len(em_stops):
                    nxt = min(nxt, em_stops[j] - start)
            if nxt > k:
                run.append(s[k:nxt])
                k = nxt
        parts.append(esc("".join(run)))

    def _em_at(self, local: int, run: list[str], parts: list[str]) -> None:
        """At offset ``local`` of the piece: close the change that ends here, open (or draw) those that start here."""
        def flush() -> None:
            parts.append(esc("".join(run)))
            run.clear()
            self._close(parts)

        if self._em_open is not None and self._em_open.end == local:
            flush()
            parts.append(_em_close(self._em_open))
            self._em_open = None
        while self._ems and self._ems[0].start <= local:
            e = self._ems.pop(0)
            if e.start < local:  # passed (overlapping an open one): not drawn
                continue
            flush()
            if e.start == e.end:
                parts.append(_em_open(e) + _em_close(e))
            else:
                parts.append(_em_open(e))
                self._em_open = e
                break

    def _boundary(self, run: list[str], zs: list[Mark] | None, m: Mark | None, parts: list[str]) -> None:
        """Where marks change: write the pending run, the insertion signs that stand here, open ``m``."""
        parts.append(esc("".join(run)))
        run.clear()
        if zs:
            self._close(parts)
            for z in zs:
                parts.append(self._insertion(z))
        self._switch(m, parts)

    def _maybe_ref(self, parts: list[str], m: Mark | None = None) -> None:
        """After the last character of a lemma (or an insertion sign): its footnote number."""
        if self.footnotes is None:
            return
        if m is None:  # the open mark ends here
            m = self._open
            if m is None:
                return
            self._close(parts)
        n = self.footnotes.get(m.app)
        if n is not None:
            parts.append(f'<a{attrs(cls="fn-ref", id="ref-" + m.app, href="#fn-" + m.app, data_app=m.app)}>{n}</a>')

    def _switch(self, m: Mark | None, parts: list[str]) -> None:
        if m is self._open:
            return
        self._close(parts)
        if m is not None:
            parts.append(self._mark_open(m))
            self._open = m

    def _close(self, parts: list[str]) -> None:
        if self._open is not None:
            parts.append("</mark>")
            self._open = None

    def _mark_cls(self, m: Mark) -> str:
        """A mark's class: its type (:func:`variant_class`), a subtype edition.css draws (:data:`SUBTYPE_CLASS`);
        the class ``v`` every mark has edition.js adds at load (``expandMarks``), with the entry's id.
        Its keyboard access (the first mark of an entry in a cell a tab stop and a button, the others
        ``tabindex=-1``) edition.js gives at load (``keyboardMarks``): in the page it was a third of every
        mark's bytes."""
        key = (m.type, m.subtype)
        cls = _MARK_CLS.get(key)
        if cls is None:
            cls = variant_class(m.type)
            sub = SUBTYPE_CLASS.get(m.subtype or "")
            if sub:
                cls += " " + sub
            _MARK_CLS[key] = cls = esc(cls)
        return cls

    def _mark_open(self, m: Mark) -> str:
        key = (m.type, m.subtype)
        head = _MARK_HEAD.get(key)
        if head is None:  # one class (most marks: v-or) needs no quotes in HTML
            cls = self._mark_cls(m)
            head = _MARK_HEAD[key] = f"<mark class={cls} " if _BARE_VALUE.fullmatch(cls) else f'<mark class="{cls}" '
        return f"{head}{mark_app_attr(m.app)}>"

    def _insertion(self, m: Mark) -> str:
        # ``v-lem`` on the base's side (a reading the base lacks): edition.js names the sign for the tooltip and the
        # screen reader from it (ins-base, ins-wit) in the interface's language at load
        lem = " v-lem" if m.lem else ""
        out = [f'<mark class="{self._mark_cls(m)} v-ins{lem}" {mark_app_attr(m.app)}>‸</mark>']
        self._maybe_ref(out, m)
        return "".join(out)

    def _pb(self, pb: PageBreak) -> str:
        pid = self.pages.take(self.siglum, pb.n)
        self.page = pb.n
        # :func:`.html.attrs`' bytes, written out: seven thousand anchors in the book
        title = "" if self.pages.bare_title(self.siglum, pid, pb) else f' title="{esc(page_title(self.siglum, pb))}"'
        return (f'<a class="pb" id="{esc(pid)}"{title}>'
                f'<span>{esc(pb.n)}</span></a>')  # its sign | is edition.css's .pb::before, its label the span


def _piece_attrs(layer: str, subtype: str | None, cert: str | None, resp: str | None) -> str:
    """A piece's ``div`` attributes but its grid row: its layer's and subtype's classes, and only a doubt said.
    No tooltip per piece (聘禮 has thousands: a tenth of the page): the place of any character is the cite
    dialog's (葉 and the line on the leaf), the layer is the piece's look."""
    cls = f"piece l-{layer}"
    if subtype:
        cls += f" st-{subtype}"
    title = None
    if cert == "low":
        cls += " cert-low"
        title = "层次存疑"
    resp = resp if resp != DEFAULT_RESP.get(layer) else None
    return attrs(cls=cls, title=title, data_resp=resp) if title is not None or resp is not None else f' class="{esc(cls)}"'


#: (layer, subtype, cert, resp) → :func:`_piece_attrs`: the same few for every piece of the book
_PIECE_ATTRS: dict[tuple[str, str | None, str | None, str | None], str] = {}

#: (type, subtype) → a mark's class (:meth:`ColumnWriter._mark_cls`) and the head of its ``<mark`` tag
#: (:meth:`ColumnWriter._mark_open`): a handful in a book, made once per process rather than once per column of every
#: row (a writer per column, 14,000 in the book, each made its own and missed on its first mark of each type)
_MARK_CLS: dict[tuple[str, str | None], str] = {}
_MARK_HEAD: dict[tuple[str, str | None], str] = {}


#: an attribute value HTML reads without quotes (no space, quote, =, <, >, ` or &)
_BARE_VALUE = re.compile(r"[\w-]+")


def page_title(siglum: str, pb: PageBreak) -> str:
    """A page anchor's tooltip: ``JS 卷一 葉一b · KR1d0030_WYG_001-1b`` (search.js ``pageTitles`` makes the same)."""
    juan, leaf = leaf_ref(pb.n, pb.juan, "")
    return f"{siglum} " + " ".join(x for x in (juan, leaf) if x) + (f" · {pb.facs}" if pb.facs else "")


def _row_styles(slots: list[int]) -> Iterator[str | None]:
    """The ``style`` of each block of an aligned column (edition.css: the column a subgrid of the row's grid rows):
    none while the blocks stand in rows 1, 2, 3 … one after the other, where the grid's auto-placement puts them
    anyway; ``grid-row:N`` from the first row skipped on (an auto-placed block after a placed one would fill the
    first free row, above it).  Most columns need none: it was 4% of a page's bytes."""
    placed = False
    for k, n in enumerate(slots, 1):
        if not placed and n == k:
            yield None
        else:
            placed = True
            yield f"grid-row:{n}"


def _page_breaks(content: list[Inline]) -> Iterator[PageBreak]:
    """The page breaks of a piece's nodes and of its notes', in reading order."""
    for node in content:
        if isinstance(node, PageBreak):
            yield node
        elif isinstance(node, Note):
            yield from _page_breaks(node.content)


def _note_nodes(note: Note) -> Iterator[tuple[Inline, Note]]:
    """The nodes of a note and of the notes within it, each with the note it stands in, in the walk's order."""
    for node in note.content:
        yield node, note
        if isinstance(node, Note):
            yield from _note_nodes(node)


def _em_open(e: Em) -> str:
    """A change of the emended text: the other reading struck through (the 注疏's before a restored reading),
    then this text's characters."""
    # no tab stop nor button role in the page: it is the base text too, where a change is not shown; edition.js
    # gives them when the page is switched to the emended text
    a = attrs(cls=f"em em-{e.op} em-vd-{e.verdict.replace(' ', '-')}", data_note_ref=e.note)
    if e.op == "restore":
        was = f'<del class="em-was">{escape(e.other)}</del>' if e.other else ""
        return f"<span{a}>{was}<ins class=\"em-is\">"
    return f'<span{a}><del class="em-old">'


def _em_close(e: Em) -> str:
    if e.op == "restore":
        return "</ins></span>"
    return f'</del><ins class="em-new">{escape(e.other)}</ins></span>'


#: How an unknown character shows: 〓 (the geta mark), the printer's sign for a character
#: that cannot be set; its code is in the tooltip and in ``data-code``.
UNKNOWN_MARK = "〓"


def _gaiji(g: Gaiji) -> str:
    if g.char:
        return f'<span{attrs(cls="gaiji", title=f"&{g.code}; 外字，已释读")}>{escape(g.char)}</span>'
    held = code_codepoint(g.code)
    title = (f"未识之字：原文为 {describe_codepoint(held)}" if held is not None
             else f"未识之字：外字 &{g.code}; 无对应")
    seen = parallel_readings(g.code) if held is None else None
    if seen is not None:  # what the other witnesses read there: beside the mark, never in its place
        title += "。" + seen.said()
    # named by its title, as the gap above
    return (f'<span{attrs(cls="gaiji gaiji-unknown", title=title, data_code=g.code, role="img")}>'
            f'{UNKNOWN_MARK}</span>')

