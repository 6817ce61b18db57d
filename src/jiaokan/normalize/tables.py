"""Load the tables shipped in ``jiaokan/data`` (once, lazily).

Why shipped tables: the fold decisions (which Unihan/yitizi relations are safe) are made
once by ``scripts/build_variant_tables.py``, reviewed and committed; the runtime needs
neither the Unicode data files nor yitizi, only these small TSV files and OpenCC.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Iterator


@dataclass(frozen=True)
class VariantEntry:
    """One row of ``variants.tsv``: ``char`` (in t2s space) folds to ``key``."""

    char: str
    key: str
    cls: str  # "script" | "variant"
    source: str


@dataclass(frozen=True)
class PairEntry:
    """A typed pair from ``minor.tsv`` / ``taboo.tsv``."""

    a: str
    b: str
    level: str  # "key" | "char" (for taboo forms: "form")
    kind: str  # minor: 古今字/通假/形近混用/different; taboo: taboo
    note: str


@dataclass(frozen=True)
class GaijiEntry:
    code: str
    char: str
    evidence: str


def _rows(name: str) -> Iterator[list[str]]:
    text = resources.files("jiaokan").joinpath("data", name).read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t")


@lru_cache(maxsize=1)
def variants() -> dict[str, VariantEntry]:
    """``variants.tsv``: t2s-space character → its one-hop fold."""
    return {r[0]: VariantEntry(r[0], r[1], r[2], r[3]) for r in _rows("variants.tsv")}


@lru_cache(maxsize=1)
def minor_pairs() -> tuple[PairEntry, ...]:
    return tuple(PairEntry(r[0], r[1], r[2], r[3], r[4] if len(r) > 4 else "") for r in _rows("minor.tsv"))


@lru_cache(maxsize=1)
def taboo_rows() -> tuple[PairEntry, ...]:
    """``taboo.tsv`` rows; ``level`` is the row kind: form, pair or char."""
    return tuple(PairEntry(r[1], r[2], r[0], "taboo", r[3] if len(r) > 3 else "") for r in _rows("taboo.tsv"))


@lru_cache(maxsize=1)
def taboo_forms() -> dict[str, str]:
    """Taboo-only forms → the character they stand for (𤣥 → 玄)."""
    return {p.b: p.a for p in taboo_rows() if p.level == "form"}


@lru_cache(maxsize=1)
def gaiji() -> dict[str, GaijiEntry]:
    return {r[0]: GaijiEntry(r[0], r[1], r[2] if len(r) > 2 else "") for r in _rows("gaiji_kanripo.tsv")}


@lru_cache(maxsize=1)
def blocked_pairs() -> tuple[tuple[str, str, str], ...]:
    """``blocked.tsv``: pairs that must never share a key (checked by the tests and the build)."""
    return tuple((r[0], r[1], r[2] if len(r) > 2 else "") for r in _rows("blocked.tsv"))


@lru_cache(maxsize=1)
def related_pairs() -> tuple[tuple[str, str, str], ...]:
    """``variant_pairs.tsv``: pairs Unihan calls one character that keep two keys (炤/照), with the source.

    Never a fold: :mod:`jiaokan.collate.learned` types such a pair only where it recurs in a collation.
    """
    return tuple((r[0], r[1], r[2] if len(r) > 2 else "") for r in _rows("variant_pairs.tsv"))


@lru_cache(maxsize=1)
def hand_variants() -> tuple[tuple[str, str, str], ...]:
    """``hand_variants.tsv``: the project's own 异体 entries, with their evidence."""
    return tuple((r[0], r[1], r[2] if len(r) > 2 else "") for r in _rows("hand_variants.tsv"))
