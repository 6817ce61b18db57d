"""The readers' fast paths of issue #24 give exactly what the plain definitions give.

Each test states the plain definition (a Python step per character, or the loop the code had
before) and holds the fast one to it on generated text: the losslessness count, the held-code-point
check, the 四库 column count, the folded markers, the echo weights and the boundary models.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from jiaokan.model import HELD_RE, has_held
from jiaokan.normalize import key
from jiaokan.readers.common.base import HAN_RE, columns, counted_chars
from jiaokan.readers.layouts.zhushu import ECHO_MAX, ECHO_PAIR, shared_runs
from jiaokan.readers.layouts.zhushu_boundary import START, CharModel, bigram_counts
from jiaokan.readers.layouts.zhushu_markers import fold

#: the held code points, one by one (the definition HELD_RE's two classes must equal)
_NONCHARS = "".join(f"{chr(p + 0xFFFE)}{chr(p + 0xFFFF)}" for p in range(0x10000, 0x110000, 0x10000))
_HELD_ONE_CLASS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ue000-\uf8ff\ufdd0-\ufdef"
                             "\ufffd\ufffe\uffff" + _NONCHARS + "\U000f0000-\U0010ffff]")

# text as the files hold it, and the edges: controls that are white space, noncharacters of every
# plane, private use, Han beyond the BMP (in and past its range), brackets and entities
_CHARS = st.sampled_from(list("司射適西階，。、()/ \u3000\t\n\x01\x0b\x1c\x85\ufffd\ufffe\ue000禮䟽疏註"
                              "\U00020000\U0002fffe\U0003134f\U00031350\U0003fffe\U0001f600\U0001ffff"
                              "\U000efffe\U000f0000\U0010fffd&;KR0925a")) | st.characters()
TEXT = st.text(_CHARS, max_size=40)


@given(TEXT)
@settings(max_examples=400, deadline=None)
def test_held_is_the_one_class_of_held_code_points(text):
    assert HELD_RE.findall(text) == _HELD_ONE_CLASS.findall(text)
    assert has_held(text) == (_HELD_ONE_CLASS.search(text) is not None)



def test_held_is_answered_for_every_code_point():
    """has_held's quick answer (printable text without U+FFFD holds nothing held) holds for each code
    point of Unicode, alone and in printable text: what Python calls printable is no held code point."""
    wrong = [hex(c) for c in range(0x110000)
             if has_held(f"禮{chr(c)}") != (_HELD_ONE_CLASS.search(chr(c)) is not None)]
    assert wrong == []

@given(TEXT)
@settings(max_examples=400, deadline=None)
def test_counted_chars_are_han_and_held_characters_but_white_space(text):
    plain = "".join(c for c in text if (HAN_RE.match(c) or _HELD_ONE_CLASS.match(c)) and not c.isspace())
    assert counted_chars(text) == plain


def _columns_by_character(text: str) -> int:
    text = re.sub(r"&([A-Za-z][A-Za-z0-9_]*);", "\ue000", text)
    width = i = 0
    while i < len(text):
        if text[i] == "(":
            j = text.find(")", i + 1)
            j = len(text) if j < 0 else j
            width += math.ceil(sum(1 for c in text[i + 1:j] if c not in "/ \u3000") / 2)
            i = j + 1
            continue
        width += not text[i].isspace() and text[i] not in "/)"
        i += 1
    return width


@given(TEXT)
@settings(max_examples=400, deadline=None)
def test_columns_are_counted_as_character_by_character(text):
    assert columns(text) == _columns_by_character(text)


@given(TEXT)
@settings(max_examples=300, deadline=None)
def test_fold_is_each_character_s_one_character_key(text):
    assert fold(text) == "".join(k if len(k := key(c)) == 1 else c for c in text)


def _shared_runs_downwards(span: str, source: str) -> list[float]:
    weight = [0.0] * len(span)
    for i in range(len(span) - 1) if source else ():
        for n in range(min(ECHO_MAX, len(span) - i), 1, -1):
            if span[i:i + n] in source:
                for t in range(i, i + n):
                    weight[t] = max(weight[t], ECHO_PAIR if n == 2 else 1.0)
                break
    return weight


@given(st.text("之而不也者", max_size=20), st.text("之而不也者", max_size=20))
@settings(max_examples=400, deadline=None)
def test_echo_weights_are_the_longest_run_at_each_start(span, source):
    assert shared_runs(span, source) == _shared_runs_downwards(span, source)


@given(st.lists(st.text("之而不也者人", max_size=12), max_size=6),
       st.dictionaries(st.tuples(st.sampled_from("之而不也者" + START), st.sampled_from("之而不也者賓")),
                       st.integers(0, 5), max_size=12))
@settings(max_examples=300, deadline=None)
def test_a_boundary_model_is_its_merged_bigram_table(texts, prior_counts):
    """What the model counts is what one merged table of the file's and the prior's bigrams gives."""
    prior = Counter(prior_counts)
    merged = bigram_counts(texts)
    merged.update(prior)
    contexts: Counter[str] = Counter()
    unigrams: Counter[str] = Counter()
    followers: defaultdict[str, set[str]] = defaultdict(set)
    for (a, b), k in merged.items():
        contexts[a] += k
        unigrams[b] += k
        followers[a].add(b)
    for m in (CharModel(texts, prior), CharModel(iter(texts), prior)):
        assert m.bigrams == merged and set(m.bigrams) == set(merged)
        assert (m.contexts, m.unigrams) == (contexts, unigrams) and set(m.unigrams) == set(unigrams)
        assert m.types == {a: len(s) for a, s in followers.items()}
        assert (m.total, m.vocab) == (sum(unigrams.values()), len(unigrams) + 1)
