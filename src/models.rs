//! Knowing the model: the facts SGLang reads from a model's `config.json`, from the built-in
//! catalog (`data/models/catalog.json`, built by `tools/build_catalog.py` by running SGLang's own
//! `ModelConfig` on public configs) or from a config the user gives.
//!
//! Pure: no I/O. The catalog is embedded in the native build only ([`builtin`]); the page's wasm
//! stays as small as it was and will fetch the catalog on demand.

use serde::Serialize;
use std::collections::BTreeMap;

/// What a `config.json` says, read as written (the text config of a multimodal model for the
/// sizes). `tools/build_catalog.py` reads configs the same way, so a pasted copy of a catalog
/// config gives the catalog entry's raw facts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RawFacts {
    pub architecture: Option<String>,
    pub model_type: Option<String>,
    /// The sub-config holding the language model (`text_config`, `llm_config` ...), if any.
    pub text_config_key: Option<String>,
    /// That sub-config's `model_type`.
    pub text_model_type: Option<String>,
    pub hidden_size: Option<i64>,
    pub num_attention_heads: Option<i64>,
    pub num_key_value_heads: Option<i64>,
    pub head_dim: Option<i64>,
    pub num_hidden_layers: Option<i64>,
    pub routed_experts: Option<i64>,
    pub shared_experts: Option<i64>,
    pub experts_per_token: Option<i64>,
    pub kv_lora_rank: Option<i64>,
    pub index_topk: Option<i64>,
    pub sliding_window: Option<i64>,
    /// How many layers of each type `layer_types` lists.
    pub layer_types: Option<BTreeMap<String, i64>>,
    pub torch_dtype: Option<String>,
    pub max_position_embeddings: Option<i64>,
    pub quantization: Option<QuantFacts>,
    /// DSA index-topk sharing, as the top-level config writes it: every `index_topk_freq`-th
    /// layer computes the top-k indices, an `S` in `index_topk_pattern` or a `shared` indexer
    /// type reuses them.
    pub index_topk_freq: Option<i64>,
    pub index_topk_pattern: Option<String>,
    pub indexer_types: Option<Vec<String>>,
    /// The `format` of each of `quantization_config.config_groups` in the text config (the
    /// top-level config without one); None without such a `quantization_config`. Read by
    /// `model_overrides.kimi_k3`'s MoE runner default (`_is_mxfp4_pack_quantized`).
    pub text_quant_group_formats: Option<Vec<String>>,
    /// The text config's `mlp_hidden_act` (model_overrides.nemotron_h asserts `relu2` for a
    /// ModelOpt checkpoint).
    pub mlp_hidden_act: Option<String>,
    // Read by kv_shard's checks (kv_shard_hook.handle_kv_cache_sharding):
    /// Local (chunked) attention's chunk, from the text config (`ModelConfig.attention_chunk_size`).
    pub attention_chunk_size: Option<i64>,
    /// `ModelConfig.num_nextn_predict_layers`, from the text config (kv_shard's speculative check).
    pub num_nextn_predict_layers: Option<i64>,
    // Speculative decoding (src/rules/shared/dflash_utils.rs, dspark_config.rs and
    // speculative.rs's DFLASH / DSpark handlers): the keys SGLang's DFlash and DSpark draft
    // parsers read, as written (values kept whole: SGLang checks their types), with
    // `text_config`'s among them. None when the config has another language-model sub-config
    // (`llm_config` ...), whose pick is transformers' `get_text_config`.
    pub speculative_draft_keys: Option<serde_json::Map<String, serde_json::Value>>,
    // model_hook.handle_language_model_only (its message prints the list):
    /// `architectures`, the whole list.
    pub architectures: Option<Vec<String>>,
    // model_hook's Exaone branch (`hf_config.sliding_window_pattern is not None`):
    /// `sliding_window_pattern` of the top-level config: a string as written, an integer as its
    /// decimal text; None when absent or null (not told apart).
    pub sliding_window_pattern: Option<String>,
    // ModelConfig._derive_context_length, replayed for a given config (`derived_context_length`):
    /// The first of the text config's `CONTEXT_LENGTH_KEYS` written (not null), when an integer.
    pub context_length_values: Option<BTreeMap<String, i64>>,
    /// The text config's RoPE scaling (`rope_parameters`, else `rope_scaling`).
    pub rope_scaling: Option<RopeScalingFacts>,
    // Read by overrides.rs's DSA passes (`_dsa_kv_cache_dtype_default`,
    // `_dsa_split_backend_resolution`): `bool(getattr(hf_config, "learnable_sink", False))`
    // of the top-level config, None when the config does not write it.
    pub learnable_sink: Option<bool>,
    /// `index_kpool` of the top-level config (`get_dsa_index_kpool`: 1 when absent), read by the
    /// DeepSeek family's override provider (model_overrides/deepseek_v2.rs).
    pub index_kpool: Option<i64>,
    /// `auto_map` names an `AutoConfig`: transformers' AutoConfig loads the config's own code
    /// for a model_type the release does not know (with --trust-remote-code). Read from the
    /// published config.json as written; None where not recorded.
    pub ships_config_code: Option<bool>,
    /// That `AutoConfig` reference names another repository (`repo--module.Class`): transformers'
    /// refusal without --trust-remote-code then names that repository, not the model's. None
    /// where not recorded.
    #[serde(default)]
    pub config_code_in_other_repo: Option<bool>,
}
crate::from_json!(RawFacts { architecture, model_type, text_config_key, text_model_type, hidden_size, num_attention_heads, num_key_value_heads, head_dim, num_hidden_layers, routed_experts, shared_experts, experts_per_token, kv_lora_rank, index_topk, sliding_window, layer_types, torch_dtype, max_position_embeddings, quantization, index_topk_freq, index_topk_pattern, indexer_types, text_quant_group_formats, mlp_hidden_act, attention_chunk_size, num_nextn_predict_layers, speculative_draft_keys, architectures, sliding_window_pattern, context_length_values, rope_scaling, learnable_sink, index_kpool, ships_config_code, config_code_in_other_repo });

/// The top-level keys of [`RawFacts::speculative_draft_keys`] (`tools/build_catalog.py`'s
/// `DRAFT_KEYS`, the same list).
pub const DRAFT_KEYS: &[&str] = &[
    "dflash_config", "dspark_config", "block_size", "num_target_layers", "target_layer_ids", "mask_token", "mask_token_id",
    "projector_type", "shift_label", "pure_draft_prefix_len", "gru_hidden_dim", "emb_dim", "markov_rank", "markov_head_type",
    "dspark_block_size", "dspark_markov_rank", "dspark_markov_head_type", "dspark_noise_token_id", "dspark_target_layer_ids",
    "num_hidden_layers", "layer_types", "is_causal",
];

/// The keys of `text_config` kept with them (`DRAFT_TEXT_KEYS` there).
pub const DRAFT_TEXT_KEYS: &[&str] = &["num_hidden_layers", "markov_rank", "markov_head_type", "mask_token_id", "layer_types", "is_causal"];

/// [`RawFacts::speculative_draft_keys`] of a config.
fn speculative_draft_keys(cfg: &Object) -> Option<serde_json::Map<String, serde_json::Value>> {
    let sub_config = |k: &str| cfg.get(k).is_some_and(serde_json::Value::is_object);
    if !sub_config("text_config") && ["llm_config", "language_config", "thinker_config"].iter().any(|k| sub_config(k)) {
        return None;
    }
    // (inserted one by one: collecting into a map compiles a stable sort of its own)
    let pick = |o: &Object, keys: &[&str]| -> serde_json::Map<String, serde_json::Value> {
        let mut picked = serde_json::Map::new();
        for k in keys {
            if let Some(v) = o.get(*k) {
                picked.insert((*k).to_string(), v.clone());
            }
        }
        picked
    };
    let mut out = pick(cfg, DRAFT_KEYS);
    if let Some(text) = cfg.get("text_config").and_then(serde_json::Value::as_object) {
        out.insert("text_config".into(), serde_json::Value::Object(pick(text, DRAFT_TEXT_KEYS)));
    }
    Some(out)
}

/// What `get_context_length` reads of a config's RoPE scaling.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RopeScalingFacts {
    /// `rope_type`, else `type`.
    pub rope_type: Option<String>,
    /// `factor`, when it is a number.
    pub factor: Option<serde_json::Number>,
    /// Whether the dict has a `factor` key (a null or non-number one makes SGLang fail).
    pub factor_given: bool,
    pub has_original_max_position_embeddings: bool,
    /// Both `rope_parameters` and `rope_scaling` are written: which one the config class keeps is
    /// not replayed.
    pub both_keys: bool,
}
crate::from_json!(RopeScalingFacts { rope_type, factor, factor_given, has_original_max_position_embeddings, both_keys });

/// `CONTEXT_LENGTH_KEYS` of `sglang/srt/utils/hf_transformers/common.py`, in its order.
const CONTEXT_LENGTH_KEYS: [&str; 5] = ["max_sequence_length", "seq_length", "max_seq_len", "model_max_length", "max_position_embeddings"];

