"""The apparatus in the shape the edition viewers scholars use open without edits.

Checked against their code (see README, "Opening the apparatus in EVT and the
Versioning Machine"):

* both read the witnesses from ``teiHeader//listWit/witness/@xml:id`` and show
  the ``witness`` element's content as its label (the Versioning Machine 5 takes
  its string value, EVT its child nodes), and both rebuild a witness by the rules
  of parallel segmentation from ``lem``/``rdg/@wit`` (``#`` + the id) and the text
  outside ``app`` — the rules :func:`.apparatus_reader.rebuild_from_tei` applies;
* a witness's panel is the witness: the viewer file is written with
  ``--witness-script own`` (:data:`.apparatus.WITNESS_SCRIPTS`), so each panel shows
  that witness's own characters and punctuation, readings in another script with
  their ``@xml:lang``;
* a fragmentary witness is marked as TEI 12.1.5 says and EVT 2 reads: ``witStart``
  in its empty reading where an excerpt's leading edge ends, ``witEnd`` where its
  trailing edge begins, ``lacunaStart``/``lacunaEnd`` around text lost with pages;
* the Versioning Machine renders a TEI file through its XSLT, named by an
  ``xml-stylesheet`` processing instruction relative to the file (its ``samples/``
  folder beside ``src/vmachine.xsl``).  It gives each ``ab`` the class
  ``type-LAYER`` but styles none, so 经, 注 and 疏 look alike: the file points to
  ``jiaokan-vm.xsl``, written beside it, which imports ``../src/vmachine.xsl`` and
  only swaps its stylesheet for ``jiaokan-vm.css`` (VM's own CSS, imported, plus
  the layer rules);
* every ``note`` in the body becomes a note icon in both (hence none per entry).
"""

from __future__ import annotations

import copy
from pathlib import Path

from lxml import etree

from ..io import atomic_write_text
from ..tei.build import TEI_NS, XML_ID, E
from ..tei.validate import write_checked
from .apparatus import collation_to_tei
from .model import Collation

NS = {"t": TEI_NS}

#: viewer → what it is, for help texts
VIEWERS = {
    "vm": "the Versioning Machine 5 (put the file in its samples/ folder)",
    "evt": "EVT 2 and EVT 3 (point dataUrl / editionUrls of the viewer's configuration to the file)",
}
VM_STYLESHEET = "jiaokan-vm.xsl"  # beside the file; it imports the VM's own ../src/vmachine.xsl
VM_XSL = """<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by jiaokan beside an apparatus for the Versioning Machine 5 (put both in the VM's samples/ folder):
     the VM's own stylesheet, with jiaokan-vm.css (the VM's CSS plus the layers: 经, 注, 疏 told apart). -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:import href="../src/vmachine.xsl"/>
  <xsl:variable name="cssInclude">jiaokan-vm.css</xsl:variable>
</xsl:stylesheet>
"""
VM_CSS = """/* Written by jiaokan beside an apparatus for the Versioning Machine 5: its own CSS, then the layers. */
@import url("../src/vmachine.css");
.type-jing { font-size: 1.15em; font-weight: bold; }
.type-zhu, .type-zhuan { font-size: 0.95em; color: #1f4e79; border-left: 3px solid #1f4e79; padding-left: 0.4em; }
.type-shu, .type-yinyi, .type-shi, .type-kaozheng, .type-commentary {
  font-size: 0.85em; color: #5b4a1f; border-left: 3px solid #b08a2e; padding-left: 0.4em; }
.type-jing::before { content: "经 "; color: #999; font-size: 0.7em; font-weight: normal; }
.type-zhu::before { content: "注 "; color: #999; font-size: 0.75em; }
.type-shu::before { content: "疏 "; color: #999; font-size: 0.8em; }
"""


