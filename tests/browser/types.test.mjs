// The TypeScript types of the wasm binding (the hand-written `typescript_custom_section` in
// src/wasm.rs, as it lands in dist/pkg/sglang_preflight.d.ts) against real output of the built
// wasm, in Node (no browser): every key and enum value the exports return must be declared, and
// every declared field and enum value must turn up in the outputs of the commands below. An
// export the test does not call fails it too, so nothing new goes unchecked.
// Run: npm run build && node --test tests/browser/types.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const PKG = path.resolve(here, '../../dist/pkg');

// Declared but not produced by any command here, each for a stated reason. Listing something
// that does turn up fails the test (so this list cannot go stale).
const NEVER_PRODUCED = {
  'UnknownReason:not_modelled': "every step of 0.5.23's pipeline is modelled now (model_hook's model-dependent part is `model_config`); kept for a release whose steps are not",
};

// ---- a parser for the subset of TypeScript the custom section uses ----

function parseType(src) {
  let i = 0;
  const ws = () => {
    while (i < src.length && /\s/.test(src[i])) i++;
  };
  const ident = () => {
    ws();
    const m = /^[A-Za-z_$][\w$]*/.exec(src.slice(i));
    if (!m) throw new Error(`type expected at ${JSON.stringify(src.slice(i))} in ${JSON.stringify(src)}`);
    i += m[0].length;
    return m[0];
  };
  const eat = (c) => {
    ws();
    if (src[i] !== c) throw new Error(`${c} expected at ${JSON.stringify(src.slice(i))} in ${JSON.stringify(src)}`);
    i++;
  };
  function union() {
    const options = [primary()];
    for (ws(); src[i] === '|'; ws()) {
      i++;
      options.push(primary());
    }
    return options.length === 1 ? options[0] : { k: 'union', options };
  }
  function primary() {
    ws();
    let t;
    if (src[i] === '"') {
      const end = src.indexOf('"', i + 1);
      t = { k: 'lit', value: src.slice(i + 1, end) };
      i = end + 1;
    } else if (src[i] === '[') {
      i++;
      const items = [union()];
      for (ws(); src[i] === ','; ws()) {
        i++;
        items.push(union());
      }
      eat(']');
      t = { k: 'tuple', items };
    } else {
      const name = ident();
      ws();
      if (src[i] === '<') {
        i++;
        const args = [union()];
        for (ws(); src[i] === ','; ws()) {
          i++;
          args.push(union());
        }
        eat('>');
        if (name === 'Array') t = { k: 'array', of: args[0] };
        else if (name === 'Record') t = { k: 'record', value: args[1] };
        else throw new Error(`generic ${name} not handled`);
      } else if (['string', 'number', 'boolean', 'unknown', 'null', 'undefined', 'void'].includes(name)) t = { k: 'prim', name };
      else t = { k: 'ref', name };
    }
    for (ws(); src.slice(i, i + 2) === '[]'; ws()) {
      i += 2;
      t = { k: 'array', of: t };
    }
    return t;
  }
  const t = union();
  ws();
  if (i !== src.length) throw new Error(`unparsed ${JSON.stringify(src.slice(i))} in ${JSON.stringify(src)}`);
  return t;
}

function stripComments(s) {
  return s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
}

