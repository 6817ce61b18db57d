"""Collation-informed layering: the 注疏's inferred 注/经 boundaries checked against a witness that marks them.

Why: the 四库 《儀禮注疏》 does not say where a 郑注 stops and the 经 resumes when a second
``注`` follows with nothing between (``…注阼階東階尊於賓席之東…注斯禁…``); its reader infers the
split from the voices of 经 and 注 (:mod:`jiaokan.readers.layouts.zhushu_boundary`) and is wrong
about one split in six on the 篇 it was not tuned on.  A build that has a witness whose layers
the print makes explicit — the 四部丛刊 (注 in double columns), or the 集释 (经 flush left,
commentary indented) — holds the answer: after aligning the two texts, each character of the
注疏 around an inferred boundary has a counterpart whose layer is certain.

What is done, per inferred boundary (a 注 piece followed by a 经 piece with no marker of its
own, :func:`inferred_boundaries`): among the split points of the 注 + 经 stretch, the one that
agrees with most aligned characters of the explicit witness (注 before, 经 after) is taken when
it beats the reader's by at least :data:`MIN_GAIN` characters and the explicit witness covers
the characters on both sides of it; the 经 piece then records how its start was decided:
``cert="high"`` and ``source`` (the explicit witness's TEI file, or its siglum) — confirmed or
moved alike.  Where the alignment does not cover the boundary, the reader's decision and
``cert`` stay.  Nothing else changes: markers decide the other boundaries.

One inferred 经 is no 经 at all: a short passage the reader put between two 注 because the
character after it looked like the marker, where it is the verb (``…祭於豆閒爵反注爲一手不能正也…``,
注 = to pour).  When the explicit witness reads the passage, the marker's character and the
characters on both sides as one run of commentary (:func:`_dissolvable`), the passage is
dissolved: it and the marker's character rejoin the 注 before as its text (:func:`_dissolve`),
and that 注 records the decision (``cert="high"``, ``source``).

``jiaokan ingest`` reads one file and never gets here: the reader's model stays what a single
witness can know.  The build calls :func:`relayer` before collating a 篇 (``build.relayer_stage``), and
so do ``jiaokan collate``, ``diff`` and :func:`jiaokan.collate` (:func:`relayer_witnesses`): without it a
boundary the reader put one character off was a pair of variants that no witness has (an addition at the end
of the 注, the same character "omitted" from the 经 after it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from bisect import bisect_left
from itertools import accumulate
from typing import Collection, Sequence

from ..model import Inline, Label, LineBreak, Loc, PageBreak, Piece, Text, Unit, Witness
from ..normalize import keys
from ..normalize.fold import exact_keys
from ..ui import counted
from .align import align

__all__ = ["REFERENCE_ROLES", "Relayering", "inferred_boundaries", "relayer", "relayer_in_turn", "relayer_witnesses",
           "split_content"]

#: The roles whose witnesses mark the layers another's reader infers, in the order they are asked: the 四部丛刊
#: (注 in double columns), the 注疏 (○ before every 经 passage), the 集释 (经 flush left, commentary indented).
REFERENCE_ROLES = ("songben", "zhushu", "jishi")

#: A boundary moves only when the explicit witness's layers agree with the new split on at
#: least this many more aligned characters than with the reader's (one character could be a
#: variant reading aligned by chance).
MIN_GAIN = 1
#: A 经 passage is cut out of the end of a commentary piece that no 经 follows only when the explicit
#: witness reads at least this many more of its characters as 经 than as commentary, and it is at
#: least ``TAIL_MIN`` characters long: a new passage asks for more than a moved boundary.
TAIL_GAIN = 3
TAIL_MIN = 2
#: How near a split (characters on each side) the explicit witness must have an aligned character
#: for the split to be confirmed or moved: the alignment must cover the place.
COVER = 2
#: A run of the target's 传 that the explicit witness reads as a marked 经 passage (``○出妻之子爲父後者
#: 則爲出母無服`` in the 注疏, inside the 传 in the 四部丛刊 and the 集释) is a disagreement between the
#: witnesses when it is at least this long: it is recorded, never resolved.
DISPUTE_MIN = 4


@dataclass
class Relayering:
    """What :func:`relayer` did to one witness."""

    witness: str
    source: str
    checked: int = 0  # inferred boundaries the alignment covered
    confirmed: int = 0
    moved: int = 0
    cut: int = 0  # 经 passages cut out of the end of a commentary piece
    dissolved: list[str] = field(default_factory=list)  # inferred 经 that were 注 (``…閒|爵反|注爲…``)
    doubtful: int = 0  # the explicit witness leans to another split by less than MIN_GAIN: left, cert="low"
    uncovered: int = 0
    moves: list[str] = field(default_factory=list)  # ``…注|经…`` before → after, for the report
    disputed: list[str] = field(default_factory=list)  # 传 here, a marked 经 passage there: left as read
    #: asked only what the witness before it left undecided (:func:`relayer`'s ``undecided_only``)
    second: bool = False

    def summary(self) -> str:
        # the parts add up to the total: the boundaries the alignment does not cover are not "checked"
        line = (f"{self.witness}: {counted(self.checked + self.uncovered, 'inferred boundary', 'inferred boundaries')}"
                f" before a 经, {self.checked} checked against {self.source} ({self.confirmed} confirmed, "
                f"{self.moved} moved, {self.doubtful} doubtful), {self.uncovered} not covered; "
                f"{counted(self.cut, '经 passage')} cut out of the end of a commentary")
        if self.dissolved:
            line += (f"; {len(self.dissolved)} inferred 经 dissolved into the 注 before it (the 注 after it a word, "
                     f"not a marker, in {self.source}): " + ", ".join(self.dissolved))
        if self.disputed:
            line += (f"; {len(self.disputed)} disagreement(s) left as read (传 here, a marked 经 passage in "
                     f"{self.source}): " + ", ".join(self.disputed))
        return line + (" (what the witness before it left undecided)" if self.second else "")


def inferred_boundaries(w: Witness, layers: Collection[str] = ("zhu",)) -> list[tuple[Piece, Piece]]:
    """(commentary piece, 经 piece) for every 经 piece that follows a piece of one of ``layers``
    (the 注 of the 注疏, the 传 of the 四部丛刊) with no marker of its own."""
    out = []
    prev: Piece | None = None
    for p in w.pieces():
        if prev is not None and p.layer == "jing" and prev.layer in layers and not _marked(p):
            out.append((prev, p))
        prev = p
    return out


@dataclass
class _Stream:
    """The keys of some pieces' texts in reading order, and what :func:`relayer` asks of each."""

    #: the keys in reading order: a string of them when every key is one code point (as the aligner takes them)
    keys: Sequence[str]
    #: per key, 1 where its character is 经 (``jing``: asked of the explicit witness), and where it is in a
    #: 经 piece its print marks with a ``○`` (``marked``); byte strings, a piece's run set at once
    jing: bytearray
    marked: bytearray
    #: piece index → (its first key, the key after its last), for the pieces with keys, in reading order:
    #: a piece's keys are one run of the stream
    span: dict[int, tuple[int, int]]
    #: where each key stands in the pieces' texts joined (``at``), and where each piece's text starts there
    at: Sequence[int]
    start: dict[int, int]

    def offset(self, n: int, i: int) -> int:
        """Where key ``i`` stands in the text of piece ``n``, which holds it."""
        return self.at[i] - self.start[n]


