"""Layered TEI (as written by :mod:`jiaokan.tei.writer`) → the witness model.

This is what every later stage reads: collation, emendation and rendering
take TEI files, so a scholar can hand-correct a TEI file and rerun them.
"""

from __future__ import annotations

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
    LineBreak,
    Loc,
    Note,
    PageBreak,
    Piece,
    Text,
    Unit,
    Witness,
    Where,
    WitnessMeta,
    walk,
)
from ..readers import default_role
from .writer import TEI_NS, XML_NS

_T = "{%s}" % TEI_NS
_XML_ID = "{%s}id" % XML_NS
NS = {"t": TEI_NS}


def read_tei(path: str | Path) -> Witness:
    """Parse a witness TEI file; a one-line :class:`InputError` if it is not one."""
    path = Path(path)
    try:
        tree = etree.parse(str(path))
    except OSError:
        raise InputError(str(path), "no such file or not readable") from None
    except etree.XMLSyntaxError as exc:
        raise InputError(str(path), f"not well-formed XML: {exc.msg}", exc.lineno) from None
    root = tree.getroot()
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
        licence=_text(root.find("t:teiHeader/t:fileDesc/t:publicationStmt/t:availability/t:licence", NS)),
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
        mapping = ch.find("t:mapping", NS)
        w.char_decl[ch.get(_XML_ID, "")] = mapping.text if mapping is not None else None

    state: _State = {"line": 0, "page": None}
    for section in ("front", "body", "back"):
        holder = root.find(f"t:text/t:{section}", NS)
        if holder is None:
            continue
        for d in holder.iterfind("t:div", NS):
            div = Div(type=d.get("type", "chapter"), n=d.get("n"), title=None, id=d.get(_XML_ID))
            units: dict[str, Unit] = {}
            for el in d:
                if el.tag not in (_T + "ab", _T + "head"):
                    continue
                layer = el.get("type", "")
                if layer not in LAYERS:
                    raise InputError(name, f"<{etree.QName(el).localname}> with @type={layer!r}: not a layer", el.sourceline)
                page_before, line_before = state["page"], state["line"]
                content = _read_inline(el, w, people, state, div)
                unit_id = el.get("n") or (el.get(_XML_ID) or f"u{len(units) + 1}")
                unit = units.get(unit_id)
                if unit is None:
                    unit = Unit(id=unit_id)
                    units[unit_id] = unit
                    div.units.append(unit)
                p = Piece(
                    layer=layer,
                    content=content,
                    loc=_start(content, line_before, page_before),
                    resp=people.get(el.get("resp", ""), None),
                    subtype=el.get("subtype"),
                    cert=el.get("cert"),
                    id=el.get(_XML_ID) if layer != "jing" else f"{unit_id}.jing1",
                )
                unit.pieces.append(p)
                if el.tag == _T + "head" and div.title is None:
                    div.title = p.text
            if div.title is None and div.type == "chapter":
                div.title = meta.chapter or None
            w.divs.append(div)
    return w


def _start(content: list[Inline], line_before: int, page_before: str | None) -> Loc:
    """Where a piece's first character stands: after the breaks that open the piece, else
    where the text before it ended (the one walk decides, as for every later character)."""
    where = Where(page_before, line_before)
    for step in walk(content, where):
        if step.node.kind not in ("pb", "lb", "gap"):
            break
    return Loc(where.line or line_before, where.page)


def _read_inline(el: etree._Element, w: Witness, people: dict[str, str], state: _State, div: Div) -> list[Inline]:
    out: list[Inline] = []

    def add_text(s: str | None) -> None:
        if not s:
            return
        if out and isinstance(out[-1], Text):
            out[-1].text += s
        else:
            out.append(Text(s))

    add_text(el.text)
    for child in el:
        tag = etree.QName(child).localname if isinstance(child.tag, str) else ""
        if tag == "label":
            out.append(Label(child.text or ""))
        elif tag == "g":
            code = (child.get("ref") or "").lstrip("#")
            out.append(Gaiji(code, child.text or w.char_decl.get(code)))
        elif tag == "pb":
            state["page"] = child.get("n")
            out.append(PageBreak(n=child.get("n", ""), facs=child.get("facs"), edition=child.get("ed"), juan=div.n))
        elif tag == "gap":
            desc = child.find("t:desc", NS)
            out.append(Gap(reason=child.get("reason", "lost"), unit=child.get("unit", "page"),
                           desc=desc.text if desc is not None else None))
        elif tag == "lb":
            n = int(child.get("n", "0") or 0)
            state["line"] = n
            out.append(LineBreak(n))
        elif tag == "app":
            # an emended witness: the lem holds the emended reading, the rdg the original
            lem = child.find("t:lem", NS)
            if lem is not None:
                for node in _read_inline(lem, w, people, state, div):
                    if isinstance(node, Text):
                        add_text(node.text)
                    else:
                        out.append(node)
        elif tag == "note":
            sub_state_line = state["line"]
            inner = _read_inline(child, w, people, state, div)
            out.append(
                Note(
                    content=inner,
                    loc=Loc(next((x.n for x in inner if isinstance(x, LineBreak)), sub_state_line), state["page"]),
                    layer=child.get("type", "an"),
                    resp=people.get(child.get("resp", ""), None),
                    id=child.get(_XML_ID),
                )
            )
        add_text(child.tail)
    return out
