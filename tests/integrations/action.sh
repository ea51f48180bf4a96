#!/usr/bin/env bash
# The GitHub Action (action.yml) run as the runner runs a composite action, without GitHub:
# its steps' `run` scripts, in order, with `bash --noprofile --norc -eo pipefail`, their `env`
# with `${{ inputs.* }}`, `${{ github.action_path }}` and `${{ runner.temp }}` filled in, their
# `if:` conditions, and GITHUB_PATH. `cargo` is a stand-in that records its arguments and
# installs the CLI built here (target/debug; or SGLANG_PREFLIGHT_BIN) instead of a release build.
# Reads action.yml with PyYAML from the pre-commit venv (tests/integrations/pre-commit.sh).
set -euo pipefail
source "$(dirname "$0")/common.sh"
PY=$VENV/bin/python
fail() { echo "FAIL: $*" >&2; [ -f "$WORK/out" ] && sed 's/^/    /' "$WORK/out" >&2; exit 1; }
pass() { echo "ok: $*"; }

# The action's shape: a composite action whose steps all run bash, with the inputs it documents.
"$PY" - "$ROOT/action.yml" >"$WORK/steps.json" <<'EOF'
import json, sys, yaml
action = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
assert action["runs"]["using"] == "composite", "not a composite action"
inputs = action["inputs"]
for name in ("paths", "sglang-version", "gpu", "sarif", "args", "install"):
    assert name in inputs and "description" in inputs[name], f"input {name} missing or undocumented"
assert inputs["paths"]["default"] == "."
steps = action["runs"]["steps"]
for step in steps:
    assert "run" in step and step.get("shell") == "bash", f"step {step.get('name')} is not a bash run step"
json.dump({"defaults": {k: str(v.get("default", "")) for k, v in inputs.items()}, "steps": steps}, sys.stdout)
EOF
pass "action.yml is a composite action of bash steps with its inputs documented"

"$BIN" check --help 2>/dev/null | grep -q github || fail "this sglang-preflight has no --format github"

