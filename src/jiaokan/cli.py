"""The ``jiaokan`` command line.

Exit status: 0 success; 1 a check failed (``validate`` found invalid files);
2 bad input or usage (a one-line message on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import NoReturn, Sequence, TextIO

from . import __version__
from .errors import CollationError, InputError, JiaokanError, printable
from .io import InvalidOutput, OutputError
from .model import LAYERS, ROLES, Witness, WitnessMeta
from .names import STDIN_STEM, derive_siglum, output_stem, siglum_problem
from .readers import READERS, read_witness
from .readers.common.base import load_source
from .ui import colour_wanted, counted, internal_error, table

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

MAIN_HELP = """\
jiaokan (校勘): build critical editions of classical Chinese texts with commentary.

The pipeline:  witness files --ingest--> layered TEI --collate--> apparatus --> HTML edition
  jiaokan formats                      which witness formats can be read
  jiaokan ingest corpus/x.txt          one witness file -> build/tei/x.xml (layers 经/注/疏/…)
  jiaokan text build/tei/x.xml --layer jing
                                       the plain text of one layer, one passage per line
  jiaokan validate build/tei/*.xml     check files against the project's TEI profile
  jiaokan diff A.xml B.xml             where, and how, two witnesses differ, passage by passage
  jiaokan collate A.xml B.xml -o app.xml --json app.json
                                       a TEI apparatus and CollateX-style JSON, layer by layer
  jiaokan emend JS.xml --against ZS.xml
                                       parse, apply and check the 四库 editors' 案 notes
  jiaokan render build/tei/*.xml build/apparatus/*.xml -o site
                                       the parallel-text HTML edition
  jiaokan build                        all of it for every witness in corpus/corpus.toml -> build/

The whole book from Kanripo clones (one file per 卷; see the README):
  jiaokan init KR1d0030 KR1d0028 KR1d0026 -o book/corpus.toml
                                       find the files, group them into witnesses, place each 卷 in its 篇
  jiaokan build --corpus book --out book/build
                                       the edition of every 篇 (a process per core; -j 1: one)

Run `jiaokan COMMAND --help` for the options of each command.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # usage errors: exit 2 with one line
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def _common_options() -> argparse.ArgumentParser:
    """The options every command takes, defined once and shared as an argparse parent."""
    c = argparse.ArgumentParser(add_help=False)
    g = c.add_argument_group("output detail (every command)")
    x = g.add_mutually_exclusive_group()
    x.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors (and the command's own output)")
    x.add_argument("-v", "--verbose", action="count", default=0,
                   help="more detail: every warning (ingest), the validator used (validate), …")
    return c


_COMMON = _common_options()


class _CommandParser(_Parser):
    """A subcommand's parser: always has the shared -q/-v options (so no command can forget them)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["parents"] = [*kwargs.get("parents", []), _COMMON]
        super().__init__(*args, **kwargs)


def _err(msg: str) -> None:
    sys.stderr.write(f"jiaokan: error: {printable(msg)}\n")


def _warn(msg: str) -> None:
    sys.stderr.write(f"jiaokan: warning: {printable(msg)}\n")


def _meta_for(path: str, args: argparse.Namespace) -> WitnessMeta | None:
    from .corpus import find_entry

    entry = find_entry(path) if path != "-" else None
    meta = entry.meta if entry else None
    if meta is None and (getattr(args, "siglum", None) or getattr(args, "juan", None) or getattr(args, "role", None)):
        meta = WitnessMeta(siglum=args.siglum or derive_siglum(path), file=path, format=args.format or "")
    if meta is not None:
        if getattr(args, "siglum", None):
            meta.siglum = args.siglum
        if getattr(args, "juan", None):
            meta.juan = args.juan
        if getattr(args, "chapter", None):
            meta.chapter = args.chapter
        if getattr(args, "role", None):
            meta.role = args.role
    return meta


def summarize(w: Witness) -> str:
    counts = w.layer_counts()
    layers = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
    low = sum(1 for p in w.pieces() if p.cert == "low")
    s = (f"{counted(sum(1 for _ in w.passages()), 'passage')}; characters: {layers}; "
         f"{len(w.notes())} 案 notes; {counted(len(w.warnings), 'warning')}")
    if low:
        s += f"; {low} pieces of uncertain layer"
    return s


# ---------------------------------------------------------------- ingest
def cmd_ingest(args: argparse.Namespace) -> int:
    from .tei.writer import tei_bytes, witness_to_tei, write_tei

    bad = _bad_sigla(args, "siglum")
    if bad:
        return bad
    status = EXIT_OK
    out_dir = Path(args.output) if args.output != "-" else None
    for path in args.paths:
        try:
            if path == "-":
                data = sys.stdin.buffer.read()
                src_name = "<stdin>"
                meta = _meta_for(path, args) or WitnessMeta(siglum=args.siglum or derive_siglum(STDIN_STEM),
                                                            file=src_name, format="")
                w = _read_bytes(data, src_name, meta, args.format)
            else:
                w = read_witness(path, _meta_for(path, args), args.format)
            if args.siglum:
                w.meta.siglum = args.siglum
            if out_dir is None:
                _write_stdout(tei_bytes(witness_to_tei(w)))
                target = "<stdout>"
            else:
                target = str(write_tei(w, out_dir / f"{output_stem(path)}.xml"))
        except InputError as exc:  # one bad file: its one line, and the others are still read
            _err(str(exc))
            status = EXIT_USAGE
            continue
        except InvalidOutput as exc:
            _err(str(exc))
            status = max(status, EXIT_FAIL)
            continue
        except OutputError:
            raise  # a full disk or an unwritable folder: the next file would fail alike
        except Exception as exc:
            _err(internal_error(path, exc))
            status = EXIT_USAGE
            continue
        if not args.quiet:
            print(f"{path} [{w.meta.format}, siglum {w.meta.siglum}] -> {target}", file=sys.stderr)
            print(f"  {summarize(w)}", file=sys.stderr)
            shown = len(w.warnings) if args.verbose else args.show_warnings
            for warning in w.warnings[:shown]:
                print(f"  {warning}", file=sys.stderr)
            if len(w.warnings) > shown:
                print(f"  … {len(w.warnings) - shown} more warnings (--show-warnings N, or -v for all)", file=sys.stderr)
    return status


def _write_stdout(tei: bytes) -> None:
    """TEI to standard output, held to the same check as a file (nothing is printed if it fails)."""
    from .tei.validate import profile_check

    problems = profile_check(tei)
    if problems:
        raise InvalidOutput("<stdout>", f"not written: the output would be invalid: {problems[0]}")
    sys.stdout.buffer.write(tei)


def _bad_sigla(args: argparse.Namespace, *options: str) -> int:
    """Check the sigla given on the command line (they become xml:ids): EXIT_USAGE and one line if bad."""
    for opt in options:
        value = getattr(args, opt, None)
        problem = siglum_problem(value) if value is not None else None
        if problem:
            _err(f"--{opt.replace('_', '-')}: {problem}")
            return EXIT_USAGE
    return EXIT_OK


def _read_bytes(data: bytes, name: str, meta: WitnessMeta, fmt: str | None) -> Witness:
    from .readers import get_reader, sniff

    src = load_source(name, data)
    reader = get_reader(fmt) if fmt else sniff(src)
    if reader is None:
        raise InputError(name, "unknown format: no reader recognises this input (give --format)")
    meta.format = reader.name
    return reader.read(src, meta)


# ---------------------------------------------------------------- validate
def cmd_validate(args: argparse.Namespace) -> int:
    from .tei.validate import validate_files

    status = EXIT_OK
    present = []
    for f in args.files:
        if not Path(f).is_file():
            _err(f"{f}: no such file")
            status = EXIT_USAGE
        else:
            present.append(f)
    for f, rep in zip(present, validate_files(present, args.tei_all)):  # tei_all: one jing run for all files
        if rep.ok:
            if not args.quiet:
                print(f"{f}: valid" + (" (jiaokan profile + tei_all)" if args.tei_all else " (jiaokan profile)")
                      + (f" [tei_all: {rep.validator}]" if args.verbose and args.tei_all else ""))
        else:
            if status == EXIT_OK:
                status = EXIT_FAIL
            print(f"{f}: INVALID")
            for e in rep.errors:
                print(f"  {e}")
    return status


# ---------------------------------------------------------------- text
def cmd_text(args: argparse.Namespace) -> int:
    # a witness TEI file or a raw witness file, as collate, diff and emend take them (a raw Kanripo file was "not
    # well-formed XML"); TEI from elsewhere: say what could not be placed in a layer (it is kept, not dropped)
    w = _load_any(args.file)
    for warning in [] if args.quiet else w.warnings[:5]:
        print(f"jiaokan: {warning}", file=sys.stderr)
    if len(w.warnings) > 5 and not args.quiet:
        print(f"jiaokan: … {len(w.warnings) - 5} more warnings", file=sys.stderr)
    out = sys.stdout
    for u in w.units():
        if args.layer == "all":
            parts = []
            for p in u.pieces:
                parts.append(p.text)
                parts.extend(n.text for n in p.notes())
            line = "".join(parts)
        elif args.layer == "an":
            line = "".join(n.text for p in u.pieces for n in p.notes())
        else:
            line = "".join(p.text for p in u.pieces if p.layer == args.layer)
        line = line.strip()
        if line:
            out.write(f"{u.id}\t{line}\n" if args.ids else line + "\n")
    return EXIT_OK


# ---------------------------------------------------------------- collate / diff
def _load_any(path: str) -> Witness:
    """A witness TEI file, or a raw witness file in any readable format."""
    from .tei.reader import read_tei

    if path.endswith(".xml"):
        return read_tei(path)
    return read_witness(path, _meta_for(path, argparse.Namespace()))


def _load_witnesses(path: str) -> list[Witness]:
    """The witnesses of one collate input: CollateX JSON input (.json) holds several, other files one."""
    if path.endswith(".json"):
        from .collate.collatex import read_collatex_json

        return read_collatex_json(path)
    return [_load_any(path)]


def _split(value: str | None) -> list[str]:
    return [x.strip() for x in value.split(",") if x.strip()] if value else []


def _variant_types(types: list[str]) -> list[str]:
    """``types`` (of --ignore, --only), each a variant type, or an error naming the ones that are not.

    Why an error: a misspelled type matches no variant, so ``diff --only substantve`` said "0 differences"
    (exit 0) of two witnesses that differ; a question asked wrongly must not be answered."""
    from .collate.engine import CollationError
    from .collate.model import VARIANT_TYPES

    bad = [t for t in types if t not in VARIANT_TYPES]
    if bad:
        raise CollationError(f"unknown variant type(s) {', '.join(bad)}: choose from {', '.join(VARIANT_TYPES)}")
    return types


def _run_collation(paths: list[str], base: str | None, layers: list[str], ignore: list[str],
                   out: str | None = None, distinct: bool = False, quiet: bool = False):
    """Load the witnesses, check their inferred 注/经 boundaries and collate them; returns the collation, siglum →
    TEI file pointer, and what the boundaries' check did (:func:`jiaokan.collate.relayer.relayer_witnesses`).

    A TEI input is pointed at relative to the folder of ``out`` (the apparatus file; the
    working folder for standard output), so ``@corresp`` resolves from where the file is.  ``distinct`` (diff): one
    witness a side (an alignment table of several is refused), and a siglum taken twice renamed.
    """
    from .api import collate
    from .collate.relayer import relayer_witnesses

    _variant_types(ignore)
    sides = [(p, _load_witnesses(p)) for p in paths]
    if distinct:  # (diff): one witness a side; a table of several was diffed whole, as if asked
        for p, ws in sides:
            if len(ws) != 1:
                raise CollationError(f"diff compares two witnesses, one a side, and {p} holds {len(ws)} "
                                     f"({', '.join(w.meta.siglum for w in ws)}): `jiaokan collate {p}` collates them", p)
    loaded = [(p, w) for p, ws in sides for w in ws]
    witnesses = [w for _, w in loaded]
    if distinct:
        _distinct_sigla(witnesses, quiet)
    if not quiet:
        _warn_other_pian(witnesses)
    relayered = relayer_witnesses(witnesses)  # here, to report them (collate() is told not to ask again)
    start = os.path.dirname(os.path.abspath(out)) if out and out != "-" else os.getcwd()
    names = {w.meta.siglum: (Path(os.path.relpath(os.path.abspath(p), start)).as_posix() if p.endswith(".xml")
                             else Path(p).name if p.endswith(".json") else Path(p).stem + ".xml")
             for p, w in loaded}
    return collate(witnesses, base=base, layers=layers or None, ignore=ignore, check_boundaries=False), names, relayered


def _warn_other_pian(witnesses: list[Witness]) -> None:
    """A line when the witnesses say they hold different 篇 (鄉射禮 beside 燕禮): they are collated all the same (an
    excerpt may be named otherwise), but an apparatus of two 篇 is mostly additions and omissions, with exit 0 (a
    user's trial).  Names are compared across scripts (乡射礼 is 鄉射禮); a witness that names none says nothing."""
    from .normalize.script import t2s_char

    named: dict[str, list[str]] = {}
    for w in witnesses:
        if w.meta.chapter:
            named.setdefault("".join(map(t2s_char, w.meta.chapter)), []).append(f"{w.meta.chapter} ({w.meta.siglum})")
    if len(named) > 1:
        print(f"jiaokan: warning: the witnesses name different 篇: {'; '.join(', '.join(v) for v in named.values())}",
              file=sys.stderr)


def _distinct_sigla(witnesses: list[Witness], quiet: bool = False) -> None:
    """A witness whose siglum an earlier one has is called ``SIGLUM2`` (``3`` …) here, with a line saying so.

    Why (``diff`` only): two builds of one witness, or a file and its copy, have one siglum, and comparing them is
    what ``diff`` is for; it refused ("two witnesses have the siglum ZS") where diff(1) says 0.  ``collate`` keeps
    refusing: an apparatus names its witnesses, and a made-up siglum there would outlive the command."""
    taken = {w.meta.siglum for w in witnesses}
    seen: set[str] = set()
    for w in witnesses:
        s = w.meta.siglum
        if s in seen:
            k = 2
            while f"{s}{k}" in taken:
                k += 1
            w.meta.siglum = f"{s}{k}"
            taken.add(w.meta.siglum)
            if not quiet:
                print(f"jiaokan: both witnesses are {s}: the second ({w.meta.file}) is called {w.meta.siglum} here",
                      file=sys.stderr)
        seen.add(w.meta.siglum)


def cmd_collate(args: argparse.Namespace) -> int:
    from .collate.apparatus import collation_to_tei, write_apparatus
    from .collate.export import write_json
    from .collate.viewers import viewer_tree, write_viewer
    from .tei.writer import tei_bytes

    if args.output == "-" and args.json == "-":
        _err("-o - and --json -: standard output takes one of them (give the other a file name)")
        return EXIT_USAGE
    col, names, relayered = _run_collation(args.files, args.base, _split(args.layers), _split(args.ignore), args.output,
                                           quiet=args.quiet)
    if args.output == "-":  # standard output, as ingest's -o - (a file named "-" was written)
        tree = collation_to_tei(col, names, witness_script="own" if args.viewer else args.witness_script)
        _write_stdout(tei_bytes(viewer_tree(tree, args.viewer) if args.viewer else tree))
    elif args.output and args.viewer:
        write_viewer(col, args.output, args.viewer, names)
    elif args.output:
        write_apparatus(col, args.output, names, witness_script=args.witness_script)
    if args.json == "-":
        from .collate.export import collation_to_json
        from .io import json_bytes

        sys.stdout.buffer.write(json_bytes(collation_to_json(col, args.json_layout)) + b"\n")
    elif args.json:
        write_json(col, args.json, args.json_layout)
    if args.quiet:
        if not args.output and not args.json:
            sys.stdout.buffer.write(tei_bytes(collation_to_tei(col, names, witness_script=args.witness_script)))
        return EXIT_OK
    counts = col.counts()
    for rep in relayered:  # what the build says too: the reader's inferred boundaries, checked
        print(rep.summary(), file=sys.stderr)
    print(f"collated {', '.join(col.sigla)} (base {col.base}): {len(col.rows)} aligned passage rows, "
          f"{len(col.apps)} apparatus entries", file=sys.stderr)
    print("  " + ", ".join(f"{t} {n}" for t, n in counts.items()), file=sys.stderr)
    for line in _gap_summary(col):
        print("  " + line, file=sys.stderr)
    for target in (args.output, args.json):
        if target:
            print(f"  -> {'standard output' if target == '-' else target}", file=sys.stderr)
    if args.output and args.output != "-":  # a raw input's pointer names the TEI file ingest would write: is it there?
        folder = Path(args.output).parent
        missing = sorted({n for n in names.values() if n.endswith(".xml") and not (folder / n).is_file()})
        if missing:
            print(f"  the apparatus points to {', '.join(missing)}, not written yet: `jiaokan ingest FILE -o "
                  f"{folder.as_posix() or '.'}` writes each (render needs them)", file=sys.stderr)
    if not args.output and not args.json:
        tree = collation_to_tei(col, names, witness_script="own" if args.viewer else args.witness_script)
        _write_stdout(tei_bytes(viewer_tree(tree, args.viewer) if args.viewer else tree))
    return EXIT_OK


def _gap_summary(col) -> list[str]:
    """The summary's lines of what one witness has and another has not: a layer the other lacks in a passage both
    have, and text where the other has no passage at all (past its start or end, as an excerpt's; or missing).

    Why apart: a 卷 of the 集释 that ends mid-篇 beside the 注疏's whole 篇 was "jing only in ZS (3392 characters)",
    as if the 集释 had no 经 (a user's trial); a lacuna the witness marks (a lost page) is neither."""
    units = {r.id: r.units for r in col.rows}
    only: dict[tuple[str, str], int] = {}
    beyond: dict[str, dict[str, int]] = {}
    for g in col.gaps:
        if not g.absent or g.kind == "lacuna":
            continue
        none_there = g.kind == "edge" or any(not units.get(g.row, {}).get(a) for a in g.absent)
        for s, n in g.present.items():
            if none_there:
                beyond.setdefault(s, {})[g.layer] = beyond.get(s, {}).get(g.layer, 0) + n
            else:
                only[(g.layer, s)] = only.get((g.layer, s), 0) + n
    lines = []
    if only:
        lines.append("layers present in one witness only: "
                     + "; ".join(f"{layer} only in {s} ({n} characters)" for (layer, s), n in sorted(only.items())))
    if beyond:
        lines.append("text where another witness has no passage (past its start or end, or missing): " + "; ".join(
            f"{s} " + ", ".join(f"{layer} {n}" for layer, n in sorted(by.items())) + " characters"
            for s, by in sorted(beyond.items())))
    return lines


def cmd_diff(args: argparse.Namespace) -> int:
    import json as _json

    from .collate.export import collation_to_json, format_diff

    only = set(_variant_types(_split(args.only)))  # before the witnesses are read: a usage error is found at once
    col, _names, _relayered = _run_collation([args.a, args.b], None, _split(args.layer), [], distinct=True,
                                             quiet=args.quiet)
    if only:
        col.apps = [a for a in col.apps if any(r.type in only for r in a.differing().values())]
    # as diff(1): 1 when the witnesses differ.  A layer one witness lacks is a difference too,
    # unless --only narrows the question to some variant types (a layer gap is none of them).
    gaps = [] if only else _gap_summary(col)
    status = EXIT_FAIL if col.apps or gaps else EXIT_OK
    if args.quiet:
        return status
    if args.format == "json":
        data = collation_to_json(col)
        print(_json.dumps({"witnesses": data["witnesses"], "base": data["base"], "variants": data["variants"]},
                          ensure_ascii=False, indent=1))
        return status
    n = format_diff(col, colour_wanted(args.color, sys.stdout), sys.stdout)
    print(f"-- {n} differences ({', '.join(f'{t} {k}' for t, k in col.counts().items() if k)})")
    for line in gaps:
        print("-- " + line)
    return status


# ---------------------------------------------------------------- formats
def cmd_formats(args: argparse.Namespace) -> int:
    rows = [(name, r.role, r.description) for name, r in sorted(READERS.items())]
    print(table(("format", "role", "reads"), rows))
    return EXIT_OK


# ---------------------------------------------------------------- build
def cmd_build(args: argparse.Namespace) -> int:
    from .build import run_build
    from .outputs import JOURNAL

    corpus = Path(args.corpus)
    # --corpus DIR/corpus.toml names the same corpus as --corpus DIR (a missing one too: its error then names
    # DIR/corpus.toml once, not DIR/corpus.toml/corpus.toml)
    if corpus.is_file() or (corpus.name == "corpus.toml" and not corpus.exists()):
        if corpus.name != "corpus.toml":
            _err(f"{corpus}: --corpus takes the folder that holds corpus.toml, or that corpus.toml itself")
            return EXIT_USAGE
        corpus = corpus.parent
    if args.jobs is not None and args.jobs < 1:
        _err(f"--jobs {args.jobs}: give at least 1")
        return EXIT_USAGE
    import gc

    was = gc.isenabled()
    gc.disable()  # run_build pauses the collector (see collector_paused); here also while its summary prints
    shown, sys.stdout = sys.stdout, _Report(sys.stdout)
    try:
        return run_build(corpus, Path(args.out), quiet=args.quiet, verbose=args.verbose > 0, tei_all=args.tei_all,
                         jobs=args.jobs, site_tei=args.site_tei, emended_tei=args.emended_tei,
                         apparatus_json=args.apparatus_json)
    except KeyboardInterrupt:  # what a scholar finds in OUT then, and what to do (a bare "interrupted" said neither)
        sys.stdout = shown
        journal = Path(args.out) / JOURNAL
        _err(f"interrupted: the files written into {args.out} so far are whole, and {journal} lists them; build "
             "again to finish" if journal.is_file() else f"interrupted before anything was written into {args.out}")
        return 130
    finally:
        sys.stdout = shown
        if was:  # main() may run in a caller's process (tests, notebooks): give the collector back
            gc.enable()


class _Report:
    """``build``'s standard output, its tables: a reader that goes away (``jiaokan build | head``) ends the
    report, not the build.

    Why: the tables are a summary of what the build writes, not its output; a closed pipe raised
    ``BrokenPipeError`` at the first table, which ends a command whose output *is* standard output (``diff``,
    ``ingest -o -``) with status 0 as it should, but left a build with its witnesses read and nothing else
    written, status 0, no word.  Once the reader is gone, the rest of the report goes to the null device.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._gone()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._gone()

    def _gone(self) -> None:
        """Point the stream's file at the null device (what is still buffered is dropped there at the next flush,
        and so at exit)."""
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, self._stream.fileno())
        finally:
            os.close(null)

    def __getattr__(self, name: str) -> object:  # isatty, fileno, encoding …: the stream's
        return getattr(self._stream, name)


# ---------------------------------------------------------------- init
def cmd_init(args: argparse.Namespace) -> int:
    """Find witness files under PATH..., group them into witnesses, propose a manifest (see :mod:`jiaokan.book.init`)."""
    from .book.init import coverage, survey, write_manifest
    from .ui import table

    out = Path(args.output)
    if out.exists() and not args.force:  # a manifest is edited by hand: replacing it unasked lost the edits
        _err(f"{out}: exists (a manifest you may have edited): give --force to replace it, or -o another file")
        return EXIT_USAGE
    s = survey(args.paths)
    if not s.groups:
        _err(f"{', '.join(args.paths)}: no witness file found (no *.txt that a reader recognises)")
        return EXIT_USAGE
    write_manifest(s, out)
    if not args.quiet:
        print(table(("siglum", "role", "format", "text", "files"),
                    [(g.siglum, g.role, g.format, g.key, len(g.files)) for g in s.groups], numeric={4}))
        print()
        print(table(("篇", "witnesses (卷)"), coverage(s)))
        n = sum(len(g.files) for g in s.groups)
        print(f"\n{counted(n, 'file')} in {counted(len(s.groups), 'witness', 'witnesses')}, base {s.base} -> {out}")
    for path in s.unrecognised:  # a README the shell's * took in: not a witness, and not an error of one
        _warn(f"left out: {path}: no reader recognises this file (not a witness; `jiaokan formats` lists the formats)")
    for msg in s.skipped + s.unplaced():
        _err(f"not placed: {msg}")
    return EXIT_FAIL if s.skipped or s.unplaced() else EXIT_OK


# ---------------------------------------------------------------- render
def cmd_render(args: argparse.Namespace) -> int:
    from .render import render_paths
    from .render.verdicts import load_verdicts

    for f in args.inputs:
        if not Path(f).is_file():
            _err(f"{f}: no such file")
            return EXIT_USAGE
    verdicts = load_verdicts(args.verdicts) if args.verdicts else None
    rep = render_paths(args.inputs, args.output, verdicts=verdicts, title=args.title)
    name, size = rep.largest
    if not args.quiet:
        print(f"{len(rep.pages)} pages -> {Path(args.output) / 'index.html'} (largest: {name}, {size / 1024:.0f} KiB)",
              file=sys.stderr)
    return EXIT_OK


# ---------------------------------------------------------------- emend
def cmd_emend(args: argparse.Namespace) -> int:
    from .emend.apply import emend
    from .emend.report import summary_lines, write_csv, write_json
    from .emend.tei import write_emendations, write_emended

    bad = _bad_sigla(args, "siglum", "against_siglum")
    if bad:
        return bad
    dash = [f"--{o.replace('_', '-')}" if len(o) > 1 else f"-{o}" for o in ("json", "csv", "output", "against_output",
                                                                          "tei") if getattr(args, o) == "-"]
    if dash:  # (a file named "-" was written)
        _err(f"{dash[0]} -: emend writes its files by name; with none of them asked, the per-note verdicts go to "
             "standard output as JSON")
        return EXIT_USAGE
    w = _load_any(args.witness)
    if args.siglum:
        w.meta.siglum = args.siglum
    zs = _load_any(args.against) if args.against else None
    if zs is not None:
        if args.against_siglum:
            zs.meta.siglum = args.against_siglum
        elif zs.meta.siglum == w.meta.siglum:
            zs.meta.siglum = "ZS" if w.meta.siglum != "ZS" else "ZS2"
    if not w.notes():
        _err(f"{args.witness}: no 案 notes in this witness (WITNESS is the text that carries them, e.g. the 集释)")
        return EXIT_USAGE
    if zs is None and args.against_output:
        _err("--against-output needs --against")
        return EXIT_USAGE
    others = [_load_any(path) for path in args.also or []]
    taken = {w.meta.siglum} | ({zs.meta.siglum} if zs is not None else set())
    for path, o in zip(args.also or [], others):
        if o.meta.siglum in taken:
            _err(f"{path}: its siglum {o.meta.siglum} is taken by another witness: give the file a distinct siglum")
            return EXIT_USAGE
        taken.add(o.meta.siglum)
    # the 注疏's front matter beside its file, found as jiaokan.emend() and the build find it
    from .emend.inputs import front_matter_beside

    fm_path = front_matter_beside(args.against, zs.meta.siglum) if zs is not None else None
    front = _load_any(str(fm_path)) if fm_path is not None else None
    res = emend(w, zs, others=others, front=front)
    names = {w.meta.siglum: Path(args.witness).name if args.witness.endswith(".xml") else Path(args.witness).stem + ".xml"}
    if zs is not None:
        names[zs.meta.siglum] = (Path(args.against).name if args.against.endswith(".xml")
                                 else Path(args.against).stem + ".xml")
    written = []
    if args.json:
        written.append(write_json(res, args.json))
    if args.csv:
        written.append(write_csv(res, args.csv))
    if args.output:
        written.append(write_emended(w, res, args.output, names))
    if args.against_output and zs is not None:
        written.append(write_emended(zs, res, args.against_output, names))
    if args.tei:
        written.append(write_emendations(res, args.tei, names))
    if not args.quiet:
        for line in summary_lines(res, list_contradicted=not args.brief):
            print(line, file=sys.stderr)
        for p in written:
            print(f"  -> {p}", file=sys.stderr)
    if not written:  # nothing asked for: the per-note verdicts on standard output
        import json as _json

        from .emend.report import verdicts_json

        print(_json.dumps(verdicts_json(res), ensure_ascii=False, indent=1))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="jiaokan", description=MAIN_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"jiaokan {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_CommandParser)

    s = sub.add_parser("ingest", help="read witness files into layered TEI",
                       description="Read witness files (any format of `jiaokan formats`) and write one TEI file each.\n"
                       "The format is sniffed unless --format is given; metadata comes from a corpus.toml beside\n"
                       "the file when there is one.  PATH '-' reads standard input; -o - writes TEI to standard output.\n"
                       "Each PATH becomes DIR/<its file name without extension>.xml; standard input becomes DIR/stdin.xml.\n"
                       "A file that cannot be read gets a one-line error and the others are still written (exit 2).\n\n"
                       "example:  jiaokan ingest corpus/jishi-juan10-dasheyi-simplified.txt -o build/tei",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("paths", nargs="+", metavar="PATH")
    s.add_argument("-o", "--output", default="build/tei", metavar="DIR", help="output folder (default build/tei; '-' = stdout)")
    s.add_argument("--format", choices=sorted(READERS), help="the witness format (default: sniffed)")
    s.add_argument("--siglum", help="witness siglum for the apparatus (default: from corpus.toml, else made from the "
                   "file name); a letter, then ASCII letters, digits, '_' or '-'")
    s.add_argument("--juan", help="the 卷 number (for ids and page references)")
    s.add_argument("--chapter", help="the 篇 the file holds, e.g. 大射仪")
    s.add_argument("--role", choices=sorted(ROLES),
                   help="what the witness is, when its format does not say: "
                        + "; ".join(f"{k}: {v}" for k, v in ROLES.items()))
    s.add_argument("--show-warnings", type=int, default=5, metavar="N", help="print at most N warnings per file (default 5)")
    s.set_defaults(func=cmd_ingest)

    s = sub.add_parser("validate", help="check TEI files against the project profile (and tei_all)",
                       description="Exit 0 iff every file is valid against schemas/jiaokan.rng (and tei_all with --tei-all),\n"
                       "and every character of a witness sits in an element whose nearest @type is a layer.",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("files", nargs="+", metavar="FILE")
    s.add_argument("--tei-all", metavar="PATH",
                   help="also validate against the official tei_all.rng: with jing when it is on PATH (Debian package "
                   "jing, ~1.5 s), else with lxml (compiles the schema in ~15-20 s)")
    s.set_defaults(func=cmd_validate)

    s = sub.add_parser("text", help="print the plain text of one layer, one passage per line",
                       description="Print the text of one layer of a witness, one passage per line: a TEI file\n"
                       "(FILE.xml, as ingest writes it) or a witness file in any format `jiaokan formats` lists.\n"
                       "Layers: " + ", ".join(LAYERS) + ", or all.",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("file", metavar="FILE")
    s.add_argument("--layer", default="jing", choices=list(LAYERS) + ["all"], help="the layer (default jing)")
    s.add_argument("--ids", action="store_true", help="prefix each line with the passage id and a tab")
    s.set_defaults(func=cmd_text)

    s = sub.add_parser("collate", help="collate witnesses layer by layer into a TEI apparatus (and JSON)",
                       description="Align two or more witnesses (TEI files from `jiaokan ingest`, or raw witness files)\n"
                       "against a base, 经 with 经 and 注 with 注, character by character on normalized keys, and\n"
                       "write a TEI apparatus (parallel segmentation) and/or CollateX-style JSON.\n"
                       "Without -o or --json the apparatus goes to standard output.\n\n"
                       "CollateX input: a FILE.json in CollateX's JSON input format, {\"witnesses\": [{\"id\": \"A\",\n"
                       "\"content\": \"…\"} or {\"id\": \"B\", \"tokens\": [{\"t\": \"…\", \"n\": \"…\"}, …]}]}, adds each of its\n"
                       "witnesses.  Any id is taken: the siglum is an XML name made from it (\"Ms A\" -> Ms_A, \"1\" -> W1)\n"
                       "and the id stays the witness's label.  A CollateX witness has no layers: its whole text is one\n"
                       "passage of 经 (jing), collated with the 经 of the other witnesses.  The text is the tokens joined,\n"
                       "each token read as its n where it has one (CollateX matches on n), else as its t.\n"
                       "CollateX output: --json writes CollateX's alignment table, {\"witnesses\": [sigla], \"table\": …}\n"
                       "in CollateX-Python's layout (a row per witness, null for an empty cell) or, with --json-layout\n"
                       "java, CollateX Java's (a column per segment, [] for an empty cell, sigla sorted), plus jiaokan's\n"
                       "own keys (layout, base, variants, layer_gaps, rows, counts, pieces, lacunae) that such readers\n"
                       "ignore.  Such a table given back as a WITNESS is the witnesses it aligned: one jiaokan wrote\n"
                       "collates again into the same apparatus (its passages and lost pages are in it); one CollateX\n"
                       "wrote gives each witness's text as one passage of 经.\n\n"
                       "example:  jiaokan collate build/tei/jishi-juan10-dasheyi-simplified.xml \\\n"
                       "              build/tei/zhushu-dasheyi-excerpt.xml --base JS -o app.xml --json app.json",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("files", nargs="+", metavar="WITNESS", help="TEI (.xml), CollateX JSON input (.json) or a raw witness file")
    s.add_argument("--base", metavar="SIGLUM", help="the base text (default: the first witness)")
    s.add_argument("--layers", metavar="L,L", help="layers to collate (default all: jing,zhuan,zhu,shu,yinyi,shi,kaozheng,commentary)")
    s.add_argument("--ignore", metavar="T,T", help="variant types to leave out, e.g. orthographic,taboo")
    s.add_argument("-o", "--output", metavar="FILE.xml", help="write the TEI apparatus here ('-' = stdout)")
    s.add_argument("--json", metavar="FILE.json", help="write the JSON alignment table and variants here ('-' = "
                                                       "stdout)")
    s.add_argument("--json-layout", choices=("python", "java"), default="python",
                   help="the table layout of --json: python = CollateX-Python's (a row per witness, null for "
                        "an empty cell; the default), java = CollateX Java's (a column per segment, [] for an empty "
                        "cell, sigla sorted)")
    s.add_argument("--viewer", choices=("vm", "evt"),
                   help="write the apparatus for a viewer to open as is, each witness's panel in its own characters, "
                        "fragmentary witnesses marked with witStart/witEnd/lacunaStart/lacunaEnd: vm = the Versioning "
                        "Machine 5 (put the file, and the jiaokan-vm.xsl and .css written beside it, in its samples/ "
                        "folder), evt = EVT 2/3 (see the README)")
    s.add_argument("--witness-script", choices=("base", "own"), default="base",
                   help="base: text outside app in the base's script, script differences no entry (the default); "
                        "own: every witness reads back in its own characters and punctuation (an app type=script "
                        "where they differ only so; @xml:lang on readings in another script); --viewer implies own")
    s.set_defaults(func=cmd_collate)

    s = sub.add_parser("diff", help="show where two witnesses differ, passage by passage",
                       description="Collate A against B and print each difference with its context and the page and\n"
                       "line in both witnesses; colours by type on a terminal (not when NO_COLOR is set).\n"
                       "Script-only differences are not differences (see `jiaokan collate`).\n\n"
                       "exit status, as diff(1):  0 the witnesses do not differ (in the layers and types asked for),\n"
                       "  1 they differ (a variant, or a layer only one of them has), 2 trouble (bad input or usage).\n"
                       "  With -q nothing is printed: only the exit status answers.\n\n"
                       "example:  jiaokan diff build/tei/jishi-juan10-dasheyi-simplified.xml \\\n"
                       "              build/tei/zhushu-dasheyi-excerpt.xml --layer jing --only substantive",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("a", metavar="A")
    s.add_argument("b", metavar="B")
    s.add_argument("--layer", metavar="L,L", help="only these layers (default all)")
    s.add_argument("--only", metavar="T,T", help="only these variant types, e.g. substantive")
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="auto: colour on a terminal unless NO_COLOR is set (default); always overrides NO_COLOR")
    s.set_defaults(func=cmd_diff)

    s = sub.add_parser("formats", help="list the witness formats jiaokan reads",
                       description="List every witness format jiaokan reads, built in or from an installed plugin: its\n"
                       "name (for --format, and format = \"…\" in a corpus.toml), the role a file of it has when nothing\n"
                       "says otherwise, and what it reads.  A file's format is sniffed when none is given.",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.set_defaults(func=cmd_formats)

    s = sub.add_parser("build", help="ingest, collate, emend and render the whole corpus",
                       description="Run the pipeline over every witness in CORPUS/corpus.toml: OUT/tei/*.xml (witnesses),\n"
                       "OUT/apparatus/ (collations of the [[collation]] chapters), OUT/emend/ (案 notes checked and\n"
                       "applied), OUT/site/index.html (the HTML edition); a progress display and summary tables.\n\n"
                       "A witness of many files (`files = [...]` in the manifest, as `jiaokan init` writes it) is joined\n"
                       "per 篇: OUT/tei/pianNN-SIGLUM.xml, and each 篇 is collated across every witness that holds it\n"
                       "(OUT/apparatus/pianNN.xml).  Where a 注疏 and a 单疏本 both hold a 篇, their 疏 are collated too\n"
                       "(OUT/apparatus/pianNN-shu.xml; each 標起止's resolution in OUT/shu/), and the 篇's apparatus\n"
                       "points there for the 注疏's 疏.  張淳's 識誤 is checked against every witness (OUT/shiwu/).\n"
                       "OUT/gaiji-resolved.tsv lists the unknown gaiji read from the other witnesses, and\n"
                       "OUT/variants-proposed.tsv the recurring variant pairs to accept or reject in the manifest.\n"
                       "A file that cannot be read gets its one-line error and the rest still builds; the exit status\n"
                       "is then 2.\n\n"
                       "OUT/.jiaokan-build.json records the files a build wrote: the next build into OUT removes those it\n"
                       "does not write again (and no other file), and its summary says how many (-v: which).\n\n"
                       "What it compiled once (the 案 grammar's patterns, the site's templates) is kept for the next\n"
                       "build in $JIAOKAN_CACHE, else $XDG_CACHE_HOME/jiaokan, else ~/.cache/jiaokan; set it empty for\n"
                       "none.  JIAOKAN_TRACEBACK=1 shows a Python traceback instead of a one-line error (bug reports).\n\n"
                       "examples:  jiaokan build                                   # the shipped corpus/ -> build/\n"
                       "           jiaokan init KR1d0030 KR1d0028 KR1d0026 KR1d0027 KR1d0029 -o book/corpus.toml\n"
                       "           jiaokan build --corpus book/corpus.toml --out book/build -j 2",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("--corpus", default="corpus", metavar="DIR", help="folder with corpus.toml, or the corpus.toml itself "
                   "(default corpus)")
    s.add_argument("--out", default="build", metavar="DIR", help="output folder (default build)")
    s.add_argument("--tei-all", metavar="PATH", help="also validate every output against tei_all.rng")
    s.add_argument("-j", "--jobs", type=int, metavar="N",
                   help="work on N files or 篇 at once (reading, collating, rendering), in N processes: this one and "
                        "N - 1 forked (default: the machine's cores; 1: one at a time)")
    s.add_argument("--site-tei", action="store_true",
                   help="copy the TEI files into OUT/site/tei/, so the site stands alone (default: it links to OUT/tei/ "
                        "and OUT/apparatus/)")
    s.add_argument("--emended-tei", action="store_true",
                   help="also write each witness with its 案 emendations applied as TEI, OUT/emend/STEM.emended.xml "
                        "(default: the changes only, OUT/emend/STEM.apparatus.xml, pointing into OUT/tei/)")
    s.add_argument("--apparatus-json", action="store_true",
                   help="also write each apparatus as lean JSON, OUT/apparatus/NAME.json (jiaokan-lean-table: its rows, "
                        "variants and readings), for scripts that read JSON (default: the TEI apparatus only, "
                        "OUT/apparatus/NAME.xml, which holds the same)")
    s.set_defaults(func=cmd_build)
    s = sub.add_parser("init", help="find witness files, group them into witnesses and write a corpus.toml",
                       description="Look through PATH... (folders such as Kanripo clones, or files) for witness files,\n"
                       "group them into witnesses (one per text and edition), find the 篇 of every file, propose\n"
                       "sigla and a base, and write a manifest to edit and build.  Exit 1 if a file could not be placed;\n"
                       "an existing FILE is not replaced (exit 2) unless --force is given.",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("paths", nargs="+", metavar="PATH", help="folders or files")
    s.add_argument("-o", "--output", default="corpus.toml", metavar="FILE", help="the manifest to write (default corpus.toml)")
    s.add_argument("--force", action="store_true", help="replace FILE if it exists (its edits are lost)")
    s.set_defaults(func=cmd_init)
    s = sub.add_parser("emend", help="anchor, apply and check the 案 notes of a witness (against the 注疏)",
                       description="Parse every 四库 案 note of WITNESS (the 集释), find the characters it bears on,\n"
                       "apply it (conjectures emend WITNESS; claims about 今注疏本 emend the 注疏 where confirmed),\n"
                       "and check every claim about the 注疏 against ZHUSHU after aligning the two witnesses:\n"
                       "confirmed, contradicted (with what the 注疏 reads), uncertain (the 注疏 reaches the place but\n"
                       "does not prove the claim either way; the reason is given) or not covered (it does not reach\n"
                       "the place).  A summary of counts\n"
                       "per kind and per verdict goes to stderr; without any output option the verdicts per note\n"
                       "are printed as JSON on stdout.  Files may be TEI (from `jiaokan ingest`) or raw witnesses.\n"
                       "Claims about a 宋本 are checked against a --with witness of role songben, claims about the\n"
                       "释文 against the 注疏's 音义; every verdict carries its evidence (the readings of every witness).\n\n"
                       "example:  jiaokan emend build/tei/jishi-juan10-dasheyi-simplified.xml \\\n"
                       "              --against build/tei/zhushu-dasheyi-excerpt.xml --json em.json --csv em.csv -o js-emended.xml",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("witness", metavar="WITNESS", help="the witness with the 案 notes (TEI or raw)")
    s.add_argument("--against", metavar="ZHUSHU", help="the 注疏 witness to check the claims against (TEI or raw)")
    s.add_argument("--with", dest="also", action="append", metavar="WITNESS2",
                   help="a further witness of the same 篇 (TEI or raw; repeatable): collated at every claim's place, "
                   "and by its role evidence for the notes' claims (role songben, e.g. the 四部丛刊: claims about a 宋本)")
    s.add_argument("--json", metavar="FILE.json", help="write the full report (every claim, anchor, check, emendation, "
                   "and the evidence of every verdict)")
    s.add_argument("--csv", metavar="FILE.csv", help="write one row per claim, with its evidence (readings as SIG=text; SIG=text)")
    s.add_argument("-o", "--output", metavar="EMENDED.xml", help="write WITNESS as TEI with its emendations in place")
    s.add_argument("--against-output", metavar="FILE.xml", help="write the 注疏 as TEI with the confirmed corrections in place")
    s.add_argument("--tei", metavar="FILE.xml", help="write the emendation apparatus (one app per claim, with verdicts)")
    s.add_argument("--siglum", help="siglum of WITNESS (default: from the file)")
    s.add_argument("--against-siglum", metavar="SIGLUM", help="siglum of the 注疏 (default: from the file; ZS if it clashes)")
    s.add_argument("--brief", action="store_true", help="do not list the contradicted claims in the summary")
    s.set_defaults(func=cmd_emend)
    s = sub.add_parser("render", help="write the parallel-text HTML edition of witness and apparatus TEI files",
                       description="Write a static HTML edition into DIR: index.html, and per chapter a parallel page\n"
                       "(NAME.html: a column per witness, aligned passage by passage, variants highlighted) that is\n"
                       "also its reading views: the base text with its 校勘記 (NAME.html?read=BASE), any witness as the\n"
                       "reading text (?read=SIGLUM), and the base emended by its 案 notes (?read=BASE&v=emended); a\n"
                       "witness in no apparatus has a reading page of its own (NAME-base.html).  An apparatus TEI file\n"
                       "(from `jiaokan collate`) is re-collated from the witness TEI files it lists, found among\n"
                       "the inputs (by name, else the one of the same siglum), beside it or in ../tei/ (a JSON\n"
                       "file `collate` was given: its witnesses); a witness TEI file no apparatus uses gets a page of\n"
                       "its own.  A 疏 collation (NAME-shu.xml: a 注疏 and a 单疏本) is re-collated as the build\n"
                       "made it; given with its 篇's apparatus (NAME.xml), the 经注 page links each 注疏 疏 to the\n"
                       "row of the 疏 page that shows it, as the build's site does.\n"
                       "The TEI files the pages are made from (the inputs, and the witness files an apparatus\n"
                       "lists) are copied into DIR/tei/, which each page links to: DIR stands alone and needs no\n"
                       "network; open DIR/index.html from disk.\n\n"
                       "example:  jiaokan render build/apparatus/dasheyi.xml build/tei/*.xml -o build/site",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("inputs", nargs="+", metavar="INPUT", help="witness TEI and apparatus TEI files")
    s.add_argument("-o", "--output", default="build/site", metavar="DIR", help="output folder (default build/site)")
    s.add_argument("--verdicts", action="append", metavar="FILE.json",
                   help="案 verdicts: {note id: {kind, verdict, summary, reading}} or a `jiaokan emend --json` report "
                   "(repeatable)")
    s.add_argument("--title", help="the edition's title on the index page")
    s.set_defaults(func=cmd_render)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.func(args))
    except BrokenPipeError:
        return EXIT_OK
    except JiaokanError as exc:  # every error a user must be told about: one line (file, line, what was expected)
        _err(str(exc))
        return exc.exit_status
    except OSError as exc:  # an output path that is a file, a read-only directory, a full disk …
        where = f"{exc.filename}: " if exc.filename is not None else ""  # "jiaokan: error: " says the rest
        if isinstance(exc, (NotADirectoryError, FileExistsError)):
            _err(f"{where}a file is in the way where a directory is needed (choose another output path)")
        else:
            _err(f"{where}{exc.strerror or exc}")
        # (diff answers as diff(1) does: 1 is "they differ", so its trouble is 2: `diff A A > /dev/full` said 1)
        return EXIT_USAGE if args.func is cmd_diff else EXIT_FAIL
    except KeyboardInterrupt:
        _err("interrupted")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
