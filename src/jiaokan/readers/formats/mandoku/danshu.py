"""賈公彦《儀禮疏》, the 单疏本 (四部叢刊 影宋, Kanripo KR1d0027 ``SBCK``): the 疏 alone.

The print has no 經 and no 注: each stretch of 疏 opens with its 標起止, the first
and last characters of the 經 or 注 it explains, set off by a blank (a full-width
space in the transcription), then ``釋曰``::

    …其義可知略陳儀禮元本至於¶
    禮之大義備於禮記䟽士冠至廟門　釋曰自此至宗人告事畢一¶
    …者閾外之文可參故省文也　注筮者至廟神　釋曰鄭知筮以蓍者¶
    …見其安正容　注¶
    主人至入與　釋曰經直云主人…

The forms of a 標起止 (the lemma): ``主人至西面`` (經, first 至 last), ``注筮者至廟神``
(注), a short passage quoted whole (``注外門大門外``, ``蒲筵二在南注筵席也``: 經 then
its 注), both at once (``賔右至者卒注進容至纓也``), and the 篇's opening lemma after
the marker ``䟽`` glued to the text before it.  A lemma can run over a line end.

Rules (:func:`stretches`):

* an opening is ``釋曰`` (or ``○釋曰``) right after a blank or at the start of a
  printed line; its lemma is the text between that blank and the blank before
  it (or the start of the body text), when that is short (:data:`LEMMA_MAX`) —
  longer, the lemma is taken after a ``䟽``/``疏`` marker inside it, else the
  opening has none (the 疏 of a title: ``儀禮　釋曰``, ``鄭氏注¶釋曰``);
* a 篇 heading (``士冠禮第一``, ``大射第七``, ``燕禮第六鄭目録云…`` with no blank,
  ``覲¶禮第十`` over a line end) after a blank or at a line start is paratext and
  opens the 篇; the 鄭目録 quoted after it is the lemma of the 疏 that follows
  (subtype ``mulu``);
* title lines (``儀禮䟽卷第一``, ``儀禮䟽序``) and the indented line of who wrote it
  are paratext; a preface before the first heading of a 卷 (``儀禮䟽序``) is front
  matter (a ``front`` div).

What the reader gives: one unit per stretch; the lemma is a :class:`~jiaokan.model.Label`
at the head of the ``shu`` piece (so collation, which skips labels, compares 疏 with
疏), the rest of the stretch is the piece's text; subtype ``zhu-part`` when the
lemma is of a 注 (the 注疏's name for the 疏 on a 注), ``mulu`` for the 目録.  Which
經/注 a lemma explains is resolved against the other witnesses at collation time
(:mod:`jiaokan.collate.shu`), from :func:`lemma_of`.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from ....model import Gaiji, Label, Text, Unit
from ...common.base import SourceText, WitnessBuilder
from ...common.yili import PIAN, canonical_pian
from ...registry import register
from . import MandokuReader
from .source import Flat, MandokuDoc, Seg, emit, flatten, is_mandoku, paratext_kind, text_id_of

#: The longest lemma (characters) taken without a ``䟽`` marker before it.  The longest in 篇一–十三 is 24
#: (a long 經 sentence quoted whole); ordinary 疏 text between two blanks is longer.
LEMMA_MAX = 30
BLANK = "\u3000"
#: How a 疏 opens: ``釋曰``, after a ``○`` or not (``○?釋曰`` in two branches, each opening with its character:
#: ``re`` then skips to the next ○ or 釋 in a tight loop, where an optional first character is tried at every place).
OPEN_RE = re.compile(r"○釋曰|釋曰")
NUM = "一二三四五六七八九十"
#: A 篇 heading at the start of a token: title, 第N, then a blank, 鄭目録 or the end.
HEADING_RE = re.compile(rf"^(?P<title>[^\u3000{NUM}第]{{2,6}}?)第(?P<n>[{NUM}]{{1,3}})(?=\u3000|案?鄭目[録錄]|$)")
#: Short titles this print uses that the 篇 list spells in full.
SHORT_TITLES = {"大射": "大射儀", "既夕": "既夕禮", "旣夕": "既夕禮"}
MARKER_RE = re.compile(r"[䟽疏](?=[^䟽疏]{2,%d}$)" % LEMMA_MAX)
PREFACE_RE = re.compile(r"^\S{1,6}[䟽疏]序$")


def heading_title(token: str) -> tuple[str, int] | None:
    """``士冠禮第一　…`` → (士冠禮, length of ``士冠禮第一``) when the token opens with a 篇 heading."""
    m = HEADING_RE.match(token)
    if m is None:
        return None
    title = m.group("title")
    pian = SHORT_TITLES.get(title) or canonical_pian(title)
    if pian is None or pian not in PIAN:
        return None
    return pian, m.end()


@dataclass
class Stretch:
    """One stretch of the body text: [start, end) of the flat text; the lemma [l0, l1) inside it (or None).

    ``marker``: a ``䟽`` before the lemma [m0, m0+1); ``heading``: [h0, h1) a 篇 heading opening it.
    """

    start: int
    end: int
    lemma: tuple[int, int] | None = None
    marker: int | None = None
    heading: tuple[int, int] | None = None
    mulu: bool = False


def _boundaries(text: str, r0: int, r1: int) -> list[int]:
    """Offsets in ``[r0, r1)`` where a token starts, in order: ``r0`` (a body run starts after a title
    line), and after each blank.  (The blanks found by ``str.find`` in the run, not by a walk of the
    whole text per run.)"""
    out = {r0} if r0 < r1 else set()
    i = text.find(BLANK, max(r0 - 1, 0), r1 - 1)
    while i >= 0:
        out.add(i + 1)
        i = text.find(BLANK, i + 1, r1 - 1)
    return sorted(out)


def _last_before(sorted_offsets: list[int], end: int, floor: int) -> int | None:
    """The last of ``sorted_offsets`` in ``[floor, end)``, or None."""
    i = bisect.bisect_left(sorted_offsets, end)
    return sorted_offsets[i - 1] if i and sorted_offsets[i - 1] >= floor else None


def stretches(flat: Flat, body_lines: list[int]) -> list[Stretch]:
    """The stretches of the body lines (indexes into ``flat.lines``, runs of consecutive lines)."""
    text = flat.text
    runs: list[tuple[int, int]] = []
    first, past = flat.starts, flat.ends  # each line's start and end
    for i in body_lines:
        s, e = first[i], past[i]
        if runs and runs[-1][1] == s:
            runs[-1] = (runs[-1][0], e)
        else:
            runs.append((s, e))
    out: list[Stretch] = []
    line_starts = sorted({first[i] for i in body_lines})
    at_line_starts = set(line_starts)
    for r0, r1 in runs:
        starts: list[Stretch] = []
        ends: list[int] = []  # the lemma ends of ``starts``, sorted (:func:`_after_last_open`)

        def add(st: Stretch) -> None:
            starts.append(st)
            if st.lemma is not None:  # (a stretch's lemma is set before it is added, and stays)
                bisect.insort(ends, st.lemma[1])

        tokens = _boundaries(text, r0, r1)
        prev_open = r0
        for t in tokens:
            h = heading_title(_token(text, t, r1))
            if h is not None:
                _, hl = h
                st = Stretch(t, t, heading=(t, t + hl))
                rest = t + hl
                while rest < r1 and text[rest] == BLANK:
                    rest += 1
                nxt = _next_open(text, rest, r1)
                if nxt is not None and nxt - rest <= 200:
                    st.lemma, st.mulu = (rest, _trim_end(text, rest, nxt)), True
                    prev_open = nxt
                add(st)
        mulu_ends = [st.lemma[1] for st in starts if st.mulu and st.lemma is not None]  # (only headings are 目録)
        for m in OPEN_RE.finditer(text, r0, r1):
            o = m.start()
            before = o - 1
            at_line_start = o in at_line_starts
            if not (at_line_start or (before >= r0 and text[before] == BLANK)):
                g = _glued_lemma(text, tokens, r0, o)
                if g is not None:  # ``　及竟張旜誓注及至至維之釋曰``: the print set no blank before 釋曰
                    add(Stretch(g, g, lemma=(g, o)))
                continue
            if any(e <= o <= e + 2 for e in mulu_ends):
                continue  # the 釋曰 after a 目録 lemma: already opened
            lemma_end = _trim_end(text, r0, o)
            floor = max(r0, _after_last_open(ends, o) or r0)
            lemma_start = _last_before(tokens, lemma_end, floor)
            lemma_start = floor if lemma_start is None else lemma_start
            lemma_start = _extend_back(text, tokens, lemma_start, floor)
            cand = text[lemma_start:lemma_end]
            if "釋曰" in cand and (cut := _after_inner_open(cand)) is not None:
                lemma_start += cut
                cand = text[lemma_start:lemma_end]
            st = Stretch(lemma_start, lemma_start)
            mk = MARKER_RE.search(cand)
            if mk is not None and (len(cand) > LEMMA_MAX or "釋曰" in cand or mk.start() > 0):
                # the 篇's first 疏 after the marker 䟽, glued to the text before it
                st.marker = lemma_start + mk.start()
                st.start = st.marker
                st.lemma = (st.marker + 1, lemma_end)
                add(st)
                continue
            if len(cand) > LEMMA_MAX or "釋曰" in cand:
                # a lemma that opens a printed line has no blank before it: take it from the line start
                ls = _last_before(line_starts, lemma_end, floor)
                ls = lemma_end if ls is None else ls
                if 0 < lemma_end - ls <= LINE_LEMMA_MAX and "釋曰" not in text[ls:lemma_end]:
                    lemma_start = ls
                elif (tail := TAIL_LEMMA_RE.search(text, max(floor, lemma_end - 12), lemma_end)) is not None:
                    lemma_start = tail.start()  # the 疏 before ran into it with no blank: the usual 2+至+2 form
                cand = text[lemma_start:lemma_end]
                st = Stretch(lemma_start, lemma_start)
            if lemma_end > lemma_start and len(cand) <= LEMMA_MAX and "釋曰" not in cand:
                st.lemma = (lemma_start, lemma_end)
            else:
                st.start = o  # no lemma: the 疏 of a title, opened by 釋曰 itself
            add(st)
        starts.sort(key=lambda s: s.start)
        if not starts or starts[0].start > r0:
            starts.insert(0, Stretch(r0, r0))  # text before the first opening (a 卷 that opens mid-疏)
        for a, b in zip(starts, starts[1:] + [None]):
            a.end = b.start if b is not None else r1
        out.extend(s for s in starts if s.end > s.start or s.heading)
    return out


#: A lemma taken from a line start is at most this long (longer, the 疏 before it ran on with no blank).
LINE_LEMMA_MAX = 14
#: The usual lemma, two characters, 至, two characters (注 before it for a 注), at the end of a run-on text.
TAIL_LEMMA_RE = re.compile(r"注?[^\u3000至]{2}至[^\u3000至]{2}$")
#: A token before the lemma that belongs to it (``三耦至堂西　注不敢至事畢　釋曰``): a 經 lemma, or a 注 one.
PRE_LEMMA_RE = re.compile(r"^(?:注?[^\u3000釋]{1,10}至[^\u3000釋]{1,10}|注[^\u3000釋]{1,12})$")


def _extend_back(text: str, tokens: list[int], start: int, floor: int) -> int:
    """Take in the lemma-shaped tokens just before it (at most two): one 疏 explains them together."""
    for _ in range(2):
        prev = _last_before(tokens, start - 1, floor)
        if prev is None:
            break
        tok = text[prev:_trim_end(text, prev, start)]
        if not PRE_LEMMA_RE.match(tok):
            break
        start = prev
    return start


#: A 標起止 glued to its 釋曰 with no blank between (54 times in the 单疏本 of 篇一–十三): the token before the
#: 釋曰 is a lemma: ``X至Y`` then optionally a 注 lemma, or a 注 lemma (``注P至Q``, or a 注 quoted whole,
#: ``注兕獸名…``) after at most a short 經 quoted whole (``及竟張旜誓注及至至維之``).  The token runs from the
#: last blank, so running 疏 (longer, no 注 after a short run) does not take this shape; anything else
#: (``…行道君釋曰``, ``無筭爵釋曰``) is left as it was, the 釋曰 inside the stretch before it.
GLUED_LEMMA_RE = re.compile(r"^(?:[^\u3000至注釋]{1,8}至[^\u3000至注釋]{1,8}(?:注[^\u3000釋]{1,14})?"
                            r"|[^\u3000至注釋]{0,8}注[^\u3000釋]{1,14})$")


def _glued_lemma(text: str, tokens: list[int], r0: int, o: int) -> int | None:
    """The start of a lemma glued to the ``釋曰`` at ``o`` (its token begins after a blank), or None."""
    t = _last_before(tokens, o, r0)
    if t is None:
        return None
    return t if GLUED_LEMMA_RE.match(text[t:o]) else None


#: In a candidate that holds a 釋曰 with no blank before it, the lemma is the 注 lemma after the last one.
INNER_RE = re.compile(r"釋曰(?!.*釋曰).*?(注[^\u3000]{1,8}至[^\u3000]{1,8})$")


def _after_inner_open(cand: str) -> int | None:
    m = INNER_RE.search(cand)
    return m.start(1) if m else None


def _token(text: str, t: int, end: int) -> str:
    return text[t:min(end, t + 40)]


def _trim_end(text: str, lo: int, i: int) -> int:
    while i > lo and text[i - 1] == BLANK:
        i -= 1
    return i


def _next_open(text: str, pos: int, end: int) -> int | None:
    m = OPEN_RE.search(text, pos, end)
    return m.start() if m else None


def _after_last_open(ends: list[int], o: int) -> int | None:
    """The end of the ``釋曰`` of the last opening before ``o`` (a lemma never reaches back past it): the
    largest of the lemma ends (sorted, as :func:`stretches` keeps them) below ``o``.  Bisected, where a walk
    of the openings so far, for each opening, grew with the square of a run's openings."""
    i = bisect.bisect_left(ends, o)
    return ends[i - 1] if i else None


