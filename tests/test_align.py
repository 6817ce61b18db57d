"""Tests for the character-level alignment engine (jiaokan.collate.align)."""

from __future__ import annotations

import difflib
import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jiaokan.collate import align as align_mod
from jiaokan.collate.align import Op, align, align_texts, edit_counts

# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

#: A CJK-like alphabet with a skewed frequency: particles and ritual words
#: repeat a lot, as in the 仪礼 texts.
POOL = (
    "之" * 8
    + "也" * 5
    + "者" * 4
    + "射" * 4
    + "于" * 3
    + "大夫" * 3
    + "公卿士賓主人司升降西東北南面揖矢弓席爵觶洗階上下左右坐興取奠反位"
    + "乘耦拾扑袒決遂執挾旌獲釋算中侯乏樂工笙瑟鼓磬"
)


def cjk_text(min_size: int = 0, max_size: int = 60) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(POOL), min_size=min_size, max_size=max_size).map("".join)


def check_contract(ops: list[Op], a, b) -> None:
    """The ordering/coverage contract documented in jiaokan.collate.align."""
    a = list(a)
    b = list(b)
    pos = 0
    for op in ops:
        assert op.a0 == pos, (op, ops)
        assert op.a1 >= op.a0
        pos = op.a1
    assert pos == len(a)
    prev = 0
    for op in ops:
        if op.kind != "transpose":
            assert op.b0 >= prev, (op, ops)
            assert op.b1 >= op.b0
            prev = op.b1
    ranges = sorted((op.b0, op.b1) for op in ops if op.b1 > op.b0)
    pos = 0
    for b0, b1 in ranges:
        assert b0 == pos, (b0, ops)
        pos = b1
    assert pos == len(b)
    for op in ops:
        la, lb = op.a1 - op.a0, op.b1 - op.b0
        if op.kind in ("equal", "transpose"):
            assert la == lb > 0
            assert a[op.a0 : op.a1] == b[op.b0 : op.b1], op
        elif op.kind == "replace":
            assert la > 0 and lb > 0
        elif op.kind == "delete":
            assert la > 0 and lb == 0
        elif op.kind == "insert":
            assert lb > 0 and la == 0
        else:  # pragma: no cover
            raise AssertionError(op.kind)


def equal_keys(ops: list[Op]) -> int:
    return sum(op.a1 - op.a0 for op in ops if op.kind == "equal")


def mutate_pair(base: str, edits_a, edits_b, pool: str = POOL):
    """Two independent mutations of ``base``; returns (a, b, known common length).

    Each edit is (position, action, char): action 0 deletes the base character
    at that position, 1 inserts ``char`` before it, 2 substitutes it (delete +
    insert).  The base characters that survive in both copies form a common
    subsequence of a and b, whatever the inserted characters are.
    """

    def apply(edits):
        dels, ins = set(), {}
        for p, action, ch in edits:
            p %= len(base) + 1
            if action in (0, 2) and p < len(base):
                dels.add(p)
            if action in (1, 2):
                ins.setdefault(p, []).append(ch)
        out = []
        for i in range(len(base) + 1):
            out.extend(ins.get(i, ()))
            if i < len(base) and i not in dels:
                out.append(base[i])
        return "".join(out), dels

    a, da = apply(edits_a)
    b, db = apply(edits_b)
    return a, b, len(base) - len(da | db)


edit = st.tuples(st.integers(0, 10_000), st.integers(0, 2), st.sampled_from(POOL))


def mirrored_counts(ops: list[Op]) -> tuple:
    c = edit_counts(ops)
    kinds = {}
    for op in ops:
        kinds[op.kind] = kinds.get(op.kind, 0) + 1
    return c, kinds


def mirror_of(counts: tuple) -> tuple:
    c, kinds = counts
    c = dict(c)
    c["delete"], c["insert"] = c["insert"], c["delete"]
    c["replace_a"], c["replace_b"] = c["replace_b"], c["replace_a"]
    kinds = dict(kinds)
    d, i = kinds.pop("delete", 0), kinds.pop("insert", 0)
    if i:
        kinds["delete"] = i
    if d:
        kinds["insert"] = d
    return c, kinds


