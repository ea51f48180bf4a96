//! Launches in Dockerfiles (and Containerfiles): `CMD`, `ENTRYPOINT` and `RUN` in exec form (a
//! JSON array: each string an [`PieceKind::Element`](super::PieceKind::Element) with
//! [`Style::Json`]) and shell form (the file's text, line continuations kept), with the stage's
//! `ENV` (and, for `RUN`, `ARG`) values as `export` lines before the command.
//!
//! As Docker reads it: an exec-form `ENTRYPOINT` and `CMD` of a stage are one argv (the last of
//! each counts; `ENTRYPOINT` clears a `CMD` from an earlier stage's image, not one of its own
//! stage); a shell-form `ENTRYPOINT` ignores `CMD`; a JSON array that does not parse is shell
//! form; `FROM` starts a stage with no variables; `ARG` values exist while building, not when the
//! container runs; comment lines inside a continued instruction are dropped; `# escape=`` ` `
//! changes the continuation character. `sh -c SCRIPT` in exec form makes `SCRIPT` shell text.
//! `RUN <<EOF` here-documents are read as the script they hold.

use super::exec::{self, Builder, Item, Style};
use super::yaml::{self, Quoting};
use super::Snippet;
use crate::shell::quote_word;
use std::ops::Range;

/// An instruction's arguments with continuations removed, and each byte's place in the file.
struct Logical {
    text: String,
    map: Vec<usize>,
    /// The physical lines of the arguments (comment lines inside the instruction left out),
    /// each with whether it ends in a continuation character: for shell form.
    lines: Vec<(Range<usize>, bool)>,
}

impl Logical {
    fn file_range(&self, r: &Range<usize>) -> Range<usize> {
        let start = self.map.get(r.start).copied().unwrap_or(0);
        let end = if r.end > r.start { self.map.get(r.end - 1).map(|&e| e + 1).unwrap_or(start) } else { start };
        start..end.max(start)
    }
}

#[derive(Debug, Clone)]
struct Var {
    name: String,
    value: Option<String>,
    anchor: Range<usize>,
}

#[derive(Debug, Clone)]
enum Form {
    Exec(Vec<Item>),
    Shell(Vec<(Range<usize>, bool)>),
}

/// The launch-bearing snippets of a Dockerfile.
pub fn extract(text: &str) -> Vec<Snippet> {
    read(text).snippets
}

fn read(text: &str) -> Reader<'_> {
    let mut reader = Reader { text, escape: escape_directive(text), snippets: Vec::new(), exec_forms: 0 };
    reader.run();
    reader
}

/// Whether `edited` (the file after fixes were applied) holds as many launches as `original`,
/// with every exec-form (JSON) instruction still JSON: an edit inside a `sh -c "..."` string is
/// written as the shell text's own bytes, and a `"` there would turn the instruction into shell
/// form. `--fix` checks the result with this before writing it.
pub fn edit_keeps_file(original: &str, edited: &str) -> bool {
    let (before, after) = (read(original), read(edited));
    before.snippets.len() == after.snippets.len() && before.exec_forms == after.exec_forms
}

/// The `# escape=` parser directive at the top of the file (`\` when absent).
fn escape_directive(text: &str) -> u8 {
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix('#') else { return b'\\' };
        let Some((key, value)) = rest.split_once('=') else { return b'\\' };
        let key = key.trim().to_ascii_lowercase();
        if key == "escape" {
            return if value.trim() == "`" { b'`' } else { b'\\' };
        }
        if key != "syntax" && key != "check" {
            return b'\\';
        }
    }
    b'\\'
}

struct Reader<'a> {
    text: &'a str,
    escape: u8,
    snippets: Vec<Snippet>,
    /// How many `CMD` / `ENTRYPOINT` / `RUN` are in exec (JSON) form.
    exec_forms: usize,
}

/// A stage's state.
#[derive(Default)]
struct Stage {
    env: Vec<Var>,
    args: Vec<Var>,
    entrypoint: Option<Form>,
    cmd: Option<Form>,
    cmd_set: bool,
}

