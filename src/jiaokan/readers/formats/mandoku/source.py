"""The Mandoku front end: source lines → printed lines → one flattened text with its markup.

Shared by the Mandoku readers (:mod:`.mandoku`): it knows the format — header
and comment lines, drawers, page tags, ``¶``, indentation, double-column
brackets, gaiji entities — and nothing about layers.  The readers decide the
layers as a list of :class:`Seg` over the :class:`Flat` text and hand it to
:func:`emit`, which places every page and line break where the source has it.
"""

from __future__ import annotations


import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Iterator

from ....model import DEFAULT_RESP, Gap, PageBreak, WitnessMeta, ids_code
from ....normalize.numerals import chinese_numeral
from ...common.base import GAIJI_RE, ReaderError, SourceText, WitnessBuilder
from ...common.yili import canonical_pian, pian_heading

# --------------------------------------------------------------------------
# Line shapes of the format

MODE_RE = re.compile(r"^#\s*-\*-.*-\*-\s*$")
HEADER_RE = re.compile(r"^#\+(?P<key>[A-Za-z_]+):\s*(?P<value>.*?)\s*$")
BLOCK_RE = re.compile(r"^#\+(BEGIN|END)_\w+", re.I)
COMMENT_RE = re.compile(r"^#(?:\s|$)")
DRAWER_RE = re.compile(r"^\s*:(?P<name>[A-Za-z_][\w-]*):\s*$")
DRAWER_END_RE = re.compile(r"^\s*:END:\s*$", re.I)
HEADING_RE = re.compile(r"^(?P<stars>\*+)\s+(?P<title>.*)$")
TAG_RE = re.compile(r"<(?P<kind>[a-z]+):(?P<id>[^<>\s]*)>")
TAG_START_RE = re.compile(r"<[a-z]+:")
LACUNA_RE = re.compile(r"page missing|missing page|lacuna|缺頁|缺页|原缺", re.I)

#: Kanripo page ids: ``KR1d0028_WYG_005-1a`` (text, edition, 卷, page).
KANRIPO_PB_RE = re.compile(r"^(?P<text>KR\d[a-z]\d{4}\w*?)_(?P<ed>[A-Za-z0-9]+)_(?P<juan>\d+)-(?P<page>\d+[a-z]?)$")
#: Classic Mandoku page ids: ``T_T14n0475_0537a`` (edition, text, page).
MANDOKU_PB_RE = re.compile(r"^(?P<ed>[A-Za-z0-9]+)_(?P<text>[A-Za-z0-9]+)_(?P<page>[\d-]+[a-z])$")
KANRIPO_ID_RE = re.compile(r"^KR\d[a-z]\d{4}")

INDENT = "\u3000"
#: What a printed line may open with before its text: the indentation, and stray ASCII spaces.
_LEADING = INDENT + " "
NUM = "〇一二三四五六七八九十百"
#: ``儀禮卷第五`` ``儀禮注疏卷五`` ``儀禮注疏卷五考證`` ``儀禮集釋卷五　　宋　李如圭　撰``
JUAN_TITLE_RE = re.compile(rf"^(?P<title>\S{{1,12}}?)[卷巻](?:第)?(?P<n>[{NUM}]+)(?P<kz>考證|考证)?(?:[\s\u3000]+(?P<rest>.*))?$")
SIKU_RE = re.compile(r"^(欽定四庫全書|钦定四库全书)$")
#: ``漢鄭氏注　唐陸德明音義　賈公彦疏``, ``宋　李如圭　撰``: dynasty, name, what they did.
RESP_LINE_RE = re.compile(r"^(?:[漢汉魏晉晋唐宋元明清][\u3000\s]*\S{1,6}?[\u3000\s]*(?:注|疏|音義|音义|撰|集釋|集释)[\u3000\s]*)+$")
#: ``(經三千六百四十五字/注六千九百一十五字)``: the 卷's character counts.
#: The 字 may be left out (``(經五千三百四/注一万九百六十一)``, 卷八).
COUNT_RE = re.compile(rf"^(?:[經经注疏音義义]+[{NUM}千萬万零]+字?)+$")
#: What may follow a count on its line and is more of it: numerals and 字 (``…)十(六字/字)``, 卷十三).
COUNT_TAIL_RE = re.compile(rf"^[{NUM}千萬万零字]+$")

