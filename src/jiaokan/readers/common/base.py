"""Machinery shared by every reader: loading a source file safely, errors with a
file and line, the double-column bracket tokenizer, column widths of the 四库
page, and the builder that turns reader decisions into a :class:`Witness`.

Readers differ in how they decide layers; they should not differ in how they
decode bytes, report errors, keep provenance or join a note that runs over a
line or page break.  That all lives here.
"""

from __future__ import annotations

import math
import re
from itertools import accumulate
from operator import attrgetter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from .encoding import guess_encoding
from ...errors import InputError
from ...inputs import not_a_regular_file
from ...model import (
    DEFAULT_RESP,
    HELD_COMMON,
    HELD_RE,
    Div,
    Gaiji,
    Gap,
    Inline,
    Label,
    LabelGaiji,
    LineBreak,
    Loc,
    Note,
    PageBreak,
    Piece,
    ReaderWarning,
    Text,
    Unit,
    Witness,
    WitnessMeta,
    assign_columns,
    codepoint_code,
    describe_codepoint,
    has_held,
    ids_description,
    split_held,
)


GaijiResolver = Callable[[str], "str | None"]

_CONTENT = attrgetter("content")


class ReaderError(InputError):
    """A witness file a reader cannot read: printed as one line, exit status 2."""

    def __init__(self, file: str, message: str, line: int | None = None) -> None:
        super().__init__(file, message, line)


@dataclass
class SourceText:
    """A decoded witness file: its text, its lines, and where each line starts."""

    path: str
    text: str
    lines: list[str]
    offsets: list[int]
    #: the locations made so far: a Loc is frozen, so the pieces that start on one line and page share one
    _locs: dict[tuple[int, str | None], Loc] = field(default_factory=dict, repr=False, compare=False)

    def loc(self, line: int, page: str | None = None) -> Loc:
        hit = self._locs.get((line, page))
        if hit is None:
            hit = self._locs[line, page] = Loc(line=line, page=page, offset=self.offsets[line - 1]
                                               if 0 < line <= len(self.offsets) else None)
        return hit


