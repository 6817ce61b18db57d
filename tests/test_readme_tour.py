"""The README's "A short tour" runs top to bottom, as a newcomer would type it, and prints what it shows.

Each command of the ```sh block runs in a fresh folder holding ``corpus/`` (the tour's paths are
relative to a checkout), with this environment's ``jiaokan`` first on PATH; the lines shown after
a command as ``#   …`` must appear in its output (whitespace-normalized).  The one command that
needs the network (``curl`` of tei_all.rng) is replaced by a copy of ``../shared/schemas/tei_all.rng``;
without that file the tour is run without ``--tei-all`` and says so.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from .conftest import ROOT, TEI_ALL


def tour_steps() -> list[tuple[str, list[str]]]:
    """(command, the output lines the README shows for it) for every command of the tour's ```sh block."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## A short tour\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "the tour should be one ```sh block"
    steps: list[tuple[str, list[str]]] = []
    pending = ""
    for line in blocks[0].splitlines():
        if line.startswith("#   "):  # output the README shows for the command before
            assert steps, f"output shown before any command: {line!r}"
            steps[-1][1].append(line[4:])
        elif not line.strip() or line.startswith("#"):
            continue  # a blank line or a comment in prose
        elif line.endswith("\\"):
            pending += line[:-1] + " "
        else:
            steps.append((pending + line, []))
            pending = ""
    return steps


def _norm(s: str) -> str:
    return " ".join(s.split())


def test_the_tour_is_parsed_into_its_commands():
    cmds = [c for c, _ in tour_steps()]
    assert cmds[0].startswith("jiaokan formats") and cmds[-1].startswith("jiaokan build")
    assert any("zhushu-dasheyi-excerpt.txt" in c and c.startswith("jiaokan ingest") for c in cmds)  # it is ingested
    assert sum(len(out) for _, out in tour_steps()) >= 8


def test_the_readme_tour_runs_top_to_bottom(tmp_path):
    (tmp_path / "corpus").symlink_to(ROOT / "corpus")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "NO_COLOR": "1"}
    env.pop("JIAOKAN_SCHEMAS", None)
    have_tei_all = TEI_ALL.is_file()
    for cmd, shown in tour_steps():
        if cmd.startswith("curl "):
            assert "tei_all.rng" in cmd
            if have_tei_all:
                shutil.copy(TEI_ALL, tmp_path / "tei_all.rng")  # what the curl fetches; the tests run offline
            continue
        if not have_tei_all and "--tei-all" in cmd:
            cmd = cmd.replace("--tei-all tei_all.rng", "")
            shown = [s.replace("(jiaokan profile + tei_all)", "(jiaokan profile)") for s in shown]
        r = subprocess.run(["bash", "-c", cmd], cwd=tmp_path, env=env, capture_output=True, timeout=600)
        out = r.stdout.decode() + r.stderr.decode()
        allowed = (0, 1) if cmd.startswith("jiaokan diff") else (0,)  # diff exits 1 when the witnesses differ
        assert r.returncode in allowed, f"{cmd}\n{out[-2000:]}"
        assert "Traceback" not in out, cmd
        got = {_norm(x) for x in out.splitlines()}
        for line in shown:
            assert _norm(line) in got, f"{cmd}: the README shows {line!r}; the output was\n{out[-3000:]}"
    # what the tour made: the apparatus where render looks for it, the site, the build
    assert (tmp_path / "build" / "apparatus" / "dasheyi.xml").is_file()
    assert (tmp_path / "build" / "tour-site" / "index.html").is_file() and (tmp_path / "build" / "emended.xml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build", "corpus", "tei_all.rng"][:3 if have_tei_all else 2]
    assert (tmp_path / "build" / "site" / "index.html").is_file()
