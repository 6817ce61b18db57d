"""張淳《儀禮識誤》 as a claims source: each entry parsed into claims and checked against every collated witness.

An entry (:mod:`jiaokan.readers.formats.mandoku.shiwu` gives one ``commentary`` piece per
entry) reads::

    撤　經曰徹筮席注曰徹去也按釋文寫注作撤…從釋文
    ^headword  ^place (經曰/注曰/記曰/傳曰/疏曰 …)  ^what editions read (按…)  ^his choice (從…)

The headword is the reading 張淳 settles on; the quotation is the place as the texts of
his day read it.  What the entry claims, by its shape (:func:`parse_entry`):

``substitution``
    the quotation has another character where he reads the headword (``撤`` for ``徹``): the
    character is the one the entry says is written for it (``…作撤``, ``撤…作徹``), or the
    one quoted character that the collation's variant fold makes one with the headword;
``addition``
    ``此下有X字`` (``衣　注曰…則此亦𤣥矣按疏此下有衣字``): X belongs after the quotation's 此
    (the 注疏 reads 則此衣亦𤣥矣), or after the quotation when it has no 此;
``omission``
    ``無X字`` (``布　經曰媵布席于奥按釋文云媵席中無布字``): X does not belong in it;
``comment``
    anything else (a transposition, a note on usage), and an entry whose headword is
    illegible (□): recorded, not checked.

Besides, every ``ED…A作B`` names what an edition reads (監本, 巾箱本, 杭本, 嚴本, 諸本, 今本,
釋文, 疏): recorded as claims about that edition; no witness here is one of those prints,
so they stay unchecked (the 釋文 is the 注疏's 音義, and is checked by the 案 engine's rules
where a 案 cites it, not here).

The check (:func:`check_entry`) finds the quoted place in each witness's text of the 篇
and layer (經 in 经 and 传, 注 in 注, 疏 in 疏): the characters around the disputed one, on
the collation's folded keys, and reads what the witness has there, in its own
characters.  ``confirmed``: it reads as 張淳 chose; ``contradicted``: it reads otherwise
(the reading is given); ``not covered``: the place is not found, or found more than once
with different readings, or the witness's character is a variant form of both (uncertain,
with the reason).  The verdict records are the 案 engine's :class:`~.verdict.ClaimEvidence`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model import UNKNOWN_MARKS, Note, Piece, Witness
from ..normalize import is_ignorable, key
from ..normalize.ignorable import strip_ignorable
from .folded import FoldedText, FoldedTexts, first_keys
from .verdict import ClaimEvidence, Kind, Verdict

#: The editions an entry names, and the role name a claim about each is recorded under.
EDITIONS = {"監本": "jianben", "巾箱本": "jinxiangben", "杭本": "hangben", "嚴本": "yanben", "諸本": "zhuben",
            "今本": "jinben", "釋文": "shiwen", "疏": "shu", "石經": "shijing", "蜀本": "shuben"}
PLACE_RE = re.compile(r"(經|注|記|傳|疏)曰")
ED_RE = re.compile(r"(監本|巾箱本|杭本|嚴本|諸本|今本|釋文|蜀本|石經)")
#: ``A作B`` right after an edition's name (``按監本日作曰``: 監本 has 曰 where the quotation has 日).
ED_READS_RE = re.compile(r"(?P<ed>監本|巾箱本|杭本|嚴本|諸本|今本|釋文|蜀本|石經)(?:[^按從作]{0,6}?)"
                         r"(?P<a>[^按從作云誤皆])(?:皆)?誤?作(?P<b>[^按從作云])")
#: Where the quotation ends: his 按, or an edition named right after it (``注曰古文常為祥監本古誤作吉從諸本``).
QUOTE_END_RE = re.compile(r"按|案|監本|監及|監巾箱|監杭|巾箱|杭本|嚴本|吉觀國")
ADD_RE = re.compile(r"(?P<here>此)?下有(?P<x>\S{1,3}?)字")
OMIT_RE = re.compile(r"(?:中)?無(?P<x>\S)字")
CHOICE_RE = re.compile(r"(?:竝|並|二字|皆)?從(?P<src>[^從]{1,6}?)$")
#: Which layers of a witness a quotation of each kind is looked for in.
LAYERS_OF = {"經": ("jing", "zhuan"), "記": ("jing",), "傳": ("zhuan", "jing"), "注": ("zhu",), "疏": ("shu",)}
CONTEXT = 3


@dataclass
class Entry:
    """One 識誤 entry and what it claims."""

    id: str  # the piece id
    pian: str
    headword: str
    text: str  # the whole entry as he wrote it (the editors' notes left out)
    places: list[tuple[str, str]] = field(default_factory=list)  # (經/注/…, quotation)
    kind: str = "comment"  # substitution, addition, omission, comment
    rejected: str | None = None  # the reading he corrects (substitution)
    at: str | None = None  # the quoted character at the disputed place, when it is not ``rejected``
    after_ci: bool = False  # an addition after the quotation's 此 (此下有X字), not after its end
    editions: list[tuple[str, str, str]] = field(default_factory=list)  # (edition, quoted, reads)
    source: str | None = None  # whence his choice (從釋文 → 釋文)
    notes: list[str] = field(default_factory=list)  # the 四库 editors' (案…) on the entry
    page: str | None = None
    line: int | None = None
    claims: list[ClaimEvidence] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"id": self.id, "pian": self.pian, "headword": self.headword, "kind": self.kind,
                "rejected": self.rejected, "at": self.at, "places": [{"layer": a, "quote": b} for a, b in self.places],
                "editions": [{"edition": e, "quoted": a, "reads": b} for e, a, b in self.editions],
                "source": self.source, "notes": self.notes, "page": self.page, "line": self.line, "text": self.text,
                "claims": [c.to_dict() for c in self.claims]}


def entries_of(w: Witness) -> list[Entry]:
    """Every entry of a 識誤 witness (its pieces of subtype ``shiwu-entry``), parsed."""
    return [parse_entry(p, w.meta.chapter) for p in w.pieces() if p.subtype == "shiwu-entry"]


def parse_entry(p: Piece, pian: str = "") -> Entry:
    text = p.text.replace("\n", "")
    head, _, body = text.partition("\u3000")
    e = Entry(p.id or "", pian, head.strip(), text, page=p.loc.page, line=p.loc.line)
    e.notes = [n.text for n in p.content if isinstance(n, Note)]
    cut = QUOTE_END_RE.search(body)
    quoted, rest = (body[:cut.start()], body[cut.start():]) if cut else (body, "")
    marks = list(PLACE_RE.finditer(quoted))
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(quoted)
        e.places.append((m.group(1), quoted[m.end():end]))
    for m in ED_READS_RE.finditer(rest):
        e.editions.append((m.group("ed"), m.group("a"), m.group("b")))
    if choice := CHOICE_RE.search(body):
        e.source = choice.group("src")
    h = e.headword
    quote = "".join(q for _, q in e.places)
    if any(c in UNKNOWN_MARKS for c in h):
        return e  # the headword itself is illegible (□): what he chose cannot be known, so nothing is checked
    if len(h) == 1 and quote:
        if (add := ADD_RE.search(rest)) and add.group("x") == h:
            e.kind, e.after_ci = "addition", bool(add.group("here")) and "此" in quote
        elif (omit := OMIT_RE.search(rest)) and omit.group("x") == h and h in quote:
            e.kind = "omission"
        elif h not in quote:
            x = _rejected(h, quote, rest)
            if x is not None:
                e.kind, e.rejected = "substitution", x
        elif (wrong := next((b for _, a, b in e.editions if a == h and b != h), None)) is not None:
            # the quotation reads as he chose and an edition errs (``監本古誤作吉從諸本``): checked the same way
            e.kind, e.rejected, e.at = "substitution", wrong, h
    return e


def _rejected(h: str, quote: str, rest: str) -> str | None:
    """The quoted character the headword replaces: named by an ``作`` in the entry, else one with its fold key.

    A quoted character that is a variant form of the headword (the same fold key), and the only one, is the
    place whatever an ``A作B`` in the entry says: 賫 ``注曰齎猶付也…九經字様云齎持遺也作賫者訛`` argues 齎
    against 賫, and the ``也作賫`` of the gloss he cites names no reading of the quotation."""
    same = {c for c in quote if c != h and key(c) == key(h)}
    if len(same) == 1:
        return same.pop()
    for m in re.finditer(r"(\S)作(\S)", rest):
        a, b = m.group(1), m.group(2)
        if b == h and a in quote:
            return a
        if a == h and b in quote:
            return b
        if b in quote and b != h and a not in quote and (a == h or key(a) == key(h)):
            return b
    # ``按釋文云眂音視本或作視``: the character the gloss reads it as, written for it
    for m in re.finditer(r"作(\S)", rest):
        if m.group(1) in quote and m.group(1) != h:
            return m.group(1)
    return None


# --------------------------------------------------------------------------
# The check


def _fold(s: str) -> str:
    return first_keys(strip_ignorable(s))


def _read_at(t: FoldedText, left: str, right: str, width: int) -> tuple[set[str], int]:
    """What ``t`` reads between ``left`` and ``right`` (``width`` characters; 0: nothing), at every match.

    The matches of ``left + width characters + right`` in the keys, left to right and not overlapping
    (as ``re.finditer`` would find them), by ``str.find`` in C: a regular expression compiled for every
    quotation cost more than the search, and the check makes one for every entry and witness."""
    lk, rk, keys = _fold(left), _fold(right), t.keys
    span = len(lk) + width + len(rk)
    found: set[str] = set()
    n = 0
    pos = 0
    while True:
        if lk:
            s = keys.find(lk, pos)
            if s < 0:
                break
            if not keys.startswith(rk, s + len(lk) + width) or s + span > len(keys):
                pos = s + 1
                continue
        else:  # (a context always has characters on one side at least: :func:`_contexts`)
            j = keys.find(rk, pos + width)
            if j < 0:
                break
            s = j - width
        found.add(t.chars[s + len(lk):s + len(lk) + width])
        n += 1
        pos = s + max(span, 1)
    return found, n


def check_entry(e: Entry, witnesses: dict[str, Witness], texts: FoldedTexts | None = None) -> None:
    """Fill ``e.claims``: the entry's checkable claim against every witness, and its claims about editions.

    ``texts``: the witnesses' layer texts made for the entries before (made once per witness and layers)."""
    texts = FoldedTexts() if texts is None else texts
    for k, (ed, a, b) in enumerate(e.editions):
        e.claims.append(ClaimEvidence(f"{e.id}.ed{k + 1}", "variant", lemma=a, reading=b,
                                      target=EDITIONS.get(ed, ed), rule="edition-unchecked",
                                      why=f"{ed} reads {b} for {a}: no witness here is the {ed}"))
    if e.kind == "comment" or not e.places:
        return
    layer, quote = next(((lay, q) for lay, q in e.places if (e.at or e.rejected or e.headword) in q), e.places[-1])
    for s, w in witnesses.items():
        verdict, reading, why = _verdict(e, quote, texts.get(w, LAYERS_OF.get(layer, ("jing",))))
        kind: Kind = "variant" if e.kind == "substitution" else "addition" if e.kind == "addition" else "omission"
        e.claims.append(ClaimEvidence(
            f"{e.id}@{s}", kind,
            lemma=e.rejected if e.kind == "substitution" else ("" if e.kind == "addition" else e.headword),
            reading=e.headword if e.kind != "omission" else "", target=w.meta.role or s, verdict=verdict,
            rule=f"shiwu-{e.kind}", why=why, anchor=_anchor(quote, e), place=f"{e.page}:{e.line}",
            witness=s, readings={s: reading}))


