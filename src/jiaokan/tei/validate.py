"""Validation of what jiaokan writes: the project profile, TEI's tei_all, and the layer rule.

The profile (``schemas/jiaokan.rng``) encodes the project's own constraints;
tei_all (the official TEI P5 schema) guarantees other TEI tools can read the
files; :func:`layer_errors` checks the one rule RELAX NG cannot say directly:
every character sits in an element whose nearest ``@type`` is a layer.

tei_all is large: lxml (libxml2) compiles it in ~15–20 s per process, while
``jing`` (James Clark's validator, Debian package ``jing``) reads it in about a
second, so tei_all goes through jing when it is on PATH and lxml otherwise.
The project profile is small and always goes through lxml.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Sequence

from lxml import etree

from ..model import LAYERS
from ..errors import InputError
from ..io import atomic_write_bytes
from .build import tei_bytes
from .parse import parse_xml, parse_xml_bytes
from .writer import TEI_NS

_T = "{%s}" % TEI_NS


def find_schema_dir() -> Path:
    """Where the profile ``jiaokan.rng`` is: ``$JIAOKAN_SCHEMAS``; else the copy installed with the
    package (``jiaokan/schemas/``, put there by the build: see ``setup.py``); else the
    ``schemas/`` folder of the checkout this package runs from (an editable install)."""
    env = os.environ.get("JIAOKAN_SCHEMAS")
    if env:
        return Path(env)
    return _installed_schema_dir()


@lru_cache(maxsize=1)
def _installed_schema_dir() -> Path:
    """The schema folder that comes with the code: looked up once per process (every TEI file
    written is checked against the profile, and the lookup stats the file system each time)."""
    packaged = Path(str(files("jiaokan").joinpath("schemas")))
    if (packaged / "jiaokan.rng").is_file():
        return packaged
    here = Path(__file__).resolve()
    for parent in here.parents:
        cand = parent / "schemas" / "jiaokan.rng"
        if cand.is_file():
            return cand.parent
    raise FileNotFoundError(errno.ENOENT, "cannot find the TEI profile (neither installed with the package nor in "
                            "a checkout's schemas/); set JIAOKAN_SCHEMAS to the folder that holds it", "jiaokan.rng")


@lru_cache(maxsize=4)
def load_rng(path: str) -> etree.RelaxNG:
    """Compile a RELAX NG schema once per process (tei_all takes ~15 s); a one-line error if it cannot be."""
    if not Path(path).is_file():
        hint = f": get the official TEI schema with `curl -O {TEI_ALL_URL}`" if Path(path).name == "tei_all.rng" else ""
        raise InputError(path, f"no such schema file{hint}")
    try:
        return etree.RelaxNG(etree.parse(path))
    except (etree.XMLSyntaxError, etree.RelaxNGParseError) as exc:
        raise InputError(path, f"not a RELAX NG schema (XML syntax): {str(exc).splitlines()[0][:200]}") from None


#: Where the TEI Consortium publishes tei_all.rng (the schema of every TEI element), for users without one.
TEI_ALL_URL = "https://www.tei-c.org/release/xml/tei/custom/schema/relaxng/tei_all.rng"


def profile_schema() -> etree.RelaxNG:
    return load_rng(str(find_schema_dir() / "jiaokan.rng"))


_RNG = "{http://relaxng.org/ns/structure/1.0}"
#: patterns whose children are a group (in a ``choice``, say, they are alternatives: left as they are)
_GROUPS = frozenset(_RNG + t for t in ("element", "define", "group"))


def _optional_attribute(el: etree._Element) -> bool:
    return el.tag == _RNG + "optional" and len(el) == 1 and el[0].tag == _RNG + "attribute"


@lru_cache(maxsize=4)
def _quick_rng(path: str) -> etree.RelaxNG:
    """The schema at ``path`` with its optional attributes interleaved (:func:`_interleave_optional_attributes`),
    which libxml2 checks in about half the time: for a yes or no only (:func:`tree_errors`), since where an
    attribute is wrong its messages say less than the schema's own."""
    load_rng(path)  # (a missing or broken schema: its error, as the checks without this one give it)
    root = etree.parse(path).getroot()
    _interleave_optional_attributes(root)
    return etree.RelaxNG(root)


