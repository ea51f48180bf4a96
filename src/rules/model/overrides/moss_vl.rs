//! `model_overrides/moss_vl.py`: `_moss_vl_overrides` (registered for
//! `MossVLForConditionalGeneration`): with no attention backend given it declares FlashInfer
//! for prefill, then asserts the prefill backend is FlashInfer. No config of the model is served
//! by the recorder (model type `moss_vl` loads only through the checkpoint's own configuration
//! code, which the catalog builder does not run), so the assertion is reported as not run where
//! a backend is given.

use crate::fields::f;
use crate::rules::{site, Ctx};

/// The assertion where the command gives a prefill backend other than FlashInfer, as not run.
pub fn checks_not_run(ctx: &mut Ctx) {
    let backends = crate::rules::shared::model_override_base::ATTENTION_BACKEND_FIELDS;
    if backends.iter().all(|&b| ctx.cfg.is_none(b)) {
        return;
    }
    // `attention_backends_of(...)[0]`: the prefill backend, else the base one.
    let prefill = ctx.cfg.str(f::prefill_attention_backend).filter(|s| !s.is_empty()).or_else(|| ctx.cfg.str(f::attention_backend));
    if prefill != Some("flashinfer") {
        ctx.model_config(site("model_overrides.moss_vl._moss_vl_overrides", "MossVLForConditionalGeneration requires flashinfer prefill"));
    }
}
