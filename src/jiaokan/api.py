"""The Python API: the whole pipeline from one import, for notebooks and scripts.

Why a facade: the stages live in one package each (readers, tei, collate, emend,
render), which is right for the code and wrong for a user, who would need eight
imports from seven modules and the names of internal functions.  These functions
are thin, typed wrappers over the same code the command line runs; what they return
is the model itself (:class:`~jiaokan.model.Witness`, :class:`~jiaokan.collate.model.Collation`,
:class:`~jiaokan.emend.apply.EmendResult`), so nothing is lost by starting here.

    import jiaokan
    js = jiaokan.read("corpus/jishi-juan10-dasheyi-simplified.txt")   # format sniffed, siglum from corpus.toml
    zs = jiaokan.read("corpus/zhushu-dasheyi-excerpt.txt")
    col = jiaokan.collate([js, zs], layers=["jing"])
    col.counts()                                                       # variants per type

Errors raise the one hierarchy of :mod:`jiaokan.errors`, each with a one-line message:
:class:`InputError` (a file that cannot be read as what it should be; :class:`ReaderError`
for a witness file), :class:`CollationError` (what was asked cannot be collated),
:class:`EmendationError` and :class:`OutputError`; :class:`JiaokanError` is the one
class to catch for any of them.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable, Sequence, Union

from .collate.model import Collation
from .emend.apply import EmendResult
from .model import Witness, WitnessMeta
from .names import siglum_problem
from .errors import CollationError, EmendationError, InputError, JiaokanError, OutputError
from .readers.common.base import ReaderError

#: What the functions accept where a file is meant.
PathLike = Union[str, "os.PathLike[str]"]

__all__ = [
    "read", "read_collatex", "collate", "emend", "to_tei", "to_json", "render",
    "Witness", "Collation", "EmendResult",
    "JiaokanError", "InputError", "ReaderError", "CollationError", "EmendationError", "OutputError",
]


def read(path: PathLike | None = None, *, text: str | bytes | None = None, format: str | None = None,
         siglum: str | None = None, **meta: str) -> Witness:
    """Read one witness: a raw witness file in any format of ``jiaokan formats``, or a TEI file (``.xml``).

    Give either ``path`` or ``text`` (the file's content, as ``str`` or ``bytes``).  The format
    is sniffed unless ``format`` names it.  Metadata is optional: a file listed in a
    ``corpus.toml`` beside it takes its metadata from there; ``siglum`` and any
    :class:`~jiaokan.model.WitnessMeta` field given as a keyword (``chapter="大射仪"``,
    ``juan="10"``, ``script="simplified"`` …) override it.  Raises :class:`ReaderError`.
    """
    if (path is None) == (text is None):
        raise TypeError("read() takes a path or text=, not both and not neither")
    unknown = set(meta) - set(WitnessMeta.__dataclass_fields__) - {"file", "format"}
    if unknown or "file" in meta or "format" in meta:
        raise TypeError(f"read() got unknown metadata {sorted(unknown | ({'file', 'format'} & set(meta)))}; "
                        f"known: {', '.join(f for f in WitnessMeta.__dataclass_fields__ if f not in ('file', 'format', 'extra'))}")
    try:
        if text is not None:
            w = _read_text(_utf8(text) if isinstance(text, str) else text, format, siglum)
        else:
            assert path is not None  # checked above: exactly one of the two
            w = _read_path(Path(path), format)
    except ReaderError:
        raise
    except InputError as exc:  # a TEI file or a manifest that cannot be read: as documented, a ReaderError
        raise ReaderError(exc.file or str(path or "<text>"), exc.message, exc.line) from None
    if siglum:
        problem = siglum_problem(siglum)
        if problem:  # it names the witness in every xml:id and @wit of its TEI: the command line refuses it too
            raise ReaderError(str(path or "<text>"), problem)
        w.meta.siglum = siglum
    for k, v in meta.items():
        setattr(w.meta, k, v)
    return w


def _read_path(p: Path, fmt: str | None) -> Witness:
    from .corpus import find_entry
    from .readers import read_witness
    from .tei.reader import read_tei

    if p.suffix == ".xml" and fmt is None:
        return read_tei(p)
    entry = find_entry(p)
    return read_witness(p, entry.meta if entry else None, fmt)


def _utf8(text: str) -> bytes:
    """``text`` as UTF-8; a lone surrogate (bytes decoded with ``surrogateescape``) is a ReaderError, not a UnicodeEncodeError."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        raise ReaderError("<text>", f"a lone surrogate U+{ord(text[exc.start]):04X} at character {exc.start}: not Unicode "
                          "text (pass the bytes instead, or decode them strictly)", line) from None


