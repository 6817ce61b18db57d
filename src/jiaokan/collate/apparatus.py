"""A collation → TEI apparatus (parallel segmentation, internal location).

Per row and layer, one ``ab`` holds the base text with ``app`` entries inline:
``lem`` (the base, with the witnesses that agree in ``@wit``), one ``rdg`` per
differing witness with its ``@type`` where it is not its app's (most readings are of
their entry's type: said once, on the ``app``), an empty ``rdg`` for an omission.
``@corresp`` on a row's first ``ab`` (its later ones, the row's other layers, point
where it does), ``lem`` and ``rdg`` points into each witness's TEI file
(``file.xml#passage-id``); ``@n`` on readings is the page; ``pb`` marks where
the base turns a page.

Every witness reads back exactly (:func:`.apparatus_reader.rebuild_from_tei`):
the row and layer is cut into segments (:mod:`.segments`), and text a witness
lacks is an ``app`` with an empty reading for it (``type`` layer, edge or
lacuna, the last holding ``gap``), never base text outside an ``app``.  No
``note`` per entry: viewers show each as an icon; the header explains the types.

A witness's layer collated in another apparatus (the 注疏's 疏 in ``NAME-shu``: :mod:`.elsewhere`) is not
copied where that witness alone has it: its reading there holds a ``ptr`` to the other apparatus's
``ab`` elements that hold it (TEI's pointer to where a thing is, as a reading's content; not ``@copyOf``
on the ``ab``, whose copied content would be every listed witness's by the rules of parallel
segmentation, and which points to one element where a row's 疏 can be in several).
"""

from __future__ import annotations

import copy
import itertools
from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import compress
from operator import ne
from pathlib import Path
from typing import Callable, Sequence, TypeVar

from lxml import etree

from ..model import UNKNOWN_CHAR, Witness
from ..tei.header import comparison_document
from ..tei import markup as M
from ..tei.build import TEI_NS, E, language_tag
from ..tei.validate import write_checked
from ..tei.writer import char_entry, unit_targets
from .apparatus_reader import fold_script
from .elsewhere import LayerElsewhere, pointed_rows
from .layertext import LayerText
from .model import App, Collation, strongest
from .variants import entry_subtype
from .segments import Segment, row_layer_segments

TYPE_DOC = {
    "uncertain": "the only difference involves an unknown character (unresolved gaiji, private-use glyph): "
                 "a gap in knowledge, not a reading",
    "orthographic": "the witnesses differ only in variant form (异体), e.g. 荅/答",
    "taboo": "a taboo (避讳) form or substitution, e.g. 𤣥/玄, 元/玄",
    "substantive": "a different character (subtype minor: 古今字/通假 such as 于/於)",
    "omission": "the witness lacks what the base has (empty rdg)",
    "addition": "the witness has what the base lacks (empty lem)",
    "transposition": "the same characters in another order or place",
    "layer": "a layer (e.g. 疏) present in one witness of a passage and absent from another: the witness that "
             "lacks it has an empty reading (rdg, or lem for the base)",
    "edge": "text before a witness begins or after it ends (an excerpt): the witness has an empty reading",
    "lacuna": "text a witness lost with a page of its source: its reading holds gap reason=lost",
    "emendation": "a 四库 editors' 案 note applied (see the emendation report)",
    "script": "not a variant: the same reading in another script or with other punctuation, given so that the "
              "witness reads in its own characters (only with --witness-script own)",
}


def variant_taxonomy() -> etree._Element:
    """``classDecl``: one ``category`` per variant type (``#vt-substantive`` …), which ``@ana`` points to
    (a copy of one made once: every apparatus has the same)."""
    return copy.deepcopy(_taxonomy())


@lru_cache(maxsize=1)
def _taxonomy() -> etree._Element:
    return E.classDecl(E.taxonomy(
        E.desc("Variant types of this apparatus"),
        *(E.category(E.catDesc(E.term(t), f": {doc}"), xml_id=ana_id(t)) for t, doc in TYPE_DOC.items()),
        xml_id="variant-types"))


def ana_id(vtype: str) -> str:
    return f"vt-{vtype}"


def _ana(vtype: str | None) -> str | None:
    return f"#{ana_id(vtype)}" if vtype in TYPE_DOC else None


