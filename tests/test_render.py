"""The HTML edition, checked as HTML (lxml.html): columns, variant marks, lang, links, index, 案 notes.

The site is built once per session from the real corpus: witnesses read and written as
TEI, the manifest's collations written as apparatus TEI, then rendered twice — through the
API (as ``jiaokan build`` does) and through ``jiaokan render`` on the TEI files (which
re-collates the apparatus's witnesses).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import lxml.html
import pytest

import jiaokan
from jiaokan.errors import InputError
from jiaokan.collate.model import VARIANT_TYPES
from jiaokan.emend.verdict import NoteVerdict
from jiaokan.model import UNKNOWN_CHAR
from jiaokan.render.html import VARIANT_CLASS, mark_app, variant_class
from jiaokan.render.inline import UNKNOWN_MARK

from .conftest import CORPUS

DASHEYI = ["jishi-juan10-dasheyi-simplified", "zhushu-dasheyi-excerpt"]
XIANGSHELI = ["jishi-juan05-xiangsheli-traditional", "tushu-juan276-xiangsheli"]
SINGLE = "tushu-juan275-shebu-huikao"
ALL = DASHEYI + XIANGSHELI + [SINGLE]

#: hand-made verdict records (what the emend stage gives the renderer)
VERDICTS = {
    "JS10.72.jing1.an1": NoteVerdict("omission", "confirmed", "注疏 lacks 遂 (confirmed)", ""),
    "JS10.11.jing1.an1": NoteVerdict("corruption", "not covered", "no 注疏 text here", None),
    "JS10.114.zhu1.an1": NoteVerdict("omission", "contradicted", "注疏 reads 也 (contradicted)", "也"),
}


@pytest.fixture(scope="session")
def built(tmp_path_factory, read_corpus):
    from jiaokan.collate.apparatus import write_apparatus
    from jiaokan.collate.engine import collate
    from jiaokan.render import render_collations
    from jiaokan.tei.writer import write_tei

    root = tmp_path_factory.mktemp("render")
    witnesses = {stem: read_corpus(stem) for stem in ALL}
    tei = {stem: write_tei(w, root / "tei" / f"{stem}.xml") for stem, w in witnesses.items()}
    cols = {}
    for name, stems in (("dasheyi", DASHEYI), ("xiangsheli", XIANGSHELI)):
        col = collate([witnesses[s] for s in stems], base="JS")
        write_apparatus(col, root / "apparatus" / f"{name}.xml",
                        {witnesses[s].meta.siglum: f"{s}.xml" for s in stems})
        cols[name] = col
    rep = render_collations(cols, witnesses, root / "site", tei_paths=tei, apparatus_dir=root / "apparatus",
                            verdicts=VERDICTS, title="测试 edition")
    return {"root": root, "site": root / "site", "cols": cols, "witnesses": witnesses, "report": rep}


def page(built, name: str):
    """A view of a 篇 as one document: a view cut into parts (render/parts.py) has the rows and apparatus entries
    of every part put back in order, so what is checked is the whole 篇."""
    return whole_view(built["site"], name)


def whole_view(site, name: str):
    import json

    doc = lxml.html.parse(str(site / name)).getroot()
    meta = doc.xpath("//meta[@name='jiaokan-parts']")
    if not meta:
        return doc
    text = (site / meta[0].get("content")).read_text(encoding="utf-8")
    pages = json.loads(text[text.index("] = ") + 4:].rstrip().rstrip(";"))["pages"]
    main, data = doc.get_element_by_id("text"), doc.get_element_by_id("apps-data")
    apps = json.loads(data.text)
    for nav in main.xpath("./nav[@class='parts']"):
        main.remove(nav)
    for p in pages[1:]:
        d = lxml.html.parse(str(site / p)).getroot()
        for child in d.get_element_by_id("text"):
            if not (child.tag == "nav" and child.get("class") == "parts"):
                main.append(child)
        apps.update(json.loads(d.get_element_by_id("apps-data").text))
    data.text = json.dumps(apps, ensure_ascii=False)
    return doc


def test_site_files(built):
    site = built["site"]
    for name in ("index.html", "dasheyi.html", "dasheyi-base.html", "xiangsheli.html", "xiangsheli-base.html",
                 f"{SINGLE}.html", "static/edition.css", "static/edition.js", "tei/dasheyi.xml"):
        assert (site / name).is_file(), name
    assert re.fullmatch(r"(xiangsheli|dasheyi)(-p\d+)?\.html", built["report"].largest[0])


def test_every_witness_column_in_every_row(built):
    for name, sigla in (("dasheyi", ["JS", "ZS"]), ("xiangsheli", ["JS", "TS"])):
        doc = page(built, f"{name}.html")
        col = built["cols"][name]
        rows = doc.xpath("//main//section[contains(@class,'row') and not(contains(@class,'edge'))]")
        assert [r.get("id") for r in rows] == [r.id for r in col.rows]
        for r in rows:
            assert [c.get("data-wit") for c in r.xpath(".//div[contains(concat(' ',@class,' '),' col ')]")] == sigla
        # the heads of the columns name every witness
        assert [b.text for b in doc.xpath("//div[@class='colhead']/b")] == sigla


def _mark_texts(doc, siglum: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in doc.xpath(f"//div[@data-wit='{siglum}']//mark[@data-a or @data-app]"):
        aid = mark_app(m)
        if "v-ins" in m.get("class"):
            out.setdefault(aid, "")
            continue
        out[aid] = out.get(aid, "") + "".join(
            t for t in m.xpath(".//text()[not(ancestor::*[contains(concat(' ',@class,' '),' an ')])]"))
    return out


@pytest.mark.parametrize("name", ["dasheyi", "xiangsheli"])
def test_variant_marks_carry_type_and_app_and_cover_the_reading(built, name):
    doc = page(built, f"{name}.html")
    col = built["cols"][name]
    apps = {a.id: a for a in col.apps}
    marks = doc.xpath("//main//mark")
    assert marks
    for m in marks:
        cls = m.get("class").split()
        assert "v" not in cls  # edition.js adds it at load (expandMarks)
        types = [t for t in VARIANT_TYPES + ("agree",) if variant_class(t) in cls]
        assert len(types) == 1, cls
        assert mark_app(m) in apps
        assert m.get("data-a") == mark_app(m).removeprefix("app")  # the collation's ids are numbered: the short form
    # each app is marked in the base column with exactly its lemma, and in each witness with its reading
    # (an unknown character reads as UNKNOWN_CHAR and shows as the mark 〓)
    base_texts = _mark_texts(doc, col.base)
    shown = lambda t: t.replace(UNKNOWN_CHAR, UNKNOWN_MARK)  # noqa: E731
    for a in col.apps:
        assert base_texts.get(a.id) == shown(a.lem.text), (a.id, a.lem.text, base_texts.get(a.id))
        for s, r in a.readings.items():
            got = _mark_texts(doc, s).get(a.id)
            assert got == shown(r.text), (a.id, s, r.text, got)
    # the base column's marks say the app's type; the witness's say the reading's
    a = next(a for a in col.apps if a.type == "substantive")
    lem = next(m for m in doc.xpath(f"//div[@data-wit='{col.base}']//mark") if mark_app(m) == a.id)
    assert variant_class(a.type) in lem.get("class").split()
    # the short classes: one per type, each read by edition.css (its toolbar switch hides it)
    assert len(set(VARIANT_CLASS.values())) == len(VARIANT_CLASS)
    css = (Path(jiaokan.__file__).parent / "static" / "edition.css").read_text(encoding="utf-8")
    for t in VARIANT_TYPES:
        assert f".hide-v-{t} .{variant_class(t)}" in css, t
    # keyboard access (the first mark of an app in a cell a tab stop and a button) is edition.js's, at load
    # (tests/test_browser.py): the page's marks carry their class and entry only
    assert lem.get("tabindex") is None and lem.get("role") is None


def test_apparatus_data_for_the_popover(built):
    import json

    from jiaokan.render.truth import _page_apps

    doc = page(built, "dasheyi.html")
    col = built["cols"]["dasheyi"]
    # the page holds each entry's number; the rest (its row too) is the chapter's file, shared by its views
    here = json.loads(doc.xpath("//script[@id='apps-data']")[0].text)
    assert set(here) == {a.id for a in col.apps} and all(n is None or isinstance(n, int) for n in here.values())
    assert doc.xpath("//script/@src").index("apps/dasheyi.js") < doc.xpath("//script/@src").index("static/edition.js")
    data = _page_apps(doc, built["site"], {})
    assert set(data) == {a.id for a in col.apps}
    a = col.apps[0]
    entry = data[a.id]
    assert entry["type"] == a.type and entry["row"] == a.row
    assert [r[0] for r in entry["r"]] == ["JS", "ZS"]
    # where: the page and the line on the leaf (the one meaning of 行, as in every citation); the page's 卷 and 葉
    # once in the chapter's table of pages (edition.js writes 卷十 葉十三a 行N)
    assert entry["r"][0][1] == a.lem.text and entry["r"][0][2] == a.lem.page == "13a"
    assert isinstance(entry["r"][0][3], int) and entry["r"][0][4] == "lem" and entry["r"][0][5] == a.lem.unit
    assert entry["r"][0][6] == "卷十 葉十三a"
    # the file names each type, page and unit once; an entry names them by their place
    from jiaokan.render.truth import _chapter_data

    tables = _chapter_data(built["site"] / "apps" / "dasheyi.js", '["at"]')
    raw = _chapter_data(built["site"] / "apps" / "dasheyi.js", '["apps"]')[a.id]
    assert tables["kinds"][raw[2]] == [a.type, a.subtype or None] and tables["pages"]["JS"][raw[4][0][1]] == ["13a", "卷十 葉十三a"]
    assert f"r{raw[0]}" == a.row and tables["layers"][raw[1]] == a.layer  # r12 as 12; the layer by its place
    assert tables["units"]["JS"][raw[4][0][3]] == a.lem.unit
    # the readings in the chapter's order of sigla, named once; the context a place in the chapter's text of them
    assert tables["sigla"] == ["JS", "ZS"] and raw[4][0][0] == len(a.lem.text)  # the lemma where the context has it
    assert entry["ctx"] == a.context and all(e["ctx"] == x.context for x in col.apps for e in [data[x.id]])
    assert sum(isinstance(_chapter_data(built["site"] / "apps" / "dasheyi.js", '["apps"]')[x.id][3], str)
               for x in col.apps) == 0


def _lang(e) -> str:
    """The language an element is in: its own ``lang`` or the nearest ancestor's (a column says its own only where
    it differs from the page's main)."""
    return e.xpath("string(ancestor-or-self::*[@lang][1]/@lang)")


