//! ModelConfig's checks (`src/rules/model_config.rs`) on a config the user gives: what SGLang
//! reads from it is replayed only where the config alone decides it; the rest is not run.
//! (Catalog models are compared with real SGLang by the conformance fixtures
//! `rules_model_config.jsonl`.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use sglang_preflight::check::{check, CheckOptions};
use sglang_preflight::models::GivenConfig;

/// A model type transformers has no class for, shipping its own config code (`auto_map`), as
/// served with --trust-remote-code.
const FP8_CONFIG: &str = r#"{"architectures": ["MyFp8ForCausalLM"], "model_type": "my_fp8", "max_position_embeddings": 32768,
  "auto_map": {"AutoConfig": "configuration_my_fp8.MyFp8Config"},
  "quantization_config": {"quant_method": "fp8", "activation_scheme": "dynamic", "weight_block_size": [128, 128]}}"#;
const REMOTE: &str = "--trust-remote-code";

fn run(cmd: &str, config: &str) -> (Vec<String>, Vec<String>) {
    let options = CheckOptions { model_config: Some(GivenConfig::parse(config, None).unwrap()), ..Default::default() };
    let report = check(cmd, &options);
    let c = &report.commands[0];
    let codes = c.diagnostics.iter().map(|d| d.code.clone()).collect();
    let not_run = c.not_run.iter().map(|n| n.site.to_string()).collect();
    (codes, not_run)
}

#[test]
fn a_given_fp8_checkpoint_refuses_another_quantization() {
    let (codes, _) = run(&format!("python -m sglang.launch_server --model-path /models/mine {REMOTE} --quantization awq"), FP8_CONFIG);
    assert!(codes.contains(&"MC006".to_string()), "{codes:?}");
    let (codes, not_run) = run(&format!("python -m sglang.launch_server --model-path /models/mine {REMOTE} --quantization fp8"), FP8_CONFIG);
    assert!(!codes.contains(&"MC006".to_string()), "{codes:?}");
    assert!(!not_run.iter().any(|s| s.starts_with("configs.model_config.ModelConfig._verify_quantization")), "{not_run:?}");
}

#[test]
fn a_given_config_without_quantization_config_does_not_decide() {
    // a compression_config or an hf_quant_config.json SGLang would find is not in the facts
    let config = r#"{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "max_position_embeddings": 8192}"#;
    let (codes, not_run) = run("python -m sglang.launch_server --model-path /models/mine --quantization gptq", config);
    assert!(!codes.iter().any(|c| c == "MC006" || c == "MC007"), "{codes:?}");
    assert!(not_run.iter().any(|s| s.starts_with("configs.model_config.ModelConfig._verify_quantization")), "{not_run:?}");
}

#[test]
fn a_quantization_config_of_a_text_sub_config_does_not_decide() {
    let config = r#"{"architectures": ["MyVLForConditionalGeneration"], "model_type": "my_vl", "auto_map": {"AutoConfig": "c.MyVLConfig"},
      "text_config": {"model_type": "my_text", "quantization_config": {"quant_method": "fp8"}}}"#;
    let (codes, not_run) = run(&format!("python -m sglang.launch_server --model-path /models/mine {REMOTE} --quantization awq"), config);
    assert!(!codes.contains(&"MC006".to_string()), "{codes:?}");
    assert!(not_run.iter().any(|s| s.starts_with("configs.model_config.ModelConfig._verify_quantization")), "{not_run:?}");
}

#[test]
fn a_given_config_of_an_unknown_model_type_does_not_decide_the_derived_context_length() {
    // transformers has no class for `my_fp8`: what its own code loads is not known
    let (codes, not_run) = run(&format!("python -m sglang.launch_server --model-path /models/mine {REMOTE} --context-length 1000000"), FP8_CONFIG);
    assert!(!codes.contains(&"MC004".to_string()), "{codes:?}");
    assert!(not_run.iter().any(|s| s.starts_with("configs.model_config.ModelConfig._derive_context_length")), "{not_run:?}");
}

#[test]
fn a_given_config_decides_the_derived_context_length_with_its_rope_scaling() {
    let plain = r#"{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "max_position_embeddings": 8192}"#;
    let (codes, _) = run("python -m sglang.launch_server --model-path /models/mine --context-length 16384", plain);
    assert!(codes.contains(&"MC004".to_string()), "{codes:?}");
    let (codes, not_run) = run("python -m sglang.launch_server --model-path /models/mine --context-length 8192", plain);
    assert!(!codes.contains(&"MC004".to_string()), "{codes:?}");
    assert!(!not_run.iter().any(|s| s.starts_with("configs.model_config.ModelConfig._derive_context_length")), "{not_run:?}");
    // a linear factor without the pretraining length scales it: 8192 * 2
    let linear = r#"{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "max_position_embeddings": 8192, "rope_scaling": {"type": "linear", "factor": 2.0}}"#;
    let (codes, _) = run("python -m sglang.launch_server --model-path /models/mine --context-length 16384", linear);
    assert!(!codes.contains(&"MC004".to_string()), "{codes:?}");
    let (codes, _) = run("python -m sglang.launch_server --model-path /models/mine --context-length 16385", linear);
    assert!(codes.contains(&"MC004".to_string()), "{codes:?}");
}

