//! A report as reviewable plain text: the format of `sglang-preflight check --format snapshot`,
//! of the page's `snapshot()` and of the committed `tests/snapshots/*.snap` files.
//!
//! ```text
//! command 1 (line 1): rejected
//!   1 | python -m sglang.launch_server --model-path m --tp-size 3
//!     |                                                          ^ [1] PAR004
//!   [1] error[PAR004] (sglang, resolve) ValueError: ...
//!       explanation
//!       fix (unsafe): Use --tp-size 2
//!         - python -m sglang.launch_server --model-path m --tp-size 3
//!         + python -m sglang.launch_server --model-path m --tp-size 2
//! ```
//!
//! Carets count displayed characters (one per `char`; a tab stays a tab so it lines up), control
//! characters are shown as their Unicode control pictures (one character each), and an empty
//! span gets one caret where it sits. The output is linear in the input: a line longer than
//! [`LONG_LINE`] bytes is shown as an excerpt around each span or edit instead of whole, and a
//! span over many lines is marked on its first and last few lines.

use crate::check::{CommandReport, Report};
use crate::diagnostic::{apply_edits, Applicability, Diagnostic, Edit, Fix, Severity};
use crate::rules::NotRunReason;
use crate::span::Span;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Lines longer than this (in bytes) are shown as excerpts.
const LONG_LINE: usize = 240;
/// Bytes of context either side of a span or edit in an excerpt of a long line.
const CONTEXT: usize = 40;
/// At most this many bytes of one span or fix are shown in an excerpt of a long line.
const MAX_FOCUS: usize = 160;
/// A span over more lines than this is marked on its first and last `MAX_SPAN_LINES / 2` lines.
const MAX_SPAN_LINES: usize = 8;

/// Render `report` (the result of checking `text`) as plain text.
pub fn render(text: &str, report: &Report) -> String {
    let lines = Lines::new(text);
    let mut out = String::new();
    let verdict = if report.accepted { "accept" } else { "reject" };
    let _ = writeln!(out, "SGLang {} on {} would {verdict} this.", report.sglang_version, report.hardware);
    if !report.diagnostics.is_empty() {
        let _ = writeln!(out, "\ntext:");
        render_block(&mut out, &lines, None, &report.diagnostics, 1);
    }
    let mut number = report.diagnostics.len() + 1;
    for (i, c) in report.commands.iter().enumerate() {
        let verdict = if c.accepted { "accepted" } else { "rejected" };
        let _ = writeln!(out, "\ncommand {} (line {}): {verdict}", i + 1, lines.line_of(c.span.start) + 1);
        render_block(&mut out, &lines, Some(c.span), &c.diagnostics, number);
        number += c.diagnostics.len();
        render_not_run(&mut out, c);
    }
    out
}

/// Source lines (those of `command` and those the diagnostics touch) with carets, then the
/// diagnostics, numbered from `first`.
fn render_block(out: &mut String, lines: &Lines, command: Option<Span>, diags: &[Diagnostic], first: usize) {
    // Marks per line, in diagnostic order: (diagnostic number, code, byte range on that line).
    let mut marks: BTreeMap<usize, Vec<(usize, &str, usize, usize)>> = BTreeMap::new();
    for (i, d) in diags.iter().enumerate() {
        let span = lines.clamp(d.span);
        for (line, start, end) in lines.pieces(span) {
            marks.entry(line).or_default().push((first + i, d.code.as_str(), start, end));
        }
    }
    let command_lines = command.map(|c| {
        let c = lines.clamp(c);
        (lines.line_of(c.start), lines.line_of(c.end.saturating_sub(1).max(c.start)))
    });
    let width = lines.count().to_string().len();
    // Lines in order: those marked before the command, the command's own, those marked after.
    let (from, to) = command_lines.unwrap_or((usize::MAX, usize::MAX));
    let before = marks.range(..from).map(|(&l, _)| l);
    let own = (from..=to).take_while(|_| command_lines.is_some());
    let after = marks.range(to.saturating_add(1)..).map(|(&l, _)| l).filter(|_| command_lines.is_some());
    let mut previous: Option<usize> = None;
    for line in before.chain(own).chain(after) {
        if previous.is_some_and(|p| line > p + 1) {
            let _ = writeln!(out, "  {:>width$} | …", "");
        }
        previous = Some(line);
        render_line(out, lines, line, width, marks.get(&line).map(Vec::as_slice).unwrap_or_default());
    }
    for (i, d) in diags.iter().enumerate() {
        render_diagnostic(out, lines, first + i, d);
    }
}

