"""The layers of the 四库 《儀禮注疏》 in Kanripo's Mandoku raw text (KR1d0028).

What the transcription looks like (``KR1d0028_005.txt``)::

    鄉射之禮○主人戒賓賓岀迎再拜主人答再拜乃請¶
    注主人州長也鄉大夫若在焉則稱鄉大夫也戒猶警¶
    …庶乎音義(長丁大反警音景語/魚據反爲于僞反)疏(釋曰自此至無介論/州長將射先戒賓之)¶
    (事案大射前三日宰夫戒宰及司馬又射前一日樂人/宿縣此不言日數則戒賓與射同日矣禮同鄉飲酒也)¶
    …(以疑/之)賓禮辭許主人再拜賓答再拜主人退賓送再拜¶
    注退還射宫省錄射事疏(注釋曰…)¶

The rules, as the text shows them:

* the running text (large characters, flush left, 21 to a line) is 经 and 注.
  ``注`` opens 郑注 (every ``注`` of the running text is the marker: the 经 and
  the 注 of this chapter never use the character otherwise); ``○`` opens a new
  经 passage; after a 疏 the running text is a new 经 passage;
* ``音義(…)`` holds 陆德明's glosses and ``疏(…)`` 贾公彦's sub-commentary, as
  double-column groups that run over as many lines (and pages) as they need;
  the marker may end one line and its group open the next.  ``疏`` or ``音義``
  not followed by a group is the character (``疏數``), not a marker;
* the 音義 of a passage comes after its 注, so the running text after it is 经;
* inside a 疏, ``注釋曰`` starts the part on the 注: the 疏 continues as a second
  ``shu`` piece with subtype ``zhu-part``, its ``注`` a label (the marker of the
  part, where the 单疏本 writes the 標起止 ``注X至Y``: collated as text, it made
  1,241 entries "the 单疏本 lacks 注" over 篇一–十三), 释曰 in the text, as 贾公彦
  wrote it;
* a 注 gives way to the 经 with no marker when the next ``注`` follows with
  nothing between (``注阼階東階尊於賓席之東…注斯禁…``), and sometimes before a
  ``○``.  The split is inferred (:mod:`.mandoku_boundary`, plus 郑玄's habit of
  ending a 注 with his 今文/古文 notes, :func:`jingu_end`, and rules about the
  format: a 注 never ends on a word that wants an object (:func:`.zhushu_markers.no_zhu_end`)
  nor is it the bare quotation of the 经 before it (:func:`no_bare_quote`), and the 经
  holds the word the next 注 opens on (:func:`lemma_at`)); a close call keeps
  ``cert="low"`` on the 经 piece and a ``zhu-boundary`` warning; every 经 read before a
  ``○`` is ``cert="low"``;
* indented lines and the collection line are titles (paratext); the 考證, from
  the ``…卷五考證`` title to the end, is a ``back`` div (:class:`KaozhengLayerer`).

Ugly cases met in the real files and how they are read:

* a 注 written with the marker ``疏`` (``席於尊東疏尊東明與賓夾尊也…疏(注釋曰…``):
  a 疏 that opens with 注釋曰 comments on a 注, so a passage without one hides it;
  the last ``疏`` character of the passage is read as the marker (``cert="low"``,
  ``mismarked-zhu`` warning);
* a double-column group with no marker inside the 经 (``(目/木)``, the two halves
  of one character): kept as text where it stands, with an ``unmarked-group`` warning;
* a space between two groups of one 疏 (``…)　○凡舉爵…``): the groups still join.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field

from ..common.base import WitnessBuilder, columns
from .zhushu_boundary import END, CharModel, LengthPrior, best_split, shipped_voices, whole_zhu
from ..formats.mandoku.source import Flat, Group, Seg, paratext_kind
from .zhuan import is_citation, opens_ji, openings as zhuan_openings
from .zhushu_markers import SHU, SHU_OPEN_RE, ZHU, ZHU_PART_RE, ZHUAN_PART_RE, big_marks, no_zhu_end, fold, group_marker, zhuan_opening

#: Below this margin (nats) an inferred 注/经 boundary is reported and marked ``cert="low"``.
#: Calibrated on 卷五 and 卷七 against the 四部丛刊: of the 128 inferred splits, 48 fall below
#: 3 nats; they hold 14 of the 21 splits that are off, and 73 of the 80 others are exact.
UNSURE_MARGIN = 3.0

#: A 注 that ends at one of these (a ○) may still hide a 经 passage before it: split when
#: the best split beats "all 注" by more than this many nats.  Before a 疏 or an 音義 the
#: 注 is never split: measured on 卷五 and 卷七, every such split was wrong.  Most 注 before
#: a ○ are whole, and two bigram models overstate their confidence on a long span, so the
#: bar is high: on 篇一–八 the splits that were right gained 15–105 nats, the wrong ones
#: (``徹猶除也|設豐者…``, ``…則視干中|干中十尺``) at most 11; 8 to 12 is a flat optimum,
#: whether the prior holds the chapter measured or not.
MAY_SPLIT = {"○": 12.0}
#: Characters of certain 经 and of certain 注 the models need before they may split a 注
#: that no marker says to split (an excerpt of a few passages cannot overrule the default).
#: The shipped prior counts: with it the models are always trained; with an empty prior
#: (``voices={}``) a short file is not.
MIN_TRAINING = 1500

#: 郑玄 closes a 注 with his notes on the 今文/古文 readings (``今文揖爲升``, ``古文壹皆作一``,
#: ``今文無阼階``, ``古文曰降造阼階下``): what follows such a note is 经 again.
JINGU_RE = re.compile("今文|古文")
JINGU_SWAP_RE = re.compile(r".{1,6}?(?:皆|或)?(?:爲|為|作)(?:.)(?:非也|也)?")
JINGU_QUOTE_RE = re.compile("(?P<what>.{0,6}?)(?:無|无|曰|有)")
#: Bonus (nats) for splitting exactly where a 今文/古文 note ends.
JINGU_BONUS = 8.0
#: The next 注's opening (its lemma) is looked for in the span, longest first, down to this length.
LEMMA_MAX = 4
LEMMA_MIN = 2
#: Penalty (nats) for a split that would put that lemma in the 注.  At 8, ``注阼階東階尊於賓席之東
#: 兩壺斯禁左𤣥酒…注斯禁禁切地無足者也`` (卷五) kept 斯禁 and the 经 around it in the 注; from 12 to 30
#: nothing else on 篇一–八 changes, and the smallest keeps room for the models where a
#: two-character opening recurs in the 注 by chance.
LEMMA_PENALTY = 12.0
#: Penalty (nats) for a split whose 注 only repeats the 经 before it (:func:`no_bare_quote`): a rule.
BARE_QUOTE_PENALTY = 30.0
#: Echoes (:func:`echo_bonus`): a character of the span inside a run shared with the 经 just
#: before leans 注 by ``ECHO_BEFORE`` nats, one inside a run shared with the next 注 leans 经
#: by ``ECHO_NEXT``; a run of two characters counts ``ECHO_PAIR`` of a longer one.  Tuned on
#: 卷五 and 卷七 together (a flat optimum: 0.6–0.75, 1.5–2, 0.5); see the closing note of #4.
ECHO_BEFORE = 0.6
ECHO_NEXT = 1.75
ECHO_PAIR = 0.5
#: The longest shared run looked for at each position.
ECHO_MAX = 8
#: No 注 and no 经 passage is shorter than this (none is, in either chapter of the 四部丛刊 郑注).
MIN_PART = 2

#: Columns of a full line of the 考證: flush lines and indented ones both end at 21; a
#: line holding an editor's signature ``(臣紱/)`` counts one column less than it takes,
#: so 20 already means full.
FULL_LINE = 20


@dataclass(slots=True)
class Run:
    """A stretch of the main body: running text, a chain of bracket groups, or a title line."""

    kind: str  # big | group | para
    start: int
    end: int
    line: int  # index into Flat.lines


@dataclass(slots=True)
class Part:
    """A stretch of the main body with its layer decided (``zhu+jing``: to be split)."""

    kind: str  # jing | zhuan | zhu | zhu+jing | yinyi | shu | para | orphan | cont
    start: int  # text start (after any label)
    end: int
    label: tuple[int, int] | None = None  # the marker before the text
    subtype: str | None = None
    cert: str | None = None
    line: int = 0  # source line
    follow: str = ""  # for 注: what ends it (注, ○, shu, yinyi, end)
    splits: list[int] = field(default_factory=list)  # where a 疏 turns to the 注 (注釋曰)
    marks: list[int] = field(default_factory=list)  # the 注 of 注釋曰 and the 傳 of 傳釋曰 not at a split: labels
    resume: str = "jing"  # for 注: the layer of running text hidden at its end (zhuan inside a 传)


def jingu_end(span: str, before: str) -> tuple[int, int | None]:
    """Where the last 今文/古文 note of ``span`` ends: (the 注 reaches at least here, the exact end if known).

    ``今文X爲Y``: Y is one character (a variant reading).  ``今文無X``/``曰X``/``有X``
    (also ``今文W無X``, W the 经's wording): X quotes the 经 the 注 comments on
    (``before``), as far as that quotation goes (one character may differ: that
    is the variant the note is about), and the note may go on (``又曰X``).
    Without a note: (1, None).
    """
    m: re.Match[str] | None  # a 今文/古文 note below, then the optional matches after it
    last = None
    for m in JINGU_RE.finditer(span):
        last = m
    if last is None:
        return 1, None
    pos = last.end()
    if m := JINGU_SWAP_RE.match(span, pos):
        return m.end(), m.end()
    end = None
    while m := JINGU_QUOTE_RE.match(span, pos):
        what = m.group("what").lstrip("又")  # 今文X無Y: X is the 经's wording, quoted too
        n = quoted_length(span, m.end(), before)
        if n == 0 or (what and quoted_length(what, 0, before) < len(what)):
            break
        end = pos = m.end() + n
    return (end, end) if end is not None else (pos + 1, None)


def lemma_at(span: str, following: str, lo: int) -> int | None:
    """Where the 经 that the next 注 opens on (its lemma) stands in ``span``: the 经 reaches back at least there.

    郑玄 opens a 注 by quoting the word of the 经 he explains (``注斯禁禁切地無足者也``
    after ``…兩壺斯禁…``, ``注自由也`` after ``自席前…``): when the opening of the
    following 注 occurs in ``span``, the 经 part holds it.  The last occurrence is
    taken (the 经 is the tail of the span); None when the opening is not there.
    """
    for n in range(min(LEMMA_MAX, len(following)), LEMMA_MIN - 1, -1):
        at = span.rfind(following[:n], lo)
        if at >= 0:
            return at
    return None


def no_bare_quote(span: str, before: str, bonus: dict[int, float]) -> None:
    """Forbid (in ``bonus``, by split point) the splits of ``span`` whose 注 would only repeat the 经 before it.

    郑玄 quotes the word he explains and then explains it (``注取觚將就瓦甒酌膳`` after
    ``…主人升坐取觚``): a 注 is never the bare quotation.  Of the 1,684 注 of 篇一–八 whose
    both ends the markers give (``注`` … 音義/疏/○), none is a stretch of the 经 it follows;
    so a split that leaves only ``取觚`` in the 注 (and ``將就瓦甒酌膳`` to the 经) is wrong.
    """
    if not before:
        return
    folded_before = fold(before)
    folded_span = fold(span)  # fold keeps lengths: a prefix of the folded span is the folded prefix
    for k in range(1, len(span)):
        if folded_span[:k] not in folded_before:
            break  # a longer 注 contains this one: no longer a bare quotation either
        bonus[k] = bonus.get(k, 0.0) - BARE_QUOTE_PENALTY


def shared_runs(span: str, source: str) -> list[float]:
    """For each character of ``span``: 1 if it lies in a run of 3+ characters also found in
    ``source``, :data:`ECHO_PAIR` if only in a shared pair, else 0 (longest run at each start)."""
    weight = [0.0] * len(span)
    if not source:
        return weight
    for i in range(len(span) - 1):
        # the longest run from i found in source: every shorter one from i is found too, so the
        # runs are tried upwards from the pair, and most starts stop at their first (absent) pair
        top = min(ECHO_MAX, len(span) - i)
        n = 1
        while n < top and span[i:i + n + 1] in source:
            n += 1
        if n >= 2:
            w = ECHO_PAIR if n == 2 else 1.0
            for t in range(i, i + n):
                weight[t] = max(weight[t], w)
    return weight


def echo_bonus(span: str, before: str, following: str) -> dict[int, float]:
    """Bonus (nats) for each split ``k`` of ``span`` from the words its two neighbours echo.

    郑玄 explains the 经 he has just quoted in its own words (``注三耦同入次其出也一上射出西面立…
    當楅楅正南之東西`` after ``…一耦出西面揖當楅北面揖…``), and the next 注 does the same for
    the 经 hidden at the end of the span (``横弓者南踣弓也`` after ``…上射揖進坐横弓…``).
    So a run the span shares with the 经 before it is evidence for 注 where it stands, and a
    run shared with the next 注 evidence for 经.  The 经 is formulaic and the 注 repeats
    itself, so this is weighed against the character models, never a rule: per character
    ``e = ECHO_BEFORE·w_before − ECHO_NEXT·w_next``, and a split at ``k`` gains
    ``Σ_{i<k} e_i − Σ_{i≥k} e_i`` (up to a constant, twice the prefix sum).
    """
    w_before = shared_runs(span, before)
    w_next = shared_runs(span, following)
    bonus: dict[int, float] = {}
    acc = 0.0
    for k in range(len(span) + 1):
        bonus[k] = 2 * acc
        if k < len(span):
            acc += ECHO_BEFORE * w_before[k] - ECHO_NEXT * w_next[k]
    return bonus


def quoted_length(text: str, start: int, source: str) -> int:
    """How many characters of ``text`` from ``start`` quote ``source``, one substitution allowed.

    A substitution only counts when two matching characters follow it, so that the
    quotation does not swallow the first character of what comes after it.
    """
    best = 0
    for p in range(len(source)):
        miss = -1
        i = 0
        while start + i < len(text) and p + i < len(source):
            if text[start + i] != source[p + i]:
                if miss >= 0:
                    break
                miss = i
            i += 1
            if text[start + i - 1] == source[p + i - 1] and (miss < 0 or i - 1 - miss >= 2):
                best = max(best, i)
    return best


class ZhushuLayerer:
    """Decides the layers of a flattened 注疏 卷 and returns them as :class:`Seg` records."""

    def __init__(self, b: WitnessBuilder, flat: Flat, groups: list[Group],
                 voices: "dict[str, Counter[tuple[str, str]]] | None" = None) -> None:
        self.b = b
        self.flat = flat
        self.groups = groups
        self.parts: list[Part] = []
        self.folded = fold(flat.text)  # markers are matched in their folded form (䟽 = 疏, 註 = 注)
        self.in_zhuan = False  # running text without a ○ continues an open 传 (喪服)
        self.saw_zhuan = False  # the 卷 has shown a 传: ``傳曰`` after a 注 may open one
        self.voices = shipped_voices() if voices is None else voices  # the models' prior

    def certain_texts(self) -> dict[str, list[str]]:
        """The stretches whose layer no inference decided: 经 and 注 as the markers delimit them.

        What the boundary models learn from (and what ``scripts/build_zhushu_voices.py`` counts
        for the shipped prior).
        """
        kinds, kz = self._line_kinds()
        self._parts(self._runs(kinds, kz), kinds)
        self._find_mismarked_zhu()
        return self._certain()

    def _certain(self) -> dict[str, list[str]]:
        """经 and 注 stretches whose both ends a marker gives.

        A 注 that ends at a ○ is not one of them: the ○ may close a 经 passage hidden at the
        end of that 注 (:meth:`_may_split`), so its end is a guess.  Learnt as 注, such a
        stretch teaches the 注 model the very 经 it hides (``…告曰某賢於某若干純若干竒若左右鈞
        則左右各執一算…興共而俟○``, 卷七): the models would then keep it whole.
        """
        text = self.flat.text
        return {kind: [text[p.start:p.end] for p in self.parts if p.kind == kind and p.end > p.start
                       and not (kind == "zhu" and p.follow in MAY_SPLIT)]
                for kind in ("jing", "zhu")}

    def run(self) -> list[Seg]:
        kinds, kz = self._line_kinds()
        self._parts(self._runs(kinds, kz), kinds)
        self._find_mismarked_zhu()
        self._split_zhu()
        self._mark_zhu_parts_of_shu()
        segs = self._segments()
        if kz < len(self.flat.lines):
            segs += KaozhengLayerer(self.b, self.flat).segments(kz, kinds)
        return segs

    # -- lines ------------------------------------------------------------------
    def _line_kinds(self) -> tuple[dict[int, str], int]:
        """Title lines (index → paratext kind) and the index where the 考證 starts (len(lines) if none)."""
        kinds: dict[int, str] = {}
        kz = len(self.flat.lines)
        for i, pl in enumerate(self.flat.lines):
            kind = paratext_kind(pl.body)
            if pl.heading:
                kind = "head"
            elif i > kz:
                kind = kind if kind in ("title", "kaozheng") else None  # 考證 entries are indented too
            elif kind in ("pian", "resp") and not pl.indent:
                kind = None  # a flush line is text unless it is a 卷 title
            elif kind is None and pl.indent:
                kind = "head"
            if kind:
                kinds[i] = kind
                if kind == "kaozheng" and kz == len(self.flat.lines):
                    kz = i
        return kinds, kz

    # -- pass 1: runs → parts ----------------------------------------------------
    def _runs(self, kinds: dict[int, str], stop: int) -> list[Run]:
        """Running text, group chains and title lines of the main body (lines before ``stop``)."""
        runs: list[Run] = []
        groups = self.groups
        gi = 0
        for i, start, end in zip(range(stop), self.flat.starts, self.flat.ends):
            if i in kinds:
                runs.append(Run("para", start, end, i))
                while gi < len(groups) and groups[gi].line <= i:
                    gi += 1
                continue
            pos = start
            while gi < len(groups) and groups[gi].line == i:
                g = groups[gi]
                close = min(g.close + 1, end)
                self._add_run(runs, Run("big", pos, g.open, i))
                self._add_run(runs, Run("group", g.open, close, i))
                pos = close
                gi += 1
            self._add_run(runs, Run("big", pos, end, i))
        return runs

    def _add_run(self, runs: list[Run], run: Run) -> None:
        """Append, joining running text across lines and groups into chains (a blank may sit between)."""
        if run.start >= run.end:
            return
        last = runs[-1] if runs else None
        if last is not None and last.end == run.start:
            blank = run.kind == "big" and not self.flat.text[run.start:run.end].strip()
            if last.kind == run.kind != "para" or (last.kind == "group" and blank):
                last.end = run.end
                return
        runs.append(run)

    def _parts(self, runs: list[Run], kinds: dict[int, str]) -> None:
        after = "para"  # what came before: para | shu | yinyi | text | orphan
        self.in_zhuan = False
        for r, run in enumerate(runs):
            n = self.flat.lines[run.line].n
            if run.kind == "para":
                self.parts.append(Part("para", run.start, run.end, subtype=kinds[run.line], line=n))
                after = "para"
                self.in_zhuan = False
            elif run.kind == "group":
                after = self._group_part(runs, r, after, n)
            else:
                marker = self._group_marker(runs, r + 1) if r + 1 < len(runs) else None
                body_end = marker[0] if marker else run.end
                self._big(run.start, body_end, after, n, follow=marker[1] if marker else "end")
                after = "text"

    def _group_part(self, runs: list[Run], r: int, after: str, line: int) -> str:
        run = runs[r]
        marker = self._group_marker(runs, r)
        if marker is not None:
            if self.folded[marker[0]] == ZHU:
                self.b.warn("mismarked-shu", "'注' right before a double-column group that opens with 釋曰: read as "
                                             "the 疏 marker", line)
            self.parts.append(Part(marker[1], run.start, run.end, label=(marker[0], run.start), line=line))
            return marker[1]
        if after in ("shu", "yinyi"):  # a chain interrupted by a title line goes on
            self.parts.append(Part(after, run.start, run.end, line=line))
            return after
        self.b.warn("unmarked-group", "a double-column group with no 疏/音義 marker; kept as text where it "
                                      f"stands: ({self.flat.reading(run.start, run.end)})", line)
        self.parts.append(Part("orphan", run.start, run.end, line=line))
        return "orphan"

    def _group_marker(self, runs: list[Run], r: int) -> tuple[int, str] | None:
        """The 音義/疏 marker that ends the running text before group run ``r``: (its start, layer)."""
        if r == 0 or runs[r].kind != "group" or runs[r - 1].kind != "big":
            return None
        prev = runs[r - 1]
        found = group_marker(self.folded[prev.start:prev.end])
        if found is None and self.folded[prev.end - 1] == ZHU and SHU_OPEN_RE.match(
                fold(self.flat.reading(runs[r].start, runs[r].end))):
            found = (1, "shu")  # a 疏 written with '注' (卷六: ``取象觚者東面注(釋曰…``)
        return (prev.end - found[0], found[1]) if found else None

    def _big(self, start: int, end: int, after: str, line: int, follow: str) -> None:
        """Running text: 经 (or 传) and 注 parts, cut at the ○ and 注 markers (and ``傳曰`` after a 注)."""
        bounds: list[tuple[int, str | None]] = [(start, None)]
        bounds += self._zhuan_after_zhu(big_marks(self.flat.text, self.folded, start, end), end)
        if after in ("shu", "yinyi", "para") and opens_ji(self.folded, start):
            self.in_zhuan = False  # the 記 of the 篇 is 经, whatever 传 came before it
        for j, (p, mark) in enumerate(bounds):
            stop = bounds[j + 1][0] if j + 1 < len(bounds) else end
            if mark is None:
                if stop > p:
                    if after == "orphan":
                        self.parts.append(Part("cont", p, stop, line=line))
                    else:
                        self._text(p, stop, None, line)
            elif mark == "○":
                self.in_zhuan = False  # a ○ opens a new 经 passage
                self._text(p + 1, stop, (p, p + 1), line)
            elif mark == "傳":
                self.parts.append(Part("zhuan", p, stop, line=self._line_of(p)))
                self.in_zhuan = True
            else:
                nxt = bounds[j + 1][1] if j + 1 < len(bounds) else follow
                kind = "zhu+jing" if nxt == "注" else "zhu"
                self.parts.append(Part(kind, p + 1, stop, label=(p, p + 1), line=line, follow=nxt or "end",
                                       resume="zhuan" if self.in_zhuan else "jing"))

    def _zhuan_after_zhu(self, marks: list[tuple[int, str]], end: int) -> list[tuple[int, str]]:
        """Add the 传 openings that follow a 注 directly (``○舅注母之兄弟傳曰何以緦…``, 喪服).

        Only in a 卷 that has already shown 子夏's 传, and never where 郑玄 cites a book
        (``春秋傳曰``, :func:`.zhuan.is_citation`): other 篇 quote 傳 in their 注 too.
        """
        if not self.saw_zhuan:
            return marks
        out: list[tuple[int, str]] = []
        for j, (p, mark) in enumerate(marks):
            out.append((p, mark))
            if mark != ZHU:
                continue
            stop = marks[j + 1][0] if j + 1 < len(marks) else end
            at = next((a for a in zhuan_openings(self.folded, p + 1, stop)
                       if a > p + 1 and not is_citation(self.folded, a)), None)
            if at is not None:
                out.append((at, "傳"))
        return out

    def _text(self, start: int, end: int, label: tuple[int, int] | None, line: int) -> None:
        """经 running text, or 子夏's 传 where ``傳曰`` opens it or an open 传 goes on (喪服)."""
        if self.in_zhuan:
            self.parts.append(Part("zhuan", start, end, label=label, line=line))
            return
        at = zhuan_opening(self.folded, start, end)
        if at is None:
            self.parts.append(Part("jing", start, end, label=label, line=line))
            return
        if at > start or label:
            self.parts.append(Part("jing", start, at, label=label, line=line))
        self.parts.append(Part("zhuan", at, end, line=self._line_of(at)))
        self.in_zhuan = self.saw_zhuan = True

    # -- the 疏 that betrays a hidden 注 ---------------------------------------------
    def _find_mismarked_zhu(self) -> None:
        """A 疏 opening with 注釋曰 after a passage with no 注: the 注 hides behind a '疏' character."""
        out: list[Part] = []
        unit = 0  # where the current passage starts in ``out``
        for part in self.parts:
            if part.kind in ("jing", "para"):
                unit = len(out)
            if part.kind == "shu" and not any(q.kind.startswith("zhu") for q in out[unit:]) \
                    and ZHU_PART_RE.match(fold(self.flat.reading(part.start, part.end).lstrip("("))):
                self._split_mismarked(out, unit, part)
            out.append(part)
        self.parts = out

    def _split_mismarked(self, out: list[Part], unit: int, shu: Part) -> None:
        text = self.flat.text
        for k in range(len(out) - 1, unit - 1, -1):
            p = out[k]
            at = self.folded.rfind(SHU, p.start, p.end) if p.kind == "jing" else -1
            if at > p.start:
                zhu = Part("zhu", at + 1, p.end, label=(at, at + 1), cert="low", line=self._line_of(at))
                p.end = at
                out.insert(k + 1, zhu)
                self.b.warn("mismarked-zhu", "'疏' followed by running text, before a 疏 on the 注: read as the "
                                             f"注 marker (…{text[max(p.start, at - 6):at]}|疏{text[at + 1:at + 9]}…)", zhu.line)
                return
        self.b.warn("shu-without-zhu", "a 疏 on the 注 (注釋曰) follows a passage with no 注", shu.line)

    # -- pass 2: where the 注 ends ----------------------------------------------------
    def _split_zhu(self) -> None:
        """Split every 注 that must (or, before a ○, may) hide a 经 passage at its end."""
        text = self.flat.text
        certain = self._certain()
        zhu_m = CharModel(certain["zhu"], self.voices.get("zhu"))
        jing_m = CharModel(certain["jing"], self.voices.get("jing"))
        prior = LengthPrior(len(t) for t in certain["zhu"])
        trained = min(zhu_m.total, jing_m.total) >= MIN_TRAINING
        out: list[Part] = []
        before = ""  # the 经 the current 注 comments on
        for i, p in enumerate(self.parts):
            if p.kind == "zhu+jing":
                nxt = self.parts[i + 1] if i + 1 < len(self.parts) else None
                lemma = text[nxt.start:nxt.end] if nxt is not None and nxt.kind.startswith("zhu") else ""
                out.extend(self._must_split(p, zhu_m, jing_m, prior, before, lemma))
            elif trained and p.kind == "zhu" and p.follow in MAY_SPLIT and p.end - p.start >= 2 * MIN_PART:
                out.extend(self._may_split(p, zhu_m, jing_m, prior, before))
            else:
                out.append(p)
            if out[-1].kind in ("jing", "zhuan"):
                before = text[out[-1].start:out[-1].end]
        self.parts = out

    def _must_split(self, p: Part, zhu_m: CharModel, jing_m: CharModel, prior: LengthPrior,
                    before: str, following: str = "") -> list[Part]:
        span = self.flat.text[p.start:p.end]
        if len(span.strip()) < 2:
            self.b.warn("zhu-boundary", "a 注 followed by another 注 with no 经 between; kept as 注", p.line)
            return [Part("zhu", p.start, p.end, label=p.label, line=p.line)]
        lo, exact = jingu_end(span, before)
        bonus = echo_bonus(span, before, following)
        no_zhu_end(span, bonus)
        no_bare_quote(span, before, bonus)
        if exact is not None:
            bonus[exact] = bonus.get(exact, 0.0) + JINGU_BONUS
        if (at := lemma_at(span, following, lo)) is not None:
            for k in range(at + 1, len(span)):
                bonus[k] = bonus.get(k, 0.0) - LEMMA_PENALTY
        split = best_split(span, zhu_m, jing_m, lo=lo, min_part=MIN_PART, bonus=bonus, length_prior=prior)
        unsure = split.margin < UNSURE_MARGIN
        if unsure:
            self._warn_boundary(p.start, p.start + split.at, p.end, "where the 注 ends and the 经 resumes is inferred")
        return self._cut(p, p.start + split.at, "low" if unsure else None)

    def _may_split(self, p: Part, zhu_m: CharModel, jing_m: CharModel, prior: LengthPrior,
                   before: str = "") -> list[Part]:
        span = self.flat.text[p.start:p.end]
        lo, exact = jingu_end(span, before)
        if exact is not None and exact >= len(span) - 1:
            return [p]  # the 注 closes with its 今文/古文 note: nothing after it to be 经
        bonus = {exact: JINGU_BONUS} if exact is not None else {}
        no_zhu_end(span, bonus)
        no_bare_quote(span, before, bonus)
        split = best_split(span, zhu_m, jing_m, lo=lo, min_part=MIN_PART, bonus=bonus, length_prior=prior)
        # The two readings are scored alike: each pays the length of the 注 it proposes, and
        # each ends its last stretch at the ○ (the 注's end is in whole_zhu, the 经's added here).
        gain = (split.score + jing_m.logp(span[-1], END)) - (whole_zhu(span, zhu_m) + prior.logp(len(span)))
        if gain <= MAY_SPLIT[p.follow]:
            return [p]
        at = p.start + split.at
        self._warn_boundary(p.start, at, p.end, f"a 经 passage is read between the 注 and the {p.follow}")
        return self._cut(p, at, "low")

    def _cut(self, p: Part, at: int, cert: str | None) -> list[Part]:
        return [Part("zhu", p.start, at, label=p.label, line=p.line),
                Part(p.resume, at, p.end, cert=cert, line=self._line_of(at))]

    def _warn_boundary(self, start: int, at: int, end: int, what: str) -> None:
        text = self.flat.text
        self.b.warn("zhu-boundary", f"{what}: …{text[max(start, at - 8):at]}|{text[at:min(end, at + 8)]}…",
                    self._line_of(at))

    def _line_of(self, pos: int) -> int:
        return self.flat.lines[max(0, bisect.bisect_right(self.flat.starts, pos) - 1)].n

    # -- the 疏 on the 注 -------------------------------------------------------------
    def _mark_zhu_parts_of_shu(self) -> None:
        for p in self.parts:
            if p.kind != "shu":
                continue
            offsets: list[int] | None = None  # made only for a 疏 that holds a part on the 注
            reading = self.flat.reading(p.start, p.end, self.folded)
            for m in ZHU_PART_RE.finditer(reading):
                offsets = offsets or self.flat.kept_offsets(p.start, p.end)
                if m.start() == 0:
                    p.subtype = "zhu-part"
                    p.marks.append(offsets[0])
                else:
                    p.splits.append(offsets[m.start()])
            for m in ZHUAN_PART_RE.finditer(reading):  # 傳釋曰: the part on the 傳 (喪服), marked, not split
                offsets = offsets or self.flat.kept_offsets(p.start, p.end)
                p.marks.append(offsets[m.start()])

    # -- segments ------------------------------------------------------------------
    def _segments(self) -> list[Seg]:
        segs: list[Seg] = []
        layer: str | None = None  # layer of the open piece
        for p in self.parts:
            layer = self._part_segments(segs, p, layer)
        return segs

    def _part_segments(self, segs: list[Seg], p: Part, layer: str | None) -> str | None:
        if p.kind in ("cont", "orphan"):
            if layer is None:
                segs.append(Seg(p.start, p.end, "jing", cert="low"))
                return "jing"
            segs.append(Seg(p.start, p.end))  # stays in the open piece
            return layer
        if p.kind == "para":
            segs.append(Seg(p.start, p.end, "paratext", subtype=p.subtype))
            return "paratext"
        new_unit = p.kind == "jing" or layer in (None, "paratext")
        opener = Seg(p.start, p.end, p.kind, subtype=p.subtype, cert=p.cert, new_unit=new_unit)
        if p.label:
            segs.append(Seg(p.label[0], p.label[1], p.kind, label=True, subtype=p.subtype, cert=p.cert,
                            new_unit=new_unit))
            opener.layer = None  # the label opened the piece
        cuts = [p.start] + p.splits + [p.end]
        own: list[Seg] = []
        for k, (a, z) in enumerate(zip(cuts, cuts[1:])):
            if k == 0:
                opener.end = z
                own.append(opener)
            else:  # …注釋曰…: a second piece, on the 注, opened by its marker
                own += [Seg(a, a + 1, p.kind, label=True, subtype="zhu-part", new_unit=False), Seg(a + 1, z)]
        segs += _labelled(own, p.marks)
        return p.kind


def _labelled(segs: list[Seg], marks: list[int]) -> list[Seg]:
    """``segs`` with the character at each of ``marks`` made a label of the piece it stands in (the 注 of a 疏 that
    opens with 注釋曰, the 傳 of 傳釋曰): a segment that opens a piece at the mark opens it with the label."""
    out = list(segs)
    for x in sorted(marks):
        t = next(t for t, sg in enumerate(out) if sg.start <= x < sg.end)
        sg = out[t]
        rest = Seg(x + 1, sg.end)
        if sg.start == x:
            sg.end, sg.label = x + 1, True
            out[t : t + 1] = [sg, rest]
        else:
            sg.end = x
            out[t : t + 1] = [sg, Seg(x, x + 1, None, label=True), rest]
    return [sg for sg in out if sg.end > sg.start or sg.layer is not None]


class KaozhengLayerer:
    """The 四库 editors' 考證 at the end of the 卷: a ``back`` div of ``kaozheng`` entries.

    Each entry is headed by the text it discusses (``lemma``, up to the ``○``)
    and goes on with the note (``note``).  A flush-left line starts an entry; an
    indented line continues it, unless the line before was short (that entry
    ended): entries on the 疏 are indented (``　疏引孝經説…○(臣紱/)按…``).
    """

    def __init__(self, b: WitnessBuilder, flat: Flat) -> None:
        self.b = b
        self.flat = flat

    def segments(self, start_line: int, kinds: dict[int, str]) -> list[Seg]:
        flat = self.flat
        segs: list[Seg] = []
        div = ("back", self.b.meta.juan or None, "考證")
        prev_full = False
        in_lemma = False
        for i in range(start_line, len(flat.lines)):
            pl = flat.lines[i]
            start, end = flat.line_range(i)
            if i in kinds:
                segs.append(Seg(start, end, "paratext", subtype=kinds[i]))
                prev_full = False
                continue
            new_entry = not pl.indent or not prev_full
            prev_full = columns(pl.body) + pl.indent >= FULL_LINE
            ring = flat.text.find("○", start, end)
            if new_entry:
                in_lemma = True
                segs.append(Seg(start, ring if ring >= 0 else end, "kaozheng", subtype="lemma", new_unit=True))
            elif ring < 0 or not in_lemma:
                segs.append(Seg(start, end))
                continue
            else:
                segs.append(Seg(start, ring))
            if ring >= 0 and in_lemma:
                segs.append(Seg(ring, ring + 1, "kaozheng", label=True, subtype="note", new_unit=False))
                segs.append(Seg(ring + 1, end))
                in_lemma = False
        if segs:
            segs[0].div = div
        return [s for s in segs if s.end > s.start or s.div]