impl Reader<'_> {
    fn run(&mut self) {
        let text = self.text;
        let mut stage = Stage::default();
        // `ARG`s before the first `FROM`: a stage's `ARG NAME` without a default takes theirs
        let mut global_args: Vec<Var> = Vec::new();
        let mut before_first_from = true;
        let mut at = 0usize;
        while at < text.len() {
            let line_end = line_end(text, at);
            let line = text.get(at..line_end).unwrap_or("");
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                at = next_line(text, line_end);
                continue;
            }
            let word_start = at + (line.len() - trimmed.len());
            let word_len = trimmed.bytes().take_while(|b| b.is_ascii_alphabetic()).count();
            let keyword = trimmed.get(..word_len).unwrap_or("").to_ascii_uppercase();
            let args_start = word_start + word_len + trimmed.get(word_len..).map(|r| r.len() - r.trim_start_matches([' ', '\t']).len()).unwrap_or(0);
            // `RUN --mount=... --network=none cmd`: the build flags are not the command
            let args_start = if keyword == "RUN" { after_build_flags(text, args_start) } else { args_start };
            let (logical, after) = self.logical(args_start);
            let after = self.skip_heredocs(&logical, after, &keyword, &stage);
            match keyword.as_str() {
                "FROM" => {
                    if before_first_from {
                        global_args = std::mem::take(&mut stage.args);
                        before_first_from = false;
                    }
                    self.finish_stage(&stage);
                    stage = Stage::default();
                }
                "ENV" => {
                    let vars = self.assignments(&logical, &stage, true);
                    stage.env.extend(vars);
                }
                "ARG" => {
                    let mut vars = self.assignments(&logical, &stage, false);
                    for var in vars.iter_mut().filter(|v| v.value.is_none()) {
                        var.value = global_args.iter().rev().find(|g| g.name == var.name).and_then(|g| g.value.clone());
                    }
                    stage.args.extend(vars);
                }
                "CMD" => {
                    stage.cmd = Some(self.form(&logical));
                    stage.cmd_set = true;
                }
                "ENTRYPOINT" => {
                    stage.entrypoint = Some(self.form(&logical));
                    if !stage.cmd_set {
                        stage.cmd = None;
                    }
                }
                "RUN" => {
                    let form = self.form(&logical);
                    let env: Vec<Var> = stage.args.iter().chain(stage.env.iter()).cloned().collect();
                    self.emit(&form, &env);
                }
                _ => {}
            }
            at = after;
        }
        self.finish_stage(&stage);
    }

    /// The instruction's arguments from `from` (after the keyword) to the end of its last line;
    /// and where the next line starts.
    fn logical(&self, from: usize) -> (Logical, usize) {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut out = Logical { text: String::new(), map: Vec::new(), lines: Vec::new() };
        let mut at = from;
        let mut first = true;
        loop {
            let end = line_end(text, at);
            let line = text.get(at..end).unwrap_or("");
            if !first && line.trim_start().starts_with('#') {
                // comment lines inside a continued instruction are dropped
                at = next_line(text, end);
                if at >= text.len() {
                    return (out, at);
                }
                continue;
            }
            first = false;
            let content_end = at + line.trim_end().len();
            let continued = content_end > at && bytes.get(content_end - 1) == Some(&self.escape);
            let keep_end = if continued { content_end - 1 } else { end };
            for (k, c) in text.get(at..keep_end).unwrap_or("").char_indices() {
                out.text.push(c);
                for b in 0..c.len_utf8() {
                    out.map.push(at + k + b);
                }
            }
            let next = next_line(text, end);
            out.lines.push((at..if continued { next } else { end }, continued));
            if !continued || next >= text.len() {
                return (out, next);
            }
            at = next;
        }
    }

    /// Skip the bodies of here-documents an instruction starts (`RUN <<EOF`, `COPY <<EOF f`);
    /// a `RUN` whose arguments are one here-document is checked as the script it holds.
    fn skip_heredocs(&mut self, logical: &Logical, mut after: usize, keyword: &str, stage: &Stage) -> usize {
        let args = logical.text.trim();
        let Some(rest) = args.strip_prefix("<<") else { return after };
        let rest = rest.strip_prefix('-').unwrap_or(rest);
        let delimiter: String = rest.trim_matches(|c| c == '"' || c == '\'').chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if delimiter.is_empty() {
            return after;
        }
        let body_start = after;
        let mut body_end = after;
        while after < self.text.len() {
            let end = line_end(self.text, after);
            let line = self.text.get(after..end).unwrap_or("");
            let next = next_line(self.text, end);
            if line.trim() == delimiter {
                body_end = after;
                after = next;
                break;
            }
            body_end = next;
            after = next;
        }
        // only `RUN <<EOF` alone (a script for the default shell) is read
        let simple = rest.trim_matches(|c| c == '"' || c == '\'') == delimiter;
        if keyword == "RUN" && simple {
            let body = self.text.get(body_start..body_end).unwrap_or("");
            if yaml::mentions_launch(body) {
                let env: Vec<Var> = stage.args.iter().chain(stage.env.iter()).cloned().collect();
                let mut out = Builder::default();
                exports(&mut out, &env);
                out.verbatim(body, body_start);
                self.snippets.push(out.finish());
            }
        }
        after
    }

    /// `ENV K=V ...` / `ENV K V` / `ARG K[=V] ...`, with `$VAR` of earlier values expanded.
    fn assignments(&self, logical: &Logical, stage: &Stage, is_env: bool) -> Vec<Var> {
        let known: Vec<(String, String)> =
            stage.args.iter().chain(stage.env.iter()).filter_map(|v| Some((v.name.clone(), v.value.clone()?))).collect();
        let text = &logical.text;
        let lead = text.len() - text.trim_start().len();
        let body = text.trim();
        let first_word: &str = body.split_whitespace().next().unwrap_or("");
        if is_env && !first_word.contains('=') {
            // legacy `ENV K V...`: the rest of the line is the value
            let value = body.get(first_word.len()..).unwrap_or("").trim();
            let anchor = logical.file_range(&(lead..lead + body.len()));
            return vec![Var { name: first_word.to_string(), value: Some(value.to_string()), anchor }];
        }
        let parsed = crate::shell::parse_with_vars(text, &known);
        let mut out = Vec::new();
        for command in &parsed.commands {
            for a in &command.assignments {
                out.push(Var { name: a.name.clone(), value: Some(a.value.clone()), anchor: logical.file_range(&(a.span.start..a.span.end)) });
            }
            for w in &command.words {
                // `ARG K` without a default: set at build time, value unknown
                let name = w.text.split('=').next().unwrap_or("").to_string();
                out.push(Var { name, value: None, anchor: logical.file_range(&(w.span.start..w.span.end)) });
            }
        }
        out
    }

    /// An instruction's exec (JSON array) or shell form.
    fn form(&mut self, logical: &Logical) -> Form {
        match json_array(&logical.text) {
            Some(tokens) => {
                self.exec_forms += 1;
                let items = tokens
                    .into_iter()
                    .map(|(range, value)| Item { word: quote_word(&value), file: logical.file_range(&range), value, style: Some(Style::Json) })
                    .collect();
                Form::Exec(items)
            }
            None => Form::Shell(logical.lines.clone()),
        }
    }

    fn finish_stage(&mut self, stage: &Stage) {
        // the container's environment: ENV only (ARG values are gone once the image is built)
        match (&stage.entrypoint, &stage.cmd) {
            (Some(Form::Exec(e)), Some(Form::Exec(c))) => {
                let items: Vec<Item> = e.iter().chain(c.iter()).cloned().collect();
                let same: Vec<bool> = (0..e.len()).map(|k| k > 0).chain((0..c.len()).map(|k| k > 0)).collect();
                self.emit_exec(&items, &same, &stage.env);
            }
            (Some(form), _) | (None, Some(form)) => self.emit(form, &stage.env),
            (None, None) => {}
        }
    }

    fn emit(&mut self, form: &Form, env: &[Var]) {
        match form {
            Form::Exec(items) => {
                let same: Vec<bool> = (0..items.len()).map(|k| k > 0).collect();
                self.emit_exec(items, &same, env);
            }
            Form::Shell(lines) => {
                let mut text = String::new();
                for (r, _) in lines {
                    text.push_str(self.text.get(r.clone()).unwrap_or(""));
                }
                if !yaml::mentions_launch(&text) {
                    return;
                }
                let mut out = Builder::default();
                exports(&mut out, env);
                for (r, continued) in lines {
                    let line = self.text.get(r.clone()).unwrap_or("");
                    if *continued && self.escape == b'`' {
                        // a backtick continuation is `\` to the shell
                        let mark = line.trim_end().len().saturating_sub(1);
                        out.verbatim(line.get(..mark).unwrap_or(""), r.start);
                        out.synthetic("\\", r.start + mark..r.start + mark + 1);
                        out.verbatim(line.get(mark + 1..).unwrap_or(""), r.start + mark + 1);
                    } else {
                        out.verbatim(line, r.start);
                    }
                }
                self.snippets.push(out.finish());
            }
        }
    }

    fn emit_exec(&mut self, items: &[Item], same: &[bool], env: &[Var]) {
        let values: Vec<&str> = items.iter().map(|i| i.value.as_str()).collect();
        if let Some(k) = yaml::shell_script_index(&values) {
            let Some(item) = items.get(k) else { return };
            if !yaml::mentions_launch(&item.value) {
                return;
            }
            let mut out = Builder::default();
            exports(&mut out, env);
            // the JSON string's text, escapes as written
            let aligned = yaml::align(self.text, item.file.start + 1, &item.value, Quoting::Double);
            for seg in &aligned.segs {
                let text = item.value.get(seg.value.clone()).unwrap_or("");
                if seg.verbatim {
                    out.verbatim(text, seg.file.start);
                } else {
                    out.synthetic(text, seg.file.clone());
                }
            }
            self.snippets.push(out.finish());
            return;
        }
        if !yaml::is_launch_argv(&values) {
            return;
        }
        let mut out = Builder::default();
        exports(&mut out, env);
        exec::write_argv(&mut out, items, same);
        self.snippets.push(out.finish());
    }
}

