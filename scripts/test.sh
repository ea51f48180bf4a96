#!/usr/bin/env bash
# Run every test of the project: lints, Rust unit/integration/conformance tests, a live
# re-recording sample against the real sglang package, a short fuzz run, and the browser tests.
# Installs what it needs (idempotent; cached on a machine that ran it before).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
# Each step says when it started (seconds since this script did), so a slow step shows in CI's log.
step() { printf '\n==> [%ds] %s\n' "$SECONDS" "$*"; }
# The debug build at opt-level 1 (overflow checks and debug assertions stay on), for every cargo
# command below, so they share one build: the conformance test over ~48,000 fixtures and the
# property tests run about 7x faster (measured on 2 cores: the Rust tests' run time 523 -> 69 s,
# for +136 s of compiling the crate). Plain `cargo test` keeps the usual debug build.
export CARGO_PROFILE_DEV_OPT_LEVEL=1
# A clean CI clone gains nothing from incremental compilation's caches, only their cost.
[ -z "${CI:-}" ] || export CARGO_INCREMENTAL=0

step "setup (toolchains, npm packages, Chromium, SGLang recorder venv)"
bash scripts/setup.sh
bash tools/recorder/setup.sh >/dev/null
bash tools/recorder/setup.sh --version 0.5.18 >/dev/null

step "lints (clippy, panics denied in the core)"
bash scripts/lint.sh

step "Rust tests (unit, conformance against recorded SGLang verdicts, fixes, docs, bad input)"
LOG=$(mktemp)
status=0
cargo test --locked --all-targets >"$LOG" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  cat "$LOG"
  echo "cargo test failed (exit $status)" >&2
  exit "$status"
fi
grep -E '^(test result|running|conformance|fix re-check|pyjson)' "$LOG" || true

step "raise-site coverage (docs/coverage.md current, every in-scope site accounted for)"
COVERAGE_NO_BUILD=1 python3 tools/coverage.py --check

step "live re-record sample: committed fixtures vs the real sglang package"
python3 tools/recorder/record.py --check --sample "${RECORD_SAMPLE:-40}" tests/cases/*.jsonl
# The oldest release carried, too (its parser stage is exact; tests/fixtures/0.5.18/).
python3 tools/recorder/record.py --check --version 0.5.18 --sample "${RECORD_SAMPLE_OLDEST:-20}" tests/cases/*.jsonl

step "short fuzz run"
bash scripts/fuzz-ci.sh

step "integrations: the pre-commit hooks under the real pre-commit, the GitHub Action's steps"
bash tests/integrations/pre-commit.sh
bash tests/integrations/action.sh

step "browser tests (Debian Chromium via playwright-core)"
npm run --silent build
npm run --silent test:browser

echo "all tests passed in ${SECONDS}s"
