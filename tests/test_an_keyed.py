"""The anchoring's keyed text (jiaokan.emend.anchor._Keyed), made in C, against the per-character definition."""

from __future__ import annotations

import importlib
import random

from jiaokan.normalize import is_ignorable, key

anchor = importlib.import_module("jiaokan.emend.anchor")

TEXTS = ["冠者見於兄弟，兄弟再拜。冠者答拜", "○主人醴賓以壹獻之禮 主婦薦脯醢", "醴辭曰甘醴惟厚嘉薦令芳", "", "，。"]


def _naive(text: str) -> tuple[list[int], list[str]]:
    pos = [i for i, ch in enumerate(text) if not is_ignorable(ch)]
    return pos, [key(text[i]) for i in pos]


def _naive_occurrences(pos: list[int], keys: list[str], want: list[str]) -> list[tuple[int, int]]:
    n = len(want)
    return [(pos[i], pos[i + n - 1] + 1) for i in range(len(keys) - n + 1) if n and keys[i : i + n] == want]


def test_keys_offsets_and_occurrences_are_the_per_character_ones():
    rng = random.Random(31)
    for text in TEXTS + ["".join(rng.choice("兄弟拜，冠者。 再") for _ in range(60)) for _ in range(20)]:
        kd = anchor._Keyed(text)
        pos, keys = _naive(text)
        assert (kd.pos, kd.keys) == (pos, keys)
        for want in (["兄", "弟"], ["拜"], [key("冠"), key("者")], [], ["兄", "xy"], ["", "兄"]):
            assert list(kd.occurrences(want)) == _naive_occurrences(pos, keys, want)
        for a in range(-1, len(text) + 2):
            for b in range(-1, len(text) + 2):
                assert kd.count_between(a, b) == sum(1 for p in pos if a <= p < b)


def test_a_text_with_a_key_of_another_length_is_searched_key_by_key(monkeypatch):
    """Where some character keys to no character or to several, the list of keys is searched as a list."""
    kd = anchor._Keyed.__new__(anchor._Keyed)
    kd.text, kd.pos, kd.keys, kd._joined = "甲乙丙乙", [0, 1, 2, 3], ["甲", "乙x", "", "乙x"], None
    assert list(kd.occurrences(["乙x"])) == [(1, 2), (3, 4)]
    assert list(kd.occurrences(["乙x", ""])) == [(1, 3)]
    assert list(kd.occurrences(["乙"])) == []


def test_same_keys_on_whole_texts_is_every_pair_agreeing():
    """check._same_keys (a row's equal stretch at once) says True only where every pair's _same_key does."""
    check = importlib.import_module("jiaokan.emend.check")
    rng = random.Random(24)
    alphabet = "於于禮礼兄弟\ufffd□甲"
    for _ in range(400):
        n = rng.randrange(0, 6)
        xs = "".join(rng.choice(alphabet) for _ in range(n))
        ys = "".join(rng.choice(alphabet) for _ in range(n)) if rng.random() < 0.5 else xs
        every = all(check._same_key(x, y) for x, y in zip(xs, ys))
        if check._same_keys(xs, ys):
            assert every, (xs, ys)
        elif "\ufffd" not in xs + ys and "□" not in xs + ys:
            assert not every, (xs, ys)  # (without an unreadable character it decides both ways)
    assert not check._same_keys("兄", "兄弟")
