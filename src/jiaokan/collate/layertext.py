"""A layer's reading text over some units, with the page, line and unit of every character.

Why a separate object: alignment runs on plain strings, but the apparatus must
say where a reading stands (passage, page, line), and the HTML must find the
characters again inside the pieces.  Walking all pieces (not only the layer's)
keeps page and line state right when a page turns inside another layer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from ..model import Gaiji, Gap, Inline, LineBreak, Note, PageBreak, Text, Unit


@dataclass
class LayerText:
    text: str = ""
    units: list[str] = field(default_factory=list)
    pages: list[str | None] = field(default_factory=list)
    lines: list[int | None] = field(default_factory=list)
    gaps: list[int] = field(default_factory=list)  # offsets where the source lost text (a Gap in the layer)

    def where(self, offset: int) -> tuple[str | None, str | None, int | None]:
        """(unit, page, line) of the character at ``offset`` (or the last one before it)."""
        if not self.text:
            return None, None, None
        i = min(max(offset, 0), len(self.text) - 1)
        return self.units[i], self.pages[i], self.lines[i]


class _At(TypedDict):
    """Where the walk stands: the last page label and source line seen."""

    page: str | None
    line: int | None


def layer_text(units: list[Unit], layer: str) -> LayerText:
    out = LayerText()
    chars: list[str] = []
    state: _At = {"page": None, "line": None}

    def walk(content: list[Inline], uid: str, take: bool) -> None:
        for node in content:
            if isinstance(node, PageBreak):
                state["page"] = node.n
            elif isinstance(node, LineBreak):
                state["line"] = node.n
            elif isinstance(node, Note):
                walk(node.content, uid, False)
            elif take and isinstance(node, Gap):
                out.gaps.append(len(chars))
            elif take and isinstance(node, (Text, Gaiji)):
                s = node.text if isinstance(node, Text) else (node.char or "\ufffd")
                for ch in s:
                    chars.append(ch)
                    out.units.append(uid)
                    out.pages.append(state["page"])
                    out.lines.append(state["line"])

    for u in units:
        for p in u.pieces:
            # a piece that starts mid-line or mid-page carries where it starts
            if state["page"] is None:
                state["page"] = p.loc.page
            if state["line"] is None:
                state["line"] = p.loc.line or None
            walk(p.content, u.id, p.layer == layer)
    out.text = "".join(chars)
    return out
