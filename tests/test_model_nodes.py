"""The inline nodes answer ``reading`` and ``source`` as the model says, whichever way they are made.

Why a test of its own: :func:`jiaokan.model._accessors_in_c` replaces the properties of the
common nodes by plain attribute reads (a Python call per node was a cost of every stage); the
values must stay what the properties say, node by node and on a real witness.
"""

from __future__ import annotations

import pickle

from jiaokan.model import UNKNOWN_CHAR, Gaiji, Gap, Label, LineBreak, Loc, Note, PageBreak, Piece, Text
from jiaokan.model import all_source_chars, inline_length, inline_text, nodes


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
    assert inline_length(iter(nodes)) == len(inline_text(nodes)) == 5  # an iterator will do: it is read once
    assert note.text == "案楣"


def test_a_text_run_changed_in_place_reads_as_changed():
    t = Text("主")
    t.text += "人"  # the builder extends the last run as a line goes on
    assert (t.reading, t.source) == ("主人", "主人")


def test_real_witnesses_read_as_their_nodes_say(read_kanripo):
    for stem in ("KR1d0028_005", "KR1d0030_005"):
        for p in read_kanripo(stem).pieces():
            assert p.text == "".join(expected_reading(n) for n in p.content)
            assert inline_length(p.content) == len(p.text)
            assert all_source_chars(p.content) == "".join(expected_source(n) for n in p.content)


def _everything(w) -> list:
    """Every field of every piece and node of ``w``, those equality leaves out too (``col``, a note's ``loc``)."""
    out = []
    for d in w.divs:
        for u in d.units:
            out.append(("unit", u.id))
            for p in u.pieces:
                out.append((type(p.loc), p.loc, p.col, p.layer, p.resp, p.subtype, p.cert, p.id, p.source))
                for n in nodes(p.content):
                    out.append((type(n), n.loc if isinstance(n, Note) else None, n))
    return out


def test_a_witness_comes_back_from_pickle_as_it_was(read_kanripo):
    """A witness travels pickled from every worker that read or relayered it (the nodes pickle as their
    fields in order, :func:`jiaokan.model._pickled_by_position`): nothing may change on the way,
    whatever kind a node is, and a default pickle of the same witness reads back the same."""
    note = Note([Text("案"), LineBreak(3), Gaiji("KR0925", "楣"), Label("注")], Loc(3, "2b", 7), layer="an", id="n1")
    made = [Text("主人"), Label("鄭注"), Gaiji("U-0001"), PageBreak("1a", "f1", "WYG", "三"), LineBreak(2),
            Gap("lost", "page", "缺"), note, Piece("zhu", [Text("注")], Loc(5), resp="郑玄", col=4, source="x.xml")]
    back = pickle.loads(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
    assert [type(n) for n in back] == [type(n) for n in made] and back == made
    assert (back[6].loc, back[7].col, back[7].loc) == (Loc(3, "2b", 7), 4, Loc(5))
    for stem in ("KR1d0030_005", "KR1d0028_005"):
        w = read_kanripo(stem)
        for protocol in (2, pickle.HIGHEST_PROTOCOL):
            again = pickle.loads(pickle.dumps(w, protocol=protocol))
            assert again == w and _everything(again) == _everything(w)


def test_a_location_on_another_page_is_what_replace_makes():
    """``Loc.on_page`` builds the location directly from its fields: it must be ``dataclasses.replace``."""
    import dataclasses

    # on_page names line, page and offset: a field added to Loc must be added there too
    assert [f.name for f in dataclasses.fields(Loc)] == ["line", "page", "offset"]
    for loc in (Loc(1), Loc(12, "3a", 480), Loc(7, None, 0)):
        for page in ("005-3b", None):
            assert loc.on_page(page) == dataclasses.replace(loc, page=page)
