//! SGLang's `sglang/srt/arg_groups/model_hook.py`: `handle_model_specific_adjustments`,
//! `handle_model_capability_adjustments` and `handle_mamba_radix_cache`, the per-architecture
//! adjustments and checks.
//!
//! With the model's facts (catalog, a given config) the checks keyed on the architecture, DSA and
//! a few config values run: the DSA cache-layer split and prefill CP checks, the CP decode
//! attention TP architectures, DSA index-topk sharing with TBO, the attention backends GptOss,
//! Llama 4 and Gemma 4 accept, Olmo 2's FlashInfer refusal, EXAONE's sliding-window backends (when
//! the config writes its `sliding_window_pattern`), GptOss's triton_kernel MoE with EP, the
//! DeepSeek-V4.1-only flag and an explicit Mamba cache strategy on a model without Mamba state. Without the facts each check
//! the command's flags reach is listed as not run. The values the hooks derive from the model
//! (the model override providers: attention backends, page size, dtype, MoE runner ...; the
//! DeepSeek / Kimi / DeepSeek-V4 defaults; the post-process passes) are not replayed, so both
//! hooks still count as not modelled on every path past the instance-connector return.


pub mod kimi_k3_hook;
pub mod mamba_hook;
pub mod deepseek_v4_hook;
pub mod overrides;

use super::{raises, raises_nth, Args, Ctx, NotRunReason, Rule};
use crate::diagnostic::Applicability;
use crate::fields::{f, Field};
use crate::pyvalue::{str_repr, PyValue};
use crate::rules::shared::model_override_base;
use crate::rules::{site, site_nth, Step};

/// (Sites are named by literal strings: `build.rs` reads them to embed their release data.)
const HOOK: &str = "model_hook.handle_model_specific_adjustments";
const CAPABILITY_HOOK: &str = "model_hook.handle_model_capability_adjustments";

