// Checking against any SGLang release with data (issue 12): the wasm carries the newest; another
// release's flags are fetched when asked for (releases/<version>.json next to the worker), once,
// and nothing else is. The page's picker, its permalink, a release named in the text, the widget,
// and (with the service worker) offline after one use. Verdicts and messages are SGLang's, taken
// from the recorded fixtures of both releases.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { launch, newPage, renders, pasteCommand, cleanState, DIST, PREFIX, CHROMIUM, ARGS } from './harness.mjs';
import { startServer } from './static-server.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.resolve(here, '../fixtures');

/** The recorded case `id` of `release` (from its argparse fixtures, or those of `file`). */
function fixture(release, id, file = 'argparse.jsonl') {
  for (const line of fs.readFileSync(path.join(FIXTURES, release, file), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    if (c.id === id) return { cmd: c.cmd, verdict: c.commands[0].verdict, stage: c.commands[0].stage, message: c.commands[0].message };
  }
  throw new Error(`no fixture ${id} for ${release}`);
}

// A flag 0.5.18 has and 0.5.23 removed, and one 0.5.23 added.
const OLD_FLAG = 'unknown-mamba-scheduler-strategy';
const NEW_FLAG = 'ARG002-near---enable-w4a4-mxfp4-megamoe';
// A command 0.5.18's parser accepts and its start-up checks reject (stage "resolve"): the page
// checks 0.5.18 at every stage, as the CLI does, from its release file's check data.
const LATER = () => fixture('0.5.18', 'sweep-2-388', 'random_sweep.jsonl');

/** The releases/ files the server was asked for since its log had `from` entries (pages and workers). */
const releaseFiles = (from) => env.server.log.slice(from).filter((p) => p.includes('/releases/'));

const verdictText = (page) => page.locator('#verdict').textContent();

/** Pick `v` in the page's release picker and wait for the report checked against it. */
async function pick(page, v) {
  const before = await page.evaluate(() => Number(document.body.dataset.renders || 0));
  await page.locator('#version').selectOption(v);
  await renders(page, before + 1);
  await page.waitForFunction((v) => document.querySelector('#verdict').textContent.startsWith(`SGLang ${v}`), v);
}

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

test('the fixtures hold the cases: each release rejects the other\'s flag; 0.5.18 rejects one after parsing', () => {
  const later = LATER();
  assert.deepEqual([later.verdict, later.stage], ['error', 'resolve']);
  assert.equal(later.message, '--swa-full-tokens-ratio should be in range (0, 1.0].');
  const old18 = fixture('0.5.18', OLD_FLAG);
  const old23 = fixture('0.5.23', OLD_FLAG);
  assert.equal(old18.cmd, old23.cmd);
  assert.deepEqual([old18.verdict, old23.verdict], ['ok', 'error']);
  assert.match(old23.message, /^unrecognized arguments: --mamba-scheduler-strategy /);
  const new18 = fixture('0.5.18', NEW_FLAG);
  const new23 = fixture('0.5.23', NEW_FLAG);
  assert.equal(new18.cmd, new23.cmd);
  assert.deepEqual([new18.verdict, new23.verdict], ['error', 'ok']);
  assert.match(new18.message, /^unrecognized arguments: --enable-w4a4-mxfp4-megamoe/);
});

test('dist/releases/ holds every release but the newest, each its data/ schema with the whitespace dropped and the help texts that are the newest\'s left out, and the check data of one whose checks are modelled', () => {
  const data = path.resolve(here, '../../data');
  const releases = fs.readdirSync(path.join(DIST, 'releases')).sort();
  assert.deepEqual(releases, ['0.5.18.json', '0.5.19.json', '0.5.20.json', '0.5.21.json', '0.5.22.json']);
  // The newest's text of a dest: that of its first action with the dest (as the core inherits it).
  const newest = JSON.parse(fs.readFileSync(path.join(data, 'sglang-0.5.23', 'schema.json'), 'utf8'));
  const newestHelp = new Map();
  for (const a of newest.actions) if (!newestHelp.has(a.dest)) newestHelp.set(a.dest, a.help ?? null);
  for (const f of releases) {
    const shipped = fs.readFileSync(path.join(DIST, 'releases', f), 'utf8');
    const source = fs.readFileSync(path.join(data, `sglang-${f.replace(/\.json$/, '')}`, 'schema.json'), 'utf8');
    const expected = JSON.parse(source);
    let left = 0;
    let kept = 0;
    for (const a of expected.actions) {
      if (newestHelp.has(a.dest) && newestHelp.get(a.dest) === (a.help ?? null)) {
        delete a.help;
        left++;
      } else kept++;
    }
    // A release whose start-up checks are modelled (its status.json does not say parser-only)
    // also carries their data, as the native build compiles it in (`sglang-preflight
    // release-checks`, which scripts/build-web.sh kept next to the wasm).
    const v = f.replace(/\.json$/, '');
    const status = path.join(data, `sglang-${v}`, 'status.json');
    const modelled = !(fs.existsSync(status) && JSON.parse(fs.readFileSync(status, 'utf8')).checks === 'parser-only');
    const compiled = JSON.parse(fs.readFileSync(path.resolve(DIST, '../target/wasm-pkg/release-checks.json'), 'utf8'))[v];
    assert.equal(Boolean(compiled), modelled, `${f}: check data ${modelled ? 'missing' : 'for a parser-only release'}`);
    if (modelled) {
      expected.checks = compiled;
      assert.ok(compiled.raise_sites.length > 100 && compiled.pipeline.length > 10, f);
    }
    assert.deepEqual(JSON.parse(shipped), expected, f);
    assert.ok(left > 300 && kept > 10, `${f}: ${left} help texts left out, ${kept} kept`);
    assert.ok(!/\n/.test(shipped) && shipped.length < source.length + (modelled ? JSON.stringify(compiled).length : 0), `${f} is minified`);
  }
});

test('picking 0.5.18 fetches its release file (only that file, once) and checks at every stage with it; the builder shows its flags', async () => {
  const { page, context, rec } = await newPage(env);
  const from = env.server.log.length;
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    // The picker offers every release, newest first, the newest chosen; nothing was fetched for it.
    const offered = await page.locator('#version option').allTextContents();
    assert.deepEqual(offered, ['0.5.23', '0.5.22', '0.5.21', '0.5.20', '0.5.19', '0.5.18']);
    assert.equal(await page.locator('#version').inputValue(), '0.5.23');
    assert.equal(await page.getByLabel('SGLang release').count(), 1);
    assert.deepEqual(releaseFiles(from), []);
    const loaded = env.server.log.length;

    const old23 = fixture('0.5.23', OLD_FLAG);
    await pasteCommand(page, old23.cmd);
    assert.match(await verdictText(page), /^SGLang 0\.5\.23 on \S+ would reject this/);
    assert.ok((await page.locator('#cards .message').allTextContents()).includes(old23.message));

    await pick(page, '0.5.18');
    // Accepted by 0.5.18, its start-up checks too (not its parser only).
    assert.match(await verdictText(page), /^SGLang 0\.5\.18 on \S+ would accept this/);
    assert.doesNotMatch(await page.locator('#notrun').textContent(), /start-up checks after parsing are not modelled/);
    assert.equal(await page.locator('#release-note').isHidden(), true);

    // A command 0.5.18's start-up checks reject: SGLang 0.5.18's own error, as recorded.
    const later = LATER();
    await pasteCommand(page, later.cmd);
    await page.waitForFunction(() => /would reject/.test(document.querySelector('#verdict').textContent));
    assert.match(await verdictText(page), /^SGLang 0\.5\.18 on \S+ would reject this/);
    assert.ok((await page.locator('#cards .message').allTextContents()).includes(later.message));

    // The reverse: a flag new in 0.5.23 is unknown to 0.5.18.
    const new18 = fixture('0.5.18', NEW_FLAG);
    await pasteCommand(page, new18.cmd);
    assert.match(await verdictText(page), /^SGLang 0\.5\.18 on \S+ would reject this/);
    assert.ok((await page.locator('#cards .message').allTextContents()).includes(new18.message));

    // The builder lists the chosen release's flags, and follows the picker.
    await page.locator('#builder > summary').click();
    await page.locator('#builder-body [data-flag="--mamba-scheduler-strategy"]').waitFor({ timeout: 10000 });
    assert.equal(await page.locator('#builder-body [data-flag="--enable-w4a4-mxfp4-megamoe"]').count(), 0);
    // Its help texts: its own where 0.5.18's differs, the newest's (from help/0.5.23.json) where
    // its file left the same text out.
    const help18 = (flag) => JSON.parse(fs.readFileSync(path.resolve(here, '../../data/sglang-0.5.18/schema.json'), 'utf8')).actions.find((a) => a.option_strings.includes(flag)).help;
    for (const flag of ['--mamba-scheduler-strategy', '--tp-size']) {
      // (the control carries data-flag; its row holds the help)
      assert.equal(await page.locator(`#builder-body [data-flag="${flag}"]`).locator('xpath=..').locator('.help').textContent(), help18(flag), flag);
    }
    await pick(page, '0.5.23');
    assert.match(await verdictText(page), /^SGLang 0\.5\.23 on \S+ would accept this/);
    await page.locator('#builder-body [data-flag="--enable-w4a4-mxfp4-megamoe"]').waitFor({ timeout: 10000 });
    assert.equal(await page.locator('#builder-body [data-flag="--mamba-scheduler-strategy"]').count(), 0);

    // Back to 0.5.18: no second fetch. Since the page loaded, nothing else was asked for but the
    // help texts of 0.5.23's flags, which its builder shows (the wasm carries 0.5.23's schema
    // without them), and the favicon, which the browser asks for when it likes.
    await pick(page, '0.5.18');
    assert.deepEqual(env.server.log.slice(loaded).filter((p) => !p.endsWith('/favicon.svg')), [`${PREFIX}releases/0.5.18.json`, `${PREFIX}help/0.5.23.json`]);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('the permalink keeps the chosen release; a link without one (or an old link) still opens', async () => {
  const { page, context, rec } = await newPage(env);
  const from = env.server.log.length;
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    const cmd = fixture('0.5.18', OLD_FLAG).cmd;
    await pasteCommand(page, cmd);
    await pick(page, '0.5.18');
    await page.locator('#share').click();
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('v') === '0.5.18');
    const url = page.url();
    const verdict = await verdictText(page);

    const p2 = await context.newPage();
    await p2.goto(url);
    await renders(p2, 1);
    assert.equal(await p2.locator('#version').inputValue(), '0.5.18');
    assert.equal(await p2.locator('#command').inputValue(), cmd);
    await p2.waitForFunction((v) => document.querySelector('#verdict').textContent === v, verdict);

    // A link from before this change (v=0.5.23 always written) checks against 0.5.23.
    const p3 = await context.newPage();
    await p3.goto(`${env.server.url}#${new URLSearchParams({ cmd, gpu: 'h100', v: '0.5.23' })}`);
    await renders(p3, 1);
    assert.equal(await p3.locator('#version').inputValue(), '0.5.23');
    assert.match(await verdictText(p3), /^SGLang 0\.5\.23 on \S+ would reject this/);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('a text that names its release (lmsysorg/sglang:v0.5.20) is checked against it, and the page says so', async () => {
  const { page, context, rec } = await newPage(env);
  const from = env.server.log.length;
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    const launch = fixture('0.5.18', OLD_FLAG).cmd.replace(/^python /, 'python3 ');
    await pasteCommand(page, `docker run --gpus all lmsysorg/sglang:v0.5.20 \\\n  ${launch}`);
    await page.waitForFunction(() => document.querySelector('#verdict').textContent.startsWith('SGLang 0.5.20'));
    assert.match(await verdictText(page), /^SGLang 0\.5\.20's command-line parser on \S+ would (accept|reject) this/);
    assert.equal(await page.locator('#release-note').textContent(), 'Checked against SGLang 0.5.20, named in the text (lmsysorg/sglang:v0.5.20). Choose a release to check against another.');
    assert.equal(await page.locator('#version').inputValue(), '0.5.20');
    assert.deepEqual(releaseFiles(from), [`${PREFIX}releases/0.5.20.json`]);
    // The link does not pin a release the user did not choose.
    await page.locator('#share').click();
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('cmd')?.includes('v0.5.20'));
    assert.equal(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('v'), null);

    // A release the user picks wins over the text's.
    await pick(page, '0.5.23');
    assert.equal(await page.locator('#release-note').isHidden(), true);
    assert.deepEqual(releaseFiles(from), [`${PREFIX}releases/0.5.20.json`]);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('a release whose flags cannot be fetched gives a clear error, not a hang', async () => {
  const { page, context, rec } = await newPage(env);
  const from = env.server.log.length;
  try {
    await context.route('**/releases/0.5.19.json', (route) => route.fulfill({ status: 404, body: 'not here' }));
    await page.goto(env.server.url);
    await renders(page, 1);
    await page.locator('#version').selectOption('0.5.19');
    await page.locator('#notice', { hasText: 'releases/0.5.19.json' }).waitFor({ timeout: 10000 });
    assert.equal(await page.locator('#notice').textContent(), "Could not check: could not load SGLang 0.5.19's flags (releases/0.5.19.json): HTTP 404 Not Found");
    assert.match(await verdictText(page), /^No verdict/);
    // Another release still works.
    await pick(page, '0.5.23');
    assert.deepEqual(rec.errors, []);
  } finally {
    await context.close();
  }
});

test('the widget checks against its sglang-version, or the release its command names', async () => {
  const { page, context, rec } = await newPage(env);
  const from = env.server.log.length;
  try {
    await page.goto(env.server.url + 'docs-example.html');
    await page.locator('sglang-preflight#good .verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.deepEqual(releaseFiles(from), []);
    const cmd = fixture('0.5.18', OLD_FLAG).cmd;
    await page.evaluate(([cmd, laterCmd]) => {
      const w = document.createElement('sglang-preflight');
      w.id = 'old';
      w.setAttribute('sglang-version', '0.5.18');
      w.setAttribute('command', cmd);
      const named = document.createElement('sglang-preflight');
      named.id = 'named';
      named.setAttribute('command', `pip install "sglang[all]==0.5.19"\n${cmd}`);
      const later = document.createElement('sglang-preflight');
      later.id = 'later';
      later.setAttribute('sglang-version', '0.5.18');
      later.setAttribute('command', laterCmd);
      document.querySelector('main').append(w, named, later);
    }, [cmd, LATER().cmd]);
    const old = page.locator('sglang-preflight#old');
    await old.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.match(await old.locator('.verdict').textContent(), /^SGLang 0\.5\.18 on \S+ would accept this/);
    // 0.5.18's start-up checks run in the widget too: SGLang 0.5.18's own error, as recorded.
    const later = page.locator('sglang-preflight#later');
    await later.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.match(await later.locator('.verdict').textContent(), /^SGLang 0\.5\.18 on \S+ would reject this/);
    assert.ok((await later.locator('.message').allTextContents()).includes(LATER().message));
    assert.equal(new URLSearchParams(new URL(await old.locator('.foot a').getAttribute('href')).hash.slice(1)).get('v'), '0.5.18');
    const named = page.locator('sglang-preflight#named');
    await named.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.match(await named.locator('.verdict').textContent(), /^SGLang 0\.5\.19's command-line parser on \S+ would accept this/);
    assert.deepEqual(releaseFiles(from).sort(), [`${PREFIX}releases/0.5.18.json`, `${PREFIX}releases/0.5.19.json`]);
    // The attribute removed: the newest again, which rejects the flag.
    await page.evaluate(() => document.querySelector('#old').removeAttribute('sglang-version'));
    await old.locator('.verdict', { hasText: /^SGLang 0\.5\.23 / }).waitFor({ timeout: 10000 });
    assert.match(await old.locator('.verdict').textContent(), /would reject this/);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('with the service worker, a release used once works offline; it is not precached', async () => {
  const server = await startServer(DIST, { prefix: PREFIX, securityHeaders: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const context = await browser.newContext({ serviceWorkers: 'allow' });
    const errors = [];
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url);
    await renders(page, 1);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', null, { timeout: 20000 });
    const cached = () => page.evaluate(async () => (await Promise.all((await caches.keys()).map(async (n) => (await (await caches.open(n)).keys()).map((r) => r.url)))).flat());
    assert.deepEqual((await cached()).filter((u) => u.includes('/releases/')), [], 'no release precached');

    const cmd = fixture('0.5.18', OLD_FLAG).cmd;
    await pasteCommand(page, cmd);
    await pick(page, '0.5.18');
    assert.deepEqual((await cached()).filter((u) => u.includes('/releases/')), [`${server.url}releases/0.5.18.json`]);

    // Offline, reloaded (the link keeps 0.5.18; a new worker fetches it again, from the cache).
    await context.setOffline(true);
    const served = server.log.length;
    await page.reload();
    await renders(page, 1);
    await page.waitForFunction(() => document.querySelector('#verdict').textContent.startsWith('SGLang 0.5.18'), null, { timeout: 20000 });
    assert.match(await verdictText(page), /^SGLang 0\.5\.18 on \S+ would accept this/);
    // Its start-up checks, from the cached file: SGLang 0.5.18's own error, as recorded.
    await pasteCommand(page, LATER().cmd);
    await page.waitForFunction(() => /would reject/.test(document.querySelector('#verdict').textContent), null, { timeout: 20000 });
    assert.match(await verdictText(page), /^SGLang 0\.5\.18 on \S+ would reject this/);
    assert.ok((await page.locator('#cards .message').allTextContents()).includes(LATER().message));
    assert.equal(server.log.length, served);
    // A release never used is not there offline: a clear error.
    await page.locator('#version').selectOption('0.5.21');
    await page.locator('#notice', { hasText: 'releases/0.5.21.json' }).waitFor({ timeout: 10000 });
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a widget on another origin fetches its release from the widget\'s origin, under the host CSP docs/hosting.md gives', async () => {
  const prefix = '/cdn/preflight/';
  const widget = await startServer(DIST, { prefix, securityHeaders: true });
  const widgetOrigin = `http://localhost:${widget.port}`;
  const cmd = fixture('0.5.18', OLD_FLAG).cmd;
  const csp = ["default-src 'none'", `script-src 'self' ${widgetOrigin} 'wasm-unsafe-eval'`, `worker-src blob: ${widgetOrigin}`, `connect-src ${widgetOrigin}`, "style-src 'self'", "img-src 'self'", "base-uri 'none'"].join('; ');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title>
<script type="module" src="${widgetOrigin}${prefix}widget.js"></script></head><body>
<sglang-preflight id="old" gpu="h100" sglang-version="0.5.18" command="${cmd}"></sglang-preflight></body></html>`;
  const host = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(html));
  await new Promise((r) => host.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    await context.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const from = widget.log.length;
    await page.goto(`http://127.0.0.1:${host.address().port}/docs/page.html`);
    const old = page.locator('sglang-preflight#old');
    await old.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.match(await old.locator('.verdict').textContent(), /^SGLang 0\.5\.18 on \S+ would accept this/);
    assert.deepEqual(widget.log.slice(from).filter((p) => p.includes('/releases/')), [`${prefix}releases/0.5.18.json`]);
    assert.deepEqual({ csp: await page.evaluate(() => window.__cspViolations), errors }, { csp: [], errors: [] });
    await context.close();
  } finally {
    await browser.close();
    await widget.close();
    await new Promise((r) => host.close(r));
  }
});

test('the upgrade view explains a command written for 0.5.18 on 0.5.23, and its fix edits only the flag', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    // Recorded: 0.5.18 accepts the old spelling, 0.5.23 rejects it.
    const c = fixture('0.5.18', OLD_FLAG);
    const text = `docker run lmsysorg/sglang:v0.5.18 \\\n  ${c.cmd}  # keep this comment`;
    await pasteCommand(page, text);
    await page.locator('#upgrade > summary').click();
    const body = page.locator('#upgrade-body');
    await page.waitForFunction(() => document.querySelector('#upgrade-body').dataset.shown === '0.5.18>0.5.23');
    // From the release the text names (checked against it), to the newest.
    assert.equal(await page.locator('#upgrade-from').inputValue(), '0.5.18');
    assert.equal(await page.locator('#upgrade-to').inputValue(), '0.5.23');
    assert.match(await body.locator('.migration-verdict').first().textContent(), /SGLang 0\.5\.18 accepted → SGLang 0\.5\.23 rejected/);
    const note = body.locator('.migration-note.renamed').first();
    assert.match(await note.locator('.note-text').textContent(), /--mamba-scheduler-strategy is now spelled --mamba-radix-cache-strategy/);
    // SGLang 0.5.23's own error for it is on the note, verbatim from the recording.
    const c23 = fixture('0.5.23', OLD_FLAG);
    assert.ok((await body.locator('.message').allTextContents()).includes(c23.message));
    // Defaults the command relies on that change are listed after what the command writes.
    assert.ok((await body.locator('.migration-defaults .migration-note.default_changed').count()) > 0);
    assert.equal(await body.locator('.migration-defaults').evaluate((d) => d.open), false, 'folded');
    const before = await page.locator('#command').inputValue();
    await note.locator('.fixes button.apply').first().click();
    await page.waitForFunction((t) => document.querySelector('#command').value !== t, before);
    const after = await page.locator('#command').inputValue();
    assert.equal(after, before.replace('--mamba-scheduler-strategy', '--mamba-radix-cache-strategy'), 'only the flag changed');
    // Undo restores the text exactly.
    await page.keyboard.press('Control+z');
    await page.waitForFunction((t) => document.querySelector('#command').value === t, before);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});
