#!/usr/bin/env python3
"""Find the 四库 editors' 案 notes in 集释 transcriptions, join them, parse them, count kinds.

Usage::

    python scripts/an_note_census.py FILE...             # every note, then a census per file
    python scripts/an_note_census.py --kind comment FILE  # only the notes that parse as ``kind``
    python scripts/an_note_census.py --json FILE...       # one JSON object per note (file, line, raw, record)

The extraction, the joining rule and the census live in :mod:`jiaokan.measure.an_census`.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:  # the package may not be installed in the venv: fall back to the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from jiaokan.measure.an_census import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
