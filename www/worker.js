// The checker runs here, off the page's thread. The page (client.js) abandons a check that
// exceeds its time budget by terminating this worker and starting a new one.
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
    case 'bench': {
      // Many checks in a row inside the worker: the per-command latency of the core plus
      // the wasm boundary, without postMessage or rendering.
      const n = m.n || 1000;
      let sink = 0;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) sink += core.checkJson(m.texts[i % m.texts.length], m.options).length;
      const t1 = performance.now();
      const t2 = performance.now();
      for (let i = 0; i < n; i++) sink += core.check(m.texts[i % m.texts.length], m.options).commands.length;
      const t3 = performance.now();
      return { n, jsonUsPerCheck: ((t1 - t0) * 1000) / n, objectUsPerCheck: ((t3 - t2) * 1000) / n, sink };
    }
    default:
      throw new Error(`unknown op ${m.op}`);
  }
}

self.onmessage = async (e) => {
  const m = e.data || {};
  try {
    await ready;
    if (broken) throw new Error('the checker is broken after an earlier crash');
    // Debug hook for the time-budget test: hang like a runaway check would.
    if (m.debugHang) for (;;);
    postMessage({ id: m.id, ok: true, result: run(m) });
  } catch (err) {
    // A trap in wasm (a bug in the core) leaves the instance unusable: ask to be replaced.
    const crashed = err instanceof WebAssembly.RuntimeError || broken;
    if (crashed) broken = true;
    postMessage({ id: m.id, ok: false, crashed, error: String(err && err.message ? err.message : err) });
  }
};
