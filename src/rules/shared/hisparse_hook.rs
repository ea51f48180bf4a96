//! `sglang/srt/arg_groups/hisparse_hook.py`: `validate_hisparse` (run by overrides.py's
//! `_hisparse_validation` pass at its slot in `validation_hook.check_server_args`),
//! `validate_hisparse_feature_combos` and `validate_hisparse_dsa_backend`.
//!
//! The model-class check that opens `validate_hisparse` is VAL148 (validation family, which calls
//! this module once the class passes); the checks after it are here.

use crate::diagnostic::Applicability;
use crate::fields::{f, Field};
use crate::pyvalue::str_repr;
use crate::rules::{raises, site, Ctx, NotRunReason, Rule, Step};

pub static NEEDS_DISABLE_RADIX_CACHE: Rule = Rule {
    code: "HSP001",
    name: kebab!("hisparse-needs-disable-radix-cache"),
    sglang: raises("hisparse_hook.validate_hisparse", "Hierarchical sparse attention currently requires --disable-radix-cache."),
    explanation: expl!("Hierarchical sparse attention (--enable-hisparse) keeps most of the KV cache in host memory and swaps the selected entries in per step; it does not work with the radix (prefix) cache yet, so SGLang asks for --disable-radix-cache."),
    flags: &["--enable-hisparse", "--disable-radix-cache"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-hisparse"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-hisparse --disable-radix-cache"),
};

pub static MIXED_CHUNK: Rule = Rule {
    code: "HSP002",
    name: kebab!("hisparse-with-mixed-chunk"),
    sglang: raises("hisparse_hook.validate_hisparse_feature_combos", "--enable-hisparse does not support --enable-mixed-chunk yet."),
    explanation: expl!("A mixed prefill/decode batch (--enable-mixed-chunk) cannot merge HiSparse's decode batch, so SGLang refuses the combination."),
    flags: &["--enable-hisparse", "--enable-mixed-chunk"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-hisparse --disable-radix-cache --enable-mixed-chunk"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-hisparse --disable-radix-cache"),
};

pub static SPEC_ADAPTIVE: Rule = Rule {
    code: "HSP003",
    name: kebab!("hisparse-speculative-adaptive"),
    sglang: raises("hisparse_hook.validate_hisparse", "HiSparse speculative decoding uses statically sized swap state"),
    explanation: expl!("HiSparse sizes its swap state for a fixed number of draft tokens; adaptive speculation (--speculative-adaptive) changes it at run time, so SGLang refuses it."),
    flags: &["--enable-hisparse", "--speculative-adaptive"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-hisparse --disable-radix-cache --speculative-algorithm EAGLE --speculative-adaptive"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-hisparse --disable-radix-cache --speculative-algorithm EAGLE"),
};

pub static DSV4_UNIFIED_KV_ROCM: Rule = Rule {
    code: "HSP004",
    name: kebab!("hisparse-dsv4-unified-kv-on-rocm"),
    sglang: raises("hisparse_hook.validate_hisparse", "--enable-hisparse is not supported with the unified-KV path on ROCm"),
    explanation: expl!("On ROCm, DeepSeek-V4's unified-KV path (SGLANG_HACK_FLASHMLA_BACKEND=unified_kv_triton) has no separate compressed KV pool for HiSparse to attach to."),
    flags: &["--enable-hisparse"],
    example_bad: ex!("SGLANG_HACK_FLASHMLA_BACKEND=unified_kv_triton python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V4-Flash --enable-hisparse --disable-radix-cache   (on MI300X)"),
    example_good: ex!("python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V4-Flash --enable-hisparse --disable-radix-cache   (on MI300X)"),
};

