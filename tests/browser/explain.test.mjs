// The explain view in a real browser: every flag of the command with SGLang's help text, its
// default and the value SGLang will run with; each flag selects its text in the command.
// Run: npm run build && node --test tests/browser/explain.test.mjs
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

/** The rows of the explain view: what is written, help, and its facts by name. */
function rows(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('#explain .ex-flag')].map((li) => ({
      written: li.querySelector('.ex-written').textContent,
      option: li.dataset.option,
      help: li.querySelector('.ex-help')?.textContent ?? null,
      facts: Object.fromEntries([...li.querySelectorAll('.ex-facts dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])),
      findings: [...li.querySelectorAll('.ex-finding')].map((f) => f.textContent),
    })),
  );
}

async function openExplain(page) {
  const shown = await page.evaluate(() => Number(document.querySelector('#explain .explain-body').dataset.shown || 0));
  await page.locator('#explain > summary').click();
  await page.waitForFunction((n) => Number(document.querySelector('#explain .explain-body').dataset.shown || 0) > n, shown);
}

test('each flag with its help text, default and the value SGLang will run with; clicking one selects it', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    // A model the catalog does not know: what needs its config is said to need it.
    const text = '# serve\nexport A=1\npython -m sglang.launch_server --model-path my-org/my-model \\\n  --tp 2 --log-level=debug --attention-backend fa3\n';
    await page.goto(hashUrl(env, { cmd: text }));
    await renders(page, 1);
    assert.equal(await page.locator('#explain').getAttribute('open'), null, 'folded by default');
    await openExplain(page);
    const got = await rows(page);
    assert.deepEqual(got.map((r) => r.written), ['--model-path my-org/my-model', '--tp 2', '--log-level=debug', '--attention-backend fa3']);
    const tp = got[1];
    assert.equal(tp.option, '--tp-size');
    assert.equal(tp.help, 'The tensor parallelism size.');
    assert.deepEqual(tp.facts, { default: '1', 'runs with': '2 from the command' });
    assert.deepEqual(got[2].facts, { default: "'info'", 'runs with': "'debug' as parsed; no start-up step changes it" });
    // fa3's resolved value needs the model's config: said, with the checks that did not run
    assert.match(got[3].facts['runs with'], /^not known here: needs the model's config/);
    assert.match(got[3].facts['not run'], /^\d+ checks? naming it need the model's config$/);
    // The written flag selects exactly its bytes in the command.
    await page.locator('#explain .ex-written', { hasText: '--tp 2' }).click();
    const selected = await page.evaluate(() => {
      const c = document.querySelector('#command');
      return c.value.slice(c.selectionStart, c.selectionEnd);
    });
    assert.equal(selected, '--tp 2');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'command');
    // It follows the text while open.
    const shown = await page.evaluate(() => Number(document.querySelector('#explain .explain-body').dataset.shown));
    await pasteCommand(page, 'python -m sglang.launch_server --model-path m --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool');
    await page.waitForFunction((n) => Number(document.querySelector('#explain .explain-body').dataset.shown) > n, shown);
    const rejected = await rows(page);
    assert.equal(rejected.length, 4);
    for (const r of rejected) assert.equal(r.facts['runs with'], 'nothing: SGLang rejects this command');
    assert.deepEqual(rejected[3].findings, ['KV029 --disaggregation-decode-retraction-backup=host_pool does not support --dcp-size > 1.']);
    assert.equal(await page.locator('#explain .ex-flag.has-error').count(), 1);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('several commands are explained each under its own heading', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    const text = 'python -m sglang.launch_server --model-path a --tp-size 2 &\nsglang serve b --port 31000\n';
    await page.goto(hashUrl(env, { cmd: text }));
    await renders(page, 1);
    await openExplain(page);
    assert.deepEqual(await page.locator('#explain h3').allTextContents(), ['Command 1', 'Command 2']);
    assert.deepEqual((await rows(page)).map((r) => r.written), ['--model-path a', '--tp-size 2', 'b', '--port 31000']);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});
