"""Layered TEI (as written by :mod:`jiaokan.tei.writer`) → the witness model.

This is what every later stage reads: collation, emendation and rendering
take TEI files, so a scholar can hand-correct a TEI file and rerun them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypedDict

from lxml import etree

from ..errors import InputError
from ..model import (
    LAYERS,
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
    Text,
    Unit,
    Witness,
    ReaderWarning,
    Where,
    WitnessMeta,
    assign_columns,
    code_codepoint,
    codepoint_code,
    split_held,
    walk,
)
from ..readers import default_role
from .parse import parse_xml
from .writer import TEI_NS, XML_NS

_T = "{%s}" % TEI_NS
_XML_ID = "{%s}id" % XML_NS
NS = {"t": TEI_NS}


def read_tei(path: str | Path) -> Witness:
    """Parse a witness TEI file; a one-line :class:`InputError` if it is not one."""
    path = Path(path)
    root = parse_xml(path).getroot()
    if root.tag != _T + "TEI":
        raise InputError(str(path), "not a TEI document (root element is not TEI in the TEI namespace)")
    if root.find("t:text/t:body", NS) is None:
        raise InputError(str(path), "TEI without text/body")
    if root.find(".//t:app", NS) is not None and root.find(".//t:ab[@type='jing']", NS) is None:
        raise InputError(str(path), "this is an apparatus file, not a witness transcription")
    return witness_from_tei(root, str(path))


class _State(TypedDict):
    """Where reading stands in the body: the last source line and page label seen."""

    line: int
    page: str | None


def _text(el: etree._Element | None) -> str:
    return "".join(el.itertext()).strip() if el is not None else ""


def witness_from_tei(root: etree._Element, name: str = "") -> Witness:
    bibl = root.find("t:teiHeader/t:fileDesc/t:sourceDesc/t:bibl", NS)
    idnos = {e.get("type"): (e.text or "") for e in root.iterfind("t:teiHeader/t:fileDesc/t:sourceDesc/t:bibl/t:idno", NS)}
    scopes = {e.get("unit"): (e.text or "") for e in root.iterfind("t:teiHeader/t:fileDesc/t:sourceDesc/t:bibl/t:biblScope", NS)}
    wit = root.find("t:teiHeader/t:fileDesc/t:sourceDesc/t:listWit/t:witness", NS)
    meta = WitnessMeta(
        siglum=(wit.get(_XML_ID) if wit is not None else None) or "W",
        file=idnos.get("file", name),
        format=idnos.get("format", "tei"),
        title=_text(bibl.find("t:title", NS)) if bibl is not None else "",
        work=idnos.get("work", ""),
        chapter=scopes.get("chapter", ""),
        juan=scopes.get("juan", ""),
        script=idnos.get("script", ""),
        source=_text(bibl.find("t:note[@type='source']", NS)) if bibl is not None else "",
        licence=_licence(root),
        edition=_text(bibl.find("t:edition", NS)) if bibl is not None else "",
        author=_text(bibl.find("t:author", NS)) if bibl is not None else "",
        extra={k[2:]: v for k, v in idnos.items() if k and k.startswith("x-")},
        role=idnos.get("role") or default_role(idnos.get("format", "")),
    )
    w = Witness(meta=meta)
    people: dict[str, str] = {}
    for rs in root.iterfind("t:teiHeader/t:fileDesc/t:titleStmt/t:respStmt", NS):
        rid = rs.get(_XML_ID)
        if rid:
            people["#" + rid] = _text(rs.find("t:persName", NS))
    for ch in root.iterfind("t:teiHeader/t:encodingDesc/t:charDecl/t:char", NS):
        code = ch.get(_XML_ID, "")
        # a held code point (U-0001) has no reading; its mapping only records the code point
        mapping = None if code_codepoint(code) is not None else _standard_mapping(ch)
        w.char_decl[code] = mapping.text if mapping is not None else None

    body = _BodyReader(w, people, name)
    # pb/@facs points to a facsimile surface; the page image's own name is the surface's @n
    body.surfaces = {"#" + (sf.get(_XML_ID) or ""): sf.get("n") or ""
                     for sf in root.iterfind("t:facsimile/t:surface", NS) if sf.get(_XML_ID)}
    body.read(root)
    assign_columns(w)
    return w


def _licence(root: etree._Element) -> str:
    """The witness's licence as the manifest gave it ("" where the header says none was given)."""
    text = _text(root.find("t:teiHeader/t:fileDesc/t:publicationStmt/t:availability/t:licence", NS))
    return "" if text.startswith("unknown") else text


