//! SGLang's per-architecture model override providers (`sglang/srt/arg_groups/model_overrides/`,
//! registered with `model_override_base._register_for`), one file per SGLang module. A provider
//! returns the values it declares for the command and model (`handle_model_specific_adjustments`
//! collects them; later readers see them), or None where it reads something not known here.
//! Only the providers listed in [`modelled`] are replayed.

use crate::fields::Field;
use crate::pyvalue::PyValue;
use crate::rules::Ctx;

pub mod deepseek_v2;
pub mod deepseek_v4;
pub mod gemma4;
pub mod llama4;
pub mod minimax_m2;
pub mod qwen3_moe;

/// What a provider declares: `(field, value)` in its order.
pub type Declarations = Vec<(Field, PyValue)>;

/// The replayed provider for `architecture`, when it is the only one SGLang registers for it.
pub fn modelled(architecture: &str) -> Option<fn(&Ctx) -> Option<Declarations>> {
    match architecture {
        "Llama4ForConditionalGeneration" | "Llama4ForCausalLM" => Some(llama4::llama4_overrides),
        "Gemma4ForConditionalGeneration" | "Gemma4ForCausalLM" | "Gemma4UnifiedForConditionalGeneration" => Some(gemma4::gemma4_overrides),
        "MiniMaxM2ForCausalLM" => Some(minimax_m2::minimax_m2_overrides),
        "Qwen3MoeForCausalLM" => Some(qwen3_moe::qwen3_moe_family_overrides),
        "DeepseekV4ForCausalLM" => Some(deepseek_v4::deepseek_v4_overrides),
        a if deepseek_v2::ARCHITECTURES.contains(&a) => Some(deepseek_v2::deepseek_family_overrides),
        _ => None,
    }
}
