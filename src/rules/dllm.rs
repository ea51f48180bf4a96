//! Rules from SGLang's `sglang/srt/arg_groups/dllm_hook.py` (diffusion-LM inference) with the
//! post-process passes it runs (`overrides._dllm_attention_backend`, `_dllm_overlap_disable`,
//! `_dllm_page_size`), `dllm/algorithm/__init__.py::get_algorithm_cls` and
//! `dllm/config.py::DllmConfig.from_server_args`.
//!
//! `DllmConfig.from_server_args` (through `_dllm_page_size`) reads the model's architecture and
//! raises for any model that is not a known diffusion LM, so everything from there on (the page
//! size, and the HiCache / LMCache / FlexKV / PP / LoRA / PD / mixed-chunk adjustments after it)
//! is reported as not run.

use super::shared::cuda_graph_config::{phase_backend, with_phase, DECODE, DISABLED, FULL, PREFILL};
use super::{Ctx, Rule};
use crate::diagnostic::Applicability;
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::{raises, site, warns, Args, NotRunReason, Sglang, Step};

/// The algorithms `import_algorithms` finds in `sglang.srt.dllm.algorithm` (their classes' names).
const ALGORITHMS: [&str; 4] = ["Gemma4Renoise", "JointThreshold", "JointThresholdInDel", "LowConfidence"];

