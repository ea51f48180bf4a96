//! Thin wasm-bindgen layer over the core, for the web page and the docs widget. OWNER: web helper.
//!
//! Everything here is plain data in, plain data out: the report is the CLI's JSON shape, and
//! every byte span in it (diagnostic spans, command spans, fix edits) is also given in UTF-16
//! code units (what JavaScript strings index by) and as 1-based line/column, so the page never
//! has to convert offsets itself.

use crate::diagnostic::Edit;
use crate::edits::Applied;
use crate::flag_edit::FlagValue;
use crate::frontend::ConfigFiles;
use crate::hardware::Hardware;
use crate::models::GivenConfig;
use crate::from_json::{Fields, FromJson};
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Options of `check`. Every field is optional. */
export interface CheckOptions {
  /** SGLang release to check against (default: the newest this build carries). A known
   *  release this build does not carry (`VersionInfo.known`) is checked once `registerRelease`
   *  has been given its schema (`releases/<version>.json`). */
  sglangVersion?: string;
  /** Check against the release the text names (`lmsysorg/sglang:v0.5.20`, `sglang==0.5.19`,
   *  see `releaseHint`) instead, when it is loaded: a P0004 note says so, a P0005 warning when
   *  it is not. */
  releaseFromText?: boolean;
  /** Hardware preset name: h100 h200 b200 gb200 a100 l40s rtx5090 mi300x mi355x cpu. */
  gpu?: string;
  /** GPU count (default: the preset's). */
  gpus?: number;
  /** YAML text for the `--config` file(s) the command names. */
  configYaml?: string;
  /** `--config` files by the path written in the command. */
  configFiles?: Record<string, string>;
  /** The model's `config.json` text, used for `--model-path` instead of the catalog (see
   *  `readModelConfig`); a text that cannot be read is ignored. */
  modelConfig?: string;
  /** The checkpoint's `hf_quant_config.json` text, with `modelConfig`. */
  hfQuantConfig?: string;
  /** The draft model's `config.json`, for `--speculative-draft-model-path`. */
  draftModelConfig?: string;
  /** Build "What SGLang will run with" (`resolved`, `resolved_unknown`, `resolved_details`;
   *  default true). False leaves them out, and marks an accepted command `resolved_left_out`:
   *  a check in the page takes ~40% less time; ask again with true when they are shown. */
  resolvedValues?: boolean;
}
/** How a model path was recognized: "exact", "case_insensitive", "org_double_underscore",
 *  "hf_cache_path", "local_basename", or "inferred" (with the catalog family it points to). */
