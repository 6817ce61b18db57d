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
import re
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Callable
from urllib.parse import quote as _quote

from lxml import etree

from .. import __version__
from ..emend.notes import supplied_start
from ..readers import default_role
from ..model import (
    Div,
    Gaiji,
    Gap,
    Inline,
    Label,
    LabelGaiji,
    LineBreak,
    Note,
    PageBreak,
    Text,
    Witness,
    code_codepoint,
    ids_description,
    describe_codepoint,
)
from ..normalize.gaiji import ParallelReadings, ParallelResolution, parallel_readings, parallel_resolution
from ..ui import counted
from . import markup as M
from .build import TEI_NS, XML_NS, E, language_tag, tei_bytes
from .header import AUTHORITY, app_info, availability, copy_element, fixed

__all__ = ["TEI_NS", "XML_NS", "KNOWN_RESP", "LAYER_DOC", "witness_to_tei", "write_tei", "tei_bytes", "unit_targets", "char_entry"]

#: Stable ids for the responsible people we know; others get ``resp-N``.
KNOWN_RESP: dict[str, tuple[str, str]] = {
    "郑玄": ("zhengxuan", "注"),
    "鄭玄": ("zhengxuan", "注"),
    "子夏": ("zixia", "传"),
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
    "zhuan": "传 子夏's tradition on 喪服, between the 经 and the 注",
    "zhu": "注 郑玄's commentary",
    "shu": "疏 贾公彦's sub-commentary",
    "yinyi": "音义 陆德明's glosses",
    "shi": "释 李如圭's own comments",
    "an": "案 the 四库 editors' bracketed collation notes",
    "kaozheng": "考证 the 四库 editors' notes at the end of the 卷",
    "commentary": "other commentators, named in @resp",
    "paratext": "titles, headers, headings, site boilerplate",
}


#: The manifest key (a witness's ``extra``) holding the URL template of its page images: ``{facs}``
#: stands for the image name the source gives a page (``https://example.org/img/{facs}.png``).
FACS_URL_KEY = "facs_url"


#: What a person is responsible for, by layer, as a reader of the header reads it (``resp``).
RESP_LABEL = {
    "jing": "the classic's text (经)",
    "zhuan": "tradition (传)",
    "zhu": "commentary (注)",
    "shu": "sub-commentary (疏)",
    "yinyi": "glosses on readings and meanings (音义)",
    "shi": "collected explanations (释)",
    "an": "collation notes (案语)",
    "kaozheng": "textual notes (考证)",
    "commentary": "commentary",
    "paratext": "titles and headings",
}


def _roles(layers: set[str]) -> list[str]:
    """Layers in the order of :data:`RESP_LABEL` (one ``resp`` each), any other after them."""
    return [x for x in RESP_LABEL if x in layers] + sorted(layers - set(RESP_LABEL))


class _RespTable:
    """Assigns a stable ``xml:id`` to every responsible person a witness names, and to every page image.

    A page's image is a ``facsimile/surface`` (with ``@n`` the name the source gives it and a
    ``graphic`` whose ``@url`` is made from the manifest's template); ``pb/@facs`` points to it,
    so the pointer resolves in the file as TEI means it to (a bare name would be a relative URL
    of a file that is not there).
    """

    def __init__(self, facs_url: str = "") -> None:
        self.ids: dict[str, str] = {}
        self.roles: dict[str, set[str]] = {}
        self.surfaces: dict[str, str] = {}  # image name → surface xml:id
        self._pointers: dict[str, str] = {}  # image name → "#" + its surface's xml:id
        self._taken: set[str] = set()  # the surfaces' xml:ids (a set kept, not remade per new image)
        self.facs_url = facs_url

    def surface(self, facs: str | None) -> str | None:
        if not facs:
            return None
        pointer = self._pointers.get(facs)
        if pointer is None:
            # ASCII, as the project's other ids: ``\w`` let letters such as Ƕ (U+01F6) through, which libxml2's
            # names (XML 1.0 before its fifth edition) refuse, and the file was then refused whole
            sid = "facs-" + re.sub(r"[^A-Za-z0-9_.-]", "_", facs)
            while sid in self._taken:
                sid += "x"
            self.surfaces[facs] = sid
            self._taken.add(sid)
            pointer = self._pointers[facs] = "#" + sid
        return pointer

    def facsimile(self) -> str:
        """The ``facsimile`` of the page images met, as markup (:mod:`.markup`; "" if none): a
        witness names thousands, an element built for each cost a tenth of writing its TEI."""
        if not self.surfaces:
            return ""
        url, value = self.facs_url, M.value
        return "<facsimile>" + "".join([
            f'<surface n="{value(facs)}" xml:id="{value(sid)}"><graphic url="'
            f'{value(url.replace("{facs}", quote(facs)) if url else quote(facs))}"/></surface>'
            for facs, sid in self.surfaces.items()]) + "</facsimile>"

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
        roles = self.roles.get(name)
        if roles is None:  # (not setdefault: a set made for every piece, to be thrown away)
            roles = self.roles[name] = set()
        roles.add(layer)
        return "#" + self.ids[name]