/// `get_context_length(hf_text_config)` replayed on a config's values as written (SGLang 0.5.23
/// with transformers 5, which moves the RoPE scaling into `rope_parameters` and adds
/// `original_max_position_embeddings` to llama3, yarn and longrope scaling). None where the
/// config class could make it differ or SGLang could not load the config: a model type
/// transformers has no class for (remote code) or SGLang has its own class for, none of the keys
/// written (the class's defaults apply), a factor that is not a number.
pub fn derived_context_length(raw: &RawFacts, lists: &ModelLists) -> Option<i64> {
    let model_type = raw.model_type.as_deref()?;
    let listed = |list: &[String], t: &str| list.iter().any(|x| x == t);
    if !listed(&lists.transformers_config_model_types, model_type) {
        return None;
    }
    let types = [Some(model_type), raw.text_model_type.as_deref()];
    if types.iter().flatten().any(|t| listed(&lists.sglang_config_model_types, t)) || lists.sglang_config_model_types.is_empty() {
        return None;
    }
    // SGLang reads a thinker's own `text_config` (Qwen2.5-Omni), which the facts do not hold.
    if raw.text_config_key.as_deref() == Some("thinker_config") {
        return None;
    }
    let values = raw.context_length_values.as_ref()?;
    let value = CONTEXT_LENGTH_KEYS.iter().find_map(|k| values.get(*k))?;
    let factor = match &raw.rope_scaling {
        None => 1.0,
        Some(r) if r.both_keys => return None,
        Some(r) if r.has_original_max_position_embeddings || matches!(r.rope_type.as_deref(), Some("llama3" | "yarn" | "longrope")) => 1.0,
        Some(r) if !r.factor_given => 1.0,
        Some(r) => r.factor.as_ref()?.as_f64()?,
    };
    // int(rope_scaling_factor * val)
    let scaled = (factor * *value as f64).trunc();
    (scaled.is_finite() && scaled.abs() < 9.0e15).then_some(scaled as i64)
}

