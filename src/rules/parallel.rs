//! Rules from SGLang's `sglang/srt/arg_groups/parallel_hook.py`: the DP / CP / DCP / DWDP / EP
//! layout and the values every later hook reads (`attn_dp_size`, `dp_size`, `ep_size`,
//! `dcp_comm_backend`, `chunked_prefill_size` under attention DP, `enable_dp_lm_head`, ...).
//!
//! Also the post-process passes these hooks run from `overrides.py`
//! (`_dcp_comm_backend_default`, `_data_parallelism_defaults`, `_tp_lm_head_all_to_all_default`,
//! `_dp_lm_head_validation`) and `elastic_ep/topology.py::physical_ep_size_to_dp_size`, which
//! only these hooks reach.

use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::{Applicability, Fix, Severity, Stage};
use crate::pyvalue::{str_repr, PyValue};

const FILE: &str = "sglang/srt/arg_groups/parallel_hook.py";
const OVERRIDES: &str = "sglang/srt/arg_groups/overrides.py";

macro_rules! rule {
    ($name:ident, $code:literal, $kebab:literal, $site:literal, $file:expr, $func:literal, $exc:literal,
     $sev:expr, $template:literal, $expl:literal, [$($flag:literal),*], $bad:literal, $good:literal) => {
        pub static $name: Rule = Rule {
            code: $code,
            name: $kebab,
            site: $site,
            file: $file,
            function: $func,
            since: "0.5.23",
            until: None,
            exception: $exc,
            severity: $sev,
            stage: Stage::Resolve,
            template: $template,
            explanation: $expl,
            flags: &[$($flag),*],
            example_bad: $bad,
            example_good: $good,
        };
    };
}

// ---- handle_decode_context_parallelism -------------------------------------------------------

