//! Moving a command from one SGLang release to another: each difference the move makes to this
//! command, as a migration note with its fixes. The flags the command writes are matched with the
//! flag changes between the two releases' schemas ([`crate::changes::between`]); defaults the
//! command relies on that change are listed with a fix that pins the old value; and the findings
//! of checking the command on each release are compared, so an error that appears (or goes) with
//! the move is explained where it is.

use crate::changes::{self, FlagChange};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Origin, Severity};
use crate::flag_edit::{self, FlagValue, ShownValue, WrittenSetting};
use crate::schema::{self, Action, Schema};
use crate::span::Span;
use crate::{check, CheckOptions, Report};
use serde::Serialize;
use serde_json::Value;

/// What a note is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoteKind {
    /// A flag the command writes is gone in the target release.
    Removed,
    /// A flag the command writes is spelled differently in the target release.
    Renamed,
    /// A flag the command writes takes other values, types or arity, or became deprecated.
    Changed,
    /// A default the command relies on (it does not write the flag) changes.
    DefaultChanged,
    /// The target release reports a finding the original one does not.
    NewFinding,
    /// The original release reports a finding the target one does not.
    FindingGone,
}

/// One difference the move makes to one command.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MigrationNote {
    pub kind: NoteKind,
    /// The flag it is about, by its main option string in the release that has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// Where in the text (the flag as written, or the finding's span).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// What changes, in plain words.
    pub note: String,
    /// The finding behind it, as the release that reports it words it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finding: Option<Diagnostic>,
    pub fixes: Vec<Fix>,
}

/// The move of one launch command.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommandUpgrade {
    /// Which command of the text (0-based).
    pub command: usize,
    pub accepted_before: bool,
    pub accepted_after: bool,
    pub notes: Vec<MigrationNote>,
}

/// A text's move from release `from` to release `to`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Upgrade {
    pub from: String,
    pub to: String,
    /// Only the command line of a release is replayed here (not its later checks), so findings
    /// past the parser are compared only where both releases' checks run.
    pub parser_only: Vec<String>,
    pub commands: Vec<CommandUpgrade>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpgradeError {
    UnknownRelease(String),
}

impl std::fmt::Display for UpgradeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UpgradeError::UnknownRelease(v) => write!(f, "SGLang {v} is not a release this build carries (it has {})", crate::schema::SUPPORTED_VERSIONS.join(", ")),
        }
    }
}

/// The change that concerns `action` of `from` (listed under any of its spellings).
fn change_for<'c>(changes: &'c [FlagChange], action: &Action) -> Option<&'c FlagChange> {
    changes.iter().find(|c| action.option_strings.iter().any(|o| o == c.flag()))
}

/// The value words that give a flag the default `v` again, when one can be written.
fn pinnable(action: &Action, v: &Value) -> Option<FlagValue> {
    let takes_value = !flag_edit::takes_no_value(action);
    match v {
        Value::Bool(b) if action.action == "BooleanOptionalAction" => Some(if *b { FlagValue::On } else { FlagValue::Off }),
        Value::String(s) if takes_value && !s.is_empty() && s != "==SUPPRESS==" => Some(FlagValue::Text(s.clone())),
        Value::Number(n) if takes_value => Some(FlagValue::Text(n.to_string())),
        _ => None,
    }
}

/// The edit that writes `to_option` in place of the option part of a flag word.
fn respell(text: &str, setting: &WrittenSetting, to_option: &str) -> Option<Edit> {
    let span = setting.option_span?;
    (text.get(span.start..span.end) == Some(setting.written.as_str())).then(|| Edit { start: span.start, end: span.end, replacement: to_option.to_string() })
}

fn removal_fix(text: &str, from: &Schema, index: usize, setting: &WrittenSetting, title: String) -> Fix {
    match flag_edit::set_flag_edits(text, from, index, &setting.resolved_option, &FlagValue::Unset) {
        Ok(edits) if !edits.is_empty() => Fix { title, applicability: Applicability::Unsafe, edits },
        _ => Fix::advice(title),
    }
}

