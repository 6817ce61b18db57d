"""The lost-page reference and its scoring (jiaokan.measure.lost_pages) on a 篇 of the real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from jiaokan.collate.engine import collate
from jiaokan.measure.lost_pages import read_reference, score, table
from jiaokan.model import WitnessMeta
from jiaokan.readers import read_witness

from .conftest import KANRIPO

REFERENCE = Path(__file__).parent / "fixtures" / "sbck_lost_pages.tsv"


def test_the_reference_has_every_lost_page_of_the_sbck_once():
    losses = read_reference(REFERENCE)
    assert len(losses) == 18 and len({(x.file, x.line) for x in losses}) == 18
    assert all(x.before_text and x.before_passage for x in losses)
    if (KANRIPO / "KR1d0026_001.txt").exists():
        for x in losses:
            lines = (KANRIPO / f"{x.file}.txt").read_text(encoding="utf-8").splitlines()
            assert lines[x.line - 1].strip() == "# page missing", (x.file, x.line)


def test_shixiangjianli_s_lost_page_scores_right_and_a_misplaced_resumption_does_not():
    """士相見禮 (one 卷 in all three): the 四部丛刊 resumes mid-注 after its lost page; the build's rows score right.
    Put back where it used to ride (the next passage's row), the same tail scores wrong: an addition beside the loss."""
    paths = [KANRIPO / f"{n}.txt" for n in ("KR1d0030_003", "KR1d0028_003", "KR1d0026_003")]
    if not all(p.exists() for p in paths):
        pytest.skip("Kanripo files absent")
    ws = [read_witness(p, WitnessMeta(siglum=s, file=p.name, format="")) for s, p in zip(("JS", "ZS", "SB"), paths)]
    (loss,) = [x for x in read_reference(REFERENCE) if x.pian == 3]
    col = collate(ws, base="JS")
    good = score(loss, ws[0], ws[2], col)
    assert good.right and good.found and good.before and good.after and good.between == good.between_lacuna == 1
    from jiaokan.collate.rows import body_units

    no_jing = {u.id for u in body_units(ws[2]) if u.pieces and all(p.layer == "zhu" for p in u.pieces)}
    k = next(i for i, r in enumerate(col.rows) if no_jing.intersection(r.units["SB"]))
    moved = [dict(r.units) for r in col.rows]
    tail = [u for u in moved[k]["SB"] if u in no_jing]
    moved[k]["SB"] = [u for u in moved[k]["SB"] if u not in tail]
    moved[k + 1]["SB"] = tail + moved[k + 1]["SB"]
    from jiaokan.collate.model import Row

    rows = [Row(id=r.id, units=m, base_passage=r.base_passage) for r, m in zip(col.rows, moved)]
    bad = score(loss, ws[0], ws[2], collate(ws, base="JS", rows=rows))
    assert not bad.right and bad.after is False and bad.border_variants
    assert "right: 0/1 losses" in table([bad])
