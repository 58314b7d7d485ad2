"use strict";
// treeval sentence browser (docs/html-page.md, data block version 1). Reads #treeval-data and
// fills #browser-app. Every string from the data goes into the DOM through textContent,
// append(string) or setAttribute, never as markup.
(() => {
  const app = document.getElementById("browser-app");
  const block = document.getElementById("treeval-data");
  if (!app || !block) return;
  const NS = "http://www.w3.org/2000/svg";
  const set = (e, a) => { if (a) for (const k in a) if (a[k] != null) e.setAttribute(k, a[k]); return e; };
  const add = (e, a, p, t) => { set(e, a); if (t != null) e.textContent = t; if (p) p.appendChild(e); return e; };
  const h = (tag, a, p, t) => add(document.createElement(tag), a, p, t);
  const s = (tag, a, p, t) => add(document.createElementNS(NS, tag), a, p, t);
  let D = null;
  try { D = JSON.parse(block.textContent); } catch (e) { /* reported below */ }
  if (!D || D.version !== 1 || !Array.isArray(D.sentences)) {
    h("p", { class: "warn" }, app, "The sentence data cannot be read (this script reads version 1).");
    return;
  }
  const kind = D.kind, systems = D.systems || [], columns = D.columns || [], labels = D.labels || [];
  const S = D.sentences, PAGE = 100, R = (n) => Array.from({ length: n }, (_, i) => i);
  const lab = (k) => (labels[k] != null ? String(labels[k]) : String(k));
  const fmt = (v) => (v == null ? "–" : Number(v).toFixed(1));
  const side = (v) => (Array.isArray(v) ? v.map(String) : R(+v || 0).map(String));
  const key2 = (l) => l[0] * 1048576 + l[1];

  // Per sentence: error?, labels for the relation filter, length, text searched by the id filter.
  const info = S.map((x) => {
    let err = false, len = 0;
    const rel = new Set();
    if (kind === "align") {
      const sure = new Set((x.sure || []).map(key2)), ok = new Set((x.possible || []).map(key2));
      sure.forEach((k) => ok.add(k));
      for (const hyp of x.sys || []) {
        const hs = new Set(hyp.map(key2));
        if (hyp.some((l) => !ok.has(key2(l))) || [...sure].some((k) => !hs.has(k))) err = true;
      }
      len = side(x.src).length;
    } else if (kind === "brackets") {
      for (const list of [x.gold || [], ...(x.sys || [])])
        for (const b of list) if (!b[3]) { err = true; rel.add(b[0]); }
      len = (x.words || []).length;
    } else {
      for (const a of x.sys || [])
        a.forEach((w, j) => { if (w[2] & 3 && !(w[2] & 4)) { err = true; if ((x.gold || [])[j]) rel.add(x.gold[j][1]); } });
      len = (x.words || []).length;
    }
    return { err, rel, len, q: ((x.id == null ? "" : x.id) + "\u0001" + x.i).toLowerCase() };
  });

  // Controls.
  const ctl = h("div", { class: "controls" }, app);
  const lo = h("label", null, ctl);
  const only = h("input", { type: "checkbox", id: "only-errors" }, lo);
  lo.append(" only sentences with errors");
  const lr = h("label", null, ctl, kind === "deps" ? "relation " : kind === "brackets" ? "label " : "");
  const rel = h("select", { id: "relation-filter" }, lr);
  h("option", { value: "" }, rel, kind === "deps" ? "all relations" : kind === "brackets" ? "all labels" : "all");
  if (kind === "align") rel.disabled = true;
  else {
    const count = new Map();
    info.forEach((f) => f.rel.forEach((l) => count.set(l, (count.get(l) || 0) + 1)));
    [...count.keys()].sort((a, b) => lab(a).localeCompare(lab(b)))
      .forEach((l) => h("option", { value: String(l) }, rel, `${lab(l)} (${count.get(l)})`));
  }
  const li = h("label", null, ctl, "id or number ");
  const idf = h("input", { type: "search", id: "id-filter", size: 14, placeholder: "filter" }, li);
  const nav = h("span", { class: "pager" }, ctl);
  const prev = h("button", { type: "button", id: "page-prev" }, nav, "‹ previous");
  const info1 = h("span", { id: "page-info" }, nav);
  const next = h("button", { type: "button", id: "page-next" }, nav, "next ›");

  // The table.
  const cmp = new Intl.Collator(undefined, { numeric: true }).compare;
  const cols = [
    { t: "#", get: (k) => S[k].i, show: (k) => String(S[k].i), n: 1 },
    { t: "id", get: (k) => S[k].id, show: (k) => (S[k].id == null ? "" : String(S[k].id)), str: 1 },
    { t: "words", get: (k) => info[k].len, n: 1,
      show: (k) => (kind === "align" ? `${info[k].len}×${side(S[k].tgt).length}` : String(info[k].len)) },
  ];
  systems.forEach((sy, a) => columns.forEach((c, b) => cols.push({
    t: `${c} ${sy}`, m: c, sy, n: 1, get: (k) => ((S[k].scores || [])[a] || [])[b], show: (k) => fmt(((S[k].scores || [])[a] || [])[b]),
  })));
  const wrap = h("div", { class: "table-wrap", tabindex: "0" }, app);
  const table = h("table", { class: "sentences" }, wrap);
  const hr = h("tr", null, h("thead", null, table));
  // a system's column: the measure, then the system's name below it (elided when long; the
  // full name in the title), so that long names do not widen the table
  const ths = cols.map((c, j) => {
    const th = h("th", { "data-col": j, title: "sort by " + c.t, class: c.n ? "n" : null }, hr, c.sy == null ? c.t : c.m + " ");
    if (c.sy != null) h("span", { class: "sys", title: c.sy }, th, c.sy);
    return th;
  });
  const tbody = h("tbody", null, table);
  const det = h("div", { id: "browser-detail" }, app);

  const st = { sort: -1, dir: 1, page: 0, sel: -1 };
  let view = R(S.length);

  function refilter() {
    const q = idf.value.trim().toLowerCase(), r = rel.value === "" ? null : +rel.value, e = only.checked;
    view = R(S.length).filter((k) => (!e || info[k].err) && (r == null || info[k].rel.has(r)) && (!q || info[k].q.includes(q)));
    if (st.sort >= 0) {
      const c = cols[st.sort], d = st.dir;
      view.sort((a, b) => {
        const x = c.get(a), y = c.get(b);
        if (x == null || y == null) return x == null && y == null ? a - b : x == null ? 1 : -1;
        return (c.str ? cmp(String(x), String(y)) : x - y) * d || a - b;
      });
    }
    ths.forEach((th, j) => (j === st.sort ? th.setAttribute("aria-sort", st.dir > 0 ? "ascending" : "descending") : th.removeAttribute("aria-sort")));
  }

  function rows() {
    const n = view.length, pages = Math.max(1, Math.ceil(n / PAGE));
    st.page = Math.min(Math.max(st.page, 0), pages - 1);
    const a = st.page * PAGE, b = Math.min(n, a + PAGE);
    const frag = document.createDocumentFragment();
    for (let p = a; p < b; p++) {
      const k = view[p], tr = h("tr", { "data-index": k }, frag);
      if (info[k].err) tr.classList.add("error");
      if (k === st.sel) tr.classList.add("selected");
      for (const c of cols) h("td", c.n ? { class: "n" } : null, tr, c.show(k));
    }
    tbody.textContent = "";
    tbody.appendChild(frag);
    info1.textContent = n ? `sentences ${a + 1}–${b} of ${n}` + (n < S.length ? ` (filtered from ${S.length})` : "") : "no sentence matches";
    prev.disabled = st.page === 0;
    next.disabled = st.page >= pages - 1;
  }

  function mark() {
    for (const tr of tbody.children) tr.classList.toggle("selected", +tr.dataset.index === st.sel);
    const tr = tbody.querySelector("tr.selected");
    if (tr) {
      const r = tr.getBoundingClientRect(), w = wrap.getBoundingClientRect(), top = w.top + table.tHead.offsetHeight;
      if (r.top < top) wrap.scrollTop -= top - r.top;
      else if (r.bottom > w.bottom) wrap.scrollTop += r.bottom - w.bottom;
    }
  }

  function select(k, fromHash) {
    if (!(k >= 0 && k < S.length)) return;
    st.sel = k;
    const p = view.indexOf(k);
    if (p >= 0 && Math.floor(p / PAGE) !== st.page) { st.page = Math.floor(p / PAGE); rows(); }
    mark();
    detail(k);
    if (!fromHash && location.hash !== "#s=" + k) location.hash = "s=" + k;
  }
  const fromHash = () => { const m = /^#s=(\d+)$/.exec(location.hash); return m ? +m[1] : -1; };

  only.addEventListener("change", () => { refilter(); st.page = 0; rows(); });
  rel.addEventListener("change", () => { refilter(); st.page = 0; rows(); });
  idf.addEventListener("input", () => { refilter(); st.page = 0; rows(); });
  prev.addEventListener("click", () => { st.page--; rows(); wrap.scrollTop = 0; });
  next.addEventListener("click", () => { st.page++; rows(); wrap.scrollTop = 0; });
  hr.addEventListener("click", (ev) => {
    const th = ev.target.closest("th");
    if (!th) return;
    const j = +th.dataset.col;
    st.dir = st.sort === j ? -st.dir : 1;
    st.sort = j;
    refilter(); st.page = 0; rows();
  });
  tbody.addEventListener("click", (ev) => { const tr = ev.target.closest("tr[data-index]"); if (tr) select(+tr.dataset.index); });
  wrap.addEventListener("keydown", (ev) => {
    const d = ev.key === "ArrowDown" ? 1 : ev.key === "ArrowUp" ? -1 : 0;
    if (!d || !view.length) return;
    ev.preventDefault();
    const p = view.indexOf(st.sel);
    select(view[Math.min(view.length - 1, Math.max(0, p < 0 ? 0 : p + d))]);
  });
  window.addEventListener("hashchange", () => { const k = fromHash(); if (k !== st.sel) select(k, true); });

  // Text widths, measured once per string in a hidden svg (estimated when nothing is laid out).
  let meas = null;
  const widths = new Map();
  function tw(str, cls) {
    const key = cls + "\u0001" + str;
    let w = widths.get(key);
    if (w === undefined) {
      if (!meas) meas = s("text", null, s("svg", { class: "measure", width: 0, height: 0, "aria-hidden": "true" }, app));
      meas.setAttribute("class", cls);
      meas.textContent = str;
      w = meas.getComputedTextLength() || str.length * (cls === "word" ? 8 : 6.5);
      widths.set(key, w);
    }
    return w;
  }
  // x of each word's centre: room for the word (and what sits above it), and for the labels of
  // arcs between neighbours; returns [centres, width].
  function columnsX(ww, gaps, pad) {
    const X = [];
    let x = pad + (ww.length ? ww[0] / 2 : 0);
    ww.forEach((w, j) => { X.push(x); if (j + 1 < ww.length) x += Math.max((w + ww[j + 1]) / 2 + 14, gaps[j] || 0); });
    return [X, (ww.length ? x + ww[ww.length - 1] / 2 : 0) + pad];
  }
  let uid = 0;
  function markers(svg, names) {
    const defs = s("defs", null, svg), id = {};
    for (const m of names) {
      id[m] = "tv-m" + uid++;
      const mk = s("marker", { id: id[m], class: "m " + m, viewBox: "0 0 10 10", refX: 9, refY: 5,
        markerWidth: 7, markerHeight: 7, markerUnits: "userSpaceOnUse", orient: "auto" }, defs);
      s("path", { d: "M0 0L10 5L0 10z" }, mk);
    }
    return id;
  }
  function legend(p, items) {
    const lg = h("div", { class: "legend" }, p);
    for (const [c, t] of items) { const it = h("span", null, lg); h("span", { class: "sw " + c }, it); it.append(t); }
  }
  function view1(p, svg, name, scores) {
    const v = h("div", { class: "view" }, p);
    h("div", { class: "scroll" }, v).appendChild(svg);
    const cap = h("div", { class: "caption" }, v);
    h("strong", null, cap, name);
    if (scores) cap.append("  " + columns.map((c, j) => `${c} ${fmt(scores[j])}`).join(" · "));
    return v;
  }
  const svgEl = (cls, w, hgt) => s("svg", { class: cls, width: Math.ceil(w), height: Math.ceil(hgt), viewBox: `0 0 ${Math.ceil(w)} ${Math.ceil(hgt)}` });

  function detail(k) {
    const x = S[k], f = info[k];
    det.textContent = "";
    const head = h("p", { class: "detail-head" }, det);
    h("strong", null, head, `Sentence ${x.i}`);
    if (x.id != null) { head.append(" · id "); h("code", null, head, String(x.id)); }
    head.append(` · ${cols[2].show(k)} words` + (f.err ? " · has errors" : " · no error"));
    if (x.words) h("p", { class: "text" }, det, x.words.join(" "));
    const box = h("div", { class: "views" }, det);
    if (kind === "brackets") brackets(x, box);
    else if (kind === "align") align(x, box);
    else deps(x, box);
  }

  // Dependencies: gold arcs above the words, the system's below.
  const LV = 16, LV0 = 10;
  function levels(arcs) {
    const o = arcs.slice().sort((a, b) => a.hi - a.lo - (b.hi - b.lo));
    let top = 0;
    o.forEach((a, i) => {
      let m = 0;
      for (let j = 0; j < i; j++) { const b = o[j]; if (b.lo >= a.lo && b.hi <= a.hi && b.hi - b.lo < a.hi - a.lo && b.lv > m) m = b.lv; }
      a.lv = m + 1;
      if (a.lv > top) top = a.lv;
    });
    return top;
  }
  function deps(x, box) {
    const W = x.words.map(String), n = W.length, gold = x.gold || [], sys = x.sys || [];
    const ww = W.map((w) => tw(w, "word")), gaps = [];
    const adj = (hd, d, l) => { if (hd > 0 && Math.abs(hd - d) === 1) { const j = Math.min(hd, d) - 1; gaps[j] = Math.max(gaps[j] || 0, tw(lab(l), "label") + 10); } };
    gold.forEach((g, j) => adj(g[0], j + 1, g[1]));
    sys.forEach((a) => a.forEach((w, j) => adj(w[0], j + 1, w[1])));
    // the root's label sits above its word: leave room at the edges
    const edge = Math.max(...[...gold, ...sys.flat()].filter((g) => g[0] === 0).map((g) => tw(lab(g[1]), "label") / 2 - 6), 4);
    const [X, width] = columnsX(ww, gaps, edge + 6);
    const arcs = (a) => a.map((w, j) => ({ d: j, h: w[0] - 1, l: w[1], f: w[2] || 0, lo: Math.min(j, w[0] - 1), hi: Math.max(j, w[0] - 1) }));
    const ga = arcs(gold), gTop = LV0 + LV * levels(ga.filter((a) => a.h >= 0)) + 14;
    const said = (a) => `${lab(a.l)}: ` + (a.h < 0 ? "root" : W[a.h]) + ` → ${W[a.d]}`;
    systems.forEach((name, si) => {
      const sa = arcs(sys[si] || []), sTop = LV0 + LV * levels(sa.filter((a) => a.h >= 0)) + 14;
      const yG = gTop + 16, yW = yG + 15, yS = yW + 6, H = yS + sTop + 16;
      const svg = svgEl("deps", width, H), mk = markers(svg, ["gold", "correct", "wrong-label", "wrong-head"]);
      const g1 = s("g", { class: "arcs" }, svg), g2 = s("g", { class: "labels" }, svg);
      const draw = (a, y0, dir, top, cls, st) => {
        if (a.h < -1 || a.h >= n) return;
        const dx = X[a.d];
        let d, lx = dx, ly;
        if (a.h < 0) { d = `M${dx} ${y0 + dir * top}V${y0}`; ly = y0 + dir * top; }
        else {
          const hx = X[a.h] + (a.h < a.d ? 3 : -3), P = LV0 + LV * a.lv, c = y0 + (dir * P) / 0.75;
          d = `M${hx} ${y0}C${hx} ${c} ${dx} ${c} ${dx} ${y0}`;
          lx = (hx + dx) / 2; ly = y0 + dir * P;
        }
        const p = s("path", { class: "arc " + cls, d, "marker-end": `url(#${mk[st]})` }, g1);
        s("title", null, p, said(a) + (cls.startsWith("sys") && a.f & 3 && gold[a.d] ? ` (gold ${said(ga[a.d])})` : ""));
        s("text", { class: "label " + st + (cls.includes("unscored") ? " unscored" : ""), x: lx, y: dir < 0 ? ly - 3 : ly + 11, "text-anchor": "middle" }, g2, lab(a.l));
      };
      ga.forEach((a) => draw(a, yG, -1, gTop, "gold" + (a.h < 0 ? " root" : ""), "gold"));
      sa.forEach((a) => {
        if (a.h === -2) return; // head -1: no arc, the word is marked
        const st = a.f & 1 ? "wrong-head" : a.f & 2 ? "wrong-label" : "correct";
        draw(a, yS, 1, sTop, "sys " + st + (a.f & 4 ? " unscored" : "") + (a.h < 0 ? " root" : ""), st);
      });
      W.forEach((w, j) => {
        const a = sa[j], fl = a ? a.f : 0;
        const t = s("text", { class: "word" + (fl & 4 ? " unscored" : "") + (fl & 8 ? " unaligned" : "") + (a && a.h === -2 ? " no-head" : ""),
          x: X[j], y: yW, "text-anchor": "middle" }, svg, w);
        const why = [fl & 4 ? "not scored" : "", fl & 8 ? "not aligned" : "", a && a.h === -2 ? "no head" : ""].filter(Boolean);
        if (why.length) {
          s("title", null, t, why.join(", "));
          if (a && a.h === -2) s("text", { class: "mark", x: X[j], y: yS + 12, "text-anchor": "middle" }, svg, fl & 8 ? "∅" : "?");
        }
      });
      const v = view1(box, svg, name, (x.scores || [])[si]);
      legend(v, [["gold", "gold (above)"], ["correct", "correct"], ["wrong-label", "wrong label"], ["wrong-head", "wrong head"],
        ["unscored", "not scored"], ...(kind === "deps" && sa.some((a) => a.f & 8 || a.h === -2) ? [["unaligned", "∅ not aligned, ? no head"]] : [])]);
    });
  }

  // Constituency trees: brackets nested by containment (same span: list order), tags, words.
  function brackets(x, box) {
    const W = (x.words || []).map(String), n = W.length, tags = x.tags || [];
    const trees = [["tree gold", "gold", null, x.gold || []], ...systems.map((nm, i) => ["tree sys", nm, (x.scores || [])[i], (x.sys || [])[i] || []])];
    const ww = W.map((w, j) => Math.max(tw(w, "word"), tw(lab(tags[j]), "tag") + 4, 24));
    for (const t of trees) for (const b of t[3]) if (b[2] - b[1] === 1 && b[1] < n) ww[b[1]] = Math.max(ww[b[1]], tw(lab(b[0]), "node") + 8);
    const [X, width] = columnsX(ww, [], 8), RH = 32;
    trees.forEach(([cls, name, scores, list], ti) => {
      const nodes = list.map((b, i) => ({ l: b[0], a: +b[1], e: +b[2], m: b[3], i, kids: [], leaves: [] }));
      const o = nodes.slice().sort((p, q) => p.a - q.a || q.e - p.e || p.i - q.i), roots = [], stack = [];
      for (const nd of o) {
        while (stack.length && !(stack[stack.length - 1].a <= nd.a && nd.e <= stack[stack.length - 1].e)) stack.pop();
        (stack.length ? stack[stack.length - 1].kids : roots).push(nd);
        stack.push(nd);
      }
      let depth = 0;
      const place = (nd, dp) => {
        nd.dp = dp; depth = Math.max(depth, dp);
        let pos = nd.a;
        const xs = [];
        const leaf = (to) => { for (; pos < Math.min(to, n); pos++) { nd.leaves.push(pos); xs.push(X[pos]); } };
        for (const c of nd.kids) { leaf(c.a); place(c, dp + 1); xs.push(c.x); pos = Math.max(pos, c.e); }
        leaf(nd.e);
        nd.x = xs.length ? (Math.min(...xs) + Math.max(...xs)) / 2 : X[Math.min(nd.a, n - 1)] || 0;
      };
      roots.forEach((r) => place(r, 0));
      const Y = (dp) => 20 + dp * RH, yT = Y(nodes.length ? depth + 1 : 0), yW = yT + 30;
      const svg = svgEl(cls, width, yW + 10);
      const ge = s("g", { class: "edges" }, svg);
      const line = (x1, y1, x2, y2) => s("line", { x1, y1, x2, y2 }, ge);
      for (const nd of nodes) {
        const y = Y(nd.dp);
        for (const c of nd.kids) line(nd.x, y + 5, c.x, Y(c.dp) - 14);
        for (const j of nd.leaves) line(nd.x, y + 5, X[j], yT - 13);
        const g = s("g", { class: "bracket" + (nd.m ? "" : " unmatched") }, svg), w = tw(lab(nd.l), "node");
        s("rect", { x: nd.x - w / 2 - 4, y: y - 14, width: w + 8, height: 19, rx: 3 }, g);
        s("text", { class: "node", x: nd.x, y, "text-anchor": "middle" }, g, lab(nd.l));
        s("title", null, g, `${lab(nd.l)} words ${nd.a + 1}–${nd.e}: ` + W.slice(nd.a, nd.e).join(" ") +
          (nd.m ? "" : ti ? " (not in gold)" : " (missed by a system)"));
      }
      W.forEach((w, j) => {
        line(X[j], yT + 4, X[j], yW - 14);
        s("text", { class: "tag", x: X[j], y: yT, "text-anchor": "middle" }, s("g", { class: "tag" }, svg), lab(tags[j]));
        s("text", { class: "word", x: X[j], y: yW, "text-anchor": "middle" }, svg, w);
      });
      const v = view1(box, svg, name, scores);
      legend(v, [["matched", "matched"], ["unmatched", ti ? "not in gold" : "missed by a system"]]);
    });
  }

  // Alignments: one grid per system, rows = source words, columns = target words.
  function align(x, box) {
    const sw = side(x.src), tg = side(x.tgt), C = 20;
    const L = Math.max(0, ...sw.map((w) => tw(w, "glabel"))) + 12, Tw = Math.max(0, ...tg.map((w) => tw(w, "glabel")));
    const rot = Tw > C - 2, T = rot ? Tw * 0.87 + 14 : 20, width = L + tg.length * C + (rot ? Tw * 0.5 : 0) + 10, height = T + sw.length * C + 8;
    const sure = new Set((x.sure || []).map(key2));
    systems.forEach((name, si) => {
      const hyp = ((x.sys || [])[si] || []), hs = new Set(hyp.map(key2));
      const svg = svgEl("grid", width, height), gg = s("g", { class: "lines" }, svg);
      const cell = (l) => [L + l[1] * C, T + l[0] * C];
      for (let r = 0; r <= sw.length; r++) s("line", { x1: L, y1: T + r * C, x2: L + tg.length * C, y2: T + r * C }, gg);
      for (let c = 0; c <= tg.length; c++) s("line", { x1: L + c * C, y1: T, x2: L + c * C, y2: T + sw.length * C }, gg);
      sw.forEach((w, r) => s("text", { class: "glabel", x: L - 6, y: T + r * C + C / 2 + 4, "text-anchor": "end" }, svg, w));
      tg.forEach((w, c) => {
        const cx = L + c * C + C / 2 + (rot ? 4 : 0), cy = T - 5;
        s("text", rot ? { class: "glabel", x: cx, y: cy, transform: `rotate(-60 ${cx} ${cy})` } : { class: "glabel", x: cx, y: cy, "text-anchor": "middle" }, svg, w);
      });
      const tip = (e, l, what) => s("title", null, e, `${sw[l[0]]} ↔ ${tg[l[1]]}: ${what}`);
      for (const l of x.possible || []) { const [cx, cy] = cell(l); tip(s("rect", { class: "possible", x: cx + 2, y: cy + 2, width: C - 4, height: C - 4 }, svg), l, "possible"); }
      for (const l of x.sure || []) {
        const [cx, cy] = cell(l), miss = !hs.has(key2(l));
        tip(s("rect", { class: "sure" + (miss ? " missed" : ""), x: cx + 2, y: cy + 2, width: C - 4, height: C - 4 }, svg), l, miss ? "sure, missed" : "sure");
      }
      const ok = new Set((x.possible || []).map(key2));
      sure.forEach((k) => ok.add(k));
      for (const l of hyp) {
        const [cx, cy] = cell(l), good = ok.has(key2(l));
        tip(s("circle", { class: "hyp " + (good ? "correct" : "wrong"), cx: cx + C / 2, cy: cy + C / 2, r: 5 }, svg), l, good ? "system, correct" : "system, wrong");
      }
      const v = view1(box, svg, name, (x.scores || [])[si]);
      legend(v, [["sure", "sure"], ["possible", "possible"], ["hyp-correct", "system, correct"], ["hyp-wrong", "system, wrong"], ["missed", "sure, missed"]]);
      v.lastChild.append("rows: source, columns: target");
    });
  }

  // Start: #s=K, else the first sentence with an error, else the first.
  refilter();
  const k0 = fromHash();
  const first = k0 >= 0 && k0 < S.length ? k0 : Math.max(0, info.findIndex((f) => f.err));
  rows();
  if (S.length) select(first, true);
  else h("p", null, det, "No sentence.");
})();
