//! Snapshot specs: every case of each rule family's cases file (`tests/cases/rules_*.jsonl`)
//! rendered as `sglang-preflight check --format snapshot` renders it, compared with the committed
//! `tests/snapshots/<cases-file-stem>.snap` (one file per cases file, each case headed by its id).
//!
//! After an intended change, rewrite them with
//! `UPDATE_SNAPSHOTS=1 cargo test --test snapshots` and review the diff.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice, clippy::panic)]

use serde_json::Value;
use sglang_preflight::check::{CommandReport, Report};
use sglang_preflight::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity, Stage};
use sglang_preflight::invocation::Entry;
use sglang_preflight::snapshot::render;
use sglang_preflight::span::Span;
use sglang_preflight::check;
use std::path::{Path, PathBuf};

mod common;
use common::options_for;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rule_case_files() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("tests/cases"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.starts_with("rules_") && name.ends_with(".jsonl")
        })
        .collect();
    paths.sort();
    paths
}

/// Each case of a cases file as (id, its section of the .snap file).
fn render_cases(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//")) {
        let case: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{}: unreadable case {line}: {e}", path.display()));
        let id = case.get("id").and_then(Value::as_str).unwrap_or("?").to_string();
        let cmd = case.get("cmd").and_then(Value::as_str).unwrap_or_default();
        let report = check(cmd, &options_for(&case, sglang_preflight::schema::DEFAULT_VERSION));
        let mut section = format!("=== {id}\n");
        if let Some(profile) = case.get("profile").and_then(Value::as_str) {
            section.push_str(&format!("profile: {profile}\n"));
        }
        section.push_str(&render(cmd, &report));
        out.push((id, section));
    }
    out
}

/// Split a committed .snap file back into (id, section) by its `=== id` headers.
fn split_snap(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if let Some(id) = line.strip_prefix("=== ") {
            out.push((id.trim_end_matches('\n').to_string(), String::new()));
        }
        if let Some((_, section)) = out.last_mut() {
            section.push_str(line);
        }
    }
    // sections are separated by one blank line, which is not part of a section
    for (_, s) in &mut out {
        if s.ends_with("\n\n") {
            s.pop();
        }
    }
    out
}

/// The first differing line of two sections, with a little context.
fn line_diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let at = e.iter().zip(&a).position(|(x, y)| x != y).unwrap_or(e.len().min(a.len()));
    let mut out = String::new();
    for l in e.iter().take(at).skip(at.saturating_sub(2)) {
        out.push_str(&format!("    {l}\n"));
    }
    for l in e.iter().skip(at).take(6) {
        out.push_str(&format!("  - {l}\n"));
    }
    for l in a.iter().skip(at).take(6) {
        out.push_str(&format!("  + {l}\n"));
    }
    out
}

#[test]
fn rule_cases_match_their_snapshots() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    let files = rule_case_files();
    assert!(!files.is_empty(), "no tests/cases/rules_*.jsonl");
    let mut problems = Vec::new();
    for path in files {
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let snap_path = root().join("tests/snapshots").join(format!("{stem}.snap"));
        let actual = render_cases(&path);
        let joined = actual.iter().map(|(_, s)| s.as_str()).collect::<Vec<_>>().join("\n");
        if update {
            std::fs::create_dir_all(snap_path.parent().unwrap()).unwrap();
            std::fs::write(&snap_path, &joined).unwrap();
            continue;
        }
        let Ok(committed) = std::fs::read_to_string(&snap_path) else {
            problems.push(format!("{}: missing (run `UPDATE_SNAPSHOTS=1 cargo test --test snapshots`)", snap_path.display()));
            continue;
        };
        if committed == joined {
            continue;
        }
        let expected = split_snap(&committed);
        let first = (0..expected.len().max(actual.len())).find(|&i| expected.get(i) != actual.get(i));
        let detail = match first.map(|i| (expected.get(i), actual.get(i))) {
            Some((Some((eid, e)), Some((aid, a)))) if eid == aid => format!("case {eid} differs:\n{}", line_diff(e, a)),
            Some((Some((eid, _)), Some((aid, _)))) => format!("case {} in the snapshot where the cases file has {aid}", eid),
            Some((Some((eid, _)), None)) => format!("case {eid} is in the snapshot but no longer in the cases file"),
            Some((None, Some((aid, _)))) => format!("case {aid} is new (not in the snapshot)"),
            _ => "the files differ in layout".to_string(),
        };
        problems.push(format!("tests/snapshots/{stem}.snap: {detail}"));
    }
    assert!(
        problems.is_empty(),
        "{}\nIf the change is intended: UPDATE_SNAPSHOTS=1 cargo test --test snapshots, then review the diff.",
        problems.join("\n")
    );
}

