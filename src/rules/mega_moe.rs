//! Rules from SGLang's `sglang/srt/arg_groups/mega_moe_hook.py`: `--moe-runner-backend megamoe`
//! as an alias of `--moe-a2a-backend megamoe`, the MegaMoE compatibility checks
//! (`handle_mega_moe`, early in resolution), and its per-rank token budget
//! (`validate_mega_moe_token_budget_for_model`, late), which depends on the model's architecture
//! and checkpoint quantization and is listed as not run.

use super::shared::envs::env_bool;
use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::Applicability;
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::{raises, site, warns, Step};

pub static MEGAMOE_ALIAS_OVERRIDES_A2A: Rule = Rule {
    code: "MOE050",
    name: kebab!("megamoe-runner-alias-overrides-a2a"),
    sglang: warns("mega_moe_hook.handle_moe_runner_backend_alias", "--moe-runner-backend megamoe is an alias for"),
    explanation: expl!("--moe-runner-backend megamoe means --moe-a2a-backend megamoe (with the runner left at auto), so it replaces the all-to-all backend given with --moe-a2a-backend."),
    flags: &["--moe-runner-backend", "--moe-a2a-backend"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --moe-runner-backend megamoe --moe-a2a-backend deepep"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --moe-a2a-backend megamoe"),
};

pub static MEGAMOE_NO_OVERLAP: Rule = Rule {
    code: "MOE051",
    name: kebab!("megamoe-no-batch-overlap"),
    sglang: raises("mega_moe_hook.check_mega_moe_compat", "--moe-a2a-backend megamoe has no two-batch"),
    explanation: expl!("MegaMoE fuses dispatch, experts and combine into one kernel, so there is no split for two-batch or single-batch overlap to interleave; turn those off with it."),
    flags: &["--moe-a2a-backend", "--moe-runner-backend", "--enable-two-batch-overlap", "--enable-single-batch-overlap"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --moe-a2a-backend megamoe --enable-two-batch-overlap"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --moe-a2a-backend megamoe"),
};

pub static MEGAMOE_NEEDS_GPU: Rule = Rule {
    code: "MOE052",
    name: kebab!("megamoe-needs-sm90-or-sm100"),
    sglang: raises("mega_moe_hook.check_mega_moe_compat", "--moe-a2a-backend megamoe needs a CUDA SM90 GPU"),
    explanation: expl!("MegaMoE runs DeepGEMM kernels over CUDA symmetric memory: Hopper (H100/H200) or datacenter Blackwell (B200/GB200) on CUDA, or aiter's MegaMoE on ROCm. Other GPUs need another all-to-all backend."),
    flags: &["--moe-a2a-backend", "--moe-runner-backend"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --moe-a2a-backend megamoe"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B"),
};

pub static RULES: &[&Rule] = &[&MEGAMOE_ALIAS_OVERRIDES_A2A, &MEGAMOE_NO_OVERLAP, &MEGAMOE_NEEDS_GPU];

