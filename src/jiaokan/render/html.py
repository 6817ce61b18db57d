"""Small HTML helpers shared by the render modules: escaping, attributes, ids, languages, layer names."""

from __future__ import annotations

import json
import re

from markupsafe import Markup, escape

#: Layer → the name a reader of the printed page knows.
LAYER_ZH: dict[str, str] = {
    "jing": "经",
    "zhuan": "传",
    "zhu": "注",
    "shu": "疏",
    "yinyi": "音义",
    "shi": "释",
    "an": "案",
    "kaozheng": "考证",
    "commentary": "诸家",
    "paratext": "其他",
}

#: Layer → English, for titles and tooltips.
LAYER_EN: dict[str, str] = {
    "jing": "classic",
    "zhuan": "Zixia's commentary (传)",
    "zhu": "Zheng Xuan's commentary",
    "shu": "Jia Gongyan's sub-commentary",
    "yinyi": "Lu Deming's glosses",
    "shi": "Li Rugui's comments",
    "an": "Siku editors' notes",
    "kaozheng": "Siku editors' 考证",
    "commentary": "other commentators",
    "paratext": "headings and paratext",
}

#: Variant types as the toolbar and the apparatus name them.
VARIANT_LABEL: dict[str, str] = {
    "substantive": "substantive",
    "omission": "omission",
    "addition": "addition",
    "transposition": "transposition",
    "taboo": "taboo 避讳",
    "orthographic": "orthographic 异体",
    "uncertain": "uncertain 缺字",
}


#: Variant types in the interface's default language (简); the page's script gives 繁 and English (``vt-TYPE``).
VARIANT_ZH: dict[str, str] = {
    "substantive": "实质", "omission": "脱文", "addition": "衍文", "transposition": "倒文", "taboo": "避讳",
    "orthographic": "异体", "uncertain": "缺字",
}


#: Variant type → the class its marks wear (edition.css colours them; the toolbar's swatches and the contents'
#: counts wear the same).  Short: a mark stands around one or two characters some 45,000 times in the book, and
#: ``v-orthographic`` alone was a fifth of its bytes.  The toolbar's switches keep the full name
#: (``data-vtype``, the body's ``hide-v-TYPE``): edition.css pairs the two.
VARIANT_CLASS: dict[str, str] = {
    "substantive": "v-sub", "omission": "v-om", "addition": "v-add", "transposition": "v-tr", "taboo": "v-tab",
    "orthographic": "v-or", "uncertain": "v-unc", "agree": "v-ag",
}

#: Subtypes a mark says in its class: only those edition.css draws apart (a minor substantive variant paler); the
#: others (unihan, yitizi, hand …) are the apparatus's to name (the entry's panel), nothing on the page reads them.
SUBTYPE_CLASS: dict[str, str] = {"minor": "vs-minor"}


def variant_class(vtype: str) -> str:
    """The class of a mark of VTYPE (:data:`VARIANT_CLASS`; a type it does not know keeps its name)."""
    return VARIANT_CLASS.get(vtype) or f"v-{vtype}"


#: an apparatus entry's id as the collation numbers them (collate/engine.py: app1 … appN)
_APP_NUMBERED = re.compile(r"app(\d+)")


def mark_app_attr(app: str) -> str:
    """The attribute that ties a variant mark to its apparatus entry, written once per mark (45,000 in the book):
    ``data-a=12`` (digits need no quotes in HTML) for the collation's numbered ``app12``, ``data-app="ID"`` for any
    other id.  edition.js (``expandMarks``) makes every mark ``class="v …" data-app="app12"`` at load, as the
    scripts read it; :func:`mark_app` reads it back on the Python side.  Made once per entry (its marks in every
    column and view ask again)."""
    a = _APP_ATTRS.get(app)
    if a is None:
        if len(_APP_ATTRS) >= 65536:  # a long-lived process keeps no more than a book's
            _APP_ATTRS.clear()
        m = _APP_NUMBERED.fullmatch(app)
        a = _APP_ATTRS[app] = f'data-a={m.group(1)}' if m else f'data-app="{esc(app)}"'
    return a


