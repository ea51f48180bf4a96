//! Rules from SGLang's `sglang/srt/arg_groups/mamba_hook.py`: the Mamba / linear-attention state
//! cache (its kernel backend, stochastic rounding, the int8 checkpoint pool).
//!
//! `validate_mamba_extra_buffer` and `validate_mamba_no_buffer` are called from the model's
//! overrides (`model_hook.handle_model_specific_adjustments`) for hybrid models only: they need
//! the model's config and are not reached from the hooks modelled here.

use super::{Ctx, Rule};
use crate::diagnostic::Applicability;
use crate::fields::f;
use crate::pyvalue::str_repr;
use crate::release::SiteRef;
use crate::rules::shared::runtime_context::{has_flashinfer, is_sm100};
use crate::rules::{raises, raises_nth, site_nth, NotRunReason, Step};

const FLASHINFER_MISSING_SITE: SiteRef = site_nth("mamba_hook.handle_mamba_backend", "FlashInfer mamba module not available", 1);

pub static PHILOX_ROUNDS: Rule = Rule {
    code: "MAMBA001",
    name: kebab!("mamba-cache-philox-rounds-non-negative"),
    sglang: raises("mamba_hook.handle_mamba_backend", "--mamba-cache-philox-rounds must be non-negative"),
    explanation: expl!("--mamba-cache-philox-rounds is how many Philox rounds the stochastic-rounding random numbers use; it cannot be negative (0 keeps the kernel's default)."),
    flags: &["--mamba-cache-philox-rounds"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mamba-cache-philox-rounds -1"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mamba-cache-philox-rounds 0"),
};

pub static MAX_STATES_PER_PATH: Rule = Rule {
    code: "MAMBA002",
    name: kebab!("mamba-max-states-per-path"),
    sglang: raises("mamba_hook.handle_mamba_backend", "--mamba-max-states-per-path must be -1"),
    explanation: expl!("--mamba-max-states-per-path caps how many Mamba state snapshots the radix cache keeps along one prefix path: a positive number, or -1 for no limit (0 or below -1 mean nothing)."),
    flags: &["--mamba-max-states-per-path"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mamba-max-states-per-path 0"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mamba-max-states-per-path -1"),
};

