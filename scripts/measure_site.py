#!/usr/bin/env python3
"""Measure the HTML edition: the size of every page and the load time of the largest chapter page.

    .venv/bin/python scripts/measure_site.py [SITE] [-n 5] [--chromium /usr/bin/chromium]

SITE defaults to build/site (run `jiaokan build` first; with --build the site is built
from corpus/ into a temporary folder).  Load time: navigation start to the end of the
load event, from the Navigation Timing entry, in a fresh headless Chromium page each
run (file:// URL, no cache across runs); best of N, with the median beside it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("site", nargs="?", default="build/site", help="the site folder (default build/site)")
    ap.add_argument("-n", type=int, default=5, help="runs (default 5)")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--build", action="store_true", help="build the site from corpus/ into a temporary folder first")
    ap.add_argument("--width", type=int, default=1400)
    args = ap.parse_args(argv)

    tmp = None
    site = Path(args.site)
    if args.build:
        from jiaokan.build import run_build

        tmp = tempfile.TemporaryDirectory(prefix="jiaokan-measure-")
        root = Path(__file__).resolve().parents[1]
        run_build(root / "corpus", Path(tmp.name), quiet=True)
        site = Path(tmp.name) / "site"
    pages = sorted(p for p in site.glob("*.html"))
    if not pages:
        print(f"measure_site: no HTML pages in {site} (run `jiaokan build`, or give --build)", file=sys.stderr)
        return 2
    print(f"{'page':40} {'bytes':>10} {'KiB':>7}")
    for p in sorted(pages, key=lambda p: -p.stat().st_size):
        print(f"{p.name:40} {p.stat().st_size:>10} {p.stat().st_size / 1024:>7.0f}")
    static = sum(p.stat().st_size for p in (site / "static").glob("*")) if (site / "static").is_dir() else 0
    print(f"{'static/ (css + js, shared)':40} {static:>10} {static / 1024:>7.0f}")
    chapters = [p for p in pages if p.name != "index.html"]
    largest = max(chapters or pages, key=lambda p: p.stat().st_size)

    if not Path(args.chromium).exists():
        print(f"measure_site: {args.chromium} not found; sizes only", file=sys.stderr)
        return 0
    from playwright.sync_api import sync_playwright

    loads, dcls, nodes = [], [], 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, headless=True, args=ARGS)
        warm = browser.new_page()
        warm.goto(largest.as_uri())  # the first run pays for starting the renderer and reading the fonts
        warm.close()
        for _ in range(args.n):
            ctx = browser.new_context(viewport={"width": args.width, "height": 1000})
            page = ctx.new_page()
            page.goto(largest.as_uri(), wait_until="load")
            t = page.evaluate("""() => { const e = performance.getEntriesByType('navigation')[0];
                return [e.loadEventEnd - e.startTime, e.domContentLoadedEventEnd - e.startTime,
                        document.getElementsByTagName('*').length]; }""")
            loads.append(t[0])
            dcls.append(t[1])
            nodes = t[2]
            ctx.close()
        browser.close()
    print(f"\nlargest chapter page: {largest.name}, {largest.stat().st_size} bytes "
          f"({largest.stat().st_size / 1024:.0f} KiB), {nodes} elements")
    print(f"load (navigation start -> load event end) in Chromium, best of {args.n}: {min(loads):.0f} ms "
          f"(median {statistics.median(loads):.0f} ms); DOMContentLoaded best {min(dcls):.0f} ms")
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