_COMMENTARY = frozenset({"zhu", "zhuan"})
#: The layers whose characters :func:`relayer` aligns, in the target and the explicit witness alike: the
#: 经 and the commentary whose boundary with it is checked.  Whatever else either holds (the 疏, 音义, a
#: heading) is no evidence for where a 注 stops, and is left out of both streams.
_ALIGNED = ("jing", "zhu", "zhuan")


def _piece_keys(text: str) -> tuple[Sequence[str], Sequence[int]]:
    """The keys of ``text`` and their offsets: a whole string at once in C (:func:`exact_keys`) unless a key
    is not one code point or the text holds a gaiji entity (then :func:`keys`, a character at a time)."""
    if "&" not in text:
        got = exact_keys(text)
        if got is not None:
            return got
    ks = keys(text)
    return [k for _, k in ks], [i for i, _ in ks]


def _stream(pieces: Sequence[Piece], layers: Collection[str]) -> _Stream:
    """The stream of the pieces of ``layers`` among ``pieces`` (indexes are into ``pieces``).

    Their texts are keyed joined, at once in C (:func:`exact_keys`: a character's key and whether it is
    ignorable are its own, so the keys of a join are the joined keys), and each piece finds its run of
    keys by bisecting their offsets; only where a key is not one code point or a text holds a gaiji
    entity is each piece keyed apart (:func:`_piece_keys`), as :func:`relayer` always did.
    """
    kept = [(n, p) for n, p in enumerate(pieces) if p.layer in layers]
    texts = [p.text for _, p in kept]
    starts = list(accumulate(map(len, texts), initial=0))
    whole = "".join(texts)
    got = exact_keys(whole) if "&" not in whole else None
    ks: Sequence[str]
    at: Sequence[int]
    if got is not None:
        ks, at = got
        # each piece's first key (and the end, last); where no character is ignorable (most streams) the
        # keys' offsets are 0, 1, 2 …, and a piece's first key is where its text starts: no bisecting
        bounds = starts if len(at) == len(whole) else [bisect_left(at, t) for t in starts]
    else:
        runs: list[Sequence[str]] = []
        shifted: list[int] = []
        bounds = [0]
        for text, t0 in zip(texts, starts):
            run, offsets = _piece_keys(text)
            runs.append(run)
            shifted.extend([t0 + i for i in offsets])
            bounds.append(bounds[-1] + len(run))
        if all(type(r) is str for r in runs):
            ks = "".join(runs)  # type: ignore[arg-type]  # every run a str
        else:
            ks = [k for r in runs for k in r]
        at = shifted
    s = _Stream(ks, bytearray(len(ks)), bytearray(len(ks)), {}, at, {})
    for (n, p), lo, hi, t0 in zip(kept, bounds, bounds[1:], starts):
        if hi > lo:
            s.span[n] = (lo, hi)
            s.start[n] = t0
            if p.layer == "jing":
                s.jing[lo:hi] = b"\x01" * (hi - lo)
                if _marked(p):
                    s.marked[lo:hi] = s.jing[lo:hi]
    return s


