//! Rules from SGLang's `sglang/srt/arg_groups/mega_moe_hook.py`: `--moe-runner-backend megamoe`
//! as an alias of `--moe-a2a-backend megamoe`, the MegaMoE compatibility checks
//! (`handle_mega_moe`, early in resolution), and its per-rank token budget
//! (`validate_mega_moe_token_budget_for_model`, late), which depends on the model's architecture
//! and checkpoint quantization and is listed as not run.

use super::shared::envs::{env_bool, env_int, python_int};
use super::shared::runtime_context::attn_dp_enabled;
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

pub static FLYDSL_DECODE_MTPR_ATTN_CP: Rule = Rule {
    code: "MOE090",
    name: kebab!("flydsl-decode-capacity-no-attn-cp"),
    sglang: raises("mega_moe_hook.validate_flydsl_decode_capacity", "SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR is not supported with"),
    explanation: expl!("On ROCm, SGLANG_AMD_USE_FLYDSL_MEGA_MOE=1 runs MegaMoE with aiter's FlyDSL kernels; a positive SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR below SGLANG_AMD_FLYDSL_MEGA_MOE_MTPR (default 8192) gives decode steps a smaller capacity of their own. That split does not support attention context parallelism: use --attn-cp-size 1 or leave the decode capacity at 0."),
    flags: &["--attn-cp-size", "--moe-a2a-backend", "--moe-runner-backend"],
    example_bad: ex!("SGLANG_AMD_USE_FLYDSL_MEGA_MOE=1 SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR=256 python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --tp-size 2 --attn-cp-size 2 --moe-a2a-backend megamoe --max-running-requests 64"),
    example_good: ex!("SGLANG_AMD_USE_FLYDSL_MEGA_MOE=1 python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --tp-size 2 --attn-cp-size 2 --moe-a2a-backend megamoe --max-running-requests 64"),
};

pub static FLYDSL_DECODE_MTPR_NEEDS_MAX_RUNNING: Rule = Rule {
    code: "MOE091",
    name: kebab!("flydsl-decode-capacity-needs-max-running-requests"),
    sglang: raises("mega_moe_hook.validate_flydsl_decode_capacity", "SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR needs"),
    explanation: expl!("A decode capacity for FlyDSL MegaMoE (SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR) must hold the largest decode or verify forward on one rank, which is bounded by the request cap. At this point of start-up the cap is only known when --max-running-requests is given (otherwise it is sized later from memory), so give it."),
    flags: &["--max-running-requests", "--moe-a2a-backend", "--moe-runner-backend"],
    example_bad: ex!("SGLANG_AMD_USE_FLYDSL_MEGA_MOE=1 SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR=256 python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --moe-a2a-backend megamoe"),
    example_good: ex!("SGLANG_AMD_USE_FLYDSL_MEGA_MOE=1 SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR=256 python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --moe-a2a-backend megamoe --max-running-requests 256"),
};

pub static FLYDSL_DECODE_MTPR_TOO_SMALL: Rule = Rule {
    code: "MOE092",
    name: kebab!("flydsl-decode-capacity-too-small"),
    sglang: raises("mega_moe_hook.validate_flydsl_decode_capacity", "SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR={decode_mtpr}"),
    explanation: expl!("FlyDSL MegaMoE's decode capacity (SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR) must hold one rank's largest decode or verify forward: the running requests of one attention-DP rank times the tokens each request runs in a step (with speculative decoding, the larger of the draft tokens and the top-k). Raise the capacity (a power of two) or lower --max-running-requests."),
    flags: &["--max-running-requests", "--speculative-num-draft-tokens", "--speculative-eagle-topk", "--moe-a2a-backend"],
    example_bad: ex!("SGLANG_AMD_USE_FLYDSL_MEGA_MOE=1 SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR=256 python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --moe-a2a-backend megamoe --max-running-requests 512"),
    example_good: ex!("SGLANG_AMD_USE_FLYDSL_MEGA_MOE=1 SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR=512 python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --moe-a2a-backend megamoe --max-running-requests 512"),
};

pub static RULES: &[&Rule] = &[
    &MEGAMOE_ALIAS_OVERRIDES_A2A,
    &MEGAMOE_NO_OVERLAP,
    &MEGAMOE_NEEDS_GPU,
    &FLYDSL_DECODE_MTPR_ATTN_CP,
    &FLYDSL_DECODE_MTPR_NEEDS_MAX_RUNNING,
    &FLYDSL_DECODE_MTPR_TOO_SMALL,
];

const DECODE_MTPR: &str = "SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR";
const FLYDSL_SITES: [&str; 3] = [
    "SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR is not supported with",
    "SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR needs",
    "SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR={decode_mtpr}",
];

/// `EnvInt(default).get()`, or None when the text is one Python's `int` may read and ours does
/// not (beyond 64 bits, non-ASCII digits or blanks).
fn env_int_known(ctx: &Ctx, name: &str, default: i64) -> Option<i64> {
    match ctx.env(name) {
        Some(v) if python_int(v).is_none() && (!v.is_ascii() || v.bytes().any(|b| b.is_ascii_digit())) => None,
        _ => env_int(ctx, name, Some(default)),
    }
}

