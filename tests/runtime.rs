//! Preflight's runtime warnings (`src/rules/runtime.rs`): command and hardware profile in,
//! warning out. They are not recorded verdicts (the recorder stops before the GPU node; the
//! cases of `tests/cases/rules_runtime.jsonl` are all accepted there), so these specs hold what
//! each warning says: origin `preflight`, a warning (the verdict stays SGLang's), SGLang's own
//! message quoted with its file and function where it has one.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use sglang_preflight::diagnostic::{Applicability, Diagnostic, Origin, Severity};
use sglang_preflight::hardware::Hardware;
use sglang_preflight::{check, CheckOptions};

const L: &str = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct";

fn run(args: &str, gpu: &str, gpus: Option<u32>) -> (bool, Vec<Diagnostic>, Vec<String>) {
    let opts = CheckOptions { hardware: Hardware::preset(gpu, gpus).unwrap(), ..CheckOptions::default() };
    let report = check(&format!("{L} {args}"), &opts);
    let c = &report.commands[0];
    let runtime = c.diagnostics.iter().filter(|d| d.code.starts_with("RUN")).cloned().collect();
    (c.accepted, runtime, c.not_run.iter().map(|n| n.site.to_string()).collect())
}

fn one(args: &str, gpu: &str, code: &str) -> Diagnostic {
    let (accepted, diags, _) = run(args, gpu, None);
    assert!(accepted, "{args} on {gpu}: a runtime warning leaves SGLang's verdict alone");
    assert_eq!(diags.len(), 1, "{args} on {gpu}: {diags:#?}");
    let d = diags[0].clone();
    assert_eq!(d.code, code);
    assert_eq!(d.origin, Origin::Preflight, "never claimed as SGLang's");
    assert_eq!(d.severity, Severity::Warning);
    assert!(d.exception.is_none());
    assert!(d.explanation.starts_with("Not a recorded verdict"), "{}", d.explanation);
    d
}

fn none(args: &str, gpu: &str) {
    let (_, diags, _) = run(args, gpu, None);
    assert!(diags.is_empty(), "{args} on {gpu}: {diags:#?}");
}

#[test]
fn gpus_needed_against_the_node() {
    let d = one("--tp-size 16", "h100", "RUN001");
    assert!(d.message.starts_with("16 ranks (tp 16) need 16 GPUs per node, but each node of 8×H100 has 8"), "{}", d.message);
    assert_eq!(d.fixes[0].applicability, Applicability::Unsafe);
    assert_eq!(d.fixes[0].edits[0].replacement, "--tp-size 8");
    let d = one("--tp-size 8", "rtx5090", "RUN001");
    assert!(d.message.contains("each node of 1×RTX5090 has 1"), "{}", d.message);
    // dp replicas each take tp GPUs ...
    let d = one("--tp-size 4 --dp-size 4", "h100", "RUN001");
    assert!(d.message.starts_with("16 ranks (tp 4 × dp 4)"), "{}", d.message);
    // ... but not with DP attention, which runs inside the TP group
    none("--tp-size 4 --dp-size 4 --enable-dp-attention", "h100");
    one("--tp-size 4 --pp-size 4", "h100", "RUN001");
    // spread over nodes
    none("--tp-size 16 --nnodes 2 --node-rank 0 --dist-init-addr 10.0.0.1:5000", "h100");
    one("--tp-size 32 --nnodes 2 --node-rank 0 --dist-init-addr 10.0.0.1:5000", "h100", "RUN001");
    // the GPU indexes used: from --base-gpu-id in steps of --gpu-id-step
    let d = one("--tp-size 4 --base-gpu-id 6", "h100", "RUN001");
    assert!(d.message.contains("up to GPU 9"), "{}", d.message);
    one("--tp-size 4 --gpu-id-step 3", "h100", "RUN001");
    none("--tp-size 4 --base-gpu-id 4", "h100");
    none("--tp-size 8", "h100");
    // --gpus overrides the preset's count
    let (_, diags, _) = run("--tp-size 8", "h100", Some(4));
    assert_eq!(diags.len(), 1);
    // no GPUs to count on a CPU profile
    none("--tp-size 16", "cpu");
}

#[test]
fn fa3_below_and_above_hopper() {
    let d = one("--attention-backend fa3", "b200", "RUN002");
    assert!(d.message.starts_with("--attention-backend fa3 on NVIDIA B200 (compute capability 10.0)"), "{}", d.message);
    assert!(d.message.ends_with(
        "SGLang's `create_flashattention_v3_backend` (python/sglang/srt/layers/attention/attention_registry.py) raises AssertionError: \
         FlashAttention v3 Backend requires SM>=80 and SM<=90. Please use `--attention-backend flashinfer`."
    ));
    assert_eq!(d.fixes[0].edits[0].replacement, "--attention-backend flashinfer");
    one("--decode-attention-backend fa3", "rtx5090", "RUN002");
    let d = one("--prefill-attention-backend fa3 --decode-attention-backend fa3", "b200", "RUN002");
    assert_eq!(d.fixes.len(), 2);
    none("--attention-backend fa3", "h100");
    none("--attention-backend fa3", "h200");
    none("--attention-backend flashinfer", "b200");
    // fa3 with an fp8_e5m2 KV cache falls back to triton during resolution
    none("--attention-backend fa3 --kv-cache-dtype fp8_e5m2", "b200");
    // not a CUDA GPU: SGLang's check is CUDA's
    none("--attention-backend fa3", "mi300x");
    // on SM 8.x it depends on whether the model is MLA: not run, not guessed
    let (_, diags, not_run) = run("--attention-backend fa3", "a100", None);
    assert!(diags.is_empty());
    assert!(not_run.iter().any(|s| s == "attention_registry.create_flashattention_v3_backend"), "{not_run:?}");
}

#[test]
fn bf16_gemv_outside_hopper_and_sm12x() {
    let d = one("--bf16-gemm-backend gemv", "a100", "RUN003");
    assert!(d.message.ends_with("raises ValueError: --bf16-gemm-backend gemv requires SM90 (Hopper) or SM12x"), "{}", d.message);
    assert!(d.message.contains("python/sglang/srt/layers/quantization/unquant.py"));
    assert_eq!(d.fixes[0].edits[0].replacement, "");
    one("--bf16-gemm-backend gemv", "b200", "RUN003");
    one("--bf16-gemm-backend gemv", "l40s", "RUN003");
    none("--bf16-gemm-backend gemv", "h100");
    none("--bf16-gemm-backend gemv", "rtx5090");
    none("--bf16-gemm-backend gemv", "mi300x");
}

#[test]
fn only_for_a_command_sglang_would_start() {
    // SGLang stops at the earlier error and never reaches the GPU node
    let (accepted, diags, _) = run("--tp-size 16 --tp-size-typo 1", "h100", None);
    assert!(!accepted);
    assert!(diags.is_empty(), "{diags:#?}");
}