pub static LAYER_SPLIT_NEEDS_DSA: Rule = Rule {
    code: "MH001",
    name: kebab!("dsa-cache-layer-split-needs-dsa-model"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is only supported for DSA"),
    explanation: expl!("--enable-dsa-cache-layer-split splits the DeepSeek Sparse Attention (DSA) indexer cache across prefill context-parallel ranks; a model without DSA (no index_topk, or an architecture SGLang does not run with DSA) has no such cache, so SGLang refuses the flag."),
    flags: &["--enable-dsa-cache-layer-split"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --enable-dsa-cache-layer-split"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3"),
};

pub static CP_DECODE_ATTN_TP_ARCH: Rule = Rule {
    code: "MH002",
    name: kebab!("cp-decode-attn-tp-unsupported-architecture"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "--enable-cp-decode-attn-tp is only supported for models"),
    explanation: expl!("--enable-cp-decode-attn-tp runs decode attention with tensor parallelism inside the context-parallel group, which needs attention weights replicated across CP ranks; SGLang has this only for the DeepSeek-V4 and GLM-5 (DSA) architectures it lists."),
    flags: &["--enable-cp-decode-attn-tp"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --enable-cp-decode-attn-tp"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3"),
};

pub static DSA_TBO_INDEX_SHARING: Rule = Rule {
    code: "MH003",
    name: kebab!("two-batch-overlap-with-dsa-index-sharing"),
    sglang: raises("model_hook._validate_dsa_tbo_index_sharing", "--enable-two-batch-overlap is not supported with DSA"),
    explanation: expl!("This DSA model shares its top-k indices between layers (index_topk_freq above 1, an S in index_topk_pattern, or shared indexer layers). Two-batch overlap's op path does not carry the indices from one layer to the next, so SGLang refuses --enable-two-batch-overlap for it."),
    flags: &["--enable-two-batch-overlap"],
    example_bad: ex!("--model-path zai-org/GLM-5.2-FP8 --tp-size 8 --enable-two-batch-overlap"),
    example_good: ex!("--model-path zai-org/GLM-5.2-FP8 --tp-size 8"),
};

pub static DSA_PREFILL_CP_ON_DECODE: Rule = Rule {
    code: "MH004",
    name: kebab!("dsa-prefill-cp-on-decode-worker"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "CP is only supported for prefill when PD disaggregation"),
    explanation: expl!("For a DSA model, prefill context parallelism (--enable-prefill-cp) is for prefill work; a PD decode worker does no prefill, so SGLang rejects the flag there."),
    flags: &["--enable-prefill-cp", "--disaggregation-mode"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --enable-prefill-cp --disaggregation-mode decode"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --disaggregation-mode decode"),
};

pub static LAYER_SPLIT_ON_DECODE: Rule = Rule {
    code: "MH005",
    name: kebab!("dsa-cache-layer-split-on-decode-worker"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is not supported on decode workers."),
    explanation: expl!("The DSA cache-layer split is a prefill context-parallel optimization; a PD decode worker receives whole cache shards from prefill, so SGLang rejects the flag on decode workers."),
    flags: &["--enable-dsa-cache-layer-split", "--disaggregation-mode"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-dsa-cache-layer-split --disaggregation-mode decode"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --disaggregation-mode decode"),
};

pub static LAYER_SPLIT_NOT_PD_PREFILL: Rule = Rule {
    code: "MH006",
    name: kebab!("dsa-cache-layer-split-needs-pd-prefill"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is only supported on PD prefill"),
    explanation: expl!("The DSA cache-layer split leaves each rank with part of the cache; a server that is not a PD prefill worker also decodes and needs the whole local cache, so SGLang accepts the flag only with --disaggregation-mode prefill."),
    flags: &["--enable-dsa-cache-layer-split", "--disaggregation-mode"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-dsa-cache-layer-split"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2"),
};

pub static LAYER_SPLIT_NEEDS_INTERLEAVED_CP: Rule = Rule {
    code: "MH007",
    name: kebab!("dsa-cache-layer-split-needs-interleaved-prefill-cp"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split requires --enable-prefill-cp"),
    explanation: expl!("The DSA cache-layer split distributes layers over the prefill context-parallel ranks of the interleave strategy; without --enable-prefill-cp and --cp-strategy interleave there is nothing to split over."),
    flags: &["--enable-dsa-cache-layer-split", "--enable-prefill-cp", "--cp-strategy"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-dsa-cache-layer-split --disaggregation-mode prefill"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --disaggregation-mode prefill"),
};

pub static LAYER_SPLIT_NEEDS_MOONCAKE: Rule = Rule {
    code: "MH008",
    name: kebab!("dsa-cache-layer-split-needs-mooncake"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split currently only supports"),
    explanation: expl!("The DSA cache-layer split relies on Mooncake's transfer from every CP rank to the decode worker; SGLang does not have it for the other transfer backends yet."),
    flags: &["--enable-dsa-cache-layer-split", "--disaggregation-transfer-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-dsa-cache-layer-split --disaggregation-mode prefill --enable-prefill-cp --cp-strategy interleave --tp-size 8 --attn-cp-size 8 --disaggregation-transfer-backend nixl"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-dsa-cache-layer-split --disaggregation-mode prefill --enable-prefill-cp --cp-strategy interleave --tp-size 8 --attn-cp-size 8 --disaggregation-transfer-backend mooncake"),
};

pub static LAYER_SPLIT_WITH_PP: Rule = Rule {
    code: "MH009",
    name: kebab!("dsa-cache-layer-split-with-pipeline-parallelism"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is not supported with pipeline"),
    explanation: expl!("The DSA cache-layer split needs prefill context parallelism, and context parallelism with pipeline parallelism has not been validated for it, so SGLang refuses --pp-size above 1 with the flag."),
    flags: &["--enable-dsa-cache-layer-split", "--pp-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-dsa-cache-layer-split --disaggregation-mode prefill --enable-prefill-cp --cp-strategy interleave --tp-size 8 --attn-cp-size 8 --pp-size 2"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --enable-dsa-cache-layer-split --disaggregation-mode prefill --enable-prefill-cp --cp-strategy interleave --tp-size 8 --attn-cp-size 8"),
};

pub static GPT_OSS_ATTENTION_BACKEND: Rule = Rule {
    code: "MH010",
    name: kebab!("gpt-oss-attention-backend"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "GptOssForCausalLM requires one of {supported_backends}"),
    explanation: expl!("gpt-oss uses sliding-window attention with attention sinks, which only some attention backends implement; SGLang checks the prefill and the decode backend (a split backend falls back to --attention-backend, which SGLang picks itself for gpt-oss when none of the three is given)."),
    flags: &["--attention-backend", "--prefill-attention-backend", "--decode-attention-backend"],
    example_bad: ex!("--model-path openai/gpt-oss-20b --attention-backend flashinfer"),
    example_good: ex!("--model-path openai/gpt-oss-20b --attention-backend triton"),
};

pub static TRITON_KERNEL_MOE_EP: Rule = Rule {
    code: "MH011",
    name: kebab!("gpt-oss-triton-kernel-moe-needs-ep-1"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "Triton kernel MoE is only supported when ep_size == 1"),
    explanation: expl!("For gpt-oss, the triton_kernel MoE runner (the triton_kernels package) runs without expert parallelism only."),
    flags: &["--moe-runner-backend", "--ep-size"],
    example_bad: ex!("--model-path openai/gpt-oss-20b --attention-backend triton --moe-runner-backend triton_kernel --tp-size 2 --ep-size 2"),
    example_good: ex!("--model-path openai/gpt-oss-20b --attention-backend triton --moe-runner-backend triton_kernel --tp-size 2"),
};

pub static LLAMA4_ATTENTION_BACKEND: Rule = Rule {
    code: "MH012",
    name: kebab!("llama4-attention-backend"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "fa3, aiter, triton, ascend, trtllm_mha or intel_xpu is required for Llama4"),
    explanation: expl!("Llama 4's chunked local attention is implemented by a few attention backends only; SGLang checks --attention-backend (it picks one of them itself when it is not given; a CPU device is exempt)."),
    flags: &["--attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-4-Scout-17B-16E-Instruct --attention-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-4-Scout-17B-16E-Instruct --attention-backend triton"),
};

pub static GEMMA4_ATTENTION_BACKEND: Rule = Rule {
    code: "MH013",
    name: kebab!("gemma4-attention-backend"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "Gemma4 only supports"),
    explanation: expl!("Gemma 4 runs only on the attention backends SGLang lists for it; SGLang checks the prefill and the decode backend (a split backend falls back to --attention-backend, which SGLang fills with triton, or trtllm_mha on SM100, when it is not given)."),
    flags: &["--attention-backend", "--prefill-attention-backend", "--decode-attention-backend"],
    example_bad: ex!("--model-path google/gemma-4-31B-it --attention-backend fa3"),
    example_good: ex!("--model-path google/gemma-4-31B-it --attention-backend triton"),
};

pub static ENCODER_SWA_REPLAY_NEEDS_V41: Rule = Rule {
    code: "MH014",
    name: kebab!("encoder-swa-bounded-replay-needs-deepseek-v4-1"),
    sglang: raises("model_hook.handle_model_capability_adjustments", "--enable-encoder-swa-bounded-replay requires DeepSeek-V4.1"),
    explanation: expl!("--enable-encoder-swa-bounded-replay bounds the replay of DeepSeek-V4.1's encoder sliding-window cache; only a DeepSeek-V4.1 config (model_type deepseek_v41) takes it."),
    flags: &["--enable-encoder-swa-bounded-replay"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --enable-encoder-swa-bounded-replay"),
    example_good: ex!("--model-path Qwen/Qwen3-8B"),
};

pub static MAMBA_STRATEGY_NEEDS_MAMBA: Rule = Rule {
    code: "MH015",
    name: kebab!("mamba-radix-cache-strategy-needs-mamba-model"),
    sglang: raises_nth("model_hook.handle_mamba_radix_cache", "--mamba-radix-cache-strategy", 0),
    explanation: expl!("An extra-buffer Mamba radix cache strategy arms the Mamba state paths; a model without Mamba (linear attention) layers has no Mamba state, and SGLang refuses rather than crash at the first prefill."),
    flags: &["--mamba-radix-cache-strategy"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --mamba-radix-cache-strategy extra_buffer"),
    example_good: ex!("--model-path Qwen/Qwen3-8B"),
};

pub static OLMO2_FLASHINFER: Rule = Rule {
    code: "MH016",
    name: kebab!("olmo2-flashinfer-attention-backend"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "FlashInfer backend can significantly degrade"),
    explanation: expl!("SGLang refuses the FlashInfer attention backend for the Olmo2ForCausalLM architecture (Olmo 2 and Olmo 3 checkpoints): with Olmo 3's sliding-window layers it degrades performance. When --attention-backend is not given, SGLang picks trtllm_mha (SM100), fa3 (SM80 and newer) or triton for it."),
    flags: &["--attention-backend"],
    example_bad: ex!("--model-path allenai/OLMo-2-1124-7B --attention-backend flashinfer"),
    example_good: ex!("--model-path allenai/OLMo-2-1124-7B --attention-backend triton"),
};

pub static EXAONE_ATTENTION_BACKEND: Rule = Rule {
    code: "MH017",
    name: kebab!("exaone-sliding-window-attention-backend"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "One of the attention backends in {accepted_backends}"),
    explanation: expl!("An EXAONE 4 / EXAONE MoE config with a sliding_window_pattern interleaves sliding-window and global attention layers, which SGLang runs on fa3, triton and trtllm_mha only. When --attention-backend is not given, SGLang picks one of them itself."),
    flags: &["--attention-backend"],
    example_bad: ex!("--model-path LGAI-EXAONE/EXAONE-4.0-32B --attention-backend flashinfer"),
    example_good: ex!("--model-path LGAI-EXAONE/EXAONE-4.0-32B --attention-backend triton"),
};

pub static NEMOTRON_H_TRITON: Rule = Rule {
    code: "MH105",
    name: kebab!("nemotron-h-triton-attention-backend"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "NemotronHForCausalLM does not support triton attention backend"),
    explanation: expl!("NemotronH is a hybrid Mamba model whose first layer may be a Mamba layer rather than an attention layer, which SGLang 0.5.18's triton attention backend does not handle, so it refuses --attention-backend triton for NemotronH checkpoints (Nemotron-H, Nemotron 3 Nano / Super / Ultra). Leave --attention-backend out (SGLang picks flashinfer on SM100) or choose another backend."),
    flags: &["--attention-backend"],
    // (examples are checked on 0.5.23, whose hook no longer refuses triton for NemotronH)
    example_bad: ex!(""),
    example_good: ex!("--model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --attention-backend flashinfer"),
};

pub static DSA_TBO_INDEX_SHARING_IN_HOOK: Rule = Rule {
    code: "MH107",
    name: kebab!("two-batch-overlap-with-dsa-index-sharing-0-5-18"),
    sglang: raises("model_hook.handle_model_specific_adjustments", "--enable-two-batch-overlap is not supported with DSA"),
    explanation: expl!("This DSA model shares its top-k indices between layers (index_topk_freq above 1, or an S in index_topk_pattern). Two-batch overlap's op path does not carry the indices from one layer to the next, so SGLang 0.5.18 refuses --enable-two-batch-overlap for it (in its DeepSeek branch; later releases also count shared indexer layers, MH003)."),
    flags: &["--enable-two-batch-overlap"],
    // (examples are checked on 0.5.23, where the check is MH003's)
    example_bad: ex!(""),
    example_good: ex!("--model-path zai-org/GLM-5.2-FP8 --tp-size 8"),
};

pub static DSA_TILELANG_FP8_KV_ON_CUDA: Rule = Rule {
    code: "MH109",
    name: kebab!("dsa-tilelang-fp8-kv-on-cuda"),
    sglang: raises("overrides._check_tilelang_dsa_fp8_kv", "The tilelang DSA prefill/decode kernels only support an fp8_e4m3 KV"),
    explanation: expl!("In SGLang 0.5.18 the TileLang DSA kernels read an FP8 KV cache only on ROCm; their CUDA kernels are written for a bfloat16 KV cache, so an fp8_e4m3 KV cache with tilelang as the DSA prefill or decode backend is refused on CUDA (later releases take it with both phases on tilelang, OVR007). Use --kv-cache-dtype bfloat16 with tilelang, or keep fp8_e4m3 with an FP8-capable DSA backend (flashmla_kv on Hopper, trtllm on Blackwell: SGLang picks one when the DSA backend flags are left out)."),
    flags: &["--kv-cache-dtype", "--dsa-prefill-backend", "--dsa-decode-backend"],
    // (examples are checked on 0.5.23, which has no such check)
    example_bad: ex!(""),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3.2 --tp-size 8 --kv-cache-dtype fp8_e4m3"),
};

pub static RULES: &[&Rule] = &[
    &LAYER_SPLIT_NEEDS_DSA,
    &CP_DECODE_ATTN_TP_ARCH,
    &DSA_TBO_INDEX_SHARING,
    &DSA_PREFILL_CP_ON_DECODE,
    &LAYER_SPLIT_ON_DECODE,
    &LAYER_SPLIT_NOT_PD_PREFILL,
    &LAYER_SPLIT_NEEDS_INTERLEAVED_CP,
    &LAYER_SPLIT_NEEDS_MOONCAKE,
    &LAYER_SPLIT_WITH_PP,
    &GPT_OSS_ATTENTION_BACKEND,
    &TRITON_KERNEL_MOE_EP,
    &LLAMA4_ATTENTION_BACKEND,
    &GEMMA4_ATTENTION_BACKEND,
    &ENCODER_SWA_REPLAY_NEEDS_V41,
    &MAMBA_STRATEGY_NEEDS_MAMBA,
    &OLMO2_FLASHINFER,
    &EXAONE_ATTENTION_BACKEND,
    &NEMOTRON_H_TRITON,
    &DSA_TBO_INDEX_SHARING_IN_HOOK,
    &DSA_TILELANG_FP8_KV_ON_CUDA,
];

/// Whether `arch` takes the model-specific step's DeepSeek-family branch in the checked release
/// (its `model-lists.json`, read from its source; `overrides._DEEPSEEK_FAMILY_ARCHS` less
/// Longcat's NextN draft in 0.5.23).
fn in_deepseek_family_branch(ctx: &Ctx, arch: &str) -> bool {
    ctx.release.model_lists().is_some_and(|l| l.deepseek_family_hook_architectures.iter().any(|a| a == arch))
}

/// The attention backends the model-specific step's branch for `arch` accepts (GptOss's
/// `supported_backends`, Gemma 4's and EXAONE's `accepted_backends`, Llama 4's set), in SGLang's
/// order (the messages print them), from the release's generated lists; empty where they are
/// not carried.
fn branch_backends(ctx: &Ctx, arch: &str) -> &'static [String] {
    ctx.release.model_lists().and_then(|l| l.model_branch_attention_backends.get(arch)).map(Vec::as_slice).unwrap_or_default()
}

/// `parse_connector_type(model_path) == ConnectorType.INSTANCE` (`re.match(r"(.+)://(.*)")`:
/// greedy, so the scheme is everything before the last `://` of the first line).
fn is_instance_connector(path: &str) -> bool {
    let line = path.split('\n').next().unwrap_or("");
    line.rfind("://").map(|i| line.get(..i) == Some("instance")).unwrap_or(false)
}


fn int(ctx: &Ctx, field: Field, default: i64) -> i64 {
    ctx.cfg.int(field).unwrap_or(default)
}

/// Python's `repr` of a list of strings.
fn py_list<S: AsRef<str>>(items: &[S]) -> String {
    let parts: Vec<String> = items.iter().map(|s| str_repr(s.as_ref())).collect();
    format!("[{}]", parts.join(", "))
}

/// A string field's value, as an f-string prints it (`None` when unset).
fn text_of(ctx: &Ctx, field: Field) -> Option<String> {
    ctx.cfg.str(field).filter(|s| !s.is_empty()).map(str::to_string)
}


fn shown(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("None")
}

/// `handle_model_specific_adjustments`.
pub fn handle_model_specific_adjustments(ctx: &mut Ctx) -> Step {
    if ctx.cfg.truthy(f::enable_deterministic_inference) {
        ctx.cfg.set(f::enforce_disable_flashinfer_allreduce_fusion, PyValue::Bool(true));
    }
    // (uses_mamba_radix_cache=False: not a flag's field.)
    if ctx.cfg.str(f::model_path).is_some_and(is_instance_connector) {
        return Ok(());
    }
    let mut path_modelled = specific_path_modelled(ctx);
    if !path_modelled {
        // The model override providers, the per-family defaults and some post-process passes
        // of this model are not replayed.
        ctx.not_modelled(HOOK);
    }
    let Some(model) = ctx.model else {
        unknown_model_checks(ctx);
        return Ok(());
    };
    let Some(arch) = model.architecture.map(str::to_string) else {
        unknown_model_checks(ctx);
        return Ok(());
    };
    let arch = arch.as_str();
    // (The NPU decode-context-parallel check: no hardware profile here is an NPU.)
    if arch == "InternS2MobiusForConditionalGeneration" && (int(ctx, f::pp_size, 1) != 1 || int(ctx, f::ep_size, 1) != 1) {
        ctx.skip(site("model_hook.handle_model_specific_adjustments", "Intern-S2-Mobius does not support:"), NotRunReason::NotImplemented);
        return Ok(());
    }
    if ctx.cfg.truthy(f::enable_dsa_cache_layer_split) {
        match ctx.model_fact(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is only supported for DSA"), |m| m.derived.is_dsa) {
            None => return Ok(()),
            Some(false) => {
                let fixes = vec![ctx.fix_remove("Remove --enable-dsa-cache-layer-split (the model has no DSA cache to split)", f::enable_dsa_cache_layer_split, Applicability::Safe)];
                ctx.raise(&LAYER_SPLIT_NEEDS_DSA, &[], &[f::enable_dsa_cache_layer_split], fixes)?;
            }
            Some(true) => {}
        }
    }
    if ctx.cfg.truthy(f::enable_cp_decode_attn_tp) {
        let supported = ctx.release.model_lists().map(|l| &l.cp_decode_attn_tp_supported_architectures).filter(|l| !l.is_empty());
        match supported {
            None => {
                ctx.skip(site("model_hook.handle_model_specific_adjustments", "--enable-cp-decode-attn-tp is only supported for models"), NotRunReason::NotImplemented);
                return Ok(());
            }
            Some(list) if !list.iter().any(|a| a == arch) => {
                let listed = py_list(list);
                let args: &Args = &[("model_arch", &arch), ("sorted(CP_DECODE_ATTN_TP_SUPPORTED_ARCHS)", &listed)];
                let fixes = vec![ctx.fix_remove("Remove --enable-cp-decode-attn-tp", f::enable_cp_decode_attn_tp, Applicability::Safe)];
                ctx.raise(&CP_DECODE_ATTN_TP_ARCH, args, &[f::enable_cp_decode_attn_tp], fixes)?;
            }
            Some(_) => {}
        }
    }
    // (A decision checkpoint, `Qwen3_5Model`, and the hybrid linear-attention models' Mamba
    // cache, and the Kimi / GLM-5-Next / DeepSeek-V4 defaults only assign values: not replayed,
    // the fields they may assign are reported as not known.)
    // The model override providers: what they declare, readers see from here on.
    // `_deepseek_family_overrides` checks before it declares.
    if overrides::deepseek_v2::registered_for(ctx.release, arch) {
        overrides::deepseek_v2::validate_deepseek_family_overrides(ctx, arch)?;
    }
    if let Some(provider) = overrides::modelled(ctx.release, arch) {
        match provider(ctx)? {
            Some(declared) => {
                for (field, value) in declared {
                    ctx.cfg.declare(field, value);
                }
            }
            None => {
                path_modelled = false;
                ctx.not_modelled(HOOK);
            }
        }
    }
    // Providers not replayed whose checks read the command's flags: not run where they could fire.
    match arch {
        "MiniCPMForCausalLM" | "MiniCPMSALAForCausalLM" => overrides::minicpm::checks_not_run(ctx),
        "Ernie4_5_VLMoeForConditionalGeneration" => overrides::ernie45_vl::checks_not_run(ctx),
        "MossVLForConditionalGeneration" => overrides::moss_vl::checks_not_run(ctx),
        "IQuestQ1ForCausalLM" | "IQuestQ1MTP" => overrides::iquest_q1::checks_not_run(ctx),
        "Qwen4ExpForConditionalGeneration" => overrides::qwen4_exp::checks_not_run(ctx),
        _ => {}
    }
    // The providers of a release before the hook modules (0.5.18's `overrides.py`) this build
    // does not replay whole: the attention backend they declare, where it is known (readers
    // from here on see it through the declaration stash).
    if ctx.release.data.before_hook_modules() && overrides::modelled(ctx.release, arch).is_none() {
        if let Some(Some(backend)) = crate::rules::shared::overrides::provider_attention_backend_0_5_18(ctx, arch) {
            ctx.cfg.set(f::attention_backend, PyValue::Str(backend.to_string()));
        }
    }
    if matches!(arch, "KimiLinearForCausalLM" | "KimiK3ForConditionalGeneration") {
        kimi_k3_hook::apply_kimi_k3_linear_attn_defaults(ctx);
        kimi_k3_hook::apply_kimi_k3_spec_backend_defaults(ctx);
    }
    if in_deepseek_family_branch(ctx, arch) {
        deepseek_family(ctx, arch, model.derived.is_dsa, model.raw)?;
    } else if arch == "DeepseekV4ForCausalLM" {
        // `apply_deepseek_v4_defaults` runs before the family branches, `validate_*` in this one:
        // nothing between them reads what they assign.
        match model.model_type {
            Some("deepseek_v4") => {
                if overrides::deepseek_v4::moe_runner_backend_undecided(ctx) {
                    ctx.cfg.mark_unknown(f::moe_runner_backend);
                }
                deepseek_v4_hook::apply_deepseek_v4_defaults(ctx, arch)?;
                deepseek_v4_hook::validate_deepseek_v41_features(ctx)?;
                deepseek_v4_hook::validate_deepseek_v4_cp(ctx)?;
            }
            Some("deepseek_v41") => {
                deepseek_v4_hook::skip_v41_checks(ctx);
                return Ok(());
            }
            _ => {
                ctx.model_config(site("deepseek_v4_hook.apply_deepseek_v4_defaults", "--dsv4-attn-backend flashmla_mega requires DeepSeek-V4.1"));
                return Ok(());
            }
        }
    } else if arch == "GptOssForCausalLM" {
        gpt_oss(ctx, arch)?;
    } else if arch == "MiMoV2ForCausalLM" && !ctx.cfg.truthy(f::encoder_only) {
        // `get_mimo_v2_fused_qkv_expected_tp_size(hf_config)`: the checkpoint's attention
        // projection layout (and KV heads) decide; they are not among the model's facts.
        ctx.skip(site("configs.model_config.get_mimo_v2_fused_qkv_expected_tp_size", "MiMoV2 hf_config has unsupported attention_projection_layout"), NotRunReason::NotImplemented);
        ctx.skip(site("configs.model_config.get_mimo_v2_fused_qkv_expected_tp_size", "MiMoV2 hf_config has attention_projection_layout='fused_qkv' but num_key_value_heads is missing"), NotRunReason::NotImplemented);
        ctx.skip(site("model_hook.handle_model_specific_adjustments", "MiMoV2ForCausalLM requires effective attention TP"), NotRunReason::NotImplemented);
        return Ok(());
    } else if matches!(arch, "Llama4ForConditionalGeneration" | "Llama4ForCausalLM") && !ctx.cfg.is(f::device, "cpu") {
        // When unset, the Llama 4 override fills it with one of the accepted backends.
        if let Some(backend) = text_of(ctx, f::attention_backend) {
            if !crate::models::ModelLists::names(branch_backends(ctx, arch), &backend) {
                let fixes = vec![ctx.fix_set("Use the triton attention backend", f::attention_backend, "triton", Applicability::Unsafe)];
                ctx.raise(&LLAMA4_ATTENTION_BACKEND, &[("attention_backend", &backend)], &[f::attention_backend], fixes)?;
            }
        }
    } else if matches!(arch, "Gemma4ForConditionalGeneration" | "Gemma4ForCausalLM" | "Gemma4UnifiedForConditionalGeneration") {
        gemma4(ctx, arch)?;
    } else if matches!(arch, "Exaone4ForCausalLM" | "ExaoneMoEForCausalLM" | "ExaoneMoeForCausalLM") {
        exaone(ctx, arch, model.raw)?;
    } else if arch == "Olmo2ForCausalLM" {
        // The Olmo 2 override fills an unset backend with trtllm_mha, fa3 or triton, so only an
        // explicit flashinfer meets the check.
        if ctx.cfg.is(f::attention_backend, "flashinfer") {
            let fixes = vec![ctx.fix_remove("Drop --attention-backend (SGLang picks one for Olmo 2)", f::attention_backend, Applicability::Unsafe)];
            ctx.raise(&OLMO2_FLASHINFER, &[], &[f::attention_backend], fixes)?;
        }
    } else if matches!(arch, "NemotronHForCausalLM" | "NemotronHPuzzleForCausalLM") {
        nemotron_h(ctx)?;
    } else if matches!(arch, "Lfm2ForCausalLM" | "Lfm2MoeForCausalLM") {
        ctx.skip(site("model_hook.handle_model_specific_adjustments", "{model_arch} does not support triton attention backend"), NotRunReason::NotImplemented);
        return Ok(());
    }
    if !handle_mamba_radix_cache(ctx, arch, model.derived.is_hybrid_linear_attention)? {
        path_modelled = false;
        ctx.not_modelled(HOOK);
    }
    // On a path not modelled, the values these passes read may be ones an override provider
    // declared: what they assign is then left not known.
    if path_modelled {
        trailing_passes(ctx, arch);
    }
    Ok(())
}

/// Whether everything the hook does for this model and command is modelled here: a known
/// architecture without a model override provider (or with a replayed one), a branch of its own
/// (but those of the replayed architectures: Llama 4's and Gemma 4's checks, Qwen3 MoE's none)
/// or Mamba state.
fn specific_path_modelled(ctx: &Ctx) -> bool {
    let Some(model) = ctx.model else { return false };
    let Some(arch) = model.architecture else { return false };
    let Some(lists) = ctx.release.model_lists() else { return false };
    let replayed = overrides::modelled(ctx.release, arch).is_some();
    if lists.model_override_architectures.is_empty() || (lists.has_model_override(arch) && !replayed) {
        return false;
    }
    // (Llama 4's and Gemma 4's branches check the attention backend only: modelled.)
    // The hybrid Mamba architectures SGLang names: their radix-cache handling is replayed
    // (`handle_mamba_radix_cache` says where it is not).
    let mamba_by_name = lists.mamba_radix_cache_architectures.iter().any(|a| a == arch) && !lists.linear_attn_spec_architectures.iter().any(|a| a == arch);
    (!in_deepseek_family_branch(ctx, arch) || (replayed && deepseek_family_path_modelled(ctx)))
        // (a branch of the step's own, besides the DeepSeek family's: it assigns or checks
        // something of its own)
        && (!crate::models::ModelLists::names(&lists.model_specific_branch_architectures, arch) || replayed)
        && (mamba_by_name || (!lists.mamba_radix_cache_architectures.iter().any(|a| a == arch) && model.derived.is_hybrid_linear_attention == Some(false)))
}

/// Whether the DeepSeek-family branch is replayed whole for this command: on a CUDA GPU other
/// than SM100 (where `_deepseek_moe_quant_resolution` picks the quantization and MoE runner
/// from the checkpoint) without prefill CP (whose CUDA-graph and MLA layout are not replayed).
/// On ROCm the branch's HIP arm is not replayed. (The provider itself may still decline: then
/// the path is not modelled either.)
fn deepseek_family_path_modelled(ctx: &Ctx) -> bool {
    ctx.hw.is_cuda() && !crate::rules::shared::runtime_context::is_sm100(ctx.hw) && !ctx.cfg.truthy(f::enable_prefill_cp)
}

/// The post-process passes at the hook's end that this build replays: the embeddings sparse
/// head's overlap disable, the FlashInfer AllReduce Fusion auto-enable (for the release's
/// `_FLASHINFER_ALLREDUCE_FUSION_ARCHS`) and the user's enforce-disable.
fn trailing_passes(ctx: &mut Ctx, arch: &str) {
    if ctx.env("SGLANG_EMBEDDINGS_SPARSE_HEAD").is_some() {
        ctx.cfg.set(f::disable_overlap_schedule, PyValue::Bool(true));
    }
    // `_flashinfer_allreduce_fusion_auto_enable` (MiMo V2's CuTeDSL arm and DeepSeek-V4.1's
    // custom all-reduce preference are on paths not modelled: their branches end the hook here).
    let fusion_archs = ctx.release.model_lists().map(|l| l.flashinfer_allreduce_fusion_architectures.as_slice()).unwrap_or_default();
    if crate::models::ModelLists::names(fusion_archs, arch) {
        let hw = ctx.hw;
        let (sm90, sm100) = (crate::rules::shared::runtime_context::is_sm90(hw), crate::rules::shared::runtime_context::is_sm100(hw));
        if ctx.cfg.is_none(f::flashinfer_allreduce_fusion_backend)
            && (sm90 || sm100)
            && int(ctx, f::tp_size, 1) > 1
            && !crate::rules::shared::runtime_context::attn_dp_enabled(ctx)
            && (int(ctx, f::nnodes, 1) == 1 || sm100)
            && ctx.cfg.is(f::moe_a2a_backend, "none")
        {
            ctx.cfg.set(f::flashinfer_allreduce_fusion_backend, PyValue::Str("auto".to_string()));
        }
    }
    if ctx.cfg.truthy(f::enforce_disable_flashinfer_allreduce_fusion) {
        ctx.cfg.set(f::flashinfer_allreduce_fusion_backend, PyValue::None);
    }
}

/// The DeepSeek-family branch: DSA's checks (index sharing with TBO, prefill CP, the cache-layer
/// split); the passes it runs that other families own are listed as not run where the command
/// could make them raise.
fn deepseek_family(ctx: &mut Ctx, arch: &str, is_dsa: Option<bool>, raw: Option<&crate::models::RawFacts>) -> Step {
    let Some(is_dsa) = ctx.model_fact(site("model_hook.handle_model_specific_adjustments", "CP is only supported for prefill when PD disaggregation"), |_| is_dsa) else {
        return Ok(());
    };
    // A release without the prefill-CP CUDA-graph default step (no warning site of it) turns the
    // prefill CUDA graph off here for prefill CP: DSA on a CUDA or ROCm GPU, the others when
    // they use the MLA backend.
    let prefill_cp_graph_step = site("cuda_graph_hook.apply_prefill_cp_cuda_graph_default", "Breakable prefill CUDA graph is not enabled");
    if ctx.cfg.truthy(f::enable_prefill_cp) && ctx.release.warn_site(&prefill_cp_graph_step).is_none() {
        let turns_off = if is_dsa { ctx.hw.is_cuda() || ctx.hw.is_hip() } else { ctx.model.is_some_and(|m| m.derived.is_mla == Some(true)) };
        if turns_off {
            crate::rules::shared::cuda_graph_config::with_phase(ctx, "prefill", "backend", PyValue::Str("disabled".into()));
        }
    }
    if !is_dsa {
        if ctx.hw.is_hip() {
            ctx.skip(site("overrides._deepseek_spec_moe_resolution", "Invalid configuration: 'deep_gemm' speculative MoE runner"), NotRunReason::NotImplemented);
        }
        return Ok(());
    }
    validate_dsa_tbo_index_sharing(ctx, raw)?;
    // CUDA or ROCm: the DSA KV cache dtype and split backend passes (no hardware profile here is
    // an NPU or XPU; on a CPU device SGLang would ask torch.cuda for the capability).
    if ctx.hw.is_cuda() || ctx.hw.is_hip() {
        crate::rules::shared::overrides::dsa_kv_cache_dtype_default(ctx, arch)?;
        if DSA_TILELANG_FP8_KV_ON_CUDA.applies_to(ctx.release) {
            dsa_split_backend_resolution_tilelang_check(ctx, arch)?;
        } else {
            crate::rules::shared::overrides::dsa_split_backend_resolution(ctx, arch)?;
        }
    } else {
        ctx.skip(site("overrides._dsa_kv_cache_dtype_default", "DeepSeek DSA only supports"), NotRunReason::Hardware);
    }
    let mode = ctx.cfg.str(f::disaggregation_mode).unwrap_or("null").to_string();
    if ctx.cfg.truthy(f::enable_prefill_cp) && mode == "decode" {
        let fixes = vec![ctx.fix_remove("Remove --enable-prefill-cp (decode workers do no prefill)", f::enable_prefill_cp, Applicability::Safe)];
        ctx.raise(&DSA_PREFILL_CP_ON_DECODE, &[], &[f::enable_prefill_cp, f::disaggregation_mode], fixes)?;
    }
    if ctx.cfg.truthy(f::enable_dsa_cache_layer_split) {
        let remove = |ctx: &Ctx| ctx.fix_remove("Remove --enable-dsa-cache-layer-split", f::enable_dsa_cache_layer_split, Applicability::Unsafe);
        if mode == "decode" {
            let fixes = vec![remove(ctx)];
            ctx.raise(&LAYER_SPLIT_ON_DECODE, &[], &[f::enable_dsa_cache_layer_split, f::disaggregation_mode], fixes)?;
        }
        if mode != "prefill" {
            let fixes = vec![remove(ctx)];
            ctx.raise(&LAYER_SPLIT_NOT_PD_PREFILL, &[], &[f::enable_dsa_cache_layer_split], fixes)?;
        }
        if !ctx.cfg.truthy(f::enable_prefill_cp) || !ctx.cfg.is(f::cp_strategy, "interleave") {
            let fixes = vec![remove(ctx)];
            ctx.raise(&LAYER_SPLIT_NEEDS_INTERLEAVED_CP, &[], &[f::enable_dsa_cache_layer_split, f::enable_prefill_cp, f::cp_strategy], fixes)?;
        }
        let backend = ctx.cfg.get(f::disaggregation_transfer_backend).clone();
        if backend.as_str() != Some("mooncake") {
            let shown = backend.repr();
            let fixes = vec![
                ctx.fix_set("Use the mooncake transfer backend", f::disaggregation_transfer_backend, "mooncake", Applicability::Unsafe),
                remove(ctx),
            ];
            ctx.raise(&LAYER_SPLIT_NEEDS_MOONCAKE, &[("cfg.disaggregation_transfer_backend", &shown)], &[f::disaggregation_transfer_backend, f::enable_dsa_cache_layer_split], fixes)?;
        }
        if int(ctx, f::pp_size, 1) > 1 {
            let fixes = vec![ctx.fix_remove("Remove --pp-size (no pipeline parallelism)", f::pp_size, Applicability::Unsafe), remove(ctx)];
            ctx.raise(&LAYER_SPLIT_WITH_PP, &[], &[f::pp_size, f::enable_dsa_cache_layer_split], fixes)?;
        }
    }
    Ok(())
}

/// `_dsa_split_backend_resolution` as SGLang 0.5.18 writes it: on ROCm with neither DSA backend
/// given both are tilelang; else the FP8 KV cache's (trtllm on Blackwell, flashmla_kv before) or
/// flashmla_sparse and trtllm / fa3; then `_check_tilelang_dsa_fp8_kv` (not in the GLM SM12 FP8
/// and HiSparse arms, which return their defaults first).
fn dsa_split_backend_resolution_tilelang_check(ctx: &mut Ctx, arch: &str) -> Step {
    let hip = ctx.hw.is_hip();
    let major = ctx.hw.capability.0;
    let kv = ctx.cfg.str(f::kv_cache_dtype).unwrap_or("").to_string();
    let given_prefill = text_of(ctx, f::dsa_prefill_backend);
    let given_decode = text_of(ctx, f::dsa_decode_backend);
    let glm_sm12_fp8 = arch == "GlmMoeDsaForCausalLM" && major == 12 && kv == "fp8_e4m3" && !hip;
    // the GLM SM12 FP8 and the HiSparse arms return their defaults unchecked
    let hisparse = ctx.cfg.truthy(f::enable_hisparse) && !glm_sm12_fp8;
    // on ROCm both are tilelang only when neither is given
    let rocm = (given_prefill.is_none() && given_decode.is_none()).then_some("tilelang");
    let defaults = crate::rules::shared::overrides::dsa_default_backends(ctx, glm_sm12_fp8, &kv, rocm);
    let (prefill, decode) = crate::rules::shared::overrides::fill_dsa_backends(ctx, given_prefill, given_decode, defaults);
    if glm_sm12_fp8 || hisparse || hip || kv != "fp8_e4m3" || (prefill != "tilelang" && decode != "tilelang") {
        return Ok(());
    }
    let mut fixes = vec![ctx.fix_set("Use a bfloat16 KV cache (what tilelang takes on CUDA)", f::kv_cache_dtype, "bfloat16", Applicability::Unsafe)];
    // (removing one flag helps only when the other phase is not tilelang too)
    for (field, other) in [(f::dsa_prefill_backend, &decode), (f::dsa_decode_backend, &prefill)] {
        if ctx.cfg.setting_place(field).is_some() && ctx.cfg.is(field, "tilelang") && other != "tilelang" {
            fixes.push(ctx.fix_remove(format!("Remove {} tilelang (SGLang picks an FP8 backend)", ctx.flag(field)), field, Applicability::Unsafe));
        }
    }
    ctx.raise(&DSA_TILELANG_FP8_KV_ON_CUDA, &[], &[f::kv_cache_dtype, f::dsa_prefill_backend, f::dsa_decode_backend], fixes)
}

/// `_validate_dsa_tbo_index_sharing`: TBO with layers that reuse another layer's top-k indices.
fn validate_dsa_tbo_index_sharing(ctx: &mut Ctx, raw: Option<&crate::models::RawFacts>) -> Step {
    if !ctx.cfg.truthy(f::enable_two_batch_overlap) {
        return Ok(());
    }
    // SGLang 0.5.18 checks it in the hook's DeepSeek branch, without shared indexer layers.
    let in_hook = DSA_TBO_INDEX_SHARING_IN_HOOK.applies_to(ctx.release);
    let needs = if in_hook {
        site("model_hook.handle_model_specific_adjustments", "--enable-two-batch-overlap is not supported with DSA")
    } else {
        site("model_hook._validate_dsa_tbo_index_sharing", "--enable-two-batch-overlap is not supported with DSA")
    };
    let Some(raw) = ctx.model_fact(needs, |_| raw) else {
        return Ok(());
    };
    if in_hook {
        // `getattr(hf_config, "index_topk_freq", 1) or 1`
        let freq = raw.index_topk_freq.filter(|&n| n != 0).unwrap_or(1);
        if freq > 1 || raw.index_topk_pattern.as_deref().is_some_and(|p| p.contains('S')) {
            let fixes = vec![ctx.fix_remove("Remove --enable-two-batch-overlap", f::enable_two_batch_overlap, Applicability::Unsafe)];
            ctx.raise(&DSA_TBO_INDEX_SHARING_IN_HOOK, &[], &[f::enable_two_batch_overlap], fixes)?;
        }
        return Ok(());
    }
    // `getattr(hf_config, "index_topk_freq", 1) or 1`
    let freq = raw.index_topk_freq.filter(|&n| n != 0).unwrap_or(1);
    let pattern_shares = raw.index_topk_pattern.as_deref().is_some_and(|p| p.contains('S'));
    let types_share = raw.indexer_types.as_ref().is_some_and(|t| t.iter().any(|x| x == "shared"));
    if freq > 1 || pattern_shares || types_share {
        let pattern = raw.index_topk_pattern.as_deref().map(str_repr).unwrap_or_else(|| "None".into());
        let types = raw.indexer_types.as_ref().map(|t| py_list(t)).unwrap_or_else(|| "None".into());
        let args: &Args = &[("index_topk_freq", &freq), ("index_topk_pattern", &pattern), ("indexer_types", &types)];
        let fixes = vec![ctx.fix_remove("Remove --enable-two-batch-overlap", f::enable_two_batch_overlap, Applicability::Unsafe)];
        ctx.raise(&DSA_TBO_INDEX_SHARING, args, &[f::enable_two_batch_overlap], fixes)?;
    }
    Ok(())
}

/// The GptOss branch: the accepted attention backends, then triton_kernel MoE with EP.
fn gpt_oss(ctx: &mut Ctx, arch: &str) -> Step {
    // (MLX on macOS is exempt; no hardware profile here is one.)
    let base = text_of(ctx, f::attention_backend);
    // When none is given, the GptOss override picks one of the accepted backends for the platform.
    if !model_override_base::is_attention_backend_not_set(ctx) {
        let (prefill, decode) = model_override_base::attention_backends_of(ctx, base.as_deref());
        let supported = branch_backends(ctx, arch);
        let ok = |b: &Option<String>| b.as_deref().is_some_and(|b| crate::models::ModelLists::names(supported, b));
        if !ok(&prefill) || !ok(&decode) {
            let listed = py_list(supported);
            let (p, d) = (shown(&prefill).to_string(), shown(&decode).to_string());
            let args: &Args = &[("supported_backends", &listed), ("prefill_attn_backend", &p), ("decode_attn_backend", &d)];
            let fixes = vec![ctx.fix_set("Use the triton attention backend", f::attention_backend, "triton", Applicability::Unsafe)];
            ctx.raise(&GPT_OSS_ATTENTION_BACKEND, args, &model_override_base::ATTENTION_BACKEND_FIELDS, fixes)?;
        }
    }
    // The override chooses triton_kernel itself only with ep_size 1, so an EP size above 1 meets
    // it only when the command asks for it.
    if ctx.cfg.is(f::moe_runner_backend, "triton_kernel") && int(ctx, f::ep_size, 1) != 1 {
        let fixes = vec![ctx.fix_remove("Remove --ep-size (triton_kernel MoE runs without expert parallelism)", f::ep_size, Applicability::Unsafe)];
        ctx.raise(&TRITON_KERNEL_MOE_EP, &[], &[f::moe_runner_backend, f::ep_size], fixes)?;
    }
    Ok(())
}

/// The Gemma 4 branch: the accepted attention backends. The Gemma 4 override fills
/// `attention_backend` when it is unset (triton, or trtllm_mha on SM100: both accepted).
fn gemma4(ctx: &mut Ctx, arch: &str) -> Step {
    let base = text_of(ctx, f::attention_backend);
    let filled = base.or_else(|| Some(if crate::rules::shared::runtime_context::is_sm100(ctx.hw) { "trtllm_mha" } else { "triton" }.to_string()));
    let (prefill, decode) = model_override_base::attention_backends_of(ctx, filled.as_deref());
    let accepted = branch_backends(ctx, arch);
    let ok = |b: &Option<String>| b.as_deref().is_some_and(|b| crate::models::ModelLists::names(accepted, b));
    if !ok(&prefill) || !ok(&decode) {
        let (p, d) = (shown(&prefill).to_string(), shown(&decode).to_string());
        let args: &Args = &[("prefill_backend", &p), ("decode_backend", &d)];
        let fixes = vec![ctx.fix_set("Use the triton attention backend", f::attention_backend, "triton", Applicability::Unsafe)];
        ctx.raise(&GEMMA4_ATTENTION_BACKEND, args, &model_override_base::ATTENTION_BACKEND_FIELDS, fixes)?;
    }
    Ok(())
}

/// The Exaone branch: with a `sliding_window_pattern`, the accepted attention backends. Where
/// the Exaone override fills an unset backend (with trtllm_mha, fa3 or triton) only an explicit
/// one can fail; before, the branch reads the unset one as None.
fn exaone(ctx: &mut Ctx, arch: &str, raw: Option<&crate::models::RawFacts>) -> Step {
    let backend = text_of(ctx, f::attention_backend);
    if backend.is_none() && exaone_override_fills_attention_backend(ctx, arch) {
        return Ok(());
    }
    let accepted = branch_backends(ctx, arch);
    if backend.as_deref().is_some_and(|b| crate::models::ModelLists::names(accepted, b)) {
        return Ok(());
    }
    // A pattern as written is not None. Absent, the config class's default (4) applies, but an
    // explicit null leaves it None: the facts do not tell the two apart.
    let needs = site("model_hook.handle_model_specific_adjustments", "One of the attention backends in {accepted_backends}");
    if ctx.model_fact(needs, |_| raw.and_then(|r| r.sliding_window_pattern.as_ref())).is_none() {
        return Ok(());
    }
    let backend = backend.unwrap_or_else(|| "None".to_string());
    let listed = py_list(accepted);
    let args: &Args = &[("accepted_backends", &listed), ("model_arch", &arch), ("attention_backend", &backend)];
    let fixes = if ctx.cfg.is_none(f::attention_backend) {
        vec![ctx.fix_set("Use the triton attention backend", f::attention_backend, "triton", Applicability::Unsafe)]
    } else if exaone_override_fills_attention_backend(ctx, arch) {
        vec![ctx.fix_remove("Drop --attention-backend (SGLang picks one for EXAONE)", f::attention_backend, Applicability::Unsafe)]
    } else {
        vec![ctx.fix_set("Use the triton attention backend", f::attention_backend, "triton", Applicability::Unsafe)]
    };
    ctx.raise(&EXAONE_ATTENTION_BACKEND, args, &[f::attention_backend], fixes)
}

/// Whether the Exaone override provider fills an unset --attention-backend (it declares one in
/// the release's generated lists): 0.5.22's `model_overrides/exaone.py` does; 0.5.18's
/// `overrides._exaone_overrides` (and 0.5.19 to 0.5.21's provider) only disable hybrid SWA
/// memory, so the branch's assert reads None.
fn exaone_override_fills_attention_backend(ctx: &Ctx, arch: &str) -> bool {
    ctx.release.model_lists().is_some_and(|l| l.override_declares(arch, "attention_backend"))
}

/// The NemotronH branch of SGLang 0.5.18 (gone from 0.5.19's hook): the triton attention backend
/// is refused. The NemotronH override fills an unset backend with flashinfer (SM100) or leaves it
/// unset, so only an explicit triton meets the check.
fn nemotron_h(ctx: &mut Ctx) -> Step {
    if !NEMOTRON_H_TRITON.applies_to(ctx.release) || !ctx.cfg.is(f::attention_backend, "triton") {
        return Ok(());
    }
    let fixes = vec![ctx.fix_remove("Drop --attention-backend (SGLang picks one for NemotronH)", f::attention_backend, Applicability::Unsafe)];
    ctx.raise(&NEMOTRON_H_TRITON, &[], &[f::attention_backend], fixes)
}

/// `handle_mamba_radix_cache`: for a hybrid Mamba architecture SGLang names, the resolution of
/// its Mamba radix-cache strategy and its validators (`mamba_hook`); else an extra-buffer strategy
/// on a model without Mamba state. Ok(false) where what it does is not decided here: a
/// linear-attention spec, Granite's `layer_types` probe, a hybrid model SGLang does not name, a
/// validator's value not known.
fn handle_mamba_radix_cache(ctx: &mut Ctx, arch: &str, hybrid: Option<bool>) -> Result<bool, super::Raised> {
    let strategy = ctx.cfg.str(f::mamba_radix_cache_strategy).unwrap_or("auto").to_string();
    // `mamba_extra_buffer_of`: `disable_radix_cache is False` and an extra-buffer strategy.
    let extra_buffer = matches!(ctx.cfg.get(f::disable_radix_cache), PyValue::Bool(false)) && matches!(strategy.as_str(), "extra_buffer" | "extra_buffer_lazy");
    let lists = ctx.release.model_lists().filter(|l| !l.mamba_radix_cache_architectures.is_empty());
    let by_name = lists.is_some_and(|l| l.mamba_radix_cache_architectures.iter().any(|a| a == arch));
    let by_spec = lists.is_some_and(|l| l.linear_attn_spec_architectures.iter().any(|a| a == arch));
    if let Some(lists) = lists.filter(|_| by_name && !by_spec) {
        return mamba_hook::mamba_radix_cache(ctx, &lists.mamba_extra_buffer_architectures, arch);
    }
    let armed_by_name = by_name || arch == "GraniteMoeHybridForCausalLM";
    if armed_by_name || by_spec || hybrid == Some(true) {
        // mamba_hook's validators of the Mamba cache (not modelled here)
        ctx.skip_unlisted("mamba_hook.validate_mamba_extra_buffer", NotRunReason::NotImplemented);
        return Ok(false);
    }
    if !extra_buffer {
        return Ok(true);
    }
    let needs = site_nth("model_hook.handle_mamba_radix_cache", "--mamba-radix-cache-strategy", 0);
    if ctx.model_fact(needs, |_| hybrid).is_none() {
        return Ok(true);
    }
    let fixes = vec![ctx.fix_remove("Remove --mamba-radix-cache-strategy", f::mamba_radix_cache_strategy, Applicability::Safe)];
    let args: &Args = &[("view.mamba_radix_cache_strategy", &strategy), ("hf_config.architectures[0]", &arch)];
    ctx.raise(&MAMBA_STRATEGY_NEEDS_MAMBA, args, &[f::mamba_radix_cache_strategy], fixes).map(|()| true)
}

/// Without the model's architecture: each check the command's flags would let fire, not run.
fn unknown_model_checks(ctx: &mut Ctx) {
    if int(ctx, f::pp_size, 1) != 1 || int(ctx, f::ep_size, 1) != 1 {
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "Intern-S2-Mobius does not support:"));
    }
    if ctx.cfg.truthy(f::enable_dsa_cache_layer_split) {
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is only supported for DSA"));
    }
    if ctx.cfg.truthy(f::enable_cp_decode_attn_tp) {
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-cp-decode-attn-tp is only supported for models"));
    }
    let mode = ctx.cfg.str(f::disaggregation_mode).unwrap_or("null").to_string();
    if ctx.cfg.truthy(f::enable_prefill_cp) && mode == "decode" {
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "CP is only supported for prefill when PD disaggregation"));
    }
    if ctx.cfg.truthy(f::enable_dsa_cache_layer_split) {
        if mode == "decode" {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is not supported on decode workers."));
        } else if mode != "prefill" {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is only supported on PD prefill"));
        } else if !ctx.cfg.truthy(f::enable_prefill_cp) || !ctx.cfg.is(f::cp_strategy, "interleave") {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split requires --enable-prefill-cp"));
        } else if !ctx.cfg.is(f::disaggregation_transfer_backend, "mooncake") {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split currently only supports"));
        } else if int(ctx, f::pp_size, 1) > 1 {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-dsa-cache-layer-split is not supported with pipeline"));
        }
    }
    if ctx.cfg.truthy(f::enable_two_batch_overlap) {
        ctx.model_config(site("model_hook._validate_dsa_tbo_index_sharing", "--enable-two-batch-overlap is not supported with DSA"));
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "--enable-two-batch-overlap is not supported with DSA"));
    }
    if !ctx.cfg.is_none(f::attention_backend) {
        // The architectures that accept only some attention backends (GptOss, Llama 4, Gemma 4,
        // sliding-window models, Olmo 2, ...).
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "GptOssForCausalLM requires one of {supported_backends}"));
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "fa3, aiter, triton, ascend, trtllm_mha or intel_xpu is required for Llama4"));
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "Gemma4 only supports"));
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "One of the attention backends in {accepted_backends}"));
        if ctx.cfg.is(f::attention_backend, "flashinfer") {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "FlashInfer backend can significantly degrade"));
        }
        if ctx.cfg.is(f::attention_backend, "triton") {
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "{model_arch} does not support triton attention backend"));
            ctx.model_config(site("model_hook.handle_model_specific_adjustments", "NemotronHForCausalLM does not support triton attention backend"));
        }
    } else if !exaone_override_fills_attention_backend(ctx, "Exaone4ForCausalLM") {
        // an unset backend is not filled for EXAONE (one provider for its architectures): its
        // sliding-window check reads None
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "One of the attention backends in {accepted_backends}"));
    }
    if ctx.cfg.is(f::moe_runner_backend, "triton_kernel") && int(ctx, f::ep_size, 1) != 1 {
        ctx.model_config(site("model_hook.handle_model_specific_adjustments", "Triton kernel MoE is only supported when ep_size == 1"));
    }
    // DeepSeek-V4's checks the command's flags could make fail.
    let dsv4 = |ctx: &mut Ctx, message: &'static str| ctx.model_config(site("deepseek_v4_hook.apply_deepseek_v4_defaults", message));
    match ctx.cfg.str(f::dsv4_attn_backend) {
        Some("flashmla_mega") => dsv4(ctx, "--dsv4-attn-backend flashmla_mega requires DeepSeek-V4.1"),
        Some("trtllm") => dsv4(ctx, "--dsv4-attn-backend trtllm requires an SM100/SM103"),
        _ => {}
    }
    if !ctx.cfg.is_none(f::speculative_algorithm) {
        dsv4(ctx, "Only EAGLE and DSPARK speculative algorithms are supported");
    }
    if !matches!(ctx.cfg.str(f::kv_cache_dtype), Some("auto" | "fp8_e4m3" | "bfloat16")) {
        ctx.model_config(site("overrides._deepseek_v4_kv_cache_dtype", "{kv_cache_dtype} is not supported for {model_arch}"));
        if !ctx.cfg.is(f::kv_cache_dtype, "bf16") {
            ctx.model_config(site("overrides._dsa_kv_cache_dtype_default", "DeepSeek DSA only supports"));
        }
    }
    if int(ctx, f::dcp_size, 1) > 1 && (ctx.cfg.truthy(f::enable_hisparse) || ctx.cfg.truthy(f::enable_hierarchical_cache)) {
        ctx.model_config(site("model_overrides.deepseek_v2._dsa_dcp_overrides", "DSA DCP does not support HiSparse or HiCache."));
    }
    if ctx.cfg.truthy(f::enable_prefill_cp) {
        ctx.model_config(site("deepseek_v4_hook.validate_deepseek_v4_cp", "DeepSeekV4 only supports interleave/zigzag CP strategy"));
    }
    // The override providers of MiniCPM, ERNIE 4.5 VL, Moss-VL, IQuest Q1 and Qwen4-Exp.
    overrides::minicpm::checks_not_run(ctx);
    overrides::ernie45_vl::checks_not_run(ctx);
    overrides::moss_vl::checks_not_run(ctx);
    overrides::iquest_q1::checks_not_run(ctx);
    overrides::qwen4_exp::checks_not_run(ctx);
    // (MiMoV2's fused-QKV attention TP check and the HRM-Text / EmbeddingGemma / multimodal
    // adjustments are reached by those architectures only, on any flags.)
    // `auto` is decided by the architecture; an explicit strategy needs mamba state.
    if !ctx.cfg.is(f::mamba_radix_cache_strategy, "auto") {
        ctx.model_config(site_nth("model_hook.handle_mamba_radix_cache", "--mamba-radix-cache-strategy", 0));
    }
}

