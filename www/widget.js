// <sglang-preflight command="python -m sglang.launch_server ..."> for any docs site:
//   <script type="module" src="https://your.host/any/path/widget.js"></script>
// The worker and the wasm are found next to this file (import.meta.url), so the widget works
// under any sub-path and from any origin (what the host page's CSP must allow: docs/hosting.md).
// Attributes: command (or the element's text), gpu, gpus, sglang-version (default: the release the
// command names, else the newest), yaml. All styles live in the shadow root; everything shown is
// rendered as text. A release other than the newest is fetched from releases/ next to this file.
import { PreflightClient, CheckAbandoned, CheckerCrashed } from './client.js';
import cardsCss from './cards-css.js';
import { el, renderHighlights, renderHighlightsSliced, renderCardPages, diagCard, allDiagnostics, cardItems, alsoRunsPanel } from './render.js';

const WIDGET_CSS = `
:host { display: block; margin: 1em 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); }
.box { border: 1px solid var(--line); border-radius: 8px; background: var(--bg); overflow: hidden; }
pre.cmd { margin: 0; padding: 0.7em 0.9em; font: 13px/1.5 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; background: var(--panel); color: var(--fg); --hl-gap: var(--panel); }
pre.cmd mark.hl { color: inherit; }
/* The command is shown as it runs: hidden characters are replaced by labels, laid out in logical order. */
pre.cmd.escaped { direction: ltr; unicode-bidi: bidi-override; }
.also-runs { margin: 0.6em 0 0; }
.body { padding: 0.6em 0.9em; }
.verdict { font-size: 0.95em; }
.cards { margin-top: 0.6em; }
.card { margin-bottom: 0.5em; }
button.more { margin-top: 0.2em; }
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

// The URL to start the checker worker from. Same origin as the page: worker.js itself. From
// another origin (a docs site loading https://docs.host/preflight/widget.js), the browser refuses
// `new Worker()` on a cross-origin URL, so the worker starts from a same-origin blob: module whose
// only line imports the real worker.js by absolute URL (a module worker imports cross-origin with
// CORS). worker.js finds the wasm from its own import.meta.url, an absolute URL on this file's
// origin. The host page's CSP (which such a worker runs under) must then allow this origin in
// script-src, worker-src (with blob:) and connect-src, and 'wasm-unsafe-eval' (docs/hosting.md). One blob URL, kept for the page's life:
// the client starts a new worker from it when it replaces a stuck or crashed one.
let workerUrl = null;
function checkerWorkerUrl() {
  if (!workerUrl) {
    const real = new URL('./worker.js', import.meta.url);
    workerUrl = real.origin === location.origin
      ? real
      : URL.createObjectURL(new Blob([`import ${JSON.stringify(real.href)};\n`], { type: 'text/javascript' }));
  }
  return workerUrl;
}

// Cards a widget shows at first, and per "Show more".
const CARD_PAGE = 10;

// One checker worker for every widget on the page. Its requests queue and each has its own time
// budget: a check that hangs fails only its own widget, and the others go on to the replacement
// worker.
let sharedClient = null;
function client() {
  if (!sharedClient) {
    const url = checkerWorkerUrl();
    const worker = new Worker(url, { type: 'module', name: 'sglang-preflight-checker' });
    sharedClient = new PreflightClient({ budgetMs: 2000, base: import.meta.url, adopt: { worker, early: [] } });
    // Replacement workers start from the same URL (the client's own default is worker.js next
    // to client.js, which only works same-origin).
    sharedClient.workerUrl = url;
  }
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
    this.also = el('div', 'also');
    this.cards = el('div', 'cards');
    this.body.append(this.verdict, this.also, this.cards);
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
    // Without the attribute, the release the command names (`lmsysorg/sglang:v0.5.20`, `sglang==0.5.19`)
    // if any; either is fetched next to this file when the wasm does not carry it (worker.js).
    const v = this.getAttribute('sglang-version');
    if (v) o.sglangVersion = v;
    else o.releaseFromText = true;
    const y = this.getAttribute('yaml');
    if (y) o.configYaml = y;
    return o;
  }

  async #check() {
    const text = this.command;
    const opts = this.#options();
    const seq = ++this.seq;
    renderHighlights(this.pre, text, null, { trailingNewline: false });
    // The verdict of the previous command does not describe this one.
    if (this.report || this.verdict.classList.contains('failed')) {
      this.report = null;
      this.verdict.textContent = 'Checking…';
      this.verdict.className = 'verdict pending';
      this.also.replaceChildren();
      this.cards.replaceChildren();
    }
    // Secrets stay out of links: the link carries the command with placeholders for them.
    this.link.removeAttribute('href');
    let linkText = null;
    try {
      linkText = (await client().redactForLink(text)).text;
    } catch {
      // no link without a redacted text
    }
    if (seq !== this.seq) return;
    const p = new URLSearchParams();
    p.set('cmd', linkText ?? '');
    const linkOk = linkText !== null;
    p.set('gpu', opts.gpu);
    if (opts.gpus !== undefined) p.set('gpus', String(opts.gpus));
    if (opts.configYaml) p.set('yaml', opts.configYaml);
    if (opts.sglangVersion) p.set('v', opts.sglangVersion);
    if (linkOk) this.link.href = new URL(`./index.html#${p}`, import.meta.url).href;
    try {
      const report = await client().check(text, opts);
      if (seq !== this.seq) return;
      this.report = report;
      this.verdict.textContent = report.summary.verdict;
      const items = allDiagnostics(report);
      const caution = report.summary.outcome === 'accepted' && ((report.also_runs || []).length > 0 || items.some(({ d }) => d.code === 'TXT009'));
      this.verdict.className = `verdict ${report.summary.outcome}${caution ? ' caution' : ''}`;
      const also = alsoRunsPanel(report, { compact: true });
      this.also.replaceChildren(...(also ? [also] : []));
      renderCardPages(this.cards, cardItems(report), ({ d, count }) => diagCard(d, { text, count, compact: true, collapsed: d.severity !== 'error' }), { pageSize: CARD_PAGE });
      // A read-only display: flagged hidden characters are replaced by their labels.
      const done = await renderHighlightsSliced(this.pre, text, report, { trailingNewline: false, hidden: 'escape', current: () => seq === this.seq });
      if (!done) return;
      this.pre.classList.toggle('escaped', !!this.pre.querySelector('.esc'));
      this.dispatchEvent(new CustomEvent('preflight-checked', { detail: { accepted: report.accepted } }));
    } catch (e) {
      if (seq !== this.seq) return;
      // No stale result: the previous verdict and cards are gone, and the verdict says why.
      this.report = null;
      renderHighlights(this.pre, text, null, { trailingNewline: false });
      this.also.replaceChildren();
      this.cards.replaceChildren();
      this.verdict.textContent =
        e instanceof CheckAbandoned
          ? `No verdict: ${e.message}`
          : e instanceof CheckerCrashed
            ? `No verdict: the checker crashed on this command (a bug in sglang-preflight) and was restarted: ${e.message}`
            : `No verdict: could not check: ${e.message}`;
      this.verdict.className = 'verdict pending failed';
      this.dispatchEvent(new CustomEvent('preflight-failed', { detail: { message: this.verdict.textContent } }));
    }
  }
}

if (!customElements.get('sglang-preflight')) customElements.define('sglang-preflight', SglangPreflightElement);
