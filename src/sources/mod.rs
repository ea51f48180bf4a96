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

use crate::diagnostic::{Applicability, Diagnostic, Edit, Severity};
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
    /// Characters of a JSON string (a notebook cell's source) that stand in the file as they
    /// are, with no escapes: bytes map one for one, and a replacement is written JSON-escaped.
    JsonString,
    /// Text the extractor supplied (an `export` line from an `env:` block, the space between
    /// exec-form elements, a prompt-free join) or decoded from an escape (`\n`, `\"` in a JSON
    /// string): spans inside map to `file` as an anchor; edits touching it cannot be mapped.
    Synthetic,
}

impl PieceKind {
    /// Bytes of the snippet are bytes of the file, so an edit inside maps one for one.
    fn maps_bytes(&self) -> bool {
        matches!(self, PieceKind::Verbatim | PieceKind::JsonString)
    }
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

/// A stretch of text an extractor read (decoded, for a JSON string) and where it is in the
/// file: for byte-mapping kinds `text.len() == file.len()`, for [`PieceKind::Synthetic`] the
/// file range is an anchor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub text: String,
    pub file: Range<usize>,
    pub kind: PieceKind,
}

impl Segment {
    /// The part of the segment from byte `at` of its text on (`at` on a character boundary).
    fn from(&self, at: usize) -> Option<Segment> {
        let text = self.text.get(at..)?.to_string();
        let file = if self.kind.maps_bytes() { self.file.start + at..self.file.end } else { self.file.clone() };
        Some(Segment { text, file, kind: self.kind.clone() })
    }

    /// The part of the segment before byte `at` of its text.
    fn until(&self, at: usize) -> Option<Segment> {
        let text = self.text.get(..at)?.to_string();
        let file = if self.kind.maps_bytes() { self.file.start..self.file.start + at } else { self.file.clone() };
        Some(Segment { text, file, kind: self.kind.clone() })
    }
}

/// One line of a block (its `\n` included, when it has one), as segments.
pub type Line = Vec<Segment>;

