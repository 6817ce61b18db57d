"""Parse the 四库 editors' 案 notes of the 集释 into :class:`NoteRecord` collation claims.

A 案 note is a short sentence in a small, formulaic language::

    案比今注疏本讹作北据唐石经及宋本改正
    ^  ^ ^^^^^^^^ ^^^^ ^ ^^^^^^^^^^^^^^^^^^
    |  | target   verb | evidence + emendation verb
    |  lemma           reading

It sits right after the characters it discusses.  :func:`parse_note` turns one joined
note (brackets, ``/`` and line breaks already removed, starting with 案) into a record
that later stages can use without reading Chinese: the *anchoring* stage finds the
lemma or insertion point in the layer text from ``lemma`` + ``position``; the
*application* stage builds emended readings (``target == "self"``) or checks the
claim against the aligned 注疏 witness (``target == "zhushu"``).

Design
------
* The grammar is data: the claim shapes are :data:`RULES` (one :class:`Rule` each: name,
  kind, pattern, real examples that are its test), the clauses that may follow a claim and
  the keywords of argued conjectures are the other entries of :data:`GRAMMAR`; all are
  built from the named fragments in :data:`FRAGMENTS` and the word lists of :mod:`.lexicon`
  (witnesses, sources, verbs, scope markers).  Rules are written once, in simplified
  characters; this module is the parser, :mod:`.lexicon` the words.  What later stages
  need is a field of the record (``moved_to``, ``transposed``, ``between``), never a test
  on a rule's name.
* Formula words are read with tolerance: a note that does not parse as written is tried
  again with one slipped character of a witness name (fuzzy: the rest of the name stands)
  or of a formula character (:data:`~.lexicon.FORMULA_SLIPS`: 宇 for 字); the record's
  ``slips`` says where.
* Notes are matched on a *folded* copy of the text (:func:`fold_note_text`): every character is
  mapped to its simplified form one-for-one (OpenCC ``t2s`` per character, plus the
  odd forms of these texts: 宋夲, 𥙷, 郷/鄕, 脫 …).  Because folding never changes the
  length, every span found in the folded text is cut from the *original* text: lemma,
  reading and source names keep the characters of the witness.
* A note is read as: one *claim* (at its start, or found by a keyword such as 当作 /
  衍 / 误倒 when the note opens with an argument), then a *tail* of evidence clauses
  (据X改正, 从X补, X无, 考X内…, 又X引此注亦有…, X云…是也), scope markers (下同) and
  possibly further claims.  **The first claim drives the record; every further claim
  becomes a record of its own in** ``more`` (with its own ``raw`` clause); argument
  text that is not a clause of the grammar is kept verbatim in ``remark``.
* A note no rule understands becomes ``kind="comment"`` with ``rule="unparsed"``:
  kept and countable, never dropped, and :func:`parse_note` never raises.

Kinds (``lemma`` is always this text's reading, ``reading`` the other one):

``corruption``
    the target reads ``reading`` where this text reads ``lemma``, and the note calls it
    an error (讹/误 作); a transposition in the target (误倒) has ``reading`` = the lemma
    reversed.  The kind follows the note's verb: ``X今注疏本作Y据宋本改正`` stays a variant
    (the evidence clause says why this text reads X, not what the target's verb was).
``omission``
    the target lacks ``lemma`` (``reading`` is "").
``addition``
    the target has the extra characters ``reading`` at ``position`` (``lemma`` is "").
``variant``
    the target reads ``reading`` for ``lemma`` (作, with no 讹/误); also a text the target
    has elsewhere (rule ``transposition_moved``: 此七字今注疏本在下X之下).
``conjecture``
    this text's ``lemma`` should read ``reading`` (``target="self"``): ``reading`` ""
    means delete (衍), ``lemma`` "" means insert at ``position`` (疑脱), rule
    ``conjecture_transpose`` means swap.  A named proposer (敖继公云) is the first
    evidence.
``lacuna``
    this text's source (``yuanben``) has a gap at ``position``; ``count`` characters when
    stated.
``comment``
    a judgement that changes no reading (``rule="witness_judged"``: 唐石经作… 当是石经误倒,
    which keeps the target and its reading; ``rule="conjecture_rejected"``: 敖继公云X当作Y
    非是, which keeps the rejected lemma and reading), or a note no rule understands
    (``rule="unparsed"``).

``evidence`` lists the sources the note cites for its claim, in the order cited (据唐石经
及宋本, 从宋本, 宋本无, 考疏内…, 敖继公云…, 乡射云…是也).

Positions (how the anchoring stage finds the place; "before the note" means in the
layer text that precedes the note, same layer):

``preceding``
    the lemma is the *last occurrence* of ``lemma`` before the note (notes follow the
    phrase they discuss, not always the very character: ``比耦大夫與大夫(案比…)``).
``span:N``
    the lemma is the N characters immediately before the note (``脱此十四字``);
    the parser cannot know them, so ``lemma`` is ``""``.
``after``
    the point right after the text preceding the note (``此下``; also the default
    insertion point of additions and lacunae).  For an omission with ``此下`` the
    lemma starts there.
``after:X`` / ``before:X``
    the point right after / right before the last occurrence of X before the note
    (``周南下…``, ``告上…``).
``following``
    the lemma is the *first occurrence* of ``lemma`` after the note (a second claim
    introduced by 下文).
``sentence``
    the whole sentence (clause) before the note (此句今注疏本脱).
``piece`` / ``passage``
    the whole piece before the note (此注…), or the passage's 经 with its 注 (此經文及注…).
``near``
    the note does not quote this witness's reading (``唐石经作賓席之前…``): anchor by
    matching ``reading`` approximately against the text just before the note.
``none``
    nothing to anchor (unparsed comments).

Targets: ``zhushu`` (今注疏本, 注疏本, 监本 …: the current 注疏 edition, our ZS witness),
``self`` (this text: conjectures), ``yuanben`` (原本: this text's source copy before the
editors' emendations; lacunae; corruptions the editors already corrected), and the
witness ids of :data:`WITNESSES` (``tangshijing``, ``songben``, ``shiwen`` …).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Iterable

import regex

from ..normalize.numerals import chinese_numeral
from ..normalize.script import s2t_char, t2s_char
from ..normalize.translate import LazyTable
from .lexicon import (
    EMENDATION_VERBS,
    EXTRA_FOLD,
    FORMULA_SLIPS,
    JUDGEMENT_OPENERS,
    LAYER_OF_PREFIX,
    REJECTIONS,
    SCOPE_BELOW,
    SCOPE_ZHU,
    SHARED_FORMS,
    SOURCES,
    WITNESSES,
)
from .pattern_cache import compile_patterns
from .verdict import KINDS, Kind

__all__ = [
    "KINDS",
    "SCOPES",
    "FRAGMENTS",
    "GRAMMAR",
    "Source",
    "NoteRecord",
    "parse_note",
    "join_note_text",
    "fold_note_text",
    "detect_script",
    "supplied_start",
]

#: ``here``: this occurrence; ``below``: this and later occurrences (下同); ``zhu``: this one and those in the
#: 注 that follow it, up to the next 经 that has it again (注同).
SCOPES: tuple[str, ...] = ("here", "below", "zhu")

# ---------------------------------------------------------------------------
# Grammar (built from the word lists of :mod:`.lexicon`)
# ---------------------------------------------------------------------------


def _alt(names: Iterable[str]) -> str:
    """A regex alternation of literal names, longest first (the regex takes the first that fits).

    Written as a tree of their first characters (``今(?:本(?:注疏|)|注(?:疏(?:木|本|)))``), which the
    regex walks a character at a time where the flat list (``今本注疏|今注疏木|…|今本``) was tried name by
    name at every position of every rule: the claim rules matched a quarter faster.  It matches the same:
    two names can both fit at one place only if one begins the other, and the longer is still tried first.
    """
    return _tree_of(frozenset(names))


@lru_cache(maxsize=16)  # (the grammar spells the names of the witnesses and of the sources out a dozen times)
def _tree_of(names: frozenset[str]) -> str:
    return _tree(sorted(names, key=lambda s: (-len(s), s)))


def _tree(names: list[str]) -> str:
    """:func:`_alt` of ``names`` (longest first), grouped by first character; a name ending here ("") last."""
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(n[:1], []).append(n[1:])
    parts = [regex.escape(c + rest[0]) if len(rest) == 1 else f"{regex.escape(c)}(?:{_tree(rest)})"
             for c, rest in groups.items() if c]
    return "|".join(parts + [""] if "" in groups else parts)


_MULTI_SOURCES = [n for n in SOURCES if len(n) >= 2]

#: Named pattern fragments; ``{NAME}`` in a rule is replaced by ``(?:fragment)``.
FRAGMENTS: dict[str, str] = {
    # one character of text: a Han character, 〇, or a gaiji entity (&KR0925;)
    # (U+FFFD: a gaiji the reader could not resolve, still one character of the text)
    "H": r"&[A-Za-z0-9_]+;|[\p{Han}〇○□\ufffd]",
    "NUM": r"[一二三四五六七八九十百两廿卅]+",
    # a character of a lemma read before a witness name: not the start of a witness name
    # (唐石经作… must not read as lemma 唐 + witness 石经)
    "LH": r"(?!{WIT}){H}",
    "WIT": _alt(WITNESSES),
    # a clause set between a lemma and the witness of the claim: a co-witness (唐石经与此同) or a
    # gloss on the lemma (纍即累); its sources are evidence (group ``aside``)
    "ASIDE": r"(?P<aside>(?:{SRCS})(?:与此|亦)?同|即{H}{1,2}?(?=(?:{WIT})))",
    # one or more witnesses: 今注疏本及监本
    "WITS": rf"(?:{_alt(WITNESSES)})(?:(?:及|与|、|并)?(?:{_alt(WITNESSES)}))*",
    "SRC": rf"(?:{_alt(SOURCES)})(?:疏|注)?",
    # sources joined by 及 / 与 / 并 / 、
    "SRCS": rf"(?:{_alt(SOURCES)})(?:疏|注)?(?:(?:及|与|暨|并|、|和)?(?:{_alt(SOURCES)})(?:疏|注)?)*",
    # verbs that close an evidence clause: 据宋本改正 / 从宋本补 / 据宋本删
    "VERB": "|".join(EMENDATION_VERBS),
    "BELOW": "|".join(SCOPE_BELOW),
    "ZHU_TOO": "|".join(SCOPE_ZHU),
    # a locator before the witness: 此下 / 此上 / X下 / X上
    "LOC": r"此下|此上|以下|此条之前|此节之前|此条前|此节前|(?:&[A-Za-z0-9_]+;|[\p{Han}〇○]){1,6}?(?:下|上)",
    # where a reading (other witness / proposed) ends: an evidence verb, a source, a scope
    # marker, 字, or the end of the note.  Single-character sources (疏, 注) are left out
    # so that they can occur inside a reading.
    "TERM": rf"(?=据|依|从|照|今|考|又|是也|当是|当作|当为|疑|似|盖|乃(?:误|讹)|因(?:{_alt(_MULTI_SOURCES)})|应(?:从|同|作|为)|即(?:{{H}}){{1,4}}?之(?:俗|古|或|别|省|本)(?:体|字)|(?:{{H}}){{0,2}}古(?:字)?通用|(?:{{H}}){{0,2}}通用|下文|凡{{NUM}}字|注(?:并|皆)?同|(?:并|皆|俱)(?:据|依|从|衍|为衍|误|讹|脱|非)|疏(?:内|中|云|曰|引)|云(?:本又|本亦|又作|亦作|或作)|之讹|之误|删去|字|以下|下同|下并|下皆|后同|与(?:{_alt(SOURCES)})|{_alt(WITNESSES)}|{_alt(_MULTI_SOURCES)}|$)",
}


def _expand(pattern: str) -> str:
    """A rule as ``regex`` compiles it: its ``{NAME}`` fragments expanded (fragments may use fragments)."""
    for _ in range(4):
        for name, frag in FRAGMENTS.items():
            pattern = pattern.replace("{" + name + "}", f"(?:{frag})")
    return pattern


#: The note grammar: named rules on the *folded* text after 案.  Claim rules are tried at
#: the start of the note (and of every tail clause), in this order; ``search_*`` rules are
#: keywords looked for anywhere when the note opens with an argument; ``ev_*``/``tail_*``
#: rules are the clauses that may follow a claim.
@dataclass(frozen=True)
class Rule:
    """One shape of claim of the note grammar: the data a new shape of note needs, in one place.

    ``pattern`` is matched on the folded note (:func:`fold_note_text`) at the start of a note or
    clause; ``{NAME}`` stands for a fragment of :data:`FRAGMENTS` (witness names, sources,
    numerals …).  Its named groups carry what the record needs: ``wit`` (the witness the claim is
    about), ``lbody`` (this text's lemma), ``reading``, ``body`` (the characters after 脱/衍/有),
    ``loc``/``loc2`` (a locator: 此下, X上), ``n`` (a count), ``srcs`` (sources cited), ``dest`` and
    ``side`` (where the target has the text), ``after``/``before`` (the parts of a place claim).
    ``kind`` is the kind of claim it makes; ``examples`` are real notes with what the record
    must say (``kind``, ``lemma``, ``reading``, ``target``, ``position``): the rule's test.
    ``start_only``: a shape for a whole note, never a clause after a claim.
    """

    name: str
    kind: Kind
    pattern: str
    examples: tuple[tuple[str, dict[str, Any]], ...] = ()
    start_only: bool = False
    doc: str = ""


#: The claim shapes of the note grammar, in the order they are tried at the start of a note (and
#: of a clause after a claim).  **Adding a 案 shape is adding a rule here** (see the README,
#: "Adding a 案 shape"): its pattern (on the folded note, with ``{FRAGMENTS}``), the kind of
#: claim it makes, and real notes with what the record must say (they are its test,
#: ``tests/test_an_rules.py``).  How a match becomes a record (lemma, reading, position) is read
#: from its named groups by :func:`_claim_from_match`.
RULES: tuple[Rule, ...] = (
    Rule(
        "supplied", "lacuna",
        r"(?P<loc>此下|以下)?(?:永乐大典|大典)(?:内|中)?(?:删去|删|阙|缺)(?:原文)?",
        examples=(
            ('案此下永樂大典内刪去原文今取疏義補之',
             {'kind': 'lacuna', 'lemma': '', 'reading': '', 'target': 'yuanben', 'position': 'after'}),
        ),
        doc='此下永乐大典内删去原文…今取疏义补之: the following text was supplied by the editors',
    ),
    Rule(
        "placed_between", "variant",
        (r"(?P<lbody>此(?P<n>{NUM})字|{H}{1,6}?以下(?P<n>{NUM})字|以上注文|以上注|此注文?|此经文?)(?P<wit>{WITS})"
        r"(?:并|亦|皆)?(?P<verb>讹|误)?(?:在|列在|移在)(?P<after>经文|经|注文|注|传文|传)(?:之)?下"
        r"(?P<before>传曰|传文|传|经文|经|注文|注)(?:之)?上"),
        examples=(
            ('案此注今注疏本在經文下𫝊曰上',
             {'kind': 'variant', 'lemma': '', 'reading': '', 'target': 'zhushu', 'position': 'piece'}),
            ('案舊讀以下三十二字各本訛在經之下傳曰之上文勢遂不相貫今改正',
             {'kind': 'corruption', 'lemma': '', 'reading': '', 'target': 'zhuben', 'position': 'span:32'}),
        ),
        doc=('此注今注疏本在经文下传曰上 / 以上注文…在经之下传曰之上 / 舊讀以下三十二字各本訛在經之下傳曰之上: the target sets this text between two '
             'parts of the passage (a place claim, checked by position)'),
    ),
    Rule(
        "transposition_moved", "variant",
        (r"(?P<lbody>此(?P<n>{NUM})字|{H}{1,6}?至此(?P<n>{NUM})字|此经文?及注|此注|此经|此句)(?P<wit>{WITS})(?:并|亦|皆)?"
        r"(?:在|接|移)(?:于|在)?(?P<dir>上|下)?"
        r"(?:注|经文|经)?(?P<dest>{H}+?)(?:句)?(?:之)?(?P<side>下|上|前|后)(?=$|又|据|今|唐|宋|为|{WIT})"),
        examples=(
            ('案此七字今注疏本在下受福無疆之下',
             {'kind': 'variant', 'lemma': '', 'reading': '', 'target': 'zhushu', 'position': 'span:7'}),
            ('案凡天子諸侯至此五十四字注疏本接上注受猶承也之下',
             {'kind': 'variant', 'lemma': '', 'reading': '', 'target': 'zhushu', 'position': 'span:54'}),
        ),
        doc='此七字今注疏本在下受福无疆之下 / 此注今注疏本接上攸所也之下 / 此十二字今注疏本在皆所以养廉耻句下',
    ),
    Rule(
        "transposition_placed", "variant",
        (r"(?!{WIT})(?P<lbody>{LH}{1,4}?)(?:字)?(?P<wit>{WITS})(?P<verb>讹|误)?(?:在|移在|移于)(?P<dest>{H}{1,4}?)(?:字)?(?P<side>上|下)"
        r"(?=$|据|依|从|今|又|唐|宋)"),
        examples=(
            ('案衣字原本訛在明字上據疏文改正',
             {'kind': 'corruption', 'lemma': '明衣', 'reading': '衣明', 'target': 'yuanben', 'position': 'preceding'}),
        ),
        doc='衣字原本讹在明字上: the target had X on the other side of Y (this text: 明衣, 原本: 衣明)',
    ),
    Rule(
        "conjecture_span", "conjecture",
        r"此(?P<n>{NUM})字(?:有|疑有)?(?:脱误|讹误|讹脱|误|讹)(?:当云|当作|当为|疑当作)(?P<reading>{H}+?){TERM}",
        examples=(
            ('案此二字有脫誤當云石百二十斤',
             {'kind': 'conjecture', 'lemma': '', 'reading': '石百二十斤', 'target': 'self', 'position': 'span:2'}),
        ),
        doc='此二字有脱误当云石百二十斤: the N characters before the note are corrupt; what they should say',
    ),
    Rule(
        "lacuna", "lacuna",
        (r"(?:(?P<loc>{LOC}|此处|此))?(?P<wit>原本|原书|原|{WITS})?(?:此下|以下|此处)?(?:疑|似)?(?:有)?"
        r"(?:(?:缺|阙|残缺|残阙|空)(?:(?P<n>{NUM})字)?(?:文)?|(?:脱|阙|缺)(?:文|简)|脱|漫漶|模糊|漫灭|剥蚀|不可辨|不可识)"
        r"(?=$|今|据|考|又|未|无|不|应|当|疑)"),
        examples=(
            ('案此下原本缺',
             {'kind': 'lacuna', 'lemma': '', 'reading': '', 'target': 'yuanben', 'position': 'after'}),
            ('案此下原本空一字應是也字',
             {'kind': 'lacuna', 'lemma': '', 'reading': '', 'target': 'yuanben', 'position': 'after'}),
        ),
        doc=('-- claim rules (anchored) -------------------------------------------------------- 此下原本缺 / '
             '原本阙三字 / 此下阙文 / 此下疑有脱文 / 原本漫漶'),
    ),
    Rule(
        "transposition_wit_first", "corruption",
        r"(?:(?P<loc>{LOC}))?(?P<wit>{WITS})(?P<lbody>{LH}{2,12}?)(?:(?P<n>{NUM})字)?(?:并|亦|皆)?(?:误倒|倒误|互倒|倒置|误乙|颠倒|互易)",
        examples=(
            ('案今注疏本賓之二字誤倒據宋本乙正',
             {'kind': 'corruption', 'lemma': '賓之', 'reading': '之賓', 'target': 'zhushu', 'position': 'preceding'}),
        ),
        doc='今注疏本宾之二字误倒 / 宾之二字今注疏本误倒 (a transposition in the target)',
    ),
    Rule(
        "transposition_lemma_first", "corruption",
        r"(?!{WIT})(?P<lbody>{LH}{2,12}?)(?:(?P<n>{NUM})字)?(?P<wit>{WITS})(?:并|亦|皆)?(?:误倒|倒误|互倒|倒置|误乙|颠倒|互易)",
        examples=(
            ('案賓之二字今注疏本誤倒',
             {'kind': 'corruption', 'lemma': '賓之', 'reading': '之賓', 'target': 'zhushu', 'position': 'preceding'}),
        ),
        doc='',
    ),
    Rule(
        "omission_sentence", "omission",
        r"(?P<loc>此句|此节|此段|此条|此注|此经)(?P<wit>{WITS})(?:并|亦|皆)?(?:脱|夺|无|阙|缺)(?:去)?(?=$|据|依|从|今|考|又)",
        examples=(
            ('案此句今注疏本脱据宋本补',
             {'kind': 'omission', 'lemma': '', 'reading': '', 'target': 'zhushu', 'position': 'sentence'}),
        ),
        doc='此句今注疏本脱 (a whole sentence)',
    ),
    Rule(
        "omission_wit_first", "omission",
        (r"(?:(?P<loc>{LOC}))?(?P<wit>{WITS})(?:(?P<loc2>{LOC}))?(?:并|亦|皆)?(?:脱|夺|无|阙|缺|少|不重)(?:去)?"
        r"(?P<body>(?:此注文|此注|注文|此经文|经文|此句)?{H}+?)(?:字)?{TERM}"),
        examples=(
            ('案明監本脫左字',
             {'kind': 'omission', 'lemma': '左', 'reading': '', 'target': 'mingjianben', 'position': 'preceding'}),
            ('案為父後者為之服期各本脫一為字今據文義補',
             {'kind': 'omission', 'lemma': '為', 'reading': '', 'target': 'zhuben', 'position': 'preceding'}),
        ),
        doc='今注疏本脱遂字 / 今注疏本脱此十四字 / 此下今注疏本脱也字 / 原本脱者字',
    ),
    Rule(
        "addition_wit_first", "addition",
        (r"(?:(?P<loc>{LOC}))?(?P<wit>{WITS})(?:(?P<loc2>{LOC}))?(?:并|亦|皆)?(?:复衍|衍|多|重)(?:出)?"
        r"(?P<body>{H}+?)(?:字)?{TERM}"),
        examples=(
            ('案從下今注疏衍之字',
             {'kind': 'addition', 'lemma': '', 'reading': '之', 'target': 'zhushu', 'position': 'after:從'}),
        ),
        doc='此下今注疏本衍还字 / 告上今注疏本衍言字 / 今注疏本重也字',
    ),
    Rule(
        "addition_has", "addition",
        r"(?:(?P<loc>{LOC}))?(?P<wit>{WITS})(?:(?P<loc2>{LOC}))?(?:并|亦|皆)?(?:多|有)(?P<body>{H}+?)(?:凡{NUM})?字",
        examples=(
            ('案此下今注䟽有也字',
             {'kind': 'addition', 'lemma': '', 'reading': '也', 'target': 'zhushu', 'position': 'after'}),
            ('案此下今注疏本有也宇',
             {'kind': 'addition', 'lemma': '', 'reading': '也', 'target': 'zhushu', 'position': 'after'}),
        ),
        doc='此下今注疏本有也字宋本无',
    ),
    Rule(
        "omission_lemma_first", "omission",
        r"(?!{WIT})(?P<lbody>{LH}{1,12}?)(?:字)?{ASIDE}?(?P<wit>{WITS})(?:并|亦|皆)?(?:脱|夺|无|阙)(?:去)?(?=$|据|依|从|今|考|又)",
        examples=(
            ('案遂字今注疏本脱据宋本补',
             {'kind': 'omission', 'lemma': '遂', 'reading': '', 'target': 'zhushu', 'position': 'preceding'}),
        ),
        doc='遂字今注疏本脱',
    ),
    Rule(
        "conjecture_follow", "conjecture",
        (r"(?!{WIT})(?P<lbody>{LH}{1,12}?)(?:字)?(?:疑|亦)?(?:当|应|宜)(?:从|依|据)(?P<srcs>{SRCS})(?:作|为)"
        r"(?P<reading>{H}+?)(?:(?P<rn>{NUM})?字)?{TERM}"),
        examples=(
            ('案進當從宋本作退',
             {'kind': 'conjecture', 'lemma': '進', 'reading': '退', 'target': 'self', 'position': 'preceding'}),
        ),
        doc='进当从宋本作退 (a conjecture on this text that follows a source)',
    ),
    Rule(
        "variant_follow", "variant",
        (r"(?!{WIT})(?P<lbody>{LH}{1,12}?)(?:字)?(?:从|依|据)(?P<srcs>{SRCS})(?:改)?(?P<wit>{WITS})(?:并|亦|皆)?(?:作|为)"
        r"(?P<reading>{H}+?)(?:(?P<rn>{NUM})?字)?{TERM}"),
        examples=(
            ('案蘩從唐石經今注疏本作繁',
             {'kind': 'variant', 'lemma': '蘩', 'reading': '繁', 'target': 'zhushu', 'position': 'preceding'}),
        ),
        doc='孰从宋本今注疏本作熟',
    ),
    Rule(
        "corruption_lemma_first", "corruption",
        (r"(?!{WIT})(?P<lbody>{LH}{1,12}?)(?:字)?{ASIDE}?(?P<wit>{WITS})(?:并|亦|皆)?(?:(?:讹|误|伪|谬)(?:作|为)|讹|误(?!倒))"
        r"(?P<reading>{H}+?)(?:(?P<rn>{NUM})?字)?{TERM}"),
        examples=(
            ('案比今注疏本訛作北據唐石經及宋本改正',
             {'kind': 'corruption', 'lemma': '比', 'reading': '北', 'target': 'zhushu', 'position': 'preceding'}),
            ('案女子各本訛作子女杜佑通典兩引鄭注女子子者女子也今據以訂正',
             {'kind': 'corruption', 'lemma': '女子', 'reading': '子女', 'target': 'zhuben', 'position': 'preceding'}),
            ('案纍即累今注疏本訛作壘',
             {'kind': 'corruption', 'lemma': '纍', 'reading': '壘', 'target': 'zhushu', 'position': 'preceding'}),
            ('案柱唐石經與此同今注疏本訛作拄',
             {'kind': 'corruption', 'lemma': '柱', 'reading': '拄', 'target': 'zhushu', 'position': 'preceding'}),
        ),
        doc='比今注疏本讹作北',
    ),
    Rule(
        "corruption_wit_first", "corruption",
        (r"(?:(?P<loc>{LOC}))?(?P<wit>{WITS})(?P<lbody>(?:(?!作){LH}){0,12}?)(?:字)?(?:并|亦|皆)?(?:(?:讹|误|伪|谬)(?:作|为)|讹|误(?!倒))"
        r"(?P<reading>{H}+?)(?:(?P<rn>{NUM})?字)?{TERM}"),
        examples=(
            ('案今注疏本訛作枝',
             {'kind': 'corruption', 'lemma': '', 'reading': '枝', 'target': 'zhushu', 'position': 'near'}),
        ),
        doc='今注疏本比讹作北 / 原本讹作北 (no lemma: the corrected text is not quoted)',
    ),
    Rule(
        "witness_says", "variant",
        r"(?P<wit>{WITS})(?:云|曰)(?P<reading>{H}+?)(?:(?={H}{2}反)|{TERM})",
        examples=(
            ('案今注疏本云為無',
             {'kind': 'variant', 'lemma': '', 'reading': '為無', 'target': 'zhushu', 'position': 'near'}),
        ),
        doc=("今注疏本云作骼: the note quotes the target's wording at this place (释文云捷柶初洽反…: a quoted gloss "
             'ends the reading at its 反切)'),
    ),
    Rule(
        "variant_lemma_first", "variant",
        (r"(?!{WIT})(?P<lbody>{LH}{1,12}?)(?:字)?{ASIDE}?(?P<wit>{WITS})(?:并|亦|皆|俱)?(?:(?:从|依|据)(?P<srcs>{SRCS}))?(?:改)?(?:作)"
        r"(?P<reading>{H}+?)(?:(?P<rn>{NUM})?字)?{TERM}"),
        examples=(
            ('案孰今注疏本作熟古通用孰',
             {'kind': 'variant', 'lemma': '孰', 'reading': '熟', 'target': 'zhushu', 'position': 'preceding'}),
            ('案黻原本今注疏本皆作黼張淳儀禮識誤云監杭本黼作黻',
             {'kind': 'variant', 'lemma': '黻', 'reading': '黼', 'target': 'yuanben', 'position': 'preceding'}),
        ),
        doc='孰今注疏本作熟 / 蘩唐石经作繁',
    ),
    Rule(
        "variant_wit_first", "variant",
        (r"(?P<wit>{WITS})(?P<lbody>{LH}{0,12}?)(?:字)?(?:并|亦|皆|俱)?(?:作)"
        r"(?P<reading>{H}+?)(?:(?P<rn>{NUM})?字)?{TERM}"),
        examples=(
            ('案宋本孰作熟',
             {'kind': 'variant', 'lemma': '孰', 'reading': '熟', 'target': 'songben', 'position': 'preceding'}),
        ),
        doc='唐石经作宾席之前 (no lemma) / 宋本孰作熟',
    ),
    Rule(
        "conjecture_insert", "conjecture",
        (r"(?:(?P<who>{SRC})(?:云|曰|谓|以为))?(?:(?P<loc>{LOC}))(?:(?:疑|似|当|盖)(?:有)?(?:脱|阙|缺|夺)|当有|疑有|(?(who)(?:脱|夺)|(?!)))"
        r"(?P<body>{H}+?)(?:字)?{TERM}"),
        examples=(
            ('案敖繼公云西下脫襲字',
             {'kind': 'conjecture', 'lemma': '', 'reading': '襲', 'target': 'self', 'position': 'after:西'}),
        ),
        doc='X下疑脱Y字 (a gap in this text)',
    ),
    Rule(
        "basis", "comment",
        r"(?!{WIT})(?P<lbody>{LH}{1,6}?)(?:字)?(?:从|依|据)(?P<srcs>{SRCS})(?:为正)?$",
        examples=(
            ('案庿字從唐石經',
             {'kind': 'comment', 'lemma': '庿', 'reading': '', 'target': 'self', 'position': 'preceding'}),
        ),
        doc="庿字从唐石经: this text's reading follows a source (the basis, no claim about another text)",
    ),
    Rule(
        "witness_worn", "lacuna",
        r"(?!{WIT})(?P<lbody>{LH}{1,6}?)(?:字)?(?P<wit>{WITS})(?:并|亦|皆)?(?:摩灭|磨灭|漫漶|剥蚀|残缺|模糊)",
        examples=(
            ('案上字唐石經摩滅',
             {'kind': 'lacuna', 'lemma': '上', 'reading': '', 'target': 'tangshijing', 'position': 'preceding'}),
        ),
        doc='上字唐石经摩灭: the witness is worn at this character (its reading unknown)',
    ),
    Rule(
        "source_reads", "variant",
        r"(?!{WIT})(?P<lbody>{LH}{1,4}?)(?:字)?(?P<srcs>{SRCS})(?:并|亦|皆)?作(?P<reading>{H}+?)(?:字)?{TERM}",
        examples=(
            ('案柲詩作閉',
             {'kind': 'variant', 'lemma': '柲', 'reading': '閉', 'target': 'shijing', 'position': 'preceding'}),
        ),
        start_only=True,
        doc='柲诗作闭: a source (not a witness of this book) reads otherwise',
    ),
    Rule(
        "interchangeable", "comment",
        r"(?P<lbody>{H}{1,2}?)(?P<other>{H}{1,2}?)(?:二字)?(?:古字?)?通用",
        examples=(
            ('案由猶古通用',
             {'kind': 'comment', 'lemma': '由', 'reading': '猶', 'target': '', 'position': 'preceding'}),
        ),
        start_only=True,
        doc='X Y古通用: two forms the editors call interchangeable (a judgement, no reading changes)',
    ),
    Rule(
        "misplaced", "comment",
        r".{0,60}?错简",
        examples=(
            ('案前云非以君命使則不稱寡大夫寡君之老當在此下錯簡已久',
             {'kind': 'comment', 'lemma': '', 'reading': '', 'target': '', 'position': 'none'}),
        ),
        start_only=True,
        doc='前云…当在此下错简已久: a judgement that text is misplaced (no reading changes)',
    ),
    Rule(
        "quotation", "comment",
        r"(?P<srcs>{SRCS})(?:云|曰|引)(?!.*(?:当作|当为|衍|脱|讹|误))",
        examples=(
            ('案疏云言人之者公將及升堂故以人意相存偶',
             {'kind': 'comment', 'lemma': '', 'reading': '', 'target': '', 'position': 'none'}),
        ),
        start_only=True,
        doc='疏云…: a bare quotation of a source (the argument without a claim)',
    ),
    Rule(
        "identified", "comment",
        r"(?:以上|此(?:{NUM})?字?)乃(?:本|上|下|前|后)?(?:节|章)?(?:经文|经|注文|注)?之(?:传|注|疏|记)",
        examples=(
            ('案以上乃本節經文之傳',
             {'kind': 'comment', 'lemma': '', 'reading': '', 'target': '', 'position': 'none'}),
        ),
        start_only=True,
        doc='以上乃本节经文之传 / 此十六字乃上节经文之传: a judgement of what a stretch of text is (no reading changes)',
    ),
    Rule(
        "source_quotes", "comment",
        r"(?P<src>{H}{2,12}?)(?:内|中)?引此(?:注文|注|经文|经|句|文)(?:有|无|作|亦)",
        examples=(
            ('案周禮大宰職疏内引此注有左右齻及中央象齒堅九字',
             {'kind': 'comment', 'lemma': '', 'reading': '', 'target': '', 'position': 'none'}),
        ),
        start_only=True,
        doc='周礼大宰职疏内引此注有…九字: a source quotes this text otherwise (evidence, no claim about our witnesses)',
    ),
)

_GRAMMAR_SOURCES: dict[str, str] = {
    # -- the claim rules of RULES --------------------------------------------------------
    **{r.name: _expand(r.pattern) for r in RULES},
    # -- keywords of claims found anywhere (the lemma is read backwards from the keyword) -
    # 绢当作縜 / 三亦当作二 / 进疑作退
    "search_replace": _expand(r"(?:疑|似|亦|盖|并|皆)*(?:当|应|宜)(?:作|为|从)|(?:疑|似)(?:作|为)"),
    # X疑Y之讹
    "search_replace_zhi": _expand(r"(?:疑|当|盖)(?:是|为|乃)?(?P<reading>{H}{1,4}?)(?:字)?之(?:讹|误)"),
    # 东似衍文 / 也字疑衍 / 拾取矢三字当是…衍此三字耳
    "search_delete": _expand(r"衍(?:文|字|也|耳)?"),
    # 当西上云东者字误也 / 大射仪云北面此东字盖误也 (the right phrase, then the wrong character)
    "search_named_wrong": _expand(
        r"(?:当|云|作)(?P<q>{H}{2,4}?)(?:云|此)(?P<l>{H}{1,2}?)(?:者)?字(?:盖|疑|亦|当)?(?:误|讹)"
    ),
    # 大射仪此下云卒退丰与觯如初此脱一句也 (a parallel has the text; this one lacks it)
    "search_parallel_gap": _expand(
        r"(?P<src>{SRC})?(?:此下|下)(?:云|有)(?P<body>{H}+?)此(?:盖|疑|似)?(?:脱|阙|缺)(?:一句|此句|{NUM}字)"
    ),
    # 喪大記引此云旁各一筐則是此經脱一各字: a parallel quotes the text with a character this one lacks
    "search_gap_quoted": _expand(
        r"(?:云|曰)(?P<q>{H}{2,8}?)则(?:是)?此(?:经|注|句)?(?:盖|疑|似)?(?:脱|夺|阙)一?(?P<body>{H})字"),
    # 二字误倒
    "search_transpose": _expand(r"(?:疑|当是|盖|似)?(?:误倒|倒误|互倒|倒置|误乙|颠倒)"),
    # -- tail clauses --------------------------------------------------------------------
    "ev_verb": _expand(r"(?:今)?(?P<both>并|皆|俱)?(?:据|依|从|照|遵)(?P<srcs>{SRCS})(?:所引)?(?P<verb>{VERB})?"),
    "ev_verb_unknown": _expand(r"(?:今)?(?:并|皆|俱)?(?:据|依|照|遵)(?P<unk>{H}{1,8}?)(?P<verb>{VERB})(?={TERM}|$)"),
    "ev_self": _expand(r"今(?:并|皆)?(?P<verb>{VERB})"),
    # 唐石经同: another witness shares the reading just stated (a co-witness, not evidence)
    "co_witness": _expand(r"(?P<srcs>{SRCS})(?:并|亦|皆)?同(?!{H}*?(?:作|为))"),
    # 与唐石经合 / 与疏同
    "ev_agree": _expand(r"(?:并|亦|皆)?与(?P<srcs>{SRCS})(?:合|同|相合)"),
    # 宋本无 / 宋本作北 / 唐石经亦有
    "ev_statement": _expand(
        r"(?P<srcs>{SRCS})(?:并|亦|皆|俱)?(?:无|有|作|不误|不脱|不重)(?P<obj>{H}*?)(?:字)?(?={TERM}|$)"
    ),
    # 考疏内引注文… / 又鄉飲酒禮疏引此注… / 考工记曰… / 乡射云…是也  (open-ended: runs to the end)
    # 据释文载古本作詨 / 据疏所引…: what the source records is its content, not a claim of the note
    "ev_cites": _expand(r"(?:今)?(?:并|皆)?(?:据|依|从)(?P<srcs>{SRCS})(?:所)?(?:载|引|云|称|谓)"),
    # 释文作段云本又作腶同: the source's own words after a claim about it (本又作X, 同)
    "ev_says_more": _expand(r"云(?:本又作|本亦作|又作|亦作|或作)(?P<obj>{H}{1,3}?)(?:同|音{H}|{H}{2}反)?(?={WIT}|据|今|$)"),
    # 释文曏许亮反 / 释文云鞠穷刘音弓: a gloss (反切, 音) that shows what the source reads
    "ev_gloss": _expand(r"(?P<srcs>{SRCS})(?:云|曰)?(?P<obj>{H}{1,3}?)(?:{H}{2}反|{H}{0,2}音{H})"),
    "ev_open": _expand(r"(?:又|考|按|案|且)*(?P<srcs>{SRCS})(?:内|中|文)?(?:云|曰|引|谓|言|称|亦|所引|并|皆)"),
    "scope_zhu": _expand(r"{ZHU_TOO}"),
    "scope_below": _expand(r"{BELOW}|下(?:文)?(?:{H}{1,4}字)?(?:并|皆|俱)?同"),
    "clause_joiner": _expand(r"(?P<join>又(?:案)?|且)?(?P<following>下文)?"),
    # 脱也字及今文无之四字: a further omission / addition of the same witness
    "and_also": _expand(r"字?及(?P<body>{H}+?)字"),
    # …又用鴈上有納采而三字: a further addition in the witness the note spoke of
    # 即尝之俗体: the editors' gloss on the form just quoted (no claim)
    "form_gloss": _expand(r"即{H}{1,4}?之(?:俗|古|或|别|省|本)(?:体|字)"),
    "and_has": _expand(r"(?P<loc>{LOC})(?:有|多|衍)(?P<body>{H}+?)字"),
    # …又脱杀字: a further omission in the witness the note spoke of
    "and_lacks": _expand(r"(?:(?P<loc>{LOC}))?(?:脱|夺|无)(?P<body>{H}+?)字"),
    # the note's own judgement starts: what follows is argument, not a claim
    "judgement": _expand("|".join(JUDGEMENT_OPENERS)),
    # an author named before a conjecture: 敖继公云 / 敖继公曰
    "author": _expand(r"(?P<srcs>{SRC})(?:云|曰|谓|以为|说)"),
    # the editors reject the conjecture they report: 敖继公云X当作Y非是
    "rejected": _expand("|".join(REJECTIONS)),
    # judgement on another witness: 当是石经误倒 / 石经误
    "judged_wrong": _expand(r"(?:当是|疑|盖|似|乃)?(?:{WIT})?(?:误|讹|倒|非)"),
    # where a backwards-read lemma starts: the start, or after one of these
    "lemma_boundary": _expand(r"云|曰|谓|误|也|矣|耳|以为|言|此句|此"),
    "note_start": _expand(r"(?:臣等)?(?:谨)?案"),
    # a layer named before the claim: 经文X今注疏本讹作Y / 注内X…
    "layer_prefix": _expand(r"(?P<layer>经文|注文|疏文|经内|注内|疏内|注中|疏中|经中)"),
    # -- the parser's helpers (compiled with the rest: one cache) ---------------------------
    # X当作Y: the reading Y after the keyword, up to where it ends (_search_replace)
    "reading_to_term": _expand(r"{H}+?(?:字)?{TERM}"),
    # 皆无酒字此有者衍也: a character named as absent elsewhere and present here (_search_delete)
    "named_then_has": _expand(r"(?:无|不言|不云)(?P<x>{H})字(?:而)?此(?:有|言|云)(?:者|之)?(?:疑|盖|当|似)?"),
    # 衍士则曰三字: the counted characters after 衍 (_search_delete)
    "delete_after": _expand(r"(?P<body>{H}{1,9}?)(?P<n>{NUM})字"),
}

#: The grammar compiled (``regex.V1``); loaded from the cache of compiled patterns when it holds this
#: grammar (:mod:`.pattern_cache`: compiling took 0.3–0.4 s of every process that imports this module).
GRAMMAR: dict[str, regex.Pattern] = compile_patterns(_GRAMMAR_SOURCES, regex.V1, "notes-grammar")

#: The claim rules tried at the start of a note / clause, in order.
CLAIM_RULES: tuple[str, ...] = tuple(r.name for r in RULES)

_KIND_OF_RULE: dict[str, Kind] = {r.name: r.kind for r in RULES}

_SOURCE_RE = regex.compile(rf"(?:{_alt(SOURCES)})(?:疏|注)?")
_COUNT_RE = regex.compile(rf"(?P<n>{FRAGMENTS['NUM']})字")
_COUNT_AT_END_RE = regex.compile(rf"(?P<n>{FRAGMENTS['NUM']})字$")

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """A cited source or witness: a stable ``id`` (``songben``) and the ``name`` as written (宋夲)."""

    id: str
    name: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name}


@dataclass(frozen=True)
class NoteRecord:
    """One 案 note as a collation claim.

    ``lemma`` is this witness's reading the claim bears on ("" for an insertion point
    or a lemma the note does not spell out); ``reading`` the other reading ("" when the
    target lacks the lemma, or a conjecture deletes it).  ``count`` is the number of
    characters the note states (二字, 此十四字), else ``None``.  ``layer`` is the layer
    the note names before its claim (``jing`` for 经文…, ``zhu``, ``shu``), else "".
    ``rule`` names the grammar rule that produced the record (``unparsed`` for the
    fallback comment); ``remark`` is the note's argument text outside the grammar;
    ``more`` holds further claims of the same note, each a record of its own.
    See the module docstring for the meaning of each kind and position.
    """

    kind: Kind
    raw: str
    script: str
    lemma: str = ""
    reading: str = ""
    target: str = ""
    target_name: str = ""
    evidence: tuple[Source, ...] = ()
    scope: str = "here"
    position: str = "none"
    count: int | None = None
    layer: str = ""
    rule: str = "unparsed"
    remark: str = ""
    more: tuple["NoteRecord", ...] = field(default=())
    #: where the target has the text instead (rule ``transposition_moved``): ``after:X`` /
    #: ``before:X``, X as the note writes it; "" otherwise
    place: str = ""
    #: further witnesses the claim is about (婦原本及今注疏本竝訛作歸: ``target`` yuanben, ``also`` zhushu)
    also: tuple[str, ...] = ()
    #: a place claim (此注今注疏本在經文下傳曰上): the target sets the text after the first and
    #: before the second part of its passage, as layers (``("jing", "zhuan")``); () otherwise
    between: tuple[str, ...] = ()
    #: formula words the note writes with a slipped character, read as meant (``宇→字``): the
    #: tolerance of :func:`parse_note` says where it was used
    slips: tuple[str, ...] = ()
    #: where the target has this text instead (此七字今注疏本在下X之下: ``after:X``): the claim
    #: is that the text is not here but there; "" for every other claim
    moved_to: str = ""
    #: the claim is about the order of characters (误倒, X在Y上, a conjecture that swaps): the
    #: target has the same characters in another order (``reading`` gives it when the note does)
    transposed: bool = False

    @property
    def evidence_ids(self) -> list[str]:
        return [s.id for s in self.evidence]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (evidence as ``{id, name}`` objects, ``more`` as dicts)."""
        return {
            "kind": self.kind,
            "lemma": self.lemma,
            "reading": self.reading,
            "target": self.target,
            "target_name": self.target_name,
            "evidence": [s.to_dict() for s in self.evidence],
            "scope": self.scope,
            "position": self.position,
            "count": self.count,
            "layer": self.layer,
            "rule": self.rule,
            "remark": self.remark,
            "raw": self.raw,
            "script": self.script,
            "more": [m.to_dict() for m in self.more],
            "place": self.place,
            "also": list(self.also),
            "between": list(self.between),
            "slips": list(self.slips),
            "moved_to": self.moved_to,
            "transposed": self.transposed,
        }


