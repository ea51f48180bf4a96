//! LoRA checks reached from this family's hooks:
//! - `lora_hook.check_lora_server_args` / `check_lora_moe_runner_args` /
//!   `check_lora_speculative_compatibility` (called from `check_server_args`, stage check);
//! - `lora/marlin_lora_temp/policy.validate_experimental_sgl_marlin_server_args` (called from
//!   `validate_experimental_sgl_marlin`, stage resolve).

use super::check::{Raised, Step};
use crate::diagnostic::{Applicability, Fix};
use crate::pyvalue::PyValue;
use crate::rules::{Ctx, NotRunReason, Rule};

rule!(MARLIN_EP_NEEDS_A2A_NONE, "VAL013", "experimental-sgl-marlin-ep-needs-a2a-none",
    "lora.marlin_lora_temp.policy.validate_experimental_sgl_marlin_server_args#1", "sglang/srt/lora/marlin_lora_temp/policy.py",
    "validate_experimental_sgl_marlin_server_args", "ValueError", Resolve,
    "experimental_sgl_marlin EP requires --moe-a2a-backend none",
    "The experimental Marlin MoE runner handles expert parallelism itself and cannot sit behind an all-to-all dispatch backend (which also forces ep_size to tp_size).",
    ["--moe-runner-backend", "--moe-a2a-backend", "--ep-size"],
    "--moe-runner-backend experimental_sgl_marlin --tp-size 2 --ep-size 2 --moe-a2a-backend deepep",
    "--moe-runner-backend experimental_sgl_marlin --tp-size 2 --ep-size 2");
rule!(MARLIN_LORA_NEEDS_VIRTUAL_EXPERTS, "VAL014", "experimental-sgl-marlin-lora-needs-virtual-experts",
    "lora.marlin_lora_temp.policy.validate_experimental_sgl_marlin_server_args#2", "sglang/srt/lora/marlin_lora_temp/policy.py",
    "validate_experimental_sgl_marlin_server_args", "ValueError", Resolve,
    "experimental_sgl_marlin LoRA requires --lora-use-virtual-experts",
    "With LoRA adapters the experimental Marlin MoE runner only supports the virtual-experts LoRA path.",
    ["--moe-runner-backend", "--lora-use-virtual-experts", "--lora-paths", "--enable-lora"],
    "--moe-runner-backend experimental_sgl_marlin --lora-paths a=/adapters/a",
    "--moe-runner-backend experimental_sgl_marlin --lora-paths a=/adapters/a --lora-use-virtual-experts --lora-backend triton");
rule!(MARLIN_LORA_NEEDS_TRITON, "VAL015", "experimental-sgl-marlin-lora-needs-triton",
    "lora.marlin_lora_temp.policy.validate_experimental_sgl_marlin_server_args#3", "sglang/srt/lora/marlin_lora_temp/policy.py",
    "validate_experimental_sgl_marlin_server_args", "ValueError", Resolve,
    "experimental_sgl_marlin LoRA requires --lora-backend triton",
    "The experimental Marlin MoE-LoRA kernels consume the triton LoRA backend's batch metadata directly.",
    ["--moe-runner-backend", "--lora-backend"],
    "--moe-runner-backend experimental_sgl_marlin --lora-paths a=/adapters/a --lora-use-virtual-experts",
    "--moe-runner-backend experimental_sgl_marlin --lora-paths a=/adapters/a --lora-use-virtual-experts --lora-backend triton");
rule!(MARLIN_EP_TRIVIAL_PLACEMENT, "VAL016", "experimental-sgl-marlin-ep-trivial-placement",
    "lora.marlin_lora_temp.policy.validate_experimental_sgl_marlin_server_args#4", "sglang/srt/lora/marlin_lora_temp/policy.py",
    "validate_experimental_sgl_marlin_server_args", "ValueError", Resolve,
    "experimental_sgl_marlin EP requires trivial expert placement without redundancy, EPLB, or elastic EP",
    "With LoRA and expert parallelism the experimental Marlin runner needs experts placed trivially: no EPLB, redundant experts or elastic EP.",
    ["--moe-runner-backend", "--enable-eplb", "--ep-num-redundant-experts", "--init-expert-location", "--elastic-ep-backend"],
    "--moe-runner-backend experimental_sgl_marlin --lora-paths a=/x --lora-use-virtual-experts --lora-backend triton --tp-size 2 --ep-size 2 --enable-eplb",
    "--moe-runner-backend experimental_sgl_marlin --lora-paths a=/x --lora-use-virtual-experts --lora-backend triton --tp-size 2 --ep-size 2");

