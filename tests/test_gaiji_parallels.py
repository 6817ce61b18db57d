"""Unknown gaiji resolved from the other witnesses (jiaokan.collate.gaiji)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from jiaokan.collate import gaiji as G
from jiaokan.model import Div, Gaiji, LineBreak, Loc, Piece, Text, Unit, Witness, WitnessMeta
from jiaokan.normalize import key, resolve_gaiji
from jiaokan.normalize.gaiji import parallel_resolution, set_parallel_resolutions
from jiaokan.tei.writer import write_tei

TEI = "{http://www.tei-c.org/ns/1.0}"


def _witness(siglum: str, passages: list[list]) -> Witness:
    w = Witness(WitnessMeta(siglum=siglum, file=f"{siglum}.txt", format="gen", script="traditional"))
    d = Div("chapter", "1", None)
    for i, content in enumerate(passages, 1):
        u = Unit(f"{siglum}.{i}")
        u.pieces.append(Piece("jing", [LineBreak(i)] + content, Loc(i), id=f"{siglum}.{i}.jing1"))
        d.units.append(u)
    w.divs.append(d)
    for p in w.pieces():
        for node in p.content:
            if isinstance(node, Gaiji):
                w.char_decl[node.code] = node.char
    return w


def _g(code: str = "KR9990") -> Gaiji:
    return Gaiji(code, None)


@pytest.fixture(autouse=True)
def _reset():
    set_parallel_resolutions({})
    yield
    set_parallel_resolutions({})


PLACES = [("主人升自西", "階東面賓升"), ("大夫降自東", "階西面主人"), ("士冠禮筮于", "廟門主人玄")]


def test_a_code_aligned_with_one_character_at_several_places_is_resolved(tmp_path):
    a = _witness("A", [[Text(l), _g(), Text(r)] for l, r in PLACES])
    b = _witness("B", [[Text(l + "楣" + r)] for l, r in PLACES])
    found = G.resolve([a, b])
    f = found["KR9990"]
    assert f.status == "resolved" and f.resolution is not None
    assert (f.resolution.char, f.resolution.places, f.resolution.cert) == ("楣", 3, "high")
    assert resolve_gaiji("KR9990") == "楣" and key("&KR9990;") == key("楣")
    assert all(g.char == "楣" for p in a.pieces() for g in p.content if isinstance(g, Gaiji))
    assert a.char_decl["KR9990"] == "楣"
    root = etree.parse(str(write_tei(a, tmp_path / "a.xml"))).getroot()
    (char,) = root.iter(f"{TEI}char")
    mapping = char.find(f"{TEI}mapping")
    assert mapping.text == "楣" and mapping.get("cert") == "high"
    assert "3 places" in char.find(f"{TEI}note").text
    G.write_report(tmp_path / "gaiji-resolved.tsv", found)
    row = [r for r in (tmp_path / "gaiji-resolved.tsv").read_text(encoding="utf-8").splitlines() if r[0] != "#"][0]
    assert row.split("\t")[:5] == ["resolved", "KR9990", "楣", "high", "3"]


def test_disagreeing_witnesses_leave_it_unresolved():
    a = _witness("A", [[Text(l), _g(), Text(r)] for l, r in PLACES])
    b = _witness("B", [[Text(l + c + r)] for (l, r), c in zip(PLACES, "觚爵觚")])
    found = G.resolve([a, b])
    assert found["KR9990"].status == "conflict" and found["KR9990"].resolution is None
    assert resolve_gaiji("KR9990") is None and parallel_resolution("KR9990") is None


def test_what_the_witnesses_read_at_an_unresolved_code_is_shown_beside_it_never_in_its_place(tmp_path):
    """〓 with "no mapping" said less than the witnesses do: the TEI charDecl and the page's tooltip give what
    the other witnesses read there (觚 at two places, 爵 at one), and the character stays unknown."""
    from jiaokan.normalize.gaiji import parallel_readings
    from jiaokan.render.inline import _gaiji

    a = _witness("A", [[Text(l), _g(), Text(r)] for l, r in PLACES])
    b = _witness("B", [[Text(l + c + r)] for (l, r), c in zip(PLACES, "觚爵觚")])
    G.resolve([a, b])
    seen = parallel_readings("KR9990")
    assert seen is not None and seen.status == "conflict" and seen.readings == (("觚", 2), ("爵", 1))
    assert all(g.char is None for p in a.pieces() for g in p.content if isinstance(g, Gaiji))
    root = etree.parse(str(write_tei(a, tmp_path / "a.xml"))).getroot()
    (char,) = root.iter(f"{TEI}char")
    assert char.find(f"{TEI}mapping") is None
    note = char.find(f"{TEI}note[@type='evidence']").text
    assert note.startswith("not resolved (they disagree): where it stands in the book, the witnesses beside it (B) read "
                           "觚 at 2 places, 爵 at 1 place")
    html = _gaiji(Gaiji("KR9990", None))
    assert "〓" in html and "全书此码所在之处，他本对应作：觚 2 处、爵 1 处（诸本不一，未定）" in html
    set_parallel_resolutions({})  # another build: nothing learned, nothing said
    assert parallel_readings("KR9990") is None and "他本" not in _gaiji(Gaiji("KR9990", None))


def _places(n: int) -> list[tuple[str, str]]:
    """``n`` contexts of four characters on each side, no two alike (common characters of U+4E00 on)."""
    cs = [chr(0x5100 + 8 * i + j) for i in range(n) for j in range(8)]
    return [("".join(cs[8 * i:8 * i + 4]), "".join(cs[8 * i + 4:8 * i + 8])) for i in range(n)]


def test_a_character_at_nine_in_ten_of_ten_places_or_more_is_resolved_with_its_dissent():
    places = _places(12)
    reads = "楣" * 11 + "梁"  # one place where the other witness has its own reading
    a = _witness("A", [[Text(l), _g(), Text(r)] for l, r in places])
    b = _witness("B", [[Text(l + c + r)] for (l, r), c in zip(places, reads)])
    f = G.resolve([a, b])["KR9990"]
    assert f.resolution is not None and (f.resolution.char, f.resolution.cert) == ("楣", "medium")
    assert "梁×1" in f.resolution.evidence[-1] and "11 of 12" in f.resolution.evidence[-1]
    assert resolve_gaiji("KR9990") == "楣"


@pytest.mark.parametrize("reads", ["楣" * 8 + "梁",  # 8 of 9: too few places to outvote
                                   "楣" * 10 + "梁" * 2])  # 10 of 12: under nine in ten
def test_a_weaker_majority_stays_unresolved(reads):
    places = _places(len(reads))
    a = _witness("A", [[Text(l), _g(), Text(r)] for l, r in places])
    b = _witness("B", [[Text(l + c + r)] for (l, r), c in zip(places, reads)])
    f = G.resolve([a, b])["KR9990"]
    assert f.status == "conflict" and f.resolution is None and resolve_gaiji("KR9990") is None


def test_one_place_in_one_witness_is_not_enough_but_two_witnesses_there_are():
    a = _witness("A", [[Text(PLACES[0][0]), _g(), Text(PLACES[0][1])]])
    b = _witness("B", [[Text(PLACES[0][0] + "楣" + PLACES[0][1])]])
    assert G.resolve([a, b])["KR9990"].status == "one place"
    c = _witness("C", [[Text(PLACES[0][0] + "楣" + PLACES[0][1])]])
    f = G.resolve([a, b, c])["KR9990"]
    assert f.resolution is not None and f.resolution.cert == "low"


def test_no_context_no_resolution():
    a = _witness("A", [[Text("主人"), _g(), Text("升")]])
    b = _witness("B", [[Text("主人楣升")]])
    assert G.resolve([a, b])["KR9990"].status == "no parallel"


def test_the_hand_table_wins():
    a = _witness("A", [[Text(l), _g("KR0925"), Text(r)] for l, r in PLACES])
    for p in a.pieces():
        for n in p.content:
            if isinstance(n, Gaiji):
                n.char = resolve_gaiji("KR0925")
    b = _witness("B", [[Text(l + "梁" + r)] for l, r in PLACES])
    assert "KR0925" not in G.resolve([a, b])  # known codes are not looked for
    assert resolve_gaiji("KR0925") == "楣"


def test_the_anchored_search_finds_what_a_regex_per_context_finds():
    """_places is a faster re.finditer: the same matches, left to right, never overlapping (一一一一X一一一一)."""
    import random
    import re

    rnd = random.Random(7)
    text = "".join(rnd.choice("一二三之也\n") for _ in range(20000)) + "一" * 30 + "\ufffd" * 9 + "二二"
    contexts = ["一" * 8] + [text[i:i + 4] + text[i + 5:i + 9] for i in rnd.sample(range(19000), 60)]
    got = G._places([text], contexts)
    for c in set(contexts):
        want = [m.start() for m in re.finditer(re.escape(c[:4]) + "(.)" + re.escape(c[4:]), text)]
        assert got[c] == [(0, st) for st in want]


@given(st.text(st.sampled_from(list("一二之也]^-\\[.\n𤣥\U000F0000")), min_size=9, max_size=300), st.data())
@settings(max_examples=200, deadline=None)
def test_the_class_scan_finds_what_a_regex_per_context_finds(text, data):
    """The same on any texts, the regex's own metacharacters and astral characters among their characters: in
    each text apart, in the order of the texts (no match runs from one witness's keys into the next)."""
    import re

    starts = data.draw(st.lists(st.integers(0, len(text) - 9), min_size=1, max_size=12))
    contexts = [text[i:i + 4] + text[i + 5:i + 9] for i in starts] + data.draw(st.lists(st.text("一二]", min_size=8,
                                                                                               max_size=8), max_size=3))
    cut = data.draw(st.integers(0, len(text)))  # the text as two witnesses' keys: each searched apart
    texts = [text[:cut], text[cut:]]
    got = G._places(texts, contexts)
    for c in set(contexts):
        assert got[c] == [(i, m.start()) for i, t in enumerate(texts)
                          for m in re.finditer(re.escape(c[:4]) + "(.)" + re.escape(c[4:]), t)]


def test_the_sequences_resolve_keeps_are_those_of_the_witnesses_as_resolved():
    # the build's gaiji stage hands them to learn_forms instead of walking the book again: a resolved code's
    # places must read as its character does, an unresolved code's still as a mark (which one does not matter)
    a = _witness("A", [[Text(l), _g(), Text(r)] for l, r in PLACES] + [[Text("賓升西階"), _g("KR9991"), Text("上")]])
    b = _witness("B", [[Text(l + "楣" + r)] for l, r in PLACES] + [[Text("賓升西階上")]])
    kept: list[G.Seq] = []
    G.resolve([a, b], keep=kept)
    fresh = G.sequences([a, b])

    def plain(s: str) -> str:
        return G._IS_MARK.sub("?", s)

    assert [(s.siglum, plain(s.chars), plain(s.keys), s.odd) for s in kept] == \
        [(s.siglum, plain(s.chars), plain(s.keys), s.odd) for s in fresh]
    assert [list(s.codes.values()) for s in kept] == [["KR9991"], []]
    assert "楣" in kept[0].chars and plain(kept[0].chars).count("?") == 1


def test_sequences_made_one_witness_at_a_time_are_those_of_one_walk():
    # the build makes each witness's sequence where it reads it (a worker), and the gaiji stage takes them:
    # the marks renumbered among the witnesses before it (codes met in another order in each witness, one
    # witness walked here), the same strings, codes, keys and nodes as walking every witness here
    a = _witness("A", [[Text(l), _g("KR9991"), Text(r)] for l, r in PLACES] + [[Text("賓升"), _g("KR9992"), Text("西")]])
    b = _witness("B", [[Text("大夫"), _g("KR9992"), Text("降自"), _g("KR9993")]] + [[Text(l + "楣" + r)] for l, r in PLACES])
    c = _witness("C", [[Text("士冠"), _g("KR9993"), Text("禮"), _g("KR9991")]])
    nodes: list[Gaiji] = []
    walked = G.sequences([a, b, c], nodes)
    made = {id(a): G.sequence(a), id(c): G.sequence(c)}  # b walked among them
    assert made[id(c)].chars != walked[2].chars  # its own marks: KR9993 is the first code it meets
    assert made[id(c)].keys and made[id(c)].keys != walked[2].keys  # keyed where it is made, with those marks
    nodes_made: list[Gaiji] = []
    taken = G.sequences([a, b, c], nodes_made, made=made)
    assert [(s.siglum, s.chars, s.keys, s.codes, s.odd) for s in taken] == \
        [(s.siglum, s.chars, s.keys, s.codes, s.odd) for s in walked]
    assert taken[0].held == walked[0].held
    assert sorted(map(id, nodes_made)) == sorted(map(id, nodes))  # the witnesses' own nodes, which resolve changes