/// Split segments into lines after each `\n`.
pub fn split_lines(segments: Vec<Segment>) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut line: Line = Vec::new();
    for seg in segments {
        let mut rest = seg;
        while let Some(nl) = rest.text.find('\n') {
            let (Some(head), Some(tail)) = (rest.until(nl + 1), rest.from(nl + 1)) else { break };
            line.push(head);
            lines.push(std::mem::take(&mut line));
            rest = tail;
        }
        if !rest.text.is_empty() {
            line.push(rest);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The decoded text of a line.
pub fn line_text(line: &Line) -> String {
    line.iter().map(|s| s.text.as_str()).collect()
}

/// The part of `segments` (read one after another) covering bytes `range` of their text
/// (`range` on character boundaries).
pub fn slice_segments(segments: &[Segment], range: Range<usize>) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut offset = 0;
    for seg in segments {
        let end = offset + seg.text.len();
        if end > range.start && offset < range.end {
            let from = range.start.saturating_sub(offset);
            let until = range.end.min(end) - offset;
            if let Some(part) = seg.until(until).and_then(|head| head.from(from)) {
                out.push(part);
            }
        }
        if end >= range.end {
            break;
        }
        offset = end;
    }
    out
}

/// The line from byte `at` of its text on.
fn line_from(line: &Line, at: usize) -> Line {
    let mut out = Vec::with_capacity(line.len());
    let mut offset = 0;
    for seg in line {
        let end = offset + seg.text.len();
        if end <= at {
            offset = end;
            continue;
        }
        if offset >= at {
            out.push(seg.clone());
        } else if let Some(tail) = seg.from(at - offset) {
            out.push(tail);
        }
        offset = end;
    }
    out
}

/// Builds a [`Snippet`] from segments, merging neighbours that continue each other in the file.
#[derive(Debug, Default)]
pub struct SnippetBuilder {
    text: String,
    pieces: Vec<Piece>,
}

impl SnippetBuilder {
    pub fn push(&mut self, seg: Segment) {
        if seg.text.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(&seg.text);
        let end = self.text.len();
        if let Some(last) = self.pieces.last_mut() {
            let continues = last.kind == seg.kind && (if seg.kind.maps_bytes() { last.file.end == seg.file.start } else { last.file == seg.file });
            if continues && last.snippet.end == start {
                last.snippet.end = end;
                last.file.end = seg.file.end;
                return;
            }
        }
        self.pieces.push(Piece { snippet: start..end, file: seg.file, kind: seg.kind });
    }

    pub fn push_line(&mut self, line: Line) {
        for seg in line {
            self.push(seg);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    pub fn finish(self) -> Snippet {
        Snippet { text: self.text, pieces: self.pieces }
    }
}

/// How a block's lines are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prompts {
    /// Every line is shell text (a script, a `bash` block without prompts, a `%%bash` cell).
    None,
    /// A terminal session: lines with a `$ ` or `# ` prompt (optionally after a `(venv) `
    /// marker) are commands, the prompt removed; a line after one ending in `\` continues it
    /// (a `> ` continuation prompt removed); every other line is output, left out.
    Console,
    /// A notebook code cell: `!command` lines (the `!` removed) and their `\` continuations.
    Bang,
}

/// Length of the prompt a console line starts with (`$ `, `# `, `(venv) $ `, a bare `$`).
fn console_prompt_len(line: &str) -> Option<usize> {
    let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
    let mut rest = line.get(indent..)?;
    let mut len = indent;
    if rest.starts_with('(') {
        let close = rest.find(") ")?;
        if rest.get(..close)?.contains(char::is_whitespace) {
            return None;
        }
        len += close + 2;
        rest = rest.get(close + 2..)?;
    }
    let body = rest.trim_end_matches(['\n', '\r']);
    for prompt in ["$ ", "# ", "$\t", "#\t"] {
        if rest.starts_with(prompt) {
            return Some(len + prompt.len());
        }
    }
    (body == "$" || body == "#").then_some(len + 1)
}

/// A line whose shell text ends in a `\` line continuation.
fn continues(text: &str) -> bool {
    text.trim_end_matches(['\n', '\r']).ends_with('\\')
}

/// Whether a block's lines hold console prompts (any line starting with `$ `; for a console
/// language, `# ` root prompts count too).
pub fn has_prompts(lines: &[Line], console_language: bool) -> bool {
    lines.iter().any(|l| {
        let text = line_text(l);
        let trimmed = text.trim_start_matches([' ', '\t']);
        console_prompt_len(&text).is_some() && (console_language || !trimmed.starts_with('#'))
    })
}

/// The shell text a block's lines hold, read with `prompts`; `None` when nothing is left.
pub fn shell_snippet(lines: Vec<Line>, prompts: Prompts) -> Option<Snippet> {
    let mut out = SnippetBuilder::default();
    let mut continuing = false;
    for line in lines {
        let text = line_text(&line);
        let keep_from = match prompts {
            Prompts::None => Some(0),
            Prompts::Console if continuing => Some(if text.starts_with("> ") { 2 } else { 0 }),
            Prompts::Console => console_prompt_len(&text),
            Prompts::Bang if continuing => Some(0),
            Prompts::Bang => {
                let indent = text.len() - text.trim_start_matches([' ', '\t']).len();
                text.get(indent..).is_some_and(|t| t.starts_with('!')).then_some(indent + 1)
            }
        };
        match keep_from {
            Some(at) => {
                continuing = continues(&text);
                out.push_line(line_from(&line, at));
            }
            None => continuing = false,
        }
    }
    (!out.is_empty()).then(|| out.finish())
}

/// The launch-bearing snippets of `text`, read as a file of `kind`.
pub fn extract(kind: Kind, text: &str) -> Vec<Snippet> {
    extract_with_findings(kind, text).snippets
}

/// [`extract`], with findings about a file that cannot be read as its kind (a notebook that
/// is not JSON) and, for YAML, its templates and the variables whose values it cannot give.
pub fn extract_with_findings(kind: Kind, text: &str) -> yaml::Extracted {
    let snippets_only = |snippets| yaml::Extracted { snippets, ..yaml::Extracted::default() };
    match kind {
        Kind::Shell => snippets_only(vec![Snippet::verbatim(text, 0..text.len())]),
        Kind::Markdown => snippets_only(markdown::extract_markdown(text)),
        Kind::Rst => snippets_only(markdown::extract_rst(text)),
        Kind::Yaml => yaml::extract_with_findings(text),
        Kind::Dockerfile => snippets_only(dockerfile::extract(text)),
        Kind::Notebook => match notebook::read(text) {
            Ok(snippets) => snippets_only(snippets),
            Err(finding) => yaml::Extracted { findings: vec![*finding], ..yaml::Extracted::default() },
        },
    }
}

/// Whether `edited` (the file after fix edits) is still a file of its kind holding as many
/// launches as `original`: an edit written inside a quoted YAML scalar or a JSON string can
/// change the file's syntax, and `--fix` must not write such a file.
pub fn edit_keeps_file(kind: Kind, original: &str, edited: &str) -> bool {
    match kind {
        Kind::Yaml => yaml::edit_keeps_file(original, edited),
        Kind::Dockerfile => dockerfile::edit_keeps_file(original, edited),
        Kind::Notebook => notebook::read(edited).is_ok_and(|after| notebook::read(original).is_ok_and(|before| before.len() == after.len())),
        Kind::Shell | Kind::Markdown | Kind::Rst => true,
    }
}

/// The index of the piece holding snippet byte `at` (the one starting there, at a boundary;
/// the last one at the very end).
fn piece_at(snippet: &Snippet, at: usize) -> Option<&Piece> {
    let i = snippet.pieces.partition_point(|p| p.snippet.end <= at);
    snippet.pieces.get(i).or_else(|| snippet.pieces.last())
}

/// The piece holding the byte just before snippet position `at` (the first one at 0).
fn piece_before(snippet: &Snippet, at: usize) -> Option<&Piece> {
    let i = snippet.pieces.partition_point(|p| p.snippet.end < at);
    snippet.pieces.get(i).or_else(|| snippet.pieces.last())
}

/// File position of snippet position `at` inside `piece` (anchors: its start, or its end when
/// `towards_end`).
fn position_in(piece: &Piece, at: usize, towards_end: bool) -> usize {
    if piece.kind.maps_bytes() {
        let offset = at.clamp(piece.snippet.start, piece.snippet.end) - piece.snippet.start;
        (piece.file.start + offset).min(piece.file.end)
    } else if towards_end {
        piece.file.end
    } else {
        piece.file.start
    }
}

/// Where a snippet span lies in the file (best effort: never outside the file's bytes the
/// snippet came from; a span in supplied or decoded text covers its anchor).
pub fn map_span(snippet: &Snippet, span: Span) -> Span {
    let Some(first) = piece_at(snippet, span.start) else { return span };
    let start = position_in(first, span.start, false);
    if span.is_empty() {
        return Span::empty_at(start);
    }
    let end = piece_before(snippet, span.end).map(|p| position_in(p, span.end, true)).unwrap_or(start);
    Span::new(start, end.max(start))
}

/// JSON string content for `text` (what goes between the quotes).
fn json_escaped(text: &str) -> Option<String> {
    let quoted = serde_json::to_string(text).ok()?;
    Some(quoted.get(1..quoted.len().checked_sub(1)?)?.to_string())
}

/// One snippet edit as a file edit: both ends in one byte-mapping stretch (or at its ends);
/// else, when it touches an exec-form element, as that list's edit.
fn map_edit(snippet: &Snippet, edit: &Edit) -> Option<Edit> {
    if edit.end < edit.start {
        return None;
    }
    let fits = |p: &&Piece| p.kind.maps_bytes() && p.snippet.start <= edit.start && edit.end <= p.snippet.end;
    // An insertion where two stretches meet goes at the start of the later one (after a
    // blockquote's `> `, say), unless that one is supplied text (a joining newline).
    let i = snippet.pieces.partition_point(|p| p.snippet.end <= edit.start);
    let candidates = [i.checked_sub(1).and_then(|j| snippet.pieces.get(j)), snippet.pieces.get(i)];
    let home = if edit.start == edit.end {
        candidates.into_iter().rev().flatten().find(fits)
    } else {
        candidates.into_iter().flatten().find(fits)
    };
    if let Some(piece) = home {
        let replacement = match piece.kind {
            PieceKind::JsonString => json_escaped(&edit.replacement)?,
            _ => edit.replacement.clone(),
        };
        let start = position_in(piece, edit.start, false);
        let end = position_in(piece, edit.end, true);
        return Some(Edit { start, end, replacement });
    }
    let touches_element = snippet
        .pieces
        .iter()
        .skip(i.saturating_sub(1))
        .take_while(|p| p.snippet.start <= edit.end)
        .any(|p| matches!(p.kind, PieceKind::Element(_)));
    if touches_element {
        return exec::map_edit(snippet, edit);
    }
    None
}

/// The snippet edits as edits of the file, or `None` when one of them cannot be written in
/// the file's own syntax (the fix is then shown as advice).
pub fn map_edits(snippet: &Snippet, edits: &[Edit]) -> Option<Vec<Edit>> {
    edits.iter().map(|e| map_edit(snippet, e)).collect()
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
    /// Every launch found would start (true when there is none; false when the file cannot
    /// be read as its kind or the release is not one this build carries). Findings dropped by
    /// an ignore comment or a configured ignore do not count: a command whose only errors were
    /// suppressed counts as accepted.
    pub accepted: bool,
    pub commands: Vec<FileCommand>,
    /// Findings outside any launch that matter: a file that cannot be read as its kind, an
    /// SGLang version this build does not carry, shell errors outside any command in a block
    /// that mentions a launch (an unterminated quote that swallowed it, say). Shell errors do
    /// not change `accepted`, which is SGLang's verdict on the commands.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings dropped by `# sglang-preflight: ignore[...]` comments or configured ignores.
    pub suppressed: usize,
    /// The SGLang release the file was checked against (the one it names, when asked to
    /// follow that: `CheckOptions::release_from_text`), and whether only its parser is modelled.
    pub sglang_version: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub parser_only: bool,
}

/// Check every launch in a file's text. Files with no launch give an empty, accepted report.
pub fn check_file(path: &str, kind: Kind, text: &str, opts: &crate::CheckOptions) -> FileReport {
    check_file_with(path, kind, text, opts, &[])
}

/// [`check_file`], dropping findings whose code is in `ignored_codes` (a project's configured
/// ignores) as well as those an `ignore` comment names (see [`suppression_at`]).
///
/// Each snippet is checked as a paste; its commands are kept with every span and fix edit
/// mapped into the file (a fix whose edits cannot all be written in the file becomes advice:
/// [`Applicability::Display`], no edits, title kept). Text-level findings outside commands
/// (no launch found, other commands a script runs) are left out: a doc with no launch is quiet;
/// only shell errors in a snippet that mentions a launch are kept (in [`FileReport::diagnostics`]).
/// A command whose remaining findings hold no error SGLang raises counts as accepted.
pub fn check_file_with(path: &str, kind: Kind, text: &str, opts: &crate::CheckOptions, ignored_codes: &[String]) -> FileReport {
    let yaml::Extracted { snippets, findings, unknown_variables } = extract_with_findings(kind, text);
    // A file that cannot be read is not accepted; a template's warning belongs to its launch.
    let accepted = !findings.iter().any(|d| d.severity == Severity::Error);
    let (templates, diagnostics): (Vec<Diagnostic>, Vec<Diagnostic>) = findings.into_iter().partition(|d| d.code == "SRC002");
    let mut out = FileReport {
        file: path.to_string(),
        kind,
        accepted,
        commands: Vec::new(),
        diagnostics,
        suppressed: 0,
        sglang_version: opts.sglang_version.clone(),
        parser_only: false,
    };
    // The release a file names (`FROM lmsysorg/sglang:v0.5.20`, `image: ...`, `pip install
    // sglang==...`) is read from the whole file, once: a snippet holds only the launch.
    let hint = opts.release_from_text.then(|| crate::release_hint::hint(text, first_launch(text))).flatten();
    if let Some(hint) = hint {
        let (version, note) = crate::release_hint::decide(hint, &opts.sglang_version, "file");
        out.diagnostics.push(note);
        out.sglang_version = version;
    }
    let named = crate::CheckOptions { sglang_version: out.sglang_version.clone(), release_from_text: false, ..opts.clone() };
    let opts = &named;
    out.parser_only = crate::release::get(&out.sglang_version).is_some_and(|r| !r.data.checks_modelled);
    // The file's templates and undeclared values are unknown to every snippet of it (the names
    // are the file's own: one list for the file keeps this simple).
    let with_unknown;
    let opts = if unknown_variables.is_empty() {
        opts
    } else {
        let mut unknown = opts.unknown_variables.clone();
        unknown.extend(unknown_variables);
        with_unknown = crate::CheckOptions { unknown_variables: unknown, ..opts.clone() };
        &with_unknown
    };
    let lines = LineIndex::new(text);
    let mut ignores = IgnoresByLine::default();
    // PD servers of every snippet, paired over the whole file below: (snippet, server).
    let mut servers: Vec<(usize, crate::pairs::PdServer)> = Vec::new();
    // For each entry of `out.commands`: its snippet and its index in that snippet's report.
    let mut origins: Vec<(usize, usize)> = Vec::new();
    for (snippet_index, snippet) in snippets.iter().enumerate() {
        // Every launcher names `sglang` (`python -m sglang.launch_server`, `sglang serve`).
        if !snippet.text.contains("sglang") {
            continue;
        }
        let (mut report, found) = crate::check::check_with_pd_servers(&snippet.text, opts);
        // Pairs are judged over the whole file (below), with the file's line numbers; a
        // router's `--prefill` is compared within its own text.
        for c in &mut report.commands {
            c.diagnostics.retain(|d| !is_pair_finding(d));
        }
        servers.extend(found.into_iter().map(|s| (snippet_index, s)));
        if let Some(unsupported) = report.diagnostics.iter().find(|d| d.code == "P0001").cloned() {
            out.accepted = false;
            out.diagnostics.push(unsupported);
            return out;
        }
        // Shell trouble outside any command (an unterminated quote that swallows a launch,
        // bidi controls) matters where a launch was meant to be: kept, errors only.
        if LAUNCHERS.iter().any(|l| snippet.text.contains(l)) {
            for mut d in report.diagnostics.into_iter().filter(|d| d.severity == Severity::Error && !d.code.starts_with('P')) {
                map_diagnostic(snippet, &mut d);
                if ignores.at(text, &lines, d.span.start).covers(&d.code) || ignored_codes.iter().any(|c| c == &d.code) {
                    out.suppressed += 1;
                } else {
                    out.diagnostics.push(d);
                }
            }
        }
        for (command_index, mut command) in report.commands.into_iter().enumerate() {
            origins.push((snippet_index, command_index));
            command.span = map_span(snippet, command.span);
            for d in &mut command.diagnostics {
                map_diagnostic(snippet, d);
            }
            let ignored = ignores.at(text, &lines, command.span.start);
            let before = command.diagnostics.len();
            command.diagnostics.retain(|d| !(ignored.covers(&d.code) || ignored_codes.iter().any(|c| c == &d.code)));
            let dropped = before - command.diagnostics.len();
            if dropped > 0 {
                out.suppressed += dropped;
                command.accepted = !command.diagnostics.iter().any(|d| d.is_sglang_error() || d.code == "CFG009");
            }
            let (line, column) = lines.line_column(text, command.span.start);
            out.accepted &= command.accepted;
            out.commands.push(FileCommand { line, column, command });
        }
    }
    pair_over_file(&mut out, text, &lines, &snippets, servers, &origins, ignored_codes);
    // in file order, whatever order the extractor found them in
    crate::sorting::sort_by_key(&mut out.commands, |c| c.command.span.start);
    attach_template_findings(&mut out, templates);
    out
}

/// A finding about a prefill/decode pair judged over one text; PAIR011 (a router's
/// `--prefill` against its prefill server) stays with the text that holds the router.
fn is_pair_finding(d: &Diagnostic) -> bool {
    d.code.starts_with("PAIR") && d.code != "PAIR011"
}

/// The PD prefill and decode servers of all of a file's launches, paired as in one paste:
/// a compose file's services, a page's code blocks. Findings land on the file's bytes with the
/// file's line numbers; a fix that edits the other server is mapped through its own snippet.
fn pair_over_file(
    out: &mut FileReport,
    text: &str,
    lines: &LineIndex,
    snippets: &[Snippet],
    servers: Vec<(usize, crate::pairs::PdServer)>,
    origins: &[(usize, usize)],
    ignored_codes: &[String],
) {
    if servers.len() < 2 {
        return;
    }
    let (homes, mut servers): (Vec<usize>, Vec<crate::pairs::PdServer>) = servers.into_iter().unzip();
    for (s, &home) in servers.iter_mut().zip(&homes) {
        if let Some(snippet) = snippets.get(home) {
            s.line = lines.line_column(text, map_span(snippet, s.launcher).start).0;
        }
    }
    for finding in crate::pairs::pair_findings(&servers) {
        let (Some(&home), Some(server)) = (homes.get(finding.on), servers.get(finding.on)) else { continue };
        let Some(snippet) = snippets.get(home) else { continue };
        let mut d = finding.diagnostic;
        d.span = map_span(snippet, d.span);
        for (i, fix) in d.fixes.iter_mut().enumerate() {
            let edited = finding.fix_on.get(i).and_then(|&s| homes.get(s)).and_then(|&h| snippets.get(h));
            match edited.and_then(|sn| map_edits(sn, &fix.edits)) {
                Some(edits) if !fix.edits.is_empty() => fix.edits = edits,
                _ => {
                    fix.edits.clear();
                    fix.applicability = Applicability::Display;
                }
            }
        }
        let Some(i) = origins.iter().position(|&o| o == (home, server.command)) else { continue };
        let Some(command) = out.commands.get_mut(i) else { continue };
        if command.command.diagnostics.iter().any(|x| x.code == d.code && x.span == d.span) {
            continue;
        }
        if suppression_at(text, command.command.span.start).covers(&d.code) || ignored_codes.iter().any(|c| c == &d.code) {
            out.suppressed += 1;
            continue;
        }
        command.command.diagnostics.push(d);
    }
}

/// Each template's SRC002 goes to the launch it sits in, in place of the shell's SH005 for the
/// unset variable it was read as (the same bytes): the launch is checked around the template
/// (its value is unknown: `CheckOptions::unknown_variables`). One outside every launch stays
/// file-level.
fn attach_template_findings(out: &mut FileReport, templates: Vec<Diagnostic>) {
    for t in templates {
        let inside = |c: &FileCommand| c.command.span.start <= t.span.start && t.span.end <= c.command.span.end;
        match out.commands.iter_mut().find(|c| inside(c)) {
            Some(c) => {
                let overlaps = |d: &Diagnostic| d.span.start < t.span.end.max(t.span.start + 1) && t.span.start < d.span.end.max(d.span.start + 1);
                // The template stands for a value the checker cannot know: the shell's SH005 for
                // the variable it was read as says the same thing less well.
                let before = c.command.diagnostics.len();
                c.command.diagnostics.retain(|d| !(d.code == "SH005" && overlaps(d)));
                if c.command.diagnostics.len() != before {
                    c.command.accepted = !c.command.diagnostics.iter().any(|d| d.is_sglang_error() || d.code == "CFG009");
                }
                let at = c.command.diagnostics.iter().take_while(|d| d.stage == crate::diagnostic::Stage::Shell).count();
                c.command.diagnostics.insert(at, t);
            }
            None => out.diagnostics.push(t),
        }
    }
}

/// The ignore comments for the last line asked about: findings and launches on one line
/// share them, and are read once (a line can be long).
#[derive(Default)]
struct IgnoresByLine {
    last: Option<(usize, Ignored)>,
}

impl IgnoresByLine {
    fn at(&mut self, text: &str, lines: &LineIndex, at: usize) -> Ignored {
        let line_start = lines.line_start(at);
        match &self.last {
            Some((start, ignored)) if *start == line_start => ignored.clone(),
            _ => {
                let ignored = suppression_at(text, at);
                self.last = Some((line_start, ignored.clone()));
                ignored
            }
        }
    }
}

/// Where the first launch-looking text of a file is (its end when there is none).
fn first_launch(text: &str) -> usize {
    LAUNCHERS.iter().filter_map(|l| text.find(l)).min().unwrap_or(text.len())
}

/// What a launch looks like in text, to tell a snippet meant to hold one.
const LAUNCHERS: [&str; 3] = ["sglang.launch_server", "sglang serve", "sglang/launch_server.py"];

/// A diagnostic's span and fix edits, from snippet bytes to file bytes.
fn map_diagnostic(snippet: &Snippet, d: &mut Diagnostic) {
    d.span = map_span(snippet, d.span);
    for fix in &mut d.fixes {
        if fix.edits.is_empty() {
            continue;
        }
        match map_edits(snippet, &fix.edits) {
            Some(edits) => fix.edits = edits,
            None => {
                fix.edits.clear();
                fix.applicability = Applicability::Display;
            }
        }
    }
}

/// The codes an ignore comment names for a command.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Ignored {
    #[default]
    Nothing,
    /// `sglang-preflight: ignore` with no list.
    All,
    /// `sglang-preflight: ignore[CODE1,CODE2]`.
    Codes(Vec<String>),
}

impl Ignored {
    pub fn covers(&self, code: &str) -> bool {
        match self {
            Ignored::Nothing => false,
            Ignored::All => true,
            Ignored::Codes(codes) => codes.iter().any(|c| c == code),
        }
    }

    fn merge(self, other: Ignored) -> Ignored {
        match (self, other) {
            (Ignored::All, _) | (_, Ignored::All) => Ignored::All,
            (Ignored::Codes(mut a), Ignored::Codes(b)) => {
                a.extend(b);
                Ignored::Codes(a)
            }
            (Ignored::Nothing, x) | (x, Ignored::Nothing) => x,
        }
    }
}

const DIRECTIVE: &str = "sglang-preflight: ignore";
/// Comment markers a directive may follow: shell / YAML / Dockerfile `#`, Markdown `<!--`,
/// reStructuredText `..`, `//` (JSONC, MDX).
const COMMENT_MARKERS: [&str; 4] = ["#", "<!--", "..", "//"];
/// How far above a command an ignore comment is looked for (blank lines and block openers
/// between them are skipped, up to this many lines).
const LINES_ABOVE: usize = 8;

/// The ignore directive in a comment on `line`: `comment_only` asks for a line that is only
/// that comment (after quoting, list dashes, blockquote marks and prompts).
fn directive_in(line: &str, comment_only: bool) -> Ignored {
    let mut found = Ignored::Nothing;
    for (at, _) in line.match_indices(DIRECTIVE) {
        let before = line.get(..at).unwrap_or_default().trim_end();
        let Some(marker) = COMMENT_MARKERS.iter().find(|m| before.ends_with(*m)) else { continue };
        if comment_only {
            let lead = before.get(..before.len() - marker.len()).unwrap_or_default();
            if !lead.chars().all(|c| c.is_whitespace() || matches!(c, '"' | '\'' | '-' | '>' | '$' | '!')) {
                continue;
            }
        }
        let after = line.get(at + DIRECTIVE.len()..).unwrap_or_default();
        let this = match after.strip_prefix('[').and_then(|rest| rest.split_once(']')) {
            Some((codes, _)) => Ignored::Codes(codes.split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect()),
            // `ignore-me`, `ignored`: another word, not the directive
            None if after.starts_with(|c: char| c.is_alphanumeric() || c == '-' || c == '_') => continue,
            None => Ignored::All,
        };
        found = found.merge(this);
    }
    found
}

/// A line that may stand between an ignore comment and the launch it is about: blank, a
/// Markdown fence, a reStructuredText directive or option, a YAML key that opens a value, a
/// notebook `%%` magic.
fn is_opener(line: &str) -> bool {
    let t = line.trim().trim_start_matches(['"', '>', ' ']).trim_end_matches([',', '"']).trim_end_matches("\\n").trim();
    t.is_empty()
        || t.starts_with("```")
        || t.starts_with("~~~")
        || (t.starts_with(".. ") && t.contains("::"))
        || (t.starts_with(':') && t.len() > 1)
        || t.starts_with("%%")
        || t.ends_with(':')
        || [": |", ": >", ": |-", ": >-", ": |+", ": >+", "- |", "- >"].iter().any(|s| t.ends_with(s))
}

/// What `sglang-preflight: ignore[...]` comments say about the launch starting at file byte
/// `at`: a comment on its line, or a comment-only line above it (blank lines, fences,
/// directives and YAML keys between them skipped).
pub fn suppression_at(text: &str, at: usize) -> Ignored {
    let at = at.min(text.len());
    let line_start = text.get(..at).and_then(|b| b.rfind('\n')).map(|i| i + 1).unwrap_or(0);
    let line_end = text.get(at..).and_then(|a| a.find('\n')).map(|i| at + i).unwrap_or(text.len());
    let mut found = directive_in(text.get(line_start..line_end).unwrap_or_default(), false);
    let mut above = text.get(..line_start).unwrap_or_default().trim_end_matches('\n').rsplit('\n');
    for _ in 0..LINES_ABOVE {
        let Some(line) = above.next() else { break };
        let directive = directive_in(line, true);
        if directive != Ignored::Nothing {
            found = found.merge(directive);
            continue;
        }
        if !is_opener(line) {
            break;
        }
    }
    found
}

/// Where a file's lines start, to give many commands their line and column in linear time.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// 0-based line of byte `at`.
    fn line_of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at).saturating_sub(1)
    }

    fn line_start(&self, at: usize) -> usize {
        self.starts.get(self.line_of(at)).copied().unwrap_or(0)
    }

    /// [`line_column`], with the line found by binary search.
    fn line_column(&self, text: &str, at: usize) -> (usize, usize) {
        let at = at.min(text.len());
        let start = self.line_start(at);
        (self.line_of(at) + 1, text.get(start..at).map(|s| s.chars().count()).unwrap_or(0) + 1)
    }
}

