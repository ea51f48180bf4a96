// The builder in a real browser: its search hides what does not match and ranks the rest (exact
// name first; SGLang's field names and vLLM's names find flags too); a choice the command at hand
// would make SGLang reject is disabled, with SGLang's reason; its edits keep every other byte and
// undo restores the text. Run: npm run build && node --test tests/browser/builder.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, renders, hashUrl, cleanState } from './harness.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

async function openBuilder(page) {
  await page.locator('#builder > summary').click();
  await page.locator('#builder-body [data-flag="--tp-size"]').waitFor();
}

/** Search, wait for the core's ranked results; the visible rows' flags, in order. */
async function search(page, query) {
  await page.locator('#flag-search').fill(query);
  await page.waitForFunction((q) => document.querySelector('#builder-body').dataset.query === q, query);
  return page.evaluate(() =>
    [...document.querySelectorAll('#builder-body .flag')].filter((r) => r.checkVisibility()).map((r) => r.querySelector('[data-flag]').dataset.flag),
  );
}

test('search hides every other row and ranks the exact name first; field and vLLM names find flags', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B' }));
    await renders(page, 1);
    await openBuilder(page);
    const all = await page.locator('#builder-body .flag').count();
    const found = await search(page, 'tp-size');
    assert.equal(found[0], '--tp-size', `exact first: ${found.slice(0, 5)}`);
    assert.ok(found.length < all / 4, `${found.length} of ${all} rows shown`);
    // hidden for real: not rendered, not only marked
    assert.equal(await page.locator('[data-flag="--port"]').isVisible(), false);
    assert.equal(await page.locator('#builder-body fieldset:visible').count(), 0, 'the topics give way to the ranked list');
    assert.deepEqual((await search(page, 'tp_size')).slice(0, 1), ['--tp-size']);
    assert.deepEqual((await search(page, '--tensor-parallel-size')).slice(0, 1), ['--tp-size']);
    assert.equal(await page.locator('#builder-body .flag[data-match="vllm"]').getAttribute('title'), 'vLLM calls it --tensor-parallel-size');
    assert.deepEqual((await search(page, 'max-model-len')).slice(0, 1), ['--context-length']);
    // a word of the help text only
    const weights = await search(page, 'weights');
    assert.ok(weights.includes('--model-path'), weights.join(' '));
    // cleared: every row back in its topic, in order
    assert.equal((await search(page, '')).length, all);
    assert.ok((await page.locator('#builder-body fieldset:visible').count()) > 1);
    const order = await page.evaluate(() => [...document.querySelectorAll('#builder-body .flag')].map((r) => Number(r.dataset.n)));
    assert.deepEqual(order, [...order].sort((a, b) => a - b));
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('a choice the hardware would reject is disabled with SGLang\'s reason', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8', gpu: 'a100' }));
    await renders(page, 1);
    await openBuilder(page);
    await search(page, 'attention-backend');
    const select = page.locator('[data-flag="--attention-backend"]');
    await select.focus();
    const reason = page.locator('.choice-reasons li[data-choice="trtllm_mla"]');
    await reason.waitFor();
    assert.match(await reason.textContent(), /^trtllm_mla: ValueError: TRTLLM MLA backend is only supported on Blackwell GPUs/);
    const option = page.locator('[data-flag="--attention-backend"] option[value="trtllm_mla"]');
    assert.equal(await option.isDisabled(), true);
    assert.match(await option.getAttribute('title'), /TRTLLM MLA backend is only supported on Blackwell/);
    assert.equal(await page.locator('[data-flag="--attention-backend"] option[value="triton"]').isDisabled(), false);
    // On a B200 the same choice is open.
    await page.locator('#gpu').selectOption('b200');
    await page.waitForFunction(() => /B200/.test(document.querySelector('#verdict').textContent));
    await select.blur();
    await select.focus();
    await page.waitForFunction(() => !document.querySelector('[data-flag="--attention-backend"] option[value="trtllm_mla"]').disabled);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('a found flag edits only its setting, byte for byte, and undo restores the text', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    const text = '# serve it\nexport HF_TOKEN=x  # secret\ndocker run --gpus all lmsysorg/sglang \\\n    python3 -m sglang.launch_server \\\n    --model-path Qwen/Qwen3-8B \\\n    --tp 2 \\\n    --port=30000  # port\necho started\npython -m sglang.launch_server --model-path other --tp-size 8\n';
    await page.goto(hashUrl(env, { cmd: text }));
    await renders(page, 1);
    await openBuilder(page);
    // found by its vLLM name, set through the ranked list
    assert.equal((await search(page, 'tensor-parallel-size'))[0], '--tp-size');
    await page.waitForFunction(() => document.querySelector('[data-flag="--tp-size"]').value === '2');
    await page.locator('[data-flag="--tp-size"]').fill('4');
    await page.waitForFunction(() => document.querySelector('#command').value.includes('--tp 4'));
    assert.equal(await page.locator('#command').inputValue(), text.replace('--tp 2', '--tp 4'));
    // a choice through the ranked list, too
    await search(page, 'kv_cache_dtype');
    await page.locator('[data-flag="--kv-cache-dtype"]').selectOption('fp8_e4m3');
    await page.waitForFunction(() => document.querySelector('#command').value.includes('--kv-cache-dtype'));
    const both = text.replace('--tp 2', '--tp 4').replace('--port=30000', '--port=30000 \\\n    --kv-cache-dtype fp8_e4m3');
    assert.equal(await page.locator('#command').inputValue(), both);
    await page.locator('#command').focus();
    const seen = [await page.locator('#command').inputValue()];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Control+Z');
      const now = await page.locator('#command').inputValue();
      if (now !== seen[seen.length - 1]) seen.push(now);
    }
    assert.deepEqual(seen, [both, text.replace('--tp 2', '--tp 4'), text]);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('typing in a found flag keeps the focus there while the command is re-checked', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B' }));
    await renders(page, 1);
    await openBuilder(page);
    await search(page, 'max_running');
    const field = page.locator('[data-flag="--max-running-requests"]');
    await field.click();
    for (const ch of '256') {
      const n = await page.evaluate(() => Number(document.body.dataset.renders));
      await page.keyboard.type(ch);
      await renders(page, n + 1);
    }
    await page.waitForFunction(() => document.querySelector('#command').value.endsWith('--max-running-requests 256'));
    assert.equal(await page.evaluate(() => document.activeElement.dataset.flag), '--max-running-requests');
    assert.equal(await field.inputValue(), '256');
    assert.equal(await page.locator('#command').inputValue(), 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B --max-running-requests 256');
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});
