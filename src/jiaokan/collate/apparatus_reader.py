"""An apparatus TEI file (as :mod:`.apparatus` writes it) back to a :class:`~.model.Collation`.

The apparatus header lists its witnesses (``listWit/witness``: ``@xml:id`` is the
siglum, ``idno[@type='tei']`` the witness TEI file name; the first witness is the
base).  Rather than parse offsets back out of the segmented text, the loader reads
those witness TEI files and collates them again with the first as base: collation is
deterministic and takes well under a second, and the result carries everything the
HTML needs (offsets into layer texts, rows, gaps) exactly as the apparatus was made.

Witness files are looked for, in order: among the paths given (matched by file
name), where the pointer leads (it is relative to the apparatus file:
``../tei/x.xml`` in a build), beside the apparatus file, and in a sibling ``tei/``
folder (apparatus files written before the pointers were relative).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from lxml import etree

from ..errors import InputError
from ..tei.writer import TEI_NS, XML_NS
from ..model import UNKNOWN_CHAR, Witness
from ..normalize import strip_ignorable
from ..normalize.learned import set_form_pairs
from ..normalize.script import t2s_text
from .model import Collation

NS = {"t": TEI_NS}
_XML_ID = "{%s}id" % XML_NS


@dataclass
class ListedWitness:
    siglum: str
    tei: str  # the witness TEI file name as the apparatus gives it
    title: str


def is_apparatus(root: etree._Element) -> bool:
    """True for an apparatus document (a ``div type="apparatus"``, or a listWit with app entries)."""
    if root.find("t:text/t:body/t:div[@type='apparatus']", NS) is not None:
        return True
    return (len(root.findall("t:teiHeader//t:listWit/t:witness", NS)) > 1
            and root.find("t:text//t:app", NS) is not None)


def listed_witnesses(root: etree._Element) -> list[ListedWitness]:
    out = []
    for w in root.findall("t:teiHeader//t:listWit/t:witness", NS):
        idno = w.find("t:idno[@type='tei']", NS)
        title = w.find("t:title", NS)
        out.append(ListedWitness(
            siglum=w.get(_XML_ID) or "",
            tei=(idno.text or "").strip() if idno is not None else "",
            title="".join(title.itertext()).strip() if title is not None else "",
        ))
    return out


def find_witness_file(name: str, apparatus: Path, candidates: Sequence[Path] = ()) -> Path | None:
    """Where the witness TEI file ``name`` of ``apparatus`` is (see the module doc), or None."""
    if not name:
        return None
    direct = apparatus.parent / name  # the pointer as written: relative to the apparatus file
    base = Path(name).name  # older apparatus files gave the bare file name
    for c in candidates:
        if c.name == base and c.is_file():
            return c
    for p in (direct, apparatus.parent / base, apparatus.parent.parent / "tei" / base):
        if p.is_file():
            return p
    return None


def load_apparatus(path: str | Path, candidates: list[Path] | None = None) -> tuple[Collation, dict[str, Path]]:
    """Re-collate the witnesses an apparatus file lists, base first.

    Returns the collation and siglum → witness TEI path.  A one-line
    :class:`InputError` when the file is not an apparatus or a witness file is missing.
    """
    from ..tei.parse import parse_xml
    from .engine import CollationError

    path = Path(path)
    root = parse_xml(path).getroot()
    listed = listed_witnesses(root)
    if len(listed) < 2:
        raise InputError(str(path), "not an apparatus file (teiHeader lists fewer than two witnesses)")
    files: dict[str, Path] = {}
    read: dict[Path, list[Witness]] = {}  # each witness file read once (a JSON table holds several)
    for lw in listed:
        found = find_witness_file(lw.tei, path, list(candidates or []))
        if found is None:  # (an apparatus to_tei() wrote names SIGLUM.xml): an input whose witness has the siglum
            found = _input_of(lw.siglum, list(candidates or []), read)
        if found is None:
            raise InputError(str(path), f"witness {lw.siglum}: its TEI file {lw.tei or '(not named)'} was found "
                              "neither among the inputs (by its name or its siglum) nor beside the apparatus (nor in "
                              "../tei/)")
        files[lw.siglum] = found
    witnesses = []
    for lw in listed:
        w = _witness_in(files[lw.siglum], lw.siglum, read)
        w.meta.siglum = lw.siglum  # the apparatus's siglum wins (it is what its @wit values say)
        witnesses.append(w)
    # the variant pairs the build decided from more than these witnesses (a rare form read alike over the book,
    # a pair a scholar accepted in corpus.toml): the apparatus records them, the re-collation types them alike
    set_form_pairs(recorded_pairs(root))
    try:
        col = _collate_again(witnesses)
    except CollationError as exc:
        raise InputError(str(path), str(exc)) from None
    return col, files


def _read_witnesses(path: Path, read: dict[Path, list[Witness]]) -> list[Witness]:
    """The witnesses of a witness file an apparatus points at: a TEI file's one, or those of the JSON (CollateX
    input, or an alignment table) that `jiaokan collate` was given and named as their file."""
    from ..tei.reader import read_tei
    from .collatex import read_collatex_json

    if path not in read:
        read[path] = read_collatex_json(path) if path.suffix.lower() == ".json" else [read_tei(path)]
    return read[path]


def _witness_in(path: Path, siglum: str, read: dict[Path, list[Witness]]) -> Witness:
    ws = _read_witnesses(path, read)
    if len(ws) == 1:
        return ws[0]
    hit = next((w for w in ws if w.meta.siglum == siglum), None)
    if hit is None:
        raise InputError(str(path), f"holds no witness {siglum} (it holds {', '.join(w.meta.siglum for w in ws)})")
    return hit


def _input_of(siglum: str, candidates: list[Path], read: dict[Path, list[Witness]]) -> Path | None:
    """The one input whose witness has ``siglum`` (a witness TEI file; an apparatus among them is passed over)."""
    hits = []
    for c in candidates:
        if c.suffix.lower() != ".xml" or not c.is_file():
            continue
        try:
            if any(w.meta.siglum == siglum for w in _read_witnesses(c, read)):
                hits.append(c)
        except InputError:
            continue
    return hits[0] if len(hits) == 1 else None


def _collate_again(witnesses: list[Witness]) -> Collation:
    """The collation an apparatus of ``witnesses`` (base first) was made from, made again as the build made it.

    Why the roles decide: a 单疏本 (role ``danshu``, recorded in its TEI file) is collated only in a 疏
    collation (``NAME-shu``), its 疏 against the 注疏's (base) in rows placed by its 標起止
    (:func:`.shu.collate_shu`); collated the usual way, by 經 it does not have, its rows and their ids were
    not the apparatus's, and the 经注 page could not link to them (:mod:`jiaokan.render.shulink`)."""
    from .engine import collate

    if len(witnesses) == 2 and witnesses[0].meta.role == "zhushu" and witnesses[1].meta.role == "danshu":
        from .shu import collate_shu

        return collate_shu(witnesses[0], witnesses[1])[0]
    return collate(witnesses, base=witnesses[0].meta.siglum)


