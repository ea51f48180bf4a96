//! `model_overrides/nemotron_h.py`: `_nemotron_h_overrides` (the ModelOpt quantization, the MoE
//! runner and the Blackwell attention defaults of Nemotron-H) and `_validate_expert_remap`.

use super::{str_value, Declarations, Provided};
use crate::diagnostic::Applicability;
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::shared::runtime_context::{is_blackwell, is_sm100};
use crate::rules::{raises, site, site_nth, Ctx, NotRunReason, Rule};

pub static EXPERT_REMAP_TRTLLM: Rule = Rule {
    code: "MH034",
    name: kebab!("nemotron-h-expert-remap-flashinfer-trtllm"),
    sglang: raises("model_overrides.nemotron_h._validate_expert_remap", "flashinfer_trtllm routes inside the kernel"),
    explanation: expl!("EPLB, redundant experts (--ep-num-redundant-experts) and a non-trivial --init-expert-location remap logical experts to physical ones before the MoE kernel; FlashInfer's TRT-LLM MoE routes inside the kernel and cannot take that remap on Nemotron-H. Its routed variant (flashinfer_trtllm_routed) can."),
    flags: &["--moe-runner-backend", "--enable-eplb", "--ep-num-redundant-experts", "--init-expert-location"],
    example_bad: ex!("--model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --tp-size 8 --ep-size 8 --enable-eplb --moe-runner-backend flashinfer_trtllm"),
    example_good: ex!("--model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --tp-size 8 --ep-size 8 --enable-eplb --moe-runner-backend flashinfer_trtllm_routed"),
};

pub static EPLB_CUTEDSL_NO_A2A: Rule = Rule {
    code: "MH035",
    name: kebab!("nemotron-h-eplb-flashinfer-cutedsl-without-a2a"),
    sglang: raises("model_overrides.nemotron_h._validate_expert_remap", "flashinfer_cutedsl without an a2a backend"),
    explanation: expl!("When EPLB rebalances Nemotron-H's experts, FlashInfer's CuTe DSL MoE without an all-to-all backend keeps its expert scales where they were, so SGLang refuses it: use flashinfer_trtllm_routed, or an --moe-a2a-backend."),
    flags: &["--moe-runner-backend", "--enable-eplb", "--moe-a2a-backend"],
    example_bad: ex!("--model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --tp-size 8 --ep-size 8 --enable-eplb --moe-runner-backend flashinfer_cutedsl"),
    example_good: ex!("--model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --tp-size 8 --ep-size 8 --enable-eplb --moe-runner-backend flashinfer_trtllm_routed"),
};

pub static RULES: &[&Rule] = &[&EXPERT_REMAP_TRTLLM, &EPLB_CUTEDSL_NO_A2A];

