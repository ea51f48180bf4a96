// The command editor around the page's textarea: gutter markers at each finding's row, hover
// and caret tooltips with the finding, the card of the finding under the caret, a textarea that
// grows with its text, and the diff that "Apply all safe fixes" shows. The highlights themselves
// (underlines) are render.js's backdrop; this adds to it after each render and reads its layout.
// All text goes into the DOM as text.
import { el, allDiagnostics, appendEscaped, beforeAfter } from './render.js';

const RANK = { error: 3, warning: 2, info: 1 };
/** Most gutter markers and hover targets one report gets (the cards list every finding). */
export const MAX_MARKERS = 1000;
/** Findings one tooltip lists before "and N more". */
const TIP_ITEMS = 3;

/**
 * The positions `text` offsets map to in `root`'s text nodes, in order: [{node, start, end}].
 * The backdrop holds the text exactly (marks and hidden-character spans wrap it, never change it).
 */
function textNodes(root) {
  const out = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let at = 0;
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    out.push({ node: n, start: at, end: at + n.data.length });
    at += n.data.length;
  }
  return out;
}

/** The text node and offset in it of `offset`, from `nodes` (`textNodes`); the earlier node at a boundary. */
function locateIn(nodes, offset) {
  let lo = 0;
  let hi = nodes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (nodes[mid].end < offset) lo = mid + 1;
    else hi = mid;
  }
  const n = nodes[lo];
  return n ? { node: n.node, offset: Math.max(0, Math.min(offset - n.start, n.node.data.length)) } : null;
}

export class CommandEditor {
  /**
   * @param {{ textarea: HTMLTextAreaElement, backdrop: HTMLElement, box: HTMLElement,
   *   onCaret?: (found: object[]) => void }} opts
   *   `box` holds both (the tooltip goes in it); `onCaret(found)` gets the findings under the caret
   *   ([] when none) each time that set changes.
   */
  constructor({ textarea, backdrop, box, onCaret = () => {} }) {
    this.textarea = textarea;
    this.backdrop = backdrop;
    this.box = box;
    this.onCaret = onCaret;
    this.items = [];
    this.text = null;
    this.rects = null;
    this.hovered = null;
    this.caretKey = '';
    this.tip = el('div', 'hover-tip');
    this.tip.id = 'hover-tip';
    this.tip.setAttribute('role', 'tooltip');
    this.tip.hidden = true;
    // What the caret is on, for screen readers (the tooltip is drawn for the eye).
    this.live = el('p', 'sr-only');
    this.live.id = 'caret-finding';
    this.live.setAttribute('aria-live', 'polite');
    box.append(this.tip, this.live);

    textarea.addEventListener('mousemove', (e) => this.#hover(e.clientX, e.clientY));
    textarea.addEventListener('mouseleave', () => this.#hover(null));
    for (const type of ['keyup', 'click', 'focus', 'select', 'input']) textarea.addEventListener(type, () => this.#caretSoon());
    document.addEventListener('selectionchange', () => {
      if (document.activeElement === textarea) this.#caretSoon();
    });
    textarea.addEventListener('blur', () => {
      this.caretKey = '';
      this.onCaret([]);
      if (!this.hovered) this.#hideTip();
    });
    textarea.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !this.tip.hidden) {
        this.#hideTip();
        e.stopPropagation();
      }
    });
    textarea.addEventListener('input', () => {
      // The findings describe the text before this edit until the next report.
      this.items = [];
      this.rects = null;
      this.#hideTip();
      this.autosize();
    });
    textarea.addEventListener('scroll', () => (this.rects = null));
    addEventListener('resize', () => (this.rects = null));
    // A new width wraps the text anew (its own height changes are autosize's doing).
    let width = 0;
    new ResizeObserver(() => {
      this.rects = null;
      if (textarea.clientWidth === width) return;
      width = textarea.clientWidth;
      this.fit();
    }).observe(textarea);
  }

  /**
   * As the backdrop gets `report`'s highlights of `text` (`nodes`: them, still off-document, or
   * the backdrop itself): a gutter marker at each finding's start (the worst severity where
   * several start), and the findings hover and the caret look up.
   */
  decorate(report, text, nodes = this.backdrop) {
    this.text = text;
    this.rects = null;
    // New cards: whatever the caret is on is told again.
    this.caretKey = null;
    this.items = allDiagnostics(report)
      .filter(({ d }) => d.span16 && d.span16.start <= text.length)
      .slice(0, MAX_MARKERS)
      .map(({ d }) => ({ d, start: d.span16.start, end: Math.min(d.span16.end, text.length) }));
    const starts = new Map();
    for (const it of this.items) {
      const had = starts.get(it.start);
      if (!had || RANK[it.d.severity] > RANK[had]) starts.set(it.start, it.d.severity);
    }
    const texts = textNodes(nodes);
    // From the end: splitting a text node keeps the offsets before it valid.
    for (const [at, sev] of [...starts].sort((a, b) => b[0] - a[0])) {
      const pos = locateIn(texts, at);
      if (!pos) continue;
      const marker = el('span', `gm ${sev}`);
      marker.dataset.at = String(at);
      const { node, offset } = pos;
      // Never inside a hidden character's box (positioned: the marker would sit on it, not in the gutter).
      const hc = node.parentElement && node.parentElement.closest('.hc');
      if (hc) {
        if (offset === 0) hc.before(marker);
        else hc.after(marker);
      } else if (offset === 0) node.before(marker);
      else if (offset === node.data.length) node.after(marker);
      else node.splitText(offset).before(marker);
    }
    // Typing sized the textarea for this text already (the input event): measuring it again
    // here would lay out the new cards and highlights now, a second time in this frame.
    if (this.sizedFor !== text) this.autosize();
    this.#caretSoon();
  }

