// Rendering shared by the page and the widget. Every piece of user text (the command, flag
// values, YAML, the URL hash) and every message goes into the DOM as text: textContent and
// text nodes only, never innerHTML with data.

import { RULE_EXPLANATION, familyOf, loadRuleTexts, ruleTextsIfLoaded, withRuleText } from './rule-texts.js';

const SEVERITY_RANK = { error: 3, warning: 2, info: 1 };

/** Create an element with optional class and text. */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// ---- hidden characters: what you see is what runs ----

// Characters that are invisible, blank-looking or reorder the display (bidi controls): format
// characters (Cf: bidi controls, zero-width, tags, soft hyphen, ...), separators other than the
// space, controls other than tab/newline, variation selectors, Hangul fillers, the braille blank.
// Whatever TXT004/TXT009 flag is one of these; this test also covers what their cap leaves unlisted.
const HIDDEN_RE = /[\p{Cf}\p{Zl}\p{Zp}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u115F\u1160\u3164\uFFA0\u2800\u034F\u180B-\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;
const HIDDEN_RE_G = new RegExp(HIDDEN_RE.source, 'gu');
const BIDI_RE = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;

const SHORT_NAMES = {
  0x202a: 'LRE', 0x202b: 'RLE', 0x202c: 'PDF', 0x202d: 'LRO', 0x202e: 'RLO',
  0x2066: 'LRI', 0x2067: 'RLI', 0x2068: 'FSI', 0x2069: 'PDI', 0x200e: 'LRM', 0x200f: 'RLM', 0x061c: 'ALM',
  0x200b: 'ZWSP', 0x200c: 'ZWNJ', 0x200d: 'ZWJ', 0x2060: 'WJ', 0xfeff: 'BOM', 0x00ad: 'SHY', 0x00a0: 'NBSP',
  0x180e: 'MVS', 0x034f: 'CGJ', 0x115f: 'HF', 0x1160: 'HF', 0x3164: 'HF', 0xffa0: 'HF', 0x2800: 'BLANK',
  0x2028: 'LS', 0x2029: 'PS', 0x3000: 'IDSP', 0x202f: 'NNBSP', 0x2061: 'FA', 0x2062: 'IT', 0x2063: 'IS', 0x2064: 'IP',
};

/** True when `text` holds a character that is invisible, blank-looking or a bidi control. */
export function hasHiddenChars(text) {
  return HIDDEN_RE.test(text);
}

/** True when `ch` (one code point) is a bidi control. */
export function isBidiControl(ch) {
  return BIDI_RE.test(ch);
}

/** "U+202E RLO", "U+E0041 TAG A", "U+FE0F VS16": what a hidden character is, in visible ASCII. */
export function hiddenLabel(ch) {
  const cp = ch.codePointAt(0);
  const hex = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
  let name = SHORT_NAMES[cp];
  if (!name && cp >= 0xfe00 && cp <= 0xfe0f) name = `VS${cp - 0xfe00 + 1}`;
  else if (!name && cp >= 0xe0100 && cp <= 0xe01ef) name = `VS${cp - 0xe0100 + 17}`;
  else if (!name && cp >= 0xe0020 && cp <= 0xe007e) name = `TAG ${String.fromCharCode(cp - 0xe0000)}`;
  else if (!name && cp === 0xe0001) name = 'LANG TAG';
  else if (!name && cp === 0xe007f) name = 'CANCEL TAG';
  return name ? `${hex} ${name}` : hex;
}

/** Most escaped markers one rendering draws (a paste of 100,000 zero-width spaces stays fast). */
export const MAX_ESCAPES = 2000;

/**
 * Append `str` to `parent` as text, each run of one hidden character (see `hasHiddenChars`) as a
 * visible marker `⟨U+202E RLO⟩` (`⟨U+200B ZWSP ×12⟩` for a run) in a span.esc of its own, so no
 * bidi control acts and nothing zero-width goes unseen. `budget.n` counts markers (MAX_ESCAPES).
 */
export function appendEscaped(parent, str, budget = { n: 0 }) {
  let at = 0;
  HIDDEN_RE_G.lastIndex = 0;
  let m;
  while ((m = HIDDEN_RE_G.exec(str)) && budget.n < MAX_ESCAPES) {
    const ch = m[0];
    let end = m.index + ch.length;
    let count = 1;
    while (str.startsWith(ch, end)) {
      end += ch.length;
      count++;
    }
    if (m.index > at) parent.append(str.slice(at, m.index));
    const label = hiddenLabel(ch) + (count > 1 ? ` ×${count}` : '');
    parent.append(el('span', `esc${isBidiControl(ch) ? ' bidi' : ''}`, `⟨${label}⟩`));
    budget.n++;
    at = end;
    HIDDEN_RE_G.lastIndex = end;
  }
  if (at < str.length) parent.append(str.slice(at));
  return parent;
}

/**
 * The hidden characters of `text` (see `hasHiddenChars`: a superset of what TXT004/TXT009 flag,
 * so they show before the check is done and past the findings' cap), one entry per run of one
 * character: {start, end, ch, count, label, sev}, in order, at most MAX_ESCAPES.
 */
export function hiddenRuns(text) {
  const out = [];
  HIDDEN_RE_G.lastIndex = 0;
  let m;
  while (out.length < MAX_ESCAPES && (m = HIDDEN_RE_G.exec(text))) {
    const ch = m[0];
    let end = m.index + ch.length;
    let count = 1;
    while (text.startsWith(ch, end)) {
      end += ch.length;
      count++;
    }
    const sev = isBidiControl(ch) ? 'error' : 'warning';
    out.push({ start: m.index, end, ch, count, label: hiddenLabel(ch) + (count > 1 ? ` ×${count}` : ''), sev });
    HIDDEN_RE_G.lastIndex = end;
  }
  return out;
}

/** All diagnostics of a report, text-level first, each with the command index it belongs to. */
export function allDiagnostics(report) {
  const out = [];
  if (!report) return out;
  for (const d of report.diagnostics || []) out.push({ d, command: -1 });
  (report.commands || []).forEach((c, i) => {
    for (const d of c.diagnostics || []) out.push({ d, command: i });
  });
  return out;
}

/**
 * The cards to show for a report, in order: per command (text-level findings first), its errors,
 * then its warnings, then its notes, each group in report order; identical findings (same code,
 * message and span) once, with how many there were: [{d, command, count}].
 */
export function cardItems(report) {
  const byCommand = new Map();
  const seen = new Map();
  for (const item of allDiagnostics(report)) {
    const { d, command } = item;
    const s = d.span || {};
    const key = `${command}\u0000${d.code}\u0000${s.start}\u0000${s.end}\u0000${d.message}`;
    const same = seen.get(key);
    if (same) {
      same.count++;
      continue;
    }
    const it = { d, command, count: 1 };
    seen.set(key, it);
    let groups = byCommand.get(command);
    if (!groups) byCommand.set(command, (groups = [[], [], []]));
    groups[d.severity === 'error' ? 0 : d.severity === 'warning' ? 1 : 2].push(it);
  }
  const out = [];
  for (const command of [...byCommand.keys()].sort((a, b) => a - b)) for (const g of byCommand.get(command)) for (const it of g) out.push(it);
  return out;
}

/**
 * The highlight of `text` for a report's diagnostics, in one pass over the ranges sorted by
 * position: `segs`, non-overlapping and in order, each with the worst severity of the ranges over
 * it (neighbours of one severity merged into one), and `points`, the empty spans (a missing
 * value, an insertion point) in order. Time O(n log n) in the number of diagnostics.
 */
export function highlightSegments(text, report) {
  const n = text.length;
  // Events: position * 8 + kind, kind 0..2 = a range of that rank ends, 4..6 = one starts.
  const ev = [];
  const points = [];
  for (const { d } of allDiagnostics(report)) {
    const s = d.span16;
    if (!s || !(s.start <= n)) continue;
    const rank = SEVERITY_RANK[d.severity] || 1;
    const start = Math.max(0, s.start);
    const end = Math.min(s.end, n);
    if (end <= start) points.push({ at: start, sev: d.severity, i: points.length });
    else ev.push(start * 8 + 3 + rank, end * 8 + rank - 1);
  }
  const events = Float64Array.from(ev).sort();
  points.sort((a, b) => a.at - b.at || a.i - b.i);
  const segs = [];
  const open = [0, 0, 0, 0];
  let prev = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const at = Math.floor(e / 8);
    if (at > prev) {
      const rank = open[3] ? 3 : open[2] ? 2 : open[1] ? 1 : 0;
      if (rank) {
        const last = segs[segs.length - 1];
        if (last && last.end === prev && last.rank === rank) last.end = at;
        else segs.push({ start: prev, end: at, rank, sev: RANK_SEVERITY[rank] });
      }
      prev = at;
    }
    const kind = e - at * 8;
    if (kind >= 4) open[kind - 3]++;
    else open[kind + 1]--;
  }
  return { segs, points };
}

