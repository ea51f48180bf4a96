//! `model_overrides/qwen3_5.py`: `_qwen3_5_hybrid_overrides` (registered for the Qwen3-Next,
//! Qwen3.5 and Intern-S2 hybrid linear-attention architectures): on SM100, with no attention
//! backend given, triton or (where the model's default is trtllm_mha and the Mamba cache allows
//! paged KV) trtllm_mha, with the page size that backend needs; nothing elsewhere.

use super::{str_value, Declarations};
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::shared::model_override_base::get_default_attn_backend;
use crate::rules::shared::runtime_context::is_sm100;
use crate::rules::Ctx;

/// None where the model's default backend is not known here (a fact of the model's config).
pub fn qwen3_5_hybrid_overrides(ctx: &mut Ctx) -> Option<Declarations> {
    if !is_sm100(ctx.hw) || !ctx.cfg.is_none(f::attention_backend) {
        return Some(Declarations::new());
    }
    let default = get_default_attn_backend(ctx)?;
    // trtllm_mha needs paged KV: page_size 1 is required only with the radix cache on, no
    // speculative decoding and no Mamba extra buffer (`mamba_extra_buffer_of`; these
    // architectures' Mamba radix-cache pass runs after the providers, so an `auto` strategy is
    // not an extra buffer here).
    let radix_without_spec = matches!(ctx.cfg.get(f::disable_radix_cache), PyValue::Bool(false)) && ctx.cfg.is_none(f::speculative_algorithm);
    let extra_buffer = matches!(ctx.cfg.str(f::mamba_radix_cache_strategy), Some("extra_buffer" | "extra_buffer_lazy"));
    let trtllm_mha = default == "trtllm_mha" && (!radix_without_spec || extra_buffer);
    let backend = if trtllm_mha { "trtllm_mha" } else { "triton" };
    Some(vec![(f::attention_backend, str_value(backend)), (f::page_size, PyValue::Int(if trtllm_mha { 64 } else { 1 }))])
}
