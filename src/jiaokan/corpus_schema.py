"""The corpus manifest's schema: what each key of ``corpus.toml`` must hold, checked on entry.

Why a schema and not checks where the values are used: a value of the wrong type used to
travel until something tripped on it (``corpus = "x"``: an AttributeError; ``file = 5``: a
TypeError), or was quietly turned into something else (``siglum = true`` became the siglum
``True``; ``chapter = ["大射仪"]`` matched no witness, so the collation was skipped with a
note on stdout and every 案 note of its 篇 was "not covered").  Here every mistake is one
line naming the manifest, the line of the key and what was expected, before any file is
read.

Extending it: a new key goes into :data:`jiaokan.corpus._KNOWN_KEYS` (the table it may
appear in); it is a string unless :data:`TYPES` says otherwise.

Two checks precede the TOML parser, which is recursive and quadratic in the length of a
dotted key: nesting deeper than :data:`MAX_DEPTH` (``x = [[[[…]]]]``) and keys of more
than :data:`MAX_DEPTH` dotted parts are refused with their line.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from pathlib import Path
from typing import Callable, Mapping, Sequence

from .errors import InputError
from .names import siglum_problem

#: Deeper than this, arrays, inline tables and dotted keys are refused (a manifest needs 3).
MAX_DEPTH = 32

#: Collation names the site and the apparatus use for themselves: ``search/book.js`` is
#: the book-wide search index, ``index.html`` the contents page.
RESERVED_NAMES = {"book": "the book-wide search index (search/book.js)", "index": "the contents page (index.html)"}

#: A check returns None when the value is fine, else what was expected.
Check = Callable[[object], "str | None"]


def _str(v: object) -> str | None:
    return None if isinstance(v, str) else "a string"


def _str_or_int(v: object) -> str | None:
    return None if isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool)) else "a string or a number"


def _files(v: object) -> str | None:
    if isinstance(v, str):
        return None if v else "a file name or glob, not an empty string"
    if isinstance(v, list) and all(isinstance(x, str) and x for x in v):
        return None if v else "a non-empty list of file names or globs (files = [] lists nothing)"
    return "a list of file names or globs (strings)"


def _table(v: object) -> str | None:
    return None if isinstance(v, dict) else "a table"


def _tables(v: object) -> str | None:
    return None if isinstance(v, list) and all(isinstance(x, dict) for x in v) else "a list of tables"


def _strings(v: object) -> str | None:
    return None if isinstance(v, list) and all(isinstance(x, str) for x in v) else "a list of strings"


def _overrides(v: object) -> str | None:
    ok = isinstance(v, dict) and all(isinstance(x, dict) for x in v.values())
    return None if ok else "tables keyed by file name ([witness.overrides.\"NAME.txt\"])"


#: (table kind, key) → its check; a key not named here is a string.  Kinds as in
#: ``_KNOWN_KEYS``: "" (the top level), "corpus", "witness", "collation", "override".
TYPES: dict[tuple[str, str], Check] = {
    ("", "corpus"): _table,
    ("", "witness"): _tables,
    ("", "collation"): _tables,
    ("", "variants"): _table,
    ("variants", "accept"): _strings,
    ("variants", "reject"): _strings,
    ("witness", "files"): _files,
    ("witness", "overrides"): _overrides,
    ("witness", "juan"): _str_or_int,
    ("override", "juan"): _str_or_int,
}

_HOW = {"": "the manifest's top level", "corpus": "[corpus]", "variants": "[variants]"}


def _describe(v: object) -> str:
    """``the integer 5``, ``a list``, ``true``: what the manifest holds, for the message."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return f"the number {v}"
    if isinstance(v, str):
        return f"the string {v[:40]!r}"
    if isinstance(v, list):
        return f"a list of {len(v)}"
    if isinstance(v, dict):
        return "a table"
    return f"a {type(v).__name__}"


# ------------------------------------------------------------------------- before the parser

_TOKEN_RE = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}\n.=,]')


