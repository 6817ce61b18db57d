"""Apparatus entries as the reader meets them: popover data and printed-edition footnotes.

A footnote reads as in a printed critical edition: number, layer (when not 经), the
lemma with the witnesses that support it, ``]``, then each different reading with its
witnesses, ``;`` between them, ``无`` for an omission::

    3 遂 JS 13a] 无 ZS
    4 注 俟 JS 13b] 侯 ZS
    5 执 JS] 执弣 ZS          (an addition: shown on the character before it)
"""

from __future__ import annotations

import json

from markupsafe import Markup, escape

from ..collate.model import App, Collation, LayerGap
from ..normalize import is_ignorable
from .cite import page_starts, place_label
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


def _owners(col: Collation) -> dict[tuple[str, str, str], dict[int, str]]:
    """(row, siglum, layer) → offset → the app whose mark the page shows on that character.

    Two entries can claim the same characters of a witness (an addition ``奠觶`` and the ``賓`` after it, the
    second's reading running over the first's); the page marks each character once, for the entry of the
    earliest, shortest span (as :class:`.inline.ColumnWriter` does), and the popover must say the same.
    """
    spans: dict[tuple[str, str, str], list[tuple[int, int, str]]] = {}
    for a in col.apps:
        spans.setdefault((a.row, col.base, a.layer), []).append((a.lem.start, a.lem.end, a.id))
        for s, r in a.readings.items():
            spans.setdefault((a.row, s, a.layer), []).append((r.start, r.end, a.id))
    out: dict[tuple[str, str, str], dict[int, str]] = {}
    for k, xs in spans.items():
        cover: dict[int, str] = {}
        for start, end, aid in sorted(xs, key=lambda x: (x[0], x[1])):
            for i in range(start, end):
                cover.setdefault(i, aid)
        out[k] = cover
    return out


def _own_text(text: str, start: int, end: int, aid: str, cover: dict[int, str]) -> str:
    """The characters of a reading the page marks for this entry (all of them unless another entry's mark
    holds some)."""
    if len(text) != end - start:
        return text
    return "".join(c for i, c in zip(range(start, end), text) if cover.get(i, aid) == aid)


def app_data(col: Collation, numbers: dict[str, int]) -> dict:
    """app id → what the popover shows: every witness's reading with its page and line."""
    out = {}
    owners = _owners(col)
    starts = {s: page_starts(w) for s, w in col.witnesses.items()}

    def where(s: str, page: str | None, line: int | None) -> str:  # 卷五 葉三a 行4: the leaf's line, as cited
        return place_label(col.witnesses[s], starts[s], page, line)

    for a in col.apps:
        lem = _own_text(a.lem.text, a.lem.start, a.lem.end, a.id, owners.get((a.row, col.base, a.layer), {}))
        rd = [[col.base, lem, where(col.base, a.lem.page, a.lem.line), None, "lem", a.lem.unit]]
        for s, r in a.readings.items():
            text = _own_text(r.text, r.start, r.end, a.id, owners.get((a.row, s, a.layer), {}))
            rd.append([s, text, where(s, r.page, r.line), None, r.type, r.unit])
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


#: A layer gap's note, in the interface's default language (简); the page's script puts it in 繁 or English
#: (``data-i18n`` key ``gap-KIND`` with these arguments: ``{layer}``, ``{w}``).
GAP_TEXT = {"edge": "{w} 节录始末在此段内", "lacuna": "{layer}：{w} 底本缺叶", "layer": "{layer} 仅见于 {w}"}


def gap_text(g: LayerGap, present_in_row: set[str]) -> dict | None:
    """"疏 仅见于 ZS" for a layer gap worth a note in this row (key, arguments, text); None when the row lacks
    a witness altogether."""
    layer = LAYER_ZH.get(g.layer, g.layer)
    if g.kind == "edge":
        args = {"w": "、".join(g.absent)}
    elif g.kind == "lacuna":
        args = {"layer": layer, "w": "、".join(g.absent)}
    else:
        if not [s for s in g.absent if s in present_in_row]:
            return None
        args = {"layer": layer, "w": " ".join(g.present)}
    kind = g.kind if g.kind in GAP_TEXT else "layer"
    text = GAP_TEXT[kind].format(**{"layer": "", "w": "", **args})
    return {"key": f"gap-{kind}", "args": json.dumps({**args, "layer": g.layer} if "layer" in args else args,
                                                     ensure_ascii=False),
            "text": text, "present": " ".join(g.present)}
