"""Per-character functions applied to a whole string in C: a ``str.translate`` table filled as characters are met.

Why one home: the collation, the 案 and 識誤 checks and the apparatus fold every text they compare, once a Python
call per character; ``str.translate`` with a table does the same walk in C, and a table that fills itself on the
first meeting of each code point needs no list of the characters in advance.  A character's fold never changes in
a process (the variant tables are fixed; only gaiji entities, which are never single characters, depend on what a
build learns), so a filled entry stays right.
"""

from __future__ import annotations

from typing import Callable


class LazyTable(dict[int, "str | None"]):
    """``text.translate(LazyTable(fn))`` is ``"".join(fn(c) or "" for c in text)``: ``fn`` maps one character to
    its replacement (a string, or ``None`` to drop it), called once per code point met."""

    def __init__(self, fn: Callable[[str], "str | None"]) -> None:
        super().__init__()
        self._fn = fn

    def __missing__(self, cp: int) -> "str | None":
        v = self[cp] = self._fn(chr(cp))
        return v
