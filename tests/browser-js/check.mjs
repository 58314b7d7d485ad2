// Headless checks of the sentence browser (crates/treeval-report/src/emit/browser.js and
// browser.css) on the fixture pages: see README.md. Exit status 1 when a check fails.
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const emit = path.resolve(here, "../../crates/treeval-report/src/emit");
const SHOTS = "/tmp/browser-js-shots", PAGES = "/tmp/browser-js-pages";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
fs.mkdirSync(SHOTS, { recursive: true });
fs.mkdirSync(PAGES, { recursive: true });

let failed = 0, passed = 0;
function ok(cond, msg, extra) {
  if (cond) passed++;
  else failed++;
  console.log(`${cond ? "ok  " : "FAIL"} ${msg}${!cond && extra !== undefined ? "  -- got " + JSON.stringify(extra) : ""}`);
}
const eq = (a, b, msg) => ok(JSON.stringify(a) === JSON.stringify(b), `${msg} (${JSON.stringify(b)})`, a);

// ---- static checks of the two inlined files
const js = fs.readFileSync(path.join(emit, "browser.js"), "utf8");
const css = fs.readFileSync(path.join(emit, "browser.css"), "utf8");
console.log(`# browser.js ${js.length} bytes, browser.css ${css.length} bytes`);
ok(js.length < 25000, "browser.js is under 25 KB");
ok(!/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function/.test(js), "browser.js builds no markup from strings");
ok(!/<\/script|<script|<!--/i.test(js), "browser.js cannot end or confuse its <script> element");
ok(!/<\/style/i.test(css), "browser.css cannot end its <style> element");
ok(!/url\(\s*['"]?(https?:|\/\/)|@import/i.test(css) && !/https?:\/\/(?!www\.w3\.org\/2000\/svg)/.test(js), "nothing refers outside the page");
ok(js.startsWith('"use strict";'), "browser.js is strict");

// ---- the same rules as the contract, computed here independently of the script
function errorOf(kind, x) {
  if (kind === "deps") return x.sys.some((a) => a.some((w) => w[2] & 3 && !(w[2] & 4)));
  if (kind === "brackets") return [x.gold, ...x.sys].some((l) => l.some((b) => !b[3]));
  const k = (l) => l.join(",");
  const sure = new Set(x.sure.map(k)), both = new Set([...x.sure, ...x.possible].map(k));
  return x.sys.some((h) => h.some((l) => !both.has(k(l))) || x.sure.some((l) => !h.map(k).includes(k(l))));
}

function makePage(fixture, name) {
  const out = path.join(PAGES, name + ".html");
  execFileSync("python3", [path.join(here, "make_page.py"), fixture, out]);
  return out;
}

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

async function open(file, hash = "", viewport = { width: 1280, height: 900 }) {
  const ctx = await browser.newContext({ viewport });
  const log = { errors: [], dialogs: [], net: [] };
  await ctx.route("**/*", (r) => (r.request().url().startsWith("file:") ? r.continue() : (log.net.push(r.request().url()), r.abort())));
  const page = await ctx.newPage();
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") log.errors.push(m.text()); });
  page.on("pageerror", (e) => log.errors.push(String(e)));
  page.on("dialog", (d) => { log.dialogs.push(d.message()); d.dismiss(); });
  await page.addInitScript(() => { window.__xss = 0; window.alert = () => { window.__xss++; }; });
  await page.goto(pathToFileURL(file).href + hash);
  await page.waitForSelector("#browser-detail svg");
  return { page, ctx, log };
}

const rowsOf = (page) => page.$$eval("table.sentences tbody tr", (t) => t.map((r) => +r.dataset.index));
const selected = (page) => page.$$eval("table.sentences tr.selected", (t) => t.map((r) => +r.dataset.index));

// Every drawn element lies inside its svg (nothing clipped); overlapping label pairs are counted.
async function geometry(page) {
  return page.$$eval("#browser-detail svg", (svgs) => svgs.map((svg) => {
    const W = +svg.getAttribute("width"), H = +svg.getAttribute("height");
    const out = [];
    for (const e of svg.querySelectorAll("text,path,rect,circle,line")) {
      if (e.closest("defs")) continue;
      const b = e.getBBox();
      // rotated labels: check the transformed box
      let box = b;
      if (e.transform && e.transform.baseVal.numberOfItems) {
        const m = e.transform.baseVal.consolidate().matrix;
        const pts = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
          .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
        const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
        box = { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
      }
      if (box.x < -1 || box.y < -1 || box.x + box.width > W + 1 || box.y + box.height > H + 1) out.push(`${e.tagName}.${e.getAttribute("class")} "${e.textContent}"`);
    }
    const labs = [...svg.querySelectorAll("text.label,text.word,g.bracket text,text.tag")].map((t) => t.getBBox());
    let overlaps = 0;
    for (let i = 0; i < labs.length; i++) for (let j = i + 1; j < labs.length; j++) {
      const a = labs[i], b = labs[j];
      if (a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 2 && b.y < a.y + a.height - 2) overlaps++;
    }
    return { cls: svg.getAttribute("class"), clipped: out, overlaps };
  }));
}

async function checkGeometry(page, what) {
  for (const g of await geometry(page)) {
    ok(g.clipped.length === 0, `${what}: nothing outside svg.${g.cls.replace(" ", ".")}`, g.clipped.slice(0, 5));
    ok(g.overlaps === 0, `${what}: no overlapping texts in svg.${g.cls.replace(" ", ".")}`, g.overlaps);
  }
}

// The checks every kind shares: right after load, then after the kind's own checks.
async function atLoad(name, data, page) {
  const n = data.sentences.length, errs = data.sentences.map((x) => errorOf(data.kind, x));
  const first = Math.max(0, errs.indexOf(true));
  for (const id of ["only-errors", "relation-filter", "id-filter", "page-prev", "page-next", "page-info", "browser-detail"])
    ok(await page.$(`#browser-app #${id}`), `${name}: #${id} exists`);
  eq(await page.$eval("#only-errors", (e) => e.type), "checkbox", `${name}: #only-errors is a checkbox`);
  eq(await page.$eval("#relation-filter", (e) => e.options[0].value), "", `${name}: first relation option is all`);
  const heads = await page.$$eval("table.sentences thead th", (t) => t.map((x) => x.textContent));
  eq(heads.slice(0, 3), ["#", "id", "words"], `${name}: first header cells`);
  eq(heads.length, 3 + data.systems.length * data.columns.length, `${name}: one header cell per system and column`);
  eq(heads[3], `${data.columns[0]} ${data.systems[0]}`, `${name}: score header`);
  eq((await rowsOf(page)).length, Math.min(100, n), `${name}: rows of the first page`);
  eq(await selected(page), [first], `${name}: first sentence with an error is selected`);
  eq(await page.$eval("#page-info", (e) => e.textContent), `sentences 1–${Math.min(100, n)} of ${n}`, `${name}: page info`);
}

async function common(name, data, page, log) {
  const n = data.sentences.length, errs = data.sentences.map((x) => errorOf(data.kind, x));
  const first = Math.max(0, errs.indexOf(true));
  await page.click(`table.sentences tr[data-index="${first}"]`);
  // another row
  const other = first === 0 ? n - 1 : 0;
  const before = await page.$eval("#browser-detail", (e) => e.textContent + e.querySelectorAll("*").length);
  await page.click(`table.sentences tr[data-index="${other}"] td:nth-child(2)`);
  eq(await selected(page), [other], `${name}: clicking a row selects it`);
  ok(before !== (await page.$eval("#browser-detail", (e) => e.textContent + e.querySelectorAll("*").length)), `${name}: clicking a row changes the detail`);
  eq(await page.evaluate(() => location.hash), `#s=${other}`, `${name}: the hash follows the selection`);
  ok((await page.$eval("#browser-detail .detail-head", (e) => e.textContent)).startsWith(`Sentence ${data.sentences[other].i}`), `${name}: the detail heads the chosen sentence`);
  // hashchange
  await page.evaluate((k) => { location.hash = "s=" + k; }, first);
  await page.waitForFunction((k) => document.querySelector("tr.selected")?.dataset.index === String(k), first);
  eq(await selected(page), [first], `${name}: changing the hash selects`);
  // only errors
  await page.check("#only-errors");
  const errRows = errs.map((e, k) => (e ? k : -1)).filter((k) => k >= 0);
  eq(await rowsOf(page), errRows, `${name}: only-errors leaves the sentences with errors`);
  ok(errRows.length < n, `${name}: only-errors reduces the rows`);
  ok((await page.$eval("#page-info", (e) => e.textContent)).includes(`filtered from ${n}`), `${name}: page info says filtered`);
  await page.uncheck("#only-errors");
  eq((await rowsOf(page)).length, Math.min(100, n), `${name}: unchecking brings the rows back`);
  // id filter
  const withId = data.sentences.findIndex((x) => x.id);
  await page.fill("#id-filter", data.sentences[withId].id.slice(-3));
  const want = data.sentences.map((x, k) => (((x.id || "") + "\u0001" + x.i).toLowerCase().includes(data.sentences[withId].id.slice(-3).toLowerCase()) ? k : -1)).filter((k) => k >= 0);
  eq(await rowsOf(page), want, `${name}: id filter`);
  await page.fill("#id-filter", String(data.sentences[n - 1].i));
  ok((await rowsOf(page)).includes(n - 1), `${name}: id filter matches a sentence number`);
  await page.fill("#id-filter", "");
  // sorting
  const th = (j) => `table.sentences thead th:nth-child(${j + 1})`;
  const heads = await page.$$eval("table.sentences thead th", (t) => t.map((x) => x.textContent));
  await page.click(th(3));
  const col = (k) => data.sentences[k].scores[0][0];
  const asc = await rowsOf(page);
  ok(asc.every((k, p) => p === 0 || col(asc[p - 1]) == null || col(k) == null || col(asc[p - 1]) <= col(k)), `${name}: sort by ${heads[3]} ascending`, asc);
  eq(await page.$eval(th(3), (e) => e.getAttribute("aria-sort")), "ascending", `${name}: aria-sort ascending`);
  await page.click(th(3));
  const desc = await rowsOf(page);
  ok(desc.every((k, p) => p === 0 || col(desc[p - 1]) == null || col(k) == null || col(desc[p - 1]) >= col(k)), `${name}: again: descending`, desc);
  await page.click(th(0));
  const byI = await rowsOf(page);
  await page.click(th(0));
  eq(await rowsOf(page), [...byI].reverse(), `${name}: sorting by # twice reverses the order`);
  await page.click(th(0));
  // hash at load
  ok(log.errors.length === 0, `${name}: no console or page error`, log.errors);
  ok(log.dialogs.length === 0 && (await page.evaluate(() => window.__xss)) === 0, `${name}: no dialog`, log.dialogs);
  ok(log.net.length === 0, `${name}: nothing fetched`, log.net);
  ok(!(await page.$("#browser-app script, #browser-app b, #browser-app img, #browser-app iframe")), `${name}: no element made from data`);
}

async function hashAtLoad(name, file, data, k) {
  const { page, ctx, log } = await open(file, `#s=${k}`);
  eq(await selected(page), [k], `${name}: #s=${k} at load selects sentence ${k}`);
  ok((await page.$eval("#browser-detail .detail-head", (e) => e.textContent)).startsWith(`Sentence ${data.sentences[k].i}`), `${name}: #s=${k} at load shows it`);
  ok(log.errors.length === 0, `${name}: no error with #s=${k}`, log.errors);
  await ctx.close();
}

const count = (page, sel) => page.$$eval(sel, (e) => e.length);
const shot = (page, file) => page.screenshot({ path: path.join(SHOTS, file), fullPage: true });

// ---- deps, two systems
{
  const name = "deps-two", fx = path.join(here, "fixtures", name + ".json"), data = JSON.parse(fs.readFileSync(fx, "utf8"));
  const file = makePage(fx, name);
  const { page, ctx, log } = await open(file);
  await atLoad(name, data, page);
  eq(await count(page, "#browser-detail svg.deps"), 2, `${name}: one svg.deps per system`);
  eq(await page.$eval("#browser-detail .views", (e) => getComputedStyle(e).display), "flex", `${name}: side by side`);
  const x = data.sentences[1];
  eq(await count(page, "svg.deps >> nth=0 >> path.arc.gold"), x.words.length, `${name}: a gold arc per word (root stub included)`);
  eq(await count(page, "svg.deps >> nth=0 >> path.arc.sys"), x.words.length, `${name}: a system arc per word`);
  ok((await count(page, "svg.deps >> nth=0 >> path.arc.sys.wrong-label")) === 1, `${name}: sys1 has one wrong-label arc (him: obj for iobj)`);
  ok((await count(page, "svg.deps >> nth=0 >> path.arc.sys.wrong-head")) === 1, `${name}: sys1 has one wrong-head arc (yesterday)`);
  ok((await count(page, "svg.deps >> nth=1 >> path.arc.sys.wrong-head")) === 2, `${name}: sys2: two wrong heads (a, and the unscored full stop)`);
  ok((await count(page, "svg.deps >> nth=1 >> path.arc.sys.wrong-head.unscored")) === 1, `${name}: sys2: the unscored one is marked unscored`);
  ok((await count(page, "#browser-detail path.arc.correct")) > 0, `${name}: correct arcs`);
  ok((await count(page, "#browser-detail text.label")) >= 2 * x.words.length, `${name}: labels`);
  ok((await count(page, "#browser-detail text.word.unscored")) === 2, `${name}: the full stop is greyed in each svg`);
  const refs = await page.$$eval("#browser-detail svg.deps", (svgs) => svgs.every((svg) =>
    [...svg.querySelectorAll("path.arc")].every((p) => { const m = /^url\(#(.+)\)$/.exec(p.getAttribute("marker-end")); return m && svg.querySelector(`marker[id="${m[1]}"]`); })));
  ok(refs, `${name}: every arc's arrowhead is a marker inside its own svg`);
  ok(await page.$eval("svg.deps path.arc.gold.root", (p) => /^M[\d.]+ [\d.]+V[\d.]+$/.test(p.getAttribute("d"))), `${name}: the root is a vertical stub`);
  const style = (sel, prop) => page.$eval(sel, (e, p) => getComputedStyle(e)[p], prop);
  const colours = {
    gold: await style("svg.deps path.arc.gold", "stroke"), correct: await style("svg.deps path.arc.sys.correct", "stroke"),
    wrongLabel: await style("svg.deps path.arc.sys.wrong-label", "stroke"), wrongHead: await style("svg.deps path.arc.sys.wrong-head", "stroke"),
    headText: await style("svg.deps text.label.wrong-head", "fill"), labelText: await style("svg.deps text.label.wrong-label", "fill"),
  };
  ok(new Set(Object.values(colours).slice(0, 4)).size === 4 && colours.headText === colours.wrongHead && colours.labelText !== colours.headText, `${name}: arcs and labels coloured by status`, colours);
  ok((await style("svg.deps path.arc.sys.wrong-head", "strokeDasharray")) !== (await style("svg.deps path.arc.sys.wrong-label", "strokeDasharray")), `${name}: wrong head and wrong label differ in line style too`);
  await checkGeometry(page, name + " s2");
  await shot(page, "deps-two-s2.png");
  // the sentence with markup in its words and id
  await page.click('table.sentences tr[data-index="2"]');
  const words = await page.$$eval("svg.deps >> nth=0 >> text.word", (t) => t.map((e) => e.textContent));
  ok(words.includes("<script>alert(1)</script>") && words.includes("</script>"), `${name}: the <script> form is shown as text`);
  eq(await page.$eval("#browser-detail .detail-head code", (e) => e.textContent), "</script><b>bold</b>", `${name}: the </script> id is shown as text`);
  ok((await page.$eval('tr[data-index="2"] td:nth-child(2)', (e) => e.textContent)) === "</script><b>bold</b>", `${name}: the id cell is text`);
  ok((await count(page, "svg.deps >> nth=1 >> path.arc.sys.root.wrong-head")) === 1, `${name}: sys2's wrong root is a wrong-head stub`);
  await checkGeometry(page, name + " s3");
  await shot(page, "deps-two-s3-script.png");
  // relation filter
  const opts = await page.$$eval("#relation-filter option", (o) => o.map((e) => e.textContent));
  ok(opts.includes("iobj (1)") && opts.includes("root (1)") && !opts.includes("punct (1)") && !opts.some((o) => o.startsWith("punct")), `${name}: relation options are gold labels of wrong scored words`, opts);
  await page.selectOption("#relation-filter", { label: "iobj (1)" });
  eq(await rowsOf(page), [1], `${name}: relation filter iobj`);
  await page.selectOption("#relation-filter", { label: "root (1)" });
  eq(await rowsOf(page), [2], `${name}: relation filter root`);
  await page.selectOption("#relation-filter", "");
  eq((await rowsOf(page)).length, 4, `${name}: all relations`);
  // the long sentence scrolls sideways
  await page.click('table.sentences tr[data-index="3"]');
  ok(await page.$eval("#browser-detail .scroll", (e) => e.scrollWidth > e.clientWidth && getComputedStyle(e).overflowX === "auto"), `${name}: a long sentence scrolls sideways`);
  await checkGeometry(page, name + " s4");
  await shot(page, "deps-two-s4-long.png");
  await page.click('table.sentences tr[data-index="1"]');
  await common(name, data, page, log);
  await ctx.close();
  await hashAtLoad(name, file, data, 3);
}

// ---- ud: unaligned words and missing heads
{
  const name = "ud-unaligned", fx = path.join(here, "fixtures", name + ".json"), data = JSON.parse(fs.readFileSync(fx, "utf8"));
  const file = makePage(fx, name);
  const { page, ctx, log } = await open(file);
  await atLoad(name, data, page);
  eq(await count(page, "#browser-detail svg.deps"), 1, `${name}: one svg.deps`);
  eq(await count(page, "svg.deps text.word.unaligned"), 2, `${name}: the two unaligned words are marked`);
  eq(await count(page, "svg.deps text.word.no-head"), 2, `${name}: words without a head are marked`);
  ok((await page.$eval("svg.deps text.word.no-head", (e) => getComputedStyle(e).fill)) !== (await page.$eval("svg.deps text.word:not(.no-head)", (e) => getComputedStyle(e).fill)), `${name}: and coloured`);
  eq(await count(page, "svg.deps path.arc.sys"), 3, `${name}: no system arc for head -1`);
  await checkGeometry(page, name);
  await shot(page, "ud-unaligned-s2.png");
  await page.click('table.sentences tr[data-index="2"]');
  eq(await count(page, "svg.deps text.word.no-head"), 2, `${name}: s3: unaligned word and word whose head is unaligned`);
  eq(await count(page, "svg.deps text.word.unaligned"), 1, `${name}: s3: one unaligned word`);
  await shot(page, "ud-unaligned-s3.png");
  await page.click('table.sentences tr[data-index="1"]');
  await common(name, data, page, log);
  await ctx.close();
}

// ---- brackets
{
  const name = "brackets", fx = path.join(here, "fixtures", name + ".json"), data = JSON.parse(fs.readFileSync(fx, "utf8"));
  const file = makePage(fx, name);
  const { page, ctx, log } = await open(file);
  await atLoad(name, data, page);
  eq(await count(page, "#browser-detail svg.tree.gold"), 1, `${name}: one gold tree`);
  eq(await count(page, "#browser-detail svg.tree.sys"), 1, `${name}: one system tree`);
  eq(await count(page, "svg.tree.gold g.bracket"), 7, `${name}: a g.bracket per gold bracket`);
  eq(await count(page, "svg.tree.gold g.bracket.unmatched"), 1, `${name}: the unmatched gold bracket`);
  eq(await count(page, "svg.tree.sys g.bracket.unmatched"), 1, `${name}: the unmatched system bracket`);
  eq(await page.$eval("svg.tree.gold g.bracket.unmatched text", (e) => e.textContent), "NP", `${name}: unmatched label`);
  ok((await page.$eval("svg.tree.gold g.bracket.unmatched text", (e) => getComputedStyle(e).fill)) !== (await page.$eval("svg.tree.gold g.bracket:not(.unmatched) text", (e) => getComputedStyle(e).fill)), `${name}: unmatched brackets are coloured`);
  // nesting: the PP is drawn below the NP 4-9 in gold, below VP in the system tree
  const ys = (sel) => page.$$eval(sel + " g.bracket text", (t) => t.map((e) => [e.textContent, +e.getAttribute("y")]));
  const g = await ys("svg.tree.gold"), sy = await ys("svg.tree.sys");
  const depth = (l, lbl) => l.filter((e) => e[0] === lbl).map((e) => e[1]);
  ok(depth(g, "PP")[0] > depth(g, "VP")[0] + 40, `${name}: gold PP two levels under VP`, g);
  ok(depth(sy, "PP")[0] < depth(g, "PP")[0], `${name}: system PP one level higher`, sy);
  eq(await count(page, "svg.tree.gold g.tag"), data.sentences[0].words.length, `${name}: a tag per word`);
  await checkGeometry(page, name + " s1");
  await shot(page, "brackets-s1.png");
  await page.click('table.sentences tr[data-index="1"]');
  const g2 = await ys("svg.tree.gold");
  ok(depth(g2, "S")[0] < depth(g2, "VP")[0], `${name}: same span: the first in the list (S) is above VP`, g2);
  const sx = await page.$$eval("svg.tree.gold g.bracket text", (t) => t.map((e) => +e.getAttribute("x")));
  ok(sx[0] === sx[1], `${name}: the unary chain S-VP is one column`, sx);
  eq(await page.$$eval("#relation-filter option", (o) => o.map((e) => e.textContent)), ["all labels", "NP (1)"], `${name}: label options`);
  await checkGeometry(page, name + " s2");
  await shot(page, "brackets-s2.png");
  await common(name, data, page, log);
  await ctx.close();
}

// ---- align
{
  const name = "align", fx = path.join(here, "fixtures", name + ".json"), data = JSON.parse(fs.readFileSync(fx, "utf8"));
  const file = makePage(fx, name);
  const { page, ctx, log } = await open(file);
  await atLoad(name, data, page);
  eq(await count(page, "#browser-detail svg.grid"), 2, `${name}: a grid per system`);
  eq(await count(page, "svg.grid >> nth=0 >> rect.sure"), 4, `${name}: sure links`);
  eq(await count(page, "svg.grid >> nth=0 >> rect.possible"), 1, `${name}: possible links`);
  eq(await count(page, "svg.grid >> nth=0 >> rect.sure.missed"), 1, `${name}: sys1 misses one sure link`);
  eq(await count(page, "svg.grid >> nth=0 >> circle.hyp.correct"), 4, `${name}: sys1's links are all in sure or possible`);
  eq(await count(page, "svg.grid >> nth=1 >> circle.hyp.wrong"), 1, `${name}: sys2 has a wrong link`);
  ok((await page.$eval("svg.grid circle.hyp.correct", (e) => getComputedStyle(e).fill)) !== (await page.$eval("svg.grid circle.hyp.wrong", (e) => getComputedStyle(e).fill)), `${name}: wrong links look different`);
  eq(await count(page, "svg.grid >> nth=1 >> rect.sure.missed"), 1, `${name}: sys2 misses one sure link`);
  eq(await page.$$eval("svg.grid >> nth=0 >> text.glabel", (t) => t.map((e) => e.textContent)), ["0", "1", "2", "3", "0", "1", "2", "3", "4"], `${name}: indices as labels`);
  eq(await page.$$eval("#relation-filter option", (o) => o.length), 1, `${name}: the relation filter has only "all"`);
  await checkGeometry(page, name + " s2");
  await shot(page, "align-s2-numbers.png");
  await page.click('table.sentences tr[data-index="2"]');
  const labs = await page.$$eval("svg.grid >> nth=1 >> text.glabel", (t) => t.map((e) => e.textContent));
  ok(labs.includes("Haus") && labs.includes("<script>alert(1)</script>"), `${name}: words as labels, markup as text`);
  eq(await count(page, "svg.grid >> nth=1 >> circle.hyp.wrong"), 1, `${name}: s3 sys2 wrong link`);
  eq(await count(page, "svg.grid >> nth=1 >> rect.sure.missed"), 2, `${name}: s3 sys2 missed links`);
  await checkGeometry(page, name + " s3");
  await shot(page, "align-s3-words.png");
  await common(name, data, page, log);
  await ctx.close();
}

// ---- 5,000 sentences, two systems: time to first paint of the table and of a sort
{
  let seed = 7;
  const rnd = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  const sentences = [];
  for (let i = 0; i < 5000; i++) {
    const n = 5 + rnd(45), words = [], gold = [];
    for (let j = 0; j < n; j++) { words.push("w" + rnd(1000)); gold.push([j === 0 ? 0 : 1 + rnd(j), rnd(30)]); }
    const sys = [0, 1].map(() => gold.map(([h, l]) => { const f = rnd(10) === 0 ? 1 : rnd(10) === 0 ? 2 : 0; return [f & 1 ? (h === 1 ? 2 : 1) : h, f & 2 ? (l + 1) % 30 : l, f | (rnd(12) === 0 ? 4 : 0)]; }));
    sentences.push({ i: i + 1, id: `big-${i + 1}`, scores: [[rnd(1000) / 10, rnd(1000) / 10, null], [rnd(1000) / 10, 50, 50]], words, gold, sys });
  }
  const data = { version: 1, kind: "deps", systems: ["a.conllu", "b.conllu"], columns: ["LAS", "UAS", "LA"],
    labels: Array.from({ length: 30 }, (_, k) => "rel" + k), total: 5000, sampled: false, note: "", sentences };
  const fx = path.join(PAGES, "big.json");
  fs.writeFileSync(fx, JSON.stringify(data));
  const file = makePage(fx, "big");
  const t0 = Date.now();
  const { page, ctx, log } = await open(file, "#s=4321");
  const tLoad = Date.now() - t0;
  // run the script again on a cleared #browser-app and time it (parse, index, first page, detail)
  const tRun = await page.evaluate(() => {
    const src = [...document.scripts].pop().textContent, app = document.getElementById("browser-app"), t = performance.now();
    app.textContent = "";
    new Function(src)();
    return performance.now() - t;
  });
  eq((await rowsOf(page)).length, 100, "big: 100 rows rendered");
  eq(await selected(page), [4321], "big: #s=4321 selects it");
  eq(await page.$eval("#page-info", (e) => e.textContent), "sentences 4301–4400 of 5000", "big: and shows its page");
  const inPage = (f) => page.evaluate(f);
  const tSort = await inPage(() => { const th = document.querySelector("table.sentences thead th:nth-child(4)"), t = performance.now(); th.click(); th.click(); return (performance.now() - t) / 2; });
  const tRow = await inPage(() => { const tr = document.querySelector('table.sentences tr[data-index]:nth-child(7)'), t = performance.now(); tr.click(); return performance.now() - t; });
  await page.click("#page-next");
  eq(await page.$eval("#page-info", (e) => e.textContent), "sentences 101–200 of 5000", "big: next page");
  await page.click("#page-prev");
  const tFilter = await inPage(() => { const c = document.getElementById("only-errors"), t = performance.now(); c.click(); return performance.now() - t; });
  const ms = (x) => Math.round(x) + " ms";
  console.log(`# big (${(fs.statSync(file).size / 1e6).toFixed(1)} MB page): loaded in ${ms(tLoad)} (script ran ${ms(tRun)}), sort ${ms(tSort)}, filter ${ms(tFilter)}, select a row ${ms(tRow)}`);
  ok(tLoad < 5000 && tRun < 1000 && tSort < 300 && tFilter < 300 && tRow < 300, "big: fast enough");
  ok(log.errors.length === 0, "big: no error", log.errors);
  await page.focus(".table-wrap");
  const before = (await selected(page))[0];
  await page.keyboard.press("ArrowDown");
  ok((await selected(page))[0] !== before, "big: arrow keys move the selection");
  await ctx.close();
}

// ---- narrow window: two systems wrap under each other
{
  const file = path.join(PAGES, "deps-two.html");
  const { page, ctx, log } = await open(file, "#s=2", { width: 700, height: 900 });
  const tops = await page.$$eval("#browser-detail .view", (v) => v.map((e) => e.getBoundingClientRect().top));
  ok(tops.length === 2 && tops[1] > tops[0], "narrow: the second system wraps below the first", tops);
  await shot(page, "deps-two-narrow.png");
  ok(log.errors.length === 0, "narrow: no error", log.errors);
  await ctx.close();
}

await browser.close();
console.log(`# ${passed} passed, ${failed} failed; screenshots in ${SHOTS}`);
process.exit(failed ? 1 : 0);
