"""``jiaokan build``: the whole pipeline over the corpus manifest.

Stages run in order and each adds to the summary:
  1. ingest every witness → OUT/tei/<file stem>.xml (validated against the profile)
  2. collate the witnesses that share a chapter → OUT/apparatus/<name>.xml (and the same apparatus
     as lean JSON, <name>.json, only when asked, ``apparatus_json``)
  3. anchor, apply and check the 案 notes → OUT/emend/ (verdicts feed the HTML; the emended
     witnesses whole as TEI only when asked, ``emended_tei``)
  4. render the HTML edition → OUT/site/index.html
  5. remove what an earlier build wrote into OUT and this one did not (:mod:`jiaokan.outputs`)
"""

from __future__ import annotations

from collections import Counter
from itertools import chain
from operator import attrgetter
from contextlib import AbstractContextManager, contextmanager
import os
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, TypeVar

from .collector import collector_paused
from .errors import InputError, CollationError, EmendationError
from .collate.gaiji import Seq, resolve as resolve_gaiji_from_witnesses, sequence as gaiji_sequence
from .collate.gaiji import write_report as write_gaiji_report
from .collate.learned import Pairs, count_pairs, learn_forms, load_decisions, merge_pairs, write_proposals
from .normalize.learned import set_accepted, set_rejected
from .book.assemble import FilePart, assemble, qualify_pages
from .book.pian import FRONT, canonical, slug
from .corpus import Entry, load_collations, load_manifest, witness_defaults
from .io import InvalidOutput, OutputError
from .model import _READING, Note, Witness, strip_space
from .outputs import Recorder, recording
from .parallel import fork_map
from .readers import read_witness
from .tei.validate import validate_file, validate_files
from .tei.writer import write_tei
from .ui import Progress, counted, internal_error, table

if TYPE_CHECKING:  # the emend modules are imported where they are used (their grammar compiles in ~1 s); the
    # collation's while the files are read (_import_for_collating)
    from .collate.elsewhere import LayerElsewhere
    from .collate.model import Collation
    from .emend.apply import EmendResult
    from .emend.verdict import NoteVerdict

T = TypeVar("T")


@dataclass
class BuildResult:
    entries: list[Entry]
    witnesses: dict[str, Witness] = field(default_factory=dict)  # by file stem
    tei_paths: dict[str, Path] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    collations: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    verdicts: dict[str, NoteVerdict] = field(default_factory=dict)  # 案 note id → its verdict record
    #: what is collated: one-file witnesses as read, and one entry per 篇 of every ``files`` witness
    units: list[Entry] = field(default_factory=list)
    #: the files of each ``files`` witness (its [[witness]] number), read, in 卷 order
    parts: dict[int, list[tuple[Entry, Witness]]] = field(default_factory=dict)
    #: 篇 → files placed in it (for the summary), and files that could not be placed
    placed: dict[str, list[str]] = field(default_factory=dict)
    #: files that could not be read (their errors are in ``errors``), for the closing summary
    failed: list[str] = field(default_factory=list)
    #: 案 results a ``--jobs`` worker made along with its 篇's collation (stem → result)
    emended: dict[str, _Emended] = field(default_factory=dict)
    #: one row per 疏 collation (the 注疏 against the 单疏本): what :func:`write_shu_reports` measured
    shu: list[tuple] = field(default_factory=list)
    #: also write each emended witness whole as TEI (``emend/STEM.emended.xml``; ``--emended-tei``)
    emended_tei: bool = False
    #: also write each apparatus as lean JSON (``apparatus/NAME.json``; ``--apparatus-json``): it says nothing the
    #: TEI apparatus does not (both rebuild every witness), and nothing in the build or the site reads it
    apparatus_json: bool = False
    #: joined witnesses whose TEI is not written yet (``join_stage(write=False)``: after relayering)
    unwritten: list[str] = field(default_factory=list)
    #: id(witness read) → its sequence for the gaiji stage, made as it was read (:func:`_read_one`); the
    #: gaiji stage takes and drops them
    gaiji_seqs: dict[int, Seq] = field(default_factory=dict)
    #: how many of ``notes`` the summary has printed (:func:`_print_notes`)
    notes_shown: int = 0
    #: stem → characters of the witness (all layers), as the stages that share out work weigh it (:func:`_size_of`)
    sizes: dict[str, int] = field(default_factory=dict)
    #: stems of the witnesses with 案 notes, in the order of ``witnesses``, once they are final (:func:`_noted`)
    noted: list[str] | None = None
    #: stem → whether the witness has 案 notes, found where it was relayered (:func:`_relayer_group`), for :func:`_noted`
    has_notes: dict[str, bool] = field(default_factory=dict)
    #: collation name → its recurring variant pairs, counted where it was made (:func:`jiaokan.collate.learned.count_pairs`),
    #: until the build merges them
    pairs: dict[str, Pairs] = field(default_factory=dict)


def ingest_stage(res: BuildResult, out: Path, progress: Progress, tei_all: str | None, jobs: int = 1,
                 meanwhile: Callable[[], None] | None = None) -> list[tuple]:
    """Read every file of the manifest (a one-file witness is written as TEI at once); with ``jobs``
    > 1 several files at once in forked workers (:func:`jiaokan.parallel.fork_map`): the files are
    independent, and a witness comes back pickled in a tenth of the time its reading took.
    ``meanwhile``: work of the build's own for this process while the workers read
    (:func:`jiaokan.parallel.fork_map`; :func:`_import_for_collating`)."""
    size = {i: _size(e.path) for i, e in enumerate(res.entries)}
    order = sorted(size, key=lambda i: -size[i])  # the largest first: no worker is left with one at the end
    done = dict(zip(order, fork_map(_read_one, out, [res.entries[i] for i in order], jobs, meanwhile=meanwhile)))
    rows = []
    for i, e in enumerate(res.entries):
        r = done[i]
        if r.output_error is not None:
            raise r.output_error  # a full disk or an unwritable folder: no later file would fare better
        if r.errors or r.witness is None:
            res.errors.extend(r.errors)
            res.failed.append(e.meta.file or str(e.path))
            progress.step(f"{e.meta.siglum} {e.path.name}: error")
            continue
        w = r.witness
        if r.seq is not None:
            res.gaiji_seqs[id(w)] = r.seq
        if e.group is not None:  # one file of a witness: joined per 篇 (join_stage), then written
            res.parts.setdefault(e.group, []).append((e, w))
            rows.append(_ingest_row(w, e.meta.file, "(per 篇)", r))
            progress.step(f"{e.meta.siglum} {e.path.name}")
            continue
        assert r.path is not None
        ok = _keep(res, e, w, r.path, tei_all)
        rows.append(_ingest_row(w, e.path.name, "ok" if ok else "INVALID", r))
        progress.step(f"{e.meta.siglum} {e.path.name}")
    return rows


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # read_witness gives the error


def relayer_stage(res: BuildResult, specs: list, tei_all: str | None, jobs: int = 1,
                  meanwhile: Callable[[], None] | None = None) -> None:
    """Check every inferred boundary of a commentary with the 经 after it against a witness of the
    same 篇 whose layers are explicit there (:mod:`jiaokan.collate.relayer`), before the collation
    that reads 经 against 经; then write the TEI of every witness relayered or joined and not yet
    written (:func:`join_stage` with ``write=False``), so each is written once, as relayered.

    Inferred: by a reader that says so (``Reader.infers_boundaries``: the 注疏's 注/经, the 四部丛刊's
    传/经).  Explicit: the first of the 四部丛刊 (注 in double columns), the 注疏 (○ before every 经
    passage) and the 集释 that is not the witness itself; a boundary it leaves undecided (its page is
    missing there) is asked of the next one.

    Why in groups, ``jobs`` at a time: the witnesses of one 篇 are checked in the manifest's order, and
    a witness relayered may be the reference of the next (the 四部丛刊 against the 注疏 already
    relayered), so a 篇's witnesses are one step; 篇 that share no witness are independent, and a
    worker sends back only the witnesses it changed (pickled, a fraction of what relayering them
    cost).  Where 篇 share witnesses (whole-file witnesses listed in several collations) it is one
    step, in order, as it always was.

    ``meanwhile``: work of the build's own for this process while the workers relayer
    (:func:`jiaokan.parallel.fork_map`; :func:`_before_collating`).
    """
    groups = _relayer_groups(res, specs)
    size = [sum(_pieces_of(res.witnesses[s]) for s in {*g.write, *(t for t, _, _ in g.todo)}) for g in groups]
    order = sorted(range(len(groups)), key=lambda i: -size[i])
    done = dict(zip(order, fork_map(_relayer_group, res, [groups[i] for i in order], jobs, meanwhile=meanwhile)))
    refused: set[str] = set()
    for i in range(len(groups)):  # in the manifest's order: notes and errors as one process would have them
        r = done[i]
        if r.output_error is not None:
            raise r.output_error
        res.notes.extend(r.notes)
        res.errors.extend(r.errors)
        res.witnesses.update(r.witnesses)  # from a worker: the relayered witnesses, pickled back
        res.sizes.update(r.sizes)
        res.has_notes.update(r.has_notes)
        refused.update(r.refused)
        for stem, path in r.written.items():
            res.errors.extend(f"{path}: {err}" for err in _checked(path, tei_all))
    unwritten = set(res.unwritten)
    res.unwritten = []
    failed = refused & unwritten  # a joined 篇 whose TEI is refused is not collated
    for stem in failed:
        del res.witnesses[stem], res.tei_paths[stem]
    res.units = [e for e in res.units if e.stem not in failed]