# The stand-in cargo: records its arguments, installs the CLI built here into --root.
mkdir -p "$WORK/stub-bin"
cat >"$WORK/stub-bin/cargo" <<EOF
#!/usr/bin/env bash
printf '%s\n' "\$*" >>"$WORK/cargo-calls"
root=
while [ \$# -gt 0 ]; do [ "\$1" = --root ] && root=\$2; shift; done
mkdir -p "\$root/bin" && cp "$BIN" "\$root/bin/sglang-preflight"
EOF
chmod +x "$WORK/stub-bin/cargo"

# A workspace: a script with a bad launch, a folder with a good one.
WS=$WORK/workspace
mkdir -p "$WS/deploy" "$WS/docs"
printf '#!/bin/sh\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-sise 2\n' >"$WS/deploy/serve.sh"
printf 'python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2\n' >"$WS/docs/ok.sh"

# run_action KEY=VALUE... : run the action's steps with these inputs; prints the steps' output
# to $WORK/out and returns the exit code of the first failing step (0 when all pass).
run_action() {
  local runner_temp=$WORK/runner-temp-$RANDOM
  mkdir -p "$runner_temp"
  : >"$WORK/github-path"
  "$PY" - "$WORK/steps.json" "$ROOT" "$runner_temp" "$@" >"$WORK/plan.json" <<'EOF'
import json, re, sys
spec = json.load(open(sys.argv[1]))
action_path, runner_temp = sys.argv[2], sys.argv[3]
inputs = dict(spec["defaults"])
for pair in sys.argv[4:]:
    key, _, value = pair.partition("=")
    assert key in inputs, f"no input {key}"
    inputs[key] = value
context = {"github.action_path": action_path, "runner.temp": runner_temp}
context.update({f"inputs.{k}": v for k, v in inputs.items()})
def expression(text):
    text = text.strip()
    m = re.fullmatch(r"([\w.-]+)\s*==\s*'([^']*)'", text)
    if m:
        return context[m.group(1)] == m.group(2)
    return context[text]
def fill(value):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(expression(m.group(1))), str(value))
plan = []
for step in spec["steps"]:
    condition = step.get("if")
    if condition is not None and not expression(re.sub(r"^\$\{\{(.*)\}\}$", r"\1", str(condition))):
        continue
    plan.append({"name": step.get("name", ""), "env": {k: fill(v) for k, v in step.get("env", {}).items()}, "run": step["run"]})
json.dump(plan, sys.stdout)
EOF
  local count status=0 i path_prefix=""
  count=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$WORK/plan.json")
  : >"$WORK/out"
  for ((i = 0; i < count; i++)); do
    "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))[int(sys.argv[2])]["run"])' "$WORK/plan.json" "$i" >"$WORK/step.sh"
    mapfile -d '' step_env < <("$PY" -c '
import json, sys
for k, v in json.load(open(sys.argv[1]))[int(sys.argv[2])]["env"].items():
    sys.stdout.write(f"{k}={v}\0")' "$WORK/plan.json" "$i")
    # The runner adds GITHUB_PATH entries to PATH for the steps after the one that wrote them.
    path_prefix=$(tac "$WORK/github-path" | tr '\n' ':')
    (cd "$WS" && env "${step_env[@]}" GITHUB_PATH="$WORK/github-path" RUNNER_TEMP="$runner_temp" \
      GITHUB_WORKSPACE="$WS" GITHUB_ACTIONS=true PATH="$path_prefix$BASE_PATH" \
      bash --noprofile --norc -eo pipefail "$WORK/step.sh") >>"$WORK/out" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then return "$status"; fi
  done
  return 0
}

# PATH without any sglang-preflight: the action must install it (or find it when told not to).
mkdir -p "$WORK/preinstalled"
BASE_PATH="$WORK/stub-bin:/usr/local/bin:/usr/bin:/bin"

# 1. A bad launch: annotations with SGLang's message, a SARIF log, exit 1 passed through.
status=0
run_action paths="deploy/serve.sh docs" sarif=reports/preflight.sarif gpu=h100 || status=$?
[ "$status" -eq 1 ] || fail "exit $status for a rejected launch, not 1"
grep -q "^install --locked --quiet --path $ROOT --root $WORK/runner-temp-[0-9]*/sglang-preflight\$" "$WORK/cargo-calls" ||
  fail "cargo install was not called with the action's own path: $(cat "$WORK/cargo-calls")"
grep -q '^::error file=deploy/serve.sh,line=2,col=[0-9]*,endLine=2,endColumn=[0-9]*,title=ARG008::SystemExit: unrecognized arguments: --tp-sise 2' "$WORK/out" ||
  fail "no annotation with SGLang's message"
grep -q "docs/ok.sh" "$WORK/out" && fail "the good file was annotated"
"$PY" - "$WS/reports/preflight.sarif" <<'EOF' || fail "the SARIF log is not what the action should write"
import json, sys
log = json.load(open(sys.argv[1]))
assert log["version"] == "2.1.0"
results = log["runs"][0]["results"]
assert [r["ruleId"] for r in results] == ["ARG008"], results
assert results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "deploy/serve.sh"
EOF
pass "a bad launch: annotation with SGLang's message, SARIF written, exit 1"

# 2. Nothing wrong, the CLI already installed: no install, no annotation, exit 0.
ln -sf "$BIN" "$WORK/preinstalled/sglang-preflight"
: >"$WORK/cargo-calls"
BASE_PATH="$WORK/preinstalled:$BASE_PATH"
run_action paths=docs install=false || fail "exit $? for a good launch"
[ -s "$WORK/cargo-calls" ] && fail "cargo ran with install: false"
grep -q '^::' "$WORK/out" && fail "annotations for a good launch"
pass "a good launch with install: false: exit 0, no annotation"

# 3. A usage error (an unknown GPU preset) is passed through as exit 2.
status=0
run_action paths=docs gpu=no-such-gpu install=false || status=$?
[ "$status" -eq 2 ] || fail "exit $status for a usage error, not 2"
pass "a usage error: exit 2"