const RANK_SEVERITY = [null, 'info', 'warning', 'error'];

/**
 * Most marks a highlight draws: the browser lays out ~100,000 marks over one line for a second
 * or more, so past this many the rest of the text is shown without marks (the cards still list
 * every finding).
 */
export const MAX_MARKS = 5000;

/**
 * The pieces of `text` from `from` to `to`, with the flagged hidden characters in it (`hid`, a
 * cursor over `hiddenRuns`) drawn visibly. `mode` "badge" (the backdrop behind the textarea):
 * the character itself stays, in a span.hc whose ::before/::after draw a bar and a label out of
 * the flow, so the backdrop lays out exactly as the textarea does. `mode` "escape" (read-only
 * displays): the character is replaced by its label, `⟨U+202E RLO⟩`, so it cannot act.
 */
function* textPieces(text, from, to, hid, mode) {
  const list = hid.list;
  while (hid.i < list.length && list[hid.i].end <= from) hid.i++;
  let at = from;
  while (hid.i < list.length && list[hid.i].start < to) {
    const h = list[hid.i];
    const s = Math.max(h.start, at);
    const e = Math.min(h.end, to);
    if (s > at) yield document.createTextNode(text.slice(at, s));
    const bidi = isBidiControl(h.ch) ? ' bidi' : '';
    if (mode === 'escape') {
      // A run split by a highlight boundary is labelled once, where it starts.
      if (s === h.start) yield el('span', `esc${bidi} ${h.sev}`, `⟨${h.label}⟩`);
    } else {
      const hc = el('span', `hc${bidi} ${h.sev}`, text.slice(s, e));
      if (s === h.start) hc.dataset.label = h.label.replace(/^U\+[0-9A-F]+ (?=\S)/, '');
      yield hc;
    }
    at = e;
    if (e === h.end) hid.i++;
    else break;
  }
  if (to > at) yield document.createTextNode(text.slice(at, to));
}