def _anchor(quote: str, e: Entry) -> str:
    x = e.at or e.rejected or e.headword
    i = quote.find(x) if e.kind != "addition" else len(quote)
    if i < 0:
        return quote
    return quote[max(0, i - 6):i] + "【" + (x if e.kind != "addition" else "") + "】" + quote[i + len(x):i + len(x) + 6]


def _contexts(quote: str, i: int, n: int) -> list[tuple[str, str]]:
    """Left and right contexts of quote[i:i+n], widest first (a match needs two characters on each side, or three on one)."""
    q = [c for c in quote]
    left, right = "".join(q[max(0, i - CONTEXT):i]), "".join(q[i + n:i + n + CONTEXT])
    if i < 0:
        return []
    out = [(left, right), (left[-2:], right[:2])]
    if len(left) >= 3:
        out.append((left, ""))
    if len(right) >= 3:
        out.append(("", right))
    return [(a, b) for a, b in out if len(a) + len(b) >= 3]


def _verdict(e: Entry, quote: str, t: FoldedText) -> tuple[Verdict, str, str]:
    h = e.headword
    quote = "".join(c for c in quote if not is_ignorable(c))
    if e.kind == "substitution":
        x = e.rejected or ""
        at = e.at or x
        i = quote.find(at + at)
        # a doubled character (其有來者者: 監本 drops one, 張淳 reads 者與) is about the second of the two
        i = i + 1 if i >= 0 else quote.find(at)
        for left, right in _contexts(quote, i, 1):
            found, n = _read_at(t, left, right, 1)
            if not found:
                continue
            if len(found) > 1:
                return "not covered", "/".join(sorted(found)), f"the place ({left}_{right}) is found {n} times with different readings: uncertain"
            r = found.pop()
            return _judge(r, h, x, f"at {left}_{right}")
        return "not covered", "—", "the quoted place is not found in this witness"
    if e.kind == "addition":
        # 此下有X字: after the quotation's 此 (``則此亦𤣥矣…此下有衣字``: 則此衣亦𤣥矣); 下有X字: after it all
        i = quote.rfind("此") + 1 if e.after_ci else len(quote)
        for left, right in _contexts(quote, i, 0):
            with_h, _ = _read_at(t, left, right, len(h))
            without, _ = _read_at(t, left, right, 0)
            if with_h and not without:
                r = with_h.pop()
                if r == h or key(r) == key(h):
                    return "confirmed", r, f"{h} stands at {left}_{right}, as the entry says it should"
            if without and not with_h:
                return "contradicted", "", f"this witness reads {left}{right}, without {h}"
        return "not covered", "—", "the quoted place is not found in this witness (or not once)"
    if e.kind == "omission":
        i = quote.find(h)
        for left, right in _contexts(quote, i, 1):
            with_h, _ = _read_at(t, left, right, 1)
            without, _ = _read_at(t, left, right, 0)
            if with_h and not without:
                r = with_h.pop()
                if key(r) == key(h):
                    return "contradicted", r, f"this witness has {r} at {left}_{right}, which the entry says is not there"
            if without and not with_h:
                return "confirmed", "", f"this witness reads {left}{right}, without {h}, as the entry says"
        return "not covered", "—", "the quoted place is not found in this witness"
    return "not covered", "—", "not checked"


