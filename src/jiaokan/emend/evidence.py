"""The evidence of every verdict, in the shape a scholar audits: :class:`~.verdict.ClaimEvidence`.

A verdict alone ("contradicted") asks to be trusted; with its evidence it can be checked:
the note, the anchored text and where it stands (卷, 葉, 行), what *every* collated
witness reads there, which witness decided and by which rule, in words.  This module
gathers that from what the emend stage already found (:class:`~.apply.EmendResult`: the
claims, their checks against the 注疏, the checks of the claims about a 宋本 and the 释文
from :mod:`.witnesses`) and the collation; it decides nothing itself.

Every claim of a note gives one record (its ``target`` as the note names it), followed by
one record per claim it implies about a 宋本 or the 释文 (id ``<claim id>@songben`` /
``@shiwen``): ``据宋本改正`` is also a claim that the 宋本 reads what this text reads.  A
claim about a 宋本 or the 释文 itself (``X释文作Y``) is decided in its own record.

The deciding rules (``ClaimEvidence.rule``): for the 注疏 the check's detail codes
(:class:`~.check.Check`: ``agrees``, ``agrees-running``, ``agrees-nearly``,
``as-this-text``, ``otherwise``, ``partly``, ``unsure-anchor``, ``moved-unseen``,
``no-passage``, ``no-layer``, ``edge``, ``no-witness``, ``not-anchored``); for the 宋本
the same prefixed ``songben-`` and ``songben-as-target`` (it reads what the note says the
corrected witness reads); for the 释文 ``shiwen-headword``, ``shiwen-below`` (an earlier
gloss says 下同), ``shiwen-other-headword``, ``shiwen-silent``, ``shiwen-no-gloss``,
``shiwen-no-passage``; for claims no witness here can decide ``no-witness`` (唐石经, 明监本 …),
``conjecture``, ``lacuna``, ``comment``, ``not-anchored``.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import replace
from typing import Iterable, Mapping

from ..model import Witness
from ..normalize.script import s2t_text
from .anchor import Anchor, Claim
from .apply import EmendResult
from .folded import FoldedTexts
from .shu import check_shu
from .check import (Aligned, Check, check_at, cites_zhushu, claimed_place, is_zhushu_claim, place_reading,
                    read_at_anchor)
from .verdict import UNCOVERED, ClaimEvidence, Kind, Verdict
from .witnesses import NAMES, WitnessCheck
from .words import TARGET_ZH, claim_sentences, reason_of, sentences

__all__ = ["claim_evidence", "evidence_by_note", "evidence_from_row", "place_label", "page_first_lines",
           "readings_cell", "parse_readings_cell", "EMPTY"]

#: How an empty reading ("" — the witness has nothing there) is written in a CSV cell.
EMPTY = "∅"

_WHO: dict[str, str] = {
    "tangshijing": "唐石经", "mingjianben": "明监本", "yuanben": "原本 (the 永乐大典 text of this work)",
    "guben": "古本", "tongjie": "朱子《仪礼经传通解》", "maoben": "毛本", "minben": "闽本", "aojigong": "敖继公",
}

_DIGITS = "〇一二三四五六七八九"


def _cn(n: int) -> str:
    """A number as the books write 卷 and 葉 numbers (0–999): 十, 十四, 二十, 一百〇五."""
    if n < 10:
        return _DIGITS[n]
    if n < 100:
        t, u = divmod(n, 10)
        return ("" if t == 1 else _DIGITS[t]) + "十" + (_DIGITS[u] if u else "")
    h, r = divmod(n, 100)
    head = _DIGITS[h] + "百"
    if r == 0:
        return head
    if r < 10:
        return head + "〇" + _DIGITS[r]
    return head + ("一" if r < 20 else "") + _cn(r)


_PAGE = re.compile(r"^(?:(?P<juan>\d+)-)?(?P<page>\d+)(?P<side>[a-z]?)$")


def place_label(page: str | None, line: int | None, first: Mapping[str, int] | None = None,
                juan: str = "") -> str | None:
    """``("010-1b", 19)`` → ``卷十 葉一b 行5``: where a character stands, as a reader finds it.

    ``first`` maps a page label to the first source line of that page, so that the line is
    counted on the page (a Kanripo source line is a line of the print); without it the
    source line is given (``line 19``).  ``juan`` names the 卷 when the page label does not
    (a single 卷 read on its own).  A page label of another shape is kept as it is.
    """
    if page is None and line is None:
        return None
    parts: list[str] = []
    m = _PAGE.match(page or "")
    if m:
        j = m.group("juan") or (juan if juan.isdigit() else "")
        if j:
            parts.append(f"卷{_cn(int(j))}")
        parts.append(f"葉{_cn(int(m.group('page')))}{m.group('side')}")
    elif page:
        parts.append(page)
    if line is not None:
        if first is not None and page is not None and page in first:
            parts.append(f"行{line - first[page] + 1}")
        else:
            parts.append(f"line {line}")
    return " ".join(parts)


def page_first_lines(w: Witness) -> dict[str, int]:
    """The first source line of every page of ``w`` that holds a character: the citations' one count of 行
    (:func:`jiaokan.render.cite.page_starts`), shared with the apparatus's.  Two counts had disagreed: this one
    left out the 案 notes' own lines, so a leaf that opens inside a note (士相見禮 葉十四a) was counted from its
    first line after the note, four lines late."""
    from ..render.cite import page_starts

    return {page: start + 1 for page, (start, _juan) in page_starts(w).items() if start is not None}


# ---------------------------------------------------------------------------
# Readings of every witness at a place
# ---------------------------------------------------------------------------


class _Readings:
    """What every witness of the result's collation reads at an anchor (cached alignments)."""

    def __init__(self, res: EmendResult) -> None:
        self.res = res
        self.siglum = res.witness.meta.siglum
        col = res.collation
        self.others: dict[str, Aligned | None] = {}
        if col is not None:
            for s in col.witnesses:
                if s != self.siglum:
                    self.others[s] = Aligned(col, self.siglum, s) if col.base in (self.siglum, s) else None

    def at(self, c: Claim, a: Anchor, ch: Check | None) -> dict[str, str]:
        out = {self.siglum: a.text}
        zs = self.res.against.meta.siglum if self.res.against is not None else None
        for s, al in self.others.items():
            if s == zs and ch is not None and is_zhushu_claim(c) and (
                    ch.row is not None or (ch.verdict in ("confirmed", "contradicted") and ch.reading is not None)):
                # the reading the verdict was given on (also where no row holds it: a passage the
                # 注疏 lacks as a whole, its running text, its front matter)
                got = ch.reading
            elif al is None:
                got = None
            elif s == zs and ch is not None and a is c.anchor and read_at_anchor(c):
                got = ch.reading  # (what check_at would read again: the 注疏 was asked it by check_claims)
            else:
                got = check_at(c, al, anchor=a).reading
            out[s] = got if got is not None else UNCOVERED
        return out

    def places(self, c: Claim) -> dict[str, str] | None:
        """A place claim's evidence: where each witness sets the text (:func:`.check.place_reading`),
        not what it reads at the anchor; None when no alignment is at hand."""
        al = next((x for x in self.others.values() if x is not None), None)
        if al is None:
            return None
        out: dict[str, str] = {}
        for s in [self.siglum, *self.others]:
            got = place_reading(c, al, s)
            out[s] = got if got is not None else UNCOVERED
        return out


