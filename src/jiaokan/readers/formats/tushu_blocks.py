"""Reader for 《古今图书集成》 戎政典 卷275 射部汇考一 (``002``, ``tushu-blocks``).

The export is a sequence of *blocks* separated by blank lines:

* before the 卷 title (``戎政典第二百七十五卷``): the site header, the collection
  title and the table of contents → paratext in a ``front`` div;
* between the 卷 title and the first section title: the 部 heading
  (``射部汇考一``) → ``head`` of the chapter div;
* a block of one line made only of ``《…》`` groups (``《诗经》《小雅宾之初筵》``,
  ``《地官》``, ``《考工记》``) is a section title → a new ``section`` div whose
  first piece is a paratext ``head``.  Two groups name a new book and its
  chapter, one group a chapter of the current book.  A title may end with a
  layer tag (``《射义》〈正义〉``): the tag governs the block that follows (孔颖达's
  preface to the chapter, which quotes ``《郑目录》``);
* any other block: the first line is the classic (经), the following lines are
  commentary.

Commentary is opened either by a *tag* (``〈朱注〉 〈陈注〉 〈注〉 〈正义〉 〈订义〉``)
or by a *named commentator* (``郑康成曰:`` ``贾氏曰:`` …; several on one line,
separated by a space).  Each opener starts a new piece; the tag or name is kept
as a :class:`~jiaokan.model.Label`.  A line that does not start with an opener
and follows a line cut mid-sentence is a wrapped continuation and joins the
piece before it.

Who speaks, and what a scholar expects
--------------------------------------
The tagged commentaries are single works, and the authorities they quote stay
inside them: ``〈陈注〉吕氏曰:…`` is 陈澔's 集说 quoting 吕大临, so the piece is
陈澔's and the quotation is not split off.  The 周礼 section is different: it
comes from 王与之《周礼订义》, a compilation whose every paragraph is a named
quotation (``〈订义〉史氏曰:… 郑康成曰:…``).  There the scholar looks for *who
said it*, so each named quotation becomes its own piece with ``resp`` = the
quoted author (郑玄's 周礼注 as layer ``zhu``, 贾公彦's 周礼疏 as ``shu``), and
``subtype="dingyi"`` records that the words reach us through 订义 (and may be
abridged there).  The 订义 context starts at the ``〈订义〉`` tag and lasts until
the next book title.  Named openers later in the 周礼 section carry no tag but
are the same compilation.

Where the classic and its first comment share a line (``…诏相其法。郑康成曰:…``)
the line is split at the commentator's name, but only for names in
:data:`COMMENTATORS`: the classic itself says ``孔子曰:`` and ``其辞曰:``.
Inside a named quotation, a name after a space always opens a new quotation
(an unidentified one keeps the name as written for ``resp`` and is reported);
a name right after ``。`` with no space opens one only if it is known or of
the ``X氏`` form (``。赵氏曰:``), since authors quote ``梓人曰`` ``孔子曰`` in passing.

Dropped on purpose: nothing (blank lines hold no text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...model import Witness, WitnessMeta
from ..common.base import Reader, ReaderError, SourceText, WitnessBuilder
from ..registry import register

#: Layer tags → (layer, resp).  正义 is the 疏 of the 礼记 (孔颖达), 〈注〉 郑玄's 礼记注.
TAGS: dict[str, tuple[str, str]] = {
    "朱注": ("commentary", "朱熹"),
    "朱註": ("commentary", "朱熹"),
    "陈注": ("commentary", "陈澔"),
    "陳注": ("commentary", "陈澔"),
    "注": ("zhu", "郑玄"),
    "註": ("zhu", "郑玄"),
    "正义": ("shu", "孔颖达"),
    "正義": ("shu", "孔颖达"),
    "订义": ("commentary", "王与之"),
    "訂義": ("commentary", "王与之"),
}

#: The tag that opens a compilation of named quotations (王与之《周礼订义》).
COMPILATION_TAGS = frozenset({"订义", "訂義"})

#: Named commentators as the 订义 (and 图书集成) cite them → (layer, resp).
#: Only names we can identify with confidence; others keep the name as written.
COMMENTATORS: dict[str, tuple[str, str]] = {
    "郑康成": ("zhu", "郑玄"),
    "鄭康成": ("zhu", "郑玄"),
    "郑司农": ("commentary", "郑众"),
    "鄭司農": ("commentary", "郑众"),
    "贾氏": ("shu", "贾公彦"),
    "賈氏": ("shu", "贾公彦"),
    "易氏": ("commentary", "易祓"),
    "郑锷": ("commentary", "郑锷"),
    "鄭鍔": ("commentary", "郑锷"),
    "王昭禹": ("commentary", "王昭禹"),
}

TITLE_RE = re.compile(r"^\s*(?P<groups>(?:《[^《》\s]+》)+)\s*(?:〈(?P<tag>[^〈〉\s]{1,4})〉)?\s*$")
JUAN_TITLE_RE = re.compile(r"^\s*\S*第[一二三四五六七八九十百千〇零]+卷\s*$")
TOC_RE = re.compile(r"目录|目錄")
COLLECTION_RE = re.compile(r"图书集成|圖書集成")
TAG_RE = re.compile(r"〈(?P<name>[^〈〉\s]{1,4})〉")
NAME_HERE_RE = re.compile(r"(?P<name>[\u3400-\u9fff]{1,5})曰[:：]")
NAME_RE = re.compile(r"(?:^|(?<=[\s\u3000。]))" + NAME_HERE_RE.pattern)
SENTENCE_END = tuple("。!?！？」』”")


@dataclass(frozen=True)
class Opener:
    """A tag or a commentator's name that opens a piece at ``start`` in a line."""

    kind: str  # "tag" | "name"
    name: str
    start: int
    end: int
    spaced: bool  # at the line start or after a space (not glued to 。)


