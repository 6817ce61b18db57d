"""``jiaokan build``: the whole pipeline over the corpus manifest.

Stages run in order and each adds to the summary:
  1. ingest every witness → OUT/tei/<file stem>.xml (validated against the profile)
  2. collate the witnesses that share a chapter → OUT/apparatus/<name>.xml and .json
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .collate.apparatus import write_apparatus
from .collate.engine import CollationError, collate
from .collate.export import write_json
from .corpus import Entry, load_collations, load_manifest
from .model import Witness
from .readers import ReaderError, read_witness
from .tei.validate import validate_file
from .tei.writer import write_tei
from .ui import Progress, table


@dataclass
class BuildResult:
    entries: list[Entry]
    witnesses: dict[str, Witness] = field(default_factory=dict)  # by file stem
    tei_paths: dict[str, Path] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    collations: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def ingest_stage(res: BuildResult, out: Path, progress: Progress, tei_all: str | None) -> list[tuple]:
    rows = []
    for e in res.entries:
        t0 = time.perf_counter()
        try:
            w = read_witness(e.path, e.meta, e.meta.format or None)
        except ReaderError as exc:
            res.errors.append(str(exc))
            progress.step(f"{e.stem}: error")
            continue
        path = write_tei(w, out / "tei" / f"{e.stem}.xml")
        rep = validate_file(path, tei_all)
        if not rep.ok:
            res.errors.extend(f"{path}: {err}" for err in rep.errors)
        res.witnesses[e.stem] = w
        res.tei_paths[e.stem] = path
        c = w.layer_counts()
        rows.append((
            w.meta.siglum, e.path.name, w.meta.format, sum(1 for _ in w.passages()),
            c["jing"], c["zhu"], c["shu"], c["yinyi"] + c["shi"] + c["commentary"] + c["kaozheng"], c["an"],
            c["paratext"], len(w.warnings), "ok" if rep.ok else "INVALID", f"{time.perf_counter() - t0:.2f}s",
        ))
        progress.step(e.stem)
    return rows


def collate_stage(res: BuildResult, corpus: Path, out: Path, progress: Progress, tei_all: str | None) -> list[tuple]:
    rows = []
    for spec in load_collations(corpus, res.entries):
        members = [e for e in spec.entries if e.stem in res.witnesses]
        if len(members) < 2:
            res.notes.append(f"collation {spec.name}: fewer than two witnesses of {spec.chapter} were read; skipped")
            progress.step(spec.name)
            continue
        t0 = time.perf_counter()
        try:
            col = collate([res.witnesses[e.stem] for e in members], base=spec.base)
        except CollationError as exc:
            res.errors.append(f"collation {spec.name}: {exc}")
            progress.step(spec.name)
            continue
        names = {res.witnesses[e.stem].meta.siglum: f"{e.stem}.xml" for e in members}
        xml = write_apparatus(col, out / "apparatus" / f"{spec.name}.xml", names)
        write_json(col, out / "apparatus" / f"{spec.name}.json")
        rep = validate_file(xml, tei_all)
        if not rep.ok:
            res.errors.extend(f"{xml}: {err}" for err in rep.errors)
        res.collations[spec.name] = col
        c = col.counts()
        rows.append((spec.name, spec.chapter, " ".join(col.sigla), col.base, len(col.rows),
                     c["substantive"], c["omission"], c["addition"], c["transposition"], c["taboo"],
                     c["orthographic"], "ok" if rep.ok else "INVALID", f"{time.perf_counter() - t0:.2f}s"))
        progress.step(spec.name)
    return rows


def run_build(corpus: Path, out: Path, *, quiet: bool = False, tei_all: str | None = None) -> int:
    t0 = time.perf_counter()
    entries = load_manifest(corpus)
    res = BuildResult(entries)
    progress = Progress(len(entries), "ingest", quiet=quiet)
    rows = ingest_stage(res, out, progress, tei_all)
    print(table(
        ("siglum", "file", "format", "passages", "经", "注", "疏", "other comm.", "案", "paratext", "warnings", "TEI", "time"),
        rows, numeric={3, 4, 5, 6, 7, 8, 9, 10},
    ))
    specs = load_collations(corpus, entries)
    progress = Progress(len(specs), "collate", quiet=quiet)
    crows = collate_stage(res, corpus, out, progress, tei_all)
    if crows:
        print()
        print(table(("collation", "chapter", "witnesses", "base", "rows", "substantive", "omission", "addition",
                     "transp.", "taboo", "orthogr.", "TEI", "time"), crows, numeric={4, 5, 6, 7, 8, 9, 10}))
    for line in res.notes:
        print(line)
    print(f"\n{len(res.witnesses)}/{len(entries)} witnesses -> {out / 'tei'}; "
          f"{len(res.collations)} collations -> {out / 'apparatus'}  ({time.perf_counter() - t0:.1f} s)")
    if res.errors:
        for err in res.errors:
            sys.stderr.write(f"jiaokan: error: {err}\n")
        return 2
    return 0
