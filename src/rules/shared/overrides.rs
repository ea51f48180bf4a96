//! `sglang/srt/arg_groups/overrides.py`: constants several hooks decide by.

/// `overrides._A2A_EP_SPANNING_BACKENDS`: the MoE all-to-all backends for which `_a2a_ep_size`
/// sets `ep_size` to `tp_size`.
pub const A2A_EP_SPANNING_BACKENDS: &[&str] =
    &["megamoe", "deepep", "deepep_v2", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "flashinfer_megamoe", "mori", "pplx"];

use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::diagnostic::Applicability;
use crate::rules::{warns, Ctx, Rule, Step};

pub static PP_DISABLES_OVERLAP: Rule = Rule {
    code: "OVR001",
    name: "pipeline-parallel-disables-overlap-schedule",
    sglang: warns("overrides._pipeline_parallel_overlap_disable", "Pipeline parallelism is incompatible with overlap schedule."),
    explanation: "With pipeline parallelism (--pp-size above 1) SGLang runs without the overlap scheduler (CPU scheduling is not overlapped with GPU work), as --disable-overlap-schedule does.",
    flags: &["--pp-size", "--disable-overlap-schedule"],
    example_bad: "--model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2",
    example_good: "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2",
};

/// The rules of `overrides.py`'s passes that run as pipeline steps of their own.
pub static RULES: &[&Rule] = &[&PP_DISABLES_OVERLAP];

/// `_pipeline_parallel_overlap_disable` (a post-process pass run as a pipeline step).
pub fn pipeline_parallel_overlap_disable(ctx: &mut Ctx) -> Step {
    if ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 {
        let fixes = if ctx.cfg.truthy(f::disable_overlap_schedule) {
            vec![]
        } else {
            // SGLang logs this with or without the flag: advice, not an edit leaving the warning.
            vec![crate::diagnostic::Fix::advice("To make it explicit, write --disable-overlap-schedule (SGLang still logs this)")]
        };
        ctx.warn(&PP_DISABLES_OVERLAP, &[], &[f::pp_size], fixes);
        ctx.cfg.set(f::disable_overlap_schedule, PyValue::Bool(true));
    }
    Ok(())
}

pub static DSV4_KV_CACHE_DTYPE: Rule = Rule {
    code: "OVR002",
    name: "deepseek-v4-kv-cache-dtype",
    sglang: crate::rules::raises("overrides._deepseek_v4_kv_cache_dtype", "{kv_cache_dtype} is not supported for {model_arch}"),
    explanation: "DeepSeek-V4's KV pool holds FP8 (fp8_e4m3, what SGLang picks for auto) or bfloat16 entries only; any other --kv-cache-dtype, the bf16 alias included, fails SGLang's assertion.",
    flags: &["--kv-cache-dtype"],
    example_bad: "--model-path deepseek-ai/DeepSeek-V4-Flash --kv-cache-dtype fp8_e5m2",
    example_good: "--model-path deepseek-ai/DeepSeek-V4-Flash --kv-cache-dtype fp8_e4m3",
};

/// The rules of `overrides.py`'s passes that run inside a hook (at their legacy slots).
pub static SLOT_RULES: &[&Rule] = &[&DSV4_KV_CACHE_DTYPE];

/// `_deepseek_v4_kv_cache_dtype` (run by `deepseek_v4_hook.apply_deepseek_v4_defaults`): auto is
/// FP8, bfloat16 on NPU; the result must be fp8_e4m3 or bfloat16.
pub fn deepseek_v4_kv_cache_dtype(ctx: &mut Ctx, arch: &str) -> Step {
    if arch != "DeepseekV4ForCausalLM" {
        return Ok(());
    }
    let given = ctx.cfg.get(f::kv_cache_dtype).clone();
    let mut kv = given.as_str().unwrap_or("").to_string();
    if kv == "auto" {
        kv = "fp8_e4m3".to_string();
    }
    if ctx.cfg.is(f::device, "npu") {
        kv = "bfloat16".to_string();
    }
    if !matches!(kv.as_str(), "fp8_e4m3" | "bfloat16") {
        let fixes = vec![
            ctx.fix_set("Use the FP8 KV cache (fp8_e4m3)", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe),
            ctx.fix_set("Use a bfloat16 KV cache", f::kv_cache_dtype, "bfloat16", Applicability::Unsafe),
        ];
        return ctx.raise(&DSV4_KV_CACHE_DTYPE, &[("kv_cache_dtype", &kv), ("model_arch", &arch)], &[f::kv_cache_dtype], fixes);
    }
    if given.as_str() != Some(kv.as_str()) {
        ctx.cfg.set(f::kv_cache_dtype, PyValue::Str(kv));
    }
    Ok(())
}
