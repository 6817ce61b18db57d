#!/usr/bin/env python3
"""Fuzz every witness reader with mutants of real files: no crawl, no traceback, nothing lost.

Usage::

    python scripts/fuzz_readers.py                       # 10,000 mutants, seed 25
    python scripts/fuzz_readers.py -n 2000 --seed 7 --kanripo ../shared/kanripo --seeds ../shared/seeds

Each mutant is a real file (a Kanripo clone of ``../shared/kanripo`` or a seed of
``../shared/seeds``; a window of a few hundred lines of a long file, with its header) changed
by one mutation class:

* ``codepoint`` — code points inserted: controls (C0, DEL, C1), surrogates (invalid UTF-8),
  noncharacters, private use, bidi controls, astral, BOM, the format's own marker characters;
* ``cut-utf8`` — the bytes cut at a random place (often inside a character);
* ``indent`` — one indentation character added to or removed from some lines;
* ``swap-lines`` — lines swapped, a stretch of lines shuffled;
* ``repeat-lines`` — a line or a stretch repeated as further lines;
* ``markers`` — marker forms swapped (疏/䟽, 注/註, 鄭注/郑注, ASCII and full-width brackets,
  page tags broken, ¶ dropped or doubled, 〈tag〉 and 【】 forms, 曰: and 曰：);
* ``huge-line`` — a line, or a stretch of lines joined, repeated into one line of 0.1–0.3 MB
  (and 2–8 MB for one mutant in 200).

The source file is drawn reader by reader in turn (each reader gets its share of mutants,
whatever the number of files it has), then at random among that reader's files.

Each mutant is read in-process by ``jiaokan.read`` (with the source's format, or sniffed, in
turn) in a worker process with a wall-clock limit, and counted per mutation class × reader
(the reader of the file it came from) as: accepted and lossless (the witness keeps every
character, checked here independently of the reader), refused in one line (a
``JiaokanError`` naming the file, one line), lossy, over 10 s (CPU time of the read, or killed
at the wall-clock limit), traceback (any other exception).  Exit status 1 when anything is
lossy, over the limit or a traceback.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Callable

try:  # the package may not be installed in the running interpreter: use the src tree
    import jiaokan  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on the environment
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from jiaokan.errors import JiaokanError
from jiaokan.readers import READERS, load_source, read_witness
from jiaokan.readers.common.lossless import check_lossless
from jiaokan.ui import table

ROOT = Path(__file__).resolve().parents[1]
CLASSES = ("codepoint", "cut-utf8", "indent", "swap-lines", "repeat-lines", "markers", "huge-line")
OUTCOMES = ("tried", "lossless", "refused", "lossy", "over 10 s", "traceback")

#: Code points most likely to break a reader: controls, surrogates, noncharacters, private use,
#: bidi, separators, BOM, astral planes, and the characters the formats use as markup.
NASTY = [*range(0x00, 0x21), *range(0x7F, 0xA1), 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xF8FF, 0xFDD0,
         0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x1FFFF, 0xF0000, 0x10FFFF, 0x2028, 0x2029, 0x3000, 0x202E,
         0x2066, 0x200B, 0x200D, 0x1B] + [ord(c) for c in "()/&;<>#¶【】〈〉《》（）：:，。○疏注傳案按曰釋　 \t"]

#: Marker forms a transcription may use for the same thing (each pair swapped one way or the other).
MARKER_SWAPS = [("疏", "䟽"), ("注", "註"), ("鄭注", "郑注"), ("釋曰", "释曰"), ("(", "（"), (")", "）"), ("/", "／"),
                ("【", "["), ("】", "]"), ("〈", "<"), ("〉", ">"), ("曰:", "曰："), ("案", "按"), ("¶", ""),
                ("¶", "¶¶"), ("<pb:", "<pb："), ("<pb:", "pb:"), (">¶", "¶"), ("○", "〇"), ("傳曰", "传曰"),
                ("&KR", "&kr"), (";", "；"), ("　", "  "), ("編輯", "编辑"), ("#+", "# +")]


# --------------------------------------------------------------------------- sources

def sources(kanripo: Path, seeds: Path) -> list[tuple[Path, str]]:
    """Every file that reads as it is, with the reader that reads it (mutants are counted under it)."""
    out = []
    for p in sorted(kanripo.glob("*.txt")) + sorted(seeds.glob("*.txt")):
        try:
            out.append((p, read_witness(p).meta.format))
        except JiaokanError:
            continue  # a file no reader takes (another work of the clone) is no source for mutants
    return out


def window(text: str, rng: random.Random, most: int = 300) -> str:
    """The file's header lines and a window of at most ``most`` lines (the whole file when short)."""
    lines = text.split("\n")
    head = 0
    while head < len(lines) and lines[head].startswith(("#", "-*-")):
        head += 1
    body = lines[head:]
    if len(body) <= most:
        return text
    start = rng.randrange(0, len(body) - most) if rng.random() < 0.7 else 0
    return "\n".join(lines[:head] + body[start:start + most])