export interface ModelHow { kind: string; family?: string; }
/** What the report knows of a model the command names (`model`, `draft_model`). */
export interface ModelReport {
  flag: "model_path" | "speculative_draft_model_path"; model_path: string;
  hub_id?: string; how?: ModelHow; architecture?: string;
  /** "DeepSeek-V3 — DeepseekV3ForCausalLM, MLA, 256 routed experts — from the built-in catalog". */
  summary: string; source?: string;
}
/** `readModelConfig`'s verdict on a pasted `config.json`. */
export interface ModelConfigStatus { ok: boolean; error?: string; architecture?: string | null; wrong_types?: WrongType[]; }
/** A config key whose value has the wrong type (read as absent). */
export interface WrongType { key: string; expected: string; }
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
  /** What it means. The wasm goes without the rules' own explanations: where a rule's text
   * belongs this says `{explanation}`, and the site's `rules/explanations/<family>.json` has the
   * text by rule code (`KV029` in KV.json; the page and the widget put it in when they show the card). */
  explanation: string;
  fixes: Fix[];
}
export interface NotRun { site: string; reason: "model_config" | "files" | "network" | "not_implemented" | "unknown_value" | "hardware"; }
export interface CommandReport extends Located {
  entry: "serve" | "launch_server"; argv: string[]; accepted: boolean; span: Span;
  diagnostics: Diagnostic[]; not_run: NotRun[];
  /** How many of SGLang's resolution hooks on this command's path are not modelled yet. */
  not_modelled_hooks: number;
  /** The model `--model-path` names, as far as it is known (catalog, given config). */
  model?: ModelReport;
  draft_model?: ModelReport;
  /** What SGLang will run with (accepted commands): known `ServerArgs` values by field. */
  resolved?: Record<string, unknown>;
  /** Fields whose resolved value is not known here, and why. */
  resolved_unknown?: ResolvedUnknown[];
  resolved_details?: ResolvedValue[];
  /** An accepted command checked with `resolvedValues: false`: it has resolved values, not built. */
  resolved_left_out?: boolean;
}
export type UnknownReason = "not_modelled" | "model_config" | "unknown_value" | "check_not_run";
export interface ResolvedUnknown {
  field: string;
  reason: UnknownReason;
  /** The step that may assign it ("" for the model's config or the text). */
  step: string;
}
export interface ResolvedValue {
  field: string; flag: string | null; value: unknown;
  /** The value as Python prints it. */
  repr: string;
  differs_from_default: boolean;
  source: "command" | "default" | "derived";
  /** The start-up step that derived it. */
  set_by?: string;
  /** Writes the flag explicitly with this value. */
  pin?: Fix;
}
export interface Report {
  sglang_version: string; hardware: string; accepted: boolean;
  commands: CommandReport[]; diagnostics: Diagnostic[];
  summary: Summary;
  /** The paths written after `--config` in the commands. */
  config_paths: string[];
  /** Every other command the paste runs besides the SGLang launches and harmless set-up
   *  (assignments, export, cd, set, here-documents written to files), and every command
   *  substitution not inside one of those; in text order. `text` is the command as written,
   *  cut to 200 characters (then ending in "…"). Each also has a P0003 diagnostic. */
  also_runs: AlsoRuns[];
}
export interface AlsoRuns extends Located { span: Span; text: string; }
export interface Counts { errors: number; warnings: number; notes: number; }
export interface Summary {
  outcome: "none" | "accepted" | "rejected";
  counts: Counts;
  /** "SGLang 0.5.23 on 8×H100 would reject this: 2 errors, 1 warning" */
  verdict: string;
  /** "Not run here: …." or null when every check ran. */
  not_run: string | null;
}
/** One of `FixedAll.edits`: bytes and UTF-16 offsets into the text as it was. */
export interface FixedAllEdit { start: number; end: number; replacement: string; start16: number; end16: number; }
/** What "Apply all safe fixes" comes to (`fixAll`). */
export interface FixedAll {
  /** The text with the fixes applied (round after round, each on the text the last one left). */
  text: string;
  /** Findings whose fix was applied, and the rounds that changed the text. */
  applied: number; rounds: number;
  /** The edits that turn the text as it was into `text`, sorted and apart: byte offsets and
   *  UTF-16 offsets into the text as it was. No byte outside them changes. */
  edits: FixedAllEdit[];
  /** Where the first change is in `text` (UTF-16), for a selection; null when nothing changed. */
  selection16: Span16 | null;
}
/** A text after an edit, and where the change is (UTF-16, for a selection). */
export interface Edited { text: string; selection16: Span16; }
export interface CommandFlags {
  /** The command (0-based), null when the text has none. */
  command: number | null;
  entry: "serve" | "launch_server" | null;
  /** By main option string: true/false for switches (`--no-x`), the value words otherwise. */
  values: Record<string, boolean | string>;
}
export interface SchemaAction {
  option_strings: string[]; dest: string; action: string; type: string | null;
  choices: unknown[] | null; nargs: number | string | null; const: unknown; default: unknown;
  help: string | null; metavar: unknown; required: boolean; deprecated: boolean;
  /** The argparse group SGLang adds it to (0.5.23 has one for every flag: "options"). */
  group: string | null;
}
export interface Schema { sglang_version: string; prog: string; actions: SchemaAction[]; }
export interface Preset {
  preset: string; name: string; platform: "cuda" | "rocm" | "cpu"; gpu_name: string;
  /** CUDA compute capability (major, minor); for ROCm the arch family as the recorder maps it. */
  capability: [number, number];
  gpu_count: number; gpu_mem_mib: number; multi_processor_count: number;
  cuda_version: string | null; hip_version: string | null; gcn_arch: string | null;
  host_mem_gib: number; host_cpus: number; flashinfer: boolean; mnnvl_fabric: boolean; ib_devices: number;
  /** For banners: "8×H100". */
  summary: string;
}
export interface RuleInfo {
  /** `name` is empty in the wasm (it goes without the rules' names); the rule pages have them. */
  code: string; name: string; site: string; warning_site?: string; reraised_by?: string; file: string; function: string; since: string;
  until: string | null; exception: string; severity: Severity; stage: Stage; template: string;
  /** `{explanation}` in the wasm (it goes without the rules' explanations); the site's
   * `rules/explanations/<family>.json` has them by rule code. */
  explanation: string; flags: string[];
  /** Empty in the wasm (it goes without the rules' example commands); the site's
   * `rules/examples.json` has them by rule code. */
  example_bad: string; example_good: string;
}
/** A secret value (token, key, password) that a link carries as a placeholder instead. */
export interface Redaction {
  /** The value's bytes in the original text, and the same range in UTF-16. */
  span: Span; span16: Span16;
  /** `HF_TOKEN`, `API_KEY`. */
  name: string;
  /** What the link has instead: `<HF_TOKEN>`. */
  placeholder: string;
}
/** The text for a link: every secret value replaced by its placeholder, all else unchanged. */
export interface Redacted { text: string; redacted: Redaction[]; }
/** A release the text names for itself, and where: the image it runs or the package it installs. */
export interface ReleaseHint {
  /** "0.5.20" */
  version: string;
  /** `lmsysorg/sglang:v0.5.20` or `sglang==0.5.20` in the text (bytes, and UTF-16). */
  span: Span; span16: Span16;
}
/** One scenario of the page's examples menu (`examples()`). */
export interface Example {
  /** Its recorded case in tests/cases/examples.jsonl. */
  id: string;
  title: string;
  about: string;
  /** The hardware preset it is meant for. */
  gpu: string;
  command: string;
}
/** `explain`: every flag each launch command writes, as SGLang reads it. */
export interface Explanation { sglang_version: string; hardware: string; commands: ExplainedCommand[]; }
export interface ExplainedCommand {
  index: number; span: Span; accepted: boolean;
  /** Only SGLang's command-line parsing is replayed for this release. */
  parser_only: boolean;
  flags: ExplainedFlag[];
}
export interface ExplainedFlag extends Located {
  /** The flag word and its values (bytes); `span16`, line and column: the same for JavaScript. */
  span: Span;
  /** The option part of the flag word (`--tp` of `--tp=2`), null inside a string whose bytes are not the word's. */
  option_span: Span | null; option_span16: Span16 | null;
  /** As written (`--tp`), and the action's main option string (`--tp-size`). */
  written: string; option: string; dest: string;
  /** The value words as SGLang receives them; null for a switch. */
  value: string | null;
  help: string | null;
  /** The default as Python prints it; null when argparse suppresses it. */
  default: string | null;
  /** A later occurrence of the same flag replaces this one's value. */
  overridden: boolean;
  runs_with: RunsWith;
  findings: FlagFinding[];
  /** Checks SGLang runs that name this flag and did not run here. */
  checks_not_run: NotRun[];
}
/** The value SGLang will run with, for a flag written in the command. `status`: "resolved" (the
 *  resolved configuration's value, `repr`, from the command or set by the start-up step
 *  `set_by`); "parsed" (argparse's value, `repr`: the start-up steps `may_change` may still change
 *  it); "unknown" (not known here: `reason`, `step`); "rejected" (SGLang rejects the command);
 *  "parser_only" (argparse's value `repr`; the release's start-up steps are not replayed). */
