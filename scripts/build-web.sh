#!/usr/bin/env bash
# Build the static site into dist/: the Rust core compiled to WebAssembly (cargo and wasm-bindgen,
# then binaryen's wasm-opt from npm), the page, the worker, the widget and the example docs page.
# Everything in dist/ uses relative URLs, so it can be served from any static host and path.
# Needs the tools scripts/setup.sh installs.
# Page weight (npm run bench:web: what the page loads for its example, gzip -9, KB of 1024 bytes;
# issue 14's budget is 250): 736.0 -> 703.7 on 2026-12-04 by minifying the scripts and stylesheets
# and trimming models/catalog.json (below), and by the wasm's site tables going without their ids
# (src/release.rs Site::id, -6.5). Of the 703.7, the wasm is 634.8 (its code section 443, its data
# 182), the catalog 24.3, the scripts 31.7, the rest (HTML, CSS, the cards' explanations) 12.9.
# Brotli: 570.1 -> 545.4.
# 2026-12-05 (issue 14's speed budgets; bench:web, medians of 3 runs on the 2 cores shared with
# other work, load 6-8): page 710.3 -> 711.6 KB gzipped (the wasm 634.1 -> 635.8, the check's
# speed-ups), the check in the worker 84.0 -> 57.5 µs (single rounds ranged 47-111 µs; interleaved
# in node, 8 pairs: 63.1 -> 58.4 µs), cold load to first diagnostics 416.6 -> 420.2 ms (noise),
# with the model 534.2 -> 443.8 ms.
# 2026-12-05: 710.3 -> 678.6 (brotli 550.4 -> 529.6), all of it the wasm's code section (458.6 ->
# 427.1 KB; its data 186.6): the wasm 649,282 -> 618,495 bytes gzip -9 by reading JSON (schemas,
# catalog, architecture lists, options) with src/from_json.rs's readers over serde_json::Value
# instead of serde's derived visitors (-25.1 KB in four steps), and three stable sorts less
# (-5.8: a slice sort and two maps built by collect). Measured and not taken: opt-level "s" for
# zmij (its table-free float printer: +1.2 KB), LLVM -inline-threshold=0 (+2.3 KB), wasm-opt -tnh
# (-0.3 KB, and it would assume traps away), --inline-functions-with-loops, -O3 before -Oz (no
# gain). Of what is left, the data section is the site tables and message templates (158 KB raw,
# 45 KB gz), the page schema (141 KB, 14.5 KB gz) and core's float tables (31 KB, 16.7 KB gz).
# 2026-12-06 (bench:web on an idle machine; 2 cores): cold load to first diagnostics 685 -> 554 ms
# median (the service worker registered after the first report, www/boot.js), the check in the worker
# 165 -> 152 µs (runs_step kept with the compiled pipeline, the page's options read once), the page
# 697.1 -> 698.2 KB. Where the cold load goes now: ~380 ms until the worker has the module (the
# page's thread, busy with its first layouts, hands it over), ~150 ms for the first check's lazy
# compilation of ~1,000 functions, ~50 ms for the page's check and drawing. Measured and not taken:
# a JSON writer for the page report whose writes inline (+2.4 KB, no faster), CSS containment of the
# backdrop and cards, the worker's warm-up on the page's own first command, boot.js async, the
# textarea's first fit in a frame callback (none beyond noise in 14 interleaved loads each).
# 2026-12-06, later (bench:web, idle machine): page 699.7 KB gzipped, first diagnostics 557 ms and
# that report painted 589 ms (bench:web now times the paint too: sizing the textarea once at start
# took 554 -> 520 ms to the report, 575 -> 574 ms painted, so it was not taken), the check 163 µs.
# Where a cold load goes (phases timed from the page, medians of 10): the HTML at ~10 ms, boot.js
# running at ~210 (as an async module too; its file arrives at ~100-180 ms), the wasm compiled
# at ~235, the worker's scripts run at ~275 and its first message delivered at ~340 (the page's
# thread is busy with app.js's start-up), instantiation and the warm-up check's lazy compilation
# until ~500, the page's report drawn by ~610. Measured and not taken: boot.js inline in the HTML
# (the worker made at 54 ms instead of ~210; painted 638 -> 619 ms, within noise, and a CSP hash to
# keep), boot.js before the preload (no change). The wasm with Rust nightly (2026-05-19):
# 637.1 -> 623.3 KB gzipped (its LLVM), -Zbuild-std 617.6, with -Cpanic=immediate-abort 603.7:
# not taken (a nightly toolchain and std built from source in every build, for 5%).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PKG=target/wasm-pkg
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"