def readings_cell(readings: Mapping[str, str]) -> str:
    """``{"JS": "比", "ZS": "北"}`` → ``JS=比; ZS=北`` (an empty reading as :data:`EMPTY`)."""
    return "; ".join(f"{s}={t or EMPTY}" for s, t in readings.items())


def parse_readings_cell(cell: str) -> dict[str, str]:
    """The inverse of :func:`readings_cell`."""
    out: dict[str, str] = {}
    for part in cell.split("; ") if cell else []:
        s, _, t = part.partition("=")
        out[s] = "" if t == EMPTY else t
    return out


def evidence_from_row(row: Mapping[str, str]) -> ClaimEvidence:
    """The evidence of one row of ``jiaokan emend --csv`` (:func:`.report.csv_text`) read back.

    The columns it reads: ``claim kind anchored lemma reading about verdict decided_by why
    context place witness readings``; the lemma is the anchored text where there is an
    anchor (``context``), else the note's.
    """
    return ClaimEvidence.from_dict({
        "id": row["claim"], "kind": row["kind"],
        "lemma": row["anchored"] if row.get("context") else (row.get("lemma") or None),
        "reading": row.get("reading", ""), "target": row.get("about", ""), "verdict": row.get("verdict") or None,
        "rule": row.get("decided_by", ""), "why": row.get("why", ""), "anchor": row.get("context") or None,
        "place": row.get("place") or None, "witness": row.get("witness") or None,
        "readings": parse_readings_cell(row.get("readings", "")),
    })


