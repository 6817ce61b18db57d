"""TEI writer/reader: round trip, validation, the layer rule — on every corpus file and on generated witnesses."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from jiaokan.model import (
    LAYERS,
    Div,
    Gaiji,
    Gap,
    Label,
    LineBreak,
    Loc,
    Note,
    PageBreak,
    Piece,
    Text,
    Unit,
    Witness,
    WitnessMeta,
)
from jiaokan.readers import READERS
from jiaokan.readers.common.base import load_source
from jiaokan.readers.common.lossless import check_lossless
from jiaokan.tei.reader import read_tei, witness_from_tei
from jiaokan.tei.validate import layer_errors
from jiaokan.tei.writer import tei_bytes, witness_to_tei

import pytest

from .conftest import CORPUS


def _comparable(w: Witness):
    """What must survive a round trip: structure, layers, people, content, line and page."""
    return [
        (d.type, d.n, [(u.id, [(p.layer, p.resp, p.subtype, p.cert, p.id, p.content, p.loc.line, p.loc.page)
                                 for p in u.pieces]) for u in d.units])
        for d in w.divs
    ]


def _roundtrip(w: Witness) -> Witness:
    data = tei_bytes(witness_to_tei(w))
    return witness_from_tei(etree.fromstring(data), "rt.xml")


def _registered_corpus_entries():
    from jiaokan.corpus import load_manifest

    return [e for e in load_manifest(CORPUS) if e.meta.format in READERS]


@pytest.mark.parametrize("entry", _registered_corpus_entries(), ids=lambda e: e.stem)
def test_corpus_file_round_trips_validates_and_is_lossless(entry, read_corpus, profile, tei_all):
    w = read_corpus(entry.stem)
    tree = witness_to_tei(w)
    assert profile.validate(tree), profile.error_log
    assert tei_all.validate(tree), tei_all.error_log
    assert layer_errors(tree.getroot()) == []
    back = _roundtrip(w)
    assert _comparable(back) == _comparable(w)
    assert back.meta.siglum == w.meta.siglum and back.meta.juan == w.meta.juan
    rep = check_lossless(READERS[entry.meta.format], load_source(entry.path), w)
    assert rep.ok, rep.context
    # and losslessness holds through the TEI too
    assert check_lossless(READERS[entry.meta.format], load_source(entry.path), back).ok


def test_read_tei_from_disk(tmp_path, read_corpus):
    from jiaokan.tei.writer import write_tei

    w = read_corpus("jishi-juan10-dasheyi-simplified")
    path = write_tei(w, tmp_path / "js.xml")
    back = read_tei(path)
    assert _comparable(back) == _comparable(w)
    assert [n.text for n in back.notes()] == [n.text for n in w.notes()]


def test_witness_without_xml_id_gets_the_default_siglum(read_corpus):
    """A listWit witness with no @xml:id reads as siglum "W" (as a TEI without listWit does), not None."""
    tree = witness_to_tei(read_corpus("jishi-juan10-dasheyi-simplified"))
    wit = tree.getroot().find(".//{http://www.tei-c.org/ns/1.0}listWit/{http://www.tei-c.org/ns/1.0}witness")
    del wit.attrib["{http://www.w3.org/XML/1998/namespace}id"]
    back = witness_from_tei(etree.fromstring(tei_bytes(tree)), "noid.xml")
    assert back.meta.siglum == "W"
    assert _roundtrip(back).meta.siglum == "W"


def test_layer_rule_catches_untyped_text():
    root = etree.fromstring(
        b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body><div type="chapter">'
        b'<ab type="jing">ok</ab>stray<ab type="zhu"><seg>also ok</seg></ab></div></body></text></TEI>'
    )
    errs = layer_errors(root)
    assert len(errs) == 1 and "stray" in errs[0]


# --- generated witnesses ---------------------------------------------------------------------

han = st.text(alphabet=st.sampled_from("司射遂袒執弓挾一个搢扑東面于三耦之西命𤣥楣，。"), min_size=1, max_size=12)
plain_nodes = st.one_of(
    han.map(Text),
    st.sampled_from(["鄭注", "疏", "音義"]).map(Label),
    st.sampled_from([("KR0925", "楣"), ("KR9999", None)]).map(lambda t: Gaiji(*t)),
    st.builds(PageBreak, n=st.sampled_from(["1a", "1b", "2a"]), facs=st.sampled_from([None, "x.png"]),
              edition=st.sampled_from([None, "WYG"]), juan=st.just("5")),
    st.builds(Gap, desc=st.sampled_from([None, "page missing"])),
)


@st.composite
def contents(draw, with_notes=True):
    nodes = draw(st.lists(plain_nodes, min_size=1, max_size=6))
    if with_notes and draw(st.booleans()):
        nodes.insert(draw(st.integers(0, len(nodes))), Note(content=[Text("案" + draw(han))], loc=Loc(1)))
    # the model merges adjacent text runs; so does TEI
    merged = []
    for n in nodes:
        if isinstance(n, Text) and merged and isinstance(merged[-1], Text):
            merged[-1] = Text(merged[-1].text + n.text)
        else:
            merged.append(n)
    return [LineBreak(draw(st.integers(1, 999)))] + merged


@st.composite
def witnesses(draw):
    w = Witness(WitnessMeta(siglum="W", file="gen.txt", format="gen", juan="5", chapter="鄉射禮"))
    d = Div("chapter", "5", "鄉射禮", id="W5.d1")
    for i in range(draw(st.integers(1, 4))):
        uid = f"W5.{i + 1}"
        u = Unit(uid)
        layers = draw(st.lists(st.sampled_from([x for x in LAYERS if x not in ("an", "jing")]), max_size=3))
        for k, layer in enumerate(["jing"] + layers):
            content = draw(contents())
            notes = [x for x in content if isinstance(x, Note)]
            pid = f"{uid}.{layer}{k + 1}"
            for j, n in enumerate(notes):
                n.id = f"{pid}.an{j + 1}"
                n.resp = "四库馆臣"
            first_line = content[0].n
            page = next((x.n for x in content[1:2] if isinstance(x, PageBreak)), None)
            u.pieces.append(Piece(layer, content, Loc(first_line, page), resp={"zhu": "郑玄"}.get(layer),
                                  id=pid if layer != "jing" else f"{uid}.jing1"))
        d.units.append(u)
    w.divs.append(d)
    for p in w.pieces():
        for x in p.content:
            if isinstance(x, Gaiji):
                w.char_decl[x.code] = x.char
    return w


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(w=witnesses())
def test_generated_witness_round_trips(w, profile):
    # a page break is only the piece's page when nothing precedes it but the line break
    for p in w.pieces():
        p.loc = Loc(p.loc.line, next((x.n for x in p.content[1:2] if isinstance(x, PageBreak)), None))
    tree = witness_to_tei(w)
    assert profile.validate(tree), profile.error_log
    back = witness_from_tei(tree.getroot())
    for p in back.pieces():  # the reader carries the page forward from earlier pieces
        p.loc = Loc(p.loc.line, next((x.n for x in p.content[1:2] if isinstance(x, PageBreak)), None))
    assert _comparable(back) == _comparable(w)
