// Hostile --config YAML in the page (issue 15): block YAML nested 5,000 deep once overflowed the
// worker's stack and left the previous green verdict on screen; an alias bomb read as "would
// accept this: 1 error". Both now give one clear verdict: SGLang's RecursionError, a rejection.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, renders, hashUrl, cleanState, pasteCommand } from './harness.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const CMD = 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B --config cfg.yaml';

async function verdictFor(yaml) {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: CMD, yaml }));
    await renders(page, 1);
    await page.waitForFunction(() => !document.querySelector('#verdict').classList.contains('pending'));
    const verdict = await page.locator('#verdict').textContent();
    const codes = await page.locator('#cards article.card').evaluateAll((cards) => cards.map((c) => c.textContent));
    return { verdict, codes, state: await cleanState(page, rec) };
  } finally {
    await context.close();
  }
}

test('block YAML nested 5,000 deep: SGLang\'s RecursionError, not a crash or a stale verdict', async () => {
  const deep = `tp-size:\n${'- '.repeat(5000)}x\n`; // compact nested sequences: 10 KB
  const { verdict, codes, state } = await verdictFor(deep);
  assert.match(verdict, /would reject this/);
  assert.ok(codes.some((c) => c.includes('CFG010') && c.includes('RecursionError')), JSON.stringify(codes.map((c) => c.slice(0, 120))));
  assert.deepEqual(state, { csp: [], errors: [], external: [], dialogs: [] });
});

test('a YAML alias bomb gets one clear rejection', async () => {
  const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    const cur = String.fromCharCode(97 + i);
    levels.push(`${cur}: &${cur} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`);
  }
  const { verdict, codes, state } = await verdictFor(`${levels.join('\n')}\ntp-size: 2\n`);
  assert.match(verdict, /would reject this/);
  assert.ok(codes.some((c) => c.includes('CFG009')), JSON.stringify(codes.map((c) => c.slice(0, 120))));
  assert.deepEqual(state, { csp: [], errors: [], external: [], dialogs: [] });
});

test('the YAML is read for whatever --config path the command names, as it is edited', async () => {
  // The page checks each edit with the same options (the YAML among them); the path the YAML
  // stands for comes from the command's text of that check.
  const { page, context, rec } = await newPage(env);
  const cards = () => page.locator('#cards article.card').evaluateAll((all) => all.map((c) => c.textContent));
  const badInt = (texts) => texts.some((t) => t.includes("invalid int value: 'notanint'"));
  try {
    await page.goto(hashUrl(env, { cmd: CMD, yaml: 'tp-size: notanint\n' }));
    await renders(page, 1);
    await page.waitForFunction(() => !document.querySelector('#verdict').classList.contains('pending'));
    assert.ok(badInt(await cards()), 'cfg.yaml: the YAML is read');
    for (const [cmd, read] of [
      [CMD.replace('cfg.yaml', 'other.yaml'), true],
      ['python -m sglang.launch_server --model-path Qwen/Qwen3-8B', false],
      [CMD, true],
    ]) {
      await pasteCommand(page, cmd);
      assert.equal(badInt(await cards()), read, `${cmd}: the YAML is ${read ? '' : 'not '}read`);
    }
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});