#: Kanripo text ids of the works whose layout each variant knows.
KNOWN_TEXTS = {"KR1d0026": "sbck", "KR1d0028": "zhushu", "KR1d0030": "jishi"}

#: An ideographic description in the text, Kanripo style: ``[沔-丏+丐]`` (沔 less 丏 plus 丐), or with
#: Unicode's description characters (``[⿰氵丐]``): kept as one unresolved character (a ``g``), never as text.
_HAN = "[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003134f]"
IDS_RE = re.compile(rf"\[({_HAN}+(?:[-+]{_HAN}+)+|[\u2ff0-\u2fff](?:[\u2ff0-\u2fff]|{_HAN})+)\]")

#: Placeholders for gaiji entities in a flattened text (one character each).
_PUA0 = 0xF0000


# --------------------------------------------------------------------------
# The front end: source lines → printed lines


@dataclass(slots=True)
class PrintedLine:
    """One printed line of the source, as the transcription gives it.

    ``body`` has no ``¶``, no tags and no indentation (gaiji entities are kept);
    ``indent`` counts the leading full-width spaces; ``breaks`` are the page
    breaks just before it, with a :class:`~jiaokan.model.Gap` in its place where the
    transcription notes a lost page (``<pb:…-7a>¶ # page missing <pb:…-8a>¶``);
    ``cont`` is true when a page tag split one printed line in two and this is the
    part after the tag.
    """

    n: int
    body: str
    indent: int = 0
    breaks: list[PageBreak | Gap] = field(default_factory=list)
    heading: int = 0
    cont: bool = False

    @property
    def after_lacuna(self) -> bool:
        """A lost page comes just before this line: nothing joins across it."""
        return bool(self.breaks) and any(isinstance(x, Gap) for x in self.breaks)  # (most lines have no break)


@dataclass
class Notice:
    """A warning found while scanning, emitted once the builder exists."""

    line: int
    code: str
    message: str


@dataclass
class MandokuDoc:
    """A scanned Mandoku file: header fields, printed lines, trailing page breaks."""

    header: dict[str, str] = field(default_factory=dict)
    lines: list[PrintedLine] = field(default_factory=list)
    trailing: list[PageBreak | Gap] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    first_page_id: str | None = None

    @property
    def text_id(self) -> str | None:
        """The Kanripo text id (``KR1d0028``), from the header or the page tags."""
        for cand in (self.header.get("ID", ""), self.first_page_id or ""):
            m = KANRIPO_ID_RE.match(cand)
            if m:
                return m.group(0)
        return None

    def page_breaks(self) -> Iterator[PageBreak]:
        for pl in self.lines:
            if pl.breaks:  # (most lines have none: no generator made for them)
                yield from (x for x in pl.breaks if isinstance(x, PageBreak))
        yield from (x for x in self.trailing if isinstance(x, PageBreak))


def parse_page_id(page_id: str) -> PageBreak | None:
    """``KR1d0028_WYG_005-1a`` → PageBreak(n='1a', edition='WYG', juan='5', facs=id); None if unknown."""
    m = KANRIPO_PB_RE.match(page_id)
    if m:
        page, ed, juan = m.group("page", "ed", "juan")  # (one call; the fields by position: a page tag a page)
        return PageBreak(page, page_id, ed, str(int(juan)))
    m = MANDOKU_PB_RE.match(page_id)
    if m:
        return PageBreak(n=m.group("page"), facs=page_id, edition=m.group("ed"))
    return None


