"""An apparatus TEI file (as :mod:`.apparatus` writes it) back to a :class:`~.model.Collation`.

The apparatus header lists its witnesses (``listWit/witness``: ``@xml:id`` is the
siglum, ``idno[@type='tei']`` the witness TEI file name; the first witness is the
base).  Rather than parse offsets back out of the segmented text, the loader reads
those witness TEI files and collates them again with the first as base: collation is
deterministic and takes well under a second, and the result carries everything the
HTML needs (offsets into layer texts, rows, gaps) exactly as the apparatus was made.

Witness files are looked for, in order: among the paths given (matched by file
name), beside the apparatus file, and in a sibling ``tei/`` folder (the layout of
``jiaokan build``: ``build/apparatus/x.xml`` next to ``build/tei/*.xml``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from lxml import etree

from ..readers.base import ReaderError
from ..tei.writer import TEI_NS, XML_NS
from .model import Collation

NS = {"t": TEI_NS}
_XML_ID = "{%s}id" % XML_NS


@dataclass
class ListedWitness:
    siglum: str
    tei: str  # the witness TEI file name as the apparatus gives it
    title: str


def is_apparatus(root: etree._Element) -> bool:
    """True for an apparatus document (a ``div type="apparatus"``, or a listWit with app entries)."""
    if root.find("t:text/t:body/t:div[@type='apparatus']", NS) is not None:
        return True
    return (len(root.findall("t:teiHeader//t:listWit/t:witness", NS)) > 1
            and root.find("t:text//t:app", NS) is not None)


def listed_witnesses(root: etree._Element) -> list[ListedWitness]:
    out = []
    for w in root.findall("t:teiHeader//t:listWit/t:witness", NS):
        idno = w.find("t:idno[@type='tei']", NS)
        title = w.find("t:title", NS)
        out.append(ListedWitness(
            siglum=w.get(_XML_ID) or "",
            tei=(idno.text or "").strip() if idno is not None else "",
            title="".join(title.itertext()).strip() if title is not None else "",
        ))
    return out


def find_witness_file(name: str, apparatus: Path, candidates: Sequence[Path] = ()) -> Path | None:
    """Where the witness TEI file ``name`` of ``apparatus`` is (see the module doc), or None."""
    for c in candidates:
        if c.name == name and c.is_file():
            return c
    for folder in (apparatus.parent, apparatus.parent.parent / "tei"):
        p = folder / name
        if p.is_file():
            return p
    return None


def load_apparatus(path: str | Path, candidates: list[Path] | None = None) -> tuple[Collation, dict[str, Path]]:
    """Re-collate the witnesses an apparatus file lists, base first.

    Returns the collation and siglum → witness TEI path.  A one-line
    :class:`ReaderError` when the file is not an apparatus or a witness file is missing.
    """
    from ..tei.reader import read_tei
    from .engine import CollationError, collate

    path = Path(path)
    try:
        root = etree.parse(str(path)).getroot()
    except OSError:
        raise ReaderError(str(path), "no such file or not readable") from None
    except etree.XMLSyntaxError as exc:
        raise ReaderError(str(path), f"not well-formed XML: {exc.msg}", exc.lineno) from None
    listed = listed_witnesses(root)
    if len(listed) < 2:
        raise ReaderError(str(path), "not an apparatus file (teiHeader lists fewer than two witnesses)")
    files: dict[str, Path] = {}
    for lw in listed:
        found = find_witness_file(lw.tei, path, list(candidates or []))
        if found is None:
            raise ReaderError(str(path), f"witness {lw.siglum}: its TEI file {lw.tei or '(not named)'} was found "
                              "neither among the inputs nor beside the apparatus (nor in ../tei/)")
        files[lw.siglum] = found
    witnesses = []
    for lw in listed:
        w = read_tei(files[lw.siglum])
        w.meta.siglum = lw.siglum  # the apparatus's siglum wins (it is what its @wit values say)
        witnesses.append(w)
    try:
        col = collate(witnesses, base=listed[0].siglum)
    except CollationError as exc:
        raise ReaderError(str(path), str(exc)) from None
    return col, files