def _standard_mapping(ch: etree._Element) -> etree._Element | None:
    """The ``mapping`` that gives the character itself (``standard``, or untyped), if any."""
    for m in ch.iterfind("t:mapping", NS):
        if m.get("type") in (None, "standard", "normalized", "normal") and m.text:
            return m
    return None


def _start(content: list[Inline], line_before: int, page_before: str | None) -> Loc:
    """Where a piece's first character stands: after the breaks that open the piece, else
    where the text before it ended (the one walk decides, as for every later character)."""
    where = Where(page_before, line_before)
    for step in walk(content, where):
        if step.node.kind not in ("pb", "lb", "gap"):
            break
    return Loc(where.line or line_before, where.page)


#: Elements that group text blocks and hold no text of their own (their blocks are read).
CONTAINERS = frozenset({"div", "lg", "list", "table", "row", "floatingText", "group", "text", "body", "front",
                        "back", "sp", "figure", "listBibl", "castList", "div1", "div2", "div3", "div4", "div5"})
#: Elements read as pieces (text blocks) where they stand among blocks.
BLOCKS = frozenset({"ab", "head", "p", "l", "item", "cell", "quote", "q", "speaker", "stage", "closer", "opener",
                    "salute", "signed", "dateline", "byline", "docTitle", "titlePart", "trailer", "epigraph",
                    "argument", "fw", "label", "note", "bibl", "figDesc", "caption"})
#: Inline elements whose text simply belongs to the text around them (no warning).
TRANSPARENT = frozenset({"seg", "hi", "add", "unclear", "supplied", "foreign", "term", "name", "persName",
                         "placeName", "orgName", "q", "quote", "ref", "date", "num", "w", "c", "pc", "s", "phr",
                         "emph", "title", "mentioned", "soCalled", "distinct", "rs", "measure", "time", "said",
                         "damage", "restore", "subst", "addSpan", "certainty", "span", "cit", "bibl"})
#: In a ``choice``, the reading that is the witness's own (what the source shows), best first.
SOURCE_READINGS = ("sic", "orig", "abbr")
_DIV_TYPES = {"front", "chapter", "section", "back"}
_INT_RE = re.compile(r"\d+")


