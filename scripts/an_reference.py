#!/usr/bin/env python3
"""Score jiaokan's 案 notes (kind, lemma, reading, verdict) against the hand-checked reference.

Usage::

    python scripts/an_reference.py                          # tests/fixtures/an_reference.tsv, ../shared/kanripo
    python scripts/an_reference.py --kanripo DIR --reference FILE

Prints precision and recall per verdict, agreement on kind, lemma and reading, and every
claim where jiaokan and the reference disagree.  The logic lives in
:mod:`jiaokan.measure.an_reference`; the pairing of 集释 and 注疏 卷 is that of
``scripts/an_check_kanripo.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
try:  # the package may not be installed in the venv: fall back to the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(ROOT / "src"))

from jiaokan.measure.an_reference import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(default_dir=ROOT.parent / "shared" / "kanripo",
                  default_reference=ROOT / "tests" / "fixtures" / "an_reference.tsv"))
