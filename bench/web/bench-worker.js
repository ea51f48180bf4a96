// Benchmark-only worker (served by bench/web/budgets.mjs under __bench__/, never part of dist/):
// many checks in a row with the page's own wasm build, measuring the core plus the wasm
// boundary without postMessage or rendering.
import init, * as core from '../pkg/sglang_preflight.js';

const ready = init({ module_or_path: new URL('../pkg/sglang_preflight_bg.wasm', import.meta.url) });

self.onmessage = async (e) => {
  await ready;
  const { texts, n = 1000, options } = e.data;
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) sink += core.checkJson(texts[i % texts.length], options).length;
  const t1 = performance.now();
  const t2 = performance.now();
  for (let i = 0; i < n; i++) sink += core.check(texts[i % texts.length], options).commands.length;
  const t3 = performance.now();
  postMessage({ n, jsonUsPerCheck: ((t1 - t0) * 1000) / n, objectUsPerCheck: ((t3 - t2) * 1000) / n, sink });
};
