"""Candidates for unresolved Kanripo gaiji, from parallel passages in the other files.

Usage: python scripts/gaiji_parallels.py [KANRIPO_DIR]   (default ../shared/kanripo)

For each occurrence of a code that ``data/gaiji_kanripo.tsv`` does not resolve, take the
four characters on each side (other entities resolved by the table) and look for the same
context with one plain character between in every file.  Prints, per code, the characters
found with their counts and evidence, and whether the evidence is usable for the table:
``ok`` (one character, found in another file), ``conflict`` (several characters) or
``self`` (found only in the file that holds the code).  Nothing is written: a person decides.
"""

from __future__ import annotations

import collections
import re
import sys
from pathlib import Path

from jiaokan.normalize import tables

ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9_]*);")
MARKUP = re.compile(r"<pb:[^>]*>|¶|\s|[()/]")
UNRESOLVED = "？"


def main(folder: Path) -> None:
    known = {code: e.char for code, e in tables.gaiji().items()}
    raw = {p.stem: MARKUP.sub("", p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.txt"))}

    def clean(s: str) -> str:
        return ENTITY.sub(lambda m: known.get(m.group(1)) or UNRESOLVED, s)

    plain = {k: clean(v) for k, v in raw.items()}
    found: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    evidence: dict[str, list[str]] = collections.defaultdict(list)
    home: dict[str, set[str]] = collections.defaultdict(set)
    for name, text in raw.items():
        for m in ENTITY.finditer(text):
            code = m.group(1)
            if code in known:
                continue
            home[code].add(name)
            left, right = clean(text[max(0, m.start() - 30):m.start()])[-4:], clean(text[m.end():m.end() + 30])[:4]
            if UNRESOLVED in left + right or len(left) < 4 or len(right) < 4:
                continue
            pat = re.compile(re.escape(left) + "(.)" + re.escape(right))
            for other, t in plain.items():
                for m2 in pat.finditer(t):
                    if m2.group(1) != UNRESOLVED:
                        found[code][m2.group(1)] += 1
                        evidence[code].append(f"{left}{m2.group(1)}{right} ({other})")
    for code in sorted(home):
        chars = found.get(code)
        if not chars:
            print(f"{code}\t-\tno parallel")
            continue
        sources = {e.rsplit("(", 1)[1].rstrip(")") for e in evidence[code]}
        verdict = "conflict" if len(chars) > 1 else "self" if sources <= home[code] else "ok"
        char = chars.most_common(1)[0][0]
        print(f"{code}\t{char}\t{verdict}\t{sum(chars.values())} parallels: {'; '.join(sorted(set(evidence[code]))[:2])}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "shared" / "kanripo")
