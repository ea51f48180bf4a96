//! Launches in YAML files: Kubernetes manifests (Pods, Deployments, Jobs, LeaderWorkerSets:
//! wherever a mapping holds `command` / `args`), docker-compose services (`entrypoint` /
//! `command`), SkyPilot tasks (`run`, `envs`), GitHub Actions workflows (`run`, `env`), and any
//! other string that holds a shell launch.
//!
//! * A string scalar that mentions `sglang.launch_server` or `sglang serve` is shell text. Its
//!   value's bytes that are the file's bytes (a plain or quoted scalar's characters, a block
//!   scalar's lines without their indentation) are [`PieceKind::Verbatim`](super::PieceKind::Verbatim) pieces; escapes and
//!   line folding are [`PieceKind::Synthetic`](super::PieceKind::Synthetic).
//! * Exec-form lists: a mapping's `entrypoint` + `command` + `args` sequences of strings are one
//!   argv run with no shell (Kubernetes `command` + `args`, compose `entrypoint` + `command`).
//!   A launch there is written as shell-quoted words, each an [`PieceKind::Element`](super::PieceKind::Element) piece;
//!   `bash -c TEXT` / `sh -c TEXT` makes `TEXT` shell text as above.
//! * Variables: every enclosing mapping's `env` (a Kubernetes `[{name, value}]` list, or a
//!   mapping as in GitHub Actions at workflow, job and step level), `envs` (SkyPilot) and
//!   `environment` (compose: `K=V` list or mapping) become `export K=V` lines before the
//!   command, outer first. A variable whose value is not in the file (`valueFrom`, a secret, a
//!   compose `K` with no value, a template) is not exported: the checker then says that `$K`
//!   is not expanded (SH005) and checks the text around it, which is the honest reading; a
//!   Kubernetes one is also unknown by design ([`Extracted::unknown_variables`]): a flag whose
//!   value expands it is not judged.
//! * Expansion before the command runs: in a Kubernetes container (a mapping with `args` or an
//!   `env` list) the kubelet's `$(NAME)` takes the declared value (unknown ones, and the `LWS_*`
//!   variables LeaderWorkerSet injects, become unset variables; `$$` is one `$`); in a Compose
//!   file (`services:` at the top) `$VAR` / `${VAR...}` are the host's (unset here, and not
//!   exported from `environment:` for that command) and `$$` is one `$`.
//! * Templates (`{{ ... }}` of Helm, Jinja or Go templates, `${{ ... }}` of GitHub Actions,
//!   Jinja's `{% ... %}` and `{# ... #}`) are
//!   replaced by a placeholder of the same length before the YAML is parsed, so offsets stay
//!   exact; in a snippet a template becomes an unset variable (`${VALUES_TP}` for
//!   `{{ .Values.tp }}`), and [`extract_with_findings`] adds a `SRC002` warning at it.
//! * A file that does not parse gives one `SRC001` finding (when it mentions a launch) and no
//!   snippets. Aliases are not expanded; nesting deeper than [`MAX_DEPTH`] is not read.

use super::exec::{self, Builder, Item, Style};
use super::Snippet;
use crate::diagnostic::{Diagnostic, Severity, Stage};
use crate::shell::quote_word;
use crate::span::Span;
use std::ops::Range;
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::TScalarStyle;

/// Collections nested deeper than this are skipped (manifests nest a dozen levels or so).
pub const MAX_DEPTH: usize = 100;

/// What a YAML file holds for the checker: launch snippets, and findings about the file itself
/// (templates in a launch, a file that does not parse), with spans in the file's bytes.
#[derive(Debug, Clone, Default)]
pub struct Extracted {
    pub snippets: Vec<Snippet>,
    pub findings: Vec<Diagnostic>,
    /// The names of the variables whose values the file cannot give, by design, that its
    /// snippets expand (sorted, once each; over the whole file): templates read as unset
    /// variables (`VALUES_TP` for `{{ .Values.tp }}`), Kubernetes variables declared with no
    /// value in the file (`valueFrom`, a secret) and the `LWS_*` ones LeaderWorkerSet injects.
    /// A flag whose value expands one of them is not judged (`CheckOptions::unknown_variables`).
    pub unknown_variables: Vec<String>,
}

/// The launch-bearing snippets of a YAML file.
pub fn extract(text: &str) -> Vec<Snippet> {
    extract_with_findings(text).snippets
}

/// The launch-bearing snippets of a YAML file, and the `SRC002` / `SRC001` findings about it.
pub fn extract_with_findings(text: &str) -> Extracted {
    let templates = find_templates(text);
    let parsed_text = with_placeholders(text, &templates);
    let docs = match read_tree(&parsed_text) {
        Ok(docs) => docs,
        Err((message, at)) => {
            let mut out = Extracted::default();
            if mentions_launch(text) {
                out.findings.push(not_yaml(text, &message, at));
            }
            return out;
        }
    };
    let mut walker =
        Walker { file: &parsed_text, original: text, templates: &templates, used_templates: Vec::new(), compose: false, snippets: Vec::new(), unknown_variables: Vec::new() };
    for doc in &docs {
        walker.compose = matches!(doc, Node::Map(entries) if entries.iter().any(|(k, _)| key_is(k, "services")));
        walker.node(doc, &mut Vec::new(), 0);
    }
    let mut used = std::mem::take(&mut walker.used_templates);
    crate::sorting::sort(&mut used);
    used.dedup();
    let findings = used.into_iter().filter_map(|k| templates.get(k)).map(|t| template_finding(text, t.clone())).collect();
    let mut unknown_variables = walker.unknown_variables;
    crate::sorting::sort(&mut unknown_variables);
    unknown_variables.dedup();
    Extracted { snippets: walker.snippets, findings, unknown_variables }
}

