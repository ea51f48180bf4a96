//! `sglang-preflight check`: one pasted text, or files and directories.
//!
//! - **One text** (stdin, `-`, or a single shell file named without `--files`): judged as a paste, as before. The
//!   JSON and snapshot formats print today's report unchanged; no launch found is exit 1.
//! - **Files** (several paths, a directory, or a file of another kind): each file's launches,
//!   with file, line and column. A file with no launch is fine; exit 1 when any launch would
//!   be rejected or a file that mentions SGLang cannot be read (`IO001`).
//!
//! A file named on the command line that cannot be read, or not as UTF-8, is a usage error
//! (exit 2), as it always was; one found by a walk is a finding and the others are still checked.

use super::args::{CheckArgs, Format};
use super::fix;
use super::settings::Settings;
use super::walk::{self, Candidate, Patterns};
use sglang_preflight::diagnostic::{Diagnostic, Severity, Stage};
use sglang_preflight::output::text::{self as text_output, Totals};
use sglang_preflight::sources::{self, FileReport, Kind};
use sglang_preflight::span::Span;
use sglang_preflight::models::GivenConfig;
use sglang_preflight::{check, CheckOptions, Report};
use std::collections::HashSet;
use std::io::Read;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

pub fn run(args: &CheckArgs) -> ExitCode {
    match run_checked(args) {
        Ok(code) => code,
        Err(message) => {
            super::note(&format!("sglang-preflight: {message}"));
            ExitCode::from(2)
        }
    }
}

/// What one run checks with.
struct Run<'a> {
    args: &'a CheckArgs,
    opts: CheckOptions,
    /// `--config-file`: the YAML for every command's `--config`.
    given_config: Option<String>,
    ignored: Vec<String>,
}

/// `--model-config`: a `config.json`, or a model folder holding one (and `hf_quant_config.json`).
fn read_model_config(path: &Path) -> Result<GivenConfig, String> {
    let (config, quant) = if path.is_dir() { (path.join("config.json"), Some(path.join("hf_quant_config.json"))) } else { (path.to_path_buf(), None) };
    let text = std::fs::read_to_string(&config).map_err(|e| format!("cannot read {}: {e}", config.display()))?;
    let quant_text = quant.filter(|q| q.is_file()).map(|q| std::fs::read_to_string(&q).map_err(|e| format!("cannot read {}: {e}", q.display()))).transpose()?;
    let mut given = GivenConfig::parse(&text, quant_text.as_deref()).map_err(|e| format!("{}: {e}", config.display()))?;
    given.folder_read = path.is_dir() && !path.join("quant_model_description.json").exists();
    Ok(given)
}

/// A local model folder a command names, read as SGLang reads it (its `config.json`); a path that
/// is not such a folder here (a hub id, a path on the serving machine) gives nothing.
fn read_local_model(model_path: &str) -> Option<GivenConfig> {
    let folder = Path::new(model_path);
    if !folder.join("config.json").is_file() {
        return None;
    }
    read_model_config(folder).ok()
}

fn run_checked(args: &CheckArgs) -> Result<ExitCode, String> {
    if args.unsafe_fixes && !args.fix && !args.diff {
        return Err("--unsafe-fixes applies with --fix or --diff".into());
    }
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let settings = Settings::resolve(args, &cwd)?;
    if args.show_settings {
        super::emit(&settings.show());
        return Ok(ExitCode::SUCCESS);
    }
    let given_config = match &args.config_file {
        None => None,
        Some(path) => Some(std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?),
    };
    // With no release chosen (command line or settings), a text that names one is checked against it.
    let release_from_text = matches!(settings.sglang_version.source, super::settings::Source::Default);
    let opts = CheckOptions {
        sglang_version: settings.sglang_version.value.clone(),
        hardware: settings.hardware(),
        release_from_text,
        model_config: args.model_config.as_deref().map(read_model_config).transpose()?,
        draft_model_config: args.draft_model_config.as_deref().map(read_model_config).transpose()?,
        read_local_model: Some(read_local_model),
        ..Default::default()
    };
    let run = Run { args, opts, given_config, ignored: settings.ignored_codes() };

    if args.paths.is_empty() || args.paths == ["-"] {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read stdin: {e}"))?;
        let text = utf8(bytes, None)?;
        return run.paste(text, None);
    }
    if args.paths.iter().any(|p| p == "-") {
        return Err("`-` (stdin) cannot be checked together with paths".into());
    }
    let include = Patterns::new(&settings.include)?;
    let exclude = Patterns::new(&settings.exclude)?;
    let candidates = walk::collect(&args.paths, &cwd, &include, &exclude)?;
    if let [only] = candidates.as_slice() {
        if only.named && only.kind == Kind::Shell && args.paths.len() == 1 && !args.files {
            let bytes = std::fs::read(&only.path).map_err(|e| format!("cannot read {}: {e}", only.display))?;
            let text = utf8(bytes.clone(), Some(&only.display))?;
            return run.paste(text, Some((only, bytes)));
        }
    }
    run.files(&candidates)
}

