"""Unknown gaiji resolved from the other witnesses: the character that stands where the entity stands.

Why: Kanripo writes glyphs it could not encode as ``&KRnnnn;`` and publishes no table of them; the hand
table (``data/gaiji_kanripo.tsv``) knows some codes, a new 篇 brings new ones.  Where the other witnesses
read the same passage, they say what the glyph is: an occurrence whose four characters on each side
(compared on keys, punctuation skipped) stand, unchanged, in another witness with one character between
is *aligned* with that character.  A code is resolved when its occurrences are aligned at
:data:`MIN_PLACES` places or more and every aligned character is the same (on keys: 器 and 噐 are one
character; the most frequent writing is taken); ``cert`` is ``high`` from :data:`HIGH_PLACES` places on,
``medium`` below, and ``low`` for a single place where two other witnesses (:data:`MIN_WITNESSES`) read
the same character.  Where the places disagree, a character that holds nine in ten of them, at ten places
or more (:data:`DOMINANT_SHARE`), is taken with ``cert="medium"`` and the dissent in its evidence: a lone
other reading is then a variant of that witness at that place (DS 反哭升堂, ZS 反哭於堂), not doubt about
the glyph.  One place in one witness, or characters that disagree more (觚×27/爵×8), leave it unresolved
-- then it still compares equal to nothing (``uncertain`` in the apparatus) -- and the
build lists it with its candidates in ``OUT/gaiji-resolved.tsv`` for a person to decide.
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from ..io import atomic_write_text
from ..model import Gaiji, LabelGaiji, Note, Text, Witness, code_codepoint, ids_description
from ..normalize import key
from ..normalize.fold import key_string
from ..normalize.gaiji import ParallelReadings, ParallelResolution, set_parallel_resolutions
from ..normalize.ignorable import strip_ignorable
from ..normalize.translate import LazyTable

#: Characters of context on each side that must agree, and places needed to resolve.
CONTEXT = 4
MIN_PLACES = 2
HIGH_PLACES = 3
#: ... or one place where this many other witnesses read the same character (``cert="low"``).
MIN_WITNESSES = 2
#: Where the places disagree, a character read at this many places and this share of them or more
#: (``cert="medium"``): the few others are the witnesses' own readings at those places -- 升 at 588 places
#: against one 外 (ZS 當外左胖, a variant of ZS's) -- not doubt about the glyph; 觚×27 against 爵×8 stays open.
DOMINANT_PLACES = 10
DOMINANT_SHARE = 0.9
_MARK0 = 0xF0000  # one private-use mark per unresolved code inside the key strings


@dataclass
class Seq:
    """One witness as a string of keys, with the unresolved codes at their offsets (gaiji here; the rare forms
    of :func:`jiaokan.collate.learned.learn_forms` are searched in the same strings)."""

    siglum: str
    chars: str  # the witness's own character at each offset (ignorable ones skipped)
    codes: dict[int, str] = field(default_factory=dict)
    #: offsets of a resolved gaiji whose character is not one code point: (character, key)
    odd: dict[int, tuple[str, str]] = field(default_factory=dict)
    keys: str = ""
    #: every character the sequences made with this one hold (one set, shared by them; empty for a sequence made
    #: otherwise): what :func:`jiaokan.collate.learned.learn_forms` looks among for rare forms, without a pass of
    #: its own over the book to gather them
    held: set[str] = field(default_factory=set, repr=False, compare=False)
    #: a sequence made on its own (:func:`sequence`) until :func:`sequences` takes it: the characters it holds, each
    #: once, its marks aside, as one string (from a worker one object pickled, where a set was one per character,
    #: each a small object left behind in the parent's memory)
    own: str = field(default="", repr=False, compare=False)
    #: the witness's unknown ``Gaiji`` nodes, for a sequence made on its own (:func:`sequence`) until
    #: :func:`sequences` takes them
    nodes: list[Gaiji] = field(default_factory=list, repr=False, compare=False)

    def char(self, i: int) -> str:
        return self.odd[i][0] if i in self.odd else self.chars[i]

    def span(self, lo: int, hi: int) -> str:
        if not self.odd:
            return self.chars[max(0, lo):hi]
        return "".join(self.char(i) for i in range(max(0, lo), min(hi, len(self.chars))))


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


def _unknown(g: Gaiji) -> bool:
    return g.char is None and code_codepoint(g.code) is None and ids_description(g.code) is None


def _sequence(w: Witness, marks: dict[str, str], nodes: list[Gaiji]) -> Seq:
    """One witness's characters (ignorable ones skipped, an unknown code as its mark), its text runs
    gathered between gaiji and stripped at once; :func:`_find` keys them.

    ``nodes`` gains the witness's unknown ``Gaiji`` nodes (what :func:`resolve` changes).
    """
    chars: list[str] = []  # runs of characters
    codes: dict[int, str] = {}
    odd: dict[int, tuple[str, str]] = {}
    buf: list[str] = []  # readings not yet stripped
    at = 0

    def flush() -> None:
        nonlocal at
        run = strip_ignorable("".join(buf))
        buf.clear()
        if run:
            chars.append(run)
            at += len(run)

    def add(content: list) -> None:
        nonlocal at
        for node in content:
            kind = type(node)
            if kind is Text:
                buf.append(node.text)
            elif kind is LabelGaiji:  # one in a marker: not read, so no part of the sequence; resolved with the rest
                if _unknown(node):
                    nodes.append(node)
            elif kind is Gaiji or isinstance(node, Gaiji):
                if _unknown(node):
                    flush()
                    nodes.append(node)
                    mark = marks.setdefault(node.code, chr(_MARK0 + len(marks)))
                    codes[at] = node.code
                    chars.append(mark)
                    at += 1
                elif node.char:
                    flush()
                    if len(node.char) != 1 or node.char == "\ufffd" or _MARK0 <= ord(node.char) <= 0xFFFFD:
                        k = key(node.char)  # the resolved character counts as one, whatever its key
                        odd[at] = (node.char, k if len(k) == 1 else "\ufffd")
                        chars.append("\ufffd")
                    else:
                        chars.append(node.char)
                    at += 1
            elif kind is Note or isinstance(node, Note):
                add(node.content)
            else:
                buf.append(node.reading)

    for p in w.pieces():
        add(p.content)
    flush()
    return Seq(w.meta.siglum, "".join(chars), codes, odd)


def _key_all(seqs: list[Seq], marks: Iterable[str]) -> None:
    """Every witness's key string (:func:`_key`), where it has none yet, and the one set of the characters they
    all hold (:attr:`Seq.held`): those of a sequence keyed already (:func:`sequence`) are its :attr:`Seq.own`."""
    marks = list(marks)
    table = _table(marks)
    held = {*marks, "\ufffd"}
    for s in seqs:
        if s.keys:  # keyed where it was made (sequence), its characters gathered there too
            held.update(s.own)
            s.own = ""
        else:
            _key(s, table)
            held.update(s.chars)
    for s in seqs:
        s.held = held


def _table(marks: Iterable[str]) -> LazyTable:
    """What :func:`_key` translates with where :func:`~jiaokan.normalize.fold.key_string` cannot: a table filled as
    characters are met; a character's key is U+FFFD where it is not one character; a mark stays itself."""
    def one(ch: str) -> str:
        k = key(ch)
        return k if len(k) == 1 else "\ufffd"

    table = LazyTable(one)
    for m in marks:
        table[ord(m)] = m
    table[0xFFFD] = "\ufffd"
    return table


