//! Model-config construction (`sglang/srt/configs/model_config.py::ModelConfig.__init__`), in
//! its order: `--quantize-and-serve`, `--json-model-override-args` (parsed with `json.loads`, so
//! invalid JSON surfaces as Python's `JSONDecodeError`), then what needs the model's config:
//! `--context-length` against the context length SGLang derives from the config
//! (`_derive_context_length`) and `--quantization` against the checkpoint's own method
//! (`_verify_quantization`). Those read what SGLang's own `ModelConfig` computed for a catalog
//! model; for a given config the context length is replayed from its values as written
//! (`models::derived_context_length`) where that decides it, and so is a catalog or given
//! config's under an override of only its RoPE scaling or context-length keys, and a given
//! config's own quantization method is read as `_verify_quantization` reads it on this machine;
//! otherwise (and for an inferred family) they are not run.

use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::{Applicability, Fix};
use crate::hardware::Platform;
use crate::models::{ModelFacts, ModelLists};
use crate::pyjson;
use crate::pyvalue::PyValue;
use crate::fields::{f, Field};
use crate::release::{Release, SiteRef};
use crate::rules::{raises, raises_nth, site, warns, Sglang, Step};

pub static OVERRIDE_ARGS_JSON: Rule = Rule {
    code: "MC001",
    name: kebab!("json-model-override-args-invalid-json"),
    sglang: Sglang::Python { function: MODEL_CONFIG_INIT, raised_by: "json.loads", exception: "JSONDecodeError", template: "{json error}: line {l} column {c} (char {n})", raises_in: None },
    explanation: expl!("--json-model-override-args must be a JSON object, parsed by Python's json.loads when SGLang builds the model config. Keys and strings need double quotes, and the whole value must be one shell word: wrap it in single quotes, e.g. '{\"rope_scaling\": {\"factor\": 4.0}}'."),
    flags: &["--json-model-override-args"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --json-model-override-args '{rope_theta: 1000000}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --json-model-override-args '{\"rope_theta\": 1000000}'"),
};

pub static QUANTIZE_AND_SERVE_NEEDS_MODELOPT: Rule = Rule {
    code: "MC002",
    name: kebab!("quantize-and-serve-needs-modelopt"),
    sglang: raises("configs.model_config.ModelConfig._validate_quantize_and_serve_config", "quantize_and_serve requires ModelOpt"),
    explanation: expl!("--quantize-and-serve quantizes the model with ModelOpt while loading it, so it needs a ModelOpt --quantization (modelopt, modelopt_fp8, modelopt_fp4, modelopt_mixed or nvfp4_online). SGLang 0.5.23 disables the feature anyway (MC003): quantize and export the model first, then serve the exported checkpoint."),
    flags: &["--quantize-and-serve", "--quantization"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --quantize-and-serve"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static QUANTIZE_AND_SERVE_DISABLED: Rule = Rule {
    code: "MC003",
    name: kebab!("quantize-and-serve-disabled"),
    sglang: raises("configs.model_config.ModelConfig._validate_quantize_and_serve_config", "quantize_and_serve functionality is currently disabled"),
    explanation: expl!("SGLang 0.5.23 keeps --quantize-and-serve but always refuses it: quantize and export the model with ModelOpt first, then serve the exported checkpoint without the flag."),
    flags: &["--quantize-and-serve"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --quantize-and-serve --quantization modelopt_fp8"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --quantization modelopt_fp8"),
};

pub static CONTEXT_LENGTH_OVER_DERIVED: Rule = Rule {
    code: "MC004",
    name: kebab!("context-length-over-model-maximum"),
    sglang: raises("configs.model_config.ModelConfig._derive_context_length", "{msg} To allow overriding"),
    explanation: expl!("--context-length is larger than the context length SGLang derives from the model's config (max_position_embeddings, scaled by rope_scaling where the model has it, or the model's own limit). SGLang refuses it unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 is set, since positions past what the model was trained for give wrong outputs or CUDA errors. Use the model's length (or less), or set the variable if the model really supports more (a rope scaling you configured yourself). A rope_scaling given in --json-model-override-args does not raise the derived length when it names original_max_position_embeddings or is of type yarn, llama3 or longrope (SGLang multiplies by its factor only otherwise), which is how YaRN is usually written: the variable is then what lets the longer context through."),
    flags: &["--context-length"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --context-length 131072"),
    example_good: ex!("--model-path Qwen/Qwen3-8B --context-length 40960"),
};

pub static CONTEXT_LENGTH_OVER_DERIVED_ALLOWED: Rule = Rule {
    code: "MC005",
    name: kebab!("context-length-over-model-maximum-allowed"),
    sglang: warns("configs.model_config.ModelConfig._derive_context_length", "Warning: {reason} context_length"),
    explanation: expl!("--context-length is larger than the context length SGLang derives from the model's config, and SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN (or SGLANG_IS_IN_CI) lets SGLang use it anyway. Positions past what the model was trained for can give wrong outputs or CUDA errors unless the model really supports them."),
    flags: &["--context-length"],
    example_bad: ex!("SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 python -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 131072"),
    example_good: ex!("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 40960"),
};

pub static QUANTIZATION_MISMATCH: Rule = Rule {
    code: "MC006",
    name: kebab!("quantization-does-not-match-checkpoint"),
    sglang: raises("configs.model_config.ModelConfig._verify_quantization", "Quantization method specified in the model config"),
    explanation: expl!("The checkpoint is already quantized (its config's quantization_config names the method) and --quantization names another method that SGLang cannot load it with. Leave --quantization out to use the checkpoint's own method, or give that method."),
    flags: &["--quantization"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp 8 --quantization awq"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp 8"),
};

pub static UNKNOWN_QUANTIZATION: Rule = Rule {
    code: "MC007",
    name: kebab!("quantization-not-available-on-platform"),
    sglang: raises_nth("configs.model_config.ModelConfig._verify_quantization", "Unknown quantization method", 0),
    explanation: expl!("--quantization accepts this method on the command line, but SGLang has no implementation of it on this platform (plain gptq runs only on CPU, NPU and XPU; mlx_q4 / mlx_q8 only on Apple MPS). On CUDA, GPTQ checkpoints load with gptq_marlin, which SGLang also picks by itself when --quantization is left out."),
    flags: &["--quantization"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --quantization gptq"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static QUANTIZATION_NOT_ON_ROCM: Rule = Rule {
    code: "MC009",
    name: kebab!("quantization-not-supported-on-rocm"),
    sglang: raises_nth("configs.model_config.ModelConfig._verify_quantization", "{self.quantization} quantization is currently not supported in ROCm", 0),
    explanation: expl!("On AMD GPUs (ROCm) SGLang loads only some quantization methods: awq, fp8, compressed-tensors, w8a8_fp8, petit_nvfp4, quark (and its MX variants), mxfp4, mxfp8 and auto-round. The Marlin kernels, ModelOpt's methods, bitsandbytes, GGUF ... are CUDA only."),
    flags: &["--quantization"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --quantization awq_marlin"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --quantization awq"),
};

pub static QUANTIZATION_NOT_OPTIMIZED: Rule = Rule {
    code: "MC008",
    name: kebab!("quantization-not-fully-optimized"),
    sglang: warns("configs.model_config.ModelConfig._verify_quantization", "{self.quantization} quantization is not fully optimized"),
    explanation: expl!("SGLang serves this quantization method with kernels it does not count as optimized on this GPU (MXFP4 and MXFP8 are optimized on SM100, e.g. B200): it runs, possibly slower than the unquantized model. A method with optimized kernels (fp8, the *_marlin ones, ModelOpt's, compressed-tensors ...) is faster where the checkpoint allows it."),
    flags: &["--quantization", "--model-path"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --quantization awq"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --quantization awq_marlin"),
};

pub static CHECKPOINT_QUANTIZATION_UNAVAILABLE: Rule = Rule {
    code: "MC010",
    name: kebab!("checkpoint-quantization-not-available-on-platform"),
    sglang: raises_nth("configs.model_config.ModelConfig._verify_quantization", "Unknown quantization method", 0),
    explanation: expl!("The checkpoint is quantized with a method SGLang has no implementation of on this platform: without --quantization SGLang takes the method the model's config declares and checks it like a given one. gpt-oss's MXFP4 weights, for one, load on ROCm only on MI350 / MI355 (gfx950). Serve another quantization of the model (a BF16 or FP8 checkpoint) here, or this one on a platform that has the method."),
    flags: &["--model-path"],
    example_bad: ex!("python -m sglang.launch_server --model-path openai/gpt-oss-20b  # on MI300X"),
    example_good: ex!("python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B-FP8  # on MI300X: a method ROCm has"),
};

pub static CHECKPOINT_QUANTIZATION_NOT_ON_ROCM: Rule = Rule {
    code: "MC011",
    name: kebab!("checkpoint-quantization-not-supported-on-rocm"),
    sglang: raises_nth("configs.model_config.ModelConfig._verify_quantization", "{self.quantization} quantization is currently not supported in ROCm", 0),
    explanation: expl!("The checkpoint is quantized with a method SGLang does not load on AMD GPUs (ROCm): without --quantization SGLang takes the method the model's config declares (ModelOpt's NVFP4 / FP8, as NVIDIA's published checkpoints use) and ROCm has only awq, fp8, compressed-tensors, w8a8_fp8, petit_nvfp4, quark (and its MX variants), mxfp4, mxfp8 and auto-round. Serve the model's FP8 or BF16 checkpoint on ROCm."),
    flags: &["--model-path"],
    example_bad: ex!("python -m sglang.launch_server --model-path nvidia/Kimi-K2.5-NVFP4 --tp-size 8  # on MI300X"),
    example_good: ex!("python -m sglang.launch_server --model-path moonshotai/Kimi-K2.5 --tp-size 8  # on MI300X"),
};

pub static MODEL_TYPE_NOT_RECOGNIZED: Rule = Rule {
    code: "MC012",
    name: kebab!("model-type-not-recognized-by-transformers"),
    sglang: Sglang::Python {
        function: MODEL_CONFIG_INIT,
        raised_by: "transformers.AutoConfig.from_pretrained",
        exception: "ValueError",
        template: "The checkpoint you are trying to load has model type `{config_dict['model_type']}` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date.\n\nYou can update Transformers with the command `pip install --upgrade transformers`. If this does not work, and the checkpoint is very new, then there may not be a release version that supports this model yet. In this case, you can get the most up-to-date code by installing Transformers from source with the command `pip install git+https://github.com/huggingface/transformers.git`",
        raises_in: None,
    },
    explanation: expl!("SGLang loads the model's config.json with transformers' AutoConfig, which needs a config class for its model_type: one of the installed transformers, or one SGLang registers itself. This SGLang release (with the transformers it pins) has neither for this model type, so building the model config fails at start-up. A newer SGLang release knows the model (MiMo-V2-Flash, for one, needs SGLang 0.5.19 or later); a config that ships its own code (auto_map) loads with --trust-remote-code."),
    flags: &["--model-path"],
    // (SGLang 0.5.18 on `--model-path XiaomiMiMo/MiMo-V2-Flash`: examples are checked on 0.5.23, which loads every catalog model)
    example_bad: ex!(""),
    example_good: ex!("--model-path XiaomiMiMo/MiMo-V2-Flash"),
};

pub static CUSTOM_CODE_NOT_TRUSTED: Rule = Rule {
    code: "MC014",
    name: kebab!("model-code-needs-trust-remote-code"),
    sglang: Sglang::Python {
        function: MODEL_CONFIG_INIT,
        raised_by: "transformers.AutoConfig.from_pretrained",
        exception: "ValueError",
        template: "{error_message} You can inspect the repository content at https://hf.co/{model_name}.\nPlease pass the argument `trust_remote_code=True` to allow custom code to be run.",
        raises_in: None,
    },
    explanation: expl!("The model's config.json has a model_type that neither this release's transformers nor SGLang has a config class for, and an auto_map naming the checkpoint's own configuration code (configuration_*.py next to config.json). transformers' AutoConfig runs that code only when asked to, so without --trust-remote-code building the model config fails at start-up. Adding the flag runs Python code that comes with the checkpoint: do it for checkpoints whose source you trust."),
    flags: &["--model-path", "--trust-remote-code"],
    // (SGLang on `--model-path JetLM/SDAR-4B-Chat`: the catalog does not have it, so examples,
    // checked without a given config, cannot show it; a local folder of it does, see the cases)
    example_bad: ex!(""),
    example_good: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code"),
};

pub static NO_NUM_ATTENTION_HEADS: Rule = Rule {
    code: "MC013",
    name: kebab!("config-class-has-no-num-attention-heads"),
    sglang: Sglang::Python {
        function: DERIVE_MODEL_SHAPES,
        raised_by: "getattr",
        exception: "AttributeError",
        template: "'{type(self.hf_text_config).__name__}' object has no attribute 'num_attention_heads'",
        // 0.5.19 on read it with a default (the release's lists say which read it without)
        raises_in: Some(reads_num_attention_heads_without_default),
    },
    explanation: expl!("This SGLang release reads num_attention_heads of the model's (text) config when it builds the model config, with no default. Attention-free models (Mamba, Falcon-Mamba, RWKV ...) have no such value: their transformers config class neither sets it nor maps it, so start-up fails. SGLang 0.5.19 and later read it with a default and serve these models."),
    flags: &["--model-path"],
    // (SGLang 0.5.18 on `--model-path tiiuae/Falcon3-Mamba-7B-Base`: examples are checked on 0.5.23)
    example_bad: ex!(""),
    example_good: ex!("--model-path tiiuae/Falcon3-Mamba-7B-Base"),
};

/// Where SGLang builds the model config (`get_config`, transformers' `AutoConfig`, runs in it).
const MODEL_CONFIG_INIT: &str = "configs.model_config.ModelConfig.__init__";
const DERIVE_MODEL_SHAPES: &str = "configs.model_config.ModelConfig._derive_model_shapes";

/// Whether `release` reads `hf_text_config.num_attention_heads` with no default (its lists say;
/// a release without lists is taken to, as 0.5.18 does).
fn reads_num_attention_heads_without_default(release: &Release) -> bool {
    release.model_lists().map_or(true, |l| l.model_config_reads_num_attention_heads != Some(false))
}

pub static RULES: &[&Rule] = &[
    &QUANTIZE_AND_SERVE_NEEDS_MODELOPT,
    &QUANTIZE_AND_SERVE_DISABLED,
    &OVERRIDE_ARGS_JSON,
    &CONTEXT_LENGTH_OVER_DERIVED,
    &CONTEXT_LENGTH_OVER_DERIVED_ALLOWED,
    &QUANTIZATION_MISMATCH,
    &UNKNOWN_QUANTIZATION,
    &QUANTIZATION_NOT_ON_ROCM,
    &QUANTIZATION_NOT_OPTIMIZED,
    &CHECKPOINT_QUANTIZATION_UNAVAILABLE,
    &CHECKPOINT_QUANTIZATION_NOT_ON_ROCM,
    &MODEL_TYPE_NOT_RECOGNIZED,
    &CUSTOM_CODE_NOT_TRUSTED,
    &NO_NUM_ATTENTION_HEADS,
];

const CONTEXT_LENGTH_SITE: SiteRef = site("configs.model_config.ModelConfig._derive_context_length", "{msg} To allow overriding");
const QUANTIZATION_SITE: SiteRef = site("configs.model_config.ModelConfig._verify_quantization", "Quantization method specified in the model config");
const UNKNOWN_QUANTIZATION_SITE: SiteRef = site("configs.model_config.ModelConfig._verify_quantization", "Unknown quantization method");
const ROCM_QUANTIZATION_SITE: SiteRef = site("configs.model_config.ModelConfig._verify_quantization", "{self.quantization} quantization is currently not supported in ROCm");

/// `_MODELOPT_QUANTIZATION_METHODS` of `_validate_quantize_and_serve_config`.
const MODELOPT_QUANTIZATION_METHODS: &[&str] = &["modelopt", "modelopt_fp8", "modelopt_fp4", "nvfp4_online", "modelopt_mixed"];

/// Runs where SGLang first constructs `ModelConfig` (at `apply_inkling_prefill_cuda_graph_default`),
/// in `ModelConfig.__init__`'s order: the first raise stops the construction.
pub fn model_config_init(ctx: &mut Ctx) -> Step {
    quantize_and_serve(ctx)?;
    override_args_json(ctx)?;
    if !config_loaded_by_muse_spark_step(ctx) {
        config_class_known(ctx)?;
    }
    let loaded = loaded_config(ctx);
    let Some(context_overrides) = loaded.context else {
        skip_config_checks(ctx, true);
        return Ok(());
    };
    derive_context_length(ctx, &context_overrides)?;
    if !loaded.rest_as_catalog {
        skip_config_checks(ctx, false);
        return Ok(());
    }
    num_attention_heads_attribute(ctx)?;
    verify_quantization(ctx)
}

const MUSE_SPARK_STEP: &str = "muse_spark_hook.apply_muse_spark_env_defaults";

/// Whether the release's `apply_muse_spark_env_defaults` loads the model's config (`get_config`,
/// skipped for a remote-instance path) before any other step does.
fn config_loaded_by_muse_spark_step(ctx: &Ctx) -> bool {
    crate::rules::pipeline::runs_step(ctx.release, MUSE_SPARK_STEP)
        && !ctx.cfg.str(f::model_path).is_some_and(super::shared::loaded_config::is_instance_connector)
}

/// `apply_muse_spark_env_defaults`: its `get_config` is where transformers first refuses a config
/// class it cannot load (before the deprecation warnings and checks of the steps after it, and
/// before `ModelConfig` is built).
pub fn muse_spark_get_config(ctx: &mut Ctx) -> Step {
    if !config_loaded_by_muse_spark_step(ctx) {
        return Ok(());
    }
    config_class_known(ctx)
}

/// `_derive_model_shapes` (after `_derive_context_length`): a release that reads
/// `hf_text_config.num_attention_heads` as an attribute fails on a config class that has none
/// (the release's lists name the classes), unless config.json writes the key. Decided where the
/// config is its own text config (no sub-config taken for the language model).
fn num_attention_heads_attribute(ctx: &mut Ctx) -> Step {
    let Some(lists) = ctx.release.model_lists() else { return Ok(()) };
    if lists.model_config_reads_num_attention_heads != Some(true) {
        return Ok(());
    }
    let Some(raw) = ctx.model.and_then(|m| m.raw) else { return Ok(()) };
    if raw.text_config_key.is_some() || raw.num_attention_heads.is_some() {
        return Ok(());
    }
    let Some(class) = raw.model_type.as_deref().and_then(|t| lists.text_configs_without_num_attention_heads.get(t)) else { return Ok(()) };
    let class = class.clone();
    ctx.raise(&NO_NUM_ATTENTION_HEADS, &[("type(self.hf_text_config).__name__", &class)], &[f::model_path], vec![])
}

/// `get_config` (transformers' `AutoConfig.from_pretrained`): the config's `model_type` needs a
/// config class of this release's transformers or SGLang. Without one, a config with no
/// `auto_map` fails with transformers' message; one with `auto_map` loads its own code under
/// --trust-remote-code and is refused without it (`resolve_trust_remote_code`). A given config
/// tells, and the catalog records it of the published config.json: where unknown (an inferred
/// family, a catalog entry without the record), and where the code loads, the check is not run.
fn config_class_known(ctx: &mut Ctx) -> Step {
    let Some(lists) = ctx.release.model_lists() else { return Ok(()) };
    let Some(model_type) = ctx.model.and_then(|m| m.raw).and_then(|r| r.model_type.as_deref()) else { return Ok(()) };
    if lists.loads_model_type(model_type) != Some(false) {
        return Ok(());
    }
    if !ctx.cfg.is_none(f::model_config_parser) && !ctx.cfg.is(f::model_config_parser, "auto") && !ctx.cfg.is(f::model_config_parser, "hf") {
        ctx.skip_unlisted(MODEL_CONFIG_INIT, NotRunReason::ModelConfig);
        return Ok(());
    }
    let ships_code = ctx.model.and_then(|m| m.ships_config_code);
    if ships_code == Some(true) && !ctx.cfg.truthy(f::trust_remote_code) {
        return custom_code_not_trusted(ctx, MODEL_CONFIG_INIT);
    }
    if ships_code != Some(false) || ctx.cfg.truthy(f::trust_remote_code) {
        ctx.skip_unlisted(MODEL_CONFIG_INIT, NotRunReason::ModelConfig);
        return Ok(());
    }
    let model_type = model_type.to_string();
    ctx.raise(&MODEL_TYPE_NOT_RECOGNIZED, &[("config_dict['model_type']", &model_type)], &[f::model_path], vec![])
}

/// transformers' `resolve_trust_remote_code` on a config whose own code is needed: its message
/// names the model path as SGLang passes it, a local folder by its absolute path. Not run where
/// that message is not known here: code in another repository (`repo--module.Class`, named
/// instead), or a relative path (a folder here or a hub id on the serving machine).
fn custom_code_not_trusted(ctx: &mut Ctx, check: &'static str) -> Step {
    let other_repo = ctx.model.and_then(|m| m.config_code_in_other_repo);
    let model_name = ctx.cfg.str(f::model_path).unwrap_or_default().to_string();
    let location = if let Some(folder) = model_name.strip_prefix('/') {
        // os.path.abspath: no trailing separator
        format!("/{}", folder.trim_end_matches('/'))
    } else if looks_like_hub_id(&model_name) {
        format!("https://hf.co/{model_name}")
    } else {
        String::new()
    };
    if other_repo != Some(false) || location.is_empty() {
        ctx.skip_unlisted(check, NotRunReason::ModelConfig);
        return Ok(());
    }
    let error_message = format!("The repository {model_name} contains custom code which must be executed to correctly load the model. You can inspect the repository content at {location} .\n");
    let fix = ctx.fix_add_flag("Add --trust-remote-code (runs the checkpoint's own code)", f::trust_remote_code, Applicability::Unsafe);
    ctx.raise(&CUSTOM_CODE_NOT_TRUSTED, &[("error_message", &error_message), ("model_name", &model_name)], &[f::model_path], vec![fix])
}

/// `org/name`: the form of a hub repository id (a relative folder can have it too).
fn looks_like_hub_id(path: &str) -> bool {
    let mut parts = path.split('/');
    let ok = |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && !p.starts_with('.') && !p.starts_with('~'));
    ok(parts.next()) && ok(parts.next()) && parts.next().is_none()
}

/// `_validate_quantize_and_serve_config`: the flag is refused whatever the quantization.
fn quantize_and_serve(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.truthy(f::quantize_and_serve) {
        return Ok(());
    }
    let drop = ctx.fix_remove("Drop --quantize-and-serve (quantize and export first, then serve the export)", f::quantize_and_serve, Applicability::Unsafe);
    let modelopt = ctx.cfg.str(f::quantization).is_some_and(|q| MODELOPT_QUANTIZATION_METHODS.contains(&q));
    if !modelopt {
        let mut sorted = MODELOPT_QUANTIZATION_METHODS.to_vec();
        crate::sorting::sort(&mut sorted);
        let listed = sorted.join(", ");
        ctx.raise(&QUANTIZE_AND_SERVE_NEEDS_MODELOPT, &[("', '.join(sorted(_MODELOPT_QUANTIZATION_METHODS))", &listed)], &[f::quantize_and_serve, f::quantization], vec![drop.clone()])?;
    }
    ctx.raise(&QUANTIZE_AND_SERVE_DISABLED, &[], &[f::quantize_and_serve], vec![drop])
}

/// The config SGLang loads here, against the one the model facts describe.
struct LoadedConfig {
    /// What `get_context_length` reads differently: the `--json-model-override-args` items that
    /// set the RoPE scaling or a context-length key (none: the config's own values). None when
    /// not known here: another config file, revision or parser, an override of the text
    /// sub-config or of what picks it, or of `rope_parameters`.
    context: Option<Vec<(String, PyValue)>>,
    /// Whether nothing else the later checks read differs (no override but those and `rope_theta`).
    rest_as_catalog: bool,
}

fn loaded_config(ctx: &Ctx) -> LoadedConfig {
    let other_file = !ctx.cfg.is_none(f::decrypted_config_file) || !ctx.cfg.is_none(f::revision) || !ctx.cfg.is(f::model_config_parser, "auto");
    let Some(items) = super::shared::loaded_config::items(ctx).filter(|_| !other_file) else {
        return LoadedConfig { context: None, rest_as_catalog: false };
    };
    let reads_context = |k: &str| k == "rope_scaling" || crate::models::is_context_length_key(k);
    // `get_config` sets each item on the loaded config (a dict one on a sub-config is merged
    // into it): what could change which values `get_context_length` reads.
    let picks_text_config = items.iter().any(|(k, v)| matches!(k.as_str(), "architectures" | "rope_parameters") || (matches!(v, PyValue::Dict(_)) && !reads_context(k)));
    let rest_as_catalog = items.iter().all(|(k, _)| reads_context(k) || k == "rope_theta");
    let context = (!picks_text_config).then(|| items.into_iter().filter(|(k, _)| reads_context(k)).collect());
    LoadedConfig { context, rest_as_catalog }
}

/// The checks of the model's config SGLang would run from here (with the context length's when
/// `with_context`), recorded as not run: the config it loads is not the one the facts describe.
fn skip_config_checks(ctx: &mut Ctx, with_context: bool) {
    if with_context {
        ctx.skip(CONTEXT_LENGTH_SITE, NotRunReason::ModelConfig);
    }
    ctx.skip(QUANTIZATION_SITE, NotRunReason::ModelConfig);
    if ctx.release.model_lists().is_some_and(|l| l.model_config_reads_num_attention_heads == Some(true)) {
        ctx.skip_unlisted(DERIVE_MODEL_SHAPES, NotRunReason::ModelConfig);
    }
}

fn override_args_json(ctx: &mut Ctx) -> Step {
    let Some(text) = ctx.cfg.str(f::json_model_override_args).map(str::to_string) else { return Ok(()) };
    if let Err(e) = pyjson::loads(&text) {
        let span = ctx.span_of(&[f::json_model_override_args]);
        // object keys written without quotes (`{rope_theta: 1000000}`): quote them
        let fixes = quote_bare_keys(&text)
            .filter(|fixed| pyjson::loads(fixed).is_ok())
            .map(|fixed| ctx.fix_set("Quote the keys", f::json_model_override_args, &crate::shell::single_quote(&fixed), Applicability::Safe))
            .into_iter()
            .collect();
        let raised = ctx.raise(&OVERRIDE_ARGS_JSON, &[], &[f::json_model_override_args], fixes);
        // Python's own exception: its class and message are json.loads' (JSONDecodeError, or
        // RecursionError for deep nesting), not the rule's template, so they are set as printed.
        if raised.is_err() {
            if let Some(d) = ctx.diagnostics.last_mut() {
                d.exception = Some(e.exception.to_string());
                d.message = e.message;
                d.span = span;
            }
        }
        return raised;
    }
    Ok(())
}

/// `_derive_context_length`: a `--context-length` above the derived length raises, or (with
/// SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN or SGLANG_IS_IN_CI) warns and is used.
/// With `overrides` (RoPE scaling and context-length items of `--json-model-override-args`; none
/// is an empty slice), the length is replayed from the model's config as written with them applied.
fn derive_context_length(ctx: &mut Ctx, overrides: &[(String, PyValue)]) -> Step {
    let Some(context_length) = ctx.cfg.int(f::context_length) else { return Ok(()) };
    // EmbeddingGemma2Model caps only the derived value (min with 8192), not a given one; the
    // catalog's context length is the capped one, so it is not the derived length there.
    // A given config's is replayed from its values as written where that is decided.
    let lists = ctx.release.model_lists();
    let derived = ctx.model_fact(CONTEXT_LENGTH_SITE, |m: &ModelFacts| {
        if m.architecture == Some("EmbeddingGemma2Model") {
            return None;
        }
        if !overrides.is_empty() {
            return match (m.from, m.raw, lists) {
                (crate::models::FactsFrom::InferredFamily, ..) => None,
                (_, Some(raw), Some(lists)) => crate::models::derived_context_length(&crate::models::with_context_overrides(raw, overrides)?, lists),
                _ => None,
            };
        }
        let replayed = || match (m.from, m.raw, lists) {
            (crate::models::FactsFrom::GivenConfig, Some(raw), Some(lists)) => crate::models::derived_context_length(raw, lists),
            _ => None,
        };
        m.computed.map(|c| c.context_length).or_else(replayed)
    });
    let Some(derived) = derived else { return Ok(()) };
    if context_length <= derived {
        return Ok(());
    }
    let msg = format!(
        "Warning: User-specified context_length ({context_length}) is greater than the derived context_length ({derived}). This may lead to incorrect model outputs or CUDA errors. Note that the derived context_length may differ from max_position_embeddings in the model's config."
    );
    let allowed = crate::rules::shared::envs::env_bool(ctx, "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN") || crate::rules::shared::envs::env_bool(ctx, "SGLANG_IS_IN_CI");
    if allowed {
        let fixes = vec![ctx.fix_set(format!("Use the model's context length ({derived})"), f::context_length, &derived.to_string(), Applicability::Unsafe)];
        ctx.warn(
            &CONTEXT_LENGTH_OVER_DERIVED_ALLOWED,
            &[("reason", &"User-specified"), ("context_length", &context_length), ("derived_context_len", &derived)],
            &[f::context_length],
            fixes,
        );
        return Ok(());
    }
    let fixes = vec![
        ctx.fix_set(format!("Use the model's context length ({derived})"), f::context_length, &derived.to_string(), Applicability::Unsafe),
        ctx.fix_remove("Drop --context-length (SGLang uses the model's)", f::context_length, Applicability::Unsafe),
        Fix::advice("Set SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 if the model really supports the longer context"),
    ];
    ctx.raise(&CONTEXT_LENGTH_OVER_DERIVED, &[("msg", &msg)], &[f::context_length], fixes)
}

/// `_verify_quantization`'s lists of this release (`model-lists.json`, read from its source).
fn quantization_lists(ctx: &Ctx) -> Option<&'static ModelLists> {
    ctx.release.model_lists().filter(|l| !l.quantization_registry.is_empty())
}

fn listed(list: &[impl AsRef<str>], method: &str) -> bool {
    list.iter().any(|m| m.as_ref() == method)
}

/// `QUANTIZATION_METHODS` of this release on this machine, in its order (the message lists it):
/// the base methods, then each platform's `update` whose condition holds here (a key updated
/// again keeps its place). None on a machine or condition not read here (the CPU's own table).
fn registered_quantization_methods<'l>(ctx: &Ctx, lists: &'l ModelLists) -> Option<Vec<&'l str>> {
    if !matches!(ctx.hw.platform, Platform::Cuda | Platform::Rocm) {
        return None;
    }
    Some(quantization_registry(ctx, lists)?.into_iter().map(|(m, _)| m).collect())
}

