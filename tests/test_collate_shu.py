"""The 疏 collated: 注疏 against 单疏本, each 单疏本 stretch placed by its 標起止 (on the real 士冠禮)."""

from __future__ import annotations

import pytest

from jiaokan.book.assemble import FilePart, assemble
from jiaokan.collate.apparatus_reader import compare_rebuild, rebuild_from_json, rebuild_from_tei, witness_layers
from jiaokan.collate.export import collation_to_json
from jiaokan.collate.shu import Part, _Stream, collate_shu, lemma_parts
from jiaokan.model import WitnessMeta
from jiaokan.readers import read_witness
from jiaokan.collate.apparatus import collation_to_tei

from .conftest import KANRIPO


@pytest.mark.parametrize("lemma, parts", [
    ("主人至西面", [Part("jing", "主人", "西面")]),
    ("注筮者至廟神", [Part("zhu", "筮者", "廟神")]),
    ("注外門大門外", [Part("zhu", "外門大門外", "")]),  # a short 注 quoted whole
    ("蒲筵二在南注筵席也", [Part("jing", "蒲筵二在南", ""), Part("zhu", "筵席也", "")]),
    ("司射至反位　注諸公至士耦", [Part("jing", "司射", "反位"), Part("zhu", "諸公", "士耦")]),
    ("始加至\ufffd酌", [Part("jing", "始加", "酌")]),  # an unknown character matches nothing: cut at it
    ("鄭目録云童子任職居士位此皆第一", [Part("zhu", "童子任職", "此皆第一")]),  # 目録: its ends
])
def test_lemma_parts(lemma, parts):
    assert lemma_parts(lemma) == parts


def _pian(tid: str, sig: str, files: list[str], pian: str):
    parts = []
    for n in files:
        path = KANRIPO / f"{tid}_{n}.txt"
        if not path.is_file():
            pytest.skip("../shared/kanripo not available")
        parts.append(FilePart(str(path), read_witness(path, WitnessMeta(siglum=sig, file=str(path), format=""))))
    return assemble(sig, parts)[0][pian]


def test_shu_of_shiguanli_collated_resolved_and_rebuilt_exactly():
    zs = _pian("KR1d0028", "ZS", ["001"], "士冠禮")
    ds = _pian("KR1d0027", "DS", ["001", "002", "003"], "士冠禮")
    col, rep = collate_shu(zs, ds)
    assert col.layers == ("shu",) and col.base == "ZS"
    assert rep.resolved >= 0.9 * rep.lemmas and rep.ds_aligned >= 0.85 * rep.ds_chars
    # the first 經 stretch: 士冠至廟門 explains 士冠禮筮于庿門, which the 注疏 cuts after its title (士冠禮 ○ 筮于
    # 庿門): the 疏 goes with the passage where the lemma's text ends, where the 注疏 set its own 疏
    first = next(r for r in rep.resolutions if r.lemma == "士冠至廟門")
    assert first.target is not None and zs_unit(zs, first.target).jing.text == "筮于庿門"
    # every 單疏本 stretch is in a row, in its own order; nothing is lost from either witness
    ds_ids = [u for row in col.rows for u in row.units["DS"]]
    assert sorted(ds_ids, key=lambda x: [int(k) if k.isdigit() else k for k in x.replace("DS", "").split(".")]) == ds_ids
    expected = {s: witness_layers(w, col.layers) for s, w in col.witnesses.items()}
    for got in (rebuild_from_tei(collation_to_tei(col).getroot()), rebuild_from_json(collation_to_json(col))):
        assert [f for f in compare_rebuild(expected, got) if not f.ok] == []
    assert {a.type for a in col.apps} >= {"substantive", "orthographic"}
    # what one witness has and the other lacks is listed, with the witness that has it
    assert rep.unmatched and all(who in ("ZS", "DS") and n > 0 for _, who, n, _ in rep.unmatched)


def zs_unit(w, uid):
    return next(u for u in w.units() if u.id == uid)