export interface RunsWith {
  status: "resolved" | "parsed" | "unknown" | "rejected" | "parser_only";
  repr?: string;
  /** A written flag's value comes from the command, or a start-up step replaced it. */
  source?: "command" | "derived";
  set_by?: string | null;
  may_change?: string[];
  reason?: UnknownReason;
  step?: string;
}
export interface FlagFinding { code: string; severity: Severity; message: string; }
/** A flag the builder's search found, best first. */
export interface FlagMatch {
  /** Its main option string. */
  option: string;
  match: "exact" | "vllm" | "prefix" | "word" | "name" | "help";
  /** The vLLM flag the query named, for a `vllm` match. */
  vllm?: string;
}
/** One choice of a flag, checked with the command at hand. */
export interface ChoiceVerdict {
  choice: string;
  /** The command gives the flag this value now. */
  current: boolean;
  /** The first error the command gets with this choice that it does not get now. */
  rejected?: ChoiceRejection;
}
export interface ChoiceRejection { code: string; exception: string | null; message: string; }
export interface VersionInfo {
  preflight: string;
  /** The releases `check` takes now: the carried ones (the first is the default), then those
   *  registered. */
  sglang: string[];
  defaultSglang: string;
  /** Every release the project has data for, newest first: those not in `sglang` are fetched
   *  (`releases/<version>.json`, next to the page) and given to `registerRelease`. */
  known: string[];
  /** How many rules this build checks (their metadata: `rules()`). */
  rules: number;
  /** The releases of `sglang` whose flags' help texts are not loaded yet: `schema`, `explain`,
   *  `searchFlags` and `upgradeJson` have them once `registerHelp` has been given
   *  `help/<version>.json` (next to the page). This build's own release until then. */
  withoutHelp: string[];
}
"#;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

