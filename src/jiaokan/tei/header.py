"""The teiHeader skeleton shared by the files that relate several witnesses (apparatus, emendations).

Witness transcriptions have their own, richer header (:mod:`.writer`); the
files that compare witnesses all need the same: a title, jiaokan's
responsibility, the licences of what they quote, the witnesses in ``listWit``
(with the TEI file each one is in) and how variants are encoded.
"""

from __future__ import annotations

from lxml import etree

from .. import __version__
from ..model import Witness
from .writer import TEI_NS, XML_NS, _el, _lang


def comparison_document(
    title: str,
    role: str,
    witnesses: list[Witness],
    tei_names: dict[str, str],
    variant_encoding: tuple[str, str],
    editorial: list[str],
) -> tuple[etree._Element, etree._Element]:
    """A new ``TEI`` root and its ``teiHeader`` for a file comparing ``witnesses`` (first = base).

    ``role`` says what jiaokan did (collation, checking 案 notes); ``variant_encoding``
    is (method, location) of ``variantEncoding``; ``editorial`` the paragraphs of the
    ``editorialDecl``.  Callers append to the header (more respStmts, sources) as needed.
    """
    root = etree.Element("{%s}TEI" % TEI_NS, nsmap={None: TEI_NS})
    root.set("{%s}lang" % XML_NS, _lang(witnesses[0].meta.script if witnesses else ""))
    header = _el(root, "teiHeader")
    fd = _el(header, "fileDesc")
    ts = _el(fd, "titleStmt")
    _el(ts, "title", title, type="main")
    rs = _el(ts, "respStmt")
    _el(rs, "resp", role)
    _el(rs, "name", f"jiaokan {__version__}")
    ps = _el(fd, "publicationStmt")
    _el(ps, "publisher", "jiaokan")
    av = _el(ps, "availability")
    _el(av, "licence", "; ".join(sorted({w.meta.licence for w in witnesses if w.meta.licence})) or "unknown")
    sd = _el(fd, "sourceDesc")
    lw = _el(sd, "listWit")
    for w in witnesses:
        wit = _el(lw, "witness", xml_id=w.meta.siglum)
        _el(wit, "title", w.meta.title or w.meta.file)
        _el(wit, "idno", tei_names.get(w.meta.siglum, ""), type="tei")
    ed = _el(header, "encodingDesc")
    _el(ed, "variantEncoding", method=variant_encoding[0], location=variant_encoding[1])
    edl = _el(ed, "editorialDecl")
    for p in editorial:
        _el(edl, "p", p)
    return root, header
