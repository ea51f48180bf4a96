//! What the test files share: the options a recorded case is checked with, and the default
//! release's recorded fixtures.

use serde_json::Value;
use sglang_preflight::hardware::Hardware;
use sglang_preflight::CheckOptions;

/// The options a case is recorded with: the SGLang release, its hardware profile and its
/// `--config` files.
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
    opts
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
