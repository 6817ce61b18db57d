"""How `jiaokan init` names the witness files in the manifest it writes: relative when they sit in the manifest's
folder or beside it, absolute otherwise, so a book folder moved (with its corpus, or alone) still builds."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from jiaokan.book.init import manifest_path, survey, write_manifest
from jiaokan.corpus import load_manifest

from .conftest import kanripo_file

#: the 集释's front matter (read as another format: the manifest names it again, under `overrides`) and 篇三
FILES = ("KR1d0030_000", "KR1d0030_003")


def _corpus(folder: Path) -> Path:
    folder.mkdir(parents=True)
    for stem in FILES:
        shutil.copy(kanripo_file(f"{stem}.txt"), folder / f"{stem}.txt")
    return folder


def _paths(manifest: Path) -> list[str]:
    """Every path the manifest names: its `files` and the keys of its `overrides`."""
    text = manifest.read_text(encoding="utf-8")
    files = [p for m in re.finditer(r"^files = \[(.*)\]$", text, re.M) for p in re.findall(r'"([^"]+)"', m.group(1))]
    return files + re.findall(r'^\[witness\.overrides\."([^"]+)"\]', text, re.M)


def _init(corpus: Path, manifest: Path) -> list[str]:
    write_manifest(survey([str(corpus)]), manifest)
    assert sorted(e.path.name for e in load_manifest(manifest.parent)) == [f"{s}.txt" for s in FILES]
    return _paths(manifest)


@pytest.mark.parametrize("where, expect", [
    ("book/kanripo", "kanripo/"),      # in the book's folder
    ("kanripo", "../kanripo/"),        # beside it
])
def test_a_corpus_in_or_beside_the_book_is_named_relative_and_moves_with_it(tmp_path, where, expect):
    corpus = _corpus(tmp_path / "a" / where)
    paths = _init(corpus, tmp_path / "a" / "book" / "corpus.toml")
    assert paths and all(p.startswith(expect) for p in paths), paths
    shutil.move(tmp_path / "a", tmp_path / "b")  # the book and its corpus, moved together
    assert len(load_manifest(tmp_path / "b" / "book")) == len(FILES)


def test_a_corpus_elsewhere_is_named_by_its_absolute_path_and_the_book_moves_alone(tmp_path):
    """`init ../shared/kanripo -o book/corpus.toml` wrote `../../..`-deep globs that broke when the book moved."""
    corpus = _corpus(tmp_path / "shared" / "kanripo")
    paths = _init(corpus, tmp_path / "work" / "main" / "book" / "corpus.toml")
    assert paths and all(p.startswith(corpus.resolve().as_posix() + "/") for p in paths), paths
    shutil.move(tmp_path / "work" / "main" / "book", tmp_path / "book")
    assert len(load_manifest(tmp_path / "book")) == len(FILES)


def test_a_path_keeps_the_users_spelling_through_a_symbolic_link(tmp_path):
    real = _corpus(tmp_path / "disk" / "kanripo")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "k").symlink_to(real)
    assert manifest_path(tmp_path / "book" / "k", tmp_path / "book") == "k"
    assert manifest_path(tmp_path / "book" / "k" / "..", tmp_path / "book") == "../disk"  # where k/.. really is
    assert manifest_path(tmp_path / "book", tmp_path / "book") == "."


def test_a_file_init_found_and_the_patterns_no_longer_find_is_warned_about_with_its_line(tmp_path, capsys):
    """A 卷 deleted or renamed after `init` dropped its 篇 from the build without a word when it was the last of its
    witness (a gap between 卷 was warned about; one at the end cannot be told from a witness that has no more).
    `init` lists every file it found above its witness: the build now names one the patterns no longer find."""
    corpus = tmp_path / "book" / "kanripo"
    corpus.mkdir(parents=True)
    for stem in ("KR1d0030_003", "KR1d0030_004"):  # 士相見禮, 鄉飲酒禮
        shutil.copy(kanripo_file(f"{stem}.txt"), corpus / f"{stem}.txt")
    manifest = tmp_path / "book" / "corpus.toml"
    write_manifest(survey([str(corpus)]), manifest)
    assert len(load_manifest(tmp_path / "book")) == 2
    assert "no longer among its files" not in capsys.readouterr().err
    (corpus / "KR1d0030_004.txt").unlink()
    entries = load_manifest(tmp_path / "book")
    assert [e.path.name for e in entries] == ["KR1d0030_003.txt"]
    line = next(n for n, s in enumerate(manifest.read_text(encoding="utf-8").splitlines(), 1)
                if s.startswith("#   KR1d0030_004.txt  卷 4: "))
    err = capsys.readouterr().err
    assert f"corpus.toml:{line}: warning: [[witness]] number 1 (JS): KR1d0030_004.txt (卷 4: 鄉飲酒禮" in err
    assert "is no longer among its files" in err
