//! Native CLI on the same core. Contract (other tools depend on it):
//! `sglang-preflight check [--sglang-version V] [--gpu PRESET] [--gpus N] [--config-file F]
//! [--format text|json|snapshot] [FILE|-]`; exit 0 accepted, 1 rejected, 2 usage error.

use clap::{Parser, Subcommand, ValueEnum};
use sglang_preflight::diagnostic::Severity;
use sglang_preflight::hardware::Hardware;
use sglang_preflight::{check, CheckOptions};
use std::io::Read;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "sglang-preflight", version, about = "Check SGLang launch commands before launch")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    /// The reviewable plain text of `tests/snapshots/` (source lines with carets, every
    /// diagnostic with its fixes as before/after lines).
    Snapshot,
}

#[derive(Subcommand)]
enum Command {
    /// Check the SGLang launch command(s) in FILE (or stdin).
    Check {
        /// SGLang release to check against (default: the one the text names, as in
        /// `lmsysorg/sglang:v0.5.20` or `pip install sglang==0.5.19`, else the newest carried)
        #[arg(long)]
        sglang_version: Option<String>,
        /// Hardware preset: h100 h200 b200 gb200 a100 l40s rtx5090 mi300x mi355x cpu
        #[arg(long, default_value = "h100")]
        gpu: String,
        /// Number of GPUs (default: the preset's)
        #[arg(long)]
        gpus: Option<u32>,
        /// YAML for the command's `--config` (default: read the path named in the command)
        #[arg(long)]
        config_file: Option<String>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// File with the command text; `-` or absent for stdin
        file: Option<String>,
    },
    /// Print, as JSON lines, each SGLang invocation found in FILE (or stdin): its entry point,
    /// the argv the shell passes to it, and its environment; before them, each file the text
    /// writes with a here-document (`{"written_file", "content"}`). Used by the recorder.
    Extract {
        file: Option<String>,
    },
    /// Print (or with --write, write to docs/) the rule reference and compatibility matrix.
    Reference {
        #[arg(long)]
        write: bool,
        /// Print every rule's metadata as JSON instead (used by tools/coverage.py).
        #[arg(long, conflicts_with = "write")]
        json: bool,
    },
}

