//! Rules from SGLang's `sglang/srt/arg_groups/validation_hook.py`: the pipeline validators
//! (stage resolve) and `check_server_args` (stage check, run right after resolution).
//!
//! Submodules: `check.rs` (`check_server_args` and its helpers), `lora.rs`
//! (`lora_hook.check_lora_server_args`, called from `check_server_args`, and the
//! experimental Marlin policy), `meta.rs` (the `rule!` macro).

#[macro_use]
mod meta;
pub mod check;
pub mod lora;

use super::{Ctx, Rule};
use crate::diagnostic::Applicability;
use crate::pyvalue::PyValue;

rule!(PREFILL_DECODE_INTERVAL_NEGATIVE, "VAL001", "prefill-decode-interval-negative",
    "validation_hook.validate_prefill_decode_interval#1", "sglang/srt/arg_groups/validation_hook.py",
    "validate_prefill_decode_interval", "ValueError", Resolve,
    "--prefill-decode-interval must be non-negative.",
    "--prefill-decode-interval is how many decode steps run between prefills; a negative count has no meaning.",
    ["--prefill-decode-interval"], "--prefill-decode-interval -1", "--prefill-decode-interval 0");
rule!(PREFILL_DECODE_INTERVAL_MIN_BS_NEGATIVE, "VAL002", "prefill-decode-interval-min-bs-negative",
    "validation_hook.validate_prefill_decode_interval#2", "sglang/srt/arg_groups/validation_hook.py",
    "validate_prefill_decode_interval", "ValueError", Resolve,
    "--prefill-decode-interval-min-bs must be non-negative.",
    "The minimum batch size at which the prefill/decode interval applies cannot be negative.",
    ["--prefill-decode-interval-min-bs"], "--prefill-decode-interval-min-bs -1", "--prefill-decode-interval-min-bs 0");
rule!(RESPONSE_STORE_WITH_PD, "VAL003", "response-store-not-with-pd-disaggregation",
    "validation_hook.validate_response_store#1", "sglang/srt/arg_groups/validation_hook.py",
    "validate_response_store", "ValueError", Resolve,
    "--enable-response-store is not supported with --disaggregation-mode=prefill or decode; response storage must remain disabled in PD mode.",
    "The response store keeps finished responses on the server; prefill/decode disaggregated servers cannot keep it, so the two options exclude each other.",
    ["--enable-response-store", "--disaggregation-mode"],
    "--enable-response-store --disaggregation-mode prefill", "--disaggregation-mode prefill");
rule!(SAMPLING_MASK_ENV_REMOVED, "VAL004", "sampling-mask-max-tokens-env-removed",
    "validation_hook.validate_sampling_mask_max_tokens#1", "sglang/srt/arg_groups/validation_hook.py",
    "validate_sampling_mask_max_tokens", "ValueError", Resolve,
    "SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS is no longer supported. Unset it. To enable sampling masks for disaggregated serving, set SGLANG_ENABLE_DISAGG_SAMPLING_MASK=1 and use the same positive --sampling-mask-max-tokens value on both prefill and decode servers.",
    "The environment variable SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS was replaced by the --sampling-mask-max-tokens flag; SGLang refuses to start while it is set (to any value).",
    ["--sampling-mask-max-tokens"],
    "SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS=4096 python -m sglang.launch_server --model-path m",
    "python -m sglang.launch_server --model-path m --sampling-mask-max-tokens 4096");
rule!(SAMPLING_MASK_MAX_TOKENS_NOT_POSITIVE, "VAL005", "sampling-mask-max-tokens-not-positive",
    "validation_hook.validate_sampling_mask_max_tokens#2", "sglang/srt/arg_groups/validation_hook.py",
    "validate_sampling_mask_max_tokens", "ValueError", Resolve,
    "--sampling-mask-max-tokens must be positive (got {cfg.sampling_mask_max_tokens}).",
    "--sampling-mask-max-tokens sizes the sampling-mask buffer; it must be at least 1.",
    ["--sampling-mask-max-tokens"], "--sampling-mask-max-tokens 0", "--sampling-mask-max-tokens 4096");
