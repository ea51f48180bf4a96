//! Thin wasm-bindgen layer over the core. OWNER: web helper.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Check `text`; returns the report as a plain object shaped like the CLI's JSON.
#[wasm_bindgen]
pub fn check(text: &str) -> Result<JsValue, JsValue> {
    let report = crate::check(text, &crate::CheckOptions::default());
    serde_wasm_bindgen::to_value(&report).map_err(|e| JsValue::from_str(&e.to_string()))
}