# ---------------------------------------------------------------------------
# Text helpers
# ---------------------------------------------------------------------------

_JOIN_STRIP = regex.compile(r"[/()（）¶\s\u3000]+")


def join_note_text(text: str) -> str:
    """Reading order of a note as transcribed: ``/``, brackets, ``¶`` and white space removed."""
    return _JOIN_STRIP.sub("", text)


@lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    return EXTRA_FOLD.get(ch) or t2s_char(ch)


_FOLD = LazyTable(_fold_char)


def fold_note_text(text: str) -> str:
    """Simplified, variant-folded copy of a note's ``text`` with exactly the same length.

    Why one-for-one: grammar rules match on the folded copy and the spans they find are
    cut from the original, so the record keeps the witness's own characters.  Unlike the
    collation keys (:func:`jiaokan.normalize.fold_token`) this folds only script and the
    odd spellings of the note language (:data:`~jiaokan.emend.lexicon.EXTRA_FOLD`), not 异体.
    The whole text in C (``str.translate``): the parser folds every note and each clause it reads again.
    """
    return text.translate(_FOLD)


#: 此下永樂大典内刪去原文…今取疏義補之: the words that close the formula; what follows in
#: the same note is the text the editors supplied (GUIDE §1, §3).
_SUPPLIED = regex.compile(r"(?:永乐大典|大典)(?:内|中)?(?:删去|删|阙|缺)[^补]{0,60}?(?:取|采|录)[^补]{0,8}?补(?:之|入|足)?")


