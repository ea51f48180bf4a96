// The command editor: underlines and gutter markers at each finding's characters, the finding on
// hover and under the caret (its card marked), a card's location selecting its span, a box that
// grows with its text, and "Apply all safe fixes" as one undoable change with its diff.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, cleanState, renders, pasteCommand, hashUrl } from './harness.mjs';

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

// Two invalid choices, each with a safe fix, in a wrapped and commented launch.
const TYPOS = `# Serve Llama on one GPU
python3 -m sglang.launch_server \\
  --model-path meta-llama/Llama-3.1-8B-Instruct \\
  --tool-call-parser lama3 \\
  --attention-backend flashinfr   # typo here
`;

async function openWith(page, text) {
  await page.goto(hashUrl(env, { cmd: text, gpu: 'h100' }));
  await renders(page);
  await page.waitForFunction(() => !document.querySelector('#verdict').classList.contains('pending'));
}

/** Each error underline in the backdrop: its [start, end) in the text, and its text. */
function errorMarks(page) {
  return page.evaluate(() => {
    const backdrop = document.querySelector('#backdrop');
    return [...backdrop.querySelectorAll('mark.hl.error')].map((m) => {
      const r = document.createRange();
      r.setStart(backdrop, 0);
      r.setEndBefore(m);
      const start = r.toString().length;
      return { start, end: start + m.textContent.length, text: m.textContent };
    });
  });
}

/** The centre of the first screen box of the error underline over `text`. */
async function markCentre(page, text) {
  return page.evaluate((t) => {
    const m = [...document.querySelectorAll('#backdrop mark.hl.error')].find((x) => x.textContent === t);
    const r = m.getClientRects()[0];
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }, text);
}