def _print_notes(res: BuildResult) -> None:
    """The notes the stages have added since the last call: the summary says what each stage found
    where that stage's tables are, in the order of the pipeline (the relayer's lines once printed after the HTML's)."""
    if len(res.notes) > res.notes_shown:
        print()
    for line in res.notes[res.notes_shown:]:
        print(line)
    res.notes_shown = len(res.notes)


@dataclass
class _Outcome:
    """What one step of a stage gives back (from this process or a worker): errors are returned, never
    raised, so one 篇's fault does not stop the others; a refused write travels back whole."""

    errors: list[str] = field(default_factory=list)
    output_error: OutputError | None = None

    def guard(self, where: str, expected: tuple[type[Exception], ...], step: Callable[[], T]) -> T | None:
        """``step()``, or None with the error recorded: an expected one as its line, a refused write
        whole (the build stops on it), anything else as one line of internal error."""
        try:
            return step()
        except expected as exc:
            self.errors.append(f"{where}: {exc}")
        except OutputError as exc:
            self.output_error = exc
        except Exception as exc:
            self.errors.append(internal_error(where, exc))
        return None


@dataclass(frozen=True)
class _RelayerGroup:
    """Witnesses relayered in order, each against its references (``(stem, refs, layers)``), and the
    TEI then written (``write``: joined and unwritten, or relayered)."""

    todo: tuple[tuple[str, tuple[str, ...], frozenset[str]], ...]
    write: tuple[str, ...]


@dataclass
class _Relayered(_Outcome):
    """What a group of :func:`relayer_stage` gives back."""

    notes: list[str] = field(default_factory=list)
    witnesses: dict[str, Witness] = field(default_factory=dict)  # the relayered ones
    written: dict[str, Path] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)  # stems whose TEI was refused (the error is in errors)
    #: stem → characters of each witness of the group, relayered, for the collation's weights (:func:`_size_of`)
    sizes: dict[str, int] = field(default_factory=dict)
    #: stem → whether each witness of the group has 案 notes, as relayered (:func:`_noted`)
    has_notes: dict[str, bool] = field(default_factory=dict)


def _size_of(res: BuildResult, stem: str) -> int:
    """The characters of a witness (every layer), to weigh the steps of a stage: asked once per witness.

    Why once: counting walks the witness's text (a twentieth of a second over the book, alone in this process
    before each stage's workers start), and relayering, which comes between the stages that ask, moves
    characters from one layer to another (over the book two witnesses gained one character), which
    changes no weight that matters; the outputs do not depend on the order of the steps anyway.  Most are
    counted in the relayering's steps (:func:`_relayer_group`, every witness it writes or relayers), in its
    workers with ``--jobs``: this process counts only those no group had.
    """
    n = res.sizes.get(stem)
    if n is None:
        n = res.sizes[stem] = _characters(res.witnesses[stem])
    return n


def _characters(w: Witness) -> int:
    """The characters of a witness, every layer (:meth:`Witness.layer_counts`)."""
    return _size_and_notes(w)[0]


def _size_and_notes(w: Witness) -> tuple[int, bool]:
    """The characters of a witness, every layer, and whether it has 案 notes: one walk for both.

    The sum of :meth:`Witness.layer_counts` (white space is stripped per character, so the layers'
    counts add up to the count of their texts joined: no text per layer, no dict), and
    :func:`_has_notes`: the nodes of all pieces are chained and read in C (their readings joined at once,
    ``Note in map(type, ...)`` asked once), and only a witness that has notes is walked again for their
    texts (counted as ``layer_counts`` counts them: a piece's own notes, whole).  Why: the relayer stage
    counted each witness it wrote and then walked it again for notes, a twentieth of the stage.
    """
    nodes = list(chain.from_iterable(map(_CONTENT, w.pieces())))
    n = len(strip_space("".join(map(_READING, nodes))))
    noted = Note in map(type, nodes)
    if noted:
        n += len(strip_space("".join([node.text for node in nodes if isinstance(node, Note)])))
    return n, noted


_CONTENT = attrgetter("content")


def _pieces_of(w: Witness) -> int:
    """The pieces of a witness, how :func:`relayer_stage` weighs its groups: a count of lists, not a walk of the
    text (:func:`_size_of`, a thirtieth of a second over the book, alone in this process before the workers
    start); the characters are counted in the groups' steps instead, as relayered, for the collation."""
    return sum(len(u.pieces) for d in w.divs for u in d.units)


def _noted(res: BuildResult) -> list[str]:
    """The stems of the witnesses that have 案 notes, in the order of ``res.witnesses``: found once, when
    the collation asks (the witnesses are final then: relayered, and those refused dropped), not again
    by each stage after it (a walk of every witness each time).

    Asked of each piece in C (``Note in map(type, ...)``: a note is a node of a piece's content, as
    :meth:`Witness.notes` finds them, and no class derives from ``Note``), and no further than the first
    note: most of the book's text is in witnesses that have none, walked to their end.  Asked where each
    witness was relayered (:func:`_relayer_group`, in its workers with ``--jobs``: a hundredth of a second
    alone in this process before the collation's workers start), here only of those no group had.
    """
    if res.noted is None:
        known = res.has_notes
        res.noted = [s for s, w in res.witnesses.items() if (known[s] if s in known else _has_notes(w))]
    return res.noted


def _has_notes(w: Witness) -> bool:
    return any(Note in map(type, p.content) for p in w.pieces())


def _relayer_groups(res: BuildResult, specs: list) -> list[_RelayerGroup]:
    """What :func:`relayer_stage` does, one group per 篇 (or one group, if 篇 share witnesses)."""
    from .collate.relayer import REFERENCE_ROLES, inferred_boundaries
    from .readers import READERS

    done: set[str] = set()
    plans: list[tuple[list[tuple[str, tuple[str, ...], frozenset[str]]], set[str]]] = []
    for spec in specs:
        stems = [e.stem for e in spec.entries if e.stem in res.witnesses]
        by_role: dict[str, str] = {}
        for s in stems:
            by_role.setdefault(res.witnesses[s].meta.role or "", s)
        todo = []
        for stem in stems:
            w = res.witnesses[stem]
            reader = READERS.get(w.meta.format)
            layers = reader.infers_boundaries if reader is not None else frozenset()
            refs = tuple(by_role[r] for r in REFERENCE_ROLES if by_role.get(r, stem) != stem)
            if not refs or stem in done or not layers or not inferred_boundaries(w, layers):
                continue
            done.add(stem)
            todo.append((stem, refs, frozenset(layers)))
        if todo:
            plans.append((todo, {s for t, refs, _ in todo for s in (t, *refs)}))
    touched = [s for _, stems in plans for s in stems]
    if len(touched) != len(set(touched)):  # 篇 share witnesses: one step, in the manifest's order
        plans = [([t for todo, _ in plans for t in todo], set(touched))]
    writes = list(res.unwritten)
    groups = [_RelayerGroup(tuple(todo), tuple(s for s in writes if s in stems)
                            + tuple(t for t, _, _ in todo if t not in res.unwritten)) for todo, stems in plans]
    in_group = {s for g in groups for s in g.write}
    return groups + [_RelayerGroup((), (s,)) for s in writes if s not in in_group]


