"""Apparatus entries as the reader meets them: popover data and printed-edition footnotes.

A footnote reads as in a printed critical edition: number, layer (when not 经), the
lemma with the witnesses that support it, ``]``, then each different reading with its
witnesses, ``;`` between them, ``无`` for an omission::

    3 遂 JS 13a] 无 ZS
    4 注 俟 JS 13b] 侯 ZS
    5 执 JS] 执弣 ZS          (an addition: shown on the character before it)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

from ..collate.model import App, Collation, LayerGap
from ..collate.variants import CONTEXT
from ..model import Witness
if TYPE_CHECKING:
    from .chapter import Chapter
from ..normalize import is_ignorable
from .cite import leaf_line, page_reference, page_starts
from .sentences import hans
from .html import LAYER_ZH, VARIANT_ZH, attr_json, attrs
from .marks import jiaokanji_order
from .overview import row_id, row_key

#: Layer names in a 校勘記's head (traditional: the glue words are converted with the rest).
LAYER_HANT = {"zhu": "注", "shu": "疏", "zhuan": "傳", "yinyi": "音義", "shi": "釋", "kaozheng": "考證"}

OMITTED = "无"


def _anchor(a: App) -> tuple[str, bool]:
    """For an entry with an empty lemma: the base character it hangs on, and whether it precedes."""
    before, _, after = a.context.partition("【")
    after = after.partition("】")[2]
    for ch in reversed(before):
        if not is_ignorable(ch):
            return ch, True
    for ch in after:
        if not is_ignorable(ch):
            return ch, False
    return "", True


def _place(a: App) -> str:
    """Where an entry with an empty lemma hangs in the base, as its 校勘記 says it: 「執」下 (after 執), 「執」上,
    此處 when the base has no character near."""
    anchor, before = _anchor(a)
    return f"「{anchor}」{'下' if before else '上'}" if anchor else "此處"


def _owners(col: Collation) -> tuple[dict[tuple[str, str, str], dict[int, str]], set[tuple[str, str, str, str]]]:
    """(row, siglum, layer) → offset → the app whose mark the page shows on that character; and the (row,
    siglum, layer, app) whose span lost a character to another entry's (every other reading is the page's
    whole, and is not read again character by character).

    Two entries can claim the same characters of a witness (an addition ``奠觶`` and the ``賓`` after it, the
    second's reading running over the first's); the page marks each character once, for the entry of the
    earliest, shortest span (as :class:`.inline.ColumnWriter` does), and the popover must say the same.
    """
    groups: dict[tuple[str, str], list[App]] = {}  # (row, layer) → its entries, in order
    for a in col.apps:
        groups.setdefault((a.row, a.layer), []).append(a)
    out: dict[tuple[str, str, str], dict[int, str]] = {}
    lost: set[tuple[str, str, str, str]] = set()
    for (row, layer), apps in groups.items():
        if len(apps) < 2:  # one entry in its row's layer (most): every character its own, and no map to ask
            continue
        spans: dict[str, list[tuple[int, int, str]]] = {col.base: [(a.lem.start, a.lem.end, a.id) for a in apps]}
        for a in apps:
            for s, r in a.readings.items():
                spans.setdefault(s, []).append((r.start, r.end, a.id))
        for s, xs in spans.items():
            # each character its one entry's (most): nothing lost, and no map to ask.  Asked first of the spans as
            # they come (in order already, as a passage's entries are, when none overlaps: then sorting them
            # would keep them as they are), and sorted only if that finds one
            if not _overlap(xs):
                continue
            xs.sort(key=lambda x: (x[0], x[1]))
            if not _overlap(xs):
                continue
            cover: dict[int, str] = {}
            for start, end, aid in xs:
                for i in range(start, end):
                    if cover.setdefault(i, aid) != aid:
                        lost.add((row, s, layer, aid))
            out[(row, s, layer)] = cover
    return out, lost


def _overlap(spans: list[tuple[int, int, str]]) -> bool:
    """Whether any of ``spans`` starts before the ones before it end: else no character is claimed twice (and the
    spans are in order of their starts, as sorting them would leave them), and the map of every character of every
    reading (the whole 疏 of a passage, for an omission) need not be made; few rows have any."""
    reach = -1
    for start, end, _aid in spans:
        if start < reach:
            return True
        if end > reach:
            reach = end
    return False


def _own_text(text: str, start: int, end: int, aid: str, cover: dict[int, str]) -> str:
    """The characters of a reading the page marks for this entry (all of them unless another entry's mark
    holds some)."""
    if len(text) != end - start:
        return text
    return "".join(c for i, c in zip(range(start, end), text) if cover.get(i, aid) == aid)


def app_data(col: Collation, numbers: dict[str, int]) -> dict:
    """app id → what a view of the chapter says of the entry itself: its number in this view's 校勘記
    (``numbers``) and its row.  The rest of what the popover shows (:func:`app_table`) is the same in every
    view, so it is written once per chapter (``apps/NAME.js``, :func:`.search_index.write_chapter_apps`), not
    into each page: it was a quarter of every page's bytes, five times over for the five views of a 篇."""
    return {a.id: {"n": numbers.get(a.id), "row": a.row} for a in col.apps}