def _read_text(data: bytes, fmt: str | None, siglum: str | None) -> Witness:
    from .readers import get_reader, sniff
    from .readers.common.base import load_source

    name = "<text>"
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<") and b"<TEI" in head:
        raise ReaderError(name, "a TEI document: read it from its file, jiaokan.read(path); text= takes the text of "
                                "a raw witness file (jiaokan formats)")
    src = load_source(name, data)
    reader = get_reader(fmt) if fmt else sniff(src)
    if reader is None:
        raise ReaderError(name, "unknown format: no reader recognises this text (give format=…)")
    return reader.read(src, WitnessMeta(siglum=siglum or "W", file=name, format=reader.name))


def read_collatex(path: PathLike) -> list[Witness]:
    """The witnesses of a CollateX JSON input file (``{"witnesses": [{"id", "content"|"tokens"}]}``).

    A CollateX witness has no layers: its text becomes one passage of 经, collated with the
    经 of other witnesses (see :mod:`jiaokan.collate.collatex`).
    """
    from .collate.collatex import read_collatex_json

    return read_collatex_json(Path(path))


def _witnesses(items: Iterable[Witness | PathLike]) -> list[Witness]:
    out: list[Witness] = []
    for it in items:
        if isinstance(it, Witness):
            out.append(it)
        elif str(it).lower().endswith(".json"):
            out.extend(read_collatex(it))
        else:
            out.append(read(it))
    return out


def collate(witnesses: Iterable[Witness | PathLike], *, base: str | None = None,
            layers: Iterable[str] | None = None, ignore: Iterable[str] = (),
            check_boundaries: bool = True) -> Collation:
    """Collate two or more witnesses layer by layer (经 with 经, 注 with 注) against ``base``.

    ``witnesses`` may mix :class:`Witness` objects and paths (read with :func:`read`; a
    ``.json`` path is CollateX input, or an alignment table :func:`to_json` or CollateX wrote, read back
    into the witnesses it aligned: :mod:`jiaokan.collate.alignment_table`).  ``base`` is a siglum (default:
    the first witness); ``layers`` limits the layers (default all); ``ignore`` drops variant types, e.g.
    ``["orthographic"]`` (either also as one string, ``"jing,zhu"``).  Raises :class:`CollationError` for a request that cannot be met.  A witness whose
    reader infers its 注/经 boundaries (the 四库 注疏) has them checked, and corrected in place, against a
    witness that marks them (:func:`jiaokan.collate.relayer.relayer_witnesses`), as ``jiaokan build`` does;
    ``check_boundaries=False`` leaves them as given (a caller that has checked them, and reports what it found).
    """
    from .collate.engine import collate as _collate
    from .collate.learned import learn_forms
    from .collate.relayer import relayer_witnesses

    if isinstance(witnesses, (str, bytes, os.PathLike, Witness)):  # a string is iterable: it was read as its letters
        raise TypeError(f"collate() takes a list of witnesses or paths, not one {type(witnesses).__name__}: "
                        f"collate([a, b])")
    layers = _names_given(layers)
    ignore = _names_given(ignore) or ()
    ws = _witnesses(witnesses)
    danshu = [w for w in ws if w.meta.role == "danshu"]
    if danshu:
        return _collate_danshu(ws, danshu, base, layers, tuple(ignore))
    # a reader's inferred 注/经 boundaries checked against a witness that marks them, as the build does (else a
    # boundary one character off was an addition and an omission that neither witness has)
    if check_boundaries:
        relayer_witnesses(ws)
    # the forms no registry knows, read from these witnesses as the build reads them from the whole book
    # (else a collation outside a build would type them by whatever a previous build left registered)
    learn_forms(ws)
    return _collate(ws, base=base, layers=list(layers) if layers else None, ignore=tuple(ignore))


