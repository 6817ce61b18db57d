"""``collate()``: witnesses in, a :class:`~.model.Collation` out.

The stages follow CollateX's Gothenburg model, made layer-aware:
tokenize (layer texts per passage row) → normalize (keys from
:mod:`jiaokan.normalize`) → align (经 at chapter scale to build rows, then each
layer within a row) → analyse (typed variants merged into apparatus entries).
"""

from __future__ import annotations

from itertools import count

from ..errors import CollationError
from ..collector import collector_paused
from ..model import EXTENT, WHOLE, Gap, Unit, Witness
from ..names import siglum_problem
from ..normalize import is_ignorable, key
from .align import Op, align_texts
from .layertext import LayerText
from .model import COLLATED_LAYERS, VARIANT_TYPES, Collation, LayerAlignment, LayerGap, Row
from .limits import oversized_passage, repeated_text
from .rows import body_units, jing_keys, passage_rows
from .learned import type_recurring_forms
from .variants import classify, merge_apps


def _unique_sigla(witnesses: list[Witness]) -> dict[str, Witness]:
    out: dict[str, Witness] = {}
    for w in witnesses:
        s = w.meta.siglum
        if s in out:
            raise CollationError(
                f"two witnesses have the siglum {s} ({out[s].meta.file}, {w.meta.file}): give them distinct "
                f"sigla (jiaokan ingest FILE --siglum X)"
            )
        out[s] = w
    return out


