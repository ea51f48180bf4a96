//! Rules from SGLang's `sglang/srt/arg_groups/cuda_graph_hook.py` and the resolution-time parts
//! of `sglang/srt/model_executor/cuda_graph_config.py`.
//!
//! The `CudaGraphConfig` value itself and SGLang's helpers over it live in
//! `shared::cuda_graph_config`, which other families use too.
//!
//! The raise sites in `parse_cuda_graph_config_arg` / `parse_cuda_graph_backend_arg` are raised
//! by argparse type callables and belong to the argparse replay, not to this module.

use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::Applicability;
use crate::fields::{f, Field};
use crate::pyvalue::PyValue;
use crate::rules::{raises, site, warns, Args, Step};
use crate::rules::shared::cuda_graph_config::*;

pub static CG001: Rule = Rule {
    code: "CG001",
    name: kebab!("cuda-graph-backend-not-allowed"),
    sglang: raises("cuda_graph_hook.validate_cuda_graph_config", "--cuda-graph-config[{phase}].backend={backend!r}"),
    explanation: expl!("The JSON given to --cuda-graph-config names a capture backend SGLang does not have for that phase. Only 'full', 'breakable' and 'disabled' exist; the JSON parser only rejects the retired 'tc_piecewise', so any other name gets this far and is rejected once the configuration is resolved."),
    flags: &["--cuda-graph-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --cuda-graph-config '{\"decode\": {\"backend\": \"piecewise\"}}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --cuda-graph-config '{\"decode\": {\"backend\": \"breakable\"}}'"),
};

