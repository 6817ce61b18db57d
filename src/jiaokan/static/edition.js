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

  /* ---------------------------------------------------------------- the emended text (校定本)
     The base view is the emended text too: every change of a 案 note is in its rows, hidden (the parallel page's
     base column, render/chapter.py parallel_context; a single witness's reading page, base_context).  ?v=emended
     switches the view to it (with ?read=BASE on the parallel page): the changes shown and each a button to its
     note; the links to the other parts of the view keep the switch (partHref). */
  /* ?read=SIGLUM on the parallel page: that witness as the reading text (readingView, below) */
  var READER = (function () {
    var m = /(?:^\?|&)read=([^&#]*)/.exec(location.search), D = window.jiaokanData || {};
    var s = m ? decodeURIComponent(m[1]) : null;
    return s && text && text.classList.contains("parallel") && D.readers && D.readers.o[s] ? s : null;
  })();
  /* the parallel page drawn as its base (?read=BASE) is the emended text too: its base column holds the changes,
     hidden (data-emends, data-base: render/chapter.py parallel_context) */
  var EMENDED = !!(text && text.hasAttribute("data-emends") && /(^\?|&)v=emended(&|$)/.test(location.search) &&
    (!text.classList.contains("parallel") || (READER && READER === text.getAttribute("data-base"))));
  /* what the page leaves out of every variant mark, page anchor and row head as derivable (render/html.py
     mark_app_attr, render/inline.py _pb, render/rowhtml.py), made here before anything reads them: a mark's class v
     and its entry's id (data-a="12" → data-app="app12"); a page anchor's and a row's permalinks' href */
  (function expandMarks() {
    document.querySelectorAll("mark[data-a], mark[data-app]").forEach(function (m) {
      if (!m.hasAttribute("data-app")) m.setAttribute("data-app", "app" + m.getAttribute("data-a"));
      m.classList.add("v");
    });
    document.querySelectorAll("a.pb[id]:not([href])").forEach(function (a) { a.setAttribute("href", "#" + a.id); });
    /* a row's permalinks (render/rowhtml.py): §N to its row, the passage id to itself */
    document.querySelectorAll(".row-head a.plink:not([href]), .row-head a.pid:not([href])").forEach(function (a) {
      var sec = a.closest("section[id]");
      if (a.classList.contains("pid")) a.setAttribute("href", "#" + a.textContent);
      else if (sec) a.setAttribute("href", "#" + sec.id);
    });
  })();
  /* keyboard and screen-reader access of the text's buttons, given here and not written in the page (a third
     of every variant mark's bytes): the first mark of an apparatus entry in a cell (a witness's column of a row,
     a row of the base text) is a tab stop and a button, the entry's other marks there are not tab stops; a 案
     note with an id is a button that opens its dialog (verdict.js) */
  (function keyboardMarks() {
    var seen = {};
    document.querySelectorAll("mark.v[data-app]").forEach(function (m) {
      var cell = m.closest(".col[data-wit], section");
      var k = (cell ? (cell.getAttribute("data-wit") || "") + "#" + cell.id : "") + " " + m.getAttribute("data-app");
      if (seen[k]) { m.tabIndex = -1; return; }
      seen[k] = true;
      m.tabIndex = 0;
      m.setAttribute("role", "button");
    });
    /* an insertion sign's name (tooltip, screen reader), in the interface's language (translate, below): a
       reading the base lacks (v-lem, the base's side) or one this witness lacks */
    document.querySelectorAll("mark.v-ins").forEach(function (m) {
      var k = m.classList.contains("v-lem") ? "ins-base" : "ins-wit";
      m.setAttribute("data-i18n-title", k);
      m.setAttribute("data-i18n-aria", k);
    });
    /* in the emended text, what a struck reading is: the 注疏's that the editors set aside (this text never read it),
       or this text's own that they emend (a reader's trial took the first for characters deleted from this text) */
    document.querySelectorAll("del.em-was, del.em-old").forEach(function (d) {
      d.setAttribute("data-i18n-title", d.classList.contains("em-was") ? "em-was" : "em-old");
    });
    /* a 疏 shown on the 疏 page (render/shulink.py): its link's tooltip */
    document.querySelectorAll("a.shu-go").forEach(function (a) { a.setAttribute("data-i18n-title", "shu-go"); });
    /* a row's permalinks: their tooltips (chapter.html writes them bare, some 5,000 rows) */
    document.querySelectorAll(".row-head .plink, .row-head .pid").forEach(function (a) {
      a.setAttribute("data-i18n-title", a.classList.contains("plink") ? "plink" : "pid");
    });
    document.querySelectorAll(".an[data-note]").forEach(function (e) {
      e.tabIndex = 0;
      e.setAttribute("role", "button");
      e.setAttribute("aria-haspopup", "dialog");
    });
  })();
  var MODE = [READER ? "read=" + encodeURIComponent(READER) : "", EMENDED ? "v=emended" : ""].filter(Boolean).join("&");
  function partHref(page) { return MODE ? page + "?" + MODE : page; }
  if (EMENDED) {
    text.classList.add("emended");
    body.classList.remove("view-base");
    body.classList.add("view-emended");
    document.querySelectorAll(".views [aria-current]").forEach(function (a) { a.removeAttribute("aria-current"); });
    var emLink = document.querySelector(".views .emended-link");
    if (emLink) emLink.setAttribute("aria-current", "page");
    text.querySelectorAll(".em[data-note-ref]").forEach(function (e) {
      e.tabIndex = 0;
      e.setAttribute("role", "button");
      e.setAttribute("aria-haspopup", "dialog");
    });
  }
  if (MODE && text) text.querySelectorAll("nav.parts a[href]").forEach(function (a) { a.setAttribute("href", partHref(a.getAttribute("href"))); });

  function readJSON(id) {
    var el = document.getElementById(id);
    if (!el) return {};
    try { return JSON.parse(el.textContent); } catch (e) { return {}; }
  }

  /* ---------------------------------------------------------------- the interface language
     window.jiaokan.i18n: register({key: {hans, hant, en}}), t(key), lang(), set(lang).  Elements carrying
     data-i18n="key" get the text, data-i18n-title / -aria / -placeholder the attribute, at every switch
     (and, for keys registered later by another script, at registration).  简 is the default. */
  var jiaokan = window.jiaokan = window.jiaokan || {};
  var LANGS = ["hans", "hant", "en"];
  var HTML_LANG = { hans: "zh-Hans", hant: "zh-Hant", en: "en" };
  var DICT = {};
  var uiLang = (store && LANGS.indexOf(store.getItem("jiaokan-ui-lang")) >= 0) ? store.getItem("jiaokan-ui-lang") : "hans";
  var ATTRS = [["data-i18n-title", "title"], ["data-i18n-aria", "aria-label"], ["data-i18n-placeholder", "placeholder"]];

  function t(key) {
    var d = DICT[key];
    if (!d) return key;
    return d[uiLang] != null ? d[uiLang] : (d.hans != null ? d.hans : key);
  }

  /* {name} in a string from the element's data-i18n-args (JSON); {layer} is a layer's key, named in the language */
  function fill(s, args) {
    if (!args) return s;
    var vars;
    try { vars = JSON.parse(args); } catch (e) { return s; }
    Object.keys(vars).forEach(function (k) {
      var v = k === "layer" && DICT["layer-name-" + vars[k]] ? t("layer-name-" + vars[k]) : String(vars[k]);
      s = s.split("{" + k + "}").join(v);
    });
    return s;
  }

  /* an element's data-i18n-args; a row's note "疏 仅见于 ZS" (a .gap with data-present, rowhtml.py) carries none:
     its layer is its class l-LAYER and its witnesses are data-present, which the page has already */
  function argsOf(e) {
    var a = e.getAttribute("data-i18n-args");
    if (a || !e.hasAttribute("data-present")) return a;
    var m = /(?:^|\s)l-(\S+)/.exec(e.className);
    return JSON.stringify({ layer: m ? m[1] : "", w: e.getAttribute("data-present") });
  }

  function translate(root, only) {
    var sel = "[data-i18n]," + ATTRS.map(function (a) { return "[" + a[0] + "]"; }).join(",");
    (root || document).querySelectorAll(sel).forEach(function (e) {
      var k = e.getAttribute("data-i18n");
      // unchanged text is left alone: rewriting it (the page is written in 简, the default) dirties the layout
      // of every row at load
      var v;
      if (k && DICT[k] && (!only || only[k])) {
        v = fill(t(k), argsOf(e));
        if (e.textContent !== v) e.textContent = v;
      }
      ATTRS.forEach(function (a) {
        var ak = e.getAttribute(a[0]);
        if (ak && DICT[ak] && (!only || only[ak])) {
          v = fill(t(ak), argsOf(e));
          if (e.getAttribute(a[1]) !== v) e.setAttribute(a[1], v);
        }
      });
    });
  }

  function setLang(l) {
    if (LANGS.indexOf(l) < 0) return;
    uiLang = l;
    if (store) store.setItem("jiaokan-ui-lang", l);
    if (document.documentElement.lang !== HTML_LANG[l]) document.documentElement.lang = HTML_LANG[l];
    document.querySelectorAll("[data-ui-lang]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-ui-lang") === l));
    });
    translate();
    document.dispatchEvent(new CustomEvent("jiaokan:lang", { detail: { lang: l } }));
  }

  jiaokan.i18n = {
    register: function (dict) {
      var fresh = {};
      Object.keys(dict || {}).forEach(function (k) { DICT[k] = dict[k]; fresh[k] = true; });
      translate(document, fresh);
    },
    t: t,
    lang: function () { return uiLang; },
    set: setLang,
    apply: function (root) { translate(root); }
  };

  jiaokan.i18n.register({
    "toc": { hans: "目录", hant: "目錄", en: "Contents" },
    "pian-nav": { hans: "篇目导航", hant: "篇目導航", en: "Chapters" },
    "prev-pian": { hans: "上一篇", hant: "上一篇", en: "previous chapter" },
    "next-pian": { hans: "下一篇", hant: "下一篇", en: "next chapter" },
    "views": { hans: "视图", hant: "視圖", en: "Views" },
    "parallel": { hans: "对照", hant: "對照", en: "Parallel" },
    "basetext": { hans: "底本与校记", hant: "底本與校記", en: "Base text + apparatus" },
    "reading": { hans: "读本", hant: "讀本", en: "Reading text" },
    "layers": { hans: "层次", hant: "層次", en: "Layers" },
    "variants": { hans: "异文", hant: "異文", en: "Variants" },
    "layer-jing": { hans: "经", hant: "經", en: "经 classic" },
    "layer-zhuan": { hans: "传", hant: "傳", en: "传 commentary" },
    "layer-zhu": { hans: "注", hant: "注", en: "注 commentary" },
    "layer-shu": { hans: "疏", hant: "疏", en: "疏 sub-comm." },
    "layer-yinyi": { hans: "音义", hant: "音義", en: "音义 glosses" },
    "layer-shi": { hans: "释", hant: "釋", en: "释 Li Rugui" },
    "layer-an": { hans: "案", hant: "案", en: "案 notes" },
    "layer-kaozheng": { hans: "考证", hant: "考證", en: "考证 textual notes" },
    "layer-commentary": { hans: "诸家", hant: "諸家", en: "other comm." },
    "layer-paratext": { hans: "其他", hant: "其他", en: "paratext" },
    "vt-all": { hans: "全部", hant: "全部", en: "all" },
    "vt-substantive": { hans: "实质", hant: "實質", en: "substantive" },
    "vt-omission": { hans: "脱文", hant: "脫文", en: "omission" },
    "vt-addition": { hans: "衍文", hant: "衍文", en: "addition" },
    "vt-transposition": { hans: "倒文", hant: "倒文", en: "transposition" },
    "vt-taboo": { hans: "避讳", hant: "避諱", en: "taboo 避讳" },
    "vt-orthographic": { hans: "异体", hant: "異體", en: "orthographic 异体" },
    "vt-uncertain": { hans: "缺字", hant: "缺字", en: "uncertain 缺字" },
    "step": { hans: "逐条查看异文", hant: "逐條查看異文", en: "step through variants" },
    "step-type": { hans: "异文类型", hant: "異文類型", en: "variant type" },
    "step-prev": { hans: "上一处 (k)", hant: "上一處 (k)", en: "previous (k)" },
    "step-next": { hans: "下一处 (j)", hant: "下一處 (j)", en: "next (j)" },
    "reading-opts": { hans: "阅读", hant: "閱讀", en: "Reading" },
    "show-para": { hans: "显示网页附加文字与现代标点", hant: "顯示網頁附加文字與現代標點", en: "show web furniture and modern punctuation" },
    "show-para-tip": { hans: "网站附加文字（编辑链接、版权声明等）与图书集成的现代标点；TEI 中均保留", hant: "網站附加文字（編輯連結、版權聲明等）與圖書集成的現代標點；TEI 中均保留", en: "the websites' furniture (edit links, licence notices) and the modern punctuation of the 图书集成; all kept in the TEI" },
    "columns": { hans: "列", hant: "欄", en: "Columns" },
    "move-left": { hans: "左移", hant: "左移", en: "move left" },
    "move-right": { hans: "右移", hant: "右移", en: "move right" },
    "base": { hans: "底本", hant: "底本", en: "base" },
    "absent-in": { hans: "不见于", hant: "不見於", en: "not in" },
    "unplaced-in": { hans: "未能对齐", hant: "未能對齊", en: "not aligned here" },
    "shu-go": { hans: "此段疏文见疏页：与单疏本对校", hant: "此段疏文見疏頁：與單疏本對校",
                en: "this 疏 is shown on the 疏 page, collated with the 单疏本" },
    "unplaced-tip": { hans: "此段经文见于该本他处：校勘程序未能将其对齐于此，并非该本所无",
                      hant: "此段經文見於該本他處：校勘程序未能將其對齊於此，並非該本所無",
                      en: "this witness has the passage elsewhere in its text: the collation could not place it here, which does not mean the witness lacks it" },
    "gap-edge": { hans: "{w} 节录始末在此段内", hant: "{w} 節錄始末在此段內", en: "{w} begins or ends inside this passage" },
    "gap-lacuna": { hans: "{layer}：{w} 底本缺叶", hant: "{layer}：{w} 底本缺葉", en: "{layer} lost in {w}: a leaf of its source is missing" },
    "gap-layer": { hans: "{layer} 仅见于 {w}", hant: "{layer} 僅見於 {w}", en: "{layer} only in {w}" },
    "layer-name-jing": { hans: "经", hant: "經", en: "classic (经)" },
    "layer-name-zhuan": { hans: "传", hant: "傳", en: "commentary (传)" },
    "layer-name-zhu": { hans: "注", hant: "注", en: "commentary (注)" },
    "layer-name-shu": { hans: "疏", hant: "疏", en: "sub-commentary (疏)" },
    "layer-name-yinyi": { hans: "音义", hant: "音義", en: "glosses (音义)" },
    "layer-name-shi": { hans: "释", hant: "釋", en: "Li Rugui's comments (释)" },
    "layer-name-an": { hans: "案", hant: "案", en: "editors' notes (案)" },
    "layer-name-kaozheng": { hans: "考证", hant: "考證", en: "editors' textual notes (考证)" },
    "layer-name-commentary": { hans: "诸家", hant: "諸家", en: "other commentators" },
    "layer-name-paratext": { hans: "其他", hant: "其他", en: "paratext" },
    "lede": { hans: "对照本：各本并列，逐段对齐；经文大字，注疏小字；异文按类型标出，校记随手可查；四库馆臣案语各在其位。",
              hant: "對照本：各本並列，逐段對齊；經文大字，注疏小字；異文按類型標出，校記隨手可查；四庫館臣案語各在其位。",
              en: "A parallel-text edition: the witnesses side by side, aligned passage by passage, 经 large and the commentary smaller, variants highlighted by type with the apparatus at hand, the 四库 editors' 案 notes at their place." },
    "toc-pian": { hans: "篇", hant: "篇", en: "Chapter" },
    "toc-wits": { hans: "各本", hant: "各本", en: "Witnesses" },
    "toc-rows": { hans: "段", hant: "段", en: "Rows" },
    "toc-variants": { hans: "异文", hant: "異文", en: "Variants" },
    "toc-types": { hans: "类型", hant: "類型", en: "By type" },
    "toc-an": { hans: "案", hant: "案", en: "案 notes" },
    "toc-shu": { hans: "疏", hant: "疏", en: "疏 sub-commentary" },
    "toc-views": { hans: "视图", hant: "視圖", en: "Views" },
    "witnesses": { hans: "各本", hant: "各本", en: "Witnesses" },
    "an-notes": { hans: "案语", hant: "案語", en: "案 notes" },
    "howto": { hans: "阅读说明", hant: "閱讀說明", en: "Reading the edition" },
    "panel-variant": { hans: "异文", hant: "異文", en: "Variant" },
    "panel-witness": { hans: "本", hant: "本", en: "Witness" },
    "panel-reading": { hans: "读法", hant: "讀法", en: "Reading" },
    "panel-where": { hans: "位置", hant: "位置", en: "Where" },
    "panel-base": { hans: "底本", hant: "底本", en: "base" },
    "panel-agree": { hans: "同底本", hant: "同底本", en: "= base" },
    "panel-omitted": { hans: "（无）", hant: "（無）", en: "(nothing)" },
    "panel-lost": { hans: "〔缺〕", hant: "〔缺〕", en: "[lost]" },
    "panel-to-parallel": { hans: "在对照视图中查看", hant: "在對照視圖中查看", en: "see it in the parallel view" },
    "panel-to-base": { hans: "底本校记", hant: "底本校記", en: "footnote in the base text" },
    "close": { hans: "关闭 (Esc)", hant: "關閉 (Esc)", en: "close (Esc)" },
    "tools": { hans: "显示选项", hant: "顯示選項", en: "Display" },
    "readers": { hans: "读本", hant: "讀本", en: "Reading text" },
    "emended": { hans: "校定本", hant: "校定本", en: "Emended text" },
    "emended-intro": { hans: "校定本：{base} 之文，四库馆臣案语所校改者 {n} 处，各标于其字：馆臣不取之读加删除线（今注疏本之字，或本书当改之字），校定之字加底色；点击查看案语及核对结果。",
                       hant: "校定本：{base} 之文，四庫館臣案語所校改者 {n} 處，各標於其字：館臣不取之讀加刪除線（今注疏本之字，或本書當改之字），校定之字加底色；點擊查看案語及核對結果。",
                       en: "Emended text: {base} with the {n} changes of the Siku editors' 案 notes, each marked at its characters (struck: the reading the editors set aside, the 注疏's of their day or this text's own where they emend it; shaded: the emended reading); click one for its note and verdict." },
    "em-was": { hans: "今注疏本之读，馆臣不取（本书不作此）", hant: "今注疏本之讀，館臣不取（本書不作此）",
                en: "What the 注疏 of the editors' day reads, which they set aside (this text does not read it)" },
    "em-old": { hans: "本书原文，馆臣校改", hant: "本書原文，館臣校改", en: "This text as transmitted, which the editors emend" },
    "base-intro": { hans: "以 {base} 为底本，与他本对校，出校记 {n} 条（每篇自为起讫），依校勘记体例叙各本异文。",
                    hant: "以 {base} 爲底本，與他本對校，出校記 {n} 條（每篇自爲起訖），依校勘記體例敘各本異文。",
                    en: "Base text {base}, collated with the other witnesses: {n} apparatus notes (numbered per chapter), in the form of a 校勘記." },
    "reading-intro": { hans: "{base} 读本。", hant: "{base} 讀本。", en: "Reading text of {base}." },
    "sigla-list": { hans: "各本：", hant: "各本：", en: "Witnesses: " },
    "only-in": { hans: "仅见于 {w}：", hant: "僅見於 {w}：", en: "only in {w}:" },
    "plink": { hans: "本段固定链接", hant: "本段固定鏈接", en: "permalink to this passage row" },
    "pid": { hans: "底本此段固定链接", hant: "底本此段固定鏈接", en: "permalink to the base passage" },
    "front": { hans: "卷首", hant: "卷首", en: "front matter" },
    "back": { hans: "卷末", hant: "卷末", en: "back matter" },
    "search.label": { hans: "检索本篇", hant: "檢索本篇", en: "Search this chapter" },
    "search.placeholder": { hans: "检索", hant: "檢索", en: "search" },
    "q-prev": { hans: "上一处 (Shift+Enter)", hant: "上一處 (Shift+Enter)", en: "previous match (Shift+Enter)" },
    "q-next": { hans: "下一处 (Enter)", hant: "下一處 (Enter)", en: "next match (Enter)" },
    "overview": { hans: "异文分布：点击或以方向键、回车跳转", hant: "異文分布：點擊或以方向鍵、回車跳轉", en: "Variant density along the chapter: click, or arrow keys and Enter, to jump" },
    "ui-lang": { hans: "界面语言", hant: "界面語言", en: "interface language" },
    "ov-cell": { hans: "§{n}：异文 {v}", hant: "§{n}：異文 {v}", en: "§{n}: {v} variants" },
    "ov-cell-solo": { hans: "§{n}：异文 {v}（非各本皆有此段）", hant: "§{n}：異文 {v}（非各本皆有此段）", en: "§{n}: {v} variants · not in every witness" },
    "foot-app": { hans: "校记", hant: "校記", en: "app." },
    "foot-app-tei": { hans: "校记 TEI（平行分段）", hant: "校記 TEI（平行分段）", en: "apparatus TEI (parallel segmentation)" },
    "howto-layers": { hans: "层次：经文大字，注小字，疏更小；“显示选项”中可隐藏任一层次。", hant: "層次：經文大字，注小字，疏更小；「顯示選項」中可隱藏任一層次。",
                      en: "Layers: 经 in large type, 注 smaller, 疏 smaller again; “Display” hides any layer." },
    "howto-variants": { hans: "异文：按类型标色（实质、脱文、衍文、倒文、避讳、异体、缺字）；点击（或以 Tab 移至并按回车）即见各本读法及所在叶、行。",
                        hant: "異文：按類型標色（實質、脫文、衍文、倒文、避諱、異體、缺字）；點擊（或以 Tab 移至並按回車）即見各本讀法及所在葉、行。",
                        en: "Variants: coloured by type (substantive, omission, addition, transposition, taboo, orthographic, unknown character); click one (or Tab to it and press Enter) for every witness's reading with its leaf and line." },
    "howto-views": { hans: "视图：对照（各本并列）、底本与校记（校勘记，每篇自为起讫，可打印）、读本（任一本为底本，他本入校记）、校定本（案语所校改者各标于其字）。",
                     hant: "視圖：對照（各本並列）、底本與校記（校勘記，每篇自爲起訖，可打印）、讀本（任一本爲底本，他本入校記）、校定本（案語所校改者各標於其字）。",
                     en: "Views: parallel (the witnesses side by side), base text with its 校勘記 (numbered per chapter, printable), any witness as the reading text (the others in its apparatus), the emended text (each change of a 案 note marked at its characters)." },
    "howto-an": { hans: "案语：点击查看案语原文、所附正文、各本异文、核对结果及其依据；证据不足者标“存疑”。", hant: "案語：點擊查看案語原文、所附正文、各本異文、核對結果及其依據；證據不足者標「存疑」。",
                  en: "案 notes: click one for the note, the text it is anchored to, every witness's reading there, the verdict and why; where the evidence does not decide, it says “uncertain”." },
    "howto-links": { hans: "链接：每段（#r12）、每节（#JS10.72）、每叶（#JS-p13a）、每条异文（#app12）皆有固定链接；“引用”给出出处、固定链接、TEI 指针及 BibTeX、CSL-JSON。",
                     hant: "鏈接：每段（#r12）、每節（#JS10.72）、每葉（#JS-p13a）、每條異文（#app12）皆有固定鏈接；「引用」給出出處、固定鏈接、TEI 指針及 BibTeX、CSL-JSON。",
                     en: "Links: every row (#r12), passage (#JS10.72), leaf (#JS-p13a) and variant (#app12) has a permalink; “Cite” gives the citation, the permalink, the TEI pointer, BibTeX and CSL-JSON." },
    "howto-step": { hans: "逐条：在“显示选项”中选异文类型，按 j / k 前后逐条查看，异文随即展开，地址栏同步。", hant: "逐條：在「顯示選項」中選異文類型，按 j / k 前後逐條查看，異文隨即展開，地址欄同步。",
                    en: "Stepping: choose a variant type under “Display”, then j / k open the next / previous entry and the address follows." },
    "howto-columns": { hans: "各本：可隐藏、左右移动（记忆）；某本所无之段占满全宽并注明；某本有其文而未能对齐者注“未能对齐”。", hant: "各本：可隱藏、左右移動（記憶）；某本所無之段占滿全寬並注明；某本有其文而未能對齊者注「未能對齊」。",
                       en: "Columns: hide a witness or move it (remembered); a passage a witness lacks takes the whole width and says so; a witness that has the passage elsewhere is marked “not aligned here”." },
    "howto-para": { hans: "附加文字：网页附加文字与图书集成的现代标点默认折叠，可在“显示选项”中打开；TEI 中均保留。", hant: "附加文字：網頁附加文字與圖書集成的現代標點默認折疊，可在「顯示選項」中打開；TEI 中均保留。",
                    en: "Paratext: the websites' furniture and the 图书集成's modern punctuation are folded away; “Display” shows them. The TEI keeps everything." },
    "howto-search": { hans: "检索：简繁、异体皆通；全书检索之结果打开后保留检索词并标出所在。", hant: "檢索：簡繁、異體皆通；全書檢索之結果打開後保留檢索詞並標出所在。",
                      en: "Search finds characters across simplified, traditional and variant forms; a whole-book result opens with the query kept and the hit marked." },
    "wt-siglum": { hans: "简称", hant: "簡稱", en: "Siglum" },
    "wt-witness": { hans: "本", hant: "本", en: "Witness" },
    "wt-chapter": { hans: "篇", hant: "篇", en: "Chapter" },
    "wt-script": { hans: "字体", hant: "字體", en: "Script" },
    "wt-passages": { hans: "段数", hant: "段數", en: "Passages" },
    "wt-source": { hans: "来源", hant: "來源", en: "Source" },
    "wt-licence": { hans: "许可", hant: "許可", en: "Licence" },
    "an-summary": { hans: "四库馆臣案语 {n} 条，按类分列，并列其所言与注疏本核对之结果。", hant: "四庫館臣案語 {n} 條，按類分列，並列其所言與注疏本核對之結果。",
                    en: "{n} notes of the Siku editors, by kind, with the verdict of checking each claim against the 注疏 witness." },
    "an-nov": { hans: "四库馆臣案语 {n} 条，各在其位（本次未核对）。", hant: "四庫館臣案語 {n} 條，各在其位（本次未核對）。", en: "{n} notes of the Siku editors, at their place in the text (not checked in this build)." },
    "an-kind": { hans: "类", hant: "類", en: "Kind" },
    "an-all": { hans: "合计", hant: "合計", en: "all" },
    "an.confirmed": { hans: "相符", hant: "相符", en: "confirmed" },
    "an.contradicted": { hans: "不符", hant: "不符", en: "contradicted" },
    "an.not covered": { hans: "无可核", hant: "無可核", en: "not covered" },
    "an.uncertain": { hans: "存疑", hant: "存疑", en: "uncertain" },
    "an.unchecked": { hans: "未核", hant: "未核", en: "unchecked" },
    "an.kind.corruption": { hans: "讹", hant: "訛", en: "corruption" },
    "an.kind.omission": { hans: "脱", hant: "脫", en: "omission" },
    "an.kind.addition": { hans: "衍", hant: "衍", en: "addition" },
    "an.kind.variant": { hans: "异文", hant: "異文", en: "variant" },
    "an.kind.conjecture": { hans: "当作", hant: "當作", en: "conjecture" },
    "an.kind.comment": { hans: "按语", hant: "按語", en: "comment" },
    "an.kind.lacuna": { hans: "阙", hant: "闕", en: "lacuna" },
    "an.kind.unparsed": { hans: "未解析", hant: "未解析", en: "not parsed" },
    "ins-wit": { hans: "此本于此无字", hant: "此本於此無字", en: "nothing here in this witness" },
    "ins-base": { hans: "底本于此无字", hant: "底本於此無字", en: "the base has nothing here" },
    "parts": { hans: "本篇分页", hant: "本篇分頁", en: "parts of this chapter" },
    "part-prev": { hans: "‹ 上一页", hant: "‹ 上一頁", en: "‹ previous part" },
    "part-next": { hans: "下一页 ›", hant: "下一頁 ›", en: "next part ›" },
    "fn-back": { hans: "回到正文", hant: "回到正文", en: "back to the text" },
    "edge.front": { hans: "卷首", hant: "卷首", en: "front matter" },
    "edge.back": { hans: "卷末", hant: "卷末", en: "back matter" },
    "div.site-header": { hans: "网页页眉", hant: "網頁頁眉", en: "site header" },
    "div.export-header": { hans: "导出说明", hant: "導出說明", en: "export header" },
    "div.front-matter": { hans: "卷首", hant: "卷首", en: "front matter" },
    "div.licence": { hans: "版权声明", hant: "版權聲明", en: "licence" }
  });

  /* ---------------------------------------------------------------- a witness as the reading text
     The parallel page with ?read=SIGLUM becomes that witness's reading view, as the base page is the base's: each
     row a block of its column's text (the others' text, quietly, where it has none), a footnote number after
     each entry, and under it the 校勘記 read from it (jiaokanData.readers[SIGLUM], render/appview.py
     reader_entries: sentence and sigla, in its order).  One page carries every witness's text once. */
  var READ_NUM = {};
  /* an entry of the chapter's file as the popover reads it (render/appview.py app_table, entry_fields): its row,
     layer, type, context and readings, each [siglum, text, page, line on the leaf, type, unit, the page's
     reference] (the lemma's type "lem"), and the rare fields (sub, f, an); layers, types and subtypes (T.kinds),
     pages, units, the readings' sigla (T.sigla, or the entry's own w) and the text the context is cut from (T.ctx,
     appview.context_code) are named by their place in the chapter's tables (D.at, appview.app_tables) */
  var CTX = 8, ctxOf = null, ctxChars = [];
  function entryOf(x) {
    if (!x) return null;
    var T = window.jiaokanData.at, rare = x[5] || {}, w = rare.w || T.sigla;
    function reading(s, r, type, unit) {
      var pg = r[1] != null ? T.pages[s][r[1]] : [null, ""];
      return [s, r[0], pg[0], r[2], type, unit != null ? T.units[s][unit] : null, pg[1]];
    }
    if (ctxOf !== T.ctx) { ctxOf = T.ctx; ctxChars = Array.from(T.ctx || ""); }
    function context(c, lemma) {
      if (typeof c === "string") return c;
      var off = typeof c === "number" ? c : c[0], l = typeof c === "number" ? CTX : c[1], r = typeof c === "number" ? CTX : c[2];
      var t = ctxChars, end = off + Array.from(lemma).length;
      return t.slice(off - l, off).join("") + "【" + t.slice(off, end).join("") + "】" + t.slice(end, end + r).join("");
    }
    var lem = x[4][0], kind = T.kinds[x[2]];
    if (typeof lem[0] === "number") {  // the lemma as its length: the characters where the context has it
      var at = typeof x[3] === "number" ? x[3] : x[3][0];
      lem = [ctxChars.slice(at, at + lem[0]).join("")].concat(lem.slice(1));
    }
    var out = Object.assign({ row: rowOf(x), layer: T.layers[x[1]], type: kind[0], ctx: context(x[3], rare.f ? rare.f[0] : lem[0]),
      r: [reading(w[0], lem, "lem", lem[3])].concat(x[4].slice(1).map(function (r, i) { return reading(w[i + 1], r, T.types[r[3]], r[4]); })) },
      kind[1] ? { sub: kind[1] } : {}, rare);
    delete out.w;
    return out;
  }
  /* an entry's row id: r12 is written 12 (render/overview.py row_key) */
  function rowOf(x) { return typeof x[0] === "number" ? "r" + x[0] : x[0]; }
  /* a reading's place as every citation writes it, 卷一 葉二a 行7: its page's reference and its line */
  function placeOf(r) {
    if (!r[2]) return "";
    return r[3] == null ? r[6] : r[6] + " 行" + r[3];
  }
  /* the 校勘記 read from witness w: per entry [app id, sentence, [[siglum, leaf], …]], in its order (D.readers.o),
     composed as render/appview.py jiaokanji and _footnote compose them (the browser tests hold the two together) */
  function readerEntries(w) {
    var D = window.jiaokanData, R = D.readers, apps = D.apps || {}, ids = Object.keys(apps);
    function join(ns) { return ns.filter(function (x, i) { return ns.indexOf(x) === i; }).join("、"); }
    function hans(s) {  // the words between quotations in simplified characters (sentences.py hans)
      return s.split("「").map(function (c, i) {
        if (!i) return R.hans[c] != null ? R.hans[c] : c;
        var k = c.indexOf("」");
        if (k < 0) return "「" + c;
        var g = c.slice(k + 1);
        return "「" + c.slice(0, k + 1) + (R.hans[g] != null ? R.hans[g] : g);
      }).join("");
    }
    function sentence(a, rs) {
      var base = rs[0][0], own, diff = [], names = R.names;
      if (w === base) {
        own = rs[0][1];
        rs.slice(1).forEach(function (r) { if (r[4] !== "agree") diff.push([r[0], r[1]]); });
      } else {
        var mine = rs.filter(function (r) { return r[0] === w; })[0];
        own = mine ? mine[1] : "";
        rs.forEach(function (r) { if (r[0] !== w && r[1] !== own) diff.push([r[0], r[1]]); });
      }
      var head = a.layer === "jing" ? "" : (R.layers[a.layer] || "");
      function groups(xs) {
        var by = {}, keys = [];
        xs.forEach(function (x) {
          if (!(x[1] in by)) { by[x[1]] = []; keys.push(x[1]); }
          by[x[1]].push(names[x[0]]);
        });
        return keys.map(function (k) { return [k, by[k]]; });
      }
      if (!own) {  // others have more here: 「執」下，X有「弣」字
        var place = w === base ? a.an || "此處" : "此處";
        return head + place + "，" + groups(diff).filter(function (g) { return g[0]; })
          .map(function (g) { return join(g[1]) + "有「" + g[0] + "」字"; }).join("；") + "。";
      }
      var lost = diff.filter(function (x) { return !x[1]; }).map(function (x) { return names[x[0]]; });
      var parts = groups(diff.filter(function (x) { return x[1]; })).map(function (g) { return join(g[1]) + "作「" + g[0] + "」"; });
      var n = Array.from(own).length;
      if (lost.length) parts.push(parts.length ? join(lost) + "無" + (n === 1 ? "此字" : "此" + n + "字") : join(lost) + "無");
      return head + "「" + own + "」，" + parts.join("，") + "。";
    }
    var at = 0;  // each entry's place as its step from the one before (appview.py reader_order)
    return R.o[w].map(function (d) {
      var i = at += d;
      var id = ids[i], a = entryOf(apps[id]);
      // every reading's whole text (a.f where the page marks part of one for another entry)
      var rs = a.r.map(function (r, k) { return a.f ? [r[0], a.f[k], r[2], r[3], r[4]] : r; });
      var own = rs.filter(function (r) { return r[0] === w; })[0];
      var sigs = [[w, own ? own[2] : null]];
      rs.forEach(function (r) { if (r[0] !== w && (!own || r[1] !== own[1])) sigs.push([r[0], r[2]]); });
      var s = sentence(a, rs);
      return [id, R.simplified.indexOf(w) >= 0 ? hans(s) : s, sigs];
    });
  }
  jiaokan.readerEntries = readerEntries;
  function readingView(w) {
    var D = window.jiaokanData, entries = readerEntries(w), apps = D.apps || {}, byRow = {};
    entries.forEach(function (e, i) {
      READ_NUM[e[0]] = i + 1;
      var r = apps[e[0]] ? rowOf(apps[e[0]]) : undefined;
      (byRow[r] = byRow[r] || []).push(e);
    });
    function mk(tag, cls, txt) {
      var x = document.createElement(tag);
      if (cls) x.className = cls;
      if (txt != null) x.textContent = txt;
      return x;
    }
    function i18n(x, key, args) {
      x.setAttribute("data-i18n", key);
      if (args) x.setAttribute("data-i18n-args", JSON.stringify(args));
      x.textContent = fill(t(key), args ? JSON.stringify(args) : null);
      return x;
    }
    function sig(s, pg) {
      var f = document.createDocumentFragment();
      f.appendChild(mk("span", "sig", s));
      if (pg) f.appendChild(mk("span", "pg", pg));
      return f;
    }
    function moveChildren(from, to) { while (from.firstChild) to.appendChild(from.firstChild); }
    var lang = null;
    // a column says its language only where it is not the page's (main's lang, the base witness's)
    var pageLang = text.getAttribute("lang") || "";
    function colLang(c) { return c.getAttribute("lang") || pageLang; }
    text.querySelectorAll(":scope > section.row").forEach(function (sec) {
      var own = sec.querySelector(':scope > .cols > .col[data-wit="' + CSS.escape(w) + '"]');
      var has = own && !own.classList.contains("col-empty");
      lang = lang || (own && colLang(own));
      var nb = mk("section", sec.classList.contains("edge") ? "brow edge" : "brow");
      nb.id = sec.id;
      if (sec.classList.contains("edge")) {  // front and back matter: the witness's own, if any
        if (!has) { sec.remove(); return; }
      } else {
        nb.setAttribute("data-n", sec.id.slice(1));  // r12 → 12 (the row's number)
        var pl = sec.querySelector(".row-head .plink");
        if (pl) nb.appendChild(pl);
      }
      var bt = mk("div", "btext");
      bt.setAttribute("data-wit", w);
      if (own) bt.setAttribute("lang", colLang(own));
      if (has) moveChildren(own, bt);
      nb.appendChild(bt);
      var mine = byRow[sec.id] || [];
      mine.forEach(function (e) {  // the number after the entry's last mark, as the base page has it
        var ms = bt.querySelectorAll('mark[data-app="' + CSS.escape(e[0]) + '"]');
        if (!ms.length) return;
        var a = mk("a", "fn-ref", String(READ_NUM[e[0]]));
        a.id = "ref-" + e[0];
        a.href = "#fn-" + e[0];
        a.setAttribute("data-app", e[0]);
        ms[ms.length - 1].after(a);
      });
      if (!has && !sec.classList.contains("edge")) {  // a passage this witness lacks: the others', quietly
        sec.querySelectorAll(":scope > .cols > .col:not(.col-empty)").forEach(function (c) {
          var s = c.getAttribute("data-wit"), o = mk("div", "other");
          o.setAttribute("lang", colLang(c));
          o.setAttribute("data-wit", s);
          o.appendChild(i18n(mk("span", "only"), "only-in", { w: s }));
          o.appendChild(document.createTextNode(" "));
          moveChildren(c, o);
          // as the base page shows them: plain text, its passages not permalinks (the reading text's are)
          o.querySelectorAll("mark.v-ins").forEach(function (m) { m.remove(); });
          o.querySelectorAll("mark[data-app]").forEach(function (m) { m.replaceWith.apply(m, m.childNodes); });
          o.querySelectorAll(".unit[id]").forEach(function (u) { u.setAttribute("data-unit", u.id); u.removeAttribute("id"); });
          nb.appendChild(o);
        });
      }
      var gaps = sec.querySelectorAll(".row-notes .gap");
      if (mine.length || gaps.length) {
        var ap = mk("div", "apparatus");
        ap.setAttribute("lang", bt.getAttribute("lang") || "");
        if (mine.length) {
          var ol = mk("ol");
          mine.forEach(function (e) {
            var a = entryOf(apps[e[0]]) || {}, n = READ_NUM[e[0]], li = mk("li", "fn t-" + a.type + " l-" + a.layer);
            li.id = "fn-" + e[0];
            li.value = n;
            li.setAttribute("data-app", e[0]);
            var back = mk("a", "fn-n", String(n));
            back.href = "#ref-" + e[0];
            back.setAttribute("data-i18n-title", "fn-back");
            back.title = t("fn-back");
            li.appendChild(back);
            li.appendChild(document.createTextNode(" "));
            li.appendChild(mk("span", "jkj", e[1]));
            li.appendChild(document.createTextNode(" "));
            var fs = mk("span", "fn-sig");
            fs.appendChild(sig(e[2][0][0], e[2][0][1]));
            fs.appendChild(document.createTextNode(" · "));
            e[2].slice(1).forEach(function (x, k) {
              if (k) fs.appendChild(document.createTextNode(" "));
              fs.appendChild(sig(x[0], x[1]));
            });
            li.appendChild(fs);
            ol.appendChild(li);
          });
          ap.appendChild(ol);
        }
        gaps.forEach(function (g) {
          var p = mk("p", g.className, g.textContent);
          if (g.hasAttribute("data-i18n")) p.setAttribute("data-i18n", g.getAttribute("data-i18n"));
          if (argsOf(g)) p.setAttribute("data-i18n-args", argsOf(g));
          ap.appendChild(p);
        });
        nb.appendChild(ap);
      }
      sec.replaceWith(nb);
    });
    // the page: a base-text view of this witness (its style, print, popover links), its introduction and sigla
    var emends = w === text.getAttribute("data-base") ? Number(text.getAttribute("data-emends") || 0) : 0;
    text.className = "basetext reading" + (EMENDED ? " emended" : "");
    text.removeAttribute("style");
    if (lang) text.setAttribute("lang", lang);
    body.classList.remove("view-parallel");
    body.classList.add(EMENDED ? "view-emended" : "view-base");
    var intro = mk("p", "sigla");
    if (emends) {  // the emended text's introduction, shown when the view is switched to it
      intro.appendChild(i18n(mk("span", "emended-only"), "emended-intro", { base: w, n: emends }));
      intro.appendChild(document.createTextNode(" "));
    }
    intro.appendChild(i18n(mk("span"), "base-intro", { base: w, n: entries.length }));
    intro.appendChild(document.createTextNode(" "));
    intro.appendChild(i18n(mk("span"), "sigla-list"));
    document.querySelectorAll(".colheads .colhead").forEach(function (h, k) {
      if (k) intro.appendChild(document.createTextNode("；"));
      intro.appendChild(mk("b", null, h.getAttribute("data-wit")));
      intro.appendChild(document.createTextNode(" "));
      var ti = h.querySelector("span[lang]");
      if (ti) intro.appendChild(ti.cloneNode(true));
    });
    var after = text.querySelector(":scope > nav.parts");
    text.insertBefore(intro, after ? after.nextSibling : text.firstChild);
    var isBase = !!document.querySelector('.colhead[data-wit="' + CSS.escape(w) + '"] .basetag');
    ["#bar .colheads", "#columns"].forEach(function (q) { var x = document.querySelector(q); if (x) x.remove(); });
    document.querySelectorAll(".views [aria-current]").forEach(function (a) { a.removeAttribute("aria-current"); });
    var rl = document.querySelector('.readers a[data-reader="' + CSS.escape(w) + '"]');
    if (rl) rl.setAttribute("aria-current", "page");
    var bl = document.querySelector(".views a[data-i18n='basetext']");  // the base drawn: its view is 底本与校记
    if (bl && isBase) bl.setAttribute("aria-current", "page");
    if (EMENDED) {  // … or the emended text, when switched to it
      document.querySelectorAll(".views [aria-current]").forEach(function (a) { a.removeAttribute("aria-current"); });
      var eml = document.querySelector(".views .emended-link");
      if (eml) eml.setAttribute("aria-current", "page");
    }
    if (isBase) {  // the previous and next 篇 in the same view: their base texts
      document.querySelectorAll(".pian-nav a[data-base-href]").forEach(function (a) { a.setAttribute("href", a.getAttribute("data-base-href")); });
    }
    document.title = document.title.replace(/ · .*? · /, " · " + w + " 校记 · ");
  }
  /* The bar's display options (layers, variant types and the stepper, reading, columns): they show only through
     this script (the tools button), so it draws them, from the page's data-tools (render/html.py bar_tools),
     before anything below looks for them; the page's interface language names them. */
  function buildTools() {
    var box = document.getElementById("bar-tools");
    var d = null;
    try { d = box && JSON.parse(box.getAttribute("data-tools") || "null"); } catch (e) { d = null; }
    if (!d) return;
    function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
    function tr(key, dflt) { return esc(DICT[key] ? t(key) : dflt); }
    var h = '<fieldset class="toggles layers"><legend data-i18n="layers">' + tr("layers", "层次") + "</legend>";
    d.l.forEach(function (x) {
      var l = esc(x[0]);
      h += '<label class="tg chip-' + l + '" title="' + tr("layer-name-" + x[0], x[1]) + '" data-i18n-title="layer-name-' + l +
        '"><input type="checkbox" data-layer="' + l + '" checked><span lang="zh-Hans" data-i18n="layer-' + l + '">' +
        tr("layer-" + x[0], x[1]) + "</span></label>";
    });
    h += "</fieldset>";
    if (d.v.length) {
      var opts = '<option value="" data-i18n="vt-all">' + tr("vt-all", "全部") + "</option>";
      h += '<fieldset class="toggles vtypes"><legend data-i18n="variants">' + tr("variants", "异文") + "</legend>";
      d.v.forEach(function (x) {
        var k = esc(x[0]), off = x[0] === "orthographic";
        h += '<label class="tg" title="' + esc(x[2]) + '"><input type="checkbox" data-vtype="' + k + '"' +
          (off ? " data-default-off" : " checked") + '><span class="swatch v ' + esc(x[3]) + '" data-i18n="vt-' + k + '">' +
          tr("vt-" + x[0], x[1]) + '</span><span class="n">' + esc(x[2]) + "</span></label>";
        opts += '<option value="' + k + '" data-cls="' + esc(x[3]) + '" data-i18n="vt-' + k + '">' + tr("vt-" + x[0], x[1]) + "</option>";
      });
      h += '</fieldset><div class="stepper" role="group" aria-label="' + tr("step", "逐条查看异文") + '" data-i18n-aria="step">' +
        '<label for="step-type" class="vh" data-i18n="step-type">' + tr("step-type", "异文类型") + '</label><select id="step-type">' + opts +
        '</select><button type="button" id="step-prev" title="' + tr("step-prev", "上一处 (k)") + '" data-i18n-title="step-prev">‹ k</button>' +
        '<button type="button" id="step-next" title="' + tr("step-next", "下一处 (j)") + '" data-i18n-title="step-next">j ›</button></div>';
    }
    h += '<fieldset class="toggles reading"><legend data-i18n="reading-opts">' + tr("reading-opts", "阅读") + "</legend>" +
      '<label class="tg" title="' + tr("show-para-tip", "") + '" data-i18n-title="show-para-tip"><input type="checkbox" id="show-para">' +
      '<span data-i18n="show-para">' + tr("show-para", "") + "</span></label></fieldset>";
    if (d.c.length) {
      h += '<fieldset class="toggles columns" id="columns"><legend data-i18n="columns">' + tr("columns", "列") + "</legend>";
      d.c.forEach(function (x) {
        var s = esc(x[0]);
        h += '<span class="tg colchip" data-wit="' + s + '"><label title="' + esc(x[1]) + '"><input type="checkbox" data-col="' + s +
          '" checked> <b>' + s + '</b></label><button type="button" class="mv" data-move="-1" aria-label="' + s + ' ←" title="' +
          tr("move-left", "左移") + '" data-i18n-title="move-left">‹</button><button type="button" class="mv" data-move="1" aria-label="' +
          s + ' →" title="' + tr("move-right", "右移") + '" data-i18n-title="move-right">›</button></span>';
      });
      h += "</fieldset>";
    }
    box.innerHTML = h;
  }
  buildTools();

  if (READER) readingView(READER);

  document.addEventListener("click", function (e) {
    var b = e.target.closest ? e.target.closest("[data-ui-lang]") : null;
    if (b) setLang(b.getAttribute("data-ui-lang"));
  });
  if (uiLang !== "hans") setLang(uiLang);
  // the same value written again would still restyle the whole page (every :lang() rule): only when it differs
  else if (document.documentElement.lang !== HTML_LANG.hans) document.documentElement.lang = HTML_LANG.hans;

  /* ---------------------------------------------------------------- the sticky bar's height */
  /* The bar's height, for what must clear it (scroll-padding, sticky short columns, the search results).  Read
     only from a ResizeObserver (after layout, never forcing one: reading offsetHeight while the page loads laid
     out a long 篇 a second time) and written to a tiny stylesheet whose selectors match a handful of elements: a
     custom property on the root would restyle every element of the page. */
  var barStyle = null, barH = -1, barObserved = !!bar && "ResizeObserver" in window;
  function setBarHeight(h) {
    if (!bar) return;
    if (typeof h !== "number") {  // a toggle changed the bar: the observer sees it, without a forced layout
      if (barObserved) return;
      h = bar.getBoundingClientRect().height;
    }
    h = Math.round(h);
    if (h === barH) return;
    barH = h;
    if (!barStyle) {
      barStyle = document.createElement("style");
      barStyle.id = "bar-h-style";
      document.head.appendChild(barStyle);
    }
    var v = "calc(" + h + "px + .5rem)";
    // only where the bar is sticky (edition.css: not on a phone, where it scrolls away with the page)
    barStyle.textContent = "@media (min-width: 701px) { html { scroll-padding-top: " + v + "; } .col-short { top: " + v +
      "; } .q-results { --bar-h: " + h + "px; } }";
  }

  /* ---------------------------------------------------------------- the display options under one button */
  var toolsBtn = document.getElementById("tools-btn");
  function setTools(open) {
    body.classList.toggle("tools-open", open);
    if (toolsBtn) toolsBtn.setAttribute("aria-expanded", String(open));
    if (store) store.setItem("jiaokan-tools-open", open ? "1" : "0");
    setBarHeight();
  }
  if (toolsBtn) {
    if (store && store.getItem("jiaokan-tools-open") === "1") setTools(true);
    toolsBtn.addEventListener("click", function () { setTools(!body.classList.contains("tools-open")); });
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
    var stored = !!(store && store.getItem(key));
    boxes.forEach(function (b) {
      // remembered: the stored list decides; else the page's default (orthographic marks start off)
      if (stored) b.checked = hidden.indexOf(b.getAttribute(attr)) < 0;
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
  jiaokan.showLayer = showLayer;
  bindToggles("data-vtype", "hide-v-", "jiaokan-hidden-vtypes");

  /* ---------------------------------------------------------------- paratext and modern punctuation
     The websites' furniture (编辑 links, licence notices, site headers, HTML comments) and the punctuation a
     program added to the 图书集成 are folded away unless the reader asks for them (remembered). */
  var showPara = document.getElementById("show-para");
  function applyPara() { body.classList.toggle("show-para", !!(showPara && showPara.checked)); }
  if (showPara) {
    showPara.checked = !!(store && store.getItem("jiaokan-show-para") === "1");
    showPara.addEventListener("change", function () {
      if (store) store.setItem("jiaokan-show-para", showPara.checked ? "1" : "0");
      applyPara();
      setBarHeight();
    });
  }
  applyPara();

  /* ---------------------------------------------------------------- witness columns: hide, reorder
     One generated stylesheet gives every column of a witness its place (CSS order) or hides it, so the
     thousands of columns of a long 篇 are never touched one by one.  Remembered across pages. */
  var colBox = document.getElementById("columns");
  var colStyle = null;
  var colState = { order: [], hidden: [] };
  function readCols() {
    try { colState = JSON.parse((store && store.getItem("jiaokan-columns")) || "{}"); } catch (e) { colState = {}; }
    colState.order = colState.order || [];
    colState.hidden = colState.hidden || [];
  }
  function pageSigla() {
    return Array.prototype.map.call(document.querySelectorAll("#columns [data-col]"), function (b) { return b.getAttribute("data-col"); });
  }
  function currentOrder() {
    var here = pageSigla();
    var known = colState.order.filter(function (s) { return here.indexOf(s) >= 0; });
    return known.concat(here.filter(function (s) { return known.indexOf(s) < 0; }));
  }
  function applyCols() {
    if (!colBox) return;
    var order = currentOrder();
    var hid = colState.hidden.filter(function (s) { return order.indexOf(s) >= 0; });
    if (hid.length >= order.length) hid = [];  // hidden on other pages, all of this one's: show them
    var visible = order.filter(function (s) { return hid.indexOf(s) < 0; });
    var css = order.map(function (s, i) {
      var q = '[data-wit="' + CSS.escape(s) + '"]';
      var rules = ".cols > " + q + ", .colheads-in > " + q + ", #columns > " + q + " { order: " + i + "; }";
      if (hid.indexOf(s) >= 0) rules += " .cols > " + q + ", .colheads-in > " + q + ', .row-notes [data-present="' + CSS.escape(s) + '"] { display: none !important; }';
      return rules;
    }).join("\n");
    if (!colStyle) {
      colStyle = document.createElement("style");
      colStyle.id = "col-style";
      document.head.appendChild(colStyle);
    }
    // the page's own order with nothing hidden needs no rule: a stylesheet whose selectors match every
    // column restyles the whole page (a second of a long 篇's load)
    var own = pageSigla();
    if (!hid.length && order.join("\u0000") === own.join("\u0000")) css = "";
    if (colStyle.textContent !== css) colStyle.textContent = css;
    body.classList.toggle("cols-one", visible.length <= 1);
    colBox.querySelectorAll("[data-col]").forEach(function (b) {
      b.checked = hid.indexOf(b.getAttribute("data-col")) < 0;
      // the last visible column cannot be hidden
      b.disabled = b.checked && visible.length <= 1;
    });
  }
  function saveCols() { if (store) store.setItem("jiaokan-columns", JSON.stringify(colState)); }
  if (colBox) {
    readCols();
    colBox.addEventListener("change", function (e) {
      var s = e.target.getAttribute("data-col");
      if (!s) return;
      colState.hidden = colState.hidden.filter(function (x) { return x !== s; });
      if (!e.target.checked) colState.hidden.push(s);
      saveCols();
      applyCols();
    });
    colBox.addEventListener("click", function (e) {
      var b = e.target.closest ? e.target.closest("[data-move]") : null;
      if (!b) return;
      var s = b.closest("[data-wit]").getAttribute("data-wit");
      var order = currentOrder();
      var i = order.indexOf(s), j = i + Number(b.getAttribute("data-move"));
      if (j < 0 || j >= order.length) return;
      order[i] = order[j];
      order[j] = s;
      colState.order = order.concat(colState.order.filter(function (x) { return order.indexOf(x) < 0; }));
      saveCols();
      applyCols();
    });
    applyCols();
  }
  function showColumn(s) {
    if (colBox && colState.hidden.indexOf(s) >= 0) {
      colState.hidden = colState.hidden.filter(function (x) { return x !== s; });
      saveCols();
      applyCols();
    }
  }

  /* ---------------------------------------------------------------- the apparatus popover */
  /* the entries of this page (id → its number) completed from the chapter's file (apps/NAME.js, one for its views) */
  var APPS = (function () {
    var here = readJSON("apps-data"), D = window.jiaokanData || {}, all = D.apps || {}, lz = D.lz || {}, out = {};
    Object.keys(here).forEach(function (id) {  // r: per reading [siglum, text, where, type, unit] (its place composed)
      var a = entryOf(all[id]);
      if (a) out[id] = Object.assign({ lz: lz[a.layer] || a.layer }, a, { n: READER ? READ_NUM[id] || null : here[id] },
        { r: a.r.map(function (r) { return [r[0], r[1], placeOf(r), r[4], r[5]]; }) });
    });
    return out;
  })();
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

  function typeLabel(x) {
    return { lem: t("panel-base"), agree: t("panel-agree") }[x] || (DICT["vt-" + x] ? t("vt-" + x) : x);
  }

  function openApp(id, from) {
    var a = APPS[id];
    if (!a || !panel) return;
    document.querySelectorAll("mark.v-active").forEach(function (m) { m.classList.remove("v-active"); });
    document.querySelectorAll('mark.v[data-app="' + id + '"]').forEach(function (m) { m.classList.add("v-active"); });
    panelHead.textContent = t("panel-variant") + (a.n ? " " + a.n : "") + " · " + a.lz + " · " + (DICT["vt-" + a.type] ? t("vt-" + a.type) : a.type) +
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
    [t("panel-witness"), t("panel-reading"), "", t("panel-where")].forEach(function (h) { hr.appendChild(el("th", null, h)); });
    thead.appendChild(hr);
    table.appendChild(thead);
    var tb = el("tbody");
    a.r.forEach(function (r) {
      var tr = el("tr");
      tr.setAttribute("data-siglum", r[0]);
      tr.appendChild(el("th", null, r[0]));
      // an empty reading is a sign, never a character: 无 alone read as the witness's text 无 (a reader's trial)
      var rd = el("td", r[1] ? "rd" : "rd none",
                  r[1] ? r[1] : (r[3] === "lem" ? "—" : r[3] === "lacuna" ? t("panel-lost") : t("panel-omitted")));
      rd.lang = ctx.lang;
      if (!r[1]) rd.title = r[3] === "lem" ? t("ins-base") : t("ins-wit");
      tr.appendChild(rd);
      tr.appendChild(el("td", "ty", typeLabel(r[3])));
      var where = r[2] ? [r[2]] : [];  /* 卷五 葉三a 行4: the line on the leaf, as every citation counts it */
      var wd = el("td", "where");
      if (r[4] && document.getElementById(r[4]) && body.classList.contains("view-parallel")) {
        var link = el("a", null, where.join(", ") || r[4]);
        link.href = "#" + r[4];
        link.title = r[4];
        wd.appendChild(link);
      } else {
        wd.textContent = where.join(", ") || "—";
        if (r[4]) wd.title = r[4];
      }
      tr.appendChild(wd);
      tb.appendChild(tr);
    });
    table.appendChild(tb);
    panelBody.appendChild(table);
    if (chapter && (body.classList.contains("view-parallel") ? a.n : true)) {
      var links = el("p", "links");
      var here = body.classList.contains("view-base") || body.classList.contains("view-emended");
      var go = el("a", null, here ? t("panel-to-parallel") : t("panel-to-base") + " " + (a.n || ""));
      /* this part's page, in the other view (the chapter's first page, or its old -base page, which leads there, lack
         the entries of the later parts: a reader's trial was left at the top of part 1) */
      var page = location.pathname.split("/").pop() || chapter + ".html";
      var base = text.getAttribute("data-base");
      go.href = here ? page + "#" + a.row : page + (base ? "?read=" + encodeURIComponent(base) : "") + "#fn-" + id;
      links.appendChild(go);
      panelBody.appendChild(links);
    }
    panel.hidden = false;
    panel.setAttribute("data-app", id);
    placePanel(from);
    lastFocus = from || null;
    panel.focus({ preventScroll: true });
  }

  /* a dialog docks next to what opened it: below it, or above when there is no room; a phone gets a sheet.
     Every dialog of the page uses this (the apparatus here; cite and 案 through jiaokan.placeNear). */
  function placeNear(box, from) {
    box.style.left = box.style.top = "";
    box.classList.remove("docked");
    if (!from || !from.getBoundingClientRect || window.innerWidth <= 700) return;
    var r = from.getBoundingClientRect();
    if (!r.width && !r.height) return;
    box.classList.add("docked");
    var w = box.offsetWidth, h = box.offsetHeight, gap = 8, vw = window.innerWidth, vh = window.innerHeight;
    var left = Math.max(gap, Math.min(r.left, vw - w - gap));
    var top = r.bottom + gap;
    if (top + h > vh - gap && r.top - gap - h >= gap) top = r.top - gap - h;
    else if (top + h > vh - gap) top = Math.max(gap, vh - h - gap);
    box.style.left = Math.round(left) + "px";
    box.style.top = Math.round(top) + "px";
  }
  jiaokan.placeNear = placeNear;

  function placePanel(from) { placeNear(panel, from); }

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

  /* ---------------------------------------------------------------- permalinks: jiaokan.goto(id)
     Every id of the page (a row #r65, a passage #JS10.72, a page #JS-p13a, a 案 note, an id inside a row
     that is not laid out yet: rows off screen are skipped by content-visibility) is reached the same way: show
     what hides it (a layer, a witness column, the folded paratext), close the apparatus, scroll, and scroll
     again once the rows above it have their real heights. */
  /* An id in another part of a long 篇 (render/parts.py): the view's map (parts/VIEW.js, loaded only now) names
     the part that holds it, and the reader is taken there.  A Promise of true (leaving) or false (no such id). */
  var partsMeta = document.querySelector('meta[name="jiaokan-parts"]');
  var partsMap = null;
  function elsewhere(id) {
    if (!partsMeta) return false;
    var src = partsMeta.getAttribute("content");
    return new Promise(function (done) {
      function look() {
        var m = window.jiaokanParts && window.jiaokanParts[src];
        var here = decodeURIComponent(location.pathname.split("/").pop());
        if (m) {
          for (var k = 0; k < m.ids.length; k++) {
            if (m.pages[k] !== here && (" " + m.ids[k] + " ").indexOf(" " + id + " ") >= 0) {
              // the query of this page's search travels along, so the hit is marked there (search.js)
              var qs = location.search, qb = document.getElementById("q"), qx = document.getElementById("q-exact");
              if (qb && qb.value) qs = "?q=" + encodeURIComponent(qb.value) + (qx && qx.checked ? "&exact=1" : "") + (MODE ? "&" + MODE : "");
              location.assign(m.pages[k] + qs + "#" + encodeURIComponent(id));
              return done(true);
            }
          }
        }
        done(false);
      }
      if (partsMap) return partsMap.then(look);
      partsMap = new Promise(function (loaded) {
        var sc = document.createElement("script");
        sc.src = src;
        sc.onload = sc.onerror = function () { loaded(); };
        document.head.appendChild(sc);
      });
      partsMap.then(look);
    });
  }
  jiaokan.elsewhere = elsewhere;

  function goto(id, opts) {
    if (!id) return false;
    var target = document.getElementById(id);
    if (!target && !APPS[id]) return elsewhere(id);
    var box = target;  // what is scrolled to: a passage of an aligned row (display: contents) by its first piece
    if (!target && APPS[id]) {  // an apparatus entry (#app123, what j/k writes): its first mark, entry open
      var mk = text && text.querySelector('mark.v[data-app="' + CSS.escape(id) + '"][tabindex="0"]');
      if (!mk) return false;
      mk.scrollIntoView({ block: "center" });
      stepAt = mk;
      openApp(id, mk);
      return true;
    }
    if (!target) return false;
    if (getComputedStyle(target).display === "contents") box = target.querySelector(".piece, h3") || target;
    closePanel(false);
    // what hides it: its ancestors, and, for a passage all of whose pieces are in hidden layers, its pieces
    var hiders = [];
    for (var e = target; e && e !== body; e = e.parentElement) hiders.push(e);
    if (!box.getClientRects().length || !box.offsetHeight) {
      Array.prototype.push.apply(hiders, target.querySelectorAll(".piece, .an, .mp"));
    }
    hiders.forEach(function (e) {
      (e.className && typeof e.className === "string" ? e.className.split(/\s+/) : []).forEach(function (c) {
        if (c.indexOf("l-") === 0 && body.classList.contains("hide-" + c.slice(2))) showLayer(c.slice(2));
        if ((c === "mp" || /^st-(site|comment|edit-link|licence|kaozheng-link)$/.test(c)) && showPara && !showPara.checked) {
          showPara.checked = true;
          showPara.dispatchEvent(new Event("change"));
        }
      });
      if (e.classList && e.classList.contains("col") && e.getAttribute("data-wit")) showColumn(e.getAttribute("data-wit"));
    });
    var block = (opts && opts.block) || "start";
    box.scrollIntoView({ block: block });
    var tries = 0;
    (function settle() {  // the rows above were laid out as the page scrolled: their heights changed
      requestAnimationFrame(function () {
        var top = box.getBoundingClientRect().top;
        var want = block === "center" ? (window.innerHeight - box.offsetHeight) / 2 : parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
        if (Math.abs(top - want) > 2 && tries++ < 6) { box.scrollIntoView({ block: block }); settle(); }
      });
    })();
    return true;
  }
  jiaokan.goto = goto;

  function hashId() {
    if (!location.hash) return null;
    try { return decodeURIComponent(location.hash.slice(1)); } catch (e) { return null; }
  }
  window.addEventListener("hashchange", function () { goto(hashId()); });

  /* ---------------------------------------------------------------- stepping through variants: j / k
     The next (j) or previous (k) apparatus entry of the chosen type after the one last visited, or after the
     top of the screen: its first mark (the one that takes the focus), skipping hidden layers and columns. */
  var stepType = document.getElementById("step-type");
  var stepAt = null;
  function stepMarks() {
    // the chosen type's class is its option's data-cls (render/html.py VARIANT_CLASS: v-om for omission …)
    var opt = stepType && stepType.value ? stepType.options[stepType.selectedIndex] : null;
    var cls = opt ? opt.getAttribute("data-cls") : "";
    var sel = "mark.v[tabindex='0']" + (cls ? "." + cls : "");
    // "all": the types shown (a reader's trial: with 异体 unticked, as it starts, j landed on 喪/丧 first)
    var off = stepType && !cls ? Array.prototype.filter.call(stepType.options, function (o) {
      return o.value && body.classList.contains("hide-v-" + o.value);
    }).map(function (o) { return o.getAttribute("data-cls"); }) : [];
    var seen = {};
    return Array.prototype.filter.call(text ? text.querySelectorAll(sel) : [], function (m) {
      if (off.length && off.some(function (c) { return m.classList.contains(c); })) return false;
      var a = m.getAttribute("data-app");
      if (seen[a]) return false;  // an entry marks every column: stop once, at the first visible mark
      var ok = m.checkVisibility ? m.checkVisibility() : m.offsetParent !== null;
      if (ok) seen[a] = true;
      return ok;
    });
  }
  /* past the last (first) entry of a part of a long 篇, j (k) goes on in the next (previous) part */
  function stepOn(dir) {
    var a = document.querySelector("#text > nav.parts ." + (dir > 0 ? "part-next" : "part-prev"));
    if (!a) return false;
    try { sessionStorage.setItem("jiaokan-step-on", String(dir)); } catch (e) { return false; }
    location.assign(a.getAttribute("href"));
    return true;
  }
  function step(dir, edge) {
    var ms = stepMarks();
    if (!ms.length) return stepOn(dir) ? "" : null;
    var i = stepAt ? ms.indexOf(stepAt) : -1;
    if (edge) i = dir > 0 ? -1 : ms.length;
    else if (i >= 0 && (i + dir < 0 || i + dir >= ms.length) && stepOn(dir)) return "";
    if (i < 0 && !edge) {  // from the row at the top of the screen: the first mark in it or after it (binary search)
      var barH = bar && getComputedStyle(bar).position === "sticky" ? bar.offsetHeight : 0;
      var at = document.elementFromPoint(window.innerWidth / 2, barH + 4);
      var row = at && at.closest ? at.closest("section.row, section.brow") : null;
      var lo = 0, hi = ms.length;
      if (row) {
        while (lo < hi) {
          var mid = (lo + hi) >> 1;
          var before = row.compareDocumentPosition(ms[mid]) & Node.DOCUMENT_POSITION_PRECEDING;
          if (before) lo = mid + 1; else hi = mid;
        }
      }
      i = dir > 0 ? lo - 1 : lo;
    }
    var j = Math.max(0, Math.min(ms.length - 1, i + dir));
    var m = ms[j];
    stepAt = m;
    closePanel(false);
    document.querySelectorAll("mark.v-step").forEach(function (x) { x.classList.remove("v-step"); });
    document.querySelectorAll('mark.v[data-app="' + m.getAttribute("data-app") + '"]').forEach(function (x) { x.classList.add("v-step"); });
    m.scrollIntoView({ block: "center" });
    m.focus({ preventScroll: true });
    // the entry opens beside its mark, and the address names it: a variant can be bookmarked and cited
    var aid = m.getAttribute("data-app");
    history.replaceState(null, "", "#" + aid);
    openApp(aid, m);
    m.focus({ preventScroll: true });  // j/k go on from here; Esc closes the entry
    return aid;
  }
  jiaokan.step = step;
  (function () {  // arrived from the part before (after) by j (k): its first (last) entry
    var on = null;
    try { on = sessionStorage.getItem("jiaokan-step-on"); sessionStorage.removeItem("jiaokan-step-on"); } catch (e) { on = null; }
    if (on) window.addEventListener("load", function () { step(Number(on), true); });
  })();
  if (stepType) {
    if (store && store.getItem("jiaokan-step-type") !== null) stepType.value = store.getItem("jiaokan-step-type");
    stepType.addEventListener("change", function () {
      stepAt = null;
      if (store) store.setItem("jiaokan-step-type", stepType.value);
    });
    document.getElementById("step-next").addEventListener("click", function () { step(1); });
    document.getElementById("step-prev").addEventListener("click", function () { step(-1); });
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || (e.key !== "j" && e.key !== "k")) return;
    var tg = e.target;
    if (tg && (tg.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(tg.tagName))) return;
    if (!stepType) return;
    e.preventDefault();
    step(e.key === "j" ? 1 : -1);
  });

  /* ---------------------------------------------------------------- overview: where am I */
  var strip = document.querySelector(".overview");
  /* the cells, one per row, from the chapter's data (apps/NAME.js: the same in every view and part); each links to
     its row, in the part of this view that holds it (the strip's data-parts: page,first,last|…) */
  function drawStrip() {
    var ov = (window.jiaokanData || {}).overview;
    if (!strip || !ov || strip.firstChild) return;
    var parts = (strip.getAttribute("data-parts") || "").split("|").filter(Boolean).map(function (p) {
      var x = p.split(","); return { page: x[0], first: Number(x[1]), last: Number(x[2]) };
    });
    var frag = document.createDocumentFragment(), k = 0;
    ov.c.forEach(function (c, i) {
      var n = i + 1;
      while (k < parts.length - 1 && n > parts[k].last) k++;
      var a = document.createElement("a");
      a.setAttribute("href", (parts.length && parts[k].page ? partHref(parts[k].page) : "") + "#" + (ov.ids ? ov.ids[i] : "r" + n));
      a.className = "ov" + (c[3] & 1 ? " ov-strong" : "") + (c[3] & 2 ? " ov-solo" : "");
      a.style.cssText = "flex-grow:" + c[0] + ";--d:" + (c[1] / 100).toFixed(2);
      a.setAttribute("data-v", c[2]);
      a.tabIndex = i ? -1 : 0;
      frag.appendChild(a);
    });
    strip.appendChild(frag);
  }
  drawStrip();
  var cells = document.querySelectorAll(".overview .ov");
  /* one tab stop for the whole strip; arrow keys walk its cells, Enter follows one */
  /* a cell is named when the pointer or the focus reaches it (§n: v variants), in the interface language */
  function nameCell(e) {
    var c = e.target;
    if (!c.classList || !c.classList.contains("ov")) return;
    var i = Array.prototype.indexOf.call(cells, c);
    var key = c.classList.contains("ov-solo") ? "ov-cell-solo" : "ov-cell";
    var s = fill(t(key), JSON.stringify({ n: i + 1, v: Number(c.getAttribute("data-v")) || 0 }));
    if (c.title !== s) c.title = s;
    if (c.getAttribute("aria-label") !== s) c.setAttribute("aria-label", s);
  }
  if (strip) {
    strip.addEventListener("mouseover", nameCell);
    strip.addEventListener("focusin", nameCell);
  }
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
    cells.forEach(function (c) { cellOf[c.getAttribute("href").split("#")[1]] = c; });  // PART.html#r12 or #r12
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

  if (barObserved) {  // the first layout, fonts, wrapping, toggles: the bar's own box
    new ResizeObserver(function (es) {
      var b = es[es.length - 1], box = b.borderBoxSize && b.borderBoxSize[0];
      setBarHeight(box ? box.blockSize : bar.getBoundingClientRect().height);
    }).observe(bar);
  } else if (bar) {
    window.addEventListener("load", function () { setBarHeight(); });
  }
  if (location.hash) goto(hashId());
})();
