"""The reader registry: formats register themselves, names are unique, plugins come in by entry point."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from jiaokan.readers import READERS, read_witness, registry
from jiaokan.readers.registry import DuplicateReaderError, load_plugin, register


@pytest.fixture
def clean_registry():
    before = dict(READERS)
    errors = list(registry.PLUGIN_ERRORS)
    yield
    READERS.clear()
    READERS.update(before)
    registry.PLUGIN_ERRORS[:] = errors


def _ep(value: str, name: str = "x") -> EntryPoint:
    return EntryPoint(name=name, value=value, group=registry.ENTRY_POINT_GROUP)


def test_every_builtin_format_registered_itself() -> None:
    assert {"jishi-flat", "jishi-pages", "mandoku-jishi", "mandoku-sbck", "mandoku-zhushu", "tushu-blocks",
            "tushu-wikisource", "zhushu-ctext"} <= set(READERS)


def test_a_taken_name_is_an_error(clean_registry) -> None:
    from .plugin_reader import TushuBlocksImpostor

    with pytest.raises(DuplicateReaderError, match="'tushu-blocks'.*already taken by jiaokan.readers"):
        register(TushuBlocksImpostor)


def test_a_plugin_reader_reads_files(clean_registry, tmp_path: Path) -> None:
    load_plugin(_ep("tests.plugin_reader:LinesReader", "x-lines"))
    assert "x-lines" in READERS
    f = tmp_path / "a.txt"
    f.write_text("x-lines\n大射之儀\n君有命戒射\n", encoding="utf-8")
    w = read_witness(f)  # sniffed: no built-in reader claims it
    assert w.meta.format == "x-lines"
    assert [u.layer_text("jing") for u in w.units()] == ["大射之儀", "君有命戒射"]


@pytest.mark.parametrize("value, why", [
    ("tests.plugin_reader:TushuBlocksImpostor", "already taken"),
    ("tests.plugin_reader:NOT_A_READER", "not a jiaokan.readers.Reader subclass"),
    ("tests.no_such_module:Reader", "No module named"),
])
def test_a_broken_plugin_is_reported_and_skipped(clean_registry, capsys, value: str, why: str) -> None:
    before = dict(READERS)
    load_plugin(_ep(value, "bad"))
    assert READERS == before
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("jiaokan: warning: reader plugin 'bad'") and why in err[0]