#: the last collation's entries (:func:`app_table`): a chapter's views are rendered one after the other
_last_table: list[tuple[Collation, tuple[dict[str, list], dict]]] = []


def app_table(col: Collation) -> dict[str, list]:
    """app id → what the popover shows: every witness's reading with its page and line (its number is the
    view's, :func:`app_data`); made once per collation (the parallel page, the base text, each witness as
    the reading text and the emended text show the same entries).

    An entry is a list, ``[row, layer, kind, context, readings]`` (the row ``r12`` as 12, :func:`.overview.row_key`;
    the layer its place in the chapter's ``layers``; its type and subtype their place in ``kinds``) and, where
    there is one, a dict of what few entries have (``f``: every reading's whole text, where the page marks part of one for
    another entry, as the 校勘記 quotes it; ``an``: where an addition to the base hangs, 「執」下, for the 校勘記
    read from the base, :func:`jiaokanji`; ``w``: the sigla of the readings, where they are not the chapter's
    ``sigla``); a reading ``[text, page, line on the leaf, unit]`` for the base's (the lemma; its text as its
    length where the context's text has it whole) and ``[text, page,
    line on the leaf, type, unit]`` for each witness's, in the order of the chapter's ``sigla`` (the base first):
    the siglum said again in every reading was a fifth of the entries.  The context is where it stands in the
    chapter's ``ctx`` string (:func:`context_code`).  Types, pages and units are places in the chapter's tables
    (:func:`app_tables`), each named once: the entries are most of a chapter's data, twenty thousand of them, and
    their keys, their types and their pages' and units' names written again on each were half of it.
    :func:`entry_fields` (and ``edition.js``'s ``entryOf``) read one back as the popover's fields."""
    return _tables(col)[0]


def app_tables(col: Collation) -> dict:
    """What the entries of :func:`app_table` name by place: ``types`` (the entries' and the readings'),
    ``pages`` (siglum → [[page id, its reference such as ``卷一 葉二a``], …]: ``edition.js`` writes a reading's
    place as that and its line, ``卷一 葉二a 行7``), ``units`` (siglum → [unit id, …]), ``sigla`` (the order of
    an entry's readings: the base, then the other witnesses), ``ctx`` (the base's text the entries' contexts
    are cut from, :func:`context_code`), ``layers`` and ``kinds`` (the entries' [type, subtype or null])."""
    return _tables(col)[1]


#: An entry's fields in :func:`app_table`'s order.
ENTRY_FIELDS = ("row", "layer", "type", "ctx", "r")


def entry_fields(entry: list, tables: dict) -> dict:
    """An entry of :func:`app_table` as the popover reads it: ``row``, ``layer``, ``type``, ``ctx``, ``r`` (every
    reading ``[siglum, text, page, line, type, unit, the page's reference]``, the lemma's type ``lem``) and the
    rare ones (``sub`` …); ``tables``: :func:`app_tables`."""
    types, pages, units = tables["types"], tables["pages"], tables["units"]
    out = dict(zip(ENTRY_FIELDS, entry))
    rare = entry[len(ENTRY_FIELDS)] if len(entry) > len(ENTRY_FIELDS) else {}
    sigla = rare.get("w", tables["sigla"])
    out["row"], out["layer"] = row_id(out["row"]), tables["layers"][out["layer"]]
    out["type"], sub = tables["kinds"][out["type"]]
    if sub:
        out["sub"] = sub

    def reading(s: str, r: list, type_: str, unit: int | None) -> list:
        page = pages[s][r[1]] if r[1] is not None else [None, ""]
        return [s, r[0], page[0], r[2], type_, units[s][unit] if unit is not None else None, page[1]]

    lem, *rest = out["r"]
    if isinstance(lem[0], int):  # the lemma as its length: the characters where the context has it
        at = out["ctx"] if isinstance(out["ctx"], int) else out["ctx"][0]
        lem = [tables["ctx"][at:at + lem[0]], *lem[1:]]
    out["r"] = [reading(sigla[0], lem, "lem", lem[3]),
                *(reading(s, r, types[r[3]], r[4]) for s, r in zip(sigla[1:], rest))]
    out["ctx"] = context_text(out["ctx"], (rare["f"][0] if "f" in rare else lem[0]), tables["ctx"])
    out.update({k: v for k, v in rare.items() if k != "w"})
    return out


