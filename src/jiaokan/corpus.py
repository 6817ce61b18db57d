"""The corpus manifest (``corpus/corpus.toml``): which files, in which format, with which siglum."""

from __future__ import annotations

import difflib
import glob
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from . import corpus_schema as schema
from .errors import InputError
from .model import ROLES, WitnessMeta
from .names import name_problem, siglum_problem

MANIFEST = "corpus.toml"
_FIELDS = ("siglum", "format", "title", "work", "chapter", "juan", "script", "source", "licence", "edition", "author", "role")


#: The keys each table of the manifest may have; anything else is most likely a typo (``fromat``).
_KNOWN_KEYS: dict[str, tuple[str, ...]] = {
    "": ("corpus", "witness", "collation", "variants"),
    "corpus": ("title", "work", "base"),
    "witness": ("file", "files", "overrides", "facs_url") + _FIELDS,
    "collation": ("name", "chapter", "base"),
    "override": ("chapter", "format", "juan"),
    "variants": ("accept", "reject"),  # learned variant pairs a scholar decided (jiaokan.collate.learned)
}
_warned: set[str] = set()


def unknown_key_warnings(data: dict, mpath: Path, text: str = "") -> list[str]:
    """One message per key the manifest does not know, with a did-you-mean when one is close.

    Why: a misspelt key (``fromat = "jishi-pages"``) would otherwise be ignored silently and
    the file sniffed or described wrongly, with nothing to say why.
    """
    msgs: list[str] = []
    lines = schema.Lines(text).at

    def check(table: object, kind: str, i: int, where: str) -> None:
        if not isinstance(table, dict):
            return
        known = _KNOWN_KEYS[kind]
        for k in table:
            if k not in known:
                close = difflib.get_close_matches(k, known, n=1, cutoff=0.6)
                hint = f" (did you mean '{close[0]}'?)" if close else f" (known: {', '.join(known)})"
                line = lines.get(("witness" if kind == "override" else kind, i, k))  # an override's keys sit in its witness
                if line is None and kind == "":  # a table of its own ([[witnes]]): the line of its header
                    line = lines.get((k, 1, ""))
                msgs.append(f"{mpath}{f':{line}' if line else ''}: warning: unknown key '{k}' in {where}, ignored{hint}")

    check(data, "", 1, "the manifest")
    check(data.get("corpus"), "corpus", 1, "[corpus]")
    check(data.get("variants"), "variants", 1, "[variants]")
    for kind in ("witness", "collation"):
        tables = data.get(kind)
        for i, t in enumerate(tables if isinstance(tables, list) else [], 1):
            check(t, kind, i, f"[[{kind}]] number {i}" + (f" ({t['file']})" if isinstance(t, dict) and "file" in t else ""))
            overrides = t.get("overrides") if kind == "witness" and isinstance(t, dict) else None
            for name, o in overrides.items() if isinstance(overrides, dict) else ():
                check(o, "override", i, f"the overrides of {name!r} in [[witness]] number {i}")
    return msgs


def _warn_once(msgs: list[str]) -> None:
    """To stderr, once per process (the manifest is read again for every file `ingest` looks up)."""
    for m in msgs:
        if m not in _warned:
            _warned.add(m)
            print(m, file=sys.stderr)


@dataclass
class Entry:
    """One file to read (``path``, ``meta``); or, after :mod:`jiaokan.book` joined them, one witness's 篇.

    ``group`` is set for the files of a ``files = […]`` witness (the number of its
    [[witness]] table): such files are read one by one, then joined per 篇.
    ``override`` is the file's own ``chapter`` from ``overrides``; ``name`` replaces the
    file stem as the name of the TEI file (``pian05-JS``).
    """

    path: Path
    meta: WitnessMeta
    group: int | None = None
    override: str = ""
    name: str | None = None
    #: where the manifest names the file (``corpus.toml:12, [[witness]] SB``), for a file named outright (``file =``,
    #: or a name in ``files = […]`` that is no pattern): what a message about a file that is not there points to
    #: (a pattern's files exist: the pattern found them)
    listed: str = ""

    @property
    def stem(self) -> str:
        return self.name or self.path.stem