rule!(MAX_LORAS_PER_BATCH, "VAL080", "max-loras-per-batch-not-positive",
    "lora_hook.check_lora_server_args#1", "sglang/srt/arg_groups/lora_hook.py", "check_lora_server_args", "AssertionError", Check,
    "max_loras_per_batch must be positive",
    "--max-loras-per-batch is how many adapters one batch may mix; it must be at least 1 (checked even without LoRA).",
    ["--max-loras-per-batch"], "--max-loras-per-batch 0", "--max-loras-per-batch 8");
warning_rule!(W_ENABLE_LORA_SET, "VAL081", "enable-lora-implied-by-lora-paths",
    "sglang/srt/arg_groups/lora_hook.py", "check_lora_server_args", Check,
    "--enable-lora is set to True because --lora-paths is provided.",
    "Giving --lora-paths switches LoRA on; add --enable-lora to say so explicitly.",
    ["--lora-paths", "--enable-lora"], "--lora-paths a=/adapters/a", "--lora-paths a=/adapters/a --enable-lora");
rule!(V2_LORA_MODES, "VAL083", "lora-triton-v2-unsupported-mode",
    "lora_hook._check_v2_lora_modes#1", "sglang/srt/arg_groups/lora_hook.py", "_check_v2_lora_modes", "ValueError", Check,
    "{option} does not yet support {mode}",
    "The triton_v2 LoRA backend (and the LoRA MoE runners) do not yet work with attention DP, PD-multiplexing, two-batch overlap, SGLANG_EXPERIMENTAL_LORA_OPTI or ROCm.",
    ["--lora-backend", "--moe-runner-backend", "--attn-dp-size", "--enable-pdmux", "--enable-two-batch-overlap"],
    "--lora-paths a=/x --lora-backend triton_v2 --tp-size 2 --attn-dp-size 2",
    "--lora-paths a=/x --lora-backend triton_v2 --tp-size 2");
rule!(OVERLAP_LOADING_LIMIT, "VAL084", "lora-overlap-loading-max-loaded-loras",
    "lora_hook.check_lora_server_args#2", "sglang/srt/arg_groups/lora_hook.py", "check_lora_server_args", "AssertionError", Check,
    "Enabling LoRA overlap loading requires pinning LoRA adapter weights in CPU memory, so --max-loaded-loras must be less than or equal to double --max-loras-per-batch: {max_loaded_loras_limit}",
    "Overlap loading pins every loaded adapter in host memory, so --max-loaded-loras must be set and at most twice --max-loras-per-batch.",
    ["--enable-lora-overlap-loading", "--max-loaded-loras", "--max-loras-per-batch"],
    "--lora-paths a=/x --enable-lora-overlap-loading", "--lora-paths a=/x --enable-lora-overlap-loading --max-loaded-loras 16");
rule!(TARGET_MODULES_ALL, "VAL085", "lora-target-modules-all-alone",
    "lora_hook.check_lora_server_args#6", "sglang/srt/arg_groups/lora_hook.py", "check_lora_server_args", "AssertionError", Check,
    "If 'all' is specified in --lora-target-modules, it should be the only module specified.",
    "`all` already means every supported module; listing others next to it is ambiguous.",
    ["--lora-target-modules"],
    "--enable-lora --max-lora-rank 8 --lora-target-modules all q_proj", "--enable-lora --max-lora-rank 8 --lora-target-modules all");
rule!(NEEDS_PATHS_OR_SHAPES, "VAL086", "lora-needs-paths-or-rank-and-modules",
    "lora_hook.check_lora_server_args#7", "sglang/srt/arg_groups/lora_hook.py", "check_lora_server_args", "AssertionError", Check,
    "When no initial --lora-paths is provided, you need to specify both --max-lora-rank and --lora-target-modules for LoRA initialization.",
    "LoRA buffers are sized at start-up; with no initial adapter to read the shapes from, SGLang needs --max-lora-rank and --lora-target-modules.",
    ["--enable-lora", "--lora-paths", "--max-lora-rank", "--lora-target-modules"],
    "--enable-lora", "--enable-lora --max-lora-rank 64 --lora-target-modules all");