def _interleave_optional_attributes(root: etree._Element) -> None:
    """Make each run of two or more optional attributes in a group (of a RELAX NG schema) an ``interleave``.

    The same language: attributes have no order, and RELAX NG gives a group and an interleave of them one
    meaning.  Why: libxml2 checks the interleave faster (the profile has up to eleven optional attributes
    on an element; the book's 120 TEI files took 0.26 s to check against the profile, 0.16 s against this).
    """
    for parent in list(root.iter(*_GROUPS)):
        run: list[etree._Element] = []
        for child in [*parent, None]:
            if child is not None and not isinstance(child.tag, str):
                continue  # a comment: neither in a run nor the end of one
            if child is not None and _optional_attribute(child):
                run.append(child)
                continue
            if len(run) >= 2:
                both = etree.Element(_RNG + "interleave")
                run[0].addprevious(both)
                both.extend(run)
            run = []


@dataclass
class Report:
    file: str
    errors: list[str] = field(default_factory=list)
    validator: str = "lxml"  # what checked tei_all (when asked): "jing" or "lxml"

    @property
    def ok(self) -> bool:
        return not self.errors


def layer_errors(root: etree._Element, limit: int = 20) -> list[str]:
    """Text in a witness body whose nearest ``@type`` is not a layer (apparatus files are exempt).

    The nearest ``@type`` of a text node is that of the first ancestor (of the element holding the
    text, or the parent of the one whose tail it is) that has one; one XPath finds the text nodes
    whose nearest ``@type`` is not a layer, in C, and Python looks at those only (a witness has
    hundreds of thousands of text nodes, all but a few in a layer).  It is asked only where
    :func:`_maybe_unlayered` says there may be any: the elements that could own such text are few.
    """
    text_el = root.find(_T + "text")
    if text_el is None:
        return ["no <text> element"]
    if text_el.find(".//" + _T + "app") is not None or not _maybe_unlayered(text_el):
        return []
    return _unlayered(text_el, limit)


def _unlayered(text_el: etree._Element, limit: int) -> list[str]:
    """:func:`layer_errors` of ``text_el``, each text node asked (:data:`_UNLAYERED`)."""
    errors: list[str] = []
    found = _UNLAYERED(text_el)
    if text_el.tail is not None:  # (not below it, but read as ever: its tail is in the TEI root)
        found.append(text_el.xpath("following-sibling::text()[1]")[0])
    for s in found:
        el = s.getparent()  # the element whose text or tail it is
        if s.strip() and isinstance(el.tag, str):  # (str.strip: also U+3000, which XPath's space is not)
            t = _nearest_type(el if s.is_text else el.getparent())
            errors.append(f"line {el.sourceline}: text {s.strip()[:12]!r} has no layer (nearest @type={t!r})")
            if len(errors) >= limit:
                break
    return errors


#: Text nodes below an element whose nearest ``@type`` (see :func:`layer_errors`) is no layer.
_UNLAYERED = etree.XPath(".//text()[not(ancestor::*[@type][1][{}])]".format(
    " or ".join(f"@type='{layer}'" for layer in LAYERS)))


