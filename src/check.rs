//! The whole check: text → shell words → SGLang invocations → front end → argparse →
//! resolution rules → `check_server_args` → one report.

use crate::argparse;
use crate::diagnostic::{Diagnostic, Origin, Severity, Stage};
use crate::frontend::{self, ConfigFiles};
use crate::hardware::Hardware;
use crate::invocation::{self, Entry};
use crate::models::{self, GivenConfig, ModelFacts, ModelReport};
use crate::pairs::PdServer;
use crate::pyvalue::PyValue;
use crate::resolved::ResolvedConfig;
use crate::rules::{self, Ctx, NotRun};
use crate::schema;
use crate::shell;
use crate::span::Span;
use crate::typography;
use serde::Serialize;

#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub sglang_version: String,
    pub hardware: Hardware,
    /// `--config` YAML files by the path written in the command.
    pub config_files: ConfigFiles,
    /// Check against the release the text names (`lmsysorg/sglang:v0.5.20`,
    /// `pip install sglang==0.5.19`) instead of `sglang_version`, when this build carries it.
    pub release_from_text: bool,
    /// Variables whose values are unknown by design (a file's templates, read as `${VALUES_TP}`;
    /// see `sources::yaml::Extracted::unknown_variables`). A flag whose value word expands one
    /// is not judged: no type or choice error, and a check that reads its value is not run
    /// (`NotRunReason::UnknownValue`). Empty for a paste: `$PORT` there is an unset variable.
    pub unknown_variables: Vec<String>,
    /// The model's `config.json` (with its `hf_quant_config.json`) the user gave for
    /// `--model-path` (CLI `--model-config`, the page's model config pane): its facts are used
    /// instead of the catalog's.
    pub model_config: Option<GivenConfig>,
    /// The same for `--speculative-draft-model-path`.
    pub draft_model_config: Option<GivenConfig>,
    /// Reads the config of a local model folder a command names, on the machine running the check
    /// (the CLI gives one; the page has no files, and the core itself does no I/O).
    pub read_local_model: Option<fn(&str) -> Option<GivenConfig>>,
    /// Build "What SGLang will run with" (`CommandReport::resolved`). Off, an accepted command
    /// has `resolved_left_out` instead: the page asks for the values when that section is opened
    /// (building and writing out its ~500 values was most of a check's time in the page).
    pub resolved_values: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            sglang_version: schema::DEFAULT_VERSION.to_string(),
            hardware: Hardware::default_h100(),
            config_files: ConfigFiles::new(),
            release_from_text: false,
            unknown_variables: Vec::new(),
            model_config: None,
            draft_model_config: None,
            read_local_model: None,
            resolved_values: true,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct CommandReport {
    pub entry: Entry,
    /// The words after the launcher, exactly as the shell passes them.
    pub argv: Vec<String>,
    pub accepted: bool,
    pub span: Span,
    pub diagnostics: Vec<Diagnostic>,
    /// Checks SGLang would run that this build could not (model config, files, ...).
    pub not_run: Vec<NotRun>,
    /// How many of SGLang's resolution hooks on this command's path this build does not model
    /// yet (their checks are not run; they are named in `src/rules/pipeline.rs`).
    pub not_modelled_hooks: usize,
    /// Which model `--model-path` names, as the built-in catalog recognizes it (native builds;
    /// absent where there is no catalog, as in the page's wasm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelReport>,
    /// The same for `--speculative-draft-model-path`, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draft_model: Option<ModelReport>,
    /// What SGLang will run with, for a command it accepts (`resolved`, `resolved_unknown`,
    /// `resolved_details` in JSON; `crate::resolved_report`).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<crate::resolved_report::Resolved>,
    /// An accepted command whose resolved values were not built (`CheckOptions::resolved_values`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub resolved_left_out: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub sglang_version: String,
    pub hardware: String,
    pub accepted: bool,
    pub commands: Vec<CommandReport>,
    /// Findings about the text as a whole (nothing to check, shell trouble outside a command).
    pub diagnostics: Vec<Diagnostic>,
    /// Every other command the paste runs besides the SGLang launches and harmless set-up
    /// (see `invocation::AlsoRuns`), in text order; each also has a `P0003` finding.
    pub also_runs: Vec<invocation::AlsoRuns>,
    /// Only SGLang's command-line parsing was replayed: this build does not model the
    /// release's resolution and validation checks (see `ReleaseData::checks_modelled`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub parser_only: bool,
}

