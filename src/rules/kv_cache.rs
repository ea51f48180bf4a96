//! Rules from SGLang's `sglang/srt/arg_groups/kv_cache_hook.py`: KV-cache dtype and pool
//! compatibility (prefill-only no-KV mode, NVFP4/FP4/MXFP8 KV caches, host-pool retraction,
//! radix/hierarchical/LMCache combinations, page-major layout, the unified memory pool).
//!
//! Checks that read the model's config (`use_mla_backend`, `model_config_of`) or the attention
//! backends that `attention_hook` picks from the model are skipped with
//! `NotRunReason::ModelConfig` unless the command fixes the backends itself.

use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::{Applicability, Severity, Stage};
use crate::hardware::Hardware;
use crate::pyvalue::{str_repr, PyValue};

const FILE: &str = "sglang/srt/arg_groups/kv_cache_hook.py";

macro_rules! err_rule {
    ($name:ident, $code:expr, $slug:expr, $site:expr, $func:expr, $exc:expr, $tmpl:expr, $expl:expr, $flags:expr, $bad:expr, $good:expr) => {
        pub static $name: Rule = Rule {
            code: $code,
            name: $slug,
            site: $site,
            file: FILE,
            function: $func,
            since: "0.5.23",
            until: None,
            exception: $exc,
            severity: Severity::Error,
            stage: Stage::Resolve,
            template: $tmpl,
            explanation: $expl,
            flags: $flags,
            example_bad: $bad,
            example_good: $good,
        };
    };
}

macro_rules! warn_rule {
    ($name:ident, $code:expr, $slug:expr, $func:expr, $tmpl:expr, $expl:expr, $flags:expr, $bad:expr, $good:expr) => {
        pub static $name: Rule = Rule {
            code: $code,
            name: $slug,
            site: "",
            file: FILE,
            function: $func,
            since: "0.5.23",
            until: None,
            exception: "",
            severity: Severity::Warning,
            stage: Stage::Resolve,
            template: $tmpl,
            explanation: $expl,
            flags: $flags,
            example_bad: $bad,
            example_good: $good,
        };
    };
}

// ---------------------------------------------------------------------------------------------
// validate_prefill_only_disable_kv_cache_args
// ---------------------------------------------------------------------------------------------

const POD: &str = "validate_prefill_only_disable_kv_cache_args";

