"""The 篇 apparatus never points to a 疏 collation that this build did not write (collate/elsewhere.py, build.py).

Since the 篇 apparatus gives the 注疏's 疏 as a pointer into ``NAME-shu.xml`` / ``NAME-shu.json`` rather than a
copy, a 篇 whose 疏 collation fails while its own succeeds must keep its copy: otherwise the pointer names a file
that is not there (or one an earlier build left, which the stale-file sweep then removes).  On the real 士相見禮 of
../shared/kanripo (ZS, SB, DS), built once whole and then again into the same folder with the 疏 collation
failing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree

from .test_shulink import FILES, _build


def _failing_shu(*args, **kwargs):
    from jiaokan.errors import CollationError

    raise CollationError("the 疏 made to fail by the test")


@pytest.fixture(scope="module", params=[(1, "collate_shu"), (2, "collate_shu"), (1, "resolve")],
                ids=["j1", "j2", "resolve"])
def rebuilt(request, tmp_path_factory) -> tuple[Path, Path]:
    """(the folder of a first, whole build; the same folder rebuilt with the 疏 collation failing), with one job
    and with two (the 篇 and its 疏 then collated in different processes, the 篇's result back from a worker);
    and with the 標起止's resolution failing, which the 篇's own step asks too (:func:`jiaokan.collate.shu.shu_elsewhere`):
    it took the 篇's apparatus down with the 疏's."""
    from jiaokan.collate import shu

    root = tmp_path_factory.mktemp("shuptr")
    _build(root, list(FILES), apparatus_json=True)  # both forms of the apparatus checked
    app = root / "build" / "apparatus"
    first = {p.name: p.read_bytes() for p in app.iterdir()}
    kept = root / "first"
    kept.mkdir()
    for name, data in first.items():
        (kept / name).write_bytes(data)
    with pytest.MonkeyPatch.context() as mp:
        jobs, failing = request.param
        mp.setattr(shu, failing, _failing_shu)
        from jiaokan.build import run_build

        assert run_build(root, root / "build", quiet=True, jobs=jobs, apparatus_json=True) != 0
    return kept, app


def test_the_whole_build_points_to_the_shu_collation(rebuilt):
    kept, _ = rebuilt
    assert (kept / "pian03-shu.xml").is_file()
    assert b"pian03-shu.xml#" in (kept / "pian03.xml").read_bytes()  # (else the rest of this file tests nothing)
    assert json.loads((kept / "pian03.json").read_bytes()).get("elsewhere")


def test_with_the_shu_collation_failed_the_pian_keeps_its_copy(rebuilt):
    from jiaokan.collate.apparatus_reader import rebuild_from_json, rebuild_from_tei

    kept, app = rebuilt
    assert not (app / "pian03-shu.xml").exists() and not (app / "pian03-shu.json").exists()  # swept: not this build's
    xml, data = (app / "pian03.xml").read_bytes(), json.loads((app / "pian03.json").read_bytes())
    assert b"<ptr" not in xml and b"pian03-shu" not in xml and "elsewhere" not in data
    # read back without the 疏 file, each witness's 疏 is what the whole build's pair of files gave
    whole = rebuild_from_tei(etree.parse(str(kept / "pian03.xml")).getroot(), kept / "pian03.xml")
    alone = rebuild_from_tei(etree.fromstring(xml), app / "pian03.xml")
    assert alone["ZS"]["shu"] and alone["ZS"]["shu"] == whole["ZS"]["shu"]
    assert alone == whole
    assert rebuild_from_json(data, app / "pian03.json") == rebuild_from_json(
        json.loads((kept / "pian03.json").read_bytes()), kept / "pian03.json")