/// Whether `edited` (the file after fixes were applied) still parses and holds as many launches
/// as `original`. Edits inside a quoted or plain scalar are written as the shell text's own
/// bytes, and a `"` in a double-quoted scalar (or `: ` in a plain one) would change the YAML:
/// `--fix` checks the result with this before writing it.
pub fn edit_keeps_file(original: &str, edited: &str) -> bool {
    let before = extract_with_findings(original);
    let after = extract_with_findings(edited);
    after.findings.iter().all(|d| d.code != "SRC001") && after.snippets.len() == before.snippets.len()
}

fn not_yaml(text: &str, message: &str, at: usize) -> Diagnostic {
    let at = floor_char_boundary(text, at.min(text.len()));
    Diagnostic::preflight(
        "SRC001",
        Severity::Error,
        Stage::Shell,
        format!("This file is not valid YAML ({message}); its launch commands are not checked"),
        Span::empty_at(at),
    )
    .with_explanation(
        "The file mentions an SGLang launch, but it does not parse as YAML, so the commands in it cannot be found \
         reliably (and kubectl, docker compose or the CI runner would reject the file too). Fix the YAML first.",
    )
}

fn template_finding(text: &str, range: Range<usize>) -> Diagnostic {
    let written = text.get(range.clone()).unwrap_or("");
    Diagnostic::preflight(
        "SRC002",
        Severity::Warning,
        Stage::Shell,
        format!("`{}` is a template: its value is not known here; the launch is checked around it", preview(written)),
        Span::new(range.start, range.end),
    )
    .with_explanation(
        "The value is filled in when the template is rendered (Helm, Jinja, GitHub Actions expressions), which preflight \
         does not do. The template is read as an unset shell variable, so the rest of the command is still checked; a \
         flag whose value is templated cannot be checked. Render the template (`helm template ...`) and check the output \
         to check those values too.",
    )
}

