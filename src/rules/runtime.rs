//! Preflight's runtime warnings: failures that come after resolution and `check_server_args`,
//! when the server starts on the GPU node (a backend's or a kernel's initialisation, the
//! processes placed on GPUs), and that depend only on the flags and the hardware profile.
//!
//! The recorder stops before these (it stubs the GPU), so none of them is a recorded verdict:
//! each is reported as a warning of origin `preflight`, quoting what SGLang raises there and
//! naming its source file and function (`Sglang::Runtime`, read in SGLang [`READ_IN`]). Where the
//! failure also depends on the model (MLA or not), the check is listed as not run instead.
//! They are reported only for a command SGLang would otherwise start: after an earlier error
//! SGLang never gets this far.
//!
//! | code | where SGLang fails |
//! | --- | --- |
//! | `RUN001` | `ModelRunner.__init__` selecting each rank's GPU (`set_device`): preflight's own check, no SGLang message |
//! | `RUN002` | `attention_registry.create_flashattention_v3_backend` (FA3 on CUDA needs SM 8.x or 9.x) |
//! | `RUN003` | `unquant.initialize_bf16_gemm_config` (`--bf16-gemm-backend gemv` needs SM 9.x or 12.x) |

use super::{Ctx, NotRunReason, Rule, Sglang};
use crate::diagnostic::{Applicability, Diagnostic, Fix, Origin, Severity};
use crate::fields::{f, Field};
use crate::hardware::Platform;

/// The SGLang release whose source these were read in.
pub const READ_IN: &str = "0.5.23";

pub static GPUS_NEEDED: Rule = Rule {
    code: "RUN001",
    name: kebab!("more-gpus-than-the-node-has"),
    sglang: Sglang::Runtime {
        file: "python/sglang/srt/model_executor/model_runner.py",
        function: "ModelRunner.__init__",
        exception: "",
        template: "",
        read_in: READ_IN,
    },
    explanation: expl!("Preflight's own check, not SGLang's message: SGLang starts tp_size × pp_size × dp_size scheduler processes \
                  (dp_size after DP attention is folded into the TP group), spread over --nnodes nodes, and gives each its own GPU \
                  from --base-gpu-id in steps of --gpu-id-step. When a node would need a GPU index it does not have, the process \
                  fails when it selects its device (`torch.cuda.set_device`: CUDA error: invalid device ordinal) after the slow \
                  start-up, not while parsing. Lower the parallel sizes to fit the node, or spread the ranks over more nodes \
                  (--nnodes, with --node-rank and --dist-init-addr on each)."),
    flags: &["--tp-size", "--pp-size", "--dp-size", "--nnodes"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 16"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8"),
};

