//! Fixes that rewrite a JSON value given on the command line (an inline `--watermark-config`,
//! `--mm-process-config`, `--preferred-sampling-params`) without the keys SGLang refuses.

use crate::diagnostic::{Applicability, Fix};
use crate::fields::{f, Field};
use crate::pyvalue::PyValue;
use crate::rules::Ctx;

/// Fix: the JSON object `value` (the flag `field`'s) written again without `keys`; the flag
/// left out when nothing else remains. Advice when `value` is not an object.
pub fn without_keys(ctx: &Ctx, value: &PyValue, keys: &[&str], field: Field, title: &str) -> Fix {
    let PyValue::Dict(items) = value else { return Fix::advice(title) };
    let rest: Vec<(String, PyValue)> = items.iter().filter(|(k, _)| !keys.contains(&k.as_str())).cloned().collect();
    if rest.is_empty() {
        return ctx.fix_remove(title, field, Applicability::Unsafe);
    }
    match json_text(&PyValue::Dict(rest)) {
        Some(text) => ctx.fix_set(title, field, &crate::shell::single_quote(&text), Applicability::Unsafe),
        None => Fix::advice(title),
    }
}

/// Fix: an inline `--watermark-config` JSON written again without `keys` (the flag left out
/// when nothing remains); advice for a config in a file.
pub fn watermark_config_without(ctx: &Ctx, keys: &[&str]) -> Fix {
    let title = format!("Remove {} from --watermark-config", keys.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(" and "));
    let inline = ctx.cfg.str(f::watermark_config).filter(|s| s.trim_start().starts_with('{'));
    match inline.and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok()) {
        Some(parsed) => without_keys(ctx, &PyValue::from_json(&parsed), keys, f::watermark_config, &title),
        None => Fix::advice(title),
    }
}

/// `json.dumps(value)` for the values `json.loads` gives (None for a float JSON cannot write).
fn json_text(value: &PyValue) -> Option<String> {
    Some(match value {
        PyValue::None => "null".into(),
        PyValue::Bool(b) => b.to_string(),
        PyValue::Int(i) => i.to_string(),
        PyValue::BigInt(s) => s.clone(),
        PyValue::Float(x) => serde_json::Number::from_f64(*x)?.to_string(),
        PyValue::Str(s) => serde_json::to_string(s).ok()?,
        PyValue::List(l) => format!("[{}]", l.iter().map(json_text).collect::<Option<Vec<_>>>()?.join(", ")),
        PyValue::Dict(d) => {
            let items = d.iter().map(|(k, v)| Some(format!("{}: {}", serde_json::to_string(k).ok()?, json_text(v)?))).collect::<Option<Vec<_>>>()?;
            format!("{{{}}}", items.join(", "))
        }
    })
}
