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
 * Fill `container` with `text` and <mark> elements over the diagnostics' spans, for the
 * backdrop behind the textarea (or a read-only code block). Overlaps take the worst severity.
 */
export function renderHighlights(container, text, report, { trailingNewline = true } = {}) {
  const ranges = [];
  for (const { d } of allDiagnostics(report)) {
    const s = d.span16;
    if (!s || s.start > text.length) continue;
    ranges.push({ start: s.start, end: Math.min(s.end, text.length), sev: d.severity });
  }
  const frag = document.createDocumentFragment();
  const cuts = new Set([0, text.length]);
  for (const r of ranges) {
    cuts.add(r.start);
    cuts.add(r.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  for (let i = 0; i < points.length; i++) {
    const a = points[i];
    const b = points[i + 1];
    // Empty spans (a missing value, an insertion point) get a caret-like marker.
    for (const r of ranges) {
      if (r.start === a && r.end === a) {
        // Empty and inline: no width and no line-break opportunity, so wrapping is unchanged.
        frag.append(el('mark', `hl point ${r.sev}`));
      }
    }
    if (b === undefined || b === a) continue;
    let sev = null;
    for (const r of ranges) {
      if (r.start <= a && r.end >= b && r.end > r.start && (!sev || SEVERITY_RANK[r.sev] > SEVERITY_RANK[sev])) sev = r.sev;
    }
    const chunk = text.slice(a, b);
    if (sev) frag.append(el('mark', `hl ${sev}`, chunk));
    else frag.append(document.createTextNode(chunk));
  }
  // A textarea shows a final empty line after a trailing newline; the backdrop must too.
  if (trailingNewline) frag.append(document.createTextNode('\n'));
  container.replaceChildren(frag);
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