/// A launch inside a `bash -c "..."` string: an edit that writes quotes, `\`, `$` or a backtick
/// there would need quoting for the outer string as well, so such fixes are shown as advice
/// (no edits). Plain words (`--tp-size 2`) read the same inside either quote and stay edits.
fn advice_only_when_requoting_needed(diags: &mut [Diagnostic]) {
    for d in diags {
        for f in &mut d.fixes {
            if f.edits.iter().any(|e| e.replacement.contains(['"', '\'', '\\', '$', '`'])) {
                f.edits.clear();
                f.applicability = crate::diagnostic::Applicability::Display;
            }
        }
    }
}

/// Check every SGLang launch command in `text`.
pub fn check(text: &str, opts: &CheckOptions) -> Report {
    check_with_pd_servers(text, opts).0
}

/// [`check`], also giving the PD prefill and decode servers among the commands (their lines
/// in `text`): the launches of several texts of one file (a manifest's services, a page's code
/// blocks) are paired with `crate::pairs::pair_findings`.
pub fn check_with_pd_servers(text: &str, opts: &CheckOptions) -> (Report, Vec<PdServer>) {
    check_with_release_from(text, opts, crate::release::get)
}

/// [`check_with_pd_servers`] with the releases `release_of` gives by version (`release::get`
/// for every caller but the test that compares a release built from the page's release file
/// with the compiled one of the same version).
pub(crate) fn check_with_release_from(text: &str, opts: &CheckOptions, release_of: impl Fn(&str) -> Option<&'static crate::release::Release>) -> (Report, Vec<PdServer>) {
    let mut report = Report {
        sglang_version: opts.sglang_version.clone(),
        hardware: opts.hardware.summary(),
        accepted: false,
        commands: Vec::new(),
        diagnostics: Vec::new(),
        also_runs: Vec::new(),
        parser_only: false,
    };
    let parsed = shell::parse(text);
    let mut located = invocation::locate(&parsed);
    let mut release_note = None;
    if opts.release_from_text {
        // The image a `docker run` in front of the launcher names counts as named before it.
        let first_launch = located.invocations.first().map(|i| i.launcher.start).unwrap_or(text.len());
        if let Some(hint) = crate::release_hint::hint(text, first_launch) {
            let (version, note) = crate::release_hint::decide(hint, &opts.sglang_version, "text");
            report.sglang_version = version;
            release_note = Some(note);
        }
    }
    let Some(release) = release_of(&report.sglang_version) else {
        // A known release this build does not carry (the page's wasm carries the default only)
        // is checked once its schema is registered (`release::register`).
        let message = if crate::release::KNOWN_VERSIONS.contains(&report.sglang_version.as_str()) {
            format!("SGLang {}'s flag schema is not loaded: register it (releases/{}.json) before checking against it", report.sglang_version, report.sglang_version)
        } else {
            format!("SGLang version {} is not supported by this build (supported: {})", report.sglang_version, crate::release::KNOWN_VERSIONS.join(", "))
        };
        report.diagnostics.push(Diagnostic::preflight("P0001", Severity::Error, Stage::Cli, message, Span::empty_at(0)));
        return (report, Vec::new());
    };
    let schema = &release.schema;
    report.parser_only = !release.data.checks_modelled;
    let vllm_launches = crate::vllm::translate(&parsed, schema);
    // A vLLM launch has its own finding (P0006: its SGLang equivalent, flag by flag): it is not
    // listed again as an unknown command to read before running the paste.
    located.also_runs.retain(|a| !vllm_launches.iter().any(|t| a.span.start <= t.span.start && t.span.end <= a.span.end));

    report.diagnostics.extend(release_note);
    report.diagnostics.extend(typography::lint(text));
    report.diagnostics.extend(parsed.diagnostics);
    report.diagnostics.extend(located.diagnostics);
    // With no launch there is no verdict to overstate: the list alone says what else runs.
    if !located.invocations.is_empty() {
        report.diagnostics.extend(invocation::also_runs_diagnostics(&located.also_runs));
    }
    report.also_runs = located.also_runs.clone();

    // A file the paste writes with a here-document is what SGLang reads once the commands run,
    // whatever the file holds now.
    let with_written;
    let config_files = if parsed.written_files.is_empty() {
        &opts.config_files
    } else {
        let mut files = opts.config_files.clone();
        for f in &parsed.written_files {
            files.insert(f.path.clone(), f.content.clone());
        }
        with_written = files;
        &with_written
    };
    // Variables a written file reads whose value is not known here: a config value that
    // expands one is not judged (the file keeps such an expansion as written).
    let written_unknown: Vec<String> = parsed.written_files.iter().flat_map(|f| f.unknown_variables.iter().cloned()).collect();

    // PD prefill and decode servers, checked as pairs once every command is checked
    let mut pd_servers: Vec<PdServer> = Vec::new();
    // A report per launch (growing one at a time copies them on each reallocation: they are large).
    report.commands.reserve_exact(located.invocations.len());
    for mut inv in located.invocations {
        let mut diags: Vec<Diagnostic> = Vec::new();
        // choices the command's environment adds (`--sampling-backend token_oracle` under
        // SGLANG_KV_CANARY_ENABLE_TOKEN_ORACLE=1)
        // (SGLang's `EnvBool`; the last assignment of a name counts)
        let env_set = |name: &str| inv.env.iter().rev().find(|(k, _)| k == name).and_then(|(_, v)| rules::shared::envs::parse_env_bool(v)) == Some(true);
        let env_schema = schema.under_env(env_set);
        let schema = env_schema.as_ref().unwrap_or(schema);
        let fe = frontend::run_with(Some(schema), &inv, config_files);
        diags.extend(fe.diagnostics);

        // Empty (no allocation) unless the text has values unknown by design.
        let unknown_words: Vec<bool> = if opts.unknown_variables.is_empty() && written_unknown.is_empty() && !fe.argv.iter().any(|w| w.value_unknown) {
            Vec::new()
        } else {
            let from_config = |i: usize| fe.from_config.get(i).copied().unwrap_or(false);
            fe.argv
                .iter()
                .enumerate()
                .map(|(i, w)| w.value_unknown || expands_any(&w.text, &opts.unknown_variables) || (from_config(i) && expands_any(&w.text, &written_unknown)))
                .collect()
        };
        let parsed_args = argparse::parse_args_unknown(schema, &fe.argv, &fe.from_config, &unknown_words);
        diags.extend(parsed_args.diagnostics);
        stopped_before_warning(&mut diags);

        // SGLang stops at its first error; we go on: after a front-end or argparse error the
        // values that did parse are still worth resolving and checking.
        // With -h/--help SGLang prints help and exits: nothing is resolved or checked.
        let help = fe.help || parsed_args.help;
        let [model_path, draft_path] = if help { [None, None] } else { model_paths(schema, &parsed_args.namespace) };
        // A local folder's config, read where the check runs (owned here, borrowed by the checks).
        let read_local = |p: Option<&str>| match (p, opts.read_local_model) {
            (Some(path), Some(read)) => read(path),
            _ => None,
        };
        let (local_model, local_draft) = (read_local(model_path), read_local(draft_path));
        let model_known = known_model(release, model_path, false, opts.model_config.as_ref(), local_model.as_ref());
        let draft_known = known_model(release, draft_path, true, opts.draft_model_config.as_ref(), local_draft.as_ref());
        let (model, model_facts) = model_known.map_or((None, None), |(report, facts)| (Some(report), facts));
        let (draft_model, draft_facts) = draft_known.map_or((None, None), |(report, facts)| (Some(report), facts));
        let resolves = !(help || report.parser_only);
        let (not_run, not_modelled_hooks, resolved) = if !resolves {
            (Vec::new(), 0, None)
        } else {
            let append_at = inv.args.last().map(|w| w.span.end).unwrap_or(inv.launcher.end);
            // An unterminated quote (SH003) inside this command swallows anything appended, and
            // after a `--` argparse reads every word as positional.
            let can_append = !fe.argv.iter().any(|w| w.text == "--")
                && !report.diagnostics.iter().any(|d| d.code == "SH003" && inv.span.start <= d.span.start && d.span.start <= inv.span.end.max(append_at));
            let mut ctx = Ctx {
                cfg: ResolvedConfig::new(schema, &parsed_args.namespace),
                release,
                hw: &opts.hardware,
                files: config_files,
                env: &inv.env,
                env_places: &inv.env_places,
                text,
                append_at,
                can_append,
                fallback_span: inv.launcher,
                model: model_facts,
                draft_model: draft_facts,
                earlier_error: diags.iter().any(Diagnostic::is_sglang_error),
                stage: Stage::Resolve,
                diagnostics: Vec::new(),
                not_run: Vec::new(),
                not_modelled: Vec::with_capacity(64),
                on_unknown_branch: false,
            };
            rules::pipeline::run_resolution_pipeline(&mut ctx);
            ctx.stage = Stage::Check;
            rules::pipeline::check_server_args(&mut ctx);
            // what fails later, on the GPU node (preflight's warnings, not recorded verdicts)
            rules::runtime::check_runtime(&mut ctx);
            pd_servers.extend(PdServer::from_ctx(&ctx, report.commands.len()));
            let resolved = opts.resolved_values.then(|| crate::resolved_report::build(&ctx));
            diags.extend(ctx.diagnostics);
            // a hook can be named on more than one path through the pipeline: count each once
            // (only their number is reported: a set, not a sort of dozens of names per check)
            let hooks = ctx.not_modelled.iter().collect::<rustc_hash::FxHashSet<_>>().len();
            (ctx.not_run, hooks, resolved)
        };

        if inv.nested {
            advice_only_when_requoting_needed(&mut diags);
        }
        // CFG009: SGLang never reaches a verdict (it hangs expanding the aliases), so it never starts.
        let accepted = !diags.iter().any(|d| d.is_sglang_error() || d.code == "CFG009");
        report.commands.push(CommandReport {
            entry: inv.entry,
            argv: std::mem::take(&mut inv.args).into_iter().map(|w| w.text).collect(),
            accepted,
            span: inv.span,
            diagnostics: diags,
            not_run,
            not_modelled_hooks,
            model,
            draft_model,
            // only a command SGLang accepts runs with anything
            resolved_left_out: accepted && resolves && !opts.resolved_values,
            resolved: resolved.filter(|_| accepted),
        });
    }

    // Text-level findings that lie inside a command belong to that command (they come first:
    // the shell acts before SGLang does).
    // Linear in findings and commands (a paste can hold 100 000 of each).
    let text_level = std::mem::take(&mut report.diagnostics);
    let contains = |c: &CommandReport, at: usize| c.span.start <= at && at < c.span.end.max(c.span.start + 1);
    let sorted = report.commands.windows(2).all(|w| matches!(w, [a, b] if a.span.end.max(a.span.start + 1) <= b.span.start));
    let mut moved: Vec<Vec<Diagnostic>> = vec![Vec::new(); report.commands.len()];
    for d in text_level {
        let at = d.span.start;
        let home = if sorted {
            let i = report.commands.partition_point(|c| c.span.start <= at);
            i.checked_sub(1).filter(|&i| report.commands.get(i).is_some_and(|c| contains(c, at)))
        } else {
            report.commands.iter().position(|c| contains(c, at))
        };
        match home.and_then(|i| moved.get_mut(i)) {
            Some(v) => v.push(d),
            None => report.diagnostics.push(d),
        }
    }
    for (c, extra) in report.commands.iter_mut().zip(moved) {
        if extra.is_empty() {
            continue;
        }
        let at = c.diagnostics.iter().take_while(|x| x.stage == Stage::Shell).count();
        let rest = c.diagnostics.split_off(at);
        c.diagnostics.extend(extra);
        c.diagnostics.extend(rest);
    }

    crate::pairs::check_pairs(text, &mut pd_servers, &parsed.commands, &mut report.commands);

    report.diagnostics.extend(vllm_launches.iter().map(crate::vllm::diagnostic));
    if report.commands.is_empty() && vllm_launches.is_empty() && !report.diagnostics.iter().any(|d| d.severity == Severity::Error) {
        report.diagnostics.push(
            Diagnostic::preflight(
                "P0002",
                Severity::Info,
                Stage::Shell,
                "No SGLang launch command found (expected `python -m sglang.launch_server ...` or `sglang serve ...`).",
                Span::empty_at(0),
            )
            .with_explanation("Paste the command you would run to start the server; everything else in the text is ignored."),
        );
    }
    // "Accepted" is SGLang's verdict: every command found would start. Shell-level findings
    // (a broken continuation, say) are reported as errors but SGLang judges what it receives.
    report.accepted = !report.commands.is_empty() && report.commands.iter().all(|c| c.accepted);
    (report, pd_servers)
}

