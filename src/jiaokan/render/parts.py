"""A long view of a 篇 cut into pages of bounded size, at row boundaries.

Why: a browser styles, lays out and shapes the text of the whole page before it is usable, and that cost grows
with the page (聘禮's parallel page, 1.9 MB and 18,500 elements, took 3 s to be ready on a quiet machine; the
trace: layout and text shaping 60%, style 20%, parsing 10%).  Deferring that work (``content-visibility``) made
the scrollbar lie, so the page itself is made smaller: every view of a 篇 (parallel, 疏, 校勘記, a witness as the
reading text, 校定本) whose rows weigh more than :data:`PART_BYTES` (or :data:`PART_TAGS` elements) is written as
parts of about equal weight.

* Part 1 keeps the view's name (``pian08.html``), so the table of contents, the 篇 before and after, citations and
  old links are unchanged; part *k* is ``pian08-p{k}.html``.
* Every part lists all parts (§ ranges) with previous and next; the front matter opens part 1, the back matter
  ends the last.
* An id of the 篇 that is in another part (``#r400``, ``#JS10.72``, ``#app812``, a leaf ``#ZS-p13a``) is found
  in ``parts/VIEW.js``, which lists the ids of every part; the page loads it only when an id is missing
  (``edition.js``'s ``goto``), so a permalink or search result into any part lands there.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

#: What one part's rows may weigh: HTML bytes and elements (tags).  Measured on the whole book: a page of this
#: size is ready in about half a second on a quiet machine, whatever its 篇.
PART_BYTES = 200_000
PART_TAGS = 2_000
#: What a row costs beyond its text (its head, its columns' boxes).
ROW_BYTES = 400
ROW_TAGS = 8

#: an ``id`` attribute; :func:`ids_of` keeps those after a white space (``\sid="…"``)
_ID = re.compile(r'id="([^"]+)"')


@dataclass(frozen=True)
class Part:
    """One page of a view: rows ``start`` up to ``end`` (exclusive) of the view's rows; ``k`` counts from 1."""

    k: int
    start: int
    end: int
    page: str


def part_page(page: str, k: int) -> str:
    """``pian08.html`` for part 1, ``pian08-p3.html`` for part 3."""
    return page if k == 1 else f"{page[:-5]}-p{k}.html"


def map_file(page: str) -> str:
    """Where the view's id → part map is written (relative to the site)."""
    return f"parts/{page[:-5]}.js"


def weigh(html: str) -> tuple[int, int]:
    """(bytes, elements) of a piece of HTML."""
    return len(html.encode("utf-8")), html.count("<") - html.count("</")


def cut(weights: list[tuple[int, int]], max_bytes: int | None = None, max_tags: int | None = None) -> list[tuple[int, int]]:
    """Cut rows of the given weights into ``[start, end)`` ranges of about equal weight, none heavier than the
    limits unless one row alone is: the fewest parts that keep every part under both limits, the cut before the
    row that crosses each share's boundary (a long 篇's parts differ by a row, not by a half-empty last page)."""
    max_bytes = max_bytes or PART_BYTES  # read at the call: a test may lower them
    max_tags = max_tags or PART_TAGS
    n_rows = len(weights)
    # a row heavier than a part stands alone whatever its weight: it counts as one full part
    even = [(min(b, max_bytes), min(t, max_tags)) for b, t in weights]
    n = max(1, math.ceil(sum(b for b, _ in even) / max_bytes), math.ceil(sum(t for _, t in even) / max_tags))
    while True:
        ranges = _even(even, n)
        if all(_fits(weights[a:b], max_bytes, max_tags) or b - a == 1 for a, b in ranges) or n >= n_rows:
            return ranges
        n += 1


def _fits(ws: list[tuple[int, int]], max_bytes: int, max_tags: int) -> bool:
    return sum(b for b, _ in ws) <= max_bytes and sum(t for _, t in ws) <= max_tags


def _even(weights: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """``n`` ranges, cut where the running share (the larger of bytes and elements) passes k/n."""
    if n <= 1 or len(weights) <= 1:
        return [(0, len(weights))]
    tb = sum(b for b, _ in weights) or 1
    tt = sum(t for _, t in weights) or 1
    out: list[tuple[int, int]] = []
    start, run_b, run_t = 0, 0, 0
    for i, (b, t) in enumerate(weights):
        share = max(run_b / tb, run_t / tt)
        nb, nt = run_b + b, run_t + t
        k = len(out) + 1
        # cut before row i when taking it would pass the k-th boundary by more than stopping short does
        if k < n and i > start and max(nb / tb, nt / tt) > k / n and (max(nb / tb, nt / tt) - k / n) > (k / n - share):
            out.append((start, i))
            start = i
        run_b, run_t = nb, nt
    out.append((start, len(weights)))
    return out


def plan(page: str, weights: list[tuple[int, int]]) -> list[Part]:
    """The parts of a view whose rows weigh ``weights``; a single part when it is light enough."""
    return [Part(k, a, b, part_page(page, k)) for k, (a, b) in enumerate(cut(weights), 1)]


def nav(parts: list[Part], here: Part, numbers: list[int]) -> dict:
    """What the template shows of the parts: every part with its § range, the current one, previous and next.
    ``numbers``: the § number of every row of the view."""
    return {
        "k": here.k, "n": len(parts), "map": map_file(parts[0].page),
        "prev": parts[here.k - 2].page if here.k > 1 else None,
        "next": parts[here.k].page if here.k < len(parts) else None,
        "all": [{"k": p.k, "page": p.page, "first": numbers[p.start] if p.start < len(numbers) else 0,
                 "last": numbers[p.end - 1] if p.end > p.start else 0, "here": p is here} for p in parts],
    }


def ids_of(html: str) -> list[str]:
    """Every ``id`` of a page (an ``id="…"`` after a white space), in order.  Searched from its literal ``id="``,
    which the regex engine skips to, the white space before it asked of each hit (``str.isspace``, the regex's
    ``\\s``): a pattern opening with the white space was tried at every character of the page, two to three
    times as long.  A hit without it (``data-id="…"``) is passed by one character, as that scan went on."""
    out: list[str] = []
    search = _ID.search
    m = search(html)
    while m is not None:
        at = m.start()
        if at and html[at - 1].isspace():
            out.append(m.group(1))
            m = search(html, m.end())
        else:
            m = search(html, at + 1)
    return out


def id_map_js(key: str, pages: list[str], ids: list[list[str]]) -> bytes:
    """``parts/VIEW.js`` (``key``: that path, how the page finds it): the parts of a view and, per part, the ids only it holds (those every part has, the
    bar's and the dialogs', are left out)."""
    common = set(ids[0]).intersection(*map(set, ids[1:])) if ids else set()
    own = [" ".join(dict.fromkeys(i for i in x if i not in common)) for x in ids]
    data = json.dumps({"pages": pages, "ids": own}, ensure_ascii=False, separators=(",", ":"))
    return (f"(window.jiaokanParts = window.jiaokanParts || {{}})[{json.dumps(key)}] = {data};\n").encode("utf-8")
