//! `sglang/srt/arg_groups/model_override_base.py`: helpers the model override providers and the
//! DeepSeek hooks share.

use crate::diagnostic::Applicability;
use crate::fields::{f, Field};
use crate::rules::{raises, Ctx, Rule};

pub static CP_DP_WITH_ATTN_DP: Rule = Rule {
    code: "OVR003",
    name: kebab!("context-parallel-dp-size-with-attn-dp-size"),
    sglang: raises("model_override_base.context_parallel_attn_dp_size", "--dp-size {cfg.dp_size} with --attn-dp-size"),
    explanation: expl!("The DeepSeek context-parallel layouts read --dp-size as attention data-parallel groups (a deprecated reading); with --attn-dp-size given too the two would multiply, and SGLang refuses the combination."),
    flags: &["--dp-size", "--attn-dp-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave --attn-dp-size 2 --dp-size 2"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave"),
};

pub static RULES: &[&Rule] = &[&CP_DP_WITH_ATTN_DP];

/// The base attention backend and the two split ones, which the helpers below read together.
pub const ATTENTION_BACKEND_FIELDS: [Field; 3] = [f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend];

/// `is_attention_backend_not_set(cfg)`: the base and both split attention backends are None.
pub fn is_attention_backend_not_set(ctx: &Ctx) -> bool {
    ATTENTION_BACKEND_FIELDS.iter().all(|&field| ctx.cfg.is_none(field))
}

/// `attention_backends_of(cfg)`: (prefill, decode), each split backend falling back to `base` (the
/// base backend as the caller reads it: a provider may have filled it). Empty text counts as unset,
/// as Python's truthiness test does.
pub fn attention_backends_of(ctx: &Ctx, base: Option<&str>) -> (Option<String>, Option<String>) {
    let text = |field| ctx.cfg.str(field).filter(|s| !s.is_empty()).or(base).map(str::to_string);
    (text(f::prefill_attention_backend), text(f::decode_attention_backend))
}

/// `context_parallel_attn_dp_size`: the attention-DP width a DeepSeek context-parallel layout runs
/// (`attn_dp_size * dp_size`); both above 1 is refused.
pub fn context_parallel_attn_dp_size(ctx: &mut Ctx) -> Result<i64, crate::rules::Raised> {
    let attn_dp = ctx.cfg.int(f::attn_dp_size).unwrap_or(1);
    let dp = ctx.cfg.int(f::dp_size).unwrap_or(1);
    if attn_dp > 1 && dp > 1 {
        let fixes = vec![ctx.fix_remove("Remove --dp-size", f::dp_size, Applicability::Unsafe)];
        ctx.raise(&CP_DP_WITH_ATTN_DP, &[("cfg.dp_size", &dp), ("cfg.attn_dp_size", &attn_dp)], &[f::dp_size, f::attn_dp_size], fixes)?;
    }
    Ok(attn_dp * dp)
}