rule!(MAX_LOADED_LT_PER_BATCH, "VAL087", "max-loaded-loras-below-per-batch",
    "lora_hook.check_lora_server_args#8", "sglang/srt/arg_groups/lora_hook.py", "check_lora_server_args", "AssertionError", Check,
    "max_loaded_loras should be greater than or equal to max_loras_per_batch. max_loaded_loras={cfg.max_loaded_loras}, max_loras_per_batch={cfg.max_loras_per_batch}",
    "A batch can only use adapters that are loaded, so the number kept loaded must be at least the number per batch.",
    ["--max-loaded-loras", "--max-loras-per-batch"],
    "--lora-paths a=/x --max-loaded-loras 2 --max-loras-per-batch 3", "--lora-paths a=/x --max-loaded-loras 3 --max-loras-per-batch 3");
rule!(PATHS_EXCEED_MAX_LOADED, "VAL088", "lora-paths-exceed-max-loaded-loras",
    "lora_hook.check_lora_server_args#9", "sglang/srt/arg_groups/lora_hook.py", "check_lora_server_args", "AssertionError", Check,
    "The number of LoRA paths should not exceed max_loaded_loras. max_loaded_loras={cfg.max_loaded_loras}, lora_paths={len(cfg.lora_paths)}",
    "All adapters in --lora-paths are loaded at start-up, so --max-loaded-loras must be at least their number.",
    ["--lora-paths", "--max-loaded-loras"],
    "--lora-paths a=/x b=/y --max-loaded-loras 1 --max-loras-per-batch 1", "--lora-paths a=/x b=/y --max-loaded-loras 2 --max-loras-per-batch 1");
rule!(DRAIN_WAIT_THRESHOLD, "VAL089", "lora-drain-wait-threshold-negative",
    "lora_hook.check_lora_server_args#11", "sglang/srt/arg_groups/lora_hook.py", "check_lora_server_args", "AssertionError", Check,
    "--lora-drain-wait-threshold must be non-negative.",
    "The LoRA drain wait threshold is a duration and cannot be negative.",
    ["--lora-drain-wait-threshold"], "--lora-paths a=/x --lora-drain-wait-threshold -1", "--lora-paths a=/x --lora-drain-wait-threshold 0");
rule!(SPEC_MOE_RUNNER_LORA, "VAL090", "speculative-moe-runner-lora",
    "lora_hook.check_lora_moe_runner_args#1", "sglang/srt/arg_groups/lora_hook.py", "check_lora_moe_runner_args", "ValueError", Check,
    "--speculative-moe-runner-backend {cfg.speculative_moe_runner_backend} is not supported: the LoRA MoE runner serves adapter traffic on the target model",
    "Draft models carry no LoRA adapters, so a LoRA MoE runner makes no sense for the draft.",
    ["--speculative-moe-runner-backend", "--speculative-algorithm"],
    "--speculative-algorithm NGRAM --speculative-moe-runner-backend lora_triton", "--speculative-algorithm NGRAM");
rule!(MOE_RUNNER_NEEDS_LORA, "VAL091", "lora-moe-runner-needs-lora",
    "lora_hook.check_lora_moe_runner_args#2", "sglang/srt/arg_groups/lora_hook.py", "check_lora_moe_runner_args", "ValueError", Check,
    "--moe-runner-backend {backend} requires --enable-lora (or --lora-paths)",
    "The lora_* MoE runners exist to apply LoRA adapters to MoE experts; without LoRA use a regular runner.",
    ["--moe-runner-backend", "--enable-lora", "--lora-paths"],
    "--moe-runner-backend lora_triton", "--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2");
rule!(MOE_RUNNER_NEEDS_TRITON_V2, "VAL092", "lora-moe-runner-needs-triton-v2",
    "lora_hook.check_lora_moe_runner_args#3", "sglang/srt/arg_groups/lora_hook.py", "check_lora_moe_runner_args", "ValueError", Check,
    "--moe-runner-backend {backend} requires --lora-backend triton_v2",
    "The lora_* MoE runners read the triton_v2 LoRA backend's batch layout.",
    ["--moe-runner-backend", "--lora-backend"],
    "--moe-runner-backend lora_triton --lora-paths a=/x", "--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2");
