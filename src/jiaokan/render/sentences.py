"""What a 案 dialog says about a claim and its verdict, in the reader's language (简, 繁, English).

The sentences have one home, :func:`jiaokan.emend.words.claim_sentences`: the page says what the
``jiaokan emend`` report (JSON ``sentences``, CSV ``sentence``/``why``) says for the same verdict, and
when the truth check (:mod:`.truth`) would show a verdict as ``uncertain`` the same function says why
from the record's own table.  This module only picks the language and names the witnesses.
"""

from __future__ import annotations

from functools import lru_cache

from ..emend.verdict import ClaimEvidence
from ..emend.words import TARGET_EN as _TARGET_EN
from ..emend.words import TARGET_ZH as _TARGET_ZH
from ..emend.words import claim_sentences
from ..normalize.script import convert_text, s2t_char
from .truth import Shown

VERDICT_ZH = {"confirmed": "相符", "contradicted": "不符", "not covered": "無可核", "uncertain": "存疑", "unchecked": "未核"}


def target_zh(t: str) -> str:
    """Whom a claim is about, in traditional characters (the names of :mod:`jiaokan.emend.words`)."""
    return "".join(s2t_char(ch) for ch in _TARGET_ZH.get(t, "他本"))


def target_en(t: str) -> str:
    return _TARGET_EN.get(t, "another edition")


def say_zh(c: ClaimEvidence, shown: Shown, names: dict[str, str]) -> str:
    """The claim's sentence in traditional characters."""
    return claim_sentences(c, shown.key, names)["zh-Hant"]


def say_hans(c: ClaimEvidence, shown: Shown, names: dict[str, str]) -> str:
    """The claim's sentence in simplified characters (as the report writes it)."""
    return claim_sentences(c, shown.key, names)["zh-Hans"]


def say_en(c: ClaimEvidence, shown: Shown, names: dict[str, str]) -> str:
    return claim_sentences(c, shown.key, names)["en"]


def reason_zh(shown: Shown, c: ClaimEvidence | None, v: object = None) -> str:
    """Why a verdict is shown as uncertain, in traditional characters (the sentence of the claim that made it so)."""
    if shown.key != "uncertain":
        return ""
    if c is not None:
        return claim_sentences(c, "uncertain")["zh-Hant"]
    return "證據不足，存疑。"


def hans(text: str) -> str:
    """The simplified form of a traditional sentence (OpenCC, as the rest of the toolkit converts); what it quotes
    in 「」 (a witness's reading) is left as the witness writes it."""
    out = []
    for i, chunk in enumerate(text.split("「")):
        if i == 0:
            out.append(_hans_glue(chunk))
            continue
        q, sep, rest = chunk.partition("」")
        out.append("「" + q + sep + _hans_glue(rest))
    return "".join(out)


@lru_cache(maxsize=4096)
def _hans_glue(text: str) -> str:
    """The simplified form of the words between quotations (``，四庫本注疏作``): a few hundred distinct ones,
    met in thousands of 校勘記 sentences, each converted once."""
    return convert_text(text, "simplified")