/// `QUANTIZATION_METHODS` on this machine (CUDA, ROCm or CPU), in its order, each method with
/// the class whose `override_quantization_method` it runs (None: `QuantizationConfig`'s, which
/// returns None). A key updated again keeps its place and takes the new class. None for a
/// condition not read here.
fn quantization_registry<'l>(ctx: &Ctx, lists: &'l ModelLists) -> Option<Vec<(&'l str, Option<&'l str>)>> {
    let gfx95 = ctx.hw.gcn_arch.is_some_and(|a| a.contains("gfx95"));
    let holds = |atom: &str| match atom {
        "is_cuda()" => Some(ctx.hw.platform == Platform::Cuda),
        "is_hip()" => Some(ctx.hw.platform == Platform::Rocm),
        "is_cpu()" => Some(ctx.hw.platform == Platform::Cpu),
        "_is_gfx95_supported" => Some(ctx.hw.platform == Platform::Rocm && gfx95),
        "is_xpu()" | "is_npu()" | "is_mps()" | "is_musa()" => Some(false),
        _ => None,
    };
    let mut methods: Vec<(&'l str, Option<&'l str>)> = Vec::new();
    for registration in &lists.quantization_registry {
        let applies = match registration.when.as_deref() {
            None => true,
            Some(when) => {
                let mut any = false;
                for atom in when.split(" or ") {
                    any |= holds(atom.trim())?;
                }
                any
            }
        };
        if applies {
            for m in &registration.methods {
                let class = registration.overrides.get(m).map(String::as_str);
                match methods.iter_mut().find(|(k, _)| *k == m.as_str()) {
                    Some(entry) => entry.1 = class,
                    None => methods.push((m, class)),
                }
            }
        }
    }
    Some(methods)
}