def relayer(target: Witness, explicit: Sequence[Witness], source: str = "",
            layers: Collection[str] = ("zhu",), undecided_only: bool = False) -> Relayering:
    """Check (and correct) ``target``'s inferred 注/经 boundaries against ``explicit`` (in reading order).

    ``explicit``: the witness(es) of the same 篇 whose layers the print marks (several files of
    one witness are given in order).  ``source``: what the moved or confirmed pieces record as the
    witness the decision came from (default: the explicit witness's siglum).  ``layers``: the
    commentary layers whose boundary with the next 经 the target's reader inferred
    (``Reader.infers_boundaries``).  ``undecided_only``: a second explicit witness, asked only about
    the boundaries the first did not decide (no ``cert="high"`` on the 经: the first lacks the page,
    as the 四部丛刊 does at 大射儀's ``爵反注``); the 传 disputes and the 经 cut out of the end of a
    commentary stay the first witness's to find.
    """
    source = source or (explicit[0].meta.siglum if explicit else "")
    rep = Relayering(target.meta.siglum or target.meta.file, source, second=undecided_only)
    bounds = inferred_boundaries(target, layers)
    if undecided_only:
        bounds = [(zhu, jing) for zhu, jing in bounds if jing.cert != "high"]
        if not bounds:
            return rep
    if not explicit or not (bounds or any(p.layer == "zhuan" for p in target.pieces())):
        return rep  # nothing inferred, and no 传 that may hold a passage the explicit witness marks
    pieces = list(target.pieces())
    # both sides in the layers they can share (:data:`_ALIGNED`): the 注疏's 疏, two thirds of its text,
    # has no counterpart in a witness that marks 注 and 经, only quotations of them to mismatch, and
    # aligning it cost more than the rest of relayering
    ws = _stream(pieces, _ALIGNED)
    rs = _stream([p for w in explicit for p in w.pieces()], _ALIGNED)
    partner: list[int | None] = [None] * len(ws.keys)
    for op in align(rs.keys, ws.keys):
        # a replace of as many characters as it replaces pairs them too (``迎己``/``迎巳``: a variant
        # form the keys keep apart still stands in its layer)
        if op.kind == "equal" or (op.kind == "replace" and op.a1 - op.a0 == op.b1 - op.b0):
            partner[op.b0:op.b0 + (op.a1 - op.a0)] = range(op.a0, op.a1)  # (a run at once, in C)
    first_key = {n: lo for n, (lo, _) in ws.span.items()}
    index = {id(p): n for n, p in enumerate(pieces)}
    dissolve = [(zhu, jing, pieces[index[id(jing)] + 1]) for zhu, jing in bounds
                if _dissolvable(ws, rs, partner, first_key, pieces, index[id(zhu)], index[id(jing)])]
    skip = {id(jing) for _, jing, _ in dissolve}
    for zhu, jing in bounds:
        if id(jing) in skip:
            continue
        _check(rep, ws, rs, partner, first_key, index[id(zhu)], index[id(jing)], zhu, jing, target)
    if not undecided_only:
        _disputes(rep, ws, rs, partner, pieces, target)
        for n, p in reversed(list(enumerate(pieces))):  # from the end: a cut adds a unit after the piece's own
            nxt = pieces[n + 1] if n + 1 < len(pieces) else None
            if p.layer in layers and n in first_key and (nxt is None or nxt.layer != "jing" or _marked(nxt)):
                _tail(rep, ws, rs, partner, n, p, target)
    for zhu, jing, nxt in dissolve:  # last: the streams' piece indexes hold until here
        _dissolve(rep, target, zhu, jing, nxt)
    return rep