def supplied_start(text: str) -> int | None:
    """Where the text the editors supplied starts in the reading text of a 案 note, or None.

    In the 集释 (which survives only through the 永樂大典) a note ``此下永樂大典内刪去原文
    注云…今取疏義補之…`` goes on, in the same small type, with text the 四库 editors took
    from the 疏: that text is theirs, not 李如圭's.  None when the note has no such formula,
    or nothing follows it.
    """
    m = _SUPPLIED.search(fold_note_text(text))
    if m is None or not text[m.end() :].strip():
        return None
    return m.end()


def detect_script(text: str) -> str:
    """``traditional`` if a character folds under t2s, ``simplified`` if one is simplified-only, else ``unknown``."""
    if any(_fold_char(ch) != ch for ch in text if ch not in "夲𥙷"):
        return "traditional"
    if any(ch not in SHARED_FORMS and s2t_char(ch) != ch for ch in text):
        return "simplified"
    return "unknown"


#: A "lemma" that only says where: 此處, 此處經文, 此經 (the note's own place and layer).
_HERE_ONLY = regex.compile(r"此(?:处)?(?:经文|注文|经|注)?")
#: X…之X: one character named by the word it stands in (疑然之疑 = the 疑 of 疑然).
_OF_FORM = regex.compile(r"(\p{Han})(\p{Han}{1,3})之\1")
_THIS = regex.compile(r"^此(?:句|节|经文|经|注文|注)?(?:[二三四五六七八九十]+)?(?=.)")
#: What ``此…N字`` may name before its count: the N characters before the note.
_SPAN_PREFIXES = frozenset({"此", "此注", "此注文", "注文", "此句", "此经", "此经文", "经文", "此节", "此段"})


