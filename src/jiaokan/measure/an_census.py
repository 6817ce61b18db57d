"""Find the 四库 editors' 案 notes in 集释 transcriptions, join them, parse them, count kinds.

The command line is ``scripts/an_note_census.py`` (:func:`main`).

Why a stand-alone extraction: the witness readers own the layer model, but the note
grammar has to be checked against every note of a file, whatever the transcription
format, without building witnesses.  The joining rule is the one of GUIDE §1/§3:

* a note is set as double-column small text, each line break closing one bracket
  group ``(右列/左列)``; reading order = all pieces with ``/``, ``(``, ``)`` and line
  ends removed;
* bracket groups that follow each other with nothing but *gap material* between them
  (line ends, Kanripo ``¶``, ``<pb:…>`` tags, page-marker lines such as
  ``卷十 第 30a 页 WYG0103-0207a.png``, indentation) belong to the same note, unless
  the next group starts with 案 (then a new note starts);
* a group that does not start with 案 and does not continue a note is reported as an
  *orphan* (on stderr), never silently joined or dropped.

Works on the seed exports (``corpus/jishi-*.txt``) and on Kanripo Mandoku raw files.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence, TextIO

from ..emend.notes import join_note_text, parse_note
from ..emend.verdict import KINDS

__all__ = ["FoundNote", "is_gap", "extract_notes", "extract_file", "census", "main"]

#: One bracket group of double-column small text (never nested, never over a line end).
GROUP = re.compile(r"[(（](?P<body>[^()（）\n]*)[)）]")

#: Things allowed between two groups of the same note.
PB_TAG = re.compile(r"<pb:[^>]*>")
PAGE_MARKER_LINE = re.compile(
    r"(?m)^[ \t\u3000]*卷[〇零一二三四五六七八九十百]+[ \t]*第[ \t]*\S+[ \t]*[页頁][ \t]*\S*[ \t]*$"
)
HEADER_LINE = re.compile(r"(?m)^#.*$")
GAP_CHARS = re.compile(r"[\s\u3000¶/]+")

#: A note starts with one of these (after any ``/``).
NOTE_START = re.compile(r"^[/\s\u3000]*(?:案|按|謹案|谨案|謹按|谨按)")


@dataclass
class FoundNote:
    """A joined note with where it starts: ``file``, 1-based ``line``, char ``offset``."""

    file: str
    line: int
    offset: int
    raw: str
    groups: int


def is_gap(text: str) -> bool:
    """True when ``text`` holds only line ends, indentation, ``¶``, page tags or page-marker lines."""
    text = PB_TAG.sub("", text)
    text = PAGE_MARKER_LINE.sub("", text)
    text = HEADER_LINE.sub("", text)
    return GAP_CHARS.sub("", text) == ""


def extract_notes(text: str, file: str = "") -> tuple[list[FoundNote], list[FoundNote]]:
    """All 案 notes of ``text`` (joined) and the orphan groups (bracket groups that are not notes)."""
    notes: list[FoundNote] = []
    orphans: list[FoundNote] = []
    current: list[str] | None = None
    start = 0
    prev_end = -1
    for m in GROUP.finditer(text):
        body = m.group("body")
        starts_note = bool(NOTE_START.match(body))
        continues = current is not None and not starts_note and is_gap(text[prev_end : m.start()])
        if continues:
            assert current is not None
            current.append(body)
        else:
            if current is not None:
                notes.append(_found(text, file, start, current))
                current = None
            if starts_note:
                current, start = [body], m.start()
            else:
                orphans.append(_found(text, file, m.start(), [body]))
        prev_end = m.end()
    if current is not None:
        notes.append(_found(text, file, start, current))
    return notes, orphans


def _found(text: str, file: str, offset: int, pieces: list[str]) -> FoundNote:
    return FoundNote(file, text.count("\n", 0, offset) + 1, offset, join_note_text("".join(pieces)), len(pieces))


def extract_file(path: str | Path) -> tuple[list[FoundNote], list[FoundNote]]:
    p = Path(path)
    return extract_notes(p.read_text(encoding="utf-8"), str(path))


def census(paths: list[str], kind: str | None = None, as_json: bool = False,
           out: TextIO | None = None) -> dict[str, Counter]:
    """Print the notes of ``paths`` (optionally only one ``kind``) and a per-file census of kinds."""
    out = out or sys.stdout
    counts: dict[str, Counter] = {}
    for path in paths:
        notes, orphans = extract_file(path)
        c: Counter = Counter()
        for n in notes:
            rec = parse_note(n.raw)
            c[rec.kind] += 1
            if kind and rec.kind != kind:
                continue
            if as_json:
                print(json.dumps({"file": n.file, "line": n.line, "raw": n.raw, "record": rec.to_dict()},
                                 ensure_ascii=False), file=out)
            else:
                ev = "+".join(e.id for e in rec.evidence)
                more = f" (+{len(rec.more)} more)" if rec.more else ""
                print(f"{n.file}:{n.line}\t{rec.kind:<10}\t{rec.lemma or '∅'}→{rec.reading or '∅'}\t"
                      f"{rec.target or '-'}\t{ev or '-'}\t{rec.scope}\t{rec.position}\t{rec.rule}{more}\t{n.raw}",
                      file=out)
        for o in orphans:
            print(f"{o.file}:{o.line}: warning: bracket group is not an 案 note: ({o.raw})", file=sys.stderr)
        counts[path] = c
    if not as_json:
        print("\ncensus", file=out)
        total: Counter = Counter()
        header = "file".ljust(48) + "".join(k[:10].rjust(11) for k in KINDS) + "total".rjust(8)
        print(header, file=out)
        for path, c in counts.items():
            total.update(c)
            print(_row(Path(path).name, c), file=out)
        if len(counts) > 1:
            print(_row("TOTAL", total), file=out)
    return counts


def _row(name: str, c: Counter) -> str:
    return name.ljust(48) + "".join(str(c.get(k, 0)).rjust(11) for k in KINDS) + str(sum(c.values())).rjust(8)


def main(argv: Sequence[str] | None = None) -> int:
    """``an_note_census [--kind KIND] [--json] FILE...``: the notes and the census of kinds."""
    ap = argparse.ArgumentParser(prog="an_note_census", description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--kind", choices=KINDS, help="list only the notes of this kind")
    ap.add_argument("--json", action="store_true", help="one JSON line per note, no census")
    args = ap.parse_args(argv)
    try:
        census(args.files, args.kind, args.json)
    except BrokenPipeError:  # output piped into head & co.
        sys.stderr.close()
    return 0
