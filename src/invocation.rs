//! Finding the SGLang launch inside each shell command: `python -m sglang.launch_server`,
//! `sglang serve`, behind wrappers (`uv run`, `nohup`, `numactl`, `srun`, `docker run IMAGE`),
//! with environment from `VAR=value` prefixes and earlier `export` lines.
//!
//! OWNER: shell helper. Interface is fixed; the implementation below is a placeholder.

use crate::diagnostic::Diagnostic;
use crate::shell::{ShellParse, Word};
use crate::span::Span;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// `sglang serve ...` (front end with positional model path and `--model-type`).
    Serve,
    /// `python -m sglang.launch_server ...`
    LaunchServer,
}

#[derive(Debug, Clone)]
pub struct Invocation {
    pub entry: Entry,
    /// Span of the launcher words (`python -m sglang.launch_server`, `sglang serve`).
    pub launcher: Span,
    /// The words after the launcher, exactly as the shell passes them to SGLang.
    pub args: Vec<Word>,
    /// Environment SGLang would see from the pasted text (prefix assignments, `export`s,
    /// `docker run -e`), in order; later entries win.
    pub env: Vec<(String, String)>,
    /// The whole command's span.
    pub span: Span,
}

#[derive(Debug, Clone, Default)]
pub struct Located {
    pub invocations: Vec<Invocation>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Find every SGLang invocation in the parsed text.
pub fn locate(parsed: &ShellParse) -> Located {
    let mut out = Located::default();
    for cmd in &parsed.commands {
        let w: Vec<&str> = cmd.words.iter().map(|w| w.text.as_str()).collect();
        let (entry, skip) = match w.as_slice() {
            ["sglang", "serve", ..] => (Entry::Serve, 2),
            [py, "-m", "sglang.launch_server", ..] if py.contains("python") => (Entry::LaunchServer, 3),
            _ => continue,
        };
        let launcher = match (cmd.words.first(), cmd.words.get(skip - 1)) {
            (Some(a), Some(b)) => a.span.cover(b.span),
            _ => cmd.span,
        };
        out.invocations.push(Invocation {
            entry,
            launcher,
            args: cmd.words.iter().skip(skip).cloned().collect(),
            env: cmd.assignments.iter().map(|a| (a.name.clone(), a.value.clone())).collect(),
            span: cmd.span,
        });
    }
    out
}