/// 1-based line and character column of byte `at` in `text`.
pub fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    (line, before.get(line_start..).map(|s| s.chars().count()).unwrap_or(0) + 1)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::string_slice)] // a failed expectation fails the test
mod tests {
    use super::*;

    fn seg(text: &str, file: Range<usize>, kind: PieceKind) -> Segment {
        Segment { text: text.to_string(), file, kind }
    }

    fn edit(start: usize, end: usize, replacement: &str) -> Edit {
        Edit { start, end, replacement: replacement.to_string() }
    }

    /// `> a \` / `> b`: two lines of a blockquote, their `> ` left out.
    fn blockquote() -> (&'static str, Snippet) {
        let file = "> a \\\n> b\n";
        let mut b = SnippetBuilder::default();
        b.push(seg("a \\\n", 2..6, PieceKind::Verbatim));
        b.push(seg("b\n", 8..10, PieceKind::Verbatim));
        (file, b.finish())
    }

    #[test]
    fn neighbours_that_continue_each_other_in_the_file_merge() {
        let mut b = SnippetBuilder::default();
        b.push(seg("ab", 0..2, PieceKind::Verbatim));
        b.push(seg("cd", 2..4, PieceKind::Verbatim));
        b.push(seg("\n", 4..4, PieceKind::Synthetic));
        b.push(seg("ef", 9..11, PieceKind::Verbatim));
        let s = b.finish();
        assert_eq!(s.text, "abcd\nef");
        let spans: Vec<(Range<usize>, Range<usize>)> = s.pieces.iter().map(|p| (p.snippet.clone(), p.file.clone())).collect();
        assert_eq!(spans, vec![(0..4, 0..4), (4..5, 4..4), (5..7, 9..11)]);
    }