# --------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(cjk_text(), cjk_text())
def test_contract_random_pairs(a, b):
    for options in ({}, {"transpositions": False}, {"cleanup": False}):
        check_contract(align(a, b, **options), a, b)


@settings(max_examples=200, deadline=None)
@given(cjk_text(0, 200), st.lists(edit, max_size=15), st.lists(edit, max_size=15))
def test_contract_mutated_pairs(base, ea, eb):
    a, b, _ = mutate_pair(base, ea, eb)
    check_contract(align(a, b), a, b)


@settings(max_examples=200, deadline=None)
@given(cjk_text(0, 300))
def test_identity_is_one_equal(x):
    ops = align(x, x)
    if x:
        assert ops == [Op("equal", 0, len(x), 0, len(x))]
    else:
        assert ops == []


@settings(max_examples=300, deadline=None)
@given(cjk_text(), cjk_text())
def test_mirrored_edit_counts_random(a, b):
    assert mirrored_counts(align(b, a)) == mirror_of(mirrored_counts(align(a, b)))


@settings(max_examples=200, deadline=None)
@given(cjk_text(0, 300), st.lists(edit, max_size=20), st.lists(edit, max_size=20))
def test_mirrored_edit_counts_mutated(base, ea, eb):
    a, b, _ = mutate_pair(base, ea, eb)
    assert mirrored_counts(align(b, a)) == mirror_of(mirrored_counts(align(a, b)))


@settings(max_examples=300, deadline=None)
@given(cjk_text(0, 300), st.lists(edit, max_size=20), st.lists(edit, max_size=20))
def test_finds_planted_common_subsequence(base, ea, eb):
    """Within the exact regime (edits within Myers' cap) the engine is LCS-optimal.

    ``cleanup=False``: chaff dissolution deliberately gives up short matches
    stranded inside substantial two-sided changes, so the guarantee is about
    the engine itself.
    """
    a, b, known = mutate_pair(base, ea, eb)
    ops = align(a, b, cleanup=False)
    check_contract(ops, a, b)
    assert equal_keys(ops) >= known


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(2_000, 8_000),
    st.floats(0.0, 0.05),
)
def test_finds_planted_common_subsequence_anchored(seed, size, rate):
    """Long pairs with up to 5% edits per side: the anchored path (n-grams + LIS)."""
    rng = random.Random(seed)
    base = "".join(rng.choice(POOL) for _ in range(size))

    def edits():
        return [
            (rng.randrange(size + 1), rng.randrange(3), rng.choice(POOL))
            for _ in range(int(size * rate))
        ]

    a, b, known = mutate_pair(base, edits(), edits())
    ops = align(a, b, cleanup=False)
    check_contract(ops, a, b)
    assert equal_keys(ops) >= known
    check_contract(align(a, b), a, b)


@settings(max_examples=200, deadline=None)
@given(cjk_text(0, 120), st.lists(edit, max_size=10), st.lists(edit, max_size=10))
def test_at_least_as_good_as_difflib_in_exact_regime(base, ea, eb):
    a, b, _ = mutate_pair(base, ea, eb)
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    ref = sum(blk.size for blk in sm.get_matching_blocks())
    assert equal_keys(align(a, b, cleanup=False)) >= ref


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=40), st.lists(st.integers(0, 6), max_size=40))
def test_non_string_keys(a, b):
    ops = align(a, b)
    check_contract(ops, a, b)
    assert mirrored_counts(align(b, a)) == mirror_of(mirrored_counts(ops))
    # the same alignment as on characters that encode the same keys
    ca = "".join(chr(0x4E00 + k) for k in a)
    cb = "".join(chr(0x4E00 + k) for k in b)
    assert mirrored_counts(align(ca, cb)) == mirrored_counts(ops)


# --------------------------------------------------------------------------
# hand cases
# --------------------------------------------------------------------------


def test_single_missing_character_is_one_delete():
    a, b = "司射遂袒执弓", "司射袒执弓"
    ops = align(a, b)
    assert ops == [
        Op("equal", 0, 2, 0, 2),
        Op("delete", 2, 3, 2, 2),
        Op("equal", 3, 6, 2, 5),
    ]
    assert a[2] == "遂"
    assert align(b, a) == [
        Op("equal", 0, 2, 0, 2),
        Op("insert", 2, 2, 2, 3),
        Op("equal", 2, 5, 3, 6),
    ]