/// `raw` as `get_config` leaves it after `--json-model-override-args` items that set the RoPE
/// scaling (a dict, on a config without one) or a context-length key (`setattr`). None where
/// that is not replayed here: a model with a text sub-config (whose own values SGLang reads), a
/// config with a RoPE scaling of its own (merged by 0.5.23, replaced before), a value of another
/// type, a `type` key, a config whose context-length key is not known. (The caller passes only
/// these items.)
pub fn with_context_overrides(raw: &RawFacts, items: &[(String, crate::pyvalue::PyValue)]) -> Option<RawFacts> {
    use crate::pyvalue::PyValue;
    if raw.text_config_key.is_some() {
        return None;
    }
    let mut out = raw.clone();
    for (key, value) in items {
        match (key.as_str(), value) {
            // 0.5.23 merges the dict into the config's own, earlier releases replace it: only a
            // config without one reads the same either way
            ("rope_scaling", PyValue::Dict(_)) if raw.rope_scaling.is_some() => return None,
            ("rope_scaling", PyValue::Dict(entries)) => {
                let rope = out.rope_scaling.get_or_insert_with(RopeScalingFacts::default);
                for (k, v) in entries {
                    match (k.as_str(), v) {
                        ("rope_type", PyValue::Str(t)) => rope.rope_type = Some(t.clone()),
                        ("rope_type" | "type", _) => return None,
                        ("factor", v) => {
                            rope.factor_given = true;
                            rope.factor = match v {
                                PyValue::Int(i) => Some(serde_json::Number::from(*i)),
                                PyValue::Float(x) => serde_json::Number::from_f64(*x),
                                _ => None,
                            };
                        }
                        ("original_max_position_embeddings", _) => rope.has_original_max_position_embeddings = true,
                        _ => {}
                    }
                }
            }
            (k, PyValue::Int(n)) if CONTEXT_LENGTH_KEYS.contains(&k) => {
                out.context_length_values.as_mut()?.insert(k.to_string(), *n);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Whether `key` is one of the config keys `get_context_length` reads (`CONTEXT_LENGTH_KEYS`).
pub fn is_context_length_key(key: &str) -> bool {
    CONTEXT_LENGTH_KEYS.contains(&key)
}

/// The essentials of a checkpoint's quantization: `quantization_config` or `hf_quant_config.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct QuantFacts {
    /// `quantization_config` or `hf_quant_config.json`.
    pub from: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quant_method: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fmt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quant_algo: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_cache_quant_algo: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activation_scheme: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bits: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_block_size: Option<Vec<i64>>,
}
crate::from_json!(QuantFacts { from, quant_method, fmt, quant_algo, kv_cache_quant_algo, activation_scheme, format, bits, weight_block_size });

/// What SGLang's `ModelConfig` computed for a catalog config (by running it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SglangFacts {
    /// `hf_config.architectures[0]` as SGLang's config class leaves it (it may rewrite the
    /// config's own: Olmo3 is served as Olmo2ForCausalLM); what its architecture lists and model
    /// override providers are keyed on.
    pub architecture: Option<String>,
    pub context_length: i64,
    pub dtype: String,
    pub quantization: Option<String>,
    pub num_kv_heads: i64,
    /// None for models without attention layers (pure state-space models such as Mamba).
    pub num_attention_heads: Option<i64>,
    pub head_dim: i64,
    pub num_hidden_layers: i64,
    pub is_mla: bool,
    pub is_dsa: bool,
    pub is_multimodal: bool,
    pub is_embedding: bool,
    pub is_hybrid_linear_attention: bool,
    pub is_hybrid_swa: bool,
    // Read by the attention and KV-cache families (default backend, page-major layout, ReplaySSM):
    /// `ModelConfig.has_asymmetric_kv` (K and V rows of different widths).
    pub has_asymmetric_kv: Option<bool>,
    /// `ModelConfig.has_attention_sinks` (learned attention sinks).
    pub has_attention_sinks: Option<bool>,
    /// Whether `_mamba_radix_cache_resolution` arms the Mamba radix cache for the model (by
    /// architecture, or by its linear-attention spec).
    pub uses_mamba_radix_cache: Option<bool>,
    /// The chunk size `overrides.mamba_cache_chunk_size` compares with the page size: the
    /// config's `mamba_chunk_size` (its class's default or alias included), else the FLA kernels'
    /// CHUNK_SIZE; None for a model that does not arm the Mamba radix cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mamba_chunk_size: Option<i64>,
    /// What `DllmConfig.from_server_args` reads from a diffusion LM's config: `vocab_size`, and
    /// `delete_token_id`, `split_token_id`, `block_size`, `expert_capacity` where the config has
    /// them (as JSON); None for a model that is not one of `DLLM_PARAMS`' architectures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dllm: Option<serde_json::Map<String, serde_json::Value>>,
    /// How `Gemma4Renoise.configure_server_args`' tied-embeddings test ends on the config:
    /// "tied", "untied", or the AttributeError's text (no `text_config`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diffusion_gemma_tie_check: Option<String>,
    // Speculative decoding (src/rules/speculative.rs's DFLASH / DSpark handlers): the
    // [`DRAFT_KEYS`] as SGLang's `get_config` gives them (its config class's defaults included:
    // Qwen3's derived `layer_types`, say), the text config's [`DRAFT_TEXT_KEYS`] under
    // "text_config"; an attribute the config does not have is left out.
    pub speculative_draft_attrs: Option<serde_json::Map<String, serde_json::Value>>,
}
crate::from_json!(SglangFacts { architecture, context_length, dtype, quantization, num_kv_heads, num_attention_heads, head_dim, num_hidden_layers, is_mla, is_dsa, is_multimodal, is_embedding, is_hybrid_linear_attention, is_hybrid_swa, has_asymmetric_kv, has_attention_sinks, uses_mamba_radix_cache, mamba_chunk_size, dllm, diffusion_gemma_tie_check, speculative_draft_attrs });

/// Where a catalog config comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Source {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// A git blob id, where the commit was not known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}
crate::from_json!(Source { repository, path, commit, blob, url });

impl Source {
    /// `repo path @ commit` or the URL.
    pub fn describe(&self) -> String {
        match (&self.repository, &self.path, &self.url) {
            (Some(repo), Some(path), _) => {
                let at = self.commit.as_deref().or(self.blob.as_deref()).unwrap_or("");
                ["github:", repo, " ", path, " @ ", at.get(..10).unwrap_or(at)].concat()
            }
            (_, _, Some(url)) => url.clone(),
            _ => String::new(),
        }
    }
}

/// One catalog model.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CatalogEntry {
    pub raw: RawFacts,
    pub sglang: SglangFacts,
    pub source: Source,
    pub license: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hf_quant_source: Option<Source>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}
crate::from_json!(CatalogEntry { raw, sglang, source, license, hf_quant_source, notes });

/// SGLang's hard-coded architecture sets of one release (`data/sglang-<release>/model-lists.json`,
/// read from the release's source by `tools/build_catalog.py`).
#[derive(Debug, Clone, Default)]
pub struct ModelLists {
    pub sglang_version: String,
    pub mla_architectures: Vec<String>,
    /// MLA only when a config value also says so (Pixtral with `kv_lora_rank`, ...).
    pub mla_architectures_conditional: Vec<String>,
    pub dsa_architectures_with_index_topk: Vec<String>,
    pub multimodal_architectures: Vec<String>,
    /// Served text-only unless `--enable-multimodal`.
    pub multimodal_disabled_by_default_architectures: Vec<String>,
    /// Multimodal only when the config has its vision and audio sub-configs.
    pub multimodal_needs_sub_configs_architectures: Vec<String>,
    pub non_generation_architectures: Vec<String>,
    /// Hybrid SWA by architecture; some also need config values.
    pub hybrid_swa_architectures: Vec<String>,
    pub pure_ssm_architectures: Vec<String>,
    pub hybrid_linear_attention_model_types: Vec<String>,
    pub hybrid_linear_attention_model_types_conditional: Vec<String>,
    /// `--enable-cp-decode-attn-tp` accepts these (`CP_DECODE_ATTN_TP_SUPPORTED_ARCHS`).
    pub cp_decode_attn_tp_supported_architectures: Vec<String>,
    /// Architectures SGLang registers an override provider for (`model_overrides/*.py`,
    /// `overrides.py`, `MODEL_OVERRIDES`).
    pub model_override_architectures: Vec<String>,
    /// A predicate-keyed provider claims every architecture whose name contains one of these.
    pub model_override_architecture_substrings: Vec<String>,
    /// The DeepSeek family: the architectures `_deepseek_family_overrides` is registered for,
    /// and those of the model-specific step's DeepSeek branch (`model_arch in [...]`).
    pub deepseek_family_override_architectures: Vec<String>,
    pub deepseek_family_hook_architectures: Vec<String>,
    /// moe_hook: `validate_flashinfer_megamoe_model`'s `validated_architectures` (sorted) and
    /// `configs/moe_model_registry.py`'s DeepEP v2 models.
    pub megamoe_validated_architectures: Vec<String>,
    pub deepep_v2_architectures: Vec<String>,
    /// `ModelConfig.is_deepseek_v4` and `is_minimax_sparse` (validate_hisparse's model class).
    pub deepseek_v4_architectures: Vec<String>,
    pub minimax_sparse_architectures: Vec<String>,
    /// `DllmConfig.from_server_args`'s `DLLM_PARAMS`: the diffusion LMs SGLang knows.
    pub dllm_architectures: Vec<String>,
    /// Their `block_size` and `mask_id` where `DLLM_PARAMS` writes them as numbers.
    pub dllm_params: BTreeMap<String, BTreeMap<String, i64>>,
    /// `layers.layernorm_sp.MUSE_SP_ARCHITECTURES` and `SP_SUPPORTED_ARCHITECTURES` (sorted).
    pub layernorm_sp_muse_architectures: Vec<String>,
    pub layernorm_sp_supported_architectures: Vec<String>,
    /// `is_encoder_decoder_model`'s architectures (kv_shard's encoder-decoder check reads it).
    pub encoder_decoder_architectures: Vec<String>,
    /// `overrides._MAMBA_RADIX_CACHE_ARCHS`, `_MAMBA_EXTRA_BUFFER_ARCHS` and the architectures the
    /// linear-attention registry names (read by model_hook's Mamba radix-cache handling).
    pub mamba_radix_cache_architectures: Vec<String>,
    pub mamba_extra_buffer_architectures: Vec<String>,
    pub linear_attn_spec_architectures: Vec<String>,
    // model_hook.handle_language_model_only, pd_disaggregation_hook.handle_encoder_disaggregation:
    /// `ServerArgs.LANGUAGE_MODEL_ONLY_ARCHITECTURES`, in SGLang's order.
    pub language_model_only_architectures: Vec<String>,
    /// The architectures `--encoder-only` / `--language-only` accept.
    pub encoder_disaggregation_architectures: Vec<String>,
    /// Model types SGLang reads with config classes of its own (`_CONFIG_REGISTRY`).
    pub sglang_config_model_types: Vec<String>,
    /// Model types the release's transformers has a config class for.
    pub transformers_config_model_types: Vec<String>,
    // configs.model_config.ModelConfig._verify_quantization (src/rules/model_config.rs):
    /// `QUANTIZATION_METHODS`: `BASE_QUANTIZATION_METHODS` in its order, then each platform's
    /// `update` with its condition as the source writes it (`is_cpu() or is_cuda() ...`).
    pub quantization_registry: Vec<QuantizationRegistration>,
    /// The ModelOpt override's branch for `--quantization modelopt`: rules tried in order on the
    /// checkpoint's upper-cased `quant_algo` (`_MODELOPT_QUANT_ALGO_TO_METHOD`'s entries, or the
    /// release's if/elif chain); None when the lists do not say (not replayed).
    pub modelopt_quant_algo_rules: Option<Vec<ModeloptQuantAlgoRule>>,
    /// `rocm_supported_quantization`.
    pub rocm_supported_quantization: Vec<String>,
    /// `optimized_quantization_methods`: the others are warned about.
    pub optimized_quantization_methods: Vec<String>,
    /// `compatible_quantization_methods`: a --quantization kept on a checkpoint of these methods.
    pub compatible_quantization_methods: BTreeMap<String, Vec<String>>,
    /// `REQUANTIZATION_METHODS`: asked for, kept whatever the checkpoint's method.
    pub requantization_methods: Vec<String>,
    /// `ModelConfig._derive_model_shapes` reads `hf_text_config.num_attention_heads` as an
    /// attribute (no getattr default): None when the lists do not say.
    pub model_config_reads_num_attention_heads: Option<bool>,
    /// For such a release: model types whose config class is its own text config and has no
    /// `num_attention_heads` unless config.json writes it (a hidden_size it has), with the
    /// class's name.
    pub text_configs_without_num_attention_heads: BTreeMap<String, String>,
    /// The attention-backend fields (`attention_backend`, `prefill_attention_backend`,
    /// `decode_attention_backend`, `speculative_draft_attention_backend`) the override providers
    /// registered for each architecture may declare; the substrings of the predicate-keyed
    /// providers that declare one.
    pub model_override_attention_fields: BTreeMap<String, Vec<String>>,
    pub model_override_attention_substrings: Vec<String>,
    /// `overrides._FLASHINFER_ALLREDUCE_FUSION_ARCHS`.
    pub flashinfer_allreduce_fusion_architectures: Vec<String>,
    /// `DETERMINISTIC_ATTENTION_BACKEND_CHOICES` and `RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND`
    /// as the source writes them.
    pub deterministic_attention_backend_choices: Vec<String>,
    pub radix_supported_deterministic_attention_backends: Vec<String>,
    /// The DeepSeek architectures of `overrides._deterministic_is_deepseek_model` and of
    /// `handle_deterministic_inference`'s own list.
    pub deterministic_deepseek_pass_architectures: Vec<String>,
    pub deterministic_deepseek_handler_architectures: Vec<String>,
    /// `ModelConfig`'s `SWA_SINK_ARCHS`; None in a release without it (its
    /// `_detect_attention_sinks` decides otherwise).
    pub swa_sink_architectures: Option<Vec<String>>,
    /// Every architecture a branch of the model-specific step names (the DeepSeek family's too).
    pub model_specific_branch_architectures: Vec<String>,
    /// `_handle_eagle_family`'s MTP targets whose draft defaults to their own checkpoint.
    pub eagle_self_draft_architectures: Vec<String>,
    /// `resolve_candidate_steps_from_config()` on `DEFAULT_ADAPTIVE_CONFIG`.
    pub adaptive_candidate_steps: Vec<i64>,
    /// `handle_kv4_compatibility`'s backend lists, by name (`KV4_ATTENTION_MLA_BACKEND_CHOICES`, ...).
    pub kv4_backend_choices: BTreeMap<String, Vec<String>>,
    /// The attention backends the model-specific step's branches accept, by architecture, in the
    /// source's order (GptOss's `supported_backends`, Gemma 4's `accepted_backends`, ...).
    pub model_branch_attention_backends: BTreeMap<String, Vec<String>>,
}
crate::from_json!(ModelLists { sglang_version, mla_architectures, mla_architectures_conditional, dsa_architectures_with_index_topk, multimodal_architectures, multimodal_disabled_by_default_architectures, multimodal_needs_sub_configs_architectures, non_generation_architectures, hybrid_swa_architectures, pure_ssm_architectures, hybrid_linear_attention_model_types, hybrid_linear_attention_model_types_conditional, model_config_reads_num_attention_heads, swa_sink_architectures; default: cp_decode_attn_tp_supported_architectures, model_override_architectures, model_override_architecture_substrings, deepseek_family_override_architectures, deepseek_family_hook_architectures, megamoe_validated_architectures, deepep_v2_architectures, deepseek_v4_architectures, minimax_sparse_architectures, dllm_architectures, dllm_params, layernorm_sp_muse_architectures, layernorm_sp_supported_architectures, encoder_decoder_architectures, mamba_radix_cache_architectures, mamba_extra_buffer_architectures, linear_attn_spec_architectures, language_model_only_architectures, encoder_disaggregation_architectures, sglang_config_model_types, transformers_config_model_types, quantization_registry, modelopt_quant_algo_rules, rocm_supported_quantization, optimized_quantization_methods, compatible_quantization_methods, requantization_methods, text_configs_without_num_attention_heads, model_override_attention_fields, model_override_attention_substrings, flashinfer_allreduce_fusion_architectures, deterministic_attention_backend_choices, radix_supported_deterministic_attention_backends, deterministic_deepseek_pass_architectures, deterministic_deepseek_handler_architectures, model_specific_branch_architectures, eagle_self_draft_architectures, adaptive_candidate_steps, kv4_backend_choices, model_branch_attention_backends });

/// One registration of quantization methods: unconditional (`when` None) or under the
/// condition the source writes.
#[derive(Debug, Clone, Default)]
pub struct QuantizationRegistration {
    pub when: Option<String>,
    pub methods: Vec<String>,
    /// The class whose `override_quantization_method` each of `methods` runs, for those that do
    /// not inherit `QuantizationConfig`'s (which returns None).
    pub overrides: BTreeMap<String, String>,
}
crate::from_json!(QuantizationRegistration { when, methods; default: overrides });

/// One test of the ModelOpt override's `--quantization modelopt` branch: `test` "equals"
/// (`quant_algo == algo`) or "contains" (`algo in quant_algo`), giving `method`.
#[derive(Debug, Clone, Default)]
pub struct ModeloptQuantAlgoRule {
    pub test: String,
    pub algo: String,
    pub method: String,
}
crate::from_json!(ModeloptQuantAlgoRule { test, algo, method });

impl ModeloptQuantAlgoRule {
    /// Whether this rule's test holds for the upper-cased `quant_algo`; None for a test not
    /// replayed.
    pub fn holds(&self, quant_algo: &str) -> Option<bool> {
        match self.test.as_str() {
            "equals" => Some(quant_algo == self.algo),
            "contains" => Some(quant_algo.contains(self.algo.as_str())),
            _ => None,
        }
    }
}

impl ModelLists {
    /// Whether this release's transformers or SGLang has a config class for `model_type`
    /// (SGLang registers its own with `AutoConfig`); None when the lists do not say.
    pub fn loads_model_type(&self, model_type: &str) -> Option<bool> {
        if self.transformers_config_model_types.is_empty() || self.sglang_config_model_types.is_empty() {
            return None;
        }
        let listed = |list: &[String]| list.iter().any(|t| t == model_type);
        Some(listed(&self.transformers_config_model_types) || listed(&self.sglang_config_model_types))
    }

    /// Whether SGLang's override providers for `architecture` may declare `field` (one of the
    /// attention-backend fields; the predicate-keyed providers declare the base backend).
    pub fn override_declares(&self, architecture: &str, field: &str) -> bool {
        self.model_override_attention_fields.get(architecture).is_some_and(|fields| fields.iter().any(|f| f == field))
            || (field == "attention_backend" && self.model_override_attention_substrings.iter().any(|s| architecture.contains(s.as_str())))
    }

    /// Whether SGLang's override providers for `architecture` may pick an attention backend
    /// (the base, prefill or decode one).
    pub fn override_picks_attention_backend(&self, architecture: &str) -> bool {
        ["attention_backend", "prefill_attention_backend", "decode_attention_backend"].iter().any(|f| self.override_declares(architecture, f))
    }

    /// Whether `list` names `architecture`.
    pub fn names(list: &[String], architecture: &str) -> bool {
        list.iter().any(|a| a == architecture)
    }

    /// Whether SGLang registers an override provider for `architecture`.
    pub fn has_model_override(&self, architecture: &str) -> bool {
        self.model_override_architectures.iter().any(|a| a == architecture)
            || self.model_override_architecture_substrings.iter().any(|s| architecture.contains(s.as_str()))
    }
}

/// SGLang's predicates for a model: `None` where they cannot be known without running SGLang's
/// config classes on it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Derived {
    pub is_mla: Option<bool>,
    pub is_dsa: Option<bool>,
    pub is_multimodal: Option<bool>,
    pub is_embedding: Option<bool>,
    pub is_hybrid_linear_attention: Option<bool>,
    pub is_hybrid_swa: Option<bool>,
}

