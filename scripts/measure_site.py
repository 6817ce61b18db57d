#!/usr/bin/env python3
"""Measure the HTML edition: every chapter (篇) page's size, elements, load time and scrolling.

    .venv/bin/python scripts/measure_site.py [SITE] [-n 5] [--base] [--chromium /usr/bin/chromium]
    .venv/bin/python scripts/measure_site.py --build          # build corpus/ into a temporary folder first

SITE defaults to build/site (a relative path is fine).  What is measured and how is told
in :mod:`jiaokan.measure.site`; this script gives it this checkout's corpus/.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

try:  # the package may not be installed in the running interpreter: use the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from jiaokan.measure.site import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@contextmanager
def chromium(executable: str) -> Iterator:
    """Headless Chromium through Playwright (a test dependency: ``pip install -e '.[test]'``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


if __name__ == "__main__":
    sys.exit(main(corpus=ROOT / "corpus", launch=chromium))
