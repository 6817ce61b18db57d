"""The HTML edition in a real browser: Debian's Chromium, headless, driven by Playwright, pages from disk.

The site is built once per session from the real corpus with ``run_build`` into a tmp
folder and opened through file:// URLs.  Skipped (with the reason) when /usr/bin/chromium
or the Playwright package is missing; CI installs ``chromium fonts-noto-cjk fonts-hanazono``.
A screenshot of the 大射仪 page is kept in ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations


import os
import re
from pathlib import Path

import pytest

from .conftest import CHROMIUM, ROOT, open_in  # the browser and site fixtures are in conftest

ARTIFACTS = ROOT / "test-artifacts"

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium fonts-noto-cjk fonts-hanazono)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the Playwright package is not installed (pip install -e '.[test]')")


@pytest.fixture
def open_page(new_context, site):
    def _open(name: str, width: int = 1400, height: int = 1000):
        return open_in(new_context(width, height), site, name)

    return _open


def part_with(site: Path, view: str, needle: str) -> str:
    """The page of a view (``dasheyi.html`` or one of its parts, render/parts.py) whose text has ``needle`` most
    often: a test of the 疏, or of a search, opens the part where they are."""
    stem = view[:-5]
    pages = [p for p in site.glob(f"{stem}*.html") if re.fullmatch(re.escape(stem) + r"(-p\d+)?\.html", p.name)]
    def count(p: Path) -> int:
        return re.sub(r"<[^>]*>", "", p.read_text(encoding="utf-8")).count(needle) + p.read_text(encoding="utf-8").count(needle)
    return max(sorted(pages), key=count).name


def in_viewport(pg, selector: str) -> bool:
    return pg.eval_on_selector(selector, """e => { const r = e.getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }""")


def test_pages_load_without_errors_or_network(open_page):
    for name in ("index.html", "dasheyi.html", "dasheyi.html?read=JS", "xiangsheli.html"):
        pg = open_page(name)
        assert pg.errors == [], (name, pg.errors)
        assert all(u.startswith(("file://", "data:", "about:")) for u in pg.requests), pg.requests


def test_hiding_shu_hides_every_shu_element(open_page, site):
    pg = open_page(part_with(site, "dasheyi.html", "l-shu"))
    n = pg.locator(".l-shu").count()
    assert n > 20
    assert pg.evaluate("[...document.querySelectorAll('.l-shu')].some(e => e.checkVisibility())")
    pg.locator("label:has(input[data-layer='shu'])").click()
    assert pg.evaluate("document.body.classList.contains('hide-shu')")
    assert pg.evaluate("[...document.querySelectorAll('.l-shu')].every(e => !e.checkVisibility())")
    assert pg.evaluate("[...document.querySelectorAll('.piece.l-zhu')].every(e => e.checkVisibility())")
    pg.locator("label:has(input[data-layer='shu'])").click()
    assert pg.evaluate("[...document.querySelectorAll('.piece.l-shu')].every(e => e.checkVisibility())")


def test_clicking_a_variant_shows_every_reading(open_page):
    pg = open_page("dasheyi.html#r66")
    from jiaokan.render.appview import entry_fields

    tables = pg.evaluate("window.jiaokanData.at")  # the chapter's entries (apps/NAME.js) and what they name
    data = {k: entry_fields(v, tables) for k, v in pg.evaluate("window.jiaokanData.apps").items()}
    # 却/郤 in 不胜者皆袭说决拾却左手: a substantive (古今字) variant
    app = next(k for k, v in data.items() if v["r"][0][1] == "却" and v["r"][0][5] == "JS10.73")
    mark = pg.locator(f"div[data-wit='JS'] mark[data-app='{app}']").first
    mark.click()
    panel = pg.locator("#app-panel")
    assert panel.is_visible()
    rows = {r.get_attribute("data-siglum"): r.inner_text() for r in panel.locator("tbody tr").all()}
    assert sorted(rows) == ["JS", "SB", "ZS"]
    assert rows["JS"].split()[:2] == ["JS", "却"] and rows["ZS"].split()[:2] == ["ZS", "郤"]
    assert "卷十 葉十三a 行" in rows["JS"]  # 卷, 葉 and the line on the leaf: the citation's convention
    # the same entry is highlighted in both columns
    assert pg.locator(f"mark.v-active[data-app='{app}']").count() >= 2
    pg.keyboard.press("Escape")
    assert not panel.is_visible()


def test_an_empty_reading_in_the_panel_is_a_sign_not_the_character_wu(open_page, site):
    """A reader's trial: the panel wrote 无 for a witness that has nothing there, which reads as the character 无
    (the simplified 無, a real reading).  It writes （无） (〔缺〕 for text lost with a page), set apart."""
    from jiaokan.render.appview import entry_fields

    for page in sorted(p.name for p in site.glob("xiangsheli*.html") if "-base" not in p.name and "emended" not in p.name):
        pg = open_page(page)
        tables = pg.evaluate("window.jiaokanData.at")
        data = {k: entry_fields(v, tables) for k, v in pg.evaluate("window.jiaokanData.apps").items()}
        here = set(pg.evaluate("[...document.querySelectorAll('mark[data-app]')].map(m => m.dataset.app)"))
        apps = [k for k, v in data.items() if k in here and any(r[1] == "" and r[4] == "omission" for r in v["r"])]
        if apps:
            break
    else:
        raise AssertionError("no omission in 乡射礼")
    mark = pg.locator(f"mark[data-app='{apps[0]}']").first
    mark.scroll_into_view_if_needed()
    mark.click()
    cells = pg.locator("#app-panel td.rd.none")
    assert cells.count() >= 1 and cells.first.inner_text() == "（无）"
    assert pg.locator("#app-panel td.rd:not(.none)").evaluate_all("els => els.every(e => e.textContent !== '无')")


def test_variants_are_keyboard_accessible(open_page):
    pg = open_page("dasheyi.html#r65")
    first = pg.locator("div[data-wit='ZS'] mark.v[tabindex='0']").first
    first.focus()
    assert pg.evaluate("document.activeElement.matches('mark.v')")
    outline = pg.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    pg.keyboard.press("Enter")
    panel = pg.locator("#app-panel")
    assert panel.is_visible()
    assert pg.evaluate("document.activeElement.id") == "app-panel"
    pg.keyboard.press("Escape")
    assert not panel.is_visible()
    assert pg.evaluate("document.activeElement.matches('mark.v')")  # focus goes back
    assert outline in ("solid", "auto")  # a visible focus ring (:focus-visible after a programmatic focus)


def test_search_finds_highlights_and_scrolls(open_page):
    """The search lists every hit of the chapter (search.js over search/NAME.js); Enter steps through them,
    each shown in its place with its characters marked."""
    pg = open_page("dasheyi.html")
    pg.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    y0 = pg.evaluate("window.scrollY")
    pg.fill("#q", "司射")
    pg.press("#q", "Enter")
    pg.wait_for_selector("mark.hit.cur")
    n = pg.locator("#q-results .q-item").count()
    assert n > 10
    assert pg.inner_text("#q-count").startswith("1 / ")
    assert "".join(pg.locator("mark.hit.cur").all_inner_texts()) == "司射"
    assert pg.evaluate("window.scrollY") < y0  # scrolled up to the first match
    assert in_viewport(pg, "mark.hit.cur")
    pg.press("#q", "Enter")
    assert pg.inner_text("#q-count").startswith("2 / ")
    assert in_viewport(pg, "mark.hit.cur")
    pg.press("#q", "Shift+Enter")
    assert pg.inner_text("#q-count").startswith("1 / ")
    # a new query clears the old highlights
    pg.fill("#q", "不存在之字串")
    pg.press("#q", "Enter")
    assert pg.locator("mark.hit").count() == 0 and pg.inner_text("#q-count") == "无结果"


def test_search_folds_script(open_page):
    pg = open_page("xiangsheli.html")  # JS 卷五 is traditional: 鄉 should be found by 乡
    pg.fill("#q", "乡射")
    pg.press("#q", "Enter")
    pg.wait_for_selector("#q-results .q-item")
    texts = set(pg.locator("#q-results a[data-w='JS'] mark.q-hit").all_inner_texts())
    assert texts & {"鄉射", "郷射", "鄕射"}, texts


def test_permalinks_land_on_their_passage_and_page(open_page, site):
    pg = open_page("dasheyi.html#r65")
    top = pg.eval_on_selector("#r65", "e => e.getBoundingClientRect().top")
    bar = pg.eval_on_selector("#bar", "e => e.getBoundingClientRect().bottom")
    assert bar - 2 <= top <= bar + 40, (top, bar)  # right under the sticky bar
    pg = open_page("dasheyi.html#JS10.72")
    # a passage of an aligned row is laid out by its pieces (display: contents): its first piece is in view
    assert in_viewport(pg, "[id='JS10.72'] > .piece")
    pg = open_page("dasheyi.html#JS-p13a")
    assert in_viewport(pg, "#JS-p13a")
    from jiaokan.render.truth import _chapter_data

    # the first entry of the 校勘記 (异体 are not listed), in the base view drawn from the parallel page
    first = _chapter_data(site / "apps" / "dasheyi.js", '["readers"]')["o"]["JS"][0]
    fn = "fn-" + list(_chapter_data(site / "apps" / "dasheyi.js", '["apps"]'))[first]
    pg = open_page(f"dasheyi.html?read=JS#{fn}")
    pg.wait_for_selector(f"[id='{fn}']")
    assert in_viewport(pg, f"[id='{fn}']")


def test_overview_strip_jumps(open_page):
    pg = open_page("dasheyi.html")
    cell = pg.locator("nav.overview a[href$='#r100']")  # r100 is in another part of 大射: the cell goes there
    assert cell.get_attribute("href") != "#r100"
    cell.click()
    pg.wait_for_url("**#r100")
    pg.wait_for_load_state("load")
    pg.wait_for_function("location.hash === '#r100'")
    assert in_viewport(pg, "#r100 .row-head")
    pg.locator("nav.overview a[href='#r101']").click()  # in this part: the cell scrolls, no page is loaded
    pg.wait_for_function("location.hash === '#r101'")
    assert in_viewport(pg, "#r101 .row-head")


def test_columns_stack_on_a_phone(open_page):
    pg = open_page("dasheyi.html#r66", width=390, height=844)
    xs = pg.eval_on_selector_all("#r66 .col", "els => els.map(e => Math.round(e.getBoundingClientRect().left))")
    ys = pg.eval_on_selector_all("#r66 .col", "els => els.map(e => Math.round(e.getBoundingClientRect().top))")
    assert len(set(xs)) == 1 and ys[1] > ys[0]
    assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_screenshot_of_a_chapter_page(open_page):
    """Kept as test-artifacts/chapter-dasheyi.png; Chinese must render (Ext-B characters via HanaMin)."""
    ARTIFACTS.mkdir(exist_ok=True)
    pg = open_page("dasheyi.html#r65")
    pg.evaluate("document.fonts.ready")
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    pg.screenshot(path=str(ARTIFACTS / "chapter-dasheyi.png"), animations="disabled")
    assert (ARTIFACTS / "chapter-dasheyi.png").stat().st_size > 20_000
    # the fonts actually used: CJK serif for the text, HanaMin for an Extension-B character (𦠆 U+26806)
    cdp = pg.context.new_cdp_session(pg)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")

    def fonts_of(selector: str) -> set[str]:
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        return {f["familyName"] for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]}

    fonts = fonts_of(".unit[id='JS10.72'] .l-jing")
    assert fonts & {"Noto Serif CJK SC", "Noto Serif CJK TC", "Source Han Serif SC", "Source Han Serif"}, fonts
    ext_b = pg.evaluate("""() => { const w = document.createTreeWalker(document.getElementById('text'), NodeFilter.SHOW_TEXT);
        let n; while ((n = w.nextNode())) if (/[\\u{20000}-\\u{2FFFF}]/u.test(n.data)) {
          n.parentElement.setAttribute('data-extb', '1'); return n.data.match(/[\\u{20000}-\\u{2FFFF}]/u)[0]; } return null; }""")
    assert ext_b, "the 大射仪 witnesses hold Extension-B characters (𦠆 𩔖 𢓺)"
    extb = pg.locator("[data-extb]")
    extb.scroll_into_view_if_needed()
    pg.wait_for_timeout(100)
    extb.locator("xpath=ancestor-or-self::div[contains(@class,'piece')][1]").screenshot(
        path=str(ARTIFACTS / "chapter-dasheyi-extb.png"))
    if "hanamin" not in os.popen("fc-list 2>/dev/null").read().lower():
        pytest.skip("fonts-hanazono not installed: Extension-B characters cannot be checked")
    fonts = fonts_of("[data-extb]")
    assert fonts & {"HanaMinB", "HanaMinA"}, (ext_b, fonts)


def test_search_folds_a_traditional_query_on_a_simplified_page(open_page, site):
    pg = open_page(part_with(site, "dasheyi.html", "宾升"))  # JS 卷十 and the ZS excerpt are simplified: 賓 finds 宾
    pg.fill("#q", "賓升")
    pg.press("#q", "Enter")
    pg.wait_for_selector("mark.hit.cur")
    assert "宾升" in set(pg.locator("mark.q-hit").all_inner_texts())


def test_overview_strip_works_from_the_keyboard(open_page):
    pg = open_page("dasheyi.html")
    first = pg.locator(".overview .ov").first
    first.focus()
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("ArrowRight")
    focused = pg.evaluate("document.activeElement.getAttribute('href')")
    assert focused == pg.locator(".overview .ov").nth(2).get_attribute("href")
    pg.keyboard.press("Enter")
    pg.wait_for_function("location.hash.length > 1")
    assert pg.evaluate("location.hash") == focused


def test_the_script_composes_each_readers_jiaokanji_as_python_does(new_context, read_corpus, tmp_path):
    """The 校勘記 read from each witness (``?read=SIGLUM``) is composed by edition.js from the chapter's entries
    (render/appview.py reader_data): every sentence (simplified where the witness is, the layer named, additions
    hung on their character) and every siglum with its leaf, in order, as :func:`.appview.reader_entries` gives
    them, for each witness of a collation of a simplified and a traditional pair."""
    from jiaokan.collate.engine import collate
    from jiaokan.render import render_collations
    from jiaokan.render.appview import reader_entries

    pairs = {"dasheyi": ["jishi-juan10-dasheyi-simplified", "zhushu-dasheyi-excerpt"],
             "xiangsheli": ["jishi-juan05-xiangsheli-traditional", "tushu-juan276-xiangsheli"]}
    witnesses = {s: read_corpus(s) for stems in pairs.values() for s in stems}
    cols = {name: collate([witnesses[s] for s in stems], base="JS") for name, stems in pairs.items()}
    render_collations(cols, witnesses, tmp_path / "site")
    for name, col in cols.items():
        pg = open_in(new_context(), tmp_path / "site", f"{name}.html")
        assert pg.errors == []
        for s in col.witnesses:
            want = reader_entries(col, s)
            assert want and pg.evaluate("s => jiaokan.readerEntries(s)", s) == want, (name, s)