err_rule!(PREFILL_ONLY_NEEDS_EMBEDDING, "KV001", "prefill-only-no-kv-needs-is-embedding",
    "kv_cache_hook.validate_prefill_only_disable_kv_cache_args#1", POD, "ValueError",
    "--prefill-only-disable-kv-cache currently requires --is-embedding. Other prefill-only workloads may be supported in a future change once their attention paths stop reading or writing the paged KV cache.",
    "Running without a KV cache is only implemented for embedding servers, whose requests are a single prefill. Add --is-embedding if this is an embedding model, otherwise drop --prefill-only-disable-kv-cache.",
    &["--prefill-only-disable-kv-cache", "--is-embedding"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --prefill-only-disable-kv-cache",
    "--model-path meta-llama/Llama-3.1-8B-Instruct");

err_rule!(PREFILL_ONLY_NO_FP4, "KV002", "prefill-only-no-kv-rejects-fp4-kv",
    "kv_cache_hook.validate_prefill_only_disable_kv_cache_args#2", POD, "ValueError",
    "--prefill-only-disable-kv-cache does not currently support --kv-cache-dtype=nvfp4 or --kv-cache-dtype=fp4_mx_block16 because the FP4 pool uses a separate allocation path.",
    "The no-KV-cache embedding mode replaces the KV pool with a no-op pool, which the FP4 KV dtypes bypass. A KV dtype is meaningless without a KV cache, so drop --kv-cache-dtype.",
    &["--prefill-only-disable-kv-cache", "--kv-cache-dtype"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --kv-cache-dtype nvfp4",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache");

err_rule!(PREFILL_ONLY_NO_MXFP8, "KV003", "prefill-only-no-kv-rejects-mxfp8-kv",
    "kv_cache_hook.validate_prefill_only_disable_kv_cache_args#3", POD, "ValueError",
    "--prefill-only-disable-kv-cache does not currently support --kv-cache-dtype=mxfp8 because the MXFP8 pool stores separate scale-factor buffers.",
    "The no-KV-cache embedding mode cannot be combined with the MXFP8 KV pool, which allocates its own scale buffers. Without a KV cache the KV dtype does nothing, so drop --kv-cache-dtype.",
    &["--prefill-only-disable-kv-cache", "--kv-cache-dtype"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --kv-cache-dtype mxfp8",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache");

err_rule!(PREFILL_ONLY_NEEDS_NO_CHUNKING, "KV004", "prefill-only-no-kv-needs-chunked-prefill-off",
    "kv_cache_hook.validate_prefill_only_disable_kv_cache_args#4", POD, "ValueError",
    "--prefill-only-disable-kv-cache requires --chunked-prefill-size=-1 so the FA backend takes the fa_skip_kv_cache path; otherwise the pool would be touched between prefill chunks.",
    "Without a KV cache every request must be prefilled in one forward pass, because chunked prefill would need the KV of earlier chunks. Set --chunked-prefill-size -1.",
    &["--prefill-only-disable-kv-cache", "--chunked-prefill-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache");

err_rule!(PREFILL_ONLY_NEEDS_NO_RADIX, "KV005", "prefill-only-no-kv-needs-radix-cache-off",
    "kv_cache_hook.validate_prefill_only_disable_kv_cache_args#5", POD, "ValueError",
    "--prefill-only-disable-kv-cache requires --disable-radix-cache because the radix cache indexes KV pool slots that no longer hold real data.",
    "The prefix (radix) cache would point at KV slots that are never written in no-KV-cache mode. Add --disable-radix-cache.",
    &["--prefill-only-disable-kv-cache", "--disable-radix-cache"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache");

err_rule!(PREFILL_ONLY_NO_ATTN_CP, "KV006", "prefill-only-no-kv-rejects-attn-cp",
    "kv_cache_hook.validate_prefill_only_disable_kv_cache_args#6", POD, "ValueError",
    "--prefill-only-disable-kv-cache is incompatible with --attn-cp-size > 1: the context-parallel attention path writes K/V to the pool via set_kv_buffer, which the no-op pool intentionally rejects.",
    "Attention context parallelism exchanges K/V through the KV pool, which does not exist in no-KV-cache mode. Use --attn-cp-size 1 or keep the KV cache.",
    &["--prefill-only-disable-kv-cache", "--attn-cp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --tp-size 2 --attn-cp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --tp-size 2");

err_rule!(PREFILL_ONLY_NO_PREFILL_CP, "KV007", "prefill-only-no-kv-rejects-prefill-cp",
    "kv_cache_hook.validate_prefill_only_disable_kv_cache_args#7", POD, "ValueError",
    "--prefill-only-disable-kv-cache is incompatible with --enable-prefill-cp: the prefill-CP path stages K/V through the paged cache, which the no-op pool does not support.",
    "Prefill context parallelism stages K/V through the paged KV cache, which no-KV-cache mode removes. Choose one of the two.",
    &["--prefill-only-disable-kv-cache", "--enable-prefill-cp"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --enable-prefill-cp",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache");

err_rule!(PREFILL_ONLY_NO_HISPARSE, "KV008", "prefill-only-no-kv-rejects-hisparse",
    "kv_cache_hook.validate_prefill_only_disable_kv_cache_args#8", POD, "ValueError",
    "--prefill-only-disable-kv-cache is incompatible with --enable-hisparse: HiSparse uses a dedicated pool family that is not the no-op MHA pool.",
    "HiSparse brings its own KV pool, so it cannot run with the no-op pool of no-KV-cache mode. Choose one of the two.",
    &["--prefill-only-disable-kv-cache", "--enable-hisparse"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --enable-hisparse",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache");

// ---------------------------------------------------------------------------------------------
// handle_nvfp4_prefill_kv_dequant_dtype
// ---------------------------------------------------------------------------------------------

const NV: &str = "handle_nvfp4_prefill_kv_dequant_dtype";

err_rule!(DEQUANT_NEEDS_NVFP4, "KV009", "prefill-dequant-dtype-needs-nvfp4-kv",
    "kv_cache_hook.handle_nvfp4_prefill_kv_dequant_dtype#1", NV, "ValueError",
    "--prefill-kv-cache-dequant-dtype applies only with --kv-cache-dtype=nvfp4.",
    "--prefill-kv-cache-dequant-dtype chooses how an NVFP4 KV cache is read during prefill, so it means nothing with another KV dtype. Drop it, or use --kv-cache-dtype nvfp4.",
    &["--prefill-kv-cache-dequant-dtype", "--kv-cache-dtype"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --prefill-kv-cache-dequant-dtype fp8_e4m3",
    "--model-path meta-llama/Llama-3.1-8B-Instruct");

err_rule!(NVFP4_BACKEND_NEITHER, "KV010", "nvfp4-prefill-backend-unsupported",
    "kv_cache_hook.handle_nvfp4_prefill_kv_dequant_dtype#2", NV, "ValueError",
    "NVFP4 prefill supports an FP8 E4M3 workspace or native NVFP4, but backend {explicit_backend!r} provides neither.",
    "With an NVFP4 KV cache, prefill runs either on flashinfer (reading an FP8 copy) or on trtllm_mha (native NVFP4); the attention backend you chose is neither. Drop the backend option and let the KV dtype choose.",
    &["--kv-cache-dtype", "--attention-backend", "--prefill-attention-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --attention-backend triton",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4");

err_rule!(NVFP4_NATIVE_NEEDS_SM100, "KV011", "native-nvfp4-prefill-needs-sm100",
    "kv_cache_hook.handle_nvfp4_prefill_kv_dequant_dtype#3", NV, "ValueError",
    "Native NVFP4 prefill currently requires SM100; use --prefill-kv-cache-dequant-dtype=fp8_e4m3 on this platform.",
    "Reading the NVFP4 KV cache natively during prefill needs a datacenter Blackwell (SM100) GPU. On other GPUs prefill must go through an FP8 E4M3 workspace.",
    &["--prefill-kv-cache-dequant-dtype", "--kv-cache-dtype"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype nvfp4",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3");

err_rule!(NVFP4_PREFILL_BACKEND_MISMATCH, "KV012", "nvfp4-prefill-backend-conflicts-with-dequant-dtype",
    "kv_cache_hook.handle_nvfp4_prefill_kv_dequant_dtype#4", NV, "ValueError",
    "--prefill-kv-cache-dequant-dtype={requested_dtype} requires prefill backend {target_prefill_backend!r}, but --prefill-attention-backend={explicit_prefill_backend!r} was set. Remove the backend option and select the KV dtype only.",
    "Each NVFP4 prefill dequant dtype has exactly one prefill backend (fp8_e4m3 -> flashinfer, nvfp4 -> trtllm_mha); the prefill backend given contradicts it. Drop --prefill-attention-backend.",
    &["--prefill-kv-cache-dequant-dtype", "--prefill-attention-backend", "--kv-cache-dtype"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3 --prefill-attention-backend trtllm_mha",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3");

err_rule!(NVFP4_DECODE_BACKEND, "KV013", "nvfp4-decode-needs-trtllm-mha",
    "kv_cache_hook.handle_nvfp4_prefill_kv_dequant_dtype#5", NV, "ValueError",
    "NVFP4 decode requires --decode-attention-backend=trtllm_mha; got {explicit_decode_backend!r}. Remove the backend option; NVFP4 selects the supported decode implementation automatically.",
    "Only trtllm_mha decodes from an NVFP4 KV cache, and SGLang picks it by itself. Drop --decode-attention-backend.",
    &["--decode-attention-backend", "--kv-cache-dtype"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --decode-attention-backend flashinfer",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4");

// ---------------------------------------------------------------------------------------------
// handle_kv4_compatibility
// ---------------------------------------------------------------------------------------------

const KV4: &str = "handle_kv4_compatibility";

err_rule!(NVFP4_NEEDS_BLACKWELL, "KV014", "nvfp4-kv-needs-blackwell",
    "kv_cache_hook.handle_kv4_compatibility#1", KV4, "RuntimeError",
    "--kv-cache-dtype=nvfp4 requires Blackwell SM100 or SM120. Use --kv-cache-dtype=fp4_mx_block16 for the block-size-16 FP4 recipe.",
    "The NVFP4 KV cache relies on Blackwell (SM100/SM120) FP4 hardware. On older GPUs use --kv-cache-dtype fp4_mx_block16 or an FP8 KV dtype.",
    &["--kv-cache-dtype"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3");

err_rule!(FP4_NO_UNIFIED_MEMORY, "KV015", "fp4-kv-rejects-unified-memory",
    "kv_cache_hook.handle_kv4_compatibility#2", KV4, "ValueError",
    "FP4 KV cache does not yet support --enable-unified-memory: the unified MHA pool does not allocate FP4 block scales or the prefill dequant workspace.",
    "The unified memory pool has no room for the block scales of an FP4 KV cache. Use one or the other.",
    &["--kv-cache-dtype", "--enable-unified-memory"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --enable-unified-memory",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4");

err_rule!(NVFP4_SPEC_PREFIX_WRITERS, "KV016", "native-nvfp4-rejects-dflash-dspark",
    "kv_cache_hook.handle_kv4_compatibility#3", KV4, "ValueError",
    "SM100 native NVFP4 speculative decoding does not yet support {speculative_algorithm}; use EAGLE/NEXTN or NGRAM.",
    "DFLASH and DSPARK write a prefix of each draft block through a path that does not produce the NVFP4 scale layout trtllm_mha uses on SM100. Use EAGLE, NEXTN or NGRAM, or another KV dtype.",
    &["--kv-cache-dtype", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3 --speculative-algorithm DFLASH --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct");

err_rule!(NVFP4_SPEC_UNSUPPORTED, "KV017", "native-nvfp4-spec-algorithm-unsupported",
    "kv_cache_hook.handle_kv4_compatibility#4", KV4, "ValueError",
    "SM100 native NVFP4 speculative decoding supports EAGLE, EAGLE3, NEXTN, and breadth-1 NGRAM; got {speculative_algorithm}.",
    "On SM100 with the native NVFP4 KV cache only the EAGLE family and NGRAM have been validated for speculative decoding.",
    &["--kv-cache-dtype", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3 --speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct");

err_rule!(NVFP4_NGRAM_BREADTH, "KV018", "native-nvfp4-ngram-needs-breadth-1",
    "kv_cache_hook.handle_kv4_compatibility#5", KV4, "ValueError",
    "SM100 native NVFP4 NGRAM speculative decoding requires --speculative-ngram-max-bfs-breadth=1 because trtllm_mha supports linear target verification only; got {cfg.speculative_ngram_max_bfs_breadth}.",
    "trtllm_mha verifies a single chain of draft tokens, while NGRAM drafts a tree (breadth 10 by default). Set --speculative-ngram-max-bfs-breadth 1.",
    &["--kv-cache-dtype", "--speculative-algorithm", "--speculative-ngram-max-bfs-breadth"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm NGRAM",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm NGRAM --speculative-ngram-max-bfs-breadth 1");

err_rule!(NVFP4_DRAFT_BACKEND, "KV019", "native-nvfp4-draft-needs-trtllm-mha",
    "kv_cache_hook.handle_kv4_compatibility#6", KV4, "ValueError",
    "SM100 native NVFP4 speculative decoding requires --speculative-draft-attention-backend=trtllm_mha so the draft worker consumes its physical NVFP4 KV layout; got {draft_backend!r}.",
    "The draft model's KV cache uses the same native NVFP4 layout, which only trtllm_mha reads. Drop --speculative-draft-attention-backend (SGLang then picks trtllm_mha) or set it to trtllm_mha.",
    &["--kv-cache-dtype", "--speculative-draft-attention-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm EAGLE --speculative-draft-attention-backend flashinfer",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm EAGLE");

err_rule!(NVFP4_NO_PD, "KV020", "native-nvfp4-rejects-pd-disaggregation",
    "kv_cache_hook.handle_kv4_compatibility#7", KV4, "ValueError",
    "SM100 native NVFP4 with trtllm_mha does not yet support PD disaggregation because its physical block-scale layout is not implemented by the KV transfer path.",
    "The prefill-to-decode KV transfer does not know the native NVFP4 scale layout used on SM100. Use an FP8 KV dtype for PD disaggregation.",
    &["--kv-cache-dtype", "--disaggregation-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --disaggregation-mode prefill",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3 --disaggregation-mode prefill");

err_rule!(NVFP4_NO_HOST_TIER, "KV021", "native-nvfp4-rejects-hicache-lmcache",
    "kv_cache_hook.handle_kv4_compatibility#8", KV4, "ValueError",
    "SM100 native NVFP4 with trtllm_mha does not yet support hierarchical KV cache or LMCache because their host pools do not preserve the physical block-scale layout.",
    "HiCache and LMCache copy KV to host memory in a layout that loses the native NVFP4 block scales. Drop the host cache tier or use another KV dtype.",
    &["--kv-cache-dtype", "--enable-hierarchical-cache", "--enable-lmcache"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --enable-hierarchical-cache",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4");

err_rule!(KV4_NON_CUDA, "KV022", "fp4-kv-needs-cuda",
    "kv_cache_hook.handle_kv4_compatibility#13", KV4, "RuntimeError",
    "KV4 is not tested on non-CUDA platforms.",
    "FP4 KV caches (nvfp4, fp4_mx_block16) are only supported on NVIDIA GPUs. Use an FP8 KV dtype on this platform.",
    &["--kv-cache-dtype"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp4_mx_block16",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3");

warn_rule!(NVFP4_DRAFT_BACKEND_DEFAULT, "KV023", "native-nvfp4-draft-uses-trtllm-mha", KV4,
    "SM100 native NVFP4 speculative decoding uses trtllm_mha for the draft worker.",
    "With the native NVFP4 KV cache on SM100, SGLang runs the draft model on trtllm_mha too, since only it reads that layout.",
    &["--kv-cache-dtype", "--speculative-algorithm", "--speculative-draft-attention-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm EAGLE",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --speculative-algorithm EAGLE --speculative-draft-attention-backend trtllm_mha");

warn_rule!(NVFP4_MIXED_SPEC_MODE, "KV024", "mixed-nvfp4-spec-verify-on-decode", KV4,
    "SM100 mixed NVFP4 speculative decoding routes target verify to trtllm_mha; overriding --speculative-attention-mode=prefill to decode.",
    "With FP8-workspace prefill and NVFP4 decode, target verification must run on the decode backend, so SGLang switches --speculative-attention-mode to decode.",
    &["--kv-cache-dtype", "--speculative-attention-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3 --speculative-algorithm EAGLE",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype nvfp4 --prefill-kv-cache-dequant-dtype fp8_e4m3 --speculative-algorithm EAGLE --speculative-attention-mode decode");

warn_rule!(KV4_SPLIT_BACKENDS, "KV025", "fp4-kv-split-backends", KV4,
    "Attention: Using KV4 with PREFILL = {prefill_backend} and DECODE = {decode_backend}. Compatibility issues are unlikely, but may occur in rare edge cases.",
    "An FP4 KV cache with different prefill and decode attention backends is allowed but less tested.",
    &["--kv-cache-dtype", "--prefill-attention-backend", "--decode-attention-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp4_mx_block16 --prefill-attention-backend triton --decode-attention-backend torch_native",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp4_mx_block16 --attention-backend triton");

// ---------------------------------------------------------------------------------------------
// handle_mxfp8_kv_cache_compatibility / handle_prefill_only_disable_kv_cache
// ---------------------------------------------------------------------------------------------

err_rule!(MXFP8_NEEDS_BLACKWELL, "KV026", "mxfp8-kv-needs-blackwell",
    "kv_cache_hook.handle_mxfp8_kv_cache_compatibility#1", "handle_mxfp8_kv_cache_compatibility", "ValueError",
    "--kv-cache-dtype mxfp8 requires an SM100+ (Blackwell) GPU for the block-scaled operands used by the FA4 MXFP8 attention path.",
    "The MXFP8 KV cache uses block-scaled tensor-core operands that only Blackwell GPUs have. Use fp8_e4m3 on this GPU.",
    &["--kv-cache-dtype"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype mxfp8",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --kv-cache-dtype fp8_e4m3");

err_rule!(PREFILL_ONLY_NEEDS_FA, "KV027", "prefill-only-no-kv-needs-fa-backend",
    "kv_cache_hook.handle_prefill_only_disable_kv_cache#2", "handle_prefill_only_disable_kv_cache", "ValueError",
    "--prefill-only-disable-kv-cache currently requires the FA prefill backend (fa3/fa4), but got prefill backend {prefill_backend!r}. Other prefill-only workloads and backends may be supported in a future change.",
    "Only the FlashAttention backends (fa3/fa4) can prefill without writing a KV cache. Use --attention-backend fa3 (Hopper) or fa4 (Blackwell).",
    &["--prefill-only-disable-kv-cache", "--attention-backend", "--prefill-attention-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --attention-backend triton",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --is-embedding --prefill-only-disable-kv-cache --chunked-prefill-size -1 --disable-radix-cache --attention-backend fa3");

// ---------------------------------------------------------------------------------------------
// handle_cache_compatibility
// ---------------------------------------------------------------------------------------------

const CC: &str = "handle_cache_compatibility";

err_rule!(HOST_POOL_NEEDS_DECODE, "KV028", "host-pool-retraction-needs-decode-server",
    "kv_cache_hook.handle_cache_compatibility#1", CC, "ValueError",
    "--disaggregation-decode-retraction-backup=host_pool is only supported on a PD decode server.",
    "The host-pool retraction backup keeps the KV of requests a PD decode server retracts; other servers never retract that way. Use it only with --disaggregation-mode decode.",
    &["--disaggregation-decode-retraction-backup", "--disaggregation-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-retraction-backup host_pool",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-retraction-backup host_pool");

err_rule!(HOST_POOL_NEEDS_DCP_1, "KV029", "host-pool-retraction-needs-dcp-1",
    "kv_cache_hook.handle_cache_compatibility#2", CC, "ValueError",
    "--disaggregation-decode-retraction-backup=host_pool does not support --dcp-size > 1.",
    "The host-pool retraction backup cannot shard its copy of the KV cache across decode-context-parallel groups, so it only works with --dcp-size 1. This typically happens when scaling long-context decode with DCP while the backup flag is still set.",
    &["--disaggregation-decode-retraction-backup", "--dcp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 1 --disaggregation-decode-retraction-backup host_pool");

err_rule!(HOST_POOL_PRIORITY_PREEMPTION, "KV030", "host-pool-retraction-needs-no-priority-preemption",
    "kv_cache_hook.handle_cache_compatibility#3", CC, "ValueError",
    "--disaggregation-decode-retraction-backup=host_pool requires --disable-priority-preemption when priority scheduling is enabled.",
    "Priority preemption retracts requests in a way the host-pool backup does not track. With --enable-priority-scheduling, add --disable-priority-preemption.",
    &["--disaggregation-decode-retraction-backup", "--enable-priority-scheduling", "--disable-priority-preemption"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-retraction-backup host_pool --enable-priority-scheduling",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-retraction-backup host_pool --enable-priority-scheduling --disable-priority-preemption");

err_rule!(TLRU_NEGATIVE, "KV031", "tlru-config-negative",
    "kv_cache_hook.handle_cache_compatibility#4", CC, "ValueError",
    "--radix-eviction-policy tlru requires non-negative 'threshold' and 'next_prompt_estimate' in --radix-eviction-policy-config, got {threshold} and {next_prompt_estimate}.",
    "The T-LRU eviction policy's 'threshold' and 'next_prompt_estimate' are token counts and cannot be negative.",
    &["--radix-eviction-policy", "--radix-eviction-policy-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --radix-eviction-policy tlru --radix-eviction-policy-config '{\"threshold\": -1}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --radix-eviction-policy tlru --radix-eviction-policy-config '{\"threshold\": 256}'");

err_rule!(TLRU_THRESHOLD, "KV032", "tlru-threshold-not-above-estimate",
    "kv_cache_hook.handle_cache_compatibility#5", CC, "ValueError",
    "--radix-eviction-policy tlru needs 'threshold' greater than 'next_prompt_estimate' in --radix-eviction-policy-config, got {threshold} <= {next_prompt_estimate}; otherwise no tokens are ever TEL-safe and T-LRU is exactly LRU.",
    "T-LRU only differs from LRU when 'threshold' exceeds 'next_prompt_estimate'; both default to 0, so the policy needs a config. Pass --radix-eviction-policy-config with a larger threshold, or use --radix-eviction-policy lru.",
    &["--radix-eviction-policy", "--radix-eviction-policy-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --radix-eviction-policy tlru",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --radix-eviction-policy tlru --radix-eviction-policy-config '{\"threshold\": 256}'");

err_rule!(HICACHE_VS_NO_RADIX, "KV033", "hicache-needs-radix-cache",
    "kv_cache_hook.handle_cache_compatibility#6", CC, "ValueError",
    "The arguments enable-hierarchical-cache and disable-radix-cache are mutually exclusive and cannot be used at the same time. Please use only one of them.",
    "The hierarchical cache extends the radix prefix cache into host memory, so it needs the radix cache on. Keep one of the two flags.",
    &["--enable-hierarchical-cache", "--disable-radix-cache"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --disable-radix-cache",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache");

err_rule!(OFFLOAD_NEEDS_DECODE, "KV034", "decode-offload-needs-decode-server",
    "kv_cache_hook.handle_cache_compatibility#7", CC, "ValueError",
    "The argument disaggregation-decode-enable-offload-kvcache is only supported for decode side.",
    "Offloading finished KV to storage is a PD decode-server feature. Use it with --disaggregation-mode decode.",
    &["--disaggregation-decode-enable-offload-kvcache", "--disaggregation-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-enable-offload-kvcache",
    "--model-path meta-llama/Llama-3.1-8B-Instruct");

err_rule!(OFFLOAD_NEEDS_STORAGE, "KV035", "decode-offload-needs-storage-backend",
    "kv_cache_hook.handle_cache_compatibility#8", CC, "ValueError",
    "The argument disaggregation-decode-enable-offload-kvcache is only supported when hicache-storage-backend is provided.",
    "Decode-side KV offload writes to a HiCache storage backend, so one must be named with --hicache-storage-backend.",
    &["--disaggregation-decode-enable-offload-kvcache", "--hicache-storage-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file");

err_rule!(OFFLOAD_VS_HOST_POOL, "KV036", "decode-offload-vs-host-pool-retraction",
    "kv_cache_hook.handle_cache_compatibility#9", CC, "ValueError",
    "The arguments disaggregation-decode-enable-offload-kvcache and disaggregation-decode-retraction-backup=host_pool are mutually exclusive: both build a decode host pool.",
    "Decode KV offload and the host-pool retraction backup would each build their own host KV pool on the decode server. Keep one of them.",
    &["--disaggregation-decode-enable-offload-kvcache", "--disaggregation-decode-retraction-backup"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file --disaggregation-decode-retraction-backup host_pool",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file");

err_rule!(SWA_RATIO_RANGE, "KV037", "swa-full-tokens-ratio-range",
    "kv_cache_hook.handle_cache_compatibility#10", CC, "ValueError",
    "--swa-full-tokens-ratio should be in range (0, 1.0].",
    "--swa-full-tokens-ratio sizes the sliding-window KV pool relative to the full-attention pool; it must be above 0 and at most 1.",
    &["--swa-full-tokens-ratio"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --swa-full-tokens-ratio 1.5",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --swa-full-tokens-ratio 0.5");

err_rule!(SWA_PREFIX_TAILS, "KV038", "swa-prefix-tails-negative",
    "kv_cache_hook.handle_cache_compatibility#11", CC, "ValueError",
    "--swa-prefix-tails should be a non-negative integer.",
    "--swa-prefix-tails counts cached prefix tails to reserve room for, so it cannot be negative.",
    &["--swa-prefix-tails"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --swa-prefix-tails -1",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --swa-prefix-tails 0");

err_rule!(LMCACHE_VS_HICACHE, "KV039", "lmcache-vs-hicache",
    "kv_cache_hook.handle_cache_compatibility#12", CC, "ValueError",
    "--enable-lmcache and --enable-hierarchical-cache are mutually exclusive",
    "LMCache and HiCache are two different host/storage tiers for the KV cache; only one can own it.",
    &["--enable-lmcache", "--enable-hierarchical-cache"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --enable-hierarchical-cache",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache");

err_rule!(LMCACHE_VS_LINKER, "KV040", "lmcache-vs-external-linker",
    "kv_cache_hook.handle_cache_compatibility#13", CC, "ValueError",
    "--enable-lmcache and --enable-unified-cache-external-linker are mutually exclusive",
    "LMCache and the unified-cache external linker both attach an external KV tier; only one can be used.",
    &["--enable-lmcache", "--enable-unified-cache-external-linker"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --enable-unified-cache-external-linker",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache");

err_rule!(LMCACHE_NEEDS_RADIX, "KV041", "lmcache-needs-radix-cache",
    "kv_cache_hook.handle_cache_compatibility#14", CC, "ValueError",
    "--enable-lmcache requires radix cache to be enabled",
    "LMCache plugs into the radix prefix cache, so --disable-radix-cache (or a mode that disables it, such as a PD decode server) rules it out.",
    &["--enable-lmcache", "--disable-radix-cache"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --disable-radix-cache",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache");

err_rule!(LMCACHE_NO_SPEC, "KV042", "lmcache-rejects-speculative",
    "kv_cache_hook.handle_cache_compatibility#15", CC, "NotImplementedError",
    "LMCacheUnifiedRadixCache does not yet support speculative decoding",
    "The LMCache radix cache does not handle draft-model KV yet. Drop either LMCache or speculative decoding.",
    &["--enable-lmcache", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --speculative-algorithm EAGLE",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache");

err_rule!(LMCACHE_NO_DP_ATTN, "KV043", "lmcache-rejects-dp-attention",
    "kv_cache_hook.handle_cache_compatibility#16", CC, "NotImplementedError",
    "LMCacheUnifiedRadixCache does not yet support DP attention",
    "The LMCache radix cache does not work with data-parallel attention yet.",
    &["--enable-lmcache", "--attn-dp-size", "--enable-dp-attention"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --tp-size 2 --attn-dp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --tp-size 2");

err_rule!(LMCACHE_NO_DCP, "KV044", "lmcache-rejects-dcp",
    "kv_cache_hook.handle_cache_compatibility#17", CC, "NotImplementedError",
    "--enable-lmcache with --dcp-size > 1 is not supported: LMCache has no DCP-aware index translation",
    "LMCache cannot map KV indices that are sharded across decode-context-parallel ranks. Use --dcp-size 1 with LMCache.",
    &["--enable-lmcache", "--dcp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --tp-size 2 --dcp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --tp-size 2");

err_rule!(LMCACHE_NO_STREAMING, "KV045", "lmcache-rejects-streaming-session",
    "kv_cache_hook.handle_cache_compatibility#18", CC, "NotImplementedError",
    "LMCacheUnifiedRadixCache does not yet support streaming sessions",
    "Streaming sessions keep KV pinned across turns, which the LMCache radix cache does not support yet.",
    &["--enable-lmcache", "--enable-streaming-session"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --enable-streaming-session",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache");

err_rule!(LMCACHE_BUFFER_ONLY, "KV046", "lmcache-rejects-buffer-only-host-mode",
    "kv_cache_hook.handle_cache_compatibility#19", CC, "ValueError",
    "--hicache-host-memory-mode=buffer_only is a HiCache-only mode",
    "--hicache-host-memory-mode buffer_only configures HiCache's host tier, which LMCache does not use. Drop it.",
    &["--enable-lmcache", "--hicache-host-memory-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --hicache-host-memory-mode buffer_only",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache");

err_rule!(LMCACHE_NO_PD, "KV047", "lmcache-rejects-pd-disaggregation",
    "kv_cache_hook.handle_cache_compatibility#20", CC, "NotImplementedError",
    "LMCacheUnifiedRadixCache currently supports colocated prefill/decode scheduling only",
    "LMCache works only when prefill and decode run on the same server, not with PD disaggregation.",
    &["--enable-lmcache", "--disaggregation-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache --disaggregation-mode prefill",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-lmcache");

// ---------------------------------------------------------------------------------------------
// handle_page_major_kv_layout
// ---------------------------------------------------------------------------------------------

const PM: &str = "handle_page_major_kv_layout";

err_rule!(PAGE_MAJOR_NEEDS_UNIFIED, "KV048", "page-major-kv-needs-unified-memory",
    "kv_cache_hook.handle_page_major_kv_layout#1", PM, "AssertionError",
    "--enable-page-major-kv-layout without --enable-unified-memory is temporarily unsupported: the strided MHA K/V views were removed and the static-pool page-major layout awaits its per-layer-view reimplementation. Run with --enable-unified-memory, or drop --enable-page-major-kv-layout.",
    "The page-major KV layout currently exists only inside the unified memory pool. Add --enable-unified-memory (which implies the layout) or drop --enable-page-major-kv-layout.",
    &["--enable-page-major-kv-layout", "--enable-unified-memory"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-page-major-kv-layout",
    "--model-path meta-llama/Llama-3.1-8B-Instruct");

err_rule!(PAGE_MAJOR_MAMBA_BACKEND, "KV049", "page-major-kv-needs-triton-mamba",
    "kv_cache_hook.handle_page_major_kv_layout#5", PM, "AssertionError",
    "--enable-page-major-kv-layout requires the Triton Mamba kernels for the strided conv/SSM state; got {cfg.mamba_backend!r}. Pass --mamba-backend triton.",
    "In the page-major layout the Mamba state is strided, which only the Triton Mamba kernels read correctly.",
    &["--enable-page-major-kv-layout", "--mamba-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --mamba-backend flashinfer",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory");

// ---------------------------------------------------------------------------------------------
// handle_unified_memory_pool
// ---------------------------------------------------------------------------------------------

const UM: &str = "handle_unified_memory_pool";

err_rule!(UM_PD_TRANSFER_BACKEND, "KV050", "unified-memory-pd-needs-mooncake",
    "kv_cache_hook.handle_unified_memory_pool#1", UM, "AssertionError",
    "--enable-unified-memory with PD disaggregation supports only these transfer backends: {', '.join(sorted(supported_backends))}; got {cfg.disaggregation_transfer_backend!r}.",
    "With PD disaggregation, the unified memory pool ships whole page envelopes, which only the Mooncake transfer backend implements.",
    &["--enable-unified-memory", "--disaggregation-transfer-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill --disaggregation-transfer-backend nixl",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill --disaggregation-transfer-backend mooncake");

err_rule!(UM_PD_NO_PP, "KV051", "unified-memory-pd-rejects-pp",
    "kv_cache_hook.handle_unified_memory_pool#2", UM, "AssertionError",
    "--enable-unified-memory with PD disaggregation does not support pipeline parallelism (whole-envelope transfer has no per-layer entries to subset).",
    "The unified pool's PD transfer moves whole envelopes that hold every layer, so a pipeline stage cannot send just its layers. Use --pp-size 1.",
    &["--enable-unified-memory", "--pp-size", "--disaggregation-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill --pp-size 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill");

err_rule!(UM_PD_MOONCAKE_SPEC, "KV052", "unified-memory-pd-mooncake-rejects-spec",
    "kv_cache_hook.handle_unified_memory_pool#3", UM, "AssertionError",
    "--enable-unified-memory with PD disaggregation does not support speculative decoding with the Mooncake transfer backend.",
    "The unified pool's Mooncake PD transfer does not carry draft-model KV yet.",
    &["--enable-unified-memory", "--speculative-algorithm", "--disaggregation-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill --speculative-algorithm EAGLE",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill");

err_rule!(UM_PD_LAZY_COMPACTION, "KV053", "unified-memory-pd-needs-lazy-compaction",
    "kv_cache_hook.handle_unified_memory_pool#4", UM, "AssertionError",
    "--enable-unified-memory with PD disaggregation requires lazy compaction; unset SGLANG_DISABLE_LAZY_COMPACTION.",
    "PD transfers from the unified pool rely on lazy compaction, which the environment variable SGLANG_DISABLE_LAZY_COMPACTION=1 turns off. Unset it for PD disaggregation with --enable-unified-memory.",
    &["--enable-unified-memory", "--disaggregation-mode"],
    "",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill");

err_rule!(UM_PD_NO_HISPARSE, "KV054", "unified-memory-pd-rejects-hisparse",
    "kv_cache_hook.handle_unified_memory_pool#5", UM, "AssertionError",
    "--enable-unified-memory with PD disaggregation is not compatible with --enable-hisparse: the decode-side HiSparse prealloc path ships host/C4 rows straight from the allocator, bypassing the virtual->physical translation the unified pool needs.",
    "HiSparse's decode-side transfer bypasses the unified pool's address translation.",
    &["--enable-unified-memory", "--enable-hisparse", "--disaggregation-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill --enable-hisparse",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode prefill");

err_rule!(UM_OFFLOAD_FILE_ONLY, "KV055", "unified-memory-decode-offload-needs-file-storage",
    "kv_cache_hook.handle_unified_memory_pool#6", UM, "AssertionError",
    "--enable-unified-memory with decode KV offload currently supports --hicache-storage-backend=file only.",
    "Decode-side KV offload from the unified pool has only been implemented for the file storage backend.",
    &["--enable-unified-memory", "--disaggregation-decode-enable-offload-kvcache", "--hicache-storage-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend mooncake",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --disaggregation-mode decode --disaggregation-decode-enable-offload-kvcache --hicache-storage-backend file");

err_rule!(UM_SPEC_ALGORITHM, "KV056", "unified-memory-spec-algorithm-unsupported",
    "kv_cache_hook.handle_unified_memory_pool#11", UM, "AssertionError",
    "--enable-unified-memory only supports --speculative-algorithm DSPARK, DFLASH, EAGLE and EAGLE3; other speculative algorithms are not yet audited for the unified pool's virtual-to-physical loc translation. Got --speculative-algorithm={cfg.speculative_algorithm!r}.",
    "The unified memory pool has been validated only with DSPARK, DFLASH, EAGLE and EAGLE3 speculative decoding (spelled in upper case).",
    &["--enable-unified-memory", "--speculative-algorithm"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --speculative-algorithm NGRAM",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory");

err_rule!(UM_EAGLE_TOPK, "KV057", "unified-memory-needs-topk-1",
    "kv_cache_hook.handle_unified_memory_pool#12", UM, "AssertionError",
    "--enable-unified-memory supports a linear draft chain only (--speculative-eagle-topk in {None, 1}); tree verify relocates accepted tokens one at a time inside the target pool, which the unified pool's page-granular move_kv_cache cannot express. Got --speculative-eagle-topk={cfg.speculative_eagle_topk!r}.",
    "Tree-shaped speculative drafts (topk > 1) need token-level KV moves the page-granular unified pool cannot do. Use --speculative-eagle-topk 1.",
    &["--enable-unified-memory", "--speculative-eagle-topk"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --speculative-eagle-topk 4",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --speculative-eagle-topk 1");

err_rule!(UM_NO_TBO, "KV059", "unified-memory-rejects-two-batch-overlap",
    "kv_cache_hook.handle_unified_memory_pool#16", UM, "AssertionError",
    "--enable-unified-memory does not support --enable-two-batch-overlap: the iteration's read tables are indexed by the whole batch's rows, and a TBO child's readers do not offset into them.",
    "Two-batch overlap splits each batch in two, but the unified pool's read tables are indexed by the whole batch. Choose one of the two.",
    &["--enable-unified-memory", "--enable-two-batch-overlap"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --enable-two-batch-overlap",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory");

err_rule!(UM_NO_LMCACHE, "KV060", "unified-memory-rejects-lmcache",
    "kv_cache_hook.handle_unified_memory_pool#17", UM, "AssertionError",
    "--enable-unified-memory is not yet compatible with --enable-lmcache: the LMCache offload path indexes the device buffers with the ids it is handed, and under the unified pool those are VIRTUAL.",
    "LMCache would read the unified pool with virtual ids as if they were physical. Choose one of the two.",
    &["--enable-unified-memory", "--enable-lmcache"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --enable-lmcache",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory");

err_rule!(UM_NO_LINKER, "KV061", "unified-memory-rejects-external-linker",
    "kv_cache_hook.handle_unified_memory_pool#18", UM, "AssertionError",
    "--enable-unified-memory does not support --enable-unified-cache-external-linker: direct L3 transfers do not preserve unified page-envelope indices and compaction lifetimes. Use --enable-hierarchical-cache for supported L2/L3 transfers.",
    "The external cache linker's direct transfers do not understand the unified pool's page envelopes. Use --enable-hierarchical-cache instead.",
    &["--enable-unified-memory", "--enable-unified-cache-external-linker"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --enable-unified-cache-external-linker",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory");

err_rule!(UM_DCP_NO_PD, "KV062", "unified-memory-dcp-rejects-pd",
    "kv_cache_hook._validate_unified_memory_dcp#3", UM, "AssertionError",
    "--enable-unified-memory with decode context parallelism (--dcp-size > 1) does not support PD disaggregation: the transfer ships whole page envelopes, which under DCP hold only this rank's shard of each widened page. Rejected here rather than at the first KV transfer, where translate_kv_indices_for_transfer would abort a server that had already booted.",
    "Under DCP each rank's unified page envelope holds only a shard, so the PD transfer of whole envelopes would be wrong.",
    &["--enable-unified-memory", "--dcp-size", "--disaggregation-mode"],
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-unified-memory --dcp-size 2 --attention-backend flashinfer --disaggregation-mode decode",
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-unified-memory --dcp-size 2 --attention-backend flashinfer");

err_rule!(UM_DCP_BACKENDS, "KV063", "unified-memory-dcp-backends",
    "kv_cache_hook._validate_unified_memory_dcp#4", UM, "AssertionError",
    "--enable-unified-memory with decode context parallelism (--dcp-size > 1) requires {sorted(dcp_allowed)} for the full-attention layers; got {sorted(backends)}. The other paged MLA backends build their block table from raw (widened) req_to_token page ids and do not translate them through the unified pool's virtual->physical page table.",
    "With DCP, the unified pool only works with attention backends that translate the widened page ids (flashinfer, trtllm_mla, cutedsl_mla).",
    &["--enable-unified-memory", "--dcp-size", "--attention-backend"],
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-unified-memory --dcp-size 2 --attention-backend triton",
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-unified-memory --dcp-size 2 --attention-backend flashinfer");

err_rule!(UM_SPEC_VERIFY_BACKENDS, "KV064", "unified-memory-spec-verify-backends",
    "kv_cache_hook._assert_spec_verify_backends#1", UM, "AssertionError",
    "--enable-unified-memory + {algorithm} requires spec-verify-audited attention backends {sorted(allowed)}{dcp_note} for both prefill and decode; got {sorted(backends)}. Other backends do not translate speculative verify indices to the unified pool's physical ids yet.",
    "With the unified pool, DSPARK/DFLASH target verification only runs on attention backends that translate its KV indices.",
    &["--enable-unified-memory", "--speculative-algorithm", "--attention-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --speculative-algorithm DFLASH --attention-backend torch_native",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --speculative-algorithm DFLASH --attention-backend triton");

/// Every rule in this family.
pub static RULES: &[&Rule] = &[
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
    v.sort_unstable();
    v.dedup();
    let inner: Vec<String> = v.iter().map(|s| str_repr(s)).collect();
    format!("[{}]", inner.join(", "))
}

fn opt_str(ctx: &Ctx, dest: &str) -> Option<String> {
    ctx.cfg.str(dest).map(str::to_string)
}

/// `attention_backends_of(resolved_view(server_args))` after `attention_hook` has run: known
/// here only when the command (or an earlier modelled hook) fixes both the prefill and the
/// decode backend; otherwise `attention_hook` picks them from the model.
fn resolved_backends(ctx: &Ctx) -> Option<(String, String)> {
    let base = opt_str(ctx, "attention_backend");
    let prefill = opt_str(ctx, "prefill_attention_backend").filter(|s| !s.is_empty()).or_else(|| base.clone());
    let decode = opt_str(ctx, "decode_attention_backend").filter(|s| !s.is_empty()).or(base);
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
pub fn validate_prefill_only_disable_kv_cache_args(ctx: &mut Ctx) {
    if !ctx.cfg.truthy("prefill_only_disable_kv_cache") {
        return;
    }
    let drop_flag = |ctx: &Ctx| {
        ctx.fix_remove("Remove --prefill-only-disable-kv-cache (keep the KV cache)", "prefill_only_disable_kv_cache", Applicability::Unsafe)
    };
    if !ctx.cfg.truthy("is_embedding") {
        let fixes = vec![
            ctx.fix_add_flag("Add --is-embedding (serve an embedding model)", "--is-embedding", Applicability::Unsafe),
            drop_flag(ctx),
        ];
        ctx.raise(&PREFILL_ONLY_NEEDS_EMBEDDING, PREFILL_ONLY_NEEDS_EMBEDDING.template.to_string(), &["prefill_only_disable_kv_cache", "is_embedding"], fixes);
        return;
    }
    let kv = opt_str(ctx, "kv_cache_dtype");
    if matches!(kv.as_deref(), Some("nvfp4") | Some("fp4_mx_block16")) {
        let fixes = vec![
            ctx.fix_remove("Remove --kv-cache-dtype (no KV cache is kept)", "kv_cache_dtype", Applicability::Safe),
            drop_flag(ctx),
        ];
        ctx.raise(&PREFILL_ONLY_NO_FP4, PREFILL_ONLY_NO_FP4.template.to_string(), &["kv_cache_dtype", "prefill_only_disable_kv_cache"], fixes);
        return;
    }
    if kv.as_deref() == Some("mxfp8") {
        let fixes = vec![
            ctx.fix_remove("Remove --kv-cache-dtype (no KV cache is kept)", "kv_cache_dtype", Applicability::Safe),
            drop_flag(ctx),
        ];
        ctx.raise(&PREFILL_ONLY_NO_MXFP8, PREFILL_ONLY_NO_MXFP8.template.to_string(), &["kv_cache_dtype", "prefill_only_disable_kv_cache"], fixes);
        return;
    }
    if ctx.cfg.int("chunked_prefill_size") != Some(-1) {
        let fixes = vec![ctx.fix_set("Set --chunked-prefill-size -1", "chunked_prefill_size", "--chunked-prefill-size", "-1", Applicability::Safe), drop_flag(ctx)];
        ctx.raise(&PREFILL_ONLY_NEEDS_NO_CHUNKING, PREFILL_ONLY_NEEDS_NO_CHUNKING.template.to_string(), &["chunked_prefill_size", "prefill_only_disable_kv_cache"], fixes);
        return;
    }
    if !ctx.cfg.truthy("disable_radix_cache") {
        let fixes = vec![ctx.fix_add_flag("Add --disable-radix-cache", "--disable-radix-cache", Applicability::Safe), drop_flag(ctx)];
        ctx.raise(&PREFILL_ONLY_NEEDS_NO_RADIX, PREFILL_ONLY_NEEDS_NO_RADIX.template.to_string(), &["prefill_only_disable_kv_cache"], fixes);
        return;
    }
    if ctx.cfg.int("attn_cp_size").unwrap_or(1) > 1 {
        let fixes = vec![ctx.fix_remove("Remove --attn-cp-size", "attn_cp_size", Applicability::Unsafe)];
        ctx.raise(&PREFILL_ONLY_NO_ATTN_CP, PREFILL_ONLY_NO_ATTN_CP.template.to_string(), &["attn_cp_size", "prefill_only_disable_kv_cache"], fixes);
        return;
    }
    if ctx.cfg.truthy("enable_prefill_cp") {
        let fixes = vec![ctx.fix_remove("Remove --enable-prefill-cp", "enable_prefill_cp", Applicability::Unsafe)];
        ctx.raise(&PREFILL_ONLY_NO_PREFILL_CP, PREFILL_ONLY_NO_PREFILL_CP.template.to_string(), &["enable_prefill_cp", "prefill_only_disable_kv_cache"], fixes);
        return;
    }
    if ctx.cfg.truthy("enable_hisparse") {
        let fixes = vec![ctx.fix_remove("Remove --enable-hisparse", "enable_hisparse", Applicability::Unsafe)];
        ctx.raise(&PREFILL_ONLY_NO_HISPARSE, PREFILL_ONLY_NO_HISPARSE.template.to_string(), &["enable_hisparse", "prefill_only_disable_kv_cache"], fixes);
    }
}

/// `handle_nvfp4_prefill_kv_dequant_dtype`
pub fn handle_nvfp4_prefill_kv_dequant_dtype(ctx: &mut Ctx) {
    let requested0 = opt_str(ctx, "prefill_kv_cache_dequant_dtype");
    if !ctx.cfg.is("kv_cache_dtype", "nvfp4") {
        if requested0.as_deref() != Some("auto") {
            let fixes = vec![
                ctx.fix_remove("Remove --prefill-kv-cache-dequant-dtype", "prefill_kv_cache_dequant_dtype", Applicability::Safe),
                ctx.fix_set("Use --kv-cache-dtype nvfp4", "kv_cache_dtype", "--kv-cache-dtype", "nvfp4", Applicability::Unsafe),
            ];
            ctx.raise(&DEQUANT_NEEDS_NVFP4, DEQUANT_NEEDS_NVFP4.template.to_string(), &["prefill_kv_cache_dequant_dtype", "kv_cache_dtype"], fixes);
        }
        return;
    }
    let sm100 = is_sm100(ctx.hw);
    let mut requested = requested0.clone().unwrap_or_default();
    if requested == "auto" {
        // `cfg.prefill_attention_backend or cfg.attention_backend`
        let explicit_backend = opt_str(ctx, "prefill_attention_backend")
            .filter(|s| !s.is_empty())
            .or_else(|| opt_str(ctx, "attention_backend"));
        match explicit_backend.as_deref() {
            Some("flashinfer") => requested = "fp8_e4m3".into(),
            Some("trtllm_mha") => requested = "nvfp4".into(),
            Some(other) => {
                let msg = format!(
                    "NVFP4 prefill supports an FP8 E4M3 workspace or native NVFP4, but backend {} provides neither.",
                    str_repr(other)
                );
                let dest = if ctx.cfg.is_explicit("prefill_attention_backend") { "prefill_attention_backend" } else { "attention_backend" };
                let fixes = vec![
                    ctx.fix_remove("Remove the attention backend option (NVFP4 picks its own)", dest, Applicability::Safe),
                    ctx.fix_remove("Remove --kv-cache-dtype nvfp4 (keep the backend)", "kv_cache_dtype", Applicability::Unsafe),
                ];
                ctx.raise(&NVFP4_BACKEND_NEITHER, msg, &[dest, "kv_cache_dtype"], fixes);
                return;
            }
            None => requested = if sm100 { "nvfp4".into() } else { "fp8_e4m3".into() },
        }
    }
    if requested == "nvfp4" && !sm100 {
        let fixes = vec![ctx.fix_set(
            "Use --prefill-kv-cache-dequant-dtype fp8_e4m3",
            "prefill_kv_cache_dequant_dtype",
            "--prefill-kv-cache-dequant-dtype",
            "fp8_e4m3",
            Applicability::Safe,
        )];
        ctx.raise(&NVFP4_NATIVE_NEEDS_SM100, NVFP4_NATIVE_NEEDS_SM100.template.to_string(), &["prefill_kv_cache_dequant_dtype", "attention_backend", "kv_cache_dtype"], fixes);
        return;
    }
    let target_prefill = if requested == "nvfp4" { "trtllm_mha" } else { "flashinfer" };
    if let Some(explicit_prefill) = opt_str(ctx, "prefill_attention_backend") {
        if explicit_prefill != target_prefill {
            let msg = format!(
                "--prefill-kv-cache-dequant-dtype={requested} requires prefill backend {}, but --prefill-attention-backend={} was set. Remove the backend option and select the KV dtype only.",
                str_repr(target_prefill),
                str_repr(&explicit_prefill)
            );
            let fixes = vec![ctx.fix_remove("Remove --prefill-attention-backend", "prefill_attention_backend", Applicability::Safe)];
            ctx.raise(&NVFP4_PREFILL_BACKEND_MISMATCH, msg, &["prefill_attention_backend", "prefill_kv_cache_dequant_dtype"], fixes);
            return;
        }
    }
    let explicit_decode = opt_str(ctx, "decode_attention_backend");
    if let Some(d) = explicit_decode.as_deref() {
        if d != "trtllm_mha" {
            let msg = format!(
                "NVFP4 decode requires --decode-attention-backend=trtllm_mha; got {}. Remove the backend option; NVFP4 selects the supported decode implementation automatically.",
                str_repr(d)
            );
            let fixes = vec![ctx.fix_remove("Remove --decode-attention-backend", "decode_attention_backend", Applicability::Safe)];
            ctx.raise(&NVFP4_DECODE_BACKEND, msg, &["decode_attention_backend", "kv_cache_dtype"], fixes);
            return;
        }
    }
    ctx.cfg.set("prefill_attention_backend", PyValue::Str(target_prefill.into()));
    ctx.cfg.set("decode_attention_backend", PyValue::Str("trtllm_mha".into()));
    if requested0.as_deref() == Some("auto") {
        ctx.cfg.set("prefill_kv_cache_dequant_dtype", PyValue::Str(requested));
    }
}

/// `handle_kv4_compatibility`
pub fn handle_kv4_compatibility(ctx: &mut Ctx) {
    let kv = opt_str(ctx, "kv_cache_dtype").unwrap_or_default();
    if kv != "nvfp4" && kv != "fp4_mx_block16" {
        return;
    }
    if !ctx.hw.is_cuda() {
        let fixes = vec![ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", "kv_cache_dtype", "--kv-cache-dtype", "fp8_e4m3", Applicability::Unsafe)];
        ctx.raise(&KV4_NON_CUDA, KV4_NON_CUDA.template.to_string(), &["kv_cache_dtype"], fixes);
        return;
    }
    let nvfp4 = kv == "nvfp4";
    let sm100 = is_sm100(ctx.hw);
    if nvfp4 && !(sm100 || is_sm120(ctx.hw)) {
        // (fp4_mx_block16, the message's suggestion, then needs an attention backend that
        // depends on the model; FP8 is the fix that always works.)
        let fixes = vec![ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", "kv_cache_dtype", "--kv-cache-dtype", "fp8_e4m3", Applicability::Unsafe)];
        ctx.raise(&NVFP4_NEEDS_BLACKWELL, NVFP4_NEEDS_BLACKWELL.template.to_string(), &["kv_cache_dtype"], fixes);
        return;
    }
    if ctx.cfg.truthy("enable_unified_memory") {
        let fixes = vec![
            ctx.fix_remove("Remove --enable-unified-memory (keep the FP4 KV cache)", "enable_unified_memory", Applicability::Unsafe),
            ctx.fix_remove("Remove --kv-cache-dtype (keep the unified pool)", "kv_cache_dtype", Applicability::Unsafe),
        ];
        ctx.raise(&FP4_NO_UNIFIED_MEMORY, FP4_NO_UNIFIED_MEMORY.template.to_string(), &["enable_unified_memory", "kv_cache_dtype"], fixes);
        return;
    }
    // After attention_hook: for nvfp4 the backends were fixed by
    // handle_nvfp4_prefill_kv_dequant_dtype; for fp4_mx_block16 only if the command sets them.
    let Some((prefill, decode)) = resolved_backends(ctx) else {
        // The split-backend warning and the backend asserts depend on the model's defaults.
        // (Only fp4_mx_block16 gets here, and the SM100 NVFP4 checks do not apply to it.)
        ctx.skip("kv_cache_hook.handle_kv4_compatibility#9", NotRunReason::ModelConfig);
        ctx.skip("kv_cache_hook.handle_kv4_compatibility#10", NotRunReason::ModelConfig);
        ctx.skip("kv_cache_hook.handle_kv4_compatibility#11", NotRunReason::ModelConfig);
        ctx.skip("kv_cache_hook.handle_kv4_compatibility#12", NotRunReason::ModelConfig);
        return;
    };
    let uses_sm100_trtllm = nvfp4 && sm100 && (prefill == "trtllm_mha" || decode == "trtllm_mha");
    let uses_mixed = nvfp4 && prefill == "flashinfer" && decode == "trtllm_mha";
    let uses_sm100_mixed = uses_sm100_trtllm && uses_mixed;
    let spec = opt_str(ctx, "speculative_algorithm").map(|s| s.to_uppercase());
    if uses_sm100_trtllm {
        if let Some(alg) = spec.as_deref() {
            if alg == "DFLASH" || alg == "DSPARK" {
                let msg = format!("SM100 native NVFP4 speculative decoding does not yet support {alg}; use EAGLE/NEXTN or NGRAM.");
                let fixes = vec![ctx.fix_set(format!("Use --kv-cache-dtype fp8_e4m3 (keep {alg})"), "kv_cache_dtype", "--kv-cache-dtype", "fp8_e4m3", Applicability::Unsafe)];
                ctx.raise(&NVFP4_SPEC_PREFIX_WRITERS, msg, &["speculative_algorithm", "kv_cache_dtype"], fixes);
                return;
            }
            if !matches!(alg, "EAGLE" | "EAGLE3" | "NEXTN" | "NGRAM") {
                let msg = format!("SM100 native NVFP4 speculative decoding supports EAGLE, EAGLE3, NEXTN, and breadth-1 NGRAM; got {alg}.");
                let fixes = vec![ctx.fix_set(format!("Use --kv-cache-dtype fp8_e4m3 (keep {alg})"), "kv_cache_dtype", "--kv-cache-dtype", "fp8_e4m3", Applicability::Unsafe)];
                ctx.raise(&NVFP4_SPEC_UNSUPPORTED, msg, &["speculative_algorithm", "kv_cache_dtype"], fixes);
                return;
            }
            if alg == "NGRAM" {
                let breadth = ctx.cfg.get("speculative_ngram_max_bfs_breadth").clone();
                if breadth.as_int() != Some(1) {
                    let msg = format!(
                        "SM100 native NVFP4 NGRAM speculative decoding requires --speculative-ngram-max-bfs-breadth=1 because trtllm_mha supports linear target verification only; got {}.",
                        breadth.py_str()
                    );
                    let fixes = vec![ctx.fix_set(
                        "Set --speculative-ngram-max-bfs-breadth 1",
                        "speculative_ngram_max_bfs_breadth",
                        "--speculative-ngram-max-bfs-breadth",
                        "1",
                        Applicability::Safe,
                    )];
                    ctx.raise(&NVFP4_NGRAM_BREADTH, msg, &["speculative_ngram_max_bfs_breadth", "speculative_algorithm"], fixes);
                    return;
                }
            }
            if alg != "NGRAM" {
                match opt_str(ctx, "speculative_draft_attention_backend") {
                    None => {
                        ctx.warn(&NVFP4_DRAFT_BACKEND_DEFAULT, NVFP4_DRAFT_BACKEND_DEFAULT.template.to_string(), &["speculative_algorithm"], vec![]);
                        ctx.cfg.set("speculative_draft_attention_backend", PyValue::Str("trtllm_mha".into()));
                    }
                    Some(d) if d != "trtllm_mha" => {
                        let msg = format!(
                            "SM100 native NVFP4 speculative decoding requires --speculative-draft-attention-backend=trtllm_mha so the draft worker consumes its physical NVFP4 KV layout; got {}.",
                            str_repr(&d)
                        );
                        let fixes = vec![ctx.fix_remove(
                            "Remove --speculative-draft-attention-backend (trtllm_mha is chosen)",
                            "speculative_draft_attention_backend",
                            Applicability::Safe,
                        )];
                        ctx.raise(&NVFP4_DRAFT_BACKEND, msg, &["speculative_draft_attention_backend"], fixes);
                        return;
                    }
                    Some(_) => {}
                }
            }
        }
    }
    if uses_sm100_mixed && spec.is_some() && ctx.cfg.is("speculative_attention_mode", "prefill") {
        ctx.warn(&NVFP4_MIXED_SPEC_MODE, NVFP4_MIXED_SPEC_MODE.template.to_string(), &["speculative_attention_mode", "kv_cache_dtype"], vec![]);
        ctx.cfg.set("speculative_attention_mode", PyValue::Str("decode".into()));
    }
    if uses_sm100_trtllm && !ctx.cfg.is("disaggregation_mode", "null") {
        let fixes = vec![
            ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", "kv_cache_dtype", "--kv-cache-dtype", "fp8_e4m3", Applicability::Unsafe),
            ctx.fix_remove("Remove --disaggregation-mode", "disaggregation_mode", Applicability::Unsafe),
        ];
        ctx.raise(&NVFP4_NO_PD, NVFP4_NO_PD.template.to_string(), &["disaggregation_mode", "kv_cache_dtype"], fixes);
        return;
    }
    if uses_sm100_trtllm && (ctx.cfg.truthy("enable_hierarchical_cache") || ctx.cfg.truthy("enable_lmcache")) {
        let dest = if ctx.cfg.truthy("enable_hierarchical_cache") { "enable_hierarchical_cache" } else { "enable_lmcache" };
        let fixes = vec![
            ctx.fix_remove("Remove the host cache tier", dest, Applicability::Unsafe),
            ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", "kv_cache_dtype", "--kv-cache-dtype", "fp8_e4m3", Applicability::Unsafe),
        ];
        ctx.raise(&NVFP4_NO_HOST_TIER, NVFP4_NO_HOST_TIER.template.to_string(), &[dest, "kv_cache_dtype"], fixes);
        return;
    }
    if prefill != decode && prefill != "fa4" {
        if !uses_mixed {
            let msg = format!(
                "Attention: Using KV4 with PREFILL = {prefill} and DECODE = {decode}. Compatibility issues are unlikely, but may occur in rare edge cases."
            );
            ctx.warn(&KV4_SPLIT_BACKENDS, msg, &["prefill_attention_backend", "decode_attention_backend"], vec![]);
        }
    } else {
        // The backend asserts branch on use_mla_backend (the model's attention arch): with an
        // FA4 prefill, #9 (MLA) or #10 (MHA) on the decode backend; else #11 or #12.
        if prefill == "fa4" {
            ctx.skip("kv_cache_hook.handle_kv4_compatibility#9", NotRunReason::ModelConfig);
            ctx.skip("kv_cache_hook.handle_kv4_compatibility#10", NotRunReason::ModelConfig);
        } else {
            ctx.skip("kv_cache_hook.handle_kv4_compatibility#11", NotRunReason::ModelConfig);
            ctx.skip("kv_cache_hook.handle_kv4_compatibility#12", NotRunReason::ModelConfig);
        }
    }
}

/// `handle_mxfp8_kv_cache_compatibility`
pub fn handle_mxfp8_kv_cache_compatibility(ctx: &mut Ctx) {
    if !ctx.cfg.is("kv_cache_dtype", "mxfp8") {
        return;
    }
    if !is_blackwell(ctx.hw) {
        let fixes = vec![ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", "kv_cache_dtype", "--kv-cache-dtype", "fp8_e4m3", Applicability::Unsafe)];
        ctx.raise(&MXFP8_NEEDS_BLACKWELL, MXFP8_NEEDS_BLACKWELL.template.to_string(), &["kv_cache_dtype"], fixes);
    }
}

/// `handle_prefill_only_disable_kv_cache`
pub fn handle_prefill_only_disable_kv_cache(ctx: &mut Ctx) {
    if !ctx.cfg.truthy("prefill_only_disable_kv_cache") {
        return;
    }
    // #1 (the ordering assert) cannot fire: attention_hook always resolves a backend.
    let Some((prefill, _)) = resolved_backends(ctx) else {
        ctx.skip("kv_cache_hook.handle_prefill_only_disable_kv_cache#2", NotRunReason::ModelConfig);
        return;
    };
    if prefill != "fa3" && prefill != "fa4" {
        let msg = format!(
            "--prefill-only-disable-kv-cache currently requires the FA prefill backend (fa3/fa4), but got prefill backend {}. Other prefill-only workloads and backends may be supported in a future change.",
            str_repr(&prefill)
        );
        let dest = if ctx.cfg.is_explicit("prefill_attention_backend") { "prefill_attention_backend" } else { "attention_backend" };
        let fa = if is_blackwell(ctx.hw) { "fa4" } else { "fa3" };
        let flag = if dest == "prefill_attention_backend" { "--prefill-attention-backend" } else { "--attention-backend" };
        let fixes = vec![ctx.fix_set(format!("Use {flag} {fa}"), dest, flag, fa, Applicability::Unsafe)];
        ctx.raise(&PREFILL_ONLY_NEEDS_FA, msg, &[dest, "prefill_only_disable_kv_cache"], fixes);
    }
}

/// `handle_cache_compatibility`
pub fn handle_cache_compatibility(ctx: &mut Ctx) {
    let host_pool = ctx.cfg.is("disaggregation_decode_retraction_backup", "host_pool");
    let decode = ctx.cfg.is("disaggregation_mode", "decode");
    let dcp = ctx.cfg.int("dcp_size").unwrap_or(1);
    if host_pool && !decode {
        let fixes = vec![
            ctx.fix_remove("Remove --disaggregation-decode-retraction-backup", "disaggregation_decode_retraction_backup", Applicability::Safe),
            ctx.fix_set("Run as a PD decode server (--disaggregation-mode decode)", "disaggregation_mode", "--disaggregation-mode", "decode", Applicability::Unsafe),
        ];
        ctx.raise(&HOST_POOL_NEEDS_DECODE, HOST_POOL_NEEDS_DECODE.template.to_string(), &["disaggregation_decode_retraction_backup", "disaggregation_mode"], fixes);
        return;
    }
    if host_pool && dcp > 1 {
        let fixes = vec![
            ctx.fix_set("Set --dcp-size 1 (keep the host-pool backup)", "dcp_size", "--dcp-size", "1", Applicability::Unsafe),
            ctx.fix_remove("Remove --disaggregation-decode-retraction-backup (keep DCP)", "disaggregation_decode_retraction_backup", Applicability::Unsafe),
        ];
        ctx.raise(&HOST_POOL_NEEDS_DCP_1, HOST_POOL_NEEDS_DCP_1.template.to_string(), &["disaggregation_decode_retraction_backup", "dcp_size"], fixes);
        return;
    }
    if host_pool && ctx.cfg.truthy("enable_priority_scheduling") && !ctx.cfg.truthy("disable_priority_preemption") {
        let fixes = vec![
            ctx.fix_add_flag("Add --disable-priority-preemption", "--disable-priority-preemption", Applicability::Safe),
            ctx.fix_remove("Remove --disaggregation-decode-retraction-backup", "disaggregation_decode_retraction_backup", Applicability::Unsafe),
        ];
        ctx.raise(&HOST_POOL_PRIORITY_PREEMPTION, HOST_POOL_PRIORITY_PREEMPTION.template.to_string(), &["disaggregation_decode_retraction_backup", "enable_priority_scheduling"], fixes);
        return;
    }
    if ctx.cfg.is("radix_eviction_policy", "tlru") {
        let conf = ctx.cfg.get("radix_eviction_policy_config").clone();
        let (threshold, estimate) = match &conf {
            PyValue::Dict(items) => {
                let get = |k: &str| items.iter().rev().find(|(kk, _)| kk == k).map(|(_, v)| v.clone()).unwrap_or(PyValue::Int(0));
                (get("threshold"), get("next_prompt_estimate"))
            }
            v if !v.truthy() => (PyValue::Int(0), PyValue::Int(0)),
            _ => {
                // `.get` on a non-dict JSON value: an AttributeError we do not model.
                ctx.skip("kv_cache_hook.handle_cache_compatibility#4", NotRunReason::NotImplemented);
                (PyValue::Int(1), PyValue::Int(0))
            }
        };
        if let (Some(t), Some(e)) = (threshold.as_float(), estimate.as_float()) {
            if t < 0.0 || e < 0.0 {
                let msg = format!(
                    "--radix-eviction-policy tlru requires non-negative 'threshold' and 'next_prompt_estimate' in --radix-eviction-policy-config, got {} and {}.",
                    threshold.py_str(),
                    estimate.py_str()
                );
                let fixes = vec![ctx.fix_set("Use --radix-eviction-policy lru", "radix_eviction_policy", "--radix-eviction-policy", "lru", Applicability::Unsafe)];
                ctx.raise(&TLRU_NEGATIVE, msg, &["radix_eviction_policy_config", "radix_eviction_policy"], fixes);
                return;
            }
            if t <= e {
                let msg = format!(
                    "--radix-eviction-policy tlru needs 'threshold' greater than 'next_prompt_estimate' in --radix-eviction-policy-config, got {} <= {}; otherwise no tokens are ever TEL-safe and T-LRU is exactly LRU.",
                    threshold.py_str(),
                    estimate.py_str()
                );
                let fixes = vec![ctx.fix_set("Use --radix-eviction-policy lru", "radix_eviction_policy", "--radix-eviction-policy", "lru", Applicability::Unsafe)];
                ctx.raise(&TLRU_THRESHOLD, msg, &["radix_eviction_policy_config", "radix_eviction_policy"], fixes);
                return;
            }
        }
    }
    if ctx.cfg.truthy("enable_hierarchical_cache") && ctx.cfg.truthy("disable_radix_cache") {
        let fixes = vec![
            ctx.fix_remove("Remove --disable-radix-cache (keep HiCache)", "disable_radix_cache", Applicability::Unsafe),
            ctx.fix_remove("Remove --enable-hierarchical-cache", "enable_hierarchical_cache", Applicability::Unsafe),
        ];
        ctx.raise(&HICACHE_VS_NO_RADIX, HICACHE_VS_NO_RADIX.template.to_string(), &["enable_hierarchical_cache", "disable_radix_cache"], fixes);
        return;
    }
    if ctx.cfg.truthy("disaggregation_decode_enable_offload_kvcache") {
        if !decode {
            let fixes = vec![ctx.fix_remove("Remove --disaggregation-decode-enable-offload-kvcache", "disaggregation_decode_enable_offload_kvcache", Applicability::Safe)];
            ctx.raise(&OFFLOAD_NEEDS_DECODE, OFFLOAD_NEEDS_DECODE.template.to_string(), &["disaggregation_decode_enable_offload_kvcache", "disaggregation_mode"], fixes);
            return;
        }
        if ctx.cfg.is_none("hicache_storage_backend") {
            let fixes = vec![
                ctx.fix_set("Add --hicache-storage-backend file", "hicache_storage_backend", "--hicache-storage-backend", "file", Applicability::Unsafe),
                ctx.fix_remove("Remove --disaggregation-decode-enable-offload-kvcache", "disaggregation_decode_enable_offload_kvcache", Applicability::Unsafe),
            ];
            ctx.raise(&OFFLOAD_NEEDS_STORAGE, OFFLOAD_NEEDS_STORAGE.template.to_string(), &["disaggregation_decode_enable_offload_kvcache"], fixes);
            return;
        }
        if host_pool {
            let fixes = vec![
                ctx.fix_remove("Remove --disaggregation-decode-retraction-backup", "disaggregation_decode_retraction_backup", Applicability::Unsafe),
                ctx.fix_remove("Remove --disaggregation-decode-enable-offload-kvcache", "disaggregation_decode_enable_offload_kvcache", Applicability::Unsafe),
            ];
            ctx.raise(&OFFLOAD_VS_HOST_POOL, OFFLOAD_VS_HOST_POOL.template.to_string(), &["disaggregation_decode_retraction_backup", "disaggregation_decode_enable_offload_kvcache"], fixes);
            return;
        }
    }
    let ratio = ctx.cfg.get("swa_full_tokens_ratio").clone();
    ctx.cfg.set("_swa_full_tokens_ratio_explicitly_set", PyValue::Bool(!ratio.is_none()));
    // `resolution_result`: the declared value, else the field's fallback 0.8. Model branches
    // (Step3p with HiCache, DeepSeek-V4, Inkling) may declare their own value first.
    if let Some(r) = ratio.as_float() {
        if !(r > 0.0 && r <= 1.0) {
            if ctx.cfg.truthy("enable_hierarchical_cache") {
                ctx.skip("kv_cache_hook.handle_cache_compatibility#10", NotRunReason::ModelConfig);
            } else {
                let fixes = vec![ctx.fix_remove("Remove --swa-full-tokens-ratio (default 0.8)", "swa_full_tokens_ratio", Applicability::Unsafe)];
                ctx.raise(&SWA_RATIO_RANGE, SWA_RATIO_RANGE.template.to_string(), &["swa_full_tokens_ratio"], fixes);
                return;
            }
        }
    }
    if let Some(t) = ctx.cfg.int("swa_prefix_tails") {
        if t < 0 {
            let fixes = vec![ctx.fix_remove("Remove --swa-prefix-tails (use the default)", "swa_prefix_tails", Applicability::Unsafe)];
            ctx.raise(&SWA_PREFIX_TAILS, SWA_PREFIX_TAILS.template.to_string(), &["swa_prefix_tails"], fixes);
            return;
        }
    }
    if ctx.cfg.truthy("enable_lmcache") {
        let drop_lmcache = |ctx: &Ctx| ctx.fix_remove("Remove --enable-lmcache", "enable_lmcache", Applicability::Unsafe);
        if ctx.cfg.truthy("enable_hierarchical_cache") {
            let fixes = vec![ctx.fix_remove("Remove --enable-hierarchical-cache", "enable_hierarchical_cache", Applicability::Unsafe), drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_VS_HICACHE, LMCACHE_VS_HICACHE.template.to_string(), &["enable_lmcache", "enable_hierarchical_cache"], fixes);
            return;
        }
        if ctx.cfg.truthy("enable_unified_cache_external_linker") {
            let fixes = vec![
                ctx.fix_remove("Remove --enable-unified-cache-external-linker", "enable_unified_cache_external_linker", Applicability::Unsafe),
                drop_lmcache(ctx),
            ];
            ctx.raise(&LMCACHE_VS_LINKER, LMCACHE_VS_LINKER.template.to_string(), &["enable_lmcache", "enable_unified_cache_external_linker"], fixes);
            return;
        }
        if ctx.cfg.truthy("disable_radix_cache") {
            let fixes = vec![ctx.fix_remove("Remove --disable-radix-cache", "disable_radix_cache", Applicability::Unsafe), drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_NEEDS_RADIX, LMCACHE_NEEDS_RADIX.template.to_string(), &["enable_lmcache", "disable_radix_cache", "disaggregation_mode"], fixes);
            return;
        }
        // SpeculativeAlgorithm.from_string(...).is_speculative(); unknown names raise
        // ValueError there (not modelled).
        if let Some(alg) = opt_str(ctx, "speculative_algorithm") {
            let up = alg.to_uppercase();
            let known = matches!(up.as_str(), "DFLASH" | "UNO" | "DSPARK" | "EAGLE" | "EAGLE3" | "FROZEN_KV_MTP" | "STANDALONE" | "NGRAM" | "NEXTN");
            if known {
                let fixes = vec![ctx.fix_remove("Remove --speculative-algorithm", "speculative_algorithm", Applicability::Unsafe), drop_lmcache(ctx)];
                ctx.raise(&LMCACHE_NO_SPEC, LMCACHE_NO_SPEC.template.to_string(), &["enable_lmcache", "speculative_algorithm"], fixes);
                return;
            } else if up != "NONE" {
                ctx.skip("kv_cache_hook.handle_cache_compatibility#15", NotRunReason::NotImplemented);
            }
        }
        if ctx.cfg.int("attn_dp_size").unwrap_or(1) > 1 || ctx.cfg.is("ep_join_mode", "scale") {
            let fixes = vec![drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_NO_DP_ATTN, LMCACHE_NO_DP_ATTN.template.to_string(), &["enable_lmcache", "attn_dp_size", "enable_dp_attention"], fixes);
            return;
        }
        if dcp > 1 {
            let fixes = vec![ctx.fix_set("Set --dcp-size 1", "dcp_size", "--dcp-size", "1", Applicability::Unsafe), drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_NO_DCP, LMCACHE_NO_DCP.template.to_string(), &["enable_lmcache", "dcp_size"], fixes);
            return;
        }
        if ctx.cfg.truthy("enable_streaming_session") {
            let fixes = vec![ctx.fix_remove("Remove --enable-streaming-session", "enable_streaming_session", Applicability::Unsafe), drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_NO_STREAMING, LMCACHE_NO_STREAMING.template.to_string(), &["enable_lmcache", "enable_streaming_session"], fixes);
            return;
        }
        if ctx.cfg.is("hicache_host_memory_mode", "buffer_only") {
            let fixes = vec![ctx.fix_remove("Remove --hicache-host-memory-mode", "hicache_host_memory_mode", Applicability::Safe)];
            ctx.raise(&LMCACHE_BUFFER_ONLY, LMCACHE_BUFFER_ONLY.template.to_string(), &["hicache_host_memory_mode", "enable_lmcache"], fixes);
            return;
        }
        if !ctx.cfg.is("disaggregation_mode", "null") {
            let fixes = vec![ctx.fix_remove("Remove --disaggregation-mode", "disaggregation_mode", Applicability::Unsafe), drop_lmcache(ctx)];
            ctx.raise(&LMCACHE_NO_PD, LMCACHE_NO_PD.template.to_string(), &["enable_lmcache", "disaggregation_mode"], fixes);
        }
    }
}

/// `handle_page_major_kv_layout`
pub fn handle_page_major_kv_layout(ctx: &mut Ctx) {
    if ctx.cfg.truthy("enable_unified_memory") {
        ctx.cfg.set("enable_page_major_kv_layout", PyValue::Bool(true));
    }
    if !ctx.cfg.truthy("enable_page_major_kv_layout") {
        return;
    }
    if !ctx.cfg.truthy("enable_unified_memory") {
        let fixes = vec![
            ctx.fix_add_flag("Add --enable-unified-memory", "--enable-unified-memory", Applicability::Unsafe),
            ctx.fix_remove("Remove --enable-page-major-kv-layout", "enable_page_major_kv_layout", Applicability::Safe),
        ];
        ctx.raise(&PAGE_MAJOR_NEEDS_UNIFIED, PAGE_MAJOR_NEEDS_UNIFIED.template.to_string(), &["enable_page_major_kv_layout"], fixes);
        return;
    }
    // model_config_of + use_mla_backend: the allowed backend set (#2) and the linear-attention
    // backend sets (#3, #4) depend on the model's attention architecture.
    ctx.skip("kv_cache_hook.handle_page_major_kv_layout#2", NotRunReason::ModelConfig);
    ctx.skip("kv_cache_hook.handle_page_major_kv_layout#3", NotRunReason::ModelConfig);
    ctx.skip("kv_cache_hook.handle_page_major_kv_layout#4", NotRunReason::ModelConfig);
    let mamba = ctx.cfg.get("mamba_backend").clone();
    if !(mamba.is_none() || mamba.as_str() == Some("triton")) {
        let msg = format!(
            "--enable-page-major-kv-layout requires the Triton Mamba kernels for the strided conv/SSM state; got {}. Pass --mamba-backend triton.",
            mamba.repr()
        );
        let fixes = vec![ctx.fix_set("Set --mamba-backend triton", "mamba_backend", "--mamba-backend", "triton", Applicability::Safe)];
        ctx.raise(&PAGE_MAJOR_MAMBA_BACKEND, msg, &["mamba_backend", "enable_unified_memory", "enable_page_major_kv_layout"], fixes);
    }
}

const SPEC_VERIFY_AUDITED: &[&str] = &["triton", "trtllm_mla", "cutedsl_mla", "flashmla", "flashinfer", "fa3"];
const SPEC_MHA_AUDITED: &[&str] = &["triton", "flashinfer", "fa3", "trtllm_mha"];

/// `_assert_spec_verify_backends`. Returns false when it raised.
fn assert_spec_verify_backends(ctx: &mut Ctx, algorithm: &str, allowed: &[&str]) -> bool {
    let mut allowed: Vec<&str> = allowed.to_vec();
    let mut dcp_note = "";
    if ctx.cfg.int("dcp_size").unwrap_or(1) > 1 {
        allowed.retain(|b| *b != "flashinfer");
        dcp_note = " (flashinfer is excluded under --dcp-size > 1)";
    }
    let Some((p, d)) = resolved_backends(ctx) else {
        ctx.skip("kv_cache_hook._assert_spec_verify_backends#1", NotRunReason::ModelConfig);
        return true;
    };
    let backends = [p.as_str(), d.as_str()];
    if backends.iter().all(|b| allowed.contains(b)) {
        return true;
    }
    let msg = format!(
        "--enable-unified-memory + {algorithm} requires spec-verify-audited attention backends {}{dcp_note} for both prefill and decode; got {}. Other backends do not translate speculative verify indices to the unified pool's physical ids yet.",
        sorted_repr(&allowed),
        sorted_repr(&backends)
    );
    let mut fixes = Vec::new();
    if ctx.cfg.is_explicit("attention_backend") && !ctx.cfg.is_explicit("prefill_attention_backend") && !ctx.cfg.is_explicit("decode_attention_backend") {
        fixes.push(ctx.fix_set("Use --attention-backend triton", "attention_backend", "--attention-backend", "triton", Applicability::Unsafe));
    }
    ctx.raise(&UM_SPEC_VERIFY_BACKENDS, msg, &["attention_backend", "prefill_attention_backend", "decode_attention_backend", "speculative_algorithm"], fixes);
    false
}

/// `handle_unified_memory_pool`
pub fn handle_unified_memory_pool(ctx: &mut Ctx) {
    if !ctx.cfg.truthy("enable_unified_memory") {
        return;
    }
    let spec = opt_str(ctx, "speculative_algorithm");
    let drop_um = |ctx: &Ctx| ctx.fix_remove("Remove --enable-unified-memory", "enable_unified_memory", Applicability::Unsafe);
    if !ctx.cfg.is("disaggregation_mode", "null") {
        let tb = ctx.cfg.get("disaggregation_transfer_backend").clone();
        if tb.as_str() != Some("mooncake") {
            let msg = format!(
                "--enable-unified-memory with PD disaggregation supports only these transfer backends: mooncake; got {}.",
                tb.repr()
            );
            let fixes = vec![
                ctx.fix_set("Use --disaggregation-transfer-backend mooncake", "disaggregation_transfer_backend", "--disaggregation-transfer-backend", "mooncake", Applicability::Unsafe),
                drop_um(ctx),
            ];
            ctx.raise(&UM_PD_TRANSFER_BACKEND, msg, &["disaggregation_transfer_backend", "enable_unified_memory"], fixes);
            return;
        }
        if ctx.cfg.int("pp_size").unwrap_or(1) != 1 {
            let fixes = vec![ctx.fix_set("Set --pp-size 1", "pp_size", "--pp-size", "1", Applicability::Unsafe), drop_um(ctx)];
            ctx.raise(&UM_PD_NO_PP, UM_PD_NO_PP.template.to_string(), &["pp_size", "enable_unified_memory"], fixes);
            return;
        }
        if spec.is_some() {
            let fixes = vec![ctx.fix_remove("Remove --speculative-algorithm", "speculative_algorithm", Applicability::Unsafe), drop_um(ctx)];
            ctx.raise(&UM_PD_MOONCAKE_SPEC, UM_PD_MOONCAKE_SPEC.template.to_string(), &["speculative_algorithm", "enable_unified_memory"], fixes);
            return;
        }
        // envs.SGLANG_DISABLE_LAZY_COMPACTION (EnvBool: true/1/yes/y).
        let lazy_off = ctx
            .env("SGLANG_DISABLE_LAZY_COMPACTION")
            .map(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "1" | "yes" | "y"))
            .unwrap_or(false);
        if lazy_off {
            let fixes = vec![drop_um(ctx)];
            ctx.raise(&UM_PD_LAZY_COMPACTION, UM_PD_LAZY_COMPACTION.template.to_string(), &["enable_unified_memory"], fixes);
            return;
        }
        if ctx.cfg.truthy("enable_hisparse") {
            let fixes = vec![ctx.fix_remove("Remove --enable-hisparse", "enable_hisparse", Applicability::Unsafe)];
            ctx.raise(&UM_PD_NO_HISPARSE, UM_PD_NO_HISPARSE.template.to_string(), &["enable_hisparse", "enable_unified_memory"], fixes);
            return;
        }
        if ctx.cfg.truthy("disaggregation_decode_enable_offload_kvcache") {
            if !ctx.cfg.is("hicache_storage_backend", "file") {
                let fixes = vec![
                    ctx.fix_set("Use --hicache-storage-backend file", "hicache_storage_backend", "--hicache-storage-backend", "file", Applicability::Unsafe),
                    drop_um(ctx),
                ];
                ctx.raise(&UM_OFFLOAD_FILE_ONLY, UM_OFFLOAD_FILE_ONLY.template.to_string(), &["hicache_storage_backend", "enable_unified_memory"], fixes);
                return;
            }
            for site in [
                "kv_cache_hook.handle_unified_memory_pool#7",
                "kv_cache_hook.handle_unified_memory_pool#8",
                "kv_cache_hook.handle_unified_memory_pool#9",
            ] {
                ctx.skip(site, NotRunReason::ModelConfig);
            }
        }
        if ctx.cfg.is("disaggregation_decode_retraction_backup", "host_pool") {
            ctx.skip("kv_cache_hook.handle_unified_memory_pool#10", NotRunReason::ModelConfig);
        }
    }
    if !matches!(spec.as_deref(), None | Some("DSPARK") | Some("EAGLE") | Some("EAGLE3") | Some("DFLASH")) {
        let msg = format!(
            "--enable-unified-memory only supports --speculative-algorithm DSPARK, DFLASH, EAGLE and EAGLE3; other speculative algorithms are not yet audited for the unified pool's virtual-to-physical loc translation. Got --speculative-algorithm={}.",
            py_opt_repr(&spec)
        );
        let fixes = vec![ctx.fix_remove("Remove --speculative-algorithm", "speculative_algorithm", Applicability::Unsafe), drop_um(ctx)];
        ctx.raise(&UM_SPEC_ALGORITHM, msg, &["speculative_algorithm", "enable_unified_memory"], fixes);
        return;
    }
    let topk = ctx.cfg.get("speculative_eagle_topk").clone();
    if !(topk.is_none() || topk.as_int() == Some(1)) {
        let msg = format!(
            "--enable-unified-memory supports a linear draft chain only (--speculative-eagle-topk in {{None, 1}}); tree verify relocates accepted tokens one at a time inside the target pool, which the unified pool's page-granular move_kv_cache cannot express. Got --speculative-eagle-topk={}.",
            topk.repr()
        );
        let fixes = vec![ctx.fix_set("Set --speculative-eagle-topk 1", "speculative_eagle_topk", "--speculative-eagle-topk", "1", Applicability::Unsafe), drop_um(ctx)];
        ctx.raise(&UM_EAGLE_TOPK, msg, &["speculative_eagle_topk", "enable_unified_memory"], fixes);
        return;
    }
    match spec.as_deref() {
        Some("EAGLE") | Some("EAGLE3") => {
            // #13 (hybrid target) and #14 (target backends) read the model's config; the draft
            // check (#15) only runs once they pass.
            ctx.skip("kv_cache_hook.handle_unified_memory_pool#13", NotRunReason::ModelConfig);
            ctx.skip("kv_cache_hook.handle_unified_memory_pool#14", NotRunReason::ModelConfig);
            ctx.skip("kv_cache_hook.handle_unified_memory_pool#15", NotRunReason::ModelConfig);
            if ctx.cfg.truthy("enable_hierarchical_cache") {
                // EAGLE + HiCache (#20) is asserted after them
                ctx.skip("kv_cache_hook.handle_unified_memory_pool#20", NotRunReason::ModelConfig);
            }
            return;
        }
        Some("DSPARK") => {
            let mut allowed: Vec<&str> = SPEC_VERIFY_AUDITED.to_vec();
            allowed.push("fa4");
            if !assert_spec_verify_backends(ctx, "DSPARK", &allowed) {
                return;
            }
        }
        Some("DFLASH") if !assert_spec_verify_backends(ctx, "DFLASH", SPEC_MHA_AUDITED) => return,
        _ => {}
    }
    if ctx.cfg.truthy("enable_two_batch_overlap") {
        let fixes = vec![ctx.fix_remove("Remove --enable-two-batch-overlap", "enable_two_batch_overlap", Applicability::Unsafe)];
        ctx.raise(&UM_NO_TBO, UM_NO_TBO.template.to_string(), &["enable_two_batch_overlap", "enable_unified_memory"], fixes);
        return;
    }
    if ctx.cfg.truthy("enable_lmcache") {
        let fixes = vec![ctx.fix_remove("Remove --enable-lmcache", "enable_lmcache", Applicability::Unsafe), drop_um(ctx)];
        ctx.raise(&UM_NO_LMCACHE, UM_NO_LMCACHE.template.to_string(), &["enable_lmcache", "enable_unified_memory"], fixes);
        return;
    }
    if ctx.cfg.truthy("enable_unified_cache_external_linker") {
        let fixes = vec![
            ctx.fix_remove("Remove --enable-unified-cache-external-linker", "enable_unified_cache_external_linker", Applicability::Unsafe),
            drop_um(ctx),
        ];
        ctx.raise(&UM_NO_LINKER, UM_NO_LINKER.template.to_string(), &["enable_unified_cache_external_linker", "enable_unified_memory"], fixes);
        return;
    }
    // #19 (EAGLE + host_pool) and #20 (EAGLE + HiCache) sit behind the EAGLE branch above.
    if ctx.cfg.int("dcp_size").unwrap_or(1) > 1 {
        // _validate_unified_memory_dcp: #1 (MLA only) and #2 (no hybrid SWA) read the model.
        ctx.skip("kv_cache_hook._validate_unified_memory_dcp#1", NotRunReason::ModelConfig);
        ctx.skip("kv_cache_hook._validate_unified_memory_dcp#2", NotRunReason::ModelConfig);
        if !ctx.cfg.is("disaggregation_mode", "null") {
            let fixes = vec![ctx.fix_remove("Remove --disaggregation-mode", "disaggregation_mode", Applicability::Unsafe), drop_um(ctx)];
            ctx.raise(&UM_DCP_NO_PD, UM_DCP_NO_PD.template.to_string(), &["disaggregation_mode", "dcp_size", "enable_unified_memory"], fixes);
            return;
        }
        let allowed = ["cutedsl_mla", "flashinfer", "trtllm_mla"];
        match resolved_backends(ctx) {
            None => ctx.skip("kv_cache_hook._validate_unified_memory_dcp#4", NotRunReason::ModelConfig),
            Some((p, d)) => {
                let backends = [p.as_str(), d.as_str()];
                if !backends.iter().all(|b| allowed.contains(b)) {
                    let msg = format!(
                        "--enable-unified-memory with decode context parallelism (--dcp-size > 1) requires {} for the full-attention layers; got {}. The other paged MLA backends build their block table from raw (widened) req_to_token page ids and do not translate them through the unified pool's virtual->physical page table.",
                        sorted_repr(&allowed),
                        sorted_repr(&backends)
                    );
                    let mut fixes = Vec::new();
                    if ctx.cfg.is_explicit("attention_backend") && !ctx.cfg.is_explicit("prefill_attention_backend") && !ctx.cfg.is_explicit("decode_attention_backend") {
                        fixes.push(ctx.fix_set("Use --attention-backend flashinfer", "attention_backend", "--attention-backend", "flashinfer", Applicability::Unsafe));
                    }
                    ctx.raise(&UM_DCP_BACKENDS, msg, &["attention_backend", "prefill_attention_backend", "decode_attention_backend", "dcp_size"], fixes);
                }
            }
        }
    }
    // The FULL prefill cuda-graph fallback warning reads cuda_graph_config and the resolved
    // backends (not modelled here).
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
        edits.sort_by_key(|e| std::cmp::Reverse(e.start));
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
        codes.sort_unstable();
        let n = codes.len();
        codes.dedup();
        assert_eq!(n, codes.len());
    }
}