/// `flydsl_decode_tokens_per_rank`: the rows of one rank's largest decode-step forward (running
/// requests per attention-DP rank x rows per request), None while the request cap is unset.
fn flydsl_decode_tokens_per_rank(ctx: &Ctx) -> Option<i128> {
    let mut requests = i128::from(ctx.cfg.int(f::max_running_requests)?);
    if attn_dp_enabled(ctx) {
        requests = requests.div_euclid(i128::from(ctx.cfg.int(f::attn_dp_size).unwrap_or(1).max(1)));
    }
    Some(requests * tokens_per_request(ctx))
}

/// Rows one request runs in a decode step: 1, or with speculative decoding
/// `max(num_draft_tokens or 1, eagle_topk or 1)`.
fn tokens_per_request(ctx: &Ctx) -> i128 {
    if !ctx.cfg.truthy(f::speculative_algorithm) {
        return 1;
    }
    let or_one = |v: Option<i64>| match v {
        None | Some(0) => 1,
        Some(n) => i128::from(n),
    };
    or_one(ctx.cfg.int(f::speculative_num_draft_tokens)).max(or_one(ctx.cfg.int(f::speculative_eagle_topk)))
}

/// `validate_flydsl_decode_capacity`: with FlyDSL MegaMoE on ROCm, a decode capacity
/// (SGLANG_AMD_FLYDSL_MEGA_MOE_DECODE_MTPR, between 0 and SGLANG_AMD_FLYDSL_MEGA_MOE_MTPR
/// exclusive) must hold one rank's largest decode / verify forward.
fn validate_flydsl_decode_capacity(ctx: &mut Ctx) -> Step {
    if !(ctx.hw.is_hip() && env_bool(ctx, "SGLANG_AMD_USE_FLYDSL_MEGA_MOE")) {
        return Ok(());
    }
    let (Some(decode_mtpr), Some(mtpr)) = (env_int_known(ctx, DECODE_MTPR, 0), env_int_known(ctx, "SGLANG_AMD_FLYDSL_MEGA_MOE_MTPR", 8192)) else {
        for message in FLYDSL_SITES {
            ctx.skip(site("mega_moe_hook.validate_flydsl_decode_capacity", message), NotRunReason::UnknownValue);
        }
        return Ok(());
    };
    if decode_mtpr <= 0 || decode_mtpr >= mtpr {
        // off, one merged capacity, or refused when the kernels build their capacities
        return Ok(());
    }
    if ctx.cfg.is(f::disaggregation_mode, "prefill") {
        return Ok(());
    }
    let unset = |ctx: &Ctx| ctx.fix_unset_env(format!("Unset {DECODE_MTPR} (one capacity for every step)"), DECODE_MTPR, Applicability::Unsafe);
    if ctx.cfg.int(f::attn_cp_size).unwrap_or(1) > 1 {
        let fixes = vec![unset(ctx), ctx.fix_remove("Drop --attn-cp-size", f::attn_cp_size, Applicability::Unsafe)];
        ctx.raise(&FLYDSL_DECODE_MTPR_ATTN_CP, &[], &[f::attn_cp_size], fixes)?;
    }
    // The largest request cap that fits: per rank, the capacity over the rows per request.
    let per_dp_rank = if attn_dp_enabled(ctx) { i128::from(ctx.cfg.int(f::attn_dp_size).unwrap_or(1).max(1)) } else { 1 };
    let fitting = i128::from(decode_mtpr) / tokens_per_request(ctx) * per_dp_rank;
    let Some(decode_tokens) = flydsl_decode_tokens_per_rank(ctx) else {
        let mut fixes = Vec::new();
        if fitting >= 1 {
            fixes.push(ctx.fix_set(format!("Cap the requests: --max-running-requests {fitting}"), f::max_running_requests, &fitting.to_string(), Applicability::Unsafe));
        }
        fixes.push(unset(ctx));
        return ctx.raise(&FLYDSL_DECODE_MTPR_NEEDS_MAX_RUNNING, &[], &[f::max_running_requests], fixes);
    };
    if decode_tokens > i128::from(decode_mtpr) {
        let mut fixes = Vec::new();
        if fitting >= 1 {
            fixes.push(ctx.fix_set(format!("Lower --max-running-requests to {fitting}"), f::max_running_requests, &fitting.to_string(), Applicability::Unsafe));
        }
        fixes.push(unset(ctx));
        ctx.raise(&FLYDSL_DECODE_MTPR_TOO_SMALL, &[("decode_mtpr", &decode_mtpr), ("decode_tokens", &decode_tokens)], &[f::max_running_requests, f::speculative_num_draft_tokens], fixes)?;
    }
    Ok(())
}

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

/// `validate_mega_moe_token_budget_for_model`: first `validate_flydsl_decode_capacity` (ROCm,
/// SGLANG_AMD_USE_FLYDSL_MEGA_MOE=1); then whether the budget applies depends on the model's
/// architecture and checkpoint quantization (`mega_moe_needs_token_budget`), so its checks are
/// not run.
pub fn validate_mega_moe_token_budget_for_model(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.is(f::moe_a2a_backend, "megamoe") || ctx.cfg.truthy(f::encoder_only) {
        return Ok(());
    }
    validate_flydsl_decode_capacity(ctx)?;
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
