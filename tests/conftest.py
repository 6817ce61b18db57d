"""Shared fixtures: paths to the corpus and ../shared, the compiled schemas, parsed corpus witnesses."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
SHARED = ROOT.parent / "shared"
KANRIPO = SHARED / "kanripo"
TEI_ALL = SHARED / "schemas" / "tei_all.rng"


def corpus_file(stem: str) -> Path:
    return CORPUS / f"{stem}.txt"


@pytest.fixture(scope="session")
def tei_all():
    """tei_all.rng compiled once per test run (about 15 s)."""
    if not TEI_ALL.is_file():
        pytest.skip("../shared/schemas/tei_all.rng not available")
    from jiaokan.tei.validate import load_rng

    return load_rng(str(TEI_ALL))


@pytest.fixture(scope="session")
def profile():
    from jiaokan.tei.validate import profile_schema

    return profile_schema()


@pytest.fixture(scope="session")
def corpus_entries():
    from jiaokan.corpus import load_manifest

    return {e.stem: e for e in load_manifest(CORPUS)}


@pytest.fixture(scope="session")
def read_corpus(corpus_entries):
    """Read a corpus witness by file stem, with its manifest metadata (cached)."""
    from jiaokan.readers import read_witness

    cache: dict = {}

    def _read(stem: str):
        if stem not in cache:
            e = corpus_entries[stem]
            cache[stem] = read_witness(e.path, e.meta, e.meta.format)
        return cache[stem]

    return _read


def kanripo_file(name: str) -> Path:
    p = KANRIPO / name
    if not p.is_file():
        pytest.skip(f"{p} not available")
    return p


@pytest.fixture(scope="session")
def read_kanripo():
    """Read a file of ../shared/kanripo by stem (``KR1d0028_002``) with its sniffed reader (cached)."""
    from jiaokan.readers import read_witness

    cache: dict = {}

    def _read(stem: str):
        if stem not in cache:
            cache[stem] = read_witness(kanripo_file(f"{stem}.txt"))
        return cache[stem]

    return _read