/// One source line, then a caret line for each mark on it. A long line is shown as its start
/// and each mark with its own excerpt.
fn render_line(out: &mut String, lines: &Lines, line: usize, width: usize, marks: &[(usize, &str, usize, usize)]) {
    let (ls, le) = lines.bounds(line);
    let text = lines.text;
    let number = line + 1;
    if le - ls <= LONG_LINE {
        let _ = writeln!(out, "  {number:>width$} | {}", display(text.get(ls..le).unwrap_or_default()));
        for &(n, code, start, end) in marks {
            let _ = writeln!(out, "  {:>width$} | {} [{n}] {code}", "", carets(text, ls, start, end));
        }
        return;
    }
    let head = excerpt(text, ls, le, ls, ls);
    let _ = writeln!(out, "  {number:>width$} | {} ({} bytes)", head.shown, le - ls);
    for &(n, code, start, end) in marks {
        let e = excerpt(text, ls, le, start, end);
        let _ = writeln!(out, "  {:>width$} | {}", "", e.shown);
        let _ = writeln!(out, "  {:>width$} | {} [{n}] {code}", "", carets(&e.shown, 0, e.focus_start, e.focus_end));
    }
}

fn render_diagnostic(out: &mut String, lines: &Lines, number: usize, d: &Diagnostic) {
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    };
    let origin = serde_name(&d.origin);
    let stage = serde_name(&d.stage);
    let exception = d.exception.as_deref().map(|e| format!("{e}: ")).unwrap_or_default();
    let span = lines.clamp(d.span);
    let (line, end_line) = (lines.line_of(span.start) + 1, lines.line_of(span.end.saturating_sub(1).max(span.start)) + 1);
    let at = if end_line > line { format!("lines {line}-{end_line}") } else { format!("line {line}") };
    let _ = writeln!(out, "  [{number}] {severity}[{}] ({origin}, {stage}) {exception}{}", d.code, indent(&d.message, "      "));
    let _ = writeln!(out, "      at {at}");
    if !d.explanation.is_empty() {
        let _ = writeln!(out, "      {}", indent(&d.explanation, "      "));
    }
    for f in &d.fixes {
        render_fix(out, lines, f);
    }
}

fn render_fix(out: &mut String, lines: &Lines, fix: &Fix) {
    let applicability = match fix.applicability {
        Applicability::Safe => "safe",
        Applicability::Unsafe => "unsafe",
        Applicability::Display => "advice",
    };
    let _ = writeln!(out, "      fix ({applicability}): {}", indent(&fix.title, "        "));
    if fix.edits.is_empty() {
        return;
    }
    let text = lines.text;
    let start = fix.edits.iter().map(|e| e.start).min().unwrap_or(0);
    let end = fix.edits.iter().map(|e| e.end).max().unwrap_or(0);
    if start > text.len() || end > text.len() || start > end {
        let _ = writeln!(out, "        (its edits lie outside the text)");
        return;
    }
    // The affected lines, or an excerpt of them when they are long.
    let (ls, _) = lines.bounds(lines.line_of(start));
    let (_, le) = lines.bounds(lines.line_of(end));
    let (from, to, lead, trail) = if le - ls <= LONG_LINE {
        (ls, le, "", "")
    } else {
        let from = floor_boundary(text, start.saturating_sub(CONTEXT).max(ls));
        let to = ceil_boundary(text, end.saturating_add(CONTEXT).min(le));
        (from, to, if from > ls { "…" } else { "" }, if to < le { "…" } else { "" })
    };
    let region = text.get(from..to).unwrap_or_default();
    let shifted: Vec<Edit> = fix
        .edits
        .iter()
        .map(|e| Edit { start: e.start - from.min(e.start), end: e.end - from.min(e.end), replacement: e.replacement.clone() })
        .collect();
    let Some(after) = apply_edits(region, &shifted) else {
        let _ = writeln!(out, "        (its edits do not apply: they overlap or split a character)");
        return;
    };
    for l in clip_long(region).split('\n') {
        let _ = writeln!(out, "        - {lead}{}{trail}", display(l));
    }
    for l in clip_long(&after).split('\n') {
        let _ = writeln!(out, "        + {lead}{}{trail}", display(l));
    }
}

/// An excerpt is bounded, but edits far apart on a long line, or a long replacement, are not:
/// keep the shown text bounded too.
fn clip_long(s: &str) -> String {
    let limit = 2 * (MAX_FOCUS + 2 * CONTEXT);
    if s.len() <= limit {
        return s.to_string();
    }
    let cut = floor_boundary(s, limit);
    format!("{}… ({} bytes more)", s.get(..cut).unwrap_or_default(), s.len() - cut)
}