def _key(s: Seq, table: LazyTable) -> None:
    """A witness's key string: one ``str.translate`` of its characters (:func:`~jiaokan.normalize.fold.key_string`,
    whose table the process keeps, else ``table``: :func:`_table`), the keys of its ``odd`` places put in.

    Why: in C, where a Python call per character cost seconds over the book (and a table made in advance
    needed a set of every character the book holds, itself a pass over the book).  ``key_string`` gives the
    same string where every character's key is one character and none is dropped (the characters here are
    not ignorable; a mark, a private-use character, keys to itself).
    """
    k = key_string(s.chars)
    if k is None or len(k) != len(s.chars):
        k = s.chars.translate(table)
    if s.odd:
        ks = list(k)
        for i, (_, kc) in s.odd.items():
            ks[i] = kc
        k = "".join(ks)
    s.keys = k


_WIDTH = 2 * CONTEXT + 1
_IS_MARK = re.compile("[\U000F0000-\U000FFFFD\ufffd]")


def _places(texts: list[str], contexts: Iterable[str]) -> dict[str, list[tuple[int, int]]]:
    """Where each context (``left + right``, a character between them) stands in ``texts``: (which text, match
    start), in the order of the texts, then of the starts.

    The same matches as ``re.finditer(left + "(.)" + right, text)`` in each text (left to right, never
    overlapping, the middle character not a newline), found without scanning the texts once per context: one
    regex scans each text for the places where each of the eight characters around the middle is one that some
    context has at that offset (a character class per offset, tested in C at every place), and only those
    places -- one in fifteen of the book -- are looked up in the set of contexts.  (It anchored each context at
    its rarest character before, and took a Python step for each of 390,000 of them.)

    Why text by text, not one string of the whole book: the whole book's keys joined were 8.7 MB (a private-use
    mark makes a string four bytes a character), twice that for a book twice as long, made and then scanned
    again: past the size of a processor's cache, each pass read the book from memory, and the stage's cache
    misses grew x3.2 per doubling of the book (callgrind's cache simulation, 16 MB): its time faster than the
    book.  One witness's keys stay in the cache while the regex and the slices read them.
    """
    contexts = list(dict.fromkeys(contexts))
    if not contexts:
        return {}
    wanted = set(contexts)

    def one_of(k: int) -> str:
        return "[" + "".join(re.escape(ch) for ch in sorted({c[k] for c in contexts})) + "]"

    # the first character consumed (a class the regex engine skips to), the rest a lookahead: every place is tried
    rx = re.compile(one_of(0) + "(?=" + "".join(map(one_of, range(1, CONTEXT))) + "[^\n]"
                    + "".join(map(one_of, range(CONTEXT, 2 * CONTEXT))) + ")")
    out: dict[str, list[tuple[int, int]]] = {c: [] for c in contexts}
    for i, text in enumerate(texts):
        ends: dict[str, int] = {}  # context → end of its last match in this text (matches never overlap)
        for m in rx.finditer(text):
            st = m.start()
            c = text[st:st + CONTEXT] + text[st + CONTEXT + 1:st + _WIDTH]
            if c in wanted and st >= ends.get(c, -1):
                out[c].append((i, st))
                ends[c] = st + _WIDTH
    return out