rule!(MOE_RUNNER_QUANT, "VAL093", "lora-moe-runner-quantization",
    "lora_hook.check_lora_moe_runner_args#4", "sglang/srt/arg_groups/lora_hook.py", "check_lora_moe_runner_args", "ValueError", Check,
    "--moe-runner-backend {backend} supports unquantized BF16, 128-block FP8 and ModelOpt NVFP4 MoE, got --quantization {cfg.quantization}",
    "The LoRA MoE runners only have kernels for BF16, block-FP8 and ModelOpt NVFP4 experts.",
    ["--moe-runner-backend", "--quantization"],
    "--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2 --quantization awq",
    "--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2");
rule!(MOE_RUNNER_NVFP4, "VAL094", "lora-moe-runner-nvfp4-needs-marlin",
    "lora_hook.check_lora_moe_runner_args#5", "sglang/srt/arg_groups/lora_hook.py", "check_lora_moe_runner_args", "ValueError", Check,
    "--moe-runner-backend {backend} cannot run ModelOpt NVFP4 MoE; use --moe-runner-backend lora_marlin",
    "Only the lora_marlin runner has NVFP4 expert kernels.",
    ["--moe-runner-backend", "--quantization"],
    "--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2 --quantization modelopt_fp4",
    "--moe-runner-backend lora_marlin --lora-paths a=/x --lora-backend triton_v2 --quantization modelopt_fp4");
rule!(MOE_RUNNER_A2A, "VAL095", "lora-moe-runner-needs-standard-dispatch",
    "lora_hook.check_lora_moe_runner_args#6", "sglang/srt/arg_groups/lora_hook.py", "check_lora_moe_runner_args", "ValueError", Check,
    "--moe-runner-backend {backend} requires Standard dispatch, got --moe-a2a-backend {cfg.moe_a2a_backend}",
    "The LoRA MoE runners do not work behind an expert-parallel all-to-all backend.",
    ["--moe-runner-backend", "--moe-a2a-backend"],
    "--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2 --tp-size 2 --moe-a2a-backend deepep",
    "--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2 --tp-size 2");
rule!(MOE_RUNNER_ELASTIC_EP, "VAL096", "lora-moe-runner-no-elastic-ep",
    "lora_hook.check_lora_moe_runner_args#7", "sglang/srt/arg_groups/lora_hook.py", "check_lora_moe_runner_args", "ValueError", Check,
    "--moe-runner-backend {backend} does not yet support elastic EP",
    "Elastic expert parallelism (joining or recovering ranks) is not supported by the LoRA MoE runners.",
    ["--moe-runner-backend", "--elastic-ep-join-mode"], "", "");
rule!(MOE_RUNNER_TRIVIAL_PLACEMENT, "VAL097", "lora-moe-runner-trivial-placement",
    "lora_hook.check_lora_moe_runner_args#8", "sglang/srt/arg_groups/lora_hook.py", "check_lora_moe_runner_args", "ValueError", Check,
    "--moe-runner-backend {backend} currently requires trivial expert placement without EPLB or redundant experts",
    "The LoRA MoE runners attach adapters per expert and need every expert in its default place: no EPLB, no redundant experts, --init-expert-location trivial.",
    ["--moe-runner-backend", "--enable-eplb", "--init-expert-location", "--ep-num-redundant-experts"],
    "--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2 --enable-eplb",
    "--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2");

fn fail(ctx: &mut Ctx, rule: &'static Rule, message: String, dests: &[&str], fixes: Vec<Fix>) -> Step {
    ctx.raise(rule, message, dests, fixes);
    Err(Raised)
}

/// The backends that make `_a2a_ep_size` set ep_size = tp_size (overrides.py).
const A2A_EP_SPANNING: &[&str] = &[
    "megamoe", "deepep", "deepep_v2", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "flashinfer_megamoe", "mori", "pplx",
];