/**
 * The nodes of a highlight, in order: text nodes and at most `MAX_MARKS` marks. Returns how many
 * of the findings were drawn whole (a point inside a range splits it into two marks, so the cap
 * can stop short of MAX_MARKS findings).
 */
function* highlightNodes(text, { segs, points }, hidden = [], mode = 'badge') {
  const hid = { list: hidden, i: 0 };
  const piece = (a, b) => textPieces(text, a, b, hid, mode);
  let at = 0;
  let si = 0;
  let pi = 0;
  let marks = 0;
  while ((si < segs.length || pi < points.length) && marks++ < MAX_MARKS) {
    const seg = segs[si];
    const pt = points[pi];
    // A point at a position comes before the text that starts there.
    if (pt && (!seg || pt.at <= Math.max(at, seg.start))) {
      if (pt.at > at) yield* piece(at, pt.at);
      at = Math.max(at, pt.at);
      // Empty and inline: no width and no line-break opportunity, so wrapping is unchanged.
      yield el('mark', `hl point ${pt.sev}`);
      pi++;
      continue;
    }
    // A point inside a segment splits it, as a cut point did.
    const end = pt && pt.at < seg.end ? pt.at : seg.end;
    if (seg.start > at) yield* piece(at, seg.start);
    const from = Math.max(at, seg.start);
    if (end > from) {
      const mark = el('mark', `hl ${seg.sev}`);
      for (const p of piece(from, end)) mark.append(p);
      yield mark;
    }
    at = Math.max(at, end);
    if (end === seg.end) si++;
  }
  if (at < text.length) yield* piece(at, text.length);
  return si + pi;
}

/** Append every node `nodes` yields to `frag`; the generator's return value. */
function appendAll(frag, nodes) {
  for (;;) {
    const step = nodes.next();
    if (step.done) return step.value;
    frag.append(step.value);
  }
}

/**
 * Fill `container` with `text` and <mark> elements over the diagnostics' spans, for the
 * backdrop behind the textarea (or a read-only code block). Overlaps take the worst severity.
 */
export function renderHighlights(container, text, report, { trailingNewline = true, hidden = 'badge', beforeInsert = () => {} } = {}) {
  const hl = highlightSegments(text, report);
  const frag = document.createDocumentFragment();
  const drawn = appendAll(frag, highlightNodes(text, hl, hiddenRuns(text), hidden));
  // A textarea shows a final empty line after a trailing newline; the backdrop must too.
  if (trailingNewline) frag.append(document.createTextNode('\n'));
  beforeInsert(frag);
  container.replaceChildren(frag);
  return highlightInfo(hl, drawn);
}

/** How many places a highlight marks, and how many of them it left unmarked (the mark cap). */
function highlightInfo(hl, drawn) {
  const total = hl.segs.length + hl.points.length;
  return { total, unmarked: Math.max(0, total - drawn) };
}

