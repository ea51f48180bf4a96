// The rule reference in the site: a card's code links to its rule page, the rule page shows
// SGLang's message and the fixes, and the compatibility matrix's filter hides the rows that do
// not match. Run: npm run build && node --test tests/browser/rules.test.mjs
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

// PAR001: SGLang's `dcp_size must be positive`, with a fix (tests/output_formats.rs uses it too).
const DCP_CMD = 'python -m sglang.launch_server --model-path Qwen/Qwen3-8B --dcp-size 0';

test("a card's code links to its rule page, which shows SGLang's message and the fixes", async () => {
  const { page, rec } = await newPage(env);
  try {
    await page.goto(hashUrl(env, { cmd: DCP_CMD }));
    await renders(page, 1);
    const link = page.locator('.card .code-link', { hasText: 'PAR001' }).first();
    assert.equal(await link.getAttribute('href'), `${env.server.url}rules/PAR001.html`);
    await Promise.all([page.waitForURL(`${env.server.url}rules/PAR001.html`), link.click()]);
    assert.match(await page.locator('h1').textContent(), /PAR001/);
    assert.match(await page.locator('pre.message').textContent(), /dcp_size/);
    const fixes = await page.locator('ul.fixes li').allTextContents();
    assert.ok(fixes.length > 0, 'the rule page lists the fixes offered');
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await page.context().close();
  }
});

test('the compatibility matrix filter hides the rows (and columns) whose flags do not match', async () => {
  const { page, rec } = await newPage(env);
  try {
    await page.goto(`${env.server.url}compatibility.html`);
    const rows = page.locator('#matrix tbody tr');
    const all = await rows.count();
    assert.ok(all > 50, `${all} rows`);
    await page.locator('#matrix-filter').fill('--dcp-size');
    const visible = await page.$$eval('#matrix tbody tr', (trs) => trs.filter((tr) => !tr.hidden).map((tr) => tr.dataset.flag));
    assert.deepEqual(visible, ['--dcp-size']);
    assert.equal(await page.locator('#matrix tbody tr[data-flag="--tp-size"]').isVisible(), false);
    // the columns left are --dcp-size's partners (the flags with a cell in its row) and itself
    const partners = await page.$$eval('#matrix tbody tr[data-flag="--dcp-size"] td', (tds) => tds.map((td, i) => (td.firstChild ? i : -1)).filter((i) => i >= 0));
    const shownColumns = await page.$$eval('#matrix col[data-flag]', (cols) => cols.map((c, i) => (c.classList.contains('collapsed') ? -1 : i)).filter((i) => i >= 0));
    assert.ok(partners.length > 0);
    for (const i of partners) assert.ok(shownColumns.includes(i), `column ${i} is shown`);
    assert.ok(shownColumns.length < all, `${shownColumns.length} columns of ${all}`);
    // each cell links to its rules
    const cellLink = page.locator('#matrix tbody tr[data-flag="--dcp-size"] td a').first();
    assert.match(await cellLink.getAttribute('href'), /^rules\/[A-Z]+\d+\.html$/);
    await page.locator('#matrix-filter').fill('');
    assert.equal(await page.$$eval('#matrix tbody tr', (trs) => trs.filter((tr) => !tr.hidden).length), all);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await page.context().close();
  }
});

test('a rule page links its flags to their rows of the matrix (?filter=)', async () => {
  const { page, rec } = await newPage(env);
  try {
    await page.goto(`${env.server.url}rules/PAR001.html`);
    await Promise.all([page.waitForURL(/compatibility\.html\?filter=/), page.locator('a', { hasText: '--dcp-size' }).first().click()]);
    assert.equal(await page.locator('#matrix-filter').inputValue(), '--dcp-size');
    assert.deepEqual(await page.$$eval('#matrix tbody tr', (trs) => trs.filter((tr) => !tr.hidden).map((tr) => tr.dataset.flag)), ['--dcp-size']);
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await page.context().close();
  }
});
