"""The search index and citation records written at render time (render/search_index.py, render/cite.py).

Checked on the real corpus: the streams are every layer's reading text, joined across 案
notes and breaks; the anchors, pages and citation records point where the text is; the
data files stay strings whatever a witness holds.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jiaokan.emend.verdict import ClaimEvidence, NoteVerdict
from jiaokan.model import LineBreak, Note, PageBreak, walk
from jiaokan.normalize import is_ignorable, key
from jiaokan.normalize.numerals import chinese_numeral
from jiaokan.render.chapter import Chapter
from jiaokan.render.cite import citation, hanzi_number, juan_and_leaf, page_ref, work_title
from jiaokan.render.search_index import (_characters, _Pages, book_fold, chapter_index, expand_notes, js_data, leaf_by_rule,
                                         line_runs, piece_key, row_key, share_search_data)
from jiaokan.render.searchfold import fold_table
from jiaokan.render.sentences import target_en, target_zh

from .conftest import CORPUS


@pytest.fixture(scope="module")
def dasheyi(tmp_path_factory) -> Chapter:
    """The shipped 大射仪 chapter (JS 卷十 and the ZS excerpt), built as ``jiaokan build`` does, read back."""
    from jiaokan.build import run_build
    from jiaokan.render.inputs import load_inputs

    out = tmp_path_factory.mktemp("search-index")
    assert run_build(CORPUS, out, quiet=True, jobs=1) in (0, 2)
    chapters, _ = load_inputs([out / "apparatus" / "dasheyi.xml", *sorted((out / "tei").glob("*.xml"))])
    return next(c for c in chapters if c.name == "dasheyi")


def _streams(idx: dict) -> dict[tuple[str, str], dict]:
    return {(s["w"], s["l"]): s for s in idx["s"]}


def _anchors(idx: dict, stream: dict) -> list[tuple]:
    """A stream's anchors as search.js's ``expand`` reads them: (offset, unit or note id, row); a unit is its place
    in the witness's citation records, whose row ``rows`` gives, a note is its id, whose record gives the row."""
    units, rows = list(idx["cite"][stream["w"]]), idx["wits"][stream["w"]]["rows"]
    a = stream["a"]
    offs = [sum(a[0:i + 1:2]) for i in range(0, len(a), 2)]  # each from the one before
    return [(offs[i // 2], units[a[i + 1]], f"r{rows[a[i + 1]]}" if isinstance(rows[a[i + 1]], int) else rows[a[i + 1]])
            if isinstance(a[i + 1], int) else (offs[i // 2], a[i + 1], idx["notes"][a[i + 1]]["r"])
            for i in range(0, len(a), 2)]


def test_a_layer_reads_across_its_an_note(dasheyi):
    """司射遂袒(案…)执弓: the 集释's 经 is found whole, the note is a stream of its own."""
    idx = chapter_index(dasheyi)
    js = _streams(idx)[("JS", "jing")]
    at = js["t"].index("司射遂袒执弓")
    anchor = max((a for a in _anchors(idx, js) if a[0] <= at), key=lambda a: a[0])
    assert anchor[1] == "JS10.72" and anchor[2].startswith("r")
    an_anchors = _anchors(idx, _streams(idx)[("JS", "an")])
    assert ("JS10.72.jing1.an1", idx["notes"]["JS10.72.jing1.an1"]["r"]) in {a[1:] for a in an_anchors}
    an = _streams(idx)[("JS", "an")]
    assert "今注疏本脱遂字" in an["t"]
    assert "袒执弓挟" in _streams(idx)[("ZS", "jing")]["t"]
    note = idx["notes"]["JS10.72.jing1.an1"]
    assert note["before"].endswith("司射遂袒") and note["after"].startswith("执弓")
    assert note["w"] == "JS" and note["u"] == "JS10.72" and note["page"] == "13a"


def test_streams_are_each_layers_reading_text(dasheyi):
    """Every layer's stream is its pieces' text with punctuation dropped (nothing lost, nothing added);
    the 案 stream is the notes' text."""
    idx = chapter_index(dasheyi)
    streams = _streams(idx)
    for s, w in dasheyi.witnesses.items():
        layers = {p.layer for p in w.pieces()}
        for layer in layers:
            want = "".join(ch for p in w.pieces() if p.layer == layer for ch in p.text if not is_ignorable(ch))
            assert streams[(s, layer)]["t"] == want, (s, layer)
        notes = "".join(ch for n in w.notes() for ch in n.text if not is_ignorable(ch))
        assert streams.get((s, "an"), {"t": ""})["t"] == notes
        for st_ in idx["s"]:
            offs = [a[0] for a in _anchors(idx, st_)]
            assert offs == sorted(offs) and offs[0] == 0


def _places(runs: list[list], labels: list[str]) -> list[tuple]:
    """A citation record's places (per run of lines: the page's number in ``labels``, the first line, then where
    each line starts) as (offset, page, line), as search.js's ``expand`` reads them."""
    return [(sum(run[2:j + 1]), None if run[0] is None else labels[run[0]], None if run[1] is None else run[1] + j - 2)
            for run in runs for j in range(2, len(run))]


def _pages(wit: dict) -> dict[str, list[str]]:
    """A witness's pages (label → [卷, 葉]) as search.js's ``expand`` makes them: the rule's, else the data's."""
    odd = wit["pages"]
    return {p: r for p in wit["pl"] if (r := odd[p] if p in odd else leaf_by_rule(p, wit["juan"]))}


def test_a_witness_another_page_of_its_pian_indexes_is_named_not_held_again(dasheyi):
    """A second page of the 篇 that shows the same 注疏 (the 疏 collation, NAME-shu) points at the first page's
    data for it, and holds only what is its own; a page of another 篇 holding the same text indexes it itself."""
    zs = dasheyi.witnesses["ZS"]
    tei = {k: v for k, v in dasheyi.tei_files.items() if k == "ZS"}
    second = Chapter("dasheyi-shu", {"ZS": zs}, None, title=dasheyi.label, tei_files=dict(tei))
    other = Chapter("elsewhere", {"ZS": zs}, None, title="另一篇", tei_files=dict(tei))
    share_search_data([dasheyi, second, other])
    assert dasheyi.search_from == {} and second.search_from == {"ZS": "dasheyi"} and other.search_from == {}
    idx = chapter_index(second)
    assert idx["from"] == {"ZS": ["dasheyi", "search/dasheyi.js"]} and idx["sigla"] == ["ZS"]
    assert idx["s"] == [] and idx["cite"] == {} and idx["wits"] == {} and "fold" not in idx
    first = chapter_index(dasheyi)
    assert "from" not in first and {s["w"] for s in first["s"]} == {"JS", "ZS", "SB"}
    assert {s["w"] for s in chapter_index(other)["s"]} == {"ZS"}


def test_citation_records_are_runs_of_lines():
    """A page is written once for the lines that follow each other on it, a line only where a run starts; a line
    that skips one starts a run of its own; the places read back in order."""
    places = [[0, "1a", 3], [20, "1a", 4], [35, "1b", 1], [55, "1b", 2], [58, "1b", 5], [60, None, None]]
    pages = _Pages()
    runs = line_runs(places, pages)
    assert runs == [[0, 3, 0, 20], [1, 1, 35, 20], [1, 5, 58], [None, None, 60]]
    assert _places(runs, list(pages.index)) == [tuple(x) for x in places]


def test_a_page_label_the_script_can_read_is_not_written():
    """A Kanripo label or a leaf is left to the script's rule; anything else, and a page no break named, is
    written (0: no 卷 nor 葉 to give)."""
    assert leaf_by_rule("003-12b", "卷九") == ["卷三", "葉十二b"] and leaf_by_rule("20a", "卷九") == ["卷九", "葉二十a"]
    assert leaf_by_rule("p12", "卷九") is None and leaf_by_rule("003-120b", "") is None
    pages = _Pages()
    for label, ref in (("003-1a", ["卷三", "葉一a"]), ("7b", ["卷四", "葉七b"]), ("x1", ["", "p. x1"])):
        pages.refs[label] = ref
        pages.ix(label)
    pages.ix("loc")
    assert pages.to_json("卷九") == {"pl": ["003-1a", "7b", "x1", "loc"],
                                     "pages": {"7b": ["卷四", "葉七b"], "x1": ["", "p. x1"], "loc": 0}}
    assert piece_key("JS3.5", "JS3.5") == "" and piece_key("JS3.5", "JS3.5.zhu1") == ".zhu1"
    assert piece_key("JS3.5", "JS3.50.zhu1") == "JS3.50.zhu1" and piece_key("JS3.5", None) is None
    assert [row_key(r) for r in ("r12", "front", "r0", "r", None)] == [12, "front", "r0", "r", None]


def test_citation_records_give_page_and_line_of_every_piece(dasheyi):
    """The first record of each piece is where its first character stands: the page in force and the
    line counted from the last page break."""
    idx = chapter_index(dasheyi)
    w = dasheyi.witnesses["JS"]
    recs = idx["cite"]["JS"]
    n_page: int | None = None
    page = None
    for u in w.units():
        for p, rec in zip(u.pieces, recs[u.id]):
            own = u.id if p.layer == "jing" else p.id
            assert (u.id + rec[0] if rec[0] == "" or rec[0].startswith(".") else rec[0]) == own
            first = None
            for step in walk(p.content):
                if isinstance(step.node, PageBreak):
                    page, n_page = step.node.n, 0
                elif isinstance(step.node, LineBreak) and n_page is not None:
                    n_page += 1
                elif step.note is None and not isinstance(step.node, Note) and step.node.reading and first is None:
                    first = (page, n_page)
                elif step.note is not None and isinstance(step.node, (PageBreak, LineBreak)):
                    pass
            places = _places(rec[1], idx["wits"]["JS"]["pl"])
            if first is not None:
                assert (places[0][1], places[0][2]) == first, (p.id, rec)
            offs = [x[0] for x in places]
            assert offs == sorted(offs) and offs[0] == 0 and offs[-1] <= len(p.text)
    wit = idx["wits"]["JS"]
    assert wit["work"] == "仪礼集释" and _pages(wit)["13a"] == ["卷十", "葉十三a"]  # 葉 in every script
    assert wit["head"] == {"author": "李如圭", "work": "儀禮集釋", "pian": "大射儀", "edition": "文淵閣四庫全書本"}
    assert wit["tei"] is None or wit["tei"].endswith(".xml")


def test_the_inverse_table_is_every_characters_key():
    """The characters that fold to each key, found by asking only those a fold can change, are what asking every
    code point of the typable blocks finds."""
    from jiaokan.render import searchfold

    every: dict[str, list[str]] = {}
    for lo, hi in searchfold._TYPABLE:
        for cp in range(lo, hi + 1):
            k = key(chr(cp))
            if k and k != chr(cp) and len(k) == 1:
                every.setdefault(k, []).append(chr(cp))
    searchfold._by_key.cache_clear()
    assert searchfold._by_key() == {k: tuple(v) for k, v in every.items()}
    assert "禮" in searchfold._by_key()["礼"]  # 禮 is typed and found as 礼


def test_the_index_reads_what_each_witness_holds(dasheyi):
    """What the search index's walk found a witness to hold is what reading all of it again finds."""
    from jiaokan.render import searchfold

    for w in dasheyi.witnesses.values():
        searchfold._held.clear()
        fresh = searchfold.chars_of(w)
        searchfold._held.clear()
        chapter_index(dasheyi)
        assert searchfold._held.get(w) == fresh and len(fresh) > 100


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(blacklist_categories=())))
def test_a_witness_characters_are_its_texts_set(s):
    """The characters the index keeps for the folding table (made from code points) are the text's set, whatever it
    holds: planes beyond the first, lone surrogates, controls."""
    assert _characters(s) == frozenset(s)
    assert _characters(s + "\U00020000鄉\ud800a") == frozenset(s + "\U00020000鄉\ud800a")


def test_the_index_counts_each_units_width_as_the_strip_does(dasheyi):
    """The widths of the overview strip's rows that the search index's walk counted (each unit's 经 and 注
    characters) are what counting every piece's text again gives, for every witness, notes and gaiji too."""
    from jiaokan.render import overview

    for w in dasheyi.witnesses.values():
        overview._widths.clear()
        fresh = overview.unit_widths(w)
        overview._widths.clear()
        chapter_index(dasheyi)
        assert overview._widths.get(w) == fresh and sum(fresh.values()) > 1000


def test_what_the_index_read_is_kept_for_a_book_of_any_length(dasheyi, monkeypatch):
    """The book's folding table reads no witness again that a chapter's index read, however many witnesses the
    book has (a fixed count kept was a length of book: the doubled book's 142 witnesses were all read again), and
    keeps none that has gone (the entry leaves with its witness)."""
    import copy
    import gc

    from jiaokan.render import searchfold

    w = dasheyi.witnesses[dasheyi.base]
    searchfold._held.clear()
    held = searchfold.chars_of(w)
    book = [copy.copy(w) for _ in range(300)]  # 300 witnesses of the same text (each its own object)
    for x in book:
        searchfold.remember(x, held)
    read: list[object] = []
    monkeypatch.setattr(searchfold, "all_source_chars", lambda content: read.append(content) or "")
    assert fold_table(book) == fold_table([w]) and not read
    kept = len(searchfold._held)
    del book, x
    gc.collect()
    assert kept == 301 and len(searchfold._held) == 1 and searchfold._held.get(w) == held


def test_fold_is_the_collations_key(dasheyi):
    """One folding table for the book (search/fold.js), not one in each chapter's file."""
    fold = book_fold([dasheyi])
    for ch, k in fold.items():
        assert key(ch) == k
    assert fold.get("荅") == "答" and fold.get("賓") == "宾"
    assert "fold" not in chapter_index(dasheyi)
    assert book_fold([dasheyi, dasheyi]) == fold == fold_table(dasheyi.witnesses.values())


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=999))
def test_hanzi_numbers_read_back(n):
    assert chinese_numeral(hanzi_number(n)) == n


