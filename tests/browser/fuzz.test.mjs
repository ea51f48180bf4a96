// Browser-level fuzz with a fixed seed (fast-check generates the cases; FUZZ_SEED=<n> tries
// another seed, FUZZ_LINKS / FUZZ_WIDGETS change the counts): the page opened with generated
// permalinks (malformed percent-encoding, huge values, unknown and repeated keys, javascript: and
// HTML payloads, bidi controls, NULs, lone surrogates) and host pages with generated widget
// attributes. Per case: no page error, no CSP violation, no external request, no dialog, no
// injected element or handler, a verdict or a clear "No verdict" message, no main-thread task
// over 1 s; the page decodes the hash as URLSearchParams does, and what it encodes back into
// the hash decodes to what it shows and loads again to the same state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { launch, newPage, recordLongTasks, longTasks } from './harness.mjs';

const SEED = Number(process.env.FUZZ_SEED || 20261203);
const N_LINKS = Number(process.env.FUZZ_LINKS || 60);
const N_WIDGETS = Number(process.env.FUZZ_WIDGETS || 48);
const WIDGETS_PER_PAGE = 12;

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

// ---- generators ----
const PAYLOADS = [
  '<img src=x onerror="window.__pwned=1;fetch(\'http://evil.invalid/1\')">',
  '<script>window.__pwned=2</script>',
  'javascript:window.__pwned=3',
  '"><svg onload="window.__pwned=4"><a href="javascript:window.__pwned=5">x</a>',
  '<iframe src="http://evil.invalid/2"></iframe>',
  "'><img src=//evil.invalid/3.png>",
  '</textarea><script>window.__pwned=6</script>',
  '{{constructor.constructor("window.__pwned=7")()}}',
  '<link rel=stylesheet href=http://evil.invalid/4.css>',
  '<meta http-equiv=refresh content="0;url=http://evil.invalid/5">',
];
const ODD = ['\u202E', '\u2066', '\u200F', '\u200B', '\u0000', '\uD800', '\uDC00', '😀', '\r\n', '\r', '\n', '\t', '\\\n', '"', "'", '`', '$(', '%', '+', '&', '=', '#', ';'];
const WORDS = ['python -m sglang.launch_server', 'sglang serve', '--model-path', 'Qwen/Qwen3-8B', 'meta-llama/Llama-3.1-8B-Instruct', '--tp', '2', '--tp-size', '8', '--dp-size', '--mem-fraction-static', '0.9', '--config', 'x.yaml', '--disaggregation-mode', 'decode', '--dcp-size', '--quantization', 'fp8', '--port', '30000'];

const word = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD) },
  { weight: 1, arbitrary: fc.constantFrom(...PAYLOADS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);
const command = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom('python -m sglang.launch_server --model-path Qwen/Qwen3-8B ', 'sglang serve --model-path m ', ''), fc.array(word, { maxLength: 24 })).map(([a, w]) => a + w.join(' ')) },
  // huge: a flag repeated thousands of times, or one very long line
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('--tp 2 ', '\u200B', 'x', '--model-path a '), fc.integer({ min: 1000, max: 12000 })).map(([w, k]) => `python -m sglang.launch_server --model-path Qwen/Qwen3-8B ${w.repeat(k)}`) },
);
const yamlText = fc.oneof(
  fc.constant(''),
  fc.array(fc.tuple(fc.constantFrom('tp-size', 'model-path', 'port', '<b>x</b>', 'a'), word), { maxLength: 6 }).map((kv) => kv.map(([k, v]) => `${k}: ${v}`).join('\n')),
  fc.constantFrom('[[[[', 'a: &a [*a, *a]', 'x: !!python/object:os.system ls', '- - - - -'),
);
const GPU_VALUES = ['h100', 'a100', 'mi300x', 'H100', 'h100 ', 'tpu', '', '8'];
const gpuValue = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...GPU_VALUES) }, { weight: 1, arbitrary: word });
const gpusValue = fc.oneof(fc.constantFrom('1', '8', '0', '0008', '12345', '-1', '1e3', ' 8', '8 ', '٨', ''), word);
const versionValue = fc.oneof({ weight: 2, arbitrary: fc.constantFrom('0.5.18', '0.5.23', '0.5.2', 'latest', '', '0.5.23 ') }, { weight: 1, arbitrary: word });