def _strip_this(lemma: str) -> str:
    """``此于`` -> ``于``, ``此句庿`` -> ``庿``, ``此二于`` -> ``于`` (此…X字 names the character X)."""
    m = _THIS.match(fold_note_text(lemma))
    return lemma[m.end() :] if m else lemma


def _split_count(body: str) -> tuple[str, int | None, bool]:
    """Split ``与卑二`` into (lemma, count, is_span).

    ``与卑二`` -> (与卑, 2, False); ``此十四`` -> ("", 14, True) (the N characters before
    the note); ``而有其二四`` -> (而有其二, 4, False) (the count must match the lemma's
    length, which decides where the numeral starts); ``遂`` -> (遂, None, False).  A
    single numeral is a character, not a count (``脱二字`` = lacks 二: the 仪礼 is full of
    三耦, 二耦), a longer pure numeral is a count.
    """
    if body == "此":  # 脱此字: the character before the note
        return "", 1, True
    if len(body) > 1:
        for k in range(1, len(body) + 1):
            suffix, pre = body[-k:], body[:-k]
            n = chinese_numeral(suffix)
            if not n:  # not a numeral, or 〇: no count
                break
            if fold_note_text(pre) in _SPAN_PREFIXES:  # 此十四 / 此注四 / 注文十四
                return "", n, True
            if len(pre) > 2 and pre.endswith("以下"):  # 啐以下七字: the seven characters from 啐
                return "", n, True
            if pre == "" and k > 1:
                return "", n, True
            if pre and len(pre) == n:
                return pre, n, False
        if _THIS.match(fold_note_text(body)) and chinese_numeral(body[-1:]) is None:
            return _strip_this(body), None, False  # 脱此句升字: lacks 升
    return body, None, False


