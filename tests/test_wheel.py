"""An installed wheel builds the edition (issue 11, item 7).

``pip install .`` (not ``-e``) used to install a jiaokan that could not find its TEI profile.
This builds a wheel from the sources, installs it into a fresh virtual environment outside the
checkout (dependencies from the package index pip is configured with), copies the corpus
elsewhere again and runs ``jiaokan build`` and ``validate`` from a third folder.  About 15-30 s;
deselect with ``-m "not wheel"``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CORPUS, ROOT

pytestmark = pytest.mark.wheel

#: What a source distribution carries (MANIFEST.in): the wheel is built from a copy of only these,
#: so a file the build needs but the sdist would lack fails here, and the checkout stays clean.
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "schemas", "src")


def run(*cmd: str | Path, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, timeout=600)
    assert r.returncode == 0, (cmd, r.stdout.decode()[-2000:], r.stderr.decode()[-2000:])
    return r


def test_a_wheel_in_a_fresh_venv_builds_a_copied_corpus_from_anywhere(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(
            ROOT / name, src / name, **({"ignore": shutil.ignore_patterns("__pycache__", "*.egg-info")}
                                       if (ROOT / name).is_dir() else {}))
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path / "wheels", src, cwd=tmp_path)
    wheel = next((tmp_path / "wheels").glob("jiaokan-*.whl"))

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel, cwd=tmp_path)

    corpus = tmp_path / "elsewhere" / "corpus"
    shutil.copytree(CORPUS, corpus)
    work = tmp_path / "somewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("JIAOKAN_SCHEMAS", "PYTHONPATH", "VIRTUAL_ENV")}
    where = run(venv / "bin" / "python", "-c", "import jiaokan, jiaokan.tei.validate as v; "
                "print(jiaokan.__file__); print(v.find_schema_dir())", cwd=work, env=env).stdout.decode()
    assert str(ROOT) not in where and str(venv) in where  # the installed package, its own profile

    r = run(venv / "bin" / "jiaokan", "build", "--corpus", corpus / "corpus.toml", "--out", "out", "-q",
            cwd=work, env=env)
    assert b"8/8 witnesses" in r.stdout  # corpus/ ships the Kanripo 注疏 卷五 and the 四部丛刊 卷五, 卷七 too
    out = work / "out"
    assert (out / "site" / "index.html").is_file() and (out / "site" / "static" / "edition.css").is_file()
    r = run(venv / "bin" / "jiaokan", "validate", *sorted((out / "tei").glob("*.xml")), cwd=work, env=env)
    assert r.stdout.decode().count(": valid") == 8  # one TEI file per witness


def test_a_wheel_is_built_from_a_clean_tree(tmp_path):
    """`python -m build`, twice in one tree with a module deleted in between: the second wheel lacks it.

    setuptools reuses ``build/lib`` (which is also jiaokan's default output folder), so without
    setup.py's clean step a deleted module was still shipped.
    """
    import zipfile

    pytest.importorskip("build", reason="the 'build' package is not installed (pip install -e '.[test]')")
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(
            ROOT / name, src / name, **({"ignore": shutil.ignore_patterns("__pycache__", "*.egg-info")}
                                       if (ROOT / name).is_dir() else {}))

    def wheel_names(out: Path) -> set[str]:
        # isolated, as CI and a packager build: the backend pyproject.toml asks for, from the package index
        run(sys.executable, "-m", "build", "--wheel", "--outdir", out, src, cwd=tmp_path)
        with zipfile.ZipFile(next(out.glob("jiaokan-*.whl"))) as z:
            return set(z.namelist())

    first = wheel_names(tmp_path / "w1")
    assert "jiaokan/collate/viewers.py" in first and "jiaokan/schemas/jiaokan.rng" in first
    assert (src / "build" / "lib" / "jiaokan" / "collate" / "viewers.py").is_file()  # setuptools' folder, reused
    (src / "src" / "jiaokan" / "collate" / "viewers.py").unlink()
    second = wheel_names(tmp_path / "w2")
    assert "jiaokan/collate/viewers.py" not in second
    assert first - second == {"jiaokan/collate/viewers.py"}
