// Rendering shared by the page and the widget. Every piece of user text (the command, flag
// values, YAML, the URL hash) and every message goes into the DOM as text: textContent and
// text nodes only, never innerHTML with data.

const SEVERITY_RANK = { error: 3, warning: 2, info: 1 };

/** Create an element with optional class and text. */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
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

/** The nodes of a highlight, in order: text nodes and at most `MAX_MARKS` marks. */
function* highlightNodes(text, { segs, points }) {
  let at = 0;
  let si = 0;
  let pi = 0;
  let marks = 0;
  while ((si < segs.length || pi < points.length) && marks++ < MAX_MARKS) {
    const seg = segs[si];
    const pt = points[pi];
    // A point at a position comes before the text that starts there.
    if (pt && (!seg || pt.at <= Math.max(at, seg.start))) {
      if (pt.at > at) yield document.createTextNode(text.slice(at, pt.at));
      at = Math.max(at, pt.at);
      // Empty and inline: no width and no line-break opportunity, so wrapping is unchanged.
      yield el('mark', `hl point ${pt.sev}`);
      pi++;
      continue;
    }
    // A point inside a segment splits it, as a cut point did.
    const end = pt && pt.at < seg.end ? pt.at : seg.end;
    if (seg.start > at) yield document.createTextNode(text.slice(at, seg.start));
    const from = Math.max(at, seg.start);
    if (end > from) yield el('mark', `hl ${seg.sev}`, text.slice(from, end));
    at = Math.max(at, end);
    if (end === seg.end) si++;
  }
  if (at < text.length) yield document.createTextNode(text.slice(at));
}

/**
 * Fill `container` with `text` and <mark> elements over the diagnostics' spans, for the
 * backdrop behind the textarea (or a read-only code block). Overlaps take the worst severity.
 */
export function renderHighlights(container, text, report, { trailingNewline = true } = {}) {
  const hl = highlightSegments(text, report);
  const frag = document.createDocumentFragment();
  for (const node of highlightNodes(text, hl)) frag.append(node);
  // A textarea shows a final empty line after a trailing newline; the backdrop must too.
  if (trailingNewline) frag.append(document.createTextNode('\n'));
  container.replaceChildren(frag);
  return highlightInfo(hl);
}

/** How many places a highlight marks, and how many of them it leaves unmarked (over MAX_MARKS). */
function highlightInfo(hl) {
  const total = hl.segs.length + hl.points.length;
  return { total, unmarked: Math.max(0, total - MAX_MARKS) };
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
 * says a newer render has started; else returns what `renderHighlights` does.
 */
export async function renderHighlightsSliced(container, text, report, { trailingNewline = true, current = () => true } = {}) {
  let t0 = performance.now();
  const hl = highlightSegments(text, report);
  if (hl.segs.length + hl.points.length < 400) return renderHighlights(container, text, report, { trailingNewline });
  const frag = document.createDocumentFragment();
  let k = 0;
  for (const node of highlightNodes(text, hl)) {
    frag.append(node);
    if ((++k & 255) === 0 && performance.now() - t0 > SLICE_MS) {
      await yieldToInput();
      if (!current()) return null;
      t0 = performance.now();
    }
  }
  if (trailingNewline) frag.append(document.createTextNode('\n'));
  await yieldToInput();
  if (!current()) return null;
  container.replaceChildren(frag);
  return highlightInfo(hl);
}

/**
 * Cards for `items`, a page at a time: the first `pageSize` now, and a "Show N more" button that
 * renders the next page (not all of them), so many findings never hold up the page.
 */
export function renderCardPages(container, items, makeCard, { pageSize = 40, what = 'findings' } = {}) {
  let shown = Math.min(pageSize, items.length);
  container.replaceChildren(...items.slice(0, shown).map(makeCard));
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
export function fixPreview(text, edits) {
  if (edits.length === 0) return null;
  const sorted = [...edits].sort((a, b) => a.start16 - b.start16);
  const minStart = sorted[0].start16;
  const maxEnd = Math.max(...sorted.map((e) => e.end16));
  // The touched lines, clipped to some context around the edits on very long lines.
  const CONTEXT = 60;
  let from = text.lastIndexOf('\n', minStart - 1) + 1;
  let to = text.indexOf('\n', maxEnd);
  if (to < 0) to = text.length;
  const clipStart = minStart - from > CONTEXT;
  const clipEnd = to - maxEnd > CONTEXT;
  if (clipStart) from = minStart - CONTEXT;
  if (clipEnd) to = maxEnd + CONTEXT;
  const before = el('pre', 'before');
  const aft = el('pre', 'after');
  if (clipStart) {
    before.append('…');
    aft.append('…');
  }
  let at = from;
  for (const e of sorted) {
    if (e.start16 < at || e.end16 > text.length) return null;
    const same = text.slice(at, e.start16);
    before.append(same);
    aft.append(same);
    if (e.end16 > e.start16) before.append(el('del', null, text.slice(e.start16, e.end16)));
    if (e.replacement) aft.append(el('ins', null, e.replacement));
    at = e.end16;
  }
  before.append(text.slice(at, to));
  aft.append(text.slice(at, to));
  if (clipEnd) {
    before.append('…');
    aft.append('…');
  }
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

/**
 * One card per diagnostic. `opts.text` is the text the report was made for; `opts.onApply(fix)`
 * applies a fix; `opts.onLocate(d)` shows the span; `opts.compact` for the widget.
 */
export function diagCard(d, opts = {}) {
  const card = el('article', `card ${d.severity}`);
  card.setAttribute('aria-label', `${d.severity}: ${d.message}`);
  const head = el('header', 'card-head');
  head.append(el('span', `badge ${d.severity}`, d.severity));
  head.append(el('span', 'origin', d.origin === 'sglang' ? 'SGLang says' : 'preflight notes'));
  if (d.exception) head.append(el('code', 'exception', d.exception));
  head.append(el('span', 'stage', STAGE_LABEL[d.stage] || d.stage));
  head.append(el('code', 'code', d.code));
  if (typeof d.line === 'number') {
    const where = el(opts.onLocate ? 'button' : 'span', 'where', `line ${d.line}, col ${d.column}`);
    if (opts.onLocate) {
      where.type = 'button';
      where.title = 'Show this in the command';
      where.addEventListener('click', () => opts.onLocate(d));
    }
    head.append(where);
  }
  card.append(head);
  const msg = el('pre', 'message');
  msg.append(el('code', null, d.message));
  card.append(msg);
  if (d.explanation) {
    const ex = el('p', 'explanation');
    ex.append(el('strong', null, 'What it means: '), d.explanation);
    card.append(ex);
  }
  const fixes = d.fixes || [];
  if (fixes.length) {
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
    card.append(list);
  }
  return card;
}
