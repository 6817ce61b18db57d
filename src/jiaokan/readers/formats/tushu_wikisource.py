"""Reader for the 古今图书集成 Wikisource export (``000``: 戎政典 卷276, 《仪礼》 乡射礼).

What the export looks like (one logical paragraph per line, blank lines between):

* a **site header**: the page path ``钦定古今图书集成/经济汇编/戎政典/第276卷``, the
  neighbouring-卷 navigation, a ``考证`` link, the table of contents (lines that
  start with spaces), the 卷 title ``戎政典第二百七十六卷``;
* **headings**, each followed by an ``编辑`` line (the wiki's "edit" link):
  ``射部汇考二``, ``《仪礼一》``, ``《乡射礼》``; the first 篇 heading starts the
  text, the headings before it belong with the header;
* the text: ``《郑目录》云…`` (郑玄's preface to the 篇), then paragraphs that
  mostly alternate 经 / commentary.  Inside a commentary paragraph the 疏 starts
  at ``释曰``; a paragraph that opens with ``释曰`` is all 疏;
* stray ``考证`` lines (links to the 集成's 考证) that split a paragraph: the
  line right after ``考证`` is a fragment that continues into the next paragraph;
* the **licence footer** (public domain notice, the punctuation licence).

How layers are decided.  The wiki editors broke paragraphs where the printed
page switches between large 经 and small commentary, so alternation is the
strongest cue, but not an absolute one (a 经 without 注 is followed by another
经; a paragraph is sometimes cut in two).  Each text paragraph therefore gets a
score from the words in it (``也``, ``谓``, ``犹``, ``今文``/``古文``… are the 注's
voice, the 经 is ritual action: ``坐``, ``兴``, ``遂``, ``揖``, ``如初``…; a
paragraph that repeats words of the one before is the 注 quoting its 经), and
a Viterbi pass picks the labelling that best combines the scores with
alternation; ``释曰`` and ``郑目录`` force commentary.  The punctuation was added by a program and is unreliable
(``《未:旅》``), so the scores look at the characters, never at the
punctuation.  A paragraph whose label wins by a small margin is kept with
``cert="low"`` and a ``layer-unsure`` warning; a place where the chosen labels
break alternation gets an ``alternation-break`` warning so a scholar can check it.

Conventions: 释曰 stays in the 疏's text (it is 贾公彦's own opening formula and
the 注疏 editions carry it as text, so 疏 collates against 疏 word for word);
``《郑目录》云…`` is a 注 piece with subtype ``mulu``; the AI punctuation and
stray spaces are kept as they are.  ``考证`` and ``编辑`` lines are paratext
inside the unit they interrupt; a 考证 fragment that ends a sentence, or has
nothing to continue into, stands alone with a ``kaozheng-fragment`` warning.
Two 经 paragraphs in a row where the first breaks off mid-sentence are one
passage (one piece); two commentary paragraphs in a row share their unit.

Divisions: ``front`` (site header, and the collection headings before the
first 篇 heading), one ``chapter`` per 篇 heading (``《乡射礼》`` is its head),
``back`` (licence footer).

Dropped on purpose: nothing (every line ends up in some piece).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ...model import Witness, WitnessMeta
from ..common.base import Reader, ReaderError, SourceText, WitnessBuilder, han_chars
from ..registry import register
from ..common.yili import pian_heading

# --------------------------------------------------------------------------
# Line shapes (both scripts: other 卷 may come from the zh-hant view)

SITE_PATH_RE = re.compile(r"^\s*(?:钦定|欽定)?古今(?:图书|圖書)集成/")
EDIT_RE = re.compile(r"^\s*(?:编辑|編輯)\s*$")
KAOZHENG_RE = re.compile(r"^\s*(?:考证|考證)\s*$")
JUAN_TITLE_RE = re.compile(r"^\s*\S*典第[〇零一二三四五六七八九十百千]+卷\s*$")
FOOTER_RE = re.compile(
    r"公有领域|公有領域|Public domain|知识共享|知識共享|CC BY|维基文库|維基文庫|人工智能|修正标点|修正標點"
)
#: 释曰 opens the 疏; the AI punctuation sometimes wraps it (``《释》曰``).
SHIYUE_RE = re.compile(r"[《〈“‘「『]?(?:释|釋)[》〉”’」』\s]*曰")
#: 郑玄's preface to the 篇: ``《郑目录》云``, ``郑目录云``.
MULU_RE = re.compile(r"^[\s《〈“]*(?:郑|鄭)(?:目录|目錄|目録)[\s》〉”]*云")
#: ``右…`` section headings (as in the 注疏): short, no inner punctuation, and not
#: an action of the right hand or foot, which a 经 sentence could open with.
SECTION_RE = re.compile(r"^\s*右(?![手足执執还還])[\u3400-\u9fff]{2,12}[。.]?\s*$")
#: Sentence-final punctuation: a 考证 fragment that ends with one may be complete.
FINAL_RE = re.compile(r"[。！？!?][”’」』》)]*\s*$")

# --------------------------------------------------------------------------
# Cues: the voice of the commentary vs. the ritual action of the 经.
#
# Weights are log-odds-like: a cue present in a paragraph adds its weight once
# (presence, not frequency, so a long 注 is not over-counted).  ``也`` is the
# best single cue: the 仪礼 经 almost never has it outside quoted speech, while
# most 注 glosses end with it (``X，Y也``).

COMMENTARY_CUES: tuple[tuple[tuple[str, ...], float], ...] = (
    (("也",), 3.0),
    (("今文", "古文"), 2.0),
    (("谓", "謂"), 1.5),
    (("犹", "猶"), 1.5),
    (("所以",), 1.5),
    (("矣",), 1.5),
    (("言",), 1.2),
    (("故",), 1.0),
    (("云",), 1.0),
    (("乎",), 1.0),
    (("为", "為"), 0.6),
    (("焉",), 0.5),
)
JING_CUES: tuple[tuple[tuple[str, ...], float], ...] = (
    (("兴", "興"), 1.2),
    (("如初",), 1.2),
    (("坐",), 1.0),
    (("遂",), 1.0),
    (("揖",), 0.8),
    (("反位",), 0.8),
    (("北面", "南面", "东面", "東面", "西面"), 0.6),
    (("拜",), 0.6),
    (("执", "執"), 0.5),
    (("升",), 0.4),
    (("降",), 0.4),
)
#: A gloss that ends its paragraph (``…也。``) is the commentary's voice twice over.
FINAL_YE_BONUS = 1.0
#: The paragraph repeats three characters running of the paragraph before it:
#: the 注 quotes the words of the 经 it explains (``“乃降”，将更盥也``), while a
#: 经 rarely repeats the 注 before it.
QUOTES_PREVIOUS = 1.5
QUOTE_LEN = 3

#: Cost of two text paragraphs in a row with the same label (breaking alternation).
SAME_LAYER_COST = 2.5
#: A paragraph whose sentence is left unfinished (no final stop) is a little
#: more likely to go on in the same layer: a tie-breaker, no more, since the
#: stops were placed by a program.
UNFINISHED_DISCOUNT = 0.2
#: A 疏 paragraph after a 注 paragraph continues the commentary naturally.
SHU_AFTER_COMMENTARY_COST = 0.5
#: Text after a heading (or at the start) opens with 经.
COMMENTARY_START_COST = 1.5
#: Below this margin (cost of the best labelling with this paragraph flipped,
#: minus the best cost) the reader marks the paragraph ``cert="low"``.
UNSURE_MARGIN = 2.0

JING, COMM = 0, 1
INF = float("inf")


# --------------------------------------------------------------------------
# Paragraphs


@dataclass
class Para:
    """A logical paragraph: one source line, or two joined across a 考证 split."""

    lines: list[tuple[int, str]]
    kind: str  # site toc title kaozheng-link heading edit-link section mulu text licence
    zone: str = "body"  # front (site header), body, back (licence footer)
    label: int | None = None  # JING or COMM for text paragraphs
    margin: float = INF

    @property
    def text(self) -> str:
        return "".join(t for _, t in self.lines)

    @property
    def line(self) -> int:
        return self.lines[0][0]

    @property
    def opens_shu(self) -> bool:
        m = SHIYUE_RE.search(self.text)
        return m is not None and not han_chars(self.text[: m.start()])


def nonblank_lines(src: SourceText) -> list[tuple[int, str]]:
    """Every non-blank line with its 1-based number, text kept as in the file."""
    return [(i, ln) for i, ln in enumerate(src.lines, 1) if ln.strip()]


def footer_start(lines: list[tuple[int, str]]) -> int:
    """Index of the first line of the licence footer (``len(lines)`` if none).

    Scans back from the end: footer lines name the licence or the site, or hold
    no Han character at all (``Public domainPublic domainfalsefalse``).
    """
    k = len(lines)
    while k > 0:
        body = lines[k - 1][1]
        if FOOTER_RE.search(body) or not han_chars(body):
            k -= 1
        else:
            break
    return k


def heading_indices(lines: list[tuple[int, str]], end: int) -> list[int]:
    """Indices of heading lines: a line that the wiki follows with its ``编辑`` link."""
    out = []
    for i in range(end - 1):
        if EDIT_RE.match(lines[i + 1][1]) and not EDIT_RE.match(lines[i][1]):
            out.append(i)
    return out


def _strip_marks(s: str) -> str:
    return re.sub(r"[\s《》〈〉“”\"'「」『』]", "", s)


def body_start(lines: list[tuple[int, str]], headings: list[int]) -> int:
    """Index where the text (not the site header) begins.

    The first 篇 heading (``《乡射礼》``) opens the text; without one, the first
    heading; without headings, the line after the 卷 title.
    """
    for i in headings:
        if _pian(lines[i][1]):
            return i
    if headings:
        return headings[0]
    for i, (_, body) in enumerate(lines):
        if JUAN_TITLE_RE.match(body):
            return i + 1
    return 1 if lines and SITE_PATH_RE.match(lines[0][1]) else 0


def _header_kind(body: str) -> str:
    if JUAN_TITLE_RE.match(body):
        return "title"
    if body[:1] in (" ", "\u3000", "\t"):
        return "toc"
    return "site"


def _body_kind(body: str) -> str:
    if MULU_RE.match(body):
        return "mulu"
    if SECTION_RE.match(body):
        return "section"
    return "text"


def group_paragraphs(
    lines: list[tuple[int, str]], start: int, end: int, headings: set[int], warn: Callable[[str, str, int], None]
) -> list[Para]:
    """Lines → paragraphs with kinds, joining the fragment after each 考证 line.

    The join rule: the line right after a ``考证`` line (no blank between) is a
    fragment of the paragraph that the next non-blank line carries on.  When
    the fragment ends a sentence, or nothing joinable follows, it is kept as a
    paragraph of its own and the case is reported.
    """
    paras: list[Para] = []
    i = 0
    n = len(lines)
    while i < n:
        ln, body = lines[i]
        zone = "front" if i < start else ("back" if i >= end else "body")

        def add(chunk: list[tuple[int, str]], kind: str) -> None:
            paras.append(Para(chunk, kind, zone))

        if zone == "back":
            add([lines[i]], "licence")
        elif EDIT_RE.match(body):
            add([lines[i]], "edit-link")
        elif i in headings:
            add([lines[i]], "heading")
        elif KAOZHENG_RE.match(body) and i + 1 < end and lines[i + 1][0] == ln + 1 and _joinable(lines[i + 1][1]):
            add([lines[i]], "kaozheng-link")
            frag = lines[i + 1]
            kind = _header_kind(frag[1]) if zone == "front" else _body_kind(frag[1])
            nxt = i + 2
            can_join = (nxt < end and nxt not in headings and _joinable(lines[nxt][1])
                        and (nxt < start) == (i < start))
            if can_join and not FINAL_RE.search(frag[1]):
                if zone == "front":
                    kind = "toc" if "toc" in (kind, _header_kind(lines[nxt][1])) else kind
                add([frag, lines[nxt]], kind)
                i += 3
                continue
            why = "it ends a sentence" if can_join else "no paragraph follows that it could continue"
            warn("kaozheng-fragment", f"the line after '考证' is kept as a paragraph of its own: {why}", frag[0])
            add([frag], kind)
            i += 1
        elif KAOZHENG_RE.match(body):
            add([lines[i]], "kaozheng-link")
        elif zone == "front":
            add([lines[i]], _header_kind(body))
        else:
            add([lines[i]], _body_kind(body))
        i += 1
    return paras


def _joinable(body: str) -> bool:
    return not (EDIT_RE.match(body) or KAOZHENG_RE.match(body))


# --------------------------------------------------------------------------
# Layer decision


def commentary_score(text: str, previous: str = "") -> float:
    """Evidence that a paragraph is commentary (> 0) rather than 经 (< 0).

    ``previous`` is the paragraph before it (its 疏 part left out: a 疏 quotes
    the 经 ranges it covers, which says nothing about what follows).  Only the
    characters count: the punctuation is a program's guess.
    """
    han = han_chars(text)
    score = 0.0
    for words, weight in COMMENTARY_CUES:
        if any(w in han for w in words):
            score += weight
    for words, weight in JING_CUES:
        if any(w in han for w in words):
            score -= weight
    if han.endswith("也"):
        score += FINAL_YE_BONUS
    if previous and _shares_run(han, han_chars(previous)):
        score += QUOTES_PREVIOUS
    return score


def _shares_run(han: str, before: str) -> bool:
    grams = {before[i : i + QUOTE_LEN] for i in range(len(before) - QUOTE_LEN + 1)}
    return any(han[i : i + QUOTE_LEN] in grams for i in range(len(han) - QUOTE_LEN + 1))


def _without_shu(text: str) -> str:
    m = SHIYUE_RE.search(text)
    return text[: m.start()] if m else text


def _emission(p: Para, previous: Para | None) -> tuple[float, float]:
    """Cost of labelling ``p`` 经 and commentary."""
    if p.kind == "mulu" or SHIYUE_RE.search(p.text):
        return INF, 0.0  # 释曰 (疏) and 郑目录 are commentary, whatever else they hold
    s = commentary_score(p.text, _without_shu(previous.text) if previous else "")
    return max(s, 0.0), max(-s, 0.0)


def _transition(prev: int, cur: int, p: Para, before: Para) -> float:
    """Cost of label ``prev`` on paragraph ``before`` followed by ``cur`` on ``p``."""
    if prev != cur:
        return 0.0
    if cur == COMM and p.opens_shu:
        return SHU_AFTER_COMMENTARY_COST
    if not FINAL_RE.search(before.text):
        return SAME_LAYER_COST - UNFINISHED_DISCOUNT
    return SAME_LAYER_COST


def label_run(run: list[Para]) -> None:
    """Label a run of text paragraphs (between headings) 经 / commentary.

    Min-sum Viterbi with forward and backward passes, so that each paragraph
    also gets its margin: how much worse the best labelling is that gives it
    the other label.
    """
    if not run:
        return
    em = [_emission(p, run[i - 1] if i else None) for i, p in enumerate(run)]
    n = len(run)
    fwd = [[INF, INF] for _ in range(n)]
    back = [[0, 0] for _ in range(n)]
    fwd[0] = [em[0][JING], em[0][COMM] + COMMENTARY_START_COST]
    for i in range(1, n):
        for s in (JING, COMM):
            costs = [fwd[i - 1][t] + _transition(t, s, run[i], run[i - 1]) for t in (JING, COMM)]
            best = min((JING, COMM), key=lambda t: costs[t])
            fwd[i][s] = costs[best] + em[i][s]
            back[i][s] = best
    bwd = [[0.0, 0.0] for _ in range(n)]
    for i in range(n - 2, -1, -1):
        for s in (JING, COMM):
            bwd[i][s] = min(_transition(s, t, run[i + 1], run[i]) + em[i + 1][t] + bwd[i + 1][t]
                            for t in (JING, COMM))
    state = min((JING, COMM), key=lambda t: fwd[n - 1][t])
    for i in range(n - 1, -1, -1):
        run[i].label = state
        state = back[i][state]
    for i, p in enumerate(run):
        total = [fwd[i][s] + bwd[i][s] for s in (JING, COMM)]
        p.margin = abs(total[JING] - total[COMM])


def label_text(paras: list[Para]) -> None:
    """Label every text paragraph; headings and section titles restart alternation."""
    run: list[Para] = []
    for p in paras:
        if p.kind in ("text", "mulu"):
            run.append(p)
        elif p.kind in ("heading", "section"):
            label_run(run)
            run = []
    label_run(run)


# --------------------------------------------------------------------------
# The reader


@register
class TushuWikisourceReader(Reader):
    name = "tushu-wikisource"
    description = (
        "古今图书集成 Wikisource export (000): page path '钦定古今图书集成/…/第N卷', headings with '编辑' links, "
        "经 and commentary paragraphs alternating, 疏 after '释曰', licence footer"
    )

    def sniff(self, src: SourceText) -> float:
        lines = nonblank_lines(src)
        if not lines:
            return 0.0
        if SITE_PATH_RE.match(lines[0][1]):
            return 0.95
        edits = sum(1 for _, b in lines if EDIT_RE.match(b))
        wiki = any(re.search(r"维基文库|維基文庫|wikisource", b) for _, b in lines[-10:])
        return 0.7 if edits and wiki else 0.0

    def expected(self) -> str:
        return "a first line like '钦定古今图书集成/经济汇编/戎政典/第276卷' or wiki headings followed by '编辑' lines"

    def parse(self, src: SourceText, meta: WitnessMeta) -> Witness:
        # the licence footer says it: the 图书集成 has no punctuation, a program added it (the HTML folds it away)
        meta.extra.setdefault("punctuation", "machine")
        b = WitnessBuilder(meta, src, self.gaiji_table())
        lines = nonblank_lines(src)
        end = footer_start(lines)
        headings = heading_indices(lines, end)
        start = body_start(lines, headings)
        if not headings:
            b.warn("no-headings", "no wiki headings ('编辑' lines): the text is taken to start after the site header",
                   lines[start][0] if start < len(lines) else 1)
        paras = group_paragraphs(lines, start, end, set(headings), b.warn)
        if not any(p.kind in ("text", "mulu") for p in paras):
            raise ReaderError(src.path, "no text paragraphs between the site header and the licence footer")
        label_text(paras)
        _Emitter(b, meta).run(paras)
        return b.finish()


# --------------------------------------------------------------------------
# Emission

Segment = tuple[int, int, Callable[[], object] | None]


@dataclass
class _Emitter:
    """Turns labelled paragraphs into divisions, units and pieces."""

    b: WitnessBuilder
    meta: WitnessMeta
    zone: str = ""
    prev_text: Para | None = None
    div_has_jing: bool = False
    div_has_unit: bool = False

    def run(self, paras: list[Para]) -> None:
        for p in paras:
            self._enter(p)
            if p.kind in ("text", "mulu"):
                self._text(p)
            else:
                self._paratext(p)

    # -- divisions ---------------------------------------------------------
    def _enter(self, p: Para) -> None:
        """Open the division ``p`` belongs to: front, a chapter per 篇 heading, back."""
        if p.zone != self.zone:
            self.zone = p.zone
            if p.zone == "front":
                self._open("front", None, "site header")
            elif p.zone == "back":
                self._open("back", None, "licence")
            else:
                self._open_chapter(p)
        elif p.zone == "body" and p.kind == "heading" and self.div_has_jing and _pian(p.text):
            self._open_chapter(p)

    def _open_chapter(self, p: Para) -> None:
        title = _pian(p.text) if p.kind == "heading" else None
        self._open("chapter", self.meta.juan or None, title or self.meta.chapter or None)

    def _open(self, type: str, n: str | None, title: str | None) -> None:
        self.b.div(type, n, title)
        self.div_has_jing = self.div_has_unit = False
        self.prev_text = None

    def _piece(self, layer: str, *, subtype: str | None = None, cert: str | None = None,
               new_unit: bool | None = None) -> None:
        self.b.piece(layer, subtype=subtype, cert=cert, new_unit=new_unit)
        self.div_has_unit = True

    # -- paratext ----------------------------------------------------------
    def _paratext(self, p: Para) -> None:
        attach = p.kind in ("edit-link", "kaozheng-link") and self.div_has_unit
        subtype = "head" if p.kind == "heading" and not self.div_has_unit else p.kind
        self._emit(p, [(0, len(p.text), lambda: self._piece("paratext", subtype=subtype, new_unit=not attach))],
                   strip=True)
        if p.kind in ("heading", "section"):
            self.prev_text = None

    # -- text --------------------------------------------------------------
    def _text(self, p: Para) -> None:
        if p.kind == "mulu":
            self._emit(p, [(0, len(p.text), lambda: self._piece("zhu", subtype="mulu", new_unit=True))])
        elif p.label == JING:
            self._jing(p)
        else:
            self._commentary(p)
        self.prev_text = p

    def _unsure(self, p: Para) -> str | None:
        if p.margin >= UNSURE_MARGIN:
            return None
        layer = "经" if p.label == JING else "commentary"
        self.b.warn("layer-unsure", f"paragraph read as {layer} by a margin of {p.margin:.1f}: {_excerpt(p.text)}",
                    p.line)
        return "low"

    def _check_alternation(self, p: Para) -> None:
        prev = self.prev_text
        if prev is None or prev.kind == "mulu" or prev.label != p.label:
            return
        if p.label == COMM and p.opens_shu:
            return
        layer = "经" if p.label == JING else "commentary"
        self.b.warn("alternation-break", f"two {layer} paragraphs in a row (lines {prev.line} and {p.line}), "
                    f"read so from the words in them: {_excerpt(p.text)}", p.line)

    def _jing(self, p: Para) -> None:
        """Open a 经 passage, or carry on the one before when its sentence was left unfinished."""
        cert = self._unsure(p)
        self._check_alternation(p)
        prev, cur = self.prev_text, self.b.current
        if prev is not None and prev.label == JING and not FINAL_RE.search(prev.text) \
                and cur is not None and cur.layer == "jing":
            cur.cert = "low" if "low" in (cur.cert, cert) else cur.cert  # one passage, one cert
            self._emit(p, [(0, len(p.text), None)])
        else:
            self._emit(p, [(0, len(p.text), lambda: self._piece("jing", cert=cert))])
        self.div_has_jing = True

    def _commentary(self, p: Para) -> None:
        cert = self._unsure(p)
        self._check_alternation(p)
        m = SHIYUE_RE.search(p.text)
        cut = m.start() if m else len(p.text)
        segments: list[Segment] = []
        if han_chars(p.text[:cut]) or not m:
            segments.append((0, cut, lambda: self._piece("zhu", cert=cert)))
        else:
            cut = 0  # only punctuation before 释曰: it goes with the 疏
        if m:
            segments.append((cut, len(p.text), lambda: self._piece("shu")))
        self._emit(p, segments)

    # -- characters --------------------------------------------------------
    def _emit(self, p: Para, segments: list[Segment], strip: bool = False) -> None:
        """Emit the paragraph's characters, segment by segment, with a line break at each source line.

        Each segment is ``(start, end, open)`` in offsets of ``p.text``; ``open``
        opens its piece just before its first character (after the line break,
        so the piece's location is its own line), or is None to carry on the
        open piece.
        """
        pos = 0
        for n, body in p.lines:
            self.b.line(n)
            for lo, hi, opener in segments:
                a, z = max(lo, pos), min(hi, pos + len(body))
                if a >= z:
                    continue
                if a == lo and opener is not None:
                    opener()
                chunk = body[a - pos : z - pos]
                self.b.text(chunk.strip() if strip else chunk)
            pos += len(body)


def _pian(text: str) -> str | None:
    return pian_heading(_strip_marks(text))


def _excerpt(text: str, n: int = 16) -> str:
    t = text.strip()
    return t if len(t) <= n else t[:n] + "…"
