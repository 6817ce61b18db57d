"""The search index and the place records of a chapter, written at render time as JavaScript data files.

Why data files and not a search of the page: the page renders its rows lazily, and
a scholar searches what a witness *reads*, which the page interrupts with 案 notes,
page and line breaks, labels and punctuation.  So, per chapter, one stream per
witness and layer: the layer's reading characters joined across the whole chapter
(notes, breaks and labels left out, punctuation dropped as the collation drops it),
with anchors that say which unit, row, page and line each stretch belongs to.  The
案 notes are a stream of their own (layer ``an``).  ``司射遂袒执弓`` then finds the
集释's 经 although a 案 note stands between 袒 and 执.

Files (loadable from file:// by ``<script src>``, no fetch):

* ``search/NAME.js``   one chapter: streams, witnesses, the
  citation records of every piece (:mod:`.cite`; its places as runs of lines, :func:`line_runs`) and the 案
  notes with their verdicts; what is said again (a page label, a unit's id, a row, an offset's leading
  digits) is written once, and ``search.js`` (``expand``) makes the records the scripts read when the file
  is first used;
* ``search/book.js``   the book: which chapters there are and where their files lie;
* ``search/fold.js``   the book's folding table, one for every chapter (:func:`write_book_search`);
* ``apps/NAME.js``     what every view of a chapter loads with the page: the overview strip and, for a
  collation, its apparatus entries (the popover's data; each page adds its own numbers): once per chapter, not
  once per view.

Folding (script, 异体, taboo forms) is the collation's own :func:`jiaokan.normalize.key`,
shipped as the book's table (:func:`.searchfold.fold_table`); the page applies it to
the stream and the query alike, or not at all in exact-form mode (荅 ≠ 答).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import sub
from pathlib import Path
from typing import Iterable, Iterator

from ..emend.verdict import NoteVerdict
from ..emend.words import claim_sentences
from ..io import atomic_write_bytes, json_bytes
from ..model import LAYERS, Gaiji, Inline, Label, LabelGaiji, LineBreak, Note, PageBreak, Text, Witness
from ..normalize import strip_ignorable
from ..normalize.ignorable import NEVER_IGNORABLE
from .appview import app_table, app_tables, apps_src, reader_data
from .overview import WIDTH_LAYERS, overview_cells, overview_data, remember_widths, row_key
from .chapter import Chapter
from .cite import cite_head, leaf_by_rule, leaf_ref, work_title
from .html import LAYER_ZH, lang_of
from .notes import Verdicts
from .searchfold import chars_of, fold_table, remember
from .sentences import hans, reason_zh, target_en, target_zh
from .truth import shown_claim, shown_verdict

#: Characters of context kept on each side of a note's place (the "anchored text").
ANCHOR_CHARS = 12

#: A character outside the ideograph blocks (:data:`jiaokan.normalize.ignorable.NEVER_IGNORABLE`): every one a
#: stream drops is one of them.
_NOT_IDEOGRAPH = re.compile(f"[^{NEVER_IGNORABLE}]")


@dataclass
class _Stream:
    """One witness's layer: its reading characters and where they come from.

    The characters are kept as the strings added (``parts``) and counted (``n``): a list of one-character strings
    cost a Python object per character of the book, and the stream is joined once, at the end."""

    siglum: str
    layer: str
    parts: list[str] = field(default_factory=list)
    n: int = 0  # characters so far
    anchors: list[list] = field(default_factory=list)  # [offset, element id, row id]
    pages: list[list] = field(default_factory=list)  # [offset, page label]
    #: of what was added that held characters the stream drops, its characters outside the ideograph blocks (those
    #: it dropped among them), for the book's folding table; not the whole of it, whose ideographs the stream holds
    dropped: list[str] = field(default_factory=list)
    _page: str | None = None

    def at(self, target: str, row: str | None) -> None:
        if self.anchors and self.anchors[-1][0] == self.n:
            self.anchors[-1] = [self.n, target, row]
        else:
            self.anchors.append([self.n, target, row])

    def add(self, s: str, page: str | None) -> None:
        if page != self._page and page is not None:
            self.pages.append([self.n, page])
            self._page = page
        t = strip_ignorable(s)
        if len(t) != len(s):
            self.dropped += _NOT_IDEOGRAPH.findall(s)
        if t:
            self.parts.append(t)
            self.n += len(t)

    def tail(self, k: int) -> str:
        """The last ``k`` characters so far."""
        out: list[str] = []
        got = 0
        for t in reversed(self.parts):
            out.append(t)
            got += len(t)
            if got >= k:
                break
        return "".join(reversed(out))[-k:]

    def text(self) -> str:
        if len(self.parts) > 1:
            self.parts[:] = ["".join(self.parts)]
        return self.parts[0] if self.parts else ""

    def to_json(self, pages: "_Pages", units: dict[str, int]) -> dict:
        """``a``: where each unit starts, flat, [offset, unit, …]: the unit as its place in the witness's citation
        records (``cite``, whose ``rows`` give its row), a 案 note by its id (its record gives the row); ``pg``:
        where each page starts, flat, [offset, page, …], the page as its place in ``pl`` (:class:`_Pages`).
        Each offset is counted from the one before (a few digits, not five).  ``search.js`` (``expand``) makes
        the [offset, id, row] and [offset, label] pairs again."""
        targets = [x[1] for x in self.anchors]
        a = _flat([x[0] for x in self.anchors], map(units.get, targets, targets))
        pg = _flat([x[0] for x in self.pages], map(pages.ix, [x[1] for x in self.pages]))
        return {"w": self.siglum, "l": self.layer, "t": self.text(), "a": a, "pg": pg}


def _flat(offsets: list[int], ids: Iterable[object]) -> list:
    """[offset − the offset before (the first's from 0), id, …] of offsets and their ids (:meth:`_Stream.to_json`),
    made in C (a Python step per anchor was most of it: a stream has one for every piece)."""
    return list(chain.from_iterable(zip(map(sub, offsets, [0, *offsets]), ids)))


class _Pages:
    """A witness's page labels, each written once (``pl``): the citation records and the streams name a page by
    its place in that list (a label such as ``003-12b`` said again at every line was a fifth of the search
    data), and the 卷 and 葉 of a label are left to the page's script where its rule makes them
    (:func:`leaf_by_rule`, ``search.js`` ``leafRef``); ``pages`` holds only the rest."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.refs: dict[str, list[str]] = {}  # label → [卷, 葉] of a page break's label

    def ix(self, page: str | None) -> int | None:
        if page is None:
            return None
        return self.index.setdefault(page, len(self.index))

    def to_json(self, juan: str) -> dict:
        """``pl``: the labels; ``pages``: label → [卷, 葉] where the script's rule would say otherwise, 0 where
        a label is no page break's (the citation then shows it as it stands, as before)."""
        odd: dict[str, object] = {}
        for page in self.index:
            ref = self.refs.get(page)
            if ref is None:
                odd[page] = 0
            elif leaf_by_rule(page, juan) != ref:
                odd[page] = ref
        return {"pl": list(self.index), "pages": odd}


def _row_of(ch: Chapter) -> dict[tuple[str, str], str]:
    """(siglum, unit id) → the id of the row (or front/back section) that shows it."""
    out: dict[tuple[str, str], str] = {}
    for row in ch.rows():
        for s, ids in row.units.items():
            for uid in ids:
                out[(s, uid)] = row.id
    for s, w in ch.witnesses.items():
        for d in w.divs:
            if d.type in ("front", "back"):
                for u in d.units:
                    out.setdefault((s, u.id), d.type)
    return out


def _witness_index(s: str, w: Witness, rows: dict[tuple[str, str], str], verdicts: Verdicts | None,
                   zs: str | None, names: dict[str, str]) -> tuple[list[_Stream], dict, dict, _Pages]:
    """One walk over a witness: its streams, the citation records of its pieces, its notes, its pages; and what it
    holds, for the book's folding table (:func:`.searchfold.remember`): its streams' characters, those they drop,
    and the labels' and gaiji's (as read and as written); and each unit's 经 and 注 characters, for the overview
    strip (:func:`.overview.remember_widths`)."""
    streams: dict[str, _Stream] = {}
    cite: dict[str, list] = {}
    notes: dict[str, dict] = {}
    pages = _Pages()
    line: int | None = None  # the line within the page (行): source lines counted from the last page break
    page: str | None = None  # the page in force (as :class:`jiaokan.model.Where` carries it)
    after: list[tuple[dict, _Stream, int]] = []  # a note, its host stream, where it stands in it
    held: list[str] = []  # what the streams do not hold of the witness's characters
    widths: dict[str, int] = {}  # unit id → its 经 and 注 characters, for the overview strip
    gaiji: set[tuple[str, str | None]] = set()  # (code, character) of the gaiji whose source ``held`` holds
    for u in w.units():
        row = rows.get((s, u.id))
        records: list = []
        cite[u.id] = records
        width = 0
        for p in u.pieces:
            if page is None:
                page = p.loc.page
            host = streams.get(p.layer)
            if host is None:  # (not setdefault: its default, a new stream, was made for every piece of the book)
                host = streams[p.layer] = _Stream(s, p.layer)
            host.at(u.id, row)
            own: list[list] = []  # [offset in the piece, page, line] where the place changes
            rec = [piece_key(u.id, p.id if p.layer != "jing" else u.id), own]
            records.append(rec)
            offset = 0
            note: Note | None = None
            content = p.content
            # the piece's reading since the host stream last took it: given to it in one piece (one
            # :func:`strip_ignorable` and one :meth:`_Stream.add`, not one per text run) where the page turns, a note
            # starts (which quotes the host's text before it) and at the piece's end
            run: list[str] = []
            moved = True  # a line or page break since the last place of the piece's own ``own``
            # most pieces hold no note: their nodes as they stand (in C), with no step of the nested walk each
            for node, in_note in (_nodes(content) if Note in map(type, content) else zip(content, _NO_NOTE)):
                kind = type(node)
                if kind is not Text:  # a text run turns no line nor page
                    if kind is LineBreak:
                        if line is not None:
                            line += 1
                            moved = True
                        if in_note is None:  # (a break reads nothing: in the piece's own text, nothing more to do)
                            continue
                    elif isinstance(node, PageBreak):
                        if run:
                            host.add("".join(run), page)
                            run = []
                        line = 0
                        moved = True
                        page = node.n
                        if node.n not in pages.refs:  # every page the witness turns (a 案 note names its page too)
                            pages.refs[node.n] = list(leaf_ref(node.n, node.juan, w.meta.juan))
                            pages.ix(node.n)
                        if in_note is None:
                            continue
                    elif isinstance(node, LabelGaiji):
                        held.append(node.source)  # (it reads nothing, as a label)
                    elif isinstance(node, Gaiji):  # (its source made once for each code: a property that parses it)
                        if (node.code, node.char) not in gaiji:
                            gaiji.add((node.code, node.char))
                            held += (node.source, node.reading)
                    elif isinstance(node, Label):
                        held.append(node.text)  # (it reads nothing)
                if in_note is not None:
                    if in_note is not note:
                        if run:
                            host.add("".join(run), page)
                            run = []
                        note = in_note
                        an = streams.setdefault(note.layer, _Stream(s, note.layer))
                        an.at(note.id or u.id, row)
                        rec_n = {"w": s, "u": u.id, "r": row, "text": note.text,
                                 "before": host.tail(ANCHOR_CHARS), "layer": p.layer,
                                 "page": page, "line": line,
                                 "v": _verdict(verdicts, note.id, zs, names)}
                        if not note.id:  # else its key (:func:`expand_notes`)
                            rec_n["xmlid"] = note.id
                        notes[note.id or f"{u.id}.an{len(notes)}"] = rec_n
                        after.append((rec_n, host, host.n))
                    streams[note.layer].add(node.reading, page)
                    continue
                if kind is Note:
                    continue
                r = node.text if type(node) is Text else node.reading  # (a text run's, without its property; type()
                # again, not ``kind``: the type checker narrows ``node`` only so)
                if r:
                    if moved:
                        moved = False
                        if not own or own[-1][1] != page or own[-1][2] != line:
                            own.append([offset, page, line])
                    run.append(r)
                    offset += len(r)
            if run:
                host.add(run[0] if len(run) == 1 else "".join(run), page)
            if not own:
                own.append([0, page, line])
            rec[1] = line_runs(own, pages)
            if p.layer in WIDTH_LAYERS:  # (its reading's length: the piece's text, as :func:`.overview.unit_widths`)
                width += offset
        widths[u.id] = width
    for rec_n, host, at in after:  # the text right after each note, now that the host streams are whole
        rec_n["after"] = host.text()[at:at + ANCHOR_CHARS]
    held += [x.text() for x in streams.values()]
    held += [t for x in streams.values() for t in x.dropped]
    remember(w, _characters("".join(held)))
    remember_widths(w, widths)
    order = {layer: i for i, layer in enumerate(LAYERS)}
    return sorted(streams.values(), key=lambda x: order.get(x.layer, len(order))), cite, notes, pages


def _characters(text: str) -> frozenset[str]:
    """``frozenset(text)``, made from its code points: a set of ints (the whole witness's text, each character
    an int object whose hash is its value) costs a quarter less than one of one-character strings (each made,
    then hashed), which was a sixth of the index."""
    return frozenset(map(chr, set(memoryview(text.encode("utf-32-le", "surrogatepass")).cast("I"))))


#: the note each node of a piece that holds none stands in (:func:`_witness_index`)
_NO_NOTE = repeat(None)


def _nodes(content: list[Inline], note: Note | None = None) -> Iterator[tuple[Inline, Note | None]]:
    """Every node of ``content`` in :func:`jiaokan.model.walk`'s order, each with the note it stands in (None for
    the piece's own): the index reads no more of a walk's step, and making the steps was a fifth of it."""
    for node in content:
        yield node, note
        if isinstance(node, Note):
            yield from _nodes(node.content, node)


def line_runs(places: list[list], pages: _Pages) -> list[list]:
    """A piece's places ([offset, page, line] where the place changes) as its citation record keeps them: one
    list per run of lines that follow each other on a page, the page's number in the witness's list
    (:class:`_Pages`), the run's first line, then where its first line starts and how long each line is,
    ``[[4, 8, 0], [5, 1, 18, 20]]`` (page 4 line 8 from offset 0; page 5 line 1 from 18, line 2 from 38).  A
    piece turns a line every twenty characters and a leaf every hundred or two, so the page is written once a
    leaf and a line not at all but where a run starts (all but a few dozen of the book's lines follow the one
    before); ``search.js`` (``expand``) makes the places again."""
    out: list[list] = []
    prev_page: str | None = None
    prev_line: int | None = None
    prev_off = 0
    for off, page, line in places:
        if out and page == prev_page and line is not None and prev_line is not None and line == prev_line + 1:
            out[-1].append(off - prev_off)
        else:
            out.append([pages.ix(page), line, off])
        prev_page, prev_line, prev_off = page, line, off
    return out


def piece_key(unit: str, piece: str | None) -> str | None:
    """A piece's id as its unit's citation record names it: "" for the unit's own id (its 经), ``.zhu1`` for
    ``JS3.5.zhu1`` in unit ``JS3.5`` (the unit's id said again was a fifth of the records), else the id (an XML
    id never starts with a dot)."""
    if piece == unit:
        return ""
    return piece[len(unit):] if piece is not None and piece.startswith(unit + ".") else piece


def _verdict(verdicts: Verdicts | None, note_id: str | None, zs: str | None, names: dict[str, str]) -> dict | None:
    """The verdict as the 案 dialog shows it: the badge after the truth checks (:mod:`.truth`), and per claim its
    shown verdict, its readings and what it says in 简/繁/English.  Machine names (rules, targets' keys,
    the stage's own one-line summary) stay out of the page's data."""
    v: NoteVerdict | None = verdicts.get(note_id or "") if verdicts is not None else None
    if v is None:
        return None
    shown = shown_verdict(v)
    claims = []
    first_problem = None
    before: dict = {}
    for c in v.claims:
        cs = shown_claim(c)
        if cs.key == "uncertain" and first_problem is None:
            first_problem = c
        # its sentence in the three languages, made once (:func:`.sentences.say_zh`, ``say_hans`` and ``say_en``
        # each make all three and keep one)
        said = claim_sentences(c, cs.key, names)
        full = {"id": c.id, "verdict": c.verdict, "kind": c.kind, "lemma": c.lemma, "reading": c.reading, "target": c.target,
                "shown": cs.key, "witness": c.witness, "anchor": c.anchor, "readings": dict(c.readings),
                "say_hant": said["zh-Hant"], "say_hans": said["zh-Hans"], "say_en": said["en"]}
        claims.append(_said_once(full, before, note_id or ""))
        before = full
    out = {"kind": v.kind, "shown": shown.key, "reading": v.reading, "claims": claims, "zs": zs}
    if shown.key == "uncertain":  # the only badge the dialog says why of
        reason_t = reason_zh(shown, first_problem, v)
        out.update(reason=shown.reason, reason_hant=reason_t, reason_hans=hans(reason_t))
    return out


#: What a claim of a note's record leaves out where it is the claim's before it (:func:`_said_once`).
SAME_AS_BEFORE = ("anchor", "readings")
#: How a claim's id that extends its note's goes on (``JS1.5.an1@songben``, ``~2``, ``.c1``): none of them starts an
#: XML id, so a claim's id written from one of them is its note's followed by it.
_AFTER_NOTE = (".", "@", "~")


def _said_once(c: dict, before: dict, note_id: str) -> dict:
    """A claim of a note's record as the chapter's file writes it: its id after its note's (``@songben``, ``~2``:
    :data:`_AFTER_NOTE`; none where it is the note's), its shown verdict only where it is not its own (``verdict``, else
    ``unchecked``), its anchor and readings only where they are not the claim's before it (a claim about a 宋本
    or the 释文 follows the claim that implies it, at the same place).  :func:`expand_notes` (and ``search.js``'s
    ``expand``) give every member back."""
    out = dict(c)
    cid = out.pop("id")
    if cid != note_id:
        rest = cid[len(note_id):] if note_id and cid.startswith(note_id) else ""
        out["id"] = rest if rest[:1] in _AFTER_NOTE else cid
    if out["shown"] == (out["verdict"] or "unchecked"):
        del out["shown"]
    for k in SAME_AS_BEFORE:
        if k in before and before[k] == out[k]:
            del out[k]
    return out


def expand_notes(notes: dict[str, dict]) -> dict[str, dict]:
    """The notes of a chapter's file (:func:`chapter_index`) with every member the scripts read: each note's
    ``xmlid`` (its key where left out), each claim's ``id``, ``shown``, ``anchor`` and ``readings``
    (:func:`_said_once`); as ``search.js``'s ``expand`` makes them."""
    out: dict[str, dict] = {}
    for k, n in notes.items():
        n = {**n, "xmlid": n.get("xmlid", k)}
        v = n.get("v")
        if v:
            claims: list[dict] = []
            for c in v.get("claims") or []:
                before = claims[-1] if claims else {}
                cid = c.get("id")
                c = {**{x: before[x] for x in SAME_AS_BEFORE if x in before and x not in c}, **c,
                     "id": k if cid is None else (k + cid if cid[:1] in _AFTER_NOTE else cid)}
                c.setdefault("shown", c.get("verdict") or "unchecked")
                claims.append(c)
            n["v"] = {**v, "claims": claims}
        out[k] = n
    return out


def _targets(notes: dict[str, dict]) -> dict[str, list[str]]:
    """Whom the claims of the chapter's notes are about, each once: target → [繁, English] (``tg``; the names said
    again in every claim were a tenth of the verdicts; ``search.js`` ``expand`` gives each claim its own)."""
    out: dict[str, list[str]] = {}
    for n in notes.values():
        for c in (n["v"] or {}).get("claims", ()):
            if c["target"] not in out:
                out[c["target"]] = [target_zh(c["target"]), target_en(c["target"])]
    return out


def share_search_data(chapters: list[Chapter]) -> None:
    """Set each chapter's :attr:`.Chapter.search_from`: a witness that an earlier chapter of the same 篇 (the same
    label) already indexes, as the same text under the same siglum, is left out of this chapter's data file, which
    names that chapter instead (``from``); the page loads both (``search.js``).  The 疏 collation of a 篇
    (``NAME-shu``: the 注疏 against the 单疏本) held the whole 注疏 again, a sixth of the search data; the book's
    search now finds each witness's text once, under its first page."""
    first: dict[int, Chapter] = {}
    for ch in chapters:
        ch.search_from = {}
        for s, w in ch.witnesses.items():
            owner = first.setdefault(id(w), ch)
            if owner is not ch and owner.witnesses.get(s) is w and owner.label == ch.label \
                    and owner.tei_files.get(s) == ch.tei_files.get(s):
                ch.search_from[s] = owner.name


def chapter_index(ch: Chapter, verdicts: Verdicts | None = None) -> dict:
    """Everything the chapter's search, citation and 案 dialog need, as one JSON-able dict: of the witnesses
    another chapter's data holds (:attr:`.Chapter.search_from`), only where that is (``from``: siglum → [chapter,
    its data file]) and the chapter's witnesses in order (``sigla``)."""
    rows = _row_of(ch)
    zs = next((s for s, w in ch.witnesses.items() if w.meta.role == "zhushu"), None)
    streams: list[dict] = []
    wits: dict[str, dict] = {}
    cite: dict[str, dict] = {}
    notes: dict[str, dict] = {}
    names = {s: work_title(w.meta) for s, w in ch.witnesses.items()}
    own = {s: w for s, w in ch.witnesses.items() if s not in ch.search_from}
    # each row's key once (a row shows a unit of every witness)
    keys: dict[str | None, str | int | None] = {row: row_key(row) for row in set(rows.values())}
    for s, w in own.items():
        ss, c, n, pages = _witness_index(s, w, rows, verdicts, zs, names)
        units = {uid: i for i, uid in enumerate(c)}
        streams.extend(x.to_json(pages, units) for x in ss)
        cite[s] = c
        notes.update(n)
        m = w.meta
        juan = leaf_ref(None, None, m.juan)[0]
        wits[s] = {"title": m.title or m.file, "work": work_title(m), "script": m.script, "lang": lang_of(m.script),
                   "tei": ch.tei_files.get(s), **pages.to_json(juan), "role": m.role, "head": cite_head(m, ch.label),
                   "juan": juan, "rows": [keys.get(rows.get((s, uid))) for uid in c]}
    shared = {"sigla": ch.sigla, "from": {s: [name, data_src(name)] for s, name in ch.search_from.items()}} \
        if ch.search_from else {}
    # a witness's 疏 that the 疏 page shows (:mod:`.shulink`): a hit in it is shown there (``search.js`` hrefOf)
    away = {"away": {s: {"shu": page} for s, page in ch.shu_pages.items()}} if ch.shu_pages else {}
    return {
        "name": ch.name, "page": ch.page, "base_page": ch.base_page, "label": ch.label, "base": ch.base,
        "layers": {k: v for k, v in LAYER_ZH.items()}, "wits": wits,
        "s": streams, "cite": cite, "notes": notes, "tg": _targets(notes), **shared, **away,
    }


#: What JSON may hold that a script in a page may not: ``<``, ``>``, ``&`` (``</script>``, ``<!--``) and the line
#: separators older JavaScript parsers end a string at; as UTF-8, so the whole file is replaced in C.
_UNSAFE = ((b"<", b"\\u003c"), (b">", b"\\u003e"), (b"&", b"\\u0026"),
           ("\u2028".encode(), b"\\u2028"), ("\u2029".encode(), b"\\u2029"))


def _safe_json(data: object) -> bytes:
    """DATA as compact UTF-8 JSON (:func:`jiaokan.io.json_bytes`, orjson: the search data were 7% of the render
    stage in the stdlib's encoder) that is safe in any HTML context."""
    s = json_bytes(data)
    for a, b in _UNSAFE:
        if a in s:
            s = s.replace(a, b)
    return s


def js_data(slot: str, data: object) -> bytes:
    """A script that puts DATA at ``window.jiaokanData.SLOT``; DATA as JSON that is safe in any HTML context.

    The file stands alone (no loader needs to run first), so the page may load it in any order.

    ``<``, ``>`` and ``&`` are escaped as ``\\u003c`` …, so a witness text holding
    ``</script>`` stays a string, whether the file is loaded by ``<script src>`` or
    pasted into a page; U+2028/2029 are escaped for older JavaScript parsers.
    """
    path = b"".join(b"[" + _safe_json(k) + b"]" for k in slot.split("/"))
    return (b"(function(D){D.chapters=D.chapters||{};D" + path + b"=" + _safe_json(data)
            + b";})(window.jiaokanData=window.jiaokanData||{});\n")


def search_src(ch: Chapter) -> str:
    """Where the chapter's data file lies, relative to the site root."""
    return data_src(ch.name)


def data_src(name: str) -> str:
    """Where the data file of the chapter called ``name`` lies, relative to the site root."""
    return f"search/{name}.js"


def write_chapter_search(ch: Chapter, out: Path, verdicts: Verdicts | None) -> tuple[dict[str, int], dict[str, frozenset[str]]]:
    """Write one chapter's data files (search, and its apparatus entries when it is a collation); file name →
    bytes, and siglum → the characters of each witness it indexes, for the book's folding table
    (:func:`.searchfold.remember` them where the book's is made, :func:`write_book_search`)."""
    data = js_data(f"chapters/{ch.name}", chapter_index(ch, verdicts))
    atomic_write_bytes(out / search_src(ch), data)
    held = {s: chars_of(w) for s, w in ch.witnesses.items() if s not in ch.search_from}
    return {search_src(ch): len(data), **write_chapter_apps(ch, out)}, held


def write_chapter_apps(ch: Chapter, out: Path) -> dict[str, int]:
    """Write what every view of the chapter loads by ``<script src>`` (``apps/NAME.js``): the overview strip
    (``window.jiaokanData.overview``, :func:`.overview.overview_data`) and, for a collation, its apparatus entries
    (``window.jiaokanData.apps``, their layers' names ``lz``, the types, pages and units they name ``at``), which each view
    completes with its own numbers (:func:`.appview.app_data`), and what the 校勘記 read from each witness is made
    of (``readers``, :func:`.appview.reader_data`: the parallel page becomes that witness's reading view with
    them); file name → bytes."""
    apps_by_row: dict[str, list] = {}
    for a in (ch.collation.apps if ch.collation else []):
        apps_by_row.setdefault(a.row, []).append(a)
    data = js_data("overview", overview_data(overview_cells(ch, apps_by_row)))
    col = ch.collation
    if col is not None:
        data += js_data("lz", LAYER_ZH) + js_data("apps", app_table(col)) + js_data("at", app_tables(col))
        data += js_data("readers", reader_data(col, [s for s in col.witnesses if s != col.base or ch.base_drawn]))
    atomic_write_bytes(out / apps_src(ch), data)
    return {apps_src(ch): len(data)}


def write_book_search(chapters: list[Chapter], out: Path) -> dict[str, int]:
    """Write the book's data files: the chapters and where their data is (``search/book.js``), and the folding
    table of every character the book holds (``search/fold.js``, ``window.jiaokanData.fold``), which every page's
    search loads with its chapter's data.  One table for the book finds what each chapter's own did: a character
    folds to its key whatever page it is on, and one the chapter lacks cannot match there (the chapters' tables,
    one in each of their files, were the same few thousand entries again and again: 6% of the search data);
    file name → bytes."""
    book = [{"name": ch.name, "page": ch.page, "label": ch.label, "src": search_src(ch), "sigla": ch.sigla,
             "lang": lang_of(ch.witnesses[ch.base].meta.script)} for ch in chapters]
    data = js_data("book", {"chapters": book})
    atomic_write_bytes(out / "search" / "book.js", data)
    fold = js_data("fold", book_fold(chapters))
    atomic_write_bytes(out / FOLD_SRC, fold)
    return {"search/book.js": len(data), FOLD_SRC: len(fold)}


#: Where the book's folding table lies (:func:`write_book_search`), relative to the site root.
FOLD_SRC = "search/fold.js"


def book_fold(chapters: list[Chapter]) -> dict[str, str]:
    """The folding table of every witness of the book's chapters (each once)."""
    return fold_table({id(w): w for ch in chapters for w in ch.witnesses.values()}.values())
