"""One walk over inline content: every stage gives every character the same page and line.

The model's :func:`jiaokan.model.walk` is the only place that follows page and line
breaks (into notes too: a 案 note can turn a page).  These tests hold the stages to
it: the TEI round trip, the collation's layer text, the 案 anchoring (emend) and the
HTML column writer must each place every reading character exactly where
:func:`jiaokan.model.witness_places` does — on random witnesses (hypothesis) and on
every real file of the corpus and of ``../shared/kanripo/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree, html

from jiaokan.collate.layertext import layer_text
from jiaokan.emend.anchor import _Doc
from jiaokan.errors import JiaokanError
from jiaokan.model import (
    LAYERS,
    Div,
    Gaiji,
    Gap,
    Label,
    LineBreak,
    Loc,
    Note,
    PageBreak,
    Piece,
    Place,
    Text,
    Unit,
    Witness,
    WitnessMeta,
    Where,
    advance,
    nodes,
    walk,
    witness_places,
)
from jiaokan.readers import read_witness
from jiaokan.render.cite import _page_starts
from jiaokan.render.inline import ColumnWriter, PageIds
from jiaokan.tei.reader import witness_from_tei
from jiaokan.tei.writer import witness_to_tei

from .conftest import CORPUS, KANRIPO

# ---------------------------------------------------------------------------
# What each stage says
# ---------------------------------------------------------------------------


def model_places(w: Witness) -> list[list[Place]]:
    places = witness_places(w)
    return [places[id(p)] for p in w.pieces()]


def tei_places(w: Witness) -> list[list[Place]]:
    """Write the TEI, read it back, and walk what came back."""
    root = etree.fromstring(etree.tostring(witness_to_tei(w)))
    return model_places(witness_from_tei(root, w.meta.file))


def collation_places(w: Witness) -> dict[str, list[Place]]:
    """The collation's layer text over the whole witness, one list per layer."""
    units = list(w.units())
    out = {}
    for layer in LAYERS:
        lt = layer_text(units, layer)
        out[layer] = [Place(p, ln, c) for p, ln, c in zip(lt.pages, lt.lines, lt.cols)]
    return out


def emend_places(w: Witness) -> list[list[Place]]:
    """Where the 案 anchoring says each character of each piece stands."""
    doc = _Doc(w)
    return [[Place(*doc.where(s, i)) for i in range(len(s.piece.text))] for s in doc.slots]


_SKIP = {"label", "gap", "vh", "fn-ref", "an-b", "badge"}


def html_pages(w: Witness) -> list[list[str | None]]:
    """The page of each reading character of each piece, as a reader of the HTML sees it:
    the last page mark before the character (notes, labels and marks of absence skipped)."""
    cw = ColumnWriter(w.meta.siglum, None, PageIds(), None)
    for u in w.units():
        cw.add_unit(u)
    root = html.fromstring(f"<div>{cw.html()}</div>")
    page: list[str | None] = [None]
    out: list[list[str | None]] = []

    def visit(el: html.HtmlElement, chars: list[str | None]) -> None:
        inside(el, chars)
        chars.extend([page[0]] * len(el.tail or ""))  # the tail stands after the element

    def inside(el: html.HtmlElement, chars: list[str | None]) -> None:
        cls = set((el.get("class") or "").split())
        if "pb" in cls:
            page[0] = el.find("span").text_content()
        elif el.get("data-note") is not None:
            # a note is not part of the piece's reading, but its page breaks count
            for pb in el.iterfind(".//a[@class='pb']"):
                page[0] = pb.find("span").text_content()
        elif cls & {"gaiji", "pua"}:
            chars.append(page[0])
        elif not cls & _SKIP:
            chars.extend([page[0]] * len(el.text or ""))
            for child in el:
                visit(child, chars)

    for div in root.iter("div"):
        if "piece" in (div.get("class") or "").split():
            chars: list[str | None] = []
            chars.extend([page[0]] * len(div.text or ""))
            for child in div:
                visit(child, chars)
            out.append(chars)
    return out