# --------------------------------------------------------------------------- mutations

def _lines_mut(text: str, fn: Callable[[list[str]], None]) -> str:
    lines = text.split("\n")
    fn(lines)
    return "\n".join(lines)


def mutate(kind: str, text: str, rng: random.Random) -> tuple[bytes, str]:
    """A mutant of ``text`` (as bytes: a surrogate or a cut is invalid UTF-8) and a note of what was done."""
    if kind == "codepoint":
        s, notes = text, []
        for _ in range(rng.randint(1, 4)):
            c = rng.choice(NASTY) if rng.random() < 0.8 else rng.randint(0, 0x10FFFF)
            i = rng.randrange(len(s) + 1)
            s = s[:i] + chr(c) + s[i:]
            notes.append(f"U+{c:04X}@{i}")
        return s.encode("utf-8", "surrogatepass"), " ".join(notes)
    if kind == "cut-utf8":
        data = text.encode("utf-8")
        i = rng.randrange(1, len(data))
        return data[:i], f"cut at byte {i}"
    if kind == "indent":
        def indent(lines: list[str]) -> None:
            for _ in range(rng.randint(1, 12)):
                k = rng.randrange(len(lines))
                if rng.random() < 0.5:
                    lines[k] = rng.choice(("\u3000", " ")) + lines[k]
                elif lines[k][:1] in ("\u3000", " "):
                    lines[k] = lines[k][1:]
        return _lines_mut(text, indent).encode("utf-8"), "indent ±1"
    if kind == "swap-lines":
        def swap(lines: list[str]) -> None:
            if rng.random() < 0.5:
                for _ in range(rng.randint(1, 6)):
                    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
                    lines[a], lines[b] = lines[b], lines[a]
            else:
                a = rng.randrange(len(lines))
                b = min(len(lines), a + rng.randint(2, 40))
                part = lines[a:b]
                rng.shuffle(part)
                lines[a:b] = part
        return _lines_mut(text, swap).encode("utf-8"), "swapped"
    if kind == "repeat-lines":
        def repeat(lines: list[str]) -> None:
            a = rng.randrange(len(lines))
            b = min(len(lines), a + rng.choice((1, 1, 2, 5, 20)))
            lines[b:b] = lines[a:b] * rng.randint(1, 50)
        return _lines_mut(text, repeat).encode("utf-8"), "repeated"
    if kind == "markers":
        s, notes = text, []
        for _ in range(rng.randint(1, 3)):
            a, b = rng.choice(MARKER_SWAPS)
            if rng.random() < 0.5:
                a, b = b, a
            if not a or a not in s:
                continue
            if rng.random() < 0.5:  # every occurrence, or one
                s = s.replace(a, b)
            else:
                i = rng.choice([k for k in range(len(s)) if s.startswith(a, k)][:500])
                s = s[:i] + b + s[i + len(a):]
            notes.append(f"{a!r}->{b!r}")
        return s.encode("utf-8"), " ".join(notes) or "none applied"
    if kind == "huge-line":
        lines = text.split("\n")
        k = rng.randrange(len(lines))
        span = rng.choice((1, 1, 1, 5, 30))
        unit = "".join(ln.rstrip("¶") for ln in lines[k:k + span]) if span > 1 else lines[k]
        unit = unit or "司射命設豐"
        size = rng.randint(2_000_000, 8_000_000) if rng.random() < 0.005 else int(10 ** rng.uniform(5, 5.5))
        line = unit * max(1, size // len(unit.encode("utf-8")))
        lines[k:k + span] = [line]
        return "\n".join(lines).encode("utf-8"), f"line {k + 1} x{span} -> {len(line.encode('utf-8')) / 1e6:.1f} MB"
    raise ValueError(kind)


# --------------------------------------------------------------------------- reading, in a worker

def _read_one(path: str, fmt: str | None) -> tuple[str, float, str]:
    """(outcome, CPU seconds, detail) of reading ``path``."""
    t = resource.getrusage(resource.RUSAGE_SELF)
    t0 = t.ru_utime + t.ru_stime
    try:
        w = read_witness(path, fmt=fmt)
        ok = check_lossless(READERS[w.meta.format], load_source(path), w)
        outcome, detail = ("lossless", "") if ok.ok else ("lossy", ok.context)
    except JiaokanError as exc:
        msg = str(exc)
        one_line = "\n" not in msg and msg.startswith(path)
        outcome, detail = ("refused", msg[:160]) if one_line else ("traceback", f"not one line: {msg[:300]!r}")
    except BaseException as exc:  # noqa: BLE001 - that is what is being counted
        outcome, detail = "traceback", "".join(traceback.format_exception_only(type(exc), exc)).strip()[:300]
    t = resource.getrusage(resource.RUSAGE_SELF)
    return outcome, t.ru_utime + t.ru_stime - t0, detail


def _worker(conn) -> None:  # pragma: no cover - runs in the child
    while True:
        job = conn.recv()
        if job is None:
            return
        conn.send(_read_one(*job))


class Reader:
    """A worker process that reads one mutant at a time; killed and replaced when a read overruns."""

    def __init__(self) -> None:
        self.ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
        self._start()

    def _start(self) -> None:
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker, args=(child,), daemon=True)
        self.proc.start()
        child.close()

    def read(self, path: str, fmt: str | None, wall: float) -> tuple[str, float, str]:
        self.conn.send((path, fmt))
        if self.conn.poll(wall):
            try:
                return self.conn.recv()
            except EOFError:
                pass
        else:
            self.proc.kill()
            self.proc.join()
            self._start()
            return "over 10 s", wall, f"killed after {wall:.0f} s wall-clock"
        self.proc.join()
        self._start()
        return "traceback", 0.0, "the worker died (out of memory?)"

    def close(self) -> None:
        self.conn.send(None)
        self.proc.join(5)