/** Interfaces, type aliases and exported functions' return types of the .d.ts. */
function parseDts(src) {
  src = stripComments(src);
  // The custom section comes first; wasm-bindgen's own declarations (InitOutput, ...) follow
  // the functions.
  const firstFunction = src.indexOf('export function');
  const section = firstFunction < 0 ? src : src.slice(0, firstFunction);
  const decls = new Map();
  for (const m of section.matchAll(/export interface (\w+)(?:\s+extends\s+([\w\s,]+))?\s*\{([^}]*)\}/g)) {
    const [, name, ext, body] = m;
    const fields = new Map();
    let index = null;
    for (const part of body.split(';').map((x) => x.trim()).filter(Boolean)) {
      const idx = /^\[\w+:\s*string\]\s*:\s*(.+)$/.exec(part);
      if (idx) {
        index = parseType(idx[1]);
        continue;
      }
      const f = /^(\w+)(\?)?\s*:\s*([\s\S]+)$/.exec(part);
      if (!f) throw new Error(`cannot read field ${JSON.stringify(part)} of ${name}`);
      fields.set(f[1], { type: parseType(f[3]), optional: !!f[2] });
    }
    decls.set(name, { kind: 'interface', name, fields, index, extends: ext ? ext.split(',').map((x) => x.trim()) : [] });
  }
  for (const m of section.matchAll(/export type (\w+)\s*=\s*([^;]+);/g)) {
    decls.set(m[1], { kind: 'alias', name: m[1], type: parseType(m[2]) });
  }
  const functions = new Map();
  for (const m of src.matchAll(/export function (\w+)\(([^)]*)\)\s*:\s*([^;]+);/g)) {
    if (['initSync', 'start'].includes(m[1])) continue;
    functions.set(m[1], parseType(m[3]));
  }
  return { decls, functions };
}

// ---- checking values against the declarations, recording what turned up ----

class Checker {
  constructor(decls) {
    this.decls = decls;
    this.seenFields = new Set();
    this.seenLiterals = new Set();
    this.problems = [];
  }

  fieldsOf(iface) {
    const out = new Map();
    for (const base of iface.extends) for (const [k, v] of this.fieldsOf(this.decls.get(base))) out.set(k, v);
    for (const [k, f] of iface.fields) out.set(k, { ...f, owner: iface.name });
    return out;
  }

  /** Does `v` match `t`? `where` names the declaration (for enum coverage); `at` the value. */
  matches(v, t, where, at, record = true) {
    switch (t.k) {
      case 'prim':
        if (t.name === 'unknown') return true;
        if (t.name === 'null') return v === null;
        if (t.name === 'undefined' || t.name === 'void') return v === undefined;
        return typeof v === t.name;
      case 'lit':
        if (v !== t.value) return false;
        if (record) this.seenLiterals.add(`${where}:${t.value}`);
        return true;
      case 'array':
        return Array.isArray(v) && v.every((x, i) => this.matches(x, t.of, where, `${at}[${i}]`, record));
      case 'tuple':
        return Array.isArray(v) && v.length === t.items.length && v.every((x, i) => this.matches(x, t.items[i], where, `${at}[${i}]`, record));
      case 'record':
        return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.entries(v).every(([k, x]) => this.matches(x, t.value, where, `${at}.${k}`, record));
      case 'union': {
        // Record only through the branch that matches (tried silently first).
        const branch = t.options.find((o) => this.matches(v, o, where, at, false));
        return branch !== undefined && this.matches(v, branch, where, at, record);
      }
      case 'ref': {
        const d = this.decls.get(t.name);
        if (!d) throw new Error(`${where}: type ${t.name} is not declared`);
        if (d.kind === 'alias') return this.matches(v, d.type, t.name, at, record);
        return this.object(v, d, at, record);
      }
      default:
        throw new Error(`type kind ${t.k}`);
    }
  }