def _sources_in(raw: str, folded: str) -> list[Source]:
    """The sources of an evidence phrase (唐石经及宋本) with their names as written."""
    out: list[Source] = []
    for m in _SOURCE_RE.finditer(folded):
        name_f = m.group(0)
        if name_f in SOURCES:
            sid = SOURCES[name_f]
        elif name_f.endswith("疏"):
            sid = "shu"
        elif name_f.endswith("注"):
            sid = "zhu"
        else:  # pragma: no cover - the alternation only yields these shapes
            sid = "other"
        out.append(Source(sid, raw[m.start() : m.end()]))
    return out


def _dedupe(sources: Iterable[Source]) -> tuple[Source, ...]:
    seen: set[Source] = set()
    out: list[Source] = []
    for s in sources:
        if s not in seen:
            seen.add(s)
            out.append(s)
    return tuple(out)


def _position(m: regex.Match, raw: str, default: str) -> str:
    """Position from a locator (此下 / 此上 / X下 / X上) in groups ``loc``/``loc2`` of ``m``."""
    for g in ("loc", "loc2"):
        try:
            span = m.span(g)
        except IndexError:
            continue
        if span[0] < 0:
            continue
        loc = m.group(g)
        if fold_note_text(loc) in ("此下", "以下", "此句下", "此句之下", "句下", "此节下", "此节之下", "此条下", "此条之下",
                                   "此处", "此"):
            return "after"
        if fold_note_text(loc) in ("此句上", "此句之上", "此节上", "此节之上", "此条之前", "此节之前", "此条前", "此节前"):
            return "sentence-start"  # 此句上…有: the place before the sentence's first character
        if loc == "此上":
            return "before"
        # X下 / X上: X is the locator minus its last character (and a 字: 献字上 -> 献)
        x = raw[span[0] : span[1] - 1]
        if len(x) > 1 and fold_note_text(x[-1]) == "字":
            x = x[:-1]
        return ("after:" if loc.endswith("下") else "before:") + x
    return default


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


@dataclass
class _Claim:
    """A claim found in the text, before the tail is read (mutable while parsing)."""

    kind: Kind
    rule: str
    start: int
    end: int
    lemma: str = ""
    reading: str = ""
    target: str = ""
    target_name: str = ""
    evidence: list[Source] = field(default_factory=list)
    position: str = "preceding"
    count: int | None = None
    prefix: str = ""  # argument text before the claim (search-found claims)
    place: str = ""  # transposition_moved: where the target has the text instead
    also: tuple[str, ...] = ()  # further witnesses the claim names (原本及今注疏本)
    between: tuple[str, ...] = ()  # placed_between: the parts of the passage the target sets it between
    slips: tuple[str, ...] = ()  # formula words read with a slipped character (宇→字)


def _grp(m: regex.Match, name: str) -> tuple[int, int] | None:
    try:
        s = m.span(name)
    except IndexError:
        return None
    return s if s[0] >= 0 else None


_WIT_AT = regex.compile(rf"(?:{_alt(WITNESSES)})")


def _target_id(name_f: str) -> str:
    """Target id of a (folded) witness phrase: the first witness named (今注疏本及监本 -> zhushu)."""
    m = _WIT_AT.match(name_f)
    if m:
        return WITNESSES[m.group(0)]
    return "yuanben" if name_f.startswith("原") else "other"


#: Rules for a whole note, never for a clause after a claim (an argument's 古字通用 or
#: 疏云 is not a further claim).
START_ONLY: frozenset[str] = frozenset(r.name for r in RULES if r.start_only)


def _claim_at(raw: str, folded: str, pos: int, start: bool = True) -> _Claim | None:
    """Try the anchored claim rules at ``pos``; the first that matches wins (``start``: at the note's start)."""
    for rule in CLAIM_RULES:
        if not start and rule in START_ONLY:
            continue
        m = GRAMMAR[rule].match(folded, pos)
        if m is None:
            continue
        claim = _claim_from_match(rule, m, raw, folded)
        if claim is not None:
            return claim
    return None


def _claim_from_match(rule: str, m: regex.Match, raw: str, folded: str) -> _Claim:
    """Turn a match of claim rule ``rule`` into a :class:`_Claim` (spans cut from ``raw``)."""
    c = _Claim(kind=_KIND_OF_RULE[rule], rule=rule, start=m.start(), end=m.end())
    wit = _grp(m, "wit")
    if wit:
        c.target = _target_id(folded[wit[0] : wit[1]])
        c.target_name = raw[wit[0] : wit[1]]
        named = [WITNESSES[x.group(0)] for x in _WIT_AT.finditer(folded, wit[0], wit[1])]
        c.also = tuple(dict.fromkeys(x for x in named if x != c.target))
    aside = _grp(m, "aside")
    if aside:  # 柱唐石經與此同今注疏本訛作拄: the co-witness is evidence for this text's reading
        c.evidence.extend(_sources_in(raw[aside[0] : aside[1]], folded[aside[0] : aside[1]]))
    if rule == "supplied":
        c.target, c.target_name, c.position = "yuanben", "", "after"
        if "疏" in folded[m.end() :]:  # 今取疏义补之: the editors supplied it from the 疏
            c.evidence.append(Source("shu", "疏"))
    elif rule == "transposition_moved":
        _fill_moved(c, m, raw, folded)
    elif rule == "placed_between":
        _fill_between(c, m, raw, folded)
    elif rule == "conjecture_span":
        n = _grp(m, "n")
        r = _grp(m, "reading")
        assert n is not None and r is not None
        c.count = chinese_numeral(folded[n[0] : n[1]])
        c.position, c.target, c.reading = f"span:{c.count}", "self", raw[r[0] : r[1]]
    elif rule == "source_reads":
        _fill_lemma_reading(c, m, raw, folded)
        s = _grp(m, "srcs")
        assert s is not None
        found = _sources_in(raw[s[0] : s[1]], folded[s[0] : s[1]])
        c.target, c.target_name = (found[0].id, found[0].name) if found else ("other", raw[s[0] : s[1]])
    elif rule in ("identified", "source_quotes"):
        c.position, c.end = "none", len(raw)
    elif rule == "transposition_placed":
        x, y = raw[slice(*m.span("lbody"))], raw[slice(*m.span("dest"))]
        # X在Y上: the target reads XY where this text reads YX (X在Y下: YX for XY)
        c.lemma, c.reading = (y + x, x + y) if m.group("side") == "上" else (x + y, y + x)
        c.position = "preceding"
        if m.group("verb"):
            c.kind = "corruption"
    elif rule == "basis":
        lb = _grp(m, "lbody")
        assert lb is not None
        c.lemma, c.target, c.target_name = _strip_this(raw[lb[0] : lb[1]]), "self", ""
        s = _grp(m, "srcs")
        assert s is not None
        c.evidence.extend(_sources_in(raw[s[0] : s[1]], folded[s[0] : s[1]]))
    elif rule == "witness_worn":
        lb = _grp(m, "lbody")
        assert lb is not None
        c.lemma, c.position = _strip_this(raw[lb[0] : lb[1]]), "preceding"
    elif rule in ("interchangeable", "misplaced", "quotation"):
        c.position = "none"
        if rule == "interchangeable":
            lb = _grp(m, "lbody")
            assert lb is not None
            c.lemma, c.reading = raw[lb[0] : lb[1]], raw[lb[1] : m.end("other")]
            c.position = "preceding"
        if rule == "quotation":
            s = _grp(m, "srcs")
            assert s is not None
            c.evidence.extend(_sources_in(raw[s[0] : s[1]], folded[s[0] : s[1]]))
            c.end = len(raw)  # the rest is the quotation
        if rule == "misplaced":
            c.end = len(raw)
    elif rule == "lacuna":
        _fill_lacuna(c, m, raw, folded)
    elif rule.startswith("transposition"):
        _fill_transposition(c, m, raw, folded)
    elif rule == "omission_sentence":
        c.position = "sentence"
    elif rule in ("omission_wit_first", "addition_wit_first", "addition_has", "conjecture_insert"):
        _fill_from_body(c, m, raw, folded)
    else:
        _fill_lemma_reading(c, m, raw, folded)
    return c


