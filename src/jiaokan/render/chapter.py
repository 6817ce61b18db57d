"""One chapter: the parallel page (a column per witness, a line per passage row) and the base-text page.

A :class:`Chapter` is either a collation (witnesses aligned by :mod:`jiaokan.collate`) or
a single witness (its passages become the rows).  :func:`parallel_context` and
:func:`base_context` build what the templates show; all HTML of the text itself comes
from :class:`.inline.ColumnWriter`.
"""

from __future__ import annotations

import re
from urllib.parse import quote
import unicodedata
from html import unescape
from dataclasses import dataclass, field
from typing import Any, Callable

from markupsafe import Markup, escape

from ..book.pian import FRONT
from ..collate.model import Collation, LayerGap, Row
from ..collate.rows import body_units
from ..model import Div, Note, Unit, Witness
from ..normalize.translate import LazyTable
from ..alive import WhileAlive
from .appview import app_data, apps_src, footnote_html, gap_text
from .emended import Em, emendations
from .html import LAYER_EN, LAYER_ZH, VARIANT_ZH, attr_json, lang_of, safe_id
from .inline import JING_RANK, ColumnWriter, PageIds
from .marks import jiaokanji_order, mark_index
from .notes import Verdicts
from .truth import elsewhere_probe, fold


@dataclass
class Chapter:
    """A chapter page to write: ``name`` is the file stem (``dasheyi`` → ``dasheyi.html``)."""

    name: str
    witnesses: dict[str, Witness]  # the base first
    collation: Collation | None = None
    title: str = ""
    tei_files: dict[str, str] = field(default_factory=dict)  # siglum → href of its TEI file (from the site root)
    apparatus_file: str | None = None  # href of the apparatus TEI file
    prev: Chapter | None = None  # the chapter before this one in the book (set by the site)
    next: Chapter | None = None
    #: siglum → the chapter whose search data already holds that witness (the same text, the same 篇), so that
    #: this chapter's data file points there instead of holding it again (set by the site,
    #: :func:`.search_index.share_search_data`)
    search_from: dict[str, str] = field(default_factory=dict)
    #: siglum → unit id → where the 疏 page shows that unit (``NAME-shu-p2.html#r40``): that witness's 疏 is
    #: shown there, and here as a link to it (set by the site, :func:`.shulink.link_shu`)
    shu_links: dict[str, dict[str, str]] = field(default_factory=dict)
    #: siglum → the 疏 page that shows that witness's 疏 (for the search, :func:`.search_index.chapter_index`)
    shu_pages: dict[str, str] = field(default_factory=dict)

    @property
    def base(self) -> str:
        return self.collation.base if self.collation else next(iter(self.witnesses))

    @property
    def sigla(self) -> list[str]:
        return list(self.witnesses)

    @property
    def page(self) -> str:
        return f"{self.name}.html"

    @property
    def base_page(self) -> str:
        """The base-text view: its page (``NAME-base.html``), or the parallel page drawn as it when it is drawn
        (:attr:`base_drawn`)."""
        return f"{self.page}?read={quote(self.base)}" if self.base_drawn else self.base_file

    @property
    def base_file(self) -> str:
        return f"{self.name}-base.html"

    @property
    def base_drawn(self) -> bool:
        """A collation's base-text view is drawn from its parallel page like any witness as the reading text
        (``NAME.html?read=BASE``): a page of its own wrote the base's text once more (a fifth of the site).  The
        emended text is that view switched (``&v=emended``): the parallel page's base column holds the changes of
        its 案 notes, hidden until then (:attr:`emends`).  A single witness keeps its reading page."""
        return self.collation is not None

    def reading_page(self, siglum: str) -> str:
        """The base-text view read from ``siglum``: the base's page, or the parallel page drawn as that witness's
        reading text (``NAME.html?read=SIGLUM``, ``edition.js``: its column, the 校勘記 read from it)."""
        return self.base_page if siglum == self.base else f"{self.page}?read={quote(siglum)}"

    def old_reading_page(self, siglum: str) -> str:
        """Where another witness's reading view was a page of its own (``NAME-base-SIGLUM.html``): a pointer to
        :meth:`reading_page` now, so its permalinks hold."""
        return f"{self.name}-base-{safe_id(siglum)}.html"

    @property
    def readers(self) -> list[tuple[str, str]]:
        """(siglum, page) of every witness that can be the reading text (a collation's; else the one)."""
        return [(s, self.reading_page(s)) for s in self.witnesses] if self.collation else []

    @property
    def emended_page(self) -> str:
        """The emended text's old page: now a pointer to :attr:`emended_href`."""
        return f"{self.name}-emended.html"

    @property
    def emended_href(self) -> str:
        """The emended text: the base view switched to it (the two share one page)."""
        return f"{self.base_page}{'&' if '?' in self.base_page else '?'}v=emended"

    def old_base_parts(self, n: int) -> list[str]:
        """The names the parts 2… of a base page had (``NAME-base-p2.html`` …), for a view drawn now from a parallel
        page of ``n`` parts: a base page, one column, was never cut into more parts than its parallel page."""
        return [f"{self.name}-base-p{k}.html" for k in range(2, n + 1)] if self.base_drawn else []

    #: the changes the base witness's 案 notes make where they can be placed (piece id → changes; set by the site,
    #: made once per chapter): the base view (the parallel page drawn as the base; a single witness's reading page)
    #: is the emended text too when there are any
    emends: "dict[str, list[Em]] | None" = None

    @property
    def has_emended(self) -> bool:
        return bool(self.emends)

    @property
    def label(self) -> str:
        w = self.witnesses[self.base]
        if not self.title and w.meta.chapter == FRONT:  # 提要, 目录, 序 before the first 篇
            return "卷首"
        return self.title or w.meta.chapter or w.meta.title or self.name

    def rows(self) -> list[Row]:
        if self.collation is not None:
            return self.collation.rows
        return single_rows(self.witnesses[self.base])


