"""The cache of compiled note-grammar patterns (jiaokan.emend.pattern_cache): a copy, never a source of truth."""

from __future__ import annotations

import importlib
import os
import pickle

import pytest
import regex

from jiaokan.emend import pattern_cache
from jiaokan.emend.pattern_cache import compile_patterns

notes = importlib.import_module("jiaokan.emend.notes")

#: regex.compile itself (a test below forbids it to the cache)
_COMPILE = regex.compile

PATTERNS = {"lemma": r"(?P<l>\p{Han}{1,3}?)今注疏本(?:讹作|作)(?P<r>\p{Han}+)", "term": r"据|依|从(?=宋本)"}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("JIAOKAN_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _same(got: dict, text: str = "比今注疏本讹作北据宋本改正") -> None:
    assert list(got) == list(PATTERNS)
    for name, p in got.items():
        fresh = _COMPILE(PATTERNS[name], regex.V1)
        assert (p.pattern, p.flags) == (fresh.pattern, fresh.flags)
        assert [m.span() for m in p.finditer(text)] == [m.span() for m in fresh.finditer(text)]
        assert [m.groupdict() for m in p.finditer(text)] == [m.groupdict() for m in fresh.finditer(text)]


def test_second_process_loads_what_the_first_compiled(cache, monkeypatch):
    first = compile_patterns(PATTERNS, regex.V1, "t")
    _same(first)
    (path,) = cache.glob("t-*.pickle")

    def no_compile(*a, **k):
        raise AssertionError("compiled although the cache holds the patterns")

    monkeypatch.setattr(pattern_cache.regex, "compile", no_compile)
    _same(compile_patterns(PATTERNS, regex.V1, "t"))
    assert list(cache.glob("t-*.pickle")) == [path]


def test_an_edited_pattern_is_compiled_anew_and_the_newest_versions_are_kept(cache, monkeypatch):
    compile_patterns(PATTERNS, regex.V1, "t")
    (old,) = cache.glob("t-*.pickle")
    edited = {**PATTERNS, "term": r"据|依"}
    got = compile_patterns(edited, regex.V1, "t")
    assert got["term"].pattern == r"据|依"
    assert len(list(cache.glob("t-*.pickle"))) == 2  # (two checkouts used in turn: each keeps its own)
    # other flags: another file too (the flags are part of what is cached)
    assert compile_patterns(edited, regex.V0, "t")["term"].flags & regex.V0
    os.utime(old, (1, 1))  # the oldest (whatever the file system's clock resolution)
    monkeypatch.setattr(pattern_cache, "KEEP", 2)
    compile_patterns({**PATTERNS, "term": r"依"}, regex.V1, "t")
    kept = list(cache.glob("t-*.pickle"))
    assert len(kept) == 2 and old not in kept


@pytest.mark.parametrize("content", [b"", b"not a pickle", pickle.dumps({"lemma": "a string"}),
                                     pickle.dumps({"other": regex.compile("x")})])
def test_a_bad_file_is_ignored_and_rewritten(cache, content):
    compile_patterns(PATTERNS, regex.V1, "t")
    (path,) = cache.glob("t-*.pickle")
    path.write_bytes(content)
    _same(compile_patterns(PATTERNS, regex.V1, "t"))
    _same(pattern_cache._load(path, PATTERNS, regex.V1) or {})


class _Evil:
    def __reduce__(self):
        return (print, ("ran code from the cache",))


def test_a_file_naming_any_other_callable_runs_nothing(cache, capsys):
    compile_patterns(PATTERNS, regex.V1, "t")
    (path,) = cache.glob("t-*.pickle")
    path.write_bytes(pickle.dumps({"lemma": _Evil(), "term": _Evil()}))
    _same(compile_patterns(PATTERNS, regex.V1, "t"))
    assert "ran code" not in capsys.readouterr().out


def test_no_cache_and_an_unwritable_cache_still_compile(tmp_path, monkeypatch):
    monkeypatch.setenv("JIAOKAN_CACHE", "")
    assert pattern_cache.cache_dir() is None
    _same(compile_patterns(PATTERNS, regex.V1, "t"))
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("JIAOKAN_CACHE", str(blocked / "cache"))
    _same(compile_patterns(PATTERNS, regex.V1, "t"))


def test_default_folder_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.delenv("JIAOKAN_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert pattern_cache.cache_dir() == tmp_path / "jiaokan"


def test_the_grammar_is_its_sources_compiled():
    """Whether loaded or compiled at import, every rule is exactly its expanded source (regex.V1)."""
    assert notes.GRAMMAR.keys() == notes._GRAMMAR_SOURCES.keys()
    for name, p in notes.GRAMMAR.items():
        assert p.pattern == notes._GRAMMAR_SOURCES[name]
        assert p.flags & regex.V1
