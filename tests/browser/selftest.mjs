#!/usr/bin/env node
// Tests check.mjs itself, before treeval's own browser exists: a page that keeps the contract
// of docs/html-page.md (a tiny deps browser written here, two systems, 150 sentences, a chart)
// must pass; pages that break it one way each must fail with the expected message.
// Usage: node selftest.mjs [WORKDIR]   (default: a temporary folder)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const work = process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'treeval-browser-selftest-'));
fs.mkdirSync(work, { recursive: true });

// 150 sentences of 4 words; every third has a wrong head in system 1.
const labels = ['root', 'nsubj', 'obj', 'det'];
const sentences = [];
for (let i = 1; i <= 150; i++) {
  const gold = [[2, 1], [0, 0], [4, 3], [2, 2]];
  const sys = [0, 1].map((k) => gold.map(([h, l], w) => (k === 0 && i % 3 === 0 && w === 2 ? [1, l, 1] : [h, l, 0])));
  sentences.push({ i, id: `s-${i}`, scores: [[i % 3 ? 100 : 75], [100]], words: ['The', 'cat', 'a', 'mouse'], gold, sys });
}
const data = { version: 1, kind: 'deps', systems: ['a.conllu', 'b.conllu'], columns: ['LAS'], labels, total: 150, sampled: false, note: '', sentences };

// The browser of the contract, minimal: controls, table (100 per page), sorting, filters,
// selection (first error, or #s=K), and the detail (one svg.deps per system).
const app = String.raw`
(() => {
  const D = JSON.parse(document.getElementById('treeval-data').textContent);
  const app = document.getElementById('browser-app');
  const el = (tag, attrs = {}, text) => { const e = document.createElement(tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text != null) e.textContent = text; return e; };
  const svgEl = (tag, attrs = {}, text) => { const e = document.createElementNS('http://www.w3.org/2000/svg', tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text != null) e.textContent = text; return e; };
  const isErr = (s) => s.sys.some((sys) => sys.some(([, , f]) => (f & 3) && !(f & 4)));
  const only = el('input', { type: 'checkbox', id: 'only-errors' });
  const rel = el('select', { id: 'relation-filter' }); rel.append(el('option', { value: '' }, 'all'));
  const idf = el('input', { id: 'id-filter' });
  const prev = el('button', { id: 'page-prev' }, '<'), next = el('button', { id: 'page-next' }, '>'), info = el('span', { id: 'page-info' });
  const table = el('table', { class: 'sentences' }), thead = el('thead'), tbody = el('tbody'), detail = el('div', { id: 'browser-detail' });
  const hr = el('tr'); ['#', 'id', 'LAS'].forEach((h, k) => { const th = el('th', {}, h); th.onclick = () => { sortKey = k; sortDir = -sortDir; draw(); }; hr.append(th); });
  thead.append(hr); table.append(thead, tbody);
  app.append(only, rel, idf, prev, next, info, table, detail);
  let page = 0, sortKey = 0, sortDir = -1;
  let chosen = D.sentences.findIndex(isErr); if (chosen < 0) chosen = 0;
  const m = /^#s=(\d+)$/.exec(location.hash); if (m && +m[1] < D.sentences.length) chosen = +m[1];
  const key = (k) => [(s) => s.i, (s) => s.id, (s) => s.scores[0][0]][sortKey](D.sentences[k]);
  function rows() {
    let ks = D.sentences.map((_, k) => k).filter((k) => (!only.checked || isErr(D.sentences[k])) && (!idf.value || String(D.sentences[k].id).includes(idf.value) || String(D.sentences[k].i).includes(idf.value)));
    return ks.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a - b) * -sortDir);
  }
  function draw() {
    const ks = rows(); const pages = Math.max(1, Math.ceil(ks.length / 100)); page = Math.min(page, pages - 1);
    tbody.replaceChildren(); info.textContent = (page + 1) + ' / ' + pages;
    for (const k of ks.slice(page * 100, page * 100 + 100)) {
      const s = D.sentences[k], tr = el('tr', { 'data-index': k });
      if (k === chosen) tr.classList.add('selected');
      tr.append(el('td', {}, s.i), el('td', {}, s.id), el('td', {}, s.scores[0][0]));
      tr.onclick = () => { chosen = k; draw(); };
      tbody.append(tr);
    }
    const s = D.sentences[chosen]; detail.replaceChildren(el('p', {}, 'sentence ' + s.i));
    s.sys.forEach((sys) => {
      const svg = svgEl('svg', { class: 'deps', width: 300, height: 120 });
      s.words.forEach((w, k) => svg.append(svgEl('text', { x: 20 + 70 * k, y: 60 }, w)));
      const arc = (from, to, up, cls) => svg.append(svgEl('path', { class: cls, d: 'M' + (20 + 70 * from) + ' 60 Q ' + (35 * (from + to) + 20) + ' ' + (up ? 10 : 110) + ' ' + (20 + 70 * to) + ' 60', fill: 'none', stroke: 'black' }));
      s.gold.forEach(([h, l], w) => { if (h) { arc(h - 1, w, true, 'arc gold'); svg.append(svgEl('text', { class: 'label', x: 35 * (h - 1 + w) + 20, y: 25 }, D.labels[l])); } });
      sys.forEach(([h, l, f], w) => { if (h > 0) arc(h - 1, w, false, 'arc sys' + (f & 1 ? ' wrong-head' : f & 2 ? ' wrong-label' : '')); });
      detail.append(svg);
    });
  }
  only.onchange = () => { page = 0; draw(); }; idf.oninput = () => { page = 0; draw(); };
  prev.onclick = () => { page = Math.max(0, page - 1); draw(); }; next.onclick = () => { page += 1; draw(); };
  draw();
})();`;