/// `handle_model_capability_adjustments`.
pub fn handle_model_capability_adjustments(ctx: &mut Ctx) -> Step {
    if ctx.cfg.str(f::model_path).is_some_and(is_instance_connector) {
        return Ok(());
    }
    if !capability_path_modelled(ctx) {
        // HRM-Text, embedding models, EmbeddingGemma, Clef / Kev checkpoints, multimodal
        // models' chunked prefill: what they assign is not replayed.
        ctx.not_modelled(CAPABILITY_HOOK);
    }
    let arch = ctx.model.and_then(|m| m.architecture);
    // Clef / Kev checkpoints (a joint schema head or a pointer head: files next to a Qwen3.5
    // config) must run on TP 1 and PP 1.
    // (Without the architecture this is not listed: reached by those checkpoints only.)
    let maybe_head = arch.is_some_and(|a| matches!(a, "Qwen3_5ForConditionalGeneration" | "Qwen3_5TextModel"));
    if maybe_head && (int(ctx, f::tp_size, 1) != 1 || int(ctx, f::pp_size, 1) != 1) {
        ctx.model_config(site("model_hook.handle_model_capability_adjustments", "{name} checkpoints are served with --tp-size 1 and --pp-size 1"));
        return Ok(());
    }
    // Only a DeepSeek-V4.1 config (model_type deepseek_v41) takes this flag.
    let needs = site("model_hook.handle_model_capability_adjustments", "--enable-encoder-swa-bounded-replay requires DeepSeek-V4.1");
    let model_type = match ctx.model {
        Some(m) if m.architecture.is_some() => Some(m.model_type),
        _ => None,
    };
    match model_type {
        Some(Some("deepseek_v41")) => {
            // deepseek_v4_hook.validate_deepseek_v41_encoder_replay_budget: DeepSeek-V4.1 is not
            // replayed (no public config to record against)
            if ctx.cfg.truthy(f::enable_encoder_swa_bounded_replay) {
                ctx.skip(site("deepseek_v4_hook.validate_deepseek_v41_encoder_replay_budget", "encoder SWA replay requires"), NotRunReason::NotImplemented);
            }
        }
        Some(_) if ctx.cfg.truthy(f::enable_encoder_swa_bounded_replay) => {
            let fixes = vec![ctx.fix_remove("Remove --enable-encoder-swa-bounded-replay", f::enable_encoder_swa_bounded_replay, Applicability::Safe)];
            ctx.raise(&ENCODER_SWA_REPLAY_NEEDS_V41, &[], &[f::enable_encoder_swa_bounded_replay], fixes)?;
        }
        Some(_) => {}
        None => {
            if ctx.cfg.truthy(f::enable_encoder_swa_bounded_replay) {
                ctx.model_config(needs);
            }
        }
    }
    Ok(())
}

/// Whether the capability hook assigns nothing for this model and command (what it checks is
/// modelled): a known generative, text-only model that is none of the special cases.
fn capability_path_modelled(ctx: &Ctx) -> bool {
    let Some(model) = ctx.model else { return false };
    let Some(arch) = model.architecture else { return false };
    let types = [model.model_type, model.raw.and_then(|r| r.text_model_type.as_deref())];
    let typed = |t: &str| types.iter().flatten().any(|x| *x == t);
    !typed("hrm_text")
        && arch != "HrmTextForCausalLM"
        // EmbeddingGemma is a gemma3_text config with bidirectional attention
        && !typed("gemma3_text")
        && !typed("deepseek_v41")
        && !matches!(arch, "Qwen3_5ForConditionalGeneration" | "Qwen3_5TextModel" | "EmbeddingGemma2Model")
        && model.derived.is_embedding == Some(false)
        && !ctx.cfg.truthy(f::is_embedding)
        && model.derived.is_multimodal == Some(false)
}
