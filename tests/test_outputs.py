"""Every output is whole and valid, or absent (issue 11, items 6 and 8).

One helper (:func:`jiaokan.io.atomic_write_bytes`) writes every file: a temporary file, its
check (TEI against the profile), then a rename.  A full disk, a failing check or Ctrl-C leaves
the target as it was, and the error names the target in one line.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
from lxml import etree

import jiaokan.io as jio
from jiaokan.cli import main
from jiaokan.io import InvalidOutput, atomic_write_bytes

from .conftest import CORPUS, ROOT, kanripo_file
from .test_cli import jiaokan


SRC = ROOT / "src" / "jiaokan"


def _leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


def _assert_whole(folder: Path) -> None:
    """Every file present is complete: XML parses, JSON loads, HTML ends its document."""
    for p in folder.rglob("*"):
        if p.suffix == ".xml":
            etree.parse(str(p), etree.XMLParser(huge_tree=True))
        elif p.suffix == ".json":
            json.loads(p.read_text(encoding="utf-8"))
        elif p.suffix == ".html":
            assert p.read_text(encoding="utf-8").rstrip().endswith("</html>"), p


def test_a_failing_check_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "x.xml"
    target.write_bytes(b"old")
    with pytest.raises(InvalidOutput) as e:
        atomic_write_bytes(target, b"new", check=lambda data: ["line 1: bad", "line 2: worse"])
    assert str(e.value).startswith(f"{target}: not written") and "line 1: bad" in str(e.value)
    assert "\n" not in str(e.value)
    assert target.read_bytes() == b"old" and not _leftovers(tmp_path)


def test_a_file_that_already_holds_the_bytes_is_not_replaced_but_touched(tmp_path):
    """A rebuild into the same folder does not replace what it would write again (the same file: a hard
    link to it still is), but gives it the time of modification of a new file; the check is still asked,
    and a different file, a shorter or longer one, or a symbolic link in the target's place are replaced."""
    target = tmp_path / "x.xml"
    atomic_write_bytes(target, b"same")
    twin = tmp_path / "twin.xml"
    os.link(target, twin)
    os.utime(target, ns=(1, 1))
    heard: list[tuple[Path, int]] = []
    was = jio.listen(lambda path, size: heard.append((path, size)))
    try:
        atomic_write_bytes(target, b"same")
    finally:
        jio.listen(was)
    assert os.path.samefile(target, twin) and target.stat().st_mtime_ns > 1 and heard == [(target, 4)]
    os.utime(target, ns=(1, 1))
    with pytest.raises(InvalidOutput):  # the same bytes, invalid: refused all the same, and left as it was
        atomic_write_bytes(target, b"same", check=lambda data: ["bad"])
    assert target.stat().st_mtime_ns == 1
    for data in (b"sama", b"sam", b"same!"):
        atomic_write_bytes(target, data)
        assert target.read_bytes() == data and not os.path.samefile(target, twin) and twin.read_bytes() == b"same"
    other = tmp_path / "other.xml"
    other.write_bytes(b"linked")
    link = tmp_path / "link.xml"
    link.symlink_to(other)
    atomic_write_bytes(link, b"linked")
    assert not link.is_symlink() and link.read_bytes() == b"linked" and not _leftovers(tmp_path)


_REAL_FDOPEN = os.fdopen


class _FullDisk:
    """Replaces ``os.fdopen`` in :mod:`jiaokan.io`: the ``n``-th file written gets half its bytes,
    then ENOSPC, as a real full disk does."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.count = 0
        self.failed: str | None = None

    def __call__(self, fd, mode="r", *a, **k):
        fh = _REAL_FDOPEN(fd, mode, *a, **k)
        self.count += 1
        if self.count != self.n:
            return fh
        outer = self
        real_write = fh.write

        class Half:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                fh.close()
                return False

            def write(self, data):
                real_write(data[: len(data) // 2])
                fh.flush()
                outer.failed = os.readlink(f"/proc/self/fd/{fh.fileno()}")
                raise OSError(errno.ENOSPC, "No space left on device")

            def __getattr__(self, name):
                return getattr(fh, name)

        return Half()


def _build_once(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tei")
    assert main(["ingest", "-q", str(CORPUS / "zhushu-dasheyi-excerpt.txt"),
                 str(CORPUS / "jishi-juan10-dasheyi-simplified.txt"), "-o", str(out)]) == 0
    assert main(["collate", str(out / "jishi-juan10-dasheyi-simplified.xml"),
                 str(out / "zhushu-dasheyi-excerpt.xml"), "-o", str(out / "app.xml")]) == 0
    return out


@pytest.fixture(scope="module")
def tei_dir(tmp_path_factory) -> Path:
    return _build_once(tmp_path_factory)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7])
def test_render_on_a_full_disk_leaves_no_partial_file(tmp_path, tei_dir, monkeypatch, capsys, n):
    """The site's pages, static files and TEI copies (once copied with shutil.copyfile) all fail whole."""
    fake = _FullDisk(n)
    monkeypatch.setattr(jio.os, "fdopen", fake)
    site = tmp_path / "site"
    status = main(["render", "-q", str(tei_dir / "app.xml"), "-o", str(site)])
    err = capsys.readouterr().err
    assert fake.failed, "the patched writer was not reached"
    assert status == 1 and len(err.splitlines()) == 1 and "No space left on device" in err, err
    named = err.removeprefix("jiaokan: error: ").split(": ")[0]
    assert named.startswith(str(site)) and not named.endswith(".tmp") and ".tmp" not in err
    assert not Path(named).exists() and Path(named).name in fake.failed  # the target, never the temporary
    assert not _leftovers(tmp_path)
    _assert_whole(site)


