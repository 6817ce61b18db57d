"""A build removes what an earlier build wrote into its folder and it no longer writes, and nothing else
(:mod:`jiaokan.outputs`); its summary follows the pipeline."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from jiaokan.io import atomic_write_bytes
from jiaokan.outputs import JOURNAL, RECORD, recording
from jiaokan.parallel import fork_map

from .conftest import kanripo_file
from .test_cli import jiaokan

#: 篇三 士相見禮 in the 集释, the 注疏 and the 四部丛刊: a book of one 篇 that builds in a second or two
PIAN03 = ("KR1d0030_003", "KR1d0028_003", "KR1d0026_003")


def _book(tmp_path: Path) -> Path:
    k = tmp_path / "kanripo"
    k.mkdir()
    for stem in PIAN03:
        shutil.copy(kanripo_file(f"{stem}.txt"), k / f"{stem}.txt")
    book = tmp_path / "book"
    book.mkdir()
    (book / "corpus.toml").write_text(
        '[corpus]\nbase = "JS"\n'
        '[[witness]]\nsiglum = "JS"\nrole = "jishi"\nfiles = ["../kanripo/KR1d0030_*.txt"]\n'
        '[[witness]]\nsiglum = "ZS"\nrole = "zhushu"\nfiles = ["../kanripo/KR1d0028_*.txt"]\n'
        '[[witness]]\nsiglum = "SB"\nrole = "songben"\nfiles = ["../kanripo/KR1d0026_*.txt"]\n', encoding="utf-8")
    return book


def _files(out: Path) -> set[str]:
    return {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}


def _record(out: Path) -> dict[str, int]:
    return json.loads((out / RECORD).read_text(encoding="utf-8"))["files"]


def test_a_build_removes_what_the_build_before_wrote_and_it_no_longer_writes(tmp_path):
    """The 注疏's file no longer reads: its TEI and pages of the build before go, the user's own files stay."""
    book = _book(tmp_path)
    out = book / "build"
    r = jiaokan("build", "--corpus", str(book), "--out", str(out), "-q", "-j", "2")
    assert r.returncode == 0, r.stderr.decode()
    assert "removed" not in r.stdout.decode() and "may be an older build's" not in r.stdout.decode()
    first = _files(out)
    assert {"tei/pian03-ZS.xml", "apparatus/pian03.xml", "site/index.html"} <= first
    assert set(_record(out)) == first - {RECORD}  # every file, those the -j 2 workers wrote too
    assert all(_record(out)[f] == (out / f).stat().st_size for f in _record(out))
    zs_pages = {f for f in first if f.startswith("site/") and "ZS" in f}
    assert zs_pages  # the 注疏's own pages (base-ZS …)

    mine = {"tei/pian03-XX.xml": b"<mine/>", "site/notes.txt": b"my notes", "todo.txt": b"mine"}
    for rel, data in mine.items():
        (out / rel).write_bytes(data)
    with open(tmp_path / "kanripo" / "KR1d0028_003.txt", "ab") as fh:
        fh.write(b"\xff\xfe")  # no longer UTF-8: the 注疏 is not read
    r = jiaokan("build", "--corpus", str(book), "--out", str(out), "-v", "-j", "2")
    assert r.returncode == 2
    said = r.stdout.decode().splitlines()
    now = _files(out)
    gone = first - now
    assert "tei/pian03-ZS.xml" in gone and zs_pages <= gone
    assert gone and gone.isdisjoint(_record(out)) and set(_record(out)) == now - {RECORD} - set(mine)
    assert all((out / rel).read_bytes() == data for rel, data in mine.items())  # the user's, whatever their names
    line = next(i for i, s in enumerate(said) if s.startswith(f"removed {len(gone)} files that an earlier build"))
    assert sorted(s.strip() for s in said[line + 1:line + 1 + len(gone)]) == sorted(gone)  # -v: each of them
    assert not (out / JOURNAL).exists()


def test_a_recorded_file_changed_since_is_kept(tmp_path):
    out = tmp_path / "build"
    with recording(out) as rec:
        for name in ("tei/a.xml", "tei/b.xml", "site/c.html"):
            atomic_write_bytes(out / name, b"built")
        rec.finish()
    (out / "tei" / "b.xml").write_bytes(b"the scholar's own corrections")
    os.utime(out / "site" / "c.html", ns=(2**62, 2**62))  # the same size, written after the record
    with recording(out) as rec:
        atomic_write_bytes(out / "tei" / "a.xml", b"built")
        done = rec.finish()
    assert done.removed == [] and done.changed == ["site/c.html", "tei/b.xml"]
    assert _files(out) == {RECORD, "tei/a.xml", "tei/b.xml", "site/c.html"}
    assert _record(out) == {"tei/a.xml": 5}  # no longer the build's: not removed by a later one either
    assert "kept 2 files" in done.lines()[0] and done.lines(verbose=True)[1:] == ["  site/c.html", "  tei/b.xml"]


def test_a_file_rewritten_under_a_record_the_same_as_the_last_is_still_the_builds(tmp_path):
    """A build whose files have the sizes of the last one's writes the same record (:func:`jiaokan.io.atomic_write_bytes`
    does not replace a file that holds the bytes already): a file it changed is newer than the last record, and
    must not look changed by hand to the build after it, which no longer writes it."""
    out = tmp_path / "build"
    for data in (b"built", b"BUILT"):  # the same size: the same record
        with recording(out) as rec:
            atomic_write_bytes(out / "tei" / "a.xml", data)
            atomic_write_bytes(out / "tei" / "b.xml", b"b")
            rec.finish()
        if data == b"built":  # the first build long ago (the clock's tick is coarser than two builds here)
            for rel in (RECORD, "tei/a.xml", "tei/b.xml"):
                os.utime(out / rel, ns=(10**18, 10**18))
    with recording(out) as rec:
        atomic_write_bytes(out / "tei" / "b.xml", b"b")
        done = rec.finish()
    assert done.removed == ["tei/a.xml"] and done.changed == [] and _files(out) == {RECORD, "tei/b.xml"}


def test_a_folder_with_no_record_has_nothing_removed_and_its_look_alikes_listed(tmp_path):
    """A build before builds kept a record: its files may be stale, but nothing says they are the build's."""
    out = tmp_path / "build"
    for rel in ("tei/old.xml", "site/old.html", "notes/mine.txt", "mine.txt"):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(b"old")
    with recording(out) as rec:
        atomic_write_bytes(out / "tei" / "new.xml", b"new")
        done = rec.finish()
    assert done.removed == [] and done.unrecorded == ["site/old.html", "tei/old.xml"]  # in the build's folders
    assert "none removed" in done.lines()[0]
    assert _files(out) == {RECORD, "tei/new.xml", "tei/old.xml", "site/old.html", "notes/mine.txt", "mine.txt"}