def test_lang_attributes(built):
    scripts = {"JS": "lzh-Hans", "ZS": "lzh-Hans"}
    doc = page(built, "dasheyi.html")
    assert doc.get("lang")
    for s, lang in scripts.items():
        assert {_lang(c) for c in doc.xpath(f"//div[@data-wit='{s}']")} == {lang}
    doc = page(built, "xiangsheli.html")
    assert {_lang(c) for c in doc.xpath("//div[@data-wit='JS']")} == {"lzh-Hant"}  # 卷五 is traditional
    assert {_lang(c) for c in doc.xpath("//div[@data-wit='TS']")} == {"lzh-Hans"}
    assert doc.xpath("//main")[0].get("lang") == "lzh-Hant"
    # the base's columns inherit main's; the other script's say their own
    assert not doc.xpath("//main//div[@data-wit='JS'][@lang]") and doc.xpath("//main//div[@data-wit='TS'][@lang]")


def test_no_external_urls_and_unique_ids(built):
    site = built["site"]
    pages = sorted(site.glob("*.html"))
    assert len(pages) >= 7
    for p in pages:
        doc = lxml.html.parse(str(p)).getroot()
        ids = doc.xpath("//@id")
        assert len(ids) == len(set(ids)), (p.name, [i for i in ids if ids.count(i) > 1][:5])
        for el in doc.xpath("//*[@src or @href]"):
            url = el.get("src") or el.get("href")
            assert not re.match(r"^(https?:)?//", url), (p.name, url)
    css = (site / "static" / "edition.css").read_text(encoding="utf-8")
    js = (site / "static" / "edition.js").read_text(encoding="utf-8")
    assert "http" not in css and "@import" not in css and "url(" not in css
    assert not re.search(r"https?://", js) and "fetch(" not in js and "XMLHttpRequest" not in js


