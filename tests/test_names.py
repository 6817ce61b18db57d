"""Names that become ids or file names: sigla, collation names, output files (issue 11, items 1 and 5).

The seeds arrive as ``004_e265843fcb22f799.txt``: a file name that starts with a digit used to
become ``xml:id="004_E265"``, which no later command could read back; a ``[[collation]] name`` of
``../../x`` made ``jiaokan build`` write outside its output folder.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from jiaokan.names import derive_siglum, name_problem, output_stem, siglum_problem

from .conftest import CORPUS, SHARED
from .test_cli import JS5, JS10, jiaokan

SEEDS = SHARED / "seeds"
NCNAME = re.compile(r"[A-Za-z_][\w.-]*")  # ASCII subset of an XML NCName, which is what we promise


def seed(prefix: str) -> Path:
    found = sorted(SEEDS.glob(f"{prefix}_*.txt"))
    if not found:
        pytest.skip(f"seed {prefix} not in {SEEDS}")
    return found[0]


@given(st.text(min_size=0, max_size=30))
@settings(max_examples=300, deadline=None)
def test_a_derived_siglum_is_always_a_valid_siglum(stem):
    s = derive_siglum(stem + ".txt")
    assert siglum_problem(s) is None, (stem, s)
    assert NCNAME.fullmatch(s)


@pytest.mark.parametrize("bad", ["Z S", "004_E265", "-x", "a'b", 'a"b', "", "JS/1", "甲", "x" * 40, "J.S"])
def test_sigla_that_are_not_allowed_say_what_is(bad):
    problem = siglum_problem(bad)
    assert problem and "letter" in problem and repr(bad) in problem


@pytest.mark.parametrize("bad", ["../../../x", "/etc/x", "a/b", ".hidden", "-x", "", "a b", "x\\y"])
def test_collation_names_must_be_plain_file_names(bad):
    assert name_problem(bad)


@pytest.mark.parametrize("good", ["dasheyi", "大射仪", "ch-1.2", "x_y"])
def test_collation_names_may_be_any_plain_name(good):
    assert name_problem(good) is None


def test_stdin_and_files_name_their_outputs_predictably():
    assert output_stem("-") == "stdin"
    assert output_stem("dir/004_e265843fcb22f799.txt") == "004_e265843fcb22f799"
    assert output_stem("a b'c.txt") == "a b'c"


def _ids(path: Path) -> list[str]:
    root = etree.parse(str(path)).getroot()
    return [v for v in root.xpath("//@xml:id")]


def test_the_five_seeds_under_their_own_names_ingest_and_read_back(tmp_path):
    """Every jiaokan command reads the TEI of every seed, ingested under its name as received."""
    seeds = [seed(p) for p in ("000", "001", "002", "003", "004")]
    r = jiaokan("ingest", *map(str, seeds), "-o", str(tmp_path), "-q")
    assert r.returncode == 0, r.stderr
    xml = {p.name[:3]: tmp_path / f"{p.stem}.xml" for p in seeds}
    for x in xml.values():
        assert x.is_file()
        assert all(NCNAME.fullmatch(i) for i in _ids(x)), x
        r = jiaokan("text", str(x), "--layer", "all")
        assert r.returncode == 0 and r.stdout.strip(), r.stderr
    r = jiaokan("validate", *map(str, xml.values()))
    assert r.returncode == 0, r.stdout
    # 集释 卷十 (001) against the 注疏 excerpt (003): both share 大射仪
    r = jiaokan("collate", str(xml["001"]), str(xml["003"]), "-o", str(tmp_path / "app.xml"))
    assert r.returncode == 0, r.stderr
    r = jiaokan("diff", str(xml["004"]), str(xml["000"]), "--layer", "jing")
    assert r.returncode == 1 and "differences" in r.stdout.decode(), r.stderr  # they differ: 1, as diff(1)
    r = jiaokan("emend", str(xml["001"]), "--against", str(xml["003"]), "-o", str(tmp_path / "em.xml"),
                "--against-output", str(tmp_path / "zs-em.xml"), "--tei", str(tmp_path / "em-app.xml"), "-q")
    assert r.returncode == 0, r.stderr
    r = jiaokan("validate", *(str(tmp_path / f) for f in ("app.xml", "em.xml", "em-app.xml")))
    assert r.returncode == 0, r.stdout


def test_odd_file_names_and_stdin(tmp_path):
    odd = tmp_path / "-2 odd 'name\".txt"
    shutil.copy(JS5, odd)
    out = tmp_path / "out"
    r = jiaokan("ingest", f"./{odd.name}", "-o", str(out), "-q", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    xml = out / "-2 odd 'name\".xml"
    assert jiaokan("text", str(xml)).returncode == 0
    r = jiaokan("ingest", "-", "--format", "jishi-flat", "-o", str(out), "-q", stdin=JS5.read_bytes())
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted([xml.name, "stdin.xml"])
    r = jiaokan("validate", str(xml), str(out / "stdin.xml"))
    assert r.returncode == 0, r.stdout


@pytest.mark.parametrize("opts", [("ingest", str(JS10), "--siglum", "Z S"),
                                  ("emend", str(JS10), "--siglum", "1A"),
                                  ("emend", str(JS10), "--against", str(JS10), "--against-siglum", "a'b")])
def test_a_bad_siglum_option_is_refused_before_anything_is_written(tmp_path, opts):
    r = jiaokan(*opts, "-o", str(tmp_path / "out.xml"))
    err = r.stderr.decode()
    assert r.returncode == 2 and len(err.splitlines()) == 1 and "siglum" in err and "letter" in err, err
    assert not any(tmp_path.iterdir())


def _corpus(tmp_path: Path, witness_extra: str = "", collation: str = "") -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(JS5, corpus / JS5.name)
    shutil.copy(CORPUS / "zhushu-dasheyi-excerpt.txt", corpus / "zs.txt")
    (corpus / "corpus.toml").write_text(
        f'[[witness]]\nfile = "{JS5.name}"\nsiglum = "JS"\nchapter = "乡射礼"\n{witness_extra}'
        f'[[witness]]\nfile = "zs.txt"\nsiglum = "ZS"\nchapter = "乡射礼"\n{collation}',
        encoding="utf-8")
    return corpus


@pytest.mark.parametrize("collation,expect", [
    ('[[collation]]\nname = "../../../x"\nchapter = "乡射礼"\n', "[[collation]] number 1: name '../../../x'"),
    ('[[collation]]\nname = "/tmp/abs"\nchapter = "乡射礼"\n', "name '/tmp/abs'"),
    ('[[collation]]\nname = "zs"\nchapter = "乡射礼"\n', "also a witness file's name"),
    ('[[collation]]\nname = "a"\nchapter = "乡射礼"\nbase = "J S"\n', "siglum 'J S'"),
    ('[[collation]]\nname = "a"\nchapter = "乡射礼"\n[[collation]]\nname = "a"\nchapter = "乡射礼"\n', "used twice"),
])
def test_manifest_names_that_would_escape_or_clash_are_refused_on_entry(tmp_path, collation, expect):
    corpus = _corpus(tmp_path, collation=collation)
    out = tmp_path / "deep" / "er" / "build"
    r = jiaokan("build", "--corpus", str(corpus), "--out", str(out), "-q")
    err = r.stderr.decode()
    assert r.returncode == 2 and len(err.splitlines()) == 1 and "corpus.toml" in err and expect in err, err
    assert not (tmp_path / "deep").exists()  # nothing written, inside --out or outside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus"]


def test_a_manifest_siglum_that_is_not_a_name_is_refused(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(JS5, corpus / JS5.name)
    (corpus / "corpus.toml").write_text(f'[[witness]]\nfile = "{JS5.name}"\nsiglum = "Z S"\n', encoding="utf-8")
    r = jiaokan("build", "--corpus", str(corpus), "--out", str(tmp_path / "b"), "-q")
    err = r.stderr.decode()
    assert r.returncode == 2 and "[[witness]] number 1" in err and "siglum 'Z S'" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "b").exists()


def test_two_witness_files_with_one_stem_are_refused(tmp_path):
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    shutil.copy(JS5, corpus / "x.txt")
    shutil.copy(JS5, corpus / "sub" / "x.txt")
    (corpus / "corpus.toml").write_text('[[witness]]\nfile = "x.txt"\nsiglum = "A"\n'
                                        '[[witness]]\nfile = "sub/x.txt"\nsiglum = "B"\n', encoding="utf-8")
    r = jiaokan("build", "--corpus", str(corpus), "--out", str(tmp_path / "b"), "-q")
    assert r.returncode == 2 and b"tei/x.xml" in r.stderr


def test_build_takes_the_manifest_itself_as_corpus(tmp_path):
    corpus = _corpus(tmp_path, collation='[[collation]]\nname = "xiang"\nchapter = "乡射礼"\nbase = "JS"\n')
    r = jiaokan("build", "--corpus", str(corpus / "corpus.toml"), "--out", str(tmp_path / "b"), "-q")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "b" / "apparatus" / "xiang.xml").is_file()
    assert (tmp_path / "b" / "site" / "xiang.html").is_file()
