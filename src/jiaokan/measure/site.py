"""The HTML edition, measured: per chapter (篇) page its size, its elements, its load time and its scrolling.

The command line is ``scripts/measure_site.py``.  Why these figures: a scholar opens a
篇 page and reads it for hours, so what counts is how soon the page is usable and
whether scrolling stutters, on the real whole-book build, every page (not only the
largest one).

For each page, in a fresh headless Chromium context (file:// URL, no cache across runs):

* ``load``: navigation start → the end of the load event (Navigation Timing), best of
  N and the median;
* ``ready``: the same start → two animation frames after the load event, i.e. when
  the first screen has been laid out and painted, whatever the script did after load;
* ``elements``: ``document.getElementsByTagName('*').length`` at ready (what the
  browser has to style and keep);
* ``scroll``: after each load the page is scrolled by :data:`SCROLL_STEP` px per
  animation frame for :data:`SCROLL_FRAMES` frames; reported are the 95th
  percentile of the frame intervals and the number of frames longer than 50 ms
  (a "long frame": visible jank), best and median over the runs: on a shared
  machine other processes steal frames, and the best run is the page's own cost.

What "ready" counts, honestly: everything the browser does before the first screen of that page is painted —
parsing the whole HTML, styling and laying out every element (no row's layout is skipped or estimated: the
edition uses no ``content-visibility`` and renders no row lazily), the page's scripts (edition.js runs before
load, the deferred ones before the load event too).  A long 篇 is cut into parts (:mod:`jiaokan.render.parts`),
each a page of its own, so every part is measured as a page; the map of ids to parts (``parts/*.js``) is loaded
only when a link names an id of another part, which is a navigation, not part of a page's load.
"""

from __future__ import annotations

import argparse
import fnmatch
import html
import re
import statistics
import sys
import tempfile
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

SCROLL_STEP = 120
SCROLL_FRAMES = 240

_TIMING = """() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
    const e = performance.getEntriesByType('navigation')[0];
    done([e.loadEventEnd - e.startTime, performance.now() - e.startTime,
          document.getElementsByTagName('*').length]);
})))"""

_SCROLL = """([step, frames]) => new Promise(done => {
    const gaps = []; let last = performance.now(), k = 0;
    function tick(t) {
        gaps.push(t - last); last = t; window.scrollBy(0, step);
        if (++k < frames && window.scrollY + innerHeight < document.documentElement.scrollHeight) requestAnimationFrame(tick);
        else done(gaps.slice(1));
    }
    requestAnimationFrame(t => { last = t; requestAnimationFrame(tick); });
})"""


@dataclass
class PageFigures:
    name: str
    size: int
    elements: int
    load: list[float]
    ready: list[float]
    frame_p95: list[float]
    long_frames: list[int]
    frames: int


def chapter_pages(site: Path, base: bool = False, only: list[str] | None = None) -> list[Path]:
    """The chapter pages of a site: every ``*.html`` but the index and the pointers to a view that lives in
    another page (``NAME-emended.html``, ``NAME-base-ZS.html``: a redirect), and the base-text pages, parts
    included, unless ``base``; ``only``: shell patterns of the names to keep (``pian08*``)."""
    return sorted(p for p in site.glob("*.html")
                  if p.name != "index.html" and (base or not re.search(r"-base(-p\d+)?\.html$", p.name))
                  and (not only or any(fnmatch.fnmatch(p.name, o) for o in only)) and not _pointer(p))


def _pointer(page: Path) -> bool:
    with page.open("rb") as f:
        return b'http-equiv="refresh"' in f.read(1024)


def reading_views(page: Path) -> list[str]:
    """The queries that draw a parallel page as another witness's reading text (``read=ZS``, from its readers'
    links; ``read=JS&v=emended``, the base's emended text): the same file, another view, measured as a page of
    its own.  (The links' ``&`` is written ``&amp;`` in the HTML.)"""
    text = page.read_text(encoding="utf-8")
    return list(dict.fromkeys(html.unescape(m.group(1))
                              for m in re.finditer(r'href="[^"?]*\?(read=[^"#]+)"', text)))


def measure_page(browser, page: Path, runs: int, width: int, frames_max: int = SCROLL_FRAMES,
                 query: str = "") -> PageFigures:
    """Open ``page`` (with ``query``, a view drawn from it) ``runs`` times in fresh contexts, scrolling it each
    time for up to ``frames_max`` frames (0: no scroll, the load and ready figures only: a whole book's hundreds
    of parts in minutes, not an hour)."""
    url = page.resolve().as_uri() + (f"?{query}" if query else "")
    loads, readies, elements = [], [], 0
    p95s: list[float] = []
    longs: list[int] = []
    frames = 0
    for _ in range(runs):
        ctx = browser.new_context(viewport={"width": width, "height": 1000})
        pg = ctx.new_page()
        pg.goto(url, wait_until="load")
        load, ready, elements = pg.evaluate(_TIMING)
        loads.append(load)
        readies.append(ready)
        gaps = sorted(pg.evaluate(_SCROLL, [SCROLL_STEP, frames_max])) if frames_max else []
        frames = len(gaps)
        p95s.append(gaps[min(len(gaps) - 1, int(len(gaps) * .95))] if gaps else 0.0)
        longs.append(sum(1 for g in gaps if g > 50))
        ctx.close()
    name = f"{page.name}?{query}" if query else page.name
    return PageFigures(name, page.stat().st_size, elements, loads, readies, p95s, longs, frames)


