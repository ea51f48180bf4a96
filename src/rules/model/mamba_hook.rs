//! What `model_hook.handle_mamba_radix_cache` runs for a hybrid Mamba architecture named in
//! `overrides._MAMBA_RADIX_CACHE_ARCHS`: the resolution pass `_mamba_radix_cache_resolution`
//! (the strategy `auto` picks), then `mamba_hook.validate_mamba_extra_buffer` or
//! `validate_mamba_no_buffer` (SGLang's `mamba_hook.py`, called from the model hook).

use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::{raises, raises_nth, site, site_nth, Ctx, NotRunReason, Rule};
use crate::diagnostic::Applicability;

pub static EXTRA_BUFFER_UNSUPPORTED: Rule = Rule {
    code: "MH036",
    name: kebab!("mamba-extra-buffer-unsupported"),
    sglang: raises("mamba_hook.validate_mamba_extra_buffer", "extra_buffer is not supported for"),
    explanation: expl!("The extra_buffer Mamba radix-cache strategy keeps a snapshot of the Mamba state at cache points; SGLang has it only for the hybrid architectures it lists, and only with the triton linear-attention backend (--linear-attn-backend triton, the default)."),
    flags: &["--mamba-radix-cache-strategy", "--linear-attn-backend"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --mamba-radix-cache-strategy extra_buffer --linear-attn-backend flashinfer"),
    example_good: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --mamba-radix-cache-strategy extra_buffer"),
};

pub static EXTRA_BUFFER_PLATFORM: Rule = Rule {
    code: "MH037",
    name: kebab!("mamba-extra-buffer-platform"),
    sglang: raises("mamba_hook.validate_mamba_extra_buffer", "extra_buffer requires platform support"),
    explanation: expl!("The extra_buffer Mamba radix-cache strategy snapshots Mamba state with kernels SGLang has for CUDA, ROCm, MUSA, NPU and XPU only; on a CPU it stops (the automatic strategy picks it there too while overlap scheduling is on)."),
    flags: &["--mamba-radix-cache-strategy", "--device"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --mamba-radix-cache-strategy extra_buffer --device cpu"),
    example_good: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --device cpu --disable-radix-cache"),
};

pub static EXTRA_BUFFER_PLATFORM_FLA: Rule = Rule {
    code: "MH110",
    name: kebab!("mamba-extra-buffer-platform-fla"),
    sglang: raises("mamba_hook.validate_mamba_extra_buffer", "extra_buffer needs CUDA/MUSA/NPU/ROCm/XPU (FLA)."),
    explanation: expl!("In SGLang 0.5.18 to 0.5.21 the extra_buffer Mamba radix-cache strategy snapshots Mamba state with the FLA kernels, which run on CUDA, ROCm, MUSA, NPU and XPU only; on a CPU it stops (later releases word it as a platform check, MH037). Disable the radix cache, or serve on a GPU."),
    flags: &["--mamba-radix-cache-strategy", "--device"],
    // (examples are checked on 0.5.23, whose message is MH037's)
    example_bad: ex!(""),
    example_good: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --device cpu --disable-radix-cache"),
};

pub static EXTRA_BUFFER_LAZY_PD: Rule = Rule {
    code: "MH038",
    name: kebab!("mamba-extra-buffer-lazy-under-pd"),
    sglang: raises("mamba_hook.validate_mamba_extra_buffer", "extra_buffer_lazy unsupported under PD disaggregation"),
    explanation: expl!("The PD-disaggregation decode pool has no lazy Mamba state slots, so extra_buffer_lazy works only on a colocated server; use extra_buffer with --disaggregation-mode."),
    flags: &["--mamba-radix-cache-strategy", "--disaggregation-mode"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --mamba-radix-cache-strategy extra_buffer_lazy --disaggregation-mode prefill"),
    example_good: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --mamba-radix-cache-strategy extra_buffer --disaggregation-mode prefill"),
};

pub static TRACK_INTERVAL_BELOW_DRAFT_TOKENS: Rule = Rule {
    code: "MH039",
    name: kebab!("mamba-track-interval-below-draft-tokens"),
    sglang: raises_nth("mamba_hook.validate_mamba_extra_buffer", "", 0),
    explanation: expl!("With the extra_buffer Mamba strategy, the Mamba state is tracked every --mamba-track-interval tokens during decode; a speculative verify step writes --speculative-num-draft-tokens tokens at once, which must fit in one interval (SGLang asserts it, without a message)."),
    flags: &["--mamba-track-interval", "--speculative-num-draft-tokens"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --mamba-radix-cache-strategy extra_buffer --speculative-num-draft-tokens 512"),
    example_good: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --mamba-radix-cache-strategy extra_buffer --speculative-num-draft-tokens 512 --mamba-track-interval 512"),
};

pub static TRACK_INTERVAL_PAGE_SIZE: Rule = Rule {
    code: "MH040",
    name: kebab!("mamba-track-interval-multiple-of-page-size"),
    sglang: raises_nth("mamba_hook.validate_mamba_extra_buffer", "", 1),
    explanation: expl!("With the extra_buffer Mamba strategy the Mamba state is snapshotted at page boundaries, so --mamba-track-interval (256 by default) must be a multiple of --page-size (SGLang asserts it, without a message)."),
    flags: &["--mamba-track-interval", "--page-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --page-size 100"),
    example_good: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --page-size 64"),
};

pub static NO_BUFFER_PAGE_SIZE: Rule = Rule {
    code: "MH041",
    name: kebab!("mamba-no-buffer-page-size"),
    sglang: raises("mamba_hook.validate_mamba_no_buffer", "no_buffer only supports page_size=1."),
    explanation: expl!("The no_buffer Mamba radix-cache strategy caches the Mamba state per token, so it needs --page-size 1; the extra_buffer strategy supports larger pages."),
    flags: &["--mamba-radix-cache-strategy", "--page-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --mamba-radix-cache-strategy no_buffer --disable-overlap-schedule --page-size 64"),
    example_good: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --mamba-radix-cache-strategy no_buffer --disable-overlap-schedule"),
};

pub static NO_BUFFER_OVERLAP: Rule = Rule {
    code: "MH042",
    name: kebab!("mamba-no-buffer-overlap-schedule"),
    sglang: raises("mamba_hook.validate_mamba_no_buffer", "no_buffer do not support overlap schedule."),
    explanation: expl!("Without an extra buffer, the Mamba state of a cached prefix would be overwritten by the next batch while the overlap scheduler runs ahead; the no_buffer strategy needs --disable-overlap-schedule (the automatic strategy sets it itself when it picks no_buffer)."),
    flags: &["--mamba-radix-cache-strategy", "--disable-overlap-schedule"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --mamba-radix-cache-strategy no_buffer"),
    example_good: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 8 --mamba-radix-cache-strategy no_buffer --disable-overlap-schedule"),
};

pub static NO_BUFFER_TRTLLM_MHA: Rule = Rule {
    code: "MH043",
    name: kebab!("mamba-no-buffer-trtllm-mha"),
    sglang: raises("mamba_hook.validate_mamba_no_buffer", "no_buffer do not support trtllm_mha attention backend."),
    explanation: expl!("The TensorRT-LLM MHA backend pages the KV cache (16 to 128 tokens a page), which the no_buffer Mamba strategy cannot cache; on Blackwell the model's defaults may pick it (Nemotron-H does), so choose another attention backend or the extra_buffer strategy."),
    flags: &["--mamba-radix-cache-strategy", "--attention-backend"],
    example_bad: ex!("--model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --tp-size 8 --mamba-radix-cache-strategy no_buffer --disable-overlap-schedule --attention-backend trtllm_mha"),
    example_good: ex!("--model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --tp-size 8 --mamba-radix-cache-strategy no_buffer --disable-overlap-schedule --attention-backend triton"),
};

pub static MAMBA_CHUNK_SIZE_PAGE_SIZE: Rule = Rule {
    code: "MH111",
    name: kebab!("mamba-chunk-size-and-page-size-divide"),
    sglang: raises("overrides.mamba_cache_chunk_size", "For SSM models, either chunk_size or page_size must be divisible"),
    explanation: expl!("With the extra_buffer Mamba strategy, the Mamba state is cached at multiples of the larger of the model's Mamba chunk size (the config's mamba_chunk_size or chunk_size; 64, the FLA kernels' chunk, when it has none) and --page-size, so one of the two must divide the other. Pick a page size that divides the chunk size (and --mamba-track-interval), or a multiple of it."),
    flags: &["--page-size", "--mamba-track-interval"],
    example_bad: ex!("--model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --tp-size 8 --page-size 96 --mamba-track-interval 192"),
    example_good: ex!("--model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --tp-size 8 --page-size 64 --mamba-track-interval 192"),
};

pub static RULES: &[&Rule] = &[
    &EXTRA_BUFFER_UNSUPPORTED,
    &EXTRA_BUFFER_PLATFORM,
    &EXTRA_BUFFER_PLATFORM_FLA,
    &EXTRA_BUFFER_LAZY_PD,
    &TRACK_INTERVAL_BELOW_DRAFT_TOKENS,
    &TRACK_INTERVAL_PAGE_SIZE,
    &NO_BUFFER_PAGE_SIZE,
    &NO_BUFFER_OVERLAP,
    &NO_BUFFER_TRTLLM_MHA,
    &MAMBA_CHUNK_SIZE_PAGE_SIZE,
];

/// `supports_mamba_cache_extra_buffer(view, hf_config)` for an architecture without a
/// linear-attention spec (no hardware profile is an XPU).
fn supports_extra_buffer(ctx: &Ctx, extra_buffer_archs: &[String], arch: &str) -> bool {
    extra_buffer_archs.iter().any(|a| a == arch) && ctx.cfg.is(f::linear_attn_backend, "triton")
}

/// The resolution pass and the validators for an architecture in `_MAMBA_RADIX_CACHE_ARCHS`
/// (without a linear-attention spec). Ok(false) where a check it reaches is not decided here
/// (recorded as not run).
pub fn mamba_radix_cache(ctx: &mut Ctx, extra_buffer_archs: &[String], arch: &str) -> Result<bool, crate::rules::Raised> {
    // `_mamba_radix_cache_resolution`, a pass: what it returns is declared
    if ctx.cfg.truthy(f::disable_radix_cache) {
        // uses_mamba_radix_cache stays False; `mamba_extra_buffer_of` needs `is False`
        return Ok(true);
    }
    let supports = supports_extra_buffer(ctx, extra_buffer_archs, arch);
    if ctx.cfg.is(f::mamba_radix_cache_strategy, "auto") {
        let wants_overlap = !ctx.cfg.truthy(f::disable_overlap_schedule);
        let wants_paging = ctx.cfg.int(f::page_size).is_some_and(|p| p > 1);
        if (wants_overlap || wants_paging) && supports {
            ctx.cfg.declare(f::mamba_radix_cache_strategy, PyValue::Str("extra_buffer".to_string()));
        } else {
            ctx.cfg.declare(f::mamba_radix_cache_strategy, PyValue::Str("no_buffer".to_string()));
            ctx.cfg.declare(f::disable_overlap_schedule, PyValue::Bool(true));
        }
    }
    let strategy = ctx.cfg.str(f::mamba_radix_cache_strategy).unwrap_or_default().to_string();
    let extra_buffer = matches!(ctx.cfg.get(f::disable_radix_cache), PyValue::Bool(false)) && matches!(strategy.as_str(), "extra_buffer" | "extra_buffer_lazy");
    if extra_buffer {
        validate_mamba_extra_buffer(ctx, supports, arch, &strategy)
    } else {
        validate_mamba_no_buffer(ctx).map(|()| true)
    }
}

fn use_strategy(ctx: &Ctx, title: &str, strategy: &str) -> crate::diagnostic::Fix {
    ctx.fix_set(title.to_string(), f::mamba_radix_cache_strategy, strategy, Applicability::Unsafe)
}

/// `validate_mamba_extra_buffer`.
fn validate_mamba_extra_buffer(ctx: &mut Ctx, supports: bool, arch: &str, strategy: &str) -> Result<bool, crate::rules::Raised> {
    if !supports {
        let mut fixes = Vec::new();
        if !ctx.cfg.is(f::linear_attn_backend, "triton") {
            fixes.push(ctx.fix_remove("Remove --linear-attn-backend (triton)", f::linear_attn_backend, Applicability::Unsafe));
        }
        // (0.5.18 to 0.5.20 name it model_arch)
        ctx.raise(&EXTRA_BUFFER_UNSUPPORTED, &[("hf_config.architectures[0]", &arch), ("model_arch", &arch)], &[f::mamba_radix_cache_strategy, f::linear_attn_backend], fixes)?;
        return Ok(false);
    }
    // `_platform_supports_mamba_cache_extra_buffer`: CUDA, MUSA, NPU, ROCm, XPU
    if !(ctx.hw.is_cuda() || ctx.hw.is_hip()) {
        // (without a strategy the automatic one picks extra_buffer here too, overlap scheduling on)
        let fixes = vec![ctx.fix_add_flag("Disable the radix cache (no Mamba state snapshots)", f::disable_radix_cache, Applicability::Unsafe)];
        // (SGLang 0.5.18 to 0.5.21 assert it with their own message)
        let rule = if EXTRA_BUFFER_PLATFORM_FLA.applies_to(ctx.release) { &EXTRA_BUFFER_PLATFORM_FLA } else { &EXTRA_BUFFER_PLATFORM };
        ctx.raise(rule, &[], &[f::mamba_radix_cache_strategy], fixes)?;
        return Ok(false);
    }
    if strategy == "extra_buffer_lazy" && !ctx.cfg.is(f::disaggregation_mode, "null") {
        let fixes = vec![use_strategy(ctx, "Use --mamba-radix-cache-strategy extra_buffer", "extra_buffer")];
        ctx.raise(&EXTRA_BUFFER_LAZY_PD, &[], &[f::mamba_radix_cache_strategy, f::disaggregation_mode], fixes)?;
        return Ok(false);
    }
    let Some(interval) = ctx.cfg.int(f::mamba_track_interval) else {
        ctx.skip(site_nth("mamba_hook.validate_mamba_extra_buffer", "", 0), NotRunReason::UnknownValue);
        return Ok(false);
    };
    if let PyValue::Int(tokens) = ctx.cfg.get(f::speculative_num_draft_tokens).clone() {
        if interval < tokens {
            let fixes = vec![ctx.fix_set(format!("Use --mamba-track-interval {tokens}"), f::mamba_track_interval, &tokens.to_string(), Applicability::Unsafe)];
            ctx.raise(&TRACK_INTERVAL_BELOW_DRAFT_TOKENS, &[], &[f::mamba_track_interval, f::speculative_num_draft_tokens], fixes)?;
            return Ok(false);
        }
    }
    match ctx.cfg.get(f::page_size).clone() {
        PyValue::None => Ok(true),
        PyValue::Int(page) if page > 0 => {
            if interval % page != 0 {
                let fixes = vec![ctx.fix_remove("Remove --page-size", f::page_size, Applicability::Unsafe)];
                ctx.raise(&TRACK_INTERVAL_PAGE_SIZE, &[], &[f::mamba_track_interval, f::page_size], fixes)?;
                return Ok(false);
            }
            mamba_cache_chunk_size(ctx, page)
        }
        _ => {
            ctx.skip(site_nth("mamba_hook.validate_mamba_extra_buffer", "", 1), NotRunReason::UnknownValue);
            Ok(false)
        }
    }
}

/// `overrides.mamba_cache_chunk_size`: the model's Mamba chunk size and the page size must divide
/// one another. Ok(false) where the chunk size is not known (a config not in the catalog, or one
/// the command overrides).
fn mamba_cache_chunk_size(ctx: &mut Ctx, page: i64) -> Result<bool, crate::rules::Raised> {
    let needs = site("overrides.mamba_cache_chunk_size", "For SSM models, either chunk_size or page_size");
    // (the catalog's value is the published config's: not one the command overrides or another revision)
    use crate::rules::shared::loaded_config::{other_revision, overrides_config};
    let overridden = overrides_config(ctx) || other_revision(ctx, f::revision);
    let Some(chunk) = ctx.model_fact(needs, |m| m.computed.and_then(|c| c.mamba_chunk_size).filter(|_| !overridden)) else {
        return Ok(false);
    };
    if chunk.max(page) % chunk.min(page) != 0 {
        // the largest page size not above the chunk size that divides both it and the track interval
        let interval = ctx.cfg.int(f::mamba_track_interval).unwrap_or(chunk);
        let fitting = (1..=chunk.min(page)).rev().find(|p| chunk % p == 0 && interval % p == 0).unwrap_or(1);
        let fixes = vec![
            ctx.fix_set(format!("Use --page-size {fitting} (divides the model's chunk size {chunk})"), f::page_size, &fitting.to_string(), Applicability::Unsafe),
        ];
        let args: &crate::rules::Args = &[("chunk_size!r", &chunk), ("page_size!r", &page)];
        ctx.raise(&MAMBA_CHUNK_SIZE_PAGE_SIZE, args, &[f::page_size], fixes)?;
        return Ok(false);
    }
    Ok(true)
}

/// `validate_mamba_no_buffer`.
fn validate_mamba_no_buffer(ctx: &mut Ctx) -> crate::rules::Step {
    if !matches!(ctx.cfg.get(f::page_size), PyValue::None | PyValue::Int(1)) {
        // (Not offered: switching to extra_buffer, which brings its own page-size checks, the
        // track interval's and the model's Mamba chunk size's.)
        let fixes = vec![ctx.fix_remove("Remove --page-size", f::page_size, Applicability::Unsafe)];
        ctx.raise(&NO_BUFFER_PAGE_SIZE, &[], &[f::page_size, f::mamba_radix_cache_strategy], fixes)?;
    }
    if !ctx.cfg.truthy(f::disable_overlap_schedule) {
        let fixes = vec![ctx.fix_add_flag("Add --disable-overlap-schedule", f::disable_overlap_schedule, Applicability::Safe)];
        ctx.raise(&NO_BUFFER_OVERLAP, &[], &[f::mamba_radix_cache_strategy, f::disable_overlap_schedule], fixes)?;
    }
    if ctx.cfg.is(f::attention_backend, "trtllm_mha") {
        let fixes = vec![
            ctx.fix_set("Use the triton attention backend", f::attention_backend, "triton", Applicability::Unsafe),
            use_strategy(ctx, "Use --mamba-radix-cache-strategy extra_buffer", "extra_buffer"),
        ];
        ctx.raise(&NO_BUFFER_TRTLLM_MHA, &[], &[f::attention_backend, f::mamba_radix_cache_strategy], fixes)?;
    }
    Ok(())
}