impl Derived {
    /// As SGLang computed them for a catalog model.
    pub fn computed(s: &SglangFacts) -> Self {
        Derived {
            is_mla: Some(s.is_mla),
            is_dsa: Some(s.is_dsa),
            is_multimodal: Some(s.is_multimodal),
            is_embedding: Some(s.is_embedding),
            is_hybrid_linear_attention: Some(s.is_hybrid_linear_attention),
            is_hybrid_swa: Some(s.is_hybrid_swa),
        }
    }

    /// Replayed from the release's lists for raw facts alone (a pasted config, an inferred family).
    pub fn from_lists(raw: &RawFacts, lists: &ModelLists) -> Self {
        let arch = raw.architecture.as_deref();
        let in_list = |list: &[String]| arch.is_some_and(|a| list.iter().any(|x| x == a));
        // SGLang matches hybrid configs by class, of the config or of its text config.
        let types = [raw.model_type.as_deref(), raw.text_model_type.as_deref()];
        let type_in = |list: &[String]| types.iter().flatten().any(|t| list.iter().any(|x| x == t));
        let unless_conditional = |yes: bool, conditional: bool| if yes { Some(true) } else if conditional { None } else { Some(false) };
        Derived {
            is_mla: unless_conditional(in_list(&lists.mla_architectures), in_list(&lists.mla_architectures_conditional)),
            is_dsa: Some(in_list(&lists.dsa_architectures_with_index_topk) && raw.index_topk.is_some()),
            // By default (no --enable-multimodal): a listed architecture, or a language model in a
            // sub-config, unless SGLang disables multimodal for the architecture by default. Without
            // either it is not known: SGLang's config classes can still split off a text config.
            is_multimodal: if in_list(&lists.multimodal_disabled_by_default_architectures) {
                Some(false)
            } else if in_list(&lists.multimodal_needs_sub_configs_architectures) || raw.model_type.as_deref() == Some("deepseek_v41") {
                None
            } else {
                (in_list(&lists.multimodal_architectures) || raw.text_config_key.is_some()).then_some(true)
            },
            is_embedding: Some(in_list(&lists.non_generation_architectures)),
            is_hybrid_linear_attention: unless_conditional(
                type_in(&lists.hybrid_linear_attention_model_types),
                type_in(&lists.hybrid_linear_attention_model_types_conditional),
            ),
            // Several of these architectures also need config values (SGLang's is_hybrid_swa_model).
            is_hybrid_swa: if in_list(&lists.hybrid_swa_architectures) { None } else { Some(false) },
        }
    }
}

/// The built-in catalog: models by hub id, and hub ids that are the same file as a catalog model.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub sglang_version: String,
    pub models: BTreeMap<String, CatalogEntry>,
    pub aliases: BTreeMap<String, String>,
    /// Configs the tool left out, with why.
    pub left_out: BTreeMap<String, String>,
    lowercase: BTreeMap<String, String>,
    by_name: BTreeMap<String, Vec<String>>,
    by_family: BTreeMap<String, Vec<String>>,
}
crate::from_json!(Catalog { sglang_version, models; default: aliases, left_out } ..);

/// How a model path was recognized.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum How {
    /// The hub id itself (or an alias for the same file).
    Exact,
    /// The hub id in other letter case (the hub resolves ids case-insensitively).
    CaseInsensitive,
    /// `org__name`, as some tools name a downloaded model's folder.
    OrgDoubleUnderscore,
    /// A Hugging Face cache path: `…/models--org--name/snapshots/<sha>/…`.
    HfCachePath,
    /// A local folder named like a catalog model (`/models/DeepSeek-V3`).
    LocalBasename,
    /// Not in the catalog; the name is a catalog model's plus variant suffixes (`-Instruct`,
    /// `-FP8`, `-2507` ...): the family's architecture is likely, nothing else is claimed.
    Inferred { family: String },
}

impl How {
    pub fn is_inferred(&self) -> bool {
        matches!(self, How::Inferred { .. })
    }
}

/// What is known of a recognized model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Facts<'c> {
    /// The catalog's config for this very model: every fact holds.
    Known(&'c CatalogEntry),
    /// An inferred family: only what the family shares is claimed; sizes (layers, heads,
    /// experts, context length) may differ and are not given.
    FamilyOnly { architecture: &'c str, model_type: Option<&'c str> },
}

impl<'c> Facts<'c> {
    pub fn architecture(&self) -> Option<&'c str> {
        match self {
            Facts::Known(e) => e.raw.architecture.as_deref(),
            Facts::FamilyOnly { architecture, .. } => Some(architecture),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recognized<'c> {
    /// The catalog model it is (for an inferred match, the family member it was matched to).
    pub hub_id: &'c str,
    pub how: How,
    pub facts: Facts<'c>,
}

/// Name tokens that mark a variant of the same family (instruction tuning, quantization, a
/// dated refresh), dropped from the end of a name to find its family.
const VARIANT_TOKENS: &[&str] = &[
    "instruct", "chat", "it", "hf", "base", "thinking", "reasoning", "fp8", "fp4", "nvfp4", "mxfp4", "awq", "gptq", "int4", "int8",
    "w4a16", "w8a8", "w4a8", "bf16", "fp16", "dynamic", "static", "pertensor", "block", "gguf", "eagle", "eagle3", "mtp", "fp8kv",
    // re-quantized copies: `-Channel-INT8`, `-unsloth-bnb-4bit`
    "channel", "bnb", "4bit", "8bit", "unsloth", "w8a16",
];

/// Whether a name's last token is a variant: one of `VARIANT_TOKENS`, a date (`0324`, `2507`), or
/// a scheme written after `quantized.` (`-quantized.w4a16`).
fn is_variant_token(token: &str) -> bool {
    let is_date = token.len() == 4 && token.bytes().all(|b| b.is_ascii_digit());
    is_date || VARIANT_TOKENS.contains(&token.strip_prefix("quantized.").unwrap_or(token))
}

/// A name's family key: lower case, variant tokens dropped from the end (`is_variant_token`).
fn family_key(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let mut tokens: Vec<&str> = lower.split(['-', '_']).collect();
    while let Some(last) = tokens.last() {
        if tokens.len() > 1 && is_variant_token(last) {
            tokens.pop();
        } else {
            break;
        }
    }
    tokens.join("-")
}

/// The part of a hub id after the organization.
fn model_name(hub_id: &str) -> &str {
    hub_id.rsplit_once('/').map(|(_, n)| n).unwrap_or(hub_id)
}

/// `org--name` (a HF cache folder without its `models--` prefix, or a recorder folder) → `org/name`.
fn dashed_to_hub_id(s: &str) -> Option<String> {
    let (org, name) = s.split_once("--")?;
    (!org.is_empty() && !name.is_empty()).then(|| format!("{org}/{name}"))
}

/// Whether the text is written like a hub id (`org/name`), not a local path.
fn looks_like_hub_id(s: &str) -> bool {
    !s.starts_with(['/', '.', '~']) && s.matches('/').count() == 1
}

impl Catalog {
    /// Parse `catalog.json` and index it.
    pub fn parse(text: &str) -> Result<Catalog, String> {
        let mut catalog: Catalog = crate::from_json::parse(text).map_err(|e| format!("catalog.json: {e}"))?;
        catalog.index();
        Ok(catalog)
    }