def _fill_lacuna(c: _Claim, m: regex.Match, raw: str, folded: str) -> None:
    if not c.target:  # 此下缺: the gap is in this text's source
        c.target, c.target_name = "yuanben", ""
    n = _grp(m, "n")
    c.count = chinese_numeral(folded[n[0] : n[1]]) if n else None
    c.position = _position(m, raw, "after")


def _fill_moved(c: _Claim, m: regex.Match, raw: str, folded: str) -> None:
    """此七字今注疏本在下X之下: the target has this text elsewhere (after / before X)."""
    n = _grp(m, "n")
    d = _grp(m, "dest")
    assert d is not None
    c.count = chinese_numeral(folded[n[0] : n[1]]) if n else None
    body = folded[m.start() : m.end("lbody")]
    if "及" in body:  # 此经文及注: the passage's 经 and its 注 (anchored on the 经 before the note)
        c.position = "passage"
    elif c.count:
        c.position = f"span:{c.count}"
    else:
        c.position = "piece" if body[1] in "注经" else "sentence"
    side = m.group("side")
    c.place = ("before:" if side in ("上", "前") else "after:") + raw[d[0] : d[1]]


#: The parts of a passage a place claim names (经之下传曰之上), as layers of the model.
_PART_LAYER: dict[str, str] = {"经": "jing", "经文": "jing", "注": "zhu", "注文": "zhu", "传": "zhuan", "传文": "zhuan",
                               "传曰": "zhuan"}


def _fill_between(c: _Claim, m: regex.Match, raw: str, folded: str) -> None:
    """此注今注疏本在經文下傳曰上: the target sets this text after one part of the passage and
    before another; ``between`` holds the two parts as layers (``("jing", "zhuan")``)."""
    n = _grp(m, "n")
    c.count = chinese_numeral(folded[n[0] : n[1]]) if n else None
    body = folded[m.start() : m.end("lbody")]
    if c.count and "以下" in body:  # 舊讀以下三十二字: the N characters from 舊讀
        c.position = f"span:{c.count}"
        c.lemma = ""
    elif c.count:
        c.position = f"span:{c.count}"
    else:
        c.position = "piece"
    c.between = (_PART_LAYER[m.group("after")], _PART_LAYER[m.group("before")])
    if m.group("verb"):
        c.kind = "corruption"


def _fill_transposition(c: _Claim, m: regex.Match, raw: str, folded: str) -> None:
    lb = _grp(m, "lbody")
    assert lb is not None
    c.lemma = raw[lb[0] : lb[1]]
    n = _grp(m, "n")
    c.count = chinese_numeral(folded[n[0] : n[1]]) if n else None
    c.reading = c.lemma[::-1] if len(c.lemma) == 2 else ""
    c.position = _position(m, raw, "preceding")


_LAYER_WORD = regex.compile(r"记文|经文|注文|传文")


def _fill_from_body(c: _Claim, m: regex.Match, raw: str, folded: str) -> None:
    """Claims whose characters follow the verb: 脱遂字, 衍还字, 有也字, 疑脱也字."""
    b = _grp(m, "body")
    assert b is not None
    lw = _LAYER_WORD.match(folded, b[0], b[1])
    if lw and b[1] - lw.end() >= 2:  # 有記文男女改服四字: the layer named, then its text
        b = (lw.end(), b[1])
    chars, c.count, span = _split_count(raw[b[0] : b[1]])
    if len(chars) == 2 and folded[b[0]] == "一" and not span:  # 脱一众字: one character, 众
        chars, c.count = chars[1:], 1
    located = _position(m, raw, "")
    if c.kind == "omission":  # this text has the characters, the target lacks them
        c.lemma = chars
        c.position = located or (f"span:{c.count}" if span else "preceding")
    else:  # the target has extra characters / this text lacks them: an insertion point
        c.reading = chars
        c.position = located or "after"
    if c.rule == "conjecture_insert":
        c.target, c.target_name = "self", ""
        who = _grp(m, "who")
        if who:
            c.evidence.extend(_sources_in(raw[who[0] : who[1]], folded[who[0] : who[1]]))


def _fill_lemma_reading(c: _Claim, m: regex.Match, raw: str, folded: str) -> None:
    """Claims of the shape lemma … verb … reading: 比今注疏本讹作北, 孰从宋本今注疏本作熟 …"""
    lb = _grp(m, "lbody")
    lemma, c.count, span = _split_count(raw[lb[0] : lb[1]]) if lb and lb[1] > lb[0] else ("", None, False)
    if lb and span and folded[lb[1] : lb[1] + 1] != "字" and raw[lb[0]] != "此":
        # 二十唐石经作廿: a numeral not followed by 字 is the text itself, not a count
        lemma, c.count, span = raw[lb[0] : lb[1]], None, False
    if lemma and lb and folded[lb[1] : lb[1] + 1] == "字":
        lemma = _strip_this(lemma)  # 此于字唐石经作於: the lemma is 于
    if lb and _HERE_ONLY.fullmatch(folded[lb[0] : lb[1]]):
        lemma = ""  # 今注疏本此處經文作…: a locator (here, in the 经), not a lemma
    m_of = _OF_FORM.fullmatch(lemma)
    if m_of and len(_grp(m, "reading") or (0, 0)) and len(raw[slice(*(_grp(m, "reading") or (0, 0)))]) == 1:
        # 疑然之疑今注疏本皆作仡: "the 疑 of 疑然" names one character by its context
        lemma = m_of.group(1)
    c.lemma = lemma
    r = _grp(m, "reading")
    reading = raw[r[0] : r[1]] if r else ""
    rn = _grp(m, "rn")
    if rn:  # 讹作召南二字: the count belongs to the reading unless it does not fit
        n = chinese_numeral(folded[rn[0] : rn[1]])
        if n is not None and n != len(reading):
            reading += raw[rn[0] : rn[1]]
    if r and len(reading) == 2 and folded[r[0]] == "一" and folded[r[1] : r[1] + 1] == "字" \
            and (c.count or len(lemma)) >= 2:
        # 足以二字…讹作一已字: two characters became the single character 已 (一 is "one", not text)
        reading = reading[1:]
    c.reading = reading
    if c.rule == "conjecture_follow":
        c.target, c.target_name = "self", ""
    if c.rule in ("variant_follow", "conjecture_follow"):
        s = _grp(m, "srcs")
        assert s is not None
        c.evidence.extend(_sources_in(raw[s[0] : s[1]], folded[s[0] : s[1]]))
    if span:  # 此二字今注疏本讹作…: the N characters before the note
        c.position = f"span:{c.count}"
    elif not lemma:  # 唐石经作… / 原本讹作…: the note does not quote this text's reading
        c.position = _position(m, raw, "near")
    else:
        c.position = _position(m, raw, "preceding")


def _lemma_backwards(folded: str, end: int, limit: int, floor: int) -> tuple[int, int]:
    """Span of a lemma that ends at ``end``, read backwards to a clause boundary (not before ``floor``).

    Unpunctuated notes do not mark where the lemma of ``X当作Y`` begins; the lemma is the
    run of text after the last boundary (start, 云, 曰, 误, 也 …), cut to ``limit``
    characters (the reading's length: substitutions are character for character).
    """
    start = floor
    for b in GRAMMAR["lemma_boundary"].finditer(folded, floor, end):
        if b.end() < end:
            start = b.end()
    return max(start, end - limit), end


_READING_TO_TERM = GRAMMAR["reading_to_term"]
_COUNT_BEFORE = regex.compile(r"(?P<n>[二三四五六七八九十]+)字$")


def _search_replace(raw: str, folded: str, pos: int) -> _Claim | None:
    """``X当作Y`` / ``敖继公云X当作Y`` / ``X疑作Y``: the first such keyword after ``pos``."""
    for m in GRAMMAR["search_replace"].finditer(folded, pos):
        rm = _READING_TO_TERM.match(folded, m.end())
        if rm is None or folded[m.end()] == "衍":  # 此决字当为衍文: a deletion (search_delete)
            continue
        r_end = rm.end() - (1 if folded[rm.end() - 1] == "字" and rm.end() - m.end() > 1 else 0)
        kw = m.start() - (1 if folded[m.start() - 1 : m.start()] == "字" else 0)
        counted = _COUNT_BEFORE.search(folded, pos, m.start())
        limit = None
        if counted is not None and chinese_numeral(counted.group("n")) is not None:
            # 于事二字当作於是: the count closes the lemma and says how long it is
            kw, limit = counted.start(), chinese_numeral(counted.group("n"))
        if kw <= pos:
            continue
        reading = raw[m.end() : r_end]
        ls, le = _lemma_backwards(folded, kw, limit or max(1, len(reading)), pos)
        if ls >= le:
            continue
        if len(reading) > le - ls:  # 三当作二二耦谓…: the reading is as long as the lemma
            r_end = m.end() + (le - ls)
            reading = raw[m.end() : r_end]
        return _Claim("conjecture", "conjecture_replace", ls, r_end, lemma=raw[ls:le], reading=reading,
                      target="self", prefix=raw[pos:ls])
    return None


def _search_replace_zhi(raw: str, folded: str, pos: int) -> _Claim | None:
    """``X疑Y之讹`` / ``X盖Y字之误``."""
    for m in GRAMMAR["search_replace_zhi"].finditer(folded, pos):
        kw = m.start() - (1 if folded[m.start() - 1 : m.start()] == "字" else 0)
        r = m.span("reading")
        ls, le = _lemma_backwards(folded, kw, r[1] - r[0], pos)
        if ls >= le:
            continue
        return _Claim("conjecture", "conjecture_replace", ls, m.end(), lemma=raw[ls:le],
                      reading=raw[r[0] : r[1]], target="self", prefix=raw[pos:ls])
    return None


_NAMED_THEN_HAS = GRAMMAR["named_then_has"]
_DELETE_AFTER = GRAMMAR["delete_after"]