class _Scanner:
    """Turns the source lines of a Mandoku file into a :class:`MandokuDoc`.

    One job: tell header, comments, drawers, tags and text apart, and cut the
    text into printed lines.  It decides nothing about layers.
    """

    def __init__(self, src: SourceText) -> None:
        self.src = src
        self.doc = MandokuDoc()
        self.breaks: list[PageBreak | Gap] = []
        #: a blank printed line (　¶) came after the pending breaks: a leaf transcribed as blank, not a lost one
        self.blank_leaf = False
        self.drawer: tuple[str, int] | None = None
        self.tab_warned = False

    def run(self) -> MandokuDoc:
        text_line = self._text_line
        out = self.doc.lines
        for n, raw in enumerate(self.src.lines, 1):
            # most lines are text (no drawer open, no '#', ':', TAB or heading star): split at once, as
            # :meth:`_line` would after asking the same, without its call
            if self.drawer is None and ":" not in raw and "\t" not in raw and not raw.startswith(("#", "*")):
                if "<" in raw or not raw.endswith("¶") or raw.count("¶") != 1:
                    text_line(n, raw, 0)
                    continue
                # and most of those are one printed line, its ¶ at the end, no tag: taken as :meth:`_text_line`
                # takes it, without its call, its split and its loop
                body = raw[:-1].rstrip()
                stripped = body.lstrip(_LEADING)
                if stripped:
                    if len(self.breaks) > 1:  # (a lost page's run of breaks: rare)
                        self._empty_pages(n)
                    out.append(PrintedLine(n, stripped, len(body) - len(stripped), self.breaks, 0, False))
                    self.breaks = []
                    self.blank_leaf = False
                elif self.breaks:  # a blank printed line after a break: the leaf is there, blank (not lost)
                    self.blank_leaf = True
            else:
                self._line(n, raw)
        self._cut_mid_line()
        if self.drawer is not None:
            name, opened = self.drawer
            raise ReaderError(self.src.path, f"the drawer :{name}: opened at line {opened} is never closed with :END:", opened)
        self.doc.trailing = self.breaks
        return self.doc

    def _cut_mid_line(self) -> None:
        """Refuse a file that stops in the middle of a text line: no ``¶`` and no line end after its last
        character, in a file whose printed lines end with ``¶``.

        Why: a transcribed line of a Mandoku file ends with ``¶`` and the file with a line end; a download or copy
        cut short stops wherever the bytes ran out.  Read as it stands, the rest of the 卷 would be collated as
        text the witness lacks, and the 案 notes on it reported "not covered": a finding the witness does not
        make.  (A cut exactly at a line end leaves nothing to see, and is not caught here.)"""
        text, lines = self.src.text, self.src.lines
        if not text or text.endswith(("\n", "\r")) or not lines or "¶" not in text:
            return
        last = lines[-1]
        if "¶" in last or not last.strip() or last.startswith(("#", ":")):
            return
        raise ReaderError(self.src.path, f"the file ends in the middle of a line ('{last.strip()[-12:]}', with no ¶ "
                                         "and no line end after it): it looks cut off", len(lines))

    def _line(self, n: int, raw: str) -> None:
        if self.drawer is not None:
            if DRAWER_END_RE.match(raw):
                self.drawer = None
            return
        if raw.startswith("#"):
            self._hash_line(n, raw)
            return
        if ":" in raw and (m := DRAWER_RE.match(raw)):
            if m.group("name").upper() != "END":
                self.drawer = (m.group("name"), n)
            return
        if "\t" in raw:
            raw = raw.split("\t", 1)[0]
            if not self.tab_warned:
                self.doc.notices.append(Notice(n, "annotation", "text after a TAB is a Mandoku annotation, not source text: dropped"))
                self.tab_warned = True
        heading = 0
        if raw.startswith("*") and (m := HEADING_RE.match(raw)):
            heading = len(m.group("stars"))
            raw = m.group("title")
        self._text_line(n, raw, heading)

    def _hash_line(self, n: int, raw: str) -> None:
        if m := HEADER_RE.match(raw):
            key, value = m.group("key").upper(), m.group("value")
            if key == "PROPERTY":
                name, _, value = value.partition(" ")
                self.doc.header[name.strip().upper()] = value.strip()
            else:
                self.doc.header[key] = value
        elif BLOCK_RE.match(raw) or MODE_RE.match(raw):
            pass
        elif COMMENT_RE.match(raw) or raw == "#":
            comment = raw[1:].strip()
            if LACUNA_RE.search(comment):
                self.breaks.append(Gap(desc=comment))
                self.doc.notices.append(Notice(n, "lacuna", f"the transcription notes a lost page ('# {comment}'): "
                                                "the text before and after is not continuous"))
        # any other '#…' line is org markup: not text

    def _empty_pages(self, n: int) -> None:
        """Page breaks in a row with no text between them, and text after: the pages between are lost (a Gap after
        the first break), unless the transcription said so already (``# page missing``).

        Why: the 单疏本's transcription marks no lost page; it leaves the labels of the leaves it has no text for
        (KR1d0027_007: 6a, 7a, 8a, the text of 5b broken off mid-sentence), or one label three times (_003: 9b, the
        text jumping from 上緇布冠記 to 殤故也).  Without a gap the 疏 collation read what they held as the
        单疏本's omissions.  A run of breaks at a file's end (a 卷's blank last leaves) has no text after it and
        is not asked, nor a leaf transcribed as blank lines (``　¶``: the 注疏's blank leaf before its 考證)."""
        if self.blank_leaf or any(isinstance(x, Gap) for x in self.breaks):
            return
        pbs = [x for x in self.breaks if isinstance(x, PageBreak)]
        if len(pbs) < 2:
            return
        labels = ", ".join(dict.fromkeys(x.n for x in pbs))
        self.breaks.insert(self.breaks.index(pbs[0]) + 1,
                           Gap(desc=f"inferred: page breaks {labels} with no text between"))
        self.doc.notices.append(Notice(n, "lacuna", f"page breaks in a row with no text between them ({labels}): "
                                       "taken as lost pages (the text before and after is not continuous)"))

    def _text_line(self, n: int, raw: str, heading: int) -> None:
        """Split one source line at its tags and ``¶`` marks into printed lines."""
        parts = self._split_tags(n, raw) if "<" in raw else (raw,)  # (most lines: no tag, and no call)
        first = True
        out = self.doc.lines
        for part in parts:
            if isinstance(part, PageBreak):
                self.breaks.append(part)
                continue
            for k, seg in enumerate(part.split("¶")):
                body = seg.rstrip()
                stripped = body.lstrip(_LEADING)
                if not stripped:
                    continue
                if len(self.breaks) > 1:
                    self._empty_pages(n)
                # (given by position: the fields n, body, indent, breaks, heading, cont)
                out.append(PrintedLine(n, stripped, len(body) - len(stripped), self.breaks, heading, not first and k == 0))
                self.breaks = []
                self.blank_leaf = False
                first = False

    def _split_tags(self, n: int, raw: str) -> list["str | PageBreak"]:
        if "<" not in raw:
            return [raw]  # most lines: no tag, nothing cut off
        out: list[str | PageBreak] = []
        pos = 0
        for m in TAG_RE.finditer(raw):
            out.append(raw[pos:m.start()])
            pos = m.end()
            if m.group("kind") == "pb":
                out.append(self._page_break(n, m.group("id")))
            # <md:…> (the base edition's pagination) and other tags: markup, not text
        rest = raw[pos:]
        if cut := TAG_START_RE.search(rest):
            frag = rest[cut.start():cut.start() + 40]
            raise ReaderError(self.src.path, f"page tag cut off: '{frag}' has no closing '>'", n)
        out.append(rest)
        return out

    def _page_break(self, n: int, page_id: str) -> PageBreak:
        if self.doc.first_page_id is None:
            self.doc.first_page_id = page_id
        pb = parse_page_id(page_id)
        if pb is None:
            self.doc.notices.append(Notice(n, "page-id", f"page tag <pb:{page_id}> is not a Kanripo page id; kept as the page label"))
            pb = PageBreak(n=page_id or "?", facs=page_id or None)
        return pb