fn preview(s: &str) -> String {
    let shown: String = s.chars().take(60).collect();
    if shown.len() < s.len() {
        format!("{shown}…")
    } else {
        shown
    }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Whether shell text mentions an SGLang launch (`sglang.launch_server`, `sglang serve`).
pub fn mentions_launch(text: &str) -> bool {
    if text.contains("sglang.launch_server") {
        return true;
    }
    text.match_indices("sglang").any(|(i, m)| {
        let rest = text.get(i + m.len()..).unwrap_or("");
        let trimmed = rest.trim_start_matches([' ', '\t']);
        trimmed.len() < rest.len() && trimmed.starts_with("serve")
    })
}

// ---------------------------------------------------------------------------------------------
// Templates

/// Every template in file order: `{{ ... }}` (with a `$` just before it, as in `${{ ... }}`),
/// and Jinja's `{% ... %}` statements and `{# ... #}` comments.
pub fn find_templates(text: &str) -> Vec<Range<usize>> {
    const KINDS: [(u8, &str); 3] = [(b'{', "}}"), (b'%', "%}"), (b'#', "#}")];
    let b = text.as_bytes();
    let mut out = Vec::new();
    // a kind with no closer after some opener has none after any later opener either
    let mut unclosed = [false; 3];
    let mut at = 0;
    while let Some(open) = text.get(at..).and_then(|t| t.find('{')).map(|i| i + at) {
        at = open + 1;
        let Some(kind) = KINDS.iter().position(|(second, _)| b.get(open + 1) == Some(second)) else { continue };
        let (Some(closer), Some(false)) = (KINDS.get(kind).map(|k| k.1), unclosed.get(kind).copied()) else { continue };
        let Some(close) = text.get(open + 2..).and_then(|t| t.find(closer)).map(|i| i + open + 2) else {
            if let Some(flag) = unclosed.get_mut(kind) {
                *flag = true;
            }
            continue;
        };
        let start = if kind == 0 && open > 0 && b.get(open - 1) == Some(&b'$') { open - 1 } else { open };
        let end = close + 2;
        out.push(start..end);
        at = end;
    }
    out
}

/// `text` with each template replaced by bytes of the same length that parse as YAML: a
/// comment when the template has a line to itself (a Helm `{{- if ... }}`), else `x`s (line
/// breaks inside a template are kept).
fn with_placeholders(text: &str, templates: &[Range<usize>]) -> String {
    if templates.is_empty() {
        return text.to_string();
    }
    let mut bytes = text.as_bytes().to_vec();
    let blank = |r: Range<usize>| text.get(r).is_some_and(|s| s.trim().is_empty());
    // each byte is looked at a bounded number of times, however many templates share a line
    let mut line_start = 0;
    let mut next_newline: Option<usize> = None;
    for (k, t) in templates.iter().enumerate() {
        let previous_end = k.checked_sub(1).and_then(|p| templates.get(p)).map(|p| p.end).unwrap_or(0);
        if let Some(nl) = text.get(previous_end..t.start).and_then(|s| s.rfind('\n')) {
            line_start = previous_end + nl + 1;
        }
        let line_end = match next_newline {
            Some(nl) if nl >= t.end => nl,
            _ => text.get(t.end..).and_then(|s| s.find('\n')).map(|i| i + t.end).unwrap_or(text.len()),
        };
        next_newline = Some(line_end);
        let first_on_line = previous_end <= line_start && blank(line_start..t.start);
        let next_start = templates.get(k + 1).map(|n| n.start).unwrap_or(usize::MAX);
        let last_on_line = next_start >= line_end && blank(t.end..line_end);
        let own_line = first_on_line && last_on_line;
        for (i, b) in bytes.iter_mut().enumerate().take(t.end).skip(t.start) {
            if *b == b'\n' || *b == b'\r' {
                continue;
            }
            *b = if own_line { if i == t.start { b'#' } else { b' ' } } else { b'x' };
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

/// A shell variable name for a template (`{{ .Values.tp }}` → `VALUES_TP`).
fn template_variable(written: &str) -> String {
    let inner = written.trim_start_matches('$').trim_start_matches('{').trim_end_matches('}');
    let parts: Vec<String> = inner.split(|c: char| !c.is_ascii_alphanumeric()).filter(|p| !p.is_empty()).map(|p| p.to_ascii_uppercase()).collect();
    let mut name = parts.join("_");
    name.truncate(48);
    if name.is_empty() {
        name = "TEMPLATE".to_string();
    }
    if name.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        name.insert(0, '_');
    }
    name
}

// ---------------------------------------------------------------------------------------------
// Scalars: which of a value's bytes are the file's

/// How a scalar is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quoting {
    Plain,
    Single,
    /// Double-quoted YAML, and JSON strings (whose escapes YAML's double quotes read too).
    Double,
    /// A literal or folded block scalar: each line after this many bytes of indentation.
    Block { indent: usize },
}

/// A stretch of a scalar's value and where it is in the file: the same bytes (`verbatim`), or
/// an escape, a folded line break, ... written there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Seg {
    pub value: Range<usize>,
    pub file: Range<usize>,
    pub verbatim: bool,
}

/// A scalar's value laid over the file.
#[derive(Debug, Clone)]
pub(crate) struct Aligned {
    pub segs: Vec<Seg>,
    /// Where the scalar ends in the file (after the closing quote).
    pub end: usize,
    /// Every byte of the value was accounted for: `end` and the segments are exact.
    pub exact: bool,
}

/// Lay `value` over `file` from `content_start` (after an opening quote; a block scalar's
/// first line). Linear in the bytes read; never reads past the scalar's end on a match.
pub(crate) fn align(file: &str, content_start: usize, value: &str, quoting: Quoting) -> Aligned {
    let fb = file.as_bytes();
    let vb = value.as_bytes();
    let mut segs: Vec<Seg> = Vec::new();
    let mut f = content_start;
    let mut i = 0usize;
    let mut exact = false;
    let push = |segs: &mut Vec<Seg>, value: Range<usize>, file: Range<usize>, verbatim: bool| {
        if let Some(last) = segs.last_mut() {
            if verbatim && last.verbatim && last.value.end == value.start && last.file.end == file.start {
                last.value.end = value.end;
                last.file.end = file.end;
                return;
            }
        }
        segs.push(Seg { value, file, verbatim });
    };
    let skip_indent = |mut f: usize, indent: usize| {
        let mut n = 0;
        while n < indent && fb.get(f) == Some(&b' ') {
            f += 1;
            n += 1;
        }
        f
    };
    if let Quoting::Block { indent } = quoting {
        f = skip_indent(f, indent);
    }
    while let Some(&c) = fb.get(f) {
        match quoting {
            Quoting::Double if c == b'"' => {
                f += 1;
                exact = i == vb.len();
                break;
            }
            Quoting::Double if c == b'\\' => {
                match fb.get(f + 1) {
                    Some(b'\n') | Some(b'\r') => {
                        // an escaped line break: nothing in the value, the next line's blanks skipped
                        f += if fb.get(f + 1) == Some(&b'\r') && fb.get(f + 2) == Some(&b'\n') { 3 } else { 2 };
                        while matches!(fb.get(f), Some(b' ') | Some(b'\t')) {
                            f += 1;
                        }
                    }
                    next => {
                        let len = match next {
                            Some(b'x') => 4,
                            Some(b'u') => 6,
                            Some(b'U') => 10,
                            _ => 2,
                        };
                        let end = (f + len).min(fb.len());
                        let ch = value.get(i..).and_then(|r| r.chars().next()).map(char::len_utf8).unwrap_or(0);
                        // a UTF-16 surrogate pair is two `\u` escapes for one character
                        let pair = next == Some(&b'u') && ch == 4 && fb.get(end) == Some(&b'\\') && fb.get(end + 1) == Some(&b'u');
                        let end = if pair { (end + 6).min(fb.len()) } else { end };
                        push(&mut segs, i..i + ch, f..end, false);
                        i += ch;
                        f = end;
                    }
                }
                continue;
            }
            Quoting::Single if c == b'\'' => {
                if fb.get(f + 1) == Some(&b'\'') && vb.get(i) == Some(&b'\'') {
                    push(&mut segs, i..i + 1, f..f + 1, true);
                    i += 1;
                    f += 2;
                    continue;
                }
                f += 1;
                exact = i == vb.len();
                break;
            }
            _ => {}
        }
        let Some(&v) = vb.get(i) else {
            match quoting {
                Quoting::Plain | Quoting::Block { .. } => {
                    exact = true;
                    break;
                }
                // trailing blanks before the closing quote
                _ if matches!(c, b' ' | b'\t' | b'\r' | b'\n') => {
                    f += 1;
                    continue;
                }
                _ => break,
            }
        };
        if v == c {
            push(&mut segs, i..i + 1, f..f + 1, true);
            i += 1;
            f += 1;
            if let (Quoting::Block { indent }, b'\n') = (quoting, c) {
                f = skip_indent(f, indent);
            }
            continue;
        }
        if !matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
            break;
        }
        match quoting {
            Quoting::Block { indent } => {
                if c == b'\n' && v == b' ' {
                    // a folded line break
                    push(&mut segs, i..i + 1, f..f + 1, false);
                    i += 1;
                }
                f += 1;
                if c == b'\n' {
                    f = skip_indent(f, indent);
                }
            }
            _ => {
                let run = fb.get(f..).map(|r| r.iter().take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')).count()).unwrap_or(0);
                let breaks = fb.get(f..f + run).map(|r| r.iter().filter(|&&b| b == b'\n').count()).unwrap_or(0);
                if breaks == 0 {
                    break;
                }
                // a line fold: one space, or one line break fewer than the empty lines
                let want = if breaks == 1 { 1 } else { breaks - 1 };
                let from = i;
                while i - from < want && matches!(vb.get(i), Some(b' ') | Some(b'\n')) {
                    i += 1;
                }
                if i > from {
                    push(&mut segs, from..i, f..f + run, false);
                }
                f += run;
            }
        }
    }
    if i < vb.len() {
        exact = false;
        // what could not be laid over the file is shown at the scalar's start
        segs.push(Seg { value: i..vb.len(), file: content_start..f.max(content_start).min(fb.len()), verbatim: false });
    }
    Aligned { segs, end: f.min(fb.len()), exact }
}

// ---------------------------------------------------------------------------------------------
// The document tree (values with their places; aliases not expanded)

#[derive(Debug)]
enum Node {
    Scalar(Scalar),
    Seq(Seq),
    Map(Vec<(Node, Node)>),
    /// An alias, or something nested too deep.
    Other,
}

#[derive(Debug)]
struct Scalar {
    value: String,
    style: TScalarStyle,
    /// The marker's byte: the opening quote; a block scalar's first content byte.
    start: usize,
}

#[derive(Debug)]
struct Seq {
    /// `[`, or the first `-`.
    start: usize,
    items: Vec<Node>,
}

enum Open {
    Seq(Seq),
    Map(Vec<(Node, Node)>, Option<Node>),
}

/// Char index → byte offset (yaml-rust2's markers count characters).
struct Offsets {
    starts: Option<Vec<usize>>,
    len: usize,
}

impl Offsets {
    fn new(text: &str) -> Offsets {
        let starts = (!text.is_ascii()).then(|| text.char_indices().map(|(b, _)| b).collect());
        Offsets { starts, len: text.len() }
    }
    fn byte(&self, char_index: usize) -> usize {
        match &self.starts {
            None => char_index.min(self.len),
            Some(s) => s.get(char_index).copied().unwrap_or(self.len),
        }
    }
}

/// The documents of `text` as trees, or the parse error's message and byte.
fn read_tree(text: &str) -> Result<Vec<Node>, (String, usize)> {
    let offsets = Offsets::new(text);
    let mut parser = Parser::new_from_str(text);
    let mut docs = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    // collections opened below MAX_DEPTH, not read
    let mut skipped = 0usize;
    loop {
        let (event, mark) = parser.next_token().map_err(|e| (e.info().to_string(), offsets.byte(e.marker().index())))?;
        let done: Option<Node> = match event {
            Event::StreamEnd => break,
            Event::SequenceStart(..) | Event::MappingStart(..) if skipped > 0 || stack.len() >= MAX_DEPTH => {
                skipped += 1;
                None
            }
            Event::SequenceEnd | Event::MappingEnd if skipped > 0 => {
                skipped -= 1;
                (skipped == 0).then_some(Node::Other)
            }
            _ if skipped > 0 => None,
            Event::Scalar(value, style, _, _) => Some(Node::Scalar(Scalar { value, style, start: offsets.byte(mark.index()) })),
            Event::Alias(_) => Some(Node::Other),
            Event::SequenceStart(..) => {
                stack.push(Open::Seq(Seq { start: offsets.byte(mark.index()), items: Vec::new() }));
                None
            }
            Event::MappingStart(..) => {
                stack.push(Open::Map(Vec::new(), None));
                None
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                Some(Open::Seq(seq)) => Some(Node::Seq(seq)),
                Some(Open::Map(entries, _)) => Some(Node::Map(entries)),
                None => None,
            },
            Event::Nothing | Event::StreamStart | Event::DocumentStart | Event::DocumentEnd => None,
        };
        let Some(node) = done else { continue };
        match stack.last_mut() {
            None => docs.push(node),
            Some(Open::Seq(seq)) => seq.items.push(node),
            Some(Open::Map(entries, pending)) => match pending.take() {
                None => *pending = Some(node),
                Some(key) => entries.push((key, node)),
            },
        }
    }
    Ok(docs)
}

// ---------------------------------------------------------------------------------------------
// Walking the tree

/// A variable an enclosing mapping sets.
#[derive(Debug, Clone)]
struct Var {
    name: String,
    /// `None`: set, but its value is not in the file.
    value: Option<String>,
    anchor: Range<usize>,
}

struct Walker<'a> {
    /// The file with templates replaced by placeholders (same bytes elsewhere).
    file: &'a str,
    /// The file as written.
    original: &'a str,
    templates: &'a [Range<usize>],
    /// Indexes into `templates` of those inside a launch.
    used_templates: Vec<usize>,
    /// The document is a Compose file (`services:` at the top): docker compose interpolates
    /// `$VAR` / `${VAR...}` in every value from the host's environment, `$$` is one `$`.
    compose: bool,
    snippets: Vec<Snippet>,
    /// See [`Extracted::unknown_variables`] (unsorted, repeats included).
    unknown_variables: Vec<String>,
}