def _search_named_wrong(raw: str, folded: str, pos: int) -> _Claim | None:
    """``…当西上云东者字误也`` / ``大射仪云北面此东字盖误也``: the right phrase, then the wrong character.

    The note quotes the phrase as it should read (Q) and names this text's character that is
    wrong (L).  Which character of Q replaces L is known only in the text: the claim is a
    conjecture with ``reading`` Q and ``lemma`` L at position ``near``; anchoring finds the
    stretch like Q and keeps only the character(s) where it differs (which must be L).
    """
    for m in GRAMMAR["search_named_wrong"].finditer(folded, pos):
        q, lem = m.span("q"), m.span("l")
        return _Claim("conjecture", "conjecture_named_wrong", q[0], m.end(), lemma=raw[lem[0] : lem[1]],
                      reading=raw[q[0] : q[1]], target="self", position="near", prefix=raw[pos : q[0]])
    return None


def _search_parallel_gap(raw: str, folded: str, pos: int) -> _Claim | None:
    """``敖继公云大射仪此下云卒退丰与觯如初此脱一句也``: a parallel text has Y here; this text lacks it."""
    for m in GRAMMAR["search_parallel_gap"].finditer(folded, pos):
        b = m.span("body")
        c = _Claim("conjecture", "conjecture_insert", m.start(), m.end(), reading=raw[b[0] : b[1]], target="self",
                   position="after", prefix=raw[pos : m.start()])
        src = _grp(m, "src")
        if src:
            c.evidence.extend(_sources_in(raw[src[0] : src[1]], folded[src[0] : src[1]]))
        return c
    return None


#: The editors judging this text's author (李如圭) rather than his text: …李氏…不知…
_AUTHOR_JUDGED = regex.compile(r"(?:李氏|李如圭).{0,20}?不(?:知|察|悟)")


def _search_delete(raw: str, folded: str, pos: int) -> _Claim | None:
    """``X似衍文`` / ``X字疑衍`` / ``此句XYZ三字当是…衍``.

    With a count (N字) before the keyword the lemma is the N characters before that
    count; without one it is the single character before the keyword (the note does not
    mark a longer lemma's start, and one-character interpolations are the common case).
    """
    for m in GRAMMAR["search_delete"].finditer(folded, pos):
        kw = m.start()
        after = _DELETE_AFTER.match(folded, m.start() + 1)
        if after is not None and chinese_numeral(after.group("n")) == len(after.group("body")):
            # 衍士则曰三字: the counted characters after the keyword
            b = after.span("body")
            return _Claim("conjecture", "conjecture_delete", b[0], after.end(), lemma=raw[b[0] : b[1]], reading="",
                          target="self", count=b[1] - b[0], prefix=raw[pos:kw])
        if kw <= pos:
            continue
        span, count = None, None
        for cm in reversed(list(_COUNT_RE.finditer(folded, pos, kw))):
            n = chinese_numeral(cm.group("n"))
            if n and cm.start() - n >= pos and "字" not in folded[cm.start() - n : cm.start()]:
                span, count = (cm.start() - n, cm.start()), n
                break
        named = _NAMED_THEN_HAS.search(folded, pos, kw)
        if span is None and named is not None and named.end() == kw:
            # 上下文酌膳皆无酒字此有者衍也: "here it has it": the character named before
            n0, n1 = named.span("x")
            return _Claim("conjecture", "conjecture_delete", n0, m.end(), lemma=raw[n0:n1], reading="",
                          target="self", prefix=raw[pos:n0])
        if span is None:
            q = kw
            while q > pos and folded[q - 1] in "似疑当是为盖乃亦皆并属":
                q -= 1
            if q > pos and folded[q - 1] == "字":
                q -= 1
            if q <= pos:
                continue
            span = (q - 1, q)
        return _Claim("conjecture", "conjecture_delete", span[0], m.end(), lemma=raw[span[0] : span[1]],
                      reading="", target="self", count=count, prefix=raw[pos : span[0]])
    return None


def _search_transpose(raw: str, folded: str, pos: int) -> _Claim | None:
    """``XY二字误倒`` (two characters unless a count says otherwise)."""
    for m in GRAMMAR["search_transpose"].finditer(folded, pos):
        nm = _COUNT_AT_END_RE.search(folded, pos, m.start())
        n, e = ((chinese_numeral(nm.group("n")) or 2), nm.start()) if nm else (2, m.start())
        s = max(pos, e - n)
        if s >= e:
            continue
        lemma = raw[s:e]
        return _Claim("conjecture", "conjecture_transpose", s, m.end(), lemma=lemma,
                      reading=lemma[::-1] if len(lemma) == 2 else "", target="self",
                      count=n if nm else None, prefix=raw[pos:s])
    return None


def _search_gap_quoted(raw: str, folded: str, pos: int) -> _Claim | None:
    """``…云旁各一筐則是此經脱一各字``: insert the character where the quotation has it (after 旁)."""
    for m in GRAMMAR["search_gap_quoted"].finditer(folded, pos):
        q, x = m.group("q"), m.group("body")
        at = q.find(x)
        if at <= 0:
            continue
        qs = m.start("q")
        c = _Claim("conjecture", "conjecture_insert", m.start("q"), m.end(), reading=raw[m.start("body") : m.end("body")],
                   target="self", prefix=raw[pos : m.start("q")])
        c.position = "after:" + raw[qs : qs + at]
        return c
    return None


_SEARCHES = (_search_replace, _search_replace_zhi, _search_delete, _search_transpose, _search_named_wrong,
             _search_parallel_gap, _search_gap_quoted)


def _claim_by_search(raw: str, folded: str, pos: int) -> _Claim | None:
    """A conjecture found by its keyword anywhere after ``pos`` (notes that open with an argument).

    When several keywords occur, the claim whose lemma comes first wins; an author named
    before it (敖继公云) becomes its first evidence.
    """
    found = [c for c in (search(raw, folded, pos) for search in _SEARCHES) if c is not None]
    if not found:
        return None
    claim = min(found, key=lambda c: c.start)
    for am in GRAMMAR["author"].finditer(folded, pos, claim.start + 1):
        s = am.span("srcs")
        claim.evidence.extend(_sources_in(raw[s[0] : s[1]], folded[s[0] : s[1]]))
    return claim


@dataclass
class _Tail:
    evidence: list[Source] = field(default_factory=list)
    scope: str = "here"
    remark: str = ""
    more: list[NoteRecord] = field(default_factory=list)
    verbs: list[str] = field(default_factory=list)
    #: evidence stated for several claims at once (并据宋本改正), passed up to the first claim
    shared: list[Source] = field(default_factory=list)


def _add_sources(t: _Tail, m: regex.Match, raw: str, folded: str) -> list[Source]:
    s = m.span("srcs")
    found = _sources_in(raw[s[0] : s[1]], folded[s[0] : s[1]])
    t.evidence.extend(found)
    return found


def _states_other_reading(m: regex.Match, folded: str, prev: _Claim | None) -> bool:
    """An evidence statement that is really a claim: our 注疏 作 a text that is not this text's lemma.

    ``今注疏本亦作復`` after ``復原本訛作服`` is evidence (the 注疏 reads as this text);
    ``今注疏本作曰`` after ``此下原本有云字`` says the 注疏 has something else there: a claim.
    """
    src = m.groupdict().get("srcs")
    if not src or WITNESSES.get(src) != "zhushu" or prev is None:
        return False
    rest = folded[m.end("srcs") : m.end()].lstrip("并亦皆俱")
    obj = m.groupdict().get("obj") or ""
    return rest.startswith("作") and bool(obj) and obj != fold_note_text(prev.lemma)


def _parse_tail(raw: str, folded: str, pos: int, script: str, depth: int, prev: _Claim | None = None) -> _Tail:
    """Read the clauses after a claim: evidence, scope markers, further claims, then free remark."""
    t = _Tail()
    n = len(folded)
    m = GRAMMAR["and_also"].match(folded, pos)
    if m and prev is not None and prev.kind in ("omission", "addition") and depth < 4:
        # 今注疏本脱也字及今文无之四字: the same claim about more characters
        more = _Claim(prev.kind, prev.rule, m.start(), m.end(), target=prev.target, target_name=prev.target_name,
                      also=prev.also)
        _fill_from_body(more, m, raw, folded)
        rec, shared = _finish(raw, folded, more, script, depth + 1, raw[m.start() :])
        t.more.append(rec)
        t.shared.extend(shared)
        return t
    while pos < n:
        m = GRAMMAR["scope_zhu"].match(folded, pos)
        if m:
            t.scope, pos = "zhu", m.end()
            continue
        m = GRAMMAR["scope_below"].match(folded, pos)
        if m:
            t.scope, pos = "below", m.end()
            continue
        m = GRAMMAR["form_gloss"].match(folded, pos)
        if m:
            pos = m.end()
            continue
        m = GRAMMAR["ev_cites"].match(folded, pos)
        if m:
            _add_sources(t, m, raw, folded)
            _argument(t, raw, folded, pos, m.end(), script, depth, prev)
            break
        m = GRAMMAR["ev_verb"].match(folded, pos)
        if m:
            found = _add_sources(t, m, raw, folded)
            if m.group("both"):
                t.shared.extend(found)
            t.verbs.append(m.group("verb") or "")
            pos = m.end()
            continue
        m = GRAMMAR["ev_verb_unknown"].match(folded, pos)
        if m:
            s = m.span("unk")
            t.evidence.append(Source("other", raw[s[0] : s[1]]))
            t.verbs.append(m.group("verb"))
            pos = m.end()
            continue
        m = GRAMMAR["ev_self"].match(folded, pos)
        if m:
            t.verbs.append(m.group("verb"))
            pos = m.end()
            continue
        m = GRAMMAR["ev_agree"].match(folded, pos) or GRAMMAR["ev_statement"].match(folded, pos)
        if m and m.end() > pos and not _states_other_reading(m, folded, prev):
            _add_sources(t, m, raw, folded)
            pos = m.end()
            continue
        m = GRAMMAR["ev_says_more"].match(folded, pos)
        if m and prev is not None and prev.target and prev.target not in ("zhushu", "zhuben", "yuanben"):
            pos = m.end()
            continue
        m = GRAMMAR["co_witness"].match(folded, pos)
        if m and prev is not None and (prev.reading or prev.kind in ("omission", "addition")):
            # 唐石經同 / 今注疏本同: a further witness reads as the claim says; where that is our
            # 注疏, the claim is about it too (脆原本訛作脃今注疏本同: the 注疏 reads 脃)
            named = [WITNESSES[x.group(0)] for x in _WIT_AT.finditer(folded, m.start("srcs"), m.end("srcs"))]
            prev.also = tuple(dict.fromkeys((*prev.also, *(x for x in named if x == "zhushu" and x != prev.target))))
            pos = m.end()
            continue
        m = GRAMMAR["ev_gloss"].match(folded, pos)
        if m:
            _add_sources(t, m, raw, folded)
            pos = m.end()
            continue
        # 张淳云…: a quotation of a scholar or book, which argues and claims nothing of its own
        # (but the editors may state what our 注疏 reads inside the argument)
        m = GRAMMAR["author"].match(folded, pos)
        if m and m.group("srcs") not in WITNESSES:
            _add_sources(t, m, raw, folded)
            _argument(t, raw, folded, pos, m.end(), script, depth, prev)
            break
        # a further claim, possibly after 又 or 下文 (never inside the editors' argument)
        if depth < 4 and not GRAMMAR["judgement"].match(folded, pos):
            j = GRAMMAR["clause_joiner"].match(folded, pos)
            q = j.end() if j else pos
            sub = _claim_at(raw, folded, q, start=False)
            if sub is None and j and j.group("join") and prev is not None and prev.target:
                # 又X上有Y字 / 又脱Y字: a further claim about the witness the note spoke of
                further: tuple[tuple[str, Kind], ...] = (("and_has", "addition"), ("and_lacks", "omission"))
                for rule, kind in further:
                    h = GRAMMAR[rule].match(folded, q)
                    if h:
                        sub = _Claim(kind, "addition_has" if kind == "addition" else "omission_wit_first",
                                     h.start(), h.end(), target=prev.target, target_name=prev.target_name,
                                     also=prev.also)
                        _fill_from_body(sub, h, raw, folded)
                        break
            if sub is not None and sub.end > q:
                if j and j.group("following") and sub.position == "preceding":
                    sub.position = "following"
                if sub.rule == "variant_wit_first" and not sub.lemma and prev is not None \
                        and prev.kind == "addition" and prev.position != "near":
                    # 此下原本有云字今注疏本作曰: where the first witness has an extra text, this one
                    # has another: an extra text of its own at the same place
                    sub.kind, sub.rule, sub.position = "addition", "addition_instead", prev.position
                if sub.position == "near" and prev is not None and prev.lemma and prev.position == "preceding" \
                        and prev.kind != "conjecture":
                    # 嘗唐石經作嘗…各本竝訛作常: a claim that quotes no lemma is about the previous one's
                    sub.lemma, sub.position = prev.lemma, "preceding"
                clause_start = j.end("join") if j and j.group("join") else pos
                rec, shared = _finish(raw, folded, sub, script, depth + 1, raw[clause_start:])
                t.more.append(rec)
                t.shared.extend(shared)
                break  # the sub-claim read the rest of the note (its own tail)
        m = GRAMMAR["ev_open"].match(folded, pos)
        if m:
            _add_sources(t, m, raw, folded)
        _argument(t, raw, folded, pos, pos, script, depth, prev)
        break
    return t


