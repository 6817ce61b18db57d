"""The inline nodes answer ``reading`` and ``source`` as the model says, whichever way they are made.

Why a test of its own: :func:`jiaokan.model._accessors_in_c` replaces the properties of the
common nodes by plain attribute reads (a Python call per node was a cost of every stage); the
values must stay what the properties say, node by node and on a real witness.
"""

from __future__ import annotations

from jiaokan.model import UNKNOWN_CHAR, Gaiji, Gap, Label, LineBreak, Loc, Note, PageBreak, Text
from jiaokan.model import all_source_chars, inline_text


def expected_reading(node) -> str:
    if isinstance(node, Text):
        return node.text
    if isinstance(node, Gaiji):
        return node.char or UNKNOWN_CHAR
    return ""


def expected_source(node) -> str:
    if isinstance(node, (Text, Label)):
        return node.text
    if isinstance(node, Gaiji):
        return Gaiji.source.fget(node)  # type: ignore[attr-defined]
    if isinstance(node, Note):
        return "".join(expected_source(n) for n in node.content)
    return ""


def test_each_kind_of_node():
    note = Note([Text("案"), LineBreak(3), Gaiji("KR0925", "楣"), Label("注")], Loc(3))
    nodes = [Text("主人"), Label("鄭注"), Gaiji("KR0925", "楣"), Gaiji("U-0001"), Gaiji("IDS-6C94-2D-4E0F"),
             PageBreak("1a"), LineBreak(2), Gap(), note]
    assert [n.reading for n in nodes] == ["主人", "", "楣", UNKNOWN_CHAR, UNKNOWN_CHAR, "", "", "", ""]
    assert [n.source for n in nodes] == ["主人", "鄭注", "&KR0925;", "\x01", "[沔-丏]", "", "", "", "案&KR0925;注"]
    assert inline_text(nodes) == "主人楣" + 2 * UNKNOWN_CHAR
    assert note.text == "案楣"


def test_a_text_run_changed_in_place_reads_as_changed():
    t = Text("主")
    t.text += "人"  # the builder extends the last run as a line goes on
    assert (t.reading, t.source) == ("主人", "主人")


def test_real_witnesses_read_as_their_nodes_say(read_kanripo):
    for stem in ("KR1d0028_005", "KR1d0030_005"):
        for p in read_kanripo(stem).pieces():
            assert p.text == "".join(expected_reading(n) for n in p.content)
            assert all_source_chars(p.content) == "".join(expected_source(n) for n in p.content)
