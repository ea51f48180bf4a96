//! The model catalog and model recognition (`src/models.rs`, `data/models/catalog.json`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use sglang_preflight::models::{self, Catalog, ConfigError, Derived, Facts, GivenConfig, How, ModelLists, RawFacts};
use std::collections::BTreeMap;
use std::path::Path;

const CATALOG_JSON: &str = include_str!("../data/models/catalog.json");
const LISTS_JSON: &str = include_str!("../data/sglang-0.5.23/model-lists.json");

fn catalog() -> &'static Catalog {
    models::builtin().expect("the native build embeds the catalog")
}

fn lists() -> ModelLists {
    ModelLists::parse(LISTS_JSON).unwrap()
}

// ---- recognition ------------------------------------------------------------------------------

#[test]
fn a_hub_id_is_recognized_exactly() {
    let r = catalog().lookup("deepseek-ai/DeepSeek-V3").unwrap();
    assert_eq!((r.hub_id, &r.how), ("deepseek-ai/DeepSeek-V3", &How::Exact));
    let Facts::Known(e) = r.facts else { panic!("a catalog model's facts are known") };
    assert!(e.sglang.is_mla);
    assert_eq!(e.raw.routed_experts, Some(256));
}

#[test]
fn a_hub_id_in_other_letter_case_is_the_same_model() {
    let r = catalog().lookup("DEEPSEEK-AI/deepseek-v3").unwrap();
    assert_eq!((r.hub_id, &r.how), ("deepseek-ai/DeepSeek-V3", &How::CaseInsensitive));
}

#[test]
fn an_org_double_underscore_folder_names_its_model() {
    let r = catalog().lookup("/data/models/Qwen__Qwen3-8B").unwrap();
    assert_eq!((r.hub_id, &r.how), ("Qwen/Qwen3-8B", &How::OrgDoubleUnderscore));
}

#[test]
fn a_hugging_face_cache_path_names_its_model() {
    let path = "/root/.cache/huggingface/hub/models--zai-org--GLM-5.1-FP8/snapshots/0123abcd/";
    let r = catalog().lookup(path).unwrap();
    assert_eq!((r.hub_id, &r.how), ("zai-org/GLM-5.1-FP8", &How::HfCachePath));
    // a variant the catalog lacks is inferred from the cache folder's name (not the snapshot's)
    let path = "/data/hub/models--Qwen--Qwen3-Coder-480B-A35B-Instruct-FP8/snapshots/d27784dcbed3a08de523dd74fadff2deb6fedc6b";
    let r = catalog().lookup(path).unwrap();
    assert_eq!(r.how, How::Inferred { family: "Qwen/Qwen3-Coder-480B-A35B-Instruct".into() });
    assert!(catalog().lookup("/data/hub/models--no-org--NoSuchModel-7B/snapshots/abc").is_none());
}

#[test]
fn a_local_folder_named_like_a_catalog_model_is_that_model() {
    let r = catalog().lookup("/models/DeepSeek-V3").unwrap();
    assert_eq!((r.hub_id, &r.how), ("deepseek-ai/DeepSeek-V3", &How::LocalBasename));
    // the publisher's own model, not a re-quantization with the same name
    let r = catalog().lookup("./Qwen3-235B-A22B").unwrap();
    assert_eq!(r.hub_id, "Qwen/Qwen3-235B-A22B");
}

#[test]
fn a_variant_name_gives_its_family_architecture_and_claims_no_sizes() {
    let r = catalog().lookup("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8").unwrap();
    assert_eq!(r.how, How::Inferred { family: "Qwen/Qwen3-235B-A22B".into() });
    assert_eq!(r.facts, Facts::FamilyOnly { architecture: "Qwen3MoeForCausalLM", model_type: Some("qwen3_moe") });
    assert_eq!(r.facts.architecture(), Some("Qwen3MoeForCausalLM"));
    let r = catalog().lookup("deepseek-ai/DeepSeek-V3-0324").unwrap();
    assert!(r.how.is_inferred());
    assert!(matches!(r.facts, Facts::FamilyOnly { architecture: "DeepseekV3ForCausalLM", .. }));
}

