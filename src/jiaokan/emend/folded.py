"""One witness's text of some layers as the 案 and 識誤 checks search it: a key character per character.

Why one module: the 疏 check (:mod:`.shu`) and the 識誤 check (:mod:`.shiwu`) both look a quotation
up in a witness's layer text by its folded keys and show the witness's own characters found; each
built that text itself, a Python call per character, and the 疏 check built it again for every
claim (79 times over the book for a few witnesses).  Here it is made with two ``str.translate``
calls (in C), and :class:`FoldedTexts` makes it once per witness and layers.
"""

from __future__ import annotations

from ..model import Witness
from ..normalize import key
from ..normalize.ignorable import strip_ignorable
from ..normalize.translate import LazyTable

__all__ = ["FoldedText", "FoldedTexts", "first_keys", "keys_joined", "one_key_each"]


def _first_key(ch: str) -> str:
    """A character → the first character of its key (itself when the key is empty)."""
    return key(ch)[:1] or ch


_FIRST_KEY = LazyTable(_first_key)
_KEY = LazyTable(key)


def first_keys(text: str) -> str:
    """``"".join(key(c)[:1] or c for c in text)``: one position per character, in C."""
    return text.translate(_FIRST_KEY)


def keys_joined(text: str) -> str:
    """``"".join(key(c) for c in text)``, in C (``text``: single characters, no gaiji entity)."""
    return text.translate(_KEY)


#: a character whose key is not exactly one character → itself, the rest dropped
_NOT_ONE_KEY = LazyTable(lambda ch: None if len(key(ch)) == 1 else ch)


def one_key_each(text: str) -> bool:
    """Does every character of ``text`` key to exactly one character?  (The usual case: then
    ``keys_joined(text)[i]`` is the key of ``text[i]``, and a list of keys is that string's characters.)"""
    return not text.translate(_NOT_ONE_KEY)


class FoldedText:
    """A witness's characters of ``layers`` over its whole text, ignorable ones dropped (``chars``), and
    their keys (``keys``, one character each, so an offset in one is an offset in the other)."""

    def __init__(self, w: Witness, layers: tuple[str, ...] | frozenset[str]) -> None:
        self.chars = strip_ignorable("".join([p.text for p in w.pieces() if p.layer in layers]))
        self.keys = first_keys(self.chars)


class FoldedTexts:
    """:class:`FoldedText` made once per (witness, set of layers), for a check that asks for it many times.

    Hold one only while the witnesses do not change (one stage's checks): the text is not made again.
    """

    def __init__(self) -> None:
        self._made: dict[tuple[int, tuple[str, ...]], tuple[Witness, FoldedText]] = {}

    def get(self, w: Witness, layers: tuple[str, ...]) -> FoldedText:
        # one text for a set of layers whatever their order (the 識誤 names 经 then 传, or 传 then 经):
        # the text is in the witness's order
        k = (id(w), tuple(sorted(set(layers))))
        hit = self._made.get(k)
        if hit is None or hit[0] is not w:  # the witness is kept with its text: its id is not reused
            hit = self._made[k] = (w, FoldedText(w, layers))
        return hit[1]
