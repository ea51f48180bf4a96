//! `model_overrides/deepseek_v2.py`: `_deepseek_family_overrides` and `_dsa_dcp_overrides`, the
//! DeepSeek family's provider (DeepSeek V3 / V3.2, Kimi K2.5, Mistral Large 3, GLM-5, HYV4,
//! Longcat Flash, Dots3). Its checks run before what it declares is applied
//! ([`validate_deepseek_family_overrides`], called where the provider is); its declarations
//! are [`deepseek_family_overrides`].

use super::Declarations;
use crate::diagnostic::Applicability;
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::shared::runtime_context::is_sm100;
use crate::rules::{raises, site, Ctx, NotRunReason, Rule, Step};

pub static DSA_DCP_HISPARSE_HICACHE: Rule = Rule {
    code: "MH101",
    name: kebab!("dsa-dcp-with-hisparse-or-hicache"),
    sglang: raises("model_overrides.deepseek_v2._dsa_dcp_overrides", "DSA DCP does not support HiSparse or HiCache."),
    explanation: expl!("Decode context parallelism (--dcp-size above 1) splits a DSA model's KV cache across ranks by token; HiSparse's and the hierarchical cache's host copies do not follow that split, so SGLang refuses either with DCP."),
    flags: &["--dcp-size", "--enable-hisparse", "--enable-hierarchical-cache"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --dcp-size 2"),
};

pub static DSA_DCP_PD: Rule = Rule {
    code: "MH102",
    name: kebab!("dsa-dcp-with-pd-disaggregation"),
    sglang: raises("model_overrides.deepseek_v2._dsa_dcp_overrides", "DSA DCP does not support PD disaggregation."),
    explanation: expl!("A DSA model's decode context parallelism has no KV transfer layout for PD disaggregation yet: --dcp-size above 1 is refused on a prefill or decode worker."),
    flags: &["--dcp-size", "--disaggregation-mode"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --dcp-size 2 --disaggregation-mode decode"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --disaggregation-mode decode"),
};

pub static DSA_DCP_EAGLE_TOPK: Rule = Rule {
    code: "MH103",
    name: kebab!("dsa-dcp-eagle-topk-1"),
    sglang: raises("model_overrides.deepseek_v2._dsa_dcp_overrides", "DSA DCP requires --speculative-eagle-topk 1."),
    explanation: expl!("With decode context parallelism a DSA model verifies one draft chain only: --speculative-eagle-topk must be 1 (or unset)."),
    flags: &["--dcp-size", "--speculative-eagle-topk"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --dcp-size 2 --speculative-algorithm EAGLE --speculative-eagle-topk 2"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --dcp-size 2 --speculative-algorithm EAGLE --speculative-eagle-topk 1"),
};

pub static DSA_CP_SINGLE_MACHINE: Rule = Rule {
    code: "MH104",
    name: kebab!("dsa-prefill-cp-single-machine"),
    sglang: raises("model_overrides.deepseek_v2._deepseek_family_overrides", "Context parallel only supports single machine (tp_size <= 8)"),
    explanation: expl!("DSA prefill context parallelism (--enable-prefill-cp) has precision issues across machines; SGLang accepts it with a TP size of 8 at most."),
    flags: &["--tp-size", "--enable-prefill-cp"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 16 --nnodes 2 --enable-prefill-cp --cp-strategy interleave"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --enable-prefill-cp --cp-strategy interleave"),
};

pub static DSA_INTERLEAVE_CP_DP: Rule = Rule {
    code: "MH108",
    name: kebab!("dsa-interleave-prefill-cp-with-dp"),
    sglang: raises("model_overrides.deepseek_v2._deepseek_family_overrides", "interleave DSA CP does not support DP attention."),
    explanation: expl!("SGLang 0.5.18's DSA prefill context parallelism with the interleave strategy spans the whole TP group (attn_cp_size = tp_size / dp_size with one attention DP rank): a --dp-size above 1 is refused. Leave --dp-size out (or use the zigzag strategy, which runs with DeepEP)."),
    flags: &["--dp-size", "--enable-prefill-cp"],
    // (examples are checked on 0.5.23, whose provider derives the attention DP size instead)
    example_bad: ex!(""),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --enable-prefill-cp --cp-strategy interleave"),
};

pub static RULES: &[&Rule] = &[&DSA_DCP_HISPARSE_HICACHE, &DSA_DCP_PD, &DSA_DCP_EAGLE_TOPK, &DSA_CP_SINGLE_MACHINE, &DSA_INTERLEAVE_CP_DP];

/// Whether the release registers `_deepseek_family_overrides` for `arch` (its
/// `model-lists.json`, read from its source).
pub fn registered_for(release: &crate::release::Release, arch: &str) -> bool {
    release.model_lists().is_some_and(|l| l.deepseek_family_override_architectures.iter().any(|a| a == arch))
}

fn is_hyv4(arch: &str) -> bool {
    matches!(arch, "HYV4ForCausalLM" | "HYV4ForCausalLMNextN")
}

fn int(ctx: &Ctx, field: crate::fields::Field, default: i64) -> i64 {
    ctx.cfg.int(field).unwrap_or(default)
}

/// `get_dsa_index_kpool(hf_config)` (1 when the config does not write it); None without the
/// config's raw facts.
fn index_kpool(ctx: &Ctx) -> Option<i64> {
    let model = ctx.model?;
    if model.from == crate::models::FactsFrom::InferredFamily {
        return None;
    }
    Some(model.raw?.index_kpool.unwrap_or(1))
}

/// The checks of `_deepseek_family_overrides` (and `_dsa_dcp_overrides`), in its order, on the
/// values before it declares anything.
pub fn validate_deepseek_family_overrides(ctx: &mut Ctx, arch: &str) -> Step {
    if is_hyv4(arch) {
        // No HYV4 config is served to record against: its two checks are not replayed.
        if ctx.cfg.truthy(f::enable_prefill_cp) {
            ctx.skip(site("model_overrides.deepseek_v2._deepseek_family_overrides", "--enable-prefill-cp is not supported for HYV4"), NotRunReason::NotImplemented);
            return Ok(());
        }
        if int(ctx, f::dcp_size, 1) > 1 {
            ctx.skip(site("model_overrides.deepseek_v2._deepseek_family_overrides", "--dcp-size > 1 is not supported for HYV4"), NotRunReason::NotImplemented);
            return Ok(());
        }
    }
    let needs = site("model_overrides.deepseek_v2._dsa_dcp_overrides", "DSA DCP does not support HiSparse or HiCache.");
    let wants_dcp = int(ctx, f::dcp_size, 1) > 1;
    if !wants_dcp && !ctx.cfg.truthy(f::enable_prefill_cp) {
        return Ok(());
    }
    let Some(is_dsa) = ctx.model_fact(needs, |m| m.derived.is_dsa) else { return Ok(()) };
    if !is_dsa {
        // MLA prefill CP reads the attention-DP width first (0.5.18 reads --dp-size as is).
        let mla = ctx.model.and_then(|m| m.derived.is_mla) == Some(true);
        if mla && ctx.cfg.truthy(f::enable_prefill_cp) && !DSA_INTERLEAVE_CP_DP.applies_to(ctx.release) {
            crate::rules::shared::model_override_base::context_parallel_attn_dp_size(ctx)?;
        }
        return Ok(());
    }
    // (a release without `_dsa_dcp_overrides`, 0.5.18, goes on to the prefill CP checks)
    if wants_dcp && DSA_DCP_HISPARSE_HICACHE.applies_to(ctx.release) {
        let remove_dcp = |ctx: &Ctx| ctx.fix_remove("Remove --dcp-size (no decode context parallelism)", f::dcp_size, Applicability::Unsafe);
        if ctx.cfg.truthy(f::enable_hisparse) || ctx.cfg.truthy(f::enable_hierarchical_cache) {
            let mut fixes = vec![remove_dcp(ctx)];
            for field in [f::enable_hisparse, f::enable_hierarchical_cache] {
                if ctx.cfg.setting_place(field).is_some() {
                    fixes.push(ctx.fix_remove(format!("Remove {}", ctx.flag(field)), field, Applicability::Unsafe));
                }
            }
            ctx.raise(&DSA_DCP_HISPARSE_HICACHE, &[], &[f::dcp_size, f::enable_hisparse, f::enable_hierarchical_cache], fixes)?;
        }
        if !ctx.cfg.is(f::disaggregation_mode, "null") {
            let fixes = vec![remove_dcp(ctx)];
            ctx.raise(&DSA_DCP_PD, &[], &[f::dcp_size, f::disaggregation_mode], fixes)?;
        }
        if !matches!(ctx.cfg.get(f::speculative_eagle_topk), PyValue::None | PyValue::Int(1)) {
            let fixes = vec![ctx.fix_set("Draft one chain (--speculative-eagle-topk 1)", f::speculative_eagle_topk, "1", Applicability::Unsafe)];
            ctx.raise(&DSA_DCP_EAGLE_TOPK, &[], &[f::speculative_eagle_topk, f::dcp_size], fixes)?;
        }
    }
    // (No hardware profile here is an NPU or XPU.)
    if ctx.cfg.truthy(f::enable_prefill_cp) && DSA_INTERLEAVE_CP_DP.applies_to(ctx.release) {
        // SGLang 0.5.18: zigzag runs with DeepEP, interleave needs one DP rank; both on one node.
        if !ctx.cfg.is(f::cp_strategy, "zigzag") && int(ctx, f::dp_size, 1) != 1 {
            let fixes = vec![ctx.fix_remove(format!("Remove {}", ctx.flag(f::dp_size)), f::dp_size, Applicability::Unsafe)];
            ctx.raise(&DSA_INTERLEAVE_CP_DP, &[], &[f::dp_size, f::enable_prefill_cp], fixes)?;
        }
        if int(ctx, f::tp_size, 1) > 8 {
            let fixes = vec![ctx.fix_remove("Remove --enable-prefill-cp", f::enable_prefill_cp, Applicability::Unsafe)];
            ctx.raise(&DSA_CP_SINGLE_MACHINE, &[], &[f::tp_size, f::enable_prefill_cp], fixes)?;
        }
    } else if ctx.cfg.truthy(f::enable_prefill_cp) {
        crate::rules::shared::model_override_base::context_parallel_attn_dp_size(ctx)?;
        if int(ctx, f::tp_size, 1) > 8 {
            let fixes = vec![ctx.fix_remove("Remove --enable-prefill-cp", f::enable_prefill_cp, Applicability::Unsafe)];
            ctx.raise(&DSA_CP_SINGLE_MACHINE, &[], &[f::tp_size, f::enable_prefill_cp], fixes)?;
        }
    }
    if wants_dcp {
        // On ROCm the page-size branch taken depends on the aiter build (not known here).
        let kpool = index_kpool(ctx);
        if ctx.hw.is_hip() || !kpool.is_some_and(|k| k <= 1) {
            ctx.skip(site("model_overrides.deepseek_v2._deepseek_family_overrides", "--dcp-size > 1 is not supported for DSA with index_kpool"), NotRunReason::NotImplemented);
        }
    }
    Ok(())
}

/// What `_deepseek_family_overrides` declares. None where it reads what is not known here: the
/// DSA flag of an unknown config, HYV4's MXFP8 defaults (they depend on the DeepGEMM build), a
/// DSA page size on ROCm (the aiter build decides), an index_kpool above 1, MLA prefill CP of a
/// model whose attention is not known, a CPU device.
pub fn deepseek_family_overrides(ctx: &Ctx) -> Option<Declarations> {
    let model = ctx.model?;
    let arch = model.architecture?;
    if is_hyv4(arch) || !(ctx.hw.is_cuda() || ctx.hw.is_hip()) {
        return None;
    }
    let is_dsa = model.derived.is_dsa?;
    let unset = crate::rules::shared::model_override_base::is_attention_backend_not_set(ctx);
    let mut out = Declarations::new();
    if !is_dsa {
        if is_sm100(ctx.hw) && unset {
            out.push((f::attention_backend, PyValue::Str("trtllm_mla".to_string())));
        }
        // MLA prefill CP (`use_mla_backend`: the model's attention is MLA): the whole TP group
        // over the attention-DP width is the CP group, with DeepEP and dense MLP TP 1.
        if ctx.cfg.truthy(f::enable_prefill_cp) && model.derived.is_mla? {
            let tp = int(ctx, f::tp_size, 1);
            let width = if DSA_INTERLEAVE_CP_DP.applies_to(ctx.release) {
                // 0.5.18: DP attention on, the CP group over --dp-size
                out.push((f::enable_dp_attention, PyValue::Bool(true)));
                int(ctx, f::dp_size, 1)
            } else {
                let attn_dp = int(ctx, f::attn_dp_size, 1) * int(ctx, f::dp_size, 1);
                out.push((f::attn_dp_size, PyValue::Int(attn_dp)));
                out.push((f::dp_size, PyValue::Int(1)));
                attn_dp
            };
            out.push((f::moe_dense_tp_size, PyValue::Int(1)));
            out.push((f::moe_a2a_backend, PyValue::Str("deepep".to_string())));
            out.push((f::ep_size, PyValue::Int(tp)));
            if width == 0 {
                return None;
            }
            out.push((f::attn_cp_size, PyValue::Int(tp.div_euclid(width))));
        }
        return Some(out);
    }
    if ctx.hw.is_hip() {
        return None;
    }
    let kpool = index_kpool(ctx).filter(|&k| k == 1)?;
    // `_dsa_dcp_overrides` (its checks passed); a release without it (0.5.18) leaves the DSA
    // backends to the split-backend pass and the replicated q_proj to its default
    if int(ctx, f::dcp_size, 1) > 1 && DSA_DCP_HISPARSE_HICACHE.applies_to(ctx.release) {
        for field in [f::dsa_prefill_backend, f::dsa_decode_backend] {
            if ctx.cfg.is_none(field) {
                out.push((field, PyValue::Str("trtllm".to_string())));
            }
        }
        if ctx.cfg.is_none(f::dcp_replicate_q_proj) && matches!(ctx.cfg.str(f::dcp_comm_backend), Some("a2a" | "fi_a2a")) {
            out.push((f::dcp_replicate_q_proj, PyValue::Bool(true)));
        }
    }
    if unset {
        out.push((f::attention_backend, PyValue::Str("dsa".to_string())));
    }
    if ctx.cfg.truthy(f::enable_prefill_cp) && DSA_INTERLEAVE_CP_DP.applies_to(ctx.release) {
        // 0.5.18's branch (the release that refuses interleave CP with DP): DP attention on,
        // dense MLP TP 1 for either strategy, the CP group the whole TP group over --dp-size
        let tp = int(ctx, f::tp_size, 1);
        let dp = int(ctx, f::dp_size, 1);
        out.push((f::enable_dp_attention, PyValue::Bool(true)));
        out.push((f::moe_dense_tp_size, PyValue::Int(1)));
        if ctx.cfg.is(f::cp_strategy, "zigzag") {
            out.push((f::moe_a2a_backend, PyValue::Str("deepep".to_string())));
            out.push((f::ep_size, PyValue::Int(tp)));
        }
        if dp == 0 {
            return None;
        }
        out.push((f::attn_cp_size, PyValue::Int(tp.div_euclid(dp))));
    } else if ctx.cfg.truthy(f::enable_prefill_cp) {
        let tp = int(ctx, f::tp_size, 1);
        let attn_dp = int(ctx, f::attn_dp_size, 1) * int(ctx, f::dp_size, 1);
        out.push((f::attn_dp_size, PyValue::Int(attn_dp)));
        out.push((f::dp_size, PyValue::Int(1)));
        let strategy = ctx.cfg.str(f::cp_strategy).map(str::to_string);
        if strategy.as_deref() == Some("zigzag") {
            out.push((f::moe_dense_tp_size, PyValue::Int(1)));
            out.push((f::moe_a2a_backend, PyValue::Str("deepep".to_string())));
            out.push((f::ep_size, PyValue::Int(tp)));
        }
        let attn_cp = int(ctx, f::attn_cp_size, 1);
        let cp = if strategy.as_deref() == Some("interleave") && attn_cp > 1 {
            attn_cp
        } else if attn_dp != 0 {
            tp.div_euclid(attn_dp)
        } else {
            return None;
        };
        out.push((f::attn_cp_size, PyValue::Int(cp)));
    }
    out.push((f::page_size, PyValue::Int(64 * kpool)));
    Some(out)
}
