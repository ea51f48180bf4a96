// Talks to the checker worker. Requests wait in a queue here and go to the worker one at a time,
// each with its own time budget counted from when the worker gets it, so a slow request never
// eats into the budget of the ones behind it. A request that exceeds its budget is abandoned
// (the worker is terminated and replaced) and only that request fails: the queued ones go on to
// the replacement. A worker that crashes (a wasm trap, a stack overflow) is replaced the same
// way. A replacement reuses the compiled WebAssembly.Module of the first worker instead of
// fetching and compiling the wasm again.

import { fillRuleTexts } from './rule-texts.js';

export class CheckAbandoned extends Error {}
export class CheckerCrashed extends Error {}

/** The worker name of a replacement: it waits for a compiled module instead of fetching one. */
export const REPLACEMENT_NAME = 'sglang-preflight-checker (replacement)';

export class PreflightClient {
  /**
   * @param {{budgetMs?: number, loadBudgetMs?: number, base?: string | URL}} opts
   *   budgetMs: time budget of one request once the checker is loaded;
   *   loadBudgetMs: budget for loading the checker (wasm) in a new worker, and for fetching the
   *   flags of a release the wasm does not carry (the worker does that when a request needs it).
   */
  /**
   * @param {{worker: Worker, early: Event[]} | null} [opts.adopt] a worker already started for this
   *   page (boot.js) and the events it sent before this client existed.
   */
  /**
   * @param {boolean} [opts.ruleTexts] whether `check` puts the rules' own explanations into its
   *   findings (fetching rules/explanations/<family>.json for the families it reports; the wasm
   *   goes without them). The page and the widget pass false: they put each in when its card is
   *   first shown.
   */
  constructor({ budgetMs = 2000, loadBudgetMs = 20000, base = import.meta.url, adopt = null, ruleTexts = true } = {}) {
    this.budgetMs = budgetMs;
    this.ruleTexts = ruleTexts;
    this.loadBudgetMs = loadBudgetMs;
    this.workerUrl = new URL('./worker.js', base);
    this.nextId = 1;
    /** Requests not yet sent, oldest first. */
    this.queue = [];
    /** The request the worker is working on, if any. */
    this.active = null;
    this.module = null;
    this.worker = null;
    this.restarts = 0;
    this.onrestart = null;
    this.#spawn(adopt);
  }

  /** For compatibility: every request not yet answered (the active one first). */
  get pending() {
    const m = new Map();
    if (this.active) m.set(this.active.id, this.active);
    for (const p of this.queue) m.set(p.id, p);
    return m;
  }