def _witness_file(w: Witness, tei_names: dict[str, str]) -> str:
    """The witness's TEI file as the apparatus points at it: a URI relative to the apparatus file.

    ``tei_names`` gives it (the caller knows where both files are: ``../tei/x.xml`` in a
    build); else the witness's own file name with ``.xml``, i.e. a file beside the apparatus.
    """
    name = tei_names.get(w.meta.siglum)  # (not .get(k, default): the default would be built on every call)
    return name if name is not None else Path(w.meta.file).stem + ".xml"


_K = TypeVar("_K")
_V = TypeVar("_V")

#: ``--witness-script``: how the apparatus gives each witness's characters.
WITNESS_SCRIPTS = {
    "base": "text outside app in the base's script; a script or punctuation difference is no entry (the default)",
    "own": "every witness reads back in its own characters: where witnesses differ in script or punctuation "
           "only, an app type='script' gives each its own (with @xml:lang where its script is not the base's)",
}


def collation_to_tei(col: Collation, tei_names: dict[str, str] | None = None, title: str | None = None,
                     witness_script: str = "base", elsewhere: LayerElsewhere | None = None) -> etree._ElementTree:
    """Build the apparatus document.  ``tei_names``: siglum → witness TEI file name for ``@corresp``;
    ``witness_script``: a key of :data:`WITNESS_SCRIPTS`; ``elsewhere``: a witness's layer collated in
    another apparatus beside this one, pointed to instead of copied where that witness alone has it."""
    if witness_script not in WITNESS_SCRIPTS:
        raise ValueError(f"unknown witness script mode {witness_script!r}: choose from {', '.join(WITNESS_SCRIPTS)}")
    own = witness_script == "own"
    tei_names = tei_names or {}
    base_w = col.witnesses[col.base]
    chapter = base_w.meta.chapter or ""
    editorial = [
        f"Base text: {col.base} (the first witness listed). Witnesses are aligned layer by layer (经 with 经, "
        "注 with 注) on normalized keys (NFC, OpenCC t2s, one-hop variant folds, taboo forms, gaiji); differences "
        "of script alone are not recorded; punctuation and whitespace are ignored; readings keep the original "
        "characters.",
        "Reading a witness back: by the rules of parallel segmentation, text outside app belongs to every "
        "witness and text inside app to the lem or rdg whose @wit names it. Every witness so read gives exactly "
        "its own collated layer text (ab/@type), up to punctuation and script. Text a witness lacks (a layer, "
        "text before or after an excerpt, a page lost from its source) is an app with an empty reading for it.",
        "Script differences (e.g. 賓/宾) are not variants, so the text outside app is in the base's script. "
        "To recover a witness's own characters, read its TEI file (listWit/witness/idno[@type='tei']) at the "
        "passages @corresp points to; the JSON export's table also holds each witness's own characters.",
        "Pointers into the witnesses: @corresp on the first ab of each row (@n) points, for each witness, to the "
        "passage of its TEI file where its text of the row begins (file#id); the row's other abs (its other "
        "layers) point where it does. A non-empty lem (the base's reading) or rdg of one "
        "witness that stands in a later passage of the row has its own @corresp; one without it stands in the "
        "passage its ab points to for that witness. Empty readings and readings of several witnesses have none.",
        "Variant types: app/@type names the entry's, rdg/@type a reading's where it is not its app's (a rdg "
        "without @type is of its app's type); app/@ana points to the entry's category in classDecl (taxonomy "
        "variant-types), whose xml:id is vt- and the type: a reading's category is vt- and its type.",
    ]
    if col.ignored:
        editorial.append(f"Variant types left out on request: {', '.join(col.ignored)}.")
    pointers = pointed_rows(col, elsewhere) if elsewhere is not None else {}
    if elsewhere is not None and pointers:
        editorial.append(elsewhere_note(elsewhere, f"{elsewhere.name}.xml"))
    if own:
        editorial[2] = ("Each witness in its own characters (--witness-script own): where witnesses differ in "
                        "script or punctuation only, an app type='script' gives each its own reading, with @xml:lang "
                        "where its script is not the base's; readings keep their punctuation. So every witness read "
                        "back by the rules above gives exactly its own layer text.")
    root, _header = comparison_document(
        title or f"Apparatus {chapter}: {', '.join(col.sigla)} (base {col.base})",
        "collation",
        list(col.witnesses.values()),
        {s: _witness_file(w, tei_names) for s, w in col.witnesses.items()},
        ("parallel-segmentation", "internal"),
        editorial,
        variant_taxonomy(),
    )
    # the body as markup, parsed once (:mod:`jiaokan.tei.markup`): an apparatus is a hundred thousand elements
    out = ["<text><body>", M.start("div", type="apparatus", n=chapter or None)]
    row_ids = {r.id: r for r in col.rows}
    targets = {s: unit_targets(w) for s, w in col.witnesses.items()}
    glyphs: set[str] = set()
    shared = _Shared(col, tei_names, targets, own, glyphs)
    files = shared.files
    last_row = None
    first: dict[str, str] = {}
    for row_id, layer, texts, segments in row_layer_segments(col):
        corresp = ""
        if row_id != last_row:
            # the passage where each witness's text of the row begins: the row's first ab points to it (its
            # later abs, the same row's other layers, point where it does: said once, not once per layer), and
            # a reading standing in it says nothing more (only one in a later passage of the row has its own
            # @corresp)
            first = {s: uids[0] for s, uids in row_ids[row_id].units.items() if uids and uids[0] in targets[s]}
            corresp = M.attrs(corresp=" ".join(f"{files[s]}#{targets[s][uid]}" for s, uid in first.items()) or None)
            last_row = row_id
        ab_id = f"{row_id}.{layer}"
        # (the row and the layer make the xml:id, an NCName: nothing in them to escape, as for an app's)
        out.append(f'<ab type="{layer}" n="{row_id}" xml:id="{ab_id}"{corresp}>')
        there = pointers.get(row_id) if elsewhere is not None and layer == elsewhere.layer else None
        ptr = None
        if there is not None:  # the witness's reading: where the other apparatus holds it (its abs' ids)
            assert elsewhere is not None
            ptr = (elsewhere.siglum, M.element("ptr", target=" ".join(
                f"{elsewhere.name}.xml#{r}.{layer}" for r in there)))
        _write_segments(out, ab_id, segments, texts, shared, first, ptr)
        out.append("</ab>")
    out.append("</div></body></text>")
    if glyphs:  # the characters written as g: declared as in the witness files (code point, or gaiji code)
        decl = {code: char for w in col.witnesses.values() for code, char in w.char_decl.items() if code in glyphs}
        enc = _header.find(f"{{{TEI_NS}}}encodingDesc")
        assert enc is not None  # comparison_document always writes one
        enc.append(E.charDecl(*(char_entry(code, decl.get(code)) for code in sorted(glyphs))))
    doc = M.document(root, "".join(out))
    for ab in _ENTRIES_ONLY(doc):
        # an ab of entries only, without text of its own: kept on its lines as an ab with text is,
        # not pretty-printed (the indentation between its readings is no witness's text)
        ab.text = ""
    return etree.ElementTree(doc)


