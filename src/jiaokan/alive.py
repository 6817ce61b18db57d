"""A memo per object, kept exactly while the object lives: what is worked out once of a witness or a
collation that several askers need (render: a witness in two chapters, a collation counted by its page and by
the contents; the 案 check: the 注疏's front matter, asked by every 篇).

Why not a fixed count of entries: a count is a length of book.  The memos held the last 128 and were emptied
past it, which a book of more witnesses than that (the doubled book has 142) crossed, so that each asker worked
it out again: the search's folding table read every witness of the doubled book again, a tenth of its render.
The 案 check kept the last front matter only, and a book with two 注疏 editions swapped between them at every
篇, keying each again (×26 in the doubled book).
Held weakly, an entry leaves with its object: a long-lived process (a server, the tests) keeps nothing of a book
it has let go, whatever the book's length.
"""

from __future__ import annotations

import weakref
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class WhileAlive(Generic[K, V]):
    """object → value, by identity, the object held weakly (its entry dropped when it is collected)."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[weakref.ref[K], V]] = {}

    def get(self, obj: K) -> V | None:
        hit = self._kept.get(id(obj))
        return hit[1] if hit is not None and hit[0]() is obj else None

    def put(self, obj: K, value: V) -> None:
        k = id(obj)

        def gone(ref: weakref.ref[K]) -> None:
            hit = self._kept.get(k)
            if hit is not None and hit[0] is ref:  # (not a later object's entry under the same id)
                del self._kept[k]

        self._kept[k] = (weakref.ref(obj, gone), value)

    def clear(self) -> None:
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)
