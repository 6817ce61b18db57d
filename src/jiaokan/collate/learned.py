"""Variant pairs learned from the alignment: the build proposes them, a scholar accepts or rejects them.

Why: the fold knows what Unihan, yitizi, the component rule and the hand tables know; the prints have
more (玊 for 玉, 畨 for 番, 𦵏 for 葬).  A pair of characters that stands against each other again and
again, at different places and where everything around agrees, is most likely one character written two
ways -- but a recurring pair can also be a real reading (摯/贄, 惟/唯), so the build only *proposes*
it, with its count and examples, in ``OUT/variants-proposed.tsv``; a person decides in ``corpus.toml``::

    [variants]
    accept = ["玊玉"]          # typed orthographic from the next build on (subtype "learned")
    reject = ["摯贄"]           # stays substantive; no longer proposed as new

A pair is counted where one witness's reading of one character stands against the base's one
character, typed ``substantive`` with no known relation (not minor, taboo or blocked), and the two
characters on each side agree in every collated witness (no other apparatus entry within ``margin``).

One kind of pair needs no scholar to be typed: a *form no registry knows* -- a character outside both
national standards (GB 2312, Big5) that neither OpenCC nor the variant tables fold (畨, 𥙊, 𦵏, 虗, 㽔) --
and the character the other witnesses read where it stands in the whole book, found before collating as an
unknown gaiji's is (:func:`learn_forms`, :mod:`jiaokan.collate.gaiji`: four characters on each side agreeing
on keys, two places or more all agreeing, or nine in ten of ten or more).  Such a form has no word of its own
in any source the project reads, and the witnesses say, place after place, which character it is written for;
:func:`type_recurring_forms` types its readings against that character ``orthographic`` (subtype ``learned``)
as each collation is made, and the proposals show the pair as ``auto`` (wherever it stands, however few the
places) so that a scholar can still reject it.  A form whose places disagree stays substantive.  Two
characters that a standard registers are typed so only when Unihan calls them one character too
(``data/variant_pairs.tsv``: kZVariant, or kSemanticVariant by two dictionaries with no specialised sense
between them: 炤/照, 勖/勗) and they recur in one collation (:data:`AUTO_PLACES`); any other pair (摯/贄,
烹/亨, 辯/辨: 古今字 and 通假 recur as faithfully as any 异体) waits for a decision.
"""

from __future__ import annotations

import collections
import functools
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path
from typing import Iterable

from ..alive import WhileAlive
from ..errors import InputError
from ..io import atomic_write_text
from ..normalize import key, relation, tables
from ..normalize.ignorable import is_ignorable
from ..model import Witness
from ..normalize.learned import form_pairs, pair_keys, rejected_pairs, set_form_pairs
from ..normalize.script import s2t_char
from . import gaiji
from .gaiji import Finding
from .model import App, Collation, strongest

#: A pair is proposed when it stands at this many places (apparatus entries) or more.
MIN_PLACES = 3
#: Characters on each side that must agree (no other apparatus entry of the row and layer).
MARGIN = 2
#: Two characters Unihan calls one character are typed orthographic where they stand against each other at
#: this many places of one collation (:func:`type_recurring_forms`).
AUTO_PLACES = 2


@dataclass
class Proposal:
    """A recurring pair: ``a`` in the base against ``b`` (the more frequent orientation)."""

    a: str
    b: str
    count: int = 0  # witness readings
    places: set[str] = field(default_factory=set)  # "<collation>#<app id>"
    chapters: set[str] = field(default_factory=set)
    witnesses: collections.Counter = field(default_factory=collections.Counter)  # "JS:SB" → readings
    examples: list[str] = field(default_factory=list)
    status: str = "proposed"
    auto: bool = False  # typed orthographic by type_recurring_forms somewhere


@dataclass(frozen=True)
class Decisions:
    """The ``[variants]`` table of the manifest: pairs accepted and rejected, as (a, b)."""

    accept: tuple[tuple[str, str], ...] = ()
    reject: tuple[tuple[str, str], ...] = ()


