// Offline after the first visit (issue 14.10): sw.js, registered by the page, precaches the
// build's files (list and hashes written by scripts/build-web.sh) under its scope (the page's
// sub-path), serves them cache-first, and a new build replaces the old cache. Served with the
// real headers (scripts/security-headers.mjs). These contexts allow service workers (harness's
// newPage blocks them) and use no request routing (Playwright routes bypass service workers).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { chromium } from 'playwright-core';
import { DIST, PREFIX, CHROMIUM, ARGS, renders, pasteCommand } from './harness.mjs';
import { startServer } from './static-server.mjs';
import { SW_HEADERS } from '../../scripts/security-headers.mjs';

const DCP_CMD =
  'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool';
const DCP_MSG = '--disaggregation-decode-retraction-backup=host_pool does not support --dcp-size > 1.';

/** The manifest build-web.sh wrote into a dist/sw.js. */
function manifestOf(dir) {
  const src = fs.readFileSync(path.join(dir, 'sw.js'), 'utf8');
  const m = src.match(/const BUILD = (\{[^]*?\n\});/);
  assert.ok(m, 'dist/sw.js holds no build manifest: run npm run build');
  return JSON.parse(m[1]);
}

let browser;
const servers = [];
before(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
});
after(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
});

async function serve(root) {
  const s = await startServer(root, { prefix: PREFIX, securityHeaders: true });
  servers.push(s);
  return s;
}

/** A context with service workers allowed, recording errors, CSP violations, outside requests. */
async function swContext(server) {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const rec = { errors: [], external: [], fromSw: [] };
  context.on('request', (r) => {
    if (!r.url().startsWith(server.origin + '/')) rec.external.push(r.url());
  });
  context.on('response', (r) => {
    if (r.fromServiceWorker()) rec.fromSw.push(r.url());
  });
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => rec.errors.push(String(e)));
  return { context, page, rec };
}

/** Wait until the page is controlled by an active sw.js whose install (the precache) finished. */
async function controlled(page) {
  // `ready` never settles when the install fails (a precache entry whose hash is stale in dist/sw.js
  // is refused): watch the installing worker, so such a run fails with the reason instead of hanging.
  const outcome = await page.evaluate(() => Promise.race([
    navigator.serviceWorker.ready.then(() => 'ready'),
    new Promise((resolve) => setTimeout(() => resolve('no active service worker after 20 s (did its install fail? is dist/sw.js built from the current files?)'), 20000)),
    (async () => {
      for (;;) {
        const reg = await navigator.serviceWorker.getRegistration();
        const worker = reg?.installing;
        if (worker) {
          return new Promise((resolve) => worker.addEventListener('statechange', () => {
            if (worker.state === 'redundant') resolve('the service worker\'s install failed (is dist/sw.js built from the current files?)');
          }));
        }
        if (reg?.active) return new Promise(() => {}); // installed: `ready` settles the race
        await new Promise((r) => setTimeout(r, 50));
      }
    })(),
  ]));
  assert.equal(outcome, 'ready');
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 20000 });
  return page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    const names = await caches.keys();
    const entries = {};
    for (const n of names) entries[n] = (await (await caches.open(n)).keys()).map((r) => r.url).sort();
    return { scope: reg.scope, script: reg.active.scriptURL, names, entries };
  });
}

