//! SGLang's `kimi_k3_hook.py` (called from the model hook for Kimi's hybrid architectures):
//! the linear-attention decode and speculative-verify backend defaults.

use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::shared::runtime_context::is_sm100;
use crate::rules::Ctx;

/// `apply_kimi_k3_linear_attn_defaults`: triton KDA decode for a bf16 SSM state on SM100.
pub fn apply_kimi_k3_linear_attn_defaults(ctx: &mut Ctx) {
    if ctx.cfg.is_none(f::linear_attn_decode_backend) && ctx.cfg.is(f::mamba_ssm_dtype, "bfloat16") && is_sm100(ctx.hw) {
        ctx.cfg.set(f::linear_attn_decode_backend, PyValue::Str("triton".to_string()));
    }
}

/// `apply_kimi_k3_spec_backend_defaults`: with speculative decoding, the fused CuTe DSL verify
/// kernel, and for DSPARK on SM100 the trtllm_mha draft attention.
pub fn apply_kimi_k3_spec_backend_defaults(ctx: &mut Ctx) {
    let Some(algorithm) = ctx.cfg.str(f::speculative_algorithm).map(str::to_string) else { return };
    if ctx.cfg.is_none(f::linear_attn_verify_backend) {
        ctx.cfg.set(f::linear_attn_verify_backend, PyValue::Str("nv_cutedsl".to_string()));
    }
    if algorithm == "DSPARK" && ctx.cfg.is_none(f::speculative_draft_attention_backend) && is_sm100(ctx.hw) {
        ctx.cfg.set(f::speculative_draft_attention_backend, PyValue::Str("trtllm_mha".to_string()));
    }
}
