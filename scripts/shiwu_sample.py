"""Draw a fixed-seed sample of 識誤 verdicts from a build, for checking by hand against the raw files.

    python scripts/shiwu_sample.py BUILD/shiwu [-n 40] [--seed 26]

Prints one row per sampled claim (a claim of one entry checked against one witness): the entry's
headword, kind, page and line in the 識誤, the anchored place, the witness, what jiaokan says it reads
there, and the verdict.  Only claims the check decided on (confirmed / contradicted) and those it
left uncertain are sampled; the DS witness (the 单疏本, 疏 only) is left out, since it never holds a
quoted 經 or 注.  The hand check of the figures in the README was made on this output.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("-n", type=int, default=40)
    ap.add_argument("--seed", type=int, default=26)
    a = ap.parse_args()
    claims = []
    for f in sorted(a.folder.glob("pian*-SW.json")):
        rep = json.loads(f.read_text(encoding="utf-8"))
        for e in rep["by_entry"]:
            for c in e["claims"]:
                if c["witness"] and c["witness"] != "DS":
                    claims.append((rep["pian"], e, c))
    rng = random.Random(a.seed)
    sample = rng.sample(claims, min(a.n, len(claims)))
    print("\t".join(("n", "pian", "headword", "kind", "rejected", "sw_page", "sw_line", "witness", "place", "reads",
                     "verdict")))
    for k, (pian, e, c) in enumerate(sample, 1):
        print("\t".join(str(x) for x in (k, pian, e["headword"], e["kind"], e["rejected"], e["page"], e["line"],
                                         c["witness"], c["anchor"], c["readings"].get(c["witness"], ""), c["verdict"])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