def relayer_witnesses(witnesses: Sequence[Witness]) -> list[Relayering]:
    """Check (and correct, in place) the inferred boundaries of every witness of one 篇 against the others, as
    the build does: each against the first witness of each of :data:`REFERENCE_ROLES` but itself, in that order,
    the next asked only what the one before left undecided.  What each did, for a report."""
    from ..readers import READERS

    first: dict[str, Witness] = {}
    for w in witnesses:
        first.setdefault(w.meta.role or "", w)
    reports: list[Relayering] = []
    for w in witnesses:
        reader = READERS.get(w.meta.format)
        layers = reader.infers_boundaries if reader is not None else frozenset()
        bounds = inferred_boundaries(w, layers) if layers else []
        if not bounds or all(jing.cert == "high" for _zhu, jing in bounds):
            continue  # nothing inferred, or every boundary decided already (a build's TEI read back; a second call)
        reports += relayer_in_turn(w, [first[r] for r in REFERENCE_ROLES if r in first and first[r] is not w], layers)
    return reports


def relayer_in_turn(target: Witness, refs: Sequence[Witness], layers: Collection[str],
                    sources: Sequence[str] = ()) -> list[Relayering]:
    """``target`` against each of ``refs`` in turn (``sources``: what each decision records, default the siglum):
    the first decides what it covers, each next only what the ones before left undecided or in doubt; done once
    nothing is left.  The reports of those that did something (the first's always).  The build's rule
    (``build._relayer_group``) and :func:`relayer_witnesses`'."""
    reports: list[Relayering] = []
    for n, ref in enumerate(refs):
        rep = relayer(target, [ref], source=sources[n] if sources else "", layers=layers, undecided_only=n > 0)
        if n == 0 or rep.checked or rep.dissolved:
            reports.append(rep)
        if not (rep.uncovered or rep.doubtful):
            break
    return reports


def _dissolvable(ws: _Stream, rs: _Stream, partner: list[int | None], first_key: dict[int, int],
                 pieces: list[Piece], zn: int, jn: int) -> bool:
    """Is the inferred 经 piece ``pieces[jn]`` no 经 but the words of the 注 ``pieces[zn]`` before it,
    cut off by a ``注`` that was a word (``…祭於豆閒|爵反|注爲一手不能正也…``)?

    Only a passage with no marker of its own between two 注 of the same layer, the second opening with
    its marker, however sure the reader was (its prior may make it sure of ``爵反``); and only when the
    explicit witness reads, in one unbroken aligned run, the last character of the 注 before, every
    character of the passage, the marker's character itself, and the first character of the 注 after
    where that is aligned, and reads all of them as commentary.  The marker's
    character among them is what says it is a word there: a 经 passage the explicit witness marks
    never has it, and a 注 the explicit witness opens there has no ``注`` in its text.
    """
    zhu, jing = pieces[zn], pieces[jn]
    if jn + 1 >= len(pieces) or jn != zn + 1:
        return False
    nxt = pieces[jn + 1]
    label = next((x for x in nxt.content if not isinstance(x, (LineBreak, PageBreak))), None)
    if nxt.layer != zhu.layer or not isinstance(label, Label) or zn not in first_key or jn + 1 not in first_key:
        return False
    mark = [k for _, k in keys(label.text)]
    lo, hi = first_key.get(jn), first_key[jn + 1]
    if lo is None or len(mark) != 1:
        return False
    run = [partner[i] for i in range(lo - 1, hi)]  # the 注's last character, the passage
    after = partner[hi]
    if any(r is None for r in run):
        return False
    seq = [r for r in run if r is not None]
    # the 注 after may be unaligned where the 疏 quotes it (鄉射禮 ``…二手祭酒反注如大射`` beside the 疏's
    # ``…故云如大射也``): the marker's character read as commentary right after the passage still says it
    if any(b != a + 1 for a, b in zip(seq, seq[1:])) or (after is not None and after != seq[-1] + 2):
        return False
    between = seq[-1] + 1
    if between >= len(rs.keys):
        return False
    read = (*seq, between) if after is None else (*seq, between, after)
    return rs.keys[between] == mark[0] and not any(rs.jing[r] for r in read)