pub static DSA_BACKEND: Rule = Rule {
    code: "HSP005",
    name: kebab!("hisparse-dsa-backend"),
    sglang: raises("hisparse_hook.validate_hisparse_dsa_backend", "HiSparse supports DSA {label} backend(s)"),
    explanation: expl!("HiSparse runs with some DSA attention backends only: on CUDA flashmla_sparse for a bfloat16 KV cache and flashmla_kv or flashinfer_sparse_mla for FP8; on ROCm tilelang, triton or aiter. Leaving --dsa-prefill-backend / --dsa-decode-backend out lets SGLang pick one."),
    flags: &["--enable-hisparse", "--dsa-prefill-backend", "--dsa-decode-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-hisparse --disable-radix-cache --dsa-decode-backend tilelang"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-hisparse --disable-radix-cache"),
};

pub static RULES: &[&Rule] = &[&NEEDS_DISABLE_RADIX_CACHE, &MIXED_CHUNK, &SPEC_ADAPTIVE, &DSV4_UNIFIED_KV_ROCM, &DSA_BACKEND];

/// `validate_hisparse` after its model-class check passed for `arch` (a DSA, DeepSeek-V4 or
/// MiniMax-M3 sparse architecture).
pub fn validate_hisparse_after_model_class(ctx: &mut Ctx, arch: &str) -> Step {
    // `is_deepseek_v4` / `is_minimax_sparse`: the release's lists (the model-class check that
    // leads here has read them)
    let lists = ctx.release.model_lists();
    let is_v4 = lists.is_some_and(|l| crate::models::ModelLists::names(&l.deepseek_v4_architectures, arch));
    let is_m3 = lists.is_some_and(|l| crate::models::ModelLists::names(&l.minimax_sparse_architectures, arch));
    if !ctx.cfg.truthy(f::disable_radix_cache) {
        let fixes = vec![ctx.fix_add_flag("Add --disable-radix-cache", f::disable_radix_cache, Applicability::Unsafe)];
        ctx.raise(&NEEDS_DISABLE_RADIX_CACHE, &[], &[f::enable_hisparse], fixes)?;
    }
    // 0.5.18's validate_hisparse (no feature-combo function there) has neither the mixed-chunk
    // nor the speculative checks, nor the MiniMax-M3 path, and no triton backend on ROCm.
    let legacy = hisparse_0_5_18(ctx);
    if legacy {
        return validate_hisparse_0_5_18_tail(ctx, is_v4);
    }
    validate_hisparse_feature_combos(ctx)?;
    let algorithm = ctx.cfg.str(f::speculative_algorithm).map(str::to_string);
    let enable_spec = !ctx.cfg.is_none(f::speculative_algorithm) && !algorithm.as_deref().is_some_and(|a| a.eq_ignore_ascii_case("NONE"));
    // `cfg.speculative_eagle_topk or 1`
    let topk = ctx.cfg.int(f::speculative_eagle_topk).filter(|&k| k != 0).unwrap_or(1);
    if enable_spec && topk != 1 {
        // On every served configuration SGLang raises earlier (DSA's page size with top-k
        // above 1, DeepSeek-V4's EAGLE top-k 1): no recorded case reaches this check.
        ctx.skip(site("hisparse_hook.validate_hisparse", "The minimal HiSparse spec integration supports linear speculation"), NotRunReason::NotImplemented);
        return Ok(());
    }
    if enable_spec && ctx.cfg.truthy(f::speculative_adaptive) {
        let fixes = vec![ctx.fix_remove("Remove --speculative-adaptive", f::speculative_adaptive, Applicability::Unsafe)];
        ctx.raise(&SPEC_ADAPTIVE, &[], &[f::speculative_adaptive], fixes)?;
    }
    let is_hip = ctx.hw.is_hip();
    if is_hip && is_v4 {
        // `is_unified_kv_triton()`
        if ctx.env("SGLANG_HACK_FLASHMLA_BACKEND") == Some("unified_kv_triton") {
            let fixes = vec![ctx.fix_unset_env("Unset SGLANG_HACK_FLASHMLA_BACKEND", "SGLANG_HACK_FLASHMLA_BACKEND", Applicability::Unsafe)];
            ctx.raise(&DSV4_UNIFIED_KV_ROCM, &[], &[f::enable_hisparse], fixes)?;
        }
        return Ok(());
    }
    if is_m3 {
        return Ok(());
    }
    // (`validate_hisparse_kv_cache_dtype`: a DSA model's KV cache dtype pass has refused any
    // other dtype before, and DeepSeek-V4's allows fp8_e4m3 and bfloat16 only.)
    validate_hisparse_dsa_backend(ctx, f::dsa_prefill_backend, "prefill")?;
    validate_hisparse_dsa_backend(ctx, f::dsa_decode_backend, "decode")
}

/// A release whose `validate_hisparse` is 0.5.18's: it has no `validate_hisparse_feature_combos`.
pub fn hisparse_0_5_18(ctx: &Ctx) -> bool {
    !MIXED_CHUNK.applies_to(ctx.release)
}

/// 0.5.18's `validate_hisparse` after its radix-cache assert.
fn validate_hisparse_0_5_18_tail(ctx: &mut Ctx, is_v4: bool) -> Step {
    if ctx.hw.is_hip() && is_v4 {
        if ctx.env("SGLANG_HACK_FLASHMLA_BACKEND") == Some("unified_kv_triton") {
            let fixes = vec![ctx.fix_unset_env("Unset SGLANG_HACK_FLASHMLA_BACKEND", "SGLANG_HACK_FLASHMLA_BACKEND", Applicability::Unsafe)];
            ctx.raise(&DSV4_UNIFIED_KV_ROCM, &[], &[f::enable_hisparse], fixes)?;
        }
        return Ok(());
    }
    validate_hisparse_dsa_backend(ctx, f::dsa_prefill_backend, "prefill")?;
    validate_hisparse_dsa_backend(ctx, f::dsa_decode_backend, "decode")
}

/// `validate_hisparse_feature_combos`.
pub fn validate_hisparse_feature_combos(ctx: &mut Ctx) -> Step {
    if ctx.cfg.truthy(f::enable_mixed_chunk) {
        let fixes = vec![ctx.fix_remove("Remove --enable-mixed-chunk", f::enable_mixed_chunk, Applicability::Safe)];
        ctx.raise(&MIXED_CHUNK, &[], &[f::enable_mixed_chunk], fixes)?;
    }
    Ok(())
}

/// `_hisparse_allowed_backends`, sorted as SGLang prints them.
fn allowed_backends(is_hip: bool, kv_cache_dtype: &str, legacy: bool) -> &'static [&'static str] {
    if is_hip && legacy {
        return &["aiter", "tilelang"];
    }
    if is_hip {
        return &["aiter", "tilelang", "triton"];
    }
    match kv_cache_dtype {
        "bfloat16" => &["flashmla_sparse"],
        "fp8_e4m3" => &["flashinfer_sparse_mla", "flashmla_kv"],
        _ => &["flashinfer_sparse_mla", "flashmla_kv", "flashmla_sparse"],
    }
}

/// `validate_hisparse_dsa_backend` for one phase's DSA backend.
fn validate_hisparse_dsa_backend(ctx: &mut Ctx, field: Field, label: &str) -> Step {
    let Some(backend) = ctx.cfg.str(field).map(str::to_string) else { return Ok(()) };
    let kv = ctx.cfg.get(f::kv_cache_dtype).clone();
    let kv_text = kv.as_str().map(str::to_string).unwrap_or_else(|| kv.repr());
    let allowed = allowed_backends(ctx.hw.is_hip(), &kv_text, hisparse_0_5_18(ctx));
    if allowed.contains(&backend.as_str()) {
        return Ok(());
    }
    let listed = format!("[{}]", allowed.iter().map(|b| str_repr(b)).collect::<Vec<_>>().join(", "));
    let fixes = vec![ctx.fix_remove(format!("Remove {} (SGLang picks one)", ctx.flag(field)), field, Applicability::Unsafe)];
    let args: &crate::rules::Args = &[("label", &label), ("sorted(allowed_backends)", &listed), ("kv_cache_dtype", &kv_text), ("backend", &backend)];
    ctx.raise(&DSA_BACKEND, args, &[field], fixes)
}
