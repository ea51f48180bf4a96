//! Turns SGLang's side of the checker, generated from the real package and kept under
//! `data/sglang-<release>/`, into compact Rust tables (`$OUT_DIR/fields.rs`, `$OUT_DIR/releases.rs`):
//!
//! - `fields`: one typed key per `ServerArgs` field of any release (every flag's dest, plus the
//!   attributes hooks set without a flag, `data/server-args-extra-fields.txt`), so a misspelt
//!   field does not compile;
//! - per release: the raise sites (`raise-sites.jsonl`) and, where present, the warning sites
//!   (`warn-sites.jsonl`), with the facts rules reproduce (exception, message template, file,
//!   function, line, the hook that reaches them); the order of its resolution pipeline
//!   (`pipeline.json`); and the schema JSON.
//!
//! Strings are interned once across releases.

// serde_json's `value["key"]` returns Null for a missing key: it cannot panic.
#![allow(clippy::indexing_slicing)]

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let data = root.join("data");
    println!("cargo:rerun-if-changed=data");
    println!("cargo:rerun-if-changed=src/rules");
    println!("cargo:rerun-if-env-changed=SGLANG_PREFLIGHT_MODEL_CHECKS");
    println!("cargo:rerun-if-env-changed=SGLANG_PREFLIGHT_ALL_STEPS");
    let referenced = referenced_functions(&root.join("src").join("rules"));
    let mut releases: Vec<(Vec<u32>, String, PathBuf)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&data) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if let Some(v) = name.strip_prefix("sglang-") {
                if e.path().join("schema.json").exists() {
                    let key = v.split('.').map(|p| p.parse().unwrap_or(0)).collect();
                    releases.push((key, v.to_string(), e.path()));
                }
            }
        }
    }
    // Newest first: the first release is the default.
    releases.sort_by(|a, b| b.0.cmp(&a.0));
    // Every release the project has data for, carried or not: the page offers them all and
    // fetches the schema of one it does not carry (`dist/releases/<version>.json`).
    let known: Vec<String> = releases.iter().map(|r| r.1.clone()).collect();
    // The page's wasm carries the default release only (each schema adds ~40 KB gzipped to
    // every visitor's download); the native CLI carries them all.
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    // (the field keys stay every release's: rules of an older release's own checks name its flags)
    let every_release: Vec<PathBuf> = releases.iter().map(|r| r.2.clone()).collect();
    if wasm {
        releases.truncate(1);
    }

    let mut fields: BTreeSet<String> = BTreeSet::new();
    let extra = std::fs::read_to_string(data.join("server-args-extra-fields.txt")).unwrap_or_default();
    for line in extra.lines() {
        let line = line.trim();
        if !line.is_empty() && !line.starts_with('#') {
            fields.insert(line.to_string());
        }
    }
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let mut schemas = Vec::new();
    for (_, version, dir) in &releases {
        let text = read(&dir.join("schema.json"));
        let json: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if wasm {
            // The page's schema: the keys `schema::Schema` reads, without whitespace or help
            // texts (the page fetches those when it shows them: `help/<version>.json`, written by
            // scripts/build-web.sh). 343 KB of JSON -> 140 KB, ~48 KB -> ~14 KB gzipped.
            let path = out_dir.join(format!("schema-{version}.json"));
            if std::fs::write(&path, page_schema(&json)).is_err() {
                println!("cargo:warning=cannot write {}", path.display());
            }
            schemas.push((version.clone(), path));
        } else {
            schemas.push((version.clone(), dir.join("schema.json")));
        }
    }
    for dir in &every_release {
        let json: Value = serde_json::from_str(&read(&dir.join("schema.json"))).unwrap_or(Value::Null);
        for a in json["actions"].as_array().into_iter().flatten() {
            if let Some(d) = a["dest"].as_str() {
                if d != "help" && !a["option_strings"].as_array().is_some_and(|o| o.is_empty()) {
                    fields.insert(d.to_string());
                }
            }
        }
    }

    let mut out = String::new();
    let fields: Vec<String> = fields.into_iter().collect();
    let _ = writeln!(out, "/// Every field name, sorted; a [`Field`]'s index is its place here.");
    let _ = writeln!(out, "pub const FIELD_NAMES: &[&str] = &[");
    for f in &fields {
        let _ = writeln!(out, "    {f:?},");
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(out, "/// One constant per `ServerArgs` field, named as in SGLang.");
    let _ = writeln!(out, "#[allow(non_upper_case_globals)]\npub mod f {{\n    use super::Field;");
    for (i, f) in fields.iter().enumerate() {
        let ident = if is_keyword(f) { format!("r#{f}") } else { f.clone() };
        let _ = writeln!(out, "    pub const {ident}: Field = Field({i});");
    }
    let _ = writeln!(out, "}}");

    let mut pool = Pool::default();
    let mut tables = String::new();
    let versions: Vec<&String> = releases.iter().map(|r| &r.1).collect();
    let _ = writeln!(tables, "/// The SGLang releases this build carries, newest first; the first is the default.");
    let _ = writeln!(tables, "pub const SUPPORTED_VERSIONS: &[&str] = &{versions:?};");
    let _ = writeln!(tables, "pub const DEFAULT_VERSION: &str = {:?};", versions.first().map(|v| v.as_str()).unwrap_or(""));
    let _ = writeln!(tables, "/// Every SGLang release the project has data for, newest first (a superset of the carried ones).");
    let _ = writeln!(tables, "pub const KNOWN_VERSIONS: &[&str] = &{known:?};");
    let _ = writeln!(tables, "/// The SGLang releases this build carries, newest first.");
    let _ = writeln!(tables, "pub static RELEASE_DATA: &[ReleaseData] = &[");
    for ((_, version, dir), (_, schema_path)) in releases.iter().zip(&schemas) {
        // A release before the hook modules names the rules' functions otherwise
        // (`function-map.json`): their sites are kept under both names.
        let map = function_map(&dir.join("function-map.json"), &referenced);
        let mut referenced_here = Referenced { functions: referenced.functions.clone(), owners: referenced.owners.clone() };
        referenced_here.functions.extend(map.iter().map(|(_, was)| was.clone()));
        let raise = sites(&dir.join("raise-sites.jsonl"), &referenced_here, &mut pool);
        let warn = sites(&dir.join("warn-sites.jsonl"), &referenced_here, &mut pool);
        let _ = writeln!(tables, "    ReleaseData {{");
        let _ = writeln!(tables, "        version: {version:?},");
        let _ = writeln!(tables, "        schema_json: include_str!({:?}),", schema_path.display().to_string());
        let _ = writeln!(tables, "        raise_sites: &[{raise}],");
        let _ = writeln!(tables, "        warn_sites: &[{warn}],");
        let pipeline: Value = serde_json::from_str(&read(&dir.join("pipeline.json"))).unwrap_or(Value::Null);
        let _ = writeln!(tables, "        pipeline: {},", pipeline_steps(&pipeline["steps"]));
        // Which fields each step may assign (`tools/extract_writes.py`).
        let writes: Value = serde_json::from_str(&read(&dir.join("pipeline-writes.json"))).unwrap_or(Value::Null);
        let _ = writeln!(tables, "        writes: &[{}],", step_writes(&writes["steps"], &fields));
        // Rules are replayed only for a release whose pipeline order was extracted (and whose
        // raise sites they were checked against), unless its `status.json` says its checks are
        // not modelled yet (`"checks": "parser-only"`: its raise sites give the rules' ranges,
        // its parser stage is exact); for the others only the parser runs.
        let status: Value = serde_json::from_str(&read(&dir.join("status.json"))).unwrap_or(Value::Null);
        // `SGLANG_PREFLIGHT_MODEL_CHECKS=0.5.18` replays a parser-only release's modelled steps
        // anyway, to measure them (tools/measure_steps.py); never in a normal build.
        let forced = std::env::var("SGLANG_PREFLIGHT_MODEL_CHECKS").is_ok_and(|v| v.split(',').any(|x| x == version));
        let parser_only = status["checks"].as_str() == Some("parser-only") && !forced;
        let _ = writeln!(
            tables,
            "        checks_modelled: {},",
            dir.join("pipeline.json").exists() && dir.join("raise-sites.jsonl").exists() && !parser_only
        );
        let mut pairs = String::new();
        for (named, was) in &map {
            let _ = write!(pairs, "(S[{}], S[{}]), ", pool.id(named), pool.id(was));
        }
        let _ = writeln!(tables, "        function_map: &[{pairs}],");
        // A release before the hook modules: its steps whose source is the same as a hook's
        // (`steps.json`, tools/compare_steps.py), run by that hook's model.
        // Its other steps with a hook of the same name (`"differs"`) are listed as counterparts:
        // run only where src/rules/pipeline.rs says the hook's model replays this release's
        // source (`REPLAYED_AS_WRITTEN`). `SGLANG_PREFLIGHT_ALL_STEPS=0.5.18` runs every
        // counterpart anyway, to measure them (tools/measure_steps.py --all-steps); never in a
        // normal build.
        let all_steps = std::env::var("SGLANG_PREFLIGHT_ALL_STEPS").is_ok_and(|v| v.split(',').any(|x| x == version));
        let steps: Value = serde_json::from_str(&read(&dir.join("steps.json"))).unwrap_or(Value::Null);
        let mut same = String::new();
        let mut counterparts = String::new();
        for row in steps["steps"].as_array().into_iter().flatten() {
            if let (Some(step), Some(hook), Some(status)) = (row["step"].as_str(), row["hook"].as_str(), row["status"].as_str()) {
                let pair = format!("(S[{}], S[{}]), ", pool.id(step), pool.id(hook));
                if status == "same" || all_steps {
                    same.push_str(&pair);
                } else {
                    counterparts.push_str(&pair);
                }
            }
        }
        let _ = writeln!(tables, "        same_steps: &[{same}],");
        let _ = writeln!(tables, "        counterparts: &[{counterparts}],");
        let _ = writeln!(tables, "    }},");
    }
    let _ = writeln!(tables, "];");
    let mut release_out = String::from("/// Interned strings of the release tables.\nconst S: &[&str] = &[\n");
    for s in &pool.strings {
        let _ = writeln!(release_out, "    {s:?},");
    }
    let _ = writeln!(release_out, "];");
    release_out.push_str(&tables);

    for (name, text) in [("fields.rs", out), ("releases.rs", release_out)] {
        if std::fs::write(out_dir.join(name), text).is_err() {
            println!("cargo:warning=cannot write {name}");
        }
    }
}

