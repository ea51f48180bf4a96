//! How many recorded errors end with a machine-applicable fix (a fix with edits, safe or
//! unsafe). Measured over every `X-trigger` fixture SGLang rejects (our finding X), and over
//! every front-end / config / argparse rejection in the fixtures (our first SGLang error).
//! `FIX_COVERAGE_LIST=1` prints the ones without.

use serde_json::Value;
use sglang_preflight::check;
use sglang_preflight::diagnostic::{Applicability, Diagnostic};

mod common;
use common::{default_release_fixtures as fixtures, options_for};


fn recorded_stage(f: &Value) -> Option<&str> {
    let c = f.get("commands")?.as_array()?.iter().find(|c| c.get("verdict").and_then(Value::as_str) == Some("error"))?;
    c.get("stage").and_then(Value::as_str)
}

fn machine_applicable(d: &Diagnostic) -> bool {
    d.fixes.iter().any(|f| !f.edits.is_empty() && f.applicability != Applicability::Display)
}

/// (cases measured, cases without a machine-applicable fix: "id code message")
fn measure(select: impl Fn(&Value) -> Option<Option<String>>) -> (usize, Vec<String>) {
    let mut total = 0;
    let mut without = Vec::new();
    for f in fixtures() {
        let Some(code) = select(&f) else { continue };
        let cmd = f.get("cmd").and_then(Value::as_str).unwrap_or_default();
        let report = check(cmd, &options_for(&f, sglang_preflight::schema::DEFAULT_VERSION));
        let mut diags = report.commands.iter().flat_map(|c| &c.diagnostics).chain(&report.diagnostics);
        let diag = match &code {
            Some(code) => diags.find(|d| &d.code == code),
            None => diags.find(|d| d.is_sglang_error()),
        };
        total += 1;
        if !diag.is_some_and(machine_applicable) {
            let id = f.get("id").and_then(Value::as_str).unwrap_or_default();
            let what = diag.map(|d| format!("{} {}", d.code, d.message)).unwrap_or_else(|| "(no finding)".into());
            without.push(format!("{id}: {}", what.chars().take(160).collect::<String>()));
        }
    }
    (total, without)
}

fn show(name: &str, (total, without): &(usize, Vec<String>)) {
    eprintln!("{name}: {} of {total} end with a machine-applicable fix", total - without.len());
    if std::env::var_os("FIX_COVERAGE_LIST").is_some() {
        for w in without {
            eprintln!("  {w}");
        }
    }
}

#[test]
fn triggering_cases_with_a_machine_applicable_fix() {
    let triggers = measure(|f| {
        let id = f.get("id")?.as_str()?;
        let code = id.strip_suffix("-trigger")?.split('-').next()?;
        recorded_stage(f)?;
        Some(Some(sglang_preflight::rules::by_code(code).map(|r| r.code.to_string()).unwrap_or_else(|| code.to_string())))
    });
    show("triggering cases", &triggers);
    let front = measure(|f| {
        let id = f.get("id")?.as_str()?;
        if id.ends_with("-trigger") || f.get("fix_of").is_some() {
            return None;
        }
        matches!(recorded_stage(f)?, "cli" | "config" | "argparse").then_some(None)
    });
    show("front-end and argparse rejections", &front);
}
