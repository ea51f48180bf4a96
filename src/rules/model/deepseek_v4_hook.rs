//! SGLang's `sglang/srt/arg_groups/deepseek_v4_hook.py`: `apply_deepseek_v4_defaults`,
//! `validate_deepseek_v41_features`, `validate_deepseek_v4_cp` and
//! `validate_deepseek_v41_encoder_replay_budget`.
//!
//! A submodule of the model family: SGLang calls it from `model_hook` only (the DeepSeek-V4
//! branch of `handle_model_specific_adjustments`, and `handle_model_capability_adjustments` for a
//! DeepSeek-V4.1 config), so it is that family's helper, not a shared module.
//!
//! DeepSeek-V4 (model_type `deepseek_v4`) is replayed with the model's facts. DeepSeek-V4.1
//! (model_type `deepseek_v41`) is not: no public config of it is served to record against, so its
//! checks are recorded as not run.

use crate::diagnostic::Applicability;
use crate::fields::f;
use crate::pyvalue::{str_repr, PyValue};
use crate::rules::shared::runtime_context::is_sm100;
use crate::rules::{raises, site, Ctx, NotRunReason, Rule, Step};

pub static FLASHMLA_MEGA_NEEDS_V41: Rule = Rule {
    code: "DSV001",
    name: kebab!("dsv4-flashmla-mega-needs-deepseek-v4-1-on-sm100"),
    sglang: raises("deepseek_v4_hook.apply_deepseek_v4_defaults", "--dsv4-attn-backend flashmla_mega requires DeepSeek-V4.1"),
    explanation: expl!("The flashmla_mega DeepSeek-V4 attention backend (MegaAttention) is built for DeepSeek-V4.1's layout on Blackwell (SM100/SM103) GPUs; for any other model or GPU SGLang's assertion stops it. Leave --dsv4-attn-backend at auto (SGLang picks flashmla) or name flashmla."),
    flags: &["--dsv4-attn-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend flashmla_mega"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend flashmla"),
};

pub static TRTLLM_NEEDS_SM100: Rule = Rule {
    code: "DSV002",
    name: kebab!("dsv4-trtllm-needs-sm100"),
    sglang: raises("deepseek_v4_hook.apply_deepseek_v4_defaults", "--dsv4-attn-backend trtllm requires an SM100/SM103"),
    explanation: expl!("The trtllm DeepSeek-V4 attention backend runs TensorRT-LLM's Blackwell kernels; on any other GPU SGLang's assertion stops it."),
    flags: &["--dsv4-attn-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend trtllm   (on H100)"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend flashmla"),
};

pub static TRTLLM_KV_DTYPE: Rule = Rule {
    code: "DSV003",
    name: kebab!("dsv4-trtllm-needs-fp8-kv-cache"),
    sglang: raises("deepseek_v4_hook.apply_deepseek_v4_defaults", "--dsv4-attn-backend trtllm requires kv_cache_dtype=fp8_e4m3"),
    explanation: expl!("The trtllm DeepSeek-V4 attention backend keeps a uniform FP8 KV pool; with another KV cache dtype (bfloat16) SGLang's assertion stops it. Leave --kv-cache-dtype at auto (SGLang picks fp8_e4m3 for DeepSeek-V4) or name fp8_e4m3."),
    flags: &["--dsv4-attn-backend", "--kv-cache-dtype"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend trtllm --kv-cache-dtype bfloat16"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend trtllm --kv-cache-dtype fp8_e4m3"),
};

pub static TRTLLM_HISPARSE: Rule = Rule {
    code: "DSV004",
    name: kebab!("dsv4-trtllm-with-hisparse"),
    sglang: raises("deepseek_v4_hook.apply_deepseek_v4_defaults", "--dsv4-attn-backend trtllm does not support enable_hisparse."),
    explanation: expl!("Hierarchical sparse attention (--enable-hisparse) is not implemented in the trtllm DeepSeek-V4 attention backend."),
    flags: &["--dsv4-attn-backend", "--enable-hisparse"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend trtllm --enable-hisparse"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend trtllm"),
};

pub static TRTLLM_CONTEXT_PARALLEL: Rule = Rule {
    code: "DSV005",
    name: kebab!("dsv4-trtllm-with-context-parallelism"),
    sglang: raises("deepseek_v4_hook.apply_deepseek_v4_defaults", "--dsv4-attn-backend trtllm does not support context parallelism"),
    explanation: expl!("The trtllm DeepSeek-V4 attention backend has no context-parallel path: prefill CP (--enable-prefill-cp), attention CP (--attn-cp-size above 1) and decode CP (--dcp-size above 1) are refused with it."),
    flags: &["--dsv4-attn-backend", "--enable-prefill-cp", "--attn-cp-size", "--dcp-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend trtllm --tp-size 8 --attn-cp-size 2"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend trtllm --tp-size 8"),
};

pub static TRTLLM_PD: Rule = Rule {
    code: "DSV006",
    name: kebab!("dsv4-trtllm-with-pd-disaggregation"),
    sglang: raises("deepseek_v4_hook.apply_deepseek_v4_defaults", "--dsv4-attn-backend trtllm does not support PD disaggregation"),
    explanation: expl!("The PD handshake would accept the trtllm backend's uniform-FP8 KV layout, but it has not been run under PD disaggregation, so SGLang refuses --disaggregation-mode prefill/decode with it."),
    flags: &["--dsv4-attn-backend", "--disaggregation-mode"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend trtllm --disaggregation-mode prefill"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend flashmla --disaggregation-mode prefill"),
};

pub static TRTLLM_CHUNKED_PREFILL: Rule = Rule {
    code: "DSV007",
    name: kebab!("dsv4-trtllm-needs-chunked-prefill"),
    sglang: raises("deepseek_v4_hook.apply_deepseek_v4_defaults", "--dsv4-attn-backend trtllm requires chunked prefill"),
    explanation: expl!("The trtllm-gen semaphore buffer is sized from the prefill chunk bound; with chunked prefill disabled (--chunked-prefill-size -1 or 0) one long request has no bound, so SGLang refuses it."),
    flags: &["--dsv4-attn-backend", "--chunked-prefill-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend trtllm --chunked-prefill-size -1"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --dsv4-attn-backend trtllm --chunked-prefill-size 4096"),
};

pub static SPECULATIVE_ALGORITHM: Rule = Rule {
    code: "DSV008",
    name: kebab!("dsv4-speculative-algorithm"),
    sglang: raises("deepseek_v4_hook.apply_deepseek_v4_defaults", "Only EAGLE and DSPARK speculative algorithms are supported"),
    explanation: expl!("DeepSeek-V4 speculates with its MTP layers (EAGLE) or a DSpark draft only; SGLang checks the name as written, before it resolves aliases, so NEXTN is refused here too."),
    flags: &["--speculative-algorithm"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --speculative-algorithm NGRAM"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --speculative-algorithm EAGLE --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4"),
};

pub static EAGLE_TOPK: Rule = Rule {
    code: "DSV009",
    name: kebab!("dsv4-eagle-topk-1"),
    sglang: raises("deepseek_v4_hook.apply_deepseek_v4_defaults", "Only EAGLE speculative algorithm with topk == 1"),
    explanation: expl!("DeepSeek-V4's EAGLE (MTP) speculation drafts a single chain: --speculative-eagle-topk must be 1, and it must be given (SGLang checks before it fills a default)."),
    flags: &["--speculative-algorithm", "--speculative-eagle-topk"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --speculative-algorithm EAGLE --speculative-eagle-topk 2 --speculative-num-steps 3 --speculative-num-draft-tokens 4"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --speculative-algorithm EAGLE --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4"),
};

pub static ENCODER_SWA_REPLAY_NEEDS_V41: Rule = Rule {
    code: "DSV010",
    name: kebab!("dsv4-encoder-swa-bounded-replay-needs-v4-1"),
    sglang: raises("deepseek_v4_hook.validate_deepseek_v41_features", "--enable-encoder-swa-bounded-replay requires DeepSeek-V4.1"),
    explanation: expl!("--enable-encoder-swa-bounded-replay bounds the replay of DeepSeek-V4.1's encoder sliding-window cache; a DeepSeek-V4 config (model_type deepseek_v4) has no such cache, and the DeepSeek-V4 validation refuses the flag."),
    flags: &["--enable-encoder-swa-bounded-replay"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --enable-encoder-swa-bounded-replay"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash"),
};

pub static CP_STRATEGY: Rule = Rule {
    code: "DSV011",
    name: kebab!("dsv4-prefill-cp-strategy"),
    sglang: raises("deepseek_v4_hook.validate_deepseek_v4_cp", "DeepSeekV4 only supports interleave/zigzag CP strategy"),
    explanation: expl!("DeepSeek-V4's prefill context parallelism reorders tokens by the interleave (or, on NPU, zigzag) strategy; --cp-strategy has no default, so --enable-prefill-cp needs it named."),
    flags: &["--enable-prefill-cp", "--cp-strategy"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave"),
};

pub static ZIGZAG_NEEDS_NPU: Rule = Rule {
    code: "DSV012",
    name: kebab!("dsv4-zigzag-cp-needs-npu"),
    sglang: raises("deepseek_v4_hook.validate_deepseek_v4_cp", "DeepSeekV4 zigzag CP requires the NPU backend"),
    explanation: expl!("Only the NPU backend reindexes DeepSeek-V4's context-parallel tokens in zigzag order; the CUDA and ROCm kernels use interleave order."),
    flags: &["--cp-strategy"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy zigzag"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave"),
};

pub static HIP_CP_BACKEND: Rule = Rule {
    code: "DSV013",
    name: kebab!("dsv4-hip-prefill-cp-needs-dsv4-backend"),
    sglang: raises("deepseek_v4_hook.validate_deepseek_v4_cp", "DeepSeekV4 prefill CP on HIP requires the dsv4 attention backend"),
    explanation: expl!("On ROCm, DeepSeek-V4's prefill context parallelism is implemented in the dsv4 attention backend only; a prefill or decode attention backend naming another one is refused."),
    flags: &["--prefill-attention-backend", "--decode-attention-backend", "--enable-prefill-cp"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave --prefill-attention-backend aiter   (on MI300X)"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave"),
};

pub static HIP_CP_FEATURE: Rule = Rule {
    code: "DSV014",
    name: kebab!("dsv4-hip-prefill-cp-unsupported-feature"),
    sglang: raises("deepseek_v4_hook.validate_deepseek_v4_cp", "DeepSeekV4 prefill CP on HIP does not support {feature} yet."),
    explanation: expl!("DeepSeek-V4's prefill context parallelism on ROCm has not been run across nodes, with DeepSeek-V4.1, with decoder SWA bounded replay or with two-batch overlap; SGLang refuses each."),
    flags: &["--enable-prefill-cp", "--nnodes", "--enable-decoder-swa-bounded-replay", "--enable-two-batch-overlap"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave --enable-two-batch-overlap   (on MI300X)"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave"),
};

pub static CP_ATTN_DP: Rule = Rule {
    code: "DSV015",
    name: kebab!("dsv4-prefill-cp-with-attention-dp"),
    sglang: raises("deepseek_v4_hook.validate_deepseek_v4_cp", "For round-robin split mode, dp attention is not supported."),
    explanation: expl!("DeepSeek-V4's prefill context parallelism (round-robin token split) takes the whole TP group as the CP group; attention data parallelism (--attn-dp-size, or --dp-size, which this layout reads as attention DP) leaves no room for it off NPU."),
    flags: &["--attn-dp-size", "--dp-size", "--enable-prefill-cp"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave --attn-dp-size 2"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave"),
};

pub static CP_SINGLE_MACHINE: Rule = Rule {
    code: "DSV016",
    name: kebab!("dsv4-prefill-cp-single-machine"),
    sglang: raises("deepseek_v4_hook.validate_deepseek_v4_cp", "Context parallel only supports single machine (tp_size <= 8)"),
    explanation: expl!("DeepSeek-V4's prefill context parallelism has precision issues across machines; SGLang accepts it with a TP size of 8 at most."),
    flags: &["--tp-size", "--enable-prefill-cp"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 16 --nnodes 2 --enable-prefill-cp --cp-strategy interleave"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave"),
};

pub static CP_A2A_BACKEND: Rule = Rule {
    code: "DSV017",
    name: kebab!("dsv4-prefill-cp-moe-a2a-backend"),
    sglang: raises("deepseek_v4_hook.validate_deepseek_v4_cp", "DeepSeekV4 CP supports moe_a2a_backend in"),
    explanation: expl!("DeepSeek-V4's prefill context parallelism works with the none, deepep, megamoe and mori MoE all-to-all backends only."),
    flags: &["--moe-a2a-backend", "--enable-prefill-cp"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave --moe-a2a-backend flashinfer"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave --moe-a2a-backend deepep"),
};

pub static CP_INTERLEAVE_ONLY: Rule = Rule {
    code: "MH106",
    name: kebab!("dsv4-prefill-cp-interleave-only"),
    sglang: raises("deepseek_v4_hook.validate_deepseek_v4_cp", "DeepSeekV4 only supports interleave CP strategy"),
    explanation: expl!("SGLang 0.5.18's DeepSeek-V4 prefill context parallelism splits tokens round-robin (the interleave strategy) only: --enable-prefill-cp needs --cp-strategy interleave (it has no default; zigzag came later, for NPU)."),
    flags: &["--enable-prefill-cp", "--cp-strategy"],
    // (examples are checked on 0.5.23, which also takes zigzag on NPU: DSV011 / DSV012 there)
    example_bad: ex!(""),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --enable-prefill-cp --cp-strategy interleave"),
};

pub static RULES: &[&Rule] = &[
    &FLASHMLA_MEGA_NEEDS_V41,
    &TRTLLM_NEEDS_SM100,
    &TRTLLM_KV_DTYPE,
    &TRTLLM_HISPARSE,
    &TRTLLM_CONTEXT_PARALLEL,
    &TRTLLM_PD,
    &TRTLLM_CHUNKED_PREFILL,
    &SPECULATIVE_ALGORITHM,
    &EAGLE_TOPK,
    &ENCODER_SWA_REPLAY_NEEDS_V41,
    &CP_STRATEGY,
    &ZIGZAG_NEEDS_NPU,
    &HIP_CP_BACKEND,
    &HIP_CP_FEATURE,
    &CP_ATTN_DP,
    &CP_SINGLE_MACHINE,
    &CP_A2A_BACKEND,
    &CP_INTERLEAVE_ONLY,
];

fn int(ctx: &Ctx, field: crate::fields::Field, default: i64) -> i64 {
    ctx.cfg.int(field).unwrap_or(default)
}

/// DeepSeek-V4.1's checks of this hook: not replayed (no public V4.1 config to record against).
pub fn skip_v41_checks(ctx: &mut Ctx) {
    ctx.skip(site("deepseek_v4_hook.validate_deepseek_v41_features", "DeepSeek-V4.1 TRT-LLM requires --cuda-graph-backend-prefill"), NotRunReason::NotImplemented);
    ctx.skip(site("deepseek_v4_hook.validate_deepseek_v41_features", "--enable-encoder-swa-bounded-replay does not support {feature} yet"), NotRunReason::NotImplemented);
    ctx.skip(site("deepseek_v4_hook.validate_deepseek_v41_features", "DeepSeek-V4.1 does not support {feature} yet"), NotRunReason::NotImplemented);
    ctx.skip(site("deepseek_v4_hook.validate_deepseek_v41_features", "DeepSeek-V4.1 DSpark PD requires static verify"), NotRunReason::NotImplemented);
    ctx.skip(site("deepseek_v4_hook.validate_deepseek_v41_features", "--enable-decoder-swa-bounded-replay cannot be combined with {feature} yet"), NotRunReason::NotImplemented);
}

/// `apply_deepseek_v4_defaults` for a DeepSeek-V4 (not V4.1) config: the KV cache dtype pass, the
/// DeepSeek-V4 attention backend (`auto` is flashmla off V4.1), the trtllm backend's checks, the
/// request cap and the speculative algorithm.
pub fn apply_deepseek_v4_defaults(ctx: &mut Ctx, arch: &str) -> Step {
    // (On ROCm it only turns off SGLANG_OPT_FLASHMLA_SPARSE_PREFILL, an environment default.)
    crate::rules::shared::overrides::deepseek_v4_kv_cache_dtype(ctx, arch)?;
    if ctx.cfg.is(f::dsv4_attn_backend, "auto") {
        // `_default_dsv4_attention_backend`: flashmla_mega only for a V4.1 config
        ctx.cfg.set(f::dsv4_attn_backend, PyValue::Str("flashmla".to_string()));
    }
    let backend = ctx.cfg.str(f::dsv4_attn_backend).unwrap_or("auto").to_string();
    let use_flashmla = |ctx: &Ctx| ctx.fix_set("Use the flashmla DeepSeek-V4 attention backend", f::dsv4_attn_backend, "flashmla", Applicability::Unsafe);
    if backend == "flashmla_mega" {
        // A DeepSeek-V4 config, so the assertion fails whatever the GPU.
        let fixes = vec![use_flashmla(ctx)];
        ctx.raise(&FLASHMLA_MEGA_NEEDS_V41, &[], &[f::dsv4_attn_backend], fixes)?;
    }
    if backend == "trtllm" {
        if !(ctx.cfg.is(f::device, "cuda") && is_sm100(ctx.hw)) {
            let fixes = vec![use_flashmla(ctx)];
            ctx.raise(&TRTLLM_NEEDS_SM100, &[], &[f::dsv4_attn_backend], fixes)?;
        }
        let kv = ctx.cfg.get(f::kv_cache_dtype).clone();
        if !matches!(kv.as_str(), Some("auto" | "fp8_e4m3")) {
            let shown = kv.as_str().map(str::to_string).unwrap_or_else(|| kv.repr());
            let fixes = vec![ctx.fix_set("Use the FP8 KV cache", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe), use_flashmla(ctx)];
            ctx.raise(&TRTLLM_KV_DTYPE, &[("cfg.kv_cache_dtype", &shown)], &[f::kv_cache_dtype, f::dsv4_attn_backend], fixes)?;
        }
        if ctx.cfg.truthy(f::enable_hisparse) {
            let fixes = vec![ctx.fix_remove("Remove --enable-hisparse", f::enable_hisparse, Applicability::Unsafe)];
            ctx.raise(&TRTLLM_HISPARSE, &[], &[f::enable_hisparse, f::dsv4_attn_backend], fixes)?;
        }
        if int(ctx, f::attn_cp_size, 1) > 1 || int(ctx, f::dcp_size, 1) > 1 || ctx.cfg.truthy(f::enable_prefill_cp) {
            let fixes = vec![use_flashmla(ctx)];
            ctx.raise(&TRTLLM_CONTEXT_PARALLEL, &[], &[f::attn_cp_size, f::dcp_size, f::enable_prefill_cp, f::dsv4_attn_backend], fixes)?;
        }
        if !ctx.cfg.is(f::disaggregation_mode, "null") {
            let fixes = vec![use_flashmla(ctx)];
            ctx.raise(&TRTLLM_PD, &[], &[f::disaggregation_mode, f::dsv4_attn_backend], fixes)?;
        }
        if !ctx.cfg.int(f::chunked_prefill_size).is_some_and(|n| n > 0) {
            let fixes = vec![ctx.fix_remove("Remove --chunked-prefill-size (SGLang picks one for the GPU)", f::chunked_prefill_size, Applicability::Unsafe), use_flashmla(ctx)];
            ctx.raise(&TRTLLM_CHUNKED_PREFILL, &[], &[f::chunked_prefill_size, f::dsv4_attn_backend], fixes)?;
        }
    }
    if ctx.cfg.is_none(f::max_running_requests) {
        ctx.cfg.set(f::max_running_requests, PyValue::Int(256));
    }
    if !ctx.cfg.is_none(f::speculative_algorithm) {
        let algorithm = ctx.cfg.str(f::speculative_algorithm).unwrap_or("").to_string();
        if !matches!(algorithm.as_str(), "EAGLE" | "DSPARK") {
            let fixes = vec![ctx.fix_set("Use EAGLE (MTP) speculation", f::speculative_algorithm, "EAGLE", Applicability::Unsafe)];
            ctx.raise(&SPECULATIVE_ALGORITHM, &[("model_arch", &arch)], &[f::speculative_algorithm], fixes)?;
        }
        if algorithm == "EAGLE" && ctx.cfg.int(f::speculative_eagle_topk) != Some(1) {
            let fixes = vec![ctx.fix_set("Draft one chain (--speculative-eagle-topk 1)", f::speculative_eagle_topk, "1", Applicability::Unsafe)];
            ctx.raise(&EAGLE_TOPK, &[("model_arch", &arch)], &[f::speculative_eagle_topk, f::speculative_algorithm], fixes)?;
        }
    }
    Ok(())
}

/// `validate_deepseek_v41_features` for a DeepSeek-V4 (not V4.1) config: only the V4.1 flag.
pub fn validate_deepseek_v41_features(ctx: &mut Ctx) -> Step {
    if ctx.cfg.truthy(f::enable_encoder_swa_bounded_replay) {
        let fixes = vec![ctx.fix_remove("Remove --enable-encoder-swa-bounded-replay", f::enable_encoder_swa_bounded_replay, Applicability::Safe)];
        ctx.raise(&ENCODER_SWA_REPLAY_NEEDS_V41, &[], &[f::enable_encoder_swa_bounded_replay], fixes)?;
    }
    Ok(())
}

/// `validate_deepseek_v4_cp` (a DeepSeek-V4 config; no hardware profile here is an NPU): the CP
/// strategy, ROCm's limits, then the CP layout it declares (the whole TP group as the CP group)
/// and its checks.
pub fn validate_deepseek_v4_cp(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.truthy(f::enable_prefill_cp) {
        return Ok(());
    }
    if CP_INTERLEAVE_ONLY.applies_to(ctx.release) {
        return validate_deepseek_v4_cp_interleave_only(ctx);
    }
    let strategy = ctx.cfg.get(f::cp_strategy).clone();
    let interleave = |ctx: &Ctx| ctx.fix_set("Use the interleave CP strategy", f::cp_strategy, "interleave", Applicability::Unsafe);
    match strategy.as_str() {
        Some("interleave") => {}
        Some("zigzag") => {
            let fixes = vec![interleave(ctx)];
            ctx.raise(&ZIGZAG_NEEDS_NPU, &[], &[f::cp_strategy], fixes)?;
        }
        _ => {
            let shown = strategy.as_str().map(str::to_string).unwrap_or_else(|| strategy.repr());
            let fixes = vec![interleave(ctx)];
            ctx.raise(&CP_STRATEGY, &[("cfg.cp_strategy", &shown)], &[f::cp_strategy, f::enable_prefill_cp], fixes)?;
        }
    }
    if ctx.hw.is_hip() {
        // `attention_backends_of(resolved_view)`: the provider declared attention_backend dsv4.
        let base = ctx.cfg.str(f::attention_backend).map(str::to_string);
        let pick = |ctx: &Ctx, field| ctx.cfg.str(field).filter(|s| !s.is_empty()).map(str::to_string).or_else(|| base.clone());
        let (prefill, decode) = (pick(ctx, f::prefill_attention_backend), pick(ctx, f::decode_attention_backend));
        if prefill.as_deref() != Some("dsv4") || decode.as_deref() != Some("dsv4") {
            let shown = |b: &Option<String>| b.as_deref().map(str_repr).unwrap_or_else(|| "None".to_string());
            let (p, d) = (shown(&prefill), shown(&decode));
            let mut fixes = Vec::new();
            for field in [f::prefill_attention_backend, f::decode_attention_backend] {
                if ctx.cfg.setting_place(field).is_some() {
                    fixes.push(ctx.fix_remove(format!("Remove {} (DeepSeek-V4 uses dsv4)", ctx.flag(field)), field, Applicability::Unsafe));
                }
            }
            ctx.raise(&HIP_CP_BACKEND, &[("prefill_backend", &p), ("decode_backend", &d)], &[f::prefill_attention_backend, f::decode_attention_backend], fixes)?;
        }
        // (DeepSeek-V4.1 is the fourth: not this config.)
        let unsupported = [
            ("multiple nodes", int(ctx, f::nnodes, 1) > 1, f::nnodes),
            ("decoder SWA bounded replay", ctx.cfg.truthy(f::enable_decoder_swa_bounded_replay), f::enable_decoder_swa_bounded_replay),
            ("--enable-two-batch-overlap", ctx.cfg.truthy(f::enable_two_batch_overlap), f::enable_two_batch_overlap),
        ];
        if let Some((feature, _, field)) = unsupported.into_iter().find(|u| u.1) {
            let fixes = vec![ctx.fix_remove(format!("Remove {}", ctx.flag(field)), field, Applicability::Unsafe)];
            ctx.raise(&HIP_CP_FEATURE, &[("feature", &feature)], &[field, f::enable_prefill_cp], fixes)?;
        }
    }
    let attn_dp_size = crate::rules::shared::model_override_base::context_parallel_attn_dp_size(ctx)?;
    let tp = int(ctx, f::tp_size, 1);
    ctx.cfg.set(f::attn_dp_size, PyValue::Int(attn_dp_size));
    ctx.cfg.set(f::dp_size, PyValue::Int(1));
    ctx.cfg.set(f::moe_dense_tp_size, PyValue::Int(1));
    if attn_dp_size != 0 {
        ctx.cfg.set(f::attn_cp_size, PyValue::Int(tp.div_euclid(attn_dp_size)));
    }
    if attn_dp_size != 1 {
        let mut fixes = Vec::new();
        for field in [f::attn_dp_size, f::dp_size] {
            if ctx.cfg.setting_place(field).is_some() {
                fixes.push(ctx.fix_remove(format!("Remove {}", ctx.flag(field)), field, Applicability::Unsafe));
            }
        }
        ctx.raise(&CP_ATTN_DP, &[], &[f::attn_dp_size, f::dp_size], fixes)?;
    }
    if tp > 8 {
        let fixes = vec![ctx.fix_remove("Remove --enable-prefill-cp", f::enable_prefill_cp, Applicability::Unsafe)];
        ctx.raise(&CP_SINGLE_MACHINE, &[], &[f::tp_size, f::enable_prefill_cp], fixes)?;
    }
    let a2a = ctx.cfg.get(f::moe_a2a_backend).clone();
    if !matches!(a2a.as_str(), Some("none" | "deepep" | "megamoe" | "mori")) {
        let listed = "('none', 'deepep', 'megamoe', 'mori')";
        let shown = a2a.repr();
        let fixes = vec![ctx.fix_set("Use the deepep all-to-all backend", f::moe_a2a_backend, "deepep", Applicability::Unsafe)];
        ctx.raise(&CP_A2A_BACKEND, &[("supported_a2a_backends", &listed), ("cfg.moe_a2a_backend", &shown)], &[f::moe_a2a_backend], fixes)?;
    }
    // (Off V4.1 it also turns off SGLANG_OPT_FLASHMLA_SPARSE_PREFILL, an environment default.)
    Ok(())
}

/// `validate_deepseek_v4_cp` as SGLang 0.5.18 writes it: interleave only (no zigzag, no HIP
/// backend checks), then the round-robin split's fields (DP attention on, `attn_cp_size =
/// tp_size // dp_size`) and its asserts on the given `dp_size` and `tp_size`, on every platform.
fn validate_deepseek_v4_cp_interleave_only(ctx: &mut Ctx) -> Step {
    let strategy = ctx.cfg.get(f::cp_strategy).clone();
    if strategy.as_str() != Some("interleave") {
        let shown = strategy.as_str().map(str::to_string).unwrap_or_else(|| strategy.repr());
        let fixes = vec![ctx.fix_set("Use the interleave CP strategy", f::cp_strategy, "interleave", Applicability::Unsafe)];
        ctx.raise(&CP_INTERLEAVE_ONLY, &[("server_args.cp_strategy", &shown)], &[f::cp_strategy, f::enable_prefill_cp], fixes)?;
    }
    let (tp, dp) = (int(ctx, f::tp_size, 1), int(ctx, f::dp_size, 1));
    ctx.cfg.set(f::enable_dp_attention, PyValue::Bool(true));
    ctx.cfg.set(f::moe_dense_tp_size, PyValue::Int(1));
    if dp != 0 {
        ctx.cfg.set(f::attn_cp_size, PyValue::Int(tp.div_euclid(dp)));
    }
    if dp != 1 {
        let fixes = vec![ctx.fix_remove(format!("Remove {}", ctx.flag(f::dp_size)), f::dp_size, Applicability::Unsafe)];
        ctx.raise(&CP_ATTN_DP, &[], &[f::dp_size], fixes)?;
    }
    if tp > 8 {
        let fixes = vec![ctx.fix_remove("Remove --enable-prefill-cp", f::enable_prefill_cp, Applicability::Unsafe)];
        ctx.raise(&CP_SINGLE_MACHINE, &[], &[f::tp_size, f::enable_prefill_cp], fixes)?;
    }
    let a2a = ctx.cfg.get(f::moe_a2a_backend).clone();
    if !matches!(a2a.as_str(), Some("none" | "deepep" | "megamoe")) {
        let shown = a2a.repr();
        let fixes = vec![ctx.fix_set("Use the deepep all-to-all backend", f::moe_a2a_backend, "deepep", Applicability::Unsafe)];
        ctx.raise(&CP_A2A_BACKEND, &[("server_args.moe_a2a_backend", &shown)], &[f::moe_a2a_backend], fixes)?;
    }
    Ok(())
}