@collector_paused()
def collate(
    witnesses: list[Witness],
    base: str | None = None,
    layers: tuple[str, ...] | list[str] | None = None,
    ignore: tuple[str, ...] | list[str] = (),
    rows: list[Row] | None = None,
) -> Collation:
    """Collate two or more witnesses against ``base`` (default: the first), layer by layer.

    ``ignore`` drops variant types from the result (e.g. orthographic, taboo).  ``rows``: the
    passage rows when the caller made them otherwise than by aligning the 经 (the 单疏本 has
    no 经: :mod:`.shu` places its 疏 by their 標起止).  Runs with Python's cyclic collector paused
    (:func:`jiaokan.collector.collector_paused`), as the build does.
    """
    if len(witnesses) < 2:
        raise CollationError("collation needs at least two witnesses")
    for w in witnesses:  # a siglum names the witness in every xml:id and @wit: one XML cannot hold is refused here
        problem = siglum_problem(w.meta.siglum)
        if problem:
            raise CollationError(f"{problem} ({w.meta.file})")
    wits = _unique_sigla(witnesses)
    base = base or next(iter(wits))
    if base not in wits:
        raise CollationError(f"no witness has the siglum {base}; the witnesses are {', '.join(wits)}")
    layers = tuple(COLLATED_LAYERS if not layers or "all" in layers else layers)  # ("all", as `text --layer` has it)
    unknown = [x for x in layers if x not in COLLATED_LAYERS]
    if unknown:
        why = "".join(f" ({w})" for x, w in (("an", "案 notes are not collated: `jiaokan emend` anchors and checks them"),
                                              ("paratext", "paratext is the page's, not the text's")) if x in unknown)
        raise CollationError(f"cannot collate layer(s) {', '.join(unknown)}: choose from {', '.join(COLLATED_LAYERS)}, "
                             f"or all{why}")
    # each witness's 经 keys, made once for the repeated-text check and the passage rows (after the size
    # check: a passage of millions of characters is refused before anything is made of it)
    jing: dict[str, list[tuple[int, str]] | None] = {}
    for s, w in wits.items():  # refused with the reason, not collated into silence or out of memory
        problem = oversized_passage(w, layers)
        if not problem:
            jing[s] = jing_keys(body_units(w))
            problem = repeated_text(w, key, is_ignorable, jing[s])
        if problem:
            raise CollationError(problem)
    # checked here, where every door (CLI, API, build) passes, not by one of them
    bad = [t for t in ignore if t not in VARIANT_TYPES]
    if bad:
        raise CollationError(f"unknown variant type(s) {', '.join(bad)}: choose from {', '.join(VARIANT_TYPES)}")
    # the base first, then the others in the order given
    ordered = {base: wits[base], **{s: w for s, w in wits.items() if s != base}}
    col = Collation(base=base, witnesses=ordered, layers=layers, ignored=tuple(ignore))
    col.rows = rows if rows is not None else passage_rows(base, ordered, key, is_ignorable, jing)
    unit_by_id = {s: {u.id: u for u in body_units(w)} for s, w in ordered.items()}
    ids = count(1)
    first_row, last_row = _witness_edges(col)
    lost, borders, torn = _lost_rows(col, unit_by_id)
    has = {s: {p.layer for u in us.values() for p in u.pieces} for s, us in unit_by_id.items()}  # layers it has

    # whether each witness and the base are in two scripts' company (a simplified one): asked of every alignment
    script_pair = {s: "simplified" in (ordered[base].meta.script, w.meta.script) for s, w in ordered.items()}

    def next_id() -> str:
        return f"app{next(ids)}"

    for row in col.rows:
        # each witness's texts of the row, fetched once for all its layers (col.layers is ``layers``)
        by_witness = [(s, col.row_texts(row, s)) for s in ordered]
        # the layers some witness has text of here, gathered once for the row (most layers of a row: none has)
        held = {lay for _, their in by_witness for lay, lt in their.items() if lt.text}
        for layer in layers:
            if layer not in held:
                continue
            texts: dict[str, LayerText] = {s: their[layer] for s, their in by_witness}
            present = {s: n for s, t in texts.items() if (n := len(t.kept()))}
            if not present:
                continue
            if base not in present or len(present) < len(ordered):
                absent = [s for s in ordered if s not in present]
                # a layer a witness lacks in a row its lost page tore went with the page, as the rows between did;
                # one it never has was not lost (the 四部丛刊 has no 疏 to lose)
                kind = "lacuna" if all((row.id in lost[s] or row.id in torn[s]) and layer in has[s]
                                       for s in absent) else "layer"
                col.gaps.append(LayerGap(row.id, layer, present, absent, kind=kind))
            if base not in present:
                continue
            wit_ops, wit_vars, wit_texts = {}, {}, {}
            # witnesses that read the same text here (common between editions of one family, and a copy's
            # every passage) are aligned and typed once: the result depends on the two texts alone
            done: dict[tuple[str, bool], tuple[list, list]] = {}
            for s in ordered:
                if s == base or s not in present:
                    continue
                simplified = script_pair[s]
                got = done.get((texts[s].text, simplified))
                if got is None and texts[s].text == texts[base].text:
                    # the base's very text (a third of the alignments, short ones mostly): one equal op over
                    # both, nothing to type, as aligning and typing them would find, without keying the
                    # witness's text, aligning the keys and walking the op (the base has a key: it is present)
                    got = done[(texts[s].text, simplified)] = (
                        [Op("equal", 0, len(texts[base].text), 0, len(texts[s].text))], [])
                if got is None:
                    kept = (texts[base].kept(), texts[s].kept())
                    ops = align_texts(texts[base].text, texts[s].text, key=key, ignorable=is_ignorable,
                                      kept=kept, keyed=(texts[base].keyed(), texts[s].keyed()))
                    got = done[(texts[s].text, simplified)] = (
                        ops, [v for v in classify(ops, texts[base].text, texts[s].text, is_ignorable, simplified,
                                                  kept) if v.type not in ignore])
                ops, vs = got
                col.alignments.append(LayerAlignment(row.id, layer, s, ops))
                if vs:  # (most row layers read alike: nothing to drop, and nothing to ask the edges and gaps)
                    vs = _drop_edges(col, row.id, layer, s, vs, len(texts[base].text), len(texts[s].text),
                                     (row.id == first_row.get(s), row.id == last_row.get(s)),
                                     (row.id == first_row.get(base), row.id == last_row.get(base)))
                    vs = _drop_lacunae(col, row.id, layer, s, vs, texts[base].gaps,
                                       _lacuna_offsets(texts[s], borders[s].get(row.id)))
                wit_ops[s], wit_vars[s], wit_texts[s] = ops, vs, texts[s]
            if any(wit_vars.values()):  # (an entry is made where a witness differs: most row layers, none)
                col.apps.extend(merge_apps(row.id, layer, base, texts[base], wit_texts, wit_ops, wit_vars,
                                           is_ignorable, next_id))
    if "orthographic" not in ignore:  # forms no registry knows, read alike over the book (.learned)
        type_recurring_forms(col)
    return col


def _witness_edges(col: Collation) -> tuple[dict[str, str], dict[str, str]]:
    """The first and last row in which each witness has 经: where an excerpt begins and ends.  A whole text
    (``extra[EXTENT] == WHOLE``: CollateX's witnesses) has no such edges: what another witness reads before or
    after it is its omission or addition, as CollateX shows it."""
    first: dict[str, str] = {}
    last: dict[str, str] = {}
    whole = {s for s, w in col.witnesses.items() if w.meta.extra.get(EXTENT) == WHOLE}
    for row in col.rows:
        for s, uids in row.units.items():
            if uids and s not in whole:
                first.setdefault(s, row.id)
                last[s] = row.id
    return first, last


