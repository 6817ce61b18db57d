/* jiaokan search: over the index files written at render time (search/NAME.js, search/book.js), never over
   the page, which renders its rows lazily.  Each stream is one witness's layer, its characters joined across
   案 notes, line and page breaks; folded by the collation's own keys (the chapter's table), or exact.
   Also the small library cite.js and verdict.js share (window.jiaokan.lib).  No network: works from file://. */
(function () {
  "use strict";

  var J = window.jiaokan = window.jiaokan || {};
  var STR = {
    "search.exact": { hans: "原字形", hant: "原字形", en: "exact form" },
    "search.book": { hans: "全书检索", hant: "全書檢索", en: "Search the book" },
    "search.none": { hans: "无结果", hant: "無結果", en: "no match" },
    "search.hits": { hans: "处", hant: "處", en: "hits" },
    "search.hidden": { hans: "（所在层已隐藏）", hant: "（所在層已隱藏）", en: "(in a hidden layer)" },
    "search.more": { hans: "另有 {n} 处未列出", hant: "另有 {n} 處未列出", en: "{n} more not listed" },
    "search.list-more": { hans: "再列 {n} 处", hant: "再列 {n} 處", en: "list {n} more" },
    "search.wholebook": { hans: "检索全书", hant: "檢索全書", en: "search the whole book" },
    "search.loading": { hans: "载入中…", hant: "載入中…", en: "loading…" },
    "search.close": { hans: "关闭", hant: "關閉", en: "close" }
  };

  /* ---------------------------------------------------------------- the shared library */
  /* the interface's strings: edition.js's jiaokan.i18n (简/繁/English), with {name} filled in */
  function t(key, vars) {
    var s = J.i18n.t(key);
    if (vars) Object.keys(vars).forEach(function (k) { s = s.split("{" + k + "}").join(String(vars[k])); });
    return s;
  }

  function register(strings) { J.i18n.register(strings); }

  function el(tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (txt != null) e.textContent = txt;
    return e;
  }

  /* the place an id names: window.jiaokan.goto (which renders a lazy row first) or the hash */
  function go(id, row) {
    if (typeof J.goto === "function") {  // and the address says where the reader is (back button, permalink)
      var to = J.goto(id) !== false ? id : (row && J.goto(row) !== false ? row : null);
      if (to) {
        if (location.hash !== "#" + to) history.pushState(null, "", "#" + encodeURIComponent(to));
        return;
      }
    }
    var target = document.getElementById(id) ? id : (row && document.getElementById(row) ? row : id);
    if (location.hash === "#" + target) {
      var e = document.getElementById(target);
      if (e) e.scrollIntoView({ block: "start" });
    } else {
      location.hash = target;
    }
  }

  function chapterName() {
    var m = document.getElementById("text");
    return m && m.getAttribute("data-chapter");
  }

  function chapterData() {
    var D = window.jiaokanData;
    var n = chapterName();
    return D && D.chapters && n ? expand(D.chapters[n]) || null : null;
  }

  /* 葉 and 卷 of a page label by the rule render/search_index.py leaf_by_rule writes for (the data file holds
     only the labels the rule does not make): 003-12b → [卷三, 葉十二b]; 12b → [the witness's 卷, 葉十二b] */
  function hanziNumber(n) {
    var D = "〇一二三四五六七八九";
    if (n < 10) return D[n];
    var tens = Math.floor(n / 10), ones = n % 10;
    return (tens === 1 ? "" : D[tens]) + "十" + (ones ? D[ones] : "");
  }
  function leafRef(page, juan) {
    var m = /^(\d+)-(\d+)([ab])$/.exec(page);
    if (m && +m[1] < 100 && +m[2] < 100) return ["卷" + hanziNumber(+m[1]), "葉" + hanziNumber(+m[2]) + m[3]];
    m = /^(\d+)([ab])$/.exec(page);
    if (m && +m[1] < 100) return [juan, "葉" + hanziNumber(+m[1]) + m[2]];
    return null;
  }

  /* a page anchor's tooltip, SIGLUM 卷一 葉一b · STEM_001-1b, where the page leaves it out as derivable
     (render/inline.py PageIds.bare_title): the siglum from its id (SIGLUM-pLABEL), the 卷 and 葉 of its label by
     the rule above, the image from main's data-facs (SIGLUM:STEM …) */
  (function pageTitles() {
    var main = document.getElementById("text"), facs = {};
    if (!main || !main.hasAttribute("data-facs")) return;
    main.getAttribute("data-facs").split(" ").forEach(function (x) {
      var i = x.indexOf(":");
      if (i > 0) facs[x.slice(0, i)] = x.slice(i + 1);
    });
    document.querySelectorAll("a.pb[id]:not([title])").forEach(function (a) {
      var s = a.id.slice(0, a.id.indexOf("-p")), n = a.textContent, r = leafRef(n, "");
      if (s && facs[s] && r) a.title = s + " " + r.join(" ") + " · " + facs[s] + "_" + n;
    });
  })();

  /* a chapter's data as the scripts read it, made once from the file's compact form (render/search_index.py
     chapter_index): each witness's pages (wit.pages: label → [卷, 葉]), the citation records' pieces and places
     (rec: [piece id, per page [page, offset, line, offset, line …]]), the streams' anchors ([offset, id, row])
     and pages ([offset, label]), and whom each 案 claim is about (c.target_hant, c.target_en) */
  function expand(ch) {
    if (!ch || ch._x) return ch;
    ch._x = true;
    Object.keys(ch.wits).forEach(function (w) {
      var wit = ch.wits[w], pl = wit.pl || [], odd = wit.pages || {}, pages = {};
      pl.forEach(function (p) {
        var r = Object.prototype.hasOwnProperty.call(odd, p) ? odd[p] : leafRef(p, wit.juan);
        if (r) pages[p] = r;
      });
      wit.pages = pages;
      var c = ch.cite[w] || {};
      Object.keys(c).forEach(function (u) {
        c[u] = c[u].map(function (rec) {
          var id = rec[0] === "" ? u : (rec[0] && rec[0][0] === "." ? u + rec[0] : rec[0]), groups = [];
          rec[1].forEach(function (run) {
            var page = run[0] === null ? null : pl[run[0]], line = run[1], off = 0;
            var g = groups.length && groups[groups.length - 1][0] === page ? groups[groups.length - 1] : null;
            if (!g) groups.push(g = [page]);
            for (var j = 2; j < run.length; j++) g.push(off += run[j], line === null ? null : line + j - 2);
          });
          return [id, groups];
        });
      });
    });
    ch.s.forEach(function (st) {
      var wit = ch.wits[st.w] || {}, pl = wit.pl || [], rows = wit.rows || [];
      var units = Object.keys(ch.cite[st.w] || {}), a = [], pg = [], i, at = 0;
      for (i = 0; i < st.a.length; i += 2) {  // offsets from the one before; a unit by its place, a row rN as N
        var r = st.a[i + 1], n = typeof r === "number" ? null : ch.notes[r], row = rows[r];
        at += st.a[i];
        a.push(typeof r === "number" ? [at, units[r], row === undefined || row === null ? null : (typeof row === "number" ? "r" + row : row)]
                                     : [at, r, n && n.r !== undefined ? n.r : null]);
      }
      for (i = 0, at = 0; i < st.pg.length; i += 2) pg.push([at += st.pg[i], st.pg[i + 1] === null ? null : pl[st.pg[i + 1]]]);
      st.a = a;
      st.pg = pg;
    });
    var tg = ch.tg || {};
    Object.keys(ch.notes).forEach(function (k) {
      var n = ch.notes[k], before = null;
      if (n.xmlid === undefined) n.xmlid = k;  // a note's id is its key (render/search_index.py expand_notes)
      ((n.v || {}).claims || []).forEach(function (c) {
        // a claim's id after its note's, its shown verdict where not its own, its place and readings where not the
        // claim's before it (search_index.py _said_once)
        c.id = c.id === undefined ? k : (/^[.@~]/.test(c.id) ? k + c.id : c.id);
        if (c.shown === undefined) c.shown = c.verdict || "unchecked";
        ["anchor", "readings"].forEach(function (x) { if (!(x in c) && before && x in before) c[x] = before[x]; });
        before = c;
        var t = tg[c.target] || [];
        c.target_hant = t[0];
        c.target_en = t[1];
      });
    });
    return ch;
  }

  function loadScripts(srcs, cb) {
    var left = srcs.length;
    if (!left) { cb(); return; }
    srcs.forEach(function (src) {
      var s = document.createElement("script");
      s.src = src;
      s.onload = s.onerror = function () { if (--left === 0) cb(); };
      document.head.appendChild(s);
    });
  }

  /* a witness another chapter's data already holds (ch.from: siglum → [chapter, its file]; the 注疏 of a 篇's 疏
     page, render/search_index.py share_search_data) joins this chapter's data once that file is loaded: its
     streams (in the chapter's order of witnesses; their rows are the other page's, so only the ids lead), its
     citation records, its notes */
  function joinShared(ch) {
    var D = window.jiaokanData;
    if (!ch || !ch.from || ch._joined) return;
    ch._joined = true;
    Object.keys(ch.from).forEach(function (w) {
      var o = expand(D.chapters[ch.from[w][0]]);
      if (!o) return;
      o.s.forEach(function (st) {
        if (st.w === w) ch.s.push({ w: w, l: st.l, t: st.t, pg: st.pg, a: st.a.map(function (x) { return [x[0], x[1], null]; }) });
      });
      ch.wits[w] = o.wits[w];
      ch.cite[w] = o.cite[w];
      Object.keys(o.notes).forEach(function (k) { if (o.notes[k].w === w) ch.notes[k] = Object.assign({}, o.notes[k], { r: null }); });
    });
    var order = ch.sigla || [];
    ch.s = ch.s.map(function (st, i) { return [order.indexOf(st.w), i, st]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; }).map(function (x) { return x[2]; });
  }

  /* the book's folding table (search/fold.js beside the chapters' files, render/search_index.py
     write_book_search): one for every page, loaded with the first chapter's data */
  function bookFold() { return (window.jiaokanData || {}).fold || {}; }
  var foldAsked = false;
  function foldSrcs(src) {
    if (foldAsked || (window.jiaokanData || {}).fold) return [];
    foldAsked = true;
    return [src.replace(/[^\/]*$/, "fold.js")];
  }

  /* the chapter's data file (search/NAME.js), loaded when first needed or when the page is idle, so that it
     costs the page's opening nothing, with the files it draws witnesses from and the folding table; cb(data)
     runs once they are there (at once if they are) */
  var waiting = null;
  function withData(cb) {
    var meta = document.querySelector('meta[name="jiaokan-data"]');
    var ch = chapterData();
    if (!meta || (!waiting && ch && (!ch.from || ch._joined) && foldAsked)) { cb(ch); return; }
    if (waiting) { waiting.push(cb); return; }
    waiting = [cb];
    function done() {
      var w = waiting;
      waiting = null;
      w.forEach(function (f) { f(chapterData()); });
    }
    function more() {
      var c = chapterData(), D = window.jiaokanData, srcs = [];
      if (c && c.from) Object.keys(c.from).forEach(function (w) {
        var f = c.from[w];
        if (!(D.chapters && D.chapters[f[0]]) && srcs.indexOf(f[1]) < 0) srcs.push(f[1]);
      });
      loadScripts(srcs.concat(foldSrcs(meta.getAttribute("content"))), function () { joinShared(chapterData()); done(); });
    }
    if (ch) more(); else loadScripts([meta.getAttribute("content")].concat(foldSrcs(meta.getAttribute("content"))), more);
  }

  function layerHidden(layer) {
    if (document.body.classList.contains("hide-" + layer)) return true;
    if (document.querySelector("input[data-layer]")) return false;
    try { return JSON.parse(localStorage.getItem("jiaokan-hidden-layers") || "[]").indexOf(layer) >= 0; }
    catch (e) { return false; }
  }

  /* the page's own: edition.js shows a layer and docks a dialog (the same for every dialog) */
  var showLayer = J.showLayer || function () {};
  var placeNear = J.placeNear || function () {};

  /* a small non-modal dialog: Esc and × close it, focus returns where it came from */
  function dialog(panel, title, headId) {
    panel.textContent = "";
    var head = el("div", "jk-dialog-head");
    var h = el("h2", null, title);
    h.id = headId;
    var x = el("button", "close", "×");
    x.type = "button";
    x.setAttribute("aria-label", t("close")  /* edition.js's string */);
    head.appendChild(h);
    head.appendChild(x);
    panel.appendChild(head);
    var bodyEl = el("div", "jk-dialog-body");
    panel.appendChild(bodyEl);
    var from = document.activeElement;
    function close() {
      panel.hidden = true;
      document.removeEventListener("keydown", onKey, true);
      document.removeEventListener("mousedown", onOut, true);
      if (from && from.focus && document.contains(from)) from.focus();
    }
    function onKey(e) { if (e.key === "Escape" && !panel.hidden) { e.preventDefault(); e.stopPropagation(); close(); } }
    function onOut(e) { if (!panel.contains(e.target)) close(); }
    x.addEventListener("click", close);
    document.addEventListener("keydown", onKey, true);
    setTimeout(function () { document.addEventListener("mousedown", onOut, true); }, 0);
    panel.hidden = false;
    return { body: bodyEl, close: close, focus: function () { panel.focus(); } };
  }

  /* copy text: the clipboard API where allowed (file:// is not always), else a selected textarea */
  function copy(text, button) {
    function done(ok) {
      if (!button) return;
      button.setAttribute("data-copied", ok ? "1" : "0");
      button.classList.toggle("copied", ok);
    }
    function fallback() {
      var ta = el("textarea");
      ta.value = text;
      ta.setAttribute("readonly", "");
      ta.style.position = "fixed";
      ta.style.opacity = "0";
      document.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(ta);
      if (button) button.focus();
      done(ok);
    }
    window.jiaokanLastCopy = text;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else {
      fallback();
    }
  }

  var lib = {
    t: t, register: register, el: el, go: go, chapterData: chapterData, chapterName: chapterName, withData: withData,
    layerHidden: layerHidden, showLayer: showLayer, dialog: dialog, placeNear: placeNear, copy: copy
  };
  J.lib = lib;
  register(STR);

  /* ---------------------------------------------------------------- streams */
  var IGNORE = /[\s\p{P}\p{Z}\p{Cc}\p{Cf}○◯●◎◦※☆★◆◇▲△▼▽¶§†‡‖｜|\uFE00-\uFE0F]/u;

  /* a string's astral characters, for code-point ↔ UTF-16 offsets (Python counts code points) */
  function astral(s) {
    var out = [];
    var cp = 0;
    for (var i = 0; i < s.length; i++, cp++) {
      var c = s.charCodeAt(i);
      if (c >= 0xD800 && c <= 0xDBFF) { out.push(cp); i++; }
    }
    return out;
  }

  function lowerBound(arr, x, keyf) {  // first index with keyf(arr[i]) > x, minus one: the entry in force at x
    var lo = 0, hi = arr.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (keyf(arr[mid]) <= x) lo = mid + 1; else hi = mid;
    }
    return lo - 1;
  }

  function u16ToCp(ast, u) {  // ast: code-point offsets of astral chars; their UTF-16 offset is ast[j] + j
    var lo = 0, hi = ast.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (ast[mid] + mid < u) lo = mid + 1; else hi = mid;
    }
    return u - lo;
  }

  function cpToU16(ast, cp) {
    var k = lowerBound(ast, cp - 1, function (a) { return a; });
    return cp + k + 1;
  }

  function prepare(ch) {
    if (ch._ready) return;
    var fold = bookFold();
    ch.s.forEach(function (st) {
      var f = "";
      for (var c of st.t) f += fold[c] || c;
      st.f = f;
      st.astT = astral(st.t);
      st.astF = astral(f);
    });
    ch._ready = true;
  }

  function normalizeQuery(q, fold) {
    var out = "";
    for (var c of q) if (!IGNORE.test(c)) out += fold ? (fold[c] || c) : c;
    return out;
  }

  /* every hit in a chapter: {ch, st, cp, len} in stream order */
  function searchChapter(ch, query, exact) {
    prepare(ch);
    var fold = exact ? null : bookFold();
    var needle = normalizeQuery(query, fold);
    if (!needle) return [];
    var nlen = Array.from(needle).length;
    var hits = [];
    ch.s.forEach(function (st) {
      var hay = exact ? st.t : st.f;
      var ast = exact ? st.astT : st.astF;
      var i = hay.indexOf(needle);
      while (i >= 0) {
        hits.push({ ch: ch, st: st, cp: ast.length ? u16ToCp(ast, i) : i, len: nlen });
        i = hay.indexOf(needle, i + needle.length);
      }
    });
    return hits;
  }

  function describe(h) {
    var st = h.st, ch = h.ch;
    var a = st.a[Math.max(0, lowerBound(st.a, h.cp, function (x) { return x[0]; }))] || [0, null, null];
    var pg = st.pg[lowerBound(st.pg, h.cp, function (x) { return x[0]; })];
    var w = ch.wits[st.w] || {};
    var page = pg ? pg[1] : null;
    var ctxN = 14;
    var s0 = Math.max(0, h.cp - ctxN), s1 = h.cp + h.len + ctxN;
    var T = st.t, ast = st.astT;
    function sl(a0, a1) { return T.slice(cpToU16(ast, a0), cpToU16(ast, Math.min(a1, 1e12))); }
    return {
      id: a[1], row: a[2], unitStart: a[0], layer: st.l, w: st.w, lang: w.lang, page: page,
      ref: page ? ((w.pages || {})[page] ? w.pages[page].filter(Boolean).join(" ") : page) : "",
      before: (s0 > 0 ? "…" : "") + sl(s0, h.cp), hit: sl(h.cp, h.cp + h.len), after: sl(h.cp + h.len, s1)
    };
  }

  /* ---------------------------------------------------------------- the results list */
  var STEP = document.body.classList.contains("view-index") ? 300 : 2000;  // listed at a time; the count says how many in all
  var LIMIT = STEP;
  var total = 0;
  var q = document.getElementById("q");
  var exactBox = document.getElementById("q-exact");
  var countOut = document.getElementById("q-count");
  var results = document.getElementById("q-results");
  var onIndex = document.body.classList.contains("view-index");
  var list = [];  // described hits, in order
  var cur = -1;
  var lastKey = null;

  function currentHere() {
    return document.body.classList.contains("view-parallel");
  }

  /* a hit on another page: its address keeps the query, so that the page it opens marks the hit (and the
     search box holds the query) */
  function hrefOf(ch, d, query) {
    var away = awayPage(ch, d);
    var here = !away && chapterName() === ch.name;
    var target = away ? d.id : d.id || d.row;  // the row is this chapter's: on the other page, the unit leads
    if (here && (currentHere() || (document.getElementById(target)))) return "#" + target;
    var qs = query ? "?q=" + encodeURIComponent(query) + (exactBox && exactBox.checked ? "&exact=1" : "") : "";
    return (away || ch.page) + qs + "#" + encodeURIComponent(target);
  }

  /* the page that shows a hit's layer of its witness when it is not the chapter's: the 注疏's 疏 is shown on the
     篇's 疏 page, and its 经注 page holds a link there (ch.away: siglum → layer → page, render/shulink.py); a 案
     note goes with the layer it stands in */
  function awayPage(ch, d) {
    var a = ch.away && ch.away[d.w];
    var n = d.layer === "an" && ch.notes ? ch.notes[d.id] : null;
    return (a && a[n ? n.layer : d.layer]) || null;
  }

  function renderResults(hitsByCh, all, query) {
    total = all;
    results.textContent = "";
    list = [];
    cur = -1;
    var head = el("div", "q-head");
    head.appendChild(el("span", "q-total", total ? total + " " + t("search.hits") : t("search.none")));
    if (!onIndex && query) {
      var wb = el("a", "q-wholebook", t("search.wholebook"));
      wb.href = "index.html?q=" + encodeURIComponent(query) + (exactBox && exactBox.checked ? "&exact=1" : "");
      head.appendChild(wb);
    }
    var x = el("button", "close", "×");
    x.type = "button";
    x.setAttribute("aria-label", t("search.close"));
    x.addEventListener("click", function () { results.hidden = true; q.focus(); });
    head.appendChild(x);
    results.appendChild(head);
    var shown = 0;
    // two groups of one label (a 篇's 经注 page and its 疏 page, each text's 卷首) are told apart by their texts
    var labels = {};
    hitsByCh.forEach(function (g) { if (g.hits.length) labels[g.ch.label] = (labels[g.ch.label] || 0) + 1; });
    hitsByCh.forEach(function (group) {
      var ch = group.ch;
      if (!group.hits.length) return;
      if (onIndex) {
        // a heading leads to its page with the search kept, where every hit of the 篇 is listed: past the first
        // LIMIT hits a heading was all a group had, and it could not be opened (a reader's trial)
        var h3 = el("h3", "q-ch");
        h3.lang = ch.lang || "zh";
        var named = labels[ch.label] > 1 && ch.sigla ? " (" + ch.sigla.join(" ") + ")" : "";
        var go = el("a", "q-ch-link", ch.label + named + " · " + group.hits.length);
        go.href = ch.page + "?q=" + encodeURIComponent(query) + (exactBox && exactBox.checked ? "&exact=1" : "");
        h3.appendChild(go);
        results.appendChild(h3);
      }
      var ol = el("ol", "q-list");
      group.hits.forEach(function (h) {
        if (shown >= LIMIT) return;
        shown++;
        var d = describe(h);
        var li = el("li", "q-item l-" + d.layer);
        var a = el("a", "q-link");
        a.href = hrefOf(ch, d, query);
        a.setAttribute("data-id", d.id || "");
        a.setAttribute("data-row", d.row || "");
        a.setAttribute("data-layer", d.layer);
        a.setAttribute("data-w", d.w);
        var meta = el("span", "q-meta");
        meta.appendChild(el("b", "q-w", d.w));
        var lz = el("span", "q-layer chip-" + d.layer, (ch.layers && ch.layers[d.layer]) || d.layer);
        lz.lang = "zh-Hans";
        meta.appendChild(lz);
        if (d.ref) meta.appendChild(el("span", "q-page", d.ref));
        if (lib.layerHidden(d.layer)) {
          li.classList.add("q-hidden");
          meta.appendChild(el("span", "q-hid", t("search.hidden")));
        }
        a.appendChild(meta);
        var ctx = el("span", "q-ctx");
        ctx.lang = d.lang || "zh";
        ctx.appendChild(document.createTextNode(d.before));
        ctx.appendChild(el("mark", "q-hit", d.hit));
        ctx.appendChild(document.createTextNode(d.after + "…"));
        a.appendChild(ctx);
        li.appendChild(a);
        ol.appendChild(li);
        var k = list.length;
        list.push({ ch: ch, d: d, hit: h, a: a, away: !!awayPage(ch, d) });
        a.addEventListener("click", function (e) {
          if (a.getAttribute("href").charAt(0) !== "#") return;  // another page: let the link work
          e.preventDefault();
          visit(k);
        });
      });
      results.appendChild(ol);
    });
    if (total > shown) {
      // past the first LIMIT hits: a button lists the next ones in place (the index's book search stopped at 300,
      // and a reader had to open each 篇's heading for the rest)
      var more = el("p", "q-more", t("search.more", { n: total - shown }) + " ");
      var next = Math.min(STEP, total - shown);
      var btn = el("button", "q-more-btn", t("search.list-more", { n: next }));
      btn.type = "button";
      btn.addEventListener("click", function () {
        var from = list.length;
        LIMIT += STEP;
        renderResults(hitsByCh, all, query);
        if (list[from]) list[from].a.focus();
      });
      more.appendChild(btn);
      results.appendChild(more);
    }
    results.hidden = !query;
  }

  function report() {
    if (!countOut) return;
    if (!lastKey || !q.value) countOut.textContent = "";
    else if (!list.length) countOut.textContent = t("search.none");
    else countOut.textContent = (cur >= 0 ? (cur + 1) + " / " : "") + total;
  }

  /* the first hit on this page: a long 篇 is cut into parts (render/parts.py) and the search covers the 篇,
     so the reader starts where they are, not in another part */
  function firstHere() {
    for (var i = 0; i < list.length; i++) if (!list[i].away && document.getElementById(list[i].d.id || list[i].d.row)) return i;
    return -1;
  }
  /* the first hit here, or, when every hit is in another part, the list of them (the reader chooses where to go) */
  function visitHere() {
    var k = firstHere();
    if (k >= 0) visit(k);
    else { results.hidden = false; report(); }
  }

  /* go to a hit on this page: show its layer, render and scroll (goto), mark its characters */
  function visit(k) {
    if (!list.length) return;
    cur = (k + list.length) % list.length;
    var r = list[cur];
    list.forEach(function (x, i) { x.a.classList.toggle("cur", i === cur); });
    if (r.away) { location.assign(r.a.href); return; }  // shown on another page (its 疏 page): go there
    if (lib.layerHidden(r.d.layer)) lib.showLayer(r.d.layer);
    if (window.innerWidth < 700) results.hidden = true;  // on a phone the list would cover the hit
    go(r.d.id || r.d.row, r.d.row);
    mark(r);
    report();
  }

  /* the hit's characters inside its unit (one unit's text, not a search of the page) */
  var SKIP = ".em-was, .em-new, .an, .label, .pb, .fn-ref, .v-ins, .badge, .an-b, .absent, .vh, script";
  function clearMarks() {
    document.querySelectorAll(".hit-note").forEach(function (n) { n.classList.remove("hit-note"); });
    document.querySelectorAll("mark.hit").forEach(function (m) {
      var p = m.parentNode;
      while (m.firstChild) p.insertBefore(m.firstChild, m);
      p.removeChild(m);
      p.normalize();
    });
  }

  function mark(r) {
    clearMarks();
    var st = r.hit.st;
    var unitEl = r.d.id && document.getElementById(r.d.id);
    if (unitEl && unitEl.matches(".an")) { unitEl.classList.add("hit-note"); return; }  // a hit in a 案 note
    if (!unitEl || !unitEl.matches(".unit")) return;
    // which piece of the layer: anchors of this unit in the stream before the hit
    var i = lowerBound(st.a, r.hit.cp, function (x) { return x[0]; });
    var k = 0;
    while (i - k - 1 >= 0 && st.a[i - k - 1][1] === r.d.id) k++;
    var piece = unitEl.querySelectorAll(":scope > .piece.l-" + st.l)[k];
    if (!piece) return;
    var skip = r.hit.cp - st.a[i][0];
    var need = r.hit.len;
    var walker = document.createTreeWalker(piece, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) { return n.parentElement.closest(SKIP) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT; }
    });
    var n, ranges = [];
    while ((n = walker.nextNode()) && need > 0) {
      var off = 0, start = -1, end = -1;
      for (var c of n.data) {
        if (!IGNORE.test(c)) {
          if (skip > 0) skip--;
          else if (need > 0) { if (start < 0) start = off; need--; end = off + c.length; }
        }
        off += c.length;
      }
      if (start >= 0) ranges.push([n, start, end]);
    }
    var first = null;
    for (var j = ranges.length - 1; j >= 0; j--) {
      var rg = ranges[j];
      var mid = rg[0].splitText(rg[1]);
      mid.splitText(rg[2] - rg[1]);
      var mk = el("mark", "hit cur");
      mid.parentNode.replaceChild(mk, mid);
      mk.appendChild(mid);
      first = mk;
    }
    if (first) first.scrollIntoView({ block: "center" });
  }

  /* ---------------------------------------------------------------- running a query */
  function loadBook(cb) {
    var D = window.jiaokanData || {};
    var book = D.book && D.book.chapters || [];
    var missing = book.filter(function (c) { return !(D.chapters && D.chapters[c.name]); });
    var srcs = missing.map(function (c) { return c.src; }).concat(book.length ? foldSrcs(book[0].src) : []);
    if (!srcs.length) { cb(); return; }
    if (countOut) countOut.textContent = t("search.loading");
    loadScripts(srcs, cb);
  }

  function chaptersToSearch() {
    var D = window.jiaokanData || {};
    if (onIndex) {
      return (D.book && D.book.chapters || []).map(function (c) {
        var ch = D.chapters && expand(D.chapters[c.name]);
        if (ch) {
          ch.lang = c.lang;
          ch.sigla = ch.sigla || c.sigla;  // (the index's groups name them)
          ch.page = ch.page || c.page;
        }
        return ch;
      }).filter(Boolean);
    }
    var ch = chapterData();
    return ch ? [ch] : [];
  }

  function run(query, then) {
    var exact = !!(exactBox && exactBox.checked);
    lastKey = query + "\u0000" + exact;
    clearMarks();
    if (!query || !normalizeQuery(query, null)) {
      results.hidden = true;
      list = [];
      report();
      return;
    }
    function doit() {
      var t0 = performance.now();
      var chs = chaptersToSearch();
      var n = 0;
      var groups = chs.map(function (c) {
        var hits = searchChapter(c, query, exact);
        n += hits.length;
        return { ch: c, hits: hits };
      });
      LIMIT = STEP;  // a new question lists its first hits
      renderResults(groups, n, query);
      J.searchStats = { ms: performance.now() - t0, hits: n, chapters: chs.length };
      report();
      if (then) then();
    }
    if (onIndex) loadBook(doit); else withData(doit);
  }

  if (q && results) {
    var timer = null;
    var key = function () { return q.value + "\u0000" + !!(exactBox && exactBox.checked); };
    q.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { run(q.value); }, 250);
    });
    q.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" && !results.hidden) {
        var first = results.querySelector("a.q-link");
        if (first) { e.preventDefault(); first.focus(); }
        return;
      }
      if (e.key === "Escape" && !results.hidden) { e.preventDefault(); results.hidden = true; return; }
      if (e.key !== "Enter") return;
      e.preventDefault();
      clearTimeout(timer);
      if (key() !== lastKey) run(q.value, function () { if (!onIndex && list.length && window.innerWidth >= 700) visitHere(); });
      else if (onIndex) { var f = results.querySelector("a.q-link"); if (f) f.focus(); }
      else visit(cur + (e.shiftKey ? -1 : 1));
    });
    results.addEventListener("keydown", function (e) {
      var links = Array.prototype.slice.call(results.querySelectorAll("a.q-link"));
      var i = links.indexOf(document.activeElement);
      if (e.key === "Escape") { e.preventDefault(); results.hidden = true; q.focus(); return; }
      if (i < 0) return;
      var j = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: links.length - 1 }[e.key];
      if (j === undefined) return;
      e.preventDefault();
      if (j < 0) { q.focus(); return; }
      links[Math.min(j, links.length - 1)].focus();
    });
    if (exactBox) exactBox.addEventListener("change", function () { if (q.value) run(q.value); });
    if (!onIndex) {  // a click elsewhere on the page puts the list away (the box, Enter or ↓ bring it back)
      document.addEventListener("mousedown", function (e) {
        if (!results.hidden && !results.contains(e.target) && !e.target.closest(".search")) results.hidden = true;
      });
      q.addEventListener("focus", function () { if (list.length && q.value) results.hidden = false; });
    }
    var next = document.getElementById("q-next"), prev = document.getElementById("q-prev");
    function step(d) {
      if (key() !== lastKey) run(q.value, function () { if (list.length) visitHere(); });
      else visit(cur + d);
    }
    if (next) next.addEventListener("click", function () { step(1); });
    if (prev) prev.addEventListener("click", function () { step(-1); });
    var params = new URLSearchParams(location.search);
    if (params.get("q")) {
      q.value = params.get("q");
      if (exactBox && params.get("exact") === "1") exactBox.checked = true;
      var want = null;
      try { want = decodeURIComponent(location.hash.slice(1)); } catch (e) { want = null; }
      run(q.value, onIndex ? null : function () {  // arrived from a result elsewhere: mark that hit in its place
        if (!list.length) return;
        var k = 0;
        for (var i = 0; i < list.length; i++) if ((list[i].d.id || list[i].d.row) === want) { k = i; break; }
        results.hidden = true;
        visit(k);
      });
    }
  }

  if (!onIndex) {  // fetch the chapter's data once the page is up and idle, so the first search is instant
    var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 200); };
    window.addEventListener("load", function () {
      idle(function () { withData(function (ch) { if (ch) idle(function () { prepare(ch); }); }); });
    });
  }

  J.search = { run: run, searchChapter: searchChapter, describe: describe };
})();