def _try_tmpfs(mnt: Path, size_kib: int) -> bool:
    """A real small file system, where the machine lets us mount one (root in CI; not everywhere)."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", f"jiaokan-test-{uuid.uuid4().hex[:8]}",
                        str(mnt)], capture_output=True)
    return r.returncode == 0


STAGES = ("tei", "apparatus", "emend", "site")  # the folders jiaokan build fills


def _kib(p: Path) -> int:
    return -(-p.stat().st_size // 4096) * 4  # tmpfs charges whole 4 KiB pages


@pytest.fixture(scope="module")
def write_order(tmp_path_factory) -> list[tuple[str, int]]:
    """(stage folder, KiB) of every file ``jiaokan build -j 1`` writes, in the order it writes them.

    Measured, not assumed: which folder fills first depends on how the build interleaves its
    stages (案 files are written beside each apparatus), so the test fills the disk at a
    point of this order.  ``-j 1`` makes the order the same on every machine, whatever its
    number of cores (the default ``--jobs``).
    """
    out = tmp_path_factory.mktemp("full") / "build"
    assert main(["build", "-q", "-j", "1", "--corpus", str(CORPUS), "--out", str(out)]) == 0
    files = sorted((p for p in out.rglob("*") if p.is_file()), key=lambda p: (p.stat().st_mtime_ns, str(p)))
    return [(p.relative_to(out).parts[0], _kib(p)) for p in files]


def _budget(order: list[tuple[str, int]], stage: str) -> int:
    """KiB of a file system that fills half way through a large file of ``stage``, in the middle of its writes."""
    mine = [i for i, (s, k) in enumerate(order) if s == stage]
    assert mine, f"the build wrote nothing under {stage}/"
    big = [i for i in mine[len(mine) // 2:] + mine[:len(mine) // 2] if order[i][1] >= 16]
    at = big[0] if big else mine[len(mine) // 2]
    return sum(k for _, k in order[:at]) + order[at][1] // 2


@pytest.mark.parametrize("stage", STAGES)
def test_build_on_a_full_tmpfs_leaves_no_partial_file(tmp_path, write_order, stage):
    """``jiaokan build -j 1`` onto a real file system that fills up half way through a file of one stage.
    Where mounting is not allowed the patched-writer tests above cover the same code."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if not _try_tmpfs(mnt, _budget(write_order, stage)):
        pytest.skip("cannot mount a tmpfs here; the patched-writer tests cover the same paths")
    try:
        r = jiaokan("build", "-j", "1", "--corpus", str(CORPUS), "--out", str(mnt / "build"), "-q")
        err = r.stderr.decode()
        assert r.returncode == 1 and len(err.splitlines()) == 1, err
        assert "No space left on device" in err and str(mnt / "build" / stage) in err and ".tmp" not in err, err
        assert not _leftovers(mnt)
        _assert_whole(mnt)
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


