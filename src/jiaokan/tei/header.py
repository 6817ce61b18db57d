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
from .build import E, language_tag


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
    licences = sorted({w.meta.licence for w in witnesses if w.meta.licence})
    header = E.teiHeader(
        E.fileDesc(
            E.titleStmt(
                E.title(title, type="main"),
                E.respStmt(E.resp(role), E.name(f"jiaokan {__version__}")),
            ),
            E.publicationStmt(
                E.publisher("jiaokan"),
                E.availability(E.licence("; ".join(licences) or "unknown")),
            ),
            E.sourceDesc(E.listWit(*(
                E.witness(E.title(w.meta.title or w.meta.file),
                          E.idno(tei_names.get(w.meta.siglum, ""), type="tei"),
                          xml_id=w.meta.siglum)
                for w in witnesses))),
        ),
        E.encodingDesc(
            E.variantEncoding(method=variant_encoding[0], location=variant_encoding[1]),
            E.editorialDecl(*(E.p(p) for p in editorial)),
        ),
    )
    root = E.TEI(header, xml_lang=language_tag(witnesses[0].meta.script if witnesses else ""))
    return root, header