def decide(f: Finding) -> ParallelResolution | None:
    """The resolution the aligned places prove, if any (see the module's docstring and :data:`DOMINANT_SHARE`)."""
    by_key: collections.Counter = collections.Counter()
    for ch, n in f.chars.items():
        by_key[key(ch)] += n
    if not by_key:
        return None
    top, places = by_key.most_common(1)[0]
    # the most frequent writing of the character the places show (器/噐 are one character)
    ch = max((c for c in f.chars if key(c) == top), key=lambda c: f.chars[c])
    witnesses = tuple(sorted(f.witnesses))
    if len(by_key) == 1:
        if places >= MIN_PLACES or len(f.witnesses) >= MIN_WITNESSES:
            cert = "high" if places >= HIGH_PLACES else "medium" if places >= MIN_PLACES else "low"
            return ParallelResolution(f.code, ch, places, cert, tuple(f.evidence), witnesses)
        return None
    total = sum(by_key.values())
    if places >= DOMINANT_PLACES and places >= DOMINANT_SHARE * total:
        dissent = " ".join(f"{c}×{n}" for c, n in f.chars.most_common() if key(c) != top)
        note = (f"{places} of {total} places read {ch}; the others ({dissent}) are read as the witnesses' own "
                "variants at those places")
        return ParallelResolution(f.code, ch, places, "medium", (*f.evidence, note), witnesses)
    return None


def find(witnesses: Iterable[Witness]) -> dict[str, Finding]:
    """What the other witnesses read at each unresolved code's occurrences (nothing is changed)."""
    return _find(witnesses, [])


def _find(witnesses: Iterable[Witness], nodes: list[Gaiji], keep: list[Seq] | None = None,
          made: Mapping[int, Seq] | None = None) -> dict[str, Finding]:
    """:func:`find`; ``nodes`` gains every unknown ``Gaiji`` node met, ``keep`` the witnesses' sequences."""
    seqs = sequences(witnesses, nodes, made)
    if keep is not None:
        keep.extend(seqs)
    occurrences = [(s, at, code) for s in seqs for at, code in s.codes.items()]
    found: dict[str, Finding] = {}
    for (s, at, code), hits in zip(occurrences, parallels(seqs, [(s, at) for s, at, _ in occurrences])):
        f = found.setdefault(code, Finding(code))
        f.occurrences += 1
        if hits is not None:
            tally(f, s, at, f"&{code};", hits)
    for f in found.values():
        f.resolution = decide(f)
    return found


