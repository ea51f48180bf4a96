// Starts the checker worker as early as the page allows. The page's own modules (app.js and
// its imports) take a round trip or two to arrive; the worker and its wasm download in the
// meantime. Messages the worker sends before app.js takes it over are kept for it.
// (A separate module so it runs before the rest of the module graph has loaded.)
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'sglang-preflight-checker' });
const early = [];
worker.onmessage = (e) => early.push(e);
worker.onerror = (e) => {
  e.preventDefault();
  early.push(e);
};
globalThis.__preflightEarlyWorker = { worker, early };
