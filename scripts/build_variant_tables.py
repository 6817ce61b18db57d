#!/usr/bin/env python3
"""Regenerate ``src/jiaokan/data/variants.tsv``, the one-hop fold table of jiaokan.normalize.

Why a generated table: the runtime must not depend on the Unicode data files or on the
yitizi package, and the choices below (which relations are safe to fold) must be made
once, reviewed, and shipped.  Run it again when Unihan, yitizi, OpenCC or the hand tables
change, and commit the new ``variants.tsv``.

Inputs
  * Unihan (Debian package ``unicode-data``: ``/usr/share/unicode/Unihan_*.txt[.bz2]`` or
    ``Unihan.zip``): Unihan_Variants (kZVariant, kSemanticVariant, kTraditionalVariant),
    Unihan_Readings (kDefinition "(same as X)"), Unihan_OtherMappings (kTGH, kGB0,
    kBigFive: which characters are standard).
  * yitizi (CC0, PyPI ``yitizi``): the importable package, or ``--yitizi`` pointing at the
    wheel or at ``yitizi.json`` (``pip download --no-deps yitizi==0.1.3 -d DIR``).
  * OpenCC ``t2s`` (the runtime dependency): fold targets live in its output space.
  * the hand tables in ``src/jiaokan/data``: hand_variants.tsv, blocked.tsv, minor.tsv,
    taboo.tsv.

The rules (see data/README.md for the reasoning)
  1. Keys live in "t2s space": key(c) = R.get(T(c), T(c)) where T is OpenCC t2s applied
     per character until it is stable.  R is the table written here.
  2. A *standard* character is one of the 通用规范汉字表 (kTGH) or GB 2312 (kGB0), or a
     Big5 level-1 character that t2s leaves alone.  Two standard characters are never
     folded together: they are distinct characters (盥/灌, 己/已, 大/太 ...).
  3. A non-standard character folds to the standard character it is a variant of, only if
     that standard character is unique.  No chains and no closure: the heads of R are
     standard (or hand-chosen) t2s fixed points and never themselves keys of R.
  4. Sources by priority: hand table > kZVariant > kSemanticVariant > yitizi >
     kDefinition.  A lower source may settle a higher source's ambiguity only by
     picking one of its candidates.
  5. kSpecializedSemanticVariant ("in some contexts only") and kSpoofingVariant are not
     used.  kSimplifiedVariant is not used: OpenCC is the authority for
     traditional → simplified; Unihan's extra entries are 2013 类推 simplifications of
     rare characters, which would only make keys obscure.  kTraditionalVariant is used
     to bring *alternative* simplified forms into t2s space (锺 → 钟, 馀 → 余, 𬞟 → 苹),
     and the 2013 simplified forms of rare characters OpenCC does not know back to the
     traditional form (never a standard character: 彝 stays 彝, it does not become 彞).
  6. Pairs in blocked.tsv, minor.tsv and taboo.tsv never end up with the same key.

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

import opencc

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "jiaokan" / "data"
OUT = DATA / "variants.tsv"

SOURCE_PRIORITY = ("unihan:kZVariant", "unihan:kSemanticVariant", "yitizi", "unihan:kDefinition")


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


def read_tsv(path: Path) -> list[list[str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        rows.append(line.split("\t"))
    return rows


# ----------------------------------------------------------------------------- build
class Builder:
    def __init__(self, unicode_dir: Path, yitizi_path: str | None) -> None:
        self.cc = opencc.OpenCC("t2s")
        self._t: dict[str, str] = {}
        self.var, self.unihan_version = read_unihan(unicode_dir, "Variants")
        self.readings, _ = read_unihan(unicode_dir, "Readings")
        self.mappings, _ = read_unihan(unicode_dir, "OtherMappings")
        self.yitizi, self.yitizi_version = load_yitizi(yitizi_path)
        tgh = {c for c, d in self.mappings.items() if "kTGH" in d or "kGB0" in d}
        big5_1 = {c for c, d in self.mappings.items() if "A440" <= d.get("kBigFive", "") <= "C67E"}
        self.standard = tgh | {c for c in big5_1 if self.T(c) == c}
        self.report: list[str] = []

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

        def edge(source: str, x: str, y: str) -> None:
            a, b = self.T(x), self.T(y)
            if a == b or self.is_std(a) or not self.is_std(b):
                return
            cand[a][source].add(b)

        for c, d in self.var.items():
            for fld in ("kZVariant", "kSemanticVariant"):
                if fld in d:
                    for y in codepoints(d[fld]):
                        edge(f"unihan:{fld}", c, y)
                        edge(f"unihan:{fld}", y, c)
        for c, vs in self.yitizi.items():
            for y in vs:
                edge("yitizi", c, y)
                edge("yitizi", y, c)
        same_as = re.compile(r"^\((?:same as|non-classical(?: form)? of|variant of) (\S)\)")
        for c, d in self.readings.items():
            m = same_as.match(d.get("kDefinition", ""))
            # only rare characters: CJK Ext A and the astral extensions, never the URO block
            if m and not (0x4E00 <= ord(c) <= 0x9FFF) and ord(c) >= 0x3400:
                edge("unihan:kDefinition", c, m.group(1))
        return cand

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
                    table[a] = (next(iter(heads)), src)
                    break
                allowed = set(heads) if allowed is None else allowed & heads
            else:
                if allowed:
                    ambiguous[a] = "".join(sorted(allowed))
        return table, ambiguous

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
        variant, ambiguous = self.choose(cand)
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
        return entries


def write(entries: dict[str, tuple[str, str, str]], b: Builder, out: Path) -> str:
    counts = collections.Counter(src for _, _, src in entries.values())
    head = [
        "# jiaokan.normalize one-hop fold table -- GENERATED by scripts/build_variant_tables.py, do not edit.",
        "#   char <TAB> key <TAB> class <TAB> source",
        "# char is in OpenCC t2s space (runtime: key(c) = table.get(t2s(c), t2s(c))); key is never itself a char here.",
        f"# Inputs: Unihan {b.unihan_version} (Debian unicode-data; Unicode License v3, see LICENSE-Unicode.txt),",
        f"#         yitizi {b.yitizi_version} (CC0 1.0), OpenCC {getattr(opencc, '__version__', '?')} t2s,",
        "#         hand_variants.tsv / blocked.tsv / minor.tsv / taboo.tsv (jiaokan).",
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
    ap.add_argument("--out", default=OUT, type=Path)
    ap.add_argument("--check", action="store_true", help="do not write; fail if the shipped table differs")
    ap.add_argument("-v", "--verbose", action="store_true", help="print dropped entries and ambiguities")
    args = ap.parse_args(argv)

    b = Builder(args.unicode_dir, args.yitizi)
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
    if args.check:
        old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if old != text:
            print(f"{args.out} is out of date", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(text.encode('utf-8'))} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
