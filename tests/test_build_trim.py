"""What a build drops of a collation once its 篇 is done with it (:func:`jiaokan.build._trim`): the alignments,
except where the 案 stage asks them again, for a witness whose 案 notes are checked after the collations (a
witness of two collations).  Its verdicts are those it has when it is in one collation, at one job or two."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jiaokan.build import run_build

from .conftest import CORPUS

#: the 集释's 乡射礼 (25 案 notes), in the shipped corpus's collation ``xiangsheli`` (base JS)
NOTED = "jishi-juan05-xiangsheli-traditional"


def _verdicts(out: Path) -> dict:
    return json.loads((out / "emend" / f"{NOTED}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def in_one(tmp_path_factory) -> dict:
    """The 案 results of the 集释's 乡射礼 built as shipped: one collation of its 篇."""
    out = tmp_path_factory.mktemp("one")
    assert run_build(CORPUS, out, quiet=True, jobs=1) == 0
    return _verdicts(out)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_noted_witness_of_two_collations_is_checked_against_the_alignments_it_had(tmp_path, in_one, jobs):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    with (corpus / "corpus.toml").open("a", encoding="utf-8") as f:  # the same 篇 again, on the 注疏
        f.write('\n[[collation]]\nname = "xiangsheli-zs"\nchapter = "乡射礼"\nbase = "ZS"\n')
    out = tmp_path / "build"
    assert run_build(corpus, out, quiet=True, jobs=jobs) == 0
    assert (out / "apparatus" / "xiangsheli-zs.xml").is_file()
    got = _verdicts(out)
    assert got == in_one
    # and they say something: the 注疏 was read at the notes' places (none left "not covered" for want of it)
    assert got["verdicts"]["confirmed"] > 0
