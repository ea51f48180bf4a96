#!/usr/bin/env bash
# Build the page and serve dist/ on http://127.0.0.1:${PORT:-8080}/ (any static server works;
# this one knows .wasm). Installs the build tools first (idempotent; no browser needed).
# It sends the headers of scripts/security-headers.mjs, as dist/_headers and
# deploy/nginx-preflight.conf do on real hosts (see docs/hosting.md).
# Usage: scripts/serve.sh [PORT] [SUBPATH]   e.g. scripts/serve.sh 8080 /docs/preflight/
#        SERVE_NO_BUILD=1 scripts/serve.sh   serve an existing dist/ as it is
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${SERVE_NO_BUILD:-}" != 1 ]; then
  SETUP_NO_BROWSER=1 bash scripts/setup.sh
  npm run --silent build
fi
[ -f dist/index.html ] || { echo "dist/ is missing: run npm run build first" >&2; exit 1; }
echo "serving dist/ on http://127.0.0.1:${1:-${PORT:-8080}}${2:-/}" >&2
exec node tests/browser/static-server.mjs dist "${1:-${PORT:-8080}}" "${2:-/}"
