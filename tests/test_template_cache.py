"""The compiled templates kept on disk (render/templatecache.py): the same pages, and never worse than no cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import Environment, FileSystemLoader, select_autoescape

from jiaokan.render.templatecache import template_cache

PAGE = "{% for x in xs %}\n<li>{{ x }}</li>\n{% endfor %}"


def _env(folder: Path, trim: bool = True, cache: bool = True) -> Environment:
    """An environment as the site's (render/site.py ``environment``) over the templates in ``folder``."""
    env = Environment(loader=FileSystemLoader(str(folder)), autoescape=select_autoescape(["html"]),
                      trim_blocks=trim, lstrip_blocks=True, auto_reload=False)
    if cache:
        env.bytecode_cache = template_cache(env)
    return env


def _no_compile(env: Environment) -> None:
    def refuse(*a: object, **k: object) -> None:
        raise AssertionError("compiled, not loaded from the cache")
    env.compile = refuse  # type: ignore[method-assign, assignment]


@pytest.fixture
def tpl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("JIAOKAN_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "page.html").write_text(PAGE, encoding="utf-8")
    return folder


def _files(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache").glob("templates-*/*.cache"))


def test_a_second_process_loads_what_the_first_compiled(tpl: Path, tmp_path: Path) -> None:
    want = _env(tpl, cache=False).get_template("page.html").render(xs=["<a>", "b"])
    assert _env(tpl).get_template("page.html").render(xs=["<a>", "b"]) == want
    assert len(_files(tmp_path)) == 1
    env = _env(tpl)
    _no_compile(env)
    assert env.get_template("page.html").render(xs=["<a>", "b"]) == want == "<li>&lt;a&gt;</li>\n<li>b</li>\n"


def test_an_edited_template_is_compiled_again(tpl: Path) -> None:
    _env(tpl).get_template("page.html").render(xs=[1])
    (tpl / "page.html").write_text("<p>{{ xs|length }}</p>", encoding="utf-8")
    assert _env(tpl).get_template("page.html").render(xs=[1, 2]) == "<p>2</p>"


def test_other_settings_use_another_folder(tpl: Path, tmp_path: Path) -> None:
    """trim_blocks changes the code Jinja writes, not the source it checks: the cache of one must not serve the other."""
    a = _env(tpl, trim=True).get_template("page.html").render(xs=[1])
    b = _env(tpl, trim=False).get_template("page.html").render(xs=[1])
    assert a != b
    assert len({f.parent for f in _files(tmp_path)}) == 2
    assert _env(tpl, trim=False).get_template("page.html").render(xs=[1]) == b


def test_a_truncated_file_is_compiled_instead(tpl: Path, tmp_path: Path) -> None:
    want = _env(tpl).get_template("page.html").render(xs=[1])
    (f,) = _files(tmp_path)
    data = f.read_bytes()
    f.write_bytes(data[: len(data) // 2])
    assert _env(tpl).get_template("page.html").render(xs=[1]) == want
    assert f.read_bytes() == data  # written whole again


def test_a_cache_that_cannot_be_made_or_written_costs_only_the_compile(tpl: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    want = _env(tpl, cache=False).get_template("page.html").render(xs=[1])
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("JIAOKAN_CACHE", str(blocker / "cache"))  # under a file: no folder can be made
    env = _env(tpl)
    assert env.bytecode_cache is None
    assert env.get_template("page.html").render(xs=[1]) == want
    monkeypatch.setenv("JIAOKAN_CACHE", str(tmp_path / "gone"))
    env = _env(tpl)
    assert env.bytecode_cache is not None
    for d in (tmp_path / "gone").glob("templates-*"):  # the folder removed once made: nothing can be written
        d.rmdir()
    assert env.get_template("page.html").render(xs=[1]) == want


def test_no_cache_when_asked_for_none(tpl: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JIAOKAN_CACHE", "")
    assert _env(tpl).bytecode_cache is None