def test_scholars_citation_form():
    assert juan_and_leaf("005-3a", None, "") == (5, "三a")
    assert juan_and_leaf("13b", None, "10") == (10, "十三b")
    assert juan_and_leaf("12", "3", "") == (3, None)
    assert page_ref("traditional", 5, "三a", "005-3a") == "卷五 葉三a"
    assert page_ref("simplified", 10, "十三b", "13b") == "卷十 葉十三b"  # one word for the leaf, in every script
    assert citation("儀禮集釋", "卷五 葉三a", 4) == "《儀禮集釋》卷五 葉三a 行4"
    assert citation("古今图书集成", "", 4) == "《古今图书集成》"
    from jiaokan.model import WitnessMeta

    assert work_title(WitnessMeta("JS", "f", "x", title="儀禮集釋 (WYG)")) == "儀禮集釋"
    assert work_title(WitnessMeta("JS", "f", "x", title="仪礼集释 卷十 (李如圭 撰)")) == "仪礼集释"


HOSTILE = "</script><script>alert(1)</script>\u2028<!--"


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>/&!-'\"\u2028\u2029司射ascript")), max_size=40))
def test_data_files_keep_any_text_a_string(s):
    """No '<' or '>' reaches the file, whatever the witness holds; the value reads back unchanged."""
    data = js_data("chapters/x", {"t": s + HOSTILE})
    text = data.decode("utf-8")
    assert "<" not in text and ">" not in text and "\u2028" not in text
    payload = text[text.index("={") + 1:text.rindex(";}")]
    assert json.loads(payload)["t"] == s + HOSTILE