rule!(AUX_LAYER_IDS_WITHOUT_ENABLE, "VAL006", "aux-hidden-state-layer-ids-need-enable",
    "validation_hook.handle_aux_hidden_state_capture#1", "sglang/srt/arg_groups/validation_hook.py",
    "handle_aux_hidden_state_capture", "ValueError", Resolve,
    "--return-aux-hidden-state-layer-ids requires --enable-return-aux-hidden-states.",
    "Choosing which layers' hidden states to capture only makes sense when auxiliary hidden-state capture is switched on.",
    ["--return-aux-hidden-state-layer-ids", "--enable-return-aux-hidden-states"],
    "--return-aux-hidden-state-layer-ids 1 2",
    "--return-aux-hidden-state-layer-ids 1 2 --enable-return-aux-hidden-states --speculative-algorithm EAGLE3");
rule!(AUX_CAPTURE_NEEDS_METHOD, "VAL007", "aux-hidden-state-capture-needs-method",
    "validation_hook.handle_aux_hidden_state_capture#2", "sglang/srt/arg_groups/validation_hook.py",
    "handle_aux_hidden_state_capture", "ValueError", Resolve,
    "--enable-return-aux-hidden-states needs --speculative-algorithm EAGLE3, DFLASH or DSPARK to name the capture convention, got {cfg.speculative_algorithm!r}.",
    "With --enable-return-aux-hidden-states, --speculative-algorithm does not start speculative decoding: it names which draft family's hidden-state layout to capture, and only EAGLE3, DFLASH and DSPARK have one.",
    ["--enable-return-aux-hidden-states", "--speculative-algorithm"],
    "--enable-return-aux-hidden-states", "--enable-return-aux-hidden-states --speculative-algorithm EAGLE3");
rule!(AUX_CAPTURE_NO_DRAFT, "VAL008", "aux-hidden-state-capture-without-draft",
    "validation_hook.handle_aux_hidden_state_capture#3", "sglang/srt/arg_groups/validation_hook.py",
    "handle_aux_hidden_state_capture", "ValueError", Resolve,
    "--enable-return-aux-hidden-states captures without a draft; drop --speculative-draft-model-path.",
    "Auxiliary hidden-state capture runs the target model alone (to feed an external draft trainer or server), so a draft model path is contradictory.",
    ["--enable-return-aux-hidden-states", "--speculative-draft-model-path"],
    "--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --speculative-draft-model-path d",
    "--enable-return-aux-hidden-states --speculative-algorithm EAGLE3");
rule!(AUX_CAPTURE_PP, "VAL009", "aux-hidden-state-capture-needs-pp-1",
    "validation_hook.handle_aux_hidden_state_capture#4", "sglang/srt/arg_groups/validation_hook.py",
    "handle_aux_hidden_state_capture", "ValueError", Resolve,
    "--enable-return-aux-hidden-states only supports pp_size == 1: the capture hooks only see the layers on the last pipeline rank.",
    "Capture hooks are installed on the last pipeline stage only, so layers on earlier stages would be missed under pipeline parallelism.",
    ["--enable-return-aux-hidden-states", "--pp-size"],
    "--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --pp-size 2",
    "--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --tp-size 2");
rule!(AUX_CAPTURE_NEEDS_LAYER_IDS, "VAL010", "aux-hidden-state-capture-needs-layer-ids",
    "validation_hook.handle_aux_hidden_state_capture#5", "sglang/srt/arg_groups/validation_hook.py",
    "handle_aux_hidden_state_capture", "ValueError", Resolve,
    "--enable-return-aux-hidden-states with {method} requires --return-aux-hidden-state-layer-ids.",
    "Only EAGLE3 has a default set of capture layers; DFLASH and DSPARK need the layer ids spelled out.",
    ["--enable-return-aux-hidden-states", "--return-aux-hidden-state-layer-ids"],
    "--enable-return-aux-hidden-states --speculative-algorithm DFLASH",
    "--enable-return-aux-hidden-states --speculative-algorithm DFLASH --return-aux-hidden-state-layer-ids 1 15 29");
