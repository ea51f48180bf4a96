// Cold load to first diagnostics of two builds, interleaved (A, B, A, B, ...), each load in a
// fresh context: on a 2-core machine single loads vary by ±80 ms, so a change to the page's
// start-up is judged by medians of loads taken side by side, never by two separate bench:web runs.
//   node bench/web/compare.mjs DIST_A DIST_B [LOADS]   (e.g. a copy of dist/ before the change)
// Prints each build's median time to its first report, to that report painted, and to its first
// report with the model catalog in (what bench:web's budget 2 measures, timed the same way), and
// every load's time to its first report. A change that only moves layout out of the first report's
// task shows in the first figure, not in the second.
import { chromium } from 'playwright-core';
import { startServer } from '../../tests/browser/static-server.mjs';
import { ARGS, CHROMIUM } from '../../tests/browser/harness.mjs';
import { coldLoad, median } from './load-timing.mjs';

const [dirA, dirB, loadsArg] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error('usage: node bench/web/compare.mjs DIST_A DIST_B [LOADS]');
  process.exit(2);
}
const loads = Number(loadsArg || 15);
const builds = [dirA, dirB];
const servers = await Promise.all(builds.map((dir) => startServer(dir, { prefix: '/bench/' })));
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
const times = builds.map(() => ({ first: [], painted: [], settled: [] }));
try {
  for (let i = 0; i < loads; i++) {
    for (let k = 0; k < builds.length; k++) {
      const t = await coldLoad(browser, servers[k].url);
      times[k].first.push(t.first);
      times[k].painted.push(t.painted);
      times[k].settled.push(t.settled);
    }
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
for (let k = 0; k < builds.length; k++) {
  const { first, painted, settled } = times[k];
  console.log(`${'AB'[k]} ${builds[k]}: first diagnostics median ${median(first).toFixed(1)} ms, painted ${median(painted).toFixed(1)} ms, with the catalog ${median(settled).toFixed(1)} ms over ${first.length} loads`);
  console.log(`  ${first.map((x) => x.toFixed(0)).join(' ')}`);
}
