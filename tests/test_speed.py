"""The fast paths of issue #24 give exactly what the slow ones they replaced gave."""

from __future__ import annotations

import gc
import json

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml.builder import ElementMaker

from jiaokan.collector import collector_paused
from jiaokan.io import json_bytes
from jiaokan.normalize import is_ignorable, kept_positions, strip_ignorable
from jiaokan.tei.build import TEI_NS, E, tei_bytes, xml_safe

# text as the book has it: ideographs, punctuation (CJK and ASCII), spaces, controls, astral and private-use
_CHARS = st.sampled_from(list("司射適西階，。、：「」《》 \u3000\t\n\x01\ufffd\ue000禮𤣥\U00020000a.-")) | st.characters()
TEXT = st.text(_CHARS, max_size=40)


@given(TEXT)
@settings(max_examples=300, deadline=None)
def test_strip_and_positions_are_the_per_character_loop(text):
    assert strip_ignorable(text) == "".join(c for c in text if not is_ignorable(c))
    assert kept_positions(text) == [i for i, c in enumerate(text) if not is_ignorable(c)]
    lo, hi = len(text) // 3, 2 * len(text) // 3
    assert kept_positions(text, lo, hi) == [i for i in range(lo, hi) if not is_ignorable(text[i])]


# the book's own mix: long runs of ideographs, a mark or a space now and then (the sparse path), or none at all
_SPARSE = st.lists(st.sampled_from(list("司射適西階禮𤣥\U00020000\U0003134a\uf900")) | _CHARS, min_size=0, max_size=200) \
    .map(lambda cs: "".join(cs[:1] + [c for c in cs[1:] if ord(c) >= 0x3400 or len(cs) % 5 == 0]))


@given(TEXT | _SPARSE, st.integers(-3, 210), st.integers(-3, 210) | st.none())
@settings(max_examples=400, deadline=None)
def test_kept_offsets_and_key_string_are_the_per_character_loop(text, lo, hi):
    from jiaokan.normalize import key
    from jiaokan.normalize.fold import key_string
    from jiaokan.normalize.ignorable import ignorable_offsets, kept_offsets

    assert strip_ignorable(text) == "".join(c for c in text if not is_ignorable(c))
    assert kept_offsets(text).tolist() == [i for i, c in enumerate(text) if not is_ignorable(c)]
    lo = max(0, lo)
    end = len(text) if hi is None else max(lo, min(hi, len(text)))
    assert kept_offsets(text, lo, hi).tolist() == [i for i in range(lo, end) if not is_ignorable(text[i])]
    assert kept_positions(text, lo, hi) == [i for i in range(lo, end) if not is_ignorable(text[i])]
    cuts = ignorable_offsets(text)
    assert cuts is None or cuts == [i for i, c in enumerate(text) if is_ignorable(c)]
    keys = [key(c) for c in text if not is_ignorable(c)]
    assert key_string(text) == ("".join(keys) if all(len(k) == 1 for k in keys) else None)


def test_the_ideograph_blocks_hold_nothing_ignorable():
    """What the sparse path takes on trust (:data:`~jiaokan.normalize.ignorable.NEVER_IGNORABLE`), checked on every
    code point of this Python's Unicode."""
    import re

    from jiaokan.normalize.ignorable import NEVER_IGNORABLE

    never = re.compile(f"[{NEVER_IGNORABLE}]")
    assert not [cp for cp in range(0x110000) if never.match(chr(cp)) and is_ignorable(chr(cp))]


@given(st.recursive(st.none() | st.booleans() | st.integers() | TEXT,
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(TEXT, kids, max_size=4), max_leaves=20))
@settings(max_examples=200, deadline=None)
def test_json_bytes_are_the_stdlib_compact_bytes(obj):
    try:
        want = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no JSON file can hold it either way
        return
    assert json_bytes(obj) == want


_REF = ElementMaker(namespace=TEI_NS, nsmap={None: TEI_NS})


def _ref(tag, *children, **attrs):
    """TEIMaker as it was: lxml's ElementMaker behind the same conventions."""
    names = {"xml_id": "{http://www.w3.org/XML/1998/namespace}id"}
    attrib = {names.get(k, k): xml_safe(v) for k, v in attrs.items() if v is not None}
    return _REF(tag, attrib, *[xml_safe(c) if isinstance(c, str) else c for c in children if c is not None])


@given(st.lists(st.one_of(TEXT, st.none(), st.sampled_from(["lb", "pb", "label"])), max_size=8),
       st.one_of(st.none(), TEXT), st.one_of(st.none(), st.text("ab12-_", min_size=1, max_size=6)))
@settings(max_examples=200, deadline=None)
def test_tei_maker_makes_the_bytes_element_maker_made(parts, n, xml_id):
    def build(maker):
        kids = [maker(p, n="3") if p in ("lb", "pb", "label") else p for p in parts]
        return maker("div", maker("ab", *kids, type="jing", n=n, xml_id=xml_id, cert=None), type="chapter")

    assert tei_bytes(build(E)) == tei_bytes(build(_ref))
    assert etree.tostring(E.ab("")) == etree.tostring(_ref("ab", ""))  # an empty string still makes <ab></ab>


def test_collate_runs_with_the_collector_paused_and_gives_it_back(monkeypatch):
    """An API user's collate() runs as the build's does (the collector off: twice as fast on the whole
    book), and leaves the collector as the user had it."""
    from jiaokan.collate import engine
    from jiaokan.model import Div, Piece, Text, Unit, Witness, WitnessMeta, Loc

    def witness(s: str) -> Witness:
        w = Witness(WitnessMeta(siglum=s, file=f"{s}.txt", format="gen"))
        w.divs.append(Div("chapter", "1", None, units=[Unit(f"{s}.1", [Piece("jing", [Text("冠禮筮于廟門")], Loc(1))])]))
        return w

    seen = []
    real = engine.passage_rows
    monkeypatch.setattr(engine, "passage_rows", lambda *a, **k: seen.append(gc.isenabled()) or real(*a, **k))
    assert gc.isenabled()
    engine.collate([witness("A"), witness("B")])
    assert seen == [False] and gc.isenabled()


def test_the_build_pauses_the_collector_and_gives_it_back():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()


@given(TEXT)
@settings(max_examples=300, deadline=None)
def test_exact_keys_and_t2s_text_are_the_per_character_loop(text):
    from jiaokan.normalize import key
    from jiaokan.normalize.fold import exact_keys
    from jiaokan.normalize.script import t2s_char, t2s_text

    got = exact_keys(text)
    kept = [i for i, c in enumerate(text) if not is_ignorable(c)]
    keys = [key(text[i]) for i in kept]
    if all(len(k) == 1 for k in keys):  # the one case it answers; else None, and the caller loops
        assert got is not None and got[0] == "".join(keys) and list(got[1]) == kept
    else:
        assert got is None
    assert t2s_text(text) == "".join(t2s_char(c) for c in text)