def scan(src: SourceText) -> MandokuDoc:
    """The printed lines, page breaks and header of a Mandoku file."""
    return _Scanner(src).run()


def strip_markup(src: SourceText) -> str:
    """The source minus what the Mandoku readers drop on purpose (for losslessness).

    Header and comment lines, drawers, tags and text after a TAB go; the rest
    (``¶``, brackets, indentation) holds no Han characters beyond the text.
    """
    out: list[str] = []
    in_drawer = False
    for raw in src.lines:
        if in_drawer:
            in_drawer = not DRAWER_END_RE.match(raw)
            continue
        if raw.startswith("#"):
            continue
        if ":" in raw and (m := DRAWER_RE.match(raw)) and m.group("name").upper() != "END":
            in_drawer = True
            continue
        if "\t" in raw:
            raw = raw.split("\t", 1)[0]
        # (each pattern asked only of a line that holds its first character, as the scanner does: most hold neither)
        out.append(TAG_RE.sub("", raw) if "<" in raw else raw)
    return "\n".join(out)


# --------------------------------------------------------------------------
# Title lines and metadata


def _juan_near_start(body: str) -> bool:
    """Could ``body`` be a 卷 title?  The 卷 comes after a title of at most 12 characters: a text line has
    none there, asked in C."""
    head = body[:13]
    return "卷" in head or "巻" in head


