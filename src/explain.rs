//! The explain view (what explainshell does for shell lines): every flag each launch command of a
//! text writes, with SGLang's help text and default, the value SGLang will run with (the
//! resolved configuration where it is known, argparse's value otherwise, with the start-up steps
//! that may still change it), the findings on it, and the checks that name it but did not run.

use crate::argparse;
use crate::check::{self, CheckOptions, CommandReport};
use crate::diagnostic::Severity;
use crate::fields::Field;
use crate::flag_edit::{self, ShownValue};
use crate::frontend;
use crate::invocation;
use crate::release::Release;
use crate::resolved::UnknownReason;
use crate::rules::{NotRun, NotRunReason, Sglang};
use crate::schema::Schema;
use crate::shell;
use crate::span::Span;
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct Explanation {
    /// The release the text was checked against (a release the text names may be it).
    pub sglang_version: String,
    pub hardware: String,
    pub commands: Vec<ExplainedCommand>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExplainedCommand {
    /// Which launch command of the text (0-based).
    pub index: usize,
    pub span: Span,
    pub accepted: bool,
    /// Only SGLang's command-line parsing is replayed for this release: no start-up check ran.
    pub parser_only: bool,
    /// In the order written; a repeated flag is listed each time (`overridden` on all but the last).
    pub flags: Vec<ExplainedFlag>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExplainedFlag {
    /// The flag word and its values in the text.
    pub span: Span,
    /// The option part of the flag word (`--tp` in `--tp=2`); absent inside a nested string whose
    /// bytes are not the word's.
    pub option_span: Option<Span>,
    /// The option as written (`--tp`).
    pub written: String,
    /// The action's main option string (`--tp-size`).
    pub option: String,
    /// The `ServerArgs` field it sets.
    pub dest: String,
    /// The value words as SGLang receives them (joined by spaces); absent for a switch.
    pub value: Option<String>,
    /// SGLang's help text (absent when SGLang gives none).
    pub help: Option<String>,
    /// The default as Python prints it (absent when argparse suppresses it).
    pub default: Option<String>,
    /// A later occurrence of the same flag replaces this one's value.
    pub overridden: bool,
    pub runs_with: RunsWith,
    /// The command's findings whose span touches this flag.
    pub findings: Vec<FlagFinding>,
    /// Checks SGLang runs that name this flag and did not run here.
    pub checks_not_run: Vec<NotRun>,
}

/// The value SGLang will run with, for one flag.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum RunsWith {
    /// The resolved value (`resolved_details`): from the command, the default, or a start-up step.
    Resolved { repr: String, source: crate::resolved_report::Source, set_by: Option<&'static str> },
    /// The value argparse gives; SGLang's start-up steps listed may still change it (this build
    /// does not report the field's resolved value).
    Parsed { repr: String, may_change: Vec<&'static str> },
    /// Not known here (`resolved_unknown`), and why.
    Unknown { reason: UnknownReason, step: &'static str },
    /// SGLang rejects the command: it runs with nothing.
    Rejected,
    /// The release's start-up steps are not replayed (parser-only release); argparse gives `repr`.
    ParserOnly { repr: String },
}

#[derive(Debug, Clone, Serialize)]
pub struct FlagFinding {
    pub code: String,
    pub severity: Severity,
    pub message: String,
}

/// Explain every launch command of `text`, checked with `opts`.
pub fn explain(text: &str, opts: &CheckOptions) -> Explanation {
    let report = check::check(text, opts);
    let mut out = Explanation { sglang_version: report.sglang_version.clone(), hardware: report.hardware.clone(), commands: Vec::new() };
    let Some(release) = crate::release::get(&report.sglang_version) else { return out };
    let schema = &release.schema;
    let parsed = shell::parse(text);
    let invocations = invocation::locate(&parsed).invocations;
    // What each check that did not run names, read once (not per flag).
    let not_run: Vec<&NotRun> = report.commands.iter().flat_map(|c| &c.not_run).collect();
    let naming = if not_run.is_empty() { NotRunNaming::default() } else { NotRunNaming::new(release, &not_run) };
    for (index, (inv, command)) in invocations.iter().zip(&report.commands).enumerate() {
        let fe = frontend::run_with(Some(schema), inv, &opts.config_files);
        let namespace = argparse::parse_args_with(schema, &fe.argv, &fe.from_config).namespace;
        let settings = flag_edit::command_settings(text, schema, index);
        let mut flags = Vec::with_capacity(settings.len());
        for (at, s) in settings.iter().enumerate() {
            let Some(action) = schema.action(&s.main_option) else { continue };
            let dest = action.dest.as_str();
            let repeats = !action.action.contains("Append") && !action.action.contains("Count");
            let overridden = repeats && settings.get(at + 1..).unwrap_or_default().iter().any(|later| schema.action(&later.main_option).is_some_and(|a| a.dest == dest));
            let parsed_repr = || namespace.explicit.get(dest).map(|v| v.value.repr()).unwrap_or_default();
            let runs_with = if report.parser_only {
                RunsWith::ParserOnly { repr: parsed_repr() }
            } else if !command.accepted {
                RunsWith::Rejected
            } else {
                runs_with(command, release, dest, parsed_repr)
            };
            flags.push(ExplainedFlag {
                span: s.whole_span,
                option_span: s.option_span,
                written: s.written.clone(),
                option: s.main_option.clone(),
                dest: dest.to_string(),
                value: match &s.value {
                    ShownValue::Text(v) => Some(v.clone()),
                    ShownValue::Switch(_) => None,
                },
                help: action.help.get().filter(|h| !h.is_empty()).map(str::to_string),
                default: (action.default.as_str() != Some("==SUPPRESS==")).then(|| crate::pyvalue::PyValue::from_json(&action.default).repr()),
                overridden,
                runs_with,
                findings: findings_on(command, s.whole_span),
                checks_not_run: naming.naming(command, release, schema, action),
            });
        }
        out.commands.push(ExplainedCommand { index, span: command.span, accepted: command.accepted, parser_only: report.parser_only, flags });
    }
    out
}

fn runs_with(command: &CommandReport, release: &Release, dest: &str, parsed_repr: impl Fn() -> String) -> RunsWith {
    if let Some(r) = &command.resolved {
        if let Some(v) = r.values.iter().find(|v| v.field == dest) {
            return RunsWith::Resolved { repr: v.repr(), source: v.source, set_by: v.set_by };
        }
        if let Some(u) = r.unknown.iter().find(|u| u.field == dest) {
            return RunsWith::Unknown { reason: u.reason, step: u.step };
        }
    }
    let field = Field::from_name(dest);
    let may_change = release.data.writes.iter().filter(|w| field.is_some_and(|f| w.fields.contains(&f))).map(|w| w.step).collect();
    RunsWith::Parsed { repr: parsed_repr(), may_change }
}

/// The command's findings whose span overlaps the flag's (an empty span touching it counts).
fn findings_on(command: &CommandReport, span: Span) -> Vec<FlagFinding> {
    let touches = |d: Span| if d.is_empty() { span.start <= d.start && d.start <= span.end } else { d.start < span.end && span.start < d.end };
    let mut out: Vec<FlagFinding> = Vec::new();
    for d in command.diagnostics.iter().filter(|d| touches(d.span)) {
        if !out.iter().any(|f| f.code == d.code && f.message == d.message) {
            out.push(FlagFinding { code: d.code.to_string(), severity: d.severity, message: d.message.clone() });
        }
    }
    out
}

/// The flags the rules reproducing each site list, by site id (for the checks not run).
#[derive(Default)]
struct NotRunNaming {
    rule_flags: Vec<(&'static str, &'static [&'static str])>,
}

impl NotRunNaming {
    /// For the sites of `not_run` only: a rule's site is looked for (a slow match of messages)
    /// only when it names the same SGLang function.
    fn new(release: &Release, not_run: &[&NotRun]) -> Self {
        let functions: Vec<&str> = not_run.iter().map(|n| n.site.split('#').next().unwrap_or(n.site)).collect();
        let rule_flags = crate::rules::all_rules()
            .into_iter()
            .filter(|r| match &r.sglang {
                Sglang::Raises(s) | Sglang::Warns(s) | Sglang::Reraised { site: s, .. } => functions.contains(&s.function),
                _ => false,
            })
            .filter_map(|r| r.site(release).map(|s| (s.id(), r.flags)))
            .collect();
        NotRunNaming { rule_flags }
    }

    /// The checks not run on `command` that name the flag of `action`: a rule reproducing the
    /// check lists the flag, or SGLang's message for it names the flag or its field.
    fn naming(&self, command: &CommandReport, release: &Release, schema: &Schema, action: &crate::schema::Action) -> Vec<NotRun> {
        let mut out: Vec<NotRun> = Vec::new();
        for n in &command.not_run {
            if out.iter().any(|o| o.site == n.site && o.reason == n.reason) {
                continue;
            }
            let by_rule = self
                .rule_flags
                .iter()
                .any(|(id, flags)| *id == n.site && flags.iter().any(|f| schema.action(f).is_some_and(|a| a.dest == action.dest)));
            let in_message = || release.data.raise_sites.iter().chain(release.data.warn_sites).filter(|s| s.id() == n.site).any(|s| names(s.template, action));
            if by_rule || in_message() {
                out.push(n.clone());
            }
        }
        out
    }
}

/// Whether a message template names the action: one of its option strings, or its field as a
/// whole identifier (`{server_args.tp_size}`, `page_size > 1`).
fn names(template: &str, action: &crate::schema::Action) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let option = |o: &String| {
        template.match_indices(o.as_str()).any(|(at, _)| !template.get(at + o.len()..).and_then(|r| r.chars().next()).is_some_and(|c| is_ident(c) || c == '-'))
    };
    action.option_strings.iter().any(option) || template.split(|c: char| !is_ident(c)).any(|w| w == action.dest)
}

/// Whether any check of `n`'s kind ran at all is said by its reason; this is its wording.
pub fn reason_text(reason: NotRunReason) -> &'static str {
    match reason {
        NotRunReason::ModelConfig => "needs the model's config",
        NotRunReason::Files => "needs a file not given here",
        NotRunReason::Network => "needs the network",
        NotRunReason::NotImplemented => "not modelled yet",
        NotRunReason::UnknownValue => "reads a value not known here",
        NotRunReason::Hardware => "depends on a machine this build has no profile for",
    }
}

/// The explanation as text, for the CLI.
pub fn render_text(e: &Explanation, text: &str) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    if e.commands.is_empty() {
        out.push_str("No SGLang launch command found.\n");
        return out;
    }
    let offsets = crate::located::Offsets::new(text);
    for c in &e.commands {
        let verdict = if c.accepted { "accepted" } else { "rejected" };
        let _ = writeln!(out, "Command {} (SGLang {} on {}: {verdict}):", c.index + 1, e.sglang_version, e.hardware);
        if c.flags.is_empty() {
            out.push_str("  no flags\n");
        }
        for f in &c.flags {
            let (line, col) = offsets.line_col(f.span.start);
            let written = text.get(f.span.start..f.span.end).unwrap_or(&f.written);
            let _ = writeln!(out, "\n  {line}:{col}  {}", written.split_whitespace().collect::<Vec<_>>().join(" "));
            if f.written != f.option {
                let _ = writeln!(out, "    {} (written {})", f.option, f.written);
            }
            if let Some(h) = &f.help {
                let _ = writeln!(out, "    {h}");
            }
            let _ = writeln!(out, "    default: {}", f.default.as_deref().unwrap_or("(none)"));
            let runs = match &f.runs_with {
                RunsWith::Resolved { repr, set_by: Some(step), .. } => format!("{repr} (set by {step})"),
                RunsWith::Resolved { repr, source, .. } => {
                    format!("{repr} ({})", if *source == crate::resolved_report::Source::Default { "the default" } else { "from the command" })
                }
                RunsWith::Parsed { repr, may_change } if may_change.is_empty() => format!("{repr} (as parsed)"),
                RunsWith::Parsed { repr, may_change } => format!("{repr} as parsed; may be changed at start-up by {}", may_change.join(", ")),
                RunsWith::Unknown { reason, step } => {
                    let why = match reason {
                        UnknownReason::NotModelled => "a start-up step not modelled here may set it",
                        UnknownReason::ModelConfig => "needs the model's config",
                        UnknownReason::UnknownValue => "depends on a value not known here",
                        UnknownReason::CheckNotRun => "set by a step whose checks did not all run here",
                    };
                    if step.is_empty() { format!("not known here ({why})") } else { format!("not known here ({why}: {step})") }
                }
                RunsWith::Rejected => "nothing: SGLang rejects this command".to_string(),
                RunsWith::ParserOnly { repr } => format!("{repr} as parsed (this release's start-up steps are not replayed)"),
            };
            let _ = writeln!(out, "    runs with: {runs}{}", if f.overridden { " — overridden by a later occurrence" } else { "" });
            for d in &f.findings {
                let severity = match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Info => "note",
                };
                let _ = writeln!(out, "    {severity}[{}] {}", d.code, d.message);
            }
            if !f.checks_not_run.is_empty() {
                let n = f.checks_not_run.len();
                let mut why: Vec<&str> = f.checks_not_run.iter().map(|x| reason_text(x.reason)).collect();
                why.dedup();
                let _ = writeln!(out, "    not run: {n} check{} that name{} it ({})", if n == 1 { "" } else { "s" }, if n == 1 { "s" } else { "" }, why.join("; "));
            }
        }
        out.push('\n');
    }
    out
}