def single_rows(w: Witness) -> list[Row]:
    """Rows for a witness on its own: one per 经 passage, units without 经 riding with the next one."""
    rows: list[Row] = []
    pending: list[str] = []
    for u in body_units(w):
        pending.append(u.id)
        if u.jing is not None:
            rows.append(Row(id=f"r{len(rows) + 1}", units={w.meta.siglum: pending}, base_passage=u.id))
            pending = []
    if pending:
        if rows:
            rows[-1].units[w.meta.siglum].extend(pending)
        else:
            rows.append(Row(id="r1", units={w.meta.siglum: pending}, base_passage=None))
    return rows


def _div_openers(w: Witness) -> dict[str, Div]:
    return {d.units[0].id: d for d in w.divs if d.units and d.title}


def _units(w: Witness) -> dict[str, Unit]:
    return {u.id: u for u in w.units()}


def layers_present(ch: Chapter) -> list[str]:
    seen: set[str] = set()
    for w in ch.witnesses.values():
        for p in w.pieces():
            seen.add(p.layer)
            # (asked in C: a list of each piece's notes was made to be dropped; not asked again once one is found)
            if "an" not in seen and Note in map(type, p.content):
                seen.add("an")
    order = ["jing", "zhuan", "zhu", "shu", "yinyi", "shi", "an", "kaozheng", "commentary", "paratext"]
    return [x for x in order if x in seen]


def _witness_heads(ch: Chapter) -> list[dict]:
    out = []
    for s, w in ch.witnesses.items():
        m = w.meta
        out.append({"siglum": s, "title": m.title or m.file, "lang": lang_of(m.script), "script": m.script,
                    "juan": m.juan, "base": s == ch.base, "tei": ch.tei_files.get(s)})
    return out


def _edge_rows(ch: Chapter, kind: str, pages: PageIds, verdicts: Verdicts | None) -> dict | None:
    """The front (site headers, tables of contents) or back (考证, licences) matter, in columns."""
    cols = []
    any_units = False
    for s, w in ch.witnesses.items():
        units = [u for d in w.divs if d.type == kind for u in d.units]
        cw = ColumnWriter(s, None, pages, verdicts)
        openers = _div_openers(w)
        for u in units:
            cw.add_unit(u, openers.get(u.id))
        any_units = any_units or bool(units)
        cols.append({"siglum": s, "lang": lang_of(w.meta.script), "html": column_html(cw, w), "empty": not units})
    if not any_units:
        return None
    # (in the interface's language: 卷首 / 卷末 by default, the page's script; edition.js switches it)
    return {"id": kind, "label": "卷首" if kind == "front" else "卷末", "key": f"edge.{kind}", "cols": cols}