fn key_is(key: &Node, name: &str) -> bool {
    matches!(key, Node::Scalar(s) if s.value == name)
}

impl Walker<'_> {
    /// `env`: the variables of the enclosing mappings, outer first (a stack: each mapping's
    /// are pushed while its values are walked, so the walk stays linear).
    fn node(&mut self, node: &Node, env: &mut Vec<Var>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match node {
            Node::Scalar(s) => {
                if s.style != TScalarStyle::Plain || !s.value.is_empty() {
                    self.shell_string(s, env, None);
                }
            }
            Node::Seq(seq) => {
                for item in &seq.items {
                    self.node(item, env, depth + 1);
                }
            }
            Node::Map(entries) => {
                let outer = env.len();
                for (key, value) in entries {
                    if key_is(key, "env") || key_is(key, "envs") || key_is(key, "environment") {
                        self.variables(value, env);
                    }
                }
                // a Kubernetes container: the kubelet expands `$(NAME)` of the variables its
                // `env` list declares (and those LeaderWorkerSet injects) in `command` / `args`
                let kube: Option<Vec<Var>> = entries.iter().find(|(k, _)| key_is(k, "env")).and_then(|(_, v)| match v {
                    Node::Seq(_) => {
                        let mut declared = Vec::new();
                        self.variables(v, &mut declared);
                        Some(declared)
                    }
                    _ => None,
                });
                let has_args = entries.iter().any(|(k, _)| key_is(k, "args"));
                let kube = kube.or_else(|| has_args.then(Vec::new));
                let handled = self.exec_form(entries, env, kube.as_deref());
                for (key, value) in entries {
                    let is_env = key_is(key, "env") || key_is(key, "envs") || key_is(key, "environment");
                    let is_handled = handled && ["entrypoint", "command", "args"].iter().any(|k| key_is(key, k));
                    if !is_env && !is_handled {
                        self.node(value, env, depth + 1);
                    }
                }
                env.truncate(outer);
            }
            Node::Other => {}
        }
    }

    /// Variables from an `env` / `envs` / `environment` value.
    fn variables(&mut self, value: &Node, scope: &mut Vec<Var>) {
        let first = scope.len();
        self.declared_variables(value, scope);
        // A Kubernetes variable declared with no value here (`valueFrom`, a secret) is set when
        // the container starts: its value is unknown by design. Compose's and Actions' are not
        // declared that way (a compose `K` with no value is the host's, left as today).
        if !self.compose {
            let unknown = scope.get(first..).unwrap_or(&[]).iter().filter(|v| v.value.is_none()).map(|v| v.name.clone());
            self.unknown_variables.extend(unknown);
        }
    }

    /// Variables from an `env` / `envs` / `environment` value, as declared.
    fn declared_variables(&self, value: &Node, scope: &mut Vec<Var>) {
        match value {
            // GitHub Actions `env:`, SkyPilot `envs:`, compose `environment:` as a mapping
            Node::Map(entries) => {
                for (k, v) in entries {
                    let Node::Scalar(name) = k else { continue };
                    let known = match v {
                        Node::Scalar(s) => self.known_value(s),
                        _ => None,
                    };
                    scope.push(Var { name: name.value.clone(), value: known, anchor: name.start..name.start + name.value.len() });
                }
            }
            Node::Seq(seq) => {
                for item in &seq.items {
                    match item {
                        // Kubernetes: {name: K, value: V} or {name: K, valueFrom: ...}
                        Node::Map(fields) => {
                            let field = |n: &str| fields.iter().find(|(k, _)| key_is(k, n)).map(|(_, v)| v);
                            let Some(Node::Scalar(name)) = field("name") else { continue };
                            let value = match field("value") {
                                Some(Node::Scalar(v)) => self.known_value(v),
                                _ => None,
                            };
                            scope.push(Var { name: name.value.clone(), value, anchor: name.start..name.start + name.value.len() });
                        }
                        // compose: "K=V", or "K" (taken from the host: not known)
                        Node::Scalar(s) => {
                            let (name, value) = match s.value.split_once('=') {
                                Some((n, v)) if self.no_template(s) => (n.to_string(), self.interpolated(v.to_string())),
                                Some((n, _)) => (n.to_string(), None),
                                None => (s.value.clone(), None),
                            };
                            scope.push(Var { name, value, anchor: s.start..s.start + s.value.len() });
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    /// A variable's value as written, unless it is null or templated.
    fn known_value(&self, s: &Scalar) -> Option<String> {
        let null = s.style == TScalarStyle::Plain && matches!(s.value.as_str(), "" | "~" | "null" | "Null" | "NULL");
        if null || !self.no_template(s) {
            return None;
        }
        self.interpolated(s.value.clone())
    }

    /// A value after docker compose's interpolation, when it does not depend on the host's
    /// environment (`$$` is one `$`); other files' values as written.
    fn interpolated(&self, value: String) -> Option<String> {
        if !self.compose || !value.contains('$') {
            return Some(value);
        }
        let refs = compose_references(&value);
        if refs.iter().any(|(_, _, host)| host.is_some()) {
            return None;
        }
        Some(value.replace("$$", "$"))
    }

    fn no_template(&self, s: &Scalar) -> bool {
        let end = self.scalar_extent(s).end;
        !self.templates.iter().any(|t| t.start < end && s.start < t.end)
    }

    /// Where a scalar's content starts, and how it is quoted.
    fn scalar_layout(&self, s: &Scalar) -> (usize, Quoting) {
        match s.style {
            TScalarStyle::SingleQuoted => (s.start + 1, Quoting::Single),
            TScalarStyle::DoubleQuoted => (s.start + 1, Quoting::Double),
            TScalarStyle::Literal | TScalarStyle::Folded => {
                // the marker is the first content line's first byte after the indentation; the
                // value starts on the line after the `|` / `>` header (blank lines included)
                let line_start = self.file.get(..s.start).and_then(|t| t.rfind('\n')).map(|i| i + 1).unwrap_or(0);
                let indent = s.start - line_start;
                let mut body = line_start;
                while body > 0 {
                    let prev_start = self.file.get(..body - 1).and_then(|t| t.rfind('\n')).map(|i| i + 1).unwrap_or(0);
                    if self.file.get(prev_start..body).is_some_and(|l| l.trim().is_empty()) {
                        body = prev_start;
                    } else {
                        break;
                    }
                }
                (body, Quoting::Block { indent })
            }
            _ => (s.start, Quoting::Plain),
        }
    }

    fn align_scalar(&self, s: &Scalar) -> Aligned {
        let (content, quoting) = self.scalar_layout(s);
        align(self.file, content, &s.value, quoting)
    }

    /// The scalar's bytes in the file, quotes included.
    fn scalar_extent(&self, s: &Scalar) -> Range<usize> {
        let a = self.align_scalar(s);
        s.start..a.end.max(s.start)
    }

    /// Templates overlapping `file`, by index.
    fn templates_in(&self, file: &Range<usize>) -> std::ops::Range<usize> {
        let first = self.templates.partition_point(|t| t.end <= file.start);
        let last = self.templates.partition_point(|t| t.start < file.end);
        first..last.max(first)
    }

    /// What stands in the snippet for file bytes of a scalar's verbatim stretches: templates
    /// (an unset variable), and in a Kubernetes container the `$(NAME)` references the kubelet
    /// expands (`kube`: the container's declared variables) — by value when it is in the file,
    /// else as an unset variable. In file order, not overlapping.
    fn stand_ins(&self, segs: &[Seg], kube: Option<&[Var]>) -> Vec<StandIn> {
        let mut out: Vec<StandIn> = Vec::new();
        for seg in segs.iter().filter(|s| s.verbatim) {
            let mut found: Vec<StandIn> = Vec::new();
            for k in self.templates_in(&seg.file) {
                let Some(t) = self.templates.get(k) else { continue };
                let name = template_variable(self.template_text(t));
                found.push(StandIn { file: t.start.max(seg.file.start)..t.end.min(seg.file.end), text: format!("${{{name}}}"), template: Some(k), host: None });
            }
            if let Some(vars) = kube {
                let text = self.file.get(seg.file.clone()).unwrap_or("");
                found.extend(kubelet_references(text, vars).into_iter().map(|(r, text)| StandIn { file: seg.file.start + r.start..seg.file.start + r.end, text, template: None, host: None }));
            }
            if self.compose {
                let text = self.file.get(seg.file.clone()).unwrap_or("");
                found.extend(
                    compose_references(text)
                        .into_iter()
                        .map(|(r, text, host)| StandIn { file: seg.file.start + r.start..seg.file.start + r.end, text, template: None, host }),
                );
            }
            crate::sorting::sort_by_key(&mut found, |s| s.file.start);
            for f in found {
                if !out.last().is_some_and(|last| last.file.end > f.file.start) {
                    out.push(f);
                }
            }
        }
        out
    }

    /// The unset variables that stand for values the file cannot give (templates, and the
    /// kubelet's `$(NAME)` of a variable with no value here); not docker compose's host ones.
    fn note_unknown(&mut self, stand_ins: &[StandIn]) {
        for s in stand_ins.iter().filter(|s| s.host.is_none()) {
            if let Some(name) = s.text.strip_prefix("${").and_then(|t| t.strip_suffix('}')) {
                self.unknown_variables.push(name.to_string());
            }
        }
    }

    /// A string scalar that mentions a launch: its value is shell text.
    fn shell_string(&mut self, s: &Scalar, env: &[Var], kube: Option<&[Var]>) {
        if !mentions_launch(&s.value) {
            return;
        }
        let mut out = Builder::default();
        let aligned = self.align_scalar(s);
        let stand_ins = self.stand_ins(&aligned.segs, kube);
        self.note_unknown(&stand_ins);
        exports(&mut out, env, &host_variables(&stand_ins));
        self.write_value(&mut out, &s.value, &aligned.segs, &stand_ins);
        if !out.is_empty() {
            self.snippets.push(out.finish());
        }
    }

    /// A scalar's value into the snippet, verbatim where it is the file's bytes, with its stand-ins.
    fn write_value(&mut self, out: &mut Builder, value: &str, segs: &[Seg], stand_ins: &[StandIn]) {
        let mut next = 0;
        for seg in segs {
            let text = value.get(seg.value.clone()).unwrap_or("");
            if !seg.verbatim {
                out.synthetic(text, seg.file.clone());
                continue;
            }
            let mut at = seg.file.start;
            while let Some(stand) = stand_ins.get(next).filter(|s| s.file.start < seg.file.end) {
                if stand.file.start > at {
                    out.verbatim(self.file.get(at..stand.file.start).unwrap_or(""), at);
                }
                out.synthetic(&stand.text, stand.file.clone());
                self.used_templates.extend(stand.template);
                at = stand.file.end.max(at);
                next += 1;
            }
            if seg.file.end > at {
                out.verbatim(self.file.get(at..seg.file.end).unwrap_or(""), at);
            }
        }
    }

    /// A template's text as written.
    fn template_text(&self, t: &Range<usize>) -> &str {
        self.original.get(t.clone()).unwrap_or("")
    }

    /// A mapping's exec-form `entrypoint` + `command` + `args`; true when they were read as a
    /// launch (or a shell's script), false when their items are to be read one by one.
    fn exec_form(&mut self, entries: &[(Node, Node)], env: &[Var], kube: Option<&[Var]>) -> bool {
        let lists: Vec<&Seq> = ["entrypoint", "command", "args"]
            .iter()
            .filter_map(|k| entries.iter().find(|(key, _)| key_is(key, k)).map(|(_, v)| v))
            .filter_map(|v| match v {
                Node::Seq(seq) => Some(seq),
                _ => None,
            })
            .collect();
        if lists.is_empty() {
            return false;
        }
        let mut argv: Vec<Item> = Vec::new();
        let mut same_list: Vec<bool> = Vec::new();
        let mut scalars: Vec<&Scalar> = Vec::new();
        let mut used: Vec<usize> = Vec::new();
        let mut host: Vec<String> = Vec::new();
        for seq in &lists {
            let style = self.seq_style(seq);
            // a flow sequence of double-quoted strings is written on as JSON
            let all_quoted = seq.items.iter().all(|i| matches!(i, Node::Scalar(s) if s.style == TScalarStyle::DoubleQuoted));
            let style = if style == Some(Style::YamlFlow) && all_quoted { Some(Style::Json) } else { style };
            for (k, item) in seq.items.iter().enumerate() {
                // a list of something other than strings is not an argv
                let Node::Scalar(s) = item else { return false };
                let aligned = self.align_scalar(s);
                let file = s.start..aligned.end.max(s.start);
                let stand_ins = self.stand_ins(&aligned.segs, kube);
                self.note_unknown(&stand_ins);
                used.extend(stand_ins.iter().filter_map(|s| s.template));
                host.extend(host_variables(&stand_ins));
                let word = if stand_ins.is_empty() { quote_word(&s.value) } else { self.word_with_stand_ins(s, &aligned, &stand_ins) };
                // an item with a value not in the file is checked, not rewritten
                let style = if aligned.exact && stand_ins.is_empty() { style.clone() } else { None };
                argv.push(Item { value: s.value.clone(), file, style, word });
                same_list.push(k > 0);
                scalars.push(s);
            }
        }
        let values: Vec<&str> = argv.iter().map(|i| i.value.as_str()).collect();
        if let Some(script) = shell_script_index(&values) {
            // `bash -c TEXT`: TEXT is shell text
            if let Some(s) = scalars.get(script) {
                self.shell_string(s, env, kube);
            }
            return true;
        }
        if !is_launch_argv(&values) {
            // not a launch itself: an item may still be a launch another program runs
            return false;
        }
        let mut out = Builder::default();
        exports(&mut out, env, &host);
        self.used_templates.extend(used);
        exec::write_argv(&mut out, &argv, &same_list);
        self.snippets.push(out.finish());
        true
    }

    /// An item with stand-ins, as a double-quoted shell word.
    fn word_with_stand_ins(&self, s: &Scalar, aligned: &Aligned, stand_ins: &[StandIn]) -> String {
        let mut word = String::from("\"");
        let mut next = 0;
        for seg in &aligned.segs {
            if !seg.verbatim {
                word.push_str(&double_quote_escape(s.value.get(seg.value.clone()).unwrap_or("")));
                continue;
            }
            // verbatim: value offsets follow file offsets one for one
            let to_value = |f: usize| seg.value.start + f.saturating_sub(seg.file.start).min(seg.value.len());
            let mut at = seg.value.start;
            while let Some(stand) = stand_ins.get(next).filter(|st| st.file.start < seg.file.end) {
                let from = to_value(stand.file.start).max(at);
                word.push_str(&double_quote_escape(s.value.get(at..from).unwrap_or("")));
                // a known value is literal text; an unknown one stays a variable
                if stand.text.starts_with("${") {
                    word.push_str(&stand.text);
                } else {
                    word.push_str(&double_quote_escape(&stand.text));
                }
                at = to_value(stand.file.end).max(at);
                next += 1;
            }
            word.push_str(&double_quote_escape(s.value.get(at..seg.value.end).unwrap_or("")));
        }
        word.push('"');
        word
    }

    /// The syntax of a sequence's items.
    fn seq_style(&self, seq: &Seq) -> Option<Style> {
        let bytes = self.file.as_bytes();
        match bytes.get(seq.start) {
            Some(b'[') => Some(Style::YamlFlow),
            Some(b'-') => {
                let line_start = self.file.get(..seq.start).and_then(|t| t.rfind('\n')).map(|i| i + 1).unwrap_or(0);
                let before = self.file.get(line_start..seq.start)?;
                before.bytes().all(|b| b == b' ').then_some(Style::YamlBlock { indent: before.len() })
            }
            _ => None,
        }
    }
}

/// File bytes that a snippet shows as other text.
#[derive(Debug, Clone)]
struct StandIn {
    file: Range<usize>,
    text: String,
    /// The template it is, by index.
    template: Option<usize>,
    /// The host variable docker compose fills in here.
    host: Option<String>,
}

fn host_variables(stand_ins: &[StandIn]) -> Vec<String> {
    stand_ins.iter().filter_map(|s| s.host.clone()).collect()
}

/// Docker compose's interpolation in `text`: `$$` is one `$`; `$NAME` and `${NAME...}` take the
/// host's value (not known here: written as `${NAME...}`, which the snippet leaves unset). For
/// each, its range, the snippet's text and the host variable's name.
fn compose_references(text: &str) -> Vec<(Range<usize>, String, Option<String>)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let name_len = |from: usize| b.get(from..).map(|r| r.iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count()).unwrap_or(0);
    while let Some(k) = text.get(i..).and_then(|t| t.find('$')).map(|k| k + i) {
        i = k + 1;
        match b.get(k + 1) {
            Some(b'$') => {
                out.push((k..k + 2, "$".to_string(), None));
                i = k + 2;
            }
            Some(b'{') => {
                let Some(close) = text.get(k..).and_then(|t| t.find('}')).map(|c| c + k) else { continue };
                let n = name_len(k + 2);
                if n == 0 {
                    continue;
                }
                let name = text.get(k + 2..k + 2 + n).unwrap_or("").to_string();
                out.push((k..close + 1, text.get(k..close + 1).unwrap_or("").to_string(), Some(name)));
                i = close + 1;
            }
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                let n = name_len(k + 1);
                let name = text.get(k + 1..k + 1 + n).unwrap_or("").to_string();
                out.push((k..k + 1 + n, format!("${{{name}}}"), Some(name.clone())));
                i = k + 1 + n;
            }
            _ => {}
        }
    }
    out
}

/// The kubelet's `$(NAME)` references in `text` (and its `$$` escape, one `$`): for each, its range
/// and what the container receives — the value when known, an unset variable when it is
/// declared without one (or injected by LeaderWorkerSet, `LWS_*`). Undeclared references stay
/// as written, as the kubelet leaves them.
fn kubelet_references(text: &str, declared: &[Var]) -> Vec<(Range<usize>, String)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(k) = text.get(i..).and_then(|t| t.find('$')).map(|k| k + i) {
        if b.get(k + 1) == Some(&b'$') {
            out.push((k..k + 2, "$".to_string()));
            i = k + 2;
            continue;
        }
        i = k + 1;
        if b.get(k + 1) != Some(&b'(') {
            continue;
        }
        let name_len = b.get(k + 2..).map(|r| r.iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'.' || **c == b'-').count()).unwrap_or(0);
        if name_len == 0 || b.get(k + 2 + name_len) != Some(&b')') {
            continue;
        }
        let name = text.get(k + 2..k + 2 + name_len).unwrap_or("");
        let end = k + 3 + name_len;
        // the last declaration wins
        match declared.iter().rev().find(|v| v.name == name) {
            Some(Var { value: Some(value), .. }) => out.push((k..end, value.clone())),
            Some(_) => out.push((k..end, format!("${{{}}}", name.replace(['.', '-'], "_")))),
            None if name.starts_with("LWS_") => out.push((k..end, format!("${{{name}}}"))),
            None => {}
        }
        i = end;
    }
    out
}

fn double_quote_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// At most this many variables are exported before one launch (the innermost ones).
pub const MAX_EXPORTS: usize = 256;

/// `export K=V` lines for the variables whose values are known, each at its entry (not those
/// docker compose fills in from the host where the command names them).
fn exports(out: &mut Builder, env: &[Var], host: &[String]) {
    for var in env.get(env.len().saturating_sub(MAX_EXPORTS)..).unwrap_or(env) {
        let Some(value) = &var.value else { continue };
        if host.contains(&var.name) {
            continue;
        }
        if crate::shell::assignment_name_len(&format!("{}=", var.name)).is_none() {
            continue;
        }
        out.synthetic(&format!("export {}={}\n", var.name, quote_word(value)), var.anchor.clone());
    }
}

fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// In an argv, the index of the script of `sh -c SCRIPT` / `bash -lc SCRIPT` (after `env`,
/// variable assignments, ...): the word after the first `-...c` option of a shell.
pub(crate) fn shell_script_index(argv: &[&str]) -> Option<usize> {
    let shell = argv.iter().position(|w| matches!(basename(w), "sh" | "bash" | "zsh" | "dash" | "ash" | "ksh"))?;
    let mut k = shell + 1;
    while let Some(w) = argv.get(k) {
        if !w.starts_with('-') || *w == "--" {
            return None;
        }
        if !w.starts_with("--") && w.contains('c') {
            return Some(k + 1).filter(|&s| s < argv.len());
        }
        k += 1;
    }
    None
}

/// Whether an argv runs an SGLang server: `... -m sglang.launch_server ...` or `sglang serve`.
pub(crate) fn is_launch_argv(argv: &[&str]) -> bool {
    argv.iter().any(|w| w.ends_with("sglang.launch_server")) || argv.windows(2).any(|p| matches!(p, [a, b] if basename(a) == "sglang" && *b == "serve"))
}
