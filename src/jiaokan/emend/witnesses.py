"""Which witness speaks for a claim about a 宋本 or the 释文, and what it says.

The 案 notes cite more than the 注疏: ``据宋本改正`` says that a 宋本 reads what this text
reads, ``X释文作Y`` that 陆德明's 经典释文 reads Y, ``今从释文订正`` that it reads this
text's X.  Two of those witnesses are at hand in a collation of the 仪礼:

* the witness of role ``songben`` (the 四部丛刊 明翻宋本): it is aligned with the noted
  text like the 注疏, so the claim is checked by the same rules (:func:`.check.check_at`);
* the 注疏's 音义 layer, which is 陆德明's 释文 as the 注疏 prints it: it glosses words, it
  does not run with the text, so a claim about the 释文 is checked on the glosses of the
  passage: is the claimed reading a *headword* there (``曏音向``, ``復扶又反``), not a
  sound gloss (``音向``), a 反切 character or a variant it mentions (``本又作X``)?  A
  gloss that says ``下同`` covers the later occurrences of its headword, so a later place
  without a gloss of its own is looked up in the glosses before it.  Where the glosses
  of the place gloss the other reading and the 注疏's own text reads it too, the 音义 may
  have been made to agree with the text it is printed with: not covered, never contradicted.

Witnesses are chosen by role, never by format (``WitnessMeta.role``).  What the note
implies a witness reads is worked out here (:func:`witness_claims`); the verdict says which
witness spoke (:attr:`WitnessCheck.witness`).  A false "the editors were wrong" is the worst
error, so the 释文 check contradicts only where the glosses of the place gloss the other
reading and not the claimed one; where they gloss neither it is ``not covered``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..collate.model import Collation
from ..normalize import key, strip_ignorable
from .anchor import Claim
from .check import Aligned, Check, check_at
from .folded import keys_joined
from .notes import NoteRecord
from .verdict import Verdict

__all__ = ["WITNESS_ROLES", "WitnessClaim", "WitnessCheck", "witness_claims", "by_role", "check_witnesses",
           "headwords", "variants"]

#: For each target a note can name, the role of the witness that speaks for it here and,
#: for the 释文, the layer of that witness that holds it.
WITNESS_ROLES: dict[str, tuple[str, str | None]] = {
    "songben": ("songben", None),
    "shiwen": ("zhushu", "yinyi"),
}

#: What the witnesses are called in the sentences a reader sees.
NAMES: dict[str, str] = {"songben": "宋本", "shiwen": "释文"}

#: Claim kinds whose evidence (据宋本改/补/删) vouches for this text's reading at the anchor.
_VOUCHING_KINDS = frozenset({"corruption", "omission", "addition", "variant"})


@dataclass(frozen=True)
class WitnessClaim:
    """What a claim implies one witness reads at the claim's anchor.

    ``target`` is ``songben`` or ``shiwen``; ``record`` the implied claim as a record of its
    own (kind, lemma, reading as the check reads them); ``how`` says where it comes from:
    ``named`` (the note says what that witness reads: 宋本作X, X释文作Y) or ``cited`` (the
    note cites it as evidence for this text's reading: 据宋本补) or ``mentioned`` (the note
    speaks of the 释文 in its argument: 张淳引释文…; it may confirm, never contradict);
    ``other`` the reading the note rejects there (the target's, for a cited witness), if any.
    """

    claim: Claim
    target: str
    record: NoteRecord
    how: str
    other: str | None = None

    @property
    def id(self) -> str:
        return f"{self.claim.id}@{self.target}"

    @property
    def reading(self) -> str:
        return self.record.reading


@dataclass
class WitnessCheck:
    """The verdict of one :class:`WitnessClaim`: ``witness`` (a siglum) spoke, by ``rule``.

    ``reading`` is what that witness has at the place (for the 释文: the gloss that decided,
    or None), ``why`` one or two sentences for a reader, ``page`` where the witness has it.
    """

    wc: WitnessClaim
    witness: str | None
    verdict: Verdict | None
    rule: str
    why: str
    reading: str | None = None
    page: str | None = None


def _k(s: str, exact: bool = False) -> str:
    """Comparison keys of ``s`` (``exact``: its own characters, punctuation skipped), in C: the check of a
    释文 claim keys every earlier gloss of the 篇 (a Python call per character was most of it)."""
    kept = strip_ignorable(s)
    return kept if exact else keys_joined(kept)


# ---------------------------------------------------------------------------
# What a claim implies
# ---------------------------------------------------------------------------

#: The text a note quotes from the 释文 (释文云…, 释文作…, 陆德明经典释文云…), to the first
#: word that begins the editors' own argument again.
_QUOTE = re.compile(r"(?:釋文|释文|音義|音义)(?:云|曰|作|于\S字云)?(?P<q>.+)")
_QUOTE_END = re.compile(r"(?:張淳|张淳|可證|可证|今|唐石|則|则|據|据|是|李如圭|乃|指|者是|考|蓋|葢|盖|云)")


def _quoted(raw: str) -> str:
    """The 释文 text a note quotes (its first quotation), "" when it quotes none."""
    m = _QUOTE.search(raw)
    if not m:
        return ""
    q = m.group("q")
    e = _QUOTE_END.search(q, 1)
    return q[: e.start()] if e else q


def _vouched(r: NoteRecord, anchor_text: str, is_point: bool) -> NoteRecord | None:
    """The record "this witness reads what the note's correction reads" for a cited witness."""
    if r.kind == "conjecture":  # X当作Y据…: the witness reads Y
        if r.transposed:
            return None
        if is_point:
            return replace(r, kind="addition", lemma="", rule="witness_cited")
        if r.reading == "":
            return replace(r, kind="omission", lemma=anchor_text, rule="witness_cited")
        return replace(r, kind="variant", lemma=anchor_text, rule="witness_cited")
    if r.kind not in _VOUCHING_KINDS:
        return None
    # the corrected text is this text: the witness reads the anchor as it stands
    return replace(r, kind="variant", lemma=anchor_text, reading=anchor_text, rule="witness_cited")


#: Where a reading the note gives the 释文 ends: its own comment on other copies begins
#: (覸云今本亦作見, 段云本又作腶).
_SHIWEN_READING_END = re.compile(r"[云又亦]|本又|本亦")
#: A note that speaks of the 释文 without the grammar taking it as a source (张淳引释文…,
#: 陆德明经典释文云…, 释文于X字云…, X释文音Y).
_MENTIONS_SHIWEN = re.compile(r"釋文|释文|陸[徳德]明|陆德明")
#: The longest lemma a mention of the 释文 is checked for (a 释文 gloss has a word, not a clause).
_MENTION_MAX = 3


def witness_claims(c: Claim) -> list[WitnessClaim]:
    """The claims ``c`` makes about the witnesses of :data:`WITNESS_ROLES` (at most one each).

    ``named``: the note says what the witness reads (宋本作X; X释文作Y; 释文云Q); ``cited``:
    the note gives it as evidence (据宋本补, 今从释文订正), so it reads this text's
    correction; ``mentioned``: the note speaks of the 释文 in its argument (张淳引释文X…),
    taken as vouching for this text's word, but never enough to contradict the note.
    """
    a = c.anchor
    if a is None:
        return []
    r = c.record
    named = {r.target, *r.also}
    cited = set(r.evidence_ids)
    out: list[WitnessClaim] = []
    for target in WITNESS_ROLES:
        if target in named and r.kind in _VOUCHING_KINDS:
            rec = r
            if target == "shiwen":
                q = _quoted(r.raw)
                reading = r.reading if r.reading and (not q or q.startswith(r.reading[:1])) else q
                cut = _SHIWEN_READING_END.search(reading, 1)
                rec = replace(r, kind="variant", lemma=a.text, reading=reading[: cut.start()] if cut else reading)
            out.append(WitnessClaim(c, target, rec, "named", a.text))
        elif target in cited and target not in named:
            rec2 = _vouched(r, a.text, a.is_point)
            if rec2 is None or (target == "shiwen" and not rec2.reading):
                continue  # the 释文 glosses words: it cannot show that a word is absent
            other = r.reading if r.kind in ("corruption", "variant") and r.target != "self" else None
            out.append(WitnessClaim(c, target, rec2, "cited", other))
        elif target == "shiwen" and target not in named and _MENTIONS_SHIWEN.search(r.raw) \
                and 0 < len(a.text) <= _MENTION_MAX:
            other = r.reading if r.kind in ("corruption", "variant") else None
            rec3 = replace(r, kind="variant", lemma=a.text, reading=a.text, rule="witness_mentioned")
            out.append(WitnessClaim(c, target, rec3, "mentioned", other))
    return out


# ---------------------------------------------------------------------------
# Which witness
# ---------------------------------------------------------------------------


def by_role(col: Collation | None, role: str, *, exclude: str = "") -> str | None:
    """The siglum of the first witness of ``col`` with ``role`` (``exclude`` left out)."""
    if col is None:
        return None
    for s, w in col.witnesses.items():
        if s != exclude and w.meta.role == role:
            return s
    return None


def _aligned(col: Collation, siglum: str, against: str | None) -> Aligned | None:
    if against is None or col.base not in (siglum, against):
        return None
    return Aligned(col, siglum, against)


# ---------------------------------------------------------------------------
# Checking
# ---------------------------------------------------------------------------


def check_witnesses(claims: list[Claim], col: Collation | None, siglum: str, *,
                    zhushu: str | None = None, songben: str | None = None) -> dict[str, list[WitnessCheck]]:
    """Every claim's claims about a 宋本 and the 释文, checked: ``{claim id: [WitnessCheck]}``.

    ``col`` is the collation that holds the noted witness ``siglum``; ``zhushu`` and
    ``songben`` the sigla of the witnesses that speak (by default the first witness of that
    role in ``col``).  A claim whose witness is not collated gets ``verdict None`` and says so.
    """
    sb = songben or by_role(col, "songben", exclude=siglum)
    zs = zhushu or by_role(col, "zhushu", exclude=siglum)
    al_sb = _aligned(col, siglum, sb) if col is not None else None
    al_zs = _aligned(col, siglum, zs) if col is not None else None
    glosses = Glosses(al_zs) if al_zs is not None else None
    out: dict[str, list[WitnessCheck]] = {}
    for c in claims:
        for wc in witness_claims(c):
            if wc.target == "songben":
                ch = _check_songben(wc, al_sb)
            else:
                ch = _check_shiwen(wc, glosses)
            out.setdefault(c.id, []).append(ch)
    return out


#: Said of every contradiction by the 宋本 witness: it is a reprint, not the editors' own copy.
_REPRINT = ("; the witness is a reprint of a 宋本 (the 四部丛刊 is a 明 reprint), so the editors' "
            "宋本 may have read differently")


def _target_reading(wc: WitnessClaim) -> str:
    """What the note says the corrected witness (the 注疏 …) reads at the anchor."""
    r = wc.claim.record
    return "" if r.kind == "omission" else r.reading


def _check_songben(wc: WitnessClaim, al: Aligned | None) -> WitnessCheck:
    said = _said(wc)
    if al is None:
        return WitnessCheck(wc, None, None, "no-witness",
                            f"No 宋本 (a witness of role songben) is collated here, so the claim cannot be checked ({said}).")
    ch = check_at(wc.claim, al, wc.record)
    sig = al.against
    theirs, mine = ch.zs_window or "∅", ch.window or "∅"
    lemma = wc.claim.anchor.text if wc.claim.anchor is not None else ""
    # what the witness has at the anchor itself: a cited witness must read this text's lemma
    # there, whatever a wider window shows (the check lets a layer's end run open)
    at = check_at(wc.claim, al).reading
    verdict = ch.verdict
    exact = wc.other is not None and bool(lemma) and _k(lemma) == _k(wc.other)  # 摡 / 溉: forms the folding joins
    if exact and at is not None and _k(at, True) in (_k(lemma, True), _k(wc.other or "", True)):
        verdict = "confirmed" if _k(at, True) == _k(lemma, True) else "contradicted"
    if wc.how == "cited" and at is not None and _k(at, exact) != _k(lemma, exact):
        verdict = "contradicted" if verdict == "confirmed" else verdict
        if wc.claim.record.kind != "conjecture" and _k(at, exact) == _k(_target_reading(wc), exact):
            name = wc.claim.record.target_name or "witness the note corrects"
            return WitnessCheck(wc, sig, "contradicted", "songben-as-target",
                                f"The 宋本 ({sig}) reads {at or '∅'} where this text reads {lemma or '∅'}, as the note "
                                f"says the {name} does; {said}{_REPRINT}.", at, ch.zs_page)
    if verdict == "confirmed":
        return WitnessCheck(wc, sig, "confirmed", "songben-" + ch.detail,
                            f"The 宋本 ({sig}) reads {theirs} where this text reads {mine}; {said}.",
                            ch.reading, ch.zs_page)
    if verdict == "contradicted":
        detail = ch.detail if ch.verdict == "contradicted" else "otherwise"
        return WitnessCheck(wc, sig, "contradicted", "songben-" + detail,
                            f"The 宋本 ({sig}) reads {at if at is not None else theirs} where this text reads "
                            f"{lemma or '∅'}; {said}{_REPRINT}.", ch.reading, ch.zs_page)
    if ch.detail == "partly":
        return WitnessCheck(wc, sig, "not covered", "songben-partly",
                            f"The 宋本 ({sig}) reads {theirs} where this text reads {mine}, not quite what the note "
                            f"implies (a variant form or a slip?); {said}.", ch.reading, ch.zs_page)
    return WitnessCheck(wc, sig, "not covered", "songben-" + ch.detail,
                        f"The 宋本 ({sig}) does not reach this place, so the claim cannot be checked ({said}).",
                        ch.reading, ch.zs_page)


def _said(wc: WitnessClaim) -> str:
    r = wc.record
    if wc.how == "cited":
        return "the note cites it for this text's reading"
    if wc.how == "mentioned":
        return f"the note speaks of the {NAMES[wc.target]} in arguing for this text's {r.reading}"
    if r.kind == "omission":
        return f"the note says it lacks {r.lemma or '∅'}"
    if r.kind == "addition":
        return f"the note says it has {r.reading} here"
    return f"the note says it reads {r.reading or '∅'}"


class Glosses:
    """The 注疏's 音义 (陆德明's 释文) by passage, in the order of the 注疏."""

    def __init__(self, al: Aligned) -> None:
        self.al = al
        self.order = list(al.units[al.against])
        self.index = {u: i for i, u in enumerate(self.order)}
        self.text: dict[str, str] = {}
        self.page: dict[str, str | None] = {}
        for uid, u in al.units[al.against].items():
            ps = [p for p in u.pieces if p.layer == "yinyi"]
            if ps:
                self.text[uid] = "".join(p.text for p in ps)
                self.page[uid] = ps[0].loc.page

    def at(self, c: Claim) -> list[str]:
        """The 注疏 passages aligned with the claim's passage."""
        a = c.anchor
        row = self.al.row_of.get(a.unit) if a is not None else None
        return list(row.units.get(self.al.against, [])) if row is not None else []


