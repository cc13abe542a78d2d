// @ts-check
/**
 * Draws the app's PNG icons (the web app manifest's 192 and 512 px, and the maskable one, whose fork sits
 * inside the safe zone) from the SVGs in public/, with Debian's Chromium. Run again after changing an SVG:
 * `node web/scripts/make-icons.cjs`; the PNGs are committed.
 */
'use strict';
const { chromium } = require('playwright-core');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { CHROMIUM_FLAGS, CHROMIUM_PATH } = require('../../libs/testing/src/fixtures');

const PUBLIC = path.join(__dirname, '..', 'public');
const ICONS = [
  ['favicon.svg', 'icon-192.png', 192],
  ['favicon.svg', 'icon-512.png', 512],
  ['icon-maskable.svg', 'icon-maskable-512.png', 512],
];

(async () => {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    for (const [svg, png, size] of ICONS) {
      const page = await browser.newPage({ viewport: { width: Number(size), height: Number(size) } });
      const data = readFileSync(path.join(PUBLIC, String(svg))).toString('base64');
      await page.setContent(
        `<body style="margin:0"><img src="data:image/svg+xml;base64,${data}" width="${size}" height="${size}"></body>`,
      );
      await page.screenshot({ path: path.join(PUBLIC, String(png)), omitBackground: true });
      await page.close();
    }
  } finally {
    await browser.close();
  }
})();