def _relayer_group(res: BuildResult, g: _RelayerGroup) -> _Relayered:
    """Relayer one group's witnesses in order, then write their TEI (errors returned, never raised)."""
    from .collate.relayer import relayer_in_turn

    r = _Relayered()
    for stem, refs, layers in g.todo:
        w = res.witnesses[stem]

        def step(w: Witness = w, refs: tuple[str, ...] = refs, layers: frozenset[str] = layers) -> None:
            for rep in relayer_in_turn(w, [res.witnesses[ref] for ref in refs], layers,
                                       sources=[res.tei_paths[ref].name for ref in refs]):
                r.notes.append(rep.summary())

        r.guard(f"relayering {stem}", (), step)
        r.witnesses[stem] = w
    for stem in g.write:
        path = res.tei_paths[stem]
        try:
            r.written[stem] = write_tei(res.witnesses[stem], path)
        except InvalidOutput as exc:  # this file's error; any other refused write stops the build
            r.errors.append(str(exc))
            r.refused.append(stem)
        except OutputError as exc:
            r.output_error = exc
            break
    for stem in {*g.write, *(t for t, _, _ in g.todo)}:
        r.sizes[stem], r.has_notes[stem] = _size_and_notes(res.witnesses[stem])
    return r


@dataclass
class _Read(_Outcome):
    """One file read (and, for a one-file witness, its TEI written)."""

    witness: Witness | None = None
    path: Path | None = None
    seconds: float = 0.0
    #: the witness as the gaiji stage searches it (:func:`jiaokan.collate.gaiji.sequence`), made here
    seq: Seq | None = None
    #: what the ingest table says of the witness (:func:`_ingest_counts`), counted here
    counts: tuple = ()


def _read_one(out: Path, e: Entry) -> _Read:
    """Read one file of the manifest; a one-file witness's TEI is written too.  Errors are returned."""
    t0 = time.perf_counter()
    r = _Read()
    if e.listed and not e.path.exists():  # the manifest line that names it: where a scholar mends the mistake
        r.errors.append(f"{e.path}: no such file (named at {e.listed})")
        return r
    try:
        r.witness = read_witness(e.path, e.meta, e.meta.format or None)
        if e.group is None:
            r.path = write_tei(r.witness, out / "tei" / f"{e.stem}.xml")
        else:  # one file of a witness joined per 篇: its page labels made to name its 卷 here, not serial in the join
            qualify_pages(r.witness)
        r.seq = gaiji_sequence(r.witness)  # in the worker that read it, not serial in the gaiji stage
        r.counts = _ingest_counts(r.witness)  # and the ingest table's counts, not serial after the ingest
    except (InputError, InvalidOutput) as exc:
        r.errors.append(str(exc))
    except OutputError as exc:
        r.output_error = exc
    except Exception as exc:  # one witness's bug must not stop the others (JIAOKAN_TRACEBACK=1 shows it)
        r.errors.append(internal_error(str(e.path), exc))
    r.seconds = time.perf_counter() - t0
    return r


def _ingest_counts(w: Witness) -> tuple:
    """What a row of the ingest table says of one file (or witness) as read: its format, passages,
    characters per layer and warnings (:func:`_ingest_row` adds its name, status and time)."""
    c = w.layer_counts()
    return (w.meta.format, sum(1 for _ in w.passages()), c["jing"], c["zhu"], c["shu"],
            c["zhuan"] + c["yinyi"] + c["shi"] + c["commentary"] + c["kaozheng"], c["an"], c["paratext"], len(w.warnings))


def _ingest_row(w: Witness, name: str, status: str, r: _Read) -> tuple:
    """A row of the ingest table: characters per layer of one file (or witness) as read."""
    return (w.meta.siglum, name, *(r.counts or _ingest_counts(w)), status, f"{r.seconds:.2f}s")


def _keep(res: BuildResult, e: Entry, w: Witness, path: Path, tei_all: str | None) -> bool:
    """Validate a written witness TEI and keep the witness for collation; False when it is invalid."""
    errors = _checked(path, tei_all)
    res.errors.extend(f"{path}: {err}" for err in errors)
    res.witnesses[e.stem] = w
    res.tei_paths[e.stem] = path
    res.units.append(e)
    return not errors


def _checked(path: Path, tei_all: str | None) -> list[str]:
    """The errors of a TEI file this build just wrote, against tei_all when asked.

    Without tei_all there is nothing left to check: every TEI writer checked the bytes against
    the profile and the layer rule before renaming them into place (``check=profile_check``),
    and a file that failed is not there (:class:`~jiaokan.io.InvalidOutput`).  Parsing and
    validating it again cost a twentieth of the build.
    """
    return validate_file(path, tei_all).errors if tei_all else []


def join_stage(res: BuildResult, corpus: Path, out: Path, tei_all: str | None, jobs: int = 1,
               write: bool = True) -> None:
    """Join the files of every ``files`` witness into one witness per 篇 → OUT/tei/pianNN-SIGLUM.xml.

    A file whose text nothing places (no 篇 heading, no 篇 open before it, no ``chapter``
    in the manifest) is an error of its own; the rest of the witness is still joined.
    The TEI files are written ``jobs`` at a time (forked workers; each gives back its path);
    ``write=False``: not yet, but by :func:`relayer_stage` (the build relayers them first, and so
    writes each once, not once joined and again relayered).
    """
    defaults = witness_defaults(corpus)
    todo: list[tuple[Entry, Witness]] = []
    for group, read in res.parts.items():
        siglum = read[0][0].meta.siglum
        parts = [FilePart(e.meta.file, w, e.override, qualified=True) for e, w in read]  # by _read_one
        try:
            by_pian, placed = assemble(siglum, parts, defaults.get(group, ""))
        except InputError as exc:
            res.errors.append(str(exc))
            continue
        for pl in placed:
            for st in pl.stretches:
                if st.pian is None:
                    res.errors.append(f"{pl.name}: {counted(len(st.units), 'passage')} of witness {siglum} "
                                      f"{'is' if len(st.units) == 1 else 'are'} in no 篇: no 篇 "
                                      "heading before them and none open from an earlier 卷; set its chapter under "
                                      "'overrides' in the manifest")
                else:
                    res.placed.setdefault(st.pian, []).append(pl.name)
        for pian, w in by_pian.items():
            todo.append((Entry(read[0][0].path, w.meta, name=f"{slug(pian)}-{siglum}"), w))
    for e, w in todo:  # kept in the order of the manifest and the book, as they were joined
        res.witnesses[e.stem] = w
        res.tei_paths[e.stem] = out / "tei" / f"{e.stem}.xml"
        res.units.append(e)
        res.unwritten.append(e.stem)
    if write:
        relayer_stage(res, [], tei_all, jobs)  # no 篇 to relayer: the joined 篇 written


@dataclass
class _Collated(_Outcome):
    """What one collation gives back to the build."""

    name: str = ""
    col: Collation | None = None  # from a worker, without its witnesses (see _light)
    sigla: list[str] = field(default_factory=list)  # the collation's, while its witnesses are dropped
    xml: Path | None = None
    valid: bool = True
    seconds: float = 0.0
    #: the 疏 collation whose file the apparatus points to for the 注疏's 疏 (:mod:`jiaokan.collate.elsewhere`)
    points_to: str | None = None
    #: the 案 notes of this 篇's witnesses, checked in the same worker (stem → result)
    emended: dict[str, _Emended] = field(default_factory=dict)
    #: a 疏 collation's measures (:class:`jiaokan.collate.shu.ShuReport` as a dict)
    shu_report: dict | None = None
    #: its recurring variant pairs (:func:`jiaokan.collate.learned.count_pairs`) and its readings per variant type
    #: (:meth:`Collation.counts`, for the collation table), counted in the worker that made it
    pairs: Pairs = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class _Emended(_Outcome):
    """What the 案 stage gives back for one witness."""

    stem: str = ""
    row: tuple | None = None
    verdicts: dict[str, NoteVerdict] = field(default_factory=dict)


def _collate_one(res: BuildResult, name: str, stems: list[str], base: str | None, out: Path,
                 tei_all: str | None, shu: bool = False, shu_of: tuple[str, str, str] | None = None) -> _Collated:
    """Collate one 篇 and write its apparatus (TEI; JSON too with ``res.apparatus_json``); errors are
    returned, never raised.

    ``shu``: the 疏 of the 注疏 (``stems[0]``) against the 单疏本's (:mod:`jiaokan.collate.shu`);
    ``shu_of``: (name, 注疏 stem, 单疏本 stem) of the 篇's 疏 collation, which its apparatus points to for
    the 注疏's 疏 instead of copying it (:mod:`jiaokan.collate.elsewhere`).
    """
    t0 = time.perf_counter()
    r = _Collated(name=name)
    ws = [res.witnesses[s] for s in stems]
    names = _apparatus_names(res, stems)

    def step() -> tuple[Collation, Path]:
        if shu:
            from .collate.shu import collate_shu

            col, report = collate_shu(ws[0], ws[1])
            r.shu_report = report.as_dict()
        else:
            from .collate.engine import collate

            col = collate(ws, base=base)
        where = _shu_elsewhere(res, shu_of)
        r.points_to = where.name if where is not None else None
        return col, _write_collation(col, out, name, names, where, res.apparatus_json)

    done = r.guard(f"collation {name}", (CollationError, InvalidOutput), step)
    if done is None:
        return r
    col, r.xml = done
    errors = _checked(r.xml, tei_all)
    r.valid = not errors
    r.errors.extend(f"{r.xml}: {err}" for err in errors)
    r.col, r.seconds = col, time.perf_counter() - t0
    return r


