"""The emended text: where each 案 note changes a reading, as the emended-text page marks it.

Why from the verdict records and the note's place, not from a second emendation pass: the 案 notes stand right
after the characters they discuss (GUIDE §3), and the verdict record of each claim gives its lemma and the
reading it names.  So the page can say, at the characters themselves:

* a claim about 今注疏本 (corruption, omission, addition, variant): this text reads the emended reading, the
  注疏 read otherwise (``北`` → ``比``; ``遂`` supplied; ``还`` deleted).  The text is the editors' emended
  text, and the change is marked, with the 注疏's reading struck through before it;
* a conjecture on this text (``绢当作縜``): the emended text reads the conjecture, the transmitted characters
  struck through before it.

Each change links to its note (the 案 dialog, with the verdict and its evidence).  A claim whose lemma is not
found right before its note (a locator such as ``此下``, a lemma the note quotes from further back) is not
marked: the place is not proven, and the note still stands at its place with its verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Note, Witness
from .notes import Verdicts
from .truth import fold, shown_verdict

#: Claims that say what 今注疏本 reads against this text (the text is the emended reading).
RESTORE = ("corruption", "omission", "addition", "variant")


@dataclass(frozen=True)
class Em:
    """One change in one piece: characters ``start``–``end`` of the piece's text (``start == end``: a point);
    ``op`` ``restore`` (this text is the emended reading, ``other`` the 注疏's) or ``conjecture`` (the text's
    characters become ``other``)."""

    start: int
    end: int
    op: str
    other: str
    note: str
    verdict: str


def emendations(w: Witness, verdicts: Verdicts | None) -> dict[str, list[Em]]:
    """piece id → its changes, in order, for every 案 note of ``w`` whose claims can be placed."""
    out: dict[str, list[Em]] = {}
    if verdicts is None:
        return out
    for p in w.pieces():
        # only the piece's own notes (not one within a note) with a verdict: most pieces have none, and are not
        # read further (a walk of every piece of every base text was most of this).  Whether a piece holds a note
        # at all is asked first of its nodes' types, in C (a step of Python per node of every piece was most of
        # what was left: a Note is no class's base)
        content = p.content
        if not p.id or Note not in map(type, content) or not any(isinstance(n, Note) and n.id in verdicts
                                                                   for n in content):
            continue
        text = p.text
        offset = 0  # the characters of the piece's reading text before the node
        for node in p.content:
            at_note = offset
            offset += len(node.reading)
            if not isinstance(node, Note) or not node.id:
                continue
            v = verdicts.get(node.id)
            if v is None:
                continue
            shown = shown_verdict(v).key
            for c in v.claims:
                at = _anchor_at(c.anchor, c.lemma or "", text, at_note)
                em = _place(c.kind, c.target, c.lemma, c.reading, text, at, node.id, shown)
                if em is not None:
                    out.setdefault(p.id, []).append(em)
                    break  # one change per note: its first claim that can be placed
    for ems in out.values():
        ems.sort(key=lambda e: (e.start, e.end))
        keep: list[Em] = []
        for e in ems:  # overlapping changes cannot both be drawn: the first stands
            if not keep or e.start >= keep[-1].end and e.start != keep[-1].start:
                keep.append(e)
        ems[:] = keep
    return out


def _anchor_at(anchor: str | None, lemma: str, text: str, at: int) -> int:
    """Where the lemma ends in the piece: right before the note (``at``) when it stands there, else where the
    claim's anchored text (``…【lemma】…``, the context the 案 stage found) occurs nearest the note."""
    if not lemma or text[max(0, at - len(lemma)):at] == lemma or not anchor or "【" not in anchor:
        return at
    before, _, rest = anchor.partition("【")
    after = rest.partition("】")[2]
    for k in (6, 4, 2, 1):
        probe = before[-k:] + lemma + after[:k]
        hits = [i for i in range(len(text)) if text.startswith(probe, i)]
        if hits:
            i = min(hits, key=lambda h: abs(h - at))
            return i + len(before[-k:]) + len(lemma)
    return at


def _place(kind: str, target: str, lemma: str | None, reading: str | None, text: str, at: int, note: str,
           verdict: str) -> Em | None:
    lemma = lemma or ""
    if kind == "conjecture" and target == "self":
        if not lemma or fold(text[at - len(lemma):at]) != fold(lemma):
            return None
        return Em(at - len(lemma), at, "conjecture", reading or "", note, verdict)
    if kind in RESTORE and target == "zhushu":
        if not lemma:  # the 注疏 has extra characters here (衍): a point, the extra ones struck
            return Em(at, at, "restore", reading or "", note, verdict) if reading else None
        if fold(text[at - len(lemma):at]) != fold(lemma):
            return None
        return Em(at - len(lemma), at, "restore", reading or "", note, verdict)
    return None