def _judge(r: str, h: str, x: str, where: str) -> tuple[Verdict, str, str]:
    if r == h:
        return "confirmed", r, f"reads {h} {where}, as 張淳 chose"
    if r == x:
        return "contradicted", r, f"reads {x} {where}, the reading 張淳 corrects"
    kr, kh, kx = key(r), key(h), key(x)
    if kr == kh and kh != kx:
        return "confirmed", r, f"reads {r} {where}, a form of {h} (as 張淳 chose)"
    if kr == kx and kh != kx:
        return "contradicted", r, f"reads {r} {where}, a form of {x} (the reading 張淳 corrects)"
    if kr == kh == kx:
        return "not covered", r, f"reads {r} {where}, a form of both {h} and {x}: uncertain"
    return "contradicted", r, f"reads {r} {where}: neither {h} nor {x}"


def check_pian(sw: Witness, witnesses: dict[str, Witness], texts: FoldedTexts | None = None) -> list[Entry]:
    """Every entry of a 篇's 識誤 witness, parsed and checked against the 篇's witnesses (siglum → witness).

    ``texts``: pass one for all the 識誤 witnesses of a build, so that a 篇's texts are made once
    however many 識誤 witnesses check them."""
    texts = FoldedTexts() if texts is None else texts
    out = entries_of(sw)
    for e in out:
        check_entry(e, witnesses, texts)
    return out


def verdict_counts(entries: list[Entry]) -> dict[str, dict[str, int]]:
    """Siglum → verdict → claims (the claims checked against a witness only)."""
    out: dict[str, dict[str, int]] = {}
    for e in entries:
        for c in e.claims:
            if c.witness is None:
                continue
            d = out.setdefault(c.witness, {"confirmed": 0, "contradicted": 0, "not covered": 0})
            d[c.verdict or "not covered"] += 1
    return out


__all__ = ["Entry", "check_entry", "check_pian", "entries_of", "parse_entry", "verdict_counts"]