#: A column this many times longer than the shortest one beside it stays in view (sticky) while the long
#: one scrolls past: a giant 疏 stretch must not leave a blank screen in the other columns.
GIANT_RATIO = 4
#: ... when it is short enough to fit on a screen (characters of text).
SHORT_CHARS = 400

_TAG_OR_TEXT = re.compile(r"(<[^>]*>)|(&#?\w+;)|([^<&]+)")
#: Signs of the renderer that are punctuation to Unicode but not the witness's: the insertion caret, the brackets
#: of a lost page.
_NOT_PUNCT = set("‸〔〕〓")


def _is_punct(ch: str) -> bool:
    return ch not in _NOT_PUNCT and unicodedata.category(ch)[0] == "P"


def fold_punctuation(html: str) -> Markup:
    """Wrap every punctuation character of the text (not of tags or entities) in ``<span class="mp">``.

    For a witness whose punctuation is not the witness's own (the 图书集成 on Wikisource was punctuated by a
    program): the page hides it by default and a switch shows it; the TEI keeps it.
    """
    out: list[str] = []
    for m in _TAG_OR_TEXT.finditer(html):
        if m.group(2) is not None:  # an escaped character of the text (&#34; for a half-width quote)
            ent = m.group(2)
            out.append(f'<span class="mp">{ent}</span>' if len(unescape(ent)) == 1 and _is_punct(unescape(ent)) else ent)
            continue
        if m.group(3) is None:
            out.append(m.group(0))
            continue
        out.append(re.sub(r"[^\w\s]+", lambda r: "".join(
            f'<span class="mp">{c}</span>' if _is_punct(c) else c for c in r.group(0)), m.group(3)))
    return Markup("".join(out))


def machine_punctuated(w: Witness) -> bool:
    """The reader says the punctuation of this witness was added by a program (``extra['punctuation']``)."""
    return w.meta.extra.get("punctuation") == "machine"


def column_html(cw: ColumnWriter, w: Witness, slots: list[int] | None = None) -> Markup:
    """The writer's HTML, its punctuation folded when it is a program's."""
    html = cw.html(slots)
    return fold_punctuation(html) if machine_punctuated(w) else html


#: what every view of a chapter computes alike (the marks of the collation), kept for the
#: last chapter only: its views are made one after the other (kind → (the chapter or collation, the value))
_last: dict[str, tuple[object, Any]] = {}


def _once(kind: str, of: object, make: Callable[[], Any]) -> Any:
    """``make()``, or what it gave for the same object (by identity) the last time ``kind`` was asked."""
    hit = _last.get(kind)
    if hit is not None and hit[0] is of:
        return hit[1]
    value = make()
    _last[kind] = (of, value)
    return value


_TAG = re.compile(r"<[^>]*>")


def _text_len(html: str) -> int:
    return len(_TAG.sub("", html))