rule!(AUX_LAYER_IDS_NEGATIVE, "VAL011", "aux-hidden-state-layer-ids-negative",
    "validation_hook.handle_aux_hidden_state_capture#7", "sglang/srt/arg_groups/validation_hook.py",
    "handle_aux_hidden_state_capture", "ValueError", Resolve,
    "--return-aux-hidden-state-layer-ids must be non-negative, got {list(layer_ids)}.",
    "Layer ids index the model's decoder layers from 0; negative (from-the-end) indices are not accepted.",
    ["--return-aux-hidden-state-layer-ids"],
    "--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --return-aux-hidden-state-layer-ids 1 -2",
    "--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --return-aux-hidden-state-layer-ids 1 2");
rule!(AUX_LAYER_IDS_REPEATED, "VAL012", "aux-hidden-state-layer-ids-repeated",
    "validation_hook.handle_aux_hidden_state_capture#8", "sglang/srt/arg_groups/validation_hook.py",
    "handle_aux_hidden_state_capture", "ValueError", Resolve,
    "--return-aux-hidden-state-layer-ids must not repeat a layer, got {list(layer_ids)}.",
    "Each capture layer may be listed once.",
    ["--return-aux-hidden-state-layer-ids"],
    "--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --return-aux-hidden-state-layer-ids 1 1",
    "--enable-return-aux-hidden-states --speculative-algorithm EAGLE3 --return-aux-hidden-state-layer-ids 1 2");

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
    &lora::MARLIN_EP_NEEDS_A2A_NONE,
    &lora::MARLIN_LORA_NEEDS_VIRTUAL_EXPERTS,
    &lora::MARLIN_LORA_NEEDS_TRITON,
    &lora::MARLIN_EP_TRIVIAL_PLACEMENT,
    &check::TP_NOT_DIVISIBLE_BY_NNODES,
    &check::PP_MAX_MICRO_BATCH_SIZE,
    &check::CUDA_GRAPH_PADDING_TORCH_COMPILE,
    &check::PP_MIN_FREE_SLOTS_DELAY,
    &check::PP_SPEC_EAGLE_ONLY,
    &check::MULTI_NODE_DP,
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
    &lora::MAX_LORAS_PER_BATCH,
    &lora::W_ENABLE_LORA_SET,
    &lora::V2_LORA_MODES,
    &lora::OVERLAP_LOADING_LIMIT,
    &lora::TARGET_MODULES_ALL,
    &lora::NEEDS_PATHS_OR_SHAPES,
    &lora::MAX_LOADED_LT_PER_BATCH,
    &lora::PATHS_EXCEED_MAX_LOADED,
    &lora::DRAIN_WAIT_THRESHOLD,
    &lora::SPEC_MOE_RUNNER_LORA,
    &lora::MOE_RUNNER_NEEDS_LORA,
    &lora::MOE_RUNNER_NEEDS_TRITON_V2,
    &lora::MOE_RUNNER_QUANT,
    &lora::MOE_RUNNER_NVFP4,
    &lora::MOE_RUNNER_A2A,
    &lora::MOE_RUNNER_ELASTIC_EP,
    &lora::MOE_RUNNER_TRIVIAL_PLACEMENT,
];