pub static CG002: Rule = Rule {
    code: "CG002",
    name: kebab!("cuda-graph-prefill-max-context-not-positive"),
    sglang: raises("cuda_graph_hook._resolve_max_context_size", "--cuda-graph-prefill-max-context must be"),
    explanation: expl!("The fixed context size captured by prefill CUDA graphs (--cuda-graph-prefill-max-context, alias --context-bucket, or the prefill 'max_context_size' key of --cuda-graph-config) must be at least 1. SGLang checks it at the very end of resolution, when it page-aligns the value."),
    flags: &["--cuda-graph-prefill-max-context", "--context-bucket", "--cuda-graph-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --cuda-graph-prefill-max-context 0"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --cuda-graph-prefill-max-context 8192"),
};

pub static CG003: Rule = Rule {
    code: "CG003",
    name: kebab!("cuda-graph-prefill-max-context-over-model-context"),
    sglang: raises("cuda_graph_hook._resolve_max_context_size", "--cuda-graph-prefill-max-context exceeds the model context length"),
    explanation: expl!("SGLang rounds the prefill CUDA graphs' fixed context size (--cuda-graph-prefill-max-context, alias --context-bucket, or the prefill 'max_context_size' of --cuda-graph-config) up to a whole number of KV pages, and that size may not exceed the model's context length (the config's, or --context-length). Use the context length or less."),
    flags: &["--cuda-graph-prefill-max-context", "--context-bucket", "--cuda-graph-config", "--context-length"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --cuda-graph-prefill-max-context 65536"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --cuda-graph-prefill-max-context 32768"),
};

/// Warnings SGLang logs while resolving the CUDA graph configuration (no raise site).
pub static CG101: Rule = Rule {
    code: "CG101",
    name: kebab!("breakable-prefill-graph-incompatible"),
    sglang: warns("cuda_graph_hook.disable_breakable_cudagraph_if_incompatible", "Breakable CUDA graph is incompatible with"),
    explanation: expl!("The default breakable prefill CUDA graph cannot be captured with this feature, so SGLang turns the prefill graph off and runs prefill eagerly. Setting --cuda-graph-backend-prefill explicitly skips this automatic choice."),
    flags: &["--dcp-size", "--enable-two-batch-overlap", "--moe-a2a-backend", "--cuda-graph-backend-prefill"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 8 --ep-size 8 --moe-a2a-backend deepep --enable-two-batch-overlap"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 8 --ep-size 8 --moe-a2a-backend deepep --enable-two-batch-overlap --cuda-graph-backend-prefill disabled"),
};

pub static CG102: Rule = Rule {
    code: "CG102",
    name: kebab!("full-prefill-graph-experimental"),
    sglang: warns("cuda_graph_hook.handle_cuda_graph_config", "cuda_graph_config[prefill].backend='full'"),
    explanation: expl!("A whole-forward CUDA graph for prefill pads every batch up to a captured token bucket and is still experimental; the breakable backend is the production default on CUDA."),
    flags: &["--cuda-graph-backend-prefill", "--cuda-graph-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --cuda-graph-backend-prefill full"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --cuda-graph-backend-prefill breakable"),
};

pub static CG103: Rule = Rule {
    code: "CG103",
    name: kebab!("prefill-cp-without-breakable-graph"),
    sglang: warns("cuda_graph_hook.apply_prefill_cp_cuda_graph_default", "Breakable prefill CUDA graph is not enabled"),
    explanation: expl!("With prefill context parallelism SGLang only captures a breakable prefill graph for the supported strategy/backend combinations (zigzag with trtllm_mha, interleave with dsa on GLM-5 Next); otherwise prefill runs eagerly."),
    flags: &["--enable-prefill-cp", "--cp-strategy", "--attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-cp-size 2 --enable-prefill-cp --cp-strategy zigzag --attention-backend triton"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-cp-size 2 --enable-prefill-cp --cp-strategy zigzag --attention-backend trtllm_mha"),
};

pub static CG104: Rule = Rule {
    code: "CG104",
    name: kebab!("kimi-symm-mem-with-cuda-graphs"),
    sglang: warns("kimi_k3_hook.disable_kimi_k3_symm_mem", "Kimi hybrid model: ignoring --enable-symm-mem because CUDA graphs are on."),
    explanation: expl!("SGLang 0.5.18 turns --enable-symm-mem back off for the Kimi hybrid models (KimiLinear, Kimi K3) unless every phase runs eagerly: symmetric-memory allocations are per forward pass, so an address captured into a CUDA graph is not valid on replay."),
    flags: &["--enable-symm-mem", "--cuda-graph-backend-decode", "--cuda-graph-backend-prefill"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

/// Every rule in this family.
pub static CG105: Rule = Rule {
    code: "CG105",
    name: kebab!("deepseek-v3-trtllm-mla-prefill-graph-off"),
    sglang: warns("cuda_graph_hook.disable_prefill_cuda_graph_for_deepseek_trtllm_mla", "Disabling prefill CUDA graph ("),
    explanation: expl!("With a DeepSeek-V3 architecture on the trtllm_mla prefill attention backend, a captured prefill CUDA graph makes trtllm_mla fall back to FlashAttention for prefill, which is slower; unless the prefill graph backend is given explicitly, SGLang runs prefill eagerly."),
    flags: &["--attention-backend", "--prefill-attention-backend", "--cuda-graph-backend-prefill"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

pub static RULES: &[&Rule] = &[&CG001, &CG002, &CG003, &CG101, &CG102, &CG103, &CG104, &CG105];

/// A release whose `Backend` still has `tc_piecewise` (0.5.18: its --cuda-graph-backend-* choices
/// name it): it is allowed, the prefill default off CUDA, and its own compatibility rules run.
fn tc_piecewise_backend(ctx: &Ctx) -> bool {
    ctx.release
        .schema
        .action_for_dest("cuda_graph_backend_prefill")
        .and_then(|a| a.choices.as_ref())
        .is_some_and(|c| c.iter().any(|v| v.as_str() == Some(TC_PIECEWISE)))
}

/// `Backend.TC_PIECEWISE` (0.5.18).
const TC_PIECEWISE: &str = "tc_piecewise";

/// `ALLOWED_BACKENDS_PER_PHASE[phase]` in the checked release.
fn allowed_backends(ctx: &Ctx) -> Vec<&'static str> {
    if tc_piecewise_backend(ctx) {
        vec![FULL, BREAKABLE, TC_PIECEWISE, DISABLED]
    } else {
        ALLOWED_BACKENDS.to_vec()
    }
}



/// The raw `--cuda-graph-config` value as `parse_cuda_graph_config_arg` returns it (a dict),
/// also when the argparse replay left the JSON text unparsed.
fn explicit_cuda_graph_input(ctx: &Ctx) -> PyValue {
    match ctx.cfg.get(f::cuda_graph_config) {
        PyValue::Str(s) => serde_json::from_str::<serde_json::Value>(s)
            .map(|v| PyValue::from_json(&v))
            .unwrap_or(PyValue::None),
        v if is_resolved(v) => PyValue::None,
        v => v.clone(),
    }
}

/// `human_readable_int` for values the argparse replay left as text.
fn human_readable_int(v: &PyValue) -> PyValue {
    let PyValue::Str(s) = v else { return v.clone() };
    let t = s.trim();
    let suffixes: [(&str, f64, bool); 8] = [
        ("Ki", 1024.0, true),
        ("Mi", 1048576.0, true),
        ("Gi", 1073741824.0, true),
        ("Ti", 1099511627776.0, true),
        ("k", 1e3, false),
        ("M", 1e6, false),
        ("G", 1e9, false),
        ("T", 1e12, false),
    ];
    for (suf, mult, iec) in suffixes {
        if let Some(num) = t.strip_suffix(suf) {
            let ok = !num.is_empty()
                && num.chars().all(|c| c.is_ascii_digit() || c == '.')
                && num.matches('.').count() <= 1
                && !num.starts_with('.')
                && !num.ends_with('.');
            if ok {
                if iec && num.contains('.') {
                    return v.clone();
                }
                if let Ok(n) = num.parse::<f64>() {
                    return PyValue::Int((n * mult) as i64);
                }
            }
        }
    }
    match t.replace('_', "").parse::<i64>() {
        Ok(i) => PyValue::Int(i),
        Err(_) => v.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Hooks, in pipeline order.

/// `apply_inkling_prefill_cuda_graph_default`: picks the `full` prefill backend for the Inkling
/// architectures. Needs the model's architecture; no raise site, so nothing to report.
pub fn apply_inkling_prefill_cuda_graph_default(_ctx: &mut Ctx) -> Step {
    // arch = model_config_of(server_args).hf_config.architectures[0]: the model's config is not
    // known here, so the Inkling default (cuda_graph_backend_prefill="full") is not applied.
    Ok(())
}

/// `apply_muse_glimmer_prefill_cuda_graph_max_bs_default`: `cuda_graph_max_bs_prefill=512` for
/// the MuseGlimmer architectures. Needs the model's architecture; not applied.
pub fn apply_muse_glimmer_prefill_cuda_graph_max_bs_default(_ctx: &mut Ctx) -> Step {
    Ok(())
}

/// `handle_cuda_graph_config`.
pub fn handle_cuda_graph_config(ctx: &mut Ctx) -> Step {
    parse_cuda_graph_config(ctx);
    if tc_piecewise_backend(ctx) {
        disable_kimi_k3_symm_mem(ctx);
        apply_cuda_graph_compatibility_tc_piecewise(ctx);
    } else {
        apply_cuda_graph_compatibility(ctx);
    }
    apply_deepep_adjustments(ctx);
    apply_cuda_graph_disaggregation_roles(ctx);
    if !validate_cuda_graph_config(ctx) {
        return Ok(());
    }
    if phase_backend(ctx, PREFILL).as_deref() == Some(FULL) {
        let fixes = vec![ctx.fix_set(
            "Use the breakable prefill CUDA graph",
            f::cuda_graph_backend_prefill,
            BREAKABLE,
            Applicability::Unsafe,
        )];
        ctx.warn(&CG102,
            &[],
            &[f::cuda_graph_backend_prefill, f::cuda_graph_config],
            fixes,
        );
    }
    Ok(())
}

/// `parse_cuda_graph_config`: explicit JSON > per-phase flags > legacy flags > defaults.
fn parse_cuda_graph_config(ctx: &mut Ctx) {
    let explicit = explicit_cuda_graph_input(ctx);
    let mut config = default_cuda_graph_config(ctx);
    if tc_piecewise_backend(ctx) && !ctx.hw.is_cuda() {
        // `default_prefill_backend()`: tc_piecewise off CUDA (not locked)
        if let PyValue::Dict(phases) = &mut config {
            if let Some((_, fields)) = phases.iter_mut().find(|(n, _)| n == PREFILL) {
                dict_set(fields, "backend", PyValue::Str(TC_PIECEWISE.into()));
            }
        }
    }
    let mut locked: Vec<String> = Vec::new();
    let mut set = |config: &mut PyValue, phase: &str, key: &str, value: PyValue| {
        if let PyValue::Dict(phases) = config {
            if let Some((_, fields)) = phases.iter_mut().find(|(n, _)| n == phase) {
                dict_set(fields, key, value);
            }
        }
        let k = format!("{phase}.{key}");
        if !locked.contains(&k) {
            locked.push(k);
        }
    };
    let s = |v: &str| PyValue::Str(v.to_string());

    if ctx.cfg.truthy(f::disable_cuda_graph) {
        set(&mut config, DECODE, "backend", s(DISABLED));
        set(&mut config, PREFILL, "backend", s(DISABLED));
    }
    if ctx.cfg.truthy(f::disable_prefill_cuda_graph) {
        set(&mut config, PREFILL, "backend", s(DISABLED));
    }
    if ctx.cfg.truthy(f::disable_decode_cuda_graph) {
        set(&mut config, DECODE, "backend", s(DISABLED));
    }
    let flags: [(Field, &str, &str); 8] = [
        (f::cuda_graph_backend_decode, DECODE, "backend"),
        (f::cuda_graph_backend_prefill, PREFILL, "backend"),
        (f::cuda_graph_max_bs_decode, DECODE, "max_bs"),
        (f::cuda_graph_max_bs_prefill, PREFILL, "max_bs"),
        (f::cuda_graph_max_seq_len_prefill, PREFILL, "max_seq_len"),
        (f::cuda_graph_bs_decode, DECODE, "bs"),
        (f::cuda_graph_bs_prefill, PREFILL, "bs"),
        (f::cuda_graph_prefill_max_context, PREFILL, "max_context_size"),
    ];
    for (dest, phase, key) in flags {
        let v = ctx.cfg.get(dest).clone();
        if !v.is_none() {
            let v = if dest == f::cuda_graph_prefill_max_context { human_readable_int(&v) } else { v };
            set(&mut config, phase, key, v);
        }
    }
    // 0.5.18's --cuda-graph-tc-compiler, written to both phases
    let tc_compiler = ctx.cfg.get(f::cuda_graph_tc_compiler).clone();
    if !tc_compiler.is_none() {
        set(&mut config, DECODE, "tc_compiler", tc_compiler.clone());
        set(&mut config, PREFILL, "tc_compiler", tc_compiler);
    }
    if let PyValue::Dict(phases) = &explicit {
        for (phase, settings) in phases {
            let PyValue::Dict(items) = settings else { continue };
            for (key, value) in items {
                set(&mut config, phase, key, value.clone());
            }
        }
    }
    ctx.cfg.set(f::cuda_graph_config, config);
    ctx.cfg.set(LOCKED_FIELD, PyValue::List(locked.into_iter().map(PyValue::Str).collect()));
}

/// `supports_prefill_cp_bcg` (layers/cp/bcg): Some(answer), or None when it needs the model.
fn supports_prefill_cp_bcg(ctx: &Ctx) -> Option<bool> {
    if !(ctx.cfg.truthy(f::enable_prefill_cp)
        && ctx.cfg.int(f::pp_size) == Some(1)
        && ctx.cfg.get(f::attn_cp_size) == ctx.cfg.get(f::tp_size))
    {
        return Some(false);
    }
    let prefill = match ctx.cfg.str(f::prefill_attention_backend) {
        Some(b) if !b.is_empty() => Some(b),
        _ => ctx.cfg.str(f::attention_backend),
    };
    let strategy = ctx.cfg.str(f::cp_strategy);
    let kind = match prefill {
        Some("fa3") | Some("fa4") | Some("flashinfer") => "fa",
        Some("dsa") => "dsa",
        Some("trtllm_mha") => "trtllm_mha",
        Some("dsv4") => "dsv4",
        _ => return Some(false),
    };
    match (strategy, kind) {
        // ZigzagCPBCGInput.supports is the base class's: always true.
        (Some("zigzag"), "trtllm_mha") => Some(true),
        // InterleaveCPBCGInput.supports needs the model's architecture (GLM-5 Next).
        (Some("interleave"), "dsa") => None,
        _ => Some(false),
    }
}

/// `apply_cuda_graph_compatibility`.
fn apply_cuda_graph_compatibility(ctx: &mut Ctx) {
    if is_locked(ctx, PREFILL, "backend") {
        return;
    }
    let prefill = phase_backend(ctx, PREFILL);
    if ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 && prefill.as_deref() == Some(BREAKABLE) {
        // logger.info only.
        with_phase(ctx, PREFILL, "backend", PyValue::Str(DISABLED.into()));
        return;
    }
    if prefill.as_deref() == Some(BREAKABLE) {
        disable_breakable_cudagraph_if_incompatible(ctx);
    }
    // Full: disable_full_prefill_cudagraph_if_incompatible has no rules in 0.5.23.
}

/// 0.5.18's `kimi_k3_hook.disable_kimi_k3_symm_mem`: `--enable-symm-mem` goes back off for the
/// Kimi hybrid architectures unless both phases' graphs are disabled.
fn disable_kimi_k3_symm_mem(ctx: &mut Ctx) {
    if !CG104.applies_to(ctx.release) || !ctx.cfg.truthy(f::enable_symm_mem) {
        return;
    }
    let instance = ctx.cfg.str(f::model_path).and_then(|p| p.split_once("://")).is_some_and(|(scheme, _)| scheme == "instance");
    if instance {
        return;
    }
    // hf_config.architectures[0]: the model's config
    let Some(arch) = ctx.model.and_then(|m| m.architecture) else {
        let v = ctx.cfg.get(f::enable_symm_mem).clone();
        ctx.cfg.set_unknown(f::enable_symm_mem, v);
        return;
    };
    if !matches!(arch, "KimiLinearForCausalLM" | "KimiK3ForConditionalGeneration") {
        return;
    }
    if phase_backend(ctx, DECODE).as_deref() == Some(DISABLED) && phase_backend(ctx, PREFILL).as_deref() == Some(DISABLED) {
        return;
    }
    ctx.cfg.set(f::enable_symm_mem, PyValue::Bool(false));
    let fixes = vec![ctx.fix_remove("Drop --enable-symm-mem (SGLang ignores it here)", f::enable_symm_mem, Applicability::Safe)];
    ctx.warn(&CG104, &[], &[f::enable_symm_mem], fixes);
}

/// `supports_prefill_cp_bcg` in 0.5.18: prefill CP over the whole TP group, zigzag, trtllm_mha.
fn supports_prefill_cp_bcg_tc_piecewise(ctx: &Ctx) -> bool {
    let prefill = match ctx.cfg.str(f::prefill_attention_backend) {
        Some(b) if !b.is_empty() => Some(b),
        _ => ctx.cfg.str(f::attention_backend),
    };
    ctx.cfg.truthy(f::enable_prefill_cp)
        && ctx.cfg.get(f::attn_cp_size) == ctx.cfg.get(f::tp_size)
        && ctx.cfg.is(f::cp_strategy, "zigzag")
        && prefill == Some("trtllm_mha")
}

/// `_apply_cuda_graph_compatibility` of a release with the tc_piecewise backend (0.5.18).
fn apply_cuda_graph_compatibility_tc_piecewise(ctx: &mut Ctx) {
    if is_locked(ctx, PREFILL, "backend") {
        return;
    }
    let prefill = phase_backend(ctx, PREFILL);
    // The multimodal switches (breakable -> tc_piecewise for the piecewise-allowlisted
    // architectures, and the multimodal rules) read the model's config: decided only for a model
    // known not to be multimodal.
    let model = ctx.model.and_then(|m| Some((m.derived.is_multimodal?, m.architecture?)));
    let arch = match model {
        Some((false, arch)) => arch,
        _ => {
            if matches!(prefill.as_deref(), Some(BREAKABLE) | Some(TC_PIECEWISE)) {
                let v = ctx.cfg.get(f::cuda_graph_config).clone();
                ctx.cfg.set_unknown(f::cuda_graph_config, v);
            }
            return;
        }
    };
    match prefill.as_deref() {
        // Unlocked only as the default off CUDA (the switch above needs a multimodal model):
        // the "non-CUDA hardware" rule turns it off (no warning).
        Some(TC_PIECEWISE) if !ctx.hw.is_cuda() => with_phase(ctx, PREFILL, "backend", PyValue::Str(DISABLED.into())),
        Some(TC_PIECEWISE) => {
            let v = ctx.cfg.get(f::cuda_graph_config).clone();
            ctx.cfg.set_unknown(f::cuda_graph_config, v);
        }
        Some(BREAKABLE) => {
            let a2a = ctx.cfg.str(f::moe_a2a_backend).unwrap_or("none").to_string();
            // `is_deepseek_v4(hf_config)`: the release's list
            let is_dsv4 = ctx.release.model_lists().is_some_and(|l| crate::models::ModelLists::names(&l.deepseek_v4_architectures, arch));
            let rules: [(&str, bool, Field); 5] = [
                ("DeepSeek-V4 (heavy capture-pool memory pressure)", is_dsv4, f::model_path),
                (
                    "context parallel (attn_cp_size > 1)",
                    ctx.cfg.int(f::attn_cp_size).unwrap_or(1) > 1 && !supports_prefill_cp_bcg_tc_piecewise(ctx),
                    f::attn_cp_size,
                ),
                ("decode context parallel (dcp_size > 1)", ctx.cfg.int(f::dcp_size).unwrap_or(1) > 1, f::dcp_size),
                ("two-batch overlap", ctx.cfg.truthy(f::enable_two_batch_overlap), f::enable_two_batch_overlap),
                ("unvalidated a2a backend", !matches!(a2a.as_str(), "none" | "deepep" | "megamoe" | "flashinfer"), f::moe_a2a_backend),
            ];
            if let Some((name, _, dest)) = rules.into_iter().find(|(_, hit, _)| *hit) {
                let fixes = vec![ctx.fix_set(
                    "Choose the prefill graph backend yourself (disabled keeps today's behaviour without the warning)",
                    f::cuda_graph_backend_prefill,
                    DISABLED,
                    Applicability::Safe,
                )];
                ctx.warn(&CG101, &[("name", &name)], &[dest], fixes);
                with_phase(ctx, PREFILL, "backend", PyValue::Str(DISABLED.into()));
            }
        }
        // Full: no rules.
        _ => {}
    }
}

/// `disable_breakable_cudagraph_if_incompatible`: the first matching rule disables the prefill
/// graph. SGLang's first rule (KDA linear attention) reads the model's config and is not
/// evaluated: for a model that may match it (hybrid linear attention) the graph is disabled all
/// the same when a later rule holds, but which rule's warning SGLang prints is not known, and none
/// is claimed. The second (DeepSeek-V4) is decided by the architecture when the model's facts
/// name it; the multimodal one comes last.
fn disable_breakable_cudagraph_if_incompatible(ctx: &mut Ctx) {
    let model_rule_may_hold = ctx.model.is_some_and(|m| m.derived.is_hybrid_linear_attention == Some(true));
    let supports = supports_prefill_cp_bcg(ctx);
    let cp_rule = ctx.cfg.int(f::attn_cp_size).unwrap_or(1) > 1 && supports == Some(false);
    if ctx.cfg.int(f::attn_cp_size).unwrap_or(1) > 1 && supports.is_none() {
        // Whether this prefill-CP setup supports BCG needs the model's architecture.
        return;
    }
    let a2a = ctx.cfg.str(f::moe_a2a_backend).unwrap_or("none").to_string();
    // `is_deepseek_v4(hf_config)`, by the architecture in the release's list (not known without
    // the model's facts).
    let lists = ctx.release.model_lists();
    let is_dsv4 = ctx.model.and_then(|m| m.architecture).is_some_and(|a| lists.is_some_and(|l| crate::models::ModelLists::names(&l.deepseek_v4_architectures, a)));
    let rules: [(Option<&str>, bool, Field); 5] = [
        (Some("DeepSeek-V4 (heavy capture-pool memory pressure)"), is_dsv4 && supports == Some(false), f::model_path),
        (None, cp_rule, f::attn_cp_size),
        (Some("decode context parallel (dcp_size > 1)"), ctx.cfg.int(f::dcp_size).unwrap_or(1) > 1, f::dcp_size),
        (Some("two-batch overlap"), ctx.cfg.truthy(f::enable_two_batch_overlap), f::enable_two_batch_overlap),
        (
            Some("unvalidated a2a backend"),
            !matches!(a2a.as_str(), "none" | "deepep" | "megamoe" | "flashinfer"),
            f::moe_a2a_backend,
        ),
    ];
    for (name, hit, dest) in rules {
        if !hit {
            continue;
        }
        if let Some(name) = name.filter(|_| !model_rule_may_hold) {
            let fixes = vec![ctx.fix_set(
                "Choose the prefill graph backend yourself (disabled keeps today's behaviour without the warning)",
                f::cuda_graph_backend_prefill,
                DISABLED,
                Applicability::Safe,
            )];
            ctx.warn(&CG101,
                &[("name", &name)],
                &[dest],
                fixes,
            );
        }
        with_phase(ctx, PREFILL, "backend", PyValue::Str(DISABLED.into()));
        return;
    }
}


/// `apply_deepep_adjustments`: DeepEP needs prefill buckets divisible by 8 under BCG.
fn apply_deepep_adjustments(ctx: &mut Ctx) {
    if ctx.cfg.str(f::moe_a2a_backend) != Some("deepep") {
        return;
    }
    if phase_backend(ctx, PREFILL).as_deref() != Some(BREAKABLE) {
        return;
    }
    let bs: Vec<i64> = match phase_value(ctx, PREFILL, "bs") {
        PyValue::List(items) => {
            let ints: Vec<i64> = items.iter().filter_map(PyValue::as_int).collect();
            if ints.len() != items.len() {
                return;
            }
            ints
        }
        PyValue::None => {
            let max_bs = match phase_value(ctx, PREFILL, "max_bs") {
                v if v.truthy() => v.as_int().unwrap_or(2048),
                _ => 2048,
            };
            prefill_batch_sizes(max_bs)
        }
        _ => return,
    };
    let mut sorted = bs.clone();
    crate::sorting::sort(&mut sorted);
    let mut aligned: Vec<i64> = bs.iter().map(|b| (b + 7).div_euclid(8) * 8).collect();
    crate::sorting::sort(&mut aligned);
    aligned.dedup();
    if aligned != sorted {
        if let Some(last) = aligned.last().copied() {
            with_phase(ctx, PREFILL, "bs", PyValue::List(aligned.iter().map(|b| PyValue::Int(*b)).collect()));
            with_phase(ctx, PREFILL, "max_bs", PyValue::Int(last));
        }
    }
}

/// `apply_cuda_graph_disaggregation_roles`: a prefill server needs no decode graph, a decode
/// server no prefill graph (unless set explicitly).
fn apply_cuda_graph_disaggregation_roles(ctx: &mut Ctx) {
    match ctx.cfg.str(f::disaggregation_mode) {
        Some("prefill") if !is_locked(ctx, DECODE, "backend") => {
            with_phase(ctx, DECODE, "backend", PyValue::Str(DISABLED.into()));
        }
        Some("decode") if !is_locked(ctx, PREFILL, "backend") => {
            with_phase(ctx, PREFILL, "backend", PyValue::Str(DISABLED.into()));
        }
        _ => {}
    }
}

/// `validate_cuda_graph_config`. Returns false when it raised.
fn validate_cuda_graph_config(ctx: &mut Ctx) -> bool {
    for phase in PHASES {
        let backend = phase_value(ctx, phase, "backend");
        let allowed_backends = allowed_backends(ctx);
        if backend.as_str().is_some_and(|b| allowed_backends.contains(&b)) {
            continue;
        }
        let allowed = format!("({})", allowed_backends.iter().map(|b| format!("'{b}'")).collect::<Vec<_>>().join(", "));
        let args: &Args = &[("phase", &phase), ("backend", &backend.repr()), ("ALLOWED_BACKENDS_PER_PHASE[phase]", &allowed)];
        let mut fixes = Vec::new();
        if let Some(s) = ctx.cfg.setting(f::cuda_graph_config) {
            if !s.from_config {
                let whole = s.whole_span;
                for b in allowed_backends {
                    fixes.push(crate::diagnostic::Fix {
                        title: format!("Drop --cuda-graph-config and pick the {phase} backend '{b}' with --cuda-graph-backend-{phase}"),
                        applicability: Applicability::Unsafe,
                        edits: vec![crate::diagnostic::Edit {
                            start: whole.start,
                            end: whole.end,
                            replacement: format!("--cuda-graph-backend-{phase} {b}"),
                        }],
                    });
                }
            }
        }
        let _ = ctx.raise(&CG001, args, &[f::cuda_graph_config], fixes);
        return false;
    }
    true
}

/// `disable_prefill_cuda_graph_for_deepseek_trtllm_mla` (0.5.18's method of the same name): an
/// unlocked prefill graph backend is disabled for the DeepSeek-V3 architecture on the trtllm_mla
/// prefill attention backend.
pub fn disable_prefill_cuda_graph_for_deepseek_trtllm_mla(ctx: &mut Ctx) -> Step {
    if is_locked(ctx, PREFILL, "backend") {
        return Ok(());
    }
    let Some(backend) = phase_backend(ctx, PREFILL) else { return Ok(()) };
    if backend == DISABLED {
        return Ok(());
    }
    let (base, prefill) = (ctx.cfg.str(f::attention_backend), ctx.cfg.str(f::prefill_attention_backend));
    if prefill.filter(|s| !s.is_empty()).or(base.filter(|s| !s.is_empty())) != Some("trtllm_mla") {
        return Ok(());
    }
    let needs = site("cuda_graph_hook.disable_prefill_cuda_graph_for_deepseek_trtllm_mla", "Disabling prefill CUDA graph (");
    // `in hf_config.architectures`: the whole list where the config's is known, else its first
    // entry (the catalog keeps that one; configs list a single architecture)
    let Some(architectures) =
        ctx.model_fact(needs, |m| m.raw.and_then(|r| r.architectures.clone()).or_else(|| m.architecture.map(|a| vec![a.to_string()])))
    else {
        ctx.cfg.mark_unknown(f::cuda_graph_config);
        return Ok(());
    };
    if !architectures.iter().any(|a| a == "DeepseekV3ForCausalLM") {
        return Ok(());
    }
    ctx.warn(&CG105, &[("cfg.cuda_graph_config.prefill.backend", &backend)], &[f::attention_backend, f::prefill_attention_backend], Vec::new());
    with_phase(ctx, PREFILL, "backend", PyValue::Str(DISABLED.into()));
    Ok(())
}

/// `apply_prefill_cp_cuda_graph_default` (pipeline runs it only with --enable-prefill-cp).
pub fn apply_prefill_cp_cuda_graph_default(ctx: &mut Ctx) -> Step {
    if !is_resolved(ctx.cfg.get(f::cuda_graph_config)) {
        return Ok(());
    }
    if !is_locked(ctx, PREFILL, "backend") {
        match supports_prefill_cp_bcg(ctx) {
            None => return Ok(()),
            Some(true) => {
                with_phase(ctx, PREFILL, "backend", PyValue::Str(BREAKABLE.into()));
                apply_cuda_graph_compatibility(ctx);
                apply_cuda_graph_disaggregation_roles(ctx);
                apply_deepep_adjustments(ctx);
            }
            Some(false) => {}
        }
    }
    if phase_backend(ctx, PREFILL).as_deref() != Some(BREAKABLE) {
        ctx.warn(&CG103, &[], &[f::enable_prefill_cp], Vec::new());
    }
    Ok(())
}

/// `finalize_cuda_graph_prefill_max_context` and `_resolve_max_context_size`.
pub fn finalize_cuda_graph_prefill_max_context(ctx: &mut Ctx) -> Step {
    // The prefill max context size is only ever the flag's value or the `--cuda-graph-config`
    // JSON's (handle_cuda_graph_config): without the JSON, read the flag itself, not the whole
    // config, whose batch sizes may have been derived from values not known here.
    let from_flag = match (ctx.cfg.setting_place(f::cuda_graph_prefill_max_context), ctx.cfg.setting_place(f::cuda_graph_config)) {
        (Some(s), None) if !s.value_unknown => Some(s.value.clone()),
        _ => None,
    };
    let requested = from_flag.unwrap_or_else(|| phase_value(ctx, PREFILL, "max_context_size"));
    if requested.is_none() {
        return Ok(());
    }
    let Some(req) = requested.as_float() else {
        // A non-numeric JSON value: Python's comparison raises TypeError; not modelled.
        ctx.skip(site("cuda_graph_hook._resolve_max_context_size", "--cuda-graph-prefill-max-context must be"), NotRunReason::NotImplemented);
        return Ok(());
    };
    if req <= 0.0 {
        let mut fixes = Vec::new();
        if ctx.cfg.is_explicit(f::cuda_graph_prefill_max_context) {
            fixes.push(ctx.fix_remove(
                "Drop --cuda-graph-prefill-max-context (no fixed prefill context size)",
                f::cuda_graph_prefill_max_context,
                Applicability::Unsafe,
            ));
            fixes.push(ctx.fix_set(
                "Use a positive context size",
                f::cuda_graph_prefill_max_context,
                "8192",
                Applicability::Unsafe,
            ));
        }
        ctx.raise(
            &CG002,
            &[],
            &[f::cuda_graph_prefill_max_context, f::cuda_graph_config],
            fixes,
        )?;
    }
    // The size page-aligned (page_size as resolved so far: a value an unmodelled pass may have
    // written leaves the comparison not run), then compared with `model_config.context_len`.
    let exceeds = site("cuda_graph_hook._resolve_max_context_size", "--cuda-graph-prefill-max-context exceeds");
    let (Some(page), Some(r)) = (ctx.cfg.int(f::page_size), requested.as_int()) else {
        ctx.model_config(exceeds);
        return Ok(());
    };
    if page <= 0 {
        ctx.model_config(exceeds);
        return Ok(());
    }
    let aligned = (r + page - 1).div_euclid(page) * page;
    if let Some(len) = model_context_len(ctx, exceeds) {
        if len > 0 && aligned > len {
            let mut fixes = Vec::new();
            if ctx.cfg.is_explicit(f::cuda_graph_prefill_max_context) {
                // the longest page-aligned size within the context length
                let fit = len - len.rem_euclid(page);
                if fit > 0 {
                    fixes.push(ctx.fix_set(format!("Capture up to the model's context length ({fit})"), f::cuda_graph_prefill_max_context, &fit.to_string(), Applicability::Unsafe));
                }
                fixes.push(ctx.fix_remove("Drop --cuda-graph-prefill-max-context (no fixed prefill context size)", f::cuda_graph_prefill_max_context, Applicability::Unsafe));
            }
            let args: &Args = &[("aligned_size", &aligned), ("model_context_len", &len)];
            ctx.raise(&CG003, args, &[f::cuda_graph_prefill_max_context, f::cuda_graph_config, f::context_length], fixes)?;
        }
    }
    with_phase(ctx, PREFILL, "max_context_size", PyValue::Int(aligned));
    Ok(())
}

/// `model_config.context_len`: --context-length when given (a longer one than the model's was
/// refused or allowed by `_derive_context_length` already), else the length SGLang derives
/// from the config (the catalog's, or replayed from a given config's values). None (the check
/// at `needs` not run) when not known.
fn model_context_len(ctx: &mut Ctx, needs: crate::release::SiteRef) -> Option<i64> {
    if let Some(given) = ctx.cfg.int(f::context_length) {
        return Some(given);
    }
    let lists = ctx.release.model_lists();
    ctx.model_fact(needs, |m| {
        let replayed = || match (m.from, m.raw, lists) {
            (crate::models::FactsFrom::GivenConfig, Some(raw), Some(lists)) => crate::models::derived_context_length(raw, lists),
            _ => None,
        };
        m.computed.map(|c| c.context_length).or_else(replayed)
    })
}