#: the ``ab`` elements without a text node of their own (only those are pretty-printed): the children of
#: the body's ``div``, where :func:`collation_to_tei` writes every one (not a search through every
#: element of the text, half the time)
_ENTRIES_ONLY = etree.XPath("t:text/t:body/t:div/t:ab[not(text())][*]", namespaces={"t": TEI_NS})


def with_glyphs(lt: LayerText, start: int, text: str, used: set[str]) -> str:
    """``text`` (``lt``'s characters from offset ``start``) as markup: each character that is a glyph
    no one can read (``lt.glyphs``: a private-use glyph, an unmapped gaiji) becomes ``<g ref="#code"/>``,
    declared in the apparatus's ``charDecl`` (its code collected in ``used``), as in the witness file."""
    if not text or not lt.glyphs:
        return M.text(text)
    # the glyphs inside the text, from the layer text's few (not a look-up per character of the text:
    # a layer with one glyph can be a whole 疏 of tens of thousands of characters)
    end = start + len(text)
    out: list[str] = []
    run = 0
    for at in sorted(at for at in lt.glyphs if start <= at < end):
        i = at - start
        if text[i] == UNKNOWN_CHAR:
            if i > run:
                out.append(M.text(text[run:i]))
            code = lt.glyphs[at]
            out.append(M.element("g", ref="#" + code))
            used.add(code)
            run = i + 1
    if run < len(text):
        out.append(M.text(text[run:]))
    return "".join(out)


