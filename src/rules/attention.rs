//! Rules from SGLang's `sglang/srt/arg_groups/attention_hook.py`: deterministic inference, the
//! attention backend's selection and its compatibility with the GPU, the linear-attention
//! (GDN/KDA) backends and multi-item scoring; with the `overrides.py` passes those hooks run
//! (`_deterministic_*`, `_attention_backend_default`, `_mla_backend_page_constraints`,
//! `_mla_kv_cache_dtype_checks`, `_cutedsl_prefill_backend_fill`,
//! `_attention_backend_fa3_fp8_fallback`, `_fa4_page_constraint`,
//! `_attention_backend_platform_fallbacks`, `_intel_xpu_page_constraint`) and the pipeline's
//! own `overrides._page_size_default`.
//!
//! The default attention backend (`get_default_attn_backend`) depends on the model (MLA or
//! not, Whisper, asymmetric K/V, attention sinks), and on CPU an earlier hook this build does
//! not model picks it: when the command does not fix it, `attention_backend` is written as
//! unknown, and so is what follows from it (a page size a default backend may move).

use super::{Ctx, Rule};
use crate::diagnostic::{Applicability, Fix};
use crate::fields::{f, Field};
use crate::pyvalue::{str_repr, PyValue};
use crate::rules::shared::cuda_graph_config::{phase_backend, with_phase};
use crate::rules::shared::envs::env_bool;
use crate::rules::shared::runtime_context::{is_blackwell, is_sm100, is_sm100_or_sm110, is_sm120, is_sm90};
use crate::rules::{raises, site, warns, NotRunReason, Sglang, Step};


/// The deterministic-inference attention backends of the checked release
/// (`DETERMINISTIC_ATTENTION_BACKEND_CHOICES`), and those that keep the radix cache
/// (`RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND`); None where its lists are not carried.
fn deterministic_choices(ctx: &Ctx) -> Option<&'static [String]> {
    ctx.release.model_lists().map(|l| l.deterministic_attention_backend_choices.as_slice()).filter(|l| !l.is_empty())
}
fn radix_supported_deterministic(ctx: &Ctx) -> Option<&'static [String]> {
    ctx.release.model_lists().map(|l| l.radix_supported_deterministic_attention_backends.as_slice()).filter(|l| !l.is_empty())
}

fn list_repr<S: AsRef<str>>(items: &[S]) -> String {
    let inner: Vec<String> = items.iter().map(|s| str_repr(s.as_ref())).collect();
    format!("[{}]", inner.join(", "))
}

// ---------------------------------------------------------------------------------------------
// Raises
// ---------------------------------------------------------------------------------------------