def _apparatus_names(res: BuildResult, stems: list[str]) -> dict[str, str]:
    """Siglum → its witness TEI file, as an apparatus names it (relative to OUT/apparatus/)."""
    return {res.witnesses[s].meta.siglum: f"../tei/{s}.xml" for s in stems}


def _write_collation(col: Collation, out: Path, name: str, names: dict[str, str],
                     where: LayerElsewhere | None, json: bool) -> Path:
    """The apparatus of ``col`` → OUT/apparatus/NAME.xml (and NAME.json with ``json``, ``--apparatus-json``);
    ``where``: the 疏 collation its 注疏's 疏 points to (:mod:`jiaokan.collate.elsewhere`), None: copied whole."""
    from .collate.apparatus import write_apparatus
    from .collate.leanjson import write_lean_json

    xml = write_apparatus(col, out / "apparatus" / f"{name}.xml", names, elsewhere=where)
    if json:
        write_lean_json(col, out / "apparatus" / f"{name}.json", where)
    return xml


def _shu_elsewhere(res: BuildResult, shu_of: tuple[str, str, str] | None) -> LayerElsewhere | None:
    """Where the 篇's 疏 collation ``shu_of`` (name, 注疏 stem, 单疏本 stem) holds the 注疏's 疏, or None.

    Why a failure here is None and no error: it is the 疏 collation's own (the same resolution of the same
    witnesses, :func:`jiaokan.collate.shu.shu_elsewhere`), reported by its step; the 篇's apparatus keeps its
    copy of the 疏 rather than fail with it."""
    if shu_of is None:
        return None
    from .collate.shu import shu_elsewhere

    try:
        return shu_elsewhere(res.witnesses[shu_of[1]], res.witnesses[shu_of[2]], shu_of[0])
    except Exception:
        return None


def _unpoint(r: _Collated, t: _Todo, res: BuildResult, out: Path, tei_all: str | None) -> None:
    """The 篇's apparatus written again with its copy of the 注疏's 疏: the 疏 collation it points to was not
    written in this build (it failed, or its worker's result was lost), and a pointer must never name a file that
    is not there or one an earlier build left (which the stale-file sweep removes, :mod:`jiaokan.outputs`).

    Why after the fact: the 篇 and its 疏 are collated in steps of their own (in parallel with ``--jobs``), and
    the 篇's apparatus is written in its step, before the 疏's result is known; a 疏 collation fails rarely, so
    writing the 篇 twice then costs less than making every 篇 wait for its 疏.

    The 篇 is collated again for it (the same witnesses give the same collation): the one its step made has
    given up its alignments by now (:func:`_trim`), and the apparatus is written from them."""
    from .collate.engine import collate

    col = collate([res.witnesses[s] for s in t.stems], base=t.base)
    r.xml = _write_collation(col, out, t.name, _apparatus_names(res, t.stems), None, res.apparatus_json)
    r.points_to = None
    errors = _checked(r.xml, tei_all)
    r.valid = not errors
    r.errors.extend(f"{r.xml}: {err}" for err in errors)


def _light(r: _Collated) -> _Collated:
    """For the trip back from a worker: the collation without the witnesses the build already holds."""
    if r.col is not None:
        r.sigla = r.col.drop_witnesses()
    return r


@dataclass(frozen=True)
class _Todo:
    """One 篇 to collate (and the witnesses whose 案 notes are checked right after); without ``stems``, the
    案 notes of a witness in no collation only."""

    name: str
    chapter: str
    stems: list[str]
    base: str | None
    emend_stems: list[str]
    shu: bool = False  # the 注疏's 疏 against the 单疏本's
    #: (name, 注疏 stem, 单疏本 stem) of the 篇's 疏 collation, which its apparatus points to (see _collate_one)
    shu_of: tuple[str, str, str] | None = None
    #: its alignments are asked again after the collation stage: it holds a witness whose 案 notes the 案 stage
    #: checks (one of two collations), against this collation perhaps (see _trim)
    aligned_later: bool = False


def _collate_and_emend(job: tuple[BuildResult, Path, str | None], t: _Todo) -> _Collated:
    """Collate one 篇, then check the 案 notes of its witnesses while the collation is at hand
    (with ``--jobs`` the 案 stage, the build's second largest, then runs in parallel too)."""
    res, out, tei_all = job
    if not t.stems:  # a witness in no collation: its 案 notes only (see collate_stage)
        return _Collated(name=t.name, emended={s: _emend_one(res, s, res.witnesses[s], out, tei_all)
                                               for s in t.emend_stems})
    r = _collate_one(res, t.name, t.stems, t.base, out, tei_all, t.shu, t.shu_of)
    if r.col is not None:
        res.collations[t.name] = r.col  # (in a worker: its copy of the build) the partner is found in it
        for stem in t.emend_stems:
            r.emended[stem] = _emend_one(res, stem, res.witnesses[stem], out, tei_all)
        _trim(r.col, t.aligned_later)
        r.pairs, r.counts = count_pairs(t.name, r.col), r.col.counts()
    return r


def _before_collating(witnesses: list[Witness], seqs: list[Seq], jobs: int) -> Callable[[], None]:
    """What the collation needs done first that the relayering does not: the forms no registry knows
    (:func:`jiaokan.collate.learned.learn_forms`, on the book's sequences of the gaiji stage) and, with
    ``jobs`` > 1, the modules its workers use (:func:`_import_for_emending`).

    Why while the witnesses are relayered (``relayer_stage(meanwhile=...)``): it ran alone in this process
    between the stages, the other core idle; the relayering's worker takes more of its 篇 meanwhile, and
    the collation's workers, forked after it, inherit what it made.
    """
    def run() -> None:
        learn_forms(witnesses, seqs)  # forms no registry knows, read alike (collate.learned)
        if jobs > 1:
            _import_for_emending()

    return run


def _while_collating(res: BuildResult, out: Path, jobs: int, srows: list[tuple]) -> Callable[[], None]:
    """What this process does while the collation's workers start on the 篇 (``collate_stage(meanwhile=...)``):
    the 識誤 checked (:func:`shiwu_stage`, its rows added to ``srows``) and, with ``jobs`` > 1, the site's
    templates compiled (:func:`_compile_templates`).

    Why then: they ran alone in this process between the stages, the other core idle; the 識誤 asks the
    witnesses (final once relayered), not the collations.  (Not the search's table of characters by key
    (:func:`jiaokan.render.searchfold.fold_table`), which the render stage makes after its workers: made
    here, the render's worker would hold it too, 2.3 MB more in the build's memory for 0.03 s.)
    """
    def run() -> None:
        srows.extend(shiwu_stage(res, out))
        if jobs > 1:
            _compile_templates()

    return run


def _compile_templates() -> None:
    """The site's templates compiled, once for the build (:func:`jiaokan.render.site.environment` keeps them;
    the render's workers, forked later, inherit them): the render stage compiled them alone in this process
    before its workers fork (a twentieth of a second)."""
    from .render.site import environment

    env = environment()
    for name in env.list_templates():
        env.get_template(name)


def _import_for_collating() -> None:
    """The modules that relayer, collate and write the apparatus, imported while the files are read
    (``ingest_stage(meanwhile=...)``): the readers' workers do not need them, and imported with this module,
    before the build started, they were a twentieth of a second alone in this process with the other core
    idle (before the ingest's workers fork).  The relayering's and the collation's workers, forked later,
    inherit them."""
    from .collate import apparatus, engine, relayer  # noqa: F401


def _import_for_emending() -> None:
    """The modules that check the 案 notes, imported in this process before the collation's workers fork,
    not once in each of them (half a second of CPU apiece); the 案 report's sentences ask render.truth
    (with jinja2, 0.2 s a process)."""
    from .emend import apply, report, tei  # noqa: F401
    from .render import truth  # noqa: F401