    fn index(&mut self) {
        let ids: Vec<String> = self.models.keys().cloned().collect();
        for id in ids.iter().chain(self.aliases.keys()) {
            self.lowercase.entry(id.to_ascii_lowercase()).or_insert_with(|| id.clone());
        }
        for id in &ids {
            self.by_name.entry(model_name(id).to_ascii_lowercase()).or_default().push(id.clone());
            self.by_family.entry(family_key(model_name(id))).or_default().push(id.clone());
        }
    }

    /// The catalog model a hub id or alias names, exactly.
    fn exact(&self, id: &str) -> Option<(&str, &CatalogEntry)> {
        let id = self.aliases.get(id).map(String::as_str).unwrap_or(id);
        self.models.get_key_value(id).map(|(k, v)| (k.as_str(), v))
    }

    fn exact_or_case(&self, id: &str) -> Option<(&str, &CatalogEntry, bool)> {
        if let Some((k, e)) = self.exact(id) {
            return Some((k, e, true));
        }
        let canonical = self.lowercase.get(&id.to_ascii_lowercase())?;
        self.exact(canonical).map(|(k, e)| (k, e, false))
    }

    /// Recognize `--model-path` (or a draft model path): a hub id, its case variants, `org__name`,
    /// a HF cache path, a local folder named like a catalog model, or a family by its name.
    pub fn lookup(&self, model_path: &str) -> Option<Recognized<'_>> {
        fn known<'c>((hub_id, entry): (&'c str, &'c CatalogEntry), how: How) -> Recognized<'c> {
            Recognized { hub_id, how, facts: Facts::Known(entry) }
        }
        let path = model_path.trim().trim_end_matches('/');
        if path.is_empty() {
            return None;
        }
        if looks_like_hub_id(path) {
            if let Some((k, e, exact)) = self.exact_or_case(path) {
                return Some(known((k, e), if exact { How::Exact } else { How::CaseInsensitive }));
            }
        }
        // HF cache: …/models--org--name/snapshots/<sha>/…; a model the catalog lacks is inferred
        // from that folder's name, not from the snapshot's hash.
        let base = path.rsplit('/').next().unwrap_or(path);
        if let Some(folder) = path.split('/').find_map(|c| c.strip_prefix("models--")) {
            if let Some((k, e, _)) = dashed_to_hub_id(folder).and_then(|id| self.exact_or_case(&id)) {
                return Some(known((k, e), How::HfCachePath));
            }
            if let Some((_, name)) = folder.split_once("--").filter(|(_, name)| !name.is_empty()) {
                return self.infer(name);
            }
        }
        if let Some((org, name)) = base.split_once("__") {
            if let Some((k, e, _)) = self.exact_or_case(&format!("{org}/{name}")) {
                return Some(known((k, e), How::OrgDoubleUnderscore));
            }
        }
        if !looks_like_hub_id(path) {
            let by_org_dashes = dashed_to_hub_id(base).and_then(|id| self.exact_or_case(&id));
            if let Some((k, e, _)) = by_org_dashes {
                return Some(known((k, e), How::LocalBasename));
            }
            if let Some(id) = self.by_name.get(&base.to_ascii_lowercase()).and_then(|ids| self.preferred(ids)) {
                if let Some((k, e)) = self.exact(id) {
                    return Some(known((k, e), How::LocalBasename));
                }
            }
        }
        self.infer(base)
    }

    /// Of several catalog models with one name, the publisher's own (not a re-quantization).
    fn preferred<'a>(&self, ids: &'a [String]) -> Option<&'a String> {
        ids.iter().find(|id| !id.starts_with("nvidia/")).or_else(|| ids.first())
    }

    fn infer(&self, name: &str) -> Option<Recognized<'_>> {
        let key = family_key(name);
        let members = self.by_family.get(&key)?;
        let (hub_id, first) = self.exact(self.preferred(members)?)?;
        let architecture = first.raw.architecture.as_deref()?;
        // A family whose members disagree on the architecture names none.
        let agree = members.iter().filter_map(|m| self.models.get(m)).all(|e| e.raw.architecture.as_deref() == Some(architecture));
        agree.then(|| Recognized {
            hub_id,
            how: How::Inferred { family: hub_id.to_string() },
            facts: Facts::FamilyOnly { architecture, model_type: first.raw.model_type.as_deref() },
        })
    }

    /// Every architecture the catalog holds.
    pub fn architectures(&self) -> std::collections::BTreeSet<&str> {
        self.models.values().filter_map(|e| e.raw.architecture.as_deref()).collect()
    }
}

impl ModelLists {
    pub fn parse(text: &str) -> Result<ModelLists, String> {
        crate::from_json::parse(text).map_err(|e| format!("model-lists.json: {e}"))
    }
}

#[cfg(not(target_arch = "wasm32"))]
const CATALOG_JSON: &str = include_str!("../data/models/catalog.json");
#[cfg(not(target_arch = "wasm32"))]
const MODEL_LISTS_JSON: &[(&str, &str)] = &[
    ("0.5.23", include_str!("../data/sglang-0.5.23/model-lists.json")),
    ("0.5.18", include_str!("../data/sglang-0.5.18/model-lists.json")),
];

/// The catalog and SGLang's architecture lists in one file, as the page fetches them when a
/// command names a model (`models/catalog.json`, written by scripts/build-web.sh): the wasm
/// does not carry them.
#[derive(Debug)]
pub struct ModelData {
    pub catalog: Catalog,
    /// By release.
    pub lists: BTreeMap<String, ModelLists>,
}
crate::from_json!(ModelData { catalog, lists });

impl ModelData {
    pub fn parse(text: &str) -> Result<ModelData, String> {
        let mut data: ModelData = crate::from_json::parse(text).map_err(|e| format!("models.json: {e}"))?;
        data.catalog.index();
        Ok(data)
    }
}

#[cfg(target_arch = "wasm32")]
static INSTALLED: std::sync::OnceLock<ModelData> = std::sync::OnceLock::new();

/// Give the page's wasm the catalog and lists it fetched (once; a second call changes nothing).
#[cfg(target_arch = "wasm32")]
pub fn install(text: &str) -> Result<(), String> {
    let data = ModelData::parse(text)?;
    let _ = INSTALLED.set(data);
    Ok(())
}

/// Whether the catalog is here: always in native builds; in the page's wasm once installed.
pub fn installed() -> bool {
    builtin().is_some()
}

/// The built-in catalog (native builds; in the page's wasm, once fetched and installed).
pub fn builtin() -> Option<&'static Catalog> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        static CATALOG: std::sync::OnceLock<Option<Catalog>> = std::sync::OnceLock::new();
        CATALOG.get_or_init(|| Catalog::parse(CATALOG_JSON).ok()).as_ref()
    }
    #[cfg(target_arch = "wasm32")]
    {
        INSTALLED.get().map(|d| &d.catalog)
    }
}

/// SGLang's architecture lists of `release`, when this build carries them.
pub fn builtin_lists(release: &str) -> Option<&'static ModelLists> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        static LISTS: std::sync::OnceLock<Vec<(&'static str, ModelLists)>> = std::sync::OnceLock::new();
        let lists = LISTS.get_or_init(|| MODEL_LISTS_JSON.iter().filter_map(|(v, text)| Some((*v, ModelLists::parse(text).ok()?))).collect());
        lists.iter().find(|(v, _)| *v == release).map(|(_, l)| l)
    }
    #[cfg(target_arch = "wasm32")]
    {
        INSTALLED.get().and_then(|d| d.lists.get(release))
    }
}

// ---------------------------------------------------------------------------------------------
// What the checks know of the model
// ---------------------------------------------------------------------------------------------

/// Where the checks' facts about a model come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FactsFrom {
    /// The built-in catalog (SGLang's own `ModelConfig` was run on the model's public config).
    Catalog,
    /// A family the name points to: the architecture only, nothing size-dependent.
    InferredFamily,
    /// The `config.json` the user gave (`--model-config`, the page's model config pane, or the
    /// local folder `--model-path` names).
    GivenConfig,
}