def _collate_danshu(ws: list[Witness], danshu: list[Witness], base: str | None, layers: list[str] | None,
                    ignore: tuple[str, ...]) -> Collation:
    """A 单疏本 (疏 alone, no 经 to align) is collated with one 注疏, by its 標起止, as the build's ``NAME-shu``
    (:func:`jiaokan.collate.shu.collate_shu`: the 注疏 the base, the 疏 the one layer).

    Why not the passage rows: aligned by their 经, a 单疏本 fell in no row, and `diff ZS DS` said "0 differences"
    with exit 0 of two 疏 that differ at 258 places (a user's trial); beside a 经注 collation its 疏 was reported
    as the others' 经 "only in" each of them."""
    from .collate.shu import collate_shu

    zs = [w for w in ws if w.meta.role == "zhushu"]
    ds = danshu[0]
    if len(ws) != 2 or len(zs) != 1:
        others = ", ".join(f"{w.meta.siglum} ({w.meta.role or 'no role'})" for w in ws if w is not ds)
        raise CollationError(f"{ds.meta.siglum} ({ds.meta.file}) is a 单疏本 (疏 alone, no 经 to align): it is "
                             f"collated with one 注疏 (role zhushu) by its 標起止, two witnesses in all; here beside "
                             f"{others}")
    if base not in (None, zs[0].meta.siglum):
        raise CollationError(f"a 单疏本 is collated against the 注疏: the base is {zs[0].meta.siglum}, not {base}")
    if layers and layers != ["shu"]:
        raise CollationError(f"a 单疏本 holds 疏 alone: its collation has the layer shu only, not {', '.join(layers)}")
    return collate_shu(zs[0], ds, ignore)[0]


def _names_given(names: Iterable[str] | None) -> list[str] | None:
    """Layers or variant types as given: a list, or one string (``"jing"``, ``"jing,zhu"``, as the command line
    takes them), which was read as its characters (``cannot collate layer(s) j, i, n, g``)."""
    if isinstance(names, str):
        return [x.strip() for x in names.split(",") if x.strip()]
    return list(names) if names is not None else None


def emend(witness: Witness | PathLike, against: Witness | PathLike | None = None,
          others: Sequence[Witness | PathLike] = ()) -> EmendResult:
    """Anchor, apply and check the 四库 editors' 案 notes of ``witness`` (the 集释).

    With ``against`` (the 注疏), each claim about 今注疏本 is checked against it after
    aligning the two: ``confirmed``, ``contradicted`` or ``not covered``
    (``result.checks[claim.id].verdict``); ``result.emendations`` lists what was applied.
    ``others`` (the 四部丛刊 …) give their readings at every claim, and a witness of role
    ``songben`` checks the claims about a 宋本 (``result.witness_checks``); the evidence of
    every verdict is :func:`jiaokan.emend.evidence.claim_evidence` of the result.
    """
    from .emend.apply import emend as _emend
    from .emend.inputs import front_matter_beside

    w = witness if isinstance(witness, Witness) else read(witness)
    zs = against if isinstance(against, Witness) or against is None else read(against)
    more = [x if isinstance(x, Witness) else read(x) for x in others]
    # the 注疏's front matter beside its file, found as `jiaokan emend` and the build find it
    fm = front_matter_beside(against, zs.meta.siglum) if zs is not None and not isinstance(against, Witness) \
        and against is not None else None
    return _emend(w, zs, others=more, front=read(fm) if fm is not None else None)


def _names(col: Collation) -> dict[str, str]:
    """Siglum → the witness TEI file name an apparatus points at (``SIGLUM.xml`` when written by :func:`render`)."""
    return {s: f"{s}.xml" for s in col.witnesses}


