//! `model_overrides/deepseek_v4.py`: `_deepseek_v4_overrides`, the attention, page and MoE
//! defaults of `DeepseekV4ForCausalLM` (the rest is `deepseek_v4_hook`).

use super::Declarations;
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::shared::runtime_context::{is_sm100, is_sm120, is_sm90};
use crate::rules::Ctx;

/// The dsv4 attention backend (over any given one), SWA pool ratio 0.1 when unset, page size
/// 256, and the MoE runner when it is auto and the checkpoint decides nothing here. None for a
/// DeepSeek-V4.1 config (not replayed: no public config to record against) and on NPU (no
/// hardware profile here is one).
pub fn deepseek_v4_overrides(ctx: &Ctx) -> Option<Declarations> {
    let model = ctx.model?;
    if model.model_type != Some("deepseek_v4") || ctx.cfg.is(f::device, "npu") {
        return None;
    }
    let mut out = Declarations::new();
    out.push((f::attention_backend, PyValue::Str("dsv4".to_string())));
    if ctx.cfg.is_none(f::swa_full_tokens_ratio) {
        out.push((f::swa_full_tokens_ratio, PyValue::Float(0.1)));
    }
    out.push((f::page_size, PyValue::Int(256)));
    // (With the MoE runner auto, what it picks may depend on the checkpoint's weight files: see
    // `moe_runner_backend_undecided`.)
    Some(out)
}

/// Whether the provider's MoE runner choice is not known here (it leaves `moe_runner_backend`
/// as it is otherwise): with the runner auto, a hybrid FP8+NVFP4 checkpoint (`nvfp4_moe_meta`)
/// gets flashinfer_trtllm_routed, and on CUDA SM90/SM100/SM120 without an all-to-all backend
/// MXFP4 routed experts (`is_fp4_experts`, which SGLang probes in the checkpoint's weight files)
/// get flashinfer_mxfp4.
pub fn moe_runner_backend_undecided(ctx: &Ctx) -> bool {
    if !ctx.cfg.is(f::moe_runner_backend, "auto") {
        return false;
    }
    let quant = ctx.model.and_then(|m| m.raw).map(|r| r.quantization.as_ref());
    // `nvfp4_moe_meta` needs `quant_algo` MIXED_PRECISION in `quantization_config`.
    let nvfp4_meta_ruled_out = match quant {
        Some(None) => true,
        Some(Some(q)) => q.from == "quantization_config" && !q.quant_algo.as_deref().is_some_and(|a| a.eq_ignore_ascii_case("MIXED_PRECISION")),
        None => false,
    };
    if !nvfp4_meta_ruled_out {
        return true;
    }
    let hw = ctx.hw;
    // `EnvBool`: a value it does not parse raises where SGLang reads it (not decided here).
    let dequant = match ctx.env("SGLANG_DSV4_FP4_DEQUANT").map(crate::rules::shared::envs::parse_env_bool) {
        None => false,
        Some(Some(set)) => set,
        Some(None) => return true,
    };
    ctx.cfg.is(f::device, "cuda")
        && !hw.is_hip()
        && ctx.cfg.is(f::moe_a2a_backend, "none")
        && !dequant
        && (is_sm90(hw) || is_sm100(hw) || is_sm120(hw))
}