/// The keys of a schema.json `schema::Schema` and `schema::Action` read (serde skips others).
const SCHEMA_KEYS: &[&str] = &["sglang_version", "prog", "allow_abbrev", "python", "actions"];
const ACTION_KEYS: &[&str] = &[
    "option_strings", "dest", "action", "type", "choices", "nargs", "const", "default", "metavar", "required", "group", "deprecated", "extra",
    "choices_unordered", "choices_env", "type_facts",
];

/// A schema.json for the page's wasm: only [`SCHEMA_KEYS`] and [`ACTION_KEYS`] (no `help`), minified.
/// Every value is the one the file has (serde_json reads back the same numbers it writes).
fn page_schema(schema: &Value) -> String {
    let pick = |v: &Value, keys: &[&str]| -> serde_json::Map<String, Value> {
        keys.iter().filter_map(|k| v.get(*k).map(|x| (k.to_string(), x.clone()))).collect()
    };
    let mut top = pick(schema, SCHEMA_KEYS);
    let actions: Vec<Value> = schema["actions"].as_array().into_iter().flatten().map(|a| Value::Object(pick(a, ACTION_KEYS))).collect();
    top.insert("actions".to_string(), Value::Array(actions));
    serde_json::to_string(&Value::Object(top)).unwrap_or_default()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

#[derive(Default)]
struct Pool {
    strings: Vec<String>,
    index: BTreeMap<String, usize>,
}

impl Pool {
    fn id(&mut self, s: &str) -> usize {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        self.strings.push(s.to_string());
        self.index.insert(s.to_string(), self.strings.len() - 1);
        self.strings.len() - 1
    }
}

/// The SGLang functions (`module.function`) the rules name: the first string argument of
/// `raises(`, `raises_nth(`, `warns(`, `site(`, `site_nth(`, and, for Python's own exceptions,
/// the module or class of `function: "` (a release is known to have it by its other sites). Only
/// their sites go into the tables: the checker reads no other (the coverage report reads the
/// JSON files themselves), and the page downloads the tables.
struct Referenced {
    functions: BTreeSet<String>,
    owners: BTreeSet<String>,
}

fn referenced_functions(rules: &Path) -> Referenced {
    let mut found = Referenced { functions: BTreeSet::new(), owners: BTreeSet::new() };
    let mut dirs = vec![rules.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let text = read(&path);
            // (`has_provider(<release>, "function")`: a model override provider a release may have
            // under another name; its function is the call's string argument)
            for opener in ["raises(\"", "raises_nth(\"", "warns(\"", "site(\"", "site_nth(\"", "function: \"", "has_provider("] {
                for (i, _) in text.match_indices(opener) {
                    let before = text.get(..i).and_then(|b| b.chars().next_back());
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let rest = text.get(i + opener.len()..).unwrap_or("");
                    let name = if opener == "has_provider(" { rest.split(')').next().and_then(|args| args.split('"').nth(1)) } else { rest.split('"').next() };
                    if let Some(name) = name {
                        if opener.starts_with("function") {
                            found.owners.insert(name.rsplit_once('.').map(|(o, _)| o).unwrap_or(name).to_string());
                        } else {
                            found.functions.insert(name.to_string());
                        }
                    }
                }
            }
        }
    }
    found
}

