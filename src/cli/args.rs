//! The `check` subcommand's options.

use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Compiler-style lines (`path:line:col: error[CODE] ...`); for stdin, today's report.
    Text,
    Json,
    /// The reviewable plain text of `tests/snapshots/` (source lines with carets, every
    /// diagnostic with its fixes as before/after lines).
    Snapshot,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...,line=...,col=...::...`).
    Github,
}

#[derive(Args)]
pub struct CheckArgs {
    /// SGLang release to check against [default: the settings', else the newest supported]
    #[arg(long)]
    pub sglang_version: Option<String>,
    /// Hardware preset: h100 (default) h200 b200 gb200 a100 l40s rtx5090 mi300x mi355x cpu
    #[arg(long)]
    pub gpu: Option<String>,
    /// Number of GPUs (default: the preset's)
    #[arg(long)]
    pub gpus: Option<u32>,
    /// YAML for the commands' `--config` (default: read the path named in the command)
    #[arg(long)]
    pub config_file: Option<String>,
    /// The model's config.json, or its folder (config.json and hf_quant_config.json), for the
    /// checks that need the model's config (default: the local folder --model-path names, else
    /// the built-in catalog)
    #[arg(long, value_name = "FILE|DIR")]
    pub model_config: Option<PathBuf>,
    /// The same for the speculative draft model (--speculative-draft-model-path)
    #[arg(long, value_name = "FILE|DIR")]
    pub draft_model_config: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Check only walked files matching GLOB (repeatable); also reads matching files of no known kind as shell text
    #[arg(long = "include", value_name = "GLOB")]
    pub include: Vec<String>,
    /// Skip files and directories matching GLOB (repeatable), named ones too
    #[arg(long = "exclude", value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Drop findings with CODE, or with every code of a family (`TXT`); repeatable, or comma-separated
    #[arg(long = "ignore", value_name = "CODE", value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Apply safe fixes in place, then check again
    #[arg(long)]
    pub fix: bool,
    /// With --fix or --diff: apply unsafe fixes too (they change what the server does)
    #[arg(long)]
    pub unsafe_fixes: bool,
    /// Print unified diffs of what --fix would change; write nothing
    #[arg(long, conflicts_with = "fix")]
    pub diff: bool,
    /// Read settings from FILE (default: sglang-preflight.toml, .sglang-preflight.toml or
    /// pyproject.toml's [tool.sglang-preflight], from the current directory upward)
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Read no settings file
    #[arg(long, conflicts_with = "settings")]
    pub no_settings: bool,
    /// Print the resolved settings and where each came from, then exit
    #[arg(long)]
    pub show_settings: bool,
    /// Check the PATHs as files even when one shell file is named: a file without a launch is
    /// fine, output as for files (for pre-commit hooks and CI, which name files one or many)
    #[arg(long)]
    pub files: bool,
    /// Files and directories to check; `-` or none for stdin
    /// Also say which other SGLang releases' command-line parsers judge the text differently
    /// (flags added, removed or renamed; choices and types that changed), with their findings
    #[arg(long)]
    pub compare_releases: bool,
    /// Also show what SGLang will run with: each accepted command's resolved values (`*`: not
    /// the flag's default; derived ones with the step that set them), and what is not known here
    #[arg(long)]
    pub show_resolved: bool,
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
}