def _maybe_unlayered(text_el: etree._Element) -> bool:
    """Could :func:`layer_errors` find anything in ``text_el``?  False only where it surely finds nothing.

    Why: :data:`_UNLAYERED` asks each of a witness's hundreds of thousands of text nodes for its
    nearest ``@type``, and libxml2 evaluates that predicate slowly (a fifth of writing a witness's
    TEI), while its answer is almost always "none".  Here the question is turned around: the
    elements whose ``@type`` is no layer (a witness's ``div``s; ``text_el`` itself when no ``@type``
    is above it) are found in one walk in C, and only the text each *owns* is looked at: its own,
    its children's tails, and that of its children without ``@type``, down to the next ``@type``
    (a ``div``'s are its pieces' tails).  Text with a layer for its nearest ``@type`` is owned by no
    such element; so where none owns any but white space there is nothing to find.
    """
    owners = [el for el in text_el.iter("*") if (t := el.get("type")) is not None and t not in _LAYER_SET]
    if _nearest_type(text_el) not in _LAYER_SET:
        owners.append(text_el)  # (again, maybe: no matter)
    if any(_owns_text(el) for el in owners):
        return True
    tail = text_el.tail  # in the TEI root: reported whatever the root's @type (see _unlayered)
    return bool(tail and tail.strip())


def _owns_text(el: etree._Element) -> bool:
    """Does ``el`` hold text (not white space) whose nearest ``@type`` is ``el``'s (see :func:`_maybe_unlayered`)?
    The tails of comments and processing instructions are not looked at, as :func:`layer_errors` does not."""
    if el.text and el.text.strip():
        return True
    for child in el.iterchildren("*"):  # ("*": elements only, no comment's tail, chosen in C)
        tail = child.tail
        if tail and tail.strip():
            return True
        if child.get("type") is None and _owns_text(child):
            return True
    return False


_LAYER_SET: frozenset[str | None] = frozenset(LAYERS)


def _nearest_type(el: etree._Element | None) -> str | None:
    while el is not None:
        t = el.get("type")
        if t is not None:
            return t
        el = el.getparent()
    return None


#: How jiaokan parses TEI it validates: its own outputs may hold very long text nodes (a
#: one-line export), and nothing in them is resolved or fetched (no entities, DTD, network).
def _parse_error(exc: InputError) -> str:
    return f"line {exc.line}: {exc.message}" if exc.line else exc.message


def validate_bytes(data: bytes, name: str, tei_all: str | Path | None = None) -> Report:
    """Validate serialized TEI against the profile (and tei_all) and the layer rule."""
    rep = Report(name)
    try:
        doc = parse_xml_bytes(data, name)
    except InputError as exc:
        rep.errors.append(_parse_error(exc))
        return rep
    for label, schema in (("jiaokan profile", profile_schema()),) + (
        (("tei_all", load_rng(str(tei_all))),) if tei_all else ()
    ):
        if not schema.validate(doc):
            for e in list(schema.error_log)[:10]:
                rep.errors.append(f"line {e.line}: {label}: {e.message}")
    rep.errors.extend(layer_errors(doc.getroot()))
    return rep


def profile_check(data: bytes) -> list[str]:
    """The check every TEI writer runs before its file is renamed into place
    (:func:`jiaokan.io.atomic_write_bytes`): the profile and the layer rule."""
    return validate_bytes(data, "").errors


def tree_errors(tree: etree._ElementTree | etree._Element) -> list[str]:
    """:func:`profile_check` of a tree in memory: the profile and the layer rule, without parsing
    again what was just built (the same answer: serializing changes no element, attribute or
    text, only adds indentation, which neither the profile nor the layer rule reads).  Asked first of the
    profile with its optional attributes interleaved (:func:`_quick_rng`: the same yes or no, sooner), then,
    if that says no, of the profile itself, for its messages."""
    doc = tree if isinstance(tree, etree._ElementTree) else etree.ElementTree(tree)
    if _quick_rng(str(find_schema_dir() / "jiaokan.rng")).validate(doc):
        errors = []
    else:  # (the same answer; the profile itself says what is wrong)
        schema = profile_schema()
        errors = [] if schema.validate(doc) else [f"jiaokan profile: {e.message}" for e in list(schema.error_log)[:10]]
    return errors + layer_errors(doc.getroot())


