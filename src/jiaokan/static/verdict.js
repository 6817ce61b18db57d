/* jiaokan 案 verdicts: a 案 note opens, on click or Enter/Space, a dialog with the note, the text it is anchored
   to, each witness's reading there and why the check came out as it did.  The data is the chapter's data file
   (render/search_index.py): the note, the characters around its place, and its verdict record
   (NoteVerdict.to_dict(), with its `claims` when the emend stage gives them). */
(function () {
  "use strict";

  var J = window.jiaokan || {};
  var lib = J.lib;
  if (!lib) return;
  var t = lib.t, el = lib.el;
  lib.register({
    "an.title": { hans: "案语", hant: "案語", en: "案 note" },
    "an.note": { hans: "案语原文", hant: "案語原文", en: "The note" },
    "an.anchor": { hans: "所附正文", hant: "所附正文", en: "Anchored text" },
    "an.readings": { hans: "各本异文", hant: "各本異文", en: "Each witness's reading" },
    "an.why": { hans: "判断依据", hant: "判斷依據", en: "Why" },
    "an.witness": { hans: "本", hant: "本", en: "Witness" },
    "an.reading": { hans: "读作", hant: "讀作", en: "Reading" },
    "an.claims": { hans: "所言各事", hant: "所言各事", en: "Claims" },
    "an.unchecked": { hans: "未核", hant: "未核", en: "unchecked" },
    "an.confirmed": { hans: "相符", hant: "相符", en: "confirmed" },
    "an.contradicted": { hans: "不符", hant: "不符", en: "contradicted" },
    "an.uncertain": { hans: "存疑", hant: "存疑", en: "uncertain" },
    "an.not covered": { hans: "无可核", hant: "無可核", en: "not covered" },
    "an.uncertain": { hans: "存疑", hant: "存疑", en: "uncertain" },
    "an.reason": { hans: "存疑之由", hant: "存疑之由", en: "Why uncertain" },
    "an.noverdict": { hans: "此条未经核对。", hant: "此條未經核對。", en: "No verdict was computed for this note." },
    "an.absent": { hans: "（无）", hant: "（無）", en: "(nothing)" },
    "an.uncovered": { hans: "（未及此处）", hant: "（未及此處）", en: "(does not reach here)" },
    "an.tei": { hans: "TEI 指针", hant: "TEI 指針", en: "TEI pointer" },
    "an.kind.corruption": { hans: "讹", hant: "訛", en: "corruption" },
    "an.kind.omission": { hans: "脱", hant: "脫", en: "omission" },
    "an.kind.addition": { hans: "衍", hant: "衍", en: "addition" },
    "an.kind.variant": { hans: "异文", hant: "異文", en: "variant" },
    "an.kind.conjecture": { hans: "当作", hant: "當作", en: "conjecture" },
    "an.kind.comment": { hans: "按语", hant: "按語", en: "comment" },
    "an.kind.lacuna": { hans: "阙", hant: "闕", en: "lacuna" },
    "an.target.zhushu": { hans: "今注疏本", hant: "今注疏本", en: "the current 注疏" },
    "an.target.songben": { hans: "宋本", hant: "宋本", en: "the Song print" },
    "an.target.self": { hans: "此本", hant: "此本", en: "this text" },
    "an.target.yuanben": { hans: "原本", hant: "原本", en: "the original print" },
    "an.target.tangshijing": { hans: "唐石经", hant: "唐石經", en: "the Tang stone classics" },
    "an.target.shiwen": { hans: "释文", hant: "釋文", en: "Lu Deming's 釋文" }
  });

  var panel = document.getElementById("an-panel");

  /* whom a claim is about (ClaimEvidence.target): the name the notes themselves use */
  function targetName(x) {
    var k = "an.target." + x;
    var s = t(k);
    return s === k ? x : s;
  }

  function verdictName(v) { return t("an." + (v || "unchecked")); }
  function kindName(k) { return k ? t("an.kind." + k) : ""; }

  function section(body, title) {
    var s = el("section", "an-sec");
    s.appendChild(el("h3", null, title));
    body.appendChild(s);
    return s;
  }

  /* each witness's reading at the note's place: the claims' readings when the emend stage gives them ("" nothing
     there, "—" the witness does not reach the place), else what is known today: the note's own witness (the text
     just before the note) and the 注疏 (the verdict's reading) */
  var UNCOVERED = "\u2014";
  function readings(n, v, ch) {
    var out = [];
    var seen = {};
    (v && v.claims || []).forEach(function (c) {
      var rd = c && c.readings;
      if (!rd || typeof rd !== "object") return;
      Object.keys(rd).forEach(function (s) {
        if (seen[s]) return;
        seen[s] = 1;
        out.push([s, rd[s], s === n.w ? notePlace(n, ch) : ""]);
      });
    });
    if (!out.length) {
      out.push([n.w, "…" + n.before.slice(-6), notePlace(n, ch)]);
      if (v && v.zs) out.push([v.zs, v.reading == null ? (v.shown === "not covered" ? UNCOVERED : null) : v.reading, ""]);
    }
    return out;
  }

  /* 葉 and 行 of the note on its leaf (the one convention of cite.js) */
  function notePlace(n, ch) {
    var ref = n.page ? ((((ch.wits[n.w] || {}).pages || {})[n.page]) || []).filter(Boolean).join(" ") : "";
    return ref + (ref && n.line ? " 行" + n.line : "");
  }

  /* what a claim says in the interface language (made in Python from the evidence, render/sentences.py) */
  function say(c) {
    var l = (J.i18n ? J.i18n.lang() : "hans");
    return l === "en" ? c.say_en : (l === "hant" ? c.say_hant : c.say_hans);
  }

  function readingText(r) {
    if (r === UNCOVERED) return t("an.uncovered");
    if (r == null) return "?";
    return r === "" ? t("an.absent") : r;
  }

  /* the anchored text: a claim's (the anchor in 【】), else the characters on either side of the note */
  function anchorLine(p, n, v) {
    var a = (v && v.claims || []).map(function (c) { return c && c.anchor; }).filter(Boolean)[0];
    var m = a && /^(.*)【(.*)】(.*)$/.exec(a);
    if (m) {
      p.appendChild(document.createTextNode(m[1]));
      p.appendChild(el("b", "an-lemma", m[2] || "‸"));
      p.appendChild(document.createTextNode(m[3]));
      return;
    }
    p.appendChild(document.createTextNode(n.before));
    p.appendChild(el("span", "an-at", "〔案〕"));
    p.appendChild(document.createTextNode(n.after || ""));
  }

  function open(id, from) {
    var ch = lib.chapterData();
    var n = ch && ch.notes && ch.notes[id];
    if (!n || !panel) return;
    var v = n.v;
    var d = lib.dialog(panel, t("an.title") + (v ? " · " + kindName(v.kind) + " · " + verdictName(v.shown) : ""), "an-h");
    panel.setAttribute("data-note", id);
    var wit = ch.wits[n.w] || {};
    var s1 = section(d.body, t("an.note"));
    var p1 = el("p", "an-text", "〔" + n.text + "〕");
    p1.lang = wit.lang || "zh";
    s1.appendChild(p1);
    var s2 = section(d.body, t("an.anchor"));
    var p2 = el("p", "an-anchor");
    p2.lang = wit.lang || "zh";
    anchorLine(p2, n, v);
    s2.appendChild(p2);
    var s3 = section(d.body, t("an.readings"));
    var table = el("table", "an-readings");
    var tr0 = el("tr");
    [t("an.witness"), t("an.reading"), ""].forEach(function (h) { tr0.appendChild(el("th", null, h)); });
    var thead = el("thead");
    thead.appendChild(tr0);
    table.appendChild(thead);
    var tb = el("tbody");
    readings(n, v, ch).forEach(function (r) {
      var tr = el("tr");
      tr.setAttribute("data-siglum", r[0]);
      tr.appendChild(el("th", null, r[0]));
      var td = el("td", "rd", readingText(r[1]));
      td.lang = ((ch.wits[r[0]] || {}).lang) || wit.lang || "zh";
      tr.appendChild(td);
      tr.appendChild(el("td", "where", r[2] || ""));
      tb.appendChild(tr);
    });
    table.appendChild(tb);
    s3.appendChild(table);
    var s4 = section(d.body, t("an.why"));
    if (!v) {
      s4.appendChild(el("p", null, t("an.noverdict")));
    } else {
      var claims = v.claims || [];
      var l = (J.i18n ? J.i18n.lang() : "hans");
      if (v.shown === "uncertain") {
        var why = l === "en" ? v.reason : (l === "hant" ? v.reason_hant : v.reason_hans);
        s4.appendChild(el("p", "an-reason", t("an.reason") + ": " + (why || v.reason || "")));
      }
      if (claims.length) {
        var ul = el("ul", "an-claims");
        claims.forEach(function (c) {
          var li = el("li", "an-claim vd-" + String(c.shown || "unchecked").replace(/ /g, "-"));
          var head = [kindName(c.kind), verdictName(c.shown)];
          if (c.lemma != null || c.reading != null) head.push((c.lemma || "∅") + " → " + (c.reading || "∅"));
          head.push(l === "en" ? c.target_en : c.target_hant);
          li.appendChild(el("b", null, head.filter(Boolean).join(" · ")));
          var said = say(c);
          if (said) li.appendChild(el("span", "why", " " + said));
          ul.appendChild(li);
        });
        s4.appendChild(ul);
      }
    }
    if (wit.tei && n.xmlid) {
      var tp = el("p", "an-tei");
      tp.appendChild(el("span", null, t("an.tei") + " "));
      var a = el("a", null, wit.tei + "#" + n.xmlid);
      a.href = wit.tei;
      tp.appendChild(a);
      d.body.appendChild(tp);
    }
    lib.placeNear(panel, from);
    d.focus();
  }

  function noteOf(target) {
    return target && target.closest ? target.closest("#text .an[data-note]") : null;
  }

  /* a change of the emended text opens its note's dialog (its verdict and evidence) */
  function changeOf(target) {
    return target && target.closest ? target.closest("#text.emended .em[data-note-ref]") : null;
  }
  document.addEventListener("click", function (e) {
    var c = changeOf(e.target);
    if (!c || noteOf(e.target)) return;
    e.preventDefault();
    lib.withData(function () { open(c.getAttribute("data-note-ref"), c); });
  });
  document.addEventListener("keydown", function (e) {
    if ((e.key !== "Enter" && e.key !== " ") || !changeOf(e.target) || e.target !== changeOf(e.target)) return;
    e.preventDefault();
    var c = e.target;
    lib.withData(function () { open(c.getAttribute("data-note-ref"), c); });
  });

  document.addEventListener("click", function (e) {
    var note = noteOf(e.target);
    if (!note || (window.getSelection && String(window.getSelection()).length)) return;
    e.preventDefault();
    lib.withData(function () { open(note.getAttribute("data-note"), note); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    var note = noteOf(e.target);
    if (!note || e.target !== note) return;
    e.preventDefault();
    lib.withData(function () { open(note.getAttribute("data-note"), note); });
  });

  J.verdict = { open: open };
})();