# ---------------------------------------------------------------------------
# The records
# ---------------------------------------------------------------------------


def _uncheckable(c: Claim, res: EmendResult) -> tuple[str, str]:
    """(rule, why) for a claim no witness here decides."""
    r = c.record
    if c.status == "failed" or c.anchor is None:
        # (the anchoring's own message stays in the report's ``error`` column: it is a developer's)
        return "not-anchored", "The claim could not be anchored in the text (the place the note speaks of was not found)."
    if r.kind == "conjecture":
        return "conjecture", "A conjecture on this text: no witness decides it; the edition records it."
    if r.kind == "lacuna":
        return "lacuna", "A lacuna in this text's source: no witness decides it."
    if r.kind == "comment":
        return "comment", "A comment: it claims no reading a witness could bear out."
    who = _WHO.get(r.target, r.target_name or r.target or "the witness it names")
    if r.target in NAMES:
        return "no-witness", f"A claim about the {NAMES[r.target]}; see the record of that witness below."
    return "no-witness", f"A claim about {who}: no witness of it is collated here, so it cannot be checked."


#: The claims no witness here decides, in Chinese (the English is :func:`_uncheckable`'s).
_UNCHECKABLE_ZH: dict[str, str] = {
    "not-anchored": "案语所指之处未能于此本中寻得，无从核对。",
    "conjecture": "此为校者对此本之推测，无他本可断，今录之。",
    "lacuna": "此本所据之本于此有阙，无他本可断。",
    "comment": "此为按语，不言异文，无可核对。",
}


def _uncheckable_sentences(rule: str, target: str, why: str) -> dict[str, str]:
    zh = _UNCHECKABLE_ZH.get(rule) or f"此条言{TARGET_ZH.get(target, '他本')}之读，此处未有其本参校，无从核对。"
    return {"zh-Hans": zh, "zh-Hant": s2t_text(zh), "en": why}


def _unheld_zh(c: Claim) -> str:
    held = {"zhushu", "songben", "shiwen"}
    names = [s.name for s in c.record.evidence if s.id in _WHO and s.id not in held]
    return f"案语又引{'、'.join(dict.fromkeys(names))}，此处未有其本参校。" if names else ""


def _unheld(c: Claim, res: EmendResult) -> str:
    """A sentence naming the evidence the note cites that no witness here holds (唐石经 …)."""
    held = {"zhushu", "songben", "shiwen"}
    names = [s.name for s in c.record.evidence if s.id in _WHO and s.id not in held]
    return f" The note also cites {'、'.join(dict.fromkeys(names))}, of which no witness is collated here." if names else ""


#: the last result's evidence: the JSON report, the CSV and the HTML verdicts each ask for it
_MEMO: tuple[weakref.ref[EmendResult], tuple, list[ClaimEvidence]] | None = None


def claim_evidence(res: EmendResult) -> list[ClaimEvidence]:
    """The evidence of every claim of ``res`` in text order, each followed by its claims about other witnesses.

    Made once per result (the report, the CSV and the verdicts of one witness each ask for it,
    and each time it aligned the witnesses again); made anew if the result has changed since.
    """
    global _MEMO
    stamp = (len(res.claims), len(res.checks), len(res.witness_checks), len(res.emendations),
             id(res.collation), id(res.against), len(res.shu))
    if _MEMO is not None and _MEMO[0]() is res and _MEMO[1] == stamp:
        return list(_MEMO[2])
    out = _claim_evidence(res)
    _MEMO = (weakref.ref(res), stamp, out)
    return list(out)