pub static SR_DTYPE: Rule = Rule {
    code: "MAMBA003",
    name: kebab!("mamba-stochastic-rounding-needs-fp16"),
    sglang: raises("mamba_hook.handle_mamba_backend", "Stochastic rounding for the Mamba SSM cache requires --mamba-ssm-dtype"),
    explanation: expl!("Stochastic rounding is applied when the SSM state is stored in float16; with another (or the model's) state dtype there is nothing to round."),
    flags: &["--enable-mamba-cache-stochastic-rounding", "--mamba-ssm-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mamba-cache-stochastic-rounding"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mamba-cache-stochastic-rounding --mamba-ssm-dtype float16 --mamba-backend flashinfer"),
};

pub static SR_CUDA: Rule = Rule {
    code: "MAMBA004",
    name: kebab!("mamba-stochastic-rounding-needs-cuda"),
    sglang: raises("mamba_hook.handle_mamba_backend", "Stochastic rounding for the Mamba SSM cache is only supported on NVIDIA"),
    explanation: expl!("The stochastic-rounding kernels for the Mamba state cache exist for NVIDIA GPUs only."),
    flags: &["--enable-mamba-cache-stochastic-rounding"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mamba-cache-stochastic-rounding --mamba-ssm-dtype float16"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mamba-ssm-dtype float16"),
};

pub static SR_TRITON_SM100: Rule = Rule {
    code: "MAMBA005",
    name: kebab!("mamba-stochastic-rounding-triton-needs-sm100"),
    sglang: raises("mamba_hook.handle_mamba_backend", "Stochastic rounding for the Mamba SSM cache with --mamba-backend triton"),
    explanation: expl!("The triton Mamba kernel rounds stochastically with a PTX instruction that only SM100 (Blackwell) has; on Hopper and older use --mamba-backend flashinfer."),
    flags: &["--enable-mamba-cache-stochastic-rounding", "--mamba-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mamba-cache-stochastic-rounding --mamba-ssm-dtype float16"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mamba-cache-stochastic-rounding --mamba-ssm-dtype float16 --mamba-backend flashinfer"),
};

pub static FLASHINFER_MAMBA_MISSING: Rule = Rule {
    code: "MAMBA006",
    name: kebab!("mamba-backend-flashinfer-unavailable"),
    sglang: raises_nth("mamba_hook.handle_mamba_backend", "FlashInfer mamba module not available", 1),
    explanation: expl!("--mamba-backend flashinfer needs FlashInfer, which exists for NVIDIA GPUs only (and not when SGLANG_IS_FLASHINFER_AVAILABLE=false); use the triton Mamba backend elsewhere."),
    flags: &["--mamba-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mamba-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mamba-backend triton"),
};

pub static INT8_HICACHE: Rule = Rule {
    code: "MAMBA007",
    name: kebab!("int8-mamba-checkpoint-not-with-hicache"),
    sglang: raises("mamba_hook.handle_int8_mamba_checkpoint", "--enable-int8-mamba-checkpoint is not supported together with --enable-hierarchical"),
    explanation: expl!("The hierarchical cache copies Mamba states to host memory as bf16; it would misread int8 checkpoint slots, so the two cannot be combined."),
    flags: &["--enable-int8-mamba-checkpoint", "--enable-hierarchical-cache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-int8-mamba-checkpoint --enable-hierarchical-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-int8-mamba-checkpoint"),
};

pub static INT8_RADIX_BACKEND: Rule = Rule {
    code: "MAMBA008",
    name: kebab!("int8-mamba-checkpoint-built-in-radix-cache"),
    sglang: raises("mamba_hook.handle_int8_mamba_checkpoint", "--enable-int8-mamba-checkpoint only supports the built-in"),
    explanation: expl!("int8 Mamba checkpoints are understood only by SGLang's built-in Mamba radix cache, not by a custom --radix-cache-backend."),
    flags: &["--enable-int8-mamba-checkpoint", "--radix-cache-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-int8-mamba-checkpoint --radix-cache-backend mybackend"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-int8-mamba-checkpoint"),
};

pub static INT8_LMCACHE: Rule = Rule {
    code: "MAMBA009",
    name: kebab!("int8-mamba-checkpoint-not-with-lmcache"),
    sglang: raises("mamba_hook.handle_int8_mamba_checkpoint", "--enable-int8-mamba-checkpoint is not supported together with --enable-lmcache"),
    explanation: expl!("LMCache stores Mamba states without knowing about int8 checkpoints, so the two cannot be combined."),
    flags: &["--enable-int8-mamba-checkpoint", "--enable-lmcache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-int8-mamba-checkpoint --enable-lmcache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-int8-mamba-checkpoint"),
};

pub static RULES: &[&Rule] = &[
    &PHILOX_ROUNDS,
    &MAX_STATES_PER_PATH,
    &SR_DTYPE,
    &SR_CUDA,
    &SR_TRITON_SM100,
    &FLASHINFER_MAMBA_MISSING,
    &INT8_HICACHE,
    &INT8_RADIX_BACKEND,
    &INT8_LMCACHE,
];

/// `mamba_hook.handle_mamba_backend`.
pub fn handle_mamba_backend(ctx: &mut Ctx) -> Step {
    let rounds = ctx.cfg.int(f::mamba_cache_philox_rounds).unwrap_or(0);
    if rounds < 0 {
        let fixes = vec![ctx.fix_set("Use --mamba-cache-philox-rounds 0", f::mamba_cache_philox_rounds, "0", Applicability::Safe)];
        ctx.raise(&PHILOX_ROUNDS, &[], &[f::mamba_cache_philox_rounds], fixes)?;
    }
    let states = ctx.cfg.int(f::mamba_max_states_per_path).unwrap_or(-1);
    if states == 0 || states < -1 {
        let fixes = vec![ctx.fix_set("Use --mamba-max-states-per-path -1 (no limit)", f::mamba_max_states_per_path, "-1", Applicability::Safe)];
        ctx.raise(&MAX_STATES_PER_PATH, &[("cfg.mamba_max_states_per_path", &states)], &[f::mamba_max_states_per_path], fixes)?;
    }
    let sr = ctx.cfg.truthy(f::enable_mamba_cache_stochastic_rounding);
    let remove_sr = |ctx: &Ctx| {
        ctx.fix_remove("Remove --enable-mamba-cache-stochastic-rounding", f::enable_mamba_cache_stochastic_rounding, Applicability::Unsafe)
    };
    if sr {
        let dtype = ctx.cfg.str(f::mamba_ssm_dtype).map(str::to_string);
        if dtype.as_deref() != Some("float16") {
            let shown = dtype.as_deref().map(str_repr).unwrap_or_else(|| "None".to_string());
            let fixes = vec![
                ctx.fix_set("Use --mamba-ssm-dtype float16", f::mamba_ssm_dtype, "float16", Applicability::Unsafe),
                remove_sr(ctx),
            ];
            ctx.raise(&SR_DTYPE, &[("cfg.mamba_ssm_dtype", &shown)], &[f::enable_mamba_cache_stochastic_rounding, f::mamba_ssm_dtype], fixes)?;
        }
        if !ctx.hw.is_cuda() {
            let fixes = vec![remove_sr(ctx)];
            ctx.raise(&SR_CUDA, &[], &[f::enable_mamba_cache_stochastic_rounding], fixes)?;
        }
        if ctx.cfg.is(f::mamba_backend, "triton") && !is_sm100(ctx.hw) {
            let fixes = vec![ctx.fix_set("Use --mamba-backend flashinfer", f::mamba_backend, "flashinfer", Applicability::Safe), remove_sr(ctx)];
            ctx.raise(&SR_TRITON_SM100, &[], &[f::mamba_backend, f::enable_mamba_cache_stochastic_rounding], fixes)?;
        }
    }
    if ctx.cfg.is(f::mamba_backend, "flashinfer") {
        // With FlashInfer there, `import flashinfer.mamba` succeeds (the carried profiles ship
        // the package whole); without it SGLang raises the same message (its second site).
        if !has_flashinfer(ctx) {
            if sr {
                // the message then has a second sentence the site's template does not hold
                ctx.skip(FLASHINFER_MISSING_SITE, NotRunReason::NotImplemented);
                return Ok(());
            }
            let fixes = vec![ctx.fix_set("Use --mamba-backend triton", f::mamba_backend, "triton", Applicability::Safe)];
            ctx.raise(&FLASHINFER_MAMBA_MISSING, &[], &[f::mamba_backend], fixes)?;
        }
    }
    Ok(())
}

/// `mamba_hook.handle_int8_mamba_checkpoint`.
pub fn handle_int8_mamba_checkpoint(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.truthy(f::enable_int8_mamba_checkpoint) {
        return Ok(());
    }
    let drop_int8 = |ctx: &Ctx| ctx.fix_remove("Remove --enable-int8-mamba-checkpoint", f::enable_int8_mamba_checkpoint, Applicability::Unsafe);
    if ctx.cfg.truthy(f::enable_hierarchical_cache) {
        let fixes = vec![ctx.fix_remove("Remove --enable-hierarchical-cache", f::enable_hierarchical_cache, Applicability::Unsafe), drop_int8(ctx)];
        ctx.raise(&INT8_HICACHE, &[], &[f::enable_hierarchical_cache, f::enable_int8_mamba_checkpoint], fixes)?;
    }
    if let Some(b) = ctx.cfg.str(f::radix_cache_backend).map(str::to_string) {
        let shown = str_repr(&b);
        let fixes = vec![ctx.fix_remove("Remove --radix-cache-backend", f::radix_cache_backend, Applicability::Unsafe), drop_int8(ctx)];
        ctx.raise(&INT8_RADIX_BACKEND, &[("cfg.radix_cache_backend", &shown)], &[f::radix_cache_backend, f::enable_int8_mamba_checkpoint], fixes)?;
    }
    if ctx.cfg.truthy(f::enable_lmcache) {
        let fixes = vec![ctx.fix_remove("Remove --enable-lmcache", f::enable_lmcache, Applicability::Unsafe), drop_int8(ctx)];
        ctx.raise(&INT8_LMCACHE, &[], &[f::enable_lmcache, f::enable_int8_mamba_checkpoint], fixes)?;
    }
    Ok(())
}
