#!/usr/bin/env bash
# Build the static site into dist/: the Rust core compiled to WebAssembly (wasm-pack, then
# binaryen's wasm-opt from npm), the page, the worker, the widget and the example docs page.
# Everything in dist/ uses relative URLs, so it can be served from any static host and path.
# Needs the tools scripts/setup.sh installs.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PKG=target/wasm-pkg
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"

# Optimisation level of the wasm: "z" unless WASM_OPT_LEVEL says otherwise (the native CLI keeps
# the release profile's). Measured with bench/web/budgets.mjs in Chromium, steady state:
#   z: 385 KB gzipped, 29 µs per check   s: 434 KB, 22 µs   3: 465 KB, 17 µs
# Every level is inside the 50 µs check budget, so the page takes the smallest download.
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${WASM_OPT_LEVEL:-z}"
if command -v wasm-pack >/dev/null 2>&1; then
  # --no-pack: no package.json in the output; --no-opt is implied by the Cargo.toml metadata.
  wasm-pack build --target web --release --out-dir "$PKG" --out-name sglang_preflight --no-pack . >&2
else
  # Same output without wasm-pack: cargo + wasm-bindgen (the version pinned in Cargo.lock).
  cargo build --lib --release --target wasm32-unknown-unknown
  wasm-bindgen --target web --out-dir "$PKG" --out-name sglang_preflight \
    target/wasm32-unknown-unknown/release/sglang_preflight.wasm
fi

rm -rf dist
mkdir -p dist/pkg
cp www/*.html www/*.js www/*.css www/*.svg dist/
# The HTTP headers for static hosts (Netlify / Cloudflare Pages), generated from
# scripts/security-headers.mjs; the check fails if it, the nginx snippet or a page's CSP <meta> drifted.
node scripts/security-headers.mjs check
cp www/_headers dist/_headers
cp "$PKG/sglang_preflight.js" "$PKG/sglang_preflight.d.ts" dist/pkg/
# Size-optimise the wasm (binaryen from npm; wasm-pack's own download is disabled). Cached:
# re-run only when wasm-bindgen's output changed.
OPT="$PKG/sglang_preflight_opt.wasm"
if [ ! -f "$OPT" ] || [ "$PKG/sglang_preflight_bg.wasm" -nt "$OPT" ]; then
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    --enable-reference-types --enable-multivalue --strip-debug --strip-producers "$PKG/sglang_preflight_bg.wasm" -o "$OPT.tmp"
  mv "$OPT.tmp" "$OPT"
fi
cp "$OPT" dist/pkg/sglang_preflight_bg.wasm
# The releases the wasm does not carry (it carries the newest only, see build.rs): each one's
# schema, fetched by the worker when a check asks for that release (dist/releases/<version>.json).
# Minified by dropping the whitespace between tokens only, so every value keeps its exact text.
node --input-type=module - <<'JS'
import fs from 'node:fs';
// Newest first, ordered as build.rs orders them (a part that is not a number counts as 0).
const key = (v) => v.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : 0));
const newer = (a, b) => { const [x, y] = [key(a), key(b)]; for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] || 0) !== (y[i] || 0)) return (y[i] || 0) - (x[i] || 0); return 0; };
const versions = fs.readdirSync('data').filter((d) => d.startsWith('sglang-') && fs.existsSync(`data/${d}/schema.json`)).map((d) => d.slice('sglang-'.length)).sort(newer);
function minify(json) {
  let out = '';
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      let j = i + 1;
      while (j < json.length && json[j] !== '"') j += json[j] === '\\' ? 2 : 1;
      out += json.slice(i, j + 1);
      i = j;
    } else if (!' \t\n\r'.includes(c)) out += c;
  }
  JSON.parse(out); // still JSON
  return out;
}
fs.mkdirSync('dist/releases', { recursive: true });
for (const v of versions.slice(1)) fs.writeFileSync(`dist/releases/${v}.json`, minify(fs.readFileSync(`data/sglang-${v}/schema.json`, 'utf8')));
console.error(`dist/releases/: ${versions.slice(1).join(', ')} (the wasm carries ${versions[0]})`);
JS
# The service worker's precache list: every file the page can load (not _headers, the .d.ts or
# sw.js itself), each with its SRI hash, and a version made of all of them. Written into
# dist/sw.js, so each build's sw.js differs: browsers install it and it drops the last build's cache.
# The releases/ files are not precached (only the default release is part of everyone's download):
# listed apart with their hashes, they are cached when first fetched.
node --input-type=module - <<'JS'
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
const files = {};
const releases = {};
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, e.name);
    const rel = path.relative('dist', full).split(path.sep).join('/');
    if (e.isDirectory()) walk(full);
    else if (!['_headers', 'sw.js'].includes(rel) && !rel.endsWith('.d.ts'))
      (rel.startsWith('releases/') ? releases : files)[rel] = `sha256-${crypto.createHash('sha256').update(fs.readFileSync(full)).digest('base64')}`;
  }
};
walk('dist');
for (const need of ['index.html', 'docs-example.html', 'worker.js', 'favicon.svg', 'pkg/sglang_preflight.js', 'pkg/sglang_preflight_bg.wasm'])
  if (!files[need]) throw new Error(`sw precache: dist/${need} is missing`);
const version = crypto.createHash('sha256').update(JSON.stringify([files, releases])).digest('hex').slice(0, 16);
const src = fs.readFileSync('dist/sw.js', 'utf8');
const marked = /\/\* build:manifest \*\/[^]*?\/\* end:manifest \*\//;
if (!marked.test(src)) throw new Error('www/sw.js lost its /* build:manifest */ ... /* end:manifest */ markers');
fs.writeFileSync('dist/sw.js', src.replace(marked, () => JSON.stringify({ version, files, releases }, null, 2)));
console.error(`dist/sw.js: precaches ${Object.keys(files).length} files, caches ${Object.keys(releases).length} releases/ files when fetched, version ${version}`);
JS
for f in dist/pkg/sglang_preflight_bg.wasm dist/pkg/sglang_preflight.js dist/releases/*.json; do
  printf '%8d bytes  %8d gzipped  %s\n' "$(wc -c <"$f")" "$(gzip -9c "$f" | wc -c)" "$f" >&2
done
echo "dist/ is ready: serve it with scripts/serve.sh (or any static file server)." >&2
