//! Rules from SGLang's `sglang/srt/arg_groups/lora_hook.py` and the experimental Marlin LoRA
//! policy:
//! - `lora_hook.check_lora_server_args` / `check_lora_moe_runner_args` /
//!   `check_lora_speculative_compatibility` (SGLang calls them from `check_server_args`; the
//!   pipeline runs them in that place, stage check);
//! - `lora/marlin_lora_temp/policy.validate_experimental_sgl_marlin_server_args` (the pipeline's
//!   `validate_experimental_sgl_marlin` step, stage resolve).
//!
//! These rules were VAL codes while LoRA sat inside the validation family; [`REDIRECTS`] keeps the
//! old codes working, as Ruff does.

use crate::diagnostic::{Applicability, Fix};
use crate::fields::{f, Field};
use crate::pyvalue::PyValue;
use crate::rules::shared::overrides::A2A_EP_SPANNING_BACKENDS;
use crate::rules::shared::speculative::{spec_kind, Spec};
use crate::rules::{raises, site, warns, Ctx, Rule, Step};

pub static MARLIN_EP_NEEDS_A2A_NONE: Rule = Rule {
    code: "LORA001",
    name: kebab!("experimental-sgl-marlin-ep-needs-a2a-none"),
    sglang: raises("lora.marlin_lora_temp.policy.validate_experimental_sgl_marlin_server_args", "experimental_sgl_marlin EP requires --moe-a2a-backend"),
    explanation: expl!("The experimental Marlin MoE runner handles expert parallelism itself and cannot sit behind an all-to-all dispatch backend (which also forces ep_size to tp_size)."),
    flags: &["--moe-runner-backend", "--moe-a2a-backend", "--ep-size"],
    example_bad: ex!("--moe-runner-backend experimental_sgl_marlin --tp-size 2 --ep-size 2 --moe-a2a-backend deepep"),
    example_good: ex!("--moe-runner-backend experimental_sgl_marlin --tp-size 2 --ep-size 2"),
};
pub static MARLIN_LORA_NEEDS_VIRTUAL_EXPERTS: Rule = Rule {
    code: "LORA002",
    name: kebab!("experimental-sgl-marlin-lora-needs-virtual-experts"),
    sglang: raises("lora.marlin_lora_temp.policy.validate_experimental_sgl_marlin_server_args", "experimental_sgl_marlin LoRA requires --lora-use-virtual-experts"),
    explanation: expl!("With LoRA adapters the experimental Marlin MoE runner only supports the virtual-experts LoRA path."),
    flags: &["--moe-runner-backend", "--lora-use-virtual-experts", "--lora-paths", "--enable-lora"],
    example_bad: ex!("--moe-runner-backend experimental_sgl_marlin --lora-paths a=/adapters/a"),
    example_good: ex!("--moe-runner-backend experimental_sgl_marlin --lora-paths a=/adapters/a --lora-use-virtual-experts --lora-backend triton"),
};
pub static MARLIN_LORA_NEEDS_TRITON: Rule = Rule {
    code: "LORA003",
    name: kebab!("experimental-sgl-marlin-lora-needs-triton"),
    sglang: raises("lora.marlin_lora_temp.policy.validate_experimental_sgl_marlin_server_args", "experimental_sgl_marlin LoRA requires --lora-backend"),
    explanation: expl!("The experimental Marlin MoE-LoRA kernels consume the triton LoRA backend's batch metadata directly."),
    flags: &["--moe-runner-backend", "--lora-backend"],
    example_bad: ex!("--moe-runner-backend experimental_sgl_marlin --lora-paths a=/adapters/a --lora-use-virtual-experts"),
    example_good: ex!("--moe-runner-backend experimental_sgl_marlin --lora-paths a=/adapters/a --lora-use-virtual-experts --lora-backend triton"),
};
pub static MARLIN_EP_TRIVIAL_PLACEMENT: Rule = Rule {
    code: "LORA004",
    name: kebab!("experimental-sgl-marlin-ep-trivial-placement"),
    sglang: raises("lora.marlin_lora_temp.policy.validate_experimental_sgl_marlin_server_args", "experimental_sgl_marlin EP requires trivial"),
    explanation: expl!("With LoRA and expert parallelism the experimental Marlin runner needs experts placed trivially: no EPLB, redundant experts or elastic EP."),
    flags: &["--moe-runner-backend", "--enable-eplb", "--ep-num-redundant-experts", "--init-expert-location", "--elastic-ep-backend"],
    example_bad: ex!("--moe-runner-backend experimental_sgl_marlin --lora-paths a=/x --lora-use-virtual-experts --lora-backend triton --tp-size 2 --ep-size 2 --enable-eplb"),
    example_good: ex!("--moe-runner-backend experimental_sgl_marlin --lora-paths a=/x --lora-use-virtual-experts --lora-backend triton --tp-size 2 --ep-size 2"),
};