def test_different_character_is_one_replace():
    a, b = "仆人师洗升实觯", "仆人师洗升宾觯"
    ops = align(a, b)
    assert ops == [
        Op("equal", 0, 5, 0, 5),
        Op("replace", 5, 6, 5, 6),
        Op("equal", 6, 7, 6, 7),
    ]
    assert (a[5], b[5]) == ("实", "宾")


def test_replace_between_shared_characters_stays_separate():
    # 甲X乙 / 丙X丁: two one-character variants around a shared character
    ops = align("射甲之乙射", "射丙之丁射")
    assert [op.kind for op in ops] == ["equal", "replace", "equal", "replace", "equal"]


def test_unequal_region_is_one_replace():
    a, b = "公許於是遂適西階", "公許乃遂適西階"
    ops = align(a, b)
    assert ops == [
        Op("equal", 0, 2, 0, 2),
        Op("replace", 2, 4, 2, 3),
        Op("equal", 4, 8, 3, 7),
    ]


def test_transposition_of_a_segment():
    a = "司射適西階西倚扑升自西階東面請射于公"
    b = "司射適西階西升自西階倚扑東面請射于公"
    ops = align(a, b)
    check_contract(ops, a, b)
    tr = [op for op in ops if op.kind == "transpose"]
    assert tr == [Op("transpose", 6, 8, 10, 12)]
    assert a[6:8] == b[10:12] == "倚扑"
    assert not [op for op in ops if op.kind in ("insert", "delete", "replace")]
    # without detection: a delete and an insert of the same keys
    plain = align(a, b, transpositions=False)
    assert sorted(op.kind for op in plain if op.kind != "equal") == ["delete", "insert"]


def test_transposition_backwards():
    # the moved segment comes earlier in b: listed at its place in a
    a = "升自西階倚扑東面請射于公"
    b = "倚扑升自西階東面請射于公"
    ops = align(a, b)
    check_contract(ops, a, b)
    assert ops == [
        Op("equal", 0, 4, 2, 6),
        Op("transpose", 4, 6, 0, 2),
        Op("equal", 6, 12, 6, 12),
    ]


def test_adjacent_swap_is_transposition():
    # 误倒: 甲乙 / 乙甲
    assert align("賓主", "主賓") == [
        Op("transpose", 0, 1, 1, 2),
        Op("equal", 1, 2, 0, 1),
    ]
    a, b = "主人坐取爵于篚", "主人取爵坐于篚"
    ops = align(a, b)
    check_contract(ops, a, b)
    assert [op.kind for op in ops] == ["equal", "transpose", "equal", "equal"]
    assert ops[1] == Op("transpose", 2, 3, 4, 5)


def test_far_single_character_is_not_transposition():
    a = "之射大夫公卿士賓主人司升降西東北南面"
    b = "射大夫公卿士賓主人司升降西東北南面之"
    kinds = sorted(op.kind for op in align(a, b))
    assert "transpose" not in kinds
    assert kinds.count("delete") == 1 and kinds.count("insert") == 1


def test_swapped_halves_inside_a_replace():
    # a long segment jumping over a short one is seen by the engine as one
    # region after chaff merging or as delete/equal/insert; both give transpose
    a = "上射揖進坐橫弓卻手自弓下取一个兼諸弣興"
    moved = a[4:14]
    b = a[:4] + a[14:16] + moved + a[16:]
    ops = align(a, b)
    check_contract(ops, a, b)
    assert any(op.kind == "transpose" for op in ops)
    assert not [op for op in ops if op.kind in ("insert", "delete", "replace")]


def test_rotation_split():
    op = Op("replace", 0, 5, 0, 5)
    a, b = "甲乙丙丁戊", "丁戊甲乙丙"
    out = align_mod._split_rotation(op, a, b)
    assert out == [Op("equal", 0, 3, 2, 5), Op("transpose", 3, 5, 0, 2)]
    check_contract(out, a, b)


