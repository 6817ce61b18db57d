"""The header another project reads: rights, responsibility, software, page images."""

from __future__ import annotations

import shutil

import pytest
from lxml import etree

from jiaokan.tei.header import licence_status, licence_url
from jiaokan.tei.reader import witness_from_tei
from jiaokan.tei.validate import profile_schema
from jiaokan.tei.writer import witness_to_tei
from jiaokan.model import ReaderWarning

from .conftest import kanripo_file

NS = {"t": "http://www.tei-c.org/ns/1.0"}


@pytest.mark.parametrize("licences, status", [
    (["Kanseki Repository (Kanripo) transcription: CC BY-SA 4.0"], "free"),
    (["Text public domain; modern punctuation CC BY-SA 4.0 (Wikisource contributors)", "Text public domain"], "free"),
    (["Text public domain; transcription as published by the source site"], "unknown"),
    (["All rights reserved"], "restricted"),
    ([], "unknown"),
])
def test_availability_status_follows_every_licence(licences, status):
    assert licence_status(licences) == status


def test_licence_deeds():
    assert licence_url("Kanripo text: CC BY-SA 4.0") == "https://creativecommons.org/licenses/by-sa/4.0/"
    assert licence_url("CC BY 3.0") == "https://creativecommons.org/licenses/by/3.0/"
    assert licence_url("Text public domain") is None


def test_witness_header_names_rights_people_and_software(read_corpus):
    w = read_corpus("jishi-juan05-xiangsheli-traditional")
    root = witness_to_tei(w).getroot()
    assert profile_schema().validate(root)
    pub = root.find(".//t:publicationStmt", NS)
    assert pub.find("t:publisher", NS) is None and pub.find("t:authority", NS) is not None  # software is no publisher
    av = pub.find("t:availability", NS)
    lic = av.find("t:licence", NS)
    assert lic.text == w.meta.licence == "Kanripo text: CC BY-SA 4.0"
    assert lic.get("target") == "https://creativecommons.org/licenses/by-sa/4.0/" and av.get("status") == "free"
    resps = {rs.findtext("t:persName", namespaces=NS): [r.text for r in rs.iterfind("t:resp", NS)]
             for rs in root.iterfind(".//t:titleStmt/t:respStmt", NS) if rs.find("t:persName", NS) is not None}
    assert resps["郑玄"] == ["commentary (注)"] and resps["四库馆臣"] == ["collation notes (案语)"]
    apps = {a.get("ident"): a for a in root.iterfind(".//t:encodingDesc/t:appInfo/t:application", NS)}
    assert set(apps) == {"jiaokan", "OpenCC", "jiaokan-tables"}
    assert apps["OpenCC"].get("version") and apps["jiaokan-tables"].get("n", "").startswith("sha256:")
    assert witness_from_tei(root).meta.licence == w.meta.licence  # read back as the manifest gave it


def test_page_images_are_a_facsimile_with_the_manifest_url_template(read_corpus):
    w = read_corpus("jishi-juan10-dasheyi-simplified")
    w.meta.extra["facs_url"] = "https://images.example.org/wyg/{facs}"
    try:
        root = witness_to_tei(w).getroot()
    finally:
        del w.meta.extra["facs_url"]
    assert profile_schema().validate(root)
    surfaces = {s.get("{http://www.w3.org/XML/1998/namespace}id"): s for s in root.iterfind("t:facsimile/t:surface", NS)}
    pbs = root.findall(".//t:pb[@facs]", NS)
    assert pbs and all(pb.get("facs").startswith("#") and pb.get("facs")[1:] in surfaces for pb in pbs)
    first = surfaces[pbs[0].get("facs")[1:]]
    assert first.find("t:graphic", NS).get("url") == "https://images.example.org/wyg/" + first.get("n")
    back = witness_from_tei(root)  # the page image's own name comes back
    from jiaokan.model import PageBreak, walk

    def facs(wit):
        return [s.node.facs for p in wit.pieces() for s in walk(p.content) if isinstance(s.node, PageBreak)]
    assert facs(back) == facs(w)


def test_init_writes_the_kanripo_licence(tmp_path):
    from jiaokan.book.init import KANRIPO_LICENCE, manifest_text, survey

    for name in ("KR1d0026_003.txt", "KR1d0028_003.txt"):
        shutil.copy(kanripo_file(name), tmp_path / name)
    text = manifest_text(survey([str(tmp_path)]), tmp_path)
    assert text.count(f'licence = "{KANRIPO_LICENCE}"') == 2
    from jiaokan.corpus import load_manifest

    (tmp_path / "corpus.toml").write_text(text, encoding="utf-8")
    assert {e.meta.licence for e in load_manifest(tmp_path)} == {KANRIPO_LICENCE}


def test_an_apparatus_names_each_licence_once_with_its_witnesses(read_corpus):
    from jiaokan.collate.apparatus import collation_to_tei
    from jiaokan.collate.engine import collate

    col = collate([read_corpus("jishi-juan05-xiangsheli-traditional"), read_corpus("tushu-juan276-xiangsheli")])
    root = collation_to_tei(col).getroot()
    lics = root.findall(".//t:availability/t:licence", NS)
    assert [x.get("corresp") for x in lics] == ["#JS", "#TS"] and len({x.text for x in lics}) == 2
    assert etree.QName(root.find(".//t:publicationStmt/*", NS)).localname == "authority"


@pytest.mark.parametrize("n, said", [(1, "The reader reported 1 warning;"), (2, "The reader reported 2 warnings;")])
def test_the_header_counts_the_reader_s_warnings_in_the_right_number(read_corpus, n, said):
    """Five of the book's witness texts had one warning, and their headers said "1 warnings"."""
    w = read_corpus("jishi-juan05-xiangsheli-traditional")
    w.warnings[:] = [ReaderWarning("t.txt", k + 1, "lacuna", "page missing") for k in range(n)]
    root = witness_to_tei(w).getroot()
    decl = "".join(root.find(".//t:editorialDecl", NS).itertext())
    assert said in decl
