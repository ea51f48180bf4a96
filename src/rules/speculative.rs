//! Rules from SGLang's `sglang/srt/arg_groups/speculative_hook.py` (`handle_speculative_decoding`
//! and the per-algorithm handlers it dispatches to through `SpeculativeAlgorithm.handle_server_args`),
//! with the helpers it calls: `spec_info.SpeculativeAlgorithm.from_string`,
//! `ragged_verify.read_ragged_verify_mode`, `adaptive_spec_params` (`adaptive_unsupported_reason`,
//! the default adaptive config's candidate steps) and `overrides._speculative_moe_runner_default`.
//!
//! The draft model's config (`Ctx::draft_model`, or the target's when a DSpark draft is bundled
//! in it) gives DFLASH's block size, DSpark's gamma and whether a trtllm_mha draft backend is
//! kept, through SGLang's parsers (`shared::dflash_utils`, `shared::dspark_config`); the
//! target's architecture gives the draft path MTP models default to and the auto-chosen
//! steps/top-k/draft tokens. What is not known is not guessed: without the config (or for what
//! it does not decide: a Gemma4 assistant draft's algorithm, IQuest Q1's MTP draft, the
//! attention backend and page size the unmodelled attention hooks pick), the checks are listed
//! as not run, and the values SGLang derives are written to the resolved config as
//! model-dependent (`ResolvedConfig::set_model_dependent`), so a later check that reads them is
//! reported as needing the model's config too.

use super::shared::dflash_utils::{get_dflash_layer_types, parse_dflash_draft_config, DraftHfConfig, Failure};
use super::shared::dspark_config::{checkpoint_bundles_dspark_draft, parse_dspark_draft_config_as, DSparkParser, DEFAULT_DSPARK_GAMMA, DSPARK_PARSER, DSPARK_PARSER_0518};
use super::shared::envs::env_bool;
use super::shared::runtime_context::{attn_dp_enabled, is_sm100, legacy_dp_attention};
use super::{raises, site, warns, Args, Ctx, NotRunReason, Rule, Sglang, SiteRef, Step};
use crate::diagnostic::{Applicability, Fix};
use crate::fields::{f, Field};
use crate::hardware::Platform;
use crate::pyvalue::{str_repr, PyValue};
use crate::release::Release;

macro_rules! rule {
    ($name:ident, $code:literal, $kebab:literal, $sglang:expr, $expl:literal, $flags:expr, $bad:literal, $good:literal) => {
        pub static $name: Rule = Rule {
            code: $code,
            name: kebab!($kebab),
            sglang: $sglang,
            explanation: expl!($expl),
            flags: $flags,
            example_bad: ex!($bad),
            example_good: ex!($good),
        };
    };
}


// ---------------------------------------------------------------------------------------------
// handle_speculative_decoding
// ---------------------------------------------------------------------------------------------