/// The `supported_quantization` list as the message prints it.
fn py_list(methods: &[&str]) -> String {
    format!("[{}]", methods.iter().map(|m| format!("'{m}'")).collect::<Vec<_>>().join(", "))
}


/// `_verify_quantization` for the target model: with `--quantization` given, each registered
/// method's `override_quantization_method` may replace it (and the checkpoint's method) with
/// one it derives from the checkpoint's quantization config; then the checkpoint's method
/// against what is left of it, then whether this platform has the method SGLang settled on;
/// then the warning for a method without optimized kernels.
fn verify_quantization(ctx: &mut Ctx) -> Step {
    let Some(asked) = ctx.cfg.str(f::quantization).map(str::to_ascii_lowercase) else {
        return verify_checkpoint_quantization(ctx);
    };
    let Some(model) = ctx.model else {
        ctx.skip(QUANTIZATION_SITE, NotRunReason::ModelConfig);
        return Ok(());
    };
    let Some(raw) = model.raw else {
        ctx.skip(QUANTIZATION_SITE, NotRunReason::ModelConfig);
        return Ok(());
    };
    let checkpoint = match checkpoint_quant_config(&model, raw) {
        Ok(c) => c,
        Err(NotRunReason::ModelConfig) => {
            ctx.skip(QUANTIZATION_SITE, NotRunReason::ModelConfig);
            return Ok(());
        }
        Err(reason) => return not_decided(ctx, reason),
    };
    let Some(lists) = quantization_lists(ctx) else {
        ctx.skip(QUANTIZATION_SITE, NotRunReason::NotImplemented);
        return Ok(());
    };
    // No quantization config at all (neither SGLang nor the raw facts found one): `asked` stays.
    let Some(checkpoint) = checkpoint else {
        return verify_method_on_platform(ctx, lists, &asked, false);
    };
    // `quant_cfg.get("quant_method", <the asked method>).lower()`
    let mut quant_method = checkpoint.quant_method.as_deref().unwrap_or(&asked).to_lowercase();
    let mut settled = asked.clone();
    let mut checkpoints = false;
    let requantization = listed(&lists.requantization_methods, &asked);
    // (the preserved online draft quantization is the draft model's: this is the target's)
    if !requantization {
        match overriding_method(ctx, lists, &checkpoint, Some(&asked)) {
            Ok(Some(method)) => {
                // the method comes from the checkpoint (not the one asked for, or the one it declares)
                checkpoints = method != asked || checkpoint.quant_method.as_deref().is_some_and(|m| m.eq_ignore_ascii_case(&method));
                quant_method.clone_from(&method);
                settled = method;
            }
            Ok(None) => {}
            Err(reason) => return not_decided(ctx, reason),
        }
    }
    if settled != quant_method {
        let compatible = lists.compatible_quantization_methods.get(&settled).is_some_and(|ms| listed(ms, &quant_method));
        if !compatible && !requantization {
            let method = quant_method;
            let fixes = vec![
                ctx.fix_remove(format!("Drop --quantization (the checkpoint's {method} is used)"), f::quantization, Applicability::Unsafe),
                ctx.fix_set(format!("Use the checkpoint's method: --quantization {method}"), f::quantization, &method, Applicability::Unsafe),
            ];
            ctx.raise(&QUANTIZATION_MISMATCH, &[("quant_method", &method), ("self.quantization", &settled)], &[f::quantization], fixes)?;
        }
    }
    verify_method_on_platform(ctx, lists, &settled, checkpoints)
}

