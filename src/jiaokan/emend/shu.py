"""The 案 notes' claims about the 疏, checked against the 疏 of the 注疏 and of the 单疏本.

Many notes rest on 賈公彦's 疏: ``據疏云同姓之中有伯仲同者…可證`` (the 疏 reads that), ``據疏内舉注文無之``
(the 疏, quoting the 注, reads as this text).  The 疏 the editors read is in two witnesses here: the
注疏's own 疏 layer, and the 单疏本 (四部叢刊 影宋 《儀禮疏》, role ``danshu``), a print of the 疏 alone and
the older witness of it.  Each claim citing the 疏 gets one record per such witness
(``<claim id>@shu:<siglum>``), with what that witness's 疏 reads:

* a quotation (``疏云Q``): the longest head of Q (at least :data:`MIN_KEYS` characters; else the
  longest stretch further in, at least :data:`MIN_INNER`) found in that witness's 疏 of the 篇 —
  ``confirmed`` with the characters found; what the note goes on with may be the editors' own
  words, so only the part found is claimed;
* no quotation (``疏内舉注文…``, ``據疏…改正``): this text's characters around the claim's place
  (:data:`CONTEXT` on each side, the lemma as this text has it) found in that 疏 — ``confirmed``;
* not found: ``not covered``, saying so (the 疏 may not quote the place, the note may give its
  sense), never ``contradicted``: a 疏 that does not hold a quotation proves nothing about the 注疏;
* a witness with no 疏 of the 篇 at all (the 单疏本 lost 士喪禮's 卷): ``not covered``, saying that.

Nothing here is guessed: a verdict names the witness and shows its characters.
"""

from __future__ import annotations

import re

from ..model import Witness
from ..normalize import is_ignorable, key
from .anchor import Claim
from .verdict import UNCOVERED, ClaimEvidence, Verdict
from .words import shu_sentences

__all__ = ["cites_shu", "shu_quote", "check_shu", "MIN_KEYS", "CONTEXT"]

#: The fewest characters of a quotation (or of this text's context) that count as found.
MIN_KEYS = 6
#: The fewest characters of a stretch further into a quotation that count as found.
MIN_INNER = 8
#: Characters of this text on each side of the claim's place, for a claim without a quotation.
CONTEXT = 4

#: 疏 named as the editors' evidence (注疏 is the edition, not the 疏).
_CITES = re.compile(r"(?<!注)(?:疏|䟽)(?!本)")
#: a quotation of the 疏: 疏云Q / 疏曰Q / 疏文云Q / 疏内云Q / 疏釋…云Q
_QUOTE = re.compile(r"(?<!注)(?:疏|䟽)(?:文|内|中)?(?:云|曰)(?P<q>.+)")


def cites_shu(c: Claim) -> bool:
    """Does the claim's note rest on the 疏 (an evidence source ``shu``, or 疏 named outside 注疏)?"""
    r = c.record
    return any(s.id == "shu" for s in r.evidence) or bool(_CITES.search(r.raw.replace("注疏", "")))


def shu_quote(raw: str) -> str:
    """The text a note quotes from the 疏 (``疏云…`` to the end of the note; "" when it quotes none).
    Where the quotation ends is found in the witness (:func:`check_shu`), not guessed here."""
    m = _QUOTE.search(raw)
    return "".join(ch for ch in m.group("q") if not is_ignorable(ch)) if m else ""


class _Shu:
    """One witness's 疏 of a 篇: one key per character, and the characters."""

    def __init__(self, w: Witness) -> None:
        self.chars = [ch for p in w.pieces() if p.layer == "shu" for ch in p.text if not is_ignorable(ch)]
        self.keys = "".join(key(ch)[:1] or ch for ch in self.chars)


def _keys(s: str) -> str:
    return "".join(key(ch)[:1] or ch for ch in s if not is_ignorable(ch))


def _longest_head(q: str, t: _Shu) -> tuple[int, int, int] | None:
    """(start, length) in characters of the stretch of ``q`` found in ``t``, and where in ``t``: the longest
    head of ``q`` of at least :data:`MIN_KEYS` characters; failing that, the longest stretch further in of
    at least :data:`MIN_INNER` (a note quotes 玉藻上大夫曰下臣… where the 疏 reads 玉藻云上大夫曰下臣…)."""
    kq = _keys(q)
    for start, least in ((0, MIN_KEYS), *((i, MIN_INNER) for i in range(1, max(1, len(kq) - MIN_INNER + 1)))):
        if len(kq) - start < least:
            break
        at = t.keys.find(kq[start : start + least])
        if at < 0:
            continue
        n = least
        while start + n < len(kq):
            nxt = t.keys.find(kq[start : start + n + 1])
            if nxt < 0:
                break
            at, n = nxt, n + 1
        return start, n, at
    return None


def _context(c: Claim) -> str:
    """This text's characters around the claim's place (its lemma as this text has it), from the anchor's
    context (``left【lemma】right``)."""
    a = c.anchor
    m = re.match(r"^(.*)【(.*)】(.*)$", a.context or "") if a is not None else None
    if m is None:
        return ""
    left, lemma, right = ("".join(ch for ch in x if not is_ignorable(ch)) for x in m.groups())
    return left[-CONTEXT:] + lemma + right[:CONTEXT]


def check_shu(c: Claim, witnesses: list[Witness], lemma: str | None, anchor: str | None,
              place: str | None) -> list[ClaimEvidence]:
    """The records of claim ``c`` against the 疏 of each witness of ``witnesses`` (the 注疏, the 单疏本)."""
    if not cites_shu(c) or c.anchor is None and not shu_quote(c.record.raw):
        return []
    q = shu_quote(c.record.raw)
    said = q or _context(c)
    how = "quote" if q else "context"
    out: list[ClaimEvidence] = []
    kept = [ch for ch in said if not is_ignorable(ch)]
    for w in witnesses:
        s = w.meta.siglum
        t = _Shu(w)
        danshu = w.meta.role == "danshu"
        verdict: Verdict
        rest = ""
        if not t.chars:
            verdict, got, reading, found = "not covered", UNCOVERED, said, "none"
        else:
            hit = _longest_head(said, t) if said else None
            if hit is None:
                verdict, got, reading, found = "not covered", UNCOVERED, said, ""
            else:
                i, n, at = hit
                reading = "".join(kept[i : i + n])
                got = found = "".join(t.chars[at : at + n])
                rest = "".join(kept[i + n : i + n + 8]) if how == "quote" else ""
                verdict = "confirmed"
        said_by = shu_sentences(verdict, s, danshu, found, said, rest, how == "quote")
        ev = ClaimEvidence(f"{c.id}@shu:{s}", c.record.kind, lemma, reading, "shu", verdict,
                           f"shu-{how}", said_by["en"], anchor, place, s, {s: got}, said_by)
        out.append(ev)
    return out