def context_code(contexts: list[tuple[str, str]]) -> tuple[list[int | list[int] | str], str]:
    """The entries' contexts (each ``(context, lemma)``: the base's text around the lemma, the lemma in 【】, as
    :func:`jiaokan.collate.variants.cut_context` cuts it, and the lemma's whole text) as places in one string of
    the base's text, and that string: the contexts of the entries of a passage overlap (sixteen characters of
    text for each, most of it the neighbours' too), and written out they were a third of the entries.

    A context is ``off`` (the lemma starts at ``off`` in the string, with :data:`CONTEXT` characters on each
    side), ``[off, left, right]`` where a side has fewer (the edge of a passage), or the context itself where it
    is not the lemma between two runs of text (none in the book); :func:`context_text` cuts it again, and every
    one is checked against it here.  Offsets count characters (code points), as ``Array.from`` in the page."""
    text = ""
    codes: list[int | list[int] | str] = []
    for ctx, lemma in contexts:
        i = ctx.find("【")
        left, mid, right = ctx[:max(i, 0)], ctx[i + 1:i + 1 + len(lemma)], ctx[i + 2 + len(lemma):]
        if i < 0 or mid != lemma or ctx[i + 1 + len(lemma):i + 2 + len(lemma)] != "】":
            codes.append(ctx)
            continue
        plain = left + lemma + right
        j = text.find(plain, max(0, len(text) - len(plain) - 4 * CONTEXT))  # the same text as an entry just before
        if j < 0:  # else where the string's end is its start (the longest such end: the first place that is)
            j = text.find(plain[0], max(0, len(text) - len(plain) + 1))
            while j >= 0 and not plain.startswith(text[j:]):
                j = text.find(plain[0], j + 1)
            if j < 0:
                j = len(text)
            text += plain[len(text) - j:]
        off = j + len(left)
        code: int | list[int] = off if len(left) == len(right) == CONTEXT else [off, len(left), len(right)]
        # the context cut from the string again is the entry's (the string holds ``plain`` at ``j``: asked in C
        # first, a call of :func:`context_text` per entry only where it does not)
        codes.append(code if text.startswith(plain, j) or context_text(code, lemma, text) == ctx else ctx)
    return codes, text


def context_text(code: int | list[int] | str, lemma: str, text: str) -> str:
    """The context an entry's ``code`` names in ``text`` (:func:`context_code`); ``edition.js`` cuts it so too."""
    if isinstance(code, str):
        return code
    off, left, right = (code, CONTEXT, CONTEXT) if isinstance(code, int) else code
    end = off + len(lemma)
    return f"{text[off - left:off]}【{text[off:end]}】{text[end:end + right]}"


def _tables(col: Collation) -> tuple[dict[str, list], dict]:
    if _last_table and _last_table[0][0] is col:
        return _last_table[0][1]
    out = _app_table(col)
    _last_table[:] = [(col, out)]
    return out


def apps_src(ch: "Chapter") -> str:
    """Where a chapter's apparatus entries lie (:func:`app_table`), relative to the site root."""
    return f"apps/{ch.name}.js"


