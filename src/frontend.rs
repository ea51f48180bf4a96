//! The launch front end before argparse: `sglang serve`'s `--model-type` extraction and
//! positional model path (`sglang/cli/serve.py`), and `--config` YAML merging
//! (`sglang/srt/utils/server_args_config_parser.py`).
//!
//! Codes:
//! - `CLI001` `--model-type` without a value (`ValueError`)
//! - `CLI002` `--model-type=` with an empty value (`ValueError`)
//! - `CLI003` unknown serve backend (`ValueError`)
//! - `CLI004` `sglang serve` without `--model-path`/`--model`/positional model (`Exception`);
//!   only the exact spellings count here, abbreviations and the config file do not
//! - `CLI006` `--model-type diffusion` (info: the diffusion server is not modelled)
//! - `CFG001` `--config` given more than once
//! - `CFG002` `--config` as the last word
//! - `CFG003` config file not `.yaml`/`.yml`
//! - `CFG004` config file not found (not supplied)
//! - `CFG005` YAML syntax error (preflight's wording; PyYAML's differs)
//! - `CFG006` YAML root is not a mapping
//! - `CFG007` config key for an action the merger does not support
//! - `CFG008` `--config=FILE` or an abbreviation (`--conf FILE`): accepted by argparse but
//!   never loaded (preflight warning)
//! - `CFG009` YAML alias expansion too large (preflight error; refuses YAML bombs)

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity, Stage};
use crate::invocation::{Entry, Invocation};
use crate::pyvalue::{float_repr, str_repr, PyValue};
use crate::schema::{self, Schema};
use crate::shell::Word;
use crate::span::Span;
use std::collections::BTreeMap;

/// YAML config files the caller supplies, by the path as written in the command.
pub type ConfigFiles = BTreeMap<String, String>;

#[derive(Debug, Clone, Default)]
pub struct FrontEnd {
    /// The argv argparse will see.
    pub argv: Vec<Word>,
    /// Errors raised before argparse (stages `cli`, `config`), and notes.
    pub diagnostics: Vec<Diagnostic>,
    /// For each word of `argv`: did it come from the `--config` file?
    pub from_config: Vec<bool>,
    /// `-h/--help` was given: SGLang prints help and stops; nothing else is checked.
    pub help: bool,
}

/// Run the front end for one invocation. `config_files` maps a `--config` path as written in
/// the command to its YAML text (the CLI reads it from disk; the page takes it from a pane).
pub fn run(inv: &Invocation, config_files: &ConfigFiles) -> FrontEnd {
    run_with(schema::get(schema::DEFAULT_VERSION), inv, config_files)
}

/// [`run`] against a given schema (the config merger needs the action kinds).
pub fn run_with(schema: Option<&Schema>, inv: &Invocation, config_files: &ConfigFiles) -> FrontEnd {
    let mut fe = FrontEnd { argv: inv.args.clone(), ..FrontEnd::default() };
    let anchor = inv.launcher;
    if inv.entry == Entry::Serve && !serve_front_end(&mut fe, anchor) {
        fe.from_config = vec![false; fe.argv.len()];
        return fe;
    }
    if fe.argv.iter().any(|w| w.text == "-h" || w.text == "--help") {
        help(&mut fe, anchor);
        fe.from_config = vec![false; fe.argv.len()];
        return fe;
    }
    fe.from_config = vec![false; fe.argv.len()];
    if let Some(schema) = schema {
        merge_config(&mut fe, schema, config_files);
    }
    fe
}

fn help(fe: &mut FrontEnd, anchor: Span) {
    let span = fe.argv.iter().find(|w| w.text == "-h" || w.text == "--help").map(|w| w.span).unwrap_or(anchor);
    // argparse's replay reports it (ARG011); the front end only stops here.
    let _ = span;
    fe.help = true;
}