def recorded_pairs(root: etree._Element) -> list[tuple[str, str]]:
    """(base character, reading) of every one-character reading the apparatus types ``orthographic`` where the
    variant tables do not call the two one character (:func:`jiaokan.normalize.relation`: ``different`` or
    ``minor``): decisions the build took from the whole book or the manifest (:mod:`jiaokan.collate.learned`),
    which the witnesses one apparatus lists do not hold on their own."""
    from ..normalize import relation

    out: set[tuple[str, str]] = set()
    for app in root.iter(f"{{{TEI_NS}}}app"):
        lem = app.find(f"{{{TEI_NS}}}lem")
        a = "".join(lem.itertext()) if lem is not None else ""
        if len(a) != 1:
            continue
        for rdg in app.iter(f"{{{TEI_NS}}}rdg"):
            b = "".join(rdg.itertext())
            if (rdg.get("type") or app.get("type")) == "orthographic" and len(b) == 1 \
                    and relation(a, b) not in ("identical", "orthographic"):
                out.add((a, b))
    return sorted(out)


# ------------------------------------------------------------ reading witnesses back
#
# Why this lives here: an apparatus is only trustworthy if every witness can be
# read back out of it by the rules any consumer (EVT, the Versioning Machine, a
# script) applies, so the toolkit carries the reader and the tests hold the writer
# to it.  The rules of parallel segmentation (TEI P5 §12.2.4): text outside ``app``
# belongs to every witness; inside an ``app``, to the witnesses that the ``@wit``
# of its ``lem``/``rdg`` names (a ``lem`` without ``@wit`` to those no reading
# names).  ``note``, ``witDetail`` and ``gap`` carry no witness text; ``pb``/``lb``
# none either.  Script-only differences are not variants (see the header), so the
# comparison folds script: :func:`fold_script`.  A reading that holds a ``ptr`` is a
# witness's layer collated in another apparatus beside this one (:mod:`.elsewhere`: the
# 注疏's 疏 in ``NAME-shu``): its text is the witness's text of the ``ab`` elements the
# pointer names, read from that file by the same rules (:class:`_Siblings`).