#[derive(Debug, Default)]
struct JsOptions {
    sglang_version: Option<String>,
    release_from_text: bool,
    gpu: Option<String>,
    gpus: Option<u32>,
    config_yaml: Option<String>,
    config_files: Option<BTreeMap<String, String>>,
    model_config: Option<String>,
    hf_quant_config: Option<String>,
    draft_model_config: Option<String>,
    resolved_values: Option<bool>,
}

// `CheckOptions`' keys (camelCase); each is optional.
impl FromJson for JsOptions {
    fn from_json(v: &Value) -> Result<Self, String> {
        let mut fields = Fields::of(v, "options")?;
        let options = JsOptions {
            sglang_version: fields.read("sglangVersion"),
            release_from_text: fields.read_or_default("releaseFromText"),
            gpu: fields.read("gpu"),
            gpus: fields.read("gpus"),
            config_yaml: fields.read("configYaml"),
            config_files: fields.read("configFiles"),
            model_config: fields.read("modelConfig"),
            hf_quant_config: fields.read("hfQuantConfig"),
            draft_model_config: fields.read("draftModelConfig"),
            resolved_values: fields.read("resolvedValues"),
        };
        fields.finish(options)
    }
}

fn err(msg: impl std::fmt::Display) -> JsError {
    JsError::new(&msg.to_string())
}

// Values cross to and from JavaScript as JSON text, through the engine's own JSON: one serde
// format (serde_json, which the reports use anyway) instead of a second one for JavaScript
// objects, whose code for every type sent was ~80 KB of the wasm. `JSON.parse` of serde_json's
// text cannot fail on its content: what it throws (a stack overflow) is left to reach the
// caller as it is, so the worker sees a crash as a crash.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse)]
    fn json_parse(text: &str) -> JsValue;
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify, catch)]
    fn json_stringify(value: &JsValue) -> Result<JsValue, JsValue>;
}

/// A value from JavaScript, read as its `JSON.stringify` text.
fn from_js<T: FromJson>(value: &JsValue) -> Result<T, String> {
    let text = json_stringify(value).ok().and_then(|t| t.as_string()).ok_or("not a JSON value")?;
    crate::from_json::parse(&text)
}

fn options(text: &str, options: JsValue) -> Result<crate::CheckOptions, JsError> {
    // The page checks every keystroke with the same options: reading them (and a model config
    // given with them) again was ~4% of a check. Kept for the last options' JSON text, before
    // `configYaml` (which depends on the command's text) is applied.
    thread_local! {
        static LAST: std::cell::RefCell<Option<(String, crate::CheckOptions, Option<String>)>> = const { std::cell::RefCell::new(None) };
    }
    let json = if options.is_undefined() || options.is_null() { None } else { Some(json_stringify(&options).ok().and_then(|t| t.as_string()).ok_or_else(|| err("bad options: not a JSON value"))?) };
    let key = json.as_deref().unwrap_or("");
    let (mut opts, yaml) = match LAST.with_borrow(|last| last.as_ref().filter(|(k, _, _)| k == key).map(|(_, o, y)| (o.clone(), y.clone()))) {
        Some(known) => known,
        None => {
            let o: JsOptions = match &json {
                None => JsOptions::default(),
                Some(text) => crate::from_json::parse(text).map_err(|e| err(format!("bad options: {e}")))?,
            };
            let yaml = o.config_yaml.clone();
            let opts = options_without_yaml(o)?;
            LAST.with_borrow_mut(|last| *last = Some((key.to_string(), opts.clone(), yaml.clone())));
            (opts, yaml)
        }
    };
    if let Some(yaml) = yaml.filter(|y| !y.trim().is_empty()) {
        // Like the CLI's `--config-file`: the YAML for whatever `--config` path the command names.
        for path in crate::invocation::config_paths(text) {
            opts.config_files.entry(path).or_insert_with(|| yaml.clone());
        }
    }
    Ok(opts)
}

