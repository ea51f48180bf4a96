//! `model_overrides/gemma4.py`: `_gemma4_overrides` (Gemma 4's architectures; the block-diffusion
//! one it also claims is not replayed).

use super::Declarations;
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::shared::runtime_context::is_sm100;
use crate::rules::Ctx;

/// `attention_backend` when it is unset (triton, trtllm_mha on SM100), and on SM100 with an
/// automatic MoE runner, FlashInfer TRT-LLM MoE for a ModelOpt FP4 checkpoint: None there when
/// the checkpoint's quantization is not known.
pub fn gemma4_overrides(ctx: &Ctx) -> Option<Declarations> {
    let mut out = Declarations::new();
    let default = if is_sm100(ctx.hw) { "trtllm_mha" } else { "triton" };
    // (all three unset, or only a split backend given: either way the base backend is filled)
    if ctx.cfg.is_none(f::attention_backend) {
        out.push((f::attention_backend, PyValue::Str(default.to_string())));
    }
    if is_sm100(ctx.hw) && ctx.cfg.is(f::moe_runner_backend, "auto") {
        let quantization = ctx.model.and_then(|m| m.computed).map(|c| c.quantization.clone())?;
        if quantization.as_deref() == Some("modelopt_fp4") {
            out.push((f::quantization, PyValue::Str("modelopt_fp4".to_string())));
            out.push((f::moe_runner_backend, PyValue::Str("flashinfer_trtllm".to_string())));
        }
    }
    Some(out)
}
