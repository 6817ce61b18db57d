"""The variant census of a build: readings by type per 篇, a seeded sample of the substantive ones, and gaiji.

Why: "how many of the substantive variants are only 异体 the fold does not know" is answered by reading
a sample, and "how many gaiji stay unknown" by counting; both must be measured the same way before and
after a change, and on 篇 the change was not tuned on.  The numbers come from a build's own outputs
(``apparatus/*.json``, which ``jiaokan build --apparatus-json`` writes, and ``tei/*.xml``), so any such build can
be measured, also an old one.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ..collate.leanjson import json_variants

TEI = "{http://www.tei-c.org/ns/1.0}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
_PIAN_RE = re.compile(r"^pian(\d+)")


@dataclass(frozen=True)
class Reading:
    """One witness's substantive reading at one apparatus entry."""

    chapter: str  # the collation's name (pian09)
    app: str
    layer: str
    base: str
    lem: str
    siglum: str
    text: str
    subtype: str | None
    context: str

    def line(self) -> str:
        return (f"{self.chapter} {self.app:8s} {self.layer:5s} {self.base}:{self.lem} | {self.siglum}:{self.text} | "
                f"{self.subtype or ''} | {self.context}")


def _chapters(folder: Path, only: set[str] | None) -> list[tuple[str, dict]]:
    out = []
    for f in sorted(folder.glob("*.json")):
        if only is not None and f.stem not in only:
            continue
        out.append((f.stem, json.loads(f.read_text(encoding="utf-8"))))
    return out


def counts_by_chapter(apparatus: Path, only: set[str] | None = None) -> dict[str, collections.Counter]:
    """Witness readings per variant type, per collation (``agree`` left out)."""
    out: dict[str, collections.Counter] = {}
    for name, d in _chapters(apparatus, only):
        c: collections.Counter = collections.Counter()
        for v in json_variants(d):
            for t in v["types"].values():
                if t != "agree":
                    c[t] += 1
        out[name] = c
    return out


def substantive(apparatus: Path, only: set[str] | None = None) -> list[Reading]:
    out = []
    for name, d in _chapters(apparatus, only):
        base = d["base"]
        for v in json_variants(d):
            for s, t in v["types"].items():
                if t == "substantive":
                    out.append(Reading(name, v["id"], v["layer"], base, v["readings"].get(base, ""), s,
                                       v["readings"][s], v.get("subtype"), v["context"]))
    return out


def sample(readings: list[Reading], n: int, seed: int) -> list[Reading]:
    """A seeded random sample (the same seed and readings give the same sample)."""
    return random.Random(seed).sample(readings, min(n, len(readings)))


def gaiji_by_chapter(tei: Path, only: set[str] | None = None) -> dict[str, tuple[int, int]]:
    """(gaiji occurrences, unresolved ones) per 篇 over the witness TEI files ``pianNN-SIGLUM.xml``.

    A gaiji is a ``g`` in the text that is not a held code point (``U-XXXX``); it is resolved when its
    ``charDecl`` entry maps it to a character (``mapping[@type='standard']``).
    """
    out: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for f in sorted(tei.glob("pian*.xml")):
        m = _PIAN_RE.match(f.stem)
        if m is None or (only is not None and f"pian{m.group(1)}" not in only):
            continue
        root = etree.parse(str(f)).getroot()
        known = {c.get(XML_ID): c.find(f"{TEI}mapping[@type='standard']") is not None for c in root.iter(f"{TEI}char")}
        text = root.find(f"{TEI}text")
        for g in text.iter(f"{TEI}g") if text is not None else ():
            code = (g.get("ref") or "#")[1:]
            if code.startswith("U-"):
                continue
            tally = out[f"pian{m.group(1)}"]
            tally[0] += 1
            tally[1] += 0 if known.get(code) else 1
    return {k: (v[0], v[1]) for k, v in sorted(out.items())}


