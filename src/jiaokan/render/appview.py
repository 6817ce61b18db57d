"""Apparatus entries as the reader meets them: popover data and printed-edition footnotes.

A footnote reads as in a printed critical edition: number, layer (when not 经), the
lemma with the witnesses that support it, ``]``, then each different reading with its
witnesses, ``;`` between them, ``无`` for an omission::

    3 遂 JS 13a] 无 ZS
    4 注 俟 JS 13b] 侯 ZS
    5 执 JS] 执弣 ZS          (an addition: shown on the character before it)
"""

from __future__ import annotations

from markupsafe import Markup, escape

from ..collate.model import App, Collation, LayerGap
from ..normalize import is_ignorable
from .html import LAYER_ZH, VARIANT_LABEL, attrs

OMITTED = "无"


def _anchor(a: App) -> tuple[str, bool]:
    """For an entry with an empty lemma: the base character it hangs on, and whether it precedes."""
    before, _, after = a.context.partition("【")
    after = after.partition("】")[2]
    for ch in reversed(before):
        if not is_ignorable(ch):
            return ch, True
    for ch in after:
        if not is_ignorable(ch):
            return ch, False
    return "", True


def app_data(col: Collation, numbers: dict[str, int]) -> dict:
    """app id → what the popover shows: every witness's reading with its page and line."""
    out = {}
    for a in col.apps:
        rd = [[col.base, a.lem.text, a.lem.page, a.lem.line, "lem", a.lem.unit]]
        for s, r in a.readings.items():
            rd.append([s, r.text, r.page, r.line, r.type, r.unit])
        out[a.id] = {"n": numbers.get(a.id), "row": a.row, "layer": a.layer, "lz": LAYER_ZH.get(a.layer, a.layer),
                     "type": a.type, "sub": a.subtype, "ctx": a.context, "r": rd}
    return out


def _sig(s: str, page: str | None = None) -> str:
    pg = f'<span class="pg">{escape(page)}</span>' if page else ""
    return f'<span class="sig">{escape(s)}</span>{pg}'


def footnote_html(a: App, n: int, col: Collation) -> Markup:
    """One numbered apparatus line (an ``li``)."""
    agree = [s for s, r in a.readings.items() if r.type == "agree"]
    differing = a.differing()
    anchor, before = ("", True)
    lem_text = a.lem.text
    if not lem_text:
        anchor, before = _anchor(a)
        lem_text = anchor
    parts = [f'<a class="fn-n" href="#ref-{escape(a.id)}" title="back to the text">{n}</a>']
    if a.layer != "jing":
        parts.append(f'<span class="fn-layer">{escape(LAYER_ZH.get(a.layer, a.layer))}</span>')
    lem_sigla = " ".join([_sig(col.base, a.lem.page)] + [_sig(s) for s in agree])
    parts.append(f'<span class="lem">{escape(lem_text or "—")}</span> {lem_sigla}<span class="br">]</span>')
    groups: dict[tuple[str, str], list[str]] = {}
    for s, r in differing.items():
        text = r.text
        if not a.lem.text and anchor:  # an addition: the reading with the anchor character
            text = anchor + text if before else text + anchor
        groups.setdefault((text or OMITTED, r.type or a.type), []).append(s)
    rdgs = []
    for (text, _ty), sigla in groups.items():
        pages = {s: differing[s].page for s in sigla}
        rdgs.append(f'<span class="rdg">{escape(text)}</span> ' + " ".join(_sig(s, pages[s]) for s in sigla))
    parts.append("; ".join(rdgs))
    label = VARIANT_LABEL.get(a.type, a.type)
    if a.subtype == "minor":
        label += " · 古今字/通假"
    parts.append(f'<span class="ty">{escape(label)}</span>')
    cls = f"fn t-{a.type} l-{a.layer}"
    return Markup(f'<li{attrs(cls=cls, id="fn-" + a.id, value=str(n), data_app=a.id)}>{" ".join(parts)}</li>')


def gap_text(g: LayerGap, present_in_row: set[str]) -> str | None:
    """"疏 only in ZS" for a layer gap worth a note in this row; None when the row lacks a witness altogether."""
    layer = LAYER_ZH.get(g.layer, g.layer)
    if g.kind == "edge":
        return f"{', '.join(g.absent)} begins or ends inside this passage"
    if g.kind == "lacuna":
        return f"{layer} lost in {', '.join(g.absent)}: a page of its source is missing"
    absent = [s for s in g.absent if s in present_in_row]
    if not absent:
        return None
    return f"{layer} only in {' '.join(g.present)}"
