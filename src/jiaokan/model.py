"""The witness model: what every reader produces and every later stage consumes.

A witness is metadata plus divisions (chapters); a division is an ordered list of
*units*; a unit is one 经 passage followed by the commentary that belongs to it
(or, for prefaces, headings and boilerplate, a unit without 经).  A unit is a
list of *pieces*; a piece is a run of text in one layer by one responsible
author.  Inside a piece, *inline* nodes keep their exact position: text runs,
labels (the markers such as 鄭注 that open a layer), 案 notes, gaiji, page
breaks and line breaks.

Why this shape: collation needs 经 against 经 and 注 against 注 within aligned
passages, so the passage/commentary grouping is first-class; provenance (file,
line, page) must survive to the apparatus and the HTML, so it rides on every
piece and every break; and TEI round trips without loss because every inline
node has exactly one TEI element.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import ClassVar, Iterable, Iterator, Literal, NamedTuple, TypeVar, Union

from .errors import printable

#: The fixed layer vocabulary; also the values of ``@type`` in the TEI.
LAYERS: tuple[str, ...] = (
    "jing",
    "zhuan",
    "zhu",
    "shu",
    "yinyi",
    "shi",
    "an",
    "kaozheng",
    "commentary",
    "paratext",
)

Layer = Literal["jing", "zhuan", "zhu", "shu", "yinyi", "shi", "an", "kaozheng", "commentary", "paratext"]

#: Default responsible author per layer (GUIDE §2).  ``None``: no person.
DEFAULT_RESP: dict[str, str | None] = {
    "jing": None,
    "zhuan": "子夏",  # the 傳 of 喪服 (篇十一), between its 经 and 郑注
    "zhu": "郑玄",
    "shu": "贾公彦",
    "yinyi": "陆德明",
    "shi": "李如圭",
    "an": "四库馆臣",
    "kaozheng": "四库馆臣",
    "commentary": None,
    "paratext": None,
}

#: Layers that are commentary on a 经 passage (everything but 经 and paratext).
COMMENTARY_LAYERS: frozenset[str] = frozenset(LAYERS) - {"jing", "paratext"}


_C = TypeVar("_C", bound=type)


def _pickled_by_position(cls: _C) -> _C:
    """Pickle instances of the slotted dataclass ``cls`` as ``cls(*fields)``: a tuple of values.

    Why: a witness travels pickled from every forked worker that read or relayered it (some
    160,000 nodes for the book), and a slotted object pickles by default as a dict of its slots,
    made and read back one by one; a frozen one (:class:`Loc`) even through two Python functions
    per object that look up its fields each time.  As a tuple (got in C by ``attrgetter``) the
    pickles are a fifth smaller, written in about half the time and read in half.  The class is
    called again on loading: ``__post_init__`` checks run as when it was first made.  A subclass
    that adds fields must be decorated itself (none does).
    """
    names = [f.name for f in fields(cls)]
    get = attrgetter(*names)

    if len(names) > 1:
        def __reduce__(self: object) -> tuple[type, tuple[object, ...]]:
            return type(self), get(self)
    else:  # (attrgetter of one name gives the value itself)
        def __reduce__(self: object) -> tuple[type, tuple[object, ...]]:
            return type(self), (get(self),)

    setattr(cls, "__reduce__", __reduce__)
    return cls



@_pickled_by_position
@dataclass(frozen=True, slots=True)
class Loc:
    """Where something starts in the source file: 1-based line, page label, char offset."""

    line: int
    page: str | None = None
    offset: int | None = None

    def on_page(self, page: str | None) -> "Loc":
        """This location with another page label: ``dataclasses.replace(self, page=page)``, made directly
        (a file's pages are qualified by its 卷 once per piece and note, and ``replace`` looks up the
        fields each time: twice the cost)."""
        return Loc(self.line, page, self.offset)


class _Node:
    """What every inline node answers, so that no stage has to ask which kind it holds.

    ``reading`` is what the node adds to its container's reading text (the text
    collation, emendation and search see); ``source`` is what it stood for in the
    source file (for the losslessness check).  Both are empty unless a subclass
    says otherwise.  ``kind`` names the node for table-driven writers (TEI, HTML).
    """

    kind: ClassVar[str] = ""
    #: the nodes are slotted (here and in every subclass): a book holds some 200,000 of them, each
    #: otherwise with a dict of its own, in the build and again in every worker it forks
    __slots__ = ()

    @property
    def reading(self) -> str:
        return ""

    @property
    def source(self) -> str:
        return ""


@dataclass(slots=True)
class _Run(_Node):
    """Source characters held as they are (the common part of Text and Label)."""

    text: str

    @property
    def source(self) -> str:
        return self.text


@_pickled_by_position
@dataclass(slots=True)
class Text(_Run):
    """A run of source characters, kept exactly (punctuation and stray spaces too)."""

    kind: ClassVar[str] = "text"

    @property
    def reading(self) -> str:
        return self.text


@_pickled_by_position
@dataclass(slots=True)
class Label(_Run):
    """A marker that opens a layer in the source (鄭注, 疏, 音義, 〈朱注〉, 郑康成曰:).

    Kept so that no source character is lost, but not part of the layer's text:
    collation skips labels.
    """

    kind: ClassVar[str] = "label"


#: What an unknown character reads as in a reading text (collation, ``jiaokan text``):
#: one position that is no reading.  Collation types a difference that involves it
#: ``uncertain``, never ``substantive``.
UNKNOWN_CHAR = "\ufffd"

#: Characters that stand for a character nobody could read: :data:`UNKNOWN_CHAR`, and the marks
#: transcribers type for an illegible or missing one (□, 〓).  Collation treats them alike.
UNKNOWN_MARKS: frozenset[str] = frozenset({UNKNOWN_CHAR, "\u25a1", "\u3013"})


#: The held code points (:data:`HELD_RE`) of the BMP and of the private-use planes 15–16, as the inside
#: of a regex class (a class the regex engine tests in a step or two); and the noncharacters of planes
#: 1–14 (U+1FFFE, U+1FFFF … U+EFFFF), the rest of them.
HELD_COMMON = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ue000-\uf8ff\ufdd0-\ufdef\ufffd\ufffe\uffff\U000f0000-\U0010ffff"
_HELD_ASTRAL_NONCHARS = "".join(f"{chr(p + 0xFFFE)}{chr(p + 0xFFFF)}" for p in range(0x10000, 0xF0000, 0x10000))


def _held_pattern() -> str:
    """:data:`HELD_RE`'s pattern: two classes, the second tried only at a character of planes 1–14.

    Why not one class: ``re`` tests a class's characters beyond the BMP one by one, after its BMP
    table, for every character that is not in the class; the 28 noncharacters made the search of a
    run of Han text some fifteen times slower than the BMP table alone.
    """
    return f"[{HELD_COMMON}]|(?=[\U00010000-\U000effff])[{_HELD_ASTRAL_NONCHARS}]"


#: Code points a source may hold that cannot, or must not, stand as text in the model:
#: C0/C1 controls but tab and newline (XML 1.0 cannot hold C0, nor U+FFFE/FFFF or a lone
#: surrogate; C1 are invisible), noncharacters, private-use characters (a site's own
#: glyphs: no reader can tell what they are) and U+FFFD (a character someone already
#: lost).  Readers keep each one as a :class:`Gaiji` marker with a code-point code
#: (``U-0001``), so the TEI records it and losslessness counts it.
HELD_RE = re.compile(_held_pattern())
_HELD_COMMON_RE = re.compile(f"[{HELD_COMMON}]")
_ASTRAL_NONCHAR_PLANES_RE = re.compile("[\U00010000-\U000effff]")


def has_held(s: str) -> bool:
    """Does ``s`` hold a :data:`HELD_RE` code point?  As ``HELD_RE.search(s) is not None``, faster:
    one class the engine tests in a step, then only the (rare) characters of planes 1–14 are asked
    whether they are noncharacters (U+xFFFE, U+xFFFF).

    First, at once, what most text is: printable (``str.isprintable``, a loop in C several times
    quicker than the regex's class) and without U+FFFD.  Every other held code point is one
    ``isprintable`` refuses: a control, a surrogate, a private-use character or a noncharacter
    (unassigned, for Python's tables).  Text it refuses (an ideographic space does) is searched."""
    if s.isprintable() and UNKNOWN_CHAR not in s:
        return False
    return _HELD_COMMON_RE.search(s) is not None or any(
        ord(m.group()) & 0xFFFE == 0xFFFE for m in _ASTRAL_NONCHAR_PLANES_RE.finditer(s))


_CODEPOINT_CODE_RE = re.compile(r"^U-([0-9A-F]{4,6})$")


def split_held(s: str) -> Iterator[tuple[str, str]]:
    """``("text", run)`` and ``("held", one code point)`` pieces of ``s``, in order."""
    pos = 0
    for m in HELD_RE.finditer(s):
        if m.start() > pos:
            yield "text", s[pos:m.start()]
        yield "held", m.group(0)
        pos = m.end()
    if pos < len(s):
        yield "text", s[pos:]


def text_nodes(s: str) -> list["Inline"]:
    """``s`` as inline nodes: text runs, and a marker (:class:`Gaiji` ``U-XXXX``) for each held code point.

    For text that enters the model without a reader (CollateX JSON, an API call).
    """
    return [Gaiji(codepoint_code(run), None) if kind == "held" else Text(run) for kind, run in split_held(s)]


def codepoint_code(ch: str) -> str:
    """The marker code of a held code point: U+0001 → ``U-0001`` (an XML name, never an entity name)."""
    return f"U-{ord(ch):04X}"


#: The code of a ``Gaiji`` that stands for an ideographic description in the text (``[沔-丏+丐]``):
#: ``IDS-`` and the description's code points in hex (an NCName, so it can be the ``charDecl`` id).
IDS_PREFIX = "IDS-"


def ids_code(description: str) -> str:
    """``沔-丏+丐`` → ``IDS-6C94-2D-4E0F-2B-4E10``."""
    return IDS_PREFIX + "-".join(f"{ord(c):X}" for c in description)


def ids_description(code: str) -> str | None:
    """The ideographic description an ``IDS-…`` code stands for (``None`` for any other code)."""
    if not code.startswith(IDS_PREFIX):
        return None
    try:
        return "".join(chr(int(h, 16)) for h in code[len(IDS_PREFIX):].split("-"))
    except ValueError:
        return None


def code_codepoint(code: str) -> str | None:
    """The character a code-point marker code stands for (``U-EB8E`` → U+EB8E), else ``None``."""
    m = _CODEPOINT_CODE_RE.match(code)
    if m is None:
        return None
    n = int(m.group(1), 16)
    return chr(n) if n <= 0x10FFFF else None


def describe_codepoint(ch: str) -> str:
    """``U+0001 (a control character)`` and the like, for warnings and charDecl."""
    o = ord(ch)
    if unicodedata.category(ch) == "Cc":
        kind = "a control character"
    elif 0xD800 <= o <= 0xDFFF:
        kind = "a lone surrogate"
    elif unicodedata.category(ch) == "Co":
        kind = "a private-use character, a glyph of the source's own font"
    elif ch == "\ufffd":
        kind = "the replacement character (the source had already lost this character)"
    else:
        kind = "a noncharacter"
    return f"U+{o:04X} ({kind})"


@_pickled_by_position
@dataclass(slots=True)
class Gaiji(_Node):
    """A character the source does not give as a plain character.

    Either an entity (Kanripo ``&KR0925;`` = 楣), or a code point held in place
    (:data:`HELD_RE`): then ``code`` is ``U-XXXX`` and the source held that code
    point itself.  ``char`` is the resolved character, or ``None`` when unknown
    (always for a held code point: it is no reading).
    """

    code: str
    char: str | None = None
    kind: ClassVar[str] = "gaiji"

    @property
    def reading(self) -> str:
        return self.glyph

    @property
    def glyph(self) -> str:
        """The character it shows (:data:`UNKNOWN_CHAR` when unknown), whether or not it is read."""
        return self.char or UNKNOWN_CHAR

    @property
    def source(self) -> str:
        """What the source held: the entity text, the held code point itself, or ``[description]``."""
        held = code_codepoint(self.code)
        if held is not None:
            return held
        desc = ids_description(self.code)
        return f"[{desc}]" if desc is not None else f"&{self.code};"


@_pickled_by_position
@dataclass(slots=True)
class LabelGaiji(Gaiji):
    """A gaiji inside a marker: the 单疏本's 標起止 ``注肴&KR0155;至謂豚`` (its 升) is a label whose middle
    character the source gives as an entity.

    Kept, code and all, as a label's characters are, and like them no part of the layer's text (``reading`` is
    empty; :attr:`glyph` is the character it shows): read as text, the one character of the 標起止 stood in the
    疏 as an addition before 釋曰 (the 单疏本 collations of 篇一–十三 held 59 more entries).  The TEI writes it
    inside a ``label``.
    """

    kind: ClassVar[str] = "label-gaiji"

    @property
    def reading(self) -> str:
        return ""


@_pickled_by_position
@dataclass(slots=True)
class PageBreak(_Node):
    """A page boundary: ``n`` is the page label (``1a``), ``facs`` the image name.

    ``edition`` names the edition whose pagination this is (``WYG``, ``SBCK``);
    ``juan`` the 卷 when the marker gives it.
    """

    n: str
    facs: str | None = None
    edition: str | None = None
    juan: str | None = None
    kind: ClassVar[str] = "pb"


@_pickled_by_position
@dataclass(slots=True)
class LineBreak(_Node):
    """The start of source line ``n`` (1-based line number in the file)."""

    n: int
    kind: ClassVar[str] = "lb"


@_pickled_by_position
@dataclass(slots=True)
class Gap(_Node):
    """Source text that is lost: a page the transcription notes as missing (``# page missing``).

    Nothing of the source is here; the node says that the text on either side is
    not continuous, so that no reader, collation or HTML page joins across it.
    ``desc`` is the transcribers' own words.
    """

    reason: str = "lost"
    unit: str = "page"
    desc: str | None = None
    kind: ClassVar[str] = "gap"


@_pickled_by_position
@dataclass(slots=True)
class Note(_Node):
    """An inline editorial note: the 四库 editors' 案 notes (layer ``an``).

    ``content`` holds its text with any page and line breaks it runs over;
    its meaning (kind, lemma, reading …) is parsed later by :mod:`jiaokan.emend`.
    """

    content: list["Inline"]
    loc: Loc = field(compare=False)
    layer: str = "an"
    resp: str | None = "四库馆臣"
    id: str | None = None
    kind: ClassVar[str] = "note"

    @property
    def text(self) -> str:
        """The note's characters in reading order, breaks removed."""
        return inline_text(self.content)

    @property
    def source(self) -> str:
        # not part of the reading of the piece it stands in, but every character counts for losslessness
        return all_source_chars(self.content)


Inline = Union[Text, Label, Gaiji, LabelGaiji, PageBreak, LineBreak, Gap, Note]


def _accessors_in_c() -> None:
    """Make ``reading`` and ``source`` of the common nodes plain attribute reads, done in C.

    Every stage asks them of every node of the book, and often (:func:`inline_text`,
    :func:`walk`, the losslessness check): as properties each is a Python call.  A text run's
    reading and source *are* its ``text`` slot, so the slot's own descriptor serves under those
    names too; a node that adds nothing has a plain empty string.  A :class:`Gaiji` and a
    :class:`Note` keep their properties.  The properties written above stay what the type
    checker and a reader of this module see, and say the same (``tests/test_model_nodes.py``).
    """
    text_slot = vars(_Run)["text"]
    setattr(_Node, "reading", "")
    setattr(_Node, "source", "")
    setattr(_Run, "source", text_slot)
    setattr(Text, "reading", text_slot)


_accessors_in_c()


@_pickled_by_position
@dataclass(slots=True)
class Piece:
    """A run of text in one layer, by one responsible author.

    ``cert`` is ``"low"`` when the reader was unsure of the layer (it then also
    emits a warning); ``subtype`` refines the layer (``mulu`` for 郑目录,
    ``zhu-part`` for the 注釋曰 part of a 疏, a heading kind for paratext …).
    """

    layer: str
    content: list[Inline]
    loc: Loc
    resp: str | None = None
    subtype: str | None = None
    cert: str | None = None
    id: str | None = None
    #: Column of the piece's first character on its source line (see :func:`assign_columns`).
    col: int | None = field(default=None, compare=False)
    #: Where the piece's start was decided when not by this witness's own markers: the witness
    #: (its TEI file, or siglum) whose explicit layers confirmed or moved an inferred boundary
    #: (:mod:`jiaokan.collate.relayer`); TEI ``@source``.
    source: str | None = None

    def __post_init__(self) -> None:
        if self.layer not in LAYERS:
            raise ValueError(f"unknown layer {self.layer!r}")

    @property
    def text(self) -> str:
        """The piece's own characters (no labels, no notes), in reading order."""
        return inline_text(self.content)

    def notes(self) -> list[Note]:
        return [n for n in self.content if isinstance(n, Note)]


@_pickled_by_position
@dataclass(slots=True)
class Unit:
    """One 经 passage and its commentary, or a standalone paratext/preface unit."""

    id: str
    pieces: list[Piece] = field(default_factory=list)

    @property
    def jing(self) -> Piece | None:
        for p in self.pieces:
            if p.layer == "jing":
                return p
        return None

    @property
    def loc(self) -> Loc:
        return self.pieces[0].loc if self.pieces else Loc(0)

    def layer_pieces(self, layer: str) -> list[Piece]:
        return [p for p in self.pieces if p.layer == layer]

    def layer_text(self, layer: str) -> str:
        return "".join(p.text for p in self.layer_pieces(layer))


@dataclass
class Div:
    """A chapter (篇/卷) or a section of one; ``type`` is front, chapter, section or back."""

    type: str
    n: str | None
    title: str | None
    units: list[Unit] = field(default_factory=list)
    id: str | None = None


#: What a witness *is*, which decides what later stages do with it.  Set by the reader
#: (each format knows what it holds) or by the manifest's ``role``; no stage looks at
#: the format's name.
ROLES: dict[str, str] = {
    "jishi": "李如圭《仪礼集释》: its 案 notes are parsed, applied and checked",
    "zhushu": "《仪礼注疏》: the text the 案 notes' claims about 今注疏本 are checked against",
    "songben": "a 宋本 or a faithful reprint of one (四部丛刊 明翻宋本): evidence for what a 宋本 reads",
    "danshu": "the 单疏本 賈公彦《儀禮疏》 (疏 only): its 疏 is collated with the 注疏's, each stretch by its 標起止",
    "shiwu": "張淳《儀禮識誤》: errata entries, not collated; their claims are checked against the collated witnesses",
    "reference": "any other witness: collated, not a party to the 案 check",
}


#: ``WitnessMeta.extra[EXTENT] == WHOLE``: the witness is a whole text, its first and last passage the text's own
#: beginning and end (CollateX input, a table CollateX wrote), so text before or after it where another witness has
#: some is its omission or addition; a witness without it may be an excerpt, whose ends are edges
#: (:func:`jiaokan.collate.engine._witness_edges`).  Written into its TEI as ``idno type="x-extent"``.
EXTENT, WHOLE = "extent", "whole"


@dataclass
class WitnessMeta:
    """What the manifest (or the command line) says about a witness file.

    ``role`` is one of :data:`ROLES` ("" until a reader or the manifest sets it).
    """

    siglum: str
    file: str
    format: str
    title: str = ""
    work: str = "仪礼"
    chapter: str = ""
    juan: str = ""
    script: str = ""
    source: str = ""
    licence: str = ""
    edition: str = ""
    author: str = ""
    extra: dict[str, str] = field(default_factory=dict)
    role: str = ""


@dataclass
class ReaderWarning:
    """Something a reader kept but was unsure about.  ``code`` groups warnings for counting."""

    file: str
    line: int
    code: str
    message: str

    def __str__(self) -> str:
        return printable(f"{self.file}:{self.line}: warning [{self.code}]: {self.message}")


@dataclass
class Witness:
    """A parsed witness: metadata, divisions, gaiji declarations, reader warnings."""

    meta: WitnessMeta
    divs: list[Div] = field(default_factory=list)
    char_decl: dict[str, str | None] = field(default_factory=dict)
    warnings: list[ReaderWarning] = field(default_factory=list)

    def units(self) -> Iterator[Unit]:
        for d in self.divs:
            yield from d.units

    def pieces(self) -> Iterator[Piece]:
        for d in self.divs:  # (not through units(): one generator less per piece, and every stage walks them)
            for u in d.units:
                yield from u.pieces

    def passages(self) -> Iterator[Unit]:
        """Units that carry a 经 passage."""
        for d in self.divs:  # (as :meth:`pieces`: no generator of units, and a unit's pieces asked here, not
            for u in d.units:  # through :attr:`Unit.jing`, a call a unit)
                for p in u.pieces:
                    if p.layer == "jing":
                        yield u
                        break

    def layer_counts(self) -> dict[str, int]:
        """Characters per layer (notes counted under ``an``, labels not counted).

        The texts of a layer are joined and stripped of white space once, not piece by piece (a
        count of characters adds up): the build asks this of every witness several times.
        """
        texts: dict[str, list[str]] = {layer: [] for layer in LAYERS}
        for p in self.pieces():
            content = p.content
            texts[p.layer].extend(map(_READING, content))  # (p.text's runs, without a string joined per piece)
            if Note in map(type, content):  # asked in C: most pieces hold no note, and a loop per node cost most
                for node in content:
                    if isinstance(node, Note):
                        texts[node.layer].append(node.text)
        return {layer: len(strip_space("".join(t))) for layer, t in texts.items()}

    def notes(self) -> list[Note]:
        out: list[Note] = []
        for p in self.pieces():
            content = p.content
            if Note in map(type, content):  # asked in C, as layer_counts does: most pieces hold no note
                out.extend(iter_notes(content))
        return out




def inline_text(content: list[Inline]) -> str:
    """Reading text of inline content: text runs and resolved gaiji; labels and notes skipped."""
    return "".join(map(_READING, content))  # attrgetter: no Python frame per node (see _accessors_in_c)


def inline_length(content: Iterable[Inline]) -> int:
    """``len(inline_text(content))``, without making the text: a bound over a whole witness (a collation's size
    check) reads every node once, and a joined text of the witness was a large string made to be measured."""
    return sum(map(len, map(_READING, content)))


def assign_columns(w: Witness) -> None:
    """Set :attr:`Piece.col` for every piece, walking the witness in document order.

    A column counts the characters the witness keeps on a source line before this one
    (text, labels, gaiji, notes), from 1: the markup a reader consumes (indentation,
    the 【】 of a ctext export, page markers) is not counted.  Why: an export that puts a
    whole 卷 on one line locates every reading at "line 2"; the column says where on it.

    The column is carried as :func:`advance` carries it; a piece with no note and no gaiji (most) moves it
    by whole strings in C: its text after its last line break, or all of it when it has none.
    """
    where = Where(col=0)
    col = 0
    for p in w.pieces():
        content = p.content
        types = list(map(type, content))
        first = None
        for t in types:
            if t is not PageBreak and t is not Gap:
                first = t
                break
        p.col = 1 if first is LineBreak else col + 1
        if Note in types or Gaiji in types:  # a note's own breaks, a gaiji's one column: the walk
            where.col = col
            advance(content, where)
            col = where.col or 0
        elif LineBreak in types:  # (a break, a text run and a label take what their source holds: "" for a break)
            col = len("".join(map(_SOURCE, content[len(types) - types[::-1].index(LineBreak):])))
        else:
            col += len("".join(map(_SOURCE, content)))


def iter_notes(content: list[Inline]) -> Iterator[Note]:
    for node in content:
        if isinstance(node, Note):
            yield node


def strip_space(s: str) -> str:
    return "".join(s.split())  # str.split() cuts at exactly what str.isspace() calls white space


def all_source_chars(content: Iterable[Inline]) -> str:
    """Every character a piece holds, notes and labels included, in document order.

    Gaiji count as what the source holds: their entity text (``&KR0925;``) or the held code point.
    """
    return "".join(map(_SOURCE, content))


_READING = attrgetter("reading")
_SOURCE = attrgetter("source")


# ---------------------------------------------------------------------------
# The one walk over inline content
# ---------------------------------------------------------------------------


@dataclass
class Where:
    """The page and source line in force while walking a witness.

    One cursor is carried from piece to piece (and into notes, whose content can
    turn a page), so that every stage — collation, emendation, HTML, TEI — gives
    a character the same page and line.  A piece's own ``loc`` is only used when
    nothing has been seen yet (the first piece of a walk).
    """

    page: str | None = None
    line: int | None = None
    #: characters the witness keeps on the current line before the cursor (see :func:`assign_columns`)
    col: int | None = None

    def enter(self, piece: "Piece") -> None:
        if self.page is None:
            self.page = piece.loc.page
        if self.line is None:
            self.line = piece.loc.line or None
        if self.col is None:
            self.col = (piece.col or 1) - 1


class Step(NamedTuple):
    """One inline node met by :func:`walk`, with where it stands.

    ``page``/``line`` are in force at the node (a break's own value for a break);
    ``offset`` is the reading offset of the node within its container (the piece,
    or ``note`` when the node is inside one): the characters of the container's
    reading text before it.  (A named tuple: the walk makes one per node of the
    book, and a tuple is several times cheaper to make than a frozen dataclass.)
    """

    node: Inline
    page: str | None
    line: int | None
    offset: int
    note: Note | None = None
    col: int = 0  # characters before the node on its source line


def walk(content: list[Inline], where: Where | None = None, note: Note | None = None) -> Iterator[Step]:
    """Every inline node of ``content`` in document order, descending into notes.

    ``where`` is updated in place by the breaks met (inside notes too), so a caller
    walking several pieces passes the same cursor to each.
    """
    if where is None:
        where = Where()
    offset = 0
    for node in content:
        if type(node) is Text:  # most nodes: the general path below, without its property calls
            yield _new(Step, (node, where.page, where.line, offset, note, where.col or 0))
            n = len(node.text)
            where.col = (where.col or 0) + n
            offset += n
            continue
        if isinstance(node, PageBreak):
            where.page = node.n
        elif isinstance(node, LineBreak):
            where.line = node.n
            where.col = 0
        yield Step(node, where.page, where.line, offset, note, where.col or 0)
        if isinstance(node, Note):
            yield from walk(node.content, where, node)
        elif isinstance(node, Gaiji):
            where.col = (where.col or 0) + 1
        else:  # a text run or a label takes its characters; breaks take none
            where.col = (where.col or 0) + len(node.source)
        offset += len(node.reading)


#: makes a named tuple (a Step, a Place) without its generated __new__: a Python call per node of
#: every walk, per character of every witness_places
_new = tuple.__new__


def advance(content: list[Inline], where: Where) -> None:
    """Move ``where`` over ``content`` exactly as exhausting :func:`walk` would, without making its steps.

    For the walks that only carry the cursor through a piece they do not read (the 疏 between
    two 注 of a 注疏, every piece when only columns are wanted): the same breaks, the same
    column arithmetic, a third of the cost.  ``tests/test_model_walk.py`` holds the two equal
    on real witnesses.
    """
    for node in content:
        if type(node) is Text:
            where.col = (where.col or 0) + len(node.text)
            continue
        if isinstance(node, PageBreak):
            where.page = node.n
        elif isinstance(node, LineBreak):
            where.line = node.n
            where.col = 0
        if isinstance(node, Note):
            advance(node.content, where)
        elif isinstance(node, Gaiji):
            where.col = (where.col or 0) + 1
        else:
            where.col = (where.col or 0) + len(node.source)


def nodes(content: list[Inline]) -> Iterator[Inline]:
    """Every inline node of ``content`` in document order, descending into notes (a note before
    its content), as :func:`walk` meets them, for a caller that needs no page, line or offset."""
    for node in content:
        yield node
        if isinstance(node, Note):
            yield from nodes(node.content)


class Place(NamedTuple):
    """Page, line and column of one reading character.

    (A named tuple: :func:`witness_places` makes one per reading character of a witness; a tuple
    is made several times faster than a frozen dataclass and is a third of its size.)
    """

    page: str | None
    line: int | None
    col: int | None = None


def reading_places(piece: "Piece", where: Where | None = None) -> list[Place]:
    """Page and line of every character of ``piece.text``, in order (``len == len(piece.text)``).

    Pass the walk's cursor to carry page and line from the pieces before.
    """
    if where is None:
        where = Where()
    where.enter(piece)
    out: list[Place] = []
    for step in walk(piece.content, where):
        if step.note is None:
            r = step.node.reading
            if r:
                page, line = step.page, step.line
                out.extend([_new(Place, (page, line, c)) for c in range(step.col + 1, step.col + len(r) + 1)])
    return out


def witness_places(w: "Witness") -> dict[int, list[Place]]:
    """Page and line of every reading character of every piece, keyed by ``id(piece)``.

    One cursor over the whole witness in document order: the one answer every
    stage gives to "where does this character stand".
    """
    return _WitnessPlaces(w)


class _WitnessPlaces(dict[int, list[Place]]):
    """:func:`witness_places`, each piece's places made when first asked for.

    Why: a caller asks where a few characters stand (the 案 notes' anchors), and a place for every
    character of a witness was most of the cost and memory of the answer.  The cursor at the start
    of every piece is found at once, by :func:`advance` (no steps, no places), so a piece asked
    for later gets exactly the places the one walk would have given it — of the witness as it was
    then: a caller that changes the witness asks anew.
    """

    def __init__(self, w: "Witness") -> None:
        super().__init__()
        self._starts: dict[int, tuple[Piece, Where]] = {}
        where = Where()
        for p in w.pieces():
            self._starts[id(p)] = (p, Where(where.page, where.line, where.col))
            where.enter(p)
            advance(p.content, where)

    def __missing__(self, key: int) -> list[Place]:
        piece, start = self._starts[key]  # (a KeyError for a piece not of the witness, as a dict gives)
        places = self[key] = reading_places(piece, Where(start.page, start.line, start.col))
        return places
