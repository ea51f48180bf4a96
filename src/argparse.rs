//! CPython 3.11 `argparse` as SGLang configures it (`ArgumentParser(prog="sglang serve")`,
//! allow_abbrev on), replayed over the schema: same acceptance, same first error, same text.
//! Unlike argparse we keep going after an error, so every problem is reported.
//!
//! OWNER: argparse helper. Interface is fixed; the implementation below is a placeholder.

use crate::diagnostic::Diagnostic;
use crate::pyvalue::PyValue;
use crate::schema::Schema;
use crate::shell::Word;
use crate::span::Span;
use std::collections::HashMap;

/// A value the command sets explicitly, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    pub value: PyValue,
    /// The option string as written (`--tp`), or the YAML key for config-file values.
    pub written_as: String,
    /// The canonical (first long) option string of the action (`--tp-size`).
    pub option: String,
    /// Span of the flag word (or the `--flag` part of `--flag=value`).
    pub flag_span: Span,
    /// Span of the value (word or `=value` part), if any.
    pub value_span: Option<Span>,
    /// Everything to delete to drop this setting from the command (flag and its values).
    pub whole_span: Span,
    /// True when it came from the `--config` YAML file, not the command line.
    pub from_config: bool,
}

/// Explicitly set values, by argparse `dest`. Defaults stay in the schema.
#[derive(Debug, Clone, Default)]
pub struct Namespace {
    pub explicit: HashMap<String, Setting>,
}

#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub namespace: Namespace,
    /// Errors (stage `argparse`, exception `SystemExit`; the first one is what argparse
    /// raises) and warnings (deprecated flags, repeated flags).
    pub diagnostics: Vec<Diagnostic>,
}

/// Parse `argv` (the words after the launcher, after the front end and `--config` merging).
pub fn parse_args(schema: &Schema, argv: &[Word]) -> Parsed {
    // Placeholder until the exact replay lands: exact option strings and `--flag=value`,
    // typed values, no errors.
    let mut parsed = Parsed::default();
    let mut i = 0;
    while let Some(w) = argv.get(i) {
        i += 1;
        let (flag, inline) = match w.text.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (w.text.as_str(), None),
        };
        let Some(action) = schema.action(flag) else { continue };
        let nargs = action.nargs.clone();
        let takes_value = !matches!(nargs, Some(serde_json::Value::Number(ref n)) if n.as_u64() == Some(0));
        let many = matches!(nargs.as_ref().and_then(|n| n.as_str()), Some("*") | Some("+"));
        let mut values: Vec<&Word> = Vec::new();
        let mut value_span = None;
        let value = if !takes_value {
            match action.action.as_str() {
                "BooleanOptionalAction" => PyValue::Bool(!flag.starts_with("--no-")),
                "_StoreConstAction" | "DeprecatedStoreConstAction" => action
                    .extra
                    .as_ref()
                    .and_then(|e| e.get("const_value"))
                    .map(PyValue::from_json)
                    .unwrap_or_else(|| PyValue::from_json(&action.r#const)),
                "_StoreFalseAction" => PyValue::Bool(false),
                _ => PyValue::Bool(true),
            }
        } else if let Some(v) = inline {
            value_span = Some(w.sub_span(flag.len() + 1, w.text.len()));
            convert(action.type_name.as_deref(), v)
        } else {
            while let Some(v) = argv.get(i) {
                if v.text.starts_with('-') && v.text.len() > 1 && v.text.parse::<f64>().is_err() {
                    break;
                }
                values.push(v);
                i += 1;
                if !many {
                    break;
                }
            }
            value_span = match (values.first(), values.last()) {
                (Some(a), Some(b)) => Some(a.span.cover(b.span)),
                _ => None,
            };
            if many {
                PyValue::List(values.iter().map(|v| convert(action.type_name.as_deref(), &v.text)).collect())
            } else {
                values.first().map(|v| convert(action.type_name.as_deref(), &v.text)).unwrap_or(PyValue::None)
            }
        };
        let whole = value_span.map(|v| w.span.cover(v)).unwrap_or(w.span);
        parsed.namespace.explicit.insert(
            action.dest.clone(),
            Setting {
                value,
                written_as: flag.to_string(),
                option: action.option_strings.first().cloned().unwrap_or_default(),
                flag_span: w.sub_span(0, flag.len()),
                value_span,
                whole_span: whole,
                from_config: false,
            },
        );
    }
    parsed
}

fn convert(type_name: Option<&str>, text: &str) -> PyValue {
    match type_name {
        Some("int") => text.trim().parse().map(PyValue::Int).unwrap_or_else(|_| PyValue::Str(text.into())),
        Some("float") => text.trim().parse().map(PyValue::Float).unwrap_or_else(|_| PyValue::Str(text.into())),
        Some(t) if t.contains("json") => serde_json::from_str::<serde_json::Value>(text)
            .map(|v| PyValue::from_json(&v))
            .unwrap_or_else(|_| PyValue::Str(text.into())),
        _ => PyValue::Str(text.to_string()),
    }
}
