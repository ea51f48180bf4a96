//! SARIF 2.1.0 (code scanning): rules with descriptions and help links, results with
//! physical locations, fixes as SARIF fixes.
//!
//! The log lists only the rules that have a result: the full set is several hundred rules with
//! paragraphs of help, which would make every log hundreds of kilobytes for nothing (code
//! scanning reads a rule's metadata from the log that reports it).

use super::locate::{self, LineColumn, Locator};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Origin, Severity, Stage};
use crate::sources::FileReport;
use crate::span::Span;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The project's home page (the tool's `informationUri`).
pub const PROJECT_URL: &str = "https://github.com/sglang-preflight/sglang-preflight";

/// The rule reference every rule's help link points into (one anchor per rule today; when the
/// site has one page per rule, [`help_uri`] is the one place to change).
pub const RULE_REFERENCE_URL: &str = "https://github.com/sglang-preflight/sglang-preflight/blob/main/docs/rules.md";

const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const SOURCE_ROOT: &str = "%SRCROOT%";

/// The SARIF log for checked files, each with the text it was checked in.
pub fn render(files: &[(&FileReport, &str)]) -> Value {
    let mut rules: BTreeMap<String, Value> = BTreeMap::new();
    let mut results = Vec::new();
    let mut suppressed = 0usize;
    for (file, text) in files {
        suppressed += file.suppressed;
        let locator = Locator::new(text, locate::offsets(file));
        let artifact = artifact_location(&file.file);
        for d in locate::findings(file) {
            rules.entry(d.code.clone()).or_insert_with(|| rule_descriptor(&d.code));
            results.push(result(d, &artifact, &locator));
        }
    }
    // Rules in code order, each result pointing at its rule's index.
    let index: BTreeMap<&str, usize> = rules.keys().enumerate().map(|(i, code)| (code.as_str(), i)).collect();
    for r in &mut results {
        let at = r.get("ruleId").and_then(Value::as_str).and_then(|code| index.get(code)).copied();
        if let (Some(at), Some(object)) = (at, r.as_object_mut()) {
            object.insert("ruleIndex".into(), json!(at));
        }
    }
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "sglang-preflight",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": PROJECT_URL,
                "rules": rules.into_values().collect::<Vec<_>>(),
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {"suppressed": suppressed},
        }],
    })
}

/// Where a code's reference lives.
pub fn help_uri(code: &str) -> String {
    match crate::rules::by_code(code) {
        Some(rule) => format!("{RULE_REFERENCE_URL}#{}-{}", rule.code.to_ascii_lowercase(), rule.name),
        None if crate::codes::CODES.iter().any(|c| c.code == code) => format!("{RULE_REFERENCE_URL}#other-codes"),
        None => RULE_REFERENCE_URL.to_string(),
    }
}

/// The SARIF level of a severity.
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// What SGLang says: its exception and message (`ValueError: ...`), or preflight's message.
pub fn message_text(d: &Diagnostic) -> String {
    match d.exception.as_deref().filter(|e| !e.is_empty()) {
        Some(exception) => format!("{exception}: {}", d.message),
        None => d.message.clone(),
    }
}

fn lowercase_debug(value: impl std::fmt::Debug) -> String {
    format!("{value:?}").to_ascii_lowercase()
}

fn origin_name(origin: Origin) -> &'static str {
    match origin {
        Origin::Sglang => "sglang",
        Origin::Preflight => "preflight",
    }
}

fn stage_name(stage: Stage) -> String {
    lowercase_debug(stage)
}

