//! Rules from SGLang's `sglang/srt/arg_groups/layernorm_sp_hook.py`: LayerNorm sequence
//! parallelism (`--enable-layernorm-sp`) and its Muse Spark MegaMoE prefill
//! (`--enable-megamoe-for-layernorm-sp`).
//!
//! Everything past the first check depends on the model's architecture (the supported list,
//! Muse Spark's TP/EP, quantization and MoE backend needs), so it is reported as not run.

use super::{Ctx, Rule};
use crate::diagnostic::Applicability;
use crate::fields::f;
use crate::rules::{raises, site, Step};

pub static MEGAMOE_NEEDS_SP: Rule = Rule {
    code: "LNSP001",
    name: "megamoe-for-layernorm-sp-needs-layernorm-sp",
    sglang: raises("layernorm_sp_hook.handle_layernorm_sp", "--enable-megamoe-for-layernorm-sp requires --enable-layernorm-sp."),
    explanation: "--enable-megamoe-for-layernorm-sp chooses how LayerNorm sequence parallelism runs Muse Spark's MoE prefill; it does nothing on its own, so SGLang requires --enable-layernorm-sp with it.",
    flags: &["--enable-megamoe-for-layernorm-sp", "--enable-layernorm-sp"],
    example_bad: "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-megamoe-for-layernorm-sp",
    example_good: "--model-path meta-llama/Llama-3.1-8B-Instruct",
};

pub static RULES: &[&Rule] = &[&MEGAMOE_NEEDS_SP];

/// `handle_layernorm_sp`.
pub fn handle_layernorm_sp(ctx: &mut Ctx) -> Step {
    let megamoe = ctx.cfg.truthy(f::enable_megamoe_for_layernorm_sp);
    if !ctx.cfg.truthy(f::enable_layernorm_sp) {
        if megamoe {
            // (Adding --enable-layernorm-sp is right only for Muse Spark, a model fact.)
            let fixes = vec![ctx.fix_remove("Remove --enable-megamoe-for-layernorm-sp", f::enable_megamoe_for_layernorm_sp, Applicability::Safe)];
            return ctx.raise(&MEGAMOE_NEEDS_SP, &[], &[f::enable_megamoe_for_layernorm_sp], fixes);
        }
        return Ok(());
    }
    // validate_layernorm_sp(architecture=...): the model's first architecture decides.
    if megamoe {
        ctx.model_config(site("layernorm_sp_hook.validate_layernorm_sp", "--enable-megamoe-for-layernorm-sp supports only Muse Spark."));
    }
    ctx.model_config(site("layernorm_sp_hook.validate_layernorm_sp", "--enable-layernorm-sp is only supported for"));
    if ctx.cfg.int(f::tp_size).unwrap_or(1) <= 1 {
        ctx.model_config(site("layernorm_sp_hook.validate_layernorm_sp", "--enable-layernorm-sp requires tp_size > 1"));
    }
    if ctx.cfg.int(f::attn_dp_size).unwrap_or(1) > 1 || ctx.cfg.is(f::ep_join_mode, "scale") {
        ctx.model_config(site("layernorm_sp_hook.validate_layernorm_sp", "--enable-layernorm-sp is not compatible with attention DP"));
    }
    if !ctx.cfg.is_none(f::speculative_algorithm) {
        ctx.model_config(site("layernorm_sp_hook.validate_layernorm_sp", "--enable-layernorm-sp supports speculative decoding only"));
    }
    if ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 {
        ctx.model_config(site("layernorm_sp_hook.validate_layernorm_sp", "--enable-layernorm-sp is not compatible with pipeline"));
    }
    if megamoe {
        // Muse Spark's MegaMoE prefill: mixed chunks, token budget, PP, breakable prefill graph.
        if ctx.cfg.truthy(f::enable_mixed_chunk) {
            ctx.model_config(site("layernorm_sp_hook.handle_layernorm_sp", "--enable-megamoe-for-layernorm-sp is incompatible with --enable-mixed-chunk"));
        }
        ctx.model_config(site("layernorm_sp_hook.validate_muse_megamoe_token_budget", "Muse MegaMoE needs {per_rank} tokens per rank"));
    }
    Ok(())
}