#[test]
fn catalog_only_sources_add_families_exactly_and_by_inference() {
    // tools/catalog-sources: tt-metal's and llm-engine's copies of the published configs
    let r = catalog().lookup("LGAI-EXAONE/EXAONE-4.0-32B").unwrap();
    assert_eq!((r.hub_id, &r.how), ("LGAI-EXAONE/EXAONE-4.0-32B", &How::Exact));
    let Facts::Known(e) = r.facts else { panic!("a catalog model's facts are known") };
    assert_eq!(e.raw.architecture.as_deref(), Some("Exaone4ForCausalLM"));
    assert_eq!(e.license, "Apache-2.0");
    let r = catalog().lookup("deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct").unwrap();
    let Facts::Known(e) = r.facts else { panic!("a catalog model's facts are known") };
    assert!(e.sglang.is_mla);
    assert_eq!((e.raw.routed_experts, e.raw.kv_lora_rank), (Some(64), Some(512)));
    let r = catalog().lookup("meta-llama/Llama-3.2-90B-Vision-Instruct").unwrap();
    assert_eq!(r.facts.architecture(), Some("MllamaForConditionalGeneration"));
    // a variant of a new family: inferred, architecture only
    let r = catalog().lookup("LGAI-EXAONE/EXAONE-4.0-32B-FP8").unwrap();
    assert_eq!(r.how, How::Inferred { family: "LGAI-EXAONE/EXAONE-4.0-32B".into() });
    assert!(matches!(r.facts, Facts::FamilyOnly { architecture: "Exaone4ForCausalLM", .. }));
    let r = catalog().lookup("/models/Voxtral-Mini-3B-2507").unwrap();
    assert_eq!(r.facts.architecture(), Some("VoxtralForConditionalGeneration"));
}

#[test]
fn an_inferred_match_never_carries_the_catalog_entry() {
    for name in [
        "Qwen/Qwen3-8B-AWQ",
        "meta-llama/Llama-3.3-70B-Instruct-FP8",
        "openai/gpt-oss-120b-MXFP4",
        "/models/Qwen3-32B-Instruct",
        // re-quantized copies by other publishers
        "meituan/DeepSeek-R1-Channel-INT8",
        "unsloth/phi-4-unsloth-bnb-4bit",
        "RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16",
    ] {
        let r = catalog().lookup(name).unwrap_or_else(|| panic!("{name} is a known family"));
        assert!(r.how.is_inferred(), "{name}");
        assert!(matches!(r.facts, Facts::FamilyOnly { .. }), "{name}: sizes must not be claimed from a guess");
    }
}

#[test]
fn an_unknown_model_is_not_recognized() {
    for name in ["someone/some-model", "/models/my-finetune", "", "Qwen/Qwen3-14B", "Qwen3"] {
        assert_eq!(catalog().lookup(name), None, "{name:?}");
    }
}

#[test]
fn the_report_says_what_was_recognized_and_how_surely() {
    let known = models::describe(catalog(), "model_path", "deepseek-ai/DeepSeek-V3");
    assert_eq!(known.summary, "DeepSeek-V3 — DeepseekV3ForCausalLM, MLA, 256 routed experts, fp8 checkpoint — from the built-in catalog");
    assert!(known.source.unwrap().starts_with("github:ai-dynamo/aiconfigurator "));
    let inferred = models::describe(catalog(), "model_path", "Qwen/Qwen3-30B-A3B-Instruct-2507");
    assert!(inferred.summary.contains("inferred from the name; sizes not known"), "{}", inferred.summary);
    let unknown = models::describe(catalog(), "speculative_draft_model_path", "me/draft");
    assert_eq!((unknown.hub_id, unknown.architecture), (None, None));
    assert!(unknown.summary.contains("checks that need the model's config did not run"));
}

