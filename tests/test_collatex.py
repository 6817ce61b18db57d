"""CollateX in both directions: its JSON input is read, and jiaokan's JSON is its alignment table.

The fixtures are CollateX's own documented examples (tests/fixtures/collatex/README.md names
the sources).  When CollateX itself is installed (``pip install -e '.[bench]'``) the table
jiaokan writes is also compared with the one CollateX writes for the same input.
"""

from __future__ import annotations

import json
import re

import pytest

from jiaokan.errors import InputError

from .conftest import ROOT, corpus_file

FIX = ROOT / "tests" / "fixtures" / "collatex"


def read_alignment_table(data: dict) -> dict[str, list[str | None]]:
    """What a consumer of CollateX's JSON output does: one row per witness, one cell per column.

    Checks the shape CollateX documents: ``witnesses`` a list of sigla, ``table[i]`` the row
    of ``witnesses[i]``, all rows the same length, a cell ``null`` or a list of token objects
    each with a string ``t``.  Returns siglum → the cells' text (``None`` for an empty cell).
    """
    sigla, table = data["witnesses"], data["table"]
    assert isinstance(sigla, list) and all(isinstance(s, str) for s in sigla)
    assert isinstance(table, list) and len(table) == len(sigla)
    assert len({len(row) for row in table}) == 1, "rows of different lengths"
    out: dict[str, list[str | None]] = {}
    for s, row in zip(sigla, table):
        cells: list[str | None] = []
        for cell in row:
            if cell is None:
                cells.append(None)
                continue
            assert isinstance(cell, list) and cell and all(isinstance(t, dict) and isinstance(t["t"], str) for t in cell)
            cells.append("".join(t["t"] for t in cell))
        out[s] = cells
    return out


def _plain(s: str) -> str:
    """The text without whitespace: in jiaokan's table a token is a character, and spaces are not tokens."""
    return "".join(s.split())


def test_the_table_reader_reads_collatex_own_output():
    rows = read_alignment_table(json.loads((FIX / "pythonport-output-empty-cell.json").read_text()))
    assert rows == {"A": ["賓", "再", "拜"], "B": ["賓", None, "拜。"]}


@pytest.mark.parametrize("fixture", ["doc-input-content.json", "doc-input-tokens.json"])
def test_collatex_input_collates_and_the_output_is_an_alignment_table(fixture, tmp_path):
    from jiaokan.api import collate, read_collatex, to_json, to_tei

    raw = json.loads((FIX / fixture).read_text())
    # a token is read as its n where it has one (what CollateX matches on)
    texts = {w["id"]: w.get("content") or "".join(t.get("n", t["t"]) for t in w["tokens"]) for w in raw["witnesses"]}
    ws = read_collatex(FIX / fixture)
    assert [w.meta.siglum for w in ws] == list(texts)
    assert all([p.layer for p in w.pieces()] == ["jing"] for w in ws)  # no layers: one passage of 经
    col = collate(ws)
    data = to_json(col, tmp_path / "out.json")
    assert json.loads((tmp_path / "out.json").read_text()) == data
    rows = read_alignment_table(data)
    assert list(rows) == list(texts)
    for s, cells in rows.items():  # every witness reads back from its row (whitespace is not a token here)
        assert _plain("".join(c for c in cells if c)) == _plain(texts[s])
    # a column where all witnesses agree is never a variant, and every variant is a column that differs
    columns = list(zip(*rows.values()))
    differing = [c for c in columns if len({x or "" for x in c}) > 1]
    assert len(differing) >= len(col.apps)
    assert col.apps or fixture == "doc-input-tokens.json"  # there, B's n (荅 for 答) is what is collated: no variant
    # identical witnesses agree in every column
    for a in texts:
        for b in texts:
            same_text = _plain(texts[a]) == _plain(texts[b])
            assert same_text == (rows[a] == rows[b] or [x or "" for x in rows[a]] == [x or "" for x in rows[b]])
    # and the TEI apparatus of a CollateX input is valid for the profile
    from lxml import etree

    from jiaokan.tei.validate import profile_schema

    assert profile_schema().validate(etree.fromstring(to_tei(col).encode()))