  object(v, iface, at, record) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const fields = this.fieldsOf(iface);
    let ok = true;
    const problem = (msg) => {
      ok = false;
      if (record) this.problems.push(`${at}: ${msg}`);
    };
    for (const [k, x] of Object.entries(v)) {
      const f = fields.get(k);
      if (!f) {
        if (iface.index && this.matches(x, iface.index, iface.name, `${at}.${k}`, record)) continue;
        problem(`key ${JSON.stringify(k)} is not declared in ${iface.name}`);
        continue;
      }
      if (x === undefined) continue;
      if (record) this.seenFields.add(`${f.owner}.${k}`);
      if (!this.matches(x, f.type, `${f.owner}.${k}`, `${at}.${k}`, record)) problem(`${k} = ${JSON.stringify(x)?.slice(0, 80)} does not match ${iface.name}.${k}`);
    }
    for (const [k, f] of fields) if (!f.optional && !(k in v)) problem(`required ${iface.name}.${k} is missing`);
    return ok;
  }

  check(v, t, label) {
    const before = this.problems.length;
    const ok = this.matches(v, t, label, label);
    if (!ok && this.problems.length === before) this.problems.push(`${label}: ${JSON.stringify(v)?.slice(0, 120)} does not match its declared type`);
  }

  /** Every field and enum value of the types reachable from `roots`, as `seen*` name them. */
  declared(roots) {
    const fields = new Set();
    const literals = new Set();
    const visited = new Set();
    const walk = (t, where) => {
      switch (t.k) {
        case 'lit':
          literals.add(`${where}:${t.value}`);
          break;
        case 'array':
          walk(t.of, where);
          break;
        case 'tuple':
          t.items.forEach((x) => walk(x, where));
          break;
        case 'record':
          walk(t.value, where);
          break;
        case 'union':
          t.options.forEach((x) => walk(x, where));
          break;
        case 'ref': {
          if (visited.has(t.name)) break;
          visited.add(t.name);
          const d = this.decls.get(t.name);
          if (d.kind === 'alias') walk(d.type, t.name);
          else {
            for (const base of d.extends) walk({ k: 'ref', name: base }, base);
            for (const [k, f] of d.fields) {
              fields.add(`${d.name}.${k}`);
              walk(f.type, `${d.name}.${k}`);
            }
          }
          break;
        }
        default:
      }
    };
    for (const r of roots) walk(r, 'return');
    return { fields, literals };
  }
}

// ---- the real outputs ----

const COMMANDS = [
  // check stage, a safe fix
  'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool',
  // serve entry without a model: cli stage
  'sglang serve --tp 2',
  // a config file that is not supplied: config stage, config_paths
  'python -m sglang.launch_server --model-path m --config cfg.yaml',
  // typographic quotes, repeats, an unknown flag, a wrapper, text-level findings
  '# note\nexport A=1\nCUDA_VISIBLE_DEVICES=0 docker run img python3 -m sglang.launch_server --model-path “m” --tp-size 2 --tp-size 4 \\\n  --reasoning_parser qwen3 --no-such-flag $(pwd)',
  // nothing to check
  'echo hello',
  // missing model path: advice-only fix
  'python -m sglang.launch_server --tp-size 2',
  // accepted, with checks not run
  'python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --speculative-algorithm EAGLE --enable-dp-attention --dp 8 --kv-cache-dtype fp8_e4m3 --lora-paths a=/x',
  'sglang serve Qwen/Qwen3-30B-A3B --tp 4 --ep 4 --enable-dp-attention --dp 2 --mem-fraction-static 0.85 --load-format gguf --tokenizer-path ./tok',
  'python -m sglang.launch_server --model-path m --ambig',
  // checks that need files and the network
  'SGLANG_USE_MODELSCOPE=1 python -m sglang.launch_server --model-path m --ssl-keyfile k.pem --ssl-certfile c.pem',
  'python -m sglang.launch_server --model-path m --tp-size x --enable-metrics=yes --log-level loud',
  // a device without a hardware profile: its platform hook is not run
  'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --device xpu',
];

