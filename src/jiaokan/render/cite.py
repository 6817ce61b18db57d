"""A scholar's citation of a place in a witness: 《儀禮集釋》卷五 葉三a 行4, and its TEI pointer.

Why in Python: the page labels, 卷 and lines are known exactly here (the one walk,
:func:`jiaokan.model.walk`); the page's script only picks the record of the piece a
reader selected and pastes the strings together, so the 卷 and 葉 a reader copies are
the ones the TEI file holds.

* the 卷 comes from a Kanripo page label (``005-3a`` → 卷五 葉三a), else the page
  break's own ``juan``, else the witness's single 卷 from the manifest;
* the line (行) counts the source lines from the last page break: in the Kanripo
  and 四库 exports one source line is one printed line of the half-leaf;
* the work title is the witness's own (so in its own script), without the edition
  notes the manifest adds (``儀禮集釋 (WYG)`` → 儀禮集釋).
"""

from __future__ import annotations

import re

from ..model import WitnessMeta

_DIGITS = "〇一二三四五六七八九"
_KANRIPO_PAGE = re.compile(r"^(\d+)-(\d+)([ab])$")
_PAGE = re.compile(r"^(\d+)([ab])$")


def hanzi_number(n: int) -> str:
    """1 → 一, 12 → 十二, 20 → 二十, 105 → 一百〇五, 276 → 二百七十六 (as 卷 and 葉 are numbered)."""
    if n < 0:
        raise ValueError(f"no Chinese numeral for {n}")
    if n < 10:
        return _DIGITS[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return ("" if tens == 1 else _DIGITS[tens]) + "十" + (_DIGITS[ones] if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        if rest == 0:
            tail = ""
        elif rest < 10:
            tail = "〇" + _DIGITS[rest]
        else:
            tail = (_DIGITS[1] if rest < 20 else "") + hanzi_number(rest)
        return _DIGITS[hundreds] + "百" + tail
    return str(n)


def work_title(meta: WitnessMeta) -> str:
    """The witness's title without edition notes and 卷: ``仪礼集释 卷十 (李如圭 撰 …)`` → 仪礼集释."""
    t = (meta.title or meta.work or meta.file).strip()
    t = re.split(r"\s|[(（]", t, maxsplit=1)[0]
    return t.strip("《》") or meta.file


def juan_and_leaf(page: str | None, pb_juan: str | None, meta_juan: str) -> tuple[int | None, str | None]:
    """(卷, 葉 label such as ``三a``) of a page label; ``None`` for what cannot be told."""
    juan: int | None = None
    leaf: str | None = None
    m = _KANRIPO_PAGE.match(page or "")
    if m:
        juan = int(m.group(1))
        leaf = hanzi_number(int(m.group(2))) + m.group(3)
    else:
        m = _PAGE.match(page or "")
        if m:
            leaf = hanzi_number(int(m.group(1))) + m.group(2)
    if juan is None:
        for j in (pb_juan, meta_juan):
            if j and j.strip().isdigit():
                juan = int(j)
                break
    return juan, leaf


def page_ref(script: str, juan: int | None, leaf: str | None, page: str | None) -> str:
    """卷五 葉三a (叶 in a simplified witness); a page that is no leaf label as it stands (p. 12)."""
    parts = []
    if juan is not None:
        parts.append(f"卷{hanzi_number(juan)}")
    if leaf:
        parts.append(("叶" if script == "simplified" else "葉") + leaf)
    elif page:
        parts.append(f"p. {page}")
    return " ".join(parts)


def citation(title: str, ref: str, line: int | None) -> str:
    """《儀禮集釋》卷五 葉三a 行4: what the page's script pastes together (cite.js does the same)."""
    head = f"《{title}》{ref}".replace("》 ", "》")
    return head + (f" 行{line}" if line and ref else "")
