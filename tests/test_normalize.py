"""Tests of the normalization layer (jiaokan.normalize): keys, relations, tables.

Real cases come from the witnesses (GUIDE §4, kanripo/KR1d00*); properties are checked
with hypothesis on arbitrary characters and on every character the shipped tables name.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jiaokan.normalize import (
    CLASSES,
    IGNORABLE,
    RELATIONS,
    Folded,
    fold_sources,
    fold_token,
    is_ignorable,
    key,
    keys,
    relation,
    relation_str,
    resolve_gaiji,
    tokens,
)
from jiaokan.normalize import tables
from jiaokan.normalize.script import t2s_char

# ----------------------------------------------------------------------------- strategies
_TABLE_CHARS = sorted(
    {e.char for e in tables.variants().values()}
    | {e.key for e in tables.variants().values()}
    | {c for p in tables.minor_pairs() for c in (p.a, p.b)}
    | {c for p in tables.taboo_rows() for c in (p.a, p.b)}
    | {c for a, b, _ in tables.blocked_pairs() for c in (a, b)}
)
table_chars = st.sampled_from(_TABLE_CHARS)
cjk_chars = st.one_of(
    st.integers(0x3400, 0x4DBF), st.integers(0x4E00, 0x9FFF), st.integers(0xF900, 0xFAFF), st.integers(0x20000, 0x3134F)
).map(chr)
any_chars = st.characters(exclude_categories=("Cs",))
chars = st.one_of(table_chars, cjk_chars, any_chars)


# ----------------------------------------------------------------------------- properties
@given(chars)
@settings(max_examples=600)
def test_key_is_idempotent(c: str) -> None:
    k = key(c)
    assert len(k) == 1
    assert key(k) == k


@given(chars)
def test_fold_keeps_the_original_character(c: str) -> None:
    f = fold_token(c)
    assert isinstance(f, Folded)
    assert f.char == c
    assert f.cls in CLASSES
    assert key(c) == f.key


@given(chars)
def test_a_character_is_identical_to_itself(c: str) -> None:
    assert relation(c, c) == "identical"
    assert relation_str(c * 3, c * 3) == "identical"


@given(chars, chars, st.booleans())
@settings(max_examples=600)
def test_relation_is_symmetric(a: str, b: str, simplified: bool) -> None:
    r = relation(a, b, simplified=simplified)
    assert r in RELATIONS
    assert r == relation(b, a, simplified=simplified)


@given(table_chars, table_chars)
def test_equal_keys_are_never_different_unless_a_char_pair_says_so(a: str, b: str) -> None:
    r = relation(a, b, simplified=True)
    if key(a) == key(b):
        assert r in ("identical", "orthographic", "taboo")
    else:
        assert r in ("taboo", "minor", "different")


@given(st.text(alphabet=st.one_of(table_chars, st.sampled_from(list("，。○《》　 \n、·"))), max_size=40))
def test_keys_point_at_the_source_characters(text: str) -> None:
    ks = keys(text)
    assert [i for i, _ in ks] == [i for i, ch in enumerate(text) if not is_ignorable(ch)]
    for i, k in ks:
        assert k == key(text[i])


# ----------------------------------------------------------------------------- the table itself
def test_variant_table_is_one_hop() -> None:
    """Every head is a t2s fixed point and never itself folded: a single lookup is final."""
    table = tables.variants()
    for e in table.values():
        assert e.key not in table, f"{e.char} -> {e.key} is a chain"
        assert t2s_char(e.key) == e.key, f"head {e.key} of {e.char} is not in t2s space"
        assert e.cls in ("script", "variant")


def test_variant_classes_stay_small() -> None:
    sizes: dict[str, int] = {}
    for e in tables.variants().values():
        sizes[e.key] = sizes.get(e.key, 1) + 1
    assert max(sizes.values()) <= 16


@pytest.mark.parametrize(("a", "b", "why"), tables.blocked_pairs())
def test_blocked_pairs_keep_distinct_keys(a: str, b: str, why: str) -> None:
    assert key(a) != key(b), why


@pytest.mark.parametrize("p", [p for p in tables.minor_pairs()], ids=lambda p: f"{p.a}{p.b}")
def test_minor_pairs(p: tables.PairEntry) -> None:
    expected = "different" if p.kind == "different" else "minor"
    assert relation(p.a, p.b) == expected
    if p.level == "key":
        assert key(p.a) != key(p.b)
        assert relation(p.a, p.b, simplified=True) == expected
    else:  # merged by t2s: a simplified witness cannot tell them apart
        assert key(p.a) == key(p.b)
        assert relation(p.a, p.b, simplified=True) == "orthographic"


@pytest.mark.parametrize("p", tables.taboo_rows(), ids=lambda p: f"{p.a}{p.b}")
def test_taboo_rows(p: tables.PairEntry) -> None:
    assert relation(p.a, p.b) == "taboo"
    if p.level == "form":
        assert fold_token(p.b) == Folded(p.b, p.a, "taboo")
    elif p.level == "pair":
        assert key(p.a) != key(p.b), "a taboo substitute is a normal character and never folds"


@pytest.mark.parametrize("row", tables.hand_variants(), ids=lambda r: r[0])
def test_hand_entries_fold(row: tuple[str, str, str]) -> None:
    variant, standard, _ = row
    assert key(variant) == key(standard)
    assert relation(variant, standard) == "orthographic"


def test_shipped_data_is_small_and_licensed() -> None:
    data = resources.files("jiaokan").joinpath("data")
    ours = ("variants.tsv", "hand_variants.tsv", "blocked.tsv", "minor.tsv", "taboo.tsv",
            "gaiji_kanripo.tsv", "LICENSE-Unicode.txt", "README.md")
    total = sum(len(data.joinpath(name).read_bytes()) for name in ours)
    assert total < 1_000_000
    head = data.joinpath("variants.tsv").read_text(encoding="utf-8")[:2000]
    assert "Unicode License v3" in head and "CC0" in head
    assert "UNICODE LICENSE V3" in data.joinpath("LICENSE-Unicode.txt").read_text(encoding="utf-8")


def test_runtime_needs_neither_yitizi_nor_unicode_data() -> None:
    code = (
        "import sys, builtins\n"
        "real = builtins.__import__\n"
        "def guard(name, *a, **k):\n"
        "    if name.split('.')[0] == 'yitizi': raise ImportError('yitizi')\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = guard\n"
        "_open = builtins.open\n"
        "def opn(f, *a, **k):\n"
        "    if 'share/unicode' in str(f): raise OSError(f)\n"
        "    return _open(f, *a, **k)\n"
        "builtins.open = opn\n"
        "import jiaokan.normalize as n\n"
        "assert n.key('賔') == '宾' and n.key('矦') == '侯'\n"
        "assert n.relation('玄', '元') == 'taboo'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ----------------------------------------------------------------------------- real cases
@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("衆", "众", "orthographic"),  # script
        ("賓", "宾", "orthographic"),
        ("賔", "賓", "orthographic"),  # 异体
        ("荅", "答", "orthographic"),
        ("鄕", "郷", "orthographic"),
        ("郷", "鄉", "orthographic"),
        ("鄕", "乡", "orthographic"),
        ("㑹", "會", "orthographic"),
        ("㑹", "会", "orthographic"),
        ("矦", "侯", "orthographic"),
        ("岀", "出", "orthographic"),
        ("徳", "德", "orthographic"),
        ("歩", "步", "orthographic"),
        ("㒒", "僕", "orthographic"),
        ("𧰼", "象", "orthographic"),
        ("羮", "羹", "orthographic"),
        ("畧", "略", "orthographic"),
        ("冝", "宜", "orthographic"),
        ("噐", "器", "orthographic"),
        ("逺", "遠", "orthographic"),
        ("聼", "聽", "orthographic"),
        ("夲", "本", "orthographic"),
        ("㣲", "微", "orthographic"),
        ("𠋣", "倚", "orthographic"),
        ("筭", "算", "orthographic"),
        ("锺", "鍾", "orthographic"),  # alternative simplification
        ("馀", "餘", "orthographic"),
        ("𤣥", "玄", "taboo"),
        ("元", "玄", "taboo"),
        ("𤣥", "元", "taboo"),
        ("𢎞", "弘", "taboo"),
        ("於", "于", "minor"),  # t2s merges them; both traditional: a minor reading
        ("辯", "徧", "minor"),
        ("辩", "遍", "minor"),
        ("說", "脫", "minor"),
        ("说", "脱", "minor"),
        ("孰", "熟", "minor"),
        ("大", "太", "minor"),
        ("已", "巳", "minor"),
        ("盥", "灌", "different"),
        ("篚", "匪", "different"),
        ("干", "于", "different"),
        ("矢", "失", "different"),
        ("北", "比", "different"),
        ("𠊱", "俟", "different"),  # 𠊱 is 候: the JS 案 note corrects it to 俟
        ("乾", "干", "different"),
    ],
)
def test_real_relations(a: str, b: str, expected: str) -> None:
    assert relation(a, b) == expected


def test_answer_variants_are_never_different() -> None:
    for a in "荅答答":
        for b in "荅答":
            assert relation(a, b) in ("identical", "orthographic")


def test_distinct_characters_keep_distinct_keys() -> None:
    assert key("盥") != key("灌")
    assert key("篚") != key("匪")
    assert key("干") != key("于")
    assert len({key("己"), key("已"), key("巳")}) == 3
    assert key("大") != key("太")
    assert key("矢") != key("失")
    assert key("元") == "元"  # 元 is a normal character: it never folds to 玄


def test_yu_decision() -> None:
    """於/于: one key (aligned as the same token); typed minor only between traditional witnesses."""
    assert key("於") == key("于") == "于"
    assert fold_token("於").cls == "script"
    assert relation("於", "于") == "minor"
    assert relation("於", "于", simplified=True) == "orthographic"


def test_fold_classes() -> None:
    assert fold_token("衆") == Folded("衆", "众", "script")
    assert fold_token("荅") == Folded("荅", "答", "variant")
    assert fold_token("𤣥") == Folded("𤣥", "玄", "taboo")
    assert fold_token("元") == Folded("元", "元", "identity")
    assert fold_token("&KR0925;") == Folded("&KR0925;", "楣", "gaiji")
    assert fold_token("\ufa0c") == Folded("\ufa0c", "兀", "identity")  # compatibility ideograph: NFC only
    assert fold_token("\uf900") == Folded("\uf900", "岂", "script")  # NFC 豈, then t2s


def test_parallel_passages_have_equal_keys() -> None:
    sb = "鄕射之禮主人戒賔賔出迎再拜主人荅再拜乃請"  # KR1d0026_005 (四部叢刊)
    zs = "鄉射之禮○主人戒賓賓岀迎再拜主人答再拜乃請"  # KR1d0028_005 (四库 注疏)
    ts = "乡射之礼：主人戒宾，宾出迎，再拜。主人答，再拜，乃请。"  # 图书集成 (simplified, punctuated)
    ks = ["".join(k for _, k in keys(t)) for t in (sb, zs, ts)]
    assert ks[0] == ks[1] == ks[2]
    assert relation_str(sb, zs) == "orthographic"


def test_relation_str() -> None:
    assert relation_str("左玄酒", "左元酒") == "taboo"
    assert relation_str("書於王", "書于王") == "minor"
    assert relation_str("書於王", "书于王", simplified=True) == "orthographic"
    assert relation_str("主人荅", "主人答") == "orthographic"
    assert relation_str("比選", "北選") == "different"
    assert relation_str("當&KR0925;北", "當楣北") == "orthographic"
    assert relation_str("乃請，", "乃請") == "identical"
    with pytest.raises(ValueError):
        relation_str("司射遂袒", "司射袒")


# ----------------------------------------------------------------------------- keys, ignorables, gaiji
def test_keys_skip_punctuation_and_keep_indexes() -> None:
    text = "左&KR0925;北，面○𤣥。"
    assert keys(text) == [(0, "左"), (1, "楣"), (9, "北"), (11, "面"), (13, "玄")]
    assert [t for _, t in tokens(text)] == ["左", "&KR0925;", "北", "面", "𤣥"]


@pytest.mark.parametrize("ch", list("《》“”「」、，。：；！？·…○ 　\n\t,.;:!?()/【】〈〉"))
def test_ignorable(ch: str) -> None:
    assert is_ignorable(ch)


@pytest.mark.parametrize("ch", list("□〇〓玄𤣥a1"))
def test_not_ignorable(ch: str) -> None:
    assert not is_ignorable(ch)


def test_ignorable_set_documents_the_common_marks() -> None:
    assert "○" in IGNORABLE and "，" in IGNORABLE and "《" in IGNORABLE


def test_gaiji() -> None:
    assert resolve_gaiji("KR0925") == "楣"
    assert resolve_gaiji("&KR0925;") == "楣"
    assert resolve_gaiji("KR0018") == "負"
    assert resolve_gaiji("KR9999") is None
    assert resolve_gaiji("KR1969") is None  # seen in the texts, not resolvable from parallels
    assert resolve_gaiji("nonsense") is None
    assert fold_token("&KR9999;") == Folded("&KR9999;", "&KR9999;", "gaiji")
    assert relation("&KR9999;", "&KR9999;") == "identical"
    assert keys("甲&CB00123;乙") == [(0, "甲"), (1, "&CB00123;"), (10, "乙")]  # unknown entity: one position


def test_fold_rejects_strings() -> None:
    with pytest.raises(ValueError):
        fold_token("賓客")


def test_fold_sources() -> None:
    srcs = {s.name: s for s in fold_sources()}
    assert {"nfc", "opencc:t2s", "unihan:kZVariant", "unihan:kSemanticVariant", "yitizi", "jiaokan"} <= set(srcs)
    assert srcs["yitizi"].entries and "CC0" in srcs["yitizi"].licence
    assert "Unicode License v3" in srcs["unihan:kSemanticVariant"].licence
    assert srcs["jiaokan:gaiji-kanripo"].entries >= 20
    folds = [s for s in fold_sources() if s.cls in ("script", "variant")]
    assert sum(s.entries or 0 for s in folds) == len(tables.variants())


# ----------------------------------------------------------------------------- numerals and script

_CN = "〇一二三四五六七八九"


def _written(n: int) -> str:
    """``n`` (1–999) as the texts write it: 十四, 二十, 一百二十, 一百〇五."""
    h, t, u = n // 100, n // 10 % 10, n % 10
    out = (_CN[h] + "百") if h else ""
    if t:
        out += ("" if t == 1 and not h else _CN[t]) + "十"
    elif h and u:
        out += "〇"
    return out + (_CN[u] if u else "")


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=999))
def test_chinese_numeral_reads_what_it_is_written(n: int) -> None:
    from jiaokan.normalize.numerals import chinese_numeral

    assert chinese_numeral(_written(n)) == n
    assert chinese_numeral(str(n)) == n


def test_chinese_numeral_rejects_what_is_not_a_count() -> None:
    from jiaokan.normalize.numerals import chinese_numeral

    assert chinese_numeral("廿四") == 24 and chinese_numeral("两") == 2 and chinese_numeral("卅") == 30
    for s in ("", "二二", "十十", "十百", "百百", "二耦", "〇十", "兩"):
        assert chinese_numeral(s) is None, s


def test_script_conversion() -> None:
    from jiaokan.normalize.script import convert_text, s2t_char

    assert t2s_char("薴") == t2s_char(t2s_char("薴")) == "苎"  # repeated until stable
    assert s2t_char("众") == "衆" and s2t_char("衆") == "衆" and s2t_char("a") == "a"
    assert convert_text("宾礼辞", "traditional") == "賓禮辭" and convert_text("", "traditional") == ""
    assert convert_text("賓禮辭", "simplified") == "宾礼辞"
    # the whole-string form is the per-character one (a character OpenCC would write with two is kept)
    from jiaokan.normalize.script import s2t_text

    zh = "此条言今注疏本之读，此处未有其本参校，无从核对。众a"
    assert s2t_text(zh) == "".join(s2t_char(c) for c in zh) and s2t_text(zh) != zh and s2t_text("") == ""


# ----------------------------------------------------------------------------- kDefinition glosses and one-dictionary heads


def _build_variant_tables() -> ModuleType:
    """The generator script as a module (scripts/ is not a package)."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "scripts" / "build_variant_tables.py"
    spec = importlib.util.spec_from_file_location("build_variant_tables", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("definition, head", [
    # Unihan 15 kDefinition strings, verbatim openings
    ("(a non-classical abbreviated form of 鼠) a rat, a mouse, squirrels, moles, etc., Kangxi radical 208", "鼠"),
    ("(abbreviated form of 錢) money; cash, a unit of weight", "錢"),  # 㦮
    ("(same as U+50C5 僅) barely enough; scarcely; almost", "僅"),  # 㝻: the gloss spelt with its code point
    ("(a variant of 最) very; exceedingly; most, superior", "最"),  # 㝡
    ("(same as non-classical form of 焰) flame; blaze; glowing; brilliant", "焰"),  # 㷔
    ("(ancient form of 庸) to employ; to use, to manifest", None),  # 㐯: 古字, may be a word of its own
    ("(corrupted form of 拯) to save; to lift up", None),  # 㐼: 讹字
    ("(simplified form of 偑) name of a place, last name", None),  # 㐽: a 类推 simplification
    ("(standard form of 眾) all; the whole of; a multitude", None),  # 㐺: 正字/本字
    ("(an abbreviated form of 歛 斂) to collect; to gather", None),  # 㰸: two characters
    # 㒸, 䄢: two senses glossed by two characters name no unique head
    ("(same as U+9042 遂) to obey; to comply with, (an ancient form of U+6B72 歲) a year, age", None),
    ("(same as 齋) pious; respectful; chaste; pure, to abstain from meat, (same as 齊) equal; uniform", None),
])
def test_gloss_head_reads_only_the_glosses_that_say_same_character(definition: str, head: str | None) -> None:
    assert _build_variant_tables().gloss_head(definition) == head


def test_gloss_heads_compare_in_t2s_space() -> None:
    """㭲: "(same as 极) …, (simplified form of 極) …" names one character once 極 is read as 极."""
    d = "(same as 极) a wooden frame, (simplified form of 極) to exhaust, extreme"
    mod = _build_variant_tables()
    assert mod.gloss_head(d) is None
    assert mod.gloss_head(d, t2s_char) == "极"


def test_glossed_rare_forms_fold() -> None:
    assert fold_token("䑕") == Folded("䑕", "鼠", "variant")  # non-classical abbreviated form; 4 places in the prints
    assert key("㦮") == key("錢")  # abbreviated form
    assert key("㝻") == key("僅")  # "(same as U+50C5 僅)"


def test_glosses_that_name_another_relation_do_not_fold() -> None:
    assert key("㐰") != key("信")  # ancient form
    assert key("㐼") != key("拯")  # corrupted form
    assert key("㐺") != key("眾")  # standard form
    # two senses, two characters: 䄢 is 齋 or 齊, 㒸 遂 or 歲, 㧍 仿 or 搒 (拂㧍 in 既夕禮 注 is left to the alignment)
    assert key("䄢") not in (key("齋"), key("齊"))
    assert key("㒸") not in (key("遂"), key("歲"))
    assert key("㧍") not in (key("仿"), key("搒"))


def test_one_dictionary_head_yields_to_the_form_s_own_definition() -> None:
    """恊: Mathews alone relates it to 勰 ("peaceful, harmonious"); Unihan defines it "be united; cooperate", as 協
    (康熙: 恊 同協), and yitizi names both: it folds to 協, not 勰; 勰 keeps its own key."""
    assert key("恊") == key("協") == key("协")
    assert key("恊") != key("勰")
    assert fold_token("恊").cls == "variant"
