"""The layer rule's quick answer (:func:`jiaokan.tei.validate._maybe_unlayered`) never hides what the full
check finds: on generated trees of every shape the rule meets (text and tails, blank or not, in and out of
``@type``d elements, comments, the tail of ``<text>`` itself) and on the TEI of real witnesses."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from jiaokan.tei.validate import _maybe_unlayered, _unlayered, layer_errors
from jiaokan.tei.writer import TEI_NS, witness_to_tei

_T = "{%s}" % TEI_NS

types = st.sampled_from([None, None, "jing", "zhu", "an", "chapter", "verdict", "", "jing zhu"])
texts = st.sampled_from([None, "", " \n", "\u3000", "經", "注文"])
tags = st.sampled_from(["div", "ab", "seg", "note", "label", "gap", "desc", "lb"])


@st.composite
def elements(draw, depth: int = 0):
    if depth < 4 and draw(st.integers(0, 6)) == 0:
        el = etree.Comment("c")
    else:
        el = etree.Element(_T + draw(tags))
        t = draw(types)
        if t is not None:
            el.set("type", t)
        el.text = draw(texts)
        if depth < 4:
            for child in draw(st.lists(elements(depth + 1), max_size=3)):
                el.append(child)
    el.tail = draw(texts)
    return el


@st.composite
def documents(draw):
    root = etree.Element(_T + "TEI")
    if draw(st.booleans()):
        root.set("type", draw(st.sampled_from(["jing", "chapter"])))
    text = etree.SubElement(root, _T + "text")
    t = draw(types)
    if t is not None:
        text.set("type", t)
    text.text = draw(texts)
    for child in draw(st.lists(elements(), max_size=4)):
        text.append(child)
    text.tail = draw(texts)
    return root


@settings(max_examples=400, deadline=None)
@given(documents())
def test_the_quick_answer_hides_nothing(root):
    text = root.find(_T + "text")
    full = _unlayered(text, 20)
    if full:
        assert _maybe_unlayered(text)
    assert layer_errors(root) == full


def test_real_witnesses_have_nothing_unlayered_and_say_so_quickly(read_kanripo):
    for stem in ("KR1d0030_005", "KR1d0028_005", "KR1d0026_005"):
        root = witness_to_tei(read_kanripo(stem)).getroot()
        text = root.find(_T + "text")
        assert not _maybe_unlayered(text) and _unlayered(text, 20) == [] == layer_errors(root)
        # one stray character in a div, after a piece: found, and named, as before
        div = text.find(f".//{_T}body/{_T}div")
        div[0].tail = "衍"
        assert _maybe_unlayered(text)
        assert layer_errors(root) == [f"line {div[0].sourceline}: text '衍' has no layer (nearest @type={div.get('type')!r})"]
