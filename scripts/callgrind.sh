#!/usr/bin/env bash
# Instructions per check of a typical command (issue budget: see the closing notes), measured
# with callgrind: the example runs one warm-up check and then N checks; the difference between
# N=21 and N=1, divided by 20, is what one more check costs (no start-up, no release-data parse).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
cargo build --quiet --release --example check_instructions
bin=target/release/examples/check_instructions
count() {
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$1" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
  rm -f "$out"
}
one=$(count 1)
many=$(count 21)
echo "instructions per typical check: $(( (many - one) / 20 ))"