def _dissolve(rep: Relayering, w: Witness, zhu: Piece, jing: Piece, nxt: Piece) -> None:
    """The 经 piece ``jing`` and the 注 ``nxt`` after it go back into ``zhu``: ``nxt``'s marker becomes a
    character of the text (nothing of the source is dropped), the rest of ``jing``'s unit (the 疏 after
    them) joins ``zhu``'s unit, and ``zhu`` says who decided (``cert``, ``source``) and a warning names it."""
    from ..model import ReaderWarning

    k = next(i for i, x in enumerate(nxt.content) if isinstance(x, Label))
    word = nxt.content[k]
    assert isinstance(word, Label)
    shown = f"…{zhu.text[-6:]}|{jing.text}|{word.text}{nxt.text[:6]}…"
    for d in w.divs:
        for u in d.units:
            if u.pieces and u.pieces[0] is jing:
                u.pieces[:] = [x for x in u.pieces if x is not nxt]
    jing.content = _joined([*jing.content, *nxt.content[:k], Text(word.text), *nxt.content[k + 1:]])
    _vanish(w, zhu, jing)
    zhu.content = _joined(zhu.content)
    zhu.cert, zhu.source = "high", rep.source
    rep.dissolved.append(shown)
    w.warnings.append(ReaderWarning(
        w.meta.file, jing.loc.line, "layer-dissolved",
        f"{shown}: no 经 here, one 注 in {rep.source} (the {word.text} a word, not a marker)"))


def _joined(content: list[Inline]) -> list[Inline]:
    """``content`` with neighbouring plain text runs made one."""
    out: list[Inline] = []
    for node in content:
        last = out[-1] if out else None
        if isinstance(node, Text) and isinstance(last, Text) and type(node) is type(last) is Text:
            out[-1] = Text(last.text + node.text)
        else:
            out.append(node)
    return out


def _disputes(rep: Relayering, ws: _Stream, rs: _Stream, partner: list[int | None], pieces: list[Piece],
              target: Witness) -> None:
    """Runs inside a 传 of the target that the explicit witness prints as a 经 passage of its own (after a
    ``○``), not at the 传's end (that is :func:`_tail`'s): the two witnesses disagree about the layer,
    and nothing in either proves the other wrong.  The 传 is left as read, marked ``cert="low"``, and
    the disagreement is recorded (the report, and a ``layer-disputed`` warning of the witness)."""
    from ..model import ReaderWarning

    for pn, (lo, hi) in ws.span.items():  # the 传 pieces' runs of the stream, in reading order
        piece = pieces[pn]
        if piece.layer != "zhuan":
            continue
        i = lo
        while i < hi:
            r = partner[i]
            if r is None or not rs.marked[r]:
                i += 1
                continue
            j = i
            while j < hi and (q := partner[j]) is not None and rs.marked[q]:
                j += 1
            if j - i >= DISPUTE_MIN and j < hi:  # (not at the 传's end: that is _tail's)
                text = piece.text[ws.offset(pn, i):ws.offset(pn, j - 1) + 1]
                rep.disputed.append(text)
                piece.cert = "low"
                target.warnings.append(ReaderWarning(
                    target.meta.file, piece.loc.line, "layer-disputed",
                    f"{text}: 传 here, a 经 passage of its own in {rep.source}; left as read"))
            i = j


def _marked(p: Piece) -> bool:
    """Does ``p`` open with a marker of its own (a ``○`` before a 经)?"""
    for x in p.content:  # (a loop, not next() of a generator: asked of every 经 piece of both streams)
        if not isinstance(x, (LineBreak, PageBreak)):
            return isinstance(x, Label)
    return False