def test_find_before_is_the_last_match_walking_forwards(monkeypatch):
    """The last passage before the cursor where a part matches, searched backwards from the cursor, is the one
    a walk through every match from the 篇's start gives (overlapping matches, a 至 end out of reach or in a later
    passage, the cursor past the last passage)."""
    import random

    from jiaokan.collate import shu as shu_mod

    rnd = random.Random(5)
    for trial in range(400):
        monkeypatch.setattr(shu_mod, "MAX_SPAN", 6 if trial % 2 else 800)  # a 至 end out of reach, or not
        st = _Stream([], ("jing",))
        pieces = ["".join(rnd.choice("主人西面升") for _ in range(rnd.randint(0, 12))) for _ in range(rnd.randint(1, 12))]
        st.text, st.owner, st.unit_start = "".join(pieces), [], {}
        for i, t in enumerate(pieces):
            st.unit_start[i] = len(st.owner)
            st.owner.extend([i] * len(t))
        part = Part("jing", "".join(rnd.choice("主人西") for _ in range(rnd.randint(1, 2))),
                    rnd.choice(["", "面", "西面", "升升"]))
        for before in range(len(pieces) + 2):
            walked = None
            for u in st.matches(part, 0):
                if u >= before:
                    break
                walked = u
            assert st.find_before(part, before) == walked, (pieces, part, before)


def test_shu_placed_once_for_both_askers_and_anew_when_a_witness_changes(monkeypatch):
    """The 篇's apparatus (shu_elsewhere) and the 疏 collation (collate_shu) ask for the same placement: made
    once for both; a witness whose passages changed since (a piece moved to another layer, as the
    relayering does in place) is placed anew, never given the placement of what it was."""
    from jiaokan.collate import shu
    from jiaokan.collate.shu import resolve, shu_elsewhere, shu_rows

    zs = _pian("KR1d0028", "ZS", ["001"], "士冠禮")
    ds = _pian("KR1d0027", "DS", ["001", "002", "003"], "士冠禮")
    fresh = shu_rows(zs, ds, resolve(zs, ds))
    made = []
    monkeypatch.setattr(shu, "resolve", lambda z, d: made.append(1) or resolve(z, d))
    where = shu_elsewhere(zs, ds, "x-shu")
    col, rep = collate_shu(zs, ds)
    assert len(made) == 1
    assert [(r.id, r.units) for r in col.rows] == [(r.id, r.units) for r in fresh]
    assert where.rows == {u: r.id for r in fresh for u in r.units["ZS"]}
    # placed for the first asker; then a passage's 注 taken for 經 in place (the pieces' list kept, as the
    # relayering does): the second asker gets it placed anew
    shu_elsewhere(zs, ds, "x-shu")
    assert len(made) == 2
    u = next(u for u in zs.units() if any(p.layer == "zhu" for p in u.pieces))
    zhu = next(p for p in u.pieces if p.layer == "zhu")
    u.pieces[u.pieces.index(zhu)] = type(zhu)("jing", zhu.content, zhu.loc)
    collate_shu(zs, ds)
    assert len(made) == 3


@pytest.mark.parametrize("text", ["", "。", "，　「」", "士冠禮", "。疏曰", "abc", " \u3000", "\ufffd", "□", "𠀀。",
                                  "\ufe0f", "A。"])
def test_has_kept_is_whether_stripping_leaves_a_character(text):
    """The 疏 rows and their pointers ask whether a passage keeps a character by its first ideograph: the
    answer is the one stripping its ignorable characters gives, ideographs or not."""
    from jiaokan.collate.layertext import has_kept
    from jiaokan.normalize import strip_ignorable

    assert has_kept(text) is bool(strip_ignorable(text))


def test_collate_and_diff_of_a_zhushu_and_a_danshu_are_the_shu_collation_not_no_difference(tmp_path):
    """A user's trial: `diff ZS DS` said "0 differences" (exit 0) of two 疏 that differ at 258 places, and
    `collate ZS DS` gave no variant: aligned by their 经, the 单疏本 (no 经) fell in no row.  collate() of a 注疏
    and a 单疏本 is now the build's 疏 collation; a 单疏本 beside other witnesses is refused in one line."""
    import jiaokan
    from jiaokan.errors import CollationError

    from .test_cli import jiaokan as run

    zs = _pian("KR1d0028", "ZS", ["003"], "士相見禮")
    ds = _pian("KR1d0027", "DS", ["007"], "士相見禮")
    col = jiaokan.collate([zs, ds])
    assert col.layers == ("shu",) and col.base == "ZS" and sum(1 for a in col.apps if a.type == "substantive") > 20
    js = _pian("KR1d0030", "JS", ["003"], "士相見禮")
    with pytest.raises(CollationError, match=r"is a 单疏本 \(疏 alone, no 经 to align\).*here beside JS \(jishi\)"):
        jiaokan.collate([js, zs, ds])
    a, b = tmp_path / "zs.xml", tmp_path / "ds.xml"
    jiaokan.to_tei(zs, a)
    jiaokan.to_tei(ds, b)
    r = run("diff", str(a), str(b), "--only", "substantive", "--color", "never")
    assert r.returncode == 1 and "-- 0 differences" not in r.stdout.decode(), r.stderr.decode()