def decode_utf8(name: str, data: bytes) -> str:
    """``data`` as UTF-8 text (a byte-order mark dropped); a one-line :class:`ReaderError` with the line where it is
    not, saying so when the file ends inside a character (cut off: a copy that stopped) rather than "not UTF-8".
    The one way a witness file's bytes, and a CollateX JSON file's, become text."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        if exc.reason == "unexpected end of data" and exc.end >= len(data):
            raise ReaderError(name, "the file ends in the middle of a character: it looks cut off", line) from None
        guess = guess_encoding(data)
        hint = f" ({guess.hint()})" if guess is not None else ""
        raise ReaderError(name, f"not valid UTF-8 at byte {exc.start}{hint}", line) from None


def load_source(path: str | Path, data: bytes | None = None) -> SourceText:
    """Read and decode a witness file, refusing what is not UTF-8 text.

    Why so strict: a GBK file decoded leniently yields plausible-looking
    garbage that would then be collated; better to stop with a clear message.
    """
    name = str(path)
    if data is None:
        problem = not_a_regular_file(path)
        if problem is not None and not Path(path).is_dir():  # a folder keeps its own message below
            raise ReaderError(name, problem)
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            raise ReaderError(name, "no such file") from None
        except IsADirectoryError:
            raise ReaderError(name, "is a directory, not a witness file") from None
        except OSError as exc:
            raise ReaderError(name, f"cannot read: {exc.strerror}") from None
    if not data.strip():
        raise ReaderError(name, "empty file: no text to read")
    if b"\x00" in data[:65536] or data.startswith((b"\xff\xfe", b"\xfe\xff")):
        guess = guess_encoding(data)
        if guess is not None:
            raise ReaderError(name, f"not UTF-8: {guess.hint()}")
        if not _stray_nuls(data):
            nul = data.find(b"\x00")  # where: a text file cut and padded (a failed copy) shows where it went wrong
            where = f" from byte {nul}" if nul >= 0 else ""
            line = data[:nul].count(b"\n") + 1 if nul >= 0 else None
            raise ReaderError(name, f"binary file (NUL bytes{where}): expected a UTF-8 text witness", line)
    text = decode_utf8(name, data).replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    # where each line starts: the running sum of the line lengths, each with its newline (in C)
    offsets = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
    offsets.pop()
    return SourceText(name, text, lines, offsets)


def _stray_nuls(data: bytes) -> bool:
    """A few NUL bytes in otherwise valid UTF-8 text: a damaged text file, read (each NUL is held
    as a marker and warned), not a binary one."""
    if data.count(b"\x00") * 100 > len(data):
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


# --------------------------------------------------------------------------
# Characters and widths

HAN_RE = re.compile(
    "[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f\u3007]"
)
GAIJI_RE = re.compile(r"&([A-Za-z][A-Za-z0-9_]*);")


def han_chars(text: str) -> str:
    """Only the Han characters of ``text``."""
    return "".join(HAN_RE.findall(text))


#: What :func:`counted_chars` surely does not count: the complement of Han, of the held code points but the
#: noncharacters of planes 1–14, and of every character of those planes — one class the regex engine tests
#: in a step or two, so that a whole text is filtered in one ``sub`` in C ...
_UNCOUNTED = f"[^{HAN_RE.pattern[1:-1]}{HELD_COMMON}\U00010000-\U000effff]"
#: ... in runs, written ``XX*`` and not ``X+``: a pattern that opens with a class lets ``re`` skip from one
#: character of the class to the next in a tight loop, where one that opens with a repeat is tried at every
#: character of the text (the same matches; the book's lossless checks took 1.8 times as long) ...
_UNCOUNTED_RE = re.compile(f"{_UNCOUNTED}{_UNCOUNTED}*")
#: ... and then the characters of planes 1–14 that are neither Han nor noncharacters (rare).
_ASTRAL_NOT_HAN_RE = re.compile("[\U00010000-\U0001ffff\U00031350-\U000effff]")


def _held_nonchar_only(m: re.Match[str]) -> str:
    return m.group() if ord(m.group()) & 0xFFFE == 0xFFFE else ""
#: The held code points Python takes for white space (see :func:`counted_chars`).
_HELD_SPACE_RE = re.compile("[" + "".join(re.escape(chr(c)) for c in range(0x3001)  # (no white space beyond U+3000)
                                          if chr(c).isspace() and HELD_RE.match(chr(c))) + "]")


def counted_chars(text: str) -> str:
    """The measure of losslessness: the Han characters of ``text`` and the code points the
    model holds as markers (controls, private-use glyphs: :data:`~jiaokan.model.HELD_RE`),
    so that a source character kept as a marker is counted like any other.

    Controls that Python takes for white space (U+000B, U+000C, U+001C–U+001F, U+0085) are
    not counted, as white space is not: a reader that strips a line drops them with the
    spaces (the builder warns when it does, :meth:`WitnessBuilder.finish`).
    """
    kept = _UNCOUNTED_RE.sub("", text)
    if _ASTRAL_NOT_HAN_RE.search(kept):
        kept = _ASTRAL_NOT_HAN_RE.sub(_held_nonchar_only, kept)
    # a held character Python takes for white space is dropped too (Han characters never are)
    return _HELD_SPACE_RE.sub("", kept) if _HELD_SPACE_RE.search(kept) else kept


def columns(text: str) -> int:
    """Columns a transcribed line takes on the 四库 page.

    Large characters take one column each; double-column small text ``(A/B)``
    takes half a column per character, rounded up per bracket group; a gaiji
    entity is one character.  Used to tell a full line (the text continues)
    from a short one (the passage ends) where indentation was lost.
    """
    if "&" in text:  # (asked in C first: most lines hold no entity)
        text = GAIJI_RE.sub("\ue000", text)
    width = 0
    pos = 0
    n = len(text)
    while pos < n:  # counted a stretch at a time with str methods, not a character at a time
        i = text.find("(", pos)
        big = "".join(text[pos:i if i >= 0 else n].split())  # (str.split cuts at what isspace calls white space)
        width += len(big) - big.count("/") - big.count(")")
        if i < 0:
            break
        j = text.find(")", i + 1)
        if j < 0:
            j = n
        small = text[i + 1:j]
        width += math.ceil((len(small) - small.count("/") - small.count(" ") - small.count("\u3000")) / 2)
        pos = j + 1
    return width


# --------------------------------------------------------------------------
# Tokens of a line: text, double-column brackets, gaiji


@dataclass(slots=True)
class Tok:
    kind: str  # "text" | "open" | "close" | "slash" | "gaiji"
    value: str = ""


_TOKEN_RE = re.compile(r"&[A-Za-z][A-Za-z0-9_]*;|[()/]|[^()/&]+|&")


#: The tokens of the three bracket characters, one of each made once and shared by every line: they carry
#: no value and no one changes a token.  (With the matches taken as strings, not match objects, the
#: tokenizer of the 集释's lines takes a third less time.)
_BRACKET_TOKS = {"(": Tok("open"), ")": Tok("close"), "/": Tok("slash")}


def tokenize(line: str) -> list[Tok]:
    """Split a transcribed line into text runs, ``(``, ``/``, ``)`` and gaiji."""
    out: list[Tok] = []
    for s in _TOKEN_RE.findall(line):  # (the pattern has no group: each match whole)
        tok = _BRACKET_TOKS.get(s)
        if tok is None:
            tok = Tok("gaiji", s[1:-1]) if s.startswith("&") and s.endswith(";") and len(s) > 2 else Tok("text", s)
        out.append(tok)
    return out


# --------------------------------------------------------------------------
# The builder


@dataclass
class _Pending:
    breaks: list[Inline] = field(default_factory=list)


class WitnessBuilder:
    """Collects pieces into units and divisions, with breaks kept in place.

    Readers call :meth:`line` at each source line, :meth:`page` at each page
    marker, open pieces and notes, and add text.  Page and line breaks that
    arrive between pieces are held and placed at the start of whatever content
    comes next, so each break sits exactly where the next source character does.
    """

    def __init__(self, meta: WitnessMeta, source: SourceText, gaiji_table: "GaijiResolver | None" = None):
        self.meta = meta
        self.source = source
        self.witness = Witness(meta=meta)
        self.resolve_gaiji: GaijiResolver = gaiji_table or (lambda code: None)
        self.page: str | None = None
        self.line_no: int = 0
        self._pending: list[Inline] = []
        self._held_seen: dict[str, int] = {}  # held code points kept so far, per code point
        self._div: Div | None = None
        self._unit: Unit | None = None
        self._unit_layers: dict[str, int] = {}  # pieces per layer in the open unit (for their ids, in O(1))
        self._piece: Piece | None = None
        self._note: Note | None = None
        #: the pieces a note was opened in, in order (:meth:`finish` numbers their notes; most pieces hold none)
        self._noted: list[Piece] = []
        self._unit_count = 0
        prefix = re.sub(r"[^A-Za-z0-9_.-]", "", f"{meta.siglum}{meta.juan}") or "W"
        if not re.match(r"[A-Za-z_]", prefix):
            prefix = "W" + prefix
        self.id_prefix = prefix

    # -- provenance ---------------------------------------------------------
    def line(self, n: int) -> None:
        """Source line ``n`` starts here."""
        if n > self.line_no + 1:  # lines were skipped (blank, markup): any held code point on them is kept
            self._blank_lines_held(self.line_no + 1, n)
        self.line_no = n
        self._pending.append(LineBreak(n))

    def _blank_lines_held(self, lo: int, hi: int) -> None:
        """Held code points on the lines ``lo``..``hi - 1`` the reader skipped as blank.

        ``str.strip`` takes some controls for white space (U+0085, U+000B, U+001C–U+001F),
        so a line holding only those looks blank to every reader; kept here, in place,
        so that no source character is lost.
        """
        lines = self.source.lines
        for k in range(max(lo, 1), min(hi, len(lines) + 1)):
            ln = lines[k - 1]
            if ln.strip() or not has_held(ln):
                continue
            saved, self.line_no = self.line_no, k
            self._pending.append(LineBreak(k))
            self._pending.extend(self._held(ch) for ch in HELD_RE.findall(ln))
            self.line_no = saved

    def page_break(self, pb: PageBreak) -> None:
        self.page = pb.n
        # a line break pending before the page marker line belongs after it
        self._pending.append(pb)

    def gap(self, g: Gap) -> None:
        """Lost source text here (placed like a page break: with the text that follows)."""
        self._pending.append(g)

    def page_mark(self, mark: PageBreak | Gap) -> None:
        """A page break or a lost page, whichever the source has at this point."""
        if isinstance(mark, Gap):
            self.gap(mark)
        else:
            self.page_break(mark)

    def loc(self) -> Loc:
        return self.source.loc(self.line_no, self.page)

    def warn(self, code: str, message: str, line: int | None = None) -> None:
        self.witness.warnings.append(
            ReaderWarning(self.meta.file, line if line is not None else self.line_no, code, message)
        )

    # -- structure ----------------------------------------------------------
    def div(self, type: str, n: str | None = None, title: str | None = None) -> Div:
        self.close_unit()
        d = Div(type=type, n=n, title=title, id=f"{self.id_prefix}.d{len(self.witness.divs) + 1}")
        self.witness.divs.append(d)
        self._div = d
        return d

    def new_unit(self) -> Unit:
        self.close_unit()
        if self._div is None:
            self.div("chapter", self.meta.juan or None, self.meta.chapter or None)
        self._unit_count += 1
        u = Unit(id=f"{self.id_prefix}.{self._unit_count}")
        assert self._div is not None
        self._div.units.append(u)
        self._unit = u
        self._unit_layers = {}
        return u

    def close_unit(self) -> None:
        self.close_piece()
        self._unit = None

    def piece(
        self,
        layer: str,
        *,
        resp: str | None = None,
        subtype: str | None = None,
        cert: str | None = None,
        new_unit: bool | None = None,
    ) -> Piece:
        """Open a piece; a 经 or paratext piece starts a new unit unless told otherwise."""
        # (what :meth:`close_piece` does, without its call: a piece is opened for every passage and every
        # note of the book)
        self._note = None
        self._piece = None
        unit = self._unit
        if new_unit is None:
            new_unit = layer in ("jing", "paratext") or unit is None
        if new_unit or unit is None:
            unit = self.new_unit()
        if resp is None:
            resp = DEFAULT_RESP.get(layer)
        # counted as they open, not by scanning the unit: a unit of 10^5 pieces (one line of
        # a file repeated into a single line) would make reading quadratic
        k = self._unit_layers.get(layer, 0) + 1
        # (the fields by position, its id among them, and the location as :meth:`loc` gives it, without the call)
        p = Piece(layer, [], self.source.loc(self.line_no, self.page), resp, subtype, cert, f"{unit.id}.{layer}{k}")
        self._unit_layers[layer] = k
        unit.pieces.append(p)
        self._piece = p
        return p

    def close_piece(self) -> None:
        if self._note is not None:
            self.close_note()
        self._piece = None

    @property
    def current(self) -> Piece | None:
        return self._piece

    @property
    def in_note(self) -> bool:
        return self._note is not None

    @property
    def current_note(self) -> Note | None:
        return self._note

    # -- content ------------------------------------------------------------
    def _target(self) -> list[Inline]:
        if self._note is not None:
            return self._note.content
        if self._piece is None:
            raise RuntimeError("no open piece")  # a reader bug, not a user error
        return self._piece.content

    def _flush(self) -> None:
        if self._pending:
            target = self._target()
            target.extend(self._pending)
            self._pending.clear()  # (the list kept: its nodes were copied into the target)

    def _loc_for_pending(self) -> Loc:
        return self.loc()

    def text(self, s: str) -> None:
        """Source characters; a held code point among them (:data:`~jiaokan.model.HELD_RE`) becomes a marker."""
        if not s:
            return
        if not has_held(s):  # the usual case: one run of text, no splitting
            piece = self._piece  # (the open piece's content, as _target gives it, without the call)
            target = piece.content if piece is not None and self._note is None else self._target()
            pending = self._pending
            if pending:  # the breaks before the text (as _flush gives them, without its calls)
                target.extend(pending)
                pending.clear()
            if target and isinstance(target[-1], Text):
                target[-1].text += s
            else:
                target.append(Text(s))
            return
        if self._pending:
            self._flush()
        for kind, run in split_held(s):
            if kind == "held":
                self._target().append(self._held(run))
                continue
            target = self._target()
            if target and isinstance(target[-1], Text):
                target[-1].text += run
            else:
                target.append(Text(run))

    def label(self, s: str) -> None:
        if self._pending:
            self._flush()
        if not has_held(s):  # the usual case, as in :meth:`text`: one label, without splitting (a generator and a regex)
            if s:
                self._target().append(Label(s))
            return
        for kind, run in split_held(s):
            if kind == "held":
                self._target().append(self._held(run))
            else:
                self._target().append(Label(run))

    def _context(self, ch: str) -> str:
        """`` (…前⟨here⟩後…)``: where ``ch`` stands on the current source line, if found there."""
        lines = self.source.lines
        ln = lines[self.line_no - 1] if 0 < self.line_no <= len(lines) else ""
        i = ln.find(ch)
        if i < 0:
            return ""
        before, after = HELD_RE.sub("", ln[max(0, i - 6):i]), HELD_RE.sub("", ln[i + 1:i + 5])
        return f" (…{before}⟨here⟩{after}…)"

    def _held(self, ch: str) -> Gaiji:
        """Keep a code point the model cannot hold as text as an unresolved marker, and say so.

        Every reader passes its text through :meth:`text` (or :meth:`label`), so
        this is the one place where a control character, a private-use glyph or a
        noncharacter enters the model: as ``Gaiji("U-0001")``, written to the TEI
        as ``<g ref="#U-0001"/>`` with a ``charDecl`` entry giving the code point.
        Controls and the like are reported at every occurrence (each is a fault of
        the file); a private-use glyph once per file (exports use them often).
        """
        code = codepoint_code(ch)
        self._held_seen[ch] = self._held_seen.get(ch, 0) + 1
        first = code not in self.witness.char_decl
        if first:
            self.witness.char_decl[code] = None
        if first or not (0xE000 <= ord(ch) <= 0xF8FF or ord(ch) >= 0xF0000):
            self.warn("held-character", f"{describe_codepoint(ch)}{self._context(ch)} kept as the marker "
                      f"<g ref=\"#{code}\"/>: it is no reading; collation calls a difference over it uncertain")
        return Gaiji(code, None)

    def _warn_stripped_held(self) -> None:
        """Say where a white-space control was stripped with the spaces of a line rather than kept."""
        want: dict[str, list[int]] = {}
        if not _HELD_SPACE_RE.search(self.source.text):  # the usual case: one search of the file, not one per line
            return
        for k, ln in enumerate(self.source.lines, 1):
            for ch in HELD_RE.findall(ln):
                if ch.isspace():
                    want.setdefault(ch, []).append(k)
        for ch, lines in want.items():
            lost = len(lines) - self._held_seen.get(ch, 0)
            if lost > 0:
                self.warn("held-character", f"{describe_codepoint(ch)}: {lost} of {len(lines)} dropped with the "
                          "white space of their line (a control Python counts as white space)", lines[0])

    def gaiji(self, code: str, label: bool = False) -> None:
        """A character the source gives as an entity; ``label``: it stands inside a marker (a :class:`LabelGaiji`)."""
        self._flush()
        char = self.resolve_gaiji(code)
        if code not in self.witness.char_decl:
            self.witness.char_decl[code] = char
            desc = ids_description(code)
            if desc is not None:
                self.warn("ids", f"ideographic description [{desc}] in the text: kept as an unresolved <g> "
                          "with the description, not as text")
            elif char is None:
                self.warn("unknown-gaiji", f"gaiji &{code}; has no known mapping; kept as an unresolved <g>")
        self._target().append(LabelGaiji(code, char) if label else Gaiji(code, char))

    def open_note(self, layer: str = "an", resp: str | None = "四库馆臣") -> Note:
        if self._piece is None:
            raise RuntimeError("note outside a piece")
        self._flush()
        n = Note(content=[], loc=self.loc(), layer=layer, resp=resp)
        self._piece.content.append(n)
        if not self._noted or self._noted[-1] is not self._piece:
            self._noted.append(self._piece)
        self._note = n
        return n

    def close_note(self) -> None:
        self._note = None

    def reopen_note(self, note: Note) -> None:
        """Continue a note that was closed at a line end (double-column text carries on)."""
        self._note = note

    def finish(self) -> Witness:
        self._blank_lines_held(self.line_no + 1, len(self.source.lines) + 1)
        self._warn_stripped_held()
        if self._pending:
            # trailing breaks (a last page marker) go at the end of the last piece
            last = None
            for p in self.witness.pieces():
                last = p
            if last is not None:
                last.content.extend(self._pending)
            self._pending = []
        self.close_unit()
        assign_columns(self.witness)
        # drop empty pieces/units a reader may have opened defensively (a unit's list made anew only when it
        # holds one: asked in C)
        for d in self.witness.divs:
            for u in d.units:
                if not all(map(_CONTENT, u.pieces)):
                    u.pieces = [p for p in u.pieces if p.content]
            d.units = [u for u in d.units if u.pieces]
        # the notes numbered in each piece that holds any: only the pieces a note was opened in are asked, not
        # every piece of the witness (a note is only ever made there, and a piece with one is not empty)
        for p in self._noted:
            k = 0
            for node in p.content:
                if isinstance(node, Note):
                    k += 1
                    node.id = f"{p.id}.an{k}"
        return self.witness


class NoteLineEmitter:
    """Feeds one line's tokens to the builder, reading ``(…/…)`` as 案 notes.

    Double-column notes are written one bracket group per printed line, so a
    note that runs over lines (and pages) arrives as adjacent groups: a group
    that closes at the end of a line and a group that opens the next line are
    one note, unless the new group starts with 案 (a new note).  ``/`` inside a
    group only marks the column boundary and is dropped.
    """

    def __init__(self, builder: WitnessBuilder) -> None:
        self.b = builder
        self._open_line: int | None = None  # line where the open bracket started
        self._joinable: Note | None = None  # a note just closed with nothing after it
        self._is_note_cont = False

    @property
    def open(self) -> bool:
        return self._open_line is not None

    def feed(self, body: str, line_no: int) -> None:
        # (whether a note is open asked of its line, not through :attr:`open`: a property call a token, and
        # :meth:`end_line` is called for every line of a file)
        toks = tokenize(body)
        for i, tok in enumerate(toks):
            if tok.kind == "open":
                if self._open_line is not None:
                    self.b.warn("nested-bracket", "a '(' inside a double-column note; kept as text", line_no)
                    self.b.text("(")
                    continue
                nxt = toks[i + 1].value if i + 1 < len(toks) and toks[i + 1].kind == "text" else ""
                if self._joinable is not None and not nxt.lstrip().startswith("案"):
                    self.b.reopen_note(self._joinable)
                    self._is_note_cont = True
                else:
                    self.b.open_note()
                    self._is_note_cont = False
                self._open_line = line_no
                self._joinable = None
            elif tok.kind == "close":
                if self._open_line is None:
                    self.b.warn("stray-bracket", "a ')' with no '(' before it; kept as text", line_no)
                    self.b.text(")")
                    self._joinable = None
                    continue
                self._joinable = self.b.current_note
                self.b.close_note()
                self._open_line = None
            elif tok.kind == "slash":
                if self._open_line is None:
                    self.b.text("/")
                    self._joinable = None
            elif tok.kind == "gaiji":
                self.b.gaiji(tok.value)
                self._joinable = None
            else:
                if self._open_line is not None:
                    self.b.text(tok.value)
                elif tok.value.strip():
                    self.b.text(tok.value)
                    self._joinable = None
                else:
                    self.b.text(tok.value)

    def end_line(self, line_no: int, last_line: bool) -> None:
        """A line ended: an unclosed note is either a cut-off file or a stray bracket."""
        if self._open_line is None:
            return
        note = self.b.current_note
        assert note is not None
        is_an = self._is_note_cont or note.text.lstrip().startswith("案")
        opened = self._open_line or line_no
        if last_line and is_an:
            raise ReaderError(
                self.b.meta.file,
                f"the file ends inside the 案 note opened at line {opened}: it looks cut off",
                line_no,
            )
        if is_an:
            self.b.warn("unclosed-bracket", f"the note opened at line {opened} is not closed on its line; closed at the line end")
            self._joinable = note
        else:
            # not a note at all: put the bracket and its text back as plain text
            piece = self.b.current
            assert piece is not None
            self.b.close_note()
            idx = next(k for k, node in enumerate(piece.content) if node is note)
            piece.content[idx : idx + 1] = [Text("(")] + note.content
            self.b.warn("unclosed-bracket", f"unclosed '(' at line {opened} kept as text")
            self._joinable = None
        self.b.close_note()
        self._open_line = None

    def break_join(self) -> None:
        """Something other than a note continuation came: the last note cannot be continued."""
        self._joinable = None


class Reader:
    """A witness format.  Subclasses set ``name``/``description`` and implement
    :meth:`sniff`, :meth:`expected` and :meth:`parse`.

    ``consumed_markup`` returns the source text minus what the reader drops on
    purpose (page-marker lines, say), so that losslessness can be checked as
    "the Han characters of that text equal the Han characters of the TEI".
    """

    name: str = ""
    description: str = ""
    #: what a file of this format is (a key of :data:`jiaokan.model.ROLES`), and who wrote
    #: it when neither the manifest nor the file says; both fill only what is left empty
    role: str = "reference"
    author: str = ""
    #: The commentary layers whose boundary with the 经 that follows the format does not mark, so
    #: that the reader infers it (a 经 piece right after such a piece, with no marker of its own):
    #: the build checks those against a witness whose layers are explicit (:mod:`jiaokan.collate.relayer`)
    infers_boundaries: frozenset[str] = frozenset()

    def sniff(self, src: SourceText) -> float:
        """How sure (0–1) we are that ``src`` is in this format."""
        raise NotImplementedError

    def expected(self) -> str:
        """What this format looks like, for the wrong-format error message."""
        return self.description

    def consumed_markup(self, src: SourceText) -> str:
        return src.text

    def gaiji_table(self) -> "GaijiResolver":
        try:
            from ...normalize import resolve_gaiji
        except ImportError:  # pragma: no cover - normalization not installed yet
            return {"KR0925": "楣"}.get
        return resolve_gaiji

    def parse(self, src: SourceText, meta: WitnessMeta) -> Witness:
        raise NotImplementedError

    def read(self, src: SourceText, meta: WitnessMeta, *, check_format: bool = True) -> Witness:
        if check_format and self.sniff(src) <= 0:
            raise ReaderError(src.path, f"does not look like a '{self.name}' file: expected {self.expected()}")
        w = self.parse(src, meta)
        from .lossless import lossless_warning  # (lossless builds on this module)

        lost = lossless_warning(self, src, w)
        if lost is not None:
            w.warnings.append(lost)
        return w


def iter_nonempty(lines: list[str]) -> Iterator[tuple[int, str]]:
    for i, ln in enumerate(lines, 1):
        if ln.strip():
            yield i, ln