def test_cli_collates_collatex_json_with_a_tei_witness(tmp_path):
    """A CollateX witness is 经: collated against the 经 of a real witness, it finds the planted variant."""
    from jiaokan.api import read, to_tei
    from jiaokan.cli import main

    zs = read(corpus_file("zhushu-dasheyi-excerpt"))
    to_tei(zs, tmp_path / "zs.xml")
    jing = "".join(p.text for p in zs.pieces() if p.layer == "jing")
    i = next(i for i, ch in enumerate(jing) if ch == "公")
    planted = jing[:i] + "君" + jing[i + 1:]
    (tmp_path / "cx.json").write_text(json.dumps({"witnesses": [{"id": "CX", "tokens": [{"t": c} for c in planted]}]},
                                                 ensure_ascii=False), encoding="utf-8")
    assert main(["collate", str(tmp_path / "zs.xml"), str(tmp_path / "cx.json"), "--layers", "jing",
                 "--json", str(tmp_path / "out.json"), "-o", str(tmp_path / "app.xml"), "-q"]) == 0
    data = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert data["witnesses"] == ["ZS", "CX"]
    subst = [v for v in data["variants"] if v["type"] == "substantive"]
    assert [(v["readings"]["ZS"], v["readings"]["CX"]) for v in subst] == [("公", "君")]