_G = f"{{{TEI_NS}}}g"
_PTR = f"{{{TEI_NS}}}ptr"
_APP = f"{{{TEI_NS}}}app"
_LEM = f"{{{TEI_NS}}}lem"
_RDG = f"{{{TEI_NS}}}rdg"
_SKIP = {f"{{{TEI_NS}}}{n}" for n in ("note", "witDetail", "gap", "desc", "pb", "lb", "label", "ptr")}


def fold_script(text: str) -> str:
    """``text`` as the apparatus promises to keep it: punctuation and whitespace dropped, script folded (t2s)."""
    return t2s_text(strip_ignorable(text))


def _reading_text(el: etree._Element) -> str:
    """The characters a reading contributes (its text and its children's, minus notes and markers);
    a ``g`` with no text is a glyph no one can read: the unknown character, as in the witness's layer text."""
    if el.tag == _G and not el.text:
        return UNKNOWN_CHAR
    out = [el.text or ""]
    for child in el:
        if child.tag not in _SKIP and isinstance(child.tag, str):
            out.append(_reading_text(child))
        out.append(child.tail or "")
    return "".join(out)


def _wits(el: etree._Element) -> list[str]:
    return [w.lstrip("#") for w in (el.get("wit") or "").split()]


def rebuild_from_tei(root: etree._Element, path: str | Path | None = None) -> dict[str, dict[str, str]]:
    """Each listed witness's text, layer by layer (``ab/@type``), as the apparatus encodes it (unfolded).

    ``path``: where the apparatus is, for a reading that points to another apparatus beside it
    (see above); without it such a reading is an :class:`InputError`, as is a file it names that
    is not there: never read as the witness lacking the text."""
    sigla = [lw.siglum for lw in listed_witnesses(root)]
    out: dict[str, dict[str, str]] = {s: {} for s in sigla}
    siblings = _Siblings(Path(path) if path is not None else None)
    for ab in root.iterfind(".//t:text//t:ab", NS):
        layer = ab.get("type") or ""
        for s, text in _ab_texts(ab, sigla, siblings).items():
            if s in out:
                out[s][layer] = out[s].get(layer, "") + text
    return out


def _ab_texts(ab: etree._Element, sigla: list[str], siblings: _Siblings | None) -> dict[str, str]:
    """Each witness's text of one ``ab`` by the rules of parallel segmentation (see above); a reading
    holding a ``ptr`` read from the file it names (``siblings``; None: there is none to read)."""
    parts: dict[str, list[str]] = {s: [] for s in sigla}

    def add(wits: list[str], text: str) -> None:
        for s in wits:
            if s in parts:
                parts[s].append(text)

    add(sigla, ab.text or "")
    for child in ab:
        if child.tag == _APP:
            named: set[str] = set()
            readings = [r for r in child if r.tag in (_LEM, _RDG)]
            for r in readings:
                named.update(_wits(r))
            for r in readings:
                wits = _wits(r) or ([s for s in sigla if s not in named] if r.tag == _LEM else [])
                ptr = r.find(_PTR)
                if ptr is None:
                    add(wits, _reading_text(r))
                    continue
                if siblings is None:
                    raise InputError(None, f"ab {ab.get(_XML_ID)}: a reading of a collation read through a pointer "
                                           f"points again (to {ptr.get('target')}); an apparatus pointed to holds "
                                           "the text itself")
                for s in wits:
                    add([s], siblings.text(ptr.get("target") or "", s, ab.get(_XML_ID) or ""))
        elif isinstance(child.tag, str) and child.tag not in _SKIP:
            add(sigla, _reading_text(child))
        add(sigla, child.tail or "")
    return {s: "".join(p) for s, p in parts.items()}


