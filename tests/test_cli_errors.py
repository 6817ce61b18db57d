"""One bad thing, one line (issue 11, item 10): Ctrl-C, malformed verdicts, one bad file among many."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from jiaokan.cli import main

from .conftest import CORPUS, ROOT
from .test_cli import JS5, JS10, jiaokan

ZS = CORPUS / "zhushu-dasheyi-excerpt.txt"


def test_ctrl_c_during_a_build_is_one_line_and_status_130(tmp_path):
    """SIGINT once the build is under way (its first progress line): exit 130, one line, no temporary file."""
    out = tmp_path / "build"
    # SIGINT as a terminal leaves it: a test run started in the background (``cmd &`` in a script) ignores it,
    # the build inherits that, and the launcher rightly keeps ignoring it (it ran to the end, exit 0)
    p = subprocess.Popen([sys.executable, "-m", "jiaokan", "build", "--corpus", str(CORPUS), "--out", str(out)],
                         cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = p.stderr.readline()
    assert first.startswith(b"ingest ["), first
    p.send_signal(signal.SIGINT)
    rest = p.stderr.read().decode()
    assert p.wait(timeout=120) == 130, rest
    # the one line says what is in the output folder, and what to do (a new user's trial: "interrupted" said neither)
    last = rest.splitlines()[-1]
    assert last.startswith("jiaokan: error: interrupted") and "Traceback" not in rest, rest
    assert (f"so far are whole, and {out / '.jiaokan-build.journal'} lists them; build again to finish" in last
            if (out / ".jiaokan-build.journal").is_file() else f"before anything was written into {out}" in last), last
    assert not [q for q in tmp_path.rglob("*.tmp")]


def test_an_interrupt_anywhere_in_a_command_is_130(monkeypatch, capsys, tmp_path):
    """Patched: the interrupt arrives while a file is being written; the launcher and cli agree on 130."""
    import jiaokan.io as jio
    from jiaokan.launch import main as launch

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(jio.os, "replace", interrupted)
    status = launch(["ingest", "-q", str(JS5), "-o", str(tmp_path)])
    assert status == 130 and capsys.readouterr().err == "jiaokan: error: interrupted\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("content,expect", [
    ('{"JS10.11.jing1.an1": {"kind": ["x"], "verdict": 3}}', "note JS10.11.jing1.an1: kind"),
    ('{"by_note": {"JS10.11.jing1.an1": {"kind": "comment", "summary": {"a": 1}}}}', "summary must be a string"),
    ("[1, 2]", "expected {note id"),
    ("{not json", "not JSON"),
])
def test_render_with_a_malformed_verdicts_file_is_one_line(tmp_path, content, expect):
    tei = tmp_path / "tei"
    assert jiaokan("ingest", str(JS10), "-o", str(tei), "-q").returncode == 0
    bad = tmp_path / "verdicts.json"
    bad.write_text(content, encoding="utf-8")
    r = jiaokan("render", str(tei / f"{JS10.stem}.xml"), "-o", str(tmp_path / "site"), "--verdicts", str(bad))
    err = r.stderr.decode()
    assert r.returncode == 2 and len(err.splitlines()) == 1 and str(bad) in err and expect in err, err


def test_ingest_many_files_one_bad_the_rest_still_written(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    out = tmp_path / "out"
    r = jiaokan("ingest", str(JS5), str(bad), str(tmp_path / "missing.txt"), str(ZS), "-o", str(out), "-q")
    err = r.stderr.decode().splitlines()
    assert r.returncode == 2 and len(err) == 2, err
    assert "bad.txt" in err[0] and "missing.txt" in err[1]
    assert sorted(p.name for p in out.iterdir()) == [f"{JS5.stem}.xml", f"{ZS.stem}.xml"]


def test_ingest_an_unexpected_failure_in_one_file_does_not_stop_the_others(tmp_path, monkeypatch, capsys):
    """A reader bug (here: patched in) costs that one file a one-line error, not the run."""
    import jiaokan.cli as cli

    real = cli.read_witness

    def flaky(path, *a, **k):
        if Path(path).name == JS5.name:
            raise ValueError("All strings must be XML compatible")
        return real(path, *a, **k)

    monkeypatch.setattr(cli, "read_witness", flaky)
    monkeypatch.delenv("JIAOKAN_TRACEBACK", raising=False)
    status = main(["ingest", "-q", str(JS5), str(ZS), "-o", str(tmp_path)])
    err = capsys.readouterr().err.splitlines()
    assert status == 2 and len(err) == 1 and JS5.name in err[0] and "internal error (ValueError" in err[0]
    assert [p.name for p in tmp_path.iterdir()] == [f"{ZS.stem}.xml"]


def _corpus(tmp_path: Path, files: dict[str, bytes | Path]) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    lines = []
    for name, data in files.items():
        if isinstance(data, Path):
            shutil.copy(data, corpus / name)
        else:
            (corpus / name).write_bytes(data)
        lines.append(f'[[witness]]\nfile = "{name}"\nsiglum = "{"ZS" if "zs" in name else "JS"}"\nchapter = "大射仪"\n')
    (corpus / "corpus.toml").write_text("".join(lines), encoding="utf-8")
    return corpus


def test_build_with_one_bad_witness_builds_the_rest_and_exits_2(tmp_path):
    corpus = _corpus(tmp_path, {"js.txt": JS10, "bad.txt": b"\x00\x01binary", "zs.txt": ZS})
    out = tmp_path / "b"
    r = jiaokan("build", "--corpus", str(corpus), "--out", str(out), "-q")
    err = r.stderr.decode().splitlines()
    assert r.returncode == 2 and len(err) == 1 and "bad.txt" in err[0], err
    assert sorted(p.name for p in (out / "tei").iterdir()) == ["js.xml", "zs.xml"]
    assert (out / "site" / "index.html").is_file() and any((out / "apparatus").iterdir())
    assert "2/3 witnesses" in r.stdout.decode()


def test_build_survives_an_unexpected_failure_in_one_witness(tmp_path, monkeypatch, capsys):
    import jiaokan.build as build

    corpus = _corpus(tmp_path, {"js.txt": JS10, "boom.txt": JS5, "zs.txt": ZS})
    real = build.read_witness

    def flaky(path, *a, **k):
        if Path(path).name == "boom.txt":
            raise ValueError("All strings must be XML compatible")
        return real(path, *a, **k)

    monkeypatch.setattr(build, "read_witness", flaky)
    monkeypatch.delenv("JIAOKAN_TRACEBACK", raising=False)
    status = build.run_build(corpus, tmp_path / "b", quiet=True)
    err = capsys.readouterr().err.splitlines()
    assert status == 2 and len(err) == 1 and "boom.txt: internal error (ValueError" in err[0], err
    assert sorted(p.name for p in (tmp_path / "b" / "tei").iterdir()) == ["js.xml", "zs.xml"]
    assert (tmp_path / "b" / "site" / "index.html").is_file()


def test_jiaokan_traceback_shows_the_bug_when_asked(tmp_path, monkeypatch):
    import jiaokan.cli as cli

    monkeypatch.setattr(cli, "read_witness", lambda *a, **k: (_ for _ in ()).throw(ValueError("boom")))
    monkeypatch.setenv("JIAOKAN_TRACEBACK", "1")
    with pytest.raises(ValueError, match="boom"):
        main(["ingest", "-q", str(JS5), "-o", str(tmp_path)])
    assert os.environ["JIAOKAN_TRACEBACK"] == "1"


def test_a_reader_of_the_report_that_goes_away_does_not_end_the_build(tmp_path):
    """``jiaokan build | head -1``: the tables are a report; the build still writes everything (it read the
    witnesses, then stopped at the first table with status 0 and nothing else written)."""
    out = tmp_path / "build"
    p = subprocess.Popen([sys.executable, "-m", "jiaokan", "build", "--corpus", str(CORPUS), "--out", str(out)],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()  # the reader goes away after one line
    err = p.stderr.read().decode()
    assert p.wait(timeout=300) == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert (out / "site" / "index.html").is_file() and list((out / "apparatus").glob("*.xml"))


def test_collate_to_standard_output_and_to_a_folder(tmp_path):
    """-o - and --json - are standard output (a file named "-" was written); a folder given as the file is one line
    naming it ("3: Is a directory" named a file descriptor); emend, which has no such output, says where its
    verdicts go."""
    zs = CORPUS / "zhushu-dasheyi-excerpt.txt"
    r = jiaokan("collate", str(JS10), str(zs), "-o", "-", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith(b"<?xml") and b"<app " in r.stdout
    r = jiaokan("collate", str(JS10), str(zs), "--json", "-", "-q", cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout)["variants"]
    r = jiaokan("collate", str(JS10), str(zs), "--json", "-", "-o", "-", cwd=tmp_path)
    assert r.returncode == 2 and b"standard output takes one of them" in r.stderr
    (tmp_path / "d").mkdir()
    for opt in ("-o", "--json"):
        r = jiaokan("collate", str(JS10), str(zs), opt, "d", "-q", cwd=tmp_path)
        assert r.returncode == 1 and r.stderr.decode().strip() == "jiaokan: error: d: is a directory (choose a file name)"
    r = jiaokan("emend", str(JS10), "--against", str(zs), "--json", "-", cwd=tmp_path)
    assert r.returncode == 2 and b"the per-note verdicts go to standard output" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d"]


def test_collating_two_pian_says_so():
    """ZS's 鄉射禮 beside JS's 燕禮 collated into 235 entries of additions and omissions, with exit 0 and no word (a
    user's trial): one line says the witnesses name different 篇; names in two scripts are one 篇."""
    zs5 = CORPUS / "zhushu-juan05-xiangsheli-KR1d0028_005.txt"
    js10 = CORPUS / "jishi-juan10-dasheyi-simplified.txt"
    r = jiaokan("collate", str(zs5), str(js10), "--layers", "jing")
    assert r.returncode == 0 and b"warning: the witnesses name different \xe7\xaf\x87" in r.stderr
    r = jiaokan("collate", str(CORPUS / "tushu-juan276-xiangsheli.txt"), str(JS5), "--layers", "jing")
    assert r.returncode == 0 and b"different" not in r.stderr  # 乡射礼 and 鄉射禮


def test_a_missing_manifest_named_by_its_path_is_named_once(tmp_path):
    missing = tmp_path / "nope" / "corpus.toml"
    r = jiaokan("build", "--corpus", str(missing), "--out", str(tmp_path / "out"))
    err = r.stderr.decode()
    assert r.returncode == 2 and len(err.splitlines()) == 1, err
    assert err.startswith(f"jiaokan: error: {missing}: no corpus manifest here"), err
    assert not (tmp_path / "out").exists()