test('the declared TypeScript types match what the wasm exports return, both ways', async () => {
  const dts = fs.readFileSync(path.join(PKG, 'sglang_preflight.d.ts'), 'utf8');
  const { decls, functions } = parseDts(dts);
  const core = await import(path.join(PKG, 'sglang_preflight.js'));
  await core.default({ module_or_path: fs.readFileSync(path.join(PKG, 'sglang_preflight_bg.wasm')) });
  const c = new Checker(decls);
  const called = new Set();
  const ret = (name) => {
    called.add(name);
    const t = functions.get(name);
    assert.ok(t, `${name} is not declared in the .d.ts`);
    return t;
  };

  const version = core.version();
  c.check(version, ret('version'), 'version()');
  const presets = core.presets();
  c.check(presets, ret('presets'), 'presets()');
  c.check(core.rules(), ret('rules'), 'rules()');
  for (const v of version.sglang) c.check(core.schema(v), ret('schema'), `schema(${v})`);

  const reportType = { k: 'ref', name: 'Report' };
  ret('checkJson'); // declared `string`: its JSON is a Report
  for (const text of COMMANDS) {
    for (const gpu of ['h100', 'mi300x', 'cpu']) {
      const report = core.check(text, { gpu, configFiles: {} });
      c.check(report, ret('check'), `check(${JSON.stringify(text).slice(0, 40)}, ${gpu})`);
      c.check(JSON.parse(core.checkJson(text, { gpu })), reportType, `checkJson(${JSON.stringify(text).slice(0, 40)})`);
      // as the page checks: accepted commands marked instead of their resolved values
      c.check(JSON.parse(core.checkJson(text, { gpu, resolvedValues: false })), reportType, `checkJson(${JSON.stringify(text).slice(0, 40)}, resolvedValues: false)`);
      // declared `string`: the report as reviewable text (the CLI's --format snapshot)
      ret('snapshot');
      assert.equal(typeof core.snapshot(text, { gpu }), 'string', `snapshot(${JSON.stringify(text).slice(0, 40)})`);
      if (gpu !== 'h100') continue;
      for (const d of [...report.diagnostics, ...report.commands.flatMap((x) => x.diagnostics)]) {
        for (const f of d.fixes) if (f.edits.length) c.check(core.applyEdits(text, f.edits), ret('applyEdits'), `applyEdits(${d.code})`);
      }
      for (let i = 0; i <= report.commands.length; i++) {
        c.check(core.commandFlags(text, version.defaultSglang, i), ret('commandFlags'), `commandFlags(${i})`);
        c.check(core.clearFlags(text, i), ret('clearFlags'), `clearFlags(${i})`);
      }
      for (const [option, value] of [['--tp-size', '4'], ['--tp-size', null], ['--enable-metrics', true], ['--enable-metrics', false], ['--enable-tf32-matmul', false]]) {
        try {
          c.check(core.setFlag(text, version.defaultSglang, 0, option, value), ret('setFlag'), `setFlag(${option}, ${value})`);
        } catch (e) {
          // a refusal (e.g. an unterminated quote) is an Error, not a value to type-check
          assert.ok(e instanceof Error, String(e));
        }
      }
    }
  }
  // Apply all safe fixes: nothing to fix, and fixes over several rounds (unsafe ones too).
  for (const text of [...COMMANDS, 'python -m sglang.launch_server --model-path m --tool-call-parser lama3 --attention-backend flashinfr']) {
    for (const unsafeFixes of [false, true]) {
      const fixed = core.fixAll(text, { gpu: 'h100' }, unsafeFixes);
      c.check(fixed, ret('fixAll'), `fixAll(${JSON.stringify(text).slice(0, 40)}, ${unsafeFixes})`);
      assert.equal(core.applyEdits(text, fixed.edits.length ? fixed.edits : [{ start: 0, end: 0, replacement: '' }]).text, fixed.text);
    }
  }
  c.check(core.commandFlags('python -m sglang.launch_server --enable-metrics --no-enable-tf32-matmul', version.defaultSglang, 0), ret('commandFlags'), 'commandFlags(switches)');
  // secrets kept out of links: none, and several (quoted, `--flag=value`, docker -e)
  for (const text of [...COMMANDS, 'export HF_TOKEN=hf_abc\ndocker run -e "OPENAI_API_KEY=sk-1" img python -m sglang.launch_server --model-path m --api-key=k2 --admin-api-key \'k 3\'']) {
    const r = core.redactForLink(text);
    c.check(r, ret('redactForLink'), `redactForLink(${JSON.stringify(text).slice(0, 40)})`);
    for (const x of r.redacted) assert.ok(!r.text.includes(text.slice(x.span16.start, x.span16.end)), `${x.name} left in the link text`);
  }

  // The help texts of the carried release's flags, which its wasm schema goes without: given from
  // the help/ file (declared `string`: its version), once; schema() has them then.
  assert.deepEqual(version.withoutHelp, [version.defaultSglang]);
  assert.ok(core.schema(version.defaultSglang).actions.every((a) => a.help === null));
  ret('registerHelp');
  assert.throws(() => core.registerHelp('{"sglang_version": "' + version.defaultSglang + '", "help": ["too few"]}'), Error);
  const helpFile = fs.readFileSync(path.join(PKG, `../help/${version.defaultSglang}.json`), 'utf8');
  assert.equal(core.registerHelp(helpFile), version.defaultSglang);
  assert.deepEqual(core.version().withoutHelp, []);
  const withHelp = core.schema(version.defaultSglang);
  c.check(withHelp, ret('schema'), `schema(${version.defaultSglang}) with help`);
  assert.equal(withHelp.actions.find((a) => a.dest === 'tp_size').help, 'The tensor parallelism size.');

  // A release the wasm does not carry: registered from its releases/ file (declared `string`:
  // its version), then checked against; the release a text names.
  assert.ok(version.known.length > version.sglang.length, 'the wasm carries every known release: nothing to register');
  ret('registerRelease');
  assert.equal(core.registerRelease(fs.readFileSync(path.join(PKG, '../releases/0.5.18.json'), 'utf8')), '0.5.18');
  assert.throws(() => core.registerRelease('{"sglang_version": "0.5.18"}'), Error);
  const registered = core.version();
  c.check(registered, ret('version'), 'version() after registerRelease');
  assert.ok(registered.sglang.includes('0.5.18'));
  c.check(core.schema('0.5.18'), ret('schema'), 'schema(0.5.18)');
  c.check(core.check(COMMANDS[0], { sglangVersion: '0.5.18' }), ret('check'), 'check(0.5.18)');
  for (const text of ['python -m sglang.launch_server --model-path m', '# ✓ pinned: pip install "sglang[all]==0.5.18"\npython -m sglang.launch_server --model-path m']) {
    const hint = core.releaseHint(text);
    c.check(hint, ret('releaseHint'), `releaseHint(${JSON.stringify(text).slice(0, 40)})`);
    if (hint) {
      assert.equal(text.slice(hint.span16.start, hint.span16.end), 'sglang[all]==0.5.18');
      c.check(core.check(text, { releaseFromText: true }), ret('check'), 'check(releaseFromText)');
    }
  }

  // explain: every status of a written flag's run value (the parser-only one on 0.5.19, whose
  // file has no check data; 0.5.18's has them)
  for (const text of COMMANDS) c.check(core.explain(text, { gpu: 'h100' }), ret('explain'), `explain(${JSON.stringify(text).slice(0, 40)})`);
  c.check(core.explain('python -m sglang.launch_server --model-path m --log-level debug', { gpu: 'h100' }), ret('explain'), 'explain(parsed)');
  c.check(core.explain(COMMANDS[0], { sglangVersion: '0.5.18' }), ret('explain'), 'explain(0.5.18)');
  assert.equal(core.registerRelease(fs.readFileSync(path.join(PKG, '../releases/0.5.19.json'), 'utf8')), '0.5.19');
  const parserOnly = core.explain(COMMANDS[0], { sglangVersion: '0.5.19' });
  c.check(parserOnly, ret('explain'), 'explain(0.5.19)');
  assert.ok(parserOnly.commands.every((cmd) => cmd.parser_only) && !core.explain(COMMANDS[0], { sglangVersion: '0.5.18' }).commands.some((cmd) => cmd.parser_only));
  // the builder's ranked search: every kind of match
  for (const q of ['tp-size', 'tensor-parallel-size', 'disaggregation-decode-retract', 'retraction backup', 'cache', 'weights', '']) {
    c.check(core.searchFlags(version.defaultSglang, q), ret('searchFlags'), `searchFlags(${q})`);
  }
  // choices judged with the command at hand: one rejected on an A100, a flag without choices
  const deepseek = 'python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8 --attention-backend triton';
  const verdicts = core.choiceVerdicts(deepseek, { gpu: 'a100' }, 0, '--attention-backend');
  c.check(verdicts, ret('choiceVerdicts'), 'choiceVerdicts(--attention-backend)');
  assert.ok(verdicts.some((v) => v.rejected) && verdicts.some((v) => v.current));
  c.check(core.choiceVerdicts(deepseek, { gpu: 'a100' }, 0, '--tp-size'), ret('choiceVerdicts'), 'choiceVerdicts(--tp-size)');

  // The model catalog, installed as the worker installs it; models known, inferred, unknown, given.
  c.check(core.modelsInstalled(), ret('modelsInstalled'), 'modelsInstalled()');
  assert.equal(core.modelsInstalled(), false);
  assert.throws(() => core.installModels('{"catalog": 1}'), Error);
  c.check(core.installModels(fs.readFileSync(path.join(PKG, '../models/catalog.json'), 'utf8')), ret('installModels'), 'installModels()');
  assert.equal(core.modelsInstalled(), true);
  const modelCommands = [
    'python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --speculative-algorithm EAGLE --speculative-draft-model-path my-org/unknown-draft',
    'python -m sglang.launch_server --model-path Qwen/Qwen3-8B-FP8-Dynamic',
  ];
  for (const text of modelCommands) c.check(core.check(text, { gpu: 'h100' }), ret('check'), `check(${JSON.stringify(text).slice(0, 60)})`);
  const config = '{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": "32"}';
  c.check(core.check('python -m sglang.launch_server --model-path /m', { modelConfig: config, hfQuantConfig: '{}', draftModelConfig: config }), ret('check'), 'check(modelConfig)');
  ret('readModelConfig');
  for (const [text, quant] of [[config, undefined], ['{"architectures": [', undefined], ['[]', '{}']]) c.check(core.readModelConfig(text, quant), ret('readModelConfig'), `readModelConfig(${text.slice(0, 20)})`);

  c.check(core.examples(), ret('examples'), 'examples()');
  // declared `string`: a move between two registered releases, as JSON
  ret('upgradeJson');
  const up = JSON.parse(core.upgradeJson('python -m sglang.launch_server --model-path m --mamba-scheduler-strategy auto', '0.5.18', version.defaultSglang, { gpu: 'h100' }));
  assert.deepEqual([up.from, up.commands.length, up.commands[0].accepted_before, up.commands[0].accepted_after], ['0.5.18', 1, true, false]);

  assert.deepEqual(c.problems, [], 'outputs that the types do not declare');
  assert.deepEqual([...functions.keys()].filter((f) => !called.has(f)), [], 'exports this test does not call: add them here');

  const { fields, literals } = c.declared([...functions.values(), reportType]);
  const unseen = [...fields].filter((f) => !c.seenFields.has(f) && !NEVER_PRODUCED[f]);
  assert.deepEqual(unseen, [], 'declared fields no output had');
  const unseenLiterals = [...literals].filter((l) => !c.seenLiterals.has(l) && !NEVER_PRODUCED[l]);
  assert.deepEqual(unseenLiterals, [], 'declared enum values no output had');
  const stale = Object.keys(NEVER_PRODUCED).filter((k) => c.seenFields.has(k) || c.seenLiterals.has(k) || !(fields.has(k) || literals.has(k)));
  assert.deepEqual(stale, [], 'NEVER_PRODUCED entries that are produced after all, or not declared: remove them');
});

test('the type checker itself rejects undeclared keys and wrong values', () => {
  const { decls } = parseDts('export type E = "a" | "b";\nexport interface I { x: number; e: E; o?: string | null; t: [number, number]; }');
  const c = new Checker(decls);
  c.check({ x: 1, e: 'a', t: [1, 2] }, { k: 'ref', name: 'I' }, 'ok');
  assert.deepEqual(c.problems, []);
  for (const bad of [{ x: 1, e: 'a', t: [1, 2], extra: 1 }, { x: '1', e: 'a', t: [1, 2] }, { x: 1, e: 'c', t: [1, 2] }, { e: 'a', t: [1, 2] }, { x: 1, e: 'a', t: [1] }]) {
    const k = new Checker(decls);
    k.check(bad, { k: 'ref', name: 'I' }, 'bad');
    assert.notDeepEqual(k.problems, [], JSON.stringify(bad));
  }
  const { literals } = c.declared([{ k: 'ref', name: 'I' }]);
  assert.deepEqual([...literals].filter((l) => !c.seenLiterals.has(l)), ['E:b']);
});
