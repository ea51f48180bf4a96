// Property-based tests (fast-check, fixed seed) of the page's own highlight logic, the part of
// the page that is not the core: www/render.js turns diagnostic spans into highlight segments
// and nodes. It needs no browser: render.js only touches `document` when it builds nodes, so a
// minimal stand-in document records what it builds. The last property runs the real core
// (dist/pkg, the wasm the page ships) in Node and draws its reports.
// Re-run a failure with the seed and path fast-check prints; FUZZ_SEED=<n> tries another seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

const here = path.dirname(fileURLToPath(import.meta.url));
const SEED = Number(process.env.FUZZ_SEED || 20261203);

// ---- a stand-in document: text nodes, elements with a class, children and text, fragments ----
const textNode = (data) => ({ nodeType: 3, textContent: String(data) });
const kids = (xs) => xs.map((x) => (typeof x === 'string' ? textNode(x) : x));
globalThis.document ??= {
  createElement: (tag) => ({
    nodeType: 1,
    tagName: tag.toUpperCase(),
    className: '',
    dataset: {},
    childNodes: [],
    append(...xs) {
      this.childNodes.push(...kids(xs));
    },
    get textContent() {
      return this.childNodes.map((c) => c.textContent).join('');
    },
    set textContent(v) {
      this.childNodes = v === '' ? [] : [textNode(v)];
    },
  }),
  createTextNode: textNode,
  createDocumentFragment() {
    const nodes = [];
    return { nodes, append: (...xs) => nodes.push(...kids(xs)) };
  },
};
const render = await import('../../www/render.js');
const { highlightSegments, renderHighlights, renderHighlightsSliced, MAX_MARKS } = render;

function container() {
  return {
    nodes: null,
    replaceChildren(frag) {
      this.nodes = frag ? frag.nodes : [];
    },
  };
}

const RANK = { error: 3, warning: 2, info: 1 };
const rankOf = (sev) => RANK[sev] || 1;
const isHigh = (c) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c) => c >= 0xdc00 && c <= 0xdfff;

// ---- generators ----
// Pieces of texts: command words, shell quoting, and the hostile: surrogate pairs, lone
// surrogates, bidi controls, zero-width and NUL characters, CR/LF, markup.
const PIECES = [
  'python -m sglang.launch_server', ' --model-path ', 'Qwen/Qwen3-8B', ' --tp 2', ' --tp-size', ' --dp 3', ' --config x.yaml',
  ' \\\n  ', '\n', '\r\n', '\r', '\t', ' ', "'", '"', '$(', ')', '`', '#', ';', '&&', '|', '=',
  '😀', '𝔘', '👩‍👩‍👧', 'é', 'e\u0301', '\uD800', '\uDFFF', '\uDBFF', '\uDC00',
  '\u202E', '\u202D', '\u2066', '\u2069', '\u200F', '\u200B', '\u2028', '\uFEFF', '\u3164', '\u0000', '\u007F',
  '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', 'javascript:alert(1)', '&amp;', '%00', '%E2%80%AE',
];
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 12 }) },
);
const shortText = fc.array(piece, { maxLength: 40 }).map((a) => a.join(''));
// A very long line: one piece many times, inside ordinary text.
const longLine = fc.tuple(shortText, piece, fc.integer({ min: 50, max: 3000 }), shortText).map(([a, p, k, b]) => a + p.replace(/[\r\n]/g, ' ').repeat(k) + b);
const anyText = fc.oneof({ weight: 4, arbitrary: shortText }, { weight: 1, arbitrary: longLine });

const SEVERITIES = ['error', 'warning', 'info', 'bogus', undefined];

/** Code point boundaries of `text` (UTF-16 offsets, 0 and length included). */
function boundaries(text) {
  const b = [0];
  for (let i = 0; i < text.length; ) {
    i += isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1)) ? 2 : 1;
    b.push(i);
  }
  return b;
}

/**
 * A text and diagnostics over it. `aligned`: every span end on a code point boundary (what the
 * core guarantees); some spans still reach past the text, start before it, are reversed or empty
 * (points), or are missing.
 */
