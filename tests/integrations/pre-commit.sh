#!/usr/bin/env bash
# The hooks of .pre-commit-hooks.yaml, run by the real `pre-commit` in a throwaway git
# repository: a commit with a bad launch is refused with SGLang's message, the fixed file is
# committed, files of no known kind are not checked, and several files go to one call.
#
# Uses the `sglang-preflight-system` hook with the CLI built here (target/debug; or
# SGLANG_PREFLIGHT_BIN). The `sglang-preflight` hook (language: rust) differs only in that
# pre-commit builds the CLI itself with `cargo install` (a release build, minutes): set
# SGLANG_PREFLIGHT_TEST_RUST_HOOK=1 to test that one too.
# pre-commit lives in a venv cached under ~/.cache/sglang-preflight (made once).
set -euo pipefail
source "$(dirname "$0")/common.sh"
# Nothing from the user's git or pre-commit set-up (signing, hooks paths, caches) leaks in.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.invalid
export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.invalid
export PRE_COMMIT_HOME=$WORK/pre-commit-home
mkdir -p "$WORK/bin"
ln -s "$BIN" "$WORK/bin/sglang-preflight"
export PATH="$WORK/bin:$VENV/bin:$PATH"

fail() { echo "FAIL: $*" >&2; [ -f "$WORK/out" ] && sed 's/^/    /' "$WORK/out" >&2; exit 1; }
pass() { echo "ok: $*"; }

# The hooks repository: this checkout's .pre-commit-hooks.yaml as it is now (committed or not).
git init -q "$WORK/hooks"
cp "$ROOT/.pre-commit-hooks.yaml" "$WORK/hooks/"
git -C "$WORK/hooks" add .pre-commit-hooks.yaml
git -C "$WORK/hooks" commit -q -m hooks
REV=$(git -C "$WORK/hooks" rev-parse HEAD)

hook_id=sglang-preflight-system
if [ "${SGLANG_PREFLIGHT_TEST_RUST_HOOK:-0}" = 1 ]; then
  # pre-commit builds the CLI from the hooks repository: it needs the whole crate.
  (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -C "$WORK/hooks" -xf -
  git -C "$WORK/hooks" add -A && git -C "$WORK/hooks" commit -q -m crate
  REV=$(git -C "$WORK/hooks" rev-parse HEAD)
  hook_id=sglang-preflight
  rm "$WORK/bin/sglang-preflight"
fi

P=$WORK/project
git init -q -b main "$P"
cd "$P"
cat >.pre-commit-config.yaml <<EOF
repos:
  - repo: $WORK/hooks
    rev: $REV
    hooks:
      - id: $hook_id
EOF
git add .pre-commit-config.yaml
git commit -q -m "pre-commit config"
pre-commit install >/dev/null

BAD='python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-sise 2'
GOOD='python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2'

# 1. A script with a bad launch: the commit is refused, with SGLang's own message.
printf '#!/bin/sh\n%s\n' "$BAD" >serve.sh
git add serve.sh
if git commit -q -m "bad launch" >"$WORK/out" 2>&1; then fail "a commit with a bad launch went through"; fi
grep -q "unrecognized arguments: --tp-sise 2" "$WORK/out" || fail "the hook's output lacks SGLang's message"
git rev-parse -q --verify HEAD~1 >/dev/null && fail "the bad commit was made"
pass "a commit with a bad launch is refused with SGLang's message"

# 2. The fixed script is committed.
printf '#!/bin/sh\n%s\n' "$GOOD" >serve.sh
git add serve.sh
git commit -q -m "fixed launch" >"$WORK/out" 2>&1 || fail "the fixed script was refused"
pass "the fixed script is committed"

# 3. A script without a launch is committed (the hook scans files; nothing to check is fine).
printf '#!/bin/sh\necho setup\n' >setup.sh
git add setup.sh
git commit -q -m "setup script" >"$WORK/out" 2>&1 || fail "a script without a launch was refused"
pass "a script without a launch is committed"

# 4. Files of no known kind are not passed to the hook.
printf 'LAUNCH = "%s"\n' "$BAD" >launch.py
git add launch.py
git commit -q -m "python file" >"$WORK/out" 2>&1 || fail "a file of no known kind was checked"
pass "a .py file is not checked"

# 5. Several files in one call (pre-commit passes them all): the bad one is named.
mkdir -p jobs
printf '%s\n' "$GOOD" >jobs/a.sbatch
printf '%s\n' "$BAD" >jobs/b.sh
git add jobs
if git commit -q -m "jobs" >"$WORK/out" 2>&1; then fail "several files with one bad launch went through"; fi
grep -q "jobs/b.sh" "$WORK/out" || fail "the output does not name the bad file"
grep -q "unrecognized arguments: --tp-sise 2" "$WORK/out" || fail "the output lacks SGLang's message"
pass "several files in one call: the bad one is refused"