def viewer_tree(tree: etree._ElementTree, viewer: str) -> etree._ElementTree:
    """A copy of the apparatus ``tree`` in the shape ``viewer`` (a key of :data:`VIEWERS`) opens as is.

    ``tree`` should be written with ``witness_script="own"`` (as :func:`write_viewer` does), so
    that each panel is the witness in its own characters.
    """
    if viewer not in VIEWERS:
        raise ValueError(f"unknown viewer {viewer!r}: choose from {', '.join(VIEWERS)}")
    root = copy.deepcopy(tree.getroot())  # a copy, not a re-parse: a 10 MB reading needs no parser limit
    for app in root.iterfind("t:text//t:app", NS):
        # every reading typed, as a viewer filters readings by their own @type (the apparatus says the
        # type of a reading of its entry's type once, on the app)
        vtype = app.get("type")
        for rdg in app.iterfind("t:rdg", NS):
            if rdg.get("type") is None and vtype:
                rdg.set("type", vtype)
    mark_fragments(root)
    for wit in root.iterfind("t:teiHeader//t:listWit/t:witness", NS):
        idno = wit.find("t:idno[@type='tei']", NS)
        if idno is not None:
            name = (idno.text or "").strip()
            if name:
                wit.set("corresp", name)
            wit.remove(idno)
    if viewer == "vm":
        pi = etree.ProcessingInstruction("xml-stylesheet", f'type="text/xsl" href="{VM_STYLESHEET}"')
        root.addprevious(pi)
    return etree.ElementTree(root)


def write_viewer(col: Collation, path: str | Path, viewer: str, tei_names: dict[str, str] | None = None) -> Path:
    """Write the apparatus of ``col`` for ``viewer`` to ``path`` (atomically); for the VM also its
    ``jiaokan-vm.xsl`` and ``jiaokan-vm.css`` beside it."""
    path = Path(path)
    tree = viewer_tree(collation_to_tei(col, tei_names, witness_script="own"), viewer)
    write_checked(path, tree)
    if viewer == "vm":
        atomic_write_text(path.parent / VM_STYLESHEET, VM_XSL)
        atomic_write_text(path.parent / "jiaokan-vm.css", VM_CSS)
    return path


# ---------------------------------------------------------------- fragmentary witnesses (TEI 12.1.5)
def _pair_fragment_marks(root: etree._Element, sigla: list[str],
                         marks: list[tuple[etree._Element, etree._Element, str, str]]) -> None:
    """A witness that begins late but runs to the end (or the other way) gets the missing marker too.

    EVT 2 reads a fragment as the text from the reading holding its ``witStart`` to the one
    holding its ``witEnd`` and refuses the witness when they do not pair up; where the
    witness's text reaches the end (or the start) of the apparatus there is no reading to hold
    the marker, so a zero-width entry is added there: an ``app type="edge"`` whose readings
    are all empty, the witness's holding the marker.  Nothing is read differently.
    """
    abs_ = root.findall("t:text//t:ab", NS)
    if not abs_:
        return
    for s in sigla:
        kinds = {m for _, _, w, m in marks if w == s}
        for have, need in (("witStart", "witEnd"), ("witEnd", "witStart")):
            if have in kinds and need not in kinds:
                others = " ".join("#" + w for w in sigla if w != s)
                rdg = E.rdg(wit="#" + s, type="edge")  # its category is its app's @ana, as in the apparatus
                app = E.app(E.lem(wit=others) if others else None, rdg, type="edge", ana="#vt-edge",
                            xml_id=f"{need}-{s}")
                app.text = ""  # kept on one line: EVT 2 does not find a marker in an indented reading
                ab = abs_[-1] if need == "witEnd" else abs_[0]
                if need == "witEnd":
                    ab.append(app)
                else:
                    ab.insert(0, app)
                    app.tail, ab.text = ab.text, None
                marks.append((app, rdg, s, need))


_T = "{%s}" % TEI_NS


def _wits(el: etree._Element) -> list[str]:
    return [w.lstrip("#") for w in (el.get("wit") or "").split()]


