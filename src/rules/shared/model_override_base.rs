//! `sglang/srt/arg_groups/model_override_base.py`: helpers the model override providers and the
//! DeepSeek hooks share.

use crate::diagnostic::Applicability;
use crate::fields::{f, Field};
use crate::pyvalue::PyValue;
use crate::rules::shared::runtime_context::{is_sm100, is_sm90};
use crate::rules::{raises, site, Ctx, Rule};

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

/// Architectures whose configs carry neither a separate V head width (`v_head_dim`,
/// `swa_head_dim`, `swa_v_head_dim`) nor a sink flag (`learnable_sink`, MiMoV2's
/// `add_*_attention_sink_bias`): `ModelConfig.has_asymmetric_kv` is false for them, and
/// `has_attention_sinks` is false unless they are in the release's `SWA_SINK_ARCHS`. Other architectures'
/// configs may set those keys, which the model facts do not carry.
const PLAIN_KV_ARCHS: &[&str] = &[
    "LlamaForCausalLM", "MistralForCausalLM", "MixtralForCausalLM", "Qwen2ForCausalLM", "Qwen2MoeForCausalLM", "Qwen3ForCausalLM",
    "Qwen3MoeForCausalLM", "Phi3ForCausalLM", "GptOssForCausalLM",
];

/// `ModelConfig.has_attention_sinks`: as SGLang computed it for a catalog model, else where the
/// architecture decides it (`swa_sink_archs`: the release's `SWA_SINK_ARCHS`).
fn has_attention_sinks(m: &crate::models::ModelFacts, swa_sink_archs: &[String]) -> Option<bool> {
    if let Some(sinks) = m.computed.and_then(|c| c.has_attention_sinks) {
        return Some(sinks);
    }
    let arch = m.architecture?;
    if crate::models::ModelLists::names(swa_sink_archs, arch) {
        Some(true)
    } else if PLAIN_KV_ARCHS.contains(&arch) {
        Some(false)
    } else {
        None
    }
}

/// `ModelConfig._detect_attention_sinks` of a release without `SWA_SINK_ARCHS` (0.5.18's):
/// GptOss always, MiMoV2 by its config flags (as SGLang computed them for a catalog model), no
/// other architecture.
fn has_attention_sinks_0_5_18(m: &crate::models::ModelFacts) -> Option<bool> {
    let arch = m.architecture?;
    if arch == "GptOssForCausalLM" {
        Some(true)
    } else if matches!(arch, "MiMoV2ForCausalLM" | "MiMoV2FlashForCausalLM" | "MiMoV2MTP") {
        m.computed.and_then(|c| c.has_attention_sinks)
    } else {
        Some(false)
    }
}

/// `ModelConfig.has_asymmetric_kv` for an MHA model: as SGLang computed it for a catalog model,
/// else where the architecture decides it.
fn has_asymmetric_kv(m: &crate::models::ModelFacts) -> Option<bool> {
    if let Some(asymmetric) = m.computed.and_then(|c| c.has_asymmetric_kv) {
        return Some(asymmetric);
    }
    m.architecture.filter(|a| PLAIN_KV_ARCHS.contains(a)).map(|_| false)
}

/// `utils.common.is_no_spec_infer_or_topk_one` on the resolving view.
fn no_spec_or_topk_one(ctx: &Ctx) -> bool {
    match ctx.cfg.get(f::speculative_eagle_topk) {
        PyValue::None => true,
        topk => topk.as_int() == Some(1) && !matches!(topk, PyValue::Bool(_)) && matches!(ctx.cfg.get(f::page_size), PyValue::None | PyValue::Int(1)),
    }
}

/// What `get_default_attn_backend` needs of the model that the facts do not say.
const DEFAULT_BACKEND_SITE: crate::release::SiteRef = site("overrides._attention_backend_default", "Attention backend not specified. Use");

/// `get_default_attn_backend` with the model's facts (not on CPU, where
/// `handle_cpu_backends` has picked the backend): None, recorded as not run, where a fact it
/// needs is not known.
pub fn get_default_attn_backend(ctx: &mut Ctx) -> Option<&'static str> {
    if ctx.hw.platform == crate::hardware::Platform::Cpu {
        return None;
    }
    // Whisper requires flashinfer for its cross-attention CUDA graphs.
    let arch = ctx.model_fact(DEFAULT_BACKEND_SITE, |m| m.architecture)?;
    if arch == "WhisperForConditionalGeneration" {
        return Some("flashinfer");
    }
    let is_mla = ctx.model_fact(DEFAULT_BACKEND_SITE, |m| m.derived.is_mla)?;
    if !is_mla {
        if is_sm90(ctx.hw) && no_spec_or_topk_one(ctx) {
            return Some("fa3");
        }
        let algorithm = ctx.cfg.str(f::speculative_algorithm).map(str::to_ascii_uppercase);
        // `_forces_eagle_topk_one` (DFLASH) is 0.5.23's
        let forces_topk_one = algorithm.as_deref() == Some("DFLASH") && !ctx.release.data.before_hook_modules();
        if is_sm100(ctx.hw) && no_spec_or_topk_one(ctx) && (algorithm.is_none() || !ctx.cfg.is_none(f::speculative_eagle_topk) || forces_topk_one)
        {
            // trtllm_mha needs K and V rows of one width; fa4 carries v_head_dim through.
            let asymmetric = ctx.model_fact(DEFAULT_BACKEND_SITE, has_asymmetric_kv)?;
            return Some(if asymmetric { "fa4" } else { "trtllm_mha" });
        }
        if ctx.hw.is_hip() {
            return Some("aiter");
        }
        // FlashInfer has no attention sinks.
        if !crate::rules::shared::runtime_context::has_flashinfer(ctx) {
            return Some("triton");
        }
        let sinks = match ctx.release.model_lists().and_then(|l| l.swa_sink_architectures.as_deref()) {
            Some(swa_sink_archs) => ctx.model_fact(DEFAULT_BACKEND_SITE, |m| has_attention_sinks(m, swa_sink_archs))?,
            None => ctx.model_fact(DEFAULT_BACKEND_SITE, has_attention_sinks_0_5_18)?,
        };
        return Some(if sinks { "triton" } else { "flashinfer" });
    }
    if is_sm90(ctx.hw) {
        Some("fa3")
    } else if is_sm100(ctx.hw) {
        Some("flashinfer")
    } else if ctx.hw.is_hip() {
        // aiter's MLA kernels take 16 or 128 heads per GPU (get_num_kv_heads(tp_size)).
        let total = ctx.model_fact(DEFAULT_BACKEND_SITE, |m| m.computed.map(|c| c.num_kv_heads))?;
        let tp = ctx.cfg.int(f::tp_size).unwrap_or(1).max(1);
        let per_gpu = (total / tp).max(1);
        Some(if per_gpu == 128 || per_gpu == 16 { "aiter" } else { "triton" })
    } else {
        Some("triton")
    }
}