def quote(name: str) -> str:
    """``urllib.parse.quote(name)``, at once where it is that already (an image name of letters, digits
    and ``_.-~/``, as all of Kanripo's are): a witness names thousands of page images."""
    return name if _UNQUOTED(name) else _quote(name)


#: What :func:`urllib.parse.quote` leaves as it is (its always-safe characters and its default ``safe``, ``/``).
_UNQUOTED = re.compile(r"[A-Za-z0-9_.\-~/]*\Z", re.ASCII).match


def witness_to_tei(w: Witness) -> etree._ElementTree:
    """Build the TEI document of a witness (header, front, body)."""
    m = w.meta
    resp = _RespTable(m.extra.get(FACS_URL_KEY, ""))
    fronts = [d for d in w.divs if d.type == "front"]
    backs = [d for d in w.divs if d.type == "back"]
    bodies = [d for d in w.divs if d.type not in ("front", "back")]
    # the text first: writing it fills the resp table the header lists; as markup, parsed once (:mod:`.markup`)
    out = ["<text>"]
    bare: list[tuple[int, int]] = []  # (div, piece) of each piece of breaks only (no text of its own)
    n_div = 0
    for tag, divs in (("front", fronts), ("body", bodies), ("back", backs)):
        if divs or tag == "body":
            out.append(f"<{tag}>")
            for d in divs:
                bare.extend((n_div, i) for i in _div(d, resp, out))
                n_div += 1
            if not divs:
                out.append(M.element("div", type="chapter"))
            out.append(f"</{tag}>")
    out.append("</text>")
    # the header built, then the page images and the text as markup, parsed into the document at once (the
    # images put before the text's parts, not added to its markup joined: a copy of millions of characters less)
    out.insert(0, resp.facsimile())
    root = M.document(E.TEI(_header(w, resp), xml_lang=language_tag(m.script)), "".join(out))
    if bare:
        all_divs = list(root.iter(_DIV))  # (no other div than _div's: the empty body's has no pieces)
        for k, i in bare:
            all_divs[k][i].text = ""  # mixed content: keeps pretty-printing from indenting a piece of breaks only
    return etree.ElementTree(root)


_DIV = f"{{{TEI_NS}}}div"


def _header(w: Witness, resp: _RespTable) -> etree._Element:
    m = w.meta
    name = Path(m.file).name
    return E.teiHeader(
        E.fileDesc(
            E.titleStmt(
                E.title(m.title or name, type="main"),
                E.title(m.chapter, type="sub") if m.chapter else None,
                E.author(m.author) if m.author else None,
                *(E.respStmt(*(E.resp(RESP_LABEL.get(role, role)) for role in _roles(resp.roles.get(person, set()))),
                             E.persName(person), xml_id=rid.removeprefix("#"))
                  for person, rid in resp.ids.items()),
                E.respStmt(E.resp("TEI encoding"), E.name(f"jiaokan {__version__}", type="software")),
            ),
            E.publicationStmt(
                fixed(_authority),
                availability({m.licence: [m.siglum]}),
                E.date(_dt.date.today().isoformat()),
            ),
            E.sourceDesc(
                E.bibl(
                    E.title(m.title or name),
                    E.author(m.author) if m.author else None,
                    E.edition(m.edition) if m.edition else None,
                    E.biblScope(m.juan, unit="juan") if m.juan else None,
                    E.biblScope(m.chapter, unit="chapter") if m.chapter else None,
                    E.note(m.source, type="source") if m.source else None,
                    E.idno(name, type="file"),
                    E.idno(m.format, type="format"),
                    # the role only where the format does not already say it
                    E.idno(m.role, type="role") if m.role and m.role != default_role(m.format) else None,
                    E.idno(m.work, type="work") if m.work else None,
                    E.idno(m.script, type="script") if m.script else None,
                    *(E.idno(v, type=f"x-{k}") for k, v in sorted(m.extra.items())),
                ),
                E.listWit(E.witness(m.title or m.siglum, xml_id=m.siglum)),
            ),
        ),
        E.encodingDesc(
            app_info(),
            fixed(_project_desc),
            _editorial_decl(w),
            E.charDecl(*(char_entry(code, char) for code, char in sorted(w.char_decl.items())))
            if w.char_decl else None,
        ),
        fixed(_PROFILE_DESC.get(m.script, _profile_desc_other)),
    )


