"""The Python API (``import jiaokan``): the README's example runs as written, and the facade's contracts."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from .conftest import ROOT, corpus_file

ZS = corpus_file("zhushu-dasheyi-excerpt")


def readme_example() -> str:
    """The ```python block of the README's "Python API" section, exactly as a reader would copy it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Python API\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "the Python API section should have exactly one example"
    return blocks[0]


def test_the_readme_example_runs_as_written(tmp_path):
    code = readme_example()
    lines = [ln for ln in code.splitlines() if ln.strip() and not ln.startswith("import ")]
    assert len(lines) <= 10, "the README promises a ten-line example"
    (tmp_path / "corpus").symlink_to(ROOT / "corpus")  # the example's paths are relative to a checkout
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode().splitlines()
    data = json.loads((tmp_path / "out" / "dasheyi.json").read_text(encoding="utf-8"))
    assert data["witnesses"] == ["JS", "ZS"] and len(data["table"]) == 2
    counts = eval(out[0])  # the printed dict of variant counts is the one the JSON records  # noqa: S307
    assert counts == data["counts"] and counts["substantive"] > 0
    verdicts = eval(out[1])  # noqa: S307
    assert set(verdicts) >= {"confirmed", "contradicted", "not covered"} and sum(verdicts.values()) > 0
    from lxml import etree

    from jiaokan.tei.validate import profile_schema

    assert profile_schema().validate(etree.parse(str(tmp_path / "out" / "dasheyi.xml")))
    index = tmp_path / "out" / "site" / "index.html"
    assert out[2] == "out/site/index.html" and index.is_file()
    pages = [p.name for p in (tmp_path / "out" / "site").glob("*.html")]
    assert len(pages) >= 3  # the index, the parallel page and the base-text page of the collation


def test_import_is_light_and_names_resolve():
    code = ("import sys, jiaokan; heavy = 'jiaokan.collate.engine' in sys.modules; "
            "import jiaokan.render, jiaokan.collate.engine, jiaokan.emend.apply; "
            "print(heavy, callable(jiaokan.render), callable(jiaokan.collate), callable(jiaokan.emend))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    # `import jiaokan` loads no pipeline stage; importing the subpackages does not hide the API functions
    assert r.stdout.decode().split() == ["False", "True", "True", "True"], r.stderr.decode()


def test_read_path_or_text_with_optional_metadata():
    import jiaokan

    from_path = jiaokan.read(ZS)  # listed in corpus.toml: its siglum and chapter come from there
    assert (from_path.meta.siglum, from_path.meta.chapter, from_path.meta.format) == ("ZS", "大射仪", "zhushu-ctext")
    from_text = jiaokan.read(text=ZS.read_text(encoding="utf-8"), siglum="Z", chapter="大射仪")
    assert from_text.meta.format == "zhushu-ctext" and from_text.meta.siglum == "Z"  # sniffed, no format given
    assert [p.text for p in from_text.pieces()] == [p.text for p in from_path.pieces()]
    from_bytes = jiaokan.read(text=ZS.read_bytes())
    assert [p.text for p in from_bytes.pieces()] == [p.text for p in from_path.pieces()]
    with pytest.raises(TypeError):
        jiaokan.read(ZS, text="x")
    with pytest.raises(TypeError, match="unknown metadata"):
        jiaokan.read(ZS, chaptre="大射仪")
    with pytest.raises(jiaokan.ReaderError, match="unknown format"):
        jiaokan.read(text="hello, world\n")


def test_tei_round_trip_and_paths_anywhere(tmp_path):
    import jiaokan

    zs = jiaokan.read(ZS)
    xml = jiaokan.to_tei(zs, tmp_path / "zs.xml")
    assert (tmp_path / "zs.xml").read_text(encoding="utf-8") == xml
    again = jiaokan.read(tmp_path / "zs.xml")  # a TEI file reads back as the same witness
    assert [p.text for p in again.pieces()] == [p.text for p in zs.pieces()]
    cx = tmp_path / "cx.json"
    jing = "".join(p.text for p in zs.pieces() if p.layer == "jing")
    cx.write_text(json.dumps({"witnesses": [{"id": "CX", "content": jing}]}, ensure_ascii=False), encoding="utf-8")
    col = jiaokan.collate([tmp_path / "zs.xml", cx], layers=["jing"])  # paths of both kinds
    assert col.sigla == ["ZS", "CX"] and not col.apps  # the same 经: no variants
    with pytest.raises(jiaokan.CollationError, match="at least two"):
        jiaokan.collate([zs])
    with pytest.raises(TypeError):
        jiaokan.to_json(zs)  # type: ignore[arg-type]


def test_dir_lists_the_api():
    import jiaokan

    assert {"read", "collate", "emend", "to_tei", "to_json", "render", "ReaderError", "CollationError"} <= set(dir(jiaokan))


def test_a_bad_tei_file_is_a_reader_error_as_documented(tmp_path):
    import jiaokan

    bad = tmp_path / "bad.xml"
    bad.write_text("<TEI><unclosed>", encoding="utf-8")
    with pytest.raises(jiaokan.ReaderError) as exc:
        jiaokan.read(bad)
    assert str(bad) in str(exc.value) and "\n" not in str(exc.value)
    with pytest.raises(jiaokan.ReaderError):
        jiaokan.collate([bad, ZS])


# --- a user's trial: arguments the API was given as a user would give them ------------------------------

def test_a_siglum_xml_cannot_hold_is_refused_before_any_tei_is_written(tmp_path):
    """read(siglum=...) took 'S<B&"', and to_tei wrote a file lxml cannot parse; collate and to_tei refuse one set
    on the witness by hand, as the command line refuses it."""
    import jiaokan

    with pytest.raises(jiaokan.ReaderError, match="siglum 'S<B&\"' is not allowed"):
        jiaokan.read(ZS, siglum='S<B&"')
    w, js = jiaokan.read(ZS), jiaokan.read(corpus_file("jishi-juan10-dasheyi-simplified"))
    w.meta.siglum = "1 2"
    with pytest.raises(jiaokan.CollationError, match="siglum '1 2' is not allowed"):
        jiaokan.collate([w, js])
    with pytest.raises(jiaokan.InputError, match="its TEI would not be XML"):
        jiaokan.to_tei(w, tmp_path / "w.xml")
    assert not list(tmp_path.iterdir())


def test_collate_takes_a_list_and_layers_or_types_as_one_string():
    """collate("a.xml") read the path as its letters ("/: is a directory"); layers="jing" as j, i, n, g."""
    import jiaokan

    with pytest.raises(TypeError, match=r"a list of witnesses or paths, not one str"):
        jiaokan.collate(str(ZS))  # type: ignore[arg-type]
    col = jiaokan.collate([ZS, corpus_file("jishi-juan10-dasheyi-simplified")], layers="jing,zhu",
                          ignore="orthographic")
    assert col.layers == ("jing", "zhu") and col.ignored == ("orthographic",)
    assert col.apps and not [a for a in col.apps if a.type == "orthographic"]


def test_read_text_of_a_tei_document_says_to_read_its_file(tmp_path):
    import jiaokan

    jiaokan.to_tei(jiaokan.read(ZS), tmp_path / "zs.xml")
    with pytest.raises(jiaokan.ReaderError, match=r"a TEI document: read it from its file"):
        jiaokan.read(text=(tmp_path / "zs.xml").read_bytes())


def test_render_with_nothing_to_show_is_refused_and_writes_nothing(tmp_path):
    """A user's trial: jiaokan.render() with no input wrote an empty edition into ./site and said nothing."""
    import jiaokan

    out = tmp_path / "site"
    with pytest.raises(jiaokan.InputError, match=r"render\(\) needs a witness, a collation or a TEI file"):
        jiaokan.render(out=out)
    assert not out.exists()
