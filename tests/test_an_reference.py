"""jiaokan.measure.an_reference (scripts/an_reference.py): the arithmetic on a tiny synthetic reference, and the
fixture's own shape (not the figures, which move as the emend stage improves)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from jiaokan.errors import InputError
from jiaokan.measure.an_reference import COLUMNS, Judged, load_reference, report, score

FIXTURE = Path(__file__).parent / "fixtures" / "an_reference.tsv"


def j(claim: str, verdict: str, kind: str = "omission", lemma: str = "也", reading: str = "", juan: str = "K1") -> Judged:
    return Judged(claim, juan, kind, lemma, reading, verdict)


def test_precision_recall_and_agreement():
    ref = [j("a", "confirmed"), j("b", "confirmed"), j("c", "contradicted"), j("d", "not checkable", kind="lacuna"),
           j("e", "confirmed")]
    got = [
        j("a", "confirmed"),                              # right
        j("b", "contradicted"),                           # a false contradiction
        j("c", "contradicted", lemma="矣"),               # right verdict, wrong lemma
        j("d", "not checkable", kind="comment"),          # right verdict, wrong kind
        # e: not produced at all
        j("f", "not covered"),                            # a claim the reference does not have
        j("g", "confirmed", juan="K2"),                   # another 卷: ignored
    ]
    s = score(ref, got)
    assert s.total == 5
    assert s.verdicts["confirmed"] == (1, 1, 3)           # precision 1/1, recall 1/3
    assert s.verdicts["contradicted"] == (1, 2, 1)        # precision 1/2, recall 1/1
    assert s.verdicts["not covered"] == (0, 1, 0)
    assert s.verdicts["not checkable"] == (1, 1, 1)
    assert s.agree["verdict"] == 3 and s.agree["kind"] == 3 and s.agree["lemma"] == 3 and s.agree["reading"] == 4
    assert s.missing == ["e"] and s.extra == ["f"]
    assert ("b", "verdict", "confirmed", "contradicted") in s.diffs
    assert ("c", "lemma", "也", "矣") in s.diffs
    assert ("e", "claim", "confirmed", "missing") in s.diffs

    out = io.StringIO()
    report(s, out)
    text = out.getvalue()
    assert "confirmed" in text and "100.0%" in text and "33.3%" in text and "50.0%" in text
    assert "verdict agrees on 3 of 5 (60.0%)" in text


def test_no_claims_gives_dashes_not_a_division_by_zero():
    s = score([], [])
    out = io.StringIO()
    report(s, out)
    assert "—" in out.getvalue()


def _write(tmp_path: Path, rows: list[list[str]]) -> Path:
    p = tmp_path / "ref.tsv"
    p.write_text("\n".join("\t".join(r) for r in [list(COLUMNS), *rows]) + "\n", encoding="utf-8")
    return p


def _row(**kw: str) -> list[str]:
    base = dict.fromkeys(COLUMNS, "")
    base.update(juan="K1", claim="a", kind="omission", target="今注疏本", lemma="也", verdict="confirmed")
    base.update(kw)
    return [base[c] for c in COLUMNS]


@pytest.mark.parametrize("kw, says", [
    ({"kind": "transposition"}, "kind"),
    ({"verdict": "right"}, "verdict"),
])
def test_bad_reference_row_names_file_and_line(tmp_path, kw, says):
    p = _write(tmp_path, [_row(), _row(claim="b", **kw)])
    with pytest.raises(InputError, match=rf"ref\.tsv:3: {says}"):
        load_reference(p)


def test_duplicate_claim_is_refused(tmp_path):
    with pytest.raises(InputError, match=r"ref\.tsv:3: claim a given twice"):
        load_reference(_write(tmp_path, [_row(), _row()]))


def test_the_fixture_loads_and_covers_at_least_four_juan():
    ref = load_reference(FIXTURE)
    assert len(ref) >= 100
    assert len({r.juan for r in ref}) >= 4
    assert not {r.juan for r in ref} & {"KR1d0030_005", "KR1d0030_010"}  # 卷五 and 卷十 are the seeds
