// Under attack: huge inputs render without blocking the page (no main-thread task over 1 s),
// findings come a page at a time, a failed check never leaves a stale verdict, a replaced worker
// reuses the compiled wasm, and one widget's hanging check fails only that widget.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, renders, pasteCommand, hashUrl, cleanState, installHangableWorker, recordLongTasks, longTasks, countWasmFetches } from './harness.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const BASE = 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B ';
const DCP_CMD =
  'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool';

/** The report for the permalink is up, or the check of it failed; then some quiet time. */
async function settled(page) {
  // A command naming a model is drawn again when the catalog's facts arrive: the page marks the
  // report drawn before them `data-pending` (on a loaded machine the second one came more than a
  // second later, after the test had clicked "more" on the first one's cards).
  await page.waitForFunction(
    () => (Number(document.body.dataset.renders || 0) >= 1 && !document.body.dataset.pending) || document.querySelector('#verdict').classList.contains('failed'),
    null,
    { timeout: 60000 },
  );
  // and no render for a second after that
  const count = () => page.evaluate(() => Number(document.body.dataset.renders || 0));
  let seen = -1;
  for (let now = await count(); now !== seen; now = await count()) {
    seen = now;
    await page.waitForTimeout(1000);
  }
}

for (const [name, repeats, size] of [
  ['a 210 KB command with ~30,000 findings', 30000, 200e3],
  ['the 700 KB permalink (--tp 2 100,000 times)', 100000, 700e3],
]) {
  test(`${name}: no main-thread task over 1 s; a page of cards, the next on request`, async () => {
    const { page, context, rec } = await newPage(env);
    try {
      await recordLongTasks(context);
      const cmd = BASE + '--tp 2 '.repeat(repeats);
      assert.ok(cmd.length >= size, `${cmd.length} chars`);
      await page.goto(hashUrl(env, { cmd }));
      await settled(page);
      const tasks = await longTasks(page);
      const longest = Math.max(0, ...tasks);
      console.log(`# ${name}: longest main-thread task ${longest} ms (long tasks: ${tasks.join(', ') || 'none'})`);
      assert.ok(longest < 1000, `a main-thread task took ${longest} ms`);
      assert.equal(await page.locator('#command').inputValue(), cmd);
      if (await page.locator('#verdict.failed').count()) {
        // A slow machine may run over the check's budget: then no stale or partial result.
        assert.equal(await page.locator('#cards .card').count(), 0);
        return;
      }
      assert.match(await page.locator('#verdict').textContent(), /would accept this: \d{5} warnings/);
      assert.equal(await page.locator('#cards .card').count(), 40);
      assert.ok((await page.locator('#backdrop mark.hl').count()) <= 5000);
      assert.match(await page.locator('#hl-note').textContent(), /^The first 5000 of \d+ highlights/);
      const more = page.locator('#cards button.more');
      assert.match(await more.textContent(), /^Show 40 more findings \(\d+ not shown\)$/);
      // the next page of cards is drawn after the click returns: wait for it, then count
      const cardsDrawn = (n) => page.waitForFunction((k) => document.querySelectorAll('#cards .card').length >= k, n, { timeout: 10000 });
      await more.click();
      await cardsDrawn(80);
      assert.equal(await page.locator('#cards .card').count(), 80);
      await more.click();
      await cardsDrawn(120);
      assert.equal(await page.locator('#cards .card').count(), 120);
      const after = Math.max(0, ...(await longTasks(page)));
      assert.ok(after < 1000, `a main-thread task took ${after} ms`);
      assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
    } finally {
      await context.close();
    }
  });
}

test('typing goes on while a 30,000-finding report is drawn', async () => {
  const { page, context } = await newPage(env);
  try {
    await recordLongTasks(context);
    await page.goto(env.server.url);
    await renders(page, 1);
    await pasteCommand(page, BASE + '--tp 2 '.repeat(30000));
    await pasteCommand(page, DCP_CMD);
    assert.match(await page.locator('#verdict').textContent(), /would reject this/);
    assert.equal(await page.locator('#hl-note').isHidden(), true);
    assert.equal(await page.locator('#backdrop').textContent(), DCP_CMD + '\n');
    assert.ok(Math.max(0, ...(await longTasks(page))) < 1000);
  } finally {
    await context.close();
  }
});

