"""Every pointer of a build resolves, across files, from where the file is.

A TEI pointer (``@corresp``, ``@target``, ``@wit``, ``@resp``, ``@ana``, ``@ref``, ``@source``,
``@facs``) is a URI reference: ``file.xml#id`` is relative to the file that holds it (or to
its ``xml:base``), ``#id`` is in the same file.  Another project follows them to the letter,
so this test does too: each one must name a file of the build and an ``xml:id`` in it.
Checked on the shipped corpus and on a whole-book build of ``../shared/kanripo``.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from urllib.parse import unquote, urljoin

import pytest
from lxml import etree

from .conftest import CORPUS, KANRIPO

POINTER_ATTRS = ("corresp", "target", "wit", "resp", "ana", "ref", "source", "facs")
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"


def _ids(path: Path, cache: dict[Path, set[str]]) -> set[str]:
    if path not in cache:
        root = etree.parse(str(path)).getroot()
        cache[path] = {e.get(XML_ID) for e in root.iter() if isinstance(e.tag, str) and e.get(XML_ID)}
    return cache[path]


def dangling_pointers(files: list[Path]) -> tuple[int, list[str]]:
    """(pointers checked, the ones that do not resolve as ``file: attribute=value``)."""
    cache: dict[Path, set[str]] = {}
    checked, bad = 0, []
    for f in files:
        tree = etree.parse(str(f))
        for el in tree.getroot().iter():
            if not isinstance(el.tag, str):
                continue
            for attr in POINTER_ATTRS:
                value = el.get(attr)
                if not value:
                    continue
                base = f.resolve().as_uri()  # the file itself, then every xml:base from the root down
                for anc in reversed(list(el.iterancestors())):
                    base = urljoin(base, anc.get(XML_BASE) or "")
                base = urljoin(base, el.get(XML_BASE) or "")
                for ptr in value.split():
                    if "://" in ptr and not ptr.startswith("file:"):
                        continue  # a web address (a page image): not this test's to fetch
                    checked += 1
                    uri, _, frag = urljoin(base, ptr).partition("#")
                    target = Path(unquote(uri.removeprefix("file://")))
                    if not target.is_file():
                        bad.append(f"{f.name}: {attr}={ptr!r}: no file {posixpath.relpath(target.as_posix(), f.parent.as_posix())}")
                    elif frag and frag not in _ids(target, cache):  # no fragment: the whole document
                        bad.append(f"{f.name}: {attr}={ptr!r}: no xml:id {frag!r} in {target.name}")
    return checked, bad


def _outputs(build: Path) -> list[Path]:
    return sorted(p for sub in ("tei", "apparatus", "emend") for p in (build / sub).glob("*.xml"))


def test_every_pointer_of_the_shipped_corpus_build_resolves(tmp_path):
    from jiaokan.build import run_build

    assert run_build(CORPUS, tmp_path, quiet=True) == 0
    files = _outputs(tmp_path)
    assert any(p.parent.name == "apparatus" for p in files) and any(p.parent.name == "emend" for p in files)
    checked, bad = dangling_pointers(files)
    assert checked > 1000
    assert bad == [], f"{len(bad)} of {checked} pointers dangle: {bad[:10]}"


def test_every_pointer_of_a_whole_book_build_resolves(tmp_path):
    """`jiaokan init ../shared/kanripo` + `build`: apparatus → ../tei/, emend → ../tei/, every passage number too."""
    if not sorted(KANRIPO.glob("KR1d00*.txt")):
        pytest.skip("../shared/kanripo not available")
    from jiaokan.book.init import survey, write_manifest
    from jiaokan.build import run_build

    manifest = tmp_path / "corpus.toml"
    write_manifest(survey([str(KANRIPO)]), manifest)
    # 2: a file of another text in the folder that no 篇 heading places (said in one line); the rest is built
    assert run_build(tmp_path, tmp_path / "build", quiet=True, jobs=1) in (0, 2)
    files = _outputs(tmp_path / "build")
    assert len([p for p in files if p.parent.name == "apparatus"]) >= 8
    checked, bad = dangling_pointers(files)
    assert checked > 10000
    assert bad == [], f"{len(bad)} of {checked} pointers dangle: {bad[:10]}"


def test_the_checker_finds_a_dangling_pointer(tmp_path):
    """The resolver itself can fail: a pointer to a missing id and one to a missing file."""
    (tmp_path / "tei").mkdir()
    (tmp_path / "tei" / "w.xml").write_text('<TEI xmlns="http://www.tei-c.org/ns/1.0"><ab xml:id="a1"/></TEI>')
    app = tmp_path / "app.xml"
    app.write_text('<TEI xmlns="http://www.tei-c.org/ns/1.0"><ab corresp="tei/w.xml#a1 tei/w.xml#a2"/>'
                   '<ab xml:base="tei/" corresp="w.xml#a1 x.xml#a1"/><rdg wit="#W"/></TEI>')
    checked, bad = dangling_pointers([app])
    assert checked == 5
    assert [b.split(": ", 2)[2] for b in bad] == ["no xml:id 'a2' in w.xml", "no file tei/x.xml", "no xml:id 'W' in app.xml"]