rule!(DCP_SIZE_POSITIVE, "PAR001", "dcp-size-must-be-positive", "parallel_hook.handle_decode_context_parallelism#1", FILE,
    "handle_decode_context_parallelism", "ValueError", Severity::Error,
    "Decode context parallel size (--dcp-size / --decode-context-parallel-size) must be >= 1, but got dcp_size={cfg.dcp_size}.",
    "The decode context-parallel width counts GPUs that split each request's KV cache during decode; it must be at least 1 (1 turns DCP off).",
    ["--dcp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --dcp-size 0", "--model-path meta-llama/Llama-3.1-8B-Instruct --dcp-size 1");
rule!(DCP_NO_PREFILL_CP, "PAR002", "dcp-excludes-prefill-cp", "parallel_hook.handle_decode_context_parallelism#2", FILE,
    "handle_decode_context_parallelism", "ValueError", Severity::Error,
    "--dcp-size > 1 does not support --enable-prefill-cp.",
    "Decode context parallelism and prefill context parallelism shard the sequence in incompatible ways; SGLang allows only one of them per server.",
    ["--dcp-size", "--enable-prefill-cp"], "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --enable-prefill-cp",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2");
rule!(DCP_COMM_NEEDS_DCP, "PAR003", "dcp-comm-backend-needs-dcp", "parallel_hook.handle_decode_context_parallelism#3", FILE,
    "handle_decode_context_parallelism", "ValueError", Severity::Error,
    "--dcp-comm-backend {cfg.dcp_comm_backend} only affects the decode context-parallel attention reduction and therefore requires --dcp-size / --decode-context-parallel-size > 1, but got dcp_size={cfg.dcp_size}.",
    "The all-to-all DCP communication backends only exist for decode context parallelism; without --dcp-size > 1 there is nothing for them to reduce.",
    ["--dcp-comm-backend", "--dcp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --dcp-comm-backend a2a",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --dcp-comm-backend a2a");
rule!(DCP_FI_A2A_NEEDS_CUDA, "PAR004", "dcp-fi-a2a-needs-cuda", "parallel_hook.handle_decode_context_parallelism#4", FILE,
    "handle_decode_context_parallelism", "ValueError", Severity::Error,
    "--dcp-comm-backend fi_a2a delegates the exchange to FlashInfer's MNNVL All-to-All kernel, which requires Blackwell and a DCP group within one MNNVL domain. Use 'a2a' or 'ag_rs' elsewhere, or leave the flag unset to resolve it.",
    "The fi_a2a DCP backend is a FlashInfer CUDA kernel; on a non-CUDA platform (ROCm, CPU) SGLang rejects it at start-up.",
    ["--dcp-comm-backend"], "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --dcp-comm-backend fi_a2a",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --dcp-comm-backend a2a");
rule!(DCP_REPLICATE_Q_NEEDS_DCP, "PAR005", "dcp-replicate-q-proj-needs-dcp", "parallel_hook.handle_decode_context_parallelism#5", FILE,
    "handle_decode_context_parallelism", "ValueError", Severity::Error,
    "--dcp-replicate-q-proj requires --dcp-size > 1.",
    "Replicating the Q projection only removes a decode-context-parallel all-gather, so it needs --dcp-size > 1.",
    ["--dcp-replicate-q-proj", "--dcp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --dcp-replicate-q-proj",
    "--model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(DCP_REPLICATE_Q_NEEDS_A2A, "PAR006", "dcp-replicate-q-proj-needs-a2a", "parallel_hook.handle_decode_context_parallelism#6", FILE,
    "handle_decode_context_parallelism", "ValueError", Severity::Error,
    "--dcp-replicate-q-proj only applies to the a2a/fi_a2a DCP communication backend (it removes the head-dim Q all-gather); got --dcp-comm-backend={cfg.dcp_comm_backend}.",
    "With the ag_rs DCP backend there is no head-dim Q all-gather to remove, so --dcp-replicate-q-proj is rejected.",
    ["--dcp-replicate-q-proj", "--dcp-comm-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --dcp-comm-backend ag_rs --dcp-replicate-q-proj",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --dcp-comm-backend a2a --dcp-replicate-q-proj");

// ---- handle_dwdp -------------------------------------------------------------------------------

rule!(DWDP_EQUALS_TP, "PAR010", "dwdp-size-equals-tp", "parallel_hook.handle_dwdp#2", FILE, "handle_dwdp", "AssertionError", Severity::Error,
    "dwdp_size ({cfg.dwdp_size}) must equal tp_size ({cfg.tp_size})",
    "Distributed weight data parallelism spreads the experts over every rank of the TP group, so --dwdp-size must be the same as --tp-size.",
    ["--dwdp-size", "--tp-size"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --dwdp-size 2", "--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --dwdp-size 4");
rule!(DWDP_DISAGG_MODE, "PAR011", "dwdp-not-on-decode", "parallel_hook.handle_dwdp#3", FILE, "handle_dwdp", "AssertionError", Severity::Error,
    "DWDP requires --disaggregation-mode null or prefill",
    "DWDP re-fetches remote expert weights each step, which SGLang only supports on colocated or prefill servers, not PD decode servers.",
    ["--dwdp-size", "--disaggregation-mode"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --disaggregation-mode decode",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --disaggregation-mode prefill");
rule!(DWDP_NO_EPLB, "PAR012", "dwdp-excludes-eplb", "parallel_hook.handle_dwdp#4", FILE, "handle_dwdp", "AssertionError", Severity::Error,
    "EPLB dynamic migration conflicts with static DWDP partitioning",
    "DWDP fixes which rank holds which experts; EPLB moves experts around at run time, so the two cannot be combined.",
    ["--dwdp-size", "--enable-eplb"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --enable-eplb", "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2");
rule!(DWDP_NO_SPEC, "PAR013", "dwdp-excludes-speculative", "parallel_hook.handle_dwdp#5", FILE, "handle_dwdp", "AssertionError", Severity::Error,
    "DWDP does not support speculative decoding (MTP/draft workers)",
    "Draft workers are not wired into DWDP's expert prefetching, so any --speculative-algorithm is rejected with --dwdp-size > 1.",
    ["--dwdp-size", "--speculative-algorithm"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --speculative-algorithm NGRAM",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2");
rule!(DWDP_NO_PP, "PAR014", "dwdp-excludes-pp", "parallel_hook.handle_dwdp#6", FILE, "handle_dwdp", "AssertionError", Severity::Error,
    "DWDP requires pp_size == 1",
    "DWDP is only implemented for a single pipeline stage.",
    ["--dwdp-size", "--pp-size"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --pp-size 2", "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2");
rule!(DWDP_NO_TBO, "PAR015", "dwdp-excludes-two-batch-overlap", "parallel_hook.handle_dwdp#7", FILE, "handle_dwdp", "AssertionError", Severity::Error,
    "DWDP's prefetch event protocol does not support two-batch overlap",
    "Two-batch overlap interleaves micro-batches in a way DWDP's weight-prefetch events do not handle.",
    ["--dwdp-size", "--enable-two-batch-overlap"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --enable-two-batch-overlap",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2");
rule!(DWDP_NULL_MODE_WARNING, "PAR016", "dwdp-slow-without-pd", "", FILE, "handle_dwdp", "", Severity::Warning,
    "DWDP with --disaggregation-mode null: decode steps re-fetch all remote expert weights every step, which is slow. DWDP is recommended only with --disaggregation-mode prefill.",
    "On a colocated server DWDP also runs decode steps, each of which fetches all remote expert weights again.",
    ["--dwdp-size", "--disaggregation-mode"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --disaggregation-mode prefill");

// ---- handle_data_parallelism -------------------------------------------------------------------

rule!(ATTN_DP_POSITIVE, "PAR020", "attn-dp-size-must-be-positive", "parallel_hook.handle_data_parallelism#1", FILE,
    "handle_data_parallelism", "ValueError", Severity::Error,
    "--attn-dp-size must be positive (got {cfg.attn_dp_size}).",
    "The attention data-parallel width is a count of groups; it must be at least 1.",
    ["--attn-dp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --attn-dp-size 0", "--model-path meta-llama/Llama-3.1-8B-Instruct --attn-dp-size 1");
rule!(DP_WITH_ATTN_DP, "PAR021", "dp-replicas-exclude-attn-dp", "parallel_hook.handle_data_parallelism#2", FILE,
    "handle_data_parallelism", "ValueError", Severity::Error,
    "--dp-size {cfg.dp_size} with --attn-dp-size {cfg.attn_dp_size}: data-parallel replicas combined with attention data parallelism are not supported.",
    "--dp-size now counts independent server replicas and --attn-dp-size counts attention-DP groups inside one TP group; SGLang does not support both at once.",
    ["--dp-size", "--attn-dp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --dp-size 2 --attn-dp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 2");
rule!(TP_DIVISIBLE_BY_ATTN_DP, "PAR022", "tp-divisible-by-attn-dp", "parallel_hook.handle_data_parallelism#3", FILE,
    "handle_data_parallelism", "AssertionError", Severity::Error,
    "",
    "With attention DP the TP group is split into --attn-dp-size equal groups, so --tp-size must be a multiple of it. SGLang fails with a bare assertion (empty message).",
    ["--tp-size", "--attn-dp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8 --attn-dp-size 3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8 --attn-dp-size 4");
rule!(MM_DP_ENCODER_TP1_WARNING, "PAR023", "mm-dp-encoder-with-tp1", "", FILE, "handle_data_parallelism", "", Severity::Warning,
    "--mm-enable-dp-encoder is enabled with TP=1, so the encoder has no data-parallel work to distribute. Disable it unless you need to validate this configuration.",
    "The data-parallel vision encoder spreads image work over the TP ranks; with one rank it only adds overhead.",
    ["--mm-enable-dp-encoder", "--tp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --mm-enable-dp-encoder", "--model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(DP_CHUNKED_PREFILL_WARNING, "PAR024", "attn-dp-divides-chunked-prefill", "", FILE, "handle_data_parallelism", "", Severity::Warning,
    "DP attention is enabled. chunked prefill size is adjusted from {original_chunked_prefill_size} to {cfg.chunked_prefill_size}.",
    "Under attention DP each attention-DP group prefills its own share, so SGLang divides --chunked-prefill-size by --attn-dp-size.",
    ["--attn-dp-size", "--chunked-prefill-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8 --attn-dp-size 8",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8 --attn-dp-size 8 --chunked-prefill-size 65536");
rule!(DP_LM_HEAD_NEEDS_ATTN_DP, "PAR025", "dp-lm-head-needs-attn-dp", "overrides._dp_lm_head_validation#1", OVERRIDES,
    "_dp_lm_head_validation", "AssertionError", Severity::Error,
    "--enable-dp-lm-head requires attention DP (--attn-dp-size).",
    "A data-parallel LM head only exists under attention DP. SGLang silently drops it when there is a single DP rank, but rejects it with DP replicas (--dp-size) and no attention DP.",
    ["--enable-dp-lm-head", "--attn-dp-size", "--dp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --dp-size 2 --enable-dp-lm-head",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head");
rule!(TP_LM_HEAD_NEEDS_ATTN_DP, "PAR026", "tp-lm-head-all-to-all-needs-attn-dp", "overrides._dp_lm_head_validation#2", OVERRIDES,
    "_dp_lm_head_validation", "AssertionError", Severity::Error,
    "--enable-tp-lm-head-all-to-all requires attention DP (--attn-dp-size).",
    "The TP LM-head all-to-all redistributes logits between attention-DP groups, so it needs --attn-dp-size > 1.",
    ["--enable-tp-lm-head-all-to-all", "--attn-dp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-tp-lm-head-all-to-all",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-tp-lm-head-all-to-all");
rule!(TP_LM_HEAD_NO_DP_LM_HEAD, "PAR027", "tp-lm-head-all-to-all-excludes-dp-lm-head", "overrides._dp_lm_head_validation#3", OVERRIDES,
    "_dp_lm_head_validation", "AssertionError", Severity::Error,
    "--enable-tp-lm-head-all-to-all uses a TP-sharded LM head and is incompatible with --enable-dp-lm-head.",
    "One flag shards the LM head over TP, the other replicates it per DP group; only one layout can be loaded.",
    ["--enable-tp-lm-head-all-to-all", "--enable-dp-lm-head"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head --enable-tp-lm-head-all-to-all",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-tp-lm-head-all-to-all");
rule!(TP_LM_HEAD_TP_EQ_ATTN_DP, "PAR028", "tp-lm-head-all-to-all-needs-pure-dp", "overrides._dp_lm_head_validation#4", OVERRIDES,
    "_dp_lm_head_validation", "AssertionError", Severity::Error,
    "--enable-tp-lm-head-all-to-all currently requires tp_size == attn_dp_size, got tp_size={view.tp_size}, attn_dp_size={view.attn_dp_size}.",
    "The TP LM-head all-to-all is only implemented for pure attention DP, where every TP rank is its own attention-DP group.",
    ["--enable-tp-lm-head-all-to-all", "--tp-size", "--attn-dp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 2 --enable-tp-lm-head-all-to-all",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 4 --enable-tp-lm-head-all-to-all");
rule!(TP_LM_HEAD_NO_CP, "PAR029", "tp-lm-head-all-to-all-excludes-attn-cp", "overrides._dp_lm_head_validation#5", OVERRIDES,
    "_dp_lm_head_validation", "AssertionError", Severity::Error,
    "--enable-tp-lm-head-all-to-all currently requires attn_cp_size == 1, got {view.attn_cp_size}.",
    "The TP LM-head all-to-all is not implemented together with attention context parallelism.",
    ["--enable-tp-lm-head-all-to-all", "--attn-cp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 4 --attn-cp-size 2 --enable-tp-lm-head-all-to-all",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 4 --enable-tp-lm-head-all-to-all");
rule!(NCCL_GRAPH_REGISTER_WARNING, "PAR019", "nccl-graph-register-explicit", "", FILE, "handle_data_parallelism", "", Severity::Warning,
    "NCCL_GRAPH_REGISTER={value} was set explicitly; graph replay of captured cross-rank collectives can hang with registered buffers.",
    "SGLang turns NCCL graph buffer registration off for multi-rank CUDA graphs because replay can hang; an explicit NCCL_GRAPH_REGISTER keeps your value.",
    [], "NCCL_GRAPH_REGISTER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2",
    "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2");

// ---- handle_context_parallelism ----------------------------------------------------------------

rule!(CP_STRATEGY_REQUIRED, "PAR030", "prefill-cp-needs-cp-strategy", "parallel_hook.handle_context_parallelism#5", FILE,
    "handle_context_parallelism", "ValueError", Severity::Error,
    "--cp-strategy must be set when --enable-prefill-cp is enabled.",
    "Prefill context parallelism can split the sequence as zigzag or interleave; SGLang has no default and needs --cp-strategy.",
    ["--enable-prefill-cp", "--cp-strategy"], "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-prefill-cp",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-prefill-cp --cp-strategy zigzag");
rule!(TP_DIV_ATTN_CP, "PAR031", "tp-divisible-by-attn-cp", "parallel_hook.handle_context_parallelism#6", FILE,
    "handle_context_parallelism", "AssertionError", Severity::Error,
    "tp_size must be divisible by attn_cp_size",
    "With attention context parallelism --tp-size is the world size of the TP group, which is split into --attn-cp-size parts.",
    ["--tp-size", "--attn-cp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-cp-size 3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-cp-size 2");
rule!(TP_DIV_ATTN_DP_CP, "PAR032", "tp-divisible-by-attn-dp-times-cp", "parallel_hook.handle_context_parallelism#7", FILE,
    "handle_context_parallelism", "AssertionError", Severity::Error,
    "tp_size must be divisible by attn_dp_size * attn_cp_size",
    "The TP group is laid out as attention-DP groups times CP groups times attention TP, so --tp-size must be a multiple of --attn-dp-size x --attn-cp-size.",
    ["--tp-size", "--attn-dp-size", "--attn-cp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 4 --attn-cp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8 --attn-dp-size 4 --attn-cp-size 2");
rule!(AITER_FUSION_CP, "PAR033", "aiter-allreduce-fusion-excludes-cp", "parallel_hook.handle_context_parallelism#8", FILE,
    "handle_context_parallelism", "AssertionError", Severity::Error,
    "Aiter allreduce fusion is not supported with context parallelism",
    "The AMD aiter all-reduce fusion assumes the plain TP all-reduce, which context parallelism replaces.",
    ["--enable-aiter-allreduce-fusion", "--attn-cp-size"], "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-cp-size 2 --enable-aiter-allreduce-fusion",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-cp-size 2");
rule!(TP_DIV_MOE_DP, "PAR034", "tp-divisible-by-moe-dp", "parallel_hook.handle_context_parallelism#9", FILE,
    "handle_context_parallelism", "AssertionError", Severity::Error,
    "tp_size must be divisible by moe_dp_size",
    "MoE data parallelism splits the TP group into --moe-dp-size equal parts.",
    ["--tp-size", "--moe-dp-size"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --attn-cp-size 3 --moe-dp-size 3",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --attn-cp-size 2 --moe-dp-size 2");
rule!(EP_MOE_DP_LE_TP, "PAR035", "ep-times-moe-dp-within-tp", "parallel_hook.handle_context_parallelism#10", FILE,
    "handle_context_parallelism", "AssertionError", Severity::Error,
    "ep_size * moe_dp_size must be less than or equal to tp_size",
    "Expert parallelism and MoE data parallelism together partition the TP group, so their product cannot exceed --tp-size.",
    ["--ep-size", "--moe-dp-size", "--tp-size"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --attn-cp-size 2 --moe-dp-size 2 --ep-size 4",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --attn-cp-size 2 --moe-dp-size 2 --ep-size 2");
rule!(PP_WITH_MOE_DP, "PAR036", "moe-dp-excludes-pp", "parallel_hook.handle_context_parallelism#11", FILE,
    "handle_context_parallelism", "AssertionError", Severity::Error,
    "PP is not supported with context parallelism",
    "MoE data parallelism (used with context parallelism) is not implemented with pipeline parallelism.",
    ["--moe-dp-size", "--pp-size"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --attn-cp-size 2 --moe-dp-size 2 --pp-size 2",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --attn-cp-size 2 --moe-dp-size 2");
rule!(EP_MOE_DP_EQ_TP, "PAR037", "ep-times-moe-dp-equals-tp", "parallel_hook.handle_context_parallelism#12", FILE,
    "handle_context_parallelism", "AssertionError", Severity::Error,
    "ep_size * moe_dp_size must be equal to tp_size",
    "When expert parallelism is combined with MoE data parallelism, the two must exactly tile the TP group.",
    ["--ep-size", "--moe-dp-size", "--tp-size"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 8 --attn-cp-size 2 --moe-dp-size 2 --ep-size 2",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 8 --attn-cp-size 2 --moe-dp-size 2 --ep-size 4");
rule!(ATTN_CP_NE_MOE_DP, "PAR038", "moe-dp-must-match-attn-cp", "parallel_hook.handle_context_parallelism#14", FILE,
    "handle_context_parallelism", "AssertionError", Severity::Error,
    "attn_cp_size != moe_dp_size is only supported when moe_dp_size == 1",
    "MoE data parallelism reuses the attention context-parallel groups, so --moe-dp-size must equal --attn-cp-size (or be 1).",
    ["--moe-dp-size", "--attn-cp-size"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --moe-dp-size 2",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --attn-cp-size 2 --moe-dp-size 2");

// ---- handle_shared_experts_tp ------------------------------------------------------------------

rule!(SHARED_EXPERTS_TP_DIVISOR, "PAR040", "shared-experts-tp-divides-attn-tp", "parallel_hook.handle_shared_experts_tp#1", FILE,
    "handle_shared_experts_tp", "ValueError", Severity::Error,
    "--shared-experts-tp-size ({size}) must be a positive divisor of attention TP size ({attn_tp_size}).",
    "Shared experts are sharded inside the attention TP group (TP size / attention DP / attention CP), so their TP width must divide it.",
    ["--shared-experts-tp-size", "--tp-size", "--attn-dp-size"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --shared-experts-tp-size 3",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --shared-experts-tp-size 2");

// ---- handle_eplb_and_dispatch ------------------------------------------------------------------

rule!(EPLB_RECORDER_WARNING, "PAR045", "eplb-sets-recorder-mode", "", FILE, "handle_eplb_and_dispatch", "", Severity::Warning,
    "EPLB is enabled. The expert_distribution_recorder_mode is automatically set.",
    "EPLB needs expert usage statistics, so SGLang turns the expert distribution recorder on in 'stat' mode.",
    ["--enable-eplb", "--expert-distribution-recorder-mode"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --enable-eplb",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --enable-eplb --expert-distribution-recorder-mode stat");
rule!(EP_DISPATCH_NEEDS_A2A, "PAR046", "rank-dependent-dispatch-needs-a2a", "parallel_hook.handle_eplb_and_dispatch#1", FILE,
    "handle_eplb_and_dispatch", "ValueError", Severity::Error,
    "--ep-dispatch-algorithm {cfg.ep_dispatch_algorithm} picks a different physical replica per rank, which only holds up when an a2a backend routes each token to a single rank. Use --ep-dispatch-algorithm dynamic with --moe-a2a-backend none.",
    "Without an all-to-all backend every EP rank computes the MoE for the same tokens and sums the results, so all ranks must pick the same expert replica; 'static' and 'lp' pick per rank.",
    ["--ep-dispatch-algorithm", "--moe-a2a-backend"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --ep-dispatch-algorithm static",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --ep-dispatch-algorithm dynamic");
rule!(EPLB_NEEDS_EP, "PAR047", "eplb-needs-expert-parallelism", "parallel_hook.handle_eplb_and_dispatch#2", FILE,
    "handle_eplb_and_dispatch", "AssertionError", Severity::Error,
    "",
    "EPLB balances experts across expert-parallel ranks; with an EP size of 1 there is nothing to balance. SGLang fails with a bare assertion (empty message).",
    ["--enable-eplb", "--ep-size"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --enable-eplb",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --enable-eplb");

// ---- handle_elastic_ep -------------------------------------------------------------------------

macro_rules! elastic {
    ($name:ident, $code:literal, $kebab:literal, $n:literal, $exc:literal, $template:literal, $expl:literal, [$($flag:literal),*], $bad:literal, $good:literal) => {
        rule!($name, $code, $kebab, $n, FILE, "handle_elastic_ep", $exc, Severity::Error, $template, $expl, [$($flag),*], $bad, $good);
    };
}

elastic!(EEP_EPLB_ALGORITHM, "PAR050", "elastic-ep-eplb-algorithm", "parallel_hook.handle_elastic_ep#1", "AssertionError",
    "Elastic EP requires eplb_algorithm to be set to 'auto' or 'elasticity_aware(_hierarchical)'.",
    "With Elastic EP, EPLB must use an elasticity-aware algorithm that copes with ranks joining and leaving.",
    ["--elastic-ep-backend", "--enable-eplb", "--eplb-algorithm"],
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --elastic-ep-backend mooncake --enable-eplb --eplb-algorithm deepseek",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --elastic-ep-backend mooncake --enable-eplb");
elastic!(EEP_PP, "PAR051", "elastic-ep-excludes-pp", "parallel_hook.handle_elastic_ep#2", "AssertionError",
    "PP size should be set to 1 under elastic EP",
    "Elastic EP is only implemented for a single pipeline stage.",
    ["--elastic-ep-backend", "--pp-size"], "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --pp-size 2",
    "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake");
elastic!(EEP_JOIN_NEEDS_BACKEND, "PAR052", "elastic-join-needs-backend", "parallel_hook.handle_elastic_ep#3", "AssertionError",
    "--elastic-ep-join-mode requires --elastic-ep-backend to be set.",
    "Joining an Elastic EP deployment goes through the elastic EP backend, which must be named.",
    ["--elastic-ep-join-mode", "--elastic-ep-backend"], "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-join-mode recover",
    "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-join-mode recover --elastic-ep-backend mooncake");
elastic!(EEP_SCALE_NODE_RANK, "PAR053", "elastic-scale-joiner-node-rank-1", "parallel_hook.handle_elastic_ep#4", "AssertionError",
    "Elastic EP scale-up requires one joining TP group at --node-rank 1 (got {cfg.node_rank}).",
    "A scale-up joiner is launched as the second node of its own group, so SGLang requires --node-rank 1.",
    ["--elastic-ep-join-mode", "--node-rank"], "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --elastic-ep-join-mode scale",
    "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --elastic-ep-join-mode scale --node-rank 1 --elastic-ep-join-rank-offset 1");
elastic!(EEP_SCALE_OFFSET, "PAR054", "elastic-scale-needs-rank-offset", "parallel_hook.handle_elastic_ep#5", "AssertionError",
    "Elastic EP scale joiners require --elastic-ep-join-rank-offset set to the current effective EP size.",
    "A scale-up joiner must be told where its ranks start: the current EP size of the deployment it joins.",
    ["--elastic-ep-join-mode", "--elastic-ep-join-rank-offset"],
    "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --elastic-ep-join-mode scale --node-rank 1",
    "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --elastic-ep-join-mode scale --node-rank 1 --elastic-ep-join-rank-offset 1");
elastic!(EEP_OFFSET_ONLY_SCALE, "PAR055", "elastic-rank-offset-only-for-scale", "parallel_hook.handle_elastic_ep#6", "AssertionError",
    "--elastic-ep-join-rank-offset is only valid with --elastic-ep-join-mode scale.",
    "The join rank offset only means something for a scale-up joiner.",
    ["--elastic-ep-join-rank-offset", "--elastic-ep-join-mode"], "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-join-rank-offset 2",
    "--model-path Qwen/Qwen3-30B-A3B");
elastic!(EEP_MAX_NEEDS_BACKEND, "PAR056", "max-ep-size-needs-elastic-backend", "parallel_hook.handle_elastic_ep#8", "AssertionError",
    "--max-ep-size requires --elastic-ep-backend to be set.",
    "A maximum EP size only matters for an Elastic EP deployment that can grow.",
    ["--max-ep-size", "--elastic-ep-backend"], "--model-path Qwen/Qwen3-30B-A3B --max-ep-size 8",
    "--model-path Qwen/Qwen3-30B-A3B --max-ep-size 8 --elastic-ep-backend mooncake");
elastic!(EEP_MAX_POSITIVE, "PAR057", "max-ep-size-positive", "parallel_hook.handle_elastic_ep#9", "AssertionError",
    "--max-ep-size must be a positive integer.",
    "The largest EP size an Elastic EP deployment may grow to must be at least 1.",
    ["--max-ep-size"], "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --max-ep-size 0",
    "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --max-ep-size 1");
elastic!(EEP_INITIAL_NEEDS_SCALING, "PAR058", "elastic-initial-size-needs-scaling", "parallel_hook.handle_elastic_ep#10", "AssertionError",
    "--elastic-ep-initial-size is only valid for an Elastic EP deployment with --max-ep-size larger than its local TP size.",
    "The initial EP size only matters when the deployment can scale up: an elastic backend and --max-ep-size above --tp-size.",
    ["--elastic-ep-initial-size", "--max-ep-size"], "--model-path Qwen/Qwen3-30B-A3B --elastic-ep-initial-size 2",
    "--model-path Qwen/Qwen3-30B-A3B");
elastic!(EEP_TOPOLOGY, "PAR059", "elastic-attention-topology", "parallel_hook.handle_elastic_ep#11", "AssertionError",
    "Invalid attention topology: tp_size={cfg.tp_size}, attn_dp_size={cfg.attn_dp_size}, attn_cp_size={resolved.attn_cp_size}.",
    "Elastic EP scale-up needs --tp-size to split evenly into attention-DP and CP groups.",
    ["--tp-size", "--attn-dp-size", "--attn-cp-size"], "", "");
elastic!(EEP_REPLICA_DIVISIBLE, "PAR060", "elastic-ep-size-divisible-by-replica", "parallel_hook.handle_elastic_ep#12", "AssertionError",
    "EP size {ep_size} must be divisible by attention replica size {attn_replica_size}.",
    "Elastic EP grows in whole attention replicas (attention TP x attention CP ranks), so --max-ep-size, the initial size and the join offset must be multiples of that width.",
    ["--max-ep-size", "--elastic-ep-initial-size", "--elastic-ep-join-rank-offset"],
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --elastic-ep-backend mooncake --max-ep-size 5",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --elastic-ep-backend mooncake --max-ep-size 4");
elastic!(EEP_MOE_DENSE_TP, "PAR061", "elastic-scale-attn-tp-needs-dense-tp-1", "parallel_hook.handle_elastic_ep#13", "AssertionError",
    "Elastic EP scale-up with attention TP greater than one requires --moe-dense-tp-size 1 (got moe_dense_tp_size={cfg.moe_dense_tp_size}).",
    "When attention is tensor-parallel, dense MLP layers must not be TP-sharded for a joining group to fit in.",
    ["--moe-dense-tp-size"], "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --elastic-ep-backend mooncake --max-ep-size 4",
    "--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --elastic-ep-backend mooncake --max-ep-size 4 --moe-dense-tp-size 1");
elastic!(EEP_TIMEOUT, "PAR062", "elastic-scale-timeout-positive", "parallel_hook.handle_elastic_ep#14", "AssertionError",
    "--elastic-ep-scale-timeout must be greater than zero.",
    "Scale-up waits for joiners at most this long; zero or negative makes no sense.",
    ["--elastic-ep-scale-timeout"], "", "");
elastic!(EEP_TOKENIZER_WORKERS, "PAR063", "elastic-scale-single-tokenizer", "parallel_hook.handle_elastic_ep#15", "AssertionError",
    "Elastic EP runtime scale-up currently requires --tokenizer-worker-num 1.",
    "Runtime scale-up is only implemented with a single tokenizer worker.",
    ["--tokenizer-worker-num"], "", "");
elastic!(EEP_RAY, "PAR064", "elastic-scale-excludes-ray", "parallel_hook.handle_elastic_ep#16", "AssertionError",
    "Elastic EP runtime scale-up does not support --use-ray.",
    "Runtime scale-up is not implemented for Ray-launched servers.",
    ["--use-ray"], "", "");
elastic!(EEP_BACKUP, "PAR065", "elastic-scale-excludes-expert-backup", "parallel_hook.handle_elastic_ep#17", "AssertionError",
    "Elastic EP runtime scale-up does not support --enable-elastic-expert-backup.",
    "Expert backup and runtime scale-up are separate Elastic EP modes that cannot be combined.",
    ["--enable-elastic-expert-backup"], "", "");
elastic!(EEP_JOINER_INITIAL, "PAR066", "elastic-joiner-needs-initial-size", "parallel_hook.handle_elastic_ep#18", "AssertionError",
    "Elastic EP scale joiners require --elastic-ep-initial-size set to the primary deployment's launch-time EP size.",
    "A joiner must know the EP size the primary deployment started with.",
    ["--elastic-ep-initial-size"], "", "");
elastic!(EEP_INITIAL_LE_OFFSET, "PAR067", "elastic-initial-size-within-current", "parallel_hook.handle_elastic_ep#19", "AssertionError",
    "--elastic-ep-initial-size cannot exceed the current EP size (initial={cfg.elastic_ep_initial_size}, current={cfg.ep_join_rank_offset}).",
    "The deployment's launch-time EP size cannot be larger than its current size (the join offset).",
    ["--elastic-ep-initial-size", "--elastic-ep-join-rank-offset"], "", "");
elastic!(EEP_JOIN_TARGET, "PAR068", "elastic-join-exceeds-max-ep", "parallel_hook.handle_elastic_ep#20", "AssertionError",
    "Elastic EP joining group exceeds --max-ep-size (join_target={join_target}, max_ep_size={cfg.max_ep_size}).",
    "The joining group's ranks (offset + TP size) must fit inside --max-ep-size.",
    ["--max-ep-size", "--elastic-ep-join-rank-offset", "--tp-size"], "", "");
elastic!(EEP_SINGLE_RANK_DENSE, "PAR069", "elastic-single-rank-joiner-dense-tp-1", "parallel_hook.handle_elastic_ep#21", "AssertionError",
    "A single-rank Elastic EP joining group requires --moe-dense-tp-size 1.",
    "A one-rank joiner cannot hold TP-sharded dense layers.",
    ["--moe-dense-tp-size"], "", "");
elastic!(EEP_PRIMARY_INITIAL, "PAR070", "elastic-primary-initial-size-is-tp", "parallel_hook.handle_elastic_ep#22", "AssertionError",
    "The primary --elastic-ep-initial-size must equal its launch-time TP size ({cfg.tp_size}).",
    "On the primary deployment the initial EP size is its own TP size; leave --elastic-ep-initial-size unset or equal to --tp-size.",
    ["--elastic-ep-initial-size", "--tp-size"], "", "");
elastic!(EEP_INITIAL_POSITIVE, "PAR071", "elastic-initial-size-positive", "parallel_hook.handle_elastic_ep#23", "AssertionError",
    "",
    "The initial EP size must be positive. SGLang fails with a bare assertion (empty message).",
    ["--elastic-ep-initial-size"], "", "");
elastic!(EEP_ROUND_ROBIN, "PAR072", "elastic-scale-needs-round-robin", "parallel_hook.handle_elastic_ep#24", "AssertionError",
    "Elastic EP scale-up requires --load-balance-method round_robin; load-aware methods require global-rank load snapshots after scale (got {cfg.load_balance_method}).",
    "Load-aware DP balancing needs per-rank load snapshots that do not survive a scale-up; on a prefill server the default is follow_bootstrap_room.",
    ["--load-balance-method"], "", "");
elastic!(EEP_MOONCAKE, "PAR073", "elastic-scale-needs-mooncake", "parallel_hook.handle_elastic_ep#25", "AssertionError",
    "Elastic EP runtime scale-up requires --elastic-ep-backend mooncake (got elastic_ep_backend={cfg.elastic_ep_backend}).",
    "Only the Mooncake elastic backend implements runtime scale-up.",
    ["--elastic-ep-backend"], "", "");
elastic!(EEP_DCP, "PAR074", "elastic-scale-dcp-divides-attn-tp", "parallel_hook.handle_elastic_ep#27", "AssertionError",
    "Elastic EP scale-up requires --dcp-size to divide the fixed attention TP width (got dcp_size={cfg.dcp_size}, attn_tp_size={attn_tp_size}).",
    "Decode context parallelism runs inside the attention TP group, which stays fixed while EP scales.",
    ["--dcp-size"], "", "");

elastic!(EEP_DECODE_GRAPH, "PAR075", "elastic-scale-decode-graph-full-or-disabled", "parallel_hook.handle_elastic_ep#28", "AssertionError",
    "Elastic EP runtime scale-up supports decode CUDA graph backend 'full' or 'disabled' (got {decode_backend!r}).",
    "Decode CUDA graphs are recaptured after a scale-up; only full graphs (or none) support that.",
    ["--cuda-graph-backend-decode"], "", "");
elastic!(EEP_PREFILL_GRAPH, "PAR076", "elastic-scale-prefill-graph-disabled", "parallel_hook.handle_elastic_ep#29", "AssertionError",
    "Elastic EP runtime scale-up requires prefill CUDA graph to be disabled.",
    "Prefill CUDA graphs are not recaptured after a scale-up, so they must be off (--cuda-graph-backend-prefill disabled).",
    ["--cuda-graph-backend-prefill"], "", "");
elastic!(EEP_GRAPH_CUDA, "PAR077", "elastic-graph-recapture-needs-cuda", "parallel_hook.handle_elastic_ep#30", "AssertionError",
    "Elastic EP CUDA graph recapture requires CUDA (got device={cfg.device!r}).",
    "With the full decode CUDA graph, scale-up recaptures graphs, which needs a CUDA device.",
    ["--device", "--cuda-graph-backend-decode"], "", "");
elastic!(EEP_GRAPH_SPEC, "PAR078", "elastic-graph-recapture-excludes-speculative", "parallel_hook.handle_elastic_ep#31", "AssertionError",
    "Elastic EP CUDA graph recapture does not support speculative decoding.",
    "Decode graph recapture after a scale-up is not implemented for speculative decoding; disable the decode CUDA graph or speculation.",
    ["--speculative-algorithm", "--cuda-graph-backend-decode"], "", "");
elastic!(EEP_GRAPH_EMBEDDING, "PAR079", "elastic-graph-recapture-excludes-embedding", "parallel_hook.handle_elastic_ep#32", "AssertionError",
    "Elastic EP CUDA graph recapture does not support embedding models.",
    "Decode graph recapture after a scale-up is not implemented for embedding models.",
    ["--is-embedding", "--cuda-graph-backend-decode"], "", "");
elastic!(EEP_GRAPH_DLLM, "PAR080", "elastic-graph-recapture-excludes-dllm", "parallel_hook.handle_elastic_ep#33", "AssertionError",
    "Elastic EP CUDA graph recapture does not support diffusion models.",
    "Decode graph recapture after a scale-up is not implemented for diffusion language models.",
    ["--dllm-algorithm", "--cuda-graph-backend-decode"], "", "");
elastic!(EEP_GRAPH_ENCODER, "PAR081", "elastic-graph-recapture-excludes-encoder-only", "parallel_hook.handle_elastic_ep#34", "AssertionError",
    "Elastic EP CUDA graph recapture does not support encoder-only models.",
    "Decode graph recapture after a scale-up is not implemented for encoder-only servers.",
    ["--encoder-only", "--cuda-graph-backend-decode"], "", "");
elastic!(EEP_GRAPH_HOOKS, "PAR082", "elastic-graph-recapture-excludes-forward-hooks", "parallel_hook.handle_elastic_ep#35", "AssertionError",
    "Elastic EP CUDA graph recapture does not support forward hooks.",
    "Decode graph recapture after a scale-up is not implemented with forward hooks installed.",
    ["--forward-hooks", "--cuda-graph-backend-decode"], "", "");
elastic!(EEP_GRAPH_PDMUX, "PAR083", "elastic-graph-recapture-excludes-pdmux", "parallel_hook.handle_elastic_ep#36", "AssertionError",
    "Elastic EP CUDA graph recapture does not support PDMux.",
    "Decode graph recapture after a scale-up is not implemented with PD multiplexing.",
    ["--enable-pdmux", "--cuda-graph-backend-decode"], "", "");
elastic!(EEP_ATTN_DP, "PAR084", "elastic-scale-needs-attn-dp", "parallel_hook.handle_elastic_ep#37", "AssertionError",
    "Elastic EP scale-up requires attention DP (--attn-dp-size); without it the TP group is not equivalent to WORLD and the post-scale collective path is invalid.",
    "Runtime scale-up adds attention-DP groups; without attention DP the collectives after a scale-up would be wrong.",
    ["--attn-dp-size"], "", "");
elastic!(EEP_DP_LM_HEAD, "PAR085", "elastic-scale-needs-dp-lm-head", "parallel_hook.handle_elastic_ep#38", "AssertionError",
    "Elastic EP scale-up requires --enable-dp-lm-head so output projection does not depend on the joining group's TP size.",
    "With a DP LM head each attention-DP group computes its own logits, so joiners of a different TP size still fit.",
    ["--enable-dp-lm-head"], "", "");
elastic!(EEP_ATTN_CP, "PAR086", "elastic-scale-excludes-attn-cp", "parallel_hook.handle_elastic_ep#39", "AssertionError",
    "Elastic EP scale-up requires --attn-cp-size 1 (got attn_cp_size={resolved.attn_cp_size}).",
    "Runtime scale-up is not implemented with attention context parallelism.",
    ["--attn-cp-size"], "", "");
elastic!(EEP_EP_EQ_TP, "PAR087", "elastic-scale-ep-equals-tp", "parallel_hook.handle_elastic_ep#41", "AssertionError",
    "Elastic EP scale-up requires ep_size == tp_size (got ep_size={resolved.ep_size}, tp_size={cfg.tp_size}); physical EP membership must coincide with the launch-time TP span.",
    "Every launch-time rank must be an expert-parallel rank; all-to-all MoE backends set --ep-size to --tp-size by themselves.",
    ["--ep-size", "--tp-size"], "", "");
elastic!(EEP_NIXL, "PAR088", "elastic-scale-needs-nixl-a2a", "parallel_hook.handle_elastic_ep#42", "AssertionError",
    "Elastic EP scale-up requires --moe-a2a-backend nixl (got moe_a2a_backend={resolved.moe_a2a_backend}).",
    "Only the NIXL MoE all-to-all backend supports ranks joining at run time.",
    ["--moe-a2a-backend"], "", "");

/// Every rule in this family.
pub static RULES: &[&Rule] = &[
    &DCP_SIZE_POSITIVE,
    &DCP_NO_PREFILL_CP,
    &DCP_COMM_NEEDS_DCP,
    &DCP_FI_A2A_NEEDS_CUDA,
    &DCP_REPLICATE_Q_NEEDS_DCP,
    &DCP_REPLICATE_Q_NEEDS_A2A,
    &DWDP_EQUALS_TP,
    &DWDP_DISAGG_MODE,
    &DWDP_NO_EPLB,
    &DWDP_NO_SPEC,
    &DWDP_NO_PP,
    &DWDP_NO_TBO,
    &DWDP_NULL_MODE_WARNING,
    &NCCL_GRAPH_REGISTER_WARNING,
    &ATTN_DP_POSITIVE,
    &DP_WITH_ATTN_DP,
    &TP_DIVISIBLE_BY_ATTN_DP,
    &MM_DP_ENCODER_TP1_WARNING,
    &DP_CHUNKED_PREFILL_WARNING,
    &DP_LM_HEAD_NEEDS_ATTN_DP,
    &TP_LM_HEAD_NEEDS_ATTN_DP,
    &TP_LM_HEAD_NO_DP_LM_HEAD,
    &TP_LM_HEAD_TP_EQ_ATTN_DP,
    &TP_LM_HEAD_NO_CP,
    &CP_STRATEGY_REQUIRED,
    &TP_DIV_ATTN_CP,
    &TP_DIV_ATTN_DP_CP,
    &AITER_FUSION_CP,
    &TP_DIV_MOE_DP,
    &EP_MOE_DP_LE_TP,
    &PP_WITH_MOE_DP,
    &EP_MOE_DP_EQ_TP,
    &ATTN_CP_NE_MOE_DP,
    &SHARED_EXPERTS_TP_DIVISOR,
    &EPLB_RECORDER_WARNING,
    &EP_DISPATCH_NEEDS_A2A,
    &EPLB_NEEDS_EP,
    &EEP_EPLB_ALGORITHM,
    &EEP_PP,
    &EEP_JOIN_NEEDS_BACKEND,
    &EEP_SCALE_NODE_RANK,
    &EEP_SCALE_OFFSET,
    &EEP_OFFSET_ONLY_SCALE,
    &EEP_MAX_NEEDS_BACKEND,
    &EEP_MAX_POSITIVE,
    &EEP_INITIAL_NEEDS_SCALING,
    &EEP_TOPOLOGY,
    &EEP_REPLICA_DIVISIBLE,
    &EEP_MOE_DENSE_TP,
    &EEP_TIMEOUT,
    &EEP_TOKENIZER_WORKERS,
    &EEP_RAY,
    &EEP_BACKUP,
    &EEP_JOINER_INITIAL,
    &EEP_INITIAL_LE_OFFSET,
    &EEP_JOIN_TARGET,
    &EEP_SINGLE_RANK_DENSE,
    &EEP_PRIMARY_INITIAL,
    &EEP_INITIAL_POSITIVE,
    &EEP_ROUND_ROBIN,
    &EEP_MOONCAKE,
    &EEP_DCP,
    &EEP_DECODE_GRAPH,
    &EEP_PREFILL_GRAPH,
    &EEP_GRAPH_CUDA,
    &EEP_GRAPH_SPEC,
    &EEP_GRAPH_EMBEDDING,
    &EEP_GRAPH_DLLM,
    &EEP_GRAPH_ENCODER,
    &EEP_GRAPH_HOOKS,
    &EEP_GRAPH_PDMUX,
    &EEP_ATTN_DP,
    &EEP_DP_LM_HEAD,
    &EEP_ATTN_CP,
    &EEP_EP_EQ_TP,
    &EEP_NIXL,
];


// ---- small readers with Python semantics ----------------------------------------------------

fn int(ctx: &Ctx, dest: &str, default: i64) -> i64 {
    ctx.cfg.int(dest).unwrap_or(default)
}

/// `str(x)` of a field as an f-string prints it.
fn show(ctx: &Ctx, dest: &str) -> String {
    ctx.cfg.get(dest).py_str()
}

/// `runtime_context.attn_dp_enabled_of`: attention DP runs (`attn_dp_size > 1`) or this
/// process joins an attention-DP deployment (`ep_join_mode == "scale"`).
pub fn attn_dp_enabled(ctx: &Ctx) -> bool {
    int(ctx, "attn_dp_size", 1) > 1 || ctx.cfg.is("ep_join_mode", "scale")
}

/// `runtime_context.num_dp_ranks_of`: replicas times attention-DP groups.
pub fn num_dp_ranks(ctx: &Ctx) -> i64 {
    int(ctx, "dp_size", 1) * int(ctx, "attn_dp_size", 1)
}

/// SGLang's `EnvBool` (`envs.X.get()`): true/1/yes/y and false/0/no/n, case-insensitive.
/// Other text makes SGLang raise on read; we treat it as unset.
pub fn env_bool(ctx: &Ctx, name: &str) -> bool {
    matches!(ctx.env(name).map(str::to_ascii_lowercase).as_deref(), Some("true" | "1" | "yes" | "y"))
}

/// Python `a % b` for ints (sign of the divisor); None for b == 0 (ZeroDivisionError).
fn py_mod(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    let r = a.checked_rem(b)?;
    Some(if r != 0 && ((r < 0) != (b < 0)) { r + b } else { r })
}

/// Python `a // b` for ints; None for b == 0.
fn py_floordiv(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    let q = a.checked_div(b)?;
    Some(if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q })
}

/// The MoE all-to-all backend as `moe_hook.handle_a2a_moe` (not modelled) leaves it, for the
/// hooks after it: Waterfill forces DeepEP (`_a2a_backend_overrides`) and `ascend_tp` reads as
/// `none`. Values a model override forces (DeepSeek, MiniMax-M3) are not known here.
fn moe_a2a_backend_after_a2a_hook(ctx: &Ctx) -> String {
    let mut backend = ctx.cfg.str("moe_a2a_backend").unwrap_or("none").to_string();
    if ctx.cfg.truthy("enable_waterfill") && backend != "deepep" && backend != "megamoe" {
        backend = "deepep".into();
    }
    if backend == "ascend_tp" {
        backend = "none".into();
    }
    backend
}

/// `overrides._A2A_EP_SPANNING_BACKENDS`.
const A2A_EP_SPANNING_BACKENDS: &[&str] =
    &["megamoe", "deepep", "deepep_v2", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "flashinfer_megamoe", "mori", "pplx"];

/// `ep_size` after `handle_a2a_moe` (`_a2a_ep_size`): the spanning backends set it to tp_size.
fn ep_size_after_a2a_hook(ctx: &Ctx) -> i64 {
    if A2A_EP_SPANNING_BACKENDS.contains(&moe_a2a_backend_after_a2a_hook(ctx).as_str()) {
        int(ctx, "tp_size", 1)
    } else {
        int(ctx, "ep_size", 1)
    }
}

// ---- hooks ------------------------------------------------------------------------------------

/// `handle_deprecated_dp_attention`: `--dp-size N --enable-dp-attention` becomes
/// `--attn-dp-size N` (and `dp_size` 1); `enable_dp_attention` is cleared either way.
pub fn handle_deprecated_dp_attention(ctx: &mut Ctx) {
    if !ctx.cfg.truthy("enable_dp_attention") {
        return;
    }
    if int(ctx, "attn_dp_size", 1) == 1 {
        let dp = ctx.cfg.get("dp_size").clone();
        ctx.cfg.set("attn_dp_size", dp);
        ctx.cfg.set("dp_size", PyValue::Int(1));
    }
    ctx.cfg.set("enable_dp_attention", PyValue::Bool(false));
}

/// `validate_prefill_cp_platform`: rejects prefill CP on MUSA. No hardware profile this build
/// knows is MUSA, so the check (`parallel_hook.validate_prefill_cp_platform#1`) never fires.
pub fn validate_prefill_cp_platform(_ctx: &mut Ctx) {}

/// `overrides._dcp_comm_backend_default`.
fn dcp_comm_backend_default(ctx: &mut Ctx) {
    if !ctx.cfg.is_none("dcp_comm_backend") {
        return;
    }
    let dcp = int(ctx, "dcp_size", 1);
    if dcp <= 1 {
        ctx.cfg.set("dcp_comm_backend", PyValue::Str("ag_rs".into()));
        return;
    }
    // utils.common.is_fi_a2a_supported: sm100 family, then the MNNVL fabric, else the per-node
    // TP width must be a multiple of dcp_size.
    let fi_a2a = ctx.hw.is_cuda() && ctx.hw.capability.0 == 10 && {
        if ctx.hw.mnnvl_fabric {
            true
        } else {
            let tp = int(ctx, "tp_size", 1);
            let per = py_floordiv(int(ctx, "nnodes", 1), int(ctx, "pp_size", 1)).unwrap_or(1).max(1);
            py_floordiv(tp, per).and_then(|t| py_mod(t, dcp)) == Some(0)
        }
    };
    let backend = if fi_a2a {
        "fi_a2a"
    } else if ctx.hw.is_cuda() || ctx.hw.is_hip() {
        "a2a"
    } else {
        "ag_rs"
    };
    ctx.cfg.set("dcp_comm_backend", PyValue::Str(backend.into()));
}

/// `handle_decode_context_parallelism`.
pub fn handle_decode_context_parallelism(ctx: &mut Ctx) {
    dcp_comm_backend_default(ctx);
    let dcp = int(ctx, "dcp_size", 1);
    if dcp < 1 {
        let fixes = vec![
            ctx.fix_set("Turn decode context parallelism off (--dcp-size 1)", "dcp_size", "--dcp-size", "1", Applicability::Unsafe),
        ];
        let msg = format!(
            "Decode context parallel size (--dcp-size / --decode-context-parallel-size) must be >= 1, but got dcp_size={dcp}."
        );
        return ctx.raise(&DCP_SIZE_POSITIVE, msg, &["dcp_size"], fixes);
    }
    if dcp > 1 && ctx.cfg.truthy("enable_prefill_cp") {
        let fixes = vec![
            ctx.fix_remove("Keep decode context parallelism: drop --enable-prefill-cp", "enable_prefill_cp", Applicability::Unsafe),
            ctx.fix_remove("Keep prefill context parallelism: drop --dcp-size", "dcp_size", Applicability::Unsafe),
        ];
        return ctx.raise(&DCP_NO_PREFILL_CP, DCP_NO_PREFILL_CP.template.to_string(), &["dcp_size", "enable_prefill_cp"], fixes);
    }
    let backend = ctx.cfg.str("dcp_comm_backend").unwrap_or("").to_string();
    if (backend == "a2a" || backend == "fi_a2a") && dcp <= 1 {
        let fixes = vec![
            ctx.fix_remove("Drop --dcp-comm-backend (DCP is off)", "dcp_comm_backend", Applicability::Safe),
            ctx.fix_set("Turn decode context parallelism on (--dcp-size 2)", "dcp_size", "--dcp-size", "2", Applicability::Unsafe),
        ];
        let msg = format!(
            "--dcp-comm-backend {backend} only affects the decode context-parallel attention reduction and therefore requires --dcp-size / --decode-context-parallel-size > 1, but got dcp_size={dcp}."
        );
        return ctx.raise(&DCP_COMM_NEEDS_DCP, msg, &["dcp_comm_backend", "dcp_size"], fixes);
    }
    if backend == "fi_a2a" && !ctx.hw.is_cuda() {
        let fixes = vec![
            ctx.fix_set("Use the a2a DCP backend", "dcp_comm_backend", "--dcp-comm-backend", "a2a", Applicability::Safe),
            ctx.fix_remove("Let SGLang pick the DCP backend", "dcp_comm_backend", Applicability::Safe),
        ];
        return ctx.raise(&DCP_FI_A2A_NEEDS_CUDA, DCP_FI_A2A_NEEDS_CUDA.template.to_string(), &["dcp_comm_backend"], fixes);
    }
    if ctx.cfg.truthy("dcp_replicate_q_proj") {
        if dcp <= 1 {
            let fixes = vec![ctx.fix_remove("Drop --dcp-replicate-q-proj (DCP is off)", "dcp_replicate_q_proj", Applicability::Safe)];
            return ctx.raise(&DCP_REPLICATE_Q_NEEDS_DCP, DCP_REPLICATE_Q_NEEDS_DCP.template.to_string(), &["dcp_replicate_q_proj", "dcp_size"], fixes);
        }
        if backend != "a2a" && backend != "fi_a2a" {
            let fixes = vec![
                ctx.fix_set("Use the a2a DCP backend", "dcp_comm_backend", "--dcp-comm-backend", "a2a", Applicability::Unsafe),
                ctx.fix_remove("Drop --dcp-replicate-q-proj", "dcp_replicate_q_proj", Applicability::Safe),
            ];
            let msg = format!(
                "--dcp-replicate-q-proj only applies to the a2a/fi_a2a DCP communication backend (it removes the head-dim Q all-gather); got --dcp-comm-backend={backend}."
            );
            ctx.raise(&DCP_REPLICATE_Q_NEEDS_A2A, msg, &["dcp_replicate_q_proj", "dcp_comm_backend"], fixes);
        }
    }
}

/// `handle_dwdp`.
pub fn handle_dwdp(ctx: &mut Ctx) {
    let dwdp = int(ctx, "dwdp_size", 1);
    if dwdp <= 1 {
        return;
    }
    let tp = int(ctx, "tp_size", 1);
    if dwdp != tp {
        let fixes = vec![
            ctx.fix_set(format!("Set --tp-size {dwdp}"), "tp_size", "--tp-size", &dwdp.to_string(), Applicability::Unsafe),
            ctx.fix_set(format!("Set --dwdp-size {tp}"), "dwdp_size", "--dwdp-size", &tp.to_string(), Applicability::Unsafe),
        ];
        return ctx.raise(&DWDP_EQUALS_TP, format!("dwdp_size ({dwdp}) must equal tp_size ({tp})"), &["dwdp_size", "tp_size"], fixes);
    }
    let mode = ctx.cfg.str("disaggregation_mode").unwrap_or("null").to_string();
    if mode != "null" && mode != "prefill" {
        let fixes = vec![ctx.fix_remove("Drop --dwdp-size on the decode server", "dwdp_size", Applicability::Unsafe)];
        return ctx.raise(&DWDP_DISAGG_MODE, DWDP_DISAGG_MODE.template.to_string(), &["dwdp_size", "disaggregation_mode"], fixes);
    }
    let checks: [(&'static Rule, bool, &str); 4] = [
        (&DWDP_NO_EPLB, ctx.cfg.truthy("enable_eplb"), "enable_eplb"),
        (&DWDP_NO_SPEC, !ctx.cfg.is_none("speculative_algorithm"), "speculative_algorithm"),
        (&DWDP_NO_PP, int(ctx, "pp_size", 1) != 1, "pp_size"),
        (&DWDP_NO_TBO, ctx.cfg.truthy("enable_two_batch_overlap"), "enable_two_batch_overlap"),
    ];
    for (rule, failed, dest) in checks {
        if failed {
            let flag = ctx.cfg.setting(dest).map(|s| s.written_as.clone()).unwrap_or_else(|| format!("--{}", dest.replace('_', "-")));
            let mut fixes = vec![ctx.fix_remove(format!("Drop {flag}"), dest, Applicability::Unsafe)];
            if dest != "enable_two_batch_overlap" {
                // Without DWDP, two-batch overlap needs attention DP or an a2a backend.
                fixes.push(ctx.fix_remove("Drop --dwdp-size", "dwdp_size", Applicability::Unsafe));
            }
            return ctx.raise(rule, rule.template.to_string(), &[dest, "dwdp_size"], fixes);
        }
    }
    if mode == "null" {
        ctx.warn(&DWDP_NULL_MODE_WARNING, DWDP_NULL_MODE_WARNING.template.to_string(), &["dwdp_size"], vec![]);
    }
    ctx.cfg.set("attn_dp_size", PyValue::Int(dwdp));
    ctx.cfg.set("dp_size", PyValue::Int(1));
    ctx.cfg.set("enable_dp_attention_local_control_broadcast", PyValue::Bool(true));
    ctx.cfg.set("enable_dp_lm_head", PyValue::Bool(true));
    ctx.cfg.set("moe_dense_tp_size", PyValue::Int(1));
    ctx.cfg.set("ep_size", PyValue::Int(dwdp));
    ctx.cfg.set("moe_dp_size", PyValue::Int(1));
    ctx.cfg.set("moe_a2a_backend", PyValue::Str("none".into()));
    // envs.SGLANG_SCHEDULER_SKIP_ALL_GATHER.set(True): process state, not a field.
    ctx.cfg.set("disable_cuda_graph", PyValue::Bool(true));
}

/// `chunked_prefill_size` as SGLang has it when `handle_data_parallelism` runs: the value on the
/// command line, one a modelled hook set, or else `memory_hook.handle_gpu_memory_settings`'s
/// default from the GPU memory (that hook is not modelled; same thresholds, MiB). None when it
/// cannot be known (CPU device, which sizes from host memory).
fn chunked_prefill_size_now(ctx: &Ctx) -> Option<i64> {
    if let Some(v) = ctx.cfg.int("chunked_prefill_size") {
        return Some(v);
    }
    if ctx.cfg.truthy("enable_mis") {
        // attention_hook.handle_multi_item_scoring turns chunked prefill off.
        return Some(-1);
    }
    if !(ctx.hw.is_cuda() || ctx.hw.is_hip()) {
        return None;
    }
    let mem = ctx.hw.gpu_mem_mib;
    Some(if mem < 20 * 1024 {
        2048
    } else if mem < 60 * 1024 {
        4096
    } else if mem < 160 * 1024 {
        8192
    } else {
        16384
    })
}

/// `handle_data_parallelism` (with `_data_parallelism_defaults`, `_tp_lm_head_all_to_all_default`
/// and `_dp_lm_head_validation` from `overrides.py`).
pub fn handle_data_parallelism(ctx: &mut Ctx) {
    let attn_dp = int(ctx, "attn_dp_size", 1);
    let dp = int(ctx, "dp_size", 1);
    if attn_dp < 1 {
        let fixes = vec![ctx.fix_set("Set --attn-dp-size 1 (no attention DP)", "attn_dp_size", "--attn-dp-size", "1", Applicability::Unsafe)];
        return ctx.raise(&ATTN_DP_POSITIVE, format!("--attn-dp-size must be positive (got {attn_dp})."), &["attn_dp_size"], fixes);
    }
    if attn_dp > 1 && dp > 1 {
        let fixes = vec![
            ctx.fix_remove("Keep attention DP: drop --dp-size", "dp_size", Applicability::Unsafe),
            ctx.fix_remove("Keep DP replicas: drop --attn-dp-size", "attn_dp_size", Applicability::Unsafe),
        ];
        let msg = format!(
            "--dp-size {dp} with --attn-dp-size {attn_dp}: data-parallel replicas combined with attention data parallelism are not supported."
        );
        let dests: &[&str] = if ctx.cfg.is_explicit("attn_dp_size") { &["attn_dp_size", "dp_size"] } else { &["dp_size", "enable_dp_attention"] };
        return ctx.raise(&DP_WITH_ATTN_DP, msg, dests, fixes);
    }

    // overrides._data_parallelism_defaults
    if num_dp_ranks(ctx) == 1 && !ctx.cfg.is("ep_join_mode", "scale") {
        ctx.cfg.set("enable_dp_lm_head", PyValue::Bool(false));
    }

    let tp = int(ctx, "tp_size", 1);
    if ctx.cfg.truthy("mm_enable_dp_encoder") && tp == 1 {
        ctx.warn(&MM_DP_ENCODER_TP1_WARNING, MM_DP_ENCODER_TP1_WARNING.template.to_string(), &["mm_enable_dp_encoder"], vec![]);
    }

    if attn_dp_enabled(ctx) {
        if let Some(sc) = ctx.cfg.float("schedule_conservativeness") {
            ctx.cfg.set("schedule_conservativeness", PyValue::Float(sc * 0.3));
        }
        if env_bool(ctx, "SGLANG_RUST_SERVER") {
            ctx.cfg.set("enable_dp_attention_local_control_broadcast", PyValue::Bool(true));
        }
        if py_mod(tp, attn_dp) != Some(0) {
            let fixes = divisor_fixes(ctx, tp, attn_dp);
            return ctx.raise(&TP_DIVISIBLE_BY_ATTN_DP, String::new(), &["attn_dp_size", "dp_size", "tp_size"], fixes);
        }
        if let Some(original) = chunked_prefill_size_now(ctx) {
            if let Some(adjusted) = py_floordiv(original, attn_dp) {
                ctx.cfg.set("chunked_prefill_size", PyValue::Int(adjusted));
                ctx.warn(&DP_CHUNKED_PREFILL_WARNING,
                    format!("DP attention is enabled. chunked prefill size is adjusted from {original} to {adjusted}."),
                    &["attn_dp_size", "dp_size"],
                    vec![],
                );
            }
        }
        // The prefill CUDA-graph max_bs re-clamp to the new chunked_prefill_size lives in the
        // cuda_graph_config, which this build's cuda_graph family resolves; not repeated here.
    }

    // overrides._tp_lm_head_all_to_all_default
    if ctx.cfg.is_none("enable_tp_lm_head_all_to_all") {
        let attn_dp = int(ctx, "attn_dp_size", 1);
        let enable = ctx.cfg.is("disaggregation_mode", "decode")
            && attn_dp > 1
            && tp == attn_dp
            && int(ctx, "attn_cp_size", 1) == 1
            && !ctx.cfg.truthy("enable_dp_lm_head");
        ctx.cfg.set("enable_tp_lm_head_all_to_all", PyValue::Bool(enable));
    }

    // overrides._dp_lm_head_validation
    let dp_enabled = attn_dp_enabled(ctx);
    if ctx.cfg.truthy("enable_dp_lm_head") && !dp_enabled {
        let fixes = vec![ctx.fix_remove("Drop --enable-dp-lm-head", "enable_dp_lm_head", Applicability::Unsafe)];
        return ctx.raise(&DP_LM_HEAD_NEEDS_ATTN_DP, DP_LM_HEAD_NEEDS_ATTN_DP.template.to_string(), &["enable_dp_lm_head"], fixes);
    }
    if ctx.cfg.truthy("enable_tp_lm_head_all_to_all") {
        if !dp_enabled {
            let fixes = vec![ctx.fix_remove("Drop --enable-tp-lm-head-all-to-all", "enable_tp_lm_head_all_to_all", Applicability::Unsafe)];
            return ctx.raise(&TP_LM_HEAD_NEEDS_ATTN_DP, TP_LM_HEAD_NEEDS_ATTN_DP.template.to_string(), &["enable_tp_lm_head_all_to_all"], fixes);
        }
        if ctx.cfg.truthy("enable_dp_lm_head") {
            let fixes = vec![
                ctx.fix_remove("Keep the TP LM head: drop --enable-dp-lm-head", "enable_dp_lm_head", Applicability::Unsafe),
                ctx.fix_remove("Keep the DP LM head: drop --enable-tp-lm-head-all-to-all", "enable_tp_lm_head_all_to_all", Applicability::Unsafe),
            ];
            return ctx.raise(&TP_LM_HEAD_NO_DP_LM_HEAD, TP_LM_HEAD_NO_DP_LM_HEAD.template.to_string(), &["enable_tp_lm_head_all_to_all", "enable_dp_lm_head"], fixes);
        }
        let attn_dp = int(ctx, "attn_dp_size", 1);
        if tp != attn_dp {
            let fixes = vec![ctx.fix_remove("Drop --enable-tp-lm-head-all-to-all", "enable_tp_lm_head_all_to_all", Applicability::Unsafe)];
            let msg = format!(
                "--enable-tp-lm-head-all-to-all currently requires tp_size == attn_dp_size, got tp_size={tp}, attn_dp_size={attn_dp}."
            );
            return ctx.raise(&TP_LM_HEAD_TP_EQ_ATTN_DP, msg, &["enable_tp_lm_head_all_to_all", "attn_dp_size", "tp_size"], fixes);
        }
        let cp = int(ctx, "attn_cp_size", 1);
        if cp != 1 {
            let fixes = vec![ctx.fix_remove("Drop --enable-tp-lm-head-all-to-all", "enable_tp_lm_head_all_to_all", Applicability::Unsafe)];
            let msg = format!("--enable-tp-lm-head-all-to-all currently requires attn_cp_size == 1, got {cp}.");
            return ctx.raise(&TP_LM_HEAD_NO_CP, msg, &["enable_tp_lm_head_all_to_all", "attn_cp_size"], fixes);
        }
    }

    // _graph_may_capture_collectives → _disable_nccl_graph_buffer_registration: only an explicit
    // NCCL_GRAPH_REGISTER other than "0" is reported. Whether a CUDA graph phase stays enabled
    // is the cuda_graph family's; here only `--disable-cuda-graph` is known to turn all off.
    if let Some(v) = ctx.env("NCCL_GRAPH_REGISTER").map(str::to_string) {
        let widest = tp.max(int(ctx, "ep_size", 1)).max(int(ctx, "dp_size", 1));
        if v != "0" && widest > 1 && !ctx.cfg.truthy("disable_cuda_graph") {
            ctx.warn(&NCCL_GRAPH_REGISTER_WARNING,
                format!(
                    "NCCL_GRAPH_REGISTER={v} was set explicitly; graph replay of captured cross-rank collectives can hang with registered buffers."
                ),
                &[],
                vec![],
            );
        }
    }
}

/// Fixes for "`a` must be divisible by `b`": the nearest divisor of `a` not above `b`.
fn divisor_fixes(ctx: &Ctx, tp: i64, attn_dp: i64) -> Vec<Fix> {
    let mut fixes = Vec::new();
    if tp > 0 {
        let dest = if ctx.cfg.is_explicit("attn_dp_size") { "attn_dp_size" } else { "dp_size" };
        let flag = if dest == "attn_dp_size" { "--attn-dp-size" } else { "--dp-size" };
        // The nearest divisors of tp_size below and above the requested width.
        let below = (1..=attn_dp.min(tp)).rev().find(|d| tp % d == 0);
        let above = (attn_dp..=tp).find(|d| tp % d == 0);
        for d in [below, above].into_iter().flatten() {
            if fixes.len() < 2 && d != attn_dp {
                fixes.push(ctx.fix_set(format!("Use {flag} {d}, a divisor of --tp-size {tp}"), dest, flag, &d.to_string(), Applicability::Unsafe));
            }
        }
        // A larger TP group that attn_dp divides, if the machine has the GPUs for it.
        let up = ((tp / attn_dp.max(1)) + 1) * attn_dp;
        if up <= i64::from(ctx.hw.gpu_count) * int(ctx, "nnodes", 1) {
            fixes.push(ctx.fix_set(format!("Use --tp-size {up}, a multiple of {attn_dp}"), "tp_size", "--tp-size", &up.to_string(), Applicability::Unsafe));
        }
    }
    fixes
}

/// `handle_context_parallelism`.
pub fn handle_context_parallelism(ctx: &mut Ctx) {
    validate_prefill_cp_platform(ctx);

    let prefill_cp = ctx.cfg.truthy("enable_prefill_cp");
    let attn_cp = int(ctx, "attn_cp_size", 1);
    let instance = ctx.cfg.str("model_path").map(is_instance_connector).unwrap_or(false);
    if !instance {
        // Model-dependent: _boundary_parallelism_overrides (Nemotron-H, LongCat-Flash), the
        // HIP / DeepSeek V3.2 / MiMo V2 prefill-CP checks and resolve_cp_tp_group_sharing.
        if attn_cp > 1 {
            ctx.skip("parallel_hook._boundary_parallelism_overrides#1", NotRunReason::ModelConfig);
        }
        if prefill_cp && attn_cp > 1 {
            ctx.skip("parallel_hook._boundary_parallelism_overrides#2", NotRunReason::ModelConfig);
            ctx.skip("cp_tp_group_sharing_hook.resolve_cp_tp_group_sharing#1", NotRunReason::ModelConfig);
        }
        if prefill_cp {
            if ctx.hw.is_hip() {
                ctx.skip("parallel_hook.handle_context_parallelism#1", NotRunReason::ModelConfig);
            }
            if ctx.cfg.is("cp_strategy", "zigzag") {
                ctx.skip("parallel_hook.handle_context_parallelism#2", NotRunReason::ModelConfig);
            }
            ctx.skip("parallel_hook.handle_context_parallelism#3", NotRunReason::ModelConfig);
            // MiMo V2 (multimodal) with zigzag CP must serve text only
            if ctx.cfg.is("cp_strategy", "zigzag") && !ctx.cfg.truthy("language_only") && !ctx.cfg.truthy("language_model_only") {
                ctx.skip("parallel_hook.handle_context_parallelism#4", NotRunReason::ModelConfig);
            }
        }
    }

    if prefill_cp && ctx.cfg.is_none("cp_strategy") {
        let fixes = vec![
            ctx.fix_set("Split the sequence zigzag", "cp_strategy", "--cp-strategy", "zigzag", Applicability::Unsafe),
            ctx.fix_set("Split the sequence interleaved", "cp_strategy", "--cp-strategy", "interleave", Applicability::Unsafe),
        ];
        return ctx.raise(&CP_STRATEGY_REQUIRED, CP_STRATEGY_REQUIRED.template.to_string(), &["enable_prefill_cp"], fixes);
    }

    let tp = int(ctx, "tp_size", 1);
    let attn_dp = int(ctx, "attn_dp_size", 1);
    let aiter = ctx.cfg.truthy("enable_aiter_allreduce_fusion");
    if attn_cp > 1 {
        if py_mod(tp, attn_cp) != Some(0) {
            return ctx.raise(&TP_DIV_ATTN_CP, TP_DIV_ATTN_CP.template.to_string(), &["attn_cp_size", "tp_size"], vec![]);
        }
        if py_mod(tp, attn_dp * attn_cp) != Some(0) {
            return ctx.raise(&TP_DIV_ATTN_DP_CP, TP_DIV_ATTN_DP_CP.template.to_string(), &["attn_dp_size", "attn_cp_size", "tp_size"], vec![]);
        }
        if aiter {
            let fixes = vec![ctx.fix_remove("Drop --enable-aiter-allreduce-fusion", "enable_aiter_allreduce_fusion", Applicability::Safe)];
            return ctx.raise(&AITER_FUSION_CP, AITER_FUSION_CP.template.to_string(), &["enable_aiter_allreduce_fusion"], fixes);
        }
    }
    let moe_dp = int(ctx, "moe_dp_size", 1);
    let ep = int(ctx, "ep_size", 1);
    if moe_dp > 1 {
        if py_mod(tp, moe_dp) != Some(0) {
            return ctx.raise(&TP_DIV_MOE_DP, TP_DIV_MOE_DP.template.to_string(), &["moe_dp_size", "tp_size"], vec![]);
        }
        if ep * moe_dp > tp {
            return ctx.raise(&EP_MOE_DP_LE_TP, EP_MOE_DP_LE_TP.template.to_string(), &["ep_size", "moe_dp_size", "tp_size"], vec![]);
        }
        if int(ctx, "pp_size", 1) != 1 {
            let fixes = vec![ctx.fix_remove("Drop --pp-size", "pp_size", Applicability::Unsafe)];
            return ctx.raise(&PP_WITH_MOE_DP, PP_WITH_MOE_DP.template.to_string(), &["pp_size", "moe_dp_size"], fixes);
        }
        if ep > 1 && ep * moe_dp != tp {
            if let Some(q) = py_floordiv(tp, moe_dp) {
                let fixes = vec![ctx.fix_set(format!("Use --ep-size {q}"), "ep_size", "--ep-size", &q.to_string(), Applicability::Unsafe)];
                return ctx.raise(&EP_MOE_DP_EQ_TP, EP_MOE_DP_EQ_TP.template.to_string(), &["ep_size", "moe_dp_size", "tp_size"], fixes);
            }
        }
        if aiter {
            // parallel_hook.handle_context_parallelism#13: moe_dp_size > 1 implies attn_cp_size
            // == moe_dp_size > 1 (#14 below), so #8 above already fired.
            return ctx.raise(&AITER_FUSION_CP, AITER_FUSION_CP.template.to_string(), &["enable_aiter_allreduce_fusion"], vec![]);
        }
    }
    if attn_cp != moe_dp && moe_dp != 1 {
        let fixes = vec![ctx.fix_set(
            format!("Use --attn-cp-size {moe_dp}"),
            "attn_cp_size",
            "--attn-cp-size",
            &moe_dp.to_string(),
            Applicability::Unsafe,
        )];
        ctx.raise(&ATTN_CP_NE_MOE_DP, ATTN_CP_NE_MOE_DP.template.to_string(), &["moe_dp_size", "attn_cp_size"], fixes);
    }
    // init_cp_strategy: cp_strategy is limited by argparse choices, nothing else can fail.
}

/// `parse_connector_type(model_path) == ConnectorType.INSTANCE` (`instance://...`).
fn is_instance_connector(path: &str) -> bool {
    // re.match(r"(.+)://(.*)"): greedy, so the scheme is everything before the last "://".
    path.rfind("://").map(|i| path.get(..i) == Some("instance")).unwrap_or(false)
}

/// `handle_shared_experts_tp`.
pub fn handle_shared_experts_tp(ctx: &mut Ctx) {
    let Some(size) = ctx.cfg.int("shared_experts_tp_size") else { return };
    let tp = int(ctx, "tp_size", 1);
    let attn_tp = py_floordiv(tp, int(ctx, "attn_dp_size", 1))
        .and_then(|v| py_floordiv(v, int(ctx, "attn_cp_size", 1)))
        .unwrap_or(0);
    if size < 1 || py_mod(attn_tp, size) != Some(0) {
        let mut fixes = Vec::new();
        if attn_tp > 0 {
            if let Some(d) = (1..=size.clamp(1, attn_tp)).rev().find(|d| attn_tp % d == 0) {
                fixes.push(ctx.fix_set(
                    format!("Use --shared-experts-tp-size {d}"),
                    "shared_experts_tp_size",
                    "--shared-experts-tp-size",
                    &d.to_string(),
                    Applicability::Unsafe,
                ));
            }
        }
        let msg = format!("--shared-experts-tp-size ({size}) must be a positive divisor of attention TP size ({attn_tp}).");
        return ctx.raise(&SHARED_EXPERTS_TP_DIVISOR, msg, &["shared_experts_tp_size"], fixes);
    }
    // #2 (instance:// model path) is rejected earlier by the model-path hooks for every
    // instance path we could build; #3 and #4 need the model's architecture (Kimi-K3 only).
    ctx.skip("parallel_hook.handle_shared_experts_tp#2", NotRunReason::NotImplemented);
    ctx.skip("parallel_hook.handle_shared_experts_tp#3", NotRunReason::ModelConfig);
    ctx.skip("parallel_hook.handle_shared_experts_tp#4", NotRunReason::ModelConfig);
}

/// `handle_eplb_and_dispatch`.
pub fn handle_eplb_and_dispatch(ctx: &mut Ctx) {
    let eplb = ctx.cfg.truthy("enable_eplb");
    if eplb && ctx.cfg.is_none("expert_distribution_recorder_mode") {
        ctx.cfg.set("expert_distribution_recorder_mode", PyValue::Str("stat".into()));
        ctx.warn(&EPLB_RECORDER_WARNING, EPLB_RECORDER_WARNING.template.to_string(), &["enable_eplb"], vec![]);
    }
    let needs_rank_invariant = moe_a2a_backend_after_a2a_hook(ctx) == "none";
    if (eplb || !ctx.cfg.is("init_expert_location", "trivial")) && ctx.cfg.is_none("ep_dispatch_algorithm") {
        let algo = if needs_rank_invariant { "dynamic" } else { "static" };
        ctx.cfg.set("ep_dispatch_algorithm", PyValue::Str(algo.into()));
    }
    let algo = ctx.cfg.str("ep_dispatch_algorithm").unwrap_or("").to_string();
    if needs_rank_invariant && (algo == "static" || algo == "lp") {
        let fixes = vec![ctx.fix_set(
            "Use --ep-dispatch-algorithm dynamic",
            "ep_dispatch_algorithm",
            "--ep-dispatch-algorithm",
            "dynamic",
            Applicability::Safe,
        )];
        let msg = format!(
            "--ep-dispatch-algorithm {algo} picks a different physical replica per rank, which only holds up when an a2a backend routes each token to a single rank. Use --ep-dispatch-algorithm dynamic with --moe-a2a-backend none."
        );
        return ctx.raise(&EP_DISPATCH_NEEDS_A2A, msg, &["ep_dispatch_algorithm"], fixes);
    }
    if eplb && !ctx.cfg.is("ep_join_mode", "scale") && ep_size_after_a2a_hook(ctx) <= 1 {
        let tp = int(ctx, "tp_size", 1);
        let mut fixes = Vec::new();
        if tp > 1 {
            fixes.push(ctx.fix_set(format!("Use --ep-size {tp}"), "ep_size", "--ep-size", &tp.to_string(), Applicability::Unsafe));
        }
        fixes.push(ctx.fix_remove("Drop --enable-eplb", "enable_eplb", Applicability::Unsafe));
        ctx.raise(&EPLB_NEEDS_EP, String::new(), &["enable_eplb", "ep_size"], fixes);
    }
}

/// `handle_expert_distribution_metrics`.
pub fn handle_expert_distribution_metrics(ctx: &mut Ctx) {
    // overrides.should_report_expert_balancedness
    if !ctx.cfg.is("expert_balancedness_report_mode", "off") && ctx.cfg.is_none("expert_distribution_recorder_mode") {
        ctx.cfg.set("expert_distribution_recorder_mode", PyValue::Str("stat".into()));
    }
    if ctx.cfg.is_none("expert_distribution_recorder_buffer_size") {
        let x = ctx.cfg.get("eplb_rebalance_num_iterations").clone();
        if !x.is_none() {
            ctx.cfg.set("expert_distribution_recorder_buffer_size", x);
        } else if !ctx.cfg.is_none("expert_distribution_recorder_mode") {
            ctx.cfg.set("expert_distribution_recorder_buffer_size", PyValue::Int(1000));
        }
    }
}

/// `load_balance_method` after `serving_hook.handle_load_balance_method`, which resolves
/// "auto" (follow_bootstrap_room on a PD prefill server, round_robin otherwise).
fn load_balance_method(ctx: &Ctx) -> String {
    match ctx.cfg.str("load_balance_method") {
        Some("auto") | None => {
            if ctx.cfg.is("disaggregation_mode", "prefill") { "follow_bootstrap_room" } else { "round_robin" }.into()
        }
        Some(s) => s.to_string(),
    }
}

/// `handle_elastic_ep`.
pub fn handle_elastic_ep(ctx: &mut Ctx) {
    let backend_set = !ctx.cfg.is_none("elastic_ep_backend");
    let tp = int(ctx, "tp_size", 1);
    if backend_set {
        if ctx.cfg.truthy("enable_eplb") {
            if ctx.cfg.is("eplb_algorithm", "auto") {
                ctx.cfg.set("eplb_algorithm", PyValue::Str("elasticity_aware".into()));
            }
            let alg = ctx.cfg.str("eplb_algorithm").unwrap_or("");
            if alg != "elasticity_aware" && alg != "elasticity_aware_hierarchical" {
                let fixes = vec![ctx.fix_remove("Let SGLang pick elasticity_aware", "eplb_algorithm", Applicability::Safe)];
                return ctx.raise(&EEP_EPLB_ALGORITHM, EEP_EPLB_ALGORITHM.template.to_string(), &["eplb_algorithm"], fixes);
            }
        }
        if int(ctx, "pp_size", 1) != 1 {
            let fixes = vec![ctx.fix_remove("Drop --pp-size", "pp_size", Applicability::Unsafe)];
            return ctx.raise(&EEP_PP, EEP_PP.template.to_string(), &["pp_size", "elastic_ep_backend"], fixes);
        }
        if ctx.cfg.is("elastic_ep_backend", "mooncake") {
            let dev = ctx.cfg.str("mooncake_ib_device").map(str::to_string);
            match super::pd_disaggregation::validate_ib_devices(ctx, dev.as_deref(), "mooncake_ib_device") {
                Some(v) => ctx.cfg.set("mooncake_ib_device", v),
                None => return,
            }
        }
    }
    let join_mode = ctx.cfg.str("ep_join_mode").map(str::to_string);
    let offset = int(ctx, "ep_join_rank_offset", 0);
    if let Some(mode) = &join_mode {
        if !backend_set {
            let fixes = vec![ctx.fix_set("Name the elastic backend", "elastic_ep_backend", "--elastic-ep-backend", "mooncake", Applicability::Unsafe)];
            return ctx.raise(&EEP_JOIN_NEEDS_BACKEND, EEP_JOIN_NEEDS_BACKEND.template.to_string(), &["ep_join_mode"], fixes);
        }
        if mode == "scale" {
            let node_rank = int(ctx, "node_rank", 0);
            if node_rank != 1 {
                let fixes = vec![ctx.fix_set("Launch the joiner as --node-rank 1", "node_rank", "--node-rank", "1", Applicability::Unsafe)];
                let msg = format!("Elastic EP scale-up requires one joining TP group at --node-rank 1 (got {node_rank}).");
                return ctx.raise(&EEP_SCALE_NODE_RANK, msg, &["node_rank", "ep_join_mode"], fixes);
            }
            if offset <= 0 {
                return ctx.raise(&EEP_SCALE_OFFSET, EEP_SCALE_OFFSET.template.to_string(), &["ep_join_rank_offset", "ep_join_mode"], vec![]);
            }
        }
    }
    // parallel_hook.handle_elastic_ep#7 (offset >= 0) is unreachable: a negative offset fails
    // #5 or #6 first.
    if offset != 0 && join_mode.as_deref() != Some("scale") {
        let fixes = vec![ctx.fix_remove("Drop --elastic-ep-join-rank-offset", "ep_join_rank_offset", Applicability::Safe)];
        return ctx.raise(&EEP_OFFSET_ONLY_SCALE, EEP_OFFSET_ONLY_SCALE.template.to_string(), &["ep_join_rank_offset"], fixes);
    }
    let max_ep = ctx.cfg.int("max_ep_size");
    if let Some(max_ep) = max_ep {
        if !backend_set {
            let fixes = vec![ctx.fix_remove("Drop --max-ep-size", "max_ep_size", Applicability::Unsafe)];
            return ctx.raise(&EEP_MAX_NEEDS_BACKEND, EEP_MAX_NEEDS_BACKEND.template.to_string(), &["max_ep_size"], fixes);
        }
        if max_ep <= 0 {
            return ctx.raise(&EEP_MAX_POSITIVE, EEP_MAX_POSITIVE.template.to_string(), &["max_ep_size"], vec![]);
        }
    }
    let scaling = backend_set && max_ep.is_some_and(|m| m > tp);
    let initial = ctx.cfg.int("elastic_ep_initial_size");
    if initial.is_some() && !scaling {
        let fixes = vec![ctx.fix_remove("Drop --elastic-ep-initial-size", "elastic_ep_initial_size", Applicability::Unsafe)];
        return ctx.raise(&EEP_INITIAL_NEEDS_SCALING, EEP_INITIAL_NEEDS_SCALING.template.to_string(), &["elastic_ep_initial_size"], fixes);
    }
    if !scaling {
        return;
    }
    let max_ep = max_ep.unwrap_or(0);
    let attn_dp = int(ctx, "attn_dp_size", 1);
    let attn_cp = int(ctx, "attn_cp_size", 1);
    if tp <= 0 || attn_dp <= 0 || attn_cp <= 0 || py_mod(tp, attn_dp * attn_cp) != Some(0) {
        let msg = format!("Invalid attention topology: tp_size={tp}, attn_dp_size={attn_dp}, attn_cp_size={attn_cp}.");
        return ctx.raise(&EEP_TOPOLOGY, msg, &["tp_size", "attn_dp_size", "attn_cp_size"], vec![]);
    }
    let attn_tp = tp / attn_dp / attn_cp;
    let replica = attn_tp * attn_cp;
    let mut sizes = vec![(max_ep, "max_ep_size"), (initial.filter(|&i| i != 0).unwrap_or(tp), "elastic_ep_initial_size")];
    if join_mode.as_deref() == Some("scale") {
        sizes.push((offset, "ep_join_rank_offset"));
    }
    for (size, dest) in sizes {
        if size <= 0 || replica <= 0 || size % replica != 0 {
            let msg = format!("EP size {size} must be divisible by attention replica size {replica}.");
            return ctx.raise(&EEP_REPLICA_DIVISIBLE, msg, &[dest, "max_ep_size"], vec![]);
        }
    }
    let dense = ctx.cfg.get("moe_dense_tp_size").clone();
    if attn_tp > 1 && dense.as_int() != Some(1) {
        let fixes = vec![ctx.fix_set("Set --moe-dense-tp-size 1", "moe_dense_tp_size", "--moe-dense-tp-size", "1", Applicability::Safe)];
        let msg = format!(
            "Elastic EP scale-up with attention TP greater than one requires --moe-dense-tp-size 1 (got moe_dense_tp_size={}).",
            dense.py_str()
        );
        return ctx.raise(&EEP_MOE_DENSE_TP, msg, &["moe_dense_tp_size", "max_ep_size"], fixes);
    }
    if ctx.cfg.float("elastic_ep_scale_timeout").is_some_and(|t| t <= 0.0) {
        return ctx.raise(&EEP_TIMEOUT, EEP_TIMEOUT.template.to_string(), &["elastic_ep_scale_timeout"], vec![]);
    }
    if int(ctx, "tokenizer_worker_num", 1) != 1 {
        let fixes = vec![ctx.fix_remove("Drop --tokenizer-worker-num", "tokenizer_worker_num", Applicability::Unsafe)];
        return ctx.raise(&EEP_TOKENIZER_WORKERS, EEP_TOKENIZER_WORKERS.template.to_string(), &["tokenizer_worker_num"], fixes);
    }
    if ctx.cfg.truthy("use_ray") {
        return ctx.raise(&EEP_RAY, EEP_RAY.template.to_string(), &["use_ray"], vec![]);
    }
    if ctx.cfg.truthy("enable_elastic_expert_backup") {
        return ctx.raise(&EEP_BACKUP, EEP_BACKUP.template.to_string(), &["enable_elastic_expert_backup"], vec![]);
    }
    ctx.cfg.set("enable_dp_attention_local_control_broadcast", PyValue::Bool(true));
    if join_mode.as_deref() == Some("scale") {
        let Some(init) = initial else {
            return ctx.raise(&EEP_JOINER_INITIAL, EEP_JOINER_INITIAL.template.to_string(), &["ep_join_mode"], vec![]);
        };
        if init > offset {
            let msg = format!(
                "--elastic-ep-initial-size cannot exceed the current EP size (initial={init}, current={offset})."
            );
            return ctx.raise(&EEP_INITIAL_LE_OFFSET, msg, &["elastic_ep_initial_size", "ep_join_rank_offset"], vec![]);
        }
        let join_target = offset + tp;
        if join_target > max_ep {
            let msg = format!("Elastic EP joining group exceeds --max-ep-size (join_target={join_target}, max_ep_size={max_ep}).");
            return ctx.raise(&EEP_JOIN_TARGET, msg, &["max_ep_size", "ep_join_rank_offset"], vec![]);
        }
        if tp == 1 && dense.as_int() != Some(1) {
            return ctx.raise(&EEP_SINGLE_RANK_DENSE, EEP_SINGLE_RANK_DENSE.template.to_string(), &["moe_dense_tp_size"], vec![]);
        }
    } else {
        if initial.is_none() {
            ctx.cfg.set("elastic_ep_initial_size", PyValue::Int(tp));
        }
        let init = ctx.cfg.int("elastic_ep_initial_size").unwrap_or(tp);
        if init != tp {
            let msg = format!("The primary --elastic-ep-initial-size must equal its launch-time TP size ({tp}).");
            return ctx.raise(&EEP_PRIMARY_INITIAL, msg, &["elastic_ep_initial_size", "tp_size"], vec![]);
        }
    }
    if ctx.cfg.int("elastic_ep_initial_size").is_some_and(|i| i <= 0) {
        return ctx.raise(&EEP_INITIAL_POSITIVE, String::new(), &["elastic_ep_initial_size"], vec![]);
    }
    let lbm = load_balance_method(ctx);
    if lbm != "round_robin" {
        let fixes = vec![ctx.fix_set("Use --load-balance-method round_robin", "load_balance_method", "--load-balance-method", "round_robin", Applicability::Safe)];
        let msg = format!(
            "Elastic EP scale-up requires --load-balance-method round_robin; load-aware methods require global-rank load snapshots after scale (got {lbm})."
        );
        return ctx.raise(&EEP_ROUND_ROBIN, msg, &["load_balance_method"], fixes);
    }
    if !ctx.cfg.is("elastic_ep_backend", "mooncake") {
        let msg = format!(
            "Elastic EP runtime scale-up requires --elastic-ep-backend mooncake (got elastic_ep_backend={}).",
            show(ctx, "elastic_ep_backend")
        );
        let fixes = vec![ctx.fix_set("Use the mooncake elastic backend", "elastic_ep_backend", "--elastic-ep-backend", "mooncake", Applicability::Unsafe)];
        return ctx.raise(&EEP_MOONCAKE, msg, &["elastic_ep_backend"], fixes);
    }
    // #26 (pp_size == 1) is unreachable: #2 above rejects pp_size != 1 for any elastic backend.
    let dcp = int(ctx, "dcp_size", 1);
    if py_mod(attn_tp, dcp) != Some(0) {
        let msg = format!(
            "Elastic EP scale-up requires --dcp-size to divide the fixed attention TP width (got dcp_size={dcp}, attn_tp_size={attn_tp})."
        );
        return ctx.raise(&EEP_DCP, msg, &["dcp_size"], vec![]);
    }
    // #28/#29 read the resolved cuda_graph_config (the cuda_graph family resolves it in
    // handle_cuda_graph_config, before this hook). The default prefill backend depends on the
    // model (multimodal, hybrid and DeepSeek-V4 models turn it off), so a prefill phase the
    // command does not set stops the check below.
    let all_off = ctx.cfg.truthy("disable_cuda_graph");
    let decode = match super::cuda_graph::phase_backend(ctx, "decode") {
        Some(b) => b,
        None if all_off || ctx.cfg.truthy("disable_decode_cuda_graph") => "disabled".to_string(),
        None => ctx.cfg.str("cuda_graph_backend_decode").unwrap_or("full").to_string(),
    };
    if decode != "full" && decode != "disabled" {
        let fixes = vec![ctx.fix_set(
            "Use the full decode CUDA graph",
            "cuda_graph_backend_decode",
            "--cuda-graph-backend-decode",
            "full",
            Applicability::Unsafe,
        )];
        let msg = format!("Elastic EP runtime scale-up supports decode CUDA graph backend 'full' or 'disabled' (got '{decode}').");
        return ctx.raise(&EEP_DECODE_GRAPH, msg, &["cuda_graph_backend_decode"], fixes);
    }
    let prefill_off = all_off
        || ctx.cfg.truthy("disable_prefill_cuda_graph")
        || ctx.cfg.is("cuda_graph_backend_prefill", "disabled")
        || super::cuda_graph::phase_backend(ctx, "prefill").as_deref() == Some("disabled");
    if !prefill_off {
        if ctx.cfg.is_none("cuda_graph_backend_prefill") {
            ctx.skip("parallel_hook.handle_elastic_ep#29", NotRunReason::ModelConfig);
            return;
        }
        let fixes = vec![ctx.fix_set(
            "Disable the prefill CUDA graph",
            "cuda_graph_backend_prefill",
            "--cuda-graph-backend-prefill",
            "disabled",
            Applicability::Safe,
        )];
        return ctx.raise(&EEP_PREFILL_GRAPH, EEP_PREFILL_GRAPH.template.to_string(), &["cuda_graph_backend_prefill"], fixes);
    }
    // platform_hook.handle_platform_defaults (not modelled) fills `device` from torch: CUDA and
    // ROCm builds are both "cuda". The XPU/NPU/HPU/MPS platform hooks rework the CUDA-graph
    // phases for their devices, so for those the decode backend here is not known.
    let device = match ctx.cfg.str("device") {
        Some(d) => Some(d.to_string()),
        None if ctx.hw.is_cuda() || ctx.hw.is_hip() => Some("cuda".to_string()),
        None => None,
    };
    let known_device = matches!(device.as_deref(), Some("cuda") | Some("cpu"));
    if decode == "full" && !known_device {
        ctx.skip("parallel_hook.handle_elastic_ep#30", NotRunReason::NotImplemented);
    }
    if decode == "full" && known_device {
        if let Some(d) = device.as_deref().filter(|d| *d != "cuda") {
            let fixes = vec![ctx.fix_set(
                "Disable the decode CUDA graph",
                "cuda_graph_backend_decode",
                "--cuda-graph-backend-decode",
                "disabled",
                Applicability::Unsafe,
            )];
            let msg = format!("Elastic EP CUDA graph recapture requires CUDA (got device={}).", str_repr(d));
            return ctx.raise(&EEP_GRAPH_CUDA, msg, &["device"], fixes);
        }
        let checks: [(&'static Rule, bool, &str); 6] = [
            (&EEP_GRAPH_SPEC, !ctx.cfg.is_none("speculative_algorithm"), "speculative_algorithm"),
            (&EEP_GRAPH_EMBEDDING, ctx.cfg.truthy("is_embedding"), "is_embedding"),
            (&EEP_GRAPH_DLLM, !ctx.cfg.is_none("dllm_algorithm"), "dllm_algorithm"),
            (&EEP_GRAPH_ENCODER, ctx.cfg.truthy("encoder_only"), "encoder_only"),
            (&EEP_GRAPH_HOOKS, ctx.cfg.truthy("forward_hooks"), "forward_hooks"),
            (&EEP_GRAPH_PDMUX, ctx.cfg.truthy("enable_pdmux"), "enable_pdmux"),
        ];
        for (rule, failed, dest) in checks {
            if failed {
                let fixes = vec![ctx.fix_set(
                    "Disable the decode CUDA graph",
                    "cuda_graph_backend_decode",
                    "--cuda-graph-backend-decode",
                    "disabled",
                    Applicability::Unsafe,
                )];
                return ctx.raise(rule, rule.template.to_string(), &[dest], fixes);
            }
        }
    }
    if !attn_dp_enabled(ctx) {
        let fixes = vec![ctx.fix_set(
            format!("Use pure attention DP (--attn-dp-size {tp})"),
            "attn_dp_size",
            "--attn-dp-size",
            &tp.to_string(),
            Applicability::Unsafe,
        )];
        return ctx.raise(&EEP_ATTN_DP, EEP_ATTN_DP.template.to_string(), &["attn_dp_size"], fixes);
    }
    if !ctx.cfg.truthy("enable_dp_lm_head") {
        let fixes = vec![ctx.fix_add_flag("Add --enable-dp-lm-head", "--enable-dp-lm-head", Applicability::Safe)];
        return ctx.raise(&EEP_DP_LM_HEAD, EEP_DP_LM_HEAD.template.to_string(), &["enable_dp_lm_head"], fixes);
    }
    if attn_cp != 1 {
        let msg = format!("Elastic EP scale-up requires --attn-cp-size 1 (got attn_cp_size={attn_cp}).");
        return ctx.raise(&EEP_ATTN_CP, msg, &["attn_cp_size"], vec![]);
    }
    // #40 (moe_dp_size == 1) is unreachable: moe_dp_size > 1 needs attn_cp_size == moe_dp_size.
    let ep = ep_size_after_a2a_hook(ctx);
    if ep != tp {
        let fixes = vec![ctx.fix_set(format!("Use --ep-size {tp}"), "ep_size", "--ep-size", &tp.to_string(), Applicability::Unsafe)];
        let msg = format!(
            "Elastic EP scale-up requires ep_size == tp_size (got ep_size={ep}, tp_size={tp}); physical EP membership must coincide with the launch-time TP span."
        );
        return ctx.raise(&EEP_EP_EQ_TP, msg, &["ep_size", "tp_size"], fixes);
    }
    let a2a = moe_a2a_backend_after_a2a_hook(ctx);
    if a2a != "nixl" {
        let fixes = vec![ctx.fix_set("Use the nixl MoE all-to-all backend", "moe_a2a_backend", "--moe-a2a-backend", "nixl", Applicability::Unsafe)];
        let msg = format!("Elastic EP scale-up requires --moe-a2a-backend nixl (got moe_a2a_backend={a2a}).");
        ctx.raise(&EEP_NIXL, msg, &["moe_a2a_backend"], fixes);
    }
}
