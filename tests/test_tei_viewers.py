"""The apparatus for viewers: each witness in its own characters, fragments marked as TEI 12.1.5 says, ids everywhere.

``--witness-script own`` (and every ``--viewer`` file) must give back each witness's own layer
text, character for character and with its punctuation, by the rules of parallel segmentation:
what the Versioning Machine and EVT show in a witness's panel.  (The browser tests that open the
files in the viewers are in ``test_browser_viewers.py``.)
"""

from __future__ import annotations

import pytest
from lxml import etree

from jiaokan.collate.apparatus import collation_to_tei
from jiaokan.collate.apparatus_reader import rebuild_from_tei, witness_layers
from jiaokan.collate.engine import collate
from jiaokan.collate.model import COLLATED_LAYERS
from jiaokan.collate.viewers import VM_STYLESHEET, viewer_tree, write_viewer
from jiaokan.tei.validate import profile_schema

from .conftest import kanripo_file

NS = {"t": "http://www.tei-c.org/ns/1.0"}
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


@pytest.fixture(scope="module")
def xiangsheli(read_corpus):
    """乡射礼: the 集释 (traditional) against the 图书集成 (simplified, with its own punctuation)."""
    return collate([read_corpus("jishi-juan05-xiangsheli-traditional"), read_corpus("tushu-juan276-xiangsheli")])


def _plain(s: str) -> str:
    return "".join(s.split())


def test_own_script_gives_every_witness_its_very_characters(xiangsheli):
    root = collation_to_tei(xiangsheli, witness_script="own").getroot()
    assert profile_schema().validate(root)
    got = rebuild_from_tei(root)
    for s, w in xiangsheli.witnesses.items():
        expected = witness_layers(w, COLLATED_LAYERS)
        for layer, text in expected.items():
            assert _plain(got[s].get(layer, "")) == _plain(text), (s, layer)  # no folding: script and punctuation too
    # the base mode folds script: the 图书集成 read back from it is not its own text
    base = rebuild_from_tei(collation_to_tei(xiangsheli).getroot())
    ts = witness_layers(xiangsheli.witnesses["TS"], COLLATED_LAYERS)
    assert _plain(base["TS"]["jing"]) != _plain(ts["jing"])


def test_readings_in_another_script_say_so(xiangsheli):
    root = collation_to_tei(xiangsheli, witness_script="own").getroot()
    assert root.get(XML_LANG) == "lzh-Hant"  # the base's
    rdgs = root.findall(".//t:rdg[@wit='#TS']", NS)
    with_text = [r for r in rdgs if "".join(r.itertext()).strip()]
    assert with_text and all(r.get(XML_LANG) == "lzh-Hans" for r in with_text)
    assert all(lem.get(XML_LANG) is None for lem in root.iterfind(".//t:lem", NS))
    script = root.findall(".//t:app[@type='script']", NS)
    assert len(script) > 100 and all(a.get("ana") == "#vt-script" for a in script)
    assert root.find(".//t:category[@xml:id='vt-script']", {**NS, "xml": "http://www.w3.org/XML/1998/namespace"}) is not None


@pytest.mark.parametrize("mode", ["base", "own"])
def test_every_app_has_an_id_and_its_type_in_the_taxonomy(xiangsheli, mode):
    root = collation_to_tei(xiangsheli, witness_script=mode).getroot()
    apps = root.findall(".//t:app", NS)
    ids = [a.get(XML_ID) for a in apps]
    assert apps and None not in ids and len(set(ids)) == len(ids)
    categories = {c.get(XML_ID) for c in root.iterfind(".//t:classDecl/t:taxonomy/t:category", NS)}
    for app in apps:  # the entry's category by @ana; a reading's, named as the header says, by its @type
        assert app.get("ana") == f"#vt-{app.get('type')}" and f"vt-{app.get('type')}" in categories
    # a reading of another type than its entry's says it; one of its entry's type says nothing (the app does)
    typed = [(r, app) for app in apps for r in app.iterfind("t:rdg", NS)]
    assert typed and all(f"vt-{r.get('type') or app.get('type')}" in categories and r.get("ana") is None
                         and r.get("type") != app.get("type") for r, app in typed)
    assert any(r.get("type") is None for r, _ in typed)
    # the viewer file (EVT 3 filters readings by their own @type) gives every reading its type
    viewer = viewer_tree(etree.ElementTree(root), "evt").getroot()
    assert all(r.get("type") for r in viewer.iterfind(".//t:rdg", NS))


def test_viewer_file_marks_where_an_excerpt_begins_and_ends(read_corpus, tmp_path):
    """The 注疏 excerpt of 大射仪: witStart in its empty reading where it begins (EVT 2 reads these)."""
    col = collate([read_corpus("jishi-juan10-dasheyi-simplified"), read_corpus("zhushu-dasheyi-excerpt")])
    out = write_viewer(col, tmp_path / "dasheyi.xml", "evt")
    root = etree.parse(str(out)).getroot()
    assert profile_schema().validate(root)
    starts = root.findall(".//t:rdg[@wit='#ZS']/t:witStart", NS)
    assert len(starts) == 1 and starts[0].getparent().getparent().get("type") == "edge"
    # nothing of ZS before its witStart, in any reading of it
    before = []
    for el in root.iter("{%s}rdg" % NS["t"], "{%s}lem" % NS["t"], "{%s}witStart" % NS["t"]):
        if el.tag.endswith("witStart"):
            break
        if "#ZS" in (el.get("wit") or "").split():
            before.append("".join(el.itertext()).strip())
    assert before and not any(before)
    assert not (tmp_path / VM_STYLESHEET).exists()  # only the VM gets the stylesheet


def test_viewer_file_marks_a_lacuna(tmp_path):
    """A page the 四部丛刊 lost (``# page missing``): lacunaStart and lacunaEnd around its gap."""
    from jiaokan.readers import read_witness

    zs = read_witness(kanripo_file("KR1d0028_003.txt"))
    sb = read_witness(kanripo_file("KR1d0026_003.txt"))
    root = viewer_tree(collation_to_tei(collate([zs, sb]), witness_script="own"), "evt").getroot()
    assert profile_schema().validate(root)
    sig = sb.meta.siglum
    starts = root.findall(f".//t:rdg[@wit='#{sig}']/t:lacunaStart", NS)
    ends = root.findall(f".//t:rdg[@wit='#{sig}']/t:lacunaEnd", NS)
    assert starts and len(starts) == len(ends)
    for s in starts:
        assert s.getparent().getparent().get("type") == "lacuna"
        assert s.getparent().find("t:gap[@reason='lost']", NS) is not None


def test_vm_file_points_to_its_stylesheet_written_beside_it(xiangsheli, tmp_path):
    out = write_viewer(xiangsheli, tmp_path / "x.xml", "vm")
    head = out.read_text(encoding="utf-8")[:300]
    assert f'href="{VM_STYLESHEET}"' in head
    xsl = etree.parse(str(tmp_path / VM_STYLESHEET)).getroot()
    assert xsl.find("{http://www.w3.org/1999/XSL/Transform}import").get("href") == "../src/vmachine.xsl"
    css = (tmp_path / "jiaokan-vm.css").read_text(encoding="utf-8")
    assert '@import url("../src/vmachine.css")' in css and ".type-zhu" in css and ".type-shu" in css