@dataclass
class _State:
    mode: str = "none"  # "jing" | "tagged" | "named" | "paratext" | "none"
    layer: str | None = None
    resp: str | None = None
    subtype: str | None = None
    compilation: bool = False  # inside 订义: named quotations are its paragraphs
    pending_tag: tuple[str, str] | None = None  # (tag, label) from a title line


def _is_title(line: str) -> re.Match[str] | None:
    return TITLE_RE.match(line)


def _groups(m: re.Match[str]) -> list[str]:
    return re.findall(r"《([^《》]+)》", m.group("groups"))


def known_opener_at_start(line: str) -> Opener | None:
    """A known tag or known commentator opening ``line`` (used to tell commentary from 经)."""
    s = line.lstrip()
    off = len(line) - len(s)
    m = TAG_RE.match(s)
    if m and m.group("name") in TAGS:
        return Opener("tag", m.group("name"), off, off + m.end(), True)
    m = NAME_RE.match(s)
    if m and m.group("name") in COMMENTATORS:
        return Opener("name", m.group("name"), off, off + m.end(), True)
    return None


def any_name_at_start(line: str) -> Opener | None:
    """``X曰:`` at the start of ``line`` with a name-like X of 2–5 characters."""
    s = line.lstrip()
    off = len(line) - len(s)
    m = NAME_RE.match(s)
    if m and len(m.group("name")) >= 2:
        return Opener("name", m.group("name"), off, off + m.end(), True)
    return None


def candidate_openers(line: str, start: int = 0) -> list[Opener]:
    """Every place in ``line`` (from ``start``) where a known tag or an ``X曰:`` could open a piece."""
    found: list[Opener] = []
    for m in TAG_RE.finditer(line, start):
        if m.group("name") in TAGS:
            found.append(Opener("tag", m.group("name"), m.start(), m.end(), True))
    for m in NAME_RE.finditer(line, start):
        prev = line[m.start() - 1] if m.start() > 0 else ""
        found.append(Opener("name", m.group("name"), m.start(), m.end(), prev != "。"))
    found.sort(key=lambda o: o.start)
    return found


