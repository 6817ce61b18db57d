"""Comparison keys: one character → its folded key, and a text → its keys.

The key of a character is computed in a fixed, shallow order, so that it stays sound:

1. NFC (compatibility ideographs such as U+F9xx become the unified character; class
   ``identity``: it is the same character);
2. a taboo-only form folds to the character it avoids (𤣥 → 玄, 𢎞 → 弘; class ``taboo``);
3. OpenCC ``t2s`` per character (衆 → 众; class ``script``);
4. at most **one** lookup in the shipped variant table, which maps a non-standard form to
   its standard representative (賔 → 宾, 荅 → 答; class ``variant``).

There is no transitive closure: loose variant graphs join distinct characters (盥/灌,
篚/匪, 于/干), so the table is built as small stars around standard characters and
applied once.  A Kanripo gaiji entity (``&KR0925;``) folds like the character it stands
for, with class ``gaiji``.

Why keys and not rewritten text: collation aligns on keys, but the apparatus must show
and store the witnesses' own characters, so keys always travel with their source index.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Sequence

from . import tables
from .gaiji import ENTITY_RE, normalize_code, resolve_gaiji
from .ignorable import is_ignorable, kept_offsets
from .script import t2s_char
from .translate import LazyTable

#: The values of :attr:`Folded.cls`, weakest change first.
CLASSES: tuple[str, ...] = ("identity", "script", "variant", "taboo", "gaiji")


@dataclass(frozen=True)
class Folded:
    """A source character with its comparison key.

    ``char`` is the character as given (never altered), ``key`` what collation compares,
    ``cls`` the strongest fold applied: ``identity`` (none, or NFC only), ``script``
    (t2s), ``variant`` (异体 table), ``taboo`` (a 避讳 form), ``gaiji`` (an entity).
    """

    char: str
    key: str
    cls: str


_cache: dict[str, Folded] = {}


def _fold_char(ch: str) -> Folded:
    c = unicodedata.normalize("NFC", ch) if not ch.isascii() else ch
    if len(c) != 1:  # NFC never changes the length of a single ideograph; be safe anyway
        c = ch
    taboo = tables.taboo_forms().get(c)
    if taboo is not None:
        return Folded(ch, _fold_char(taboo).key, "taboo")
    t = t2s_char(c)
    entry = tables.variants().get(t)
    if entry is not None:
        return Folded(ch, entry.key, entry.cls)
    if t != c:
        return Folded(ch, t, "script")
    return Folded(ch, c, "identity")


def _fold_entity(ent: str) -> Folded:
    code = normalize_code(ent)
    char = resolve_gaiji(code) if code else None
    if char is None:
        # unresolved: the entity itself is the key, so identical codes still match
        return Folded(ent, f"&{code};" if code else ent, "gaiji")
    return Folded(ent, fold_token(char).key, "gaiji")


#: what else remembers answers made of keys (:func:`jiaokan.normalize.relation.relation`'s): cleared with them
_DEPENDENT_CACHES: list[dict] = []


def clear_caches() -> None:
    """Forget every computed key (after the build registers gaiji resolved from the witnesses)."""
    _cache.clear()
    _key_cache.clear()
    _KEYS.clear()
    _ODD.clear()
    for memo in _DEPENDENT_CACHES:
        memo.clear()


def forget_entities() -> None:
    """Forget the keys of the gaiji entities (``&KR0925;``), and what was made of keys, keeping every
    character's: after the build registers the gaiji it resolved from the witnesses, which change what an
    entity stands for and nothing else (a character's key is its NFC, taboo, t2s and variant-table fold).
    Why not :func:`clear_caches`: the characters folded while the witnesses were read (every one of the
    book's, in a build with one job) were folded all over again, each lookup table filled anew."""
    for tok in [t for t in _cache if len(t) != 1]:
        del _cache[tok]
    for memo in _DEPENDENT_CACHES:
        memo.clear()


def fold_token(ch: str) -> Folded:
    """Fold one token — a character (a ``str`` of length 1, astral characters included) — to its comparison key.

    Also accepts a Kanripo gaiji entity (``"&KR0925;"``), which folds like the character
    it stands for with class ``gaiji``; an unknown entity keys to itself.
    """
    f = _cache.get(ch)
    if f is not None:
        return f
    if len(ch) == 1:
        f = _fold_char(ch)
    elif ch.startswith("&") and ch.endswith(";") and normalize_code(ch):
        f = _fold_entity(ch)
    else:
        raise ValueError(f"fold_token expects one character or a gaiji entity, got {ch!r}")
    _cache[ch] = f
    return f


def key(ch: str) -> str:
    """The comparison key of one character: ``fold_token(ch).key``."""
    f = _cache.get(ch)
    return f.key if f is not None else fold_token(ch).key


# per-character key cache for keys(): "" marks an ignorable character
_key_cache: dict[str, str] = {}


def _char_key(ch: str) -> str:
    k = "" if is_ignorable(ch) else fold_token(ch).key
    _key_cache[ch] = k
    return k


def keys(text: str) -> list[tuple[int, str]]:
    """``(index in text, key)`` for every non-ignorable character of ``text``.

    Indexes are Python string indexes (code points), so ``text[i]`` is the source
    character.  A gaiji entity ``&KR0925;`` counts as one character at the index of its
    ``&``.  Fast path: a dict lookup per character (150k characters in a few ms).
    """
    cache = _key_cache
    out: list[tuple[int, str]] = []
    append = out.append

    def plain(start: int, end: int) -> None:
        for i in range(start, end):
            ch = text[i]
            k = cache.get(ch)
            if k is None:
                k = _char_key(ch)
            if k:
                append((i, k))

    pos = 0
    if "&" in text:
        for m in ENTITY_RE.finditer(text):
            plain(pos, m.start())
            append((m.start(), fold_token(m.group(0)).key))
            pos = m.end()
    plain(pos, len(text))
    return out


def _key_char(ch: str) -> str | None:
    """What :data:`_KEYS` maps a character to: an ignorable character → dropped, any other → the first code
    point of its key (the character itself if its key were empty)."""
    if is_ignorable(ch):
        return None
    k = key(ch)
    if len(k) != 1:
        _ODD.add(ch)
    return k[:1] or ch


_KEYS = LazyTable(_key_char)
#: the characters met whose key is not exactly one code point (none in the shipped tables)
_ODD: set[str] = set()


def key_string(text: str) -> str | None:
    """The keys of the characters of ``text`` that are not ignorable, as one string, when every key is exactly
    one code point: ``"".join(key(c) for c in text if not is_ignorable(c))``, made for the whole string at
    once in C (``str.translate``).  Else None (then ask :func:`key` per character).  Why apart from
    :func:`exact_keys`: the passage checks and the 經 streams compare keys only, and need no offsets."""
    ks = text.translate(_KEYS)
    if _ODD and any(ch in text for ch in _ODD):
        return None
    return ks


def exact_keys(text: str, kept: Sequence[int] | None = None) -> tuple[str, Sequence[int]] | None:
    """``(keys, kept_positions(text))`` when every key of ``text`` is exactly one code point:
    ``keys[i]`` *is* ``key(text[kept[i]])``, made for the whole string at once in C (:func:`key_string`),
    where the collation called :func:`key` and ``is_ignorable`` per character of every text it aligns.
    Else None (then ask :func:`key` per character).  ``kept``: ``kept_positions(text)``, when the
    caller has it (else an array of them, :func:`~.ignorable.kept_offsets`)."""
    ks = key_string(text)
    if ks is None:
        return None
    return ks, kept if kept is not None else kept_offsets(text)


def tokens(text: str) -> list[tuple[int, str]]:
    """``(index, source token)`` for every non-ignorable character or gaiji entity."""
    out: list[tuple[int, str]] = []
    pos = 0
    for m in ENTITY_RE.finditer(text):
        out.extend((i, text[i]) for i in range(pos, m.start()) if not is_ignorable(text[i]))
        out.append((m.start(), m.group(0)))
        pos = m.end()
    out.extend((i, text[i]) for i in range(pos, len(text)) if not is_ignorable(text[i]))
    return out
