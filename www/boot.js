// Starts the checker as early as the page allows. The page's own modules (app.js and its
// imports) take a round trip or two to arrive; the wasm downloads (index.html preloads it) and
// compiles here, and the worker loads its scripts, in the meantime. The compiled module is
// handed to the worker, which would otherwise start fetching the wasm only once its own scripts
// had loaded. Messages the worker sends before app.js takes it over are kept for it.
// (A separate module so it runs before the rest of the module graph has loaded.)

/** The page's command when its link gives none. */
export const DEFAULT_COMMAND = `python -m sglang.launch_server \\
  --model-path meta-llama/Llama-3.1-8B-Instruct \\
  --disaggregation-mode decode \\
  --dcp-size 2 \\
  --disaggregation-decode-retraction-backup host_pool`;

/** The page's state in its link: cmd, yaml, gpu, gpus, v (null where absent). */
export function readHash() {
  const p = new URLSearchParams(location.hash.replace(/^#/, ''));
  return { cmd: p.get('cmd'), yaml: p.get('yaml'), gpu: p.get('gpu'), gpus: p.get('gpus'), v: p.get('v') };
}

const wasm = new URL('./pkg/sglang_preflight_bg.wasm', import.meta.url);
// The name tells worker.js to wait for the module (`init`) instead of compiling the wasm itself.
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'sglang-preflight-checker (module from the page)' });
// Not compiled here (e.g. served without the application/wasm type): the worker compiles it.
WebAssembly.compileStreaming(fetch(wasm)).then(
  (module) => worker.postMessage({ op: 'init', module }),
  () => worker.postMessage({ op: 'init' }),
);
// The first command (the link's, or the default): when it names a model, the worker fetches the
// model catalog while it starts, instead of once the first check asks for it.
worker.postMessage({ op: 'prefetch', text: readHash().cmd ?? DEFAULT_COMMAND });
const early = [];
worker.onmessage = (e) => early.push(e);
worker.onerror = (e) => {
  e.preventDefault();
  early.push(e);
};
globalThis.__preflightEarlyWorker = { worker, early };

// Offline after the first visit: sw.js (scope: this directory) precaches the page's files.
// Registered once the page has shown its first report (app.js calls `startOfflineCache`), or 10 s
// after the page loaded if no report came: its precache (every page file, the wasm among them)
// otherwise downloads and stores them while the checker compiles the code of its first check, on
// the same cores (12 interleaved cold loads each: first diagnostics 737 -> 607 ms median).
// Not available (file://, an insecure origin, a browser that blocks it): the page works as before.
let offlineCacheStarted = false;
export function startOfflineCache() {
  if (offlineCacheStarted || !('serviceWorker' in navigator)) return;
  offlineCacheStarted = true;
  navigator.serviceWorker.register(new URL('./sw.js', import.meta.url), { scope: new URL('./', import.meta.url).href }).catch(() => {});
}
const startLater = () => setTimeout(startOfflineCache, 10000);
if (document.readyState === 'complete') startLater();
else addEventListener('load', startLater, { once: true });
