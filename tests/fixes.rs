//! Fixes are re-checked against real SGLang. For every `X-trigger` fixture the recorder also
//! recorded the command obtained by applying each of our fixes for rule X (`X-trigger~fixN`).
//! Here we require that
//! 1. real SGLang (recorded) no longer raises the trigger's error on each fixed command, and
//! 2. the fixes our code produces today are exactly the ones that were recorded (otherwise the
//!    fixture is stale: re-record with `python3 tools/recorder/record.py tests/cases/*.jsonl`).

use serde_json::Value;
use sglang_preflight::diagnostic::apply_edits;
use sglang_preflight::check;
use std::collections::BTreeMap;

mod common;
use common::{default_release_fixtures as fixtures, options_for};


fn first_error_message(f: &Value) -> Option<String> {
    f.get("commands")?
        .as_array()?
        .iter()
        .find(|c| c.get("verdict").and_then(Value::as_str) == Some("error"))
        .and_then(|c| c.get("message").and_then(Value::as_str))
        .map(str::to_string)
}

/// The warnings SGLang logged on the fixture's commands.
fn warnings(f: &Value) -> Vec<&str> {
    let commands = f.get("commands").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    commands.iter().filter_map(|c| c.get("warnings")?.as_array()).flatten().filter_map(Value::as_str).collect()
}

#[test]
fn every_fix_makes_real_sglang_drop_the_error() {
    let all = fixtures();
    let by_id: BTreeMap<&str, &Value> = all.iter().filter_map(|f| Some((f.get("id")?.as_str()?, f))).collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for f in &all {
        let id = f.get("id").and_then(Value::as_str).unwrap_or_default();
        let Some(trigger_id) = f.get("fix_of").and_then(Value::as_str) else { continue };
        let Some(trigger) = by_id.get(trigger_id) else {
            problems.push(format!("{id}: its trigger {trigger_id} is missing"));
            continue;
        };
        checked += 1;
        // The fix of a warning SGLang logs answers for that warning, not for an error of the
        // command's that comes after it (DLLM002's trigger ends in an unrelated "Unknown diffusion
        // LLM"): one of the trigger's warnings is gone from the fixed command.
        let code = f.get("fix_code").and_then(Value::as_str).unwrap_or_default();
        if sglang_preflight::rules::by_code(code).is_some_and(|r| matches!(r.sglang, sglang_preflight::rules::Sglang::Warns(_))) {
            let after = warnings(f);
            if warnings(trigger).iter().all(|w| after.contains(w)) {
                problems.push(format!("{id} ({}): SGLang still logs every warning it logged", f["fix_title"]));
            }
            continue;
        }
        let before = first_error_message(trigger);
        let after = first_error_message(f);
        if before.is_some() && before == after {
            problems.push(format!("{id} ({}): SGLang still raises {:?}", f["fix_title"], before));
        }
    }
    eprintln!("fix re-check: {checked} fixed commands recorded, {} problems", problems.len());
    assert!(checked > 0, "no fixed commands recorded: the recorder records `X-trigger~fixN` for every trigger with fixes");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn recorded_fixes_are_the_ones_we_offer_today() {
    let all = fixtures();
    let recorded: BTreeMap<&str, &Value> = all
        .iter()
        .filter(|f| f.get("fix_of").is_some())
        .filter_map(|f| Some((f.get("id")?.as_str()?, f)))
        .collect();
    let mut problems = Vec::new();
    for f in &all {
        let id = f.get("id").and_then(Value::as_str).unwrap_or_default();
        // `X-trigger`, or `X-<variant>-trigger` (codes hold no `-`)
        let Some(code) = id.strip_suffix("-trigger").and_then(|c| c.split('-').next()) else { continue };
        // Case ids keep the code the rule had when they were written (old codes redirect).
        let rule = sglang_preflight::rules::by_code(code);
        let code = rule.map(|r| r.code).unwrap_or(code);
        // A check only an older release has: the default release's recording shows it gone. So
        // does an error the default release's own libraries no longer raise (MC012: 0.5.18's
        // transformers lacks a model type; MC013: 0.5.18's ModelConfig reads num_attention_heads
        // with no default); its release's conformance compares its trigger.
        const OLDER_RELEASES_ONLY: &[&str] = &["MC012", "MC013"];
        if OLDER_RELEASES_ONLY.contains(&code) || rule.is_some_and(|r| sglang_preflight::release::get(sglang_preflight::schema::DEFAULT_VERSION).is_some_and(|d| !r.applies_to(d))) {
            continue;
        }
        let cmd = f.get("cmd").and_then(Value::as_str).unwrap_or_default();
        let report = check(cmd, &options_for(f, sglang_preflight::schema::DEFAULT_VERSION));
        // Findings outside any command (a here-document that swallowed them, say) are at the top.
        let Some(diag) = report.commands.iter().flat_map(|c| &c.diagnostics).chain(&report.diagnostics).find(|d| d.code == code) else {
            problems.push(format!("{id}: we do not report {code} on its trigger"));
            continue;
        };
        for (n, fix) in diag.fixes.iter().enumerate() {
            if fix.edits.is_empty() {
                continue;
            }
            let key = format!("{id}~fix{n}");
            let ours = apply_edits(cmd, &fix.edits);
            match recorded.get(key.as_str()) {
                None => problems.push(format!("{key} ({}) was never recorded: re-record", fix.title)),
                Some(r) if r.get("cmd").and_then(Value::as_str) != ours.as_deref() => {
                    problems.push(format!("{key}: our fix now gives {ours:?}, recorded {}: re-record", r["cmd"]))
                }
                Some(_) => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