#[test]
fn an_override_of_the_context_keys_is_replayed_and_others_leave_the_context_length_undecided() {
    let with = |overrides: &str| {
        let cmd = format!("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 131072 --json-model-override-args '{overrides}'");
        let report = check(&cmd, &CheckOptions::default());
        let c = &report.commands[0];
        let undecided = c.not_run.iter().any(|n| n.site.starts_with("configs.model_config.ModelConfig._derive_context_length"));
        (c.diagnostics.iter().find(|d| d.code == "MC004").map(|d| d.message.clone()), undecided)
    };
    // the model's 40960 raised by the override: decided, accepted
    assert_eq!(with(r#"{"max_position_embeddings": 131072}"#), (None, false));
    // lowered: refused with the overridden length
    let (message, undecided) = with(r#"{"max_position_embeddings": 65536, "rope_theta": 2000000}"#);
    assert!(message.is_some_and(|m| m.contains("derived context_length (65536)")) && !undecided);
    // YaRN written with its pretraining length scales nothing: still 40960
    let (message, _) = with(r#"{"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}"#);
    assert!(message.is_some_and(|m| m.contains("derived context_length (40960)")));
    // a factor alone scales it: 40960 * 4
    assert_eq!(with(r#"{"rope_scaling": {"rope_type": "dynamic", "factor": 4.0}}"#), (None, false));
    // an override of the text sub-config may change what is read: not decided here
    assert_eq!(with(r#"{"text_config": {"max_position_embeddings": 1024}}"#), (None, true));
    let plain = check("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --context-length 131072", &CheckOptions::default());
    assert!(plain.commands[0].diagnostics.iter().any(|d| d.code == "MC004"));
}

#[test]
fn a_given_config_of_a_model_type_transformers_lacks_fails_to_load_unless_it_ships_code() {
    // no config class, no code of its own: transformers' AutoConfig refuses it (MC012)
    let plain = r#"{"architectures": ["MyForCausalLM"], "model_type": "my_type", "max_position_embeddings": 8192}"#;
    let (codes, _) = run("python -m sglang.launch_server --model-path /models/mine", plain);
    assert!(codes.contains(&"MC012".to_string()), "{codes:?}");
    // its own code (`auto_map`): refused without --trust-remote-code (MC014), loaded with it
    // (its code is not run here)
    let (codes, _) = run("python -m sglang.launch_server --model-path /models/mine", FP8_CONFIG);
    assert!(!codes.contains(&"MC012".to_string()), "{codes:?}");
    assert!(codes.contains(&"MC014".to_string()), "{codes:?}");
    let (codes, not_run) = run(&format!("python -m sglang.launch_server --model-path /models/mine {REMOTE}"), FP8_CONFIG);
    assert!(!codes.contains(&"MC012".to_string()) && !codes.contains(&"MC014".to_string()), "{codes:?}");
    assert!(not_run.iter().any(|s| s.starts_with("configs.model_config.ModelConfig.__init__")), "{not_run:?}");
    // a type transformers knows loads either way
    let llama = r#"{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "max_position_embeddings": 8192}"#;
    let (codes, _) = run("python -m sglang.launch_server --model-path /models/mine", llama);
    assert!(!codes.contains(&"MC012".to_string()), "{codes:?}");
}

#[test]
fn custom_code_is_refused_with_the_path_transformers_names() {
    let message = |cmd: &str, config: &str| {
        let options = CheckOptions { model_config: Some(GivenConfig::parse(config, None).unwrap()), ..Default::default() };
        let report = check(cmd, &options);
        report.commands[0].diagnostics.iter().find(|d| d.code == "MC014").map(|d| d.message.clone())
    };
    // a local folder by its absolute path (os.path.abspath drops the trailing slash), a hub id by its page
    let local = message("python -m sglang.launch_server --model-path /models/mine/", FP8_CONFIG).unwrap();
    assert!(local.starts_with("The repository /models/mine/ contains custom code which must be executed to correctly load the model. You can inspect the repository content at /models/mine .\n You can inspect the repository content at https://hf.co//models/mine/.\n"), "{local}");
    let hub = message("python -m sglang.launch_server --model-path org/mine", FP8_CONFIG).unwrap();
    assert!(hub.contains("content at https://hf.co/org/mine .\n"), "{hub}");
    // code in another repository is named instead; a relative folder's absolute path is not known here
    let elsewhere = FP8_CONFIG.replace("\"configuration_my_fp8.MyFp8Config\"", "\"org/base--configuration_my_fp8.MyFp8Config\"");
    assert_eq!(message("python -m sglang.launch_server --model-path org/mine", &elsewhere), None);
    assert_eq!(message("python -m sglang.launch_server --model-path ./mine", FP8_CONFIG), None);
}

#[test]
fn a_given_checkpoints_own_method_is_checked_on_this_machine() {
    // GPT-OSS's MXFP4 config as published (no --quantization): ROCm's SGLang has no mxfp4 method
    // (MC010, as real SGLang says for the same config in real_world_6.jsonl), CUDA's has
    let mxfp4 = r#"{"architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss", "max_position_embeddings": 131072,
      "quantization_config": {"quant_method": "mxfp4", "modules_to_not_convert": ["model.layers.*.self_attn"]}}"#;
    let cmd = "python -m sglang.launch_server --model-path /models/gpt-oss --tp 8";
    let on = |gpu: &str| {
        let options = CheckOptions {
            model_config: Some(GivenConfig::parse(mxfp4, None).unwrap()),
            hardware: sglang_preflight::hardware::Hardware::preset(gpu, None).unwrap(),
            ..Default::default()
        };
        let report = check(cmd, &options);
        let c = &report.commands[0];
        let not_run: Vec<String> = c.not_run.iter().map(|n| n.site.to_string()).collect();
        (c.diagnostics.iter().map(|d| d.code.clone()).collect::<Vec<_>>(), not_run)
    };
    let (codes, _) = on("mi300x");
    assert!(codes.contains(&"MC010".to_string()), "{codes:?}");
    let (codes, not_run) = on("h100");
    assert!(!codes.contains(&"MC010".to_string()), "{codes:?}");
    assert!(!not_run.iter().any(|s| s.starts_with("configs.model_config.ModelConfig._verify_quantization")), "{not_run:?}");
}