def test_a_build_that_stops_short_removes_nothing_and_the_next_counts_its_files(tmp_path):
    out = tmp_path / "build"
    with recording(out) as rec:
        atomic_write_bytes(out / "tei" / "a.xml", b"a")
        rec.finish()
    with pytest.raises(KeyboardInterrupt):
        with recording(out) as rec:
            atomic_write_bytes(out / "tei" / "b.xml", b"b")
            raise KeyboardInterrupt  # Ctrl-C (or kill -9): no finish()
    assert _record(out) == {"tei/a.xml": 1} and (out / JOURNAL).is_file() and (out / "tei" / "a.xml").is_file()
    with recording(out) as rec:
        atomic_write_bytes(out / "tei" / "c.xml", b"c")
        done = rec.finish()
    assert done.removed == ["tei/a.xml", "tei/b.xml"] and _files(out) == {RECORD, "tei/c.xml"}
    assert not (out / JOURNAL).exists()


def _write(out: Path, name: str) -> str:
    atomic_write_bytes(out / "site" / name, name.encode())
    return name


def test_files_written_by_forked_workers_are_recorded(tmp_path):
    out = tmp_path / "build"
    names = [f"p{i}.html" for i in range(40)]
    with recording(out) as rec:
        assert fork_map(_write, out, names, 3) == names
        assert set(rec.written()) == {f"site/{n}" for n in names}
        rec.finish()
    assert _record(out) == {f"site/{n}": len(n) for n in names}


def test_a_record_that_names_a_file_outside_the_folder_removes_nothing_there(tmp_path):
    out = tmp_path / "build"
    out.mkdir()
    (tmp_path / "precious.txt").write_bytes(b"x")
    (out / RECORD).write_text(json.dumps({"files": {"../precious.txt": 1, "/etc/hostname": 1}}), encoding="utf-8")
    with recording(out) as rec:
        done = rec.finish()
    assert done.removed == [] and (tmp_path / "precious.txt").is_file()


def test_the_summary_follows_the_pipeline(tmp_path):
    """The relayer's lines come after the ingest table and before the collations, not after the HTML edition."""
    book = _book(tmp_path)
    r = jiaokan("build", "--corpus", str(book), "--out", str(book / "build"), "-q", "-j", "1")
    assert r.returncode == 0, r.stderr.decode()
    lines = r.stdout.decode().splitlines()

    def at(start: str) -> int:
        return next(i for i, s in enumerate(lines) if s.startswith(start))

    relayer = at("ZS: ")
    assert "inferred boundaries" in lines[relayer]
    assert at("siglum") < relayer < at("collation ") < at("案 notes of") < at("HTML edition")


def test_a_journal_line_the_recorder_did_not_write_is_skipped_not_raised():
    """A journal is read back after a build that stopped short; a line that is JSON but not a (path, size)
    pair (a number, an object, a triple: a journal edited or overwritten) is skipped like a torn one, where
    unpacking it raised a TypeError out of the next build."""
    from jiaokan.outputs import _parse_journal

    assert _parse_journal(b'["tei/a.xml", 3]\n5\n{"a": 1}\n[1, 2, 3]\n["x"') == {"tei/a.xml": 3}
