// The docs widget on the example docs page, served under a sub-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, newPage, cleanState, DIST } from './harness.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

test('two widgets on the example docs page check their commands in shadow DOM', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url + 'docs-example.html');
    const good = page.locator('sglang-preflight#good');
    const bad = page.locator('sglang-preflight#bad');
    await good.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    await bad.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    // Styles are in the shadow root, not leaked into the document.
    const shadow = await page.evaluate(() => {
      const w = document.querySelector('#good');
      return { open: !!w.shadowRoot, sheets: w.shadowRoot.adoptedStyleSheets.length, docSheets: document.adoptedStyleSheets.length };
    });
    assert.deepEqual(shadow, { open: true, sheets: 2, docSheets: 0 });
    assert.equal(await good.locator('pre.cmd').textContent(), 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp-size 2 --port 30000');
    assert.match(await good.locator('.verdict').textContent(), /^SGLang 0\.5\.23 on 2×H100\S* .*would accept this/);
    assert.match(await bad.locator('pre.cmd').textContent(), /--dcp-size 2/);
    assert.match(await bad.locator('.verdict').textContent(), /^SGLang 0\.5\.23 on 8×H100/);
    // The "open in the full checker" link points next to widget.js, under the sub-path.
    const href = await bad.locator('.foot a').getAttribute('href');
    assert.ok(href.startsWith(env.server.url + 'index.html#'), href);
    assert.equal(new URLSearchParams(new URL(href).hash.slice(1)).get('cmd'), await bad.getAttribute('command'));
    // Changing an attribute re-checks.
    await page.evaluate(() => document.querySelector('#good').setAttribute('command', 'python -m sglang.launch_server --tp 2'));
    await good.locator('pre.cmd', { hasText: /^python -m sglang.launch_server --tp 2$/ }).waitFor();
    await good.locator('.verdict:not(.pending)').waitFor();
    // One worker serves every widget.
    const workers = page.workers().length;
    assert.equal(workers, 1);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('the rejecting widget shows SGLang\'s exact message', async () => {
  const { page, context } = await newPage(env);
  try {
    await page.goto(env.server.url + 'docs-example.html');
    const bad = page.locator('sglang-preflight#bad');
    await bad.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.match(await bad.locator('.verdict').textContent(), /would reject this/);
    assert.ok((await bad.locator('.message').allTextContents()).includes('--disaggregation-decode-retraction-backup=host_pool does not support --dcp-size > 1.'));
    // What it means: the rule's text, which the wasm goes without; the widget fetches the site's
    // rules/explanations/<family>.json (the native build's texts) next to its module and puts it in.
    const texts = JSON.parse(fs.readFileSync(path.join(DIST, 'rules/explanations/KV.json'), 'utf8'));
    assert.ok(texts.KV029.length > 40);
    const card = bad.locator('.cards:not(.rest) .card.error');
    await card.locator('.explanation', { hasText: texts.KV029 }).waitFor({ timeout: 5000 });
    assert.equal(await card.locator('.explanation').textContent(), `What it means: ${texts.KV029}`);
  } finally {
    await context.close();
  }
});

/** The widget's own box height, in CSS pixels. */
function widgetHeight(page, id) {
  return page.evaluate((i) => document.querySelector(`#${i}`).getBoundingClientRect().height, id);
}

test('compact by default: the verdict and the error shown, warnings behind a toggle', async () => {
  const { page, context } = await newPage(env);
  try {
    await page.goto(env.server.url + 'docs-example.html');
    const bad = page.locator('sglang-preflight#bad');
    await bad.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.match(await bad.locator('.verdict').textContent(), /would reject this: 1 error, (\d+) warnings?/);
    const warnings = Number((await bad.locator('.verdict').textContent()).match(/(\d+) warnings?/)[1]);
    assert.ok(warnings >= 1);
    // The error: its card, open, with SGLang's message.
    const shown = bad.locator('.cards:not(.rest) .card');
    assert.equal(await shown.count(), 1);
    assert.equal(await shown.first().evaluate((c) => c.classList.contains('error')), true);
    assert.equal(await shown.locator('.message').isVisible(), true);
    // The warnings: not shown until the toggle opens them.
    const rest = bad.locator('.rest');
    const toggle = bad.locator('button.toggle');
    assert.equal(await rest.isVisible(), false);
    assert.equal(await toggle.textContent(), `▸ Show ${warnings} warning${warnings === 1 ? '' : 's'}`);
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    assert.equal(await rest.isVisible(), true);
    assert.equal(await rest.locator('.card.warning').count(), warnings);
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await toggle.click();
    assert.equal(await rest.isVisible(), false);
    // An accepted command with no findings has no toggle.
    const good = page.locator('sglang-preflight#good');
    await good.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.equal(await good.locator('button.toggle').isVisible(), false);
  } finally {
    await context.close();
  }
});

test('the rejected widget is compact at desktop and phone width (858 px and 1,529 px before)', async () => {
  const { page, context } = await newPage(env);
  try {
    const heights = {};
    for (const [name, width] of [['desktop', 1280], ['phone', 390]]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(env.server.url + 'docs-example.html');
      await page.locator('sglang-preflight#bad .verdict:not(.pending)').waitFor({ timeout: 20000 });
      heights[name] = Math.round(await widgetHeight(page, 'bad'));
    }
    console.log(`rejected widget height: ${heights.desktop} px desktop, ${heights.phone} px phone`);
    assert.ok(heights.desktop <= 430, `desktop ${heights.desktop} px`);
    assert.ok(heights.phone <= 750, `phone ${heights.phone} px`);
  } finally {
    await context.close();
  }
});

test('Copy command copies the command as written; the link opens the full page with it', async () => {
  const { page, context } = await newPage(env);
  try {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
    await page.goto(env.server.url + 'docs-example.html');
    const bad = page.locator('sglang-preflight#bad');
    await bad.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    const command = await bad.getAttribute('command');
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    await bad.locator('button.copy').click();
    await bad.locator('.copied', { hasText: 'Copied.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), command);
    // The link: the full page, with this command in the editor and its verdict.
    const href = await bad.locator('.foot a').getAttribute('href');
    await page.goto(href);
    await page.waitForFunction(() => Number(document.body.dataset.renders || 0) >= 1, null, { timeout: 20000 });
    assert.equal(await page.locator('#command').inputValue(), command);
    assert.match(await page.locator('#verdict').textContent(), /would reject this/);
  } finally {
    await context.close();
  }
});

test("the widget follows the reader's colour scheme, and a theme attribute overrides it", async () => {
  const { page, context } = await newPage(env);
  try {
    const background = (id) => page.evaluate((i) => getComputedStyle(document.querySelector(`#${i}`).shadowRoot.querySelector('.box')).backgroundColor, id);
    const LIGHT = 'rgb(255, 255, 255)';
    const DARK = 'rgb(13, 17, 23)';
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(env.server.url + 'docs-example.html');
    await page.locator('sglang-preflight#bad .verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.equal(await background('bad'), LIGHT);
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await background('bad'), DARK);
    // The host page says which: it wins over the reader's system setting, either way.
    await page.evaluate(() => document.querySelector('#bad').setAttribute('theme', 'light'));
    assert.equal(await background('bad'), LIGHT);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => document.querySelector('#bad').setAttribute('theme', 'dark'));
    assert.equal(await background('bad'), DARK);
    // Changing the theme does not check again.
    assert.match(await page.locator('sglang-preflight#bad .verdict').textContent(), /would reject this/);
  } finally {
    await context.close();
  }
});
