//! Launch commands in Jupyter notebooks: `!python -m sglang.launch_server ...` lines in code
//! cells (the `!` removed, `\` continuations followed), Python string literals holding a launch
//! (SGLang's own docs start servers with `launch_server_cmd("""python3 -m ...""")`), and whole
//! `%%bash` / `%%sh` / `%%script bash` cells (the magic line removed); in a notebook whose kernel
//! is a shell, every code cell is a script.
//!
//! The snippet is the cells' decoded source; its map points into the JSON file: characters a
//! JSON string holds as they are map byte for byte ([`PieceKind::JsonString`], replacements
//! written JSON-escaped), escapes (`\n`, `\"`, `\\`, `\u00e9`) are anchors that edits cannot
//! touch. serde_json gives no positions, so strings are found by a small scanner, run only on
//! text serde_json has accepted as JSON (its error is the finding for text it has not).

use super::{shell_snippet, slice_segments, split_lines, PieceKind, Prompts, Segment, Snippet};
use crate::diagnostic::{Diagnostic, Severity, Stage};
use crate::span::Span;

/// A JSON value, with strings kept as segments of the file.
enum Json {
    Object(Vec<(String, Json)>),
    Array(Vec<Json>),
    Str(Vec<Segment>),
    Other,
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn str(&self) -> Option<String> {
        match self {
            Json::Str(segments) => Some(segments.iter().map(|s| s.text.as_str()).collect()),
            _ => None,
        }
    }
}

/// Nesting deeper than serde_json accepts is refused before this scanner runs; this bound
/// keeps the scanner's own recursion safe whatever it is given.
const MAX_DEPTH: usize = 256;

struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Option<Json> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_space();
        match self.peek()? {
            b'{' => {
                self.pos += 1;
                let mut members = Vec::new();
                loop {
                    self.skip_space();
                    match self.peek()? {
                        b'}' => {
                            self.pos += 1;
                            return Some(Json::Object(members));
                        }
                        b',' => self.pos += 1,
                        b'"' => {
                            let key = Json::Str(self.string()?).str()?;
                            self.skip_space();
                            if self.peek()? != b':' {
                                return None;
                            }
                            self.pos += 1;
                            members.push((key, self.value(depth + 1)?));
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    match self.peek()? {
                        b']' => {
                            self.pos += 1;
                            return Some(Json::Array(items));
                        }
                        b',' => self.pos += 1,
                        _ => items.push(self.value(depth + 1)?),
                    }
                }
            }
            b'"' => Some(Json::Str(self.string()?)),
            _ => {
                // a number, true, false or null
                let start = self.pos;
                while self.peek().is_some_and(|b| !matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')) {
                    self.pos += 1;
                }
                (self.pos > start).then_some(Json::Other)
            }
        }
    }

    /// Four hex digits at `at`.
    fn hex4(&self, at: usize) -> Option<u32> {
        u32::from_str_radix(self.text.get(at..at + 4)?, 16).ok()
    }

    /// A string starting at the `"` under the cursor, as segments: runs without escapes map
    /// byte for byte, each escape is one anchored segment.
    fn string(&mut self) -> Option<Vec<Segment>> {
        self.pos += 1;
        let mut segments = Vec::new();
        let mut run = self.pos;
        loop {
            let b = self.peek()?;
            if b != b'"' && b != b'\\' {
                self.pos += 1;
                continue;
            }
            if self.pos > run {
                segments.push(Segment { text: self.text.get(run..self.pos)?.to_string(), file: run..self.pos, kind: PieceKind::JsonString });
            }
            if b == b'"' {
                self.pos += 1;
                return Some(segments);
            }
            let start = self.pos;
            let (c, len) = match self.text.as_bytes().get(start + 1)? {
                b'"' => ('"', 2),
                b'\\' => ('\\', 2),
                b'/' => ('/', 2),
                b'b' => ('\u{8}', 2),
                b'f' => ('\u{c}', 2),
                b'n' => ('\n', 2),
                b'r' => ('\r', 2),
                b't' => ('\t', 2),
                b'u' => {
                    let unit = self.hex4(start + 2)?;
                    let low = (self.text.get(start + 6..start + 8) == Some("\\u")).then(|| self.hex4(start + 8)).flatten();
                    match low {
                        Some(low) if (0xD800..0xDC00).contains(&unit) && (0xDC00..0xE000).contains(&low) => {
                            (char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)).unwrap_or('\u{FFFD}'), 12)
                        }
                        _ => (char::from_u32(unit).unwrap_or('\u{FFFD}'), 6),
                    }
                }
                _ => return None,
            };
            segments.push(Segment { text: c.to_string(), file: start..start + len, kind: PieceKind::Synthetic });
            self.pos = start + len;
            run = self.pos;
        }
    }
}

