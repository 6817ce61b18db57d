"""Where does a 郑注 end and the 经 resume, when the source does not say?

In the 四库 《儀禮注疏》 the 注 is set in large characters after a ``注`` marker
and simply stops where the next 经 passage begins: ``…注阼階東階尊於賓席之東…``
is 注 ``阼階東階`` then 经 ``尊於賓席之東…``.  When a second ``注`` follows with no
other marker between, the stretch between the two markers is certainly 注 then 经,
but the split point is not written anywhere; a reader of the printed page knows
the 经 by heart.

This module learns the two voices from the same file — the stretches whose layer
is certain (经 between a ○ or a 疏 and the next marker; 注 between ``注`` and the
音義/疏 that closes it, not the ○, which may close a 经 hidden at its end) — as two
character bigram models (Witten-Bell interpolation with a unigram, with start and end
symbols, so that "a 注 ends here" and "a 经 starts here" are learnt too) and picks the split that makes the 注 part
most 注-like and the 经 part most 经-like.  No word list and nothing about any
particular passage: a file of another chapter trains its own models.

A short 卷 (or an excerpt) has few certain stretches to learn from, so the models
also start from a shipped prior (:func:`shipped_voices`): the bigram counts of the
certain 经 and 注 of the 四库 注疏 chapters at hand, learnt the same way from the
witness text alone (``scripts/build_zhushu_voices.py``; nothing from another
edition goes in).  Measured on half a 卷, it lifts layer agreement from 97.2% to
98.9%; on a whole 卷 the file's own counts dominate.

``margin`` (the log-probability gap to the best split elsewhere, at least two
characters away) tells the reader how sure the choice is.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from operator import itemgetter
from pathlib import Path
from typing import Iterable

START = "\x02"
END = "\x03"


def bigram_counts(texts: Iterable[str]) -> "Counter[tuple[str, str]]":
    """The bigrams of ``texts``, each framed by START and END."""
    # counted on one string in C, not one update per text (a file's certain stretches are thousands of
    # short texts): the join adds an END→START bigram between each two texts, taken out again
    texts = list(texts)
    seq = "".join([START + t + END for t in texts])
    out: Counter[tuple[str, str]] = Counter(zip(seq, seq[1:]))
    if len(texts) > 1:
        out[END, START] -= len(texts) - 1  # exactly the joins: what is left is the texts' own, if any
        if not out[END, START]:
            del out[END, START]
    return out


class CharModel:
    """A character bigram model, Witten-Bell-interpolated with an add-½ unigram.

    ``prior``: bigram counts learnt elsewhere, added to those of ``texts``.  A prior is read once
    and never changed (the shipped one, :func:`shipped_voices`): its context, unigram and type
    tallies are made once per prior (:func:`_tallies`), and each model adds only its own file's
    bigrams to them — the prior holds many times more bigrams than a file's certain stretches.
    """

    def __init__(self, texts: Iterable[str], prior: "Counter[tuple[str, str]] | None" = None) -> None:
        texts = list(texts)
        own = bigram_counts(texts)
        #: the two tables are kept apart and a bigram's count is asked of both (:meth:`count`): merging
        #: them cost a Python step per bigram of the file, for the few thousand a split asks about
        self._own = own
        self._prior: Counter[tuple[str, str]] = prior or Counter()  # weight 1: 0.25 and 0.5 measured no better (closing note of #4)
        if prior:
            base = _tallies(prior)
            self.contexts: Counter[str] = Counter(base.contexts)
            self.unigrams: Counter[str] = Counter(base.unigrams)
            self.types = dict(base.types)
            # each of the file's bigrams asked of the prior's key set, in C: a difference of the key views
            # (``own.keys() - prior.keys()``) walks the prior's bigrams instead, and a comprehension is a
            # Python step per bigram
            new: Iterable[tuple[str, str]] = set(own).difference(base.keys)  # (in C: the file's bigrams, asked of a set)
        else:
            self.contexts, self.unigrams, self.types = Counter(), Counter(), {}
            new = own.keys()
        for a, n in Counter(map(itemgetter(0), new)).items():  # followers of ``a`` the prior has not seen
            self.types[a] = self.types.get(a, 0) + n
        # counted by whole strings in C: every character of a framed text but its END opens a
        # bigram, every one but its START closes one
        self.contexts.update("".join([START + t for t in texts]))
        self.unigrams.update("".join([t + END for t in texts]))
        self.total = sum(self.unigrams.values())
        self.vocab = len(self.unigrams) + 1
        self._cache: dict[tuple[str, str], float] = {}

    @property
    def bigrams(self) -> "Counter[tuple[str, str]]":
        """The bigram counts of the model: the file's and the prior's together (made when asked)."""
        out = Counter(self._prior)
        out.update(self._own)
        return out

    def count(self, key: tuple[str, str]) -> int:
        """How often the bigram ``key`` was seen, in the file and in the prior."""
        return self._own.get(key, 0) + self._prior.get(key, 0)

    def logp(self, a: str, b: str) -> float:
        """log P(b | a)."""
        key = (a, b)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        uni = (self.unigrams[b] + 0.5) / (self.total + 0.5 * (self.vocab + 1))
        c = self.contexts[a]
        if c > 0:
            t = self.types[a]
            lam = c / (c + t)
            p = lam * self.count(key) / c + (1 - lam) * uni
        else:
            p = uni
        val = math.log(p)
        self._cache[key] = val
        return val


@dataclass(frozen=True)
class _Tally:
    """What a :class:`CharModel` derives from a bigram table: the count of each context (first
    character), of each second character, and the number of distinct followers of each context."""

    contexts: "Counter[str]"
    unigrams: "Counter[str]"
    types: dict[str, int]
    #: the bigrams of the table, as a set: what a file's own bigrams are asked of (:class:`CharModel`)
    keys: frozenset[tuple[str, str]]


#: id(prior) → (the prior, its tallies): the prior is kept so that its id is not reused
_TALLIES: dict[int, tuple["Counter[tuple[str, str]]", _Tally]] = {}


def _tallies(prior: "Counter[tuple[str, str]]") -> _Tally:
    """The tallies of ``prior``, made on its first use."""
    hit = _TALLIES.get(id(prior))
    if hit is not None and hit[0] is prior:
        return hit[1]
    contexts: Counter[str] = Counter()
    unigrams: Counter[str] = Counter()
    types: dict[str, int] = {}
    for (a, b), k in prior.items():
        contexts[a] += k
        unigrams[b] += k
        types[a] = types.get(a, 0) + 1
    tally = _Tally(contexts, unigrams, types, frozenset(prior))
    _TALLIES[id(prior)] = (prior, tally)
    return tally


@dataclass(frozen=True)
class Split:
    """``text[:at]`` is 注, ``text[at:]`` is 经; ``margin`` in nats over the best rival split."""

    at: int
    margin: float
    score: float = 0.0


def best_split(text: str, zhu: CharModel, jing: CharModel, *, lo: int = 1, min_part: int = 1,
               bonus: dict[int, float] | None = None, length_prior: "LengthPrior | None" = None) -> Split:
    """The most likely point where 注 gives way to 经, both parts non-empty.

    Score of a split at ``k``: log P_注(START text[:k] END) + log P_经(START text[k:]),
    computed for every ``k`` in one pass with prefix and suffix sums, plus the
    log-probability of a 注 of ``k`` characters and any ``bonus[k]`` the caller's
    knowledge adds; splits before ``lo``, or leaving either part shorter than
    ``min_part`` characters (when the text is long enough for that), are not
    considered.  ``text`` must hold at least two characters.
    """
    n = len(text)
    if n < 2:
        raise ValueError("a split needs at least two characters")
    # prefix[k]: log P_注 of START text[:k] (transitions inside the 注 part)
    prefix = [0.0] * (n + 1)
    prev = START
    for i, ch in enumerate(text):
        prefix[i + 1] = prefix[i] + zhu.logp(prev, ch)
        prev = ch
    # suffix[k]: log P_经 of text[k:] given that text[k] follows START
    suffix = [0.0] * (n + 1)
    for k in range(n - 1, 0, -1):
        suffix[k] = suffix[k + 1] + (jing.logp(text[k], text[k + 1]) if k + 1 < n else 0.0)
    scores: list[tuple[float, int]] = []
    bonus = bonus or {}
    edge = min_part if n >= 2 * min_part else 1
    first = max(edge, min(lo, n - edge))
    for k in range(first, n - edge + 1):
        s = prefix[k] + zhu.logp(text[k - 1], END) + jing.logp(START, text[k]) + suffix[k]
        if length_prior is not None:
            s += length_prior.logp(k)
        scores.append((s + bonus.get(k, 0.0), k))
    best_score, best_k = max(scores)
    rivals = [s for s, k in scores if abs(k - best_k) >= 2]
    margin = best_score - max(rivals) if rivals else math.inf
    return Split(best_k, margin, best_score)


class LengthPrior:
    """How long a 注 is: a smoothed histogram of the lengths seen (Laplace kernel, with a floor).

    Why: a one-character 注 is all but unknown, and the character models alone
    happily cut a 注 after its first word when that word is also common in the 经.
    """

    def __init__(self, lengths: Iterable[int], width: float = 2.0) -> None:
        self.counts = Counter(lengths)
        self.total = sum(self.counts.values())
        self.width = width
        self._cache: dict[int, float] = {}

    def logp(self, n: int) -> float:
        hit = self._cache.get(n)
        if hit is None:
            mass = sum(v * math.exp(-abs(n - k) / self.width) for k, v in self.counts.items())
            hit = math.log(mass / max(self.total, 1) + 1e-4)
            self._cache[n] = hit
        return hit


def whole_zhu(text: str, zhu: CharModel) -> float:
    """log P_注(START text END): the score of reading all of ``text`` as 注 (no split)."""
    prev = START
    total = 0.0
    for ch in text:
        total += zhu.logp(prev, ch)
        prev = ch
    return total + zhu.logp(prev, END)


#: The shipped prior (see the module docstring), in ``jiaokan/data``.
VOICES_FILE = "zhushu_voices.tsv"


def read_voices(path: str | Path | None = None) -> dict[str, "Counter[tuple[str, str]]"]:
    """Bigram counts per voice (``jing``, ``zhu``) from a voices table (the shipped one when ``path`` is None).

    The table has one ``voice<TAB>bigram<TAB>count`` row per bigram, ``^`` and ``$``
    standing for START and END; ``#`` lines are comments.  A malformed row is a
    ValueError naming the file and line.
    """
    if path is None:
        text = resources.files("jiaokan").joinpath("data", VOICES_FILE).read_text(encoding="utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    fast = _read_voices_whole(text)
    if fast is not None:
        return fast
    out: dict[str, Counter[tuple[str, str]]] = {"jing": Counter(), "zhu": Counter()}
    edge = {"^": START, "$": END}
    for n, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or len(fields[1]) != 2 or not fields[2].isdigit():
            raise ValueError(f"{path or VOICES_FILE}:{n}: expected 'voice<TAB>two characters<TAB>count', "
                             f"got {line[:40]!r}")
        voice, pair, count = fields
        a, b = pair[0], pair[1]
        counts = out.get(voice)
        if counts is None:  # (not setdefault: it made a Counter for every row, and a generator a row for the edges)
            counts = out[voice] = Counter()
        counts[edge.get(a, a), edge.get(b, b)] += int(count)
    return out


#: A row of one voice the table is read in C for (:func:`_read_voices_whole`): its bigram and count.
_VOICE_ROW_RE = {voice: re.compile(rf"^{voice}\t([^\t\n]{{2}})\t(\d+)$", re.M) for voice in ("jing", "zhu")}


def _read_voices_whole(text: str) -> dict[str, "Counter[tuple[str, str]]"] | None:
    """:func:`read_voices` of a well-formed table, read by whole-text regexes in C; None for any other
    (a malformed row, another voice, a bigram given twice, a line end other than ``\\n``): the row loop
    then reads it, and says what is wrong.

    Why: every process that reads a 注疏 file reads the shipped table (12,000 rows), both of them at ``-j 2``,
    and a Python step per row was a sixtieth of a second.  The counts are the same, in the same order.
    """
    lines = text.split("\n")
    if len(text.splitlines()) != len(lines) - (text.endswith("\n") or not text):
        return None  # a line end splitlines knows and the regexes do not (\r, \x1c …)
    data = len(lines) - lines.count("") - text.count("\n#") - text.startswith("#")  # rows: not blank, not '#'
    edged = text.replace("^", START).replace("$", END)  # (only the bigrams are read from it: the voices are fixed)
    out: dict[str, Counter[tuple[str, str]]] = {}
    for voice, row in _VOICE_ROW_RE.items():
        rows = row.findall(edged)
        pairs = "".join(map(itemgetter(0), rows))
        counts = out[voice] = Counter()
        dict.update(counts, zip(zip(pairs[0::2], pairs[1::2]), map(int, map(itemgetter(1), rows))))  # (set, not added)
        if len(counts) != len(rows):
            return None  # a bigram given twice: its counts add up, in the row loop
        data -= len(rows)
    return out if data == 0 else None


def format_voices(voices: dict[str, "Counter[tuple[str, str]]"], header: str = "") -> str:
    """The table :func:`read_voices` reads, sorted so that a rebuild diffs cleanly."""
    mark = {START: "^", END: "$"}
    lines = [f"# {h}" for h in header.splitlines()]
    for voice in sorted(voices):
        for (a, b), k in sorted(voices[voice].items()):
            lines.append(f"{voice}\t{mark.get(a, a)}{mark.get(b, b)}\t{k}")
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=1)
def shipped_voices() -> dict[str, "Counter[tuple[str, str]]"]:
    return read_voices()
