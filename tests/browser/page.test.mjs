// The page in a real browser: paste → card → Apply → accepted; builder and permalink round
// trips; the time budget. Run: npm run build && node --test tests/browser/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, renders, pasteCommand, hashUrl, cleanState, installHangableWorker } from './harness.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const DCP_CMD =
  'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool';
const DCP_MSG = '--disaggregation-decode-retraction-backup=host_pool does not support --dcp-size > 1.';

test('paste → SGLang exact message → Apply "Set --dcp-size 1" → accepted', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B' }));
    await renders(page, 1);
    await pasteCommand(page, DCP_CMD);
    const card = page.locator('#cards article.card', { hasText: DCP_MSG });
    await card.first().waitFor({ timeout: 5000 });
    // The message is shown verbatim, in its own element.
    const messages = await page.locator('#cards .message').allTextContents();
    assert.ok(messages.includes(DCP_MSG), `cards show: ${JSON.stringify(messages)}`);
    assert.match(await page.locator('#verdict').textContent(), /would reject this: \d+ errors?/);
    const n = await page.evaluate(() => Number(document.body.dataset.renders));
    await card.first().getByRole('button', { name: /Apply: Set --dcp-size 1/ }).click();
    await renders(page, n + 1);
    assert.match(await page.locator('#command').inputValue(), /--dcp-size 1\b/);
    await page.waitForFunction(() => /would accept this/.test(document.querySelector('#verdict').textContent));
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('the wasm is downloaded once: the preload index.html starts is the one boot.js compiles', async () => {
  const { page, context, rec } = await newPage(env);
  const wasm = [];
  context.on('request', (r) => {
    if (r.url().endsWith('.wasm')) wasm.push(r.url());
  });
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    assert.deepEqual(wasm, [env.server.url + 'pkg/sglang_preflight_bg.wasm']);
    // The worker did not fetch it: the page's preload is the only download.
    assert.deepEqual(await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).map((e) => e.initiatorType)), ['link']);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('live check: verdict banner, cards and highlights follow the text', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    assert.match(await page.locator('#verdict').textContent(), /^SGLang 0\.5\.23 on \S+/);
    // Nothing to check → a note, not a crash.
    await pasteCommand(page, 'echo hello');
    assert.match(await page.locator('#verdict').textContent(), /no launch command/);
    assert.equal(await page.locator('#cards .card.info').count(), 1);
    // A non-ASCII prefix: spans arrive in UTF-16 and the highlight sits over the right text.
    await pasteCommand(page, '# ünïcödé 🚀 comment\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp-size 2');
    const text = await page.locator('#command').inputValue();
    const spans = await page.evaluate(() => [...document.querySelectorAll('#backdrop mark.hl')].map((m) => m.textContent));
    const backdrop = await page.locator('#backdrop').textContent();
    assert.equal(backdrop, text + '\n', 'backdrop mirrors the textarea exactly');
    for (const s of spans) assert.ok(s === '\u200b' || text.includes(s));
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('builder round trip: fields → command → permalink → fields; command edits → fields', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B' }));
    await renders(page, 1);
    await page.locator('#builder > summary').click();
    await page.locator('[data-flag="--tp-size"]').waitFor();
    // Searching hides unrelated flags.
    await page.locator('#flag-search').fill('tp-size');
    assert.equal(await page.locator('[data-flag="--port"]').isVisible(), false);
    assert.equal(await page.locator('[data-flag="--tp-size"]').isVisible(), true);
    await page.locator('#flag-search').fill('');
    // The model path from the command is already in its field.
    assert.equal(await page.locator('[data-flag="--model-path"]').inputValue(), 'Qwen/Qwen3-8B');
    const n = await page.evaluate(() => Number(document.body.dataset.renders));
    await page.locator('[data-flag="--tp-size"]').fill('2');
    await page.locator('[data-flag="--kv-cache-dtype"]').selectOption('fp8_e4m3');
    await page.locator('[data-flag="--trust-remote-code"]').check();
    await page.locator('[data-flag="--enable-tf32-matmul"]').selectOption('off');
    await page.locator('[data-flag="--cuda-graph-bs-decode"]').fill('1 2 4 8');
    await renders(page, n + 1);
    await page.waitForFunction(() => document.querySelector('#command').value.includes('--cuda-graph-bs-decode 1 2 4 8'));
    const cmd = await page.locator('#command').inputValue();
    for (const part of ['--model-path Qwen/Qwen3-8B', '--tp-size 2', '--kv-cache-dtype fp8_e4m3', '--trust-remote-code', '--no-enable-tf32-matmul', '--cuda-graph-bs-decode 1 2 4 8']) {
      assert.ok(cmd.includes(part), `command has ${part}: ${cmd}`);
    }
    // The builder edits the text in place: the command as written comes first, untouched.
    assert.ok(cmd.startsWith('python -m sglang.launch_server --model-path Qwen/Qwen3-8B '), cmd);
    // The permalink reproduces the builder state.
    await page.waitForFunction((c) => new URLSearchParams(location.hash.slice(1)).get('cmd') === c, cmd);
    const url = page.url();
    const p2 = await context.newPage();
    await p2.goto(url);
    await renders(p2, 1);
    await p2.locator('#builder > summary').click();
    await p2.locator('[data-flag="--tp-size"]').waitFor();
    assert.equal(await p2.locator('[data-flag="--tp-size"]').inputValue(), '2');
    assert.equal(await p2.locator('[data-flag="--kv-cache-dtype"]').inputValue(), 'fp8_e4m3');
    assert.equal(await p2.locator('[data-flag="--trust-remote-code"]').isChecked(), true);
    assert.equal(await p2.locator('[data-flag="--enable-tf32-matmul"]').inputValue(), 'off');
    assert.equal(await p2.locator('[data-flag="--cuda-graph-bs-decode"]').inputValue(), '1 2 4 8');
    // Editing the command updates the fields.
    const m = await p2.evaluate(() => Number(document.body.dataset.renders));
    await p2.locator('#command').press('End');
    await p2.locator('#command').pressSequentially(' --port 31000');
    await p2.waitForFunction(() => document.querySelector('[data-flag="--port"]').value === '31000');
    assert.ok((await renders(p2, m + 1)) > m);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('builder edits only the setting it changes: wrappers, comments, abbreviations, other commands', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    const text =
      '# serve it\nexport HF_TOKEN=x  # secret\ndocker run --gpus all lmsysorg/sglang \\\n    python3 -m sglang.launch_server \\\n    --model-path Qwen/Qwen3-8B \\\n    --tp 2 \\\n    --port=30000  # port\necho started\npython -m sglang.launch_server --model-path other --tp-size 8\n';
    await page.goto(hashUrl(env, { cmd: text }));
    await renders(page, 1);
    await page.locator('#builder > summary').click();
    await page.locator('[data-flag="--tp-size"]').waitFor();
    // `--tp 2` is argparse's abbreviation of --tp-size; `--port=30000` its = form.
    await page.waitForFunction(() => document.querySelector('[data-flag="--tp-size"]').value === '2');
    assert.equal(await page.locator('[data-flag="--port"]').inputValue(), '30000');
    await page.locator('[data-flag="--tp-size"]').fill('4');
    await page.waitForFunction(() => document.querySelector('#command').value.includes('--tp 4'));
    assert.equal(await page.locator('#command').inputValue(), text.replace('--tp 2', '--tp 4'));
    await page.locator('[data-flag="--port"]').fill('');
    await page.waitForFunction(() => !document.querySelector('#command').value.includes('--port'));
    assert.equal(await page.locator('#command').inputValue(), text.replace('--tp 2', '--tp 4').replace(' \\\n    --port=30000', ''));
    await page.locator('[data-flag="--trust-remote-code"]').check();
    await page.waitForFunction(() => document.querySelector('#command').value.includes('--trust-remote-code'));
    assert.equal(
      await page.locator('#command').inputValue(),
      text.replace('--tp 2', '--tp 4').replace(' \\\n    --port=30000', '').replace('--tp 4', '--tp 4 \\\n    --trust-remote-code'),
    );
    // "only flags that are set" hides the others (rows as well as whole topics).
    await page.locator('#only-set').check();
    assert.equal(await page.locator('[data-flag="--tokenizer-path"]').isVisible(), false);
    assert.equal(await page.locator('[data-flag="--trust-remote-code"]').isVisible(), true);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('Ctrl+Z walks back through every edit the page made, byte for byte: a switch, a builder value, a fix, the paste', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    const text = `# first\nexport A=1\n${DCP_CMD} \\\n    --port=30000   # port\necho done\n`;
    await page.goto(hashUrl(env, { cmd: 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B' }));
    await renders(page, 1);
    await pasteCommand(page, text);
    const value = () => page.locator('#command').inputValue();
    assert.equal(await value(), text);
    const card = page.locator('#cards article.card', { hasText: DCP_MSG });
    await card.first().getByRole('button', { name: /Apply: Set --dcp-size 1/ }).click();
    await page.waitForFunction(() => document.querySelector('#command').value.includes('--dcp-size 1'));
    const fixed = text.replace('--dcp-size 2', '--dcp-size 1');
    assert.equal(await value(), fixed);
    await page.locator('#builder > summary').click();
    await page.locator('[data-flag="--tp-size"]').fill('2');
    await page.waitForFunction(() => document.querySelector('#command').value.includes('--tp-size 2'));
    const withTp = await value();
    await page.locator('[data-flag="--trust-remote-code"]').check();
    await page.waitForFunction(() => document.querySelector('#command').value.includes('--trust-remote-code'));
    // Undo walks back through exactly these texts, never garbling one: the switch, the builder
    // value, the fix, the paste. (Chromium may spend an extra Ctrl+Z on a builder edit's selection.)
    await page.locator('#command').focus();
    const before = 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B';
    const seen = [await value()];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Control+Z');
      const now = await value();
      if (now !== seen[seen.length - 1]) seen.push(now);
    }
    const withSwitch = seen[0];
    assert.ok(withSwitch.includes('--trust-remote-code') && withSwitch.startsWith('# first\nexport A=1\n'));
    assert.deepEqual(seen.slice(1), [withTp, fixed, text, before]);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('permalink round trip: command, YAML, GPU preset and count, version', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    const text = "# note: ünïcode & 'quotes' #frag?x=1\nSGLANG_X=1 python -m sglang.launch_server \\\n  --model-path Qwen/Qwen3-8B --config cfg.yaml --tp 4";
    await pasteCommand(page, text);
    await page.locator('#yaml-box > summary').click();
    await page.locator('#yaml').fill('tp-size: 4\nmem-fraction-static: 0.8 # a=b&c');
    await page.locator('#gpu').selectOption('b200');
    await page.locator('#gpus').fill('4');
    await page.waitForFunction(() => /B200/.test(document.querySelector('#verdict').textContent) && /4×/.test(document.querySelector('#verdict').textContent));
    await page.locator('#share').click();
    const url = page.url();
    const verdict = await page.locator('#verdict').textContent();
    const p2 = await context.newPage();
    await p2.goto(url);
    await renders(p2, 1);
    assert.equal(await p2.locator('#command').inputValue(), text);
    assert.equal(await p2.locator('#yaml').inputValue(), 'tp-size: 4\nmem-fraction-static: 0.8 # a=b&c');
    assert.equal(await p2.locator('#gpu').inputValue(), 'b200');
    assert.equal(await p2.locator('#gpus').inputValue(), '4');
    assert.equal(await p2.locator('#version').inputValue(), '0.5.23');
    await p2.waitForFunction((v) => document.querySelector('#verdict').textContent === v, verdict);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('a check over the time budget is abandoned, the worker replaced, the page responsive', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await installHangableWorker(context);
    await page.goto(env.server.url);
    await renders(page, 1);
    await page.evaluate(() => window.__testWorkers.hangNextCheck());
    const text = await page.locator('#command').inputValue();
    const t0 = Date.now();
    await page.locator('#command').fill(text + ' --tp 2');
    // While the worker spins, the page still answers at once and typing still works.
    const rtt = await page.evaluate(() => new Promise((r) => { const t = performance.now(); requestAnimationFrame(() => r(performance.now() - t)); }));
    assert.ok(rtt < 200, `a frame took ${rtt} ms while the worker hung`);
    await page.locator('#notice').filter({ hasText: /abandoned/ }).waitFor({ timeout: 10000 });
    const waited = Date.now() - t0;
    assert.ok(waited >= 1500 && waited < 9000, `abandoned after ${waited} ms`);
    // the first checker and its replacement
    assert.equal(await page.evaluate(() => window.__testWorkers.started), 2);
    // (Edits typed during the hang are checked by the new worker at once; the notice stays.)
    assert.match(await page.locator('#verdict').textContent(), /did not finish|^SGLang 0\.5\.23 on/);
    // The next edit is checked by the new worker.
    const n = await page.evaluate(() => Number(document.body.dataset.renders));
    await page.locator('#command').pressSequentially(' ');
    await renders(page, n + 1);
    assert.match(await page.locator('#verdict').textContent(), /^SGLang 0\.5\.23 on/);
    assert.equal(await page.locator('#notice').isHidden(), true);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('messages and fix previews keep each flag whole on a line at phone width (no break after a hyphen)', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(hashUrl(env, { cmd: DCP_CMD }));
    await renders(page, 1);
    const card = page.locator('#cards article.card', { hasText: DCP_MSG }).first();
    await card.waitFor({ timeout: 5000 });
    // Every word of every before/after preview is laid out on one line, unless it is longer than
    // a whole line of its preview.
    const broken = await card.evaluate((c) => {
      const out = [];
      for (const pre of c.querySelectorAll('.before-after pre, .message')) {
        const style = getComputedStyle(pre);
        // A word as wide as the line's content box is longer than a line: it may break.
        const width = pre.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1;
        for (const w of pre.querySelectorAll('.w')) {
          const range = document.createRange();
          range.selectNodeContents(w);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1 && w.getBoundingClientRect().width < width) out.push(w.textContent);
        }
      }
      return out;
    });
    const words = await card.locator('.before-after pre .w').allTextContents();
    assert.ok(words.includes('--dcp-size'), `preview words: ${JSON.stringify(words)}`);
    // SGLang's message reads exactly as it did: the words are only laid out.
    assert.equal(await card.locator('.message').textContent(), DCP_MSG);
    assert.deepEqual(broken, [], 'words broken across lines in the previews');
    // The previews still read as the text: the words and spaces, nothing added.
    const before = await card.locator('.before-after pre.before').first().textContent();
    assert.ok(before.includes('--dcp-size 2'), before);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('a vLLM launch is recognized and offered as its SGLang equivalent, flag by flag, in one undoable edit', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    const text = '# served with vLLM before\nCUDA_VISIBLE_DEVICES=0,1 vllm serve Qwen/Qwen3-8B \\\n  --tensor-parallel-size 2 \\\n  --max-model-len 8192 \\\n  --swap-space 4\necho done';
    await pasteCommand(page, text);
    const card = page.locator('#cards .card', { hasText: 'This is a vLLM launch' });
    await card.waitFor();
    // Its own finding says what it is: not listed again with what else the paste runs, which is
    // said as such (there is no SGLang launch for it to run besides).
    const also = page.locator('#also-runs .also-runs');
    assert.equal(await also.locator('.also-head').innerText(), 'This paste runs: 1 command and no SGLang launch. Read it before you run this.');
    assert.deepEqual(await also.locator('.also-cmd').allInnerTexts(), ['echo done']);
    // A note: folded to its line until opened.
    await card.locator('summary').click();
    const explanation = await card.locator('.explanation').innerText();
    assert.match(explanation, /`--tensor-parallel-size 2` → `--tp-size 2`/);
    assert.match(explanation, /`--swap-space 4` dropped: no SGLang equivalent/);
    const before = await page.locator('#command').inputValue();
    await card.locator('button.apply').click();
    await page.waitForFunction((t) => document.querySelector('#command').value !== t, before);
    const after = await page.locator('#command').inputValue();
    // Only the launch changed: the comment, the environment and the next command are as written.
    assert.equal(after, '# served with vLLM before\nCUDA_VISIBLE_DEVICES=0,1 python -m sglang.launch_server \\\n  --model-path Qwen/Qwen3-8B \\\n  --tp-size 2 \\\n  --context-length 8192\necho done');
    // The result is checked as an SGLang launch.
    await page.waitForFunction(() => /would (accept|reject)/.test(document.querySelector('#verdict').textContent));
    await page.keyboard.press('Control+z');
    await page.waitForFunction((t) => document.querySelector('#command').value === t, before);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('the examples menu is labelled, loads a recorded scenario on its hardware, and Ctrl+Z brings the text back', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    const menu = page.getByLabel('Load an example command');
    const labels = await menu.locator('option').allTextContents();
    assert.equal(labels[0], 'Examples…');
    assert.ok(labels.includes('DeepSeek-V3 with MTP and DP attention on 8×H200'), labels.join(' | '));
    const before = await page.locator('#command').inputValue();
    const n = await page.evaluate(() => Number(document.body.dataset.renders || 0));
    await menu.selectOption({ label: 'A docker launch' });
    await renders(page, n + 1);
    assert.match(await page.locator('#command').inputValue(), /^docker run --gpus all/);
    assert.equal(await page.locator('#gpu').inputValue(), 'h100');
    assert.equal(await menu.inputValue(), '', 'the menu goes back to its label');
    await page.locator('#command').focus();
    await page.keyboard.press('Control+z');
    await page.waitForFunction((t) => document.querySelector('#command').value === t, before);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('"What SGLang will run with": known values with the step that set them, a pin that writes the flag, what is not known and why', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    const text = 'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2';
    await pasteCommand(page, text);
    const box = page.locator('#resolved details.resolved');
    // the page's check leaves the values out: they are asked for when the section is opened
    assert.equal(await box.locator('summary').textContent(), 'What SGLang will run with');
    assert.equal(await box.locator('tr').count(), 0);
    await box.locator('summary').click();
    const row = (flag) => box.locator('tr', { has: page.locator('.rv-flag code', { hasText: new RegExp(`^${flag}$`) }) });
    assert.equal(await row('--tp-size').locator('.rv-value code').textContent(), '2');
    const rows = await box.locator('table.resolved-values tr').count();
    assert.ok(rows > 10, `${rows} rows`);
    assert.equal(await box.locator('summary').textContent(), `What SGLang will run with (${rows} values known here)`);
    assert.equal(await row('--tp-size').locator('.rv-how').textContent(), 'from the command');
    // a value a start-up step derived, with its step and a pin
    const derived = box.locator('tr', { has: page.locator('.rv-how', { hasText: /^set by / }) }).filter({ has: page.locator('button.apply') }).first();
    await derived.waitFor();
    const flag = await derived.locator('.rv-flag code').textContent();
    const value = await derived.locator('.rv-value code').textContent();
    assert.match(await box.locator('.resolved-unknown').textContent(), /Not known here \(needs the model's config\): .*context_length/);
    const before = await page.locator('#command').inputValue();
    await derived.locator('button.apply').click();
    await page.waitForFunction((t) => document.querySelector('#command').value !== t, before);
    const after = await page.locator('#command').inputValue();
    assert.ok(after.startsWith(before), `only appended: ${after}`);
    assert.ok(after.includes(flag), `${flag} written: ${after}`);
    assert.ok(value.length > 0);
    await page.keyboard.press('Control+z');
    await page.waitForFunction((t) => document.querySelector('#command').value === t, before);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('an edit before a finding keeps its card, and the card acts on the finding as it is now', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url);
    await renders(page, 1);
    const lines = (gap) => DCP_CMD.replace('python -m', `python${gap}-m`).split(' --').join(' \\\n  --');
    await pasteCommand(page, lines(' '));
    const card = page.locator('#cards article.card', { hasText: DCP_MSG });
    await card.first().waitFor({ timeout: 5000 });
    const located = async () => {
      await card.first().locator('button.where').click();
      return page.evaluate(() => {
        const c = document.querySelector('#command');
        return c.value.slice(c.selectionStart, c.selectionEnd);
      });
    };
    const span = await located();
    assert.ok(span.length > 0);
    await card.first().evaluate((c) => (window.__keptCard = c));
    // Two more spaces on line 1: every later offset moves, the card shows the same.
    await pasteCommand(page, lines('   '));
    assert.ok(await card.first().evaluate((c) => c === window.__keptCard), 'the same card element');
    assert.equal(await located(), span, 'locates the moved span');
    const n = await page.evaluate(() => Number(document.body.dataset.renders));
    await card.first().getByRole('button', { name: /Apply: Set --dcp-size 1/ }).click();
    await renders(page, n + 1);
    assert.equal(await page.locator('#command').inputValue(), lines('   ').replace('--dcp-size 2', '--dcp-size 1'));
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});
