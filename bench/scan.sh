#!/usr/bin/env bash
# Scan benchmark: `sglang-preflight check DIR` over a generated tree of 10,000 files, a few
# hundred holding launches (bench/gen_tree.py), natively. Goal: <= 2 s. Run by hand:
#
#     bash bench/scan.sh [--profile release|benchmark] [--files N] [--launches N]
#
# It builds the CLI (release profile by default: what `cargo install` gives), generates the tree
# in a temporary directory, and prints the best and median of 5 runs, with a single file's
# time beside the same text on stdin (one file must cost what a paste costs).
set -euo pipefail
cd "$(dirname "$0")/.."

profile=release files=10000 launches=300
while [ $# -gt 0 ]; do
    case "$1" in
        --profile) profile=$2; shift 2 ;;
        --files) files=$2; shift 2 ;;
        --launches) launches=$2; shift 2 ;;
        *) echo "usage: $0 [--profile release|benchmark] [--files N] [--launches N]" >&2; exit 2 ;;
    esac
done

cargo build --locked --quiet --profile "$profile" --bin sglang-preflight
dir=$profile
[ "$profile" = dev ] && dir=debug
bin=${CARGO_TARGET_DIR:-$PWD/target}/$dir/sglang-preflight

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
python3 bench/gen_tree.py "$tree/repo" --files "$files" --launches "$launches"

# Seconds for one run of the command given, output discarded.
timed() {
    local start=$EPOCHREALTIME
    "$@" > /dev/null 2>&1 || true
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }'
}

best_and_median() {
    local label=$1; shift
    local runs=()
    for _ in 1 2 3 4 5; do runs+=("$(timed "$@")"); done
    printf '%s\n' "${runs[@]}" | sort -n | awk -v label="$label" '{ t[NR] = $1 } END { printf "%-44s best %.3f s  median %.3f s\n", label, t[1], t[3] }'
}

cd "$tree/repo"
echo "machine: $(nproc) cores; $(uptime | sed 's/.*load average/load average/')"
{ "$bin" check . || true; } | tail -n 1
best_and_median "check . (text)" "$bin" check .
best_and_median "check --format json ." "$bin" check --format json .
one=$(find . -name 'launch*.sh' | sort | head -n 1)
best_and_median "check $one (one file)" "$bin" check "$one"
best_and_median "check - < $one (the same text as a paste)" sh -c "\"$bin\" check - < \"$one\""