def _WithClaims(kind, verdict, summary, reading, claims) -> NoteVerdict:
    """A verdict record as the emend stage gives it, its claims carrying their evidence."""
    return NoteVerdict(kind, verdict, summary, reading, tuple(ClaimEvidence.from_dict(c) for c in claims))


def test_verdicts_with_and_without_claims(dasheyi):
    nid = "JS10.72.jing1.an1"
    claim = {"id": f"{nid}.c1", "kind": "omission", "lemma": "遂", "reading": "", "target": "zhushu",
             "verdict": "confirmed", "rule": "agrees", "why": "the 注疏 lacks 遂", "anchor": "司射【遂】袒",
             "place": "卷十 叶十三a 行3", "witness": "ZS", "readings": {"JS": "遂", "ZS": ""}}
    plain = chapter_index(dasheyi, {nid: NoteVerdict("omission", "confirmed", "omission 遂→∅", "")})
    v = plain["notes"][nid]["v"]
    assert v["kind"] == "omission" and v["claims"] == [] and v["zs"] == "ZS"
    rich = chapter_index(dasheyi, {nid: _WithClaims("omission", "confirmed", "omission 遂→∅", "", (claim,))})
    (written,) = rich["notes"][nid]["v"]["claims"]
    (shown,) = expand_notes(rich["notes"])[nid]["v"]["claims"]  # as search.js's expand gives it to the dialog
    assert written["id"] == ".c1" and "shown" not in written  # its id after its note's; shown as its own verdict
    # the evidence, and what the dialog says in 简/繁/English; no rule name, no machine place
    assert {k: shown[k] for k in ("id", "kind", "lemma", "reading", "target", "witness", "anchor", "readings")} == {
        k: claim[k] for k in ("id", "kind", "lemma", "reading", "target", "witness", "anchor", "readings")}
    assert shown["shown"] == "confirmed" and "rule" not in shown and "place" not in shown
    assert shown["say_hans"] == "仪礼注疏（ZS）无「遂」，与案语所言今注疏本合。" and shown["say_en"] == "the 注疏 lacks 遂"
    # whom it is about, once for the chapter; why only for a badge that is uncertain
    assert rich["tg"] == {"zhushu": [target_zh("zhushu"), target_en("zhushu")]} and "reason" not in rich["notes"][nid]["v"]
    assert chapter_index(dasheyi)["notes"][nid]["v"] is None
