#!/usr/bin/env node
// Loads treeval's --format html pages in headless Debian Chromium and checks them against
// docs/html-page.md. Usage: node check.mjs MANIFEST.json SHOTS_DIR [--only NAME,NAME]
// [--browser-per-page]
//
// MANIFEST: {"pages": [{"name": "deps-two", "page": "deps-two.html", "max_bytes": 5000000,
//   "command": "treeval deps …", "expect": {"headline": "scores", "tables": 3, "charts": 1,
//   "browser": "deps", "systems": 2}}]}; a relative "page" is read from the manifest's folder.
// expect.headline: the data-section of the headline table (default scores; brackets: all),
// which must have ≥ systems body rows with numbers; expect.tables: at least that many table.report; expect.charts: at least that many
// `figure.chart svg` (when set, a heatmap for every table.matrix too); expect.browser (deps,
// brackets, align): the sentence browser must be there and work; expect.systems: systems in
// the scores table and the browser. Features the page has but the manifest does not expect
// are checked as well (a chart must render, a browser must work).
// Fails on: a console error, an uncaught exception, a request for anything but the page
// itself, a dialog, a failed check, a page over max_bytes. Exit 0 when all pages pass.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, newContext } from './chromium.mjs';

const USAGE = 'usage: node check.mjs MANIFEST.json SHOTS_DIR [--only NAME[,NAME…]] [--browser-per-page]';
const KINDS = ['deps', 'brackets', 'align'];
const EXPECT_KEYS = ['headline', 'tables', 'charts', 'browser', 'systems'];
const WAIT = 5_000; // ms to wait for the page's script to react

function die(msg) {
  console.error(`check.mjs: ${msg}`);
  process.exit(2);
}

function readManifest(file) {
  let m;
  try {
    m = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    die(`cannot read manifest ${file}: ${e.message}`);
  }
  if (!Array.isArray(m.pages) || m.pages.length === 0) die(`${file}: "pages" must be a non-empty list`);
  const dir = path.dirname(path.resolve(file));
  return m.pages.map((p, k) => {
    if (typeof p.name !== 'string' || typeof p.page !== 'string') die(`${file}: page ${k} needs "name" and "page"`);
    const expect = p.expect ?? {};
    for (const key of Object.keys(expect)) {
      if (!EXPECT_KEYS.includes(key)) die(`${file}: ${p.name}: unknown expectation "${key}" (known: ${EXPECT_KEYS.join(', ')})`);
    }
    if (expect.browser != null && !KINDS.includes(expect.browser)) die(`${file}: ${p.name}: expect.browser must be one of ${KINDS.join(', ')}`);
    return { ...p, expect, file: path.resolve(dir, p.page) };
  });
}

/** A check list: ok(cond, what) records a pass or a failure. */
function checker() {
  const c = { passed: 0, failures: [] };
  c.ok = (cond, what) => {
    if (cond) c.passed += 1;
    else c.failures.push(what);
    return Boolean(cond);
  };
  return c;
}

/** Records console errors, uncaught exceptions, dialogs and requests other than the page's
 * own URL (those are aborted too), for every page of the context. */