/// The check options `o` gives, except its `configYaml`.
fn options_without_yaml(o: JsOptions) -> Result<crate::CheckOptions, JsError> {
    let mut opts = crate::CheckOptions::default();
    if let Some(v) = o.sglang_version.filter(|v| !v.is_empty()) {
        opts.sglang_version = v;
    }
    opts.release_from_text = o.release_from_text;
    let gpu = o.gpu.filter(|g| !g.is_empty()).unwrap_or_else(|| "h100".to_string());
    opts.hardware = Hardware::preset(&gpu, o.gpus).ok_or_else(|| err(format!("unknown GPU preset {gpu:?}")))?;
    let mut files = ConfigFiles::new();
    if let Some(map) = o.config_files {
        files.extend(map);
    }
    opts.config_files = files;
    // A config that cannot be read is not used (the page says why, from `readModelConfig`).
    let given = |text: Option<String>, quant: Option<&str>| text.filter(|t| !t.trim().is_empty()).and_then(|t| GivenConfig::parse(&t, quant).ok());
    opts.model_config = given(o.model_config, o.hf_quant_config.as_deref().filter(|q| !q.trim().is_empty()));
    opts.draft_model_config = given(o.draft_model_config, None);
    opts.resolved_values = o.resolved_values.unwrap_or(true);
    Ok(opts)
}

fn checked(text: &str, opts: JsValue) -> Result<crate::check::Report, JsError> {
    Ok(crate::check(text, &options(text, opts)?))
}

fn to_js<T: Serialize + ?Sized>(v: &T) -> Result<JsValue, JsError> {
    Ok(json_parse(&serde_json::to_string(v).map_err(err)?))
}

/// Check every SGLang launch command in `text`; returns the report as a plain object shaped
/// like the CLI's JSON, with UTF-16 offsets and line/column added to every span and edit, plus
/// its `summary` (verdict line, counts, not-run note) and the `--config` paths it names.
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn check(text: &str, #[wasm_bindgen(unchecked_param_type = "CheckOptions | undefined")] options: JsValue) -> Result<JsValue, JsError> {
    let report = checked(text, options)?;
    let offsets = crate::located::Offsets::new(text);
    to_js(&crate::located::PageReport::new(&report, &offsets))
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
                "help": a.help.get(),
                "metavar": a.metavar,
                "required": a.required,
                "deprecated": a.deprecated,
                "group": a.group,
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

/// This build's version, the SGLang releases `check` takes now (the carried ones first, the
/// first of them the default) and every release there is data for (`known`).
#[wasm_bindgen(unchecked_return_type = "VersionInfo")]
pub fn version() -> Result<JsValue, JsError> {
    to_js(&json!({
        "preflight": env!("CARGO_PKG_VERSION"),
        "sglang": crate::release::available_versions(),
        "defaultSglang": crate::schema::DEFAULT_VERSION,
        "known": crate::release::KNOWN_VERSIONS,
        "rules": crate::rules::all_rules().len(),
        "withoutHelp": crate::release::without_help(),
    }))
}

/// An edit as the report gives it (byte offsets; the UTF-16 ones are ignored).
#[derive(Debug, Default)]
struct JsEdit {
    start: usize,
    end: usize,
    replacement: String,
}
crate::from_json!(JsEdit { start, end, replacement });

/// The page's view of an edited text: the text, and where the change is, in UTF-16.
fn edited(applied: Option<Applied>) -> Result<JsValue, JsError> {
    let Some(a) = applied else { return Ok(JsValue::NULL) };
    let offsets = crate::located::Offsets::new(&a.text);
    to_js(&json!({
        "text": a.text,
        "selection16": { "start": offsets.u16(a.changed.start), "end": offsets.u16(a.changed.end) },
    }))
}

fn schema_of(version: &str) -> Result<&'static crate::schema::Schema, JsError> {
    crate::schema::get(version).ok_or_else(|| err(format!("SGLang version {version} is not supported")))
}

