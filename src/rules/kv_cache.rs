//! Rules from SGLang's `sglang/srt/arg_groups/kv_cache_hook.py`: KV-cache dtype and pool
//! compatibility (prefill-only no-KV mode, NVFP4/FP4/MXFP8 KV caches, host-pool retraction,
//! radix/hierarchical/LMCache combinations, page-major layout, the unified memory pool).
//!
//! Checks that read the model's config (`use_mla_backend`, `model_config_of`) or the attention
//! backends that `attention_hook` picks from the model are skipped with
//! `ctx.model_config` (recorded as not run) unless the command fixes the backends itself.

use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::Applicability;
use crate::fields::{f, Field};
use crate::hardware::Hardware;
use crate::pyvalue::{str_repr, PyValue};
use crate::rules::shared::cuda_graph_config::phase_backend;
use crate::rules::shared::envs::env_bool;
use crate::rules::{raises, site, warns, Args, SiteRef, Step};

// ---------------------------------------------------------------------------------------------
// validate_prefill_only_disable_kv_cache_args
// ---------------------------------------------------------------------------------------------

pub static PREFILL_ONLY_NEEDS_EMBEDDING: Rule = Rule {
    code: "KV001",
    name: kebab!("prefill-only-no-kv-needs-is-embedding"),
    sglang: raises("kv_cache_hook.validate_prefill_only_disable_kv_cache_args", "--prefill-only-disable-kv-cache currently"),
    explanation: expl!("Running without a KV cache is only implemented for embedding servers, whose requests are a single prefill. Add --is-embedding if this is an embedding model, otherwise drop --prefill-only-disable-kv-cache."),
    flags: &["--prefill-only-disable-kv-cache", "--is-embedding"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --prefill-only-disable-kv-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static PREFILL_ONLY_NO_FP4: Rule = Rule {
    code: "KV002",
    name: kebab!("prefill-only-no-kv-rejects-fp4-kv"),
    sglang: raises("kv_cache_hook.validate_prefill_only_disable_kv_cache_args", "--prefill-only-disable-kv-cache does not currently support --kv-cache-dtype=nvfp4"),
    explanation: expl!("The no-KV-cache embedding mode replaces the KV pool with a no-op pool, which the FP4 KV dtypes bypass. A KV dtype is meaningless without a KV cache, so drop --kv-cache-dtype."),
    flags: &["--prefill-only-disable-kv-cache", "--kv-cache-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --kv-cache-dtype nvfp4"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache"),
};

pub static PREFILL_ONLY_NO_MXFP8: Rule = Rule {
    code: "KV003",
    name: kebab!("prefill-only-no-kv-rejects-mxfp8-kv"),
    sglang: raises("kv_cache_hook.validate_prefill_only_disable_kv_cache_args", "--prefill-only-disable-kv-cache does not currently support --kv-cache-dtype=mxfp8"),
    explanation: expl!("The no-KV-cache embedding mode cannot be combined with the MXFP8 KV pool, which allocates its own scale buffers. Without a KV cache the KV dtype does nothing, so drop --kv-cache-dtype."),
    flags: &["--prefill-only-disable-kv-cache", "--kv-cache-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --kv-cache-dtype mxfp8"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache"),
};

pub static PREFILL_ONLY_NEEDS_NO_CHUNKING: Rule = Rule {
    code: "KV004",
    name: kebab!("prefill-only-no-kv-needs-chunked-prefill-off"),
    sglang: raises("kv_cache_hook.validate_prefill_only_disable_kv_cache_args", "--prefill-only-disable-kv-cache requires --chunked-prefill-size=-1"),
    explanation: expl!("Without a KV cache every request must be prefilled in one forward pass, because chunked prefill would need the KV of earlier chunks. Set --chunked-prefill-size -1."),
    flags: &["--prefill-only-disable-kv-cache", "--chunked-prefill-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache"),
};

pub static PREFILL_ONLY_NEEDS_NO_RADIX: Rule = Rule {
    code: "KV005",
    name: kebab!("prefill-only-no-kv-needs-radix-cache-off"),
    sglang: raises("kv_cache_hook.validate_prefill_only_disable_kv_cache_args", "--prefill-only-disable-kv-cache requires --disable-radix-cache"),
    explanation: expl!("The prefix (radix) cache would point at KV slots that are never written in no-KV-cache mode. Add --disable-radix-cache."),
    flags: &["--prefill-only-disable-kv-cache", "--disable-radix-cache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache"),
};

pub static PREFILL_ONLY_NO_ATTN_CP: Rule = Rule {
    code: "KV006",
    name: kebab!("prefill-only-no-kv-rejects-attn-cp"),
    sglang: raises("kv_cache_hook.validate_prefill_only_disable_kv_cache_args", "--prefill-only-disable-kv-cache is incompatible with --attn-cp-size"),
    explanation: expl!("Attention context parallelism exchanges K/V through the KV pool, which does not exist in no-KV-cache mode. Use --attn-cp-size 1 or keep the KV cache."),
    flags: &["--prefill-only-disable-kv-cache", "--attn-cp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --tp-size 2 --attn-cp-size 2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --tp-size 2"),
};

pub static PREFILL_ONLY_NO_PREFILL_CP: Rule = Rule {
    code: "KV007",
    name: kebab!("prefill-only-no-kv-rejects-prefill-cp"),
    sglang: raises("kv_cache_hook.validate_prefill_only_disable_kv_cache_args", "--prefill-only-disable-kv-cache is incompatible with --enable-prefill-cp:"),
    explanation: expl!("Prefill context parallelism stages K/V through the paged KV cache, which no-KV-cache mode removes. Choose one of the two."),
    flags: &["--prefill-only-disable-kv-cache", "--enable-prefill-cp"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --enable-prefill-cp"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache"),
};

pub static PREFILL_ONLY_NO_HISPARSE: Rule = Rule {
    code: "KV008",
    name: kebab!("prefill-only-no-kv-rejects-hisparse"),
    sglang: raises("kv_cache_hook.validate_prefill_only_disable_kv_cache_args", "--prefill-only-disable-kv-cache is incompatible with --enable-hisparse:"),
    explanation: expl!("HiSparse brings its own KV pool, so it cannot run with the no-op pool of no-KV-cache mode. Choose one of the two."),
    flags: &["--prefill-only-disable-kv-cache", "--enable-hisparse"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --enable-hisparse"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache"),
};

// ---------------------------------------------------------------------------------------------
// handle_nvfp4_prefill_kv_dequant_dtype
// ---------------------------------------------------------------------------------------------

pub static DEQUANT_NEEDS_NVFP4: Rule = Rule {
    code: "KV009",
    name: kebab!("prefill-dequant-dtype-needs-nvfp4-kv"),
    sglang: raises("kv_cache_hook.handle_nvfp4_prefill_kv_dequant_dtype", "--prefill-kv-cache-dequant-dtype applies"),
    explanation: expl!("--prefill-kv-cache-dequant-dtype chooses how an NVFP4 KV cache is read during prefill, so it means nothing with another KV dtype. Drop it, or use --kv-cache-dtype nvfp4."),
    flags: &["--prefill-kv-cache-dequant-dtype", "--kv-cache-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --prefill-kv-cache-dequant-dtype fp8_e4m3"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static NVFP4_BACKEND_NEITHER: Rule = Rule {
    code: "KV010",
    name: kebab!("nvfp4-prefill-backend-unsupported"),
    sglang: raises("kv_cache_hook.handle_nvfp4_prefill_kv_dequant_dtype", "NVFP4 prefill supports an FP8 E4M3 workspace"),
    explanation: expl!("With an NVFP4 KV cache, prefill runs either on flashinfer (reading an FP8 copy) or on trtllm_mha (native NVFP4); the attention backend you chose is neither. Drop the backend option and let the KV dtype choose."),
    flags: &["--kv-cache-dtype", "--attention-backend", "--prefill-attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --attention-backend triton"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4"),
};

pub static NVFP4_NATIVE_NEEDS_SM100: Rule = Rule {
    code: "KV011",
    name: kebab!("native-nvfp4-prefill-needs-sm100"),
    sglang: raises("kv_cache_hook.handle_nvfp4_prefill_kv_dequant_dtype", "Native NVFP4 prefill currently requires SM100;"),
    explanation: expl!("Reading the NVFP4 KV cache natively during prefill needs a datacenter Blackwell (SM100) GPU. On other GPUs prefill must go through an FP8 E4M3 workspace."),
    flags: &["--prefill-kv-cache-dequant-dtype", "--kv-cache-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype nvfp4"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3"),
};

pub static NVFP4_PREFILL_BACKEND_MISMATCH: Rule = Rule {
    code: "KV012",
    name: kebab!("nvfp4-prefill-backend-conflicts-with-dequant-dtype"),
    sglang: raises("kv_cache_hook.handle_nvfp4_prefill_kv_dequant_dtype", "--prefill-kv-cache-dequant-dtype={requested_dtype}"),
    explanation: expl!("Each NVFP4 prefill dequant dtype has exactly one prefill backend (fp8_e4m3 -> flashinfer, nvfp4 -> trtllm_mha); the prefill backend given contradicts it. Drop --prefill-attention-backend."),
    flags: &["--prefill-kv-cache-dequant-dtype", "--prefill-attention-backend", "--kv-cache-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3 --prefill-attention-backend trtllm_mha"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3"),
};

pub static NVFP4_DECODE_BACKEND: Rule = Rule {
    code: "KV013",
    name: kebab!("nvfp4-decode-needs-trtllm-mha"),
    sglang: raises("kv_cache_hook.handle_nvfp4_prefill_kv_dequant_dtype", "NVFP4 decode requires --decode-attention-backend=trtllm_mha;"),
    explanation: expl!("Only trtllm_mha decodes from an NVFP4 KV cache, and SGLang picks it by itself. Drop --decode-attention-backend."),
    flags: &["--decode-attention-backend", "--kv-cache-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --decode-attention-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4"),
};

// ---------------------------------------------------------------------------------------------
// handle_kv4_compatibility
// ---------------------------------------------------------------------------------------------

pub static NVFP4_NEEDS_BLACKWELL: Rule = Rule {
    code: "KV014",
    name: kebab!("nvfp4-kv-needs-blackwell"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "--kv-cache-dtype=nvfp4 requires Blackwell"),
    explanation: expl!("The NVFP4 KV cache relies on Blackwell (SM100/SM120) FP4 hardware. On older GPUs use --kv-cache-dtype fp4_mx_block16 or an FP8 KV dtype."),
    flags: &["--kv-cache-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3"),
};

pub static FP4_NO_UNIFIED_MEMORY: Rule = Rule {
    code: "KV015",
    name: kebab!("fp4-kv-rejects-unified-memory"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "FP4 KV cache does not yet support --enable-unified-memory:"),
    explanation: expl!("The unified memory pool has no room for the block scales of an FP4 KV cache. Use one or the other."),
    flags: &["--kv-cache-dtype", "--enable-unified-memory"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --enable-unified-memory"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4"),
};

pub static NVFP4_SPEC_PREFIX_WRITERS: Rule = Rule {
    code: "KV016",
    name: kebab!("native-nvfp4-rejects-dflash-dspark"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "SM100 native NVFP4 speculative decoding does"),
    explanation: expl!("DFLASH and DSPARK write a prefix of each draft block through a path that does not produce the NVFP4 scale layout trtllm_mha uses on SM100. Use EAGLE, NEXTN or NGRAM, or another KV dtype."),
    flags: &["--kv-cache-dtype", "--speculative-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3 --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static NVFP4_SPEC_UNSUPPORTED: Rule = Rule {
    code: "KV017",
    name: kebab!("native-nvfp4-spec-algorithm-unsupported"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "SM100 native NVFP4 speculative decoding supports"),
    explanation: expl!("On SM100 with the native NVFP4 KV cache only the EAGLE family and NGRAM have been validated for speculative decoding."),
    flags: &["--kv-cache-dtype", "--speculative-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3 --speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static NVFP4_NGRAM_BREADTH: Rule = Rule {
    code: "KV018",
    name: kebab!("native-nvfp4-ngram-needs-breadth-1"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "SM100 native NVFP4 NGRAM speculative decoding"),
    explanation: expl!("trtllm_mha verifies a single chain of draft tokens, while NGRAM drafts a tree (breadth 10 by default). Set --speculative-ngram-max-bfs-breadth 1."),
    flags: &["--kv-cache-dtype", "--speculative-algorithm", "--speculative-ngram-max-bfs-breadth"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm NGRAM"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 1"),
};

pub static NVFP4_DRAFT_BACKEND: Rule = Rule {
    code: "KV019",
    name: kebab!("native-nvfp4-draft-needs-trtllm-mha"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "SM100 native NVFP4 speculative decoding requires"),
    explanation: expl!("The draft model's KV cache uses the same native NVFP4 layout, which only trtllm_mha reads. Drop --speculative-draft-attention-backend (SGLang then picks trtllm_mha) or set it to trtllm_mha."),
    flags: &["--kv-cache-dtype", "--speculative-draft-attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm EAGLE --speculative-draft-attention-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm EAGLE"),
};

pub static NVFP4_NO_PD: Rule = Rule {
    code: "KV020",
    name: kebab!("native-nvfp4-rejects-pd-disaggregation"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "SM100 native NVFP4 with trtllm_mha does not yet support PD"),
    explanation: expl!("The prefill-to-decode KV transfer does not know the native NVFP4 scale layout used on SM100. Use an FP8 KV dtype for PD disaggregation."),
    flags: &["--kv-cache-dtype", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --disaggregation-mode prefill"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3 --disaggregation-mode prefill"),
};

pub static NVFP4_NO_HOST_TIER: Rule = Rule {
    code: "KV021",
    name: kebab!("native-nvfp4-rejects-hicache-lmcache"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "SM100 native NVFP4 with trtllm_mha does not yet support hierarchical"),
    explanation: expl!("HiCache and LMCache copy KV to host memory in a layout that loses the native NVFP4 block scales. Drop the host cache tier or use another KV dtype."),
    flags: &["--kv-cache-dtype", "--enable-hierarchical-cache", "--enable-lmcache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --enable-hierarchical-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4"),
};

pub static KV4_NON_CUDA: Rule = Rule {
    code: "KV022",
    name: kebab!("fp4-kv-needs-cuda"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "KV4 is not tested on non-CUDA platforms."),
    explanation: expl!("FP4 KV caches (nvfp4, fp4_mx_block16) are only supported on NVIDIA GPUs. Use an FP8 KV dtype on this platform."),
    flags: &["--kv-cache-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp4_mx_block16"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3"),
};

pub static NVFP4_DRAFT_BACKEND_DEFAULT: Rule = Rule {
    code: "KV023",
    name: kebab!("native-nvfp4-draft-uses-trtllm-mha"),
    sglang: warns("kv_cache_hook.handle_kv4_compatibility", "SM100 native NVFP4 speculative decoding uses"),
    explanation: expl!("With the native NVFP4 KV cache on SM100, SGLang runs the draft model on trtllm_mha too, since only it reads that layout."),
    flags: &["--kv-cache-dtype", "--speculative-algorithm", "--speculative-draft-attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm EAGLE"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm EAGLE --speculative-draft-attention-backend trtllm_mha"),
};

pub static NVFP4_MIXED_SPEC_MODE: Rule = Rule {
    code: "KV024",
    name: kebab!("mixed-nvfp4-spec-verify-on-decode"),
    sglang: warns("kv_cache_hook.handle_kv4_compatibility", "SM100 mixed NVFP4 speculative decoding routes"),
    explanation: expl!("With FP8-workspace prefill and NVFP4 decode, target verification must run on the decode backend, so SGLang switches --speculative-attention-mode to decode."),
    flags: &["--kv-cache-dtype", "--speculative-attention-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3 --speculative-algorithm EAGLE"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3 --speculative-algorithm EAGLE --speculative-attention-mode decode"),
};

pub static KV4_FA4_MLA_DECODE: Rule = Rule {
    code: "KV065",
    name: kebab!("fp4-kv-fa4-mla-decode-backend"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "KV4 FA4 MLA expects decode_attention_backend"),
    explanation: expl!("With an FP4 KV cache, an MLA model (DeepSeek-style) prefilling on fa4 must decode on flashinfer or trtllm_mla: only those read FP4 MLA pages."),
    flags: &["--kv-cache-dtype", "--prefill-attention-backend", "--decode-attention-backend", "--attention-backend"],
    example_bad: ex!("--model-path zai-org/GLM-4.7-Flash --kv-cache-dtype fp4_mx_block16 --attention-backend fa4"),
    example_good: ex!("--model-path zai-org/GLM-4.7-Flash --kv-cache-dtype fp4_mx_block16 --prefill-attention-backend fa4 --decode-attention-backend flashinfer"),
};

pub static KV4_FA4_MHA_DECODE: Rule = Rule {
    code: "KV066",
    name: kebab!("fp4-kv-fa4-mha-decode-backend"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "KV4 FA4 MHA expects decode_attention_backend"),
    explanation: expl!("With an FP4 KV cache, a standard-attention (MHA/GQA) model prefilling on fa4 must decode on triton, torch_native or flex_attention: only those read these FP4 pages."),
    flags: &["--kv-cache-dtype", "--prefill-attention-backend", "--decode-attention-backend", "--attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp4_mx_block16 --attention-backend fa4"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp4_mx_block16 --prefill-attention-backend fa4 --decode-attention-backend triton"),
};

pub static KV4_MLA_BACKEND: Rule = Rule {
    code: "KV067",
    name: kebab!("fp4-kv-mla-backend"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "KV4 MLA expects attention_backend to be one"),
    explanation: expl!("An FP4 KV cache on an MLA model (DeepSeek-style) is read only by the flashinfer and trtllm_mla backends. The backend SGLang would pick for this model on this GPU (or the one you named) is not one of them."),
    flags: &["--kv-cache-dtype", "--attention-backend"],
    example_bad: ex!("--model-path zai-org/GLM-4.7-Flash --kv-cache-dtype fp4_mx_block16"),
    example_good: ex!("--model-path zai-org/GLM-4.7-Flash --kv-cache-dtype fp4_mx_block16 --attention-backend flashinfer"),
};

pub static KV4_MHA_BACKEND: Rule = Rule {
    code: "KV068",
    name: kebab!("fp4-kv-mha-backend"),
    sglang: raises("kv_cache_hook.handle_kv4_compatibility", "KV4 MHA expects attention_backend to be one"),
    explanation: expl!("An FP4 KV cache on a standard-attention (MHA/GQA) model is read only by the triton, torch_native, flex_attention and trtllm_mha backends. The backend SGLang would pick for this model on this GPU (fa3 on Hopper, flashinfer on Ampere/Ada) or the one you named is not one of them."),
    flags: &["--kv-cache-dtype", "--attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp4_mx_block16"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp4_mx_block16 --attention-backend triton"),
};

pub static KV4_SPLIT_BACKENDS: Rule = Rule {
    code: "KV025",
    name: kebab!("fp4-kv-split-backends"),
    sglang: warns("kv_cache_hook.handle_kv4_compatibility", "Attention: Using KV4 with PREFILL = {prefill_backend}"),
    explanation: expl!("An FP4 KV cache with different prefill and decode attention backends is allowed but less tested."),
    flags: &["--kv-cache-dtype", "--prefill-attention-backend", "--decode-attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp4_mx_block16 --prefill-attention-backend triton --decode-attention-backend torch_native"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp4_mx_block16 --attention-backend triton"),
};

// ---------------------------------------------------------------------------------------------
// handle_mxfp8_kv_cache_compatibility / handle_prefill_only_disable_kv_cache
// ---------------------------------------------------------------------------------------------

pub static MXFP8_NEEDS_BLACKWELL: Rule = Rule {
    code: "KV026",
    name: kebab!("mxfp8-kv-needs-blackwell"),
    sglang: raises("kv_cache_hook.handle_mxfp8_kv_cache_compatibility", "--kv-cache-dtype mxfp8 requires an SM100+"),
    explanation: expl!("The MXFP8 KV cache uses block-scaled tensor-core operands that only Blackwell GPUs have. Use fp8_e4m3 on this GPU."),
    flags: &["--kv-cache-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype mxfp8"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3"),
};

pub static PREFILL_ONLY_NEEDS_FA: Rule = Rule {
    code: "KV027",
    name: kebab!("prefill-only-no-kv-needs-fa-backend"),
    sglang: raises("kv_cache_hook.handle_prefill_only_disable_kv_cache", "--prefill-only-disable-kv-cache currently"),
    explanation: expl!("Only the FlashAttention backends (fa3/fa4) can prefill without writing a KV cache. Use --attention-backend fa3 (Hopper) or fa4 (Blackwell)."),
    flags: &["--prefill-only-disable-kv-cache", "--attention-backend", "--prefill-attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --attention-backend triton"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --attention-backend fa3"),
};

// ---------------------------------------------------------------------------------------------
// handle_cache_compatibility
// ---------------------------------------------------------------------------------------------

pub static HOST_POOL_NEEDS_DECODE: Rule = Rule {
    code: "KV028",
    name: kebab!("host-pool-retraction-needs-decode-server"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--disaggregation-decode-retraction-backup=host_pool is"),
    explanation: expl!("The host-pool retraction backup keeps the KV of requests a PD decode server retracts; other servers never retract that way. Use it only with --disaggregation-mode decode."),
    flags: &["--disaggregation-decode-retraction-backup", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-retraction-backup host_pool"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-retraction-backup host_pool"),
};

pub static HOST_POOL_NEEDS_DCP_1: Rule = Rule {
    code: "KV029",
    name: kebab!("host-pool-retraction-needs-dcp-1"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--disaggregation-decode-retraction-backup=host_pool does"),
    explanation: expl!("The host-pool retraction backup cannot shard its copy of the KV cache across decode-context-parallel groups, so it only works with --dcp-size 1. This typically happens when scaling long-context decode with DCP while the backup flag is still set."),
    flags: &["--disaggregation-decode-retraction-backup", "--dcp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 1 --disaggregation-decode-retraction-backup host_pool"),
};

pub static HOST_POOL_PRIORITY_PREEMPTION: Rule = Rule {
    code: "KV030",
    name: kebab!("host-pool-retraction-needs-no-priority-preemption"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--disaggregation-decode-retraction-backup=host_pool requires"),
    explanation: expl!("Priority preemption retracts requests in a way the host-pool backup does not track. With --enable-priority-scheduling, add --disable-priority-preemption."),
    flags: &["--disaggregation-decode-retraction-backup", "--enable-priority-scheduling", "--disable-priority-preemption"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-retraction-backup host_pool --enable-priority-scheduling"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-retraction-backup host_pool --enable-priority-scheduling --disable-priority-preemption"),
};

pub static TLRU_NEGATIVE: Rule = Rule {
    code: "KV031",
    name: kebab!("tlru-config-negative"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--radix-eviction-policy tlru requires non-negative"),
    explanation: expl!("The T-LRU eviction policy's 'threshold' and 'next_prompt_estimate' are token counts and cannot be negative."),
    flags: &["--radix-eviction-policy", "--radix-eviction-policy-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --radix-eviction-policy tlru --radix-eviction-policy-config '{\"threshold\": -1}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --radix-eviction-policy tlru --radix-eviction-policy-config '{\"threshold\": 256}'"),
};

pub static TLRU_THRESHOLD: Rule = Rule {
    code: "KV032",
    name: kebab!("tlru-threshold-not-above-estimate"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--radix-eviction-policy tlru needs 'threshold'"),
    explanation: expl!("T-LRU only differs from LRU when 'threshold' exceeds 'next_prompt_estimate'; both default to 0, so the policy needs a config. Pass --radix-eviction-policy-config with a larger threshold, or use --radix-eviction-policy lru."),
    flags: &["--radix-eviction-policy", "--radix-eviction-policy-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --radix-eviction-policy tlru"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --radix-eviction-policy tlru --radix-eviction-policy-config '{\"threshold\": 256}'"),
};

pub static HICACHE_VS_NO_RADIX: Rule = Rule {
    code: "KV033",
    name: kebab!("hicache-needs-radix-cache"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "The arguments enable-hierarchical-cache and"),
    explanation: expl!("The hierarchical cache extends the radix prefix cache into host memory, so it needs the radix cache on. Keep one of the two flags."),
    flags: &["--enable-hierarchical-cache", "--disable-radix-cache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --disable-radix-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache"),
};

pub static OFFLOAD_NEEDS_DECODE: Rule = Rule {
    code: "KV034",
    name: kebab!("decode-offload-needs-decode-server"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "The argument disaggregation-decode-enable-offload-kvcache is only supported for"),
    explanation: expl!("Offloading finished KV to storage is a PD decode-server feature. Use it with --disaggregation-mode decode."),
    flags: &["--disaggregation-decode-enable-offload-kvcache", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-enable-offload-kvcache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static OFFLOAD_NEEDS_STORAGE: Rule = Rule {
    code: "KV035",
    name: kebab!("decode-offload-needs-storage-backend"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "The argument disaggregation-decode-enable-offload-kvcache is only supported when"),
    explanation: expl!("Decode-side KV offload writes to a HiCache storage backend, so one must be named with --hicache-storage-backend."),
    flags: &["--disaggregation-decode-enable-offload-kvcache", "--hicache-storage-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file"),
};

pub static OFFLOAD_VS_HOST_POOL: Rule = Rule {
    code: "KV036",
    name: kebab!("decode-offload-vs-host-pool-retraction"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "The arguments disaggregation-decode-enable-offload-kvcache"),
    explanation: expl!("Decode KV offload and the host-pool retraction backup would each build their own host KV pool on the decode server. Keep one of them."),
    flags: &["--disaggregation-decode-enable-offload-kvcache", "--disaggregation-decode-retraction-backup"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file --disaggregation-decode-retraction-backup host_pool"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file"),
};

pub static SWA_RATIO_RANGE: Rule = Rule {
    code: "KV037",
    name: kebab!("swa-full-tokens-ratio-range"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--swa-full-tokens-ratio should be in range"),
    explanation: expl!("--swa-full-tokens-ratio sizes the sliding-window KV pool relative to the full-attention pool; it must be above 0 and at most 1."),
    flags: &["--swa-full-tokens-ratio"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --swa-full-tokens-ratio 1.5"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --swa-full-tokens-ratio 0.5"),
};

pub static SWA_PREFIX_TAILS: Rule = Rule {
    code: "KV038",
    name: kebab!("swa-prefix-tails-negative"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--swa-prefix-tails should be a non-negative"),
    explanation: expl!("--swa-prefix-tails counts cached prefix tails to reserve room for, so it cannot be negative."),
    flags: &["--swa-prefix-tails"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --swa-prefix-tails -1"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --swa-prefix-tails 0"),
};

pub static LMCACHE_VS_HICACHE: Rule = Rule {
    code: "KV039",
    name: kebab!("lmcache-vs-hicache"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--enable-lmcache and --enable-hierarchical-cache"),
    explanation: expl!("LMCache and HiCache are two different host/storage tiers for the KV cache; only one can own it."),
    flags: &["--enable-lmcache", "--enable-hierarchical-cache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --enable-hierarchical-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache"),
};

pub static LMCACHE_VS_LINKER: Rule = Rule {
    code: "KV040",
    name: kebab!("lmcache-vs-external-linker"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--enable-lmcache and --enable-unified-cache-external-linker"),
    explanation: expl!("LMCache and the unified-cache external linker both attach an external KV tier; only one can be used."),
    flags: &["--enable-lmcache", "--enable-unified-cache-external-linker"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --enable-unified-cache-external-linker"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache"),
};

pub static LMCACHE_NEEDS_RADIX: Rule = Rule {
    code: "KV041",
    name: kebab!("lmcache-needs-radix-cache"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--enable-lmcache requires radix cache to"),
    explanation: expl!("LMCache plugs into the radix prefix cache, so --disable-radix-cache (or a mode that disables it, such as a PD decode server) rules it out."),
    flags: &["--enable-lmcache", "--disable-radix-cache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --disable-radix-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache"),
};

pub static LMCACHE_NO_SPEC: Rule = Rule {
    code: "KV042",
    name: kebab!("lmcache-rejects-speculative"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "LMCacheUnifiedRadixCache does not yet support speculative"),
    explanation: expl!("The LMCache radix cache does not handle draft-model KV yet. Drop either LMCache or speculative decoding."),
    flags: &["--enable-lmcache", "--speculative-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --speculative-algorithm EAGLE"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache"),
};

pub static LMCACHE_NO_DP_ATTN: Rule = Rule {
    code: "KV043",
    name: kebab!("lmcache-rejects-dp-attention"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "LMCacheUnifiedRadixCache does not yet support DP"),
    explanation: expl!("The LMCache radix cache does not work with data-parallel attention yet."),
    flags: &["--enable-lmcache", "--attn-dp-size", "--enable-dp-attention"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --tp-size 2 --attn-dp-size 2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --tp-size 2"),
};

pub static LMCACHE_NO_DCP: Rule = Rule {
    code: "KV044",
    name: kebab!("lmcache-rejects-dcp"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--enable-lmcache with --dcp-size > 1 is not"),
    explanation: expl!("LMCache cannot map KV indices that are sharded across decode-context-parallel ranks. Use --dcp-size 1 with LMCache."),
    flags: &["--enable-lmcache", "--dcp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --tp-size 2 --dcp-size 2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --tp-size 2"),
};

pub static LMCACHE_NO_STREAMING: Rule = Rule {
    code: "KV045",
    name: kebab!("lmcache-rejects-streaming-session"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "LMCacheUnifiedRadixCache does not yet support streaming"),
    explanation: expl!("Streaming sessions keep KV pinned across turns, which the LMCache radix cache does not support yet."),
    flags: &["--enable-lmcache", "--enable-streaming-session"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --enable-streaming-session"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache"),
};

pub static LMCACHE_BUFFER_ONLY: Rule = Rule {
    code: "KV046",
    name: kebab!("lmcache-rejects-buffer-only-host-mode"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "--hicache-host-memory-mode=buffer_only is"),
    explanation: expl!("--hicache-host-memory-mode buffer_only configures HiCache's host tier, which LMCache does not use. Drop it."),
    flags: &["--enable-lmcache", "--hicache-host-memory-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --hicache-host-memory-mode buffer_only"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache"),
};

pub static LMCACHE_NO_PD: Rule = Rule {
    code: "KV047",
    name: kebab!("lmcache-rejects-pd-disaggregation"),
    sglang: raises("kv_cache_hook.handle_cache_compatibility", "LMCacheUnifiedRadixCache currently supports"),
    explanation: expl!("LMCache works only when prefill and decode run on the same server, not with PD disaggregation."),
    flags: &["--enable-lmcache", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --disaggregation-mode prefill"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache"),
};

// ---------------------------------------------------------------------------------------------
// handle_page_major_kv_layout
// ---------------------------------------------------------------------------------------------

pub static PAGE_MAJOR_NEEDS_UNIFIED: Rule = Rule {
    code: "KV048",
    name: kebab!("page-major-kv-needs-unified-memory"),
    sglang: raises("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout without --enable-unified-memory"),
    explanation: expl!("The page-major KV layout currently exists only inside the unified memory pool. Add --enable-unified-memory (which implies the layout) or drop --enable-page-major-kv-layout."),
    flags: &["--enable-page-major-kv-layout", "--enable-unified-memory"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-page-major-kv-layout"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static PAGE_MAJOR_MAMBA_BACKEND: Rule = Rule {
    code: "KV049",
    name: kebab!("page-major-kv-needs-triton-mamba"),
    sglang: raises("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout requires the Triton Mamba kernels"),
    explanation: expl!("In the page-major layout the Mamba state is strided, which only the Triton Mamba kernels read correctly."),
    flags: &["--enable-page-major-kv-layout", "--mamba-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --mamba-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory"),
};

// ---------------------------------------------------------------------------------------------
// handle_unified_memory_pool
// ---------------------------------------------------------------------------------------------

pub static UM_PD_TRANSFER_BACKEND: Rule = Rule {
    code: "KV050",
    name: kebab!("unified-memory-pd-needs-mooncake"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory with PD disaggregation supports"),
    explanation: expl!("With PD disaggregation, the unified memory pool ships whole page envelopes, which only the Mooncake transfer backend implements."),
    flags: &["--enable-unified-memory", "--disaggregation-transfer-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill --disaggregation-transfer-backend nixl"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill --disaggregation-transfer-backend mooncake"),
};

pub static UM_PD_NO_PP: Rule = Rule {
    code: "KV051",
    name: kebab!("unified-memory-pd-rejects-pp"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory with PD disaggregation does not support pipeline"),
    explanation: expl!("The unified pool's PD transfer moves whole envelopes that hold every layer, so a pipeline stage cannot send just its layers. Use --pp-size 1."),
    flags: &["--enable-unified-memory", "--pp-size", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill --pp-size 2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill"),
};

pub static UM_PD_MOONCAKE_SPEC: Rule = Rule {
    code: "KV052",
    name: kebab!("unified-memory-pd-mooncake-rejects-spec"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory with PD disaggregation does not support speculative"),
    explanation: expl!("The unified pool's Mooncake PD transfer does not carry draft-model KV yet."),
    flags: &["--enable-unified-memory", "--speculative-algorithm", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill --speculative-algorithm EAGLE"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill"),
};

pub static UM_PD_LAZY_COMPACTION: Rule = Rule {
    code: "KV053",
    name: kebab!("unified-memory-pd-needs-lazy-compaction"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory with PD disaggregation requires"),
    explanation: expl!("PD transfers from the unified pool rely on lazy compaction, which the environment variable SGLANG_DISABLE_LAZY_COMPACTION=1 turns off. Unset it for PD disaggregation with --enable-unified-memory."),
    flags: &["--enable-unified-memory", "--disaggregation-mode"],
    example_bad: ex!(""),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill"),
};

pub static UM_PD_NO_HISPARSE: Rule = Rule {
    code: "KV054",
    name: kebab!("unified-memory-pd-rejects-hisparse"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory with PD disaggregation is"),
    explanation: expl!("HiSparse's decode-side transfer bypasses the unified pool's address translation."),
    flags: &["--enable-unified-memory", "--enable-hisparse", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill --enable-hisparse"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill"),
};

pub static UM_OFFLOAD_FILE_ONLY: Rule = Rule {
    code: "KV055",
    name: kebab!("unified-memory-decode-offload-needs-file-storage"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory with decode KV offload"),
    explanation: expl!("Decode-side KV offload from the unified pool has only been implemented for the file storage backend."),
    flags: &["--enable-unified-memory", "--disaggregation-decode-enable-offload-kvcache", "--hicache-storage-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend mooncake"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file"),
};

pub static UM_SPEC_ALGORITHM: Rule = Rule {
    code: "KV056",
    name: kebab!("unified-memory-spec-algorithm-unsupported"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory only supports --speculative-algorithm"),
    explanation: expl!("The unified memory pool has been validated only with DSPARK, DFLASH, EAGLE and EAGLE3 speculative decoding (spelled in upper case)."),
    flags: &["--enable-unified-memory", "--speculative-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --speculative-algorithm NGRAM"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory"),
};

pub static UM_EAGLE_TOPK: Rule = Rule {
    code: "KV057",
    name: kebab!("unified-memory-needs-topk-1"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory supports a linear"),
    explanation: expl!("Tree-shaped speculative drafts (topk > 1) need token-level KV moves the page-granular unified pool cannot do. Use --speculative-eagle-topk 1."),
    flags: &["--enable-unified-memory", "--speculative-eagle-topk"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --speculative-eagle-topk 4"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --speculative-eagle-topk 1"),
};

pub static UM_NO_TBO: Rule = Rule {
    code: "KV059",
    name: kebab!("unified-memory-rejects-two-batch-overlap"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory does not support --enable-two-batch-overlap:"),
    explanation: expl!("Two-batch overlap splits each batch in two, but the unified pool's read tables are indexed by the whole batch. Choose one of the two."),
    flags: &["--enable-unified-memory", "--enable-two-batch-overlap"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --enable-two-batch-overlap"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory"),
};

pub static UM_NO_LMCACHE: Rule = Rule {
    code: "KV060",
    name: kebab!("unified-memory-rejects-lmcache"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory is not yet compatible with --enable-lmcache"),
    explanation: expl!("LMCache would read the unified pool with virtual ids as if they were physical. Choose one of the two."),
    flags: &["--enable-unified-memory", "--enable-lmcache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --enable-lmcache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory"),
};

pub static UM_NO_LINKER: Rule = Rule {
    code: "KV061",
    name: kebab!("unified-memory-rejects-external-linker"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory does not support --enable-unified-cache-external-linker:"),
    explanation: expl!("The external cache linker's direct transfers do not understand the unified pool's page envelopes. Use --enable-hierarchical-cache instead."),
    flags: &["--enable-unified-memory", "--enable-unified-cache-external-linker"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --enable-unified-cache-external-linker"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory"),
};

pub static UM_DCP_NO_PD: Rule = Rule {
    code: "KV062",
    name: kebab!("unified-memory-dcp-rejects-pd"),
    sglang: raises("kv_cache_hook._validate_unified_memory_dcp", "--enable-unified-memory with decode context parallelism (--dcp-size > 1) does not support PD"),
    explanation: expl!("Under DCP each rank's unified page envelope holds only a shard, so the PD transfer of whole envelopes would be wrong."),
    flags: &["--enable-unified-memory", "--dcp-size", "--disaggregation-mode"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-unified-memory --dcp-size 2 --attention-backend flashinfer --disaggregation-mode decode"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-unified-memory --dcp-size 2 --attention-backend flashinfer"),
};

pub static UM_DCP_BACKENDS: Rule = Rule {
    code: "KV063",
    name: kebab!("unified-memory-dcp-backends"),
    sglang: raises("kv_cache_hook._validate_unified_memory_dcp", "--enable-unified-memory with decode context parallelism (--dcp-size > 1) requires"),
    explanation: expl!("With DCP, the unified pool only works with attention backends that translate the widened page ids (flashinfer, trtllm_mla, cutedsl_mla)."),
    flags: &["--enable-unified-memory", "--dcp-size", "--attention-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-unified-memory --dcp-size 2 --attention-backend triton"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-unified-memory --dcp-size 2 --attention-backend flashinfer"),
};

pub static UM_SPEC_VERIFY_BACKENDS: Rule = Rule {
    code: "KV064",
    name: kebab!("unified-memory-spec-verify-backends"),
    sglang: raises("kv_cache_hook._assert_spec_verify_backends", "--enable-unified-memory + {algorithm} requires"),
    explanation: expl!("With the unified pool, DSPARK/DFLASH target verification only runs on attention backends that translate its KV indices."),
    flags: &["--enable-unified-memory", "--speculative-algorithm", "--attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --speculative-algorithm DFLASH --attention-backend torch_native"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --speculative-algorithm DFLASH --attention-backend triton"),
};

/// Every rule in this family.
pub static UM_OFFLOAD_MLA: Rule = Rule {
    code: "KV069",
    name: kebab!("unified-memory-decode-offload-rejects-mla"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory decode KV offload does not support MLA"),
    explanation: expl!("Decode-side KV offload from the unified memory pool is implemented for the MHA pool only; MLA models (DeepSeek, Kimi, GLM-4.7-Flash ...) cannot offload decode KV from it yet."),
    flags: &["--enable-unified-memory", "--disaggregation-decode-enable-offload-kvcache"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-unified-memory --disaggregation-mode decode --disaggregation-transfer-backend mooncake --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --enable-unified-memory --disaggregation-mode decode --disaggregation-transfer-backend mooncake --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file"),
};

pub static UM_OFFLOAD_MAMBA: Rule = Rule {
    code: "KV070",
    name: kebab!("unified-memory-decode-offload-rejects-hybrid-mamba"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory decode KV offload does not support hybrid-Mamba"),
    explanation: expl!("Decode-side KV offload from the unified memory pool does not move the recurrent (Mamba / linear-attention) state of hybrid models such as Qwen3-Next or Nemotron-H."),
    flags: &["--enable-unified-memory", "--disaggregation-decode-enable-offload-kvcache"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 4 --enable-unified-memory --disaggregation-mode decode --disaggregation-transfer-backend mooncake --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --enable-unified-memory --disaggregation-mode decode --disaggregation-transfer-backend mooncake --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file"),
};

pub static UM_OFFLOAD_SWA: Rule = Rule {
    code: "KV071",
    name: kebab!("unified-memory-decode-offload-rejects-hybrid-swa"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory decode KV offload does not support hybrid-SWA"),
    explanation: expl!("Decode-side KV offload from the unified memory pool has no host transfers for the sliding-window sub-pool of hybrid-SWA models (gpt-oss, Gemma 3/4 ...) yet."),
    flags: &["--enable-unified-memory", "--disaggregation-decode-enable-offload-kvcache"],
    example_bad: ex!("--model-path openai/gpt-oss-20b --enable-unified-memory --disaggregation-mode decode --disaggregation-transfer-backend mooncake --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --enable-unified-memory --disaggregation-mode decode --disaggregation-transfer-backend mooncake --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file"),
};

pub static UM_RETRACTION_MAMBA: Rule = Rule {
    code: "KV072",
    name: kebab!("unified-memory-host-pool-retraction-rejects-hybrid-mamba"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory host-pool decode retraction does not support hybrid-Mamba"),
    explanation: expl!("Backing up retracted decode requests to the host pool (--disaggregation-decode-retraction-backup host_pool) from the unified memory pool does not carry the recurrent state of hybrid Mamba / linear-attention models."),
    flags: &["--enable-unified-memory", "--disaggregation-decode-retraction-backup"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 4 --enable-unified-memory --disaggregation-mode decode --disaggregation-transfer-backend mooncake --disaggregation-decode-retraction-backup host_pool"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --enable-unified-memory --disaggregation-mode decode --disaggregation-transfer-backend mooncake --disaggregation-decode-retraction-backup host_pool"),
};

pub static UM_DCP_MLA: Rule = Rule {
    code: "KV073",
    name: kebab!("unified-memory-dcp-needs-mla-model"),
    sglang: raises("kv_cache_hook._validate_unified_memory_dcp", "--enable-unified-memory with decode context parallelism (--dcp-size > 1) supports"),
    explanation: expl!("With decode context parallelism the unified pool writes each rank's shard through a masked path that only its MLA pool has; the MHA unified pool cannot be used with --dcp-size > 1."),
    flags: &["--enable-unified-memory", "--dcp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --dcp-size 2 --enable-unified-memory"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --enable-unified-memory"),
};

pub static UM_EAGLE_UNIFIED_TARGET: Rule = Rule {
    code: "KV074",
    name: kebab!("unified-memory-eagle-needs-hybrid-target"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory + EAGLE/EAGLE3 requires a"),
    explanation: expl!("With the unified memory pool an EAGLE/EAGLE3 draft keeps its KV fused inside the target's sub-pool entries, which only hybrid targets have: sliding-window hybrids (gpt-oss, Gemma ...) or Mamba / linear-attention hybrids (Qwen3-Next ...). A plain full-attention target cannot host it."),
    flags: &["--enable-unified-memory", "--speculative-algorithm"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4 --enable-unified-memory"),
    example_good: ex!("--model-path openai/gpt-oss-20b --speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4 --enable-unified-memory"),
};

pub static UM_EAGLE_TARGET_BACKENDS: Rule = Rule {
    code: "KV075",
    name: kebab!("unified-memory-eagle-target-backends"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory + EAGLE/EAGLE3 requires the"),
    explanation: expl!("With the unified memory pool the EAGLE target verifies on its own translated pages, which only the audited backends read: triton, flashinfer, fa3 or trtllm_mha for MHA models (plus trtllm_mla, cutedsl_mla and flashmla for MLA models)."),
    flags: &["--enable-unified-memory", "--speculative-algorithm", "--attention-backend", "--prefill-attention-backend", "--decode-attention-backend"],
    example_bad: ex!("--model-path openai/gpt-oss-20b --speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4 --enable-unified-memory --attention-backend fa4"),
    example_good: ex!("--model-path openai/gpt-oss-20b --speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4 --enable-unified-memory --attention-backend triton"),
};

pub static UM_EAGLE_DRAFT_BACKEND: Rule = Rule {
    code: "KV076",
    name: kebab!("unified-memory-eagle-draft-backend"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory + EAGLE/EAGLE3 runs"),
    explanation: expl!("With the unified memory pool a fused EAGLE draft is MHA-shaped and reads its KV through the translated MHA backends only (triton, flashinfer, fa3, trtllm_mha); an unset --speculative-draft-attention-backend inherits the target's backends."),
    flags: &["--enable-unified-memory", "--speculative-algorithm", "--speculative-draft-attention-backend"],
    example_bad: ex!("--model-path openai/gpt-oss-20b --speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4 --enable-unified-memory --attention-backend triton --speculative-draft-attention-backend fa4"),
    example_good: ex!("--model-path openai/gpt-oss-20b --speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4 --enable-unified-memory --attention-backend triton"),
};

pub static UM_EAGLE_HICACHE: Rule = Rule {
    code: "KV077",
    name: kebab!("unified-memory-eagle-rejects-hicache"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory + EAGLE/EAGLE3 does not support --enable-hierarchical-cache:"),
    explanation: expl!("HiCache keeps an EAGLE draft on a private pool and would pack its KV into the unified pool's page-envelope host pool, which refuses per-layer draft loads: with the unified memory pool, EAGLE/EAGLE3 and --enable-hierarchical-cache cannot be combined."),
    flags: &["--enable-unified-memory", "--speculative-algorithm", "--enable-hierarchical-cache"],
    example_bad: ex!("--model-path openai/gpt-oss-20b --speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4 --enable-unified-memory --attention-backend triton --enable-hierarchical-cache"),
    example_good: ex!("--model-path openai/gpt-oss-20b --speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B --speculative-eagle-topk 1 --speculative-num-steps 3 --speculative-num-draft-tokens 4 --enable-unified-memory --attention-backend triton"),
};

pub static PAGE_MAJOR_BACKENDS: Rule = Rule {
    code: "KV078",
    name: kebab!("page-major-layout-attention-backends"),
    sglang: raises("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout: the resolved"),
    explanation: expl!("The page-major KV layout (implied by --enable-unified-memory) stores each page as one envelope, so only attention backends whose kernels address the per-layer views by their strides can read it: triton, fa3, fa4, flashinfer or trtllm_mha for MHA models (triton, fa3 or fa4 when K and V rows differ in width), and the paged MLA family (triton, fa3, trtllm_mla, flashinfer, cutedsl_mla, flashmla) for MLA models."),
    flags: &["--enable-unified-memory", "--enable-page-major-kv-layout", "--attention-backend", "--prefill-attention-backend", "--decode-attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --attention-backend torch_native"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --attention-backend triton"),
};

pub static PAGE_MAJOR_LINEAR_DECODE: Rule = Rule {
    code: "KV079",
    name: kebab!("page-major-layout-linear-attention-decode-backend"),
    sglang: raises("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout: linear-attention DECODE"),
    explanation: expl!("In the page-major KV layout the linear-attention (Mamba / GDN / KDA) state is stored in envelope-strided views that only stride-audited decode kernels read: triton or flashinfer (also cutedsl and helion for the KDA hybrids, which are MLA models)."),
    flags: &["--enable-unified-memory", "--enable-page-major-kv-layout", "--linear-attn-decode-backend", "--linear-attn-backend"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 4 --enable-unified-memory --attention-backend triton --linear-attn-decode-backend cutedsl"),
    example_good: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 4 --enable-unified-memory --attention-backend triton --linear-attn-decode-backend triton"),
};

pub static PAGE_MAJOR_LINEAR_PREFILL: Rule = Rule {
    code: "KV080",
    name: kebab!("page-major-layout-linear-attention-prefill-backend"),
    sglang: raises("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout: linear-attention PREFILL"),
    explanation: expl!("In the page-major KV layout the linear-attention (Mamba / GDN / KDA) state is stored in envelope-strided views that only stride-audited prefill kernels read: triton, flashkda or flashinfer (also cutedsl and helion for the KDA hybrids, which are MLA models)."),
    flags: &["--enable-unified-memory", "--enable-page-major-kv-layout", "--linear-attn-prefill-backend", "--linear-attn-backend"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 4 --enable-unified-memory --attention-backend triton --linear-attn-prefill-backend cutedsl"),
    example_good: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 4 --enable-unified-memory --attention-backend triton --linear-attn-prefill-backend triton"),
};

// ---------------------------------------------------------------------------------------------
// SGLang 0.5.18: handle_page_major_kv_layout before the per-layer views
// ---------------------------------------------------------------------------------------------

pub static PAGE_MAJOR_TRITON_ONLY: Rule = Rule {
    code: "KV081",
    name: kebab!("page-major-layout-needs-triton-attention"),
    sglang: raises("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout requires the Triton attention backend"),
    explanation: expl!("Before the per-layer KV views (SGLang 0.5.18), the page-major KV layout (implied by --enable-unified-memory) kept K and V in envelope-strided views that only the Triton attention kernels read. Only with the unified memory pool may an MLA model also use the paged MLA backends (fa3, flashinfer, trtllm_mla, cutedsl_mla, tokenspeed_mla). The backend SGLang picks by default for this model and GPU (fa3 on Hopper, trtllm_mha on Blackwell, flashinfer elsewhere) is not Triton: pass --attention-backend triton."),
    flags: &["--enable-page-major-kv-layout", "--enable-unified-memory", "--attention-backend", "--prefill-attention-backend", "--decode-attention-backend"],
    example_bad: ex!(""),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --attention-backend triton"),
};

// ---------------------------------------------------------------------------------------------
// SGLang 0.5.18 (to 0.5.20): handle_unified_memory_pool before the speculative / host-tier / DCP audits
// ---------------------------------------------------------------------------------------------

pub static UM_NO_HOST_TIER: Rule = Rule {
    code: "KV082",
    name: kebab!("unified-memory-rejects-host-tiers"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory is not yet compatible with hierarchical"),
    explanation: expl!("Up to SGLang 0.5.20 the unified memory pool wires up no host pools, and its device slots are virtual ids the host-offload path does not translate: it cannot be combined with HiCache (--enable-hierarchical-cache) or LMCache (--enable-lmcache). Later releases lift this for HiCache."),
    flags: &["--enable-unified-memory", "--enable-hierarchical-cache", "--enable-lmcache"],
    example_bad: ex!(""),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --attention-backend triton"),
};

pub static UM_NO_DCP: Rule = Rule {
    code: "KV083",
    name: kebab!("unified-memory-rejects-dcp"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory is not yet compatible with decode context"),
    explanation: expl!("Up to SGLang 0.5.19 the unified memory pool has no DCP-aware masked write path, so it cannot be used with decode context parallelism (--dcp-size > 1): the server would start and then fail on its first KV write. Later releases allow it for MLA models."),
    flags: &["--enable-unified-memory", "--dcp-size"],
    example_bad: ex!(""),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-unified-memory"),
};

pub static UM_PIECEWISE_PREFILL_GRAPH: Rule = Rule {
    code: "KV084",
    name: kebab!("unified-memory-rejects-piecewise-prefill-graph"),
    sglang: raises("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory supports monolithic (decode) cuda-graph"),
    explanation: expl!("In SGLang 0.5.18 only the monolithic decode CUDA graph is wired to the unified memory pool; a piecewise prefill graph (tc_piecewise) is not. Disable the prefill graph (--cuda-graph-backend-prefill disabled) or drop --enable-unified-memory."),
    flags: &["--enable-unified-memory", "--cuda-graph-backend-prefill", "--cuda-graph-config"],
    example_bad: ex!(""),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --attention-backend triton --cuda-graph-backend-prefill disabled"),
};

pub static RULES: &[&Rule] = &[
    &KV4_FA4_MLA_DECODE,
    &KV4_FA4_MHA_DECODE,
    &KV4_MLA_BACKEND,
    &KV4_MHA_BACKEND,
    &PREFILL_ONLY_NEEDS_EMBEDDING,
    &PREFILL_ONLY_NO_FP4,
    &PREFILL_ONLY_NO_MXFP8,
    &PREFILL_ONLY_NEEDS_NO_CHUNKING,
    &PREFILL_ONLY_NEEDS_NO_RADIX,
    &PREFILL_ONLY_NO_ATTN_CP,
    &PREFILL_ONLY_NO_PREFILL_CP,
    &PREFILL_ONLY_NO_HISPARSE,
    &DEQUANT_NEEDS_NVFP4,
    &NVFP4_BACKEND_NEITHER,
    &NVFP4_NATIVE_NEEDS_SM100,
    &NVFP4_PREFILL_BACKEND_MISMATCH,
    &NVFP4_DECODE_BACKEND,
    &NVFP4_NEEDS_BLACKWELL,
    &FP4_NO_UNIFIED_MEMORY,
    &NVFP4_SPEC_PREFIX_WRITERS,
    &NVFP4_SPEC_UNSUPPORTED,
    &NVFP4_NGRAM_BREADTH,
    &NVFP4_DRAFT_BACKEND,
    &NVFP4_NO_PD,
    &NVFP4_NO_HOST_TIER,
    &KV4_NON_CUDA,
    &NVFP4_DRAFT_BACKEND_DEFAULT,
    &NVFP4_MIXED_SPEC_MODE,
    &KV4_SPLIT_BACKENDS,
    &MXFP8_NEEDS_BLACKWELL,
    &PREFILL_ONLY_NEEDS_FA,
    &HOST_POOL_NEEDS_DECODE,
    &HOST_POOL_NEEDS_DCP_1,
    &HOST_POOL_PRIORITY_PREEMPTION,
    &TLRU_NEGATIVE,
    &TLRU_THRESHOLD,
    &HICACHE_VS_NO_RADIX,
    &OFFLOAD_NEEDS_DECODE,
    &OFFLOAD_NEEDS_STORAGE,
    &OFFLOAD_VS_HOST_POOL,
    &SWA_RATIO_RANGE,
    &SWA_PREFIX_TAILS,
    &LMCACHE_VS_HICACHE,
    &LMCACHE_VS_LINKER,
    &LMCACHE_NEEDS_RADIX,
    &LMCACHE_NO_SPEC,
    &LMCACHE_NO_DP_ATTN,
    &LMCACHE_NO_DCP,
    &LMCACHE_NO_STREAMING,
    &LMCACHE_BUFFER_ONLY,
    &LMCACHE_NO_PD,
    &PAGE_MAJOR_NEEDS_UNIFIED,
    &PAGE_MAJOR_MAMBA_BACKEND,
    &UM_PD_TRANSFER_BACKEND,
    &UM_PD_NO_PP,
    &UM_PD_MOONCAKE_SPEC,
    &UM_PD_LAZY_COMPACTION,
    &UM_PD_NO_HISPARSE,
    &UM_OFFLOAD_FILE_ONLY,
    &UM_SPEC_ALGORITHM,
    &UM_EAGLE_TOPK,
    &UM_NO_TBO,
    &UM_NO_LMCACHE,
    &UM_NO_LINKER,
    &UM_DCP_NO_PD,
    &UM_DCP_BACKENDS,
    &UM_SPEC_VERIFY_BACKENDS,
    &UM_OFFLOAD_MLA,
    &UM_OFFLOAD_MAMBA,
    &UM_OFFLOAD_SWA,
    &UM_RETRACTION_MAMBA,
    &UM_DCP_MLA,
    &UM_EAGLE_UNIFIED_TARGET,
    &UM_EAGLE_TARGET_BACKENDS,
    &UM_EAGLE_DRAFT_BACKEND,
    &UM_EAGLE_HICACHE,
    &PAGE_MAJOR_BACKENDS,
    &PAGE_MAJOR_LINEAR_DECODE,
    &PAGE_MAJOR_LINEAR_PREFILL,
    &PAGE_MAJOR_TRITON_ONLY,
    &UM_NO_HOST_TIER,
    &UM_NO_DCP,
    &UM_PIECEWISE_PREFILL_GRAPH,
];

// ---------------------------------------------------------------------------------------------
// Platform facts (`runtime_context.get_platform()`), from `utils/common.py`'s probes:
// `_check_cuda_device_version(majors, cuda_version=(12, 8))` needs CUDA and a CUDA runtime
// of at least 12.8.
// ---------------------------------------------------------------------------------------------

fn cuda_at_least_12_8(hw: &Hardware) -> bool {
    let Some(v) = hw.cuda_version else { return false };
    let mut parts = v.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let major = parts.next().unwrap_or(0);
    let minor = parts.next().unwrap_or(0);
    (major, minor) >= (12, 8)
}

fn cuda_major_in(hw: &Hardware, majors: &[u32]) -> bool {
    hw.is_cuda() && majors.contains(&hw.capability.0) && cuda_at_least_12_8(hw)
}

/// `get_platform().is_sm100`
pub fn is_sm100(hw: &Hardware) -> bool {
    cuda_major_in(hw, &[10])
}

/// `get_platform().is_sm120`
pub fn is_sm120(hw: &Hardware) -> bool {
    cuda_major_in(hw, &[12])
}

/// `get_platform().is_blackwell` (SM100, SM110, SM120).
pub fn is_blackwell(hw: &Hardware) -> bool {
    cuda_major_in(hw, &[10, 11, 12])
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

/// Python `repr(sorted(set_of_str))`.
fn sorted_repr(items: &[&str]) -> String {
    let mut v: Vec<&str> = items.to_vec();
    crate::sorting::sort(&mut v);
    v.dedup();
    let inner: Vec<String> = v.iter().map(|s| str_repr(s)).collect();
    format!("[{}]", inner.join(", "))
}

fn opt_str(ctx: &Ctx, field: Field) -> Option<String> {
    ctx.cfg.str(field).map(str::to_string)
}

/// `attention_backends_of(resolved_view(server_args))` after `attention_hook` has run: known
/// here only when the command (or an earlier modelled hook) fixes both the prefill and the
/// decode backend; otherwise `attention_hook` picks them from the model.
fn resolved_backends(ctx: &Ctx) -> Option<(String, String)> {
    let prefill = opt_str(ctx, f::prefill_attention_backend).filter(|s| !s.is_empty());
    let decode = opt_str(ctx, f::decode_attention_backend).filter(|s| !s.is_empty());
    if let (Some(p), Some(d)) = (&prefill, &decode) {
        // both split backends set: the base backend (perhaps the model's default) is not read
        return Some((p.clone(), d.clone()));
    }
    let base = opt_str(ctx, f::attention_backend);
    let prefill = prefill.or_else(|| base.clone());
    let decode = decode.or(base);
    match (prefill, decode) {
        (Some(p), Some(d)) => Some((p, d)),
        _ => None,
    }
}

fn py_opt_repr(v: &Option<String>) -> String {
    match v {
        Some(s) => str_repr(s),
        None => "None".to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Hooks
// ---------------------------------------------------------------------------------------------

/// `validate_prefill_only_disable_kv_cache_args`
pub fn validate_prefill_only_disable_kv_cache_args(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.truthy(f::prefill_only_disable_kv_cache) {
        return Ok(());
    }
    let drop_flag = |ctx: &Ctx| {
        ctx.fix_remove("Remove --prefill-only-disable-kv-cache (keep the KV cache)", f::prefill_only_disable_kv_cache, Applicability::Unsafe)
    };
    if !ctx.cfg.truthy(f::is_embedding) {
        let fixes = vec![
            ctx.fix_add_flag("Add --is-embedding (serve an embedding model)", f::is_embedding, Applicability::Unsafe),
            drop_flag(ctx),
        ];
        ctx.raise(&PREFILL_ONLY_NEEDS_EMBEDDING, &[], &[f::prefill_only_disable_kv_cache, f::is_embedding], fixes)?;
    }
    let kv = opt_str(ctx, f::kv_cache_dtype);
    if matches!(kv.as_deref(), Some("nvfp4") | Some("fp4_mx_block16")) {
        let fixes = vec![
            ctx.fix_remove("Remove --kv-cache-dtype (no KV cache is kept)", f::kv_cache_dtype, Applicability::Safe),
            drop_flag(ctx),
        ];
        ctx.raise(&PREFILL_ONLY_NO_FP4, &[], &[f::kv_cache_dtype, f::prefill_only_disable_kv_cache], fixes)?;
    }
    if kv.as_deref() == Some("mxfp8") {
        let fixes = vec![
            ctx.fix_remove("Remove --kv-cache-dtype (no KV cache is kept)", f::kv_cache_dtype, Applicability::Safe),
            drop_flag(ctx),
        ];
        ctx.raise(&PREFILL_ONLY_NO_MXFP8, &[], &[f::kv_cache_dtype, f::prefill_only_disable_kv_cache], fixes)?;
    }
    if ctx.cfg.int(f::chunked_prefill_size) != Some(-1) {
        let fixes = vec![ctx.fix_set("Set --chunked-prefill-size -1", f::chunked_prefill_size, "-1", Applicability::Safe), drop_flag(ctx)];
        ctx.raise(&PREFILL_ONLY_NEEDS_NO_CHUNKING, &[], &[f::chunked_prefill_size, f::prefill_only_disable_kv_cache], fixes)?;
    }
    if !ctx.cfg.truthy(f::disable_radix_cache) {
        let fixes = vec![ctx.fix_add_flag("Add --disable-radix-cache", f::disable_radix_cache, Applicability::Safe), drop_flag(ctx)];
        ctx.raise(&PREFILL_ONLY_NEEDS_NO_RADIX, &[], &[f::prefill_only_disable_kv_cache], fixes)?;
    }
    if ctx.cfg.int(f::attn_cp_size).unwrap_or(1) > 1 {
        let fixes = vec![ctx.fix_remove("Remove --attn-cp-size", f::attn_cp_size, Applicability::Unsafe)];
        ctx.raise(&PREFILL_ONLY_NO_ATTN_CP, &[], &[f::attn_cp_size, f::prefill_only_disable_kv_cache], fixes)?;
    }
    if ctx.cfg.truthy(f::enable_prefill_cp) {
        let fixes = vec![ctx.fix_remove("Remove --enable-prefill-cp", f::enable_prefill_cp, Applicability::Unsafe)];
        ctx.raise(&PREFILL_ONLY_NO_PREFILL_CP, &[], &[f::enable_prefill_cp, f::prefill_only_disable_kv_cache], fixes)?;
    }
    if ctx.cfg.truthy(f::enable_hisparse) {
        let fixes = vec![ctx.fix_remove("Remove --enable-hisparse", f::enable_hisparse, Applicability::Unsafe)];
        ctx.raise(&PREFILL_ONLY_NO_HISPARSE, &[], &[f::enable_hisparse, f::prefill_only_disable_kv_cache], fixes)?;
    }
    Ok(())
}

/// `handle_nvfp4_prefill_kv_dequant_dtype`
pub fn handle_nvfp4_prefill_kv_dequant_dtype(ctx: &mut Ctx) -> Step {
    let requested0 = opt_str(ctx, f::prefill_kv_cache_dequant_dtype);
    if !ctx.cfg.is(f::kv_cache_dtype, "nvfp4") {
        if requested0.as_deref() != Some("auto") {
            let fixes = vec![
                ctx.fix_remove("Remove --prefill-kv-cache-dequant-dtype", f::prefill_kv_cache_dequant_dtype, Applicability::Safe),
                ctx.fix_set("Use --kv-cache-dtype nvfp4", f::kv_cache_dtype, "nvfp4", Applicability::Unsafe),
            ];
            ctx.raise(&DEQUANT_NEEDS_NVFP4, &[], &[f::prefill_kv_cache_dequant_dtype, f::kv_cache_dtype], fixes)?;
        }
        return Ok(());
    }
    let sm100 = is_sm100(ctx.hw);
    let mut requested = requested0.clone().unwrap_or_default();
    if requested == "auto" {
        // `cfg.prefill_attention_backend or cfg.attention_backend`
        let explicit_backend = opt_str(ctx, f::prefill_attention_backend)
            .filter(|s| !s.is_empty())
            .or_else(|| opt_str(ctx, f::attention_backend));
        match explicit_backend.as_deref() {
            Some("flashinfer") => requested = "fp8_e4m3".into(),
            Some("trtllm_mha") => requested = "nvfp4".into(),
            Some(other) => {
                let args: &Args = &[("explicit_backend", &str_repr(other))];
                let dest = if ctx.cfg.is_explicit(f::prefill_attention_backend) { f::prefill_attention_backend } else { f::attention_backend };
                let fixes = vec![
                    ctx.fix_remove("Remove the attention backend option (NVFP4 picks its own)", dest, Applicability::Safe),
                    ctx.fix_remove("Remove --kv-cache-dtype nvfp4 (keep the backend)", f::kv_cache_dtype, Applicability::Unsafe),
                ];
                ctx.raise(&NVFP4_BACKEND_NEITHER, args, &[dest, f::kv_cache_dtype], fixes)?;
            }
            None => requested = if sm100 { "nvfp4".into() } else { "fp8_e4m3".into() },
        }
    }
    if requested == "nvfp4" && !sm100 {
        let fixes = vec![ctx.fix_set(
            "Use --prefill-kv-cache-dequant-dtype fp8_e4m3",
            f::prefill_kv_cache_dequant_dtype,
            "fp8_e4m3",
            Applicability::Safe,
        )];
        ctx.raise(&NVFP4_NATIVE_NEEDS_SM100, &[], &[f::prefill_kv_cache_dequant_dtype, f::attention_backend, f::kv_cache_dtype], fixes)?;
    }
    let target_prefill = if requested == "nvfp4" { "trtllm_mha" } else { "flashinfer" };
    if let Some(explicit_prefill) = opt_str(ctx, f::prefill_attention_backend) {
        if explicit_prefill != target_prefill {
            let args: &Args = &[("requested_dtype", &requested), ("target_prefill_backend", &str_repr(target_prefill)), ("explicit_prefill_backend", &str_repr(&explicit_prefill))];
            let fixes = vec![ctx.fix_remove("Remove --prefill-attention-backend", f::prefill_attention_backend, Applicability::Safe)];
            ctx.raise(&NVFP4_PREFILL_BACKEND_MISMATCH, args, &[f::prefill_attention_backend, f::prefill_kv_cache_dequant_dtype], fixes)?;
        }
    }
    let explicit_decode = opt_str(ctx, f::decode_attention_backend);
    if let Some(d) = explicit_decode.as_deref() {
        if d != "trtllm_mha" {
            let args: &Args = &[("explicit_decode_backend", &str_repr(d))];
            let fixes = vec![ctx.fix_remove("Remove --decode-attention-backend", f::decode_attention_backend, Applicability::Safe)];
            ctx.raise(&NVFP4_DECODE_BACKEND, args, &[f::decode_attention_backend, f::kv_cache_dtype], fixes)?;
        }
    }
    ctx.cfg.set(f::prefill_attention_backend, PyValue::Str(target_prefill.into()));
    ctx.cfg.set(f::decode_attention_backend, PyValue::Str("trtllm_mha".into()));
    if requested0.as_deref() == Some("auto") {
        ctx.cfg.set(f::prefill_kv_cache_dequant_dtype, PyValue::Str(requested));
    }
    Ok(())
}

/// `handle_kv4_compatibility`
pub fn handle_kv4_compatibility(ctx: &mut Ctx) -> Step {
    let kv = opt_str(ctx, f::kv_cache_dtype).unwrap_or_default();
    if kv != "nvfp4" && kv != "fp4_mx_block16" {
        return Ok(());
    }
    if !ctx.hw.is_cuda() {
        let fixes = vec![ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe)];
        ctx.raise(&KV4_NON_CUDA, &[], &[f::kv_cache_dtype], fixes)?;
    }
    let nvfp4 = kv == "nvfp4";
    let sm100 = is_sm100(ctx.hw);
    if nvfp4 && !(sm100 || is_sm120(ctx.hw)) {
        // (fp4_mx_block16, the message's suggestion, then needs an attention backend that
        // depends on the model; FP8 is the fix that always works.)
        let fixes = vec![ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe)];
        ctx.raise(&NVFP4_NEEDS_BLACKWELL, &[], &[f::kv_cache_dtype], fixes)?;
    }
    if ctx.cfg.truthy(f::enable_unified_memory) && FP4_NO_UNIFIED_MEMORY.applies_to(ctx.release) {
        let fixes = vec![
            ctx.fix_remove("Remove --enable-unified-memory (keep the FP4 KV cache)", f::enable_unified_memory, Applicability::Unsafe),
            ctx.fix_remove("Remove --kv-cache-dtype (keep the unified pool)", f::kv_cache_dtype, Applicability::Unsafe),
        ];
        ctx.raise(&FP4_NO_UNIFIED_MEMORY, &[], &[f::enable_unified_memory, f::kv_cache_dtype], fixes)?;
    }
    // After attention_hook: for nvfp4 the backends were fixed by
    // handle_nvfp4_prefill_kv_dequant_dtype; for fp4_mx_block16 only if the command sets them.
    let Some((prefill, decode)) = resolved_backends(ctx) else {
        // The split-backend warning and the backend asserts depend on the model's defaults.
        // (Only fp4_mx_block16 gets here, and the SM100 NVFP4 checks do not apply to it.)
        ctx.model_config(site("kv_cache_hook.handle_kv4_compatibility", "KV4 FA4 MLA expects decode_attention_backend"));
        ctx.model_config(site("kv_cache_hook.handle_kv4_compatibility", "KV4 FA4 MHA expects decode_attention_backend"));
        ctx.model_config(site("kv_cache_hook.handle_kv4_compatibility", "KV4 MLA expects attention_backend to be one"));
        ctx.model_config(site("kv_cache_hook.handle_kv4_compatibility", "KV4 MHA expects attention_backend to be one"));
        return Ok(());
    };
    // The native NVFP4 (trtllm_mha) and mixed FP8-prefill recipes: none before 0.5.21.
    let native = native_nvfp4_recipes(ctx);
    let uses_sm100_trtllm = native && nvfp4 && sm100 && (prefill == "trtllm_mha" || decode == "trtllm_mha");
    let uses_mixed = native && nvfp4 && prefill == "flashinfer" && decode == "trtllm_mha";
    let uses_sm100_mixed = uses_sm100_trtllm && uses_mixed;
    let spec = opt_str(ctx, f::speculative_algorithm).map(|s| s.to_uppercase());
    if uses_sm100_trtllm {
        if let Some(alg) = spec.as_deref() {
            if alg == "DFLASH" || alg == "DSPARK" {
                let args: &Args = &[("speculative_algorithm", &alg)];
                let fixes = vec![ctx.fix_set(format!("Use --kv-cache-dtype fp8_e4m3 (keep {alg})"), f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe)];
                ctx.raise(&NVFP4_SPEC_PREFIX_WRITERS, args, &[f::speculative_algorithm, f::kv_cache_dtype], fixes)?;
            }
            if !matches!(alg, "EAGLE" | "EAGLE3" | "NEXTN" | "NGRAM") {
                let args: &Args = &[("speculative_algorithm", &alg)];
                let fixes = vec![ctx.fix_set(format!("Use --kv-cache-dtype fp8_e4m3 (keep {alg})"), f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe)];
                ctx.raise(&NVFP4_SPEC_UNSUPPORTED, args, &[f::speculative_algorithm, f::kv_cache_dtype], fixes)?;
            }
            if alg == "NGRAM" {
                let breadth = ctx.cfg.get(f::speculative_ngram_max_bfs_breadth).clone();
                if breadth.as_int() != Some(1) {
                    let args: &Args = &[("cfg.speculative_ngram_max_bfs_breadth", &breadth.py_str())];
                    let fixes = vec![ctx.fix_set(
                        "Set --speculative-ngram-max-bfs-breadth 1",
                        f::speculative_ngram_max_bfs_breadth,
                        "1",
                        Applicability::Safe,
                    )];
                    ctx.raise(&NVFP4_NGRAM_BREADTH, args, &[f::speculative_ngram_max_bfs_breadth, f::speculative_algorithm], fixes)?;
                }
            }
            if alg != "NGRAM" {
                match opt_str(ctx, f::speculative_draft_attention_backend) {
                    None => {
                        ctx.warn(&NVFP4_DRAFT_BACKEND_DEFAULT, &[], &[f::speculative_algorithm], vec![]);
                        ctx.cfg.set(f::speculative_draft_attention_backend, PyValue::Str("trtllm_mha".into()));
                    }
                    Some(d) if d != "trtllm_mha" => {
                        let args: &Args = &[("draft_backend", &str_repr(&d))];
                        let fixes = vec![ctx.fix_remove(
                            "Remove --speculative-draft-attention-backend (trtllm_mha is chosen)",
                            f::speculative_draft_attention_backend,
                            Applicability::Safe,
                        )];
                        ctx.raise(&NVFP4_DRAFT_BACKEND, args, &[f::speculative_draft_attention_backend], fixes)?;
                    }
                    Some(_) => {}
                }
            }
        }
    }
    if uses_sm100_mixed && spec.is_some() && ctx.cfg.is(f::speculative_attention_mode, "prefill") {
        ctx.warn(&NVFP4_MIXED_SPEC_MODE, &[], &[f::speculative_attention_mode, f::kv_cache_dtype], vec![]);
        ctx.cfg.set(f::speculative_attention_mode, PyValue::Str("decode".into()));
    }
    if uses_sm100_trtllm && !ctx.cfg.is(f::disaggregation_mode, "null") {
        let fixes = vec![
            ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe),
            ctx.fix_remove("Remove --disaggregation-mode", f::disaggregation_mode, Applicability::Unsafe),
        ];
        ctx.raise(&NVFP4_NO_PD, &[], &[f::disaggregation_mode, f::kv_cache_dtype], fixes)?;
    }
    if uses_sm100_trtllm && (ctx.cfg.truthy(f::enable_hierarchical_cache) || ctx.cfg.truthy(f::enable_lmcache)) {
        let dest = if ctx.cfg.truthy(f::enable_hierarchical_cache) { f::enable_hierarchical_cache } else { f::enable_lmcache };
        let fixes = vec![
            ctx.fix_remove("Remove the host cache tier", dest, Applicability::Unsafe),
            ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe),
        ];
        ctx.raise(&NVFP4_NO_HOST_TIER, &[], &[dest, f::kv_cache_dtype], fixes)?;
    }
    if prefill != decode && prefill != "fa4" {
        if !uses_mixed {
            let args: &Args = &[("prefill_backend", &prefill), ("decode_backend", &decode)];
            ctx.warn(&KV4_SPLIT_BACKENDS, args, &[f::prefill_attention_backend, f::decode_attention_backend], vec![]);
        }
    } else {
        // The backend asserts branch on use_mla_backend (the model's attention arch): with an
        // FA4 prefill, #9 (MLA) or #10 (MHA) on the decode backend; else #11 or #12.
        return kv4_backend_asserts(ctx, &prefill, &decode);
    }
    Ok(())
}

/// Whether the release has SM100's native NVFP4 KV recipe on trtllm_mha (and the mixed FP8-prefill
/// one): its checks and the split-backend warning's exemption came with them.
fn native_nvfp4_recipes(ctx: &Ctx) -> bool {
    NVFP4_SPEC_PREFIX_WRITERS.applies_to(ctx.release)
}

/// `handle_kv4_compatibility`'s backend asserts, which branch on the model's attention (MLA).
fn kv4_backend_asserts(ctx: &mut Ctx, prefill: &str, decode: &str) -> Step {
    let fa4 = prefill == "fa4";
    let (mla_site, mha_site) = if fa4 {
        (site("kv_cache_hook.handle_kv4_compatibility", "KV4 FA4 MLA expects decode_attention_backend"), site("kv_cache_hook.handle_kv4_compatibility", "KV4 FA4 MHA expects decode_attention_backend"))
    } else {
        (site("kv_cache_hook.handle_kv4_compatibility", "KV4 MLA expects attention_backend to be one"), site("kv_cache_hook.handle_kv4_compatibility", "KV4 MHA expects attention_backend to be one"))
    };
    let Some(is_mla) = ctx.model_fact(mla_site, |m| m.derived.is_mla) else {
        ctx.skip(mha_site, crate::rules::NotRunReason::ModelConfig);
        return Ok(());
    };
    // with an FA4 prefill the decode backend is checked; else the base backend
    let (checked, field, rule): (Option<String>, Field, &'static Rule) = match (fa4, is_mla) {
        (true, true) => (Some(decode.to_string()), f::decode_attention_backend, &KV4_FA4_MLA_DECODE),
        (true, false) => (Some(decode.to_string()), f::decode_attention_backend, &KV4_FA4_MHA_DECODE),
        (false, true) => (opt_str(ctx, f::attention_backend), f::attention_backend, &KV4_MLA_BACKEND),
        (false, false) => (opt_str(ctx, f::attention_backend), f::attention_backend, &KV4_MHA_BACKEND),
    };
    let (choices_name, got_name) = match (fa4, is_mla) {
        (true, true) => ("KV4_FA4_MLA_BACKEND_CHOICES", "decode_backend"),
        (true, false) => ("KV4_FA4_MHA_BACKEND_CHOICES", "decode_backend"),
        (false, true) => ("KV4_ATTENTION_MLA_BACKEND_CHOICES", "attention_backend"),
        (false, false) => ("KV4_ATTENTION_MHA_BACKEND_CHOICES", "attention_backend"),
    };
    // the release's list as its source writes it (a list the message prints)
    let Some(choices) = ctx.release.model_lists().and_then(|l| l.kv4_backend_choices.get(choices_name)) else {
        ctx.skip(if is_mla { mla_site } else { mha_site }, crate::rules::NotRunReason::NotImplemented);
        return Ok(());
    };
    if checked.as_deref().is_some_and(|b| choices.iter().any(|c| c == b)) {
        return Ok(());
    }
    let listed = format!("[{}]", choices.iter().map(|c| str_repr(c)).collect::<Vec<_>>().join(", "));
    let shown = checked.clone().unwrap_or_else(|| "None".to_string());
    // (cutlass_mla, which 0.5.18's MLA lists name first, runs on SM100 only)
    let first = choices.iter().map(String::as_str).find(|c| *c != "cutlass_mla").unwrap_or("triton");
    // the decode side is written by --decode-attention-backend when the command sets it, else by
    // --attention-backend
    let dest = if field == f::decode_attention_backend && !ctx.cfg.is_explicit(f::decode_attention_backend) { f::attention_backend } else { field };
    let fixes = vec![
        ctx.fix_set(format!("Use {} {first}", ctx.flag(dest)), dest, first, Applicability::Unsafe),
        ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe),
    ];
    ctx.raise(rule, &[(choices_name, &listed), (got_name, &shown)], &[f::kv_cache_dtype, dest], fixes)
}

/// `handle_mxfp8_kv_cache_compatibility`
pub fn handle_mxfp8_kv_cache_compatibility(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.is(f::kv_cache_dtype, "mxfp8") {
        return Ok(());
    }
    if !is_blackwell(ctx.hw) {
        let fixes = vec![ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe)];
        ctx.raise(&MXFP8_NEEDS_BLACKWELL, &[], &[f::kv_cache_dtype], fixes)?;
    }
    Ok(())
}

/// `handle_prefill_only_disable_kv_cache`
pub fn handle_prefill_only_disable_kv_cache(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.truthy(f::prefill_only_disable_kv_cache) {
        return Ok(());
    }
    // #1 (the ordering assert) cannot fire: attention_hook always resolves a backend.
    let Some((prefill, _)) = resolved_backends(ctx) else {
        ctx.model_config(site("kv_cache_hook.handle_prefill_only_disable_kv_cache", "--prefill-only-disable-kv-cache currently"));
        return Ok(());
    };
    if prefill != "fa3" && prefill != "fa4" {
        let args: &Args = &[("prefill_backend", &str_repr(&prefill))];
        let dest = if ctx.cfg.is_explicit(f::prefill_attention_backend) { f::prefill_attention_backend } else { f::attention_backend };
        let fa = if is_blackwell(ctx.hw) { "fa4" } else { "fa3" };
        let flag = if dest == f::prefill_attention_backend { "--prefill-attention-backend" } else { "--attention-backend" };
        let fixes = vec![ctx.fix_set(format!("Use {flag} {fa}"), dest, fa, Applicability::Unsafe)];
        ctx.raise(&PREFILL_ONLY_NEEDS_FA, args, &[dest, f::prefill_only_disable_kv_cache], fixes)?;
    }
    Ok(())
}

/// `handle_cache_compatibility`
pub fn handle_cache_compatibility(ctx: &mut Ctx) -> Step {
    let host_pool = ctx.cfg.is(f::disaggregation_decode_retraction_backup, "host_pool");
    let decode = ctx.cfg.is(f::disaggregation_mode, "decode");
    let dcp = ctx.cfg.int(f::dcp_size).unwrap_or(1);
    if host_pool && !decode {
        let fixes = vec![
            ctx.fix_remove("Remove --disaggregation-decode-retraction-backup", f::disaggregation_decode_retraction_backup, Applicability::Safe),
            ctx.fix_set("Run as a PD decode server (--disaggregation-mode decode)", f::disaggregation_mode, "decode", Applicability::Unsafe),
        ];
        ctx.raise(&HOST_POOL_NEEDS_DECODE, &[], &[f::disaggregation_decode_retraction_backup, f::disaggregation_mode], fixes)?;
    }
    if host_pool && dcp > 1 {
        let fixes = vec![
            ctx.fix_set("Set --dcp-size 1 (keep the host-pool backup)", f::dcp_size, "1", Applicability::Unsafe),
            ctx.fix_remove("Remove --disaggregation-decode-retraction-backup (keep DCP)", f::disaggregation_decode_retraction_backup, Applicability::Unsafe),
        ];
        ctx.raise(&HOST_POOL_NEEDS_DCP_1, &[], &[f::disaggregation_decode_retraction_backup, f::dcp_size], fixes)?;
    }
    if host_pool && ctx.cfg.truthy(f::enable_priority_scheduling) && !ctx.cfg.truthy(f::disable_priority_preemption) {
        let fixes = vec![
            ctx.fix_add_flag("Add --disable-priority-preemption", f::disable_priority_preemption, Applicability::Safe),
            ctx.fix_remove("Remove --disaggregation-decode-retraction-backup", f::disaggregation_decode_retraction_backup, Applicability::Unsafe),
        ];
        ctx.raise(&HOST_POOL_PRIORITY_PREEMPTION, &[], &[f::disaggregation_decode_retraction_backup, f::enable_priority_scheduling], fixes)?;
    }
    if ctx.cfg.is(f::radix_eviction_policy, "tlru") {
        let conf = ctx.cfg.get(f::radix_eviction_policy_config).clone();
        let (threshold, estimate) = match &conf {
            PyValue::Dict(items) => {
                let get = |k: &str| items.iter().rev().find(|(kk, _)| kk == k).map(|(_, v)| v.clone()).unwrap_or(PyValue::Int(0));
                (get("threshold"), get("next_prompt_estimate"))
            }
            v if !v.truthy() => (PyValue::Int(0), PyValue::Int(0)),
            _ => {
                // `.get` on a non-dict JSON value: an AttributeError we do not model.
                ctx.skip(site("kv_cache_hook.handle_cache_compatibility", "--radix-eviction-policy tlru requires non-negative"), NotRunReason::NotImplemented);
                (PyValue::Int(1), PyValue::Int(0))
            }
        };
        if let (Some(t), Some(e)) = (threshold.as_float(), estimate.as_float()) {
            if t < 0.0 || e < 0.0 {
                let args: &Args = &[("threshold", &threshold.py_str()), ("next_prompt_estimate", &estimate.py_str())];
                let fixes = vec![ctx.fix_set("Use --radix-eviction-policy lru", f::radix_eviction_policy, "lru", Applicability::Unsafe)];
                ctx.raise(&TLRU_NEGATIVE, args, &[f::radix_eviction_policy_config, f::radix_eviction_policy], fixes)?;
            }
            if t <= e {
                let args: &Args = &[("threshold", &threshold.py_str()), ("next_prompt_estimate", &estimate.py_str())];
                let fixes = vec![ctx.fix_set("Use --radix-eviction-policy lru", f::radix_eviction_policy, "lru", Applicability::Unsafe)];
                ctx.raise(&TLRU_THRESHOLD, args, &[f::radix_eviction_policy_config, f::radix_eviction_policy], fixes)?;
            }
        }
    }
    if ctx.cfg.truthy(f::enable_hierarchical_cache) && ctx.cfg.truthy(f::disable_radix_cache) {
        let fixes = vec![
            ctx.fix_remove("Remove --disable-radix-cache (keep HiCache)", f::disable_radix_cache, Applicability::Unsafe),
            ctx.fix_remove("Remove --enable-hierarchical-cache", f::enable_hierarchical_cache, Applicability::Unsafe),
        ];
        ctx.raise(&HICACHE_VS_NO_RADIX, &[], &[f::enable_hierarchical_cache, f::disable_radix_cache], fixes)?;
    }
    if ctx.cfg.truthy(f::disaggregation_decode_enable_offload_kvcache) {
        if !decode {
            let fixes = vec![ctx.fix_remove("Remove --disaggregation-decode-enable-offload-kvcache", f::disaggregation_decode_enable_offload_kvcache, Applicability::Safe)];
            ctx.raise(&OFFLOAD_NEEDS_DECODE, &[], &[f::disaggregation_decode_enable_offload_kvcache, f::disaggregation_mode], fixes)?;
        }
        if ctx.cfg.is_none(f::hicache_storage_backend) {
            let fixes = vec![
                ctx.fix_set("Add --hicache-storage-backend file", f::hicache_storage_backend, "file", Applicability::Unsafe),
                ctx.fix_remove("Remove --disaggregation-decode-enable-offload-kvcache", f::disaggregation_decode_enable_offload_kvcache, Applicability::Unsafe),
            ];
            ctx.raise(&OFFLOAD_NEEDS_STORAGE, &[], &[f::disaggregation_decode_enable_offload_kvcache], fixes)?;
        }
        if host_pool {
            let fixes = vec![
                ctx.fix_remove("Remove --disaggregation-decode-retraction-backup", f::disaggregation_decode_retraction_backup, Applicability::Unsafe),
                ctx.fix_remove("Remove --disaggregation-decode-enable-offload-kvcache", f::disaggregation_decode_enable_offload_kvcache, Applicability::Unsafe),
            ];
            ctx.raise(&OFFLOAD_VS_HOST_POOL, &[], &[f::disaggregation_decode_retraction_backup, f::disaggregation_decode_enable_offload_kvcache], fixes)?;
        }
    }
    let ratio = ctx.cfg.get(f::swa_full_tokens_ratio).clone();
    ctx.cfg.set(f::_swa_full_tokens_ratio_explicitly_set, PyValue::Bool(!ratio.is_none()));
    // `resolution_result`: the declared value, else the field's fallback 0.8. Model branches
    // (Step3p with HiCache, DeepSeek-V4, Inkling) may declare their own value first.
    if let Some(r) = ratio.as_float() {
        if !(r > 0.0 && r <= 1.0) {
            if ctx.cfg.truthy(f::enable_hierarchical_cache) {
                ctx.model_config(site("kv_cache_hook.handle_cache_compatibility", "--swa-full-tokens-ratio should be in range"));
            } else {
                let fixes = vec![ctx.fix_remove("Remove --swa-full-tokens-ratio (default 0.8)", f::swa_full_tokens_ratio, Applicability::Unsafe)];
                ctx.raise(&SWA_RATIO_RANGE, &[], &[f::swa_full_tokens_ratio], fixes)?;
            }
        }
    }
    if let Some(t) = ctx.cfg.int(f::swa_prefix_tails) {
        if t < 0 {
            let fixes = vec![ctx.fix_remove("Remove --swa-prefix-tails (use the default)", f::swa_prefix_tails, Applicability::Unsafe)];
            ctx.raise(&SWA_PREFIX_TAILS, &[], &[f::swa_prefix_tails], fixes)?;
        }
    }
    if ctx.cfg.truthy(f::enable_lmcache) {
        let drop_lmcache = |ctx: &Ctx| ctx.fix_remove("Remove --enable-lmcache", f::enable_lmcache, Applicability::Unsafe);
        if ctx.cfg.truthy(f::enable_hierarchical_cache) {
            let fixes = vec![ctx.fix_remove("Remove --enable-hierarchical-cache", f::enable_hierarchical_cache, Applicability::Unsafe), drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_VS_HICACHE, &[], &[f::enable_lmcache, f::enable_hierarchical_cache], fixes)?;
        }
        if ctx.cfg.truthy(f::enable_unified_cache_external_linker) {
            let fixes = vec![
                ctx.fix_remove("Remove --enable-unified-cache-external-linker", f::enable_unified_cache_external_linker, Applicability::Unsafe),
                drop_lmcache(ctx),
            ];
            ctx.raise(&LMCACHE_VS_LINKER, &[], &[f::enable_lmcache, f::enable_unified_cache_external_linker], fixes)?;
        }
        if ctx.cfg.truthy(f::disable_radix_cache) {
            let fixes = vec![ctx.fix_remove("Remove --disable-radix-cache", f::disable_radix_cache, Applicability::Unsafe), drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_NEEDS_RADIX, &[], &[f::enable_lmcache, f::disable_radix_cache, f::disaggregation_mode], fixes)?;
        }
        // SpeculativeAlgorithm.from_string(...).is_speculative(); unknown names raise
        // ValueError there (not modelled).
        if let Some(alg) = opt_str(ctx, f::speculative_algorithm) {
            let up = alg.to_uppercase();
            let known = matches!(up.as_str(), "DFLASH" | "UNO" | "DSPARK" | "EAGLE" | "EAGLE3" | "FROZEN_KV_MTP" | "STANDALONE" | "NGRAM" | "NEXTN");
            if known {
                let fixes = vec![ctx.fix_remove("Remove --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe), drop_lmcache(ctx)];
                ctx.raise(&LMCACHE_NO_SPEC, &[], &[f::enable_lmcache, f::speculative_algorithm], fixes)?;
            } else if up != "NONE" {
                ctx.skip(site("kv_cache_hook.handle_cache_compatibility", "LMCacheUnifiedRadixCache does not yet support speculative"), NotRunReason::NotImplemented);
            }
        }
        if ctx.cfg.int(f::attn_dp_size).unwrap_or(1) > 1 || ctx.cfg.is(f::ep_join_mode, "scale") {
            let fixes = vec![drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_NO_DP_ATTN, &[], &[f::enable_lmcache, f::attn_dp_size, f::enable_dp_attention], fixes)?;
        }
        if dcp > 1 {
            let fixes = vec![ctx.fix_set("Set --dcp-size 1", f::dcp_size, "1", Applicability::Unsafe), drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_NO_DCP, &[], &[f::enable_lmcache, f::dcp_size], fixes)?;
        }
        if ctx.cfg.truthy(f::enable_streaming_session) {
            let fixes = vec![ctx.fix_remove("Remove --enable-streaming-session", f::enable_streaming_session, Applicability::Unsafe), drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_NO_STREAMING, &[], &[f::enable_lmcache, f::enable_streaming_session], fixes)?;
        }
        if ctx.cfg.is(f::hicache_host_memory_mode, "buffer_only") {
            let fixes = vec![ctx.fix_remove("Remove --hicache-host-memory-mode", f::hicache_host_memory_mode, Applicability::Safe)];
            ctx.raise(&LMCACHE_BUFFER_ONLY, &[], &[f::hicache_host_memory_mode, f::enable_lmcache], fixes)?;
        }
        if !ctx.cfg.is(f::disaggregation_mode, "null") {
            let fixes = vec![ctx.fix_remove("Remove --disaggregation-mode", f::disaggregation_mode, Applicability::Unsafe), drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_NO_PD, &[], &[f::enable_lmcache, f::disaggregation_mode], fixes)?;
        }
    }
    Ok(())
}

/// `handle_page_major_kv_layout`
pub fn handle_page_major_kv_layout(ctx: &mut Ctx) -> Step {
    if ctx.cfg.truthy(f::enable_unified_memory) {
        ctx.cfg.set(f::enable_page_major_kv_layout, PyValue::Bool(true));
    }
    if !ctx.cfg.truthy(f::enable_page_major_kv_layout) {
        return Ok(());
    }
    // (0.5.18 has no such assert: its static pool still had the strided views)
    if !ctx.cfg.truthy(f::enable_unified_memory) && PAGE_MAJOR_NEEDS_UNIFIED.applies_to(ctx.release) {
        let fixes = vec![
            ctx.fix_add_flag("Add --enable-unified-memory", f::enable_unified_memory, Applicability::Unsafe),
            ctx.fix_remove("Remove --enable-page-major-kv-layout", f::enable_page_major_kv_layout, Applicability::Safe),
        ];
        ctx.raise(&PAGE_MAJOR_NEEDS_UNIFIED, &[], &[f::enable_page_major_kv_layout], fixes)?;
    }
    // The allowed backend set (#2) and the linear-attention backend sets (#3, #4) depend on the
    // model's attention (use_mla_backend, has_asymmetric_kv).
    let asserted = if PAGE_MAJOR_TRITON_ONLY.applies_to(ctx.release) { page_major_strided_view_asserts(ctx) } else { page_major_model_asserts(ctx) };
    if !asserted {
        return Ok(());
    }
    let mamba = ctx.cfg.get(f::mamba_backend).clone();
    if !(mamba.is_none() || mamba.as_str() == Some("triton")) {
        let args: &Args = &[("cfg.mamba_backend", &mamba.repr())];
        let fixes = vec![ctx.fix_set("Set --mamba-backend triton", f::mamba_backend, "triton", Applicability::Safe)];
        ctx.raise(&PAGE_MAJOR_MAMBA_BACKEND, args, &[f::mamba_backend, f::enable_unified_memory, f::enable_page_major_kv_layout], fixes)?;
    }
    Ok(())
}

/// `handle_page_major_kv_layout`'s asserts on the resolved attention backends (#2) and the
/// linear-attention backends (#3, #4). False when one raised; one whose facts are not known is
/// recorded as not run.
fn page_major_model_asserts(ctx: &mut Ctx) -> bool {
    const BACKENDS: SiteRef = site("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout: the resolved");
    const DECODE: SiteRef = site("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout: linear-attention DECODE");
    const PREFILL: SiteRef = site("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout: linear-attention PREFILL");
    let Some(is_mla) = ctx.model_fact(BACKENDS, |m| m.derived.is_mla) else {
        ctx.skip(DECODE, NotRunReason::ModelConfig);
        ctx.skip(PREFILL, NotRunReason::ModelConfig);
        return true;
    };
    let allowed: &[&str] = if is_mla {
        &["triton", "fa3", "trtllm_mla", "flashinfer", "cutedsl_mla", "flashmla"]
    } else {
        // has_asymmetric_kv: as SGLang computed it (a catalog model)
        match ctx.model_fact(BACKENDS, |m| m.computed.and_then(|c| c.has_asymmetric_kv)) {
            None => {
                ctx.skip(DECODE, NotRunReason::ModelConfig);
                ctx.skip(PREFILL, NotRunReason::ModelConfig);
                return true;
            }
            Some(true) => &["triton", "fa3", "fa4"],
            Some(false) => &["triton", "fa3", "fa4", "flashinfer", "trtllm_mha"],
        }
    };
    let Some((prefill, decode)) = resolved_backends(ctx) else {
        // attention_hook picks them from the model (not known here)
        ctx.skip(BACKENDS, NotRunReason::ModelConfig);
        ctx.skip(DECODE, NotRunReason::ModelConfig);
        ctx.skip(PREFILL, NotRunReason::ModelConfig);
        return true;
    };
    let backends = [prefill.as_str(), decode.as_str()];
    if !backends.iter().all(|b| allowed.contains(b)) {
        let args: &Args = &[("sorted(backends)", &sorted_repr(&backends)), ("sorted(allowed_full)", &sorted_repr(allowed))];
        let mut fixes = Vec::new();
        if ctx.cfg.is_explicit(f::attention_backend) && !ctx.cfg.is_explicit(f::prefill_attention_backend) && !ctx.cfg.is_explicit(f::decode_attention_backend) {
            fixes.push(ctx.fix_set("Use --attention-backend triton", f::attention_backend, "triton", Applicability::Unsafe));
        }
        let _ = ctx.raise(&PAGE_MAJOR_BACKENDS, args, &[f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend, f::enable_unified_memory], fixes);
        return false;
    }
    // The linear-attention state kernels: KDA-only ones for the MLA (KDA-hybrid) family.
    let mut decode_allowed = vec!["triton", "flashinfer"];
    let mut prefill_allowed = vec!["triton", "flashkda", "flashinfer"];
    if is_mla {
        decode_allowed.extend(["cutedsl", "helion"]);
        prefill_allowed.extend(["cutedsl", "helion"]);
    }
    linear_attn_asserts(ctx, [(DECODE, decode_allowed), (PREFILL, prefill_allowed)])
}

/// `handle_page_major_kv_layout`'s asserts on the linear-attention decode and prefill backends
/// (each `cfg.linear_attn_<phase>_backend or cfg.linear_attn_backend`), with their allowed sets.
/// False when one raised.
fn linear_attn_asserts(ctx: &mut Ctx, allowed_sets: [(SiteRef, Vec<&'static str>); 2]) -> bool {
    let [(decode_at, decode_allowed), (prefill_at, prefill_allowed)] = allowed_sets;
    let checks = [
        (f::linear_attn_decode_backend, decode_allowed, decode_at, &PAGE_MAJOR_LINEAR_DECODE, "resolved_linear_decode", "sorted(decode_allowed)"),
        (f::linear_attn_prefill_backend, prefill_allowed, prefill_at, &PAGE_MAJOR_LINEAR_PREFILL, "resolved_linear_prefill", "sorted(prefill_allowed)"),
    ];
    for (field, allowed, at, rule, got_name, allowed_name) in checks {
        if ctx.cfg.is_unknown(field) || ctx.cfg.is_unknown(f::linear_attn_backend) {
            ctx.skip(at, NotRunReason::ModelConfig);
            continue;
        }
        let resolved = opt_str(ctx, field).filter(|s| !s.is_empty()).or_else(|| opt_str(ctx, f::linear_attn_backend));
        if resolved.as_deref().is_some_and(|b| !allowed.contains(&b)) {
            let shown = resolved.as_deref().map(str_repr).unwrap_or_else(|| "None".into());
            let args: &Args = &[(got_name, &shown), (allowed_name, &sorted_repr(&allowed))];
            let dest = if ctx.cfg.is_explicit(field) { field } else { f::linear_attn_backend };
            let fixes = vec![ctx.fix_set(format!("Use {} triton", ctx.flag(dest)), dest, "triton", Applicability::Unsafe)];
            let _ = ctx.raise(rule, args, &[dest, f::enable_unified_memory], fixes);
            return false;
        }
    }
    true
}

/// SGLang 0.5.18's asserts on the resolved attention backends (#1: Triton only, or with the
/// unified memory pool on an MLA model the paged MLA backends too) and the linear-attention
/// backends (#2, #3: no flashinfer prefill yet), before the per-layer views. False when one
/// raised; one whose facts are not known is recorded as not run.
fn page_major_strided_view_asserts(ctx: &mut Ctx) -> bool {
    const BACKENDS: SiteRef = site("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout requires the Triton attention backend");
    const DECODE: SiteRef = site("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout: linear-attention DECODE");
    const PREFILL: SiteRef = site("kv_cache_hook.handle_page_major_kv_layout", "--enable-page-major-kv-layout: linear-attention PREFILL");
    const PAGED_MLA: &[&str] = &["triton", "fa3", "trtllm_mla", "flashinfer", "cutedsl_mla", "tokenspeed_mla"];
    let not_run = |ctx: &mut Ctx, sites: &[SiteRef]| {
        for &s in sites {
            ctx.skip(s, NotRunReason::ModelConfig);
        }
    };
    // `self.enable_unified_memory and self.use_mla_backend()`: the model is read only with the pool
    let unified = ctx.cfg.truthy(f::enable_unified_memory);
    let mla_pool = if unified { ctx.model_fact(BACKENDS, |m| m.derived.is_mla) } else { Some(false) };
    let Some(mla_pool) = mla_pool else {
        not_run(ctx, &[DECODE, PREFILL]);
        return true;
    };
    let allowed: &[&str] = if mla_pool { PAGED_MLA } else { &["triton"] };
    let Some((prefill, decode)) = resolved_backends(ctx) else {
        // attention_hook picks them from the model (not known here)
        not_run(ctx, &[BACKENDS, DECODE, PREFILL]);
        return true;
    };
    let backends = [prefill.as_str(), decode.as_str()];
    if !backends.iter().all(|b| allowed.contains(b)) {
        let args: &Args = &[("sorted(backends)", &sorted_repr(&backends)), ("sorted(allowed_full)", &sorted_repr(allowed))];
        let mut fixes = Vec::new();
        if !(ctx.cfg.is_explicit(f::prefill_attention_backend) || ctx.cfg.is_explicit(f::decode_attention_backend)) {
            fixes.push(ctx.fix_set("Use --attention-backend triton", f::attention_backend, "triton", Applicability::Unsafe));
        }
        let _ = ctx.raise(&PAGE_MAJOR_TRITON_ONLY, args, &[f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend, f::enable_unified_memory, f::enable_page_major_kv_layout], fixes);
        return false;
    }
    // The linear-attention state kernels: KDA-only ones for the MLA (KDA-hybrid) family.
    let Some(is_mla) = ctx.model_fact(DECODE, |m| m.derived.is_mla) else {
        not_run(ctx, &[PREFILL]);
        return true;
    };
    let mut decode_allowed = vec!["triton", "flashinfer"];
    let mut prefill_allowed = vec!["triton", "flashkda"];
    if is_mla {
        decode_allowed.extend(["cutedsl", "helion"]);
        prefill_allowed.extend(["cutedsl", "helion"]);
    }
    linear_attn_asserts(ctx, [(DECODE, decode_allowed), (PREFILL, prefill_allowed)])
}

const SPEC_VERIFY_AUDITED: &[&str] = &["triton", "trtllm_mla", "cutedsl_mla", "flashmla", "flashinfer", "fa3"];
const SPEC_MHA_AUDITED: &[&str] = &["triton", "flashinfer", "fa3", "trtllm_mha"];

/// `_assert_spec_verify_backends`. Returns false when it raised.
fn assert_spec_verify_backends(ctx: &mut Ctx, algorithm: &str, allowed: &[&str]) -> bool {
    let mut allowed: Vec<&str> = allowed.to_vec();
    let mut dcp_note = "";
    if ctx.cfg.int(f::dcp_size).unwrap_or(1) > 1 {
        allowed.retain(|b| *b != "flashinfer");
        dcp_note = " (flashinfer is excluded under --dcp-size > 1)";
    }
    let Some((p, d)) = resolved_backends(ctx) else {
        ctx.model_config(site("kv_cache_hook._assert_spec_verify_backends", "--enable-unified-memory + {algorithm} requires"));
        return true;
    };
    let backends = [p.as_str(), d.as_str()];
    if backends.iter().all(|b| allowed.contains(b)) {
        return true;
    }
    let args: &Args = &[("algorithm", &algorithm), ("sorted(allowed)", &sorted_repr(&allowed)), ("dcp_note", &dcp_note), ("sorted(backends)", &sorted_repr(&backends))];
    let mut fixes = Vec::new();
    if ctx.cfg.is_explicit(f::attention_backend) && !ctx.cfg.is_explicit(f::prefill_attention_backend) && !ctx.cfg.is_explicit(f::decode_attention_backend) {
        fixes.push(ctx.fix_set("Use --attention-backend triton", f::attention_backend, "triton", Applicability::Unsafe));
    }
    let _ = ctx.raise(&UM_SPEC_VERIFY_BACKENDS, args, &[f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend, f::speculative_algorithm], fixes);
    false
}

/// An assert on one of the model's attention kinds: its rule, and the fact it is about.
type ModelAssert = (&'static Rule, fn(&crate::models::ModelFacts) -> Option<bool>);

/// Asserts on the model's attention kinds, in order: the first whose fact is true raises (false
/// is returned); an unknown fact records it and the rest as not run (true: SGLang may go on).
fn model_asserts(ctx: &mut Ctx, checks: &[ModelAssert], fields: &[Field]) -> bool {
    let mut known = true;
    for &(rule, fact) in checks {
        let crate::rules::Sglang::Raises(site) = rule.sglang else { continue };
        if !known {
            ctx.skip(site, NotRunReason::ModelConfig);
            continue;
        }
        match ctx.model_fact(site, fact) {
            None => known = false,
            Some(false) => {}
            Some(true) => {
                let mut fixes = Vec::new();
                if let Some(&other) = fields.first() {
                    fixes.push(ctx.fix_remove(format!("Remove {}", ctx.flag(other)), other, Applicability::Unsafe));
                }
                fixes.push(ctx.fix_remove("Remove --enable-unified-memory", f::enable_unified_memory, Applicability::Unsafe));
                let _ = ctx.raise(rule, &[], fields, fixes);
                return false;
            }
        }
    }
    true
}

/// `handle_unified_memory_pool`'s EAGLE/EAGLE3 asserts on the target: a hybrid target (#13), on
/// audited backends (#14), a draft on the MHA rails (#15). False when one raised or a fact they
/// need is not known (then they and the HiCache assert after them are recorded as not run).
fn eagle_target_asserts(ctx: &mut Ctx) -> bool {
    const HYBRID: SiteRef = site("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory + EAGLE/EAGLE3 requires a");
    const TARGET: SiteRef = site("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory + EAGLE/EAGLE3 requires the");
    const DRAFT: SiteRef = site("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory + EAGLE/EAGLE3 runs");
    const HICACHE: SiteRef = site("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory + EAGLE/EAGLE3 does not support --enable-hierarchical-cache:");
    let not_run = |ctx: &mut Ctx, sites: &[SiteRef], reason: NotRunReason| {
        for &s in sites {
            ctx.skip(s, reason);
        }
        if ctx.cfg.truthy(f::enable_hierarchical_cache) {
            ctx.skip(HICACHE, reason);
        }
    };
    // #13: is_hybrid_swa or mambaish_config(model_config) is not None
    let unified = ctx.model.as_ref().and_then(|m| match (m.derived.is_hybrid_swa, m.derived.is_hybrid_linear_attention) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    });
    match unified {
        None => {
            not_run(ctx, &[HYBRID, TARGET, DRAFT], NotRunReason::ModelConfig);
            return false;
        }
        Some(false) => {
            let fixes = vec![
                ctx.fix_remove("Remove --enable-unified-memory", f::enable_unified_memory, Applicability::Unsafe),
                ctx.fix_remove("Remove --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe),
            ];
            let _ = ctx.raise(&UM_EAGLE_UNIFIED_TARGET, &[], &[f::speculative_algorithm, f::enable_unified_memory], fixes);
            return false;
        }
        Some(true) => {}
    }
    // #14: the resolved target backends, within the MLA or the MHA audited set (use_mla_backend)
    let Some(is_mla) = ctx.model_fact(TARGET, |m| m.derived.is_mla) else {
        not_run(ctx, &[DRAFT], NotRunReason::ModelConfig);
        return false;
    };
    let Some((prefill, decode)) = resolved_backends(ctx) else {
        // attention_hook picks them from the model (not known here)
        not_run(ctx, &[TARGET, DRAFT], NotRunReason::ModelConfig);
        return false;
    };
    let allowed = if is_mla { SPEC_VERIFY_AUDITED } else { SPEC_MHA_AUDITED };
    let backends = [prefill.as_str(), decode.as_str()];
    if !backends.iter().all(|b| allowed.contains(b)) {
        let args: &Args = &[("sorted(eagle_allowed)", &sorted_repr(allowed)), ("sorted(eagle_backends, key=str)", &sorted_repr(&backends))];
        let mut fixes = Vec::new();
        if ctx.cfg.is_explicit(f::attention_backend) && !ctx.cfg.is_explicit(f::prefill_attention_backend) && !ctx.cfg.is_explicit(f::decode_attention_backend) {
            fixes.push(ctx.fix_set("Use --attention-backend triton", f::attention_backend, "triton", Applicability::Unsafe));
        }
        let _ = ctx.raise(&UM_EAGLE_TARGET_BACKENDS, args, &[f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend, f::speculative_algorithm], fixes);
        return false;
    }
    // #15: an unset draft backend inherits the target's pair
    let draft = opt_str(ctx, f::speculative_draft_attention_backend).filter(|s| !s.is_empty());
    let draft_backends: Vec<&str> = match &draft {
        Some(d) => vec![d.as_str()],
        None => backends.to_vec(),
    };
    if !draft_backends.iter().all(|b| SPEC_MHA_AUDITED.contains(b)) {
        // (0.5.22 names its smaller list TRANSLATED_MHA_RAILS: without trtllm_mha)
        let args: &Args = &[
            ("sorted(draft_backends)", &sorted_repr(&draft_backends)),
            ("sorted(_SPEC_MHA_AUDITED_BACKENDS)", &sorted_repr(SPEC_MHA_AUDITED)),
            ("sorted(TRANSLATED_MHA_RAILS)", &sorted_repr(&["fa3", "flashinfer", "triton"])),
        ];
        let fixes = vec![ctx.fix_set("Use --speculative-draft-attention-backend triton", f::speculative_draft_attention_backend, "triton", Applicability::Unsafe)];
        let _ = ctx.raise(&UM_EAGLE_DRAFT_BACKEND, args, &[f::speculative_draft_attention_backend, f::speculative_algorithm, f::enable_unified_memory], fixes);
        return false;
    }
    true
}

/// `handle_unified_memory_pool`
pub fn handle_unified_memory_pool(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.truthy(f::enable_unified_memory) {
        return Ok(());
    }
    if UM_NO_HOST_TIER.applies_to(ctx.release) {
        return unified_memory_pool_dspark_only(ctx);
    }
    let spec = opt_str(ctx, f::speculative_algorithm);
    let drop_um = |ctx: &Ctx| ctx.fix_remove("Remove --enable-unified-memory", f::enable_unified_memory, Applicability::Unsafe);
    if !ctx.cfg.is(f::disaggregation_mode, "null") {
        let tb = ctx.cfg.get(f::disaggregation_transfer_backend).clone();
        if tb.as_str() != Some("mooncake") {
            let tb_repr = tb.repr();
            let args: &Args = &[("', '.join(sorted(supported_backends))", &"mooncake"), ("cfg.disaggregation_transfer_backend", &tb_repr)];
            let fixes = vec![
                ctx.fix_set("Use --disaggregation-transfer-backend mooncake", f::disaggregation_transfer_backend, "mooncake", Applicability::Unsafe),
                drop_um(ctx),
            ];
            ctx.raise(&UM_PD_TRANSFER_BACKEND, args, &[f::disaggregation_transfer_backend, f::enable_unified_memory], fixes)?;
        }
        if ctx.cfg.int(f::pp_size).unwrap_or(1) != 1 {
            let fixes = vec![ctx.fix_set("Set --pp-size 1", f::pp_size, "1", Applicability::Unsafe), drop_um(ctx)];
            ctx.raise(&UM_PD_NO_PP, &[], &[f::pp_size, f::enable_unified_memory], fixes)?;
        }
        if spec.is_some() {
            let fixes = vec![ctx.fix_remove("Remove --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe), drop_um(ctx)];
            ctx.raise(&UM_PD_MOONCAKE_SPEC, &[], &[f::speculative_algorithm, f::enable_unified_memory], fixes)?;
        }
        // envs.SGLANG_DISABLE_LAZY_COMPACTION (EnvBool: true/1/yes/y).
        let lazy_off = env_bool(ctx, "SGLANG_DISABLE_LAZY_COMPACTION");
        if lazy_off {
            let fixes = vec![drop_um(ctx)];
            ctx.raise(&UM_PD_LAZY_COMPACTION, &[], &[f::enable_unified_memory], fixes)?;
        }
        if ctx.cfg.truthy(f::enable_hisparse) {
            let fixes = vec![ctx.fix_remove("Remove --enable-hisparse", f::enable_hisparse, Applicability::Unsafe)];
            ctx.raise(&UM_PD_NO_HISPARSE, &[], &[f::enable_hisparse, f::enable_unified_memory], fixes)?;
        }
        if ctx.cfg.truthy(f::disaggregation_decode_enable_offload_kvcache) {
            if !ctx.cfg.is(f::hicache_storage_backend, "file") {
                let fixes = vec![
                    ctx.fix_set("Use --hicache-storage-backend file", f::hicache_storage_backend, "file", Applicability::Unsafe),
                    drop_um(ctx),
                ];
                ctx.raise(&UM_OFFLOAD_FILE_ONLY, &[], &[f::hicache_storage_backend, f::enable_unified_memory], fixes)?;
            }
            // The model's attention: MLA (use_mla_backend), hybrid Mamba (mambaish_config), hybrid SWA.
            let checks: [ModelAssert; 3] = [
                (&UM_OFFLOAD_MLA, |m| m.derived.is_mla),
                (&UM_OFFLOAD_MAMBA, |m| m.derived.is_hybrid_linear_attention),
                (&UM_OFFLOAD_SWA, |m| m.derived.is_hybrid_swa),
            ];
            if !model_asserts(ctx, &checks, &[f::disaggregation_decode_enable_offload_kvcache, f::enable_unified_memory]) {
                return Ok(());
            }
        }
        if ctx.cfg.is(f::disaggregation_decode_retraction_backup, "host_pool") {
            let checks: [ModelAssert; 1] = [(&UM_RETRACTION_MAMBA, |m| m.derived.is_hybrid_linear_attention)];
            if !model_asserts(ctx, &checks, &[f::disaggregation_decode_retraction_backup, f::enable_unified_memory]) {
                return Ok(());
            }
        }
    }
    if !matches!(spec.as_deref(), None | Some("DSPARK") | Some("EAGLE") | Some("EAGLE3") | Some("DFLASH")) {
        let args: &Args = &[("cfg.speculative_algorithm", &py_opt_repr(&spec))];
        let fixes = vec![ctx.fix_remove("Remove --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe), drop_um(ctx)];
        ctx.raise(&UM_SPEC_ALGORITHM, args, &[f::speculative_algorithm, f::enable_unified_memory], fixes)?;
    }
    let topk = ctx.cfg.get(f::speculative_eagle_topk).clone();
    if !(topk.is_none() || topk.as_int() == Some(1)) {
        let args: &Args = &[("cfg.speculative_eagle_topk", &topk.repr())];
        let fixes = vec![ctx.fix_set("Set --speculative-eagle-topk 1", f::speculative_eagle_topk, "1", Applicability::Unsafe), drop_um(ctx)];
        ctx.raise(&UM_EAGLE_TOPK, args, &[f::speculative_eagle_topk, f::enable_unified_memory], fixes)?;
    }
    match spec.as_deref() {
        Some("EAGLE") | Some("EAGLE3") if !eagle_target_asserts(ctx) => return Ok(()),
        Some("DSPARK") => {
            let mut allowed: Vec<&str> = SPEC_VERIFY_AUDITED.to_vec();
            allowed.push("fa4");
            if !assert_spec_verify_backends(ctx, "DSPARK", &allowed) {
                return Ok(());
            }
        }
        Some("DFLASH") if !assert_spec_verify_backends(ctx, "DFLASH", SPEC_MHA_AUDITED) => return Ok(()),
        _ => {}
    }
    if ctx.cfg.truthy(f::enable_two_batch_overlap) {
        let fixes = vec![ctx.fix_remove("Remove --enable-two-batch-overlap", f::enable_two_batch_overlap, Applicability::Unsafe)];
        ctx.raise(&UM_NO_TBO, &[], &[f::enable_two_batch_overlap, f::enable_unified_memory], fixes)?;
    }
    if ctx.cfg.truthy(f::enable_lmcache) {
        let fixes = vec![ctx.fix_remove("Remove --enable-lmcache", f::enable_lmcache, Applicability::Unsafe), drop_um(ctx)];
        ctx.raise(&UM_NO_LMCACHE, &[], &[f::enable_lmcache, f::enable_unified_memory], fixes)?;
    }
    if ctx.cfg.truthy(f::enable_unified_cache_external_linker) {
        let fixes = vec![
            ctx.fix_remove("Remove --enable-unified-cache-external-linker", f::enable_unified_cache_external_linker, Applicability::Unsafe),
            drop_um(ctx),
        ];
        ctx.raise(&UM_NO_LINKER, &[], &[f::enable_unified_cache_external_linker, f::enable_unified_memory], fixes)?;
    }
    // (EAGLE + host_pool: a decode-server backup, which PD-mode unified memory with
    // speculative decoding rejects above.)
    if matches!(spec.as_deref(), Some("EAGLE") | Some("EAGLE3")) && ctx.cfg.truthy(f::enable_hierarchical_cache) {
        let fixes = vec![ctx.fix_remove("Remove --enable-hierarchical-cache", f::enable_hierarchical_cache, Applicability::Unsafe), drop_um(ctx)];
        ctx.raise(&UM_EAGLE_HICACHE, &[], &[f::enable_hierarchical_cache, f::speculative_algorithm, f::enable_unified_memory], fixes)?;
    }
    if ctx.cfg.int(f::dcp_size).unwrap_or(1) > 1 {
        // _validate_unified_memory_dcp: #1 MLA models only (use_mla_backend).
        let hybrid_swa_site = site("kv_cache_hook._validate_unified_memory_dcp", "--enable-unified-memory with decode context parallelism (--dcp-size > 1) does not support hybrid");
        match ctx.model_fact(site("kv_cache_hook._validate_unified_memory_dcp", "--enable-unified-memory with decode context parallelism (--dcp-size > 1) supports"), |m| m.derived.is_mla) {
            None => ctx.skip(hybrid_swa_site, NotRunReason::ModelConfig),
            Some(false) => {
                let fixes = vec![ctx.fix_remove("Remove --dcp-size (no decode context parallelism)", f::dcp_size, Applicability::Unsafe), drop_um(ctx)];
                ctx.raise(&UM_DCP_MLA, &[], &[f::dcp_size, f::enable_unified_memory], fixes)?;
            }
            // #2: no hybrid sliding-window model. No served MLA model is hybrid SWA, so a true
            // fact has no recorded case here: it is left not run.
            Some(true) => {
                if ctx.model_fact(hybrid_swa_site, |m| m.derived.is_hybrid_swa) != Some(false) {
                    ctx.skip(hybrid_swa_site, NotRunReason::NotImplemented);
                    return Ok(());
                }
            }
        }
        if !ctx.cfg.is(f::disaggregation_mode, "null") {
            let fixes = vec![ctx.fix_remove("Remove --disaggregation-mode", f::disaggregation_mode, Applicability::Unsafe), drop_um(ctx)];
            ctx.raise(&UM_DCP_NO_PD, &[], &[f::disaggregation_mode, f::dcp_size, f::enable_unified_memory], fixes)?;
        }
        let allowed = ["cutedsl_mla", "flashinfer", "trtllm_mla"];
        match resolved_backends(ctx) {
            None => ctx.skip(site("kv_cache_hook._validate_unified_memory_dcp", "--enable-unified-memory with decode context parallelism (--dcp-size > 1) requires"), NotRunReason::ModelConfig),
            Some((p, d)) => {
                let backends = [p.as_str(), d.as_str()];
                if !backends.iter().all(|b| allowed.contains(b)) {
                    let args: &Args = &[("sorted(dcp_allowed)", &sorted_repr(&allowed)), ("sorted(backends)", &sorted_repr(&backends))];
                    let mut fixes = Vec::new();
                    if ctx.cfg.is_explicit(f::attention_backend) && !ctx.cfg.is_explicit(f::prefill_attention_backend) && !ctx.cfg.is_explicit(f::decode_attention_backend) {
                        fixes.push(ctx.fix_set("Use --attention-backend flashinfer", f::attention_backend, "flashinfer", Applicability::Unsafe));
                    }
                    ctx.raise(&UM_DCP_BACKENDS, args, &[f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend, f::dcp_size], fixes)?;
                }
            }
        }
    }
    // The FULL prefill cuda-graph fallback warning reads cuda_graph_config and the resolved
    // backends (not modelled here).
    Ok(())
}

/// SGLang 0.5.18's `_handle_unified_memory_pool`: the PD transfer asserts, DSPARK as the only
/// speculative algorithm, then no host tier (HiCache or LMCache), no DCP and no piecewise prefill
/// CUDA graph.
fn unified_memory_pool_dspark_only(ctx: &mut Ctx) -> Step {
    let drop_um = |ctx: &Ctx| ctx.fix_remove("Remove --enable-unified-memory", f::enable_unified_memory, Applicability::Unsafe);
    if !ctx.cfg.is(f::disaggregation_mode, "null") {
        let tb = ctx.cfg.get(f::disaggregation_transfer_backend).clone();
        if tb.as_str() != Some("mooncake") {
            let args: &Args = &[("cfg.disaggregation_transfer_backend", &tb.repr())];
            let fixes = vec![
                ctx.fix_set("Use --disaggregation-transfer-backend mooncake", f::disaggregation_transfer_backend, "mooncake", Applicability::Unsafe),
                drop_um(ctx),
            ];
            ctx.raise(&UM_PD_TRANSFER_BACKEND, args, &[f::disaggregation_transfer_backend, f::enable_unified_memory], fixes)?;
        }
        if ctx.cfg.int(f::pp_size).unwrap_or(1) != 1 {
            let fixes = vec![ctx.fix_set("Set --pp-size 1", f::pp_size, "1", Applicability::Unsafe), drop_um(ctx)];
            ctx.raise(&UM_PD_NO_PP, &[], &[f::pp_size, f::enable_unified_memory], fixes)?;
        }
        if env_bool(ctx, "SGLANG_DISABLE_LAZY_COMPACTION") {
            let fixes = vec![drop_um(ctx)];
            ctx.raise(&UM_PD_LAZY_COMPACTION, &[], &[f::enable_unified_memory], fixes)?;
        }
        if ctx.cfg.truthy(f::enable_hisparse) {
            let fixes = vec![ctx.fix_remove("Remove --enable-hisparse", f::enable_hisparse, Applicability::Unsafe)];
            ctx.raise(&UM_PD_NO_HISPARSE, &[], &[f::enable_hisparse, f::enable_unified_memory], fixes)?;
        }
    }
    let spec = opt_str(ctx, f::speculative_algorithm);
    if !matches!(spec.as_deref(), None | Some("DSPARK")) {
        let args: &Args = &[("cfg.speculative_algorithm", &py_opt_repr(&spec))];
        let fixes = vec![ctx.fix_remove("Remove --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe), drop_um(ctx)];
        ctx.raise(&UM_SPEC_ALGORITHM, args, &[f::speculative_algorithm, f::enable_unified_memory], fixes)?;
    }
    let later = [
        site("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory is not yet compatible with hierarchical"),
        site("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory is not yet compatible with decode context"),
        site("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory supports monolithic (decode) cuda-graph"),
    ];
    if spec.is_some() {
        // DSPARK's linear-chain and spec-verify backend asserts (not modelled: no model the
        // recorder serves reaches them in 0.5.18), then the asserts after them.
        for s in [
            site("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory + DSPARK supports a linear"),
            site("kv_cache_hook.handle_unified_memory_pool", "--enable-unified-memory + DSPARK requires"),
        ]
        .into_iter()
        .chain(later)
        {
            ctx.skip(s, NotRunReason::NotImplemented);
        }
        return Ok(());
    }
    let hicache = ctx.cfg.truthy(f::enable_hierarchical_cache);
    if hicache || ctx.cfg.truthy(f::enable_lmcache) {
        let dest = if hicache { f::enable_hierarchical_cache } else { f::enable_lmcache };
        let fixes = vec![ctx.fix_remove(format!("Remove {}", ctx.flag(dest)), dest, Applicability::Unsafe), drop_um(ctx)];
        ctx.raise(&UM_NO_HOST_TIER, &[], &[dest, f::enable_unified_memory], fixes)?;
    }
    if ctx.cfg.int(f::dcp_size).unwrap_or(1) != 1 {
        let fixes = vec![ctx.fix_remove("Remove --dcp-size (no decode context parallelism)", f::dcp_size, Applicability::Unsafe), drop_um(ctx)];
        ctx.raise(&UM_NO_DCP, &[], &[f::dcp_size, f::enable_unified_memory], fixes)?;
    }
    // `_cg_cfg.prefill.backend == Backend.TC_PIECEWISE` on the resolved CUDA-graph config
    if ctx.cfg.is_unknown(f::cuda_graph_config) {
        ctx.skip(later[2], NotRunReason::NotImplemented);
    } else if phase_backend(ctx, "prefill").as_deref() == Some("tc_piecewise") {
        let fixes = vec![
            ctx.fix_set("Use --cuda-graph-backend-prefill disabled", f::cuda_graph_backend_prefill, "disabled", Applicability::Unsafe),
            drop_um(ctx),
        ];
        ctx.raise(&UM_PIECEWISE_PREFILL_GRAPH, &[], &[f::cuda_graph_backend_prefill, f::cuda_graph_config, f::enable_unified_memory], fixes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_repr_matches_python() {
        assert_eq!(sorted_repr(&["triton", "fa3", "flashinfer", "triton"]), "['fa3', 'flashinfer', 'triton']");
    }

    fn apply(text: &str, fix: &crate::diagnostic::Fix) -> String {
        let mut out = text.to_string();
        let mut edits = fix.edits.clone();
        crate::sorting::sort_by_key(&mut edits, |e| std::cmp::Reverse(e.start));
        for e in edits {
            out.replace_range(e.start..e.end, &e.replacement);
        }
        out
    }

    /// The product's headline example: exact message, span on the backup flag, two fixes.
    #[test]
    fn headline_host_pool_with_dcp() {
        let cmd = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool";
        let report = crate::check(cmd, &crate::CheckOptions::default());
        let diags: Vec<_> = report.commands.iter().flat_map(|c| c.diagnostics.iter()).filter(|d| d.is_sglang_error()).collect();
        assert_eq!(diags.len(), 1);
        let Some(d) = diags.first() else { return };
        assert_eq!(d.code, "KV029");
        assert_eq!(d.exception.as_deref(), Some("ValueError"));
        assert_eq!(d.message, "--disaggregation-decode-retraction-backup=host_pool does not support --dcp-size > 1.");
        assert_eq!(cmd.get(d.span.start..d.span.end), Some("--disaggregation-decode-retraction-backup host_pool"));
        let titles: Vec<&str> = d.fixes.iter().map(|f| f.title.as_str()).collect();
        assert_eq!(titles, ["Set --dcp-size 1 (keep the host-pool backup)", "Remove --disaggregation-decode-retraction-backup (keep DCP)"]);
        assert!(d.fixes.iter().all(|f| f.applicability == Applicability::Unsafe));
        let fixed: Vec<String> = d.fixes.iter().map(|f| apply(cmd, f)).collect();
        assert_eq!(
            fixed,
            [
                "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 1 --disaggregation-decode-retraction-backup host_pool",
                "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2",
            ]
        );
        for f in &fixed {
            let r = crate::check(f, &crate::CheckOptions::default());
            assert!(r.commands.iter().all(|c| c.diagnostics.iter().all(|d| d.code != "KV029")));
        }
    }

    #[test]
    fn rule_codes_are_unique() {
        let mut codes: Vec<&str> = RULES.iter().map(|r| r.code).collect();
        crate::sorting::sort(&mut codes);
        let n = codes.len();
        codes.dedup();
        assert_eq!(n, codes.len());
    }
}