@dataclass
class _Document:
    """The manifest as parsed and checked, with where each key is (for messages)."""

    data: dict
    lines: schema.Lines
    #: [[witness]] number → the files `jiaokan init` listed above it (name, 卷 and 篇 as it wrote them, line)
    seen: dict[int, list[tuple[str, str, int]]]


#: a file as ``jiaokan init`` lists it above its witness (:mod:`jiaokan.book.init`): ``#   NAME  卷 N: 篇 (how)``
_SEEN_LINE = re.compile(r"#   (\S+)  (卷 \S+: .+)$")


def _seen_by_init(text: str) -> dict[int, list[tuple[str, str, int]]]:
    """The files listed in the comment block just above each ``[[witness]]`` (what ``jiaokan init`` found)."""
    out: dict[int, list[tuple[str, str, int]]] = {}
    pending: list[tuple[str, str, int]] = []
    count = 0
    for n, line in enumerate(text.splitlines(), 1):
        m = _SEEN_LINE.match(line)
        if m:
            pending.append((m.group(1), m.group(2), n))
        elif re.match(r"\s*\[\[\s*witness\s*\]\]", line):
            count += 1
            out[count], pending = pending, []
        elif line.strip() and not line.lstrip().startswith("#"):
            pending = []
    return out


#: manifest path → (its text, the checked document): a build reads the manifest several times
_documents: dict[str, tuple[str, _Document]] = {}


