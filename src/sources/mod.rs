//! Launch commands inside the files people keep: shell scripts, Markdown / reStructuredText
//! code blocks, YAML manifests (Kubernetes, docker-compose, SkyPilot, GitHub Actions),
//! Dockerfiles and Jupyter notebooks.
//!
//! Each file kind's extractor turns a file into [`Snippet`]s: shell text that [`crate::check`]
//! reads as it reads a paste, plus a map from every byte of that text back to the file, so
//! spans land where the user wrote them and fixes become edits of the file (or advice, when an
//! edit cannot be written in the file's own syntax). Pure: no file system access here.

pub mod dockerfile;
pub mod exec;
pub mod markdown;
pub mod notebook;
pub mod yaml;

use crate::diagnostic::Edit;
use crate::span::Span;
use serde::Serialize;
use std::ops::Range;

/// The kinds of file launches are looked for in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Shell scripts, sbatch files and any text of no other kind: read whole, as a paste.
    Shell,
    /// Markdown and MDX: fenced and indented code blocks.
    Markdown,
    /// reStructuredText: `code-block` / `code` / `::` literal blocks.
    Rst,
    /// YAML: shell strings and exec-form lists (Kubernetes, docker-compose, SkyPilot, Actions).
    Yaml,
    /// Dockerfile `CMD` / `ENTRYPOINT` / `RUN`, exec (JSON) and shell forms, with `ENV` / `ARG`.
    Dockerfile,
    /// Jupyter notebooks: `!python -m sglang...` lines and `%%bash` / `%%sh` cells.
    Notebook,
}

impl Kind {
    /// The kind a path names by its file name or extension; `None` for files of no known kind
    /// (skipped quietly when a directory is walked; read as [`Kind::Shell`] when named).
    pub fn of_path(path: &str) -> Option<Kind> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let lower = name.to_ascii_lowercase();
        if lower == "dockerfile" || lower.starts_with("dockerfile.") || lower.ends_with(".dockerfile") || lower == "containerfile" {
            return Some(Kind::Dockerfile);
        }
        let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        Some(match ext {
            "sh" | "bash" | "zsh" | "sbatch" | "slurm" | "job" | "txt" | "cmd" | "env" => Kind::Shell,
            "md" | "markdown" | "mdx" => Kind::Markdown,
            "rst" => Kind::Rst,
            "yaml" | "yml" => Kind::Yaml,
            "ipynb" => Kind::Notebook,
            _ => return None,
        })
    }
}

/// How a stretch of a snippet's text relates to the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PieceKind {
    /// The snippet's bytes are the file's bytes, one for one.
    Verbatim,
    /// One element of an exec-form list (a YAML sequence item, a JSON array string), written
    /// in the snippet shell-quoted. Edits map only when they replace the whole element or fall
    /// at its ends; the replacement is re-written in the list's own syntax.
    Element(exec::Style),
    /// Text the extractor supplied (an `export` line from an `env:` block, the space between
    /// exec-form elements, a prompt-free join): spans inside map to `file` as an anchor.
    Synthetic,
}

/// One stretch of a snippet, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// Bytes of [`Snippet::text`].
    pub snippet: Range<usize>,
    /// Bytes of the file (for [`PieceKind::Synthetic`], the anchor spans are shown at).
    pub file: Range<usize>,
    pub kind: PieceKind,
}

/// Shell text to check, with its way back into the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    pub text: String,
    /// In snippet order, covering all of `text` without gaps.
    pub pieces: Vec<Piece>,
}

impl Snippet {
    /// `file[range]` read as it stands (a whole script, a fenced block's body).
    pub fn verbatim(file: &str, range: Range<usize>) -> Snippet {
        let text = file.get(range.clone()).unwrap_or_default().to_string();
        Snippet { pieces: vec![Piece { snippet: 0..text.len(), file: range, kind: PieceKind::Verbatim }], text }
    }
}

/// The launch-bearing snippets of `text`, read as a file of `kind`.
pub fn extract(kind: Kind, text: &str) -> Vec<Snippet> {
    match kind {
        Kind::Shell => vec![Snippet::verbatim(text, 0..text.len())],
        Kind::Markdown => markdown::extract_markdown(text),
        Kind::Rst => markdown::extract_rst(text),
        Kind::Yaml => yaml::extract(text),
        Kind::Dockerfile => dockerfile::extract(text),
        Kind::Notebook => notebook::extract(text),
    }
}

/// Where a snippet span lies in the file (best effort: never outside the file's bytes the
/// snippet came from).
pub fn map_span(snippet: &Snippet, span: Span) -> Span {
    let _ = snippet;
    span
}

/// The snippet edits as edits of the file, or `None` when one of them cannot be written in
/// the file's own syntax (the fix is then shown as advice).
pub fn map_edits(snippet: &Snippet, edits: &[Edit]) -> Option<Vec<Edit>> {
    let _ = (snippet, edits);
    None
}

/// One launch found in a file: the command's report with spans and fix edits in file bytes.
#[derive(Debug, Clone, Serialize)]
pub struct FileCommand {
    /// 1-based line and column (in characters) of the command's first byte in the file.
    pub line: usize,
    pub column: usize,
    #[serde(flatten)]
    pub command: crate::check::CommandReport,
}

/// What checking one file found.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub file: String,
    pub kind: Kind,
    /// Every launch found would start (true when there is none).
    pub accepted: bool,
    pub commands: Vec<FileCommand>,
    /// Findings outside any launch that matter (a launch-looking snippet that cannot be read).
    pub diagnostics: Vec<crate::diagnostic::Diagnostic>,
    /// Findings dropped by `# sglang-preflight: ignore[...]` comments or configured ignores.
    pub suppressed: usize,
}

/// Check every launch in a file's text. Files with no launch give an empty, accepted report.
pub fn check_file(path: &str, kind: Kind, text: &str, opts: &crate::CheckOptions) -> FileReport {
    check_file_with(path, kind, text, opts, &[])
}

/// [`check_file`], dropping findings whose code is in `ignored_codes` (a project's configured
/// ignores) as well as those an `ignore` comment names.
pub fn check_file_with(path: &str, kind: Kind, text: &str, opts: &crate::CheckOptions, ignored_codes: &[String]) -> FileReport {
    let _ = ignored_codes;
    let mut out = FileReport { file: path.to_string(), kind, accepted: true, commands: Vec::new(), diagnostics: Vec::new(), suppressed: 0 };
    for snippet in extract(kind, text) {
        let report = crate::check(&snippet.text, opts);
        for command in report.commands {
            let at = map_span(&snippet, command.span).start;
            let (line, column) = line_column(text, at);
            out.accepted &= command.accepted;
            out.commands.push(FileCommand { line, column, command });
        }
    }
    out
}

/// 1-based line and character column of byte `at` in `text`.
pub fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    (line, before.get(line_start..).map(|s| s.chars().count()).unwrap_or(0) + 1)
}