# --------------------------------------------------------------------------


@register
class MandokuDanshuReader(MandokuReader):
    """The 单疏本 《儀禮疏》: every stretch of 疏 a unit, its 標起止 the label that opens it (see the module)."""

    name = "mandoku-danshu"
    role = "danshu"
    author = "贾公彦"
    variant = "danshu"
    layout = "单疏本 儀禮疏: 疏 only, each stretch opened by its 標起止 and 釋曰 (KR1d0027)"
    description = ("Kanripo Mandoku raw, 賈公彦《儀禮疏》 单疏本 (KR1d0027, 四部叢刊 影宋): 疏 only, "
                   "標起止 + 釋曰 stretches")

    def sniff(self, src: SourceText) -> float:
        if not is_mandoku(src):
            return 0.0
        if text_id_of(src) == "KR1d0027":
            return 0.99
        head = src.lines[:600]
        lemmas = sum(len(re.findall(r"\u3000[^\u3000]{1,12}至[^\u3000]{1,6}\u3000釋曰", ln)) for ln in head)
        doubles = sum(ln.count("(") for ln in head)
        return 0.96 if lemmas >= 3 and doubles == 0 else 0.0

    def build_layers(self, b: WitnessBuilder, doc: MandokuDoc) -> None:
        flat = flatten(doc.lines)
        segs: list[Seg] = []
        body: list[int] = []
        # a 卷 with a preface (儀禮䟽序) holds it, and its title lines, as front matter up to the first 篇 heading
        preface = any(PREFACE_RE.match(pl.body) for pl in flat.lines[:12])
        chapter_div = ("chapter", b.meta.juan or None, b.meta.chapter or None)
        segs.append(Seg(0, 0, None, div=("front", None, None) if preface else chapter_div))
        in_front = preface
        for i, (pl, s, e) in enumerate(zip(flat.lines, flat.starts, flat.ends)):
            if in_front and heading_in(flat, i) is not None:
                in_front = False
                segs.append(Seg(s, s, None, div=chapter_div))
            kind = paratext_kind(pl.body) or ("resp" if pl.indent else None)
            if PREFACE_RE.match(pl.body):
                kind = "title"
            if kind and kind != "pian":
                segs.append(Seg(s, e, "paratext", subtype=kind, new_unit=True))
            elif in_front:
                opened = segs[-1].layer == "shu" or (segs[-1].layer is None and segs[-1].end == s and not segs[-1].div)
                segs.append(Seg(s, e, None) if opened else Seg(s, e, "shu", subtype="preface", new_unit=True))
            else:
                body.append(i)
        segs += self._body_segs(flat, body)
        segs.sort(key=lambda sg: (sg.start, 0 if sg.div else 1))
        emit(b, flat, segs)

    def _body_segs(self, flat: Flat, body: list[int]) -> list[Seg]:
        # a gaiji inside a 標起止 stays in it: emit() makes it a LabelGaiji, kept and not read
        return self._stretch_segs(flat, body)

    def _stretch_segs(self, flat: Flat, body: list[int]) -> list[Seg]:
        out: list[Seg] = []
        for st in stretches(flat, body):
            pos = st.start
            opened = False
            if st.heading is not None:
                h0, h1 = st.heading
                out.append(Seg(h0, h1, "paratext", subtype="pian", new_unit=True))
                opened, pos = True, h1
            sub = "mulu" if st.mulu else None
            if st.lemma is not None:
                l0, l1 = st.lemma
                if sub is None and flat.text[l0] == "注":
                    sub = "zhu-part"
                if st.marker is not None:
                    out.append(Seg(st.marker, st.marker + 1, "shu", label=True, subtype=sub, new_unit=not opened))
                    opened = True
                    out.append(Seg(l0, l1, None, label=True))
                elif pos < l0:  # blanks between the heading and the 目録
                    out.append(Seg(pos, l0, "shu", label=True, subtype=sub, new_unit=not opened))
                    out.append(Seg(l0, l1, None, label=True))
                    opened = True
                else:
                    out.append(Seg(l0, l1, "shu", label=True, subtype=sub, new_unit=not opened))
                    opened = True
                pos = l1
            if pos < st.end:
                out.append(Seg(pos, st.end, None if opened else "shu", new_unit=None if opened else True))
        return out


def heading_in(flat: Flat, i: int) -> int | None:
    """The offset of a 篇 heading in printed line ``i`` (at its start or after a blank), else None."""
    s, e = flat.line_range(i)
    for t in [s] + [k + 1 for k in range(s, e) if flat.text[k] == BLANK]:
        if heading_title(_token(flat.text, t, len(flat.text))) is not None:
            return t
    return None


def lemma_of(unit: Unit) -> str | None:
    """The 標起止 that opens ``unit``'s 疏: the labels (and gaiji) before its first text, a ``䟽`` marker left out."""
    for p in unit.pieces:
        if p.layer != "shu":
            continue
        out: list[str] = []
        for node in p.content:
            if isinstance(node, Label):
                out.append(node.text)
            elif isinstance(node, Gaiji):
                out.append(node.glyph)
            elif isinstance(node, Text):
                if node.text.strip(BLANK + " "):
                    break
        lemma = re.sub(r"^[䟽疏]", "", "".join(out).strip(BLANK + " "))
        return lemma or None
    return None


__all__ = ["MandokuDanshuReader", "heading_title", "lemma_of", "stretches"]