#: Words in a gloss after its headword that make it cover the later occurrences too.
_BELOW = ("下同", "後同", "后同", "下皆同", "後皆同", "后皆同", "放此", "仿此")
#: How many characters after a headword its gloss may run (to find 下同 in it).
_GLOSS_SPAN = 8


#: A word after these is not the gloss's headword: a sound gloss (音X), a variant of other
#: copies (本又作X), a definition (曰X, 為X).
_NOT_HEAD = frozenset(key(ch) for ch in "音作曰為爲")


def headwords(gloss: str, word: str, exact: bool = False) -> list[int]:
    """Where ``word`` stands as a headword in ``gloss`` (comparison keys), not as a sound gloss.

    A sound gloss follows 音 (``曏音向``), a variant the 释文 mentions follows 作 (``本又作腶``),
    a definition's word follows 曰 or 為 (``内圓外方曰簋``), and 反切 characters stand one or two before 反 (``許亮反``); none of these is the 释文's
    own reading of the text.  ``exact`` compares the characters themselves, not their folded
    keys: for a note about two forms the folding joins (摡 and 溉).
    """
    kg, kw = _k(gloss, exact), _k(word, exact)
    out: list[int] = []
    if not kw:
        return out
    p = kg.find(kw)
    while p >= 0:
        e = p + len(kw)
        before = kg[p - 1] if p else ""
        fanqie = kg[e : e + 1] == key("反") or (len(kw) == 1 and kg[e + 1 : e + 2] == key("反"))
        if before not in _NOT_HEAD and not fanqie:
            out.append(p)
        p = kg.find(kw, p + 1)
    return out


