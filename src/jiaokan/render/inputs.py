"""`jiaokan render` inputs → chapters: apparatus files become collation pages, other witnesses single pages.

An apparatus TEI file is re-collated from the witness TEI files it lists
(:func:`jiaokan.collate.apparatus_reader.load_apparatus`); a witness TEI file that no
apparatus among the inputs uses gets a single-witness chapter page.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from ..errors import InputError
from ..collate.apparatus_reader import is_apparatus, load_apparatus
from .chapter import Chapter


def _kind(path: Path) -> str:
    try:
        root = etree.parse(str(path)).getroot()
    except OSError:
        raise InputError(str(path), "no such file or not readable") from None
    except etree.XMLSyntaxError as exc:
        raise InputError(str(path), f"not well-formed XML: {exc.msg}", exc.lineno) from None
    return "apparatus" if is_apparatus(root) else "witness"


def load_inputs(inputs: list[str | Path]) -> tuple[list[Chapter], dict[str, Path]]:
    """Chapters to render, and href → file for every TEI file to copy into the site (``tei/NAME``)."""
    from ..tei.reader import read_tei

    paths = [Path(p) for p in inputs]
    kinds = {p: _kind(p) for p in paths}
    chapters: list[Chapter] = []
    copies: dict[str, Path] = {}
    used: set[Path] = set()
    names: set[str] = set()
    for p in paths:
        if kinds[p] != "apparatus":
            continue
        col, files = load_apparatus(p, [q for q in paths if kinds[q] == "witness"])
        used.update(f.resolve() for f in files.values())
        tei = {s: f"tei/{f.name}" for s, f in files.items()}
        copies.update({f"tei/{f.name}": f for f in files.values()})
        copies[f"tei/{p.name}"] = p
        name = _unique(p.stem, names)
        chapters.append(Chapter(name, dict(col.witnesses), col, tei_files=tei, apparatus_file=f"tei/{p.name}"))
    for p in paths:
        if kinds[p] != "witness" or p.resolve() in used:
            continue
        w = read_tei(p)
        copies[f"tei/{p.name}"] = p
        chapters.append(Chapter(_unique(p.stem, names), {w.meta.siglum: w}, None, tei_files={w.meta.siglum: f"tei/{p.name}"}))
    return chapters, copies


def _unique(stem: str, names: set[str]) -> str:
    name, k = stem, 2
    while name in names:
        name, k = f"{stem}-{k}", k + 1
    names.add(name)
    return name