/// The text of `bytes`, or the usage error for input that is not UTF-8.
fn utf8(bytes: Vec<u8>, shown: Option<&str>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        match shown {
            Some(path) => format!("{path}: input is not valid UTF-8 (first bad byte at offset {at})"),
            None => format!("input is not valid UTF-8 (first bad byte at offset {at})"),
        }
    })
}

/// Whether `bytes` mention SGLang at all: a file that does not holds no launch, and is not
/// checked (this keeps a walk over a large tree fast).
fn mentions_sglang(bytes: &[u8]) -> bool {
    bytes.windows(6).any(|w| w.eq_ignore_ascii_case(b"sglang"))
}

impl Run<'_> {
    /// The options for one text: the `--config` YAML (and `--watermark-config` JSON) its
    /// launches name, from `--config-file` or read from the path as written (relative to the
    /// current directory, else to the file's own directory).
    fn opts_for(&self, kind: Kind, text: &str, dir: Option<&Path>) -> CheckOptions {
        let mut opts = self.opts.clone();
        if !text.contains("--config") && !text.contains("--watermark-config") {
            return opts;
        }
        let shell_texts: Vec<String> = match kind {
            Kind::Shell => vec![text.to_string()],
            other => sources::extract(other, text).into_iter().map(|s| s.text).collect(),
        };
        let read = |path: &str| std::fs::read_to_string(path).ok().or_else(|| dir.and_then(|d| std::fs::read_to_string(d.join(path)).ok()));
        for shell_text in &shell_texts {
            for path in sglang_preflight::invocation::config_paths(shell_text) {
                let yaml = match &self.given_config {
                    Some(y) => Some(y.clone()),
                    None => read(&path),
                };
                if let Some(yaml) = yaml {
                    opts.config_files.insert(path, yaml);
                }
            }
            for path in sglang_preflight::invocation::watermark_config_paths(shell_text) {
                if let Some(json) = read(&path) {
                    opts.config_files.entry(path).or_insert(json);
                }
            }
        }
        opts
    }

    fn check_file(&self, shown: &str, kind: Kind, text: &str, dir: Option<&Path>) -> FileReport {
        sources::check_file_with(shown, kind, text, &self.opts_for(kind, text, dir), &self.ignored)
    }

    /// One text judged as a paste: stdin, or a single shell file named (`file`, with the
    /// bytes read, for --fix to write back).
    fn paste(&self, text: String, file: Option<(&Candidate, Vec<u8>)>) -> Result<ExitCode, String> {
        let shown = file.as_ref().map_or("-", |(c, _)| c.display.as_str()).to_string();
        let dir = file.as_ref().and_then(|(c, _)| c.path.parent().map(Path::to_path_buf));
        let mut text = text;
        if self.args.fix || self.args.diff {
            let fixed = fix::fix(&text, self.args.unsafe_fixes, |t| self.check_file(&shown, Kind::Shell, t, dir.as_deref()), |_, _| true);
            if self.args.diff {
                super::emit(&fix::unified_diff(&shown, &text, &fixed.text));
                super::note(&fix_note(&shown, fixed.applied, false, &fixed.last));
                return Ok(paste_exit(&fixed.first));
            }
            let Some((candidate, bytes)) = &file else {
                // stdin: the fixed text is the output.
                super::emit(&fixed.text);
                super::note(&fix_note(&shown, fixed.applied, true, &fixed.last));
                return Ok(paste_exit(&fixed.last));
            };
            if fixed.text != text {
                match fix::write_atomically(&candidate.path, bytes, &fixed.text) {
                    Ok(()) => {
                        super::note(&fix_note(&shown, fixed.applied, true, &fixed.last));
                        text = fixed.text;
                    }
                    Err(e) => super::note(&format!("sglang-preflight: {e}")),
                }
            }
        }
        match (self.args.format, &file) {
            (Format::Json | Format::Snapshot, _) | (Format::Text, None) => {
                let opts = self.opts_for(Kind::Shell, &text, dir.as_deref());
                let mut report = check(&text, &opts);
                drop_ignored(&mut report, &text, &self.ignored);
                let others = if self.args.compare_releases {
                    let as_checked = CheckOptions { sglang_version: report.sglang_version.clone(), ..opts.clone() };
                    Some(sglang_preflight::changes::judged_differently(&text, &report, &as_checked))
                } else {
                    None
                };
                match self.args.format {
                    Format::Json => {
                        // Today's report object, with `other_releases` after its keys when asked for.
                        #[derive(serde::Serialize)]
                        struct WithOthers<'a> {
                            #[serde(flatten)]
                            report: &'a Report,
                            #[serde(skip_serializing_if = "Option::is_none")]
                            other_releases: Option<&'a Vec<sglang_preflight::changes::ReleaseDifference>>,
                        }
                        let value = WithOthers { report: &report, other_releases: others.as_ref() };
                        super::emit(&format!("{}\n", serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?))
                    }
                    Format::Snapshot => super::emit(&sglang_preflight::snapshot::render(&text, &report)),
                    _ => {
                        super::paste::print_text(&text, &report);
                        if self.args.show_resolved {
                            super::emit(&super::paste::resolved_text(&report));
                        }
                        if let Some(others) = &others {
                            super::emit(&super::paste::other_releases_text(&report.sglang_version, others));
                        }
                    }
                }
                Ok(exit(report.accepted))
            }
            _ => {
                let report = self.check_file(&shown, Kind::Shell, &text, dir.as_deref());
                self.print_files(&[(&report, text.as_str())], 1)?;
                Ok(paste_exit(&report))
            }
        }
    }

    /// Files and directories: every file's launches.
    fn files(&self, candidates: &[Candidate]) -> Result<ExitCode, String> {
        let outcomes = in_parallel(candidates, |c| self.file(c));
        let mut checked = Vec::new();
        for outcome in outcomes {
            checked.push(outcome?);
        }
        let with_findings: Vec<&Checked> = checked.iter().filter(|c| c.report.as_ref().is_some_and(|r| !r.commands.is_empty() || !r.diagnostics.is_empty())).collect();
        let pairs: Vec<(&FileReport, &str)> = with_findings.iter().filter_map(|c| Some((c.report.as_ref()?, c.text.as_str()))).collect();
        let accepted = checked.iter().all(|c| c.report.as_ref().map_or(true, |r| r.accepted));
        if self.args.diff {
            let mut changed = 0;
            for c in &checked {
                if !c.diff.is_empty() {
                    super::emit(&c.diff);
                    changed += 1;
                }
            }
            let fixes: usize = checked.iter().map(|c| c.fixes_applied).sum();
            super::note(&format!("sglang-preflight: {fixes} finding(s) would be fixed in {changed} file(s); nothing written"));
            return Ok(exit(accepted));
        }
        for c in &checked {
            if c.fixes_applied > 0 {
                if let Some(report) = &c.report {
                    super::note(&fix_note(&c.shown, c.fixes_applied, true, report));
                }
            }
        }
        self.print_files(&pairs, checked.len())?;
        Ok(exit(accepted))
    }

    /// Read and check one file (fixing it with --fix, diffing it with --diff).
    fn file(&self, candidate: &Candidate) -> Result<Checked, String> {
        let shown = candidate.display.clone();
        let mut checked = Checked { shown: shown.clone(), text: String::new(), report: None, diff: String::new(), fixes_applied: 0 };
        let bytes = match std::fs::read(&candidate.path) {
            Ok(b) => b,
            Err(e) if candidate.named => return Err(format!("cannot read {shown}: {e}")),
            Err(e) => {
                checked.report = Some(unreadable(candidate, format!("{shown} could not be read ({e}); its launches were not checked")));
                return Ok(checked);
            }
        };
        if !candidate.named && !mentions_sglang(&bytes) {
            return Ok(checked);
        }
        let text = match String::from_utf8(bytes.clone()) {
            Ok(t) => t,
            Err(_) if candidate.named => return Err(utf8(bytes, Some(&shown)).err().unwrap_or_default()),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                checked.report = Some(unreadable(candidate, format!("{shown} is not UTF-8 text (first bad byte at offset {at}); its launches were not checked")));
                return Ok(checked);
            }
        };
        if !mentions_sglang(text.as_bytes()) {
            return Ok(checked);
        }
        let dir = candidate.path.parent();
        let (report, text) = if self.args.fix || self.args.diff {
            let fixed = fix::fix(
                &text,
                self.args.unsafe_fixes,
                |t| self.check_file(&shown, candidate.kind, t, dir),
                |before, after| sglang_preflight::sources::edit_keeps_file(candidate.kind, before, after),
            );
            if self.args.diff {
                checked.diff = fix::unified_diff(&shown, &text, &fixed.text);
                checked.fixes_applied = fixed.applied;
                (fixed.first, text)
            } else if fixed.text == text {
                (fixed.last, text)
            } else {
                match fix::write_atomically(&candidate.path, &bytes, &fixed.text) {
                    Ok(()) => {
                        checked.fixes_applied = fixed.applied;
                        (fixed.last, fixed.text)
                    }
                    Err(e) => {
                        super::note(&format!("sglang-preflight: {e}"));
                        (fixed.first, text)
                    }
                }
            }
        } else {
            (self.check_file(&shown, candidate.kind, &text, dir), text)
        };
        checked.text = text;
        checked.report = Some(report);
        Ok(checked)
    }

    /// The files' findings in the chosen format (`files_read`: how many files were read).
    fn print_files(&self, files: &[(&FileReport, &str)], files_read: usize) -> Result<(), String> {
        let judge = format!("SGLang {} on {}", self.opts.sglang_version, self.opts.hardware.summary());
        let reports: Vec<&FileReport> = files.iter().map(|(r, _)| *r).collect();
        let out = match self.args.format {
            Format::Text => {
                let findings = text_output::render(files);
                let gap = if findings.is_empty() { "" } else { "\n" };
                let not_run = text_output::not_run_line(&reports).map(|line| format!("{line}\n")).unwrap_or_default();
                format!("{findings}{gap}{}\n{not_run}", text_output::summary(&judge, Totals::of(&reports, files_read)))
            }
            Format::Json => {
                let value = serde_json::json!({
                    "sglang_version": self.opts.sglang_version,
                    "hardware": self.opts.hardware.summary(),
                    "accepted": reports.iter().all(|r| r.accepted),
                    "files_read": files_read,
                    "files": reports,
                });
                format!("{}\n", serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?)
            }
            Format::Snapshot => files.iter().map(|(report, text)| format!("== {} ==\n{}", report.file, sglang_preflight::snapshot::render(text, &self.as_report(report)))).collect(),
            Format::Sarif => format!("{}\n", serde_json::to_string_pretty(&sglang_preflight::output::sarif::render(files)).map_err(|e| e.to_string())?),
            Format::Github => sglang_preflight::output::github::render(files),
        };
        super::emit(&out);
        Ok(())
    }

    /// A file's findings as a paste's report (spans are the file's), for the snapshot format.
    fn as_report(&self, file: &FileReport) -> Report {
        Report {
            sglang_version: file.sglang_version.clone(),
            hardware: self.opts.hardware.summary(),
            accepted: file.accepted,
            commands: file.commands.iter().map(|c| c.command.clone()).collect(),
            diagnostics: file.diagnostics.clone(),
            also_runs: Vec::new(),
            parser_only: file.parser_only,
        }
    }
}

