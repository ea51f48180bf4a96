// The checker runs here, off the page's thread. The page (client.js) abandons a check that
// exceeds its time budget by terminating this worker and starting a new one.
// Everything that knows about commands is the core's (wasm); this only routes messages.
// The first worker compiles the wasm (or, started by the page's boot.js, is given the module the
// page compiled while this worker's scripts loaded) and hands the compiled WebAssembly.Module to
// the page with its "ready"; a replacement (named so by client.js) is given that module as its
// first message and instantiates it, without fetching or compiling the wasm again.
import init, * as core from './pkg/sglang_preflight.js';

const REPLACEMENT = self.name === 'sglang-preflight-checker (replacement)';
const GIVEN_MODULE = REPLACEMENT || self.name === 'sglang-preflight-checker (module from the page)';
const WASM_URL = new URL('./pkg/sglang_preflight_bg.wasm', import.meta.url);

async function compile() {
  try {
    return await WebAssembly.compileStreaming(fetch(WASM_URL));
  } catch {
    // e.g. served without the application/wasm type
    const r = await fetch(WASM_URL);
    if (!r.ok) throw new Error(`failed to fetch the wasm: ${r.status} ${r.statusText}`);
    return WebAssembly.compile(await r.arrayBuffer());
  }
}

let gotModule;
const given = new Promise((resolve) => (gotModule = resolve));
const module = GIVEN_MODULE ? given : compile();

const ready = module.then(async (m) => {
  await init({ module_or_path: m });
  // Warm up while the page is still loading its own modules: the first check parses the flag
  // schema and compiles most of the core (~40 ms in a cold engine), so the page's first real
  // check does not pay for it.
  core.checkJson('python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2', undefined);
  // Before any request waiting on `ready` runs: the page starts each one's budget from here.
  postMessage({ ready: true, module: REPLACEMENT ? undefined : m });
});
let broken = false;

// Releases the wasm does not carry (it carries the newest only) are fetched when a request needs
// one, from releases/<version>.json next to this file (as the wasm is found), and registered with
// the core. Each is fetched once per worker; a failed fetch is tried again by a later request.
const releaseLoads = new Map();

/** The known releases a request needs that the core does not have yet. */
function releasesToLoad(m) {
  const info = core.version();
  const wanted = [m.version, m.options && m.options.sglangVersion, m.from, m.to];
  if ((m.op === 'check' || m.op === 'fixAll') && m.options && m.options.releaseFromText) wanted.push(core.releaseHint(m.text)?.version);
  return [...new Set(wanted.filter((v) => typeof v === 'string' && info.known.includes(v) && !info.sglang.includes(v)))];
}

/** The text of `file`, next to this file (an error naming the HTTP status when not served). */
async function fetchText(file) {
  const r = await fetch(new URL(`./${file}`, import.meta.url));
  if (!r.ok) throw new Error(`HTTP ${r.status}${r.statusText ? ` ${r.statusText}` : ''}`);
  return r.text();
}

/** `load()` once per `key` in `loads`; a load that failed is tried again by a later request. */
function loadOnce(loads, key, load) {
  if (!loads.has(key)) {
    const pending = load();
    loads.set(key, pending);
    pending.catch(() => loads.delete(key));
  }
  return loads.get(key);
}

/** A file's text for the core, or an error saying what could not be loaded (`what`). */
async function fetchFor(file, what) {
  try {
    return await fetchText(file);
  } catch (e) {
    throw new Error(`could not load ${what} (${file}): ${e && e.message ? e.message : e}`);
  }
}

function loadRelease(version) {
  return loadOnce(releaseLoads, version, async () => core.registerRelease(await fetchFor(`releases/${version}.json`, `SGLang ${version}'s flags`)));
}

// The model catalog (models/catalog.json: which model a hub id is, from its public config) is not
// in the wasm either: fetched the first time a request's text names a model, then installed.
const modelLoads = new Map();
const MODEL_OPS = new Set(['check', 'fixAll', 'explain', 'upgrade', 'choiceVerdicts']);

const namesModel = (text) => typeof text === 'string' && /--model|\bserve\b/.test(text);

function needsModels(m) {
  return MODEL_OPS.has(m.op) && namesModel(m.text) && !core.modelsInstalled();
}

/** The catalog's text, fetched once (again after a failure); `prefetch` starts it before the core is loaded. */
function catalogText() {
  return loadOnce(modelLoads, 'text', () => fetchText('models/catalog.json'));
}

function loadModels() {
  // Offline before the catalog was ever fetched: models stay unknown (the report says so), and a
  // later request tries again.
  return loadOnce(modelLoads, 'catalog', async () => {
    core.installModels(await catalogText());
    modelLoads.delete('text');
  }).catch(() => {});
}

// The help texts of the flags of the release the wasm carries are not in it (they are shown,
// never checked: ~33 KB gzipped that most checks never need). A request that shows them fetches
// help/<version>.json next to this file, once per worker, and gives it to the core; the releases
// registered from releases/ come with the texts that differ from the carried release's.
const HELP_OPS = new Set(['schema', 'explain', 'searchFlags', 'upgrade']);
const helpLoads = new Map();