#[test]
fn each_command_report_names_its_model_and_draft_model() {
    let text = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --speculative-draft-model-path me/draft";
    let report = sglang_preflight::check(text, &Default::default());
    let c = &report.commands[0];
    assert_eq!(c.model.as_ref().and_then(|m| m.hub_id.as_deref()), Some("deepseek-ai/DeepSeek-V3"));
    assert_eq!(c.draft_model.as_ref().map(|m| m.hub_id.is_none()), Some(true));
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["commands"][0]["model"]["how"]["kind"], "exact");
    assert_eq!(json["commands"][0]["model"]["architecture"], "DeepseekV3ForCausalLM");
}

// ---- the catalog ------------------------------------------------------------------------------

#[test]
fn every_catalog_model_has_a_source_and_a_license() {
    for (id, e) in &catalog().models {
        let s = &e.source;
        let pinned = s.repository.is_some() && s.path.is_some() && (s.commit.is_some() || s.blob.is_some());
        assert!(pinned || s.url.is_some(), "{id}: no source");
        assert!(!e.license.is_empty(), "{id}: no license");
        assert!(e.raw.architecture.is_some(), "{id}: no architecture");
        assert!(e.sglang.context_length > 0, "{id}: no context length");
    }
}

#[test]
fn aliases_point_at_catalog_models() {
    for (alias, id) in &catalog().aliases {
        assert!(catalog().models.contains_key(id), "{alias} -> {id}");
    }
}

#[test]
fn the_catalog_round_trips_through_the_typed_facts() {
    let original: serde_json::Value = serde_json::from_str(CATALOG_JSON).unwrap();
    let parsed = Catalog::parse(CATALOG_JSON).unwrap();
    assert_eq!(parsed.sglang_version, lists().sglang_version);
    for (id, entry) in &parsed.models {
        let mut expected = original["models"][id].clone();
        strip_nulls(&mut expected);
        let mut again = serde_json::to_value(entry).unwrap();
        strip_nulls(&mut again);
        assert_eq!(again, expected, "{id}");
    }
}

fn strip_nulls(v: &mut serde_json::Value) {
    if let serde_json::Value::Object(o) = v {
        o.retain(|_, x| !x.is_null());
        o.values_mut().for_each(strip_nulls);
    }
}

/// The recorder's model folders hold copies of catalog configs: read as a pasted config, each
/// gives the catalog entry's raw facts.
#[test]
fn a_pasted_catalog_config_gives_the_catalog_raw_facts() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/recorder/models");
    let ids: BTreeMap<String, String> = serde_json::from_str(&std::fs::read_to_string(folder.join("hub_ids.json")).unwrap()).unwrap();
    let mut compared = 0;
    for (id, local) in &ids {
        let Some(entry) = catalog().models.get(id) else { continue };
        let dir = folder.join(local);
        let config = std::fs::read_to_string(dir.join("config.json")).unwrap();
        let hf_quant = std::fs::read_to_string(dir.join("hf_quant_config.json")).ok();
        let given = GivenConfig::parse(&config, hf_quant.as_deref()).unwrap();
        // The recorder's copies drop `auto_map` (its SOURCES.md); the catalog records the
        // published config's.
        let published = RawFacts {
            ships_config_code: entry.raw.ships_config_code,
            config_code_in_other_repo: entry.raw.config_code_in_other_repo,
            ..given.raw.clone()
        };
        assert_eq!(published, entry.raw, "{id}");
        assert!(given.wrong_types.is_empty(), "{id}");
        compared += 1;
    }
    assert!(compared >= 20, "only {compared} configs compared");
}