def _app_table(col: Collation) -> tuple[dict[str, list], dict]:
    out = {}
    owners, lost = _owners(col)
    starts = {s: page_starts(w) for s, w in col.witnesses.items()}
    # each type, page and unit named once, by its place (in the order met); the dicts are read inline, not through
    # a call per reading: forty-five thousand readings in the book
    types: dict[str | None, int] = {}
    pages: dict[str, dict[str, int]] = {s: {} for s in col.witnesses}
    page_names: dict[str, list[list]] = {s: [] for s in col.witnesses}
    units: dict[str, dict[str, int]] = {s: {} for s in col.witnesses}
    lines: dict[tuple[str, str | None, int | None], tuple[int | None, int | None]] = {}

    def where(k: tuple[str, str | None, int | None]) -> tuple[int | None, int | None]:
        """(the page's place in the table, the line on the leaf) of a place (siglum, page, line) that ``lines``
        lacks, kept there: once per place, as the entries of a line share it, and the witnesses' readings of an
        entry often do.  (Its caller asked ``lines`` first, inline: a reading's place is made and looked up once.)"""
        s, page, line = k
        if not page:
            hit: tuple[int | None, int | None] = (None, None)
        else:
            i = pages[s].get(page)
            if i is None:  # the page's reference once per page (:func:`.cite.place_parts` in two)
                i = pages[s][page] = len(page_names[s])
                page_names[s].append([page, page_reference(col.witnesses[s], starts[s], page)])
            hit = (i, leaf_line(starts[s], page, line))
        lines[k] = hit
        return hit

    # the layer's name is the file's table (``D.lz``, :func:`.search_index.write_chapter_apps`)
    sigla = [col.base, *(s for s in col.witnesses if s != col.base)]
    contexts: list[tuple[str, str]] = []
    layers: dict[str, int] = {}
    kinds: dict[tuple[str, str | None], int] = {}  # an entry's type and subtype
    base = col.base
    rows: dict[str, str | int | None] = {}  # row → its :func:`.overview.row_key` (a row has entry after entry)
    for a in col.apps:
        cut = False  # a reading of which the page marks only part for this entry
        lem_r = a.lem
        if lost and (a.row, base, a.layer, a.id) in lost:  # (few collations lose any: no key made for each)
            lem, cut = _own_text(lem_r.text, lem_r.start, lem_r.end, a.id, owners.get((a.row, base, a.layer), {})), True
        else:
            lem = lem_r.text
        un = units[base]
        ui = un.setdefault(lem_r.unit, len(un)) if lem_r.unit is not None else None
        at = lines.get(k := (base, lem_r.page, lem_r.line)) or where(k)
        rd: list[list] = [[lem, at[0], at[1], ui]]
        for s, r in a.readings.items():
            if lost and (a.row, s, a.layer, a.id) in lost:
                text, cut = _own_text(r.text, r.start, r.end, a.id, owners.get((a.row, s, a.layer), {})), True
            else:
                text = r.text
            un = units[s]
            ui = un.setdefault(r.unit, len(un)) if r.unit is not None else None
            at = lines.get(k := (s, r.page, r.line)) or where(k)
            rd.append([text, at[0], at[1], types.setdefault(r.type, len(types)), ui])
        rk = rows.get(a.row)
        if rk is None:
            rk = rows[a.row] = row_key(a.row)
        contexts.append((a.context, a.lem.text))
        entry: list = [rk, layers.setdefault(a.layer, len(layers)),
                       kinds.setdefault((a.type, a.subtype or None), len(kinds)), a.context, rd]
        rare: dict = {}
        if cut:
            full = [a.lem.text] + [r.text for r in a.readings.values()]
            if full != [x[0] for x in rd]:
                rare["f"] = full
        if not a.lem.text:
            rare["an"] = _place(a)
        order = [base, *a.readings]
        if order != sigla:
            rare["w"] = order
        if rare:
            entry.append(rare)
        out[a.id] = entry
    codes, ctx_text = context_code(contexts)
    for entry, code, (_ctx, lemma) in zip(out.values(), codes, contexts):
        entry[3] = code
        if not isinstance(code, str) and entry[4][0][0] == lemma:  # the lemma stands in the text: its length
            entry[4][0][0] = len(lemma)
    return out, {"types": list(types), "pages": page_names, "units": {s: list(t) for s, t in units.items()},
                 "sigla": sigla, "ctx": ctx_text, "layers": list(layers), "kinds": [list(k) for k in kinds]}


def _sig(s: str, page: str | None = None) -> str:
    pg = f'<span class="pg">{escape(page)}</span>' if page else ""
    return f'<span class="sig">{escape(s)}</span>{pg}'


def witness_name(w: Witness) -> str:
    """How a 校勘記 names a witness: 四庫本注疏, 四部叢刊本, 集釋本, 圖書集成本 (by its role and edition)."""
    from .cite import edition_name

    m = w.meta
    ed = edition_name(m)
    if m.role == "zhushu":
        return "四庫本注疏" if ed.startswith("文淵閣") else "注疏本"
    if m.role == "songben":
        return "四部叢刊本" if ed == "四部叢刊本" else "宋本"
    if m.role == "jishi":
        return "集釋本"
    if ed == "古今圖書集成本":
        return "圖書集成本"
    return m.siglum


