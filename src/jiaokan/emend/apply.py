"""Apply the 案 notes: emended readings of this witness and of the collated 注疏.

:func:`emend` runs the whole stage on a witness with 案 notes (the 集释), optionally
against a 注疏 witness: parse and anchor every note (:mod:`.anchor`), collate the two
witnesses and check every claim about 今注疏本 (:mod:`.check`), and derive the
emendations (:class:`Emendation`):

* a **conjecture** on this text (``X当作Y``, ``X似衍文``, ``XY误倒``, ``X下疑脱Y``) emends
  *this* witness at its anchor: replace, delete, transpose or insert; ``resp`` is the
  proposer the note names (敖继公云…) or the 四库 editors (``siku``);
* a **claim about 今注疏本** (corruption, omission, addition, variant) emends the *注疏
  witness* where one is collated and the check found the place (verdict
  ``confirmed``): the 注疏's reading there is replaced by this text's (北 → 比), the
  missing characters are inserted (遂), the extra ones deleted (还).  A contradicted or
  uncovered claim emends nothing: there is no reading of the 注疏 to correct there.

Comments, lacunae and claims about other witnesses (唐石经作…) emend nothing.  Every
emendation keeps the note's evidence (``sources``) and points back to its note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from ..errors import EmendationError
from ..collate.engine import collate
from ..collate.model import Collation
from ..model import Witness
from ..normalize.script import convert_text
from .anchor import Anchor, Claim, anchor_witness, piece_key
from .check import Aligned, Check, check_claims, is_zhushu_claim
from .notes import Source
from .witnesses import WitnessCheck, check_witnesses
from .verdict import KINDS

__all__ = ["Emendation", "EmendResult", "emend", "emend_self", "emend_against", "emended_texts", "proposer"]

#: Sources that are people (or works by one person) who can *propose* a reading.
PERSONS: dict[str, str] = {
    "aojigong": "敖继公",
    "tongjie": "朱熹",
    "yangfu": "杨复",
    "sanlitu": "聂崇义",
    "shu": "贾公彦",
    "zhu": "郑玄",
}

SIKU = ("siku", "四库馆臣")


@dataclass
class Emendation:
    """One change to one witness's text, made on the authority of one 案 note.

    ``start``/``end`` are offsets in :attr:`Piece.text` of ``piece`` of witness
    ``witness`` (equal for an insertion); ``original`` the characters there, ``emended``
    what they become ("" = deleted).  ``op`` is replace, delete, insert or transpose.
    ``resp``/``resp_name`` who proposes the emended reading; ``sources`` the evidence the
    note cites; ``note_witness`` the siglum of the witness that holds the note.
    """

    id: str
    claim_id: str
    note_id: str
    kind: str
    witness: str
    unit: str
    piece: str
    layer: str
    start: int
    end: int
    original: str
    emended: str
    op: str
    resp: str
    resp_name: str
    sources: tuple[Source, ...] = ()
    note_witness: str = ""
    role: str = "main"
    verdict: str | None = None

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "claim": self.claim_id,
            "note": self.note_id,
            "kind": self.kind,
            "witness": self.witness,
            "unit": self.unit,
            "piece": self.piece,
            "layer": self.layer,
            "start": self.start,
            "end": self.end,
            "original": self.original,
            "emended": self.emended,
            "op": self.op,
            "resp": self.resp,
            "resp_name": self.resp_name,
            "sources": [s.to_dict() for s in self.sources],
            "role": self.role,
            "verdict": self.verdict,
        }


@dataclass
class EmendResult:
    """Everything the emend stage found for one witness (and its 注疏, if collated)."""

    witness: Witness
    against: Witness | None
    claims: list[Claim]
    checks: dict[str, Check]
    emendations: list[Emendation] = field(default_factory=list)
    collation: Collation | None = None
    #: the claims' claims about a 宋本 and the 释文, checked (:mod:`.witnesses`), by claim id
    witness_checks: dict[str, list[WitnessCheck]] = field(default_factory=dict)
    #: the witnesses whose 疏 checks the claims that rest on the 疏 (the 注疏, the 单疏本: :mod:`.shu`)
    shu: list[Witness] = field(default_factory=list)

    @property
    def siglum(self) -> str:
        return self.witness.meta.siglum

    def on(self, siglum: str) -> list[Emendation]:
        """The emendations of one witness's text."""
        return [e for e in self.emendations if e.witness == siglum]

    def kind_counts(self) -> dict[str, int]:
        out: dict[str, int] = {k: 0 for k in KINDS}
        for c in self.claims:
            out[c.record.kind] = out.get(c.record.kind, 0) + 1
        return out

    def verdict_counts(self) -> dict[str, int]:
        """Verdicts of the claims about the 注疏 (other claims are not counted)."""
        out = {"confirmed": 0, "contradicted": 0, "uncertain": 0, "not covered": 0, "not checked": 0}
        for c in self.claims:
            if not is_zhushu_claim(c):
                continue
            v = self.checks[c.id].verdict
            out[v or "not checked"] += 1
        return out

    def anchor_failures(self) -> list[Claim]:
        return [c for c in self.claims if c.status == "failed"]