/// Notes for the flags the command writes.
fn flag_notes(text: &str, from: &Schema, to: &Schema, index: usize, changes: &[FlagChange], settings: &[WrittenSetting]) -> Vec<MigrationNote> {
    let mut notes = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for s in settings {
        let Some(action) = from.action(&s.resolved_option) else { continue };
        // A flag written twice is one setting: noted once, at its first place.
        if seen.contains(&s.main_option.as_str()) {
            continue;
        }
        seen.push(&s.main_option);
        let span = s.option_span.or(Some(s.whole_span));
        let Some(change) = change_for(changes, action) else {
            // Still there, but this spelling may have gone (`--tp` when the action lost it).
            if to.action(&s.resolved_option).is_none() {
                if let Some(b) = to.action_for_dest(&action.dest) {
                    let new = flag_edit::main_option(b).to_string();
                    let fixes = respell(text, s, &new).map(|e| Fix { title: format!("Write {new}"), applicability: Applicability::Safe, edits: vec![e] }).into_iter().collect();
                    notes.push(MigrationNote {
                        kind: NoteKind::Renamed,
                        flag: Some(s.main_option.clone()),
                        span,
                        note: format!("{} is not spelled {} any more: write {new}.", s.main_option, s.resolved_option),
                        finding: None,
                        fixes,
                    });
                }
            }
            continue;
        };
        match change {
            FlagChange::Removed { advice, .. } => {
                let mut note = format!("{} was removed: nothing sets this setting any more.", s.written);
                if let Some(a) = advice {
                    note.push_str(&format!(" {}", sentence(a)));
                }
                let fix = removal_fix(text, from, index, s, format!("Remove {}", s.written));
                notes.push(MigrationNote { kind: NoteKind::Removed, flag: Some(s.main_option.clone()), span, note, finding: None, fixes: vec![fix] });
            }
            FlagChange::Renamed { to: spellings, .. } => {
                let new = to.action(spellings.first().map(String::as_str).unwrap_or("")).map(flag_edit::main_option).unwrap_or_default().to_string();
                let fixes = respell(text, s, &new).map(|e| Fix { title: format!("Write {new}"), applicability: Applicability::Safe, edits: vec![e] }).into_iter().collect();
                notes.push(MigrationNote {
                    kind: NoteKind::Renamed,
                    flag: Some(s.main_option.clone()),
                    span,
                    note: format!("{} is now spelled {new} (same setting).", s.written),
                    finding: None,
                    fixes,
                });
            }
            FlagChange::Changed { details, .. } => {
                // The flag is given, so a new default does not concern it; choices do only
                // when the value is among those removed.
                let value = match &s.value {
                    ShownValue::Text(v) => Some(format!("{v:?}")),
                    ShownValue::Switch(_) => None,
                };
                let relevant: Vec<&String> = details
                    .iter()
                    .filter(|d| !d.starts_with("default ") && !d.starts_with("choices added") && !d.starts_with("also spelled"))
                    .filter(|d| match d.strip_prefix("choices removed: ") {
                        Some(list) => value.as_ref().is_some_and(|v| list.split(", ").any(|c| c == v)),
                        None => true,
                    })
                    .filter(|d| match d.strip_prefix("no longer spelled ") {
                        Some(list) => list.split(", ").any(|o| o == s.resolved_option),
                        None => true,
                    })
                    .collect();
                if relevant.is_empty() {
                    continue;
                }
                let mut fixes = Vec::new();
                if relevant.iter().any(|d| d.starts_with("no longer spelled ")) {
                    if let Some(b) = to.action_for_dest(&action.dest) {
                        let new = flag_edit::main_option(b).to_string();
                        fixes.extend(respell(text, s, &new).map(|e| Fix { title: format!("Write {new}"), applicability: Applicability::Safe, edits: vec![e] }));
                    }
                }
                let words: Vec<String> = relevant.iter().map(|d| (*d).clone()).collect();
                notes.push(MigrationNote {
                    kind: NoteKind::Changed,
                    flag: Some(s.main_option.clone()),
                    span,
                    note: format!("{} changed: {}.", s.written, words.join("; ")),
                    finding: None,
                    fixes,
                });
            }
            FlagChange::Added { .. } => {}
        }
    }
    notes
}