  /** No findings (a failed check, a new text). */
  clear() {
    this.items = [];
    this.rects = null;
    this.#hideTip();
    this.onCaret([]);
    this.caretKey = '';
    this.autosize();
  }

  /**
   * The textarea as tall as its text (CSS caps it; then it scrolls). Growing is done at once (a
   * read of the layout the frame needs anyway); shrinking needs a second layout at another
   * height (~10 ms on a 10 KB command), so it waits until typing pauses.
   */
  autosize() {
    const t = this.textarea;
    const longer = this.sizedFor != null && t.value.length >= this.sizedFor.length;
    this.sizedFor = t.value;
    // Already as tall as CSS lets it be and the text did not get shorter: nothing to measure
    // (reading scrollHeight lays the whole text out now, ~5 ms on a 10 KB command, and again
    // when the new highlights come).
    if (!(this.capped && longer)) {
      const cap = parseFloat(getComputedStyle(t).maxHeight) || Infinity;
      if (t.scrollHeight > t.clientHeight + 1 && t.clientHeight < cap - 1) t.style.height = `${Math.min(t.scrollHeight + 2, cap)}px`;
      this.capped = t.clientHeight >= cap - 1;
    }
    clearTimeout(this.fitTimer);
    this.fitTimer = setTimeout(() => this.fit(), 300);
  }

  /** Grow or shrink the textarea to its text now. */
  fit() {
    clearTimeout(this.fitTimer);
    const t = this.textarea;
    const y = scrollY;
    const was = t.style.height;
    t.style.height = 'auto';
    const h = `${t.scrollHeight + 2}px`;
    t.style.height = h;
    this.capped = t.clientHeight >= (parseFloat(getComputedStyle(t).maxHeight) || Infinity) - 1;
    if (h !== was) {
      scrollTo({ top: y, behavior: 'instant' });
      this.rects = null;
    }
  }

  /** The findings whose span holds UTF-16 offset `at` (a selection: overlaps it), smallest first. */
  findingsAt(from, to = from) {
    return this.items
      .filter((it) => (from === to ? it.start <= from && from <= it.end : it.start < to && from < it.end) || (it.start === it.end && from <= it.start && it.start <= to))
      .sort((a, b) => a.end - a.start - (b.end - b.start));
  }