/// Apply a fix's edits (byte offsets, as in the report) to the text they were made for.
/// Returns the new text and the span of the change; an error when they do not fit the text.
#[wasm_bindgen(js_name = applyEdits, unchecked_return_type = "Edited")]
pub fn apply_edits(text: &str, #[wasm_bindgen(unchecked_param_type = "Array<Pick<Edit, 'start' | 'end' | 'replacement'>>")] edits: JsValue) -> Result<JsValue, JsError> {
    let edits: Vec<JsEdit> = from_js(&edits).map_err(|e| err(format!("bad edits: {e}")))?;
    let edits: Vec<Edit> = edits.into_iter().map(|e| Edit { start: e.start, end: e.end, replacement: e.replacement }).collect();
    match crate::edits::apply(text, &edits) {
        Some(applied) => edited(Some(applied)),
        None => Err(err("the fix no longer fits the text (it has changed since the check)")),
    }
}

/// "Apply all safe fixes" (the CLI's `--fix`): each finding's first safe fix (`unsafeFixes`:
/// unsafe ones too), checked again and repeated until nothing changes (at most 10 rounds). The
/// fixed text, and the combined edits against `text` so the page applies them as one change.
#[wasm_bindgen(js_name = fixAll, unchecked_return_type = "FixedAll")]
pub fn fix_all(
    text: &str,
    #[wasm_bindgen(unchecked_param_type = "CheckOptions | undefined")] options: JsValue,
    #[wasm_bindgen(js_name = unsafeFixes)] unsafe_fixes: bool,
) -> Result<JsValue, JsError> {
    let opts = self::options(text, options)?;
    let fixed = crate::fix_all::fix_all(
        text,
        unsafe_fixes,
        |t| crate::check(t, &opts),
        |r: &crate::check::Report| -> Vec<&crate::diagnostic::Diagnostic> { r.diagnostics.iter().chain(r.commands.iter().flat_map(|c| c.diagnostics.iter())).collect() },
        |_, _| true,
    );
    let before = crate::located::Offsets::new(text);
    let after = crate::located::Offsets::new(&fixed.text);
    let edits: Vec<Value> = fixed
        .edits
        .iter()
        .map(|e| json!({ "start": e.start, "end": e.end, "replacement": e.replacement, "start16": before.u16(e.start), "end16": before.u16(e.end) }))
        .collect();
    // The first edit starts where it did: nothing before it changed.
    let selection = fixed.edits.first().map(|e| json!({ "start": after.u16(e.start), "end": after.u16(e.start + e.replacement.len()) }));
    to_js(&json!({ "text": fixed.text, "applied": fixed.applied, "rounds": fixed.rounds, "edits": edits, "selection16": selection }))
}

/// The flags command `command` (0-based) of `text` sets, as SGLang's argparse reads them
/// (abbreviations, `--flag=value`, repeats), by their main option string.
#[wasm_bindgen(js_name = commandFlags, unchecked_return_type = "CommandFlags")]
pub fn command_flags(text: &str, version: &str, command: usize) -> Result<JsValue, JsError> {
    to_js(&crate::flag_edit::command_flags(text, schema_of(version)?, command))
}

/// Set a flag of command `command` of `text`: `null` removes it, `true`/`false` turn a switch
/// on/off (`--no-x` for a `BooleanOptionalAction`), a string is its value (several values
/// separated by spaces). Only that setting's bytes change. `null` when nothing changes.
#[wasm_bindgen(js_name = setFlag, unchecked_return_type = "Edited | null")]
pub fn set_flag(
    text: &str,
    version: &str,
    command: usize,
    option: &str,
    #[wasm_bindgen(unchecked_param_type = "string | boolean | null")] value: JsValue,
) -> Result<JsValue, JsError> {
    let value = if value.is_null() || value.is_undefined() {
        FlagValue::Unset
    } else if let Some(b) = value.as_bool() {
        if b {
            FlagValue::On
        } else {
            FlagValue::Off
        }
    } else if let Some(v) = value.as_string() {
        FlagValue::Text(v)
    } else {
        return Err(err("a flag value is a string, a boolean or null"));
    };
    edited(crate::flag_edit::set_flag(text, schema_of(version)?, command, option, &value).map_err(err)?)
}

