#!/usr/bin/env python3
"""Rebuild figures: does every witness read back out of the apparatus exactly?

Usage::

    python scripts/apparatus_rebuild.py                      # build/apparatus/*.xml (+ .json beside them, if any)
    python scripts/apparatus_rebuild.py APP.xml [APP.xml …]  # these apparatus files
    python scripts/apparatus_rebuild.py --collate W1 W2 [W3 …]  # collate witness files in memory, check TEI and JSON

Each witness is read back by the rules of parallel segmentation
(:func:`jiaokan.collate.apparatus_reader.rebuild_from_tei`) and out of the JSON
alignment table (:func:`~jiaokan.collate.apparatus_reader.rebuild_from_json`; a build writes it, NAME.json
beside NAME.xml, only with ``jiaokan build --apparatus-json``, and a file without one is checked from its TEI), a reading
that points to another apparatus (the 注疏's 疏 in the 篇's ``NAME-shu``) read from there,
and compared, layer by layer, with the witness's own layer text, both after the
documented script fold (punctuation dropped, t2s).  Printed per witness and layer:
characters expected, characters rebuilt, mismatches (characters on either side
that the other lacks), and where they first differ.  Exit status 1 if any differ.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from lxml import etree

from jiaokan.collate.apparatus import collation_to_tei
from jiaokan.collate.apparatus_reader import (compare_rebuild, find_witness_file, listed_witnesses,
                                              rebuild_from_json, rebuild_from_tei, witness_layers)
from jiaokan.collate.engine import collate
from jiaokan.collate.export import collation_to_json
from jiaokan.collate.model import COLLATED_LAYERS
from jiaokan.errors import JiaokanError
from jiaokan.model import WitnessMeta
from jiaokan.readers import read_witness
from jiaokan.tei.reader import read_tei


def _print(name: str, source: str, figures) -> bool:
    bad = False
    for f in figures:
        print(f"{name:<28} {source:<4} {f.siglum:<4} {f.layer:<10} {f.expected:>8} {f.rebuilt:>8} {f.mismatches:>6}  "
              f"{f.first_difference}")
        bad |= not f.ok
    return bad


def check_files(paths: list[Path]) -> bool:
    bad = False
    for p in paths:
        root = etree.parse(str(p)).getroot()
        expected = {}
        # the layers this apparatus collates (a 疏 collation, NAME-shu, collates the 疏 alone)
        present = {ab.get("type") for ab in root.iter("{http://www.tei-c.org/ns/1.0}ab")}
        layers = tuple(x for x in COLLATED_LAYERS if x in present) or COLLATED_LAYERS
        for lw in listed_witnesses(root):
            wf = find_witness_file(lw.tei, p)
            if wf is None:
                sys.exit(f"{p}: witness {lw.siglum}: {lw.tei} not found beside it or in ../tei/")
            expected[lw.siglum] = witness_layers(read_tei(wf), layers)
        bad |= _print(p.stem, "tei", compare_rebuild(expected, rebuild_from_tei(root, p)))
        js = p.with_suffix(".json")
        if js.is_file():
            bad |= _print(p.stem, "json", compare_rebuild(expected, rebuild_from_json(json.loads(js.read_text()), js)))
    return bad


def check_collation(files: list[str]) -> bool:
    sigla = iter("ABCDEFGHIJ")
    ws = [read_witness(f, WitnessMeta(siglum=next(sigla), file=Path(f).name, format="")) for f in files]
    col = collate(ws)
    expected = {s: witness_layers(w, col.layers) for s, w in col.witnesses.items()}
    name = "+".join(Path(f).stem for f in files)
    bad = _print(name, "tei", compare_rebuild(expected, rebuild_from_tei(collation_to_tei(col).getroot())))
    return _print(name, "json", compare_rebuild(expected, rebuild_from_json(collation_to_json(col)))) or bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", metavar="FILE")
    ap.add_argument("--collate", action="store_true", help="FILEs are witnesses to collate (first = base)")
    args = ap.parse_args()
    print(f"{'collation':<28} {'from':<4} {'wit':<4} {'layer':<10} {'expected':>8} {'rebuilt':>8} {'diff':>6}  where")
    try:
        if args.collate:
            bad = check_collation(args.files)
        else:
            bad = check_files([Path(f) for f in args.files] or sorted(Path("build/apparatus").glob("*.xml")))
    except JiaokanError as exc:  # e.g. the 疏 collation a 篇's apparatus points to is not beside it: one line
        sys.exit(f"apparatus_rebuild: error: {exc}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
