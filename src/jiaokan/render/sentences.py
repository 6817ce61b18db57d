"""What a 案 dialog says about a claim and its verdict, in the reader's language (简, 繁, English).

Why here and not in the page's script: the sentence must say exactly what the evidence table under it
shows (the witness that decided and its reading), and the check of that (:mod:`.truth`) is in Python; the
page only picks the language.  When the 案 stage gives its own reader's sentences (an attribute
``why_zh``/``why_en`` or ``say_zh``/``say_en`` on the claim), they are used as they are, provided they hold
no machine word; otherwise the sentence is made here from the claim's fields, in the words of a 校勘記.
English sentences of the 案 stage (``why``) are kept when they hold no machine word.
"""

from __future__ import annotations

from ..emend.verdict import UNCOVERED, ClaimEvidence
from ..normalize.script import convert_text
from .truth import Shown, internal_words

#: Whom a claim is about, as the notes name them (traditional; 简 by conversion).
TARGET_ZH: dict[str, str] = {
    "zhushu": "今注疏本", "songben": "宋本", "shiwen": "釋文", "self": "此本", "tangshijing": "唐石經",
    "yuanben": "原本", "gezhu": "各本", "jianben": "監本",
}
TARGET_EN: dict[str, str] = {
    "zhushu": "the current 注疏 edition", "songben": "the Song print (宋本)", "shiwen": "Lu Deming's 釋文",
    "self": "this text", "tangshijing": "the Tang stone classics (唐石經)", "yuanben": "the original print (原本)",
    "gezhu": "every edition (各本)", "jianben": "the Directorate print (監本)",
}
VERDICT_ZH = {"confirmed": "相符", "contradicted": "不符", "not covered": "無可核", "uncertain": "存疑", "unchecked": "未核"}


def target_zh(t: str) -> str:
    return TARGET_ZH.get(t, "他本")


def target_en(t: str) -> str:
    return TARGET_EN.get(t, "another edition")


def _q(s: str | None) -> str:
    return f"「{s}」" if s else "∅"


def _reads(got: str | None, lemma: str | None) -> str:
    """作「X」, or 無「lemma」 where the witness has nothing at the place."""
    return f"作{_q(got)}" if got else (f"無{_q(lemma)}" if lemma else "於此無字")


def say_zh(c: ClaimEvidence, shown: Shown, names: dict[str, str]) -> str:
    """The claim in a 校勘記's words (traditional characters)."""
    own = _own(c, ("say_zh", "why_zh", "why_hant"))
    if own:
        return own
    who = target_zh(c.target)
    w = c.witness
    wname = f"{names.get(w, w)}（{w}）" if w else ""
    got = c.readings.get(w or "", None) if w else None
    if shown.key == "uncertain":
        return "存疑：所列各本異文不足以定是非。" + (f"（{wname}{_reads(got, c.lemma)}。）" if w and got not in (None, UNCOVERED) else "")
    if c.kind == "conjecture":
        return "此爲校改本書之說，他本不足以定；本版錄之，不據改。"
    if c.kind in ("comment", "lacuna"):
        return "此爲按語，不言異文，無可核對。"
    if shown.key == "not covered" or got == UNCOVERED:
        return f"{wname or who}未及此處，無從核對。"
    if not w:
        return f"此處無{who}可據，未核。"
    said = c.reading or ""
    if shown.key == "confirmed":
        if c.kind == "omission" and not said:
            return f"{wname}無{_q(c.lemma)}，與案語所言{who}合。"
        return f"{wname}{_reads(got, c.lemma)}，與案語所言{who}合。"
    if shown.key == "contradicted":
        return f"{wname}{_reads(got, c.lemma)}，而案語言{who}{_reads(said, c.lemma)}，不合。"
    return f"{wname}{_reads(got, c.lemma)}。"


def say_en(c: ClaimEvidence, shown: Shown, names: dict[str, str]) -> str:
    own = _own(c, ("say_en", "why_en"))
    if own:
        return own
    if shown.key != "uncertain" and c.why and not internal_words(c.why):
        return c.why
    who = target_en(c.target)
    w = c.witness
    got = c.readings.get(w or "", None) if w else None
    if shown.key == "uncertain":
        return "Uncertain: the readings shown do not decide the claim." + (f" {w} reads {_q(got)}." if w and got not in (None, UNCOVERED) else "")
    if c.kind == "conjecture":
        return "A conjecture on this text: no witness here decides it; the edition records it without adopting it."
    if c.kind in ("comment", "lacuna"):
        return "A remark of the editors: it claims no reading a witness could bear out."
    if shown.key == "not covered" or got == UNCOVERED:
        return f"{w or who} does not reach this place, so the claim cannot be checked."
    if not w:
        return f"No witness here speaks for {who}: not checked."
    if shown.key == "confirmed":
        return f"{w} reads {_q(got)}, as the note says {who} does."
    if shown.key == "contradicted":
        return f"{w} reads {_q(got)}; the note says {who} reads {_q(c.reading)}."
    return f"{w} reads {_q(got)}."


def reason_zh(shown: Shown, c: ClaimEvidence | None, v: object = None) -> str:
    """Why a verdict is shown as uncertain, in Chinese (the 案 stage's own Chinese reason when it gives one)."""
    if shown.key != "uncertain":
        return ""
    for obj in (c, v):
        own = _own(obj, ("reason_zh", "reason_hant")) if obj is not None else ""
        if own:
            return own
    if c is not None and c.witness:
        got = c.readings.get(c.witness)
        if got == UNCOVERED:
            return f"{c.witness}未及此處，不能據以判斷。"
        return f"{c.witness}{_reads(got, c.lemma)}，案語言其{_reads(c.reading, c.lemma)}，原判與所列異文不合，故存疑。"
    return "證據不足，存疑。"


def _own(c: object, names: tuple[str, ...]) -> str:
    for n in names:
        s = getattr(c, n, None)
        if isinstance(s, str) and s and not internal_words(s):
            return s
    return ""


def hans(text: str) -> str:
    """The simplified form of a traditional sentence (OpenCC, as the rest of the toolkit converts); what it quotes
    in 「」 (a witness's reading) is left as the witness writes it."""
    out = []
    for i, chunk in enumerate(text.split("「")):
        if i == 0:
            out.append(convert_text(chunk, "simplified"))
            continue
        q, sep, rest = chunk.partition("」")
        out.append("「" + q + sep + convert_text(rest, "simplified"))
    return "".join(out)