def test_index_lists_every_witness_and_chapter(built):
    doc = page(built, "index.html")
    rows = doc.xpath("//table[contains(@class,'witnesses')]//tr[@data-siglum]")
    titles = [r.xpath("string(.//td[1]/a)") for r in rows]
    for stem, w in built["witnesses"].items():
        assert w.meta.title in titles, stem
        row = rows[titles.index(w.meta.title)]
        assert row.get("data-siglum") == w.meta.siglum
        text = row.text_content()
        assert w.meta.licence in text and w.meta.source in text
    hrefs = {a.get("href") for a in doc.xpath("//a[@href]")}
    assert {"dasheyi.html", "dasheyi.html?read=JS", "xiangsheli.html", f"{SINGLE}.html"} <= hrefs
    # with verdicts: the 案 summary by kind and verdict
    table = doc.xpath("//table[contains(@class,'an-table')]")[0]
    kinds = [th.text_content().strip() for th in table.xpath("./tbody/tr/th")]
    assert "脱" in kinds and "讹" in kinds  # in the default interface language; data-i18n gives 繁 and English
    total = int(table.xpath("string(./tfoot/tr/td[last()])"))
    assert total == sum(len(w.notes()) for w in built["witnesses"].values())


def test_an_notes_at_their_place_with_verdicts(built):
    doc = page(built, "dasheyi.html")
    js = built["witnesses"]["jishi-juan10-dasheyi-simplified"]
    for n in js.notes():
        el = doc.get_element_by_id(n.id)
        assert "an" in el.get("class").split()
        assert el.xpath("ancestor::div[@data-wit='JS']")
    el = doc.get_element_by_id("JS10.72.jing1.an1")
    badge = el.xpath(".//span[contains(@class,'badge')]")[0]
    assert "vd-confirmed" in badge.get("class") and "相符" in el.get("aria-description") and el.get("title") is None
    assert el.xpath("ancestor::div[@class='unit'][@id='JS10.72']")  # the note stands in its passage
    assert "vd-contradicted" in doc.get_element_by_id("JS10.114.zhu1.an1").xpath(".//span[contains(@class,'badge')]")[0].get("class")
    # without a verdict: no badge
    other = next(n for n in js.notes() if n.id not in VERDICTS)
    assert not doc.get_element_by_id(other.id).xpath(".//span[contains(@class,'badge')]")