fn read_input(file: Option<&str>) -> Result<Vec<u8>, String> {
    match file {
        None | Some("-") => {
            let mut buf = Vec::new();
            std::io::stdin().read_to_end(&mut buf).map_err(|e| format!("cannot read stdin: {e}"))?;
            Ok(buf)
        }
        Some(path) => std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Reference { json: true, .. } => {
            let rules: Vec<_> = sglang_preflight::rules::all_rules().iter().map(|r| r.info()).collect();
            match serde_json::to_string_pretty(&rules) {
                Ok(s) => println!("{s}"),
                Err(e) => {
                    eprintln!("sglang-preflight: {e}");
                    return ExitCode::from(2);
                }
            }
            ExitCode::SUCCESS
        }
        Command::Reference { write, .. } => {
            let rules = sglang_preflight::docs::rules_reference();
            let matrix = sglang_preflight::docs::compatibility_matrix();
            if write {
                let ok = std::fs::create_dir_all("docs").is_ok()
                    && std::fs::write("docs/rules.md", &rules).is_ok()
                    && std::fs::write("docs/compatibility.md", &matrix).is_ok()
                    && std::fs::write("docs/changes.md", sglang_preflight::changes::history()).is_ok();
                if !ok {
                    eprintln!("sglang-preflight: cannot write docs/");
                    return ExitCode::from(2);
                }
            } else {
                println!("{rules}\n{matrix}");
            }
            ExitCode::SUCCESS
        }
        Command::Extract { file } => {
            let text = match read_input(file.as_deref()).and_then(|b| String::from_utf8(b).map_err(|e| e.to_string())) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("sglang-preflight: {e}");
                    return ExitCode::from(2);
                }
            };
            let parsed = sglang_preflight::shell::parse(&text);
            // Files the text writes with here-documents, for the recorder to create first.
            for f in &parsed.written_files {
                println!("{}", serde_json::json!({ "written_file": f.path, "content": f.content }));
            }
            for inv in sglang_preflight::invocation::locate(&parsed).invocations {
                let line = serde_json::json!({
                    "entry": inv.entry,
                    "argv": inv.args.iter().map(|w| w.text.as_str()).collect::<Vec<_>>(),
                    "env": inv.env.iter().cloned().collect::<std::collections::BTreeMap<_, _>>(),
                });
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Command::Check { sglang_version, gpu, gpus, config_file, format, file } => {
            let Some(hardware) = Hardware::preset(&gpu, gpus) else {
                eprintln!("sglang-preflight: unknown --gpu preset {gpu:?}");
                return ExitCode::from(2);
            };
            let release_from_text = sglang_version.is_none();
            let sglang_version = sglang_version.unwrap_or_else(|| sglang_preflight::schema::DEFAULT_VERSION.to_string());
            if sglang_preflight::schema::get(&sglang_version).is_none() {
                eprintln!(
                    "sglang-preflight: SGLang {sglang_version} is not supported (supported: {})",
                    sglang_preflight::schema::SUPPORTED_VERSIONS.join(", ")
                );
                return ExitCode::from(2);
            }
            let bytes = match read_input(file.as_deref()) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("sglang-preflight: {e}");
                    return ExitCode::from(2);
                }
            };
            let text = match String::from_utf8(bytes) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("sglang-preflight: input is not valid UTF-8 (first bad byte at offset {})", e.utf8_error().valid_up_to());
                    return ExitCode::from(2);
                }
            };
            let mut opts = CheckOptions { sglang_version, hardware, release_from_text, ..Default::default() };
            // `--config FILE` in the command: the YAML from --config-file, else from that path.
            let given = match config_file.as_deref().map(std::fs::read_to_string) {
                None => None,
                Some(Ok(yaml)) => Some(yaml),
                Some(Err(e)) => {
                    eprintln!("sglang-preflight: cannot read {}: {e}", config_file.as_deref().unwrap_or_default());
                    return ExitCode::from(2);
                }
            };
            for path in sglang_preflight::invocation::config_paths(&text) {
                let yaml = match &given {
                    Some(y) => Some(y.clone()),
                    None => std::fs::read_to_string(&path).ok(),
                };
                if let Some(yaml) = yaml {
                    opts.config_files.insert(path, yaml);
                }
            }
            // A `--watermark-config FILE` SGLang reads at start-up: read it from that path too.
            for path in sglang_preflight::invocation::watermark_config_paths(&text) {
                if let Ok(json) = std::fs::read_to_string(&path) {
                    opts.config_files.entry(path).or_insert(json);
                }
            }
            let report = check(&text, &opts);
            match format {
                Format::Json => match serde_json::to_string_pretty(&report) {
                    Ok(s) => println!("{s}"),
                    Err(e) => {
                        eprintln!("sglang-preflight: {e}");
                        return ExitCode::from(2);
                    }
                },
                Format::Text => print_text(&text, &report),
                Format::Snapshot => print!("{}", sglang_preflight::snapshot::render(&text, &report)),
            }
            if report.accepted {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
    }
}

fn print_text(text: &str, report: &sglang_preflight::Report) {
    // Line starts, once: each lookup is a binary search (a paste can carry 10^5 findings).
    let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let line_of = |at: usize| starts.partition_point(|&s| s <= at).max(1);
    for d in &report.diagnostics {
        println!("{}: {} [{}]", sev(d.severity), d.message, d.code);
    }
    for (i, c) in report.commands.iter().enumerate() {
        println!("command {} (line {}): {}", i + 1, line_of(c.span.start), if c.accepted { "accepted" } else { "rejected" });
        for m in c.model.iter().chain(&c.draft_model) {
            let role = if m.flag == "model_path" { "model" } else { "draft model" };
            println!("  {role}: {}", m.summary);
        }
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
    if report.parser_only {
        if let Some(note) = sglang_preflight::summary::report_not_run_note(report) {
            println!("{note}");
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
