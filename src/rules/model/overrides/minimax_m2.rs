//! `model_overrides/minimax_m2.py`: `_minimax_m2_overrides`.

use super::Declarations;
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::shared::runtime_context::is_sm100;
use crate::rules::Ctx;

/// TF32 matmul always; on SM100 with an automatic MoE runner, FlashInfer TRT-LLM routed MoE for
/// a ModelOpt FP4 checkpoint (None there when the checkpoint's quantization is not known).
pub fn minimax_m2_overrides(ctx: &Ctx) -> Option<Declarations> {
    let mut out: Declarations = vec![(f::enable_tf32_matmul, PyValue::Bool(true))];
    if is_sm100(ctx.hw) && ctx.cfg.is(f::moe_runner_backend, "auto") {
        let quantization = ctx.model.and_then(|m| m.computed).map(|c| c.quantization.clone())?;
        if quantization.as_deref() == Some("modelopt_fp4") {
            out.push((f::moe_runner_backend, PyValue::Str("flashinfer_trtllm_routed".to_string())));
        }
    }
    Some(out)
}