  /** Screen rectangles of one finding's span (none when it is outside the backdrop's text). */
  #spanRects(it, nodes = textNodes(this.backdrop), range = document.createRange()) {
    const a = locateIn(nodes, it.start);
    const b = locateIn(nodes, it.end);
    if (!a || !b) return null;
    range.setStart(a.node, a.offset);
    range.setEnd(b.node, b.offset);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    if (rects.length) return rects;
    // An empty span (a missing value, an insertion point): a few pixels around the point.
    const r = range.getBoundingClientRect();
    return [new DOMRect(r.left - 4, r.top, 8, r.height || 18)];
  }

  /** Screen rectangles of each finding's span and of the gutter markers, computed once per layout. */
  #layout() {
    if (this.rects) return this.rects;
    const nodes = textNodes(this.backdrop);
    const range = document.createRange();
    const spans = [];
    for (const it of this.items) {
      const rects = this.#spanRects(it, nodes, range);
      if (rects) spans.push({ it, rects });
    }
    const gutter = [...this.backdrop.querySelectorAll('.gm')].map((m) => {
      const r = m.getBoundingClientRect();
      // The whole gutter width of that row.
      const box = this.backdrop.getBoundingClientRect();
      return { at: Number(m.dataset.at), rect: new DOMRect(box.left, r.top - 3, r.right - box.left + 4, r.height + 6) };
    });
    this.rects = { spans, gutter };
    return this.rects;
  }

  #hover(x, y) {
    if (x === null || !this.items.length) {
      this.hovered = null;
      return this.#caretTip();
    }
    const { spans, gutter } = this.#layout();
    const inside = (r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
    let found = [];
    let anchor = null;
    const g = gutter.find((m) => inside(m.rect));
    if (g) {
      found = this.items.filter((it) => it.start === g.at);
      anchor = g.rect;
    } else {
      for (const s of spans) {
        const r = s.rects.find(inside);
        if (r) {
          found.push(s.it);
          anchor = anchor || r;
        }
      }
      found.sort((a, b) => a.end - a.start - (b.end - b.start));
    }
    if (!found.length) {
      this.hovered = null;
      return this.#caretTip();
    }
    const key = found.map((it) => this.items.indexOf(it)).join(',');
    if (this.hovered === key && !this.tip.hidden) return;
    this.hovered = key;
    this.#showTip(found, anchor, 'hover');
  }

  #caretSoon() {
    if (this.caretFrame) return;
    this.caretFrame = requestAnimationFrame(() => {
      this.caretFrame = 0;
      this.#caret();
    });
  }

  #caret() {
    const t = this.textarea;
    const found = document.activeElement === t ? this.findingsAt(t.selectionStart, t.selectionEnd) : [];
    const key = found.map((it) => this.items.indexOf(it)).join(',');
    if (key !== this.caretKey) {
      this.caretKey = key;
      this.onCaret(found.map((it) => it.d));
      this.live.textContent = found.length ? found.map((it) => `${it.d.severity} ${it.d.code}: ${it.d.message}`).join(' ') : '';
    }
    if (!this.hovered) this.#caretTip(found);
  }

  #caretTip(found) {
    const t = this.textarea;
    if (!found) found = document.activeElement === t ? this.findingsAt(t.selectionStart, t.selectionEnd) : [];
    if (!found.length) return this.#hideTip();
    // The caret's finding only: measuring every span (hundreds on a long command) on each
    // keystroke is what hovering needs, not the caret.
    const rects = this.rects ? this.rects.spans.find((x) => x.it === found[0])?.rects : this.#spanRects(found[0]);
    if (!rects) return this.#hideTip();
    this.#showTip(found, rects[rects.length - 1], 'caret');
  }

  #showTip(found, anchor, why) {
    const tip = this.tip;
    const rows = found.slice(0, TIP_ITEMS).map(({ d }) => {
      const row = el('div', `tip-row ${d.severity}`);
      const head = el('div', 'tip-head');
      head.append(el('span', `badge ${d.severity}`, d.severity), ' ', el('code', 'code', d.code));
      if (d.exception) head.append(' ', el('code', 'exception', d.exception));
      const msg = el('div', 'tip-message');
      appendEscaped(msg, d.message.length > 400 ? d.message.slice(0, 400) + '…' : d.message);
      row.append(head, msg);
      const fixes = (d.fixes || []).filter((f) => f.edits.length && f.applicability !== 'display');
      if (fixes.length) row.append(el('div', 'tip-fix muted', `Fix: ${fixes[0].title}${fixes.length > 1 ? ` (+${fixes.length - 1} more on its card)` : ''}`));
      return row;
    });
    if (found.length > TIP_ITEMS) rows.push(el('div', 'muted', `and ${found.length - TIP_ITEMS} more here`));
    tip.replaceChildren(...rows);
    tip.dataset.why = why;
    tip.hidden = false;
    // Under the anchor (in the box's coordinates), kept inside the box's width.
    const box = this.box.getBoundingClientRect();
    const w = Math.min(tip.offsetWidth, box.width);
    const left = Math.max(0, Math.min(anchor.left - box.left, box.width - w));
    tip.style.left = `${left}px`;
    tip.style.top = `${anchor.bottom - box.top + 4}px`;
  }

  #hideTip() {
    this.tip.hidden = true;
    this.hovered = null;
  }
}

/**
 * What "Apply all safe fixes" changed: per group of changed lines, the lines as they were (what
 * went, struck through) and as they are (what came). `edits` are the core's (`fixAll`), in
 * UTF-16 offsets of `before`, sorted and apart.
 */
export function fixDiffView(before, edits) {
  const list = el('div', 'fix-diff-hunks');
  // Lines touched by each edit, grouped where they meet.
  const hunks = [];
  for (const e of edits) {
    const from = before.lastIndexOf('\n', e.start16 - 1) + 1;
    let to = before.indexOf('\n', e.end16);
    if (to < 0) to = before.length;
    const last = hunks[hunks.length - 1];
    if (last && from <= last.to + 1) {
      last.to = Math.max(last.to, to);
      last.edits.push(e);
    } else hunks.push({ from, to, edits: [e] });
  }
  for (const h of hunks) {
    const line = before.slice(0, h.from).split('\n').length;
    // hidden characters shown by name: the whole lines are shown, as they are
    const shown = beforeAfter(before, h.edits, h.from, h.to, { append: (node, str) => appendEscaped(node, str), classes: ['diff-was', 'diff-now'] });
    if (!shown) continue;
    const { before: was, after: now } = shown;
    const hunk = el('div', 'fix-diff-hunk');
    hunk.append(el('div', 'diff-where muted', `line ${line}`), el('span', 'ba-label', 'Before'), was, el('span', 'ba-label', 'After'), now);
    list.append(hunk);
  }
  return list;
}