def juan_title(body: str) -> re.Match[str] | None:
    """A 卷 title line (``儀禮卷第五``, ``儀禮注疏卷五考證``), or None."""
    return JUAN_TITLE_RE.match(body) if _juan_near_start(body) else None


def pian_of(body: str) -> str | None:
    """The 篇 a heading line names, in its canonical form (``鄕射禮第五　儀禮　鄭氏注`` → 鄉射禮)."""
    found = pian_heading(body)
    return canonical_pian(found) if found else None


def paratext_kind(body: str) -> str | None:
    """The kind of a title/heading line of a Kanripo 卷, or None for text.

    ``collection`` (欽定四庫全書), ``title`` (the 卷 title), ``kaozheng`` (the
    考證 title), ``pian`` (the 篇 heading), ``resp`` (who wrote what).
    """
    if SIKU_RE.match(body):
        return "collection"
    if _juan_near_start(body):  # (asked once: every line of a file comes here, and most are text with no 卷 there)
        head, bracket, rest = body.partition("(")
        if bracket and juan_title(head) and COUNT_RE.match(rest.rstrip(")").replace("/", "").replace(" ", "")):
            return "title"  # the closing title with the 卷's count: ``儀禮卷第一(經一千八百九十八字/注三千六百二字)``
        if m := juan_title(body):
            return "kaozheng" if m.group("kz") else "title"
    if pian_of(body):
        return "pian"
    if RESP_LINE_RE.match(body):
        return "resp"
    return None


HEADER_JUAN_RE = re.compile(rf"^[卷巻]?第?(?P<n>[{NUM}]+)$")


def _header_juan(value: str) -> str:
    """The ``JUAN`` property as a number: ``5``, and ``卷十一`` (some clones write it so) → ``11``."""
    m = HEADER_JUAN_RE.match(value.strip())
    n = chinese_numeral(m.group("n")) if m else None
    return str(n) if n else value.strip()


def fill_meta(meta: WitnessMeta, doc: MandokuDoc) -> list[Notice]:
    """Fill what the user or the manifest left empty from the header, the page tags and the title lines.

    Why several sources: the ``JUAN`` property is sometimes wrong (KR1d0026
    numbers its 卷五 file ``JUAN 4``), while the page tags and the 卷 title
    agree with the file; the 卷 is taken from those and a disagreeing header is
    reported.
    """
    notices: list[Notice] = []
    h = doc.header
    first = next(doc.page_breaks(), None)  # (only the first is asked: not a list of every page of the file)
    juan_title_n = None
    chapter = None
    for pl in doc.lines[:12]:
        m = juan_title(pl.body)
        if m and juan_title_n is None:
            juan_title_n = chinese_numeral(m.group("n"))
        chapter = chapter or pian_of(pl.body)
        if chapter or (paratext_kind(pl.body) is None and not pl.indent):
            break  # the 篇 title heads the 卷, among its (indented) title lines: a 卷 that opens mid-篇 has none
    header_juan = _header_juan(h.get("JUAN", ""))
    juan = (first.juan if first and first.juan else None) or (str(juan_title_n) if juan_title_n else None) or header_juan
    if header_juan and juan and header_juan.lstrip("0") != juan.lstrip("0"):
        notices.append(Notice(1, "header-juan", f"#+PROPERTY: JUAN {h['JUAN']} disagrees with the page tags and "
                                               f"the 卷 title (卷 {juan}); using {juan}"))
    if not meta.title and h.get("TITLE"):
        meta.title = h["TITLE"]
    if not meta.juan and juan:
        meta.juan = juan
    if not meta.edition:
        meta.edition = (first.edition if first and first.edition else "") or h.get("WITNESS", "") or h.get("BASEEDITION", "")
    if not meta.chapter and chapter:
        meta.chapter = chapter
    if not meta.script:
        meta.script = "traditional"  # Kanripo master texts are in traditional characters
    if doc.text_id:
        meta.extra.setdefault("kanripo-id", doc.text_id)
    for k, v in h.items():
        if k not in ("TITLE", "ID") and v:
            meta.extra.setdefault(f"kanripo-{k.lower()}", v)
    return notices