#: the last collation's witness names (:func:`witness_name`): its 校勘記 name a witness in every sentence, read
#: from each witness in turn
_last_names: list[tuple[Collation, dict[str, str]]] = []


def _names(col: Collation) -> dict[str, str]:
    """siglum → :func:`witness_name`, made once per collation (the views of a chapter are made one after the other)."""
    if not _last_names or _last_names[0][0] is not col:
        _last_names[:] = [(col, {s: witness_name(w) for s, w in col.witnesses.items()})]
    return _last_names[0][1]


def _join(names: list[str]) -> str:
    return "、".join(dict.fromkeys(names))


def _readings_from(a: App, col: Collation, reader: str) -> tuple[str, dict[str, str]]:
    """(the reading text's own reading, siglum → every other witness's reading that differs from it)."""
    all_ = {col.base: a.lem.text, **{s: r.text for s, r in a.readings.items()}}
    own = all_.pop(reader, "")
    return own, {s: t for s, t in all_.items() if t != own}


def jiaokanji(a: App, col: Collation, reader: str | None = None) -> str:
    """One entry of the apparatus as a modern 校勘記 sentence (traditional glue words)::

        「俟」，四庫本注疏作「侯」。           a different reading
        四庫本注疏無「遂」字。                  an omission
        「執」下，四庫本注疏有「弣」字。        an addition, hung on the character before it
        注「俟」，…                              an entry in the 注 (the layer is named unless it is 经)
    """
    reader = reader or col.base
    if reader == col.base:
        own = a.lem.text
        differing = {s: r.text for s, r in a.differing().items()}
    else:
        own, differing = _readings_from(a, col, reader)
    head = "" if a.layer == "jing" else LAYER_HANT.get(a.layer, "")
    names = _names(col)
    if not own:  # others have more here: 「執」下，X有「弣」字
        groups: dict[str, list[str]] = {}
        for s, t in differing.items():
            groups.setdefault(t, []).append(names[s])
        place = _place(a) if reader == col.base else "此處"
        return head + place + "，" + "；".join(f"{_join(n)}有「{t}」字" for t, n in groups.items() if t) + "。"
    lost = [names[s] for s, t in differing.items() if not t]
    other: dict[str, list[str]] = {}
    for s, t in differing.items():
        if t:
            other.setdefault(t, []).append(names[s])
    parts = [f"{_join(n)}作「{t}」" for t, n in other.items()]
    if lost:
        parts.append(f"{_join(lost)}無{'此字' if len(own) == 1 else '此' + str(len(own)) + '字'}"
                     if parts else f"{_join(lost)}無")
    return f"{head}「{own}」，" + "，".join(parts) + "。"


def _footnote(a: App, col: Collation, reader: str) -> tuple[str, list[tuple[str, str | None]]]:
    """What an entry of the 校勘記 read from ``reader`` says: its sentence in the reading text's script, and the
    sigla with leaves of the reading text then of each witness that reads otherwise."""
    text = jiaokanji(a, col, reader)
    if col.witnesses[reader].meta.script == "simplified":
        text = hans(text)
    rds = {col.base: a.lem, **a.readings}
    own = rds.get(reader)
    sigs = [(reader, own.page if own else None)]
    sigs += [(s, r.page) for s, r in rds.items() if s != reader and (own is None or r.text != own.text)]
    return text, sigs


def footnote_html(a: App, n: int, col: Collation, reader: str | None = None) -> Markup:
    """One numbered entry of the 校勘記 (an ``li``): the sentence in the reading text's script, then the sigla and
    leaves of the witnesses it names, small, for the reader who checks."""
    text, sigs = _footnote(a, col, reader or col.base)
    parts = [f'<a class="fn-n" href="#ref-{escape(a.id)}" title="回到正文" data-i18n-title="fn-back">{n}</a>',
             f'<span class="jkj">{escape(text)}</span>']
    sig = " ".join(_sig(s, pg) for s, pg in sigs[1:])
    parts.append(f'<span class="fn-sig">{_sig(*sigs[0])} · {sig}</span>')
    label = VARIANT_ZH.get(a.type, a.type)
    cls = f"fn t-{a.type} l-{a.layer}"
    return Markup(f'<li{attrs(cls=cls, id="fn-" + a.id, value=str(n), data_app=a.id, data_type=label)}>{" ".join(parts)}</li>')