/** Let the browser handle input and paint before the next slice of work. */
export function yieldToInput() {
  if (globalThis.scheduler && typeof globalThis.scheduler.yield === 'function') return globalThis.scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Milliseconds of work between yields. */
const SLICE_MS = 10;

/**
 * `renderHighlights` in slices that yield to input, for reports with many findings; the nodes
 * are built off-document and go in at once. Gives up (returns null) as soon as `current()`
 * says a newer render has started; else returns what `renderHighlights` does. `beforeInsert(frag)`
 * (both) adds to the nodes while they are still off-document, where changing them is cheap.
 */
export async function renderHighlightsSliced(container, text, report, { trailingNewline = true, current = () => true, hidden = 'badge', beforeInsert = () => {} } = {}) {
  let t0 = performance.now();
  const hl = highlightSegments(text, report);
  if (hl.segs.length + hl.points.length < 400) return renderHighlights(container, text, report, { trailingNewline, hidden, beforeInsert });
  const frag = document.createDocumentFragment();
  let k = 0;
  const nodes = highlightNodes(text, hl, hiddenRuns(text), hidden);
  let drawn = 0;
  for (;;) {
    const step = nodes.next();
    if (step.done) {
      drawn = step.value;
      break;
    }
    frag.append(step.value);
    if ((++k & 255) === 0 && performance.now() - t0 > SLICE_MS) {
      await yieldToInput();
      if (!current()) return null;
      t0 = performance.now();
    }
  }
  if (trailingNewline) frag.append(document.createTextNode('\n'));
  await yieldToInput();
  if (!current()) return null;
  beforeInsert(frag);
  container.replaceChildren(frag);
  return highlightInfo(hl, drawn);
}

/** `container`'s children made `nodes`, in order, moving only what is not in place already (a card kept from the last report is not laid out anew). */
function setChildren(container, nodes) {
  // Children that go first: else every kept one after a dropped one would be moved (and laid out) again.
  const keep = new Set(nodes);
  for (let c = container.firstChild; c; ) {
    const next = c.nextSibling;
    if (!keep.has(c)) c.remove();
    c = next;
  }
  let at = container.firstChild;
  for (const n of nodes) {
    if (n === at) at = at.nextSibling;
    else container.insertBefore(n, at);
  }
  while (at) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
}

/**
 * Cards for `items`, a page at a time: the first `pageSize` now, and a "Show N more" button that
 * renders the next page (not all of them), so many findings never hold up the page.
 */
export function renderCardPages(container, items, makeCard, { pageSize = 40, what = 'findings' } = {}) {
  let shown = Math.min(pageSize, items.length);
  setChildren(container, items.slice(0, shown).map(makeCard));
  if (shown >= items.length) return;
  const more = el('button', 'more');
  more.type = 'button';
  const label = () => {
    const left = items.length - shown;
    const next = Math.min(pageSize, left);
    more.textContent = next === left ? `Show ${left} more ${what}` : `Show ${next} more ${what} (${left} not shown)`;
  };
  label();
  more.addEventListener('click', () => {
    const next = items.slice(shown, shown + pageSize);
    shown += next.length;
    more.before(...next.map(makeCard));
    if (shown >= items.length) {
      // Keep the keyboard where the reader was: on the first card just shown.
      const first = more.previousElementSibling && next.length ? container.children[shown - next.length] : null;
      more.remove();
      if (first) {
        first.tabIndex = -1;
        first.focus({ preventScroll: true });
      }
    } else label();
  });
  container.append(more);
}

/**
 * The lines a fix touches, before and after, with the changed parts marked (display only: the
 * new text itself comes from the core, `applyEdits`). Null when the edits are not in order.
 */
/** `str` appended to `node` with each word in its own span (text only): the CSS keeps a word
 * whole on a line (`--dcp-size` does not break after its hyphens) unless it is longer than a line. */
function appendWords(node, str) {
  for (const part of str.split(/(\s+)/)) {
    if (!part) continue;
    if (/\s/.test(part)) node.append(part);
    else node.append(el('span', 'w', part));
  }
}

export function fixPreview(text, edits) {
  const r = previewRange(text, edits);
  if (!r) return null;
  const { sorted, from, to, clipStart, clipEnd } = r;
  const shown = beforeAfter(text, sorted, from, to, { append: appendWords, classes: ['before', 'after'] });
  if (!shown) return null;
  if (clipStart) {
    shown.before.prepend('…');
    shown.after.prepend('…');
  }
  if (clipEnd) {
    shown.before.append('…');
    shown.after.append('…');
  }
  return shown;
}

/** The part of `text` a fix preview shows: the touched lines, clipped to some context around the edits on very long lines. */
function previewRange(text, edits) {
  if (edits.length === 0) return null;
  const sorted = [...edits].sort((a, b) => a.start16 - b.start16);
  const minStart = sorted[0].start16;
  const maxEnd = Math.max(...sorted.map((e) => e.end16));
  const CONTEXT = 60;
  let from = text.lastIndexOf('\n', minStart - 1) + 1;
  let to = text.indexOf('\n', maxEnd);
  if (to < 0) to = text.length;
  const clipStart = minStart - from > CONTEXT;
  const clipEnd = to - maxEnd > CONTEXT;
  if (clipStart) from = minStart - CONTEXT;
  if (clipEnd) to = maxEnd + CONTEXT;
  return { sorted, from, to, clipStart, clipEnd };
}

/** What a fix preview draws, as a string: equal for two previews that look the same wherever their text is. */
function previewKey(text, edits) {
  const r = previewRange(text, edits);
  if (!r) return '';
  const { sorted, from, to, clipStart, clipEnd } = r;
  const rel = sorted.map((e) => [e.start16 - from, e.end16 - from, e.end16 > text.length, e.replacement]);
  return JSON.stringify([text.slice(from, to), rel, clipStart, clipEnd]);
}

/**
 * `text[from..to]` before and after `edits` (sorted, inside that range): two `<pre>`s (of
 * `classes`), what is removed in `<del>`, what is written in `<ins>`, each piece of text added
 * with `append`. Null when an edit overlaps the one before or ends past the text.
 */
export function beforeAfter(text, edits, from, to, { append, classes }) {
  const before = el('pre', classes[0]);
  const aft = el('pre', classes[1]);
  let at = from;
  for (const e of edits) {
    if (e.start16 < at || e.end16 > text.length) return null;
    const same = text.slice(at, e.start16);
    append(before, same);
    append(aft, same);
    if (e.end16 > e.start16) append(before.appendChild(el('del')), text.slice(e.start16, e.end16));
    if (e.replacement) append(aft.appendChild(el('ins')), e.replacement);
    at = e.end16;
  }
  append(before, text.slice(at, to));
  append(aft, text.slice(at, to));
  return { before, after: aft };
}

const STAGE_LABEL = {
  shell: 'reading the shell text',
  cli: 'the launcher',
  config: 'the --config file',
  argparse: 'argument parsing',
  resolve: 'resolving settings',
  check: 'checking settings',
};

/** "What it means": the diagnostic's explanation, with its rule's text put in where it belongs
 * (at once when the texts are here, else when they arrive; without it if they cannot be had). */
function explanationOf(d) {
  const p = el('p', 'explanation');
  const parts = d.explanation.split(RULE_EXPLANATION);
  const show = (rule) => {
    const text = withRuleText(d.explanation, rule);
    p.replaceChildren(el('strong', null, 'What it means: '), text);
    p.hidden = !text;
  };
  const family = familyOf(d.code);
  if (parts.length === 1) show('');
  else if (ruleTextsIfLoaded(family)) show(ruleTextsIfLoaded(family)[d.code] ?? '');
  else {
    show('');
    loadRuleTexts(family).then(
      (texts) => show(texts[d.code] ?? ''),
      () => {},
    );
  }
  return p;
}

/**
 * Everything `diagCard(d, opts)` draws, as a string: two findings with the same key get cards
 * that look the same (a finding whose span only moved with an edit before it keeps its card).
 */
export function cardKey(d, opts = {}) {
  const fixes = (d.fixes || []).map((f) => [f.title, f.applicability, f.edits.length, opts.text !== undefined ? previewKey(opts.text, f.edits) : '']);
  return JSON.stringify([d.severity, d.message, opts.count > 1 ? opts.count : 1, !!opts.collapsed, !!opts.onLocate, !!opts.onApply, !!opts.compact, d.origin, d.exception, d.stage, d.code, d.line, d.column, d.explanation, fixes]);
}

/**
 * One card per diagnostic. `opts.text` is the text the report was made for; `opts.onApply(fix)`
 * applies a fix; `opts.onLocate(d)` shows the span; `opts.compact` for the widget.
 */
export function diagCard(d, opts = {}) {
  const card = el('article', `card ${d.severity}`);
  const count = opts.count > 1 ? opts.count : 1;
  card.setAttribute('aria-label', `${d.severity}: ${d.message}${count > 1 ? ` (${count} times)` : ''}`);
  const head = el('header', 'card-head');
  if (opts.collapsed) head.append(el('span', 'fold-mark', '▸'));
  head.append(el('span', `badge ${d.severity}`, d.severity));
  if (count > 1) {
    const c = el('span', 'count', `×${count}`);
    c.title = `The same finding ${count} times`;
    head.append(c);
  }
  head.append(el('span', 'origin', d.origin === 'sglang' ? 'SGLang says' : 'preflight notes'));
  if (d.exception) head.append(el('code', 'exception', d.exception));
  head.append(el('span', 'stage', STAGE_LABEL[d.stage] || d.stage));
  // The code links to its page in the rule reference (dist/rules/, generated at build time),
  // found next to this module so that the widget on another site links to it too.
  const codeLink = el('a', 'code-link');
  codeLink.href = new URL(`./rules/${encodeURIComponent(d.code)}.html`, import.meta.url).href;
  codeLink.title = `${d.code} in the rule reference`;
  codeLink.append(el('code', 'code', d.code));
  head.append(codeLink);
  if (typeof d.line === 'number') {
    const where = el(opts.onLocate ? 'button' : 'span', 'where', `line ${d.line}, col ${d.column}`);
    if (opts.onLocate) {
      where.type = 'button';
      where.title = 'Show this in the command';
      where.addEventListener('click', () => opts.onLocate(d));
    }
    head.append(where);
  }
  // Warnings and notes (`opts.collapsed`): one summary line that expands to the whole card.
  let body = card;
  if (opts.collapsed) {
    const fold = el('details', 'fold');
    const summary = el('summary');
    summary.append(head, el('span', 'card-line', d.message));
    fold.append(summary);
    card.append(fold);
    body = fold;
  } else card.append(head);
  const msg = el('pre', 'message');
  const code = el('code');
  appendWords(code, d.message);
  msg.append(code);
  body.append(msg);
  if (d.explanation) body.append(explanationOf(d));
  const list = fixList(d.fixes || [], opts);
  if (list) body.append(list);
  return card;
}

/** A finding's or a note's fixes: title, how safe, Apply (`opts.onApply`), before/after. Null when none. */
export function fixList(fixes, opts = {}) {
  if (!fixes.length) return null;
  const list = el('div', 'fixes');
  for (const f of fixes) {
    const row = el('section', `fix ${f.applicability}`);
    const top = el('div', 'fix-head');
    top.append(el('span', 'fix-title', f.title));
    top.append(el('span', `applic ${f.applicability}`, f.applicability === 'safe' ? 'safe fix' : f.applicability === 'unsafe' ? 'changes behaviour' : 'advice'));
    const preview = opts.text !== undefined && f.edits.length ? fixPreview(opts.text, f.edits) : null;
    if (opts.onApply && f.edits.length && f.applicability !== 'display') {
      const b = el('button', 'apply', 'Apply');
      b.type = 'button';
      b.setAttribute('aria-label', `Apply: ${f.title}`);
      b.addEventListener('click', () => opts.onApply(f));
      top.append(b);
    }
    row.append(top);
    if (preview && !opts.compact) {
      const ba = el('div', 'before-after');
      const l1 = el('div', 'ba');
      l1.append(el('span', 'ba-label', 'Before'), preview.before);
      const l2 = el('div', 'ba');
      l2.append(el('span', 'ba-label', 'After'), preview.after);
      ba.append(l1, l2);
      row.append(ba);
    }
    list.append(row);
  }
  return list;
}

/**
 * "As it runs": the lines of `text` that hold a hidden character, in the order the shell reads
 * them, each hidden character as its label (no bidi control acts here: they are all replaced, and
 * the view is laid out left to right in logical order), with line numbers; gaps between lines
 * are one "⋯". Null when the text holds none. At most `maxLines` lines, long lines clipped
 * around their hidden characters.
 */
export function asRunsView(text, { maxLines = 40, clip = 160 } = {}) {
  if (!hasHiddenChars(text)) return null;
  const list = el('ol', 'as-runs-lines');
  const budget = { n: 0 };
  let lineNo = 0;
  let lastShown = 0;
  let shown = 0;
  let more = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    const line = text.slice(start, end);
    HIDDEN_RE_G.lastIndex = 0;
    const m = HIDDEN_RE_G.exec(line);
    if (m) {
      if (shown >= maxLines) more++;
      else {
        if (lastShown && lineNo > lastShown + 1) list.append(el('li', 'gap', `⋯ ${lineNo - lastShown - 1} more line${lineNo - lastShown - 1 === 1 ? '' : 's'}`));
        const li = el('li', 'line');
        li.append(el('span', 'ln', `${lineNo}`));
        const code = el('code');
        let from = 0;
        let to = line.length;
        if (line.length > clip * 2) {
          from = Math.max(0, m.index - clip / 2);
          to = Math.min(line.length, from + clip * 2);
        }
        if (from > 0) code.append('…');
        appendEscaped(code, line.slice(from, to), budget);
        if (to < line.length) code.append('…');
        li.append(code);
        list.append(li);
        lastShown = lineNo;
        shown++;
      }
    }
    if (end === text.length) break;
    start = end + 1;
  }
  if (more) list.append(el('li', 'gap', `⋯ ${more} more line${more === 1 ? '' : 's'} with hidden characters`));
  return list;
}