def load_classes(tsv: Path) -> tuple[dict[tuple[str, ...], str], dict[tuple[str, ...], str]]:
    """Hand classes of sampled readings (``tests/fixtures/variant_hand_sample.tsv``): by (篇, entry, base reading,
    witness reading), and by (篇, base reading, witness reading) where every line of that pair has one class.

    Why both: entry numbers hold within one build; a later build may number its entries otherwise, and the same
    pair in the same 篇 is then most likely the same call (shown as such: ``~G``), never a certain one.
    """
    exact: dict[tuple[str, ...], str] = {}
    by_pair: dict[tuple[str, ...], set[str]] = collections.defaultdict(set)
    with open(tsv, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        col = {name: i for i, name in enumerate(header)}
        for line in f:
            row = line.rstrip("\n").split("\t")
            if len(row) < len(header) or line.startswith("#"):
                continue
            cls = row[col["class"]]
            pian, app, base, wit = (row[col[k]] for k in ("pian", "app", "base", "wit"))
            exact[(pian, app, base, wit)] = cls
            by_pair[(pian, base, wit)].add(cls.rstrip("?"))
    return exact, {k: next(iter(v)) for k, v in by_pair.items() if len(v) == 1}


def classify(r: Reading, classes: tuple[dict[tuple[str, ...], str], dict[tuple[str, ...], str]]) -> str:
    """The hand class of a sampled reading: ``G``/``P``/``E``/``W``/``A`` (``?`` if the call was tentative),
    ``~G`` when only the same pair elsewhere in the 篇 was classed, ``""`` when nobody has classed it."""
    exact, by_pair = classes
    base, wit = f"{r.base}:{r.lem}", f"{r.siglum}:{r.text}"
    chapter = _PIAN_RE.match(r.chapter)
    pian = f"pian{chapter.group(1)}" if chapter else r.chapter
    if (pian, r.app, base, wit) in exact:
        return exact[(pian, r.app, base, wit)]
    return "~" + by_pair[(pian, base, wit)] if (pian, base, wit) in by_pair else ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Variant census of a build: types per 篇, a sample, gaiji.")
    ap.add_argument("build", type=Path, help="a build folder (with apparatus/ and tei/)")
    ap.add_argument("--only", default="", help="collations to count, comma-separated (pian09,pian10,...)")
    ap.add_argument("--sample", type=int, default=0, help="print a seeded sample of this many substantive readings")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--classes", type=Path, metavar="TSV",
                    help="hand classes of earlier samples (tests/fixtures/variant_hand_sample.tsv): shown beside each "
                         "sampled reading, with the count of graphic variants (G) among those classed")
    args = ap.parse_args(argv)
    only = {x.strip() for x in args.only.split(",") if x.strip()} or None
    if not any((args.build / "apparatus").glob("*.json")):  # counted from nothing, every type would read 0
        ap.error(f"{args.build / 'apparatus'} holds no JSON apparatus (NAME.json): build with "
                 "`jiaokan build --apparatus-json`")
    counts = counts_by_chapter(args.build / "apparatus", only)
    types = ("substantive", "orthographic", "taboo", "uncertain", "omission", "addition", "transposition")
    print("篇        " + " ".join(f"{t[:11]:>12s}" for t in types))
    total: collections.Counter = collections.Counter()
    for name, c in counts.items():
        total.update(c)
        print(f"{name:9s}" + " ".join(f"{c[t]:12d}" for t in types))
    print(f"{'all':9s}" + " ".join(f"{total[t]:12d}" for t in types))
    gaiji = gaiji_by_chapter(args.build / "tei", only)
    if gaiji:
        n, u = sum(v[0] for v in gaiji.values()), sum(v[1] for v in gaiji.values())
        print("\ngaiji (occurrences, unresolved): " + ", ".join(f"{k} {a}/{b}" for k, (a, b) in gaiji.items()))
        print(f"unresolved gaiji: {u}/{n} = {100 * u / n:.1f}%")
    if args.sample:
        readings = substantive(args.build / "apparatus", only)
        print(f"\n{args.sample} of {len(readings)} substantive readings (seed {args.seed}):")
        classes = load_classes(args.classes) if args.classes else None
        tally: collections.Counter = collections.Counter()
        for i, r in enumerate(sample(readings, args.sample, args.seed), 1):
            if classes is None:
                print(f"{i:3d} {r.line()}")
                continue
            cls = classify(r, classes)
            tally[cls.lstrip("~").rstrip("?")[:1] or "unclassed"] += 1
            print(f"{i:3d} {cls or '-':4s} {r.line()}")
        if classes is not None:
            print("\nhand classes (~: the same pair elsewhere in the 篇): "
                  + ", ".join(f"{k} {tally[k]}" for k in ("G", "P", "E", "W", "A", "unclassed"))
                  + "; classify the unclassed lines in the raw files and add them to the TSV")
    return 0