/// SGLang's predicates replayed from the release's lists agree with what SGLang computed,
/// wherever the lists decide them.
#[test]
fn the_release_lists_replay_sglangs_predicates_on_the_catalog() {
    let lists = lists();
    for (id, e) in &catalog().models {
        let replayed = Derived::from_lists(&e.raw, &lists);
        let computed = Derived::computed(&e.sglang);
        for (what, got, want) in [
            ("is_mla", replayed.is_mla, computed.is_mla),
            ("is_dsa", replayed.is_dsa, computed.is_dsa),
            ("is_multimodal", replayed.is_multimodal, computed.is_multimodal),
            ("is_embedding", replayed.is_embedding, computed.is_embedding),
            ("is_hybrid_linear_attention", replayed.is_hybrid_linear_attention, computed.is_hybrid_linear_attention),
            ("is_hybrid_swa", replayed.is_hybrid_swa, computed.is_hybrid_swa),
        ] {
            if got.is_some() {
                assert_eq!(got, want, "{id}: {what}");
            }
        }
    }
}

/// The context length replayed from a config's values as written agrees with what SGLang's
/// `ModelConfig` derived, on every catalog model where the replay decides it (and it decides
/// two thirds of them).
#[test]
fn the_context_length_replay_agrees_with_sglang_on_the_catalog() {
    let lists = lists();
    let (mut decided, mut total) = (0, 0);
    for (id, e) in &catalog().models {
        // EmbeddingGemma2Model caps the derived length at 8192 after the replayed step.
        if e.raw.architecture.as_deref() == Some("EmbeddingGemma2Model") {
            continue;
        }
        total += 1;
        if let Some(replayed) = models::derived_context_length(&e.raw, &lists) {
            assert_eq!(replayed, e.sglang.context_length, "{id}");
            decided += 1;
        }
    }
    // (108 of 154 in the 0.5.23 catalog; the rest have config classes of SGLang's own or no key written)
    assert!(decided * 3 >= total * 2, "the replay decides only {decided} of {total} catalog models");
}