fn render_not_run(out: &mut String, c: &CommandReport) {
    for n in &c.not_run {
        let reason = match n.reason {
            NotRunReason::ModelConfig => "needs the model's config",
            NotRunReason::Files => "needs files",
            NotRunReason::Network => "needs the network",
            NotRunReason::NotImplemented => "not modelled yet",
            NotRunReason::UnknownValue => "depends on a value not known here",
            NotRunReason::Hardware => "needs hardware without a profile here",
        };
        let _ = writeln!(out, "  not run: {} ({reason})", n.site);
    }
    if c.not_modelled_hooks > 0 {
        let _ = writeln!(out, "  not modelled: {} of SGLang's start-up hooks on this path", c.not_modelled_hooks);
    }
}

/// The lowercase name serde gives an enum value (the JSON report's spelling).
fn serde_name<T: serde::Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => "?".to_string(),
    }
}

/// Continuation lines of a multi-line message indented under its first line.
fn indent(s: &str, by: &str) -> String {
    display_keeping_newlines(s).replace('\n', &format!("\n{by}"))
}

/// Control characters as their Unicode control pictures: one character each, so carets stay
/// aligned and the snapshot stays plain text. A tab stays a tab.
fn display(s: &str) -> String {
    s.chars().map(picture).collect()
}

fn display_keeping_newlines(s: &str) -> String {
    s.chars().map(|c| if c == '\n' { c } else { picture(c) }).collect()
}

fn picture(c: char) -> char {
    match c {
        '\t' => '\t',
        c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32).unwrap_or('?'),
        '\u{7f}' => '\u{2421}',
        c => c,
    }
}

/// Spaces (tabs kept) under `text[line_start..start]`, then a caret per character of
/// `text[start..end]` (at least one).
fn carets(text: &str, line_start: usize, start: usize, end: usize) -> String {
    let prefix: String = text.get(line_start..start).unwrap_or_default().chars().map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
    let n = text.get(start..end).unwrap_or_default().chars().count().max(1);
    format!("{prefix}{}", "^".repeat(n))
}

/// A bounded excerpt of the line `[ls, le)` around `[start, end)`; `focus_*` are byte offsets
/// of that range in `shown`.
struct Excerpt {
    shown: String,
    focus_start: usize,
    focus_end: usize,
}

fn excerpt(text: &str, ls: usize, le: usize, start: usize, end: usize) -> Excerpt {
    let end = end.min(floor_boundary(text, start.saturating_add(MAX_FOCUS).min(le)).max(start));
    let from = floor_boundary(text, start.saturating_sub(CONTEXT).max(ls));
    let to = ceil_boundary(text, end.saturating_add(CONTEXT).min(le));
    let lead = if from > ls { "…" } else { "" };
    let before = display(text.get(from..start).unwrap_or_default());
    let focus = display(text.get(start..end).unwrap_or_default());
    let after = display(text.get(end..to).unwrap_or_default());
    let trail = if to < le { "…" } else { "" };
    let focus_start = lead.len() + before.len();
    Excerpt { shown: format!("{lead}{before}{focus}{after}{trail}"), focus_start, focus_end: focus_start + focus.len() }
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// Line starts of the text, once: each lookup is a binary search.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Lines { text, starts }
    }

    fn count(&self) -> usize {
        self.starts.len()
    }

    /// 0-based line holding byte `at`.
    fn line_of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at).saturating_sub(1)
    }

    /// Byte range of a line, without its newline.
    fn bounds(&self, line: usize) -> (usize, usize) {
        let start = self.starts.get(line).copied().unwrap_or(self.text.len());
        let end = self.starts.get(line + 1).map(|&s| s - 1).unwrap_or(self.text.len());
        (start, end.max(start))
    }

    /// The span inside the text and on character boundaries.
    fn clamp(&self, span: Span) -> Span {
        let start = floor_boundary(self.text, span.start);
        Span::new(start, floor_boundary(self.text, span.end).max(start))
    }

    /// (line, start, end) for each line the span covers; an empty span, or one holding only a
    /// newline, is a point on its line. A span over many lines is given on its first and last few.
    fn pieces(&self, span: Span) -> Vec<(usize, usize, usize)> {
        let first = self.line_of(span.start);
        let last = if span.is_empty() { first } else { self.line_of(span.end - 1) };
        let half = MAX_SPAN_LINES / 2;
        let shown = |l: usize| last - first < MAX_SPAN_LINES || l < first + half || l + half > last;
        let mut out = Vec::new();
        for line in (first..=last).filter(|&l| shown(l)) {
            let (ls, le) = self.bounds(line);
            let start = span.start.max(ls).min(le);
            let end = span.end.min(le).max(start);
            out.push((line, start, end));
            if !shown(line + 1) && line < last {
                // skip to the last few lines without visiting the middle ones
                for tail in (last + 1 - half.min(last + 1))..=last {
                    if tail > line {
                        let (ls, le) = self.bounds(tail);
                        let start = span.start.max(ls).min(le);
                        out.push((tail, start, span.end.min(le).max(start)));
                    }
                }
                break;
            }
        }
        out
    }
}