/// `handle_mega_moe`: `handle_moe_runner_backend_alias`, then `check_mega_moe_compat`.
pub fn handle_mega_moe(ctx: &mut Ctx) -> Step {
    if ctx.cfg.is(f::moe_runner_backend, "megamoe") {
        let a2a = ctx.cfg.str(f::moe_a2a_backend).unwrap_or("none").to_string();
        if a2a != "none" && a2a != "megamoe" {
            let fixes = vec![ctx.fix_remove("Drop --moe-a2a-backend (megamoe replaces it)", f::moe_a2a_backend, Applicability::Safe)];
            ctx.warn(&MEGAMOE_ALIAS_OVERRIDES_A2A, &[("cfg.moe_a2a_backend", &a2a)], &[f::moe_a2a_backend, f::moe_runner_backend], fixes);
        }
        ctx.cfg.set(f::moe_runner_backend, PyValue::Str("auto".into()));
        ctx.cfg.set(f::moe_a2a_backend, PyValue::Str("megamoe".into()));
    }
    if !ctx.cfg.is(f::moe_a2a_backend, "megamoe") {
        return Ok(());
    }
    if ctx.cfg.truthy(f::enable_two_batch_overlap) || ctx.cfg.truthy(f::enable_single_batch_overlap) {
        let mut fixes = Vec::new();
        for (field, name) in [(f::enable_two_batch_overlap, "--enable-two-batch-overlap"), (f::enable_single_batch_overlap, "--enable-single-batch-overlap")] {
            if ctx.cfg.truthy(field) {
                fixes.push(ctx.fix_remove(format!("Drop {name}"), field, Applicability::Safe));
            }
        }
        // one fix dropping both when both are given
        if fixes.len() == 2 {
            let edits = fixes.iter().flat_map(|x| x.edits.clone()).collect();
            fixes.insert(0, crate::diagnostic::Fix { title: "Drop the batch-overlap flags".into(), applicability: Applicability::Safe, edits });
            fixes.truncate(1);
        }
        ctx.raise(&MEGAMOE_NO_OVERLAP, &[], &[f::enable_two_batch_overlap, f::enable_single_batch_overlap, f::moe_a2a_backend], fixes)?;
    }
    let cap = ctx.hw.capability.0;
    if !((ctx.hw.is_cuda() && (cap == 9 || cap == 10)) || ctx.hw.is_hip()) {
        let field = if ctx.cfg.setting_place(f::moe_a2a_backend).is_some() { f::moe_a2a_backend } else { f::moe_runner_backend };
        let fixes = vec![ctx.fix_remove("Drop MegaMoE (no all-to-all backend)", field, Applicability::Unsafe)];
        ctx.raise(&MEGAMOE_NEEDS_GPU, &[], &[f::moe_a2a_backend, f::moe_runner_backend], fixes)?;
    }
    Ok(())
}

/// `validate_mega_moe_token_budget_for_model`: whether the budget applies depends on the model's
/// architecture and checkpoint quantization (`mega_moe_needs_token_budget`), so its checks are
/// not run; the ROCm FlyDSL capacity checks before it (SGLANG_AMD_USE_FLYDSL_MEGA_MOE=1) are not
/// modelled yet.
pub fn validate_mega_moe_token_budget_for_model(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.is(f::moe_a2a_backend, "megamoe") || ctx.cfg.truthy(f::encoder_only) {
        return Ok(());
    }
    if ctx.hw.is_hip() && env_bool(ctx, "SGLANG_AMD_USE_FLYDSL_MEGA_MOE") {
        ctx.skip(site("mega_moe_hook.validate_flydsl_decode_capacity", "SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR is not supported with"), NotRunReason::NotImplemented);
        ctx.skip(site("mega_moe_hook.validate_flydsl_decode_capacity", "SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR needs"), NotRunReason::NotImplemented);
        ctx.skip(site("mega_moe_hook.validate_flydsl_decode_capacity", "SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR={decode_mtpr}"), NotRunReason::NotImplemented);
    }
    if ctx.cfg.str(f::model_path).is_some_and(|p| p.starts_with("instance://")) {
        return Ok(());
    }
    if ctx.hw.is_hip() {
        // validate_mega_moe_token_budget returns at once on ROCm
        return Ok(());
    }
    ctx.model_config(site("mega_moe_hook.validate_mega_moe_token_budget", "{model_label} with MegaMoE requires SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK to cover the"));
    if !ctx.cfg.is(f::disaggregation_mode, "decode") {
        ctx.model_config(site("mega_moe_hook.validate_mega_moe_token_budget", "{model_label} with MegaMoE requires chunked prefill"));
        ctx.model_config(site("mega_moe_hook.validate_mega_moe_token_budget", "{model_label} with MegaMoE requires a positive effective"));
        ctx.model_config(site("mega_moe_hook.validate_mega_moe_token_budget", "{model_label} with MegaMoE requires SGLANG_OPT_DEEPGEMM_MEGA_MOE_NUM_MAX_TOKENS_PER_RANK to cover ea"));
    }
    Ok(())
}