#: app id → :func:`mark_app_attr`
_APP_ATTRS: dict[str, str] = {}


def mark_app(el) -> str | None:
    """The apparatus entry of a mark element as written by :func:`mark_app_attr` (an lxml element); None for none."""
    app: str | None = el.get("data-app")
    if app is not None:
        return app
    n: str | None = el.get("data-a")
    return None if n is None else "app" + n


#: script → BCP 47 tag (:func:`lang_of`, asked per column of every row)
_LANGS = {"simplified": "lzh-Hans", "traditional": "lzh-Hant"}


def lang_of(script: str | None) -> str:
    """BCP 47 tag for Literary Chinese in the witness's script."""
    return _LANGS.get(script or "", "lzh")


def esc(s: str) -> str:
    """``str(markupsafe.escape(s))`` for a plain string, the same bytes (``&#34;``, ``&#39;``) without making a
    ``Markup`` per call: the page's text is escaped run by run (a million calls for the book), most runs having
    nothing to escape."""
    if "&" in s or "<" in s or ">" in s or '"' in s or "'" in s:
        return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;")
                .replace("'", "&#39;"))
    return s


def attr_json(obj: object) -> Markup:
    """OBJ as compact JSON for a single-quoted attribute (``data-i18n-args='…'``): ``&``, ``<``, ``>`` and ``'`` as
    JSON's ``\\u`` escapes, so nothing in it needs HTML's; ``{"w":"ZS"}`` rather than autoescape's
    ``{&#34;w&#34;: &#34;ZS&#34;}`` (twice the bytes, on every layer-gap note)."""
    s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return Markup(s.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e").replace("'", "\\u0027"))


def bar_tools(layers: list[tuple[str, str, str]], vtypes: list[tuple[str, str, int]], witnesses: list[dict]) -> Markup:
    """What edition.js's ``buildTools`` draws the bar's display options from (``_bar.html``'s ``data-tools``):
    the layers [key, 汉], the variant types [key, 汉, count, class], the movable columns [siglum, title].  The
    options show only through the script, so the script draws them: the same markup on every page was half the
    bar's bytes (0.6 MB over the book)."""
    return attr_json({"l": [[k, zh] for k, zh, _en in layers],
                      "v": [[t, label, n, variant_class(t)] for t, label, n in vtypes],
                      "c": [[w["siglum"], w["title"]] for w in witnesses]})


#: keyword → attribute name (``cls`` → class, ``data_app`` → data-app), filled as keywords are met
_ATTR_NAME: dict[str, str] = {"cls": "class"}


def attrs(**kw: object) -> Markup:
    """`` name="value"`` pairs, escaped; ``None``/``False`` dropped, ``True`` bare; ``_`` → ``-``, ``cls`` → class."""
    out = []
    for k, v in kw.items():
        if v is None or v is False:
            continue
        name = _ATTR_NAME.get(k)
        if name is None:
            name = _ATTR_NAME[k] = k.rstrip("_").replace("_", "-")
        out.append(f" {name}" if v is True else f' {name}="{esc(v if type(v) is str else str(v))}"')
    return Markup("".join(out))


def tag(name: str, content: str | Markup = "", **kw: object) -> Markup:
    return Markup(f"<{name}{attrs(**kw)}>{escape(content)}</{name}>")


_ID_BAD = re.compile(r"[^\w.\-]+")


def safe_id(s: str) -> str:
    """An id/fragment without spaces or punctuation that needs escaping in a URL."""
    return _ID_BAD.sub("_", s).strip("_") or "x"


def page_id(siglum: str, n: str) -> str:
    """The permalink id of a page of a witness: ``JS-p13a``."""
    return safe_id(f"{siglum}-p{n}")
