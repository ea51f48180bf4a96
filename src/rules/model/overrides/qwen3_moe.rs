//! `model_overrides/qwen3_moe.py`: `_qwen3_moe_family_overrides` (replayed for
//! `Qwen3MoeForCausalLM`, the family member it is the only provider of, for
//! `Qwen3VLMoeForConditionalGeneration` before the Qwen3-VL module's provider, and for the Qwen3.5
//! hybrids after `_qwen3_5_hybrid_overrides`).

use super::Declarations;
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::shared::runtime_context::is_sm100;
use crate::rules::{site, Ctx, NotRunReason};

/// Nothing off SM100. On SM100: the checkpoint's `quant_method` as the quantization when none is
/// given, then FlashInfer TRT-LLM MoE for an FP8 / ModelOpt FP4 / unquantized model without an
/// A2A backend. None where it reads what the facts do not say (a ModelOpt mixed checkpoint's
/// quantized layers, a quantization the command unset explicitly, a quantization from
/// `hf_quant_config.json`).
pub fn qwen3_moe_family_overrides(ctx: &mut Ctx) -> Option<Declarations> {
    let mut out = Declarations::new();
    if !is_sm100(ctx.hw) {
        return Some(out);
    }
    let raw = ctx.model.and_then(|m| m.raw)?;
    // `get_quantization_config(hf_config)`: `quantization_config["quant_method"]`
    let quant_method = match &raw.quantization {
        None => None,
        // `ModelConfig._parse_quant_hf_config` has updated a ModelOpt config's dict in place with
        // the method it parsed (`modelopt_fp4`, ...): SGLang's own, for a catalog model
        Some(q) if q.from == "quantization_config" && q.quant_method.as_deref().map_or(true, |m| m == "modelopt") => {
            Some(ctx.model.and_then(|m| m.computed)?.quantization.clone()?)
        }
        Some(q) if q.from == "quantization_config" => q.quant_method.clone(),
        Some(_) => return None,
    };
    if ctx.cfg.is_unknown(f::quantization) {
        return None;
    }
    let mut quantization = ctx.cfg.str(f::quantization).map(str::to_string);
    if quantization.is_none() {
        if let Some(method) = quant_method {
            // `_quantization_explicitly_unset` is not known here
            if ctx.cfg.is_explicit(f::quantization) {
                return None;
            }
            out.push((f::quantization, PyValue::Str(method.clone())));
            quantization = Some(method);
        }
    }
    if quantization.as_deref() == Some("modelopt_mixed") {
        // `_mixed_precision_moe_quant_algos(hf_config)`: the quantized layers are not among the facts
        if !matches!(ctx.cfg.str(f::moe_runner_backend), Some("auto" | "marlin")) {
            ctx.skip(site("model_overrides.qwen3_moe._qwen3_moe_family_overrides", "W4A16_NVFP4 MoE layers require"), NotRunReason::NotImplemented);
        }
        return None;
    }
    let quant_ok = matches!(quantization.as_deref(), None | Some("fp8" | "modelopt_fp4"));
    if quant_ok && ctx.cfg.is(f::moe_a2a_backend, "none") && ctx.cfg.is(f::moe_runner_backend, "auto") {
        out.push((f::moe_runner_backend, PyValue::Str("flashinfer_trtllm".to_string())));
    }
    Some(out)
}
