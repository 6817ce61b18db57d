"""The teiHeader skeleton shared by the files that relate several witnesses (apparatus, emendations).

Witness transcriptions have their own, richer header (:mod:`.writer`); the
files that compare witnesses all need the same: a title, jiaokan's
responsibility, the licences of what they quote, the witnesses in ``listWit``
(with the TEI file each one is in) and how variants are encoded.
"""

from __future__ import annotations

import hashlib
import re
from copy import copy
from functools import lru_cache
from importlib import metadata, resources
from typing import Callable

from lxml import etree

from .. import __version__
from ..model import Witness
from .build import E, language_tag

#: What a ``publicationStmt`` says of a file jiaokan writes: software is no publisher (TEI: ``authority``
#: is whoever makes the file available; here nobody has yet).
AUTHORITY = "not published: a working file made with jiaokan from the sources described below"

#: Licences jiaokan can name with their deed (``licence/@target``), by how manifests spell them.
_LICENCE_URLS = (
    (re.compile(r"CC[ -]BY[ -]SA(?:[ -](\d\.\d))?", re.I), "https://creativecommons.org/licenses/by-sa/{v}/"),
    (re.compile(r"CC[ -]BY(?![ -]SA)(?:[ -](\d\.\d))?", re.I), "https://creativecommons.org/licenses/by/{v}/"),
    (re.compile(r"CC0(?:[ -](\d\.\d))?", re.I), "https://creativecommons.org/publicdomain/zero/{v}/"),
)
_FREE = re.compile(r"public domain|CC[ -]?BY|CC0|公有领域|公共領域", re.I)
_RESTRICTED = re.compile(r"all rights reserved|not for (re)?distribution|版权所有|版權所有", re.I)


def licence_url(licence: str) -> str | None:
    """The deed of a Creative Commons licence named in ``licence`` (the first one), else None."""
    for pat, url in _LICENCE_URLS:
        m = pat.search(licence)
        if m:
            return url.format(v=m.group(1) or "4.0")
    return None


def licence_status(licences: list[str]) -> str:
    """``availability/@status``: ``free`` when every part of every licence is one anyone may reuse
    (public domain, Creative Commons), ``restricted`` when one reserves rights, else ``unknown``."""
    parts = [p.strip() for lic in licences for p in lic.split(";") if p.strip()]
    if not parts:
        return "unknown"
    if any(_RESTRICTED.search(p) for p in parts):
        return "restricted"
    return "free" if all(_FREE.search(p) for p in parts) else "unknown"


def availability(licences: dict[str, list[str]]) -> etree._Element:
    """``availability`` with one ``licence`` per distinct licence (``@corresp``: the witnesses it covers)."""
    named = {lic: sig for lic, sig in licences.items() if lic}
    kids = [E.licence(lic, target=licence_url(lic), corresp=" ".join("#" + s for s in sig) if sig else None)
            for lic, sig in named.items()]
    return E.availability(*(kids or [E.licence("unknown: the manifest names no licence")]),
                          status=licence_status(list(named)))


@lru_cache(maxsize=None)
def _version(dist: str) -> str | None:
    """A distribution's version as TEI's versionNumber allows (digits, at most three parts), or None.

    Once per process: the metadata lookup reads the installed distributions' folders, and every
    TEI file's header asks (a build writes a few hundred)."""
    try:
        return _numeric(metadata.version(dist))
    except metadata.PackageNotFoundError:
        return None


def _numeric(v: str) -> str | None:
    m = re.match(r"\d+(?:\.\d+){0,2}", v)
    return m.group() if m else None


@lru_cache(maxsize=1)
def tables_digest() -> str:
    """A digest of the comparison tables shipped in ``jiaokan/data`` (what decides "script only")."""
    h = hashlib.sha256()
    data = resources.files("jiaokan") / "data"
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".tsv"):
            h.update(entry.name.encode() + b"\0" + entry.read_bytes())
    return h.hexdigest()[:16]


