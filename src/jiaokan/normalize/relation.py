"""How two readings of one position relate: identical, orthographic, taboo, minor, different.

Why typed relations rather than key equality alone: the apparatus types its variants
(TEI ``rdg/@type``), and a scholar reads 荅/答 (an orthographic variant), 元/玄 (a Qing
taboo substitution), 於/于 (a minor 古今字 reading) and 北/比 (a real variant) very
differently.  Keys decide alignment; ``relation`` decides the type.

Order of the checks, for two single characters ``a``, ``b``:

1. equal after NFC → ``identical``;
2. equal keys: ``taboo`` if either was folded as a taboo form (𤣥/玄), else a
   *character-level* pair that t2s itself merged (於/于 ``minor``, 乾/干 ``different``,
   曆/歷 ``taboo``) — only when both readings come from traditional-script witnesses
   (``simplified=False``) — else ``orthographic``;
3. different keys: a taboo pair (玄/元) → ``taboo``; a minor pair (辯/徧, 孰/熟) →
   ``minor``; else ``different``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from . import tables
from .fold import _DEPENDENT_CACHES, Folded, fold_token, key, tokens
from .learned import is_accepted
from .script import t2s_char

#: Relations from the weakest to the strongest difference; ``relation_str`` reports the
#: strongest one found across positions.
RELATIONS: tuple[str, ...] = ("identical", "orthographic", "taboo", "minor", "different")
_RANK = {r: i for i, r in enumerate(RELATIONS)}


@lru_cache(maxsize=1)
def _key_pairs() -> dict[frozenset[str], str]:
    """Key-level typed pairs: frozenset of the two keys → relation."""
    out: dict[frozenset[str], str] = {}
    for p in tables.minor_pairs():
        if p.level == "key":
            out[frozenset((key(p.a), key(p.b)))] = "different" if p.kind == "different" else "minor"
    for p in tables.taboo_rows():
        if p.level in ("pair", "form"):
            out[frozenset((key(p.a), key(p.b)))] = "taboo"
    return out


@lru_cache(maxsize=1)
def _char_pairs() -> dict[frozenset[str], str]:
    """Character-level pairs that t2s merges: frozenset of the two NFC characters → relation."""
    out: dict[frozenset[str], str] = {}
    for p in tables.minor_pairs():
        if p.level == "char":
            out[frozenset((p.a, p.b))] = "different" if p.kind == "different" else "minor"
    for p in tables.taboo_rows():
        if p.level == "char":
            out[frozenset((p.a, p.b))] = "taboo"
    return out


def _nfc(ch: str) -> str:
    return unicodedata.normalize("NFC", ch) if len(ch) == 1 else ch


#: (a, b, simplified) → :func:`relation` as the keys and tables make it, None where it is the scholar's accepted
#: pairs that decide (asked anew each time: they may be set again); cleared with the keys (fold.clear_caches)
_memo: dict[tuple[str, str, bool], str | None] = {}
_DEPENDENT_CACHES.append(_memo)
#: (a, b) → :func:`orthographic_source` of two characters whose keys agree; cleared with the keys
_source_memo: dict[tuple[str, str], str | None] = {}
_DEPENDENT_CACHES.append(_source_memo)


def relation(a: str, b: str, *, simplified: bool = False) -> str:
    """Relation of two single characters (or gaiji entities) read at the same position.

    Returns ``"identical"``, ``"orthographic"`` (script or 异体 only), ``"taboo"``,
    ``"minor"`` (古今字/通假/形近混用: a real but minor reading) or ``"different"``.
    Symmetric.  Set ``simplified=True`` when either reading comes from a simplified-script
    witness: pairs that simplification itself merges (於/于, 後/后) are then only
    orthographic, since the simplified witness cannot tell them apart.

    Why a memo: a collation asks it of the same few thousand pairs twenty thousand times.
    """
    k = (a, b, simplified)
    r = _memo.get(k, "")
    if r == "":
        r = _memo[k] = _relation(a, b, simplified)
    if r is None:
        return "orthographic" if is_accepted(a, b) else "different"
    return r


def _relation(a: str, b: str, simplified: bool) -> str | None:
    """:func:`relation` before the accepted pairs are asked (None: theirs to say)."""
    if a == b or _nfc(a) == _nfc(b):
        return "identical"
    fa, fb = fold_token(a), fold_token(b)
    if fa.key == fb.key:
        if fa.cls == "taboo" or fb.cls == "taboo":
            return "taboo"
        if not simplified:
            ca = fa.char if fa.cls != "gaiji" else fa.key
            cb = fb.char if fb.cls != "gaiji" else fb.key
            r = _char_pairs().get(frozenset((_nfc(ca), _nfc(cb))))
            if r is not None:
                return r
        return "orthographic"
    return _key_pairs().get(frozenset((fa.key, fb.key)))


def orthographic_source(a: str, b: str) -> str | None:
    """Where the knowledge that ``a`` and ``b`` are one character comes from, for the apparatus.

    ``unihan``, ``yitizi``, ``ids`` (the component rule), ``hand`` (the project's table), ``gaiji``
    (a Kanripo entity resolved), ``learned`` (a pair of the alignment a scholar accepted in
    ``corpus.toml``); ``None`` when the two are not orthographic variants or differ in script only.
    (A collation also types ``learned`` the readings of a form no registry knows where the book's witnesses
    read one character at its places, without this function: :func:`jiaokan.collate.learned.type_recurring_forms`.)
    """
    fa, fb = fold_token(a), fold_token(b)
    if fa.key != fb.key:
        return "learned" if is_accepted(a, b) and _key_pairs().get(frozenset((fa.key, fb.key))) is None else None
    k = (a, b)
    r = _source_memo.get(k, "")
    if r == "":
        r = _source_memo[k] = _variant_source(fa, fb)
    return r


def _variant_source(fa: Folded, fb: Folded) -> str | None:
    """:func:`orthographic_source` of two characters whose keys agree (folded ``fa``, ``fb``)."""
    for f in (fa, fb):
        if f.cls == "gaiji":
            return "gaiji"
    for f in (fa, fb):
        if f.cls == "variant":
            entry = tables.variants().get(t2s_char(unicodedata.normalize("NFC", f.char)))
            if entry is not None:
                first = entry.source.split("+")[0].split(":")[0]
                return {"jiaokan": "hand"}.get(first, first)
    return None


def worst(relations: list[str]) -> str:
    """The strongest difference among ``relations`` (``identical`` for none)."""
    return max(relations, key=_RANK.__getitem__, default="identical")


def relation_str(a: str, b: str, *, simplified: bool = False) -> str:
    """The strongest relation across the positions of two readings of equal length.

    Punctuation and whitespace are skipped (as in :func:`keys`) and a gaiji entity counts
    as one character.  Raises ``ValueError`` if the readings differ in length after that:
    an omission or addition is not a character relation, the aligner reports it.
    """
    ta, tb = tokens(a), tokens(b)
    if len(ta) != len(tb):
        raise ValueError(f"relation_str needs readings of equal length: {a!r} ({len(ta)}) vs {b!r} ({len(tb)})")
    return worst([relation(x, y, simplified=simplified) for (_, x), (_, y) in zip(ta, tb)])
