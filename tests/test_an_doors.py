"""One pipeline, three doors: ``jiaokan emend``, ``jiaokan.emend()`` and ``jiaokan build`` give the same verdicts.

Why a test: the three used to be given different inputs (only the build passed the 注疏's
front matter, where it gives the 鄭目録 of every 篇), so the CLI and the API said "not
covered" where the build said "confirmed".  Now each finds the front matter the same way
(:func:`jiaokan.emend.inputs.front_matter_beside`) and calls the same stage functions.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import jiaokan
from jiaokan.cli import main as cli_main
from tests.conftest import ROOT, kanripo_file


def _verdicts_of_json(path: Path) -> dict[str, str | None]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {it["id"]: (it["check"] or {}).get("verdict") for it in data["items"]}


def _three_doors(tmp_path: Path, corpus: Path, jishi: Path, zhushu: Path, stem: str):
    api = {cid: ch.verdict for cid, ch in jiaokan.emend(jishi, zhushu).checks.items()}
    out = tmp_path / "cli.json"
    assert cli_main(["emend", str(jishi), "--against", str(zhushu), "--json", str(out), "-q"]) == 0
    cli = _verdicts_of_json(out)
    build = tmp_path / "build"
    assert cli_main(["build", "--corpus", str(corpus), "--out", str(build), "-q", "--jobs", "1"]) == 0
    built = _verdicts_of_json(build / "emend" / f"{stem}.json")
    return api, cli, built


def test_three_doors_agree_on_a_kanripo_pian(tmp_path, capsys):
    """覲禮 (集释 卷十六 / 注疏 卷十): its 目録 claim is checked in the 注疏's front matter by every door."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    files = [kanripo_file(n) for n in ("KR1d0030_016.txt", "KR1d0028_010.txt", "KR1d0028_000.txt")]
    for f in files:
        shutil.copy(f, corpus / f.name)
    (corpus / "corpus.toml").write_text(
        '[[witness]]\nfile = "KR1d0030_016.txt"\nsiglum = "JS"\n\n[[witness]]\nfile = "KR1d0028_010.txt"\n'
        'siglum = "ZS"\n\n[[witness]]\nfile = "KR1d0028_000.txt"\nsiglum = "ZS"\n', encoding="utf-8")
    api, cli, built = _three_doors(tmp_path, corpus, corpus / "KR1d0030_016.txt", corpus / "KR1d0028_010.txt",
                                   "KR1d0030_016")
    assert api == cli == built
    assert api["JS16.4.zhu1.an1"] == "confirmed"  # the 目録 passage, found in the front matter


@pytest.mark.skipif(not (ROOT / "corpus" / "corpus.toml").is_file(), reason="no shipped corpus")
def test_three_doors_agree_on_the_shipped_corpus(tmp_path, capsys):
    corpus = ROOT / "corpus"
    api, cli, built = _three_doors(tmp_path, corpus, corpus / "jishi-juan10-dasheyi-simplified.txt",
                                   corpus / "zhushu-dasheyi-excerpt.txt", "jishi-juan10-dasheyi-simplified")
    assert api == cli == built and api