def walked_page_starts(w: Witness) -> dict[str, tuple[int | None, str | None]]:
    """Each page's line before its first character (行1 is the leaf's first line of text), and its first break's
    卷, as the walk places them; a page with no character, the line its first break stands on."""
    out: dict[str, tuple[int | None, str | None]] = {}
    broke: dict[str, tuple[int | None, str | None]] = {}
    where = Where()
    for p in w.pieces():
        where.enter(p)
        for step in walk(p.content, where):
            node = step.node
            if isinstance(node, PageBreak):
                broke.setdefault(node.n, (step.line, node.juan))
            elif step.page is not None and step.page not in out and step.page in broke and (
                    node.text.strip() if isinstance(node, Text) else getattr(node, "reading", "")):
                out[step.page] = ((step.line - 1) if step.line is not None else None, broke[step.page][1])
    for label, at in broke.items():
        out.setdefault(label, at)
    return out


def check_stages(w: Witness) -> None:
    want = model_places(w)
    pieces = list(w.pieces())
    assert [len(x) for x in want] == [len(p.text) for p in pieces]
    assert tei_places(w) == want, "TEI round trip moves characters to another page or line"
    assert emend_places(w) == want, "emend places characters elsewhere than the model"
    by_layer = collation_places(w)
    for layer in LAYERS:
        expect = [pl for p, pls in zip(pieces, want) if p.layer == layer for pl in pls]
        assert by_layer[layer] == expect, f"collation places {layer} characters elsewhere than the model"
    assert html_pages(w) == [[pl.page for pl in pls] for pls in want], "the HTML shows another page"
    assert _page_starts(w) == walked_page_starts(w), "the citations count a leaf's lines from another break"
    assert cursor_shortcuts_agree(w)


def cursor_shortcuts_agree(w: Witness) -> bool:
    """``advance`` leaves the cursor where exhausting ``walk`` does, and ``nodes`` meets the nodes
    ``walk`` meets, piece after piece (the stages that only move the cursor use them)."""
    walked, advanced = Where(), Where()
    for p in w.pieces():
        met = [step.node for step in walk(p.content, walked)]
        advance(p.content, advanced)
        assert (advanced.page, advanced.line, advanced.col) == (walked.page, walked.line, walked.col), p.id
        assert [id(n) for n in nodes(p.content)] == [id(n) for n in met], p.id
    return True


# ---------------------------------------------------------------------------
# Random witnesses
# ---------------------------------------------------------------------------

_han = st.text(alphabet=st.sampled_from("經注疏之以而其也禮射賓主人"), min_size=1, max_size=6)


@st.composite
def _inline(draw, depth: int = 0) -> list:
    out: list = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["t", "t", "t", "pb", "lb", "label", "gaiji", "gap"]
                                    + (["note"] if depth == 0 else [])))
        if kind == "t":
            out.append(Text(draw(_han)))
        elif kind == "pb":
            out.append(PageBreak(f"{draw(st.integers(1, 40))}{draw(st.sampled_from('ab'))}"))
        elif kind == "lb":
            out.append(LineBreak(draw(st.integers(1, 500))))
        elif kind == "label":
            out.append(Label("疏"))
        elif kind == "gap":  # a lost page: no reading (the collation's layer texts place it by hand, not by walk)
            out.append(Gap(desc=draw(st.sampled_from([None, "缺"]))))
        elif kind == "gaiji":
            out.append(Gaiji(f"KR{draw(st.integers(1, 9999)):04d}", draw(st.sampled_from([None, "楣"]))))
        else:
            out.append(Note(draw(_inline(depth=1)), Loc(1)))
    # TEI keeps adjacent text runs as one; so does every reader
    merged: list = []
    for node in out:
        if merged and isinstance(node, Text) and isinstance(merged[-1], Text):
            merged[-1] = Text(merged[-1].text + node.text)
        else:
            merged.append(node)
    return merged


