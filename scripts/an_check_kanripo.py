#!/usr/bin/env python3
"""Check the 案 notes of Kanripo 《儀禮集釋》 chapters against the Kanripo 四库 《儀禮注疏》.

Usage::

    python scripts/an_check_kanripo.py                       # every KR1d0030_*.txt of ../shared/kanripo,
                                                             # each paired with the KR1d0028_*.txt of its 篇
    python scripts/an_check_kanripo.py --kanripo DIR          # the same in another folder (all 30 卷)
    python scripts/an_check_kanripo.py --pair JISHI.txt ZHUSHU.txt [--pair …]   # explicit pairs
    python scripts/an_check_kanripo.py --json report.json     # also every claim and check as JSON

The pairing, the check and the report live in :mod:`jiaokan.measure.an_check`.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
try:  # the package may not be installed in the venv: fall back to the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(ROOT / "src"))

from jiaokan.measure.an_check import main  # noqa: E402

DEFAULT_DIR = ROOT.parent / "shared" / "kanripo"

if __name__ == "__main__":
    sys.exit(main(default_dir=DEFAULT_DIR))