/** One value as it sits in a hash: encoded, raw, or with broken percent-encoding. */
const MALFORMED = ['%', '%G1', '%E2%80', '%zz', '%%', '%0', '%C0%AF', '%ED%A0%80', '%FF', '%00', '%2', '+%2B+'];
function inHash(value) {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(encodeURIComponent(value.toWellFormed())) },
    { weight: 2, arbitrary: fc.constant(value) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...MALFORMED), fc.nat({ max: value.length })).map(([m, at]) => encodeURIComponent(value.slice(0, at).toWellFormed()) + m + encodeURIComponent(value.slice(at).toWellFormed())) },
  );
}
const KNOWN = { cmd: command, yaml: yamlText, gpu: gpuValue, gpus: gpusValue, v: versionValue };
const pair = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...Object.keys(KNOWN)).chain((k) => KNOWN[k].chain((v) => inHash(v).map((e) => `${k}=${e}`))) },
  // unknown keys, keys that look like known ones, keys without "="
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('CMD', 'cmd ', 'cmd%00', 'c%6Dd', 'yaml[]', 'x', '', '__proto__', 'constructor', 'v.x'), word).map(([k, v]) => `${k}=${encodeURIComponent(v.toWellFormed())}`) },
  { weight: 1, arbitrary: fc.constantFrom('cmd', 'gpu', '=', '&', '&&', 'v=', '=x') },
);
// A hash: pairs joined by "&" (keys may repeat: the first wins), or plain garbage.
const hash = fc.oneof(
  { weight: 8, arbitrary: fc.array(pair, { minLength: 1, maxLength: 7 }).map((ps) => ps.join('&')) },
  { weight: 1, arbitrary: fc.constantFrom(...PAYLOADS).map((p) => `cmd=${p}`) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
);

// ---- checks ----
/** Markup that only an injection would add (the page's own two module scripts aside). */
const INJECTABLE = 'script, img, iframe, object, embed, svg, math, form, link, style, base, meta, video, audio, source, frame, frameset, portal, image';

function inertState(INJECTABLE) {
  const all = [document, ...[...document.querySelectorAll('*')].filter((e) => e.shadowRoot).map((e) => e.shadowRoot)];
  const els = all.flatMap((r) => [...r.querySelectorAll('*')]);
  return {
    pwned: window.__pwned,
    csp: window.__cspViolations.slice(),
    // elements that could load or run something: counted, and the page's own listed by what they are
    injectable: els.filter((e) => e.matches(INJECTABLE)).map((e) => `${e.localName}${e.getAttribute('src') ? ' ' + e.getAttribute('src') : ''}${e.getAttribute('http-equiv') ? ' ' + e.getAttribute('http-equiv') : ''}`),
    handlers: els.filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).map((e) => e.localName),
    links: els.filter((e) => e.localName === 'a' && e.hasAttribute('href')).map((e) => e.href).filter((h) => !h.startsWith(location.origin + '/')),
  };
}

function describe(i, what) {
  return `case ${i} (seed ${SEED}): ${JSON.stringify(what).slice(0, 300)}`;
}

/** The permalink's report is up, or the check failed and says so. */
async function settled(page) {
  await page.waitForFunction(
    () => {
      const v = document.querySelector('#verdict');
      return Number(document.body.dataset.renders || 0) >= 1 || v.classList.contains('failed') || /^The checker could not load/.test(v.textContent);
    },
    null,
    { timeout: 20000 },
  );
}

const nl = (s) => s.replace(/\r\n?/g, '\n');

