// The docs widget loaded cross-origin, as a docs site does: the host page on one origin
// (http://127.0.0.1:P1) with a strict CSP of its own, the widget's files on another
// (http://localhost:P2, served with the headers of scripts/security-headers.mjs, which include
// Access-Control-Allow-Origin: *). A Worker cannot be constructed from a cross-origin URL, so
// the widget starts its worker from a same-origin blob: that imports the real worker.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { chromium } from 'playwright-core';
import { DIST, CHROMIUM, ARGS } from './harness.mjs';
import { startServer } from './static-server.mjs';

const WIDGET_PREFIX = '/cdn/preflight/';
const BAD = 'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool';
const GOOD = 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp-size 2 --port 30000';

/** The CSP docs/hosting.md tells a host page to add for a widget served from `widgetOrigin`.
 * worker-src names the widget's origin as well as blob:: the modules a module worker imports
 * are fetched as worker scripts, so worker-src (not script-src) governs them. */
export function hostCsp(widgetOrigin, { workerSrc = `blob: ${widgetOrigin}` } = {}) {
  return [
    "default-src 'none'",
    `script-src 'self' ${widgetOrigin} 'wasm-unsafe-eval'`,
    `worker-src ${workerSrc}`,
    `connect-src ${widgetOrigin}`,
    "style-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function hostPage(widgetUrl) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Some docs site</title>
<script type="module" src="${widgetUrl}"></script>
</head><body>
<h1>Docs on another origin</h1>
<sglang-preflight id="bad" gpu="h100" command="${BAD}"></sglang-preflight>
<sglang-preflight id="good" gpu="h100" gpus="2">${GOOD}</sglang-preflight>
</body></html>`;
}

/** The docs site: /docs/<name>.html from `pages` (name -> { html, csp }), on 127.0.0.1. */
function startHost(pages) {
  const log = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    log.push(url.pathname);
    const m = /^\/docs\/([a-z-]+)\.html$/.exec(url.pathname);
    const page = m && pages[m[1]];
    if (!page) return res.writeHead(404).end('not found');
    const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' };
    if (page.csp) headers['content-security-policy'] = page.csp;
    res.writeHead(200, headers).end(page.html);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${server.address().port}`;
      resolve({ origin, log, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }) });
    });
  });
}

let widget, widgetOrigin, widgetBase, host, browser;
const pages = {};
before(async () => {
  widget = await startServer(DIST, { prefix: WIDGET_PREFIX, securityHeaders: true });
  // Another host name as well as another port: cross-site, not only cross-origin.
  widgetOrigin = `http://localhost:${widget.port}`;
  widgetBase = `${widgetOrigin}${WIDGET_PREFIX}`;
  host = await startHost(pages);
  assert.notEqual(host.origin, widgetOrigin);
  pages.strict = { html: hostPage(`${widgetBase}widget.js`), csp: hostCsp(widgetOrigin) };
  pages['no-blob'] = { html: hostPage(`${widgetBase}widget.js`), csp: hostCsp(widgetOrigin, { workerSrc: `'self' ${widgetOrigin}` }) };
  pages.plain = { html: '<!doctype html><title>x</title><p>x</p>', csp: null };
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
});
after(async () => {
  await browser?.close();
  await widget?.close();
  await host?.close();
});

/** A context that lets through only the two loopback origins and records everything else. */
async function newPage() {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const rec = { requests: [], external: [], errors: [] };
  const allowed = new Set([host.origin, widgetOrigin]);
  const isAllowed = (u) => u.startsWith('blob:') || u.startsWith('data:') || allowed.has(new URL(u).origin);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    rec.requests.push(url);
    if (!isAllowed(url)) {
      rec.external.push(url);
      return route.abort();
    }
    return route.continue();
  });
  context.on('request', (r) => {
    if (!rec.requests.includes(r.url())) rec.requests.push(r.url());
    if (!isAllowed(r.url()) && !rec.external.includes(r.url())) rec.external.push(r.url());
  });
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => rec.errors.push(String(e)));
  return { context, page, rec };
}

test('a Worker cannot be constructed from the widget\'s cross-origin URL (why the widget uses a blob:)', async () => {
  const { page, context } = await newPage();
  try {
    await page.goto(`${host.origin}/docs/plain.html`);
    const name = await page.evaluate((u) => {
      try {
        new Worker(u, { type: 'module' });
        return 'constructed';
      } catch (e) {
        return e.name;
      }
    }, `${widgetBase}worker.js`);
    assert.equal(name, 'SecurityError');
  } finally {
    await context.close();
  }
});