/// Whether `word` expands one of `names` (`$NAME`, `${NAME}`, `${NAME:-x}`, ...). The word's
/// text is as the shell leaves an unset variable's expansion it cannot perform: written out.
fn expands_any(word: &str, names: &[String]) -> bool {
    let is_name_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    word.match_indices('$').any(|(at, _)| {
        let rest = word.get(at + 1..).unwrap_or("");
        let braced = rest.strip_prefix('{');
        let after = braced.unwrap_or(rest);
        let len = after.bytes().take_while(|&b| is_name_byte(b)).count();
        let name = after.get(..len).unwrap_or("");
        !name.is_empty() && names.iter().any(|n| n == name)
    })
}

/// The model paths the command names (`--model-path`, `--speculative-draft-model-path`): the
/// value the command (or its config file) gives, else the flag's default.
fn model_paths<'n>(schema: &'n schema::Schema, namespace: &'n argparse::Namespace) -> [Option<&'n str>; 2] {
    let value = |dest: &str| namespace.explicit.get(dest).map(|s| &s.value).or_else(|| schema.default_of(dest));
    ["model_path", "speculative_draft_model_path"].map(|dest| value(dest).and_then(PyValue::as_str).filter(|p| !p.is_empty()))
}

/// What is known of one model the command names, for the report and for the checks: a config the
/// user gave, else the local folder's, else the built-in catalog's entry (or family). None when
/// the command names no such model; the facts are None for a model nothing is known of.
fn known_model<'a>(
    release: &crate::release::Release,
    path: Option<&str>,
    draft: bool,
    given: Option<&'a GivenConfig>,
    local: Option<&'a GivenConfig>,
) -> Option<(ModelReport, Option<ModelFacts<'a>>)> {
    let flag = if draft { "speculative_draft_model_path" } else { "model_path" };
    if draft && path.is_none() {
        return None;
    }
    let lists = release.model_lists();
    if let Some((config, how)) = given.map(|c| (c, "the config you gave")).or_else(|| local.map(|c| (c, "the local folder's config.json"))) {
        // A config given for a command without the flag still describes the model it would load.
        let facts = ModelFacts::given(config, lists);
        return Some((models::describe_given(flag, path.unwrap_or(""), config, &facts, how), Some(facts)));
    }
    let path = path?;
    let catalog = models::builtin()?;
    let facts = catalog.lookup(path).map(|found| ModelFacts::recognized(&found, lists));
    Some((models::describe(catalog, flag, path), facts))
}

/// SGLang's front end and parser stop at the first error, so a warning they would print later
/// (a deprecated flag further along, say) is never printed. It is still true of the command, so
/// it stays, as our finding rather than SGLang's. `diags` is in the order SGLang meets them.
fn stopped_before_warning(diags: &mut [Diagnostic]) {
    let mut stopped = false;
    for d in diags.iter_mut() {
        if d.is_sglang_error() {
            stopped = true;
        } else if stopped && d.origin == Origin::Sglang && d.severity == Severity::Warning {
            d.origin = Origin::Preflight;
            d.explanation = format!("SGLang stops at an earlier error before it would print this. {}", d.explanation);
        }
    }
}