function textWithDiagnostics({ aligned = true, maxDiags = 40 } = {}) {
  return anyText.chain((text) => {
    const b = boundaries(text);
    const n = text.length;
    const pos = aligned ? fc.integer({ min: 0, max: b.length - 1 }).map((i) => b[i]) : fc.integer({ min: 0, max: n });
    const span = fc.oneof(
      { weight: 8, arbitrary: fc.tuple(pos, pos).map(([a, c]) => ({ start: Math.min(a, c), end: Math.max(a, c) })) },
      { weight: 2, arbitrary: pos.map((a) => ({ start: a, end: a })) },
      { weight: 1, arbitrary: fc.tuple(pos, pos).map(([a, c]) => ({ start: Math.max(a, c), end: Math.min(a, c) })) },
      { weight: 1, arbitrary: fc.tuple(pos, fc.integer({ min: 1, max: 1e6 })).map(([a, k]) => ({ start: a, end: n + k })) },
      { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 1e6 }), pos).map(([k, a]) => ({ start: -k, end: a })) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 1e6 }).map((k) => ({ start: n + k, end: n + k + 1 })) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
    // TXT004/TXT009 (hidden characters, bidi controls) are drawn specially over their spans.
    const diag = fc.record({ span16: span, severity: fc.constantFrom(...SEVERITIES), code: fc.constantFrom('TXT004', 'TXT009', 'CLI001') });
    // Text-level diagnostics and diagnostics of commands, as a report has them.
    const report = fc.record({
      diagnostics: fc.array(diag, { maxLength: maxDiags >> 1 }),
      commands: fc.array(fc.record({ diagnostics: fc.array(diag, { maxLength: maxDiags >> 2 }) }), { maxLength: 2 }),
    });
    return fc.tuple(fc.constant(text), report);
  });
}

function diagsOf(report) {
  return [...(report.diagnostics || []), ...(report.commands || []).flatMap((c) => c.diagnostics || [])];
}

/** What the highlight must show, computed the slow way: worst rank per UTF-16 unit, points. */
function oracle(text, report) {
  const n = text.length;
  const rank = new Uint8Array(n);
  const points = [];
  for (const d of diagsOf(report)) {
    const s = d.span16;
    if (!s || !(s.start <= n)) continue;
    const a = Math.max(0, s.start);
    const e = Math.min(s.end, n);
    if (e <= a) points.push(a);
    else for (let i = a; i < e; i++) rank[i] = Math.max(rank[i], rankOf(d.severity));
  }
  points.sort((x, y) => x - y);
  return { rank, points };
}

const SEV_OF_RANK = [null, 'info', 'warning', 'error'];

// More than the page draws as hidden characters (format, control, separator, combining, ...):
// an upper bound of the spans it may add, for the linear-size check.
const HIDDEN_LIKE = /[\p{Cf}\p{Cc}\p{Z}\p{M}\u115F\u1160\u3164\uFFA0\u2800]/gu;

/** A drawn node as plain data, to compare two drawings. */
const plain = (x) => (x.nodeType === 3 ? x.textContent : { tag: x.tagName, cls: x.className, data: { ...x.dataset }, kids: x.childNodes.map(plain) });

/** The text nodes under `nodes`, in order (an element's children in place of it). */
function leaves(nodes, out = []) {
  for (const x of nodes) {
    if (x.nodeType === 3) out.push(x);
    else leaves(x.childNodes, out);
  }
  return out;
}

/** Every element under `nodes` is a <mark class="hl ..."> or a <span class="hc|esc ...">, and a
 * mark holds no mark: no other markup, whatever the text. Returns how many nodes there are. */
function checkMarkup(nodes, insideMark = false) {
  let count = 0;
  for (const x of nodes) {
    count++;
    if (x.nodeType === 3) continue;
    assert.equal(x.nodeType, 1);
    if (x.tagName === 'MARK') {
      assert.ok(!insideMark, 'a mark inside a mark');
      assert.match(x.className, /^hl (point )?\S+$/);
    } else {
      assert.equal(x.tagName, 'SPAN', `a <${x.tagName}>`);
      assert.match(x.className, /^(hc|esc)( bidi)? \S+$/);
      assert.ok(x.childNodes.every((c) => c.nodeType === 3), 'a hidden-character span holds text only');
    }
    count += checkMarkup(x.childNodes, insideMark || x.tagName === 'MARK');
  }
  return count;
}