/// What the model checks know of the model a command names (`--model-path`, or the draft model).
/// A check reads only what it needs and, where that is `None`, reports itself as not run for
/// want of the model's config: nothing is claimed from a guess.
#[derive(Debug, Clone, Copy)]
pub struct ModelFacts<'a> {
    pub architecture: Option<&'a str>,
    pub model_type: Option<&'a str>,
    /// The config's values as written; None for an inferred family.
    pub raw: Option<&'a RawFacts>,
    /// What SGLang's `ModelConfig` computed (context length, dtype, KV heads ...): catalog models.
    pub computed: Option<&'a SglangFacts>,
    /// SGLang's predicates (MLA, DSA, multimodal ...), each `None` where not known.
    pub derived: Derived,
    pub from: FactsFrom,
    /// Whether the config ships its own config code (`auto_map`): a given config's, or the
    /// catalog's record of the published config.json; None for an inferred family.
    pub ships_config_code: Option<bool>,
    /// Whether that code's `AutoConfig` reference names another repository: a given config's;
    /// None where not recorded (the catalog keeps only whether there is such code).
    pub config_code_in_other_repo: Option<bool>,
    /// A given config whose whole folder was read and that declares no quantization anywhere
    /// SGLang looks (`_parse_quant_hf_config`: quantization_config, compression_config,
    /// hf_quant_config.json; `_find_quant_modelslim_config`: quant_model_description.json).
    pub known_unquantized: bool,
}

impl<'a> ModelFacts<'a> {
    /// A catalog model (every fact), or a family inferred from the name (the architecture and the
    /// predicates SGLang decides from it alone, with the release's lists).
    pub fn recognized(found: &Recognized<'a>, lists: Option<&ModelLists>) -> Self {
        match found.facts {
            Facts::Known(e) => ModelFacts {
                architecture: e.sglang.architecture.as_deref().or(e.raw.architecture.as_deref()),
                model_type: e.raw.model_type.as_deref(),
                raw: Some(&e.raw),
                computed: Some(&e.sglang),
                derived: Derived::computed(&e.sglang),
                from: FactsFrom::Catalog,
                ships_config_code: e.raw.ships_config_code,
                config_code_in_other_repo: e.raw.config_code_in_other_repo,
                known_unquantized: false,
            },
            Facts::FamilyOnly { architecture, model_type } => {
                let only_names = RawFacts { architecture: Some(architecture.to_string()), model_type: model_type.map(str::to_string), ..RawFacts::default() };
                let mut derived = lists.map(|l| Derived::from_lists(&only_names, l)).unwrap_or_default();
                if let Some(l) = lists {
                    // DSA also needs `index_topk`, a config value a family member may lack.
                    if l.dsa_architectures_with_index_topk.iter().any(|a| a == architecture) {
                        derived.is_dsa = None;
                    }
                }
                // Whether a sub-config splits off a language model is a config value too.
                if derived.is_multimodal == Some(false) {
                    derived.is_multimodal = None;
                }
                ModelFacts { architecture: Some(architecture), model_type, raw: None, computed: None, derived, from: FactsFrom::InferredFamily, ships_config_code: None, config_code_in_other_repo: None, known_unquantized: false }
            }
        }
    }

    /// A config the user gave: its values as written, the predicates replayed from the release's
    /// lists (none without them), nothing SGLang computes.
    pub fn given(config: &'a GivenConfig, lists: Option<&ModelLists>) -> Self {
        ModelFacts {
            architecture: config.raw.architecture.as_deref(),
            model_type: config.raw.model_type.as_deref(),
            raw: Some(&config.raw),
            computed: None,
            derived: lists.map(|l| Derived::from_lists(&config.raw, l)).unwrap_or_default(),
            from: FactsFrom::GivenConfig,
            ships_config_code: Some(config.ships_config_code),
            config_code_in_other_repo: Some(config.config_code_in_other_repo),
            known_unquantized: config.folder_read && !config.declares_quantization,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A config given by the user
// ---------------------------------------------------------------------------------------------

/// Larger than any real `config.json` (the biggest are a few hundred KB); a bigger text is not
/// read, so a paste cannot make the check slow.
pub const MAX_CONFIG_BYTES: usize = 16 << 20;

/// Why a given config could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum ConfigError {
    TooLarge { bytes: usize, limit: usize },
    /// Not JSON (or nested deeper than the parser follows): transformers' `json.load` fails too.
    NotJson { message: String },
    /// JSON, but not an object: transformers cannot make a config of it.
    NotAnObject { found: &'static str },
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigError::TooLarge { bytes, limit } => write!(f, "the config is {bytes} bytes, more than the {limit} bytes a config.json can reasonably be; not read"),
            ConfigError::NotJson { message } => write!(f, "the config is not valid JSON ({message}); SGLang (transformers) could not load it either"),
            ConfigError::NotAnObject { found } => write!(f, "the config is a JSON {found}, not an object; SGLang (transformers) needs an object"),
        }
    }
}

/// A key whose value has the wrong type: read as absent (transformers would keep it, and SGLang
/// would likely fail where it uses it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WrongType {
    pub key: String,
    pub expected: &'static str,
}

/// Facts of a config the user gave: raw facts read as the catalog tool reads them; SGLang's
/// computed values (context length, dtype, KV heads ...) are unknown without running it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GivenConfig {
    pub raw: RawFacts,
    pub wrong_types: Vec<WrongType>,
    /// `auto_map` names an `AutoConfig`: transformers loads the config's own code (with
    /// --trust-remote-code; without it, it refuses with a message of its own).
    pub ships_config_code: bool,
    /// The `AutoConfig` class reference names another repository (`repo--module.Class`):
    /// transformers' refusal then names that repository instead of the model's.
    pub config_code_in_other_repo: bool,
    /// `quantization_config` or `compression_config` (top level or the text sub-config), or
    /// the `hf_quant_config.json` given with it.
    pub declares_quantization: bool,
    /// The config was read from its folder, which has no `quant_model_description.json` and whose
    /// `hf_quant_config.json`, if any, was read with it (set by the reader: `parse` reads a text).
    pub folder_read: bool,
}

type Object = serde_json::Map<String, serde_json::Value>;

fn kind_of(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

struct Reader<'a> {
    wrong: &'a mut Vec<WrongType>,
}

impl Reader<'_> {
    fn int(&mut self, o: &Object, keys: &[&str]) -> Option<i64> {
        keys.iter().find_map(|k| match o.get(*k) {
            Some(v @ serde_json::Value::Number(n)) => n.as_i64().or_else(|| {
                self.note(k, "an integer", v);
                None
            }),
            Some(serde_json::Value::Null) | None => None,
            Some(v) => {
                self.note(k, "an integer", v);
                None
            }
        })
    }

    fn string(&mut self, o: &Object, keys: &[&str]) -> Option<String> {
        keys.iter().find_map(|k| match o.get(*k) {
            Some(serde_json::Value::String(s)) => Some(s.clone()),
            Some(serde_json::Value::Null) | None => None,
            Some(v) => {
                self.note(k, "a string", v);
                None
            }
        })
    }

    fn strings(&mut self, o: &Object, key: &str) -> Option<Vec<String>> {
        match o.get(key) {
            Some(serde_json::Value::Null) | None => None,
            Some(v @ serde_json::Value::Array(a)) => {
                let all: Option<Vec<String>> = a.iter().map(|x| x.as_str().map(str::to_string)).collect();
                if all.is_none() {
                    self.note(key, "a list of strings", v);
                }
                all
            }
            Some(v) => {
                self.note(key, "a list of strings", v);
                None
            }
        }
    }

    fn note(&mut self, key: &str, expected: &'static str, _found: &serde_json::Value) {
        if !self.wrong.iter().any(|w| w.key == key) {
            self.wrong.push(WrongType { key: key.to_string(), expected });
        }
    }
}

/// The key of the sub-config holding the language model, as SGLang's `get_hf_text_config` picks it.
fn text_config_key(cfg: &Object, architecture: Option<&str>) -> Option<&'static str> {
    if architecture.is_some_and(|a| a.starts_with("Llava") && a.ends_with("ForCausalLM")) {
        return None;
    }
    // get_hf_text_config's priority when a config has several: thinker > llm > language > text
    ["thinker_config", "llm_config", "language_config", "text_config"].into_iter().find(|k| cfg.get(*k).is_some_and(serde_json::Value::is_object))
}

fn quant_facts(cfg: &Object, text: &Object, hf_quant: Option<&Object>) -> Option<QuantFacts> {
    let q = cfg.get("quantization_config").and_then(serde_json::Value::as_object).or_else(|| text.get("quantization_config").and_then(serde_json::Value::as_object));
    let s = |o: &Object, k: &str| o.get(k).and_then(serde_json::Value::as_str).map(str::to_string);
    if let Some(q) = q {
        let block = q.get("weight_block_size").and_then(serde_json::Value::as_array).and_then(|a| a.iter().map(serde_json::Value::as_i64).collect::<Option<Vec<i64>>>());
        return Some(QuantFacts {
            from: "quantization_config".into(),
            quant_method: s(q, "quant_method"),
            fmt: s(q, "fmt"),
            quant_algo: s(q, "quant_algo"),
            kv_cache_quant_algo: s(q, "kv_cache_quant_algo"),
            activation_scheme: s(q, "activation_scheme"),
            format: s(q, "format"),
            bits: q.get("bits").and_then(serde_json::Value::as_i64),
            weight_block_size: block,
        });
    }
    let q = hf_quant?.get("quantization")?.as_object()?;
    Some(QuantFacts { from: "hf_quant_config.json".into(), quant_algo: s(q, "quant_algo"), kv_cache_quant_algo: s(q, "kv_cache_quant_algo"), ..QuantFacts::default() })
}