test('underlines and gutter markers sit at the characters of each finding', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await openWith(page, TYPOS);
    const lama = TYPOS.indexOf('lama3');
    const flash = TYPOS.indexOf('flashinfr');
    assert.deepEqual(await errorMarks(page), [
      { start: lama, end: lama + 5, text: 'lama3' },
      { start: flash, end: flash + 9, text: 'flashinfr' },
    ]);
    // One gutter marker per finding start, in the gutter (left of the text), on the row of its underline.
    const gutter = await page.evaluate(() => {
      const text = document.querySelector('#command');
      const padLeft = text.getBoundingClientRect().left + parseFloat(getComputedStyle(text).paddingLeft);
      return [...document.querySelectorAll('#backdrop .gm.error')].map((g) => {
        const r = g.getBoundingClientRect();
        const at = Number(g.dataset.at);
        const mark = [...document.querySelectorAll('#backdrop mark.hl.error')].find((m) => {
          const range = document.createRange();
          range.setStart(document.querySelector('#backdrop'), 0);
          range.setEndBefore(m);
          return range.toString().length === at;
        });
        const row = mark.getClientRects()[0];
        return { at, inGutter: r.right <= padLeft, onRow: r.top >= row.top - 1 && r.bottom <= row.bottom + 1, width: r.width };
      });
    });
    assert.deepEqual(
      gutter.map(({ at, inGutter, onRow }) => ({ at, inGutter, onRow })),
      [
        { at: flash, inGutter: true, onRow: true },
        { at: lama, inGutter: true, onRow: true },
      ].sort((a, b) => a.at - b.at),
    );
    assert.ok(gutter.every((g) => g.width > 4), 'markers are visible');
    // The markers change nothing in the text the backdrop lays out.
    assert.equal(await page.evaluate(() => document.querySelector('#backdrop').textContent), TYPOS + '\n');
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('hovering a marked span or its gutter marker shows its finding; the caret in it shows it and marks its card', async () => {
  const { page, context } = await newPage(env);
  try {
    await openWith(page, TYPOS);
    const tip = page.locator('#hover-tip');
    assert.equal(await tip.isVisible(), false);
    const c = await markCentre(page, 'lama3');
    await page.mouse.move(c.x, c.y);
    await tip.waitFor({ state: 'visible' });
    assert.match(await tip.textContent(), /invalid choice: 'lama3'/);
    assert.match(await tip.textContent(), /Fix: Use 'llama3'/);
    // Off the span: gone.
    await page.mouse.move(c.x, c.y + 300);
    await tip.waitFor({ state: 'hidden' });
    // The gutter marker of the other finding.
    const g = await page.evaluate((at) => {
      const r = document.querySelector(`#backdrop .gm[data-at="${at}"]`).getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    }, TYPOS.indexOf('flashinfr'));
    await page.mouse.move(g.x, g.y);
    await tip.waitFor({ state: 'visible' });
    assert.match(await tip.textContent(), /invalid choice: 'flashinfr'/);
    await page.mouse.move(5, 5);
    await tip.waitFor({ state: 'hidden' });

    // The caret (keyboard) inside `flashinfr`: the tooltip, the card marked, the words for screen readers.
    await page.locator('#command').focus();
    const at = TYPOS.indexOf('flashinfr') + 3;
    await page.evaluate((i) => document.querySelector('#command').setSelectionRange(i, i), at - 1);
    await page.keyboard.press('ArrowRight');
    await tip.waitFor({ state: 'visible' });
    assert.equal(await tip.getAttribute('data-why'), 'caret');
    assert.match(await tip.textContent(), /'flashinfr'/);
    const current = page.locator('#cards .card.current');
    assert.equal(await current.count(), 1);
    assert.match(await current.locator('.message').textContent(), /invalid choice: 'flashinfr'/);
    assert.match(await page.locator('#caret-finding').textContent(), /error ARG005: argument --attention-backend: invalid choice: 'flashinfr'/);
    // Out of the span: no tooltip, no card marked.
    await page.keyboard.press('Control+Home');
    await tip.waitFor({ state: 'hidden' });
    assert.equal(await current.count(), 0);
  } finally {
    await context.close();
  }
});

test("a card's location selects its span in the editor, and that marks the card", async () => {
  const { page, context } = await newPage(env);
  try {
    await openWith(page, TYPOS);
    const card = page.locator('#cards .card.error', { hasText: "'lama3'" });
    await card.locator('button.where').click();
    const sel = await page.evaluate(() => {
      const t = document.querySelector('#command');
      return { focused: document.activeElement === t, text: t.value.slice(t.selectionStart, t.selectionEnd) };
    });
    assert.deepEqual(sel, { focused: true, text: 'lama3' });
    await page.locator('#cards .card.current').waitFor();
    assert.equal(await page.locator('#cards .card.current').count(), 1);
    assert.equal(await card.evaluate((c) => c.classList.contains('current')), true);
  } finally {
    await context.close();
  }
});

// Two typos with safe fixes; once they are fixed, SGLang's check stage runs and a second round
// adds a setting next to the fixed backend. Around them: comments, a secret, a wrapper line.
const ROUNDS = `# Decode server: two typos, and a setting SGLang rejects once they are fixed
export HF_TOKEN=hf_secret   # token
python3 -m sglang.launch_server \\
  --model-path meta-llama/Llama-3.1-8B-Instruct \\
  --tool-call-parser lama3 \\
  --disaggregation-mode decode --dcp-size 2 \\
  --disaggregation-decode-retraction-backup host_pool \\
  --attention-backend flashinfr   # typo here
`;

test('Apply all safe fixes changes only the fixed spans, shows the diff, and one undo restores the original', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await openWith(page, ROUNDS);
    const button = page.locator('#fix-all');
    assert.equal(await button.textContent(), 'Apply all safe fixes (2)');
    const n = await renders(page);
    await button.click();
    await page.waitForFunction((orig) => document.querySelector('#command').value !== orig, ROUNDS);
    const fixed = await page.locator('#command').inputValue();
    // Byte for byte: the original with exactly these spans replaced (the second round's
    // addition joins the first round's edit it touches).
    const lama = ROUNDS.indexOf('lama3');
    const flash = ROUNDS.indexOf('flashinfr');
    const expected = ROUNDS.slice(0, lama) + 'llama3' + ROUNDS.slice(lama + 5, flash) + 'flashinfer --cuda-graph-backend-prefill disabled' + ROUNDS.slice(flash + 9);
    assert.equal(fixed, expected);
    // The diff: the lines as they were and as they are, what went and what came.
    const diff = page.locator('#fix-diff');
    await diff.waitFor({ state: 'visible' });
    assert.match(await diff.locator('.fix-diff-head').textContent(), /^Applied 3 safe fixes \(2 changes;/);
    assert.deepEqual(await diff.locator('del').allTextContents(), ['lama3', 'flashinfr']);
    assert.deepEqual(await diff.locator('ins').allTextContents(), ['llama3', 'flashinfer --cuda-graph-backend-prefill disabled']);
    assert.deepEqual(await diff.locator('.diff-where').allTextContents(), ['line 5', 'line 8']);
    await renders(page, n + 1);

    // One Ctrl+Z: the original, every byte; the diff goes.
    await page.locator('#command').focus();
    await page.keyboard.press('Control+z');
    assert.equal(await page.locator('#command').inputValue(), ROUNDS);
    await diff.waitFor({ state: 'hidden' });
    // Redo and Undo buttons walk the same history.
    await page.locator('#redo').click();
    assert.equal(await page.locator('#command').inputValue(), expected);
    await page.locator('#undo').click();
    assert.equal(await page.locator('#command').inputValue(), ROUNDS);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('the editor grows with its text (up to most of the screen) instead of scrolling inside', async () => {
  const { page, context } = await newPage(env);
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openWith(page, 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B');
    const size = () => page.evaluate(() => {
      const t = document.querySelector('#command');
      return { height: t.getBoundingClientRect().height, scrolls: t.scrollHeight > t.clientHeight + 1 };
    });
    const short = await size();
    assert.equal(short.scrolls, false);
    const lines = ['python -m sglang.launch_server \\', ...Array.from({ length: 24 }, (_, i) => `  --model-path m${i} \\`), '  --tp-size 2'];
    await pasteCommand(page, lines.join('\n'));
    const long = await size();
    assert.equal(long.scrolls, false, 'no scrollbar inside the editor');
    assert.ok(long.height > short.height + 300, `${short.height} → ${long.height}`);
    // Past 75% of the window it stops growing and scrolls.
    await pasteCommand(page, [...lines, ...lines, ...lines].join('\n'));
    const huge = await size();
    assert.ok(huge.height <= 900 * 0.75 + 1 && huge.scrolls, JSON.stringify(huge));
    // A short text again: it shrinks back once typing pauses.
    await pasteCommand(page, 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B');
    await page.waitForFunction((h) => Math.abs(document.querySelector('#command').getBoundingClientRect().height - h) < 2, short.height, { timeout: 3000 });
  } finally {
    await context.close();
  }
});
