#!/usr/bin/env python3
"""Variant census of a build: readings by type per 篇, unresolved gaiji, a seeded sample of substantive readings.

Usage::

    python scripts/variant_census.py BUILD                                # types per 篇, gaiji
    python scripts/variant_census.py BUILD --only pian09,pian10,pian11,pian12,pian13 --sample 100 --seed 21

The measure lives in :mod:`jiaokan.measure.variant_census`.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:  # the package may not be installed in the running interpreter: use the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from jiaokan.measure.variant_census import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
