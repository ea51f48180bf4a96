// <sglang-preflight command="python -m sglang.launch_server ..."> for any docs site:
//   <script type="module" src="https://your.host/any/path/widget.js"></script>
// The worker and the wasm are found next to this file (import.meta.url), so the widget works
// under any sub-path and from any origin (what the host page's CSP must allow: docs/hosting.md).
// Attributes: command (or the element's text), gpu, gpus, sglang-version (default: the release the
// command names, else the newest), yaml, theme ("light", "dark"; default: the reader's
// prefers-color-scheme). All styles live in the shadow root; everything shown is rendered as
// text. A release other than the newest is fetched from releases/ next to this file.
// Compact: the verdict and the errors; warnings and notes behind a toggle; Copy command and a
// link to the full page with the command (secrets replaced by placeholders).
import { PreflightClient, CheckAbandoned, CheckerCrashed } from './client.js';
import cardsCss, { LIGHT, DARK } from './cards-css.js';
import { el, renderHighlights, renderHighlightsSliced, renderCardPages, diagCard, allDiagnostics, cardItems, alsoRunsPanel, showVerdict, hasHiddenChars } from './render.js';

const WIDGET_CSS = `
:host { display: block; margin: 1em 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); color-scheme: light dark; }
/* The host page's choice wins over the reader's system preference. */
:host([theme=light]) {${LIGHT} color-scheme: light; }
:host([theme=dark]) {${DARK} color-scheme: dark; }
.box { border: 1px solid var(--line); border-radius: 8px; background: var(--bg); overflow: hidden; }
pre.cmd { margin: 0; padding: 0.7em 0.9em; font: 13px/1.5 var(--mono); white-space: pre-wrap; overflow-wrap: anywhere; background: var(--panel); color: var(--fg); --hl-gap: var(--panel); }
pre.cmd mark.hl { color: inherit; }
/* The command is shown as it runs: hidden characters are replaced by labels, laid out in logical order. */
pre.cmd.escaped { direction: ltr; unicode-bidi: bidi-override; }
.also-runs { margin: 0.6em 0 0; }
.model { margin: 0.3em 0 0; font-size: 12px; opacity: 0.8; overflow-wrap: anywhere; }
.model:empty { display: none; }
.body { padding: 0.5em 0.9em; }
.verdict { font-size: 0.95em; padding: 0.35em 0.7em; }
.cards:not(:empty) { margin-top: 0.5em; }
.card { margin-bottom: 0.4em; padding: 0.4em 0.7em; }
.card .message { margin: 0.35em 0; padding: 0.35em 0.5em; }
.card .explanation { margin: 0.3em 0; font-size: 0.92em; }
.fix { margin-top: 0.3em; padding-top: 0.3em; }
button.more { margin-top: 0.2em; }
button.toggle { margin-top: 0.4em; font-size: 0.88em; }
.foot { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4em 0.9em; font-size: 0.82em; color: var(--muted); padding: 0 0.9em 0.55em; }
.foot button { font-size: 1em; padding: 0.15em 0.6em; }
.foot a { color: var(--accent); }
.foot .by { margin-left: auto; }
.copied { color: var(--ok); }
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
    sharedClient = new PreflightClient({ budgetMs: 2000, base: import.meta.url, adopt: { worker, early: [] }, ruleTexts: false });
    // Replacement workers start from the same URL (the client's own default is worker.js next
    // to client.js, which only works same-origin).
    sharedClient.workerUrl = url;
  }
  return sharedClient;
}

class SglangPreflightElement extends HTMLElement {
  static observedAttributes = ['command', 'gpu', 'gpus', 'sglang-version', 'yaml', 'model-config', 'theme'];

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

  attributeChangedCallback(name) {
    // The theme is the styles' alone.
    if (this.box && name !== 'theme') this.#check();
  }

  /** The model's config.json text (or null): checked against it instead of the catalog. */
  get modelConfig() {
    return this.modelConfigText ?? this.getAttribute('model-config');
  }

  set modelConfig(text) {
    this.modelConfigText = text == null ? null : String(text);
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
    // Which model the command names and how it is known (one line).
    this.model = el('div', 'model');
    // The errors, shown; warnings and notes behind the toggle.
    this.cards = el('div', 'cards');
    this.toggle = el('button', 'toggle');
    this.toggle.type = 'button';
    this.toggle.hidden = true;
    this.toggle.setAttribute('aria-expanded', 'false');
    this.rest = el('div', 'cards rest');
    this.rest.id = 'rest';
    this.rest.hidden = true;
    this.toggle.setAttribute('aria-controls', 'rest');
    this.toggle.addEventListener('click', () => this.#showRest(this.rest.hidden));
    this.body.append(this.verdict, this.model, this.also, this.cards, this.toggle, this.rest);
    const foot = el('div', 'foot');
    this.copy = el('button', 'copy', 'Copy command');
    this.copy.type = 'button';
    this.copy.setAttribute('part', 'copy');
    this.copy.addEventListener('click', () => this.#copy());
    this.link = el('a', null, 'Open in the full checker');
    this.link.target = '_blank';
    this.link.rel = 'noopener noreferrer';
    this.link.setAttribute('part', 'link');
    this.copyStatus = el('span', 'copied');
    this.copyStatus.setAttribute('role', 'status');
    foot.append(this.copy, this.link, this.copyStatus, el('span', 'by', 'Checked in your browser by sglang-preflight'));
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
    // The model's config.json, used instead of the catalog: the `modelConfig` property, or the
    // `model-config` attribute.
    const m = this.modelConfigText ?? this.getAttribute('model-config');
    if (m) o.modelConfig = m;
    return o;
  }

  /** The errors as cards; the warnings and notes behind the toggle, folded as on the page. */
  #cards(items, text) {
    const card = ({ d, count }) => diagCard(d, { text, count, compact: true, collapsed: d.severity !== 'error' });
    const errors = items.filter(({ d }) => d.severity === 'error');
    const rest = items.filter(({ d }) => d.severity !== 'error');
    renderCardPages(this.cards, errors, card, { pageSize: CARD_PAGE });
    renderCardPages(this.rest, rest, card, { pageSize: CARD_PAGE });
    const warnings = rest.filter(({ d }) => d.severity === 'warning').length;
    const notes = rest.length - warnings;
    const what = [warnings && `${warnings} warning${warnings === 1 ? '' : 's'}`, notes && `${notes} note${notes === 1 ? '' : 's'}`].filter(Boolean).join(' and ');
    this.restLabel = what;
    this.toggle.hidden = !rest.length;
    this.#showRest(false);
  }

  #showRest(open) {
    this.rest.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
    this.toggle.textContent = `${open ? '▾ Hide' : '▸ Show'} ${this.restLabel || ''}`;
  }

  /** Copy the command as written. One that holds hidden characters asks for a second click first. */
  async #copy() {
    const text = this.command;
    if (hasHiddenChars(text) && !this.copyArmed) {
      this.copyArmed = true;
      this.copy.textContent = 'Copy anyway';
      this.copyStatus.textContent = 'It holds hidden characters (shown as labels above): whoever runs it gets them too.';
      return;
    }
    this.copyArmed = false;
    this.copy.textContent = 'Copy command';
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      const t = el('textarea');
      t.value = text;
      this.root.append(t);
      t.select();
      ok = document.execCommand('copy');
      t.remove();
    }
    this.copyStatus.textContent = ok ? 'Copied.' : 'Could not copy; select the command and copy it by hand.';
    clearTimeout(this.copyTimer);
    this.copyTimer = setTimeout(() => (this.copyStatus.textContent = ''), 2500);
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
      this.model.textContent = '';
      this.#cards([]);
    }
    this.copyArmed = false;
    this.copy.textContent = 'Copy command';
    this.copyStatus.textContent = '';
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
      const items = allDiagnostics(report);
      const caution = report.summary.outcome === 'accepted' && ((report.also_runs || []).length > 0 || items.some(({ d }) => d.code === 'TXT009'));
      // Compact: what did not run in words; the list is the full page's.
      showVerdict(this.verdict, report, { caution, list: false });
      this.model.textContent = (report.commands || []).flatMap((c) => [c.model, c.draft_model]).filter(Boolean).map((m) => m.summary).join(' · ');
      const also = alsoRunsPanel(report, { compact: true });
      this.also.replaceChildren(...(also ? [also] : []));
      this.#cards(cardItems(report), text);
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
      this.#cards([]);
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