def _trim(col: Collation, aligned_later: bool = False) -> None:
    """Drop what the collation made from its witnesses for the apparatus and the 案 notes (each row's
    layer texts and segments), keeping the witnesses: kept to the end of the build, it was a third of
    the build's memory, and the site makes what it needs again (as of a collation from a worker).

    And its alignments (the edit script of every row, layer and witness against the base), unless
    ``aligned_later``: the apparatus, the JSON and the 案 notes of the 篇 have been made from them, the site
    does not read them (it renders a collation read back from its TEI, which has none, the same), and only
    the 案 stage asks them again, of a witness in two collations.  From a worker they were a fifth of the
    bytes of a collation pickled and half the time of pickling it (objects by the ten thousand), and the
    build's memory held them to its end.
    """
    kept = dict(col.witnesses)
    col.attach_witnesses(col.drop_witnesses(), kept)
    if not aligned_later:
        col.alignments, col.aligned = [], False


def collate_stage(res: BuildResult, corpus: Path, out: Path, progress: Progress, tei_all: str | None,
                  jobs: int = 1, meanwhile: Callable[[], None] | None = None) -> list[tuple]:
    """Collate every 篇 and check its 案 notes; with ``jobs`` > 1 several 篇 at once
    (:func:`jiaokan.parallel.fork_map`), the longest first so no worker is left with one at the end.
    ``meanwhile``: work of the build's own for this process while the workers collate (:func:`_while_collating`)."""
    todo: list[_Todo] = []
    for spec in load_collations(corpus, res.units):
        members = [e for e in spec.entries if e.stem in res.witnesses]
        shu = _shu_todo(res, spec, members)  # after the 篇's own collation, in the site's table of contents too
        # the 单疏本 has no 经 to align (its 疏 is collated with the 注疏's); the 識誤 is no text of the book
        members = [e for e in members if res.witnesses[e.stem].meta.role not in UNCOLLATED_ROLES]
        if len(members) < 2:
            res.notes.append(f"collation {spec.name}: fewer than two witnesses of {spec.chapter} were read; skipped")
            progress.step(f"{spec.name} {spec.chapter}")
        else:
            # the first 疏 collation holds the 注疏's whole 疏 (its base): the apparatus points there
            shu_of = (shu[0].name, shu[0].stems[0], shu[0].stems[1]) if shu else None
            todo.append(_Todo(spec.name, spec.chapter, [e.stem for e in members], spec.base, [], shu_of=shu_of))
        todo.extend(shu)
    progress.total += sum(1 for t in todo if t.shu)  # the 疏 collations are steps of their own
    _note_uncollated(res, {s for t in todo for s in t.stems})
    in_one = Counter(s for t in todo for s in t.stems)  # a witness in two collations: its notes are checked later
    noted = set(_noted(res))
    for t in todo:
        t.emend_stems.extend(s for s in t.stems if in_one[s] == 1 and s in noted)
    later = {s for s in noted if in_one[s] > 1}  # their notes are checked by the 案 stage, against one of these
    todo = [replace(t, aligned_later=True) if later.intersection(t.stems) else t for t in todo]
    size = {t.name: sum(_size_of(res, s) for s in t.stems) for t in todo}
    order = sorted(todo, key=lambda t: -size[t.name])
    # the 案 notes of a witness in no collation (the 識誤's) are checked against no collation, so they need not
    # wait for the 案 stage, where they were done alone in this process: steps of their own, after the 篇 (small
    # ones, they fill the end of the map, where one process would otherwise wait for the other)
    alone = [_Todo(s, "", [], None, [s]) for s in _noted(res) if not in_one[s]]
    if jobs > 1 and any(t.emend_stems for t in todo + alone):
        _import_for_emending()  # (a build did it already, while relayering: _before_collating)
    if jobs > 1 and any(t.shu for t in todo):
        from .collate import shu as _shu  # noqa: F401
    done = fork_map(_collate_and_emend, (res, out, tei_all), order + alone, jobs, pack=_light, notes=res.notes,
                    meanwhile=meanwhile,
                    on_done=lambda i, r: progress.step(f"{order[i].name} {order[i].chapter}") if i < len(order) else None)
    results = {t.name: r for t, r in zip(order, done)}
    for r in done[len(order):]:
        res.emended.update(r.emended)  # gathered by the 案 stage, in the witnesses' order, with their errors
    for t in todo:  # done here (one job), the steps filed them in the order they ran: file them anew, in the manifest's
        res.collations.pop(t.name, None)
    rows = []
    shu_reports = {t.name: rep for t in todo if (rep := results[t.name].shu_report) is not None}
    if shu_reports:
        res.shu = write_shu_reports(out, shu_reports)
    for t in todo:  # in the manifest's order
        r = results[t.name]
        if r.output_error is not None:
            raise r.output_error
        res.errors.extend(r.errors)
        res.emended.update(r.emended)
        col = r.col
        if col is None:
            continue
        if not col.witnesses:  # back from a worker without them (_light): the build holds them
            col.attach_witnesses(r.sigla, {w.meta.siglum: w for w in (res.witnesses[s] for s in t.stems)})
        res.collations[t.name] = col
        if r.points_to is not None and results[r.points_to].xml is None:  # its 疏 collation was not written
            _unpoint(r, t, res, out, tei_all)
        res.pairs[t.name] = r.pairs
        c = r.counts
        rows.append((t.name, t.chapter, " ".join(col.sigla), col.base, len(col.rows),
                     c["substantive"], c["omission"], c["addition"], c["transposition"], c["taboo"],
                     c["orthographic"], c["uncertain"], "ok" if r.valid else "INVALID", f"{r.seconds:.2f}s"))
    return rows


#: Roles whose witnesses are not collated with the others by their 经: the 单疏本 (its 疏 has a
#: collation of its own, ``NAME-shu``) and the 識誤 (its claims are checked, :mod:`jiaokan.emend.shiwu`).
UNCOLLATED_ROLES = ("danshu", "shiwu")


def _note_uncollated(res: BuildResult, collated: set[str]) -> None:
    """A line for each witness text read and compared with none: in no collation, though its role is collated
    (not the 单疏本, whose 疏 has its own, nor the 識誤) and it is no front matter.

    Why: a text whose chapter no [[collation]] names and no other witness holds (the 图书集成's 射部汇考一 in the
    seed corpus) got its TEI and a reading page, and the summary did not say that nothing was compared with it."""
    from .book.pian import FRONT, canonical

    for stem, w in res.witnesses.items():
        chapter = canonical(w.meta.chapter) if w.meta.chapter else ""
        if stem in collated or w.meta.role in UNCOLLATED_ROLES or chapter == FRONT:
            continue
        where = f"its chapter {w.meta.chapter}" if chapter else "it names no chapter"
        res.notes.append(f"{w.meta.siglum} {stem}: compared with no other witness ({where}, which no collation "
                         "takes); its TEI and its reading page are written")


def _shu_todo(res: BuildResult, spec, members: list[Entry]) -> list[_Todo]:
    """The 疏 collation of a 篇 that both a 注疏 and a 单疏本 hold: ``NAME-shu``, the 注疏 as base."""
    zs = [e for e in members if res.witnesses[e.stem].meta.role == "zhushu"]
    ds = [e for e in members if res.witnesses[e.stem].meta.role == "danshu"]
    if not zs or not ds:
        return []
    return [_Todo(f"{spec.name}-shu" + (f"{k + 1}" if k else ""), spec.chapter, [zs[0].stem, d.stem],
                  zs[0].meta.siglum, [], shu=True) for k, d in enumerate(ds)]


def write_shu_reports(out: Path, reports: dict[str, dict]) -> list[tuple]:
    """OUT/shu/NAME.json per 疏 collation and OUT/shu/summary.csv; the summary rows."""
    import csv
    import io

    from .io import atomic_write_bytes, write_json

    rows = []
    for name, rep in reports.items():
        write_json(out / "shu" / f"{name}.json", rep)  # compact, as every JSON file of the build
        rows.append((name, rep["pian"], rep["lemmas"], rep["resolved"], rep["resolved_share"], rep["ds_shu_chars"],
                     rep["ds_shu_aligned"], rep["ds_aligned_share"], rep["zs_shu_chars"], rep["zs_aligned_share"],
                     len(rep["unmatched"])))
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["collation", "pian", "lemmas", "resolved", "resolved_share", "ds_shu_chars", "ds_shu_aligned",
                "ds_aligned_share", "zs_shu_chars", "zs_aligned_share", "unmatched_stretches"])
    w.writerows(rows)
    if rows:
        atomic_write_bytes(out / "shu" / "summary.csv", buf.getvalue().encode("utf-8"))
    return rows