@st.composite
def witnesses(draw) -> Witness:
    units = []
    for k in range(draw(st.integers(1, 4))):
        pieces = [Piece("jing", draw(_inline()) + [Text(draw(_han))], Loc(1, "1a"), id=f"u{k}.jing")]
        for j, layer in enumerate(draw(st.lists(st.sampled_from(["zhu", "shu", "an"]), max_size=3))):
            pieces.append(Piece(layer, draw(_inline()) + [Text(draw(_han))], Loc(1, "1a"), id=f"u{k}.{layer}{j}"))
        units.append(Unit(f"u{k}", pieces))
    # every piece says where it starts, as readers do: the page and line the walk is at
    w = Witness(WitnessMeta("W", "w.txt", "test"), [Div("chapter", "1", "篇", units, id="d1")])
    for k, note in enumerate(w.notes()):
        note.id = f"n{k}"
    first = units[0].pieces[0]
    first.content[:0] = [PageBreak("1a"), LineBreak(1)]  # a source starts on a page and a line
    where = Where()
    for p in w.pieces():
        p.loc = Loc(where.line or 1, where.page)
        for _ in walk(p.content, where):
            pass
    return w


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(witnesses())
def test_every_stage_agrees_on_random_witnesses(w: Witness) -> None:
    check_stages(w)


# ---------------------------------------------------------------------------
# Every real file
# ---------------------------------------------------------------------------

_REAL = sorted(CORPUS.glob("*.txt")) + sorted(KANRIPO.glob("*.txt"))


#: The works the corpus collates (集释, 注疏, 四部丛刊): every file of theirs must read.  The
#: clones hold other works too (KR1d0027 儀禮疏 …), whose odd 卷 no reader may recognise.
_WITNESS_WORKS = ("KR1d0026_", "KR1d0028_", "KR1d0030_")


@pytest.mark.parametrize("path", _REAL, ids=lambda p: p.name)
def test_every_stage_agrees_on_real_files(path: Path) -> None:
    try:
        w = read_witness(path)
    except JiaokanError as exc:
        # a one-line refusal is the right answer only for a file of another work; any other
        # exception (a reader bug) fails here, as it must
        if path.parent == CORPUS or path.name.startswith(_WITNESS_WORKS):
            raise
        pytest.skip(f"{path.name}: not a file of a collated work, refused: {exc}")
    check_stages(w)


def test_a_note_that_turns_the_page_moves_what_follows() -> None:
    """集释 卷十 JS10.151.zhu1: a 案 note crosses 29b/30a; the text after it is on 30a."""
    note = Note([Text("案今注疏"), PageBreak("30a"), LineBreak(9), Text("本作某")], Loc(8, "29b"), id="JS10.151.zhu1.an1")
    p = Piece("zhu", [PageBreak("29b"), LineBreak(8), Text("之言"), note, Text("射也")], Loc(8, "29b"))
    w = Witness(WitnessMeta("JS", "x.txt", "test"), [Div("chapter", "10", None, [Unit("u", [p])])])
    # columns: 之言 are 1-2 of line 8; the note's 本作某 opens line 9, so 射也 are its 4th and 5th
    assert model_places(w) == [[Place("29b", 8, 1), Place("29b", 8, 2), Place("30a", 9, 4), Place("30a", 9, 5)]]
    check_stages(w)


def test_the_line_on_the_leaf_counts_from_the_leaf_s_first_line_of_text_in_the_raw_file():
    """行 as a reader counts it in the printed leaf (a reader's trial, against KR1d0030_003): the page break of
    003-1a stands before the file's first line of text (欽定四庫全書, line 6), so 士相見之禮摯 (line 12) is 行7; that
    of 003-2a stands on a line of its own after …吾子之就家也某 (line 23), so 將走見 (line 24) is 行1; and 003-14a
    opens inside a 案 note (line 240), whose lines are the leaf's too.  The citations counted from the break's line
    (行6, 行3 …) and the 案 evidence from the first line after the note (行1 for line 244)."""
    from jiaokan.emend.evidence import page_first_lines
    from jiaokan.model import WitnessMeta as Meta
    from jiaokan.readers import read_witness
    from jiaokan.render.cite import leaf_line, page_starts

    from .conftest import KANRIPO

    path = KANRIPO / "KR1d0030_003.txt"
    if not path.exists():
        pytest.skip("Kanripo files absent")
    w = read_witness(path, Meta(siglum="JS", file=path.name, format=""))
    starts = page_starts(w)
    assert (leaf_line(starts, "1a", 6), leaf_line(starts, "1a", 12)) == (1, 7)
    assert (leaf_line(starts, "2a", 24), leaf_line(starts, "2a", 25)) == (1, 2)
    assert leaf_line(starts, "14a", 240) == 1 and leaf_line(starts, "14a", 244) == 5
    assert page_first_lines(w)["14a"] == 240  # the 案 evidence counts the same lines
