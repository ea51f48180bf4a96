//! SGLang's per-architecture model override providers (`sglang/srt/arg_groups/model_overrides/`,
//! registered with `model_override_base._register_for`), one file per SGLang module. A provider
//! returns the values it declares for the command and model (`handle_model_specific_adjustments`
//! collects them; later readers see them), or None where it reads something not known here; a
//! provider that raises returns `Err(Raised)`.
//! Only the providers listed in [`modelled`] are replayed; of some others (`minicpm`,
//! `ernie45_vl`, `moss_vl`, `iquest_q1`, `qwen4_exp`) the checks are reported as not run
//! (`checks_not_run`).

use crate::fields::Field;
use crate::pyvalue::PyValue;
use crate::rules::{Ctx, Raised};

pub mod deepseek_v2;
pub mod deepseek_v4;
pub mod ernie45_vl;
pub mod gemma4;
pub mod gpt_oss;
pub mod iquest_q1;
pub mod kimi_k3;
pub mod llama4;
pub mod minicpm;
pub mod minimax_m2;
pub mod minimax_m3;
pub mod moss_vl;
pub mod nemotron_h;
pub mod qwen3_5;
pub mod qwen3_moe;
pub mod qwen3_vl;
pub mod qwen4_exp;

/// What a provider declares: `(field, value)` in its order.
pub type Declarations = Vec<(Field, PyValue)>;

/// What a provider gives: its declarations, None where it reads what is not known here, or
/// `Err(Raised)` when SGLang raises in it.
pub type Provided = Result<Option<Declarations>, Raised>;

pub type Provider = fn(&mut Ctx) -> Provided;

/// A declared text value.
pub fn str_value(s: &str) -> PyValue {
    PyValue::Str(s.to_string())
}

/// A provider that cannot raise, as a [`Provider`].
macro_rules! declares_only {
    ($f:path) => {{
        fn provider(ctx: &mut Ctx) -> Provided {
            Ok($f(ctx))
        }
        provider as Provider
    }};
}

/// The replayed providers for `architecture`, all SGLang registers for it (one function
/// replays them in their registration order). The DeepSeek family's architectures are the
/// release's own (`model-lists.json`): none where this build has no lists for `release`.
pub fn modelled(release: &crate::release::Release, architecture: &str) -> Option<Provider> {
    match architecture {
        "Llama4ForConditionalGeneration" | "Llama4ForCausalLM" => Some(declares_only!(llama4::llama4_overrides)),
        "Gemma4ForConditionalGeneration" | "Gemma4ForCausalLM" | "Gemma4UnifiedForConditionalGeneration" => Some(declares_only!(gemma4::gemma4_overrides)),
        "MiniMaxM2ForCausalLM" => Some(declares_only!(minimax_m2::minimax_m2_overrides)),
        "Qwen3MoeForCausalLM" => Some(declares_only!(qwen3_moe::qwen3_moe_family_overrides)),
        "Qwen3VLForConditionalGeneration" => Some(qwen3_vl_providers),
        "Qwen3VLMoeForConditionalGeneration" => Some(qwen3_vl_moe_providers),
        "KimiK3ForConditionalGeneration" => Some(kimi_k3::kimi_k3_providers),
        "MiniMaxM3SparseForCausalLM" | "MiniMaxM3SparseForConditionalGeneration" => Some(declares_only!(minimax_m3::minimax_m3_overrides)),
        "NemotronHForCausalLM" | "NemotronHPuzzleForCausalLM" | "NemotronH_Omni_Reasoning_V3" => Some(nemotron_h::nemotron_h_overrides),
        "DeepseekV4ForCausalLM" => Some(declares_only!(deepseek_v4::deepseek_v4_overrides)),
        // (0.5.18's is `shared::overrides::provider_attention_backend_0_5_18`'s)
        "GptOssForCausalLM" if !release.data.before_hook_modules() => Some(declares_only!(gpt_oss::gpt_oss_overrides)),
        "Qwen3NextForCausalLM" | "Qwen3_5MoeForConditionalGeneration" | "Qwen3_5ForConditionalGeneration" | "InternS2PreviewForConditionalGeneration"
            if has_provider(release, "model_overrides.qwen3_5._qwen3_5_hybrid_overrides") =>
        {
            Some(qwen3_5_providers)
        }
        a if deepseek_v2::registered_for(release, a) => Some(declares_only!(deepseek_v2::deepseek_family_overrides)),
        _ => None,
    }
}

/// Whether the checked release has SGLang's provider `function`: a release with the hook
/// modules is laid out as they are; an older one has the providers its function map names.
fn has_provider(release: &crate::release::Release, function: &str) -> bool {
    !release.data.before_hook_modules() || release.data.function_map.iter().any(|(f, _)| *f == function)
}

/// `_qwen3vl_hopper_serving_overrides` where the release has it (else nothing), after the
/// declarations of the architecture's other providers.
fn with_hopper_serving(ctx: &mut Ctx, mut out: Declarations) -> Provided {
    if has_provider(ctx.release, "model_overrides.qwen3_vl._qwen3vl_hopper_serving_overrides") {
        let Some(hopper) = qwen3_vl::qwen3vl_hopper_serving_overrides(ctx) else { return Ok(None) };
        out.extend(hopper);
    }
    Ok(Some(out))
}

/// Qwen3VLForConditionalGeneration: `_qwen3vl_overrides`, then the Hopper serving defaults.
fn qwen3_vl_providers(ctx: &mut Ctx) -> Provided {
    let out = qwen3_vl::qwen3vl_overrides(ctx);
    with_hopper_serving(ctx, out)
}

/// Qwen3VLMoeForConditionalGeneration: the Qwen3 MoE family's provider (its module registers
/// first), then the Hopper serving defaults.
fn qwen3_vl_moe_providers(ctx: &mut Ctx) -> Provided {
    let Some(out) = qwen3_moe::qwen3_moe_family_overrides(ctx) else { return Ok(None) };
    with_hopper_serving(ctx, out)
}

/// The Qwen3.5 hybrid architectures (but Intern-S2-Mobius, whose own provider is not replayed):
/// `_qwen3_5_hybrid_overrides`, then the Qwen3 MoE family's provider (its module registers after;
/// the two declare different fields).
fn qwen3_5_providers(ctx: &mut Ctx) -> Provided {
    let Some(mut out) = qwen3_5::qwen3_5_hybrid_overrides(ctx) else { return Ok(None) };
    let Some(moe) = qwen3_moe::qwen3_moe_family_overrides(ctx) else { return Ok(None) };
    out.extend(moe);
    Ok(Some(out))
}