/// `serve()` up to the backend dispatch. Returns false when it stops (error or help).
fn serve_front_end(fe: &mut FrontEnd, anchor: Span) -> bool {
    // _extract_model_type_override
    let mut backend = "auto".to_string();
    let mut backend_span = anchor;
    // the whole `--model-type X` / `--model-type=X` (the last one given)
    let mut model_type_span = anchor;
    let mut filtered: Vec<Word> = Vec::with_capacity(fe.argv.len());
    let mut i = 0;
    while let Some(w) = fe.argv.get(i) {
        if w.text == "--model-type" {
            let Some(v) = fe.argv.get(i + 1) else {
                fe.diagnostics.push(
                    Diagnostic::sglang_error("CLI001", Stage::Cli, "ValueError", "Error: --model-type requires a value.", w.span)
                        .with_explanation("`sglang serve` reads `--model-type` itself before anything else and needs a backend name after it (`llm` or `diffusion`), or leave it out to detect it from the model.")
                        .with_fix(Fix {
                            title: "Remove --model-type".into(),
                            applicability: Applicability::Safe,
                            edits: vec![Edit { start: w.span.start, end: w.span.end, replacement: String::new() }],
                        }),
                );
                return false;
            };
            backend = v.text.clone();
            backend_span = v.span;
            model_type_span = w.span.cover(v.span);
            i += 2;
            continue;
        }
        if let Some(v) = w.text.strip_prefix("--model-type=") {
            backend = v.to_string();
            backend_span = w.span;
            model_type_span = w.span;
            i += 1;
            continue;
        }
        filtered.push(w.clone());
        i += 1;
    }
    if backend.is_empty() {
        fe.diagnostics.push(
            Diagnostic::sglang_error("CLI002", Stage::Cli, "ValueError", "Error: --model-type requires a non-empty value.", backend_span)
                .with_explanation("`--model-type` was given an empty value; use `llm`, `diffusion`, or leave it out.")
                .with_fix(Fix {
                    title: "Remove the empty --model-type (the backend is then detected from the model)".into(),
                    applicability: Applicability::Safe,
                    edits: vec![Edit { start: model_type_span.start, end: model_type_span.end, replacement: String::new() }],
                }),
        );
        return false;
    }
    // _normalize_positional_model_path
    if let Some(first) = filtered.first() {
        if !first.text.starts_with('-') {
            let at = first.span;
            let flag = Word { text: "--model-path".into(), span: at, map: Some(vec![at.start; "--model-path".len()]), value_unknown: false };
            filtered.insert(0, flag);
        }
    }
    fe.argv = filtered;
    if fe.argv.iter().any(|w| w.text == "-h" || w.text == "--help") {
        help(fe, anchor);
        return false;
    }
    match backend.as_str() {
        "auto" | "llm" => {}
        "diffusion" => {
            fe.diagnostics.push(Diagnostic::preflight(
                "CLI006",
                Severity::Info,
                Stage::Cli,
                "--model-type diffusion: the diffusion server's flags are not checked by preflight.",
                backend_span,
            ));
            return false;
        }
        other => {
            let mut d = Diagnostic::sglang_error(
                "CLI003",
                Stage::Cli,
                "ValueError",
                format!("Unknown serve backend {}. Available values: auto, llm, diffusion.", str_repr(other)),
                backend_span,
            )
            .with_explanation("`--model-type` picks the serving backend: `llm` for language models, `diffusion` for image/video models; `auto` (the default) detects it.");
            if let Some(best) = crate::suggest::closest_choice(other, &["auto".into(), "llm".into(), "diffusion".into()]) {
                d.fixes.push(Fix {
                    title: format!("Use {best}"),
                    applicability: Applicability::Safe,
                    edits: vec![Edit { start: backend_span.start, end: backend_span.end, replacement: best }],
                });
            } else {
                d.fixes.push(Fix {
                    title: "Remove the --model-type (the backend is then detected from the model)".into(),
                    applicability: Applicability::Unsafe,
                    edits: vec![Edit { start: model_type_span.start, end: model_type_span.end, replacement: String::new() }],
                });
            }
            fe.diagnostics.push(d);
            return false;
        }
    }
    // try_get_model_path / get_model_path
    let has_model = fe.argv.iter().enumerate().any(|(i, w)| {
        ((w.text == "--model-path" || w.text == "--model") && i + 1 < fe.argv.len())
            || w.text.starts_with("--model-path=")
            || w.text.starts_with("--model=")
    });
    if !has_model {
        let at = fe.argv.last().map(|w| Span::empty_at(w.span.end)).unwrap_or(Span::empty_at(anchor.end));
        let mut d = Diagnostic::sglang_error(
            "CLI004",
            Stage::Cli,
            "Exception",
            "Error: --model-path is required. Please provide the path to the model.",
            at,
        )
        .with_explanation("`sglang serve` looks for the model before parsing other flags: give it as the first word, or as `--model-path`/`--model` spelled out in full (abbreviations and `--config` files are not seen at this point).");
        // the model given with a misspelt or abbreviated flag (`--model_path X`, `--model-p X`)
        // that only argparse would have understood: spell it out
        let misspelt = fe.argv.iter().enumerate().find_map(|(i, w)| {
            let flag_len = w.text.find('=').unwrap_or(w.text.len());
            let flag = w.text.get(..flag_len)?;
            let norm = flag.replace('_', "-").to_ascii_lowercase();
            let names = norm == "--model-path" || norm == "--model" || (norm.len() > "--model-".len() && "--model-path".starts_with(&norm));
            let has_value = flag_len < w.text.len() || fe.argv.get(i + 1).is_some_and(|v| !v.text.starts_with('-'));
            (flag != "--model-path" && flag != "--model" && names && has_value).then(|| (flag.to_string(), w.sub_span(0, flag_len)))
        });
        if let Some((flag, span)) = misspelt {
            d.fixes.push(Fix {
                title: format!("Write `{flag}` as `--model-path`"),
                applicability: Applicability::Safe,
                edits: vec![Edit { start: span.start, end: span.end, replacement: "--model-path".into() }],
            });
        }
        d.fixes.push(Fix { title: "Add `--model-path <MODEL>` (or give the model as the first word)".into(), applicability: Applicability::Display, edits: Vec::new() });
        fe.diagnostics.push(d);
        return false;
    }
    true
}

