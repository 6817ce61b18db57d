"""Write the site: index.html, a parallel page and a base-text page per chapter, the stylesheet and script.

Everything is relative and local (no CDN, no network): the site works opened from disk.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape

from .. import __version__
from ..io import atomic_write_bytes, copy_file
from ..model import Note, Witness
from ..parallel import fork_map
from ..readers.common.yili import PIAN, pian_index
from .chapter import Chapter, base_context, parallel_context, variant_counts
from .emended import emendations
from .html import VARIANT_ZH, bar_tools, lang_of, variant_class
from .rowhtml import rows_html
from .parts import ROW_BYTES, ROW_TAGS, Part, id_map_js, ids_of, map_file, nav, plan, weigh
from .notes import VERDICT_ZH, Verdicts, badge_legend, note_summary, verdict_key
from .search_index import search_src, share_search_data, write_book_search, write_chapter_search
from .searchfold import prepare_fold, remember
from .shulink import link_shu, shu_pairs
from .templatecache import template_cache

STATIC = ("edition.css", "edition.js", "search.js", "cite.js", "verdict.js", "search.css")


@dataclass
class SiteReport:
    out: Path
    pages: dict[str, int] = field(default_factory=dict)  # file name → bytes
    data: dict[str, int] = field(default_factory=dict)  # search/citation data file → bytes

    @property
    def largest(self) -> tuple[str, int]:
        chapter_pages = {k: v for k, v in self.pages.items() if k != "index.html"} or self.pages
        return max(chapter_pages.items(), key=lambda kv: kv[1])


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The site's Jinja environment, one per process: it compiles each template once (a new
    environment per chapter compiled them all again, 4% of the build); forked workers inherit it.
    ``auto_reload`` off: the templates are the package's, which no build changes, and it asked the file
    system whether a template had changed each time a page was written (four hundred times a book).  The compiled
    templates are kept on disk between builds (:mod:`.templatecache`)."""
    env = Environment(loader=PackageLoader("jiaokan", "templates"), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True, auto_reload=False)
    env.bytecode_cache = template_cache(env)
    env.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "sort_keys": False, "separators": (",", ":")}
    env.globals["version"] = __version__
    env.globals["vclass"] = variant_class  # a variant type's class (the toolbar's swatches, the contents' counts)
    env.globals["bar_tools"] = bar_tools  # the bar's display options as data (_bar.html, edition.js buildTools)
    env.globals["app_numbers"] = app_numbers  # the page's entries and their numbers (_panel.html's apps-data)
    env.globals["rows_html"] = rows_html  # the parallel view's rows (chapter.html)
    return env


def _witness_rows(chapters: list[Chapter], notes_of: dict[int, list[Note]]) -> list[dict]:
    out, seen = [], set()
    for ch in chapters:
        for s, w in ch.witnesses.items():
            if id(w) in seen:
                continue
            seen.add(id(w))
            m = w.meta
            out.append({
                "siglum": s, "title": m.title or m.file, "work": m.work, "chapter": m.chapter, "juan": m.juan,
                "script": m.script, "lang": lang_of(m.script), "format": m.format, "file": m.file,
                "source": m.source, "licence": m.licence, "author": m.author,
                "passages": sum(1 for _ in w.passages()), "notes": len(notes_of[id(w)]),
                "page": ch.page, "tei": ch.tei_files.get(s),
            })
    return out


_NUMERAL = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四", "十五",
            "十六", "十七"]