/// Byte offset of serde_json's 1-based line and column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum::<usize>();
    let mut at = (line_start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The finding for a notebook that is not JSON.
fn not_json(text: &str, bom: usize, error: &serde_json::Error) -> Diagnostic {
    let at = offset_of(text, error.line(), error.column() + if error.line() == 1 { bom } else { 0 });
    Diagnostic::preflight(
        "SRC001",
        Severity::Error,
        Stage::Shell,
        format!("This notebook is not valid JSON ({error}): its launch commands were not checked."),
        Span::empty_at(at),
    )
    .with_explanation("A Jupyter notebook is a JSON file; this one cannot be read, so no cell in it was checked. Jupyter cannot open it either: `python -m json.tool` on the file shows the same error.")
}

/// The finding for a notebook nested deeper than it is read.
fn too_deep(at: usize) -> Diagnostic {
    Diagnostic::preflight(
        "SRC001",
        Severity::Error,
        Stage::Shell,
        format!("This notebook is JSON nested more than {MAX_DEPTH} levels deep: its launch commands were not checked."),
        Span::empty_at(at),
    )
    .with_explanation("Jupyter's own JSON reader gives up on nesting this deep (Python's recursion limit), so the file cannot be a notebook Jupyter opens.")
}

/// Whether the notebook's kernel is a shell (every code cell a script).
fn shell_kernel(notebook: &Json) -> bool {
    let meta = notebook.get("metadata");
    let language = meta.and_then(|m| m.get("kernelspec")).and_then(|k| k.get("language")).and_then(Json::str);
    let language = language.or_else(|| meta.and_then(|m| m.get("language_info")).and_then(|l| l.get("name")).and_then(Json::str));
    matches!(language.as_deref(), Some("bash" | "sh" | "shell" | "zsh"))
}

/// A cell magic that runs the cell in a shell.
fn is_shell_magic(first_line: &str) -> bool {
    let mut words = first_line.split_whitespace();
    match words.next() {
        Some("%%bash" | "%%sh" | "%%shell" | "%%zsh") => true,
        Some("%%script") => matches!(words.next(), Some("bash" | "sh" | "zsh")),
        _ => false,
    }
}

/// Python string literals' contents (bytes of `code`), found by a small tokenizer that knows
/// comments, string prefixes, triple quotes and backslash escapes. An unterminated string
/// runs to the end of its line (or, triple-quoted, of the code).
fn python_strings(code: &str) -> Vec<std::ops::Range<usize>> {
    let bytes = code.as_bytes();
    let at = |i: usize| bytes.get(i).copied();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while let Some(b) = at(i) {
        // `!` shell lines and `%` magics are not Python (a `!` line is read on its own), nor
        // are their `\` continuations
        if line_start && matches!(b, b'!' | b'%') {
            while let Some(c) = at(i) {
                i += 1;
                if c == b'\n' && at(i.saturating_sub(2)) != Some(b'\\') {
                    break;
                }
            }
            continue;
        }
        line_start = b == b'\n' || (line_start && matches!(b, b' ' | b'\t'));
        match b {
            b'#' => {
                while at(i).is_some_and(|b| b != b'\n') {
                    i += 1;
                }
            }
            b'"' | b'\'' => {
                let triple = at(i + 1) == Some(b) && at(i + 2) == Some(b);
                let start = i + if triple { 3 } else { 1 };
                let mut j = start;
                let end = loop {
                    let Some(c) = at(j) else { break j };
                    if c == b'\\' {
                        j += 2;
                    } else if (triple && c == b && at(j + 1) == Some(b) && at(j + 2) == Some(b)) || (!triple && (c == b || c == b'\n')) {
                        break j;
                    } else {
                        j += 1;
                    }
                };
                let end = end.min(code.len());
                out.push(start.min(end)..end);
                // past the closing quotes (an unterminated string's newline starts a line)
                i = end + if triple { 3 } else if at(end) == Some(b) { 1 } else { 0 };
            }
            _ => i += 1,
        }
    }
    out
}

/// The shell snippets of one code cell's source: the whole cell for a shell kernel or a
/// `%%bash` cell; else its `!` lines, and Python string literals that hold a launch
/// (`launch_server_cmd("""python3 -m sglang.launch_server ...""")`, as SGLang's own docs
/// write), their contents read as shell text as they stand.
fn cell_snippets(source: &Json, shell_kernel: bool) -> Vec<Snippet> {
    let segments: Vec<Segment> = match source {
        Json::Str(segments) => segments.clone(),
        Json::Array(items) => items.iter().filter_map(|i| if let Json::Str(s) = i { Some(s.clone()) } else { None }).flatten().collect(),
        _ => return Vec::new(),
    };
    let code: String = segments.iter().map(|s| s.text.as_str()).collect();
    let lines = split_lines(segments.clone());
    if shell_kernel {
        return shell_snippet(lines, Prompts::None).into_iter().collect();
    }
    let first: String = lines.first().map(super::line_text).unwrap_or_default();
    if is_shell_magic(&first) {
        return shell_snippet(lines.into_iter().skip(1).collect(), Prompts::None).into_iter().collect();
    }
    let mut out: Vec<Snippet> = shell_snippet(lines, Prompts::Bang).into_iter().collect();
    for literal in python_strings(&code) {
        let holds_launch = code.get(literal.clone()).is_some_and(|s| s.contains("sglang.launch_server") || s.contains("sglang serve"));
        if holds_launch {
            out.extend(shell_snippet(split_lines(slice_segments(&segments, literal)), Prompts::None));
        }
    }
    out
}

/// A notebook that does not mention `sglang` holds no launch and is not read (nor judged).
pub fn read(text: &str) -> Result<Vec<Snippet>, Box<Diagnostic>> {
    if !text.contains("sglang") {
        return Ok(Vec::new());
    }
    let bom = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    if let Err(error) = serde_json::from_str::<serde::de::IgnoredAny>(text.get(bom..).unwrap_or_default()) {
        return Err(Box::new(not_json(text, bom, &error)));
    }
    let Some(notebook) = (Scanner { text, pos: bom }).value(0) else { return Err(Box::new(too_deep(bom))) };
    let shell = shell_kernel(&notebook);
    let Some(Json::Array(cells)) = notebook.get("cells") else { return Ok(Vec::new()) };
    Ok(cells
        .iter()
        .filter(|c| c.get("cell_type").and_then(Json::str).as_deref() == Some("code"))
        .filter_map(|c| c.get("source"))
        .flat_map(|s| cell_snippets(s, shell))
        .collect())
}

/// The shell snippets of a notebook's code cells (none when it is not JSON; see [`read`]).
pub fn extract(text: &str) -> Vec<Snippet> {
    read(text).unwrap_or_default()
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::string_slice, clippy::panic)] // a failed expectation fails the test
mod tests {
    use super::*;