class _Siblings:
    """The apparatus files a ``ptr`` names (relative to ``path``, the pointing apparatus), each read once."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.files: dict[str, tuple[Path, list[str], dict[str, etree._Element]]] = {}

    def text(self, target: str, siglum: str, at: str) -> str:
        """Witness ``siglum``'s text of the ``ab`` elements ``target`` names (``file#id`` …, in order);
        ``at``: the pointing ``ab``'s id, for the message when they cannot be read."""
        from ..tei.parse import parse_xml

        here = str(self.path) if self.path is not None else None
        out = []
        for t in target.split():
            name, _, ab_id = t.partition("#")
            if self.path is None:
                raise InputError(None, f"ab {at}: the reading of {siglum} points to {t} (collated in another "
                                       "apparatus): give the apparatus's path to read it from there")
            got = self.files.get(name)
            if got is None:
                other = self.path.parent / name
                if not other.is_file():
                    raise InputError(here, f"ab {at}: the reading of {siglum} is collated in {name}, expected beside "
                                           f"it ({other}), which is not there")
                root = parse_xml(other).getroot()
                got = self.files[name] = (other, [lw.siglum for lw in listed_witnesses(root)],
                                          {ab.get(_XML_ID) or "": ab for ab in root.iterfind(".//t:text//t:ab", NS)})
            other, sigla, abs_ = got
            ab = abs_.get(ab_id)
            if ab is None or siglum not in sigla:
                what = f"no ab {ab_id}" if ab is None else f"no witness {siglum}"
                raise InputError(str(other), f"{what}, which ab {at} of {here} points to for {siglum}")
            out.append(_ab_texts(ab, sigla, None)[siglum])
        return "".join(out)


def json_layout(data: dict) -> str:
    """``python`` or ``java``: which of CollateX's two table layouts ``data`` is in (see :mod:`.export`).

    jiaokan's own files say so (``layout``).  Otherwise the shape tells where only one layout fits it (a row of
    cells per witness, every row as long; or columns of one cell per witness), then the tokens' ``_sigil`` where
    CollateX wrote them (each token names its witness: the layout that puts every token under the witness it
    names), then a ``null`` cell (CollateX Java writes ``[]``).  A table both layouts fit and nothing tells apart
    (as many segments as witnesses, no empty cell, no ``_sigil``) is refused, asking for ``"layout"``: read the
    other way, each witness's text was a column of all of them (A's 主 and B's 主 as A's 主主), with exit 0.
    An :class:`InputError` (its file unnamed: the caller's) for a table neither fits, or that one cannot tell."""
    given = data.get("layout")
    if given is not None and given not in ("python", "java"):
        raise InputError(None, f'"layout": {given!r} is neither "python" (a row per witness) nor "java" '
                               "(a column per segment)")
    table, n = data["table"], len(data["witnesses"])
    if not isinstance(table, list) or not all(isinstance(e, list) for e in table):
        raise InputError(None, "table: expected a list of lists (a row of cells per witness, or columns of a "
                               "cell per witness)")
    bad = next((c for e in table for c in e if not (c is None or isinstance(c, list) and all(
        isinstance(t, dict) and isinstance(t.get("t"), str) for t in c))), None)
    if bad is not None:
        raise InputError(None, f"table: a cell is {json_short(bad)}: expected null or a list of tokens "
                               '[{"t": …}, …]')
    if given is not None:
        if not _fits(table, n, given):
            raise InputError(None, f"table: {len(table)} rows for {n} witnesses, or rows of different lengths "
                                   "(layout python: a row of cells per witness, all as long)" if given == "python"
                             else f"table: a column whose cells are not one per witness ({n}), or a null cell "
                                  "(layout java: a cell per witness in each column, [] for an empty one)")
        return str(given)
    fits = [lay for lay in ("python", "java") if _fits(table, n, lay)]
    if len(fits) > 1 and all(table[i][j] == table[j][i] for i in range(n) for j in range(i)):
        fits = ["python"]  # (a table its transpose: both readings give each witness the same cells)
    if len(fits) > 1:
        named = [lay for lay in fits if _sigils_agree(table, data["witnesses"], lay)]
        if len(named) == 1:
            fits = named
        elif any(c is None for e in table for c in e):
            fits = ["python"]
    if len(fits) == 1:
        if not _sigils_agree(table, data["witnesses"], fits[0]):
            raise InputError(None, f"table: laid out as {fits[0]!r} by its shape, yet its tokens' _sigil name other "
                                   "witnesses than the ones their cells are of")
        return fits[0]
    if not fits:
        rows = sorted({len(e) for e in table})
        raise InputError(None, f"table: {len(table)} entries of {', '.join(map(str, rows)) or 'no'} cells for {n} "
                               "witnesses: neither a row per witness, all as long (CollateX-Python), nor columns "
                               "of a cell per witness (CollateX Java)")
    raise InputError(None, f"table: {n} entries of {n} cells, none empty and no token naming its witness "
                           '(_sigil): a row per witness (CollateX-Python) and a column per segment (CollateX Java) '
                           'both fit; add "layout": "python" or "java"')


