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
from functools import lru_cache

from typing import TYPE_CHECKING

from ..model import LineBreak, Note, PageBreak, Text, WitnessMeta
from ..alive import WhileAlive

if TYPE_CHECKING:
    from ..model import Witness

_DIGITS = "〇一二三四五六七八九"
#: page labels: a Kanripo page (``003-12b``, 卷 and leaf) and a bare leaf (``12b``); also what search.js reads by rule
KANRIPO_PAGE = re.compile(r"^(\d+)-(\d+)([ab])$")
LEAF_PAGE = re.compile(r"^(\d+)([ab])$")


def hanzi_number(n: int) -> str:  # noqa: C901 - one numeral system, one function
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
    m = KANRIPO_PAGE.match(page or "")
    if m:
        juan = int(m.group(1))
        leaf = hanzi_number(int(m.group(2))) + m.group(3)
    else:
        m = LEAF_PAGE.match(page or "")
        if m:
            leaf = hanzi_number(int(m.group(1))) + m.group(2)
    if juan is None:
        for j in (pb_juan, meta_juan):
            if j and j.strip().isdigit():
                juan = int(j)
                break
    return juan, leaf


def page_ref(script: str, juan: int | None, leaf: str | None, page: str | None) -> str:
    """卷五 葉三a (葉 in every script: one word for the leaf everywhere); a page that is no leaf label as it
    stands (p. 12)."""
    parts = []
    if juan is not None:
        parts.append(f"卷{hanzi_number(juan)}")
    if leaf:
        parts.append("葉" + leaf)
    elif page:
        parts.append(f"p. {page}")
    return " ".join(parts)


@lru_cache(maxsize=16384)
def leaf_ref(page: str | None, pb_juan: str | None, meta_juan: str) -> tuple[str, str]:
    """(卷 such as ``卷十七``, 葉 such as ``葉十二b``) of a page label; "" for what cannot be told.  Cached: the
    book has a few thousand leaves, and every view, citation record and apparatus entry names them again."""
    juan, leaf = juan_and_leaf(page, pb_juan, meta_juan)
    return (f"卷{hanzi_number(juan)}" if juan is not None else "",
            f"葉{leaf}" if leaf else (f"p. {page}" if page else ""))


def leaf_by_rule(page: str, juan: str) -> list[str] | None:
    """[卷, 葉] of a page label as ``search.js`` (``leafRef``) makes it: a Kanripo label ``003-12b`` → [卷三, 葉十二b],
    a leaf ``12b`` → [the witness's 卷, 葉十二b] (numbers under a hundred); None for any other label."""
    ref = _leaf_by_rule(page, juan)
    return list(ref) if ref is not None else None


@lru_cache(maxsize=16384)
def _leaf_by_rule(page: str, juan: str) -> tuple[str, str] | None:
    """:func:`leaf_by_rule`, cached as :func:`leaf_ref` is (the book's few thousand labels: every page break of
    every view, and each witness's search data, ask again), as a tuple that no caller can change."""
    m = KANRIPO_PAGE.match(page)
    if m and int(m.group(1)) < 100 and int(m.group(2)) < 100:
        return f"卷{hanzi_number(int(m.group(1)))}", f"葉{hanzi_number(int(m.group(2)))}{m.group(3)}"
    m = LEAF_PAGE.match(page)
    if m and int(m.group(1)) < 100:
        return juan, f"葉{hanzi_number(int(m.group(1)))}{m.group(2)}"
    return None


def citation(title: str, ref: str, line: int | None) -> str:
    """《儀禮集釋》卷五 葉三a 行4: the short form (the page's dialogs use :func:`full_citation`)."""
    head = f"《{title}》{ref}".replace("》 ", "》")
    return head + (f" 行{line}" if line and ref else "")


#: Who made a work, by the witness's role, when the manifest does not say (for the citation's head).
AUTHOR_BY_ROLE = {"jishi": "李如圭", "zhushu": "鄭玄注，賈公彦疏", "songben": "鄭玄注"}


def edition_name(meta: WitnessMeta) -> str:
    """The edition a scholar names: 文淵閣四庫全書本, 四部叢刊本 … (from the manifest's title and source, the
    Kanripo branch of the file), "" when nothing says."""
    hay = " ".join((meta.title or "", meta.source or "", meta.file or "", str(meta.extra.get("edition", ""))))
    if re.search(r"文[渊淵]阁|文[渊淵]閣|WYG|四[库庫]", hay):
        return "文淵閣四庫全書本"
    if re.search(r"四部[丛叢]刊|SBCK|KR1d0026", hay):
        return "四部叢刊本"
    if re.search(r"[图圖]书集成|圖書集成|wikisource", hay, re.I):
        return "古今圖書集成本"
    return ""


def cite_head(meta: WitnessMeta, pian: str | None) -> dict[str, str]:
    """The parts of a citation that do not change along a witness: author, work, 篇 and edition, in
    traditional characters (the convention of the citation, whatever the witness's script)."""
    from ..normalize.script import convert_text
    from ..readers.common.yili import PIAN, pian_index

    author = meta.author or AUTHOR_BY_ROLE.get(meta.role or "", "")
    i = pian_index(pian) if pian else None
    return {"author": convert_text(author, "traditional"),
            "work": convert_text(work_title(meta), "traditional"),
            "pian": PIAN[i] if i is not None else (convert_text(pian, "traditional") if pian else ""),
            "edition": edition_name(meta)}


