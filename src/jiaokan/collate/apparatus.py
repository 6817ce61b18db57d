"""A collation → TEI apparatus (parallel segmentation, internal location).

Per row and layer, one ``ab`` holds the base text with ``app`` entries inline:
``lem`` (the base, with the witnesses that agree in ``@wit``), one ``rdg`` per
differing witness with its ``@type``, an empty ``rdg`` for an omission.
``@corresp`` on ``ab``, ``lem`` and ``rdg`` points into each witness's TEI file
(``file.xml#passage-id``); ``@n`` on readings is the page; ``pb`` marks where
the base turns a page.  A layer that one side lacks is one ``app type="layer"``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from ..io import atomic_write_bytes
from ..model import Witness
from ..tei.header import comparison_document
from ..tei.writer import _el
from .model import App, Collation

if TYPE_CHECKING:
    from .layertext import LayerText

TYPE_DOC = {
    "orthographic": "the witnesses differ only in variant form (异体), e.g. 荅/答",
    "taboo": "a taboo (避讳) form or substitution, e.g. 𤣥/玄, 元/玄",
    "substantive": "a different character (subtype minor: 古今字/通假 such as 于/於)",
    "omission": "the witness lacks what the base has (empty rdg)",
    "addition": "the witness has what the base lacks (empty lem)",
    "transposition": "the same characters in another order or place",
    "layer": "a whole layer (e.g. 疏) present in one witness of a passage and absent from another",
    "emendation": "a 四库 editors' 案 note applied (see the emendation report)",
}


def _witness_file(w: Witness, tei_names: dict[str, str]) -> str:
    return tei_names.get(w.meta.siglum, Path(w.meta.file).stem + ".xml")


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
    body = _el(_el(root, "text"), "body")
    div = _el(body, "div", type="apparatus", n=chapter or None)
    apps_by: dict[tuple[str, str], list[App]] = {}
    for a in col.apps:
        apps_by.setdefault((a.row, a.layer), []).append(a)
    gaps_by = {(g.row, g.layer): g for g in col.gaps}

    from .layertext import layer_text
    from .rows import body_units

    units = {s: {u.id: u for u in body_units(w)} for s, w in col.witnesses.items()}
    for row in col.rows:
        for layer in col.layers:
            base_lt = layer_text([units[col.base][u] for u in row.units.get(col.base, [])], layer)
            gap = gaps_by.get((row.id, layer))
            if not base_lt.text.strip() and gap is None:
                continue
            corresp = " ".join(
                f"{_witness_file(col.witnesses[s], tei_names)}#{uid}"
                for s, uids in row.units.items() for uid in uids[:1]
            )
            ab = _el(div, "ab", type=layer, n=row.id, xml_id=f"{row.id}.{layer}", corresp=corresp or None)
            if gap is not None and col.base not in gap.present:
                app = _el(ab, "app", type="layer")
                _el(app, "lem", wit="#" + col.base)
                for s in gap.present:
                    lt = layer_text([units[s][u] for u in row.units.get(s, [])], layer)
                    _el(app, "rdg", lt.text, wit="#" + s, type=None)
                continue
            if gap is not None and gap.absent and gap.kind == "lacuna":
                app = _el(ab, "app", type="lacuna")
                _el(app, "lem", wit="#" + col.base)
                rdg = _el(app, "rdg", wit=" ".join("#" + s for s in gap.absent))
                _el(rdg, "gap", reason="lost", unit="page")
                note = _el(app, "note", f"lost with a page of {', '.join(gap.absent)}'s source", type="comment")
                note.set("subtype", "lacuna")
            elif gap is not None and gap.absent:
                app = _el(ab, "app", type="layer")
                _el(app, "lem", wit="#" + col.base)
                _el(app, "rdg", wit=" ".join("#" + s for s in gap.absent))
                note = _el(app, "note", f"{layer} absent from {', '.join(gap.absent)} here", type="comment")
                note.set("subtype", "layer-absent")
            _write_segmented(ab, base_lt, apps_by.get((row.id, layer), []), col, tei_names)
    return etree.ElementTree(root)


def _append(el: etree._Element, s: str) -> None:
    if not s:
        return
    if len(el):
        el[-1].tail = (el[-1].tail or "") + s
    else:
        el.text = (el.text or "") + s


def _write_segmented(ab: etree._Element, lt: LayerText, apps: list[App], col: Collation, tei_names: dict[str, str]) -> None:
    text = lt.text
    pos = 0
    page = lt.pages[0] if lt.pages else None

    def emit_plain(upto: int) -> None:
        nonlocal pos, page
        start = pos
        for i in range(pos, upto):
            if lt.pages[i] != page and lt.pages[i] is not None:
                _append(ab, text[start:i])
                _el(ab, "pb", n=lt.pages[i], ed=col.base)
                page = lt.pages[i]
                start = i
        _append(ab, text[start:upto])
        pos = upto

    for a in sorted(apps, key=lambda x: (x.lem.start, x.lem.end)):
        if a.lem.start < pos:
            continue  # cannot happen for merged entries; never write overlapping apps
        emit_plain(a.lem.start)
        app = _el(ab, "app", type=a.type, subtype=a.subtype, xml_id=a.id)
        agree = [s for s, r in a.readings.items() if r.type == "agree"]
        _el(app, "lem", text[a.lem.start:a.lem.end] or None,
                  wit=" ".join("#" + s for s in [col.base] + agree), n=a.lem.page,
                  corresp=f"{_witness_file(col.witnesses[col.base], tei_names)}#{a.lem.unit}" if a.lem.unit else None)
        for s, r in a.differing().items():
            _el(app, "rdg", r.text or None, wit="#" + s, type=r.type, n=r.page,
                corresp=f"{_witness_file(col.witnesses[s], tei_names)}#{r.unit}" if r.unit else None)
        pos = a.lem.end
    emit_plain(len(text))


def write_apparatus(col: Collation, path: str | Path, tei_names: dict[str, str] | None = None) -> Path:
    path = Path(path)
    tree = collation_to_tei(col, tei_names)
    atomic_write_bytes(path, etree.tostring(tree, xml_declaration=True, encoding="UTF-8", pretty_print=True))
    return path
