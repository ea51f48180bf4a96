// Cold load to first diagnostics of two builds, interleaved (A, B, A, B, ...), each load in a
// fresh context: on a 2-core machine single loads vary by ±80 ms, so a change to the page's
// start-up is judged by medians of loads taken side by side, never by two separate bench:web runs.
//   node bench/web/compare.mjs DIST_A DIST_B [LOADS]   (e.g. a copy of dist/ before the change)
// Prints each build's median time to its first report and to its first report with the model
// catalog in (what bench:web's budget 2 measures), and every load's time.
import { chromium } from 'playwright-core';
import { startServer } from '../../tests/browser/static-server.mjs';
import { ARGS, CHROMIUM } from '../../tests/browser/harness.mjs';

const [dirA, dirB, loadsArg] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error('usage: node bench/web/compare.mjs DIST_A DIST_B [LOADS]');
  process.exit(2);
}
const loads = Number(loadsArg || 15);
const builds = [dirA, dirB];
const servers = await Promise.all(builds.map((dir) => startServer(dir, { prefix: '/bench/' })));
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
const times = builds.map(() => ({ first: [], settled: [] }));
try {
  for (let i = 0; i < loads; i++) {
    for (let k = 0; k < builds.length; k++) {
      const context = await browser.newContext();
      // The page's own signals, read from outside (as bench:web does): `data-renders` on <body>
      // once a report is drawn, `data-pending` while the one drawn waits for the model catalog.
      await context.addInitScript(() => {
        window.__compare = {};
        new MutationObserver(() => {
          const body = document.body;
          if (!body || !body.dataset.renders) return;
          window.__compare.first ??= performance.now();
          if (!body.dataset.pending) window.__compare.settled ??= performance.now();
        }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-renders', 'data-pending'] });
      });
      const page = await context.newPage();
      await page.goto(servers[k].url);
      await page.waitForFunction(() => window.__compare.settled !== undefined, null, { timeout: 30000 });
      const t = await page.evaluate(() => window.__compare);
      times[k].first.push(t.first);
      times[k].settled.push(t.settled);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let k = 0; k < builds.length; k++) {
  const { first, settled } = times[k];
  console.log(`${'AB'[k]} ${builds[k]}: first diagnostics median ${median(first).toFixed(1)} ms, with the catalog ${median(settled).toFixed(1)} ms over ${first.length} loads`);
  console.log(`  ${first.map((x) => x.toFixed(0)).join(' ')}`);
}
