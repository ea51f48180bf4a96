//! Runs the check of a typical command N times (argument; default 1), after one warm-up check
//! that parses the release data. `scripts/callgrind.sh` runs it under callgrind twice and reports
//! the instructions one more check costs, a figure that does not move with the machine's load.

use sglang_preflight::{check, CheckOptions};
use std::hint::black_box;

const TYPICAL: &str = "CUDA_VISIBLE_DEVICES=0,1,2,3 python -m sglang.launch_server \\\n  --model-path meta-llama/Llama-3.1-8B-Instruct \\\n  --tp-size 4 --mem-fraction-static 0.85 --context-length 32768 \\\n  --host 0.0.0.0 --port 30000 --enable-metrics --served-model-name llama\n";

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1);
    let opts = CheckOptions::default();
    black_box(check(TYPICAL, &opts));
    for _ in 0..n {
        black_box(check(black_box(TYPICAL), &opts));
    }
}