async function watch(ctx, own, log) {
  const foreign = (url) => url.split('#')[0] !== own && !url.startsWith('data:');
  ctx.on('console', (m) => {
    if (m.type() === 'error') log.console.push(m.text());
  });
  ctx.on('weberror', (e) => log.pageErrors.push(String(e.error())));
  ctx.on('dialog', (d) => {
    log.dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  ctx.on('request', (r) => {
    if (foreign(r.url())) log.requests.push(r.url());
  });
  await ctx.route((u) => foreign(u.href), (route) => route.abort());
}

/** Marks (performance.now()) when the browser's first sentence row appears. */
function readyMarker() {
  window.__treevalReady = null;
  const sel = '#browser-app table.sentences tbody tr';
  const obs = new MutationObserver(() => {
    if (window.__treevalReady === null && document.querySelector(sel)) {
      window.__treevalReady = performance.now();
      obs.disconnect();
    }
  });
  obs.observe(document, { childList: true, subtree: true });
}

/** Whether sentence s of the data block counts as an error (docs/html-page.md). */
function isError(kind, s) {
  if (kind === 'deps') return s.sys.some((sys) => sys.some(([, , f]) => (f & 3) !== 0 && (f & 4) === 0));
  if (kind === 'brackets') return s.gold.some((b) => b[3] === 0) || s.sys.some((l) => l.some((b) => b[3] === 0));
  const key = ([a, b]) => `${a},${b}`;
  const sure = new Set(s.sure.map(key));
  const any = new Set([...s.sure, ...s.possible].map(key));
  return s.sys.some((l) => {
    const hyp = new Set(l.map(key));
    return [...sure].some((k) => !hyp.has(k)) || [...hyp].some((k) => !any.has(k));
  });
}

/** Whether the detail of sentence s must mark an error: deps, an error word whose system head
 * is a word (an arc is drawn; head 0 = root and -1 = none may have no arc); else any error. */
function marked(kind, s) {
  if (kind !== 'deps') return isError(kind, s);
  return s.sys.some((sys) => sys.some(([h, , f]) => h > 0 && (f & 3) !== 0 && (f & 4) === 0));
}

const count = (page, sel) => page.locator(sel).count();
const rowSel = '#browser-app table.sentences tbody tr';
const rowIndexes = (page) => page.$$eval(rowSel, (trs) => trs.map((tr) => Number(tr.dataset.index)));
const detailHtml = (page) => page.$eval('#browser-detail', (d) => d.innerHTML).catch(() => null);

/** Waits until fn() (in the page) is true; false after WAIT ms. */
async function until(page, fn, arg) {
  try {
    await page.waitForFunction(fn, arg, { timeout: WAIT });
    return true;
  } catch {
    return false;
  }
}

/** Signature, headline scores, report tables, charts, nothing external. */
async function checkSummary(page, p, c) {
  const e = p.expect;
  c.ok((await count(page, '#signature')) === 1, '#signature present');
  c.ok(/treeval/.test(await page.locator('#signature').first().innerText().catch(() => '')), '#signature names treeval');
  const head = `table.report[data-section="${e.headline ?? 'scores'}"]`;
  const scores = page.locator(head);
  c.ok((await scores.count()) === 1, `one ${head}`);
  const rows = await page.$$eval(`${head} tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim())));
  const numbers = rows.filter((r) => r.some((x) => /^-?\d+(\.\d+)?\b/.test(x)));
  c.ok(rows.length >= (e.systems ?? 1), `${head}: ${rows.length} body rows, expected ≥ ${e.systems ?? 1}`);
  c.ok(numbers.length >= Math.min(rows.length, e.systems ?? 1) && numbers.length > 0, `${head}: ${numbers.length} rows with numbers`);
  c.ok(rows.length > 0 && (await scores.first().isVisible()), `${head} visible`);
  const tables = await count(page, 'table.report');
  if (e.tables != null) c.ok(tables >= e.tables, `table.report: ${tables}, expected ≥ ${e.tables}`);
  const charts = await page.$$eval('figure.chart svg', (svgs) =>
    svgs.map((s) => {
      const b = s.getBoundingClientRect();
      const fig = s.closest('figure');
      return {
        w: b.width,
        h: b.height,
        shapes: s.querySelectorAll('rect,path,circle,line,polyline,polygon').length,
        section: fig.dataset.section ?? '',
        caption: fig.querySelector('figcaption')?.textContent.trim() ?? '',
      };
    }),
  );
  if (e.charts != null) {
    c.ok(charts.length >= e.charts, `figure.chart svg: ${charts.length}, expected ≥ ${e.charts}`);
    const matrices = await count(page, 'table.matrix');
    const heatmaps = await count(page, 'figure.chart.heatmap svg');
    c.ok(heatmaps >= matrices, `heatmaps: ${heatmaps} for ${matrices} table.matrix`);
  }
  charts.forEach((ch, k) => {
    const what = `chart ${k + 1} (${ch.section || 'no data-section'})`;
    c.ok(ch.w > 0 && ch.h > 0, `${what} has a size (${ch.w}×${ch.h})`);
    c.ok(ch.shapes > 0, `${what} draws something`);
    c.ok(ch.caption.length > 0, `${what} has a figcaption`);
  });
  const external = await page.$$eval('[src], link, iframe, object, embed', (els) => els.map((el) => el.outerHTML.slice(0, 80)));
  c.ok(external.length === 0, `no element loads anything (src=, link, iframe): ${external.join(' | ')}`);
  return charts.length;
}

/** The data block, parsed and checked against the contract; null when unusable. */
async function checkData(page, p, c) {
  const text = await page.$eval('#treeval-data', (s) => s.textContent).catch(() => null);
  if (!c.ok(text !== null, 'script#treeval-data present')) return null;
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    c.ok(false, `#treeval-data is JSON (${err.message})`);
    return null;
  }
  c.ok(data.version === 1, `data version 1 (got ${data.version})`);
  if (!c.ok(KINDS.includes(data.kind), `data kind is one of ${KINDS} (got ${data.kind})`)) return null;
  if (p.expect.browser) c.ok(data.kind === p.expect.browser, `data kind ${data.kind}, expected ${p.expect.browser}`);
  if (!c.ok(Array.isArray(data.systems) && Array.isArray(data.sentences), 'data has systems and sentences')) return null;
  if (p.expect.systems != null) c.ok(data.systems.length === p.expect.systems, `data systems: ${data.systems.length}, expected ${p.expect.systems}`);
  c.ok(data.sentences.length > 0, 'data holds sentences');
  c.ok(data.total >= data.sentences.length, `total ${data.total} ≥ ${data.sentences.length} sentences`);
  c.ok(data.sampled === data.sentences.length < data.total, `sampled is ${data.sampled} for ${data.sentences.length} of ${data.total}`);
  c.ok(data.sentences.every((s) => Array.isArray(s.sys) && s.sys.length === data.systems.length), 'every sentence has one sys entry per system');
  return data;
}

const DETAIL = {
  deps: (n) => [['svg.deps', (k) => k === n, `== ${n}`], ['path.arc.gold', (k) => k > 0, '> 0'], ['path.arc.sys', (k) => k > 0, '> 0'], ['text.label', (k) => k > 0, '> 0']],
  brackets: (n) => [['svg.tree.gold', (k) => k === 1, '== 1'], ['svg.tree.sys', (k) => k === n, `== ${n}`], ['g.bracket', (k) => k > 0, '> 0']],
  align: (n) => [['svg.grid', (k) => k === n, `== ${n}`], ['circle.hyp', (k) => k > 0, '> 0']],
};
const ERROR_MARKS = {
  deps: '.wrong-head, .wrong-label',
  brackets: 'g.bracket.unmatched',
  align: 'circle.hyp.wrong, rect.sure.missed',
};

/** What #browser-detail must hold for data sentence k. */
async function checkDetail(page, data, k, c, when) {
  const n = data.systems.length;
  for (const [sel, good, want] of DETAIL[data.kind](n)) {
    const got = await count(page, `#browser-detail ${sel}`);
    c.ok(good(got), `${when}: #browser-detail ${sel}: ${got}, expected ${want}`);
  }
  const sent = data.sentences[k];
  if (data.kind === 'align' && sent.sure.length + sent.possible.length > 0) {
    const got = await count(page, '#browser-detail :is(rect.sure, rect.possible)');
    c.ok(got > 0, `${when}: sentence ${k} has gold links, so #browser-detail has rect.sure/rect.possible (${got})`);
  }
  if (marked(data.kind, sent)) {
    const got = await count(page, `#browser-detail :is(${ERROR_MARKS[data.kind]})`);
    c.ok(got > 0, `${when}: sentence ${k} has an error to show, so #browser-detail marks it (${ERROR_MARKS[data.kind]})`);
  }
  const box = await page.locator('#browser-detail').boundingBox();
  c.ok(box && box.width > 0 && box.height > 0, `${when}: #browser-detail has a size`);
}

/** The sentence browser: rendered rows, the chosen sentence, clicks, filters, paging. */
async function checkBrowser(page, p, c, shots) {
  const data = await checkData(page, p, c);
  c.ok((await page.locator('#browser-note').innerText().catch(() => '')).trim().length > 0, '#browser-note has text');
  const ready = await until(page, () => window.__treevalReady !== null);
  if (!c.ok(ready, `the script renders ${rowSel}`) || !data) return null;
  for (const sel of ['input#only-errors', 'select#relation-filter', 'input#id-filter', 'button#page-prev', 'button#page-next', 'span#page-info']) {
    c.ok((await count(page, `#browser-app ${sel}`)) === 1, `control ${sel}`);
  }
  c.ok((await page.$eval('#relation-filter', (s) => s.options[0]?.value).catch(() => null)) === '', '#relation-filter: first option is "" (all)');
  const rows = await rowIndexes(page);
  const nsent = data.sentences.length;
  c.ok(rows.length > 0 && rows.length <= 100, `rows on the first page: ${rows.length} (1..100)`);
  c.ok(rows.every((i) => Number.isInteger(i) && i >= 0 && i < nsent), 'every row has data-index within the data');
  c.ok((await count(page, `${rowSel}.selected`)) === 1, 'exactly one row .selected');
  let chosen = data.sentences.findIndex((s) => isError(data.kind, s));
  if (chosen < 0) chosen = 0;
  const selected = await page.$eval(`${rowSel}.selected`, (tr) => Number(tr.dataset.index)).catch(() => null);
  c.ok(selected === chosen, `at load the first sentence with an error is chosen (index ${chosen}; selected ${selected})`);
  const atLoad = await detailHtml(page);
  await checkDetail(page, data, selected ?? chosen, c, 'at load');
  await page.locator('#browser-detail').screenshot({ path: path.join(shots, `${p.name}-detail.png`) }).catch((e) => c.ok(false, `detail screenshot: ${e.message}`));

  // another row
  const other = rows.find((i) => i !== selected);
  if (other !== undefined) {
    const before = await detailHtml(page);
    await page.locator(`${rowSel}[data-index="${other}"]`).click();
    c.ok(await until(page, (b) => document.querySelector('#browser-detail')?.innerHTML !== b, before), `clicking row ${other} changes #browser-detail`);
    c.ok((await page.$$eval(`${rowSel}.selected`, (trs) => trs.map((tr) => Number(tr.dataset.index)))).join() === String(other), `row ${other} is now the only .selected`);
    await checkDetail(page, data, other, c, `row ${other}`);
  } else {
    c.ok(nsent === 1, 'a second row to click (the data has one sentence only)');
  }

  // sorting keeps the rows
  const th = page.locator('#browser-app table.sentences thead th');
  if ((await th.count()) > 1) {
    await th.nth(1).click();
    await th.nth(1).click();
    c.ok((await count(page, rowSel)) === rows.length, 'sorting by a column keeps the number of rows');
  }

  // only errors (the page may update the rows later than the event: wait for the outcome)
  const errIdx = data.sentences.map((x, k) => (isError(data.kind, x) ? k : -1)).filter((k) => k >= 0);
  const rowsAre = ([sel, want]) => [...document.querySelectorAll(sel)].every((tr) => want.includes(Number(tr.dataset.index)));
  const rowCount = ([sel, n]) => document.querySelectorAll(sel).length === n;
  const box = page.locator('#only-errors');
  if (await box.isChecked()) {
    await box.uncheck();
    await until(page, () => !document.querySelector('#only-errors').checked);
    await page.waitForTimeout(100);
  }
  const all = await count(page, rowSel);
  await box.check();
  await until(page, rowsAre, [rowSel, errIdx]);
  const errRows = await rowIndexes(page);
  c.ok(errRows.length <= all, `#only-errors does not add rows (${all} → ${errRows.length})`);
  c.ok(errRows.every((i) => errIdx.includes(i)), '#only-errors shows error sentences only');
  c.ok(errIdx.length === 0 || errRows.length > 0, `#only-errors shows the error sentences (${errIdx.length} in the data)`);
  await box.uncheck();
  c.ok(await until(page, rowCount, [rowSel, all]), 'unchecking #only-errors gives the rows back');

  // the id filter finds the last sentence
  const last = nsent - 1;
  const s = data.sentences[last];
  const needle = String(s.id ?? s.i);
  await page.locator('#id-filter').fill(needle);
  await until(page, ([sel, k]) => [...document.querySelectorAll(sel)].some((tr) => Number(tr.dataset.index) === k), [rowSel, last]);
  const found = await rowIndexes(page);
  c.ok(found.includes(last), `#id-filter "${needle}" lists sentence ${last} (rows: ${found.slice(0, 5).join(',')}…)`);
  await page.locator('#id-filter').fill('');
  await until(page, rowCount, [rowSel, all]);

  // paging
  if (nsent > 100 && rows.length === 100) {
    const info = await page.locator('#page-info').innerText();
    const first = (await rowIndexes(page))[0];
    await page.locator('#page-next').click();
    c.ok(await until(page, ([sel, f]) => Number(document.querySelector(sel)?.dataset.index) !== f, [rowSel, first]), '#page-next shows other rows');
    c.ok((await page.locator('#page-info').innerText()) !== info, '#page-next changes #page-info');
    await page.locator('#page-prev').click();
  }
  return { data, chosen, atLoad };
}

/** #s=K in the URL chooses sentence K (K: the last sentence, or the first when the last is
 * the default choice). */
async function checkHash(ctx, url, state, c) {
  const { data, chosen, atLoad } = state;
  const n = data.sentences.length;
  if (n < 2) return;
  const k = n - 1 === chosen ? 0 : n - 1;
  const hp = await ctx.newPage();
  try {
    await hp.goto(`${url}#s=${k}`, { waitUntil: 'load' });
    await until(hp, () => window.__treevalReady !== null);
    const sel = await hp.$eval(`${rowSel}.selected`, (tr) => Number(tr.dataset.index)).catch(() => null);
    const detail = await detailHtml(hp);
    c.ok(sel === k || (sel === null && detail !== atLoad), `#s=${k} chooses sentence ${k} (selected row: ${sel})`);
    c.ok(detail !== null && detail !== atLoad, `#s=${k}: #browser-detail differs from the default choice`);
  } finally {
    await hp.close();
  }
}

/** JavaScript off: the tables and charts are there, the noscript note shows. */
async function checkNoScript(browser, p, url, log, c, shots, charts) {
  const ctx = await newContext(browser, { javaScriptEnabled: false });
  try {
    await watch(ctx, url, log);
    const page = await ctx.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const tables = page.locator('table.report');
    const n = await tables.count();
    let visible = 0;
    for (let k = 0; k < n; k++) if (await tables.nth(k).isVisible()) visible += 1;
    c.ok(n > 0 && visible === n, `no JavaScript: ${visible} of ${n} table.report visible`);
    c.ok((await count(page, 'figure.chart svg')) === charts, `no JavaScript: the same ${charts} charts`);
    if ((await count(page, 'section#browser')) > 0) {
      const note = page.locator('#browser noscript');
      const text = (await note.innerText().catch(() => '')).trim();
      c.ok((await note.isVisible().catch(() => false)) && /javascript/i.test(text), `no JavaScript: the noscript note shows ("${text.slice(0, 60)}")`);
      c.ok((await count(page, '#browser-app *')) === 0, 'no JavaScript: #browser-app stays empty');
    }
    await page.screenshot({ path: path.join(shots, `${p.name}-nojs.png`) });
  } finally {
    await ctx.close();
  }
}

async function checkPage(browser, p, shots) {
  const c = checker();
  const log = { console: [], pageErrors: [], dialogs: [], requests: [] };
  const res = { name: p.name, bytes: null, loadMs: null, readyMs: null, log, c };
  if (!c.ok(fs.existsSync(p.file), `page file exists: ${p.file}`)) return res;
  res.bytes = fs.statSync(p.file).size;
  if (p.max_bytes != null) c.ok(res.bytes <= p.max_bytes, `size ${res.bytes} ≤ ${p.max_bytes} bytes`);
  const url = pathToFileURL(p.file).href;
  const ctx = await newContext(browser);
  try {
    await ctx.addInitScript(readyMarker);
    await watch(ctx, url, log);
    const page = await ctx.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    res.loadMs = await page.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventEnd);
    const hasBrowser = (await count(page, 'section#browser')) > 0;
    if (p.expect.browser) c.ok(hasBrowser, `section#browser present (expect.browser = ${p.expect.browser})`);
    if (hasBrowser) await until(page, () => window.__treevalReady !== null);
    const mark = await page.evaluate(() => window.__treevalReady);
    res.readyMs = Math.max(res.loadMs, mark ?? 0);
    const charts = await checkSummary(page, p, c);
    c.ok((await page.locator('#browser noscript').isVisible().catch(() => false)) === false, 'the noscript note is hidden when JavaScript runs');
    await page.screenshot({ path: path.join(shots, `${p.name}.png`), fullPage: true });
    if (hasBrowser) {
      const state = await checkBrowser(page, p, c, shots);
      if (state) await checkHash(ctx, url, state, c);
    }
    await ctx.close();
    await checkNoScript(browser, p, url, log, c, shots, charts);
  } catch (e) {
    c.ok(false, `exception: ${e.message.split('\n')[0]}`);
  } finally {
    await ctx.close().catch(() => {});
  }
  c.ok(log.console.length === 0, `console errors: ${log.console.join(' | ')}`);
  c.ok(log.pageErrors.length === 0, `uncaught exceptions: ${log.pageErrors.join(' | ')}`);
  c.ok(log.dialogs.length === 0, `dialogs: ${log.dialogs.join(' | ')}`);
  c.ok(log.requests.length === 0, `requests beyond the page: ${log.requests.join(' | ')}`);
  return res;
}

function table(results) {
  const head = ['page', 'bytes', 'load ms', 'ready ms', 'console errors', 'passed', 'failed'];
  const rows = results.map((r) => [
    r.name,
    r.bytes == null ? '-' : r.bytes.toLocaleString('en-US'),
    r.loadMs == null ? '-' : r.loadMs.toFixed(0),
    r.readyMs == null ? '-' : r.readyMs.toFixed(0),
    String(r.log.console.length + r.log.pageErrors.length),
    String(r.c.passed),
    String(r.c.failures.length),
  ]);
  const w = head.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k].length)));
  const line = (r) => r.map((x, k) => (k === 0 ? x.padEnd(w[k]) : x.padStart(w[k]))).join('  ');
  return [line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n');
}