# The parts of a witness's header that are the same in every file (or every file of a script): built once,
# copied (:func:`~jiaokan.tei.header.fixed`).

def _authority() -> etree._Element:
    return E.authority(AUTHORITY)


def _project_desc() -> etree._Element:
    return E.projectDesc(E.p(
        "Layered transcription produced by jiaokan: every character sits in exactly one element "
        "whose nearest @type names its layer; @n groups a 经 passage with its commentary; "
        "@corresp points from commentary to its passage; lb/@n is the line of the source file."))


def _layer_paragraphs() -> etree._Element:
    return E.editorialDecl(*(E.p(f"{layer}: {doc}") for layer, doc in LAYER_DOC.items()))


def _editorial_decl(w: Witness) -> etree._Element:
    """``editorialDecl``: the layers (:data:`LAYER_DOC`), then what the reader warned of, if it did."""
    decl = fixed(_layer_paragraphs)
    if w.warnings:
        decl.append(E.p(f"The reader reported {counted(len(w.warnings), 'warning')}; passages it was unsure of carry "
                        "cert=\"low\"."))
    return decl


def _profile_desc(script: str) -> etree._Element:
    return E.profileDesc(E.langUsage(E.language(
        {"simplified": "Literary Chinese, simplified script",
         "traditional": "Literary Chinese, traditional script"}.get(script, "Literary Chinese"),
        ident=language_tag(script))))


def _profile_desc_other() -> etree._Element:
    return _profile_desc("")


#: ``profileDesc`` by script (another script's is :func:`_profile_desc_other`'s: its language tag is ``lzh``).
_PROFILE_DESC: dict[str, Callable[[], etree._Element]] = {
    script: partial(_profile_desc, script) for script in ("simplified", "traditional")}


def char_entry(code: str, char: str | None) -> etree._Element:
    """The ``charDecl`` entry of one gaiji code (witness files and the apparatus alike).

    A copy of the one built for the same code, character and resolution by the other witnesses (what
    decides it): the book's witness files declare some 500 codes, a hundred and forty of them distinct."""
    learned = parallel_resolution(code)
    seen = parallel_readings(code) if char is None else None
    key = (code, char, learned, seen)
    entry = _CHAR_ENTRIES.get(key)
    if entry is None:
        entry = _CHAR_ENTRIES[key] = _char_entry(code, char, learned, seen)
    return copy_element(entry)


#: :func:`char_entry`'s entries, by what decides them.
_CHAR_ENTRIES: dict[tuple[str, str | None, ParallelResolution | None, ParallelReadings | None], etree._Element] = {}


