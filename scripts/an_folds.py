#!/usr/bin/env python3
"""The 案 figures per fold of 集释 卷 (卷一–八, 九–十六, 十七–二十四): tune on two, measure on the third.

Usage::

    python scripts/an_folds.py                       # ../shared/kanripo, tests/fixtures/an_reference.tsv
    python scripts/an_folds.py --kanripo DIR --reference FILE

The logic lives in :mod:`jiaokan.measure.an_folds`.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
try:  # the package may not be installed in the venv: fall back to the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(ROOT / "src"))

from jiaokan.measure.an_folds import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(default_dir=ROOT.parent / "shared" / "kanripo",
                  default_reference=ROOT / "tests" / "fixtures" / "an_reference.tsv"))