/// Python `pathlib.PurePath(p).suffix`.
fn path_suffix(p: &str) -> String {
    let name = p.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    match name.rfind('.') {
        Some(i) if i > 0 && i + 1 < name.len() => name.get(i..).unwrap_or("").to_string(),
        _ => String::new(),
    }
}

fn cfg_error(fe: &mut FrontEnd, code: &str, exc: &str, msg: String, span: Span, expl: &str) {
    fe.diagnostics.push(Diagnostic::sglang_error(code, Stage::Config, exc, msg, span).with_explanation(expl));
}

fn merge_config(fe: &mut FrontEnd, schema: &Schema, files: &ConfigFiles) {
    let idx: Vec<usize> = fe.argv.iter().enumerate().filter(|(_, w)| w.text == "--config").map(|(i, _)| i).collect();
    if idx.is_empty() {
        // an abbreviation of --config (argparse accepts it as the option, SGLang never loads it)
        let abbrev = fe.argv.iter().find(|w| {
            let flag = w.text.split('=').next().unwrap_or("");
            flag.len() >= 4
                && flag != "--config"
                && "--config".starts_with(flag)
                && schema.actions.iter().flat_map(|a| &a.option_strings).filter(|o| o.starts_with(flag)).count() == 1
        });
        if let Some(w) = abbrev {
            let flag_len = w.text.find('=').unwrap_or(w.text.len());
            let fspan = w.sub_span(0, flag_len);
            let (replacement, end) = if flag_len < w.text.len() { ("--config ".to_string(), w.sub_span(0, flag_len + 1).end) } else { ("--config".to_string(), fspan.end) };
            fe.diagnostics.push(
                Diagnostic::preflight(
                    "CFG008",
                    Severity::Warning,
                    Stage::Config,
                    format!("`{}` is not loaded: SGLang only reads a config file given as `--config FILE` (the exact word); argparse accepts this abbreviation and ignores the file.", w.text),
                    w.span,
                )
                .with_explanation("SGLang looks for the exact word `--config` before parsing; any other spelling is parsed as an ordinary (unused) option, so none of the file's settings apply.")
                .with_fix(Fix {
                    title: "Write `--config FILE`".into(),
                    applicability: Applicability::Safe,
                    edits: vec![Edit { start: fspan.start, end, replacement }],
                }),
            );
            return;
        }
        if let Some(w) = fe.argv.iter().find(|w| w.text.starts_with("--config=")) {
            let eq = w.sub_span(8, 9);
            fe.diagnostics.push(
                Diagnostic::preflight(
                    "CFG008",
                    Severity::Warning,
                    Stage::Config,
                    "`--config=FILE` is not loaded: SGLang only reads a config file given as `--config FILE` (two words); argparse accepts this form and ignores it.",
                    w.span,
                )
                .with_explanation("SGLang looks for the exact word `--config` before parsing; `--config=FILE` is then parsed as an ordinary (unused) option, so none of the file's settings apply.")
                .with_fix(Fix {
                    title: "Write `--config FILE`".into(),
                    applicability: Applicability::Safe,
                    edits: vec![Edit { start: eq.start, end: eq.end, replacement: " ".into() }],
                }),
            );
        }
        return;
    }
    let Some(&ci) = idx.first() else { return };
    let Some(cw) = fe.argv.get(ci).cloned() else { return };
    if idx.len() > 1 {
        let span = idx.get(1).and_then(|&i| fe.argv.get(i)).map(|w| w.span).unwrap_or(cw.span);
        cfg_error(fe, "CFG001", "ValueError", "Multiple config files specified! Only one allowed.".into(), span, "SGLang reads a single `--config` file; merge the files into one.");
        // keep the first: drop each later `--config FILE`
        let edits: Vec<Edit> = idx
            .iter()
            .skip(1)
            .filter_map(|&i| {
                let w = fe.argv.get(i)?;
                let end = fe.argv.get(i + 1).filter(|p| p.text != "--config").map_or(w.span, |p| w.span.cover(p.span));
                Some(Edit { start: end.start, end: end.end, replacement: String::new() })
            })
            .collect();
        if let Some(d) = fe.diagnostics.last_mut() {
            d.fixes.push(Fix { title: "Keep only the first --config file (merge the others into it)".into(), applicability: Applicability::Unsafe, edits });
        }
        return;
    }
    let Some(pw) = fe.argv.get(ci + 1).cloned() else {
        cfg_error(fe, "CFG002", "ValueError", "No config file specified after --config flag!".into(), cw.span, "`--config` must be followed by the path of a YAML file.");
        if let Some(d) = fe.diagnostics.last_mut() {
            d.fixes.push(Fix {
                title: "Remove the trailing --config".into(),
                applicability: Applicability::Safe,
                edits: vec![Edit { start: cw.span.start, end: cw.span.end, replacement: String::new() }],
            });
        }
        return;
    };
    let span = cw.span.cover(pw.span);
    let path = pw.text.clone();
    let suffix = path_suffix(&path);
    if !matches!(suffix.to_lowercase().as_str(), ".yaml" | ".yml") {
        cfg_error(
            fe,
            "CFG003",
            "ValueError",
            format!("Config file must be YAML format, got: {}", suffix.to_lowercase()),
            pw.span,
            "SGLang only reads config files whose name ends in `.yaml` or `.yml`.",
        );
        return;
    }
    let Some(text) = files.get(&path) else {
        cfg_error(
            fe,
            "CFG004",
            "ValueError",
            format!("Config file not found: {path}"),
            pw.span,
            "The file named after `--config` must exist where SGLang runs (paste its contents to have it checked).",
        );
        return;
    };
    let root = match yaml::load(text) {
        Ok(v) => v,
        Err(yaml::LoadError::Syntax(m)) => {
            cfg_error(fe, "CFG005", "ScannerError", m, pw.span, "The config file is not valid YAML.");
            return;
        }
        Err(yaml::LoadError::TooLarge) => {
            fe.diagnostics.push(
                Diagnostic::preflight(
                    "CFG009",
                    Severity::Error,
                    Stage::Config,
                    format!(
                        "The config file's YAML aliases expand to more than {} values: SGLang would hang or run out of \
                         memory turning them into arguments, and never start. Not expanded.",
                        yaml::MAX_NODES
                    ),
                    pw.span,
                )
                .with_explanation(
                    "Anchors that reference anchors (`b: &b [*a, *a, ...]`, the \"billion laughs\") multiply: each \
                     level repeats the one before. PyYAML loads them as shared references, but SGLang's config merger \
                     writes every value out as text (`str(list)`), which for such a file takes more time and memory \
                     than any machine has. Recorded with SGLang 0.5.23: no verdict after 20 s. Write the values out \
                     instead of nesting aliases.",
                ),
            );
            return;
        }
        Err(yaml::LoadError::TooDeep) => {
            let mut d = Diagnostic::sglang_error("CFG010", Stage::Config, "RecursionError", "maximum recursion depth exceeded", pw.span);
            d.explanation = format!(
                "The config file nests lists or mappings more than {} levels deep. PyYAML builds nested nodes \
                 recursively, so `yaml.safe_load` exceeds Python's recursion limit (1000 frames) and SGLang stops \
                 with a RecursionError before reading any option (recorded with SGLang 0.5.23: 487 levels load, \
                 488 do not). No SGLang option takes values nested this deep.",
                yaml::MAX_DEPTH
            );
            fe.diagnostics.push(d);
            return;
        }
    };
    let items = match root {
        PyValue::None => Vec::new(),
        PyValue::Dict(d) => d,
        _ => {
            cfg_error(fe, "CFG006", "ValueError", "Config file must contain a dictionary at root level".into(), pw.span, "The YAML file must be a mapping of flag names to values (`tp-size: 2`).");
            return;
        }
    };
    // 0.5.18-0.5.22's merger keys the YAML by dest alone and takes only `_StoreAction` and
    // `_StoreTrueAction` (every SGLang action class is a direct `argparse.Action` subclass); the
    // newer one keys by dest and long options and takes every single-value action.
    let dest_keyed = schema.config_merger.as_deref() == Some("dest_keyed");
    // action kinds by config key
    let keys_of = |a: &crate::schema::Action| -> Vec<String> {
        let mut k = vec![a.dest.clone()];
        if !dest_keyed {
            k.extend(a.option_strings.iter().filter_map(|o| o.strip_prefix("--")).map(|o| o.replace('-', "_")));
        }
        k
    };
    let is_store_true = |a: &crate::schema::Action| a.action == "_StoreTrueAction";
    let supported = |a: &crate::schema::Action| {
        is_store_true(a) || a.action == "_StoreAction" || (!dest_keyed && matches!(a.nargs, None | Some(serde_json::Value::Null)))
    };
    // config key -> the actions it names, in schema order (built once, not per key)
    let mut by_key: rustc_hash::FxHashMap<String, Vec<&crate::schema::Action>> = Default::default();
    for a in &schema.actions {
        let mut ks = keys_of(a);
        ks.dedup();
        for k in ks {
            let list = by_key.entry(k).or_default();
            if !list.iter().any(|x| std::ptr::eq(*x, a)) {
                list.push(a);
            }
        }
    }
    let mut args: Vec<String> = Vec::new();
    for (key, value) in items {
        let key_norm = key.replace('-', "_");
        let mut st = false;
        let mut unsupported: Option<&str> = None;
        let mut supported_key = false;
        for a in by_key.get(&key_norm).map(Vec::as_slice).unwrap_or_default() {
            if is_store_true(a) {
                st = true;
            }
            if supported(a) {
                supported_key = true;
            } else if !a.option_strings.is_empty()
                && !a.option_strings.iter().any(|o| o == "--config" || o == "--help" || o == "-h")
                && (unsupported.is_none() || dest_keyed)
            {
                // (the dest-keyed merger's dict keeps the last such action of a dest)
                unsupported = Some(a.action.as_str());
            }
        }
        // The dest-keyed merger refuses a dest a supported action shares, too.
        if let (Some(cls), false) = (unsupported, supported_key && !dest_keyed) {
            cfg_error(
                fe,
                "CFG007",
                "ValueError",
                format!("Unsupported config option '{key_norm}' with action '{cls}'"),
                pw.span,
                if dest_keyed {
                    "This release's config merger reads each YAML key as a flag's dest and takes only plain value \
                     flags and plain switches: a dest that also belongs to a deprecated alias, an on/off switch or \
                     another custom flag kind is refused, even where a plain flag shares it. Give this one on the \
                     command line."
                } else {
                    "SGLang's config merger only handles switches and single-value flags; give this one on the command line."
                },
            );
            return;
        }
        match value {
            PyValue::Bool(b) => {
                if st {
                    if b {
                        args.push(format!("--{key}"));
                    }
                } else {
                    args.push(format!("--{key}"));
                    args.push(if b { "true".into() } else { "false".into() });
                }
            }
            PyValue::List(items) => {
                if !items.is_empty() {
                    args.push(format!("--{key}"));
                    args.extend(items.iter().map(py_str));
                }
            }
            PyValue::Dict(_) => {
                args.push(format!("--{key}"));
                args.push(json_dumps(&value));
            }
            other => {
                args.push(format!("--{key}"));
                args.push(py_str(&other));
            }
        }
    }
    let n = args.len();
    let mut argv: Vec<Word> = args.into_iter().map(|t| Word::synthetic(t, span)).collect();
    let mut mask = vec![true; n];
    for (i, w) in fe.argv.iter().enumerate() {
        if i == ci || i == ci + 1 {
            continue;
        }
        argv.push(w.clone());
        mask.push(false);
    }
    fe.argv = argv;
    fe.from_config = mask;
}

