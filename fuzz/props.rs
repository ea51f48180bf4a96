//! Properties every input must satisfy, shared by the fuzz targets (`fuzz/fuzz_targets/*.rs`)
//! and `tests/properties.rs` (which includes this file with `#[path]`).
//!
//! Each function returns the list of violations (empty = fine) instead of panicking, so the
//! test can report them all and the fuzz targets can turn them into a crash.

use sglang_preflight::diagnostic::{apply_edits, Diagnostic};
use sglang_preflight::frontend::{self, ConfigFiles};
use sglang_preflight::invocation::{self, Entry, Invocation};
use sglang_preflight::shell::{self, Word};
use sglang_preflight::span::Span;
use sglang_preflight::{argparse, check, schema, CheckOptions, Report};

/// Separator between the command text and the YAML config in a `check` fuzz input.
pub const YAML_SEPARATOR: &str = "\n%%%yaml%%%\n";

/// The config-file names a fuzz/test command may refer to (`--config cfg.yaml`), plus the
/// empty name the CLI uses for `--config-file`.
pub const CONFIG_NAMES: [&str; 4] = ["", "cfg.yaml", "config.yaml", "c.yaml"];

/// Split a `check` fuzz input into the command text and an optional YAML config.
pub fn split_input(data: &[u8]) -> (String, Option<String>) {
    let all = String::from_utf8_lossy(data).into_owned();
    match all.split_once(YAML_SEPARATOR) {
        Some((cmd, yaml)) => (cmd.to_string(), Some(yaml.to_string())),
        None => (all, None),
    }
}

pub fn options(yaml: Option<&str>) -> CheckOptions {
    let mut opts = CheckOptions::default();
    if let Some(y) = yaml {
        for name in CONFIG_NAMES {
            opts.config_files.insert(name.to_string(), y.to_string());
        }
    }
    opts
}

fn span_problem(text: &str, what: &str, s: Span) -> Option<String> {
    if s.start > s.end || s.end > text.len() {
        return Some(format!("{what}: span {}..{} outside the input (len {})", s.start, s.end, text.len()));
    }
    if !text.is_char_boundary(s.start) || !text.is_char_boundary(s.end) {
        return Some(format!("{what}: span {}..{} not on char boundaries", s.start, s.end));
    }
    None
}

fn diag_problems(text: &str, where_: &str, d: &Diagnostic, out: &mut Vec<String>) {
    let what = format!("{where_} [{}] {:?}", d.code, d.message);
    // SGLang's bare `assert cond` raises AssertionError with an empty message, and we report
    // SGLang's message exactly: that is the one diagnostic allowed to have none.
    let bare_assert = d.message.is_empty() && d.exception.as_deref() == Some("AssertionError");
    if d.code.is_empty() || (d.message.is_empty() && !bare_assert) {
        out.push(format!("{what}: empty code or message"));
    }
    out.extend(span_problem(text, &what, d.span));
    for f in &d.fixes {
        for e in &f.edits {
            out.extend(span_problem(text, &format!("{what} fix {:?} edit", f.title), Span::new(e.start, e.end)));
        }
        if apply_edits(text, &f.edits).is_none() {
            out.push(format!("{what}: fix {:?} does not apply (overlapping or bad edits)", f.title));
        }
    }
}

