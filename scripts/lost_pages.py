#!/usr/bin/env python3
"""Score where a build puts the 四部丛刊's text around its lost pages, against the hand-checked reference.

Usage::

    python scripts/lost_pages.py BUILD                # BUILD/tei/pianNN-{JS,ZS,SB}.xml, collated again as the build did
    python scripts/lost_pages.py BUILD --reference tests/fixtures/sbck_lost_pages.tsv

The reference (every ``# page missing`` of KR1d0026_001-013, read from the raw files by hand) and the scoring live in
:mod:`jiaokan.measure.lost_pages`; see ``tests/fixtures/sbck_lost_pages.README.md``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
try:  # the package may not be installed in the venv: fall back to the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(ROOT / "src"))

import jiaokan  # noqa: E402
from jiaokan.measure.lost_pages import read_reference, score, table  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", type=Path, help="a jiaokan build folder of the whole book (its tei/)")
    ap.add_argument("--reference", type=Path, default=ROOT / "tests" / "fixtures" / "sbck_lost_pages.tsv")
    args = ap.parse_args()
    losses = read_reference(args.reference)
    scores = []
    by_pian: dict[int, tuple] = {}
    for loss in losses:
        if loss.pian not in by_pian:
            files = [args.build / "tei" / f"pian{loss.pian:02d}-{s}.xml" for s in ("JS", "ZS", "SB")]
            missing = [f for f in files if not f.is_file()]
            if missing:
                print(f"lost_pages: {missing[0]}: not found (a build of the whole book?)", file=sys.stderr)
                return 2
            ws = [jiaokan.read(f) for f in files]
            by_pian[loss.pian] = (ws[0], ws[2], jiaokan.collate(ws, base="JS"))
        js, sb, col = by_pian[loss.pian]
        scores.append(score(loss, js, sb, col))
    print(table(scores))
    return 0


if __name__ == "__main__":
    sys.exit(main())
