// A tiny static file server for dist/, on 127.0.0.1 only, optionally under a sub-path (to
// prove the site uses relative URLs). Used by the browser tests, the benchmark and serve.sh.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { headersFor } from '../../scripts/security-headers.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.ts': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Start serving `root` under `prefix` (e.g. '/docs/preflight/'). Resolves to
 * { url, port, close(), log, responses } where log lists every request path and responses every
 * answered request's { path, status } (in the order they finished).
 * `extra` maps sub-paths of the prefix to other directories (e.g. { '__test__/': dir }): the
 * tests and the benchmark serve their own entry modules next to the page this way, so none of
 * them has to ship in dist/.
 * `securityHeaders`: send the headers of scripts/security-headers.mjs (the same as dist/_headers
 * and deploy/nginx-preflight.conf): CSP + X-Frame-Options on pages, the worker CSP on worker.js,
 * nosniff, Referrer-Policy and CORS/CORP on everything. serve.sh turns it on.
 */
export function startServer(root, { port = 0, prefix = '/', gzip = false, extra = {}, securityHeaders = false } = {}) {
  const base = path.resolve(root);
  if (!prefix.endsWith('/')) prefix += '/';
  const log = [];
  const responses = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    log.push(url.pathname);
    res.on('finish', () => responses.push({ path: url.pathname, status: res.statusCode }));
    let p = decodeURIComponent(url.pathname);
    if (!p.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    p = p.slice(prefix.length);
    if (p === '' || p.endsWith('/')) p += 'index.html';
    const rel = p;
    let dir = base;
    for (const [sub, other] of Object.entries(extra)) {
      if (p.startsWith(sub)) {
        dir = path.resolve(other);
        p = p.slice(sub.length);
        break;
      }
    }
    const file = path.resolve(dir, p);
    if (!file.startsWith(dir + path.sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404).end('not found');
        return;
      }
      const headers = { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-cache' };
      if (securityHeaders) for (const [k, v] of Object.entries(headersFor(rel))) headers[k.toLowerCase()] = v;
      if (gzip && /gzip/.test(req.headers['accept-encoding'] || '')) {
        data = zlib.gzipSync(data, { level: 9 });
        headers['content-encoding'] = 'gzip';
      }
      headers['content-length'] = data.length;
      res.writeHead(200, headers);
      res.end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      resolve({
        port: actual,
        origin: `http://127.0.0.1:${actual}`,
        url: `http://127.0.0.1:${actual}${prefix}`,
        log,
        responses,
        close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [root = 'dist', port = '8080', prefix = '/'] = process.argv.slice(2);
  startServer(root, { port: Number(port), prefix, gzip: true, securityHeaders: true }).then((s) => {
    console.log(`serving ${root} at ${s.url}`);
  });
}