/// The checkpoint's quantization config as `_verify_quantization` holds it, after
/// `_parse_quant_hf_config`: what the methods' overrides and the comparison read of it.
struct CheckpointQuantConfig {
    /// `quant_method` (ModelOpt's parsed method where SGLang parses the config as ModelOpt's:
    /// no `quant_method`, or "modelopt", or an `hf_quant_config.json`); None: the key is absent.
    quant_method: Option<String>,
    /// `quant_algo` as written (None: absent or not a string).
    quant_algo: Option<String>,
}

/// `_parse_quant_hf_config`'s result for the model: Ok(None) where SGLang finds no
/// quantization config; Err with why it is not known here. For a catalog model SGLang's own
/// detection (run without --quantization) gives ModelOpt's parsed method; a given config's
/// top-level config (no text sub-config it could have been taken from) is parsed here.
fn checkpoint_quant_config(model: &ModelFacts, raw: &crate::models::RawFacts) -> Result<Option<CheckpointQuantConfig>, NotRunReason> {
    let modelopt = |q: &crate::models::QuantFacts| q.from == "hf_quant_config.json" || q.quant_method.as_deref().map_or(true, |m| m == "modelopt");
    let with_method = |q: &crate::models::QuantFacts, quant_method: Option<String>| CheckpointQuantConfig { quant_method, quant_algo: q.quant_algo.clone() };
    match (&raw.quantization, model.computed) {
        (None, Some(computed)) if computed.quantization.is_none() => Ok(None),
        // The method SGLang detected on CUDA without --quantization: for a ModelOpt config, the
        // method it parsed (no override changes a parsed ModelOpt method there).
        (Some(q), Some(computed)) => match computed.quantization.as_deref() {
            Some(detected) if modelopt(q) => Ok(Some(with_method(q, Some(detected.to_string())))),
            Some(_) if q.from == "quantization_config" => Ok(Some(with_method(q, q.quant_method.clone()))),
            _ => Err(NotRunReason::NotImplemented),
        },
        // A given config SGLang was not run on: its top-level `quantization_config` is the one
        // SGLang reads (no text sub-config to have taken it from), or a separate
        // `hf_quant_config.json`.
        (Some(q), None) if raw.text_config_key.is_none() => {
            if !modelopt(q) {
                return Ok(Some(with_method(q, q.quant_method.clone())));
            }
            match parse_modelopt_quant_algo(q.quant_algo.as_deref()) {
                Ok(Some(method)) => Ok(Some(with_method(q, Some(method.to_string())))),
                // not ModelOpt's: the config as it is, or none from `hf_quant_config.json`
                Ok(None) if q.from == "quantization_config" => Ok(Some(with_method(q, q.quant_method.clone()))),
                Ok(None) => Ok(None),
                Err(()) => Err(NotRunReason::NotImplemented),
            }
        }
        // A given folder that declares no quantization anywhere SGLang looks: none to compare.
        (None, None) if model.known_unquantized => Ok(None),
        (_, None) => Err(NotRunReason::ModelConfig),
        // SGLang detected a method where the raw facts have no config (a `compression_config` ...)
        _ => Err(NotRunReason::NotImplemented),
    }
}