def shiwu_stage(res: BuildResult, out: Path) -> list[tuple]:
    """張淳《儀禮識誤》's entries of every 篇, parsed and checked against the 篇's witnesses → OUT/shiwu/.

    One JSON (entries with their claims and verdicts) and one CSV (a row per claim checked
    against a witness) per 篇, and a summary; the rows of the summary table.
    """
    import csv
    import io

    from .emend.folded import FoldedTexts
    from .emend.shiwu import check_pian, verdict_counts
    from .io import atomic_write_bytes, write_json

    rows = []
    reports: list[dict] = []
    by_pian: dict[str, dict[str, Witness]] = {}
    texts = FoldedTexts()  # a 篇's texts, made once however many 識誤 witnesses check them
    for e in res.units:
        w = res.witnesses.get(e.stem)
        if w is not None and e.meta.chapter and w.meta.role != "shiwu":
            by_pian.setdefault(canonical(e.meta.chapter), {})[w.meta.siglum] = w
    for e in res.units:
        w = res.witnesses.get(e.stem)
        if w is None or w.meta.role != "shiwu" or not e.meta.chapter or canonical(e.meta.chapter) == FRONT:
            continue
        pian = canonical(e.meta.chapter)
        entries = check_pian(w, by_pian.get(pian, {}), texts)
        counts = verdict_counts(entries)
        report = {"pian": pian, "witness": w.meta.siglum, "entries": len(entries),
                  "kinds": dict(Counter(x.kind for x in entries)), "verdicts": counts,
                  "by_entry": [x.to_dict() for x in entries]}
        reports.append(report)
        write_json(out / "shiwu" / f"{e.stem}.json", report)  # compact, as every JSON file of the build
        buf = io.StringIO()
        cw = csv.writer(buf)
        cw.writerow(["entry", "headword", "kind", "page", "line", "place", "witness", "reads", "verdict", "why"])
        for x in entries:
            for c in x.claims:
                if c.witness is not None:
                    cw.writerow([x.id, x.headword, x.kind, x.page, x.line, c.anchor, c.witness,
                                 "; ".join(c.readings.values()), c.verdict, c.why])
        atomic_write_bytes(out / "shiwu" / f"{e.stem}.csv", buf.getvalue().encode("utf-8"))
        checked = sum(1 for x in entries if x.kind != "comment")
        per = " ".join(f"{s}={d['confirmed']}/{d['contradicted']}/{d['not covered']}" for s, d in counts.items())
        rows.append((e.stem, pian, len(entries), checked, per))
    if reports:
        from .emend.shiwu_view import page

        atomic_write_bytes(out / "shiwu" / "index.html", page(reports).encode("utf-8"))
    return rows


def _zhushu_partner(res: BuildResult, stem: str, w: Witness):
    """(stem, witness, collation) of a 注疏 witness collated with ``w`` (of file stem ``stem``), or Nones.

    The collation first, then the stem of its 注疏 only: the stem of the same 篇 and its siglum
    (``pian02-JS`` → ``pian02-ZS``) where that is the witness, else a look through the witnesses.
    (A map of every witness, made for each witness checked, grew with the square of the book.)"""
    for col in res.collations.values():
        if not any(x is w for x in col.witnesses.values()):
            continue
        for x in col.witnesses.values():
            if x is not w and x.meta.role == "zhushu":
                guess = f"{stem.rsplit('-', 1)[0]}-{x.meta.siglum}"
                found = guess if res.witnesses.get(guess) is x else next(
                    (s for s, y in res.witnesses.items() if y is x), None)
                if found is not None:
                    return found, x, col
    return None, None, None


def _songben_partners(w: Witness, col: Collation | None) -> list[Witness]:
    """The witnesses of role ``songben`` (the 四部丛刊) collated with ``w``: evidence for its notes' 宋本 claims."""
    if col is None:
        return []
    return [x for x in col.witnesses.values() if x is not w and x.meta.role == "songben"]


def _danshu_of(res: BuildResult, stem: str) -> list[Witness]:
    """The 单疏本 witnesses (role ``danshu``) of the 篇 of witness ``stem`` (``pian02-JS`` → ``pian02-DS``):
    with the 注疏's 疏 they check what the 案 notes say of the 疏 (:mod:`jiaokan.emend.shu`)."""
    pian = stem.rsplit("-", 1)[0]
    ds = [x for x in res.witnesses.values() if x.meta.role == "danshu"]
    here = [x for s, x in res.witnesses.items() if x.meta.role == "danshu" and s.rsplit("-", 1)[0] == pian]
    if ds and not here:  # the 单疏本 lacks this 篇 (士喪禮's 卷 are lost): an empty witness says so, never a guess
        return [Witness(replace(ds[0].meta, chapter=res.witnesses[stem].meta.chapter))]
    return here


def emend_stage(res: BuildResult, out: Path, progress: Progress, tei_all: str | None) -> list[tuple]:
    """Anchor, check and apply the 案 notes of every witness that has them → OUT/emend/.

    A witness collated with a 注疏 witness is checked against it; without one, its claims
    about the 注疏 are "not covered".  A 宋本 witness (role ``songben``) of the same 篇
    checks the claims about a 宋本, the 注疏's 音义 those about the 释文.  Fills
    ``res.verdicts`` (note id → verdict record, with the evidence of every claim).
    Witnesses the collate stage already did (``res.emended``: those of one collation, and those of none)
    are only gathered here.
    """
    rows = []
    for stem in _noted(res):
        w = res.witnesses[stem]
        e = res.emended.pop(stem, None) or _emend_one(res, stem, w, out, tei_all)
        if e.output_error is not None:
            raise e.output_error
        res.errors.extend(e.errors)
        res.verdicts.update(e.verdicts)
        if e.row is not None:
            rows.append(e.row)
        progress.step(stem)
    return rows


def _emend_one(res: BuildResult, stem: str, w: Witness, out: Path, tei_all: str | None) -> _Emended:
    """The 案 notes of one witness: checked, applied, written; errors are returned, never raised."""
    from .emend.apply import emend
    from .emend.inputs import front_matter_among
    from .emend.report import verdicts_by_note, write_csv, write_json
    from .emend.tei import write_emendations, write_emended

    result = _Emended(stem=stem)
    t0 = time.perf_counter()
    zs_stem, zs, col = _zhushu_partner(res, stem, w)
    d = out / "emend"
    names = {w.meta.siglum: f"../tei/{stem}.xml"}  # pointers relative to emend/
    if zs is not None:
        names[zs.meta.siglum] = f"../tei/{zs_stem}.xml"

    def step() -> tuple[EmendResult, list[Path], dict[str, NoteVerdict]]:
        # the 注疏's front matter gives the 鄭目録 of every 篇: claims on that passage are checked there
        # (the joined front matter, else the witness of that siglum that holds no 篇, as
        # `jiaokan emend` and jiaokan.emend() find it: jiaokan.emend.inputs)
        front = (res.witnesses.get(f"{slug(FRONT)}-{zs.meta.siglum}")
                 or front_matter_among(res.witnesses.values(), zs.meta.siglum)) if zs is not None else None
        r = emend(w, zs, collation=col, others=_songben_partners(w, col), front=front,
                  danshu=_danshu_of(res, stem))
        verdicts = verdicts_by_note(r)  # the report's by_note, and the HTML's
        write_json(r, d / f"{stem}.json", verdicts)
        write_csv(r, d / f"{stem}.csv")
        teis = [write_emendations(r, d / f"{stem}.apparatus.xml", names)]
        if res.emended_tei:
            # the witness's TEI again with its emendations applied (and the 注疏's): 5 MB over the book
            # that STEM.apparatus.xml (every change, pointing into ../tei/) and the site's 校定本 already
            # say; written on request
            teis.insert(0, write_emended(w, r, d / f"{stem}.emended.xml", names))
            if zs is not None and r.on(zs.meta.siglum):
                teis.append(write_emended(zs, r, d / f"{zs_stem}.emended.xml", names))
        return r, teis, verdicts

    done = result.guard(f"emend {stem}", (EmendationError, InvalidOutput), step)
    if done is None:
        return result
    r, teis, result.verdicts = done
    ok = True
    for path in teis:
        errors = _checked(path, tei_all)
        if errors:
            ok = False
            result.errors.extend(f"{path}: {err}" for err in errors)
    v = r.verdict_counts()
    anchored = sum(1 for c in r.claims if c.status != "failed")
    result.row = (w.meta.siglum, stem, zs.meta.siglum if zs is not None else "-", len(w.notes()),
                  f"{anchored}/{len(r.claims)}", v["confirmed"], v["contradicted"], v["not covered"],
                  v.get("uncertain", 0), len(r.on(w.meta.siglum)), len(r.on(zs.meta.siglum)) if zs is not None else 0,
                  "ok" if ok else "INVALID", f"{time.perf_counter() - t0:.2f}s")
    return result


