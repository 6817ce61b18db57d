"""Reports of the emend stage: JSON, CSV, a text summary, and the verdicts per note.

* :func:`to_json` / :func:`write_json` — everything: per claim the parsed record, its
  anchor(s), the check against the 注疏 and the emendations it made;
* :func:`write_csv` — one row per claim, for a spreadsheet;
* :func:`summary_lines` — counts per kind and per verdict, the anchoring failures and
  the contradicted claims (what ``jiaokan emend`` prints on stderr);
* :func:`verdicts_by_note` — ``{note id: NoteVerdict}``, what the HTML renderer consumes
  (one record per 案 note: its first claim's kind; the verdict over its claims about the
  注疏); in the JSON report it is ``by_note``, each record as ``{kind, verdict, summary,
  reading, claims}``, ``claims`` the evidence of each claim (:mod:`.evidence`).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from .. import __version__
from ..io import atomic_write_bytes, json_bytes
from .anchor import Claim
from .apply import EmendResult
from .check import Check, is_zhushu_claim
from .evidence import claim_evidence, evidence_by_note, readings_cell
from .verdict import ClaimEvidence, NoteVerdict, Verdict
from .words import claim_sentences
from .witnesses import WITNESS_ROLES

__all__ = ["to_json", "write_json", "write_csv", "csv_text", "summary_lines", "verdicts_by_note", "verdicts_json", "CSV_FIELDS"]

CSV_FIELDS: tuple[str, ...] = (
    "claim", "note", "kind", "rule", "target", "lemma", "reading", "evidence", "scope", "position",
    "status", "unit", "piece", "layer", "start", "end", "anchored", "context", "page", "line", "col", "below",
    "verdict", "zs_reading", "zs_unit", "zs_piece", "zs_context", "summary", "emendations", "warnings", "error", "raw",
    # the evidence of the verdict (:class:`ClaimEvidence`): whom the claim is about, the witness
    # that decided and its rule, why, where, and what every witness reads there
    "about", "witness", "decided_by", "why", "place", "readings",
    # the verdict as a reader is told it (简; ``why`` is the English): the sentence the edition shows
    "sentence",
)


def _claim_json(c: Claim, res: EmendResult) -> dict:
    ch = res.checks.get(c.id)
    a = c.anchor
    return {
        "id": c.id,
        "note": c.note_id,
        "index": c.index,
        "record": {k: v for k, v in c.record.to_dict().items() if k != "more"},
        "note_at": {"unit": c.unit, "piece": c.piece, "layer": c.layer, "offset": c.note_offset},
        "status": c.status,
        "error": c.error,
        "warnings": c.warnings,
        "anchor": a.to_dict() if a is not None else None,
        "below": [x.to_dict() for x in c.below],
        "zhushu_claim": is_zhushu_claim(c),
        "check": ch.to_dict() if ch is not None else None,
        # the claim's (its ``claim`` and ``note``, said again in each, are the item's ``id`` and ``note``)
        "emendations": [{k: v for k, v in e.to_dict().items() if k not in ("claim", "note")}
                        for e in res.emendations if e.claim_id == c.id],
    }


def to_json(res: EmendResult, verdicts: dict[str, NoteVerdict] | None = None) -> dict:
    """The whole report; ``verdicts``: :func:`verdicts_by_note` of ``res`` where the caller has made it already."""
    w = res.witness
    return {
        "generator": f"jiaokan {__version__}",
        "witness": {"siglum": w.meta.siglum, "file": w.meta.file, "title": w.meta.title, "chapter": w.meta.chapter},
        "against": ({"siglum": res.against.meta.siglum, "file": res.against.meta.file, "title": res.against.meta.title}
                    if res.against is not None else None),
        "notes": len({c.note_id for c in res.claims}),
        "claims": len(res.claims),
        "kinds": res.kind_counts(),
        "verdicts": res.verdict_counts(),
        "anchoring": {
            "ok": sum(1 for c in res.claims if c.status == "ok"),
            "failed": sum(1 for c in res.claims if c.status == "failed"),
            "none": sum(1 for c in res.claims if c.status == "none"),
        },
        "emendations": {s: len(res.on(s)) for s in [w.meta.siglum] + ([res.against.meta.siglum] if res.against else [])},
        "by_note": verdicts_json(res, verdicts),
        "items": [_claim_json(c, res) for c in res.claims],
    }


def write_json(res: EmendResult, path: str | Path, verdicts: dict[str, NoteVerdict] | None = None) -> Path:
    path = Path(path)
    atomic_write_bytes(path, json_bytes(to_json(res, verdicts)) + b"\n")
    return path


def _row(c: Claim, res: EmendResult) -> dict:
    r = c.record
    a = c.anchor
    ch = res.checks.get(c.id)
    return {
        "claim": c.id,
        "note": c.note_id,
        "kind": r.kind,
        "rule": r.rule,
        "target": r.target_name or r.target,
        "lemma": r.lemma,
        "reading": r.reading,
        "evidence": " ".join(s.name for s in r.evidence),
        "scope": r.scope,
        "position": r.position,
        "status": c.status,
        "unit": a.unit if a else c.unit,
        "piece": a.piece if a else c.piece,
        "layer": a.layer if a else c.layer,
        "start": a.start if a else "",
        "end": a.end if a else "",
        "anchored": a.text if a else "",
        "context": a.context if a else "",
        "page": (a.page or "") if a else "",
        "line": (a.line or "") if a else "",
        "col": (a.col or "") if a else "",
        "below": len(c.below),
        "verdict": (ch.verdict or "") if ch else "",
        "zs_reading": (ch.reading if ch.reading is not None else "") if ch else "",
        "zs_unit": (ch.zs_unit or "") if ch else "",
        "zs_piece": (ch.zs_piece or "") if ch else "",
        "zs_context": (ch.zs_context or "") if ch else "",
        "summary": ch.summary if ch else "",
        "emendations": "; ".join(f"{e.witness}:{e.original or '∅'}→{e.emended or '∅'}"
                                 for e in res.emendations if e.claim_id == c.id),
        "warnings": "; ".join(c.warnings),
        "error": c.error or "",
        "raw": r.raw,
    }


def _evidence_cells(ev: ClaimEvidence) -> dict:
    return {"about": ev.target, "witness": ev.witness or "", "decided_by": ev.rule, "why": ev.why,
            "place": ev.place or "", "readings": readings_cell(ev.readings),
            "sentence": claim_sentences(ev)["zh-Hans"]}


def csv_text(res: EmendResult) -> str:
    """One row per claim; after a claim, a row for each claim it implies about a 宋本 or the 释文
    (``claim`` ``<id>@songben``; the columns of the parsed note repeated, ``lemma``,
    ``reading``, ``kind`` and ``verdict`` its own, ``summary`` empty: its ``why`` says it)."""
    buf = io.StringIO()
    wr = csv.DictWriter(buf, fieldnames=list(CSV_FIELDS), lineterminator="\n")
    wr.writeheader()
    by_id: dict[str, list[ClaimEvidence]] = {}
    for ev in claim_evidence(res):
        by_id.setdefault(ev.id.split("@", 1)[0], []).append(ev)
    for c in res.claims:
        row = _row(c, res)
        evs = by_id.get(c.id, [])
        for ev in evs:
            if ev.id == c.id:  # the claim's own verdict (a claim about a 宋本 or the 释文: that witness's)
                wr.writerow({**row, "verdict": ev.verdict or "", "reading": ev.reading or "", **_evidence_cells(ev)})
            else:
                wr.writerow({**row, "claim": ev.id, "kind": ev.kind, "target": ev.target, "lemma": ev.lemma or "",
                             "reading": ev.reading or "", "verdict": ev.verdict or "", "zs_reading": "",
                             "zs_unit": "", "zs_piece": "", "zs_context": "", "summary": "", "emendations": "",
                             **_evidence_cells(ev)})
        if not evs:
            wr.writerow(row)
    return buf.getvalue()


def write_csv(res: EmendResult, path: str | Path) -> Path:
    path = Path(path)
    atomic_write_bytes(path, ("\ufeff" + csv_text(res)).encode("utf-8"))  # BOM: spreadsheets read it as UTF-8
    return path


def summary_lines(res: EmendResult, *, list_contradicted: bool = True) -> list[str]:
    w = res.witness
    notes = len({c.note_id for c in res.claims})
    against = f" against {res.against.meta.siglum} ({res.against.meta.title or res.against.meta.file})" \
        if res.against is not None else " (no 注疏 witness: claims about it are not covered)"
    out = [f"{w.meta.siglum} {w.meta.title or w.meta.file}: {notes} 案 notes, {len(res.claims)} claims{against}"]
    kinds = res.kind_counts()
    out.append("  kinds: " + ", ".join(f"{k} {n}" for k, n in kinds.items() if n))
    failed = res.anchor_failures()
    ok = sum(1 for c in res.claims if c.status == "ok")
    out.append(f"  anchored: {ok}/{len(res.claims)}" + (f"; FAILED {len(failed)}" if failed else ""))
    v = res.verdict_counts()
    total = sum(v.values())
    if total:
        out.append(f"  claims about the 注疏: {total}: " + ", ".join(
            f"{k} {n} ({100 * n / total:.0f}%)" for k, n in v.items() if n))
    out.append("  emendations: " + ", ".join(f"{s} {len(res.on(s))}" for s in
                                             [w.meta.siglum] + ([res.against.meta.siglum] if res.against else [])))
    for c in failed:
        out.append(f"  not anchored: {c.id}: {c.error} [{c.record.raw}]")
    if list_contradicted:
        for c in res.claims:
            ch = res.checks.get(c.id)
            if ch is not None and ch.verdict == "contradicted":
                out.append(f"  contradicted: {c.id}: {c.anchor.context if c.anchor else ''} — {ch.summary}")
    return out


#: Which verdict of its claims a note shows: one contradicted claim is worth a reader's look.
_NOTE_PRECEDENCE: tuple[Verdict, ...] = ("contradicted", "uncertain", "confirmed", "not covered")


def _note_verdict(checks: list[Check | None]) -> Verdict | None:
    """The verdict of a note over its claims: contradicted if any is, else uncertain if any is (one doubtful
    claim makes the note doubtful), else confirmed if any is, else not covered."""
    vs = [ch.verdict for ch in checks if ch is not None and ch.verdict]
    for v in _NOTE_PRECEDENCE:
        if v in vs:
            return v
    return None


def verdicts_by_note(res: EmendResult) -> dict[str, NoteVerdict]:
    """``{note id: NoteVerdict}`` for the HTML renderer.

    ``kind`` is the note's (first claim's) kind; ``verdict`` the verdict over its claims
    about the 注疏 (contradicted if any is, else confirmed if any is, else not covered;
    None when it makes no claim about the 注疏); ``summary`` one line; ``reading`` what
    the 注疏 reads at the (first checked) anchor, None when not covered.  A note that makes
    no claim about the 注疏 but one about a 宋本 or the 释文 (``X释文作Y``) that a witness
    here decides shows that verdict (its summary names the witness).  ``claims`` is the
    evidence of every claim (:func:`.evidence.evidence_by_note`).
    """
    out: dict[str, NoteVerdict] = {}
    evidence = evidence_by_note(res)
    by_note: dict[str, list[Claim]] = {}
    for c in res.claims:
        by_note.setdefault(c.note_id, []).append(c)
    for nid, claims in by_note.items():
        first = claims[0]
        checks = [res.checks.get(c.id) for c in claims]
        verdict = _note_verdict([ch for c, ch in zip(claims, checks) if is_zhushu_claim(c)])
        lead = next((ch for c, ch in zip(claims, checks) if ch is not None and is_zhushu_claim(c)
                     and ch.verdict == verdict), None) if verdict else None
        lead = lead or next((ch for ch in checks if ch is not None), None)
        r = first.record
        head: str = r.kind
        if r.lemma or r.reading:
            head += f" {r.lemma or '∅'}→{r.reading or '∅'}"
        if r.target_name:
            head += f" ({r.target_name})"
        summary = f"{head}: {lead.summary}" if lead is not None and lead.summary else head
        if len(claims) > 1:
            summary += f" (+{len(claims) - 1} more claim{'s' if len(claims) > 2 else ''})"
        if first.status == "failed":
            summary = f"{head}: not anchored ({first.error})"
        reading = lead.reading if (lead is not None and lead.verdict != "not covered") else None
        claims_ev = evidence.get(nid, ())
        if verdict is None:  # no claim about the 注疏: its own claims about a 宋本 or the 释文, where decided
            others = [ev for ev in claims_ev if ev.target in WITNESS_ROLES and "@" not in ev.id
                      and ev.verdict in ("confirmed", "contradicted")]
            verdict = next((v for v in _NOTE_PRECEDENCE if any(ev.verdict == v for ev in others)), None)
            spoke = next((ev for ev in others if ev.verdict == verdict), None)
            if spoke is not None and first.status != "failed":
                summary = f"{head}: {verdict} by {spoke.witness} ({spoke.target}): {spoke.why}"
        out[nid] = NoteVerdict(r.kind, verdict, summary, reading, claims_ev)
    return out


def verdicts_json(res: EmendResult, verdicts: dict[str, NoteVerdict] | None = None) -> dict[str, dict]:
    """:func:`verdicts_by_note` as JSON-ready dicts (``by_note`` of the report, and ``jiaokan emend``'s stdout);
    ``verdicts`` where the caller has them already (a build keeps them for the HTML: made once, not twice)."""
    return {nid: v.to_dict() for nid, v in (verdicts if verdicts is not None else verdicts_by_note(res)).items()}