/// The rules' functions a release had under other names (`function-map.json`: the hook-module
/// function -> the `ServerArgs` method it was), also for a nested function of a mapped one
/// (`validation_hook.validate_ib_devices._normalize_device_group`).
fn function_map(path: &Path, referenced: &Referenced) -> Vec<(String, String)> {
    let doc: Value = serde_json::from_str(&read(path)).unwrap_or(Value::Null);
    let Some(map) = doc["functions"].as_object() else { return Vec::new() };
    let mut out = Vec::new();
    for f in &referenced.functions {
        let mut parts: Vec<&str> = f.split('.').collect();
        let mut rest: Vec<&str> = Vec::new();
        while parts.len() >= 2 {
            if let Some(was) = map.get(&parts.join(".")).and_then(Value::as_str) {
                let mut target = was.to_string();
                for r in rest.iter().rev() {
                    target.push('.');
                    target.push_str(r);
                }
                out.push((f.clone(), target));
                break;
            }
            if let Some(last) = parts.pop() {
                rest.push(last);
            }
        }
    }
    out
}

/// Whether a site of SGLang's `function` is one the rules can name.
fn is_referenced(function: &str, referenced: &Referenced) -> bool {
    referenced.functions.contains(function)
        || referenced.owners.iter().any(|owner| function.strip_prefix(owner.as_str()).is_some_and(|rest| rest.starts_with('.')))
}