def json_short(value: object, most: int = 40) -> str:
    """A JSON value as an error message shows it: its text, cut at ``most`` characters."""
    import json

    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= most else text[:most] + "…"


def _fits(table: list, n: int, layout: str) -> bool:
    """Whether the table's shape is one of ``layout`` for ``n`` witnesses (its cells null or lists of tokens)."""
    cells_ok = all(c is None or isinstance(c, list) for e in table for c in e)
    if layout == "python":
        return cells_ok and len(table) == n and len({len(row) for row in table}) <= 1
    return cells_ok and all(len(col) == n for col in table) and not any(c is None for col in table for c in col)


def _sigils_agree(table: list, sigla: list, layout: str) -> bool:
    """Whether every token that names its witness (``_sigil``, as CollateX writes it) stands in that witness's
    cells when the table is read in ``layout`` (True where no token names one)."""
    for k, entry in enumerate(table):
        for j, cell in enumerate(entry):
            owner = sigla[k] if layout == "python" else sigla[j] if j < len(sigla) else None
            for tok in cell or ():
                if isinstance(tok, dict) and "_sigil" in tok and tok["_sigil"] != owner:
                    return False
    return True


def json_rows(data: dict) -> dict[str, list[list[dict] | None]]:
    """Siglum → that witness's cells (a list of tokens, or None where it has nothing), in either layout."""
    sigla = data["witnesses"]
    if json_layout(data) == "java":
        return {s: [col[i] or None for col in data["table"]] for i, s in enumerate(sigla)}
    return dict(zip(sigla, data["table"]))


def rebuild_from_json(data: dict, path: str | Path | None = None) -> dict[str, dict[str, str]]:
    """Each witness's text, layer by layer, from the JSON alignment table (:mod:`.export`, either
    layout, or the lean table of :mod:`.leanjson`: a string per cell, the layer per column).

    ``path``: where the file is, for a lean table whose ``elsewhere`` names a file beside it (a
    witness's layer collated there); without it, or without that file, an :class:`InputError`."""
    out: dict[str, dict[str, str]] = {}
    if "columns" in data:
        there = _elsewhere_rows(data, Path(path) if path is not None else None)
        order = {r["id"]: i for i, r in enumerate(data.get("rows", []))}
        for siglum, kept in _lean_rows(data).items():
            # (the row's place, the layer, the text): the table's cells, and the pointed rows' text from the other file
            got = [(order.get(row, -1), layer, text) for (row, layer), text in kept]
            if there is not None and there[0] == siglum:
                got += [(order.get(row, -1), there[1], text) for row, text in there[2].items()]
                got.sort(key=lambda x: x[0])  # (stable: the table's cells keep their order within a row)
            lean: dict[str, str] = {}
            for _, layer, text in got:
                lean[layer] = lean.get(layer, "") + text
            out[siglum] = lean
        return out
    for siglum, cells in json_rows(data).items():
        layers: dict[str, str] = {}
        for cell in cells:
            for tok in cell or []:
                layer = tok.get("layer", "jing")  # CollateX's own tokens carry no layer
                layers[layer] = layers.get(layer, "") + tok["t"]
        out[siglum] = layers
    return out


