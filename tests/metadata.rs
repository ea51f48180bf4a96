//! The rules' metadata against what the checker does.
//!
//! (a) Codes: every rule code is unique; the codes the reader, front end, config loader and
//!     argparse layer emit are exactly the table in `src/codes.rs` (found by reading `src/`), none
//!     is also a rule's; and every code in the reports over all recorded cases is one of the two.
//! (b) Cases: every rule has, among the recorded cases (`tests/fixtures/<release>/*.jsonl`, checked with
//!     their hardware profile and config files), a trigger case, whose report has the rule's code,
//!     and a near-miss case, whose report does not have the code although it writes the rule's
//!     flag (for a rule with one flag) or at least two of its flags (a rule's flags are often
//!     alternatives, `a` with `b` or with `c`), each as an option word of a command: `--flag` or
//!     `--flag=...`. A rule without flags is about the environment variables its `example_bad`
//!     sets (`SGLANG_USE_MLX=1 python ...`): its near miss sets them all, without the code.
//! (c) Examples: each rule's `example_bad` (the args after `python -m sglang.launch_server`, or a
//!     whole command when it starts with an environment assignment or a launcher) produces the
//!     rule's code on the default hardware (8×H100) or, for a rule about other hardware, on the
//!     first hardware preset where it does; its `example_good` does not, on that same hardware
//!     (on the default one when there is no bad example).
//!
//! Where (b) and (c) fail because of the rules' declarations, `tests/metadata-corrections.json`
//! holds corrected examples (verified with the checker: the `..._with_the_corrections` test
//! applies them) and the rules still lacking cases; the strict tests are ignored until the
//! corrections are applied to `src/rules/`: `cargo test --test metadata -- --include-ignored`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice, clippy::panic)]

use serde_json::Value;
use sglang_preflight::hardware::{Hardware, PRESETS};
use sglang_preflight::rules::{all_rules, Rule};
use sglang_preflight::{check, CheckOptions, Report};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

mod common;
use common::options_for;

const LAUNCH: &str = "python -m sglang.launch_server ";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn codes_of(report: &Report) -> BTreeSet<String> {
    report.diagnostics.iter().chain(report.commands.iter().flat_map(|c| &c.diagnostics)).map(|d| d.code.clone()).collect()
}

/// A recorded case, checked.
struct Case {
    /// `file.jsonl id`
    name: String,
    /// The words of each command after its launcher.
    argv: Vec<String>,
    codes: BTreeSet<String>,
    /// The environment variables its commands set (the recorder's `env`).
    env: BTreeSet<String>,
}

impl Case {
    /// Writes `flag` as an option word: `--flag` or `--flag=value` (an abbreviation does not count).
    fn writes(&self, flag: &str) -> bool {
        self.argv.iter().any(|w| w == flag || w.strip_prefix(flag).is_some_and(|rest| rest.starts_with('=')))
    }
}

fn jsonl_files(dir: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("jsonl"))
        .collect();
    paths.sort();
    paths
}

/// Every recorded case, checked once per test run.
fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut out = Vec::new();
        for path in jsonl_files(&format!("tests/fixtures/{}", sglang_preflight::schema::DEFAULT_VERSION)) {
            let file = path.file_name().unwrap().to_str().unwrap().to_string();
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                let Ok(case) = serde_json::from_str::<Value>(line) else { continue };
                let Some(cmd) = case.get("cmd").and_then(Value::as_str) else { continue };
                let report = check(cmd, &options_for(&case, sglang_preflight::schema::DEFAULT_VERSION));
                out.push(Case {
                    name: format!("{file} {}", case.get("id").and_then(Value::as_str).unwrap_or("?")),
                    argv: report.commands.iter().flat_map(|c| c.argv.iter().cloned()).collect(),
                    codes: codes_of(&report),
                    env: case
                        .get("commands")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|c| c.get("env").and_then(Value::as_object))
                        .flat_map(|env| env.keys().cloned())
                        .collect(),
                });
            }
        }
        assert!(out.len() > 1000, "only {} recorded cases found", out.len());
        out
    })
}

/// `"ABC123"`-shaped string literals in a source file: 1 to 4 capitals, then 3 or 4 digits.
fn code_literals(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in source.match_indices('"') {
        let rest = &source[at + 1..];
        let letters = rest.bytes().take_while(u8::is_ascii_uppercase).count();
        let digits = rest[letters..].bytes().take_while(u8::is_ascii_digit).count();
        if (1..=4).contains(&letters) && (3..=4).contains(&digits) && rest[letters + digits..].starts_with('"') {
            out.push(rest[..letters + digits].to_string());
        }
    }
    out
}

/// The codes written in `src/` outside the rules (and outside the table and the docs, which
/// only list them), by file.
fn codes_emitted_outside_rules() -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut dirs = vec![root().join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
            let path = entry.path();
            let rel = path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
            if path.is_dir() {
                if rel != "src/rules" {
                    dirs.push(path);
                }
                continue;
            }
            if !rel.ends_with(".rs") || rel == "src/codes.rs" || rel == "src/docs.rs" {
                continue;
            }
            for code in code_literals(&std::fs::read_to_string(&path).unwrap()) {
                out.entry(code).or_default().insert(rel.clone());
            }
        }
    }
    out
}