/// `_is_mxfp4_pack_quantized`'s view: `getattr(hf_config, "text_config", hf_config)`'s
/// `quantization_config["config_groups"]`, each group's `format` (a group without a string one
/// counts as `""`).
fn quant_group_formats(cfg: &Object) -> Option<Vec<String>> {
    let text = cfg.get("text_config").and_then(serde_json::Value::as_object).unwrap_or(cfg);
    let q = text.get("quantization_config")?.as_object()?;
    let groups = q.get("config_groups").and_then(serde_json::Value::as_object);
    let formats = groups
        .map(|g| g.values().filter_map(serde_json::Value::as_object).map(|g| g.get("format").and_then(serde_json::Value::as_str).unwrap_or("").to_string()).collect())
        .unwrap_or_default();
    Some(formats)
}

/// The first of the keys written (not null), when its value is an integer.
fn context_length_values(text: &Object) -> Option<BTreeMap<String, i64>> {
    let (key, value) = CONTEXT_LENGTH_KEYS.iter().find_map(|k| text.get(*k).filter(|v| !v.is_null()).map(|v| (*k, v)))?;
    Some(BTreeMap::from([(key.to_string(), value.as_i64()?)]))
}

fn rope_scaling_facts(text: &Object) -> Option<RopeScalingFacts> {
    let given: Vec<&Object> = ["rope_parameters", "rope_scaling"].iter().filter_map(|k| text.get(*k)?.as_object()).collect();
    let rope = *given.first()?;
    let s = |k: &str| rope.get(k).and_then(serde_json::Value::as_str).map(str::to_string);
    Some(RopeScalingFacts {
        rope_type: s("rope_type").or_else(|| s("type")),
        factor: match rope.get("factor") {
            Some(serde_json::Value::Number(n)) => Some(n.clone()),
            _ => None,
        },
        factor_given: rope.contains_key("factor"),
        has_original_max_position_embeddings: rope.contains_key("original_max_position_embeddings"),
        both_keys: given.len() > 1,
    })
}

fn parse_object(text: &str) -> Result<Object, ConfigError> {
    if text.len() > MAX_CONFIG_BYTES {
        return Err(ConfigError::TooLarge { bytes: text.len(), limit: MAX_CONFIG_BYTES });
    }
    // serde_json stops at 128 levels of nesting with an error: a deep config cannot overflow the stack.
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(o)) => Ok(o),
        Ok(other) => Err(ConfigError::NotAnObject { found: kind_of(&other) }),
        Err(e) => Err(ConfigError::NotJson { message: e.to_string() }),
    }
}

impl GivenConfig {
    /// Read a `config.json` text (and the checkpoint's `hf_quant_config.json`, when given).
    pub fn parse(config_json: &str, hf_quant_config_json: Option<&str>) -> Result<GivenConfig, ConfigError> {
        let cfg = parse_object(config_json)?;
        let hf_quant = match hf_quant_config_json {
            Some(t) => Some(parse_object(t)?),
            None => None,
        };
        let mut wrong_types = Vec::new();
        let mut r = Reader { wrong: &mut wrong_types };
        let architecture = match cfg.get("architectures") {
            Some(serde_json::Value::Array(a)) => match a.first() {
                Some(serde_json::Value::String(s)) => Some(s.clone()),
                None => None,
                Some(v) => {
                    r.note("architectures", "a list of strings", v);
                    None
                }
            },
            Some(serde_json::Value::Null) | None => None,
            Some(v) => {
                r.note("architectures", "a list of strings", v);
                None
            }
        };
        let text_key = text_config_key(&cfg, architecture.as_deref());
        let text = text_key.and_then(|k| cfg.get(k)).and_then(serde_json::Value::as_object).unwrap_or(&cfg);
        let layer_types = match text.get("layer_types") {
            Some(serde_json::Value::Array(a)) => {
                let mut counts = BTreeMap::new();
                for t in a.iter().filter_map(serde_json::Value::as_str) {
                    *counts.entry(t.to_string()).or_insert(0) += 1;
                }
                Some(counts)
            }
            _ => None,
        };
        let auto_config = cfg.get("auto_map").and_then(serde_json::Value::as_object).and_then(|m| m.get("AutoConfig"));
        let ships_config_code = auto_config.is_some();
        // `AutoConfig.from_pretrained` looks for `--` in the reference (a string in published configs).
        let config_code_in_other_repo = auto_config.and_then(serde_json::Value::as_str).is_some_and(|r| r.contains("--"));
        let raw = RawFacts {
            model_type: r.string(&cfg, &["model_type"]),
            text_config_key: text_key.map(str::to_string),
            text_model_type: if text_key.is_some() { r.string(text, &["model_type"]) } else { None },
            hidden_size: r.int(text, &["hidden_size"]),
            num_attention_heads: r.int(text, &["num_attention_heads"]),
            num_key_value_heads: r.int(text, &["num_key_value_heads"]),
            head_dim: r.int(text, &["head_dim"]),
            num_hidden_layers: r.int(text, &["num_hidden_layers"]),
            routed_experts: r.int(text, &["n_routed_experts", "num_experts", "num_local_experts", "moe_num_experts"]),
            shared_experts: r.int(text, &["n_shared_experts", "num_shared_experts"]),
            experts_per_token: r.int(text, &["num_experts_per_tok", "moe_topk", "top_k"]),
            kv_lora_rank: r.int(text, &["kv_lora_rank"]),
            index_topk: r.int(text, &["index_topk"]),
            sliding_window: r.int(text, &["sliding_window"]),
            layer_types,
            torch_dtype: r.string(&cfg, &["torch_dtype", "dtype"]).or_else(|| r.string(text, &["torch_dtype", "dtype"])),
            max_position_embeddings: r.int(text, &["max_position_embeddings"]),
            quantization: quant_facts(&cfg, text, hf_quant.as_ref()),
            index_topk_freq: r.int(&cfg, &["index_topk_freq"]),
            index_topk_pattern: r.string(&cfg, &["index_topk_pattern"]),
            indexer_types: r.strings(&cfg, "indexer_types"),
            attention_chunk_size: r.int(text, &["attention_chunk_size"]),
            num_nextn_predict_layers: r.int(text, &["num_nextn_predict_layers"]),
            speculative_draft_keys: speculative_draft_keys(&cfg),
            text_quant_group_formats: quant_group_formats(&cfg),
            mlp_hidden_act: r.string(text, &["mlp_hidden_act"]),
            architectures: r.strings(&cfg, "architectures"),
            context_length_values: context_length_values(text),
            rope_scaling: rope_scaling_facts(text),
            sliding_window_pattern: match cfg.get("sliding_window_pattern") {
                Some(serde_json::Value::Number(n)) if n.is_i64() => Some(n.to_string()),
                _ => r.string(&cfg, &["sliding_window_pattern"]),
            },
            learnable_sink: cfg.get("learnable_sink").map(python_truthy),
            index_kpool: r.int(&cfg, &["index_kpool"]),
            ships_config_code: Some(ships_config_code),
            config_code_in_other_repo: Some(config_code_in_other_repo),
            architecture,
        };
        let declares = |o: &Object| ["quantization_config", "compression_config"].iter().any(|k| o.get(*k).is_some_and(|v| !v.is_null()));
        let declares_quantization = hf_quant.is_some() || declares(&cfg) || declares(text);
        Ok(GivenConfig { raw, wrong_types, ships_config_code, config_code_in_other_repo, declares_quantization, folder_read: false })
    }
}

// ---------------------------------------------------------------------------------------------
// The report's line
// ---------------------------------------------------------------------------------------------

/// What the report says about a model path: which model it is, how surely and from where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelReport {
    /// `model_path` or `speculative_draft_model_path`.
    pub flag: &'static str,
    pub model_path: String,
    /// None when the model is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hub_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub how: Option<How>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub architecture: Option<String>,
    pub summary: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The model's config was read (the catalog's copy, or one given): false for a model the
    /// catalog does not know or only infers from its name, whose checks did not all run.
    #[serde(skip)]
    pub config_read: bool,
}

/// What the summary says of a model: SGLang's predicates that hold, its routed experts and its
/// checkpoint's quantization.
fn fact_phrases(derived: &Derived, raw: &RawFacts, quantization: Option<&str>) -> Vec<String> {
    let d = derived;
    let mut out = Vec::new();
    for (yes, name) in [(d.is_mla, "MLA"), (d.is_dsa, "DSA"), (d.is_hybrid_linear_attention, "hybrid linear attention"), (d.is_hybrid_swa, "hybrid sliding-window attention")] {
        if yes == Some(true) {
            out.push(name.to_string());
        }
    }
    if let Some(n) = raw.routed_experts {
        out.push(format!("{n} routed experts"));
    }
    for (yes, name) in [(d.is_multimodal, "multimodal"), (d.is_embedding, "embedding")] {
        if yes == Some(true) {
            out.push(name.to_string());
        }
    }
    if let Some(q) = quantization {
        out.push(format!("{q} checkpoint"));
    }
    out
}