def app_info() -> etree._Element:
    """``appInfo``: the software that made the file, with the versions that decide its content.

    jiaokan itself; OpenCC, whose conversion tables decide what is a difference of script
    only (賓/宾), not a variant; and the variant, taboo and gaiji tables of ``jiaokan/data``
    (their digest in ``@n``: the tables change with the data, not only with releases).

    A copy of one built once per process (:func:`fixed`): nothing in it changes while the process runs.
    """
    return fixed(_app_info)


def fixed(make: Callable[[], etree._Element]) -> etree._Element:
    """A copy of the element ``make`` builds, built once per process: for the parts of a header that are
    the same in every file (a build writes a few hundred headers; copying a built element is done in C,
    where building it again is a Python call per element, some 6 µs each)."""
    el = _FIXED.get(make)
    if el is None:
        el = _FIXED[make] = make()
    return copy_element(el)


def copy_element(el: etree._Element) -> etree._Element:
    """A copy of ``el`` and all below it, in a document of its own.

    What ``copy.deepcopy`` gives: lxml's ``__deepcopy__`` returns ``__copy__()``, which copies the whole
    subtree in C, so ``copy.copy`` is no shallow copy here; it goes without deepcopy's memo and
    bookkeeping in Python around it, half the time of copying a header's part (a build copies some two
    thousand)."""
    return copy(el)


_FIXED: dict[Callable[[], etree._Element], etree._Element] = {}


def _app_info() -> etree._Element:
    opencc = _version("opencc")
    return E.appInfo(
        E.application(E.label("jiaokan"), E.desc("reading, layering, collation and 案 checking"),
                      ident="jiaokan", version=_numeric(__version__)),
        E.application(E.label("OpenCC"), E.desc("traditional/simplified conversion: script differences are not variants"),
                      ident="OpenCC", version=opencc) if opencc else None,
        E.application(E.label("jiaokan comparison tables"),
                      E.desc("data/*.tsv: variant forms (Unihan, yitizi, hand table), taboo forms, gaiji, minor pairs"),
                      ident="jiaokan-tables", version=_numeric(__version__), n=f"sha256:{tables_digest()}"),
    )


def comparison_document(
    title: str,
    role: str,
    witnesses: list[Witness],
    tei_names: dict[str, str],
    variant_encoding: tuple[str, str],
    editorial: list[str],
    class_decl: etree._Element | None = None,
) -> tuple[etree._Element, etree._Element]:
    """A new ``TEI`` root and its ``teiHeader`` for a file comparing ``witnesses`` (first = base).

    ``role`` says what jiaokan did (collation, checking 案 notes); ``variant_encoding``
    is (method, location) of ``variantEncoding``; ``editorial`` the paragraphs of the
    ``editorialDecl``; ``class_decl`` a ``classDecl`` (the taxonomy ``@ana`` points into).
    Callers append to the header (more respStmts, sources) as needed.
    """
    licences: dict[str, list[str]] = {}
    for w in witnesses:
        licences.setdefault(w.meta.licence, []).append(w.meta.siglum)
    header = E.teiHeader(
        E.fileDesc(
            E.titleStmt(
                E.title(title, type="main"),
                E.respStmt(E.resp(role), E.name(f"jiaokan {__version__}", type="software")),
            ),
            E.publicationStmt(
                E.authority(AUTHORITY),
                availability(licences),
            ),
            E.sourceDesc(E.listWit(*(
                E.witness(E.title(w.meta.title or w.meta.file),
                          E.idno(tei_names.get(w.meta.siglum, ""), type="tei"),
                          xml_id=w.meta.siglum)
                for w in witnesses))),
        ),
        E.encodingDesc(
            app_info(),
            E.variantEncoding(method=variant_encoding[0], location=variant_encoding[1]),
            E.editorialDecl(*(E.p(p) for p in editorial)),
            class_decl,
        ),
    )
    root = E.TEI(header, xml_lang=language_tag(witnesses[0].meta.script if witnesses else ""))
    return root, header