#: Names of our 注疏 in the editors' argument: where they occur, the argument states what the
#: 注疏 reads (…今注疏本此處經文作捷柶…, 又辟今注疏本作避), which is a claim to check.
_ZHUSHU_IN_ARGUMENT = regex.compile(_alt(n for n, i in WITNESSES.items() if i == "zhushu" and "注疏" in n))
#: How far before the 注疏's name a lemma-first claim may start (又辟今注疏本作避).
_LEMMA_BEFORE = 6
_CLAUSE_START = regex.compile(r"又|且|而|今|也|矣|耳|明|者")


def _argument(t: _Tail, raw: str, folded: str, pos: int, body: int, script: str, depth: int,
              prev: _Claim | None) -> None:
    """The rest of the note from ``pos`` is argument (its text from ``body`` on is not the
    grammar's); keep it as remark, but read the claims about our 注疏 that it states.

    Why: the editors often quote a scholar and then say what 今注疏本 reads; that statement
    is checkable like any claim.  Only the 注疏's own names are looked for: other witnesses
    named in an argument are evidence (张淳云…石經作…), not claims.  A claim must start at the
    name or right after a clause boundary (又, 且, 今 …) at most :data:`_LEMMA_BEFORE` characters
    before it, and stand entirely after ``body``.
    """
    t.remark = raw[pos:]
    if depth >= 4:
        return
    for m in _ZHUSHU_IN_ARGUMENT.finditer(folded, body):
        q = m.start()
        starts = [b.end() for b in _CLAUSE_START.finditer(folded, max(body, q - _LEMMA_BEFORE), q)]
        for start in [*starts, q]:
            sub = _claim_at(raw, folded, start, start=False)
            if sub is None or sub.end <= q or sub.target not in ("zhushu",):
                continue
            rec, shared = _finish(raw, folded, sub, script, depth + 1, raw[start:])
            t.more.append(rec)
            t.shared.extend(shared)
            t.remark = raw[pos:start]
            return


def _finish(
    raw: str, folded: str, c: _Claim, script: str, depth: int, clause_raw: str
) -> tuple[NoteRecord, list[Source]]:
    """The record of claim ``c`` with its tail; also the evidence it shares with earlier claims."""
    tail = _parse_tail(raw, folded, c.end, script, depth, c)
    remark = "".join(x for x in (c.prefix, tail.remark) if x)
    kind, rule = c.kind, c.rule
    if kind == "variant" and not c.lemma and rule == "variant_wit_first":
        rule = "witness_reads"
        # the editors' judgement, with the names of books (张淳仪礼识误) taken out of it
        judged = _SOURCE_RE.sub("", fold_note_text(tail.remark))
        if GRAMMAR["judged_wrong"].search(judged):
            if c.target == "zhushu":  # 今注疏本作X…乃误: our 注疏 reads X, in error
                kind = "corruption"
            else:  # 唐石经作…当是石经误倒: a judgement on a witness, no reading changes
                kind, rule = "comment", "witness_judged"
    if kind == "conjecture" and GRAMMAR["rejected"].search(fold_note_text(tail.remark)):
        kind, rule = "comment", "conjecture_rejected"  # reported, then rejected: changes nothing
    evidence = [*c.evidence, *tail.evidence]
    if not tail.evidence:  # X讹作Y下文Z讹作W并据宋本改正: the shared evidence is ours too
        evidence.extend(tail.shared)
    if rule == "witness_worn" and tail.more:
        # 上字唐石經摩滅各本訛作士: the worn witness says nothing; the claim is the next one
        # (which took this lemma), with the worn witness as a remark
        first = tail.more[0]
        worn = raw[c.start : c.end]
        return replace(first, raw=clause_raw, remark="".join(x for x in (worn, first.remark) if x),
                       more=(*first.more, *tail.more[1:])), tail.shared
    rec = NoteRecord(
        kind=kind,
        raw=clause_raw,
        script=script,
        lemma=c.lemma,
        reading=c.reading,
        target=c.target,
        target_name=c.target_name,
        evidence=_dedupe(evidence),
        scope=tail.scope,
        position=c.position,
        count=c.count,
        rule=rule,
        remark=remark,
        more=tuple(tail.more),
        place=c.place,
        also=c.also,
        between=c.between,
        slips=c.slips,
        # what later stages need, as fields (they never test a rule's name)
        moved_to=c.place if rule == "transposition_moved" else "",
        transposed=rule.startswith("transposition") or rule == "conjecture_transpose",
    )
    return rec, tail.shared


def _first_claim(text: str, folded: str, pos: int) -> tuple[_Claim | None, str]:
    """The note's first claim (and the layer it names first, or ""): at the start, by a keyword,
    or at a witness named after an opening quotation (為父後者為之服期各本脫一為字)."""
    lm = GRAMMAR["layer_prefix"].match(folded, pos)
    if lm:
        claim = _claim_at(text, folded, lm.end())
        if claim is not None:
            return claim, LAYER_OF_PREFIX[folded[lm.start()]]
    claim = _claim_at(text, folded, pos) or _claim_by_search(text, folded, pos)
    if claim is not None:
        return claim, ""
    for w in _WIT_AT.finditer(folded, pos):
        got = _claim_at(text, folded, w.start(), start=False)
        if got is not None and got.kind in ("omission", "addition", "corruption", "variant"):
            got.prefix = text[pos : w.start()] + got.prefix
            return got, ""
    return None, ""


#: Witness names long enough to be recognised with one slipped character (今注疏木, 今注䟽夲 …).
_SLIP_NAMES: tuple[str, ...] = tuple(sorted({n for n in WITNESSES if len(n) >= 3}, key=lambda n: (-len(n), n)))
#: each of :data:`_SLIP_NAMES` with one character substituted, compiled once (2 ms): made in every call, the
#: patterns were looked up in regex's cache by their source, a name at a time, twice the time of the matching
_SLIP_PATTERNS: tuple[tuple[str, regex.Pattern], ...] = tuple(
    (name, regex.compile(f"(?:{regex.escape(name)}){{s<=1}}")) for name in _SLIP_NAMES)


def _slip_repairs(folded: str) -> list[tuple[int, str, str]]:
    """Where a formula word may be written with one slipped character: (position, as written, as meant).

    Two kinds: a witness name of three or more characters with one character wrong
    (:data:`_SLIP_NAMES`, by fuzzy matching: the rest of the name stands), and the lookalikes
    of single formula characters (:data:`~jiaokan.emend.lexicon.FORMULA_SLIPS`: 宇 for 字).
    The caller keeps a repair only where it makes the note parse.
    """
    out: list[tuple[int, str, str]] = []
    for name, pattern in _SLIP_PATTERNS:
        for m in pattern.finditer(folded, overlapped=True):
            got = m.group(0)
            if got != name and len(got) == len(name):
                i = next(k for k in range(len(name)) if got[k] != name[k])
                if got[i] in "今注疏本":  # a slip makes a name of another witness, not this one
                    continue
                out.append((m.start() + i, got[i], name[i]))
    for i, ch in enumerate(folded):
        if ch in FORMULA_SLIPS:
            out.append((i, ch, FORMULA_SLIPS[ch]))
    return list(dict.fromkeys(out))


@lru_cache(maxsize=4096)
def parse_note(raw: str, script: str | None = None) -> NoteRecord:
    """Parse one joined 案 note into a :class:`NoteRecord`; never raises.

    ``raw`` is the note's text in reading order starting with 案 (brackets, ``/`` and line
    breaks are removed here too, so a transcription can be passed as is).  ``script``
    (``simplified``/``traditional``) overrides the detection, which reports ``unknown``
    when no character tells the scripts apart.

    Each text is parsed once per process: the record depends on nothing else and is frozen, and the
    formula notes recur (案此下今注疏本有也字, 案此下原本缺: a sixth of the book's notes repeat one
    parsed before).
    """
    text = join_note_text(raw)
    try:
        script = script or detect_script(text)
        folded = fold_note_text(text)
        m = GRAMMAR["note_start"].match(folded)
        pos = m.end() if m else 0
        claim, layer = _first_claim(text, folded, pos)
        if claim is None:
            # one slipped character in a formula word (此下今注疏本有也宇): read as meant where
            # the rest of the formula stands, and say so in the record
            for at, wrong, right in _slip_repairs(folded):
                repaired = folded[:at] + right + folded[at + 1 :]
                claim, layer = _first_claim(text, repaired, pos)
                if claim is not None:
                    folded = repaired
                    claim.slips = (f"{wrong}→{right}",)
                    break
        if claim is None:
            return NoteRecord(kind="comment", raw=text, script=script, remark=text[pos:])
        if claim.kind == "conjecture" and _AUTHOR_JUDGED.search(fold_note_text(claim.prefix)):
            # 李氏據鄭注誤本不知韐字屬衍文: a judgement on 李如圭 (he followed a corrupt copy),
            # not an emendation of his words
            return NoteRecord(kind="comment", raw=text, script=script, target="self",
                              position="none", rule="author_judged", remark=text[pos:])
        rec, _shared = _finish(text, folded, claim, script, 0, text)
        return replace(rec, layer=layer) if layer else rec
    except Exception as exc:  # pragma: no cover - a safety net: a note is never lost
        return NoteRecord(kind="comment", raw=text, script=script or "unknown", remark=text,
                          rule=f"error:{type(exc).__name__}")