def test_large_gap_is_one_delete_and_fast():
    rng = random.Random(7)
    base = "".join(rng.choice(POOL) for _ in range(6000))
    extra = "".join(rng.choice(POOL) for _ in range(2000))
    a = base[:3000] + extra + base[3000:]
    t0 = time.perf_counter()
    ops = align(a, base)
    elapsed = time.perf_counter() - t0
    assert [op.kind for op in ops] == ["equal", "delete", "equal"]
    d = ops[1]
    assert d.a1 - d.a0 == 2000 and d.b0 == d.b1
    assert a[: d.a0] + a[d.a1 :] == base
    assert elapsed < 1.0


def test_large_gap_without_anchors_does_not_explode():
    # a 3000-key stretch in a against 40 unrelated keys in b: one change region
    rng = random.Random(3)
    left = "".join(rng.choice(POOL) for _ in range(500))
    right = "".join(rng.choice(POOL) for _ in range(500))
    shu = "".join(chr(0x5000 + rng.randrange(300)) for _ in range(3000))
    shi = "".join(chr(0x6000 + rng.randrange(300)) for _ in range(40))
    a, b = left + shu + right, left + shi + right
    t0 = time.perf_counter()
    ops = align(a, b)
    assert time.perf_counter() - t0 < 1.0
    assert ops == [
        Op("equal", 0, 500, 0, 500),
        Op("replace", 500, 3500, 500, 540),
        Op("equal", 3500, 4000, 540, 1040),
    ]


def test_chaff_is_dissolved():
    # two unrelated passages that happen to share particles: one replace,
    # not a shredded run of one-character matches
    ctx1, ctx2 = "司射適西階西倚扑", "升自西階東面請射于公"
    shu = "疏釋曰云告于大夫者以諸公卿在上故請大夫降也"
    shi = "釋曰鄉射禮主人之位在阼階上西面也"
    a, b = ctx1 + shu + ctx2, ctx1 + shi + ctx2
    ops = align(a, b)
    check_contract(ops, a, b)
    assert len(ops) <= 5
    raw = align(a, b, cleanup=False)
    assert len(raw) > len(ops)


def test_empty_sides():
    assert align("", "") == []
    assert align("", "射") == [Op("insert", 0, 0, 0, 1)]
    assert align("射", "") == [Op("delete", 0, 1, 0, 0)]


def test_accepts_any_hashable_keys():
    a = [("射", 1), ("遂", 2), ("袒", 3)]
    b = [("射", 1), ("袒", 3)]
    assert align(a, b) == [Op("equal", 0, 1, 0, 1), Op("delete", 1, 2, 1, 1), Op("equal", 2, 3, 1, 2)]


def test_difflib_not_used():
    src = Path(align_mod.__file__).read_text(encoding="utf-8")
    assert "import difflib" not in src and "from difflib" not in src
    assert "SequenceMatcher" not in src


def test_whole_chapter_scale_is_fast():
    rng = random.Random(11)
    base = "".join(rng.choice(POOL) for _ in range(60_000))
    a, b, known = mutate_pair(
        base,
        [(rng.randrange(60_001), rng.randrange(3), rng.choice(POOL)) for _ in range(1800)],
        [(rng.randrange(60_001), rng.randrange(3), rng.choice(POOL)) for _ in range(1800)],
    )
    t0 = time.perf_counter()
    ops = align(a, b)
    elapsed = time.perf_counter() - t0
    check_contract(ops, a, b)
    assert equal_keys(ops) >= known * 0.99
    assert elapsed < 3.0  # about 0.2 s on a laptop; generous for loaded CI


# --------------------------------------------------------------------------
# align_texts
# --------------------------------------------------------------------------

PUNCT = set("，。、；：？！「」『』（）《》 \n")


def test_align_texts_maps_back_to_string_indices():
    a = "司射，遂袒執弓。"
    b = "司射袒執弓，"
    ops = align_texts(a, b, ignorable=lambda ch: ch in PUNCT)
    check_contract_strings(ops, a, b)
    (d,) = [op for op in ops if op.kind == "delete"]
    assert a[d.a0 : d.a1] == "遂"
    assert [op.kind for op in ops] == ["equal", "delete", "equal"]
    # punctuation rides with the agreement around the change
    assert a[ops[0].a0 : ops[0].a1] == "司射，"
    assert a[ops[2].a0 : ops[2].a1] == "袒執弓。"
    assert b[ops[2].b0 : ops[2].b1] == "袒執弓，"


