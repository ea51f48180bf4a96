//! `model_overrides/minimax_m3.py`: `_minimax_m3_overrides` (the checkpoint's quantization, and
//! the attention backend, page size, MoE runner and all-reduce defaults per platform).
//!
//! Its checks are all on the M3.1 NVFP4 path (`minimax_m3_nvfp4`): a checkpoint that declares
//! mxfp8 with NVFP4-packed experts (not a `--quantization` choice). No public config of one is
//! known, and the expert fields are not among the facts: for an mxfp8 checkpoint the provider is
//! not replayed.

use super::{str_value, Declarations};
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::shared::runtime_context::{is_sm100, is_sm90};
use crate::rules::Ctx;

/// `_minimax_m3_overrides` off the NVFP4 path. None where it reads what is not known: the
/// checkpoint's quantization (a given config's `hf_quant_config.json`, an mxfp8 checkpoint's
/// experts), a quantization the command unset explicitly.
pub fn minimax_m3_overrides(ctx: &Ctx) -> Option<Declarations> {
    let raw = ctx.model.and_then(|m| m.raw)?;
    // `get_quantization_config(hf_config)`: `quantization_config["quant_method"]` of the config
    // ModelConfig has parsed, which names a ModelOpt checkpoint's scheme as ModelConfig resolved
    // it (`modelopt` -> `modelopt_mixed` ...): SGLang's computed quantization where known.
    let computed = ctx.model.and_then(|m| m.computed).map(|c| c.quantization.clone());
    let quant_method = match (&raw.quantization, computed) {
        (None, _) => None,
        (Some(q), _) if q.from != "quantization_config" => return None,
        (Some(_), Some(computed)) => computed,
        (Some(q), None) if q.quant_method.as_deref().is_some_and(|m| m.starts_with("modelopt")) => return None,
        (Some(q), None) => q.quant_method.clone(),
    };
    if quant_method.as_deref() == Some("mxfp8") {
        // `_resolve_quant_method`: NVFP4-packed experts make it `minimax_m3_nvfp4`
        return None;
    }
    let mut out = Declarations::new();
    let mut quant_resolved = ctx.cfg.str(f::quantization).map(str::to_string);
    if quant_resolved.is_none() {
        if let Some(method) = quant_method {
            // `_quantization_explicitly_unset` is not known here
            if ctx.cfg.is_explicit(f::quantization) {
                return None;
            }
            out.push((f::quantization, str_value(&method)));
            quant_resolved = Some(method);
        }
    }
    let quant = quant_resolved.as_deref();
    let backends_unset = crate::rules::shared::model_override_base::is_attention_backend_not_set(ctx);
    let mut runner: Option<&str> = None;
    if ctx.hw.is_hip() {
        if backends_unset {
            out.push((f::attention_backend, str_value("triton")));
        }
        if ctx.cfg.is(f::moe_runner_backend, "auto") && quant == Some("mxfp8") {
            runner = Some("triton");
        }
        let mut aiter_fusion = ctx.cfg.truthy(f::enable_aiter_allreduce_fusion);
        if ctx.cfg.int(f::ep_size).unwrap_or(1) > 1 && ctx.cfg.is(f::moe_a2a_backend, "none") && aiter_fusion {
            out.push((f::enable_aiter_allreduce_fusion, PyValue::Bool(false)));
            aiter_fusion = false;
        }
        if !aiter_fusion && !ctx.env_bool("SGLANG_M3_ALLOW_CUSTOM_AR", false) {
            out.push((f::disable_custom_all_reduce, PyValue::Bool(true)));
        }
    } else if is_sm100(ctx.hw) {
        let mut backend = ctx.cfg.str(f::attention_backend).map(str::to_string);
        if backends_unset {
            let fp8_attention = ctx.cfg.is(f::kv_cache_dtype, "fp8_e4m3") && !ctx.env_bool("SGLANG_DISABLE_M3_FP8_ATTN_GEMM", false);
            let chosen = if fp8_attention { "trtllm_mha" } else { "fa4" };
            out.push((f::attention_backend, str_value(chosen)));
            backend = Some(chosen.to_string());
        }
        if ctx.cfg.is_none(f::page_size) && matches!(backend.as_deref(), Some("fa4" | "trtllm_mha")) {
            out.push((f::page_size, PyValue::Int(128)));
        }
        if ctx.cfg.is(f::moe_runner_backend, "auto") {
            runner = match quant {
                Some("mxfp8") => Some("deep_gemm"),
                Some("modelopt_mixed") => Some("flashinfer_trtllm_routed"),
                _ => None,
            };
        }
    } else if is_sm90(ctx.hw) {
        let mut backend = ctx.cfg.str(f::attention_backend).map(str::to_string);
        if backends_unset {
            out.push((f::attention_backend, str_value("fa3")));
            backend = Some("fa3".to_string());
        }
        if ctx.cfg.is_none(f::page_size) && backend.as_deref() == Some("fa3") {
            out.push((f::page_size, PyValue::Int(128)));
        }
    }
    // The bf16 checkpoint's MoE runner: triton (deep_gemm corrupts bf16 full weights).
    let runner_resolved = runner.map(str::to_string).or_else(|| ctx.cfg.str(f::moe_runner_backend).map(str::to_string));
    if quant.is_none() && matches!(runner_resolved.as_deref(), Some("auto" | "deep_gemm")) {
        runner = Some("triton");
    }
    if let Some(runner) = runner {
        out.push((f::moe_runner_backend, str_value(runner)));
    }
    Some(out)
}