def _script_langs(col: Collation) -> dict[str, str | None]:
    """Siglum → ``xml:lang`` for its readings where its script is not the base's (None where it is)."""
    base = language_tag(col.witnesses[col.base].meta.script)
    return {s: (None if language_tag(w.meta.script) == base else language_tag(w.meta.script))
            for s, w in col.witnesses.items()}


class _Made(dict[_K, _V]):
    """Key → what ``make`` makes of it, made at the first look-up and kept (``made[key]``: a look-up that
    finds it is a dict's, in C, with no Python call; the writer asks a hundred thousand of them)."""

    def __init__(self, make: Callable[[_K], _V]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: _K) -> _V:
        got = self[key] = self.make(key)
        return got


def _attr(name: str) -> _Made[str | None, str]:
    """value → `` name="value"`` ("" for None), each made once."""
    return _Made(lambda value: M.attrs(**{name: value}))


class _Shared:
    """What every ``ab`` of one apparatus writes with, made once per collation (not once per ``ab``):
    each witness's file as ``@corresp`` gives it, its ``xml:lang``, the glyphs used, a memo of the
    folded readings (the same few characters, 庿 and 廟, are compared thousands of times), and the
    attributes of the readings as markup, each made once per value (a hundred thousand readings
    share a few hundred pages, passages and witness lists: escaping each again cost more than the rest).
    The memos are :class:`_Made` tables, looked up (``shared.wit[sigla]``), not called."""

    def __init__(self, col: Collation, tei_names: dict[str, str], targets: dict[str, dict[str, str]],
                 own_script: bool, glyphs: set[str]) -> None:
        self.col = col
        self.files = {s: _witness_file(w, tei_names) for s, w in col.witnesses.items()}
        self.targets = targets
        self.own_script = own_script
        self.langs = _script_langs(col) if own_script else {}
        self.lang_attrs = {s: M.attrs(xml_lang=lang) for s, lang in self.langs.items()}
        self.glyphs = glyphs
        #: reading → :func:`fold_script` of it
        self.fold: _Made[str, str] = _Made(fold_script)
        #: (siglum, unit) → `` corresp="file#id"``: the passage ``unit`` of the witness in its TEI file ("" if none)
        self.corresp: _Made[tuple[str, str | None], str] = _Made(self._corresp)
        #: a page (``n``), a reading's ``type``, an app's ``subtype`` → the attribute
        self.n_at, self.rdg_type, self.subtyped = _attr("n"), _attr("type"), _attr("subtype")
        #: `` type="t" ana="#vt-t"`` of an app (``ana`` for the types of the taxonomy only; a reading has its
        #: ``@type`` alone, whose category is named as the header says: an ``@ana`` on each of a hundred
        #: thousand readings said it again)
        self.typed: _Made[str | None, str] = _Made(lambda vtype: M.attrs(type=vtype, ana=_ana(vtype)))
        #: sigla → `` wit="#A #B"``
        self.wit: _Made[tuple[str, ...], str] = _Made(lambda sigla: M.attrs(wit=" ".join("#" + s for s in sigla)))

    def _corresp(self, key: tuple[str, str | None]) -> str:
        s, unit = key
        target = self.targets[s].get(unit) if unit else None
        return M.attrs(corresp=f"{self.files[s]}#{target}" if target else None)


def _page_turns(lt: LayerText) -> tuple[list[int], list[str | None]]:
    """The offsets (after the first) where ``lt``'s page changes, and the page from each: from its runs
    (a run is on one page), not from a page per character."""
    starts, where = lt.run_starts, lt.run_where
    turns = [(at, w1[1]) for at, w0, w1 in zip(starts[1:], where, where[1:]) if w0[1] != w1[1]]
    return [at for at, _ in turns], [pg for _, pg in turns]


