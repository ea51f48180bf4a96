//! `model_overrides/qwen3_vl.py`: `_qwen3vl_overrides` (Qwen3-VL's page size for AITER unified
//! attention) and `_qwen3vl_hopper_serving_overrides` (the profiled serving defaults on large
//! Hopper GPUs, which pick CUDA IPC feature transport before the serving hook reads it).

use super::Declarations;
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::shared::envs::{env_bool, env_int};
use crate::rules::shared::runtime_context::is_sm90;
use crate::rules::Ctx;

/// `_qwen3vl_overrides` (Qwen3VLForConditionalGeneration): on ROCm with
/// `SGLANG_USE_AITER_UNIFIED_ATTN` and no page size, page size 16.
pub fn qwen3vl_overrides(ctx: &Ctx) -> Declarations {
    if ctx.hw.is_hip() && env_bool(ctx, "SGLANG_USE_AITER_UNIFIED_ATTN") && ctx.cfg.is_none(f::page_size) {
        return vec![(f::page_size, PyValue::Int(16))];
    }
    Vec::new()
}

/// `large_hopper_qwen3_vl_model_type`: an SM90 GPU of at least 60 GiB serving a multimodal
/// `qwen3_vl` / `qwen3_vl_moe` checkpoint. None when the model's facts do not say.
fn large_hopper_qwen3_vl(ctx: &Ctx) -> Option<bool> {
    // get_device_memory_capacity(cfg.device) on a CUDA platform: the GPU's memory
    if !is_sm90(ctx.hw) || (ctx.hw.gpu_mem_mib as f64) < 60.0 * 1024.0 {
        return Some(false);
    }
    let model = ctx.model.as_ref()?;
    Some(model.derived.is_multimodal? && matches!(model.model_type?, "qwen3_vl" | "qwen3_vl_moe"))
}

/// `_qwen3vl_hopper_serving_overrides`. (Its environment defaults are not replayed: the
/// VLM cache size it sets to 0 is read here as such, and the feature-cache size it may raise
/// is only logged by the serving hook.)
pub fn qwen3vl_hopper_serving_overrides(ctx: &Ctx) -> Option<Declarations> {
    let mut out = Declarations::new();
    if !large_hopper_qwen3_vl(ctx)? {
        return Some(out);
    }
    // SGLANG_VLM_CACHE_SIZE_MB: set to 0 when unset, else EnvInt(100)
    let vlm_cache_mb = match ctx.env("SGLANG_VLM_CACHE_SIZE_MB") {
        None => 0,
        Some(_) => env_int(ctx, "SGLANG_VLM_CACHE_SIZE_MB", Some(100))?,
    };
    let preprocess_cache_mb = match ctx.cfg.get(f::mm_preprocess_cache_size_mb) {
        PyValue::None => {
            out.push((f::mm_preprocess_cache_size_mb, PyValue::Int(0)));
            0
        }
        v => v.as_int()?,
    };
    let cache_retention = preprocess_cache_mb > 0 || vlm_cache_mb > 0;
    if ctx.cfg.is_none(f::mm_feature_transport) && ctx.cfg.int(f::nnodes) == Some(1) && !cache_retention {
        out.push((f::mm_feature_transport, PyValue::Str("cuda_ipc".to_string())));
    }
    // (`_radix_eviction_policy_explicitly_set`: the flag is on the command line)
    if ctx.cfg.is(f::radix_eviction_policy, "lru") && !ctx.cfg.is_explicit(f::radix_eviction_policy) {
        out.push((f::radix_eviction_policy, PyValue::Str("priority".to_string())));
    }
    if ctx.cfg.is_none(f::prefill_decode_interval) {
        out.push((f::prefill_decode_interval, PyValue::Int(22)));
    }
    if ctx.cfg.is_none(f::attention_backend) && ctx.cfg.is_none(f::decode_attention_backend) {
        out.push((f::decode_attention_backend, PyValue::Str("flashinfer".to_string())));
    }
    Some(out)
}