/// Drop every argument of command `command` of `text` (keeps the launcher and everything
/// around it). `null` when there is nothing to drop.
#[wasm_bindgen(js_name = clearFlags, unchecked_return_type = "Edited | null")]
pub fn clear_flags(text: &str, command: usize) -> Result<JsValue, JsError> {
    edited(crate::flag_edit::clear_flags(text, command))
}

/// The text to put in a link (the permalink, a copied link): the values of tokens, keys and
/// passwords (`export HF_TOKEN=...`, docker `-e NAME=...`, `--api-key ...`) replaced by a
/// `<NAME>` placeholder, every other byte as written; and where each value was.
#[wasm_bindgen(js_name = redactForLink, unchecked_return_type = "Redacted")]
pub fn redact_for_link(text: &str) -> Result<JsValue, JsError> {
    let r = crate::secrets::redact_for_link(text);
    let offsets = crate::located::Offsets::new(text);
    let redacted: Vec<Value> = r
        .redacted
        .iter()
        .map(|x| {
            json!({
                "span": x.span,
                "span16": { "start": offsets.u16(x.span.start), "end": offsets.u16(x.span.end) },
                "name": x.name,
                "placeholder": x.placeholder,
            })
        })
        .collect();
    to_js(&json!({ "text": r.text, "redacted": redacted }))
}

/// Make a release this build does not carry available to `check`, `schema` and the flag
/// editors, from its release file (`releases/<version>.json`): its schema, and for a release
/// whose start-up checks are modelled their data as the native build compiles it in, so it is
/// checked at every stage as the CLI checks it; without, its command-line parsing only. Returns
/// its version; registering it again does nothing. An error when the text is not an SGLang flag
/// schema or its check data is not whole.
#[wasm_bindgen(js_name = registerRelease)]
pub fn register_release(schema_json: &str) -> Result<String, JsError> {
    crate::release::register(schema_json).map(str::to_string).map_err(err)
}

/// Give the checker the model catalog and SGLang's architecture lists (`models/catalog.json`),
/// fetched when a command names a model: until then no model is recognized. Installing again
/// changes nothing. An error when the text is not that file.
#[wasm_bindgen(js_name = installModels)]
pub fn install_models(models_json: &str) -> Result<(), JsError> {
    crate::models::install(models_json).map_err(err)
}

/// Whether `installModels` has been given the catalog.
#[wasm_bindgen(js_name = modelsInstalled)]
pub fn models_installed() -> bool {
    crate::models::installed()
}

/// Whether a pasted `config.json` (and `hf_quant_config.json`) can be read, and what it names.
#[wasm_bindgen(js_name = readModelConfig, unchecked_return_type = "ModelConfigStatus")]
pub fn read_model_config(config_json: &str, hf_quant_config_json: Option<String>) -> Result<JsValue, JsError> {
    let status = match GivenConfig::parse(config_json, hf_quant_config_json.as_deref().filter(|q| !q.trim().is_empty())) {
        Ok(c) => serde_json::json!({ "ok": true, "architecture": c.raw.architecture, "wrong_types": c.wrong_types }),
        Err(e) => serde_json::json!({ "ok": false, "error": e.to_string() }),
    };
    to_js(&status)
}

/// Give a release's flags their help texts (`help/<version>.json`: the wasm carries its release's
/// schema without them, to keep the page's download small): `schema`, `explain`, `searchFlags`
/// and `upgradeJson` use them. Returns the version; giving them again does nothing. An error when
/// the text is not the help file of a release `check` takes.
#[wasm_bindgen(js_name = registerHelp)]
pub fn register_help(help_json: &str) -> Result<String, JsError> {
    crate::release::register_help(help_json).map(str::to_string).map_err(err)
}