/// `_parse_modelopt_quant_config`'s method for a ModelOpt algorithm (compared as written):
/// Ok(None) for one it does not parse; Err for mixed precision, whose method
/// (modelopt_mixed or w4afp8) depends on the layers' algorithms, not read here.
fn parse_modelopt_quant_algo(quant_algo: Option<&str>) -> Result<Option<&'static str>, ()> {
    Ok(match quant_algo {
        Some("MIXED_PRECISION") => return Err(()),
        Some(a) if a.contains("FP4") => Some("modelopt_fp4"),
        Some("FP8") => Some("modelopt_fp8"),
        Some("MXFP8") => Some("mxfp8"),
        _ => None,
    })
}

/// `_verify_quantization`'s loop over `QUANTIZATION_METHODS`: the method the first registered
/// method's `override_quantization_method` returns for the checkpoint's config and the asked
/// method, Ok(None) when none does. Err where one's answer is not known here: a class whose
/// override is not replayed, AWQ / GPTQ checkpoints (Marlin's support of their bits and group
/// size on this GPU), a machine not modelled.
fn overriding_method(ctx: &Ctx, lists: &ModelLists, checkpoint: &CheckpointQuantConfig, asked: Option<&str>) -> Result<Option<String>, NotRunReason> {
    let Some(registry) = quantization_registry(ctx, lists) else { return Err(NotRunReason::Hardware) };
    // `quant_cfg.get("quant_method", "").lower()`, as the overrides that read it lower-cased do
    let method = checkpoint.quant_method.as_deref().unwrap_or("").to_lowercase();
    let exactly = |m: &str| checkpoint.quant_method.as_deref() == Some(m);
    for (_, class) in registry {
        let found = match class {
            None => None,
            // QuantizationConfig._modelopt_override_quantization_method
            Some("ModelOptFp8Config" | "ModelOptFp4Config") => {
                if asked == Some("nvfp4_online") || asked.is_some_and(|a| listed(&lists.requantization_methods, a)) {
                    None
                } else {
                    let mut generic = None;
                    if asked == Some("modelopt") {
                        let Some(rules) = &lists.modelopt_quant_algo_rules else { return Err(NotRunReason::NotImplemented) };
                        let algo = checkpoint.quant_algo.as_deref().unwrap_or("").to_uppercase();
                        for rule in rules {
                            if rule.holds(&algo).ok_or(NotRunReason::NotImplemented)? {
                                generic = Some(rule.method.clone());
                                break;
                            }
                        }
                    }
                    generic.or_else(|| ["modelopt_fp8", "modelopt_fp4"].into_iter().find(|m| exactly(m)).map(str::to_string))
                }
            }
            Some("ModelOptMixedPrecisionConfig") => exactly("modelopt_mixed").then(|| "modelopt_mixed".to_string()),
            // is_awq_marlin_compatible: CUDA and an AWQ config, then its bits, group size and
            // zero point against Marlin's kernels
            Some("AWQMarlinConfig") => {
                if ctx.hw.platform == Platform::Cuda && method == "awq" {
                    return Err(NotRunReason::NotImplemented);
                }
                None
            }
            // is_gptq_marlin_compatible: a GPTQ config, then its bits, group size, sym, desc_act
            Some("GPTQMarlinConfig") => {
                if method == "gptq" {
                    return Err(NotRunReason::NotImplemented);
                }
                None
            }
            // moe_wna16 asked for, on a GPTQ or AWQ config (its bits, desc_act, the GPU)
            Some("MoeWNA16Config") => {
                if asked == Some("moe_wna16") && matches!(method.as_str(), "gptq" | "awq") {
                    return Err(NotRunReason::NotImplemented);
                }
                None
            }
            Some("PetitNvFp4Config") => (ctx.hw.is_hip() && method == "modelopt").then(|| "petit_nvfp4".to_string()),
            Some("HummingConfig") => (!exactly("mxfp4") && asked == Some("humming")).then(|| "humming".to_string()),
            Some(_) => return Err(NotRunReason::NotImplemented),
        };
        if found.is_some() {
            return Ok(found);
        }
    }
    Ok(None)
}

