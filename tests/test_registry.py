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


def test_a_plugin_declared_by_an_installed_distribution_is_loaded(clean_registry, tmp_path: Path, monkeypatch) -> None:
    """Through the look at sys.path that spares a build importlib.metadata when no distribution declares a
    reader (registry._may_declare): a distribution's folder that does is seen, and its reader registered."""
    info = tmp_path / "x_lines_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: x-lines-plugin\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        f"[{registry.ENTRY_POINT_GROUP}]\nx-lines = tests.plugin_reader:LinesReader\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    READERS.pop("x-lines", None)
    assert registry._may_declare(registry.ENTRY_POINT_GROUP)
    registry.load_plugins()
    assert "x-lines" in READERS


def test_no_distribution_declaring_readers_is_seen_as_none(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "other-1.0.dist-info").mkdir()
    (tmp_path / "other-1.0.dist-info" / "entry_points.txt").write_text("[console_scripts]\nx = y:z\n", encoding="utf-8")
    monkeypatch.setattr("sys.path", [str(tmp_path), str(tmp_path / "missing")])
    assert not registry._may_declare(registry.ENTRY_POINT_GROUP)
    zipped = tmp_path / "lib.zip"  # a zip on the path: not looked into here, so importlib.metadata is asked
    zipped.write_bytes(b"PK\x05\x06" + b"\0" * 18)
    monkeypatch.setattr("sys.path", [str(zipped)])
    assert registry._may_declare(registry.ENTRY_POINT_GROUP)