/**
 * The verdict banner for `report` in `box`: the core's verdict line (with `suffix`), and for an
 * accept some of whose checks did not run (the model's config not read, a hook not modelled),
 * what did not run, in the banner itself: an accept by the checks that ran is not the all-clear.
 * `caution`: an accept that is not the all-clear for another reason (a bidi control, other
 * commands in the paste). Returns whether the accept is partial.
 */
export function showVerdict(box, report, { caution = false, suffix = '', list = true } = {}) {
  const s = report.summary;
  const partial = s.outcome === 'accepted' && !!s.not_run;
  box.textContent = `${s.verdict}${suffix}`;
  box.className = `verdict ${s.outcome}${partial ? ' partial' : ''}${caution ? ' caution' : ''}`;
  if (partial) {
    box.append(el('span', 'not-run', s.not_run));
    const checks = list ? notRunList(report) : null;
    if (checks) box.append(checks);
  }
  return partial;
}

const NOT_RUN_WHY = {
  model_config: "needs the model's config",
  files: 'needs files on the server',
  network: 'needs the network',
  not_implemented: 'not modelled yet',
  unknown_value: 'reads a value not known here',
  hardware: 'needs hardware without a profile here',
};

/** The checks the report lists as not run, each SGLang's site (`module.function#n`) and why, folded. Null when none. */
function notRunList(report) {
  const commands = report.commands || [];
  const rows = commands.flatMap((c, i) => (c.not_run || []).map((n) => ({ n, command: commands.length > 1 ? `command ${i + 1}: ` : '' })));
  if (!rows.length) return null;
  const fold = el('details', 'not-run-list');
  fold.append(el('summary', null, rows.length === 1 ? 'The check that did not run' : `The ${rows.length} checks that did not run`));
  const ul = el('ul');
  for (const { n, command } of rows) {
    const li = el('li', null, command);
    li.append(el('code', null, n.site), ` — ${NOT_RUN_WHY[n.reason] || n.reason}`);
    ul.append(li);
  }
  fold.append(ul);
  return fold;
}