/// `validate_prefill_decode_interval`.
pub fn validate_prefill_decode_interval(ctx: &mut Ctx) {
    if let Some(v) = ctx.cfg.int("prefill_decode_interval") {
        if v < 0 {
            let fix = ctx.fix_set("Use 0 (no interval)", "prefill_decode_interval", "--prefill-decode-interval", "0", Applicability::Unsafe);
            ctx.raise(&PREFILL_DECODE_INTERVAL_NEGATIVE, PREFILL_DECODE_INTERVAL_NEGATIVE.template.into(), &["prefill_decode_interval"], vec![fix]);
            return;
        }
    }
    if ctx.cfg.int("prefill_decode_interval_min_bs").is_some_and(|v| v < 0) {
        let fix = ctx.fix_set("Use 0", "prefill_decode_interval_min_bs", "--prefill-decode-interval-min-bs", "0", Applicability::Unsafe);
        ctx.raise(&PREFILL_DECODE_INTERVAL_MIN_BS_NEGATIVE, PREFILL_DECODE_INTERVAL_MIN_BS_NEGATIVE.template.into(), &["prefill_decode_interval_min_bs"], vec![fix]);
    }
}

/// `validate_response_store`.
pub fn validate_response_store(ctx: &mut Ctx) {
    if ctx.cfg.truthy("enable_response_store") && !ctx.cfg.is("disaggregation_mode", "null") {
        let fixes = vec![
            ctx.fix_remove("Drop --enable-response-store (keep PD disaggregation)", "enable_response_store", Applicability::Unsafe),
            ctx.fix_remove("Drop --disaggregation-mode (keep the response store)", "disaggregation_mode", Applicability::Unsafe),
        ];
        ctx.raise(&RESPONSE_STORE_WITH_PD, RESPONSE_STORE_WITH_PD.template.into(), &["enable_response_store", "disaggregation_mode"], fixes);
    }
}

/// `validate_sampling_mask_max_tokens`.
pub fn validate_sampling_mask_max_tokens(ctx: &mut Ctx) {
    // `envs.X.is_set()`: set to anything, even "".
    if ctx.env("SGLANG_DISAGGREGATION_SAMPLING_MASK_MAX_TOKENS").is_some() {
        ctx.raise(&SAMPLING_MASK_ENV_REMOVED, SAMPLING_MASK_ENV_REMOVED.template.into(), &[], vec![]);
        return;
    }
    let v = ctx.cfg.get("sampling_mask_max_tokens").clone();
    if v.as_int().is_some_and(|n| n <= 0) {
        let fix = ctx.fix_set("Use the default 4096", "sampling_mask_max_tokens", "--sampling-mask-max-tokens", "4096", Applicability::Unsafe);
        ctx.raise(
            &SAMPLING_MASK_MAX_TOKENS_NOT_POSITIVE,
            format!("--sampling-mask-max-tokens must be positive (got {}).", v.py_str()),
            &["sampling_mask_max_tokens"],
            vec![fix],
        );
    }
}