def full_citation(head: dict[str, str], juan: str, leaf: str, line: int | None) -> str:
    """李如圭《儀禮集釋》卷十七〈喪服〉，文淵閣四庫全書本，葉十二b 行7 (cite.js builds the same string)."""
    out = f"{head.get('author', '')}《{head['work']}》{juan}"
    if head.get("pian"):
        out += f"〈{head['pian']}〉"
    if head.get("edition"):
        out += f"，{head['edition']}"
    if leaf:
        out += f"，{leaf}" + (f" 行{line}" if line else "")
    return out


#: witness → its :func:`page_starts`: a witness in two collations (the 注疏 in its 篇 and in the 疏 collated with
#: the 单疏本) is walked once, however many witnesses the book has (:class:`.alive.WhileAlive`)
_starts: WhileAlive["Witness", dict[str, tuple[int | None, str | None]]] = WhileAlive()


def page_starts(w: "Witness") -> dict[str, tuple[int | None, str | None]]:
    """Page label → (the source line before the page's first line of text, the break's own 卷): what turns a
    source line into the line on the leaf (行 = source line − that line: the page's first line of text is 行1, as
    the 案 evidence counts it, :func:`jiaokan.emend.evidence.page_first_lines`)."""
    hit = _starts.get(w)
    if hit is not None:
        return hit
    out = _page_starts(w)
    _starts.put(w, out)
    return out


def _page_starts(w: "Witness") -> dict[str, tuple[int | None, str | None]]:
    """One pass over the witness's nodes (the source line as :func:`jiaokan.model.walk` carries it, without a step
    per node: only the breaks and the first text after each are read).

    Why the first text, not the break's line: a Kanripo file sets its page break on a line of its own, or at the
    end of the page's last line (…某<pb:…003-2a>¶ then 將走見 on the next line); counted from the break's line, every
    行 of such a page was one too many, and the first page's (whose break stands before the file's first line)
    one too few (a reader's trial, against the raw files).  A page with no text (a lost page's label) keeps the
    line its break stands on."""
    out: dict[str, tuple[int | None, str | None]] = {}
    broke: dict[str, tuple[int | None, str | None]] = {}  # each page's first break: its line and 卷
    state: list = [None, None]  # [the line in force, the page whose first text is awaited]
    for p in w.pieces():
        if state[0] is None:  # as Where.enter: a piece's own line only until a break has said one
            state[0] = p.loc.line or None
        _breaks(p.content, state, out, broke)
    for label, at in broke.items():
        out.setdefault(label, at)
    return out


def _breaks(content: list, state: list, out: dict[str, tuple[int | None, str | None]],
            broke: dict[str, tuple[int | None, str | None]]) -> None:
    """Record in ``out`` the line before the first text of each page that ``content`` (notes' included) opens, and
    in ``broke`` the line of each page's first break; ``state``: the line in force and the page waiting for its
    first text, carried from node to node."""
    for node in content:
        if type(node) is Text:
            if state[1] is not None and node.text.strip():
                _first_text(state, out, broke)
            continue
        if isinstance(node, PageBreak):
            if node.n not in broke:
                broke[node.n] = (state[0], node.juan)
            state[1] = node.n if node.n not in out else None  # the text after a break is its page's
        elif isinstance(node, LineBreak):
            state[0] = node.n
        elif isinstance(node, Note):
            _breaks(node.content, state, out, broke)
        elif state[1] is not None and node.reading:  # a gaiji, a label: text of the page
            _first_text(state, out, broke)


def _first_text(state: list, out: dict[str, tuple[int | None, str | None]],
                broke: dict[str, tuple[int | None, str | None]]) -> None:
    """The awaited page's first text is on the line in force: the line before it starts the page's count."""
    label = state[1]
    out[label] = ((state[0] - 1) if state[0] is not None else None, broke[label][1])
    state[1] = None


def place_parts(w: "Witness", starts: dict[str, tuple[int | None, str | None]], page: str,
                line: int | None) -> tuple[str, int | None]:
    """(卷五 葉三a, 4) for a source line on a page of ``w``: the page's reference and the line on the leaf (the
    one meaning of 行), None where it cannot be told.  Apart, so that the chapter's data can name each page once
    and each reading by its page and line (:func:`.appview.app_table`, composed again by ``edition.js``)."""
    return page_reference(w, starts, page), leaf_line(starts, page, line)


def page_reference(w: "Witness", starts: dict[str, tuple[int | None, str | None]], page: str) -> str:
    """卷五 葉三a: the reference of a page of ``w`` (:func:`place_parts`'s first part)."""
    juan, leaf = leaf_ref(page, starts.get(page, (None, None))[1], w.meta.juan)
    return " ".join(x for x in (juan, leaf) if x)


def leaf_line(starts: dict[str, tuple[int | None, str | None]], page: str, line: int | None) -> int | None:
    """The line on the leaf of a source line on ``page`` (:func:`place_parts`'s second part), None where it
    cannot be told."""
    pb_line = starts.get(page, (None, None))[0]
    return line - pb_line if line is not None and pb_line is not None and line >= pb_line else None


def place_label(w: "Witness", starts: dict[str, tuple[int | None, str | None]], page: str | None,
                line: int | None) -> str:
    """卷五 葉三a 行4 for a source line on a page of ``w`` (:func:`place_parts` as one string)."""
    if not page:
        return ""
    ref, n = place_parts(w, starts, page, line)
    return ref if n is None else f"{ref} 行{n}"