/// Python `str(x)` of a YAML value.
fn py_str(v: &PyValue) -> String {
    match v {
        PyValue::Float(f) => float_repr(*f),
        other => other.py_str(),
    }
}

/// Python `json.dumps(x)` (default separators, ensure_ascii).
pub fn json_dumps(v: &PyValue) -> String {
    let mut out = String::new();
    dump(v, &mut out);
    out
}

fn dump(v: &PyValue, out: &mut String) {
    match v {
        PyValue::None => out.push_str("null"),
        PyValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        PyValue::Int(i) => out.push_str(&i.to_string()),
        PyValue::BigInt(s) => out.push_str(s),
        PyValue::Float(f) => out.push_str(&if f.is_nan() {
            "NaN".to_string()
        } else if f.is_infinite() {
            if *f > 0.0 { "Infinity".to_string() } else { "-Infinity".to_string() }
        } else {
            float_repr(*f)
        }),
        PyValue::Str(s) => dump_str(s, out),
        PyValue::List(l) => {
            out.push('[');
            for (i, x) in l.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                dump(x, out);
            }
            out.push(']');
        }
        PyValue::Dict(d) => {
            out.push('{');
            for (i, (k, x)) in d.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                dump_str(k, out);
                out.push_str(": ");
                dump(x, out);
            }
            out.push('}');
        }
    }
}

