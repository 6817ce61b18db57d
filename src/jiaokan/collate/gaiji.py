"""Unknown gaiji resolved from the other witnesses: the character that stands where the entity stands.

Why: Kanripo writes glyphs it could not encode as ``&KRnnnn;`` and publishes no table of them; the hand
table (``data/gaiji_kanripo.tsv``) knows some codes, a new 篇 brings new ones.  Where the other witnesses
read the same passage, they say what the glyph is: an occurrence whose four characters on each side
(compared on keys, punctuation skipped) stand, unchanged, in another witness with one character between
is *aligned* with that character.  A code is resolved when its occurrences are aligned at
:data:`MIN_PLACES` places or more and every aligned character is the same (on keys: 器 and 噐 are one
character; the most frequent writing is taken); ``cert`` is ``high`` from :data:`HIGH_PLACES` places on,
``medium`` below, and ``low`` for a single place where two other witnesses (:data:`MIN_WITNESSES`) read
the same character.  One place in one witness, or characters that disagree (觚/爵), leave it unresolved -- then it still compares equal to nothing (``uncertain`` in the apparatus) -- and the
build lists it with its candidates in ``OUT/gaiji-resolved.tsv`` for a person to decide.
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..io import atomic_write_text
from ..model import Gaiji, Note, Witness, code_codepoint, ids_description
from ..normalize import key
from ..normalize.gaiji import ParallelResolution, set_parallel_resolutions
from ..normalize.ignorable import is_ignorable

#: Characters of context on each side that must agree, and places needed to resolve.
CONTEXT = 4
MIN_PLACES = 2
HIGH_PLACES = 3
#: ... or one place where this many other witnesses read the same character (``cert="low"``).
MIN_WITNESSES = 2
_MARK0 = 0xF0000  # one private-use mark per unresolved code inside the key strings


@dataclass
class _Seq:
    """One witness as a string of keys, with the unresolved codes at their offsets."""

    siglum: str
    keys: str
    chars: list[str]  # the witness's own character at each offset
    codes: dict[int, str] = field(default_factory=dict)


@dataclass
class Finding:
    """What the other witnesses say about one code (resolved or not)."""

    code: str
    occurrences: int = 0
    chars: collections.Counter = field(default_factory=collections.Counter)  # aligned character → places
    witnesses: set[str] = field(default_factory=set)
    evidence: list[str] = field(default_factory=list)
    resolution: ParallelResolution | None = None

    @property
    def status(self) -> str:
        if self.resolution is not None:
            return "resolved"
        if not self.chars:
            return "no parallel"
        return "conflict" if len({key(c) for c in self.chars}) > 1 else "one place"


def _gaiji_nodes(w: Witness) -> Iterable[Gaiji]:
    def inner(content: list) -> Iterable[Gaiji]:
        for node in content:
            if isinstance(node, Gaiji):
                yield node
            elif isinstance(node, Note):
                yield from inner(node.content)

    for p in w.pieces():
        yield from inner(p.content)


def _unknown(g: Gaiji) -> bool:
    return g.char is None and code_codepoint(g.code) is None and ids_description(g.code) is None


def _sequence(w: Witness, marks: dict[str, str]) -> _Seq:
    keys: list[str] = []
    chars: list[str] = []
    codes: dict[int, str] = {}

    def add(content: list) -> None:
        for node in content:
            if isinstance(node, Gaiji):
                if _unknown(node):
                    mark = marks.setdefault(node.code, chr(_MARK0 + len(marks)))
                    codes[len(keys)] = node.code
                    keys.append(mark)
                    chars.append(mark)
                elif node.char:
                    keys.append(key(node.char))
                    chars.append(node.char)
            elif isinstance(node, Note):
                add(node.content)
            else:
                for ch in node.reading if hasattr(node, "reading") else "":
                    if not is_ignorable(ch):
                        keys.append(key(ch))
                        chars.append(ch)

    for p in w.pieces():
        add(p.content)
    return _Seq(w.meta.siglum, "".join(k if len(k) == 1 else "\ufffd" for k in keys), chars, codes)


def find(witnesses: Iterable[Witness]) -> dict[str, Finding]:
    """What the other witnesses read at each unresolved code's occurrences (nothing is changed)."""
    marks: dict[str, str] = {}
    seqs = [_sequence(w, marks) for w in witnesses]
    is_mark = re.compile("[\U000F0000-\U000FFFFD\ufffd]")
    found: dict[str, Finding] = {}
    for s in seqs:
        for at, code in s.codes.items():
            f = found.setdefault(code, Finding(code))
            f.occurrences += 1
            left, right = s.keys[max(0, at - CONTEXT):at], s.keys[at + 1:at + 1 + CONTEXT]
            if len(left) < CONTEXT or len(right) < CONTEXT or is_mark.search(left + right):
                continue
            pat = re.compile(re.escape(left) + "(.)" + re.escape(right))
            seen: set[str] = set()
            for o in seqs:
                if o.siglum == s.siglum:
                    continue
                for m in pat.finditer(o.keys):
                    if is_mark.match(m.group(1)):
                        continue
                    ch = o.chars[m.start(1)]
                    if ch not in seen:  # one place counts once for each character it shows
                        seen.add(ch)
                        f.chars[ch] += 1
                    f.witnesses.add(o.siglum)
                    if len(f.evidence) < 3:
                        f.evidence.append(f"{s.siglum} {''.join(s.chars[at - CONTEXT:at])}&{code};"
                                          f"{''.join(s.chars[at + 1:at + 1 + CONTEXT])} = {o.siglum} "
                                          f"{''.join(o.chars[m.start():m.end()])}")
    for f in found.values():
        by_key: dict[str, int] = collections.Counter()
        for ch, n in f.chars.items():
            by_key[key(ch)] += n
        if len(by_key) == 1:  # one character, in one or several writings (器/噐): the most frequent writing
            places = next(iter(by_key.values()))
            ch = f.chars.most_common(1)[0][0]
            if places >= MIN_PLACES or len(f.witnesses) >= MIN_WITNESSES:
                cert = "high" if places >= HIGH_PLACES else "medium" if places >= MIN_PLACES else "low"
                f.resolution = ParallelResolution(f.code, ch, places, cert, tuple(f.evidence), tuple(sorted(f.witnesses)))
    return found


