// The service worker: after the first visit the page works offline. It precaches the page's
// own files (the list, with each file's hash, is written into dist/sw.js by
// scripts/build-web.sh, so every build has a different sw.js and the browser installs it),
// serves them cache-first, and deletes the caches of earlier builds when it activates.
// The schemas of releases the wasm does not carry (releases/<version>.json) and the help texts of
// the flags of the one it does (help/<version>.json, for the builder, the explain view, the flag
// search and the upgrade notes) are not precached: most visitors never need them. Each is stored
// the first time it is fetched (checked against this build's hash), so what was used once works
// offline too. The model catalog (models/catalog.json, fetched when a command names a
// model) is handled the same way.
// It answers only for those files, under its own scope (the page's directory, which may be a
// sub-path), on this origin: every other request goes to the network untouched and nothing from
// another origin is ever stored.

// Replaced by scripts/build-web.sh:
// { version, files: { 'index.html': 'sha256-…', … }, releases: { 'releases/0.5.18.json': 'sha256-…', … },
//   help: { 'help/0.5.23.json': 'sha256-…' } }.
const BUILD = /* build:manifest */ { version: 'dev', files: {}, releases: {}, help: {} } /* end:manifest */;

// The files stored when first fetched: releases/ (none in a build whose wasm carries every
// release) and help/.
const ON_DEMAND = { ...(BUILD.releases || {}), ...(BUILD.help || {}) };

const SCOPE = self.registration.scope; // e.g. https://host/docs/preflight/
// One origin can host several copies of the page (other sub-paths): their caches share
// CacheStorage, so a cache is named after its scope and only this scope's old ones are deleted.
const PREFIX = `sglang-preflight ${SCOPE} `;
const CACHE = PREFIX + BUILD.version;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all(
        Object.entries(BUILD.files).map(async ([rel, integrity]) => {
          const url = new URL(rel, SCOPE).href;
          // no-cache: revalidate, so an HTTP cache cannot hand over the last build's file;
          // integrity: the bytes this build was made with (a half-finished deploy fails the
          // install, and the next visit tries again, instead of caching a mix of two builds).
          const r = await fetch(url, { cache: 'no-cache', integrity });
          if (!r.ok) throw new Error(`precache ${rel}: HTTP ${r.status}`);
          // A host may redirect (index.html -> ./): store a plain response, since a redirected
          // one cannot answer a navigation.
          const plain = r.redirected ? new Response(await r.blob(), { status: r.status, statusText: r.statusText, headers: r.headers }) : r;
          await cache.put(url, plain);
        }),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** The precached file a same-origin, in-scope URL stands for, or null. */
function fileFor(url) {
  const rel = relativeOf(url);
  if (rel === null) return null;
  if (Object.hasOwn(BUILD.files, rel)) return rel;
  // Hosts with "pretty URLs" serve a page without its .html.
  if (Object.hasOwn(BUILD.files, `${rel}.html`)) return `${rel}.html`;
  return null;
}

/** The path of a same-origin, in-scope URL under the scope ('index.html' for the scope itself), or null. */
function relativeOf(url) {
  if (url.origin !== self.location.origin || !url.href.startsWith(SCOPE)) return null;
  const rel = decodeURIComponent(url.pathname.slice(new URL(SCOPE).pathname.length));
  return rel === '' ? 'index.html' : rel;
}

/** A file fetched on demand (releases/ or help/ of this build): from the cache, or fetched and stored. */
async function onDemandFile(rel) {
  const url = new URL(rel, SCOPE).href;
  const cached = await caches.match(url, { cacheName: CACHE });
  if (cached) return cached;
  // integrity: only this build's bytes are stored (a later build's file waits for its own sw.js).
  const r = await fetch(url, { integrity: ON_DEMAND[rel] });
  if (r.ok && !r.redirected) await (await caches.open(CACHE)).put(url, r.clone());
  return r;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  let rel;
  let onDemand = null;
  try {
    const url = new URL(request.url);
    rel = fileFor(url);
    const under = relativeOf(url);
    if (under !== null && Object.hasOwn(ON_DEMAND, under)) onDemand = under;
  } catch {
    return;
  }
  if (onDemand) {
    event.respondWith(onDemandFile(onDemand));
    return;
  }
  if (!rel) return; // not ours: the browser fetches it as if there were no service worker
  event.respondWith(
    (async () => {
      const cached = await caches.match(new URL(rel, SCOPE).href, { cacheName: CACHE });
      return cached || fetch(request);
    })(),
  );
});