#[test]
fn rule_codes_are_unique() {
    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    let mut dupes = Vec::new();
    for r in all_rules() {
        if let Some(other) = seen.insert(r.code, r.name) {
            dupes.push(format!("{} is both `{other}` and `{}`", r.code, r.name));
        }
    }
    assert!(dupes.is_empty(), "{}", dupes.join("\n"));
}

#[test]
fn other_codes_are_the_ones_the_source_emits() {
    let rule_codes: BTreeSet<&str> = all_rules().iter().map(|r| r.code).collect();
    let mut table: BTreeSet<&str> = BTreeSet::new();
    let mut problems = Vec::new();
    for c in sglang_preflight::codes::CODES {
        if !table.insert(c.code) {
            problems.push(format!("{} is listed twice in src/codes.rs", c.code));
        }
        if rule_codes.contains(c.code) {
            problems.push(format!("{} is both a rule's code and in src/codes.rs", c.code));
        }
    }
    let emitted = codes_emitted_outside_rules();
    for (code, files) in &emitted {
        if !table.contains(code.as_str()) && !rule_codes.contains(code.as_str()) {
            problems.push(format!("{code} (in {}) is neither a rule's code nor in src/codes.rs", files.iter().cloned().collect::<Vec<_>>().join(", ")));
        }
    }
    for code in &table {
        if !emitted.contains_key(*code) {
            problems.push(format!("{code} is in src/codes.rs but nothing in src/ emits it"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_code_over_the_recorded_cases_is_known() {
    let known: BTreeSet<&str> = all_rules().iter().map(|r| r.code).chain(sglang_preflight::codes::CODES.iter().map(|c| c.code)).collect();
    let mut unknown: BTreeMap<&str, &str> = BTreeMap::new();
    for case in cases() {
        for code in &case.codes {
            if !known.contains(code.as_str()) {
                unknown.entry(code.as_str()).or_insert(case.name.as_str());
            }
        }
    }
    assert!(unknown.is_empty(), "codes neither a rule's nor in src/codes.rs: {unknown:?}");
}

/// The rules without a trigger case and those without a near-miss case (see the module doc).
fn rules_lacking_cases() -> (Vec<&'static str>, Vec<&'static str>) {
    let (mut no_trigger, mut no_near_miss) = (Vec::new(), Vec::new());
    let default = sglang_preflight::release::get(sglang_preflight::schema::DEFAULT_VERSION);
    for r in all_rules() {
        // A check only an older release has (0.5.18's) cannot fire on the default release's
        // cases: its trigger and near miss are that release's fixtures.
        if default.is_some_and(|d| !r.applies_to(d)) {
            continue;
        }
        if !cases().iter().any(|c| c.codes.contains(r.code)) {
            no_trigger.push(r.code);
        }
        // the rule's one flag, or two of its flags: the relation it is about (its flags are often
        // alternatives, so not all of them)
        let needed = r.flags.len().min(2);
        let near_miss = if needed > 0 {
            cases().iter().any(|c| !c.codes.contains(r.code) && r.flags.iter().filter(|f| c.writes(f)).count() >= needed)
        } else {
            let vars = env_assignments(r.example_bad);
            !vars.is_empty() && cases().iter().any(|c| !c.codes.contains(r.code) && vars.iter().all(|v| c.env.contains(*v)))
        };
        if !near_miss {
            no_near_miss.push(r.code);
        }
    }
    (no_trigger, no_near_miss)
}

/// The names of the environment assignments an example starts with (`A=1 B=x python ...`).
fn env_assignments(example: &str) -> Vec<&str> {
    example
        .split_whitespace()
        .map_while(|w| w.split_once('=').map(|(name, _)| name))
        .take_while(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !name.starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

/// Every rule the default release applies has a recorded trigger and a near miss (the lists in
/// `tests/metadata-corrections.json` are empty; `rules_lacking_cases_are_the_listed_ones` pins them).
#[test]
fn every_rule_has_a_trigger_and_a_near_miss_case() {
    let (no_trigger, no_near_miss) = rules_lacking_cases();
    assert!(
        no_trigger.is_empty() && no_near_miss.is_empty(),
        "rules without a trigger case ({}): {}\nrules without a near-miss case ({}): {}",
        no_trigger.len(),
        no_trigger.join(" "),
        no_near_miss.len(),
        no_near_miss.join(" ")
    );
}

fn corrections() -> Value {
    let text = std::fs::read_to_string(root().join("tests/metadata-corrections.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn listed(v: &Value, key: &str) -> Vec<String> {
    v.get(key).and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect()).unwrap_or_default()
}

/// Until cases are recorded for them, the rules lacking cases are exactly those the corrections
/// file names: a rule that loses its cases fails here, and one that gains them must leave the list.
#[test]
fn rules_lacking_cases_are_the_listed_ones() {
    let (no_trigger, no_near_miss) = rules_lacking_cases();
    let c = corrections();
    assert_eq!(no_trigger, listed(&c, "without_trigger_case"), "rules without a trigger case (update tests/metadata-corrections.json)");
    assert_eq!(no_near_miss, listed(&c, "without_near_miss_case"), "rules without a near-miss case (update tests/metadata-corrections.json)");
}

/// The command an example stands for: the args after the launcher, or a whole command.
fn example_command(example: &str) -> String {
    let first = example.split_whitespace().next().unwrap_or_default();
    let env_assignment = first.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !name.starts_with(|c: char| c.is_ascii_digit())
    });
    let launcher = ["python", "python3", "sglang"].contains(&first);
    if env_assignment || launcher {
        example.to_string()
    } else {
        format!("{LAUNCH}{example}")
    }
}

/// The hardware an example pair is checked on: the default (8×H100), else the first preset on
/// which the bad example produces the code (a rule about Blackwell, ROCm or a machine without
/// InfiniBand shows on such hardware only; the metadata does not name it).
fn hardware_for(code: &str, bad: &str) -> Option<Hardware> {
    let cmd = example_command(bad);
    std::iter::once(Hardware::default_h100())
        .chain(PRESETS.iter().cloned())
        .find(|hw| codes_of(&check(&cmd, &CheckOptions { hardware: hw.clone(), ..Default::default() })).contains(code))
}

/// What is wrong with a rule's examples, if anything.
fn example_problems(code: &str, bad: &str, good: &str) -> Vec<String> {
    let mut out = Vec::new();
    if bad.is_empty() {
        if !good.is_empty() && codes_of(&check(&example_command(good), &CheckOptions::default())).contains(code) {
            out.push(format!("{code}: example_good produces {code}: {good}"));
        }
        return out;
    }
    let Some(hardware) = hardware_for(code, bad) else {
        out.push(format!("{code}: example_bad does not produce {code} on any hardware preset: {bad}"));
        return out;
    };
    let opts = CheckOptions { hardware, ..Default::default() };
    if !good.is_empty() && codes_of(&check(&example_command(good), &opts)).contains(code) {
        out.push(format!("{code}: example_good produces {code} (on {}): {good}", opts.hardware.preset));
    }
    out
}

fn examples_of(r: &Rule) -> (String, String) {
    (r.example_bad.to_string(), r.example_good.to_string())
}

#[test]
fn every_rule_example_behaves() {
    let problems: Vec<String> = all_rules()
        .iter()
        .flat_map(|r| {
            let (bad, good) = examples_of(r);
            example_problems(r.code, &bad, &good)
        })
        .collect();
    assert!(problems.is_empty(), "{} examples misbehave:\n{}", problems.len(), problems.join("\n"));
}

/// The corrected examples of `tests/metadata-corrections.json` put over the rules' own: then
/// every example behaves. Every correction is for a rule that exists and differs from what it
/// corrects.
#[test]
fn every_rule_example_behaves_with_the_corrections() {
    let c = corrections();
    let fixes = c.get("examples").and_then(Value::as_object).cloned().unwrap_or_default();
    let rules = all_rules();
    let mut problems = Vec::new();
    for code in fixes.keys() {
        if !rules.iter().any(|r| r.code == code) {
            problems.push(format!("{code}: corrected, but there is no such rule"));
        }
    }
    for r in &rules {
        let (mut bad, mut good) = examples_of(r);
        if let Some(fix) = fixes.get(r.code) {
            let field = |k: &str| fix.get(k).and_then(Value::as_str).map(str::to_string);
            if field("example_bad").as_deref() == Some(bad.as_str()) && field("example_good").as_deref() == Some(good.as_str()) {
                problems.push(format!("{}: the correction is what the rule already says (drop it)", r.code));
            }
            bad = field("example_bad").unwrap_or(bad);
            good = field("example_good").unwrap_or(good);
        }
        problems.extend(example_problems(r.code, &bad, &good));
    }
    assert!(problems.is_empty(), "{} examples misbehave with the corrections:\n{}", problems.len(), problems.join("\n"));
}

/// The rules whose examples show on other hardware than the default are the listed ones (the
/// docs' "Fixes offered" are computed on the default hardware, so they show none for these).
#[test]
fn examples_on_other_hardware_are_the_listed_ones() {
    let c = corrections();
    let fixes = c.get("examples").and_then(Value::as_object).cloned().unwrap_or_default();
    let mut found: BTreeMap<String, String> = BTreeMap::new();
    for r in all_rules() {
        let bad = fixes.get(r.code).and_then(|f| f.get("example_bad")).and_then(Value::as_str).unwrap_or(r.example_bad);
        if bad.is_empty() {
            continue;
        }
        if let Some(hw) = hardware_for(r.code, bad).filter(|hw| hw.preset != Hardware::default_h100().preset) {
            found.insert(r.code.to_string(), hw.preset.to_string());
        }
    }
    let listed: BTreeMap<String, String> = c
        .get("examples_shown_on_other_hardware")
        .and_then(Value::as_object)
        .map(|o| o.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect())
        .unwrap_or_default();
    assert_eq!(found, listed, "rules whose examples show on other hardware (update tests/metadata-corrections.json)");
}