/// `validate_experimental_sgl_marlin` -> `validate_experimental_sgl_marlin_server_args`.
/// `resolved_view` applies the post-process overrides, so ep_size is the one after `_a2a_ep_size`.
pub fn validate_experimental_sgl_marlin(ctx: &mut Ctx) {
    if !ctx.cfg.is("moe_runner_backend", "experimental_sgl_marlin") {
        return;
    }
    let a2a = ctx.cfg.str("moe_a2a_backend").unwrap_or("none").to_string();
    let ep = if A2A_EP_SPANNING.contains(&a2a.as_str()) { ctx.cfg.int("tp_size").unwrap_or(1) } else { ctx.cfg.int("ep_size").unwrap_or(1) };
    if ep > 1 && a2a != "none" {
        let fix = ctx.fix_remove("Drop --moe-a2a-backend", "moe_a2a_backend", Applicability::Unsafe);
        let _ = fail(ctx, &MARLIN_EP_NEEDS_A2A_NONE, MARLIN_EP_NEEDS_A2A_NONE.template.into(), &["moe_a2a_backend", "ep_size"], vec![fix]);
        return;
    }
    let enable_lora = ctx.cfg.get("enable_lora").clone();
    let lora_enabled = enable_lora.truthy() || (enable_lora.is_none() && ctx.cfg.truthy("lora_paths"));
    if !lora_enabled {
        return;
    }
    if !ctx.cfg.truthy("lora_use_virtual_experts") {
        let fix = ctx.fix_add_flag("Add --lora-use-virtual-experts", "--lora-use-virtual-experts", Applicability::Safe);
        let _ = fail(ctx, &MARLIN_LORA_NEEDS_VIRTUAL_EXPERTS, MARLIN_LORA_NEEDS_VIRTUAL_EXPERTS.template.into(), &["moe_runner_backend"], vec![fix]);
        return;
    }
    if !ctx.cfg.is("lora_backend", "triton") {
        let fix = ctx.fix_set("Use --lora-backend triton", "lora_backend", "--lora-backend", "triton", Applicability::Safe);
        let _ = fail(ctx, &MARLIN_LORA_NEEDS_TRITON, MARLIN_LORA_NEEDS_TRITON.template.into(), &["lora_backend", "moe_runner_backend"], vec![fix]);
        return;
    }
    if ep <= 1 {
        return;
    }
    if !ctx.cfg.is("init_expert_location", "trivial")
        || ctx.cfg.int("ep_num_redundant_experts").unwrap_or(0) != 0
        || ctx.cfg.truthy("enable_eplb")
        || !ctx.cfg.is_none("elastic_ep_backend")
        || ctx.cfg.truthy("enable_elastic_expert_backup")
    {
        let mut fixes = vec![];
        for (dest, title) in [
            ("enable_eplb", "Drop --enable-eplb"),
            ("ep_num_redundant_experts", "Drop --ep-num-redundant-experts"),
            ("init_expert_location", "Drop --init-expert-location"),
            ("elastic_ep_backend", "Drop --elastic-ep-backend"),
            ("enable_elastic_expert_backup", "Drop --enable-elastic-expert-backup"),
        ] {
            if ctx.cfg.is_explicit(dest) {
                fixes.push(ctx.fix_remove(title, dest, Applicability::Unsafe));
            }
        }
        let _ = fail(
            ctx,
            &MARLIN_EP_TRIVIAL_PLACEMENT,
            MARLIN_EP_TRIVIAL_PLACEMENT.template.into(),
            &["enable_eplb", "ep_num_redundant_experts", "init_expert_location", "elastic_ep_backend", "enable_elastic_expert_backup"],
            fixes,
        );
    }
}

/// `_check_v2_lora_modes(cfg, option)`.
fn check_v2_lora_modes(ctx: &mut Ctx, option: &str) -> Step {
    let modes: [(bool, &str, &str); 5] = [
        (ctx.cfg.int("attn_dp_size").unwrap_or(1) > 1, "DP-attention with --attn-dp-size > 1", "attn_dp_size"),
        (ctx.cfg.truthy("enable_pdmux"), "PD-multiplexing", "enable_pdmux"),
        (ctx.cfg.truthy("enable_two_batch_overlap"), "two-batch overlap", "enable_two_batch_overlap"),
        (ctx.env_bool("SGLANG_EXPERIMENTAL_LORA_OPTI", false), "SGLANG_EXPERIMENTAL_LORA_OPTI", "lora_backend"),
        (ctx.hw.is_hip(), "ROCm", "lora_backend"),
    ];
    for (unsupported, mode, dest) in modes {
        if unsupported {
            return fail(ctx, &V2_LORA_MODES, format!("{option} does not yet support {mode}"), &[dest, "lora_backend", "moe_runner_backend"], vec![]);
        }
    }
    Ok(())
}