    #[test]
    fn spans_map_byte_for_byte_and_across_lines() {
        let (file, s) = blockquote();
        assert_eq!(s.text, "a \\\nb\n");
        let whole = map_span(&s, Span::new(0, 5));
        assert_eq!(&file[whole.start..whole.end], "a \\\n> b");
        assert_eq!(map_span(&s, Span::empty_at(4)), Span::empty_at(8));
        assert_eq!(map_span(&s, Span::empty_at(6)), Span::empty_at(10));
    }

    #[test]
    fn an_insertion_where_lines_meet_goes_after_the_container_marks() {
        let (_, s) = blockquote();
        assert_eq!(map_edits(&s, &[edit(4, 4, "x ")]), Some(vec![edit(8, 8, "x ")]));
        // an edit across the join would rewrite the `> `: not mapped
        assert_eq!(map_edits(&s, &[edit(2, 5, "")]), None);
    }

    #[test]
    fn an_insertion_before_supplied_text_goes_at_the_end_of_the_line() {
        let mut b = SnippetBuilder::default();
        b.push(seg("run --a", 10..17, PieceKind::Verbatim));
        b.push(seg("\n", 17..17, PieceKind::Synthetic));
        b.push(seg("next", 30..34, PieceKind::Verbatim));
        let s = b.finish();
        assert_eq!(map_edits(&s, &[edit(7, 7, " --b")]), Some(vec![edit(17, 17, " --b")]));
        assert_eq!(map_edits(&s, &[edit(7, 8, " ")]), None);
    }

