// Talks to the checker worker: one request at a time per worker, each with a time budget.
// A check that exceeds the budget is abandoned (the worker is terminated and replaced), and a
// crashed worker is replaced, so the page stays responsive whatever the core does.

export class CheckAbandoned extends Error {}
export class CheckerCrashed extends Error {}

export class PreflightClient {
  /**
   * @param {{budgetMs?: number, loadBudgetMs?: number, base?: string | URL}} opts
   *   budgetMs: time budget of one request once the checker is loaded;
   *   loadBudgetMs: budget for loading the checker (wasm) in a new worker.
   */
  /**
   * @param {{worker: Worker, early: Event[]} | null} [opts.adopt] a worker already started for this
   *   page (boot.js) and the events it sent before this client existed.
   */
  constructor({ budgetMs = 2000, loadBudgetMs = 20000, base = import.meta.url, adopt = null } = {}) {
    this.budgetMs = budgetMs;
    this.loadBudgetMs = loadBudgetMs;
    this.workerUrl = new URL('./worker.js', base);
    this.nextId = 1;
    this.pending = new Map();
    this.restarts = 0;
    this.onrestart = null;
    this.#spawn(adopt);
  }

  #spawn(adopt = null) {
    const w = adopt ? adopt.worker : new Worker(this.workerUrl, { type: 'module', name: 'sglang-preflight-checker' });
    this.worker = w;
    this.ready = false;
    w.onmessage = (e) => {
      if (w !== this.worker) return;
      const m = e.data || {};
      if (m.ready !== undefined && m.id === undefined) {
        if (m.ready) {
          this.ready = true;
          // Requests waiting on the load now get the normal budget.
          for (const p of this.pending.values()) this.#arm(p, p.budget);
        } else this.#replace(new CheckerCrashed(m.error || 'the checker failed to load'));
        return;
      }
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m.result);
      else if (m.crashed) {
        p.reject(new CheckerCrashed(m.error));
        this.#replace(new CheckerCrashed(m.error));
      } else p.reject(new Error(m.error));
    };
    w.onerror = (e) => {
      if (w !== this.worker) return;
      e.preventDefault();
      this.#replace(new CheckerCrashed(e.message || 'the checker crashed'));
    };
    if (adopt) {
      for (const e of adopt.early.splice(0)) (e instanceof ErrorEvent || e.type === 'error' ? w.onerror : w.onmessage)(e);
    }
  }

  #arm(p, ms) {
    clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      if (!this.pending.has(p.id)) return;
      this.#replace(new CheckAbandoned(`The check took longer than ${formatMs(ms)} and was abandoned; the checker was restarted.`));
    }, ms);
  }

  #replace(reason) {
    const old = this.worker;
    old.onmessage = null;
    old.onerror = null;
    old.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(reason);
    }
    this.restarts++;
    this.#spawn();
    if (this.onrestart) this.onrestart(reason);
  }

  /** Send one request; `budgetMs` overrides the time budget for this one. */
  request(op, payload = {}, budgetMs = this.budgetMs) {
    const id = this.nextId++;
    const msg = { ...payload, op, id };
    return new Promise((resolve, reject) => {
      const p = { id, resolve, reject, timer: 0, budget: budgetMs };
      this.pending.set(id, p);
      this.#arm(p, this.ready ? budgetMs : Math.max(budgetMs, this.loadBudgetMs));
      this.worker.postMessage(msg);
    });
  }

  check(text, options) {
    return this.request('check', { text, options });
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
  /** `text` with every argument of the command dropped; null if it has none. */
  clearFlags(text, command = 0) {
    return this.request('clearFlags', { text, command });
  }
}

function formatMs(ms) {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}