def _char_entry(code: str, char: str | None, learned: ParallelResolution | None,
                seen: ParallelReadings | None = None) -> etree._Element:
    held = code_codepoint(code)
    if held is not None:
        # a code point the source holds in place (a control, a private-use glyph):
        # the mapping records it, since XML may not hold the character itself
        return E.char(
            E.charName(describe_codepoint(held)),
            E.mapping(f"U+{ord(held):04X}", type="codepoint"),
            E.note("held by the source at each g that points here; no reading is known"),
            xml_id=code,
        )
    desc = ids_description(code)
    if desc is not None:  # [沔-丏+丐]: the source describes the character instead of giving it
        return E.char(
            E.charName("a character described in the text"),
            E.mapping(desc, type="IDS"),
            E.note("the transcription's ideographic description (A-B+C: A less B plus C); no reading is known"),
            xml_id=code,
        )
    if learned is not None and char == learned.char:  # resolved by the build from the other witnesses
        return E.char(
            E.charName(f"Kanripo gaiji {code}"),
            E.mapping(char, type="standard", cert=learned.cert),
            E.note(f"resolved from the other witnesses ({', '.join(learned.witnesses)}), the same character at "
                   f"{learned.places} places: " + "; ".join(learned.evidence), type="evidence"),
            xml_id=code,
        )
    if not char and seen is not None:  # unresolved, though the other witnesses have text where it stands
        why = "they disagree" if seen.status == "conflict" else "one place only"
        return E.char(
            E.charName(f"Kanripo gaiji {code}"),
            E.note("no known mapping"),
            E.note(f"not resolved ({why}): where it stands in the book, the witnesses beside it ({', '.join(seen.witnesses)}) read "
                   + ", ".join(f"{c} at {n} place{'s' if n > 1 else ''}" for c, n in seen.readings)
                   + " where it stands: " + "; ".join(seen.evidence), type="evidence"),
            xml_id=code,
        )
    return E.char(
        E.charName(f"Kanripo gaiji {code}"),
        E.mapping(char, type="standard") if char else E.note("no known mapping"),
        xml_id=code,
    )


def _div(d: Div, resp: _RespTable, out: list[str]) -> list[int]:
    """The ``div`` of ``d`` as markup, onto ``out``: one ``ab`` (or ``head``) per piece.  Returns the
    indices of its pieces of elements only (:func:`_bare`), which the writer gives an empty text.

    Why there, not after parsing: pretty-printing indents the children of an element with no text node
    of its own, and an empty text is one; a piece with text (its first text, or a child's tail, as a
    piece that opens with a line break has) is written on its lines either way, and the book has six
    pieces of breaks only, among 26,000 (asking each parsed piece cost 10 ms a book)."""
    bare: list[int] = []
    out.append(M.start("div", type=d.type, n=d.n, xml_id=d.id))
    value = M.value
    # M.start's attributes in M.start's order (type subtype n resp cert source xml:id corresp), without a dict
    # of them per piece; the parts a few values make (a layer, a responsible person) made once per div
    opening: dict[tuple[str, str, str | None], str] = {}  # (tag, layer, subtype) → the tag up to its @n
    # (person, layer, cert, source) → after @n: the person's reference asked of the resp table the first time
    # (which numbers the person and records the role then, in document order), not again for each piece
    middle: dict[tuple[str | None, str, str | None, str | None], str] = {}
    first = True
    i = -1  # the piece's index in the div
    for u in d.units:
        uid = value(u.id)  # (the unit's attributes once, not per piece)
        n = f' n="{uid}"'
        jing_id = f' xml:id="{uid}"'
        corresp = f' corresp="#{uid}"' if u.jing is not None else ""
        for p in u.pieces:
            layer = p.layer
            as_head = first and layer == "paratext" and p.subtype == "head"
            if not as_head:
                first = False
            tag = "head" if as_head else "ab"
            head = opening.get(key := (tag, layer, p.subtype))
            if head is None:
                head = opening[key] = (f'<{tag} type="{value(layer)}"'
                                       + ("" if p.subtype is None else f' subtype="{value(p.subtype)}"'))
            mid = middle.get(about := (p.resp, layer, p.cert, p.source))
            if mid is None:
                who = resp.ref(p.resp, layer)  # before the content's notes: resp ids number in document order
                mid = middle[about] = "".join((
                    "" if who is None else f' resp="{value(who)}"',
                    "" if p.cert is None else f' cert="{value(p.cert)}"',
                    "" if p.source is None else f' source="{value(p.source)}"'))
            # a 经 passage has the unit's id; any other piece its own, and points to the unit's 经 passage
            ids = jing_id if layer == "jing" else corresp if p.id is None else f' xml:id="{value(p.id)}"{corresp}'
            out.append(f"{head}{n}{mid}{ids}>")
            own = _fill(out, p.content, resp)
            out.append(f"</{tag}>")
            i += 1
            if not own and _bare(p.content):  # (asked only of a piece with no text of its own: a few)
                bare.append(i)
    out.append("</div>")
    return bare


def _bare(content: list[Inline]) -> bool:
    """Does ``content``, as :func:`_fill` writes it, make elements and no text of its own (no text run of
    it that is not empty: the text of a note, a label or a gaiji is theirs)?"""
    for node in content:
        if isinstance(node, Text) and node.text:
            return False
    return bool(content) and not all(isinstance(node, Text) for node in content)