def _tail(rep: Relayering, ws: _Stream, rs: _Stream, partner: list[int | None], n: int, p: Piece,
          target: Witness) -> None:
    """A 经 passage hidden at the end of a commentary piece that no unmarked 经 follows (``…注…儐之兩馬束錦疏(…``,
    ``…傳曰不當室則無緦服也凡妾爲私兄弟如邦人(注)``): cut it out when the explicit witness says so by
    :data:`TAIL_GAIN` characters over reading it all as commentary."""
    lo, hi = ws.span[n]
    size = hi - lo
    if size < 2 * TAIL_MIN:
        return
    read_jing = rs.jing
    if sum([r is not None and read_jing[r] for r in partner[lo:hi]]) < TAIL_GAIN:
        return  # the gain is at most the piece's characters the explicit witness reads as 经: most pieces, at once
    comm_before = [0]
    for i in range(lo, hi):
        r = partner[i]
        comm_before.append(comm_before[-1] + (r is not None and not rs.jing[r]))
    jing_after = [0] * (size + 1)
    for k in range(size - 1, -1, -1):
        r = partner[lo + k]
        jing_after[k] = jing_after[k + 1] + (r is not None and rs.jing[r])
    best = max(range(TAIL_MIN, size - TAIL_MIN + 1), key=lambda k: (comm_before[k] + jing_after[k], k))
    gain = comm_before[best] + jing_after[best] - comm_before[size]
    if gain < TAIL_GAIN or not _covered(partner, lo, hi, lo + best):
        return
    at = ws.offset(n, lo + best)
    text = p.text
    jing = _cut_tail(target, p, at)
    if jing is None:
        return
    jing.cert, jing.source = "high", rep.source
    rep.cut += 1
    rep.moves.append(f"cut …{text[max(0, at - 8):at]}|{text[at:at + 12]}… (经 out of the end of a {p.layer})")


def _cut_tail(w: Witness, p: Piece, at: int) -> Piece | None:
    """Cut ``p`` at reading offset ``at``: the rest becomes a 经 piece opening a new unit right after
    ``p``'s, which takes the pieces that followed ``p`` (the 疏 or note that now follow that 经)."""
    for d in w.divs:
        for i, u in enumerate(d.units):
            if p not in u.pieces:
                continue
            k = u.pieces.index(p)
            head, tail = split_content(p.content, at)
            p.content = head
            taken = {x.id for dd in w.divs for x in dd.units}
            uid = next(f"{u.id}{c}" for c in "abcdefghijklmnopqrstuvwxyz" if f"{u.id}{c}" not in taken)
            jing = Piece("jing", tail, p.loc, id=f"{uid}.jing1")
            _locate(jing, head, p)
            rest = u.pieces[k + 1:]
            del u.pieces[k + 1:]
            d.units.insert(i + 1, Unit(uid, [jing, *rest]))
            return jing
    return None


def _check(rep: Relayering, ws: _Stream, rs: _Stream, partner: list[int | None], first_key: dict[int, int],
           zn: int, jn: int, zhu: Piece, jing: Piece, target: Witness) -> None:
    lo = first_key.get(zn)
    hi_piece = first_key.get(jn)
    if lo is None or hi_piece is None:
        return
    hi = ws.span[jn][1]
    cur = hi_piece - lo  # the reader's split, in keys of the stretch
    span = range(lo, hi)
    # score[k]: aligned characters before k that are commentary in the explicit witness, plus those from k on that are 经
    comm_before = [0]
    for i in span:
        r = partner[i]
        comm_before.append(comm_before[-1] + (r is not None and not rs.jing[r]))
    jing_after = [0] * (len(span) + 1)
    for k in range(len(span) - 1, -1, -1):
        r = partner[lo + k]
        jing_after[k] = jing_after[k + 1] + (r is not None and rs.jing[r])
    scores = [comm_before[k] + jing_after[k] for k in range(len(span) + 1)]
    # a 经 item the 四部丛刊's reader read out of a 传 may be no item at all (a 注 is never empty)
    may_vanish = zhu.layer == "zhuan"
    best = max(range(1, len(span) + may_vanish), key=lambda k: (scores[k], k == cur, -abs(k - cur)), default=cur)
    if best == len(span):
        if scores[best] - scores[cur] < MIN_GAIN or not _covered(partner, lo, hi + 1, hi - 1):
            rep.uncovered += 1
            return
        rep.checked += 1
        rep.moved += 1
        rep.moves.append(f"no 经 item …{zhu.text[-8:]}|{jing.text[:8]}… → …{jing.text[-8:]}|")
        _vanish(target, zhu, jing)
        return
    if not _covered(partner, lo, hi, lo + best):
        rep.uncovered += 1
        return
    rep.checked += 1
    if best == cur:
        rep.confirmed += 1
        jing.cert, jing.source = "high", rep.source
        return
    if scores[best] - scores[cur] < MIN_GAIN:
        rep.doubtful += 1  # the explicit witness leans elsewhere, by too little to move: the reader's stays, unsure
        jing.cert = "low"
        return
    before = zhu.text + jing.text
    k = lo + best  # a key of the 注 (then its offset there), or of the 经 after it
    at = ws.offset(zn, k) if k < ws.span[zn][1] else len(zhu.text) + ws.offset(jn, k)
    old = len(zhu.text)
    _move(zhu, jing, at)
    rep.moved += 1
    rep.moves.append(f"moved …{before[max(0, old - 8):old]}|{before[old:old + 8]}… → "
                     f"…{before[max(0, at - 8):at]}|{before[at:at + 8]}…")
    jing.cert, jing.source = "high", rep.source


