"""The vocabulary emend and render share: kinds of claim, verdicts, and the verdict record of a 案 note.

Why one module: the emend stage writes verdicts (``jiaokan emend --json``, ``jiaokan
build``) and the HTML renderer reads them back, possibly from a file written by another
version.  Both sides spell kinds and verdicts from here, and the renderer receives typed
:class:`NoteVerdict` records, never free-form dicts.  Kinds and verdicts are ``Literal``
strings rather than an ``Enum`` because they travel as plain strings through JSON, CSV,
TEI attributes and CSS classes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, get_args

__all__ = ["Kind", "KINDS", "Verdict", "VERDICTS", "UNCOVERED", "ClaimEvidence", "NoteVerdict"]

#: The kinds of claim a 案 note makes (see :mod:`jiaokan.emend.notes`).  ``comment`` is both
#: "a judgement that changes no reading" and the fallback for shapes the grammar does not
#: know (``rule="unparsed"``).
Kind = Literal["corruption", "omission", "addition", "variant", "conjecture", "comment", "lacuna"]
KINDS: tuple[Kind, ...] = get_args(Kind)

#: The verdict of the check of a claim about 今注疏本 against the 注疏 witness (see
#: :mod:`jiaokan.emend.check`); a claim that is not checked has the verdict ``None``.
#: ``uncertain``: the witness reaches the place but what it reads does not prove the claim
#: either way (an anchor not aligned with confidence, an unknown character, a gap in the
#: note, a reading that may run on into the argument); the check says why.
Verdict = Literal["confirmed", "contradicted", "uncertain", "not covered"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)

#: The reading recorded for a witness that does not reach the place at all (a 注疏 excerpt, a
#: passage one witness lacks).  ``""`` is different: the witness reaches the place and has
#: nothing there (an omission).
UNCOVERED = "—"


def _in_lang(texts: Mapping[str, str], lang: str) -> str:
    """The text of ``texts`` for ``lang`` (``zh`` → ``zh-Hans``, ``zh-TW`` → ``zh-Hant``; else English)."""
    lang = {"zh": "zh-Hans", "zh-CN": "zh-Hans", "zh-SG": "zh-Hans", "zh-TW": "zh-Hant", "zh-HK": "zh-Hant"}.get(lang, lang)
    return texts.get(lang) or texts.get("en", "")


def _opt_str(data: Mapping[str, Any], name: str) -> str | None:
    value = data.get(name)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{name} must be a string or null, not {type(value).__name__}")
    return value


def _str(data: Mapping[str, Any], name: str) -> str:
    value = data.get(name, "")
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string, not {type(value).__name__}")
    return value


def _kind(data: Mapping[str, Any]) -> Kind:
    kind = data.get("kind")
    for k in KINDS:
        if kind == k:
            return k
    raise ValueError(f"kind {kind!r} is not one of {', '.join(KINDS)}")


def _verdict(data: Mapping[str, Any]) -> Verdict | None:
    verdict = data.get("verdict")
    for v in VERDICTS:
        if verdict == v:
            return v
    if verdict is not None:
        raise ValueError(f"verdict {verdict!r} is not one of {', '.join(VERDICTS)} or null")
    return None


@dataclass(frozen=True)
class ClaimEvidence:
    """One claim of a 案 note with the evidence of its verdict: what a scholar needs to audit it.

    ``target`` is whom the claim is about (``zhushu``, ``songben``, ``shiwen``, ``self`` for
    a conjecture on the noted text, ``yuanben``, ``tangshijing`` …); ``lemma`` the noted
    text's reading the claim bears on and ``reading`` what the note says the target reads
    ("" = nothing); ``verdict`` what the witness that spoke (``witness``, a siglum; None
    when no witness here can speak for the target) bears out; ``rule`` the machine name of
    the deciding rule (``agrees``, ``as-this-text``, ``shiwen-headword`` …, see
    :mod:`jiaokan.emend.evidence`) and ``why`` the same in a sentence or two.  ``anchor``
    is the anchored text in its context, the anchor itself in 【】 (so that a point
    between two characters shows too); ``place`` where it stands in the noted witness
    (卷, 葉, 行).  ``readings`` maps the siglum of every witness collated at the place to
    its aligned reading there: "" where it has nothing, :data:`UNCOVERED` where it does
    not reach the place.
    """

    id: str
    kind: Kind
    lemma: str | None = None
    reading: str | None = None
    target: str = ""
    verdict: Verdict | None = None
    rule: str = ""
    why: str = ""
    anchor: str | None = None
    place: str | None = None
    witness: str | None = None
    readings: dict[str, str] = field(default_factory=dict, hash=False)
    #: the verdict as one sentence for a reader, by language (``zh-Hans``, ``zh-Hant``, ``en``;
    #: see :mod:`jiaokan.emend.words`): no internal names, the reason when uncertain; derived from
    #: the other fields, so left out of comparisons (a CSV row read back has none)
    sentences: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    def sentence(self, lang: str = "zh-Hans") -> str:
        """The verdict as a sentence in ``lang`` (``zh``/``zh-Hans``, ``zh-Hant``, ``en``); ``why`` when none."""
        return _in_lang(self.sentences, lang) or self.why

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (a member of ``claims`` of a ``by_note`` record).  ``sentences`` leaves out the English
        where it is ``why`` (every claim's today: the check's sentence is its English; said twice, it was a
        twentieth of the report); :meth:`from_dict` gives it back."""
        said = {k: v for k, v in self.sentences.items() if not (k == "en" and v == self.why)}
        return {
            "id": self.id, "kind": self.kind, "lemma": self.lemma, "reading": self.reading,
            "target": self.target, "verdict": self.verdict, "rule": self.rule, "why": self.why,
            "anchor": self.anchor, "place": self.place, "witness": self.witness,
            "readings": dict(self.readings), "sentences": said,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClaimEvidence:
        """The record of a JSON object; ``ValueError`` saying which member is wrong.

        ``id`` and ``kind`` are required; other members may be missing, unknown ones are ignored.  Sentences
        without an English one have ``why`` as their English (:meth:`to_dict`).
        """
        cid = data.get("id")
        if not isinstance(cid, str) or not cid:
            raise ValueError(f"claim id must be a non-empty string, not {cid!r}")
        readings = data.get("readings", {})
        if not isinstance(readings, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in readings.items()):
            raise ValueError(f"claim {cid}: readings must map sigla to strings")
        sentences = data.get("sentences", {})
        if not isinstance(sentences, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in sentences.items()):
            raise ValueError(f"claim {cid}: sentences must map languages to strings")
        if sentences and "en" not in sentences and isinstance(data.get("why"), str) and data["why"]:
            sentences = {**sentences, "en": data["why"]}
        try:
            return cls(cid, _kind(data), _opt_str(data, "lemma"), _opt_str(data, "reading"), _str(data, "target"),
                       _verdict(data), _str(data, "rule"), _str(data, "why"), _opt_str(data, "anchor"),
                       _opt_str(data, "place"), _opt_str(data, "witness"), dict(readings), dict(sentences))
        except ValueError as exc:
            raise ValueError(f"claim {cid}: {exc}") from None


@dataclass(frozen=True)
class NoteVerdict:
    """What the renderer shows of one 案 note: its badge and its tooltip.

    ``kind`` is the note's (first claim's) kind; ``verdict`` the verdict over its claims
    about the 注疏 (``None`` when it makes none); ``summary`` one line for a reader;
    ``reading`` what the 注疏 reads at the note's place (``None`` when not covered);
    ``claims`` the evidence of every claim of the note (see :class:`ClaimEvidence`).
    """

    kind: Kind
    verdict: Verdict | None
    summary: str = ""
    reading: str | None = None
    claims: tuple[ClaimEvidence, ...] = ()

    def sentence(self, lang: str = "zh-Hans") -> str:
        """The note's verdict as a sentence for a reader: that of the claim that decides it (see
        :meth:`ClaimEvidence.sentence`), else of its first claim; ``summary`` when there is none."""
        lead = next((c for c in self.claims if self.verdict is not None and c.verdict == self.verdict
                     and "@" not in c.id), None) or next(iter(self.claims), None)
        return (lead.sentence(lang) if lead is not None else "") or self.summary

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the ``by_note`` members of ``jiaokan emend --json``).  A claim leaves out the
        members of :data:`SAME_AS_BEFORE` that are the claim's before it (a claim about a 宋本 or the 释文
        follows the claim that implies it, at the same place); :meth:`from_dict` gives them back."""
        claims: list[dict[str, Any]] = []
        before: dict[str, Any] = {}
        for c in self.claims:
            d = c.to_dict()
            claims.append({k: v for k, v in d.items() if not (k in SAME_AS_BEFORE and k in before and before[k] == v)})
            before = d
        return {"kind": self.kind, "verdict": self.verdict, "summary": self.summary, "reading": self.reading,
                "claims": claims}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NoteVerdict:
        """The record of a JSON object; ``ValueError`` saying which member is wrong and what was expected.

        ``kind`` is required, the other members may be missing; members of other names are
        ignored (a newer writer may add some).  A claim without a member of :data:`SAME_AS_BEFORE`
        has the claim's before it (:meth:`to_dict`).
        """
        claims = data.get("claims", [])
        if not isinstance(claims, list) or not all(isinstance(c, Mapping) for c in claims):
            raise ValueError("claims must be a list of objects")
        full: list[Mapping[str, Any]] = []
        for c in claims:
            before = full[-1] if full else {}
            full.append({**{k: before[k] for k in SAME_AS_BEFORE if k in before and k not in c}, **c})
        return cls(_kind(data), _verdict(data), _str(data, "summary"), _opt_str(data, "reading"),
                   tuple(ClaimEvidence.from_dict(c) for c in full))


#: The members of a claim that a note's JSON record (:meth:`NoteVerdict.to_dict`) leaves out where they are the
#: claim's before it: where the claims stand and what every witness reads there.
SAME_AS_BEFORE: tuple[str, ...] = ("anchor", "place", "readings")