def _toc_entry(n: int, ch: Chapter, verdicts: Verdicts | None, notes_of: dict[int, list[Note]]) -> dict:
    """One line of the book's table of contents: the 篇, its witnesses, its variants and 案 notes by kind."""
    w = ch.witnesses[ch.base]
    col = ch.collation
    counts = variant_counts(col) if col else {}
    notes = [x for wit in ch.witnesses.values() for x in notes_of[id(wit)]]
    an: dict[str, int] = {}
    if verdicts is not None:
        for x in notes:
            v = verdicts.get(x.id or "")
            k = verdict_key(v)
            an[k] = an.get(k, 0) + 1
    i = pian_of(ch)
    return {
        "n": n, "ch": ch, "pian": _NUMERAL[i + 1] if i is not None else "", "label": ch.label, "lang": lang_of(w.meta.script), "base": ch.base,
        "witnesses": [{"siglum": s, "title": x.meta.title or x.meta.file, "lang": lang_of(x.meta.script),
                       "juan": x.meta.juan} for s, x in ch.witnesses.items()],
        "rows": len(ch.rows()), "apps": len(col.apps) if col else 0,
        "counts": [(t, c) for t, c in counts.items() if c], "variants": sum(counts.values()),
        "notes": len(notes), "verdicts": an,
    }


def toc_groups(chapters: list[Chapter]) -> list[list[Chapter]]:
    """The table of contents: one entry per 篇, its first collation (in the book's order) first, then the 篇's
    other pages (its 疏 collated with the 单疏本, NAME-shu; the 識誤's page); a page of no known 篇 is an entry
    of its own."""
    groups: list[list[Chapter]] = []
    by_pian: dict[int, list[Chapter]] = {}
    for ch in chapters:
        i = pian_of(ch)
        if i is None:
            groups.append([ch])
        elif i in by_pian:
            by_pian[i].append(ch)
        else:
            by_pian[i] = [ch]
            groups.append(by_pian[i])
    return groups


def _toc_more(ch: Chapter) -> dict:
    """A further page of a 篇 in its ToC entry: what it is (the 疏 collation, or a single witness such as the
    識誤), its witnesses and its views."""
    col = ch.collation
    kind = "single" if col is None else ("shu" if {a.layer for a in col.apps} == {"shu"} else "collation")
    return {"ch": ch, "kind": kind, "sigla": list(ch.witnesses), "variants": sum(variant_counts(col).values()) if col else 0,
            "titles": {s: w.meta.title or w.meta.file for s, w in ch.witnesses.items()}}


def index_context(chapters: list[Chapter], title: str, verdicts: Verdicts | None) -> dict:
    all_w: list[Witness] = []
    seen = set()
    for ch in chapters:
        for w in ch.witnesses.values():
            if id(w) not in seen:
                seen.add(id(w))
                all_w.append(w)
    # every witness's notes, gathered once: the table of contents, the list of witnesses and the summary of the
    # 案 notes each count them (a witness of two pages, the 注疏, twice in the table of contents)
    notes_of = {id(w): w.notes() for w in all_w}
    toc = []
    for i, group in enumerate(toc_groups(chapters), 1):
        entry = _toc_entry(i, group[0], verdicts, notes_of)
        entry["more"] = [_toc_more(ch) for ch in group[1:]]
        toc.append(entry)
    return {"title": title, "toc": toc, "witnesses": _witness_rows(chapters, notes_of),
            "an": note_summary(all_w, verdicts, notes_of), "legend": badge_legend(), "view": "index", "vt_zh": VARIANT_ZH,
            "verdict_zh": VERDICT_ZH}


def _distinct_pages(chapters: list[Chapter]) -> None:
    """Give every chapter page names of its own: ``NAME.html`` and ``NAME-base.html`` must not
    overwrite ``index.html`` or another chapter's pages (a witness file called ``index.xml``,
    or one called ``x-base.xml`` beside a collation ``x``)."""
    taken = {"index"}
    for ch in chapters:
        name, k = ch.name, 2
        while name in taken or f"{name}-base" in taken:
            name, k = f"{ch.name}-{k}", k + 1
        taken.update((name, f"{name}-base"))
        ch.name = name


def pian_of(ch: Chapter) -> int | None:
    """0-based place of the chapter's 篇 in the book (its label or the base witness's chapter), else None."""
    for t in (ch.label, ch.witnesses[ch.base].meta.chapter):
        i = pian_index(t) if t else None
        if i is not None:
            return i
    return None