fn exports(out: &mut Builder, env: &[Var]) {
    for var in env.get(env.len().saturating_sub(yaml::MAX_EXPORTS)..).unwrap_or(env) {
        let Some(value) = &var.value else { continue };
        if crate::shell::assignment_name_len(&format!("{}=", var.name)).is_none() {
            continue;
        }
        out.synthetic(&format!("export {}={}\n", var.name, quote_word(value)), var.anchor.clone());
    }
}

/// Past `--flag[=value]` words (and the blanks after them) from `at`, on this line.
fn after_build_flags(text: &str, mut at: usize) -> usize {
    let b = text.as_bytes();
    while b.get(at) == Some(&b'-') && b.get(at + 1) == Some(&b'-') {
        while b.get(at).is_some_and(|c| !c.is_ascii_whitespace()) {
            at += 1;
        }
        while matches!(b.get(at), Some(b' ') | Some(b'\t')) {
            at += 1;
        }
    }
    at
}

/// The end of the line starting at `at` (before its `\n`).
fn line_end(text: &str, at: usize) -> usize {
    text.get(at..).and_then(|t| t.find('\n')).map(|i| at + i).unwrap_or(text.len())
}

fn next_line(text: &str, line_end: usize) -> usize {
    (line_end + 1).min(text.len())
}

/// The strings of a JSON array of strings (each token's range, quotes included, and its value);
/// `None` when `text` is not one (Docker then runs it as shell form).
fn json_array(text: &str) -> Option<Vec<(Range<usize>, String)>> {
    let b = text.as_bytes();
    let ws = |mut i: usize| {
        while matches!(b.get(i), Some(b' ') | Some(b'\t') | Some(b'\r') | Some(b'\n')) {
            i += 1;
        }
        i
    };
    let mut i = ws(0);
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i = ws(i + 1);
    let mut out = Vec::new();
    if b.get(i) == Some(&b']') {
        return (ws(i + 1) == b.len()).then_some(out);
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let start = i;
        i += 1;
        loop {
            match b.get(i)? {
                b'\\' => i += 2,
                b'"' => break,
                _ => i += 1,
            }
        }
        let end = i + 1;
        let value: String = serde_json::from_str(text.get(start..end)?).ok()?;
        out.push((start..end, value));
        i = ws(end);
        match b.get(i)? {
            b',' => i = ws(i + 1),
            b']' => return (ws(i + 1) == b.len()).then_some(out),
            _ => return None,
        }
    }
}