  #spawn(adopt = null) {
    const reuse = !adopt && this.module;
    const w = adopt ? adopt.worker : new Worker(this.workerUrl, { type: 'module', name: reuse ? REPLACEMENT_NAME : 'sglang-preflight-checker' });
    this.worker = w;
    this.ready = false;
    this.loadFailed = false;
    w.onmessage = (e) => {
      if (w !== this.worker) return;
      const m = e.data || {};
      if (m.ready !== undefined && m.id === undefined) {
        if (m.ready) {
          this.ready = true;
          if (m.module instanceof WebAssembly.Module) this.module = m.module;
          // A request waiting on the load now gets the normal budget.
          if (this.active) this.#arm(this.active, this.active.budget);
        } else if (reuse) {
          // The compiled module did not take: fall back to a worker that loads the wasm itself.
          this.module = null;
          const p = this.active;
          this.active = null;
          if (p) {
            clearTimeout(p.timer);
            this.queue.unshift(p);
          }
          this.#replace(null);
        } else this.#loadFailed(new CheckerCrashed(m.error || 'the checker failed to load'));
        return;
      }
      const p = this.active;
      if (!p || p.id !== m.id) return;
      // The worker fetches a release's flags for this request: the load budget covers the
      // download, the request's own budget starts again once it is there.
      if (m.loading) return this.#arm(p, Math.max(p.budget, this.loadBudgetMs));
      if (m.loaded) return this.#arm(p, p.budget);
      clearTimeout(p.timer);
      if (m.part) {
        // A part of a report with many findings: each arrives in its own short task.
        const r = p.partial;
        if (!r) return;
        const list = m.part.list === 0 ? r.result.diagnostics : r.result.commands[m.part.list - 1].diagnostics;
        for (const d of m.part.items) list.push(d);
        if (--r.left > 0) return;
        this.active = null;
        p.resolve(r.result);
        return this.#pump();
      }
      if (m.ok && m.parts) {
        // The worker is done; the parts are on their way.
        p.partial = { result: m.result, left: m.parts };
        return;
      }
      this.active = null;
      if (m.ok) p.resolve(m.result);
      else if (m.crashed) {
        p.reject(new CheckerCrashed(m.error));
        this.#replace(new CheckerCrashed(m.error));
      } else p.reject(new Error(m.error));
      this.#pump();
    };
    w.onerror = (e) => {
      if (w !== this.worker) return;
      e.preventDefault();
      const reason = new CheckerCrashed(e.message || 'the checker crashed');
      if (!this.ready && !this.active) return this.#loadFailed(reason);
      this.#failActive(reason);
      this.#replace(reason);
    };
    if (reuse) w.postMessage({ op: 'init', module: this.module });
    if (adopt) {
      for (const e of adopt.early.splice(0)) (e instanceof ErrorEvent || e.type === 'error' ? w.onerror : w.onmessage)(e);
    }
    this.#pump();
  }

  /** The checker could not load: every waiting request fails; the next request tries again. */
  #loadFailed(reason) {
    this.#failActive(reason);
    for (const p of this.queue.splice(0)) p.reject(reason);
    this.#retire();
    this.loadFailed = true;
  }

  #failActive(reason) {
    const p = this.active;
    this.active = null;
    if (p) {
      clearTimeout(p.timer);
      p.reject(reason);
    }
  }

  #arm(p, ms) {
    clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      if (this.active !== p) return;
      const reason = new CheckAbandoned(`The check took longer than ${formatMs(ms)} and was abandoned; the checker was restarted.`);
      this.#failActive(reason);
      this.#replace(reason);
    }, ms);
  }

  #retire() {
    const old = this.worker;
    if (!old) return;
    old.onmessage = null;
    old.onerror = null;
    old.terminate();
    this.worker = null;
  }

  /** A new worker for the queued requests; only the request that failed (already rejected) is lost. */
  #replace(reason) {
    this.#retire();
    this.restarts++;
    this.#spawn();
    if (this.onrestart && reason) this.onrestart(reason);
  }

  #pump() {
    if (this.active || !this.queue.length) return;
    if (!this.worker) {
      if (!this.loadFailed) return;
      this.#spawn();
      if (this.active || !this.worker) return;
    }
    const p = this.queue.shift();
    this.active = p;
    this.#arm(p, this.ready ? p.budget : Math.max(p.budget, this.loadBudgetMs));
    this.worker.postMessage(p.msg);
  }

  /** Send one request; `budgetMs` overrides the time budget for this one. */
  request(op, payload = {}, budgetMs = this.budgetMs) {
    const id = this.nextId++;
    const msg = { ...payload, op, id };
    return new Promise((resolve, reject) => {
      this.queue.push({ id, msg, resolve, reject, timer: 0, budget: budgetMs });
      this.#pump();
    });
  }

  /**
   * A check's report. `modelsLater`: when the text names a model and the model catalog is not
   * loaded yet, answer at once without it (no model is known, and the checks that read its
   * config are listed as not run) with `models_loading: true` in the report, instead of waiting
   * for the catalog; a later check without the flag waits for it.
   */
  check(text, options, { modelsLater = false } = {}) {
    const report = this.request('check', modelsLater ? { text, options, modelsLater } : { text, options });
    return this.ruleTexts ? report.then(fillRuleTexts) : report;
  }
  meta() {
    return this.request('meta');
  }
  schema(version) {
    return this.request('schema', { version });
  }
  /** The text after a fix's edits: `{ text, selection16 }`. */
  applyEdits(text, edits) {
    return this.request('applyEdits', { text, edits: edits.map(({ start, end, replacement }) => ({ start, end, replacement })) });
  }
  /** The flags command `command` of `text` sets, by main option string. */
  commandFlags(text, version, command = 0) {
    return this.request('commandFlags', { text, version, command });
  }
  /** `text` with one flag set (string), switched (boolean) or removed (null); null if unchanged. */
  setFlag(text, version, option, value, command = 0) {
    return this.request('setFlag', { text, version, command, option, value });
  }
  /** "Apply all safe fixes": the fixed text and the combined edits against `text` (`FixedAll`). */
  fixAll(text, options, unsafeFixes = false) {
    return this.request('fixAll', { text, options, unsafeFixes });
  }
  /** The text for a link: secret values (tokens, keys, passwords) replaced by `<NAME>`. */
  redactForLink(text) {
    return this.request('redactForLink', { text });
  }
  /** What moving `text` from SGLang `from` to SGLang `to` changes, note by note, with fixes. */
  upgrade(text, from, to, options) {
    return this.request('upgrade', { text, from, to, options });
  }
  /** Every flag of each launch command of `text`: help, default, what SGLang runs with. */
  explain(text, options) {
    return this.request('explain', { text, options });
  }
  /** The flags of SGLang `version` matching `query`, best first (`FlagMatch[]`). */
  searchFlags(version, query) {
    return this.request('searchFlags', { version, query });
  }
  /** The choices of `option` in command `command` of `text`, each with the error it would bring. */
  /** Whether a pasted config.json (and hf_quant_config.json) can be read, and what it names. */
  readModelConfig(config, hfQuant) {
    return this.request('readModelConfig', { config, hfQuant });
  }

  choiceVerdicts(text, options, option, command = 0) {
    return this.request('choiceVerdicts', { text, options, option, command });
  }
  /** `text` with every argument of the command dropped; null if it has none. */
  clearFlags(text, command = 0) {
    return this.request('clearFlags', { text, command });
  }
}

function formatMs(ms) {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}