def _pairs(mpath: Path, value: object, what: str) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InputError(str(mpath), f"[variants] {what} must be a list of two-character strings such as \"𤼵發\"")
    out = []
    for v in value:
        chars = [c for c in str(v) if not is_ignorable(c)]
        if not isinstance(v, str) or len(chars) != 2:
            raise InputError(str(mpath), f"[variants] {what}: {v!r} is not a pair of two characters (\"𤼵發\")")
        out.append((chars[0], chars[1]))
    return tuple(out)


def load_decisions(corpus_dir: str | Path) -> Decisions:
    """``[variants] accept``/``reject`` of ``corpus_dir/corpus.toml`` (none: empty)."""
    mpath = Path(corpus_dir) / "corpus.toml"
    try:
        data = tomllib.loads(mpath.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return Decisions()  # load_manifest reports an unreadable manifest with its line
    table = data.get("variants")
    if table is None:
        return Decisions()
    if not isinstance(table, dict):
        raise InputError(str(mpath), "[variants] must be a table with 'accept' and 'reject' lists")
    return Decisions(_pairs(mpath, table.get("accept"), "accept"), _pairs(mpath, table.get("reject"), "reject"))


def _one_char(text: str) -> str | None:
    """The one character of ``text`` (whitespace around it aside), if it is one that is not ignorable.

    What the non-ignorable characters of ``text`` would say, asked of ``text.strip()`` alone: every character
    ``str.strip`` removes is ignorable (whitespace, separators, controls), and a reading is often a whole
    omitted passage, walked a character at a time for nothing (tests/test_variants_learned.py checks it).
    """
    t = text.strip()
    return t if len(t) == 1 and not is_ignorable(t) else None


def _isolated(apps: list[App], margin: int) -> set[str]:
    """Ids of the apps with no other app of their row and layer within ``margin`` characters of the base."""
    by_place: dict[tuple[str, str], list[App]] = collections.defaultdict(list)
    for a in apps:
        by_place[(a.row, a.layer)].append(a)
    ok: set[str] = set()
    for group in by_place.values():
        if len(group) == 1:  # (most rows and layers with an entry have one: alone, it is isolated)
            ok.add(group[0].id)
            continue
        group.sort(key=_LEM_START)
        for i, a in enumerate(group):
            prev_end = group[i - 1].lem.end if i else None
            next_start = group[i + 1].lem.start if i + 1 < len(group) else None
            if (prev_end is None or a.lem.start - prev_end >= margin) and \
                    (next_start is None or next_start - a.lem.end >= margin):
                ok.add(a.id)
    return ok


_LEM_START = attrgetter("lem.start")

#: each collation's isolated entries (:func:`_isolated_of`), while it lives: (what they were found in, their ids)
_ISOLATED: WhileAlive[Collation, tuple[tuple[int, int, int], set[str]]] = WhileAlive()


def _isolated_of(col: Collation, margin: int) -> set[str]:
    """:func:`_isolated` of ``col``'s entries, made once for the two counts of a collation.

    Why: :func:`type_recurring_forms` counts the pairs of a collation's entries as it is made, and the build
    counts them all again right after (:func:`count_pairs`); the entries and their places are the same
    (the typing changes types, never places), and finding the isolated ones was a third of each count.
    Kept while the collation lives and holds the same list of entries (a filtered apparatus, ``collate
    --only``, is a new list)."""
    stamp = (id(col.apps), len(col.apps), margin)
    hit = _ISOLATED.get(col)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    iso = _isolated(col.apps, margin)
    _ISOLATED.put(col, (stamp, iso))
    return iso

#: one collation's pairs (:func:`count_pairs`): pair keys → (character in the base, character read) → its count
Pairs = dict[frozenset[str], dict[tuple[str, str], Proposal]]


def propose(collations: Iterable[tuple[str, str, Collation]], decisions: Decisions = Decisions(),
            min_places: int = MIN_PLACES, margin: int = MARGIN) -> list[Proposal]:
    """The recurring pairs of ``collations`` (name, chapter, collation), most frequent first.

    Pairs already decided in the manifest keep their status (accepted pairs are found again only where a
    build ran without them); pairs the fold or the typed tables already relate are never proposed.
    """
    return merge_pairs(((chapter, count_pairs(name, col, margin)) for name, chapter, col in collations),
                       decisions, min_places)


def count_pairs(name: str, col: Collation, margin: int = MARGIN, keys: frozenset[str] | None = None) -> Pairs:
    """The pairs of one collation (named ``name`` in the places and examples), for :func:`merge_pairs`: each
    :class:`Proposal` without its chapter, and ``auto`` where a reading of it is typed ``learned``.
    ``keys``: only the pairs of the entries whose lemma's key is one of them (None: every pair); a pair
    whose two keys are both among them is counted whole, as without ``keys``.

    Why apart from :func:`propose`: a build counts each collation in the worker that made it, where it is at
    hand, and only merges the counts, rather than walk every entry of the book alone once the workers are done.
    """
    blocked = {frozenset((key(a), key(b))) for a, b, _ in tables.blocked_pairs()}
    found: Pairs = collections.defaultdict(dict)
    iso = _isolated_of(col, margin)
    for app in col.apps:
        if app.id not in iso:
            continue
        a = _one_char(app.lem.text)
        if a is None or (keys is not None and key(a) not in keys):
            continue
        for s, r in app.readings.items():
            # the reading's type first, its text only where the type counts (most readings: agree, an omission,
            # an orthographic form; :func:`_one_char` of each was asked before its type)
            rtype = r.type
            is_learned = rtype == "orthographic" and app.subtype == "learned"
            if not (rtype == "substantive" or is_learned):
                continue
            b = _one_char(r.text)
            if b is None:
                continue
            pk = pair_keys(a, b)
            if len(pk) != 2 or pk in blocked or (rtype == "substantive" and relation(a, b) != "different"):
                continue
            p = found[pk].setdefault((a, b), Proposal(a, b))
            p.auto |= is_learned
            p.count += 1
            p.places.add(f"{name}#{app.id}")
            p.witnesses[f"{col.base}:{s}"] += 1
            if len(p.examples) < 3:
                p.examples.append(f"{name} {app.id} {app.context}")
    return dict(found)


def merge_pairs(counted: Iterable[tuple[str, Pairs]], decisions: Decisions = Decisions(),
                min_places: int = MIN_PLACES) -> list[Proposal]:
    """:func:`propose` of the collations whose pairs :func:`count_pairs` counted (chapter, pairs), in their order:
    what one count over all of them would give."""
    accepted = {pair_keys(a, b) for a, b in decisions.accept}
    rejected = {pair_keys(a, b) for a, b in decisions.reject}
    found: Pairs = collections.defaultdict(dict)
    for chapter, pairs in counted:
        for pk, forms in pairs.items():
            for ab, q in forms.items():
                p = found[pk].setdefault(ab, Proposal(*ab))
                p.auto |= q.auto and pk not in accepted
                p.count += q.count
                p.places |= q.places
                p.chapters.add(chapter)
                p.witnesses.update(q.witnesses)
                p.examples.extend(q.examples[: max(0, 3 - len(p.examples))])
    out: list[Proposal] = []
    for pk, forms in found.items():
        places = set().union(*(p.places for p in forms.values()))
        if len(places) < min_places and not any(p.auto for p in forms.values()):
            continue  # a pair typed by type_recurring_forms is listed wherever it stands, to be rejected
        main = max(forms.values(), key=lambda p: p.count)  # the pair in its most frequent writing
        for p in forms.values():
            if p is not main:
                main.count += p.count
                main.chapters |= p.chapters
                main.witnesses.update(p.witnesses)
                main.examples.extend(p.examples[: max(0, 3 - len(main.examples))])
                main.auto |= p.auto
        main.places = places
        main.status = ("accepted" if pk in accepted else "rejected" if pk in rejected
                       else "auto" if main.auto else "proposed")
        out.append(main)
    out.sort(key=lambda p: (-len(p.places), -p.count, p.a + p.b))
    return out


def _registered(c: str) -> bool:
    """Does a national standard encode ``c`` (GB 2312 or Big5, Python's own codecs)?"""
    for codec in ("gb2312", "big5"):
        try:
            c.encode(codec)
            return True
        except UnicodeEncodeError:
            pass
    return False


def unknown_form(c: str) -> bool:
    """Is ``c`` a form no registry knows: a CJK ideograph outside GB 2312 and Big5 that no fold changes?

    Why these registries: they are the repertoires of the two national standards the variant tables call
    standard (``data/README.md``); a character outside both that OpenCC and the tables leave alone (its key
    is itself) has no word of its own in any source the project reads (畨, 𥙊, 𦵏, 虗, 𪧐).  A form the tables
    fold (郷 → 乡), a traditional character t2s knows (爲 → 为) or the simplified form of one Big5 encodes
    (捝, the t2s form of 挩) is known, whatever the codecs say.
    """
    return (len(c) == 1 and unicodedata.name(c, "").startswith("CJK UNIFIED IDEOGRAPH") and key(c) == c
            and not _registered(c) and not _registered(s2t_char(c)))


@functools.lru_cache(maxsize=1)
def _related() -> frozenset[frozenset[str]]:
    """The pairs of ``variant_pairs.tsv`` as the registry holds pairs (their two keys)."""
    return frozenset(pair_keys(a, b) for a, b, _ in tables.related_pairs())


def learn_forms(witnesses: list[Witness], seqs: list[gaiji.Seq] | None = None) -> dict[str, Finding]:
    """Register (:func:`jiaokan.normalize.learned.set_form_pairs`) each form no registry knows
    (:func:`unknown_form`) with the character the other witnesses read at its places in the whole book,
    where they prove it as they prove an unknown gaiji (:mod:`jiaokan.collate.gaiji`: four characters of
    context on each side on keys, one character between, at two places or more all agreeing, or nine in ten
    of ten or more) and that character is one a registry knows; returns what was found for each form.

    Why the book and not one collation: a rare form (㽔, 䑕, 笣) often stands once in a 篇, and it is the same
    form wherever it stands; why before collating: so that every collation, in whichever worker, types its
    places alike.  Another witness writing the same form at a place says nothing about it; a form whose
    places disagree stays substantive.  Nothing here changes a key or a text.

    ``seqs``: the witnesses' sequences when the caller has them (:func:`jiaokan.collate.gaiji.resolve` with
    ``keep``: the build's gaiji stage walks the book once for both).
    """
    if not seqs:
        seqs = gaiji.sequences(witnesses)
    held: set[str] = set()
    shared: set[int] = set()
    for s in seqs:
        if not s.held:
            held.update(s.chars)
        elif id(s.held) not in shared:  # the set the sequences made together share: taken once
            shared.add(id(s.held))
            held |= s.held
    forms = sorted(c for c in held if unknown_form(c))  # the witness's own character, not its key (勑 → 𠡠)
    occurrences: list[tuple[gaiji.Seq, int, str]] = []
    if forms:
        pattern = re.compile("[" + "".join(forms) + "]")
        occurrences = [(s, m.start(), m.group()) for s in seqs for m in pattern.finditer(s.chars)]
    found: dict[str, Finding] = {}
    for (s, at, form), hits in zip(occurrences, gaiji.parallels(seqs, [(s, at) for s, at, _ in occurrences])):
        f = found.setdefault(form, Finding(form))
        f.occurrences += 1
        if hits is not None:
            gaiji.tally(f, s, at, form, [(o, i) for o, i in hits if o.keys[i] != form])
    blocked = {frozenset((key(a), key(b))) for a, b, _ in tables.blocked_pairs()}
    pairs = []
    for form, f in found.items():
        f.resolution = r = gaiji.decide(f)
        if r is not None and r.places >= gaiji.MIN_PLACES and not unknown_form(r.char) \
                and pair_keys(form, r.char) not in blocked:
            pairs.append((form, r.char))
    set_form_pairs(pairs)
    return found


def type_recurring_forms(col: Collation, min_places: int = AUTO_PLACES) -> int:
    """Type ``orthographic`` (subtype ``learned``) each reading of one character against the base's one character
    where the pair is a form no registry knows and the character the book's witnesses read at its places
    (:func:`learn_forms`), or where it recurs in ``col`` (:func:`propose` with ``min_places``) and Unihan calls
    the two one character (``data/variant_pairs.tsv``: 炤/照, 勖/勗) -- unless a scholar rejected the pair.
    Returns how many.

    Every reading of such a pair in the collation is typed, as for an accepted pair; the apparatus entry's
    type and subtype follow its readings (one shared subtype, else none).
    """
    related = _related()
    pairs = form_pairs()
    # the recurring pairs of ``col`` (:func:`propose`), counted only where the lemma's key is one of a related
    # pair's (a pair of ``related`` holds its lemma's key, so each is counted whole): the typing asks of
    # those alone, and counting every entry's pair was half of what it cost (the build counts them all,
    # once the typing is done)
    keys = frozenset().union(*related)
    if keys:
        for p in merge_pairs([("", count_pairs("", col, keys=keys))], Decisions(), min_places):
            pk = pair_keys(p.a, p.b)
            if p.status == "proposed" and pk in related:
                pairs.add(pk)
    pairs -= rejected_pairs()
    if not pairs:
        return 0
    n = 0
    paired = set().union(*pairs)  # the keys some pair holds: an entry whose lemma's key is none of them has no pair
    for app in col.apps:
        a = _one_char(app.lem.text)
        if a is None or key(a) not in paired:
            continue
        diff = app.differing()
        hit = {s for s, r in diff.items()
               if r.type == "substantive" and (b := _one_char(r.text)) is not None and pair_keys(a, b) in pairs}
        if not hit:
            continue
        for s in hit:
            diff[s].type = "orthographic"
        n += len(hit)
        app.type = strongest([r.type or "" for r in diff.values()])
        app.subtype = "learned" if hit == set(diff) else None
    return n


HEADER = """\
# Variant pairs learned from the alignment (written by `jiaokan build`; see README "Variants learned from the
# alignment").  Each row is a pair of characters that stand against each other at PLACES apparatus entries
# (COUNT witness readings), with the two characters on each side agreeing in every witness.  Review each
# pair (a real reading can recur too: 摯/贄), then list it in corpus.toml.  "auto": already typed orthographic
# (subtype learned) wherever it stands -- a form no registry knows (outside GB 2312 and Big5, folded by nothing)
# and the one character the other witnesses read at its places in the book -- or where it recurs in a collation
# (two characters Unihan calls one); listed however few its places; reject it to keep it substantive.
#   [variants]
#   accept = ["AB", ...]   # typed orthographic, subtype "learned", from the next build on
#   reject = ["AB", ...]   # stays substantive; shown here as rejected
# status	a	b	places	count	chapters	witnesses	examples
"""


def write_proposals(path: Path, proposals: list[Proposal]) -> None:
    """``OUT/variants-proposed.tsv``, written whole (jiaokan.io)."""
    lines = [HEADER.rstrip("\n")]
    for p in proposals:
        wits = ", ".join(f"{w}×{n}" for w, n in sorted(p.witnesses.items()))
        ex = " | ".join(e.replace("\t", " ") for e in p.examples[:3])
        lines.append(f"{p.status}\t{p.a}\t{p.b}\t{len(p.places)}\t{p.count}\t{' '.join(sorted(p.chapters))}\t{wits}\t{ex}")
    atomic_write_text(path, "\n".join(lines) + "\n")