fn dump_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{:04x}", u));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// PyYAML `safe_load` (YAML 1.1 implicit types) over yaml-rust2's event parser, with alias
/// expansion bounded.
pub mod yaml {
    use crate::pyvalue::PyValue;
    use yaml_rust2::parser::{Event, Parser};
    use yaml_rust2::scanner::TScalarStyle;

    /// Most values a config file may expand to (aliases included).
    pub const MAX_NODES: usize = 1_000_000;

    /// Deepest nesting of lists and mappings PyYAML loads from SGLang's config loader: its
    /// composer recurses twice per level and exceeds Python's recursion limit at 488 levels
    /// (recorded with SGLang 0.5.23: `yaml-deep-block-487` loads, `yaml-deep-block-488` raises
    /// RecursionError). Also keeps every later recursive walk of the value (repr, JSON,
    /// drop) shallow, on a small wasm stack too.
    pub const MAX_DEPTH: usize = 487;

    #[derive(Debug)]
    pub enum LoadError {
        Syntax(String),
        /// Aliases expand to more than [`MAX_NODES`] values, or nest deeper than
        /// [`MAX_DEPTH`] through aliases.
        TooLarge,
        /// Lists and mappings written nested deeper than [`MAX_DEPTH`].
        TooDeep,
    }

    /// A collection being read: its anchor, its depth of nesting below it so far, its items.
    enum Frame {
        Seq(usize, usize, Vec<PyValue>),
        /// anchor, depth below, items, pending key, key -> index in items (a repeated key replaces in place)
        Map(usize, usize, Vec<(String, PyValue)>, Option<String>, rustc_hash::FxHashMap<String, usize>),
    }