def to_tei(obj: Witness | Collation | EmendResult, path: PathLike | None = None) -> str:
    """The TEI P5 of a witness (layered text), a collation (the apparatus) or an emendation result.

    Returns the XML as a string; with ``path`` also writes it there (atomically: a temporary
    file renamed into place).  An apparatus points at its witnesses as ``SIGLUM.xml``.
    """
    from .io import atomic_write_bytes
    from .tei.writer import tei_bytes

    if isinstance(obj, Witness):
        from .tei.writer import witness_to_tei

        problem = siglum_problem(obj.meta.siglum)
        if problem:  # (a siglum set on the witness by hand: read() refuses one)
            raise InputError(obj.meta.file, f"{problem}: its TEI would not be XML")

        data = tei_bytes(witness_to_tei(obj))
    elif isinstance(obj, Collation):
        from .collate.apparatus import collation_to_tei

        data = tei_bytes(collation_to_tei(obj, _names(obj)))
    elif isinstance(obj, EmendResult):
        from .emend.tei import emendations_to_tei

        data = tei_bytes(emendations_to_tei(obj))
    else:
        raise TypeError(f"to_tei() takes a Witness, Collation or EmendResult, not {type(obj).__name__}")
    if path is not None:
        atomic_write_bytes(Path(path), data)
    return data.decode("utf-8")


def to_json(obj: Collation | EmendResult, path: PathLike | None = None, *, layout: str = "python") -> dict[str, Any]:
    """A collation as CollateX's alignment table plus typed variants, or an emendation report, as a dict.

    The collation's ``{"witnesses", "table"}`` is what tools that read CollateX's JSON
    output expect, in CollateX-Python's ``layout`` (a row per witness) or ``"java"``
    (a column per segment, ``[]`` gaps, sigla sorted); with ``path`` the JSON is also
    written there (atomically).
    """
    from .io import atomic_write_text

    if isinstance(obj, Collation):
        from .collate.export import collation_to_json

        data = collation_to_json(obj, layout)
    elif isinstance(obj, EmendResult):
        from .emend.report import to_json as _report

        data = _report(obj)
    else:
        raise TypeError(f"to_json() takes a Collation or EmendResult, not {type(obj).__name__}")
    if path is not None:
        atomic_write_text(Path(path), json.dumps(data, ensure_ascii=False, indent=1))
    return data


def render(*items: Witness | Collation | EmendResult | PathLike, out: PathLike = "site",
           title: str | None = None) -> Path:
    """Write the parallel-text HTML edition into ``out``; returns the path of its ``index.html``.

    ``items`` are TEI file paths (witnesses and apparatus, as ``jiaokan render`` takes) and/or
    objects: a :class:`Collation` becomes a parallel page of its witnesses, a
    :class:`Witness` a page of its own, an :class:`EmendResult` supplies the 案 verdicts shown
    in place.  Objects are written as TEI to a temporary folder first, because the renderer
    reads what a reader of the edition would: the TEI.
    """
    from .emend.report import verdicts_by_note
    from .render import render_paths

    from .emend.verdict import NoteVerdict

    if not any(not isinstance(it, EmendResult) for it in items):
        # a user's trial: render() with nothing to show wrote an empty edition into ./site and said nothing
        raise InputError(str(out), "render() needs a witness, a collation or a TEI file to show (an EmendResult "
                         "only adds the 案 verdicts to them): render(col, res, out=...)")
    verdicts: dict[str, NoteVerdict] = {}
    with tempfile.TemporaryDirectory(prefix="jiaokan-render-") as tmp:
        t = Path(tmp)
        paths: list[str | Path] = []
        written: set[str] = set()

        def witness_file(w: Witness) -> None:
            if w.meta.siglum not in written:
                written.add(w.meta.siglum)
                paths.append(t / f"{w.meta.siglum}.xml")
                to_tei(w, paths[-1])

        for i, it in enumerate(items):
            if isinstance(it, Collation):
                for w in it.witnesses.values():
                    witness_file(w)
                paths.append(t / f"collation{i + 1}.xml")
                to_tei(it, paths[-1])
            elif isinstance(it, Witness):
                witness_file(it)
            elif isinstance(it, EmendResult):
                verdicts.update(verdicts_by_note(it))
            else:
                paths.append(Path(it))
        render_paths(paths, Path(out), verdicts=verdicts or None, title=title)
    return Path(out) / "index.html"
