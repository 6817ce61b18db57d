"""Truth checks: what a page says must follow from the apparatus and from a verdict's own evidence.

Why a module of its own: the edition makes statements a scholar will quote ("ZS lacks this passage", "the
note is contradicted by the 注疏", "SB reads 北 here").  Each is derived from a different stage (the rows of
the collation, the 案 check, the apparatus), and a fault in any stage used to reach the screen as a plain
falsehood.  The renderer asks this module before it says something, and says less where the evidence
does not carry it (the verdict ``uncertain`` with its reason, "not aligned" instead of "lacks"); and
:func:`check_site` reads a written site back and lists every statement its own data contradicts (the
tests walk every page of a build with it).

The rules, each one line of reasoning a reader can redo:

* **a claim's verdict** (:func:`claim_problem`): the witness that decided reads, in the claim's own
  table of readings, what the note says the target reads (``reading``) exactly when the verdict is
  ``confirmed``; a ``contradicted`` verdict over a table in which that witness reads what the note says
  (the 卷十七 女子/子女 dialog) is not shown as ✗;
* **a witness said to lack a passage** (:func:`found_elsewhere`): it lacks it only if the passage's 经 is
  nowhere in that witness's text of the chapter (folded keys, every layer): otherwise the collation
  failed to place it (a layer misread, a passage out of order), and the page says so;
* **words a reader sees**: no machine name (``zhushu``, ``agrees``, ``otherwise``), no developer
  message (``lemma '…' not found … offset 197``) (:func:`internal_words`).
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..emend.verdict import UNCOVERED, ClaimEvidence, NoteVerdict
from ..emend.words import internal_words  # the one list of words a reader must not see (re-exported)
from ..normalize import is_ignorable, key
from .html import mark_app

#: Verdicts a page can show: the check's, ``uncertain`` (the evidence does not carry a verdict) and
#: ``unchecked`` (the note makes no claim a witness here can speak to).
SHOWN = ("confirmed", "contradicted", "not covered", "uncertain", "unchecked")



def fold(text: str | None) -> str:
    """The comparison key of a reading: script, 异体 and taboo forms folded, punctuation dropped."""
    return "".join(key(ch) for ch in (text or "") if not is_ignorable(ch))


def claim_problem(c: ClaimEvidence) -> str | None:
    """Why the claim's verdict does not follow from its own table of readings, or None when it does.

    Only verdicts a witness decided are tested (``confirmed``/``contradicted`` with a ``witness`` whose
    reading is in the table): the table is what the dialog shows under the verdict.
    """
    if c.verdict not in ("confirmed", "contradicted") or not c.witness or c.witness not in c.readings:
        return None
    got = c.readings[c.witness]
    if got == UNCOVERED:
        return f"{c.witness} does not reach the place, so nothing there can bear the verdict out"
    said = fold(c.reading)
    reads = fold(got)
    if c.verdict == "confirmed" and reads != said:
        return f"{c.witness} reads 「{got or '∅'}」 where the note says 「{c.reading or '∅'}」, yet the claim was found confirmed"
    if c.verdict == "contradicted" and reads == said:
        return f"{c.witness} reads 「{got or '∅'}」, what the note says, yet the claim was found contradicted"
    return None


@dataclass(frozen=True)
class Shown:
    """A verdict as the page shows it: ``key`` one of :data:`SHOWN`, ``reason`` when it is ``uncertain``."""

    key: str
    reason: str = ""


def shown_claim(c: ClaimEvidence) -> Shown:
    problem = claim_problem(c)
    if problem:
        return Shown("uncertain", problem)
    v: str = c.verdict or "unchecked"
    if v not in SHOWN or v == "uncertain":  # a verdict the 案 stage itself calls uncertain carries its reason
        return Shown("uncertain", _reason(c))
    return Shown(v)


def _reason(obj: object) -> str:
    """The reason a verdict object carries for being uncertain (the 案 stage may add one)."""
    for name in ("reason", "uncertain_reason", "why"):
        r = getattr(obj, name, None)
        if isinstance(r, str) and r and not internal_words(r):
            return r
    return "the evidence at hand does not decide the claim"


def shown_verdict(v: NoteVerdict | None) -> Shown:
    """The note's badge: its verdict unless a claim about the same target it was decided on contradicts its
    own evidence (then ``uncertain``, with that claim's reason)."""
    if v is None:
        return Shown("unchecked")
    raw = v.verdict
    if raw is None:
        return Shown("unchecked")
    if raw not in ("confirmed", "contradicted", "not covered"):
        return Shown("uncertain", _reason(v))
    for c in v.claims:
        if c.verdict is not None and c.target in ("zhushu", ""):
            problem = claim_problem(c)
            if problem:
                return Shown("uncertain", problem)
    return Shown(raw)


# ---------------------------------------------------------------------------------------------- absences
def found_elsewhere(passage_jing: str, witness_text: str, min_chars: int = 6) -> bool:
    """True when a witness said to lack a passage has its 经 after all (folded ``witness_text`` holds the
    first ``min_chars``… characters of the folded 经): the absence is the alignment's, not the witness's.

    A passage whose 经 is too short to tell (under ``min_chars`` characters) is not tested.
    """
    probe = elsewhere_probe(fold(passage_jing), min_chars)
    return probe is not None and probe in witness_text


def elsewhere_probe(folded_jing: str, min_chars: int = 6) -> str | None:
    """What :func:`found_elsewhere` looks for in a folded witness text: the first ``min_chars``… (up to 12)
    characters of the passage's folded 经; None when the 经 is too short to tell.  Apart so that a page folds
    each 经 once, however many witnesses it is looked for in."""
    if len(folded_jing) < min_chars:
        return None
    return folded_jing[:max(min_chars, min(len(folded_jing), 12))]


# ---------------------------------------------------------------------------------------------- a written site
def _chapter_data(path: Path, slot: str = "chapters") -> dict:
    """The data a file of :func:`.search_index.js_data` statements (one a line) puts at a path holding ``slot``;
    empty when none does (a single witness's ``apps/NAME.js`` has its overview strip, no entries)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        head, _, rest = line.partition(";D")[2].partition("=")
        if slot in head:
            data: dict = json.loads(rest[:rest.rindex(";}")])
            return data
    return {}


def _page_apps(doc, site: Path, cache: dict[str, dict]) -> dict:
    """The page's apparatus entries: its numbers (``apps-data``) over the chapter's file (``apps/NAME.js``)."""
    from .appview import entry_fields  # appview's sentences import this module

    raw = doc.xpath("//script[@id='apps-data']/text()")
    here = json.loads(raw[0]) if raw else {}
    src = doc.xpath("//script[starts-with(@src, 'apps/')]/@src")
    if src and src[0] not in cache:
        tables = _chapter_data(site / src[0], '["at"]')
        cache[src[0]] = {k: entry_fields(e, tables) for k, e in _chapter_data(site / src[0], '["apps"]').items()}
    every = cache[src[0]] if src else {}
    return {k: {**every[k], "n": n} for k, n in here.items() if k in every}


def check_site(site: str | Path) -> list[str]:
    """Every statement of a written site that its own data contradicts, one line each (empty: none).

    Per chapter page: each verdict badge against its claims' readings (:func:`claim_problem`), the words of
    every dialog and of the page (:func:`internal_words`), each variant mark against the apparatus entry's
    reading for its witness, and each "not in WITNESS" row against that witness's text of the chapter.
    """
    from lxml import html as lhtml

    site = Path(site)
    out: list[str] = []
    cache: dict[str, dict] = {}
    for page in sorted(site.glob("*.html")):
        if page.name == "index.html":
            continue
        doc = lhtml.fromstring(page.read_bytes())
        meta = doc.xpath("//meta[@name='jiaokan-data']/@content")
        data = _search_data(site, meta[0], cache) if meta else None
        body = doc.xpath("//body")[0]
        visible = " ".join(t for t in body.xpath(".//text()[not(ancestor::script)]"))
        out.extend(f"{page.name}: internal word {w!r} on the page" for w in sorted(set(internal_words(visible))))
        out.extend(f"{page.name}: internal word {w!r} in a title" for w in sorted(set(
            x for t in body.xpath(".//@title | .//@aria-label | .//@aria-description") for x in internal_words(t))))
        if data is None:
            continue
        out.extend(f"{page.name}: {p}" for p in _check_notes(doc, data))
        out.extend(f"{page.name}: {p}" for p in _check_marks(doc, _page_apps(doc, site, cache)))
        out.extend(f"{page.name}: {p}" for p in _check_absences(doc, data))
    return out


def _search_data(site: Path, src: str, cache: dict[str, dict]) -> dict:
    """A chapter's search data (``search/NAME.js``), with the streams and notes of the witnesses it names in
    another chapter's file (``from``, :func:`.search_index.share_search_data`) joined in, as the page joins them."""
    if src in cache:
        return cache[src]
    from .search_index import expand_notes  # the search index's truth checks import this module

    data = cache[src] = _chapter_data(site / src)
    data["notes"] = expand_notes(data.get("notes") or {})  # every member, as search.js's expand gives them
    for s, (_name, other) in (data.get("from") or {}).items():
        o = _search_data(site, other, cache)
        data["s"] = list(data.get("s") or []) + [st for st in o.get("s") or [] if st["w"] == s]
        data["notes"] = {**(data.get("notes") or {}), **{k: n for k, n in (o.get("notes") or {}).items() if n.get("w") == s}}
    return data


def _check_notes(doc, data: dict) -> Iterable[str]:
    badges = {b.getparent().get("data-note"): b.get("class", "")
              for b in doc.xpath("//*[@data-note]/span[contains(concat(' ', @class, ' '), ' badge ')]")}
    for nid, n in (data.get("notes") or {}).items():
        v = n.get("v")
        if not v:
            continue
        shown = v.get("shown") or "unchecked"
        if shown not in SHOWN:
            yield f"note {nid}: shows the verdict {shown!r}"
        if shown == "uncertain" and not v.get("reason"):
            yield f"note {nid}: uncertain without a reason"
        for c in v.get("claims") or []:
            ce = ClaimEvidence.from_dict(c)
            problem = claim_problem(ce)
            cs = c.get("shown")
            if problem and cs in ("confirmed", "contradicted"):
                yield f"note {nid}: claim {ce.id} shown {cs} but {problem}"
            if problem and c.get("target") == "zhushu" and shown in ("confirmed", "contradicted"):
                yield f"note {nid}: badge {shown} but {problem}"
            for text in (c.get("say_en"), c.get("say_hant"), c.get("say_hans")):
                for w in internal_words(text or ""):
                    yield f"note {nid}: internal word {w!r} in what the dialog says"
        for w in internal_words(v.get("reason") or ""):
            yield f"note {nid}: internal word {w!r} in the reason"
        badge = badges.get(nid)
        if badge and f"vd-{shown.replace(' ', '-')}" not in badge.split():
            yield f"note {nid}: the badge ({badge}) is not the verdict shown in its dialog ({shown})"


def _cls(name: str) -> str:
    return f"contains(concat(' ', @class, ' '), ' {name} ')"


#: Text nodes of the page that are not the witness's reading: 案 notes, labels, page marks, footnote numbers, and
#: the readings a 案 note's change puts beside the base's characters (the emended text's, hidden until switched to).
_NOT_TEXT = "not(ancestor::*[" + " or ".join(_cls(c) for c in ("an", "label", "pb", "fn-ref", "badge", "em-was",
                                                                "em-new")) + "])"


def _unknown_as_geta(text: str) -> str:
    """A character no one can read (private use, U+FFFD, an unresolved gaiji) is shown as 〓 on the page."""
    return "".join("〓" if unicodedata.category(c) == "Co" or c == "\ufffd" else c for c in text or "")


def _check_marks(doc, apps: dict) -> Iterable[str]:
    for col in doc.xpath("//div[contains(@class,'col ')][@data-wit] | //div[@class='col'][@data-wit]"):
        s = col.get("data-wit")
        spans: dict[str, list[str]] = {}
        for m in col.xpath(".//mark[@data-a or @data-app]"):  # a variant mark (html.mark_app_attr)
            aid = mark_app(m) or ""
            if "v-ins" in m.get("class", "").split():
                spans.setdefault(aid, [])
                continue
            spans.setdefault(aid, []).append(
                "".join(m.xpath(f".//text()[{_NOT_TEXT}]")))
        for aid, parts in spans.items():
            a = apps.get(aid)
            if a is None:
                yield f"mark of unknown apparatus entry {aid} in {s}"
                continue
            rd = next((r for r in a["r"] if r[0] == s), None)
            if rd is None:
                continue
            shown, want = fold("".join(parts)), fold(_unknown_as_geta(rd[1]))
            if shown != want:
                yield f"entry {aid}: column {s} marks 「{''.join(parts)}」 but the apparatus gives {s} 「{rd[1]}」"


def _check_absences(doc, data: dict) -> Iterable[str]:
    absents = doc.xpath("//section[contains(@class,'row')][@id][.//*[contains(@class,'absent-note')]]")
    if not absents:
        return
    texts = data.get("_texts")
    if texts is None:  # once per chapter data file
        texts = {}
        for st in data.get("s") or []:
            if st["l"] not in ("an", "paratext"):  # layer by layer, as the renderer reads it (chapter.witness_key_text)
                texts[st["w"]] = texts.get(st["w"], "") + "|" + fold(st["t"])
        data["_texts"] = texts
    skip = _NOT_TEXT
    for sec in absents:
        absent = sec.xpath(".//*[contains(@class,'absent-note')]//b/text()")
        cols = sec.xpath(".//div[contains(@class,'col')][not(contains(@class,'col-empty'))]")
        jings = ["".join(c.xpath(f".//div[contains(@class,'l-jing')]//text()[{skip}]")) for c in cols]
        for s in absent:
            s = s.strip()
            hit = next((j for j in jings if s in texts and found_elsewhere(j, texts[s])), None)
            if hit is not None:
                yield f"row {sec.get('id')}: says {s} lacks the passage, but {s}'s text has its 经 「{hit[:12]}」"
