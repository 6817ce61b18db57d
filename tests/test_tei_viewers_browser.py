"""The viewer files opened in the viewers themselves: the Versioning Machine 5 and EVT 2.

Unmodified copies of both are in ``../shared/viewers/`` (its README): each test copies one into a
temporary folder, puts jiaokan's file where the viewer's documentation says, serves the folder on
127.0.0.1 and opens it in Debian's Chromium (the session's ``browser`` fixture).  What a scholar
would check: every witness's panel shows that witness's own text — its own characters and
punctuation, in the apparatus order — and 经, 注 and 疏 are told apart.  Screenshots go to
``$JIAOKAN_SHOTS`` when it is set (else the test's temporary folder).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import threading
from pathlib import Path

import pytest
from lxml import etree

from jiaokan.collate.engine import collate
from jiaokan.collate.viewers import write_viewer

from .conftest import SHARED

VIEWERS = SHARED / "viewers"
NS = {"t": "http://www.tei-c.org/ns/1.0"}
T = "{%s}" % NS["t"]


def _first_difference(got: str, want: str) -> str:
    i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return f"at {i} of {len(want)}: shown {got[max(0, i - 20):i + 20]!r}, expected {want[max(0, i - 20):i + 20]!r}"


def panel_text(root: etree._Element, siglum: str) -> str:
    """What a viewer's panel of ``siglum`` should show: its readings and the shared text, in document order."""
    sigla = [w.get("{http://www.w3.org/XML/1998/namespace}id") for w in root.iterfind(".//t:listWit/t:witness", NS)]
    out: list[str] = []
    for ab in root.iterfind(".//t:text//t:ab", NS):
        out.append(ab.text or "")
        for child in ab:
            if child.tag == T + "app":
                for r in child:
                    wits = [w.lstrip("#") for w in (r.get("wit") or "").split()]
                    if r.tag in (T + "lem", T + "rdg") and siglum in wits:
                        out.append("".join(r.itertext()))
            out.append(child.tail or "")
    assert siglum in sigla
    return "".join("".join(out).split())


@pytest.fixture
def serve():
    servers = []

    def _serve(root: Path) -> str:
        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        servers.append(srv)
        return f"http://127.0.0.1:{srv.server_port}"

    yield _serve
    for srv in servers:
        srv.shutdown()
        srv.server_close()


def _copy_viewer(name: str, dest: Path) -> Path:
    src = VIEWERS / name
    if not src.is_dir():
        pytest.skip(f"{src} not available (see ../shared/viewers/README.md)")
    shutil.copytree(src, dest)
    for p in [dest, *dest.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)  # the shared copy is read-only
    return dest


def _shot(page, tmp_path: Path, name: str) -> Path:
    folder = Path(os.environ.get("JIAOKAN_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / name))
    return folder / name


@pytest.fixture(scope="module")
def xiangsheli_col(read_corpus):
    """乡射礼: the 集释 (traditional, no punctuation) against the 图书集成 (simplified, punctuated)."""
    return collate([read_corpus("jishi-juan05-xiangsheli-traditional"), read_corpus("tushu-juan276-xiangsheli")])


def test_versioning_machine_shows_each_witness_in_its_own_characters_and_the_layers_apart(
        browser, serve, xiangsheli_col, tmp_path):
    vm = _copy_viewer("versioning-machine", tmp_path / "vm")
    (vm / "samples").mkdir(exist_ok=True)
    xml = write_viewer(xiangsheli_col, vm / "samples" / "xiangsheli.xml", "vm")
    root = etree.parse(str(xml)).getroot()
    base = serve(vm)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    page.goto(f"{base}/samples/xiangsheli.xml")
    page.wait_for_selector(".mssPanel#TS .type-zhu", timeout=30_000)
    _shot(page, tmp_path, "vm-xiangsheli.png")
    assert not [u for u in missing if "jiaokan-vm" in u]  # the stylesheet beside the file was found
    for siglum in ("JS", "TS"):
        shown = page.evaluate(
            "s => { const p = document.getElementById(s); const t = p.querySelector('.panelBanner');"
            " return p.innerText.slice(t ? t.innerText.length : 0); }", siglum)
        assert "".join(shown.split()) == panel_text(root, siglum), siglum
    # its own characters: the 图书集成's panel reads 乡射, the 集释's 鄕射 (the same place, each witness's form)
    ts = "".join(page.locator(".mssPanel#TS").inner_text().split())
    js = "".join(page.locator(".mssPanel#JS").inner_text().split())
    assert "《乡射》之礼" in ts and "鄕射之禮" in js and "鄕射之禮" not in ts
    # 经, 注 and 疏 told apart: each layer its own size and colour, in both panels
    styles = page.evaluate(
        "() => ['jing', 'zhu', 'shu'].map(t => { const e = document.querySelector('#TS .type-' + t);"
        " const s = getComputedStyle(e); return [s.fontSize, s.color, s.borderLeftColor].join(' '); })")
    assert len(set(styles)) == 3, styles
    page.close()


@pytest.mark.parametrize("chapter, stems", [
    ("dasheyi", ("jishi-juan10-dasheyi-simplified", "zhushu-dasheyi-excerpt")),  # an excerpt: witStart/witEnd
    ("xiangsheli", ("jishi-juan05-xiangsheli-traditional", "tushu-juan276-xiangsheli")),  # two scripts
])
def test_evt2_shows_each_witness_in_its_own_characters(browser, serve, read_corpus, tmp_path, chapter, stems):
    """EVT 2, collation view: one box per witness, each its own text (a fragment from its witStart to its witEnd)."""
    evt = _copy_viewer("evt2", tmp_path / "evt")
    col = collate([read_corpus(s) for s in stems])
    xml = write_viewer(col, evt / "data" / "text" / f"{chapter}.xml", "evt")
    root = etree.parse(str(xml)).getroot()
    cfg_path = evt / "config" / "config.json"
    cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
    cfg.update(dataUrl=f"data/text/{chapter}.xml", sourcesUrl="", sourcesTextsUrl="", witnessesTextsUrl="",
               analoguesUrl="", defaultViewMode="collation", defaultEdition="critical")
    cfg_path.write_text(json.dumps(cfg, ensure_ascii=False), encoding="utf-8")
    base = serve(evt)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{base}/index.html")
    text_of_boxes = ("() => Array.from(document.querySelectorAll('.box-witness')).map(b =>"
                     " (b.querySelector('.box-body') || {innerText: ''}).innerText)")
    try:
        page.wait_for_function(f"({text_of_boxes})().filter(t => t.length > 1000).length == 2", timeout=120_000)
    finally:
        _shot(page, tmp_path, f"evt2-{chapter}.png")
    # EVT shows the base's page breaks (pb/@n: 14a) in the text: not the witness's characters
    texts = [re.sub(r"\d+[ab]", "", "".join(t.split())) for t in page.evaluate(text_of_boxes)]
    expected = {s: panel_text(root, s) for s in col.sigla}
    for got, want in zip(sorted(texts), sorted(expected.values())):
        assert got == want, _first_difference(got, want)
    # the layers are apart in EVT's page (each ab a span with its data-type) though EVT 2 styles none of them
    kinds = page.evaluate("() => Array.from(new Set(Array.from(document.querySelectorAll('.box-witness .ab'))"
                          ".map(e => e.dataset.type))).sort()")
    assert {"jing", "zhu"} <= set(kinds)
    page.close()
