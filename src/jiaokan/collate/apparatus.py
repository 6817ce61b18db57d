"""A collation → TEI apparatus (parallel segmentation, internal location).

Per row and layer, one ``ab`` holds the base text with ``app`` entries inline:
``lem`` (the base, with the witnesses that agree in ``@wit``), one ``rdg`` per
differing witness with its ``@type``, an empty ``rdg`` for an omission.
``@corresp`` on ``ab``, ``lem`` and ``rdg`` points into each witness's TEI file
(``file.xml#passage-id``); ``@n`` on readings is the page; ``pb`` marks where
the base turns a page.

Every witness reads back exactly (:func:`.apparatus_reader.rebuild_from_tei`):
the row and layer is cut into segments (:mod:`.segments`), and text a witness
lacks is an ``app`` with an empty reading for it (``type`` layer, edge or
lacuna, the last holding ``gap``), never base text outside an ``app``.  No
``note`` per entry: viewers show each as an icon; the header explains the types.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from ..io import atomic_write_bytes
from ..model import Witness
from ..normalize import is_ignorable
from ..tei.header import comparison_document
from ..tei.build import E, append_text, sub_element, tei_bytes
from ..tei.validate import profile_check
from .apparatus_reader import fold_script
from .layertext import LayerText
from .model import App, Collation, strongest
from .segments import Segment, row_layer_segments
from .variants import _trimmed

TYPE_DOC = {
    "uncertain": "the only difference involves an unknown character (unresolved gaiji, private-use glyph): "
                 "a gap in knowledge, not a reading",
    "orthographic": "the witnesses differ only in variant form (异体), e.g. 荅/答",
    "taboo": "a taboo (避讳) form or substitution, e.g. 𤣥/玄, 元/玄",
    "substantive": "a different character (subtype minor: 古今字/通假 such as 于/於)",
    "omission": "the witness lacks what the base has (empty rdg)",
    "addition": "the witness has what the base lacks (empty lem)",
    "transposition": "the same characters in another order or place",
    "layer": "a layer (e.g. 疏) present in one witness of a passage and absent from another: the witness that "
             "lacks it has an empty reading (rdg, or lem for the base)",
    "edge": "text before a witness begins or after it ends (an excerpt): the witness has an empty reading",
    "lacuna": "text a witness lost with a page of its source: its reading holds gap reason=lost",
    "emendation": "a 四库 editors' 案 note applied (see the emendation report)",
}


def _witness_file(w: Witness, tei_names: dict[str, str]) -> str:
    name = tei_names.get(w.meta.siglum)  # (not .get(k, default): the default would be built on every call)
    return name if name is not None else Path(w.meta.file).stem + ".xml"


def collation_to_tei(col: Collation, tei_names: dict[str, str] | None = None, title: str | None = None) -> etree._ElementTree:
    """Build the apparatus document.  ``tei_names``: siglum → witness TEI file name for ``@corresp``."""
    tei_names = tei_names or {}
    base_w = col.witnesses[col.base]
    chapter = base_w.meta.chapter or ""
    editorial = [
        f"Base text: {col.base} (the first witness listed). Witnesses are aligned layer by layer (经 with 经, "
        "注 with 注) on normalized keys (NFC, OpenCC t2s, one-hop variant folds, taboo forms, gaiji); differences "
        "of script alone are not recorded; punctuation and whitespace are ignored; readings keep the original "
        "characters.",
        "Reading a witness back: by the rules of parallel segmentation, text outside app belongs to every "
        "witness and text inside app to the lem or rdg whose @wit names it. Every witness so read gives exactly "
        "its own collated layer text (ab/@type), up to punctuation and script. Text a witness lacks (a layer, "
        "text before or after an excerpt, a page lost from its source) is an app with an empty reading for it.",
        "Script differences (e.g. 賓/宾) are not variants, so the text outside app is in the base's script. "
        "To recover a witness's own characters, read its TEI file (listWit/witness/idno[@type='tei']): @corresp "
        "on every ab and every non-empty lem and rdg points to the passage there (file#id); the JSON export's table also holds "
        "each witness's own characters.",
        *(f"{t}: {doc}" for t, doc in TYPE_DOC.items()),
    ]
    if col.ignored:
        editorial.append(f"Variant types left out on request: {', '.join(col.ignored)}.")
    root, _header = comparison_document(
        title or f"Apparatus {chapter}: {', '.join(col.sigla)} (base {col.base})",
        "collation",
        list(col.witnesses.values()),
        {s: _witness_file(w, tei_names) for s, w in col.witnesses.items()},
        ("parallel-segmentation", "internal"),
        editorial,
    )
    div = E.div(type="apparatus", n=chapter or None)
    root.append(E.text(E.body(div)))
    row_ids = {r.id: r for r in col.rows}
    for row_id, layer, texts, segments in row_layer_segments(col):
        row = row_ids[row_id]
        corresp = " ".join(
            f"{_witness_file(col.witnesses[s], tei_names)}#{uid}"
            for s, uids in row.units.items() for uid in uids[:1]
        )
        ab = E.ab(type=layer, n=row_id, xml_id=f"{row_id}.{layer}", corresp=corresp or None)
        div.append(ab)
        _write_segments(ab, segments, texts, col, tei_names)
    return etree.ElementTree(root)


def _same(x: str, y: str) -> bool:
    """Two readings the apparatus does not tell apart: equal after dropping punctuation and folding script."""
    return fold_script(x) == fold_script(y)


def _trim(text: str) -> str:
    """A reading without the punctuation at its ends (punctuation is not collated)."""
    return _trimmed(text, 0, len(text), is_ignorable)


def _write_segments(ab: etree._Element, segs: list[Segment], texts: dict[str, LayerText], col: Collation,
                    tei_names: dict[str, str]) -> None:
    base = col.base
    blt = texts[base]
    page = blt.pages[0] if blt.pages else None

    def emit_text(a0: int, a1: int) -> None:
        if a1 > a0:  # no empty text: an ab whose first segment is an app stays without one
            append_text(ab, blt.text[a0:a1])

    def emit_plain(a0: int, a1: int) -> None:
        nonlocal page
        start = a0
        for i in range(a0, a1):
            if blt.pages[i] != page and blt.pages[i] is not None:
                emit_text(start, i)
                sub_element(ab, "pb", n=blt.pages[i], ed=base)
                page = blt.pages[i]
                start = i
        emit_text(start, a1)

    def corresp(s: str, unit: str | None) -> str | None:
        return f"{_witness_file(col.witnesses[s], tei_names)}#{unit}" if unit else None

    for seg in segs:
        a0, a1 = seg.spans[base]
        if seg.type is None:
            emit_plain(a0, a1)
            continue
        own = seg.apps[0] if len(seg.apps) == 1 and (seg.apps[0].lem.start, seg.apps[0].lem.end) == (a0, a1) else None
        subtypes = {x.subtype for x in seg.apps}
        lem_text = _trim(blt.text[a0:a1])
        readings = {s: _trim(texts[s].text[b0:b1]) for s, (b0, b1) in seg.spans.items()
                    if s != base and s not in seg.absent}
        agree = [s for s, r in readings.items() if _same(r, lem_text)]
        base_absent = base in seg.absent
        lem_wits = [base] + agree + ([s for s in seg.absent if s != base] if base_absent else [])
        unit, pg, _ = blt.where(a0 if a1 > a0 else max(a0 - 1, 0))
        lost = base_absent and seg.absent[base] == "lacuna"
        # written in place, top-down (sub_element): the entry, then its lem and readings
        app = sub_element(ab, "app", type=seg.type, subtype=subtypes.pop() if len(subtypes) == 1 else None,
                          xml_id=seg.apps[0].id if seg.apps else None)
        lem = sub_element(app, "lem", lem_text or None, wit=" ".join("#" + s for s in lem_wits),
                          n=pg if lem_text else None, corresp=corresp(base, unit) if lem_text else None)
        if lost:
            sub_element(lem, "gap", reason="lost", unit="page")
        for s, r in readings.items():
            if s in agree:
                continue
            b0, b1 = seg.spans[s]
            u, pg, _ = texts[s].where(b0 if b1 > b0 else max(b0 - 1, 0))
            rtype = _reading_type(seg, s, r, lem_text, own)
            lost = rtype == "lacuna" and not r
            rdg = sub_element(app, "rdg", r or None, wit="#" + s, type=rtype, n=pg if r else None,
                              corresp=corresp(s, u) if r else None)
            if lost:
                sub_element(rdg, "gap", reason="lost", unit="page")
        missing = [s for s in seg.absent if s != base] if not base_absent else []
        if missing:
            kind = seg.type if seg.type in ("layer", "lacuna", "edge") else _absence(seg, missing)
            rdg = sub_element(app, "rdg", wit=" ".join("#" + s for s in missing), type=kind)
            if kind == "lacuna":
                sub_element(rdg, "gap", reason="lost", unit="page")


def _absence(seg: Segment, missing: list[str]) -> str:
    kinds = {seg.absent[s] for s in missing}
    return "lacuna" if "lacuna" in kinds else "edge" if "edge" in kinds else "layer"


def _reading_type(seg: Segment, s: str, reading: str, lem: str, own: App | None) -> str:
    """The variant type of witness ``s``'s reading: the entry's own where it has one, else by its shape."""
    types = [t for x in seg.apps if s in x.readings for t in [x.readings[s].type] if t is not None and t != "agree"]
    if own is not None and types:
        return types[0]
    if seg.type is not None and seg.type in ("lacuna", "edge", "layer") and not types:
        return seg.type
    if types and len(seg.apps) == 1:
        return types[0]
    if not fold_script(reading):
        return "omission"
    if not fold_script(lem):
        return "addition"
    return strongest(types) if types else "substantive"


def write_apparatus(col: Collation, path: str | Path, tei_names: dict[str, str] | None = None) -> Path:
    path = Path(path)
    tree = collation_to_tei(col, tei_names)
    atomic_write_bytes(path, tei_bytes(tree), check=profile_check)
    return path