class _BodyReader:
    """``text`` → divisions, units and pieces, for jiaokan's own TEI and for TEI from elsewhere.

    jiaokan's TEI is ``div/ab[@type=layer]``.  TEI from another project may hold its
    text in ``p``, ``lg/l``, untyped ``ab``, nested ``div`` and inline ``seg``, ``hi``,
    ``choice`` …: every text-bearing element is read, and no text is dropped:

    * a block whose ``@type`` (or an ancestor's) is no layer is kept as a
      ``paratext`` piece with ``subtype="unplaced"`` and ``cert="low"``, and one
      warning per file counts them (``jiaokan text --layer paratext`` shows them);
    * unknown inline elements are read through (their text stays in place);
    * ``choice`` is read as the witness's own reading (``sic``, ``orig``, ``abbr``:
      what the source shows, which is what collation compares); the editor's
      alternative (``corr``, ``reg``, ``expan``) is named in a warning, not lost
      silently;
    * ``del`` (text the source itself struck out) is kept as text and counted in
      a warning, since dropping it would lose source characters.
    """

    def __init__(self, w: Witness, people: dict[str, str], name: str) -> None:
        self.w = w
        self.people = people
        self.name = name
        self.state: _State = {"line": 0, "page": None}
        self.pending: list[Inline] = []
        self.div: Div | None = None
        self.units: dict[str, Unit] = {}
        self.unit_count = 0
        self.unplaced: dict[str, int] = {}
        self.unplaced_line: int | None = None
        self.odd_inline: dict[str, int] = {}
        self.odd_line: int | None = None
        self.surfaces: dict[str, str] = {}  # "#surface-id" → the page image name it stands for

    # -- structure ------------------------------------------------------------
    def read(self, root: etree._Element) -> None:
        text_el = root.find("t:text", NS)
        for section in ("front", "body", "back"):
            holder = text_el.find(f"t:{section}", NS) if text_el is not None else None
            if holder is None:
                continue
            self._close_div()
            self._container(holder, section, None)
        self._close_div()
        self._report()

    def _new_div(self, d: etree._Element | None, section: str) -> None:
        self._close_div()
        dtype = d.get("type") if d is not None else None
        if section in ("front", "back"):
            dtype = section
        elif dtype not in _DIV_TYPES or dtype in ("front", "back"):
            dtype = "chapter"
        self.div = Div(type=dtype, n=d.get("n") if d is not None else None, title=None,
                       id=d.get(_XML_ID) if d is not None else None)
        self.units = {}

    def _close_div(self) -> None:
        d = self.div
        if d is None:
            return
        if self.pending and d.units:
            d.units[-1].pieces[-1].content.extend(self.pending)
            self.pending = []
        if d.units:
            if d.title is None and d.type == "chapter":
                d.title = self.w.meta.chapter or None
            self.w.divs.append(d)
        self.div = None

    def _container(self, el: etree._Element, section: str, inherited: str | None) -> None:
        """Read the blocks of a container; a ``div`` that holds blocks becomes a division."""
        tag = _local(el)
        if tag == "div" or tag.startswith("div") and tag[3:].isdigit():
            holds_blocks = any(_local(c) != "div" and not _local(c).startswith("div") for c in el if _local(c))
            if holds_blocks or _own_text(el):
                self._new_div(el, section)
        layer = el.get("type") if el.get("type") in LAYERS else inherited
        self._stray(el.text, el, layer, section)
        for child in el:
            ctag = _local(child)
            if not ctag:  # comment or processing instruction
                self._stray(child.tail, el, layer, section)
                continue
            if ctag in ("pb", "lb", "gap", "milestone", "cb"):
                self.pending.extend(self._inline_node(child, []))
            elif ctag in CONTAINERS and not _own_text(child) or (ctag not in BLOCKS and not _own_text(child)
                                                               and len(child)):
                self._container(child, section, layer)
            else:
                self._block(child, section, layer)
            self._stray(child.tail, el, layer, section)

    def _stray(self, s: str | None, parent: etree._Element, layer: str | None, section: str) -> None:
        """Text standing directly in a container: kept as a piece of its own."""
        if s and s.strip():
            self._piece(parent, [Text(s)], layer, section, force_unplaced=layer is None)

    def _block(self, el: etree._Element, section: str, inherited: str | None) -> None:
        own = el.get("type")
        layer = own if own in LAYERS else inherited
        if _local(el) == "note" and own not in LAYERS:
            layer = inherited
        before = (self.state["page"], self.state["line"])
        content = self._inline(el)
        if not content:
            return
        self._piece(el, content, layer, section, before=before)

    def _piece(self, el: etree._Element, content: list[Inline], layer: str | None, section: str,
               force_unplaced: bool = False, before: tuple[str | None, int] | None = None) -> None:
        if self.div is None:
            self._new_div(None, section)
        assert self.div is not None
        page_before, line_before = before or (self.state["page"], self.state["line"])
        if self.pending:
            content = self.pending + content
            self.pending = []
        subtype, cert = el.get("subtype"), el.get("cert")
        if layer is None or force_unplaced:
            tag = _local(el) + (f"[@type={el.get('type')}]" if el.get("type") else "")
            self.unplaced[tag] = self.unplaced.get(tag, 0) + 1
            self.unplaced_line = self.unplaced_line or el.sourceline
            layer, subtype, cert = "paratext", "unplaced", "low"
        self.unit_count += 1
        unit_id = el.get("n") or el.get(_XML_ID) or f"u{self.unit_count}"
        unit = self.units.get(unit_id)
        if unit is None:
            unit = Unit(id=unit_id)
            self.units[unit_id] = unit
            self.div.units.append(unit)
        piece_id = el.get(_XML_ID) if layer != "jing" else f"{unit_id}.jing1"
        if piece_id is None:
            piece_id = f"{unit_id}.{layer}{sum(1 for q in unit.pieces if q.layer == layer) + 1}"
        p = Piece(
            layer=layer,
            content=content,
            loc=_start(content, line_before, page_before),
            resp=self.people.get(el.get("resp", ""), None),
            subtype=subtype,
            cert=cert,
            id=piece_id,
            source=el.get("source"),
        )
        unit.pieces.append(p)
        if _local(el) == "head" and self.div.title is None:
            self.div.title = p.text

    def _report(self) -> None:
        if self.unplaced:
            what = ", ".join(f"<{t}> ×{n}" for t, n in sorted(self.unplaced.items()))
            self.w.warnings.append(ReaderWarning(
                self.name, self.unplaced_line or 0, "unplaced",
                f"{sum(self.unplaced.values())} text elements carry no layer @type ({what}): kept as paratext "
                "with subtype unplaced (`jiaokan text --layer paratext` prints them)"))
        if self.odd_inline:
            what = ", ".join(f"<{t}> ×{n}" for t, n in sorted(self.odd_inline.items()))
            self.w.warnings.append(ReaderWarning(
                self.name, self.odd_line or 0, "foreign-inline",
                f"inline elements jiaokan does not encode ({what}): their text is kept in place"))

    def _odd(self, tag: str, line: int | None, what: str | None = None) -> None:
        key = what or tag
        self.odd_inline[key] = self.odd_inline.get(key, 0) + 1
        self.odd_line = self.odd_line or line

    # -- inline ---------------------------------------------------------------
    def _inline(self, el: etree._Element) -> list[Inline]:
        out: list[Inline] = []
        _add_text(out, el.text, self.w)
        for child in el:
            self._inline_node(child, out)
            _add_text(out, child.tail, self.w)
        return out

    def _gaiji(self, child: etree._Element, out: list[Inline], cls: type[Gaiji]) -> None:
        """A ``g``: its code's node (of ``cls``), or its text where it names no code."""
        code = (child.get("ref") or "").lstrip("#")
        if not code:
            _add_text(out, "".join(child.itertext()), self.w)
            return
        out.append(cls(code, None if code_codepoint(code) is not None else (child.text or self.w.char_decl.get(code))))
        self.w.char_decl.setdefault(code, None if code_codepoint(code) is not None else child.text)

    def _inline_node(self, child: etree._Element, out: list[Inline]) -> list[Inline]:
        """Append what ``child`` holds to ``out`` (and return ``out``)."""
        tag = _local(child)
        state, w = self.state, self.w
        if not tag:
            return out
        if tag == "label":
            if child.find("t:g", NS) is None:
                out.append(Label("".join(child.itertext())))
            else:  # gaiji inside a marker (the writer gives each a label of its own): LabelGaiji, the rest Label
                if child.text:
                    out.append(Label(child.text))
                for sub in child:
                    if _local(sub) == "g":
                        self._gaiji(sub, out, LabelGaiji)
                    elif sub_text := "".join(sub.itertext()):
                        out.append(Label(sub_text))
                    if sub.tail:
                        out.append(Label(sub.tail))
        elif tag == "g":
            self._gaiji(child, out, Gaiji)
        elif tag == "pb":
            state["page"] = child.get("n")
            facs = child.get("facs")
            out.append(PageBreak(n=child.get("n", ""), facs=self.surfaces.get(facs, facs) if facs else None,
                                 edition=child.get("ed"),
                                 juan=self.div.n if self.div else None))
        elif tag == "gap":
            desc = child.find("t:desc", NS)
            reason = child.get("reason", "lost")
            out.append(Gap(reason=reason if reason in ("lost", "illegible") else "lost",
                           unit=child.get("unit", "page") if child.get("unit", "page") in ("page", "line", "chars")
                           else "chars",
                           desc=desc.text if desc is not None else None))
        elif tag == "lb":
            m = _INT_RE.search(child.get("n", "") or "")
            n = int(m.group(0)) if m else state["line"]
            state["line"] = n
            out.append(LineBreak(n))
        elif tag in ("milestone", "cb"):
            pass  # structural markers with no text and no counterpart in the model
        elif tag == "app":
            # an emended witness: the lem holds the emended reading, the rdg the original
            lem = child.find("t:lem", NS)
            if lem is None:
                lem = child.find("t:rdg", NS)
            if lem is not None:
                for node in self._inline(lem):
                    if isinstance(node, Text):
                        _add_text(out, node.text, w)
                    else:
                        out.append(node)
        elif tag == "note":
            sub_state_line = state["line"]
            inner = self._inline(child)
            ntype = child.get("type") or "an"  # an untyped note is read as a 案 note, as jiaokan writes them
            layer = ntype if ntype in LAYERS else "paratext"
            out.append(
                Note(
                    content=inner,
                    loc=Loc(next((x.n for x in inner if isinstance(x, LineBreak)), sub_state_line), state["page"]),
                    layer=layer,
                    resp=self.people.get(child.get("resp", ""), None),
                    id=child.get(_XML_ID),
                )
            )
        elif tag == "choice":
            self._choice(child, out)
        else:
            if tag not in TRANSPARENT:
                self._odd(tag, child.sourceline)
            for node in self._inline(child):
                if isinstance(node, Text):
                    _add_text(out, node.text, w)
                else:
                    out.append(node)
        return out

    def _choice(self, el: etree._Element, out: list[Inline]) -> None:
        """The source's own reading of a ``choice``; the editor's alternative goes into a warning."""
        options = [c for c in el if _local(c)]
        if not options:
            return
        chosen = next((c for t in SOURCE_READINGS for c in options if _local(c) == t), options[0])
        for node in self._inline(chosen):
            if isinstance(node, Text):
                _add_text(out, node.text, self.w)
            else:
                out.append(node)
        others = [f"<{_local(c)}>{''.join(c.itertext())}" for c in options if c is not chosen]
        if others:
            self.w.warnings.append(ReaderWarning(
                self.name, el.sourceline or 0, "choice",
                f"<choice>: read <{_local(chosen)}>{''.join(chosen.itertext())} (the source's own reading); "
                f"not read: {'; '.join(others)}"))


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def _own_text(el: etree._Element) -> bool:
    """Does ``el`` hold non-space text directly (not only inside its children)?"""
    if el.text and el.text.strip():
        return True
    return any(c.tail and c.tail.strip() for c in el)


def _add_text(out: list[Inline], s: str | None, w: Witness) -> None:
    """Text into ``out``; a held code point in it (a private-use glyph) becomes its marker, as in the readers."""
    if not s:
        return
    for kind, run in split_held(s):
        if kind == "held":
            code = codepoint_code(run)
            w.char_decl.setdefault(code, None)
            out.append(Gaiji(code, None))
        elif out and isinstance(out[-1], Text):
            out[-1].text += run
        else:
            out.append(Text(run))
