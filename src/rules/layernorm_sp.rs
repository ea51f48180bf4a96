//! Rules from SGLang's `sglang/srt/arg_groups/layernorm_sp_hook.py`: LayerNorm sequence
//! parallelism (`--enable-layernorm-sp`) and its Muse Spark MegaMoE prefill
//! (`--enable-megamoe-for-layernorm-sp`).
//!
//! Everything past the first check depends on the model's first architecture: the supported
//! list and the generic checks are run with it; Muse Spark's own needs (TP/EP, quantization,
//! MoE backends, the NVFP4 dispatch variable, the MegaMoE token budget, PP and prefill graph)
//! are reported as not run: no Muse Spark config was found in public.

use super::{Ctx, Rule};
use crate::diagnostic::Applicability;
use crate::fields::f;
use crate::rules::{raises, site, Step};

pub static MEGAMOE_NEEDS_SP: Rule = Rule {
    code: "LNSP001",
    name: kebab!("megamoe-for-layernorm-sp-needs-layernorm-sp"),
    sglang: raises("layernorm_sp_hook.handle_layernorm_sp", "--enable-megamoe-for-layernorm-sp requires --enable-layernorm-sp."),
    explanation: expl!("--enable-megamoe-for-layernorm-sp chooses how LayerNorm sequence parallelism runs Muse Spark's MoE prefill; it does nothing on its own, so SGLang requires --enable-layernorm-sp with it."),
    flags: &["--enable-megamoe-for-layernorm-sp", "--enable-layernorm-sp"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-megamoe-for-layernorm-sp"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static MEGAMOE_MUSE_ONLY: Rule = Rule {
    code: "LNSP002",
    name: kebab!("megamoe-for-layernorm-sp-muse-spark-only"),
    sglang: raises("layernorm_sp_hook.validate_layernorm_sp", "--enable-megamoe-for-layernorm-sp supports only Muse Spark."),
    explanation: expl!("The MegaMoE prefill for LayerNorm sequence parallelism is written for Muse Spark's MoE layers only; for any other model SGLang refuses the flag."),
    flags: &["--enable-megamoe-for-layernorm-sp", "--enable-layernorm-sp"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --enable-layernorm-sp --enable-megamoe-for-layernorm-sp"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --enable-layernorm-sp"),
};

pub static SP_UNSUPPORTED_MODEL: Rule = Rule {
    code: "LNSP003",
    name: kebab!("layernorm-sp-unsupported-model"),
    sglang: raises("layernorm_sp_hook.validate_layernorm_sp", "--enable-layernorm-sp is only supported for"),
    explanation: expl!("LayerNorm sequence parallelism needs model code that marks its layer boundaries; in this release only Qwen3 dense models (Qwen3ForCausalLM) and Muse Spark have it. Other models would silently ignore the flag, so SGLang refuses it."),
    flags: &["--enable-layernorm-sp"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --enable-layernorm-sp"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --enable-layernorm-sp"),
};

pub static SP_NEEDS_TP: Rule = Rule {
    code: "LNSP004",
    name: kebab!("layernorm-sp-needs-tp"),
    sglang: raises("layernorm_sp_hook.validate_layernorm_sp", "--enable-layernorm-sp requires tp_size > 1"),
    explanation: expl!("LayerNorm sequence parallelism shards the sequence across the tensor-parallel ranks; with one rank there is nothing to shard."),
    flags: &["--enable-layernorm-sp", "--tp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --enable-layernorm-sp"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --enable-layernorm-sp"),
};

pub static SP_NO_ATTN_DP: Rule = Rule {
    code: "LNSP005",
    name: kebab!("layernorm-sp-no-attention-dp"),
    sglang: raises("layernorm_sp_hook.validate_layernorm_sp", "--enable-layernorm-sp is not compatible with attention DP"),
    explanation: expl!("Sequence parallelism shards one sequence across the whole TP group; with attention data parallelism that group holds different sequences."),
    flags: &["--enable-layernorm-sp", "--attn-dp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --attn-dp-size 2 --enable-layernorm-sp"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --enable-layernorm-sp"),
};

pub static SP_NO_SPEC: Rule = Rule {
    code: "LNSP006",
    name: kebab!("layernorm-sp-speculative-muse-dflash-only"),
    sglang: raises("layernorm_sp_hook.validate_layernorm_sp", "--enable-layernorm-sp supports speculative decoding only"),
    explanation: expl!("Speculative decoding reads auxiliary hidden states that sequence parallelism leaves sharded; only Muse Spark's DFLASH path gathers them."),
    flags: &["--enable-layernorm-sp", "--speculative-algorithm"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --enable-layernorm-sp --speculative-algorithm NGRAM"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --enable-layernorm-sp"),
};

pub static SP_NO_PP: Rule = Rule {
    code: "LNSP007",
    name: kebab!("layernorm-sp-no-pipeline-parallel"),
    sglang: raises("layernorm_sp_hook.validate_layernorm_sp", "--enable-layernorm-sp is not compatible with pipeline"),
    explanation: expl!("Only the first pipeline stage starts the sequence-sharded region, so the next stage would receive a stream it does not expect."),
    flags: &["--enable-layernorm-sp", "--pp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --pp-size 2 --enable-layernorm-sp"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --enable-layernorm-sp"),
};

pub static RULES: &[&Rule] = &[&MEGAMOE_NEEDS_SP, &MEGAMOE_MUSE_ONLY, &SP_UNSUPPORTED_MODEL, &SP_NEEDS_TP, &SP_NO_ATTN_DP, &SP_NO_SPEC, &SP_NO_PP];

/// The model's first architecture and the release's `layers.layernorm_sp` lists
/// (`model-lists.json`: `MUSE_SP_ARCHITECTURES`, and `SP_SUPPORTED_ARCHITECTURES` sorted as SGLang
/// prints it), when the release has them.
fn architecture<'a>(ctx: &Ctx<'a>) -> Option<(&'a str, &'static crate::models::ModelLists)> {
    let lists = ctx.release.model_lists().filter(|l| !l.layernorm_sp_supported_architectures.is_empty())?;
    Some((ctx.model.as_ref().and_then(|m| m.architecture)?, lists))
}

/// `validate_layernorm_sp` for a model other than Muse Spark (whose own checks are not run).
fn validate_generic(ctx: &mut Ctx, arch: &str, supported: &[String], megamoe: bool) -> Step {
    let remove_sp = |ctx: &Ctx| ctx.fix_remove("Remove --enable-layernorm-sp", f::enable_layernorm_sp, Applicability::Unsafe);
    if megamoe {
        let fixes = vec![ctx.fix_remove("Remove --enable-megamoe-for-layernorm-sp", f::enable_megamoe_for_layernorm_sp, Applicability::Safe)];
        ctx.raise(&MEGAMOE_MUSE_ONLY, &[], &[f::enable_megamoe_for_layernorm_sp], fixes)?;
    }
    if !supported.iter().any(|a| a == arch) {
        let listed = format!("[{}]", supported.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(", "));
        let fixes = vec![remove_sp(ctx)];
        ctx.raise(&SP_UNSUPPORTED_MODEL, &[("sorted(SP_SUPPORTED_ARCHITECTURES)", &listed), ("architecture", &arch)], &[f::enable_layernorm_sp], fixes)?;
    }
    if ctx.cfg.int(f::tp_size).unwrap_or(1) <= 1 {
        let fixes = vec![ctx.fix_set("Use --tp-size 2", f::tp_size, "2", Applicability::Unsafe), remove_sp(ctx)];
        ctx.raise(&SP_NEEDS_TP, &[], &[f::enable_layernorm_sp, f::tp_size], fixes)?;
    }
    if ctx.cfg.int(f::attn_dp_size).unwrap_or(1) > 1 || ctx.cfg.is(f::ep_join_mode, "scale") {
        let fixes = vec![remove_sp(ctx)];
        ctx.raise(&SP_NO_ATTN_DP, &[], &[f::enable_layernorm_sp, f::attn_dp_size], fixes)?;
    }
    if !ctx.cfg.is_none(f::speculative_algorithm) {
        let fixes = vec![remove_sp(ctx)];
        ctx.raise(&SP_NO_SPEC, &[], &[f::enable_layernorm_sp, f::speculative_algorithm], fixes)?;
    }
    if ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 {
        let fixes = vec![remove_sp(ctx)];
        ctx.raise(&SP_NO_PP, &[], &[f::enable_layernorm_sp, f::pp_size], fixes)?;
    }
    Ok(())
}

/// `handle_layernorm_sp`.
pub fn handle_layernorm_sp(ctx: &mut Ctx) -> Step {
    let megamoe = ctx.cfg.truthy(f::enable_megamoe_for_layernorm_sp);
    if !ctx.cfg.truthy(f::enable_layernorm_sp) {
        if megamoe {
            // (Adding --enable-layernorm-sp is right only for Muse Spark, a model fact.)
            let fixes = vec![ctx.fix_remove("Remove --enable-megamoe-for-layernorm-sp", f::enable_megamoe_for_layernorm_sp, Applicability::Safe)];
            ctx.raise(&MEGAMOE_NEEDS_SP, &[], &[f::enable_megamoe_for_layernorm_sp], fixes)?;
        }
        return Ok(());
    }
    // validate_layernorm_sp(architecture=...): the model's first architecture decides.
    if let Some((arch, lists)) = architecture(ctx).filter(|(a, l)| !l.layernorm_sp_muse_architectures.iter().any(|m| m == a)) {
        return validate_generic(ctx, arch, &lists.layernorm_sp_supported_architectures, megamoe);
    }
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
    muse_spark_checks_not_run(ctx, megamoe);
    Ok(())
}

/// Muse Spark's own checks (`validate_layernorm_sp`'s Muse arm, then `handle_layernorm_sp`'s),
/// each where the command's flags would let it fire: no Muse Spark config was found in public
/// (none in the catalog or the recorder's models), so no recorded verdict backs a replay of
/// them, and they are reported as not run.
fn muse_spark_checks_not_run(ctx: &mut Ctx, megamoe: bool) {
    let (tp, ep) = (ctx.cfg.int(f::tp_size), ctx.cfg.int(f::ep_size));
    if !matches!((tp, ep), (Some(4), Some(4)) | (Some(8), Some(8))) {
        ctx.model_config(site("layernorm_sp_hook.validate_layernorm_sp", "Muse Spark --enable-layernorm-sp requires TP4/EP4 or TP8/EP8"));
    }
    let quantization = ctx.cfg.str(f::quantization);
    if quantization != Some("modelopt_fp4") && !(quantization.is_none() && megamoe) {
        ctx.model_config(site("layernorm_sp_hook.validate_layernorm_sp", "Muse Spark --enable-layernorm-sp requires serialized NVFP4 weights"));
    }
    let a2a_flashinfer = ctx.cfg.is(f::moe_a2a_backend, "flashinfer");
    if megamoe && !a2a_flashinfer && !ctx.cfg.is(f::moe_a2a_backend, "none") {
        ctx.model_config(site("layernorm_sp_hook.validate_layernorm_sp", "Muse MegaMoE prefill requires --moe-a2a-backend none or flashinfer"));
    }
    if !megamoe && !a2a_flashinfer {
        ctx.model_config(site("layernorm_sp_hook.validate_layernorm_sp", "Muse Spark --enable-layernorm-sp requires --moe-a2a-backend flashinfer."));
    }
    if !ctx.cfg.is(f::moe_runner_backend, "flashinfer_trtllm") {
        ctx.model_config(site("layernorm_sp_hook.validate_layernorm_sp", "Muse Spark --enable-layernorm-sp requires --moe-runner-backend flashinfer_trtllm."));
    }
    if !megamoe {
        // SGLANG_MOE_NVFP4_DISPATCH may also be set by moe_hook (ModelOpt FP4 over FlashInfer A2A).
        ctx.model_config(site("layernorm_sp_hook.handle_layernorm_sp", "Muse Spark --enable-layernorm-sp requires SGLANG_MOE_NVFP4_DISPATCH=0"));
        return;
    }
    // Muse Spark's MegaMoE prefill: mixed chunks, token budget, PP, breakable prefill graph.
    if ctx.cfg.truthy(f::enable_mixed_chunk) {
        ctx.model_config(site("layernorm_sp_hook.handle_layernorm_sp", "--enable-megamoe-for-layernorm-sp is incompatible with --enable-mixed-chunk"));
    }
    ctx.model_config(site("layernorm_sp_hook.validate_muse_megamoe_token_budget", "Muse MegaMoE needs {per_rank} tokens per rank"));
    if ctx.cfg.int(f::pp_size) != Some(1) {
        ctx.model_config(site("layernorm_sp_hook.handle_layernorm_sp", "Muse MegaMoE LayerNorm SP requires pipeline parallel size 1."));
    }
    // The breakable prefill graph (the CUDA default): its bucket sizes are resolved later.
    if !ctx.cfg.int(f::chunked_prefill_size).is_some_and(|n| n > 0) {
        ctx.model_config(site("layernorm_sp_hook.handle_layernorm_sp", "Muse MegaMoE breakable prefill requires a positive --chunked-prefill-size"));
    }
    ctx.model_config(site("layernorm_sp_hook.handle_layernorm_sp", "Muse MegaMoE breakable prefill requires the largest prefill capture bucket"));
}