def write_checked(path: str | Path, tree: etree._ElementTree | etree._Element) -> Path:
    """Write a TEI document to ``path`` (:func:`~jiaokan.tei.build.tei_bytes`) atomically, once the
    tree is valid against the profile and the layer rule (else :class:`~jiaokan.io.InvalidOutput`).

    The one way jiaokan writes a TEI file it made.  The tree is checked in memory
    (:func:`tree_errors`); only if it fails are the bytes parsed (:func:`profile_check`), for the
    line numbers the error gives.
    """
    def check(data: bytes) -> list[str]:
        if not tree_errors(tree):
            return []
        return profile_check(data) or tree_errors(tree)

    path = Path(path)
    atomic_write_bytes(path, tei_bytes(tree), check=check)
    return path


def jing_command() -> str | None:
    """The ``jing`` executable on PATH, or None (then tei_all is checked with lxml)."""
    return shutil.which("jing")


_JING_LINE = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<msg>.*)$")


def jing_errors(schema: str | Path, paths: list[str], jing: str, limit: int = 10) -> dict[str, list[str]]:
    """Validate ``paths`` against ``schema`` in one jing run (one JVM, one schema load).

    Returns the errors per file (at most ``limit`` each), formatted as lxml's are.
    Raises RuntimeError when jing itself fails (a broken install, an unreadable schema):
    the caller then falls back to lxml rather than calling the files invalid.
    """
    abs_paths = [str(Path(p).resolve()) for p in paths]
    proc = subprocess.run([jing, str(schema), *abs_paths], capture_output=True, text=True, encoding="utf-8",
                          errors="replace")
    by_abs = {a: p for a, p in zip(abs_paths, paths)}
    out: dict[str, list[str]] = {p: [] for p in paths}
    for line in proc.stdout.splitlines():
        m = _JING_LINE.match(line)
        if not m:
            continue
        f = by_abs.get(str(Path(m["file"]).resolve()))
        if f is None:  # an error in the schema itself
            raise RuntimeError(f"jing: {line}")
        if len(out[f]) < limit:
            out[f].append(f"line {m['line']}: tei_all: {m['msg']}")
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not any(out.values())):
        raise RuntimeError(f"jing failed (status {proc.returncode}): {(proc.stdout + proc.stderr).strip()[-300:]}")
    return out


def validate_files(paths: Sequence[str | Path], tei_all: str | Path | None = None) -> list[Report]:
    """Validate several files; tei_all (when given) in one jing run for all of them when jing is installed."""
    reports = [Report(str(path)) for path in paths]
    by_file = {r.file: r for r in reports}
    parsed: dict[str, etree._ElementTree] = {}
    for rep in reports:
        path = rep.file
        try:
            doc = parse_xml(path)
        except InputError as exc:
            rep.errors.append(_parse_error(exc))
            continue
        parsed[rep.file] = doc
        schema = profile_schema()
        if not schema.validate(doc):
            for e in list(schema.error_log)[:10]:
                rep.errors.append(f"line {e.line}: jiaokan profile: {e.message}")
    if tei_all and parsed:
        jing = jing_command()
        found: dict[str, list[str]] | None = None
        if jing:
            try:
                found = jing_errors(tei_all, list(parsed), jing)
            except (RuntimeError, OSError):
                found = None  # jing is broken here: lxml still gives the right answer, only slower
        for f, doc in parsed.items():
            rep = by_file[f]
            if found is not None:
                rep.validator = "jing"
                rep.errors.extend(found[f])
                continue
            schema = load_rng(str(tei_all))
            if not schema.validate(doc):
                for e in list(schema.error_log)[:10]:
                    rep.errors.append(f"line {e.line}: tei_all: {e.message}")
    for f, doc in parsed.items():
        by_file[f].errors.extend(layer_errors(doc.getroot()))
    return reports


def validate_file(path: str | Path, tei_all: str | Path | None = None) -> Report:
    """One file against the project profile (and tei_all), plus the layer rule."""
    return validate_files([path], tei_all)[0]
