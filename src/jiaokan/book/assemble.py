"""One :class:`~jiaokan.model.Witness` per witness and 篇, joined from the files that hold it.

Each file was read on its own and keeps its own 卷, pages and lines; joining does not
renumber anything.  What it does change: a page label names its 卷 (``013-6a`` rather
than ``6a``), because a 篇 over four 卷 has four pages called ``6a`` and a reading's
place must say which.  The page tag itself (``facs``, ``KR1d0030_WYG_013-6a``) stays
as the file's provenance.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import PurePath

from ..errors import InputError
from ..model import Div, Note, PageBreak, Piece, Unit, Witness, nodes
from .pian import FRONT, Stretch, file_stretches


@dataclass
class FilePart:
    """One file of a witness, read, with the manifest's word on its 篇 (``chapter`` override)."""

    name: str  # the file as the manifest names it
    witness: Witness
    override: str = ""
    #: its page labels name their 卷 already (:func:`qualify_pages`, done where the file was read: a build
    #: does it in the worker that read the file, rather than for every file here, serial)
    qualified: bool = False


@dataclass
class Placed:
    """Where the stretches of one file went: (篇, units, how) — for ``init`` and the summary."""

    name: str
    stretches: list[Stretch] = field(default_factory=list)


def juan_label(juan: str | None, page: str) -> str:
    """``("13", "6a")`` → ``013-6a``: a page label that names its 卷 (as Kanripo page ids do)."""
    if not juan:
        return page
    return f"{int(juan):03d}-{page}" if juan.isdigit() else f"{juan}-{page}"


def qualify_pages(w: Witness) -> None:
    """Make every page label of ``w`` name its 卷 (breaks, piece and note locations alike).

    Once per file: a page break's label is qualified whatever it holds, so a second call would
    qualify it again (:attr:`FilePart.qualified`)."""
    juan = w.meta.juan or None
    labels: dict[tuple[str | None, str], str] = {}  # a page's label is asked for by each of its pieces and notes
    for p in w.pieces():
        _requalify_loc(p, juan, labels)
        content = p.content
        # only a piece that holds a page break or a note has more to qualify, asked in C: most hold neither
        if PageBreak in map(type, content) or Note in map(type, content):
            for node in nodes(content):
                if isinstance(node, PageBreak):
                    juan = node.juan or juan
                    node.n = juan_label(node.juan or juan, node.n)
                elif isinstance(node, Note):
                    _requalify_loc(node, juan, labels)


def _requalify_loc(obj: Piece | Note, juan: str | None, labels: dict[tuple[str | None, str], str]) -> None:
    page = obj.loc.page
    if page is not None and "-" not in page:
        label = labels.get((juan, page))
        if label is None:
            label = labels[juan, page] = juan_label(juan, page)
        obj.loc = obj.loc.on_page(label)


def place_files(parts: list[FilePart], default: str = "") -> list[Placed]:
    """The 篇 stretches of every file of one witness, in the order given (卷 order)."""
    out: list[Placed] = []
    open_pian: str | None = None
    for part in parts:
        stretches = file_stretches(part.witness, open_pian, part.override, default)
        out.append(Placed(part.name, stretches))
        last = stretches[-1].pian if stretches else None
        if last is not None and last != FRONT:
            open_pian = last
    return out


def assemble(siglum: str, parts: list[FilePart], default: str = "") -> tuple[dict[str, Witness], list[Placed]]:
    """One witness per 篇 (keyed by 篇, in book order of first appearance), and where each file went.

    A file none of whose text could be placed is left out of every 篇 and reported by
    the caller from ``Placed``.  Raises :class:`InputError` when two files of the
    witness give a passage the same id (the same 卷 twice).
    """
    for part in parts:
        if not part.qualified:
            qualify_pages(part.witness)
            part.qualified = True
    placed = place_files(parts, default)
    by_pian: dict[str, Witness] = {}
    files: dict[str, list[str]] = {}
    juans: dict[str, list[str]] = {}
    seen: dict[str, str] = {}
    for part, pl in zip(parts, placed):
        src = part.witness
        for st in pl.stretches:
            if st.pian is None:
                continue
            w = by_pian.get(st.pian)
            if w is None:
                meta = dataclasses.replace(src.meta, siglum=siglum, chapter=st.pian, extra=dict(src.meta.extra))
                w = by_pian[st.pian] = Witness(meta)
            ids = {id(u) for u in st.units}
            for u in st.units:
                if u.id in seen and seen[u.id] != part.name:
                    raise InputError(part.name, f"passage id {u.id} is also in {seen[u.id]}: two files of witness "
                                     f"{siglum} hold the same 卷 ({src.meta.juan}); list one of them only")
                seen[u.id] = part.name
            for d in src.divs:
                kept = [u for u in d.units if id(u) in ids]
                if kept:
                    _add_div(w, d, kept, st.pian)
            w.char_decl.update(src.char_decl)
            w.warnings.extend(x for x in src.warnings if st is pl.stretches[0])
            if part.name not in files.setdefault(st.pian, []):
                files[st.pian].append(part.name)
            if src.meta.juan and src.meta.juan not in juans.setdefault(st.pian, []):
                juans[st.pian].append(src.meta.juan)
    for pian, w in by_pian.items():
        # the TEI names the file by its base name: all of them, so no 卷 of the 篇 goes unnamed
        w.meta.file = " ".join(PurePath(f).name for f in files[pian])
        w.meta.juan = ",".join(juans.get(pian, []))
        w.meta.extra["files"] = " ".join(files[pian])
        if "kanripo-juan" in w.meta.extra:
            w.meta.extra["kanripo-juan"] = w.meta.juan
    return by_pian, placed


def _add_div(w: Witness, d: Div, units: list[Unit], pian: str) -> None:
    """Append ``units`` of file div ``d``: chapter divs of one 篇 become one div (the 篇); others stay as they are."""
    if pian == FRONT:
        kind, n, title = "front", d.n, d.title
    elif d.type == "chapter":
        kind, n, title = "chapter", None, pian
    else:
        kind, n, title = d.type, d.n, d.title
    last = w.divs[-1] if w.divs else None
    if kind == "chapter" and last is not None and last.type == "chapter" and last.title == pian:
        last.units.extend(units)
        return
    w.divs.append(Div(kind, n, title, list(units), id=d.id))