def _refused_in_one_line(f, message: str, tmp_path, capsys) -> None:
    """``f`` is refused as JSON input or table: by the reader (its name and ``message``), and by `jiaokan collate`
    with one line, status 2 and no apparatus written."""
    from jiaokan.cli import main
    from jiaokan.collate.collatex import read_collatex_json

    with pytest.raises(InputError) as exc:
        read_collatex_json(f)
    assert message in str(exc.value) and str(f) in str(exc.value)
    assert main(["collate", str(f), str(corpus_file("zhushu-dasheyi-excerpt")), "-o", str(tmp_path / "o.xml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and not (tmp_path / "o.xml").exists()


@pytest.mark.parametrize("bad, message", [
    ("[]", "not CollateX JSON input"),
    ('{"witnesses": [{"content": "x"}]}', "witnesses[0]: expected an object with a string 'id'"),
    ('{"witnesses": [{"id": "A"}]}', "witnesses[0]: expected 'content'"),
    ('{"witnesses": [{"id": "A", "tokens": [{"n": "x"}]}]}', "witnesses[0].tokens[0]: expected an object with a string 't'"),
    ('{"witnesses": [{"id": "A", "content": "x"}, {"id": "A", "content": "y"}]}', "used twice"),
    ('{"witnesses": [{"id": "A\\u001b[2J", "content": "x"}]}', "id holds U+001B"),
    ('{"witnesses": [{"id": "", "content": "x"}]}', "expected an object with a string 'id'"),
    ('{"witnesses": [{"id": "A", "content": "x", "k": ' + "1" * 100_000 + '}]}', "a number of 100000 characters"),
    ("[" * 100_000 + "]" * 100_000, "nested over 64 deep"),
    ('{"witnesses": [{"id": "A", "tokens": [{"t": "x", "n": 5}]}]}', "witnesses[0].tokens[0].n: expected a string"),
    ('{"witnesses": [\n{"id": "A",, }]}', ":2: not valid JSON"),
])
def test_malformed_collatex_input_is_one_line(bad, message, tmp_path, capsys):
    f = tmp_path / "in.json"
    f.write_text(bad, encoding="utf-8")
    _refused_in_one_line(f, message, tmp_path, capsys)


def test_same_table_as_collatex_itself(tmp_path):
    """With CollateX installed: the same witnesses, the same agreement, the same table shape."""
    collatex = pytest.importorskip("collatex", reason="CollateX not installed (pip install -e '.[bench]')")
    from jiaokan.api import collate, read_collatex, to_json

    raw = json.loads((FIX / "doc-input-content.json").read_text())
    theirs = read_alignment_table(json.loads(collatex.collate(raw, output="json")))
    ours = read_alignment_table(to_json(collate(read_collatex(FIX / "doc-input-content.json"))))
    assert list(theirs) == list(ours)
    for s in theirs:
        assert _plain("".join(c or "" for c in theirs[s])) == _plain("".join(c or "" for c in ours[s]))
    # the pairs of witnesses that agree in every column are the same in both tables
    def agreeing(rows: dict[str, list[str | None]]) -> set[tuple[str, str]]:
        return {(a, b) for a in rows for b in rows if a < b
                and [_plain(x or "") for x in rows[a]] == [_plain(x or "") for x in rows[b]]}
    assert agreeing(theirs) == agreeing(ours) == {("A", "B")}


def test_a_real_collation_is_a_well_formed_alignment_table(read_corpus):
    """The shipped 大射仪 witnesses: every row the same length, cells tokens or null, 经 and 注 columns."""
    from jiaokan.api import collate, to_json

    data = to_json(collate([read_corpus("jishi-juan10-dasheyi-simplified"), read_corpus("zhushu-dasheyi-excerpt")],
                           layers=["jing", "zhu"]))
    rows = read_alignment_table(data)
    assert list(rows) == ["JS", "ZS"] and len(rows["JS"]) > 100
    layers = {t["layer"] for row in data["table"] for cell in row if cell for t in cell}
    assert layers == {"jing", "zhu"}
    assert all(t["n"] for row in data["table"] for cell in row if cell for t in cell)  # CollateX's normalized form


# ---------------------------------------------------------------- CollateX Java's layout, any id, n
def read_java_table(data: dict) -> dict[str, list[str | None]]:
    """What a consumer of CollateX (Java)'s JSON output does: ``table[k]`` is column k, a cell per witness.

    Checks the documented shape: ``witnesses`` sorted sigla, every column as long as the witness
    list, every cell a list (``[]`` for nothing, never null) of token objects with a string ``t``.
    """
    sigla, table = data["witnesses"], data["table"]
    assert sigla == sorted(sigla)
    assert all(isinstance(col, list) and len(col) == len(sigla) for col in table)
    out: dict[str, list[str | None]] = {s: [] for s in sigla}
    for col in table:
        for s, cell in zip(sigla, col):
            assert isinstance(cell, list) and all(isinstance(t, dict) and isinstance(t["t"], str) for t in cell)
            out[s].append("".join(t["t"] for t in cell) or None)
    return out


def test_the_java_table_reader_reads_collatex_java_output():
    from jiaokan.collate.apparatus_reader import json_layout, rebuild_from_json

    data = json.loads((FIX / "java-output.json").read_text())
    assert read_java_table(data) == {"A": ["賓", "再", "拜"], "B": ["賓", None, "拜。"]}
    assert json_layout(data) == "java"
    assert json_layout(json.loads((FIX / "pythonport-output-empty-cell.json").read_text())) == "python"
    assert rebuild_from_json(data) == {"A": {"jing": "賓再拜"}, "B": {"jing": "賓拜。"}}


def test_java_layout_out_and_both_layouts_back_in(read_corpus, tmp_path):
    """The same collation in both layouts: the same cells per witness, sigla sorted, [] for nothing."""
    from jiaokan.api import collate, to_json
    from jiaokan.collate.apparatus_reader import rebuild_from_json
    from jiaokan.cli import main

    col = collate([read_corpus("zhushu-dasheyi-excerpt"), read_corpus("jishi-juan10-dasheyi-simplified")],
                  layers=["jing", "zhu"])
    py, java = to_json(col), to_json(col, layout="java")
    assert py["witnesses"] == ["ZS", "JS"] and java["witnesses"] == ["JS", "ZS"]
    assert java["layout"] == "java" and py["layout"] == "python"
    rows_py, rows_java = read_alignment_table(py), read_java_table(java)
    assert rows_py == rows_java
    assert any(c is None for c in rows_java["ZS"])  # a column where the witness has nothing: [] in the file
    assert any(cell == [] for column in java["table"] for cell in column)
    assert rebuild_from_json(py) == rebuild_from_json(java)
    # the command line: --json-layout java writes the same
    a, b = tmp_path / "zs.xml", tmp_path / "js.xml"
    from jiaokan.api import to_tei
    to_tei(read_corpus("zhushu-dasheyi-excerpt"), a)
    to_tei(read_corpus("jishi-juan10-dasheyi-simplified"), b)
    assert main(["collate", str(a), str(b), "--layers", "jing,zhu", "--json", str(tmp_path / "j.json"),
                 "--json-layout", "java", "-q"]) == 0
    assert read_java_table(json.loads((tmp_path / "j.json").read_text(encoding="utf-8"))) == rows_java


def test_any_string_id_is_a_witness_and_keeps_its_label(tmp_path):
    """CollateX ids such as "1" or "Ms A" become XML names; the id stays the label a viewer shows."""
    from lxml import etree

    from jiaokan.api import collate, read_collatex, to_json, to_tei
    from jiaokan.tei.validate import profile_schema

    f = tmp_path / "in.json"
    f.write_text(json.dumps({"witnesses": [{"id": "1", "content": "賓再拜"}, {"id": "Ms A", "content": "賓拜"},
                                           {"id": "Ａ²", "content": "宾再拜"}, {"id": "Ms-A", "content": "賓再拜"}]},
                            ensure_ascii=False), encoding="utf-8")
    ws = read_collatex(f)
    assert [(w.meta.siglum, w.meta.title) for w in ws] == [("W1", "1"), ("Ms_A", "Ms A"), ("A2", "Ａ²"), ("Ms-A", "Ms-A")]
    col = collate(ws)
    root = etree.fromstring(to_tei(col).encode())
    assert profile_schema().validate(root)
    ns = {"t": "http://www.tei-c.org/ns/1.0"}
    labels = {w.get("{http://www.w3.org/XML/1998/namespace}id"): "".join(w.find("t:title", ns).itertext())
              for w in root.iterfind(".//t:listWit/t:witness", ns)}
    assert labels == {"W1": "1", "Ms_A": "Ms A", "A2": "Ａ²", "Ms-A": "Ms-A"}
    assert to_json(col)["witness_ids"]["W1"] == "1"


def test_a_token_n_is_what_is_collated(tmp_path):
    """A token's n is the form CollateX matches on: with it the witnesses agree, without it they differ."""
    from jiaokan.api import collate, read_collatex

    def counts(b_tokens: list[dict]) -> dict:
        f = tmp_path / "in.json"
        f.write_text(json.dumps({"witnesses": [{"id": "A", "tokens": [{"t": "賓"}, {"t": "再"}, {"t": "拜"}]},
                                               {"id": "B", "tokens": b_tokens}]}, ensure_ascii=False), encoding="utf-8")
        ws = read_collatex(f)
        return {"subst": collate(ws).counts().get("substantive", 0), "warned": [x.code for x in ws[1].warnings]}

    assert counts([{"t": "賓"}, {"t": "載", "n": "再"}, {"t": "拜"}]) == {"subst": 0, "warned": ["collatex-n"]}
    assert counts([{"t": "賓"}, {"t": "載"}, {"t": "拜"}]) == {"subst": 1, "warned": []}


def test_a_bad_collatex_input_is_a_reader_error_as_the_api_says():
    from jiaokan import ReaderError
    from jiaokan.api import read_collatex

    with pytest.raises(ReaderError):
        read_collatex(FIX / "no-such-file.json")


# --- an alignment table read back: the witnesses it aligned, collated again ---------------------------------

def _entries(col) -> list[tuple]:
    return [(a.layer, a.type, a.subtype, a.lem.text, sorted((s, r.text, r.type) for s, r in a.readings.items()))
            for a in col.apps]


def _gaps(col) -> list[tuple]:
    return sorted((g.layer, g.kind, tuple(sorted(g.absent)), tuple(sorted(g.present.items()))) for g in col.gaps)


@pytest.mark.parametrize("layout", ["python", "java"])
def test_an_alignment_table_collates_again_into_the_same_apparatus(layout, read_corpus, tmp_path):
    """to_json's table, given back to collate(), is the witnesses it aligned: the same entries, gaps and lacunae
    (鄉射禮: the 四部丛刊 lost a page; the table says where, and the text lost with it is no omission)."""
    from jiaokan.api import collate, to_json

    ws = [read_corpus(s) for s in ("jishi-juan05-xiangsheli-traditional", "zhushu-juan05-xiangsheli-KR1d0028_005",
                                   "sbck-juan05-xiangsheli-KR1d0026_005")]
    col = collate(ws)
    data = to_json(col, tmp_path / "t.json", layout=layout)
    again = collate([tmp_path / "t.json"], base=col.base)
    assert sorted(again.witnesses) == sorted(col.witnesses)  # (java: the sigla sorted)
    assert _entries(again) == _entries(col) and _gaps(again) == _gaps(col)
    assert {g.kind for g in again.gaps} >= {"lacuna"}
    # what the lacunae say: without them the lost page's text reads as the 四部丛刊's omission
    del data["lacunae"]
    (tmp_path / "t.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    blind = collate([tmp_path / "t.json"], base=col.base)
    assert len([a for a in blind.apps if a.type == "omission"]) > len([a for a in col.apps if a.type == "omission"])


def test_collatex_own_table_is_its_witnesses_text(tmp_path):
    """A table CollateX-Python wrote (no rows, no layers, null cells): each witness is its cells' text, as 经."""
    from jiaokan.api import collate, read_collatex

    ws = read_collatex(FIX / "pythonport-output-empty-cell.json")
    assert [(w.meta.siglum, [p.layer for p in w.pieces()], "".join(p.text for p in w.pieces())) for w in ws] == [
        ("A", ["jing"], "賓再拜"), ("B", ["jing"], "賓拜。")]
    (entry,) = collate(ws).apps
    assert entry.type == "omission" and entry.lem.text == "再"
    java = read_collatex(FIX / "java-output.json")
    assert ["".join(p.text for p in w.pieces()) for w in java] == ["賓再拜", "賓拜。"]


@pytest.mark.parametrize("table, message", [
    ({"format": "jiaokan-lean-table/3", "witnesses": ["A"], "table": [["x"]]}, "lean apparatus table"),
    ({"witnesses": ["A", "B"], "table": [[None], [None]], "layout": "diagonal"}, '"layout": \'diagonal\''),
    ({"witnesses": ["A", "B"], "table": [[[{"t": "x"}]], [[{"t": "y"}]]], "layout": "java"}, "not one per witness (2)"),
    # a trial's: as many segments as witnesses, no empty cell, nothing naming a witness: either layout fits
    ({"witnesses": ["A", "B"], "table": [[[{"t": "主"}], [{"t": "人"}]], [[{"t": "主"}], [{"t": "入"}]]]},
     'add "layout": "python" or "java"'),
    ({"witnesses": ["A", "B"], "table": [[[{"t": "主"}], [{"t": "人"}]], [[{"t": "主"}]]]}, "neither a row per witness"),
    ({"witnesses": ["A", "B"], "table": []}, "holds no text"),
    ({"witnesses": ["A", "B"], "table": None}, "table: expected a list of lists"),
    ({"witnesses": ["", "B"], "table": [[[{"t": "主"}]], [[{"t": "王"}]]]}, "witnesses[0]: expected a witness's name"),
    ({"witnesses": [1, 2], "table": [[[{"t": "主"}]], [[{"t": "王"}]]]}, "witnesses[0]: expected a witness's name"),
    ({"witnesses": ["A", "B"], "table": [["主", "人"], ["主", "入"]]}, 'a cell is "主": expected null or a list of tokens'),
    ({"witnesses": ["A", "B"], "table": [[None], [None]]}, "holds no text"),
    ({"witnesses": ["A", "A"], "table": [[[{"t": "x"}]], [[{"t": "y"}]]]}, "'A' is named twice"),
    ({"witnesses": ["A"], "table": [[[{"t": "x", "row": "r1", "layer": "jing"}]]], "pieces": {"A": [["r1", "jing", 0]]}},
     "pieces of witness 'A', entry 0: expected [row, layer, unit, tokens before it]"),
    ({"witnesses": ["A"], "table": [[[{"t": "x", "row": "r1"}]]]}, "needs both"),
    ({"witnesses": ["A"], "table": [[[{"t": "x", "row": "r1", "layer": "jing"}]]], "lacunae": {"A": [["r1", 0]]}},
     "lacunae of witness 'A', entry 0"),
])
def test_a_malformed_alignment_table_is_one_line(table, message, tmp_path, capsys):
    f = tmp_path / "t.json"
    f.write_text(json.dumps(table), encoding="utf-8")
    _refused_in_one_line(f, message, tmp_path, capsys)


def test_a_json_file_cut_inside_a_character_says_so(tmp_path, capsys):
    """A table cut short inside a character said "not UTF-8 (byte 4998)": it says what the witness readers say."""
    f = tmp_path / "cut.json"
    f.write_bytes(json.dumps({"witnesses": ["A", "B"], "table": [[[{"t": "賓"}]], [[{"t": "賔"}]]]},
                             ensure_ascii=False).encode("utf-8")[:-7])
    _refused_in_one_line(f, "the file ends in the middle of a character: it looks cut off", tmp_path, capsys)


def test_cli_collates_its_own_json_again(read_corpus, tmp_path, capsys):
    from jiaokan.api import to_tei
    from jiaokan.cli import main

    a, b = tmp_path / "zs.xml", tmp_path / "js.xml"
    to_tei(read_corpus("zhushu-dasheyi-excerpt"), a)
    to_tei(read_corpus("jishi-juan10-dasheyi-simplified"), b)
    assert main(["collate", str(a), str(b), "--json", str(tmp_path / "1.json"), "-o", str(tmp_path / "1.xml"),
                 "-q"]) == 0
    assert main(["collate", str(tmp_path / "1.json"), "--json", str(tmp_path / "2.json"), "-o",
                 str(tmp_path / "2.xml"), "-q"]) == 0
    one, two = (json.loads((tmp_path / f"{n}.json").read_text(encoding="utf-8")) for n in (1, 2))
    assert one["variants"] and [(v["type"], v["readings"]) for v in one["variants"]] == \
        [(v["type"], v["readings"]) for v in two["variants"]]


def test_a_table_whose_tokens_name_their_witness_is_read_by_them(tmp_path):
    """CollateX writes each token's witness (``_sigil``): a square table (as many segments as witnesses), which
    either layout fits, is read the way that puts every token under its witness, whichever layout it is in."""
    from jiaokan.api import read_collatex

    def tok(t: str, s: str) -> dict:
        return {"t": t, "_sigil": s}

    python = {"witnesses": ["A", "B"], "table": [[[tok("主", "A")], [tok("人", "A")]], [[tok("主", "B")], [tok("入", "B")]]]}
    java = {"witnesses": ["A", "B"], "table": [[[tok("主", "A")], [tok("主", "B")]], [[tok("人", "A")], [tok("入", "B")]]]}
    for name, table in (("p", python), ("j", java)):
        f = tmp_path / f"{name}.json"
        f.write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
        assert ["".join(p.text for p in w.pieces()) for w in read_collatex(f)] == ["主人", "主入"]


def test_a_java_table_comes_back_over_its_base_and_chinese_names_are_numbered(read_corpus, tmp_path):
    """A Java-layout table lists the sigla sorted: read back, its base (``"base"``) comes first again, so the
    witnesses collate over the same base into the same apparatus.  Names that make one siglum (甲本, 乙本: W) are
    numbered, as for CollateX input."""
    from jiaokan.api import collate, read_collatex, to_json

    col = collate([read_corpus("zhushu-dasheyi-excerpt"), read_corpus("jishi-juan10-dasheyi-simplified")],
                  base="ZS", layers=["jing", "zhu"])
    to_json(col, tmp_path / "j.json", layout="java")
    again = collate([tmp_path / "j.json"])
    assert again.base == "ZS" and _entries(again) == _entries(col)
    f = tmp_path / "cn.json"
    f.write_text(json.dumps({"witnesses": ["甲本", "乙本"], "table": [[[{"t": "賓"}], None], [[{"t": "賓"}], [{"t": "拜"}]]]},
                            ensure_ascii=False), encoding="utf-8")
    ws = read_collatex(f)
    assert [(w.meta.siglum, w.meta.title) for w in ws] == [("W", "甲本"), ("W_2", "乙本")]


def test_a_collatex_witness_is_a_whole_text_so_its_ends_are_read_not_cut(tmp_path):
    """CollateX's witnesses are whole texts: what one reads after the other ends is its addition (an omission of the
    other), as CollateX shows it, not an excerpt's edge, which the apparatus does not list (a user's trial: 主人戒賓
    against 主人戒宾再拜 was "0 apparatus entries").  A table CollateX wrote is read the same way."""
    from jiaokan.api import collate, read_collatex

    f = tmp_path / "in.json"
    f.write_text(json.dumps({"witnesses": [{"id": "A", "content": "主人戒賓"}, {"id": "B", "content": "再拜主人戒宾再拜"}]},
                            ensure_ascii=False), encoding="utf-8")
    col = collate(read_collatex(f))
    assert [(a.type, a.lem.text, a.readings["B"].text) for a in col.apps] == [("addition", "", "再拜")] * 2
    assert not [g for g in col.gaps if g.kind == "edge"]
    t = tmp_path / "t.json"
    t.write_text(json.dumps({"witnesses": ["A", "B"], "table": [[[{"t": "主"}], None], [[{"t": "主"}], [{"t": "拜"}]]]},
                            ensure_ascii=False), encoding="utf-8")
    (entry,) = collate(read_collatex(t)).apps
    assert (entry.type, entry.readings["B"].text) == ("addition", "拜")


def test_an_apparatus_renders_from_the_witnesses_it_names_by_siglum_or_from_its_json(read_corpus, tmp_path):
    """A user's trial: to_tei(col) names its witnesses SIGLUM.xml, and render given the witnesses' own files
    refused ("ZS.xml was found neither among the inputs…"): an input whose witness has the siglum is the one.  An
    apparatus `jiaokan collate T.json` wrote names T.json as its witnesses' file: render read it as XML ("not
    well-formed"); it reads the witnesses from the JSON."""
    from jiaokan.api import collate, to_json, to_tei
    from jiaokan.cli import main

    zs, js = read_corpus("zhushu-dasheyi-excerpt"), read_corpus("jishi-juan10-dasheyi-simplified")
    to_tei(zs, tmp_path / "zs-own-name.xml")
    to_tei(js, tmp_path / "js-own-name.xml")
    col = collate([tmp_path / "zs-own-name.xml", tmp_path / "js-own-name.xml"], layers=["jing", "zhu"])
    to_tei(col, tmp_path / "app.xml")
    assert main(["render", str(tmp_path / "app.xml"), str(tmp_path / "zs-own-name.xml"),
                 str(tmp_path / "js-own-name.xml"), "-o", str(tmp_path / "site"), "-q"]) == 0
    assert (tmp_path / "site" / "app.html").is_file()
    to_json(col, tmp_path / "t.json")
    assert main(["collate", str(tmp_path / "t.json"), "-o", str(tmp_path / "again.xml"), "-q"]) == 0
    assert main(["render", str(tmp_path / "again.xml"), "-o", str(tmp_path / "site2"), "-q"]) == 0
    assert (tmp_path / "site2" / "again.html").is_file()


def test_a_table_keeps_its_witnesses_unknown_characters_and_what_they_are(read_corpus, tmp_path):
    """A user's trial: the 注疏's &KR2687; (no known mapping) went into the table as U+FFFD, and collated again its
    charDecl said the source had lost the character; the witnesses' titles, 篇 and licence were gone."""
    from jiaokan.api import collate, to_json, to_tei

    col = collate([read_corpus("zhushu-juan05-xiangsheli-KR1d0028_005"), read_corpus("sbck-juan05-xiangsheli-KR1d0026_005")])
    to_json(col, tmp_path / "t.json")
    again = collate([tmp_path / "t.json"])

    def chars(tei: str) -> list[str]:
        return sorted(re.findall(r'<char xml:id="[^"]+">.*?</char>', tei, re.S))

    assert "KR2687" in to_tei(col) and chars(to_tei(again)) == chars(to_tei(col))
    assert re.findall(r'<g ref="[^"]+"/>', to_tei(again)) == re.findall(r'<g ref="[^"]+"/>', to_tei(col))
    for s, w in again.witnesses.items():
        m = col.witnesses[s].meta
        assert (w.meta.title, w.meta.chapter, w.meta.script, w.meta.licence, w.meta.role) == \
            (m.title, m.chapter, m.script, m.licence, m.role)