def _vanish(w: Witness, zhu: Piece, jing: Piece) -> None:
    """The 经 piece ``jing`` is no item: its text goes on the commentary before it, and the rest of its
    unit (the note after it) joins the unit of that commentary."""
    zhu.content = _joined(zhu.content + jing.content)  # (one run where the two met: as the TEI reads it back)
    zhu.source = None
    for d in w.divs:
        for i, u in enumerate(d.units):
            if u.pieces and u.pieces[0] is jing:
                owner = next((v for v in d.units[:i] if zhu in v.pieces), None)
                if owner is None:
                    u.pieces[0] = Piece(zhu.layer, [], jing.loc)  # not expected: keep the unit, emptied
                    return
                owner.pieces.extend(u.pieces[1:])
                del d.units[i]
                return


def _covered(partner: list[int | None], lo: int, hi: int, at: int) -> bool:
    """Does the alignment cover split ``at`` (stream indexes): an aligned character among the
    :data:`COVER` on each side?  (One may be a variant the keys do not fold: ``迎己``/``迎已``.)"""
    left = range(max(lo, at - COVER), at)
    right = range(at, min(hi, at + COVER))
    return any(partner[i] is not None for i in left) and any(partner[i] is not None for i in right)


def _move(zhu: Piece, jing: Piece, at: int) -> None:
    """Put the boundary between ``zhu`` and ``jing`` at reading offset ``at`` of their joined text."""
    head, tail = split_content(zhu.content + jing.content, at)
    # neighbouring text runs made one, as a TEI file of the witness reads back (尊於賓|席之東… was two runs where
    # the boundary stood, and a relayered witness's round trip through its TEI was not the same model)
    zhu.content, jing.content = _joined(head), _joined(tail)
    _locate(jing, head, zhu)


def _locate(jing: Piece, head: list[Inline], before: Piece) -> None:
    """``jing``'s location: where the content ``head`` of the piece ``before`` it leaves off."""
    line, page = before.loc.line, before.loc.page
    for node in head:
        if isinstance(node, LineBreak):
            line = node.n
        elif isinstance(node, PageBreak):
            page = node.n
    first = jing.content[0] if jing.content else None
    if isinstance(first, LineBreak):
        line = first.n
    jing.loc = Loc(line, page)


def split_content(content: list[Inline], at: int) -> tuple[list[Inline], list[Inline]]:
    """``content`` cut at reading offset ``at`` (0 < ``at`` < its reading length).

    Nodes that add nothing to the reading (line and page breaks) right at the cut go with the
    second part, so that a piece that now starts a line says so.  A gaiji is one reading
    character and is never cut.
    """
    pos = 0
    for i, node in enumerate(content):
        if pos >= at and not isinstance(node, Label):
            return content[:i], content[i:]
        r = len(node.reading)
        if pos < at < pos + r and isinstance(node, Text):
            cut = at - pos
            return content[:i] + [Text(node.text[:cut])], [Text(node.text[cut:])] + content[i + 1:]
        pos += r
    return list(content), []
