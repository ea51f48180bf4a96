// The command builder: every flag of the schema, grouped by SGLang's argparse groups when the
// release has several (0.5.23 puts every flag in one, "options": then by topic, from the flags'
// names), searchable. It only shows and asks: reading the command's flags and editing the text
// are the core's (commandFlags, setFlag, clearFlags), so a change touches that one setting and
// keeps the rest of the text as written; the ranked search (searchFlags) and the choices the
// command would have rejected (choiceVerdicts) are the core's too.
import { el } from './render.js';

// Topic of a flag from the first word of its name (after enable-/disable-/no-).
const TOPICS = [
  ['Model and loading', 'model tokenizer revision trust load context dtype quantization quantize served hf skip weight weights modelopt remote download checkpoint config json is language fp8 fp4 bf16 int8 w4a4 quant decrypted modelexpress kt custom'],
  ['Server and API', 'host port api admin ssl http http2 grpc fastapi uvicorn chat completion tool reasoning file allowed response smg sidecar strip strict preferred allow extra warmups startup engine stream streaming session incremental'],
  ['Parallelism', 'tp dp pp ep dcp cp nnodes node attn moe expert experts eplb deepep dist nccl dwdp dense fuseep megamoe elastic tbo two single waterfill numa'],
  ['Memory and caching', 'mem max kv page radix hicache hisparse swa mamba chunked cpu offload cache hierarchical lmcache flexkv memory hybrid shared prefix c128 mooncake'],
  ['Scheduling', 'schedule scheduler priority prefill decode batch sleep abort retraction overlap mixed pdmux sampling constrained grammar outlines soft watchdog num random'],
  ['Speculative decoding', 'speculative spec draft'],
  ['PD disaggregation', 'disaggregation pd'],
  ['LoRA', 'lora'],
  ['Multimodal', 'mm multimodal image media limit encoder asr'],
  ['Kernels and backends', 'cuda cudagraph torch triton flashinfer aiter attention fused linear dsa dsv4 deepseek mscclpp symm amd nvidia fp32 tf32 gated layernorm p2p monokernel unified device forward deterministic enforce sm lean uno precise scattered pre boundary multi init broadcast fast optimistic adaptive paged dllm ple decoupled qsa linker decoder mis'],
  ['Logging, metrics and debugging', 'log metrics trace otlp export debug show mfu profile msprobe crash collect watermark gc bucket prompt generation request tokenizer-metrics'],
];
const TOPIC_OF = new Map();
for (const [topic, words] of TOPICS) for (const w of words.split(' ')) TOPIC_OF.set(w, topic);
const OTHER = 'Other';

/** SGLang's own argparse groups, when the release has more than one (else null). */
function argparseGroups(actions) {
  const groups = new Set(actions.map((a) => a.group).filter(Boolean));
  return groups.size > 1 ? [...groups] : null;
}

function topicOf(action) {
  let name = (action.option_strings.find((o) => o.startsWith('--')) || action.option_strings[0] || '').replace(/^-+/, '');
  name = name.replace(/^(enable|disable|no)-/, '');
  return TOPIC_OF.get(name.split('-')[0]) || OTHER;
}

function pyRepr(v) {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return v === '' ? "''" : v;
  return JSON.stringify(v);
}

function kind(a) {
  if (a.action === '_HelpAction') return null;
  if (a.action === 'BooleanOptionalAction') return 'tristate';
  if (a.nargs === 0 || a.action === 'DeprecatedStoreConstAction') return 'flag';
  if (Array.isArray(a.choices) && a.choices.length && a.nargs !== '+' && a.nargs !== '*') return 'choice';
  if (a.nargs === '+' || a.nargs === '*' || typeof a.nargs === 'number') return 'list';
  return 'value';
}