@pytest.mark.parametrize("stage", STAGES)
def test_a_parallel_build_on_a_full_tmpfs_leaves_no_partial_file(tmp_path, write_order, stage):
    """The same with two workers: where the disk fills depends on which worker writes first,
    so only what must hold whatever the order is checked (one line naming a file of the
    build, nothing partial left)."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if not _try_tmpfs(mnt, _budget(write_order, stage)):
        pytest.skip("cannot mount a tmpfs here; the patched-writer tests cover the same paths")
    try:
        r = jiaokan("build", "-j", "2", "--corpus", str(CORPUS), "--out", str(mnt / "build"), "-q")
        err = r.stderr.decode()
        assert r.returncode == 1 and len(err.splitlines()) == 1, err
        assert "No space left on device" in err and str(mnt / "build") in err and ".tmp" not in err, err
        assert not _leftovers(mnt)
        _assert_whole(mnt)
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


def test_ingest_disk_error_names_the_target(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(jio.os, "fdopen", _FullDisk(1))
    out = tmp_path / "out"
    status = main(["ingest", "-q", str(CORPUS / "zhushu-dasheyi-excerpt.txt"), "-o", str(out)])
    err = capsys.readouterr().err
    assert status == 1 and err == f"jiaokan: error: {out / 'zhushu-dasheyi-excerpt.xml'}: cannot write: " \
                                  "No space left on device\n"
    assert list(out.iterdir()) == []


def test_invalid_tei_is_never_written(tmp_path, capsys, monkeypatch):
    """A writer bug that would produce invalid TEI: the file is not written and the command fails."""
    from jiaokan.tei import writer

    real = writer.witness_to_tei

    def broken(w):
        tree = real(w)
        tree.getroot().find(".//{http://www.tei-c.org/ns/1.0}ab").set("type", "nonsense")
        return tree

    monkeypatch.setattr(writer, "witness_to_tei", broken)
    out = tmp_path / "out"
    status = main(["ingest", "-q", str(CORPUS / "zhushu-dasheyi-excerpt.txt"), "-o", str(out)])
    err = capsys.readouterr().err
    assert status == 1 and len(err.splitlines()) == 1
    assert f"{out / 'zhushu-dasheyi-excerpt.xml'}: not written: the output would be invalid" in err
    assert not out.exists() or list(out.iterdir()) == []
    status = main(["ingest", "-q", str(CORPUS / "zhushu-dasheyi-excerpt.txt"), "-o", "-"])
    cap = capsys.readouterr()
    assert status == 1 and cap.out == "" and cap.err.startswith("jiaokan: error: <stdout>: not written")


def test_emend_zhushu_juan4_against_jishi_juan4_is_valid(tmp_path):
    """Item 8: two 下同 occurrences at the same offset of two pieces once got one id."""
    zs, js = kanripo_file("KR1d0028_004.txt"), kanripo_file("KR1d0030_004.txt")
    tei = tmp_path / "tei"
    r = jiaokan("ingest", str(zs), str(js), "-o", str(tei), "-q")
    assert r.returncode == 0, r.stderr
    outs = [tmp_path / n for n in ("js-em.xml", "zs-em.xml", "em-app.xml")]
    r = jiaokan("emend", str(tei / "KR1d0030_004.xml"), "--against", str(tei / "KR1d0028_004.xml"),
                "-o", str(outs[0]), "--against-output", str(outs[1]), "--tei", str(outs[2]), "-q")
    assert r.returncode == 0, r.stderr
    for p in outs:
        ids = etree.parse(str(p)).getroot().xpath("//@xml:id")
        assert len(ids) == len(set(ids)), p
    zs_em = etree.parse(str(outs[1])).getroot()
    assert zs_em.xpath("count(//t:app[@type='emendation'])", namespaces={"t": "http://www.tei-c.org/ns/1.0"}) > 1
    r = jiaokan("validate", *map(str, outs))
    assert r.returncode == 0, r.stdout


def test_emendation_ids_are_unique_by_construction():
    """Across every 集释 卷 with its 注疏 卷 in ../shared/kanripo: no id twice, in either witness."""
    from jiaokan.emend.apply import emend
    from jiaokan.readers import read_witness

    pairs = [("KR1d0030_004.txt", "KR1d0028_004.txt"), ("KR1d0030_005.txt", "KR1d0028_005.txt")]
    for js_name, zs_name in pairs:
        js, zs = read_witness(kanripo_file(js_name)), read_witness(kanripo_file(zs_name))
        res = emend(js, zs)
        ids = [e.id for e in res.emendations]
        assert len(ids) == len(set(ids)), js_name
        assert any(".b" in i for i in ids)  # the 下同 occurrences are there, each with an id of its own


def test_no_module_writes_files_around_the_one_helper():
    """Every file goes through jiaokan.io (a cheap guard: render/site.py once used shutil.copyfile)."""
    writes = re.compile(r"shutil\.copy|\.write_bytes\(|\.write_text\(|os\.replace\(|(?<![\w.])open\([^)]*[\"'][wax]")
    offenders = [f"{p.relative_to(SRC)}: {m.group(0)}" for p in SRC.rglob("*.py") if p.name != "io.py"
                 for m in writes.finditer(p.read_text(encoding="utf-8"))]
    assert offenders == []
