// The npm package as a user gets it: `npm run pack` (scripts/pack-npm.mjs) makes the tarball, a
// fresh project installs it offline, and its page loads node_modules/sglang-preflight/widget.js:
// the widget shows SGLang's recorded message for a command SGLang rejects, its link opens the
// packaged full checker, a Node script uses the wasm binding by package name, the tarball holds
// exactly what ships, and the TypeScript types type-check a consumer.
// Run: npm run build && node --test tests/browser/npm-package.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { ARGS, CHROMIUM, DIST, newPage, cleanState, renders } from './harness.mjs';
import { startServer } from './static-server.mjs';
import { pack, crateVersion } from '../../scripts/pack-npm.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// A command SGLang 0.5.23 rejects, with the verdict recorded from the real package.
const RECORDED = fs
  .readFileSync(path.join(ROOT, 'tests/fixtures/0.5.23/rules_parallel.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))
  .find((r) => r.id === 'PAR040-trigger');
const [RECORDED_COMMAND] = RECORDED.commands;

// The consumer's page: the one line a docs site adds, pointing into node_modules.
const CONSUMER_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>A project that installed sglang-preflight</title>
<script type="module" src="./node_modules/sglang-preflight/widget.js"></script>
</head>
<body>
<sglang-preflight id="rejected" gpu="h100"></sglang-preflight>
</body>
</html>
`;

// A TypeScript consumer (with the package README's example beside it): what it may do type-checks, and each @ts-expect-error line must be an
// error (so the types are not \`any\`).
const CONSUMER_TS = `import 'sglang-preflight';
import type { Report, Diagnostic, SglangPreflightElement } from 'sglang-preflight';
import { PreflightClient, CheckAbandoned } from 'sglang-preflight/client.js';
import init, { check, type CheckOptions } from 'sglang-preflight/pkg/sglang_preflight.js';

const widget: SglangPreflightElement = document.createElement('sglang-preflight');
widget.setAttribute('command', 'python -m sglang.launch_server --tp-size 3');
widget.addEventListener('preflight-checked', (e) => {
  const accepted: boolean = e.detail.accepted;
  const report: Report | null = widget.report;
  console.log(accepted, report?.summary.verdict);
});
widget.addEventListener('preflight-failed', (e) => console.log(e.detail.message));
const found: SglangPreflightElement | null = document.querySelector('sglang-preflight');
// @ts-expect-error the report is read-only
widget.report = null;

export async function viaClient(): Promise<Diagnostic[]> {
  const client = new PreflightClient({ budgetMs: 1000 });
  try {
    const report = await client.check('sglang serve m', { gpu: 'h100', gpus: 8 });
    // @ts-expect-error the verdict is a string
    const wrong: number = report.summary.verdict;
    console.log(wrong);
    return report.commands.flatMap((c) => c.diagnostics);
  } catch (e) {
    if (e instanceof CheckAbandoned) return [];
    throw e;
  }
}

export async function viaBinding(): Promise<string> {
  await init();
  const options: CheckOptions = { sglangVersion: '0.5.23' };
  // @ts-expect-error gpus is a number
  check('x', { gpus: '8' });
  return check('x', options).summary.verdict;
}
export { found };
`;

/** The code blocks of the package's README in language `lang`, in order. */
function readmeBlocks(lang) {
  const readme = fs.readFileSync(path.join(ROOT, 'npm', 'README.md'), 'utf8');
  return [...readme.matchAll(new RegExp('^```' + lang + '\\n([^]*?)^```$', 'gm'))].map((m) => m[1]);
}

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2022', 'dom'],
    skipLibCheck: false,
  },
  files: ['consumer.ts', 'readme-example.ts'],
};

let packed;
let project;
let env;

function npm(args, cwd) {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `npm ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

before(async () => {
  packed = pack();
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'sglang-preflight-npm-'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // Offline, with a cache of its own: the tarball has no dependencies, so nothing is fetched.
  npm(['install', packed.tarball, '--offline', '--no-audit', '--no-fund', '--cache', path.join(project, '.npm-cache')], project);
  fs.writeFileSync(path.join(project, 'index.html'), CONSUMER_PAGE);
  env = { server: await startServer(project, { prefix: '/consumer/', securityHeaders: true }) };
  env.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
});

after(async () => {
  await env?.browser?.close();
  await env?.server.close();
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

function distFiles(dir = DIST, base = DIST) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? distFiles(full, base) : [path.relative(base, full).split(path.sep).join('/')];
  });
}

test('the tarball holds the built site, the types, README, LICENSE and NOTICE, and nothing else', () => {
  const shipped = packed.files.map((f) => f.path).sort();
  const expected = [...distFiles(), 'package.json', 'README.md', 'LICENSE', 'NOTICE', 'widget.d.ts', 'client.d.ts'].sort();
  assert.deepEqual(shipped, expected);
  assert.ok(shipped.includes('pkg/sglang_preflight.d.ts'));
  assert.deepEqual(shipped.filter((f) => /\.map$|node_modules|^tests?\/|\.test\.|__test__/.test(f)), []);
  assert.equal(path.basename(packed.tarball), `sglang-preflight-${crateVersion()}.tgz`);
  // The wasm dominates; the package stays well under a megabyte gzipped, apart from the rule
  // reference (hundreds of small generated pages, shipped so that the cards' code links work
  // from the packaged page and widget), which has a budget of its own.
  const reference = shipped.filter((f) => f.startsWith('rules/') || ['compatibility.html', 'compatibility.js', 'reference.css'].includes(f));
  assert.ok(reference.length > 500, `${reference.length} rule reference files`);
  const referenceGzipped = zlib.gzipSync(Buffer.concat(reference.map((f) => fs.readFileSync(path.join(DIST, f)))), { level: 9 }).length;
  assert.ok(referenceGzipped < 320 * 1024, `rule reference ${referenceGzipped} bytes gzipped`);
  assert.ok(packed.size - referenceGzipped < 1024 * 1024, `packed size ${packed.size}, ${referenceGzipped} of it the rule reference`);
});

test('the installed package: its manifest, licence and notice, and no dependencies', () => {
  const installed = path.join(project, 'node_modules', 'sglang-preflight');
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  assert.equal(manifest.name, 'sglang-preflight');
  assert.equal(manifest.version, crateVersion());
  assert.equal(manifest.license, 'Apache-2.0');
  assert.equal(manifest.private, undefined);
  assert.equal(manifest.dependencies, undefined);
  assert.equal(manifest.scripts, undefined);
  assert.deepEqual(fs.readdirSync(path.join(project, 'node_modules')).filter((n) => !n.startsWith('.')), ['sglang-preflight']);
  const license = fs.readFileSync(path.join(installed, 'LICENSE'), 'utf8');
  assert.match(license, /Apache License\s+Version 2\.0, January 2004/);
  const notice = fs.readFileSync(path.join(installed, 'NOTICE'), 'utf8');
  assert.match(notice, /SGLang is Copyright the SGLang project authors and is licensed under\s+the Apache License, Version 2\.0/);
  assert.ok(notice.endsWith(fs.readFileSync(path.join(ROOT, 'data', 'NOTICE'), 'utf8')), 'NOTICE ends with data/NOTICE');
  // Every entry point resolves to a file of the package.
  const targets = (v) => (typeof v === 'string' ? [v] : Object.values(v).flatMap(targets));
  for (const t of [manifest.main, manifest.types, ...targets(manifest.exports)]) assert.ok(fs.existsSync(path.join(installed, t)), t);
  assert.equal(manifest.exports['./widget.js'].types, './widget.d.ts');
  assert.equal(manifest.exports['./client.js'].types, './client.d.ts');
  assert.equal(manifest.exports['./pkg/sglang_preflight.js'].types, './pkg/sglang_preflight.d.ts');
});

test('a TypeScript consumer type-checks against the installed package', (t) => {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!fs.existsSync(tsc)) {
    t.skip('typescript is not installed (npm ci installs it); the entry points were checked above');
    return;
  }
  fs.writeFileSync(path.join(project, 'consumer.ts'), CONSUMER_TS);
  const [readmeExample] = readmeBlocks('ts');
  assert.ok(readmeExample, 'npm/README.md has a ts example');
  fs.writeFileSync(path.join(project, 'readme-example.ts'), `${readmeExample}export {};\n`);
  fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  const r = spawnSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' });
  assert.equal(r.status, 0, `tsc:\n${r.stdout}${r.stderr}`);
});

