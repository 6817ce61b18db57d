#!/usr/bin/env python3
"""Layer agreement, measured: how often a witness's 经/commentary split agrees with a reference.

Usage::

    python scripts/layer_agreement.py                       # the standard pairs, one table
    python scripts/layer_agreement.py WITNESS --reference REF [--witness-format F] [--reference-format F]
    python scripts/layer_agreement.py ... --examples 5      # more examples per kind of disagreement
    python scripts/layer_agreement.py ... --zhushu-voices V.tsv   # another prior for the 注疏 reader
    python scripts/layer_agreement.py --book ../shared/kanripo/KR1d00{26,28,30}_0*.txt --folds 1-8,9-13
                                                            # every 篇, per fold, held-out fold marked

The reference is a witness whose layers are certain: the 四部丛刊 《仪礼》 郑注
(Kanripo KR1d0026, Mandoku raw).  What is measured and how (streams of comparison
keys, the figures of each column, the inferred 注/经 boundaries) is told in
:mod:`jiaokan.measure.layer_agreement`, where the measure lives; this script gives it
the standard pairs of this checkout.
"""

from __future__ import annotations

import sys
from pathlib import Path

try:  # the package may not be installed in the running interpreter: use the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from jiaokan.measure.layer_agreement import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
KANRIPO = ROOT.parent / "shared" / "kanripo"

#: The standard pairs: (witness file, reference file).  Corpus files are read with their manifest entry.
STANDARD_PAIRS: tuple[tuple[Path, Path], ...] = (
    (CORPUS / "tushu-juan276-xiangsheli.txt", KANRIPO / "KR1d0026_005.txt"),
    (CORPUS / "jishi-juan05-xiangsheli-traditional.txt", KANRIPO / "KR1d0026_005.txt"),
    (CORPUS / "jishi-juan10-dasheyi-simplified.txt", KANRIPO / "KR1d0026_007.txt"),
    (CORPUS / "zhushu-dasheyi-excerpt.txt", KANRIPO / "KR1d0026_007.txt"),
    (KANRIPO / "KR1d0028_005.txt", KANRIPO / "KR1d0026_005.txt"),
    (KANRIPO / "KR1d0028_007.txt", KANRIPO / "KR1d0026_007.txt"),
    (KANRIPO / "KR1d0030_005.txt", KANRIPO / "KR1d0026_005.txt"),
    (KANRIPO / "KR1d0030_010.txt", KANRIPO / "KR1d0026_007.txt"),
)


if __name__ == "__main__":
    sys.exit(main(standard_pairs=STANDARD_PAIRS))
