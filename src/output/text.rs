//! Checked files as compilers print them: one `path:line:col: error[CODE] Exception: message`
//! line per finding, its explanation and fixes indented below, and a closing summary.
//!
//! ```text
//! docs/serve.md:12:38: error[ARG008] SystemExit: unrecognized arguments: --tp 2
//!     argparse stops at words it does not know; ...
//!     fix (safe): Use --tp-size 2
//!
//! SGLang 0.5.23 on 8×H100 would reject 1 of 3 launches in 2 files (40 files read): 1 error
//! Not run here: 39 of SGLang's start-up hooks are not modelled yet.
//! ```

use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::sources::FileReport;
use crate::summary::{counts_text, Counts};
use std::fmt::Write;

/// Line starts of a text, for many line/column look-ups (a binary search each).
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        LineIndex { text, starts: std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect() }
    }

    /// 1-based line and character column of byte `at` (clamped to the text).
    pub fn line_column(&self, at: usize) -> (usize, usize) {
        let at = at.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= at).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let column = self.text.get(start..at).map(|s| s.chars().count()).unwrap_or(at - start) + 1;
        (line, column)
    }
}

/// The word compilers use for a severity.
pub fn severity_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn applicability_word(applicability: Applicability) -> &'static str {
    match applicability {
        Applicability::Safe => "safe",
        Applicability::Unsafe => "unsafe",
        Applicability::Display => "advice",
    }
}

/// Every finding of the files, in file order and, within a file, in text order.
pub fn render(files: &[(&FileReport, &str)]) -> String {
    let mut out = String::new();
    for (file, text) in files {
        let lines = LineIndex::new(text);
        let mut findings: Vec<&Diagnostic> = file.diagnostics.iter().chain(file.commands.iter().flat_map(|c| c.command.diagnostics.iter())).collect();
        // Stable: findings at one place keep the order SGLang meets them in.
        crate::sorting::sort_by_key(&mut findings, |d| d.span.start);
        for d in findings {
            write_finding(&mut out, &file.file, &lines, d);
        }
    }
    out
}

fn write_finding(out: &mut String, path: &str, lines: &LineIndex, d: &Diagnostic) {
    let (line, column) = lines.line_column(d.span.start);
    let exception = d.exception.as_deref().map(|e| format!("{e}: ")).unwrap_or_default();
    let _ = writeln!(out, "{path}:{line}:{column}: {}[{}] {exception}{}", severity_word(d.severity), d.code, indented(&d.message));
    if !d.explanation.is_empty() {
        let _ = writeln!(out, "    {}", indented(&d.explanation));
    }
    for fix in &d.fixes {
        let _ = writeln!(out, "    fix ({}): {}", applicability_word(fix.applicability), indented(&fix.title));
    }
}

/// Later lines of a multi-line text indented under the first.
fn indented(text: &str) -> String {
    text.trim_end().replace('\n', "\n    ")
}

/// What the files come to, in numbers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Files read (a walk's files of a known kind, and the files named).
    pub files_read: usize,
    /// Files holding at least one launch.
    pub files_with_launches: usize,
    pub launches: usize,
    pub rejected: usize,
    /// Accepted launches some of whose checks did not run ([`crate::summary::command_complete`]).
    pub accepted_partly: usize,
    pub counts: Counts,
}

impl Totals {
    pub fn of(files: &[&FileReport], files_read: usize) -> Totals {
        let mut t = Totals { files_read, ..Totals::default() };
        for f in files {
            t.files_with_launches += usize::from(!f.commands.is_empty());
            t.launches += f.commands.len();
            t.rejected += f.commands.iter().filter(|c| !c.command.accepted).count();
            t.accepted_partly += f.commands.iter().filter(|c| c.command.accepted && !crate::summary::command_complete(&c.command)).count();
            for d in f.diagnostics.iter().chain(f.commands.iter().flat_map(|c| c.command.diagnostics.iter())) {
                match d.severity {
                    Severity::Error => t.counts.errors += 1,
                    Severity::Warning => t.counts.warnings += 1,
                    Severity::Info => t.counts.notes += 1,
                }
            }
        }
        t
    }
}

