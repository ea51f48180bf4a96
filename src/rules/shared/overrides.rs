//! `sglang/srt/arg_groups/overrides.py`: constants several hooks decide by.

/// `overrides._A2A_EP_SPANNING_BACKENDS`: the MoE all-to-all backends for which `_a2a_ep_size`
/// sets `ep_size` to `tp_size`.
pub const A2A_EP_SPANNING_BACKENDS: &[&str] =
    &["megamoe", "deepep", "deepep_v2", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "flashinfer_megamoe", "mori", "pplx"];

use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::diagnostic::Applicability;
use crate::rules::{site, warns, Ctx, NotRunReason, Rule, Step};

pub static PP_DISABLES_OVERLAP: Rule = Rule {
    code: "OVR001",
    name: kebab!("pipeline-parallel-disables-overlap-schedule"),
    sglang: warns("overrides._pipeline_parallel_overlap_disable", "Pipeline parallelism is incompatible with overlap schedule."),
    explanation: expl!("With pipeline parallelism (--pp-size above 1) SGLang runs without the overlap scheduler (CPU scheduling is not overlapped with GPU work), as --disable-overlap-schedule does."),
    flags: &["--pp-size", "--disable-overlap-schedule"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2"),
};

/// The rules of `overrides.py`'s passes that run as pipeline steps of their own.
pub static RULES: &[&Rule] = &[&PP_DISABLES_OVERLAP];

/// `materialize_declarations`: the stashed declarations are applied to the fields, so code that
/// reads a field itself from here on reads the resolved value.
pub fn materialize_declarations(ctx: &mut Ctx) -> Step {
    ctx.cfg.materialize_declarations();
    Ok(())
}

/// `_pipeline_parallel_overlap_disable` (a post-process pass run as a pipeline step).
pub fn pipeline_parallel_overlap_disable(ctx: &mut Ctx) -> Step {
    if ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 {
        let fixes = if ctx.cfg.truthy(f::disable_overlap_schedule) {
            vec![]
        } else {
            // SGLang logs this with or without the flag: advice, not an edit leaving the warning.
            vec![crate::diagnostic::Fix::advice("To make it explicit, write --disable-overlap-schedule (SGLang still logs this)")]
        };
        ctx.warn(&PP_DISABLES_OVERLAP, &[], &[f::pp_size], fixes);
        ctx.cfg.set(f::disable_overlap_schedule, PyValue::Bool(true));
    }
    Ok(())
}

pub static DSV4_KV_CACHE_DTYPE: Rule = Rule {
    code: "OVR002",
    name: kebab!("deepseek-v4-kv-cache-dtype"),
    sglang: crate::rules::raises("overrides._deepseek_v4_kv_cache_dtype", "{kv_cache_dtype} is not supported for {model_arch}"),
    explanation: expl!("DeepSeek-V4's KV pool holds FP8 (fp8_e4m3, what SGLang picks for auto) or bfloat16 entries only; any other --kv-cache-dtype, the bf16 alias included, fails SGLang's assertion."),
    flags: &["--kv-cache-dtype"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --kv-cache-dtype fp8_e5m2"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --kv-cache-dtype fp8_e4m3"),
};

/// The rules of `overrides.py`'s passes that run inside a hook (at their legacy slots).
pub static SLOT_RULES: &[&Rule] = &[&DSV4_KV_CACHE_DTYPE];

/// `_deepseek_v4_kv_cache_dtype` (run by `deepseek_v4_hook.apply_deepseek_v4_defaults`): auto is
/// FP8, bfloat16 on NPU; the result must be fp8_e4m3 or bfloat16.
pub fn deepseek_v4_kv_cache_dtype(ctx: &mut Ctx, arch: &str) -> Step {
    if arch != "DeepseekV4ForCausalLM" {
        return Ok(());
    }
    let given = ctx.cfg.get(f::kv_cache_dtype).clone();
    let mut kv = given.as_str().unwrap_or("").to_string();
    if kv == "auto" {
        kv = "fp8_e4m3".to_string();
    }
    if ctx.cfg.is(f::device, "npu") {
        kv = "bfloat16".to_string();
    }
    if !matches!(kv.as_str(), "fp8_e4m3" | "bfloat16") {
        let fixes = vec![
            ctx.fix_set("Use the FP8 KV cache (fp8_e4m3)", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe),
            ctx.fix_set("Use a bfloat16 KV cache", f::kv_cache_dtype, "bfloat16", Applicability::Unsafe),
        ];
        ctx.raise(&DSV4_KV_CACHE_DTYPE, &[("kv_cache_dtype", &kv), ("model_arch", &arch)], &[f::kv_cache_dtype], fixes)?;
    }
    if given.as_str() != Some(kv.as_str()) {
        ctx.cfg.set(f::kv_cache_dtype, PyValue::Str(kv));
    }
    Ok(())
}

pub static DSA_KV_CACHE_DTYPE: Rule = Rule {
    code: "OVR004",
    name: kebab!("dsa-kv-cache-dtype"),
    sglang: crate::rules::raises("overrides._dsa_kv_cache_dtype_default", "DeepSeek DSA only supports bf16/bfloat16 or fp8_e4m3 kv_cache_dtype"),
    explanation: expl!("The KV cache of a DeepSeek Sparse Attention model (DeepSeek V3.2, GLM-5 ...) holds bfloat16 or FP8 (fp8_e4m3) entries only; auto picks fp8_e4m3 on Blackwell and bfloat16 before it."),
    flags: &["--kv-cache-dtype"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --kv-cache-dtype fp8_e5m2"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --kv-cache-dtype fp8_e4m3"),
};

pub static DSA_HISPARSE_TILELANG_FP8: Rule = Rule {
    code: "OVR005",
    name: kebab!("dsa-hisparse-with-cuda-tilelang-fp8"),
    sglang: crate::rules::raises("overrides._dsa_split_backend_resolution", "CUDA TileLang FP8 KV does not support HiSparse."),
    explanation: expl!("On CUDA, the TileLang DSA backend's scaled FP8 KV layout is not one HiSparse can swap; with an FP8 KV cache and --enable-hisparse, neither DSA backend may be tilelang."),
    flags: &["--enable-hisparse", "--dsa-prefill-backend", "--dsa-decode-backend", "--kv-cache-dtype"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --enable-hisparse --disable-radix-cache --kv-cache-dtype fp8_e4m3 --dsa-decode-backend tilelang"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --enable-hisparse --disable-radix-cache --kv-cache-dtype fp8_e4m3"),
};

pub static DSA_TRITON_ROCM_ONLY: Rule = Rule {
    code: "OVR006",
    name: kebab!("dsa-triton-backend-rocm-only"),
    sglang: crate::rules::raises("overrides._check_dsa_backend_constraints", "The {'/'.join(sorted(rocm_only))} DSA backend is only supported on ROCm/HIP."),
    explanation: expl!("The triton DSA attention backend is written for ROCm; on CUDA use flashmla_kv (Hopper) or trtllm (Blackwell), or leave the DSA backends out and let SGLang pick."),
    flags: &["--dsa-prefill-backend", "--dsa-decode-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --dsa-decode-backend triton"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8"),
};

pub static DSA_TILELANG_FP8_BOTH: Rule = Rule {
    code: "OVR007",
    name: kebab!("dsa-cuda-tilelang-fp8-needs-both-phases"),
    sglang: crate::rules::raises("overrides._check_dsa_backend_constraints", "CUDA TileLang FP8 KV requires both DSA backends to be tilelang"),
    explanation: expl!("With an FP8 KV cache on CUDA, the TileLang DSA backend writes a scaled FP8 layout the other backends do not read (they use raw FP8): prefill and decode must both be tilelang, or neither."),
    flags: &["--dsa-prefill-backend", "--dsa-decode-backend", "--kv-cache-dtype"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --kv-cache-dtype fp8_e4m3 --dsa-decode-backend tilelang"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --kv-cache-dtype fp8_e4m3 --dsa-prefill-backend tilelang --dsa-decode-backend tilelang"),
};

pub static DSA_TILELANG_FP8_DCP: Rule = Rule {
    code: "OVR008",
    name: kebab!("dsa-cuda-tilelang-fp8-with-dcp"),
    sglang: crate::rules::raises("overrides._check_dsa_backend_constraints", "CUDA TileLang FP8 KV does not support --dcp-size > 1."),
    explanation: expl!("The TileLang DSA backend's FP8 KV path on CUDA has no decode-context-parallel support."),
    flags: &["--dsa-prefill-backend", "--dsa-decode-backend", "--dcp-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --dcp-size 2 --kv-cache-dtype fp8_e4m3 --dsa-prefill-backend tilelang --dsa-decode-backend tilelang"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --kv-cache-dtype fp8_e4m3 --dsa-prefill-backend tilelang --dsa-decode-backend tilelang"),
};

pub static DSA_TILELANG_FP8_SM89: Rule = Rule {
    code: "OVR009",
    name: kebab!("dsa-cuda-tilelang-fp8-needs-sm89"),
    sglang: crate::rules::raises("overrides._check_dsa_backend_constraints", "CUDA TileLang FP8 KV requires SM89 or newer."),
    explanation: expl!("The TileLang DSA backend's FP8 KV kernels need FP8 tensor cores (SM89, Ada, or newer); an A100 (SM80) has none."),
    flags: &["--dsa-prefill-backend", "--dsa-decode-backend", "--kv-cache-dtype"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --kv-cache-dtype fp8_e4m3 --dsa-prefill-backend tilelang --dsa-decode-backend tilelang   (on A100)"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --dsa-prefill-backend tilelang --dsa-decode-backend tilelang   (on A100)"),
};

/// The rules of the DSA passes `model_hook`'s DeepSeek-family branch runs.
pub static DSA_RULES: &[&Rule] = &[&DSA_KV_CACHE_DTYPE, &DSA_HISPARSE_TILELANG_FP8, &DSA_TRITON_ROCM_ONLY, &DSA_TILELANG_FP8_BOTH, &DSA_TILELANG_FP8_DCP, &DSA_TILELANG_FP8_SM89];

/// Whether a DSA model's config has learnable attention sinks (`learnable_sink`; HYV4's config
/// class defaults it to true): None when not known.
fn learnable_sinks(ctx: &Ctx, arch: &str) -> Option<bool> {
    let raw = ctx.model.and_then(|m| m.raw)?;
    if matches!(arch, "HYV4ForCausalLM" | "HYV4ForCausalLMNextN") && raw.learnable_sink.is_none() {
        return None;
    }
    Some(raw.learnable_sink.unwrap_or(false))
}

/// `_dsa_kv_cache_dtype_default` for a DSA model of the DeepSeek family on a CUDA or ROCm GPU:
/// auto is fp8_e4m3 from capability major 10 (without sinks), else bfloat16; the result must
/// be bfloat16 or fp8_e4m3. A model with learnable sinks is not replayed (none is served to
/// record against): the dtype is then left not known.
pub fn dsa_kv_cache_dtype_default(ctx: &mut Ctx, arch: &str) -> Step {
    let Some(sinks) = learnable_sinks(ctx, arch).filter(|s| !s) else {
        ctx.skip(site("overrides._dsa_kv_cache_dtype_default", "Learnable DSA attention sinks require"), NotRunReason::NotImplemented);
        ctx.cfg.mark_unknown(f::kv_cache_dtype);
        return Ok(());
    };
    let major = ctx.hw.capability.0;
    let given = ctx.cfg.get(f::kv_cache_dtype).clone();
    let mut kv = given.as_str().unwrap_or("").to_string();
    if kv == "auto" {
        kv = if major >= 10 && !sinks { "fp8_e4m3" } else { "bfloat16" }.to_string();
    }
    if kv == "bf16" {
        kv = "bfloat16".to_string();
    }
    if !matches!(kv.as_str(), "bfloat16" | "fp8_e4m3") {
        let fixes = vec![
            ctx.fix_set("Use the FP8 KV cache (fp8_e4m3)", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe),
            ctx.fix_remove("Remove --kv-cache-dtype (SGLang picks one for the GPU)", f::kv_cache_dtype, Applicability::Unsafe),
        ];
        ctx.raise(&DSA_KV_CACHE_DTYPE, &[], &[f::kv_cache_dtype], fixes)?;
    }
    if given.as_str() != Some(kv.as_str()) {
        ctx.cfg.set(f::kv_cache_dtype, PyValue::Str(kv));
    }
    Ok(())
}

/// `_dsa_split_backend_resolution` (after the KV cache dtype pass): each DSA backend the command
/// leaves unset gets the platform's, HiSparse's or the KV dtype's default, then
/// `_check_dsa_backend_constraints`. A model with learnable sinks is not replayed.
pub fn dsa_split_backend_resolution(ctx: &mut Ctx, arch: &str) -> Step {
    if learnable_sinks(ctx, arch) != Some(false) {
        ctx.skip(site("overrides._dsa_split_backend_resolution", "{model_arch} uses learnable attention sinks"), NotRunReason::NotImplemented);
        ctx.cfg.mark_unknown(f::dsa_prefill_backend);
        ctx.cfg.mark_unknown(f::dsa_decode_backend);
        return Ok(());
    }
    let hip = ctx.hw.is_hip();
    let major = ctx.hw.capability.0;
    let kv = ctx.cfg.str(f::kv_cache_dtype).unwrap_or("").to_string();
    let given_prefill = ctx.cfg.str(f::dsa_prefill_backend).map(str::to_string);
    let given_decode = ctx.cfg.str(f::dsa_decode_backend).map(str::to_string);
    let glm_sm12_fp8 = arch == "GlmMoeDsaForCausalLM" && major == 12 && kv == "fp8_e4m3" && !hip;
    let defaults = dsa_default_backends(ctx, glm_sm12_fp8, &kv, Some("triton"));
    let (prefill, decode) = fill_dsa_backends(ctx, given_prefill, given_decode, defaults);
    if glm_sm12_fp8 {
        return Ok(());
    }
    if ctx.cfg.truthy(f::enable_hisparse) && !hip && kv == "fp8_e4m3" && (prefill == "tilelang" || decode == "tilelang") {
        let fixes = dsa_backend_removals(ctx, "tilelang");
        ctx.raise(&DSA_HISPARSE_TILELANG_FP8, &[], &[f::dsa_prefill_backend, f::dsa_decode_backend], fixes)?;
    }
    check_dsa_backend_constraints(ctx, &kv, &prefill, &decode, hip)
}

/// `_dsa_split_backend_resolution`'s defaults (prefill, decode): GLM-5 on SM12 with an FP8 KV
/// cache, HiSparse's (`hisparse_hook._hisparse_default_backend`), the release's ROCm default
/// (`rocm`: None where none applies), else the KV cache dtype's.
pub fn dsa_default_backends(ctx: &Ctx, glm_sm12_fp8: bool, kv: &str, rocm: Option<&'static str>) -> (&'static str, &'static str) {
    let hip = ctx.hw.is_hip();
    let major = ctx.hw.capability.0;
    if glm_sm12_fp8 {
        ("flashinfer_sparse_mla", "flashinfer_sparse_mla")
    } else if ctx.cfg.truthy(f::enable_hisparse) {
        let backend = if hip {
            "tilelang"
        } else if kv == "fp8_e4m3" {
            "flashmla_kv"
        } else {
            "flashmla_sparse"
        };
        (backend, backend)
    } else if let Some(backend) = rocm.filter(|_| hip) {
        (backend, backend)
    } else if kv == "fp8_e4m3" {
        let backend = if major >= 10 { "trtllm" } else { "flashmla_kv" };
        (backend, backend)
    } else {
        ("flashmla_sparse", if major >= 10 { "trtllm" } else { "fa3" })
    }
}

/// Each DSA backend the command leaves unset gets its default; the backends that run.
pub fn fill_dsa_backends(ctx: &mut Ctx, given_prefill: Option<String>, given_decode: Option<String>, (prefill_default, decode_default): (&str, &str)) -> (String, String) {
    let prefill = given_prefill.unwrap_or_else(|| {
        ctx.cfg.set(f::dsa_prefill_backend, PyValue::Str(prefill_default.to_string()));
        prefill_default.to_string()
    });
    let decode = given_decode.unwrap_or_else(|| {
        ctx.cfg.set(f::dsa_decode_backend, PyValue::Str(decode_default.to_string()));
        decode_default.to_string()
    });
    (prefill, decode)
}

/// Fixes: remove each DSA backend flag the command sets to `backend`.
fn dsa_backend_removals(ctx: &Ctx, backend: &str) -> Vec<crate::diagnostic::Fix> {
    let mut fixes = Vec::new();
    for field in [f::dsa_prefill_backend, f::dsa_decode_backend] {
        if ctx.cfg.setting_place(field).is_some() && ctx.cfg.is(field, backend) {
            fixes.push(ctx.fix_remove(format!("Remove {} {backend} (SGLang picks one)", ctx.flag(field)), field, Applicability::Unsafe));
        }
    }
    fixes
}

/// `_check_dsa_backend_constraints`: the ROCm-only triton backend, then CUDA TileLang with an FP8
/// KV cache (both phases, no DCP, SM89 or newer).
fn check_dsa_backend_constraints(ctx: &mut Ctx, kv: &str, prefill: &str, decode: &str, hip: bool) -> Step {
    let chosen = [prefill, decode];
    if !hip && chosen.contains(&"triton") {
        let fixes = dsa_backend_removals(ctx, "triton");
        ctx.raise(&DSA_TRITON_ROCM_ONLY, &[("'/'.join(sorted(rocm_only))", &"triton")], &[f::dsa_prefill_backend, f::dsa_decode_backend], fixes)?;
    }
    if hip || kv != "fp8_e4m3" || !chosen.contains(&"tilelang") {
        return Ok(());
    }
    if prefill != "tilelang" || decode != "tilelang" {
        let mut fixes = Vec::new();
        for field in [f::dsa_prefill_backend, f::dsa_decode_backend] {
            if !ctx.cfg.is(field, "tilelang") {
                fixes.push(ctx.fix_set(format!("Use tilelang for {} too", ctx.flag(field)), field, "tilelang", Applicability::Unsafe));
            }
        }
        ctx.raise(&DSA_TILELANG_FP8_BOTH, &[], &[f::dsa_prefill_backend, f::dsa_decode_backend], fixes)?;
    }
    // `getattr(view, "dcp_size", 1) or 1`
    if ctx.cfg.int(f::dcp_size).filter(|&n| n != 0).unwrap_or(1) > 1 {
        let fixes = vec![ctx.fix_remove("Remove --dcp-size", f::dcp_size, Applicability::Unsafe)];
        ctx.raise(&DSA_TILELANG_FP8_DCP, &[], &[f::dcp_size], fixes)?;
    }
    if ctx.hw.capability < (8, 9) {
        let fixes = vec![ctx.fix_remove("Remove --kv-cache-dtype (bfloat16 on this GPU)", f::kv_cache_dtype, Applicability::Unsafe)];
        ctx.raise(&DSA_TILELANG_FP8_SM89, &[], &[f::kv_cache_dtype, f::dsa_prefill_backend, f::dsa_decode_backend], fixes)?;
    }
    Ok(())
}

/// What SGLang 0.5.18's model override providers (`overrides.py`: the `@_register_for`
/// functions and the `_step3p_overrides` predicate, collected by
/// `ServerArgs._handle_model_specific_adjustments` on the pristine `server_args`) declare for
/// `attention_backend` on the architecture `arch`: `Some(Some(b))` when they declare `b`,
/// `Some(None)` when they declare none, None where that is not known here (an architecture
/// whose providers are not replayed by this function, a fact they read that is not known, a
/// CPU device, where `_gpt_oss_overrides` asks for AMX support).
///
/// 0.5.18's `_attention_backend_default` reads these declarations through the stash: the
/// default backend `_get_default_attn_backend` picks is what an unset backend resolves to only
/// where they declare none.
pub fn provider_attention_backend_0_5_18(ctx: &Ctx, arch: &str) -> Option<Option<&'static str>> {
    use crate::rules::shared::runtime_context::{is_blackwell, is_sm100, is_sm90};
    let hw = ctx.hw;
    // (decided before any value is read: a read of an unknown value leaves the hook's writes unknown)
    let provider = replayed_provider_0_5_18(ctx, arch)?;
    if hw.platform == crate::hardware::Platform::Cpu {
        return None;
    }
    let unset = ctx.cfg.is_none(f::attention_backend);
    if crate::rules::shared::model_override_base::ATTENTION_BACKEND_FIELDS.iter().any(|&field| ctx.cfg.is_unknown(field)) {
        return None;
    }
    // `is_attention_backend_not_set()`: the base and both split backends None
    let not_set = crate::rules::shared::model_override_base::is_attention_backend_not_set(ctx);
    let sm100 = is_sm100(hw);
    match provider {
        // `_step3p_overrides`: fa4 on Blackwell, fa3 on Hopper
        Provider0518::Step3p => {
            if !not_set {
                return Some(None);
            }
            Some(if is_blackwell(hw) {
                Some("fa4")
            } else if is_sm90(hw) {
                Some("fa3")
            } else {
                None
            })
        }
        // `_gpt_oss_overrides` (XPU, MPS: no hardware profile here is one)
        Provider0518::GptOss => {
            if !not_set {
                return Some(None);
            }
            Some(Some(gpt_oss_attention_backend(hw)))
        }
        // `_qwen3_5_hybrid_overrides`: on SM100 the backend (triton or trtllm_mha) follows the
        // model's default backend and its Mamba extra buffer: not replayed
        Provider0518::Qwen35Hybrid => {
            if !sm100 || !unset {
                Some(None)
            } else {
                None
            }
        }
        // `_minicpm_v4_6_overrides`, `_falcon_h1_jet_overrides`
        Provider0518::TritonOnSm100 => Some((sm100 && unset).then_some("triton")),
        // `_granite_moe_hybrid_overrides`: flashinfer when the config has Mamba layers
        // (`layer_types`, not among the facts)
        Provider0518::GraniteMoeHybrid => {
            if sm100 && unset {
                None
            } else {
                Some(None)
            }
        }
        // `_lfm2_overrides`
        Provider0518::Lfm2 => Some((sm100 && unset).then_some("flashinfer")),
        // `_olmo2_overrides`
        Provider0518::Olmo2 => {
            if !unset {
                return Some(None);
            }
            Some(Some(if hw.is_cuda() && sm100 {
                "trtllm_mha"
            } else if hw.is_cuda() && hw.sm() >= 80 {
                "fa3"
            } else {
                "triton"
            }))
        }
        // `_inkling_overrides`
        Provider0518::Inkling => {
            if !not_set {
                return Some(None);
            }
            Some(Some(if sm100 { "fa4" } else { "triton" }))
        }
        // `_deepseek_family_overrides`: DSA fills `dsa`; the others take trtllm_mla on SM100
        Provider0518::DeepseekFamily => {
            let is_dsa = ctx.model.as_ref().and_then(|m| m.derived.is_dsa)?;
            Some(if is_dsa {
                not_set.then_some("dsa")
            } else {
                (sm100 && not_set).then_some("trtllm_mla")
            })
        }
    }
}

/// The attention backend `_gpt_oss_overrides` gives GPT-OSS when none is given, on a GPU (no
/// hardware profile here is an XPU or a Mac).
pub fn gpt_oss_attention_backend(hw: &crate::hardware::Hardware) -> &'static str {
    use crate::rules::shared::runtime_context::{is_sm100, is_sm90};
    if is_sm100(hw) {
        "trtllm_mha"
    } else if is_sm90(hw) {
        "fa3"
    } else if hw.is_hip() {
        "aiter"
    } else {
        "triton"
    }
}

/// The 0.5.18 providers [`provider_attention_backend_0_5_18`] replays.
enum Provider0518 {
    Step3p,
    GptOss,
    Qwen35Hybrid,
    TritonOnSm100,
    GraniteMoeHybrid,
    Lfm2,
    Olmo2,
    Inkling,
    DeepseekFamily,
}

/// Which replayed provider declares the attention backend for `arch`: the predicate-keyed
/// `_step3p_overrides` by the release's substrings, the others by the architectures they are
/// registered for; None for any other architecture (not known here).
fn replayed_provider_0_5_18(ctx: &Ctx, arch: &str) -> Option<Provider0518> {
    let lists = ctx.release.model_lists()?;
    if lists.model_override_attention_substrings.iter().any(|s| arch.contains(s.as_str())) {
        return Some(Provider0518::Step3p);
    }
    if lists.deepseek_family_override_architectures.iter().any(|a| a == arch) {
        return Some(Provider0518::DeepseekFamily);
    }
    Some(match arch {
        "GptOssForCausalLM" => Provider0518::GptOss,
        "Qwen3NextForCausalLM"
        | "Qwen3_5MoeForConditionalGeneration"
        | "Qwen3_5ForConditionalGeneration"
        | "InternS2PreviewForConditionalGeneration"
        | "InternS2MobiusForConditionalGeneration" => Provider0518::Qwen35Hybrid,
        "MiniCPMV4_6ForConditionalGeneration" | "FalconH1ForCausalLM" | "JetNemotronForCausalLM" | "JetVLMForConditionalGeneration" => Provider0518::TritonOnSm100,
        "GraniteMoeHybridForCausalLM" => Provider0518::GraniteMoeHybrid,
        "Lfm2ForCausalLM" | "Lfm2MoeForCausalLM" => Provider0518::Lfm2,
        "Olmo2ForCausalLM" => Provider0518::Olmo2,
        "InklingForConditionalGeneration" | "InklingForConditionalGenerationMTP" => Provider0518::Inkling,
        _ => return None,
    })
}

// ---- token budgets (read by the MoE all-to-all budget checks) ---------------------------------

/// `max_prefill_buffer_tokens`: the prefill-buffer ceiling, `chunked_prefill_size` (0 when
/// chunking is off), except that PP dynamic chunking can grow chunks toward
/// `max_prefill_tokens` and probes at 1.25x. (A registered ceiling provider,
/// `register_prefill_buffer_ceiling`, comes from a plugin: none here.)
pub fn max_prefill_buffer_tokens(ctx: &Ctx) -> i64 {
    let chunked = ctx.cfg.int(f::chunked_prefill_size).filter(|&c| c > 0).unwrap_or(0);
    let mut tokens = chunked;
    if ctx.cfg.truthy(f::enable_dynamic_chunking) && ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 && chunked != 0 {
        // math.ceil(chunked * 1.25), exactly: (5 * chunked) / 4 rounded up
        let probe = i64::try_from((i128::from(chunked) * 5 + 3) / 4).unwrap_or(i64::MAX);
        tokens = tokens.max(ctx.cfg.int(f::max_prefill_tokens).unwrap_or(0)).max(probe);
    }
    tokens
}

/// `flashinfer_a2a_max_dispatch_tokens_per_rank(max_prefill_buffer_tokens(...))`: the per-rank
/// token capacity of the FlashInfer A2A workspace, `SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK`
/// when set (an unparsable value reads as unset, as `EnvInt` warns and falls back), else the
/// prefill-buffer ceiling and at least 4096. (The ceiling is only read when it is used.)
pub fn flashinfer_a2a_max_dispatch_tokens_per_rank(ctx: &Ctx) -> i64 {
    match super::envs::env_int(ctx, "SGLANG_FLASHINFER_NUM_MAX_DISPATCH_TOKENS_PER_RANK", None) {
        Some(configured) => configured,
        None => max_prefill_buffer_tokens(ctx).max(4096),
    }
}

/// The largest `candidate_steps` entry of `adaptive_spec_params.DEFAULT_ADAPTIVE_CONFIG` (the
/// config `--speculative-adaptive` uses without `--speculative-adaptive-config`).
const DEFAULT_ADAPTIVE_MAX_CANDIDATE_STEP: i64 = 7;

/// What `max_speculative_num_draft_tokens` answers, as far as it is known here.
pub enum MaxDraftTokens {
    /// The algorithm's answer (None: `speculative_num_draft_tokens` is unset).
    Known(Option<i64>),
    /// The adaptive candidate steps come from `--speculative-adaptive-config`'s file.
    FromFile,
    /// The adaptive width is below `speculative_num_draft_tokens`: SGLang raises its own error
    /// there (`overrides.max_speculative_num_draft_tokens`, not reproduced).
    BelowConfigured,
}

/// `max_speculative_num_draft_tokens`: every built-in algorithm answers
/// `speculative_num_draft_tokens`, or for `--speculative-adaptive` the largest candidate step
/// plus one (topk 1), which may not be below `speculative_num_draft_tokens`.
pub fn max_speculative_num_draft_tokens(ctx: &Ctx) -> MaxDraftTokens {
    let Some(configured) = ctx.cfg.int(f::speculative_num_draft_tokens) else { return MaxDraftTokens::Known(None) };
    if !ctx.cfg.truthy(f::speculative_adaptive) {
        return MaxDraftTokens::Known(Some(configured));
    }
    if !ctx.cfg.is_none(f::speculative_adaptive_config) {
        return MaxDraftTokens::FromFile;
    }
    let result = DEFAULT_ADAPTIVE_MAX_CANDIDATE_STEP + 1;
    if result < configured {
        return MaxDraftTokens::BelowConfigured;
    }
    MaxDraftTokens::Known(Some(result))
}