export class Builder {
  /**
   * `onChange(option, value)`: the user set a flag (`option` is its main option string; `value`
   * is a string, true/false for switches, or null to remove it). `onReset()`: clear them all.
   */
  /**
   * `searchFlags(query)`: the core's ranked matches (`FlagMatch[]`, best first). `choiceVerdicts(option)`:
   * the core's verdict on each choice of a flag for the command as it is (`ChoiceVerdict[]`).
   */
  constructor({ body, search, onlySet, reset, schema, onChange, onReset, searchFlags, choiceVerdicts }) {
    this.body = body;
    this.search = search;
    this.onlySet = onlySet;
    this.onChange = onChange;
    this.searchFlags = searchFlags;
    this.choiceVerdicts = choiceVerdicts;
    this.matches = null;
    this.searchSeq = 0;
    this.setSchema(schema);
    search.addEventListener('input', () => this.#search());
    onlySet.addEventListener('change', () => this.filter());
    reset.addEventListener('click', () => {
      for (const f of this.fields) this.#setControl(f, null);
      this.filter();
      onReset();
    });
  }

  /** Show the flags of `schema` (another release's, say) instead; the search and filter stay. */
  setSchema(schema) {
    this.version = schema.sglang_version;
    this.fields = [];
    this.byOption = new Map();
    this.groups = argparseGroups(schema.actions);
    for (const a of schema.actions) {
      const k = kind(a);
      if (!k) continue;
      const f = { action: a, kind: k, topic: this.groups ? a.group : topicOf(a), main: a.option_strings.find((o) => o.startsWith('--')) || a.option_strings[0] };
      this.fields.push(f);
      for (const o of a.option_strings) this.byOption.set(o, f);
    }
    this.#render();
    this.matches = null;
    this.resultsKey = null;
    this.#search();
  }

  #render() {
    const groups = new Map();
    for (const f of this.fields) {
      if (!groups.has(f.topic)) groups.set(f.topic, []);
      groups.get(f.topic).push(f);
    }
    const order = this.groups || [...TOPICS.map((t) => t[0]), OTHER].filter((t) => groups.has(t));
    const frag = document.createDocumentFragment();
    // Search results, best first: the matching rows move here while a query is typed.
    this.results = el('div', 'results');
    this.results.hidden = true;
    frag.append(this.results);
    let n = 0;
    for (const topic of order) {
      const fs = el('fieldset', 'topic');
      fs.append(el('legend', null, `${topic} (${groups.get(topic).length})`));
      for (const f of groups.get(topic)) fs.append(this.#row(f, n++));
      fs.dataset.topic = topic;
      for (const r of fs.querySelectorAll('.flag')) r.home = fs;
      frag.append(fs);
    }
    this.body.replaceChildren(frag);
  }

  #row(f, n) {
    const a = f.action;
    const row = el('div', 'flag');
    row.dataset.n = String(n);
    const id = `flag-${n}`;
    const label = el('label', null, f.main);
    label.htmlFor = id;
    const aliases = a.option_strings.filter((o) => o !== f.main);
    if (aliases.length) label.append(el('span', 'alias', aliases.join(' ')));
    let control;
    if (f.kind === 'flag') {
      control = el('input');
      control.type = 'checkbox';
    } else if (f.kind === 'tristate' || f.kind === 'choice') {
      control = el('select');
      control.append(new Option('(not set)', ''));
      if (f.kind === 'tristate') {
        const neg = a.option_strings.find((o) => o.startsWith('--no-')) || `--no-${f.main.slice(2)}`;
        control.append(new Option(f.main, 'on'), new Option(neg, 'off'));
      } else {
        for (const c of a.choices) control.append(new Option(String(c), String(c)));
        // Opening the list asks which choices the command at hand would make SGLang reject.
        const ask = () => this.#judgeChoices(f);
        control.addEventListener('focus', ask);
        control.addEventListener('pointerdown', ask);
      }
    } else {
      control = el('input');
      control.type = 'text';
      control.spellcheck = false;
      control.autocomplete = 'off';
      if (a.default !== '==SUPPRESS==' && a.default !== null && a.default !== undefined) control.placeholder = pyRepr(a.default);
      if (f.kind === 'list') control.title = 'Several values: separate them with spaces';
    }
    control.id = id;
    control.dataset.flag = f.main;
    control.addEventListener(control.type === 'text' ? 'input' : 'change', () => {
      row.classList.toggle('set', this.#value(f) !== null);
      this.filter();
      this.onChange(f.main, this.#flagValue(f));
    });
    f.control = control;
    f.row = row;
    const info = el('div', 'info');
    const def = a.default === '==SUPPRESS==' ? '' : `default: ${pyRepr(a.default)}`;
    const meta = [def, a.type ? `type: ${a.type.split('.').pop()}` : '', a.nargs === '+' || a.nargs === '*' ? 'several values' : '', a.required ? 'required' : '', a.deprecated || a.action.startsWith('Deprecated') ? 'deprecated' : ''].filter(Boolean).join(' · ');
    if (meta) info.append(el('span', 'default', meta));
    if (a.help) info.append(el('span', 'help', a.help));
    f.reasons = el('ul', 'choice-reasons');
    f.reasons.hidden = true;
    info.append(f.reasons);
    row.append(label, control, info);
    f.haystack = `${a.option_strings.join(' ')} ${a.dest} ${a.help || ''}`.toLowerCase();
    return row;
  }

  #value(f) {
    const c = f.control;
    if (f.kind === 'flag') return c.checked ? true : null;
    if (c.value === '') return null;
    return c.value;
  }

  #setControl(f, v) {
    const c = f.control;
    if (f.kind === 'flag') c.checked = v === true;
    else if (f.kind === 'choice' && v !== null && ![...c.options].some((o) => o.value === v)) {
      // A value outside the choices (SGLang will reject it): show it so nothing is lost.
      c.append(new Option(v, v));
      c.value = v;
    } else c.value = v === null ? '' : v;
    f.row.classList.toggle('set', v !== null && v !== '');
  }

