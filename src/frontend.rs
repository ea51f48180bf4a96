//! The launch front end before argparse: `sglang serve`'s `--model-type` extraction and
//! positional model path (`sglang/cli/serve.py`), and `--config` YAML merging
//! (`sglang/srt/utils/server_args_config_parser.py`).
//!
//! OWNER: argparse helper. Interface is fixed; the implementation below is a placeholder.

use crate::diagnostic::Diagnostic;
use crate::invocation::{Entry, Invocation};
use crate::shell::Word;
use std::collections::BTreeMap;

/// YAML config files the caller supplies, by the path as written in the command.
pub type ConfigFiles = BTreeMap<String, String>;

#[derive(Debug, Clone, Default)]
pub struct FrontEnd {
    /// The argv argparse will see.
    pub argv: Vec<Word>,
    /// Errors raised before argparse (stages `cli`, `config`), and notes.
    pub diagnostics: Vec<Diagnostic>,
}

/// Run the front end for one invocation. `config_files` maps a `--config` path as written in
/// the command to its YAML text (the CLI reads it from disk; the page takes it from a pane).
pub fn run(inv: &Invocation, _config_files: &ConfigFiles) -> FrontEnd {
    let _ = Entry::Serve;
    FrontEnd { argv: inv.args.clone(), diagnostics: Vec::new() }
}