/** A host page under the server with these widgets (and widget.js). */
async function hostPage(context, name, widgets) {
  const body = widgets
    .map(([id, cmd]) => `<sglang-preflight id="${id}" gpu="h100" command="${cmd.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"></sglang-preflight>`)
    .join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; style-src 'self'; base-uri 'none'">
<title>host</title><script type="module" src="./widget.js"></script></head><body><main>${body}</main></body></html>`;
  await context.route(`**/${name}`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
}

test('eight widgets with 6,000 repeats each do not block their host page', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await recordLongTasks(context);
    const ids = Array.from({ length: 8 }, (_, i) => `w${i}`);
    await hostPage(context, 'eight.html', ids.map((id) => [id, BASE + '--tp 2 '.repeat(6000)]));
    await page.goto(env.server.url + 'eight.html');
    // The host page answers while the widgets check and draw.
    const frames = [];
    const t0 = Date.now();
    while (Date.now() - t0 < 60000) {
      const rtt = await page.evaluate(() => new Promise((r) => { const t = performance.now(); requestAnimationFrame(() => r(performance.now() - t)); }));
      frames.push(Math.round(rtt));
      const done = await page.evaluate(() => [...document.querySelectorAll('sglang-preflight')].every((w) => w.shadowRoot.querySelector('.verdict:not(.pending)')));
      if (done) break;
    }
    await page.waitForTimeout(500);
    const tasks = await longTasks(page);
    const longest = Math.max(0, ...tasks);
    console.log(`# eight widgets × 6,000 repeats: longest main-thread task ${longest} ms; frame waits ${Math.max(...frames)} ms at most`);
    assert.ok(longest < 1000, `a main-thread task took ${longest} ms`);
    for (const id of ids) {
      const w = page.locator(`sglang-preflight#${id}`);
      assert.match(await w.locator('.verdict').textContent(), /would accept this: 5999 warnings/);
      assert.equal(await w.locator('.card').count(), 10);
      assert.match(await w.locator('button.more').textContent(), /^Show 10 more findings \(5989 not shown\)$/);
    }
    // Warnings are behind the widget's toggle; opened, their next page comes on request.
    await page.locator('sglang-preflight#w3 button.toggle').click();
    await page.locator('sglang-preflight#w3 button.more').click();
    assert.equal(await page.locator('sglang-preflight#w3 .card').count(), 20);
    assert.equal(page.workers().length, 1);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('a failed check clears the previous result and says so; the worker is replaced without fetching the wasm again', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await installHangableWorker(context);
    const wasm = countWasmFetches(context);
    await page.goto(hashUrl(env, { cmd: DCP_CMD }));
    await renders(page, 1);
    await page.waitForFunction(() => /would reject this/.test(document.querySelector('#verdict').textContent));
    assert.ok((await page.locator('#cards .card').count()) > 0);
    assert.ok((await page.locator('#backdrop mark.hl').count()) > 0);
    assert.equal(wasm.n, 1);

    const expectCleared = async (why) => {
      await page.locator('#verdict.failed').waitFor({ timeout: 10000 });
      assert.match(await page.locator('#verdict').textContent(), new RegExp(`^No verdict: the check did not finish \\(${why}\\)`));
      assert.equal(await page.locator('#cards .card').count(), 0);
      assert.equal(await page.locator('#backdrop mark').count(), 0);
      assert.equal(await page.locator('#backdrop').textContent(), (await page.locator('#command').inputValue()) + '\n');
    };
    const nextCheckWorks = async () => {
      const n = await page.evaluate(() => Number(document.body.dataset.renders));
      await page.locator('#command').pressSequentially(' ');
      await renders(page, n + 1);
      assert.match(await page.locator('#verdict').textContent(), /would reject this/);
      assert.ok((await page.locator('#cards .card').count()) > 0);
      assert.equal(await page.locator('#notice').isHidden(), true);
    };

    // A stack overflow in the check (the worker reports a crash and is replaced).
    await page.evaluate(() => window.__testWorkers.overflowNextCheck());
    await page.locator('#command').pressSequentially(' ');
    await expectCleared('the checker crashed');
    assert.match(await page.locator('#notice').textContent(), /crashed on this input.*stack overflow/);
    await page.waitForFunction(() => window.__testWorkers.started === 2);
    await nextCheckWorks();

    // A check that hangs (abandoned at its budget, the worker replaced).
    await page.evaluate(() => window.__testWorkers.hangNextCheck());
    await page.locator('#command').pressSequentially(' ');
    await expectCleared('it took too long');
    assert.match(await page.locator('#notice').textContent(), /abandoned/);
    assert.equal(await page.evaluate(() => window.__testWorkers.started), 3);
    await nextCheckWorks();

    // Both replacements were given the compiled module: the wasm was fetched once.
    assert.equal(wasm.n, 1);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('widgets are independent: one hanging check fails only its own widget, the others are checked by the replacement', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await installHangableWorker(context);
    const wasm = countWasmFetches(context);
    await hostPage(context, 'four.html', []);
    await page.goto(env.server.url + 'four.html');
    await page.waitForFunction(() => customElements.get('sglang-preflight'));
    // The first check sent to the worker hangs: the first widget's.
    await page.evaluate((cmds) => {
      window.__testWorkers.hangNextCheck();
      for (const [i, c] of cmds.entries()) {
        const w = document.createElement('sglang-preflight');
        w.id = `w${i}`;
        w.setAttribute('gpu', 'h100');
        w.setAttribute('command', c);
        document.querySelector('main').append(w);
      }
    }, [BASE + '--tp 2', DCP_CMD, BASE + '--tp 4', DCP_CMD]);
    for (const i of [0, 1, 2, 3]) await page.locator(`sglang-preflight#w${i} .verdict:not(.pending), sglang-preflight#w${i} .verdict.failed`).waitFor({ timeout: 15000 });
    assert.match(await page.locator('sglang-preflight#w0 .verdict').textContent(), /^No verdict: The check took longer than 2 s and was abandoned/);
    assert.equal(await page.locator('sglang-preflight#w0 .card').count(), 0);
    assert.match(await page.locator('sglang-preflight#w1 .verdict').textContent(), /would reject this/);
    assert.match(await page.locator('sglang-preflight#w2 .verdict').textContent(), /would accept this/);
    assert.match(await page.locator('sglang-preflight#w3 .verdict').textContent(), /would reject this/);
    assert.equal(await page.evaluate(() => window.__testWorkers.started), 2);
    // The failed widget checks again when asked, on the replacement.
    await page.evaluate(() => document.querySelector('#w0').setAttribute('command', 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 2 '));
    await page.locator('sglang-preflight#w0 .verdict:not(.pending)').waitFor({ timeout: 10000 });
    assert.match(await page.locator('sglang-preflight#w0 .verdict').textContent(), /would accept this/);
    // A crash in one widget's check: only that widget fails.
    await page.evaluate(() => {
      window.__testWorkers.overflowNextCheck();
      document.querySelector('#w1').setAttribute('gpus', '8');
      document.querySelector('#w2').setAttribute('gpus', '8');
    });
    await page.locator('sglang-preflight#w1 .verdict.failed').waitFor({ timeout: 10000 });
    assert.match(await page.locator('sglang-preflight#w1 .verdict').textContent(), /crashed.*stack overflow/);
    await page.locator('sglang-preflight#w2 .verdict:not(.pending)').waitFor({ timeout: 10000 });
    assert.match(await page.locator('sglang-preflight#w2 .verdict').textContent(), /would accept this/);
    assert.equal(await page.evaluate(() => window.__testWorkers.started), 3);
    assert.equal(wasm.n, 1);
    // (A terminated worker is reported closed a moment later.)
    for (let i = 0; i < 50 && page.workers().length > 1; i++) await page.waitForTimeout(100);
    assert.equal(page.workers().length, 1);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});