  /** What the control asks the flag to be, as `setFlag` takes it. */
  #flagValue(f) {
    const v = this.#value(f);
    if (v === null) return null;
    if (f.kind === 'flag') return true;
    if (f.kind === 'tristate') return v === 'on';
    return v;
  }

  /** Show the flags a command sets (`commandFlags(...).values`: by main option string). */
  showFlags(values) {
    const active = document.activeElement;
    for (const f of this.fields) {
      if (f.control === active) continue;
      const v = Object.prototype.hasOwnProperty.call(values, f.main) ? values[f.main] : null;
      if (f.kind === 'tristate') this.#setControl(f, v === true ? 'on' : v === false ? 'off' : null);
      else if (f.kind === 'flag') this.#setControl(f, v === true ? true : null);
      else this.#setControl(f, typeof v === 'string' ? v : null);
    }
    this.filter();
  }

  /** Disable the choices of `f` that the command at hand would have SGLang reject, each reason listed. */
  async #judgeChoices(f) {
    if (!this.choiceVerdicts) return;
    const seq = (f.judged = (f.judged || 0) + 1);
    let verdicts;
    try {
      verdicts = await this.choiceVerdicts(f.main);
    } catch {
      return; // the choices stay as they are; the next opening asks again
    }
    if (seq !== f.judged || !verdicts) return;
    const byChoice = new Map(verdicts.map((v) => [v.choice, v]));
    const reasons = [];
    for (const o of f.control.options) {
      const v = byChoice.get(o.value);
      const rejected = v && v.rejected && !v.current;
      o.disabled = Boolean(rejected);
      o.textContent = rejected ? `${o.value} (rejected here)` : o.value || '(not set)';
      o.title = rejected ? `${v.rejected.exception ? `${v.rejected.exception}: ` : ''}${v.rejected.message}` : '';
      if (rejected) reasons.push([o.value, v.rejected]);
    }
    f.reasons.replaceChildren(
      ...reasons.map(([choice, r]) => {
        const li = el('li');
        li.dataset.choice = choice;
        li.append(el('code', null, choice), `: ${r.exception ? `${r.exception}: ` : ''}${r.message} `, el('span', 'muted', `(${r.code})`));
        return li;
      }),
    );
    f.reasons.hidden = !reasons.length;
    if (reasons.length) f.reasons.prepend(el('li', 'muted', 'Not available with this command here:'));
  }

  /** Run the search: the core ranks the matches; an empty query shows every topic again. */
  async #search() {
    const q = this.search.value.trim();
    const seq = ++this.searchSeq;
    if (!q) {
      this.matches = null;
      this.filter();
      this.body.dataset.query = '';
      return;
    }
    // At once, while the core ranks: the rows whose names or help hold the query.
    const plain = q.toLowerCase().replace(/^-+/, '');
    this.matches = this.fields.filter((f) => f.haystack.includes(plain)).map((f) => ({ option: f.main, match: 'name' }));
    this.filter();
    let found;
    if (this.searchFlags) {
      try {
        found = await this.searchFlags(q);
      } catch {
        found = null;
      }
    }
    if (seq !== this.searchSeq) return;
    // Without the core (it failed): a plain substring match, in schema order.
    if (found) this.matches = found;
    this.filter();
    // The ranked results for this query are shown (a reader of the page can wait for it).
    this.body.dataset.query = q;
  }

  filter() {
    const onlySet = this.onlySet.checked;
    const shown = (f) => !onlySet || this.#value(f) !== null;
    if (this.matches) {
      // Ranked: the matching rows in the results list, best first; every other row hidden.
      const hits = [];
      for (const m of this.matches) {
        const f = this.byOption.get(m.option);
        if (f && !hits.some((h) => h.f === f)) hits.push({ f, m });
      }
      const hit = new Set(hits.map((h) => h.f));
      for (const f of this.fields) {
        f.row.hidden = !hit.has(f) || !shown(f);
        if (!hit.has(f) && f.row.parentNode === this.results) this.#sendHome(f.row);
      }
      // Rebuilt only when the matches change: moving a row would take the focus from its control.
      const key = hits.map(({ f, m }) => `${f.main}:${m.match}`).join(' ');
      if (key !== this.resultsKey) this.#showResults(hits);
      this.resultsKey = key;
      this.results.hidden = !hits.some(({ f }) => !f.row.hidden);
    } else {
      this.resultsKey = null;
      for (const f of this.fields) {
        if (f.row.parentNode === this.results) this.#sendHome(f.row);
        delete f.row.dataset.match;
        f.row.title = '';
        f.row.hidden = !shown(f);
      }
      this.results.replaceChildren();
      this.results.hidden = true;
    }
    for (const fs of this.body.querySelectorAll('fieldset')) {
      fs.hidden = Boolean(this.matches) || ![...fs.querySelectorAll('.flag')].some((r) => !r.hidden);
    }
    this.body.dataset.filtered = String(Number(this.body.dataset.filtered || 0) + 1);
  }

  /** The matching rows in the results list, best first. */
  #showResults(hits) {
    this.results.replaceChildren();
    for (const { f, m } of hits) {
      f.row.dataset.match = m.match;
      f.row.title = m.match === 'vllm' ? `vLLM calls it ${m.vllm}` : '';
      // The matches of the help text only come last, under a line that says so.
      if (m.match === 'help' && !this.results.querySelector('.help-matches')) this.results.append(el('p', 'help-matches muted', 'In the help text:'));
      this.results.append(f.row);
    }
  }

  /** Put a row back in its topic, in schema order. */
  #sendHome(row) {
    const fs = row.home;
    const n = Number(row.dataset.n);
    const next = [...fs.querySelectorAll('.flag')].find((r) => Number(r.dataset.n) > n);
    fs.insertBefore(row, next || null);
  }
}