# Optimisation level of the wasm: "z" unless WASM_OPT_LEVEL says otherwise (the native CLI keeps
# the release profile's). Measured with bench/web/budgets.mjs in Chromium, steady state:
#   z: 385 KB gzipped, 29 µs per check   s: 434 KB, 22 µs   3: 465 KB, 17 µs
# Every level is inside the 50 µs check budget, so the page takes the smallest download.
# Measured again on 2026-12-04 (wasm-opt -Oz output, gzip -9): z 690 KB, s 786 KB (sizes only).
# z on 2026-12-05 (bench:web): 58 µs per check, on a loaded machine (the budget is 50 µs).
export CARGO_PROFILE_RELEASE_OPT_LEVEL="${WASM_OPT_LEVEL:-z}"
# cargo, then wasm-bindgen at the version pinned in Cargo.lock (what wasm-pack would run; not
# installing wasm-pack saves a fresh machine minutes of compiling).
cargo build --lib --release --target wasm32-unknown-unknown
wasm-bindgen --target web --out-dir "$PKG" --out-name sglang_preflight \
  target/wasm32-unknown-unknown/release/sglang_preflight.wasm

rm -rf dist
mkdir -p dist/pkg
cp www/*.html www/*.js www/*.css www/*.svg dist/
# The HTTP headers for static hosts (Netlify / Cloudflare Pages), generated from
# scripts/security-headers.mjs; the check fails if it, the nginx snippet or a page's CSP <meta> drifted.
node scripts/security-headers.mjs check
cp www/_headers dist/_headers
# The rule pages and the compatibility matrix, generated by the native CLI from the rules'
# metadata (not in the wasm); their stylesheet and the matrix's filter are www/reference.css and
# www/compatibility.js.
cargo run --quiet --bin sglang-preflight -- reference --html dist
# The start-up check data of each release whose checks are modelled, as the native build compiles
# it in (`release-checks`: its sites, pipeline, step maps and writes): the releases/<version>.json
# of such a release carries it under "checks", so the page registers the release the CLI checks.
cargo run --quiet --bin sglang-preflight -- release-checks >"$PKG/release-checks.json"
# The rules' example commands and explanations, which the wasm goes without (src/lib.rs `ex!`,
# `expl!`), from the native `reference --json`: rules/examples.json, { code: { example_bad,
# example_good } } (the page never shows them), and rules/explanations/<family>.json, { code:
# explanation } for the codes of one family (`KV029` -> KV.json), which the page and the widget
# fetch when they first show a card of that family (www/render.js).
cargo run --quiet --bin sglang-preflight -- reference --json | node -e '
const fs = require("fs");
const rules = JSON.parse(fs.readFileSync(0, "utf8"));
fs.writeFileSync("dist/rules/examples.json", JSON.stringify(Object.fromEntries(rules.map((r) => [r.code, { example_bad: r.example_bad, example_good: r.example_good }]))));
const families = {};
for (const r of rules) (families[r.code.replace(/\d+$/, "")] ??= {})[r.code] = r.explanation;
fs.mkdirSync("dist/rules/explanations");
for (const [family, texts] of Object.entries(families)) fs.writeFileSync(`dist/rules/explanations/${family}.json`, JSON.stringify(texts));
'
node scripts/security-headers.mjs check-dist
cp "$PKG/sglang_preflight.js" "$PKG/sglang_preflight.d.ts" dist/pkg/
# Minify the scripts and stylesheets in dist/ (www/ stays readable; no source maps ship). Each file
# on its own, as the browser loads it: ES modules keep their imports, exports and import.meta.url.
# sw.js is left as it is: the manifest is written into its marked comment below. Measured on
# 2026-12-04 (gzip -9): the 10 scripts the page loads 47.1 -> 28.9 KB, styles.css 3.2 -> 2.7 KB,
# pkg/sglang_preflight.js 6.1 -> 3.0 KB.
esbuild $(ls dist/*.js | grep -v '^dist/sw\.js$' | grep -v '^dist/worker\.js$') dist/pkg/sglang_preflight.js --minify --format=esm --log-level=warning --allow-overwrite --outdir=dist --outbase=dist
# The worker with the wasm glue inside it: a worker fetches its imports only once its own script
# has arrived, one more request on the way to the first report (pkg/sglang_preflight.js stays for
# other importers). Measured on 2026-12-05 in headless Chromium (2 cores under load; medians of 9
# cold loads, two rounds): worker.js's response to its script running 30 and 73 ms -> 19 and 20 ms.
esbuild dist/worker.js --bundle --minify --format=esm --log-level=warning --allow-overwrite --outfile=dist/worker.js
esbuild dist/*.css --minify --log-level=warning --allow-overwrite --outdir=dist
# Size-optimise the wasm (binaryen's wasm-opt, from npm). Cached:
# re-run only when wasm-bindgen's output changed. --low-memory-unused (Rust puts nothing in the
# first 1 KB: the stack is below the data) and --zero-filled-memory (the wasm's own memory starts
# zeroed) let -Oz drop zero bytes and fold addresses: ~1.6 KB gzipped. Measured and not taken:
# --converge (0.8 KB, twice the time), -Oz twice (0.5 KB), --gufa (larger).
OPT="$PKG/sglang_preflight_opt.wasm"
if [ ! -f "$OPT" ] || [ "$PKG/sglang_preflight_bg.wasm" -nt "$OPT" ]; then
  wasm-opt -Oz --low-memory-unused --zero-filled-memory --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    --enable-reference-types --enable-multivalue --strip-debug --strip-producers "$PKG/sglang_preflight_bg.wasm" -o "$OPT.tmp"
  mv "$OPT.tmp" "$OPT"
fi
cp "$OPT" dist/pkg/sglang_preflight_bg.wasm
# The releases the wasm does not carry (it carries the newest only, see build.rs): each one's
# schema, fetched by the worker when a check asks for that release (dist/releases/<version>.json),
# with its check data ("checks") when its start-up checks are modelled (src/release.rs register).
# Minified by dropping the whitespace between tokens only, so every value keeps its exact text.
PKG="$PKG" node --input-type=module - <<'JS'
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
// An older release's help text that is the carried release's (that of its first action with the
// same dest) is left out: the core takes it from help/<carried>.json once the worker loads that
// (src/release.rs inherit_newest_help), ~20 KB gzipped less per release.
const carriedSchema = JSON.parse(fs.readFileSync(`data/sglang-${versions[0]}/schema.json`, 'utf8'));
const checks = JSON.parse(fs.readFileSync(`${process.env.PKG}/release-checks.json`, 'utf8'));
const carriedHelp = new Map();
for (const a of carriedSchema.actions) if (!carriedHelp.has(a.dest)) carriedHelp.set(a.dest, a.help ?? null);
for (const v of versions.slice(1)) {
  const schema = JSON.parse(fs.readFileSync(`data/sglang-${v}/schema.json`, 'utf8'));
  for (const a of schema.actions) if (carriedHelp.has(a.dest) && carriedHelp.get(a.dest) === (a.help ?? null)) delete a.help;
  if (checks[v]) schema.checks = checks[v];
  fs.writeFileSync(`dist/releases/${v}.json`, minify(JSON.stringify(schema)));
}
const modelled = versions.slice(1).filter((v) => checks[v]);
console.error(`dist/releases/: ${versions.slice(1).join(', ')} (the wasm carries ${versions[0]}; with check data: ${modelled.join(', ') || 'none'})`);
// The model catalog with SGLang's architecture lists of each release that has them: fetched by the
// worker when a command names a model (src/models.rs ModelData), cached like a release's file (not precached).
const lists = {};
for (const v of versions) if (fs.existsSync(`data/sglang-${v}/model-lists.json`)) lists[v] = JSON.parse(fs.readFileSync(`data/sglang-${v}/model-lists.json`, 'utf8'));
fs.mkdirSync('dist/models', { recursive: true });
// Without what the core never reads and is no config's provenance (src/models.rs Catalog,
// CatalogEntry): each model's notes (how the file was taken) and the configs the catalog tool left
// out, with why. Each model keeps its sources and licence. 28.3 -> 24.3 KB gzipped (2026-12-04).
const catalog = JSON.parse(fs.readFileSync('data/models/catalog.json', 'utf8'));
delete catalog.left_out;
for (const entry of Object.values(catalog.models)) delete entry.notes;
fs.writeFileSync('dist/models/catalog.json', JSON.stringify({ catalog, lists }));
console.error(`dist/models/catalog.json: ${Object.keys(JSON.parse(fs.readFileSync('data/models/catalog.json', 'utf8')).models).length} models`);
// The help texts of the carried release's flags, which its wasm schema goes without (build.rs):
// one per action, in the schema's order, fetched by the worker when the page shows them.
fs.mkdirSync('dist/help', { recursive: true });
const carried = JSON.parse(fs.readFileSync(`data/sglang-${versions[0]}/schema.json`, 'utf8'));
fs.writeFileSync(`dist/help/${versions[0]}.json`, JSON.stringify({ sglang_version: carried.sglang_version, help: carried.actions.map((a) => a.help ?? null) }));
console.error(`dist/help/: ${versions[0]}`);
JS
# The service worker's precache list: every file the page can load (not _headers, the .d.ts,
# the rule pages or sw.js itself), each with its SRI hash, and a version made of all of them. Written into
# dist/sw.js, so each build's sw.js differs: browsers install it and it drops the last build's cache.
# The releases/, models/ and help/ files are not precached (only the default release's flags are part of
# everyone's download): listed apart with their hashes, they are cached when first fetched.
node --input-type=module - <<'JS'
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
const files = {};
const releases = {};
const help = {};
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, e.name);
    const rel = path.relative('dist', full).split(path.sep).join('/');
    if (e.isDirectory()) walk(full);
    // The rule pages and the matrix (hundreds of pages, with their stylesheet and script) are not
    // precached: the network serves them. The rules' explanations are: the cards show them offline too.
    else if (!['_headers', 'sw.js', 'compatibility.html', 'compatibility.js', 'reference.css'].includes(rel) && !rel.endsWith('.d.ts') && (!rel.startsWith('rules/') || rel.startsWith('rules/explanations/')))
      (rel.startsWith('releases/') || rel.startsWith('models/') ? releases : rel.startsWith('help/') ? help : files)[rel] = `sha256-${crypto.createHash('sha256').update(fs.readFileSync(full)).digest('base64')}`;
  }
};
walk('dist');
for (const need of ['index.html', 'docs-example.html', 'worker.js', 'favicon.svg', 'pkg/sglang_preflight.js', 'pkg/sglang_preflight_bg.wasm'])
  if (!files[need]) throw new Error(`sw precache: dist/${need} is missing`);
if (!Object.keys(files).some((f) => f.startsWith('rules/explanations/'))) throw new Error('sw precache: dist/rules/explanations/ is empty');
const version = crypto.createHash('sha256').update(JSON.stringify([files, releases, help])).digest('hex').slice(0, 16);
const src = fs.readFileSync('dist/sw.js', 'utf8');
const marked = /\/\* build:manifest \*\/[^]*?\/\* end:manifest \*\//;
if (!marked.test(src)) throw new Error('www/sw.js lost its /* build:manifest */ ... /* end:manifest */ markers');
fs.writeFileSync('dist/sw.js', src.replace(marked, () => JSON.stringify({ version, files, releases, help }, null, 2)));
console.error(`dist/sw.js: precaches ${Object.keys(files).length} files, caches ${Object.keys(releases).length} releases/ and ${Object.keys(help).length} help/ files when fetched, version ${version}`);
JS
for f in dist/pkg/sglang_preflight_bg.wasm dist/pkg/sglang_preflight.js dist/help/*.json dist/releases/*.json dist/models/*.json; do
  printf '%8d bytes  %8d gzipped  %s\n' "$(wc -c <"$f")" "$(gzip -9c "$f" | wc -c)" "$f" >&2
done
echo "dist/ is ready: serve it with scripts/serve.sh (or any static file server)." >&2
