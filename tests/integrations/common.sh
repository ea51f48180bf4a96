# Shared set-up of the integration scripts (sourced): the CLI built here (or
# SGLANG_PREFLIGHT_BIN) as $BIN, the real `pre-commit` (and PyYAML with it) in a venv cached
# under ~/.cache/sglang-preflight as $VENV, and a scratch folder $WORK removed on exit.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PRE_COMMIT_VERSION=4.7.0
VENV=${SGLANG_PREFLIGHT_PRE_COMMIT_VENV:-$HOME/.cache/sglang-preflight/pre-commit-venv}

if [ -z "${SGLANG_PREFLIGHT_BIN:-}" ]; then
  (cd "$ROOT" && cargo build --locked --quiet --bin sglang-preflight)
fi
BIN=${SGLANG_PREFLIGHT_BIN:-$ROOT/target/debug/sglang-preflight}
if [ "$("$VENV/bin/pre-commit" --version 2>/dev/null)" != "pre-commit $PRE_COMMIT_VERSION" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "pre-commit==$PRE_COMMIT_VERSION"
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
