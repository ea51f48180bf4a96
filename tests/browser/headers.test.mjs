// The HTTP headers for real hosting, all from scripts/security-headers.mjs: what the test server
// (and scripts/serve.sh) sends, dist/_headers (Netlify / Cloudflare Pages), the nginx snippet
// (run for real when nginx is installed), and that the browser enforces them: the page and the
// docs example work under them, the worker runs under its own CSP, and another origin cannot
// frame the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { DIST, PREFIX, CHROMIUM, ARGS } from './harness.mjs';
import { startServer } from './static-server.mjs';
import { headersFor, netlifyHeaders, nginxConf, drift, generatedDrift, META_CSP, PAGE_HEADERS, WORKER_HEADERS, COMMON_HEADERS, PAGES } from '../../scripts/security-headers.mjs';

const PAGE_CSP = PAGE_HEADERS['Content-Security-Policy'];
const WORKER_CSP = WORKER_HEADERS['Content-Security-Policy'];
// Responses and what they must carry (relative to the site root).
const FILES = {
  '': 'page',
  'index.html': 'page',
  'docs-example.html': 'page',
  'compatibility.html': 'page',
  'rules/index.html': 'page',
  'rules/PAR001.html': 'page',
  'compatibility.js': 'asset',
  'reference.css': 'asset',
  'worker.js': 'worker',
  'widget.js': 'asset',
  'client.js': 'asset',
  'pkg/sglang_preflight.js': 'asset',
  'pkg/sglang_preflight_bg.wasm': 'asset',
};

let server, plain, framer, browser;
before(async () => {
  server = await startServer(DIST, { prefix: PREFIX, securityHeaders: true });
  plain = await startServer(DIST, { prefix: PREFIX });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
});
after(async () => {
  await browser?.close();
  await server?.close();
  await plain?.close();
  await framer?.close();
});

/** The headers of `rel` as the servers of a test see them (lower-case names). */
function expected(rel) {
  return Object.fromEntries(Object.entries(headersFor(rel)).map(([k, v]) => [k.toLowerCase(), v]));
}
const NAMES = [...new Set([...Object.keys(COMMON_HEADERS), ...Object.keys(PAGE_HEADERS), ...Object.keys(WORKER_HEADERS)])].map((h) => h.toLowerCase());
function pick(headers) {
  const out = {};
  for (const n of NAMES) if (headers.get(n) !== null) out[n] = headers.get(n);
  return out;
}

test('the source of truth is in sync: _headers, nginx snippet, the pages\' CSP <meta>', () => {
  assert.deepEqual(drift(), []);
  assert.equal(fs.readFileSync(path.join(DIST, '_headers'), 'utf8'), netlifyHeaders(), 'dist/_headers is stale: npm run build');
  for (const p of PAGES) {
    const html = fs.readFileSync(path.join(DIST, p), 'utf8');
    assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${META_CSP}">`), `dist/${p} meta CSP`);
  }
  // The pages generated into dist/ (rule pages, matrix) carry the same <meta>, and are all listed.
  assert.deepEqual(generatedDrift(DIST), []);
  assert.ok(fs.readFileSync(path.join(DIST, 'rules/PAR001.html'), 'utf8').includes(`<meta http-equiv="Content-Security-Policy" content="${META_CSP}">`));
  // The meta fallback is the page policy minus what only a header can carry.
  assert.equal(`${META_CSP}; frame-ancestors 'none'`, PAGE_CSP);
});

test('the server sends the headers: CSP + frame-ancestors on pages, the worker CSP on worker.js, CORS on the widget', async () => {
  for (const [rel, kind] of Object.entries(FILES)) {
    const r = await fetch(server.url + rel);
    assert.equal(r.status, 200, rel);
    const got = pick(r.headers);
    assert.deepEqual(got, expected(rel === '' ? 'index.html' : rel), rel);
    assert.equal(got['x-content-type-options'], 'nosniff', rel);
    assert.equal(got['referrer-policy'], 'no-referrer', rel);
    assert.equal(got['access-control-allow-origin'], '*', rel);
    if (kind === 'page') {
      assert.match(got['content-security-policy'], /(^|; )frame-ancestors 'none'(;|$)/, rel);
      assert.equal(got['x-frame-options'], 'DENY', rel);
    } else if (kind === 'worker') {
      assert.equal(got['content-security-policy'], WORKER_CSP);
      assert.equal(got['x-frame-options'], undefined);
    } else {
      // The widget's files stay loadable from any origin: no CSP, no framing rule on them.
      assert.equal(got['content-security-policy'], undefined, rel);
      assert.equal(got['x-frame-options'], undefined, rel);
      assert.equal(got['cross-origin-resource-policy'], 'cross-origin', rel);
    }
  }
  // Without the option the server is as it was (the other browser tests use it so).
  const r = await fetch(plain.url);
  assert.deepEqual(pick(r.headers), {});
});

