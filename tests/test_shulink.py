"""The 注疏's 疏 shown once (render/shulink.py): on the 篇's 疏 page, and as a link there from its 经注 page.

On the real 士相見禮: the 注疏 (ZS), the 四部叢刊 經注 (SB) and the 单疏本 (DS) of ../shared/kanripo, built as a
scholar builds them (``jiaokan init`` on the clones, then ``jiaokan build``), with the parts of a view made small
so that the 疏 page is cut into several files (a link must name the right one).  The same 篇 without its 单疏本
keeps its 疏 on the 经注 page.  The browser tests use Debian's Chromium as test_browser.py does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lxml import html as lhtml

from .conftest import KANRIPO, ROOT

#: "疏 仅见于 ZS", the note of a row where only the 注疏 has 疏
ONLY_IN_ZS = "//span[contains(@class,'gap') and contains(@class,'l-shu') and @data-i18n='gap-layer']"
FILES = {"KR1d0028": "003", "KR1d0026": "003", "KR1d0027": "007"}  # ZS, SB, DS: 士相見禮


def _build(out: Path, texts: list[str], files: dict[str, str | tuple[str, ...]] = FILES, *,
           apparatus_json: bool = False) -> Path:
    from jiaokan.book.init import survey, write_manifest
    from jiaokan.build import run_build

    for t in texts:
        juans = files[t]
        for juan in (juans,) if isinstance(juans, str) else juans:
            src = KANRIPO / f"{t}_{juan}.txt"
            if not src.is_file():
                pytest.skip("../shared/kanripo not available")
            (out / t).mkdir(parents=True, exist_ok=True)
            (out / t / src.name).symlink_to(src)
    write_manifest(survey([str(out / t) for t in texts]), out / "corpus.toml")
    assert run_build(out, out / "build", quiet=True, jobs=1, apparatus_json=apparatus_json) == 0
    return out / "build" / "site"


@pytest.fixture(scope="module")
def shu_site(tmp_path_factory) -> Path:
    from jiaokan.render import parts

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parts, "PART_BYTES", 40_000)  # read at each cut: the 疏 page in several parts
        return _build(tmp_path_factory.mktemp("shulink"), list(FILES))


@pytest.fixture(scope="module")
def shu_render(shu_site, tmp_path_factory) -> Path:
    """The same 篇 rendered by ``jiaokan render`` from the build's written files (its 经注 and 疏 apparatus and the
    witness TEI), not by the build, the parts of a view as small."""
    from jiaokan.cli import main
    from jiaokan.render import parts

    build = shu_site.parent
    out = tmp_path_factory.mktemp("shurender") / "site"
    inputs = [str(build / "apparatus" / n) for n in ("pian03.xml", "pian03-shu.xml")]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(parts, "PART_BYTES", 40_000)
        assert main(["render", *inputs, *map(str, sorted((build / "tei").glob("pian03-*.xml"))), "-o", str(out), "-q"]) == 0
    return out


def _view(site: Path, stem: str) -> list[Path]:
    """The files of a view, part 1 first (render/parts.py)."""
    found = [p for p in site.glob(f"{stem}*.html") if re.fullmatch(re.escape(stem) + r"(-p\d+)?\.html", p.name)]
    return sorted(found, key=lambda p: int(re.search(r"-p(\d+)\.html$", p.name).group(1)) if "-p" in p.name[len(stem):] else 1)


def _doc(p: Path):
    return lhtml.fromstring(p.read_bytes())


def _count(piece) -> int:
    """The characters of a 疏 piece as the link counts them: its text but labels, page breaks, notes, punctuation."""
    from jiaokan.normalize import strip_ignorable

    for e in piece.xpath(".//*[contains(@class,'label') or contains(@class,'pb') or contains(@class,'an')]"):
        e.drop_tree()
    return len(strip_ignorable(piece.text_content()))


def test_each_zs_shu_is_a_link_to_the_part_and_row_of_the_shu_page_that_shows_it(shu_site):
    jingzhu, shu = _view(shu_site, "pian03"), _view(shu_site, "pian03-shu")
    assert len(shu) > 1 and all(not p.name.startswith("pian03-shu") for p in jingzhu)
    links = []
    for p in jingzhu:
        d = _doc(p)
        assert not d.xpath("//div[@data-wit='ZS']//div[contains(@class,'l-shu') and not(contains(@class,'away'))]")
        for unit in d.xpath("//div[@data-wit='ZS']//div[contains(@class,'unit') and div[contains(@class,'away')]]"):
            for k, a in enumerate(unit.xpath("./div[contains(@class,'away')]/a[@class='shu-go']")):
                links.append((unit.get("id"), k, a.get("href"), a.text_content()))
    assert len(links) > 20
    shu_docs = {p.name: _doc(p) for p in shu}
    parts_used = set()
    for uid, k, href, text in links:
        page, _, row = href.partition("#")
        parts_used.add(page)
        d = shu_docs[page]  # the part file that holds the row
        sec = d.xpath(f"//section[@id='{row}']")
        assert sec, href
        # the row shows that unit of the 注疏 whole, its 疏 drawn, and each link counts its piece's characters
        pieces = sec[0].xpath(f".//div[@data-wit='ZS']//div[@id='{uid}']/div[contains(@class,'l-shu')]")
        assert len(pieces) > k, (uid, href)
        assert re.fullmatch(r"疏 · (\d+)字 →", text) and int(text.split(" · ")[1][:-3]) == _count(pieces[k])
    assert len(parts_used) > 1  # links into several parts, each to its own
    # "疏 仅见于 ZS" is not said on every row of a page where the 疏 is a link (the 疏 page says what DS lacks)
    assert not any(_doc(p).xpath(ONLY_IN_ZS) for p in jingzhu)
    from jiaokan.render.truth import check_site

    assert check_site(shu_site) == []  # no internal word on a page, no mark or absence its data contradicts


def test_the_shu_page_shows_the_zs_shu_whole_and_every_zs_leaf_stays_on_the_jingzhu_page(shu_site):
    jingzhu, shu = _view(shu_site, "pian03"), _view(shu_site, "pian03-shu")
    def zs_leaves(files):
        return {i for p in files for i in _doc(p).xpath("//div[@data-wit='ZS']//a[@class='pb']/@id")}
    for p in shu:
        d = _doc(p)
        assert not d.xpath("//a[@class='shu-go'] | //div[contains(@class,'away')]")
    assert sum(len(_doc(p).xpath("//div[@data-wit='ZS']//div[contains(@class,'l-shu')]")) for p in shu) > 20
    # a permalink to a leaf of the 注疏 that begins in its 疏 still lands on the 经注 page (by the link)
    assert zs_leaves(jingzhu) == zs_leaves(shu) and len(zs_leaves(jingzhu)) > 5


def test_the_search_data_sends_a_hit_in_the_zs_shu_to_the_shu_page(shu_site):
    def data(name):
        s = (shu_site / "search" / f"{name}.js").read_text(encoding="utf-8")
        return json.loads(s[s.index("]=") + 2:s.rindex(";})")])
    jz, sh = data("pian03"), data("pian03-shu")
    assert jz["away"] == {"ZS": {"shu": "pian03-shu.html"}}
    assert any(st["w"] == "ZS" and st["l"] == "shu" for st in jz["s"])  # held once, where it was
    assert sh["from"] == {"ZS": ["pian03", "search/pian03.js"]} and "away" not in sh


def test_a_link_stands_for_one_piece_as_the_citation_records_count_them(shu_site):
    """cite.js finds a piece's citation record by its place among its unit's pieces: every unit of the 注疏 on the
    经注 page has as many pieces, links included, as its records."""
    s = (shu_site / "search" / "pian03.js").read_text(encoding="utf-8")
    cite = json.loads(s[s.index("]=") + 2:s.rindex(";})")])["cite"]["ZS"]
    seen = 0
    for p in _view(shu_site, "pian03"):
        for unit in _doc(p).xpath("//div[@data-wit='ZS']//div[contains(@class,'unit') and @id]"):
            pieces = unit.xpath("./div[contains(@class,'piece')]")
            assert len(pieces) == len(cite[unit.get("id")]), unit.get("id")
            seen += bool(unit.xpath("./div[contains(@class,'away')]"))
    assert seen > 20


def _links(site: Path) -> list[tuple[str, str, str, str]]:
    """(page, unit id, href, text) of every 疏 link of the 经注 view, in order."""
    return [(p.name, a.xpath("ancestor::div[contains(@class,'unit')][1]/@id")[0], a.get("href"), a.text_content())
            for p in _view(site, "pian03") for a in _doc(p).xpath("//a[@class='shu-go']")]


def test_render_of_the_written_files_links_the_shu_as_the_build_does(shu_site, shu_render):
    """``jiaokan render`` of OUT/apparatus and OUT/tei made no 疏 link: it collated the 疏 apparatus by 經 (rows
    and ids that were not the apparatus's), and took the 注疏 read for each apparatus for two witnesses."""
    built = _links(shu_site)
    assert len(built) > 20 and _links(shu_render) == built
    rows = {p.name: _doc(p).xpath("//section/@id") for p in _view(shu_site, "pian03-shu")}
    assert {p.name: _doc(p).xpath("//section/@id") for p in _view(shu_render, "pian03-shu")} == rows
    assert '"away":{"ZS":{"shu":"pian03-shu.html"}}' in (shu_render / "search" / "pian03.js").read_text(encoding="utf-8")


def test_without_a_danshu_the_shu_stays_on_the_jingzhu_page(tmp_path):
    site = _build(tmp_path, ["KR1d0028", "KR1d0026"])
    assert not list(site.glob("pian03-shu*.html"))
    pages = _view(site, "pian03")
    assert all("shu-go" not in p.read_text(encoding="utf-8") for p in pages)
    assert any(_doc(p).xpath("//div[@data-wit='ZS']//div[contains(@class,'l-shu')]") for p in pages)
    assert any(_doc(p).xpath(ONLY_IN_ZS) for p in pages)
    assert '"away"' not in (site / "search" / "pian03.js").read_text(encoding="utf-8")


# ------------------------------------------------------------------------------------------------ in a browser
def _page(browser, url: str):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    pg.goto(url)
    pg.wait_for_load_state("load")
    return ctx, pg


def _row_in_view(pg, row: str) -> bool:
    return pg.evaluate("""id => { const e = document.getElementById(id); if (!e) return false;
        const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight / 2; }""", row)


def test_a_reader_follows_the_link_to_the_shu_and_finds_it_there(shu_site, browser):
    page = next(p for p in _view(shu_site, "pian03")[1:] if "shu-go" in p.read_text(encoding="utf-8"))
    ctx, pg = _page(browser, page.as_uri())
    try:
        link = pg.locator("a.shu-go").nth(3)
        link.scroll_into_view_if_needed()
        assert link.is_visible() and pg.evaluate("getComputedStyle(document.querySelector('a.shu-go')).cursor") == "pointer"
        href = link.get_attribute("href")
        uid = link.evaluate("a => a.closest('.unit').id")
        art = ROOT / "test-artifacts"
        art.mkdir(exist_ok=True)
        pg.screenshot(path=str(art / "shulink-jingzhu.png"))
        link.click()
        pg.wait_for_url("**/" + href)
        pg.wait_for_load_state("load")
        pg.wait_for_timeout(300)
        row = href.split("#")[1]
        assert _row_in_view(pg, row)
        shu = pg.locator(f"#{row} [data-wit='ZS'] [id='{uid}'] .piece.l-shu")
        assert shu.count() and shu.first.is_visible() and len(shu.first.inner_text()) > 20
        assert pg.locator("a.shu-go").count() == 0
        pg.screenshot(path=str(art / "shulink-shu.png"))
        assert pg.errors == []
    finally:
        ctx.close()


def test_a_search_on_the_jingzhu_page_takes_a_hit_in_the_zs_shu_to_the_shu_page(shu_site, browser):
    from .test_browser_search import search

    ctx, pg = _page(browser, (shu_site / "pian03.html").as_uri())
    try:
        hits = search(pg, "釋曰自此至送于門外")  # the first 疏 of the 篇: the 注疏's alone on this page
        assert hits and all(h["href"].startswith("pian03-shu.html?q=") for h in hits if h["layer"] == "shu")
        shu_hits = [h for h in hits if h["layer"] == "shu"]
        assert shu_hits and shu_hits[0]["w"] == "ZS"
        assert pg.locator("mark.hit").count() == 0  # not marked on this page, where that 疏 is a link
        pg.locator("#q-results a.q-link").first.click()
        pg.wait_for_url(re.compile(r"pian03-shu(-p\d+)?\.html"))
        pg.wait_for_load_state("load")
        pg.wait_for_function("() => document.querySelectorAll('mark.hit').length > 0")
        assert pg.evaluate("[...document.querySelectorAll('mark.hit')].map(m => m.textContent).join('')") == "釋曰自此至送于門外"
        assert pg.evaluate("document.querySelector('mark.hit').closest('.col').dataset.wit") in ("ZS", "DS")
        assert pg.errors == []
    finally:
        ctx.close()



def test_the_leaves_a_linked_shu_spans_show_one_label_not_a_pile(tmp_path, browser):
    """士冠禮's second row: the 注's 疏 runs over four leaves of the 注疏 (葉三b–五a), all now in its one link line;
    their labels were drawn on one spot of the gutter, one over the other, unreadable.  The first shows; the
    anchors all stay (permalinks to a leaf land on the line)."""
    site = _build(tmp_path, list(FILES), {"KR1d0028": "001", "KR1d0026": "001", "KR1d0027": ("001", "002")})
    ctx, pg = _page(browser, (site / "pian01.html").as_uri())
    try:
        piled = pg.evaluate("""() => [...document.querySelectorAll('.piece.away')].filter(p =>
            p.querySelectorAll('.pb').length > 1).map(p => [...p.querySelectorAll('.pb > span')]
              .map(s => s.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0))""")
        assert piled, "no 疏 link line spans two leaves here: the test has nothing to look at"
        for boxes in piled:
            assert len(boxes) == 1, boxes
        assert pg.locator(".piece.away .pb").count() > len(piled)  # every leaf's anchor is still there
        assert pg.errors == []
    finally:
        ctx.close()