/** The also-runs list's heading: "This paste also runs" beside a launch, "This paste runs" without one. */
function alsoRunsTitle(report) {
  return (report.commands || []).length ? 'This paste also runs' : 'This paste runs';
}

/** How many commands the paste runs that are not SGLang launches, said against the launches it has. */
export function alsoRunsCount(report) {
  const n = ((report && report.also_runs) || []).length;
  const launches = ((report && report.commands) || []).length;
  const commands = `${n} ${launches ? 'other ' : ''}command${n === 1 ? '' : 's'}`;
  if (!launches) return `${commands} and no SGLang launch`;
  return `${commands} besides the SGLang launch${launches === 1 ? '' : 'es'}`;
}

/**
 * "This paste also runs": every other command of `report.also_runs`, as escaped text with its
 * line; `onLocate(a)` (the page) makes each a button that selects it in the editor. Null when
 * there are none.
 */
export function alsoRunsPanel(report, { onLocate, compact = false, max = 50 } = {}) {
  const runs = (report && report.also_runs) || [];
  if (!runs.length) return null;
  const box = el('section', `also-runs${compact ? ' compact' : ''}`);
  box.setAttribute('role', 'region');
  const title = alsoRunsTitle(report);
  box.setAttribute('aria-label', title);
  const head = el('p', 'also-head');
  head.append(el('strong', null, `${title}:`));
  head.append(` ${alsoRunsCount(report)}. Read ${runs.length === 1 ? 'it' : 'them'} before you run this.`);
  box.append(head);
  const list = el('ul', 'also-list');
  const budget = { n: 0 };
  for (const a of runs.slice(0, max)) {
    const li = el('li');
    const item = el(onLocate ? 'button' : 'span', 'also-item');
    if (onLocate) {
      item.type = 'button';
      item.title = 'Select it in the command';
      item.addEventListener('click', () => onLocate(a));
    }
    item.append(el('span', 'ln', `line ${a.line}`));
    item.append(appendEscaped(el('code', 'also-cmd'), a.text, budget));
    li.append(item);
    list.append(li);
  }
  if (runs.length > max) list.append(el('li', 'muted', `… and ${runs.length - max} more (each is a finding below)`));
  box.append(list);
  return box;
}

