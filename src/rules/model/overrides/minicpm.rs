//! `model_overrides/minicpm.py`: `_minicpm_sala_overrides` (registered for
//! `MiniCPMForCausalLM` and `MiniCPMSALAForCausalLM`). Not replayed: whether the checkpoint has
//! sparse or lightning (hybrid) attention layers is not among the model's facts, and no config of
//! either architecture is in the catalog (MiniCPM's model type `minicpm` loads only through its
//! own configuration code, which the catalog builder does not run; no whole verbatim MiniCPM-SALA
//! config was found: tools/recorder/models/SOURCES.md), so its checks are reported as not run
//! where the command's flags would let them fire.

use crate::fields::f;
use crate::rules::shared::runtime_context::attn_dp_enabled;
use crate::rules::{site, Ctx};

/// Each check of `_minicpm_sala_overrides` the command's flags would let fire, as not run (for
/// want of the model's config when the model is not known).
pub fn checks_not_run(ctx: &mut Ctx) {
    if attn_dp_enabled(ctx) {
        ctx.model_config(site("model_overrides.minicpm._minicpm_sala_overrides", "MiniCPM does not support DP attention"));
        return;
    }
    if ctx.cfg.truthy(f::enable_hierarchical_cache) {
        ctx.model_config(site("model_overrides.minicpm._minicpm_sala_overrides", "MiniCPM SALA does not support hierarchical cache"));
    }
    // The sparse backends run when no backend is given or one of them is named.
    let backends = crate::rules::shared::model_override_base::ATTENTION_BACKEND_FIELDS;
    let sparse_backend = backends.iter().all(|&b| ctx.cfg.is_none(b)) || backends.iter().any(|&b| matches!(ctx.cfg.str(b), Some("minicpm_flashattn" | "minicpm_flashinfer")));
    if sparse_backend && !ctx.cfg.is(f::disaggregation_mode, "null") && !ctx.env_bool("SGLANG_MINICPM_FORCE_DENSE", false) {
        ctx.model_config(site("model_overrides.minicpm._minicpm_sala_overrides", "MiniCPM sparse attention does not support PD disaggregation"));
    }
}
