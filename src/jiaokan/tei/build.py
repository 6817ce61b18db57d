"""Building TEI elements: the one place that knows the namespace and how ``xml:id``/``xml:lang`` are spelled.

Every module that writes TEI (witnesses, their header, the apparatus, the 案 note
emendations) builds it with :data:`E`, an lxml :class:`~lxml.builder.ElementMaker`
bound to the TEI namespace, so a tree reads like the document it makes::

    E.titleStmt(
        E.title(title, type="main"),
        E.title(chapter, type="sub") if chapter else None,
        E.respStmt(E.resp("collation"), E.name("jiaokan")),
    )

On top of lxml's builder, :data:`E` does what every writer here needs and would
otherwise repeat:

* ``xml_id=`` and ``xml_lang=`` set ``xml:id`` and ``xml:lang`` (Python has no
  keyword with a colon);
* an attribute whose value is ``None`` is left out, and a ``None`` child is
  skipped, so optional parts are written inline (``E.author(a) if a else None``,
  ``n=page or None``) instead of as ``if`` blocks around the call;
* every string, text and attribute value alike, passes :func:`xml_safe`, the net
  for code points XML cannot hold (see there).

Where a loop appends to an element (running text with breaks between), append
the elements with ``parent.append(E.x(...))`` and the text with
:func:`append_text`.

The bodies of the witness and apparatus files, tens of thousands of elements each, are
written as markup and parsed once instead (:mod:`.markup`, with the same conventions):
the header is still built here and joins them.
"""

from __future__ import annotations

from functools import partial
from typing import Protocol, Union

from lxml import etree

from ..model import HELD_RE, UNKNOWN_CHAR

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
#: Clark names of the two ``xml:`` attributes, for reading them back (``el.get(XML_ID)``).
XML_ID = "{%s}id" % XML_NS
XML_LANG = "{%s}lang" % XML_NS

_ATTR_NAMES = {"xml_id": XML_ID, "xml_lang": XML_LANG}

#: What may be passed as a child to :data:`E`: an element, text, or ``None`` (skipped).
Child = Union[etree._Element, str, None]


def xml_safe(s: str) -> str:
    """``s`` with every code point XML cannot hold (or the model holds as a marker) as U+FFFD.

    The witness text never needs this: readers keep such code points as ``g``
    markers (:meth:`jiaokan.readers.common.base.WitnessBuilder.text`), so for it
    this is the identity.  It is the safety net for metadata taken from a source
    (a ``#+TITLE:`` line, a 卷 number), which would otherwise make lxml refuse the
    whole document.
    """
    return HELD_RE.sub(UNKNOWN_CHAR, s) if _may_hold(s) else s


def _may_hold(s: str) -> bool:
    """False where ``s`` surely holds nothing :func:`xml_safe` replaces: asked of the whole string in C.

    Every code point it replaces is one ``str.isprintable`` refuses (controls, surrogates, private
    use, noncharacters), but U+FFFD, which it replaces by itself; and the text of the book is
    printable but for the ideographic space (U+3000).  ``HELD_RE`` itself, a class with ranges
    beyond the BMP, costs some 60 ns a character: a third of the time of writing an apparatus.
    """
    return not s.isprintable() and not s.replace("\u3000", "").isprintable()


def language_tag(script: str) -> str:
    """The ``xml:lang`` of Literary Chinese in ``script`` (``simplified``, ``traditional``, or unknown)."""
    return {"simplified": "lzh-Hans", "traditional": "lzh-Hant"}.get(script, "lzh")


class _Build(Protocol):
    def __call__(self, *children: Child, **attrs: str | None) -> etree._Element: ...


class TEIMaker:
    """An lxml :class:`~lxml.builder.ElementMaker` for TEI with the conventions above.

    ``E.ab(...)`` and ``E("ab", ...)`` are the same; the tag is a TEI local name.

    It makes the very tree ``ElementMaker(namespace=TEI_NS, nsmap={None: TEI_NS})`` makes
    (attributes in the order given, a string child appended to the text or to the last
    child's tail), but with ``etree.Element`` and ``set`` directly: a witness's TEI is
    hundreds of thousands of calls, and the builder's generic dispatch, a dict per call and a
    function call per string (:func:`xml_safe`) cost more than the elements themselves.
    """

    def __init__(self) -> None:
        self._tags: dict[str, str] = {}

    def __call__(self, tag: str, *children: Child, **attrs: str | None) -> etree._Element:
        qname = self._tags.get(tag)
        if qname is None:
            qname = self._tags[tag] = "{%s}%s" % (TEI_NS, tag)
        # nsmap on every element: one built on its own serializes as TEI, and lxml drops the
        # repeated declaration when it joins a parent in the same namespace
        el = _element(qname, {_ATTR_NAMES.get(k, k): v if v.isascii() and v.isprintable() else xml_safe(v)
                              for k, v in attrs.items() if v is not None}, _NSMAP)
        last: etree._Element | None = None
        for c in children:
            if c is None:
                continue
            if isinstance(c, str):
                c = xml_safe(c)
                if last is None:
                    el.text = (el.text or "") + c
                else:
                    last.tail = (last.tail or "") + c
            else:
                el.append(c)
                last = c
        return el

    def __getattr__(self, tag: str) -> _Build:
        if tag.startswith("__"):  # not a tag: keeps copy, pickle and introspection from making elements
            raise AttributeError(tag)
        made = partial(self, tag)
        setattr(self, tag, made)  # found directly from now on
        return made


_NSMAP = {None: TEI_NS}
_element = etree.Element


#: The TEI element maker every writer uses.
E = TEIMaker()


def append_text(el: etree._Element, s: str) -> None:
    """Append ``s`` to the content of ``el``: after its last child (as tail), else to its text.

    For loops that build mixed content piece by piece.  It places text exactly as
    :data:`E` places a string child (through :func:`xml_safe`, and ``""`` still
    makes an empty text: ``<ab></ab>``, not ``<ab/>``).
    """
    s = xml_safe(s)
    try:  # not ``len(el)``: lxml counts children by walking them all, el[-1] starts at the last
        last = el[-1]
    except IndexError:
        el.text = (el.text or "") + s
    else:
        last.tail = (last.tail or "") + s


def tei_bytes(tree: etree._ElementTree | etree._Element) -> bytes:
    """A TEI document as the toolkit writes every one: UTF-8, with the XML declaration, indented."""
    return etree.tostring(tree, xml_declaration=True, encoding="UTF-8", pretty_print=True)