def test_layers_pages_gaps_and_permalinks(built):
    doc = page(built, "dasheyi.html")
    assert doc.xpath("//div[@data-wit='ZS']//div[contains(@class,'l-shu')]")
    assert not doc.xpath("//div[@data-wit='JS']//div[contains(@class,'l-shu')]")
    tools = json.loads(doc.get_element_by_id("bar-tools").get("data-tools"))  # the toggles edition.js draws
    assert {k for k, _zh in tools["l"]} >= {"jing", "zhu", "shu", "an"}
    pb = doc.get_element_by_id("JS-p13a")
    assert "pb" in pb.get("class") and pb.get("href") is None  # edition.js makes its href="#JS-p13a" at load
    assert pb.get("title").startswith("JS ") and pb.text_content() == "13a"  # what a reader without scripts sees
    ids = doc.xpath("//@id")
    assert len(ids) == len(set(ids)), "ids must be unique"
    for r in built["cols"]["dasheyi"].rows:
        assert doc.get_element_by_id(r.id) is not None
        if r.base_passage:
            assert "unit" in doc.get_element_by_id(r.base_passage).get("class").split()
    gaps = [g.text_content() for g in doc.xpath("//p[@class='row-notes']/span")]
    assert "疏 仅见于 ZS" in gaps  # in the default interface language (the page's script gives 繁 and English)
    # rows where ZS has no text say nothing about layers there, only that ZS lacks the passage
    r1 = doc.get_element_by_id("r1")
    assert not r1.xpath(".//p[@class='row-notes']/span[contains(@class,'gap')]")
    assert r1.xpath(".//div[@data-wit='ZS' and contains(@class,'col-empty')]")
    assert [b.text for b in r1.xpath(".//span[@class='absent-note']/b")] == ["ZS"] and "gappy" in r1.get("class")
    # the overview strip: one cell per row, drawn from the chapter's file (the browser tests follow its links);
    # the page says which part holds which § (its own page empty)
    from jiaokan.render.truth import _chapter_data

    ov = _chapter_data(built["site"] / "apps" / "dasheyi.js", '["overview"]')
    rows = built["cols"]["dasheyi"].rows
    from jiaokan.render.overview import overview_ids

    assert overview_ids(ov) == [r.id for r in rows] and len(ov["c"]) == len(rows)
    assert "ids" not in ov  # r1 … rN: said by their number
    assert all(c[0] >= 8 and 0 <= c[1] <= 100 for c in ov["c"]) and any(c[2] for c in ov["c"])
    first = lxml.html.parse(str(built["site"] / "dasheyi.html")).getroot()
    strip = first.xpath("//nav[contains(@class,'overview')]")[0]
    assert not len(strip) and strip.get("data-parts").startswith(",1,")
    spans = [p.split(",") for p in strip.get("data-parts").split("|")]
    assert spans[1][0] == "dasheyi-p2.html" and int(spans[1][1]) == int(spans[0][2]) + 1
    assert int(spans[-1][2]) == len(rows)


