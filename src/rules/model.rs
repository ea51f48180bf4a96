//! SGLang's `sglang/srt/arg_groups/model_hook.py`: `handle_model_specific_adjustments` and
//! `handle_model_capability_adjustments`, the per-architecture adjustments and checks.
//!
//! Both read the model's config (`hf_config.architectures[0]`, DSA / MLA / multimodal facts) for
//! nearly everything they decide, so this family has no rules of its own yet: it models the
//! flag-only assignments and the instance-connector early return, and lists each check the
//! command's flags reach as not run for want of the model's config. The values these hooks
//! derive from the model (attention backends, page size, chunked prefill, radix cache, the
//! model overrides ...) are left as they were, not guessed, and so both hooks still count as not
//! modelled on every path past the instance-connector return.

use super::{Ctx, Rule};
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::{site, site_nth, Step};

pub static RULES: &[&Rule] = &[];

/// `parse_connector_type(model_path) == ConnectorType.INSTANCE` (`re.match(r"(.+)://(.*)")`:
/// greedy, so the scheme is everything before the last `://` of the first line).
fn is_instance_connector(path: &str) -> bool {
    let line = path.split('\n').next().unwrap_or("");
    line.rfind("://").map(|i| line.get(..i) == Some("instance")).unwrap_or(false)
}

fn int(ctx: &Ctx, field: crate::fields::Field, default: i64) -> i64 {
    ctx.cfg.int(field).unwrap_or(default)
}

/// `handle_model_specific_adjustments`.
pub fn handle_model_specific_adjustments(ctx: &mut Ctx) -> Step {
    if ctx.cfg.truthy(f::enable_deterministic_inference) {
        ctx.cfg.set(f::enforce_disable_flashinfer_allreduce_fusion, PyValue::Bool(true));
    }
    // (uses_mamba_radix_cache=False: not a flag's field.)
    if ctx.cfg.str(f::model_path).is_some_and(is_instance_connector) {
        return Ok(());
    }
    ctx.not_modelled("model_hook.handle_model_specific_adjustments");
    // Each check below is decided by the model's architecture (or DSA / MLA facts); listed when
    // the command's flags would let it fire.
    if int(ctx, f::pp_size, 1) != 1 || int(ctx, f::ep_size, 1) != 1 {
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "Intern-S2-Mobius does not support:"));
    }
    if ctx.cfg.truthy(f::enable_dsa_cache_layer_split) {
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is only supported for DSA"));
    }
    if ctx.cfg.truthy(f::enable_cp_decode_attn_tp) {
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-cp-decode-attn-tp is only supported for models"));
    }
    let mode = ctx.cfg.str(f::disaggregation_mode).unwrap_or("null").to_string();
    if ctx.cfg.truthy(f::enable_prefill_cp) && mode == "decode" {
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "CP is only supported for prefill when PD disaggregation"));
    }
    if ctx.cfg.truthy(f::enable_dsa_cache_layer_split) {
        if mode == "decode" {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is not supported on decode workers."));
        } else if mode != "prefill" {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is only supported on PD prefill"));
        } else if !ctx.cfg.truthy(f::enable_prefill_cp) || !ctx.cfg.is(f::cp_strategy, "interleave") {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split requires --enable-prefill-cp"));
        } else if !ctx.cfg.is(f::disaggregation_transfer_backend, "mooncake") {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split currently only supports"));
        } else if int(ctx, f::pp_size, 1) > 1 {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is not supported with pipeline"));
        }
    }
    if ctx.cfg.truthy(f::enable_two_batch_overlap) {
        ctx.model_config(site("model_hook._validate_dsa_tbo_index_sharing", "--enable-two-batch-overlap is not supported with DSA"));
    }
    if !ctx.cfg.is_none(f::attention_backend) {
        // The architectures that accept only some attention backends (GptOss, Llama 4, Gemma 4,
        // sliding-window models, Olmo 2, ...).
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "GptOssForCausalLM requires one of {supported_backends}"));
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "fa3, aiter, triton, ascend, trtllm_mha or intel_xpu is required for Llama4"));
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "Gemma4 only supports"));
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "One of the attention backends in {accepted_backends}"));
        if ctx.cfg.is(f::attention_backend, "flashinfer") {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "FlashInfer backend can significantly degrade"));
        }
        if ctx.cfg.is(f::attention_backend, "triton") {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "{model_arch} does not support triton attention backend"));
        }
    }
    if ctx.cfg.is(f::moe_runner_backend, "triton_kernel") && int(ctx, f::ep_size, 1) != 1 {
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "Triton kernel MoE is only supported when ep_size == 1"));
    }
    // (MiMoV2's fused-QKV attention TP check and the HRM-Text / EmbeddingGemma / multimodal
    // adjustments are reached by those architectures only, on any flags.)
    // `auto` is decided by the architecture; an explicit strategy needs mamba state.
    if !ctx.cfg.is(f::mamba_radix_cache_strategy, "auto") {
        ctx.model_config(site_nth("model_hook.handle_mamba_radix_cache", "--mamba-radix-cache-strategy", 0));
    }
    Ok(())
}

/// `handle_model_capability_adjustments`.
pub fn handle_model_capability_adjustments(ctx: &mut Ctx) -> Step {
    if ctx.cfg.str(f::model_path).is_some_and(is_instance_connector) {
        return Ok(());
    }
    ctx.not_modelled("model_hook.handle_model_capability_adjustments");
    // (Clef / Kev checkpoints, with a joint schema head or a pointer head in the model's
    // config, must run on TP 1 and PP 1: reached by those checkpoints only.)
    // Only a DeepSeek-V4.1 config (model_type deepseek_v41) takes this flag.
    if ctx.cfg.truthy(f::enable_encoder_swa_bounded_replay) {
        ctx.model_config(site("model_hook.handle_model_capability_adjustments", "--enable-encoder-swa-bounded-replay requires DeepSeek-V4.1"));
    }
    Ok(())
}
