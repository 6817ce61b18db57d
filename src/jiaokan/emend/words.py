"""Words for a scholar: the verdict on a 案 claim as a sentence in Chinese and in English.

Why a module of its own: the checker's ``summary`` is a log line for the developer (it
names details such as ``as-this-text`` and shows the windows it compared); a reader of the
edition needs one plain sentence that says what the 注疏 reads and how that bears on the
note, with the reason when the verdict is uncertain, and never an internal name
(``zhuben``, ``otherwise``, an offset or a passage id).  Every sentence is built here from
the structured reason (:class:`Reason`: the check's verdict and detail code, and the
characters in question), so the Chinese and the English say the same thing.

Languages: ``zh-Hans`` (the sentences are written in simplified characters), ``zh-Hant``
(the same, converted character by character), ``en``; ``zh`` is ``zh-Hans``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..normalize.script import convert_text, s2t_text

if TYPE_CHECKING:  # pragma: no cover - typing only
    from .check import Check
    from .verdict import ClaimEvidence
    from .notes import NoteRecord

__all__ = ["LANGS", "Reason", "reason_of", "sentences", "in_lang", "TARGET_ZH", "TARGET_EN", "claim_sentences",
           "SHOWN_KEYS", "internal_words"]

#: The languages a sentence is given in.
LANGS: tuple[str, ...] = ("zh-Hans", "zh-Hant", "en")

#: How a reader is told whom a claim is about.
TARGET_ZH: dict[str, str] = {
    "zhushu": "今注疏本", "zhuben": "各本", "yuanben": "原本", "songben": "宋本", "tangshijing": "唐石经",
    "shiwen": "释文", "self": "此本", "mingjianben": "明监本", "maoben": "毛本", "minben": "闽本", "guben": "古本",
    "tongjie": "《仪礼经传通解》", "aojigong": "敖继公", "shu": "贾疏",
}
TARGET_EN: dict[str, str] = {
    "zhushu": "the current 注疏 edition", "zhuben": "every edition (各本)", "yuanben": "the source copy (原本)",
    "songben": "the Song print", "tangshijing": "the Tang stone classics", "shiwen": "the 經典釋文",
    "self": "this text", "mingjianben": "the Ming Directorate print", "maoben": "the 毛 print",
    "minben": "the 閩 print", "guben": "the old text (古本)", "tongjie": "the 儀禮經傳通解", "aojigong": "敖繼公",
    "shu": "賈公彦's 疏",
}
#: The parts of a passage a place claim names.
PART_ZH: dict[str, str] = {"jing": "经", "zhu": "注", "zhuan": "传"}
PART_EN: dict[str, str] = {"jing": "the classic (經)", "zhu": "the commentary (注)", "zhuan": "the 傳"}


@dataclass(frozen=True)
class Reason:
    """Why a claim got its verdict, in terms a sentence can be built from.

    ``verdict`` and ``code`` are the check's (``confirmed`` / ``agrees``, ``uncertain`` /
    ``context`` …); ``kind`` the claim's; ``lemma`` this text's characters, ``said`` what the
    note says the 注疏 reads (or lacks, or adds), ``found`` what the 注疏 reads there (None
    when it does not reach the place); ``between`` the parts of a place claim.
    """

    verdict: str | None
    code: str
    kind: str
    lemma: str
    said: str
    found: str | None
    target: str = "zhushu"
    between: tuple[str, ...] = ()
    #: a claim that the text stands elsewhere there (``after:X`` / ``before:X``, see ``NoteRecord.moved_to``)
    moved_to: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"verdict": self.verdict, "code": self.code, "kind": self.kind, "lemma": self.lemma,
                "said": self.said, "found": self.found, "target": self.target, "between": list(self.between),
                "moved_to": self.moved_to}


def reason_of(record: NoteRecord, check: Check, anchor_text: str | None) -> Reason:
    """The structured reason of ``check`` on the claim ``record`` anchored on ``anchor_text``."""
    lemma = record.lemma or anchor_text or ""
    found = check.reading if check.reading is not None else None
    if (found is None and check.zs_window is not None and check.verdict not in ("not covered",)) \
            or check.detail == "agrees-lacks":  # the 注疏 lacks the lemma: what stands there instead
        found = check.zs_window
    return Reason(check.verdict, check.detail, record.kind, lemma, record.reading, found,
                  record.target or "zhushu", tuple(record.between), record.moved_to)


def _q(s: str | None) -> str:
    return f"「{s}」" if s else "（无字）"


def _qe(s: str | None) -> str:
    return s if s else "nothing"


def _said(r: Reason) -> tuple[str, str]:
    """What the note says of the 注疏, in Chinese and English."""
    if r.between:
        a, b = r.between[0], r.between[1]
        return (f"此段在{PART_ZH.get(a, a)}之后、{PART_ZH.get(b, b)}之前",
                f"it sets this text after {PART_EN.get(a, a)} and before {PART_EN.get(b, b)}")
    if r.moved_to:
        side, _, x = r.moved_to.partition(":") if ":" in r.moved_to else ("after", "", r.moved_to)
        return (f"此段在「{x}」之{'下' if side == 'after' else '上'}",
                f"it sets this text {'after' if side == 'after' else 'before'} {x}")
    if r.kind == "omission":
        return f"无{_q(r.lemma)}", f"it lacks {_qe(r.lemma)}"
    if r.kind == "addition":
        return f"多{_q(r.said)}", f"it has an extra {_qe(r.said)}"
    if not r.said:
        return f"{_q(r.lemma)}字序颠倒", f"it has {_qe(r.lemma)} in another order"
    return f"作{_q(r.said)}", f"it reads {_qe(r.said)}"


#: Uncertain and not-covered reasons: (Chinese, English); ``{z}`` is what the 注疏 reads.
_WHY: dict[str, tuple[str, str]] = {
    "context": ("今注疏本此处前后文字未能与此本确切对齐（其间或有他异，或系另一处同文），不能断其是非。",
                "the text around the place does not line up with the 注疏 with confidence (another difference "
                "or another occurrence may be in the way), so the claim can be neither confirmed nor refuted"),
    "unaligned": ("此处未能与今注疏本对齐，不能断其是非。",
                  "the place could not be aligned with the 注疏, so the claim can be neither confirmed nor refuted"),
    "unknown-char": ("所涉之字有未能识读者（未释之造字或缺字□），未识之字不足为证。",
                     "a character in question cannot be read (an unresolved gaiji or a gap □), and an unknown "
                     "character proves nothing"),
    "reading-near": ("案语所言之字见于今注疏本此处附近，旁有他异，未能确证。",
                     "what the note says stands in the 注疏 near this place, beside another difference, so it is "
                     "not proved either way"),
    "reading-runs-on": ("今注疏本作{z}，乃案语所引之首；案语之文或连下文而读，未能确证。",
                        "the 注疏 reads {z}, the start of what the note quotes: the quotation may run on into the "
                        "editors' argument"),
    "not-lemma": ("今注疏本此处作{z}，既非案语所言之脱文，亦非空缺，未能确证。",
                  "the 注疏 has {z} here: neither the text the note says it lacks nor nothing"),
    "not-anchored": ("案语所指之处未能于此本中寻得（或案语之字有误），无从核对。",
                     "the place the note speaks of was not found in this text (perhaps a slip in the note), so "
                     "it could not be checked"),
    "unsure-anchor": ("案语仅引今注疏本之文，此本之处未能确定，今注疏本此处作{z}。",
                      "the note quotes only the 注疏, and the place in this text is not certain; the 注疏 reads "
                      "{z} there"),
    "partly": ("今注疏本作{z}，与案语所引相近而不尽同（或为异体，或为笔误），未能确证。",
               "the 注疏 reads {z}, close to what the note quotes but not the same (a variant form or a slip?)"),
    "nearly": ("今注疏本此处确有多出之文，作{z}，而案语引作{s}，有一字之差（或案语笔误，或传写之讹），未能逐字确证。",
               "the 注疏 does have extra text here, {z}, but the note quotes it as {s}, a character apart (a slip "
               "of the note or of a transcription?), so it is not proved character for character"),
    "moved-unseen": ("此本之次序亦与案语所言同，次序不足为证。",
                     "this text too has that order, so the order proves nothing"),
    "place-unseen": ("今注疏本中未能寻得此段（或不止一处），其位置不明。",
                     "the 注疏 does not hold this text in exactly one place, so where it sets it is unknown"),
    "place-otherwise": ("今注疏本此段之位置既非案语所言，亦非此本之次序，未能确证。",
                        "the 注疏 sets this text neither where the note says nor where this text has it"),
    "unclear": ("今注疏本为校者所据，然此处读法不明，未能确证。",
                "the 注疏, cited as the editors' evidence, does not clearly read either way here"),
    "no-witness": ("未有今注疏本参校，无从核对。", "no 注疏 witness was collated, so it could not be checked"),
    "no-passage": ("今注疏本不及此段。", "the 注疏 witness does not reach this passage"),
    "no-layer": ("今注疏本此段无此层文字。", "the 注疏 witness has no text of this layer in this passage"),
    "edge": ("今注疏本所存不及此处。", "the 注疏 witness does not reach this point"),
}


def sentences(r: Reason) -> dict[str, str]:
    """The verdict of reason ``r`` as one sentence per language of :data:`LANGS`."""
    said_zh, said_en = _said(r)
    z_zh, z_en = _q(r.found), _qe(r.found)
    who_zh = TARGET_ZH.get(r.target, "今注疏本")
    if r.verdict == "confirmed":
        if r.code == "agrees-place" or r.moved_to:
            zh, en = f"今注疏本{said_zh}，与案语合。", f"Confirmed: in the 注疏 {said_en}, as the note says."
        elif r.code == "agrees-lacks":
            zh = f"今注疏本此处无{_q(r.lemma)}，与案语合（其处别有{z_zh}，乃另一异文）。"
            en = f"Confirmed: the 注疏 lacks {_qe(r.lemma)} here, as the note says (it has {z_en} there: another difference)."
        elif r.code == "agrees-front":
            zh = f"今注疏本卷首目录{said_zh}，与案语合。"
            en = f"Confirmed: the 注疏's front matter (its table of every 篇) — {said_en}, as the note says."
        elif r.code == "agrees-running":
            zh = f"今注疏本经注连读，{said_zh}，与案语合（其经注分段与此本不同）。"
            en = f"Confirmed: read as running text, in the 注疏 {said_en}, as the note says (it divides 經 and 注 differently)."
        elif r.code == "agrees" and r.target == "yuanben":
            zh = f"今注疏本此处作{z_zh}，与校者所据合。"
            en = f"Confirmed: the 注疏 reads {z_en} here, as the editors took from it."
        else:
            zh = f"{who_zh}所言，今注疏本此处{said_zh}，与案语合。" if r.target == "zhuben" else \
                f"今注疏本此处{said_zh}，与案语合。"
            en = f"Confirmed: in the 注疏 {said_en} here, as the note says."
        if r.code == "agrees-nearly":
            zh = zh[:-1] + "（案语所引有一字之差）。"
            en = en[:-1] + " (the note quotes it with a slip in a character)."
        return _langs(zh, en)
    if r.verdict == "contradicted":
        if r.code == "as-source":
            zh = "今注疏本此处与原本同，非校者所云据以改正之读。"
            en = "Contradicted: the 注疏 reads as the source copy did, not as the editors say they took from it."
        elif r.between or r.moved_to:
            zh = f"今注疏本此段之次序与此本同，非案语所言（{said_zh}）。"
            en = f"Contradicted: the 注疏 sets this text where this text does; the note says {said_en}."
        elif r.code == "as-this-text":
            shown = r.found if r.found else r.lemma
            zh = f"今注疏本此处作{_q(shown)}，与此本同；案语谓其{said_zh}，不合。"
            en = f"Contradicted: the 注疏 reads {_qe(shown)} here, as this text does; the note says {said_en}."
        else:
            zh = f"今注疏本此处作{z_zh}，既非此本之{_q(r.lemma)}，亦非案语所言（{said_zh}）。"
            en = (f"Contradicted: the 注疏 reads {z_en} here, neither this text's {_qe(r.lemma)} nor what the note "
                  f"says ({said_en}).")
        return _langs(zh, en)
    why_zh, why_en = _WHY.get(r.code, ("今注疏本此处所读不足以断其是非。", "what the 注疏 reads here does not decide it"))
    why_zh, why_en = why_zh.format(z=z_zh, s=_q(r.said)), why_en.format(z=z_en, s=_qe(r.said))
    head_en = "Uncertain" if r.verdict == "uncertain" else "Not covered" if r.verdict == "not covered" else "Not checked"
    return _langs(f"案语谓今注疏本{said_zh}；{why_zh}", f"{head_en}: the note says {said_en}; {why_en}.")


def _langs(zh: str, en: str) -> dict[str, str]:
    return {"zh-Hans": zh, "zh-Hant": s2t_text(zh), "en": en}


def in_lang(texts: dict[str, str], lang: str) -> str:
    """The sentence of ``texts`` for ``lang`` (``zh`` → ``zh-Hans``; an unknown language → English)."""
    from .verdict import _in_lang

    return _in_lang(texts, lang)


# ---------------------------------------------------------------------------
# The sentence of a verdict record (one home: the report and the page both ask here)
# ---------------------------------------------------------------------------

#: Verdicts as a reader is shown them; ``unchecked`` is a claim no witness here can speak to.
SHOWN_KEYS: tuple[str, ...] = ("confirmed", "contradicted", "not covered", "uncertain", "unchecked")

_UNCOVERED = "—"  # :data:`.verdict.UNCOVERED` (not imported: verdict imports this module's users)


def _reads(got: str | None, lemma: str | None) -> str:
    """作「X」, or 无「lemma」 where the witness has nothing at the place."""
    return f"作{_q(got)}" if got else (f"无{_q(lemma)}" if lemma else "于此无字")


#: Machine names of targets and rules, and the shapes of developer messages: never on screen (the one
#: list of words a reader must not see: the sentences here and the page's truth check,
#: :mod:`jiaokan.render.truth`, both ask :func:`internal_words`).  Kept here, below the pages: the 案
#: check runs in the collation workers, which would otherwise import the whole HTML package (jinja2
#: and its templates' modules, 0.07 s of CPU each) for this one pattern.
_INTERNAL = re.compile(
    r"\b(?:zhushu|zhuben|songben|shiwen|yuanben|tangshijing|otherwise|agrees|as-this-text|no-passage|"
    r"songben-[a-z-]+|shiwen-[a-z-]+|unparsed|not-found|None|null|undefined|NaN)\b"
    r"|offset \d+|not found (?:in|after|before)|\blemma '")


def internal_words(text: str) -> list[str]:
    """The machine names and developer phrases in ``text`` (empty: fit for a reader)."""
    return [m.group(0) for m in _INTERNAL.finditer(text or "")]


def _machine_words(text: str) -> list[str]:
    """Machine names in ``text`` (:func:`internal_words`)."""
    return internal_words(text)


def claim_sentences(c: "ClaimEvidence", shown: str | None = None, names: dict[str, str] | None = None) -> dict[str, str]:
    """The sentence of the verdict record ``c`` as it is shown (``shown``, one of :data:`SHOWN_KEYS`;
    default its own verdict), per language of :data:`LANGS`.

    Why one function for the report and the page: a scholar who reads a verdict in the edition and
    the same verdict in ``jiaokan emend --json``/``--csv`` must read the same words.  Where the record
    carries the 案 stage's own sentences (:func:`sentences`, made from the check's structured reason)
    and is shown with its own verdict, those are the sentences; otherwise (a record about a 宋本 or the
    释文, whose check speaks English only; a record read back from a CSV; a verdict the page's truth check
    would not show as decided) the sentence is made here from the record's fields: the witness that
    decided, what it reads in the record's own table, and what the note says.  ``names`` gives a
    witness's title for a siglum (``《仪礼注疏》``); the siglum alone otherwise.
    """
    own = c.verdict or "unchecked"
    key = shown or own
    if key == own and c.sentences and all(c.sentences.get(lang) for lang in LANGS):
        if not _machine_words(c.sentences["en"]):
            return dict(c.sentences)
        # an English the reader must not see (a developer's message kept in ``why``): made anew
        return {**c.sentences, "en": claim_sentences(replace(c, sentences={}, why=""), key, names)["en"]}
    who_zh = TARGET_ZH.get(c.target, "他本")
    who_en = TARGET_EN.get(c.target, "another edition")
    w = c.witness
    title = (names or {}).get(w or "", "")
    wname = f"{convert_text(title, 'simplified')}（{w}）" if w and title and title != w else (w or "")
    got = c.readings.get(w) if w else None
    if key == "uncertain":
        tail_zh = f"（{wname}{_reads(got, c.lemma)}。）" if w and got not in (None, _UNCOVERED) else ""
        tail_en = f" {w} reads {_q(got) if got else 'nothing'}." if w and got not in (None, _UNCOVERED) else ""
        if key != own and w and got not in (None, _UNCOVERED):
            zh = (f"{wname}{_reads(got, c.lemma)}，案语言{who_zh}{_reads(c.reading, c.lemma)}，"
                  "原判与所列异文不合，故存疑。")
            en = (f"Uncertain: {w} reads {_q(got) if got else 'nothing'} and the note says {who_en} reads "
                  f"{_q(c.reading) if c.reading else 'nothing'}: the readings shown do not bear the check's verdict out.")
            return _langs(zh, en)
        return _langs("存疑：所列各本异文不足以定是非。" + tail_zh,
                      "Uncertain: the readings shown do not decide the claim." + tail_en)
    if key == own and c.why and not _machine_words(c.why):  # the English the record gives (a witness's check)
        made = claim_sentences(replace(c, why=""), key, names)
        return {**made, "en": c.why}
    if c.kind == "conjecture":
        return _langs("此为校改本书之说，他本不足以定；本版录之，不据改。",
                      "A conjecture on this text: no witness here decides it; the edition records it without adopting it.")
    if c.kind in ("comment", "lacuna"):
        return _langs("此为按语，不言异文，无可核对。",
                      "A remark of the editors: it claims no reading a witness could bear out.")
    if key == "not covered" or got == _UNCOVERED:
        return _langs(f"{wname or who_zh}未及此处，无从核对。",
                      f"{w or who_en} does not reach this place, so the claim cannot be checked.")
    if not w:
        return _langs(f"此处无{who_zh}可据，未核。", f"No witness here speaks for {who_en}: not checked.")
    if key == "confirmed":
        return _langs(f"{wname}{_reads(got, c.lemma)}，与案语所言{who_zh}合。",
                      f"Confirmed: {w} reads {_q(got) if got else 'nothing'}, as the note says {who_en} does.")
    if key == "contradicted":
        return _langs(f"{wname}{_reads(got, c.lemma)}，而案语言{who_zh}{_reads(c.reading, c.lemma)}，不合。",
                      f"Contradicted: {w} reads {_q(got) if got else 'nothing'}; the note says {who_en} reads "
                      f"{_q(c.reading) if c.reading else 'nothing'}.")
    return _langs(f"{wname}{_reads(got, c.lemma)}。", f"{w} reads {_q(got) if got else 'nothing'}.")


def shu_sentences(verdict: str, siglum: str, danshu: bool, found: str, said: str, rest: str, quote: bool) -> dict[str, str]:
    """The sentence of a check of what a note says of the 疏 against one witness's 疏 (:mod:`.shu`).

    ``found`` the witness's characters, ``said`` what the note quotes (or this text's characters around
    the place, ``quote`` False), ``rest`` what the note goes on with beyond what was found."""
    name_zh = "单疏本" if danshu else "今注疏本"
    name_en = "the 单疏本 (the Song print of the 疏 alone)" if danshu else "the 注疏"
    what_zh, what_en = ("案语所引", "as the note quotes it") if quote else ("此本此处之文", "as this text reads the place")
    if verdict == "confirmed":
        zh = f"{name_zh}（{siglum}）之疏作{_q(found)}，与{what_zh}合。"
        en = f"Confirmed: the 疏 of {name_en} ({siglum}) reads {found}, {what_en}."
        if rest:
            zh = zh[:-1] + f"；案语以下「{rest}…」不见于疏，当为校者之语。"
            en = en[:-1] + f"; what the note goes on with ({rest}…) is not there: the editors' own words?"
        return _langs(zh, en)
    if verdict == "not covered":
        if found == "none":
            return _langs(f"{name_zh}（{siglum}）无此篇之疏（其卷已佚），无从核对。",
                          f"Not covered: {name_en} ({siglum}) has no 疏 of this 篇 (its 卷 are lost).")
        return _langs(f"{name_zh}（{siglum}）之疏未见{_q(said[:12])}{'…' if len(said) > 12 else ''}"
                      f"（疏或未引此处，或案语约举其意），无从核对。",
                      f"Not covered: the 疏 of {name_en} ({siglum}) does not hold "
                      f"{said[:12]}{'…' if len(said) > 12 else ''} (the 疏 may not quote this place, or the note "
                      "may give its sense), so there is nothing there to check.")
    return _langs(f"{name_zh}（{siglum}）之疏所读不足以断其是非。", f"Uncertain: the 疏 of {name_en} ({siglum}) does not decide it.")
