// The checker runs here, off the page's thread. The page (client.js) abandons a check that
// exceeds its time budget by terminating this worker and starting a new one.
// Everything that knows about commands is the core's (wasm); this only routes messages.
import init, * as core from './pkg/sglang_preflight.js';

const ready = init({ module_or_path: new URL('./pkg/sglang_preflight_bg.wasm', import.meta.url) }).then(() => {
  // Warm up while the page is still loading its own modules: the first check parses the flag
  // schema and compiles most of the core (~40 ms in a cold engine), so the page's first real
  // check does not pay for it.
  core.checkJson('python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2', undefined);
});
let broken = false;

ready.then(
  () => postMessage({ ready: true }),
  (e) => postMessage({ ready: false, crashed: true, error: `could not load the checker: ${e && e.message ? e.message : e}` }),
);

function run(m) {
  switch (m.op) {
    case 'check':
      return JSON.parse(core.checkJson(m.text, m.options));
    case 'meta':
      // Not the rules' metadata (`core.rules()`): the page needs only their number, and
      // serializing all of them took ~10 ms of the first load.
      return { version: core.version(), presets: core.presets() };
    case 'schema':
      return core.schema(m.version);
    case 'applyEdits':
      return core.applyEdits(m.text, m.edits);
    case 'commandFlags':
      return core.commandFlags(m.text, m.version, m.command);
    case 'setFlag':
      return core.setFlag(m.text, m.version, m.command, m.option, m.value);
    case 'clearFlags':
      return core.clearFlags(m.text, m.command);
    default:
      throw new Error(`unknown op ${m.op}`);
  }
}

self.onmessage = async (e) => {
  const m = e.data || {};
  try {
    await ready;
    if (broken) throw new Error('the checker is broken after an earlier crash');
    postMessage({ id: m.id, ok: true, result: run(m) });
  } catch (err) {
    // A trap in wasm (a bug in the core) leaves the instance unusable: ask to be replaced.
    const crashed = err instanceof WebAssembly.RuntimeError || broken;
    if (crashed) broken = true;
    postMessage({ id: m.id, ok: false, crashed, error: String(err && err.message ? err.message : err) });
  }
};