fn sentence(s: &str) -> String {
    let mut out = s.trim().to_string();
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// Defaults the command relies on (it does not write the flag) that change between the two.
fn default_notes(text: &str, from: &Schema, to: &Schema, index: usize, changes: &[FlagChange], settings: &[WrittenSetting]) -> Vec<MigrationNote> {
    let mut notes = Vec::new();
    for c in changes {
        let FlagChange::Changed { flag, details } = c else { continue };
        let Some(detail) = details.iter().find(|d| d.starts_with("default ")) else { continue };
        let (Some(a), Some(b)) = (from.action(flag), to.action(flag)) else { continue };
        if settings.iter().any(|s| from.action(&s.resolved_option).is_some_and(|x| x.dest == a.dest)) {
            continue;
        }
        let main = flag_edit::main_option(b).to_string();
        let fixes = match pinnable(b, &a.default).map(|v| flag_edit::set_flag_edits(text, to, index, &main, &v)) {
            Some(Ok(edits)) if !edits.is_empty() => {
                let words = edits.iter().map(|e| e.replacement.trim().trim_start_matches('\\').trim()).collect::<Vec<_>>().join(" ");
                vec![Fix { title: format!("Keep the old default: {words}"), applicability: Applicability::Unsafe, edits }]
            }
            _ => Vec::new(),
        };
        let what = detail.trim_start_matches("default ");
        notes.push(MigrationNote {
            kind: NoteKind::DefaultChanged,
            flag: Some(main.clone()),
            span: None,
            note: format!("The default of {main} changes ({what}); this command does not set it, so it runs with the new one."),
            finding: None,
            fixes,
        });
    }
    notes
}

/// The same finding in both releases, though maybe worded differently (an "unrecognized
/// arguments" list that names other flags): same code, same message or overlapping spans.
fn same_finding(a: &Diagnostic, b: &Diagnostic) -> bool {
    a.code == b.code && (a.message == b.message || overlaps(a.span, b.span) || a.span == b.span)
}

fn overlaps(a: Span, b: Span) -> bool {
    a.start < b.end && b.start < a.end
}

/// Whether `n` is a note on a flag the command writes and `d` lies within that flag's words.
fn note_on_flag_holds(n: &MigrationNote, d: &Diagnostic, settings: &[WrittenSetting]) -> bool {
    matches!(n.kind, NoteKind::Removed | NoteKind::Renamed | NoteKind::Changed)
        && settings.iter().any(|s| Some(&s.main_option) == n.flag.as_ref() && s.whole_span.start <= d.span.start && d.span.end <= s.whole_span.end)
}

/// Findings of one release that the other does not give, as notes; a finding on a flag that
/// already has a note joins it instead.
fn finding_notes(before: &[Diagnostic], after: &[Diagnostic], notes: &mut Vec<MigrationNote>, from_version: &str, to_version: &str, settings: &[WrittenSetting]) {
    let shown = |d: &Diagnostic| d.severity != Severity::Info;
    // Our own finding on what the other release also rejects is more advice, not a difference.
    let explains_old = |d: &Diagnostic, others: &[Diagnostic]| d.origin == Origin::Preflight && others.iter().any(|o| overlaps(o.span, d.span));
    for d in after.iter().filter(|d| shown(d) && !before.iter().any(|b| same_finding(b, d)) && !explains_old(d, before)) {
        let on_noted_flag = notes.iter_mut().find(|n| note_on_flag_holds(n, d, settings));
        match on_noted_flag {
            // The first (SGLang's, in report order) finding on a flag the move explains is
            // shown with it; more about the same flag would only repeat it.
            Some(n) => {
                if n.finding.is_none() {
                    // The note's own edit (the respelling) is the finding's fix too: once.
                    let mut d = d.clone();
                    d.fixes.retain(|f| !n.fixes.iter().any(|g| g.edits == f.edits));
                    n.finding = Some(d);
                }
            }
            None => notes.push(MigrationNote {
                kind: NoteKind::NewFinding,
                flag: None,
                span: Some(d.span),
                note: match d.origin {
                    Origin::Sglang => format!("SGLang {to_version} reports this; {from_version} does not."),
                    Origin::Preflight => format!("Found on SGLang {to_version}, not on {from_version}."),
                },
                finding: Some(d.clone()),
                fixes: d.fixes.clone(),
            }),
        }
    }
    for d in before.iter().filter(|d| shown(d) && !after.iter().any(|a| same_finding(a, d)) && !explains_old(d, after)) {
        // What the old release said of a flag the move already explains (its deprecation).
        if notes.iter().any(|n| note_on_flag_holds(n, d, settings)) {
            continue;
        }
        notes.push(MigrationNote {
            kind: NoteKind::FindingGone,
            flag: None,
            span: Some(d.span),
            note: match d.origin {
                Origin::Sglang => format!("SGLang {from_version} reports this; {to_version} no longer does."),
                Origin::Preflight => format!("Found on SGLang {from_version}, no longer on {to_version}."),
            },
            finding: Some(d.clone()),
            fixes: Vec::new(),
        });
    }
}

fn checked_on(text: &str, version: &str, opts: &CheckOptions) -> Report {
    check(text, &CheckOptions { sglang_version: version.to_string(), release_from_text: false, ..opts.clone() })
}

/// What moving `text` from SGLang `from` to SGLang `to` changes, command by command.
pub fn upgrade(text: &str, from: &str, to: &str, opts: &CheckOptions) -> Result<Upgrade, UpgradeError> {
    let from_schema = schema::get(from).ok_or_else(|| UpgradeError::UnknownRelease(from.to_string()))?;
    let to_schema = schema::get(to).ok_or_else(|| UpgradeError::UnknownRelease(to.to_string()))?;
    let changes = changes::between(from_schema, to_schema).changes;
    let before = checked_on(text, from, opts);
    let after = checked_on(text, to, opts);
    let parser_only: Vec<String> = [&before, &after].iter().filter(|r| r.parser_only).map(|r| r.sglang_version.clone()).collect();
    // Past the parser, compare only what both releases check.
    let later = |d: &Diagnostic| !matches!(d.stage, crate::diagnostic::Stage::Shell | crate::diagnostic::Stage::Cli | crate::diagnostic::Stage::Config | crate::diagnostic::Stage::Argparse);
    let comparable = |r: &Report, i: usize| -> Vec<Diagnostic> {
        r.commands.get(i).map(|c| c.diagnostics.iter().filter(|d| parser_only.is_empty() || !later(d)).cloned().collect()).unwrap_or_default()
    };
    let mut commands = Vec::new();
    for (i, (b, a)) in before.commands.iter().zip(&after.commands).enumerate() {
        let settings = flag_edit::command_settings(text, from_schema, i);
        let mut notes = flag_notes(text, from_schema, to_schema, i, &changes, &settings);
        finding_notes(&comparable(&before, i), &comparable(&after, i), &mut notes, from, to, &settings);
        notes.extend(default_notes(text, from_schema, to_schema, i, &changes, &settings));
        commands.push(CommandUpgrade { command: i, accepted_before: b.accepted, accepted_after: a.accepted, notes });
    }
    Ok(Upgrade { from: from.to_string(), to: to.to_string(), parser_only, commands })
}

/// The notes as text, one block per command (the CLI's `upgrade`).
pub fn render_text(u: &Upgrade, text: &str) -> String {
    let mut out = String::new();
    let offsets = crate::located::Offsets::new(text);
    let verdict = |ok: bool| if ok { "accepted" } else { "rejected" };
    for c in &u.commands {
        out.push_str(&format!(
            "command {}: SGLang {} {} → SGLang {} {}\n",
            c.command + 1,
            u.from,
            verdict(c.accepted_before),
            u.to,
            verdict(c.accepted_after)
        ));
        if c.notes.is_empty() {
            out.push_str("  no difference for this command\n");
        }
        for n in &c.notes {
            let at = n.span.map(|s| offsets.line_col(s.start)).map(|(l, col)| format!("{l}:{col}: ")).unwrap_or_default();
            out.push_str(&format!("  {at}{}\n", n.note));
            if let Some(d) = &n.finding {
                let exc = d.exception.as_deref().map(|e| format!("{e}: ")).unwrap_or_default();
                out.push_str(&format!("      [{}] {exc}{}\n", d.code, d.message));
            }
            for f in &n.fixes {
                let how = match f.applicability {
                    Applicability::Safe => "fix",
                    Applicability::Unsafe => "fix (review)",
                    Applicability::Display => "advice",
                };
                out.push_str(&format!("      {how}: {}\n", f.title));
            }
        }
    }
    if !u.parser_only.is_empty() {
        out.push_str(&format!(
            "only the command line of SGLang {} is replayed here: findings after it are not compared\n",
            u.parser_only.join(" and ")
        ));
    }
    out
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)] // a failed expectation fails the test
mod tests {
    use super::*;
    use crate::diagnostic::apply_edits;