# --------------------------------------------------------------------------
# Variants


@dataclass
class Signature:
    """What the body of a Mandoku file shows about its layout."""

    zhushu: int = 0  # 音義( and 疏( groups, lines that open with 注
    jishi: int = 0  # indented lines opening with 鄭注 / 釋曰 / 鄭目錄云
    groups: int = 0  # double-column groups

    def variant(self) -> str | None:
        if self.jishi >= 2:
            return "jishi"
        if self.zhushu >= 2:
            return "zhushu"
        if self.groups >= 2:
            return "sbck"
        return None


JISHI_LINE_RE = re.compile(r"^\u3000+(鄭注|郑注|釋曰|释曰|鄭目錄云|鄭目録云|郑目录云)", re.M)


def signature(src: SourceText, limit: int = 800) -> Signature:
    """The counts of :class:`Signature` in the first ``limit`` lines.

    Counted in the lines joined, in C, not a line at a time (every reader a format is asked of
    sniffs the file): ``音義(``, ``疏(`` and a line opening with ``注`` cannot overlap, so the
    occurrences of each add up; a match of :data:`JISHI_LINE_RE` (``^`` a line's start, ``re.M``)
    cannot run past its line's end, so it counts lines.
    """
    head = "\n".join(src.lines[:limit])
    zhushu = head.count("音義(") + head.count("疏(") + head.count("\n注") + head.startswith("注")
    return Signature(zhushu=zhushu, jishi=len(JISHI_LINE_RE.findall(head)), groups=head.count("("))


ID_RE = re.compile(r"^#\+PROPERTY:\s*ID\s+(KR\d[a-z]\d{4})|<pb:(KR\d[a-z]\d{4})")


def text_id_of(src: SourceText, limit: int = 400) -> str | None:
    """The Kanripo text id (``KR1d0028``) from ``#+PROPERTY: ID`` or the first page tag."""
    for ln in src.lines[:limit]:
        if m := ID_RE.search(ln):
            return m.group(1) or m.group(2)
    return None


def is_mandoku(src: SourceText) -> bool:
    """Page tags ``<pb:…>``, or an org header with ``¶`` line ends."""
    head = src.lines[:400]
    if any("<pb:" in ln for ln in head):
        return True
    header = any(ln.startswith("#+TITLE") or MODE_RE.match(ln) for ln in head[:20])
    return header and any("¶" in ln for ln in head)


# --------------------------------------------------------------------------
# The flattened text: what the running-text variants (四部丛刊, 注疏) layer


@dataclass
class Flat:
    """All printed lines concatenated, with where each starts.

    Gaiji entities become one placeholder character each (``gaiji`` maps them
    back), so that a marker or a split point is found by offset in one string;
    ``markup`` flags the bracket characters that are layout, not text.
    """

    text: str
    starts: list[int]
    lines: list[PrintedLine]
    gaiji: dict[str, str]
    markup: bytearray
    #: where each line ends (the next one's start; the text's end for the last): the layerers walk the lines
    #: with ``zip(starts, ends)``, not a :meth:`line_range` call a line
    ends: list[int]

    def line_range(self, i: int) -> tuple[int, int]:
        return self.starts[i], self.ends[i]

    def reading(self, start: int, end: int, text: str | None = None) -> str:
        """Text in ``[start, end)`` without bracket markup, placeholders kept.

        ``text``: a string of the same offsets to take the characters from (the folded text).
        """
        text = self.text if text is None else text
        k = self.markup.find(1, start, end)
        if k < 0:
            return text[start:end]
        out = []  # the stretches between the few markup characters (three to a group), sliced whole
        while k >= 0:
            out.append(text[start:k])
            start = k + 1
            k = self.markup.find(1, start, end)
        out.append(text[start:end])
        return "".join(out)

    def kept_offsets(self, start: int, end: int) -> list[int]:
        """The offsets in ``[start, end)`` that are not markup: where each character of
        :meth:`reading` stands in the flattened text."""
        return [k for k, f in enumerate(self.markup[start:end], start) if not f]



