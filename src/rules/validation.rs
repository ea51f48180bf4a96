//! Rules from SGLang's `sglang/srt/arg_groups/validation_hook.py`: the pipeline validators
//! (stage resolve) and `check_server_args` (stage check, run right after resolution).
//!
//! Submodule `check.rs`: `check_server_args` and its helpers. It calls
//! `lora_hook.check_lora_server_args` midway; the pipeline runs that (the `lora` family) between
//! the two halves.

pub mod check;

use super::{raises, Ctx, Rule, Step};
use crate::diagnostic::Applicability;
use crate::fields::f;
use crate::pyvalue::PyValue;

pub static PREFILL_DECODE_INTERVAL_NEGATIVE: Rule = Rule {
    code: "VAL001",
    name: kebab!("prefill-decode-interval-negative"),
    sglang: raises("validation_hook.validate_prefill_decode_interval", "--prefill-decode-interval must be non-negative."),
    explanation: expl!("--prefill-decode-interval is how many decode steps run between prefills; a negative count has no meaning."),
    flags: &["--prefill-decode-interval"],
    example_bad: ex!("--prefill-decode-interval -1"),
    example_good: ex!("--prefill-decode-interval 0"),
};
pub static PREFILL_DECODE_INTERVAL_MIN_BS_NEGATIVE: Rule = Rule {
    code: "VAL002",
    name: kebab!("prefill-decode-interval-min-bs-negative"),
    sglang: raises("validation_hook.validate_prefill_decode_interval", "--prefill-decode-interval-min-bs must be"),
    explanation: expl!("The minimum batch size at which the prefill/decode interval applies cannot be negative."),
    flags: &["--prefill-decode-interval-min-bs"],
    example_bad: ex!("--prefill-decode-interval-min-bs -1"),
    example_good: ex!("--prefill-decode-interval-min-bs 0"),
};
pub static RESPONSE_STORE_WITH_PD: Rule = Rule {
    code: "VAL003",
    name: kebab!("response-store-not-with-pd-disaggregation"),
    sglang: raises("validation_hook.validate_response_store", "--enable-response-store is not supported"),
    explanation: expl!("The response store keeps finished responses on the server; prefill/decode disaggregated servers cannot keep it, so the two options exclude each other."),
    flags: &["--enable-response-store", "--disaggregation-mode"],
    example_bad: ex!("--enable-response-store --disaggregation-mode prefill"),
    example_good: ex!("--disaggregation-mode prefill"),
};
pub static SAMPLING_MASK_ENV_REMOVED: Rule = Rule {
    code: "VAL004",
    name: kebab!("sampling-mask-max-tokens-env-removed"),
    sglang: raises("validation_hook.validate_sampling_mask_max_tokens", "SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS"),
    explanation: expl!("The environment variable SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS was replaced by the --sampling-mask-max-tokens flag; SGLang refuses to start while it is set (to any value)."),
    flags: &["--sampling-mask-max-tokens"],
    example_bad: ex!("SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS=4096 python -m sglang.launch_server --model-path m"),
    example_good: ex!("python -m sglang.launch_server --model-path m --sampling-mask-max-tokens 4096"),
};
pub static SAMPLING_MASK_MAX_TOKENS_NOT_POSITIVE: Rule = Rule {
    code: "VAL005",
    name: kebab!("sampling-mask-max-tokens-not-positive"),
    sglang: raises("validation_hook.validate_sampling_mask_max_tokens", "--sampling-mask-max-tokens must be positive"),
    explanation: expl!("--sampling-mask-max-tokens sizes the sampling-mask buffer; it must be at least 1."),
    flags: &["--sampling-mask-max-tokens"],
    example_bad: ex!("--sampling-mask-max-tokens 0"),
    example_good: ex!("--sampling-mask-max-tokens 4096"),
};
pub static AUX_LAYER_IDS_WITHOUT_ENABLE: Rule = Rule {
    code: "VAL006",
    name: kebab!("aux-hidden-state-layer-ids-need-enable"),
    sglang: raises("validation_hook.handle_aux_hidden_state_capture", "--return-aux-hidden-state-layer-ids requires"),
    explanation: expl!("Choosing which layers' hidden states to capture only makes sense when auxiliary hidden-state capture is switched on."),
    flags: &["--return-aux-hidden-state-layer-ids", "--enable-return-aux-hidden-states"],
    example_bad: ex!("--return-aux-hidden-state-layer-ids 1 2"),
    example_good: ex!("--return-aux-hidden-state-layer-ids 1 2 --enable-return-aux-hidden-states --speculative-algorithm EAGLE3"),
};
pub static AUX_CAPTURE_NEEDS_METHOD: Rule = Rule {
    code: "VAL007",
    name: kebab!("aux-hidden-state-capture-needs-method"),
    sglang: raises("validation_hook.handle_aux_hidden_state_capture", "--enable-return-aux-hidden-states needs --speculative-algorithm"),
    explanation: expl!("With --enable-return-aux-hidden-states, --speculative-algorithm does not start speculative decoding: it names which draft family's hidden-state layout to capture, and only EAGLE3, DFLASH and DSPARK have one."),
    flags: &["--enable-return-aux-hidden-states", "--speculative-algorithm"],
    example_bad: ex!("--enable-return-aux-hidden-states"),
    example_good: ex!("--enable-return-aux-hidden-states --speculative-algorithm EAGLE3"),
};
pub static AUX_CAPTURE_NO_DRAFT: Rule = Rule {
    code: "VAL008",
    name: kebab!("aux-hidden-state-capture-without-draft"),
    sglang: raises("validation_hook.handle_aux_hidden_state_capture", "--enable-return-aux-hidden-states captures"),
    explanation: expl!("Auxiliary hidden-state capture runs the target model alone (to feed an external draft trainer or server), so a draft model path is contradictory."),
    flags: &["--enable-return-aux-hidden-states", "--speculative-draft-model-path"],
    example_bad: ex!("--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --speculative-draft-model-path d"),
    example_good: ex!("--enable-return-aux-hidden-states --speculative-algorithm EAGLE3"),
};
pub static AUX_CAPTURE_PP: Rule = Rule {
    code: "VAL009",
    name: kebab!("aux-hidden-state-capture-needs-pp-1"),
    sglang: raises("validation_hook.handle_aux_hidden_state_capture", "--enable-return-aux-hidden-states only supports"),
    explanation: expl!("Capture hooks are installed on the last pipeline stage only, so layers on earlier stages would be missed under pipeline parallelism."),
    flags: &["--enable-return-aux-hidden-states", "--pp-size"],
    example_bad: ex!("--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --pp-size 2"),
    example_good: ex!("--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --tp-size 2"),
};
pub static AUX_CAPTURE_NEEDS_LAYER_IDS: Rule = Rule {
    code: "VAL010",
    name: kebab!("aux-hidden-state-capture-needs-layer-ids"),
    sglang: raises("validation_hook.handle_aux_hidden_state_capture", "--enable-return-aux-hidden-states with {method}"),
    explanation: expl!("Only EAGLE3 has a default set of capture layers; DFLASH and DSPARK need the layer ids spelled out."),
    flags: &["--enable-return-aux-hidden-states", "--return-aux-hidden-state-layer-ids"],
    example_bad: ex!("--enable-return-aux-hidden-states --speculative-algorithm DFLASH"),
    example_good: ex!("--enable-return-aux-hidden-states --speculative-algorithm DFLASH --return-aux-hidden-state-layer-ids 1 15 29"),
};
pub static AUX_LAYER_IDS_NEGATIVE: Rule = Rule {
    code: "VAL011",
    name: kebab!("aux-hidden-state-layer-ids-negative"),
    sglang: raises("validation_hook.handle_aux_hidden_state_capture", "--return-aux-hidden-state-layer-ids must be"),
    explanation: expl!("Layer ids index the model's decoder layers from 0; negative (from-the-end) indices are not accepted."),
    flags: &["--return-aux-hidden-state-layer-ids"],
    example_bad: ex!("--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --return-aux-hidden-state-layer-ids 1 -2"),
    example_good: ex!("--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --return-aux-hidden-state-layer-ids 1 2"),
};
pub static AUX_LAYER_IDS_REPEATED: Rule = Rule {
    code: "VAL012",
    name: kebab!("aux-hidden-state-layer-ids-repeated"),
    sglang: raises("validation_hook.handle_aux_hidden_state_capture", "--return-aux-hidden-state-layer-ids must not repeat"),
    explanation: expl!("Each capture layer may be listed once."),
    flags: &["--return-aux-hidden-state-layer-ids"],
    example_bad: ex!("--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --return-aux-hidden-state-layer-ids 1 1"),
    example_good: ex!("--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --return-aux-hidden-state-layer-ids 1 2"),
};