def book_order(chapters: list[Chapter]) -> list[Chapter]:
    """The collations in the order of the book's 篇 (those of no known 篇 after them, as given), then the pages
    of single witnesses."""
    def key(ch: Chapter) -> tuple[int, int]:
        i = pian_of(ch)
        return (0 if ch.collation is not None else 1, i if i is not None else len(PIAN))

    return sorted(chapters, key=key)


def link_chapters(chapters: list[Chapter]) -> None:
    """Previous and next 篇 for the collations (in the order given); single-witness pages have none."""
    book = [c for c in chapters if c.collation is not None] or chapters
    # one page per 篇 in the chain: a 篇's second collation (its 疏 against the 单疏本, NAME-shu) is reached
    # from the table of contents, not between two 篇
    seen: set[int] = set()
    chain = []
    for c in book:
        i = pian_of(c)
        if i is None or i not in seen:
            chain.append(c)
        if i is not None:
            seen.add(i)
    book = chain
    for a, b in zip(book, book[1:]):
        a.next, b.prev = b, a


def render_site(chapters: list[Chapter], out: str | Path, *, verdicts: Verdicts | None = None,
                title: str | None = None, copies: dict[str, Path] | None = None, jobs: int = 1) -> SiteReport:
    """Write the site into ``out``; ``copies``: href → file to copy alongside (the TEI sources).

    ``jobs`` > 1 renders that many chapters at once in forked processes (a chapter's pages and
    its search data depend on nothing else; :func:`jiaokan.parallel.fork_map`).
    """
    out = Path(out)
    env = environment()
    rep = SiteReport(out)
    title = title or "校勘 edition"
    _distinct_pages(chapters)
    for ch in chapters:  # an emended-text page where the base's 案 notes change readings that can be placed
        ch.emends = emendations(ch.witnesses[ch.base], verdicts) if verdicts else {}
        ch.shu_links, ch.shu_pages = {}, {}
    chapters = book_order(chapters)
    link_chapters(chapters)
    share_search_data(chapters)

    def write(name: str, template: str, ctx: dict) -> None:
        data = env.get_template(template).render(site_title=title, **ctx).encode("utf-8")
        atomic_write_bytes(out / name, data)
        rep.pages[name] = len(data)

    # how much work a chapter is: the nodes of its witnesses' pieces (a line break every source line, so in
    # proportion to the characters, without joining every text as Witness.layer_counts does, serial here), each
    # witness counted once (the 注疏 is in two chapters)
    nodes: dict[int, int] = {}
    for ch in chapters:
        for w in ch.witnesses.values():
            if id(w) not in nodes:
                nodes[id(w)] = sum(len(p.content) for d in w.divs for u in d.units for p in u.pieces)
    size = [sum(nodes[id(w)] for w in ch.witnesses.values()) for ch in chapters]
    biggest_first = sorted(range(len(chapters)), key=lambda i: -size[i])
    if jobs > 1:  # the templates compiled once, before the workers fork
        for name in env.list_templates():
            env.get_template(name)
    # one map of every page, the 疏 pages first: the 经注 pages link to the part and row of theirs that shows each 疏
    # (:mod:`.shulink`), so each waits for its 疏 pages and is given their rows (``fork_map``'s ``after``), the pages
    # after it taken meanwhile.  (Two maps, the 疏 pages and then the rest, forked the whole build twice and left a
    # process idle while the first map's last page was rendered.)  A 疏 page linked itself is rendered without links,
    # as before
    pairs = shu_pairs(chapters)
    at = {id(ch): i for i, ch in enumerate(chapters)}
    shu = {at[id(sc)] for _ch, sc, _s in pairs}
    linked: dict[int, Pairs] = {}  # a 经注 page → its (经注, 疏, siglum) pairs
    for pair in pairs:
        if at[id(pair[0])] not in shu:
            linked.setdefault(at[id(pair[0])], []).append(pair)
    order = [i for i in biggest_first if i in shu] + [i for i in biggest_first if i not in shu]
    place = {i: k for k, i in enumerate(order)}
    after = {place[i]: [place[at[id(sc)]] for _ch, sc, _s in ps] for i, ps in linked.items()}
    job = (chapters, out, title, verdicts, linked)

    def contents() -> None:
        """The book's contents page, and the half of the book's folding table that no page decides: neither
        asks what the chapters' renders make, so this process does them while the workers render (they ran
        alone here after the workers, a tenth of a second; :func:`jiaokan.parallel.fork_map`'s ``meanwhile``)."""
        write("index.html", "index.html", index_context(chapters, title, verdicts))
        prepare_fold()

    items: list[tuple[int, tuple[dict[str, str], ...]]] = [(i, ()) for i in order]
    done = dict(zip(order, fork_map(_render_chapter, job, items, jobs, meanwhile=contents, after=after,
                                    bind=_with_shu_rows)))
    link_shu(pairs, {chapters[i].name: done[i][3] for i in shu})  # here too: this process's chapters have them
    for i in range(len(chapters)):  # reported in the book's order
        pages, data, held, _rows = done[i]
        rep.pages.update(pages)
        rep.data.update(data)
        for s, chars in held.items():  # what the chapter's search read of its witnesses, for the book's folding table
            remember(chapters[i].witnesses[s], chars)
    rep.data.update(write_book_search(chapters, out))
    for name in STATIC:
        atomic_write_bytes(out / "static" / name, files("jiaokan").joinpath("static", name).read_bytes())
    for href, src in (copies or {}).items():
        dest = out / href
        if Path(src).resolve() != dest.resolve():
            copy_file(src, dest)
    return rep


