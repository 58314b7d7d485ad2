#!/usr/bin/env node
// The layout of treeval's HTML pages in headless Chromium at a 1,280 × 900 window (issue 30,
// point 6): no page wider than the window (document.documentElement.scrollWidth ≤ 1280, with
// JavaScript on and the sentence browser built, and with JavaScript off), every header cell
// of every table has text, every confusion matrix is a heatmap table (a shaded cell per count,
// the count printed in it, the diagonal marked, a caption saying what the shade is).
//
//   node layout.mjs [--list PAGES.txt] [PAGE.html…]   (PAGES.txt: one page a line)
//
// Prints one line per page (width with and without JavaScript, tables, header cells) and every
// failure; exit 1 when a check failed, 2 on a usage error.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, newContext } from './chromium.mjs';

const WIDTH = 1280;
const USAGE = 'usage: node layout.mjs [--list PAGES.txt] [PAGE.html…] (at least one page)';

function pages(argv) {
  const out = [];
  for (let k = 0; k < argv.length; k++) {
    if (argv[k] === '--list') {
      if (k + 1 >= argv.length) usage();
      out.push(...fs.readFileSync(argv[++k], 'utf8').split('\n').filter((l) => l.trim() !== ''));
    } else if (argv[k].startsWith('-')) usage();
    else out.push(argv[k]);
  }
  if (out.length === 0) usage();
  return out;
}

function usage() {
  console.error(USAGE);
  process.exit(2);
}

/** What the page shows: its width, its tables' empty header cells, its matrices. */
function measure() {
  const tables = [...document.querySelectorAll('table')];
  const empty = [];
  let headers = 0;
  tables.forEach((t, k) => {
    for (const th of t.querySelectorAll('th')) {
      headers += 1;
      if (th.textContent.trim() === '') {
        const h = t.querySelector('thead tr')?.textContent.trim().slice(0, 40) ?? '';
        empty.push(`table ${k + 1} (${t.className || t.id || 'no class'}; header "${h}")`);
      }
    }
  });
  const matrices = [...document.querySelectorAll('table.matrix')].map((t) => {
    const cells = [...t.querySelectorAll('tbody td.count')];
    return {
      cells: cells.length,
      numbers: cells.filter((c) => /^\d+$/.test(c.textContent.trim())).length,
      shaded: cells.filter((c) => /--shade/.test(c.getAttribute('style') ?? '') || Number(c.textContent) === 0).length,
      diagonal: t.querySelectorAll('tbody td.count.diagonal').length,
      caption: (t.querySelector('caption')?.textContent ?? '').trim(),
    };
  });
  const wide = [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.scroll-x, .scroll, .table-wrap'))
    .slice(0, 3)
    .map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : ''}`);
  return { width: document.documentElement.scrollWidth, tables: tables.length, headers, empty, matrices, wide };
}

const browser = await launch();
let failed = 0;
try {
  for (const page of pages(process.argv.slice(2))) {
    const url = pathToFileURL(path.resolve(page)).href;
    const name = path.basename(page);
    const fail = (what) => {
      failed += 1;
      console.log(`  FAIL ${name}: ${what}`);
    };
    const seen = {};
    for (const js of [true, false]) {
      const ctx = await newContext(browser, { javaScriptEnabled: js, viewport: { width: WIDTH, height: 900 } });
      const p = await ctx.newPage();
      await p.goto(url, { waitUntil: 'load' });
      if (js && (await p.$('#browser-app'))) {
        await p.waitForSelector('#browser-detail svg', { timeout: 5000 }).catch(() => fail('the sentence browser drew no sentence'));
      }
      seen[js ? 'js' : 'nojs'] = await p.evaluate(measure);
      await ctx.close();
    }
    const m = seen.js;
    console.log(
      `${name.padEnd(24)} width ${m.width} (no JS ${seen.nojs.width}), ${m.tables} tables, ${m.headers} header cells, ${m.matrices.length} matrices`,
    );
    for (const [how, s] of Object.entries(seen)) {
      if (s.width > WIDTH) fail(`${how}: ${s.width} px wide in a ${WIDTH} px window (too wide: ${s.wide.join(', ') || '?'})`);
    }
    for (const e of m.empty) fail(`an empty header cell in ${e}`);
    m.matrices.forEach((x, k) => {
      if (x.cells === 0) fail(`matrix ${k + 1}: no td.count cells`);
      if (x.numbers !== x.cells) fail(`matrix ${k + 1}: ${x.cells - x.numbers} count cells without their count`);
      if (x.shaded !== x.cells) fail(`matrix ${k + 1}: ${x.cells - x.shaded} non-zero cells without a shade`);
      if (x.diagonal === 0) fail(`matrix ${k + 1}: no diagonal cell marked`);
      if (!/shade/.test(x.caption)) fail(`matrix ${k + 1}: no caption saying what the shade is ("${x.caption}")`);
    });
  }
} finally {
  await browser.close();
}
console.log(failed === 0 ? 'layout: every page passed' : `layout: ${failed} failures`);
process.exit(failed === 0 ? 0 : 1);