    fn up(text: &str, from: &str, to: &str) -> Upgrade {
        upgrade(text, from, to, &CheckOptions::default()).unwrap()
    }

    #[test]
    fn a_removed_flag_is_explained_with_its_error_and_a_removal() {
        let text = "python -m sglang.launch_server --model-path m --mamba-scheduler-strategy no_buffer --tp 2";
        let u = up(text, "0.5.18", "0.5.23");
        let c = &u.commands[0];
        assert!(c.accepted_after != c.accepted_before || !c.accepted_after);
        let n = c.notes.iter().find(|n| n.flag.as_deref() == Some("--mamba-scheduler-strategy")).unwrap();
        assert!(matches!(n.kind, NoteKind::Removed | NoteKind::Renamed), "{n:?}");
        assert!(n.finding.as_ref().is_some_and(|d| d.message.contains("--mamba-scheduler-strategy")), "{n:?}");
        let fixed = apply_edits(text, &n.fixes[0].edits).unwrap();
        assert!(!fixed.contains("--mamba-scheduler-strategy no_buffer"), "{fixed}");
        assert!(fixed.ends_with(" --tp 2"), "nothing else touched: {fixed}");
    }

    #[test]
    fn the_same_release_makes_no_notes() {
        let text = "python -m sglang.launch_server --model-path m --tp-size 2";
        let u = up(text, "0.5.23", "0.5.23");
        assert!(u.commands[0].notes.is_empty(), "{:?}", u.commands[0].notes);
    }

    #[test]
    fn a_changed_default_the_command_relies_on_can_be_pinned() {
        let text = "python -m sglang.launch_server --model-path m";
        let u = up(text, "0.5.18", "0.5.23");
        let pinned: Vec<&MigrationNote> = u.commands[0].notes.iter().filter(|n| n.kind == NoteKind::DefaultChanged && !n.fixes.is_empty()).collect();
        for n in &pinned {
            let fixed = apply_edits(text, &n.fixes[0].edits).unwrap();
            assert!(fixed.starts_with(text), "only appended: {fixed}");
            // The pinned command still parses on the target release.
            let r = check(&fixed, &CheckOptions { sglang_version: "0.5.23".into(), ..CheckOptions::default() });
            assert!(!r.commands[0].diagnostics.iter().any(|d| d.is_sglang_error() && d.stage == crate::diagnostic::Stage::Argparse), "{fixed}: {:?}", r.commands[0].diagnostics);
        }
    }

    #[test]
    fn unknown_releases_are_refused() {
        assert!(upgrade("x", "0.4.0", "0.5.23", &CheckOptions::default()).is_err());
    }
}