@register
class TushuBlocksReader(Reader):
    name = "tushu-blocks"
    description = (
        "图书集成 卷275 blocks: a classic line, then commentary lines tagged 〈朱注〉〈陈注〉〈注〉〈正义〉〈订义〉 "
        "or opened by named commentators (郑康成曰:), section titles 《周礼》《天官》 (002)"
    )

    def sniff(self, src: SourceText) -> float:
        head = src.lines[:600]
        tagged = sum(1 for ln in head if (o := known_opener_at_start(ln)) and o.kind == "tag")
        named = sum(1 for ln in head if (o := known_opener_at_start(ln)) and o.kind == "name")
        titles = sum(1 for ln in head if (m := _is_title(ln)) and len(_groups(m)) >= 2)
        if tagged >= 2 and titles >= 1:
            return 0.9
        if named >= 3 and titles >= 1:
            return 0.7
        return 0.0

    def expected(self) -> str:
        return "blank-line blocks with commentary lines starting 〈朱注〉/〈陈注〉/〈注〉 or '郑康成曰:', and titles like 《周礼》《天官》"

    def parse(self, src: SourceText, meta: WitnessMeta) -> Witness:
        # a Wikisource transcription of the unpunctuated 图书集成: the punctuation is modern (the HTML folds it away)
        meta.extra.setdefault("punctuation", "machine")
        return _Parser(src, meta, self.gaiji_table()).run()


def blocks(lines: list[str]) -> list[list[tuple[int, str]]]:
    """Runs of non-blank lines, each line with its 1-based number."""
    out: list[list[tuple[int, str]]] = []
    cur: list[tuple[int, str]] = []
    for i, ln in enumerate(lines, 1):
        if ln.strip():
            cur.append((i, ln))
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


