//! Thin wasm-bindgen layer over the core, for the web page and the docs widget. OWNER: web helper.
//!
//! Everything here is plain data in, plain data out: the report is the CLI's JSON shape, and
//! every byte span in it (diagnostic spans, command spans, fix edits) is also given in UTF-16
//! code units (what JavaScript strings index by) and as 1-based line/column, so the page never
//! has to convert offsets itself.

use crate::frontend::ConfigFiles;
use crate::hardware::Hardware;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Options of `check`. Every field is optional. */
export interface CheckOptions {
  /** SGLang release to check against (default: the newest this build carries). */
  sglangVersion?: string;
  /** Hardware preset name: h100 h200 b200 gb200 a100 l40s rtx5090 mi300x mi355x cpu. */
  gpu?: string;
  /** GPU count (default: the preset's). */
  gpus?: number;
  /** YAML text for the `--config` file(s) the command names. */
  configYaml?: string;
  /** `--config` files by the path written in the command. */
  configFiles?: Record<string, string>;
}
/** A half-open range in UTF-16 code units (JavaScript string indexes). */
export interface Span16 { start: number; end: number; }
/** A half-open byte range into the UTF-8 text, plus the same range for JavaScript. */
export interface Span { start: number; end: number; }
export interface Located {
  span16: Span16;
  /** 1-based line and UTF-16 column of the start and of the end. */
  line: number; column: number; endLine: number; endColumn: number;
}
export interface Edit {
  /** Byte offsets into the UTF-8 text. */
  start: number; end: number; replacement: string;
  /** The same offsets in UTF-16 code units. */
  start16: number; end16: number;
  line: number; column: number; endLine: number; endColumn: number;
}
export type Applicability = "safe" | "unsafe" | "display";
export interface Fix { title: string; applicability: Applicability; edits: Edit[]; }
export type Severity = "error" | "warning" | "info";
export type Origin = "sglang" | "preflight";
export type Stage = "shell" | "cli" | "config" | "argparse" | "resolve" | "check";
export interface Diagnostic extends Located {
  code: string; severity: Severity; origin: Origin; stage: Stage;
  /** Python exception class SGLang raises (`SystemExit` for argparse errors). */
  exception?: string;
  /** SGLang's message verbatim (origin "sglang") or preflight's own. */
  message: string;
  span: Span;
  explanation: string;
  fixes: Fix[];
}
export interface NotRun { site: string; reason: "model_config" | "files" | "network" | "not_implemented"; }
export interface CommandReport extends Located {
  entry: string; argv: string[]; accepted: boolean; span: Span;
  diagnostics: Diagnostic[]; not_run: NotRun[];
  /** How many of SGLang's resolution hooks on this command's path are not modelled yet. */
  not_modelled_hooks: number;
}
export interface Report {
  sglang_version: string; hardware: string; accepted: boolean;
  commands: CommandReport[]; diagnostics: Diagnostic[];
}
export interface SchemaAction {
  option_strings: string[]; dest: string; action: string; type: string | null;
  choices: unknown[] | null; nargs: number | string | null; const: unknown; default: unknown;
  help: string | null; metavar: unknown; required: boolean; deprecated: boolean;
}
export interface Schema { sglang_version: string; prog: string; actions: SchemaAction[]; }
export interface Preset {
  preset: string; name: string; platform: "cuda" | "rocm" | "cpu"; gpu_name: string;
  gpu_count: number; gpu_mem_mib: number; summary: string; [key: string]: unknown;
}
export interface RuleInfo {
  code: string; name: string; site: string; warning_site?: string; file: string; function: string; since: string;
  until: string | null; exception: string; severity: Severity; stage: Stage; template: string;
  explanation: string; flags: string[]; example_bad: string; example_good: string;
}
export interface VersionInfo {
  preflight: string; sglang: string[]; defaultSglang: string;
  /** How many rules this build checks (their metadata: `rules()`). */
  rules: number;
}
"#;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct JsOptions {
    sglang_version: Option<String>,
    gpu: Option<String>,
    gpus: Option<u32>,
    config_yaml: Option<String>,
    config_files: Option<BTreeMap<String, String>>,
}

fn err(msg: impl std::fmt::Display) -> JsError {
    JsError::new(&msg.to_string())
}

/// The `--config` paths named in the commands of `text` (as the CLI finds them).
fn config_paths(text: &str) -> Vec<String> {
    let parsed = crate::shell::parse(text);
    let mut out = Vec::new();
    for inv in crate::invocation::locate(&parsed).invocations {
        let mut words = inv.args.iter();
        while let Some(w) = words.next() {
            if w.text == "--config" {
                if let Some(p) = words.next() {
                    out.push(p.text.clone());
                }
            }
        }
    }
    out
}