def parallel_context(ch: Chapter, verdicts: Verdicts | None = None) -> dict:
    """Everything chapter.html needs."""
    col = ch.collation
    marks = _once("marks", col, lambda: mark_index(col)) if col else {}
    numbers = jiaokanji_order(col) if col else {}
    units = {s: _units(w) for s, w in ch.witnesses.items()}
    openers = {s: _div_openers(w) for s, w in ch.witnesses.items()}
    gaps_by_row: dict[str, list] = {}
    for g in (col.gaps if col else []):
        gaps_by_row.setdefault(g.row, []).append(g)
    apps_by_row: dict[str, list] = {}
    for a in (col.apps if col else []):
        apps_by_row.setdefault(a.row, []).append(a)
    # the base view drawn from this page is the emended text too (``?read=BASE&v=emended``): the base column holds
    # the changes of its 案 notes, hidden in every other view (``edition.css``)
    ems = ch.emends if ch.base_drawn and ch.emends else None
    pages = PageIds()
    front = _edge_rows(ch, "front", pages, verdicts)
    texts = _KeyTexts(ch.witnesses)
    base = ch.base  # (a property: asked once, not per column of every row)
    rows_out = []
    for i, row in enumerate(ch.rows(), 1):
        cols = []
        present = {s for s, ids in row.units.items() if ids}
        writers = []
        for s, w in ch.witnesses.items():
            ids = row.units.get(s, [])
            cw = ColumnWriter(s, marks.get((row.id, s)), pages, verdicts, emend=ems if s == base else None,
                              shu_links=ch.shu_links.get(s))
            for uid in ids:
                cw.add_unit(units[s][uid], openers[s].get(uid))
            writers.append((s, w, ids, cw))
        slots, nslots = _slots([cw for _s, _w, ids, cw in writers if ids]) if len(present) > 1 else (None, 0)
        for s, w, ids, cw in writers:
            html = column_html(cw, w, slots.get(id(cw)) if slots else None)
            cols.append({"siglum": s, "lang": lang_of(w.meta.script), "html": html, "empty": not ids})
        _mark_short(cols)
        aligned = bool(slots) and not any(c["short"] for c in cols)
        if slots and not aligned:  # a giant column beside a short one: the short one stays in view instead
            for c, (s, w, ids, cw) in zip(cols, writers):
                if ids:
                    c["html"] = column_html(cw, w)
        notes = []
        for g in gaps_by_row.get(row.id, []):
            t = gap_text(g, present) if not _shown_away(ch, g) else None
            if t:
                notes.append({"layer": g.layer, **t})
        base_ids = row.units.get(base, [])
        absent = [s for s in ch.witnesses if s not in present] if len(ch.witnesses) > 1 else []
        unplaced = _unplaced(absent, row, units, texts) if absent else []
        rows_out.append({
            "id": row.id, "n": i, "passage": row.base_passage or (base_ids[0] if base_ids else None),
            "cols": cols, "gaps": notes, "apps": len(apps_by_row.get(row.id, [])),
            "solo": len(present) < len(ch.witnesses),
            "slots": nslots if aligned and slots else 0,
            "absent": [s for s in absent if s not in unplaced], "unplaced": unplaced,
        })
    back = _edge_rows(ch, "back", pages, verdicts)
    return {
        "chapter": ch,
        "witnesses": _witness_heads(ch),
        "ncols": len(ch.witnesses),
        "front": front,
        "rows": rows_out,
        "back": back,
        "layers": [(x, LAYER_ZH[x], LAYER_EN[x]) for x in layers_present(ch)],
        "vtypes": _vtypes(col),
        "overview": len(ch.rows()),
        "apps": app_data(col, numbers) if col else {},
        "apps_src": apps_src(ch),
        "view": "parallel",
        "facs": pages.facs_attr(),  # the stems of the leaves' images: search.js makes the anchors' titles
        "lang": lang_of(ch.witnesses[ch.base].meta.script),
        "nchanges": sum(len(x) for x in ems.values()) if ems else 0,
    }


def _shown_away(ch: Chapter, g: LayerGap) -> bool:
    """"疏 仅见于 ZS" said of a 疏 that this page shows as links to its 疏 page (:mod:`.shulink`): only that
    witness has 疏 on the page, so the note would say it on every row, beside a link line, of a layer the page
    does not draw; the 疏 page says what each witness lacks."""
    return g.layer == "shu" and g.kind == "layer" and bool(ch.shu_links) and set(g.present) <= set(ch.shu_links)


def witness_key_text(w: Witness) -> str:
    """The witness's text of the chapter layer by layer (all its 经, then all its 注 …; 案 notes and paratext left
    out), on folded keys: a passage's 经 is one run in it, whatever commentary the witness puts between."""
    by_layer: dict[str, list[str]] = {}
    for p in w.pieces():
        if p.layer not in ("an", "paratext"):
            by_layer.setdefault(p.layer, []).append(p.text)
    return "|".join(_fold_all("".join(x)) for x in by_layer.values())


#: code point → its :func:`.truth.fold` (None: dropped), each folded when first met (the book has a few thousand
#: distinct characters, each folded once per process: per chapter and layer, it was 9% of the render)
_FOLDS = LazyTable(lambda ch: fold(ch) or None)


def _fold_all(text: str) -> str:
    """:func:`.truth.fold` of a whole layer at once: it folds character by character, so the folds of the
    distinct characters, as a ``str.translate`` table, give the same string in one pass in C."""
    return text.translate(_FOLDS)