def flatten(lines: list[PrintedLine]) -> Flat:
    gaiji: dict[str, str] = {}
    codes: dict[str, str] = {}
    parts: list[str] = []
    starts: list[int] = []
    pos = 0
    # a placeholder must not be a character the source holds itself (a stray private-use
    # glyph U+F0000 was taken for the first gaiji, and lost)
    # (the lines searched joined, in one call: a call per line cost more than the search)
    taken = set(_PLACEHOLDER_RE.findall("".join([pl.body for pl in lines])))
    free = (chr(c) for c in range(_PUA0, 0xFFFFE) if chr(c) not in taken)

    def placeholder(m: re.Match[str]) -> str:
        code = m.group(1)
        if code not in codes:
            ch = next(free)
            codes[code] = ch
            gaiji[ch] = code
        return codes[code]

    def ids_placeholder(m: re.Match[str]) -> str:  # [沔-丏+丐]: a character described, not given
        code = ids_code(m.group(1))
        if code not in codes:
            ch = next(free)  # from the one pool: a placeholder of its own, never a gaiji's
            codes[code] = ch
            gaiji[ch] = code
        return codes[code]

    for pl in lines:
        body = pl.body
        if "[" in body:
            body = IDS_RE.sub(ids_placeholder, body)
        if "&" in body:  # (asked in C first: most lines hold no entity, and a ``sub`` is a costly call)
            body = GAIJI_RE.sub(placeholder, body)
        starts.append(pos)
        parts.append(body)
        pos += len(body)
    text = "".join(parts)
    return Flat(text, starts, lines, gaiji, bytearray(len(text)), starts[1:] + [len(text)])


@dataclass(slots=True)
class Group:
    """A double-column bracket group ``(…)`` on one printed line: offsets of ``(`` and ``)``.

    ``close`` is the line end when the bracket was left open there (reported).
    """

    open: int
    close: int
    line: int  # index into Flat.lines


_BRACKET_RE = re.compile(r"[()/]")


def find_groups(flat: Flat, b: WitnessBuilder, path: str) -> list[Group]:
    """The bracket groups of every printed line; marks ``(``, ``/``, ``)`` as markup.

    Every transcribed line closes its own groups (the left column of a printed
    line ends with the line), so a ``(`` still open at the line end is closed
    there with a warning; at the end of the file it means the file was cut off
    inside the note (an error, as for 案 notes).  A ``(`` inside a group and a
    ``)`` with no group are kept as text and reported.
    """
    groups: list[Group] = []
    text = flat.text
    last = len(flat.lines) - 1
    for i, (pl, start, end) in enumerate(zip(flat.lines, flat.starts, flat.ends)):
        opened: int | None = None
        for m in _BRACKET_RE.finditer(text, start, end):  # only the bracket characters, found in C
            k = m.start()
            ch = m.group()
            if ch == "(":
                if opened is None:
                    opened = k
                    flat.markup[k] = 1
                else:
                    b.warn("nested-bracket", "a '(' inside a double-column group; kept as text", pl.n)
            elif ch == ")":
                if opened is None:
                    b.warn("stray-bracket", "a ')' with no '(' before it; kept as text", pl.n)
                else:
                    flat.markup[k] = 1
                    groups.append(Group(opened, k, i))
                    opened = None
            elif ch == "/" and opened is not None:
                flat.markup[k] = 1
        if opened is not None:
            if i == last:
                raise ReaderError(path, f"the file ends inside the double-column text opened at line {pl.n}: "
                                        "it looks cut off", pl.n)
            b.warn("unclosed-bracket", "a double-column group is not closed on its line; closed at the line end", pl.n)
            groups.append(Group(opened, end, i))
    return groups


