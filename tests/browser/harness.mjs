// Shared set-up for the browser tests: serve dist/ on 127.0.0.1 under a sub-path (so relative
// URLs are proven) and drive the Debian chromium with playwright-core.
import { chromium } from 'playwright-core';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from './static-server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DIST = path.resolve(here, '../../dist');
export const PREFIX = '/some/docs/sub-path/preflight/';
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// Test-only modules (tests/browser/entry/), served next to the page under this sub-path by the
// test server only; dist/ never holds them.
export const TEST_ENTRY_PATH = '__test__/';
const TEST_ENTRY_DIR = path.join(here, 'entry');

export const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launch() {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new Error('dist/ is missing: run `npm run build` first');
  const server = await startServer(DIST, { prefix: PREFIX, extra: { [TEST_ENTRY_PATH]: TEST_ENTRY_DIR } });
  // playwright gives every launch a fresh temporary --user-data-dir.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * A fresh context and page that records: every request (page and workers), page errors,
 * CSP violations, dialogs. Requests to anything but the local server are blocked.
 */
export async function newPage(env) {
  const context = await env.browser.newContext({ serviceWorkers: 'block' });
  const rec = { requests: [], external: [], errors: [], dialogs: [], consoleErrors: [] };
  await context.route('**/*', (route) => {
    const url = route.request().url();
    rec.requests.push({ url, at: Date.now() });
    if (!url.startsWith(env.server.origin + '/')) {
      rec.external.push(url);
      return route.abort();
    }
    return route.continue();
  });
  context.on('request', (r) => {
    // Requests the router does not see (e.g. from workers in some versions) are recorded too.
    if (!rec.requests.some((x) => x.url === r.url())) rec.requests.push({ url: r.url(), at: Date.now() });
    if (!r.url().startsWith(env.server.origin + '/') && !r.url().startsWith('data:') && !rec.external.includes(r.url())) rec.external.push(r.url());
  });
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => rec.errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') rec.consoleErrors.push(m.text());
  });
  page.on('dialog', (d) => {
    rec.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  return { context, page, rec };
}

/** Wait until the page has rendered at least `n` reports, the last one not waiting for the model catalog. */
export async function renders(page, n = 1) {
  await page.waitForFunction((k) => Number(document.body.dataset.renders || 0) >= k && !document.body.dataset.pending, n, { timeout: 20000 });
  return page.evaluate(() => Number(document.body.dataset.renders || 0));
}

/** Replace the command text (as a paste would) and wait for the report of exactly that text. */
export async function pasteCommand(page, text) {
  const before = await page.evaluate(() => Number(document.body.dataset.renders || 0));
  await page.locator('#command').fill(text);
  await renders(page, before + 1);
  await page.waitForFunction(() => !document.querySelector('#verdict').classList.contains('pending'));
}

export function hashUrl(env, params, file = '') {
  return `${env.server.url}${file}#${new URLSearchParams(params)}`;
}

export async function cleanState(page, rec) {
  const csp = await page.evaluate(() => window.__cspViolations);
  return { csp, errors: rec.errors, external: rec.external, dialogs: rec.dialogs };
}

/**
 * Make the page's checker worker hang on demand, as a runaway check would, without any hook in
 * the page: before the page's scripts run, `Worker` is wrapped so the checker is started from
 * the test-only entry/hang-worker.js (the real worker plus a spin on a marked message), and
 * `window.__testWorkers.hangNextCheck()` marks the next check (`overflowNextCheck()`: the next
 * check overflows the stack). `__testWorkers.started` counts checker workers (the first one,
 * plus one per restart).
 */
export async function installHangableWorker(context) {
  await context.addInitScript((entryPath) => {
    const Real = window.Worker;
    const state = {
      started: 0,
      hangNext: false,
      overflowNext: false,
      hangNextCheck() {
        state.hangNext = true;
      },
      overflowNextCheck() {
        state.overflowNext = true;
      },
    };
    Object.defineProperty(window, '__testWorkers', { value: state });
    window.Worker = class extends Real {
      constructor(url, options) {
        const u = new URL(url, location.href);
        if (u.pathname.endsWith('/worker.js')) {
          u.pathname = u.pathname.replace(/worker\.js$/, `${entryPath}hang-worker.js`);
          state.started++;
        }
        super(u, options);
      }
      postMessage(message, ...rest) {
        if (state.hangNext && message && message.op === 'check') {
          state.hangNext = false;
          message = { ...message, testHang: true };
        } else if (state.overflowNext && message && message.op === 'check') {
          state.overflowNext = false;
          message = { ...message, testOverflow: true };
        }
        return super.postMessage(message, ...rest);
      }
    };
  }, TEST_ENTRY_PATH);
}

/**
 * Record the page's long tasks (PerformanceObserver 'longtask', from before its scripts run):
 * `longTasks(page)` gives their durations in ms.
 */
export async function recordLongTasks(context) {
  await context.addInitScript(() => {
    const tasks = [];
    Object.defineProperty(window, '__longTasks', { value: tasks });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) tasks.push(Math.round(e.duration));
    }).observe({ type: 'longtask', buffered: true });
  });
}

export function longTasks(page) {
  return page.evaluate(() => [...window.__longTasks]);
}

/** Counts the requests for the wasm (page and workers): `counter.n`. */
export function countWasmFetches(context) {
  const counter = { n: 0 };
  context.on('request', (r) => {
    if (new URL(r.url()).pathname.endsWith('.wasm')) counter.n++;
  });
  return counter;
}