/// The closing line: who judged, what SGLang would do with the launches found, the counts.
/// `judge` is "SGLang 0.5.23 on 8×H100".
pub fn summary(judge: &str, t: Totals) -> String {
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let files = plural(t.files_read, "file read", "files read");
    let found = counts_text(t.counts);
    let tail = if found.is_empty() { String::new() } else { format!(": {found}") };
    if t.launches == 0 {
        return format!("{judge}: no launch command found ({files}){tail}");
    }
    let launches = plural(t.launches, "launch", "launches");
    let within = format!("in {} ({files})", plural(t.files_with_launches, "file", "files"));
    if t.rejected == 0 {
        let which = if t.launches == 1 { "the launch".to_string() } else { format!("all {launches}") };
        let partly = if t.accepted_partly > 0 { " as far as the checks that ran can tell" } else { "" };
        format!("{judge} would accept {which} {within}{partly}{tail}")
    } else {
        let which = if t.launches == 1 { "the launch".to_string() } else { format!("{} of {launches}", t.rejected) };
        format!("{judge} would reject {which} {within}{tail}")
    }
}

/// What was not checked across the files' launches (checks summed, hooks as the most of one
/// launch), so an accept never hides it: "Not run here: 3 checks need the model's config; ...".
pub fn not_run_line(files: &[&FileReport]) -> Option<String> {
    let commands = files.iter().flat_map(|f| f.commands.iter().map(|c| &c.command));
    crate::summary::commands_not_run_note(commands).map(|note| format!("Not run here: {note}."))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)] // a failed expectation fails the test
mod tests {
    use super::*;
    use crate::sources::{check_file, Kind};
    use crate::CheckOptions;

    #[test]
    fn line_and_column_count_characters_from_one() {
        let text = "ab\n×y\n";
        let lines = LineIndex::new(text);
        assert_eq!(lines.line_column(0), (1, 1));
        assert_eq!(lines.line_column(3), (2, 1));
        assert_eq!(lines.line_column(5), (2, 2)); // after the two-byte ×
        assert_eq!(lines.line_column(99), (3, 1));
    }

    #[test]
    fn a_finding_is_one_compiler_line_with_its_explanation_and_fixes_below() {
        let text = "#!/bin/sh\npython -m sglang.launch_server --model-path m --tool-call-parser lama3\n";
        let report = check_file("run.sh", Kind::Shell, text, &CheckOptions::default());
        let out = render(&[(&report, text)]);
        let first = out.lines().next().unwrap();
        let column = text.find("lama3").unwrap() - text.find('\n').unwrap();
        assert!(first.starts_with(&format!("run.sh:2:{column}: error[")), "{out}");
        assert!(out.lines().any(|l| l.starts_with("    fix (")), "{out}");
    }

    #[test]
    fn the_summary_says_what_sglang_would_do_with_the_launches() {
        let judge = "SGLang 0.5.23 on 8×H100";
        let none = Totals { files_read: 3, ..Totals::default() };
        assert_eq!(summary(judge, none), "SGLang 0.5.23 on 8×H100: no launch command found (3 files read)");
        let counts = Counts { errors: 2, warnings: 1, notes: 0 };
        let some = Totals { files_read: 40, files_with_launches: 2, launches: 3, rejected: 1, accepted_partly: 1, counts };
        assert_eq!(summary(judge, some), "SGLang 0.5.23 on 8×H100 would reject 1 of 3 launches in 2 files (40 files read): 2 errors, 1 warning");
        let one = Totals { files_read: 1, files_with_launches: 1, launches: 1, rejected: 0, accepted_partly: 0, counts: Counts::default() };
        assert_eq!(summary(judge, one), "SGLang 0.5.23 on 8×H100 would accept the launch in 1 file (1 file read)");
        // an accept some of whose checks did not run says so
        let partly = Totals { accepted_partly: 1, ..one };
        assert_eq!(summary(judge, partly), "SGLang 0.5.23 on 8×H100 would accept the launch in 1 file (1 file read) as far as the checks that ran can tell");
    }
}
