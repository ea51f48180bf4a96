//! `model_overrides/ernie45_vl.py`: `_ernie45_vl_overrides` (registered for
//! `Ernie4_5_VLMoeForConditionalGeneration`). It only refuses attention DP; no config of the
//! model is served by the recorder, so no recorded verdict backs a rule, and the check is
//! reported as not run where the command enables attention DP. Baidu's published configs
//! (model type `ernie4_5_moe_vl`) load only through their own configuration code, which the
//! catalog builder does not run, and no verbatim copy of one was found
//! (tools/recorder/models/SOURCES.md, "Looked for, not used").

use crate::rules::shared::runtime_context::attn_dp_enabled;
use crate::rules::{site, Ctx};

/// The provider's check where attention DP is on, as not run.
pub fn checks_not_run(ctx: &mut Ctx) {
    if attn_dp_enabled(ctx) {
        ctx.model_config(site("model_overrides.ernie45_vl._ernie45_vl_overrides", "ERNIE 4.5 VL MoE does not support DP attention"));
    }
}
