"""Read 案 verdicts for the renderer: ``{note id: {kind, verdict, summary, reading}}``.

Accepted files (JSON): that mapping itself, or the report ``jiaokan emend --json`` writes
(its ``by_note`` member is that mapping).  Several files merge (one per witness).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..readers.base import ReaderError

#: The members of a verdict record the renderer reads; each is a string (or absent/null).
FIELDS = ("kind", "verdict", "summary", "reading")


def load_verdicts(paths: list[str | Path]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for p in paths:
        try:
            data = json.loads(Path(p).read_text(encoding="utf-8"))
        except OSError:
            raise ReaderError(str(p), "no such file or not readable") from None
        except ValueError as exc:
            raise ReaderError(str(p), f"not JSON: {exc}") from None
        if isinstance(data, dict) and isinstance(data.get("by_note"), dict):
            data = data["by_note"]
        if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
            raise ReaderError(str(p), "expected {note id: {kind, verdict, summary, reading}} or an emend report")
        for note_id, rec in data.items():
            bad = [k for k in FIELDS if rec.get(k) is not None and not isinstance(rec[k], str)]
            if bad:
                raise ReaderError(str(p), f"note {note_id!r}: {', '.join(bad)} must be text (a JSON string) or null, "
                                  f"not {type(rec[bad[0]]).__name__}")
        out.update(data)
    return out