# ---------------------------------------------------------------------------


def proposer(claim: Claim) -> tuple[str, str]:
    """(id, name) of who proposes a conjecture: the person the note quotes, else the 四库 editors."""
    r = claim.record
    if r.kind == "conjecture" and r.evidence:
        ev = r.evidence[0]
        if ev.id in PERSONS and re.search(re.escape(ev.name) + r"(云|曰|謂|谓|以為|以为|說|说)", r.raw):
            return ev.id, PERSONS[ev.id]
    return SIKU


def _sources(claim: Claim) -> tuple[Source, ...]:
    return tuple(claim.record.evidence)


def emend_self(claims: list[Claim]) -> list[Emendation]:
    """The emendations of the noted witness: its conjectures, at every anchor."""
    out: list[Emendation] = []
    for c in claims:
        r = c.record
        if r.kind != "conjecture" or r.target != "self" or c.status != "ok":
            continue
        rid, rname = proposer(c)
        for k, a in enumerate(c.anchors):
            if a.is_point:
                op, new = "insert", r.reading
                if not new:
                    continue
            elif r.transposed:
                op, new = "transpose", r.reading or a.text[::-1]
            elif r.reading == "":
                op, new = "delete", ""
            else:
                op, new = "replace", r.reading
            out.append(_emendation(c, k, a, c.witness, a.unit, a.piece, a.layer, a.start, a.end, a.text, new, op,
                                   rid, rname, None))
    return out


def emend_against(claims: list[Claim], checks: dict[str, Check], against: Witness | None,
                  script_of_notes: str = "") -> list[Emendation]:
    """The emendations of the 注疏 witness: its readings the notes call wrong, where confirmed."""
    if against is None:
        return []
    out: list[Emendation] = []
    target_script = against.meta.script
    for c in claims:
        if not is_zhushu_claim(c) or c.status != "ok":
            continue
        ch = checks.get(c.id)
        if ch is None:
            continue
        pairs = [(c.anchors[0], ch)] + list(zip(c.below, ch.below))
        for n, (a, k) in enumerate(pairs):
            if k.verdict != "confirmed" or not k.exact or k.zs_piece is None:
                continue
            ours = _in_script(a.text, script_of_notes, target_script)
            theirs = k.reading or ""
            kind = c.record.kind
            if kind == "omission":
                op, new = "insert", ours
            elif kind == "addition":
                op, new = "delete", ""
            else:
                op, new = ("transpose" if c.record.transposed else "replace"), ours
            out.append(_emendation(c, n, a, against.meta.siglum, k.zs_unit or "", k.zs_piece, a.layer,
                                   k.zs_start or 0, k.zs_end or 0, theirs, new, op, *SIKU, k.verdict))
    return out


def _emendation(c: Claim, k: int, a: Anchor, witness: str, unit: str, piece: str, layer: str, start: int, end: int,
                original: str, new: str, op: str, rid: str, rname: str, verdict: str | None) -> Emendation:
    # The k-th anchor of the claim: unique per claim and witness by construction (the
    # anchor's offset is not: two 下同 occurrences may sit at the same offset of two pieces).
    suffix = "" if k == 0 else f".b{k}"
    return Emendation(
        id=f"em.{witness}.{c.id}{suffix}".replace("~", "-"),
        claim_id=c.id,
        note_id=c.note_id,
        kind=c.record.kind,
        witness=witness,
        unit=unit,
        piece=piece,
        layer=layer,
        start=start,
        end=end,
        original=original,
        emended=new,
        op=op,
        resp=rid,
        resp_name=rname,
        sources=_sources(c),
        note_witness=c.witness,
        role=a.role,
        verdict=verdict,
    )