/// What moving the commands of `text` from SGLang `from` to SGLang `to` changes (flags removed or
/// renamed, values no longer accepted, defaults relied on that change, findings that appear or
/// go), each note with its fixes, as a JSON string with JavaScript positions. Both releases must
/// be carried or registered.
#[wasm_bindgen(js_name = upgradeJson)]
pub fn upgrade_json(text: &str, from: &str, to: &str, #[wasm_bindgen(unchecked_param_type = "CheckOptions | undefined")] options: JsValue) -> Result<String, JsError> {
    let opts = self::options(text, options)?;
    let u = crate::upgrade::upgrade(text, from, to, &opts).map_err(err)?;
    Ok(crate::located::upgrade_to_json(text, &u))
}

/// The page's examples menu: real scenarios, each with the GPU preset it is meant for.
#[wasm_bindgen(unchecked_return_type = "Array<Example>")]
pub fn examples() -> Result<JsValue, JsError> {
    to_js(crate::examples::EXAMPLES)
}

/// The release the text names for itself (`lmsysorg/sglang:v0.5.20`, `pip install
/// sglang==0.5.19`), the one `check` with `releaseFromText` uses, or null.
#[wasm_bindgen(js_name = releaseHint, unchecked_return_type = "ReleaseHint | null")]
pub fn release_hint(text: &str) -> Result<JsValue, JsError> {
    let Some(h) = crate::release_hint::for_text(text) else { return Ok(JsValue::NULL) };
    let offsets = crate::located::Offsets::new(text);
    to_js(&json!({
        "version": h.version,
        "span": h.span,
        "span16": { "start": offsets.u16(h.span.start), "end": offsets.u16(h.span.end) },
    }))
}

/// Every flag each launch command of `text` writes, as SGLang reads it: SGLang's help text and
/// default, the value SGLang will run with, the findings on it, the checks naming it that did not
/// run. Spans are given in bytes and, as `span16`/line/column, for JavaScript.
#[wasm_bindgen(unchecked_return_type = "Explanation")]
pub fn explain(text: &str, #[wasm_bindgen(unchecked_param_type = "CheckOptions | undefined")] options: JsValue) -> Result<JsValue, JsError> {
    let e = crate::explain::explain(text, &self::options(text, options)?);
    let offsets = crate::located::Offsets::new(text);
    let span16 = |s: crate::span::Span| json!({ "start": offsets.u16(s.start), "end": offsets.u16(s.end) });
    let mut v = serde_json::to_value(&e).map_err(err)?;
    let flags = v.get_mut("commands").and_then(Value::as_array_mut).into_iter().flatten().filter_map(|c| c.get_mut("flags").and_then(Value::as_array_mut)).flatten();
    for (f, row) in flags.zip(e.commands.iter().flat_map(|c| &c.flags)) {
        let Value::Object(m) = f else { continue };
        let (line, column) = offsets.line_col(row.span.start);
        let (end_line, end_column) = offsets.line_col(row.span.end);
        m.insert("span16".into(), span16(row.span));
        m.insert("option_span16".into(), row.option_span.map(span16).unwrap_or(Value::Null));
        m.insert("line".into(), json!(line));
        m.insert("column".into(), json!(column));
        m.insert("endLine".into(), json!(end_line));
        m.insert("endColumn".into(), json!(end_column));
    }
    to_js(&v)
}

/// The flags of SGLang `version` matching `query`, best first: an option string or field name
/// (`tp_size`), vLLM's name for it (`--tensor-parallel-size`), option prefixes, word starts,
/// name substrings, help text.
#[wasm_bindgen(js_name = searchFlags, unchecked_return_type = "FlagMatch[]")]
pub fn search_flags(version: &str, query: &str) -> Result<JsValue, JsError> {
    to_js(&crate::flag_search::search(schema_of(version)?, query))
}

/// The choices of flag `option` for command `command` of `text`, each checked with that choice
/// in place: the first error the command would then get that it does not get now. `null` when
/// the flag has no choices (or takes several values).
#[wasm_bindgen(js_name = choiceVerdicts, unchecked_return_type = "ChoiceVerdict[] | null")]
pub fn choice_verdicts(
    text: &str,
    #[wasm_bindgen(unchecked_param_type = "CheckOptions | undefined")] options: JsValue,
    command: usize,
    option: &str,
) -> Result<JsValue, JsError> {
    let opts = self::options(text, options)?;
    match crate::flag_search::choice_verdicts(text, &opts, command, option) {
        Some(v) => to_js(&v),
        None => Ok(JsValue::NULL),
    }
}