/// `check_lora_server_args`.
pub fn check_lora_server_args(ctx: &mut Ctx) -> Step {
    if ctx.cfg.int("max_loras_per_batch").is_some_and(|v| v <= 0) {
        let fix = ctx.fix_set("Use the default 8", "max_loras_per_batch", "--max-loras-per-batch", "8", Applicability::Safe);
        return fail(ctx, &MAX_LORAS_PER_BATCH, MAX_LORAS_PER_BATCH.template.into(), &["max_loras_per_batch"], vec![fix]);
    }

    // enable_lora False would log "--enable-lora is set to False, any provided lora_paths will be
    // ignored.": unreachable from a command (store_true, default None; a `enable-lora: false` in
    // a --config file is dropped, measured).
    if ctx.cfg.truthy("lora_paths") && ctx.cfg.is_none("enable_lora") {
        ctx.cfg.set("enable_lora", PyValue::Bool(true));
        let fix = ctx.fix_add_flag("Add --enable-lora explicitly", "--enable-lora", Applicability::Safe);
        ctx.warn(&W_ENABLE_LORA_SET, W_ENABLE_LORA_SET.template.into(), &["lora_paths"], vec![fix]);
    }

    if ctx.cfg.truthy("enable_lora") {
        let moe_runner = ctx.cfg.str("moe_runner_backend").unwrap_or("auto").to_string();
        if ctx.cfg.is("lora_backend", "triton_v2") && !moe_runner.starts_with("lora") {
            check_v2_lora_modes(ctx, "--lora-backend triton_v2")?;
        }
        if ctx.cfg.is_none("enable_lora_overlap_loading") {
            ctx.cfg.set("enable_lora_overlap_loading", PyValue::Bool(false));
        }
        let per_batch = ctx.cfg.int("max_loras_per_batch").unwrap_or(8);
        let max_loaded = ctx.cfg.int("max_loaded_loras");
        if ctx.cfg.truthy("enable_lora_overlap_loading") {
            let limit = per_batch * 2;
            if !max_loaded.is_some_and(|m| m <= limit) {
                let fix = ctx.fix_set(format!("Keep at most {limit} adapters loaded"), "max_loaded_loras", "--max-loaded-loras", &limit.to_string(), Applicability::Unsafe);
                return fail(
                    ctx,
                    &OVERLAP_LOADING_LIMIT,
                    format!("Enabling LoRA overlap loading requires pinning LoRA adapter weights in CPU memory, so --max-loaded-loras must be less than or equal to double --max-loras-per-batch: {limit}"),
                    &["max_loaded_loras", "enable_lora_overlap_loading"],
                    vec![fix],
                );
            }
        }

        // check_lora_speculative_compatibility: the speculative hook (not modelled) renames the
        // algorithm (NEXTN -> EAGLE, Gemma4 assistant -> FROZEN_KV_MTP) before this runs.
        if super::check::spec_kind(ctx) == super::check::Spec::Other {
            ctx.skip("lora_hook.check_lora_speculative_compatibility#1", NotRunReason::ModelConfig);
        }

        // lora_paths become LoRARef records (same count); None becomes [].
        if ctx.cfg.is_none("lora_paths") {
            ctx.cfg.set("lora_paths", PyValue::List(vec![]));
        }

        // Target modules become a set.
        if let Some(mods) = ctx.cfg.get("lora_target_modules").as_list().map(<[PyValue]>::to_vec) {
            if !mods.is_empty() {
                let mut set: Vec<PyValue> = Vec::new();
                for m in mods {
                    if !set.contains(&m) {
                        set.push(m);
                    }
                }
                let has_all = set.iter().any(|m| m.as_str() == Some("all"));
                let n = set.len();
                ctx.cfg.set("lora_target_modules", PyValue::List(set));
                if has_all && n != 1 {
                    let fix = ctx.fix_set("Keep only 'all'", "lora_target_modules", "--lora-target-modules", "all", Applicability::Safe);
                    return fail(ctx, &TARGET_MODULES_ALL, TARGET_MODULES_ALL.template.into(), &["lora_target_modules"], vec![fix]);
                }
            }
        }

        if !(ctx.cfg.truthy("lora_paths") || (ctx.cfg.truthy("max_lora_rank") && ctx.cfg.truthy("lora_target_modules"))) {
            let mut fixes = vec![];
            if !ctx.cfg.truthy("max_lora_rank") || !ctx.cfg.truthy("lora_target_modules") {
                let mut edit_text = String::new();
                if !ctx.cfg.truthy("max_lora_rank") {
                    edit_text.push_str(" --max-lora-rank 64");
                }
                if !ctx.cfg.truthy("lora_target_modules") && !ctx.cfg.is_explicit("lora_target_modules") {
                    edit_text.push_str(" --lora-target-modules all");
                }
                if !edit_text.is_empty() && ctx.can_append {
                    fixes.push(Fix {
                        title: "Size LoRA buffers explicitly (rank 64, all modules)".into(),
                        applicability: Applicability::Unsafe,
                        edits: vec![crate::diagnostic::Edit { start: ctx.append_at, end: ctx.append_at, replacement: edit_text }],
                    });
                }
            }
            return fail(ctx, &NEEDS_PATHS_OR_SHAPES, NEEDS_PATHS_OR_SHAPES.template.into(), &["enable_lora", "max_lora_rank", "lora_target_modules"], fixes);
        }

        if let Some(m) = max_loaded {
            if m < per_batch {
                let fixes = vec![
                    ctx.fix_set(format!("Keep {per_batch} adapters loaded"), "max_loaded_loras", "--max-loaded-loras", &per_batch.to_string(), Applicability::Safe),
                    ctx.fix_set(format!("Mix at most {m} adapters per batch"), "max_loras_per_batch", "--max-loras-per-batch", &m.to_string(), Applicability::Unsafe),
                ];
                return fail(
                    ctx,
                    &MAX_LOADED_LT_PER_BATCH,
                    format!("max_loaded_loras should be greater than or equal to max_loras_per_batch. max_loaded_loras={m}, max_loras_per_batch={per_batch}"),
                    &["max_loaded_loras", "max_loras_per_batch"],
                    fixes,
                );
            }
            let n = ctx.cfg.get("lora_paths").as_list().map(<[PyValue]>::len).unwrap_or(0) as i64;
            if n > m {
                let fix = ctx.fix_set(format!("Keep {n} adapters loaded"), "max_loaded_loras", "--max-loaded-loras", &n.to_string(), Applicability::Safe);
                return fail(
                    ctx,
                    &PATHS_EXCEED_MAX_LOADED,
                    format!("The number of LoRA paths should not exceed max_loaded_loras. max_loaded_loras={m}, lora_paths={n}"),
                    &["max_loaded_loras", "lora_paths"],
                    vec![fix],
                );
            }
        }
        // max_lora_chunk_size: restricted by argparse choices to 16/32/64/128.

        if ctx.cfg.float("lora_drain_wait_threshold").is_some_and(|v| v < 0.0) {
            let fix = ctx.fix_set("Use 0", "lora_drain_wait_threshold", "--lora-drain-wait-threshold", "0", Applicability::Unsafe);
            return fail(ctx, &DRAIN_WAIT_THRESHOLD, DRAIN_WAIT_THRESHOLD.template.into(), &["lora_drain_wait_threshold"], vec![fix]);
        }
    }

    check_lora_moe_runner_args(ctx)
}

