//! `model_overrides/iquest_q1.py`: `_iquest_q1_overrides` (registered for `IQuestQ1ForCausalLM`
//! and `IQuestQ1MTP`). Its checks read only the command's flags, but no IQuest Q1 config is in
//! the catalog or among the recorder's models, so no recorded verdict backs a rule: they are
//! reported as not run where the flags would let them fire.

use crate::fields::f;
use crate::rules::shared::runtime_context::attn_dp_enabled;
use crate::rules::{site, Ctx};

/// Each check of `_iquest_q1_overrides` the command's flags would let fire, as not run (for want
/// of the model's config when the model is not known).
pub fn checks_not_run(ctx: &mut Ctx) {
    let backends = crate::rules::shared::model_override_base::ATTENTION_BACKEND_FIELDS;
    if backends.iter().any(|&b| !ctx.cfg.is_none(b) && !ctx.cfg.is(b, "fa3")) {
        ctx.model_config(site("model_overrides.iquest_q1._iquest_q1_overrides", "IQuestQ1 applies its attention sink from the softmax LSE"));
    }
    if let Some(algorithm) = ctx.cfg.str(f::speculative_algorithm).map(str::to_ascii_uppercase) {
        if !matches!(algorithm.as_str(), "EAGLE" | "NEXTN") {
            ctx.model_config(site("model_overrides.iquest_q1._iquest_q1_overrides", "IQuest Q1 MTP requires serial EAGLE or NEXTN drafting."));
        }
        if !ctx.cfg.is_none(f::speculative_draft_attention_backend) && !ctx.cfg.is(f::speculative_draft_attention_backend, "fa3") {
            ctx.model_config(site("model_overrides.iquest_q1._iquest_q1_overrides", "IQuestQ1 requires FA3 attention for the MTP draft."));
        }
    }
    if ctx.cfg.int(f::attn_cp_size).unwrap_or(1) > 1 || ctx.cfg.int(f::dcp_size).unwrap_or(1) > 1 || ctx.cfg.truthy(f::enable_prefill_cp) {
        ctx.model_config(site("model_overrides.iquest_q1._iquest_q1_overrides", "IQuestQ1 does not support context parallelism."));
    }
    if ctx.cfg.int(f::speculative_eagle_topk).is_some_and(|k| k > 1) {
        ctx.model_config(site("model_overrides.iquest_q1._iquest_q1_overrides", "IQuestQ1 speculative decoding requires --speculative-eagle-topk 1."));
    }
    if ctx.cfg.truthy(f::enable_multi_layer_eagle) {
        ctx.model_config(site("model_overrides.iquest_q1._iquest_q1_overrides", "IQuest Q1 MTP drafting does not support multi-layer EAGLE."));
    }
    if attn_dp_enabled(ctx) {
        ctx.model_config(site("model_overrides.iquest_q1._iquest_q1_overrides", "IQuest Q1 does not support DP attention."));
    }
    if ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 {
        ctx.model_config(site("model_overrides.iquest_q1._iquest_q1_overrides", "IQuest Q1 does not support pipeline parallelism."));
    }
}