fn all_diagnostics(r: &Report) -> Vec<(&'static str, &Diagnostic)> {
    let mut v: Vec<(&'static str, &Diagnostic)> = r.diagnostics.iter().map(|d| ("report", d)).collect();
    for c in &r.commands {
        v.extend(c.diagnostics.iter().map(|d| ("command", d)));
    }
    v
}

/// Spans in bounds and on char boundaries, fixes apply, same report twice. With
/// `fix_budget > 0`, also re-check the text after applying up to that many fixes: it must
/// not panic, and the fixed diagnostic (same code, same span start) must be gone or moved.
pub fn check_properties(text: &str, opts: &CheckOptions, fix_budget: usize) -> Vec<String> {
    let mut out = Vec::new();
    let r1 = check(text, opts);
    let r2 = check(text, opts);
    let j1 = serde_json::to_string(&r1).unwrap_or_default();
    let j2 = serde_json::to_string(&r2).unwrap_or_default();
    if j1 != j2 {
        out.push(format!("not deterministic: {} vs {}", first_difference(&j1, &j2).0, first_difference(&j1, &j2).1));
    }
    for (where_, d) in all_diagnostics(&r1) {
        diag_problems(text, where_, d, &mut out);
    }
    for (i, c) in r1.commands.iter().enumerate() {
        out.extend(span_problem(text, &format!("command {i}"), c.span));
    }
    let mut budget = fix_budget;
    for (_, d) in all_diagnostics(&r1) {
        for f in &d.fixes {
            if budget == 0 || f.edits.is_empty() {
                continue;
            }
            budget -= 1;
            let Some(fixed) = apply_edits(text, &f.edits) else { continue };
            let r3 = check(&fixed, opts);
            if all_diagnostics(&r3).iter().any(|(_, e)| e.code == d.code && e.span.start == d.span.start && e.message == d.message) {
                out.push(format!(
                    "fix {:?} of [{}] {:?} at {} leaves the same diagnostic: {:?}",
                    f.title, d.code, d.message, d.span.start, fixed
                ));
            }
        }
    }
    out
}

fn first_difference(a: &str, b: &str) -> (String, String) {
    let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let from = at.saturating_sub(60);
    let cut = |s: &str| s.get(from..).map(|t| t.chars().take(160).collect::<String>()).unwrap_or_default();
    (cut(a), cut(b))
}

fn word_problems(text: &str, what: &str, w: &Word, out: &mut Vec<String>) {
    out.extend(span_problem(text, what, w.span));
    if let Some(map) = &w.map {
        if map.len() != w.text.len() {
            out.push(format!("{what}: map has {} entries for {} bytes", map.len(), w.text.len()));
        }
        if let Some(bad) = map.iter().find(|&&m| m > text.len()) {
            out.push(format!("{what}: map entry {bad} outside the input"));
        }
    }
    // The sub-spans argparse takes: prefixes and suffixes at every char boundary.
    let len = w.text.len();
    for (b, _) in w.text.char_indices().chain(std::iter::once((len, ' '))) {
        out.extend(span_problem(text, &format!("{what} sub_span(0, {b})"), w.sub_span(0, b)));
        out.extend(span_problem(text, &format!("{what} sub_span({b}, {len})"), w.sub_span(b, len)));
        if out.len() > 20 {
            return;
        }
    }
}

/// `shell::parse` and `invocation::locate`: spans and words, and determinism.
pub fn shell_properties(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let parsed = shell::parse(text);
    for d in &parsed.diagnostics {
        diag_problems(text, "shell", d, &mut out);
    }
    for (i, c) in parsed.commands.iter().enumerate() {
        out.extend(span_problem(text, &format!("shell command {i}"), c.span));
        for a in &c.assignments {
            out.extend(span_problem(text, &format!("shell command {i} assignment {}", a.name), a.span));
        }
        for (j, w) in c.words.iter().enumerate() {
            word_problems(text, &format!("shell command {i} word {j}"), w, &mut out);
        }
    }
    let located = invocation::locate(&parsed);
    for d in &located.diagnostics {
        diag_problems(text, "invocation", d, &mut out);
    }
    for (i, inv) in located.invocations.iter().enumerate() {
        out.extend(span_problem(text, &format!("invocation {i}"), inv.span));
        out.extend(span_problem(text, &format!("invocation {i} launcher"), inv.launcher));
        for (j, w) in inv.args.iter().enumerate() {
            word_problems(text, &format!("invocation {i} arg {j}"), w, &mut out);
        }
    }
    let again = shell::parse(text);
    if format!("{:?}", again.commands) != format!("{:?}", parsed.commands)
        || format!("{:?}", again.diagnostics) != format!("{:?}", parsed.diagnostics)
    {
        out.push("shell::parse not deterministic".to_string());
    }
    let again = invocation::locate(&again);
    if format!("{:?}", again.invocations) != format!("{:?}", located.invocations)
        || format!("{:?}", again.diagnostics) != format!("{:?}", located.diagnostics)
    {
        out.push("invocation::locate not deterministic".to_string());
    }
    out
}

/// The words of `text` split at ASCII whitespace, each verbatim with its span.
pub fn plain_words(text: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        let blank = c.is_ascii_whitespace();
        match (start, blank) {
            (None, false) => start = Some(i),
            (Some(s), true) => {
                words.push(Word::verbatim(text.get(s..i).unwrap_or(""), Span::new(s, i)));
                start = None;
            }
            _ => {}
        }
    }
    words
}

/// The front end and argparse over the plain words of `text` (no shell), for both entry
/// points: spans of settings and diagnostics, and determinism.
pub fn argparse_properties(text: &str, config: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    let Some(schema) = schema::get(schema::DEFAULT_VERSION) else {
        return vec!["no default schema".to_string()];
    };
    let mut files = ConfigFiles::new();
    if let Some(y) = config {
        for name in CONFIG_NAMES {
            files.insert(name.to_string(), y.to_string());
        }
    }
    let args = plain_words(text);
    for entry in [Entry::LaunchServer, Entry::Serve] {
        let run = || {
            let inv = Invocation {
                entry,
                launcher: Span::empty_at(0),
                args: args.clone(),
                env: Vec::new(),
                env_places: Vec::new(),
                span: Span::new(0, text.len()),
                nested: false,
            };
            let fe = frontend::run_with(Some(schema), &inv, &files);
            let parsed = argparse::parse_args_with(schema, &fe.argv, &fe.from_config);
            (fe, parsed)
        };
        let (fe, parsed) = run();
        for d in &fe.diagnostics {
            diag_problems(text, "frontend", d, &mut out);
        }
        for (j, w) in fe.argv.iter().enumerate() {
            word_problems(text, &format!("frontend argv {j}"), w, &mut out);
        }
        for d in &parsed.diagnostics {
            diag_problems(text, "argparse", d, &mut out);
        }
        let mut settings: Vec<String> = Vec::new();
        for (dest, s) in &parsed.namespace.explicit {
            out.extend(span_problem(text, &format!("setting {dest} flag"), s.flag_span));
            out.extend(span_problem(text, &format!("setting {dest} whole"), s.whole_span));
            if let Some(v) = s.value_span {
                out.extend(span_problem(text, &format!("setting {dest} value"), v));
            }
            settings.push(format!("{dest}={s:?}"));
        }
        settings.sort();
        let (fe2, parsed2) = run();
        let mut settings2: Vec<String> = parsed2.namespace.explicit.iter().map(|(d, s)| format!("{d}={s:?}")).collect();
        settings2.sort();
        if settings != settings2
            || format!("{:?}", parsed.diagnostics) != format!("{:?}", parsed2.diagnostics)
            || format!("{:?}{:?}", fe.argv, fe.diagnostics) != format!("{:?}{:?}", fe2.argv, fe2.diagnostics)
        {
            out.push(format!("{entry:?}: front end / argparse not deterministic"));
        }
    }
    out
}
