// The docs widget on the example docs page, served under a sub-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, cleanState } from './harness.mjs';

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
  } finally {
    await context.close();
  }
});