def _write_segments(out: list[str], ab_id: str, segs: list[Segment], texts: dict[str, LayerText],
                    shared: _Shared, first: dict[str, str], ptr_of: tuple[str, str] | None = None) -> None:
    """The content of the ``ab`` ``ab_id`` (one row and layer: its segments) as markup, onto ``out``;
    ``first``: siglum → the unit the ab's ``@corresp`` points to for it (a reading standing there
    has no ``@corresp`` of its own); ``ptr_of``: (siglum, ``ptr`` markup) for a witness whose text
    here is in another apparatus (:mod:`.elsewhere`: its one reading of the row and layer holds the
    ``ptr`` instead)."""
    col = shared.col
    own_script = shared.own_script
    base = col.base
    blt = texts[base]
    page = blt.run_where[0][1] if blt.text and blt.run_where else None
    langs = shared.langs
    fold = shared.fold

    extra = itertools.count(1)
    used = shared.glyphs
    escape = M.text
    add = out.append

    pointed, ptr = ptr_of if ptr_of is not None else (None, "")

    def content(s: str, start: int, text: str) -> str:
        """``text`` (witness ``s``'s characters from ``start``) with each unreadable glyph as ``g``."""
        if s == pointed and text:
            return ptr
        lt = texts[s]
        # (most layer texts hold no glyph: their text is escaped at once, without with_glyphs' call)
        return with_glyphs(lt, start, text, used) if lt.glyphs else escape(text)

    def trimmed(s: str, x0: int, x1: int) -> tuple[int, str, int]:
        """Where witness ``s``'s reading in [x0, x1) starts, the reading, and how many characters it
        keeps: without the punctuation at its ends (punctuation is not collated; its ends are found
        among the offsets the text keeps, :meth:`LayerText.kept`), or as it stands (``own_script``:
        a reading keeps its punctuation, the panel is the witness)."""
        text, kept = kept_of[s]
        i, j = bisect_left(kept, x0), bisect_left(kept, x1)
        if own_script:
            return x0, text[x0:x1], j - i
        return (kept[i], text[kept[i]:kept[j - 1] + 1], j - i) if i < j else (x0, "", 0)

    #: siglum → its text and kept offsets (asked once per ab, not per reading)
    kept_of: dict[str, tuple[str, Sequence[int]]] = {}

    #: the base's text here is escaped as it stands (most abs: not a pointer, no glyph), without content()'s call
    base_plain = base != pointed and not blt.glyphs

    def emit_text(a0: int, a1: int) -> None:
        if a1 > a0:  # no empty text: an ab whose first segment is an app stays without one
            text = blt.text[a0:a1]
            add(escape(text) if base_plain else content(base, a0, text))

    # where the base's page changes (the page is the same from one such offset to the next):
    # emit_plain looks at those offsets only, not at each of its characters
    # (made at the first plain stretch: an ab of entries only, most of them, has none)
    page_turns: tuple[list[int], list[str | None]] | None = None
    run_starts, run_where = blt.run_starts, blt.run_where

    def emit_plain(a0: int, a1: int) -> None:
        nonlocal page, page_turns
        if a1 <= a0:
            return
        if page_turns is None:
            page_turns = _page_turns(blt)
        turns, turn_pages = page_turns
        start = a0
        k0, k1 = bisect_right(turns, a0), bisect_left(turns, a1)
        at_a0 = run_where[bisect_right(run_starts, a0) - 1][1]
        if k0 == k1:  # (most stretches: on one page, the page of their first character)
            if at_a0 != page and at_a0 is not None:
                add(M.element("pb", n=at_a0, ed=base))
                page = at_a0
            emit_text(a0, a1)
            return
        for i, pg in ((a0, at_a0), *zip(turns[k0:k1], turn_pages[k0:k1])):
            if pg != page and pg is not None:
                emit_text(start, i)
                add(M.element("pb", n=pg, ed=base))
                page = pg
                start = i
        emit_text(start, a1)

    files, targets = shared.files, shared.targets

    def corresp(s: str, unit: str | None) -> str | None:
        target = targets[s].get(unit) if unit and unit != first.get(s) else None
        return f"{files[s]}#{target}" if target else None

    def script_app(seg: Segment, a0: int, a1: int) -> bool:
        """Own characters: a plain stretch where some witness writes other characters becomes an app."""
        own_text = {s: texts[s].text[b0:b1] for s, (b0, b1) in seg.spans.items()}
        lem_text = own_text.pop(base)
        if all(t == lem_text for t in own_text.values()):
            return False
        groups: dict[str, list[str]] = {}
        for s, t in own_text.items():
            if t != lem_text:
                groups.setdefault(t, []).append(s)
        unit, pg, _ = blt.where(a0)
        add(M.start("app", type="script", ana=_ana("script"), xml_id=f"{ab_id}.s{next(extra)}"))
        add(M.element("lem", content(base, a0, lem_text),
                      wit=" ".join("#" + s for s in [base, *(s for s, t in own_text.items() if t == lem_text)]),
                      n=pg, corresp=corresp(base, unit)))
        for t, wits in groups.items():
            u, rpg, _ = texts[wits[0]].where(seg.spans[wits[0]][0])
            lang = {langs.get(s) for s in wits}
            add(M.element("rdg", content(wits[0], seg.spans[wits[0]][0], t), wit=" ".join("#" + s for s in wits),
                          n=rpg if t else None, corresp=corresp(wits[0], u) if t and len(wits) == 1 else None,
                          xml_lang=lang.pop() if len(lang) == 1 else None))
        add("</app>")
        return True

    wit, typed, pointer = shared.wit, shared.typed, shared.corresp
    n_at, rdg_type, subtyped = shared.n_at, shared.rdg_type, shared.subtyped

    def corresp_at(s: str, unit: str | None) -> str:
        """`` corresp="…"`` for a reading of ``s`` in ``unit``: "" where the ab points there already."""
        return "" if unit is not None and unit == first.get(s) else pointer[s, unit]

    lang_attrs = shared.lang_attrs
    for seg in segs:
        a0, a1 = seg.spans[base]
        if seg.type is None:
            if not (own_script and script_app(seg, a0, a1)):
                emit_plain(a0, a1)
            continue
        apps = seg.apps
        if len(apps) == 1:  # (most entries: the subtype its own; the segment's reading its own where it spans it)
            one = apps[0]
            subtype = one.subtype
            own = one if one.lem.start == a0 and one.lem.end == a1 else None
        else:
            own = None
            subtype = entry_subtype(seg.type, ((x.type, x.subtype) for x in apps))
        if not kept_of:  # (made at the first entry: an ab of plain text only asks none)
            kept_of.update({s: (lt.text, lt.kept()) for s, lt in texts.items()})
        lem_at, lem_text, lem_n = trimmed(base, a0, a1)
        # each present witness's reading (:func:`trimmed`'s, its calls written out: a reading of every
        # witness of every entry), and the readings the apparatus does not tell from the lemma (``rn``,
        # ``lem_n``: the characters each keeps): equal after dropping punctuation and folding script
        # (folding keeps as many characters as it is given, so readings that keep other counts differ
        # without folding: a whole layer against nothing is not folded); in the witness's own characters
        # (``own_script``), only the very same characters agree
        absent = seg.absent
        read_at: dict[str, tuple[int, str, int]] = {}
        agree: list[str] = []
        for s, (b0, b1) in seg.spans.items():
            if s == base or s in absent:
                continue
            text, kept = kept_of[s]
            i, j = bisect_left(kept, b0), bisect_left(kept, b1)
            rn = j - i
            if own_script:
                r_at, r = b0, text[b0:b1]
            elif rn > 0:
                r_at = kept[i]
                r = text[r_at:kept[j - 1] + 1]
            else:
                r_at, r, rn = b0, "", 0
            read_at[s] = r_at, r, rn
            if r == lem_text or (not own_script and rn == lem_n and fold[r] == fold[lem_text]):
                agree.append(s)
        base_absent = base in absent
        lem_wits = (base, *agree, *([s for s in seg.absent if s != base] if base_absent else ()))
        lost = base_absent and seg.absent[base] == "lacuna"
        # every app has an id: an entry of the collation has its own; text a witness lacks
        # (layer, edge, lacuna) is numbered within its ab
        # (an xml:id is an NCName, nothing in it to escape; a wrong one fails the profile check)
        add(f"<app{typed[seg.type]}{subtyped[subtype]}"
            f' xml:id="{seg.apps[0].id if seg.apps else f"{ab_id}.x{next(extra)}"}">')
        attrs = wit[lem_wits]
        if lem_text:
            unit, pg, _ = blt.where(a0 if a1 > a0 else max(a0 - 1, 0))
            attrs += n_at[pg] + corresp_at(base, unit)
        body = content(base, lem_at, lem_text) + (_LOST if lost else "")
        add(f"<lem{attrs}>{body}</lem>" if body else f"<lem{attrs}/>")
        for s, (r_at, r, rn) in read_at.items():
            if s in agree:
                continue
            # (most readings: the type the segment's one entry gives it, without _reading_type's call)
            given = own.readings.get(s) if own is not None else None
            rtype = given.type if given is not None and given.type is not None and given.type != "agree" \
                else _reading_type(seg, s, rn, lem_n, own)
            lost = rtype == "lacuna" and not r
            if own_script and rn and fold[r] == fold[lem_text]:
                rtype = "script"  # the same reading in other characters: no variant, the witness's own
            attrs = wit[s,] + rdg_type[rtype if rtype != seg.type else None]  # (none: its app's)
            if r:
                b0, b1 = seg.spans[s]
                u, pg, _ = texts[s].where(b0 if b1 > b0 else max(b0 - 1, 0))
                attrs += n_at[pg] + corresp_at(s, u) + lang_attrs.get(s, "")
            body = content(s, r_at, r) + (_LOST if lost else "")
            add(f"<rdg{attrs}>{body}</rdg>" if body else f"<rdg{attrs}/>")
        missing = [s for s in absent if s != base] if absent and not base_absent else []  # (most: none absent)
        if missing:
            kind = seg.type if seg.type in ("layer", "lacuna", "edge") else _absence(seg, missing)
            attrs = wit[tuple(missing)] + rdg_type[kind if kind != seg.type else None]
            add(f"<rdg{attrs}>{_LOST}</rdg>" if kind == "lacuna" else f"<rdg{attrs}/>")
        add("</app>")