rule!(UNKNOWN_ALGORITHM, "SPEC001", "unknown-speculative-algorithm",
    raises("speculative.spec_info.SpeculativeAlgorithm.from_string", "Unknown speculative algorithm name:"),
    "--speculative-algorithm takes one of SGLang's algorithms (EAGLE, EAGLE3, NEXTN, STANDALONE, NGRAM, DFLASH, DSPARK, UNO, FROZEN_KV_MTP), in any case; the name is upper-cased before it is looked up.",
    &["--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm MEDUSA",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM");
rule!(DECODE_RADIX, "SPEC002", "decode-radix-cache-needs-eagle-or-dspark",
    raises("speculative_hook.handle_speculative_decoding", "--disaggregation-decode-enable-radix-cache is incompatible"),
    "A PD decode server keeps a radix cache only with EAGLE, EAGLE3 (NEXTN) or DSPARK speculation; other algorithms cannot reuse cached prefixes there.",
    &["--disaggregation-decode-enable-radix-cache", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-radix-cache --speculative-algorithm NGRAM",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --speculative-algorithm NGRAM");
rule!(BLOCK_VERIFY_ALGO, "SPEC003", "block-verification-algorithm",
    raises("speculative_hook.handle_speculative_decoding", "--speculative-use-block-verification only supports EAGLE"),
    "Block verification checks whole drafted blocks against their full proposal distributions, which only the EAGLE family and DFLASH/DSPARK produce.",
    &["--speculative-use-block-verification", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --speculative-use-block-verification",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM");
rule!(BLOCK_VERIFY_DEVICE, "SPEC004", "block-verification-needs-cuda",
    raises("speculative_hook.handle_speculative_decoding", "--speculative-use-block-verification only supports CUDA"),
    "Block verification runs GPU kernels that exist for CUDA and ROCm only (device 'cuda').",
    &["--speculative-use-block-verification", "--device"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-use-block-verification --device cpu",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-use-block-verification --speculative-num-steps 3 --speculative-eagle-topk 1 --device cuda");
rule!(WINDOW_POSITIVE, "SPEC005", "draft-window-size-positive",
    raises("speculative_hook.handle_speculative_decoding", "--speculative-draft-window-size must be positive"),
    "The draft window is how many recent tokens the draft model attends to; it must be at least 1.",
    &["--speculative-draft-window-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-draft-window-size 0",
    "--model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(SINK_NEGATIVE, "SPEC006", "draft-sink-size-non-negative",
    raises("speculative_hook.handle_speculative_decoding", "--speculative-draft-sink-size must be non-negative"),
    "The draft sink is how many leading tokens the windowed draft attention always keeps; it cannot be negative.",
    &["--speculative-draft-sink-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-draft-window-size 64 --speculative-draft-sink-size -1",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-draft-window-size 64 --speculative-draft-sink-size 4");
rule!(SINK_NEEDS_WINDOW, "SPEC007", "draft-sink-needs-window",
    raises("speculative_hook.handle_speculative_decoding", "--speculative-draft-sink-size requires"),
    "Sink tokens only mean something for windowed draft attention, so a sink size needs --speculative-draft-window-size.",
    &["--speculative-draft-sink-size", "--speculative-draft-window-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-draft-sink-size 4",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-draft-window-size 64 --speculative-draft-sink-size 4");
rule!(DP_COORDINATION, "SPEC008", "dp-spec-prefill-coordination-algorithm",
    raises("speculative_hook.handle_speculative_decoding", "DP spec/prefill coordination requires"),
    "SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION coordinates speculative decode and prefill across attention-DP ranks; it is implemented for single-layer EAGLE, EAGLE3 (NEXTN) and DSPARK only, and needs one of them.",
    &["--speculative-algorithm"],
    "SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM",
    "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM");
rule!(RAGGED_MODE, "SPEC009", "ragged-verify-mode-invalid",
    raises("speculative.ragged_verify.read_ragged_verify_mode", "invalid SGLANG_RAGGED_VERIFY_MODE="),
    "SGLANG_RAGGED_VERIFY_MODE must be 'static' (the default), 'cap-accept' or 'compact'; SGLang validates it whenever speculative decoding is on.",
    &["--speculative-algorithm"],
    "SGLANG_RAGGED_VERIFY_MODE=fast python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM",
    "SGLANG_RAGGED_VERIFY_MODE=static python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM");
rule!(ADAPTIVE_STEPS, "SPEC010", "adaptive-num-steps-not-a-candidate",
    raises("speculative_hook._init_adaptive_speculative_params", "--speculative-num-steps={cfg.speculative_num_steps} is not in"),
    "With --speculative-adaptive the number of draft steps moves between the adaptive config's candidate steps (by default 0, 1, 3, 5 and 7); a starting --speculative-num-steps must be one of them.",
    &["--speculative-adaptive", "--speculative-num-steps"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-adaptive --speculative-num-steps 4",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-adaptive --speculative-num-steps 3");

// ---------------------------------------------------------------------------------------------
// _handle_dflash
// ---------------------------------------------------------------------------------------------

rule!(DFLASH_DEVICE, "SPEC011", "dflash-device",
    raises("speculative_hook._handle_dflash", "{algorithm} speculative decoding is not supported by"),
    "DFLASH runs on CUDA (and ROCm), NPU or XPU devices only.",
    &["--speculative-algorithm", "--device"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --device cpu",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(DFLASH_DP_CUDA, "SPEC012", "dflash-dp-attention-needs-cuda",
    raises("speculative_hook._handle_dflash", "DFLASH with dp attention requires CUDA or NPU."),
    "DFLASH with attention data parallelism is implemented on CUDA and NPU, not on XPU.",
    &["--speculative-algorithm", "--attn-dp-size", "--device"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --device xpu",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --device xpu");
rule!(DFLASH_DP_LM_HEAD, "SPEC013", "dflash-dp-attention-needs-dp-lm-head",
    raises("speculative_hook._handle_dflash", "DFLASH with dp attention requires --enable-dp-lm-head."),
    "With attention DP, DFLASH's greedy projection and its selector borrow the target's LM head, which must then be split per DP rank (--enable-dp-lm-head).",
    &["--speculative-algorithm", "--attn-dp-size", "--enable-dp-lm-head"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head");
rule!(DFLASH_DP_CP, "SPEC014", "dflash-dp-attention-no-context-parallel",
    raises("speculative_hook._handle_dflash", "DFLASH with dp attention does not support context parallel."),
    "DFLASH with attention DP cannot also split attention over context-parallel ranks (--attn-cp-size).",
    &["--speculative-algorithm", "--attn-cp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 2 --attn-cp-size 2 --enable-dp-lm-head",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 2 --enable-dp-lm-head");
rule!(DFLASH_PP, "SPEC015", "dflash-no-pipeline-parallel",
    raises("speculative_hook._handle_dflash", "Currently DFLASH speculative decoding only supports pp_size == 1."),
    "DFLASH does not run with pipeline parallelism.",
    &["--speculative-algorithm", "--pp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(DFLASH_NEEDS_DRAFT, "SPEC016", "dflash-needs-draft-model",
    raises("speculative_hook._handle_dflash", "DFLASH speculative decoding requires setting --speculative-draft-model-path."),
    "DFLASH drafts with a separate block-diffusion draft model; name it with --speculative-draft-model-path.",
    &["--speculative-algorithm", "--speculative-draft-model-path"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(DFLASH_BLOCK_POSITIVE, "SPEC017", "dflash-block-size-positive",
    raises("speculative_hook._handle_dflash", "DFLASH requires --speculative-dflash-block-size to be positive"),
    "The DFLASH block size is the verify window length (tokens drafted per step); it must be at least 1.",
    &["--speculative-dflash-block-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dflash-block-size 0",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dflash-block-size 8");
rule!(DFLASH_BLOCK_VS_TOKENS, "SPEC018", "dflash-block-size-vs-num-draft-tokens",
    raises("speculative_hook._handle_dflash", "Both --speculative-num-draft-tokens and --speculative-dflash-block-size"),
    "For DFLASH the number of draft tokens is the block size; when both flags are given they must be equal (give just one).",
    &["--speculative-dflash-block-size", "--speculative-num-draft-tokens"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dflash-block-size 8 --speculative-num-draft-tokens 16",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dflash-block-size 8 --speculative-num-draft-tokens 8");
rule!(DFLASH_WINDOW_VS_BLOCK, "SPEC019", "dflash-window-smaller-than-block",
    raises("speculative_hook._handle_dflash", "--speculative-draft-window-size must be >="),
    "DFLASH's compact draft KV cache must hold at least one whole verify block, so the draft window cannot be smaller than the block size (--speculative-num-draft-tokens).",
    &["--speculative-draft-window-size", "--speculative-num-draft-tokens"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-draft-tokens 16 --speculative-draft-window-size 8",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-draft-tokens 16 --speculative-draft-window-size 64");

// ---------------------------------------------------------------------------------------------
// _handle_uno
// ---------------------------------------------------------------------------------------------


rule!(UNO_CUDA, "SPEC020", "uno-needs-cuda",
    raises("speculative_hook._handle_uno", "UNO only supports CUDA."),
    "UNO's kernels exist for CUDA devices only.",
    &["--speculative-algorithm", "--device"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --device cpu --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend fa3");
rule!(UNO_DRAFT, "SPEC021", "uno-no-draft-model",
    raises("speculative_hook._handle_uno", "UNO reuses the target model"),
    "UNO drafts with the target model itself (plus its LoRA), so no draft model is given.",
    &["--speculative-algorithm", "--speculative-draft-model-path"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend fa3");
rule!(UNO_LORA_PATH, "SPEC022", "uno-needs-lora-path",
    raises("speculative_hook._handle_uno", "UNO requires --uno-lora-path."),
    "UNO's drafting head is a LoRA adapter on the target; name it with --uno-lora-path.",
    &["--speculative-algorithm", "--uno-lora-path"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --speculative-num-draft-tokens 4 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend fa3");
rule!(UNO_DETERMINISTIC, "SPEC023", "uno-no-deterministic-inference",
    raises("speculative_hook._handle_uno", "UNO does not support --enable-deterministic-inference"),
    "UNO's sampling does not use per-request seeds, so it cannot be deterministic.",
    &["--speculative-algorithm", "--enable-deterministic-inference"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --enable-deterministic-inference --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend fa3");
rule!(UNO_STRICT_THINKING, "SPEC024", "uno-no-strict-thinking",
    raises("speculative_hook._handle_uno", "UNO does not support --enable-strict-thinking"),
    "Strict thinking is enforced with grammar decoding, which UNO does not support.",
    &["--enable-strict-thinking", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --enable-strict-thinking --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend fa3");
rule!(UNO_DRAFT_TOKENS, "SPEC025", "uno-needs-num-draft-tokens",
    raises("speculative_hook._handle_uno", "UNO requires --speculative-num-draft-tokens"),
    "UNO has no default verify width: give --speculative-num-draft-tokens (the linear width, or the tree verify width Q), at least 1.",
    &["--speculative-algorithm", "--speculative-num-draft-tokens"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend fa3");
rule!(UNO_TOPK, "SPEC026", "uno-topk-at-least-1",
    raises("speculative_hook._handle_uno", "UNO requires --speculative-eagle-topk to be at least 1"),
    "UNO's candidate top-k (--speculative-eagle-topk) is the branching of its draft tree; it must be at least 1.",
    &["--speculative-algorithm", "--speculative-eagle-topk"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 0 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 1 --attention-backend fa3");
rule!(UNO_TREE_STEPS, "SPEC027", "uno-tree-needs-num-steps",
    raises("speculative_hook._handle_uno", "UNO tree mode requires --speculative-num-steps so"),
    "With a top-k above 1 UNO drafts a tree whose draft width F is --speculative-num-steps + 1, so the number of steps must be given.",
    &["--speculative-eagle-topk", "--speculative-num-steps"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3");
rule!(UNO_TREE_STEPS_POSITIVE, "SPEC028", "uno-tree-num-steps-positive",
    raises("speculative_hook._handle_uno", "UNO tree mode requires --speculative-num-steps to be positive"),
    "A UNO draft tree needs at least one draft step.",
    &["--speculative-eagle-topk", "--speculative-num-steps"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 0 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3");
rule!(UNO_Q_GE_F, "SPEC029", "uno-tree-verify-width-below-draft-width",
    raises("speculative_hook._handle_uno", "UNO tree mode requires Q >= F;"),
    "In UNO tree mode the verify width Q (--speculative-num-draft-tokens) must be at least the draft width F (--speculative-num-steps + 1).",
    &["--speculative-num-draft-tokens", "--speculative-num-steps"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 3 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3");
rule!(UNO_Q_MAX, "SPEC030", "uno-tree-verify-width-at-most-128",
    raises("speculative_hook._handle_uno", "UNO tree mode currently supports at most Q=128"),
    "UNO tree mode verifies at most 128 nodes per step.",
    &["--speculative-num-draft-tokens", "--speculative-eagle-topk"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 200 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3");
rule!(UNO_QK, "SPEC031", "uno-tree-frontier-too-large",
    raises("speculative_hook._handle_uno", "UNO tree mode currently supports Q*K <= 2048"),
    "UNO tree mode keeps Q x K frontier candidates (verify width times top-k); at most 2048 are supported.",
    &["--speculative-num-draft-tokens", "--speculative-eagle-topk"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 100 --speculative-eagle-topk 32 --speculative-num-steps 3 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3");
rule!(UNO_CAPACITY, "SPEC032", "uno-tree-capacity",
    raises("speculative_hook._handle_uno", "UNO tree mode cannot build the requested Q from F and K"),
    "A tree of --speculative-num-steps levels with branching --speculative-eagle-topk has too few nodes for the requested verify width Q; lower Q or raise the steps or top-k.",
    &["--speculative-num-draft-tokens", "--speculative-num-steps"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 10 --speculative-eagle-topk 2 --speculative-num-steps 2 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3");
rule!(UNO_PARENT_LIST, "SPEC033", "uno-tree-parent-list",
    raises("speculative_hook._handle_uno", "UNO tree mode cannot represent the requested Q"),
    "EAGLE's parent-list format can express at most K*(F-2)+1 non-root verify nodes; the requested verify width needs more.",
    &["--speculative-num-draft-tokens", "--speculative-num-steps"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 10 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3");
rule!(UNO_PDMUX, "SPEC034", "uno-tree-no-pdmux",
    raises("speculative_hook._handle_uno", "UNO tree mode does not yet support PDMux."),
    "UNO tree mode does not run with PD multiplexing.",
    &["--speculative-eagle-topk", "--enable-pdmux"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --enable-pdmux --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3");
rule!(UNO_TBO, "SPEC035", "uno-tree-no-two-batch-overlap",
    raises("speculative_hook._handle_uno", "UNO tree mode does not yet support two-batch overlap."),
    "UNO tree mode does not run with two-batch overlap.",
    &["--speculative-eagle-topk", "--enable-two-batch-overlap"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --enable-two-batch-overlap --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3");
rule!(UNO_THRESHOLDS, "SPEC036", "uno-tree-accept-thresholds",
    raises("speculative_hook._handle_uno", "UNO tree mode reuses EAGLE target-only sampling"),
    "UNO tree mode verifies with EAGLE's target-only sampling, which has no relaxed acceptance: both accept thresholds must stay 1.0.",
    &["--speculative-eagle-topk", "--speculative-accept-threshold-single"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --speculative-accept-threshold-single 0.9 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-eagle-topk 2 --speculative-num-steps 3 --attention-backend fa3");
rule!(UNO_TP_PP, "SPEC037", "uno-needs-tp-pp-1",
    raises("speculative_hook._handle_uno", "UNO requires TP=PP=1."),
    "UNO runs on a single GPU: --tp-size and --pp-size must both be 1.",
    &["--speculative-algorithm", "--tp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --tp-size 2 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --tp-size 1 --attention-backend fa3");
rule!(UNO_LORA, "SPEC038", "uno-no-multi-lora",
    raises("speculative_hook._handle_uno", "UNO does not support public Multi-LoRA serving."),
    "UNO's own LoRA is its draft head; serving other LoRA adapters alongside it is not supported.",
    &["--speculative-algorithm", "--enable-lora"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --enable-lora --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend fa3");
rule!(UNO_REJECTION, "SPEC039", "uno-no-rejection-sampling",
    raises("speculative_hook._handle_uno", "UNO manages its own stochastic verification"),
    "UNO verifies drafts with its own stochastic scheme; --speculative-use-rejection-sampling does not apply.",
    &["--speculative-algorithm", "--speculative-use-rejection-sampling"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-use-rejection-sampling --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend fa3");
rule!(UNO_FA3, "SPEC040", "uno-needs-fa3",
    raises("speculative_hook._handle_uno", "UNO requires FA3 for both prefill and decode attention"),
    "UNO's attention runs on FlashAttention 3 only, for prefill and decode (--attention-backend fa3).",
    &["--speculative-algorithm", "--attention-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend triton",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend fa3");

// ---------------------------------------------------------------------------------------------
// _handle_dspark
// ---------------------------------------------------------------------------------------------

rule!(DSPARK_DEVICE, "SPEC041", "dspark-device",
    raises("speculative_hook._handle_dspark", "DSpark speculative decoding only supports CUDA, NPU or XPU"),
    "DSpark runs on CUDA (and ROCm), NPU or XPU devices only.",
    &["--speculative-algorithm", "--device"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --device cpu",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(DSPARK_DP_LM_HEAD, "SPEC042", "dspark-dp-attention-needs-dp-lm-head",
    raises("speculative_hook._handle_dspark", "DSpark with dp attention requires --enable-dp-lm-head."),
    "With attention DP, DSpark's draft shares the target's LM head, which must then be split per DP rank (--enable-dp-lm-head).",
    &["--speculative-algorithm", "--attn-dp-size", "--enable-dp-lm-head"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head");
rule!(DSPARK_DP_A2A, "SPEC043", "dspark-dp-attention-moe-a2a-backend",
    raises("speculative_hook._handle_dspark", "DSpark with dp attention supports moe_a2a_backend"),
    "DSpark with attention DP works with the built-in TP MoE (--moe-a2a-backend none), megamoe or mori only.",
    &["--speculative-algorithm", "--moe-a2a-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head --moe-a2a-backend deepep",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head");
rule!(DSPARK_DP_RAGGED, "SPEC044", "dspark-dp-moe-needs-static-ragged-verify",
    raises("speculative_hook._handle_dspark", "DSpark DP MoE or prefill coordination requires"),
    "With attention DP and an all-to-all MoE backend (or DP prefill coordination), every DP rank must verify the same number of tokens: SGLANG_RAGGED_VERIFY_MODE must stay 'static'.",
    &["--speculative-algorithm", "--moe-a2a-backend"],
    "SGLANG_RAGGED_VERIFY_MODE=compact python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head --moe-a2a-backend mori",
    "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head --moe-a2a-backend mori");
rule!(DSPARK_DP_CP, "SPEC045", "dspark-dp-attention-no-context-parallel",
    raises("speculative_hook._handle_dspark", "DSpark with dp attention does not support context parallel"),
    "DSpark with attention DP cannot also split attention over context-parallel ranks (--attn-cp-size).",
    &["--speculative-algorithm", "--attn-cp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 2 --attn-cp-size 2 --enable-dp-lm-head",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 2 --enable-dp-lm-head");
rule!(DSPARK_DP_SPEC_A2A, "SPEC046", "dspark-dp-speculative-moe-a2a-mismatch",
    raises("speculative_hook._handle_dspark", "DSpark ignores --speculative-moe-a2a-backend;"),
    "DSpark's draft uses the target's MoE all-to-all backend; with attention DP a different --speculative-moe-a2a-backend is refused (drop it or make it match).",
    &["--speculative-moe-a2a-backend", "--moe-a2a-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head --speculative-moe-a2a-backend deepep",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head --moe-a2a-backend none --speculative-moe-a2a-backend none");
rule!(DSPARK_PP, "SPEC047", "dspark-pipeline-parallel-needs-pd-prefill",
    raises("speculative_hook._handle_dspark", "DSpark pipeline parallelism requires PD prefill"),
    "DSpark runs with pipeline parallelism only on a PD prefill server (--disaggregation-mode prefill); elsewhere --pp-size must be 1.",
    &["--speculative-algorithm", "--pp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(DSPARK_BLOCK_POSITIVE, "SPEC048", "dspark-block-size-positive",
    raises("speculative_hook._handle_dspark", "DSpark requires --speculative-dspark-block-size to be positive"),
    "The DSpark block size is gamma, the number of tokens drafted per step; it must be at least 1.",
    &["--speculative-dspark-block-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dspark-block-size 0",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dspark-block-size 4");
rule!(DSPARK_TOKENS_VS_GAMMA, "SPEC049", "dspark-num-draft-tokens-vs-gamma",
    raises("speculative_hook._handle_dspark", "DSpark speculative_num_draft_tokens must equal gamma + 1"),
    "DSpark verifies gamma drafted tokens plus one bonus token, so --speculative-num-draft-tokens must be --speculative-dspark-block-size + 1 (give just the block size).",
    &["--speculative-dspark-block-size", "--speculative-num-draft-tokens"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dspark-block-size 4 --speculative-num-draft-tokens 4",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dspark-block-size 4 --speculative-num-draft-tokens 5");

// ---------------------------------------------------------------------------------------------
// _handle_eagle_family
// ---------------------------------------------------------------------------------------------

rule!(STANDALONE_DP, "SPEC050", "standalone-no-dp-attention",
    raises("speculative_hook._handle_eagle_family", "Currently standalone speculative decoding does not support dp"),
    "STANDALONE speculation (a small ordinary draft model) does not support attention data parallelism yet.",
    &["--speculative-algorithm", "--attn-dp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2");
rule!(EAGLE_PARTIAL_PARAMS, "SPEC051", "eagle-topk-or-draft-tokens-without-num-steps",
    raises("speculative_hook._handle_eagle_family", ""),
    "When --speculative-num-steps is not given SGLang chooses the number of steps, the top-k and the number of draft tokens together; giving --speculative-eagle-topk or --speculative-num-draft-tokens alone trips an assert. Give --speculative-num-steps too (or none of the three).",
    &["--speculative-num-steps", "--speculative-eagle-topk"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-eagle-topk 4",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-eagle-topk 4 --speculative-num-steps 3");
rule!(EAGLE_TOPK_UNSET, "SPEC136", "eagle-num-steps-without-topk",
    Sglang::Python { function: "speculative_hook._handle_eagle_family", raised_by: "the comparison speculative_eagle_topk > 1", exception: "TypeError", template: "'>' not supported between instances of 'NoneType' and 'int'", raises_in: None },
    "With --speculative-num-steps given SGLang does not choose the draft parameters: --speculative-eagle-topk stays unset, and its first comparison with 1 (the trtllm_mha check, or the paged-attention check after it) fails in Python. Give --speculative-eagle-topk (1 for a linear draft chain) with --speculative-num-steps.",
    &["--speculative-num-steps", "--speculative-eagle-topk"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-steps 3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-steps 3 --speculative-eagle-topk 1");
rule!(EAGLE_TRTLLM_MHA_TOPK, "SPEC052", "eagle-trtllm-mha-topk-1",
    raises("speculative_hook._handle_eagle_family", "trtllm_mha backend only supports topk = 1"),
    "The trtllm_mha attention backend verifies a linear draft chain only: --speculative-eagle-topk must be 1 with it.",
    &["--attention-backend", "--speculative-eagle-topk"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend trtllm_mha --speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend trtllm_mha --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4");
rule!(REJECTION_ALGO, "SPEC053", "rejection-sampling-eagle-only",
    raises("speculative_hook._handle_eagle_family", "--speculative-use-rejection-sampling is only supported for"),
    "Rejection sampling consumes the EAGLE/EAGLE3 draft workers' target-vocabulary proposals; STANDALONE, FROZEN_KV_MTP, NGRAM and DFLASH do not produce them.",
    &["--speculative-use-rejection-sampling", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-use-rejection-sampling",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(REJECTION_TOPK, "SPEC054", "rejection-sampling-topk-1",
    raises("speculative_hook._handle_eagle_family", "--speculative-use-rejection-sampling requires --speculative-eagle-topk=1."),
    "Rejection sampling is implemented for a linear draft chain: --speculative-eagle-topk must be 1.",
    &["--speculative-use-rejection-sampling", "--speculative-eagle-topk"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-use-rejection-sampling --speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-use-rejection-sampling --speculative-num-steps 3 --speculative-eagle-topk 1");
rule!(REJECTION_DETERMINISTIC, "SPEC055", "deterministic-rejection-sampling-needs-cuda",
    raises("speculative_hook._handle_eagle_family", "Deterministic rejection sampling is currently supported only"),
    "Deterministic rejection sampling draws its proposals with a Triton hash kernel that runs on CUDA-compatible devices only.",
    &["--speculative-use-rejection-sampling", "--enable-deterministic-inference"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-use-rejection-sampling --speculative-num-steps 3 --speculative-eagle-topk 1 --enable-deterministic-inference --device xpu",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-use-rejection-sampling --speculative-num-steps 3 --speculative-eagle-topk 1 --enable-deterministic-inference");
rule!(REJECTION_THRESHOLDS, "SPEC056", "rejection-sampling-ignores-accept-thresholds",
    raises("speculative_hook._handle_eagle_family", "--speculative-use-rejection-sampling is incompatible with --speculative-accept-threshold-single"),
    "Rejection sampling decides acceptance from the probabilities themselves; the relaxed accept thresholds would be ignored, so SGLang refuses them together.",
    &["--speculative-use-rejection-sampling", "--speculative-accept-threshold-single"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-use-rejection-sampling --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-accept-threshold-single 0.8",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-use-rejection-sampling --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-accept-threshold-single 1.0");
rule!(EAGLE_PAGE_TREE, "SPEC057", "eagle-topk-page-size-backend",
    raises("speculative_hook._handle_eagle_family", "speculative_eagle_topk > 1 with page_size > 1 is only supported on"),
    "A draft tree (top-k > 1) over paged KV (page size > 1) needs the two-pass cascade draft decode that only the flashinfer, fa3 and triton attention backends implement.",
    &["--speculative-eagle-topk", "--page-size"],
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8 --page-size 64 --attention-backend flashmla",
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 --page-size 64 --attention-backend flashmla");

// ---------------------------------------------------------------------------------------------
// _handle_ngram
// ---------------------------------------------------------------------------------------------

rule!(NGRAM_SAM_BUDGET, "SPEC059", "ngram-external-sam-budget-positive",
    raises("speculative_hook._handle_ngram", "--speculative-ngram-external-sam-budget must be positive"),
    "With an external corpus, NGRAM reserves --speculative-ngram-external-sam-budget draft tokens for suffix-automaton matches on it; the budget must be at least 1 (it is 0 by default).",
    &["--speculative-ngram-external-corpus-path", "--speculative-ngram-external-sam-budget"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --speculative-ngram-external-corpus-path /data/corpus.jsonl",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --speculative-ngram-external-corpus-path /data/corpus.jsonl --speculative-ngram-external-sam-budget 4");
rule!(NGRAM_CORPUS_TOKENS, "SPEC060", "ngram-external-corpus-max-tokens-positive",
    raises("speculative_hook._handle_ngram", "--speculative-ngram-external-corpus-max-tokens must be positive"),
    "The external corpus is capped at --speculative-ngram-external-corpus-max-tokens tokens; the cap must be at least 1.",
    &["--speculative-ngram-external-corpus-path", "--speculative-ngram-external-corpus-max-tokens"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --speculative-ngram-external-corpus-path /data/corpus.jsonl --speculative-ngram-external-sam-budget 4 --speculative-ngram-external-corpus-max-tokens 0",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --speculative-ngram-external-corpus-path /data/corpus.jsonl --speculative-ngram-external-sam-budget 4 --speculative-ngram-external-corpus-max-tokens 1000");
rule!(NGRAM_SAM_VS_TOKENS, "SPEC061", "ngram-external-sam-budget-vs-draft-tokens",
    raises("speculative_hook._handle_ngram", "speculative_ngram_external_sam_budget must be less than or equal"),
    "The external-corpus budget is part of the draft: it can use at most --speculative-num-draft-tokens - 1 tokens (the draft tokens are 12 by default for NGRAM).",
    &["--speculative-ngram-external-sam-budget", "--speculative-num-draft-tokens"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --speculative-ngram-external-corpus-path /data/corpus.jsonl --speculative-ngram-external-sam-budget 16",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --speculative-ngram-external-corpus-path /data/corpus.jsonl --speculative-ngram-external-sam-budget 11 --speculative-num-draft-tokens 12");
rule!(NGRAM_PAGE, "SPEC062", "ngram-topk-page-size-needs-flashinfer",
    // named up to its first placeholder: 0.5.18 reads `server_args.speculative_eagle_topk`
    raises("speculative_hook._handle_ngram", "speculative_eagle_topk("),
    "NGRAM drafts a tree as wide as --speculative-ngram-max-bfs-breadth (10 by default); over paged KV (page size > 1) only the flashinfer attention backend verifies it correctly. Use --page-size 1, flashinfer, or a breadth of 1.",
    &["--page-size", "--attention-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --page-size 16 --attention-backend triton",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --page-size 16 --attention-backend flashinfer");
rule!(NGRAM_DP, "SPEC063", "ngram-no-dp-attention",
    raises("speculative_hook._handle_ngram", "Currently ngram speculative decoding does not support dp attention."),
    "NGRAM speculation does not support attention data parallelism yet.",
    &["--speculative-algorithm", "--attn-dp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --tp-size 2 --attn-dp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --tp-size 2");

// ---------------------------------------------------------------------------------------------
// Warnings
// ---------------------------------------------------------------------------------------------

rule!(W_WINDOW_NO_EFFECT, "SPEC101", "draft-window-size-no-effect",
    warns("speculative_hook.handle_speculative_decoding", "--speculative-draft-window-size has no effect"),
    "Only DFLASH, EAGLE3 on Llama and the EAGLE/MTP draft decode on the Triton/FlashInfer draft backends use a draft window; with another algorithm (or none) the flag does nothing.",
    &["--speculative-draft-window-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-draft-window-size 64",
    "--model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(W_ADAPTIVE_DISABLED, "SPEC102", "adaptive-speculation-disabled",
    warns("speculative_hook._maybe_disable_adaptive", "speculative_adaptive disabled:"),
    "Adaptive speculation (changing the number of draft steps at run time) works with EAGLE/EAGLE3 with top-k 1, without attention DP, multi-layer EAGLE, two-batch overlap or PD multiplexing; otherwise SGLang turns it off and keeps the static settings.",
    &["--speculative-adaptive"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --speculative-adaptive",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM");
rule!(W_CPU_OVERLAP, "SPEC108", "speculative-cpu-disables-overlap",
    warns("speculative_hook._disable_overlap_schedule_for_cpu", "Overlap schedule is not implemented for speculative"),
    "On CPU the overlap scheduler has no speculative path, so SGLang turns it off (as --disable-overlap-schedule does).",
    &["--disable-overlap-schedule"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --device cpu",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --device cpu --disable-overlap-schedule");
rule!(W_NON_OVERLAP_SPEC, "SPEC109", "eagle-non-overlap-spec-v2",
    warns("speculative_hook._handle_eagle_family", "Non-overlap (synchronous) spec v2 is used"),
    "With the overlap scheduler off, EAGLE-family speculation runs its synchronous (non-overlapped) worker.",
    &["--disable-overlap-schedule"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 --disable-overlap-schedule",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4");
rule!(W_STANDALONE_MIXED, "SPEC110", "standalone-disables-mixed-chunk",
    warns("speculative_hook._handle_eagle_family", "Mixed chunked prefill is disabled: {cfg.speculative_algorithm}"),
    "STANDALONE speculation cannot mix prefill chunks into decode batches, so SGLang turns --enable-mixed-chunk off.",
    &["--enable-mixed-chunk", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --enable-mixed-chunk",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(W_DRAFT_TOKENS_ADJUSTED, "SPEC111", "eagle-draft-tokens-adjusted-for-topk-1",
    warns("speculative_hook._handle_eagle_family", "speculative_num_draft_tokens is adjusted to"),
    "With top-k 1 the draft is a chain of --speculative-num-steps tokens, verified with one more: SGLang sets --speculative-num-draft-tokens to steps + 1.",
    &["--speculative-num-draft-tokens", "--speculative-num-steps"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 8",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4");
rule!(W_NGRAM_DRAFT_TOKENS, "SPEC112", "ngram-draft-tokens-default-12",
    warns("speculative_hook._handle_ngram", "speculative_num_draft_tokens is set to 12 by default"),
    "NGRAM drafts 12 tokens per step unless --speculative-num-draft-tokens is given.",
    &["--speculative-num-draft-tokens"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM --speculative-num-draft-tokens 8");
rule!(W_NGRAM_MIXED, "SPEC113", "ngram-disables-mixed-chunk",
    warns("speculative_hook._handle_ngram", "The mixed chunked prefill are disabled because of using ngram"),
    "NGRAM speculation always runs without mixed chunked prefill: SGLang turns it off (whether or not --enable-mixed-chunk was given).",
    &["--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4");
rule!(W_DFLASH_STEPS, "SPEC114", "dflash-num-steps-forced-to-1",
    warns("speculative_hook._handle_dflash", "DFLASH only supports speculative_num_steps == 1"),
    "DFLASH drafts a whole block in one step; SGLang sets --speculative-num-steps to 1 (its block size is --speculative-dflash-block-size).",
    &["--speculative-num-steps", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-steps 3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-steps 1");
rule!(W_DFLASH_TOPK, "SPEC115", "dflash-topk-forced-to-1",
    warns("speculative_hook._handle_dflash", "DFLASH only supports speculative_eagle_topk == 1"),
    "DFLASH drafts a single chain; SGLang sets --speculative-eagle-topk to 1.",
    &["--speculative-eagle-topk", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-eagle-topk 4",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-eagle-topk 1");
rule!(W_DSPARK_STEPS, "SPEC116", "dspark-num-steps-forced-to-1",
    warns("speculative_hook._handle_dspark", "DSpark only supports speculative_num_steps == 1"),
    "DSpark drafts a whole block in one step; SGLang sets --speculative-num-steps to 1 (its block size is --speculative-dspark-block-size).",
    &["--speculative-num-steps", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-steps 3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-steps 1");
rule!(W_DSPARK_TOPK, "SPEC117", "dspark-topk-forced-to-1",
    warns("speculative_hook._handle_dspark", "DSpark only supports speculative_eagle_topk == 1"),
    "DSpark drafts a single chain; SGLang sets --speculative-eagle-topk to 1.",
    &["--speculative-eagle-topk", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-eagle-topk 4",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-eagle-topk 1");
rule!(W_DSPARK_ALIGN_NOOP, "SPEC118", "dspark-align-verify-tokens-no-op",
    warns("speculative_hook._handle_dspark", "--speculative-dspark-align-verify-tokens-to-graph-tier only takes"),
    "Aligning verify tokens to CUDA-graph tiers only applies in the compact ragged-verify mode (SGLANG_RAGGED_VERIFY_MODE=compact); otherwise the flag does nothing.",
    &["--speculative-dspark-align-verify-tokens-to-graph-tier"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dspark-block-size 4 --speculative-dspark-align-verify-tokens-to-graph-tier",
    "SGLANG_RAGGED_VERIFY_MODE=compact python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dspark-block-size 4 --speculative-dspark-align-verify-tokens-to-graph-tier");
rule!(W_DSPARK_SPS_NOOP, "SPEC119", "dspark-sps-table-no-op",
    warns("speculative_hook._handle_dspark", "--speculative-dspark-sps-table-path feeds the ragged-verify"),
    "The SPS table feeds the ragged-verify budget scheduler, which is off in the default static mode (SGLANG_RAGGED_VERIFY_MODE=static): the table is not used.",
    &["--speculative-dspark-sps-table-path"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dspark-block-size 4 --speculative-dspark-sps-table-path /data/sps.json",
    "SGLANG_RAGGED_VERIFY_MODE=compact python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dspark-block-size 4 --speculative-dspark-sps-table-path /data/sps.json");
rule!(W_UNO_OVERRIDE, "SPEC120", "uno-linear-overrides-steps-topk",
    warns("speculative_hook._handle_uno", "UNO uses {field}=1; overriding {old_value}."),
    "In UNO's linear mode (top-k 1) the number of steps and the top-k are both 1; other values are overridden.",
    &["--speculative-num-steps"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-num-steps 3 --attention-backend fa3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --speculative-num-steps 1 --attention-backend fa3");
rule!(W_UNO_MIXED, "SPEC121", "uno-disables-mixed-chunk",
    warns("speculative_hook._handle_uno", "Mixed chunked prefill is disabled for UNO"),
    "UNO speculation cannot mix prefill chunks into decode batches, so SGLang turns --enable-mixed-chunk off.",
    &["--enable-mixed-chunk"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend fa3 --enable-mixed-chunk",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm UNO --uno-lora-path /adapters/uno --speculative-num-draft-tokens 4 --attention-backend fa3");
rule!(W_FROZEN_MIXED, "SPEC122", "frozen-kv-mtp-disables-mixed-chunk",
    warns("speculative_hook._handle_frozen_kv_mtp", "Mixed chunked prefill is disabled because of using Frozen-KV"),
    "Frozen-KV MTP speculation cannot mix prefill chunks into decode batches, so SGLang turns --enable-mixed-chunk off.",
    &["--enable-mixed-chunk"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm FROZEN_KV_MTP --enable-mixed-chunk",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm FROZEN_KV_MTP");
rule!(W_DFLASH_DRAFT_BACKEND, "SPEC123", "dflash-draft-attention-backend-fallback",
    warns("speculative_hook._resolve_dflash_draft_attention_backend", "DFLASH draft worker does not support attention_backend"),
    "DFLASH's draft worker runs on flashinfer, fa3, fa4, triton, trtllm_mha (and the NPU/XPU backends); for another backend SGLang picks flashinfer (triton on ROCm) for the draft.",
    &["--speculative-draft-attention-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-draft-tokens 16 --speculative-draft-attention-backend flex_attention",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-draft-tokens 16 --speculative-draft-attention-backend triton");

// ---------------------------------------------------------------------------------------------
// The draft model's config (dflash_utils.parse_dflash_draft_config, dspark_config.parse_dspark_draft_config)
// ---------------------------------------------------------------------------------------------

rule!(DSPARK_TOKENS_MIN, "SPEC064", "dspark-num-draft-tokens-at-least-2",
    raises("speculative_hook._handle_dspark", "DSpark speculative_num_draft_tokens must be >= 2"),
    "DSpark verifies gamma drafted tokens plus the anchor: --speculative-num-draft-tokens (gamma + 1) must be at least 2. When neither --speculative-dspark-block-size nor the draft's config gives gamma, the value given is used as is.",
    &["--speculative-num-draft-tokens", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-draft-tokens 1",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-num-draft-tokens 2");
rule!(W_DFLASH_BLOCK_UNREADABLE, "SPEC124", "dflash-draft-config-unreadable",
    warns("speculative_hook._handle_dflash", "Failed to infer DFLASH block_size from draft model config"),
    "Without --speculative-num-draft-tokens or --speculative-dflash-block-size, SGLang takes DFLASH's block size from the draft's config (dflash_config); a value there it refuses (the error after 'Error:') makes it fall back to 16, which may not be the block size the draft was trained for.",
    &["--speculative-draft-model-path", "--json-model-override-args", "--speculative-dflash-block-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path z-lab/Muse-Glimmer-30B-DFlash2 --json-model-override-args '{\"dflash_config\": {\"block_size\": 0}}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path z-lab/Muse-Glimmer-30B-DFlash2");
rule!(W_DFLASH_BLOCK_DEFAULT, "SPEC125", "dflash-block-size-defaults-to-16",
    warns("speculative_hook._handle_dflash", "speculative_num_draft_tokens is not set; defaulting to"),
    "The DFLASH draft's config gives no block_size (nor does --speculative-dflash-block-size or --speculative-num-draft-tokens): SGLang verifies blocks of 16 tokens, which may not match the draft.",
    &["--speculative-draft-model-path", "--speculative-dflash-block-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dflash-block-size 16");
rule!(W_DFLASH_TRTLLM_FALLBACK, "SPEC126", "dflash-trtllm-mha-needs-sliding-or-causal-draft",
    warns("speculative_hook._resolve_dflash_draft_attention_backend", "DFLASH only enables 'trtllm_mha' when all layers"),
    "The trtllm_mha draft backend serves a DFLASH draft only when every layer of the draft is sliding-window attention or the draft declares is_causal; otherwise SGLang drafts with fa4 on SM100 GPUs, else flashinfer (triton on ROCm).",
    &["--speculative-draft-attention-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path z-lab/Muse-Glimmer-30B-DFlash2 --speculative-draft-attention-backend trtllm_mha --json-model-override-args '{\"layer_types\": [\"full_attention\", \"full_attention\", \"full_attention\", \"full_attention\", \"full_attention\"]}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DFLASH --speculative-draft-model-path z-lab/Muse-Glimmer-30B-DFlash2 --speculative-draft-attention-backend trtllm_mha");
rule!(W_DSPARK_CONFIG_UNREADABLE, "SPEC127", "dspark-draft-config-unreadable",
    warns("speculative_hook._handle_dspark", "Failed to read DSpark draft config"),
    "SGLang reads DSpark's gamma (block size), Markov head and mask token from the draft's config; a value there it refuses (the error after 'Error:') makes it ignore the config: gamma then comes from --speculative-dspark-block-size, --speculative-num-draft-tokens or the default 7.",
    &["--speculative-draft-model-path", "--json-model-override-args"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path z-lab/Muse-Glimmer-30B-DFlash2 --json-model-override-args '{\"markov_rank\": -1}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path z-lab/Muse-Glimmer-30B-DFlash2");
rule!(W_DSPARK_GAMMA_DEFAULT, "SPEC128", "dspark-gamma-defaults-to-7",
    warns("speculative_hook._handle_dspark", "DSpark gamma is not set; defaulting to"),
    "Neither --speculative-dspark-block-size, --speculative-num-draft-tokens nor the draft's config gives DSpark's gamma: SGLang drafts 7 tokens a step (8 verified), which may not match the draft.",
    &["--speculative-dspark-block-size", "--speculative-draft-model-path"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dspark-block-size 7");

// 0.5.18's texts (`speculative_hook` of 0.5.18): DFLASH and DSpark on CUDA and NPU only, DFLASH
// without DP attention, DSpark with a single pipeline stage.

rule!(DFLASH_DEVICE_0518, "SPEC129", "dflash-cuda-or-npu",
    raises("speculative_hook._handle_dflash", "DFLASH speculative decoding only supports CUDA and NPU devices."),
    "In this release DFLASH runs on CUDA (and ROCm) or NPU devices only.",
    &["--speculative-algorithm", "--device"],
    "",
    "");
rule!(DFLASH_NO_DP_ATTENTION, "SPEC130", "dflash-no-dp-attention",
    raises("speculative_hook._handle_dflash", "Currently DFLASH speculative decoding does not support dp attention."),
    "In this release DFLASH is not implemented with DP attention (--enable-dp-attention with --dp-size above 1).",
    &["--speculative-algorithm", "--enable-dp-attention"],
    "",
    "");
rule!(DSPARK_DEVICE_0518, "SPEC131", "dspark-cuda-or-npu",
    raises("speculative_hook._handle_dspark", "DSpark speculative decoding only supports CUDA or NPU device."),
    "In this release DSpark runs on CUDA (and ROCm) or NPU devices only.",
    &["--speculative-algorithm", "--device"],
    "",
    "");
rule!(EAGLE_MIXED_0518, "SPEC133", "eagle-family-disables-mixed-chunk",
    warns("speculative_hook._handle_eagle_family", "Mixed chunked prefill is disabled because of using eagle speculative decoding."),
    "In this release EAGLE, EAGLE3 and STANDALONE speculation cannot mix prefill chunks into decode batches, so SGLang turns --enable-mixed-chunk off.",
    &["--enable-mixed-chunk", "--speculative-algorithm"],
    "",
    "");
rule!(REJECTION_DETERMINISTIC_0518, "SPEC134", "rejection-sampling-not-deterministic",
    raises("speculative_hook._handle_eagle_family", "--speculative-use-rejection-sampling is incompatible with --enable-deterministic-inference"),
    "In this release rejection sampling draws its coins from the global random generator, which is not batch-invariant, so it cannot be combined with deterministic inference.",
    &["--speculative-use-rejection-sampling", "--enable-deterministic-inference"],
    "",
    "");
rule!(W_DSPARK_GAMMA_UNREADABLE_0518, "SPEC135", "dspark-draft-gamma-unreadable",
    warns("speculative_hook._handle_dspark", "Failed to read DSpark gamma from draft model config"),
    "In this release SGLang reads DSpark's gamma (block size) from the draft's config; a value there it refuses (the error after 'Error:') makes it ignore the config: gamma then comes from --speculative-num-draft-tokens or the default 7.",
    &["--speculative-draft-model-path", "--json-model-override-args"],
    "",
    "");
rule!(DSPARK_PP_0518, "SPEC132", "dspark-single-pipeline-stage",
    raises("speculative_hook._handle_dspark", "Currently DSpark speculative decoding only supports pp_size == 1."),
    "In this release DSpark runs with a single pipeline stage only (--pp-size 1).",
    &["--speculative-algorithm", "--pp-size"],
    "",
    "");

/// Every rule in this family.
pub static RULES: &[&Rule] = &[
    &DFLASH_DEVICE_0518,
    &DFLASH_NO_DP_ATTENTION,
    &DSPARK_DEVICE_0518,
    &DSPARK_PP_0518,
    &EAGLE_MIXED_0518,
    &W_DSPARK_GAMMA_UNREADABLE_0518,
    &REJECTION_DETERMINISTIC_0518,
    &UNKNOWN_ALGORITHM,
    &DECODE_RADIX,
    &BLOCK_VERIFY_ALGO,
    &BLOCK_VERIFY_DEVICE,
    &WINDOW_POSITIVE,
    &SINK_NEGATIVE,
    &SINK_NEEDS_WINDOW,
    &DP_COORDINATION,
    &RAGGED_MODE,
    &ADAPTIVE_STEPS,
    &DFLASH_DEVICE,
    &DFLASH_DP_CUDA,
    &DFLASH_DP_LM_HEAD,
    &DFLASH_DP_CP,
    &DFLASH_PP,
    &DFLASH_NEEDS_DRAFT,
    &DFLASH_BLOCK_POSITIVE,
    &DFLASH_BLOCK_VS_TOKENS,
    &DFLASH_WINDOW_VS_BLOCK,
    &UNO_CUDA,
    &UNO_DRAFT,
    &UNO_LORA_PATH,
    &UNO_DETERMINISTIC,
    &UNO_STRICT_THINKING,
    &UNO_DRAFT_TOKENS,
    &UNO_TOPK,
    &UNO_TREE_STEPS,
    &UNO_TREE_STEPS_POSITIVE,
    &UNO_Q_GE_F,
    &UNO_Q_MAX,
    &UNO_QK,
    &UNO_CAPACITY,
    &UNO_PARENT_LIST,
    &UNO_PDMUX,
    &UNO_TBO,
    &UNO_THRESHOLDS,
    &UNO_TP_PP,
    &UNO_LORA,
    &UNO_REJECTION,
    &UNO_FA3,
    &DSPARK_DEVICE,
    &DSPARK_DP_LM_HEAD,
    &DSPARK_DP_A2A,
    &DSPARK_DP_RAGGED,
    &DSPARK_DP_CP,
    &DSPARK_DP_SPEC_A2A,
    &DSPARK_PP,
    &DSPARK_BLOCK_POSITIVE,
    &DSPARK_TOKENS_VS_GAMMA,
    &STANDALONE_DP,
    &EAGLE_PARTIAL_PARAMS,
    &EAGLE_TOPK_UNSET,
    &EAGLE_TRTLLM_MHA_TOPK,
    &REJECTION_ALGO,
    &REJECTION_TOPK,
    &REJECTION_DETERMINISTIC,
    &REJECTION_THRESHOLDS,
    &EAGLE_PAGE_TREE,
    &NGRAM_SAM_BUDGET,
    &NGRAM_CORPUS_TOKENS,
    &NGRAM_SAM_VS_TOKENS,
    &NGRAM_PAGE,
    &NGRAM_DP,
    &W_WINDOW_NO_EFFECT,
    &W_ADAPTIVE_DISABLED,
    &W_CPU_OVERLAP,
    &W_NON_OVERLAP_SPEC,
    &W_STANDALONE_MIXED,
    &W_DRAFT_TOKENS_ADJUSTED,
    &W_NGRAM_DRAFT_TOKENS,
    &W_NGRAM_MIXED,
    &W_DFLASH_STEPS,
    &W_DFLASH_TOPK,
    &W_DSPARK_STEPS,
    &W_DSPARK_TOPK,
    &W_DSPARK_ALIGN_NOOP,
    &W_DSPARK_SPS_NOOP,
    &W_UNO_OVERRIDE,
    &W_UNO_MIXED,
    &W_FROZEN_MIXED,
    &W_DFLASH_DRAFT_BACKEND,
    &DSPARK_TOKENS_MIN,
    &W_DFLASH_BLOCK_UNREADABLE,
    &W_DFLASH_BLOCK_DEFAULT,
    &W_DFLASH_TRTLLM_FALLBACK,
    &W_DSPARK_CONFIG_UNREADABLE,
    &W_DSPARK_GAMMA_DEFAULT,
];

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The algorithms `SpeculativeAlgorithm.from_string` knows (members of the enum); NEXTN is
/// already EAGLE by then.
const KNOWN: &[&str] = &["DFLASH", "UNO", "DSPARK", "EAGLE", "EAGLE3", "FROZEN_KV_MTP", "STANDALONE", "NGRAM", "NONE"];

/// `choices.DRAFT_ATTENTION_BACKEND_CHOICES`.
const DRAFT_ATTENTION_BACKENDS: &[&str] = &["flashinfer", "fa3", "fa4", "triton", "ascend", "trtllm_mha", "intel_xpu"];

/// `adaptive_spec_params.DEFAULT_ADAPTIVE_CONFIG`'s candidate steps, as
/// `resolve_candidate_steps_from_config` unites and sorts them, from the release's generated
/// lists (0.5.18's config has no 5-step tier); None where its lists are not carried.
fn default_candidate_steps(release: &Release) -> Option<&'static [i64]> {
    release.model_lists().map(|l| l.adaptive_candidate_steps.as_slice()).filter(|steps| !steps.is_empty())
}

/// Whether `release` has 0.5.18's `speculative_hook` (its eagle-family texts mark it).
fn speculative_hook_0518(release: &Release) -> bool {
    EAGLE_MIXED_0518.sglang_text(release).is_some()
}

/// `type(current_platform).__name__` on the in-tree platforms the hardware profiles model.
fn platform_name(ctx: &Ctx) -> &'static str {
    match ctx.hw.platform {
        Platform::Cuda => "CudaSRTPlatform",
        Platform::Rocm => "RocmSRTPlatform",
        Platform::Cpu => "CpuSRTPlatform",
    }
}

fn device(ctx: &Ctx) -> String {
    ctx.cfg.str(f::device).unwrap_or("cuda").to_string()
}

fn algorithm(ctx: &Ctx) -> Option<String> {
    ctx.cfg.str(f::speculative_algorithm).map(str::to_string)
}

fn set_int(ctx: &mut Ctx, field: Field, v: i64) {
    ctx.cfg.set(field, PyValue::Int(v));
}

/// Python's `a // b` for ints (floor division).
fn floor_div(a: i64, b: i64) -> i64 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// The attention backend given on the command line (the base one): `attention_hook` picks it
/// from the model otherwise.
fn explicit_backend(ctx: &Ctx) -> Option<String> {
    if ctx.cfg.is_explicit(f::attention_backend) {
        ctx.cfg.str(f::attention_backend).map(str::to_string)
    } else {
        None
    }
}

/// The base attention backend as `attention_hook` resolved it, when it picked it here (the
/// model's default from its facts, or another hook's choice) and knows it.
fn resolved_base_backend(ctx: &Ctx) -> Option<String> {
    if ctx.cfg.derived_by(f::attention_backend).is_some() && !ctx.cfg.is_unknown(f::attention_backend) {
        ctx.cfg.str(f::attention_backend).map(str::to_string)
    } else {
        None
    }
}

/// `attention_backends_of(resolved_view(...))` when known: as resolved (`attention_hook` picked
/// the model's default from its facts), else when the command fixes both (prefill, decode).
fn explicit_backends(ctx: &Ctx) -> Option<(String, String)> {
    let fields = [f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend];
    if ctx.cfg.derived_by(f::attention_backend).is_some() && !fields.iter().any(|&field| ctx.cfg.is_unknown(field)) {
        let value = |field: Field| ctx.cfg.str(field).filter(|s| !s.is_empty()).map(str::to_string);
        let base = value(f::attention_backend);
        if let (Some(p), Some(d)) = (value(f::prefill_attention_backend).or_else(|| base.clone()), value(f::decode_attention_backend).or(base)) {
            return Some((p, d));
        }
    }
    let given = |field: Field| -> Option<String> {
        if ctx.cfg.is_explicit(field) {
            ctx.cfg.str(field).filter(|s| !s.is_empty()).map(str::to_string)
        } else {
            None
        }
    };
    let base = given(f::attention_backend);
    let prefill = given(f::prefill_attention_backend).or_else(|| base.clone())?;
    let decode = given(f::decode_attention_backend).or(base)?;
    Some((prefill, decode))
}

/// The resolved page size, when the command decides it: `_page_size_default` (1, or 64 on ROCm
/// with SGLANG_AITER_KV_CACHE_LAYOUT=vectorized_5d) and `_page_size_by_attention_backend`, which
/// forces a page size for some backends. Unknown when the attention backend is the model's pick
/// (`attention_hook`, not modelled), or fa4 (its page size depends on the model being MLA).
fn resolved_page_size(ctx: &Ctx) -> Option<i64> {
    explicit_backend(ctx)?;
    let given = |field: Field| if ctx.cfg.is_explicit(field) { ctx.cfg.str(field).map(str::to_string) } else { None };
    let backends: Vec<String> = [f::attention_backend, f::decode_attention_backend, f::prefill_attention_backend, f::speculative_draft_attention_backend]
        .into_iter()
        .filter_map(given)
        .collect();
    let uses = |b: &str| backends.iter().any(|x| x == b);
    let page = if ctx.cfg.is_explicit(f::page_size) {
        ctx.cfg.int(f::page_size)
    } else if ctx.hw.platform == Platform::Rocm && ctx.env("SGLANG_AITER_KV_CACHE_LAYOUT").is_some_and(|v| v.eq_ignore_ascii_case("vectorized_5d")) {
        Some(64)
    } else {
        Some(1)
    };
    if uses("fa4") {
        return None;
    }
    let keep = |allowed: &[i64]| page.filter(|p| allowed.contains(p)).unwrap_or(64);
    if uses("flashmla") || uses("hpc_ops") {
        return Some(64);
    }
    if uses("trtllm_mla") || uses("cutedsl_mla") {
        return Some(keep(&[32, 64]));
    }
    if uses("trtllm_mha") {
        return Some(keep(&[16, 32, 64, 128]));
    }
    page
}

/// Whether a backend the command names makes `_page_size_by_attention_backend` force a page
/// size above 1 (so `--page-size 1` would not stay 1).
fn forces_page_size(ctx: &Ctx) -> bool {
    [f::attention_backend, f::decode_attention_backend, f::prefill_attention_backend, f::speculative_draft_attention_backend].into_iter().any(|field| {
        ctx.cfg.is_explicit(field)
            && ctx.cfg.str(field).is_some_and(|b| matches!(b, "flashmla" | "hpc_ops" | "trtllm_mla" | "cutedsl_mla" | "trtllm_mha" | "fa4"))
    })
}

/// `resolved_view(...).disable_overlap_schedule` here: the flag, what `_disable_overlap_schedule_for_cpu`
/// set, or `overrides._pipeline_parallel_overlap_disable` (pp_size > 1), which runs just before.
fn overlap_disabled(ctx: &Ctx) -> bool {
    ctx.cfg.truthy(f::disable_overlap_schedule) || ctx.cfg.int(f::pp_size).unwrap_or(1) > 1
}

fn max_running_requests_default(ctx: &mut Ctx) {
    // SGLang sets 48 (and warns) when it is still None here; model_hook's model-specific
    // adjustments (not modelled) set it first for some architectures (DeepSeek-V4: 256).
    if ctx.cfg.is_none(f::max_running_requests) {
        ctx.cfg.set_model_dependent(f::max_running_requests, PyValue::Int(48));
    }
}

/// `_disable_overlap_schedule_for_cpu`.
fn disable_overlap_schedule_for_cpu(ctx: &mut Ctx) {
    if device(ctx) != "cpu" || ctx.cfg.truthy(f::disable_overlap_schedule) {
        return;
    }
    ctx.cfg.set(f::disable_overlap_schedule, PyValue::Bool(true));
    let fix = ctx.fix_add_flag("Say it: add --disable-overlap-schedule", f::disable_overlap_schedule, Applicability::Safe);
    ctx.warn(&W_CPU_OVERLAP, &[], &[f::device, f::speculative_algorithm], vec![fix]);
}

fn drop_fix(ctx: &Ctx, title: &str, field: Field) -> Fix {
    ctx.fix_remove(title, field, Applicability::Unsafe)
}

// ---------------------------------------------------------------------------------------------
// The hook
// ---------------------------------------------------------------------------------------------

/// `speculative_hook.handle_speculative_decoding`.
pub fn handle_speculative_decoding(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.is_none(f::speculative_draft_model_path) && ctx.cfg.is_none(f::speculative_draft_model_revision) {
        ctx.cfg.set(f::speculative_draft_model_revision, PyValue::Str("main".into()));
    }
    // overrides._speculative_moe_runner_default: the draft inherits the target's MoE runner (as
    // the other families read it: the MoE hooks that may change it are not modelled).
    // (the target's runner decides the draft's and nothing else here)
    if ctx.cfg.is_none(f::speculative_moe_runner_backend) {
        ctx.cfg.set_computed(f::speculative_moe_runner_backend, |cfg| {
            let target = cfg.str(f::moe_runner_backend).unwrap_or("auto");
            PyValue::Str(match target {
                "flashinfer_megamoe" => "flashinfer_trtllm".to_string(),
                t if t.starts_with("lora_") => "auto".to_string(),
                t => t.to_string(),
            })
        });
    }

    if let Some(a) = algorithm(ctx) {
        ctx.cfg.set(f::speculative_algorithm, PyValue::Str(a.to_uppercase()));
    }
    resolve_algorithm_alias(ctx);
    let alg = algorithm(ctx);
    let alg_str = alg.clone().unwrap_or_else(|| "None".into());

    // (0.5.18 checks it in its PD step only: it goes on with the algorithm here)
    if ctx.cfg.is(f::disaggregation_mode, "decode")
        && ctx.cfg.truthy(f::disaggregation_decode_enable_radix_cache)
        && !matches!(alg.as_deref(), None | Some("DSPARK" | "EAGLE" | "EAGLE3"))
        && DECODE_RADIX.applies_to(ctx.release)
    {
        let fix = drop_fix(ctx, "Drop --disaggregation-decode-enable-radix-cache", f::disaggregation_decode_enable_radix_cache);
        ctx.raise(
            &DECODE_RADIX,
            &[("cfg.speculative_algorithm", &alg_str)],
            &[f::disaggregation_decode_enable_radix_cache, f::speculative_algorithm],
            vec![fix],
        )?;
    }

    if ctx.cfg.truthy(f::speculative_use_block_verification) {
        if !matches!(alg.as_deref(), Some("EAGLE" | "EAGLE3" | "DFLASH" | "DSPARK")) {
            let fix = drop_fix(ctx, "Drop --speculative-use-block-verification", f::speculative_use_block_verification);
            ctx.raise(&BLOCK_VERIFY_ALGO, &[], &[f::speculative_use_block_verification, f::speculative_algorithm], vec![fix])?;
        }
        if device(ctx) != "cuda" {
            let fix = drop_fix(ctx, "Drop --speculative-use-block-verification", f::speculative_use_block_verification);
            ctx.raise(&BLOCK_VERIFY_DEVICE, &[], &[f::speculative_use_block_verification, f::device], vec![fix])?;
        }
        if matches!(alg.as_deref(), Some("EAGLE" | "EAGLE3")) && !ctx.cfg.truthy(f::speculative_use_rejection_sampling) {
            ctx.cfg.set(f::speculative_use_rejection_sampling, PyValue::Bool(true));
        }
    }

    if let Some(window) = ctx.cfg.int(f::speculative_draft_window_size) {
        if window <= 0 {
            let fixes = vec![
                ctx.fix_set("Use a window of 1024 tokens", f::speculative_draft_window_size, "1024", Applicability::Unsafe),
                drop_fix(ctx, "Drop --speculative-draft-window-size", f::speculative_draft_window_size),
            ];
            ctx.raise(&WINDOW_POSITIVE, &[("window_size", &window)], &[f::speculative_draft_window_size], fixes)?;
        }
        // 0.5.18's EAGLE (MTP/NEXTN) draft decode has no window
        let eagle_honours = !speculative_hook_0518(ctx.release);
        let honoured = matches!(alg.as_deref(), Some("EAGLE3" | "DFLASH")) || (eagle_honours && alg.as_deref() == Some("EAGLE"));
        if !honoured {
            let mut fix = ctx.fix_remove("Drop --speculative-draft-window-size", f::speculative_draft_window_size, Applicability::Safe);
            // a sink size needs a window (SPEC007): dropping the window alone would break the
            // command, and the sink has no effect either
            if ctx.cfg.is_explicit(f::speculative_draft_sink_size) && !fix.edits.is_empty() {
                let sink = ctx.fix_remove("", f::speculative_draft_sink_size, Applicability::Safe);
                if !sink.edits.is_empty() {
                    fix.edits.extend(sink.edits);
                    fix.title = "Drop --speculative-draft-window-size and --speculative-draft-sink-size".into();
                }
            }
            ctx.warn(&W_WINDOW_NO_EFFECT, &[("cfg.speculative_algorithm", &alg_str)], &[f::speculative_draft_window_size], vec![fix]);
        }
    }
    if let Some(sink) = ctx.cfg.int(f::speculative_draft_sink_size) {
        if sink < 0 {
            let fixes = vec![
                ctx.fix_set("Use no sink tokens", f::speculative_draft_sink_size, "0", Applicability::Unsafe),
                drop_fix(ctx, "Drop --speculative-draft-sink-size", f::speculative_draft_sink_size),
            ];
            ctx.raise(&SINK_NEGATIVE, &[("sink_size", &sink)], &[f::speculative_draft_sink_size], fixes)?;
        }
        if ctx.cfg.is_none(f::speculative_draft_window_size) {
            let fixes = vec![
                ctx.fix_set("Add a draft window of 1024 tokens", f::speculative_draft_window_size, "1024", Applicability::Unsafe),
                drop_fix(ctx, "Drop --speculative-draft-sink-size", f::speculative_draft_sink_size),
            ];
            ctx.raise(&SINK_NEEDS_WINDOW, &[], &[f::speculative_draft_sink_size], fixes)?;
        }
    }

    if let Some(a) = alg.as_deref() {
        // UNO is an algorithm of the releases that handle it (0.5.18 has no `_handle_uno`)
        let known = KNOWN.contains(&a) && (a != "UNO" || UNO_CUDA.sglang_text(ctx.release).is_some());
        if !known {
            // No plugin algorithms are registered in a plain install.
            let fixes = ["EAGLE3", "EAGLE", "NGRAM"]
                .iter()
                .map(|s| ctx.fix_set(format!("Use {s}"), f::speculative_algorithm, s, Applicability::Unsafe))
                .collect();
            ctx.raise(&UNKNOWN_ALGORITHM, &[("name", &a)], &[f::speculative_algorithm], fixes)?;
        }
    }

    if env_bool(ctx, "SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION")
        && (!matches!(alg.as_deref(), Some("EAGLE" | "EAGLE3" | "DSPARK")) || ctx.cfg.truthy(f::enable_multi_layer_eagle))
    {
        let fixes = vec![ctx.fix_unset_env(
            "Unset SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION",
            "SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION",
            Applicability::Unsafe,
        )];
        // (`?`, not `return`: a release without this check goes on with the algorithm's defaults)
        ctx.raise(&DP_COORDINATION, &[], &[f::speculative_algorithm, f::enable_multi_layer_eagle], fixes)?;
    }

    if ctx.cfg.truthy(f::speculative_adaptive) {
        maybe_disable_adaptive(ctx);
        if ctx.cfg.truthy(f::speculative_adaptive) {
            init_adaptive_speculative_params(ctx)?;
        }
    }

    let Some(alg) = alg else { return Ok(()) };
    // SpeculativeAlgorithm.handle_server_args
    let mode = ctx.env("SGLANG_RAGGED_VERIFY_MODE").unwrap_or("static").to_string();
    if !matches!(mode.as_str(), "static" | "cap-accept" | "compact") {
        ctx.raise(
            &RAGGED_MODE,
            &[("value", &str_repr(&mode)), ("', '.join((repr(m.value) for m in RaggedVerifyMode))", &"'static', 'cap-accept', 'compact'")],
            &[f::speculative_algorithm],
            vec![ctx.fix_unset_env("Unset SGLANG_RAGGED_VERIFY_MODE (static, the default)", "SGLANG_RAGGED_VERIFY_MODE", Applicability::Unsafe)],
        )?;
    }
    match alg.as_str() {
        "DFLASH" => handle_dflash(ctx),
        "UNO" => handle_uno(ctx),
        "DSPARK" => handle_dspark(ctx, &mode),
        "FROZEN_KV_MTP" => handle_frozen_kv_mtp(ctx),
        "EAGLE" | "EAGLE3" | "STANDALONE" => handle_eagle_family(ctx, &alg),
        "NGRAM" => handle_ngram(ctx),
        _ => Ok(()),
    }
}

/// `_resolve_speculative_algorithm_alias`: NEXTN is EAGLE; with a draft model, its config decides
/// whether EAGLE/NEXTN become FROZEN_KV_MTP (a Gemma4 assistant draft) or EAGLE3 is refused.
fn resolve_algorithm_alias(ctx: &mut Ctx) {
    let Some(alg) = algorithm(ctx) else { return };
    let draft = !ctx.cfg.is_none(f::speculative_draft_model_path);
    // Whether the draft is a Gemma4 assistant, by its architecture (not known: None). 0.5.18
    // resolves the alias as 0.5.23 does.
    let gemma4_draft = if lists_carried(ctx.release) {
        ctx.draft_model.as_ref().and_then(|m| m.architecture).map(|a| matches!(a, "Gemma4AssistantForCausalLM" | "Gemma4UnifiedAssistantForCausalLM"))
    } else {
        None
    };
    match alg.as_str() {
        "EAGLE3" if draft && gemma4_draft == Some(false) => {}
        "EAGLE3" if draft => {
            ctx.model_config(site("speculative_hook._resolve_speculative_algorithm_alias", "Gemma4AssistantForCausalLM draft requires"));
        }
        "NEXTN" | "EAGLE" if draft && gemma4_draft == Some(false) => ctx.cfg.set(f::speculative_algorithm, PyValue::Str("EAGLE".into())),
        "NEXTN" | "EAGLE" if draft => {
            // EAGLE, or FROZEN_KV_MTP for a Gemma4 assistant draft: the draft's config decides.
            ctx.cfg.set_model_dependent(f::speculative_algorithm, PyValue::Str("EAGLE".into()));
        }
        "NEXTN" | "EAGLE" => ctx.cfg.set(f::speculative_algorithm, PyValue::Str("EAGLE".into())),
        _ => {}
    }
}

/// `adaptive_spec_params.adaptive_unsupported_reason` (in-tree platforms: no platform worker).
fn adaptive_unsupported_reason(ctx: &Ctx) -> Option<String> {
    let alg = algorithm(ctx);
    if !matches!(alg.as_deref(), Some("EAGLE" | "EAGLE3")) {
        return Some(format!("speculative_algorithm={} (only EAGLE/EAGLE3 are supported)", alg.unwrap_or_else(|| "None".into())));
    }
    if let Some(k) = ctx.cfg.int(f::speculative_eagle_topk) {
        if k != 1 {
            return Some(format!("speculative_eagle_topk={k} (only topk=1 is supported)"));
        }
    }
    if attn_dp_enabled(ctx) {
        return Some("attention DP is not supported (adaptive tier decisions are not synchronized across DP ranks)".into());
    }
    if ctx.cfg.truthy(f::enable_multi_layer_eagle) {
        return Some("enable_multi_layer_eagle=True is not supported (MultiLayerEagleWorkerV2 does not implement adaptive)".into());
    }
    if ctx.cfg.truthy(f::enable_two_batch_overlap) {
        return Some("enable_two_batch_overlap=True is not supported (adaptive state swap would discard the TboAttnBackend wrapper)".into());
    }
    if ctx.cfg.truthy(f::enable_pdmux) {
        return Some("enable_pdmux=True is not supported (adaptive state swap does not update decode_attn_backend_group)".into());
    }
    None
}

/// `_maybe_disable_adaptive`.
fn maybe_disable_adaptive(ctx: &mut Ctx) {
    if let Some(reason) = adaptive_unsupported_reason(ctx) {
        let fix = ctx.fix_remove("Drop --speculative-adaptive", f::speculative_adaptive, Applicability::Safe);
        ctx.warn(&W_ADAPTIVE_DISABLED, &[("reason", &reason)], &[f::speculative_adaptive], vec![fix]);
        ctx.cfg.set(f::speculative_adaptive, PyValue::Bool(false));
    }
}

/// `_init_adaptive_speculative_params`.
fn init_adaptive_speculative_params(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.is_none(f::speculative_adaptive_config) {
        // resolve_candidate_steps_from_config reads the JSON file on the serving machine.
        ctx.skip(site("speculative.adaptive_spec_params._load_adaptive_config", "BS {key}: candidate_steps must be"), NotRunReason::Files);
        ctx.skip(site("speculative.adaptive_spec_params._load_adaptive_config", "speculative_adaptive_config must contain"), NotRunReason::Files);
        ctx.skip(site("speculative_hook._init_adaptive_speculative_params", "--speculative-num-steps={cfg.speculative_num_steps} is not in"), NotRunReason::Files);
        if ctx.cfg.is_none(f::speculative_eagle_topk) {
            set_int(ctx, f::speculative_eagle_topk, 1);
        }
        if ctx.cfg.is_none(f::speculative_num_steps) {
            ctx.cfg.set_model_dependent(f::speculative_num_steps, PyValue::Int(3));
        }
        let steps = ctx.cfg.int(f::speculative_num_steps).unwrap_or(3);
        ctx.cfg.set_model_dependent(f::speculative_num_draft_tokens, PyValue::Int(steps + 1));
        return Ok(());
    }
    let Some(candidates) = default_candidate_steps(ctx.release) else {
        // a release whose lists are not carried: its candidate steps are not known here
        ctx.skip(site("speculative_hook._init_adaptive_speculative_params", "--speculative-num-steps={cfg.speculative_num_steps} is not in"), crate::rules::NotRunReason::NotImplemented);
        for field in [f::speculative_eagle_topk, f::speculative_num_steps, f::speculative_num_draft_tokens] {
            if ctx.cfg.is_none(field) {
                ctx.cfg.set_unknown(field, PyValue::None);
            }
        }
        return Ok(());
    };
    if ctx.cfg.is_none(f::speculative_eagle_topk) {
        set_int(ctx, f::speculative_eagle_topk, 1);
    }
    if ctx.cfg.is_none(f::speculative_num_steps) {
        set_int(ctx, f::speculative_num_steps, candidates.get(candidates.len() / 2).copied().unwrap_or(3));
    }
    let steps = ctx.cfg.int(f::speculative_num_steps).unwrap_or(0);
    if !candidates.contains(&steps) {
        let list = format!("[{}]", candidates.iter().map(i64::to_string).collect::<Vec<_>>().join(", "));
        let fixes = vec![
            ctx.fix_set("Start at 3 steps", f::speculative_num_steps, "3", Applicability::Unsafe),
            ctx.fix_remove("Drop --speculative-num-steps (start in the middle)", f::speculative_num_steps, Applicability::Unsafe),
        ];
        ctx.raise(
            &ADAPTIVE_STEPS,
            &[("cfg.speculative_num_steps", &steps), ("candidate_steps", &list)],
            &[f::speculative_num_steps, f::speculative_adaptive],
            fixes,
        )?;
    }
    set_int(ctx, f::speculative_num_draft_tokens, steps + 1);
    Ok(())
}

/// `_handle_dflash`.
fn handle_dflash(ctx: &mut Ctx) -> Step {
    let dev = device(ctx);
    if DFLASH_DEVICE_0518.applies_to(ctx.release) {
        // 0.5.18: CUDA or NPU, and no DP attention at all
        if !(dev.starts_with("cuda") || dev == "npu") {
            let fix = drop_fix(ctx, "Drop --device (use the GPU)", f::device);
            ctx.raise(&DFLASH_DEVICE_0518, &[], &[f::device, f::speculative_algorithm], vec![fix])?;
        }
        if attn_dp_enabled(ctx) {
            let fix = drop_fix(ctx, "Drop --enable-dp-attention", f::enable_dp_attention);
            ctx.raise(&DFLASH_NO_DP_ATTENTION, &[], &[f::enable_dp_attention, f::speculative_algorithm], vec![fix])?;
        }
    } else if !(dev.starts_with("cuda") || dev == "npu" || dev == "xpu") {
        let fix = drop_fix(ctx, "Drop --device (use the GPU)", f::device);
        ctx.raise(
            &DFLASH_DEVICE,
            &[("algorithm", &"DFLASH"), ("type(current_platform).__name__", &platform_name(ctx)), ("cfg.device", &str_repr(&dev))],
            &[f::device, f::speculative_algorithm],
            vec![fix],
        )?;
    }
    if attn_dp_enabled(ctx) && dev != "npu" && !DFLASH_DEVICE_0518.applies_to(ctx.release) {
        if !dev.starts_with("cuda") {
            ctx.raise(&DFLASH_DP_CUDA, &[], &[f::attn_dp_size, f::device], vec![drop_fix(ctx, "Drop --attn-dp-size", f::attn_dp_size)])?;
        }
        if !ctx.cfg.truthy(f::enable_dp_lm_head) {
            let fix = ctx.fix_add_flag("Add --enable-dp-lm-head", f::enable_dp_lm_head, Applicability::Safe);
            ctx.raise(&DFLASH_DP_LM_HEAD, &[], &[f::attn_dp_size, f::enable_dp_lm_head, f::speculative_algorithm], vec![fix])?;
        }
        if ctx.cfg.int(f::attn_cp_size).unwrap_or(1) != 1 {
            let fix = drop_fix(ctx, "Drop --attn-cp-size", f::attn_cp_size);
            ctx.raise(&DFLASH_DP_CP, &[], &[f::attn_cp_size, f::attn_dp_size], vec![fix])?;
        }
        // SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION was refused for DFLASH already.
    }
    if ctx.cfg.int(f::pp_size).unwrap_or(1) != 1 {
        let fix = ctx.fix_set("Use --pp-size 1", f::pp_size, "1", Applicability::Unsafe);
        ctx.raise(&DFLASH_PP, &[], &[f::pp_size, f::speculative_algorithm], vec![fix])?;
    }
    if ctx.cfg.is_none(f::speculative_draft_model_path) {
        ctx.raise(&DFLASH_NEEDS_DRAFT, &[], &[f::speculative_algorithm], vec![])?;
    }
    force_one(ctx, f::speculative_num_steps, &W_DFLASH_STEPS, "cfg.speculative_num_steps");
    force_one(ctx, f::speculative_eagle_topk, &W_DFLASH_TOPK, "cfg.speculative_eagle_topk");
    if let Some(bs) = ctx.cfg.int(f::speculative_dflash_block_size) {
        if bs <= 0 {
            let fix = drop_fix(ctx, "Drop --speculative-dflash-block-size (use the draft's)", f::speculative_dflash_block_size);
            ctx.raise(&DFLASH_BLOCK_POSITIVE, &[("cfg.speculative_dflash_block_size", &bs)], &[f::speculative_dflash_block_size], vec![fix])?;
        }
        if let Some(t) = ctx.cfg.int(f::speculative_num_draft_tokens) {
            if t != bs {
                let fix = ctx.fix_remove("Drop --speculative-num-draft-tokens (the block size sets it)", f::speculative_num_draft_tokens, Applicability::Safe);
                ctx.raise(
                    &DFLASH_BLOCK_VS_TOKENS,
                    &[("cfg.speculative_num_draft_tokens", &t), ("cfg.speculative_dflash_block_size", &bs)],
                    &[f::speculative_num_draft_tokens, f::speculative_dflash_block_size],
                    vec![fix],
                )?;
            }
        }
        set_int(ctx, f::speculative_num_draft_tokens, bs);
    }
    if ctx.cfg.is_none(f::speculative_num_draft_tokens) {
        // The draft's config gives the block size (16 when it does not, or cannot be read).
        let draft = draft_hf_config(ctx, ctx.draft_model, f::speculative_draft_model_revision);
        let inferred = match draft.as_ref().map(parse_dflash_draft_config) {
            Some(Ok(parsed)) => Some(parsed.block_size),
            Some(Err(Failure::Raises(e))) => {
                ctx.warn(&W_DFLASH_BLOCK_UNREADABLE, &[("e", &e)], &[f::speculative_draft_model_path, f::json_model_override_args], vec![]);
                Some(None)
            }
            Some(Err(Failure::Unknown)) | None => None,
        };
        match inferred {
            Some(Some(size)) => set_int(ctx, f::speculative_num_draft_tokens, size),
            Some(None) => {
                ctx.warn(&W_DFLASH_BLOCK_DEFAULT, &[("inferred_block_size", &16)], &[f::speculative_draft_model_path], vec![]);
                set_int(ctx, f::speculative_num_draft_tokens, 16);
            }
            None => {
                let reason = if draft.is_some() { NotRunReason::NotImplemented } else { NotRunReason::ModelConfig };
                ctx.skip_unlisted(PARSE_DFLASH_DRAFT_CONFIG, reason);
                ctx.cfg.set_model_dependent(f::speculative_num_draft_tokens, PyValue::Int(16));
            }
        }
    }
    if let Some(window) = ctx.cfg.int(f::speculative_draft_window_size) {
        let tokens = ctx.cfg.int(f::speculative_num_draft_tokens).unwrap_or(16);
        if window < tokens {
            let fix = ctx.fix_set(format!("Use a window of {tokens} tokens"), f::speculative_draft_window_size, &tokens.to_string(), Applicability::Unsafe);
            ctx.raise(
                &DFLASH_WINDOW_VS_BLOCK,
                &[("cfg.speculative_draft_window_size", &window), ("draft_tokens", &tokens)],
                &[f::speculative_draft_window_size, f::speculative_num_draft_tokens],
                vec![fix],
            )?;
        }
    }
    resolve_dflash_draft_attention_backend(ctx)?;
    max_running_requests_default(ctx);
    Ok(())
}

/// `_resolve_dflash_draft_attention_backend` (in-tree platforms).
fn resolve_dflash_draft_attention_backend(ctx: &mut Ctx) -> Step {
    let fallback = if ctx.hw.platform == Platform::Rocm { "triton" } else { "flashinfer" };
    let given = ctx.cfg.str(f::speculative_draft_attention_backend).map(str::to_string);
    let backend = match given {
        Some(b) => b,
        None => match explicit_backends(ctx) {
            Some((prefill, _)) => prefill,
            None => {
                // The target's prefill backend, which attention_hook (not modelled) picks from the
                // model: left unset here. (Marking it model-dependent would turn every later check
                // that reads it, e.g. check_chunked_prefill's page-size guess, into a not-run one.)
                return Ok(());
            }
        },
    };
    if !DRAFT_ATTENTION_BACKENDS.contains(&backend.as_str()) {
        let fix = ctx.fix_set(format!("Use {fallback} for the draft"), f::speculative_draft_attention_backend, fallback, Applicability::Safe);
        ctx.warn(
            &W_DFLASH_DRAFT_BACKEND,
            &[("draft_backend", &str_repr(&backend)), ("type(current_platform).__name__", &platform_name(ctx)), ("fallback_backend", &fallback)],
            &[f::speculative_draft_attention_backend, f::attention_backend],
            vec![fix],
        );
        ctx.cfg.set(f::speculative_draft_attention_backend, PyValue::Str(fallback.into()));
    } else if backend == "trtllm_mha" {
        return dflash_trtllm_mha_draft(ctx, fallback);
    } else {
        ctx.cfg.set(f::speculative_draft_attention_backend, PyValue::Str(backend));
    }
    Ok(())
}

/// `_resolve_dflash_draft_attention_backend`'s trtllm_mha branch: kept for a draft whose layers
/// are all sliding-window attention or that declares `is_causal`, else fa4 on SM100, else the
/// fallback. The draft's config decides.
fn dflash_trtllm_mha_draft(ctx: &mut Ctx, fallback: &str) -> Step {
    let keep = PyValue::Str("trtllm_mha".into());
    let Some(draft) = draft_hf_config(ctx, ctx.draft_model, f::speculative_draft_model_revision) else {
        ctx.skip(site("speculative.dflash_utils.get_dflash_layer_types", "DFLASH config.layer_types must be"), NotRunReason::ModelConfig);
        ctx.cfg.set_model_dependent(f::speculative_draft_attention_backend, keep);
        return Ok(());
    };
    let layer_types = match get_dflash_layer_types(&draft) {
        Ok(l) => l,
        // A layer_types that is not a list: for most model types transformers' config class
        // already refuses it while the config loads (a StrictDataclassFieldValidationError),
        // before get_dflash_layer_types would; which comes first is not modelled.
        Err(_) => {
            ctx.skip(site("speculative.dflash_utils.get_dflash_layer_types", "DFLASH config.layer_types must be"), NotRunReason::NotImplemented);
            ctx.cfg.set_model_dependent(f::speculative_draft_attention_backend, keep);
            return Ok(());
        }
    };
    let none = PyValue::None;
    let attr = |key: &str| draft.text_attr_or(key, &none).clone();
    let (num_layers, is_causal) = (attr("num_hidden_layers"), attr("is_causal"));
    let all_sliding = layer_types.as_ref().is_some_and(|l| {
        !l.is_empty() && num_layers == PyValue::Int(l.len() as i64) && l.iter().all(|t| t.as_str() == Some("sliding_attention"))
    });
    let all_causal = is_causal == PyValue::Bool(true);
    if all_sliding || all_causal {
        ctx.cfg.set(f::speculative_draft_attention_backend, keep);
        return Ok(());
    }
    // A key a config file does not write takes its config class's default (Qwen3's layer_types
    // are derived, for one): from the file alone, only values written decide.
    if !draft.complete && (layer_types.is_none() || matches!(num_layers, PyValue::None) || matches!(is_causal, PyValue::None)) {
        ctx.skip_unlisted(DFLASH_TRTLLM_DRAFT_CHECK, NotRunReason::NotImplemented);
        ctx.cfg.set_model_dependent(f::speculative_draft_attention_backend, keep);
        return Ok(());
    }
    let fallback = if is_sm100(ctx.hw) { "fa4" } else { fallback };
    let shown = layer_types.map_or(PyValue::None, PyValue::List);
    let fix = ctx.fix_set(format!("Use {fallback} for the draft"), f::speculative_draft_attention_backend, fallback, Applicability::Safe);
    ctx.warn(
        &W_DFLASH_TRTLLM_FALLBACK,
        &[("layer_types", &shown.repr()), ("getattr(draft_text_config, 'is_causal', None)", &is_causal.repr()), ("fallback_backend", &fallback)],
        &[f::speculative_draft_attention_backend],
        vec![fix],
    );
    ctx.cfg.set(f::speculative_draft_attention_backend, PyValue::Str(fallback.into()));
    Ok(())
}

/// `_handle_dspark`'s refusal when no draft is given, bundled or in a dspark/ subfolder.
const DSPARK_NEEDS_DRAFT: SiteRef = site("speculative_hook._handle_dspark", "DSpark dense speculative decoding requires setting");

/// The checks of the draft's config that have no raise site of their own (SGLang catches what
/// the parsers raise), as not-run records name them.
const PARSE_DFLASH_DRAFT_CONFIG: &str = "speculative.dflash_utils.parse_dflash_draft_config";
const PARSE_DSPARK_DRAFT_CONFIG: &str = "speculative.dspark_components.dspark_config.parse_dspark_draft_config";
const DFLASH_TRTLLM_DRAFT_CHECK: &str = "speculative_hook._resolve_dflash_draft_attention_backend";

/// The config `get_config` gives the DFLASH / DSpark handlers for a model with these facts (the
/// draft's, or the target's when the draft is bundled in it): the keys the parsers read, with
/// `--json-model-override-args` applied. None when not known: no config facts, a catalog
/// config while another revision (`revision_field`) is asked for, overrides that are not a JSON
/// object, or a release whose parsers are not these (0.5.23's).
fn draft_hf_config(ctx: &Ctx, facts: Option<crate::models::ModelFacts<'_>>, revision_field: Field) -> Option<DraftHfConfig> {
    if !lists_carried(ctx.release) || speculative_hook_0518(ctx.release) {
        return None;
    }
    hf_config_of(ctx, facts, revision_field)
}

/// `draft_hf_config` for DSpark, whose config parser 0.5.18 writes as 0.5.23 does but for the
/// nested sections it reads (`dspark_sections`).
fn dspark_hf_config(ctx: &Ctx, facts: Option<crate::models::ModelFacts<'_>>, revision_field: Field) -> Option<DraftHfConfig> {
    if !lists_carried(ctx.release) {
        return None;
    }
    hf_config_of(ctx, facts, revision_field)
}

/// How this release's `parse_dspark_draft_config` reads the draft's config.
fn dspark_parser(release: &Release) -> &'static DSparkParser {
    if speculative_hook_0518(release) {
        &DSPARK_PARSER_0518
    } else {
        &DSPARK_PARSER
    }
}

fn hf_config_of(ctx: &Ctx, facts: Option<crate::models::ModelFacts<'_>>, revision_field: Field) -> Option<DraftHfConfig> {
    let facts = facts?;
    // what get_config loaded (a catalog config), else what the config writes
    let computed = facts.computed.and_then(|c| c.speculative_draft_attrs.as_ref());
    let keys = computed.or(facts.raw?.speculative_draft_keys.as_ref())?;
    if facts.from == crate::models::FactsFrom::Catalog && crate::rules::shared::loaded_config::other_revision(ctx, revision_field) {
        return None;
    }
    let overrides = crate::rules::shared::loaded_config::items(ctx)?;
    Some(DraftHfConfig::new(keys, &overrides, computed.is_some()))
}

/// `_handle_uno`.
fn handle_uno(ctx: &mut Ctx) -> Step {
    if !device(ctx).starts_with("cuda") {
        ctx.raise(&UNO_CUDA, &[], &[f::device, f::speculative_algorithm], vec![drop_fix(ctx, "Drop --device", f::device)])?;
    }
    if !ctx.cfg.is_none(f::speculative_draft_model_path) {
        let fix = ctx.fix_remove("Drop --speculative-draft-model-path", f::speculative_draft_model_path, Applicability::Safe);
        ctx.raise(&UNO_DRAFT, &[], &[f::speculative_draft_model_path], vec![fix])?;
    }
    if ctx.cfg.is_none(f::uno_lora_path) {
        ctx.raise(&UNO_LORA_PATH, &[], &[f::speculative_algorithm], vec![])?;
    }
    if ctx.cfg.truthy(f::enable_deterministic_inference) {
        let fix = drop_fix(ctx, "Drop --enable-deterministic-inference", f::enable_deterministic_inference);
        ctx.raise(&UNO_DETERMINISTIC, &[], &[f::enable_deterministic_inference], vec![fix])?;
    }
    if ctx.cfg.truthy(f::enable_strict_thinking) {
        let fix = drop_fix(ctx, "Drop --enable-strict-thinking", f::enable_strict_thinking);
        ctx.raise(&UNO_STRICT_THINKING, &[], &[f::enable_strict_thinking], vec![fix])?;
    }
    let q = match ctx.cfg.int(f::speculative_num_draft_tokens) {
        Some(q) if q >= 1 => q,
        _ => {
            let fix = ctx.fix_set("Verify 4 tokens per step", f::speculative_num_draft_tokens, "4", Applicability::Unsafe);
            return ctx.raise(&UNO_DRAFT_TOKENS, &[], &[f::speculative_num_draft_tokens, f::speculative_algorithm], vec![fix]);
        }
    };
    set_int(ctx, f::speculative_num_draft_tokens, q);
    let k = ctx.cfg.int(f::speculative_eagle_topk).unwrap_or(1);
    if k < 1 {
        let fix = ctx.fix_set("Use top-k 1", f::speculative_eagle_topk, "1", Applicability::Unsafe);
        ctx.raise(&UNO_TOPK, &[("candidate_top_k", &k)], &[f::speculative_eagle_topk], vec![fix])?;
    }
    if k > 1 {
        let Some(steps) = ctx.cfg.int(f::speculative_num_steps) else {
            let fix = ctx.fix_set("Draft 3 steps", f::speculative_num_steps, "3", Applicability::Unsafe);
            return ctx.raise(&UNO_TREE_STEPS, &[], &[f::speculative_eagle_topk, f::speculative_num_steps], vec![fix]);
        };
        if steps < 1 {
            let fix = ctx.fix_set("Draft 3 steps", f::speculative_num_steps, "3", Applicability::Unsafe);
            ctx.raise(&UNO_TREE_STEPS_POSITIVE, &[("speculative_num_steps", &steps)], &[f::speculative_num_steps], vec![fix])?;
        }
        let width = steps + 1;
        if q < width {
            let fix = ctx.fix_set(format!("Verify {width} tokens"), f::speculative_num_draft_tokens, &width.to_string(), Applicability::Unsafe);
            ctx.raise(&UNO_Q_GE_F, &[("verify_width", &q), ("draft_width", &width)], &[f::speculative_num_draft_tokens, f::speculative_num_steps], vec![fix])?;
        }
        if q > 128 {
            let fix = ctx.fix_set("Verify 128 tokens", f::speculative_num_draft_tokens, "128", Applicability::Unsafe);
            ctx.raise(&UNO_Q_MAX, &[("verify_width", &q)], &[f::speculative_num_draft_tokens], vec![fix])?;
        }
        let slots = q * k;
        if slots > 2048 {
            let fix = ctx.fix_set("Use top-k 2", f::speculative_eagle_topk, "2", Applicability::Unsafe);
            ctx.raise(
                &UNO_QK,
                &[("verify_width", &q), ("candidate_top_k", &k), ("frontier_slots", &slots)],
                &[f::speculative_num_draft_tokens, f::speculative_eagle_topk],
                vec![fix],
            )?;
        }
        let (mut capacity, mut at_depth) = (1i64, 1i64);
        for _ in 0..steps {
            at_depth = at_depth.saturating_mul(k);
            capacity = capacity.saturating_add(at_depth);
            if capacity >= q {
                break;
            }
        }
        if q > capacity {
            let fix = ctx.fix_set(format!("Verify {capacity} tokens"), f::speculative_num_draft_tokens, &capacity.to_string(), Applicability::Unsafe);
            ctx.raise(
                &UNO_CAPACITY,
                &[("verify_width", &q), ("tree_capacity", &capacity), ("draft_width", &width), ("candidate_top_k", &k)],
                &[f::speculative_num_draft_tokens, f::speculative_num_steps],
                vec![fix],
            )?;
        }
        let parent = k * (steps - 1).max(0) + 1;
        if q - 1 > parent {
            let fix = ctx.fix_set(format!("Verify {} tokens", parent + 1), f::speculative_num_draft_tokens, &(parent + 1).to_string(), Applicability::Unsafe);
            ctx.raise(
                &UNO_PARENT_LIST,
                &[("verify_width - 1", &(q - 1)), ("parent_width", &parent), ("draft_width", &width), ("candidate_top_k", &k)],
                &[f::speculative_num_draft_tokens, f::speculative_num_steps],
                vec![fix],
            )?;
        }
        if ctx.cfg.truthy(f::enable_pdmux) {
            ctx.raise(&UNO_PDMUX, &[], &[f::enable_pdmux], vec![drop_fix(ctx, "Drop --enable-pdmux", f::enable_pdmux)])?;
        }
        if ctx.cfg.truthy(f::enable_two_batch_overlap) {
            ctx.raise(&UNO_TBO, &[], &[f::enable_two_batch_overlap], vec![drop_fix(ctx, "Drop --enable-two-batch-overlap", f::enable_two_batch_overlap)])?;
        }
        if ctx.cfg.float(f::speculative_accept_threshold_single) != Some(1.0) || ctx.cfg.float(f::speculative_accept_threshold_acc) != Some(1.0) {
            let mut fixes = vec![];
            for field in [f::speculative_accept_threshold_single, f::speculative_accept_threshold_acc] {
                if ctx.cfg.is_explicit(field) && ctx.cfg.float(field) != Some(1.0) {
                    fixes.push(ctx.fix_remove(format!("Drop {}", ctx.flag(field)), field, Applicability::Unsafe));
                }
            }
            ctx.raise(&UNO_THRESHOLDS, &[], &[f::speculative_accept_threshold_single, f::speculative_accept_threshold_acc], fixes)?;
        }
        set_int(ctx, f::speculative_num_steps, steps);
        set_int(ctx, f::speculative_eagle_topk, k);
    } else {
        for field in [f::speculative_num_steps, f::speculative_eagle_topk] {
            let old = ctx.cfg.get(field).clone();
            if !old.is_none() && old.as_int() != Some(1) {
                let fix = ctx.fix_remove(format!("Drop {}", ctx.flag(field)), field, Applicability::Safe);
                ctx.warn(&W_UNO_OVERRIDE, &[("field", &field.name()), ("old_value", &old.py_str())], &[field], vec![fix]);
            }
        }
        set_int(ctx, f::speculative_num_steps, 1);
        set_int(ctx, f::speculative_eagle_topk, 1);
    }
    if (ctx.cfg.int(f::tp_size).unwrap_or(1), ctx.cfg.int(f::pp_size).unwrap_or(1)) != (1, 1) {
        let mut fixes = vec![];
        for field in [f::tp_size, f::pp_size] {
            if ctx.cfg.int(field).unwrap_or(1) != 1 {
                fixes.push(ctx.fix_set(format!("Use {} 1", ctx.flag(field)), field, "1", Applicability::Unsafe));
            }
        }
        ctx.raise(&UNO_TP_PP, &[], &[f::tp_size, f::pp_size], fixes)?;
    }
    // UNO does not support DP attention or context parallelism: unreachable with tp_size 1.
    if ctx.cfg.truthy(f::enable_lora) || ctx.cfg.truthy(f::lora_paths) {
        let mut fixes = vec![];
        for field in [f::enable_lora, f::lora_paths] {
            if ctx.cfg.is_explicit(field) {
                fixes.push(ctx.fix_remove(format!("Drop {}", ctx.flag(field)), field, Applicability::Unsafe));
            }
        }
        ctx.raise(&UNO_LORA, &[], &[f::enable_lora, f::lora_paths], fixes)?;
    }
    ctx.cfg.set(f::enable_lora_overlap_loading, PyValue::Bool(false));
    ctx.cfg.set(f::lora_strict_loading, PyValue::Bool(true));
    if ctx.cfg.truthy(f::speculative_use_rejection_sampling) {
        let fix = drop_fix(ctx, "Drop --speculative-use-rejection-sampling", f::speculative_use_rejection_sampling);
        ctx.raise(&UNO_REJECTION, &[], &[f::speculative_use_rejection_sampling], vec![fix])?;
    }
    if ctx.cfg.truthy(f::enable_mixed_chunk) {
        ctx.cfg.set(f::enable_mixed_chunk, PyValue::Bool(false));
        let fix = ctx.fix_remove("Drop --enable-mixed-chunk", f::enable_mixed_chunk, Applicability::Safe);
        ctx.warn(&W_UNO_MIXED, &[], &[f::enable_mixed_chunk], vec![fix]);
    }
    match explicit_backends(ctx) {
        Some((p, d)) if (p.as_str(), d.as_str()) != ("fa3", "fa3") => {
            let fix = ctx.fix_set("Use --attention-backend fa3", f::attention_backend, "fa3", Applicability::Unsafe);
            ctx.raise(
                &UNO_FA3,
                &[("prefill_backend", &str_repr(&p)), ("decode_backend", &str_repr(&d))],
                &[f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend],
                vec![fix],
            )
        }
        Some(_) => Ok(()),
        None => {
            // attention_hook picks the backends from the model
            ctx.model_config(site("speculative_hook._handle_uno", "UNO requires FA3 for both prefill and decode attention"));
            Ok(())
        }
    }
}

/// `_handle_dspark` (its draft checkpoint config is not read here).
fn handle_dspark(ctx: &mut Ctx, mode: &str) -> Step {
    let dev = device(ctx);
    let npu = dev.starts_with("npu");
    // 0.5.18: CUDA or NPU, DP attention over --dp-size groups, and one pipeline stage
    let legacy = DSPARK_DEVICE_0518.applies_to(ctx.release);
    if legacy && !(dev.starts_with("cuda") || npu) {
        ctx.raise(&DSPARK_DEVICE_0518, &[], &[f::device, f::speculative_algorithm], vec![drop_fix(ctx, "Drop --device", f::device)])?;
    }
    if !(legacy || dev.starts_with("cuda") || npu || dev.starts_with("xpu")) {
        ctx.raise(&DSPARK_DEVICE, &[], &[f::device, f::speculative_algorithm], vec![drop_fix(ctx, "Drop --device", f::device)])?;
    }
    let dp_groups = if legacy_dp_attention(ctx) {
        if ctx.cfg.truthy(f::enable_dp_attention) { ctx.cfg.int(f::dp_size).unwrap_or(1) } else { 1 }
    } else {
        ctx.cfg.int(f::attn_dp_size).unwrap_or(1)
    };
    if dp_groups > 1 {
        if !ctx.cfg.truthy(f::enable_dp_lm_head) {
            let fix = ctx.fix_add_flag("Add --enable-dp-lm-head", f::enable_dp_lm_head, Applicability::Safe);
            ctx.raise(&DSPARK_DP_LM_HEAD, &[], &[f::attn_dp_size, f::enable_dp_lm_head, f::speculative_algorithm], vec![fix])?;
        }
        let a2a = ctx.cfg.str(f::moe_a2a_backend).unwrap_or("none").to_string();
        // mori is listed from 0.5.19 on: the release's own message says which it takes
        let mori = DSPARK_DP_A2A.sglang_text(ctx.release).is_some_and(|(_, t)| t.contains("'mori'"));
        if !(npu || matches!(a2a.as_str(), "none" | "megamoe") || mori && a2a == "mori") {
            let fix = ctx.fix_remove("Drop --moe-a2a-backend", f::moe_a2a_backend, Applicability::Unsafe);
            ctx.raise(&DSPARK_DP_A2A, &[("cfg.moe_a2a_backend", &str_repr(&a2a))], &[f::moe_a2a_backend], vec![fix])?;
        }
        if !npu && (a2a != "none" || env_bool(ctx, "SGLANG_ENABLE_DP_SPEC_PREFILL_COORDINATION")) && mode != "static" {
            let fix = ctx.fix_unset_env("Unset SGLANG_RAGGED_VERIFY_MODE (static, the default)", "SGLANG_RAGGED_VERIFY_MODE", Applicability::Safe);
            ctx.raise(&DSPARK_DP_RAGGED, &[], &[f::moe_a2a_backend, f::attn_dp_size], vec![fix])?;
        }
        let cp = ctx.cfg.int(f::attn_cp_size).unwrap_or(1);
        if cp > 1 {
            let fix = drop_fix(ctx, "Drop --attn-cp-size", f::attn_cp_size);
            ctx.raise(&DSPARK_DP_CP, &[("cfg.attn_cp_size", &cp)], &[f::attn_cp_size], vec![fix])?;
        }
        if let Some(spec) = ctx.cfg.str(f::speculative_moe_a2a_backend).map(str::to_string) {
            if !npu && spec != a2a {
                let fix = ctx.fix_remove("Drop --speculative-moe-a2a-backend", f::speculative_moe_a2a_backend, Applicability::Safe);
                ctx.raise(
                    &DSPARK_DP_SPEC_A2A,
                    &[("cfg.moe_a2a_backend", &str_repr(&a2a)), ("cfg.speculative_moe_a2a_backend", &str_repr(&spec))],
                    &[f::speculative_moe_a2a_backend, f::moe_a2a_backend],
                    vec![fix],
                )?;
            }
        }
    }
    if legacy && ctx.cfg.int(f::pp_size).unwrap_or(1) != 1 {
        let fix = ctx.fix_set("Use --pp-size 1", f::pp_size, "1", Applicability::Unsafe);
        ctx.raise(&DSPARK_PP_0518, &[], &[f::pp_size, f::speculative_algorithm], vec![fix])?;
    }
    if ctx.cfg.int(f::pp_size).unwrap_or(1) != 1 && !ctx.cfg.is(f::disaggregation_mode, "prefill") {
        let fix = ctx.fix_set("Use --pp-size 1", f::pp_size, "1", Applicability::Unsafe);
        ctx.raise(&DSPARK_PP, &[], &[f::pp_size, f::disaggregation_mode], vec![fix])?;
    }
    // The draft's config: the one --speculative-draft-model-path names, or the target's when the
    // draft is bundled in the target checkpoint.
    let mut draft_facts = ctx.draft_model;
    if ctx.cfg.is_none(f::speculative_draft_model_path) {
        let target = dspark_hf_config(ctx, ctx.model, f::revision);
        let model = ctx.cfg.get(f::model_path).clone();
        if target.as_ref().is_some_and(checkpoint_bundles_dspark_draft) {
            let revision = ctx.cfg.get(f::revision).clone();
            ctx.cfg.set(f::speculative_draft_model_path, model);
            ctx.cfg.set(f::speculative_draft_model_revision, revision);
            draft_facts = ctx.model;
        } else {
            // a draft in the target checkpoint's dspark/ subfolder (on the Hub, or in the folder;
            // 0.5.18 does not look there: it raises, which has no rule yet)
            if target.is_some() && speculative_hook_0518(ctx.release) {
                ctx.skip(DSPARK_NEEDS_DRAFT, NotRunReason::NotImplemented);
            } else if target.is_some() {
                ctx.skip(DSPARK_NEEDS_DRAFT, NotRunReason::Network);
            } else {
                ctx.model_config(DSPARK_NEEDS_DRAFT);
            }
            ctx.cfg.set_model_dependent(f::speculative_draft_model_path, model);
            draft_facts = None;
        }
    }
    force_one(ctx, f::speculative_num_steps, &W_DSPARK_STEPS, "cfg.speculative_num_steps");
    force_one(ctx, f::speculative_eagle_topk, &W_DSPARK_TOPK, "cfg.speculative_eagle_topk");
    // read_draft_checkpoint_config: a config SGLang refuses is logged and ignored. (A MiniMax M3
    // draft's config is first rewritten by configure_minimax_m3_dspark: not modelled.)
    // (0.5.18 reads only gamma, only when --speculative-dspark-block-size does not give it, and
    // does not rewrite a MiniMax M3 draft's config)
    let release_0518 = speculative_hook_0518(ctx.release);
    let minimax = !release_0518 && draft_facts.and_then(|m| m.architecture) == Some("DSparkMiniMaxDraftModel");
    let draft = dspark_hf_config(ctx, draft_facts, f::speculative_draft_model_revision).filter(|_| !minimax);
    let parser = dspark_parser(ctx.release);
    let block_size_given = !ctx.cfg.is_none(f::speculative_dspark_block_size);
    let draft_gamma: Option<Option<i64>> = match draft.as_ref().map(|d| parse_dspark_draft_config_as(d, parser)) {
        _ if release_0518 && block_size_given => None,
        Some(Ok(parsed)) => Some(parsed.gamma),
        Some(Err(Failure::Raises(e))) => {
            let unreadable = if release_0518 { &W_DSPARK_GAMMA_UNREADABLE_0518 } else { &W_DSPARK_CONFIG_UNREADABLE };
            ctx.warn(unreadable, &[("e", &e)], &[f::speculative_draft_model_path, f::json_model_override_args], vec![]);
            Some(None)
        }
        Some(Err(Failure::Unknown)) | None => {
            ctx.skip_unlisted(PARSE_DSPARK_DRAFT_CONFIG, if draft.is_some() || minimax { NotRunReason::NotImplemented } else { NotRunReason::ModelConfig });
            None
        }
    };
    let tokens = ctx.cfg.int(f::speculative_num_draft_tokens);
    let gamma = match (ctx.cfg.int(f::speculative_dspark_block_size), draft_gamma) {
        (Some(gamma), _) => {
            if gamma <= 0 {
                let fix = drop_fix(ctx, "Drop --speculative-dspark-block-size (use the draft's)", f::speculative_dspark_block_size);
                ctx.raise(&DSPARK_BLOCK_POSITIVE, &[("cfg.speculative_dspark_block_size", &gamma)], &[f::speculative_dspark_block_size], vec![fix])?;
            }
            Some(gamma)
        }
        (None, Some(from_config)) => match (from_config, tokens) {
            (Some(g), _) => Some(g),
            (None, None) => {
                ctx.warn(&W_DSPARK_GAMMA_DEFAULT, &[("gamma", &DEFAULT_DSPARK_GAMMA)], &[f::speculative_dspark_block_size, f::speculative_draft_model_path, f::speculative_algorithm], vec![]);
                Some(DEFAULT_DSPARK_GAMMA)
            }
            (None, Some(_)) => None,
        },
        (None, None) => {
            // gamma from the draft checkpoint's config (7 when it has none and no draft tokens are given)
            ctx.skip(site("speculative_hook._handle_dspark", "DSpark speculative_num_draft_tokens must equal gamma + 1"), NotRunReason::ModelConfig);
            if tokens.is_some_and(|t| t < 2) {
                ctx.skip(site("speculative_hook._handle_dspark", "DSpark speculative_num_draft_tokens must be >= 2"), NotRunReason::ModelConfig);
            }
            ctx.cfg.set_model_dependent(f::speculative_num_draft_tokens, PyValue::Int(tokens.unwrap_or(8)));
            max_running_requests_default(ctx);
            return dspark_ragged_mode_warnings(ctx, mode);
        }
    };
    if let Some(gamma) = gamma {
        let window = gamma + 1;
        if let Some(t) = tokens {
            if t != window {
                let fix = ctx.fix_remove("Drop --speculative-num-draft-tokens (the block size sets it)", f::speculative_num_draft_tokens, Applicability::Safe);
                ctx.raise(
                    &DSPARK_TOKENS_VS_GAMMA,
                    &[("verify_window", &window), ("gamma", &gamma), ("cfg.speculative_num_draft_tokens", &t)],
                    &[f::speculative_num_draft_tokens, f::speculative_dspark_block_size],
                    vec![fix],
                )?;
            }
        }
        set_int(ctx, f::speculative_num_draft_tokens, window);
    }
    // (an unset speculative_num_draft_tokens cannot remain here: gamma defaults to 7 first)
    if let Some(t) = ctx.cfg.int(f::speculative_num_draft_tokens).filter(|t| *t < 2) {
        let fix = if ctx.cfg.is_explicit(f::speculative_num_draft_tokens) {
            ctx.fix_remove("Drop --speculative-num-draft-tokens (gamma then defaults to 7)", f::speculative_num_draft_tokens, Applicability::Unsafe)
        } else {
            // the draft's config gave gamma (its dspark_block_size): an explicit gamma wins over it
            let gamma = DEFAULT_DSPARK_GAMMA.to_string();
            ctx.fix_set(format!("Use --speculative-dspark-block-size {gamma} (SGLang's default gamma)"), f::speculative_dspark_block_size, &gamma, Applicability::Unsafe)
        };
        ctx.raise(&DSPARK_TOKENS_MIN, &[("cfg.speculative_num_draft_tokens", &t)], &[f::speculative_num_draft_tokens, f::speculative_dspark_block_size], vec![fix])?;
    }
    max_running_requests_default(ctx);
    dspark_ragged_mode_warnings(ctx, mode)
}

/// `_handle_dspark`'s last warnings: options that only take effect in another ragged-verify mode.
fn dspark_ragged_mode_warnings(ctx: &mut Ctx, mode: &str) -> Step {
    if ctx.cfg.truthy(f::speculative_dspark_align_verify_tokens_to_graph_tier) && mode != "compact" {
        let fix = ctx.fix_remove("Drop --speculative-dspark-align-verify-tokens-to-graph-tier", f::speculative_dspark_align_verify_tokens_to_graph_tier, Applicability::Safe);
        ctx.warn(&W_DSPARK_ALIGN_NOOP, &[("ragged_mode.value", &str_repr(mode))], &[f::speculative_dspark_align_verify_tokens_to_graph_tier], vec![fix]);
    }
    if ctx.cfg.truthy(f::speculative_dspark_sps_table_path) && mode == "static" {
        let fix = ctx.fix_remove("Drop --speculative-dspark-sps-table-path", f::speculative_dspark_sps_table_path, Applicability::Safe);
        ctx.warn(&W_DSPARK_SPS_NOOP, &[], &[f::speculative_dspark_sps_table_path], vec![fix]);
    }
    Ok(())
}

/// `_handle_frozen_kv_mtp`.
fn handle_frozen_kv_mtp(ctx: &mut Ctx) -> Step {
    max_running_requests_default(ctx);
    if ctx.cfg.truthy(f::enable_mixed_chunk) {
        ctx.cfg.set(f::enable_mixed_chunk, PyValue::Bool(false));
        let fix = ctx.fix_remove("Drop --enable-mixed-chunk", f::enable_mixed_chunk, Applicability::Safe);
        ctx.warn(&W_FROZEN_MIXED, &[], &[f::enable_mixed_chunk], vec![fix]);
    }
    Ok(())
}

/// Whether the checked release's generated lists are carried (the model facts' architecture
/// means something to these checks only then).
fn lists_carried(release: &Release) -> bool {
    release.model_lists().is_some()
}

/// The target model's first architecture (`model_config_of(...).hf_config.architectures[0]`),
/// when the model's facts give it for a release whose lists are carried.
fn target_architecture<'a>(ctx: &Ctx<'a>) -> Option<&'a str> {
    if !lists_carried(ctx.release) {
        return None;
    }
    ctx.model.as_ref().and_then(|m| m.architecture)
}

/// `_handle_eagle_family` (EAGLE, EAGLE3, STANDALONE).
fn handle_eagle_family(ctx: &mut Ctx, alg: &str) -> Step {
    // _check_oot_speculative_algorithm: the in-tree platforms support every algorithm.
    if alg == "STANDALONE" && attn_dp_enabled(ctx) {
        let fix = drop_fix(ctx, "Drop --attn-dp-size", f::attn_dp_size);
        ctx.raise(&STANDALONE_DP, &[], &[f::speculative_algorithm, f::attn_dp_size, f::enable_dp_attention], vec![fix])?;
    }
    max_running_requests_default(ctx);
    disable_overlap_schedule_for_cpu(ctx);
    if overlap_disabled(ctx) {
        ctx.warn(&W_NON_OVERLAP_SPEC, &[], &[f::disable_overlap_schedule], vec![]);
    }
    // 0.5.18 turns mixed chunks off for the whole family, with its own warning
    let release_0518 = speculative_hook_0518(ctx.release);
    if ctx.cfg.truthy(f::enable_mixed_chunk) && (release_0518 || !matches!(alg, "EAGLE" | "EAGLE3")) {
        ctx.cfg.set(f::enable_mixed_chunk, PyValue::Bool(false));
        let fix = ctx.fix_remove("Drop --enable-mixed-chunk", f::enable_mixed_chunk, Applicability::Safe);
        let (warning, args): (&Rule, &Args) = if release_0518 { (&EAGLE_MIXED_0518, &[]) } else { (&W_STANDALONE_MIXED, &[("cfg.speculative_algorithm", &alg)]) };
        ctx.warn(warning, args, &[f::enable_mixed_chunk], vec![fix]);
    }

    // From here SGLang reads the target's architecture (model_config_of(...).hf_config).
    let arch = target_architecture(ctx);
    if ctx.cfg.is_none(f::speculative_draft_model_path) {
        // MTP models (DeepSeek, GLM, ...) draft with their own checkpoint
        let model = ctx.cfg.get(f::model_path).clone();
        let revision = ctx.cfg.get(f::revision).clone();
        match arch {
            // `_handle_eagle_family`'s MTP architectures: a target that drafts with its own
            // checkpoint (the draft model path defaults to the target's)
            Some(a) if ctx.release.model_lists().is_some_and(|l| crate::models::ModelLists::names(&l.eagle_self_draft_architectures, a)) => {
                ctx.cfg.set(f::speculative_draft_model_path, model);
                ctx.cfg.set(f::speculative_draft_model_revision, revision);
            }
            Some(_) => {}
            None => {
                ctx.cfg.set_model_dependent(f::speculative_draft_model_path, model);
                ctx.cfg.set_model_dependent(f::speculative_draft_model_revision, revision);
            }
        }
    }
    // _handle_iquest_q1_mtp_draft: for an IQuest Q1 target only (its draft checks read the
    // draft's config, not modelled).
    if arch.map_or(true, |a| a == "IQuestQ1ForCausalLM") {
        ctx.model_config(site("speculative_hook._handle_iquest_q1_mtp_draft", "IQuest Q1 requires an independent draft model path."));
        ctx.model_config(site("speculative_hook._handle_iquest_q1_mtp_draft", "IQuest Q1 requires an independent MTP draft checkpoint."));
        ctx.model_config(site("speculative_hook._handle_iquest_q1_mtp_draft", "MTP draft hidden size and vocabulary must match the target."));
        ctx.model_config(site("speculative_hook._handle_iquest_q1_mtp_draft", "MTP draft target layer count must match the target."));
        ctx.model_config(site("speculative_hook._handle_iquest_q1_mtp_draft", "MTP uses its own full-vocabulary embedding and head."));
        ctx.model_config(site("speculative_hook._handle_iquest_q1_mtp_draft", "MTP requires positive speculative_num_steps."));
        ctx.model_config(site("speculative_hook._handle_iquest_q1_mtp_draft", "MTP requires --speculative-eagle-topk 1."));
        ctx.model_config(site("speculative_hook._handle_iquest_q1_mtp_draft", "MTP verification width must equal draft steps + 1."));
    }

    if !ctx.cfg.truthy(f::speculative_adaptive) && ctx.cfg.is_none(f::speculative_num_steps) {
        if !ctx.cfg.is_none(f::speculative_eagle_topk) || !ctx.cfg.is_none(f::speculative_num_draft_tokens) {
            let mut fixes = vec![ctx.fix_set("Draft 3 steps", f::speculative_num_steps, "3", Applicability::Unsafe)];
            // both given: dropping one alone leaves the other, and the same error
            let given: Vec<Field> = [f::speculative_eagle_topk, f::speculative_num_draft_tokens].into_iter().filter(|&field| ctx.cfg.is_explicit(field)).collect();
            if let Some(&first) = given.first() {
                let flags: Vec<String> = given.iter().map(|&field| ctx.flag(field).to_string()).collect();
                let mut drop = ctx.fix_remove(format!("Drop {} (let SGLang choose)", flags.join(" and ")), first, Applicability::Unsafe);
                for &field in given.iter().skip(1) {
                    drop.edits.extend(ctx.fix_remove(String::new(), field, Applicability::Unsafe).edits);
                }
                fixes.push(drop);
            }
            ctx.raise(&EAGLE_PARTIAL_PARAMS, &[], &[f::speculative_eagle_topk, f::speculative_num_draft_tokens], fixes)?;
        }
        if alg == "STANDALONE" {
            set_int(ctx, f::speculative_num_steps, 3);
            set_int(ctx, f::speculative_eagle_topk, 1);
            set_int(ctx, f::speculative_num_draft_tokens, 4);
        } else if let Some(a) = arch {
            // _auto_choose_speculative_params: by the target's architecture
            let (steps, topk, tokens) = if matches!(a, "LlamaForCausalLM" | "Grok1ForCausalLM" | "Grok1VForCausalLM") { (5, 4, 8) } else { (3, 1, 4) };
            set_int(ctx, f::speculative_num_steps, steps);
            set_int(ctx, f::speculative_eagle_topk, topk);
            set_int(ctx, f::speculative_num_draft_tokens, tokens);
        } else {
            // _auto_choose_speculative_params: by the target's architecture
            ctx.cfg.set_model_dependent(f::speculative_num_steps, PyValue::Int(3));
            ctx.cfg.set_model_dependent(f::speculative_eagle_topk, PyValue::Int(1));
            ctx.cfg.set_model_dependent(f::speculative_num_draft_tokens, PyValue::Int(4));
        }
    }
    let topk_from_model = ctx.cfg.is_model_dependent(f::speculative_eagle_topk);
    // --speculative-num-steps given (or the adaptive mode) leaves the top-k None: SGLang's first
    // comparison of it with 1 raises
    let topk_unset = !topk_from_model && ctx.cfg.is_none(f::speculative_eagle_topk) && !ctx.cfg.is_unknown(f::speculative_eagle_topk);
    let topk = ctx.cfg.int(f::speculative_eagle_topk).unwrap_or(1);
    let topk_fix = |ctx: &Ctx| vec![ctx.fix_set("Add --speculative-eagle-topk 1", f::speculative_eagle_topk, "1", Applicability::Unsafe)];

    match explicit_backends(ctx) {
        Some((p, d)) => {
            if (p == "trtllm_mha" || d == "trtllm_mha") && topk_unset {
                let fixes = topk_fix(ctx);
                ctx.raise(&EAGLE_TOPK_UNSET, &[], &[f::speculative_num_steps, f::speculative_eagle_topk], fixes)?;
            }
            if (p == "trtllm_mha" || d == "trtllm_mha") && (topk > 1 || topk_from_model) {
                if topk_from_model {
                    ctx.skip(site("speculative_hook._handle_eagle_family", "trtllm_mha backend only supports topk = 1"), NotRunReason::ModelConfig);
                } else {
                    let fixes = if ctx.cfg.is_explicit(f::speculative_eagle_topk) {
                        vec![ctx.fix_set("Use --speculative-eagle-topk 1", f::speculative_eagle_topk, "1", Applicability::Unsafe)]
                    } else {
                        // the top-k is SGLang's default for this model: a top-k alone would
                        // leave the other two parameters unset, which SGLang refuses; or keep
                        // the default top-k on a backend that takes it
                        let mut fixes: Vec<Fix> = [f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend]
                            .into_iter()
                            .filter(|&field| ctx.cfg.is_explicit(field) && ctx.cfg.is(field, "trtllm_mha"))
                            .take(1)
                            .map(|field| ctx.fix_set(format!("Use {} flashinfer", ctx.flag(field)), field, "flashinfer", Applicability::Unsafe))
                            .collect();
                        fixes.push(Fix::advice("Add --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"));
                        fixes
                    };
                    ctx.raise(&EAGLE_TRTLLM_MHA_TOPK, &[], &[f::speculative_eagle_topk, f::attention_backend], fixes)?;
                }
            }
        }
        None => {
            if topk > 1 || topk_from_model || topk_unset {
                ctx.skip(site("speculative_hook._handle_eagle_family", "trtllm_mha backend only supports topk = 1"), NotRunReason::ModelConfig);
            }
        }
    }

    // ROCm: rejection sampling on by default where it is supported.
    let simulate = ctx.env("SGLANG_SIMULATE_ACC_LEN").and_then(|v| v.trim().parse::<f64>().ok()).unwrap_or(-1.0);
    let thresholds_one = ctx.cfg.float(f::speculative_accept_threshold_single) == Some(1.0) && ctx.cfg.float(f::speculative_accept_threshold_acc) == Some(1.0);
    // (0.5.18 has no such default)
    if ctx.hw.platform == Platform::Rocm
        && !release_0518
        && !ctx.cfg.truthy(f::speculative_use_rejection_sampling)
        && alg == "EAGLE"
        && ctx.cfg.is_none(f::speculative_token_map)
        && ctx.cfg.int(f::speculative_eagle_topk) == Some(1)
        && thresholds_one
        && !ctx.cfg.truthy(f::enable_deterministic_inference)
        && simulate <= 0.0
    {
        ctx.cfg.set(f::speculative_use_rejection_sampling, PyValue::Bool(true));
    }

    if ctx.cfg.truthy(f::speculative_use_rejection_sampling) {
        let drop = |ctx: &Ctx| drop_fix(ctx, "Drop --speculative-use-rejection-sampling", f::speculative_use_rejection_sampling);
        if !matches!(alg, "EAGLE" | "EAGLE3") {
            let fix = drop(ctx);
            ctx.raise(&REJECTION_ALGO, &[("cfg.speculative_algorithm", &alg)], &[f::speculative_use_rejection_sampling, f::speculative_algorithm], vec![fix])?;
        }
        if topk_from_model {
            ctx.skip(site("speculative_hook._handle_eagle_family", "--speculative-use-rejection-sampling requires --speculative-eagle-topk=1."), NotRunReason::ModelConfig);
        } else if topk_unset || topk != 1 {
            let fixes = vec![ctx.fix_set("Use --speculative-eagle-topk 1", f::speculative_eagle_topk, "1", Applicability::Unsafe), drop(ctx)];
            ctx.raise(&REJECTION_TOPK, &[], &[f::speculative_eagle_topk, f::speculative_use_rejection_sampling], fixes)?;
        }
        // (0.5.18 has no such check: it goes on to its own, SPEC134, on every device)
        if ctx.cfg.truthy(f::enable_deterministic_inference) && !device(ctx).starts_with("cuda") && REJECTION_DETERMINISTIC.applies_to(ctx.release) {
            let fixes = vec![drop_fix(ctx, "Drop --enable-deterministic-inference", f::enable_deterministic_inference), drop(ctx)];
            ctx.raise(&REJECTION_DETERMINISTIC, &[], &[f::enable_deterministic_inference, f::device], fixes)?;
        }
        if !thresholds_one {
            let mut fixes = vec![];
            for field in [f::speculative_accept_threshold_single, f::speculative_accept_threshold_acc] {
                if ctx.cfg.is_explicit(field) && ctx.cfg.float(field) != Some(1.0) {
                    fixes.push(ctx.fix_remove(format!("Drop {}", ctx.flag(field)), field, Applicability::Unsafe));
                }
            }
            fixes.push(drop(ctx));
            ctx.raise(&REJECTION_THRESHOLDS, &[], &[f::speculative_accept_threshold_single, f::speculative_accept_threshold_acc], fixes)?;
        }
        if ctx.cfg.truthy(f::enable_deterministic_inference) {
            let fixes = vec![drop_fix(ctx, "Drop --enable-deterministic-inference", f::enable_deterministic_inference), drop(ctx)];
            ctx.raise(&REJECTION_DETERMINISTIC_0518, &[], &[f::enable_deterministic_inference, f::speculative_use_rejection_sampling], fixes)?;
        }
        // multi-layer EAGLE with top-k != 1 was refused above (top-k must be 1)
    }

    let steps = ctx.cfg.int(f::speculative_num_steps).unwrap_or(0);
    let tokens = ctx.cfg.get(f::speculative_num_draft_tokens).as_int();
    if !topk_from_model && !topk_unset && topk == 1 && tokens != Some(steps + 1) {
        let fix = ctx.fix_set(format!("Use --speculative-num-draft-tokens {}", steps + 1), f::speculative_num_draft_tokens, &(steps + 1).to_string(), Applicability::Safe);
        ctx.warn(&W_DRAFT_TOKENS_ADJUSTED, &[], &[f::speculative_num_draft_tokens, f::speculative_num_steps], vec![fix]);
        set_int(ctx, f::speculative_num_draft_tokens, steps + 1);
    } else if topk_from_model {
        let tokens = ctx.cfg.get(f::speculative_num_draft_tokens).clone();
        ctx.cfg.set_model_dependent(f::speculative_num_draft_tokens, tokens);
    }

    // topk > 1 with paged KV needs a cascade-capable backend (`None > 1` fails first)
    if topk_unset {
        let fixes = topk_fix(ctx);
        ctx.raise(&EAGLE_TOPK_UNSET, &[], &[f::speculative_num_steps, f::speculative_eagle_topk], fixes)?;
    }
    if topk > 1 || topk_from_model {
        let (backend, page) = match resolved_base_backend(ctx) {
            Some(b) if !ctx.cfg.is_unknown(f::page_size) => (Some(b), ctx.cfg.int(f::page_size)),
            _ => (explicit_backend(ctx), resolved_page_size(ctx)),
        };
        let allowed = backend.as_deref().is_some_and(|b| matches!(b, "flashinfer" | "fa3" | "triton"));
        let small_page = page.is_some_and(|p| p <= 1);
        if allowed || small_page {
            return Ok(());
        }
        match (backend, page) {
            (Some(b), Some(p)) if !topk_from_model => {
                // (a backend a model override chose may be chosen again over the flag: DeepSeek-V4's)
                let chosen_for_the_model = !ctx.cfg.is_explicit(f::attention_backend) && ctx.cfg.derived_by(f::attention_backend).is_some();
                let mut fixes = Vec::new();
                if !chosen_for_the_model {
                    fixes.push(ctx.fix_set("Use --attention-backend fa3", f::attention_backend, "fa3", Applicability::Unsafe));
                }
                if !forces_page_size(ctx) {
                    fixes.insert(0, ctx.fix_set("Use --page-size 1", f::page_size, "1", Applicability::Unsafe));
                }
                let _ = p;
                ctx.raise(&EAGLE_PAGE_TREE, &[("_PAGE_TREE_SPEC_BACKENDS", &"('flashinfer', 'fa3', 'triton')"), ("view.attention_backend", &str_repr(&b))], &[f::page_size, f::speculative_eagle_topk, f::attention_backend], fixes)?;
            }
            _ => ctx.skip(site("speculative_hook._handle_eagle_family", "speculative_eagle_topk > 1 with page_size > 1 is only supported on"), NotRunReason::ModelConfig),
        }
    }
    Ok(())
}

/// `_handle_ngram`.
fn handle_ngram(ctx: &mut Ctx) -> Step {
    let dev = device(ctx);
    if !matches!(dev.as_str(), "cuda" | "cpu" | "xpu") {
        // Only an NPU/MUSA/HPU device gets here, and none of the hardware profiles is one (on the
        // modelled platforms such a --device fails earlier, importing its runtime).
        return Ok(());
    }
    disable_overlap_schedule_for_cpu(ctx);
    max_running_requests_default(ctx);
    ctx.cfg.set(f::enable_mixed_chunk, PyValue::Bool(false));
    let topk = ctx.cfg.int(f::speculative_ngram_max_bfs_breadth).unwrap_or(10);
    set_int(ctx, f::speculative_eagle_topk, topk);
    if ctx.cfg.is_none(f::speculative_num_draft_tokens) {
        set_int(ctx, f::speculative_num_draft_tokens, 12);
        let fix = ctx.fix_set("Say it: --speculative-num-draft-tokens 12", f::speculative_num_draft_tokens, "12", Applicability::Safe);
        ctx.warn(&W_NGRAM_DRAFT_TOKENS, &[], &[f::speculative_algorithm], vec![fix]);
    }
    let tokens = ctx.cfg.int(f::speculative_num_draft_tokens).unwrap_or(12);
    if ctx.cfg.is_none(f::speculative_num_steps) {
        if topk == 0 {
            // ZeroDivisionError in SGLang: Python's own, not reproduced
            ctx.skip_unlisted("speculative_hook._handle_ngram", NotRunReason::NotImplemented);
            return Ok(());
        }
        set_int(ctx, f::speculative_num_steps, floor_div(tokens, topk));
    }
    if !ctx.cfg.is_none(f::speculative_ngram_external_corpus_path) {
        let budget = ctx.cfg.int(f::speculative_ngram_external_sam_budget).unwrap_or(0);
        if budget <= 0 {
            let fix = ctx.fix_set("Reserve 4 draft tokens for corpus matches", f::speculative_ngram_external_sam_budget, "4", Applicability::Unsafe);
            ctx.raise(&NGRAM_SAM_BUDGET, &[], &[f::speculative_ngram_external_sam_budget, f::speculative_ngram_external_corpus_path], vec![fix])?;
        }
        if ctx.cfg.int(f::speculative_ngram_external_corpus_max_tokens).unwrap_or(0) <= 0 {
            let fix = ctx.fix_remove("Drop --speculative-ngram-external-corpus-max-tokens (10,000,000)", f::speculative_ngram_external_corpus_max_tokens, Applicability::Unsafe);
            ctx.raise(&NGRAM_CORPUS_TOKENS, &[], &[f::speculative_ngram_external_corpus_max_tokens], vec![fix])?;
        }
        if budget > tokens - 1 {
            let fix = ctx.fix_set(format!("Use a budget of {}", tokens - 1), f::speculative_ngram_external_sam_budget, &(tokens - 1).to_string(), Applicability::Unsafe);
            ctx.raise(
                &NGRAM_SAM_VS_TOKENS,
                &[("cfg.speculative_num_draft_tokens - 1", &(tokens - 1))],
                &[f::speculative_ngram_external_sam_budget, f::speculative_num_draft_tokens],
                vec![fix],
            )?;
        }
    }
    ctx.warn(&W_NGRAM_MIXED, &[], &[f::speculative_algorithm, f::enable_mixed_chunk], vec![]);

    if topk > 1 {
        // as the EAGLE family's check reads them: a backend a step picked (a model override's
        // DSA backend, with its page size) counts as one the command names
        let (backend, page) = match resolved_base_backend(ctx) {
            Some(b) if !ctx.cfg.is_unknown(f::page_size) => (Some(b), ctx.cfg.int(f::page_size)),
            _ => (explicit_backend(ctx), resolved_page_size(ctx)),
        };
        if backend.as_deref() != Some("flashinfer") && !page.is_some_and(|p| p <= 1) {
            match (backend, page) {
                (Some(_), Some(p)) => {
                    // (a backend a model override chose may be chosen again over the flag: DeepSeek-V4's)
                    let chosen_for_the_model = !ctx.cfg.is_explicit(f::attention_backend) && ctx.cfg.derived_by(f::attention_backend).is_some();
                    let mut fixes = Vec::new();
                    if !chosen_for_the_model {
                        fixes.push(ctx.fix_set("Use --attention-backend flashinfer", f::attention_backend, "flashinfer", Applicability::Unsafe));
                    }
                    if !forces_page_size(ctx) {
                        fixes.insert(0, ctx.fix_set("Use --page-size 1", f::page_size, "1", Applicability::Unsafe));
                    }
                    ctx.raise(&NGRAM_PAGE, &[("cfg.speculative_eagle_topk", &topk), ("view.page_size", &p)], &[f::page_size, f::attention_backend], fixes)?;
                }
                _ => ctx.skip(site("speculative_hook._handle_ngram", "speculative_eagle_topk({cfg.speculative_eagle_topk}) > 1"), NotRunReason::ModelConfig),
            }
        }
    }
    if attn_dp_enabled(ctx) {
        let fix = drop_fix(ctx, "Drop --attn-dp-size", f::attn_dp_size);
        ctx.raise(&NGRAM_DP, &[], &[f::attn_dp_size, f::enable_dp_attention, f::speculative_algorithm], vec![fix])?;
    }
    Ok(())
}

/// DFLASH and DSPARK draft one token at a time: an unset `field` becomes 1; another value is
/// reset to 1 with `warning` (whose template names the value as `placeholder`).
fn force_one(ctx: &mut Ctx, field: Field, warning: &'static Rule, placeholder: &str) {
    match ctx.cfg.int(field) {
        None => set_int(ctx, field, 1),
        Some(v) if v != 1 => {
            let fix = ctx.fix_remove(format!("Drop {}", ctx.flag(field)), field, Applicability::Safe);
            ctx.warn(warning, &[(placeholder, &v)], &[field], vec![fix]);
            set_int(ctx, field, 1);
        }
        Some(_) => {}
    }
}
