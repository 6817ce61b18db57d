"""End-to-end tests of the ``jiaokan`` command line, run as a user would (a subprocess)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT, TEI_ALL, corpus_file

JS10 = corpus_file("jishi-juan10-dasheyi-simplified")
JS5 = corpus_file("jishi-juan05-xiangsheli-traditional")


def jiaokan(*args: str, cwd: Path | None = None, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "jiaokan.cli", *args],
        cwd=cwd or ROOT, input=stdin, capture_output=True, timeout=300,
    )


def test_help_teaches_the_pipeline():
    r = jiaokan("--help")
    assert r.returncode == 0
    out = r.stdout.decode()
    for cmd in ("ingest", "validate", "text", "formats", "build"):
        assert cmd in out
    assert jiaokan("ingest", "--help").returncode == 0


def test_every_command_s_help_says_what_it_does_and_matches_what_it_does():
    """A new user's trial: `formats --help` said nothing, `emend --help` named three of its four verdicts, and
    `render --help` described a footnoted NAME-base.html that is now a page leading to the base view."""
    import argparse

    from jiaokan.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert len(sub.choices) >= 10
    for cmd in sub.choices:
        out = jiaokan(cmd, "--help").stdout.decode()
        description = out.split("\n\n", 2)[1]  # after the usage lines
        assert not description.startswith(("options:", "positional arguments:")), f"{cmd} --help has no description"
    emend = " ".join(jiaokan("emend", "--help").stdout.decode().split())
    assert all(v in emend for v in ("confirmed", "contradicted", "uncertain", "not covered"))
    render = " ".join(jiaokan("render", "--help").stdout.decode().split())
    assert "footnoted" not in render and "?read=" in render


def test_formats_lists_readers():
    r = jiaokan("formats")
    assert r.returncode == 0
    assert "jishi-pages" in r.stdout.decode() and "jishi-flat" in r.stdout.decode()


def test_ingest_text_validate(tmp_path):
    r = jiaokan("ingest", str(JS10), "-o", str(tmp_path))
    assert r.returncode == 0, r.stderr
    err = r.stderr.decode()
    assert "161 passages" in err and "21 案 notes" in err and "jing 3629" in err
    xml = tmp_path / "jishi-juan10-dasheyi-simplified.xml"
    assert xml.is_file()
    r = jiaokan("text", str(xml), "--layer", "jing")
    lines = r.stdout.decode().splitlines()
    assert lines[0] == "司射适西阶西倚扑升自西阶东面请射于公"
    assert len(lines) == 161
    r = jiaokan("text", str(xml), "--layer", "an", "--ids")
    assert r.stdout.decode().splitlines()[0].split("\t")[1] == "案比今注疏本讹作北据唐石经及宋本改正"
    r = jiaokan("validate", str(xml))
    assert r.returncode == 0 and b"valid" in r.stdout


def test_ingest_stdin_to_stdout():
    r = jiaokan("ingest", "-", "--format", "jishi-flat", "-o", "-", stdin=JS5.read_bytes())
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(b"<?xml") and b'type="jing"' in r.stdout


def test_validate_reports_invalid_files(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text('<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body><div type="chapter">'
                   '<ab type="nonsense">x</ab></div></body></text></TEI>', encoding="utf-8")
    r = jiaokan("validate", str(bad))
    assert r.returncode == 1 and b"INVALID" in r.stdout
    assert jiaokan("validate", str(tmp_path / "missing.xml")).returncode == 2


@pytest.mark.parametrize(
    "name,data,expect",
    [
        ("empty.txt", b"", "empty file"),
        ("binary.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary.txt:3: binary file (NUL bytes from byte 8)"),
        ("gbk.txt", "司射适西阶西倚扑升自西阶东面请射于公\n 郑注倚扑者\n".encode("gbk"), "GBK"),
    ],
)
def test_bad_input_one_line_error_no_output(tmp_path, name, data, expect):
    src = tmp_path / name
    src.write_bytes(data)
    out = tmp_path / "out"
    r = jiaokan("ingest", str(src), "-o", str(out))
    assert r.returncode == 2
    err = r.stderr.decode().strip()
    assert len(err.splitlines()) == 1 and name in err and expect in err
    assert "Traceback" not in err
    assert not out.exists() or not any(out.iterdir())


def test_wrong_format_and_cut_off_note(tmp_path):
    out = tmp_path / "out"
    r = jiaokan("ingest", str(JS5), "--format", "jishi-pages", "-o", str(out))
    assert r.returncode == 2 and b"does not look like a 'jishi-pages' file" in r.stderr
    assert b"try --format jishi-flat" in r.stderr
    text = JS10.read_text(encoding="utf-8")
    cut = text[: text.index("(案比今注疏/本讹作北据)") + len("(案比今注疏/本讹")]
    (tmp_path / "cut.txt").write_text(cut, encoding="utf-8")
    r = jiaokan("ingest", str(tmp_path / "cut.txt"), "-o", str(out))
    err = r.stderr.decode().strip()
    assert r.returncode == 2 and "cut.txt:19:" in err and "cut off" in err and len(err.splitlines()) == 1
    assert not out.exists() or not any(out.iterdir())


def test_build_writes_tei_and_summary(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for f in (JS10, JS5):
        shutil.copy(f, corpus / f.name)
    (corpus / "corpus.toml").write_text(
        f'[[witness]]\nfile = "{JS10.name}"\nformat = "jishi-pages"\nsiglum = "JS"\njuan = "10"\nchapter = "大射仪"\n'
        f'[[witness]]\nfile = "{JS5.name}"\nsiglum = "JS"\njuan = "5"\nchapter = "乡射礼"\n',
        encoding="utf-8",
    )
    args = ["build", "--corpus", str(corpus), "--out", str(tmp_path / "build")]
    if TEI_ALL.is_file():
        args += ["--tei-all", str(TEI_ALL)]
    r = jiaokan(*args)
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    assert "siglum" in out and "jishi-pages" in out and "2/2 witnesses" in out
    assert (tmp_path / "build" / "tei" / "jishi-juan05-xiangsheli-traditional.xml").is_file()


def test_an_output_path_blocked_by_a_file_is_one_line_not_a_traceback(tmp_path):
    blocker = tmp_path / "build"
    blocker.write_text("not a directory")
    for args in (("build", "-q", "--out", str(blocker)),
                 ("ingest", str(JS10), "-o", str(blocker / "x.xml"))):
        r = jiaokan(*args)
        err = r.stderr.decode()
        assert r.returncode == 1 and "Traceback" not in err
        assert err.count("\n") == 1 and "a file is in the way" in err and str(blocker) in err
    assert blocker.read_text() == "not a directory"


def test_file_cut_in_the_middle_of_a_character(tmp_path):
    data = JS10.read_bytes()
    cut = tmp_path / "cut.txt"
    cut.write_bytes(data[: data.index("司射东面".encode()) + 4])  # 4 bytes: 司 and one byte of 射
    r = jiaokan("ingest", str(cut), "-o", str(tmp_path / "out"))
    err = r.stderr.decode().strip()
    assert r.returncode == 2 and "cut off" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_build_in_parallel_writes_what_one_process_writes(tmp_path):
    """`--jobs 2` collates the 篇 in forked workers; every output is the same as with `--jobs 1`."""
    import filecmp

    one, two = tmp_path / "one", tmp_path / "two"
    for out, jobs in ((one, "1"), (two, "2")):
        r = jiaokan("build", "--out", str(out), "-q", "--jobs", jobs)
        assert r.returncode == 0, r.stderr.decode()
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files and files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    _, mismatch, errors = filecmp.cmpfiles(one, two, [str(f) for f in files], shallow=False)
    assert not mismatch and not errors
    assert jiaokan("build", "--out", str(tmp_path / "x"), "--jobs", "0").returncode == 2


def test_text_reads_a_raw_witness_file_as_collate_and_diff_do(tmp_path):
    """A second user's trial: `jiaokan text KR1d0030_005.txt` said "not well-formed XML" where collate, diff and
    emend take the same file.  It prints the same lines as for the file's TEI; -q leaves out the reader's warnings."""
    raw = corpus_file("zhushu-dasheyi-excerpt")
    assert jiaokan("ingest", str(raw), "-o", str(tmp_path), "-q").returncode == 0
    tei = tmp_path / "zhushu-dasheyi-excerpt.xml"
    for layer in ("jing", "all"):
        a = jiaokan("text", str(raw), "--layer", layer, "--ids", "-q")
        b = jiaokan("text", str(tei), "--layer", layer, "--ids", "-q")
        assert a.returncode == 0 and a.stderr == b"", a.stderr
        assert a.stdout == b.stdout and a.stdout.count(b"\n") > 20


def test_collate_tells_a_layer_one_witness_lacks_from_text_past_another_s_edge(tmp_path):
    """A second user's trial: the 集释's 卷 that ends mid-篇 beside the 注疏's whole 篇 read "jing only in ZS (3392
    characters)", as if the 集释 had no 经.  The summary now says which text is a layer one witness lacks where both
    have the passage (the excerpt's 疏) and which lies where the other has no passage (past the excerpt's end)."""
    r = jiaokan("collate", str(JS10), str(corpus_file("zhushu-dasheyi-excerpt")), "-o", str(tmp_path / "a.xml"))
    err = r.stderr.decode()
    assert r.returncode == 0, err
    assert "layers present in one witness only: shu only in ZS (" in err
    assert re.search(r"text where another witness has no passage \(past its start or end, or missing\): JS jing \d+, "
                     r"zhu \d+ characters", err), err
    assert "jing only in" not in err


def test_diff_takes_layer_all_as_text_does_and_says_why_it_does_not_collate_notes():
    """A second user's trial: `diff --layer all` failed though `text` takes all and all is diff's default, and
    `--layer an` said only that it cannot be collated."""
    zs = str(corpus_file("zhushu-dasheyi-excerpt"))
    every = jiaokan("diff", str(JS10), zs, "-q")
    named = jiaokan("diff", str(JS10), zs, "--layer", "all", "-q")
    assert named.returncode == every.returncode == 1, named.stderr
    notes = jiaokan("diff", str(JS10), zs, "--layer", "an")
    assert notes.returncode == 2 and "案 notes are not collated: `jiaokan emend`" in notes.stderr.decode()


def test_diff_of_two_alignment_tables_is_refused_not_read_as_four_witnesses(tmp_path):
    """A user's trial: `diff a.json b.json` of two tables (each of two witnesses) diffed four witnesses, as if
    asked, with exit 1.  diff compares one witness a side: a side of several is refused in one line that says how
    to collate them; a table of one witness a side is still taken."""
    zs = str(corpus_file("zhushu-dasheyi-excerpt"))
    table = tmp_path / "a.json"
    assert jiaokan("collate", str(JS10), zs, "--json", str(table), "-q").returncode == 0
    r = jiaokan("diff", str(table), str(table))
    err = r.stderr.decode()
    assert r.returncode == 2 and r.stdout == b"", err
    assert "diff compares two witnesses, one a side, and" in err and "holds 2 (JS, ZS)" in err
    assert f"`jiaokan collate {table}` collates them" in err and "Traceback" not in err


def test_collate_of_raw_files_says_the_tei_its_apparatus_points_to_is_not_written(tmp_path):
    """A second user's trial: the apparatus of raw inputs pointed to KR1d0030_005.xml, which nothing had written, and
    `render` then failed on it.  collate says so, and how to write them; once ingested, it says nothing."""
    zs = corpus_file("zhushu-dasheyi-excerpt")
    r = jiaokan("collate", str(JS10), str(zs), "-o", str(tmp_path / "app.xml"))
    err = r.stderr.decode()
    assert r.returncode == 0 and "zhushu-dasheyi-excerpt.xml, not written yet: `jiaokan ingest FILE -o" in err, err
    assert jiaokan("ingest", str(JS10), str(zs), "-o", str(tmp_path), "-q").returncode == 0
    r = jiaokan("collate", str(JS10), str(zs), "-o", str(tmp_path / "app.xml"))
    assert "not written yet" not in r.stderr.decode()
    assert jiaokan("render", str(tmp_path / "app.xml"), "-o", str(tmp_path / "site"), "-q").returncode == 0


def test_diff_that_cannot_write_its_answer_exits_2_not_1():
    """A user's trial: `jiaokan diff A A > /dev/full` printed 'No space left on device' and exited 1, which diff(1)
    reserves for "they differ"; trouble is 2."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "wb") as full:
        r = subprocess.run([sys.executable, "-m", "jiaokan", "diff", str(JS10), str(JS10)], stdout=full,
                           stderr=subprocess.PIPE)
    assert r.returncode == 2 and b"No space left on device" in r.stderr and b"Traceback" not in r.stderr
