"""Read 案 verdicts for the renderer: ``{note id: {kind, verdict, summary, reading}}``.

Accepted files (JSON): that mapping itself, or the report ``jiaokan emend --json`` writes
(its ``by_note`` member is that mapping).  Several files merge (one per witness).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..readers.base import ReaderError


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
        out.update(data)
    return out
