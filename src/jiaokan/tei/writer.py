"""The witness model → layered TEI P5.

The encoding (documented in ``schemas/README.md``):

* one ``div`` per chapter (``@type`` chapter/section; front matter in ``front``);
* every piece is an ``ab`` (or a ``head`` at the top of a section) whose
  ``@type`` is its layer, ``@resp`` points at a ``respStmt`` in the header,
  ``@n`` numbers its unit (all pieces of one 经 passage share it) and
  ``@corresp`` points from commentary to its 经 passage's ``xml:id``;
* labels that open a layer in the source (鄭注, 疏) are ``label``; 案 notes are
  ``note type="an"`` in place; gaiji are ``g`` pointing into ``charDecl``, and so
  are code points the source holds that XML cannot (controls) or no reader can
  read (private-use glyphs): ``<g ref="#U-0001"/>``, whose ``char`` gives
  ``<mapping type="codepoint">U+0001</mapping>``;
  page and line breaks are ``pb`` (``@n`` page, ``@facs`` image, ``@ed``
  edition) and ``lb`` (``@n`` = line number in the source file).

So every character sits in exactly one element whose nearest ``@type`` names
its layer, and :mod:`jiaokan.tei.reader` can rebuild the model exactly.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import replace
from pathlib import Path

from lxml import etree

from .. import __version__
from ..emend.notes import supplied_start
from ..io import atomic_write_bytes
from ..readers import default_role
from ..model import (
    HELD_RE,
    UNKNOWN_CHAR,
    Div,
    Gaiji,
    Gap,
    Inline,
    Label,
    LineBreak,
    Note,
    PageBreak,
    Text,
    Witness,
    code_codepoint,
    describe_codepoint,
)

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
_T = "{%s}" % TEI_NS
_XML_ID = "{%s}id" % XML_NS
_XML_LANG = "{%s}lang" % XML_NS

#: Stable ids for the responsible people we know; others get ``resp-N``.
KNOWN_RESP: dict[str, tuple[str, str]] = {
    "郑玄": ("zhengxuan", "注"),
    "鄭玄": ("zhengxuan", "注"),
    "贾公彦": ("jiagongyan", "疏"),
    "賈公彦": ("jiagongyan", "疏"),
    "陆德明": ("ludeming", "音义"),
    "陸德明": ("ludeming", "音义"),
    "李如圭": ("lirugui", "集释"),
    "四库馆臣": ("siku", "案语 考证"),
    "朱熹": ("zhuxi", "集传"),
    "陈澔": ("chenhao", "集说"),
    "孔颖达": ("kongyingda", "正义"),
    "王与之": ("wangyuzhi", "订义"),
    "郑众": ("zhengzhong", "注"),
    "郑锷": ("zhenge", "说"),
    "王昭禹": ("wangzhaoyu", "说"),
    "易祓": ("yifu", "说"),
}

LAYER_DOC = {
    "jing": "经 the classic",
    "zhu": "注 郑玄's commentary",
    "shu": "疏 贾公彦's sub-commentary",
    "yinyi": "音义 陆德明's glosses",
    "shi": "释 李如圭's own comments",
    "an": "案 the 四库 editors' bracketed collation notes",
    "kaozheng": "考证 the 四库 editors' notes at the end of the 卷",
    "commentary": "other commentators, named in @resp",
    "paratext": "titles, headers, headings, site boilerplate",
}


def xml_safe(s: str) -> str:
    """``s`` with every code point XML cannot hold (or the model holds as a marker) as U+FFFD.

    The witness text never needs this: readers keep such code points as ``g``
    markers (:meth:`jiaokan.readers.common.base.WitnessBuilder.text`).  It is the safety
    net for metadata taken from a source (a ``#+TITLE:`` line, a 卷 number), which
    would otherwise make lxml refuse the whole document.
    """
    return HELD_RE.sub(UNKNOWN_CHAR, s) if HELD_RE.search(s) else s


def _el(parent: etree._Element, tag: str, text: str | None = None, **attrs: str | None) -> etree._Element:
    e = etree.SubElement(parent, _T + tag)
    for k, v in attrs.items():
        if v is None:
            continue
        key = {"xml_id": _XML_ID, "xml_lang": _XML_LANG}.get(k, k)
        e.set(key, xml_safe(v))
    if text is not None:
        e.text = xml_safe(text)
    return e


class _RespTable:
    """Assigns a stable ``xml:id`` to every responsible person a witness names."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}
        self.roles: dict[str, set[str]] = {}

    def ref(self, name: str | None, layer: str) -> str | None:
        if not name:
            return None
        if name not in self.ids:
            known = KNOWN_RESP.get(name)
            used = set(self.ids.values())
            rid = f"resp-{known[0]}" if known else f"resp-{len(self.ids) + 1}"
            while rid in used:
                rid += "x"
            self.ids[name] = rid
        self.roles.setdefault(name, set()).add(layer)
        return "#" + self.ids[name]


def _lang(script: str) -> str:
    return {"simplified": "lzh-Hans", "traditional": "lzh-Hant"}.get(script, "lzh")


def witness_to_tei(w: Witness) -> etree._ElementTree:
    """Build the TEI document of a witness (header, front, body)."""
    m = w.meta
    resp = _RespTable()
    root = etree.Element(_T + "TEI", nsmap={None: TEI_NS})
    root.set(_XML_LANG, _lang(m.script))
    header = _el(root, "teiHeader")
    text_el = _el(root, "text")

    fronts = [d for d in w.divs if d.type == "front"]
    backs = [d for d in w.divs if d.type == "back"]
    bodies = [d for d in w.divs if d.type not in ("front", "back")]
    if fronts:
        front = _el(text_el, "front")
        for d in fronts:
            _write_div(front, d, resp)
    body = _el(text_el, "body")
    for d in bodies:
        _write_div(body, d, resp)
    if not bodies:
        _el(body, "div", type="chapter")
    if backs:
        back = _el(text_el, "back")
        for d in backs:
            _write_div(back, d, resp)

    _write_header(header, w, resp)
    return etree.ElementTree(root)


def _write_header(header: etree._Element, w: Witness, resp: _RespTable) -> None:
    m = w.meta
    fd = _el(header, "fileDesc")
    ts = _el(fd, "titleStmt")
    _el(ts, "title", m.title or Path(m.file).name, type="main")
    if m.chapter:
        _el(ts, "title", m.chapter, type="sub")
    if m.author:
        _el(ts, "author", m.author)
    for name, rid in resp.ids.items():
        rs = _el(ts, "respStmt", xml_id=rid[len("#"):] if rid.startswith("#") else rid)
        layers = sorted(resp.roles.get(name, ()))
        _el(rs, "resp", " ".join(layers))
        _el(rs, "persName", name)
    rs = _el(ts, "respStmt")
    _el(rs, "resp", "TEI encoding")
    _el(rs, "name", f"jiaokan {__version__}")

    ps = _el(fd, "publicationStmt")
    _el(ps, "publisher", "jiaokan")
    av = _el(ps, "availability")
    _el(av, "licence", m.licence or "unknown")
    _el(ps, "date", _dt.date.today().isoformat())

    sd = _el(fd, "sourceDesc")
    bibl = _el(sd, "bibl")
    _el(bibl, "title", m.title or Path(m.file).name)
    if m.author:
        _el(bibl, "author", m.author)
    if m.edition:
        _el(bibl, "edition", m.edition)
    if m.juan:
        _el(bibl, "biblScope", m.juan, unit="juan")
    if m.chapter:
        _el(bibl, "biblScope", m.chapter, unit="chapter")
    if m.source:
        _el(bibl, "note", m.source, type="source")
    _el(bibl, "idno", Path(m.file).name, type="file")
    _el(bibl, "idno", m.format, type="format")
    if m.role and m.role != default_role(m.format):  # only what the format does not already say
        _el(bibl, "idno", m.role, type="role")
    if m.work:
        _el(bibl, "idno", m.work, type="work")
    if m.script:
        _el(bibl, "idno", m.script, type="script")
    for k, v in sorted(m.extra.items()):
        _el(bibl, "idno", v, type=f"x-{k}")
    lw = _el(sd, "listWit")
    _el(lw, "witness", m.title or m.siglum, xml_id=m.siglum)

    ed = _el(header, "encodingDesc")
    pd = _el(ed, "projectDesc")
    _el(pd, "p", "Layered transcription produced by jiaokan: every character sits in exactly one element "
        "whose nearest @type names its layer; @n groups a 经 passage with its commentary; "
        "@corresp points from commentary to its passage; lb/@n is the line of the source file.")
    edl = _el(ed, "editorialDecl")
    for layer, doc in LAYER_DOC.items():
        _el(edl, "p", f"{layer}: {doc}")
    if w.warnings:
        _el(edl, "p", f"The reader reported {len(w.warnings)} warnings; passages it was unsure of carry cert=\"low\".")
    if w.char_decl:
        cd = _el(ed, "charDecl")
        for code, char in sorted(w.char_decl.items()):
            c = _el(cd, "char", xml_id=code)
            held = code_codepoint(code)
            if held is not None:
                # a code point the source holds in place (a control, a private-use glyph):
                # the mapping records it, since XML may not hold the character itself
                _el(c, "charName", describe_codepoint(held))
                _el(c, "mapping", f"U+{ord(held):04X}", type="codepoint")
                _el(c, "note", "held by the source at each g that points here; no reading is known")
                continue
            _el(c, "charName", f"Kanripo gaiji {code}")
            if char:
                _el(c, "mapping", char, type="standard")
            else:
                _el(c, "note", "no known mapping")

    prof = _el(header, "profileDesc")
    lu = _el(prof, "langUsage")
    _el(lu, "language", {"simplified": "Literary Chinese, simplified script",
                         "traditional": "Literary Chinese, traditional script"}.get(m.script, "Literary Chinese"),
        ident=_lang(m.script))


def _write_div(parent: etree._Element, d: Div, resp: _RespTable) -> None:
    div = _el(parent, "div", type=d.type, n=d.n, xml_id=d.id)
    first = True
    for ui, u in enumerate(d.units, 1):
        jing = u.jing
        for p in u.pieces:
            as_head = first and p.layer == "paratext" and p.subtype == "head"
            tag = "head" if as_head else "ab"
            if not as_head:
                first = False
            attrs: dict[str, str | None] = {
                "type": p.layer,
                "subtype": p.subtype,
                "n": u.id,
                "resp": resp.ref(p.resp, p.layer),
                "cert": p.cert,
            }
            if p.layer == "jing":
                attrs["xml_id"] = u.id
            else:
                attrs["xml_id"] = p.id
                if jing is not None:
                    attrs["corresp"] = "#" + u.id
            el = _el(div, tag, **attrs)
            _write_inline(el, p.content, resp)
            if el.text is None and len(el):
                el.text = ""  # mixed content: keeps pretty-printing from indenting a piece of breaks only


def _append_text(el: etree._Element, s: str) -> None:
    if len(el):
        last = el[-1]
        last.tail = (last.tail or "") + s
    else:
        el.text = (el.text or "") + s


def _write_inline(el: etree._Element, content: list[Inline], resp: _RespTable) -> None:
    for node in content:
        if isinstance(node, Text):
            _append_text(el, node.text)
        elif isinstance(node, Label):
            _el(el, "label", node.text)
        elif isinstance(node, Gaiji):
            _el(el, "g", node.char or None, ref="#" + node.code)
        elif isinstance(node, PageBreak):
            _el(el, "pb", n=node.n, facs=node.facs, ed=node.edition)
        elif isinstance(node, LineBreak):
            _el(el, "lb", n=str(node.n))
        elif isinstance(node, Gap):
            gap = _el(el, "gap", reason=node.reason, unit=node.unit)
            if node.desc:
                _el(gap, "desc", node.desc)
        elif isinstance(node, Note):
            ne = _el(el, "note", type=node.layer, resp=resp.ref(node.resp, node.layer), xml_id=node.id)
            cut = supplied_start(node.text) if node.layer == "an" else None
            if cut is None:
                _write_inline(ne, node.content, resp)
            else:  # 此下永樂大典内刪去原文…今取疏義補之 + the text the editors took from the 疏
                before, after = split_inline(node.content, cut)
                _write_inline(ne, before, resp)
                sup = _el(ne, "supplied", reason="deleted-in-yongle-dadian", resp=resp.ref("四库馆臣", "an"),
                          source=resp.ref("贾公彦", "shu"))
                _write_inline(sup, after, resp)
        else:  # pragma: no cover - the model has no other inline kinds
            raise TypeError(f"unknown inline node {node!r}")


def split_inline(content: list[Inline], cut: int) -> tuple[list[Inline], list[Inline]]:
    """``content`` cut at reading offset ``cut`` (a text run there is split in two; breaks stay before)."""
    before: list[Inline] = []
    after: list[Inline] = []
    offset = 0
    for node in content:
        n = len(node.reading)
        if offset + n <= cut and not (n == 0 and offset == cut and after):
            before.append(node)
        elif offset >= cut:
            after.append(node)
        elif isinstance(node, Text):
            k = cut - offset
            before.append(replace(node, text=node.text[:k]))
            after.append(replace(node, text=node.text[k:]))
        else:  # a node that cannot be split (a gaiji): it stays whole, after the cut
            after.append(node)
        offset += n
    return before, after


def tei_bytes(tree: etree._ElementTree) -> bytes:
    return etree.tostring(tree, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def write_tei(w: Witness, path: str | Path) -> Path:
    """Write the witness as TEI to ``path`` atomically; returns the path."""
    from .validate import profile_check

    path = Path(path)
    atomic_write_bytes(path, tei_bytes(witness_to_tei(w)), check=profile_check)
    return path