/**
 * Check the nodes drawn for `text` (the backdrop's "badge" mode: hidden characters stay, in a
 * span of their own): the text exactly once and in order, only text nodes, <mark>s and those
 * spans, every marked unit with the worst severity over it, every unmarked one (before the cap)
 * under no range, the points where they are, output linear in the input.
 */
function checkDrawn(text, report, nodes, info, { trailingNewline }) {
  const n = text.length;
  const diags = diagsOf(report);
  const { rank, points } = oracle(text, report);
  nodes = [...nodes];
  if (trailingNewline) {
    const last = nodes.pop();
    assert.equal(last.nodeType, 3);
    assert.equal(last.textContent, '\n');
  }
  // Exactly the text, in order.
  assert.equal(nodes.map((x) => x.textContent).join(''), text);
  // Output linear in the input: per diagnostic at most two marks (a range split by a point) and
  // the text before each; per flagged run of a hidden character, a span and the text before it.
  const total = checkMarkup(nodes);
  const hidden = (text.match(HIDDEN_LIKE) || []).length;
  assert.ok(total <= 6 * diags.length + 3 * hidden + 1, `${total} nodes for ${diags.length} diagnostics and ${hidden} hidden characters`);
  let at = 0;
  let marks = 0;
  let pi = 0;
  let lastMarkEnd = 0;
  let prevMark = null;
  for (const node of nodes) {
    const t = node.textContent;
    if (node.tagName !== 'MARK') {
      assert.ok(t.length > 0, 'an empty text node');
      prevMark = null;
      if (marks < MAX_MARKS) for (let i = at; i < at + t.length; i++) assert.equal(rank[i], 0, `unit ${i} is under a range but not marked`);
    } else {
      marks++;
      const m = /^hl (point )?(\S+)$/.exec(node.className);
      if (m[1]) {
        assert.equal(t, '', 'a point mark is empty');
        assert.equal(at, points[pi], `point ${pi} at ${at}`);
        pi++;
        prevMark = null;
      } else {
        assert.ok(t.length > 0, 'an empty range mark');
        for (let i = at; i < at + t.length; i++) assert.equal(m[2], SEV_OF_RANK[rank[i]], `severity at ${i}`);
        // Neighbours of one severity are one mark (unless a point sits between them).
        if (prevMark) assert.notEqual(prevMark, m[2], `two adjacent ${m[2]} marks at ${at}`);
        prevMark = m[2];
        lastMarkEnd = at + t.length;
      }
    }
    at += t.length;
  }
  assert.equal(at, n);
  assert.ok(marks <= MAX_MARKS);
  // Every range and point is drawn, or the cap was reached and the page is told how many are not.
  const hl = highlightSegments(text, report);
  assert.equal(info.total, hl.segs.length + hl.points.length);
  if (marks < MAX_MARKS) {
    assert.equal(pi, points.length, 'every point drawn');
    for (let i = lastMarkEnd; i < n; i++) assert.equal(rank[i], 0, `unit ${i} after the last mark is under a range`);
    assert.equal(info.unmarked, 0);
  } else {
    // The cap was reached: what the note counts as drawn must be what was drawn.
    assert.ok(info.unmarked > 0 || (pi === points.length && lastMarkEnd >= rank.findLastIndex((r) => r > 0) + 1), `the cap cut the drawing (${marks} marks) but the note says all ${info.total} places are drawn`);
  }
  return marks;
}

/** No node boundary falls between the two halves of a surrogate pair. */
function checkNoSplitPair(text, nodes) {
  let at = 0;
  for (const node of leaves(nodes)) {
    if (at > 0 && at < text.length) assert.ok(!(isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at))), `a surrogate pair split at ${at}`);
    at += node.textContent.length;
  }
}

/**
 * fast-check's options: the fixed seed, and a report cut to a readable size (a counterexample
 * can be a 100 KB text); the seed and path in it replay the case.
 */