def _document(corpus_dir: str | Path) -> _Document:
    """``corpus.toml`` parsed and checked against the schema (:mod:`jiaokan.corpus_schema`), once per text.

    Every way in (:func:`load_manifest`, :func:`load_collations`, …) comes through here, so
    a mistake is the same one-line :class:`InputError` with its line whatever reads it first.
    """
    from .book.pian import canonical
    from .readers.common.yili import PIAN

    mpath = Path(corpus_dir) / MANIFEST
    if not mpath.is_file():
        raise InputError(str(mpath), "no corpus manifest here (expected corpus.toml listing the witnesses: "
                         "`jiaokan init FOLDER -o DIR/corpus.toml` writes one for a folder of Kanripo files; "
                         "`--corpus DIR` names another folder)")
    try:
        text = mpath.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(str(mpath), f"malformed manifest: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    cached = _documents.get(str(mpath))
    if cached is not None and cached[0] == text:
        return cached[1]
    data = schema.parse(text, mpath)
    lines = schema.Lines(text)
    schema.check_types(data, _KNOWN_KEYS, lines, mpath)
    schema.check_tables(data, _KNOWN_KEYS[""], lines, mpath)
    _warn_once(unknown_key_warnings(data, mpath, text))
    schema.check_references(data, lines, mpath, canonical, PIAN)
    doc = _Document(data, lines, _seen_by_init(text))
    _documents[str(mpath)] = (text, doc)
    return doc


def load_manifest(corpus_dir: str | Path) -> list[Entry]:
    """Read ``corpus.toml``; a one-line :class:`InputError` for a missing, malformed or ill-typed manifest."""
    corpus_dir = Path(corpus_dir)
    mpath = corpus_dir / MANIFEST
    doc = _document(corpus_dir)
    entries: list[Entry] = []
    witnesses = doc.data.get("witness", [])
    for i, w in enumerate(witnesses, 1):
        if "files" in w and "file" not in w and "siglum" in w:
            entries.extend(_files_entries(corpus_dir, mpath, i, w, doc.lines, doc.seen.get(i, [])))
            continue
        if "file" not in w or "siglum" not in w:
            raise InputError(str(mpath), f"[[witness]] number {i} needs at least 'siglum' and 'file' (or 'files')",
                             doc.lines.of("witness", i))
        entries.append(Entry(corpus_dir / w["file"], _meta(mpath, i, w, w["file"], doc.lines),
                             listed=_named_at(mpath, doc.lines, i, "file", w)))
    if not entries:
        raise InputError(str(mpath), "the manifest lists no [[witness]]")
    _check_stems(mpath, entries)
    return entries


def _named_at(mpath: Path, lines: schema.Lines, i: int, key: str, w: dict) -> str:
    """``corpus.toml:12, [[witness]] SB``: the line of [[witness]] number ``i`` that names its file(s) (``key``), for
    :attr:`Entry.listed`."""
    line = lines.of("witness", i, key)
    return f"{mpath}{f':{line}' if line else ''}, [[witness]] {w['siglum']}"


def _meta(mpath: Path, i: int, w: dict, file: str, lines: schema.Lines) -> WitnessMeta:
    """The WitnessMeta of one file of [[witness]] number ``i``."""
    problem = siglum_problem(str(w["siglum"]))
    if problem:
        raise InputError(str(mpath), f"[[witness]] number {i} ({w.get('file') or 'files'}): {problem}",
                         lines.of("witness", i, "siglum"))
    # the ** keys are _FIELDS, all str fields of WitnessMeta; mypy cannot tell them from 'extra' (a dict)
    meta = WitnessMeta(file=file, **{k: str(w.get(k, "")) for k in _FIELDS if k != "format"}, format=w.get("format", ""))  # type: ignore[arg-type]
    if isinstance(w.get("facs_url"), str) and w["facs_url"]:  # the page images' URL template ({facs}: a page's image)
        meta.extra["facs_url"] = w["facs_url"]
    if meta.role and meta.role not in ROLES:
        raise InputError(str(mpath), f"[[witness]] number {i} ({file}): unknown role {meta.role!r}; "
                          f"known roles: {', '.join(ROLES)}", lines.of("witness", i, "role"))
    if meta.format:
        _check_format(mpath, i, file, meta.format, lines)
    return meta


def _check_format(mpath: Path, i: int, file: str, fmt: str, lines: schema.Lines) -> None:
    """A ``format`` that names no reader is the manifest's error, at its line, with a did-you-mean.

    Why here: the reader that refused it named neither the manifest nor the line ("tushu-wikisorce: unknown
    format"), and only once the file was read."""
    from .readers import READERS

    if fmt in READERS:
        return
    close = difflib.get_close_matches(fmt, list(READERS), n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}?" if close else f"known formats: {', '.join(sorted(READERS))}"
    raise InputError(str(mpath), f"[[witness]] number {i} ({file}): unknown format {fmt!r} ({hint})",
                     lines.of("witness", i, "format"))


def _files_entries(corpus_dir: Path, mpath: Path, i: int, w: dict, lines: schema.Lines,
                   seen: Sequence[tuple[str, str, int]] = ()) -> list[Entry]:
    """The files of a ``files = ["KR1d0030_0*.txt", …]`` witness, one Entry each, in 卷 order.

    Globs are relative to the manifest; a pattern that matches nothing is an error (a
    typo would otherwise drop a whole 卷 silently).  A file named outright that is missing
    is the ingest's error of that one file, as for a one-file witness: the rest still builds.  ``overrides`` (file name → table)
    sets a file's own ``chapter`` (its 篇, where the text does not say), ``format`` or ``juan``.
    The witness's ``chapter``, if any, is the 篇 of text that nothing else places.  ``seen``: the files
    ``jiaokan init`` listed above the witness; one that the patterns no longer find (deleted or renamed since)
    is warned about, with the 篇 it held, which are otherwise built without this witness in silence.
    """
    patterns = w["files"]  # checked by the schema: a string or a non-empty list of strings
    if isinstance(patterns, str):
        patterns = [patterns]
    overrides = w.get("overrides") or {}
    found: dict[Path, None] = {}  # ordered and O(1) to test: a list made 16k files quadratic
    globbed: set[Path] = set()  # the files a pattern found (not named outright): whose 卷 must not skip one
    for pat in patterns:
        hits = _glob(corpus_dir, pat) if _is_glob(pat) else [corpus_dir / pat]
        if _is_glob(pat):
            globbed.update(hits)
        if not hits:  # a glob that matches nothing: a typo, not a missing file (which ingest reports on its own)
            raise InputError(str(mpath), f"[[witness]] number {i}: 'files' entry {pat!r} matches no file "
                              f"(relative to {corpus_dir})", lines.of("witness", i, "files"))
        found.update(dict.fromkeys(hits))
    out: list[Entry] = []
    used: set[str] = set()
    for path in found:
        rel = path.relative_to(corpus_dir).as_posix() if path.is_relative_to(corpus_dir) else str(path)
        key = rel if rel in overrides else path.name
        used.add(key)
        o = overrides.get(key) or {}
        meta = _meta(mpath, i, {**w, **{k: v for k, v in o.items() if k in ("format", "juan")}}, rel, lines)
        meta.chapter = ""  # found from the text; the witness's chapter only fills what nothing places
        listed = "" if path in globbed else _named_at(mpath, lines, i, "files", w)
        out.append(Entry(path, meta, group=i, override=str(o.get("chapter", "")), listed=listed))
    for name in overrides.keys() - used:  # a misspelt file name would otherwise change nothing, silently
        raise InputError(str(mpath), f"[[witness]] number {i}: overrides for {name!r}, which none of its 'files' "
                          "matches (a misspelt name, or a file deleted or moved)",
                         lines.of("witness", i, "overrides"))
    out.sort(key=lambda e: (_juan_key(e.meta.juan or _juan_of_name(e.path.name)), e.path.name))
    _warn_once(_juan_gaps(mpath, i, w, [e for e in out if e.path in globbed], lines))
    names = {p.name for p in found}
    _warn_once([f"{mpath}:{n}: warning: [[witness]] number {i} ({w.get('siglum')}): {name} ({what}), which "
                "`jiaokan init` found for it, is no longer among its files: what it held is built without this "
                "witness (run `jiaokan init` again, or delete this line if that is meant)"
                for name, what, n in seen if name not in names])
    return out


def _juan_gaps(mpath: Path, i: int, w: dict, entries: list[Entry], lines: schema.Lines) -> list[str]:
    """A warning for each 卷 missing between the first and the last of the files a ``files`` witness's
    patterns found (``entries``; numbered 卷 only).

    Why: a file a pattern no longer matches (deleted, renamed, not copied) drops its 卷 from the
    build without an error (the pattern still matches the others), and the 篇 it held are collated without
    that witness: a scholar would read its absence as the witness's.  A 卷 before the first or after the
    last cannot be told from a witness that has no more; one in between can.  Files named outright are
    the user's choice (and one missing is an error of its own), so they are not asked.
    """
    nums = sorted({int(j) for e in entries if (j := e.meta.juan or _juan_of_name(e.path.name)).isdigit()})
    missing = sorted(set(range(nums[0], nums[-1] + 1)) - set(nums)) if nums else []
    if not missing:
        return []
    line = lines.of("witness", i, "files")
    shown = "、".join(map(str, missing[:12])) + (" …" if len(missing) > 12 else "")
    return [f"{mpath}{f':{line}' if line else ''}: warning: [[witness]] number {i} ({w.get('siglum')}): no file for "
            f"卷 {shown} (its files go from 卷 {nums[0]} to 卷 {nums[-1]}); the 篇 of a missing 卷 are built "
            "without this witness"]


#: (folder, pattern, the folder's mtime) → the regular files it matches, sorted: expanded once
#: per build, although the manifest is loaded several times
_globs: dict[tuple[str, str, int], list[Path]] = {}


def _glob(corpus_dir: Path, pat: str) -> list[Path]:
    """The regular files ``pat`` matches (relative to ``corpus_dir``), sorted, cached while their folder is unchanged.

    ``glob.glob``, not ``Path.glob``: a pattern may be absolute or climb out of the corpus
    folder (``../kanripo/…``).  The cache is keyed on the modification time of the folder
    the files are in (a file added or removed changes it); a pattern whose folders are
    themselves globs is not cached.
    """
    full = str(corpus_dir / pat)
    folder = os.path.dirname(full)
    key = None
    if not _is_glob(folder):
        try:
            key = (folder, full, os.stat(folder).st_mtime_ns)
        except OSError:
            return []
        if key in _globs:
            return _globs[key]
    hits = sorted(p for p in map(Path, glob.glob(full)) if p.is_file())
    if key is not None:
        _globs[key] = hits
    return hits


def _is_glob(pat: str) -> bool:
    return any(c in pat for c in "*?[")


def _juan_of_name(name: str) -> str:
    """``KR1d0030_013.txt`` → ``013``: the Kanripo file name numbers its 卷."""
    m = re.search(r"_(\d{1,3})\.[^.]+$", name)
    return m.group(1) if m else ""


def _juan_key(juan: str) -> tuple[int, str]:
    return (int(juan), "") if juan.isdigit() else (10**6, juan)


def witness_defaults(corpus_dir: str | Path) -> dict[int, str]:
    """[[witness]] number → its ``chapter`` (for a ``files`` witness: the 篇 of text nothing else places)."""
    data = _document(corpus_dir).data
    return {i: str(w.get("chapter", "")) for i, w in enumerate(data.get("witness", []), 1)}


def corpus_base(corpus_dir: str | Path) -> str | None:
    """``[corpus] base``: the siglum collations use as base when their table names none."""
    data = _document(corpus_dir).data
    base = data.get("corpus", {}).get("base")
    return str(base) if base else None


def _check_stems(mpath: Path, entries: list[Entry]) -> None:
    """Each witness's TEI is OUT/tei/<file stem>.xml: two files with one stem would overwrite each other."""
    seen: dict[str, str] = {}
    for e in entries:
        if e.group is not None:
            continue  # a files witness is written per 篇 (pianNN-SIGLUM.xml), not per file
        name = e.meta.file
        if e.stem in seen and seen[e.stem] != name:
            raise InputError(str(mpath), f"[[witness]] files {seen[e.stem]!r} and {name!r} would both be written "
                              f"as tei/{e.stem}.xml: give them different names")
        seen[e.stem] = name


@dataclass
class CollationSpec:
    """One collation `jiaokan build` runs: the manifest witnesses of a chapter against a base."""

    name: str
    chapter: str
    base: str | None
    entries: list[Entry]


def load_collations(corpus_dir: str | Path, entries: list[Entry]) -> list[CollationSpec]:
    """The [[collation]] tables of the manifest; without any, every chapter shared by 2+ witnesses.

    Chapters match by 篇, whatever the spelling (``乡射礼`` in one file, ``鄉射禮`` in a
    Kanripo clone): see :func:`jiaokan.book.pian.canonical`.  A generated collation is
    named by its 篇 (``pian05``) and uses ``[corpus] base`` when that witness holds the 篇.
    Front matter is never collated.
    """
    from .book.pian import FRONT, canonical, slug

    mpath = Path(corpus_dir) / MANIFEST
    doc = _document(corpus_dir)
    data = doc.data
    specs: list[CollationSpec] = []
    tables = data.get("collation")
    if tables is None:
        chapters: dict[str, list[Entry]] = {}
        for e in entries:
            if e.meta.chapter and canonical(e.meta.chapter) != FRONT:
                chapters.setdefault(canonical(e.meta.chapter), []).append(e)
        base = corpus_base(corpus_dir)
        tables = [{"name": slug(ch) if name_problem(slug(ch)) is None else f"chapter{i}", "chapter": ch}
                  | ({"base": base} if base and any(e.meta.siglum == base for e in chapters[ch]) else {})
                  for i, ch in enumerate(chapters, 1) if len(chapters[ch]) > 1]
    names: set[str] = set()
    stems = {e.stem for e in entries}
    for i, t in enumerate(tables, 1):
        line = doc.lines.of("collation", i) if "collation" in data else None
        if "chapter" not in t:
            raise InputError(str(mpath), f"[[collation]] number {i} needs a 'chapter'", line)
        name = str(t.get("name", f"chapter{i}"))
        problem = name_problem(name) or (siglum_problem(str(t["base"])) if "base" in t else None)
        if problem:
            raise InputError(str(mpath), f"[[collation]] number {i}: {problem}", line)
        if name in names:
            raise InputError(str(mpath), f"[[collation]] number {i}: name {name!r} is used twice (it names the "
                              "output files apparatus/NAME.xml and .json)", line)
        names.add(name)
        if name in stems:
            raise InputError(str(mpath), f"[[collation]] number {i}: name {name!r} is also a witness file's name "
                              "(both would be written as tei/NAME.xml in the site): choose another", line)
        members = [e for e in entries if e.meta.chapter and canonical(e.meta.chapter) == canonical(str(t["chapter"]))]
        specs.append(CollationSpec(name, t["chapter"], t.get("base"), members))
    return specs


def find_entry(path: str | Path) -> Entry | None:
    """The manifest entry for ``path`` when it sits in a corpus folder, else None."""
    path = Path(path).resolve()
    mpath = path.parent / MANIFEST
    if not mpath.is_file():
        return None
    try:
        for e in load_manifest(path.parent):
            if e.path.resolve() == path:
                return e
    except InputError:
        return None
    return None