def test_base_text_with_footnoted_apparatus(built):
    """The base view's apparatus is a modern 校勘記: Chinese sentences, numbered 1…N per 篇, 异体 left out.  (The
    site draws the view from the parallel page, ``dasheyi.html?read=JS``: the browser tests hold the drawing to the
    page rendered here; its old address points there, every old part of it too.)"""
    from jiaokan.render.chapter import Chapter, base_context
    from jiaokan.render.site import environment

    col = built["cols"]["dasheyi"]
    for old in ["dasheyi-base.html", *(p.name for p in built["site"].glob("dasheyi-base-p*.html"))]:
        assert "url=dasheyi.html?read=JS" in (built["site"] / old).read_text(encoding="utf-8"), old
    assert len(list(built["site"].glob("dasheyi-base-p*.html"))) == len(list(built["site"].glob("dasheyi-p*.html")))
    ctx = {**base_context(Chapter("dasheyi", dict(col.witnesses), col)), "parts": None}
    doc = lxml.html.fromstring(environment().get_template("basetext.html").render(site_title="t", search_src=None, **ctx))
    listed = [a for a in col.apps if a.type != "orthographic"]
    notes = doc.xpath("//div[@class='apparatus']//li[contains(@class,'fn')]")
    assert len(notes) == len(listed) and not doc.xpath("//li[contains(@class,'t-orthographic')]")
    assert [int(li.get("value")) for li in notes] == list(range(1, len(listed) + 1))
    refs = doc.xpath("//a[@class='fn-ref']")
    assert [r.text for r in refs] == [str(i) for i in range(1, len(listed) + 1)]
    # 司射遂袒: 遂 is omitted in the 注疏 (JS 卷十 is simplified: the 校勘記's words too)
    first = notes[0].xpath(".//span[@class='jkj']")[0].text_content()
    assert first == "「遂」，注疏本无。", first
    for li in notes:
        t = li.xpath(".//span[@class='jkj']")[0].text_content()
        assert re.fullmatch(r"(注|疏)?(「[^」]+」，.+|「.」[上下]，.+有「[^」]+」字|此处，.+有「[^」]+」字)。", t), t
        ref = doc.get_element_by_id("ref-" + li.get("data-app"))
        assert ref.get("href") == "#fn-" + li.get("data-app")
    # an addition hangs on the character before it: 「执」下，注疏本有「弣」字
    add = next(li for li in notes if "t-addition" in li.get("class"))
    assert re.search(r"「(\S)」[上下]，注疏本有「\S+」字。", add.text_content()), add.text_content()
    # only the base text runs: no ZS column
    assert not doc.xpath("//div[@data-wit='ZS']")


def test_any_witness_as_the_reading_text(built):
    """Another witness as the reading text is the parallel page drawn from it (``dasheyi.html?read=ZS``,
    edition.js; the browser tests check the drawing): its old page points there, and the chapter's file holds the
    校勘記 read from it with the entries, sentences and order a base-text page of that witness gives."""
    from jiaokan.render.chapter import Chapter, base_context
    from jiaokan.render.truth import _chapter_data

    site = built["site"]
    old = (site / "dasheyi-base-ZS.html").read_text(encoding="utf-8")
    assert "url=dasheyi.html?read=ZS" in old and "location.hash" in old
    col = built["cols"]["dasheyi"]
    from jiaokan.render.appview import reader_entries, reader_order

    data = _chapter_data(site / "apps" / "dasheyi.js", '["readers"]')
    assert set(data["o"]) == set(col.witnesses)  # the base too: its view is drawn as any other's
    # the order of the 校勘記 read from ZS, as places in the chapter's entries; the script composes the sentences
    # (the browser tests hold them to reader_entries)
    ids = list(_chapter_data(site / "apps" / "dasheyi.js", '["apps"]'))
    ctx = base_context(Chapter("dasheyi", dict(col.witnesses), col), reader="ZS")
    foot = [lxml.html.fromstring(str(f)) for b in ctx["blocks"] for f in b["foot"]]
    assert [ids[i] for i in reader_order(data, "ZS")] == [li.get("data-app") for li in foot]
    assert data["simplified"] == ["JS", "ZS"] and data["names"]["JS"] == "集釋本"
    entries = reader_entries(col, "ZS")
    assert [e[1] for e in entries] == [li.xpath("string(.//span[@class='jkj'])") for li in foot]
    assert [e[2][0][0] for e in entries] == ["ZS"] * len(foot)  # the reading text's siglum and leaf first
    texts = [e[1] for e in entries]
    assert texts and any("集释本" in t for t in texts)
    # 遂: the 集释 has it where the 注疏 has nothing
    assert any(re.fullmatch(r"(「.」[上下]|此处)，集释本有「遂」字。", t) for t in texts), texts[:5]
    doc = lxml.html.parse(str(site / "dasheyi.html")).getroot()  # every view offers each witness to read
    nav = doc.xpath("//span[@class='readers']/a")
    assert [(a.text, a.get("href")) for a in nav] == [("JS", "dasheyi.html?read=JS"), ("ZS", "dasheyi.html?read=ZS")]


def test_cli_render_from_tei_files(built, capsys):
    """`jiaokan render` on apparatus + witness TEI: re-collates, same apparatus, single page for the rest."""
    from jiaokan.cli import main

    root = built["root"]
    out = root / "site-cli"
    rc = main(["render", str(root / "apparatus" / "dasheyi.xml"), str(root / "apparatus" / "xiangsheli.xml"),
               str(root / "tei" / f"{SINGLE}.xml"), "-o", str(out)])
    assert rc == 0
    assert "pages ->" in capsys.readouterr().err
    for name in ("index.html", "dasheyi.html", "dasheyi-base.html", "xiangsheli.html", f"{SINGLE}.html"):
        assert (out / name).is_file(), name
    a = whole_view(out, "dasheyi.html")
    b = page(built, "dasheyi.html")
    key = lambda doc: [(mark_app(m), m.get("class")) for m in doc.xpath("//main//mark")]
    assert key(a) == key(b)
    # without verdicts the index gives the note count
    idx = lxml.html.parse(str(out / "index.html")).getroot()
    assert not idx.xpath("//table[contains(@class,'an-table')]")
    assert "案语 46 条" in idx.xpath("string(//section[contains(@class,'an-summary')])")


