//! GitHub Actions workflow commands (`::error file=...,line=...,col=...::message`): each
//! finding becomes an annotation on the file and line in the pull request.
//!
//! `endColumn` is the column after the span's last character (as Ruff writes it), so a span
//! of one character has `endColumn = col + 1`.

use super::locate::{self, Locator};
use crate::diagnostic::{Diagnostic, Severity};
use crate::sources::FileReport;
use std::fmt::Write;

/// One workflow command per finding, for checked files, each with the text it was checked in.
pub fn render(files: &[(&FileReport, &str)]) -> String {
    let mut out = String::new();
    for (file, text) in files {
        let locator = Locator::new(text, locate::offsets(file));
        let path = locate::display_path(&file.file);
        for d in locate::findings(file) {
            let start = locator.at(d.span.start);
            let end = locator.at(d.span.end.max(d.span.start));
            let _ = writeln!(
                out,
                "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                command(d.severity),
                escape_property(&path),
                start.line,
                start.column,
                end.line,
                end.column,
                escape_property(&d.code),
                escape_data(&annotation(d)),
            );
        }
    }
    out
}

fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// SGLang's exception and message first (the annotation's headline), then why and the fixes.
fn annotation(d: &Diagnostic) -> String {
    let mut text = super::sarif::message_text(d);
    if !d.explanation.is_empty() {
        text.push_str("\n\n");
        text.push_str(&d.explanation);
    }
    for fix in &d.fixes {
        text.push_str("\nFix: ");
        text.push_str(&fix.title);
    }
    text
}

/// A command's message, escaped as GitHub's toolkit does (`%`, CR, LF).
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A command property's value: as data, plus the `:` and `,` that delimit properties.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}
