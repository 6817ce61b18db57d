"""案 notes at their place, with the verdict of the check against 注疏 as a badge, and their summary.

``verdicts`` (optional, from the emendation stage) maps a Note id to its
:class:`~jiaokan.emend.verdict.NoteVerdict`; see :func:`note_html`.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping

from markupsafe import Markup, escape

from ..emend.verdict import KINDS, NoteVerdict
from ..model import Note, Witness
from .html import attrs
from .truth import SHOWN, shown_verdict

#: What the renderer is given: the verdict record of each 案 note, by note id.
Verdicts = Mapping[str, NoteVerdict]

KIND_ZH: dict[str, str] = {
    "corruption": "讹", "omission": "脱", "addition": "衍", "variant": "异文",
    "conjecture": "当作", "comment": "按语", "lacuna": "阙", "unparsed": "未解析",
}
#: The badges shown (:data:`.truth.SHOWN`): the verdicts, ``uncertain`` (neither ✓ nor ✗: the evidence does
#: not carry a verdict) and ``unchecked`` for a note with no claim about the 注疏.
BADGES: tuple[str, ...] = SHOWN
VERDICT_SIGN: dict[str, str] = {"confirmed": "✓", "contradicted": "✗", "not covered": "–", "uncertain": "?",
                                "unchecked": ""}
VERDICT_ZH: dict[str, str] = {"confirmed": "相符", "contradicted": "不符", "not covered": "无可核", "uncertain": "存疑",
                              "unchecked": "未核"}


def verdict_key(v: NoteVerdict | None) -> str:
    """The badge a note's verdict record gets on the page (see :func:`.truth.shown_verdict`)."""
    return shown_verdict(v).key


def note_html(note: Note, inner_html: str, verdicts: Verdicts | None) -> str:
    """A 案 note at its place: 〔…〕 small and distinct, its verdict as a badge."""
    v = verdicts.get(note.id or "") if verdicts is not None else None
    cls = f"an l-{note.layer}"
    label = "案语"
    badge = ""
    if v:
        kind = v.kind
        vk = verdict_key(v)
        cls += f" k-{kind} an-{vk.replace(' ', '-')}"
        label = f"案语 · {KIND_ZH.get(kind, kind)} · {VERDICT_ZH[vk]}"
        sign = VERDICT_SIGN.get(vk, "")
        text = f"{KIND_ZH.get(kind, kind)} {sign}".strip()
        badge = f'<span{attrs(cls="badge vd-" + vk.replace(" ", "-"))}>{escape(text)}</span>'
    # a button that opens the 案 dialog (static/verdict.js), on click and from the keyboard: no title tooltip;
    # its tab stop, role and popup edition.js gives at load (``keyboardMarks``), like the variant marks'
    button = {"aria_description": label} if note.id else {}
    return (f'<span{attrs(cls=cls, id=note.id, data_note=note.id, **button)}>'
            f'<span class="an-b" aria-hidden="true">〔</span>{inner_html}'
            f'<span class="an-b" aria-hidden="true">〕</span>{badge}</span>')


def note_summary(witnesses: Iterable[Witness], verdicts: Verdicts | None,
                 notes_of: Mapping[int, list[Note]] | None = None) -> dict:
    """Counts for the index: per kind and verdict when verdicts are known, else notes per witness.
    ``notes_of``: id(witness) → its notes, when the caller has them already."""
    notes: list[Note] = [n for w in witnesses for n in (notes_of[id(w)] if notes_of is not None else w.notes())]
    out: dict = {"notes": len(notes), "with_verdicts": verdicts is not None}
    if verdicts is None:
        return out
    table: dict[str, Counter] = {}
    for n in notes:
        v = verdicts.get(n.id or "")
        kind = v.kind if v is not None else "unparsed"
        table.setdefault(kind, Counter())[verdict_key(v)] += 1
    order = [k for k in KINDS if k in table] + sorted(k for k in table if k not in KINDS)
    out["rows"] = [(k, KIND_ZH.get(k, ""), [table[k][vk] for vk in BADGES], sum(table[k].values())) for k in order]
    out["totals"] = [sum(table[k][vk] for k in table) for vk in BADGES]
    out["verdicts"] = BADGES
    return out


def badge_legend() -> Markup:
    return Markup(" ".join(f'<span class="badge vd-{v.replace(" ", "-")}">{VERDICT_SIGN[v] or "·"} '
                           f'<span data-i18n="an.{v}">{VERDICT_ZH[v]}</span></span>' for v in BADGES))