class _Parser:
    """One pass over the blocks, feeding the builder."""

    def __init__(self, src: SourceText, meta: WitnessMeta, gaiji) -> None:
        self.src = src
        self.b = WitnessBuilder(meta, src, gaiji)
        self.st = _State()
        self.book: str | None = None

    # -- structure -------------------------------------------------------------
    def run(self) -> Witness:
        bl = blocks(self.src.lines)
        first_title = next((k for k, blk in enumerate(bl) if len(blk) == 1 and _is_title(blk[0][1])), None)
        if first_title is None:
            raise ReaderError(self.src.path, "no section title such as 《周礼》《天官》: not a 图书集成 block export")
        juan = next((k for k, blk in enumerate(bl[:first_title]) if any(JUAN_TITLE_RE.match(ln) for _, ln in blk)), None)
        front_end = juan if juan is not None else first_title
        self._front(bl[:front_end])
        self.b.div("chapter", self.b.meta.juan or None, self.b.meta.chapter or None)
        for blk in bl[front_end:first_title]:
            self._head_block(blk)
        for blk in bl[first_title:]:
            self._block(blk)
        self._unused_tag()
        return self.b.finish()

    def _front(self, front: list[list[tuple[int, str]]]) -> None:
        """Site header, collection title, table of contents: paratext, one piece per block."""
        if not front:
            return
        self.b.div("front", None, "front matter")
        kind = "site"
        for blk in front:
            if any(TOC_RE.search(ln) for _, ln in blk):
                kind = "toc"
            elif kind != "toc" and any(COLLECTION_RE.search(ln) for _, ln in blk):
                kind = "title"
            self._paratext_block(blk, kind)
            if kind == "title":
                kind = "site"

    def _paratext_block(self, blk: list[tuple[int, str]], subtype: str) -> None:
        for k, (n, ln) in enumerate(blk):
            self.b.line(n)
            if k == 0:
                self.b.piece("paratext", subtype=subtype)
            self.b.text(ln)
        self.st = _State(mode="paratext", compilation=self.st.compilation)

    def _head_block(self, blk: list[tuple[int, str]]) -> None:
        for n, ln in blk:
            self.b.line(n)
            self.b.piece("paratext", subtype="head")
            self.b.text(ln)

    def _block(self, blk: list[tuple[int, str]]) -> None:
        n, first = blk[0]
        if len(blk) == 1 and (m := _is_title(first)):
            self._title(n, first, m)
            return
        self._first_line(n, first)
        for k in range(1, len(blk)):
            self._next_line(blk[k][0], blk[k][1], blk[k - 1][1])
        self.st.pending_tag = None

    def _unused_tag(self) -> None:
        """A title's tag with no block after it to govern (the file ends, or another title
        follows): keep its characters as a label of the heading, and say so."""
        if self.st.pending_tag is None:
            return
        tag, label = self.st.pending_tag
        self.st.pending_tag = None
        self.b.label(label)
        self.b.warn("tag-without-block", f"the tag {label} after a title governs no block; kept in the heading")

    def _title(self, n: int, line: str, m: re.Match[str]) -> None:
        self._unused_tag()
        groups = _groups(m)
        if len(groups) >= 2:
            self.book = groups[0]
            self.st.compilation = False
        path = [self.book] + groups[-1:] if len(groups) == 1 and self.book else groups
        self.b.div("section", None, "·".join(g for g in path if g))
        self.b.line(n)
        self.b.piece("paratext", subtype="head")
        tag = m.group("tag")
        if tag and tag in TAGS:
            cut = line.rindex("〈")
            self.b.text(line[:cut])
            self.st = _State(mode="paratext", compilation=self.st.compilation, pending_tag=(tag, line[cut:]))
        else:
            if tag:
                self.b.warn("unknown-tag", f"title ends with an unknown tag 〈{tag}〉; kept in the heading", n)
            self.b.text(line)
            self.st = _State(mode="paratext", compilation=self.st.compilation)

    # -- lines -----------------------------------------------------------------
    def _first_line(self, n: int, line: str) -> None:
        """The first line of a block: the classic, unless a tag or a known name opens it."""
        self.b.line(n)
        if self.st.pending_tag is not None:
            tag, label = self.st.pending_tag
            self.st.pending_tag = None
            self._open_tag(tag, label, new_unit=True)
            self._feed(line, 0, n)
            return
        op = known_opener_at_start(line)
        if op is not None:
            self.b.warn("block-without-classic",
                        f"block opens with {op.name} and no classic line; read as commentary on the passage before", n)
            self._feed(line, 0, n, opener_at_start=op, new_unit=self.st.mode in ("paratext", "none"))
            return
        self._start_jing()
        self._feed(line, 0, n)

    def _start_jing(self) -> None:
        self.b.piece("jing")
        self.st.mode, self.st.layer, self.st.resp, self.st.subtype = "jing", "jing", None, None

    def _next_line(self, n: int, line: str, prev: str) -> None:
        """A later line of a block: a new comment, or the wrapped rest of the line before."""
        self.b.line(n)
        prev_complete = prev.rstrip().endswith(SENTENCE_END)
        op = known_opener_at_start(line)
        if op is None and prev_complete:
            op = any_name_at_start(line)
        if op is not None:
            self._feed(line, 0, n, opener_at_start=op)
            return
        if not prev_complete:
            self._feed(line, 0, n)  # wrapped: the piece before continues
            return
        if any(o.kind == "name" and o.name in COMMENTATORS for o in candidate_openers(line)):
            # a new classic glued to its first comment, its blank line lost (…诏相其法。郑康成曰:…)
            self.b.warn("missing-blank-line", "line with no opener at its start but a known commentator inside: "
                        "read as a new classic passage whose blank line was lost", n)
            self._start_jing()
            self._feed(line, 0, n)
            return
        # a complete line, then a line with no opener: a new paragraph of unknown voice
        layer = self.st.layer if self.st.mode in ("tagged", "named") else "commentary"
        resp = self.st.resp if self.st.mode in ("tagged", "named") else None
        self.b.piece(layer or "commentary", resp=resp, subtype=self.st.subtype, cert="low", new_unit=False)
        self.b.warn("unmarked-line", f"line with no tag or commentator after a complete line; read as {resp or 'unattributed'} commentary", n)
        if self.st.mode not in ("tagged", "named"):
            self.st.mode, self.st.layer, self.st.resp, self.st.subtype = "tagged", "commentary", None, None
        self._feed(line, 0, n)

    def _feed(self, line: str, pos: int, n: int, *, opener_at_start: Opener | None = None,
              new_unit: bool = False) -> None:
        """Emit ``line[pos:]``, opening a new piece at every opener the current mode accepts."""
        if opener_at_start is not None:
            if opener_at_start.start > pos:
                self.b.text(line[pos:opener_at_start.start])  # leading spaces stay with the piece before
            pos = self._open(opener_at_start, line, n, new_unit=new_unit)
        # the candidates are found once per line and walked in order: searching the rest of the
        # line again after each opener made a line of 10^5 openers quadratic.  (A match found
        # from ``pos`` is one found from an earlier start: no opener can begin inside another.)
        cands = iter(candidate_openers(line, pos))
        while True:
            nxt = next((o for o in cands if o.start >= pos and self._accepts(o, n)), None)
            if nxt is None:
                self.b.text(line[pos:])
                return
            self.b.text(line[pos:nxt.start])
            if self.st.mode == "jing":
                self.b.warn("classic-split", f"classic and commentary share a line: split at {nxt.name}", n)
            pos = self._open(nxt, line, n)

    def _accepts(self, o: Opener, n: int) -> bool:
        """Does an opener found mid-line start a new piece in the current mode?"""
        if o.kind == "tag":
            return self.st.mode != "paratext"
        known = o.name in COMMENTATORS
        if self.st.mode == "jing":
            return known
        if self.st.mode != "named":
            return False  # tagged works quote authorities in passing: 陈注 吕氏曰 stays 陈澔's
        if o.spaced:
            return len(o.name) >= 2
        accepted = known or (len(o.name) == 2 and o.name.endswith("氏"))
        if accepted:
            self.b.warn("unspaced-commentator", f"{o.name}曰 follows 。 with no space; read as a new quotation", n)
        return accepted

    def _open(self, o: Opener, line: str, n: int, *, new_unit: bool = False) -> int:
        """Open the piece ``o`` starts; returns the position after its label(s)."""
        label = line[o.start:o.end]
        if o.kind == "tag":
            follow = NAME_HERE_RE.match(line, o.end)
            if o.name in COMPILATION_TAGS and follow:
                self.st.compilation = True
                self._open_name(follow.group("name"), n, new_unit=new_unit)
                self.b.label(label)
                self.b.label(line[o.end:follow.end()])
                return follow.end()
            self._open_tag(o.name, label, new_unit=new_unit)
            return o.end
        self._open_name(o.name, n, new_unit=new_unit)
        self.b.label(label)
        return o.end

    def _open_tag(self, tag: str, label: str, *, new_unit: bool) -> None:
        layer, resp = TAGS[tag]
        if tag in COMPILATION_TAGS:
            self.st.compilation = True
            self.b.piece(layer, resp=resp, subtype="dingyi", new_unit=new_unit)
            self.st.mode, self.st.layer, self.st.resp, self.st.subtype = "named", layer, resp, "dingyi"
        else:
            self.b.piece(layer, resp=resp, new_unit=new_unit)
            self.st.mode, self.st.layer, self.st.resp, self.st.subtype = "tagged", layer, resp, None
        self.b.label(label)

    def _open_name(self, name: str, n: int, *, new_unit: bool) -> None:
        layer, resp = COMMENTATORS.get(name, ("commentary", name))
        if name not in COMMENTATORS:
            self.b.warn("unknown-commentator", f"commentator {name} is not identified; resp kept as written", n)
        subtype = "dingyi" if self.st.compilation else None
        self.b.piece(layer, resp=resp, subtype=subtype, new_unit=new_unit)
        self.st.mode, self.st.layer, self.st.resp, self.st.subtype = "named", layer, resp, subtype