/// Every rule in this family.
pub static RULES: &[&Rule] = &[
    &PREFILL_DECODE_INTERVAL_NEGATIVE,
    &PREFILL_DECODE_INTERVAL_MIN_BS_NEGATIVE,
    &RESPONSE_STORE_WITH_PD,
    &SAMPLING_MASK_ENV_REMOVED,
    &SAMPLING_MASK_MAX_TOKENS_NOT_POSITIVE,
    &AUX_LAYER_IDS_WITHOUT_ENABLE,
    &AUX_CAPTURE_NEEDS_METHOD,
    &AUX_CAPTURE_NO_DRAFT,
    &AUX_CAPTURE_PP,
    &AUX_CAPTURE_NEEDS_LAYER_IDS,
    &AUX_LAYER_IDS_NEGATIVE,
    &AUX_LAYER_IDS_REPEATED,
    &check::TP_NOT_DIVISIBLE_BY_NNODES,
    &check::PP_MAX_MICRO_BATCH_SIZE,
    &check::CUDA_GRAPH_PADDING_TORCH_COMPILE,
    &check::PP_MIN_FREE_SLOTS_DELAY,
    &check::PP_SPEC_EAGLE_ONLY,
    &check::MIXED_CHUNK_SPEC,
    &check::WATERMARK_SPEC_ALGORITHM,
    &check::WATERMARK_PP_SPEC,
    &check::PP_SPEC_DSPARK,
    &check::PP_SPEC_DISAGGREGATION,
    &check::PP_SPEC_ADAPTIVE,
    &check::PP_SPEC_ATTN_DP,
    &check::PP_SPEC_PREFILL_ONLY,
    &check::MULTI_NODE_DP,
    &check::PP_OVERLAP_OR_SPEC,
    &check::PP_MIN_FREE_SLOTS_DELAY_CHECK,
    &check::MULTI_NODE_DP_WITHOUT_DP_ATTENTION,
    &check::MIXED_CHUNK_WITH_SPEC,
    &check::BASE_GPU_ID_NEGATIVE,
    &check::GPU_ID_STEP,
    &check::MOE_DENSE_TP_SIZE,
    &check::SERVED_MODEL_NAME_COLON,
    &check::CHUNKED_PREFILL_PAGE_SIZE,
    &check::PDMUX_PP,
    &check::PDMUX_CHUNKED_PREFILL,
    &check::PDMUX_DISAGGREGATION,
    &check::PDMUX_OVERLAP,
    &check::TOKENIZER_WORKER_NUM,
    &check::DETOKENIZER_WORKER_NUM,
    &check::MM_PROCESSOR_WORKER_NUM,
    &check::MM_IO_WORKER_NUM,
    &check::BUCKETS_RULE_TYPE,
    &check::BUCKETS_TSE_LEN,
    &check::BUCKETS_TSE_PARAMS,
    &check::BUCKETS_TSE_BASE,
    &check::BUCKETS_TSE_COUNT,
    &check::BUCKETS_TSE_MIDDLE,
    &check::BUCKETS_DEFAULT_LEN,
    &check::BUCKETS_CUSTOM_LEN,
    &check::BUCKETS_CUSTOM_NUMERIC,
    &check::BUCKETS_CUSTOM_DUPLICATES,
    &check::BUCKETS_CUSTOM_NEGATIVE,
    &check::PRIORITY_SCHEDULE_POLICY,
    &check::W_PRIORITY_NO_DEFAULT,
    &check::W_PRIORITY_PREEMPTION_NO_EFFECT,
    &check::W_DEFAULT_PRIORITY_NO_EFFECT,
    &check::RETRACTION_PRIORITY,
    &check::HISPARSE_MODEL,
    &check::SCHEDULE_CONSERVATIVENESS,
    &check::MINDSPORE_NPU,
    &check::INSTANTTENSOR_DEVICE,
    &check::METRICS_LABELS_HEADER,
    &check::EXPORT_METRICS_DIR,
    &check::TWO_BATCH_OVERLAP,
    &check::QUANT_COMM_TP,
    &check::QUANT_COMM_NPU,
    &check::SAMPLING_BACKEND_XPU,
    &check::GRPC_PORT_EQUALS_PORT,
    &check::GC_THRESHOLD_LEN,
    &check::KV_CANARY_SWEEP,
    &check::WATERMARK_DEVICE,
    &check::WATERMARK_CUSTOM_LOGIT,
    &check::WATERMARK_SAMPLING_BACKEND,
    &check::WATERMARK_DLLM,
    &check::WATERMARK_PD,
    &check::WATERMARK_REJECTION_SAMPLING,
    &check::WATERMARK_RUST_SERVER,
    &check::NNODES_ZERO,
    &check::PAGE_SIZE_ZERO,
    &check::WATERMARK_CONFIG_NEEDS_ENABLE,
    &check::WATERMARK_KEY_B_NEEDS_KEY,
    &check::WATERMARK_MIXING_RANGE,
    &check::WATERMARK_MIXING_NEEDS_KEY_B,
    &check::WATERMARK_MAX_PROBABILITY_RANGE,
    &check::WATERMARK_DEFAULTS_NEED_KEY,
    &check::LOAD_PUBLISH_NEEDS_KV_EVENTS,
    &check::LOAD_PUBLISH_INACTIVE_PUBLISHER,
    &check::KV_EVENTS_CONFIG_NOT_PARSEABLE,
    &check::LOAD_PUBLISH_RANGE_UNUSABLE,
];