    impl Frame {
        fn below(&mut self) -> &mut usize {
            match self {
                Frame::Seq(_, b, _) | Frame::Map(_, b, _, _, _) => b,
            }
        }
    }

    pub fn load(text: &str) -> Result<PyValue, LoadError> {
        let mut parser = Parser::new_from_str(text);
        let mut stack: Vec<Frame> = Vec::new();
        // anchor id -> (value, its nesting depth: 0 for a scalar, 1 for a flat list, ...)
        let mut anchors: std::collections::HashMap<usize, (PyValue, usize)> = std::collections::HashMap::new();
        let mut root: Option<PyValue> = None;
        let mut nodes = 0usize;
        loop {
            let (ev, _) = parser.next_token().map_err(|e| LoadError::Syntax(e.to_string()))?;
            // a finished value: (value, anchor, nesting depth)
            let done: Option<(PyValue, usize, usize)> = match ev {
                Event::StreamEnd => break,
                Event::DocumentEnd => {
                    if root.is_some() {
                        break;
                    }
                    None
                }
                Event::Nothing | Event::StreamStart | Event::DocumentStart => None,
                Event::Alias(id) => {
                    let (v, depth) = anchors.get(&id).map(|(v, d)| (v.clone(), *d)).unwrap_or((PyValue::None, 0));
                    nodes += count(&v);
                    // deep only through aliases: PyYAML shares the nodes, SGLang's str() of them
                    // is what would fail; refuse to expand rather than guess
                    if stack.len() + depth > MAX_DEPTH {
                        return Err(LoadError::TooLarge);
                    }
                    Some((v, 0, depth))
                }
                Event::Scalar(s, style, aid, tag) => {
                    nodes += 1;
                    let v = match tag.as_ref().map(|t| t.suffix.as_str()) {
                        Some("str") => PyValue::Str(s),
                        Some("int") => resolve_plain(&s).filter(|v| matches!(v, PyValue::Int(_) | PyValue::BigInt(_))).ok_or_else(|| LoadError::Syntax(format!("invalid int: {s}")))?,
                        Some("float") => resolve_plain(&s).ok_or_else(|| LoadError::Syntax(format!("invalid float: {s}")))?,
                        Some("bool") => resolve_plain(&s).ok_or_else(|| LoadError::Syntax(format!("invalid bool: {s}")))?,
                        Some("null") => PyValue::None,
                        Some(other) => return Err(LoadError::Syntax(format!("could not determine a constructor for the tag '{other}'"))),
                        None if style == TScalarStyle::Plain => resolve_plain(&s).unwrap_or(PyValue::Str(s)),
                        None => PyValue::Str(s),
                    };
                    Some((v, aid, 0))
                }
                Event::SequenceStart(..) | Event::MappingStart(..) if stack.len() >= MAX_DEPTH => return Err(LoadError::TooDeep),
                Event::SequenceStart(aid, _) => {
                    stack.push(Frame::Seq(aid, 0, Vec::new()));
                    None
                }
                Event::MappingStart(aid, _) => {
                    stack.push(Frame::Map(aid, 0, Vec::new(), None, Default::default()));
                    None
                }
                Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                    Some(Frame::Seq(aid, below, v)) => Some((PyValue::List(v), aid, below + 1)),
                    Some(Frame::Map(aid, below, v, _, _)) => Some((PyValue::Dict(v), aid, below + 1)),
                    None => None,
                },
            };
            if nodes > MAX_NODES {
                return Err(LoadError::TooLarge);
            }
            let Some((v, aid, depth)) = done else { continue };
            if aid > 0 {
                anchors.insert(aid, (v.clone(), depth));
            }
            if let Some(f) = stack.last_mut() {
                let b = f.below();
                *b = (*b).max(depth);
            }
            match stack.last_mut() {
                None => root = Some(v),
                Some(Frame::Seq(_, _, items)) => items.push(v),
                Some(Frame::Map(_, _, items, pending, index)) => match pending.take() {
                    None => *pending = Some(v.py_str()),
                    Some(k) => match index.get(&k).and_then(|&i| items.get_mut(i)) {
                        Some(slot) => slot.1 = v,
                        None => {
                            index.insert(k.clone(), items.len());
                            items.push((k, v));
                        }
                    },
                },
            }
        }
        Ok(root.unwrap_or(PyValue::None))
    }

    fn count(v: &PyValue) -> usize {
        match v {
            PyValue::List(l) => 1 + l.iter().map(count).sum::<usize>(),
            PyValue::Dict(d) => 1 + d.iter().map(|(_, x)| count(x)).sum::<usize>(),
            _ => 1,
        }
    }

    /// PyYAML's implicit resolvers for plain scalars (YAML 1.1).
    pub fn resolve_plain(s: &str) -> Option<PyValue> {
        match s {
            "" | "~" | "null" | "Null" | "NULL" => return Some(PyValue::None),
            "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => return Some(PyValue::Bool(true)),
            "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => return Some(PyValue::Bool(false)),
            _ => {}
        }
        let (neg, body) = match s.as_bytes().first() {
            Some(b'-') => (true, s.get(1..)?),
            Some(b'+') => (false, s.get(1..)?),
            _ => (false, s),
        };
        // floats: .inf / .nan
        match body {
            ".inf" | ".Inf" | ".INF" => return Some(PyValue::Float(if neg { f64::NEG_INFINITY } else { f64::INFINITY })),
            ".nan" | ".NaN" | ".NAN" if s == body => return Some(PyValue::Float(f64::NAN)),
            _ => {}
        }
        let isd = |c: char| c.is_ascii_digit() || c == '_';
        // int
        let int_val = |digits: &str, radix: u32| -> Option<PyValue> {
            let clean: String = digits.chars().filter(|&c| c != '_').collect();
            if clean.is_empty() {
                return Some(PyValue::Int(0));
            }
            let n = i128::from_str_radix(&clean, radix).ok()?;
            let n = if neg { -n } else { n };
            Some(i64::try_from(n).map(PyValue::Int).unwrap_or_else(|_| PyValue::BigInt(n.to_string())))
        };
        if let Some(b) = body.strip_prefix("0b") {
            if !b.is_empty() && b.chars().all(|c| c == '0' || c == '1' || c == '_') {
                return int_val(b, 2);
            }
        }
        if let Some(h) = body.strip_prefix("0x") {
            if !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit() || c == '_') {
                return int_val(h, 16);
            }
        }
        if body.len() > 1 && body.starts_with('0') && body.chars().all(|c| ('0'..='7').contains(&c) || c == '_') {
            return int_val(body.get(1..)?, 8);
        }
        if body == "0" {
            return Some(PyValue::Int(0));
        }
        if body.starts_with(|c: char| ('1'..='9').contains(&c)) && body.chars().all(isd) {
            return int_val(body, 10);
        }
        // float: [0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)? | \.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
        let (mant, exp) = match body.find(['e', 'E']) {
            Some(i) => (body.get(..i)?, Some(body.get(i + 1..)?)),
            None => (body, None),
        };
        if let Some(e) = exp {
            let ok = (e.starts_with('+') || e.starts_with('-')) && e.len() > 1 && e.get(1..)?.chars().all(|c| c.is_ascii_digit());
            if !ok {
                return None;
            }
        }
        let (ip, fp) = mant.split_once('.')?;
        let ok = if ip.is_empty() {
            fp.starts_with(|c: char| c.is_ascii_digit()) && fp.chars().all(isd)
        } else {
            ip.starts_with(|c: char| c.is_ascii_digit()) && ip.chars().all(isd) && fp.chars().all(isd)
        };
        if !ok {
            return None;
        }
        let clean: String = format!("{}{}", if neg { "-" } else { "" }, body).chars().filter(|&c| c != '_').collect();
        let clean = if clean.ends_with('.') { format!("{clean}0") } else { clean };
        let clean = clean.replace(".e", ".0e").replace(".E", ".0E");
        clean.parse::<f64>().ok().map(PyValue::Float)
    }
}

