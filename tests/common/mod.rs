//! What the test files share: the options a recorded case is checked with, and the default
//! release's recorded fixtures.

use serde_json::Value;
use sglang_preflight::hardware::Hardware;
use sglang_preflight::models::GivenConfig;
use sglang_preflight::CheckOptions;

/// The options a case is recorded with: the SGLang release, its hardware profile, its `--config`
/// files, and for a stand-in fixture the config SGLang actually ran for each model path the
/// recorder stood in for (`stand_in`: path -> hub id of `tools/recorder/models`), given as the
/// model's config: the named model's catalog facts are not what SGLang read.
pub fn options_for(case: &Value, release: &str) -> CheckOptions {
    let mut opts = CheckOptions { sglang_version: release.to_string(), ..CheckOptions::default() };
    if let Some(hw) = case.get("profile").and_then(Value::as_str).and_then(|p| Hardware::preset(p, None)) {
        opts.hardware = hw;
    }
    if let Some(files) = case.get("files").and_then(Value::as_object) {
        for (name, text) in files {
            opts.config_files.insert(name.clone(), text.as_str().unwrap_or_default().to_string());
        }
    }
    if let Some(stood_in) = case.get("stand_in").and_then(Value::as_object) {
        let cmd = case.get("cmd").and_then(Value::as_str).unwrap_or("");
        for (path, hub_id) in stood_in {
            // A quantization the command picks: the recorder drops the stand-in's own (record.py).
            let quantized_by_flag = cmd.contains("--quantization ") || cmd.contains("--quantization=");
            let Some(config) = hub_id.as_str().and_then(|id| recorder_config(id, quantized_by_flag)) else { continue };
            // which flag names the path (or an abbreviation of it): the draft model's, else the model's
            let draft = ["--speculative-draft-model-path", "--speculative-draft-model", "--speculative-draft"]
                .iter()
                .any(|flag| cmd.contains(&format!("{flag} {path}")) || cmd.contains(&format!("{flag}={path}")));
            if draft {
                opts.draft_model_config = Some(config);
            } else {
                opts.model_config = Some(config);
            }
        }
    }
    opts
}

/// The config (and `hf_quant_config.json`) the recorder serves for `hub_id`, without its
/// `quantization_config` when the command picks the quantization (as `record.py` serves it then).
fn recorder_config(hub_id: &str, quantized_by_flag: bool) -> Option<GivenConfig> {
    let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/recorder/models");
    let ids: Value = serde_json::from_str(&std::fs::read_to_string(models.join("hub_ids.json")).ok()?).ok()?;
    let folder = models.join(ids.get(hub_id)?.as_str()?);
    let mut config = std::fs::read_to_string(folder.join("config.json")).ok()?;
    if quantized_by_flag {
        let mut value: Value = serde_json::from_str(&config).ok()?;
        if value.as_object_mut()?.remove("quantization_config").is_some() {
            config = value.to_string();
        }
    }
    let hf_quant = std::fs::read_to_string(folder.join("hf_quant_config.json")).ok();
    let mut given = GivenConfig::parse(&config, hf_quant.as_deref()).ok()?;
    // the recorder serves the whole folder
    given.folder_read = !folder.join("quant_model_description.json").exists();
    Some(given)
}

/// Every recorded fixture of the default release (`tests/fixtures/<release>/*.jsonl`), file by
/// file in name order.
#[allow(dead_code)] // not every test file that shares this module reads the fixtures
pub fn default_release_fixtures() -> Vec<Value> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(sglang_preflight::schema::DEFAULT_VERSION);
    let mut paths: Vec<_> = std::fs::read_dir(dir).map(|rd| rd.filter_map(Result::ok).map(|e| e.path()).collect()).unwrap_or_default();
    paths.sort();
    paths
        .iter()
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("jsonl"))
        .flat_map(|p| std::fs::read_to_string(p).unwrap_or_default().lines().map(str::to_string).collect::<Vec<_>>())
        .filter_map(|l| serde_json::from_str(&l).ok())
        .collect()
}