/**
 * Keep the labels of hidden characters in the backdrop from covering each other: characters
 * next to each other on screen (a bidi control and a zero-width space are both zero wide, and a
 * reordered run puts logically distant ones side by side) would draw their labels at one place.
 * Each label that would overlap the one before it on its line moves right (a CSS variable read by
 * the ::after rule; CSSOM, allowed by the page's CSP). Widths are estimated from the label's
 * length in the label font (monospace, 8.5px: about 5.2px a character, plus padding).
 */
export function spreadBadges(container) {
  const hs = container.querySelectorAll('.hc[data-label]');
  if (!hs.length) return;
  // All writes, then all reads (one layout), then all writes: never a layout per label.
  for (const h of hs) h.style.removeProperty('--badge-dx');
  const items = [];
  for (const h of hs) {
    const r = h.getBoundingClientRect();
    items.push({ h, x: r.left, y: Math.round(r.top), w: h.dataset.label.length * 5.2 + 6 });
  }
  items.sort((a, b) => a.y - b.y || a.x - b.x);
  let line = null;
  let right = -Infinity;
  for (const it of items) {
    if (it.y !== line) {
      line = it.y;
      right = -Infinity;
    }
    const dx = Math.max(0, right + 1 - it.x);
    if (dx) it.h.style.setProperty('--badge-dx', `${dx.toFixed(1)}px`);
    right = it.x + dx + it.w;
  }
}

const NOTE_KIND = {
  removed: 'removed',
  renamed: 'renamed',
  changed: 'changed',
  default_changed: 'new default',
  new_finding: 'new',
  finding_gone: 'gone',
};

/**
 * A move between releases (the core's `upgradeJson`): per command, the verdict on each release
 * and its migration notes, each with its finding (as a card) and fixes. All text is rendered as
 * text. `opts`: `{ text, onApply, onLocate }` as for `diagCard`.
 */
export function migrationView(up, opts = {}) {
  const root = el('div', 'migration');
  const verdict = (ok) => (ok ? 'accepted' : 'rejected');
  for (const c of up.commands) {
    const sec = el('section', 'migration-command');
    const head = el('p', 'migration-verdict');
    head.append(
      el('strong', null, up.commands.length > 1 ? `Command ${c.command + 1}: ` : ''),
      el('span', `was ${verdict(c.accepted_before)}`, `SGLang ${up.from} ${verdict(c.accepted_before)}`),
      ' → ',
      el('span', `now ${verdict(c.accepted_after)}`, `SGLang ${up.to} ${verdict(c.accepted_after)}`),
    );
    sec.append(head);
    if (!c.notes.length) sec.append(el('p', 'muted', 'Nothing changes for this command.'));
    const list = el('ul', 'migration-notes');
    // What the command writes first (flags, findings), then the defaults it relies on.
    const order = ['removed', 'renamed', 'changed', 'new_finding', 'finding_gone', 'default_changed'];
    const notes = [...c.notes].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
    // Defaults the command relies on: one folded group, fixes without previews.
    const defaults = notes.filter((n) => n.kind === 'default_changed');
    let group = null;
    if (defaults.length) {
      group = el('details', 'migration-defaults');
      group.append(el('summary', null, `${defaults.length} default${defaults.length > 1 ? 's' : ''} this command relies on change${defaults.length > 1 ? '' : 's'}`));
    }
    for (const n of notes) {
      const li = el('li', `migration-note ${n.kind}`);
      const line = el('div', 'note-line');
      line.append(el('span', `note-kind ${n.kind}`, NOTE_KIND[n.kind] || n.kind), ' ');
      const words = el('span', 'note-text');
      appendWords(words, n.note);
      line.append(words);
      if (typeof n.line === 'number' && opts.onLocate) {
        const where = el('button', 'where', `line ${n.line}, col ${n.column}`);
        where.type = 'button';
        where.title = 'Show this in the command';
        where.addEventListener('click', () => opts.onLocate(n));
        line.append(' ', where);
      }
      li.append(line);
      // A flag's note has fixes of its own; a finding's note has the finding's (shown on its card).
      const own = n.kind === 'new_finding' || n.kind === 'finding_gone' ? null : fixList(n.fixes || [], { ...opts, compact: n.kind === 'default_changed' });
      if (own) li.append(own);
      if (n.finding) li.append(diagCard(n.finding, { ...opts, collapsed: n.finding.severity !== 'error' || n.kind === 'finding_gone', onApply: n.kind === 'finding_gone' ? undefined : opts.onApply }));
      if (n.kind === 'default_changed') {
        let inner = group.querySelector('ul');
        if (!inner) group.append((inner = el('ul', 'migration-notes')));
        inner.append(li);
      } else list.append(li);
    }
    if (list.childElementCount) sec.append(list);
    if (group) sec.append(group);
    root.append(sec);
  }
  if (up.parser_only.length) {
    root.append(el('p', 'muted', `Only the command line of SGLang ${up.parser_only.join(' and ')} is replayed here, so errors after it are not compared.`));
  }
  return root;
}