/// `Site { .. }` literals for one JSON-lines file (none when the file is absent), for the sites
/// of the functions the rules name.
fn sites(path: &Path, referenced: &Referenced, pool: &mut Pool) -> String {
    let mut out = String::new();
    for line in read(path).lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
        let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
        let id = s("id");
        let function = id.split('#').next().unwrap_or("").to_string();
        if !is_referenced(&function, referenced) {
            continue;
        }
        // The id is `function#n` (the core makes it from the two, src/release.rs Site::id).
        let Some(nth) = id.strip_prefix(&function).and_then(|n| n.strip_prefix('#')).and_then(|n| n.parse::<u16>().ok()).filter(|n| id == format!("{function}#{n}")) else {
            let _ = write!(out, "compile_error!({:?}), ", format!("{}: site id {id:?} is not `function#n`", path.display()));
            continue;
        };
        let mut p = |x: &str| format!("S[{}]", pool.id(x));
        let _ = write!(
            out,
            "Site {{ nth: {nth}, function: {}, file: {}, line: {}, exception: {}, template: {}, hook: {}, kind: {}, needs_model_config: {} }}, ",
            p(&function),
            p(&s("file")),
            v["line"].as_u64().unwrap_or(0),
            p(&s("exc_type")),
            p(&s("message_template")),
            p(&s("hook")),
            p(&s("kind")),
            v["needs_model_config"].as_bool().unwrap_or(false),
        );
    }
    out
}

/// `StepWrites { .. }, ..` for `pipeline-writes.json` (`tools/extract_writes.py`), each field as
/// its typed constant (the check marks them per command: no name lookups then); a written name
/// that is no release's flag or known attribute is left out, as `Field::from_name` would.
fn step_writes(steps: &Value, fields: &[String]) -> String {
    let mut out = String::new();
    for (name, w) in steps.as_object().into_iter().flatten() {
        let consts: Vec<String> = w["fields"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|f| fields.binary_search_by(|x| x.as_str().cmp(f)).is_ok())
            .map(|f| if is_keyword(f) { format!("f::r#{f}") } else { format!("f::{f}") })
            .collect();
        let any = w["any"].as_bool().unwrap_or(false);
        let _ = write!(out, "StepWrites {{ step: {name:?}, fields: &[{}], any: {any} }}, ", consts.join(", "));
    }
    out
}

/// `&[PipelineStep::..]` for the steps of `pipeline.json` (`tools/extract_pipeline.py`).
fn pipeline_steps(steps: &Value) -> String {
    let mut out = String::from("&[");
    for step in steps.as_array().into_iter().flatten() {
        if let Some(name) = step["step"].as_str() {
            let _ = write!(out, "PipelineStep::Hook({name:?}), ");
        } else if let Some(condition) = step["if"].as_str() {
            let _ = write!(
                out,
                "PipelineStep::If {{ condition: {condition:?}, then: {}, otherwise: {} }}, ",
                pipeline_steps(&step["then"]),
                pipeline_steps(&step["else"])
            );
        } else if step["return"].as_bool() == Some(true) {
            out.push_str("PipelineStep::Return, ");
        }
    }
    out.push(']');
    out
}

fn is_keyword(s: &str) -> bool {
    matches!(s, "type" | "async" | "await" | "loop" | "match" | "mod" | "move" | "ref" | "self" | "static" | "super" | "trait" | "use" | "where" | "yield" | "final" | "override" | "box" | "priv" | "try" | "dyn" | "abstract" | "become" | "do" | "macro" | "typeof" | "unsized" | "virtual")
}