pub static MAX_LORAS_PER_BATCH: Rule = Rule {
    code: "LORA005",
    name: kebab!("max-loras-per-batch-not-positive"),
    sglang: raises("lora_hook.check_lora_server_args", "max_loras_per_batch must be positive"),
    explanation: expl!("--max-loras-per-batch is how many adapters one batch may mix; it must be at least 1 (checked even without LoRA)."),
    flags: &["--max-loras-per-batch"],
    example_bad: ex!("--max-loras-per-batch 0"),
    example_good: ex!("--max-loras-per-batch 8"),
};
pub static W_ENABLE_LORA_SET: Rule = Rule {
    code: "LORA006",
    name: kebab!("enable-lora-implied-by-lora-paths"),
    sglang: warns("lora_hook.check_lora_server_args", "--enable-lora is set to True because --lora-paths"),
    explanation: expl!("Giving --lora-paths switches LoRA on; add --enable-lora to say so explicitly."),
    flags: &["--lora-paths", "--enable-lora"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --lora-paths a=/adapters/a"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --lora-paths a=/adapters/a --enable-lora"),
};
pub static V2_LORA_MODES: Rule = Rule {
    code: "LORA007",
    name: kebab!("lora-triton-v2-unsupported-mode"),
    sglang: raises("lora_hook._check_v2_lora_modes", "{option} does not yet support {mode}"),
    explanation: expl!("The triton_v2 LoRA backend (and the LoRA MoE runners) do not yet work with attention DP, PD-multiplexing, two-batch overlap, SGLANG_EXPERIMENTAL_LORA_OPTI or ROCm."),
    flags: &["--lora-backend", "--moe-runner-backend", "--attn-dp-size", "--enable-pdmux", "--enable-two-batch-overlap"],
    example_bad: ex!("--lora-paths a=/x --lora-backend triton_v2 --tp-size 2 --attn-dp-size 2"),
    example_good: ex!("--lora-paths a=/x --lora-backend triton_v2 --tp-size 2"),
};
pub static OVERLAP_LOADING_LIMIT: Rule = Rule {
    code: "LORA008",
    name: kebab!("lora-overlap-loading-max-loaded-loras"),
    sglang: raises("lora_hook.check_lora_server_args", "Enabling LoRA overlap loading requires pinning"),
    explanation: expl!("Overlap loading pins every loaded adapter in host memory, so --max-loaded-loras must be set and at most twice --max-loras-per-batch."),
    flags: &["--enable-lora-overlap-loading", "--max-loaded-loras", "--max-loras-per-batch"],
    example_bad: ex!("--lora-paths a=/x --enable-lora-overlap-loading"),
    example_good: ex!("--lora-paths a=/x --enable-lora-overlap-loading --max-loaded-loras 16"),
};
pub static SPECULATIVE_NGRAM_ONLY: Rule = Rule {
    code: "LORA022",
    name: kebab!("lora-speculative-ngram-only"),
    sglang: raises("lora_hook.check_lora_server_args", "Currently LoRA is only compatible with NGRAM speculative decoding."),
    explanation: expl!("SGLang 0.5.18 serves LoRA adapters with NGRAM speculative decoding only (later releases add EAGLE and others). The algorithm is read after resolution: NEXTN has become EAGLE by then."),
    flags: &["--enable-lora", "--lora-paths", "--speculative-algorithm"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static TARGET_MODULES_ALL: Rule = Rule {
    code: "LORA009",
    name: kebab!("lora-target-modules-all-alone"),
    sglang: raises("lora_hook.check_lora_server_args", "If 'all' is specified in --lora-target-modules,"),
    explanation: expl!("`all` already means every supported module; listing others next to it is ambiguous."),
    flags: &["--lora-target-modules"],
    example_bad: ex!("--enable-lora --max-lora-rank 8 --lora-target-modules all q_proj"),
    example_good: ex!("--enable-lora --max-lora-rank 8 --lora-target-modules all"),
};
pub static NEEDS_PATHS_OR_SHAPES: Rule = Rule {
    code: "LORA010",
    name: kebab!("lora-needs-paths-or-rank-and-modules"),
    sglang: raises("lora_hook.check_lora_server_args", "When no initial --lora-paths is provided,"),
    explanation: expl!("LoRA buffers are sized at start-up; with no initial adapter to read the shapes from, SGLang needs --max-lora-rank and --lora-target-modules."),
    flags: &["--enable-lora", "--lora-paths", "--max-lora-rank", "--lora-target-modules"],
    example_bad: ex!("--enable-lora"),
    example_good: ex!("--enable-lora --max-lora-rank 64 --lora-target-modules all"),
};
pub static MAX_LOADED_LT_PER_BATCH: Rule = Rule {
    code: "LORA011",
    name: kebab!("max-loaded-loras-below-per-batch"),
    sglang: raises("lora_hook.check_lora_server_args", "max_loaded_loras should be greater than or"),
    explanation: expl!("A batch can only use adapters that are loaded, so the number kept loaded must be at least the number per batch."),
    flags: &["--max-loaded-loras", "--max-loras-per-batch"],
    example_bad: ex!("--lora-paths a=/x --max-loaded-loras 2 --max-loras-per-batch 3"),
    example_good: ex!("--lora-paths a=/x --max-loaded-loras 3 --max-loras-per-batch 3"),
};
pub static PATHS_EXCEED_MAX_LOADED: Rule = Rule {
    code: "LORA012",
    name: kebab!("lora-paths-exceed-max-loaded-loras"),
    sglang: raises("lora_hook.check_lora_server_args", "The number of LoRA paths should not exceed"),
    explanation: expl!("All adapters in --lora-paths are loaded at start-up, so --max-loaded-loras must be at least their number."),
    flags: &["--lora-paths", "--max-loaded-loras"],
    example_bad: ex!("--lora-paths a=/x b=/y --max-loaded-loras 1 --max-loras-per-batch 1"),
    example_good: ex!("--lora-paths a=/x b=/y --max-loaded-loras 2 --max-loras-per-batch 1"),
};
pub static DRAIN_WAIT_THRESHOLD: Rule = Rule {
    code: "LORA013",
    name: kebab!("lora-drain-wait-threshold-negative"),
    sglang: raises("lora_hook.check_lora_server_args", "--lora-drain-wait-threshold must be non-negative."),
    explanation: expl!("The LoRA drain wait threshold is a duration and cannot be negative."),
    flags: &["--lora-drain-wait-threshold"],
    example_bad: ex!("--lora-paths a=/x --lora-drain-wait-threshold -1"),
    example_good: ex!("--lora-paths a=/x --lora-drain-wait-threshold 0"),
};
pub static SPEC_MOE_RUNNER_LORA: Rule = Rule {
    code: "LORA014",
    name: kebab!("speculative-moe-runner-lora"),
    sglang: raises("lora_hook.check_lora_moe_runner_args", "--speculative-moe-runner-backend {cfg.speculative_moe_runner_backend}"),
    explanation: expl!("Draft models carry no LoRA adapters, so a LoRA MoE runner makes no sense for the draft."),
    flags: &["--speculative-moe-runner-backend", "--speculative-algorithm"],
    example_bad: ex!("--speculative-algorithm NGRAM --speculative-moe-runner-backend lora_triton"),
    example_good: ex!("--speculative-algorithm NGRAM"),
};
pub static MOE_RUNNER_NEEDS_LORA: Rule = Rule {
    code: "LORA015",
    name: kebab!("lora-moe-runner-needs-lora"),
    sglang: raises("lora_hook.check_lora_moe_runner_args", "--moe-runner-backend {backend} requires --enable-lora"),
    explanation: expl!("The lora_* MoE runners exist to apply LoRA adapters to MoE experts; without LoRA use a regular runner."),
    flags: &["--moe-runner-backend", "--enable-lora", "--lora-paths"],
    example_bad: ex!("--moe-runner-backend lora_triton"),
    example_good: ex!("--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2"),
};
pub static MOE_RUNNER_NEEDS_TRITON_V2: Rule = Rule {
    code: "LORA016",
    name: kebab!("lora-moe-runner-needs-triton-v2"),
    sglang: raises("lora_hook.check_lora_moe_runner_args", "--moe-runner-backend {backend} requires --lora-backend"),
    explanation: expl!("The lora_* MoE runners read the triton_v2 LoRA backend's batch layout."),
    flags: &["--moe-runner-backend", "--lora-backend"],
    example_bad: ex!("--moe-runner-backend lora_triton --lora-paths a=/x"),
    example_good: ex!("--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2"),
};
pub static MOE_RUNNER_QUANT: Rule = Rule {
    code: "LORA017",
    name: kebab!("lora-moe-runner-quantization"),
    sglang: raises("lora_hook.check_lora_moe_runner_args", "--moe-runner-backend {backend} supports unquantized"),
    explanation: expl!("The LoRA MoE runners only have kernels for BF16, block-FP8 and ModelOpt NVFP4 experts."),
    flags: &["--moe-runner-backend", "--quantization"],
    example_bad: ex!("--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2 --quantization awq"),
    example_good: ex!("--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2"),
};
pub static MOE_RUNNER_NVFP4: Rule = Rule {
    code: "LORA018",
    name: kebab!("lora-moe-runner-nvfp4-needs-marlin"),
    sglang: raises("lora_hook.check_lora_moe_runner_args", "--moe-runner-backend {backend} cannot run"),
    explanation: expl!("Only the lora_marlin runner has NVFP4 expert kernels."),
    flags: &["--moe-runner-backend", "--quantization"],
    example_bad: ex!("--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2 --quantization modelopt_fp4"),
    example_good: ex!("--moe-runner-backend lora_marlin --lora-paths a=/x --lora-backend triton_v2 --quantization modelopt_fp4"),
};
pub static MOE_RUNNER_A2A: Rule = Rule {
    code: "LORA019",
    name: kebab!("lora-moe-runner-needs-standard-dispatch"),
    sglang: raises("lora_hook.check_lora_moe_runner_args", "--moe-runner-backend {backend} requires Standard"),
    explanation: expl!("The LoRA MoE runners do not work behind an expert-parallel all-to-all backend."),
    flags: &["--moe-runner-backend", "--moe-a2a-backend"],
    example_bad: ex!("--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2 --tp-size 2 --moe-a2a-backend deepep"),
    example_good: ex!("--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2 --tp-size 2"),
};
pub static MOE_RUNNER_ELASTIC_EP: Rule = Rule {
    code: "LORA020",
    name: kebab!("lora-moe-runner-no-elastic-ep"),
    sglang: raises("lora_hook.check_lora_moe_runner_args", "--moe-runner-backend {backend} does not yet"),
    explanation: expl!("Elastic expert parallelism (joining or recovering ranks) is not supported by the LoRA MoE runners."),
    flags: &["--moe-runner-backend", "--elastic-ep-join-mode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static MOE_RUNNER_TRIVIAL_PLACEMENT: Rule = Rule {
    code: "LORA021",
    name: kebab!("lora-moe-runner-trivial-placement"),
    sglang: raises("lora_hook.check_lora_moe_runner_args", "--moe-runner-backend {backend} currently"),
    explanation: expl!("The LoRA MoE runners attach adapters per expert and need every expert in its default place: no EPLB, no redundant experts, --init-expert-location trivial."),
    flags: &["--moe-runner-backend", "--enable-eplb", "--init-expert-location", "--ep-num-redundant-experts"],
    example_bad: ex!("--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2 --enable-eplb"),
    example_good: ex!("--moe-runner-backend lora_triton --lora-paths a=/x --lora-backend triton_v2"),
};



/// `validate_experimental_sgl_marlin` -> `validate_experimental_sgl_marlin_server_args`.
/// `resolved_view` applies the post-process overrides, so ep_size is the one after `_a2a_ep_size`.
pub fn validate_experimental_sgl_marlin(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.is(f::moe_runner_backend, "experimental_sgl_marlin") {
        return Ok(());
    }
    let a2a = ctx.cfg.str(f::moe_a2a_backend).unwrap_or("none").to_string();
    let ep = if A2A_EP_SPANNING_BACKENDS.contains(&a2a.as_str()) { ctx.cfg.int(f::tp_size).unwrap_or(1) } else { ctx.cfg.int(f::ep_size).unwrap_or(1) };
    if ep > 1 && a2a != "none" {
        let fix = ctx.fix_remove("Drop --moe-a2a-backend", f::moe_a2a_backend, Applicability::Unsafe);
        ctx.raise(&MARLIN_EP_NEEDS_A2A_NONE, &[], &[f::moe_a2a_backend, f::ep_size], vec![fix])?;
    }
    let enable_lora = ctx.cfg.get(f::enable_lora).clone();
    let lora_enabled = enable_lora.truthy() || (enable_lora.is_none() && ctx.cfg.truthy(f::lora_paths));
    if !lora_enabled {
        return Ok(());
    }
    if !ctx.cfg.truthy(f::lora_use_virtual_experts) {
        let fix = ctx.fix_add_flag("Add --lora-use-virtual-experts", f::lora_use_virtual_experts, Applicability::Safe);
        ctx.raise(&MARLIN_LORA_NEEDS_VIRTUAL_EXPERTS, &[], &[f::moe_runner_backend], vec![fix])?;
    }
    if !ctx.cfg.is(f::lora_backend, "triton") {
        let fix = ctx.fix_set("Use --lora-backend triton", f::lora_backend, "triton", Applicability::Safe);
        ctx.raise(&MARLIN_LORA_NEEDS_TRITON, &[], &[f::lora_backend, f::moe_runner_backend], vec![fix])?;
    }
    if ep <= 1 {
        return Ok(());
    }
    if !ctx.cfg.is(f::init_expert_location, "trivial")
        || ctx.cfg.int(f::ep_num_redundant_experts).unwrap_or(0) != 0
        || ctx.cfg.truthy(f::enable_eplb)
        || !ctx.cfg.is_none(f::elastic_ep_backend)
        || ctx.cfg.truthy(f::enable_elastic_expert_backup)
    {
        let mut fixes = vec![];
        for (dest, title) in [
            (f::enable_eplb, "Drop --enable-eplb"),
            (f::ep_num_redundant_experts, "Drop --ep-num-redundant-experts"),
            (f::init_expert_location, "Drop --init-expert-location"),
            (f::elastic_ep_backend, "Drop --elastic-ep-backend"),
            (f::enable_elastic_expert_backup, "Drop --enable-elastic-expert-backup"),
        ] {
            if ctx.cfg.is_explicit(dest) {
                fixes.push(ctx.fix_remove(title, dest, Applicability::Unsafe));
            }
        }
        ctx.raise(
            &MARLIN_EP_TRIVIAL_PLACEMENT,
            &[],
            &[f::enable_eplb, f::ep_num_redundant_experts, f::init_expert_location, f::elastic_ep_backend, f::enable_elastic_expert_backup],
            fixes,
        )?;
    }
    Ok(())
}

/// `_check_v2_lora_modes(cfg, option)`.
fn check_v2_lora_modes(ctx: &mut Ctx, option: &str) -> Step {
    let modes: [(bool, &str, Field); 5] = [
        (ctx.cfg.int(f::attn_dp_size).unwrap_or(1) > 1, "DP-attention with --attn-dp-size > 1", f::attn_dp_size),
        (ctx.cfg.truthy(f::enable_pdmux), "PD-multiplexing", f::enable_pdmux),
        (ctx.cfg.truthy(f::enable_two_batch_overlap), "two-batch overlap", f::enable_two_batch_overlap),
        (ctx.env_bool("SGLANG_EXPERIMENTAL_LORA_OPTI", false), "SGLANG_EXPERIMENTAL_LORA_OPTI", f::lora_backend),
        (ctx.hw.is_hip(), "ROCm", f::lora_backend),
    ];
    for (unsupported, mode, dest) in modes {
        if unsupported {
            // leave out the mode the backend does not support (ROCm is the machine's)
            let fixes = match mode {
                "SGLANG_EXPERIMENTAL_LORA_OPTI" => vec![ctx.fix_unset_env("Unset SGLANG_EXPERIMENTAL_LORA_OPTI", mode, Applicability::Unsafe)],
                "ROCm" => vec![],
                _ => vec![ctx.fix_remove(format!("Remove {}", ctx.flag(dest)), dest, Applicability::Unsafe)],
            };
            ctx.raise(&V2_LORA_MODES, &[("option", &option), ("mode", &mode)], &[dest, f::lora_backend, f::moe_runner_backend], fixes)?;
        }
    }
    Ok(())
}

/// `check_lora_server_args`.
pub fn check_lora_server_args(ctx: &mut Ctx) -> Step {
    if ctx.cfg.int(f::max_loras_per_batch).is_some_and(|v| v <= 0) {
        let fix = ctx.fix_set("Use the default 8", f::max_loras_per_batch, "8", Applicability::Safe);
        ctx.raise(&MAX_LORAS_PER_BATCH, &[], &[f::max_loras_per_batch], vec![fix])?;
    }

    // enable_lora False would log "--enable-lora is set to False, any provided lora_paths will be
    // ignored.": unreachable from a command (store_true, default None; a `enable-lora: false` in
    // a --config file is dropped, measured).
    if ctx.cfg.truthy(f::lora_paths) && ctx.cfg.is_none(f::enable_lora) {
        ctx.cfg.set(f::enable_lora, PyValue::Bool(true));
        let fix = ctx.fix_add_flag("Add --enable-lora explicitly", f::enable_lora, Applicability::Safe);
        ctx.warn(&W_ENABLE_LORA_SET, &[], &[f::lora_paths], vec![fix]);
    }

    if ctx.cfg.truthy(f::enable_lora) {
        // (the runner is read only for triton_v2, as SGLang's `and` reads it)
        if ctx.cfg.is(f::lora_backend, "triton_v2") && !ctx.cfg.str(f::moe_runner_backend).unwrap_or("auto").starts_with("lora") {
            check_v2_lora_modes(ctx, "--lora-backend triton_v2")?;
        }
        if ctx.cfg.is_none(f::enable_lora_overlap_loading) {
            ctx.cfg.set(f::enable_lora_overlap_loading, PyValue::Bool(false));
        }
        let per_batch = ctx.cfg.int(f::max_loras_per_batch).unwrap_or(8);
        let max_loaded = ctx.cfg.int(f::max_loaded_loras);
        if ctx.cfg.truthy(f::enable_lora_overlap_loading) {
            let limit = per_batch * 2;
            if !max_loaded.is_some_and(|m| m <= limit) {
                let fix = ctx.fix_set(format!("Keep at most {limit} adapters loaded"), f::max_loaded_loras, &limit.to_string(), Applicability::Unsafe);
                ctx.raise(
                    &OVERLAP_LOADING_LIMIT,
                    &[("max_loaded_loras_limit", &limit)],
                    &[f::max_loaded_loras, f::enable_lora_overlap_loading],
                    vec![fix],
                )?;
            }
        }

        // 0.5.18: `speculative_algorithm not in ["NGRAM", None]`, inline. Its speculative hook
        // upper-cases the algorithm and renames only aliases (NEXTN -> EAGLE, Gemma 4 drafts ->
        // FROZEN_KV_MTP): NGRAM and None stay themselves, whatever the model.
        if SPECULATIVE_NGRAM_ONLY.applies_to(ctx.release) {
            let alg = ctx.cfg.peek(f::speculative_algorithm).as_str().map(str::to_string);
            if let Some(alg) = alg.filter(|a| !a.eq_ignore_ascii_case("NGRAM")) {
                let fixes = vec![
                    ctx.fix_remove("Drop --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe),
                    ctx.fix_set(format!("Use NGRAM speculative decoding instead of {alg}"), f::speculative_algorithm, "NGRAM", Applicability::Unsafe),
                ];
                ctx.raise(&SPECULATIVE_NGRAM_ONLY, &[], &[f::speculative_algorithm, f::enable_lora, f::lora_paths], fixes)?;
            }
        }
        // check_lora_speculative_compatibility: the speculative hook (not modelled) renames the
        // algorithm (NEXTN -> EAGLE, Gemma4 assistant -> FROZEN_KV_MTP) before this runs.
        else if spec_kind(ctx) == Spec::Other {
            ctx.model_config(site("lora_hook.check_lora_speculative_compatibility", "LoRA is only compatible with NGRAM, EAGLE,"));
        }

        // lora_paths become LoRARef records (same count); None becomes []. Each record gets a
        // fresh random id, so the records SGLang runs with are not known here.
        if ctx.cfg.is_none(f::lora_paths) {
            ctx.cfg.set(f::lora_paths, PyValue::List(vec![]));
        } else if ctx.cfg.truthy(f::lora_paths) {
            ctx.cfg.mark_uncertain(f::lora_paths, "validation_hook.check_server_args", crate::resolved::UnknownReason::NotModelled);
        }

        // Target modules become a set.
        if let Some(mods) = ctx.cfg.get(f::lora_target_modules).as_list().map(<[PyValue]>::to_vec) {
            if !mods.is_empty() {
                let mut set: Vec<PyValue> = Vec::new();
                for m in mods {
                    if !set.contains(&m) {
                        set.push(m);
                    }
                }
                let has_all = set.iter().any(|m| m.as_str() == Some("all"));
                let n = set.len();
                ctx.cfg.set(f::lora_target_modules, PyValue::List(set));
                if has_all && n != 1 {
                    let fix = ctx.fix_set("Keep only 'all'", f::lora_target_modules, "all", Applicability::Safe);
                    ctx.raise(&TARGET_MODULES_ALL, &[], &[f::lora_target_modules], vec![fix])?;
                }
            }
        }

        if !(ctx.cfg.truthy(f::lora_paths) || (ctx.cfg.truthy(f::max_lora_rank) && ctx.cfg.truthy(f::lora_target_modules))) {
            let mut fixes = vec![];
            if !ctx.cfg.truthy(f::max_lora_rank) || !ctx.cfg.truthy(f::lora_target_modules) {
                let mut edit_text = String::new();
                if !ctx.cfg.truthy(f::max_lora_rank) {
                    edit_text.push_str(" --max-lora-rank 64");
                }
                if !ctx.cfg.truthy(f::lora_target_modules) && !ctx.cfg.is_explicit(f::lora_target_modules) {
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
            ctx.raise(&NEEDS_PATHS_OR_SHAPES, &[], &[f::enable_lora, f::max_lora_rank, f::lora_target_modules], fixes)?;
        }

        if let Some(m) = max_loaded {
            if m < per_batch {
                let fixes = vec![
                    ctx.fix_set(format!("Keep {per_batch} adapters loaded"), f::max_loaded_loras, &per_batch.to_string(), Applicability::Safe),
                    ctx.fix_set(format!("Mix at most {m} adapters per batch"), f::max_loras_per_batch, &m.to_string(), Applicability::Unsafe),
                ];
                ctx.raise(
                    &MAX_LOADED_LT_PER_BATCH,
                    &[("cfg.max_loaded_loras", &m), ("cfg.max_loras_per_batch", &per_batch)],
                    &[f::max_loaded_loras, f::max_loras_per_batch],
                    fixes,
                )?;
            }
            let n = ctx.cfg.get(f::lora_paths).as_list().map(<[PyValue]>::len).unwrap_or(0) as i64;
            if n > m {
                let fix = ctx.fix_set(format!("Keep {n} adapters loaded"), f::max_loaded_loras, &n.to_string(), Applicability::Safe);
                ctx.raise(
                    &PATHS_EXCEED_MAX_LOADED,
                    &[("cfg.max_loaded_loras", &m), ("len(cfg.lora_paths)", &n)],
                    &[f::max_loaded_loras, f::lora_paths],
                    vec![fix],
                )?;
            }
        }
        // max_lora_chunk_size: restricted by argparse choices to 16/32/64/128.

        if ctx.cfg.float(f::lora_drain_wait_threshold).is_some_and(|v| v < 0.0) {
            let fix = ctx.fix_set("Use 0", f::lora_drain_wait_threshold, "0", Applicability::Unsafe);
            ctx.raise(&DRAIN_WAIT_THRESHOLD, &[], &[f::lora_drain_wait_threshold], vec![fix])?;
        }
    }

    check_lora_moe_runner_args(ctx)
}

/// `check_lora_moe_runner_args`.
fn check_lora_moe_runner_args(ctx: &mut Ctx) -> Step {
    if ctx.cfg.str(f::speculative_algorithm).is_some() {
        if let Some(b) = ctx.cfg.str(f::speculative_moe_runner_backend).map(str::to_string) {
            if b.starts_with("lora") {
                let fix = ctx.fix_remove("Drop --speculative-moe-runner-backend", f::speculative_moe_runner_backend, Applicability::Safe);
                ctx.raise(
                    &SPEC_MOE_RUNNER_LORA,
                    &[("cfg.speculative_moe_runner_backend", &b)],
                    &[f::speculative_moe_runner_backend],
                    vec![fix],
                )?;
            }
        }
    }
    let backend = ctx.cfg.str(f::moe_runner_backend).unwrap_or("auto").to_string();
    if !backend.starts_with("lora") {
        return Ok(());
    }
    let rb = [f::moe_runner_backend];
    if !ctx.cfg.truthy(f::enable_lora) {
        let fix = ctx.fix_remove("Drop --moe-runner-backend (no LoRA)", f::moe_runner_backend, Applicability::Unsafe);
        ctx.raise(&MOE_RUNNER_NEEDS_LORA, &[("backend", &backend)], &rb, vec![fix])?;
    }
    if !ctx.cfg.is(f::lora_backend, "triton_v2") {
        let fix = ctx.fix_set("Use --lora-backend triton_v2", f::lora_backend, "triton_v2", Applicability::Safe);
        ctx.raise(&MOE_RUNNER_NEEDS_TRITON_V2, &[("backend", &backend)], &[f::lora_backend, f::moe_runner_backend], vec![fix])?;
    }
    check_v2_lora_modes(ctx, &format!("--moe-runner-backend {backend}"))?;
    let quant = ctx.cfg.get(f::quantization).clone();
    if quant.is_none() {
        // The checkpoint's own quantization is filled in from the model config.
        ctx.model_config(site("lora_hook.check_lora_moe_runner_args", "--moe-runner-backend {backend} supports unquantized"));
    }
    if !matches!(quant.as_str(), None | Some("fp8") | Some("modelopt_fp4")) {
        ctx.raise(
            &MOE_RUNNER_QUANT,
            &[("backend", &backend), ("cfg.quantization", &quant.py_str())],
            &[f::quantization],
            // the checkpoint's quantization is the model's: the MoE runner is what can change
            vec![ctx.fix_remove(format!("Remove --moe-runner-backend {backend}"), f::moe_runner_backend, Applicability::Unsafe)],
        )?;
    }
    if quant.as_str() == Some("modelopt_fp4") && backend != "lora_marlin" {
        let fix = ctx.fix_set("Use --moe-runner-backend lora_marlin", f::moe_runner_backend, "lora_marlin", Applicability::Safe);
        ctx.raise(&MOE_RUNNER_NVFP4, &[("backend", &backend)], &rb, vec![fix])?;
    }
    let a2a = ctx.cfg.str(f::moe_a2a_backend).unwrap_or("none").to_string();
    if a2a != "none" {
        let fix = ctx.fix_remove("Drop --moe-a2a-backend", f::moe_a2a_backend, Applicability::Unsafe);
        ctx.raise(&MOE_RUNNER_A2A, &[("backend", &backend), ("cfg.moe_a2a_backend", &a2a)], &[f::moe_a2a_backend], vec![fix])?;
    }
    if !ctx.cfg.is_none(f::ep_join_mode) {
        let fix = ctx.fix_remove(format!("Remove --moe-runner-backend {backend}"), f::moe_runner_backend, Applicability::Unsafe);
        ctx.raise(&MOE_RUNNER_ELASTIC_EP, &[("backend", &backend)], &[f::ep_join_mode], vec![fix])?;
    }
    if ctx.cfg.truthy(f::enable_eplb) || !ctx.cfg.is(f::init_expert_location, "trivial") || ctx.cfg.int(f::ep_num_redundant_experts).unwrap_or(0) > 0 {
        let mut fixes = vec![];
        for (dest, title) in [
            (f::enable_eplb, "Drop --enable-eplb"),
            (f::init_expert_location, "Drop --init-expert-location"),
            (f::ep_num_redundant_experts, "Drop --ep-num-redundant-experts"),
        ] {
            if ctx.cfg.is_explicit(dest) {
                fixes.push(ctx.fix_remove(title, dest, Applicability::Unsafe));
            }
        }
        ctx.raise(
            &MOE_RUNNER_TRIVIAL_PLACEMENT,
            &[("backend", &backend)],
            &[f::enable_eplb, f::init_expert_location, f::ep_num_redundant_experts],
            fixes,
        )?;
    }
    Ok(())
}

/// Every rule in this family.
pub static RULES: &[&Rule] = &[
    &MARLIN_EP_NEEDS_A2A_NONE,
    &MARLIN_LORA_NEEDS_VIRTUAL_EXPERTS,
    &MARLIN_LORA_NEEDS_TRITON,
    &MARLIN_EP_TRIVIAL_PLACEMENT,
    &MAX_LORAS_PER_BATCH,
    &W_ENABLE_LORA_SET,
    &V2_LORA_MODES,
    &OVERLAP_LOADING_LIMIT,
    &SPECULATIVE_NGRAM_ONLY,
    &TARGET_MODULES_ALL,
    &NEEDS_PATHS_OR_SHAPES,
    &MAX_LOADED_LT_PER_BATCH,
    &PATHS_EXCEED_MAX_LOADED,
    &DRAIN_WAIT_THRESHOLD,
    &SPEC_MOE_RUNNER_LORA,
    &MOE_RUNNER_NEEDS_LORA,
    &MOE_RUNNER_NEEDS_TRITON_V2,
    &MOE_RUNNER_QUANT,
    &MOE_RUNNER_NVFP4,
    &MOE_RUNNER_A2A,
    &MOE_RUNNER_ELASTIC_EP,
    &MOE_RUNNER_TRIVIAL_PLACEMENT,
];

/// Old code -> current code, for the LoRA rules that were part of the validation family.
pub const REDIRECTS: &[(&str, &str)] = &[
    ("VAL013", "LORA001"),
    ("VAL014", "LORA002"),
    ("VAL015", "LORA003"),
    ("VAL016", "LORA004"),
    ("VAL080", "LORA005"),
    ("VAL081", "LORA006"),
    ("VAL083", "LORA007"),
    ("VAL084", "LORA008"),
    ("VAL085", "LORA009"),
    ("VAL086", "LORA010"),
    ("VAL087", "LORA011"),
    ("VAL088", "LORA012"),
    ("VAL089", "LORA013"),
    ("VAL090", "LORA014"),
    ("VAL091", "LORA015"),
    ("VAL092", "LORA016"),
    ("VAL093", "LORA017"),
    ("VAL094", "LORA018"),
    ("VAL095", "LORA019"),
    ("VAL096", "LORA020"),
    ("VAL097", "LORA021"),
];
