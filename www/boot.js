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

// Offline after the first visit: sw.js (scope: this directory) precaches the page's files.
// Registered once the page has loaded, so it never competes with the first download of the wasm.
// Not available (file://, an insecure origin, a browser that blocks it): the page works as before.
if ('serviceWorker' in navigator) {
  const register = () => navigator.serviceWorker.register(new URL('./sw.js', import.meta.url), { scope: new URL('./', import.meta.url).href }).catch(() => {});
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}