/** Wait until the service worker has stored url (polled in the page; a rejected wait fails the test). */
async function cached(page, url) {
  const found = await page.evaluate(async (u) => {
    for (let i = 0; i < 200; i++) {
      if (await caches.match(u)) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  }, url);
  assert.ok(found, `not stored by the service worker within 10 s: ${url}`);
}

test('after one visit the page works offline: precached from the build\'s list, wasm from the cache, SGLang\'s exact message', async () => {
  const server = await serve(DIST);
  const manifest = manifestOf(DIST);
  const { context, page, rec } = await swContext(server);
  try {
    // The service worker is registered once the first complete report is shown, not while the
    // checker starts (its precache would compete with the first check for the CPU).
    await context.addInitScript(() => {
      window.__swRegisteredAt = [];
      const register = ServiceWorkerContainer.prototype.register;
      ServiceWorkerContainer.prototype.register = function (...args) {
        window.__swRegisteredAt.push({ renders: document.body?.dataset.renders ?? null, pending: document.body?.dataset.pending ?? null });
        return register.apply(this, args);
      };
    });
    await page.goto(server.url);
    await renders(page, 1);
    const sw = await controlled(page);
    const registeredAt = await page.evaluate(() => window.__swRegisteredAt);
    assert.equal(registeredAt.length, 1, 'registered once');
    assert.ok(Number(registeredAt[0].renders) >= 1 && registeredAt[0].pending === null, `registered after the first complete report: ${JSON.stringify(registeredAt)}`);
    assert.equal(sw.scope, server.url, 'scope: the page\'s directory (a sub-path)');
    assert.equal(sw.script, `${server.url}sw.js`);
    // One cache, of this build, holding exactly the build's files (all under the scope, this origin).
    const cacheName = `sglang-preflight ${server.url} ${manifest.version}`;
    assert.deepEqual(sw.names, [cacheName]);
    // (and the model catalog, not precached: stored once the page, controlled, asked for it because
    // the example names a model)
    await cached(page, `${server.url}models/catalog.json`);
    const expected = [...Object.keys(manifest.files), 'models/catalog.json'].map((f) => server.url + f).sort();
    assert.deepEqual((await controlled(page)).entries[cacheName], expected);
    for (const f of ['index.html', 'app.js', 'boot.js', 'client.js', 'render.js', 'worker.js', 'styles.css', 'docs-example.html', 'favicon.svg', 'pkg/sglang_preflight.js', 'pkg/sglang_preflight_bg.wasm', 'rules/explanations/KV.json'])
      assert.ok(f in manifest.files, `precached: ${f}`);

    // The normal load asked for nothing that is not there: the favicon is served, no /favicon.ico.
    await page.waitForLoadState('networkidle');
    assert.deepEqual(server.responses.filter((r) => r.status !== 200), [], 'requests that did not answer 200');
    assert.ok(server.log.includes(`${PREFIX}favicon.svg`), `favicon requested: ${server.log.join(' ')}`);
    assert.ok(!server.log.some((p) => p.endsWith('favicon.ico')));

    // sw.js is served with its own CSP and no-cache.
    const h = (await fetch(`${server.url}sw.js`)).headers;
    assert.equal(h.get('content-security-policy'), SW_HEADERS['Content-Security-Policy']);
    assert.equal(h.get('cache-control'), 'no-cache');

    // Offline: the reload, the modules, the worker and the wasm all come from the cache.
    const served = server.log.length;
    await context.setOffline(true);
    rec.fromSw.length = 0;
    await page.reload();
    await renders(page, 1);
    await page.waitForFunction(() => !document.querySelector('#verdict').classList.contains('pending'));
    assert.match(await page.locator('#verdict').textContent(), /^SGLang 0\.5\.23 on \S+/);
    await pasteCommand(page, DCP_CMD);
    await page.locator('#cards article.card', { hasText: DCP_MSG }).first().waitFor({ timeout: 5000 });
    assert.ok((await page.locator('#cards .message').allTextContents()).includes(DCP_MSG));
    // Its rule's explanation too (rules/explanations/KV.json, precached).
    const texts = JSON.parse(fs.readFileSync(path.join(DIST, 'rules/explanations/KV.json'), 'utf8'));
    await page.locator('#cards article.card', { hasText: DCP_MSG }).first().locator('.explanation', { hasText: texts.KV029 }).waitFor({ timeout: 5000 });
    assert.match(await page.locator('#verdict').textContent(), /would reject this: \d+ errors?/);
    // The model catalog, fetched on the first visit when the example named a model, is cached too.
    await page.locator('#models li', { hasText: 'from the built-in catalog' }).first().waitFor({ timeout: 5000 });
    assert.match((await page.locator('#models li').allTextContents()).join(' '), /^model: Llama-3\.1-8B-Instruct — LlamaForCausalLM — from the built-in catalog$/);
    for (const f of ['', 'app.js', 'boot.js', 'worker.js', 'styles.css']) assert.ok(rec.fromSw.includes(server.url + f), `${f || 'the page'} from the service worker: ${rec.fromSw.join(' ')}`);
    assert.equal(server.log.length, served, `requests reached the server while offline: ${server.log.slice(served).join(' ')}`);

    // The docs example too (same scope, precached).
    await page.goto(`${server.url}docs-example.html`);
    await page.locator('sglang-preflight#bad .verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.match(await page.locator('sglang-preflight#bad .verdict').textContent(), /would reject this/);
    assert.equal(server.log.length, served);
    assert.deepEqual({ csp: await page.evaluate(() => window.__cspViolations), errors: rec.errors, external: rec.external }, { csp: [], errors: [], external: [] });
  } finally {
    await context.close();
  }
});

test('the service worker answers only for its own files: outside its scope and unknown paths go to the network, and nothing more is cached', async () => {
  const server = await serve(DIST);
  const { context, page, rec } = await swContext(server);
  try {
    await page.goto(server.url);
    await renders(page, 1);
    // The example names a model: the page, once controlled, stores the catalog. Wait for that
    // first, so only the probes below could grow the cache.
    await cached(page, `${server.url}models/catalog.json`);
    const before = await controlled(page);
    const probe = (u) =>
      page.evaluate(async (url) => {
        try {
          const r = await fetch(url);
          return r.status;
        } catch (e) {
          return e.name;
        }
      }, u);
    const outside = `${server.origin}/some/docs/sub-path/elsewhere.js`; // the parent directory: not in scope
    const unknown = `${server.url}not-in-the-build.js`;
    rec.fromSw.length = 0;
    assert.equal(await probe(outside), 404);
    assert.equal(await probe(unknown), 404);
    assert.ok(server.log.includes('/some/docs/sub-path/elsewhere.js') && server.log.includes(`${PREFIX}not-in-the-build.js`));
    assert.deepEqual(rec.fromSw.filter((u) => u === outside || u === unknown), [], 'answered by the service worker');
    // Offline they fail as they would without a service worker; the precached files still load.
    await context.setOffline(true);
    assert.equal(await probe(outside), 'TypeError');
    assert.equal(await probe(unknown), 'TypeError');
    assert.equal(await probe(`${server.url}widget.js`), 200);
    const after = await controlled(page);
    assert.deepEqual(after.entries, before.entries, 'the cache did not grow');
    assert.deepEqual(rec.errors, []);
  } finally {
    await context.close();
  }
});

test('a new build replaces the cache: the next sw.js installs its files and deletes the last build\'s cache', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'preflight-sw-'));
  fs.cpSync(DIST, dir, { recursive: true });
  const server = await serve(dir);
  const old = manifestOf(dir);
  const { context, page, rec } = await swContext(server);
  try {
    await page.goto(server.url);
    await renders(page, 1);
    assert.deepEqual((await controlled(page)).names, [`sglang-preflight ${server.url} ${old.version}`]);

    // "Deploy" a new build: a changed index.html, and the sw.js build-web.sh would write for it.
    const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8').replace('<main>', '<main data-build="next">');
    fs.writeFileSync(path.join(dir, 'index.html'), html);
    const files = { ...old.files, 'index.html': `sha256-${crypto.createHash('sha256').update(html).digest('base64')}` };
    const next = { version: 'next-build', files };
    const src = fs.readFileSync(path.join(dir, 'sw.js'), 'utf8').replace(/const BUILD = \{[^]*?\n\};/, () => `const BUILD = ${JSON.stringify(next, null, 2)};`);
    fs.writeFileSync(path.join(dir, 'sw.js'), src);

    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    const nextCache = `sglang-preflight ${server.url} next-build`;
    // Activated: only the new build's cache is left, and it holds all of the new build's files.
    const cached = await page.evaluate(async (name) => {
      for (let i = 0; i < 200; i++) {
        const reg = await navigator.serviceWorker.getRegistration();
        const keys = await caches.keys();
        if (!reg.installing && !reg.waiting && reg.active.state === 'activated' && keys.join() === name)
          return { keys, files: (await (await caches.open(name)).keys()).length, controller: navigator.serviceWorker.controller.scriptURL };
        await new Promise((r) => setTimeout(r, 100));
      }
      return { keys: await caches.keys() };
    }, nextCache);
    assert.deepEqual(cached, { keys: [nextCache], files: Object.keys(files).length, controller: `${server.url}sw.js` });
    await context.setOffline(true);
    await page.reload();
    await renders(page, 1);
    assert.equal(await page.locator('main').getAttribute('data-build'), 'next', 'the new build\'s page, offline');
    assert.deepEqual(rec.errors, []);
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