def test_align_texts_with_key_folding():
    fold = {"執": "执", "賓": "宾", "實": "实"}
    a = "僕人師洗，升實觶。"
    b = "仆人师洗升宾觯"
    t2s = {"僕": "仆", "師": "师", "觶": "觯"} | fold
    ops = align_texts(a, b, key=lambda ch: t2s.get(ch, ch), ignorable=lambda ch: ch in PUNCT)
    check_contract_strings(ops, a, b)
    (r,) = [op for op in ops if op.kind == "replace"]
    assert a[r.a0 : r.a1] == "實" and b[r.b0 : r.b1] == "宾"


def test_align_texts_insert_point_and_transpose():
    a = "主人坐，取爵于篚。"
    b = "主人取爵，坐于篚。"
    ops = align_texts(a, b, ignorable=lambda ch: ch in PUNCT)
    check_contract_strings(ops, a, b)
    (t,) = [op for op in ops if op.kind == "transpose"]
    assert a[t.a0 : t.a1] == "坐" and b[t.b0 : t.b1] == "坐"


def test_align_texts_only_ignorables():
    assert align_texts("，。", "", ignorable=lambda ch: ch in PUNCT) == []
    ops = align_texts("，", "射", ignorable=lambda ch: ch in PUNCT)
    assert ops == [Op("insert", 0, 0, 0, 1)]


def check_contract_strings(ops, a, b):
    """align_texts ops tile both strings (same contract as align)."""
    pos = 0
    for op in ops:
        assert op.a0 == pos
        pos = op.a1
    assert pos == len(a)
    ranges = sorted((op.b0, op.b1) for op in ops if op.b1 > op.b0)
    pos = 0
    for b0, b1 in ranges:
        assert b0 == pos
        pos = b1
    assert pos == len(b)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(POOL + "，。、"), max_size=60).map("".join),
    st.lists(st.sampled_from(POOL + "，。、"), max_size=60).map("".join),
)
def test_align_texts_property(a, b):
    ops = align_texts(a, b, ignorable=lambda ch: ch in PUNCT)
    ka = [ch for ch in a if ch not in PUNCT]
    kb = [ch for ch in b if ch not in PUNCT]
    key_ops = align(ka, kb)
    assert [op.kind for op in ops] == [op.kind for op in key_ops]
    if ka and kb:
        check_contract_strings(ops, a, b)
    for op, kop in zip(ops, key_ops):
        # every op holds exactly its key characters
        assert [ch for ch in a[op.a0 : op.a1] if ch not in PUNCT] == ka[kop.a0 : kop.a1]
        assert [ch for ch in b[op.b0 : op.b1] if ch not in PUNCT] == kb[kop.b0 : kop.b1]


@pytest.mark.parametrize("n", [0, 1, 5])
def test_edit_counts(n):
    a = "射" * n
    c = edit_counts(align(a, a + "之"))
    assert c["equal"] == n and c["insert"] == 1


def _myers_by_records(a: str, b: str, dmax: int) -> list[tuple[int, int, int]] | None:
    """The textbook Myers search with a record per furthest point (where its snake started, which point it
    came from), backtracked through the records: the oracle of :func:`align_mod._myers`, which keeps a slice
    of the points a step and makes each choice again on the way back."""
    n, m = len(a), len(b)
    dmax = min(dmax, n + m)
    if abs(n - m) > dmax:
        return None
    off = dmax + 1
    V, T = [-1] * (2 * dmax + 3), [-1] * (2 * dmax + 3)
    steps: list[dict] = []
    for d in range(dmax + 1):
        rec: dict = {}
        lo_k = -d if d <= m else -m + ((d - m) & 1)
        hi_k = d if d <= n else n - ((d - n) & 1)
        for k in range(lo_k, hi_k + 1, 2):
            if d == 0:
                x, src = 0, None
            else:
                xd = V[off + k + 1]
                if xd >= 0 and xd - k > m:
                    xd = -1
                xr = V[off + k - 1]
                if xr >= 0:
                    xr = xr + 1 if xr + 1 <= n else -1
                if xr >= 0 and xr >= xd:
                    x, src = xr, (k - 1, T[off + k - 1])
                elif xd >= 0:
                    x, src = xd, (k + 1, T[off + k + 1])
                else:
                    continue
            sx = x
            while x < n and x - k < m and a[x] == b[x - k]:
                x += 1
            V[off + k], T[off + k] = x, d
            rec[k] = (sx, src, x)
            if x >= n and x - k >= m:
                steps.append(rec)
                blocks = []
                kk, dd, xx = n - m, d, n
                while True:
                    sx, src, _ = steps[dd][kk]
                    if xx > sx:
                        blocks.append((sx, sx - kk, xx - sx))
                    if src is None:
                        return blocks[::-1]
                    kk, dd = src
                    xx = steps[dd][kk][2]
        steps.append(rec)
    return None