def render_stage(res: BuildResult, corpus: Path, out: Path, progress: Progress, jobs: int = 1,
                 site_tei: bool = False) -> None:
    """The parallel-text HTML edition of every collation and every uncollated witness → OUT/site/.

    The pages link to the TEI files in OUT/tei/ and OUT/apparatus/; ``site_tei`` copies them into
    OUT/site/tei/ instead, for a site that stands alone (otherwise a build would hold them twice).
    """
    import tomllib

    from .render import render_collations

    t0 = time.perf_counter()
    try:
        title = tomllib.loads((corpus / "corpus.toml").read_text(encoding="utf-8")).get("corpus", {}).get("title")
    except (OSError, tomllib.TOMLDecodeError):
        title = None
    rep = render_collations(res.collations, res.witnesses, out / "site", tei_paths=res.tei_paths,
                            apparatus_dir=out / "apparatus", verdicts=getattr(res, "verdicts", None) or None,
                            title=title, jobs=jobs, copy_tei=site_tei)
    progress.step("site")
    name, size = rep.largest
    print(f"\nHTML edition: {len(rep.pages)} pages -> {out / 'site' / 'index.html'} "
          f"(largest {name}, {size / 1024:.0f} KiB; {time.perf_counter() - t0:.1f} s)")


def pian_table(res: BuildResult, specs: list, erows: list[tuple]) -> str:
    """One row per 篇 of the book: its files, witnesses, collation and 案 notes checked."""
    by_stem = {e.stem: e for e in res.units}
    notes: dict[str, list[int]] = {}
    for r in erows:  # (siglum, stem, against, notes, anchored, confirmed, contradicted, not covered, uncertain, …)
        e = by_stem.get(r[1])
        if e is not None:
            n = notes.setdefault(canonical(e.meta.chapter), [0, 0, 0, 0, 0])
            for k, v in enumerate((r[3], r[5], r[6], r[7], r[8])):
                n[k] += v
    rows: list[tuple] = []
    pians = list(dict.fromkeys(canonical(e.meta.chapter) for e in res.units if e.meta.chapter))
    for pian in pians:
        if pian == FRONT:
            continue
        spec = next((s for s in specs if canonical(s.chapter) == pian), None)
        col = res.collations.get(spec.name) if spec is not None else None
        sig = " ".join(e.meta.siglum for e in res.units if canonical(e.meta.chapter) == pian)
        n = notes.get(pian, [0, 0, 0, 0, 0])
        n_files = len(res.placed.get(pian, [])) + sum(1 for e in res.units if not e.name and canonical(e.meta.chapter) == pian)
        rows.append((pian, n_files, sig, spec.name if col is not None and spec else "-",
                     len(col.rows) if col is not None else 0, sum(col.counts().values()) if col is not None else 0,
                     n[0], n[1], n[2], n[3], n[4]))
    head: tuple[str, ...] = ("篇", "files", "witnesses", "collation", "rows", "variants", "案", "confirmed", "contradicted",
            "not covered", "uncertain")
    unread = _unread(res)
    if unread:  # (only then: the table of a build that read every file is as it was)
        head += ("not read",)
        rows = [r + (" ".join(unread.get(r[0], [])),) for r in rows]
    return table(head, rows, numeric={1, 4, 5, 6, 7, 8, 9, 10})


def _unread(res: BuildResult) -> dict[str, list[str]]:
    """篇 → the sigla of the witnesses a file of which could not be read and may hold that 篇 (the 篇 table's
    ``not read``): a 篇 built without a witness, or with part of it, says so where the 篇 is listed, not only
    in the error lines that follow the tables.

    Which 篇 a file that could not be read holds, nothing read says: the manifest's ``chapter`` where it gives
    one; else, for a file of a ``files`` witness (in 卷 order), every 篇 of the book from the last 篇 of the file
    read before it to the first of the file read after it, both included (a 卷 may end or open mid-篇)."""
    from .readers.common.yili import PIAN

    failed = set(res.failed)
    if not failed:
        return {}
    pians_of: dict[str, list[str]] = {}  # a file read → the 篇 it was placed in (FilePart.name: meta.file)
    for pian, names in res.placed.items():
        for name in names:
            pians_of.setdefault(name, []).append(pian)
    order = {p: i for i, p in enumerate(PIAN)}
    out: dict[str, list[str]] = {}
    for e in res.entries:
        if (e.meta.file or str(e.path)) not in failed:
            continue
        chapter = e.override or (e.meta.chapter if e.group is None else "")
        may: list[str] = [canonical(chapter)] if chapter else []
        if not chapter and e.group is not None:
            files = [x for x in res.entries if x.group == e.group]
            i = files.index(e)
            before = [order[p] for x in files[:i] for p in pians_of.get(x.meta.file, []) if p in order]
            after = [order[p] for x in files[i + 1:] for p in pians_of.get(x.meta.file, []) if p in order]
            may = list(PIAN[max(before, default=0):min(after, default=len(PIAN) - 1) + 1])
        for pian in may:
            if e.meta.siglum not in out.setdefault(pian, []):
                out[pian].append(e.meta.siglum)
    return out


def tei_all_stage(res: BuildResult, out: Path, tei_all: str, written: Iterable[str]) -> str:
    """Every TEI file this build wrote (``written``: their paths relative to ``out``, as
    :meth:`jiaokan.outputs.Recorder.written` gives them) against tei_all, in one go; returns the summary line.

    Why once at the end rather than per file: jing (used when installed) costs a JVM start and
    a schema load per call, about as much per file as lxml's one compilation for the lot.
    """
    t0 = time.perf_counter()
    files = sorted(out / rel for rel in written
                   if rel.endswith(".xml") and rel.count("/") == 1 and rel.split("/")[0] in ("tei", "apparatus", "emend"))
    reports = validate_files(files, tei_all)
    bad = 0
    for r in reports:
        errs = [e for e in r.errors if ": tei_all: " in e]  # the profile was checked file by file already
        if errs:
            bad += 1
            res.errors.extend(f"{r.file}: {e}" for e in errs)
    via = reports[0].validator if reports else "-"
    return f"tei_all: {len(reports) - bad}/{len(reports)} files valid ({via}, {time.perf_counter() - t0:.1f} s)"


#: Called around each stage of a build with the stage's name and the build's state: how
#: ``bench/bench_book.py`` times the very build a scholar runs (a bench that called the stages
#: itself had silently left out those added since: gaiji, relayering, 識誤, the learned variants).
StageHook = Callable[[str, "BuildResult"], AbstractContextManager[None]]

#: The stages of :func:`run_build`, in order (the names a :data:`StageHook` is called with).
STAGES = ("manifest", "ingest", "gaiji", "join", "relayer", "collate", "shiwu", "emend", "render")


@contextmanager
def _untimed(name: str, res: "BuildResult") -> Iterator[None]:
    yield


def run_build(corpus: Path, out: Path, *, quiet: bool = False, verbose: bool = False, tei_all: str | None = None,
              jobs: int | None = None, site_tei: bool = False, emended_tei: bool = False,
              apparatus_json: bool = False, stage_hook: StageHook | None = None) -> int:
    """The whole pipeline; ``jobs``: how many 篇 to collate at once (default: the machine's cores);
    ``site_tei``: copy the TEI files into the site (:func:`render_stage`); ``emended_tei``: write each
    emended witness whole as TEI too (:attr:`BuildResult.emended_tei`); ``apparatus_json``: write each
    apparatus as lean JSON too (:attr:`BuildResult.apparatus_json`); ``stage_hook``: see
    :data:`StageHook`; ``verbose``: the summary lists the stale files removed (:mod:`jiaokan.outputs`)."""
    from .normalize.gaiji import set_parallel_resolutions

    # gaiji learned from the witnesses are this build's: a previous build in the same process (a test
    # session, a notebook) must not have its resolutions applied while this one's files are read
    set_parallel_resolutions({})
    with collector_paused(), recording(out) as record:  # every file written, to remove what the next build does not
        return _run_build(corpus, out, quiet=quiet, tei_all=tei_all, jobs=jobs, site_tei=site_tei,
                          emended_tei=emended_tei, apparatus_json=apparatus_json, stage=stage_hook or _untimed,
                          record=record, verbose=verbose)