def _lean_rows(data: dict) -> dict[str, list[tuple[tuple[str, str], str]]]:
    """Siglum → its non-empty cells of a lean table, each with its column's (row, layer), in order."""
    from .leanjson import json_cells, json_columns

    columns = json_columns(data)
    _, table = json_cells(data)
    return {s: [(c, text) for c, text in zip(columns, cells) if text] for s, cells in zip(data["witnesses"], table)}


def _elsewhere_rows(data: dict, path: Path | None) -> tuple[str, str, dict[str, str]] | None:
    """(Witness, layer, row → its text) of a lean table's ``elsewhere``: the witness's cells of the layer in the
    rows of the other file each pointed row names; None where the table has no ``elsewhere``."""
    import json

    where = data.get("elsewhere")
    if not where:
        return None
    s, layer, name = where["witness"], where["layer"], where["file"]
    if path is None:
        raise InputError(None, f"the {layer} of {s} is collated in {name}: give the JSON file's path to read it "
                               "from there")
    other = path.parent / name
    if not other.is_file():
        raise InputError(str(path), f"the {layer} of {s} is collated in {name}, expected beside it ({other}), "
                                    "which is not there")
    try:
        sibling = json.loads(other.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(str(other), f"not a JSON apparatus ({exc})") from None
    if "columns" not in sibling or s not in sibling.get("witnesses", []) or sibling.get("elsewhere"):
        raise InputError(str(other), f"not a lean table that holds {s}'s {layer} itself, which {path} points to")
    cells: dict[str, list[str]] = {}
    for (row, lay), text in _lean_rows(sibling)[s]:
        if lay == layer:
            cells.setdefault(row, []).append(text)
    missing = [(row, r) for row, targets in where["rows"].items() for r in targets if r not in cells]
    if missing:  # (a pointer goes only where the witness has text: another file, or a stale one)
        raise InputError(str(other), f"no {layer} of {s} in row {missing[0][1]}, which row {missing[0][0]} of "
                                     f"{path} points to ({len(missing)} such)")
    return s, layer, {row: "".join(t for r in targets for t in cells[r]) for row, targets in where["rows"].items()}


def witness_layers(w: Witness, layers: tuple[str, ...] | list[str]) -> dict[str, str]:
    """A witness's own text of each collated layer, over the units a collation reads (front/back matter excluded)."""
    from .layertext import layer_text
    from .rows import body_units

    units = body_units(w)
    return {layer: layer_text(units, layer).text for layer in layers}


@dataclass
class RebuildFigure:
    """One witness and layer: what the witness has, what the apparatus gives back, and where they part."""

    siglum: str
    layer: str
    expected: int  # characters of the witness (folded)
    rebuilt: int  # characters read back (folded)
    mismatches: int  # characters not in common (edit distance bound: unmatched on either side)
    first_difference: str  # a little context where they first differ, "" if equal

    @property
    def ok(self) -> bool:
        return self.mismatches == 0


def compare_rebuild(expected: dict[str, dict[str, str]], rebuilt: dict[str, dict[str, str]]) -> list[RebuildFigure]:
    """Per witness and layer, the expected (the witness's own) text against what was read back, both folded."""
    from .align import align

    figures = []
    for s, layers in expected.items():
        for layer, text in layers.items():
            a = fold_script(text)
            b = fold_script(rebuilt.get(s, {}).get(layer, ""))
            if not a and not b:
                continue
            if a == b:
                figures.append(RebuildFigure(s, layer, len(a), len(b), 0, ""))
                continue
            same = sum(op.a1 - op.a0 for op in align(list(a), list(b), transpositions=False) if op.kind == "equal")
            i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            figures.append(RebuildFigure(s, layer, len(a), len(b), (len(a) - same) + (len(b) - same),
                                         f"witness …{a[max(0, i - 8):i + 8]}… / apparatus …{b[max(0, i - 8):i + 8]}…"))
    return figures