def _in_script(text: str, source: str, target: str) -> str:
    """This text's characters written in the 注疏's script (a simplified 集释 against a traditional 注疏)."""
    if source == target or not text or source not in ("simplified", "traditional"):
        return text
    if target not in ("simplified", "traditional"):
        return text
    return convert_text(text, target)


# ---------------------------------------------------------------------------


def emend(witness: Witness, against: Witness | None = None, *, collation: Collation | None = None,
          others: Sequence[Witness] = (), front: Witness | None = None,
          danshu: Sequence[Witness] = ()) -> EmendResult:
    """Anchor, check and apply every 案 note of ``witness`` (against the 注疏 ``against``).

    ``others`` are further witnesses of the same 篇 (the 四部丛刊 of role ``songben`` …):
    they give their readings at every claim's place and, by role, check the claims about
    the witnesses they stand for (:mod:`.witnesses`).  ``collation`` may be given when the
    witnesses were already collated (with ``others``, ``witness`` must be its base);
    otherwise they are collated here with ``witness`` as the base.
    ``front`` is the 注疏's front matter (卷首), where it gives the 目録 of every 篇: claims on
    the 集释's 目録 passage are checked there.  ``danshu`` are the 单疏本 witnesses of the 篇: with
    the 注疏's own 疏, they check what the notes say of the 疏 (:mod:`.shu`).
    Raises ``EmendationError`` when two witnesses share a siglum, or ``against`` has a role other than the 注疏's.
    """
    if against is not None and against.meta.role not in ("", "zhushu"):
        # a user's trial: the 四部丛刊 given as the 注疏 had every claim about 今注疏本 checked against it (11 of 21
        # "contradicted", each sentence saying "the 注疏 reads …" of another edition); what a role says it is not
        # is no evidence of what 今注疏本 reads
        raise EmendationError(
            f"{against.meta.siglum} ({against.meta.file}) is a {against.meta.role} witness, not the 注疏 (role "
            f"zhushu): the notes' claims about 今注疏本 are checked against the 注疏 only; give this one among the "
            "others (jiaokan emend … --with FILE), which give their readings and check what they stand for")
    claims = anchor_witness(witness)
    aligned = None
    party = [x for x in (against, *others) if x is not None]
    sigla = [witness.meta.siglum] + [x.meta.siglum for x in party]
    if len(set(sigla)) != len(sigla):
        raise EmendationError(f"two witnesses share a siglum ({', '.join(sigla)}): give them distinct sigla")
    if party:
        bases = (witness.meta.siglum,) if others else (witness.meta.siglum, party[0].meta.siglum)
        if collation is None or collation.base not in bases \
                or any(collation.witnesses.get(x.meta.siglum) is not x for x in (witness, *party)):
            collation = collate([witness, *party], base=witness.meta.siglum)
        if against is not None:
            aligned = Aligned(collation, witness.meta.siglum, against.meta.siglum, front=front)
    else:
        collation = None
    checks = check_claims(claims, aligned)
    ems = emend_self(claims) + emend_against(claims, checks, against, witness.meta.script)
    songben = next((x.meta.siglum for x in others if x.meta.role == "songben"), None)
    more = check_witnesses(claims, collation, witness.meta.siglum,
                           zhushu=against.meta.siglum if against is not None else None, songben=songben)
    shu = [x for x in (against, *danshu) if x is not None]
    return EmendResult(witness, against, claims, checks, ems, collation, more, shu)


def emended_texts(w: Witness, emendations: list[Emendation]) -> dict[str, str]:
    """The emended :attr:`Piece.text` of every piece of ``w`` that an emendation changes.

    Overlapping emendations are not combined: the later one (in text order) is skipped.
    """
    by_piece: dict[str, list[Emendation]] = {}
    for e in emendations:
        if e.witness == w.meta.siglum:
            by_piece.setdefault(e.piece, []).append(e)
    out: dict[str, str] = {}
    for u in w.units():
        for p in u.pieces:
            k = piece_key(u, p)
            if k not in by_piece:
                continue
            text = p.text
            for e in reversed(non_overlapping(by_piece[k])):
                text = text[: e.start] + e.emended + text[e.end :]
            out[k] = text
    return out


def non_overlapping(ems: list[Emendation]) -> list[Emendation]:
    """``ems`` sorted by position, without those that overlap an earlier one."""
    kept: list[Emendation] = []
    for e in sorted(ems, key=lambda x: (x.start, x.end)):
        if kept and (e.start < kept[-1].end or (e.start == kept[-1].start == kept[-1].end == e.end)):
            continue
        kept.append(e)
    return kept
