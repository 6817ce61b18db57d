"""A layer's reading text over some units, with the page, line and unit of every character.

Why a separate object: alignment runs on plain strings, but the apparatus must
say where a reading stands (passage, page, line), and the HTML must find the
characters again inside the pieces.  Walking all pieces (not only the layer's)
keeps page and line state right when a page turns inside another layer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Gaiji, Gap, Inline, Label, LineBreak, Note, PageBreak, Text, Unit


@dataclass
class LayerText:
    text: str = ""
    units: list[str] = field(default_factory=list)
    pages: list[str | None] = field(default_factory=list)
    lines: list[int | None] = field(default_factory=list)
    cols: list[int | None] = field(default_factory=list)  # column on the source line (model.assign_columns)
    gaps: list[int] = field(default_factory=list)  # offsets where the source lost text (a Gap in the layer)

    def where(self, offset: int) -> tuple[str | None, str | None, int | None]:
        """(unit, page, line) of the character at ``offset`` (or the last one before it)."""
        if not self.text:
            return None, None, None
        i = min(max(offset, 0), len(self.text) - 1)
        return self.units[i], self.pages[i], self.lines[i]

    def col_at(self, offset: int) -> int | None:
        """Column on its source line of the character at ``offset`` (or the last one before it)."""
        if not self.cols:
            return None
        return self.cols[min(max(offset, 0), len(self.cols) - 1)]


def layer_text(units: list[Unit], layer: str) -> LayerText:
    out = LayerText()
    chars: list[str] = []
    state: dict = {"page": None, "line": None, "col": None}

    def walk(content: list[Inline], uid: str, take: bool) -> None:
        for node in content:
            if isinstance(node, PageBreak):
                state["page"] = node.n
            elif isinstance(node, LineBreak):
                state["line"] = node.n
                state["col"] = 0
            elif isinstance(node, Note):
                walk(node.content, uid, False)
            elif isinstance(node, Label):
                state["col"] += len(node.text)
            elif take and isinstance(node, Gap):
                out.gaps.append(len(chars))
            elif isinstance(node, (Text, Gaiji)):
                s = node.text if isinstance(node, Text) else node.reading
                if not take:
                    state["col"] += len(s)
                    continue
                for ch in s:
                    state["col"] += 1
                    chars.append(ch)
                    out.units.append(uid)
                    out.pages.append(state["page"])
                    out.lines.append(state["line"])
                    out.cols.append(state["col"])

    for u in units:
        for p in u.pieces:
            # a piece that starts mid-line or mid-page carries where it starts
            if state["page"] is None:
                state["page"] = p.loc.page
            if state["line"] is None:
                state["line"] = p.loc.line or None
            if state["col"] is None:
                state["col"] = (p.col or 1) - 1
            walk(p.content, u.id, p.layer == layer)
    out.text = "".join(chars)
    return out