def _own_reading(app: etree._Element, reading: etree._Element, siglum: str) -> etree._Element:
    """The reading of ``siglum`` alone: ``reading`` itself, or a copy split off it (an empty ``lem`` of
    several witnesses gives the witness an ``rdg`` of its own, since an ``app`` has one ``lem``)."""
    wits = _wits(reading)
    if wits == [siglum]:
        return reading
    reading.set("wit", " ".join("#" + w for w in wits if w != siglum))
    own = copy.deepcopy(reading)
    own.tag = _T + "rdg"
    own.set("wit", "#" + siglum)
    for attr in ("n", "corresp"):
        own.attrib.pop(attr, None)
    if own.get("type") is None and app.get("type"):
        own.set("type", app.get("type") or "")
    reading.addnext(own) if reading.tag == _T + "rdg" else app.append(own)
    return own


def mark_fragments(root: etree._Element) -> None:
    """Put ``witStart``/``witEnd`` and ``lacunaStart``/``lacunaEnd`` into the empty readings of fragmentary witnesses.

    Walks the body in document order; for each witness, an empty reading of type ``edge``
    before its first text is its leading edge (``witStart`` in the last such reading: the
    witness begins after it), one after its last text the trailing edge (``witEnd`` in the
    first); a run of empty ``lacuna`` readings is a lacuna (``lacunaStart`` in the first,
    ``lacunaEnd`` in the last).
    """
    sigla = [w.get(XML_ID) or "" for w in root.iterfind("t:teiHeader//t:listWit/t:witness", NS)]
    events: dict[str, list[tuple[str, etree._Element | None, etree._Element | None]]] = {s: [] for s in sigla}
    for ab in root.iterfind("t:text//t:ab", NS):
        if (ab.text or "").strip():
            for s in sigla:
                events[s].append(("text", None, None))
        for child in ab:
            if child.tag == _T + "app":
                named = {w for r in child if r.tag in (_T + "lem", _T + "rdg") for w in _wits(r)}
                for r in child:
                    if r.tag not in (_T + "lem", _T + "rdg"):
                        continue
                    wits = _wits(r) or [s for s in sigla if s not in named]
                    has = "".join(r.itertext()).strip() or r.find("t:g", NS) is not None  # a g is a character
                    kind = "text" if has else (r.get("type") or child.get("type") or "")
                    for s in wits:
                        if s in events:
                            events[s].append((kind, child, r))
            if (child.tail or "").strip():
                for s in sigla:
                    events[s].append(("text", None, None))
    marks: list[tuple[etree._Element, etree._Element, str, str]] = []  # app, reading, siglum, marker
    for s, evs in events.items():
        texts = [i for i, (k, _, _) in enumerate(evs) if k == "text"]
        if not texts:
            continue
        first, last = texts[0], texts[-1]
        lead = [i for i in range(first) if evs[i][0] == "edge"]
        if lead:
            marks.append((evs[lead[-1]][1], evs[lead[-1]][2], s, "witStart"))  # type: ignore[arg-type]
        trail = [i for i in range(last + 1, len(evs)) if evs[i][0] == "edge"]
        if trail:
            marks.append((evs[trail[0]][1], evs[trail[0]][2], s, "witEnd"))  # type: ignore[arg-type]
        i = 0
        while i < len(evs):
            if evs[i][0] == "lacuna":
                j = i
                while j + 1 < len(evs) and evs[j + 1][0] == "lacuna":
                    j += 1
                marks.append((evs[i][1], evs[i][2], s, "lacunaStart"))  # type: ignore[arg-type]
                marks.append((evs[j][1], evs[j][2], s, "lacunaEnd"))  # type: ignore[arg-type]
                i = j + 1
            else:
                i += 1
    _pair_fragment_marks(root, sigla, marks)
    split: dict[tuple[int, str], etree._Element] = {}  # (reading, siglum) → the witness's own reading
    for app, reading, s, marker in marks:
        key = (id(reading), s)
        if key not in split:
            split[key] = _own_reading(app, reading, s)
        own = split[key]
        el = E(marker)
        if marker in ("witStart", "lacunaStart"):
            own.insert(0, el)
            el.tail, own.text = own.text, ""
        else:
            own.append(el)
        if own.text is None:
            own.text = ""  # mixed content, kept on one line: EVT 2 does not find a marker in an indented reading
