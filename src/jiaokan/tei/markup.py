"""TEI written as markup text and parsed once: for the bodies of tens of thousands of elements.

Why: building a witness's or an apparatus's body element by element (:data:`~jiaokan.tei.build.E`,
``etree.SubElement``) costs a Python call, a dict of attributes and lxml's
namespace and attribute set-up per element; the same body written as a string of markup and
parsed by libxml2 in one call costs a fraction of that, and gives the very tree (lxml then
serializes it byte for byte as it would the built one).  The header, small and varied, is still
built with :data:`~jiaokan.tei.build.E`; :func:`fragment` turns the markup into an element to
append to it.

The helpers take what :data:`~jiaokan.tei.build.E` takes (``xml_id=``/``xml_lang=`` for the
``xml:`` attributes, an attribute whose value is ``None`` left out, in the order given) and escape
what XML must.  Code points XML cannot hold are not looked for piece by piece:
:func:`fragment` replaces them in the whole markup at once (:func:`~jiaokan.tei.build.xml_safe`),
which is the same, since no tag or attribute name holds one.

One difference from a built element: an empty text is no text here (``<ab/>``), where an element
built with ``""`` keeps an empty text node (``<ab></ab>``); the same XML, but pretty-printing
indents the children of an element without text, so a writer that relies on an empty text to keep
an element's breaks in place sets it after parsing (:func:`jiaokan.tei.writer.witness_to_tei`).
"""

from __future__ import annotations

import re

from lxml import etree

from .build import TEI_NS, xml_safe
from .parse import xml_parser

_ATTR_NAMES = {"xml_id": "xml:id", "xml_lang": "xml:lang"}
_needs_escape = re.compile('[&<"\t\n\r]').search


def text(s: str) -> str:
    """``s`` as character data (``&``, ``<``, ``>`` escaped; a carriage return as a reference, which
    the parser would otherwise read as a line feed)."""
    if "&" in s:
        s = s.replace("&", "&amp;")
    if "<" in s:
        s = s.replace("<", "&lt;")
    if ">" in s:
        s = s.replace(">", "&gt;")
    if "\r" in s:
        s = s.replace("\r", "&#13;")
    return s


def value(v: str) -> str:
    """``v`` as an attribute value between double quotes (``&``, ``<``, ``"`` escaped, and the white
    space the parser would otherwise normalize to a space as references)."""
    if _needs_escape(v) is None:
        return v
    return (v.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
            .replace("\t", "&#9;").replace("\n", "&#10;").replace("\r", "&#13;"))


def attrs(**values: str | None) -> str:
    """`` name="value"`` for each attribute given a value (``None``: left out), in the order given."""
    return "".join([f' {_ATTR_NAMES.get(k, k)}="{v if _needs_escape(v) is None else value(v)}"'
                    for k, v in values.items() if v is not None])


def start(tag: str, **values: str | None) -> str:
    """The start tag of ``tag`` (a TEI local name)."""
    return f"<{tag}{attrs(**values)}>"


def element(tag: str, content: str = "", **values: str | None) -> str:
    """``tag`` around ``content`` (markup already escaped: :func:`text`), or empty (``<tag/>``)."""
    a = attrs(**values)
    return f"<{tag}{a}>{content}</{tag}>" if content else f"<{tag}{a}/>"


def fragment(markup: str) -> etree._Element:
    """The element ``markup`` (one TEI element, its tags without namespace) makes, in the TEI namespace.

    Appended to a TEI document (:data:`~jiaokan.tei.build.E`'s), it serializes without a namespace
    declaration of its own, as a built one does.
    """
    markup = xml_safe(markup)
    name = _TAG.match(markup)
    assert name is not None, "markup must begin with a start tag"
    return _parsed(name.group(), markup[name.end():])


def _parsed(start: str, *rest: str) -> etree._Element:
    """The element that ``start`` (its start tag up to the end of its name) and ``rest`` (markup already
    :func:`~jiaokan.tei.build.xml_safe`) make, in the TEI namespace.  Parsed as UTF-8: libxml2 reads it as
    it is, where a str is first converted (a tenth more time); the parts encoded one by one, not joined as
    text first (a witness's text is millions of characters: each copy of it cost a millisecond)."""
    return etree.fromstring(b"".join([f'{start} xmlns="{TEI_NS}"'.encode("utf-8"), *(r.encode("utf-8") for r in rest)]),
                            _PARSER)


_TAG = re.compile(r"<[^\s/>]+")

_PARSER = xml_parser(collect_ids=False)  # (a repeated xml:id: the profile refuses the document, see there)


def document(root: etree._Element, markup: str) -> etree._Element:
    """A TEI document: the children of ``root`` (built: its header), then ``markup`` (its text).

    The markup is parsed into a document of its own, with ``root``'s tag and attributes, and
    ``root``'s children move into it: they are a few elements, while moving the parsed text into
    ``root``'s document instead would walk each of its tens of thousands of nodes again.
    """
    tag = etree.QName(root).localname
    new = _parsed(f"<{tag}", ">", xml_safe(markup), f"</{tag}>")
    for k, v in root.attrib.items():
        new.set(k, v)
    for i, child in enumerate(list(root)):
        new.insert(i, child)
    return new