Rendered = tuple[dict[str, int], dict[str, int], dict[str, frozenset[str]], dict[str, str]]


def _with_shu_rows(item: tuple[int, tuple[dict[str, str], ...]],
                   shu: list[Rendered]) -> tuple[int, tuple[dict[str, str], ...]]:
    """A 经注 page's item once its 疏 pages are rendered: with the part file that holds each of their rows."""
    return item[0], tuple(r[3] for r in shu)


Pairs = list[tuple[Chapter, Chapter, str]]


def _render_chapter(job: tuple[list[Chapter], Path, str, Verdicts | None, dict[int, Pairs]],
                    item: tuple[int, tuple[dict[str, str], ...]]) -> Rendered:
    """Write chapter ``i``'s parallel page, base-text page and search data; (pages, data files) → bytes, the
    characters of the witnesses its search data indexes (:func:`.search_index.write_chapter_search`), and the
    part file of the parallel view that holds each row (row id → file, for :func:`.shulink.link_shu`).

    ``item``: ``i`` and, for a 经注 page, the rows of its 疏 pages (their part files) for its links, given in the
    process that renders it (a worker forked before they were rendered)."""
    chapters, out, title, verdicts, linked = job
    i, shu_rows = item
    ch = chapters[i]
    if i in linked:
        link_shu(linked[i], {sc.name: rows for (_ch, sc, _s), rows in zip(linked[i], shu_rows)})
    env = environment()
    pages: dict[str, int] = {}
    rows_at: dict[str, str] = {}
    todo = [(ch.page, "chapter.html", parallel_context(ch, verdicts))]
    if not ch.base_drawn:
        todo.append((ch.base_page, "basetext.html", base_context(ch, verdicts, emended=ch.has_emended)))
    # views that are another page switched now: the emended text (the base page, ``?v=emended``) and every witness
    # as the reading text but a base that is the emended text (the parallel page, ``?read=SIGLUM``); their old
    # addresses lead there
    moved = [(ch.emended_page, ch.emended_href)] if ch.has_emended else []
    moved += [(ch.base_file, ch.base_page)] if ch.base_drawn else []
    moved += [(ch.old_reading_page(s), page) for s, page in ch.readers if s != ch.base]

    def write_moved(todo: list[tuple[str, str]]) -> None:
        for name, to in todo:
            data = env.get_template("moved.html").render(site_title=title, chapter=ch, to=to).encode("utf-8")
            atomic_write_bytes(out / name, data)
            pages[name] = len(data)

    write_moved(moved)
    data_files, held = write_chapter_search(ch, out, verdicts)
    for name, template, ctx in todo:
        key = "rows" if "rows" in ctx else "blocks"
        weights = [_row_weight(r) for r in ctx[key]]
        if weights and ctx.get("front"):  # the front matter opens part 1
            weights[0] = tuple(a + b for a, b in zip(weights[0], _row_weight(ctx["front"])))  # type: ignore[assignment]
        parts = plan(name, weights)
        numbers = [r["n"] for r in ctx[key]]
        ids = []
        apps = _apps_by_part(ctx, key, parts)
        for part in parts:
            pctx = _part_context(ctx, key, parts, part, numbers, apps)
            html = env.get_template(template).render(site_title=title, search_src=search_src(ch), **pctx)
            data = html.encode("utf-8")
            atomic_write_bytes(out / part.page, data)
            pages[part.page] = len(data)
            if len(parts) > 1:  # which part holds an id: only a view of several parts needs its map
                ids.append(ids_of(html) + list(pctx["apps"]))
        if len(parts) > 1:
            js = id_map_js(map_file(name), [p.page for p in parts], ids)
            atomic_write_bytes(out / map_file(name), js)
            data_files[map_file(name)] = len(js)
        if template == "chapter.html":  # the parts of a base page there was: to the base view (a permalink's id leads on)
            write_moved([(old, ch.base_page) for old in ch.old_base_parts(len(parts))])
            rows_at = {r["id"]: part.page for part in parts for r in ctx[key][part.start:part.end]}
    return pages, data_files, held, rows_at


