//! `model_overrides/gpt_oss.py`: `_gpt_oss_overrides` (registered for `GptOssForCausalLM`): the
//! attention backend each GPU takes when none is given, bfloat16 for an MXFP4 checkpoint, and the
//! MoE runner `auto` resolves to.

use super::{str_value, Declarations};
use crate::fields::f;
use crate::rules::shared::envs::env_bool;
use crate::rules::shared::model_override_base::is_attention_backend_not_set;
use crate::rules::shared::overrides::gpt_oss_attention_backend;
use crate::rules::shared::runtime_context::{is_sm100, is_sm120};
use crate::rules::Ctx;

/// None (not replayed) on a CPU (whether it has AMX is not modelled), without the model's raw
/// facts, or where the MoE runner depends on the serving machine's software (the
/// `triton_kernels` package, and on Blackwell the NVIDIA driver).
pub fn gpt_oss_overrides(ctx: &mut Ctx) -> Option<Declarations> {
    let hw = ctx.hw;
    if hw.platform == crate::hardware::Platform::Cpu {
        return None;
    }
    let raw = ctx.model.and_then(|m| m.raw)?;
    let mut out = Declarations::new();
    if is_attention_backend_not_set(ctx) {
        out.push((f::attention_backend, str_value(gpt_oss_attention_backend(hw))));
    }
    // `quantization_config.get("quant_method") == "mxfp4"`
    let mxfp4 = raw.quantization.as_ref().is_some_and(|q| q.from == "quantization_config" && q.quant_method.as_deref() == Some("mxfp4"));
    if mxfp4 {
        out.push((f::dtype, str_value("bfloat16")));
    }
    if ctx.cfg.is(f::moe_runner_backend, "auto") {
        let aiter = hw.is_hip() && env_bool(ctx, "SGLANG_USE_AITER");
        if (is_sm100(hw) || is_sm120(hw)) && mxfp4 {
            out.push((f::moe_runner_backend, str_value("flashinfer_mxfp4")));
        } else if aiter && mxfp4 {
            out.push((f::moe_runner_backend, str_value("auto")));
        } else if aiter {
            out.push((f::moe_runner_backend, str_value("triton")));
        } else if ctx.cfg.int(f::ep_size) == Some(1) && ctx.cfg.is_none(f::quantization) {
            // triton_kernel where the `triton_kernels` package is installed (triton on Blackwell
            // with driver 595 or later), else auto: the serving machine's software decides
            return None;
        }
    }
    Some(out)
}
