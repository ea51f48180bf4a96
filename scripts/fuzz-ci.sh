#!/usr/bin/env bash
# A short, deterministic fuzz run of every cargo-fuzz target (fuzz/fuzz_targets/: shell,
# argparse, check): a fixed number of executions from a fixed seed over the seed corpus that
# fuzz/seed.py derives from the fixtures, so CI re-runs exactly what passed here (a regression
# check). Long exploratory runs are local: FUZZ_SECONDS=600 switches to a timed, random run
# (FUZZ_MAX_LEN=1024 trades the longest inputs for more executions; FUZZ_TIMEOUT=60 gives a slow
# input more time on a machine busy with other work). Each target checks properties, not only
# "no crash": spans inside the input and on char boundaries, fixes that apply and remove what
# they fix, determinism (see fuzz/props.rs). A crash, a property violation or a slow input
# (-timeout) fails the run; the input is left in fuzz/artifacts/<target>/.
#
# The page's own logic (not the core) is fuzzed in JavaScript with fast-check, from a fixed seed,
# by the browser test suite (`npm run test:browser`, after the build): tests/browser/render-props.test.mjs
# (highlight ranges into segments and nodes, in Node; the real core's spans too) and
# tests/browser/fuzz.test.mjs (generated permalinks and widget attributes in Chromium). FUZZ_SEED=<n>
# runs them from another seed; in a timed run (FUZZ_SECONDS) this script also runs the Node one
# from a random seed, when dist/ is built.
#
# Only the stable toolchain is available: cargo-fuzz's nightly flags are enabled with
# RUSTC_BOOTSTRAP=1 and the sanitizer is off (`--sanitizer none`); libFuzzer's coverage
# instrumentation works without it. Installs cargo-fuzz if missing (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
TOTAL=${FUZZ_SECONDS:-0}
TARGETS=(shell argparse check)
PER=$(( TOTAL / ${#TARGETS[@]} ))
[ "$PER" -ge 1 ] || PER=1

if ! command -v cargo-fuzz >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/cargo-fuzz" ]; then
    cargo install cargo-fuzz --locked
fi
export PATH="$HOME/.cargo/bin:$PATH"
export RUSTC_BOOTSTRAP=1
python3 fuzz/seed.py

cargo fuzz build --sanitizer none -O
for t in "${TARGETS[@]}"; do
    mkdir -p "fuzz/corpus/$t"
    if [ "$TOTAL" -gt 0 ]; then echo "fuzz: $t for ${PER}s"; else echo "fuzz: $t, fixed seed and run count"; fi
    log="fuzz/artifacts/$t.log"
    mkdir -p fuzz/artifacts
    rc=0
    if [ "$TOTAL" -gt 0 ]; then
        budget=(-max_total_time="$PER")
        corpus=("fuzz/corpus/$t" "fuzz/seeds/$t")
    else
        case "$t" in shell) runs=60000 ;; argparse) runs=8000 ;; *) runs=4000 ;; esac
        budget=(-seed=1 -runs="$runs")
        # a fresh corpus folder each run, so the result depends on the seeds only
        rm -rf "fuzz/corpus/$t.ci" && mkdir -p "fuzz/corpus/$t.ci"
        corpus=("fuzz/corpus/$t.ci" "fuzz/seeds/$t")
    fi
    cargo fuzz run --sanitizer none -O "$t" "${corpus[@]}" -- \
        "${budget[@]}" -max_len="${FUZZ_MAX_LEN:-4096}" -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1 || rc=$?
    grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|SUMMARY)|panicked|Test unit written' "$log" || true
    if [ "$rc" -ne 0 ]; then
        grep -A30 -E 'panicked' "$log" | head -40 || true
        echo "fuzz: $t FAILED (exit $rc); input in fuzz/artifacts/$t/, log in $log"
        exit 1
    fi
done
if [ "$TOTAL" -gt 0 ] && [ -f dist/pkg/sglang_preflight_bg.wasm ] && [ -d node_modules/fast-check ]; then
    seed=$(( (RANDOM << 15) | RANDOM ))
    echo "fuzz: page logic (tests/browser/render-props.test.mjs), FUZZ_SEED=$seed"
    FUZZ_SEED=$seed node --test tests/browser/render-props.test.mjs >fuzz/artifacts/render-props.log 2>&1 || {
        grep -E '^not ok|seed|Counterexample|Error' fuzz/artifacts/render-props.log | head -40
        echo "fuzz: page logic FAILED with FUZZ_SEED=$seed; log in fuzz/artifacts/render-props.log"
        exit 1
    }
fi
echo "fuzz: ok"