/// `handle_aux_hidden_state_capture`.
pub fn handle_aux_hidden_state_capture(ctx: &mut Ctx) {
    let dests = ["enable_return_aux_hidden_states"];
    if !ctx.cfg.truthy("enable_return_aux_hidden_states") {
        if !ctx.cfg.is_none("return_aux_hidden_state_layer_ids") {
            let fixes = vec![
                {
                    // Capture also needs a method to name the layout (checked next).
                    let spec = ctx.cfg.str("speculative_algorithm").map(str::to_uppercase);
                    let mut fix = ctx.fix_add_flag("Enable aux hidden-state capture", "--enable-return-aux-hidden-states", Applicability::Unsafe);
                    if !matches!(spec.as_deref(), Some("EAGLE3" | "DFLASH" | "DSPARK")) && !ctx.cfg.is_explicit("speculative_algorithm") {
                        fix.title = "Enable aux hidden-state capture with the EAGLE3 layout".into();
                        for e in &mut fix.edits {
                            e.replacement.push_str(" --speculative-algorithm EAGLE3");
                        }
                    }
                    fix
                },
                ctx.fix_remove("Drop --return-aux-hidden-state-layer-ids", "return_aux_hidden_state_layer_ids", Applicability::Unsafe),
            ];
            ctx.raise(&AUX_LAYER_IDS_WITHOUT_ENABLE, AUX_LAYER_IDS_WITHOUT_ENABLE.template.into(), &["return_aux_hidden_state_layer_ids"], fixes);
        }
        return;
    }
    let spec = ctx.cfg.get("speculative_algorithm").clone();
    let method = spec.as_str().unwrap_or("").to_uppercase();
    if !matches!(method.as_str(), "EAGLE3" | "DFLASH" | "DSPARK") {
        let fix = ctx.fix_set("Name the EAGLE3 capture convention", "speculative_algorithm", "--speculative-algorithm", "EAGLE3", Applicability::Unsafe);
        ctx.raise(
            &AUX_CAPTURE_NEEDS_METHOD,
            format!(
                "--enable-return-aux-hidden-states needs --speculative-algorithm EAGLE3, DFLASH or DSPARK to name the capture convention, got {}.",
                spec.repr()
            ),
            &["speculative_algorithm", "enable_return_aux_hidden_states"],
            vec![fix],
        );
        return;
    }
    if !ctx.cfg.is_none("speculative_draft_model_path") {
        let fix = ctx.fix_remove("Drop --speculative-draft-model-path", "speculative_draft_model_path", Applicability::Safe);
        ctx.raise(&AUX_CAPTURE_NO_DRAFT, AUX_CAPTURE_NO_DRAFT.template.into(), &["speculative_draft_model_path"], vec![fix]);
        return;
    }
    if ctx.cfg.int("pp_size") != Some(1) {
        let fix = ctx.fix_set("Use --pp-size 1", "pp_size", "--pp-size", "1", Applicability::Unsafe);
        ctx.raise(&AUX_CAPTURE_PP, AUX_CAPTURE_PP.template.into(), &["pp_size"], vec![fix]);
        return;
    }
    let layer_ids = ctx.cfg.get("return_aux_hidden_state_layer_ids").clone();
    if method != "EAGLE3" && !layer_ids.truthy() {
        ctx.raise(
            &AUX_CAPTURE_NEEDS_LAYER_IDS,
            format!("--enable-return-aux-hidden-states with {method} requires --return-aux-hidden-state-layer-ids."),
            &dests,
            vec![],
        );
        return;
    }
    if let Some(ids) = layer_ids.as_list() {
        // `len(layer_ids) == 0` is unreachable from the CLI (nargs="+").
        let ints: Vec<i64> = ids.iter().filter_map(PyValue::as_int).collect();
        if ints.iter().any(|&i| i < 0) {
            ctx.raise(
                &AUX_LAYER_IDS_NEGATIVE,
                format!("--return-aux-hidden-state-layer-ids must be non-negative, got {}.", layer_ids.repr()),
                &["return_aux_hidden_state_layer_ids"],
                vec![],
            );
            return;
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
                "return_aux_hidden_state_layer_ids",
                "--return-aux-hidden-state-layer-ids",
                &dedup.join(" "),
                Applicability::Safe,
            );
            ctx.raise(
                &AUX_LAYER_IDS_REPEATED,
                format!("--return-aux-hidden-state-layer-ids must not repeat a layer, got {}.", layer_ids.repr()),
                &["return_aux_hidden_state_layer_ids"],
                vec![fix],
            );
            return;
        }
    }
    ctx.cfg.set("speculative_algorithm", PyValue::None);
    ctx.cfg.set("aux_hidden_state_capture", PyValue::Str(method.to_lowercase()));
}

/// `default_unset_prefill_decode_interval`: an unset interval becomes 0 (Qwen3-VL on Hopper
/// may have picked 22 earlier in `model_hook`, not modelled).
pub fn default_unset_prefill_decode_interval(ctx: &mut Ctx) {
    if ctx.cfg.is_none("prefill_decode_interval") {
        ctx.cfg.set("prefill_decode_interval", PyValue::Int(0));
    }
}

/// `validate_experimental_sgl_marlin`.
pub fn validate_experimental_sgl_marlin(ctx: &mut Ctx) {
    lora::validate_experimental_sgl_marlin(ctx);
}

/// `check_server_args`.
pub fn check_server_args(ctx: &mut Ctx) {
    check::check_server_args(ctx);
}
