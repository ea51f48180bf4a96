//! `model_overrides/qwen4_exp.py`: `_qwen4_exp_overrides` (registered for
//! `Qwen4ExpForConditionalGeneration`). No Qwen4-Exp config is in the catalog or among the
//! recorder's models, so no recorded verdict backs a rule: its checks are reported as not run
//! where the command's flags (and, for the FP8 indexer, the GPU) would let them fire.

use crate::fields::f;
use crate::rules::shared::runtime_context::{is_sm100, is_sm90};
use crate::rules::{site, Ctx};

/// Each check of `_qwen4_exp_overrides` the command would let fire, as not run (for want of the
/// model's config when the model is not known).
pub fn checks_not_run(ctx: &mut Ctx) {
    let pd_mori = !ctx.cfg.is(f::disaggregation_mode, "null") && ctx.cfg.is(f::disaggregation_transfer_backend, "mori");
    if pd_mori && ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 {
        ctx.model_config(site("model_overrides.qwen4_exp._qwen4_exp_overrides", "Qwen4-Exp PD with MORI requires --pp-size 1"));
    }
    if ctx.cfg.truthy(f::enable_unified_memory) {
        ctx.model_config(site("model_overrides.qwen4_exp._qwen4_exp_overrides", "Qwen4-Exp does not support --enable-unified-memory yet"));
    }
    if ctx.cfg.is(f::qsa_indexer_dtype, "fp8_e4m3") {
        if !(ctx.hw.is_cuda() && (is_sm90(ctx.hw) || is_sm100(ctx.hw))) {
            ctx.model_config(site("model_overrides.qwen4_exp._qwen4_exp_overrides", "--qsa-indexer-dtype fp8_e4m3 requires a CUDA SM90/SM100 GPU"));
        }
        // `parse_qsa_profile(hf_config)`: whether the checkpoint has the compressed QSA indexer
        ctx.model_config(site("model_overrides.qwen4_exp._qwen4_exp_overrides", "--qsa-indexer-dtype fp8_e4m3 requires the compressed QSA indexer"));
    }
}