pub static UNKNOWN_ALGORITHM: Rule = Rule {
    code: "DLLM001",
    name: kebab!("dllm-algorithm-unknown"),
    sglang: raises("dllm.algorithm.get_algorithm_cls", "Unknown diffusion LLM algorithm: {name}"),
    explanation: expl!("--dllm-algorithm names one of SGLang's diffusion-LM decoding algorithms by its class name, spelled exactly: LowConfidence, JointThreshold, JointThresholdInDel or Gemma4Renoise."),
    flags: &["--dllm-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dllm-algorithm low_confidence"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dllm-algorithm LowConfidence"),
};

pub static REQUIRED_BACKEND: Rule = Rule {
    code: "DLLM002",
    name: kebab!("dllm-algorithm-sets-its-attention-backend"),
    sglang: warns("overrides._dllm_attention_backend", "{view.dllm_algorithm} requires the {backend} attention backend"),
    explanation: expl!("This diffusion algorithm runs on one attention backend (Gemma4Renoise: triton, or fa4), so SGLang switches the attention backends to it."),
    flags: &["--dllm-algorithm", "--attention-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dllm-algorithm Gemma4Renoise --attention-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dllm-algorithm Gemma4Renoise --attention-backend triton"),
};

pub static TRITON_ON_AMD: Rule = Rule {
    code: "DLLM003",
    name: kebab!("dllm-uses-triton-on-amd"),
    sglang: warns("overrides._dllm_attention_backend", "Attention backend is set to triton for diffusion LLM"),
    explanation: expl!("On AMD GPUs diffusion-LM inference runs on the triton (or aiter) attention backend, so SGLang switches to triton."),
    flags: &["--dllm-algorithm", "--attention-backend"],
    example_bad: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence --attention-backend flashinfer"),
    example_good: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence --attention-backend triton"),
};

pub static FLASHINFER_FOR_GRAPHS: Rule = Rule {
    code: "DLLM004",
    name: kebab!("dllm-uses-flashinfer-with-cuda-graph"),
    sglang: warns("overrides._dllm_attention_backend", "Attention backend is set to flashinfer because"),
    explanation: expl!("With decode CUDA graphs on, diffusion-LM inference on NVIDIA GPUs runs on the flashinfer attention backend, so SGLang switches to it. Pass --attention-backend flashinfer, or disable decode CUDA graphs."),
    flags: &["--dllm-algorithm", "--attention-backend"],
    example_bad: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence --attention-backend triton"),
    example_good: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence --attention-backend flashinfer"),
};

pub static GRAPHS_OFF_ON_AMD: Rule = Rule {
    code: "DLLM005",
    name: kebab!("dllm-disables-cuda-graph-on-amd"),
    sglang: warns("dllm_hook.handle_dllm_inference", "Cuda graph is disabled for diffusion LLM inference on AMD"),
    explanation: expl!("Diffusion-LM inference does not capture CUDA graphs on AMD GPUs; SGLang disables them for decode and prefill."),
    flags: &["--dllm-algorithm"],
    // With a chunk size given: on MI300X the prefill graph sizes otherwise depend on the model.
    example_bad: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence --attention-backend triton --chunked-prefill-size 4096"),
    example_good: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence --attention-backend triton --chunked-prefill-size 4096 --cuda-graph-backend-decode disabled --cuda-graph-backend-prefill disabled"),
};

pub static OVERLAP_OFF: Rule = Rule {
    code: "DLLM006",
    name: kebab!("dllm-disables-overlap-schedule"),
    sglang: warns("overrides._dllm_overlap_disable", "Overlap schedule is disabled because of using diffusion"),
    explanation: expl!("Diffusion-LM inference does not use the overlap scheduler; SGLang turns it off. Pass --disable-overlap-schedule to say so."),
    flags: &["--dllm-algorithm", "--disable-overlap-schedule"],
    example_bad: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence --attention-backend flashinfer"),
    example_good: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence --attention-backend flashinfer --disable-overlap-schedule"),
};

pub static NOT_A_DIFFUSION_MODEL: Rule = Rule {
    code: "DLLM007",
    name: kebab!("dllm-model-not-a-diffusion-lm"),
    sglang: raises("dllm.config.DllmConfig.from_server_args", "Unknown diffusion LLM: {arch}"),
    explanation: expl!("--dllm-algorithm serves a diffusion language model (LLaDA2 MoE, SDAR, SDAR MoE, DiffusionGemma), decoded block by block. The model's architecture is not one of them: an autoregressive model cannot be decoded that way. Drop --dllm-algorithm, or point --model-path at a diffusion checkpoint."),
    flags: &["--dllm-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dllm-algorithm LowConfidence --attention-backend flashinfer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static INDEL_TOKENS_MISSING: Rule = Rule {
    code: "DLLM008",
    name: kebab!("dllm-indel-needs-delete-and-split-tokens"),
    sglang: raises("dllm.config.DllmConfig.from_server_args", "JointThresholdInDel is not supported for checkpoint"),
    explanation: expl!("JointThresholdInDel decodes with Insert/Delete edits, marked by two special tokens the checkpoint must have been trained with and declare in its config.json (delete_token_id and split_token_id). This checkpoint declares neither or only one; use JointThreshold (or LowConfidence) with it, or a checkpoint trained for Insert/Delete."),
    flags: &["--dllm-algorithm", "--json-model-override-args"],
    example_bad: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm JointThresholdInDel --attention-backend flashinfer"),
    example_good: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm JointThreshold --attention-backend flashinfer"),
};

pub static INDEL_TOKEN_NOT_INT: Rule = Rule {
    code: "DLLM009",
    name: kebab!("dllm-indel-token-id-not-an-integer"),
    sglang: raises("dllm.config.DllmConfig.from_server_args", "{token_name} must be an integer token ID"),
    explanation: expl!("JointThresholdInDel's delete_token_id and split_token_id (from config.json, or --json-model-override-args) are token IDs: integers, not strings, floats or booleans."),
    flags: &["--dllm-algorithm", "--json-model-override-args"],
    example_bad: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm JointThresholdInDel --attention-backend flashinfer --json-model-override-args '{\"delete_token_id\": \"151670\", \"split_token_id\": 151671}'"),
    example_good: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm JointThresholdInDel --attention-backend flashinfer --json-model-override-args '{\"delete_token_id\": 151670, \"split_token_id\": 151671}'"),
};

pub static INDEL_TOKEN_OUT_OF_VOCAB: Rule = Rule {
    code: "DLLM010",
    name: kebab!("dllm-indel-token-id-outside-vocabulary"),
    sglang: raises("dllm.config.DllmConfig.from_server_args", "{token_name} must be within the model vocabulary"),
    explanation: expl!("JointThresholdInDel's delete_token_id and split_token_id must be tokens of the model: from 0 to the config's vocab_size minus one."),
    flags: &["--dllm-algorithm", "--json-model-override-args"],
    example_bad: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm JointThresholdInDel --attention-backend flashinfer --json-model-override-args '{\"delete_token_id\": 151936, \"split_token_id\": 151671}'"),
    example_good: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm JointThresholdInDel --attention-backend flashinfer --json-model-override-args '{\"delete_token_id\": 151670, \"split_token_id\": 151671}'"),
};

pub static INDEL_TOKENS_NOT_DISTINCT: Rule = Rule {
    code: "DLLM011",
    name: kebab!("dllm-indel-token-ids-distinct"),
    sglang: raises("dllm.config.DllmConfig.from_server_args", "JointThresholdInDel token IDs must be distinct"),
    explanation: expl!("JointThresholdInDel tells the mask token (fixed per architecture: 151669 for SDAR, 156895 for LLaDA2), the delete token and the split token apart by their IDs, so the three must differ."),
    flags: &["--dllm-algorithm", "--json-model-override-args"],
    example_bad: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm JointThresholdInDel --attention-backend flashinfer --json-model-override-args '{\"delete_token_id\": 151669, \"split_token_id\": 151671}'"),
    example_good: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm JointThresholdInDel --attention-backend flashinfer --json-model-override-args '{\"delete_token_id\": 151670, \"split_token_id\": 151671}'"),
};

pub static BLOCK_ROUTING_BLOCK_SIZE: Rule = Rule {
    code: "DLLM012",
    name: kebab!("dllm-block-routing-block-size"),
    sglang: raises("dllm.config.DllmConfig.from_server_args", "LLaDA2 block routing requires the dLLM block size"),
    explanation: expl!("A checkpoint with expert_capacity (LLaDA2's block routing) routes experts per decoding block, so the block size SGLang decodes with (the architecture's: 32 for LLaDA2, 4 for SDAR, or block_size in --dllm-algorithm-config) must be the checkpoint's block_size."),
    flags: &["--dllm-algorithm", "--json-model-override-args", "--dllm-algorithm-config"],
    example_bad: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence --attention-backend flashinfer --json-model-override-args '{\"expert_capacity\": 8, \"block_size\": 8}'"),
    example_good: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence --attention-backend flashinfer --json-model-override-args '{\"expert_capacity\": 8}'"),
};

const RENOISE_CONFIGURE: &str = "dllm.algorithm.gemma4_renoise.Gemma4Renoise.configure_server_args";

pub static RENOISE_DEVICE: Rule = Rule {
    code: "DLLM013",
    name: kebab!("dllm-gemma4-renoise-needs-a-gpu"),
    sglang: raises("dllm.algorithm.gemma4_renoise.Gemma4Renoise.configure_server_args", "DiffusionGemma currently supports CUDA/ROCm GPU execution only"),
    explanation: expl!("Gemma4Renoise decodes DiffusionGemma on NVIDIA or AMD GPUs only (the `cuda` device, which ROCm uses too); on this device it does not run. Serve it on a GPU, or drop --dllm-algorithm."),
    flags: &["--dllm-algorithm", "--device"],
    example_bad: ex!("--model-path google/gemma-4-26B-A4B --dllm-algorithm Gemma4Renoise --device cpu"),
    example_good: ex!("--model-path google/gemma-4-26B-A4B --device cpu"),
};

pub static RENOISE_PIPELINE: Rule = Rule {
    code: "DLLM014",
    name: kebab!("dllm-gemma4-renoise-without-pipeline-parallelism"),
    sglang: raises("dllm.algorithm.gemma4_renoise.Gemma4Renoise.configure_server_args", "DiffusionGemma does not support pipeline parallelism"),
    explanation: expl!("Gemma4Renoise denoises a whole block with every layer at each step, which SGLang does not split into pipeline stages: --pp-size must be 1. Use tensor parallelism (--tp-size) instead."),
    flags: &["--dllm-algorithm", "--pp-size"],
    example_bad: ex!("--model-path google/gemma-4-26B-A4B --dllm-algorithm Gemma4Renoise --pp-size 2"),
    example_good: ex!("--model-path google/gemma-4-26B-A4B --dllm-algorithm Gemma4Renoise --tp-size 2"),
};

pub static RENOISE_CONTEXT_PARALLEL: Rule = Rule {
    code: "DLLM015",
    name: kebab!("dllm-gemma4-renoise-without-context-parallelism"),
    sglang: raises("dllm.algorithm.gemma4_renoise.Gemma4Renoise.configure_server_args", "DiffusionGemma does not support context parallelism"),
    explanation: expl!("Gemma4Renoise does not shard attention over context-parallel ranks: --dcp-size and --attn-cp-size must be 1."),
    flags: &["--dllm-algorithm", "--dcp-size", "--attn-cp-size"],
    example_bad: ex!("--model-path google/gemma-4-26B-A4B --dllm-algorithm Gemma4Renoise --tp-size 2 --dcp-size 2"),
    example_good: ex!("--model-path google/gemma-4-26B-A4B --dllm-algorithm Gemma4Renoise --tp-size 2"),
};

pub static RENOISE_QUANTIZED: Rule = Rule {
    code: "DLLM016",
    name: kebab!("dllm-gemma4-renoise-unquantized-only"),
    sglang: raises("dllm.algorithm.gemma4_renoise.Gemma4Renoise.configure_server_args", "DiffusionGemma does not support quantized loading"),
    explanation: expl!("Gemma4Renoise loads DiffusionGemma's weights unquantized: neither --quantization nor a quantized checkpoint (one whose config.json has a quantization_config) can be used with it."),
    flags: &["--dllm-algorithm", "--quantization"],
    example_bad: ex!("--model-path google/gemma-4-26B-A4B --dllm-algorithm Gemma4Renoise --quantization fp8"),
    example_good: ex!("--model-path google/gemma-4-26B-A4B --dllm-algorithm Gemma4Renoise"),
};

pub static RENOISE_UNTIED: Rule = Rule {
    code: "DLLM017",
    name: kebab!("dllm-gemma4-renoise-needs-tied-embeddings"),
    sglang: raises("dllm.algorithm.gemma4_renoise.Gemma4Renoise.configure_server_args", "DiffusionGemma requires tied word embeddings"),
    explanation: expl!("Gemma4Renoise is DiffusionGemma's algorithm, and DiffusionGemma shares its input embeddings with its output head: the model's config must set tie_word_embeddings, at the top and in its text_config. This model's does not, so it is not a DiffusionGemma checkpoint; serve it without --dllm-algorithm, or point --model-path at one."),
    flags: &["--dllm-algorithm", "--model-path"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --dllm-algorithm Gemma4Renoise --attention-backend triton"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --attention-backend triton"),
};

pub static RENOISE_NO_TEXT_CONFIG: Rule = Rule {
    code: "DLLM018",
    name: kebab!("dllm-gemma4-renoise-needs-a-text-config"),
    sglang: Sglang::Python { function: RENOISE_CONFIGURE, raised_by: "getattr(hf_config.text_config, \"tie_word_embeddings\", False)", exception: "AttributeError", template: "'{config_class}' object has no attribute 'text_config'", raises_in: None },
    explanation: expl!("Gemma4Renoise reads tie_word_embeddings from the model config's text_config, which DiffusionGemma's config has; a text-only config (this one ties its embeddings at the top) has no text_config, and the lookup fails in Python. Gemma4Renoise serves DiffusionGemma only: drop --dllm-algorithm, or point --model-path at a DiffusionGemma checkpoint."),
    flags: &["--dllm-algorithm", "--model-path"],
    example_bad: ex!("--model-path Qwen/Qwen3-0.6B --dllm-algorithm Gemma4Renoise"),
    example_good: ex!("--model-path Qwen/Qwen3-0.6B"),
};

pub static RENOISE_FULL_PREFILL: Rule = Rule {
    code: "DLLM019",
    name: kebab!("dllm-gemma4-renoise-full-prefill-graph-needs-fa4"),
    sglang: raises("dllm.algorithm.gemma4_renoise.Gemma4Renoise.configure_server_args", "Gemma4Renoise FULL prefill CUDA graphs require prefill backend 'fa4'; got '{prefill_backend}'."),
    explanation: expl!("Gemma4Renoise captures a full prefill CUDA graph only on the fa4 attention backend; with any other prefill backend (Gemma4Renoise switches a backend it does not support to triton) it refuses a full prefill graph. Leave the prefill graph to Gemma4Renoise (it turns it off), or use fa4 (on Blackwell) for attention."),
    flags: &["--dllm-algorithm", "--cuda-graph-backend-prefill"],
    example_bad: ex!("--model-path google/gemma-4-26B-A4B --dllm-algorithm Gemma4Renoise --cuda-graph-backend-prefill full"),
    example_good: ex!("--model-path google/gemma-4-26B-A4B --dllm-algorithm Gemma4Renoise"),
};

pub static RULES: &[&Rule] = &[
    &UNKNOWN_ALGORITHM,
    &REQUIRED_BACKEND,
    &TRITON_ON_AMD,
    &FLASHINFER_FOR_GRAPHS,
    &GRAPHS_OFF_ON_AMD,
    &OVERLAP_OFF,
    &NOT_A_DIFFUSION_MODEL,
    &INDEL_TOKENS_MISSING,
    &INDEL_TOKEN_NOT_INT,
    &INDEL_TOKEN_OUT_OF_VOCAB,
    &INDEL_TOKENS_NOT_DISTINCT,
    &BLOCK_ROUTING_BLOCK_SIZE,
    &RENOISE_DEVICE,
    &RENOISE_PIPELINE,
    &RENOISE_CONTEXT_PARALLEL,
    &RENOISE_QUANTIZED,
    &RENOISE_UNTIED,
    &RENOISE_NO_TEXT_CONFIG,
    &RENOISE_FULL_PREFILL,
];

/// `dllm_hook.handle_dllm_inference`.
pub fn handle_dllm_inference(ctx: &mut Ctx) -> Step {
    let Some(algorithm) = ctx.cfg.str(f::dllm_algorithm).map(str::to_string) else { return Ok(()) };
    // 0.5.18 looks no algorithm up at start-up (no `get_algorithm_cls` site)
    if !UNKNOWN_ALGORITHM.applies_to(ctx.release) {
        return handle_dllm_inference_0518(ctx);
    }
    // _dllm_attention_backend: get_algorithm_cls first.
    if !ALGORITHMS.contains(&algorithm.as_str()) {
        let mut fixes = Vec::new();
        if let Some(known) = ALGORITHMS.iter().find(|a| a.eq_ignore_ascii_case(&algorithm.replace('_', ""))) {
            fixes.push(ctx.fix_set(format!("Use --dllm-algorithm {known}"), f::dllm_algorithm, known, Applicability::Safe));
        } else {
            // nothing close: no diffusion decoding (whether the model is a diffusion LM, which any
            // algorithm needs, is its config's)
            fixes.push(ctx.fix_remove("Remove --dllm-algorithm", f::dllm_algorithm, Applicability::Unsafe));
        }
        ctx.raise(&UNKNOWN_ALGORITHM, &[("name", &algorithm)], &[f::dllm_algorithm], fixes)?;
    }
    dllm_attention_backend(ctx, &algorithm);
    // the algorithm's configure_server_args, a call of its own: what the pass above read (it
    // only sets backends) does not decide whether it raises
    ctx.cfg.forget_reads();
    if algorithm == "Gemma4Renoise" && !configure_gemma4_renoise(ctx)? {
        return Ok(());
    }

    if ctx.hw.is_hip()
        && (phase_backend(ctx, DECODE).is_some_and(|b| b != DISABLED) || phase_backend(ctx, PREFILL).is_some_and(|b| b != DISABLED))
    {
        ctx.warn(&GRAPHS_OFF_ON_AMD, &[], &[f::dllm_algorithm], Vec::new());
        with_phase(ctx, DECODE, "backend", PyValue::Str(DISABLED.into()));
        with_phase(ctx, PREFILL, "backend", PyValue::Str(DISABLED.into()));
    }

    // _dllm_overlap_disable
    if !ctx.cfg.truthy(f::disable_overlap_schedule) {
        let fixes = vec![ctx.fix_add_flag("Add --disable-overlap-schedule", f::disable_overlap_schedule, Applicability::Safe)];
        ctx.warn(&OVERLAP_OFF, &[], &[f::dllm_algorithm], fixes);
        ctx.cfg.set(f::disable_overlap_schedule, PyValue::Bool(true));
    }

    // _dllm_page_size → DllmConfig.from_server_args: the model's architecture decides the block
    // size and mask token, and whether the model is a diffusion LM at all. A pass of its own:
    // what the steps above read (they only warn and set values) does not decide that.
    ctx.cfg.forget_reads();
    // A family inferred from the name alone does not decide a raise.
    // (the release's `DLLM_PARAMS`, `model-lists.json`; without it the architecture decides nothing)
    let diffusion_lms = ctx.release.model_lists().map(|l| l.dllm_architectures.as_slice());
    let architecture = ctx.model_fact(site("dllm.config.DllmConfig.from_server_args", "Unknown diffusion LLM: {arch}"), |m| {
        m.architecture.filter(|_| m.from != crate::models::FactsFrom::InferredFamily && diffusion_lms.is_some())
    });
    if architecture.is_none() {
        ctx.model_config(site("dllm.config.DllmConfig.from_server_args", "The model config does not declare an architecture"));
    }
    if let Some(arch) = architecture.filter(|a| !diffusion_lms.unwrap_or_default().iter().any(|d| d == a)) {
        let fixes = vec![ctx.fix_remove("Drop --dllm-algorithm (not a diffusion model)", f::dllm_algorithm, Applicability::Unsafe)];
        ctx.raise(&NOT_A_DIFFUSION_MODEL, &[("arch", &arch)], &[f::dllm_algorithm], fixes)?;
    }
    if algorithm == "Gemma4Renoise" {
        // the one algorithm that names the architectures it decodes (DiffusionGemma's), checked
        // against a diffusion LM's (none the catalog knows gets past the tied-embeddings test)
        ctx.model_config(site("dllm.config.DllmConfig.from_server_args", "{cfg.dllm_algorithm} does not support model architecture"));
        return Ok(());
    }
    // (`{algorithm} does not support model architecture`: the other algorithms name no
    // architectures, so it cannot fire for them.)
    let config = architecture.and_then(|arch| DiffusionConfig::of(ctx, arch));
    if algorithm == "JointThresholdInDel" {
        // The checkpoint's delete / split token IDs (or --json-model-override-args') against its
        // vocabulary and mask token.
        match &config {
            Some(config) => indel_tokens(ctx, config)?,
            None => {
                ctx.model_config(site("dllm.config.DllmConfig.from_server_args", "JointThresholdInDel is not supported for checkpoint"));
                ctx.model_config(site("dllm.config.DllmConfig.from_server_args", "{token_name} must be an integer token ID"));
                ctx.model_config(site("dllm.config.DllmConfig.from_server_args", "{token_name} must be within the model vocabulary"));
                ctx.model_config(site("dllm.config.DllmConfig.from_server_args", "JointThresholdInDel token IDs must be distinct"));
            }
        }
    }
    if !ctx.cfg.is_none(f::dllm_algorithm_config) {
        // The YAML file is read on the serving machine, and may override the block size that
        // LLaDA2's expert routing needs to match the checkpoint's.
        ctx.skip(site("dllm.config.DllmConfig.from_server_args", "The dLLM algorithm config must be a YAML mapping"), NotRunReason::Files);
        ctx.skip(site("dllm.config.DllmConfig.from_server_args", "LLaDA2 block routing requires the dLLM block size"), NotRunReason::Files);
    } else {
        // The release's block size for the architecture against the checkpoint's own.
        match &config {
            Some(config) => block_routing(ctx, config)?,
            None => ctx.model_config(site("dllm.config.DllmConfig.from_server_args", "LLaDA2 block routing requires the dLLM block size")),
        }
    }
    ctx.cfg.mark_unknown(f::page_size);
    // When the model is a diffusion LM (else SGLang raised above), these follow from the flags;
    // their warnings are not claimed, as SGLang logs them only after the model's checks pass.
    diffusion_flag_adjustments(ctx);
    Ok(())
}

/// `Gemma4Renoise.configure_server_args` (where the release has it; 0.5.21 has no full-prefill
/// check). Ok(false) where it reads what is not known here (the model's config, or how the
/// tied-embeddings test ends on it), recorded as not run: the hook stops being followed there.
fn configure_gemma4_renoise(ctx: &mut Ctx) -> Result<bool, crate::rules::Raised> {
    if !RENOISE_DEVICE.applies_to(ctx.release) {
        ctx.skip_unlisted(RENOISE_CONFIGURE, NotRunReason::ModelConfig);
        return Ok(false);
    }
    if !ctx.cfg.is(f::device, "cuda") {
        let fixes = vec![ctx.fix_remove("Drop --dllm-algorithm", f::dllm_algorithm, Applicability::Unsafe)];
        ctx.raise(&RENOISE_DEVICE, &[], &[f::dllm_algorithm, f::device], fixes)?;
    }
    // model_config_of: the model's config is loaded here; the checks after it need it loaded.
    let sites_after_load = [
        "DiffusionGemma does not support pipeline parallelism",
        "DiffusionGemma does not support context parallelism",
        "DiffusionGemma does not support quantized loading",
        "DiffusionGemma requires tied word embeddings",
        "Gemma4Renoise FULL prefill CUDA graphs require",
    ];
    let Some(model) = ctx.model else {
        for message in sites_after_load {
            ctx.skip(site(RENOISE_CONFIGURE, message), NotRunReason::ModelConfig);
        }
        return Ok(false);
    };
    if ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 {
        let fixes = vec![ctx.fix_remove("Remove --pp-size", f::pp_size, Applicability::Unsafe)];
        ctx.raise(&RENOISE_PIPELINE, &[], &[f::pp_size, f::dllm_algorithm], fixes)?;
    }
    let context_parallel: Vec<_> = [f::dcp_size, f::attn_cp_size].into_iter().filter(|&fd| ctx.cfg.int(fd).unwrap_or(1) > 1).collect();
    if !context_parallel.is_empty() {
        let fixes = context_parallel.iter().map(|&fd| ctx.fix_remove(format!("Remove --{}", fd.name().replace('_', "-")), fd, Applicability::Unsafe)).collect();
        let mut fields = context_parallel.clone();
        fields.push(f::dllm_algorithm);
        ctx.raise(&RENOISE_CONTEXT_PARALLEL, &[], &fields, fixes)?;
    }
    // `model_config.quantization`: --quantization (verified against the checkpoint's earlier),
    // else the checkpoint's own, as SGLang's ModelConfig computed it (catalog models).
    let given = ctx.cfg.str(f::quantization).is_some();
    let quantized = if given { Some(true) } else { model.computed.map(|c| c.quantization.is_some()) };
    let Some(quantized) = quantized else {
        for message in &sites_after_load[2..] {
            ctx.skip(site(RENOISE_CONFIGURE, message), NotRunReason::ModelConfig);
        }
        return Ok(false);
    };
    if quantized {
        let fixes = if given { vec![ctx.fix_remove("Remove --quantization", f::quantization, Applicability::Unsafe)] } else { Vec::new() };
        ctx.raise(&RENOISE_QUANTIZED, &[], &[f::quantization, f::dllm_algorithm, f::model_path], fixes)?;
    }
    // The tied-embeddings test on the config as loaded: not known for another revision or where
    // --json-model-override-args rewrites what it reads.
    let overrides = crate::rules::shared::loaded_config::items(ctx);
    let rewritten = overrides.map_or(true, |items| items.iter().any(|(k, _)| k == "tie_word_embeddings" || k == "text_config"));
    let tie_check = model
        .computed
        .and_then(|c| c.diffusion_gemma_tie_check.clone())
        .filter(|_| !rewritten && !crate::rules::shared::loaded_config::other_revision(ctx, f::revision));
    let Some(tie_check) = tie_check else {
        for message in &sites_after_load[3..] {
            ctx.skip(site(RENOISE_CONFIGURE, message), NotRunReason::ModelConfig);
        }
        return Ok(false);
    };
    let drop_algorithm = |ctx: &Ctx| vec![ctx.fix_remove("Drop --dllm-algorithm (not a DiffusionGemma checkpoint)", f::dllm_algorithm, Applicability::Unsafe)];
    if let Some(message) = tie_check.strip_prefix("AttributeError: ") {
        let config_class = message.split('\'').nth(1).unwrap_or_default().to_string();
        let fixes = drop_algorithm(ctx);
        ctx.raise(&RENOISE_NO_TEXT_CONFIG, &[("config_class", &config_class)], &[f::dllm_algorithm, f::model_path], fixes)?;
    } else if tie_check != "tied" {
        let fixes = drop_algorithm(ctx);
        ctx.raise(&RENOISE_UNTIED, &[], &[f::dllm_algorithm, f::model_path], fixes)?;
    }
    if RENOISE_FULL_PREFILL.applies_to(ctx.release) && ctx.cfg.is_unknown(f::cuda_graph_config) {
        // whether the prefill graph is a full one is not known here
        ctx.skip(site("dllm.algorithm.gemma4_renoise.Gemma4Renoise.configure_server_args", "Gemma4Renoise FULL prefill CUDA graphs require"), NotRunReason::UnknownValue);
        return Ok(false);
    }
    // (0.5.21 has no full-prefill check: it turns the prefill graph off whatever it was)
    if RENOISE_FULL_PREFILL.applies_to(ctx.release) && phase_backend(ctx, PREFILL).as_deref() == Some(FULL) {
        let base = ctx.cfg.str(f::attention_backend).map(str::to_string);
        let (prefill_backend, _) = crate::rules::shared::model_override_base::attention_backends_of(ctx, base.as_deref());
        let prefill_backend = prefill_backend.unwrap_or_else(|| "None".into());
        if prefill_backend != "fa4" {
            let fixes = vec![ctx.fix_set("Use --cuda-graph-backend-prefill disabled", f::cuda_graph_backend_prefill, DISABLED, Applicability::Safe)];
            ctx.raise(&RENOISE_FULL_PREFILL, &[("prefill_backend", &prefill_backend)], &[f::cuda_graph_backend_prefill, f::dllm_algorithm], fixes)?;
        }
    } else {
        with_phase(ctx, PREFILL, "backend", PyValue::Str(DISABLED.into()));
    }
    ctx.cfg.set(f::disable_radix_cache, PyValue::Bool(true));
    ctx.cfg.set(f::chunked_prefill_size, PyValue::Int(-1));
    Ok(true)
}

/// What `DllmConfig.from_server_args` reads from a diffusion LM's config: the catalog's values
/// with `--json-model-override-args` applied (`config.update`), and the release's `DLLM_PARAMS`
/// for the architecture.
struct DiffusionConfig {
    values: Vec<(String, PyValue)>,
    /// The keys --json-model-override-args sets.
    overridden: Vec<String>,
    params: std::collections::BTreeMap<String, i64>,
}

impl DiffusionConfig {
    /// None where that config is not known here: not a catalog model, another revision, or
    /// overrides that are not a JSON object or that change the architecture or (for a config
    /// with a text config) the vocabulary.
    fn of(ctx: &Ctx, arch: &str) -> Option<DiffusionConfig> {
        let model = ctx.model.as_ref().filter(|m| m.from == crate::models::FactsFrom::Catalog)?;
        let facts = model.computed?.dllm.as_ref()?;
        if crate::rules::shared::loaded_config::other_revision(ctx, f::revision) {
            return None;
        }
        let overrides = crate::rules::shared::loaded_config::items(ctx)?;
        let has_text_config = !model.raw.is_some_and(|r| r.text_config_key.is_none());
        if overrides.iter().any(|(k, _)| k == "architectures" || (k == "vocab_size" && has_text_config)) {
            return None;
        }
        let mut values: Vec<(String, PyValue)> = facts.iter().map(|(k, v)| (k.clone(), PyValue::from_json(v))).collect();
        let overridden = overrides.iter().map(|(k, _)| k.clone()).collect();
        for (k, v) in overrides {
            values.retain(|(key, _)| *key != k);
            values.push((k, v));
        }
        let params = ctx.release.model_lists()?.dllm_params.get(arch)?.clone();
        Some(DiffusionConfig { values, overridden, params })
    }

    /// `getattr(hf_config, key, None)`.
    fn get(&self, key: &str) -> PyValue {
        self.values.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or(PyValue::None)
    }
}

/// The JointThresholdInDel token checks of `DllmConfig.from_server_args`.
fn indel_tokens(ctx: &mut Ctx, config: &DiffusionConfig) -> Step {
    let use_joint_threshold = |ctx: &Ctx| ctx.fix_set("Use --dllm-algorithm JointThreshold (no Insert/Delete edits)", f::dllm_algorithm, "JointThreshold", Applicability::Unsafe);
    let delete = config.get("delete_token_id");
    let split = config.get("split_token_id");
    if matches!(delete, PyValue::None) || matches!(split, PyValue::None) {
        let path = crate::pyvalue::str_repr(ctx.cfg.str(f::model_path).unwrap_or_default());
        let example = r#"{"delete_token_id": 156930, "split_token_id": 156931}"#;
        let fixes = vec![use_joint_threshold(ctx)];
        ctx.raise(&INDEL_TOKENS_MISSING, &[("cfg.model_path!r", &path), ("override_example", &example)], &[f::dllm_algorithm], fixes)?;
        return Ok(());
    }
    let PyValue::Int(vocab) = config.get("vocab_size") else {
        ctx.skip(site("dllm.config.DllmConfig.from_server_args", "{token_name} must be within the model vocabulary"), NotRunReason::ModelConfig);
        return Ok(());
    };
    let fields = [f::dllm_algorithm, f::json_model_override_args];
    for (name, id) in [("delete_token_id", &delete), ("split_token_id", &split)] {
        match id {
            PyValue::Int(i) if (0..vocab).contains(i) => {}
            PyValue::Int(_) | PyValue::BigInt(_) => {
                let fixes = vec![use_joint_threshold(ctx)];
                let (shown, vocab) = (id.repr(), vocab.to_string());
                ctx.raise(&INDEL_TOKEN_OUT_OF_VOCAB, &[("token_name", &name), ("vocab_size", &vocab), ("token_id", &shown)], &fields, fixes)?;
                return Ok(());
            }
            _ => {
                let fixes = vec![use_joint_threshold(ctx)];
                let shown = id.repr();
                ctx.raise(&INDEL_TOKEN_NOT_INT, &[("token_name", &name), ("token_id!r", &shown)], &fields, fixes)?;
                return Ok(());
            }
        }
    }
    let (PyValue::Int(delete), PyValue::Int(split)) = (delete, split) else { return Ok(()) };
    let Some(&mask) = config.params.get("mask_id") else {
        ctx.skip(site("dllm.config.DllmConfig.from_server_args", "JointThresholdInDel token IDs must be distinct"), NotRunReason::NotImplemented);
        return Ok(());
    };
    if mask == delete || mask == split || delete == split {
        let fixes = vec![use_joint_threshold(ctx)];
        let args: &Args = &[("mask_id", &mask), ("delete_token_id", &delete), ("split_token_id", &split)];
        ctx.raise(&INDEL_TOKENS_NOT_DISTINCT, args, &fields, fixes)?;
    }
    Ok(())
}

/// LLaDA2's block routing (a config with `expert_capacity`): the architecture's block size
/// (no --dllm-algorithm-config here) must be the checkpoint's `block_size`.
fn block_routing(ctx: &mut Ctx, config: &DiffusionConfig) -> Step {
    if matches!(config.get("expert_capacity"), PyValue::None) {
        return Ok(());
    }
    let Some(&block) = config.params.get("block_size") else {
        ctx.skip(site("dllm.config.DllmConfig.from_server_args", "LLaDA2 block routing requires the dLLM block size"), NotRunReason::NotImplemented);
        return Ok(());
    };
    let checkpoint = config.get("block_size");
    // `block_size != checkpoint_block_size`, as Python compares an int with the config's value
    let same = match checkpoint {
        PyValue::Int(i) => i == block,
        PyValue::Bool(b) => i64::from(b) == block,
        PyValue::Float(x) => x == block as f64,
        _ => false,
    };
    if !same {
        let shown = checkpoint.py_str();
        // Only a file (--dllm-algorithm-config) sets the decoding block size; what the command
        // can undo is its own override of the checkpoint's routing or block size.
        let mut fixes = Vec::new();
        if config.overridden.iter().any(|k| k == "block_size" || k == "expert_capacity") {
            fixes.push(ctx.fix_remove("Remove --json-model-override-args (keep the checkpoint's block routing)", f::json_model_override_args, Applicability::Unsafe));
        }
        ctx.raise(&BLOCK_ROUTING_BLOCK_SIZE, &[("checkpoint_block_size", &shown), ("block_size", &block)], &[f::json_model_override_args], fixes)?;
    }
    Ok(())
}

/// 0.5.18's `ServerArgs._handle_dllm_inference`: the CUDA graphs off on AMD, the attention
/// backend by platform, the overlap schedule off, then `_dllm_page_size`, whose
/// `DllmConfig.from_server_args` knows three diffusion LMs (no DiffusionGemma) and checks no
/// algorithm against the model.
fn handle_dllm_inference_0518(ctx: &mut Ctx) -> Step {
    if ctx.hw.is_hip()
        && (phase_backend(ctx, DECODE).is_some_and(|b| b != DISABLED) || phase_backend(ctx, PREFILL).is_some_and(|b| b != DISABLED))
    {
        ctx.warn(&GRAPHS_OFF_ON_AMD, &[], &[f::dllm_algorithm], Vec::new());
        with_phase(ctx, DECODE, "backend", PyValue::Str(DISABLED.into()));
        with_phase(ctx, PREFILL, "backend", PyValue::Str(DISABLED.into()));
    }
    dllm_attention_backend(ctx, "");
    if !ctx.cfg.truthy(f::disable_overlap_schedule) {
        let fixes = vec![ctx.fix_add_flag("Add --disable-overlap-schedule", f::disable_overlap_schedule, Applicability::Safe)];
        ctx.warn(&OVERLAP_OFF, &[], &[f::dllm_algorithm], fixes);
        ctx.cfg.set(f::disable_overlap_schedule, PyValue::Bool(true));
    }
    // _dllm_page_size, a pass of its own: what the passes above read (they only set values)
    // does not decide whether the model is a diffusion LM
    ctx.cfg.forget_reads();
    // (the release's `DLLM_PARAMS`, `model-lists.json`; without it the architecture decides nothing)
    let diffusion_lms = ctx.release.model_lists().map(|l| l.dllm_architectures.as_slice());
    let architecture = ctx.model_fact(site("dllm.config.DllmConfig.from_server_args", "Unknown diffusion LLM: {arch}"), |m| {
        m.architecture.filter(|_| m.from != crate::models::FactsFrom::InferredFamily && diffusion_lms.is_some())
    });
    if let Some(arch) = architecture.filter(|a| !diffusion_lms.unwrap_or_default().iter().any(|d| d == a)) {
        let fixes = vec![ctx.fix_remove("Drop --dllm-algorithm (not a diffusion model)", f::dllm_algorithm, Applicability::Unsafe)];
        ctx.raise(&NOT_A_DIFFUSION_MODEL, &[("arch", &arch)], &[f::dllm_algorithm], fixes)?;
    }
    if !ctx.cfg.is_none(f::dllm_algorithm_config) {
        // The YAML file is read on the serving machine.
        ctx.skip(site("dllm.config.DllmConfig.from_server_args", "Please install PyYAML"), NotRunReason::Files);
    }
    ctx.cfg.mark_unknown(f::page_size);
    // As in 0.5.23's model: their warnings are not claimed (SGLang logs them only after the
    // model's checks pass).
    diffusion_flag_adjustments(ctx);
    Ok(())
}

/// `overrides._dllm_attention_backend` for a known algorithm.
fn dllm_attention_backend(ctx: &mut Ctx, algorithm: &str) {
    let (required, supported): (Option<&str>, &[&str]) = match algorithm {
        "Gemma4Renoise" => (Some("triton"), &["triton", "fa4"]),
        _ => (None, &[]),
    };
    let backend = ctx.cfg.str(f::attention_backend).map(str::to_string);
    let in_supported = |v: Option<&str>| v.is_some_and(|b| supported.contains(&b));
    let prefill = ctx.cfg.str(f::prefill_attention_backend).map(str::to_string);
    let decode = ctx.cfg.str(f::decode_attention_backend).map(str::to_string);
    if in_supported(backend.as_deref())
        && [&prefill, &decode].iter().all(|v| v.is_none() || in_supported(v.as_deref()))
    {
        return;
    }
    if let Some(required) = required {
        let fields = [f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend];
        let changed: Vec<_> = fields.into_iter().filter(|&fd| ctx.cfg.str(fd) != Some(required)).collect();
        if !changed.is_empty() {
            let fixes = vec![ctx.fix_set(format!("Use --attention-backend {required}"), f::attention_backend, required, Applicability::Safe)];
            let args: &Args = &[("view.dllm_algorithm", &algorithm), ("backend", &required)];
            ctx.warn(&REQUIRED_BACKEND, args, &[f::attention_backend, f::dllm_algorithm], fixes);
            for fd in changed {
                ctx.cfg.set(fd, PyValue::Str(required.into()));
            }
        }
        return;
    }
    if ctx.hw.is_hip() {
        if !matches!(backend.as_deref(), Some("triton" | "aiter")) {
            let fixes = vec![ctx.fix_set("Use --attention-backend triton", f::attention_backend, "triton", Applicability::Safe)];
            ctx.warn(&TRITON_ON_AMD, &[], &[f::attention_backend, f::dllm_algorithm], fixes);
            ctx.cfg.set(f::attention_backend, PyValue::Str("triton".into()));
        }
    } else if ctx.hw.is_cuda() && phase_backend(ctx, DECODE).is_some_and(|b| b != DISABLED) && backend.as_deref() != Some("flashinfer") {
        let fixes = vec![ctx.fix_set("Use --attention-backend flashinfer", f::attention_backend, "flashinfer", Applicability::Safe)];
        ctx.warn(&FLASHINFER_FOR_GRAPHS, &[], &[f::attention_backend, f::dllm_algorithm], fixes);
        ctx.cfg.set(f::attention_backend, PyValue::Str("flashinfer".into()));
    }
}

/// What a diffusion LM turns off (both releases): the cache tiers without the radix cache,
/// pipeline parallelism, LoRA, PD disaggregation and mixed chunks.
fn diffusion_flag_adjustments(ctx: &mut Ctx) {
    if !ctx.cfg.truthy(f::disable_radix_cache) {
        for field in [f::enable_hierarchical_cache, f::enable_lmcache, f::enable_flexkv] {
            if ctx.cfg.truthy(field) {
                ctx.cfg.set(field, PyValue::Bool(false));
            }
        }
    }
    if ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 {
        ctx.cfg.set(f::pp_size, PyValue::Int(1));
    }
    if ctx.cfg.truthy(f::enable_lora) {
        ctx.cfg.set(f::enable_lora, PyValue::Bool(false));
    }
    if !ctx.cfg.is(f::disaggregation_mode, "null") {
        ctx.cfg.set(f::disaggregation_mode, PyValue::Str("null".into()));
    }
    if ctx.cfg.truthy(f::enable_mixed_chunk) {
        ctx.cfg.set(f::enable_mixed_chunk, PyValue::Bool(false));
    }
}