# --------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Fuzz the witness readers with mutants of real files.")
    ap.add_argument("-n", type=int, default=10_000, help="mutants (default 10,000)")
    ap.add_argument("--seed", type=int, default=25, help="random seed (default 25): the same seed, the same mutants")
    ap.add_argument("--kanripo", type=Path, default=ROOT.parent / "shared" / "kanripo")
    ap.add_argument("--seeds", type=Path, default=ROOT.parent / "shared" / "seeds")
    ap.add_argument("--limit", type=float, default=10.0, help="CPU seconds a read may take (default 10)")
    ap.add_argument("--wall", type=float, default=120.0, help="wall-clock seconds before a read is killed (default 120)")
    ap.add_argument("--show", type=int, default=5, help="examples to print per bad outcome (default 5)")
    args = ap.parse_args(argv)

    srcs = sources(args.kanripo, args.seeds)
    if not srcs:
        print(f"no readable files in {args.kanripo} or {args.seeds}", file=sys.stderr)
        return 2
    texts = {p: p.read_text(encoding="utf-8") for p, _ in srcs}
    by_format: dict[str, list[Path]] = {}
    for p, f in srcs:
        by_format.setdefault(f, []).append(p)
    formats = sorted(by_format)
    rng = random.Random(args.seed)
    counts: dict[tuple[str, str], Counter[str]] = {}
    bad: list[str] = []
    slowest: list[tuple[float, str]] = []
    reader = Reader()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="jiaokan-fuzz-") as tmp:
        for k in range(args.n):
            kind = CLASSES[k % len(CLASSES)]
            fmt = formats[(k // len(CLASSES)) % len(formats)]
            path = rng.choice(by_format[fmt])
            data, note = mutate(kind, window(texts[path], rng), rng)
            mpath = Path(tmp) / f"m{k}{path.suffix}"
            mpath.write_bytes(data)
            given = fmt if k % 2 == 0 else None
            outcome, cpu, detail = reader.read(str(mpath), given, args.wall)
            if outcome != "over 10 s" and cpu > args.limit:
                outcome, detail = "over 10 s", f"{cpu:.1f} s CPU"
            c = counts.setdefault((kind, fmt), Counter())
            c["tried"] += 1
            c[outcome] += 1
            slowest.append((cpu, f"{kind} {path.name} ({note}, {len(data) / 1e6:.1f} MB)"))
            if outcome in ("lossy", "over 10 s", "traceback"):
                bad.append(f"{outcome}: #{k} {kind} {path.name} [{given or 'sniffed'}] {note}: {detail}")
            mpath.unlink()
            if (k + 1) % 500 == 0:
                print(f"  {k + 1}/{args.n} mutants, {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    reader.close()

    rows = []
    total: Counter[str] = Counter()
    for (kind, fmt), c in sorted(counts.items()):
        rows.append([kind, fmt, *(c[o] for o in OUTCOMES)])
        total.update(c)
    rows.append(["all", "", *(total[o] for o in OUTCOMES)])
    print(f"jiaokan fuzz: {args.n} mutants of {len(srcs)} files, seed {args.seed}, "
          f"{time.monotonic() - started:.0f} s")
    print(table(["mutation", "reader", "tried", "accepted and lossless", "refused in one line", "lossy",
                 f"over {args.limit:.0f} s", "traceback"], rows, numeric={2, 3, 4, 5, 6, 7}))
    slowest.sort(reverse=True)
    print("\nslowest reads (CPU): " + "; ".join(f"{t:.1f} s {what}" for t, what in slowest[:5]))
    by_kind: dict[str, list[str]] = {}
    for b in bad:
        by_kind.setdefault(b.split(":", 1)[0], []).append(b)
    for kind, lines in by_kind.items():
        print(f"\n{len(lines)} {kind}:")
        for line in lines[:args.show]:
            print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
