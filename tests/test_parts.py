"""A long view of a 篇 cut into parts (render/parts.py): the cut itself, and a build whose views are cut (the
shipped corpus with the limits lowered): every part is written, linked, lighter than the limit, and every id of
the view is in exactly one part, which the view's map names."""

from __future__ import annotations

import json
import re

import pytest

from jiaokan.render import parts
from jiaokan.render.parts import cut, part_page

from .conftest import CORPUS


def test_cut_keeps_every_part_under_both_limits_and_about_equal():
    w = [(1000 + (i * 7919) % 9000, 10 + (i * 31) % 90) for i in range(300)]
    ranges = cut(w, 100_000, 1_000)
    assert ranges[0][0] == 0 and ranges[-1][1] == len(w)
    assert all(a < b for a, b in ranges) and all(x[1] == y[0] for x, y in zip(ranges, ranges[1:]))
    sizes = [sum(b for b, _ in w[a:b]) for a, b in ranges]
    tags = [sum(t for _, t in w[a:b]) for a, b in ranges]
    assert max(sizes) <= 100_000 and max(tags) <= 1_000
    assert min(sizes) > 0.6 * max(sizes)  # no half-empty last part


def test_a_light_view_is_one_part_and_a_giant_row_stands_alone():
    assert cut([(100, 1)] * 5, 1000, 100) == [(0, 5)]
    assert cut([(5000, 1), (100, 1), (100, 1)], 1000, 100) == [(0, 1), (1, 3)]
    assert part_page("pian08.html", 1) == "pian08.html" and part_page("pian08-shu.html", 3) == "pian08-shu-p3.html"


@pytest.fixture(scope="module")
def cut_site(tmp_path_factory):
    from jiaokan.build import run_build

    mp = pytest.MonkeyPatch()
    mp.setattr(parts, "PART_BYTES", 60_000)
    mp.setattr(parts, "PART_TAGS", 600)
    try:
        out = tmp_path_factory.mktemp("parts-build")
        assert run_build(CORPUS, out, quiet=True) in (0, 2)
    finally:
        mp.undo()
    return out / "site"


def test_every_view_is_cut_linked_and_its_ids_found_in_one_part(cut_site):
    seen_cut = 0
    for m in sorted((cut_site / "parts").glob("*.js")):
        text = m.read_text(encoding="utf-8")
        key, data = re.match(r'\(window\.jiaokanParts = window\.jiaokanParts \|\| \{\}\)\[("[^"]+")\] = (.*);\s*$', text, re.S).groups()
        assert json.loads(key) == f"parts/{m.name}"
        data = json.loads(data)
        pages, ids = data["pages"], data["ids"]
        assert len(pages) == len(ids) > 1
        seen_cut += 1
        all_ids = [i for x in ids for i in x.split()]
        assert len(all_ids) == len(set(all_ids))  # an id is in one part only
        for k, page in enumerate(pages):
            html = (cut_site / page).read_text(encoding="utf-8")
            assert f'<meta name="jiaokan-parts" content="parts/{m.name}">' in html
            main = html[html.index("<main"):html.index("</main>")]
            n_rows = len(re.findall(r'<section class="b?row[^"]*" id="r\d+"', main))
            # the part's rows (the bar and the dialogs are every part's); a row heavier than a part stands alone
            assert n_rows == 1 or len(main.encode()) < 60_000 * 1.1, (page, n_rows)
            for i in ids[k].split():
                assert f'id="{i}"' in html or f'"{i}":' in html, (page, i)  # an element, or an apparatus entry
            nav = re.search(r'<nav class="parts".*?</nav>', html, re.S).group(0)
            assert nav.count("<a ") + nav.count("<b ") >= len(pages)
            if k + 1 < len(pages):
                assert f'class="part-next" href="{pages[k + 1]}"' in nav
            if k:
                assert f'class="part-prev" href="{pages[k - 1]}"' in nav
                assert 'id="front"' not in html
        # the rows of the view, in order, each in one part
        rows = [r for p in pages for r in re.findall(r'<section class="b?row[^"]*" id="(r\d+)"', (cut_site / p).read_text(encoding="utf-8"))]
        assert rows == sorted(set(rows), key=lambda r: int(r[1:]))
    assert seen_cut >= 2


def test_the_truth_check_passes_on_a_cut_site(cut_site):
    from jiaokan.render.truth import check_site

    assert check_site(cut_site) == []
