"""The one XML parser for every TEI file jiaokan reads back (witnesses, apparatus, site inputs).

Why one factory: the files are the project's own output or a scholar's hand-edited
copy, and may be large (a 卷 exported as one line is a 10 MB text node, beyond
libxml2's default limit), so the parser runs with ``huge_tree``.  That option also
lifts libxml2's guards against entity amplification, so the parser resolves no
entity, loads no DTD, touches no network, and a document that would need any of
that is refused outright: jiaokan never writes a DOCTYPE with declarations, an
entity reference or an XInclude, so such a file is hostile or foreign, and an
error naming the file is the honest answer.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from ..errors import InputError
from ..inputs import not_a_regular_file

XINCLUDE_NS = "http://www.w3.org/2001/XInclude"


def xml_parser(collect_ids: bool = True) -> etree.XMLParser:
    """A parser that resolves nothing and reads text nodes of any size.

    ``collect_ids=False``: the ``xml:id`` values are not gathered into the document's table as the parser
    meets them, and a repeated one is no syntax error; for markup jiaokan made and checks against its
    profile before anything else reads it (:func:`jiaokan.tei.markup.fragment`), where the profile's
    ``xml:id`` (of type ``ID``) makes the check refuse a repeated one instead, and the table is made
    once by the check.  Why: the parser's table took a fifth of the time of parsing a witness; the
    check's, made instead, takes less (0.01 s a book in all).
    """
    return etree.XMLParser(
        resolve_entities=False,
        load_dtd=False,
        dtd_validation=False,
        no_network=True,
        huge_tree=True,
        remove_pis=False,
        collect_ids=collect_ids,
    )


def parse_xml(path: str | Path) -> etree._ElementTree:
    """Parse ``path`` safely; a one-line :class:`InputError` (file and line) when it is not
    well-formed XML or asks for a DTD, an entity or an XInclude."""
    name = str(path)
    problem = not_a_regular_file(name)
    if problem is not None:
        raise InputError(name, problem)
    try:
        tree = etree.parse(name, xml_parser())
    except OSError:
        raise InputError(name, "no such file or not readable") from None
    except etree.XMLSyntaxError as exc:
        raise InputError(name, f"not well-formed XML: {exc.msg}", exc.lineno) from None
    refuse_hostile(tree, name)
    return tree


def parse_xml_bytes(data: bytes, name: str) -> etree._ElementTree:
    """:func:`parse_xml` for serialized XML (an output checked before it is written)."""
    try:
        tree = etree.ElementTree(etree.fromstring(data, xml_parser()))
    except etree.XMLSyntaxError as exc:
        raise InputError(name, f"not well-formed XML: {exc.msg}", exc.lineno) from None
    refuse_hostile(tree, name)
    return tree


def refuse_hostile(tree: etree._ElementTree, name: str) -> None:
    """Refuse DTD declarations, external DTDs, entity references and XIncludes."""
    info = tree.docinfo
    if info.system_url or info.public_id:
        raise InputError(name, f"the DOCTYPE names an external DTD ({info.system_url or info.public_id}); "
                          "jiaokan loads no DTD (remove the DOCTYPE)", 1)
    if info.internalDTD is not None:
        raise InputError(name, "the DOCTYPE has an internal subset (declarations); jiaokan reads no DTD "
                          "(remove it)", 1)
    for node in tree.iter(etree.Entity):
        raise InputError(name, f"entity reference {node.text}: jiaokan resolves no entities "
                          "(write the character itself)", node.sourceline)
    for node in tree.iter(f"{{{XINCLUDE_NS}}}*"):
        raise InputError(name, "XInclude element: jiaokan does not follow XIncludes "
                          "(include the text itself)", node.sourceline)