/** The headers a Netlify / Cloudflare Pages host applies to `urlPath` under dist/_headers:
 * every rule whose pattern matches (a * matches anything), values of a repeated name joined by ", ". */
function applyHeadersFile(text, urlPath) {
  const rules = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) rules.push({ pattern: line.trim(), headers: [] });
    else {
      const i = line.indexOf(':');
      rules.at(-1).headers.push([line.slice(0, i).trim(), line.slice(i + 1).trim()]);
    }
  }
  const out = {};
  for (const { pattern, headers } of rules) {
    const re = new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    if (!re.test(urlPath)) continue;
    for (const [k, v] of headers) out[k] = out[k] === undefined ? v : `${out[k]}, ${v}`;
  }
  return out;
}

test('dist/_headers gives every file the same headers as the server (no header set twice)', () => {
  const text = fs.readFileSync(path.join(DIST, '_headers'), 'utf8');
  // Pretty URLs (a page without its .html) included: the hosts serve the page there.
  const pretty = ['docs-example', 'compatibility', 'rules/PAR001'];
  for (const rel of [...Object.keys(FILES), ...pretty, 'render.js', 'styles.css']) {
    const want = headersFor(rel === '' ? 'index.html' : pretty.includes(rel) ? `${rel}.html` : rel);
    assert.deepEqual(applyHeadersFile(text, `/${rel}`), want, `/${rel}`);
  }
});

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((f) => fs.existsSync(f));
// scripts/setup.sh installs nginx, so CI always runs this; a developer machine without it skips.
test('the nginx snippet sends the same headers', { skip: NGINX || process.env.CI ? false : 'nginx is not installed' }, async () => {
  assert.ok(NGINX, 'nginx is not installed (scripts/setup.sh installs it)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'preflight-nginx-'));
  const port = await freePort();
  // The snippet as shipped, pointed at dist/ under the tests' sub-path and a free loopback port.
  const conf = nginxConf()
    .replace('listen 127.0.0.1:8080;', `listen 127.0.0.1:${port};`)
    .replace('location /preflight/ {', `location ${PREFIX} {`)
    .replace('alias /srv/sglang-preflight/dist/;', `alias ${DIST}/;`);
  assert.ok(conf.includes(`alias ${DIST}/;`) && conf.includes(`127.0.0.1:${port}`));
  fs.writeFileSync(path.join(dir, 'preflight.conf'), conf);
  const types = fs.existsSync('/etc/nginx/mime.types') ? 'include /etc/nginx/mime.types;' : '';
  fs.writeFileSync(path.join(dir, 'nginx.conf'), `daemon off; master_process off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events {}
http {
  ${types}
  types { application/wasm wasm; text/javascript js; }
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  include ${dir}/preflight.conf;
}
`);
  const t = spawnSync(NGINX, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { encoding: 'utf8' });
  assert.equal(t.status, 0, t.stderr);
  const proc = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: 'ignore' });
  try {
    const base = `http://127.0.0.1:${port}${PREFIX}`;
    for (let i = 0; ; i++) {
      try {
        await fetch(base);
        break;
      } catch (e) {
        if (i > 50) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    for (const rel of Object.keys(FILES)) {
      const r = await fetch(base + rel);
      assert.equal(r.status, 200, rel);
      assert.deepEqual(pick(r.headers), expected(rel === '' ? 'index.html' : rel), `nginx ${rel}`);
      if (rel.endsWith('.wasm')) assert.equal(r.headers.get('content-type'), 'application/wasm');
    }
  } finally {
    proc.kill();
    await new Promise((r) => (proc.exitCode !== null ? r() : proc.once('exit', r)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

async function newPage() {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const rec = { external: [], errors: [] };
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.hostname !== '127.0.0.1') {
      rec.external.push(u.href);
      return route.abort();
    }
    return route.continue();
  });
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => rec.errors.push(String(e)));
  return { context, page, rec };
}

/** Run in a worker: fetch `url` (another loopback origin); the outcome and any CSP violation. */
async function probe(url) {
  const violations = [];
  self.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
  let result;
  try {
    result = (await fetch(url)).status;
  } catch (e) {
    result = e.name;
  }
  await new Promise((r) => setTimeout(r, 100));
  return { result, violations };
}

test('the page and the docs example work under the headers; the worker runs under its own CSP', async () => {
  const { page, context, rec } = await newPage();
  try {
    const response = await page.goto(server.url);
    assert.equal(response.headers()['content-security-policy'], PAGE_CSP);
    await page.waitForFunction(() => Number(document.body.dataset.renders || 0) >= 1, null, { timeout: 20000 });
    await page.waitForFunction(() => !document.querySelector('#verdict').classList.contains('pending'));
    assert.match(await page.locator('#verdict').textContent(), /SGLang/);
    const workers = page.workers();
    assert.equal(workers.length, 1);
    assert.equal(workers[0].url(), `${server.url}worker.js`);
    // The worker's own CSP (from worker.js's response, not the page's meta) refuses a fetch to
    // another origin (connect-src 'self'); the same worker served without the headers makes it.
    assert.deepEqual(await workers[0].evaluate(probe, `${plain.url}widget.js`), { result: 'TypeError', violations: ['connect-src'] });
    await page.goto(server.url + 'docs-example.html');
    await page.locator('sglang-preflight#bad .verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.match(await page.locator('sglang-preflight#bad .verdict').textContent(), /would reject this/);
    assert.deepEqual({ csp: await page.evaluate(() => window.__cspViolations), errors: rec.errors, external: rec.external }, { csp: [], errors: [], external: [] });
  } finally {
    await context.close();
  }
  const control = await newPage();
  try {
    await control.page.goto(plain.url);
    await control.page.waitForFunction(() => Number(document.body.dataset.renders || 0) >= 1, null, { timeout: 20000 });
    assert.deepEqual(await control.page.workers()[0].evaluate(probe, `${server.url}widget.js`), { result: 200, violations: [] });
  } finally {
    await control.context.close();
  }
});

/** Another loopback origin with a page that frames `url`. */
function startFramer(targets) {
  return new Promise((resolve) => {
    const s = http.createServer((req, res) => {
      const name = new URL(req.url, 'http://x').pathname.slice(1);
      if (!targets[name]) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>framer</title><iframe id="f" src="${targets[name]}" width="800" height="600"></iframe>`);
    });
    s.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${s.address().port}`, close: () => new Promise((r) => { s.closeAllConnections?.(); s.close(() => r()); }) }));
  });
}

test('another origin cannot frame the page (frame-ancestors \'none\'); without the headers it could', async () => {
  const targets = {
    'page': server.url,
    'docs': `${server.url}docs-example.html`,
    'control': plain.url,
  };
  framer = await startFramer(targets);
  for (const [name, target] of Object.entries(targets)) {
    const { page, context } = await newPage();
    const refused = [];
    page.on('console', (m) => {
      if (/frame-ancestors|X-Frame-Options/i.test(m.text())) refused.push(m.text());
    });
    try {
      const log = name === 'control' ? plain.log : server.log;
      const before = log.length;
      await page.goto(`${framer.origin}/${name}`);
      await page.waitForLoadState('load');
      const frame = page.frames().find((f) => f !== page.mainFrame());
      assert.ok(frame);
      if (name === 'control') {
        // The same page without the headers loads and runs in the frame: the test can tell.
        await frame.waitForFunction(() => Number(document.body.dataset.renders || 0) >= 1, null, { timeout: 20000 });
        assert.equal(frame.url(), target);
        continue;
      }
      await page.waitForTimeout(500);
      // The browser fetched the page but would not show it: the frame holds an error page and
      // none of the page's scripts was ever requested.
      const served = log.slice(before);
      assert.ok(served.length >= 1, 'the framed page was requested');
      assert.ok(!served.some((p) => p.endsWith('.js')), `scripts loaded in the frame: ${served.join(' ')}`);
      assert.notEqual(frame.url(), target);
      assert.match(frame.url(), /^chrome-error:|^about:blank/);
      assert.ok(refused.some((t) => /frame-ancestors 'none'/.test(t)), refused.join('\n') || 'no refusal in the console');
    } finally {
      await context.close();
    }
  }
});