fn options(text: &str, options: JsValue) -> Result<crate::CheckOptions, JsError> {
    let o: JsOptions = if options.is_undefined() || options.is_null() {
        JsOptions::default()
    } else {
        serde_wasm_bindgen::from_value(options).map_err(|e| err(format!("bad options: {e}")))?
    };
    let mut opts = crate::CheckOptions::default();
    if let Some(v) = o.sglang_version.filter(|v| !v.is_empty()) {
        opts.sglang_version = v;
    }
    let gpu = o.gpu.filter(|g| !g.is_empty()).unwrap_or_else(|| "h100".to_string());
    opts.hardware = Hardware::preset(&gpu, o.gpus).ok_or_else(|| err(format!("unknown GPU preset {gpu:?}")))?;
    let mut files = ConfigFiles::new();
    if let Some(map) = o.config_files {
        files.extend(map);
    }
    if let Some(yaml) = o.config_yaml.filter(|y| !y.trim().is_empty()) {
        // Like the CLI's `--config-file`: the YAML for whatever `--config` path the command names.
        for path in config_paths(text) {
            files.entry(path).or_insert_with(|| yaml.clone());
        }
    }
    opts.config_files = files;
    Ok(opts)
}

fn checked(text: &str, opts: JsValue) -> Result<crate::check::Report, JsError> {
    Ok(crate::check(text, &options(text, opts)?))
}

fn to_js<T: Serialize + ?Sized>(v: &T) -> Result<JsValue, JsError> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(err)
}

/// Check every SGLang launch command in `text`; returns the report as a plain object shaped
/// like the CLI's JSON, with UTF-16 offsets and line/column added to every span and edit.
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn check(text: &str, #[wasm_bindgen(unchecked_param_type = "CheckOptions | undefined")] options: JsValue) -> Result<JsValue, JsError> {
    let report = checked(text, options)?;
    let offsets = crate::located::Offsets::new(text);
    to_js(&crate::located::LocatedReport { report: &report, offsets: &offsets })
}

/// Same as `check`, as a JSON string (cheaper to move across threads and the wasm boundary).
#[wasm_bindgen(js_name = checkJson)]
pub fn check_json(text: &str, #[wasm_bindgen(unchecked_param_type = "CheckOptions | undefined")] options: JsValue) -> Result<String, JsError> {
    Ok(crate::located::to_json(text, &checked(text, options)?))
}

/// The report as reviewable plain text (the CLI's `--format snapshot`).
#[wasm_bindgen]
pub fn snapshot(text: &str, #[wasm_bindgen(unchecked_param_type = "CheckOptions | undefined")] options: JsValue) -> Result<String, JsError> {
    Ok(crate::snapshot::render(text, &checked(text, options)?))
}

fn schema_value(version: &str) -> Result<Value, JsError> {
    let schema = crate::schema::get(version).ok_or_else(|| err(format!("SGLang version {version} is not supported")))?;
    let actions: Vec<Value> = schema
        .actions
        .iter()
        .map(|a| {
            json!({
                "option_strings": a.option_strings,
                "dest": a.dest,
                "action": a.action,
                "type": a.type_name,
                "choices": a.choices,
                "nargs": a.nargs,
                "const": a.r#const,
                "default": a.default,
                "help": a.help,
                "metavar": a.metavar,
                "required": a.required,
                "deprecated": a.deprecated,
            })
        })
        .collect();
    Ok(json!({ "sglang_version": schema.sglang_version, "prog": schema.prog, "actions": actions }))
}

/// The flag schema of an SGLang version (every argparse action), for the command builder.
#[wasm_bindgen(unchecked_return_type = "Schema")]
pub fn schema(version: &str) -> Result<JsValue, JsError> {
    to_js(&schema_value(version)?)
}

/// The hardware presets, each with its banner summary ("8×H100").
#[wasm_bindgen(unchecked_return_type = "Preset[]")]
pub fn presets() -> Result<JsValue, JsError> {
    let list: Vec<Value> = crate::hardware::PRESETS
        .iter()
        .map(|p| {
            let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                m.insert("summary".into(), json!(p.summary()));
            }
            v
        })
        .collect();
    to_js(&list)
}

/// Metadata of every rule this build knows.
#[wasm_bindgen(unchecked_return_type = "RuleInfo[]")]
pub fn rules() -> Result<JsValue, JsError> {
    to_js(&crate::rules::all_rules().iter().map(|r| r.info()).collect::<Vec<_>>())
}

/// This build's version and the SGLang versions it carries (the first is the default).
#[wasm_bindgen(unchecked_return_type = "VersionInfo")]
pub fn version() -> Result<JsValue, JsError> {
    to_js(&json!({
        "preflight": env!("CARGO_PKG_VERSION"),
        "sglang": crate::schema::SUPPORTED_VERSIONS,
        "defaultSglang": crate::schema::DEFAULT_VERSION,
        "rules": crate::rules::all_rules().len(),
    }))
}