@dataclass(slots=True)
class Seg:
    """A stretch ``[start, end)`` of the flattened text and what to do with it.

    ``layer`` set: open a new piece of that layer at ``start`` (``new_unit``,
    ``subtype``, ``cert`` as for :meth:`WitnessBuilder.piece`); ``layer`` None:
    continue the open piece.  ``label``: the stretch is a marker (注, 疏, 音義, ○).
    """

    start: int
    end: int
    layer: str | None = None
    label: bool = False
    subtype: str | None = None
    cert: str | None = None
    new_unit: bool | None = None
    resp: str | None = None
    div: tuple[str, str | None, str | None] | None = None  # start a new div (type, n, title) first


def emit(b: WitnessBuilder, flat: Flat, segs: list[Seg]) -> None:
    """Feed the builder: pieces, labels, text, gaiji, and the line and page breaks in place.

    Breaks that fall at the start of a segment are given before its piece
    opens, so the piece's location is the line it starts on.
    """
    line_i = 0
    starts, lines, text, markup = flat.starts, flat.lines, flat.text, flat.markup
    nlines = len(lines)
    #: where line ``line_i`` starts (the text's end past the last line): a break is due at ``pos`` when ``nxt <= pos``,
    #: asked before calling :func:`breaks_upto` (most chunks end inside a line, and most segments start inside one)
    nxt = starts[0] if nlines else len(text)
    # where a gaiji placeholder may stand, found once in the whole text: a chunk with none is one run of text,
    # where searching each chunk (tens of thousands of lines a book) cost more than the search itself
    marks = [m.start() for m in _PLACEHOLDER_RE.finditer(text)]

    def breaks_upto(pos: int) -> None:
        """Give the page marks and line breaks of every line starting at or before ``pos``."""
        nonlocal line_i, nxt
        while line_i < nlines and starts[line_i] <= pos:
            pl = lines[line_i]
            for mark in pl.breaks:
                b.page_mark(mark)
            if not pl.cont:
                b.line(pl.n)
            line_i += 1
        nxt = starts[line_i] if line_i < nlines else len(text)

    for seg in segs:
        if nxt <= seg.start:
            breaks_upto(seg.start)
        if seg.div is not None:
            b.div(*seg.div)
        if seg.layer is not None:
            b.piece(seg.layer, resp=seg.resp or DEFAULT_RESP.get(seg.layer), subtype=seg.subtype,
                    cert=seg.cert, new_unit=seg.new_unit)
            in_piece = True  # (the piece just opened: the property not asked)
        else:
            in_piece = b.current is not None  # (no piece opens before the next segment: asked once, not a chunk)
        pos, end = seg.start, seg.end
        while pos < end:
            stop = end if end < nxt or nxt <= pos else nxt  # (min(end, nxt) past pos, without the call)
            # (most chunks hold no bracket markup: sliced here, without the call :meth:`Flat.reading` makes)
            chunk = text[pos:stop] if markup.find(1, pos, stop) < 0 else flat.reading(pos, stop)
            if seg.label:
                if marks and (k := bisect_left(marks, pos)) < len(marks) and marks[k] < stop:
                    _emit_text(b, chunk, flat.gaiji, label=True)  # a gaiji inside a marker (a 標起止)
                elif chunk:
                    b.label(chunk)
            elif marks and (k := bisect_left(marks, pos)) < len(marks) and marks[k] < stop:
                _emit_text(b, chunk, flat.gaiji)
            elif in_piece or chunk.strip():  # (as _emit_text does with a chunk that holds none)
                b.text(chunk)
            pos = stop
            if pos < end and nxt <= pos:
                breaks_upto(pos)


_PLACEHOLDER_RE = re.compile("[\U000F0000-\U000FFFFD]")


def _emit_text(b: WitnessBuilder, chunk: str, gaiji: dict[str, str], label: bool = False) -> None:
    """Text with its gaiji; ``label``: a marker's characters (labels, and gaiji inside the label)."""
    if b.current is None and not chunk.strip():
        return  # layout blanks before the first piece: nothing to keep them in, and no text
    put = b.label if label else b.text
    pos = 0
    for m in _PLACEHOLDER_RE.finditer(chunk):
        code = gaiji.get(m.group(0))
        if code is None:
            continue
        if m.start() > pos:
            put(chunk[pos:m.start()])
        b.gaiji(code, label=label)
        pos = m.end()
    if pos < len(chunk):
        put(chunk[pos:])