fn diagnostic(code: &str, span: Span) -> Diagnostic {
    Diagnostic::preflight(code, Severity::Warning, Stage::Shell, "m", span)
}

fn report_with(span: Span, diagnostics: Vec<Diagnostic>) -> Report {
    Report {
        sglang_version: "0.5.23".into(),
        hardware: "8×H100".into(),
        accepted: true,
        commands: vec![CommandReport {
            entry: Entry::LaunchServer,
            argv: vec![],
            accepted: true,
            span,
            diagnostics,
            not_run: vec![],
            not_modelled_hooks: 0,
            model: None,
            draft_model: None,
            resolved: None,
            resolved_left_out: false,
        }],
        diagnostics: vec![],
        also_runs: vec![],
        parser_only: false,
    }
}

/// The caret line under the source line, for the first mark of `code`.
fn caret_line<'a>(out: &'a str, code: &str) -> &'a str {
    let line = out.lines().find(|l| l.ends_with(&format!("] {code}")) && l.contains('^')).unwrap_or_else(|| panic!("no caret for {code} in\n{out}"));
    line.split_once(" | ").unwrap().1
}

#[test]
fn carets_count_characters_not_bytes() {
    let text = "sglang serve --served-model-name é日本 --tp 2";
    let start = text.find('é').unwrap();
    let end = text.find(" --tp").unwrap();
    let out = render(text, &report_with(Span::new(0, text.len()), vec![diagnostic("X1", Span::new(start, end))]));
    assert_eq!(caret_line(&out, "X1"), format!("{}^^^ [1] X1", " ".repeat(text[..start].chars().count())), "{out}");
}

#[test]
fn empty_spans_get_one_caret_where_they_sit() {
    let text = "sglang serve --tp";
    let out = render(text, &report_with(Span::new(0, text.len()), vec![diagnostic("X1", Span::empty_at(text.len()))]));
    assert_eq!(caret_line(&out, "X1"), format!("{}^ [1] X1", " ".repeat(text.len())), "{out}");
}

#[test]
fn multi_line_spans_are_marked_on_each_line() {
    let text = "sglang serve --a 'x\ny' --b\n";
    let (start, end) = (text.find('\'').unwrap(), text.find(" --b").unwrap());
    let out = render(text, &report_with(Span::new(0, text.len() - 1), vec![diagnostic("X1", Span::new(start, end))]));
    let carets: Vec<&str> = out.lines().filter(|l| l.ends_with("[1] X1")).collect();
    assert_eq!(carets.len(), 2, "{out}");
    assert!(carets[0].ends_with(&format!("{}^^ [1] X1", " ".repeat(start))), "{out}");
    assert!(carets[1].ends_with("| ^^ [1] X1"), "{out}");
}

#[test]
fn fixes_show_the_changed_lines_before_and_after() {
    let text = "A=1 \\\nsglang serve --tp-size 3 \\\n  --x y\n";
    let at = text.find('3').unwrap();
    let d = diagnostic("X1", Span::new(at, at + 1)).with_fix(Fix {
        title: "Use 2".into(),
        applicability: Applicability::Unsafe,
        edits: vec![Edit { start: at, end: at + 1, replacement: "2".into() }],
    });
    let out = render(text, &report_with(Span::new(0, text.len() - 1), vec![d]));
    assert!(out.contains("fix (unsafe): Use 2\n        - sglang serve --tp-size 3 \\\n        + sglang serve --tp-size 2 \\\n"), "{out}");
}

/// Out-of-range and mid-character spans and edits, control characters and long lines: the
/// renderer clamps, says so, and never panics.
#[test]
fn hostile_spans_and_edits_do_not_panic() {
    let long = format!("sglang serve --x {}é\t\u{1b}\r\n", "日".repeat(500));
    for text in ["", "é", "a\nb", long.as_str()] {
        for (s, e) in [(0, 0), (0, 1), (1, 2), (3, 1), (0, usize::MAX), (usize::MAX, usize::MAX), (2, 900), (1000, 1001)] {
            let d = diagnostic("X1", Span::new(s, e)).with_fix(Fix {
                title: "t".into(),
                applicability: Applicability::Safe,
                edits: vec![Edit { start: s, end: e, replacement: "r".into() }, Edit { start: 1, end: 2, replacement: "q\n".into() }],
            });
            let mut report = report_with(Span::new(e, s), vec![d.clone()]);
            report.diagnostics.push(d);
            let out = render(text, &report);
            assert!(out.contains("[1] X1"), "{out}");
        }
    }
}