    #[test]
    fn json_string_edits_are_written_escaped_and_escapes_are_not_edited() {
        // the file holds `"a \"b\" c"`; the snippet `a "b" c`
        let file = r#""a \"b\" c""#;
        let mut b = SnippetBuilder::default();
        b.push(seg("a ", 1..3, PieceKind::JsonString));
        b.push(seg("\"", 3..5, PieceKind::Synthetic));
        b.push(seg("b", 5..6, PieceKind::JsonString));
        b.push(seg("\"", 6..8, PieceKind::Synthetic));
        b.push(seg(" c", 8..10, PieceKind::JsonString));
        let s = b.finish();
        assert_eq!(s.text, "a \"b\" c");
        assert_eq!(map_edits(&s, &[edit(6, 7, "'x\\y\"\n'")]), Some(vec![edit(9, 10, r#"'x\\y\"\n'"#)]));
        assert_eq!(map_edits(&s, &[edit(2, 5, "b")]), None);
        let quoted = map_span(&s, Span::new(2, 5));
        assert_eq!(&file[quoted.start..quoted.end], r#"\"b\""#);
    }

    #[test]
    fn lines_split_inside_segments_and_prompts_are_cut_exactly() {
        let lines = split_lines(vec![seg("$ a\nout\n$ b", 0..11, PieceKind::Verbatim)]);
        assert_eq!(lines.iter().map(line_text).collect::<Vec<_>>(), vec!["$ a\n", "out\n", "$ b"]);
        let s = shell_snippet(lines, Prompts::Console).unwrap();
        assert_eq!(s.text, "a\nb");
        let spans: Vec<Range<usize>> = s.pieces.iter().map(|p| p.file.clone()).collect();
        assert_eq!(spans, vec![2..4, 10..11]);
    }

    #[test]
    fn console_prompts() {
        assert_eq!(console_prompt_len("$ python"), Some(2));
        assert_eq!(console_prompt_len("  # python"), Some(4));
        assert_eq!(console_prompt_len("(venv) $ python"), Some(9));
        assert_eq!(console_prompt_len("$\n"), Some(1));
        assert_eq!(console_prompt_len("$HOME/x"), None);
        assert_eq!(console_prompt_len("(a b) $ x"), None);
        assert_eq!(console_prompt_len("#!/bin/bash"), None);
    }

    #[test]
    fn ignore_directives() {
        assert_eq!(directive_in("x # sglang-preflight: ignore[A1, B2]", false), Ignored::Codes(vec!["A1".into(), "B2".into()]));
        assert_eq!(directive_in("<!-- sglang-preflight: ignore -->", true), Ignored::All);
        assert_eq!(directive_in(".. sglang-preflight: ignore[X]", true), Ignored::Codes(vec!["X".into()]));
        assert_eq!(directive_in("x # sglang-preflight: ignore", true), Ignored::Nothing);
        assert_eq!(directive_in("echo sglang-preflight: ignore", false), Ignored::Nothing);
        assert_eq!(directive_in("# sglang-preflight: ignores", false), Ignored::Nothing);
    }
}