#[test]
fn the_context_length_replay_scales_by_a_factor_without_the_pretraining_length() {
    let lists = lists();
    let config = |rope: &str| GivenConfig::parse(&format!("{{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", \"max_position_embeddings\": 4096{rope}}}"), None).unwrap();
    let derived = |rope: &str| models::derived_context_length(&config(rope).raw, &lists);
    assert_eq!(derived(""), Some(4096));
    assert_eq!(derived(", \"rope_scaling\": {\"type\": \"linear\", \"factor\": 2.5}"), Some(10240));
    assert_eq!(derived(", \"rope_scaling\": {\"rope_type\": \"dynamic\", \"factor\": 4}"), Some(16384));
    // transformers adds the pretraining length to llama3 / yarn / longrope scaling: factor 1
    assert_eq!(derived(", \"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": 4}"), Some(4096));
    assert_eq!(derived(", \"rope_parameters\": {\"rope_type\": \"linear\", \"factor\": 2, \"original_max_position_embeddings\": 2048}"), Some(4096));
    // not decided: a null factor (SGLang fails), both keys, a class of SGLang's own, no key
    assert_eq!(derived(", \"rope_scaling\": {\"type\": \"linear\", \"factor\": null}"), None);
    assert_eq!(derived(", \"rope_scaling\": {\"factor\": 2}, \"rope_parameters\": {\"factor\": 3}"), None);
    let no_key = GivenConfig::parse("{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\"}", None).unwrap();
    assert_eq!(models::derived_context_length(&no_key.raw, &lists), None);
    let own_class = GivenConfig::parse("{\"architectures\": [\"Step3p7FlashForCausalLM\"], \"model_type\": \"step3p7\", \"max_position_embeddings\": 65536}", None).unwrap();
    assert_eq!(models::derived_context_length(&own_class.raw, &lists), None);
    // the first key written wins, even when it is not an integer (then not decided)
    let seq = GivenConfig::parse("{\"model_type\": \"llama\", \"seq_length\": 8192, \"max_position_embeddings\": 4096}", None).unwrap();
    assert_eq!(models::derived_context_length(&seq.raw, &lists), Some(8192));
    let float = GivenConfig::parse("{\"model_type\": \"llama\", \"seq_length\": 8192.0, \"max_position_embeddings\": 4096}", None).unwrap();
    assert_eq!(models::derived_context_length(&float.raw, &lists), None);
}

// ---- hostile configs --------------------------------------------------------------------------

#[test]
fn a_config_that_is_not_json_is_a_clear_error() {
    let err = GivenConfig::parse("{\"architectures\": [\"X\"", None).unwrap_err();
    assert!(matches!(err, ConfigError::NotJson { .. }));
    assert!(err.to_string().starts_with("the config is not valid JSON"));
    assert!(matches!(GivenConfig::parse("", None), Err(ConfigError::NotJson { .. })));
    assert!(matches!(GivenConfig::parse("{}", Some("nope")), Err(ConfigError::NotJson { .. })));
}

#[test]
fn a_config_that_is_not_an_object_is_a_clear_error() {
    assert_eq!(GivenConfig::parse("[1, 2]", None), Err(ConfigError::NotAnObject { found: "array" }));
    assert_eq!(GivenConfig::parse("null", None), Err(ConfigError::NotAnObject { found: "null" }));
}

#[test]
fn a_deeply_nested_config_is_an_error_not_a_crash() {
    let deep = format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(matches!(GivenConfig::parse(&deep, None), Err(ConfigError::NotJson { .. })));
}

#[test]
fn a_ten_megabyte_config_is_read_and_a_larger_than_any_real_one_is_refused() {
    let padding = "x".repeat(10 << 20);
    let big = format!("{{\"architectures\": [\"LlamaForCausalLM\"], \"hidden_size\": 4096, \"padding\": \"{padding}\"}}");
    let given = GivenConfig::parse(&big, None).unwrap();
    assert_eq!(given.raw.architecture.as_deref(), Some("LlamaForCausalLM"));
    let huge = " ".repeat(models::MAX_CONFIG_BYTES + 1);
    assert!(matches!(GivenConfig::parse(&huge, None), Err(ConfigError::TooLarge { .. })));
}

#[test]
fn values_of_the_wrong_type_are_named_and_read_as_absent() {
    let given = GivenConfig::parse(r#"{"architectures": "LlamaForCausalLM", "hidden_size": "4096", "num_hidden_layers": 32.5, "model_type": 7}"#, None).unwrap();
    assert_eq!((given.raw.architecture, given.raw.hidden_size, given.raw.num_hidden_layers, given.raw.model_type), (None, None, None, None));
    let keys: Vec<&str> = given.wrong_types.iter().map(|w| w.key.as_str()).collect();
    assert_eq!(keys, ["architectures", "model_type", "hidden_size", "num_hidden_layers"]);
}

#[test]
fn a_config_missing_keys_gives_what_it_has() {
    let given = GivenConfig::parse(r#"{"architectures": ["DeepseekV3ForCausalLM"], "index_topk": 2048}"#, None).unwrap();
    assert_eq!(given.raw.hidden_size, None);
    let derived = Derived::from_lists(&given.raw, &lists());
    assert_eq!((derived.is_mla, derived.is_dsa), (Some(true), Some(true)));
}

// ---- how much of the real-world corpora the catalog knows -------------------------------------

/// Prints how many commands of the real-world corpora name a model the catalog knows
/// (`cargo test --test models corpus -- --nocapture`).
#[test]
fn corpus_coverage() {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unknown: BTreeMap<String, usize> = BTreeMap::new();
    for file in ["real_world.jsonl", "real_world_2.jsonl", "real_world_3.jsonl"] {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases").join(file)).unwrap();
        for line in text.lines().filter(|l| l.starts_with('{')) {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let Some(cmd) = case["cmd"].as_str() else { continue };
            let report = sglang_preflight::check(cmd, &Default::default());
            let Some(c) = report.commands.first() else {
                *counts.entry("no command").or_default() += 1;
                continue;
            };
            let kind = match c.model.as_ref() {
                None => "no --model-path",
                Some(m) => match &m.how {
                    Some(How::Exact | How::CaseInsensitive) => "known: hub id (exact or case)",
                    Some(How::OrgDoubleUnderscore | How::HfCachePath | How::LocalBasename) => "known: alias / local path",
                    Some(How::Inferred { .. }) => "inferred family",
                    None => {
                        *unknown.entry(m.model_path.clone()).or_default() += 1;
                        "unknown"
                    }
                },
            };
            *counts.entry(kind).or_default() += 1;
        }
    }
    let total: usize = counts.values().sum();
    println!("real-world corpora: {total} commands");
    for (k, n) in &counts {
        println!("  {k}: {n}");
    }
    let mut top: Vec<_> = unknown.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!("  most named unknown models: {:?}", top.iter().take(25).collect::<Vec<_>>());
    println!("catalog: {} models, {} aliases, {} architectures", catalog().models.len(), catalog().aliases.len(), catalog().architectures().len());
    assert!(total > 0);
}

// ---- how much of the real-world corpora the catalog knows -------------------------------------

/// Every command of the real-world corpora with the model paths it names (`--model-path` / the
/// serve positional, and the speculative draft model), as the checker reads them.
fn corpus_model_paths() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for file in ["tests/cases/real_world.jsonl", "tests/cases/real_world_2.jsonl", "tests/cases/real_world_3.jsonl"] {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
        for line in text.lines().filter(|l| l.trim_start().starts_with('{')) {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let Some(cmd) = case["cmd"].as_str() else { continue };
            let id = case["id"].as_str().unwrap_or("?").to_string();
            let report = sglang_preflight::check(cmd, &Default::default());
            for (i, c) in report.commands.iter().enumerate() {
                let paths: Vec<String> =
                    c.model.iter().chain(c.draft_model.iter()).map(|m| m.model_path.clone()).collect();
                out.push((format!("{id}#{i}"), paths));
            }
        }
    }
    out
}

/// (commands, commands naming a model, naming one the catalog knows exactly, … or by inference).
fn corpus_recognition(catalog: &Catalog, commands: &[(String, Vec<String>)]) -> (usize, usize, usize, usize) {
    let (mut named, mut exact, mut inferred) = (0, 0, 0);
    for (_, paths) in commands {
        if paths.is_empty() {
            continue;
        }
        named += 1;
        let found: Vec<_> = paths.iter().filter_map(|p| catalog.lookup(p)).collect();
        if found.iter().any(|r| !r.how.is_inferred()) {
            exact += 1;
        } else if !found.is_empty() {
            inferred += 1;
        }
    }
    (commands.len(), named, exact, inferred)
}

/// Prints how many real-world commands name a model the catalog knows (`-- --nocapture`);
/// `CATALOG_COMPARE=<catalog.json>` also prints the figures for another catalog (e.g. an older one).
#[test]
fn the_catalog_knows_the_models_of_the_real_world_corpora() {
    let commands = corpus_model_paths();
    let (total, named, exact, inferred) = corpus_recognition(catalog(), &commands);
    println!(
        "real-world corpora: {total} commands, {named} name a model; the catalog ({} models) knows {} \
         ({exact} exactly or by path, {inferred} by inferred family)",
        catalog().models.len(),
        exact + inferred
    );
    if let Ok(path) = std::env::var("CATALOG_COMPARE") {
        let other = Catalog::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let (_, _, e, i) = corpus_recognition(&other, &commands);
        println!("compared catalog ({} models) knows {} ({e} exactly or by path, {i} by inferred family)", other.models.len(), e + i);
    }
    assert!(named > 400, "the corpora name models in most commands");
    assert!(exact + inferred >= 309, "recognition of the corpora regressed: {} of {named}", exact + inferred);
}
