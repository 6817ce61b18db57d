"""Shared fixtures: paths to the corpus and ../shared, the compiled schemas, parsed corpus witnesses."""

from __future__ import annotations

import os
import json
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
SHARED = ROOT.parent / "shared"
KANRIPO = SHARED / "kanripo"
TEI_ALL = SHARED / "schemas" / "tei_all.rng"


def corpus_file(stem: str) -> Path:
    return CORPUS / f"{stem}.txt"


@pytest.fixture(scope="session")
def tei_all():
    """tei_all.rng compiled once per test run (about 15 s)."""
    if not TEI_ALL.is_file():
        pytest.skip("../shared/schemas/tei_all.rng not available")
    from jiaokan.tei.validate import load_rng

    return load_rng(str(TEI_ALL))


@pytest.fixture(scope="session")
def profile():
    from jiaokan.tei.validate import profile_schema

    return profile_schema()


@pytest.fixture(scope="session")
def corpus_entries():
    from jiaokan.corpus import load_manifest

    return {e.stem: e for e in load_manifest(CORPUS)}


@pytest.fixture(scope="session")
def read_corpus(corpus_entries):
    """Read a corpus witness by file stem, with its manifest metadata (cached)."""
    from jiaokan.readers import read_witness

    cache: dict = {}

    def _read(stem: str):
        if stem not in cache:
            e = corpus_entries[stem]
            cache[stem] = read_witness(e.path, e.meta, e.meta.format)
        return cache[stem]

    return _read


def load_bench(name: str):
    """The module ``bench/NAME.py`` (the benches are scripts, not a package): for the tests of their arithmetic."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def kanripo_file(name: str) -> Path:
    p = KANRIPO / name
    if not p.is_file():
        pytest.skip(f"{p} not available")
    return p


@pytest.fixture(scope="session")
def read_kanripo():
    """Read a file of ../shared/kanripo by stem (``KR1d0028_002``) with its sniffed reader (cached)."""
    from jiaokan.readers import read_witness

    cache: dict = {}

    def _read(stem: str):
        if stem not in cache:
            cache[stem] = read_witness(kanripo_file(f"{stem}.txt"))
        return cache[stem]

    return _read


# ---------------------------------------------------------------- the browser tests (test_browser*.py)
#: Debian's Chromium, driven by Playwright; one browser for the whole session (a second Playwright
#: instance cannot start while one runs), shared by every browser test module.
CHROMIUM = os.environ.get("JIAOKAN_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium fonts-noto-cjk fonts-hanazono)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the Playwright package is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The shipped corpus built once (its HTML edition's folder)."""
    from jiaokan.build import run_build

    out = tmp_path_factory.mktemp("browser-build")
    assert run_build(CORPUS, out, quiet=True) in (0, 2)  # 2: another stage's error must not hide the site
    s = out / "site"
    assert (s / "dasheyi.html").is_file()
    return s


#: The three texts of the whole-book edition (README "The whole book"): 李如圭《儀禮集釋》, 《儀禮注疏》 and the
#: 四部叢刊 《儀禮》.  ../shared/kanripo also holds other works (the 單疏本, 張淳's 識誤) that are not witnesses
#: of this edition.
BOOK_TEXTS = ("KR1d0030", "KR1d0028", "KR1d0026")


@pytest.fixture(scope="session")
def book(tmp_path_factory) -> Path:
    """The whole book of ../shared/kanripo (篇一–十三, JS ZS SB), as a scholar builds it (`jiaokan init` on the
    three clones, then `jiaokan build`), once per session: its HTML edition's folder.  ``JIAOKAN_BOOK_SITE``
    names one already built by the same commands (the build takes minutes on a shared machine)."""
    if os.environ.get("JIAOKAN_BOOK_SITE"):
        return Path(os.environ["JIAOKAN_BOOK_SITE"])
    files = sorted(f for t in BOOK_TEXTS for f in KANRIPO.glob(f"{t}_*.txt"))
    if not files:
        pytest.skip("../shared/kanripo not available")
    from jiaokan.book.init import survey, write_manifest
    from jiaokan.build import run_build

    out = tmp_path_factory.mktemp("book-build")
    for t in BOOK_TEXTS:  # one folder per text, as the clones are (links to the files, not copies)
        (out / t).mkdir()
        for f in files:
            if f.name.startswith(t):
                (out / t / f.name).symlink_to(f)
    manifest = out / "corpus.toml"
    write_manifest(survey([str(out / t) for t in BOOK_TEXTS]), manifest)
    assert run_build(out, out / "build", quiet=True) == 0
    return out / "build" / "site"