#: What a reading lost with a page of its source holds.
_LOST = M.element("gap", reason="lost", unit="page")


def _absence(seg: Segment, missing: list[str]) -> str:
    kinds = {seg.absent[s] for s in missing}
    return "lacuna" if "lacuna" in kinds else "edge" if "edge" in kinds else "layer"


def _reading_type(seg: Segment, s: str, reading: int, lem: int, own: App | None) -> str:
    """The variant type of witness ``s``'s reading (``reading``, ``lem``: the characters it and the base's
    keep, i.e. not punctuation): the entry's own where it has one, else by its shape; ``lacuna`` where it reads
    nothing where its source lost a page (:attr:`Segment.lost`)."""
    if not reading and s in seg.lost:
        return "lacuna"
    if own is not None:  # (most readings: the one entry of the segment, which types the reading)
        r = own.readings.get(s)
        if r is not None and r.type is not None and r.type != "agree":
            return r.type
        types: list[str] = []  # (seg.apps is [own]: no other entry types it)
    else:
        types = [t for x in seg.apps if s in x.readings for t in [x.readings[s].type] if t is not None and t != "agree"]
    if seg.type is not None and seg.type in ("lacuna", "edge", "layer") and not types:
        return seg.type
    if types and len(seg.apps) == 1:
        return types[0]
    if not reading:
        return "omission"
    if not lem:
        return "addition"
    return strongest(types) if types else "substantive"


def elsewhere_note(where: LayerElsewhere, file: str) -> str:
    """The header's word on a layer collated in another apparatus (``file``, beside this one)."""
    return (f"The {where.layer} layer of witness {where.siglum} is collated in {file}, beside this file, "
            f"against the witnesses listed there (where {where.siglum} has the same siglum and TEI file). Where "
            f"{where.siglum} alone has that layer in a row here, it is not copied: its reading (rdg, or lem where "
            f"it is the base) holds a ptr whose @target names the ab elements of {file} that hold its text of "
            f"the row, in order, and the empty readings of the others say that they lack the layer. Reading "
            f"{where.siglum} back, its text there is its text of those ab elements, read by the same rules.")


def write_apparatus(col: Collation, path: str | Path, tei_names: dict[str, str] | None = None,
                    witness_script: str = "base", elsewhere: LayerElsewhere | None = None) -> Path:
    return write_checked(path, collation_to_tei(col, tei_names, witness_script=witness_script, elsewhere=elsewhere))
