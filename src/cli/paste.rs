//! One pasted text (stdin, or one shell file named): today's report, unchanged, so the tools
//! and tests that read it keep working.

use sglang_preflight::diagnostic::Severity;

pub fn print_text(text: &str, report: &sglang_preflight::Report) {
    // Line starts, once: each lookup is a binary search (a paste can carry 10^5 findings).
    let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let line_of = |at: usize| starts.partition_point(|&s| s <= at).max(1);
    for d in &report.diagnostics {
        println!("{}: {} [{}]", sev(d.severity), d.message, d.code);
    }
    for (i, c) in report.commands.iter().enumerate() {
        println!("command {} (line {}): {}", i + 1, line_of(c.span.start), if c.accepted { "accepted" } else { "rejected" });
        for d in &c.diagnostics {
            let exc = d.exception.as_deref().map(|e| format!("{e}: ")).unwrap_or_default();
            println!("  {} [{}] line {}: {}{}", sev(d.severity), d.code, line_of(d.span.start), exc, d.message);
            for f in &d.fixes {
                println!("    fix: {}", f.title);
            }
        }
        if let Some(note) = sglang_preflight::summary::not_run_note(&c.not_run, c.not_modelled_hooks) {
            println!("  not run here: {note}");
        }
    }
    // The page's verdict line, word for word.
    println!("{}.", sglang_preflight::summary::verdict(report));
}

fn sev(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}