def test_myers_blocks_are_the_textbook_searchs():
    """The same blocks (ties and all) or the same refusal as the record-per-point search, on random ranges
    of small alphabets (many ties) with edit caps below and above what the pair needs."""
    rnd = random.Random(11)
    for _ in range(3000):
        alpha = "之也者射于大夫"[: rnd.randint(1, 7)]
        x = "".join(rnd.choice(alpha) for _ in range(rnd.randint(0, 30)))
        y = list(x)
        for _ in range(rnd.randint(0, 10)):
            r = rnd.random()
            if r < 0.33 and y:
                del y[rnd.randrange(len(y))]
            elif r < 0.66:
                y.insert(rnd.randint(0, len(y)), rnd.choice(alpha))
            elif y:
                y[rnd.randrange(len(y))] = rnd.choice(alpha)
        yy = "".join(y) if rnd.random() < 0.7 else "".join(rnd.choice(alpha) for _ in range(rnd.randint(0, 30)))
        dmax = rnd.choice([1, 2, 4, 8, 16, 48])
        pad_a, pad_b = rnd.choice(["", "射"]), rnd.choice(["", "夫"])
        X, Y = pad_a + x + pad_b, pad_b + yy + pad_a
        lo_a, lo_b = len(pad_a), len(pad_b)
        got = align_mod._myers(X, Y, lo_a, lo_a + len(x), lo_b, lo_b + len(yy), dmax)
        want = _myers_by_records(x, yy, dmax)
        if want is not None:
            want = [(i + lo_a, j + lo_b, n) for i, j, n in want]
        assert got == want, (x, yy, dmax)


# --- the middle cut of a long range (align._middle_cut) ---------------------------------------------------------


def _alike(size: int, seed: int, rate: float = 0.01) -> tuple[str, str, int]:
    """Two mutations of one random text of ``size`` keys from a large alphabet (runs of 16 rarely repeat)."""
    rng = random.Random(seed)
    alphabet = [chr(0x4E00 + i) for i in range(600)]
    base = "".join(rng.choice(alphabet) for _ in range(size))

    def edits():
        return [(rng.randrange(size + 1), rng.randrange(3), rng.choice(alphabet)) for _ in range(int(size * rate))]

    return mutate_pair(base, edits(), edits(), pool="".join(alphabet))


def _cut(X: str, Y: str):
    return align_mod._middle_cut(X, Y, 0, len(X), 0, len(Y), [10**9])