class _KeyTexts(dict):
    """siglum → :func:`witness_key_text`, made when first asked: only a witness a row lacks is searched for that
    row's 经 (:func:`_unplaced`), and most witnesses of most chapters never are."""

    def __init__(self, witnesses: dict[str, Witness]):
        super().__init__()
        self.witnesses = witnesses

    def __missing__(self, s: str) -> str:
        w = self.witnesses.get(s)
        text = self[s] = witness_key_text(w) if w is not None else ""
        return text


def _unplaced(absent: list[str], row: Row, units: dict[str, dict[str, Unit]], texts: dict[str, str]) -> list[str]:
    """The witnesses of ``absent`` whose text has this row's 经 after all (:func:`.truth.found_elsewhere`): the
    collation did not place their passage here, which is not the same as their lacking it."""
    jing = ["".join(p.text for uid in ids for p in units[s][uid].pieces if p.layer == "jing")
            for s, ids in row.units.items() if ids]
    probes = [p for p in (elsewhere_probe(_fold_all(j)) for j in jing) if p is not None]
    return [s for s in absent if any(p in texts[s] for p in probes)] if probes else []


def _slots(writers: list[ColumnWriter]) -> tuple[dict[int, list[int]], int]:
    """id(writer) → the grid row of each of its blocks, numbered from 1, and how many rows the grid has (the last
    number).  The blocks' keys (:meth:`ColumnWriter.slot_keys`) say the 经 passage each follows and its layer;
    passage by passage, the columns' blocks take one order that keeps each column's own (:func:`_merge_slots`),
    so a column's grid rows only go down.  A column's keys never go back to an earlier 经 passage (their first
    field counts the passages met), so its last key says whether it meets a 经 at all."""
    keys = {id(cw): cw.slot_keys() for cw in writers}
    if any(ks and ks[-1][0] > 0 for ks in keys.values()):
        # a column with no 经 in a row whose other columns have one (the 单疏本: its 疏 alone, cut from the 經) comments
        # on that 经: its blocks follow the first 经 passage, 疏 beside 疏, not above every 经 of the row
        for w, ks in keys.items():
            if ks and ks[-1][0] == 0:
                keys[w] = [(1, r, n) for _k, r, n in ks]
    # a column that divides the row into fewer 经 passages than another (the 集释's one 经 where the 注疏 has 鄉射之禮,
    # then 主人戒賓…): the commentary of its last passage stands beside that of the other's last passage, after
    # all the 经 it covers, not beside the other's first passage, where it left a blank as long as itself
    last = max((ks[-1][0] for ks in keys.values() if ks), default=0)
    for w, ks in keys.items():
        if ks and 0 < ks[-1][0] < last:
            keys[w] = _after_the_text(ks, last)
    # each passage's blocks in one order that keeps every column's own (喪服: 經, 注, 傳, 注 in each column; ordered
    # by the layers' rank, the 傳 stood above the 注 on the 經 in 37 of 149 rows): the columns' layer sequences of
    # the passage merged, blocks of one layer laid beside each other where the columns' orders allow
    slot_of: dict[int, list[int]] = {w: [] for w in keys}
    merged: dict[int, list[int]] = {}  # passage -> its slots in order (slot ids)
    label: list[int] = []  # slot id -> its layer's rank
    for w, ks in keys.items():
        by_passage: dict[int, list[int]] = {}  # (a column's keys are in passage order: grouped in one pass)
        for kk, r, _n in ks:
            by_passage.setdefault(kk, []).append(r)
        for k, ranks in by_passage.items():
            merged[k], ids = _merge_slots(merged.get(k, []), ranks, label)
            slot_of[w].extend(ids)
    number: dict[int, int] = {}
    for k in sorted(merged):
        for slot in merged[k]:
            number[slot] = len(number) + 1
    return {w: [number[x] for x in ids] for w, ids in slot_of.items()}, len(number)