async function main() {
  const args = process.argv.slice(2);
  let only = null;
  let perPage = false;
  const pos = [];
  for (let k = 0; k < args.length; k++) {
    if (args[k] === '--only') only = (args[++k] ?? '').split(',');
    else if (args[k] === '--browser-per-page') perPage = true;
    else if (args[k] === '-h' || args[k] === '--help') {
      console.log(USAGE);
      return 0;
    } else pos.push(args[k]);
  }
  if (pos.length !== 2) die(USAGE);
  const [manifest, shots] = pos;
  let pages = readManifest(manifest);
  if (only) {
    const unknown = only.filter((n) => !pages.some((p) => p.name === n));
    if (unknown.length) die(`--only: no page named ${unknown.join(', ')} in ${manifest}`);
    pages = pages.filter((p) => only.includes(p.name));
  }
  fs.mkdirSync(shots, { recursive: true });
  const t0 = Date.now();
  const results = [];
  // One browser (a fresh profile) for the run and new contexts per page, which share no
  // cookies, storage or cache; --browser-per-page launches one per page (about 1 s more each).
  let browser = null;
  try {
    for (const p of pages) {
      if (perPage && browser) await browser.close();
      if (perPage || !browser) browser = await launch();
      results.push(await checkPage(browser, p, shots));
    }
  } finally {
    if (browser) await browser.close();
  }
  console.log(table(results));
  let failed = 0;
  for (const r of results) {
    for (const f of r.c.failures) {
      failed += 1;
      console.log(`FAIL ${r.name}: ${f}`);
    }
  }
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(`${results.length} pages in ${secs} s; screenshots in ${shots}; ${failed ? `${failed} failed checks` : 'all checks passed'}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`check.mjs: ${e.stack ?? e}`);
    process.exit(2);
  },
);