def _fill(out: list[str], content: list[Inline], resp: _RespTable) -> bool:
    """``content`` as markup, onto ``out``: its text runs as text, one element per other node (in the
    order, and with the responsible people numbered in the order, the document reads).

    Returns whether a text run of ``content`` itself is not empty (the text of a note, a label or a
    gaiji is theirs): found on the way, where :func:`_bare` would walk each piece again."""
    add = out.append
    text, value = M.text, M.value
    own = False
    for node in content:
        if type(node) is Text:  # the kinds of most nodes first, by their exact type; M.element's markup, written out
            if node.text:
                own = True
                add(text(node.text))
        elif type(node) is LineBreak and type(node.n) is int:
            add(f'<lb n="{node.n}"/>')  # (nothing to escape)
        elif type(node) is Label:
            add(f"<label>{text(node.text)}</label>" if node.text else "<label/>")
        elif type(node) is PageBreak:
            facs = resp.surface(node.facs)
            add("".join((f'<pb n="{value(node.n)}"', "" if facs is None else f' facs="{value(facs)}"',
                         "" if node.edition is None else f' ed="{value(node.edition)}"', "/>")))
        elif type(node) is Gaiji or type(node) is LabelGaiji:
            ref = value("#" + node.code)
            g = f'<g ref="{ref}">{text(node.char)}</g>' if node.char else f'<g ref="{ref}"/>'
            add(g if type(node) is Gaiji else f"<label>{g}</label>")  # a gaiji inside a marker: in its label
        elif isinstance(node, Text):
            if node.text:
                own = True
                add(text(node.text))
        elif isinstance(node, Label):
            add(f"<label>{text(node.text)}</label>" if node.text else "<label/>")
        elif isinstance(node, Gaiji):
            g = M.element("g", text(node.char) if node.char else "", ref="#" + node.code)
            add(f"<label>{g}</label>" if isinstance(node, LabelGaiji) else g)
        elif isinstance(node, PageBreak):
            add(M.element("pb", n=node.n, facs=resp.surface(node.facs), ed=node.edition))
        elif isinstance(node, LineBreak):
            add(M.element("lb", n=str(node.n)))
        elif isinstance(node, Gap):
            add(M.element("gap", M.element("desc", M.text(node.desc)) if node.desc else "", reason=node.reason,
                          unit=node.unit))
        elif isinstance(node, Note):
            who = resp.ref(node.resp, node.layer)  # before the notes inside it, as for a piece
            cut = supplied_start(node.text) if node.layer == "an" else None
            add(M.start("note", type=node.layer, resp=who, xml_id=node.id))
            if cut is None:
                _fill(out, node.content, resp)
            else:  # 此下永樂大典内刪去原文…今取疏義補之 + the text the editors took from the 疏
                before, after = split_inline(node.content, cut)
                _fill(out, before, resp)
                supplied: list[str] = []
                _fill(supplied, after, resp)
                # its people after its content: the header numbers them in the order the document reads
                add(M.element("supplied", "".join(supplied), reason="deleted-in-yongle-dadian",
                              resp=resp.ref("四库馆臣", "an"), source=resp.ref("贾公彦", "shu")))
            add("</note>")
        else:  # pragma: no cover - the model has no other inline kinds
            raise TypeError(f"unknown inline node {node!r}")
    return own


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


def unit_targets(w: Witness) -> dict[str, str]:
    """Unit id → the ``xml:id`` in the witness's TEI that a pointer to the unit resolves to.

    A 经 passage's ``ab`` carries the unit id itself; a unit with no 经 (a preface, a
    title, commentary on a passage the witness lacks) has no element of that id, so a
    pointer to it goes to the unit's first piece (:mod:`jiaokan.tei.writer` gives every
    other piece its own id).  Without this, every such passage number dangled.
    """
    out: dict[str, str] = {}
    for d in w.divs:
        for u in d.units:
            if u.jing is not None:
                out[u.id] = u.id
            else:
                first = next((p.id for p in u.pieces if p.id), None)
                if first is not None:
                    out[u.id] = first
    return out


def write_tei(w: Witness, path: str | Path) -> Path:
    """Write the witness as TEI to ``path`` atomically; returns the path."""
    from .validate import write_checked

    return write_checked(path, witness_to_tei(w))
