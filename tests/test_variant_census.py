"""jiaokan.measure.variant_census on a small build folder made here."""

from __future__ import annotations

import json

import pytest

from jiaokan.measure.variant_census import counts_by_chapter, gaiji_by_chapter, main, sample, substantive

TEI_DOC = """<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><encodingDesc><charDecl>
<char xml:id="KR0001"><mapping type="standard">若</mapping></char><char xml:id="KR0002"><note>no known mapping</note></char>
<char xml:id="U-0001"/></charDecl></encodingDesc></teiHeader><text><body><ab type="jing">
<g ref="#KR0001"/><g ref="#KR0002"/><g ref="#KR0002"/><g ref="#U-0001"/></ab></body></text></TEI>"""


def _build(tmp_path):
    (tmp_path / "apparatus").mkdir()
    (tmp_path / "tei").mkdir()
    variants = [
        {"id": "app1", "layer": "jing", "types": {"ZS": "substantive", "SB": "orthographic"}, "subtype": None,
         "readings": {"JS": "北", "ZS": "比", "SB": "北"}, "context": "【北】面"},
        {"id": "app2", "layer": "zhu", "types": {"ZS": "agree", "SB": "substantive"}, "subtype": "minor",
         "readings": {"JS": "於", "ZS": "於", "SB": "于"}, "context": "【於】堂"},
    ]
    for name in ("pian01", "pian09"):
        (tmp_path / "apparatus" / f"{name}.json").write_text(json.dumps({"base": "JS", "variants": variants}))
    (tmp_path / "tei" / "pian09-ZS.xml").write_text(TEI_DOC, encoding="utf-8")
    return tmp_path


def test_counts_sample_and_gaiji(tmp_path, capsys):
    b = _build(tmp_path)
    counts = counts_by_chapter(b / "apparatus", {"pian09"})
    assert list(counts) == ["pian09"] and counts["pian09"] == {"substantive": 2, "orthographic": 1}
    rs = substantive(b / "apparatus")
    assert [(r.chapter, r.siglum, r.lem, r.text) for r in rs] == [
        ("pian01", "ZS", "北", "比"), ("pian01", "SB", "於", "于"), ("pian09", "ZS", "北", "比"), ("pian09", "SB", "於", "于")]
    assert sample(rs, 2, 7) == sample(rs, 2, 7) and len(sample(rs, 10, 7)) == 4
    assert gaiji_by_chapter(b / "tei") == {"pian09": (3, 2)}
    assert main([str(b), "--only", "pian09", "--sample", "1"]) == 0
    out = capsys.readouterr().out
    assert "unresolved gaiji: 2/3 = 66.7%" in out and "1 of 2 substantive readings" in out


def test_hand_classes_beside_the_sample(tmp_path, capsys):
    build = _build(tmp_path)
    tsv = tmp_path / "classes.tsv"
    tsv.write_text("build\tsample\tn\tpian\tapp\tbase\twit\tclass\tnote\n"
                   "x\tmain-s1\t1\tpian01\tapp1\tJS:北\tZS:比\tE\t比/北 形近\n"  # this very entry
                   "x\tmain-s1\t2\tpian09\tapp7\tJS:北\tZS:比\tE?\tthe pair elsewhere in 篇九\n"
                   "x\tmain-s1\t3\tpian09\tapp8\tJS:北\tZS:比\tW\tand once otherwise: no pair-level class\n",
                   encoding="utf-8")
    assert main([str(build), "--sample", "10", "--seed", "1", "--classes", str(tsv)]) == 0
    out = capsys.readouterr().out
    lines = {ln.split()[1]: ln for ln in out.splitlines() if ln[:3].strip().isdigit()}
    assert "pian01" in lines["E"]  # entry-level call
    assert "unclassed 3" in out and "E 1" in out and "G 0" in out  # pian09's pair has two classes: unclassed


def test_a_build_without_the_json_apparatus_is_refused_not_counted_as_nothing(tmp_path, capsys):
    """A build writes its apparatus as JSON only with --apparatus-json: without it, no census of zeros."""
    b = _build(tmp_path)
    for f in (b / "apparatus").glob("*.json"):
        f.unlink()
    (b / "apparatus" / "pian09.xml").write_text("<TEI/>", encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        main([str(b)])
    assert e.value.code == 2 and "--apparatus-json" in capsys.readouterr().err