/// A rule's `reportingDescriptor`: from the rule's metadata, else from the table of the
/// reader's, front end's and argparse layer's codes.
fn rule_descriptor(code: &str) -> Value {
    if let Some(rule) = crate::rules::by_code(code) {
        let info = rule.info();
        let short = match (info.exception, info.template) {
            (_, "") => info.name.to_string(),
            ("", template) => template.to_string(),
            (exception, template) => format!("{exception}: {template}"),
        };
        let mut help_markdown = info.explanation.to_string();
        if !info.example_bad.is_empty() {
            help_markdown.push_str(&format!("\n\nRejected:\n\n```sh\n{}\n```", info.example_bad));
        }
        if !info.example_good.is_empty() {
            help_markdown.push_str(&format!("\n\nAccepted:\n\n```sh\n{}\n```", info.example_good));
        }
        let mut properties = json!({
            "origin": origin_name(Origin::Sglang),
            "stage": stage_name(info.stage),
            "flags": info.flags,
            "tags": ["sglang", stage_name(info.stage)],
        });
        if let Some(object) = properties.as_object_mut() {
            for (key, value) in [("sglang_site", info.site), ("sglang_file", info.file.as_str()), ("sglang_function", info.function.as_str())] {
                if !value.is_empty() {
                    object.insert(key.into(), json!(value));
                }
            }
        }
        return json!({
            "id": code,
            "name": info.name,
            "shortDescription": {"text": short},
            "fullDescription": {"text": non_empty(info.explanation, info.name)},
            "help": {"text": non_empty(info.explanation, info.name), "markdown": help_markdown},
            "helpUri": help_uri(code),
            "defaultConfiguration": {"level": level(info.severity)},
            "properties": properties,
        });
    }
    if let Some(known) = crate::codes::CODES.iter().find(|c| c.code == code) {
        let said_by = match known.origin {
            Origin::Sglang => "SGLang's own error or warning, with its exact message.",
            Origin::Preflight => "A finding of sglang-preflight's own.",
        };
        return json!({
            "id": code,
            "shortDescription": {"text": known.meaning},
            "fullDescription": {"text": format!("{} {said_by}", known.meaning)},
            "helpUri": help_uri(code),
            "properties": {
                "origin": origin_name(known.origin),
                "stage": stage_name(known.stage),
                "tags": [origin_name(known.origin), stage_name(known.stage)],
            },
        });
    }
    json!({"id": code, "shortDescription": {"text": code}, "helpUri": help_uri(code)})
}

fn non_empty<'a>(text: &'a str, otherwise: &'a str) -> &'a str {
    if text.is_empty() {
        otherwise
    } else {
        text
    }
}

fn artifact_location(path: &str) -> Value {
    let shown = locate::display_path(path);
    if shown.starts_with('/') {
        return json!({"uri": format!("file://{}", percent_encode(&shown))});
    }
    json!({"uri": percent_encode(&shown), "uriBaseId": SOURCE_ROOT})
}

/// A path as a URI reference: every byte but unreserved characters and `/` percent-encoded
/// (a `:` in a first segment would otherwise read as a scheme).
fn percent_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn region(span: Span, locator: &Locator) -> Value {
    let (start, end) = (locator.clamp(span.start), locator.clamp(span.end.max(span.start)));
    let (from, to): (LineColumn, LineColumn) = (locator.at(start), locator.at(end));
    json!({
        "startLine": from.line,
        "startColumn": from.column,
        "endLine": to.line,
        "endColumn": to.column,
        "byteOffset": start,
        "byteLength": end.saturating_sub(start),
    })
}

fn result(d: &Diagnostic, artifact: &Value, locator: &Locator) -> Value {
    let mut properties = Map::new();
    properties.insert("origin".into(), json!(origin_name(d.origin)));
    properties.insert("stage".into(), json!(stage_name(d.stage)));
    if let Some(exception) = &d.exception {
        properties.insert("exception".into(), json!(exception));
    }
    if !d.explanation.is_empty() {
        properties.insert("explanation".into(), json!(d.explanation));
    }
    // Fixes without edits are advice: SARIF fixes must change an artifact, so they go here.
    let advice: Vec<&str> = d.fixes.iter().filter(|f| f.edits.is_empty()).map(|f| f.title.as_str()).collect();
    if !advice.is_empty() {
        properties.insert("advice".into(), json!(advice));
    }
    let fixes: Vec<Value> = d
        .fixes
        .iter()
        .filter(|f| !f.edits.is_empty())
        .map(|f| {
            json!({
                "description": {"text": f.title},
                "artifactChanges": [{
                    "artifactLocation": artifact,
                    "replacements": f.edits.iter().map(|e| replacement(e, locator)).collect::<Vec<_>>(),
                }],
                "properties": {"applicability": applicability_name(f.applicability)},
            })
        })
        .collect();
    let mut out = json!({
        "ruleId": d.code,
        "level": level(d.severity),
        "message": {"text": message_text(d)},
        "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": region(d.span, locator)}}],
        "properties": properties,
    });
    if let (false, Some(object)) = (fixes.is_empty(), out.as_object_mut()) {
        object.insert("fixes".into(), Value::Array(fixes));
    }
    out
}

fn replacement(edit: &Edit, locator: &Locator) -> Value {
    json!({
        "deletedRegion": region(Span::new(edit.start, edit.end), locator),
        "insertedContent": {"text": edit.replacement},
    })
}

fn applicability_name(applicability: Applicability) -> String {
    lowercase_debug(applicability)
}
