#!/usr/bin/env bash
# Serve dist/ on http://127.0.0.1:${PORT:-8080}/ (any static server works; this one knows .wasm).
# Usage: scripts/serve.sh [PORT] [SUBPATH]   e.g. scripts/serve.sh 8080 /docs/preflight/
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/index.html ] || { echo "dist/ is missing: run npm run build first" >&2; exit 1; }
exec node tests/browser/static-server.mjs dist "${1:-${PORT:-8080}}" "${2:-/}"
