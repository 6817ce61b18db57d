/* jiaokan edition: layer and variant toggles, the apparatus popover, permalinks.
   Plain JavaScript, no framework, no network: works from file://. */
(function () {
  "use strict";

  var body = document.body;
  var text = document.getElementById("text");
  var bar = document.getElementById("bar");

  var store = (function () {
    try {
      var s = window.localStorage;
      s.setItem("jiaokan-test", "1");
      s.removeItem("jiaokan-test");
      return s;
    } catch (e) {
      return null;
    }
  })();

  function readJSON(id) {
    var el = document.getElementById(id);
    if (!el) return {};
    try { return JSON.parse(el.textContent); } catch (e) { return {}; }
  }

  /* ---------------------------------------------------------------- the sticky bar's height */
  function setBarHeight() {
    if (bar && getComputedStyle(bar).position === "sticky") {
      document.documentElement.style.setProperty("--bar-h", bar.offsetHeight + "px");
    }
  }

  /* ---------------------------------------------------------------- toggles (layers, variant types) */
  function bindToggles(attr, prefix, key) {
    var boxes = Array.prototype.slice.call(document.querySelectorAll("input[" + attr + "]"));
    var hidden = [];
    try { hidden = JSON.parse((store && store.getItem(key)) || "[]"); } catch (e) { hidden = []; }
    function apply(b) { body.classList.toggle(prefix + b.getAttribute(attr), !b.checked); }
    function save() {
      if (!store) return;
      store.setItem(key, JSON.stringify(boxes.filter(function (b) { return !b.checked; })
        .map(function (b) { return b.getAttribute(attr); })));
    }
    boxes.forEach(function (b) {
      if (hidden.indexOf(b.getAttribute(attr)) >= 0) b.checked = false;
      apply(b);
      b.addEventListener("change", function () { apply(b); save(); setBarHeight(); });
    });
    return function show(name) {  // un-hide one (a permalink into a hidden layer)
      boxes.forEach(function (b) {
        if (b.getAttribute(attr) === name && !b.checked) { b.checked = true; apply(b); save(); }
      });
    };
  }
  var showLayer = bindToggles("data-layer", "hide-", "jiaokan-hidden-layers");
  bindToggles("data-vtype", "hide-v-", "jiaokan-hidden-vtypes");

  /* ---------------------------------------------------------------- the apparatus popover */
  var APPS = readJSON("apps-data");
  var panel = document.getElementById("app-panel");
  var panelBody = panel && panel.querySelector(".app-panel-body");
  var panelHead = panel && panel.querySelector("h2");
  var lastFocus = null;
  var chapter = text && text.getAttribute("data-chapter");

  function el(tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (txt != null) e.textContent = txt;
    return e;
  }

  function typeLabel(t) {
    return { lem: "base", agree: "= base" }[t] || t;
  }

  function openApp(id, from) {
    var a = APPS[id];
    if (!a || !panel) return;
    document.querySelectorAll("mark.v-active").forEach(function (m) { m.classList.remove("v-active"); });
    document.querySelectorAll('mark.v[data-app="' + id + '"]').forEach(function (m) { m.classList.add("v-active"); });
    panelHead.textContent = (a.n ? "Variant " + a.n : "Variant") + " · " + a.lz + " · " + a.type +
      (a.sub === "minor" ? " (古今字/通假)" : "");
    panelBody.textContent = "";
    // the base text around the lemma, the lemma in bold
    var ctx = el("p", "ctx");
    ctx.lang = text ? text.lang : "";
    var m = /^(.*)【(.*)】(.*)$/.exec(a.ctx || "");
    if (m) {
      ctx.appendChild(document.createTextNode(m[1]));
      ctx.appendChild(el("b", null, m[2] || "‸"));
      ctx.appendChild(document.createTextNode(m[3]));
    } else {
      ctx.textContent = a.ctx || "";
    }
    panelBody.appendChild(ctx);
    var table = el("table");
    var thead = el("thead");
    var hr = el("tr");
    ["Witness", "Reading", "", "Where"].forEach(function (h) { hr.appendChild(el("th", null, h)); });
    thead.appendChild(hr);
    table.appendChild(thead);
    var tb = el("tbody");
    a.r.forEach(function (r) {
      var tr = el("tr");
      tr.setAttribute("data-siglum", r[0]);
      tr.appendChild(el("th", null, r[0]));
      var rd = el("td", "rd", r[1] ? r[1] : (r[4] === "lem" ? "—" : "无"));
      rd.lang = ctx.lang;
      if (!r[1]) rd.title = r[4] === "lem" ? "the base has nothing here" : "omitted in this witness";
      tr.appendChild(rd);
      tr.appendChild(el("td", "ty", typeLabel(r[4])));
      var where = [];
      if (r[2]) where.push("p. " + r[2]);
      if (r[3]) where.push("line " + r[3]);
      var wd = el("td", "where");
      if (r[5] && document.getElementById(r[5]) && body.classList.contains("view-parallel")) {
        var link = el("a", null, where.join(", ") || r[5]);
        link.href = "#" + r[5];
        link.title = "passage " + r[5];
        wd.appendChild(link);
      } else {
        wd.textContent = where.join(", ") || "—";
        if (r[5]) wd.title = "passage " + r[5];
      }
      tr.appendChild(wd);
      tb.appendChild(tr);
    });
    table.appendChild(tb);
    panelBody.appendChild(table);
    if (chapter) {
      var links = el("p", "links");
      var here = body.classList.contains("view-base");
      var go = el("a", null, here ? "see it in the parallel view" : "footnote " + (a.n || "") + " in the base text");
      go.href = here ? chapter + ".html#" + a.row : chapter + "-base.html#fn-" + id;
      links.appendChild(go);
      panelBody.appendChild(links);
    }
    panel.hidden = false;
    panel.setAttribute("data-app", id);
    lastFocus = from || null;
    panel.focus();
  }

  function closePanel(returnFocus) {
    if (!panel || panel.hidden) return;
    panel.hidden = true;
    document.querySelectorAll("mark.v-active").forEach(function (m) { m.classList.remove("v-active"); });
    if (returnFocus && lastFocus) lastFocus.focus();
  }

  document.addEventListener("click", function (e) {
    var t = e.target;
    var m = t.closest ? t.closest("mark.v[data-app]") : null;
    if (m && !(t.closest && t.closest(".tg"))) {
      e.preventDefault();
      openApp(m.getAttribute("data-app"), m);
      return;
    }
    if (panel && !panel.hidden && !panel.contains(t)) closePanel(false);
  });
  if (panel) panel.querySelector(".close").addEventListener("click", function () { closePanel(true); });

  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && panel && !panel.hidden) {
      e.preventDefault();
      closePanel(true);
      return;
    }
    var t = e.target;
    if ((e.key === "Enter" || e.key === " ") && t.matches && t.matches("mark.v[data-app]")) {
      e.preventDefault();
      openApp(t.getAttribute("data-app"), t);
    }
  });

  /* search: static/search.js (over the index files, not the page) */

  /* ---------------------------------------------------------------- permalinks */
  function revealTarget() {
    if (!location.hash) return;
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    var t = document.getElementById(id);
    if (!t) return;
    // a target inside a hidden layer: show that layer
    for (var e = t; e && e !== body; e = e.parentElement) {
      (e.className && typeof e.className === "string" ? e.className.split(/\s+/) : []).forEach(function (c) {
        if (c.indexOf("l-") === 0 && body.classList.contains("hide-" + c.slice(2))) showLayer(c.slice(2));
      });
    }
    t.scrollIntoView({ block: "start" });
  }
  window.addEventListener("hashchange", revealTarget);

  /* ---------------------------------------------------------------- overview: where am I */
  var cells = document.querySelectorAll(".overview .ov");
  /* one tab stop for the whole strip; arrow keys walk its cells, Enter follows one */
  var strip = document.querySelector(".overview");
  if (strip && cells.length) {
    strip.addEventListener("keydown", function (e) {
      var i = Array.prototype.indexOf.call(cells, document.activeElement);
      if (i < 0) return;
      var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[e.key];
      var j = e.key === "Home" ? 0 : e.key === "End" ? cells.length - 1 : step === undefined ? null : i + step;
      if (j === null) return;
      e.preventDefault();
      j = Math.max(0, Math.min(cells.length - 1, j));
      cells[i].setAttribute("tabindex", "-1");
      cells[j].setAttribute("tabindex", "0");
      cells[j].focus();
    });
  }
  if (cells.length && "IntersectionObserver" in window) {
    var cellOf = {};
    cells.forEach(function (c) { cellOf[c.getAttribute("href").slice(1)] = c; });
    var io = new IntersectionObserver(function (entries) {
      entries.forEach(function (en) {
        var c = cellOf[en.target.id];
        if (c) c.classList.toggle("here", en.isIntersecting);
      });
    }, { rootMargin: "-20% 0px -60% 0px" });
    document.querySelectorAll("section.row[id], section.brow[id]").forEach(function (s) {
      if (cellOf[s.id]) io.observe(s);
    });
  }

  setBarHeight();
  window.addEventListener("resize", setBarHeight);
  if (location.hash) revealTarget();
})();
