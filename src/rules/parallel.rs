//! Rules from SGLang's `sglang/srt/arg_groups/parallel_hook.py`: the DP / CP / DCP / DWDP / EP
//! layout and the values every later hook reads (`attn_dp_size`, `dp_size`, `ep_size`,
//! `dcp_comm_backend`, `chunked_prefill_size` under attention DP, `enable_dp_lm_head`, ...).
//!
//! Also the post-process passes these hooks run from `overrides.py`
//! (`_dcp_comm_backend_default`, `_data_parallelism_defaults`, `_tp_lm_head_all_to_all_default`,
//! `_dp_lm_head_validation`) and `elastic_ep/topology.py::physical_ep_size_to_dp_size`, which
//! only these hooks reach.

use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::{Applicability, Fix};
use crate::pyvalue::{str_repr, PyValue};
use crate::fields::{f, Field};
use crate::rules::{raises, site, warns, Args, Sglang, Step};
use super::shared::cuda_graph_config::phase_backend;
use super::shared::envs::env_bool;
use super::shared::ib_devices::validate_ib_devices;
use super::shared::overrides::A2A_EP_SPANNING_BACKENDS;
use super::shared::runtime_context::{attn_dp_enabled, legacy_dp_attention, num_dp_ranks};

// ---- handle_decode_context_parallelism -------------------------------------------------------