/// `_verify_quantization`'s checks of the method it settled on: registered on this platform,
/// and on ROCm in ROCm's list. The lists are this release's, on CUDA and ROCm. `checkpoints`:
/// the method is the checkpoint's, which --quantization does not change (the findings are then
/// the model's, with no fix on the flag).
fn verify_method_on_platform(ctx: &mut Ctx, lists: &ModelLists, method: &str, checkpoints: bool) -> Step {
    let method = method.to_string();
    let Some(methods) = registered_quantization_methods(ctx, lists) else {
        ctx.skip(UNKNOWN_QUANTIZATION_SITE, NotRunReason::Hardware);
        return Ok(());
    };
    if !listed(&methods, &method) {
        let supported = py_list(&methods);
        let args: &[(&str, &dyn std::fmt::Display)] = &[("self.quantization", &method), ("supported_quantization", &supported)];
        if checkpoints {
            ctx.raise(&CHECKPOINT_QUANTIZATION_UNAVAILABLE, args, &[f::model_path], vec![])?;
        } else {
            let mut fixes = Vec::new();
            if method == "gptq" && ctx.hw.is_cuda() {
                fixes.push(ctx.fix_set("Use gptq_marlin (SGLang's GPTQ kernel on CUDA)", f::quantization, "gptq_marlin", Applicability::Unsafe));
            }
            fixes.push(ctx.fix_remove("Drop --quantization (a quantized checkpoint's own method is detected)", f::quantization, Applicability::Unsafe));
            ctx.raise(&UNKNOWN_QUANTIZATION, args, &[f::quantization], fixes)?;
        }
    }
    if ctx.hw.is_hip() && !listed(&lists.rocm_supported_quantization, &method) {
        if checkpoints {
            ctx.raise(&CHECKPOINT_QUANTIZATION_NOT_ON_ROCM, &[("self.quantization", &method)], &[f::model_path], vec![])?;
        } else {
            let fixes = vec![ctx.fix_remove("Drop --quantization", f::quantization, Applicability::Unsafe)];
            ctx.raise(&QUANTIZATION_NOT_ON_ROCM, &[("self.quantization", &method)], &[f::quantization], fixes)?;
        }
    }
    warn_not_optimized(ctx, lists, &method, if checkpoints { f::model_path } else { f::quantization });
    Ok(())
}