def sequences(witnesses: Iterable[Witness], nodes: list[Gaiji] | None = None,
              made: Mapping[int, Seq] | None = None) -> list[Seq]:
    """Every witness as the string :func:`parallels` searches (its characters, keys and unknown codes);
    ``nodes`` gains every unknown ``Gaiji`` node met.

    ``made``: id(witness) → its :func:`sequence`, made already (by the worker that read it), taken
    instead of walking the witness again; its marks are renumbered among the others', so the result is
    what a walk of every witness here would make.
    """
    marks: dict[str, str] = {}
    found = nodes if nodes is not None else []
    seqs = []
    for w in witnesses:
        s = made.get(id(w)) if made else None
        if s is None:
            s = _sequence(w, marks, found)
        else:
            _mark_among(s, marks)
            found.extend(s.nodes)
            s.nodes = []
        seqs.append(s)
    _key_all(seqs, marks.values())
    return seqs


def sequence(w: Witness) -> Seq:
    """One witness's sequence on its own (its characters, keys and unknown codes; :attr:`Seq.own` the
    characters it holds, its marks aside), for :func:`sequences` to take with ``made``.

    Why: the walk of every witness's text, and then its keys, were most of the build's gaiji stage, which
    runs alone in the parent with the other core idle; they depend on nothing but the witness, so a build
    makes them where the witness is read, in parallel (:func:`jiaokan.build.ingest_stage`).  A ``Gaiji`` node
    in :attr:`Seq.nodes` is the witness's own (pickled along with the witness, it stays the same object).
    """
    nodes: list[Gaiji] = []
    marks: dict[str, str] = {}
    s = _sequence(w, marks, nodes)
    s.nodes = nodes
    _key(s, _table(marks.values()))
    s.own = "".join(set(s.chars).difference(marks.values()))  # its marks are numbered anew among the others' (_mark_among)
    return s


def _mark_among(s: Seq, marks: dict[str, str]) -> None:
    """Give the unknown codes of a sequence made on its own the marks :func:`_sequence` would have given
    them among the witnesses before it (``marks``, code → mark, gains its new codes), in its characters
    and its keys (a mark's key is itself)."""
    if not s.codes:
        return
    cs: list[str] = []
    ks: list[str] = []
    prev = 0
    for at, code in s.codes.items():  # in the order of their offsets, as _sequence met them
        mark = marks.setdefault(code, chr(_MARK0 + len(marks)))
        cs += (s.chars[prev:at], mark)
        ks += (s.keys[prev:at], mark)
        prev = at + 1
    s.chars = "".join(cs) + s.chars[prev:]
    if s.keys:
        s.keys = "".join(ks) + s.keys[prev:]


def parallels(seqs: list[Seq], occurrences: list[tuple[Seq, int]]) -> list[list[tuple[Seq, int]] | None]:
    """For each occurrence (a witness of ``seqs``, an offset): where it stands in the other witnesses.

    ``None`` where its context is not usable (fewer than :data:`CONTEXT` characters on a side, or a mark
    among them); else every place where its four characters on each side stand, unchanged on keys, in a
    witness of another siglum with one character between that is not a mark: (that witness, the offset of
    the character between).  Every witness's keys are searched by one regex for all the contexts, witness by
    witness, and each context's places are found once however many occurrences share it (:func:`_places`).
    """
    contexts: list[str | None] = []
    for s, at in occurrences:
        left, right = s.keys[max(0, at - CONTEXT):at], s.keys[at + 1:at + 1 + CONTEXT]
        usable = len(left) == CONTEXT and len(right) == CONTEXT and not _IS_MARK.search(left + right)
        contexts.append(left + right if usable else None)
    found_at = _places([s.keys for s in seqs], (c for c in contexts if c is not None))
    # each context's places as (witness, offset), located once for all the occurrences that share it: a passage
    # read alike in n witnesses is n occurrences of one context, and each of its n places was located (a bisect
    # and a regex) at every one of them, n² steps where n suffice; only the siglum is compared per occurrence
    placed: dict[str, list[tuple[Seq, int]]] = {}
    out: list[list[tuple[Seq, int]] | None] = []
    for (s, _), context in zip(occurrences, contexts):
        if context is None:
            out.append(None)
            continue
        where = placed.get(context)
        if where is None:
            where = placed[context] = []
            for i, st in found_at[context]:
                if not _IS_MARK.match(seqs[i].keys[st + CONTEXT]):
                    where.append((seqs[i], st + CONTEXT))
        siglum = s.siglum
        out.append([(o, i) for o, i in where if o.siglum != siglum])
    return out