def measure_site(site: Path, browser, runs: int = 5, width: int = 1400, base: bool = False,
                 each: Callable[[PageFigures], object] | None = None, only: list[str] | None = None,
                 frames_max: int = SCROLL_FRAMES) -> list[PageFigures]:
    """Every chapter page of ``site`` in ``browser`` (a launched Playwright browser: the script launches it,
    the package does not depend on Playwright); ``each`` is called with every page's figures as they come."""
    pages = chapter_pages(site, base, only)
    if pages:
        warm = browser.new_page()
        warm.goto(pages[0].resolve().as_uri())  # the first load pays for starting the renderer and the fonts
        warm.close()
    out = []
    for p in pages:  # with ``base``, each witness as the reading text too (the parallel page drawn from it)
        for q in [""] + (reading_views(p) if base and not re.search(r"-base(-p\d+)?\.html$", p.name) else []):
            out.append(measure_page(browser, p, runs, width, frames_max, q))
            if each is not None:
                each(out[-1])
    return out


HEADER = (f"{'page':32} {'KiB':>6} {'elements':>9} {'load best':>10} {'median':>7} {'ready best':>11} {'median':>7}"
          f" {'frame p95':>10} {'long frames best/median':>24}")


def row(f: PageFigures) -> str:
    """One page's line of the table."""
    return (f"{f.name:32} {f.size / 1024:>6.0f} {f.elements:>9} {min(f.load):>8.0f}ms {statistics.median(f.load):>5.0f}ms"
            f" {min(f.ready):>9.0f}ms {statistics.median(f.ready):>5.0f}ms {min(f.frame_p95):>8.0f}ms"
            f" {min(f.long_frames):>10} / {statistics.median(f.long_frames):<4.0f} of {f.frames}")


def footer(runs: int, frames_max: int = SCROLL_FRAMES) -> str:
    if not frames_max:
        return f"(best and median of {runs} runs, each a fresh load; no scroll: --frames 0)"
    return (f"(best and median of {runs} runs, each a fresh load then a scroll of up to {frames_max} frames × "
            f"{SCROLL_STEP} px; long frames: over 50 ms)")


def table(figures: list[PageFigures], runs: int, frames_max: int = SCROLL_FRAMES) -> str:
    return "\n".join([HEADER, "-" * 122, *(row(f) for f in figures), footer(runs, frames_max)])


#: Given a Chromium executable, a context manager that yields a launched browser.
Launcher = Callable[[str], AbstractContextManager[Any]]


def main(argv: list[str] | None = None, corpus: Path | None = None, launch: Launcher | None = None) -> int:
    ap = argparse.ArgumentParser(prog="measure_site.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("site", nargs="?", default="build/site", help="the site folder (default build/site)")
    ap.add_argument("-n", type=int, default=5, help="loads per page (default 5)")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--build", action="store_true", help="build the site from the corpus into a temporary folder first")
    ap.add_argument("--base", action="store_true",
                    help="measure the base-text pages too, and every witness as the reading text (page.html?read=ZS)")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--only", action="append", metavar="PATTERN",
                    help="measure only the pages whose name matches (shell pattern, e.g. 'pian08*'; repeatable)")
    ap.add_argument("--layout", action="store_true",
                    help="instead of timing, count per page what stands out of place (jiaokan.measure.layout): rows "
                         "with a column out of its own order, 注 not level where columns divide the 经 otherwise, "
                         "row heads over folio labels")
    ap.add_argument("--frames", type=int, default=SCROLL_FRAMES, metavar="N",
                    help=f"scroll each page for up to N animation frames (default {SCROLL_FRAMES}; 0: load and ready only)")
    args = ap.parse_args(argv)

    tmp = None
    site = Path(args.site).resolve()
    if args.build:
        from ..build import run_build

        if corpus is None:
            print("measure_site: --build needs a corpus", file=sys.stderr)
            return 2
        tmp = tempfile.TemporaryDirectory(prefix="jiaokan-measure-")
        run_build(corpus, Path(tmp.name), quiet=True)
        site = Path(tmp.name) / "site"
    try:
        pages = chapter_pages(site, args.base, args.only)
        if not pages:
            print(f"measure_site: no chapter pages in {site} (run `jiaokan build`, or give --build)", file=sys.stderr)
            return 2
        static = sum(p.stat().st_size for p in (site / "static").glob("*")) if (site / "static").is_dir() else 0
        print(f"{site}: {len(pages)} chapter pages; static/ (shared css + js) {static / 1024:.0f} KiB")
        if launch is None or not Path(args.chromium).exists():
            for p in pages:
                print(f"{p.name:32} {p.stat().st_size / 1024:>6.0f} KiB")
            print(f"measure_site: {args.chromium} not found (or no browser driver); sizes only", file=sys.stderr)
            return 0
        if args.layout:
            from .layout import layout_table, measure_layout

            with launch(args.chromium) as browser:
                print(layout_table(measure_layout(browser, pages, args.width)))
            return 0
        with launch(args.chromium) as browser:  # a line per page as it is measured (a whole book takes minutes)
            print(HEADER + "\n" + "-" * 122, flush=True)
            figures = measure_site(site, browser, args.n, args.width, args.base,
                                   each=lambda f: print(row(f), flush=True), only=args.only, frames_max=args.frames)
        worst = max(figures, key=lambda f: min(f.ready), default=None)
        print(footer(args.n, args.frames))
        if worst is not None:
            big = max(figures, key=lambda f: f.size)
            print(f"slowest ready (best of runs): {worst.name} {min(worst.ready):.0f} ms; "
                  f"largest page: {big.name} {big.size / 1024 / 1024:.2f} MB")
    finally:
        if tmp is not None:
            tmp.cleanup()
    return 0