/// Without --quantization SGLang takes the checkpoint's own method (as its `ModelConfig` detected
/// it: the catalog's computed value) and checks it like a given one: registered on this platform,
/// and on ROCm in ROCm's list. The catalog ran SGLang on CUDA; on ROCm, a method some other
/// method's `override_quantization_method` picks by platform (AWQ / GPTQ to Marlin on CUDA,
/// petit_nvfp4 on ROCm ...) may be another one there, so those are not decided.
fn verify_checkpoint_quantization(ctx: &mut Ctx) -> Step {
    let on_rocm = ctx.hw.is_hip();
    let Some(model) = ctx.model else {
        // An unknown checkpoint's method may be one ROCm does not load (the catalog's NVFP4
        // checkpoints are); on CUDA every method SGLang detects is one it registers there.
        if on_rocm {
            checkpoint_checks_not_run(ctx, NotRunReason::ModelConfig);
        }
        return Ok(());
    };
    let method = match (model.computed, model.raw) {
        (Some(computed), _) => {
            let method = computed.quantization.as_deref().map(str::to_ascii_lowercase);
            // (detected on CUDA: a method whose override depends on the platform may differ here)
            if on_rocm && method.as_deref().is_some_and(|m| PLATFORM_OVERRIDDEN_QUANTIZATION_METHODS.contains(&m)) {
                checkpoint_checks_not_run(ctx, NotRunReason::NotImplemented);
                return Ok(());
            }
            method
        }
        // A config given as a file: its quantization config read as SGLang reads it, on this machine.
        (None, Some(raw)) => match given_checkpoint_method(ctx, &model, raw) {
            Ok(method) => method,
            Err(reason) => {
                if on_rocm && raw.quantization.is_some() {
                    checkpoint_checks_not_run(ctx, reason);
                }
                return Ok(());
            }
        },
        (None, None) => {
            if on_rocm {
                checkpoint_checks_not_run(ctx, NotRunReason::ModelConfig);
            }
            return Ok(());
        }
    };
    let Some(method) = method else { return Ok(()) };
    let Some(lists) = quantization_lists(ctx) else {
        checkpoint_checks_not_run(ctx, NotRunReason::NotImplemented);
        return Ok(());
    };
    let Some(registered) = registered_quantization_methods(ctx, lists) else {
        checkpoint_checks_not_run(ctx, NotRunReason::Hardware);
        return Ok(());
    };
    if !listed(&registered, &method) {
        let supported = py_list(&registered);
        ctx.raise(&CHECKPOINT_QUANTIZATION_UNAVAILABLE, &[("self.quantization", &method), ("supported_quantization", &supported)], &[f::model_path], vec![])?;
    }
    if on_rocm && !listed(&lists.rocm_supported_quantization, &method) {
        ctx.raise(&CHECKPOINT_QUANTIZATION_NOT_ON_ROCM, &[("self.quantization", &method)], &[f::model_path], vec![])?;
    }
    warn_not_optimized(ctx, lists, &method, f::model_path);
    Ok(())
}