const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
function pageHtml({ extraHead = '', extraScript = '', script = app, chart = true } = {}) {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>treeval deps</title>
<style>#browser-app table.sentences tr.selected{background:#eef}svg{border:1px solid #ccc}</style>${extraHead}</head><body>
<header><h1>treeval deps</h1><p id="signature"><code>treeval 0.1.0|deps|selftest</code></p></header>
<section id="summary"><table id="inputs"><tbody><tr><td>gold</td><td>g.conllu</td></tr></tbody></table>
<table class="report" data-section="scores"><thead><tr><th>system</th><th>LAS</th></tr></thead>
<tbody><tr><td>a.conllu</td><td class="n">91.67</td></tr><tr><td>b.conllu</td><td class="n">100.00</td></tr></tbody></table>
${chart ? '<figure class="chart" data-section="scores"><svg width="240" height="60"><rect x="0" y="5" width="200" height="20"/><rect x="0" y="35" width="220" height="20"/></svg><figcaption>LAS by system</figcaption></figure>' : ''}
</section>
<section id="browser"><h2>Sentences</h2><p id="browser-note">150 sentences.</p>
<noscript><p>The sentence browser needs JavaScript; the tables and charts above do not.</p></noscript>
<div id="browser-app"></div>
<script type="application/json" id="treeval-data">${json}</script>
<script>${script}${extraScript}</script></section></body></html>
`;
}

// name → [page, expected message in check.mjs's output (null: must pass)]
const cases = {
  good: [pageHtml(), null],
  'console-error': [pageHtml({ extraScript: 'console.error("boom");' }), 'console errors: boom'],
  exception: [pageHtml({ extraScript: 'setTimeout(() => { null.x; }, 0);' }), 'uncaught exceptions'],
  alert: [pageHtml({ extraScript: 'alert("hi");' }), 'dialogs: alert: hi'],
  fetch: [pageHtml({ extraScript: 'fetch("https://example.invalid/x.json").catch(() => {});' }), 'requests beyond the page: https://example.invalid/x.json'],
  'web-font': [pageHtml({ extraHead: '<link rel="stylesheet" href="https://fonts.example.invalid/a.css">' }), 'no element loads anything'],
  'no-chart': [pageHtml({ chart: false }), 'figure.chart svg: 0, expected ≥ 1'],
  'no-script': [pageHtml({ script: '' }), 'the script renders'],
  debounced: [pageHtml({ script: app.replace('only.onchange = () => { page = 0; draw(); }; idf.oninput = () => { page = 0; draw(); };', 'only.onchange = () => setTimeout(() => { page = 0; draw(); }, 300); idf.oninput = () => setTimeout(() => { page = 0; draw(); }, 300);') }), null],
  'filter-ignored': [pageHtml({ script: app.replace('(!only.checked || isErr(D.sentences[k]))', 'true') }), '#only-errors shows error sentences only'],
  'detail-stuck': [pageHtml({ script: app.replace('tr.onclick = () => { chosen = k; draw(); };', '') }), 'changes #browser-detail'],
  'wrong-choice': [pageHtml({ extraScript: 'document.querySelector("tr.selected").classList.remove("selected"); document.querySelector("tbody tr").classList.add("selected");' }), 'at load the first sentence with an error is chosen'],
};

const manifest = {
  pages: Object.keys(cases).map((name) => ({
    name,
    page: `${name}.html`,
    max_bytes: 200_000,
    expect: { tables: 1, charts: 1, browser: 'deps', systems: 2 },
  })),
};
for (const [name, [html]] of Object.entries(cases)) fs.writeFileSync(path.join(work, `${name}.html`), html);
fs.writeFileSync(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 1));

const run = spawnSync(process.execPath, [path.join(here, 'check.mjs'), path.join(work, 'manifest.json'), path.join(work, 'shots')], { encoding: 'utf8' });
const out = run.stdout + run.stderr;
let bad = 0;
for (const [name, [, want]] of Object.entries(cases)) {
  const fails = out.split('\n').filter((l) => l.startsWith(`FAIL ${name}: `));
  const ok = want === null ? fails.length === 0 : fails.some((l) => l.includes(want));
  if (!ok) bad += 1;
  console.log(`${ok ? 'ok  ' : 'BAD '} ${name}: ${want === null ? 'passes' : `fails with "${want}"`}${ok ? '' : `\n${fails.join('\n') || '  (no failure reported)'}`}`);
}
if (run.status !== 1) {
  bad += 1;
  console.log(`BAD  check.mjs exit code ${run.status}, expected 1\n${out}`);
}
console.log(bad ? `selftest: ${bad} cases wrong (pages in ${work})` : `selftest: all ${Object.keys(cases).length} cases as expected (pages in ${work})`);
process.exit(bad ? 1 : 0);
