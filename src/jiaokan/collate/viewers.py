"""The apparatus in the shape the edition viewers scholars use open without edits.

Checked against their code (see README, "Opening the apparatus in EVT and the
Versioning Machine"):

* both read the witnesses from ``teiHeader//listWit/witness/@xml:id`` and show
  the ``witness`` element's content as its label (the Versioning Machine 5 takes
  its string value, EVT its child nodes), and both rebuild a witness by the rules
  of parallel segmentation from ``lem``/``rdg/@wit`` (``#`` + the id) and the text
  outside ``app`` — the rules :func:`.apparatus_reader.rebuild_from_tei` applies;
* the Versioning Machine renders a TEI file through its XSLT, named by an
  ``xml-stylesheet`` processing instruction relative to the file (its ``samples/``
  folder beside ``src/vmachine.xsl``);
* every ``note`` in the body becomes a note icon in both (hence none per entry).

So the viewer file is the full apparatus with a witness label that reads well
(the title; the witness TEI file moves from ``idno`` to ``witness/@corresp``)
and, for the Versioning Machine, the stylesheet instruction.
"""

from __future__ import annotations

import copy
from pathlib import Path

from lxml import etree

from ..io import atomic_write_bytes
from ..tei.build import TEI_NS, tei_bytes
from ..tei.validate import profile_check
from .apparatus import collation_to_tei
from .model import Collation

NS = {"t": TEI_NS}

#: viewer → what it is, for help texts
VIEWERS = {
    "vm": "the Versioning Machine 5 (put the file in its samples/ folder)",
    "evt": "EVT 2 and EVT 3 (point dataUrl / editionUrls of the viewer's configuration to the file)",
}
VM_STYLESHEET = "../src/vmachine.xsl"


def viewer_tree(tree: etree._ElementTree, viewer: str) -> etree._ElementTree:
    """A copy of the apparatus ``tree`` in the shape ``viewer`` (a key of :data:`VIEWERS`) opens as is."""
    if viewer not in VIEWERS:
        raise ValueError(f"unknown viewer {viewer!r}: choose from {', '.join(VIEWERS)}")
    root = copy.deepcopy(tree.getroot())  # a copy, not a re-parse: a 10 MB reading needs no parser limit
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
    """Write the apparatus of ``col`` for ``viewer`` to ``path`` (atomically)."""
    path = Path(path)
    tree = viewer_tree(collation_to_tei(col, tei_names), viewer)
    atomic_write_bytes(path, tei_bytes(tree), check=profile_check)
    return path
