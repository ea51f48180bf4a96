//! One pasted text (stdin, or one shell file named): today's report, unchanged, so the tools
//! and tests that read it keep working.

use sglang_preflight::diagnostic::Severity;
use std::fmt::Write;

pub fn print_text(text: &str, report: &sglang_preflight::Report) {
    super::emit(&render_text(text, report));
}

fn render_text(text: &str, report: &sglang_preflight::Report) -> String {
    let mut out = String::new();
    // Line starts, once: each lookup is a binary search (a paste can carry 10^5 findings).
    let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let line_of = |at: usize| starts.partition_point(|&s| s <= at).max(1);
    for d in &report.diagnostics {
        let _ = writeln!(out, "{}: {} [{}]", sev(d.severity), d.message, d.code);
    }
    for (i, c) in report.commands.iter().enumerate() {
        let _ = writeln!(out, "command {} (line {}): {}", i + 1, line_of(c.span.start), if c.accepted { "accepted" } else { "rejected" });
        for m in c.model.iter().chain(&c.draft_model) {
            let role = if m.flag == "model_path" { "model" } else { "draft model" };
            let _ = writeln!(out, "  {role}: {}", m.summary);
        }
        for d in &c.diagnostics {
            let exc = d.exception.as_deref().map(|e| format!("{e}: ")).unwrap_or_default();
            let _ = writeln!(out, "  {} [{}] line {}: {}{}", sev(d.severity), d.code, line_of(d.span.start), exc, d.message);
            for f in &d.fixes {
                let _ = writeln!(out, "    fix: {}", f.title);
            }
        }
        if let Some(note) = sglang_preflight::summary::commands_not_run_note(std::iter::once(c)) {
            let _ = writeln!(out, "  not run here: {note}");
        }
    }
    if report.parser_only {
        if let Some(note) = sglang_preflight::summary::report_not_run_note(report) {
            let _ = writeln!(out, "{note}");
        }
    }
    // The page's verdict line, word for word.
    let _ = writeln!(out, "{}.", sglang_preflight::summary::verdict(report));
    out
}

fn sev(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// `--compare-releases`: the other releases whose parsers judge the text differently, and how.
pub fn other_releases_text(checked: &str, others: &[sglang_preflight::changes::ReleaseDifference]) -> String {
    let mut out = String::new();
    if others.is_empty() {
        let _ = writeln!(out, "Every other carried SGLang release parses this command as {checked} does.");
        return out;
    }
    for o in others {
        let verdict = if o.parser_accepts { "its command-line parser accepts it" } else { "its command-line parser rejects it" };
        let _ = writeln!(out, "On SGLang {}: {verdict}.", o.sglang_version);
        for d in &o.only_there {
            let exc = d.exception.as_deref().map(|e| format!("{e}: ")).unwrap_or_default();
            let _ = writeln!(out, "  only on {}: [{}] {exc}{}", o.sglang_version, d.code, d.message);
            for f in &d.fixes {
                let _ = writeln!(out, "    fix there: {}", f.title);
            }
        }
        for d in &o.only_here {
            let exc = d.exception.as_deref().map(|e| format!("{e}: ")).unwrap_or_default();
            let _ = writeln!(out, "  only on {checked}: [{}] {exc}{}", d.code, d.message);
        }
    }
    out
}

/// `--show-resolved`: "What SGLang will run with", per accepted command.
pub fn resolved_text(report: &sglang_preflight::Report) -> String {
    use sglang_preflight::resolved::UnknownReason;
    let mut out = String::new();
    for (i, c) in report.commands.iter().enumerate() {
        let Some(r) = &c.resolved else { continue };
        let _ = writeln!(out, "What SGLang will run with (command {}; * not the flag's default):", i + 1);
        let width = r.values.iter().map(|v| v.field.len()).max().unwrap_or(0);
        for v in &r.values {
            let mark = if v.differs_from_default { '*' } else { ' ' };
            let by = v.set_by.map(|s| format!("  set by {s}")).unwrap_or_default();
            let pin = v.pin().map(|p| format!("  (pin: {})", p.title.trim_start_matches("Pin "))).unwrap_or_default();
            let _ = writeln!(out, "  {mark} {:width$} = {}{by}{pin}", v.field, v.repr());
        }
        for (reason, what) in [
            (UnknownReason::NotModelled, "may be set by a step not modelled yet"),
            (UnknownReason::ModelConfig, "needs the model's config"),
            (UnknownReason::UnknownValue, "depends on a value not known here"),
            (UnknownReason::CheckNotRun, "set by a step that could not run all its checks here"),
        ] {
            let names: Vec<&str> = r.unknown.iter().filter(|u| u.reason == reason).map(|u| u.field).collect();
            if !names.is_empty() {
                let _ = writeln!(out, "  not known here ({what}): {}", names.join(", "));
            }
        }
    }
    out
}