/// The report's account of `model_path` (named by `flag`) against `catalog`.
pub fn describe(catalog: &Catalog, flag: &'static str, model_path: &str) -> ModelReport {
    let Some(found) = catalog.lookup(model_path) else {
        return ModelReport {
            flag,
            model_path: model_path.to_string(),
            hub_id: None,
            how: None,
            architecture: None,
            summary: format!("{model_path}: not a model the built-in catalog knows; checks that need the model's config did not run (give its config.json to run them)"),
            source: None,
            config_read: false,
        };
    };
    let name = model_name(found.hub_id);
    let (summary, source) = match found.facts {
        Facts::Known(e) => {
            let mut parts = vec![e.raw.architecture.clone().unwrap_or_default()];
            parts.extend(fact_phrases(&Derived::computed(&e.sglang), &e.raw, e.sglang.quantization.as_deref()));
            let via = match &found.how {
                How::Exact => String::new(),
                How::CaseInsensitive => " (hub id matched ignoring case)".into(),
                How::OrgDoubleUnderscore => " (from the org__name folder name)".into(),
                How::HfCachePath => " (from the Hugging Face cache path)".into(),
                How::LocalBasename => format!(" (a local folder named like {})", found.hub_id),
                How::Inferred { .. } => String::new(),
            };
            ([name, " — ", &parts.join(", "), " — from the built-in catalog", &via].concat(), Some(e.source.describe()))
        }
        Facts::FamilyOnly { architecture, .. } => (
            format!("{model_path}: likely {architecture}, as {} (inferred from the name; sizes not known, size-dependent checks did not run)", found.hub_id),
            None,
        ),
    };
    ModelReport {
        flag,
        model_path: model_path.to_string(),
        hub_id: Some(found.hub_id.to_string()),
        architecture: found.facts.architecture().map(str::to_string),
        config_read: matches!(found.facts, Facts::Known(_)),
        how: Some(found.how),
        summary,
        source,
    }
}

/// The report's account of a model whose config the user gave (`given_how` says how: "the config
/// you gave", "the local folder's config.json").
pub fn describe_given(flag: &'static str, model_path: &str, config: &GivenConfig, facts: &ModelFacts<'_>, given_how: &str) -> ModelReport {
    let mut parts = vec![config.raw.architecture.clone().unwrap_or_else(|| "no architectures in the config".to_string())];
    let quantization = config.raw.quantization.as_ref().and_then(|q| q.quant_method.as_deref().or(q.quant_algo.as_deref()));
    parts.extend(fact_phrases(&facts.derived, &config.raw, quantization));
    let name = if model_path.is_empty() { "the model" } else { model_path };
    ModelReport {
        flag,
        model_path: model_path.to_string(),
        hub_id: None,
        how: None,
        architecture: config.raw.architecture.clone(),
        summary: format!("{name} — {} — from {given_how}", parts.join(", ")),
        source: None,
        config_read: true,
    }
}

/// Python's `bool(value)` of a JSON value (as `json.load` gives it).
fn python_truthy(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Null => false,
        serde_json::Value::Bool(b) => *b,
        serde_json::Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
        serde_json::Value::String(s) => !s.is_empty(),
        serde_json::Value::Array(a) => !a.is_empty(),
        serde_json::Value::Object(o) => !o.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn every_catalog_entry_reads_back_from_its_own_json() {
        use crate::from_json::FromJson;
        let catalog = builtin().unwrap();
        assert!(catalog.models.len() > 100);
        for (id, entry) in &catalog.models {
            let json = serde_json::to_value(entry).unwrap();
            assert_eq!(&CatalogEntry::from_json(&json).unwrap(), entry, "{id}");
        }
        // and the file's own keys: each model's raw facts are all read
        let file: serde_json::Value = serde_json::from_str(CATALOG_JSON).unwrap();
        for (id, entry) in file.get("models").and_then(serde_json::Value::as_object).unwrap() {
            let read = serde_json::to_value(&catalog.models.get(id).unwrap().raw).unwrap();
            for (key, value) in entry.get("raw").and_then(serde_json::Value::as_object).unwrap() {
                assert_eq!(read.get(key), Some(value), "{id}: raw.{key}");
            }
        }
    }

    #[test]
    fn the_text_sub_config_is_picked_in_get_hf_text_configs_order() {
        let cfg: Object = serde_json::from_str(r#"{"text_config": {}, "language_config": {}, "llm_config": 1}"#).unwrap();
        assert_eq!(text_config_key(&cfg, Some("MyVLForConditionalGeneration")), Some("language_config"));
        let cfg: Object = serde_json::from_str(r#"{"text_config": {}, "thinker_config": {}}"#).unwrap();
        assert_eq!(text_config_key(&cfg, None), Some("thinker_config"));
        // SGLang reads a Llava*ForCausalLM's own top-level config
        assert_eq!(text_config_key(&cfg, Some("LlavaLlamaForCausalLM")), None);
    }

    #[test]
    fn the_deepseek_family_is_each_releases_own() {
        // (read from each release's source by tools/build_catalog.py --lists-only: GLM-5-Next,
        // HYV4 and dots.3 joined the family after 0.5.18; Longcat's NextN draft has the
        // provider but not the model-specific branch)
        let (old, new) = (builtin_lists("0.5.18").unwrap(), builtin_lists("0.5.23").unwrap());
        let has = |l: &Vec<String>, a: &str| l.iter().any(|x| x == a);
        for lists in [old, new] {
            assert!(has(&lists.deepseek_family_hook_architectures, "DeepseekV3ForCausalLM"));
            assert!(has(&lists.deepseek_family_override_architectures, "LongcatFlashForCausalLMNextN"));
            assert!(!has(&lists.deepseek_family_hook_architectures, "LongcatFlashForCausalLMNextN"));
        }
        assert!(has(&new.deepseek_family_hook_architectures, "Glm5NextForConditionalGeneration"));
        assert!(!has(&old.deepseek_family_hook_architectures, "Glm5NextForConditionalGeneration"));
        assert!(!has(&old.deepseek_family_override_architectures, "HYV4ForCausalLM"));
    }

    #[test]
    fn the_hook_lists_are_each_releases_own() {
        // (read from each release's source by tools/build_catalog.py --lists-only)
        let (old, new) = (builtin_lists("0.5.18").unwrap(), builtin_lists("0.5.23").unwrap());
        let has = |l: &Vec<String>, a: &str| l.iter().any(|x| x == a);
        // intel_xpu joined the deterministic backends after 0.5.18
        assert!(has(&new.deterministic_attention_backend_choices, "intel_xpu"));
        assert!(!has(&old.deterministic_attention_backend_choices, "intel_xpu"));
        assert!(has(&old.deterministic_attention_backend_choices, "flashinfer"));
        // the handler's DeepSeek list adds GLM-5-Next to the pass's in 0.5.23 only
        for lists in [old, new] {
            assert!(has(&lists.deterministic_deepseek_pass_architectures, "DeepseekV2ForCausalLM"));
            assert!(!has(&lists.deterministic_deepseek_pass_architectures, "Glm5NextForConditionalGeneration"));
        }
        assert!(has(&new.deterministic_deepseek_handler_architectures, "Glm5NextForConditionalGeneration"));
        assert!(!has(&old.deterministic_deepseek_handler_architectures, "Glm5NextForConditionalGeneration"));
        // SWA_SINK_ARCHS came after 0.5.18
        assert!(new.swa_sink_architectures.as_ref().is_some_and(|l| has(l, "IQuestQ1MTP")));
        assert!(old.swa_sink_architectures.is_none());
        // 0.5.18's Exaone provider declares no attention backend; its step3p predicate spans two lines
        assert!(new.override_declares("Exaone4ForCausalLM", "attention_backend"));
        assert!(!old.override_declares("Exaone4ForCausalLM", "attention_backend"));
        assert!(!old.override_declares("NemotronHForCausalLM", "speculative_draft_attention_backend"));
        assert!(new.override_declares("NemotronHForCausalLM", "speculative_draft_attention_backend"));
        for lists in [old, new] {
            assert!(lists.override_picks_attention_backend("Step3p7ForConditionalGeneration"));
            assert!(lists.override_picks_attention_backend("MossVLForConditionalGeneration"));
            assert!(!lists.override_picks_attention_backend("LlamaForCausalLM"));
        }
        // HYV4 and Qwen4-Exp draft with their own checkpoint after 0.5.18
        assert!(has(&new.eagle_self_draft_architectures, "HYV4ForCausalLM"));
        assert!(!has(&old.eagle_self_draft_architectures, "HYV4ForCausalLM"));
        assert!(has(&old.eagle_self_draft_architectures, "HYV3ForCausalLM"));
        // DEFAULT_ADAPTIVE_CONFIG: 0.5.18's has no 5-step tier
        assert_eq!(new.adaptive_candidate_steps, [0, 1, 3, 5, 7]);
        assert_eq!(old.adaptive_candidate_steps, [0, 1, 3, 7]);
        // the AllReduce fusion pass named Qwen4-Exp after 0.5.18; 0.5.18's step has a NemotronH branch
        assert!(has(&new.flashinfer_allreduce_fusion_architectures, "Qwen4ExpForConditionalGeneration"));
        assert!(!has(&old.flashinfer_allreduce_fusion_architectures, "Qwen4ExpForConditionalGeneration"));
        assert!(has(&old.model_specific_branch_architectures, "NemotronHForCausalLM"));
        assert!(!has(&new.model_specific_branch_architectures, "NemotronHForCausalLM"));
        // cutlass_mla left the KV4 MLA lists after 0.5.18
        let mla = |l: &ModelLists| l.kv4_backend_choices.get("KV4_ATTENTION_MLA_BACKEND_CHOICES").cloned().unwrap_or_default();
        assert!(has(&mla(old), "cutlass_mla"));
        assert!(!has(&mla(new), "cutlass_mla") && has(&mla(new), "trtllm_mla"));
        // 0.5.18's Gemma 4 branch accepts neither fa4 nor aiter
        let gemma4 = |l: &ModelLists| l.model_branch_attention_backends.get("Gemma4ForCausalLM").cloned().unwrap_or_default();
        assert!(has(&gemma4(new), "fa4") && has(&gemma4(new), "triton"));
        assert!(!has(&gemma4(old), "fa4") && has(&gemma4(old), "triton"));
    }
}