def _merge_slots(slots: list[int], ranks: list[int], label: list[int]) -> tuple[list[int], list[int]]:
    """A passage's slots so far (``slots``, ids into ``label``: a slot's layer is its first block's) merged with
    one more column's blocks (``ranks``, their layers in its order): the longest run of blocks whose layers match
    slots, in order, takes those slots (注 beside 注); between two such, the column's other blocks take the slots
    there that match none of its blocks, one each, in order (its 疏 beside another's 释: no blank as long as the
    释 beside it), and new slots after them when there are more.  Returns the merged slots and the column's slot
    per block."""
    have = [label[x] for x in slots]
    if have == ranks:  # (most passages: the columns' blocks alike, layer for layer)
        return slots, list(slots)
    if not slots:  # (the passage's first column)
        first = list(range(len(label), len(label) + len(ranks)))
        label.extend(ranks)
        return first, list(first)
    n, m = len(have), len(ranks)
    # longest common subsequence of the two layer sequences (a passage has a handful of blocks: the table is small)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = best[i + 1][j + 1] + 1 if have[i] == ranks[j] else max(best[i + 1][j], best[i][j + 1])
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if have[i] == ranks[j] and best[i][j] == best[i + 1][j + 1] + 1:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j + 1] >= best[i + 1][j]:  # (a tie: the earliest slot is matched, the 注 a 注疏's second 經
            j += 1                               # takes is the 集释's first)
        else:
            i += 1
    out: list[int] = []
    mine: list[int] = []
    i0 = j0 = 0
    for i1, j1 in pairs + [(n, m)]:
        free = slots[i0:i1]  # the slots between two matches that none of this column's blocks matched
        out.extend(free)
        for t in range(j1 - j0):
            if t < len(free):
                mine.append(free[t])
            else:
                label.append(ranks[j0 + t])
                out.append(len(label) - 1)
                mine.append(len(label) - 1)
        if i1 < n:
            out.append(slots[i1])
            mine.append(slots[i1])
        i0, j0 = i1 + 1, j1 + 1
    return out, mine


def _after_the_text(keys: list[tuple[int, int, int]], passage: int) -> list[tuple[int, int, int]]:
    """``keys`` with the blocks of their last 经 passage that follow its last 经 (or title, or paratext) moved to
    ``passage``: the order of the blocks is kept (a column's keys never go back)."""
    k = keys[-1][0]
    text = max((i for i, (kk, r, _n) in enumerate(keys) if kk == k and r <= JING_RANK), default=-1)
    return keys[:text + 1] + [(passage, r, n) if kk == k else (kk, r, n) for kk, r, n in keys[text + 1:]]


