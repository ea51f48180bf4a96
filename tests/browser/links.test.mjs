// Secrets stay out of links, and the findings read errors first. Run: npm run build && node --test tests/browser/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, newPage, renders, pasteCommand, hashUrl, cleanState, DIST } from './harness.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const SECRET = 'hf_abcDEF0123456789secret';
const DCP_CMD =
  'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool';

test('typing a token never puts it in the URL or the copied link; the page says it was replaced', async () => {
  const { page, context, rec } = await newPage(env);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
  try {
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B' }));
    await renders(page, 1);
    // Record every URL the page ever has while typing (the permalink is written as you type).
    await page.evaluate(() => {
      window.__hrefs = [];
      const orig = history.replaceState.bind(history);
      history.replaceState = (s, t, u) => {
        orig(s, t, u);
        window.__hrefs.push(location.href);
      };
    });
    const box = page.locator('#command');
    await box.fill('');
    await box.pressSequentially(`export HF_TOKEN=${SECRET}\n`, { delay: 5 });
    await box.pressSequentially(`${DCP_CMD} --api-key sk-live-42`, { delay: 0 });
    await page.waitForFunction(() => /replaced by a placeholder/.test(document.querySelector('#link-note')?.textContent || ''));
    await page.waitForFunction(() => (new URLSearchParams(location.hash.slice(1)).get('cmd') || '').includes('--api-key <API_KEY>'));
    assert.equal(await page.locator('#link-note').textContent(), '2 secrets replaced by a placeholder in links (the command box keeps them).');
    const hrefs = await page.evaluate(() => [...window.__hrefs, location.href]);
    assert.ok(hrefs.length > 1);
    for (const h of hrefs) {
      const decoded = new URLSearchParams(new URL(h).hash.slice(1)).get('cmd') || '';
      assert.ok(!h.includes('hf_abc') && !decoded.includes('hf_abc') && !decoded.includes('sk-live'), `a URL carried a secret: ${h}`);
    }
    const cmd = new URLSearchParams(new URL(hrefs.at(-1)).hash.slice(1)).get('cmd');
    assert.equal(cmd, `export HF_TOKEN=<HF_TOKEN>\n${DCP_CMD} --api-key <API_KEY>`);
    // The editor keeps the real text.
    assert.equal(await box.inputValue(), `export HF_TOKEN=${SECRET}\n${DCP_CMD} --api-key sk-live-42`);
    // Copy link: the copied link has placeholders, too.
    await page.locator('#share').click();
    await page.waitForFunction(() => /Link copied/.test(document.querySelector('#notice').textContent));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(!copied.includes('hf_abc') && !copied.includes('sk-live'), copied);
    assert.equal(new URLSearchParams(new URL(copied).hash.slice(1)).get('cmd'), cmd);
    // Copy command copies the real text.
    await page.locator('#copy').click();
    await page.waitForFunction(() => /Command copied/.test(document.querySelector('#notice').textContent));
    assert.ok((await page.evaluate(() => navigator.clipboard.readText())).includes(SECRET));
    // Without secrets the note goes away.
    await pasteCommand(page, DCP_CMD);
    await page.waitForFunction(() => document.querySelector('#link-note').hidden);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('an old link that carries a token is rewritten without it on load', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: `HF_TOKEN=${SECRET} ${DCP_CMD}` }));
    await renders(page, 1);
    await page.waitForFunction(() => !location.href.includes('hf_abc'));
    assert.equal(await page.locator('#command').inputValue(), `HF_TOKEN=${SECRET} ${DCP_CMD}`);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('the flagship decode command: its error card first and open, its warnings folded to a line', async () => {
  const { page, context, rec } = await newPage(env);
  const served = env.server.log.length;
  try {
    await page.goto(hashUrl(env, { cmd: DCP_CMD }));
    await renders(page, 1);
    const cards = page.locator('#cards article.card');
    const severities = await cards.evaluateAll((cs) => cs.map((c) => c.className.replace('card ', '')));
    assert.deepEqual(severities, ['error', 'warning', 'warning', 'warning']);
    const first = cards.first();
    assert.equal(await first.locator('.card-head .code').textContent(), 'KV029');
    assert.ok(await first.locator('.message').isVisible());
    assert.ok(await first.getByRole('button', { name: /Apply: Set --dcp-size 1/ }).isVisible());
    // What it means: the rule's text, which the wasm goes without (its report says
    // `{explanation}`); the page fetches the site's rules/explanations/<family>.json and puts it in.
    const texts = (family) => JSON.parse(fs.readFileSync(path.join(DIST, `rules/explanations/${family}.json`), 'utf8'));
    const kv029 = texts('KV').KV029;
    assert.ok(kv029.length > 40);
    await first.locator('.explanation', { hasText: kv029 }).waitFor({ timeout: 5000 });
    assert.equal(await first.locator('.explanation').textContent(), `What it means: ${kv029}`);
    // Warnings: a summary line; the message in full, explanation and fixes once opened.
    const warn = cards.nth(1);
    assert.equal(await warn.locator('details.fold').getAttribute('open'), null);
    assert.ok(await warn.locator('summary .card-line').isVisible());
    assert.ok(!(await warn.locator('.explanation').isVisible()));
    await warn.locator('summary').click();
    assert.ok(await warn.locator('.explanation').isVisible());
    const warnCode = await warn.locator('.card-head .code').textContent();
    const warnFamily = warnCode.replace(/\d+$/, '');
    assert.equal(await warn.locator('.explanation').textContent(), `What it means: ${texts(warnFamily)[warnCode]}`);
    // Only the families of the cards shown were fetched, each once.
    const codes = await cards.locator('.card-head .code').allTextContents();
    const families = [...new Set(codes.map((c) => c.replace(/\d+$/, '')))].sort();
    const fetched = env.server.log.slice(served).filter((p) => p.includes('/rules/explanations/'));
    assert.deepEqual(fetched.map((p) => p.replace(/^.*\/rules\/explanations\/(\w+)\.json$/, '$1')).sort(), families);
    assert.ok(!(await warn.locator('summary .card-line').isVisible()));
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test("the package's client gives findings with their rules' texts; made with ruleTexts: false, the marker", async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path m' }));
    await renders(page, 1);
    const kv029 = JSON.parse(fs.readFileSync(path.join(DIST, 'rules/explanations/KV.json'), 'utf8')).KV029;
    const explanations = await page.evaluate(async (cmd) => {
      const { PreflightClient } = await import(new URL('client.js', location.href).href);
      const of = async (opts) => {
        const client = new PreflightClient(opts);
        const report = await client.check(cmd, { gpu: 'h100' });
        client.worker.terminate();
        return report.commands.flatMap((c) => c.diagnostics).filter((d) => d.code === 'KV029').map((d) => d.explanation);
      };
      return { whole: await of({}), marked: await of({ ruleTexts: false }) };
    }, DCP_CMD);
    assert.deepEqual(explanations, { whole: [kv029], marked: ['{explanation}'] });
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('each unknown flag has its own card; identical findings are one card with a count', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path m --foo --reasoning_parser qwen3 --bar 3' }));
    await renders(page, 1);
    const codes = await page.locator('#cards .card-head .code').allTextContents();
    assert.deepEqual(codes, ['ARG008', 'ARG013', 'ARG013', 'ARG013']);
    // SGLang's own message stays exact.
    assert.equal(await page.locator('#cards .card').first().locator('.message').textContent(), 'unrecognized arguments: --foo --reasoning_parser qwen3 --bar 3');
    const own = await page.locator('#cards .card .message').allTextContents();
    assert.deepEqual(own.slice(1), ['unknown flag `--foo`', 'unknown flag `--reasoning_parser` (and the value `qwen3` after it)', 'unknown flag `--bar` (and the value `3` after it)']);
    assert.equal(await page.locator('#cards .card', { hasText: '--reasoning_parser` (and' }).getByRole('button', { name: /Apply: Use --reasoning-parser/ }).count(), 1);
    // Identical findings (same code, message and span) are one card with a count.
    const merged = await page.evaluate(async () => {
      const { cardItems } = await import('./render.js');
      const d = { code: 'SH005', severity: 'warning', message: 'm', span: { start: 1, end: 2 } };
      const e = { code: 'X1', severity: 'error', message: 'e', span: { start: 5, end: 6 } };
      const items = cardItems({ diagnostics: [d, { ...d }, { ...d, span: { start: 3, end: 4 } }], commands: [{ diagnostics: [{ ...d }, e, { ...e }] }] });
      return items.map((i) => `${i.command}:${i.d.code}:${i.d.span.start}:${i.count}`);
    });
    assert.deepEqual(merged, ['-1:SH005:1:2', '-1:SH005:3:1', '0:X1:5:2', '0:SH005:1:1']);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});