function opts(numRuns) {
  return {
    seed: SEED,
    numRuns,
    reporter(out) {
      if (!out.failed) return;
      const msg = fc.defaultReportMessage(out) || 'property failed';
      const cut = (t) => (t.length > 600 ? `${t.slice(0, 600)}… (${t.length} chars)` : t);
      throw new Error(msg.split('\n').map(cut).join('\n') + (out.errorInstance ? `\n${cut(String(out.errorInstance.message || out.errorInstance))}` : ''));
    },
  };
}
const OPTS = opts(600);

test('highlight segments: the text exactly once, in order, worst severity, points in place, linear size', () => {
  fc.assert(
    fc.property(textWithDiagnostics({ aligned: false }), fc.boolean(), ([text, report], trailingNewline) => {
      const c = container();
      const info = renderHighlights(c, text, report, { trailingNewline });
      checkDrawn(text, report, c.nodes, info, { trailingNewline });
    }),
    OPTS,
  );
});

test('highlight segments: spans on code point boundaries never split a surrogate pair', () => {
  fc.assert(
    fc.property(textWithDiagnostics({ aligned: true }), ([text, report]) => {
      const c = container();
      renderHighlights(c, text, report, { trailingNewline: false });
      checkNoSplitPair(text, c.nodes);
    }),
    OPTS,
  );
});

// The widget's read-only display ("escape" mode): each run of a hidden character is replaced by
// its label once, whatever highlight boundaries cross it; the rest of the text is intact and in
// order; no bidi control is left to reorder the display.
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
test('escape mode: hidden runs replaced by their labels once, the rest intact, no bidi control left', (t) => {
  if (typeof render.hiddenRuns !== 'function') return t.skip('render.js has no hiddenRuns');
  fc.assert(
    fc.property(textWithDiagnostics({ aligned: true }), ([text, report]) => {
      const c = container();
      renderHighlights(c, text, report, { trailingNewline: false, hidden: 'escape' });
      checkMarkup(c.nodes);
      const runs = render.hiddenRuns(text);
      let expected = '';
      let at = 0;
      for (const r of runs) {
        expected += text.slice(at, r.start) + `⟨${r.label}⟩`;
        at = r.end;
      }
      expected += text.slice(at);
      assert.equal(c.nodes.map((x) => x.textContent).join(''), expected);
      if (runs.length < render.MAX_ESCAPES) for (const leaf of leaves(c.nodes)) assert.ok(!BIDI.test(leaf.textContent), `a bidi control drawn as is: ${JSON.stringify(leaf.textContent)}`);
    }),
    OPTS,
  );
});

test('highlight segments: segments are in order, disjoint, inside the text, merged', () => {
  fc.assert(
    fc.property(textWithDiagnostics({ aligned: false }), ([text, report]) => {
      const { segs, points } = highlightSegments(text, report);
      let prev = null;
      for (const s of segs) {
        assert.ok(Number.isInteger(s.start) && Number.isInteger(s.end) && 0 <= s.start && s.start < s.end && s.end <= text.length, JSON.stringify(s));
        if (prev) {
          assert.ok(prev.end <= s.start, 'overlap or out of order');
          assert.ok(!(prev.end === s.start && prev.sev === s.sev), 'unmerged neighbours');
        }
        prev = s;
      }
      for (let i = 1; i < points.length; i++) assert.ok(points[i - 1].at <= points[i].at);
      assert.ok(segs.length <= 2 * diagsOf(report).length);
    }),
    OPTS,
  );
});

