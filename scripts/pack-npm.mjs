// Assemble the npm package `sglang-preflight` from dist/ and npm/, and pack it:
//   node scripts/pack-npm.mjs        (npm run pack)
// builds dist/ first if it is missing (scripts/build-web.sh), stages the package in
// target/npm/package/ (all of dist/, the hand-written types, README, LICENSE, NOTICE, and
// npm/package.json with the version of Cargo.toml), runs `npm pack` into target/npm/ and prints
// the tarball's path, sizes and files. The whole of dist/ ships: the widget links to index.html
// next to it, and sw.js precaches every file of the build.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const SOURCE = path.join(ROOT, 'npm');
export const OUT = path.join(ROOT, 'target', 'npm');
const STAGE = path.join(OUT, 'package');

/** Files npm puts in every package whatever `files` says. */
const ALWAYS_SHIPPED = ['package.json', 'README.md', 'LICENSE'];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}):\n${r.stderr || ''}`);
  return r.stdout;
}

/** The crate's version: the package has the same. */
export function crateVersion() {
  const toml = fs.readFileSync(path.join(ROOT, 'Cargo.toml'), 'utf8');
  const section = /^\[package\]\s*$([^]*?)(?=^\[|(?![^]))/m.exec(toml);
  const version = section && /^version\s*=\s*"([^"]+)"\s*$/m.exec(section[1]);
  if (!version) throw new Error('Cargo.toml: no version in [package]');
  return version[1];
}

function filesUnder(dir, base = dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(full, base));
    else out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out.sort();
}

/** Every string target of an `exports` map. */
function exportTargets(value) {
  if (typeof value === 'string') return [value];
  return Object.values(value || {}).flatMap(exportTargets);
}

/** Stage the package directory; returns its package.json. */
export function stage() {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) {
    console.error('dist/ is missing: building it (scripts/build-web.sh)');
    run('bash', ['scripts/build-web.sh'], { stdio: ['ignore', 'inherit', 'inherit'] });
  }
  fs.rmSync(STAGE, { recursive: true, force: true });
  fs.mkdirSync(STAGE, { recursive: true });
  fs.cpSync(DIST, STAGE, { recursive: true });
  for (const f of ['README.md', 'LICENSE', 'widget.d.ts', 'client.d.ts']) fs.copyFileSync(path.join(SOURCE, f), path.join(STAGE, f));
  // Our notice, then the repository's notice of the SGLang data the wasm carries.
  fs.writeFileSync(path.join(STAGE, 'NOTICE'), fs.readFileSync(path.join(SOURCE, 'NOTICE'), 'utf8') + fs.readFileSync(path.join(ROOT, 'data', 'NOTICE'), 'utf8'));
  const { name, ...rest } = JSON.parse(fs.readFileSync(path.join(SOURCE, 'package.json'), 'utf8'));
  const manifest = { name, version: crateVersion(), ...rest };
  fs.writeFileSync(path.join(STAGE, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  // What ships is exactly what is staged: a new file in dist/ that `files` does not list would
  // be missing from the package (and sw.js would fail to precache it), so that fails here.
  // An entry ending in "/" is a folder: every file under it (releases/: one file per SGLang release
  // the wasm does not carry).
  const listed = new Set([...manifest.files, ...ALWAYS_SHIPPED]);
  const folders = manifest.files.filter((f) => f.endsWith('/'));
  const staged = filesUnder(STAGE);
  const unlisted = staged.filter((f) => !listed.has(f) && !folders.some((d) => f.startsWith(d)));
  if (unlisted.length) throw new Error(`npm/package.json "files" does not list ${unlisted.join(', ')}`);
  const absent = manifest.files.filter((f) => (f.endsWith('/') ? !staged.some((s) => s.startsWith(f)) : !staged.includes(f)));
  if (absent.length) throw new Error(`npm/package.json "files" lists ${absent.join(', ')}, which the package does not have`);
  const dangling = [...exportTargets(manifest.exports), manifest.main, manifest.types].filter((t) => !fs.existsSync(path.join(STAGE, t)));
  if (dangling.length) throw new Error(`npm/package.json points to missing files: ${dangling.join(', ')}`);
  return manifest;
}

/**
 * Stage and pack. Returns { tarball (absolute path), size, unpackedSize, files: [{ path, size }] }.
 */
export function pack() {
  stage();
  const out = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', OUT], { cwd: STAGE });
  const [info] = JSON.parse(out);
  return {
    tarball: path.join(OUT, info.filename),
    size: info.size,
    unpackedSize: info.unpackedSize,
    files: info.files.map(({ path: p, size }) => ({ path: p, size })).sort((a, b) => (a.path < b.path ? -1 : 1)),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const info = pack();
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  for (const f of info.files) console.log(`${String(f.size).padStart(9)}  ${f.path}`);
  console.log(`${path.relative(ROOT, info.tarball)}: ${kb(info.size)} packed, ${kb(info.unpackedSize)} unpacked, ${info.files.length} files`);
}
