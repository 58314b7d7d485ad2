#!/usr/bin/env node
// A PNG of the top of a page: from the top to the bottom of its first chart (the headline
// table and the first chart), WIDTH px wide (default 1200), for the README.
// Usage: node readme-shot.mjs PAGE.html OUT.png [--width N] [--allow-no-chart]
// Without a chart on the page it fails, unless --allow-no-chart (then: down to the end of the
// headline table).
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { launch, newContext } from './chromium.mjs';

const USAGE = 'usage: node readme-shot.mjs PAGE.html OUT.png [--width N] [--allow-no-chart]';

async function main() {
  const args = process.argv.slice(2);
  let width = 1200;
  let allowNoChart = false;
  const pos = [];
  for (let k = 0; k < args.length; k++) {
    if (args[k] === '--width') width = Number(args[++k]);
    else if (args[k] === '--allow-no-chart') allowNoChart = true;
    else pos.push(args[k]);
  }
  if (pos.length !== 2 || !(width > 0)) throw new Error(USAGE);
  const [file, out] = pos;
  if (!fs.existsSync(file)) throw new Error(`no page at ${file}`);
  const browser = await launch();
  try {
    const ctx = await newContext(browser, { viewport: { width, height: 900 } });
    const errors = [];
    ctx.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    ctx.on('weberror', (e) => errors.push(String(e.error())));
    const page = await ctx.newPage();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    if (errors.length) throw new Error(`the page logs errors: ${errors.join(' | ')}`);
    const chart = page.locator('figure.chart').first();
    let bottom;
    if ((await chart.count()) > 0) {
      const box = await chart.boundingBox();
      bottom = box.y + box.height;
    } else if (allowNoChart) {
      const box = await page.locator('table.report').first().boundingBox();
      if (!box) throw new Error('no table.report on the page');
      bottom = box.y + box.height;
      console.error('readme-shot: no chart on the page yet; the image ends below the headline table');
    } else {
      throw new Error('no figure.chart on the page (pass --allow-no-chart to take the summary only)');
    }
    const height = Math.ceil(bottom + 16);
    await page.setViewportSize({ width, height: Math.max(height, 100) });
    await page.screenshot({ path: out, clip: { x: 0, y: 0, width, height } });
    console.log(`${out}: ${width}×${height} px`);
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(`readme-shot.mjs: ${e.message}`);
  process.exit(1);
});