test('the widget served from another origin checks commands on a host page with a strict CSP', async () => {
  const { page, context, rec } = await newPage();
  try {
    await page.goto(`${host.origin}/docs/strict.html`);
    const bad = page.locator('sglang-preflight#bad');
    const good = page.locator('sglang-preflight#good');
    await bad.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    await good.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    // The same verdicts and SGLang's exact message as on the same-origin docs example.
    assert.match(await bad.locator('.verdict').textContent(), /^SGLang 0\.5\.23 on 8×H100\S* .*would reject this/);
    assert.ok((await bad.locator('.message').allTextContents()).includes('--disaggregation-decode-retraction-backup=host_pool does not support --dcp-size > 1.'));
    assert.equal(await good.locator('pre.cmd').textContent(), GOOD);
    assert.match(await good.locator('.verdict').textContent(), /^SGLang 0\.5\.23 on 2×H100\S* .*would accept this/);
    // The full-checker link points at the widget's origin.
    assert.ok((await bad.locator('.foot a').getAttribute('href')).startsWith(`${widgetBase}index.html#`));
    // A re-check through the same worker.
    await page.evaluate(() => document.querySelector('#good').setAttribute('command', 'python -m sglang.launch_server --tp 2'));
    await good.locator('pre.cmd', { hasText: /^python -m sglang.launch_server --tp 2$/ }).waitFor();
    await good.locator('.verdict:not(.pending)').waitFor();
    // One worker for both widgets, started from a blob: of the host page's origin.
    const workers = page.workers().map((w) => w.url());
    assert.equal(workers.length, 1, workers.join());
    assert.ok(workers[0].startsWith(`blob:${host.origin}/`), workers[0]);
    // The worker module (the wasm glue is bundled into it) and the wasm came from the widget's origin (CORS).
    for (const f of ['widget.js', 'client.js', 'worker.js', 'pkg/sglang_preflight_bg.wasm']) {
      assert.ok(rec.requests.includes(`${widgetBase}${f}`), `requested ${f}`);
    }
    assert.ok(!rec.requests.includes(`${widgetBase}pkg/sglang_preflight.js`), 'the worker carries the glue: no request of its own');
    assert.ok(widget.log.includes(`${WIDGET_PREFIX}pkg/sglang_preflight_bg.wasm`));
    // The host served only its page (and, whenever Chromium gets to it, the browser's own
    // /favicon.ico request for an icon-less page: not the widget's).
    assert.deepEqual(host.log.filter((p) => p !== '/docs/plain.html' && p !== '/favicon.ico'), ['/docs/strict.html']);
    const csp = await page.evaluate(() => window.__cspViolations);
    assert.deepEqual({ csp, errors: rec.errors, external: rec.external }, { csp: [], errors: [], external: [] });
  } finally {
    await context.close();
  }
});

test('a host page whose CSP does not allow worker-src blob: gets a message, not a spinner', async () => {
  const { page, context, rec } = await newPage();
  try {
    await page.goto(`${host.origin}/docs/no-blob.html`);
    // The widget says it has no verdict (the wording is widget.js's) instead of "Checking…".
    await page.waitForFunction(() => /^No verdict|^Could not check/.test(document.querySelector('#bad').shadowRoot.querySelector('.verdict').textContent), null, { timeout: 20000 });
    const csp = await page.evaluate(() => window.__cspViolations);
    assert.ok(csp.length > 0 && csp.every((v) => v === 'worker-src blob'), csp.join('\n'));
    // It gave up: no worker is left running or being restarted.
    await page.waitForTimeout(500);
    const n = (await page.evaluate(() => window.__cspViolations)).length;
    await page.waitForTimeout(1000);
    assert.equal((await page.evaluate(() => window.__cspViolations)).length, n, 'the widget keeps starting workers');
    assert.deepEqual(rec.external, []);
  } finally {
    await context.close();
  }
});

test('a replacement checker (after a crash) starts from the same blob: and checks', async () => {
  const { page, context, rec } = await newPage();
  // Keep a handle on the page's workers, to make the checker look crashed from outside.
  await context.addInitScript(() => {
    const Real = window.Worker;
    const started = [];
    Object.defineProperty(window, '__started', { value: started });
    window.Worker = class extends Real {
      constructor(url, options) {
        super(url, options);
        started.push({ url: String(url), worker: this });
      }
    };
  });
  try {
    await page.goto(`${host.origin}/docs/strict.html`);
    await page.locator('sglang-preflight#good .verdict:not(.pending)').waitFor({ timeout: 20000 });
    await page.evaluate(() => window.__started[0].worker.dispatchEvent(new ErrorEvent('error', { message: 'test crash' })));
    await page.waitForFunction(() => window.__started.length === 2);
    await page.evaluate(() => document.querySelector('#good').setAttribute('command', 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2 --port 30001'));
    const good = page.locator('sglang-preflight#good');
    await good.locator('pre.cmd', { hasText: /--port 30001$/ }).waitFor();
    await good.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.match(await good.locator('.verdict').textContent(), /^SGLang 0\.5\.23 on 2×H100\S* .*would accept this/);
    const urls = await page.evaluate(() => window.__started.map((s) => s.url));
    assert.equal(urls.length, 2);
    assert.equal(urls[1], urls[0]);
    assert.ok(urls[0].startsWith(`blob:${host.origin}/`), urls[0]);
    const csp = await page.evaluate(() => window.__cspViolations);
    assert.deepEqual({ csp, errors: rec.errors, external: rec.external }, { csp: [], errors: [], external: [] });
  } finally {
    await context.close();
  }
});