pub static DCP_SIZE_POSITIVE: Rule = Rule {
    code: "PAR001",
    name: kebab!("dcp-size-must-be-positive"),
    sglang: raises("parallel_hook.handle_decode_context_parallelism", "Decode context parallel size (--dcp-size"),
    explanation: expl!("The decode context-parallel width counts GPUs that split each request's KV cache during decode; it must be at least 1 (1 turns DCP off)."),
    flags: &["--dcp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dcp-size 0"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dcp-size 1"),
};
pub static DCP_NO_PREFILL_CP: Rule = Rule {
    code: "PAR002",
    name: kebab!("dcp-excludes-prefill-cp"),
    sglang: raises("parallel_hook.handle_decode_context_parallelism", "--dcp-size > 1 does not support --enable-prefill-cp."),
    explanation: expl!("Decode context parallelism and prefill context parallelism shard the sequence in incompatible ways; SGLang allows only one of them per server."),
    flags: &["--dcp-size", "--enable-prefill-cp"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --enable-prefill-cp"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2"),
};
pub static DCP_COMM_NEEDS_DCP: Rule = Rule {
    code: "PAR003",
    name: kebab!("dcp-comm-backend-needs-dcp"),
    sglang: raises("parallel_hook.handle_decode_context_parallelism", "--dcp-comm-backend {cfg.dcp_comm_backend}"),
    explanation: expl!("The all-to-all DCP communication backends only exist for decode context parallelism; without --dcp-size > 1 there is nothing for them to reduce."),
    flags: &["--dcp-comm-backend", "--dcp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dcp-comm-backend a2a"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --dcp-comm-backend a2a"),
};
pub static DCP_FI_A2A_NEEDS_CUDA: Rule = Rule {
    code: "PAR004",
    name: kebab!("dcp-fi-a2a-needs-cuda"),
    sglang: raises("parallel_hook.handle_decode_context_parallelism", "--dcp-comm-backend fi_a2a delegates the exchange"),
    explanation: expl!("The fi_a2a DCP backend is a FlashInfer CUDA kernel; on a non-CUDA platform (ROCm, CPU) SGLang rejects it at start-up."),
    flags: &["--dcp-comm-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --dcp-comm-backend fi_a2a"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --dcp-comm-backend a2a"),
};
pub static DCP_REPLICATE_Q_NEEDS_DCP: Rule = Rule {
    code: "PAR005",
    name: kebab!("dcp-replicate-q-proj-needs-dcp"),
    sglang: raises("parallel_hook.handle_decode_context_parallelism", "--dcp-replicate-q-proj requires --dcp-size"),
    explanation: expl!("Replicating the Q projection only removes a decode-context-parallel all-gather, so it needs --dcp-size > 1."),
    flags: &["--dcp-replicate-q-proj", "--dcp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dcp-replicate-q-proj"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};
pub static DCP_REPLICATE_Q_NEEDS_A2A: Rule = Rule {
    code: "PAR006",
    name: kebab!("dcp-replicate-q-proj-needs-a2a"),
    sglang: raises("parallel_hook.handle_decode_context_parallelism", "--dcp-replicate-q-proj only applies to the"),
    explanation: expl!("With the ag_rs DCP backend there is no head-dim Q all-gather to remove, so --dcp-replicate-q-proj is rejected."),
    flags: &["--dcp-replicate-q-proj", "--dcp-comm-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --dcp-comm-backend ag_rs --dcp-replicate-q-proj"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --dcp-comm-backend a2a --dcp-replicate-q-proj"),
};

// ---- handle_dwdp -------------------------------------------------------------------------------

pub static DWDP_EQUALS_TP: Rule = Rule {
    code: "PAR010",
    name: kebab!("dwdp-size-equals-tp"),
    // named up to its first placeholder: 0.5.18 reads `self.dwdp_size`
    sglang: raises("parallel_hook.handle_dwdp", "dwdp_size ("),
    explanation: expl!("Distributed weight data parallelism spreads the experts over every rank of the TP group, so --dwdp-size must be the same as --tp-size."),
    flags: &["--dwdp-size", "--tp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --dwdp-size 2"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --dwdp-size 4"),
};
pub static DWDP_DISAGG_MODE: Rule = Rule {
    code: "PAR011",
    name: kebab!("dwdp-not-on-decode"),
    sglang: raises("parallel_hook.handle_dwdp", "DWDP requires --disaggregation-mode null"),
    explanation: expl!("DWDP re-fetches remote expert weights each step, which SGLang only supports on colocated or prefill servers, not PD decode servers."),
    flags: &["--dwdp-size", "--disaggregation-mode"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --disaggregation-mode decode"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --disaggregation-mode prefill"),
};
pub static DWDP_NO_EPLB: Rule = Rule {
    code: "PAR012",
    name: kebab!("dwdp-excludes-eplb"),
    sglang: raises("parallel_hook.handle_dwdp", "EPLB dynamic migration conflicts with static"),
    explanation: expl!("DWDP fixes which rank holds which experts; EPLB moves experts around at run time, so the two cannot be combined."),
    flags: &["--dwdp-size", "--enable-eplb"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --enable-eplb"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2"),
};
pub static DWDP_NO_SPEC: Rule = Rule {
    code: "PAR013",
    name: kebab!("dwdp-excludes-speculative"),
    sglang: raises("parallel_hook.handle_dwdp", "DWDP does not support speculative decoding"),
    explanation: expl!("Draft workers are not wired into DWDP's expert prefetching, so any --speculative-algorithm is rejected with --dwdp-size > 1."),
    flags: &["--dwdp-size", "--speculative-algorithm"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --speculative-algorithm NGRAM"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2"),
};
pub static DWDP_NO_PP: Rule = Rule {
    code: "PAR014",
    name: kebab!("dwdp-excludes-pp"),
    sglang: raises("parallel_hook.handle_dwdp", "DWDP requires pp_size == 1"),
    explanation: expl!("DWDP is only implemented for a single pipeline stage."),
    flags: &["--dwdp-size", "--pp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --pp-size 2"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2"),
};
pub static DWDP_NO_TBO: Rule = Rule {
    code: "PAR015",
    name: kebab!("dwdp-excludes-two-batch-overlap"),
    sglang: raises("parallel_hook.handle_dwdp", "DWDP's prefetch event protocol does not support"),
    explanation: expl!("Two-batch overlap interleaves micro-batches in a way DWDP's weight-prefetch events do not handle."),
    flags: &["--dwdp-size", "--enable-two-batch-overlap"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --enable-two-batch-overlap"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2"),
};
pub static DWDP_NULL_MODE_WARNING: Rule = Rule {
    code: "PAR016",
    name: kebab!("dwdp-slow-without-pd"),
    sglang: warns("parallel_hook.handle_dwdp", "DWDP with --disaggregation-mode null: decode"),
    explanation: expl!("On a colocated server DWDP also runs decode steps, each of which fetches all remote expert weights again."),
    flags: &["--dwdp-size", "--disaggregation-mode"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --dwdp-size 2 --disaggregation-mode prefill"),
};

// ---- handle_data_parallelism -------------------------------------------------------------------

pub static ATTN_DP_POSITIVE: Rule = Rule {
    code: "PAR020",
    name: kebab!("attn-dp-size-must-be-positive"),
    sglang: raises("parallel_hook.handle_data_parallelism", "--attn-dp-size must be positive (got {cfg.attn_dp_size})."),
    explanation: expl!("The attention data-parallel width is a count of groups; it must be at least 1."),
    flags: &["--attn-dp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attn-dp-size 0"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attn-dp-size 1"),
};
pub static DP_WITH_ATTN_DP: Rule = Rule {
    code: "PAR021",
    name: kebab!("dp-replicas-exclude-attn-dp"),
    sglang: raises("parallel_hook.handle_data_parallelism", "--dp-size {cfg.dp_size} with --attn-dp-size"),
    explanation: expl!("--dp-size now counts independent server replicas and --attn-dp-size counts attention-DP groups inside one TP group; SGLang does not support both at once."),
    flags: &["--dp-size", "--attn-dp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --dp-size 2 --attn-dp-size 2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 2"),
};
pub static TP_DIVISIBLE_BY_ATTN_DP: Rule = Rule {
    code: "PAR022",
    name: kebab!("tp-divisible-by-attn-dp"),
    sglang: raises("parallel_hook.handle_data_parallelism", ""),
    explanation: expl!("With attention DP the TP group is split into --attn-dp-size equal groups, so --tp-size must be a multiple of it. SGLang fails with a bare assertion (empty message)."),
    flags: &["--tp-size", "--attn-dp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8 --attn-dp-size 3"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8 --attn-dp-size 4"),
};
pub static MM_DP_ENCODER_TP1_WARNING: Rule = Rule {
    code: "PAR023",
    name: kebab!("mm-dp-encoder-with-tp1"),
    sglang: warns("parallel_hook.handle_data_parallelism", "--mm-enable-dp-encoder is enabled with TP=1,"),
    explanation: expl!("The data-parallel vision encoder spreads image work over the TP ranks; with one rank it only adds overhead."),
    flags: &["--mm-enable-dp-encoder", "--tp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mm-enable-dp-encoder"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};
pub static DP_CHUNKED_PREFILL_WARNING: Rule = Rule {
    code: "PAR024",
    name: kebab!("attn-dp-divides-chunked-prefill"),
    sglang: warns("parallel_hook.handle_data_parallelism", "DP attention is enabled. chunked prefill"),
    explanation: expl!("Under attention DP each attention-DP group prefills its own share, so SGLang divides --chunked-prefill-size by --attn-dp-size."),
    flags: &["--attn-dp-size", "--chunked-prefill-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8 --attn-dp-size 8"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8"),
};
pub static DP_LM_HEAD_NEEDS_ATTN_DP: Rule = Rule {
    code: "PAR025",
    name: kebab!("dp-lm-head-needs-attn-dp"),
    sglang: raises("overrides._dp_lm_head_validation", "--enable-dp-lm-head requires attention DP"),
    explanation: expl!("A data-parallel LM head only exists under attention DP. SGLang silently drops it when there is a single DP rank, but rejects it with DP replicas (--dp-size) and no attention DP."),
    flags: &["--enable-dp-lm-head", "--attn-dp-size", "--dp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dp-size 2 --enable-dp-lm-head"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head"),
};
pub static TP_LM_HEAD_NEEDS_ATTN_DP: Rule = Rule {
    code: "PAR026",
    name: kebab!("tp-lm-head-all-to-all-needs-attn-dp"),
    sglang: raises("overrides._dp_lm_head_validation", "--enable-tp-lm-head-all-to-all requires attention"),
    explanation: expl!("The TP LM-head all-to-all redistributes logits between attention-DP groups, so it needs --attn-dp-size > 1."),
    flags: &["--enable-tp-lm-head-all-to-all", "--attn-dp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-tp-lm-head-all-to-all"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-tp-lm-head-all-to-all"),
};
pub static TP_LM_HEAD_NO_DP_LM_HEAD: Rule = Rule {
    code: "PAR027",
    name: kebab!("tp-lm-head-all-to-all-excludes-dp-lm-head"),
    sglang: raises("overrides._dp_lm_head_validation", "--enable-tp-lm-head-all-to-all uses a TP-sharded"),
    explanation: expl!("One flag shards the LM head over TP, the other replicates it per DP group; only one layout can be loaded."),
    flags: &["--enable-tp-lm-head-all-to-all", "--enable-dp-lm-head"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-dp-lm-head --enable-tp-lm-head-all-to-all"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-dp-size 2 --enable-tp-lm-head-all-to-all"),
};
pub static TP_LM_HEAD_TP_EQ_ATTN_DP: Rule = Rule {
    code: "PAR028",
    name: kebab!("tp-lm-head-all-to-all-needs-pure-dp"),
    sglang: raises("overrides._dp_lm_head_validation", "--enable-tp-lm-head-all-to-all currently requires tp_size == attn_dp_size"),
    explanation: expl!("The TP LM-head all-to-all is only implemented for pure attention DP, where every TP rank is its own attention-DP group."),
    flags: &["--enable-tp-lm-head-all-to-all", "--tp-size", "--attn-dp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 2 --enable-tp-lm-head-all-to-all"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 4 --enable-tp-lm-head-all-to-all"),
};
pub static TP_LM_HEAD_NO_CP: Rule = Rule {
    code: "PAR029",
    name: kebab!("tp-lm-head-all-to-all-excludes-attn-cp"),
    sglang: raises("overrides._dp_lm_head_validation", "--enable-tp-lm-head-all-to-all currently requires attn_cp_size"),
    explanation: expl!("The TP LM-head all-to-all is not implemented together with attention context parallelism."),
    flags: &["--enable-tp-lm-head-all-to-all", "--attn-cp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 4 --attn-cp-size 2 --enable-tp-lm-head-all-to-all"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 4 --enable-tp-lm-head-all-to-all"),
};
// 0.5.18's texts of the same checks: attention DP is --enable-dp-attention over --dp-size groups.
pub static DP_LM_HEAD_NEEDS_DP_ATTENTION: Rule = Rule {
    code: "PAR101",
    name: kebab!("dp-lm-head-needs-dp-attention"),
    sglang: raises("overrides._dp_lm_head_validation", "Please enable dp attention when setting enable_dp_lm_head."),
    explanation: expl!("A data-parallel LM head only exists under DP attention. SGLang silently drops it when --dp-size is 1, but rejects it with --dp-size above 1 and no --enable-dp-attention."),
    flags: &["--enable-dp-lm-head", "--enable-dp-attention", "--dp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static TP_LM_HEAD_NEEDS_DP_ATTENTION: Rule = Rule {
    code: "PAR102",
    name: kebab!("tp-lm-head-all-to-all-needs-dp-attention"),
    sglang: raises("overrides._dp_lm_head_validation", "Please enable dp attention when setting enable_tp_lm_head_all_to_all."),
    explanation: expl!("The TP LM-head all-to-all redistributes logits between DP-attention groups, so it needs --enable-dp-attention with --dp-size above 1."),
    flags: &["--enable-tp-lm-head-all-to-all", "--enable-dp-attention"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static TP_LM_HEAD_TP_EQ_DP: Rule = Rule {
    code: "PAR103",
    name: kebab!("tp-lm-head-all-to-all-needs-dp-equal-tp"),
    sglang: raises("overrides._dp_lm_head_validation", "--enable-tp-lm-head-all-to-all currently requires tp_size == dp_size"),
    explanation: expl!("The TP LM-head all-to-all is only implemented for pure DP attention, where every TP rank is its own DP-attention group (--dp-size equal to --tp-size)."),
    flags: &["--enable-tp-lm-head-all-to-all", "--tp-size", "--dp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

pub static NCCL_GRAPH_REGISTER_WARNING: Rule = Rule {
    code: "PAR019",
    name: kebab!("nccl-graph-register-explicit"),
    sglang: warns("parallel_hook._disable_nccl_graph_buffer_registration", "NCCL_GRAPH_REGISTER={os.environ['NCCL_GRAPH_REGISTER']}"),
    explanation: expl!("SGLang turns NCCL graph buffer registration off for multi-rank CUDA graphs because replay can hang; an explicit NCCL_GRAPH_REGISTER keeps your value."),
    flags: &["--tp-size", "--disable-cuda-graph"],
    example_bad: ex!("NCCL_GRAPH_REGISTER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2"),
};

// ---- handle_context_parallelism ----------------------------------------------------------------

pub static CP_STRATEGY_REQUIRED: Rule = Rule {
    code: "PAR030",
    name: kebab!("prefill-cp-needs-cp-strategy"),
    sglang: raises("parallel_hook.handle_context_parallelism", "--cp-strategy must be set when --enable-prefill-cp"),
    explanation: expl!("Prefill context parallelism can split the sequence as zigzag or interleave; SGLang has no default and needs --cp-strategy."),
    flags: &["--enable-prefill-cp", "--cp-strategy"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-prefill-cp"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-prefill-cp --cp-strategy zigzag"),
};
pub static NEMOTRON_H_NO_ATTN_CP: Rule = Rule {
    code: "PAR091",
    name: kebab!("nemotron-h-no-attn-cp"),
    sglang: raises("parallel_hook._boundary_parallelism_overrides", "Nemotron-H does not support --attn-cp-size"),
    explanation: expl!("Nemotron-H models (hybrid Mamba / attention, model type nemotron_h) have no attention context parallelism in SGLang: --attn-cp-size must stay 1. Use tensor or data parallelism instead."),
    flags: &["--attn-cp-size"],
    example_bad: ex!("--model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --tp-size 4 --attn-cp-size 2"),
    example_good: ex!("--model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --tp-size 4"),
};
pub static LONGCAT_FLASH_NO_PREFILL_CP: Rule = Rule {
    code: "PAR114",
    name: kebab!("longcat-flash-no-prefill-cp"),
    sglang: raises("parallel_hook._boundary_parallelism_overrides", "LongCat-Flash does not support --enable-prefill-cp"),
    explanation: expl!("LongCat-Flash models (model type longcat_flash) have no prefill context parallelism in SGLang: with --enable-prefill-cp the attention CP size must stay 1, and as an MLA model LongCat-Flash gets --attn-cp-size set to --tp-size / attention-DP size by SGLang's MLA prefill-CP defaults, so prefill CP only passes with --attn-dp-size equal to --tp-size. Attention context parallelism without --enable-prefill-cp is accepted."),
    flags: &["--enable-prefill-cp", "--attn-cp-size"],
    example_bad: ex!("--model-path meituan-longcat/LongCat-Flash-Chat --tp-size 8 --attn-cp-size 2 --enable-prefill-cp --cp-strategy zigzag"),
    example_good: ex!("--model-path meituan-longcat/LongCat-Flash-Chat --tp-size 8 --attn-cp-size 2"),
};
pub static PREFILL_CP_HIP_V4_ONLY: Rule = Rule {
    code: "PAR093",
    name: kebab!("prefill-cp-on-hip-deepseek-v4-only"),
    sglang: raises("parallel_hook.handle_context_parallelism", "Prefill CP on HIP is only supported for DeepseekV4ForCausalLM,"),
    explanation: expl!("On AMD GPUs (ROCm) SGLang runs prefill context parallelism for DeepSeek V4 only; other models cannot use --enable-prefill-cp there."),
    flags: &["--enable-prefill-cp"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attn-cp-size 2 --enable-prefill-cp --cp-strategy zigzag"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8"),
};
pub static V32_PREFILL_CP_NO_ZIGZAG: Rule = Rule {
    code: "PAR094",
    name: kebab!("deepseek-v32-prefill-cp-interleave-only"),
    sglang: raises("parallel_hook.handle_context_parallelism", "DeepSeek V3.2 prefill CP does not support"),
    explanation: expl!("DeepSeek V3.2's sparse attention splits prefill across CP ranks interleaved only: use --cp-strategy interleave."),
    flags: &["--cp-strategy", "--enable-prefill-cp"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --attn-cp-size 2 --enable-prefill-cp --cp-strategy zigzag"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --attn-cp-size 2 --enable-prefill-cp --cp-strategy interleave"),
};
pub static MIMO_V2_PREFILL_CP_ZIGZAG_ONLY: Rule = Rule {
    code: "PAR095",
    name: kebab!("mimo-v2-prefill-cp-zigzag-only"),
    sglang: raises("parallel_hook.handle_context_parallelism", "MiMo V2 prefill CP only supports --cp-strategy"),
    explanation: expl!("MiMo V2's hybrid sliding-window attention splits prefill across context-parallel ranks with the zigzag layout only: give --cp-strategy zigzag (the default is not zigzag)."),
    flags: &["--cp-strategy", "--enable-prefill-cp"],
    example_bad: ex!("--model-path XiaomiMiMo/MiMo-V2-Flash --tp-size 8 --attn-cp-size 2 --enable-prefill-cp"),
    example_good: ex!("--model-path XiaomiMiMo/MiMo-V2-Flash --tp-size 8 --attn-cp-size 2 --enable-prefill-cp --cp-strategy zigzag"),
};
pub static TP_DIV_ATTN_CP: Rule = Rule {
    code: "PAR031",
    name: kebab!("tp-divisible-by-attn-cp"),
    sglang: raises("parallel_hook.handle_context_parallelism", "tp_size must be divisible by attn_cp_size"),
    explanation: expl!("With attention context parallelism --tp-size is the world size of the TP group, which is split into --attn-cp-size parts."),
    flags: &["--tp-size", "--attn-cp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-cp-size 3"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-cp-size 2"),
};
pub static TP_DIV_ATTN_DP_CP: Rule = Rule {
    code: "PAR032",
    name: kebab!("tp-divisible-by-attn-dp-times-cp"),
    sglang: raises("parallel_hook.handle_context_parallelism", "tp_size must be divisible by attn_dp_size"),
    explanation: expl!("The TP group is laid out as attention-DP groups times CP groups times attention TP, so --tp-size must be a multiple of --attn-dp-size x --attn-cp-size."),
    flags: &["--tp-size", "--attn-dp-size", "--attn-cp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 4 --attn-dp-size 4 --attn-cp-size 2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8 --attn-dp-size 4 --attn-cp-size 2"),
};
pub static AITER_FUSION_CP: Rule = Rule {
    code: "PAR033",
    name: kebab!("aiter-allreduce-fusion-excludes-cp"),
    sglang: raises("parallel_hook.handle_context_parallelism", "Aiter allreduce fusion is not supported with context parallelism"),
    explanation: expl!("The AMD aiter all-reduce fusion assumes the plain TP all-reduce, which context parallelism replaces."),
    flags: &["--enable-aiter-allreduce-fusion", "--attn-cp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-cp-size 2 --enable-aiter-allreduce-fusion"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-cp-size 2"),
};
pub static TP_DIV_MOE_DP: Rule = Rule {
    code: "PAR034",
    name: kebab!("tp-divisible-by-moe-dp"),
    sglang: raises("parallel_hook.handle_context_parallelism", "tp_size must be divisible by moe_dp_size"),
    explanation: expl!("MoE data parallelism splits the TP group into --moe-dp-size equal parts."),
    flags: &["--tp-size", "--moe-dp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --moe-dp-size 3"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --attn-cp-size 2 --moe-dp-size 2"),
};
pub static EP_MOE_DP_LE_TP: Rule = Rule {
    code: "PAR035",
    name: kebab!("ep-times-moe-dp-within-tp"),
    sglang: raises("parallel_hook.handle_context_parallelism", "ep_size * moe_dp_size must be less than or"),
    explanation: expl!("Expert parallelism and MoE data parallelism together partition the TP group, so their product cannot exceed --tp-size."),
    flags: &["--ep-size", "--moe-dp-size", "--tp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --attn-cp-size 2 --moe-dp-size 2 --ep-size 4"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --attn-cp-size 2 --moe-dp-size 2 --ep-size 2"),
};
pub static PP_WITH_MOE_DP: Rule = Rule {
    code: "PAR036",
    name: kebab!("moe-dp-excludes-pp"),
    sglang: raises("parallel_hook.handle_context_parallelism", "PP is not supported with context parallelism"),
    explanation: expl!("MoE data parallelism (used with context parallelism) is not implemented with pipeline parallelism."),
    flags: &["--moe-dp-size", "--pp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --attn-cp-size 2 --moe-dp-size 2 --pp-size 2"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --attn-cp-size 2 --moe-dp-size 2"),
};
pub static EP_MOE_DP_EQ_TP: Rule = Rule {
    code: "PAR037",
    name: kebab!("ep-times-moe-dp-equals-tp"),
    sglang: raises("parallel_hook.handle_context_parallelism", "ep_size * moe_dp_size must be equal to tp_size"),
    explanation: expl!("When expert parallelism is combined with MoE data parallelism, the two must exactly tile the TP group."),
    flags: &["--ep-size", "--moe-dp-size", "--tp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 8 --attn-cp-size 2 --moe-dp-size 2 --ep-size 2"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 8 --attn-cp-size 2 --moe-dp-size 2 --ep-size 4"),
};
pub static ATTN_CP_NE_MOE_DP: Rule = Rule {
    code: "PAR038",
    name: kebab!("moe-dp-must-match-attn-cp"),
    sglang: raises("parallel_hook.handle_context_parallelism", "attn_cp_size != moe_dp_size is only supported"),
    explanation: expl!("MoE data parallelism reuses the attention context-parallel groups, so --moe-dp-size must equal --attn-cp-size (or be 1)."),
    flags: &["--moe-dp-size", "--attn-cp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --moe-dp-size 2"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --attn-cp-size 2 --moe-dp-size 2"),
};

// ---- handle_shared_experts_tp ------------------------------------------------------------------

pub static SHARED_EXPERTS_TP_DIVISOR: Rule = Rule {
    code: "PAR040",
    name: kebab!("shared-experts-tp-divides-attn-tp"),
    sglang: raises("parallel_hook.handle_shared_experts_tp", "--shared-experts-tp-size ({size}) must be"),
    explanation: expl!("Shared experts are sharded inside the attention TP group (TP size / attention DP / attention CP), so their TP width must divide it."),
    flags: &["--shared-experts-tp-size", "--tp-size", "--attn-dp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --shared-experts-tp-size 3"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 4 --shared-experts-tp-size 2"),
};

pub static SHARED_EXPERTS_TP_KIMI_K3_ONLY: Rule = Rule {
    code: "PAR089",
    name: kebab!("shared-experts-tp-kimi-k3-only"),
    sglang: raises("parallel_hook.handle_shared_experts_tp", "--shared-experts-tp-size is only supported"),
    explanation: expl!("--shared-experts-tp-size shards the shared experts of Kimi-K3 (KimiK3ForConditionalGeneration) on their own TP width; no other model reads it, and SGLang refuses it for them. Leave it out."),
    flags: &["--shared-experts-tp-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --moe-a2a-backend deepep --shared-experts-tp-size 2"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --moe-a2a-backend deepep"),
};

pub static SHARED_EXPERTS_TP_NEEDS_A2A: Rule = Rule {
    code: "PAR090",
    name: kebab!("shared-experts-tp-needs-ep-a2a"),
    sglang: raises("parallel_hook.handle_shared_experts_tp", "--shared-experts-tp-size requires an expert-parallel"),
    explanation: expl!("Kimi-K3's separate shared-experts TP width works with an expert-parallel all-to-all backend only (--moe-a2a-backend deepep, megamoe, mooncake, ascend_fuseep or mori)."),
    flags: &["--shared-experts-tp-size", "--moe-a2a-backend"],
    example_bad: ex!("--model-path moonshotai/Kimi-K3 --tp-size 8 --shared-experts-tp-size 2"),
    example_good: ex!("--model-path moonshotai/Kimi-K3 --tp-size 8 --moe-a2a-backend deepep --shared-experts-tp-size 2"),
};

// ---- handle_eplb_and_dispatch ------------------------------------------------------------------

pub static EPLB_RECORDER_WARNING: Rule = Rule {
    code: "PAR045",
    name: kebab!("eplb-sets-recorder-mode"),
    sglang: warns("parallel_hook.handle_eplb_and_dispatch", "EPLB is enabled. The expert_distribution_recorder_mode"),
    explanation: expl!("EPLB needs expert usage statistics, so SGLang turns the expert distribution recorder on in 'stat' mode."),
    flags: &["--enable-eplb", "--expert-distribution-recorder-mode"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --enable-eplb"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --enable-eplb --expert-distribution-recorder-mode stat"),
};
pub static EP_DISPATCH_NEEDS_A2A: Rule = Rule {
    code: "PAR046",
    name: kebab!("rank-dependent-dispatch-needs-a2a"),
    // named up to its first placeholder: 0.5.18 reads `self.ep_dispatch_algorithm`
    sglang: raises("parallel_hook.handle_eplb_and_dispatch", "--ep-dispatch-algorithm "),
    explanation: expl!("Without an all-to-all backend every EP rank computes the MoE for the same tokens and sums the results, so all ranks must pick the same expert replica; 'static' and 'lp' pick per rank."),
    flags: &["--ep-dispatch-algorithm", "--moe-a2a-backend"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --ep-dispatch-algorithm static"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --ep-dispatch-algorithm dynamic"),
};
pub static EPLB_NEEDS_EP: Rule = Rule {
    code: "PAR047",
    name: kebab!("eplb-needs-expert-parallelism"),
    sglang: raises("parallel_hook.handle_eplb_and_dispatch", ""),
    explanation: expl!("EPLB balances experts across expert-parallel ranks; with an EP size of 1 there is nothing to balance. SGLang fails with a bare assertion (empty message)."),
    flags: &["--enable-eplb", "--ep-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --enable-eplb"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --enable-eplb"),
};

// ---- handle_elastic_ep -------------------------------------------------------------------------

pub static EEP_EPLB_ALGORITHM: Rule = Rule {
    code: "PAR050",
    name: kebab!("elastic-ep-eplb-algorithm"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP requires eplb_algorithm to be"),
    explanation: expl!("With Elastic EP, EPLB must use an elasticity-aware algorithm that copes with ranks joining and leaving."),
    flags: &["--elastic-ep-backend", "--enable-eplb", "--eplb-algorithm"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --elastic-ep-backend mooncake --enable-eplb --eplb-algorithm deepseek"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --ep-size 2 --elastic-ep-backend mooncake --enable-eplb"),
};
pub static EEP_PP: Rule = Rule {
    code: "PAR051",
    name: kebab!("elastic-ep-excludes-pp"),
    sglang: raises("parallel_hook.handle_elastic_ep", "PP size should be set to 1 under elastic"),
    explanation: expl!("Elastic EP is only implemented for a single pipeline stage."),
    flags: &["--elastic-ep-backend", "--pp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --pp-size 2"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake"),
};
pub static EEP_JOIN_NEEDS_BACKEND: Rule = Rule {
    code: "PAR052",
    name: kebab!("elastic-join-needs-backend"),
    sglang: raises("parallel_hook.handle_elastic_ep", "--elastic-ep-join-mode requires --elastic-ep-backend"),
    explanation: expl!("Joining an Elastic EP deployment goes through the elastic EP backend, which must be named."),
    flags: &["--elastic-ep-join-mode", "--elastic-ep-backend"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-join-mode recover"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-join-mode recover --elastic-ep-backend mooncake"),
};
pub static EEP_SCALE_NODE_RANK: Rule = Rule {
    code: "PAR053",
    name: kebab!("elastic-scale-joiner-node-rank-1"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale-up requires one joining"),
    explanation: expl!("A scale-up joiner is launched as the second node of its own group, so SGLang requires --node-rank 1."),
    flags: &["--elastic-ep-join-mode", "--node-rank"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --elastic-ep-join-mode scale"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --elastic-ep-join-mode scale --node-rank 1 --elastic-ep-join-rank-offset 1"),
};
pub static EEP_SCALE_OFFSET: Rule = Rule {
    code: "PAR054",
    name: kebab!("elastic-scale-needs-rank-offset"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale joiners require --elastic-ep-join-rank-offset"),
    explanation: expl!("A scale-up joiner must be told where its ranks start: the current EP size of the deployment it joins."),
    flags: &["--elastic-ep-join-mode", "--elastic-ep-join-rank-offset"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --elastic-ep-join-mode scale --node-rank 1"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --elastic-ep-join-mode scale --node-rank 1 --elastic-ep-join-rank-offset 1"),
};
pub static EEP_OFFSET_ONLY_SCALE: Rule = Rule {
    code: "PAR055",
    name: kebab!("elastic-rank-offset-only-for-scale"),
    sglang: raises("parallel_hook.handle_elastic_ep", "--elastic-ep-join-rank-offset is only valid"),
    explanation: expl!("The join rank offset only means something for a scale-up joiner."),
    flags: &["--elastic-ep-join-rank-offset", "--elastic-ep-join-mode"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-join-rank-offset 2"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B"),
};
pub static EEP_MAX_NEEDS_BACKEND: Rule = Rule {
    code: "PAR056",
    name: kebab!("max-ep-size-needs-elastic-backend"),
    sglang: raises("parallel_hook.handle_elastic_ep", "--max-ep-size requires --elastic-ep-backend"),
    explanation: expl!("A maximum EP size only matters for an Elastic EP deployment that can grow."),
    flags: &["--max-ep-size", "--elastic-ep-backend"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --max-ep-size 8"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --max-ep-size 8 --elastic-ep-backend mooncake"),
};
pub static EEP_MAX_POSITIVE: Rule = Rule {
    code: "PAR057",
    name: kebab!("max-ep-size-positive"),
    sglang: raises("parallel_hook.handle_elastic_ep", "--max-ep-size must be a positive integer."),
    explanation: expl!("The largest EP size an Elastic EP deployment may grow to must be at least 1."),
    flags: &["--max-ep-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --max-ep-size 0"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-backend mooncake --max-ep-size 1"),
};
pub static EEP_INITIAL_NEEDS_SCALING: Rule = Rule {
    code: "PAR058",
    name: kebab!("elastic-initial-size-needs-scaling"),
    sglang: raises("parallel_hook.handle_elastic_ep", "--elastic-ep-initial-size is only valid for"),
    explanation: expl!("The initial EP size only matters when the deployment can scale up: an elastic backend and --max-ep-size above --tp-size."),
    flags: &["--elastic-ep-initial-size", "--max-ep-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --elastic-ep-initial-size 2"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B"),
};
pub static EEP_TOPOLOGY: Rule = Rule {
    code: "PAR059",
    name: kebab!("elastic-attention-topology"),
    sglang: Sglang::Reraised {
        site: site("parallel_hook.handle_elastic_ep", "Invalid attention topology: tp_size={cfg.tp_size},"),
        by: site("parallel_hook.handle_elastic_ep", "{str(exc)}"),
    },
    explanation: expl!("Elastic EP scale-up needs --tp-size to split evenly into attention-DP and CP groups."),
    flags: &["--tp-size", "--attn-dp-size", "--attn-cp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_REPLICA_DIVISIBLE: Rule = Rule {
    code: "PAR060",
    name: kebab!("elastic-ep-size-divisible-by-replica"),
    sglang: Sglang::Reraised {
        site: site("elastic_ep.topology.physical_ep_size_to_dp_size", "EP size {ep_size} must be divisible"),
        by: site("parallel_hook.handle_elastic_ep", "{str(exc)}"),
    },
    explanation: expl!("Elastic EP grows in whole attention replicas (attention TP x attention CP ranks), so --max-ep-size, the initial size and the join offset must be multiples of that width."),
    flags: &["--max-ep-size", "--elastic-ep-initial-size", "--elastic-ep-join-rank-offset"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --elastic-ep-backend mooncake --max-ep-size 5"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --elastic-ep-backend mooncake --max-ep-size 4"),
};
pub static EEP_MOE_DENSE_TP: Rule = Rule {
    code: "PAR061",
    name: kebab!("elastic-scale-attn-tp-needs-dense-tp-1"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale-up with attention TP greater"),
    explanation: expl!("When attention is tensor-parallel, dense MLP layers must not be TP-sharded for a joining group to fit in."),
    flags: &["--moe-dense-tp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --elastic-ep-backend mooncake --max-ep-size 4"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --tp-size 2 --elastic-ep-backend mooncake --max-ep-size 4 --moe-dense-tp-size 1"),
};
pub static EEP_TIMEOUT: Rule = Rule {
    code: "PAR062",
    name: kebab!("elastic-scale-timeout-positive"),
    sglang: raises("parallel_hook.handle_elastic_ep", "--elastic-ep-scale-timeout must be greater"),
    explanation: expl!("Scale-up waits for joiners at most this long; zero or negative makes no sense."),
    flags: &["--elastic-ep-scale-timeout"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_TOKENIZER_WORKERS: Rule = Rule {
    code: "PAR063",
    name: kebab!("elastic-scale-single-tokenizer"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP runtime scale-up currently requires"),
    explanation: expl!("Runtime scale-up is only implemented with a single tokenizer worker."),
    flags: &["--tokenizer-worker-num"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_RAY: Rule = Rule {
    code: "PAR064",
    name: kebab!("elastic-scale-excludes-ray"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP runtime scale-up does not support --use-ray."),
    explanation: expl!("Runtime scale-up is not implemented for Ray-launched servers."),
    flags: &["--use-ray"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_BACKUP: Rule = Rule {
    code: "PAR065",
    name: kebab!("elastic-scale-excludes-expert-backup"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP runtime scale-up does not support --enable-elastic-expert-backup."),
    explanation: expl!("Expert backup and runtime scale-up are separate Elastic EP modes that cannot be combined."),
    flags: &["--enable-elastic-expert-backup"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_JOINER_INITIAL: Rule = Rule {
    code: "PAR066",
    name: kebab!("elastic-joiner-needs-initial-size"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale joiners require --elastic-ep-initial-size"),
    explanation: expl!("A joiner must know the EP size the primary deployment started with."),
    flags: &["--elastic-ep-initial-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_INITIAL_LE_OFFSET: Rule = Rule {
    code: "PAR067",
    name: kebab!("elastic-initial-size-within-current"),
    sglang: raises("parallel_hook.handle_elastic_ep", "--elastic-ep-initial-size cannot exceed the"),
    explanation: expl!("The deployment's launch-time EP size cannot be larger than its current size (the join offset)."),
    flags: &["--elastic-ep-initial-size", "--elastic-ep-join-rank-offset"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_JOIN_TARGET: Rule = Rule {
    code: "PAR068",
    name: kebab!("elastic-join-exceeds-max-ep"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP joining group exceeds --max-ep-size"),
    explanation: expl!("The joining group's ranks (offset + TP size) must fit inside --max-ep-size."),
    flags: &["--max-ep-size", "--elastic-ep-join-rank-offset", "--tp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_SINGLE_RANK_DENSE: Rule = Rule {
    code: "PAR069",
    name: kebab!("elastic-single-rank-joiner-dense-tp-1"),
    sglang: raises("parallel_hook.handle_elastic_ep", "A single-rank Elastic EP joining group requires"),
    explanation: expl!("A one-rank joiner cannot hold TP-sharded dense layers."),
    flags: &["--moe-dense-tp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_PRIMARY_INITIAL: Rule = Rule {
    code: "PAR070",
    name: kebab!("elastic-primary-initial-size-is-tp"),
    sglang: raises("parallel_hook.handle_elastic_ep", "The primary --elastic-ep-initial-size must"),
    explanation: expl!("On the primary deployment the initial EP size is its own TP size; leave --elastic-ep-initial-size unset or equal to --tp-size."),
    flags: &["--elastic-ep-initial-size", "--tp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_INITIAL_POSITIVE: Rule = Rule {
    code: "PAR071",
    name: kebab!("elastic-initial-size-positive"),
    sglang: raises("parallel_hook.handle_elastic_ep", ""),
    explanation: expl!("The initial EP size must be positive. SGLang fails with a bare assertion (empty message)."),
    flags: &["--elastic-ep-initial-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_ROUND_ROBIN: Rule = Rule {
    code: "PAR072",
    name: kebab!("elastic-scale-needs-round-robin"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale-up requires --load-balance-method"),
    explanation: expl!("Load-aware DP balancing needs per-rank load snapshots that do not survive a scale-up; on a prefill server the default is follow_bootstrap_room."),
    flags: &["--load-balance-method"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_MOONCAKE: Rule = Rule {
    code: "PAR073",
    name: kebab!("elastic-scale-needs-mooncake"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP runtime scale-up requires --elastic-ep-backend"),
    explanation: expl!("Only the Mooncake elastic backend implements runtime scale-up."),
    flags: &["--elastic-ep-backend"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_DCP: Rule = Rule {
    code: "PAR074",
    name: kebab!("elastic-scale-dcp-divides-attn-tp"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale-up requires --dcp-size to"),
    explanation: expl!("Decode context parallelism runs inside the attention TP group, which stays fixed while EP scales."),
    flags: &["--dcp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

pub static EEP_DECODE_GRAPH: Rule = Rule {
    code: "PAR075",
    name: kebab!("elastic-scale-decode-graph-full-or-disabled"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP runtime scale-up supports decode"),
    explanation: expl!("Decode CUDA graphs are recaptured after a scale-up; only full graphs (or none) support that."),
    flags: &["--cuda-graph-backend-decode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_PREFILL_GRAPH: Rule = Rule {
    code: "PAR076",
    name: kebab!("elastic-scale-prefill-graph-disabled"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP runtime scale-up requires prefill"),
    explanation: expl!("Prefill CUDA graphs are not recaptured after a scale-up, so they must be off (--cuda-graph-backend-prefill disabled)."),
    flags: &["--cuda-graph-backend-prefill"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_GRAPH_CUDA: Rule = Rule {
    code: "PAR077",
    name: kebab!("elastic-graph-recapture-needs-cuda"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP CUDA graph recapture requires"),
    explanation: expl!("With the full decode CUDA graph, scale-up recaptures graphs, which needs a CUDA device."),
    flags: &["--device", "--cuda-graph-backend-decode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_GRAPH_SPEC: Rule = Rule {
    code: "PAR078",
    name: kebab!("elastic-graph-recapture-excludes-speculative"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP CUDA graph recapture does not support speculative"),
    explanation: expl!("Decode graph recapture after a scale-up is not implemented for speculative decoding; disable the decode CUDA graph or speculation."),
    flags: &["--speculative-algorithm", "--cuda-graph-backend-decode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_GRAPH_EMBEDDING: Rule = Rule {
    code: "PAR079",
    name: kebab!("elastic-graph-recapture-excludes-embedding"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP CUDA graph recapture does not support embedding"),
    explanation: expl!("Decode graph recapture after a scale-up is not implemented for embedding models."),
    flags: &["--is-embedding", "--cuda-graph-backend-decode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_GRAPH_DLLM: Rule = Rule {
    code: "PAR080",
    name: kebab!("elastic-graph-recapture-excludes-dllm"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP CUDA graph recapture does not support diffusion"),
    explanation: expl!("Decode graph recapture after a scale-up is not implemented for diffusion language models."),
    flags: &["--dllm-algorithm", "--cuda-graph-backend-decode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_GRAPH_ENCODER: Rule = Rule {
    code: "PAR081",
    name: kebab!("elastic-graph-recapture-excludes-encoder-only"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP CUDA graph recapture does not support encoder-only"),
    explanation: expl!("Decode graph recapture after a scale-up is not implemented for encoder-only servers."),
    flags: &["--encoder-only", "--cuda-graph-backend-decode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_GRAPH_HOOKS: Rule = Rule {
    code: "PAR082",
    name: kebab!("elastic-graph-recapture-excludes-forward-hooks"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP CUDA graph recapture does not support forward"),
    explanation: expl!("Decode graph recapture after a scale-up is not implemented with forward hooks installed."),
    flags: &["--forward-hooks", "--cuda-graph-backend-decode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_GRAPH_PDMUX: Rule = Rule {
    code: "PAR083",
    name: kebab!("elastic-graph-recapture-excludes-pdmux"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP CUDA graph recapture does not support PDMux."),
    explanation: expl!("Decode graph recapture after a scale-up is not implemented with PD multiplexing."),
    flags: &["--enable-pdmux", "--cuda-graph-backend-decode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_ATTN_DP: Rule = Rule {
    code: "PAR084",
    name: kebab!("elastic-scale-needs-attn-dp"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale-up requires attention DP"),
    explanation: expl!("Runtime scale-up adds attention-DP groups; without attention DP the collectives after a scale-up would be wrong."),
    flags: &["--attn-dp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_DP_LM_HEAD: Rule = Rule {
    code: "PAR085",
    name: kebab!("elastic-scale-needs-dp-lm-head"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale-up requires --enable-dp-lm-head"),
    explanation: expl!("With a DP LM head each attention-DP group computes its own logits, so joiners of a different TP size still fit."),
    flags: &["--enable-dp-lm-head"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_ATTN_CP: Rule = Rule {
    code: "PAR086",
    name: kebab!("elastic-scale-excludes-attn-cp"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale-up requires --attn-cp-size"),
    explanation: expl!("Runtime scale-up is not implemented with attention context parallelism."),
    flags: &["--attn-cp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_EP_EQ_TP: Rule = Rule {
    code: "PAR087",
    name: kebab!("elastic-scale-ep-equals-tp"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale-up requires ep_size == tp_size"),
    explanation: expl!("Every launch-time rank must be an expert-parallel rank; all-to-all MoE backends set --ep-size to --tp-size by themselves."),
    flags: &["--ep-size", "--tp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_NIXL: Rule = Rule {
    code: "PAR088",
    name: kebab!("elastic-scale-needs-nixl-a2a"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale-up requires --moe-a2a-backend"),
    explanation: expl!("Only the NIXL MoE all-to-all backend supports ranks joining at run time."),
    flags: &["--moe-a2a-backend"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

// 0.5.18 (`ServerArgs._handle_elastic_ep`): the deprecated rejoin flag, and scale-up over
// `--enable-dp-attention` with `--dp-size` groups (no CUDA graph at all).

pub static EEP_REJOIN_CONFLICT: Rule = Rule {
    code: "PAR096",
    name: kebab!("elastic-rejoin-conflicts-with-join-mode"),
    sglang: raises("parallel_hook.handle_elastic_ep", "--elastic-ep-rejoin (deprecated) conflicts with"),
    explanation: expl!("--elastic-ep-rejoin is the old spelling of --elastic-ep-join-mode recover; with another join mode the two say different things."),
    flags: &["--elastic-ep-rejoin", "--elastic-ep-join-mode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_REJOIN_DEPRECATED: Rule = Rule {
    code: "PAR097",
    name: kebab!("elastic-rejoin-deprecated"),
    sglang: warns("parallel_hook.handle_elastic_ep", "--elastic-ep-rejoin is deprecated"),
    explanation: expl!("--elastic-ep-rejoin still works but is deprecated: SGLang reads it as --elastic-ep-join-mode recover."),
    flags: &["--elastic-ep-rejoin"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_GRAPHS_DISABLED: Rule = Rule {
    code: "PAR098",
    name: kebab!("elastic-scale-cuda-graphs-disabled"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP runtime scale-up requires decode and prefill"),
    explanation: expl!("In this release CUDA graphs are not recaptured after a scale-up, so both the decode and the prefill graphs must be off (--disable-cuda-graph)."),
    flags: &["--disable-cuda-graph", "--max-ep-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_ENABLE_DP_ATTENTION: Rule = Rule {
    code: "PAR099",
    name: kebab!("elastic-scale-needs-dp-attention"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale-up requires --enable-dp-attention"),
    explanation: expl!("Runtime scale-up adds attention-DP groups; without DP attention (--enable-dp-attention with --dp-size above 1) the collectives after a scale-up would be wrong."),
    flags: &["--enable-dp-attention", "--dp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static EEP_DP_EQ_TP: Rule = Rule {
    code: "PAR100",
    name: kebab!("elastic-scale-dp-equals-tp"),
    sglang: raises("parallel_hook.handle_elastic_ep", "Elastic EP scale-up requires dp_size == tp_size"),
    explanation: expl!("Every launch-time rank must be its own attention-DP group, so --dp-size must equal --tp-size."),
    flags: &["--dp-size", "--tp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

// ---- 0.5.18: ServerArgs._handle_dcp_validation (no counterpart) --------------------------------
// 0.5.18 checks the decode context-parallel flags as given: `--dcp-comm-backend` defaults to ag_rs
// (0.5.20 on resolves the backend in handle_decode_context_parallelism).

pub static DCP_0518_SIZE_POSITIVE: Rule = Rule {
    code: "PAR104",
    name: kebab!("dcp-size-at-least-1"),
    sglang: raises("server_args.ServerArgs._handle_dcp_validation", "Decode context parallel size (--dcp-size"),
    explanation: expl!("The decode context-parallel width counts GPUs that split each request's KV cache during decode; it must be at least 1 (1 turns DCP off)."),
    flags: &["--dcp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static DCP_0518_COMM_NEEDS_DCP: Rule = Rule {
    code: "PAR105",
    name: kebab!("dcp-a2a-backend-needs-dcp"),
    sglang: raises("server_args.ServerArgs._handle_dcp_validation", "--dcp-comm-backend {self.dcp_comm_backend} only affects"),
    explanation: expl!("The a2a and fi_a2a backends only change how decode context parallelism reduces attention; without --dcp-size above 1 there is nothing for them to do."),
    flags: &["--dcp-comm-backend", "--dcp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static DCP_0518_FI_A2A_NEEDS_CUDA: Rule = Rule {
    code: "PAR106",
    name: kebab!("dcp-fi-a2a-needs-cuda"),
    sglang: raises("server_args.ServerArgs._handle_dcp_validation", "--dcp-comm-backend fi_a2a delegates the exchange"),
    explanation: expl!("fi_a2a runs FlashInfer's MNNVL all-to-all kernel, which needs an NVIDIA CUDA GPU (SM90+ with MNNVL fabric memory); use a2a or ag_rs elsewhere."),
    flags: &["--dcp-comm-backend"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static DCP_0518_REPLICATE_Q_NEEDS_DCP: Rule = Rule {
    code: "PAR107",
    name: kebab!("dcp-replicate-q-proj-needs-dcp"),
    sglang: raises("server_args.ServerArgs._handle_dcp_validation", "--dcp-replicate-q-proj requires --dcp-size > 1."),
    explanation: expl!("Replicating the Q projection only saves the DCP all-gather; without decode context parallelism there is none."),
    flags: &["--dcp-replicate-q-proj", "--dcp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static DCP_0518_REPLICATE_Q_NEEDS_A2A: Rule = Rule {
    code: "PAR108",
    name: kebab!("dcp-replicate-q-proj-needs-a2a"),
    sglang: raises("server_args.ServerArgs._handle_dcp_validation", "--dcp-replicate-q-proj only applies to the a2a/fi_a2a"),
    explanation: expl!("Replicating the Q projection removes the head-dim all-gather of the a2a/fi_a2a DCP backends; the default ag_rs backend has no such step."),
    flags: &["--dcp-replicate-q-proj", "--dcp-comm-backend"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

// ---- 0.5.18: the other checks of its steps ----------------------------------------------------

pub static BALANCEDNESS_ENV_REMOVED: Rule = Rule {
    code: "PAR109",
    name: kebab!("eplb-balancedness-env-removed"),
    sglang: raises("parallel_hook.handle_expert_distribution_metrics", "SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC is no longer supported."),
    explanation: expl!("The environment variable was replaced by --expert-balancedness-report-mode; SGLang 0.5.18 refuses to start while it is set (to any value)."),
    flags: &[],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static MIMO_V2_CP_V2_ZIGZAG_ONLY: Rule = Rule {
    code: "PAR110",
    name: kebab!("mimo-v2-cp-v2-zigzag-only"),
    sglang: raises("parallel_hook.handle_context_parallelism", "MiMo V2 CP-v2 only supports --cp-strategy zigzag."),
    explanation: expl!("MiMo V2 turns on context parallelism v2 by default (unless SGLANG_ENABLE_CP_V2 says otherwise), which splits prefill with the zigzag layout only."),
    flags: &["--cp-strategy", "--enable-prefill-cp"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static MIMO_V2_CP_V2_TEXT_ONLY: Rule = Rule {
    code: "PAR111",
    name: kebab!("mimo-v2-cp-v2-text-only"),
    sglang: raises("parallel_hook.handle_context_parallelism", "MiMo V2 CP-v2 only supports text inference;"),
    explanation: expl!("Context parallelism v2 for MiMo V2 serves text only: a multimodal MiMo V2 needs --language-only."),
    flags: &["--enable-prefill-cp", "--language-only"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static LEGACY_CP_FLAGS_EXCLUSIVE: Rule = Rule {
    code: "PAR112",
    name: kebab!("legacy-prefill-cp-flags-exclusive"),
    sglang: raises("parallel_hook.handle_context_parallelism", "--enable-prefill-context-parallel and --enable-nsa-prefill-context-parallel"),
    explanation: expl!("The two deprecated prefill-CP switches pick different CP implementations (NSA models, or MLA/MHA models); give one of them, or --enable-prefill-cp with --cp-strategy."),
    flags: &["--enable-prefill-context-parallel", "--enable-nsa-prefill-context-parallel"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static TP_DIV_DP_CP: Rule = Rule {
    code: "PAR113",
    name: kebab!("tp-divisible-by-dp-times-cp"),
    sglang: raises("parallel_hook.handle_context_parallelism", "tp_size must be divisible by dp_size * attn_cp_size"),
    explanation: expl!("The TP group is laid out as DP groups times CP groups times attention TP, so --tp-size must be a multiple of --dp-size x --attn-cp-size."),
    flags: &["--tp-size", "--dp-size", "--attn-cp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

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
    &DP_LM_HEAD_NEEDS_DP_ATTENTION,
    &TP_LM_HEAD_NEEDS_DP_ATTENTION,
    &TP_LM_HEAD_TP_EQ_DP,
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
    &SHARED_EXPERTS_TP_KIMI_K3_ONLY,
    &SHARED_EXPERTS_TP_NEEDS_A2A,
    &NEMOTRON_H_NO_ATTN_CP,
    &LONGCAT_FLASH_NO_PREFILL_CP,
    &PREFILL_CP_HIP_V4_ONLY,
    &V32_PREFILL_CP_NO_ZIGZAG,
    &MIMO_V2_PREFILL_CP_ZIGZAG_ONLY,
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
    &EEP_REJOIN_CONFLICT,
    &EEP_REJOIN_DEPRECATED,
    &EEP_GRAPHS_DISABLED,
    &EEP_ENABLE_DP_ATTENTION,
    &EEP_DP_EQ_TP,
    &DCP_0518_SIZE_POSITIVE,
    &DCP_0518_COMM_NEEDS_DCP,
    &DCP_0518_FI_A2A_NEEDS_CUDA,
    &DCP_0518_REPLICATE_Q_NEEDS_DCP,
    &DCP_0518_REPLICATE_Q_NEEDS_A2A,
    &BALANCEDNESS_ENV_REMOVED,
    &MIMO_V2_CP_V2_ZIGZAG_ONLY,
    &MIMO_V2_CP_V2_TEXT_ONLY,
    &LEGACY_CP_FLAGS_EXCLUSIVE,
    &TP_DIV_DP_CP,
];


// ---- small readers with Python semantics ----------------------------------------------------

fn int(ctx: &Ctx, field: Field, default: i64) -> i64 {
    ctx.cfg.int(field).unwrap_or(default)
}

/// `str(x)` of a field as an f-string prints it.
fn show(ctx: &Ctx, field: Field) -> String {
    ctx.cfg.get(field).py_str()
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
    let mut backend = ctx.cfg.str(f::moe_a2a_backend).unwrap_or("none").to_string();
    if ctx.cfg.truthy(f::enable_waterfill) && backend != "deepep" && backend != "megamoe" {
        backend = "deepep".into();
    }
    if backend == "ascend_tp" {
        backend = "none".into();
    }
    backend
}

/// `ep_size` after `handle_a2a_moe` (`_a2a_ep_size`): the spanning backends set it to tp_size.
fn ep_size_after_a2a_hook(ctx: &Ctx) -> i64 {
    if A2A_EP_SPANNING_BACKENDS.contains(&moe_a2a_backend_after_a2a_hook(ctx).as_str()) {
        int(ctx, f::tp_size, 1)
    } else {
        int(ctx, f::ep_size, 1)
    }
}

// ---- hooks ------------------------------------------------------------------------------------

/// `handle_deprecated_dp_attention`: `--dp-size N --enable-dp-attention` becomes
/// `--attn-dp-size N` (and `dp_size` 1); `enable_dp_attention` is cleared either way.
pub fn handle_deprecated_dp_attention(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.truthy(f::enable_dp_attention) {
        return Ok(());
    }
    if int(ctx, f::attn_dp_size, 1) == 1 {
        let dp = ctx.cfg.get(f::dp_size).clone();
        ctx.cfg.set(f::attn_dp_size, dp);
        ctx.cfg.set(f::dp_size, PyValue::Int(1));
    }
    ctx.cfg.set(f::enable_dp_attention, PyValue::Bool(false));
    Ok(())
}

/// `validate_prefill_cp_platform`: rejects prefill CP on MUSA. No hardware profile this build
/// knows is MUSA, so the check (`parallel_hook.validate_prefill_cp_platform#1`) never fires.
pub fn validate_prefill_cp_platform(_ctx: &mut Ctx) -> Step {
    Ok(())
}

/// `overrides._dcp_comm_backend_default`.
fn dcp_comm_backend_default(ctx: &mut Ctx) {
    if !ctx.cfg.is_none(f::dcp_comm_backend) {
        return;
    }
    let dcp = int(ctx, f::dcp_size, 1);
    if dcp <= 1 {
        ctx.cfg.set(f::dcp_comm_backend, PyValue::Str("ag_rs".into()));
        return;
    }
    // utils.common.is_fi_a2a_supported: sm100 family, then the MNNVL fabric, else the per-node
    // TP width must be a multiple of dcp_size.
    let fi_a2a = ctx.hw.is_cuda() && ctx.hw.capability.0 == 10 && {
        if ctx.hw.mnnvl_fabric {
            true
        } else {
            let tp = int(ctx, f::tp_size, 1);
            let per = py_floordiv(int(ctx, f::nnodes, 1), int(ctx, f::pp_size, 1)).unwrap_or(1).max(1);
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
    ctx.cfg.set(f::dcp_comm_backend, PyValue::Str(backend.into()));
}

/// `handle_decode_context_parallelism`.
pub fn handle_decode_context_parallelism(ctx: &mut Ctx) -> Step {
    dcp_comm_backend_default(ctx);
    let dcp = int(ctx, f::dcp_size, 1);
    if dcp < 1 {
        let fixes = vec![
            ctx.fix_set("Turn decode context parallelism off (--dcp-size 1)", f::dcp_size, "1", Applicability::Unsafe),
        ];
        let args: &Args = &[("cfg.dcp_size", &dcp)];
        ctx.raise(&DCP_SIZE_POSITIVE, args, &[f::dcp_size], fixes)?;
    }
    if dcp > 1 && ctx.cfg.truthy(f::enable_prefill_cp) {
        let fixes = vec![
            ctx.fix_remove("Keep decode context parallelism: drop --enable-prefill-cp", f::enable_prefill_cp, Applicability::Unsafe),
            ctx.fix_remove("Keep prefill context parallelism: drop --dcp-size", f::dcp_size, Applicability::Unsafe),
        ];
        ctx.raise(&DCP_NO_PREFILL_CP, &[], &[f::dcp_size, f::enable_prefill_cp], fixes)?;
    }
    let backend = ctx.cfg.str(f::dcp_comm_backend).unwrap_or("").to_string();
    if (backend == "a2a" || backend == "fi_a2a") && dcp <= 1 {
        let fixes = vec![
            ctx.fix_remove("Drop --dcp-comm-backend (DCP is off)", f::dcp_comm_backend, Applicability::Safe),
            ctx.fix_set("Turn decode context parallelism on (--dcp-size 2)", f::dcp_size, "2", Applicability::Unsafe),
        ];
        let args: &Args = &[("cfg.dcp_comm_backend", &backend), ("cfg.dcp_size", &dcp)];
        ctx.raise(&DCP_COMM_NEEDS_DCP, args, &[f::dcp_comm_backend, f::dcp_size], fixes)?;
    }
    if backend == "fi_a2a" && !ctx.hw.is_cuda() {
        let fixes = vec![
            ctx.fix_set("Use the a2a DCP backend", f::dcp_comm_backend, "a2a", Applicability::Safe),
            ctx.fix_remove("Let SGLang pick the DCP backend", f::dcp_comm_backend, Applicability::Safe),
        ];
        ctx.raise(&DCP_FI_A2A_NEEDS_CUDA, &[], &[f::dcp_comm_backend], fixes)?;
    }
    if ctx.cfg.truthy(f::dcp_replicate_q_proj) {
        if dcp <= 1 {
            let fixes = vec![ctx.fix_remove("Drop --dcp-replicate-q-proj (DCP is off)", f::dcp_replicate_q_proj, Applicability::Safe)];
            ctx.raise(&DCP_REPLICATE_Q_NEEDS_DCP, &[], &[f::dcp_replicate_q_proj, f::dcp_size], fixes)?;
        }
        if backend != "a2a" && backend != "fi_a2a" {
            let fixes = vec![
                ctx.fix_set("Use the a2a DCP backend", f::dcp_comm_backend, "a2a", Applicability::Unsafe),
                ctx.fix_remove("Drop --dcp-replicate-q-proj", f::dcp_replicate_q_proj, Applicability::Safe),
            ];
            let args: &Args = &[("cfg.dcp_comm_backend", &backend)];
            let _ = ctx.raise(&DCP_REPLICATE_Q_NEEDS_A2A, args, &[f::dcp_replicate_q_proj, f::dcp_comm_backend], fixes);
        }
    }
    Ok(())
}

/// 0.5.18's `ServerArgs._handle_dcp_validation`: the DCP flags as given.
pub fn handle_dcp_validation(ctx: &mut Ctx) -> Step {
    let dcp = int(ctx, f::dcp_size, 1);
    if dcp < 1 {
        let fixes = vec![ctx.fix_set("Turn decode context parallelism off (--dcp-size 1)", f::dcp_size, "1", Applicability::Unsafe)];
        ctx.raise(&DCP_0518_SIZE_POSITIVE, &[("self.dcp_size", &dcp)], &[f::dcp_size], fixes)?;
    }
    let backend = show(ctx, f::dcp_comm_backend);
    if (backend == "a2a" || backend == "fi_a2a") && dcp <= 1 {
        let fixes = vec![
            ctx.fix_remove("Drop --dcp-comm-backend (DCP is off)", f::dcp_comm_backend, Applicability::Safe),
            ctx.fix_set("Turn decode context parallelism on (--dcp-size 2)", f::dcp_size, "2", Applicability::Unsafe),
        ];
        let args: &Args = &[("self.dcp_comm_backend", &backend), ("self.dcp_size", &dcp)];
        ctx.raise(&DCP_0518_COMM_NEEDS_DCP, args, &[f::dcp_comm_backend, f::dcp_size], fixes)?;
    }
    if backend == "fi_a2a" && !ctx.hw.is_cuda() {
        let fixes = vec![ctx.fix_set("Use the a2a DCP backend", f::dcp_comm_backend, "a2a", Applicability::Safe)];
        ctx.raise(&DCP_0518_FI_A2A_NEEDS_CUDA, &[], &[f::dcp_comm_backend], fixes)?;
    }
    if ctx.cfg.truthy(f::dcp_replicate_q_proj) {
        if dcp <= 1 {
            let fixes = vec![ctx.fix_remove("Drop --dcp-replicate-q-proj (DCP is off)", f::dcp_replicate_q_proj, Applicability::Safe)];
            ctx.raise(&DCP_0518_REPLICATE_Q_NEEDS_DCP, &[], &[f::dcp_replicate_q_proj, f::dcp_size], fixes)?;
        }
        if backend != "a2a" && backend != "fi_a2a" {
            let fixes = vec![
                ctx.fix_set("Use the a2a DCP backend", f::dcp_comm_backend, "a2a", Applicability::Unsafe),
                ctx.fix_remove("Drop --dcp-replicate-q-proj", f::dcp_replicate_q_proj, Applicability::Safe),
            ];
            ctx.raise(&DCP_0518_REPLICATE_Q_NEEDS_A2A, &[("self.dcp_comm_backend", &backend)], &[f::dcp_replicate_q_proj, f::dcp_comm_backend], fixes)?;
        }
    }
    Ok(())
}

/// 0.5.18's `ServerArgs._handle_legacy_cp_arguments` (run twice: before the model's defaults
/// and after them): the deprecated prefill-CP switches turn on `--enable-prefill-cp` with the
/// strategy of their mode, and the canonical flags are mirrored back onto them.
pub fn handle_legacy_cp_arguments(ctx: &mut Ctx) -> Step {
    let strategy_of = |mode: &str| match mode {
        "in-seq-split" => Some("zigzag"),
        "round-robin-split" => Some("interleave"),
        _ => None,
    };
    let plain = ctx.cfg.truthy(f::enable_prefill_context_parallel);
    let dsa = ctx.cfg.truthy(f::enable_dsa_prefill_context_parallel);
    if plain || dsa {
        ctx.cfg.set(f::enable_prefill_cp, PyValue::Bool(true));
    }
    for (on, mode_field, default) in [(plain, f::prefill_cp_mode, "in-seq-split"), (dsa, f::dsa_prefill_cp_mode, "round-robin-split")] {
        if on && ctx.cfg.is_none(f::cp_strategy) {
            // the dataclass default where argparse leaves the field out (==SUPPRESS==)
            let mode = ctx.cfg.str(mode_field).filter(|m| *m != "==SUPPRESS==").unwrap_or(default).to_string();
            if let Some(strategy) = strategy_of(&mode) {
                ctx.cfg.set(f::cp_strategy, PyValue::Str(strategy.into()));
            }
        }
    }
    if plain && dsa {
        return Ok(());
    }
    let Some(strategy) = ctx.cfg.str(f::cp_strategy).map(str::to_string) else { return Ok(()) };
    if !ctx.cfg.truthy(f::enable_prefill_cp) {
        return Ok(());
    }
    let mode = if strategy == "zigzag" { "in-seq-split" } else { "round-robin-split" };
    if dsa || matches!(ctx.cfg.str(f::attention_backend), Some("dsa" | "dsv4")) {
        ctx.cfg.set(f::enable_dsa_prefill_context_parallel, PyValue::Bool(true));
        ctx.cfg.set(f::enable_prefill_context_parallel, PyValue::Bool(false));
    } else {
        ctx.cfg.set(f::enable_prefill_context_parallel, PyValue::Bool(true));
    }
    ctx.cfg.set(f::dsa_prefill_cp_mode, PyValue::Str(mode.into()));
    ctx.cfg.set(f::prefill_cp_mode, PyValue::Str(mode.into()));
    Ok(())
}

/// `handle_dwdp`.
pub fn handle_dwdp(ctx: &mut Ctx) -> Step {
    let dwdp = int(ctx, f::dwdp_size, 1);
    if dwdp <= 1 {
        return Ok(());
    }
    let tp = int(ctx, f::tp_size, 1);
    if dwdp != tp {
        let fixes = vec![
            ctx.fix_set(format!("Set --tp-size {dwdp}"), f::tp_size, &dwdp.to_string(), Applicability::Unsafe),
            ctx.fix_set(format!("Set --dwdp-size {tp}"), f::dwdp_size, &tp.to_string(), Applicability::Unsafe),
        ];
        ctx.raise(&DWDP_EQUALS_TP, &[("cfg.dwdp_size", &dwdp), ("cfg.tp_size", &tp)], &[f::dwdp_size, f::tp_size], fixes)?;
    }
    let mode = ctx.cfg.str(f::disaggregation_mode).unwrap_or("null").to_string();
    if mode != "null" && mode != "prefill" {
        let fixes = vec![ctx.fix_remove("Drop --dwdp-size on the decode server", f::dwdp_size, Applicability::Unsafe)];
        ctx.raise(&DWDP_DISAGG_MODE, &[], &[f::dwdp_size, f::disaggregation_mode], fixes)?;
    }
    let checks: [(&'static Rule, bool, Field); 4] = [
        (&DWDP_NO_EPLB, ctx.cfg.truthy(f::enable_eplb), f::enable_eplb),
        (&DWDP_NO_SPEC, !ctx.cfg.is_none(f::speculative_algorithm), f::speculative_algorithm),
        (&DWDP_NO_PP, int(ctx, f::pp_size, 1) != 1, f::pp_size),
        (&DWDP_NO_TBO, ctx.cfg.truthy(f::enable_two_batch_overlap), f::enable_two_batch_overlap),
    ];
    for (rule, failed, dest) in checks {
        if failed {
            let flag = ctx.cfg.setting(dest).map(|s| s.written_as.clone()).unwrap_or_else(|| format!("--{}", dest.name().replace('_', "-")));
            let mut fixes = vec![ctx.fix_remove(format!("Drop {flag}"), dest, Applicability::Unsafe)];
            if dest != f::enable_two_batch_overlap {
                // Without DWDP, two-batch overlap needs attention DP or an a2a backend.
                fixes.push(ctx.fix_remove("Drop --dwdp-size", f::dwdp_size, Applicability::Unsafe));
            }
            ctx.raise(rule, &[], &[dest, f::dwdp_size], fixes)?;
        }
    }
    if mode == "null" {
        ctx.warn(&DWDP_NULL_MODE_WARNING, &[], &[f::dwdp_size], vec![]);
    }
    if legacy_dp_attention(ctx) {
        // 0.5.18: DP attention over dwdp_size groups (it also sets `moe_ep_size`, not a flag)
        ctx.cfg.set(f::dp_size, PyValue::Int(dwdp));
        ctx.cfg.set(f::enable_dp_attention, PyValue::Bool(true));
    } else {
        ctx.cfg.set(f::attn_dp_size, PyValue::Int(dwdp));
        ctx.cfg.set(f::dp_size, PyValue::Int(1));
    }
    ctx.cfg.set(f::enable_dp_attention_local_control_broadcast, PyValue::Bool(true));
    ctx.cfg.set(f::enable_dp_lm_head, PyValue::Bool(true));
    ctx.cfg.set(f::moe_dense_tp_size, PyValue::Int(1));
    ctx.cfg.set(f::ep_size, PyValue::Int(dwdp));
    ctx.cfg.set(f::moe_dp_size, PyValue::Int(1));
    ctx.cfg.set(f::moe_a2a_backend, PyValue::Str("none".into()));
    // envs.SGLANG_SCHEDULER_SKIP_ALL_GATHER.set(True): process state, not a field.
    ctx.cfg.set(f::disable_cuda_graph, PyValue::Bool(true));
    Ok(())
}

/// `chunked_prefill_size` as SGLang has it when `handle_data_parallelism` runs: the value on the
/// command line or the one `memory_hook.handle_gpu_memory_settings` set from the GPU memory,
/// unless `attention_hook.handle_multi_item_scoring` (not modelled) turned chunked prefill off.
/// None when it cannot be known.
fn chunked_prefill_size_now(ctx: &Ctx) -> Option<i64> {
    if ctx.cfg.truthy(f::enable_mis) {
        // attention_hook.handle_multi_item_scoring turns chunked prefill off.
        return Some(-1);
    }
    if let Some(v) = ctx.cfg.int(f::chunked_prefill_size) {
        return Some(v);
    }
    if !(ctx.hw.is_cuda() || ctx.hw.is_hip()) {
        return None;
    }
    Some(super::shared::runtime_context::default_chunked_prefill_size(ctx.hw.gpu_mem_mib))
}

/// The end of `handle_data_parallelism`'s attention-DP branch: the prefill CUDA graph's `max_bs`
/// was derived from the chunk before the attention-DP split (`handle_gpu_memory_settings` runs
/// first), so it is clamped to the per-rank chunk (and the captured sizes regenerated), unless
/// the command fixed them.
fn reclamp_prefill_graph_to_chunk(ctx: &mut Ctx) {
    use super::shared::cuda_graph_config::{is_locked, phase_value, prefill_batch_sizes, with_phase, DISABLED, PREFILL};
    if !phase_backend(ctx, PREFILL).is_some_and(|b| b != DISABLED) {
        return;
    }
    let (Some(max_bs), Some(chunked)) = (phase_value(ctx, PREFILL, "max_bs").as_int(), ctx.cfg.int(f::chunked_prefill_size)) else { return };
    if max_bs > chunked && !is_locked(ctx, PREFILL, "max_bs") {
        if !is_locked(ctx, PREFILL, "bs") {
            with_phase(ctx, PREFILL, "bs", PyValue::List(prefill_batch_sizes(chunked).into_iter().map(PyValue::Int).collect()));
        }
        with_phase(ctx, PREFILL, "max_bs", PyValue::Int(chunked));
    }
}

/// `handle_data_parallelism` (with `_data_parallelism_defaults`, `_tp_lm_head_all_to_all_default`
/// and `_dp_lm_head_validation` from `overrides.py`).
pub fn handle_data_parallelism(ctx: &mut Ctx) -> Step {
    let attn_dp = int(ctx, f::attn_dp_size, 1);
    let dp = int(ctx, f::dp_size, 1);
    if attn_dp < 1 {
        let fixes = vec![ctx.fix_set("Set --attn-dp-size 1 (no attention DP)", f::attn_dp_size, "1", Applicability::Unsafe)];
        ctx.raise(&ATTN_DP_POSITIVE, &[("cfg.attn_dp_size", &attn_dp)], &[f::attn_dp_size], fixes)?;
    }
    if attn_dp > 1 && dp > 1 {
        let fixes = vec![
            ctx.fix_remove("Keep attention DP: drop --dp-size", f::dp_size, Applicability::Unsafe),
            ctx.fix_remove("Keep DP replicas: drop --attn-dp-size", f::attn_dp_size, Applicability::Unsafe),
        ];
        let args: &Args = &[("cfg.dp_size", &dp), ("cfg.attn_dp_size", &attn_dp)];
        let dests: &[Field] = if ctx.cfg.is_explicit(f::attn_dp_size) { &[f::attn_dp_size, f::dp_size] } else { &[f::dp_size, f::enable_dp_attention] };
        ctx.raise(&DP_WITH_ATTN_DP, args, dests, fixes)?;
    }

    // 0.5.18 (no --attn-dp-size): --enable-dp-attention makes the --dp-size groups attention DP
    let legacy = legacy_dp_attention(ctx);
    let groups = if legacy { dp } else { attn_dp };

    // overrides._data_parallelism_defaults
    if num_dp_ranks(ctx) == 1 && !ctx.cfg.is(f::ep_join_mode, "scale") {
        ctx.cfg.set(f::enable_dp_lm_head, PyValue::Bool(false));
        if legacy {
            ctx.cfg.set(f::enable_dp_attention, PyValue::Bool(false));
        }
    }

    let tp = int(ctx, f::tp_size, 1);
    if ctx.cfg.truthy(f::mm_enable_dp_encoder) && tp == 1 {
        ctx.warn(&MM_DP_ENCODER_TP1_WARNING, &[], &[f::mm_enable_dp_encoder], vec![]);
    }

    if attn_dp_enabled(ctx) {
        if let Some(sc) = ctx.cfg.float(f::schedule_conservativeness) {
            ctx.cfg.set(f::schedule_conservativeness, PyValue::Float(sc * 0.3));
        }
        // (0.5.18's handler does not read SGLANG_RUST_SERVER)
        if !legacy && env_bool(ctx, "SGLANG_RUST_SERVER") {
            ctx.cfg.set(f::enable_dp_attention_local_control_broadcast, PyValue::Bool(true));
        }
        if py_mod(tp, groups) != Some(0) {
            let fixes = divisor_fixes(ctx, tp, groups);
            ctx.raise(&TP_DIVISIBLE_BY_ATTN_DP, &[], &[f::attn_dp_size, f::dp_size, f::tp_size], fixes)?;
        }
        if let Some(original) = chunked_prefill_size_now(ctx) {
            if let Some(adjusted) = py_floordiv(original, groups) {
                ctx.cfg.set(f::chunked_prefill_size, PyValue::Int(adjusted));
                ctx.warn(&DP_CHUNKED_PREFILL_WARNING,
                    &[("original_chunked_prefill_size", &original), ("cfg.chunked_prefill_size", &adjusted)],
                    &[f::attn_dp_size, f::dp_size],
                    vec![],
                );
            }
        }
        reclamp_prefill_graph_to_chunk(ctx);
    }

    // overrides._tp_lm_head_all_to_all_default
    if ctx.cfg.is_none(f::enable_tp_lm_head_all_to_all) {
        let groups = if legacy { if attn_dp_enabled(ctx) { int(ctx, f::dp_size, 1) } else { 1 } } else { int(ctx, f::attn_dp_size, 1) };
        let enable = ctx.cfg.is(f::disaggregation_mode, "decode")
            && groups > 1
            && tp == groups
            && int(ctx, f::attn_cp_size, 1) == 1
            && !ctx.cfg.truthy(f::enable_dp_lm_head);
        ctx.cfg.set(f::enable_tp_lm_head_all_to_all, PyValue::Bool(enable));
    }

    // overrides._dp_lm_head_validation
    let dp_enabled = attn_dp_enabled(ctx);
    if ctx.cfg.truthy(f::enable_dp_lm_head) && !dp_enabled {
        let fixes = vec![ctx.fix_remove("Drop --enable-dp-lm-head", f::enable_dp_lm_head, Applicability::Unsafe)];
        let rule = if legacy { &DP_LM_HEAD_NEEDS_DP_ATTENTION } else { &DP_LM_HEAD_NEEDS_ATTN_DP };
        ctx.raise(rule, &[], &[f::enable_dp_lm_head], fixes)?;
    }
    if ctx.cfg.truthy(f::enable_tp_lm_head_all_to_all) {
        if !dp_enabled {
            let fixes = vec![ctx.fix_remove("Drop --enable-tp-lm-head-all-to-all", f::enable_tp_lm_head_all_to_all, Applicability::Unsafe)];
            let rule = if legacy { &TP_LM_HEAD_NEEDS_DP_ATTENTION } else { &TP_LM_HEAD_NEEDS_ATTN_DP };
            ctx.raise(rule, &[], &[f::enable_tp_lm_head_all_to_all], fixes)?;
        }
        if ctx.cfg.truthy(f::enable_dp_lm_head) {
            let fixes = vec![
                ctx.fix_remove("Keep the TP LM head: drop --enable-dp-lm-head", f::enable_dp_lm_head, Applicability::Unsafe),
                ctx.fix_remove("Keep the DP LM head: drop --enable-tp-lm-head-all-to-all", f::enable_tp_lm_head_all_to_all, Applicability::Unsafe),
            ];
            ctx.raise(&TP_LM_HEAD_NO_DP_LM_HEAD, &[], &[f::enable_tp_lm_head_all_to_all, f::enable_dp_lm_head], fixes)?;
        }
        if legacy && tp != int(ctx, f::dp_size, 1) {
            let dp = int(ctx, f::dp_size, 1);
            let fixes = vec![ctx.fix_remove("Drop --enable-tp-lm-head-all-to-all", f::enable_tp_lm_head_all_to_all, Applicability::Unsafe)];
            let args: &Args = &[("view.tp_size", &tp), ("view.dp_size", &dp)];
            ctx.raise(&TP_LM_HEAD_TP_EQ_DP, args, &[f::enable_tp_lm_head_all_to_all, f::dp_size, f::tp_size], fixes)?;
        }
        let attn_dp = int(ctx, f::attn_dp_size, 1);
        if !legacy && tp != attn_dp {
            let fixes = vec![ctx.fix_remove("Drop --enable-tp-lm-head-all-to-all", f::enable_tp_lm_head_all_to_all, Applicability::Unsafe)];
            let args: &Args = &[("view.tp_size", &tp), ("view.attn_dp_size", &attn_dp)];
            ctx.raise(&TP_LM_HEAD_TP_EQ_ATTN_DP, args, &[f::enable_tp_lm_head_all_to_all, f::attn_dp_size, f::tp_size], fixes)?;
        }
        let cp = int(ctx, f::attn_cp_size, 1);
        if cp != 1 {
            let fixes = vec![ctx.fix_remove("Drop --enable-tp-lm-head-all-to-all", f::enable_tp_lm_head_all_to_all, Applicability::Unsafe)];
            let args: &Args = &[("view.attn_cp_size", &cp)];
            ctx.raise(&TP_LM_HEAD_NO_CP, args, &[f::enable_tp_lm_head_all_to_all, f::attn_cp_size], fixes)?;
        }
    }

    // _graph_may_capture_collectives → _disable_nccl_graph_buffer_registration: only an explicit
    // NCCL_GRAPH_REGISTER other than "0" is reported. Whether a CUDA graph phase stays enabled
    // is the cuda_graph family's; here only `--disable-cuda-graph` is known to turn all off.
    if let Some(v) = ctx.env("NCCL_GRAPH_REGISTER").map(str::to_string) {
        let widest = tp.max(int(ctx, f::ep_size, 1)).max(int(ctx, f::dp_size, 1));
        if v != "0" && widest > 1 && !ctx.cfg.truthy(f::disable_cuda_graph) {
            // The template's `{reason}` is the text `_graph_may_capture_collectives` passes.
            let reason = "graph replay of captured cross-rank collectives can hang with registered buffers";
            ctx.warn(
                &NCCL_GRAPH_REGISTER_WARNING,
                &[("os.environ['NCCL_GRAPH_REGISTER']", &v), ("reason", &reason)],
                &[],
                vec![],
            );
        }
    }
    Ok(())
}

/// Fixes for "`a` must be divisible by `b`": the nearest divisor of `a` not above `b`.
fn divisor_fixes(ctx: &Ctx, tp: i64, attn_dp: i64) -> Vec<Fix> {
    let mut fixes = Vec::new();
    if tp > 0 {
        let dest = if ctx.cfg.is_explicit(f::attn_dp_size) { f::attn_dp_size } else { f::dp_size };
        let flag = if dest == f::attn_dp_size { "--attn-dp-size" } else { "--dp-size" };
        // The nearest divisors of tp_size below and above the requested width.
        let below = (1..=attn_dp.min(tp)).rev().find(|d| tp % d == 0);
        let above = (attn_dp..=tp).find(|d| tp % d == 0);
        for d in [below, above].into_iter().flatten() {
            if fixes.len() < 2 && d != attn_dp {
                fixes.push(ctx.fix_set(format!("Use {flag} {d}, a divisor of --tp-size {tp}"), dest, &d.to_string(), Applicability::Unsafe));
            }
        }
        // A larger TP group that attn_dp divides, if the machine has the GPUs for it.
        let up = ((tp / attn_dp.max(1)) + 1) * attn_dp;
        if up <= i64::from(ctx.hw.gpu_count) * int(ctx, f::nnodes, 1) {
            fixes.push(ctx.fix_set(format!("Use --tp-size {up}, a multiple of {attn_dp}"), f::tp_size, &up.to_string(), Applicability::Unsafe));
        }
    }
    fixes
}

/// `handle_context_parallelism`.
pub fn handle_context_parallelism(ctx: &mut Ctx) -> Step {
    validate_prefill_cp_platform(ctx)?;

    let prefill_cp = ctx.cfg.truthy(f::enable_prefill_cp);
    let attn_cp = int(ctx, f::attn_cp_size, 1);
    let instance = ctx.cfg.str(f::model_path).map(is_instance_connector).unwrap_or(false);
    // 0.5.18 checks the model for MiMo V2's CP-v2 only (and the deprecated switches below)
    let cp_v2 = MIMO_V2_CP_V2_ZIGZAG_ONLY.applies_to(ctx.release);
    if !instance && cp_v2 {
        mimo_v2_cp_v2(ctx, prefill_cp)?;
    } else if !instance {
        model_context_parallelism(ctx, prefill_cp, attn_cp)?;
    }

    if prefill_cp && ctx.cfg.is_none(f::cp_strategy) {
        let fixes = vec![
            ctx.fix_set("Split the sequence zigzag", f::cp_strategy, "zigzag", Applicability::Unsafe),
            ctx.fix_set("Split the sequence interleaved", f::cp_strategy, "interleave", Applicability::Unsafe),
        ];
        ctx.raise(&CP_STRATEGY_REQUIRED, &[], &[f::enable_prefill_cp], fixes)?;
    }
    if ctx.cfg.truthy(f::enable_prefill_context_parallel) && ctx.cfg.truthy(f::enable_dsa_prefill_context_parallel) {
        let fixes = vec![
            ctx.fix_remove("Keep the NSA switch: drop --enable-prefill-context-parallel", f::enable_prefill_context_parallel, Applicability::Unsafe),
            ctx.fix_remove("Keep the MLA/MHA switch: drop --enable-nsa-prefill-context-parallel", f::enable_dsa_prefill_context_parallel, Applicability::Unsafe),
        ];
        ctx.raise(&LEGACY_CP_FLAGS_EXCLUSIVE, &[], &[f::enable_prefill_context_parallel, f::enable_dsa_prefill_context_parallel], fixes)?;
    }

    let tp = int(ctx, f::tp_size, 1);
    // 0.5.18 divides by the DP size (--dp-size, with or without DP attention)
    let legacy = legacy_dp_attention(ctx);
    let attn_dp = if legacy { int(ctx, f::dp_size, 1) } else { int(ctx, f::attn_dp_size, 1) };
    let aiter = ctx.cfg.truthy(f::enable_aiter_allreduce_fusion);
    if attn_cp > 1 {
        if py_mod(tp, attn_cp) != Some(0) {
            let cp = largest_divisor_at_most(tp, attn_cp);
            let fixes = vec![ctx.fix_set(format!("Use --attn-cp-size {cp} (divides --tp-size {tp})"), f::attn_cp_size, &cp.to_string(), Applicability::Unsafe)];
            ctx.raise(&TP_DIV_ATTN_CP, &[], &[f::attn_cp_size, f::tp_size], fixes)?;
        }
        if py_mod(tp, attn_dp * attn_cp) != Some(0) {
            // attn_cp divides tp here: the attention-DP size that fits
            let dp = largest_divisor_at_most(tp / attn_cp.max(1), attn_dp);
            if legacy {
                let fixes = vec![ctx.fix_set(format!("Use --dp-size {dp}"), f::dp_size, &dp.to_string(), Applicability::Unsafe)];
                ctx.raise(&TP_DIV_DP_CP, &[], &[f::dp_size, f::attn_cp_size, f::tp_size], fixes)?;
            }
            let fixes = vec![ctx.fix_set(format!("Use --attn-dp-size {dp}"), f::attn_dp_size, &dp.to_string(), Applicability::Unsafe)];
            ctx.raise(&TP_DIV_ATTN_DP_CP, &[], &[f::attn_dp_size, f::attn_cp_size, f::tp_size], fixes)?;
        }
        if aiter {
            let fixes = vec![ctx.fix_remove("Drop --enable-aiter-allreduce-fusion", f::enable_aiter_allreduce_fusion, Applicability::Safe)];
            ctx.raise(&AITER_FUSION_CP, &[], &[f::enable_aiter_allreduce_fusion], fixes)?;
        }
    }
    let moe_dp = int(ctx, f::moe_dp_size, 1);
    let ep = int(ctx, f::ep_size, 1);
    if moe_dp > 1 {
        if py_mod(tp, moe_dp) != Some(0) {
            // a MoE DP size above 1 must also equal the attention CP size (checked next)
            let fixes = vec![if attn_cp > 1 {
                ctx.fix_set(format!("Use --moe-dp-size {attn_cp} (the attention CP size)"), f::moe_dp_size, &attn_cp.to_string(), Applicability::Unsafe)
            } else {
                ctx.fix_remove("Remove --moe-dp-size (SGLang uses 1)", f::moe_dp_size, Applicability::Unsafe)
            }];
            ctx.raise(&TP_DIV_MOE_DP, &[], &[f::moe_dp_size, f::tp_size], fixes)?;
        }
        if ep * moe_dp > tp {
            // moe_dp divides tp here
            let size = (tp / moe_dp).max(1);
            let fixes = vec![ctx.fix_set(format!("Use --ep-size {size} (--tp-size / --moe-dp-size)"), f::ep_size, &size.to_string(), Applicability::Unsafe)];
            ctx.raise(&EP_MOE_DP_LE_TP, &[], &[f::ep_size, f::moe_dp_size, f::tp_size], fixes)?;
        }
        if int(ctx, f::pp_size, 1) != 1 {
            let fixes = vec![ctx.fix_remove("Drop --pp-size", f::pp_size, Applicability::Unsafe)];
            ctx.raise(&PP_WITH_MOE_DP, &[], &[f::pp_size, f::moe_dp_size], fixes)?;
        }
        if ep > 1 && ep * moe_dp != tp {
            if let Some(q) = py_floordiv(tp, moe_dp) {
                let fixes = vec![ctx.fix_set(format!("Use --ep-size {q}"), f::ep_size, &q.to_string(), Applicability::Unsafe)];
                ctx.raise(&EP_MOE_DP_EQ_TP, &[], &[f::ep_size, f::moe_dp_size, f::tp_size], fixes)?;
            }
        }
        if aiter {
            // parallel_hook.handle_context_parallelism#13: moe_dp_size > 1 implies attn_cp_size
            // == moe_dp_size > 1 (#14 below), so #8 above already fired.
            ctx.raise(&AITER_FUSION_CP, &[], &[f::enable_aiter_allreduce_fusion], vec![])?;
        }
    }
    if attn_cp != moe_dp && moe_dp != 1 {
        let fixes = vec![ctx.fix_set(
            format!("Use --attn-cp-size {moe_dp}"),
            f::attn_cp_size,
            &moe_dp.to_string(),
            Applicability::Unsafe,
        )];
        let _ = ctx.raise(&ATTN_CP_NE_MOE_DP, &[], &[f::moe_dp_size, f::attn_cp_size], fixes);
    }
    // init_cp_strategy: cp_strategy is limited by argparse choices, nothing else can fail.
    Ok(())
}

/// `parse_connector_type(model_path) == ConnectorType.INSTANCE` (`instance://...`).
fn is_instance_connector(path: &str) -> bool {
    // re.match(r"(.+)://(.*)"): greedy, so the scheme is everything before the last "://".
    path.rfind("://").map(|i| path.get(..i) == Some("instance")).unwrap_or(false)
}

/// The model-dependent start of `handle_context_parallelism`: `_boundary_parallelism_overrides`
/// (Nemotron-H, LongCat-Flash by the text config's model type), the HIP / DeepSeek V3.2 / MiMo V2
/// prefill-CP checks (by the first architecture), then `resolve_cp_tp_group_sharing`, which is
/// not modelled (GLM-5 Next / Qwen4 Exp only).
fn model_context_parallelism(ctx: &mut Ctx, prefill_cp: bool, attn_cp: i64) -> Step {
    // A family inferred from the name alone does not decide a raise.
    let known = ctx.model.filter(|m| m.from != crate::models::FactsFrom::InferredFamily).and_then(|m| {
        let raw = m.raw?;
        let text_type = if raw.text_config_key.is_some() { raw.text_model_type.as_deref()? } else { raw.model_type.as_deref()? };
        Some((m.architecture?, text_type, m.derived.is_multimodal))
    });
    let Some((arch, text_type, multimodal)) = known else {
        model_context_parallelism_not_run(ctx, prefill_cp, attn_cp);
        return Ok(());
    };
    if matches!(text_type, "nemotron_h" | "nemotron_h_puzzle") && attn_cp > 1 {
        let fixes = vec![ctx.fix_remove("Drop --attn-cp-size", f::attn_cp_size, Applicability::Unsafe)];
        ctx.raise(&NEMOTRON_H_NO_ATTN_CP, &[], &[f::attn_cp_size], fixes)?;
    }
    if text_type == "longcat_flash" && prefill_cp && attn_cp > 1 {
        // Without prefill CP the attention CP size is accepted, so drop the switch.
        let fixes = vec![ctx.fix_remove("Drop --enable-prefill-cp", f::enable_prefill_cp, Applicability::Unsafe)];
        ctx.raise(&LONGCAT_FLASH_NO_PREFILL_CP, &[], &[f::enable_prefill_cp, f::attn_cp_size], fixes)?;
    }
    if prefill_cp {
        if ctx.hw.is_hip() && arch != "DeepseekV4ForCausalLM" {
            let fixes = vec![ctx.fix_remove("Drop --enable-prefill-cp", f::enable_prefill_cp, Applicability::Unsafe)];
            ctx.raise(&PREFILL_CP_HIP_V4_ONLY, &[("model_arch!r", &str_repr(arch))], &[f::enable_prefill_cp], fixes)?;
        }
        if arch == "DeepseekV32ForCausalLM" && ctx.cfg.is(f::cp_strategy, "zigzag") {
            let fixes = vec![ctx.fix_set("Use --cp-strategy interleave", f::cp_strategy, "interleave", Applicability::Safe)];
            ctx.raise(&V32_PREFILL_CP_NO_ZIGZAG, &[], &[f::cp_strategy, f::enable_prefill_cp], fixes)?;
        }
        if matches!(arch, "MiMoV2ForCausalLM" | "MiMoV2FlashForCausalLM") {
            if ctx.cfg.is_unknown(f::cp_strategy) {
                ctx.skip(site("parallel_hook.handle_context_parallelism", "MiMo V2 prefill CP only supports --cp-strategy"), NotRunReason::UnknownValue);
                return Ok(());
            }
            if !ctx.cfg.is(f::cp_strategy, "zigzag") {
                let fixes = vec![ctx.fix_set("Use --cp-strategy zigzag", f::cp_strategy, "zigzag", Applicability::Safe)];
                ctx.raise(&MIMO_V2_PREFILL_CP_ZIGZAG_ONLY, &[], &[f::cp_strategy, f::enable_prefill_cp], fixes)?;
            }
            // A multimodal MiMo V2 must serve text only: no such config is public to record it
            // with, so it is decided only for a text-only one.
            if multimodal != Some(false) && !ctx.cfg.truthy(f::language_only) && !ctx.cfg.truthy(f::language_model_only) {
                ctx.model_config(site("parallel_hook.handle_context_parallelism", "MiMo V2 prefill CP only supports text inference;"));
            }
        }
    }
    // resolve_cp_tp_group_sharing: only for these architectures, and not modelled.
    if prefill_cp && attn_cp > 1 && matches!(arch, "Glm5NextForConditionalGeneration" | "Qwen4ExpForConditionalGeneration") {
        for message in [
            "CP-TP group sharing requires --attn-cp-size",
            "CP-TP group sharing requires --cp-strategy",
            "--speculative-algorithm is not supported with CP-TP",
            "CP/TP group sharing only supports DFLASH",
            "--{flag} is not supported with CP-TP group sharing.",
            "{name}={count} must be divisible by --tp-size",
        ] {
            ctx.model_config(site("cp_tp_group_sharing_hook.resolve_cp_tp_group_sharing", message));
        }
    }
    Ok(())
}

/// 0.5.18's model checks of `_handle_context_parallelism`: a model of `CP_V2_DEFAULT_MODEL_CLASSES`
/// turns `SGLANG_ENABLE_CP_V2` on unless it is set; MiMo V2 (not a DSA model, so always one
/// that does) then allows prefill CP with the zigzag strategy and text only.
fn mimo_v2_cp_v2(ctx: &mut Ctx, prefill_cp: bool) -> Step {
    if !prefill_cp {
        return Ok(());
    }
    let zigzag_site = site("parallel_hook.handle_context_parallelism", "MiMo V2 CP-v2 only supports --cp-strategy zigzag.");
    let text_site = site("parallel_hook.handle_context_parallelism", "MiMo V2 CP-v2 only supports text inference;");
    let known = ctx.model.filter(|m| m.from != crate::models::FactsFrom::InferredFamily).and_then(|m| Some((m.architecture?, m.derived.is_multimodal)));
    let Some((arch, multimodal)) = known else {
        ctx.model_config(zigzag_site);
        ctx.model_config(text_site);
        return Ok(());
    };
    if !matches!(arch, "MiMoV2ForCausalLM" | "MiMoV2FlashForCausalLM") {
        return Ok(());
    }
    // EnvBool: set to another value than true/1/yes/y (case-insensitive) reads False
    let cp_v2 = ctx.env("SGLANG_ENABLE_CP_V2").is_none() || env_bool(ctx, "SGLANG_ENABLE_CP_V2");
    if !cp_v2 {
        return Ok(());
    }
    if ctx.cfg.is_unknown(f::cp_strategy) {
        ctx.skip(zigzag_site, NotRunReason::UnknownValue);
        return Ok(());
    }
    if !ctx.cfg.is(f::cp_strategy, "zigzag") {
        let fixes = vec![ctx.fix_set("Use --cp-strategy zigzag", f::cp_strategy, "zigzag", Applicability::Safe)];
        ctx.raise(&MIMO_V2_CP_V2_ZIGZAG_ONLY, &[], &[f::cp_strategy, f::enable_prefill_cp], fixes)?;
    }
    if !ctx.cfg.truthy(f::language_only) && !ctx.cfg.truthy(f::language_model_only) {
        match multimodal {
            Some(true) => {
                let fixes = vec![ctx.fix_add_flag("Add --language-only", f::language_only, Applicability::Unsafe)];
                ctx.raise(&MIMO_V2_CP_V2_TEXT_ONLY, &[], &[f::enable_prefill_cp, f::language_only], fixes)?;
            }
            Some(false) => {}
            None => ctx.model_config(text_site),
        }
    }
    Ok(())
}

/// The same checks, the model's config not known: recorded as not run.
fn model_context_parallelism_not_run(ctx: &mut Ctx, prefill_cp: bool, attn_cp: i64) {
    // Model-dependent: _boundary_parallelism_overrides (Nemotron-H, LongCat-Flash), the
    // HIP / DeepSeek V3.2 / MiMo V2 prefill-CP checks and resolve_cp_tp_group_sharing.
    if attn_cp > 1 {
        ctx.model_config(site("parallel_hook._boundary_parallelism_overrides", "Nemotron-H does not support --attn-cp-size"));
    }
    if prefill_cp && attn_cp > 1 {
        ctx.model_config(site("parallel_hook._boundary_parallelism_overrides", "LongCat-Flash does not support --enable-prefill-cp"));
        ctx.model_config(site("cp_tp_group_sharing_hook.resolve_cp_tp_group_sharing", "CP-TP group sharing requires --attn-cp-size"));
        // The rest of resolve_cp_tp_group_sharing, for GLM-5 Next / Qwen4 Exp only.
        ctx.model_config(site("cp_tp_group_sharing_hook.resolve_cp_tp_group_sharing", "CP-TP group sharing requires --cp-strategy"));
        if !ctx.cfg.is_none(f::speculative_algorithm) {
            ctx.model_config(site("cp_tp_group_sharing_hook.resolve_cp_tp_group_sharing", "--speculative-algorithm is not supported with CP-TP"));
            ctx.model_config(site("cp_tp_group_sharing_hook.resolve_cp_tp_group_sharing", "CP/TP group sharing only supports DFLASH"));
        }
        ctx.model_config(site("cp_tp_group_sharing_hook.resolve_cp_tp_group_sharing", "--{flag} is not supported with CP-TP group sharing."));
        if ctx.cfg.is(f::disaggregation_mode, "prefill") && super::shared::envs::env_bool(ctx, "SGLANG_DISAGG_STAGING_BUFFER") {
            ctx.model_config(site("cp_tp_group_sharing_hook.resolve_cp_tp_group_sharing", "SGLANG_DISAGG_STAGING_BUFFER is not supported with CP-TP"));
        }
        ctx.model_config(site("cp_tp_group_sharing_hook.resolve_cp_tp_group_sharing", "{name}={count} must be divisible by --tp-size"));
    }
    if prefill_cp {
        if ctx.hw.is_hip() {
            ctx.model_config(site("parallel_hook.handle_context_parallelism", "Prefill CP on HIP is only supported for DeepseekV4ForCausalLM,"));
        }
        if ctx.cfg.is(f::cp_strategy, "zigzag") {
            ctx.model_config(site("parallel_hook.handle_context_parallelism", "DeepSeek V3.2 prefill CP does not support"));
        }
        ctx.model_config(site("parallel_hook.handle_context_parallelism", "MiMo V2 prefill CP only supports --cp-strategy"));
        // MiMo V2 (multimodal) with zigzag CP must serve text only
        if ctx.cfg.is(f::cp_strategy, "zigzag") && !ctx.cfg.truthy(f::language_only) && !ctx.cfg.truthy(f::language_model_only) {
            ctx.model_config(site("parallel_hook.handle_context_parallelism", "MiMo V2 prefill CP only supports text inference;"));
        }
    }
}

/// `handle_shared_experts_tp`.
pub fn handle_shared_experts_tp(ctx: &mut Ctx) -> Step {
    let Some(size) = ctx.cfg.int(f::shared_experts_tp_size) else { return Ok(()) };
    let tp = int(ctx, f::tp_size, 1);
    let attn_tp = py_floordiv(tp, int(ctx, f::attn_dp_size, 1))
        .and_then(|v| py_floordiv(v, int(ctx, f::attn_cp_size, 1)))
        .unwrap_or(0);
    if size < 1 || py_mod(attn_tp, size) != Some(0) {
        let mut fixes = Vec::new();
        if attn_tp > 0 {
            if let Some(d) = (1..=size.clamp(1, attn_tp)).rev().find(|d| attn_tp % d == 0) {
                fixes.push(ctx.fix_set(
                    format!("Use --shared-experts-tp-size {d}"),
                    f::shared_experts_tp_size,
                    &d.to_string(),
                    Applicability::Unsafe,
                ));
            }
        }
        let args: &Args = &[("size", &size), ("attn_tp_size", &attn_tp)];
        ctx.raise(&SHARED_EXPERTS_TP_DIVISOR, args, &[f::shared_experts_tp_size], fixes)?;
    }
    // #2 (an `instance://` model path) never fires: SGLang cannot build the ModelConfig of such
    // a path (its remote-instance connector needs a device), and attention_hook builds it before
    // this hook (see tools/coverage.py). #3 needs the model's (first) architecture: Kimi-K3 only.
    let only_kimi = site("parallel_hook.handle_shared_experts_tp", "--shared-experts-tp-size is only supported");
    // A family inferred from the name alone does not decide a raise.
    let architecture = ctx.model_fact(only_kimi, |m| m.architecture.filter(|_| m.from != crate::models::FactsFrom::InferredFamily));
    let Some(arch) = architecture else {
        ctx.skip(site("parallel_hook.handle_shared_experts_tp", "--shared-experts-tp-size requires an expert-parallel"), NotRunReason::ModelConfig);
        return Ok(());
    };
    if arch != "KimiK3ForConditionalGeneration" {
        let fixes = vec![ctx.fix_remove("Drop --shared-experts-tp-size (Kimi-K3 only)", f::shared_experts_tp_size, Applicability::Safe)];
        ctx.raise(&SHARED_EXPERTS_TP_KIMI_K3_ONLY, &[], &[f::shared_experts_tp_size], fixes)?;
    }
    let a2a = ctx.cfg.str(f::moe_a2a_backend).unwrap_or("none").to_string();
    if !matches!(a2a.as_str(), "deepep" | "megamoe" | "mooncake" | "ascend_fuseep" | "mori") {
        let fixes = vec![
            ctx.fix_set("Use --moe-a2a-backend deepep", f::moe_a2a_backend, "deepep", Applicability::Unsafe),
            ctx.fix_remove("Drop --shared-experts-tp-size", f::shared_experts_tp_size, Applicability::Unsafe),
        ];
        ctx.raise(&SHARED_EXPERTS_TP_NEEDS_A2A, &[], &[f::shared_experts_tp_size, f::moe_a2a_backend], fixes)?;
    }
    Ok(())
}

/// `handle_eplb_and_dispatch`.
pub fn handle_eplb_and_dispatch(ctx: &mut Ctx) -> Step {
    let eplb = ctx.cfg.truthy(f::enable_eplb);
    if eplb && ctx.cfg.is_none(f::expert_distribution_recorder_mode) {
        ctx.cfg.set(f::expert_distribution_recorder_mode, PyValue::Str("stat".into()));
        ctx.warn(&EPLB_RECORDER_WARNING, &[], &[f::enable_eplb], vec![]);
    }
    let needs_rank_invariant = moe_a2a_backend_after_a2a_hook(ctx) == "none";
    if (eplb || !ctx.cfg.is(f::init_expert_location, "trivial")) && ctx.cfg.is_none(f::ep_dispatch_algorithm) {
        let algo = if needs_rank_invariant { "dynamic" } else { "static" };
        ctx.cfg.set(f::ep_dispatch_algorithm, PyValue::Str(algo.into()));
    }
    let algo = ctx.cfg.str(f::ep_dispatch_algorithm).unwrap_or("").to_string();
    if needs_rank_invariant && (algo == "static" || algo == "lp") {
        let fixes = vec![ctx.fix_set(
            "Use --ep-dispatch-algorithm dynamic",
            f::ep_dispatch_algorithm,
            "dynamic",
            Applicability::Safe,
        )];
        let args: &Args = &[("cfg.ep_dispatch_algorithm", &algo)];
        ctx.raise(&EP_DISPATCH_NEEDS_A2A, args, &[f::ep_dispatch_algorithm], fixes)?;
    }
    if eplb && !ctx.cfg.is(f::ep_join_mode, "scale") && ep_size_after_a2a_hook(ctx) <= 1 {
        let tp = int(ctx, f::tp_size, 1);
        let mut fixes = Vec::new();
        if tp > 1 {
            fixes.push(ctx.fix_set(format!("Use --ep-size {tp}"), f::ep_size, &tp.to_string(), Applicability::Unsafe));
        }
        fixes.push(ctx.fix_remove("Drop --enable-eplb", f::enable_eplb, Applicability::Unsafe));
        let _ = ctx.raise(&EPLB_NEEDS_EP, &[], &[f::enable_eplb, f::ep_size], fixes);
    }
    Ok(())
}

/// `handle_expert_distribution_metrics`.
pub fn handle_expert_distribution_metrics(ctx: &mut Ctx) -> Step {
    // 0.5.18: the removed environment variable stops start-up whatever its value
    if ctx.env("SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC").is_some() {
        let fixes = vec![ctx.fix_unset_env("Unset SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC (use --expert-balancedness-report-mode)", "SGLANG_ENABLE_EPLB_BALANCEDNESS_METRIC", Applicability::Safe)];
        ctx.raise(&BALANCEDNESS_ENV_REMOVED, &[], &[], fixes)?;
    }
    // overrides.should_report_expert_balancedness
    if !ctx.cfg.is(f::expert_balancedness_report_mode, "off") && ctx.cfg.is_none(f::expert_distribution_recorder_mode) {
        ctx.cfg.set(f::expert_distribution_recorder_mode, PyValue::Str("stat".into()));
    }
    if ctx.cfg.is_none(f::expert_distribution_recorder_buffer_size) {
        let x = ctx.cfg.get(f::eplb_rebalance_num_iterations).clone();
        if !x.is_none() {
            ctx.cfg.set(f::expert_distribution_recorder_buffer_size, x);
        } else if !ctx.cfg.is_none(f::expert_distribution_recorder_mode) {
            ctx.cfg.set(f::expert_distribution_recorder_buffer_size, PyValue::Int(1000));
        }
    }
    Ok(())
}

/// `load_balance_method` after `serving_hook.handle_load_balance_method`, which resolves
/// "auto" (follow_bootstrap_room on a PD prefill server, round_robin otherwise).
fn load_balance_method(ctx: &Ctx) -> String {
    match ctx.cfg.str(f::load_balance_method) {
        Some("auto") | None => {
            if ctx.cfg.is(f::disaggregation_mode, "prefill") { "follow_bootstrap_room" } else { "round_robin" }.into()
        }
        Some(s) => s.to_string(),
    }
}

/// `handle_elastic_ep`.
pub fn handle_elastic_ep(ctx: &mut Ctx) -> Step {
    // 0.5.18: the deprecated --elastic-ep-rejoin reads as --elastic-ep-join-mode recover
    if ctx.cfg.truthy(f::elastic_ep_rejoin) && EEP_REJOIN_CONFLICT.applies_to(ctx.release) {
        if ctx.cfg.is_none(f::ep_join_mode) {
            ctx.warn(&EEP_REJOIN_DEPRECATED, &[], &[f::elastic_ep_rejoin], vec![]);
            ctx.cfg.set(f::ep_join_mode, PyValue::Str("recover".into()));
        } else if !ctx.cfg.is(f::ep_join_mode, "recover") {
            let mode = show(ctx, f::ep_join_mode);
            let fixes = vec![
                ctx.fix_remove("Drop --elastic-ep-rejoin", f::elastic_ep_rejoin, Applicability::Unsafe),
                ctx.fix_set("Use --elastic-ep-join-mode recover", f::ep_join_mode, "recover", Applicability::Unsafe),
            ];
            ctx.raise(&EEP_REJOIN_CONFLICT, &[("cfg.ep_join_mode", &mode)], &[f::elastic_ep_rejoin, f::ep_join_mode], fixes)?;
        }
    }
    let backend_set = !ctx.cfg.is_none(f::elastic_ep_backend);
    let tp = int(ctx, f::tp_size, 1);
    if backend_set {
        if ctx.cfg.truthy(f::enable_eplb) {
            if ctx.cfg.is(f::eplb_algorithm, "auto") {
                ctx.cfg.set(f::eplb_algorithm, PyValue::Str("elasticity_aware".into()));
            }
            let alg = ctx.cfg.str(f::eplb_algorithm).unwrap_or("");
            if alg != "elasticity_aware" && alg != "elasticity_aware_hierarchical" {
                let fixes = vec![ctx.fix_remove("Let SGLang pick elasticity_aware", f::eplb_algorithm, Applicability::Safe)];
                ctx.raise(&EEP_EPLB_ALGORITHM, &[], &[f::eplb_algorithm], fixes)?;
            }
        }
        if int(ctx, f::pp_size, 1) != 1 {
            let fixes = vec![ctx.fix_remove("Drop --pp-size", f::pp_size, Applicability::Unsafe)];
            ctx.raise(&EEP_PP, &[], &[f::pp_size, f::elastic_ep_backend], fixes)?;
        }
        if ctx.cfg.is(f::elastic_ep_backend, "mooncake") {
            let dev = ctx.cfg.str(f::mooncake_ib_device).map(str::to_string);
            match validate_ib_devices(ctx, dev.as_deref(), f::mooncake_ib_device) {
                Some(v) => ctx.cfg.set(f::mooncake_ib_device, v),
                None => return Ok(()),
            }
        }
    }
    let join_mode = ctx.cfg.str(f::ep_join_mode).map(str::to_string);
    let offset = int(ctx, f::ep_join_rank_offset, 0);
    if let Some(mode) = &join_mode {
        if !backend_set {
            let fixes = vec![ctx.fix_set("Name the elastic backend", f::elastic_ep_backend, "mooncake", Applicability::Unsafe)];
            ctx.raise(&EEP_JOIN_NEEDS_BACKEND, &[], &[f::ep_join_mode], fixes)?;
        }
        if mode == "scale" {
            let node_rank = int(ctx, f::node_rank, 0);
            if node_rank != 1 {
                let fixes = vec![ctx.fix_set("Launch the joiner as --node-rank 1", f::node_rank, "1", Applicability::Unsafe)];
                let args: &Args = &[("cfg.node_rank", &node_rank)];
                ctx.raise(&EEP_SCALE_NODE_RANK, args, &[f::node_rank, f::ep_join_mode], fixes)?;
            }
            if offset <= 0 {
                ctx.raise(&EEP_SCALE_OFFSET, &[], &[f::ep_join_rank_offset, f::ep_join_mode], vec![])?;
            }
        }
    }
    // parallel_hook.handle_elastic_ep#7 (offset >= 0) is unreachable: a negative offset fails
    // #5 or #6 first.
    if offset != 0 && join_mode.as_deref() != Some("scale") {
        let fixes = vec![ctx.fix_remove("Drop --elastic-ep-join-rank-offset", f::ep_join_rank_offset, Applicability::Safe)];
        ctx.raise(&EEP_OFFSET_ONLY_SCALE, &[], &[f::ep_join_rank_offset], fixes)?;
    }
    let max_ep = ctx.cfg.int(f::max_ep_size);
    if let Some(max_ep) = max_ep {
        if !backend_set {
            let fixes = vec![ctx.fix_remove("Drop --max-ep-size", f::max_ep_size, Applicability::Unsafe)];
            ctx.raise(&EEP_MAX_NEEDS_BACKEND, &[], &[f::max_ep_size], fixes)?;
        }
        if max_ep <= 0 {
            let fixes = vec![ctx.fix_remove("Drop --max-ep-size (no elastic scale-up)", f::max_ep_size, Applicability::Unsafe)];
            ctx.raise(&EEP_MAX_POSITIVE, &[], &[f::max_ep_size], fixes)?;
        }
    }
    let scaling = backend_set && max_ep.is_some_and(|m| m > tp);
    let initial = ctx.cfg.int(f::elastic_ep_initial_size);
    if initial.is_some() && !scaling {
        let fixes = vec![ctx.fix_remove("Drop --elastic-ep-initial-size", f::elastic_ep_initial_size, Applicability::Unsafe)];
        ctx.raise(&EEP_INITIAL_NEEDS_SCALING, &[], &[f::elastic_ep_initial_size], fixes)?;
    }
    if !scaling {
        return Ok(());
    }
    let max_ep = max_ep.unwrap_or(0);
    let attn_dp = int(ctx, f::attn_dp_size, 1);
    let attn_cp = int(ctx, f::attn_cp_size, 1);
    let dense = ctx.cfg.get(f::moe_dense_tp_size).clone();
    // 0.5.18 checks neither the attention topology nor the replica widths (nor the DCP width)
    let attn_tp = if EEP_TOPOLOGY.applies_to(ctx.release) {
        match elastic_topology(ctx, tp, attn_dp, attn_cp, max_ep, initial, offset, join_mode.as_deref(), &dense)? {
            Some(attn_tp) => attn_tp,
            None => return Ok(()),
        }
    } else {
        1
    };
    if ctx.cfg.float(f::elastic_ep_scale_timeout).is_some_and(|t| t <= 0.0) {
        let fixes = vec![ctx.fix_remove("Drop --elastic-ep-scale-timeout (its default)", f::elastic_ep_scale_timeout, Applicability::Unsafe)];
        ctx.raise(&EEP_TIMEOUT, &[], &[f::elastic_ep_scale_timeout], fixes)?;
    }
    if int(ctx, f::tokenizer_worker_num, 1) != 1 {
        let fixes = vec![ctx.fix_remove("Drop --tokenizer-worker-num", f::tokenizer_worker_num, Applicability::Unsafe)];
        ctx.raise(&EEP_TOKENIZER_WORKERS, &[], &[f::tokenizer_worker_num], fixes)?;
    }
    if ctx.cfg.truthy(f::use_ray) {
        let fixes = vec![ctx.fix_remove("Drop --use-ray", f::use_ray, Applicability::Unsafe)];
        ctx.raise(&EEP_RAY, &[], &[f::use_ray], fixes)?;
    }
    if ctx.cfg.truthy(f::enable_elastic_expert_backup) {
        let fixes = vec![ctx.fix_remove("Drop --enable-elastic-expert-backup", f::enable_elastic_expert_backup, Applicability::Unsafe)];
        ctx.raise(&EEP_BACKUP, &[], &[f::enable_elastic_expert_backup], fixes)?;
    }
    ctx.cfg.set(f::enable_dp_attention_local_control_broadcast, PyValue::Bool(true));
    if join_mode.as_deref() == Some("scale") {
        let Some(init) = initial else {
            return ctx.raise(&EEP_JOINER_INITIAL, &[], &[f::ep_join_mode], vec![]);
        };
        if init > offset {
            let args: &Args = &[("cfg.elastic_ep_initial_size", &init), ("cfg.ep_join_rank_offset", &offset)];
            ctx.raise(&EEP_INITIAL_LE_OFFSET, args, &[f::elastic_ep_initial_size, f::ep_join_rank_offset], vec![])?;
        }
        let join_target = offset + tp;
        if join_target > max_ep {
            let args: &Args = &[("join_target", &join_target), ("cfg.max_ep_size", &max_ep)];
            ctx.raise(&EEP_JOIN_TARGET, args, &[f::max_ep_size, f::ep_join_rank_offset], vec![])?;
        }
        if tp == 1 && dense.as_int() != Some(1) {
            let fixes = vec![ctx.fix_set("Set --moe-dense-tp-size 1", f::moe_dense_tp_size, "1", Applicability::Safe)];
            ctx.raise(&EEP_SINGLE_RANK_DENSE, &[], &[f::moe_dense_tp_size], fixes)?;
        }
    } else {
        if initial.is_none() {
            ctx.cfg.set(f::elastic_ep_initial_size, PyValue::Int(tp));
        }
        let init = ctx.cfg.int(f::elastic_ep_initial_size).unwrap_or(tp);
        if init != tp {
            let args: &Args = &[("cfg.tp_size", &tp)];
            let fixes = vec![ctx.fix_set(format!("Set --elastic-ep-initial-size {tp} (the launch-time TP size)"), f::elastic_ep_initial_size, &tp.to_string(), Applicability::Unsafe)];
            ctx.raise(&EEP_PRIMARY_INITIAL, args, &[f::elastic_ep_initial_size, f::tp_size], fixes)?;
        }
    }
    if ctx.cfg.int(f::elastic_ep_initial_size).is_some_and(|i| i <= 0) {
        ctx.raise(&EEP_INITIAL_POSITIVE, &[], &[f::elastic_ep_initial_size], vec![])?;
    }
    let lbm = load_balance_method(ctx);
    if lbm != "round_robin" {
        let fixes = vec![ctx.fix_set("Use --load-balance-method round_robin", f::load_balance_method, "round_robin", Applicability::Safe)];
        let args: &Args = &[("cfg.load_balance_method", &lbm)];
        ctx.raise(&EEP_ROUND_ROBIN, args, &[f::load_balance_method], fixes)?;
    }
    if !ctx.cfg.is(f::elastic_ep_backend, "mooncake") {
        let args: &Args = &[("cfg.elastic_ep_backend", &show(ctx, f::elastic_ep_backend))];
        let fixes = vec![ctx.fix_set("Use the mooncake elastic backend", f::elastic_ep_backend, "mooncake", Applicability::Unsafe)];
        ctx.raise(&EEP_MOONCAKE, args, &[f::elastic_ep_backend], fixes)?;
    }
    // #26 (pp_size == 1) is unreachable: #2 above rejects pp_size != 1 for any elastic backend.
    let dcp = int(ctx, f::dcp_size, 1);
    if EEP_DCP.applies_to(ctx.release) && py_mod(attn_tp, dcp) != Some(0) {
        let args: &Args = &[("cfg.dcp_size", &dcp), ("attn_tp_size", &attn_tp)];
        let fixes = vec![ctx.fix_remove("Remove --dcp-size (SGLang uses 1)", f::dcp_size, Applicability::Unsafe)];
        ctx.raise(&EEP_DCP, args, &[f::dcp_size], fixes)?;
    }
    // #28/#29 read the resolved cuda_graph_config (the cuda_graph family resolves it in
    // handle_cuda_graph_config, before this hook). The default prefill backend depends on the
    // model (multimodal, hybrid and DeepSeek-V4 models turn it off), so a prefill phase the
    // command does not set stops the check below.
    let all_off = ctx.cfg.truthy(f::disable_cuda_graph);
    let decode = match phase_backend(ctx, "decode") {
        Some(b) => b,
        None if all_off || ctx.cfg.truthy(f::disable_decode_cuda_graph) => "disabled".to_string(),
        None => ctx.cfg.str(f::cuda_graph_backend_decode).unwrap_or("full").to_string(),
    };
    if EEP_GRAPHS_DISABLED.applies_to(ctx.release) {
        // 0.5.18: CUDA graphs are not recaptured at all; decode and prefill must both be off.
        // The XPU/NPU/HPU/MPS platform steps rework the phases for their devices: where the
        // device's step was not modelled, its phases are not known here.
        let device = ctx.cfg.str(f::device).unwrap_or("cuda").to_string();
        let step = format!("handle_{device}_backends");
        if ctx.not_modelled.iter().any(|s| s.ends_with(step.as_str())) {
            ctx.skip(site("parallel_hook.handle_elastic_ep", "Elastic EP runtime scale-up requires decode and prefill"), NotRunReason::Hardware);
            return Ok(());
        }
        let prefill_off = all_off
            || ctx.cfg.truthy(f::disable_prefill_cuda_graph)
            || ctx.cfg.is(f::cuda_graph_backend_prefill, "disabled")
            || phase_backend(ctx, "prefill").as_deref() == Some("disabled");
        if decode == "disabled" && !prefill_off && ctx.cfg.is_none(f::cuda_graph_backend_prefill) {
            // the default prefill backend depends on the model (see elastic_graphs)
            ctx.model_config(site("parallel_hook.handle_elastic_ep", "Elastic EP runtime scale-up requires decode and prefill"));
            return Ok(());
        }
        if decode != "disabled" || !prefill_off {
            let fixes = vec![ctx.fix_add_flag("Disable CUDA graphs (--disable-cuda-graph)", f::disable_cuda_graph, Applicability::Unsafe)];
            ctx.raise(&EEP_GRAPHS_DISABLED, &[], &[f::cuda_graph_backend_decode, f::cuda_graph_backend_prefill, f::max_ep_size], fixes)?;
        }
    } else if !elastic_graphs(ctx, &decode, all_off)? {
        return Ok(());
    }
    if !attn_dp_enabled(ctx) {
        if EEP_ENABLE_DP_ATTENTION.applies_to(ctx.release) {
            // 0.5.18: --enable-dp-attention over --dp-size groups (cleared for --dp-size 1)
            let mut fix = ctx.fix_set(format!("Use pure DP attention (--dp-size {tp} --enable-dp-attention)"), f::dp_size, &tp.to_string(), Applicability::Unsafe);
            if !ctx.cfg.is_explicit(f::enable_dp_attention) {
                fix.edits.extend(ctx.fix_add_flag("", f::enable_dp_attention, Applicability::Unsafe).edits);
            }
            ctx.raise(&EEP_ENABLE_DP_ATTENTION, &[], &[f::enable_dp_attention, f::dp_size], vec![fix])?;
        }
        let fixes = vec![ctx.fix_set(
            format!("Use pure attention DP (--attn-dp-size {tp})"),
            f::attn_dp_size,
            &tp.to_string(),
            Applicability::Unsafe,
        )];
        ctx.raise(&EEP_ATTN_DP, &[], &[f::attn_dp_size], fixes)?;
    }
    if !ctx.cfg.truthy(f::enable_dp_lm_head) {
        let fixes = vec![ctx.fix_add_flag("Add --enable-dp-lm-head", f::enable_dp_lm_head, Applicability::Safe)];
        ctx.raise(&EEP_DP_LM_HEAD, &[], &[f::enable_dp_lm_head], fixes)?;
    }
    if attn_cp != 1 {
        let args: &Args = &[("resolved.attn_cp_size", &attn_cp)];
        let fixes = vec![ctx.fix_set("Set --attn-cp-size 1", f::attn_cp_size, "1", Applicability::Unsafe)];
        ctx.raise(&EEP_ATTN_CP, args, &[f::attn_cp_size], fixes)?;
    }
    // #40 (moe_dp_size == 1) is unreachable: moe_dp_size > 1 needs attn_cp_size == moe_dp_size.
    let ep = ep_size_after_a2a_hook(ctx);
    if ep != tp {
        let fixes = vec![ctx.fix_set(format!("Use --ep-size {tp}"), f::ep_size, &tp.to_string(), Applicability::Unsafe)];
        let args: &Args = &[("resolved.ep_size", &ep), ("cfg.tp_size", &tp)];
        ctx.raise(&EEP_EP_EQ_TP, args, &[f::ep_size, f::tp_size], fixes)?;
    }
    let dp = int(ctx, f::dp_size, 1);
    if dp != tp && EEP_DP_EQ_TP.applies_to(ctx.release) {
        let fixes = vec![ctx.fix_set(format!("Use --dp-size {tp}"), f::dp_size, &tp.to_string(), Applicability::Unsafe)];
        let args: &Args = &[("cfg.dp_size", &dp), ("cfg.tp_size", &tp)];
        ctx.raise(&EEP_DP_EQ_TP, args, &[f::dp_size, f::tp_size], fixes)?;
    }
    let a2a = moe_a2a_backend_after_a2a_hook(ctx);
    if a2a != "nixl" {
        let fixes = vec![ctx.fix_set("Use the nixl MoE all-to-all backend", f::moe_a2a_backend, "nixl", Applicability::Unsafe)];
        let args: &Args = &[("resolved.moe_a2a_backend", &a2a)];
        let _ = ctx.raise(&EEP_NIXL, args, &[f::moe_a2a_backend], fixes);
    }
    Ok(())
}

/// The attention topology of an Elastic EP scale-up (0.5.23 on): `tp_size` split evenly into
/// attention DP and CP groups, each scale size a whole number of attention replicas, and dense
/// layers not TP-sharded when attention is. Returns the attention TP width, or None where the
/// hook stops without a report (the check read a value not known here).
#[allow(clippy::too_many_arguments)]
fn elastic_topology(ctx: &mut Ctx, tp: i64, attn_dp: i64, attn_cp: i64, max_ep: i64, initial: Option<i64>, offset: i64, join_mode: Option<&str>, dense: &PyValue) -> Result<Option<i64>, super::Raised> {
    if tp <= 0 || attn_dp <= 0 || attn_cp <= 0 || py_mod(tp, attn_dp * attn_cp) != Some(0) {
        let args: &Args = &[("cfg.tp_size", &tp), ("cfg.attn_dp_size", &attn_dp), ("resolved.attn_cp_size", &attn_cp)];
        // a size the command sets to zero or less: SGLang's default instead
        let culprit = [f::attn_cp_size, f::attn_dp_size].into_iter().find(|&d| ctx.cfg.is_explicit(d) && int(ctx, d, 1) <= 0);
        let fixes = culprit.map(|d| ctx.fix_remove(format!("Remove {} (SGLang uses 1)", ctx.flag(d)), d, Applicability::Unsafe)).into_iter().collect();
        return ctx.raise(&EEP_TOPOLOGY, args, &[f::tp_size, f::attn_dp_size, f::attn_cp_size], fixes).map(|()| None);
    }
    let attn_tp = tp / attn_dp / attn_cp;
    let replica = attn_tp * attn_cp;
    let mut sizes = vec![(max_ep, f::max_ep_size), (initial.filter(|&i| i != 0).unwrap_or(tp), f::elastic_ep_initial_size)];
    if join_mode == Some("scale") {
        sizes.push((offset, f::ep_join_rank_offset));
    }
    for (size, dest) in sizes {
        if size <= 0 || replica <= 0 || size % replica != 0 {
            // physical_ep_size_to_dp_size's ValueError, raised again as an AssertionError.
            // the scale-up ceiling is this launch's to choose (the others are the deployment's)
            let mut fixes = Vec::new();
            if dest == f::max_ep_size && replica > 0 && size > 0 {
                let up = (size + replica - 1) / replica * replica;
                fixes.push(ctx.fix_set(format!("Use --max-ep-size {up} (a multiple of {replica})"), f::max_ep_size, &up.to_string(), Applicability::Unsafe));
            }
            return ctx.raise(&EEP_REPLICA_DIVISIBLE, &[("ep_size", &size), ("attn_replica_size", &replica)], &[dest, f::max_ep_size], fixes).map(|()| None);
        }
    }
    if attn_tp > 1 && dense.as_int() != Some(1) {
        let fixes = vec![ctx.fix_set("Set --moe-dense-tp-size 1", f::moe_dense_tp_size, "1", Applicability::Safe)];
        let args: &Args = &[("cfg.moe_dense_tp_size", &dense.py_str())];
        return ctx.raise(&EEP_MOE_DENSE_TP, args, &[f::moe_dense_tp_size, f::max_ep_size], fixes).map(|()| None);
    }
    Ok(Some(attn_tp))
}

/// 0.5.23's CUDA-graph checks of an Elastic EP scale-up: decode full or disabled, prefill
/// disabled, and what full-graph recapture does not support. False where the hook stops
/// without a report.
fn elastic_graphs(ctx: &mut Ctx, decode: &str, all_off: bool) -> Result<bool, super::Raised> {
    if decode != "full" && decode != "disabled" {
        let fixes = vec![ctx.fix_set(
            "Use the full decode CUDA graph",
            f::cuda_graph_backend_decode,
            "full",
            Applicability::Unsafe,
        )];
        let decode_repr = format!("'{decode}'");
        return ctx.raise(&EEP_DECODE_GRAPH, &[("decode_backend", &decode_repr)], &[f::cuda_graph_backend_decode], fixes).map(|()| false);
    }
    let prefill_off = all_off
        || ctx.cfg.truthy(f::disable_prefill_cuda_graph)
        || ctx.cfg.is(f::cuda_graph_backend_prefill, "disabled")
        || phase_backend(ctx, "prefill").as_deref() == Some("disabled");
    if !prefill_off {
        if ctx.cfg.is_none(f::cuda_graph_backend_prefill) {
            ctx.model_config(site("parallel_hook.handle_elastic_ep", "Elastic EP runtime scale-up requires prefill"));
            return Ok(false);
        }
        let fixes = vec![ctx.fix_set(
            "Disable the prefill CUDA graph",
            f::cuda_graph_backend_prefill,
            "disabled",
            Applicability::Safe,
        )];
        return ctx.raise(&EEP_PREFILL_GRAPH, &[], &[f::cuda_graph_backend_prefill], fixes).map(|()| false);
    }
    // platform_hook.handle_platform_defaults (not modelled) fills `device` from torch: CUDA and
    // ROCm builds are both "cuda". The XPU/NPU/HPU/MPS platform hooks rework the CUDA-graph
    // phases for their devices, so for those the decode backend here is not known.
    let device = match ctx.cfg.str(f::device) {
        Some(d) => Some(d.to_string()),
        None if ctx.hw.is_cuda() || ctx.hw.is_hip() => Some("cuda".to_string()),
        None => None,
    };
    let known_device = matches!(device.as_deref(), Some("cuda") | Some("cpu"));
    if decode == "full" && !known_device {
        ctx.skip(site("parallel_hook.handle_elastic_ep", "Elastic EP CUDA graph recapture requires"), NotRunReason::NotImplemented);
    }
    if decode == "full" && known_device {
        if let Some(d) = device.as_deref().filter(|d| *d != "cuda") {
            let fixes = vec![ctx.fix_set(
                "Disable the decode CUDA graph",
                f::cuda_graph_backend_decode,
                "disabled",
                Applicability::Unsafe,
            )];
            let args: &Args = &[("cfg.device", &str_repr(d))];
            return ctx.raise(&EEP_GRAPH_CUDA, args, &[f::device], fixes).map(|()| false);
        }
        let checks: [(&'static Rule, bool, Field); 6] = [
            (&EEP_GRAPH_SPEC, !ctx.cfg.is_none(f::speculative_algorithm), f::speculative_algorithm),
            (&EEP_GRAPH_EMBEDDING, ctx.cfg.truthy(f::is_embedding), f::is_embedding),
            (&EEP_GRAPH_DLLM, !ctx.cfg.is_none(f::dllm_algorithm), f::dllm_algorithm),
            (&EEP_GRAPH_ENCODER, ctx.cfg.truthy(f::encoder_only), f::encoder_only),
            (&EEP_GRAPH_HOOKS, ctx.cfg.truthy(f::forward_hooks), f::forward_hooks),
            (&EEP_GRAPH_PDMUX, ctx.cfg.truthy(f::enable_pdmux), f::enable_pdmux),
        ];
        for (rule, failed, dest) in checks {
            if failed {
                let fixes = vec![ctx.fix_set(
                    "Disable the decode CUDA graph",
                    f::cuda_graph_backend_decode,
                    "disabled",
                    Applicability::Unsafe,
                )];
                return ctx.raise(rule, &[], &[dest], fixes).map(|()| false);
            }
        }
    }
    Ok(true)
}

/// The largest divisor of `n` that is at most `k` (1 when there is none): a size that divides.
fn largest_divisor_at_most(n: i64, k: i64) -> i64 {
    (1..=k.min(n)).rev().find(|d| n % d == 0).unwrap_or(1)
}
