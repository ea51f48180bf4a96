//! The words a report is summed up in: the verdict line ("SGLang 0.5.23 on 8×H100 would reject
//! this: 2 errors, 1 warning") and the note on what was not checked. The CLI and the page say
//! the same thing because both take it from here.

use crate::check::{CommandReport, Report};
use crate::models::ModelReport;
use crate::diagnostic::Severity;
use crate::rules::{NotRun, NotRunReason};
use serde::Serialize;

/// How many findings of each severity a report holds (text-level and per command).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
}

/// What the report comes to, for a banner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// No launch command was found in the text.
    None,
    Accepted,
    Rejected,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub outcome: Outcome,
    pub counts: Counts,
    /// "SGLang 0.5.23 on 8×H100 would reject this: 2 errors, 1 warning"
    pub verdict: String,
    /// "Not run here: 3 checks need the model's config; …." — `None` when everything ran, so an
    /// "accepted" never hides what was not checked.
    pub not_run: Option<String>,
}

pub fn counts(report: &Report) -> Counts {
    let mut n = Counts::default();
    let all = report.diagnostics.iter().chain(report.commands.iter().flat_map(|c| c.diagnostics.iter()));
    for d in all {
        match d.severity {
            Severity::Error => n.errors += 1,
            Severity::Warning => n.warnings += 1,
            Severity::Info => n.notes += 1,
        }
    }
    n
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "2 errors, 1 warning, 3 notes" (severities with no findings are left out).
pub fn counts_text(n: Counts) -> String {
    [(n.errors, "error", "errors"), (n.warnings, "warning", "warnings"), (n.notes, "note", "notes")]
        .into_iter()
        .filter(|&(k, _, _)| k > 0)
        .map(|(k, one, many)| plural(k, one, many))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn outcome(report: &Report) -> Outcome {
    if report.commands.is_empty() {
        Outcome::None
    } else if report.accepted {
        Outcome::Accepted
    } else {
        Outcome::Rejected
    }
}

/// Every check SGLang would make of the report's commands ran here: nothing listed as not run,
/// no start-up hook left unmodelled, each model's config read. An accept that is not complete is
/// an accept by the checks that ran, and says so.
pub fn complete(report: &Report) -> bool {
    !report.parser_only && report.commands.iter().all(command_complete)
}

/// [`complete`] for one command (of a release whose checks are modelled).
pub fn command_complete(c: &CommandReport) -> bool {
    c.not_run.is_empty() && c.not_modelled_hooks == 0 && unread_models(c).next().is_none()
}

/// The command's models whose config was not read (unknown to the catalog, or only inferred
/// from the name), so the checks about them did not all run.
pub fn unread_models(c: &CommandReport) -> impl Iterator<Item = &ModelReport> {
    c.model.iter().chain(&c.draft_model).filter(|m| !m.config_read)
}

/// The verdict line: who judged (version and hardware), what SGLang would do, and the counts.
pub fn verdict(report: &Report) -> String {
    let who = if report.parser_only {
        format!("SGLang {}'s command-line parser on {}", report.sglang_version, report.hardware)
    } else {
        format!("SGLang {} on {}", report.sglang_version, report.hardware)
    };
    let found = counts_text(counts(report));
    let tail = if found.is_empty() { String::new() } else { format!(": {found}") };
    match outcome(report) {
        Outcome::None => format!("{who}: no launch command to check{tail}"),
        Outcome::Accepted if complete(report) => format!("{who} would accept this{tail}"),
        Outcome::Accepted => format!("{who} would accept this as far as the checks that ran can tell{tail}"),
        Outcome::Rejected => format!("{who} would reject this{tail}"),
    }
}

/// "org/x's config was not read (the built-in catalog does not know it); 3 checks need the model's
/// config; 38 of SGLang's start-up hooks are not modelled yet" (`unread`: the models whose config
/// was not read, [`unread_models`]).
pub fn not_run_note(not_run: &[NotRun], hooks: usize, unread: &[&ModelReport]) -> Option<String> {
    let count = |r: NotRunReason| not_run.iter().filter(|n| n.reason == r).count();
    // Each model once (several commands may name it).
    let mut models: Vec<&ModelReport> = Vec::new();
    for m in unread {
        if !models.iter().any(|seen| seen.model_path == m.model_path) {
            models.push(m);
        }
    }
    let parts: Vec<String> = models
        .into_iter()
        .map(|m| {
            let why = if m.how.is_some() { "its family is only inferred from the name" } else { "the built-in catalog does not know it" };
            format!("{}'s config was not read ({why})", m.model_path)
        })
        .chain([
        (NotRunReason::ModelConfig, "check needs the model's config", "checks need the model's config"),
        (NotRunReason::Files, "check needs files", "checks need files"),
        (NotRunReason::Network, "check needs the network", "checks need the network"),
        (NotRunReason::NotImplemented, "check is not modelled yet", "checks are not modelled yet"),
        (NotRunReason::UnknownValue, "check depends on a value not known here (a template, or a variable set outside the paste)", "checks depend on values not known here (templates, or variables set outside the paste)"),
        (NotRunReason::Hardware, "check needs hardware without a profile here", "checks need hardware without a profile here"),
    ]
    .into_iter()
    .filter_map(|(r, one, many)| Some(count(r)).filter(|&n| n > 0).map(|n| plural(n, one, many))))
    .chain((hooks > 0).then(|| plural(hooks, "of SGLang's start-up hooks is not modelled yet", "of SGLang's start-up hooks are not modelled yet")))
    .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// [`not_run_note`] over `commands` (one, a report's, or a walk's): checks summed, hooks as the
/// largest count of one command (the commands share most of SGLang's hooks), each unread model.
pub fn commands_not_run_note<'c>(commands: impl Iterator<Item = &'c CommandReport> + Clone) -> Option<String> {
    let not_run: Vec<NotRun> = commands.clone().flat_map(|c| c.not_run.iter().cloned()).collect();
    let hooks = commands.clone().map(|c| c.not_modelled_hooks).max().unwrap_or(0);
    let unread: Vec<&ModelReport> = commands.flat_map(unread_models).collect();
    not_run_note(&not_run, hooks, &unread)
}

/// The not-run note over every command of the report ([`commands_not_run_note`]).
pub fn report_not_run_note(report: &Report) -> Option<String> {
    if report.parser_only && !report.commands.is_empty() {
        return Some(format!(
            "Not run here: SGLang {}'s start-up checks after parsing are not modelled in this build; only its command-line parsing was replayed.",
            report.sglang_version
        ));
    }
    commands_not_run_note(report.commands.iter()).map(|note| format!("Not run here: {note}."))
}

pub fn summarize(report: &Report) -> Summary {
    Summary { outcome: outcome(report), counts: counts(report), verdict: verdict(report), not_run: report_not_run_note(report) }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used)] // a failed expectation fails the test
mod tests {
    use super::*;
    use crate::check::{check, CheckOptions};
    use crate::hardware::Hardware;

    fn report_of(text: &str) -> Report {
        let opts = CheckOptions { hardware: Hardware::preset("h100", Some(8)).unwrap_or_else(Hardware::default_h100), ..CheckOptions::default() };
        check(text, &opts)
    }

    #[test]
    fn accepted_command_says_accept() {
        let r = report_of("python -m sglang.launch_server --model-path m --tp-size 2");
        let s = summarize(&r);
        assert_eq!(s.outcome, Outcome::Accepted);
        assert!(s.verdict.starts_with(&format!("SGLang {} on {} would accept this", r.sglang_version, r.hardware)), "{}", s.verdict);
        assert_eq!(s.counts.errors, 0);
    }

    #[test]
    fn an_accept_says_whether_every_check_ran() {
        // every check ran: the catalog knows the model, every hook on its path is modelled
        let r = report_of("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp-size 2");
        assert!(complete(&r));
        assert_eq!(summarize(&r).verdict, format!("SGLang {} on {} would accept this", r.sglang_version, r.hardware));
        assert_eq!(summarize(&r).not_run, None);
        // a model the catalog does not know (its config not read), or a draft model: an accept by the checks that ran
        for (text, path) in [
            ("python -m sglang.launch_server --model-path my-org/not-a-real-model --tp-size 2", "my-org/not-a-real-model"),
            ("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm EAGLE3 --speculative-draft-model-path my-org/draft", "my-org/draft"),
        ] {
            let r = report_of(text);
            assert!(r.accepted && !complete(&r), "{text}");
            let s = summarize(&r);
            assert!(s.verdict.ends_with("would accept this as far as the checks that ran can tell"), "{}", s.verdict);
            let note = s.not_run.unwrap_or_default();
            assert!(note.starts_with(&format!("Not run here: {path}'s config was not read (the built-in catalog does not know it)")), "{note}");
        }
    }

    #[test]
    fn rejected_command_counts_errors_and_warnings() {
        // an unknown flag (error) and a repeated flag (warning)
        let r = report_of("python -m sglang.launch_server --model-path m --tp-size 2 --tp-size 2 --no-such-flag");
        let s = summarize(&r);
        assert_eq!(s.outcome, Outcome::Rejected);
        assert!(s.counts.errors >= 1 && s.counts.warnings >= 1, "{:?}", s.counts);
        let expected = format!("would reject this: {}", counts_text(s.counts));
        assert!(s.verdict.ends_with(&expected), "{}", s.verdict);
        assert!(s.verdict.contains(" error") && s.verdict.contains(" warning"), "{}", s.verdict);
    }

    #[test]
    fn no_command_says_so() {
        let s = summarize(&report_of("echo hello"));
        assert_eq!(s.outcome, Outcome::None);
        assert!(s.verdict.contains(": no launch command to check"), "{}", s.verdict);
    }

    #[test]
    fn counts_text_is_plural_aware() {
        assert_eq!(counts_text(Counts { errors: 1, warnings: 3, notes: 0 }), "1 error, 3 warnings");
        assert_eq!(counts_text(Counts { errors: 0, warnings: 0, notes: 2 }), "2 notes");
        assert_eq!(counts_text(Counts::default()), "");
    }

    #[test]
    fn not_run_note_sums_commands() {
        let r = report_of("python -m sglang.launch_server --model-path m\npython -m sglang.launch_server --model-path m --tp-size 2");
        let checks: usize = r.commands.iter().map(|c| c.not_run.len()).sum();
        let hooks = r.commands.iter().map(|c| c.not_modelled_hooks).max().unwrap_or(0);
        let note = report_not_run_note(&r);
        assert_eq!(note.is_some(), checks > 0 || hooks > 0);
        if let Some(note) = note {
            assert!(note.starts_with("Not run here: ") && note.ends_with('.'), "{note}");
            if hooks > 0 {
                assert!(note.contains(&format!("{hooks} of SGLang's start-up hook")), "{note}");
            }
        }
        assert_eq!(not_run_note(&[], 0, &[]), None);
        assert_eq!(not_run_note(&[], 1, &[]).as_deref(), Some("1 of SGLang's start-up hooks is not modelled yet"));
    }
}
