// "Explain this command" (what explainshell does for shell): every flag as written, with SGLang's
// help text and default, the value SGLang will run with, the findings on it and the checks naming
// it that did not run. All of it is the core's (`explain`); this only lays it out. Each flag's
// text is a button that selects the flag in the command.
import { el } from './render.js';

const UNKNOWN_WHY = {
  model_config: "needs the model's config",
  not_modelled: 'a start-up step not modelled here may set it',
  unknown_value: 'depends on a value not known here',
  check_not_run: 'set by a step whose checks did not all run here',
};

const NOT_RUN_WHY = {
  model_config: "need the model's config",
  files: 'need a file not given here',
  network: 'need the network',
  not_implemented: 'are not modelled yet',
  unknown_value: 'read a value not known here',
  hardware: 'depend on a machine with no profile here',
};

/** `str` as a node whose words are each kept whole on a line (`--dcp-size` does not break after
 * its hyphens) unless longer than a line. */
function words(tag, cls, str) {
  const node = el(tag, cls);
  for (const part of str.split(/(\s+)/)) {
    if (!part) continue;
    if (/\s/.test(part)) node.append(part);
    else node.append(el('span', 'w', part));
  }
  return node;
}

/** What SGLang runs with, in words: [value or null, how]. */
function runsWith(r) {
  switch (r.status) {
    case 'resolved':
      return [r.repr, r.source === 'derived' ? `set by ${r.set_by || 'a start-up step'}` : r.source === 'command' ? 'from the command' : 'the default'];
    case 'parsed':
      return [r.repr, r.may_change.length ? `as parsed; start-up may change it (${r.may_change.join(', ')})` : 'as parsed; no start-up step changes it'];
    case 'unknown':
      return [null, `not known here: ${UNKNOWN_WHY[r.reason] || r.reason}${r.step ? ` (${r.step})` : ''}`];
    case 'rejected':
      return [null, 'nothing: SGLang rejects this command'];
    case 'parser_only':
      return [r.repr, "as parsed (this release's start-up steps are not replayed here)"];
    default:
      return [null, ''];
  }
}

/** One flag: what is written (a button that selects it), its help, default and run value. */
function flagRow(f, text, opts) {
  const li = el('li', `ex-flag${f.findings.some((d) => d.severity === 'error') ? ' has-error' : ''}${f.overridden ? ' overridden' : ''}`);
  li.dataset.option = f.option;
  const head = el('div', 'ex-head');
  const written = text.slice(f.span16.start, f.span16.end).replace(/\\\n\s*/g, ' ').replace(/\s+/g, ' ');
  const go = el('button', 'ex-written');
  go.type = 'button';
  go.title = `Select it in the command (line ${f.line}, column ${f.column})`;
  go.append(words('code', null, written));
  go.addEventListener('click', () => opts.onLocate && opts.onLocate(f));
  head.append(go);
  if (f.written !== f.option) head.append(' ', el('span', 'ex-canonical muted', `= ${f.option}`));
  li.append(head);
  if (f.help) li.append(words('p', 'ex-help', f.help));
  const facts = el('dl', 'ex-facts');
  const fact = (name, value, how, cls) => {
    facts.append(el('dt', null, name));
    const dd = el('dd', cls);
    if (value !== null && value !== undefined) dd.append(el('code', null, value));
    if (how) dd.append(value !== null && value !== undefined ? ' ' : '', words('span', 'muted', how));
    facts.append(dd);
  };
  fact('default', f.default, f.default === null ? 'none (suppressed)' : '');
  const [value, how] = runsWith(f.runs_with);
  fact('runs with', value, f.overridden ? `${how}; a later ${f.option} replaces this one` : how, `ex-runs ex-${f.runs_with.status}`);
  if (f.checks_not_run.length) {
    const n = f.checks_not_run.length;
    const why = [...new Set(f.checks_not_run.map((c) => NOT_RUN_WHY[c.reason] || c.reason))].join('; ');
    fact('not run', null, `${n} check${n === 1 ? '' : 's'} naming it ${why}`, 'ex-notrun');
  }
  li.append(facts);
  if (f.findings.length) {
    const list = el('ul', 'ex-findings');
    for (const d of f.findings) {
      const item = el('li', `ex-finding ${d.severity}`);
      item.append(el('span', 'ex-code', `${d.code}`), ' ', ...words('span', null, d.message).childNodes);
      list.append(item);
    }
    li.append(list);
  }
  return li;
}

/** The body of the explain section for `e` (an `Explanation`) of `text`. */
export function explainBody(e, text, opts = {}) {
  const frag = document.createDocumentFragment();
  if (!e.commands.length) {
    frag.append(el('p', 'muted', 'No SGLang launch command to explain.'));
    return frag;
  }
  for (const c of e.commands) {
    const sec = el('section', 'ex-command');
    if (e.commands.length > 1) sec.append(el('h3', null, `Command ${c.index + 1}`));
    if (!c.flags.length) sec.append(el('p', 'muted', 'No flags: SGLang runs with its defaults.'));
    const list = el('ol', 'ex-flags');
    for (const f of c.flags) list.append(flagRow(f, text, opts));
    sec.append(list);
    frag.append(sec);
  }
  return frag;
}

/**
 * The folded "Explain each flag" section, made once and kept (its open state survives re-checks).
 * `load()` is called with the section when it is opened, and by `refresh()` while it is open.
 */
export class ExplainSection {
  constructor(load) {
    this.load = load;
    this.box = el('details', 'explain');
    this.box.id = 'explain';
    this.box.append(el('summary', null, 'Explain each flag'));
    this.body = el('div', 'explain-body');
    this.body.setAttribute('aria-live', 'polite');
    this.box.append(this.body);
    this.box.addEventListener('toggle', () => {
      if (this.box.open) this.load(this);
    });
  }

  refresh() {
    if (this.box.open) this.load(this);
  }

  show(e, text, opts) {
    this.body.replaceChildren(explainBody(e, text, opts));
    this.body.dataset.shown = String(Number(this.body.dataset.shown || 0) + 1);
  }

  fail(message) {
    this.body.replaceChildren(el('p', 'muted', message));
  }
}