/// `_nemotron_h_overrides`. None where it reads what the facts do not say: the quantization
/// SGLang's ModelConfig computes (a given config has none, and a `--quantization` it would
/// verify), the MLP activation of a ModelOpt checkpoint, a ModelOpt mixed-precision checkpoint's
/// quantized layers.
pub fn nemotron_h_overrides(ctx: &mut Ctx) -> Provided {
    let Some(model) = ctx.model else { return Ok(None) };
    let arch = model.architecture.unwrap_or_default();
    let (Some(raw), Some(computed)) = (model.raw, model.computed) else { return Ok(None) };
    // `model_config.quantization`: the checkpoint's, unless the command names another one
    let model_quantization = computed.quantization.clone();
    if ctx.cfg.str(f::quantization).is_some_and(|q| Some(q) != model_quantization.as_deref()) {
        return Ok(None);
    }
    let mut out = Declarations::new();
    let is_modelopt = matches!(model_quantization.as_deref(), Some("modelopt" | "modelopt_fp8" | "modelopt_fp4" | "modelopt_mixed"));
    let mut quantization = ctx.cfg.str(f::quantization).map(str::to_string);
    if is_modelopt {
        // `assert language_config.mlp_hidden_act == "relu2"`
        if raw.mlp_hidden_act.as_deref() != Some("relu2") {
            ctx.skip(site_nth("model_overrides.nemotron_h._nemotron_h_overrides", "", 0), NotRunReason::NotImplemented);
            return Ok(None);
        }
        let resolved = if model_quantization.as_deref() == Some("modelopt") {
            let algo = raw.quantization.as_ref().filter(|q| q.from == "quantization_config").and_then(|q| q.quant_algo.clone());
            match algo.as_deref() {
                Some("MIXED_PRECISION") => "modelopt_mixed".to_string(),
                Some("NVFP4") => "modelopt_fp4".to_string(),
                Some(_) => "modelopt_fp8".to_string(),
                None => return Ok(None),
            }
        } else {
            model_quantization.clone().unwrap_or_default()
        };
        out.push((f::quantization, str_value(&resolved)));
        quantization = Some(resolved);
    }
    // (SGLang 0.5.18 has no expert-remap handling here: `_validate_expert_remap` is later)
    let remap = EXPERT_REMAP_TRTLLM.applies_to(ctx.release)
        && (ctx.cfg.truthy(f::enable_eplb) || ctx.cfg.int(f::ep_num_redundant_experts).unwrap_or(0) > 0 || !ctx.cfg.is(f::init_expert_location, "trivial"));
    if remap {
        validate_expert_remap(ctx, arch)?;
        if arch == "NemotronHPuzzleForCausalLM" {
            return Ok(None);
        }
    }
    if is_modelopt && quantization.as_deref() == Some("modelopt_mixed") {
        // the W4A16_NVFP4 MoE layers of `quantization_config["quantized_layers"]` are not known
        ctx.skip(site("model_overrides.nemotron_h._nemotron_h_overrides", "W4A16_NVFP4 MoE layers require --moe-a2a-backend=none."), NotRunReason::NotImplemented);
        ctx.skip(site("model_overrides.nemotron_h._nemotron_h_overrides", "W4A16_NVFP4 MoE layers require --moe-runner-backend=marlin."), NotRunReason::NotImplemented);
        return Ok(None);
    }
    let runner_auto = ctx.cfg.is(f::moe_runner_backend, "auto");
    let a2a_none = ctx.cfg.is(f::moe_a2a_backend, "none");
    let sm100 = is_sm100(ctx.hw);
    if remap && runner_auto && sm100 && a2a_none {
        out.push((f::moe_runner_backend, str_value("flashinfer_trtllm_routed")));
    } else if (is_modelopt || model_quantization.is_none()) && runner_auto {
        let cap = ctx.hw.capability;
        let runner = if sm100 && a2a_none {
            "flashinfer_trtllm"
        } else if (matches!(model_quantization.as_deref(), Some("modelopt_fp4" | "modelopt_mixed")) || quantization.as_deref() == Some("modelopt_fp4")) && ctx.hw.is_cuda() && ((8, 0)..(10, 0)).contains(&cap) {
            "marlin"
        } else {
            "flashinfer_cutlass"
        };
        out.push((f::moe_runner_backend, str_value(runner)));
    }
    if fills_flashinfer_attention(ctx, arch) {
        if is_sm100(ctx.hw) && ctx.cfg.is_none(f::attention_backend) {
            out.push((f::attention_backend, str_value("flashinfer")));
        }
        return Ok(Some(out));
    }
    let backends_unset = crate::rules::shared::model_override_base::is_attention_backend_not_set(ctx);
    if is_blackwell(ctx.hw) && backends_unset {
        if let Some(algorithm) = ctx.cfg.str(f::speculative_algorithm).map(str::to_ascii_uppercase) {
            let draft_unset = ctx.cfg.is_none(f::speculative_draft_attention_backend);
            let topk_one = matches!(ctx.cfg.get(f::speculative_eagle_topk), PyValue::None | PyValue::Int(1));
            if sm100 && topk_one {
                out.push((f::attention_backend, str_value("trtllm_mha")));
                if ctx.cfg.is_none(f::page_size) {
                    out.push((f::page_size, PyValue::Int(64)));
                }
                if ctx.cfg.is(f::mamba_radix_cache_strategy, "auto") {
                    out.push((f::mamba_radix_cache_strategy, str_value("extra_buffer")));
                }
                if draft_unset && matches!(algorithm.as_str(), "EAGLE" | "NEXTN" | "DSPARK") {
                    out.push((f::speculative_draft_attention_backend, str_value("trtllm_mha")));
                }
            } else {
                out.push((f::attention_backend, str_value("triton")));
                if draft_unset && matches!(algorithm.as_str(), "EAGLE" | "NEXTN" | "DFLASH" | "DSPARK") {
                    out.push((f::speculative_draft_attention_backend, str_value("flashinfer")));
                }
            }
        } else if sm100 {
            out.push((f::attention_backend, str_value("trtllm_mha")));
        }
    }
    Ok(Some(out))
}

/// `_validate_expert_remap`: the MoE runners that cannot take EPLB's or redundant experts'
/// remap; a Puzzle checkpoint's routed expert counts per MoE block are not known here.
fn validate_expert_remap(ctx: &mut Ctx, arch: &str) -> crate::rules::Step {
    let use_routed = |ctx: &Ctx| ctx.fix_set("Use --moe-runner-backend flashinfer_trtllm_routed", f::moe_runner_backend, "flashinfer_trtllm_routed", Applicability::Unsafe);
    if ctx.cfg.is(f::moe_runner_backend, "flashinfer_trtllm") {
        let fixes = vec![use_routed(ctx)];
        ctx.raise(&EXPERT_REMAP_TRTLLM, &[], &[f::moe_runner_backend, f::enable_eplb, f::ep_num_redundant_experts, f::init_expert_location], fixes)?;
    }
    if ctx.cfg.truthy(f::enable_eplb) && ctx.cfg.is(f::moe_runner_backend, "flashinfer_cutedsl") && ctx.cfg.is(f::moe_a2a_backend, "none") {
        let fixes = vec![use_routed(ctx)];
        ctx.raise(&EPLB_CUTEDSL_NO_A2A, &[], &[f::moe_runner_backend, f::enable_eplb], fixes)?;
    }
    if arch == "NemotronHPuzzleForCausalLM" {
        // `hf_config.block_configs`' routed expert counts
        ctx.skip(site("model_overrides.nemotron_h._validate_expert_remap", "EPLB and redundant experts need the same routed expert count"), NotRunReason::NotImplemented);
    }
    Ok(())
}

/// SGLang 0.5.18's NemotronH override fills an unset --attention-backend with flashinfer on SM100
/// (whatever the speculative settings); 0.5.19's picks trtllm_mha or triton by them, and the
/// draft's backend with them: the release's generated lists tell the two apart by whether the
/// provider declares `speculative_draft_attention_backend`.
fn fills_flashinfer_attention(ctx: &Ctx, arch: &str) -> bool {
    ctx.release.model_lists().is_some_and(|l| {
        l.override_declares(arch, "attention_backend") && !l.override_declares(arch, "speculative_draft_attention_backend")
    })
}