/// `validate_prefill_decode_interval`.
pub fn validate_prefill_decode_interval(ctx: &mut Ctx) -> Step {
    if let Some(v) = ctx.cfg.int(f::prefill_decode_interval) {
        if v < 0 {
            let fix = ctx.fix_set("Use 0 (no interval)", f::prefill_decode_interval, "0", Applicability::Unsafe);
            ctx.raise(&PREFILL_DECODE_INTERVAL_NEGATIVE, &[], &[f::prefill_decode_interval], vec![fix])?;
        }
    }
    if ctx.cfg.int(f::prefill_decode_interval_min_bs).is_some_and(|v| v < 0) {
        let fix = ctx.fix_set("Use 0", f::prefill_decode_interval_min_bs, "0", Applicability::Unsafe);
        ctx.raise(&PREFILL_DECODE_INTERVAL_MIN_BS_NEGATIVE, &[], &[f::prefill_decode_interval_min_bs], vec![fix])?;
    }
    Ok(())
}

/// `validate_response_store`.
pub fn validate_response_store(ctx: &mut Ctx) -> Step {
    if ctx.cfg.truthy(f::enable_response_store) && !ctx.cfg.is(f::disaggregation_mode, "null") {
        let fixes = vec![
            ctx.fix_remove("Drop --enable-response-store (keep PD disaggregation)", f::enable_response_store, Applicability::Unsafe),
            ctx.fix_remove("Drop --disaggregation-mode (keep the response store)", f::disaggregation_mode, Applicability::Unsafe),
        ];
        ctx.raise(&RESPONSE_STORE_WITH_PD, &[], &[f::enable_response_store, f::disaggregation_mode], fixes)?;
    }
    Ok(())
}