#: a row none of whose columns' HTML is this long has no short column (:func:`_mark_short`)
_NONE_SHORT_BELOW = GIANT_RATIO * (SHORT_CHARS // 2)


def _mark_short(cols: list[dict]) -> None:
    """``short``: a column that fits on a screen beside one :data:`GIANT_RATIO` times longer (it stays in view),
    its length the characters of its text (its HTML but the tags, an entity as written).

    A column is short only beside one of at least :data:`GIANT_RATIO` × ``SHORT_CHARS // 2`` characters, and a
    column's text is no longer than its HTML: a row whose every column's HTML is shorter (most rows) has none,
    and its columns' text is not measured (a regex pass over every column of the book)."""
    if all(len(c["html"]) < _NONE_SHORT_BELOW for c in cols):
        for c in cols:
            c["short"] = False
        return
    chars = [0 if c["empty"] else _text_len(c["html"]) for c in cols]
    longest = max(chars, default=0)
    for c, n in zip(cols, chars):
        c["short"] = 0 < n <= SHORT_CHARS and longest >= GIANT_RATIO * max(n, SHORT_CHARS // 2)


#: collation → its :meth:`~jiaokan.collate.model.Collation.counts` (:class:`.alive.WhileAlive`)
_counts: WhileAlive[Collation, dict[str, int]] = WhileAlive()


def variant_counts(col: Collation) -> dict[str, int]:
    """``col.counts()``, counted once per collation: the chapter's page and the book's table of contents each show
    them (a count goes over every reading of the collation)."""
    hit = _counts.get(col)
    if hit is not None:
        return hit
    out = col.counts()
    _counts.put(col, out)
    return out


def _vtypes(col: Collation | None) -> list[tuple[str, str, int]]:
    if col is None:
        return []
    counts = variant_counts(col)
    order = ("substantive", "omission", "addition", "transposition", "taboo", "orthographic", "uncertain")
    return [(t, VARIANT_ZH[t], counts.get(t, 0)) for t in order if counts.get(t, 0)]


def base_context(ch: Chapter, verdicts: Verdicts | None = None, emended: bool = False,
                 reader: str | None = None) -> dict:
    """The base text running, numbered footnote references at each entry, the apparatus under each passage.

    ``emended``: the page is also the emended text (:mod:`.emended`, the 校定本): every change a 案 note makes is
    marked at its characters, hidden (the reading set aside, the emended one) until the page is switched to the
    emended text (``?v=emended``, ``edition.js``); the two views share one page, as they share every row but the
    few a note changes.
    ``reader``: another witness as the reading text, the others (the base among them) in its 校勘記."""
    col = ch.collation
    base = reader or ch.base
    ems = (ch.emends if ch.emends is not None and base == ch.base else emendations(ch.witnesses[base], verdicts)) \
        if emended else None
    w = ch.witnesses[base]
    marks = _once("marks", col, lambda: mark_index(col)) if col else {}
    numbers = jiaokanji_order(col, base) if col else {}
    units = _units(w)
    openers = _div_openers(w)
    apps_by_row: dict[str, list] = {}
    for a in (col.apps if col else []):
        apps_by_row.setdefault(a.row, []).append(a)
    gaps_by_row: dict[str, list] = {}
    for g in (col.gaps if col else []):
        gaps_by_row.setdefault(g.row, []).append(g)
    pages = PageIds()
    blocks = []
    for i, row in enumerate(ch.rows(), 1):
        ids = row.units.get(base, [])
        present = {s for s, x in row.units.items() if x}
        cw = ColumnWriter(base, marks.get((row.id, base)), pages, verdicts, footnotes=numbers, emend=ems)
        for uid in ids:
            cw.add_unit(units[uid], openers.get(uid))
        apps = sorted(apps_by_row.get(row.id, []), key=lambda a: numbers.get(a.id, 0))
        foot = [footnote_html(a, numbers[a.id], col, base) for a in apps if col is not None and a.id in numbers]
        notes = []
        for g in gaps_by_row.get(row.id, []):
            t = gap_text(g, present | {base})
            if t:
                notes.append({"layer": g.layer, **t})
        others = []
        if not ids and col is not None:  # a passage the base lacks: show it, quietly, from the witness that has it
            for s, uids in row.units.items():
                if uids:
                    ow = ch.witnesses[s]
                    ou = _units(ow)
                    ocw = ColumnWriter(s, None, pages, verdicts, link_units=False)
                    for uid in uids:
                        ocw.add_unit(ou[uid])
                    others.append({"siglum": s, "lang": lang_of(ow.meta.script), "html": column_html(ocw, ow)})
        blocks.append({"id": row.id, "n": i, "passage": row.base_passage, "html": column_html(cw, w) if ids else Markup(""),
                       "foot": foot, "gaps": notes, "others": others})
    front = _edge_rows(Chapter(ch.name, {base: w}), "front", pages, verdicts)
    back = _edge_rows(Chapter(ch.name, {base: w}), "back", pages, verdicts)
    return {
        "chapter": ch,
        "witnesses": _witness_heads(ch),
        "ncols": 1,
        "front": front,
        "blocks": blocks,
        "back": back,
        "layers": [(x, LAYER_ZH[x], LAYER_EN[x]) for x in layers_present(Chapter(ch.name, {base: w}))],
        "vtypes": _vtypes(col),
        "overview": len(ch.rows()),
        "apps": app_data(col, numbers) if col else {},
        "apps_src": apps_src(ch),
        "view": "base",
        "facs": pages.facs_attr(),  # the stems of the leaves' images: search.js makes the anchors' titles
        "emends": bool(ems),
        "reader": base,
        "lang": lang_of(w.meta.script),
        "napps": len(numbers),
        "nchanges": sum(len(x) for x in ems.values()) if ems else 0,
        "sigla_line": Markup("；".join(f"<b>{escape(s)}</b> <span lang=\"{lang_of(x.meta.script)}\">"
                                       f"{escape(x.meta.title or x.meta.file)}</span>" for s, x in ch.witnesses.items())),
        "intro_args": attr_json({"base": base, "n": len(numbers)}),
        "emended_args": attr_json({"base": base, "n": sum(len(x) for x in ems.values()) if ems else 0}),
    }