def resolve(witnesses: list[Witness]) -> dict[str, Finding]:
    """Find, register (so that keys, the TEI ``charDecl`` and the apparatus use them) and apply the resolutions.

    Every ``Gaiji`` node of a resolved code gets its character, and every witness's ``char_decl`` too.
    """
    found = find(witnesses)
    resolved = {c: f.resolution for c, f in found.items() if f.resolution is not None}
    set_parallel_resolutions(resolved)
    for w in witnesses:
        for g in _gaiji_nodes(w):
            r = resolved.get(g.code)
            if r is not None and g.char is None:
                g.char = r.char
        for code in list(w.char_decl):
            r = resolved.get(code)
            if r is not None and w.char_decl[code] is None:
                w.char_decl[code] = r.char
    return found


HEADER = """\
# Unknown Kanripo gaiji and what the other witnesses read where they stand (written by `jiaokan build`).
# resolved: every aligned place shows one character (cert high from 3 places, medium from 2, low for one place
# read alike by two other witnesses); the TEI
# charDecl gives it with @cert and this evidence.  Otherwise the code stays unresolved (it compares equal to
# nothing): "one place", "conflict" (the witnesses disagree) or "no parallel".  A person can settle one for
# good in jiaokan's data/gaiji_kanripo.tsv.
# status	code	char	cert	places	occurrences	candidates	witnesses	evidence
"""


def write_report(path: Path, found: dict[str, Finding]) -> None:
    lines = [HEADER.rstrip("\n")]
    order = sorted(found.values(), key=lambda f: (f.status != "resolved", -f.occurrences, f.code))
    for f in order:
        r = f.resolution
        cands = " ".join(f"{c}×{n}" for c, n in f.chars.most_common())
        lines.append(f"{f.status}\t{f.code}\t{r.char if r else ''}\t{r.cert if r else ''}\t"
                     f"{r.places if r else ''}\t{f.occurrences}\t{cands}\t{' '.join(sorted(f.witnesses))}\t"
                     + " | ".join(e.replace("\t", " ") for e in f.evidence))
    atomic_write_text(path, "\n".join(lines) + "\n")