def app_numbers(apps: dict[str, dict]) -> dict[str, int | None]:
    """What a page writes of its apparatus entries (``ctx["apps"]``, :func:`.appview.app_data`): each entry's number
    in the view's 校勘記.  Its row is the chapter's file's too (``apps/NAME.js``, an entry's first field), and
    written again per entry it was a tenth of a page's bytes (0.6 MB over the book)."""
    return {k: v["n"] for k, v in apps.items()}


def _row_weight(r: dict) -> tuple[int, int]:
    """(bytes, elements) of a row of the parallel view (its columns) or a block of a base view (its text, its
    校勘記 entries, what only another witness has), with what a row costs beyond them."""
    parts = [c["html"] for c in r.get("cols", [])] + [r.get("html", "")] + list(r.get("foot", []))
    parts += [o["html"] for o in r.get("others", [])]
    b, t = ROW_BYTES, ROW_TAGS
    for h in parts:  # (a Markup as it is: ``str()`` copied every column of the book to weigh it)
        x, y = weigh(h)
        b, t = b + x, t + y
    return b, t


def _apps_by_part(ctx: dict, key: str, parts: list[Part]) -> list[dict]:
    """The view's apparatus entries (``ctx["apps"]``) split by the part that holds their row, each part's in the
    view's order, in one pass over them (filtering them part by part went over every entry once per part)."""
    if len(parts) == 1:
        return []
    part_of = {r["id"]: i for i, part in enumerate(parts) for r in ctx[key][part.start:part.end]}
    out: list[dict] = [{} for _ in parts]
    for k, v in ctx.get("apps", {}).items():
        i = part_of.get(v.get("row"))
        if i is not None:
            out[i][k] = v
    return out


def _part_context(ctx: dict, key: str, parts: list[Part], part: Part, numbers: list[int],
                  apps: list[dict]) -> dict:
    """The template context of one part: its rows, the front matter on the first, the back on the last, the
    apparatus entries of its rows only (``apps``: :func:`_apps_by_part`)."""
    if len(parts) == 1:
        return {**ctx, "parts": None}
    return {**ctx, key: ctx[key][part.start:part.end], "front": ctx.get("front") if part.k == 1 else None,
            "back": ctx.get("back") if part.k == len(parts) else None,
            "apps": apps[part.k - 1], "parts": nav(parts, part, numbers)}
