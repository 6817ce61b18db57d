"""The normalization layer: comparison keys for collation.

Collation compares witnesses character by character on *keys* — script (t2s), 异体
(variant) and taboo forms folded away — while the original characters are always kept
and shown.  ``relation`` then types each difference for the apparatus.  See GUIDE §4 and
``jiaokan/data/README.md`` for the tables and their sources.

>>> key("賔"), key("賓"), key("宾")
('宾', '宾', '宾')
>>> relation("荅", "答"), relation("元", "玄"), relation("辯", "徧"), relation("盥", "灌")
('orthographic', 'taboo', 'minor', 'different')

Modules (one job each): :mod:`.ignorable` (what collation skips), :mod:`.script` (t2s per
character), :mod:`.tables` (the shipped data), :mod:`.fold` (keys), :mod:`.relation`
(typed relations), :mod:`.gaiji` (Kanripo entities), :mod:`.sources` (provenance).
"""

from __future__ import annotations

from .fold import CLASSES, Folded, fold_token, key, keys, tokens
from .gaiji import gaiji_evidence, resolve_gaiji
from .ignorable import IGNORABLE, is_ignorable, kept_positions, strip_ignorable
from .relation import RELATIONS, relation, relation_str, worst
from .sources import FoldSource, fold_sources

__all__ = [
    "CLASSES",
    "IGNORABLE",
    "RELATIONS",
    "FoldSource",
    "Folded",
    "fold_sources",
    "fold_token",
    "gaiji_evidence",
    "is_ignorable",
    "kept_positions",
    "strip_ignorable",
    "key",
    "keys",
    "relation",
    "relation_str",
    "resolve_gaiji",
    "tokens",
    "worst",
]