/// `check_lora_moe_runner_args`.
fn check_lora_moe_runner_args(ctx: &mut Ctx) -> Step {
    if ctx.cfg.str("speculative_algorithm").is_some() {
        if let Some(b) = ctx.cfg.str("speculative_moe_runner_backend").map(str::to_string) {
            if b.starts_with("lora") {
                let fix = ctx.fix_remove("Drop --speculative-moe-runner-backend", "speculative_moe_runner_backend", Applicability::Safe);
                return fail(
                    ctx,
                    &SPEC_MOE_RUNNER_LORA,
                    format!("--speculative-moe-runner-backend {b} is not supported: the LoRA MoE runner serves adapter traffic on the target model"),
                    &["speculative_moe_runner_backend"],
                    vec![fix],
                );
            }
        }
    }
    let backend = ctx.cfg.str("moe_runner_backend").unwrap_or("auto").to_string();
    if !backend.starts_with("lora") {
        return Ok(());
    }
    let rb = ["moe_runner_backend"];
    if !ctx.cfg.truthy("enable_lora") {
        let fix = ctx.fix_remove("Drop --moe-runner-backend (no LoRA)", "moe_runner_backend", Applicability::Unsafe);
        return fail(ctx, &MOE_RUNNER_NEEDS_LORA, format!("--moe-runner-backend {backend} requires --enable-lora (or --lora-paths)"), &rb, vec![fix]);
    }
    if !ctx.cfg.is("lora_backend", "triton_v2") {
        let fix = ctx.fix_set("Use --lora-backend triton_v2", "lora_backend", "--lora-backend", "triton_v2", Applicability::Safe);
        return fail(ctx, &MOE_RUNNER_NEEDS_TRITON_V2, format!("--moe-runner-backend {backend} requires --lora-backend triton_v2"), &["lora_backend", "moe_runner_backend"], vec![fix]);
    }
    check_v2_lora_modes(ctx, &format!("--moe-runner-backend {backend}"))?;
    let quant = ctx.cfg.get("quantization").clone();
    if quant.is_none() {
        // The checkpoint's own quantization is filled in from the model config.
        ctx.skip("lora_hook.check_lora_moe_runner_args#4", NotRunReason::ModelConfig);
    }
    if !matches!(quant.as_str(), None | Some("fp8") | Some("modelopt_fp4")) {
        return fail(
            ctx,
            &MOE_RUNNER_QUANT,
            format!("--moe-runner-backend {backend} supports unquantized BF16, 128-block FP8 and ModelOpt NVFP4 MoE, got --quantization {}", quant.py_str()),
            &["quantization"],
            vec![],
        );
    }
    if quant.as_str() == Some("modelopt_fp4") && backend != "lora_marlin" {
        let fix = ctx.fix_set("Use --moe-runner-backend lora_marlin", "moe_runner_backend", "--moe-runner-backend", "lora_marlin", Applicability::Safe);
        return fail(ctx, &MOE_RUNNER_NVFP4, format!("--moe-runner-backend {backend} cannot run ModelOpt NVFP4 MoE; use --moe-runner-backend lora_marlin"), &rb, vec![fix]);
    }
    let a2a = ctx.cfg.str("moe_a2a_backend").unwrap_or("none").to_string();
    if a2a != "none" {
        let fix = ctx.fix_remove("Drop --moe-a2a-backend", "moe_a2a_backend", Applicability::Unsafe);
        return fail(ctx, &MOE_RUNNER_A2A, format!("--moe-runner-backend {backend} requires Standard dispatch, got --moe-a2a-backend {a2a}"), &["moe_a2a_backend"], vec![fix]);
    }
    if !ctx.cfg.is_none("ep_join_mode") {
        return fail(ctx, &MOE_RUNNER_ELASTIC_EP, format!("--moe-runner-backend {backend} does not yet support elastic EP"), &["ep_join_mode"], vec![]);
    }
    if ctx.cfg.truthy("enable_eplb") || !ctx.cfg.is("init_expert_location", "trivial") || ctx.cfg.int("ep_num_redundant_experts").unwrap_or(0) > 0 {
        let mut fixes = vec![];
        for (dest, title) in [
            ("enable_eplb", "Drop --enable-eplb"),
            ("init_expert_location", "Drop --init-expert-location"),
            ("ep_num_redundant_experts", "Drop --ep-num-redundant-experts"),
        ] {
            if ctx.cfg.is_explicit(dest) {
                fixes.push(ctx.fix_remove(title, dest, Applicability::Unsafe));
            }
        }
        return fail(
            ctx,
            &MOE_RUNNER_TRIVIAL_PLACEMENT,
            format!("--moe-runner-backend {backend} currently requires trivial expert placement without EPLB or redundant experts"),
            &["enable_eplb", "init_expert_location", "ep_num_redundant_experts"],
            fixes,
        );
    }
    Ok(())
}