pub static DETERMINISTIC_BACKEND: Rule = Rule {
    code: "ATTN001",
    name: kebab!("deterministic-inference-backend-unsupported"),
    sglang: raises("overrides._deterministic_attention_backend", "Currently only {DETERMINISTIC_ATTENTION_BACKEND_CHOICES}"),
    explanation: expl!("Deterministic (batch-invariant) inference has kernels only for some attention backends (fa3, fa4, flashinfer, triton, and ascend / intel_xpu on their platforms); the backend you chose has none. Pick one of those, or leave --attention-backend out and SGLang picks one."),
    flags: &["--enable-deterministic-inference", "--attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --attention-backend torch_native"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --attention-backend triton"),
};

pub static DETERMINISTIC_ROCM_RCCL: Rule = Rule {
    code: "ATTN002",
    name: kebab!("deterministic-rocm-needs-custom-all-reduce"),
    sglang: raises("overrides._deterministic_rocm_rccl_check", "--disable-custom-all-reduce cannot be combined"),
    explanation: expl!("On ROCm, deterministic inference with more than two GPUs relies on SGLang's one-stage custom all-reduce; with it disabled the reduction runs through RCCL, whose results change with the batch."),
    flags: &["--enable-deterministic-inference", "--disable-custom-all-reduce", "--tp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --tp-size 4 --disable-custom-all-reduce"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --tp-size 4"),
};

pub static FLEX_NO_SPEC: Rule = Rule {
    code: "ATTN003",
    name: kebab!("flex-attention-no-speculative-decoding"),
    sglang: raises("attention_hook.handle_attention_backend_compatibility", "Speculative decoding is currently not supported with Flex"),
    explanation: expl!("The torch Flex Attention backend has no speculative-decoding (draft/verify) path. Use another attention backend, or run without --speculative-algorithm."),
    flags: &["--attention-backend", "--speculative-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend flex_attention --speculative-algorithm NGRAM"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend triton --speculative-algorithm NGRAM"),
};

pub static TRTLLM_MLA_BLACKWELL: Rule = Rule {
    code: "ATTN004",
    name: kebab!("trtllm-mla-needs-blackwell"),
    sglang: raises("overrides._mla_kv_cache_dtype_checks", "TRTLLM MLA backend is only supported on Blackwell"),
    explanation: expl!("The TensorRT-LLM MLA kernels are built for Blackwell GPUs (SM100/SM12x) only. On Hopper, Ampere or AMD GPUs use another MLA backend (fa3, flashinfer, flashmla, triton, aiter), or leave --attention-backend out."),
    flags: &["--attention-backend", "--decode-attention-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attention-backend trtllm_mla"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8"),
};

pub static TRTLLM_MLA_KV_DTYPE: Rule = Rule {
    code: "ATTN005",
    name: kebab!("trtllm-mla-kv-cache-dtype"),
    sglang: raises("overrides._mla_kv_cache_dtype_checks", "TensorRT-LLM MLA backend only supports kv-cache-dtype"),
    explanation: expl!("The TensorRT-LLM MLA backend reads a KV cache in fp8_e4m3 or bf16 only ('auto' is the model's dtype; SGLang 0.5.18 also took fp4_e2m1)."),
    flags: &["--attention-backend", "--decode-attention-backend", "--kv-cache-dtype"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attention-backend trtllm_mla --kv-cache-dtype fp8_e5m2"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attention-backend trtllm_mla --kv-cache-dtype fp8_e4m3"),
};

pub static CUTEDSL_DECODE_ONLY: Rule = Rule {
    code: "ATTN006",
    name: kebab!("cutedsl-mla-decode-only"),
    sglang: raises("overrides._cutedsl_prefill_backend_fill", "CuteDSL MLA only supports decoding for now"),
    explanation: expl!("The CuteDSL MLA backend has decode kernels only: use it with --decode-attention-backend cutedsl_mla (SGLang then prefills with trtllm_mla), not as the prefill backend."),
    flags: &["--prefill-attention-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --prefill-attention-backend cutedsl_mla"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --decode-attention-backend cutedsl_mla"),
};

pub static CUTEDSL_SM100: Rule = Rule {
    code: "ATTN007",
    name: kebab!("cutedsl-mla-needs-sm100"),
    sglang: raises("overrides._cutedsl_prefill_backend_fill", "CuteDSL MLA backend is only supported on Blackwell"),
    explanation: expl!("The CuteDSL MLA decode kernels run on datacenter Blackwell GPUs (SM100: B200, GB200) only."),
    flags: &["--attention-backend", "--decode-attention-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --decode-attention-backend cutedsl_mla"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8"),
};

pub static CUTEDSL_KV_DTYPE: Rule = Rule {
    code: "ATTN008",
    name: kebab!("cutedsl-mla-kv-cache-dtype"),
    sglang: raises("overrides._cutedsl_prefill_backend_fill", "CuteDSL MLA backend only supports kv-cache-dtype"),
    explanation: expl!("The CuteDSL MLA backend reads a KV cache in fp8_e4m3 or bf16 only ('auto' is the model's dtype)."),
    flags: &["--decode-attention-backend", "--kv-cache-dtype"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --decode-attention-backend cutedsl_mla --kv-cache-dtype fp8_e5m2"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --decode-attention-backend cutedsl_mla --kv-cache-dtype fp8_e4m3"),
};

/// Both releases' check of the GPU for a trtllm_mha prefill ("requires Hopper (SM90), ..."; in
/// 0.5.18 "is only supported on Blackwell GPUs (SM100)").
const TRTLLM_MHA_PREFILL_SITE: crate::release::SiteRef = site("attention_hook.handle_attention_backend_compatibility", "TRTLLM MHA backend for prefill");

/// Whether the release runs a trtllm_mha prefill on SM100 only (0.5.18), by its message.
fn trtllm_mha_prefill_needs_sm100(ctx: &Ctx) -> bool {
    ctx.release.raise_site(&TRTLLM_MHA_PREFILL_SITE).is_some_and(|s| s.template.contains("only supported on Blackwell"))
}

pub static TRTLLM_MHA_PREFILL_GPU: Rule = Rule {
    code: "ATTN009",
    name: kebab!("trtllm-mha-prefill-needs-sm90"),
    sglang: Sglang::Raises(TRTLLM_MHA_PREFILL_SITE),
    explanation: expl!("The TensorRT-LLM MHA prefill kernels exist for Hopper (SM90), Blackwell (SM100) and SM120 GPUs only (in SGLang 0.5.18 for Blackwell SM100 only); elsewhere choose another prefill backend (flashinfer, triton)."),
    flags: &["--attention-backend", "--prefill-attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend trtllm_mha"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend flashinfer"),
};

pub static TRTLLM_MHA_SM120_FP8: Rule = Rule {
    code: "ATTN010",
    name: kebab!("trtllm-mha-sm120-prefill-fp8"),
    sglang: raises("attention_hook.handle_attention_backend_compatibility", "TRTLLM FMHAv2 prefill on SM120 does not support"),
    explanation: expl!("On SM120 GPUs (RTX 50xx, RTX PRO 6000) the TensorRT-LLM MHA prefill runs the FMHAv2 kernels, which read neither an fp8_e4m3 KV cache nor skip-softmax (SGLANG_SKIP_SOFTMAX_PREFILL_THRESHOLD_SCALE_FACTOR)."),
    flags: &["--attention-backend", "--prefill-attention-backend", "--kv-cache-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend trtllm_mha --kv-cache-dtype fp8_e4m3"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend trtllm_mha"),
};

pub static TRTLLM_MHA_DECODE_GPU: Rule = Rule {
    code: "ATTN011",
    name: kebab!("trtllm-mha-decode-needs-sm90"),
    sglang: raises("attention_hook.handle_attention_backend_compatibility", "TRTLLM MHA backend for decode is only supported"),
    explanation: expl!("The TensorRT-LLM MHA decode kernels exist for Hopper (SM90), Blackwell (SM100) and SM120 GPUs only; on Ampere/Ada GPUs choose another decode backend (flashinfer, triton)."),
    flags: &["--decode-attention-backend", "--attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --decode-attention-backend trtllm_mha"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --decode-attention-backend flashinfer"),
};

pub static TRTLLM_MHA_PREFILL_CP: Rule = Rule {
    code: "ATTN012",
    name: kebab!("trtllm-mha-prefill-cp-needs-sm100"),
    sglang: raises("attention_hook.handle_attention_backend_compatibility", "Prefill context parallelism with the TRTLLM MHA"),
    explanation: expl!("Attention context parallelism shards the prompt across GPUs; with the TensorRT-LLM MHA prefill backend only the SM100 (trtllm-gen) kernel masks those shards, so on Hopper or SM120 use another prefill backend or --attn-cp-size 1."),
    flags: &["--attention-backend", "--prefill-attention-backend", "--attn-cp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attn-cp-size 2 --attention-backend trtllm_mha"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --attention-backend trtllm_mha"),
};

pub static FLASHKDA_DECODE: Rule = Rule {
    code: "ATTN013",
    name: kebab!("flashkda-is-prefill-only"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--linear-attn-decode-backend flashkda is not supported"),
    explanation: expl!("FlashKDA has prefill kernels only. Use it as --linear-attn-prefill-backend flashkda; decode then runs on triton."),
    flags: &["--linear-attn-decode-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --linear-attn-decode-backend flashkda"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --linear-attn-prefill-backend flashkda"),
};

pub static LINEAR_DECODE_FLASHINFER_BF16: Rule = Rule {
    code: "ATTN014",
    name: kebab!("linear-attn-flashinfer-decode-needs-bf16-state"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--linear-attn-decode-backend flashinfer on SM100+ requires"),
    explanation: expl!("On Blackwell (SM100+) FlashInfer's linear-attention (GDN) decode kernel keeps the recurrent state in bfloat16 only, so it needs --mamba-ssm-dtype bfloat16."),
    flags: &["--linear-attn-decode-backend", "--linear-attn-backend", "--mamba-ssm-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --linear-attn-decode-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --linear-attn-decode-backend flashinfer --mamba-ssm-dtype bfloat16"),
};

pub static LINEAR_VERIFY_FLASHINFER_BF16: Rule = Rule {
    code: "ATTN015",
    name: kebab!("linear-attn-flashinfer-verify-needs-bf16-state"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--linear-attn-verify-backend flashinfer on SM100+ requires"),
    explanation: expl!("On Blackwell (SM100+) FlashInfer's linear-attention target-verify kernel keeps the recurrent state in bfloat16 only, so it needs --mamba-ssm-dtype bfloat16."),
    flags: &["--linear-attn-verify-backend", "--mamba-ssm-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --linear-attn-verify-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --linear-attn-verify-backend flashinfer --mamba-ssm-dtype bfloat16"),
};

pub static REPLAYSSM_DECODE: Rule = Rule {
    code: "ATTN016",
    name: kebab!("linear-replayssm-needs-triton-decode"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--enable-linear-replayssm requires Triton, or Helion"),
    explanation: expl!("ReplaySSM's buffered decode is implemented in the triton linear-attention decode kernel (and helion for KDA) only."),
    flags: &["--enable-linear-replayssm", "--linear-attn-decode-backend", "--linear-attn-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm --linear-attn-backend cutedsl"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm"),
};

pub static REPLAYSSM_EXTRA_BUFFER: Rule = Rule {
    code: "ATTN122",
    name: kebab!("linear-replayssm-needs-no-buffer-strategy"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--enable-linear-replayssm requires --mamba-radix-cache-strategy"),
    explanation: expl!("ReplaySSM resets its ring cursor only on the no_buffer Mamba radix-cache path; the extra_buffer strategies donate state through a ping-pong slot swap it does not handle yet. With the radix cache on, use --mamba-radix-cache-strategy no_buffer (for a hybrid model whose `auto` strategy resolves to extra_buffer, that also needs --disable-overlap-schedule)."),
    flags: &["--enable-linear-replayssm", "--mamba-radix-cache-strategy"],
    example_bad: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 4 --enable-linear-replayssm --mamba-radix-cache-strategy extra_buffer"),
    example_good: ex!("--model-path Qwen/Qwen3-Next-80B-A3B-Thinking --tp-size 4 --enable-linear-replayssm --disable-overlap-schedule"),
};

pub static REPLAYSSM_PD: Rule = Rule {
    code: "ATTN017",
    name: kebab!("linear-replayssm-not-with-pd"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--enable-linear-replayssm is not supported under PD"),
    explanation: expl!("The disaggregated (prefill/decode) servers' state pools do not carry ReplaySSM's ring yet, so ReplaySSM runs only on a combined server (--disaggregation-mode null)."),
    flags: &["--enable-linear-replayssm", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm --mamba-radix-cache-strategy no_buffer --disaggregation-mode decode"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm --mamba-radix-cache-strategy no_buffer"),
};

pub static REPLAYSSM_CACHE_LEN: Rule = Rule {
    code: "ATTN018",
    name: kebab!("linear-replayssm-cache-len-positive"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--linear-replayssm-cache-len must be >= 1"),
    explanation: expl!("--linear-replayssm-cache-len is how many decode steps ReplaySSM buffers before folding them into the state; it must be at least 1."),
    flags: &["--linear-replayssm-cache-len", "--enable-linear-replayssm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm --mamba-radix-cache-strategy no_buffer --linear-replayssm-cache-len 0"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm --mamba-radix-cache-strategy no_buffer --linear-replayssm-cache-len 16"),
};

pub static REPLAYSSM_SPEC_TOPK: Rule = Rule {
    code: "ATTN019",
    name: kebab!("linear-replayssm-spec-needs-chain-draft"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--enable-linear-replayssm-spec requires a linear draft chain"),
    explanation: expl!("ReplaySSM's speculative verify uses a causal mask for a single chain of draft tokens; an EAGLE tree (--speculative-eagle-topk above 1) cannot be verified that way."),
    flags: &["--enable-linear-replayssm-spec", "--speculative-eagle-topk"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec --speculative-eagle-topk 4"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec --speculative-eagle-topk 1"),
};

pub static REPLAYSSM_SPEC_DECODE: Rule = Rule {
    code: "ATTN020",
    name: kebab!("linear-replayssm-spec-decode-backend"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--enable-linear-replayssm-spec requires the triton or flashinfer"),
    explanation: expl!("ReplaySSM's speculative verify is implemented with the triton and flashinfer linear-attention decode backends only."),
    flags: &["--enable-linear-replayssm-spec", "--linear-attn-decode-backend", "--linear-attn-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec --linear-attn-backend cutedsl"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec"),
};

pub static REPLAYSSM_SPEC_RAGGED: Rule = Rule {
    code: "ATTN021",
    name: kebab!("linear-replayssm-spec-ragged-verify"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--enable-linear-replayssm-spec with SGLANG_RAGGED_VERIFY_MODE="),
    explanation: expl!("A ragged verify layout (SGLANG_RAGGED_VERIFY_MODE other than static) works with ReplaySSM only for the DSPARK/DFLASH algorithms and a verify kernel that writes the ring (triton or nv_cutedsl); otherwise a stale ring would be folded."),
    flags: &["--enable-linear-replayssm-spec", "--speculative-algorithm", "--linear-attn-verify-backend"],
    example_bad: ex!("SGLANG_RAGGED_VERIFY_MODE=compact python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec"),
};

pub static REPLAYSSM_SPEC_PREFILL: Rule = Rule {
    code: "ATTN022",
    name: kebab!("linear-replayssm-spec-not-on-prefill-server"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--enable-linear-replayssm-spec is not supported on a PD prefill"),
    explanation: expl!("ReplaySSM's speculative ring serves the verify step, which a PD prefill server never runs: enable it on the decode server only."),
    flags: &["--enable-linear-replayssm-spec", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec --disaggregation-mode prefill"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec --disaggregation-mode decode"),
};

pub static REPLAYSSM_EXCLUSIVE: Rule = Rule {
    code: "ATTN023",
    name: kebab!("linear-replayssm-modes-exclusive"),
    sglang: raises("attention_hook.handle_linear_attn_backend", "--enable-linear-replayssm-spec and --enable-linear-replayssm are"),
    explanation: expl!("The two ReplaySSM modes share one ring buffer but advance it differently (per decode step vs per accepted verify), so only one of them can be on."),
    flags: &["--enable-linear-replayssm-spec", "--enable-linear-replayssm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec --enable-linear-replayssm --mamba-radix-cache-strategy no_buffer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec"),
};

pub static MIS_FLASHINFER: Rule = Rule {
    code: "ATTN024",
    name: kebab!("multi-item-scoring-needs-flashinfer"),
    sglang: raises("attention_hook.handle_multi_item_scoring", "Multi-item scoring requires flashinfer attention backend"),
    explanation: expl!("Multi-item scoring (--enable-mis) scores several items in one sequence with a custom attention mask, which only the FlashInfer attention backend supports, for prefill and decode alike."),
    flags: &["--enable-mis", "--attention-backend", "--prefill-attention-backend", "--decode-attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mis --attention-backend triton"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mis --attention-backend flashinfer"),
};

pub static DETERMINISTIC_MLA_BACKEND: Rule = Rule {
    code: "ATTN025",
    name: kebab!("deterministic-mla-backend-unsupported"),
    sglang: raises("attention_hook.handle_deterministic_inference", "Currently only {RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND}"),
    explanation: expl!("DeepSeek-style models (absorbed MLA: DeepSeek V2/V3/V3.2, GLM-5, GLM-4.7-Flash, Mistral Large 3, Pixtral) run deterministic inference only on the attention backends that keep the radix cache deterministic: fa3, fa4, triton (and ascend). flashinfer and intel_xpu, fine for other models, are refused for these."),
    flags: &["--enable-deterministic-inference", "--attention-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-deterministic-inference --attention-backend flashinfer"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-deterministic-inference --attention-backend triton"),
};

pub static DETERMINISTIC_MLA_FA4: Rule = Rule {
    code: "ATTN026",
    name: kebab!("deterministic-mla-fa4-needs-sm100"),
    sglang: raises("attention_hook.handle_deterministic_inference", "Deterministic inference with absorbed-MLA models"),
    explanation: expl!("Deterministic inference of a DeepSeek-style (absorbed-MLA) model on fa4 needs FlashAttention-4's absorbed-MLA path, which exists only on SM100/SM110 GPUs (B200, GB200). Elsewhere use fa3 (Hopper) or triton."),
    flags: &["--enable-deterministic-inference", "--attention-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-deterministic-inference --attention-backend fa4"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-deterministic-inference --attention-backend fa3"),
};

// ---------------------------------------------------------------------------------------------
// Warnings (SGLang adjusts a setting and goes on)
// ---------------------------------------------------------------------------------------------

pub static RL_ON_POLICY_DETERMINISTIC: Rule = Rule {
    code: "ATTN101",
    name: kebab!("rl-on-policy-enables-deterministic-inference"),
    sglang: warns("attention_hook.handle_deterministic_inference", "Enable deterministic inference because of rl_on_policy_target"),
    explanation: expl!("--rl-on-policy-target makes SGLang turn on deterministic inference (and everything that comes with it: pinned backends, no custom all-reduce)."),
    flags: &["--rl-on-policy-target", "--enable-deterministic-inference"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --rl-on-policy-target fsdp"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --attention-backend fa3"),
};

pub static DETERMINISTIC_AITER_FUSION: Rule = Rule {
    code: "ATTN102",
    name: kebab!("deterministic-disables-aiter-allreduce-fusion"),
    sglang: warns("attention_hook.handle_deterministic_inference", "Disable --enable-aiter-allreduce-fusion because"),
    explanation: expl!("The AITER all-reduce fusion is not batch-invariant, so deterministic inference turns it off."),
    flags: &["--enable-aiter-allreduce-fusion", "--enable-deterministic-inference"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --enable-aiter-allreduce-fusion"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference"),
};

pub static DETERMINISTIC_SAMPLING: Rule = Rule {
    code: "ATTN104",
    name: kebab!("deterministic-sampling-backend-pytorch"),
    sglang: warns("overrides._deterministic_sampling_backend", "Sampling backend is set to pytorch for deterministic"),
    explanation: expl!("Deterministic inference samples with the pytorch sampling backend (except on Ascend), whatever --sampling-backend says."),
    flags: &["--enable-deterministic-inference", "--sampling-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --sampling-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --sampling-backend flashinfer"),
};

pub static DETERMINISTIC_BACKEND_FALLBACK: Rule = Rule {
    code: "ATTN105",
    name: kebab!("deterministic-attention-backend-fallback"),
    sglang: warns("overrides._deterministic_attention_backend", "Attention backend not specified. Falling back to"),
    explanation: expl!("With deterministic inference and no --attention-backend, SGLang picks a deterministic backend by GPU generation (fa3 up to Hopper; flashinfer, or triton for DeepSeek-style models, on Blackwell). Name it to make the choice explicit."),
    flags: &["--enable-deterministic-inference", "--attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --attention-backend fa3"),
};

pub static DETERMINISTIC_RADIX: Rule = Rule {
    code: "ATTN106",
    name: kebab!("deterministic-backend-disables-radix-cache"),
    sglang: warns("attention_hook.handle_deterministic_inference", "Currently radix cache is not compatible with"),
    explanation: expl!("Deterministic inference keeps prefix (radix) caching only with the fa3, fa4, triton and ascend backends; with another backend SGLang turns the radix cache off."),
    flags: &["--enable-deterministic-inference", "--attention-backend", "--disable-radix-cache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --attention-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --attention-backend triton"),
};

pub static DETERMINISTIC_NCCL: Rule = Rule {
    code: "ATTN107",
    name: kebab!("deterministic-tp-pins-nccl"),
    sglang: warns("attention_hook.handle_deterministic_inference", "NCCL_ALGO is set to 'allreduce:tree'"),
    explanation: expl!("Deterministic inference across several GPUs (CUDA) pins NCCL to its tree all-reduce with a fixed channel count and turns off the custom and symmetric-memory all-reduce, so the reduction order never follows the batch."),
    flags: &["--enable-deterministic-inference", "--tp-size", "--disable-custom-all-reduce"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --tp-size 2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-deterministic-inference --attention-backend triton"),
};

pub static TORCH_NATIVE_NO_CUDA_GRAPH: Rule = Rule {
    code: "ATTN108",
    name: kebab!("torch-native-attention-disables-cuda-graph"),
    sglang: warns("attention_hook.handle_attention_backend_compatibility", "Cuda graph is disabled because of using torch native"),
    explanation: expl!("The torch native attention backend cannot be captured in CUDA graphs, so SGLang turns decode and prefill CUDA graphs off."),
    flags: &["--attention-backend", "--cuda-graph-backend-decode", "--cuda-graph-backend-prefill"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend torch_native"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend triton"),
};

pub static FLEX_NO_CUDA_GRAPH: Rule = Rule {
    code: "ATTN109",
    name: kebab!("flex-attention-disables-cuda-graph"),
    sglang: warns("attention_hook.handle_attention_backend_compatibility", "Cuda graph is disabled because of using torch Flex"),
    explanation: expl!("The torch Flex Attention backend cannot be captured in CUDA graphs, so SGLang turns decode and prefill CUDA graphs off."),
    flags: &["--attention-backend", "--cuda-graph-backend-decode", "--cuda-graph-backend-prefill"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend flex_attention"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend triton"),
};

pub static FLASHMLA_PAGE: Rule = Rule {
    code: "ATTN110",
    name: kebab!("flashmla-page-size-64"),
    sglang: warns("overrides._mla_backend_page_constraints", "FlashMLA only supports a page_size of 64"),
    explanation: expl!("FlashMLA works on 64-token KV pages, so SGLang sets --page-size 64 whatever was given (it warns even when it already was 64)."),
    flags: &["--attention-backend", "--decode-attention-backend", "--page-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attention-backend flashmla --page-size 16"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attention-backend triton --page-size 16"),
};

pub static TRTLLM_MLA_PAGE: Rule = Rule {
    code: "ATTN111",
    name: kebab!("trtllm-mla-page-size"),
    sglang: warns("overrides._mla_backend_page_constraints", "TensorRT-LLM MLA only supports page_size of 32 or 64"),
    explanation: expl!("The TensorRT-LLM MLA kernels work on 32- or 64-token KV pages; another page size is changed to 64."),
    flags: &["--attention-backend", "--decode-attention-backend", "--page-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attention-backend trtllm_mla"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attention-backend trtllm_mla --page-size 64"),
};

pub static CUTEDSL_MLA_PAGE: Rule = Rule {
    code: "ATTN112",
    name: kebab!("cutedsl-mla-page-size"),
    sglang: warns("overrides._mla_backend_page_constraints", "CuteDSL MLA only supports page_size of 32 or 64"),
    explanation: expl!("The CuteDSL MLA kernels work on 32- or 64-token KV pages; another page size is changed to 64."),
    flags: &["--decode-attention-backend", "--page-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --decode-attention-backend cutedsl_mla"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --decode-attention-backend cutedsl_mla --page-size 64"),
};

pub static TRTLLM_MHA_PAGE: Rule = Rule {
    code: "ATTN113",
    name: kebab!("trtllm-mha-page-size"),
    sglang: warns("overrides._mla_backend_page_constraints", "TensorRT-LLM MHA only supports page_size of 16, 32, 64 or 128"),
    explanation: expl!("The TensorRT-LLM MHA kernels work on 16-, 32-, 64- or 128-token KV pages; another page size is changed to 64."),
    flags: &["--attention-backend", "--prefill-attention-backend", "--decode-attention-backend", "--speculative-draft-attention-backend", "--page-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend trtllm_mha"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend trtllm_mha --page-size 64"),
};

pub static FA4_PAGE: Rule = Rule {
    code: "ATTN121",
    name: kebab!("fa4-page-size-128"),
    sglang: warns("overrides._fa4_page_constraint", "FA4 backend only supports page size 128"),
    explanation: expl!("On Blackwell (SM100) the FlashAttention-4 kernels for standard-attention (non-MLA) models work on 128-token KV pages: SGLang sets --page-size 128 whatever you gave (and logs it even when it already was 128). Speculative decoding with --speculative-eagle-topk above 1 keeps the page size instead."),
    flags: &["--attention-backend", "--prefill-attention-backend", "--decode-attention-backend", "--page-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend fa4 --page-size 16"),
    example_good: ex!("--model-path zai-org/GLM-4.7-Flash --attention-backend fa4 --page-size 16"),
};

pub static HPC_OPS_PAGE: Rule = Rule {
    code: "ATTN114",
    name: kebab!("hpc-ops-page-size-64"),
    sglang: warns("overrides._mla_backend_page_constraints", "HPC-Ops attention only supports a page_size of 64"),
    explanation: expl!("The HPC-Ops attention kernels work on 64-token KV pages; another page size is changed to 64."),
    flags: &["--attention-backend", "--prefill-attention-backend", "--decode-attention-backend", "--page-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend hpc_ops"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend hpc_ops --page-size 64"),
};

pub static FA3_FP8_E5M2: Rule = Rule {
    code: "ATTN115",
    name: kebab!("fa3-fp8-e5m2-falls-back-to-triton"),
    sglang: warns("overrides._attention_backend_fa3_fp8_fallback", "FlashAttention3 only supports fp8_e4m3 if using FP8"),
    explanation: expl!("FlashAttention 3 reads an FP8 KV cache only in e4m3; with --kv-cache-dtype fp8_e5m2 SGLang switches the attention backend to triton."),
    flags: &["--attention-backend", "--kv-cache-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend fa3 --kv-cache-dtype fp8_e5m2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend fa3 --kv-cache-dtype fp8_e4m3"),
};

pub static INTEL_AMX_FALLBACK: Rule = Rule {
    code: "ATTN116",
    name: kebab!("intel-amx-falls-back-to-torch-native"),
    sglang: warns("overrides._attention_backend_platform_fallbacks", "The current platform does not support Intel AMX"),
    explanation: expl!("The intel_amx attention backend needs a CPU with Intel AMX; without it SGLang uses torch_native attention instead."),
    flags: &["--attention-backend", "--device"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend intel_amx"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend torch_native"),
};

pub static REPLAYSSM_SPEC_DTYPE: Rule = Rule {
    code: "ATTN117",
    name: kebab!("linear-replayssm-spec-state-dtype"),
    sglang: warns("attention_hook.handle_linear_attn_backend", "--enable-linear-replayssm-spec with --mamba-ssm-dtype="),
    explanation: expl!("ReplaySSM's speculative verify is designed around a float32 recurrent state; with another --mamba-ssm-dtype it runs, but long-sequence accuracy and speed should be checked."),
    flags: &["--enable-linear-replayssm-spec", "--mamba-ssm-dtype"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec --mamba-ssm-dtype bfloat16"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linear-replayssm-spec --mamba-ssm-dtype float32"),
};

pub static MIS_CUDA_GRAPH: Rule = Rule {
    code: "ATTN118",
    name: kebab!("multi-item-scoring-disables-cuda-graph"),
    sglang: warns("attention_hook.handle_multi_item_scoring", "CUDA graph is disabled because --enable-mis is set"),
    explanation: expl!("Multi-item scoring runs without CUDA graphs, so SGLang turns decode and prefill CUDA graphs off."),
    flags: &["--enable-mis", "--cuda-graph-backend-decode", "--cuda-graph-backend-prefill"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mis --attention-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mis --attention-backend flashinfer --cuda-graph-backend-decode disabled"),
};

pub static MIS_RADIX: Rule = Rule {
    code: "ATTN119",
    name: kebab!("multi-item-scoring-disables-radix-cache"),
    sglang: warns("attention_hook.handle_multi_item_scoring", "Radix cache is disabled because --enable-mis is set"),
    explanation: expl!("Multi-item scoring cannot share cached prefixes between requests, so SGLang turns the radix cache off."),
    flags: &["--enable-mis", "--disable-radix-cache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mis --attention-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mis --attention-backend flashinfer --disable-radix-cache"),
};

pub static MIS_CHUNKED_PREFILL: Rule = Rule {
    code: "ATTN120",
    name: kebab!("multi-item-scoring-disables-chunked-prefill"),
    sglang: warns("attention_hook.handle_multi_item_scoring", "Chunked prefill is disabled because --enable-mis is set"),
    explanation: expl!("Multi-item scoring needs each sequence prefilled in one piece, so SGLang turns chunked prefill off (--chunked-prefill-size -1)."),
    flags: &["--enable-mis", "--chunked-prefill-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mis --attention-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mis --attention-backend flashinfer --chunked-prefill-size -1"),
};

pub static CUTLASS_MLA_PAGE: Rule = Rule {
    code: "ATTN123",
    name: kebab!("cutlass-mla-page-size-128"),
    sglang: warns("overrides._mla_backend_page_constraints", "Cutlass MLA only supports a page_size of 128"),
    explanation: expl!("The Cutlass MLA backend (SGLang 0.5.18 and 0.5.19; later releases dropped it) works on 128-token KV pages, so SGLang sets --page-size 128 whatever was given (it warns even when it already was 128)."),
    flags: &["--attention-backend", "--decode-attention-backend", "--page-size"],
    example_bad: ex!(""),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attention-backend triton --page-size 16"),
};

pub static TOKENSPEED_MLA_PAGE: Rule = Rule {
    code: "ATTN124",
    name: kebab!("tokenspeed-mla-page-size"),
    sglang: warns("overrides._mla_backend_page_constraints", "tokenspeed_mla only supports page_size of 32 or 64"),
    explanation: expl!("The tokenspeed_mla backend (up to SGLang 0.5.22; 0.5.23 runs it as cutedsl_mla) works on 32- or 64-token KV pages; another page size is changed to 64."),
    flags: &["--attention-backend", "--decode-attention-backend", "--page-size"],
    example_bad: ex!(""),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attention-backend trtllm_mla --page-size 64"),
};

pub static TOKENSPEED_MLA_BLACKWELL: Rule = Rule {
    code: "ATTN125",
    name: kebab!("tokenspeed-mla-needs-blackwell"),
    sglang: raises("overrides._mla_kv_cache_dtype_checks", "tokenspeed_mla backend is only supported on Blackwell"),
    explanation: expl!("The tokenspeed_mla kernels (up to SGLang 0.5.22; 0.5.23 runs the backend as cutedsl_mla) run on Blackwell GPUs (SM100/SM12x) only."),
    flags: &["--attention-backend", "--decode-attention-backend"],
    example_bad: ex!(""),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attention-backend triton"),
};

pub static TOKENSPEED_MLA_KV_DTYPE: Rule = Rule {
    code: "ATTN126",
    name: kebab!("tokenspeed-mla-kv-cache-dtype"),
    sglang: raises("overrides._mla_kv_cache_dtype_checks", "tokenspeed_mla backend requires kv-cache-dtype=fp8_e4m3"),
    explanation: expl!("The tokenspeed_mla backend (up to SGLang 0.5.22; 0.5.23 sets the FP8 KV cache itself) reads an fp8_e4m3 KV cache only, so it needs --kv-cache-dtype fp8_e4m3 ('auto' is refused)."),
    flags: &["--attention-backend", "--decode-attention-backend", "--kv-cache-dtype"],
    example_bad: ex!(""),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --attention-backend triton"),
};

pub static INTEL_XPU_MLA_PREFILL: Rule = Rule {
    code: "ATTN127",
    name: kebab!("intel-xpu-mla-decode-only"),
    sglang: raises("attention_hook.handle_attention_backend_compatibility", "intel_xpu backend is only supported on decode for MLA models"),
    explanation: expl!("In SGLang 0.5.18 and 0.5.19 the intel_xpu attention backend runs MLA models (DeepSeek-style) for decode only: their prefill needs another backend (triton), with --decode-attention-backend intel_xpu."),
    flags: &["--attention-backend", "--prefill-attention-backend"],
    example_bad: ex!(""),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --prefill-attention-backend triton"),
};

pub static DUAL_CHUNK_DISABLES: Rule = Rule {
    code: "ATTN128",
    name: kebab!("dual-chunk-disables-mixed-chunk-and-radix-cache"),
    sglang: warns("attention_hook.handle_attention_backend_compatibility", "Mixed chunk and radix cache are disabled when using dual-chunk"),
    explanation: expl!("The dual-chunk flash attention backend (for long-context Qwen models; SGLang 0.5.18 and 0.5.19) runs without mixed chunked prefill and without the radix cache: SGLang turns both off."),
    flags: &["--attention-backend", "--enable-mixed-chunk", "--disable-radix-cache"],
    example_bad: ex!(""),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend triton"),
};

pub static RULES: &[&Rule] = &[
    &DETERMINISTIC_BACKEND,
    &DETERMINISTIC_ROCM_RCCL,
    &FLEX_NO_SPEC,
    &TRTLLM_MLA_BLACKWELL,
    &TRTLLM_MLA_KV_DTYPE,
    &CUTEDSL_DECODE_ONLY,
    &CUTEDSL_SM100,
    &CUTEDSL_KV_DTYPE,
    &TRTLLM_MHA_PREFILL_GPU,
    &TRTLLM_MHA_SM120_FP8,
    &TRTLLM_MHA_DECODE_GPU,
    &TRTLLM_MHA_PREFILL_CP,
    &FLASHKDA_DECODE,
    &LINEAR_DECODE_FLASHINFER_BF16,
    &LINEAR_VERIFY_FLASHINFER_BF16,
    &REPLAYSSM_DECODE,
    &REPLAYSSM_EXTRA_BUFFER,
    &REPLAYSSM_PD,
    &REPLAYSSM_CACHE_LEN,
    &REPLAYSSM_SPEC_TOPK,
    &REPLAYSSM_SPEC_DECODE,
    &REPLAYSSM_SPEC_RAGGED,
    &REPLAYSSM_SPEC_PREFILL,
    &REPLAYSSM_EXCLUSIVE,
    &MIS_FLASHINFER,
    &DETERMINISTIC_MLA_BACKEND,
    &DETERMINISTIC_MLA_FA4,
    &RL_ON_POLICY_DETERMINISTIC,
    &DETERMINISTIC_AITER_FUSION,
    &DETERMINISTIC_SAMPLING,
    &DETERMINISTIC_BACKEND_FALLBACK,
    &DETERMINISTIC_RADIX,
    &DETERMINISTIC_NCCL,
    &TORCH_NATIVE_NO_CUDA_GRAPH,
    &FLEX_NO_CUDA_GRAPH,
    &FLASHMLA_PAGE,
    &TRTLLM_MLA_PAGE,
    &CUTEDSL_MLA_PAGE,
    &TRTLLM_MHA_PAGE,
    &HPC_OPS_PAGE,
    &FA4_PAGE,
    &FA3_FP8_E5M2,
    &INTEL_AMX_FALLBACK,
    &REPLAYSSM_SPEC_DTYPE,
    &MIS_CUDA_GRAPH,
    &MIS_RADIX,
    &MIS_CHUNKED_PREFILL,
    &CUTLASS_MLA_PAGE,
    &TOKENSPEED_MLA_PAGE,
    &TOKENSPEED_MLA_BLACKWELL,
    &TOKENSPEED_MLA_KV_DTYPE,
    &INTEL_XPU_MLA_PREFILL,
    &DUAL_CHUNK_DISABLES,
];

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn opt_str(ctx: &Ctx, field: Field) -> Option<String> {
    ctx.cfg.str(field).map(str::to_string)
}

/// Python `repr` of an optional string.
fn opt_repr(v: &Option<String>) -> String {
    v.as_deref().map(str_repr).unwrap_or_else(|| "None".to_string())
}

/// Python `str` of an optional string (an f-string's `{x}`).
fn opt_display(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "None".to_string())
}

/// One side of `model_override_base.attention_backends_of` (the prefill or the decode
/// backend, falling back to the base backend): known, or the model's default (not known here).
#[derive(Clone, PartialEq)]
enum Side {
    Known(Option<String>),
    Default,
}

/// The base backend, read only when it is known (`Side::Default` when the model picks it).
fn base_side(ctx: &Ctx) -> Side {
    if ctx.cfg.is_unknown(f::attention_backend) {
        Side::Default
    } else {
        Side::Known(opt_str(ctx, f::attention_backend))
    }
}

/// `cfg.<field> if cfg.<field> else cfg.attention_backend`.
fn side(ctx: &Ctx, field: Field) -> Side {
    match opt_str(ctx, field).filter(|s| !s.is_empty()) {
        Some(s) => Side::Known(Some(s)),
        None => base_side(ctx),
    }
}

/// Whether `side` is backend `v`: None when it is the model's default and the default can be
/// `v` on this machine.
fn side_is(ctx: &Ctx, side: &Side, v: &str) -> Option<bool> {
    match side {
        Side::Known(b) => Some(b.as_deref() == Some(v)),
        Side::Default if default_backend_candidates(ctx).contains(&v) => None,
        Side::Default => Some(false),
    }
}

/// Python `a or b or ...` over checks that may be unknown.
fn any_of(checks: &[Option<bool>]) -> Option<bool> {
    if checks.contains(&Some(true)) {
        Some(true)
    } else if checks.contains(&None) {
        None
    } else {
        Some(false)
    }
}

/// `attention_backends_of(...)` when both sides are known.
fn known_backends(ctx: &Ctx) -> Option<(Option<String>, Option<String>)> {
    match (side(ctx, f::prefill_attention_backend), side(ctx, f::decode_attention_backend)) {
        (Side::Known(p), Side::Known(d)) => Some((p, d)),
        _ => None,
    }
}

/// Set `field` (a string or None), as `declare_resolution` does.
fn set_opt_str(ctx: &mut Ctx, field: Field, value: Option<&str>) {
    ctx.cfg.set(field, value.map(|s| PyValue::Str(s.to_string())).unwrap_or(PyValue::None));
}

/// Whether the base attention backend is still unset here: on CPU `platform_hook.handle_cpu_backends`
/// (not modelled) has picked one; elsewhere `get_default_attn_backend` picks one from the model.
/// Either way it is not known here: written as unknown.
fn mark_default_backend_unknown(ctx: &mut Ctx) {
    if ctx.cfg.is_none(f::attention_backend) && !ctx.cfg.is_unknown(f::attention_backend) {
        ctx.cfg.set_unknown(f::attention_backend, PyValue::None);
    }
}

/// Whether the model's architecture has override providers that may pick attention backends
/// (`model_overrides/*.py`, `overrides._step3p_overrides`, run by the model-specific step before
/// `_attention_backend_default`: not modelled here for them, so their backend stays unknown),
/// by the checked release's generated lists.
fn has_attention_overrides(ctx: &Ctx) -> bool {
    let Some(arch) = ctx.model.as_ref().and_then(|m| m.architecture) else { return false };
    ctx.release.model_lists().is_some_and(|l| l.override_picks_attention_backend(arch))
}

/// `overrides._attention_backend_default`'s fill: the model's default backend, or unknown.
fn fill_default_backend(ctx: &mut Ctx) {
    if !ctx.cfg.is_none(f::attention_backend) || ctx.cfg.is_unknown(f::attention_backend) {
        return;
    }
    // before the hook modules: the providers the model hook replays for their attention
    // backend, where they are known to declare none, leave the default to
    // `_get_default_attn_backend`
    let declares_none = ctx.release.data.before_hook_modules()
        && ctx.model.as_ref().and_then(|m| m.architecture).is_some_and(|arch| {
            crate::rules::shared::overrides::provider_attention_backend_0_5_18(ctx, arch) == Some(None)
        });
    let overridden = has_attention_overrides(ctx) && !declares_none;
    if ctx.release.model_lists().is_none() || overridden {
        mark_default_backend_unknown(ctx);
        return;
    }
    match crate::rules::shared::model_override_base::get_default_attn_backend(ctx) {
        Some(backend) => ctx.cfg.set(f::attention_backend, PyValue::Str(backend.into())),
        None => mark_default_backend_unknown(ctx),
    }
}

/// `parse_connector_type(model_path) == ConnectorType.INSTANCE` (`re.match(r"(.+)://(.*)")`:
/// greedy, so the scheme is everything before the last `://` of the first line).
fn is_instance_connector(path: &str) -> bool {
    let line = path.split('\n').next().unwrap_or("");
    line.rfind("://").map(|i| line.get(..i) == Some("instance")).unwrap_or(false)
}

/// Whether the model is one SGLang runs with absorbed MLA for deterministic inference, by its
/// first architecture: in the release's `_deterministic_is_deepseek_model` pass, or (`handler`)
/// in `handle_deterministic_inference`'s own list (0.5.23's adds Glm5Next). None, recorded as
/// not run at `needed_by`, without the architecture.
fn deterministic_deepseek(ctx: &mut Ctx, needed_by: crate::release::SiteRef, handler: bool) -> Option<bool> {
    if ctx.cfg.str(f::model_path).is_some_and(is_instance_connector) {
        return Some(false);
    }
    let Some(lists) = ctx.release.model_lists() else {
        ctx.model_config(needed_by);
        return None;
    };
    let archs = if handler { &lists.deterministic_deepseek_handler_architectures } else { &lists.deterministic_deepseek_pass_architectures };
    let arch = ctx.model_fact(needed_by, |m| m.architecture)?;
    Some(crate::models::ModelLists::names(archs, arch))
}

// ---------------------------------------------------------------------------------------------
// handle_deterministic_inference
// ---------------------------------------------------------------------------------------------

/// `attention_hook.handle_deterministic_inference` (with the `_deterministic_*` passes it runs).
pub fn handle_deterministic_inference(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.is_none(f::rl_on_policy_target) {
        // logged whenever --rl-on-policy-target is given: writing the flag does not silence it
        let fixes = if ctx.cfg.is_explicit(f::enable_deterministic_inference) {
            vec![]
        } else {
            vec![Fix::advice("Add --enable-deterministic-inference to say so in the command")]
        };
        ctx.warn(&RL_ON_POLICY_DETERMINISTIC, &[], &[f::rl_on_policy_target], fixes);
        ctx.cfg.set(f::enable_deterministic_inference, PyValue::Bool(true));
    }
    if !ctx.cfg.truthy(f::enable_deterministic_inference) {
        return Ok(());
    }
    if ctx.cfg.truthy(f::enable_aiter_allreduce_fusion) {
        let fixes = vec![ctx.fix_remove("Remove --enable-aiter-allreduce-fusion", f::enable_aiter_allreduce_fusion, Applicability::Safe)];
        ctx.warn(&DETERMINISTIC_AITER_FUSION, &[], &[f::enable_aiter_allreduce_fusion], fixes);
        ctx.cfg.set(f::enable_aiter_allreduce_fusion, PyValue::Bool(false));
    }
    // overrides._deterministic_allreduce_fusion_disable: model_hook.handle_model_specific_adjustments
    // (not modelled) has already cleared --flashinfer-allreduce-fusion-backend for deterministic
    // inference (enforce_disable_flashinfer_allreduce_fusion), so its warning is not printed
    // (except for an instance-connector model path, which skips the model's adjustments).
    ctx.cfg.set(f::flashinfer_allreduce_fusion_backend, PyValue::None);
    // overrides._deterministic_sampling_backend
    ctx.cfg.forget_reads();
    if !ctx.cfg.is(f::sampling_backend, "ascend") {
        let fixes = if ctx.cfg.is(f::sampling_backend, "pytorch") {
            vec![]
        } else {
            // logged for every deterministic launch off Ascend: writing the flag does not silence it
            vec![Fix::advice("Use --sampling-backend pytorch (what SGLang runs) to say so in the command")]
        };
        ctx.warn(&DETERMINISTIC_SAMPLING, &[], &[f::sampling_backend, f::enable_deterministic_inference], fixes);
        ctx.cfg.set(f::sampling_backend, PyValue::Str("pytorch".into()));
    }
    // overrides._deterministic_attention_backend
    ctx.cfg.forget_reads();
    if ctx.hw.platform == crate::hardware::Platform::Cpu {
        // platform_hook.handle_cpu_backends (not modelled) has set the backend by now.
        mark_default_backend_unknown(ctx);
    }
    let (Some(choice_list), Some(radix_supported)) = (deterministic_choices(ctx), radix_supported_deterministic(ctx)) else {
        // a release whose lists are not carried: its backend lists are not known here
        ctx.skip(site("overrides._deterministic_attention_backend", "Currently only {DETERMINISTIC_ATTENTION_BACKEND_CHOICES}"), NotRunReason::NotImplemented);
        ctx.skip(site("attention_hook.handle_deterministic_inference", "Currently only {RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND}"), NotRunReason::NotImplemented);
        mark_default_backend_unknown(ctx);
        return Ok(());
    };
    let choices = list_repr(choice_list);
    match opt_str(ctx, f::attention_backend) {
        None if ctx.cfg.read_unknown() => {}
        None => {
            // fa3 up to Hopper; on Blackwell triton for DeepSeek-style models, else flashinfer.
            // An architecture whose override provider may have picked a backend (in
            // model_hook, not modelled for it) leaves it unknown.
            let overridden = has_attention_overrides(ctx);
            let backend = if overridden {
                None
            } else if is_sm100(ctx.hw) || is_sm120(ctx.hw) {
                let site = site("overrides._deterministic_attention_backend", "Attention backend not specified. Falling back to");
                deterministic_deepseek(ctx, site, false).map(|deepseek| if deepseek { "triton" } else { "flashinfer" })
            } else {
                Some("fa3")
            };
            if let Some(backend) = backend {
                let fixes = vec![ctx.fix_set(format!("Use --attention-backend {backend}"), f::attention_backend, backend, Applicability::Safe)];
                ctx.warn(
                    &DETERMINISTIC_BACKEND_FALLBACK,
                    &[("backend", &backend), ("DETERMINISTIC_ATTENTION_BACKEND_CHOICES", &choices)],
                    &[f::enable_deterministic_inference],
                    fixes,
                );
                ctx.cfg.set(f::attention_backend, PyValue::Str(backend.into()));
            } else {
                ctx.cfg.set_unknown(f::attention_backend, PyValue::None);
            }
        }
        Some(b) if !choice_list.contains(&b) => {
            let fixes = vec![
                ctx.fix_set("Use --attention-backend triton", f::attention_backend, "triton", Applicability::Unsafe),
                ctx.fix_remove("Remove --enable-deterministic-inference", f::enable_deterministic_inference, Applicability::Unsafe),
            ];
            ctx.raise(
                &DETERMINISTIC_BACKEND,
                &[("DETERMINISTIC_ATTENTION_BACKEND_CHOICES", &choices), ("view.attention_backend", &b)],
                &[f::attention_backend, f::enable_deterministic_inference],
                fixes,
            )?;
        }
        Some(_) => {}
    }
    // is_deepseek_model: the model's architecture decides two more checks.
    ctx.cfg.forget_reads();
    let backend = opt_str(ctx, f::attention_backend);
    const RADIX_SITE: crate::release::SiteRef = site("attention_hook.handle_deterministic_inference", "Currently only {RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND}");
    const FA4_SITE: crate::release::SiteRef = site("attention_hook.handle_deterministic_inference", "Deterministic inference with absorbed-MLA models");
    let fa4_off_sm100 = backend.as_deref() == Some("fa4") && !is_sm100_or_sm110(ctx.hw);
    match deterministic_deepseek(ctx, RADIX_SITE, true) {
        Some(true) => {
            if !backend.as_deref().is_some_and(|b| radix_supported.iter().any(|r| r == b)) {
                let fixes = vec![ctx.fix_set("Use --attention-backend triton", f::attention_backend, "triton", Applicability::Unsafe)];
                let (supported, shown) = (list_repr(radix_supported), opt_display(&backend));
                ctx.raise(
                    &DETERMINISTIC_MLA_BACKEND,
                    &[("RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND", &supported), ("attention_backend", &shown)],
                    &[f::attention_backend, f::enable_deterministic_inference],
                    fixes,
                )?;
            }
            if fa4_off_sm100 {
                let fixes = vec![ctx.fix_set("Use --attention-backend triton", f::attention_backend, "triton", Applicability::Unsafe)];
                ctx.raise(&DETERMINISTIC_MLA_FA4, &[], &[f::attention_backend, f::enable_deterministic_inference], fixes)?;
            }
        }
        Some(false) => {}
        None if fa4_off_sm100 => ctx.model_config(FA4_SITE),
        None => {}
    }
    if !backend.as_deref().is_some_and(|b| radix_supported.iter().any(|r| r == b)) {
        ctx.cfg.set(f::disable_radix_cache, PyValue::Bool(true));
        let shown = opt_display(&backend);
        let fixes = if ctx.cfg.is_explicit(f::attention_backend) {
            vec![ctx.fix_set("Use --attention-backend triton (keeps the radix cache)", f::attention_backend, "triton", Applicability::Unsafe)]
        } else {
            vec![]
        };
        ctx.warn(&DETERMINISTIC_RADIX, &[("attention_backend", &shown)], &[f::attention_backend, f::enable_deterministic_inference], fixes);
    }
    ctx.cfg.forget_reads();
    if ctx.cfg.int(f::tp_size).unwrap_or(1) > 1 {
        if ctx.hw.is_hip() {
            // overrides._deterministic_rocm_rccl_check
            if ctx.cfg.int(f::tp_size).unwrap_or(1) > 2 && ctx.cfg.truthy(f::disable_custom_all_reduce) {
                let fixes = vec![ctx.fix_remove("Remove --disable-custom-all-reduce", f::disable_custom_all_reduce, Applicability::Safe)];
                ctx.raise(&DETERMINISTIC_ROCM_RCCL, &[], &[f::disable_custom_all_reduce, f::enable_deterministic_inference, f::tp_size], fixes)?;
            }
        } else {
            ctx.cfg.set(f::disable_custom_all_reduce, PyValue::Bool(true));
            ctx.cfg.set(f::enable_torch_symm_mem, PyValue::Bool(false));
            // logged for every deterministic launch on several GPUs: writing the flag does not silence it
            let fixes = if ctx.cfg.is_explicit(f::disable_custom_all_reduce) {
                vec![]
            } else {
                vec![Fix::advice("Add --disable-custom-all-reduce to say so in the command")]
            };
            ctx.warn(&DETERMINISTIC_NCCL, &[], &[f::tp_size, f::enable_deterministic_inference], fixes);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_attention_backend_compatibility
// ---------------------------------------------------------------------------------------------

/// The base backends `get_default_attn_backend` (or, on CPU, `handle_cpu_backends` and the AMX
/// fallback) can pick on this machine, whatever the model.
fn default_backend_candidates(ctx: &Ctx) -> &'static [&'static str] {
    if ctx.hw.platform == crate::hardware::Platform::Cpu {
        &["intel_amx", "torch_native"]
    } else if ctx.hw.is_hip() {
        &["aiter", "triton", "flashinfer"]
    } else if is_sm90(ctx.hw) {
        &["fa3", "flashinfer", "triton"]
    } else if is_sm100(ctx.hw) {
        &["trtllm_mha", "fa4", "flashinfer", "triton"]
    } else {
        &["flashinfer", "triton"]
    }
}

/// `_mla_backend_page_constraints` over the given backends: the page size it leaves and the
/// warnings it logs (rule, the page size before).
fn mla_page_constraints(
    base: Option<&str>,
    decode: Option<&str>,
    prefill: Option<&str>,
    draft: Option<&str>,
    page: &PyValue,
    (cutlass, tokenspeed): (bool, bool),
) -> (PyValue, Vec<(&'static Rule, PyValue)>) {
    let mut page_size = page.clone();
    let mut warnings: Vec<(&'static Rule, PyValue)> = Vec::new();
    let any = |names: &[Option<&str>], b: &str| names.contains(&Some(b));
    let in_list = |p: &PyValue, allowed: &[i64]| p.as_int().is_some_and(|i| allowed.contains(&i)) && !matches!(p, PyValue::Bool(_));
    if any(&[base, decode], "flashmla") {
        warnings.push((&FLASHMLA_PAGE, page_size.clone()));
        page_size = PyValue::Int(64);
    }
    if cutlass && any(&[base, decode], "cutlass_mla") {
        warnings.push((&CUTLASS_MLA_PAGE, page_size.clone()));
        page_size = PyValue::Int(128);
    }
    if any(&[base, decode], "trtllm_mla") && !in_list(&page_size, &[32, 64]) {
        warnings.push((&TRTLLM_MLA_PAGE, page_size.clone()));
        page_size = PyValue::Int(64);
    }
    if tokenspeed && any(&[base, decode], "tokenspeed_mla") && !in_list(&page_size, &[32, 64]) {
        warnings.push((&TOKENSPEED_MLA_PAGE, page_size.clone()));
        page_size = PyValue::Int(64);
    }
    if any(&[base, decode, prefill], "cutedsl_mla") && !in_list(&page_size, &[32, 64]) {
        warnings.push((&CUTEDSL_MLA_PAGE, page_size.clone()));
        page_size = PyValue::Int(64);
    }
    if any(&[base, decode, prefill, draft], "trtllm_mha") && !in_list(&page_size, &[16, 32, 64, 128]) {
        warnings.push((&TRTLLM_MHA_PAGE, page_size.clone()));
        page_size = PyValue::Int(64);
    }
    if any(&[base, decode, prefill], "hpc_ops") && !in_list(&page_size, &[64]) {
        warnings.push((&HPC_OPS_PAGE, page_size.clone()));
        page_size = PyValue::Int(64);
    }
    (page_size, warnings)
}

/// `overrides._mla_backend_page_constraints`, run on the resolved backends; when the base
/// backend is the model's default, on every backend the default can be here.
fn run_mla_page_constraints(ctx: &mut Ctx) {
    ctx.cfg.forget_reads();
    let base_unknown = base_side(ctx) == Side::Default;
    let base = if base_unknown { None } else { opt_str(ctx, f::attention_backend) };
    let decode = opt_str(ctx, f::decode_attention_backend);
    let prefill = opt_str(ctx, f::prefill_attention_backend);
    let draft = opt_str(ctx, f::speculative_draft_attention_backend);
    let page = ctx.cfg.get(f::page_size).clone();
    let others_unknown = ctx.cfg.read_unknown();
    // the releases with cutlass_mla (up to 0.5.19) and a tokenspeed_mla of its own (up to 0.5.22;
    // 0.5.23 runs it as cutedsl_mla)
    let older = (CUTLASS_MLA_PAGE.applies_to(ctx.release), TOKENSPEED_MLA_PAGE.applies_to(ctx.release));
    let outcomes: Vec<(PyValue, Vec<(&'static Rule, PyValue)>)> = if base_unknown {
        default_backend_candidates(ctx)
            .iter()
            .map(|b| mla_page_constraints(Some(b), decode.as_deref(), prefill.as_deref(), draft.as_deref(), &page, older))
            .collect()
    } else {
        vec![mla_page_constraints(base.as_deref(), decode.as_deref(), prefill.as_deref(), draft.as_deref(), &page, older)]
    };
    let Some((first_page, first_warnings)) = outcomes.first().cloned() else { return };
    let agree = outcomes.iter().all(|(p, w)| *p == first_page && w.iter().map(|x| x.0.code).eq(first_warnings.iter().map(|x| x.0.code)));
    if !agree {
        ctx.cfg.set_unknown(f::page_size, page);
        return;
    }
    if base_unknown && !others_unknown {
        // every backend the default can be gives the same answer: it does not depend on it
        ctx.cfg.forget_reads();
    }
    for (rule, before) in &first_warnings {
        let fixes = if std::ptr::eq(*rule, &FLASHMLA_PAGE) {
            // logged whatever the page size: writing it does not silence it
            if before.as_int() == Some(64) { vec![] } else { vec![Fix::advice("Add --page-size 64 (what SGLang runs) to say so in the command")] }
        } else if std::ptr::eq(*rule, &CUTLASS_MLA_PAGE) {
            if before.as_int() == Some(128) { vec![] } else { vec![Fix::advice("Add --page-size 128 (what SGLang runs) to say so in the command")] }
        } else {
            vec![ctx.fix_set("Use --page-size 64", f::page_size, "64", Applicability::Safe)]
        };
        let shown = before.py_str();
        ctx.warn(rule, &[("page_size", &shown)], &[f::page_size, f::attention_backend, f::decode_attention_backend, f::prefill_attention_backend], fixes);
    }
    if first_page != page {
        ctx.cfg.set(f::page_size, first_page);
    }
}

/// `attention_hook.handle_attention_backend_compatibility`.
pub fn handle_attention_backend_compatibility(ctx: &mut Ctx) -> Step {
    // overrides._attention_backend_default
    ctx.cfg.forget_reads();
    let prefill = opt_str(ctx, f::prefill_attention_backend);
    if prefill.is_some() && prefill == opt_str(ctx, f::decode_attention_backend) {
        set_opt_str(ctx, f::attention_backend, prefill.as_deref());
    } else if ctx.cfg.is_none(f::attention_backend) {
        // handle_cpu_backends (CPU, not modelled) or get_default_attn_backend (the model) picks it.
        fill_default_backend(ctx);
    }

    ctx.cfg.forget_reads();
    let backend = opt_str(ctx, f::attention_backend);
    // logged whenever this backend is used: writing the CUDA-graph flags does not silence it
    let fixes_cg = |ctx: &Ctx| {
        let mut fixes = vec![];
        if ctx.cfg.is_explicit(f::attention_backend) {
            fixes.push(ctx.fix_set("Use --attention-backend triton (keeps CUDA graphs)", f::attention_backend, "triton", Applicability::Unsafe));
        }
        fixes.push(Fix::advice("Add --cuda-graph-backend-decode disabled --cuda-graph-backend-prefill disabled to say so in the command"));
        fixes
    };
    if backend.as_deref() == Some("torch_native") {
        let fixes = fixes_cg(ctx);
        ctx.warn(&TORCH_NATIVE_NO_CUDA_GRAPH, &[], &[f::attention_backend], fixes);
        with_phase(ctx, "decode", "backend", PyValue::Str("disabled".into()));
        with_phase(ctx, "prefill", "backend", PyValue::Str("disabled".into()));
    }
    if backend.as_deref() == Some("flex_attention") {
        let fixes = fixes_cg(ctx);
        ctx.warn(&FLEX_NO_CUDA_GRAPH, &[], &[f::attention_backend], fixes);
        with_phase(ctx, "decode", "backend", PyValue::Str("disabled".into()));
        with_phase(ctx, "prefill", "backend", PyValue::Str("disabled".into()));
        if !ctx.cfg.is_none(f::speculative_algorithm) {
            let fixes = vec![
                ctx.fix_set("Use --attention-backend triton", f::attention_backend, "triton", Applicability::Unsafe),
                ctx.fix_remove("Remove --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe),
            ];
            ctx.raise(&FLEX_NO_SPEC, &[], &[f::speculative_algorithm, f::attention_backend], fixes)?;
        }
    }
    // Whisper (an encoder-decoder architecture) also turns the radix cache off here: the
    // model's config, not read by this build.

    run_mla_page_constraints(ctx);

    // overrides._mla_kv_cache_dtype_checks
    ctx.cfg.forget_reads();
    let base = base_side(ctx);
    let (decode_b, prefill_b) = (opt_str(ctx, f::decode_attention_backend), opt_str(ctx, f::prefill_attention_backend));
    let kv = opt_str(ctx, f::kv_cache_dtype);
    let trtllm_mla = any_of(&[side_is(ctx, &base, "trtllm_mla"), Some(decode_b.as_deref() == Some("trtllm_mla"))]);
    if trtllm_mla == Some(true) {
        let dest = if decode_b.as_deref() == Some("trtllm_mla") && ctx.cfg.is_explicit(f::decode_attention_backend) { f::decode_attention_backend } else { f::attention_backend };
        if !is_blackwell(ctx.hw) {
            let fixes = vec![ctx.fix_remove(format!("Remove {}", ctx.flag(dest)), dest, Applicability::Unsafe)];
            ctx.raise(&TRTLLM_MLA_BLACKWELL, &[], &[dest], fixes)?;
        }
        // 0.5.18 also reads an fp4_e2m1 cache (its message lists it)
        let fp4_ok = kv.as_deref() == Some("fp4_e2m1")
            && TRTLLM_MLA_KV_DTYPE.site(ctx.release).is_some_and(|s| s.template.contains("fp4_e2m1"));
        if !matches!(kv.as_deref(), Some("fp8_e4m3" | "bf16" | "auto")) && !fp4_ok {
            let fixes = vec![ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe)];
            ctx.raise(&TRTLLM_MLA_KV_DTYPE, &[], &[f::kv_cache_dtype, dest], fixes)?;
        }
    }
    // 0.5.18's tokenspeed_mla (the rules apply where the release has the checks)
    let tokenspeed = any_of(&[side_is(ctx, &base, "tokenspeed_mla"), Some(decode_b.as_deref() == Some("tokenspeed_mla"))]);
    if tokenspeed == Some(true) && TOKENSPEED_MLA_BLACKWELL.applies_to(ctx.release) {
        let dest = if decode_b.as_deref() == Some("tokenspeed_mla") && ctx.cfg.is_explicit(f::decode_attention_backend) { f::decode_attention_backend } else { f::attention_backend };
        if !is_blackwell(ctx.hw) {
            let fixes = vec![ctx.fix_remove(format!("Remove {}", ctx.flag(dest)), dest, Applicability::Unsafe)];
            ctx.raise(&TOKENSPEED_MLA_BLACKWELL, &[], &[dest], fixes)?;
        }
        if kv.as_deref() != Some("fp8_e4m3") {
            let fixes = vec![ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", f::kv_cache_dtype, "fp8_e4m3", Applicability::Safe)];
            let shown = opt_display(&kv);
            ctx.raise(&TOKENSPEED_MLA_KV_DTYPE, &[("view.kv_cache_dtype", &shown)], &[f::kv_cache_dtype, dest], fixes)?;
        }
    }

    // overrides._cutedsl_prefill_backend_fill
    let cutedsl = any_of(&[
        side_is(ctx, &base, "cutedsl_mla"),
        Some(decode_b.as_deref() == Some("cutedsl_mla")),
        Some(prefill_b.as_deref() == Some("cutedsl_mla")),
    ]);
    if cutedsl == Some(true) {
        if prefill_b.as_deref() == Some("cutedsl_mla") {
            let fixes = vec![ctx.fix_remove("Remove --prefill-attention-backend", f::prefill_attention_backend, Applicability::Unsafe)];
            ctx.raise(&CUTEDSL_DECODE_ONLY, &[], &[f::prefill_attention_backend], fixes)?;
        }
        let dest = if decode_b.as_deref() == Some("cutedsl_mla") && ctx.cfg.is_explicit(f::decode_attention_backend) { f::decode_attention_backend } else { f::attention_backend };
        if !is_sm100(ctx.hw) {
            let fixes = vec![ctx.fix_remove(format!("Remove {}", ctx.flag(dest)), dest, Applicability::Unsafe)];
            ctx.raise(&CUTEDSL_SM100, &[], &[dest], fixes)?;
        }
        if !matches!(kv.as_deref(), Some("fp8_e4m3" | "bf16" | "bfloat16" | "auto")) {
            let fixes = vec![ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe)];
            ctx.raise(&CUTEDSL_KV_DTYPE, &[], &[f::kv_cache_dtype, dest], fixes)?;
        }
        if prefill_b.is_none() {
            ctx.cfg.set(f::prefill_attention_backend, PyValue::Str("trtllm_mla".into()));
        }
    }

    // TRTLLM MHA
    ctx.cfg.forget_reads();
    let (prefill, decode) = (side(ctx, f::prefill_attention_backend), side(ctx, f::decode_attention_backend));
    let (p_mha, d_mha) = (side_is(ctx, &prefill, "trtllm_mha"), side_is(ctx, &decode, "trtllm_mha"));
    if any_of(&[p_mha, d_mha]) != Some(false) {
        const MHA_SITE: crate::release::SiteRef = TRTLLM_MHA_PREFILL_SITE;
        let hw_ok = is_sm90(ctx.hw) || is_sm100(ctx.hw) || is_sm120(ctx.hw);
        let pdest = if ctx.cfg.is_explicit(f::prefill_attention_backend) { f::prefill_attention_backend } else { f::attention_backend };
        let ddest = if ctx.cfg.is_explicit(f::decode_attention_backend) { f::decode_attention_backend } else { f::attention_backend };
        let skip_softmax = ctx
            .env("SGLANG_SKIP_SOFTMAX_PREFILL_THRESHOLD_SCALE_FACTOR")
            .and_then(|v| v.trim().parse::<f64>().ok())
            .unwrap_or(0.0);
        let fp8_or_skip = ctx.cfg.is(f::kv_cache_dtype, "fp8_e4m3") || skip_softmax > 0.0;
        // A check on a side the model's default backend decides is not run when it could raise.
        let would = |is: Option<bool>, raises: bool| match is {
            Some(b) => Some(b && raises),
            None if raises => None,
            None => Some(false),
        };
        // A check the release does not have never raises (0.5.18 has the prefill and decode
        // GPU checks only).
        let has = |rule: &Rule| rule.applies_to(ctx.release);
        let prefill_hw_ok = if trtllm_mha_prefill_needs_sm100(ctx) { is_sm100(ctx.hw) } else { hw_ok };
        let checks = [
            would(p_mha, !prefill_hw_ok),
            would(p_mha, is_sm120(ctx.hw) && fp8_or_skip && has(&TRTLLM_MHA_SM120_FP8)),
            would(d_mha, !hw_ok),
            would(p_mha, !is_sm100(ctx.hw) && ctx.cfg.int(f::attn_cp_size).unwrap_or(1) > 1 && has(&TRTLLM_MHA_PREFILL_CP)),
        ];
        match checks.iter().position(|c| *c != Some(false)) {
            Some(0) if checks[0] == Some(true) => {
                let fixes = vec![ctx.fix_set("Use flashinfer for prefill", pdest, "flashinfer", Applicability::Unsafe)];
                ctx.raise(&TRTLLM_MHA_PREFILL_GPU, &[], &[pdest], fixes)?;
            }
            Some(1) if checks[1] == Some(true) => {
                let mut fixes = vec![];
                if ctx.cfg.is(f::kv_cache_dtype, "fp8_e4m3") {
                    fixes.push(ctx.fix_remove("Remove --kv-cache-dtype fp8_e4m3", f::kv_cache_dtype, Applicability::Unsafe));
                }
                fixes.push(ctx.fix_set("Use flashinfer for prefill", pdest, "flashinfer", Applicability::Unsafe));
                ctx.raise(&TRTLLM_MHA_SM120_FP8, &[], &[f::kv_cache_dtype, pdest], fixes)?;
            }
            Some(2) if checks[2] == Some(true) => {
                let fixes = vec![ctx.fix_set("Use flashinfer for decode", ddest, "flashinfer", Applicability::Unsafe)];
                ctx.raise(&TRTLLM_MHA_DECODE_GPU, &[], &[ddest], fixes)?;
            }
            Some(3) if checks[3] == Some(true) => {
                let fixes = vec![ctx.fix_remove("Remove --attn-cp-size", f::attn_cp_size, Applicability::Unsafe)];
                ctx.raise(&TRTLLM_MHA_PREFILL_CP, &[], &[f::attn_cp_size, pdest], fixes)?;
            }
            Some(_) => {
                // the first check that may raise depends on the model's default backend
                ctx.model_config(MHA_SITE);
                return Ok(());
            }
            None => {}
        }
    }

    // overrides._attention_backend_fa3_fp8_fallback
    ctx.cfg.forget_reads();
    if ctx.cfg.is(f::attention_backend, "fa3") && ctx.cfg.is(f::kv_cache_dtype, "fp8_e5m2") {
        let fixes = vec![
            ctx.fix_set("Use --attention-backend triton", f::attention_backend, "triton", Applicability::Safe),
            ctx.fix_set("Use --kv-cache-dtype fp8_e4m3", f::kv_cache_dtype, "fp8_e4m3", Applicability::Unsafe),
        ];
        ctx.warn(&FA3_FP8_E5M2, &[], &[f::kv_cache_dtype, f::attention_backend], fixes);
        ctx.cfg.set(f::attention_backend, PyValue::Str("triton".into()));
    }

    // overrides._fa4_page_constraint: by the model (MLA, and DiffusionGemma's page size 1).
    ctx.cfg.forget_reads();
    let any_fa4 = [f::attention_backend, f::decode_attention_backend, f::prefill_attention_backend].iter().any(|&b| ctx.cfg.is(b, "fa4"));
    if any_fa4 && is_sm100(ctx.hw) && ctx.cfg.int(f::speculative_eagle_topk).unwrap_or(0) <= 1 {
        let page = ctx.cfg.get(f::page_size).clone();
        let facts = if ctx.release.model_lists().is_some() { ctx.model.as_ref().and_then(|m| Some((m.derived.is_mla?, m.architecture?))) } else { None };
        match facts {
            Some((true, _)) => {}
            // 0.5.18's pass has no DiffusionGemma branch
            Some((false, "DiffusionGemmaForBlockDiffusion")) if !ctx.release.data.before_hook_modules() => ctx.cfg.set(f::page_size, PyValue::Int(1)),
            Some((false, _)) => {
                let fixes = if page.as_int() == Some(128) && !matches!(page, PyValue::Bool(_)) {
                    vec![]
                } else {
                    vec![Fix::advice("Add --page-size 128 (what SGLang runs) to say so in the command")]
                };
                let shown = page.py_str();
                ctx.warn(&FA4_PAGE, &[("view.page_size", &shown)], &[f::page_size, f::attention_backend, f::decode_attention_backend, f::prefill_attention_backend], fixes);
                ctx.cfg.set(f::page_size, PyValue::Int(128));
            }
            None => ctx.cfg.set_unknown(f::page_size, page),
        }
    }

    // AMD: aiter scales mem_fraction_static by 0.85 for a context above 8192 tokens (the
    // model's context length; mem_fraction_static itself is resolved by a hook not modelled).
    ctx.cfg.forget_reads();
    if ctx.cfg.is(f::attention_backend, "aiter") {
        let v = ctx.cfg.get(f::mem_fraction_static).clone();
        ctx.cfg.set_unknown(f::mem_fraction_static, v);
    }

    // overrides._attention_backend_platform_fallbacks
    ctx.cfg.forget_reads();
    if ctx.cfg.is(f::attention_backend, "intel_amx") && ctx.cfg.is(f::device, "cpu") {
        // torch.cpu._is_amx_tile_supported(): the carried CPU profile has no AMX.
        let fixes = vec![ctx.fix_set("Use --attention-backend torch_native", f::attention_backend, "torch_native", Applicability::Safe)];
        ctx.warn(&INTEL_AMX_FALLBACK, &[], &[f::attention_backend], fixes);
        ctx.cfg.set(f::attention_backend, PyValue::Str("torch_native".into()));
    } else if ctx.cfg.is(f::attention_backend, "intel_xpu") && ctx.cfg.is(f::device, "xpu") {
        // xpu_has_xmx_support(): an XPU's facts, not carried here.
        ctx.cfg.set_unknown(f::attention_backend, PyValue::Str("intel_xpu".into()));
    }

    // XPU decode context parallelism (_check_xpu_dcp) runs on Intel XPU only: no carried profile.

    // 0.5.18: intel_xpu runs MLA models for decode only (the rule applies where the release has
    // the check).
    ctx.cfg.forget_reads();
    if INTEL_XPU_MLA_PREFILL.applies_to(ctx.release) {
        let prefill = side(ctx, f::prefill_attention_backend);
        if side_is(ctx, &prefill, "intel_xpu") == Some(true) {
            const XPU_SITE: crate::release::SiteRef =
                site("attention_hook.handle_attention_backend_compatibility", "intel_xpu backend is only supported on decode for MLA models");
            let Some(is_mla) = ctx.model_fact(XPU_SITE, |m| m.derived.is_mla) else { return Ok(()) };
            if is_mla {
                let dest = if ctx.cfg.is(f::prefill_attention_backend, "intel_xpu") { f::prefill_attention_backend } else { f::attention_backend };
                let fixes = vec![ctx.fix_set("Prefill on triton", dest, "triton", Applicability::Unsafe)];
                ctx.raise(&INTEL_XPU_MLA_PREFILL, &[], &[dest], fixes)?;
            }
        }
    }

    // overrides._intel_xpu_page_constraint: the accepted sizes depend on MLA (the model).
    ctx.cfg.forget_reads();
    let (prefill, decode) = (side(ctx, f::prefill_attention_backend), side(ctx, f::decode_attention_backend));
    if any_of(&[side_is(ctx, &prefill, "intel_xpu"), side_is(ctx, &decode, "intel_xpu")]) == Some(true) {
        let page = ctx.cfg.get(f::page_size).clone();
        if !matches!(page.as_int(), Some(64 | 128)) {
            ctx.cfg.set_unknown(f::page_size, page);
        }
    }

    // 0.5.18: overrides._attention_backend_dual_chunk raises for a model whose config has
    // `dual_chunk_attention_config` (Qwen's 1M-context checkpoints) unless the backend is
    // dual_chunk_flash_attn: a config key the model facts do not carry, so not replayed here.
    // Then the dual-chunk backend turns mixed chunked prefill and the radix cache off.
    ctx.cfg.forget_reads();
    if DUAL_CHUNK_DISABLES.applies_to(ctx.release) && ctx.cfg.is(f::attention_backend, "dual_chunk_flash_attn") {
        let mut fixes = vec![];
        if ctx.cfg.truthy(f::enable_mixed_chunk) {
            fixes.push(ctx.fix_remove("Remove --enable-mixed-chunk", f::enable_mixed_chunk, Applicability::Safe));
        }
        if !ctx.cfg.truthy(f::disable_radix_cache) {
            fixes.push(ctx.fix_add_flag("Add --disable-radix-cache", f::disable_radix_cache, Applicability::Safe));
        }
        ctx.warn(&DUAL_CHUNK_DISABLES, &[], &[f::attention_backend], fixes);
        ctx.cfg.set(f::enable_mixed_chunk, PyValue::Bool(false));
        ctx.cfg.set(f::disable_radix_cache, PyValue::Bool(true));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_linear_attn_backend
// ---------------------------------------------------------------------------------------------

/// `torch.cuda.get_device_capability()[0] >= 10` on CUDA.
fn cuda_sm100_plus(ctx: &Ctx) -> bool {
    ctx.hw.is_cuda() && ctx.hw.capability.0 >= 10
}

/// `attention_hook.handle_linear_attn_backend`.
pub fn handle_linear_attn_backend(ctx: &mut Ctx) -> Step {
    if ctx.cfg.is_none(f::linear_attn_decode_backend)
        && !ctx.cfg.is(f::linear_attn_backend, "helion")
        && is_sm100(ctx.hw)
        && ctx.cfg.is(f::mamba_ssm_dtype, "bfloat16")
    {
        ctx.cfg.set(f::linear_attn_decode_backend, PyValue::Str("flashinfer".into()));
    }
    ctx.cfg.forget_reads();
    let mut decode = opt_str(ctx, f::linear_attn_decode_backend).filter(|s| !s.is_empty()).or_else(|| opt_str(ctx, f::linear_attn_backend));
    let dtype = opt_str(ctx, f::mamba_ssm_dtype);
    let dtype_repr = opt_repr(&dtype);
    if decode.as_deref() == Some("flashkda") {
        if ctx.cfg.is(f::linear_attn_decode_backend, "flashkda") {
            let fixes = vec![ctx.fix_set(
                "Decode on triton (FlashKDA has no decode kernel)",
                f::linear_attn_decode_backend,
                "triton",
                Applicability::Safe,
            )];
            ctx.raise(&FLASHKDA_DECODE, &[], &[f::linear_attn_decode_backend], fixes)?;
        }
        ctx.cfg.set(f::linear_attn_decode_backend, PyValue::Str("triton".into()));
        decode = Some("triton".into());
    }
    let bf16_fix = |ctx: &Ctx| vec![ctx.fix_set("Use --mamba-ssm-dtype bfloat16", f::mamba_ssm_dtype, "bfloat16", Applicability::Unsafe)];
    if decode.as_deref() == Some("flashinfer") && dtype.as_deref() != Some("bfloat16") && cuda_sm100_plus(ctx) {
        let fixes = bf16_fix(ctx);
        ctx.raise(
            &LINEAR_DECODE_FLASHINFER_BF16,
            &[("cfg.mamba_ssm_dtype", &dtype_repr)],
            &[f::linear_attn_decode_backend, f::linear_attn_backend, f::mamba_ssm_dtype],
            fixes,
        )?;
    }
    let mut verify = opt_str(ctx, f::linear_attn_verify_backend);
    if verify.is_none() && decode.as_deref() == Some("flashinfer") {
        verify = Some("flashinfer".into());
    }
    const VERIFY_SITE: crate::release::SiteRef = site("attention_hook.handle_linear_attn_backend", "--linear-attn-verify-backend flashinfer on SM100+");
    // 0.5.18 has no PP-spec fallback of a KDA model's verify to triton
    let pp_spec_kda = env_bool(ctx, "SGLANG_ENABLE_PP_SPEC") && verify.as_deref() == Some("flashinfer") && !ctx.release.data.before_hook_modules();
    if pp_spec_kda {
        // uses_kda_attention(hf_config): a KDA model's verify falls back to triton.
        if cuda_sm100_plus(ctx) && dtype.as_deref() != Some("bfloat16") {
            ctx.model_config(VERIFY_SITE);
        }
    } else if verify.as_deref() == Some("flashinfer") && dtype.as_deref() != Some("bfloat16") && cuda_sm100_plus(ctx) {
        let fixes = bf16_fix(ctx);
        ctx.raise(
            &LINEAR_VERIFY_FLASHINFER_BF16,
            &[("cfg.mamba_ssm_dtype", &dtype_repr)],
            &[f::linear_attn_verify_backend, f::mamba_ssm_dtype],
            fixes,
        )?;
    }
    // `--linear-attn-prefill-backend flashinfer on SM100+ requires CUDA 13+`: every carried CUDA
    // profile has CUDA 13.

    if ctx.cfg.truthy(f::enable_linear_replayssm) {
        if !matches!(decode.as_deref(), Some("triton" | "helion")) {
            let shown = opt_repr(&decode);
            let dest = if ctx.cfg.is_explicit(f::linear_attn_decode_backend) { f::linear_attn_decode_backend } else { f::linear_attn_backend };
            let fixes = vec![ctx.fix_set(format!("Use {} triton", ctx.flag(dest)), dest, "triton", Applicability::Unsafe)];
            ctx.raise(&REPLAYSSM_DECODE, &[("decode", &shown)], &[dest, f::enable_linear_replayssm], fixes)?;
        }
        // mamba_extra_buffer_of: the radix cache on and an extra-buffer strategy. An explicit
        // strategy stays as given; `auto` stays `auto` for a model without the Mamba radix cache,
        // and is resolved from the model otherwise (_mamba_radix_cache_resolution, not here).
        let strategy = opt_str(ctx, f::mamba_radix_cache_strategy);
        let radix_off = ctx.cfg.truthy(f::disable_radix_cache);
        let extra_buffer_site = site("attention_hook.handle_linear_attn_backend", "--enable-linear-replayssm requires --mamba-radix-cache-strategy");
        if !radix_off && !ctx.cfg.is_unknown(f::mamba_radix_cache_strategy) {
            match strategy.as_deref() {
                Some("extra_buffer" | "extra_buffer_lazy") => {
                    let shown = opt_repr(&strategy);
                    // A message that reads the field itself (`self.`), not the resolving view,
                    // shows it before the declarations not yet materialized (an `auto` resolved
                    // by the Mamba radix-cache pass).
                    let field_itself = ctx.cfg.undeclared(f::mamba_radix_cache_strategy).repr();
                    // no_buffer runs without the overlap schedule (mamba_hook.validate_mamba_no_buffer)
                    let mut edits = ctx.fix_set("", f::mamba_radix_cache_strategy, "no_buffer", Applicability::Unsafe).edits;
                    if !ctx.cfg.truthy(f::disable_overlap_schedule) {
                        edits.extend(ctx.fix_add_flag("", f::disable_overlap_schedule, Applicability::Unsafe).edits);
                    }
                    let title = "Use --mamba-radix-cache-strategy no_buffer (with --disable-overlap-schedule)";
                    let fixes = if edits.is_empty() {
                        vec![crate::diagnostic::Fix::advice(title)]
                    } else {
                        vec![crate::diagnostic::Fix { title: title.into(), applicability: Applicability::Unsafe, edits }]
                    };
                    let args: &super::Args = &[("cfg.mamba_radix_cache_strategy", &shown), ("self.mamba_radix_cache_strategy", &field_itself)];
                    ctx.raise(&REPLAYSSM_EXTRA_BUFFER, args, &[f::mamba_radix_cache_strategy, f::enable_linear_replayssm], fixes)?;
                }
                // Without the Mamba radix cache `auto` stays `auto`; with it, what it resolves to
                // is not modelled here.
                Some("auto") if ctx.model.as_ref().and_then(|m| m.computed).and_then(|c| c.uses_mamba_radix_cache) != Some(false) => {
                    let reason = match ctx.model.as_ref().and_then(|m| m.computed).and_then(|c| c.uses_mamba_radix_cache) {
                        Some(true) => crate::rules::NotRunReason::NotImplemented,
                        _ => crate::rules::NotRunReason::ModelConfig,
                    };
                    ctx.skip(extra_buffer_site, reason);
                    return Ok(());
                }
                _ => {}
            }
        } else if !radix_off {
            ctx.skip(extra_buffer_site, crate::rules::NotRunReason::ModelConfig);
            return Ok(());
        }
        if !ctx.cfg.is(f::disaggregation_mode, "null") {
            let shown = opt_repr(&opt_str(ctx, f::disaggregation_mode));
            let fixes = vec![ctx.fix_remove("Remove --enable-linear-replayssm", f::enable_linear_replayssm, Applicability::Unsafe)];
            ctx.raise(&REPLAYSSM_PD, &[("cfg.disaggregation_mode", &shown)], &[f::disaggregation_mode, f::enable_linear_replayssm], fixes)?;
        }
        let len = ctx.cfg.int(f::linear_replayssm_cache_len).unwrap_or(16);
        if len < 1 {
            let fixes = vec![ctx.fix_set("Use --linear-replayssm-cache-len 16", f::linear_replayssm_cache_len, "16", Applicability::Safe)];
            ctx.raise(&REPLAYSSM_CACHE_LEN, &[("cfg.linear_replayssm_cache_len", &len)], &[f::linear_replayssm_cache_len], fixes)?;
        }
    }

    if ctx.cfg.truthy(f::enable_linear_replayssm_spec) {
        let topk = ctx.cfg.get(f::speculative_eagle_topk).clone();
        if !matches!(topk, PyValue::None | PyValue::Int(1)) {
            let fixes = vec![ctx.fix_set("Use --speculative-eagle-topk 1", f::speculative_eagle_topk, "1", Applicability::Unsafe)];
            ctx.raise(&REPLAYSSM_SPEC_TOPK, &[("cfg.speculative_eagle_topk", &topk.repr())], &[f::speculative_eagle_topk], fixes)?;
        }
        if !matches!(decode.as_deref(), Some("triton" | "flashinfer")) {
            let shown = opt_repr(&decode);
            let dest = if ctx.cfg.is_explicit(f::linear_attn_decode_backend) { f::linear_attn_decode_backend } else { f::linear_attn_backend };
            let fixes = vec![ctx.fix_set(format!("Use {} triton", ctx.flag(dest)), dest, "triton", Applicability::Unsafe)];
            ctx.raise(&REPLAYSSM_SPEC_DECODE, &[("decode", &shown)], &[dest, f::enable_linear_replayssm_spec], fixes)?;
        }
        let mode = ctx.env("SGLANG_RAGGED_VERIFY_MODE").unwrap_or("static").to_string();
        if !matches!(mode.as_str(), "static" | "cap-accept" | "compact") {
            // read_ragged_verify_mode raises its own ValueError (no listed site).
            ctx.skip_unlisted("speculative.ragged_verify.read_ragged_verify_mode", crate::rules::NotRunReason::NotImplemented);
            return Ok(());
        }
        if mode != "static" {
            let algo = opt_str(ctx, f::speculative_algorithm);
            let algo_upper = algo.clone().unwrap_or_default().to_uppercase();
            let verify_raw = opt_str(ctx, f::linear_attn_verify_backend);
            if !matches!(algo_upper.as_str(), "DSPARK" | "DFLASH") || !matches!(verify_raw.as_deref(), Some("triton" | "nv_cutedsl")) {
                let (algo_shown, verify_shown) = (opt_repr(&algo), opt_repr(&verify_raw));
                ctx.raise(
                    &REPLAYSSM_SPEC_RAGGED,
                    &[("ragged_mode.value", &mode), ("cfg.speculative_algorithm", &algo_shown), ("verify", &verify_shown)],
                    &[f::enable_linear_replayssm_spec, f::speculative_algorithm, f::linear_attn_verify_backend],
                    vec![
                        // the static layout (the default) works with every algorithm
                        ctx.fix_unset_env("Unset SGLANG_RAGGED_VERIFY_MODE (static verify)", "SGLANG_RAGGED_VERIFY_MODE", Applicability::Unsafe),
                        ctx.fix_remove("Remove --enable-linear-replayssm-spec", f::enable_linear_replayssm_spec, Applicability::Unsafe),
                    ],
                )?;
            }
        }
        if ctx.cfg.is(f::disaggregation_mode, "prefill") {
            let fixes = vec![ctx.fix_remove("Remove --enable-linear-replayssm-spec", f::enable_linear_replayssm_spec, Applicability::Safe)];
            ctx.raise(&REPLAYSSM_SPEC_PREFILL, &[], &[f::enable_linear_replayssm_spec, f::disaggregation_mode], fixes)?;
        }
        if ctx.cfg.truthy(f::enable_linear_replayssm) {
            let fixes = vec![ctx.fix_remove("Remove --enable-linear-replayssm", f::enable_linear_replayssm, Applicability::Unsafe)];
            ctx.raise(&REPLAYSSM_EXCLUSIVE, &[], &[f::enable_linear_replayssm, f::enable_linear_replayssm_spec], fixes)?;
        }
        match dtype.as_deref() {
            None => ctx.cfg.set(f::mamba_ssm_dtype, PyValue::Str("float32".into())),
            Some("float32") => {}
            Some(d) => {
                let fixes = vec![ctx.fix_set("Use --mamba-ssm-dtype float32", f::mamba_ssm_dtype, "float32", Applicability::Unsafe)];
                let d = d.to_string();
                ctx.warn(&REPLAYSSM_SPEC_DTYPE, &[("cfg.mamba_ssm_dtype", &d)], &[f::mamba_ssm_dtype], fixes);
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// overrides._page_size_default
// ---------------------------------------------------------------------------------------------

/// `overrides._page_size_default`: 64 on ROCm with `SGLANG_AITER_KV_CACHE_LAYOUT=vectorized_5d`,
/// else 1 (64 on MUSA, not carried).
pub fn page_size_default(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.is_none(f::page_size) {
        return Ok(());
    }
    let layout = ctx.env("SGLANG_AITER_KV_CACHE_LAYOUT").unwrap_or("nhd").to_lowercase();
    let page = if ctx.hw.is_hip() && layout == "vectorized_5d" { 64 } else { 1 };
    ctx.cfg.set(f::page_size, PyValue::Int(page));
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_multi_item_scoring
// ---------------------------------------------------------------------------------------------

/// `attention_hook.handle_multi_item_scoring`.
pub fn handle_multi_item_scoring(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.truthy(f::enable_mis) {
        return Ok(());
    }
    if phase_backend(ctx, "decode").as_deref() != Some("disabled") {
        let fixes = vec![ctx.fix_set("Write --cuda-graph-backend-decode disabled", f::cuda_graph_backend_decode, "disabled", Applicability::Safe)];
        ctx.warn(&MIS_CUDA_GRAPH, &[], &[f::enable_mis], fixes);
    }
    with_phase(ctx, "decode", "backend", PyValue::Str("disabled".into()));
    with_phase(ctx, "prefill", "backend", PyValue::Str("disabled".into()));
    ctx.cfg.forget_reads();
    if !ctx.cfg.truthy(f::disable_radix_cache) {
        let fixes = vec![ctx.fix_add_flag("Add --disable-radix-cache", f::disable_radix_cache, Applicability::Safe)];
        ctx.warn(&MIS_RADIX, &[], &[f::enable_mis], fixes);
        ctx.cfg.set(f::disable_radix_cache, PyValue::Bool(true));
    }
    ctx.cfg.forget_reads();
    if ctx.cfg.int(f::chunked_prefill_size) != Some(-1) {
        let fixes = vec![ctx.fix_set("Use --chunked-prefill-size -1", f::chunked_prefill_size, "-1", Applicability::Safe)];
        ctx.warn(&MIS_CHUNKED_PREFILL, &[], &[f::enable_mis, f::chunked_prefill_size], fixes);
        ctx.cfg.set(f::chunked_prefill_size, PyValue::Int(-1));
    }
    ctx.cfg.forget_reads();
    let Some((prefill, decode)) = known_backends(ctx) else {
        // a side is the model's default backend
        ctx.model_config(site("attention_hook.handle_multi_item_scoring", "Multi-item scoring requires flashinfer"));
        return Ok(());
    };
    if prefill.as_deref() != Some("flashinfer") || decode.as_deref() != Some("flashinfer") {
        let mut fixes = vec![];
        if !ctx.cfg.is_explicit(f::prefill_attention_backend) && !ctx.cfg.is_explicit(f::decode_attention_backend) {
            fixes.push(ctx.fix_set("Use --attention-backend flashinfer", f::attention_backend, "flashinfer", Applicability::Safe));
        }
        let (p, d) = (opt_display(&prefill), opt_display(&decode));
        ctx.raise(
            &MIS_FLASHINFER,
            &[("prefill_backend", &p), ("decode_backend", &d)],
            &[f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend, f::enable_mis],
            fixes,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_constraints_chain() {
        let (p, w) = mla_page_constraints(Some("trtllm_mha"), None, None, None, &PyValue::None, (false, false));
        assert_eq!(p, PyValue::Int(64));
        assert_eq!(w.len(), 1);
        let (p, w) = mla_page_constraints(Some("flashmla"), None, None, None, &PyValue::Int(64), (false, false));
        assert_eq!(p, PyValue::Int(64));
        assert_eq!(w.len(), 1);
        let (p, w) = mla_page_constraints(Some("fa3"), None, None, None, &PyValue::None, (false, false));
        assert_eq!(p, PyValue::None);
        assert!(w.is_empty());
    }
}
