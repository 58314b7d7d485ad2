// Launching Debian's Chromium through playwright-core: playwright starts it on a fresh
// temporary user-data-dir (--user-data-dir=/tmp/playwright_chromiumdev_profile-…, removed
// when it closes); check.mjs opens every page in new contexts of it.
import fs from 'node:fs';
import { chromium } from 'playwright-core';

export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium binary: $CHROMIUM, else /usr/bin/chromium; a clear error when missing. */
export function executable() {
  const exe = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(exe)) {
    throw new Error(
      `no Chromium at ${exe}: install Debian's package (apt-get install --no-install-recommends chromium) or set CHROMIUM=/path/to/chromium`,
    );
  }
  return exe;
}

/** The browser (headless, ARGS, a fresh profile). */
export function launch() {
  return chromium.launch({ executablePath: executable(), headless: true, args: ARGS, timeout: 60_000 });
}

/** A new context of `browser`; options: javaScriptEnabled (default true), viewport (1280×900). */
export function newContext(browser, { javaScriptEnabled = true, viewport = { width: 1280, height: 900 } } = {}) {
  return browser.newContext({ javaScriptEnabled, viewport, deviceScaleFactor: 1 });
}