// Many findings: k one-unit ranges of alternating severity with gaps, `p` points inside ranges
// that they split; the sliced renderer (the page's, for big reports) draws exactly what the
// one-shot renderer draws, and the note counts what is drawn.
function manyFindings(kMin, kMax, pMax) {
  return fc.tuple(fc.integer({ min: kMin, max: kMax }), fc.integer({ min: 0, max: Math.max(0, pMax) }), fc.integer({ min: 0, max: 2 ** 31 - 1 })).map(([k, p, salt]) => {
    // pMax < 0: as many points as keep the places (k + 2p) within MAX_MARKS, so the marks (k + 3p) are not.
    if (pMax < 0) p = Math.floor((MAX_MARKS - k) / 2);
    const text = 'ab😀'.repeat(k);
    const diagnostics = [];
    for (let i = 0; i < k; i++) diagnostics.push({ span16: { start: 4 * i, end: 4 * i + 1 }, severity: i % 2 ? 'warning' : 'error' });
    for (let j = 0; j < p; j++) {
      const i = (salt + j * 7919) % k;
      diagnostics.push({ span16: { start: 4 * i + 2, end: 4 * i + 2 }, severity: 'info' });
      diagnostics.push({ span16: { start: 4 * i + 1, end: 4 * i + 4 }, severity: 'info' }); // a range that point splits
    }
    return [text, { diagnostics, commands: [] }];
  });
}

async function drawBothWays([text, report]) {
  const a = container();
  const info = renderHighlights(a, text, report, { trailingNewline: true });
  const b = container();
  const sliced = await renderHighlightsSliced(b, text, report, { trailingNewline: true });
  assert.deepEqual(sliced, info);
  assert.deepEqual(b.nodes.map(plain), a.nodes.map(plain));
  checkNoSplitPair(text, a.nodes.slice(0, -1));
  checkDrawn(text, report, a.nodes, info, { trailingNewline: true });
}

test('many findings, below and over the mark cap: coverage holds, sliced equals one-shot', async () => {
  await fc.assert(fc.asyncProperty(fc.oneof(manyFindings(300, 4000, 60), manyFindings(5300, 7000, 60)), drawBothWays), opts(20));
});

// Found by this test: the cap counts marks, and a point inside a range splits it into two marks,
// so with fewer than MAX_MARKS places but more than MAX_MARKS marks the last ranges went unmarked
// while the page's "first N of M" note stayed hidden. The note now counts what was drawn.
test('just at the mark cap, with points that split ranges, the note counts what is drawn', async () => {
  await fc.assert(fc.asyncProperty(manyFindings(4700, 4990, -1), drawBothWays), opts(20));
});

// End to end with the real core: whatever the core reports for a hostile text, its spans are
// inside the text and on code point boundaries, and the drawing never splits a pair.
test('the core\'s spans for random texts are drawn without splitting a surrogate pair', async (t) => {
  const pkg = path.resolve(here, '../../dist/pkg');
  if (!fs.existsSync(path.join(pkg, 'sglang_preflight_bg.wasm'))) throw new Error('dist/ is missing: run `npm run build` first');
  const core = await import(path.join(pkg, 'sglang_preflight.js'));
  core.initSync({ module: fs.readFileSync(path.join(pkg, 'sglang_preflight_bg.wasm')) });
  const text = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom('python -m sglang.launch_server --model-path Qwen/Qwen3-8B ', 'sglang serve --model-path m ', ''), shortText).map(([a, b]) => a + b) },
    { weight: 1, arbitrary: longLine },
  );
  let withSpans = 0;
  fc.assert(
    fc.property(text, (s) => {
      const report = JSON.parse(core.checkJson(s, { gpu: 'h100' }));
      // The core sees the text as UTF-8: a lone surrogate reaches it as U+FFFD, one unit too.
      const seen = s.toWellFormed();
      for (const d of diagsOf({ diagnostics: report.diagnostics || [], commands: report.commands || [] })) {
        if (!d.span16) continue;
        withSpans++;
        const { start, end } = d.span16;
        assert.ok(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end <= s.length, `${d.code} span16 ${start}..${end} of ${s.length}`);
        for (const p of [start, end]) assert.ok(!(p > 0 && p < s.length && isHigh(seen.charCodeAt(p - 1)) && isLow(seen.charCodeAt(p))), `${d.code} cuts a surrogate pair at ${p}`);
      }
      const c = container();
      const info = renderHighlights(c, s, report, { trailingNewline: false });
      checkNoSplitPair(s, c.nodes);
      checkDrawn(s, report, c.nodes, info, { trailingNewline: false });
    }),
    opts(400),
  );
  t.diagnostic(`${withSpans} core spans drawn`);
  assert.ok(withSpans > 400, 'the core reported spans to draw');
});
