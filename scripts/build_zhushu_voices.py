#!/usr/bin/env python3
"""Regenerate ``src/jiaokan/data/zhushu_voices.tsv``, the prior of the 注疏 注/经 boundary models.

Usage::

    python scripts/build_zhushu_voices.py                       # the 注疏 files in ../shared/kanripo
    python scripts/build_zhushu_voices.py FILE [FILE ...] -o OUT.tsv

What is counted, and why a shipped prior: :mod:`jiaokan.measure.zhushu_voices`.

To measure without a chapter's own counts in the prior (leave one chapter out)::

    python scripts/build_zhushu_voices.py ../shared/kanripo/KR1d0028_005.txt -o /tmp/v5.tsv
    python scripts/layer_agreement.py ../shared/kanripo/KR1d0028_007.txt \\
        --reference ../shared/kanripo/KR1d0026_007.txt --zhushu-voices /tmp/v5.tsv
"""

from __future__ import annotations

import sys
from pathlib import Path

try:  # the package may not be installed in the running interpreter: use the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from jiaokan.measure.zhushu_voices import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
KANRIPO = ROOT.parent / "shared" / "kanripo"
OUT = ROOT / "src" / "jiaokan" / "data" / "zhushu_voices.tsv"

if __name__ == "__main__":
    sys.exit(main(default_files=sorted(KANRIPO.glob("KR1d0028_*.txt")), default_output=OUT))