def tally(f: Finding, s: Seq, at: int, shown: str, hits: list[tuple[Seq, int]]) -> None:
    """Count what the other witnesses read at one occurrence (``shown`` at ``at`` of ``s``; ``hits`` from
    :func:`parallels`): one place counts once for each character it shows."""
    seen: set[str] = set()
    for o, i in hits:
        ch = o.char(i)
        if ch not in seen:
            seen.add(ch)
            f.chars[ch] += 1
        f.witnesses.add(o.siglum)
        if len(f.evidence) < 3:
            f.evidence.append(f"{s.siglum} {s.span(at - CONTEXT, at)}{shown}"
                              f"{s.span(at + 1, at + 1 + CONTEXT)} = {o.siglum} "
                              f"{o.span(i - CONTEXT, i - CONTEXT + _WIDTH)}")


def resolve(witnesses: list[Witness], keep: list[Seq] | None = None,
            made: Mapping[int, Seq] | None = None) -> dict[str, Finding]:
    """Find, register (so that keys, the TEI ``charDecl`` and the apparatus use them) and apply the resolutions.

    Every ``Gaiji`` node of a resolved code gets its character, and every witness's ``char_decl`` too.
    ``keep`` gains the witnesses' sequences as resolved: what :func:`sequences` would make of them now, for
    :func:`jiaokan.collate.learned.learn_forms` (which searched the book a second time for them);
    ``made``: sequences made already (:func:`sequences`).
    """
    nodes: list[Gaiji] = []
    found = _find(witnesses, nodes, keep, made)
    resolved = {c: f.resolution for c, f in found.items() if f.resolution is not None}
    unsettled = {c: ParallelReadings(c, f.status, tuple(f.chars.most_common()), tuple(sorted(f.witnesses)),
                                     tuple(f.evidence))
                 for c, f in found.items() if f.resolution is None and f.chars}
    set_parallel_resolutions(resolved, unsettled)
    if keep:
        _resolved_in(keep, {c: r.char for c, r in resolved.items()})
    for g in nodes:  # every node of an unknown code (char None), met by _find's one walk
        r = resolved.get(g.code)
        if r is not None and g.char is None:
            g.char = r.char
    for w in witnesses:
        for code in list(w.char_decl):
            r = resolved.get(code)
            if r is not None and w.char_decl[code] is None:
                w.char_decl[code] = r.char
    return found


def _resolved_in(seqs: list[Seq], chars: dict[str, str]) -> None:
    """Each place of a code resolved to a character in ``chars`` made what :func:`_sequence` makes of a ``Gaiji``
    with that character (and :func:`_key_all` of it): the character (or U+FFFD and an ``odd`` entry) and its key.

    The marks of the codes left unresolved keep their code points: a mark only ever stops a match (``_IS_MARK``),
    whichever it is.
    """
    for s in seqs:
        at_code = [(at, chars[code]) for at, code in s.codes.items() if code in chars]
        if not at_code:
            continue
        cs: list[str] = []  # the strings spliced (slices between the places), not a list of every character
        ks: list[str] = []
        prev = 0
        for at, ch in sorted(at_code):
            del s.codes[at]
            k = key(ch)
            if len(ch) != 1 or ch == "\ufffd" or _MARK0 <= ord(ch) <= 0xFFFFD:
                s.odd[at] = (ch, k if len(k) == 1 else "\ufffd")
                c, kc = "\ufffd", s.odd[at][1]
            else:
                c, kc = ch, k if len(k) == 1 else "\ufffd"
            cs += (s.chars[prev:at], c)
            s.held.add(c)
            ks += (s.keys[prev:at], kc)
            prev = at + 1
        s.chars = "".join(cs) + s.chars[prev:]
        s.keys = "".join(ks) + s.keys[prev:]


HEADER = """\
# Unknown Kanripo gaiji and what the other witnesses read where they stand (written by `jiaokan build`).
# resolved: every aligned place shows one character (cert high from 3 places, medium from 2, low for one place
# read alike by two other witnesses), or one character holds 9 in 10 places, 10 or more (cert medium, the
# dissent named in the evidence); the TEI
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