def check_depth(text: str, mpath: Path) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH`, in one linear pass, before ``tomllib`` recurses into it."""
    depth, dots, line = 0, 0, 1
    for m in _TOKEN_RE.finditer(text):
        tok = m.group(0)
        if tok[0] in "\"'#":
            line += tok.count("\n")
            continue
        if tok == "\n":
            line += 1
            dots = 0
        elif tok in "[{":
            depth += 1
            dots = 0
            if depth > MAX_DEPTH:
                raise InputError(str(mpath), f"arrays or tables nested more than {MAX_DEPTH} deep", line)
        elif tok in "]}":
            depth = max(0, depth - 1)
        elif tok == ".":
            dots += 1
            if dots >= MAX_DEPTH:
                raise InputError(str(mpath), f"a dotted key of more than {MAX_DEPTH} parts", line)
        else:  # = ,
            dots = 0


def parse(text: str, mpath: Path) -> dict:
    """The manifest's TOML, or a one-line :class:`InputError` (malformed, or nested too deeply)."""
    check_depth(text, mpath)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(mpath), f"malformed manifest: {exc}") from None
    except RecursionError:  # pragma: no cover - check_depth refuses such nesting first
        raise InputError(str(mpath), "malformed manifest: nested too deeply") from None


# ------------------------------------------------------------------------- after the parser

class Lines:
    """Where each table and key of the manifest is set: (kind, number, key) → line; key "" is the table's header."""

    def __init__(self, text: str) -> None:
        self.at: dict[tuple[str, int, str], int] = {}
        kind, counts = "", {"": 1}
        for n, line in enumerate(text.splitlines(), 1):
            m = re.match(r"\s*\[\[?\s*([A-Za-z_-]+)\s*\]", line)
            if m:
                kind = m.group(1)
                counts[kind] = counts.get(kind, 0) + 1
                self.at.setdefault((kind, counts[kind], ""), n)
                continue
            # a sub-table of the last table of its kind (``[witness.overrides."x.txt"]``): its name is a key of that
            # table, set on this line; without this a misspelt sub-table was warned about with no line to look at
            m = re.match(r"\s*\[\s*([A-Za-z_-]+)\s*\.\s*[\"']?([A-Za-z0-9_-]+)", line)
            if m:
                kind = m.group(1)
                self.at.setdefault((kind, counts.get(kind, 0), m.group(2)), n)
                continue
            m = re.match(r"\s*[\"']?([A-Za-z0-9_-]+)[\"']?\s*[.=]", line)
            if m:
                self.at.setdefault((kind, counts.get(kind, 0), m.group(1)), n)

    def of(self, kind: str, i: int, key: str = "") -> int | None:
        return self.at.get((kind, i, key)) or self.at.get((kind, i, ""))


def check_types(data: dict, known: Mapping[str, tuple[str, ...]], lines: Lines, mpath: Path) -> None:
    """Every known key holds a value of its type; the first that does not is a one-line error."""

    def fail(kind: str, i: int, key: str, where: str, v: object, expected: str) -> None:
        line = lines.of("witness" if kind == "override" else kind, i, key)  # an override's keys sit in its witness
        raise InputError(str(mpath), f"{where}: '{key}' must be {expected}, not {_describe(v)}", line)

    def check(table: Mapping[str, object], kind: str, i: int, where: str) -> None:
        for key, v in table.items():
            if key not in known[kind]:
                continue  # an unknown key is warned about (with a did-you-mean), not refused
            expected = TYPES.get((kind, key), _str)(v)
            if expected:
                fail(kind, i, key, where, v, expected)

    check(data, "", 1, _HOW[""])
    for kind in ("corpus", "variants"):
        table = data.get(kind)
        if isinstance(table, dict):
            check(table, kind, 1, _HOW[kind])
    for kind in ("witness", "collation"):
        tables = data.get(kind)
        for i, t in enumerate(tables if isinstance(tables, list) else [], 1):
            assert isinstance(t, dict)  # _tables checked it
            check(t, kind, i, f"[[{kind}]] number {i}")
            for name, o in (t.get("overrides") or {}).items() if kind == "witness" else ():
                check(o, "override", i, f"[[witness]] number {i}, overrides of {name!r}")


def check_tables(data: dict, tables: Sequence[str], lines: Lines, mpath: Path) -> None:
    """A table of the manifest misspelt (``[[witnes]]``, ``[[colation]]``) is an error, at its header's line.

    Why not a warning, as a misspelt key is: the table is a whole witness (or collation) that the build would
    leave out, and it said "7/7 witnesses" and exit 0 with the warning scrolled away.  A table whose name is near
    no table of the manifest stays a warning (a scholar's own notes in a table of their own)."""
    for k, v in data.items():
        if k in tables or not (isinstance(v, dict) or (isinstance(v, list) and v and all(isinstance(t, dict) for t in v))):
            continue
        close = difflib.get_close_matches(k, tables, n=1, cutoff=0.6)
        if close:
            brackets = ("[[", "]]") if isinstance(v, list) else ("[", "]")
            what = {"witness": "a witness", "collation": "a collation"}.get(close[0], "its settings")
            raise InputError(str(mpath), f"unknown table {brackets[0]}{k}{brackets[1]}: did you mean "
                             f"{brackets[0]}{close[0]}{brackets[1]}? (as written, {what} would be left out)",
                             lines.of(k, 1))


def check_references(data: dict, lines: Lines, mpath: Path,
                     canonical: Callable[[str], str], book_chapters: tuple[str, ...]) -> None:
    """Names that must refer to something: a collation's ``chapter`` (a 篇 of the book or a witness's
    chapter), every ``base`` (the siglum of a witness), collation names the site uses for itself."""
    witnesses = [w for w in data.get("witness") or [] if isinstance(w, dict)]
    sigla = sorted({w["siglum"] for w in witnesses if isinstance(w.get("siglum"), str)})
    chapters = {canonical(c) for c in book_chapters}
    for w in witnesses:
        if isinstance(w.get("chapter"), str):
            chapters.add(canonical(w["chapter"]))
        for o in (w.get("overrides") or {}).values():
            if isinstance(o.get("chapter"), str):
                chapters.add(canonical(o["chapter"]))

    def unknown_base(base: object, kind: str, i: int, where: str) -> None:
        if isinstance(base, str) and siglum_problem(base):
            raise InputError(str(mpath), f"{where}: {siglum_problem(base)}", lines.of(kind, i, "base"))
        if isinstance(base, str) and base not in sigla:
            close = difflib.get_close_matches(base, sigla, n=1, cutoff=0.5)
            hint = f"did you mean {close[0]!r}?" if close else f"the sigla are {', '.join(sigla) or 'none'}"
            raise InputError(str(mpath), f"{where}: base {base!r} is not the siglum of any [[witness]] ({hint})",
                             lines.of(kind, i, "base"))

    corpus = data.get("corpus")
    if isinstance(corpus, dict):
        unknown_base(corpus.get("base"), "corpus", 1, "[corpus]")
    tables = data.get("collation")
    for i, t in enumerate(tables if isinstance(tables, list) else [], 1):
        where = f"[[collation]] number {i}"
        unknown_base(t.get("base"), "collation", i, where)
        ch = t.get("chapter")
        if isinstance(ch, str) and canonical(ch) not in chapters:
            named = sorted({c for c in chapters if c not in book_chapters} | set(book_chapters))
            close = difflib.get_close_matches(canonical(ch), named, n=1, cutoff=0.3)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise InputError(str(mpath), f"{where}: chapter {ch!r} is neither a 篇 of the book nor the chapter "
                             f"of any [[witness]]{hint}", lines.of("collation", i, "chapter"))
        name = t.get("name")
        if isinstance(name, str) and name.lower() in RESERVED_NAMES:
            raise InputError(str(mpath), f"{where}: the name {name!r} is reserved for {RESERVED_NAMES[name.lower()]}; "
                             "choose another", lines.of("collation", i, "name"))
