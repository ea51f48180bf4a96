//! Native CLI on the same core. Contract (other tools depend on it):
//! `sglang-preflight check [--sglang-version V] [--gpu PRESET] [--gpus N] [--config-file F]
//! [--format text|json|snapshot|sarif|github] [PATH...|-]`; exit 0 accepted, 1 rejected, 2 usage
//! error. One text (stdin, or one shell file named) prints today's report; files and
//! directories are checked as `cli::check` says.

mod cli;

use clap::{Parser, Subcommand};
use std::io::Read;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "sglang-preflight", version, about = "Check SGLang launch commands before launch")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check the SGLang launch commands in files, directories (walked) or stdin.
    Check(cli::args::CheckArgs),
    /// Print, as JSON lines, each SGLang invocation found in FILE (or stdin): its entry point,
    /// the argv the shell passes to it, and its environment; before them, each file the text
    /// writes with a here-document (`{"written_file", "content"}`). Used by the recorder.
    Extract {
        file: Option<String>,
    },
    /// List the launch flags added, removed, renamed and changed (default, choices, type,
    /// deprecation) from SGLang release FROM to release TO (docs/changes.md has every step).
    Changes {
        from: String,
        to: String,
        /// Print JSON instead of Markdown.
        #[arg(long)]
        json: bool,
    },
    /// Explain what moving the launch commands of FILE (or stdin) from SGLang release FROM to
    /// release TO changes: flags removed or renamed, values no longer accepted, defaults the
    /// command relies on that change, findings that appear or go, each with its fixes.
    /// Exit 0 when every command is accepted on TO, 1 otherwise, 2 on a usage error.
    Upgrade {
        from: String,
        to: String,
        file: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// GPU preset the commands are checked on (as `check --gpu`).
        #[arg(long)]
        gpu: Option<String>,
    },
    /// Explain each flag of the launch commands in FILE (or stdin): SGLang's help text, its
    /// default, the value SGLang will run with, the findings on it and the checks that name it
    /// but did not run here. Exit 0 when every command is accepted, 1 otherwise, 2 on a usage error.
    Explain {
        file: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// SGLang release to check against [default: the newest, or the one the text names]
        #[arg(long)]
        sglang_version: Option<String>,
        /// GPU preset (as `check --gpu`).
        #[arg(long)]
        gpu: Option<String>,
        /// Number of GPUs (default: the preset's).
        #[arg(long)]
        gpus: Option<u32>,
    },
    /// Print (or with --write, write to docs/) the rule reference, compatibility matrix and
    /// release history.
    Reference {
        #[arg(long)]
        write: bool,
        /// Print every rule's metadata as JSON instead (used by tools/coverage.py).
        #[arg(long, conflicts_with = "write")]
        json: bool,
        /// Write the rule pages and the compatibility matrix as HTML into this directory (the
        /// site's dist/: rules/<CODE>.html, rules/index.html, compatibility.html).
        #[arg(long, value_name = "DIR", conflicts_with_all = ["write", "json"])]
        html: Option<std::path::PathBuf>,
    },
    /// Print, as one JSON object, the start-up check data this build compiles in for each
    /// release named (every carried one by default) whose checks are modelled, by version: what
    /// the page's releases/<version>.json carries under "checks" (scripts/build-web.sh), so the
    /// page registers the same release the CLI checks against.
    #[command(hide = true)]
    ReleaseChecks {
        versions: Vec<String>,
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

/// The input as text (a file, or standard input for `-` or none).
fn read_text(file: Option<&str>) -> Result<String, String> {
    read_input(file).and_then(|b| String::from_utf8(b).map_err(|e| e.to_string()))
}

/// Says why on standard error; the exit code of a command that could not run.
fn fail(why: impl std::fmt::Display) -> ExitCode {
    eprintln!("sglang-preflight: {why}");
    ExitCode::from(2)
}

/// Prints `value` as pretty JSON (Err: the exit code when it cannot be written).
fn print_json<T: serde::Serialize>(value: &T) -> Result<(), ExitCode> {
    let s = serde_json::to_string_pretty(value).map_err(fail)?;
    println!("{s}");
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Changes { from, to, json } => {
            let Some(changes) = sglang_preflight::changes::between_releases(&from, &to) else {
                let carried = sglang_preflight::schema::SUPPORTED_VERSIONS.join(", ");
                return fail(format_args!("SGLang {from} or {to} is not carried (carried: {carried})"));
            };
            if json {
                if let Err(code) = print_json(&changes) {
                    return code;
                }
            } else {
                print!("{}", sglang_preflight::changes::markdown(&changes));
            }
            ExitCode::SUCCESS
        }
        Command::Reference { json: true, .. } => {
            let rules: Vec<_> = sglang_preflight::rules::all_rules().iter().map(|r| r.info()).collect();
            if let Err(code) = print_json(&rules) {
                return code;
            }
            ExitCode::SUCCESS
        }
        Command::Reference { html: Some(dir), .. } => {
            for (path, html) in sglang_preflight::site_pages::rule_pages() {
                let file = dir.join(&path);
                let written = file.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| std::fs::write(&file, html));
                if let Err(e) = written {
                    return fail(format!("cannot write {}: {e}", file.display()));
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
                    && std::fs::write("docs/changes.md", sglang_preflight::changes::history()).is_ok()
                    && std::fs::create_dir_all("docs/releases").is_ok()
                    && std::fs::write("docs/releases/rule-ranges.md", sglang_preflight::docs::rule_ranges()).is_ok();
                if !ok {
                    return fail("cannot write docs/");
                }
            } else {
                println!("{rules}\n{matrix}");
            }
            ExitCode::SUCCESS
        }
        Command::ReleaseChecks { versions } => {
            let carried = sglang_preflight::release::SUPPORTED_VERSIONS;
            if let Some(v) = versions.iter().find(|v| !carried.contains(&v.as_str())) {
                return fail(format_args!("SGLang {v} is not carried (carried: {})", carried.join(", ")));
            }
            let wanted = |v: &&&str| versions.is_empty() || versions.iter().any(|w| w == *v);
            let checks: serde_json::Map<String, serde_json::Value> =
                carried.iter().filter(wanted).filter_map(|v| Some((v.to_string(), sglang_preflight::release::checks_json(v)?))).collect();
            match serde_json::to_string(&checks) {
                Ok(s) => println!("{s}"),
                Err(e) => return fail(e),
            }
            ExitCode::SUCCESS
        }
        Command::Extract { file } => {
            let text = match read_text(file.as_deref()) {
                Ok(t) => t,
                Err(e) => return fail(e),
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
        Command::Upgrade { from, to, file, json, gpu } => {
            let text = match read_text(file.as_deref()) {
                Ok(t) => t,
                Err(e) => return fail(e),
            };
            let mut opts = sglang_preflight::CheckOptions::default();
            if let Some(g) = gpu {
                match sglang_preflight::hardware::Hardware::preset(&g, None) {
                    Some(hw) => opts.hardware = hw,
                    None => {
                        return fail(format_args!("unknown GPU preset {g}"));
                    }
                }
            }
            let up = match sglang_preflight::upgrade::upgrade(&text, &from, &to, &opts) {
                Ok(u) => u,
                Err(e) => {
                    return fail(e);
                }
            };
            if json {
                if let Err(code) = print_json(&up) {
                    return code;
                }
            } else {
                print!("{}", sglang_preflight::upgrade::render_text(&up, &text));
            }
            if up.commands.iter().all(|c| c.accepted_after) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Command::Explain { file, json, sglang_version, gpu, gpus } => {
            let text = match read_text(file.as_deref()) {
                Ok(t) => t,
                Err(e) => return fail(e),
            };
            let mut opts = sglang_preflight::CheckOptions { release_from_text: sglang_version.is_none(), ..Default::default() };
            if let Some(v) = sglang_version {
                if !sglang_preflight::release::KNOWN_VERSIONS.contains(&v.as_str()) {
                    return fail(format_args!("unknown SGLang version {v}"));
                }
                opts.sglang_version = v;
            }
            let preset = gpu.unwrap_or_else(|| "h100".to_string());
            match sglang_preflight::hardware::Hardware::preset(&preset, gpus) {
                Some(hw) => opts.hardware = hw,
                None => {
                    return fail(format_args!("unknown GPU preset {preset}"));
                }
            }
            let e = sglang_preflight::explain::explain(&text, &opts);
            if json {
                if let Err(code) = print_json(&e) {
                    return code;
                }
            } else {
                print!("{}", sglang_preflight::explain::render_text(&e, &text));
            }
            if !e.commands.is_empty() && e.commands.iter().all(|c| c.accepted) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Command::Check(args) => cli::check::run(&args),
    }
}