def _run_build(corpus: Path, out: Path, *, quiet: bool, tei_all: str | None, jobs: int | None,
               site_tei: bool, emended_tei: bool, apparatus_json: bool, stage: StageHook, record: Recorder,
               verbose: bool) -> int:
    jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    t0 = time.perf_counter()
    checked_all, tei_all = tei_all, None  # the stages check the profile; tei_all is checked once, at the end
    res = BuildResult([], emended_tei=emended_tei, apparatus_json=apparatus_json)
    with stage("manifest", res):
        entries = res.entries = load_manifest(corpus)
        specs = load_collations(corpus, entries)  # a bad [[collation]] stops the build before anything is written
        decisions = load_decisions(corpus)  # [variants] accept/reject: the scholar's verdicts on learned pairs
        set_accepted(decisions.accept)
        set_rejected(decisions.reject)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(str(exc.filename or out), "cannot create the output folder: a file is in the way or no "
                          f"permission ({exc.strerror or exc})") from None
    progress = Progress(len(entries), "ingest", quiet=quiet)
    with stage("ingest", res):
        rows = ingest_stage(res, out, progress, tei_all, jobs=jobs, meanwhile=_import_for_collating)
    print(table(
        ("siglum", "file", "format", "passages", "经", "注", "疏", "other comm.", "案", "paratext", "warnings", "TEI", "time"),
        rows, numeric={3, 4, 5, 6, 7, 8, 9, 10},
    ))
    # unknown gaiji read from the other witnesses, before the 篇 TEI is written and anything is collated; the
    # forms no registry knows are learned while the witnesses are relayered (_before_collating)
    with stage("gaiji", res):
        read_witnesses = {id(w): w for w in res.witnesses.values()}
        read_witnesses.update((id(w), w) for group in res.parts.values() for _, w in group)
        seqs: list = []  # the book as the gaiji search reads it: made once, for the learned forms too
        found = resolve_gaiji_from_witnesses(list(read_witnesses.values()), keep=seqs, made=res.gaiji_seqs)
        res.gaiji_seqs = {}
        before_collating = _before_collating(list(read_witnesses.values()), seqs, jobs)
        del seqs, read_witnesses  # the book's text as one string per witness (8 MB): dropped once the forms are learned
        if found:
            write_gaiji_report(out / "gaiji-resolved.tsv", found)
    if found:
        if not quiet:
            done = [f for f in found.values() if f.resolution is not None]
            n_occ = sum(f.occurrences for f in found.values())
            print(f"{len(done)}/{len(found)} unknown gaiji codes resolved from the other witnesses "
                  f"({sum(f.occurrences for f in done)}/{n_occ} occurrences) -> {out / 'gaiji-resolved.tsv'}")
    with stage("join", res):
        if res.parts:
            join_stage(res, corpus, out, tei_all, jobs=jobs, write=False)
            specs = load_collations(corpus, res.units)
    with stage("relayer", res):  # and the joined 篇 written, as relayered; the learned forms meanwhile
        n_units = len(res.units)
        relayer_stage(res, specs, tei_all, jobs=jobs, meanwhile=before_collating)
        del before_collating  # (and with it the book's sequences, not forked into the collation's workers)
        if len(res.units) != n_units:
            specs = load_collations(corpus, res.units)  # without the 篇 not written
    _print_notes(res)  # the relayer's lines, in the summary where it ran: before the collations
    progress = Progress(len(specs), "collate", quiet=quiet)
    srows: list[tuple] = []
    with stage("collate", res):  # and the 識誤 checked meanwhile (_while_collating)
        crows = collate_stage(res, corpus, out, progress, tei_all, jobs=jobs,
                              meanwhile=_while_collating(res, out, jobs, srows))
        if res.collations:  # the learned variant pairs are read off the collations
            chapters = {spec.name: spec.chapter for spec in specs}
            proposals = merge_pairs(((chapters.get(n, n), res.pairs[n]) for n in res.collations), decisions)
            res.pairs = {}  # merged: not held (and forked) to the end of the build
            write_proposals(out / "variants-proposed.tsv", proposals)
    if crows:
        print()
        print(table(("collation", "chapter", "witnesses", "base", "rows", "substantive", "omission", "addition",
                     "transp.", "taboo", "orthogr.", "uncert.", "TEI", "time"), crows, numeric={4, 5, 6, 7, 8, 9, 10, 11}))
    if res.collations:
        if not quiet:
            n_new = sum(1 for p in proposals if p.status == "proposed")
            print(f"{len(proposals)} recurring variant pairs ({n_new} not yet decided in [variants]) -> "
                  f"{out / 'variants-proposed.tsv'}")
    _print_notes(res)  # a collation skipped, a worker lost
    if res.shu:
        print()
        print(table(("疏 collation", "篇", "標起止", "resolved", "share", "DS 疏", "aligned", "share", "ZS 疏", "share",
                     "unmatched"), res.shu, numeric={2, 3, 4, 5, 6, 7, 8, 9, 10}))
    with stage("shiwu", res):
        pass  # checked while collating (_while_collating); the stage is kept for the bench's table
    if srows:
        print()
        print(table(("識誤 of", "篇", "entries", "checked", "per witness: as chosen / not / uncertain"), srows,
                    numeric={2, 3}))
    with stage("emend", res):
        n_emend = len(_noted(res))
        erows = emend_stage(res, out, Progress(n_emend, "emend", quiet=quiet), tei_all) if n_emend else []
    if erows:
        print()
        print(table(("案 notes of", "file", "against", "notes", "claims anchored", "confirmed", "contradicted",
                     "not covered", "uncertain", "emended", "注疏 emended", "TEI", "time"), erows,
                    numeric={3, 5, 6, 7, 8, 9, 10}))
        alone = sorted({r[0] for r in erows if r[2] == "-"})
        if alone:  # rows of zeros under "against -" read as a failed check (a new user's trial): say what they are
            one = len(alone) == 1
            its = "its" if one else "their"
            print(f"(against -: {', '.join(alone)} {'is' if one else 'are'} in no collation, so {its} notes are "
                  f"parsed, anchored and applied to {its} own text, and a claim they make about the 注疏 is not covered)")
    with stage("render", res):
        render_stage(res, corpus, out, Progress(1, "render", quiet=quiet), jobs=jobs, site_tei=site_tei)
    if res.parts:
        print()
        print(pian_table(res, specs, erows))
    _print_notes(res)
    read = len(res.units) + sum(len(v) for v in res.parts.values()) - sum(1 for e in res.units if e.name)
    what = (f"{counted(len(res.witnesses), 'witness text')} (one per 篇) from {read}/{len(entries)} files" if res.parts
            else f"{len(res.witnesses)}/{counted(len(entries), 'witness', 'witnesses')}")
    print(f"\n{what} -> {out / 'tei'}; "
          f"{counted(len(res.collations), 'collation')} -> {out / 'apparatus'}  ({time.perf_counter() - t0:.1f} s)")
    if erows:
        # the verdicts count claims on the 注疏 (a note may make several, or none: a conjecture, a 宋本 reading), as
        # the table's columns do; the site's index counts notes, by each note's own verdict.  A row of ``erows`` is
        # a witness's text of one 篇 (a book's 集释 is 13 of them): the witnesses are counted by siglum
        sigla = len({r[0] for r in erows})
        texts = f" ({counted(len(erows), 'text')}, one per 篇)" if len(erows) != sigla else ""
        print(f"{sum(r[3] for r in erows)} 案 notes in {counted(sigla, 'witness', 'witnesses')}{texts} -> "
              f"{out / 'emend'}; their "
              f"claims on the 注疏: confirmed {sum(r[5] for r in erows)}, contradicted {sum(r[6] for r in erows)}, "
              f"not covered {sum(r[7] for r in erows)}, uncertain {sum(r[8] for r in erows)}")
    if checked_all:
        print(tei_all_stage(res, out, checked_all, record.written()))
    if res.failed:  # (the 篇 table is printed for a book, a corpus whose files are placed in 篇)
        where = "'not read' in the 篇 table; " if res.parts else ""
        they = ("it", "it holds") if len(res.failed) == 1 else ("them", "they hold")
        print(f"{counted(len(res.failed), 'file')} could not be read, and what {they[1]} is built without {they[0]} "
              f"({where}the errors follow): {', '.join(res.failed)}")
    for line in record.finish().lines(verbose):  # what an earlier build wrote and this one did not
        print(line)
    if res.errors:
        for err in res.errors:
            sys.stderr.write(f"jiaokan: error: {err}\n")
        return 2
    return 0