def _claim_evidence(res: EmendResult) -> list[ClaimEvidence]:
    rd = _Readings(res)
    first = page_first_lines(res.witness)
    zs = res.against.meta.siglum if res.against is not None else None
    shu_texts = FoldedTexts()  # the 疏 of res.shu's witnesses, made once for all the claims
    out: list[ClaimEvidence] = []
    for c in res.claims:
        a, r = c.anchor, c.record
        ch = res.checks.get(c.id)
        places = rd.places(c) if a is not None and (r.between or r.moved_to) else None
        readings = places if places is not None else rd.at(c, a, ch) if a is not None else {}
        anchor = a.context if a is not None else None
        place = place_label(a.page, a.line, first, res.witness.meta.juan) if a is not None else None
        lemma = a.text if a is not None else (r.lemma or None)
        checks = res.witness_checks.get(c.id, [])
        own = next((w for w in checks if w.wc.how == "named" and w.wc.target == r.target), None)
        if own is not None:  # a claim about a 宋本 or the 释文 itself: that witness's check is its verdict
            out.append(_witness_evidence(own, lemma, anchor, place, readings, c.id, r.kind))
            out.extend(_witness_evidence(w, lemma, anchor, place, readings) for w in checks if w is not own)
            continue
        if (is_zhushu_claim(c) or (ch is not None and ch.verdict is not None)) and ch is not None:
            verdict: Verdict | None = ch.verdict  # type: ignore[assignment]
            rule = ch.detail
            said = sentences(reason_of(r, ch, a.text if a is not None else None))
            why = said["en"]
            witness = zs if ch.verdict is not None and ch.detail != "no-witness" else None
        else:
            verdict, witness = None, None
            rule, why = _uncheckable(c, res)
            said = _uncheckable_sentences(rule, r.target, why)
        unheld = _unheld(c, res)
        zh = _unheld_zh(c)
        also = {"zh-Hans": zh, "zh-Hant": s2t_text(zh), "en": unheld}
        said = {k: v + also.get(k, unheld) for k, v in said.items()}
        said_reading = claimed_place(c) if places is not None else r.reading  # a place claim: the place
        if cites_zhushu(c) and witness is not None:
            # 原本脫此二字據今注疏本補: the 注疏 decides as the editors' evidence, and what the note says
            # it reads is this text's reading as corrected from it (原本's own reading is in ``why``)
            said_reading = "" if r.kind == "addition" else (lemma or "")
        out.append(ClaimEvidence(c.id, r.kind, lemma, said_reading, r.target or ("self" if r.kind == "conjecture" else ""),
                                 verdict, rule, why + unheld, anchor, place, witness, readings, said))
        out.extend(_witness_evidence(w, lemma, anchor, place, readings) for w in checks)
        out.extend(check_shu(c, res.shu, lemma, anchor, place, shu_texts))
    return out


def _witness_evidence(w: WitnessCheck, lemma: str | None, anchor: str | None, place: str | None,
                      readings: dict[str, str], cid: str | None = None, kind: Kind | None = None) -> ClaimEvidence:
    """The record of a witness check: its own (``<claim id>@<target>``), or the claim's (``cid``)."""
    rec = w.wc.record
    readings = dict(readings)
    if w.wc.target == "shiwen" and w.witness and w.verdict == "confirmed":
        # the 释文 is the 注疏's 音义, not its text: what decided is the headword of a gloss (the note's
        # reading, which the gloss bears out), not what the 注疏's text reads at the place (曏 / 鄉)
        readings[w.witness] = rec.reading
    ev = ClaimEvidence(cid or w.wc.id, kind or rec.kind, lemma, rec.reading, w.wc.target, w.verdict, w.rule, w.why,
                       anchor, place, w.witness, readings)
    said = claim_sentences(ev)  # the check of that witness speaks English: its Chinese is made from the record
    if w.why:
        said["en"] = w.why
    return replace(ev, sentences=said)


def evidence_by_note(res: EmendResult, evidence: Iterable[ClaimEvidence] | None = None) -> dict[str, tuple[ClaimEvidence, ...]]:
    """:func:`claim_evidence` grouped by note id (a claim id is its note's id, ``~N``, ``@witness``)."""
    note_of = {c.id: c.note_id for c in res.claims}
    out: dict[str, list[ClaimEvidence]] = {}
    for ev in evidence if evidence is not None else claim_evidence(res):
        out.setdefault(note_of.get(ev.id.split("@", 1)[0], ev.id), []).append(ev)
    return {k: tuple(v) for k, v in out.items()}