def test_a_long_range_that_reads_alike_is_cut_near_its_middle():
    a, b, known = _alike(6000, 1)
    cut = _cut(a, b)
    assert cut is not None
    i, j = cut
    k = align_mod.CUT_K
    assert a[i : i + k] == b[j : j + k]
    assert a.count(a[i : i + k]) == 1 and b.count(b[j : j + k]) == 1
    assert abs(i - len(a) // 2) <= k * align_mod.CUT_TRIES
    ops = align(a, b, cleanup=False)
    check_contract(ops, a, b)
    assert equal_keys(ops) >= known


def test_the_cut_is_not_taken_at_a_run_either_side_repeats():
    a, _, _ = _alike(6000, 2, rate=0.0)
    k = align_mod.CUT_K
    # every run the cut may try (the middle and a few half runs around it) copied over the end of one side
    mid = (len(a) - k) // 2
    span = a[mid - k * align_mod.CUT_TRIES : mid + k * (align_mod.CUT_TRIES + 1)]
    other = "x" * len(span)
    assert _cut(a[: -len(span)] + span, a[: -len(span)] + other) is None
    assert _cut(a[: -len(span)] + other, a[: -len(span)] + span) is None
    assert _cut(a[: -len(span)] + other, a[: -len(span)] + other) is not None


def test_the_cut_is_not_taken_at_a_run_moved_further_than_the_sides_lengths_allow():
    """A passage found in the other side far from where the lengths put it (moved, or quoted elsewhere) is
    no cut: the anchors, which weigh every k-gram, decide such a range."""
    a, b, _ = _alike(6000, 3, rate=0.0)
    mid, w = len(a) // 2, 200
    moved = a[:mid - w] + a[mid + w :]  # the middle passage taken out ...
    b = moved[:500] + a[mid - w : mid + w] + moved[500:]  # ... and put near the start
    assert len(a) == len(b)
    assert _cut(a, b) is None
    ops = align(a, b)
    check_contract(ops, a, b)
    assert equal_keys(ops) >= len(a) - 2 * w


def test_a_lopsided_range_is_not_cut(monkeypatch):
    """A side four times the other (a 疏 one witness lacks) is never cut: its short side's middle may stand in
    the long side's quotation of it as well as in its own place."""
    a, b, _ = _alike(3000, 4)
    c, _, _ = _alike(9000, 5)

    def refuse(*args):
        raise AssertionError("cut asked of a lopsided range")

    monkeypatch.setattr(align_mod, "_middle_cut", refuse)
    long_ = b[:1000] + c + b[1000:]
    check_contract(align(a, long_), a, long_)


def test_two_texts_joined_are_aligned_as_apart():
    """The reason for the cut: two alike texts, each short enough for exact Myers, joined are cut where they
    read alike and aligned by Myers again, not anchored on all their k-grams (three times the cost per key),
    with the same matches as apart."""
    a1, b1, _ = _alike(1500, 6, rate=0.005)
    a2, b2, _ = _alike(1500, 7, rate=0.005)
    anchored: list[int] = []
    real = align_mod._anchor_blocks

    def counting(X, Y, alo, ahi, blo, bhi, *rest, **kw):
        anchored.append(ahi - alo + bhi - blo)
        return real(X, Y, alo, ahi, blo, bhi, *rest, **kw)

    mp = pytest.MonkeyPatch()
    mp.setattr(align_mod, "_anchor_blocks", counting)
    try:
        apart = equal_keys(align(a1, b1)) + equal_keys(align(a2, b2))
        assert anchored == []
        joined = equal_keys(align(a1 + a2, b1 + b2))
        assert anchored == []
    finally:
        mp.undo()
    assert len(a1 + a2) + len(b1 + b2) > align_mod.MEDIUM
    assert joined >= apart


def test_a_stray_match_between_two_omissions_joins_the_match_after_them():
    """``畢北面鄭注北面立`` / ``面立``: one omission before ``面立``, not two around the first ``面`` (a tie that the
    edge of a range, such as a cut, can decide either way)."""
    X, Y = "甲畢北面鄭注北面立乙", "甲面立乙"
    split = [(0, 0, 1), (3, 1, 1), (8, 2, 2)]  # 甲, the first 面, 立乙
    joined = align_mod._join_lone_matches(split, X, Y)
    assert joined == [(0, 0, 1), (7, 1, 3)]
    ops = align_mod._blocks_to_ops(joined, len(X), len(Y))
    assert [(op.kind, X[op.a0 : op.a1]) for op in ops] == [("equal", "甲"), ("delete", "畢北面鄭注北"), ("equal", "面立乙")]
    # the same with the sides swapped: two additions
    mirrored = [(j, i, n) for i, j, n in split]
    assert align_mod._join_lone_matches(mirrored, Y, X) == [(0, 0, 1), (1, 7, 3)]


def test_a_dittography_beside_a_substitution_is_not_joined_into_it():
    """``則讀之讀之`` / ``而讀之``: 則→而 and one 讀之 lacking (what a 案 note on the doubled 讀之 is checked
    against), never 則讀之→而."""
    X, Y = "甲則讀之讀之乙", "甲而讀之乙"
    blocks = [(0, 0, 1), (2, 2, 2), (6, 4, 1)]
    assert align_mod._join_lone_matches(blocks, X, Y) == blocks
