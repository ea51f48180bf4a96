//! Criterion benchmarks of the whole check (`cargo bench --bench check`): every fixture
//! command (tests/fixtures/<default release>/*.jsonl `cmd`), a typical command, 1 MB inputs, and each input shape
//! that could grow super-linearly at 100 KB and at 1 MB (the 1 MB time should be about 10x the
//! 100 KB one; these measurements replaced wall-clock ratio assertions in tests/properties.rs).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sglang_preflight::snapshot::render;
use sglang_preflight::{check, CheckOptions};

// the tests' fixture loader (benches cannot name `tests/` as a crate)
#[allow(dead_code)]
#[path = "../tests/common/mod.rs"]
mod common;

const TYPICAL: &str = "CUDA_VISIBLE_DEVICES=0,1,2,3 python -m sglang.launch_server \\\n  --model-path meta-llama/Llama-3.1-8B-Instruct \\\n  --tp-size 4 --mem-fraction-static 0.85 --context-length 32768 \\\n  --host 0.0.0.0 --port 30000 --enable-metrics --served-model-name llama\n";

fn fixture_commands() -> Vec<String> {
    // The default release's fixtures (they live per release: tests/fixtures/<release>/).
    common::default_release_fixtures().iter().filter_map(|v| v.get("cmd").and_then(|c| c.as_str()).map(str::to_string)).collect()
}

fn benches(c: &mut Criterion) {
    let opts = CheckOptions::default();
    // Warm the schema (parsed once per process).
    black_box(check(TYPICAL, &opts));

    c.bench_function("typical command", |b| b.iter(|| check(black_box(TYPICAL), &opts)));

    let cmds = fixture_commands();
    let mut g = c.benchmark_group("fixtures");
    g.throughput(Throughput::Elements(cmds.len() as u64));
    g.bench_function(format!("all {} fixture commands", cmds.len()), |b| {
        b.iter(|| {
            for cmd in &cmds {
                black_box(check(black_box(cmd), &opts));
            }
        })
    });
    g.finish();

    // What the page's worker does per keystroke (checkJson), on bench/web's commands: with the
    // resolved values (the npm client's default) and without them (the page asks when shown).
    let page_texts = [
        "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --port 30000",
        "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool",
        "sglang serve Qwen/Qwen3-30B-A3B --tp 4 --ep 4 --enable-dp-attention --dp 2 --mem-fraction-static 0.85",
        "CUDA_VISIBLE_DEVICES=0,1 python3 -m sglang.launch_server \\\n  --model deepseek-ai/DeepSeek-V3 --tp 8 --speculative-algorithm EAGLE --speculative-num-steps 3 --kv-cache-dtype fp8_e4m3",
    ];
    let mut g = c.benchmark_group("page check");
    g.throughput(Throughput::Elements(page_texts.len() as u64));
    for (name, resolved_values) in [("with resolved values", true), ("resolved values left out", false)] {
        let opts = CheckOptions { resolved_values, ..CheckOptions::default() };
        g.bench_function(format!("check, {name}"), |b| b.iter(|| page_texts.iter().map(|t| check(black_box(t), &opts).commands.len()).sum::<usize>()));
        g.bench_function(format!("check + JSON, {name}"), |b| {
            b.iter(|| page_texts.iter().map(|t| sglang_preflight::located::to_json(t, &check(black_box(t), &opts)).len()).sum::<usize>())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("1 MB");
    g.sample_size(10);
    let m = "meta-llama/Llama-3.1-8B-Instruct";
    let big_value = format!("python -m sglang.launch_server --model-path {m} --served-model-name {}\n", "a".repeat(1 << 20));
    let big_json = {
        let obj: Vec<String> = (0..10_000).map(|i| format!("\"k{i}\": \"{}\"", "v".repeat(90))).collect();
        format!("python -m sglang.launch_server --model-path {m} --json-model-override-args '{{{}}}'\n", obj.join(", "))
    };
    let many_lines = format!("python -m sglang.launch_server --model-path {m} {}--tp-size 2\n", "\\\n".repeat(1 << 19));
    for (name, text) in [("one 1 MB value", &big_value), ("1 MB JSON value", &big_json), ("1 MB of continued lines", &many_lines)] {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(name, |b| b.iter(|| check(black_box(text), &opts)));
    }
    g.finish();
}

const M: &str = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct";

/// Inputs of about `n` bytes for each shape whose cost could grow faster than its size.
fn growing_inputs(n: usize) -> Vec<(&'static str, String)> {
    vec![
        ("one long value", format!("{M} --served-model-name {}", "a".repeat(n))),
        ("continued lines", format!("{M} {}--tp-size 2", "\\\n".repeat(n / 2))),
        ("JSON value", {
            let items: Vec<String> = (0..n / 16).map(|i| format!("\"k{i:07}\": 1")).collect();
            format!("{M} --json-model-override-args '{{{}}}'", items.join(", "))
        }),
        ("typography", format!("{M}{}", " --served-model-name \u{201c}a\u{201d}".repeat(n / 29))),
        ("unterminated quote", format!("{M} --served-model-name '{}", "x y ".repeat(n / 4))),
        ("repeated flags", format!("{M}{}", " --tp-size 2".repeat(n / 12))),
        ("one long unknown flag", format!("{M} --{}", "x".repeat(n))),
        ("many commands", format!("{M} --tp-size 2\n").repeat(n / 90)),
    ]
}

/// Linear time: each shape at 100 KB and at 1 MB, reported per byte (equal throughput at both
/// sizes means linear).
fn scaling(c: &mut Criterion) {
    let opts = CheckOptions::default();
    black_box(check(TYPICAL, &opts));
    let mut g = c.benchmark_group("100 KB vs 1 MB");
    g.sample_size(10);
    for (size_name, n) in [("100 KB", 100 << 10), ("1 MB", 1 << 20)] {
        for (shape, text) in growing_inputs(n) {
            g.throughput(Throughput::Bytes(text.len() as u64));
            g.bench_function(format!("{shape}, {size_name}"), |b| b.iter(|| check(black_box(&text), &opts)));
        }
        // The snapshot renderer on the input with the most diagnostics per line.
        let text = format!("{M}{}", " --served-model-name \u{201c}a\u{201d}".repeat(n / 29));
        let report = check(&text, &opts);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("snapshot of typography, {size_name}"), |b| b.iter(|| render(black_box(&text), &report)));
    }
    g.finish();
}

criterion_group!(check_benches, benches, scaling);
criterion_main!(check_benches);