// A Node script of the consumer (a CI check, a docs build) uses the binding by package name.
const NODE_CONSUMER = `import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initSync, check } from 'sglang-preflight/pkg/sglang_preflight.js';
initSync({ module: fs.readFileSync(fileURLToPath(import.meta.resolve('sglang-preflight/pkg/sglang_preflight_bg.wasm'))) });
const report = check(process.argv[2], { gpu: 'h100' });
const first = report.commands[0].diagnostics.find((d) => d.origin === 'sglang' && d.severity === 'error');
console.log(JSON.stringify({ accepted: report.accepted, exception: first.exception, message: first.message }));
`;

test('a Node script of the consumer imports the wasm binding by package name', () => {
  fs.writeFileSync(path.join(project, 'check.mjs'), NODE_CONSUMER);
  const r = spawnSync(process.execPath, ['check.mjs', RECORDED.cmd], { cwd: project, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { accepted: false, exception: RECORDED_COMMAND.exc_type, message: RECORDED_COMMAND.message });
});

test("the package README's Node example runs against the installed package", () => {
  const [example] = readmeBlocks('js');
  assert.ok(example, 'npm/README.md has a js example');
  fs.writeFileSync(path.join(project, 'readme-example.mjs'), example);
  const r = spawnSync(process.execPath, ['readme-example.mjs'], { cwd: project, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `SGLang 0.5.23 on 8×H100 would reject this: 1 error\nPAR040 ValueError: ${RECORDED_COMMAND.message}\n`);
});

test("the installed widget shows SGLang's recorded message, and its link opens the packaged checker", async () => {
  assert.equal(RECORDED_COMMAND.verdict, 'error');
  const { page, context, rec } = await newPage(env);
  try {
    await page.goto(env.server.url + 'index.html');
    await page.evaluate((command) => document.querySelector('#rejected').setAttribute('command', command), RECORDED.cmd);
    const widget = page.locator('sglang-preflight#rejected');
    await widget.locator('.verdict:not(.pending)').waitFor({ timeout: 20000 });
    assert.match(await widget.locator('.verdict').textContent(), /^SGLang 0\.5\.23 on 8×H100 would reject this/);
    assert.ok((await widget.locator('.message').allTextContents()).includes(RECORDED_COMMAND.message));
    // The worker and the wasm came from the installed package.
    const fromPackage = (file) => env.server.log.includes(`/consumer/node_modules/sglang-preflight/${file}`);
    assert.ok(fromPackage('worker.js') && fromPackage('pkg/sglang_preflight_bg.wasm'), env.server.log.join('\n'));
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });

    // "Open in the full checker": the page that ships next to widget.js, with the same verdict.
    const href = await widget.locator('.foot a').getAttribute('href');
    assert.ok(href.startsWith(`${env.server.url}node_modules/sglang-preflight/index.html#`), href);
    await page.goto(href);
    await renders(page, 1);
    await page.waitForFunction(() => !document.querySelector('#verdict').classList.contains('pending'));
    assert.ok((await page.locator('#cards .message').allTextContents()).includes(RECORDED_COMMAND.message));
    assert.deepEqual(await cleanState(page, rec), { csp: [], errors: [], external: [], dialogs: [] });
  } finally {
    await context.close();
  }
});
