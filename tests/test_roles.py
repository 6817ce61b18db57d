"""What a witness *is* (its role) is a property of the witness, never read off its format's name."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from jiaokan.errors import InputError
from jiaokan.corpus import load_manifest
from jiaokan.model import ROLES
from jiaokan.readers import READERS, read_witness
from jiaokan.tei.reader import witness_from_tei
from jiaokan.tei.writer import witness_to_tei

from .conftest import CORPUS, KANRIPO


def test_every_reader_says_what_its_files_are() -> None:
    assert all(r.role in ROLES for r in READERS.values())


@pytest.mark.parametrize("stem, role", [("KR1d0030_005", "jishi"), ("KR1d0028_005", "zhushu"), ("KR1d0026_005", "songben")])
def test_kanripo_roles_come_from_the_reader(stem: str, role: str) -> None:
    path = KANRIPO / f"{stem}.txt"
    if not path.is_file():
        pytest.skip("../shared/kanripo not available")
    w = read_witness(path)
    assert w.meta.role == role
    if role == "jishi":
        assert w.meta.author == "李如圭"


def test_role_round_trips_through_tei_only_when_it_is_not_the_default() -> None:
    w = read_witness(CORPUS / "zhushu-dasheyi-excerpt.txt")
    assert w.meta.role == "zhushu"
    tree = witness_to_tei(w)
    assert not tree.getroot().xpath("//*[local-name()='idno'][@type='role']")
    assert witness_from_tei(tree.getroot()).meta.role == "zhushu"
    w.meta.role = "reference"  # a manifest said so
    tree = witness_to_tei(w)
    assert tree.getroot().xpath("string(//*[local-name()='idno'][@type='role'])") == "reference"
    assert witness_from_tei(tree.getroot()).meta.role == "reference"


def _copy_corpus(tmp_path: Path, edit) -> Path:
    d = tmp_path / "corpus"
    shutil.copytree(CORPUS, d)
    m = d / "corpus.toml"
    m.write_text(edit(m.read_text(encoding="utf-8")), encoding="utf-8")
    return d


def test_manifest_role_is_checked(tmp_path: Path) -> None:
    d = _copy_corpus(tmp_path, lambda s: s.replace('format = "zhushu-ctext"', 'format = "zhushu-ctext"\nrole = "zhushuu"'))
    with pytest.raises(InputError, match="unknown role 'zhushuu'.*known roles: jishi"):
        load_manifest(d)


@pytest.mark.parametrize("role, against", [("reference", None), ("zhushu", "ZS")])
def test_the_emend_partner_is_found_by_role_not_by_format_name(tmp_path: Path, capsys, role: str, against) -> None:
    """A 注疏 whose manifest calls it a mere reference is not what the 案 notes are checked against."""
    import json

    from jiaokan.build import run_build

    d = _copy_corpus(tmp_path, lambda s: s.replace('format = "zhushu-ctext"', f'format = "zhushu-ctext"\nrole = "{role}"'))
    assert run_build(d, tmp_path / "out", quiet=True) == 0
    report = json.loads((tmp_path / "out" / "emend" / "jishi-juan10-dasheyi-simplified.json").read_text(encoding="utf-8"))
    assert (report["against"] or {}).get("siglum") == against