/// `validate_sampling_mask_max_tokens`.
pub fn validate_sampling_mask_max_tokens(ctx: &mut Ctx) -> Step {
    // `envs.X.is_set()`: set to anything, even "".
    if ctx.env("SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS").is_some() {
        let fixes = vec![ctx.fix_unset_env("Unset SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS (use --sampling-mask-max-tokens)", "SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS", Applicability::Safe)];
        ctx.raise(&SAMPLING_MASK_ENV_REMOVED, &[], &[], fixes)?;
    }
    let v = ctx.cfg.get(f::sampling_mask_max_tokens).clone();
    if v.as_int().is_some_and(|n| n <= 0) {
        let fix = ctx.fix_set("Use the default 4096", f::sampling_mask_max_tokens, "4096", Applicability::Unsafe);
        ctx.raise(
            &SAMPLING_MASK_MAX_TOKENS_NOT_POSITIVE,
            &[("cfg.sampling_mask_max_tokens", &v.py_str())],
            &[f::sampling_mask_max_tokens],
            vec![fix],
        )?;
    }
    Ok(())
}

/// `handle_aux_hidden_state_capture`.
pub fn handle_aux_hidden_state_capture(ctx: &mut Ctx) -> Step {
    let dests = [f::enable_return_aux_hidden_states];
    if !ctx.cfg.truthy(f::enable_return_aux_hidden_states) {
        if !ctx.cfg.is_none(f::return_aux_hidden_state_layer_ids) {
            let fixes = vec![
                {
                    // Capture also needs a method to name the layout (checked next).
                    let spec = ctx.cfg.str(f::speculative_algorithm).map(str::to_uppercase);
                    let mut fix = ctx.fix_add_flag("Enable aux hidden-state capture", f::enable_return_aux_hidden_states, Applicability::Unsafe);
                    if !matches!(spec.as_deref(), Some("EAGLE3" | "DFLASH" | "DSPARK")) && !ctx.cfg.is_explicit(f::speculative_algorithm) {
                        fix.title = "Enable aux hidden-state capture with the EAGLE3 layout".into();
                        for e in &mut fix.edits {
                            e.replacement.push_str(" --speculative-algorithm EAGLE3");
                        }
                    }
                    fix
                },
                ctx.fix_remove("Drop --return-aux-hidden-state-layer-ids", f::return_aux_hidden_state_layer_ids, Applicability::Unsafe),
            ];
            ctx.raise(&AUX_LAYER_IDS_WITHOUT_ENABLE, &[], &[f::return_aux_hidden_state_layer_ids], fixes)?;
        }
        return Ok(());
    }
    let spec = ctx.cfg.get(f::speculative_algorithm).clone();
    let method = spec.as_str().unwrap_or("").to_uppercase();
    if !matches!(method.as_str(), "EAGLE3" | "DFLASH" | "DSPARK") {
        let fix = ctx.fix_set("Name the EAGLE3 capture convention", f::speculative_algorithm, "EAGLE3", Applicability::Unsafe);
        ctx.raise(
            &AUX_CAPTURE_NEEDS_METHOD,
            &[("cfg.speculative_algorithm", &spec.repr())],
            &[f::speculative_algorithm, f::enable_return_aux_hidden_states],
            vec![fix],
        )?;
    }
    if !ctx.cfg.is_none(f::speculative_draft_model_path) {
        let fix = ctx.fix_remove("Drop --speculative-draft-model-path", f::speculative_draft_model_path, Applicability::Safe);
        ctx.raise(&AUX_CAPTURE_NO_DRAFT, &[], &[f::speculative_draft_model_path], vec![fix])?;
    }
    if ctx.cfg.int(f::pp_size) != Some(1) {
        let fix = ctx.fix_set("Use --pp-size 1", f::pp_size, "1", Applicability::Unsafe);
        ctx.raise(&AUX_CAPTURE_PP, &[], &[f::pp_size], vec![fix])?;
    }
    let layer_ids = ctx.cfg.get(f::return_aux_hidden_state_layer_ids).clone();
    if method != "EAGLE3" && !layer_ids.truthy() {
        ctx.raise(
            &AUX_CAPTURE_NEEDS_LAYER_IDS,
            &[("method", &method)],
            &dests,
            // the layers are the model's to name: the edit can only turn the capture off
            vec![ctx.fix_remove("Remove --enable-return-aux-hidden-states", f::enable_return_aux_hidden_states, Applicability::Unsafe)],
        )?;
    }
    if let Some(ids) = layer_ids.as_list() {
        // `len(layer_ids) == 0` is unreachable from the CLI (nargs="+").
        let ints: Vec<i64> = ids.iter().filter_map(PyValue::as_int).collect();
        if ints.iter().any(|&i| i < 0) {
            let kept: Vec<String> = ints.iter().filter(|&&i| i >= 0).map(i64::to_string).collect();
            let fix = if kept.is_empty() {
                ctx.fix_remove("Remove --return-aux-hidden-state-layer-ids", f::return_aux_hidden_state_layer_ids, Applicability::Unsafe)
            } else {
                ctx.fix_set("Drop the negative layer ids", f::return_aux_hidden_state_layer_ids, &kept.join(" "), Applicability::Unsafe)
            };
            ctx.raise(
                &AUX_LAYER_IDS_NEGATIVE,
                &[("list(layer_ids)", &layer_ids.repr())],
                &[f::return_aux_hidden_state_layer_ids],
                vec![fix],
            )?;
        }
        let mut seen = std::collections::HashSet::new();
        if !ints.iter().all(|i| seen.insert(*i)) {
            let mut dedup: Vec<String> = Vec::new();
            for i in &ints {
                let s = i.to_string();
                if !dedup.contains(&s) {
                    dedup.push(s);
                }
            }
            let fix = ctx.fix_set(
                "List each layer once",
                f::return_aux_hidden_state_layer_ids,
                &dedup.join(" "),
                Applicability::Safe,
            );
            ctx.raise(
                &AUX_LAYER_IDS_REPEATED,
                &[("list(layer_ids)", &layer_ids.repr())],
                &[f::return_aux_hidden_state_layer_ids],
                vec![fix],
            )?;
        }
    }
    ctx.cfg.set(f::speculative_algorithm, PyValue::None);
    ctx.cfg.set(f::aux_hidden_state_capture, PyValue::Str(method.to_lowercase()));
    Ok(())
}

/// `default_unset_prefill_decode_interval`: an unset interval becomes 0 (Qwen3-VL on Hopper
/// may have picked 22 earlier in `model_hook`, not modelled).
pub fn default_unset_prefill_decode_interval(ctx: &mut Ctx) -> Step {
    if ctx.cfg.is_none(f::prefill_decode_interval) {
        ctx.cfg.set(f::prefill_decode_interval, PyValue::Int(0));
    }
    Ok(())
}

pub use check::{check_server_args, check_server_args_after_lora};
