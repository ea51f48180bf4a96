// Knowing the model in a real browser: the page fetches the model catalog (models/catalog.json)
// only when a command names a model, says which model each command names and how it is known,
// and a pasted config.json is used instead of the catalog.
// Run: npm run build && node --test tests/browser/models.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launch, newPage, renders, hashUrl, cleanState, DIST } from './harness.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const modelLines = (page) => page.locator('#models li').allTextContents();

test('a catalog model is named with its facts and source; the catalog is fetched only for a command naming a model', async () => {
  const { page, context, rec } = await newPage(env);
  const fetched = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/models/catalog.json')) fetched.push(r.url());
  });
  try {
    await page.goto(hashUrl(env, { cmd: 'echo hello' }));
    const n = await renders(page, 1);
    assert.deepEqual(fetched, [], 'no model named: the catalog is not fetched');
    assert.deepEqual(await modelLines(page), []);
    // The same page, another hash: its report is the next (after one while the catalog loads).
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8' }));
    await renders(page, n + 1);
    await page.waitForFunction(() => document.querySelectorAll('#models li').length > 0);
    assert.deepEqual(await modelLines(page), ['model: DeepSeek-V3 — DeepseekV3ForCausalLM, MLA, 256 routed experts, fp8 checkpoint — from the built-in catalog']);
    assert.match(await page.locator('#models li').first().getAttribute('title'), /^Config source: github:ai-dynamo\/aiconfigurator /);
    assert.equal(fetched.length, 1);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('a command naming a model is reported before the catalog has loaded, saying so, then again with its model', async () => {
  const { page, context, rec } = await newPage(env);
  // The catalog is held back until the first report is up (the harness's route, registered
  // earlier, still records and serves it).
  let release;
  const held = new Promise((r) => (release = r));
  const fetched = [];
  await context.route('**/models/catalog.json', async (route) => {
    fetched.push(route.request().url());
    await held;
    await route.fallback();
  });
  try {
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8' }));
    await page.waitForFunction(() => Number(document.body.dataset.renders || 0) >= 1);
    // Fetched once: the worker starts it when it starts (the first command names a model).
    assert.equal(fetched.length, 1);
    assert.equal(await page.evaluate(() => document.body.dataset.pending), 'models');
    // An accept by the checks that ran (not the all-clear): no check that reads the model's config
    // is claimed as run, and the banner says so.
    assert.match(await page.locator('#verdict').evaluate((v) => v.firstChild.textContent), /^SGLang 0\.5\.23 on 8×H100 would accept this as far as the checks that ran can tell \(so far: the model catalog is loading\)$/);
    assert.equal(await page.locator('#verdict').getAttribute('class'), 'verdict accepted partial');
    assert.deepEqual(await modelLines(page), ["Loading the model catalog: the checks that read the model's config run once it is here."]);
    const note = await page.locator('#verdict .not-run').textContent();
    assert.match(note, /^Not run here: \d+ checks? needs? the model's config/);
    // Listed on demand: each check SGLang would make that did not run, by its source site and why.
    const list = page.locator('#verdict .not-run-list');
    const n = Number(note.match(/(\d+) checks? needs? the model's config/)[1]);
    assert.equal(await list.locator('summary').textContent(), n === 1 ? 'The check that did not run' : `The ${n} checks that did not run`);
    await list.locator('summary').click();
    const rows = await list.locator('li').allInnerTexts();
    assert.equal(rows.length, n);
    for (const row of rows) assert.match(row, /^[\w.]+(#\d+)? — needs the model's config$/);
    release();
    await renders(page, 2);
    assert.equal(await page.evaluate(() => document.body.dataset.pending), undefined);
    assert.equal(await page.locator('#verdict').textContent(), 'SGLang 0.5.23 on 8×H100 would accept this');
    assert.equal(await page.locator('#verdict').getAttribute('class'), 'verdict accepted');
    assert.deepEqual(await modelLines(page), ['model: DeepSeek-V3 — DeepseekV3ForCausalLM, MLA, 256 routed experts, fp8 checkpoint — from the built-in catalog']);
    assert.doesNotMatch(await page.locator('#notrun').textContent(), /the model's config/);
    assert.equal(fetched.length, 1);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    release();
    await context.close();
  }
});

test('an unknown model is said to be unknown, with what did not run', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path my-org/private-model-7b' }));
    await renders(page, 1);
    await page.waitForFunction(() => document.querySelectorAll('#models li').length > 0);
    assert.deepEqual(await modelLines(page), [
      "model: my-org/private-model-7b: not a model the built-in catalog knows; checks that need the model's config did not run (give its config.json to run them) Paste its config.json",
    ]);
    // Accepted by the checks that ran, not the all-clear: the banner says what did not run.
    assert.equal(await page.locator('#verdict').getAttribute('class'), 'verdict accepted partial');
    assert.equal(await page.locator('#verdict').evaluate((v) => v.firstChild.textContent), 'SGLang 0.5.23 on 8×H100 would accept this as far as the checks that ran can tell');
    assert.match(await page.locator('#verdict .not-run').textContent(), /^Not run here: my-org\/private-model-7b's config was not read \(the built-in catalog does not know it\)/);
    assert.equal(await page.locator('#cards .empty').textContent(), 'No findings from the checks that ran (the verdict says what did not run).');
    // The offer opens the pane that takes it.
    assert.equal(await page.locator('#model-box').getAttribute('open'), null);
    await page.locator('#models li button', { hasText: 'Paste its config.json' }).click();
    assert.equal(await page.locator('#model-box').getAttribute('open'), '');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'model-config');
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test("a pasted config.json is used for the command's model; a broken one is said to be unusable", async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path /data/my-model --tp 2' }));
    await renders(page, 1);
    await page.locator('#model-box > summary').click();
    const config = fs.readFileSync(path.join(DIST, '..', 'tools/recorder/models/DeepSeek-V3/config.json'), 'utf8');
    await page.locator('#model-config').fill(config);
    await page.waitForFunction(() => [...document.querySelectorAll('#models li')].some((li) => li.textContent.includes('from the config you gave')));
    assert.deepEqual(await modelLines(page), ['model: /data/my-model — DeepseekV3ForCausalLM, MLA, 256 routed experts, fp8 checkpoint — from the config you gave']);
    await page.waitForFunction(() => document.querySelector('#model-config-status').textContent.startsWith('Used for the checks'));
    assert.equal(await page.locator('#model-config-status').textContent(), 'Used for the checks: DeepseekV3ForCausalLM.');
    // not JSON: said, and not used
    await page.locator('#model-config').fill('{"architectures": [');
    await page.waitForFunction(() => document.querySelector('#model-config-status').textContent.startsWith('Not used'));
    assert.match(await page.locator('#model-config-status').textContent(), /^Not used: the config is not valid JSON \(.+\); SGLang \(transformers\) could not load it either\.$/);
    await page.waitForFunction(() => ![...document.querySelectorAll('#models li')].some((li) => li.textContent.includes('from the config you gave')));
    // The config stays out of the permalink.
    assert.equal(new URL(page.url()).hash.includes('architectures'), false);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test("the widget names the command's model in one line, and takes a config.json by its modelConfig property", async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url + 'docs-example.html');
    const good = page.locator('sglang-preflight#good');
    await good.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    await good.locator('.model', { hasText: /\S/ }).waitFor();
    assert.match(await good.locator('.model').textContent(), /^Qwen3-8B — Qwen3ForCausalLM.* — from the built-in catalog$/);
    // Every check ran: the all-clear, with no not-run line.
    assert.equal(await good.locator('.verdict').getAttribute('class'), 'verdict accepted');
    assert.equal(await good.locator('.verdict .not-run').count(), 0);
    const config = fs.readFileSync(path.join(DIST, '..', 'tools/recorder/models/DeepSeek-V3/config.json'), 'utf8');
    await page.evaluate((c) => {
      document.querySelector('#good').modelConfig = c;
    }, config);
    await good.locator('.model', { hasText: 'from the config you gave' }).waitFor();
    assert.equal(await good.locator('.model').textContent(), 'Qwen/Qwen3-8B — DeepseekV3ForCausalLM, MLA, 256 routed experts, fp8 checkpoint — from the config you gave');
    // A model the catalog does not know, with no config given: the widget's banner says the
    // accept is by the checks that ran, and what did not run.
    await page.evaluate(() => {
      const w = document.querySelector('#good');
      w.modelConfig = '';
      w.setAttribute('command', 'python -m sglang.launch_server --model-path my-org/private-model-7b --tp-size 2');
    });
    await good.locator('.verdict.partial').waitFor();
    assert.match(await good.locator('.verdict').textContent(), /would accept this as far as the checks that ran can tellNot run here: my-org\/private-model-7b's config was not read/);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});
