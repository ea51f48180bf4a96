//! What the test files share: the options a recorded case is checked with.

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
