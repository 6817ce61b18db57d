/* jiaokan "cite this": a selection or a passage → 《儀禮集釋》卷五 葉三a 行4, a permalink and a TEI pointer.
   The 卷, 葉 and 行 come from the chapter's data file (render/search_index.py, render/cite.py): one record per piece
   with where its page and line change; this script only finds the piece and the character offset.
   The bar's 引用 button or the key "c"; every line has a copy button. */
(function () {
  "use strict";

  var J = window.jiaokan || {};
  var lib = J.lib;
  if (!lib) return;
  var t = lib.t, el = lib.el;
  lib.register({
    "cite.button": { hans: "引用", hant: "引用", en: "Cite" },
    "cite.title": { hans: "引用此处", hant: "引用此處", en: "Cite this" },
    "cite.scholar": { hans: "引文出处", hant: "引文出處", en: "Citation" },
    "cite.quote": { hans: "引文", hant: "引文", en: "Quotation" },
    "cite.link": { hans: "固定链接", hant: "固定鏈接", en: "Permalink" },
    "cite.tei": { hans: "TEI 指针", hant: "TEI 指針", en: "TEI pointer" },
    "cite.copy": { hans: "复制", hant: "複製", en: "Copy" },
    "cite.none": { hans: "请先选取文字或滚动到一段经文。", hant: "請先選取文字或捲動到一段經文。",
                   en: "Select some text, or scroll to a passage, first." }
  });

  var panel = document.getElementById("cite-panel");
  var btn = document.getElementById("cite-btn");
  var SKIP = ".em-was, .em-new, .label, .pb, .fn-ref, .v-ins, .badge, .an-b, .absent, .vh, script";
  var lastUnit = null;  // the passage last clicked

  function readingOffset(container, node, offset) {
    /* reading characters of `container` before (node, offset), counted as the piece's text is (notes, labels,
       page marks left out); code points, as Python counts */
    var range = document.createRange();
    range.setStart(container, 0);
    try { range.setEnd(node, offset); } catch (e) { return 0; }
    var inNote = container.matches(".an");
    var walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT, {
      acceptNode: function (x) {
        var p = x.parentElement;
        if (p.closest(SKIP) || (!inNote && p.closest(".an"))) return NodeFilter.FILTER_REJECT;
        return NodeFilter.FILTER_ACCEPT;
      }
    });
    var n = 0, x;
    while ((x = walker.nextNode()) && range.intersectsNode(x)) {
      n += Array.from(x === range.endContainer ? x.data.slice(0, range.endOffset) : x.data).length;
    }
    return n;
  }

  /* the record of a place: {w, unit, xmlid, page, line, quote} */
  function placeOf(node, offset, quote) {
    var ch = lib.chapterData();
    var e = node.nodeType === 1 ? node : node.parentElement;
    if (!ch || !e) return null;
    var unitEl = e.closest(".unit");
    if (!unitEl) return null;
    var col = unitEl.closest("[data-wit]");
    var w = col ? col.getAttribute("data-wit") : ch.base;
    var uid = unitEl.getAttribute("data-unit") || unitEl.id;  // a permalinked unit: its id
    var note = e.closest(".an[data-note]");
    var wit = ch.wits[w] || {};
    if (note && ch.notes[note.getAttribute("data-note")]) {
      var n = ch.notes[note.getAttribute("data-note")];
      return { ch: ch, w: n.w, wit: ch.wits[n.w] || wit, unit: uid, xmlid: n.xmlid, page: n.page, line: n.line, quote: quote, anchor: n.xmlid };
    }
    var piece = e.closest(".piece");
    var recs = (ch.cite[w] || {})[uid] || [];
    var k = piece ? Array.prototype.indexOf.call(unitEl.querySelectorAll(":scope > .piece"), piece) : 0;
    var rec = recs[Math.max(0, k)] || recs[0];
    if (!rec) return null;
    var off = piece ? readingOffset(piece, node, offset) : 0;
    // rec[1]: per page [page, offset, line, offset, line …] (search.js expand); the last place at or before off
    var place = [0, null, null];
    rec[1].forEach(function (g, i) {
      for (var j = 1; j < g.length; j += 2) if ((i === 0 && j === 1) || g[j] <= off) place = [g[j], g[0], g[j + 1]];
    });
    return { ch: ch, w: w, wit: wit, unit: uid, xmlid: rec[0], page: place[1], line: place[2], quote: quote, anchor: uid };
  }

  /* 李如圭《儀禮集釋》卷十七〈喪服〉，文淵閣四庫全書本，葉十二b 行7: one convention everywhere (render/cite.py's
     full_citation makes the same string); the 卷 of the page, else the witness's */
  function parts(p) {
    var h = p.wit.head || { author: "", work: p.wit.work || p.w, pian: "", edition: "" };
    var pg = p.page ? (p.wit.pages || {})[p.page] : null;
    return { h: h, juan: (pg && pg[0]) || p.wit.juan || "", leaf: pg ? pg[1] : (p.page ? "p. " + p.page : ""), line: p.line };
  }
  function citation(p) {
    var c = parts(p), h = c.h;
    var s = (h.author || "") + "《" + h.work + "》" + c.juan;
    if (h.pian) s += "〈" + h.pian + "〉";
    if (h.edition) s += "，" + h.edition;
    if (c.leaf) s += "，" + c.leaf + (c.line ? " 行" + c.line : "");
    return s;
  }
  /* the permalink: relative to the site (works once the site is served, or opened from disk beside it) */
  function permalink(p) {
    return ((p.ch && p.ch.page) || location.pathname.split("/").pop()) + "#" + p.anchor;
  }
  function bibtex(p) {
    var c = parts(p), h = c.h;
    var key = (p.w + "-" + (p.anchor || "")).replace(/[^A-Za-z0-9_-]+/g, "-");
    var f = [["author", h.author.replace(/，/g, " and ")], ["title", h.work], ["chapter", h.pian], ["edition", h.edition],
             ["volume", c.juan], ["pages", [c.leaf, c.line ? "行" + c.line : ""].filter(Boolean).join(" ")],
             ["note", citation(p)], ["url", permalink(p)]];
    return "@book{" + key + ",\n" + f.filter(function (x) { return x[1]; }).map(function (x) {
      return "  " + x[0] + " = {" + x[1] + "}";
    }).join(",\n") + "\n}";
  }
  function csl(p) {
    var c = parts(p), h = c.h;
    var o = { id: p.w + "-" + p.anchor, type: "book", title: h.work, "container-title": h.pian || undefined,
              edition: h.edition || undefined, volume: c.juan || undefined,
              page: [c.leaf, c.line ? "行" + c.line : ""].filter(Boolean).join(" ") || undefined,
              author: h.author ? h.author.split("，").map(function (a) { return { literal: a }; }) : undefined,
              URL: permalink(p), note: citation(p), language: "lzh" };
    return JSON.stringify(o, null, 2);
  }

  function currentPlace() {
    var sel = window.getSelection();
    var text = document.getElementById("text");
    if (sel && sel.rangeCount && !sel.isCollapsed && text && text.contains(sel.anchorNode)) {
      var r = sel.getRangeAt(0);
      var p = placeOf(r.startContainer, r.startOffset, sel.toString().replace(/\s+/g, ""));
      if (p) return p;
    }
    if (lastUnit && document.contains(lastUnit)) return placeOf(lastUnit, 0, "");
    // the first passage in view below the bar
    var barH = (document.getElementById("bar") || { offsetHeight: 0 }).offsetHeight;
    var units = document.querySelectorAll("#text .unit");
    for (var i = 0; i < units.length; i++) {
      // a passage of an aligned row has no box (display: contents): its first piece stands for it
      var box = getComputedStyle(units[i]).display === "contents" ? units[i].querySelector(".piece, h3") || units[i] : units[i];
      var b = box.getBoundingClientRect();
      if (b.bottom > barH + 4 && b.height > 0) return placeOf(units[i], 0, "");
    }
    return null;
  }

  function row(body, label, value, lang, id) {
    var r = el("div", "cite-row");
    r.appendChild(el("span", "cite-label", label));
    var v = el("output", "cite-val", value);
    if (lang) v.lang = lang;
    if (id) v.id = id;
    r.appendChild(v);
    var c = el("button", "copy", t("cite.copy"));
    c.type = "button";
    c.addEventListener("click", function () { lib.copy(value, c); });
    r.appendChild(c);
    body.appendChild(r);
    return c;
  }

  function open(p, anchorEl) {
    if (!panel) return;
    var d = lib.dialog(panel, t("cite.title") + (p ? " · " + p.w : ""), "cite-h");
    if (!p) {
      d.body.appendChild(el("p", null, t("cite.none")));
    } else {
      var cite = citation(p);
      var first = row(d.body, t("cite.scholar"), cite, p.wit.lang, "cite-scholar");
      if (p.quote) row(d.body, t("cite.quote"), "「" + p.quote + "」" + cite, p.wit.lang, "cite-quote");
      row(d.body, t("cite.link"), permalink(p), null, "cite-link");
      if (p.wit.tei && p.xmlid) row(d.body, t("cite.tei"), p.wit.tei + "#" + p.xmlid, null, "cite-tei");
      row(d.body, "BibTeX", bibtex(p), null, "cite-bibtex");
      row(d.body, "CSL-JSON", csl(p), null, "cite-csl");
      panel.setAttribute("data-unit", p.unit);
      setTimeout(function () { first.focus(); }, 0);
    }
    lib.placeNear(panel, anchorEl);
    if (!p) d.focus();
  }

  document.addEventListener("click", function (e) {
    var u = e.target.closest && e.target.closest("#text .unit");
    if (u) lastUnit = u;
  });
  if (btn) {
    btn.addEventListener("mousedown", function (e) { e.preventDefault(); });  // keep the selection
    btn.addEventListener("click", function () { lib.withData(function () { open(currentPlace(), btn); }); });
  }
  document.addEventListener("keydown", function (e) {
    if (e.key !== "c" || e.ctrlKey || e.metaKey || e.altKey) return;
    var tg = e.target;
    if (tg.closest && tg.closest("input, textarea, select, [contenteditable], .jk-dialog")) return;
    if (!document.getElementById("text") || !document.querySelector('meta[name="jiaokan-data"]')) return;
    e.preventDefault();
    lib.withData(function () { open(currentPlace(), btn); });
  });

  J.cite = { placeOf: placeOf, citation: citation, permalink: permalink, bibtex: bibtex, csl: csl, open: open,
             current: currentPlace };
})();