def reader_entries(col: Collation, reader: str) -> list[list]:
    """The 校勘記 read from ``reader`` as data, in its order (:func:`.marks.jiaokanji_order`): per entry [app id,
    sentence, [[siglum, leaf], …]] (:func:`_footnote`): what ``edition.js`` composes from :func:`reader_data`."""
    apps = {a.id: a for a in col.apps}
    out = []
    for aid in jiaokanji_order(col, reader):  # (in the order of the numbers)
        text, sigs = _footnote(apps[aid], col, reader)
        out.append([aid, text, [list(x) for x in sigs]])
    return out


def _steps(places: list[int]) -> list[int]:
    """A reader's order (places in the chapter's entries, mostly rising) as steps, each from the place before (the
    first from 0): small numbers, half the bytes of the places.  :func:`reader_order` (and ``edition.js``) add
    them up again."""
    return [b - a for a, b in zip([0, *places], places)]


def reader_order(data: dict, reader: str) -> list[int]:
    """The places in the chapter's entries of the 校勘記 read from ``reader`` (:func:`reader_data`'s ``o``)."""
    out: list[int] = []
    at = 0
    for step in data["o"][reader]:
        at += step
        out.append(at)
    return out


def reader_data(col: Collation, readers: list[str]) -> dict:
    """What ``edition.js`` needs to draw the reading view of each of ``readers`` from the parallel page: per reader
    the entries of its 校勘記 in order, as places in the chapter's entries (:func:`app_table`'s order; ``o``, each
    written as its step from the one before, :func:`reader_order`), and
    the words its sentences are made of: each witness's name (``names``, :func:`witness_name`), the layers'
    (``layers``, :data:`LAYER_HANT`) and, for the readers in simplified characters (``simplified``), the simplified
    form of every stretch between quotations their sentences have that differs (``hans``, :func:`.sentences.hans`).  The script composes
    the sentences and sigla :func:`reader_entries` gives (the browser tests hold the two together): they were a
    quarter of the chapter's data, every entry's sentence written once per witness."""
    place = {a.id: i for i, a in enumerate(col.apps)}
    order = {s: [place[aid] for aid in jiaokanji_order(col, s)]  # (each in the order of its numbers)
             for s in readers}
    glue: dict[str, str] = {}
    simplified = [s for s in readers if col.witnesses[s].meta.script == "simplified"]
    for s in simplified:
        for i in order[s]:
            for k, chunk in enumerate(jiaokanji(col.apps[i], col, s).split("「")):
                g = chunk if k == 0 else chunk.partition("」")[2]
                if g not in glue:
                    glue[g] = hans(g)
    return {"o": {s: _steps(o) for s, o in order.items()}, "names": dict(_names(col)), "layers": LAYER_HANT, "simplified": simplified,
            "hans": {k: v for k, v in glue.items() if k != v}}


#: A layer gap's note, in the interface's default language (简); the page's script puts it in 繁 or English
#: (``data-i18n`` key ``gap-KIND`` with these arguments: ``{layer}``, ``{w}``).
GAP_TEXT = {"edge": "{w} 节录始末在此段内", "lacuna": "{layer}：{w} 底本缺叶", "layer": "{layer} 仅见于 {w}"}


def gap_text(g: LayerGap, present_in_row: set[str]) -> dict | None:
    """"疏 仅见于 ZS" for a layer gap worth a note in this row (key, arguments, text); None when the row lacks
    a witness altogether."""
    if g.kind in ("edge", "lacuna"):
        w = "、".join(g.absent)
    elif not [s for s in g.absent if s in present_in_row]:
        return None
    else:
        w = " ".join(g.present)
    key, args, text = _gap_note(g.kind, g.layer, w)
    return {"key": key, "args": args, "text": text, "present": " ".join(g.present)}


@lru_cache(maxsize=4096)
def _gap_note(kind: str, layer: str, w: str) -> tuple[str, Markup, str]:
    """A layer gap's note (:func:`gap_text`): its key, arguments and text, made once for each kind, layer and
    witnesses (the same note stands on row after row: "疏 仅见于 ZS" on every row of a 疏 page)."""
    args = {"w": w} if kind == "edge" else {"layer": LAYER_ZH.get(layer, layer), "w": w}
    k = kind if kind in GAP_TEXT else "layer"
    text = GAP_TEXT[k].format(**{"layer": "", "w": "", **args})
    return f"gap-{k}", attr_json({**args, "layer": layer} if "layer" in args else args), text