    fn strings(code: &str) -> Vec<&str> {
        python_strings(code).into_iter().map(|r| &code[r]).collect()
    }

    #[test]
    fn python_string_literals_are_found_outside_comments_and_shell_lines() {
        let code = "a = f\"\"\"x \"y\" \\\"\"\" z\"\"\"  # \"comment\"\n!echo \"shell\" \\\n  \"more\"\n  %time b = 'q\\'r'\nc = 'open\n!echo 'no'\nd = '''run\n";
        assert_eq!(strings(code), vec!["x \"y\" \\\"\"\" z", "open", "run\n"]);
    }

    #[test]
    fn escapes_decode_and_map_to_the_escape_as_written() {
        let text = r#"{"s": "a\"\u00e9\ud83d\ude00\ud800b"}"#;
        let Some(Json::Object(members)) = (Scanner { text, pos: 0 }).value(0) else { panic!("an object") };
        let Some((_, Json::Str(segments))) = members.first() else { panic!("a string") };
        let decoded: Vec<(&str, &str)> = segments.iter().map(|s| (s.text.as_str(), &text[s.file.clone()])).collect();
        assert_eq!(decoded, vec![("a", "a"), ("\"", "\\\""), ("é", "\\u00e9"), ("😀", "\\ud83d\\ude00"), ("\u{FFFD}", "\\ud800"), ("b", "b")]);
    }
}