pub static FA3_NEEDS_SM8X_OR_SM9X: Rule = Rule {
    code: "RUN002",
    name: kebab!("fa3-needs-sm8x-or-sm9x"),
    sglang: Sglang::Runtime {
        file: "python/sglang/srt/layers/attention/attention_registry.py",
        function: "create_flashattention_v3_backend",
        exception: "AssertionError",
        template: "FlashAttention v3 Backend requires SM>=80 and SM<=90. Please use `--attention-backend flashinfer`.",
        read_in: READ_IN,
    },
    explanation: expl!("The FlashAttention 3 backend (`fa3`) runs on CUDA GPUs of compute capability 8.x (non-MLA models only) and 9.x \
                  (Hopper). On Blackwell (SM 10.x, 12.x) SGLang accepts the flag and then fails an assertion when the model runner \
                  creates the attention backend, after the weights are loaded. Choose a backend this GPU supports: `flashinfer` \
                  (SGLang's advice), `fa4` or `trtllm_mha` on Blackwell, or `triton`."),
    flags: &["--attention-backend", "--prefill-attention-backend", "--decode-attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend fa3"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend flashinfer"),
};

pub static GEMV_NEEDS_SM9X_OR_SM12X: Rule = Rule {
    code: "RUN003",
    name: kebab!("bf16-gemv-needs-sm9x-or-sm12x"),
    sglang: Sglang::Runtime {
        file: "python/sglang/srt/layers/quantization/unquant.py",
        function: "initialize_bf16_gemm_config",
        exception: "ValueError",
        template: "--bf16-gemm-backend gemv requires SM90 (Hopper) or SM12x",
        read_in: READ_IN,
    },
    explanation: expl!("The `gemv` BF16 GEMM backend uses a Hopper kernel that SGLang only loads on compute capability 9.x or 12.x; on \
                  other CUDA GPUs it raises when the unquantized linear layers are set up, at start-up on the GPU node. Leave \
                  --bf16-gemm-backend at `auto` (or choose another backend) on this GPU."),
    flags: &["--bf16-gemm-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --bf16-gemm-backend gemv"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static RULES: &[&Rule] = &[&GPUS_NEEDED, &FA3_NEEDS_SM8X_OR_SM9X, &GEMV_NEEDS_SM9X_OR_SM12X];

/// Run every runtime check on the resolved configuration (after `check_server_args`).
pub fn check_runtime(ctx: &mut Ctx) {
    if ctx.earlier_error || ctx.diagnostics.iter().any(Diagnostic::is_sglang_error) {
        return;
    }
    for check in [gpus_needed as fn(&mut Ctx), fa3_capability, bf16_gemv_capability] {
        ctx.cfg.forget_reads();
        check(ctx);
    }
}

/// Report `rule` as preflight's warning: `message` is ours; SGLang's own text, when it has one,
/// is quoted with where it is raised.
fn report(ctx: &mut Ctx, rule: &'static Rule, message: String, fields: &[Field], fixes: Vec<Fix>) {
    if ctx.cfg.read_unknown() || ctx.on_unknown_branch || !rule.applies_to(ctx.release) {
        return;
    }
    let Sglang::Runtime { file, function, exception, template, .. } = rule.sglang else { return };
    let quoted = if template.is_empty() {
        String::new()
    } else {
        format!(": SGLang's `{function}` ({file}) raises {exception}: {template}")
    };
    ctx.diagnostics.push(Diagnostic {
        code: rule.code.to_string(),
        severity: Severity::Warning,
        origin: Origin::Preflight,
        stage: ctx.stage,
        exception: None,
        message: format!("{message}{quoted}"),
        span: ctx.span_of(fields),
        explanation: format!("Not a recorded verdict: this fails at start-up on the GPU node, after the checks preflight replays. {}", rule.explanation),
        fixes,
    });
}

fn int(ctx: &Ctx, field: Field, default: i64) -> i64 {
    ctx.cfg.int(field).unwrap_or(default)
}

/// RUN001: the GPU indexes the node's ranks would use, against the GPUs it has.
fn gpus_needed(ctx: &mut Ctx) {
    if ctx.hw.platform == Platform::Cpu || ctx.hw.gpu_count == 0 {
        return;
    }
    let (tp, pp, dp) = (int(ctx, f::tp_size, 1), int(ctx, f::pp_size, 1), int(ctx, f::dp_size, 1));
    let nnodes = int(ctx, f::nnodes, 1).max(1);
    let (base, step) = (int(ctx, f::base_gpu_id, 0), int(ctx, f::gpu_id_step, 1));
    if tp < 1 || pp < 1 || dp < 1 || base < 0 || step < 1 {
        return;
    }
    let Some(total) = tp.checked_mul(pp).and_then(|x| x.checked_mul(dp)) else { return };
    let per_node = (total + nnodes - 1) / nnodes;
    let Some(highest) = (per_node - 1).checked_mul(step).and_then(|x| x.checked_add(base)) else { return };
    let have = i64::from(ctx.hw.gpu_count);
    if highest < have {
        return;
    }
    let mut sizes = format!("tp {tp}");
    if pp > 1 {
        sizes.push_str(&format!(" × pp {pp}"));
    }
    if dp > 1 {
        sizes.push_str(&format!(" × dp {dp}"));
    }
    let nodes = if nnodes > 1 { format!(" over {nnodes} nodes") } else { String::new() };
    let from = if base > 0 || step > 1 { format!(" (GPU {base} upwards in steps of {step}, up to GPU {highest})") } else { String::new() };
    let message = format!(
        "{total} ranks ({sizes}){nodes} need {per_node} GPUs per node{from}, but each node of {} has {have}: the processes that get no GPU fail when they start (invalid device ordinal)",
        ctx.hw.summary()
    );
    let mut fixes = Vec::new();
    if pp == 1 && dp == 1 && nnodes == 1 && base == 0 && step == 1 && tp > have {
        fixes.push(ctx.fix_set(format!("Use --tp-size {have} (the GPUs this node has)"), f::tp_size, &have.to_string(), Applicability::Unsafe));
    }
    let nodes_needed = (total * step + base + have - 1) / have;
    if nodes_needed > nnodes && base == 0 && step == 1 {
        fixes.push(Fix::advice(format!("Run on {nodes_needed} nodes: --nnodes {nodes_needed} with --node-rank and --dist-init-addr on each")));
    }
    report(ctx, &GPUS_NEEDED, message, &[f::tp_size, f::dp_size, f::pp_size, f::nnodes], fixes);
}

/// The attention backends the model runner creates: prefill and decode (each its own flag, else
/// `--attention-backend`), after `_attention_backend_fa3_fp8_fallback` (fa3 with an fp8_e5m2
/// KV cache becomes triton), and the draft model's with speculative decoding.
fn fa3_capability(ctx: &mut Ctx) {
    if ctx.hw.platform != Platform::Cuda {
        return;
    }
    // --attention-backend is read only for a phase without its own backend: its default may
    // depend on the model, and a phase given explicitly does not need it.
    let attention_unknown = ctx.cfg.is_unknown(f::attention_backend);
    let attention = |ctx: &Ctx| -> Option<String> {
        if attention_unknown {
            return None;
        }
        let a = ctx.cfg.str(f::attention_backend).map(str::to_string);
        if a.as_deref() == Some("fa3") && ctx.cfg.is(f::kv_cache_dtype, "fp8_e5m2") {
            return Some("triton".into());
        }
        a
    };
    let prefill = ctx.cfg.str(f::prefill_attention_backend).map(str::to_string).or_else(|| attention(ctx));
    let decode = ctx.cfg.str(f::decode_attention_backend).map(str::to_string).or_else(|| attention(ctx));
    let draft = if ctx.cfg.is_none(f::speculative_algorithm) { None } else { ctx.cfg.str(f::speculative_draft_attention_backend).map(str::to_string) };
    let mut which: Vec<Field> = Vec::new();
    for (value, field) in [(&prefill, f::prefill_attention_backend), (&decode, f::decode_attention_backend), (&draft, f::speculative_draft_attention_backend)] {
        if value.as_deref() == Some("fa3") {
            // the flag that chose it: its own, else --attention-backend
            let chosen = if ctx.cfg.is_explicit(field) { field } else { f::attention_backend };
            if !which.contains(&chosen) {
                which.push(chosen);
            }
        }
    }
    if which.is_empty() {
        let phase_unknown = attention_unknown && !(ctx.cfg.is_explicit(f::prefill_attention_backend) && ctx.cfg.is_explicit(f::decode_attention_backend));
        if phase_unknown && !matches!(ctx.hw.capability.0, 8 | 9) {
            // The backend SGLang picks by default depends on the model.
            ctx.skip_unlisted("attention_registry.create_flashattention_v3_backend", NotRunReason::ModelConfig);
        }
        return;
    }
    let (major, minor) = ctx.hw.capability;
    if major == 8 {
        // allowed for non-MLA models only: whether this one is MLA is in its config
        ctx.skip_unlisted("attention_registry.create_flashattention_v3_backend", NotRunReason::ModelConfig);
        return;
    }
    if major == 9 {
        return;
    }
    let replacement = if ctx.hw.flashinfer { "flashinfer" } else { "triton" };
    let fixes: Vec<Fix> = which
        .iter()
        .filter(|&&field| ctx.cfg.setting_place(field).is_some())
        .map(|&field| ctx.fix_set(format!("Use {} {replacement}", ctx.flag(field)), field, replacement, Applicability::Unsafe))
        .collect();
    let flags: Vec<String> = which.iter().map(|&field| format!("{} fa3", ctx.flag(field))).collect();
    let message = format!("{} on {} (compute capability {major}.{minor}) fails when the attention backend is created", flags.join(" and "), ctx.hw.gpu_name);
    report(ctx, &FA3_NEEDS_SM8X_OR_SM9X, message, &which, fixes);
}

/// `initialize_bf16_gemm_config`: `gemv` needs compute capability 9.x or 12.x.
fn bf16_gemv_capability(ctx: &mut Ctx) {
    if ctx.hw.platform != Platform::Cuda || !ctx.cfg.is(f::bf16_gemm_backend, "gemv") {
        return;
    }
    let (major, minor) = ctx.hw.capability;
    if major == 9 || major == 12 {
        return;
    }
    let fixes = vec![ctx.fix_remove("Remove --bf16-gemm-backend gemv (auto picks a backend for this GPU)", f::bf16_gemm_backend, Applicability::Unsafe)];
    let message = format!("--bf16-gemm-backend gemv on {} (compute capability {major}.{minor}) fails when the linear layers are set up", ctx.hw.gpu_name);
    report(ctx, &GEMV_NEEDS_SM9X_OR_SM12X, message, &[f::bf16_gemm_backend], fixes);
}
