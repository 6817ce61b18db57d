"""tei.build: the TEI element maker every writer uses, and that TEI is only built through it."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

import jiaokan
from jiaokan.model import Div, Loc, Note, Piece, Text, Unit, Witness, WitnessMeta
from jiaokan.tei import markup as M
from jiaokan.tei.build import TEI_NS, XML_ID, XML_LANG, E, append_text, language_tag, tei_bytes, xml_safe
from jiaokan.tei.writer import witness_to_tei

SRC = Path(jiaokan.__file__).parent


def test_xml_attributes_none_and_namespace():
    el = E.TEI(E.teiHeader(E.title("儀禮", None, type="main", n=None, xml_id="t1")), xml_lang=language_tag("traditional"))
    assert el.tag == f"{{{TEI_NS}}}TEI" and el.get(XML_LANG) == "lzh-Hant"
    title = el[0][0]
    assert title.tag == f"{{{TEI_NS}}}title"
    assert dict(title.attrib) == {"type": "main", XML_ID: "t1"}  # n=None is left out, in the order given
    assert title.text == "儀禮" and len(title) == 0  # the None child is skipped
    # one namespace declaration, on the root: children built on their own do not repeat it
    assert tei_bytes(el).count(b"xmlns=") == 1


def test_strings_xml_cannot_hold_become_the_unknown_character():
    el = E.title("a\x01b", E.g(), "c\ue000", n="\x02")
    assert el.text == "a\ufffdb" and el[0].tail == "c\ufffd" and el.get("n") == "\ufffd"
    etree.fromstring(tei_bytes(el))  # and the document can be written and read


children = st.lists(st.one_of(st.text(alphabet="宾賓\x01 ", max_size=3),
                              st.sampled_from(["lb", "pb", "g"]).map(lambda t: ("el", t))), max_size=8)


@settings(max_examples=100, deadline=None)
@given(kids=children)
def test_append_text_places_text_as_the_builder_does(kids):
    """A loop of append/append_text makes the same element as E given the same children."""
    built = E.ab(*[E(k[1]) if isinstance(k, tuple) else k for k in kids])
    looped = E.ab()
    for k in kids:
        if isinstance(k, tuple):
            looped.append(E(k[1]))
        else:
            append_text(looped, k)
    assert etree.tostring(looped) == etree.tostring(built)


def test_resp_ids_number_in_document_order():
    """A piece's own responsibility is numbered before that of the notes inside it."""
    note = Note([Text("案")], Loc(1), layer="an", resp="乙", id="W.1.zhu1.an1")
    piece = Piece("zhu", [Text("注"), note], Loc(1), resp="甲", id="W.1.zhu1")
    unit = Unit("W.1", [Piece("jing", [Text("經")], Loc(1)), piece])
    w = Witness(WitnessMeta(siglum="W", file="w.txt", format="gen"), [Div("chapter", "1", "士冠禮", units=[unit])])
    root = witness_to_tei(w).getroot()
    ns = {"t": TEI_NS}
    assert root.find(".//t:ab[@type='zhu']", ns).get("resp") == "#resp-1"
    assert root.find(".//t:note[@type='an']", ns).get("resp") == "#resp-2"
    people = {rs.findtext("t:persName", namespaces=ns): rs.get(XML_ID) for rs in root.iterfind(".//t:respStmt", ns)}
    assert people == {"甲": "resp-1", "乙": "resp-2", None: None}


def test_no_package_imports_a_private_name_from_tei():
    """tei/ builds TEI for everyone through public names; a private one used outside it is a hidden coupling."""
    bad = []
    for path in SRC.rglob("*.py"):
        if path.parent.name == "tei" and path.parent.parent == SRC:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and (
                    node.module == "tei" or node.module.startswith("tei.")
                    or node.module.startswith("jiaokan.tei")):
                bad += [f"{path.relative_to(SRC)}: {a.name}" for a in node.names if a.name.startswith("_")]
    assert bad == []


def test_only_tei_build_makes_elements():
    """Every TEI element comes from tei.build.E: no SubElement, Element() or ElementMaker of its own elsewhere.

    The one exception is not TEI: tei/validate.py wraps optional attributes of the RELAX NG profile in an
    ``interleave`` (a schema element, in the RELAX NG namespace) before compiling it."""
    makers = ("SubElement", "ElementMaker", "makeelement")
    not_tei = {"tei/validate.py:_interleave_optional_attributes Element"}
    found = []
    for path in SRC.rglob("*.py"):
        if path == SRC / "tei" / "build.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and (node.attr in makers or (
                    node.attr == "Element" and isinstance(node.value, ast.Name) and node.value.id == "etree")):
                found.append(f"{path.relative_to(SRC)}:{_enclosing(path, node.lineno)} {node.attr}")
    assert [f for f in found if f not in not_tei] == []


def _enclosing(path: Path, line: int) -> str:
    """The name of the function of ``path`` whose body holds ``line`` (a line number moves with every edit)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
             and n.lineno <= line <= (n.end_lineno or n.lineno)]
    return names[-1] if names else str(line)


def test_xml_safe_fast_path_misses_no_code_point_it_must_replace():
    """xml_safe skips HELD_RE where str.isprintable says no such code point can be there: every one it
    replaces but U+FFFD (replaced by itself) must be one isprintable refuses."""
    from jiaokan.model import HELD_RE, UNKNOWN_CHAR

    printable_held = [hex(c) for c in range(0x110000)
                      if chr(c).isprintable() and chr(c) != UNKNOWN_CHAR and HELD_RE.match(chr(c))]
    assert printable_held == []
    assert xml_safe("經\u3000注\x01") == "經\u3000注\ufffd" and xml_safe("經\u3000注") == "經\u3000注"


odd_text = st.text(alphabet=st.sampled_from(list("經注&<>\"'\t\n\r \u3000\x01\ue000𤣥]]>")), max_size=12)


@settings(max_examples=200, deadline=None)
@given(odd_text, odd_text)
def test_markup_reads_back_what_the_builder_would_hold(text, value):
    """A text and an attribute written as markup and parsed read back as E holds them (xml_safe), and
    the document serializes byte for byte as the one built with E."""
    el = M.fragment(M.element("ab", M.text(text), n=value, xml_id="a1", corresp=None))
    built = E.ab(text, n=value, xml_id="a1", corresp=None)
    assert el.tag == built.tag and dict(el.attrib) == dict(built.attrib)
    assert (el.text or "") == (built.text or "")
    if not text:
        return  # an empty text is none in markup (<ab/>); E keeps "" as a text node (<ab></ab>): the same XML
    root = M.document(E.TEI(E.teiHeader(E.title("t")), xml_lang="lzh"),
                      M.element("text", M.element("body", M.element("ab", M.text(text) + M.element("lb", n="1"), n=value))))
    want = E.TEI(E.teiHeader(E.title("t")), E.text(E.body(E.ab(text, E.lb(n="1"), n=value))), xml_lang="lzh")
    assert tei_bytes(root) == tei_bytes(want)
