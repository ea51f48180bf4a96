//! `model_overrides/llama4.py`: `_llama4_overrides`.

use super::Declarations;
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::shared::runtime_context::{is_sm100, is_sm90};
use crate::rules::Ctx;

/// The attention backend when none is given (by platform), and FlashInfer TRT-LLM MoE for an
/// FP8 checkpoint on SM100. None on a CPU device.
pub fn llama4_overrides(ctx: &Ctx) -> Option<Declarations> {
    let mut out = Declarations::new();
    if ctx.cfg.is(f::device, "cpu") {
        return Some(out);
    }
    if ctx.cfg.is_none(f::attention_backend) {
        let backend = if is_sm100(ctx.hw) {
            "trtllm_mha"
        } else if is_sm90(ctx.hw) {
            "fa3"
        } else if ctx.hw.is_hip() {
            "aiter"
        } else if ctx.cfg.is(f::device, "xpu") {
            "intel_xpu"
        } else {
            "triton"
        };
        out.push((f::attention_backend, PyValue::Str(backend.to_string())));
    }
    if is_sm100(ctx.hw) && ctx.cfg.is(f::moe_runner_backend, "auto") && matches!(ctx.cfg.str(f::quantization), Some("fp8" | "modelopt_fp8")) {
        out.push((f::moe_runner_backend, PyValue::Str("flashinfer_trtllm".to_string())));
    }
    Some(out)
}
