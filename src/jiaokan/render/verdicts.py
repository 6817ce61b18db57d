"""Read 案 verdicts for the renderer: ``{note id: NoteVerdict}``.

Accepted files (JSON): the mapping ``{note id: {kind, verdict, summary, reading}}`` itself,
or the report ``jiaokan emend --json`` writes (its ``by_note`` member is that mapping).
Several files merge (one per witness).  Every record is checked here
(:meth:`NoteVerdict.from_dict`), so a malformed file is a one-line error naming the file
and the note, not a broken page or a traceback in the middle of rendering.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import InputError
from ..emend.verdict import NoteVerdict

_EXPECTED = "expected {note id: {kind, verdict, summary, reading}} or an emend report"


def load_verdicts(paths: list[str | Path]) -> dict[str, NoteVerdict]:
    out: dict[str, NoteVerdict] = {}
    for p in paths:
        try:
            data = json.loads(Path(p).read_text(encoding="utf-8"))
        except OSError:
            raise InputError(str(p), "no such file or not readable") from None
        except ValueError as exc:
            raise InputError(str(p), f"not JSON: {exc}") from None
        if isinstance(data, dict) and isinstance(data.get("by_note"), dict):
            data = data["by_note"]
        if not isinstance(data, dict):
            raise InputError(str(p), _EXPECTED)
        for nid, record in data.items():
            if not isinstance(record, dict):
                raise InputError(str(p), f"note {nid}: {_EXPECTED}")
            try:
                out[nid] = NoteVerdict.from_dict(record)
            except ValueError as exc:
                raise InputError(str(p), f"note {nid}: {exc}") from None
    return out