const UNKNOWN_WHY = {
  model_config: "needs the model's config",
  not_modelled: 'set by a start-up step not modelled here',
  unknown_value: 'depends on a value not known here',
  check_not_run: 'set by a step whose check did not run here',
};

/**
 * "What SGLang will run with" for one accepted command (the core's `resolved_details` and
 * `resolved_unknown`): each known value, marked where it is not the flag's default, with the
 * start-up step that derived it and a Pin button (its `pin` fix, applied by `opts.onApply`);
 * then the values not known here, grouped by why. Null when the command has none. A command
 * checked without them (`resolved_left_out`) gets them from `opts.load()` (a promise of the
 * command with them) when the section is first opened.
 */
export function resolvedView(c, opts = {}) {
  const leftOut = c.resolved_left_out && opts.load;
  const values = c.resolved_details || [];
  if (!leftOut && !values.length && !(c.resolved_unknown || []).length) return null;
  const box = el('details', 'resolved');
  const summary = (n) => `What SGLang will run with (${n} values known here)`;
  const head = el('summary', null, leftOut ? 'What SGLang will run with' : summary(values.length));
  box.append(head);
  // Its hundreds of rows are drawn when it is first opened, not on every check (it starts folded).
  let filled = false;
  let status;
  const fill = async () => {
    if (!box.open || filled) return;
    filled = true;
    if (!leftOut) return resolvedRows(box, c, values, opts);
    status ??= el('p', 'muted');
    status.textContent = 'Loading…';
    box.append(status);
    try {
      const full = await opts.load();
      const got = full.resolved_details || [];
      head.textContent = summary(got.length);
      status.remove();
      resolvedRows(box, full, got, opts);
    } catch (e) {
      status.textContent = `Could not get the values: ${e && e.message ? e.message : e}`;
      filled = false;
    }
  };
  box.addEventListener('toggle', fill);
  return box;
}

/** The rows of `resolvedView`'s box, and the values not known here. */
function resolvedRows(box, c, values, opts) {
  const table = el('table', 'resolved-values');
  for (const v of values) {
    const row = el('tr', v.differs_from_default ? 'differs' : null);
    const name = el('td', 'rv-flag');
    name.append(el('code', null, v.flag || v.field));
    const val = el('td', 'rv-value');
    val.append(el('code', null, v.repr));
    if (v.differs_from_default) val.append(' ', el('span', 'rv-mark', v.source === 'command' ? 'set' : 'not the default'));
    const how = el('td', 'rv-how', v.source === 'derived' ? `set by ${v.set_by || 'a start-up step'}` : v.source === 'command' ? 'from the command' : 'default');
    const act = el('td', 'rv-pin');
    if (v.pin && v.pin.edits.length && opts.onApply) {
      const b = el('button', 'apply', 'Pin');
      b.type = 'button';
      b.title = v.pin.title;
      b.setAttribute('aria-label', `Pin: ${v.pin.title}`);
      b.addEventListener('click', () => opts.onApply(v.pin));
      act.append(b);
    }
    row.append(name, val, how, act);
    table.append(row);
  }
  box.append(table);
  const unknown = c.resolved_unknown || [];
  if (unknown.length) {
    const byWhy = new Map();
    for (const u of unknown) byWhy.set(u.reason, [...(byWhy.get(u.reason) || []), u.field]);
    const list = el('ul', 'resolved-unknown');
    for (const [why, fields] of byWhy) {
      const li = el('li');
      li.append(el('span', 'muted', `Not known here (${UNKNOWN_WHY[why] || why}): `), fields.join(', '));
      list.append(li);
    }
    box.append(list);
  }
}