/// One file read (or not) and checked.
struct Checked {
    shown: String,
    /// Its text as checked last (empty when it was not checked).
    text: String,
    /// `None`: nothing to check (no mention of SGLang).
    report: Option<FileReport>,
    diff: String,
    fixes_applied: usize,
}

/// The report of a walked file that could not be read as text.
fn unreadable(candidate: &Candidate, message: String) -> FileReport {
    let finding = Diagnostic::preflight("IO001", Severity::Error, Stage::Shell, message, Span::empty_at(0))
        .with_explanation("Launches in this file were not checked. Make it readable UTF-8 text, or leave it out with --exclude.");
    FileReport {
        file: candidate.display.clone(),
        kind: candidate.kind,
        accepted: false,
        commands: Vec::new(),
        diagnostics: vec![finding],
        suppressed: 0,
        sglang_version: String::new(),
        parser_only: false,
    }
}

/// `f` over `items` on every core, results in `items`' order.
fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len()).max(1);
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        mine.push((i, f(item)));
                    }
                    mine
                })
            })
            .collect();
        // A worker that panicked (none should) loses only its own results.
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Findings whose code is ignored (configured, or by a `# sglang-preflight: ignore[...]`
/// comment on or above the command, as in files) are dropped from a paste's report, and the
/// verdicts follow (as `check` decides them: no SGLang error left).
fn drop_ignored(report: &mut Report, text: &str, ignored: &[String]) {
    let ignored: HashSet<&str> = ignored.iter().map(String::as_str).collect();
    if !ignored.is_empty() {
        report.diagnostics.retain(|d| !ignored.contains(d.code.as_str()));
    }
    for c in &mut report.commands {
        let commented = sglang_preflight::sources::suppression_at(text, c.span.start);
        let before = c.diagnostics.len();
        c.diagnostics.retain(|d| !ignored.contains(d.code.as_str()) && !commented.covers(&d.code));
        if c.diagnostics.len() != before {
            c.accepted = !c.diagnostics.iter().any(|d| d.is_sglang_error() || d.code == "CFG009");
        }
    }
    report.accepted = !report.commands.is_empty() && report.commands.iter().all(|c| c.accepted);
}

/// A paste is accepted when it holds a launch and every launch would start.
fn paste_exit(report: &FileReport) -> ExitCode {
    exit(!report.commands.is_empty() && report.accepted)
}

fn exit(accepted: bool) -> ExitCode {
    if accepted {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// What fixing a file did, and how many findings are left in it.
fn fix_note(shown: &str, applied: usize, written: bool, left: &FileReport) -> String {
    let findings = |n: usize| if n == 1 { "1 finding".to_string() } else { format!("{n} findings") };
    let remaining = left.diagnostics.len() + left.commands.iter().map(|c| c.command.diagnostics.len()).sum::<usize>();
    let verb = if written { "fixed" } else { "would fix" };
    let left_word = if written { "left" } else { "would be left" };
    format!("sglang-preflight: {shown}: {verb} {}, {} {left_word}", findings(applied), remaining)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed expectation fails the test
mod tests {
    use super::*;

    #[test]
    fn only_texts_that_mention_sglang_are_checked() {
        assert!(mentions_sglang(b"python -m SGLang.launch_server"));
        assert!(mentions_sglang(b"sglang"));
        assert!(!mentions_sglang(b"vllm serve m"));
        assert!(!mentions_sglang(b"sglan"));
    }

    #[test]
    fn work_in_parallel_keeps_the_order() {
        let items: Vec<usize> = (0..1000).collect();
        assert_eq!(in_parallel(&items, |i| i * 2), items.iter().map(|i| i * 2).collect::<Vec<_>>());
        assert!(in_parallel(&[] as &[usize], |i| *i).is_empty());
    }

    #[test]
    fn ignoring_a_paste_s_only_error_accepts_it() {
        let mut report = check("python -m sglang.launch_server --model-path m --tool-call-parser lama3", &CheckOptions::default());
        assert!(!report.accepted);
        let codes: Vec<String> = report.commands.iter().flat_map(|c| c.diagnostics.iter().map(|d| d.code.clone())).collect();
        drop_ignored(&mut report, "", &codes);
        assert!(report.accepted);
    }

    #[test]
    fn an_ignore_comment_above_a_pasted_command_drops_its_codes() {
        let text = "# sglang-preflight: ignore[ARG005]\npython -m sglang.launch_server --model-path m --tool-call-parser lama3";
        let mut report = check(text, &CheckOptions::default());
        assert!(!report.accepted);
        drop_ignored(&mut report, text, &[]);
        assert!(report.accepted, "{:?}", report.commands);
        // another code is not covered
        let text = "# sglang-preflight: ignore[ARG004]\npython -m sglang.launch_server --model-path m --tool-call-parser lama3";
        let mut report = check(text, &CheckOptions::default());
        drop_ignored(&mut report, text, &[]);
        assert!(!report.accepted);
    }
}
