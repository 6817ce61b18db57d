"""Where a collation puts the text around a source's lost pages, scored against a hand-checked reference.

Why: a lost page cuts a witness mid-passage, often mid-注, and the rows on either side decide what the apparatus
says of it: that the text is lost (a lacuna), or that the witness omits or adds it.  The reference
(``tests/fixtures/sbck_lost_pages.tsv``) was made by reading the raw Kanripo files only: for every ``# page
missing`` of the 四部丛刊 (KR1d0026), the last characters before the loss and the first after it, their layers,
and the 集释 passage each belongs to.  Scored per loss:

* ``before``/``after``: the row holding the witness's last characters before the loss (first after it) is the
  row of the 集释 passage the reference names;
* ``between``: the rows the witness has no text in between those two are lacunae in every layer it lacks;
* ``borders``: in the two rows beside the loss, no layer it has elsewhere is said to be missing (``layer``), and no
  reading of it of over three characters is an addition or an omission (what the page took is neither).

Used by ``scripts/lost_pages.py BUILD`` on a build's TEI witnesses, collated again as the build did (the
collation of a 篇's TEI gives the build's rows: the apparatus round trip holds it).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..model import Gaiji, Gap, Text, Unit, Witness
from ..normalize.fold import key
from ..normalize.ignorable import is_ignorable

_TOKEN = re.compile(r"&[A-Za-z][A-Za-z0-9_]*;|.", re.S)


@dataclass(frozen=True)
class Loss:
    """One row of the reference."""

    file: str
    line: int
    pian: int
    before_layer: str
    before_text: str
    before_passage: str
    after_layer: str
    after_text: str
    after_passage: str


@dataclass
class Score:
    loss: Loss
    found: bool = False  # the loss is found in the witness (its text before and after the gap)
    before: bool | None = None  # the row before holds the passage the reference names (None: not asked)
    after: bool | None = None
    between: int = 0  # rows between the two in which the witness has no text
    between_lacuna: int = 0  # ... whose missing layers are all lacunae
    border_layer: list[str] = field(default_factory=list)  # layers said missing (not lost) beside the loss
    border_variants: list[str] = field(default_factory=list)  # additions/omissions of over 3 characters there

    @property
    def right(self) -> bool:
        return (self.found and self.before is not False and self.after is not False
                and self.between == self.between_lacuna and not self.border_layer and not self.border_variants)


def read_reference(path: Path) -> list[Loss]:
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [Loss(r["file"], int(r["line"]), int(r["pian"]), r["before_layer"], r["before_text"],
                 r["before_passage"], r["after_layer"], r["after_text"], r["after_passage"]) for r in rows]


def _keys(text: str) -> list[str]:
    """The fold keys of a reference string (an entity is one character), characters the collation ignores left out."""
    return [_key(t) for t in _TOKEN.findall(text) if len(t) > 1 or not is_ignorable(t)]


def _key(token: str) -> str:
    """A character's fold key, or an entity's; a code no entity can name (U-0001) matches nothing."""
    try:
        return key(token)
    except ValueError:
        return "\ufffd"


def _stream(units: list[Unit]) -> tuple[list[str], list[int], list[str], list[int]]:
    """The witness's keys in reading order, with each key's unit index and layer, and the key offsets of its gaps."""
    keys: list[str] = []
    owner: list[int] = []
    layer: list[str] = []
    gaps: list[int] = []
    for i, u in enumerate(units):
        for p in u.pieces:
            for node in p.content:
                if isinstance(node, Text):
                    for ch in node.text:
                        if not is_ignorable(ch):
                            keys.append(key(ch))
                            owner.append(i)
                            layer.append(p.layer)
                elif isinstance(node, Gaiji):
                    keys.append(_key(node.char or f"&{node.code};"))
                    owner.append(i)
                    layer.append(p.layer)
                elif isinstance(node, Gap):
                    gaps.append(len(keys))
    return keys, owner, layer, gaps


def score(loss: Loss, base: Witness, lost: Witness, col) -> Score:
    """Score one loss of witness ``lost`` in collation ``col`` (base: the 集释)."""
    from ..collate.rows import body_units

    out = Score(loss)
    units = body_units(lost)
    keys, owner, layer, gaps = _stream(units)
    before, after = _keys(loss.before_text), _keys(loss.after_text)

    def text_end(g: int) -> int:  # the end of the text before gap g, a 卷's closing title (paratext) left out
        while g > 0 and layer[g - 1] == "paratext":
            g -= 1
        return g

    hit = next((g for g in gaps if text_end(g) >= len(before) and keys[text_end(g) - len(before):text_end(g)] == before
                and keys[g:g + len(after)] == after), None)
    if hit is None or not before:
        return out
    at, end = hit, text_end(hit)
    out.found = True
    row_of = {uid: k for k, r in enumerate(col.rows) for uid in r.units.get(lost.meta.siglum, [])}
    base_units = {u.id: u for u in body_units(base)}

    def holds(k: int, passage: str) -> bool:
        want = _keys(passage)
        for uid in col.rows[k].units.get(base.meta.siglum, []):
            jing = base_units[uid].jing
            if jing is not None and _keys(jing.text)[:len(want)] == want:
                return True
        return False

    k0 = row_of.get(units[owner[end - 1]].id)
    k1 = row_of.get(units[owner[at]].id) if after and at < len(owner) else None
    out.before = k0 is not None and holds(k0, loss.before_passage)
    if after:
        out.after = k1 is not None and holds(k1, loss.after_passage)
    s = lost.meta.siglum
    has = {p.layer for u in units for p in u.pieces}
    if k0 is not None:
        last = k1 if k1 is not None else len(col.rows)
        for k in range(k0 + 1, last):
            row = col.rows[k]
            if row.units.get(s):
                continue
            out.between += 1
            mine = [g for g in col.gaps if g.row == row.id and s in g.absent and g.layer in has]
            if mine and all(g.kind == "lacuna" for g in mine):
                out.between_lacuna += 1
        for k in {k0, *([k1] if k1 is not None else [])}:
            rid = col.rows[k].id
            out.border_layer += [f"{rid} {g.layer}" for g in col.gaps
                                 if g.row == rid and s in g.absent and g.kind == "layer" and g.layer in has]
            for a in col.apps:
                r = a.readings.get(s)
                if a.row == rid and r is not None and r.type in ("addition", "omission") \
                        and max(len(r.text), len(a.lem.text)) > 3:
                    out.border_variants.append(f"{rid} {a.layer} {r.type} {(r.text or a.lem.text)[:12]}")
    return out


def table(scores: list[Score]) -> str:
    """One line per loss, and the totals."""
    lines = ["loss                  篇  found  before  after  between (lacuna)  beside the loss: said missing / variants"]
    for sc in scores:
        l = sc.loss
        yn = {True: "yes", False: "NO", None: "-"}
        lines.append(f"{l.file}:{l.line:<6} {l.pian:>3}  {yn[sc.found]:>5}  {yn[sc.before]:>6}  {yn[sc.after]:>5}  "
                     f"{sc.between:>3} ({sc.between_lacuna:>3})      "
                     f"{'; '.join(sc.border_layer + sc.border_variants) or '-'}")
    n = len(scores)
    lines.append(f"right: {sum(sc.right for sc in scores)}/{n} losses; found {sum(sc.found for sc in scores)}/{n}; "
                 f"rows between that are lacunae {sum(sc.between_lacuna for sc in scores)}/"
                 f"{sum(sc.between for sc in scores)}; beside a loss, layers said missing "
                 f"{sum(len(sc.border_layer) for sc in scores)}, additions/omissions "
                 f"{sum(len(sc.border_variants) for sc in scores)}")
    return "\n".join(lines)
