//! Rules from SGLang's `sglang/srt/arg_groups/kv_shard_hook.py`: logical-page KV cache sharding
//! (`--enable-kv-cache-sharding`) on PD prefill workers, and its attention-backend gate
//! (`validate_kv_shard_attention_backend`). SGLang runs `handle_kv_cache_sharding` twice (after
//! context parallelism, and again at the end of resolution); the second run repeats the first's
//! checks on the values resolved since.
//!
//! What reads the model's config (speculative GLM DSA MTP, the DSA HiCache layout, encoder-decoder
//! and local-attention models, MLA vs GQA sharding, the DSA and MLA backend gates) is decided from
//! the model's facts, and reported as not run where they do not say.

use super::shared::cuda_graph_config::{is_locked, phase_backend, with_phase, DECODE, DISABLED, PREFILL};
use super::shared::envs::env_bool;
use super::shared::runtime_context::attn_dp_enabled;
use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::{Applicability, Fix};
use crate::fields::{f, Field};
use crate::hardware::Platform;
use crate::pyvalue::{str_repr, PyValue};
use crate::rules::{raises, site, warns, Args, Step};

pub static PREFILL_ONLY: Rule = Rule {
    code: "KVS001",
    name: kebab!("kv-sharding-needs-pd-prefill"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding is only supported on PD prefill"),
    explanation: expl!("With KV cache sharding each rank keeps only its stripe of every cached page, which is enough to hand pages to a decode server but not to decode locally. It runs on PD prefill workers only (--disaggregation-mode prefill)."),
    flags: &["--enable-kv-cache-sharding", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-kv-cache-sharding"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static SPECULATIVE: Rule = Rule {
    code: "KVS002",
    name: kebab!("kv-sharding-speculative-only-glm-dsa-mtp"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "KV sharding supports speculative decoding only for GLM DSA"),
    explanation: expl!("Sharded prefill supports one speculative setup only: GLM DSA models with their single NextN MTP layer, as EAGLE with --speculative-eagle-topk 1 (and no multi-layer EAGLE). Other algorithms, a top-k other than 1 (or none given) and other models are rejected."),
    flags: &["--enable-kv-cache-sharding", "--speculative-algorithm", "--speculative-eagle-topk", "--enable-multi-layer-eagle"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --speculative-algorithm NGRAM"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64"),
};

pub static DLLM: Rule = Rule {
    code: "KVS003",
    name: kebab!("kv-sharding-rejects-dllm"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support diffusion"),
    explanation: expl!("Diffusion language models are admitted outside the sharded scratch budget and resolve out of PD prefill mode, so they cannot use KV cache sharding."),
    flags: &["--enable-kv-cache-sharding", "--dllm-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --dllm-algorithm LowConfidence"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dllm-algorithm LowConfidence"),
};

pub static RADIX_BACKEND: Rule = Rule {
    code: "KVS004",
    name: kebab!("kv-sharding-needs-builtin-radix-cache"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding requires the built-in"),
    explanation: expl!("Sharded pages carry a rotation that only SGLang's built-in UnifiedRadixCache understands; another --radix-cache-backend cannot be used with KV cache sharding."),
    flags: &["--enable-kv-cache-sharding", "--radix-cache-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --radix-cache-backend my.module:Cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --radix-cache-backend my.module:Cache"),
};

pub static TREE_CORE: Rule = Rule {
    code: "KVS005",
    name: kebab!("kv-sharding-needs-python-tree-core"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding requires the Python UnifiedTreeCore"),
    explanation: expl!("KV cache sharding switches the radix tree core to its Python implementation (when SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND is unset); another explicitly chosen tree core does not track shard rotations. Unset the variable, set it to python, or disable the radix cache."),
    flags: &["--enable-kv-cache-sharding"],
    example_bad: ex!("SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND=rust python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding"),
    example_good: ex!("SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND=rust python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static EXTERNAL_LINKER: Rule = Rule {
    code: "KVS006",
    name: kebab!("kv-sharding-rejects-external-linker"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support --enable-unified-cache-external-linker"),
    explanation: expl!("The unified-cache external linker loads KV back through the flat allocator, which does not know about sharded pages."),
    flags: &["--enable-kv-cache-sharding", "--enable-unified-cache-external-linker"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --enable-unified-cache-external-linker"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker"),
};

pub static STREAMING_SESSION: Rule = Rule {
    code: "KVS007",
    name: kebab!("kv-sharding-rejects-streaming-sessions"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support streaming"),
    explanation: expl!("Streaming sessions keep virtual radix nodes that carry no shard-rotation metadata, so they cannot be combined with KV cache sharding."),
    flags: &["--enable-kv-cache-sharding", "--enable-streaming-session"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --enable-streaming-session"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-streaming-session"),
};

pub static SESSION_RADIX: Rule = Rule {
    code: "KVS008",
    name: kebab!("kv-sharding-rejects-session-radix-cache"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support session radix"),
    explanation: expl!("The session radix cache is not sharding-aware yet."),
    flags: &["--enable-kv-cache-sharding", "--enable-session-radix-cache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --enable-session-radix-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-session-radix-cache"),
};

pub static FLEXKV: Rule = Rule {
    code: "KVS009",
    name: kebab!("kv-sharding-rejects-flexkv"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support --enable-flexkv"),
    explanation: expl!("FlexKV loads KV back through the stock flat allocator, which does not place sharded pages."),
    flags: &["--enable-kv-cache-sharding", "--enable-flexkv"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --enable-flexkv"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-flexkv"),
};

pub static UNIFIED_MEMORY: Rule = Rule {
    code: "KVS010",
    name: kebab!("kv-sharding-rejects-unified-memory"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support --enable-unified-memory"),
    explanation: expl!("The unified memory pool uses its own virtual-id allocator and layout, which KV cache sharding cannot stripe."),
    flags: &["--enable-kv-cache-sharding", "--enable-unified-memory"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --enable-unified-memory"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory"),
};

pub static DCP: Rule = Rule {
    code: "KVS011",
    name: kebab!("kv-sharding-vs-decode-context-parallelism"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding and decode context parallelism"),
    explanation: expl!("KV cache sharding and decode context parallelism (--dcp-size > 1) both widen the allocator's index space; only one of them can."),
    flags: &["--enable-kv-cache-sharding", "--dcp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --tp-size 2 --dcp-size 2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --tp-size 2 --dcp-size 2"),
};

pub static HICACHE_STORAGE: Rule = Rule {
    code: "KVS012",
    name: kebab!("kv-sharding-rejects-hicache-storage"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding supports HiCache host offload but not"),
    explanation: expl!("HiCache's host tier works with sharded KV, but its storage tier reads and writes whole pages per rank rather than each rank's stripe. Drop --hicache-storage-backend (host offload stays)."),
    flags: &["--enable-kv-cache-sharding", "--enable-hierarchical-cache", "--hicache-storage-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --enable-hierarchical-cache --hicache-storage-backend file"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-hierarchical-cache --hicache-storage-backend file"),
};

pub static LMCACHE: Rule = Rule {
    code: "KVS013",
    name: kebab!("kv-sharding-rejects-lmcache"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support --enable-lmcache"),
    explanation: expl!("LMCache does not handle sharded KV pages."),
    flags: &["--enable-kv-cache-sharding", "--enable-lmcache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --enable-lmcache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache"),
};

pub static HISPARSE: Rule = Rule {
    code: "KVS014",
    name: kebab!("kv-sharding-rejects-hisparse"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support --enable-hisparse"),
    explanation: expl!("HiSparse picks a non-sharded allocator and assumes each rank owns complete KV pages."),
    flags: &["--enable-kv-cache-sharding", "--enable-hisparse"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --enable-hisparse"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64"),
};

pub static DYNAMIC_CHUNKING_PP: Rule = Rule {
    code: "KVS015",
    name: kebab!("kv-sharding-rejects-dynamic-chunking-with-pp"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support dynamic chunk"),
    explanation: expl!("With pipeline parallelism, dynamic chunk sizing can profile and predict chunks larger than the fixed sharded scratch space. Disable --enable-dynamic-chunking."),
    flags: &["--enable-kv-cache-sharding", "--enable-dynamic-chunking", "--pp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --pp-size 2 --enable-dynamic-chunking"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --pp-size 2 --enable-dynamic-chunking"),
};

pub static TWO_BATCH_OVERLAP: Rule = Rule {
    code: "KVS016",
    name: kebab!("kv-sharding-rejects-two-batch-overlap"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support --enable-two-batch-overlap"),
    explanation: expl!("Sharded prefill keeps one gather plan per batch for the whole process; two-batch overlap rebuilds attention metadata several times per forward and would overwrite it."),
    flags: &["--enable-kv-cache-sharding", "--enable-two-batch-overlap"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --enable-two-batch-overlap"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-two-batch-overlap"),
};

pub static ATTENTION_BACKEND: Rule = Rule {
    code: "KVS017",
    name: kebab!("kv-sharding-needs-fa3-or-trtllm-mla"),
    sglang: raises("kv_shard_hook.validate_kv_shard_attention_backend", "--enable-kv-cache-sharding currently requires the fa3 prefill"),
    explanation: expl!("Sharded prefill gathers each page's stripes inside the attention kernel's page-table path, which exists for the fa3 prefill backend (and trtllm_mla for MLA models on plain TP, dsa for DSA models). Use --attention-backend fa3 (or --prefill-attention-backend fa3)."),
    flags: &["--enable-kv-cache-sharding", "--attention-backend", "--prefill-attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend flashinfer --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64"),
};

pub static TRTLLM_MLA_CP: Rule = Rule {
    code: "KVS018",
    name: kebab!("kv-sharding-trtllm-mla-plain-tp-only"),
    sglang: raises("kv_shard_hook.validate_kv_shard_attention_backend", "KV sharding with trtllm_mla only supports plain-TP MLA"),
    explanation: expl!("With the trtllm_mla prefill backend, KV sharding stripes pages across attention-TP ranks, so attention context parallelism (--attn-cp-size > 1) cannot be used."),
    flags: &["--enable-kv-cache-sharding", "--prefill-attention-backend", "--attention-backend", "--attn-cp-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend trtllm_mla --tp-size 8 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend trtllm_mla --tp-size 8"),
};

pub static TRTLLM_MLA_CHUNKED_PREFIX: Rule = Rule {
    code: "KVS019",
    name: kebab!("kv-sharding-trtllm-mla-needs-chunked-prefix-cache"),
    sglang: raises("kv_shard_hook.validate_kv_shard_attention_backend", "KV sharding with trtllm_mla requires chunked prefix caching"),
    explanation: expl!("With the trtllm_mla prefill backend, sharded prefixes are read through the chunked prefix cache; do not pass --disable-chunked-prefix-cache."),
    flags: &["--enable-kv-cache-sharding", "--disable-chunked-prefix-cache"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend trtllm_mla --tp-size 8 --disable-chunked-prefix-cache"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend trtllm_mla --tp-size 8"),
};

pub static TRANSFER_BACKEND: Rule = Rule {
    code: "KVS020",
    name: kebab!("kv-sharding-needs-mooncake-or-nixl"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding currently only supports the mooncake"),
    explanation: expl!("Only the mooncake and nixl KV transfer backends send a rank's stripes by index to the decode server."),
    flags: &["--enable-kv-cache-sharding", "--disaggregation-transfer-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend mori --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64"),
};

pub static STAGING_BUFFER: Rule = Rule {
    code: "KVS021",
    name: kebab!("kv-sharding-rejects-disagg-staging-buffer"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding is incompatible with SGLANG_DISAGG_STAGING_BUFFER"),
    explanation: expl!("The PD staging buffer assumes each send is a contiguous slice, which a rank's stripes are not. Unset SGLANG_DISAGG_STAGING_BUFFER."),
    flags: &["--enable-kv-cache-sharding"],
    example_bad: ex!("SGLANG_DISAGG_STAGING_BUFFER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64"),
};

pub static PAGE_SIZE: Rule = Rule {
    code: "KVS022",
    name: kebab!("kv-sharding-needs-page-size"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding requires a real page size"),
    explanation: expl!("A physical KV page is both the unit SGLang transfers to the decode server and the unit it gathers; with a page size of 1 both become per-token operations. Use --page-size 64."),
    flags: &["--enable-kv-cache-sharding", "--page-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 1"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64"),
};

pub static CHUNKED_PREFILL: Rule = Rule {
    code: "KVS023",
    name: kebab!("kv-sharding-needs-chunked-prefill"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding requires chunked prefill"),
    explanation: expl!("The sharded scratch space is sized by the prefill chunk, so chunked prefill must stay on (--chunked-prefill-size > 0)."),
    flags: &["--enable-kv-cache-sharding", "--chunked-prefill-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64 --chunked-prefill-size -1"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64 --chunked-prefill-size 8192"),
};

pub static ROUNDING: Rule = Rule {
    code: "KVS024",
    name: kebab!("kv-sharding-rounds-chunked-prefill-size"),
    sglang: warns("kv_shard_hook.handle_kv_cache_sharding", "Rounding --chunked-prefill-size up from"),
    explanation: expl!("Prefill chunks must end on page boundaries when KV is sharded, so SGLang rounds --chunked-prefill-size up to a multiple of the page size (and, when --mem-fraction-static was not given, lowers the static memory fraction to pay for the larger activations)."),
    flags: &["--enable-kv-cache-sharding", "--chunked-prefill-size", "--page-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64 --chunked-prefill-size 8100 --mem-fraction-static 0.8"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64 --chunked-prefill-size 8192 --mem-fraction-static 0.8"),
};

pub static PREFILL_GRAPH: Rule = Rule {
    code: "KVS025",
    name: kebab!("kv-sharding-disables-prefill-cuda-graph"),
    sglang: warns("kv_shard_hook.handle_kv_cache_sharding", "Prefill CUDA graph ({cfg.cuda_graph_config.prefill.backend}) is incompatible"),
    explanation: expl!("Sharded prefill rebuilds its gather plan per batch, which a captured prefill CUDA graph cannot follow, so SGLang runs prefill eagerly. Pass --cuda-graph-backend-prefill disabled to say so."),
    flags: &["--enable-kv-cache-sharding", "--cuda-graph-backend-prefill"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64 --chunked-prefill-size 8192 --cuda-graph-backend-prefill full"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --enable-kv-cache-sharding --attention-backend fa3 --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --page-size 64 --chunked-prefill-size 8192 --cuda-graph-backend-prefill disabled"),
};

pub static DSA_HICACHE_KERNEL_IO: Rule = Rule {
    code: "KVS026",
    name: kebab!("kv-sharding-dsa-hicache-needs-kernel-io"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "CP-sharded DSA HiCache requires kernel I/O"),
    explanation: expl!("For DeepSeek-style sparse-attention (DSA) models, HiCache host offload of sharded KV copies pages with SGLang's kernels: --hicache-io-backend kernel with the layer_first or page_first memory layout."),
    flags: &["--enable-kv-cache-sharding", "--enable-hierarchical-cache", "--hicache-io-backend", "--hicache-mem-layout"],
    example_bad: ex!("--model-path zai-org/GLM-5-FP8 --tp-size 8 --disaggregation-mode prefill --enable-kv-cache-sharding --enable-hierarchical-cache --hicache-io-backend direct"),
    example_good: ex!("--model-path zai-org/GLM-5-FP8 --tp-size 8 --disaggregation-mode prefill --enable-kv-cache-sharding --enable-hierarchical-cache --hicache-io-backend kernel"),
};

pub static LOCAL_ATTENTION: Rule = Rule {
    code: "KVS027",
    name: kebab!("kv-sharding-rejects-local-attention-models"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support chunked/local-attention"),
    explanation: expl!("Models with chunked (local) attention, whose config sets attention_chunk_size (Llama 4 ...), build their local-attention metadata from the page table before sharded pages are gathered, so KV cache sharding cannot serve them yet."),
    flags: &["--enable-kv-cache-sharding"],
    example_bad: ex!("--model-path meta-llama/Llama-4-Scout-17B-16E-Instruct --tp-size 2 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --attention-backend fa3"),
    example_good: ex!("--model-path meta-llama/Llama-4-Scout-17B-16E-Instruct --tp-size 2 --disaggregation-mode prefill --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend fa3"),
};

pub static MLA_PLAIN_TP: Rule = Rule {
    code: "KVS028",
    name: kebab!("kv-sharding-mla-needs-plain-tp-attention"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding for MLA models without prefill CP shards across attention-TP and"),
    explanation: expl!("Without prefill context parallelism an MLA model's KV is sharded across the attention tensor-parallel ranks, so attention must be plain TP: data-parallel attention (--enable-dp-attention with --dp-size > 1) leaves no attention-TP group to shard over."),
    flags: &["--enable-kv-cache-sharding", "--enable-dp-attention", "--dp-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dp-size 8 --enable-dp-attention --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend fa3"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend fa3"),
};

pub static MLA_NEEDS_TP: Rule = Rule {
    code: "KVS029",
    name: kebab!("kv-sharding-mla-needs-tp"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding for MLA models without prefill CP shards across attention-TP ranks"),
    explanation: expl!("Without prefill context parallelism an MLA model's KV is sharded across the tensor-parallel ranks; with --tp-size 1 there is nothing to shard across."),
    flags: &["--enable-kv-cache-sharding", "--tp-size"],
    example_bad: ex!("--model-path zai-org/GLM-4.7-Flash --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend fa3"),
    example_good: ex!("--model-path zai-org/GLM-4.7-Flash --tp-size 2 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend fa3"),
};

pub static GQA_NEEDS_PREFILL_CP: Rule = Rule {
    code: "KVS030",
    name: kebab!("kv-sharding-gqa-needs-prefill-cp"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding for GQA models"),
    explanation: expl!("A GQA/MHA model's KV is sharded across the attention context-parallel ranks, so KV cache sharding needs prefill context parallelism: --enable-prefill-cp with --attn-cp-size above 1."),
    flags: &["--enable-kv-cache-sharding", "--enable-prefill-cp", "--attn-cp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64"),
};

pub static DSA_NEEDS_DSA_BACKEND: Rule = Rule {
    code: "KVS031",
    name: kebab!("kv-sharding-dsa-model-needs-dsa-backend"),
    sglang: raises("kv_shard_hook.validate_kv_shard_attention_backend", "DSA KV sharding requires the dsa attention backend."),
    explanation: expl!("DeepSeek-style sparse-attention (DSA) models shard their KV only through the dsa attention backend (--attention-backend dsa, which needs interleave prefill CP, TRTLLM DSA kernels, fp8_e4m3 KV and page size 64)."),
    flags: &["--enable-kv-cache-sharding", "--attention-backend", "--prefill-attention-backend"],
    example_bad: ex!("--model-path zai-org/GLM-5-FP8 --tp-size 8 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend fa3"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend fa3"),
};

pub static TRTLLM_MLA_NEEDS_MLA: Rule = Rule {
    code: "KVS032",
    name: kebab!("kv-sharding-trtllm-mla-needs-mla-model"),
    sglang: raises("kv_shard_hook.validate_kv_shard_attention_backend", "KV sharding with trtllm_mla requires an MLA model."),
    explanation: expl!("The trtllm_mla prefill backend is for MLA models; a GQA/MHA model shards its KV with the fa3 prefill backend."),
    flags: &["--enable-kv-cache-sharding", "--attention-backend", "--prefill-attention-backend"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend trtllm_mla"),
    example_good: ex!("--model-path zai-org/GLM-4.7-Flash --tp-size 2 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend trtllm_mla"),
};

pub static ENCODER_DECODER: Rule = Rule {
    code: "KVS033",
    name: kebab!("kv-sharding-rejects-encoder-decoder-models"),
    sglang: raises("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support encoder-decoder"),
    explanation: expl!("Encoder-decoder models (Whisper, Llama 3.2 Vision / Mllama ...) read their cross-attention KV through a separate encoder page table, which the sharded gather plan does not cover, so KV cache sharding cannot serve them."),
    flags: &["--enable-kv-cache-sharding"],
    example_bad: ex!("--model-path meta-llama/Llama-3.2-90B-Vision-Instruct --tp-size 8 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64"),
    example_good: ex!("--model-path meta-llama/Llama-3.2-90B-Vision-Instruct --tp-size 8 --disaggregation-mode prefill --disaggregation-transfer-backend mooncake --page-size 64"),
};

pub static DSA_NEEDS_INTERLEAVE_CP: Rule = Rule {
    code: "KVS034",
    name: kebab!("kv-sharding-dsa-needs-interleave-prefill-cp"),
    sglang: raises("kv_shard_hook.validate_kv_shard_attention_backend", "DSA KV sharding requires CUDA interleave prefill CP > 1 and PP1."),
    explanation: expl!("With the dsa attention backend, a DeepSeek-style sparse-attention (DSA) model's KV is sharded along the interleaved prefill context-parallel layout: it needs a CUDA GPU, --enable-prefill-cp with --attn-cp-size above 1 and --cp-strategy interleave, and no pipeline parallelism (--pp-size 1)."),
    flags: &["--enable-kv-cache-sharding", "--enable-prefill-cp", "--attn-cp-size", "--cp-strategy", "--pp-size"],
    example_bad: ex!("--model-path zai-org/GLM-5-FP8 --tp-size 8 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend dsa"),
    example_good: ex!("--model-path zai-org/GLM-5-FP8 --tp-size 8 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend dsa --enable-prefill-cp --attn-cp-size 8 --cp-strategy interleave"),
};

pub static DSA_NEEDS_TRTLLM_FP8: Rule = Rule {
    code: "KVS035",
    name: kebab!("kv-sharding-dsa-needs-trtllm-fp8-kv-page-64"),
    sglang: raises("kv_shard_hook.validate_kv_shard_attention_backend", "DSA KV sharding requires TRTLLM prefill/decode with fp8_e4m3"),
    explanation: expl!("Sharded DSA prefill runs on TensorRT-LLM's sparse-attention kernels only: the DSA prefill and decode backends must both be trtllm, the KV cache fp8_e4m3 and the page size 64. On Blackwell (SM100) SGLang picks these when they are left unset; on other GPUs (and with another --kv-cache-dtype or --page-size) it does not."),
    flags: &["--enable-kv-cache-sharding", "--dsa-prefill-backend", "--dsa-decode-backend", "--kv-cache-dtype", "--page-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend dsa --enable-prefill-cp --attn-cp-size 8 --cp-strategy interleave"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --disaggregation-mode prefill --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend dsa --enable-prefill-cp --attn-cp-size 8 --cp-strategy interleave"),
};

pub static DSA_NEEDS_MOONCAKE_KPOOL1: Rule = Rule {
    code: "KVS036",
    name: kebab!("kv-sharding-dsa-needs-mooncake-plain-index-pool"),
    sglang: raises("kv_shard_hook.validate_kv_shard_attention_backend", "DSA KV sharding requires Mooncake, uncompressed index_kpool=1"),
    explanation: expl!("Sharded DSA KV is sent to the decode workers by Mooncake only (--disaggregation-transfer-backend mooncake), with the indexer keys unpooled (the config's index_kpool 1, index_kpool_compress false) and every layer's DSA cache in one pool (no --enable-dsa-cache-layer-split)."),
    flags: &["--enable-kv-cache-sharding", "--disaggregation-transfer-backend", "--enable-dsa-cache-layer-split"],
    example_bad: ex!("--model-path zai-org/GLM-5-FP8 --tp-size 8 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend dsa --enable-prefill-cp --attn-cp-size 8 --cp-strategy interleave --enable-dsa-cache-layer-split"),
    example_good: ex!("--model-path zai-org/GLM-5-FP8 --tp-size 8 --disaggregation-mode prefill --enable-kv-cache-sharding --disaggregation-transfer-backend mooncake --page-size 64 --attention-backend dsa --enable-prefill-cp --attn-cp-size 8 --cp-strategy interleave"),
};

/// Every rule in this family.
pub static RULES: &[&Rule] = &[
    &DSA_NEEDS_INTERLEAVE_CP,
    &DSA_NEEDS_TRTLLM_FP8,
    &DSA_NEEDS_MOONCAKE_KPOOL1,
    &PREFILL_ONLY,
    &SPECULATIVE,
    &DLLM,
    &RADIX_BACKEND,
    &TREE_CORE,
    &EXTERNAL_LINKER,
    &STREAMING_SESSION,
    &SESSION_RADIX,
    &FLEXKV,
    &UNIFIED_MEMORY,
    &DCP,
    &HICACHE_STORAGE,
    &LMCACHE,
    &HISPARSE,
    &DYNAMIC_CHUNKING_PP,
    &TWO_BATCH_OVERLAP,
    &ATTENTION_BACKEND,
    &TRTLLM_MLA_CP,
    &TRTLLM_MLA_CHUNKED_PREFIX,
    &TRANSFER_BACKEND,
    &STAGING_BUFFER,
    &PAGE_SIZE,
    &CHUNKED_PREFILL,
    &ROUNDING,
    &PREFILL_GRAPH,
    &DSA_HICACHE_KERNEL_IO,
    &LOCAL_ATTENTION,
    &MLA_PLAIN_TP,
    &MLA_NEEDS_TP,
    &GQA_NEEDS_PREFILL_CP,
    &DSA_NEEDS_DSA_BACKEND,
    &TRTLLM_MLA_NEEDS_MLA,
    &ENCODER_DECODER,
];

fn int(ctx: &Ctx, field: Field, default: i64) -> i64 {
    ctx.cfg.int(field).unwrap_or(default)
}

/// Raise `rule` for a flag that cannot be combined with KV sharding. The fix drops that flag
/// (dropping KV sharding instead is the other way out, but what SGLang then says about the other
/// flag can need the model's config).
fn conflict(ctx: &mut Ctx, rule: &'static Rule, other: Field, args: &Args) -> Step {
    let other_flag = ctx.flag(other);
    let fixes = vec![ctx.fix_remove(format!("Remove {other_flag}"), other, Applicability::Unsafe)];
    ctx.raise(rule, args, &[other, f::enable_kv_cache_sharding], fixes)
}

/// `handle_kv_cache_sharding`, both runs (after context parallelism, and at the end of
/// resolution on the values resolved since). When the first raised, SGLang never reached the
/// second; checks that could not run are listed once.
pub fn handle_kv_cache_sharding(ctx: &mut Ctx) -> Step {
    if ctx.diagnostics.iter().any(|d| d.code.starts_with("KVS") && d.is_sglang_error()) {
        return Ok(());
    }
    let before = ctx.not_run.len();
    let result = kv_cache_sharding(ctx);
    let (earlier, added) = ctx.not_run.split_at(before);
    let fresh: Vec<_> = added.iter().filter(|n| !earlier.iter().any(|e| e.site == n.site)).cloned().collect();
    ctx.not_run.truncate(before);
    ctx.not_run.extend(fresh);
    result
}

fn kv_cache_sharding(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.truthy(f::enable_kv_cache_sharding) {
        return Ok(());
    }
    let mode = ctx.cfg.str(f::disaggregation_mode).unwrap_or("null").to_string();
    if mode != "prefill" {
        let fixes = vec![
            ctx.fix_set("Run as a PD prefill worker (--disaggregation-mode prefill)", f::disaggregation_mode, "prefill", Applicability::Unsafe),
            ctx.fix_remove("Remove --enable-kv-cache-sharding", f::enable_kv_cache_sharding, Applicability::Unsafe),
        ];
        ctx.raise(&PREFILL_ONLY, &[], &[f::enable_kv_cache_sharding, f::disaggregation_mode], fixes)?;
    }
    if let Some(alg) = ctx.cfg.str(f::speculative_algorithm).map(str::to_string) {
        // The architecture and NextN layer count are read only when the flags allow it.
        let flags_allow = alg == "EAGLE" && ctx.cfg.int(f::speculative_eagle_topk) == Some(1) && !ctx.cfg.truthy(f::enable_multi_layer_eagle);
        // ... and then only GLM DSA with one NextN layer passes.
        let model_allows = if flags_allow {
            let spec_site = site("kv_shard_hook.handle_kv_cache_sharding", "KV sharding supports speculative decoding only for GLM DSA");
            match ctx.model_fact(spec_site, |m| m.architecture) {
                None => true,
                Some(arch) if arch != "GlmMoeDsaForCausalLM" => false,
                // num_nextn_predict_layers as the config writes it (unknown when it does not).
                Some(_) => !matches!(ctx.model_fact(spec_site, |m| m.raw.and_then(|r| r.num_nextn_predict_layers)), Some(n) if n != 1),
            }
        } else {
            false
        };
        if !model_allows {
            let fixes = vec![ctx.fix_remove("Remove --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe)];
            ctx.raise(&SPECULATIVE, &[], &[f::speculative_algorithm, f::enable_kv_cache_sharding], fixes)?;
        }
    }
    if !ctx.cfg.is_none(f::dllm_algorithm) {
        return conflict(ctx, &DLLM, f::dllm_algorithm, &[]);
    }
    if !ctx.cfg.is_none(f::radix_cache_backend) {
        let backend = ctx.cfg.get(f::radix_cache_backend).repr();
        return conflict(ctx, &RADIX_BACKEND, f::radix_cache_backend, &[("cfg.radix_cache_backend", &backend)]);
    }
    // envs.SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND: set to "python" when unset.
    let tree_core = ctx.env("SGLANG_UNIFIED_RADIX_TREE_CORE_BACKEND").unwrap_or("python").to_string();
    if !ctx.cfg.truthy(f::disable_radix_cache) && tree_core != "python" {
        let fixes = vec![
            ctx.fix_add_flag("Disable the radix cache (--disable-radix-cache)", f::disable_radix_cache, Applicability::Unsafe),
            ctx.fix_remove("Remove --enable-kv-cache-sharding", f::enable_kv_cache_sharding, Applicability::Unsafe),
        ];
        let backend = str_repr(&tree_core);
        ctx.raise(&TREE_CORE, &[("tree_core_backend", &backend)], &[f::enable_kv_cache_sharding], fixes)?;
    }
    let flag_conflicts: [(&'static Rule, Field); 5] = [
        (&EXTERNAL_LINKER, f::enable_unified_cache_external_linker),
        (&STREAMING_SESSION, f::enable_streaming_session),
        (&SESSION_RADIX, f::enable_session_radix_cache),
        (&FLEXKV, f::enable_flexkv),
        (&UNIFIED_MEMORY, f::enable_unified_memory),
    ];
    for (rule, field) in flag_conflicts {
        if ctx.cfg.truthy(field) {
            return conflict(ctx, rule, field, &[]);
        }
    }
    if int(ctx, f::dcp_size, 1) > 1 {
        return conflict(ctx, &DCP, f::dcp_size, &[]);
    }
    let hicache = ctx.cfg.truthy(f::enable_hierarchical_cache);
    if hicache && !ctx.cfg.is_none(f::hicache_storage_backend) {
        let fixes = vec![
            ctx.fix_remove("Remove --hicache-storage-backend (keep host offload)", f::hicache_storage_backend, Applicability::Unsafe),
            ctx.fix_remove("Remove --enable-kv-cache-sharding", f::enable_kv_cache_sharding, Applicability::Unsafe),
        ];
        ctx.raise(&HICACHE_STORAGE, &[], &[f::hicache_storage_backend, f::enable_kv_cache_sharding], fixes)?;
    }
    if hicache {
        // #13 (host memory mode other than cache) cannot be reached: HiCache rejects buffer_only
        // without a storage backend, and a storage backend is rejected just above.
        // #14: DeepSeek DSA models only (is_deepseek_dsa on the model's hf_config).
        let kernel_io_ok = ctx.cfg.is(f::hicache_io_backend, "kernel") && matches!(ctx.cfg.str(f::hicache_mem_layout), Some("layer_first" | "page_first"));
        let lists = ctx.release.model_lists();
        if ctx.cfg.is(f::hicache_host_memory_mode, "cache")
            && !kernel_io_ok
            && ctx.model_fact(site("kv_shard_hook.handle_kv_cache_sharding", "CP-sharded DSA HiCache requires kernel I/O"), |m| deepseek_dsa(m, lists)) == Some(true)
        {
            let fixes = vec![
                ctx.fix_set("Use --hicache-io-backend kernel", f::hicache_io_backend, "kernel", Applicability::Unsafe),
                ctx.fix_remove("Remove --enable-hierarchical-cache", f::enable_hierarchical_cache, Applicability::Unsafe),
            ];
            ctx.raise(&DSA_HICACHE_KERNEL_IO, &[], &[f::hicache_io_backend, f::hicache_mem_layout, f::enable_hierarchical_cache], fixes)?;
        }
    }
    if ctx.cfg.truthy(f::enable_lmcache) {
        return conflict(ctx, &LMCACHE, f::enable_lmcache, &[]);
    }
    if ctx.cfg.truthy(f::enable_hisparse) {
        return conflict(ctx, &HISPARSE, f::enable_hisparse, &[]);
    }
    if ctx.cfg.truthy(f::enable_dynamic_chunking) && int(ctx, f::pp_size, 1) > 1 {
        return conflict(ctx, &DYNAMIC_CHUNKING_PP, f::enable_dynamic_chunking, &[]);
    }
    if ctx.cfg.truthy(f::enable_two_batch_overlap) {
        return conflict(ctx, &TWO_BATCH_OVERLAP, f::enable_two_batch_overlap, &[]);
    }

    // model_config.is_encoder_decoder
    let encoder_decoder_site = site("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support encoder-decoder");
    let lists = ctx.release.model_lists();
    if ctx.model_fact(encoder_decoder_site, |m| encoder_decoder(m, lists)) == Some(true) {
        let fixes = vec![ctx.fix_remove("Remove --enable-kv-cache-sharding", f::enable_kv_cache_sharding, Applicability::Unsafe)];
        ctx.raise(&ENCODER_DECODER, &[], &[f::enable_kv_cache_sharding], fixes)?;
    }
    // model_config.attention_chunk_size: the text config's value as written.
    let local_site = site("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding does not support chunked/local-attention");
    if ctx.model_fact(local_site, |m| m.raw.map(|r| r.attention_chunk_size.is_some())) == Some(true) {
        let fixes = vec![ctx.fix_remove("Remove --enable-kv-cache-sharding", f::enable_kv_cache_sharding, Applicability::Unsafe)];
        ctx.raise(&LOCAL_ATTENTION, &[], &[f::enable_kv_cache_sharding], fixes)?;
    }

    validate_kv_shard_attention_backend(ctx)?;

    let transfer = ctx.cfg.get(f::disaggregation_transfer_backend).clone();
    if !matches!(transfer.as_str(), Some("mooncake" | "nixl")) {
        let fixes = vec![ctx.fix_set("Use --disaggregation-transfer-backend mooncake", f::disaggregation_transfer_backend, "mooncake", Applicability::Unsafe)];
        let repr = transfer.repr();
        ctx.raise(&TRANSFER_BACKEND, &[("cfg.disaggregation_transfer_backend", &repr)], &[f::disaggregation_transfer_backend, f::enable_kv_cache_sharding], fixes)?;
    }
    if env_bool(ctx, "SGLANG_DISAGG_STAGING_BUFFER") {
        let fixes = vec![ctx.fix_remove("Remove --enable-kv-cache-sharding", f::enable_kv_cache_sharding, Applicability::Unsafe)];
        ctx.raise(&STAGING_BUFFER, &[], &[f::enable_kv_cache_sharding], fixes)?;
    }

    // use_mla_backend: MLA models shard across attention-TP ranks, GQA models across attention-CP ranks.
    let attn_cp = int(ctx, f::attn_cp_size, 1);
    let mla_dp_site = site("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding for MLA models without prefill CP shards across attention-TP and");
    let mla_tp_site = site("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding for MLA models without prefill CP shards across attention-TP ranks");
    let gqa_site = site("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding for GQA models");
    let mla_fails = if attn_cp > 1 {
        None
    } else if attn_dp_enabled(ctx) {
        Some((mla_dp_site, &MLA_PLAIN_TP))
    } else if int(ctx, f::tp_size, 1) <= 1 {
        Some((mla_tp_site, &MLA_NEEDS_TP))
    } else {
        None
    };
    let gqa_fails = !ctx.cfg.truthy(f::enable_prefill_cp) || attn_cp <= 1;
    if mla_fails.is_some() || gqa_fails {
        match ctx.model.as_ref().and_then(|m| m.derived.is_mla) {
            None => {
                if let Some((mla_site, _)) = mla_fails {
                    ctx.skip(mla_site, NotRunReason::ModelConfig);
                }
                if gqa_fails {
                    ctx.skip(gqa_site, NotRunReason::ModelConfig);
                }
            }
            Some(true) => {
                if let Some((_, rule)) = mla_fails {
                    let fixes = if std::ptr::eq(rule, &MLA_PLAIN_TP) {
                        let edits: Vec<_> = [f::enable_dp_attention, f::dp_size, f::attn_dp_size]
                            .into_iter()
                            .flat_map(|fd| ctx.fix_remove("", fd, Applicability::Unsafe).edits)
                            .collect();
                        if edits.is_empty() {
                            vec![Fix::advice("Use plain TP attention (no DP attention)")]
                        } else {
                            vec![Fix { title: "Use plain TP attention (drop DP attention)".into(), applicability: Applicability::Unsafe, edits }]
                        }
                    } else {
                        vec![ctx.fix_set("Use --tp-size 2", f::tp_size, "2", Applicability::Unsafe)]
                    };
                    let shown: &[Field] = if std::ptr::eq(rule, &MLA_PLAIN_TP) { &[f::enable_dp_attention, f::attn_dp_size, f::dp_size, f::enable_kv_cache_sharding] } else { &[f::tp_size, f::enable_kv_cache_sharding] };
                    ctx.raise(rule, &[], shown, fixes)?;
                }
            }
            Some(false) => {
                if gqa_fails {
                    let mut edits = Vec::new();
                    if !ctx.cfg.truthy(f::enable_prefill_cp) {
                        edits.extend(ctx.fix_add_flag("", f::enable_prefill_cp, Applicability::Unsafe).edits);
                    }
                    if attn_cp <= 1 {
                        edits.extend(ctx.fix_set("", f::attn_cp_size, "2", Applicability::Unsafe).edits);
                    }
                    if ctx.cfg.is_none(f::cp_strategy) {
                        edits.extend(ctx.fix_set("", f::cp_strategy, "zigzag", Applicability::Unsafe).edits);
                    }
                    let fixes = if edits.is_empty() {
                        vec![Fix::advice("Use prefill context parallelism (--enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag)")]
                    } else {
                        vec![Fix { title: "Use prefill context parallelism (--enable-prefill-cp --attn-cp-size 2 --cp-strategy zigzag)".into(), applicability: Applicability::Unsafe, edits }]
                    };
                    ctx.raise(&GQA_NEEDS_PREFILL_CP, &[], &[f::enable_prefill_cp, f::attn_cp_size, f::enable_kv_cache_sharding], fixes)?;
                }
            }
        }
    }

    // page_size: without --page-size, SGLang's default (1, or a backend's or model's own) is set
    // by steps that read the model's config.
    let Some(page_size) = ctx.cfg.int(f::page_size) else {
        ctx.model_config(site("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding requires a real page size"));
        return unknown_rest(ctx);
    };
    if page_size <= 1 {
        let fixes = vec![ctx.fix_set("Use --page-size 64", f::page_size, "64", Applicability::Unsafe)];
        ctx.raise(&PAGE_SIZE, &[], &[f::page_size, f::enable_kv_cache_sharding], fixes)?;
    }
    // chunked_prefill_size: without the flag, memory_hook sizes it from the GPU's memory.
    let Some(chunk_size) = ctx.cfg.int(f::chunked_prefill_size) else {
        ctx.skip(site("kv_shard_hook.handle_kv_cache_sharding", "--enable-kv-cache-sharding requires chunked prefill"), NotRunReason::NotImplemented);
        return unknown_rest(ctx);
    };
    if chunk_size <= 0 {
        let fixes = vec![ctx.fix_set("Use --chunked-prefill-size 8192", f::chunked_prefill_size, "8192", Applicability::Unsafe)];
        ctx.raise(&CHUNKED_PREFILL, &[], &[f::chunked_prefill_size, f::enable_kv_cache_sharding], fixes)?;
    }

    if chunk_size % page_size != 0 {
        let rounded = (chunk_size + page_size - 1) / page_size * page_size;
        let activation_delta = 1.5 * ((rounded.max(2048) - chunk_size.max(2048)) as f64);
        if !ctx.cfg.is_explicit(f::mem_fraction_static) && activation_delta > 0.0 {
            // The automatic mem_fraction_static comes from memory_hook (not modelled here), and
            // is lowered by activation_delta / gpu_mem. On a GPU profile the capacity is known
            // (#28 cannot fire) and memory_hook's fraction is far above 5% of it, so #29 cannot
            // fire for a delta below that; otherwise neither is decided here.
            let gpu_mem = ctx.hw.gpu_mem_mib as f64;
            let bounded = !matches!(ctx.hw.platform, Platform::Cpu) && activation_delta < 0.05 * gpu_mem;
            ctx.cfg.mark_unknown(f::mem_fraction_static);
            if !bounded {
                ctx.skip(site("kv_shard_hook.handle_kv_cache_sharding", "Cannot safely auto-round --chunked-prefill-size"), NotRunReason::NotImplemented);
                ctx.skip(site("kv_shard_hook.handle_kv_cache_sharding", "Auto-rounding --chunked-prefill-size for KV sharding"), NotRunReason::NotImplemented);
                return unknown_rest(ctx);
            }
        }
        ctx.cfg.set(f::chunked_prefill_size, PyValue::Int(rounded));
        let fixes = vec![ctx.fix_set(format!("Use --chunked-prefill-size {rounded}"), f::chunked_prefill_size, &rounded.to_string(), Applicability::Safe)];
        let args: &Args = &[("chunk_size", &chunk_size), ("rounded", &rounded), ("page_size", &page_size)];
        ctx.warn(&ROUNDING, args, &[f::chunked_prefill_size, f::page_size], fixes);
    }

    if let Some(backend) = phase_backend(ctx, PREFILL).filter(|b| b != DISABLED) {
        // Unless the command pins the prefill backend, steps that read the model's config
        // (disable_prefill_cuda_graph_for_deepseek_trtllm_mla) may have disabled it already:
        // whether SGLang warns is then not known. The result is the same: disabled.
        if is_locked(ctx, PREFILL, "backend") {
            let fixes = vec![ctx.fix_set("Set --cuda-graph-backend-prefill disabled", f::cuda_graph_backend_prefill, DISABLED, Applicability::Safe)];
            ctx.warn(&PREFILL_GRAPH, &[("cfg.cuda_graph_config.prefill.backend", &backend)], &[f::enable_kv_cache_sharding], fixes);
        }
        with_phase(ctx, PREFILL, "backend", PyValue::Str(DISABLED.into()));
    }
    if !ctx.cfg.is_none(f::speculative_algorithm) {
        with_phase(ctx, DECODE, "backend", PyValue::Str(DISABLED.into()));
    }
    Ok(())
}

/// `is_deepseek_dsa(model_config.hf_config)`. The facts' DSA predicate is SGLang's on the text
/// config: the same where the config has no separate text config, or where the architecture is
/// not one `is_deepseek_dsa` lists.
fn deepseek_dsa(m: &crate::models::ModelFacts, lists: Option<&crate::models::ModelLists>) -> Option<bool> {
    let nested = m.raw.is_some_and(|r| r.text_config_key.is_some());
    if !nested {
        return m.derived.is_dsa;
    }
    let listed = lists?.dsa_architectures_with_index_topk.iter().any(|a| Some(a.as_str()) == m.architecture);
    (!listed).then_some(false)
}

/// The dsa branch of `validate_kv_shard_attention_backend`: the interleaved prefill CP layout,
/// the TRT-LLM DSA kernels with an FP8 KV cache in 64-token pages, then Mooncake and a plain
/// indexer key pool. The backends and KV dtype are those resolved so far (the DSA passes of the
/// model hook fill them from the model and the GPU).
fn validate_dsa_kv_shard(ctx: &mut Ctx) -> Step {
    let remove = |ctx: &Ctx| ctx.fix_remove("Remove --enable-kv-cache-sharding", f::enable_kv_cache_sharding, Applicability::Unsafe);
    if !ctx.cfg.is(f::device, "cuda")
        || !ctx.cfg.truthy(f::enable_prefill_cp)
        || ctx.cfg.int(f::attn_cp_size).unwrap_or(1) <= 1
        || !ctx.cfg.is(f::cp_strategy, "interleave")
        || ctx.cfg.int(f::pp_size).unwrap_or(1) != 1
    {
        let fixes = vec![remove(ctx)];
        ctx.raise(&DSA_NEEDS_INTERLEAVE_CP, &[], &[f::enable_kv_cache_sharding, f::enable_prefill_cp, f::attn_cp_size, f::cp_strategy, f::pp_size], fixes)?;
    }
    if !ctx.cfg.is(f::dsa_prefill_backend, "trtllm")
        || !ctx.cfg.is(f::dsa_decode_backend, "trtllm")
        || !ctx.cfg.is(f::kv_cache_dtype, "fp8_e4m3")
        || ctx.cfg.int(f::page_size) != Some(64)
    {
        // (which values the kernels need depends on one another: the DSA backends SGLang
        // picks follow the KV dtype and the GPU, so no single edit is offered)
        let fixes = vec![remove(ctx)];
        ctx.raise(&DSA_NEEDS_TRTLLM_FP8, &[], &[f::enable_kv_cache_sharding, f::dsa_prefill_backend, f::dsa_decode_backend, f::kv_cache_dtype, f::page_size], fixes)?;
    }
    let mooncake = ctx.cfg.is(f::disaggregation_transfer_backend, "mooncake");
    let split = ctx.cfg.truthy(f::enable_dsa_cache_layer_split);
    // `get_dsa_index_kpool(hf_config) != 1 or get_dsa_index_kpool_compress(hf_config)`: the
    // facts keep index_kpool (1 when the config does not write it), not index_kpool_compress.
    let needs = site("kv_shard_hook.validate_kv_shard_attention_backend", "DSA KV sharding requires Mooncake, uncompressed index_kpool=1");
    let pooled = if mooncake && !split {
        match ctx.model_fact(needs, |m| m.raw.filter(|_| m.from != crate::models::FactsFrom::InferredFamily).map(|r| r.index_kpool.unwrap_or(1))) {
            Some(1) => {
                ctx.model_config(needs);
                false
            }
            Some(_) => true,
            None => false,
        }
    } else {
        false
    };
    if !mooncake || split || pooled {
        let mut fixes = Vec::new();
        if !mooncake {
            fixes.push(ctx.fix_set("Use --disaggregation-transfer-backend mooncake", f::disaggregation_transfer_backend, "mooncake", Applicability::Unsafe));
        }
        if split {
            fixes.push(ctx.fix_remove("Remove --enable-dsa-cache-layer-split", f::enable_dsa_cache_layer_split, Applicability::Unsafe));
        }
        fixes.push(remove(ctx));
        ctx.raise(&DSA_NEEDS_MOONCAKE_KPOOL1, &[], &[f::enable_kv_cache_sharding, f::disaggregation_transfer_backend, f::enable_dsa_cache_layer_split], fixes)?;
    }
    Ok(())
}

/// `model_config.is_encoder_decoder` (`is_encoder_decoder_model(hf_config.architectures)`).
fn encoder_decoder(m: &crate::models::ModelFacts, lists: Option<&crate::models::ModelLists>) -> Option<bool> {
    let arch = m.architecture?;
    let lists = lists?;
    if lists.encoder_decoder_architectures.is_empty() {
        return None;
    }
    Some(lists.encoder_decoder_architectures.iter().any(|a| a == arch))
}

/// Whether the hook raises at the page-size / chunk-size checks is not known here: what it
/// would declare after them is unknown too.
fn unknown_rest(ctx: &mut Ctx) -> Step {
    ctx.cfg.mark_unknown(f::chunked_prefill_size);
    if phase_backend(ctx, PREFILL).is_some_and(|b| b != DISABLED) || !ctx.cfg.is_none(f::speculative_algorithm) {
        ctx.cfg.mark_unknown(f::cuda_graph_config);
    }
    Ok(())
}

/// `validate_kv_shard_attention_backend`. The prefill backend is known here only when the
/// command names it (else `attention_hook` picks it from the model and hardware).
fn validate_kv_shard_attention_backend(ctx: &mut Ctx) -> Step {
    let prefill = ctx
        .cfg
        .str(f::prefill_attention_backend)
        .filter(|s| !s.is_empty())
        .or_else(|| ctx.cfg.str(f::attention_backend))
        .map(str::to_string);
    let Some(prefill) = prefill else {
        ctx.model_config(site("kv_shard_hook.validate_kv_shard_attention_backend", "DSA KV sharding requires the dsa attention backend."));
        ctx.model_config(site("kv_shard_hook.validate_kv_shard_attention_backend", "--enable-kv-cache-sharding currently requires the fa3 prefill"));
        return Ok(());
    };
    if prefill == "dsa" {
        return validate_dsa_kv_shard(ctx);
    }
    // is_deepseek_dsa(hf_config): a DSA model needs the dsa backend.
    let lists = ctx.release.model_lists();
    if ctx.model_fact(site("kv_shard_hook.validate_kv_shard_attention_backend", "DSA KV sharding requires the dsa attention backend."), |m| deepseek_dsa(m, lists)) == Some(true) {
        let fixes = vec![ctx.fix_remove("Remove --enable-kv-cache-sharding", f::enable_kv_cache_sharding, Applicability::Unsafe)];
        let dest = if ctx.cfg.is_explicit(f::prefill_attention_backend) { f::prefill_attention_backend } else { f::attention_backend };
        ctx.raise(&DSA_NEEDS_DSA_BACKEND, &[], &[dest, f::enable_kv_cache_sharding], fixes)?;
    }
    if prefill == "fa3" {
        return Ok(());
    }
    let dest = if ctx.cfg.is_explicit(f::prefill_attention_backend) { f::prefill_attention_backend } else { f::attention_backend };
    if prefill != "trtllm_mla" {
        let flag = ctx.flag(dest);
        let fixes = vec![ctx.fix_set(format!("Use {flag} fa3"), dest, "fa3", Applicability::Unsafe)];
        let repr = str_repr(&prefill);
        ctx.raise(&ATTENTION_BACKEND, &[("prefill_backend", &repr)], &[dest, f::enable_kv_cache_sharding], fixes)?;
    }
    if ctx.model_fact(site("kv_shard_hook.validate_kv_shard_attention_backend", "KV sharding with trtllm_mla requires an MLA model."), |m| m.derived.is_mla) == Some(false) {
        let flag = ctx.flag(dest);
        let fixes = vec![ctx.fix_set(format!("Use {flag} fa3"), dest, "fa3", Applicability::Unsafe)];
        ctx.raise(&TRTLLM_MLA_NEEDS_MLA, &[], &[dest, f::enable_kv_cache_sharding], fixes)?;
    }
    if int(ctx, f::attn_cp_size, 1) > 1 {
        // One fix dropping prefill context parallelism whole: with --enable-prefill-cp, an MLA
        // model's overrides set attn_cp_size themselves.
        let edits: Vec<_> = [f::enable_prefill_cp, f::attn_cp_size, f::cp_strategy]
            .into_iter()
            .flat_map(|fd| ctx.fix_remove("", fd, Applicability::Unsafe).edits)
            .collect();
        let fixes = if edits.is_empty() {
            vec![Fix::advice("Use plain TP (no prefill context parallelism)")]
        } else {
            vec![Fix { title: "Use plain TP (drop prefill context parallelism)".into(), applicability: Applicability::Unsafe, edits }]
        };
        ctx.raise(&TRTLLM_MLA_CP, &[], &[f::attn_cp_size, dest], fixes)?;
    }
    if ctx.cfg.truthy(f::disable_chunked_prefix_cache) {
        let fixes = vec![ctx.fix_remove("Remove --disable-chunked-prefix-cache", f::disable_chunked_prefix_cache, Applicability::Safe)];
        ctx.raise(&TRTLLM_MLA_CHUNKED_PREFIX, &[], &[f::disable_chunked_prefix_cache, dest], fixes)?;
    }
    Ok(())
}