test(`${N_LINKS} generated permalinks: decoded as URLSearchParams does, inert, a verdict each, no long task, and what the page encodes loads back`, async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await recordLongTasks(context);
    // The page's own markup that INJECTABLE matches, from a clean load.
    await page.goto(env.server.url);
    await settled(page);
    const baseline = (await page.evaluate(inertState, INJECTABLE)).injectable;
    const presets = await page.$$eval('#gpu option', (os) => os.map((o) => o.value));
    const versions = await page.$$eval('#version option', (os) => os.map((o) => o.value));
    const defaults = { gpu: 'h100', v: await page.locator('#version').inputValue() };
    const cases = fc.sample(hash, { seed: SEED, numRuns: N_LINKS });
    let reloads = 0;
    let fresh = 0;
    let failed = 0;
    const t0 = Date.now();
    for (const [i, h] of cases.entries()) {
      rec.errors.splice(0);
      rec.external.splice(0);
      rec.dialogs.splice(0);
      // Every other case is a fresh load; the rest arrive as a hash change (the page applies it live).
      const load = i % 2 === 0;
      if (load) {
        await page.goto('about:blank');
        await page.goto(`${env.server.url}#${h}`);
        fresh++;
      } else {
        const before = await page.evaluate(() => Number(document.body.dataset.renders || 0));
        // a marker key keeps two cases' hashes apart, so every case fires hashchange
        await page.evaluate((x) => (location.hash = x), `${h}&fuzzcase=${i}`);
        await page.waitForFunction((n) => Number(document.body.dataset.renders || 0) > n || document.querySelector('#verdict').classList.contains('failed'), before, { timeout: 20000 });
      }
      await settled(page);
      const state = await page.evaluate(() => ({
        hash: location.hash,
        cmd: document.querySelector('#command').value,
        yaml: document.querySelector('#yaml').value,
        gpu: document.querySelector('#gpu').value,
        gpus: document.querySelector('#gpus').value,
        v: document.querySelector('#version').value,
        verdict: document.querySelector('#verdict').textContent,
        verdictClass: document.querySelector('#verdict').className,
        notice: document.querySelector('#notice').hidden ? '' : document.querySelector('#notice').textContent,
      }));
      const where = describe(i, h);
      // Decoding: what URLSearchParams (Node's, not the page's) reads from the hash the browser holds.
      const p = new URLSearchParams(state.hash.replace(/^#/, ''));
      if (p.get('cmd') !== null) assert.equal(state.cmd, nl(p.get('cmd')), `${where}: the command`);
      else assert.ok(state.cmd.length > 0, `${where}: a command is shown`);
      if (p.get('yaml') !== null) assert.equal(state.yaml, nl(p.get('yaml')), `${where}: the YAML`);
      if (p.get('gpu') !== null && presets.includes(p.get('gpu'))) assert.equal(state.gpu, p.get('gpu'), `${where}: the GPU`);
      else if (load) assert.equal(state.gpu, defaults.gpu, `${where}: an unknown GPU falls back to the default`);
      if (p.get('v') !== null && versions.includes(p.get('v'))) assert.equal(state.v, p.get('v'), `${where}: the version`);
      else if (load) assert.equal(state.v, defaults.v, `${where}: an unknown version falls back to the default`);
      if (p.get('gpus') !== null && /^\d{1,4}$/.test(p.get('gpus'))) assert.equal(state.gpus, p.get('gpus'), `${where}: the GPU count`);
      // A rejected value is not echoed in the notice.
      for (const k of ['gpu', 'gpus', 'v']) {
        const val = p.get(k);
        if (val && val.length >= 6 && ![...presets, ...versions].includes(val)) assert.ok(!state.notice.includes(val), `${where}: the notice echoes ${k}`);
      }
      // A verdict, or a clear "No verdict".
      assert.ok(state.verdict.trim().length > 0, `${where}: an empty verdict`);
      if (/failed/.test(state.verdictClass)) {
        failed++;
        assert.match(state.verdict, /^No verdict/, where);
        // Only a slow machine may leave a link without a verdict: a crash is a bug.
        assert.match(state.verdict, /took too long/, `${where}: ${state.verdict}`);
      } else assert.doesNotMatch(state.verdictClass, /pending/, `${where}: the verdict is still pending`);
      // Inert: nothing injected, nothing run, nothing fetched from elsewhere.
      const inert = await page.evaluate(inertState, INJECTABLE);
      assert.deepEqual(inert, { pwned: undefined, csp: [], injectable: baseline, handlers: [], links: [] }, where);
      assert.deepEqual(rec.errors, [], `${where}: page errors`);
      assert.deepEqual(rec.external, [], `${where}: external requests`);
      assert.deepEqual(rec.dialogs, [], `${where}: dialogs`);
      const longest = Math.max(0, ...(await longTasks(page)));
      assert.ok(longest < 1000, `${where}: a main-thread task took ${longest} ms`);

      // Encoding: a change makes the page write the hash (once the core has kept any secrets
      // out of it, see links.test.mjs); it decodes to what is shown.
      const links = await page.evaluate(() => Number(document.body.dataset.links || 0));
      await page.evaluate(() => document.querySelector('#version').dispatchEvent(new Event('change')));
      await page.waitForFunction((n) => Number(document.body.dataset.links || 0) > n, links);
      const written = await page.evaluate(() => location.hash);
      const q = new URLSearchParams(written.replace(/^#/, ''));
      assert.equal(q.get('cmd'), state.cmd.toWellFormed(), `${where}: the written command`);
      assert.equal(q.get('yaml') ?? '', state.yaml.toWellFormed(), `${where}: the written YAML`);
      assert.equal(q.get('gpu'), state.gpu, `${where}: the written GPU`);
      assert.equal(q.get('v'), state.v, `${where}: the written version`);
      assert.equal(q.get('gpus') ?? '', state.gpus.trim(), `${where}: the written GPU count`);
      // ... and a fresh load of it shows the same (every third case, to keep the run short).
      if (i % 3 === 0) {
        reloads++;
        const url = await page.evaluate(() => location.href);
        await page.goto('about:blank');
        await page.goto(url);
        await settled(page);
        const again = await page.evaluate(() => ({ cmd: document.querySelector('#command').value, yaml: document.querySelector('#yaml').value, gpu: document.querySelector('#gpu').value, gpus: document.querySelector('#gpus').value, v: document.querySelector('#version').value, notice: document.querySelector('#notice').hidden ? '' : document.querySelector('#notice').textContent }));
        // (a lone surrogate cannot be put in a URL: it comes back as U+FFFD)
        assert.deepEqual(again, { cmd: state.cmd.toWellFormed(), yaml: state.yaml.toWellFormed(), gpu: state.gpu, gpus: state.gpus.trim(), v: state.v, notice: '' }, `${where}: the page's own link loads back`);
        assert.deepEqual(rec.errors, [], `${where}: page errors after reload`);
      }
    }
    console.log(`# permalinks: ${cases.length} cases (${fresh} fresh loads, ${cases.length - fresh} hash changes, ${reloads} reloads of the page's own link, ${failed} with no verdict) in ${((Date.now() - t0) / 1000).toFixed(1)} s, seed ${SEED}`);
  } finally {
    await context.close();
  }
});

// ---- widgets ----
const attrValue = fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: word });
const widget = fc.record({
  command: fc.oneof({ weight: 4, arbitrary: command }, { weight: 1, arbitrary: fc.constant(undefined) }),
  body: command, // the element's text, used when there is no command attribute
  gpu: fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: gpuValue }),
  gpus: fc.oneof(fc.constant(undefined), gpusValue),
  'sglang-version': fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: versionValue }),
  yaml: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: yamlText }),
  extra: attrValue, // an attribute the widget does not know
  // then changed live, with setAttribute
  later: fc.option(fc.tuple(fc.constantFrom('command', 'gpu', 'gpus', 'sglang-version', 'yaml'), fc.oneof(word, command)), { freq: 3 }),
});

const escAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escText = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function widgetHtml(id, w) {
  const attrs = [`id="${id}"`];
  for (const k of ['command', 'gpu', 'gpus', 'sglang-version', 'yaml']) if (w[k] !== undefined) attrs.push(`${k}="${escAttr(w[k])}"`);
  if (w.extra !== undefined) attrs.push(`data-x="${escAttr(w.extra)}"`);
  return `<sglang-preflight ${attrs.join(' ')}>${escText(w.body)}</sglang-preflight>`;
}

test(`${N_WIDGETS} generated widgets on host pages under a strict CSP: inert, a verdict or "No verdict" each, no long task`, async () => {
  const { page, context, rec } = await newPage(env);
  try {
    await recordLongTasks(context);
    const all = fc.sample(widget, { seed: SEED, numRuns: N_WIDGETS });
    const t0 = Date.now();
    let verdicts = 0;
    let noVerdicts = 0;
    const reasons = new Map();
    for (let from = 0; from < all.length; from += WIDGETS_PER_PAGE) {
      const ws = all.slice(from, from + WIDGETS_PER_PAGE);
      const name = `fuzz-host-${from}.html`;
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; style-src 'self'; base-uri 'none'">
<title>host</title><script type="module" src="./widget.js"></script></head><body><main>${ws.map((w, j) => widgetHtml(`w${from + j}`, w)).join('\n')}</main></body></html>`;
      await context.route(`**/${name}`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
      rec.errors.splice(0);
      rec.external.splice(0);
      rec.dialogs.splice(0);
      await page.goto(env.server.url + name);
      const done = () =>
        page.waitForFunction(() => [...document.querySelectorAll('sglang-preflight')].every((w) => w.shadowRoot && w.shadowRoot.querySelector('.verdict:not(.pending), .verdict.failed')), null, { timeout: 30000 });
      await done();
      // Some attributes change live, to hostile values.
      const changes = ws.map((w, j) => (w.later ? [`w${from + j}`, ...w.later] : null)).filter(Boolean);
      if (changes.length) {
        await page.evaluate((cs) => {
          for (const [id, k, v] of cs) document.getElementById(id).setAttribute(k, v);
        }, changes);
        await page.waitForTimeout(50);
        await done();
      }
      const where = `host page ${name} (seed ${SEED}), widgets ${from}..${from + ws.length - 1}`;
      const states = await page.evaluate(() =>
        [...document.querySelectorAll('sglang-preflight')].map((w) => {
          const v = w.shadowRoot.querySelector('.verdict');
          return { id: w.id, verdict: v.textContent, cls: v.className, link: w.shadowRoot.querySelector('.foot a').href, cmd: w.command };
        }),
      );
      const base = env.server.url + 'index.html#';
      for (const s of states) {
        const w = all[Number(s.id.slice(1))];
        const at = `${where}: ${s.id} ${JSON.stringify(w).slice(0, 300)}`;
        assert.ok(s.verdict.trim().length > 0, `${at}: an empty verdict`);
        if (/failed/.test(s.cls)) {
          noVerdicts++;
          assert.match(s.verdict, /^No verdict/, at);
          // A hostile attribute may be refused (an unknown GPU preset) or a slow machine time out;
          // a crash or a checker that does not load is a bug.
          assert.doesNotMatch(s.verdict, /crashed|could not load/i, `${at}: ${s.verdict}`);
          const why = s.verdict.replace(/["“][^"”]*["”]/g, '"…"').slice(0, 90);
          reasons.set(why, (reasons.get(why) || 0) + 1);
        } else {
          verdicts++;
          assert.doesNotMatch(s.cls, /pending/, at);
        }
        // The link to the full checker is the page's, with the command in its hash.
        assert.ok(s.link.startsWith(base), `${at}: link ${s.link.slice(0, 120)}`);
        assert.equal(new URLSearchParams(new URL(s.link).hash.slice(1)).get('cmd'), s.cmd.toWellFormed(), `${at}: the link's command`);
      }
      const inert = await page.evaluate(inertState, INJECTABLE);
      assert.deepEqual({ ...inert, injectable: undefined }, { pwned: undefined, csp: [], injectable: undefined, handlers: [], links: [] }, where);
      // Only the host page's own: its two <meta>s and the widget's <script>; nothing in a shadow root.
      assert.deepEqual(inert.injectable.sort(), ['meta', 'meta Content-Security-Policy', 'script ./widget.js'].sort(), `${where}: injected elements`);
      assert.deepEqual(rec.errors, [], `${where}: page errors`);
      assert.deepEqual(rec.external, [], `${where}: external requests`);
      assert.deepEqual(rec.dialogs, [], `${where}: dialogs`);
      const longest = Math.max(0, ...(await longTasks(page)));
      assert.ok(longest < 1000, `${where}: a main-thread task took ${longest} ms`);
    }
    assert.ok(verdicts >= all.length / 4, `only ${verdicts} of ${all.length} widgets got a verdict`);
    console.log(`# widgets: ${all.length} widgets on ${Math.ceil(all.length / WIDGETS_PER_PAGE)} host pages (${verdicts} verdicts, ${noVerdicts} "No verdict") in ${((Date.now() - t0) / 1000).toFixed(1)} s, seed ${SEED}`);
    for (const [why, k] of reasons) console.log(`#   ${k} × ${why}`);
  } finally {
    await context.close();
  }
});