def _lost_rows(col: Collation, unit_by_id: dict[str, dict[str, Unit]]
               ) -> tuple[dict[str, set[str]], dict[str, dict[str, str]], dict[str, set[str]]]:
    """For each witness, the rows it lacks because its source lost a page there, the rows around them, and
    the rows whose own text holds a gap or that border such a loss (torn: a layer the witness lacks there went
    with the page, as the 經 of the passage whose 注 resumes after it, or the 注 of the passage it cut after its 經).

    A witness that is absent from some rows and has a :class:`~jiaokan.model.Gap`
    in the units on either side of them lost those passages with the page: they are
    a lacuna, not an omission.  The rows on either side are returned too (row id →
    ``"end"`` for the row before the loss, ``"start"`` for the row after it), since
    the page may have taken the end of one passage and the start of another.
    """
    def has_gap(s: str, uids: list[str]) -> bool:
        return any(isinstance(x, Gap) for uid in uids for p in unit_by_id[s][uid].pieces for x in p.content)

    lost: dict[str, set[str]] = {s: set() for s in col.witnesses}
    borders: dict[str, dict[str, str]] = {s: {} for s in col.witnesses}
    torn: dict[str, set[str]] = {s: set() for s in col.witnesses}
    for s in col.witnesses:
        prev: int | None = None
        prev_gap = False
        for i, row in enumerate(col.rows):
            uids = row.units.get(s, [])
            if not uids:
                continue
            gap = has_gap(s, uids)
            if gap:
                torn[s].add(row.id)
            if prev is not None and i - prev > 1 and (gap or prev_gap):
                lost[s].update(r.id for r in col.rows[prev + 1:i])
                borders[s][col.rows[prev].id] = "end"
                borders[s][row.id] = "start"
                torn[s].update((col.rows[prev].id, row.id))  # the page took the end of one, the start of the other
            prev, prev_gap = i, gap
    return lost, borders, torn


def _lacuna_offsets(lt: LayerText, border: str | None) -> list[int]:
    """Where ``lt`` stands at a lost page: its own gaps, and its end or start when the row borders a lacuna."""
    offsets = list(lt.gaps)
    if border == "end":
        offsets.append(len(lt.text))
    elif border == "start":
        offsets.append(0)
    return offsets


def _drop_lacunae(col: Collation, row: str, layer: str, siglum: str, vs: list,
                  base_gaps: list[int], wit_gaps: list[int]) -> list:
    """Text one witness lacks exactly where its source lost a page is a lacuna, not an omission.

    Recorded once as a ``lacuna`` layer gap (and the other way round: what a
    witness has where the base lost a page is not an addition).
    """
    if not base_gaps and not wit_gaps:
        return vs
    keep = []
    for v in vs:
        if v.type == "omission" and v.b0 in wit_gaps:
            col.gaps.append(LayerGap(row, layer, {col.base: v.a1 - v.a0}, [siglum], kind="lacuna"))
        elif v.type == "addition" and v.a0 in base_gaps:
            col.gaps.append(LayerGap(row, layer, {siglum: v.b1 - v.b0}, [col.base], kind="lacuna"))
        else:
            keep.append(v)
    return keep


def _drop_edges(col: Collation, row: str, layer: str, siglum: str, vs: list, blen: int, wlen: int,
                wit_edge: tuple[bool, bool], base_edge: tuple[bool, bool]) -> list:
    """Text before a witness begins (or after it ends) is not an omission of that witness.

    An excerpt that starts in the middle of a base passage would otherwise show
    the rest of the passage as omitted (and a base that stops mid-chapter would
    show the rest of the other witness as added); each is recorded once as an
    edge instead.
    """
    keep = []
    for v in vs:
        w_cut = v.type == "omission" and ((wit_edge[0] and v.b0 == 0) or (wit_edge[1] and v.b0 >= wlen))
        b_cut = v.type == "addition" and ((base_edge[0] and v.a0 == 0) or (base_edge[1] and v.a0 >= blen))
        if w_cut:
            col.gaps.append(LayerGap(row, layer, {col.base: v.a1 - v.a0}, [siglum], kind="edge"))
        elif b_cut:
            col.gaps.append(LayerGap(row, layer, {siglum: v.b1 - v.b0}, [col.base], kind="edge"))
        else:
            keep.append(v)
    return keep