def _check_shiwen(wc: WitnessClaim, g: Glosses | None) -> WitnessCheck:
    said = _said(wc)
    if g is None:
        return WitnessCheck(wc, None, None, "no-witness",
                            f"No 注疏 (whose 音义 is the 释文) is collated here: the claim cannot be checked ({said}).")
    sig = g.al.against
    units = g.at(wc.claim)
    here = [u for u in units if u in g.text]
    want = wc.reading
    # a reading the note gives the 释文 may be a quotation with its gloss (复自扶又反): the
    # longest beginning of it the glosses have as a headword decides (the 注疏 abridges the
    # 释文's glosses: 曏许亮反 is 曏音向 there); this text's reading must be there whole
    shortest = 1 if wc.how == "named" else len(want)
    other = wc.other
    exact = bool(other) and _k(want) == _k(other or "")  # the note tells apart forms the folding joins
    for n in range(len(want), shortest - 1, -1):
        for u in here:
            if headwords(g.text[u], want[:n], exact):
                return WitnessCheck(wc, sig, "confirmed", "shiwen-headword",
                                    f"The 注疏's 音义 (陆德明's 释文, {sig}) glosses {want[:n]} here: 「{g.text[u]}」; {said}.",
                                    g.text[u], g.page[u])
    for u in here if wc.how != "mentioned" else []:  # a mention vouches for nothing but a headword
        if variants(g.text[u], want, exact):
            return WitnessCheck(wc, sig, "confirmed", "shiwen-variant",
                                f"The 注疏's 音义 (陆德明's 释文, {sig}) records {want} as the reading of other copies here: "
                                f"「{g.text[u]}」; {said}.", g.text[u], g.page[u])
    for u in here if other else []:
        if headwords(g.text[u], other or "", exact):
            gl = g.text[u]
            text_reads = check_at(wc.claim, g.al).reading
            if wc.how == "mentioned":
                rule, verdict, tail = "shiwen-unsure", "not covered", (
                    "; the note only speaks of the 释文 in its argument, so this is not taken as a contradiction")
            elif text_reads is not None and _k(text_reads) == _k(other or ""):
                rule, verdict, tail = "shiwen-conformed", "not covered", (
                    f"; but the 注疏's own text reads {other} here too, and an 音义 printed with a text is often made "
                    "to agree with it, so it does not show what 陆德明 read")
            else:
                rule, verdict, tail = "shiwen-other-headword", "contradicted", ""
            return WitnessCheck(wc, sig, verdict, rule,  # type: ignore[arg-type]
                                f"The 注疏's 音义 (陆德明's 释文, {sig}) glosses {other}, not {want}, here: 「{gl}」; "
                                f"{said}{tail}.", gl, g.page[u])
    below = _gloss_above(g, units, want, exact)
    if below is not None:
        u, gl = below
        return WitnessCheck(wc, sig, "confirmed", "shiwen-below",
                            f"The 注疏's 音义 (陆德明's 释文, {sig}) glosses {want} earlier and says it holds below: "
                            f"「{gl}」 ({g.page[u] or u}); {said}.", gl, g.page[u])
    if not units:
        return WitnessCheck(wc, sig, "not covered", "shiwen-no-passage",
                            f"The 注疏 ({sig}) does not reach this passage: the claim cannot be checked ({said}).")
    if not here:
        return WitnessCheck(wc, sig, "not covered", "shiwen-no-gloss",
                            f"The 注疏 ({sig}) has no 音义 (释文) at this passage: the claim cannot be checked ({said}).")
    gl = " / ".join(g.text[u] for u in here)
    return WitnessCheck(wc, sig, "not covered", "shiwen-silent",
                        f"The 注疏's 音义 (释文, {sig}) at this passage glosses neither {want}"
                        + (f" nor {other}" if other else "") + f": 「{gl}」; the claim cannot be checked ({said}).",
                        gl, g.page[here[0]])


def variants(gloss: str, word: str, exact: bool = False) -> list[int]:
    """Where the gloss records ``word`` as another copy's reading (本又作X, 亦作X, 或作X)."""
    kg, kw = _k(gloss, exact), _k(word, exact)
    out: list[int] = []
    p = kg.find(kw) if kw else -1
    while p >= 0:
        if p and kg[p - 1] == key("作"):
            out.append(p)
        p = kg.find(kw, p + 1)
    return out


def _gloss_above(g: Glosses, units: list[str], word: str, exact: bool = False) -> tuple[str, str] | None:
    """An earlier gloss of ``word`` (in the same 注疏) that says 下同 / 後同 (covers this place)."""
    if not units or not word:
        return None
    first = min(g.index.get(u, len(g.order)) for u in units)
    kb = [_k(b, exact) for b in _BELOW]
    for u in reversed(g.order[:first]):
        gl = g.text.get(u)
        if gl is None:
            continue
        kg = _k(gl, exact)
        for p in headwords(gl, word, exact):
            tail = kg[p + len(_k(word, exact)) : p + len(_k(word, exact)) + _GLOSS_SPAN]
            if any(b in tail for b in kb):
                return u, gl
    return None

