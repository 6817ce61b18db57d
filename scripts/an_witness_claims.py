#!/usr/bin/env python3
"""Count the 案 claims about a 宋本 and the 释文 per 卷 and verdict, from emend reports.

Usage::

    jiaokan build --corpus corpus.toml --out build
    python scripts/an_witness_claims.py build/emend

The logic lives in :mod:`jiaokan.measure.witness_claims`.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
try:  # the package may not be installed in the venv: fall back to the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(ROOT / "src"))

from jiaokan.measure.witness_claims import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
