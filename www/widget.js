// <sglang-preflight command="python -m sglang.launch_server ..."> for any docs site:
//   <script type="module" src="https://your.host/any/path/widget.js"></script>
// The worker and the wasm are found next to this file (import.meta.url), so the widget works
// under any sub-path. Attributes: command (or the element's text), gpu, gpus, sglang-version,
// yaml. All styles live in the shadow root; everything shown is rendered as text.
import { PreflightClient, CheckAbandoned } from './client.js';
import cardsCss from './cards-css.js';
import { el, renderHighlights, diagCard, allDiagnostics } from './render.js';

const WIDGET_CSS = `
:host { display: block; margin: 1em 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); }
.box { border: 1px solid var(--line); border-radius: 8px; background: var(--bg); overflow: hidden; }
pre.cmd { margin: 0; padding: 0.7em 0.9em; font: 13px/1.5 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; background: var(--panel); color: var(--fg); --hl-gap: var(--panel); }
pre.cmd mark.hl { color: inherit; }
.body { padding: 0.6em 0.9em; }
.verdict { font-size: 0.95em; }
.cards { margin-top: 0.6em; }
.card { margin-bottom: 0.5em; }
.foot { display: flex; justify-content: space-between; gap: 1em; font-size: 0.8em; color: var(--muted); padding: 0 0.9em 0.6em; }
.foot a { color: var(--accent); }
`;

let sheets = null;
function styleSheets() {
  if (!sheets) {
    const a = new CSSStyleSheet();
    a.replaceSync(cardsCss);
    const b = new CSSStyleSheet();
    b.replaceSync(WIDGET_CSS);
    sheets = [a, b];
  }
  return sheets;
}

// One checker worker for every widget on the page.
let sharedClient = null;
function client() {
  if (!sharedClient) sharedClient = new PreflightClient({ budgetMs: 2000, base: import.meta.url });
  return sharedClient;
}

class SglangPreflightElement extends HTMLElement {
  static observedAttributes = ['command', 'gpu', 'gpus', 'sglang-version', 'yaml'];

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.adoptedStyleSheets = styleSheets();
    this.seq = 0;
    this.report = null;
  }

  connectedCallback() {
    if (!this.box) this.#build();
    this.#check();
  }

  attributeChangedCallback() {
    if (this.box) this.#check();
  }

  get command() {
    const a = this.getAttribute('command');
    return a !== null ? a : (this.textContent || '').trim();
  }

  #build() {
    this.box = el('div', 'box');
    this.pre = el('pre', 'cmd');
    this.pre.setAttribute('part', 'command');
    this.body = el('div', 'body');
    this.verdict = el('div', 'verdict pending', 'Checking…');
    this.verdict.setAttribute('role', 'status');
    this.verdict.setAttribute('part', 'verdict');
    this.cards = el('div', 'cards');
    this.body.append(this.verdict, this.cards);
    const foot = el('div', 'foot');
    foot.append(el('span', null, 'Checked in your browser by sglang-preflight'));
    this.link = el('a', null, 'Open in the full checker');
    this.link.target = '_blank';
    this.link.rel = 'noopener noreferrer';
    foot.append(this.link);
    this.box.append(this.pre, this.body, foot);
    this.root.append(this.box);
  }

  #options() {
    const o = { gpu: this.getAttribute('gpu') || 'h100' };
    const n = this.getAttribute('gpus');
    if (n && /^\d{1,4}$/.test(n)) o.gpus = Number(n);
    const v = this.getAttribute('sglang-version');
    if (v) o.sglangVersion = v;
    const y = this.getAttribute('yaml');
    if (y) o.configYaml = y;
    return o;
  }

  async #check() {
    const text = this.command;
    const opts = this.#options();
    const seq = ++this.seq;
    renderHighlights(this.pre, text, null, { trailingNewline: false });
    const p = new URLSearchParams();
    p.set('cmd', text);
    p.set('gpu', opts.gpu);
    if (opts.gpus !== undefined) p.set('gpus', String(opts.gpus));
    if (opts.configYaml) p.set('yaml', opts.configYaml);
    if (opts.sglangVersion) p.set('v', opts.sglangVersion);
    this.link.href = new URL(`./index.html#${p}`, import.meta.url).href;
    try {
      const report = await client().check(text, opts);
      if (seq !== this.seq) return;
      this.report = report;
      renderHighlights(this.pre, text, report, { trailingNewline: false });
      this.verdict.textContent = report.summary.verdict;
      this.verdict.className = `verdict ${report.summary.outcome}`;
      const items = allDiagnostics(report);
      this.cards.replaceChildren(...items.map(({ d }) => diagCard(d, { text, compact: true })));
      this.dispatchEvent(new CustomEvent('preflight-checked', { detail: { accepted: report.accepted } }));
    } catch (e) {
      if (seq !== this.seq) return;
      this.verdict.textContent = e instanceof CheckAbandoned ? e.message : `Could not check: ${e.message}`;
      this.verdict.className = 'verdict pending';
    }
  }
}

if (!customElements.get('sglang-preflight')) customElements.define('sglang-preflight', SglangPreflightElement);