def test_apparatus_reader_finds_witnesses_beside_or_in_tei(built, tmp_path):
    from jiaokan.collate.apparatus_reader import load_apparatus

    col, files = load_apparatus(built["root"] / "apparatus" / "dasheyi.xml")
    assert list(col.witnesses) == ["JS", "ZS"] and col.base == "JS"
    assert files["ZS"].name == "zhushu-dasheyi-excerpt.xml"
    ref = built["cols"]["dasheyi"]
    assert [(a.id, a.type, a.lem.text) for a in col.apps] == [(a.id, a.type, a.lem.text) for a in ref.apps]
    lonely = tmp_path / "dasheyi.xml"
    lonely.write_bytes((built["root"] / "apparatus" / "dasheyi.xml").read_bytes())
    with pytest.raises(InputError, match="was found neither"):
        load_apparatus(lonely)


def test_cli_render_errors(tmp_path, capsys):
    from jiaokan.cli import main

    assert main(["render", str(tmp_path / "nope.xml"), "-o", str(tmp_path / "s")]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "v.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    # verdicts are read first: any existing input will do
    assert main(["render", str(CORPUS / "corpus.toml"), "--verdicts", str(bad), "-o", str(tmp_path / "s")]) == 2
    assert "expected {note id" in capsys.readouterr().err


def test_a_lost_page_is_shown_where_it_stands():
    from jiaokan.model import Gap, LineBreak, Loc, PageBreak, Piece, Text, Unit
    from jiaokan.render.inline import ColumnWriter, PageIds

    piece = Piece("jing", [Text("若命長致則媵爵者奠觶于"), PageBreak("12b"), Gap(desc="page missing"), PageBreak("12b"),
                           LineBreak(216), Text("篚主人洗觚")], Loc(210, "12a"), id="S.1.jing1")
    col = ColumnWriter("S", None, PageIds())
    col.add_unit(Unit("S.1", [piece]))
    doc = lxml.html.fragment_fromstring(str(col.html()), create_parent="div")
    (gap,) = doc.find_class("gap")
    assert gap.text_content() == "〔缺〕" and "page missing" in gap.get("title")
    before, after = gap.getprevious(), gap.getnext()
    assert "pb" in before.get("class") and "pb" in after.get("class")
    assert before.get("id") != after.get("id")  # the page tag repeated around the loss: two anchors
    assert doc.text_content().replace("〔缺〕", "").count("奠觶于") == 1



def test_a_page_anchor_leaves_out_only_the_tooltip_search_js_can_make():
    from jiaokan.model import Loc, PageBreak, Piece, Text, Unit
    from jiaokan.render.inline import ColumnWriter, PageIds, page_title

    breaks = [PageBreak("001-1b", facs="KR1d0030_WYG_001-1b"),    # the rule's: 卷一 葉一b, this witness's image
              PageBreak("001-2a", facs="KR1d0030_WYG_001-2a"),
              PageBreak("001-2b", facs="OTHER_001-2b"),            # another image stem: written
              PageBreak("008-101a", facs="KR1d0030_WYG_008-101a"),  # a leaf past the rule's 99: written
              PageBreak("3a", facs="KR1d0030_WYG_3a", juan="2"),   # a leaf whose 卷 the label does not say: written
              PageBreak("001-3a", facs="scan-17.png"),             # an image not named by the label: written
              PageBreak("001-3b")]                                  # no image: written
    pages = PageIds()
    col = ColumnWriter("JS", None, pages)
    col.add_unit(Unit("JS.1", [Piece("jing", [x for pb in breaks for x in (pb, Text("之"))], Loc(1, "1a"), id="JS.1.jing1")]))
    doc = lxml.html.fragment_fromstring(str(col.html()), create_parent="div")
    got = [(a.text_content(), a.get("title")) for a in doc.find_class("pb")]
    assert [n for n, _t in got] == [pb.n for pb in breaks]
    assert [t for _n, t in got] == [None, None] + [page_title("JS", pb) for pb in breaks[2:]]
    assert page_title("JS", breaks[0]) == "JS 卷一 葉一b · KR1d0030_WYG_001-1b"
    assert pages.facs_attr() == "JS:KR1d0030_WYG"  # what search.js composes the two left out from
    assert all(a.get("href") is None for a in doc.find_class("pb"))  # edition.js: href="#ID"


# ---------------------------------------------------------------- modern punctuation, folded
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = st.lists(st.one_of(
    st.text(alphabet="之乎者也,。、;:「」《》?!‸〔缺〕〓 ab", max_size=8),
    st.sampled_from(['<mark class="v v-omission" data-app="a1" title="a, b: c.">', '<mark class=v-or data-a=12>', "</mark>", "&amp;", "&#34;",
                     '<span class="gap" title="lost, here">', "</span>", "<br>"])), max_size=12)


@settings(max_examples=200, deadline=None)
@given(_PIECES)
def test_folding_punctuation_is_lossless_and_leaves_tags_alone(parts):
    import unicodedata

    from jiaokan.render.chapter import fold_punctuation

    html = "".join(parts)
    out = str(fold_punctuation(html))
    assert out.replace('<span class="mp">', "").replace("</span>", "") == html.replace("</span>", "")
    tree = lxml.html.fragment_fromstring(f"<div>{out}</div>")  # entities are read as their characters
    for e in tree.iter():
        own = (e.text or "") if e.get("class") != "mp" else ""
        tail = e.tail or ""
        for ch in own + (tail if e is not tree else ""):
            if ch not in "‸〔〕〓":
                assert unicodedata.category(ch)[0] != "P", (ch, out)
    assert all(re.fullmatch(r"[^\w\s]|&#?\w+;", m) for m in re.findall(r'<span class="mp">(.*?)</span>', out))


def test_only_the_programs_punctuation_is_folded(built):
    doc = page(built, "xiangsheli.html")
    ts = doc.xpath("//div[@data-wit='TS']//span[@class='mp']")
    assert len(ts) > 100 and {e.text for e in ts} >= {",", "。"}
    assert not doc.xpath("//div[@data-wit='JS']//span[@class='mp']")


# ---------------------------------------------------------------------------------------------- truth checks
def test_truth_check_passes_on_the_shipped_build(tmp_path):
    """Every page of `jiaokan build` over corpus/: no verdict its own evidence contradicts, no witness said to
    lack what its text has, no mark that is not the apparatus's reading, no machine word on screen."""
    from jiaokan.build import run_build
    from jiaokan.render.truth import check_site

    assert run_build(CORPUS, tmp_path, quiet=True) == 0
    assert check_site(tmp_path / "site") == []


def test_truth_check_fails_on_a_false_statement(tmp_path):
    """The checker is not blind: a contradicted verdict over a table in which the deciding witness reads what
    the note says, a badge that is not the dialog's verdict, and a developer message are each reported."""
    from jiaokan.emend.verdict import ClaimEvidence, NoteVerdict
    from jiaokan.render.truth import claim_problem, internal_words, shown_verdict

    c = ClaimEvidence("X.an1", "corruption", lemma="女子", reading="子女", target="zhushu", verdict="contradicted",
                      witness="ZS", readings={"JS": "女子", "ZS": "子女"})
    assert claim_problem(c) and shown_verdict(NoteVerdict("corruption", "contradicted", claims=(c,))).key == "uncertain"
    ok = ClaimEvidence("X.an1", "corruption", lemma="比", reading="北", target="zhushu", verdict="confirmed",
                       witness="ZS", readings={"JS": "比", "ZS": "北"})
    assert claim_problem(ok) is None and shown_verdict(NoteVerdict("corruption", "confirmed", claims=(ok,))).key == "confirmed"
    assert internal_words("lemma '纍即累' not found in the zhu layer, offset 197")
    assert internal_words("rule agrees, otherwise zhuben")
    assert not internal_words("仪礼注疏（ZS）作「北」，与案语所言今注疏本合。")


def test_context_code_cuts_every_context_again():
    """The entries' contexts as places in one text (appview.context_code): overlapping ones share it, a passage's
    edge (fewer than eight characters on a side) says its sides, what is not a lemma between two runs is kept."""
    from jiaokan.collate.variants import cut_context
    from jiaokan.render.appview import context_code, context_text

    t = "士冠禮筮于庿門主人玄冠朝服緇帶素韠即位于門東西面有司如主人服即位于西方東面北上"
    spans = [(3, 4), (5, 6), (7, 7), (9, 12), (10, 11), (0, 2), (len(t) - 1, len(t)), (5, 6), (20, 20)]
    ctxs = [(cut_context(t, a, b), t[a:b]) for a, b in spans] + [("no lemma here", "x"), ("ab【cd】ef", "zz")]
    codes, text = context_code(ctxs)
    assert [context_text(c, lemma, text) for c, (_, lemma) in zip(codes, ctxs)] == [x for x, _ in ctxs]
    assert len(text) < sum(len(x) for x, _ in ctxs) / 3  # the overlaps said once
    assert codes[3] == 9 and codes[0] == [3, 3, 8] and codes[-2:] == ["no lemma here", "ab【cd】ef"]


def test_the_interface_s_chinese_strings_use_chinese_punctuation():
    """The index page's lede read "对照本:各本并列,逐段对齐;…" (a new user's trial): every 简/繁 string of the interface
    (edition.js's table, and the page's default text) punctuates Chinese with full-width marks."""
    import re as _re
    from importlib.resources import files

    js = files("jiaokan").joinpath("static", "edition.js").read_text(encoding="utf-8")
    strings = _re.findall(r'\bhan[st]: "((?:[^"\\]|\\.)*)"', js)
    assert len(strings) > 100
    index = files("jiaokan").joinpath("templates", "index.html").read_text(encoding="utf-8")
    strings += _re.findall(r"data-i18n=\"[^\"]+\">([^<]*)<", index)
    cjk = r"[\u3400-\u4dbf\u4e00-\u9fff]"
    bad = [s for s in strings if _re.search(rf"{cjk}[,:;]|[,:;]{cjk}", s)]
    assert bad == []


# --- a row whose columns divide it into different numbers of 经 passages --------------------------------------

class _Keys:
    """A column writer as :func:`jiaokan.render.chapter._slots` asks it: its blocks' slot keys."""

    def __init__(self, *blocks: tuple[int, str, int]) -> None:
        from jiaokan.render.inline import _RANK

        self.keys = [(k, -1 if layer == "title" else _RANK[layer], n) for k, layer, n in blocks]

    def slot_keys(self) -> list[tuple[int, int, int]]:
        return self.keys


def test_commentary_stands_beside_commentary_when_a_column_has_fewer_passages():
    """鄉射禮 §1: the 集释 has one 经 (鄉射之禮主人戒賓…) and its 注; the 注疏 two, 鄉射之禮 with no 注, then 主人戒賓… and
    its 注 and 疏.  The 集释's 注 goes beside the 注疏's 注 (after all the 经 it covers), not beside the second 经."""
    from jiaokan.render.chapter import _slots

    js = _Keys((1, "jing", 0), (1, "zhu", 0))
    zs = _Keys((1, "jing", 0), (2, "jing", 0), (2, "zhu", 0), (2, "shu", 0))
    sb = _Keys((1, "jing", 0), (1, "zhu", 0))
    slots, n = _slots([js, zs, sb])  # type: ignore[list-item]
    assert slots[id(js)][0] == slots[id(zs)][0] == slots[id(sb)][0]  # 经 beside 经, at the top
    assert slots[id(js)][1] == slots[id(zs)][2] == slots[id(sb)][1]  # 注 beside 注
    assert n == 4
    # only what follows the last passage's 经 moves, and the blocks keep their order
    from jiaokan.render.chapter import _after_the_text

    keys = _Keys((0, "paratext", 0), (1, "title", 0), (1, "jing", 0), (1, "zhu", 0), (1, "shu", 0)).keys
    moved = _after_the_text(keys, 3)
    assert moved[:3] == keys[:3] and [k for k, _r, _n in moved[3:]] == [3, 3] and moved == sorted(moved)
    # a column with no 经 (the 单疏本's 疏 alone) comments on the row: its 疏 beside the 注疏's
    ds = _Keys((0, "shu", 0))
    slots, _ = _slots([zs, ds])  # type: ignore[list-item]
    assert slots[id(ds)][0] == slots[id(zs)][3]


def test_a_column_keeps_its_own_order_and_layers_stand_beside_each_other():
    """喪服 §5: 經, 注, 傳, 注 in each column (the 集释 with its 释, the 注疏 with 音义 and 疏 links).  Placed by their
    layers' rank, the 傳 stood above the 注 on the 經; now each column's grid rows only go down, 注 stands beside
    注 and 傳 beside 傳, and the 注疏's 音义 takes the row of the 集释's 释 rather than one of its own."""
    from jiaokan.render.chapter import _slots

    js = _Keys((1, "jing", 0), (1, "zhu", 0), (1, "shi", 0), (1, "zhuan", 0), (1, "zhu", 1), (1, "shi", 1))
    zs = _Keys((1, "jing", 0), (1, "zhu", 0), (1, "yinyi", 0), (1, "shu", 0), (1, "zhuan", 0), (1, "zhu", 1),
               (1, "shu", 1))
    sb = _Keys((1, "jing", 0), (1, "zhu", 0), (1, "zhuan", 0), (1, "zhu", 1))
    slots, n = _slots([js, zs, sb])  # type: ignore[list-item]
    a, b, c = slots[id(js)], slots[id(zs)], slots[id(sb)]
    assert all(x == sorted(x) and len(set(x)) == len(x) for x in (a, b, c))
    assert a[0] == b[0] == c[0] and a[1] == b[1] == c[1]  # 經, 注
    assert a[3] == b[4] == c[2] and a[4] == b[5] == c[3]  # 傳, 注
    assert b[2] == a[2]  # 音义 beside 释
    assert n == 7  # the second 疏 link beside the second 释