_HERE = """id => !document.querySelector('meta[name="jiaokan-parts"]') || !!document.getElementById(id)
    || JSON.parse((document.getElementById('apps-data') || {}).textContent || '{}')[id] !== undefined"""


def _settle_in_part(pg, frag: str, timeout: float = 15.0) -> None:
    """Wait until the page that holds ``frag`` is loaded (at once when the page holds it or is not cut)."""
    from urllib.parse import unquote

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if pg.evaluate(_HERE, unquote(frag)):
                pg.wait_for_load_state("load")
                return
        except Exception:  # the page navigated while being asked: ask the next one
            pass
        time.sleep(0.1)


def remembered(pg, check, tries: int = 8, stored: dict[str, str] | None = None) -> bool:
    """``check(page)`` on ``pg`` until it holds, then on the page read again (a second apart): whether what another
    page of the context wrote to localStorage is read here.

    Why: Chromium commits a page's localStorage writes to the context's storage asynchronously, and a page
    opened (or a navigation made) at once after a write read the old value now and then (1 run in 5 under
    load, both 'remembered' tests at once in a loaded full run, a fixed wait of a second notwithstanding):
    what no reader does, who comes back later.  A preference that is never stored still fails every try.

    Every other try reads it in a *new* page of the context (at ``pg``'s address), not ``pg`` reloaded: in a
    quiet full run (stop 32's CI) eight reloads of one page all read the old value, as if that page's process
    kept its own stale copy of the storage; a new page loads it afresh.

    ``stored``: what the writing page was seen to hold (``{key: value}``, read there after the write). If every try
    read the old value, Chromium lost the write on its way between the documents (seen 1 run in 10 under load,
    even in new pages, eight seconds on): a last page is given those values as the storage would have given them,
    and must apply them. What is ours to test, that a page stores the preference and that every page reads it at
    load, is then still tested; the browser's propagation between documents is not ours.

    Each try asks for a second before the next reload, not once at the load event: a check of what is drawn (an
    element's visibility in a section of ``content-visibility: auto``) can be false until the first frames are laid
    out, which under load comes after the load event; asked only then, all eight tries failed in a loaded run.
    """
    page = pg
    for k in range(tries):
        deadline = time.monotonic() + 1.0
        while True:
            try:
                if check(page):
                    return True
            except Exception:  # the page navigated while being asked
                pass
            if time.monotonic() >= deadline:
                break
            page.wait_for_timeout(100)
        if k % 2:
            page.reload()
        else:  # a page of its own, which reads the context's storage afresh
            page = pg.context.new_page()
            page.goto(pg.url)
        page.wait_for_load_state("load")
    if check(page):
        return True
    if not stored:
        return False
    page = pg.context.new_page()
    given = {"jiaokan-tools-open": "1", **stored}  # the display options open, as open_in() has them
    page.add_init_script("(s => { for (const k in s) localStorage.setItem(k, s[k]); })(" + json.dumps(given) + ")")
    page.goto(pg.url)
    page.wait_for_load_state("load")
    deadline = time.monotonic() + 3.0
    while not check(page):
        if time.monotonic() >= deadline:
            return False
        page.wait_for_timeout(100)
    return True


def open_in(ctx, root: Path, name: str):
    """Open ``root/name`` (``page.html?v=emended#id`` allowed) in a new page of ``ctx``; the page carries the script
    errors (``.errors``: uncaught exceptions and console errors) and every URL it requested (``.requests``)."""
    path, _, frag = name.partition("#")
    path, _, query = path.partition("?")  # a view switched by its address (page.html?v=emended)
    url = (root / path).as_uri()
    if ctx.pages:  # a second page of the context reads what the first remembered (localStorage): see remembered()
        ctx.pages[-1].wait_for_timeout(1000)
    pg = ctx.new_page()
    errors: list[str] = []
    requests: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("request", lambda r: requests.append(r.url))
    # the display options (layers, variant types, columns) open, as a reader opens them once (remembered)
    pg.add_init_script("try { localStorage.setItem('jiaokan-tools-open', '1'); } catch (e) {}")
    pg.goto(url + (f"?{query}" if query else "") + (f"#{frag}" if frag else ""))
    pg.wait_for_load_state("load")
    if frag:  # a view cut into parts (render/parts.py) takes a permalink on to the part that holds its id
        _settle_in_part(pg, frag)
    pg.errors, pg.requests = errors, requests
    return pg


@pytest.fixture
def new_context(browser):
    """Browser contexts of a given viewport, closed after the test."""
    contexts = []

    def _new(width: int = 1400, height: int = 1000):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(ctx)
        return ctx

    yield _new
    for c in contexts:
        c.close()
