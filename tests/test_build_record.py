"""The summary of a build follows the pipeline."""

from __future__ import annotations

import shutil
from pathlib import Path

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