/** The releases whose help texts a request shows and the core does not have yet. */
function helpToLoad(m) {
  if (!HELP_OPS.has(m.op)) return [];
  const info = core.version();
  const wanted = [m.version, m.from, m.to];
  if (m.op === 'explain') {
    wanted.push((m.options && m.options.sglangVersion) || info.defaultSglang);
    if (m.options && m.options.releaseFromText) wanted.push(core.releaseHint(m.text)?.version);
  }
  // An older release's file leaves out the texts that are the carried release's: the core takes
  // them from the carried release's help file (src/release.rs inherit_newest_help).
  return [...new Set(wanted.filter((v) => typeof v === 'string' && info.withoutHelp.includes(v)).map(() => info.defaultSglang))];
}

function loadHelp(version) {
  return loadOnce(helpLoads, version, async () => core.registerHelp(await fetchFor(`help/${version}.json`, `the help texts of SGLang ${version}'s flags`)));
}

ready.catch((e) => postMessage({ ready: false, crashed: true, error: `could not load the checker: ${e && e.message ? e.message : e}` }));

function run(m) {
  switch (m.op) {
    case 'check':
      return JSON.parse(core.checkJson(m.text, m.options));
    case 'meta':
      // Not the rules' metadata (`core.rules()`): the page needs only their number, and
      // serializing all of them took ~10 ms of the first load.
      return { version: core.version(), presets: core.presets(), examples: core.examples() };
    case 'schema':
      return core.schema(m.version);
    case 'applyEdits':
      return core.applyEdits(m.text, m.edits);
    case 'commandFlags':
      return core.commandFlags(m.text, m.version, m.command);
    case 'setFlag':
      return core.setFlag(m.text, m.version, m.command, m.option, m.value);
    case 'upgrade':
      return JSON.parse(core.upgradeJson(m.text, m.from, m.to, m.options));
    case 'clearFlags':
      return core.clearFlags(m.text, m.command);
    case 'fixAll':
      return core.fixAll(m.text, m.options, !!m.unsafeFixes);
    case 'redactForLink':
      return core.redactForLink(m.text);
    case 'explain':
      return core.explain(m.text, m.options);
    case 'searchFlags':
      return core.searchFlags(m.version, m.query);
    case 'readModelConfig':
      return core.readModelConfig(m.config, m.hfQuant);
    case 'choiceVerdicts':
      return core.choiceVerdicts(m.text, m.options, m.command, m.option);
    default:
      throw new Error(`unknown op ${m.op}`);
  }
}

/** A trap in wasm (a bug in the core) or a stack overflow leaves the instance unusable. */
function isCrash(err) {
  return err instanceof WebAssembly.RuntimeError || (err instanceof RangeError && /call stack/i.test(err.message)) || (typeof InternalError === 'function' && err instanceof InternalError);
}

/** Findings per message: a report with many goes in parts, each a short task for the page. */
const PART = 2000;

/** Post a check's report; past `PART` findings, the findings follow in parts (client.js joins them). */
function postReport(id, report) {
  const lists = [report.diagnostics || [], ...(report.commands || []).map((c) => c.diagnostics || [])];
  const total = lists.reduce((n, l) => n + l.length, 0);
  if (total <= PART) return postMessage({ id, ok: true, result: report });
  const parts = [];
  lists.forEach((list, i) => {
    for (let at = 0; at < list.length; at += PART) parts.push({ list: i, items: list.slice(at, at + PART) });
  });
  if (report.diagnostics) report.diagnostics = [];
  for (const c of report.commands || []) if (c.diagnostics) c.diagnostics = [];
  postMessage({ id, ok: true, result: report, parts: parts.length });
  for (const part of parts) postMessage({ id, part });
}

self.onmessage = async (e) => {
  const m = e.data || {};
  if (m.op === 'init') {
    if (m.module instanceof WebAssembly.Module) gotModule(m.module);
    else gotModule(compile());
    return;
  }
  if (m.op === 'prefetch') {
    // Once the wasm is here: the catalog's download does not slow the wasm's.
    if (namesModel(m.text)) module.then(() => catalogText()).catch(() => {});
    return;
  }
  try {
    await ready;
    if (broken) throw new Error('the checker is broken after an earlier crash');
    const missing = releasesToLoad(m);
    // A check that may go without the catalog (`modelsLater`, the page's) does not wait for it:
    // it is answered at once, marked, while the catalog loads, and is asked again later.
    let modelsLoading = false;
    if (needsModels(m)) {
      if (m.modelsLater && m.op === 'check') {
        loadModels();
        modelsLoading = true;
      } else missing.push('models');
    }
    if (missing.length) {
      // The network is not the check's: the client gives the request its load budget meanwhile.
      postMessage({ id: m.id, loading: missing });
      await Promise.all(missing.map((v) => (v === 'models' ? loadModels() : loadRelease(v))));
      postMessage({ id: m.id, loaded: missing });
    }
    const missingHelp = helpToLoad(m);
    if (missingHelp.length) {
      postMessage({ id: m.id, loading: missingHelp });
      await Promise.all(missingHelp.map(loadHelp));
      postMessage({ id: m.id, loaded: missingHelp });
    }
    // Installed while this request waited for a release: the check has the model after all.
    const withoutModels = modelsLoading && !core.modelsInstalled();
    const result = run(m);
    if (m.op === 'check') postReport(m.id, withoutModels ? { ...result, models_loading: true } : result);
    else postMessage({ id: m.id, ok: true, result });
  } catch (err) {
    const crashed = isCrash(err) || broken;
    if (crashed) broken = true;
    const error = String(err && err.message ? err.message : err);
    postMessage({ id: m.id, ok: false, crashed, error: err instanceof RangeError && crashed ? `stack overflow (${error})` : error });
  }
};