/// The method `_verify_quantization` settles on without `--quantization` for a config given as a
/// file: the first registered method's `override_quantization_method` of the checkpoint's
/// config, else its `quant_method` (lower-cased). Ok(None) when it has no quantization config.
fn given_checkpoint_method(ctx: &Ctx, model: &ModelFacts, raw: &crate::models::RawFacts) -> Result<Option<String>, NotRunReason> {
    let Some(checkpoint) = checkpoint_quant_config(model, raw)? else { return Ok(None) };
    let lists = quantization_lists(ctx).ok_or(NotRunReason::NotImplemented)?;
    if let Some(method) = overriding_method(ctx, lists, &checkpoint, None)? {
        return Ok(Some(method));
    }
    // (a config without `quant_method` that is not ModelOpt's: "", not replayed)
    checkpoint.quant_method.map(|m| Some(m.to_lowercase())).ok_or(NotRunReason::NotImplemented)
}

/// Methods SGLang may reach through a platform-dependent `override_quantization_method` (or that
/// one may replace): what SGLang detected on CUDA is not what it detects on ROCm.
const PLATFORM_OVERRIDDEN_QUANTIZATION_METHODS: &[&str] = &["awq", "awq_marlin", "gptq", "gptq_marlin", "moe_wna16", "petit_nvfp4", "humming"];


/// SGLang's warning for `method` (the quantization `_verify_quantization` settled on), on CUDA
/// and ROCm.
/// `on`: the flag that chose the method (--quantization, or --model-path for the checkpoint's own).
fn warn_not_optimized(ctx: &mut Ctx, lists: &ModelLists, method: &str, on: Field) {
    if ctx.hw.platform == Platform::Cpu || listed(&lists.optimized_quantization_methods, method) {
        return;
    }
    if matches!(method, "mxfp4" | "mxfp8") && crate::rules::shared::runtime_context::is_sm100(ctx.hw) {
        return;
    }
    ctx.warn(&QUANTIZATION_NOT_OPTIMIZED, &[("self.quantization", &method)], &[on], vec![]);
}

/// The method `_verify_quantization` settles on is not known here (`reason`: the override of an
/// AWQ / GPTQ checkpoint, a ModelOpt mixed-precision config SGLang was not run on, a machine not
/// modelled ...): neither is the comparison with the checkpoint's, nor its checks of the method,
/// whether the platform registers it and ROCm's list.
fn not_decided(ctx: &mut Ctx, reason: NotRunReason) -> Step {
    ctx.skip(QUANTIZATION_SITE, reason);
    checkpoint_checks_not_run(ctx, reason);
    Ok(())
}

/// `_verify_quantization`'s checks of the method it settled on did not run: whether it is
/// registered, and on ROCm whether ROCm supports it.
fn checkpoint_checks_not_run(ctx: &mut Ctx, reason: NotRunReason) {
    ctx.skip(UNKNOWN_QUANTIZATION_SITE, reason);
    if ctx.hw.is_hip() {
        ctx.skip(ROCM_QUANTIZATION_SITE, reason);
    }
}

/// `text` with each bare object key (a name right after `{` or `,`, followed by `:`) put in
/// double quotes; None when there is none.
fn quote_bare_keys(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut in_string = false;
    let mut last_sig = ' ';
    let mut changed = false;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(&n) = chars.get(i + 1) {
                    out.push(n);
                    i += 1;
                }
            } else if c == '"' {
                in_string = false;
                last_sig = '"';
            }
            i += 1;
            continue;
        }
        if c == '"' {
            in_string = true;
        } else if (c.is_ascii_alphabetic() || c == '_') && matches!(last_sig, '{' | ',') {
            let start = i;
            while chars.get(i).is_some_and(|&k| k.is_ascii_alphanumeric() || matches!(k, '_' | '-' | '.')) {
                i += 1;
            }
            let mut j = i;
            while chars.get(j).is_some_and(|k| k.is_whitespace()) {
                j += 1;
            }
            let word: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
            if chars.get(j) == Some(&':') {
                out.push('"');
                out.push_str(&word);
                out.push('"');
                changed = true;
            } else {
                out.push_str(&word);
            }
            last_sig = 'a';
            continue;
        }
        out.push(c);
        if !c.is_whitespace() {
            last_sig = c;
        }
        i += 1;
    }
    changed.then_some(out)
}
