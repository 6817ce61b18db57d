"""What the witness writer leaves to the tree rather than builds again: pieces of breaks only keep their lines
(an empty text, given by the writer, not found after parsing), and the header parts built once per process
(:func:`jiaokan.tei.header.fixed`, :func:`jiaokan.tei.writer.char_entry`) are copies, so one file's tree
changed changes no other."""

from __future__ import annotations

import re

from lxml import etree

from jiaokan.model import Div, Label, LineBreak, Loc, PageBreak, Piece, Text, Unit, Witness, WitnessMeta
from jiaokan.tei.build import tei_bytes
from jiaokan.tei.header import app_info
from jiaokan.tei.validate import tree_errors
from jiaokan.tei.writer import TEI_NS, char_entry, witness_to_tei


def _witness() -> Witness:
    w = Witness(WitnessMeta(siglum="W", file="gen.txt", format="gen", juan="5", chapter="鄉射禮"))
    d = Div("chapter", "5", "鄉射禮", id="W5.d1")
    u = Unit("W5.1")
    u.pieces += [
        Piece("jing", [LineBreak(1), Text("賓升")], Loc(1), id="W5.1.jing1"),
        Piece("zhu", [LineBreak(2), PageBreak("2")], Loc(2), id="W5.1.zhu2"),  # breaks only
        Piece("shu", [Label("疏"), LineBreak(3)], Loc(3), id="W5.1.shu3"),  # a label's text is the label's
        Piece("zhu", [LineBreak(4), Text("")], Loc(4), id="W5.1.zhu4"),  # an empty run is no text
        Piece("zhu", [Text("")], Loc(5), id="W5.1.zhu5"),  # nothing at all
        Piece("zhu", [Text("升堂"), LineBreak(6), Text("也")], Loc(6), id="W5.1.zhu6"),
    ]
    d.units.append(u)
    w.divs.append(d)
    return w


def _ab(data: str, pid: str) -> str:
    m = re.search(rf'<ab [^>]*xml:id="{re.escape(pid)}"[^>]*?(/>|>.*?</ab>)', data, re.S)
    assert m is not None, pid
    return m.group(1)


def test_pieces_without_text_of_their_own_keep_their_lines():
    tree = witness_to_tei(_witness())
    assert tree_errors(tree) == []
    data = tei_bytes(tree).decode()
    assert _ab(data, "W5.1") == '><lb n="1"/>賓升</ab>'
    assert _ab(data, "W5.1.zhu2") == '><lb n="2"/><pb n="2"/></ab>'  # not indented, one break a line
    assert _ab(data, "W5.1.shu3") == '><label>疏</label><lb n="3"/></ab>'
    assert _ab(data, "W5.1.zhu4") == '><lb n="4"/></ab>'
    assert _ab(data, "W5.1.zhu5") == "/>"
    assert _ab(data, "W5.1.zhu6") == '>升堂<lb n="6"/>也</ab>'
    # the empty text is on the pieces that need it, and only there
    texts = {ab.get("{http://www.w3.org/XML/1998/namespace}id"): ab.text
             for ab in tree.getroot().iter(f"{{{TEI_NS}}}ab")}
    assert texts == {"W5.1": None, "W5.1.zhu2": "", "W5.1.shu3": "", "W5.1.zhu4": "", "W5.1.zhu5": None,
                     "W5.1.zhu6": "升堂"}


def test_header_parts_built_once_are_copies():
    a, b = app_info(), app_info()
    assert a is not b and etree.tostring(a) == etree.tostring(b)
    a[0].set("version", "0")
    assert etree.tostring(app_info()) == etree.tostring(b)
    c, d = char_entry("KR0001", "賓"), char_entry("KR0001", "賓")
    assert c is not d and etree.tostring(c) == etree.tostring(d)
    c[0].text = "changed"
    assert etree.tostring(char_entry("KR0001", "賓")) == etree.tostring(d)
    # and two witnesses' trees share no element
    one, two = witness_to_tei(_witness()).getroot(), witness_to_tei(_witness()).getroot()
    one.find(f".//{{{TEI_NS}}}editorialDecl")[0].text = "changed"
    assert two.find(f".//{{{TEI_NS}}}editorialDecl")[0].text != "changed"


def test_a_repeated_id_in_the_text_is_refused_by_the_check(tmp_path):
    """The text's markup is parsed without gathering its ids (:func:`jiaokan.tei.markup.fragment`): a repeated
    one is no syntax error there, and the profile's check refuses the file instead (named, nothing written)."""
    from jiaokan.io import InvalidOutput
    from jiaokan.tei.writer import write_tei

    w = _witness()
    w.divs[0].units[0].pieces[-1].id = "W5.1.zhu4"  # a second piece with the id of another
    assert tree_errors(witness_to_tei(w)) == ["jiaokan profile: Invalid attribute id for element ab"]
    target = tmp_path / "w.xml"
    try:
        write_tei(w, target)
    except InvalidOutput as exc:
        assert str(exc).startswith(f"{target}: not written") and "W5.1.zhu4" in str(exc)  # (the parsed bytes' error)
    else:
        raise AssertionError("a repeated xml:id was written")
    assert list(tmp_path.iterdir()) == []
