"""The vocabulary emend and render share: kinds of claim, verdicts, and the verdict record of a 案 note.

Why one module: the emend stage writes verdicts (``jiaokan emend --json``, ``jiaokan
build``) and the HTML renderer reads them back, possibly from a file written by another
version.  Both sides spell kinds and verdicts from here, and the renderer receives typed
:class:`NoteVerdict` records, never free-form dicts.  Kinds and verdicts are ``Literal``
strings rather than an ``Enum`` because they travel as plain strings through JSON, CSV,
TEI attributes and CSS classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping, get_args

__all__ = ["Kind", "KINDS", "Verdict", "VERDICTS", "NoteVerdict"]

#: The kinds of claim a 案 note makes (see :mod:`jiaokan.emend.notes`).  ``comment`` is both
#: "a judgement that changes no reading" and the fallback for shapes the grammar does not
#: know (``rule="unparsed"``).
Kind = Literal["corruption", "omission", "addition", "variant", "conjecture", "comment", "lacuna"]
KINDS: tuple[Kind, ...] = get_args(Kind)

#: The verdict of the check of a claim about 今注疏本 against the 注疏 witness (see
#: :mod:`jiaokan.emend.check`); a claim that is not checked has the verdict ``None``.
Verdict = Literal["confirmed", "contradicted", "not covered"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)

@dataclass(frozen=True)
class NoteVerdict:
    """What the renderer shows of one 案 note: its badge and its tooltip.

    ``kind`` is the note's (first claim's) kind; ``verdict`` the verdict over its claims
    about the 注疏 (``None`` when it makes none); ``summary`` one line for a reader;
    ``reading`` what the 注疏 reads at the note's place (``None`` when not covered).
    """

    kind: Kind
    verdict: Verdict | None
    summary: str = ""
    reading: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the ``by_note`` members of ``jiaokan emend --json``)."""
        return {"kind": self.kind, "verdict": self.verdict, "summary": self.summary, "reading": self.reading}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NoteVerdict:
        """The record of a JSON object; ``ValueError`` saying which member is wrong and what was expected.

        ``kind`` is required, the other members may be missing; members of other names are
        ignored (a newer writer may add some).
        """
        kind = data.get("kind")
        if kind not in KINDS:
            raise ValueError(f"kind {kind!r} is not one of {', '.join(KINDS)}")
        verdict = data.get("verdict")
        if verdict is not None and verdict not in VERDICTS:
            raise ValueError(f"verdict {verdict!r} is not one of {', '.join(VERDICTS)} or null")
        summary = data.get("summary", "")
        if not isinstance(summary, str):
            raise ValueError(f"summary must be a string, not {type(summary).__name__}")
        reading = data.get("reading")
        if reading is not None and not isinstance(reading, str):
            raise ValueError(f"reading must be a string or null, not {type(reading).__name__}")
        return cls(kind, verdict, summary, reading)
