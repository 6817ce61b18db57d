"""The 案 notes in TEI: an emendation apparatus, and emended witnesses.

Two documents, both in the project profile (``schemas/jiaokan.rng``) and valid TEI P5:

:func:`emendations_to_tei` — the apparatus of the notes: one ``app type="emendation"``
per claim (``@subtype`` = its kind) in a ``listApp``, with

* ``lem`` — the reading the note upholds: this text's (``@wit`` the noted witness)
  for claims about another witness, the emended reading for a conjecture; ``@resp``
  who stands for it (``#siku`` = the 四库 editors, or the proposer the note quotes,
  ``#aojigong`` …) and ``@source`` the evidence it cites (``#src-songben`` …);
* ``rdg`` — the other reading: what the note says 今注疏本 (``#wit-zhushu``) or 唐石经
  (``#wit-tangshijing``) reads, this witness's own reading for a conjecture, and what
  the collated 注疏 witness actually reads (its siglum), merged into the same
  ``lem``/``rdg`` when the readings agree;
* ``note type="verdict"`` (``@subtype`` confirmed, contradicted, not-covered) with the
  one-line summary, ``@target`` the 案 note (``file.xml#note-id``), and ``@corresp`` on
  the ``app`` to the note as well.

:func:`emended_witness_tei` — a witness TEI (as :mod:`jiaokan.tei.writer` writes it)
with every emendation of that witness in place: the characters it changes are wrapped
in an inline ``app type="emendation"`` whose ``lem`` is the emended reading (``@resp``,
``@source``) and whose ``rdg`` (``@wit`` = the witness) keeps the original characters
with any page/line breaks they run over; ``@corresp`` points to the 案 note.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from ..model import Witness
from ..tei.header import comparison_document
from ..tei.build import TEI_NS, XML_ID, E, append_text
from ..tei.validate import write_checked
from ..tei.writer import unit_targets, witness_to_tei
from ..ui import counted
from .anchor import Claim
from .apply import SIKU, EmendResult, Emendation, non_overlapping, proposer
from .check import is_zhushu_claim
from .notes import SOURCES, WITNESSES

_T = "{%s}" % TEI_NS

__all__ = ["emendations_to_tei", "emended_witness_tei", "write_emendations", "write_emended", "tei_names_for"]

#: Readable names of the source and witness ids the notes cite.
_NAME_OF: dict[str, str] = {}
for _n, _i in list(SOURCES.items()) + list(WITNESSES.items()):
    _NAME_OF.setdefault(_i, _n)
_NAME_OF.update({"zhushu": "今注疏本", "songben": "宋本", "tangshijing": "唐石经", "yuanben": "原本",
                 "shiwen": "经典释文", "aojigong": "敖继公 仪礼集说", "shu": "贾公彦 疏", "zhu": "郑玄 注"})

_VERDICT_SUBTYPE = {"confirmed": "confirmed", "contradicted": "contradicted", "uncertain": "uncertain",
                    "not covered": "not-covered"}

_RDG_TYPE = {"corruption": "substantive", "variant": "substantive", "omission": "omission",
             "addition": "addition", "conjecture": "substantive", "comment": "substantive", "lacuna": "omission"}


def tei_names_for(res: EmendResult) -> dict[str, str]:
    """Default siglum → TEI file name for ``@corresp`` (``<file stem>.xml``)."""
    out = {res.witness.meta.siglum: Path(res.witness.meta.file).stem + ".xml"}
    if res.against is not None:
        out[res.against.meta.siglum] = Path(res.against.meta.file).stem + ".xml"
    return out


def _ptr(names: dict[str, str], siglum: str, frag: str | None) -> str | None:
    if not frag:
        return None
    return f"{names.get(siglum, '')}#{frag}"


def _src_ref(ids) -> str | None:
    ids = list(dict.fromkeys(ids))
    return " ".join(f"#src-{i}" for i in ids) or None


# ---------------------------------------------------------------------------
# header pieces
# ---------------------------------------------------------------------------


def _resp_people(res: EmendResult) -> dict[str, str]:
    people = {SIKU[0]: SIKU[1]}
    for c in res.claims:
        rid, name = proposer(c)
        people.setdefault(rid, name)
    return people


def _cited(res: EmendResult) -> tuple[set[str], set[str]]:
    """(source ids cited as evidence, witness ids the claims speak of)."""
    sources: set[str] = set()
    wits: set[str] = set()
    for c in res.claims:
        sources.update(s.id for s in c.record.evidence)
        if c.record.target and c.record.target not in ("self",):
            wits.add(c.record.target)
    return sources, wits


def _add_header_parts(header: etree._Element, res: EmendResult, *, title_note: str | None = None) -> dict[str, str]:
    """respStmt for the editors/proposers, listWit of cited witnesses, listBibl of cited sources.

    A person the header already declares (the witness's own TEI names 四库馆臣 for its 案 notes,
    as ``resp-siku``) keeps that one ``respStmt``, which gains this responsibility: one person,
    one id. Returns the ids so replaced (``siku`` → ``resp-siku``), for :func:`_repoint_resp`.
    """
    fd = header.find(_T + "fileDesc")
    assert fd is not None  # the header is this package's own: fileDesc, titleStmt, sourceDesc are always there
    ts = fd.find(_T + "titleStmt")
    assert ts is not None
    if title_note:
        ts.insert(1, E.title(title_note, type="sub"))
    used = {e.get(XML_ID) for e in header.iter() if e.get(XML_ID)}
    declared: dict[str, etree._Element] = {}  # persName → its respStmt, as the witness's header has them
    for rs in header.iter(_T + "respStmt"):
        pn = rs.find(_T + "persName")
        if pn is not None and pn.text and rs.get(XML_ID):
            declared.setdefault(pn.text, rs)
    alias: dict[str, str] = {}
    # respStmt after the titles
    last_title = max(i for i, e in enumerate(ts) if e.tag == _T + "title")
    pos = last_title + 1
    for rid, name in _resp_people(res).items():
        what = "emendation (案 notes)" if rid == SIKU[0] else "proposed reading (quoted in 案 notes)"
        kept = declared.get(name)
        if kept is not None:
            resps = kept.findall(_T + "resp")
            if what not in {r.text for r in resps}:
                if resps:
                    resps[-1].addnext(E.resp(what))
                else:
                    kept.insert(0, E.resp(what))
            alias[rid] = str(kept.get(XML_ID))
            continue
        if rid in used:
            continue
        ts.insert(pos, E.respStmt(E.resp(what), E.persName(name), xml_id=rid))
        pos += 1
        used.add(rid)
    sd = fd.find(_T + "sourceDesc")
    assert sd is not None
    sources, wits = _cited(res)
    lw = sd.find(_T + "listWit")
    if lw is None:
        lw = E.listWit()
        sd.append(lw)
    for wid in sorted(wits):
        xid = f"wit-{wid}"
        if xid in used:
            continue
        lw.append(E.witness(f"{_NAME_OF.get(wid, wid)} (as cited by the 案 notes)", xml_id=xid))
        used.add(xid)
    bibls: list[etree._Element] = []
    for sid in sorted(sources):
        xid = f"src-{sid}"
        if xid in used:
            continue
        bibls.append(E.bibl(E.title(_NAME_OF.get(sid, sid)), xml_id=xid))
        used.add(xid)
    if bibls:
        sd.append(E.listBibl(*bibls))
    return alias


def _rebase_sources(root: etree._Element, names: dict[str, str]) -> None:
    """A boundary's ``@source`` (the witness file that decided it, :mod:`jiaokan.collate.relayer`) names a
    file beside the witness's own TEI; the emended copy lives elsewhere (``emend/``), so the pointer
    is made relative to it the way ``names`` points at the witnesses (``../tei/``)."""
    folder = next((v.rsplit("/", 1)[0] + "/" for v in names.values() if "/" in v), "")
    if not folder:
        return
    for el in root.iter(_T + "ab", _T + "head"):
        src = el.get("source")
        if src and "/" not in src and not src.startswith("#") and src.endswith(".xml"):
            el.set("source", folder + src)


def _repoint_resp(root: etree._Element, alias: dict[str, str]) -> None:
    """Every ``@resp`` pointing at an id :func:`_add_header_parts` replaced points at the one kept."""
    if not alias:
        return
    for el in root.iter():
        r = el.get("resp")
        if r and r.startswith("#") and r[1:] in alias:
            el.set("resp", "#" + alias[r[1:]])


# ---------------------------------------------------------------------------
# the apparatus of the notes
# ---------------------------------------------------------------------------


def emendations_to_tei(res: EmendResult, tei_names: dict[str, str] | None = None) -> etree._ElementTree:
    """Every claim of every 案 note of ``res.witness`` as an ``app type="emendation"``."""
    names = {**tei_names_for(res), **(tei_names or {})}
    w = res.witness
    js = w.meta.siglum
    zs = res.against.meta.siglum if res.against is not None else None
    chapter = w.meta.chapter or ""
    root, header = comparison_document(
        f"案 notes of {w.meta.title or w.meta.file}: emendations and verdicts",
        "anchoring, checking and applying the 案 notes",
        [x for x in (w, res.against) if x is not None],
        names,
        ("location-referenced", "external"),
        ["One app per claim of a 案 note (a note may make several). lem: the reading the note upholds "
         "(this text's, or the emended reading of a conjecture) with @resp (who proposes it) and @source (the "
         "evidence cited); rdg: the other readings (wit-zhushu = 今注疏本 as the note reports it; the collated 注疏 "
         "witness by its siglum = what it actually reads). note[@type='verdict']: the check against the collated "
         "注疏 (confirmed, contradicted, not-covered)."],
    )
    alias = _add_header_parts(header, res)
    targets = {x.meta.siglum: unit_targets(x) for x in (w, res.against) if x is not None}

    root.append(E.text(E.body(E.div(
        E.listApp(*(_claim_app(c, res, names, js, zs, targets) for c in res.claims),
                  type="emendation", corresp=names.get(js)),
        type="emendations", n=chapter or None))))
    _repoint_resp(root, alias)
    return etree.ElementTree(root)


def _claim_app(c: Claim, res: EmendResult, names: dict[str, str], js: str, zs: str | None,
               targets: dict[str, dict[str, str]]) -> etree._Element:
    """The ``app`` of one claim: its readings, then the verdict and the anchoring as notes."""
    r = c.record
    ch = res.checks.get(c.id)
    a = c.anchor
    note_ptr = _ptr(names, js, c.note_id)
    rid, _name = proposer(c)
    src = _src_ref(s.id for s in r.evidence)
    here = a.text if a is not None else ""
    unit = a.unit if a is not None else c.unit
    unit_ptr = _ptr(names, js, targets[js].get(unit, unit) if unit else None)  # a unit with no 经: its first piece
    zs_read = ch.reading if (ch is not None and zs and ch.reading is not None and ch.verdict != "not covered") else None
    zs_ptr = _ptr(names, zs, targets[zs].get(ch.zs_unit, ch.zs_unit)) if (zs and ch is not None and ch.zs_unit) else None
    rtype = _RDG_TYPE.get(r.kind)

    readings: list[etree._Element | None]
    if r.kind == "conjecture":
        new = _conjectured(c, here)
        wits = [js] + ([zs] if zs and zs_read is not None and zs_read == here else [])
        readings = [
            E.lem(new or None, resp=f"#{rid}", source=src),
            E.rdg(here or None, wit=" ".join("#" + s for s in wits), type=rtype, corresp=unit_ptr),
            E.rdg(zs_read or None, wit="#" + zs, corresp=zs_ptr) if zs and zs_read is not None and zs_read != here
            else None,
        ]
    else:
        claimed = _claimed(c)
        target = r.target if r.target and r.target != "self" else None
        lem_wits = [js]
        rdg_wits = [f"wit-{target}"] if target and claimed is not None else []
        extra = None
        if zs and ch is not None and zs_read is not None and is_zhushu_claim(c):
            if ch.verdict == "confirmed":
                rdg_wits.append(zs)
            elif ch.detail == "as-this-text":
                lem_wits.append(zs)
            else:
                extra = zs_read
        elif zs_read is not None and target == "zhushu":
            extra = zs_read
        readings = [
            E.lem(here or None, wit=" ".join("#" + s for s in lem_wits), resp=f"#{SIKU[0]}",
                  source=src, corresp=unit_ptr),
            E.rdg(claimed or None, wit=" ".join("#" + s for s in rdg_wits), type=rtype,
                  resp=f"#{SIKU[0]}", corresp=zs_ptr if zs in rdg_wits else None) if rdg_wits else None,
            # (extra is only set when zs_read is, so zs and ch are)
            E.rdg(ch.zs_window if ch.zs_window is not None else extra or None, wit="#" + zs,
                  type="substantive", corresp=zs_ptr) if zs and ch is not None and extra is not None else None,
        ]
    # the verdict (or why there is none) and the anchoring
    verdict = None
    if ch is not None and ch.verdict:
        verdict = E.note(ch.summary, type="verdict", subtype=_VERDICT_SUBTYPE[ch.verdict], target=note_ptr)
    elif ch is not None and ch.summary:
        verdict = E.note(ch.summary, type="comment", subtype="no-verdict", target=note_ptr)
    anchoring = None
    if c.status == "failed":
        anchoring = E.note(f"not anchored: {c.error}", type="comment", subtype="unanchored", target=note_ptr)
    elif a is not None:
        word = "注同: in the 注 that follow" if r.scope == "zhu" else "下同: later occurrences"
        extra_anchors = f"; {word.split(': ')[0]}: {len(c.below)} {word.split(': ')[1]}" if c.below else ""
        anchoring = E.note(f"{r.raw} — at {a.context}{extra_anchors}", type="comment", subtype="anchor",
                           target=note_ptr)
    return E.app(*readings, verdict, anchoring, type="emendation", subtype=r.kind,
                 xml_id=f"app.{c.id}".replace("~", "-"), corresp=note_ptr, n=a.unit if a is not None else c.unit)


def _conjectured(c: Claim, here: str) -> str:
    r = c.record
    if r.kind == "conjecture" and r.transposed:
        return r.reading or here[::-1]
    return r.reading


def _claimed(c: Claim) -> str | None:
    """What the note says the other witness reads at the anchor (None: it does not say)."""
    r = c.record
    if r.kind in ("corruption", "variant", "comment"):
        if (r.transposed and not r.reading) or r.moved_to:
            return None  # the order is not given / the text stands elsewhere in the witness
        return r.reading if r.reading else None
    if r.kind == "omission":
        return ""
    if r.kind == "addition":
        return r.reading
    return None


# ---------------------------------------------------------------------------
# an emended witness
# ---------------------------------------------------------------------------


def emended_witness_tei(w: Witness, res: EmendResult, tei_names: dict[str, str] | None = None) -> etree._ElementTree:
    """The TEI of ``w`` with its emendations (from ``res``) in place as inline ``app`` elements."""
    names = {**tei_names_for(res), **(tei_names or {})}
    tree = witness_to_tei(w)
    root = tree.getroot()
    _rebase_sources(root, names)
    ems = res.on(w.meta.siglum)
    header = root.find(_T + "teiHeader")
    assert header is not None  # witness_to_tei always writes one
    alias = _add_header_parts(header, res,
                              title_note=f"emended: {counted(len(ems), 'reading')} changed on the authority of the 案 notes "
                                         f"of {res.witness.meta.title or res.witness.meta.file}")
    encd = root.find(f"{_T}teiHeader/{_T}encodingDesc")
    if encd is not None and ems and encd.find(_T + "variantEncoding") is None:
        encd.insert(0, E.variantEncoding(method="parallel-segmentation", location="internal"))
    edl = root.find(f"{_T}teiHeader/{_T}encodingDesc/{_T}editorialDecl")
    if edl is not None:
        edl.append(E.p("Emended text: each change is an inline app type='emendation'; lem is the emended reading "
                       "(@resp who proposes it, @source the evidence), rdg the witness's own characters; "
                       "@corresp points to the 案 note that motivates it."))
    elements = _piece_elements(tree, w)
    by_piece: dict[str, list[Emendation]] = {}
    for e in ems:
        by_piece.setdefault(e.piece, []).append(e)
    checks = res.checks
    js = res.witness.meta.siglum
    for pkey, lst in by_piece.items():
        el = elements.get(pkey)
        if el is None:
            continue
        for e in reversed(non_overlapping(lst)):
            ptr = f"#{e.note_id}" if e.witness == js else _ptr(names, js, e.note_id)
            assert ptr is not None  # a note id is never empty (anchor gives unnamed notes one)
            app = E.app(E.lem(e.emended or None, resp=f"#{e.resp}", source=_src_ref(s.id for s in e.sources)),
                        type="emendation", subtype=e.kind, xml_id=e.id, corresp=ptr)
            rdg = E.rdg(wit="#" + w.meta.siglum)
            ch = checks.get(e.claim_id)
            _wrap(el, e.start, e.end, app, rdg)
            if e.witness != js and ch is not None and ch.verdict:
                app.append(E.note(ch.summary, type="verdict", subtype=_VERDICT_SUBTYPE[ch.verdict], target=ptr))
    _repoint_resp(root, alias)
    return tree


def _piece_elements(tree: etree._ElementTree, w: Witness) -> dict[str, etree._Element]:
    """piece key → its ab/head element, matched in document order (the writer's order)."""
    from .anchor import piece_key

    text = tree.getroot().find(_T + "text")
    assert text is not None  # the writer's own document
    els: list[etree._Element] = []
    for section in ("front", "body", "back"):
        holder = text.find(_T + section)
        if holder is None:
            continue
        for d in holder.findall(_T + "div"):
            els.extend(x for x in d if x.tag in (_T + "ab", _T + "head"))
    order = ([d for d in w.divs if d.type == "front"] + [d for d in w.divs if d.type not in ("front", "back")]
             + [d for d in w.divs if d.type == "back"])
    keys = [piece_key(u, p) for d in order for u in d.units for p in u.pieces]
    if len(keys) != len(els):  # pragma: no cover - the writer writes one element per piece
        raise ValueError("the witness TEI does not have one element per piece")
    return dict(zip(keys, els))


def _width(child: etree._Element) -> int:
    """Characters of Piece.text an inline child stands for."""
    tag = etree.QName(child).localname if isinstance(child.tag, str) else ""
    if tag == "g":
        return 1
    if tag == "app":  # an emendation already in place: its rdg holds the original characters
        rdg = child.find(_T + "rdg")
        return _text_width(rdg) if rdg is not None else 0
    return 0


def _text_width(el: etree._Element) -> int:
    n = len(el.text or "")
    for c in el:
        n += _width(c) + len(c.tail or "")
    return n


def _wrap(el: etree._Element, start: int, end: int, app: etree._Element, rdg: etree._Element) -> None:
    """Move ``el``'s content between Piece.text offsets [start, end) into ``rdg``; put ``app`` there.

    Zero-width children (label, lb, pb, note) at ``start`` stay before the app, those at
    ``end`` after it; ``rdg`` is appended to ``app`` after the ``lem``.
    """
    items: list = []  # ("t", str, offset) | ("e", element, offset, width)
    pos = 0
    if el.text:
        items.append(("t", el.text, pos))
        pos += len(el.text)
    for child in list(el):
        w = _width(child)
        items.append(("e", child, pos, w))
        pos += w
        if child.tail:
            items.append(("t", child.tail, pos))
            pos += len(child.tail)
        child.tail = None
    for child in list(el):
        el.remove(child)
    el.text = None
    before: list = []
    inside: list = []
    after: list = []
    for it in items:
        if it[0] == "t":
            s, off = it[1], it[2]
            a = max(0, min(len(s), start - off))
            b = max(0, min(len(s), end - off))
            if s[:a]:
                before.append(("t", s[:a]))
            if s[a:b]:
                inside.append(("t", s[a:b]))
            if s[b:]:
                after.append(("t", s[b:]))
        else:
            child, off, w = it[1], it[2], it[3]
            if w:
                (inside if start <= off < end else before if off < start else after).append(("e", child))
            elif off <= start:
                before.append(("e", child))
            elif off < end:
                inside.append(("e", child))
            else:
                after.append(("e", child))
    for kind, x in before:
        _put(el, kind, x)
    el.append(app)
    app.append(rdg)
    for kind, x in inside:
        _put(rdg, kind, x)
    for kind, x in after:
        _put(el, kind, x)


def _put(el: etree._Element, kind: str, x) -> None:
    if kind == "t":
        append_text(el, x)
    else:
        el.append(x)


def write_emendations(res: EmendResult, path: str | Path, tei_names: dict[str, str] | None = None) -> Path:
    return write_checked(path, emendations_to_tei(res, tei_names))


def write_emended(w: Witness, res: EmendResult, path: str | Path, tei_names: dict[str, str] | None = None) -> Path:
    return write_checked(path, emended_witness_tei(w, res, tei_names))
