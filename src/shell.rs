//! Reading pasted shell text the way a POSIX shell (bash) would split it into commands and
//! words, keeping byte spans back into the original text.
//!
//! One forward pass over the bytes, linear in the input, never panicking: quoting (`'...'`,
//! `"..."`, `\x`, `$'...'`), line continuations (also `\` + CRLF), comments, command
//! separators (`;`, `&`, `&&`, `||`, `|`, newlines, parentheses), redirections (removed from
//! the words), and `$VAR` / `${VAR}` / `${VAR:-default}` expansion of variables defined
//! earlier in the paste (`NAME=value` lines and `export NAME=value`; unquoted values are split
//! into words as bash does), and bash brace expansion (`{a,b}`, which is what happens to
//! unquoted JSON with commas). Bash parity is tested in `tests/shell_vs_bash.rs`.
//!
//! Deliberate differences from bash: undefined variables, `$(...)` and `<placeholders>` are
//! kept as literal text (with a warning) instead of expanding to nothing / redirecting; a `$ `
//! prompt at the start of a line is dropped; a trailing `\` (plus blanks) at the very end of
//! the text is dropped; CRLF is read as LF. Not handled: here-documents, `~` and glob
//! expansion (kept literally), `{1..5}` sequences, `$((...))` arithmetic.
//!
//! Shell traps get diagnostics with stage `shell`, origin `preflight`:
//!
//! * `SH001` (error) — a `\` followed by spaces or a comment before the end of the line: the
//!   line continuation is broken, the command ends on this line and the following lines run as
//!   separate commands that SGLang never sees. Fix: delete what follows the backslash.
//! * `SH002` (warning) — the text ends with a `\` (nothing to continue); it is ignored.
//! * `SH003` (error) — an unterminated quote (`'`, `"`, `$'`, `` ` ``, `$(`, `${`): the rest of
//!   the text is read as part of one word, as a best effort.
//! * `SH004` (warning) — unquoted JSON (`{"a": 1}`) that the shell splits into several words
//!   and strips of its double quotes. Fix: single-quote the JSON text.
//! * `SH005` (warning) — a `$VAR` / `${VAR}` not defined earlier in the paste: not expanded
//!   here; the literal text is kept as the word.
//! * `SH006` (warning) — a command substitution (`$(...)`, `` `...` ``) or arithmetic
//!   expansion is not run here; the literal text is kept.
//! * `SH007` (warning) — a `<placeholder>` (e.g. `--model-path <your-model>`): a shell reads
//!   `<` and `>` as redirections; the placeholder text is kept as the word.
//! * `SH008` (info) — a leading `$ ` prompt (as copied from docs) is ignored.
//! * `SH009` (warning) — digits glued to a redirection right after an option (`--tp 2>log`):
//!   the shell reads `2>` as a file-descriptor redirection and drops the value. Fix: add a space.
//! * `SH010` (warning) — a here-document with no closing delimiter line: bash reads to the end.
//!
//! Here-documents that write a file (`cat > cfg.yaml <<'EOF'`) are read, not parsed as commands:
//! their text is in `written_files` (expanded as bash does when the delimiter is unquoted), so a
//! later `--config cfg.yaml` is checked with it.

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity, Stage};
use crate::span::Span;
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};

/// One shell word after quote removal, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The word as the program receives it (quotes removed, escapes applied).
    pub text: String,
    /// The raw span in the original text, quotes included.
    pub span: Span,
    /// For each byte of `text`, its byte offset in the original text; `None` when `text` is
    /// exactly the original slice at `span` (the common case), so no map is stored.
    pub map: Option<Vec<usize>>,
    /// The word holds a `${NAME:?message}` whose NAME the paste does not set (or a variable
    /// assigned from one): a shell stops there unless the environment the script runs in sets
    /// NAME, so the word's value is not known here, whatever its text (which is left as written).
    pub value_unknown: bool,
}

impl Word {
    /// A word that is the verbatim slice `span` of the original text.
    pub fn verbatim(text: &str, span: Span) -> Word {
        Word { text: text.to_string(), span, map: None, value_unknown: false }
    }

    /// A word with no place of its own in the text (e.g. produced from a `--config` file):
    /// every sub-span is `anchor`.
    pub fn synthetic(text: String, anchor: Span) -> Word {
        let map = Some(vec![anchor.start; text.len()]);
        Word { text, span: anchor, map, value_unknown: false }
    }

    /// The original-text span of bytes `start..end` of `text`.
    pub fn sub_span(&self, start: usize, end: usize) -> Span {
        match &self.map {
            None => Span::new(self.span.start + start.min(self.text.len()), self.span.start + end.min(self.text.len())),
            Some(map) => {
                if map.iter().all(|&m| m == self.span.start) && self.span.start != self.span.end && map.len() == self.text.len() {
                    // synthetic word: point at the anchor
                    return self.span;
                }
                let s = map.get(start).copied().unwrap_or(self.span.end);
                let e = if end == 0 || end <= start {
                    s
                } else {
                    map.get(end - 1).map(|&m| m + 1).unwrap_or(self.span.end)
                };
                Span::new(s.min(e), e.max(s))
            }
        }
    }
}

/// `NAME=value` written before a command (`CUDA_VISIBLE_DEVICES=0 python ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    pub name: String,
    pub value: String,
    pub span: Span,
    /// The value is not known here ([`Word::value_unknown`]).
    pub value_unknown: bool,
}

/// One simple command: leading assignments, then words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShellCommand {
    pub assignments: Vec<Assignment>,
    pub words: Vec<Word>,
    pub span: Span,
    /// The command has a here-document whose body goes to a file (`cat > F <<EOF`, `tee F <<EOF`).
    pub writes_here_doc: bool,
}

/// A file the pasted text writes with a here-document (`cat > cfg.yaml <<'EOF' ... EOF`), so a
/// later `--config cfg.yaml` reads this text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenFile {
    /// The path as written after `>` (or after `tee`).
    pub path: String,
    /// The here-document's lines; with an unquoted delimiter (`<<EOF`), expanded as bash does
    /// (as in double quotes: the paste's variables; what it does not set is left as written,
    /// with SH005 / SH006, as in words).
    pub content: String,
    /// Variables the content reads whose value is not known here ([`Word::value_unknown`]):
    /// a value of the file that expands one is not judged.
    pub unknown_variables: Vec<String>,
    /// The body in the original text.
    pub span: Span,
}

/// What the word after a redirection operator is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Redir {
    /// Standard output goes to this file (`>`, `>>`, `>|`, `&>`, `1>`).
    #[default]
    Stdout,
    /// A here-document's delimiter (`<<`, or `<<-` which strips leading tabs).
    HereDoc { strip_tabs: bool },
    /// Anything else (input files, other descriptors, `2>&1`, here-strings).
    Other,
}

/// A here-document's delimiter, as its `<<` word gives it.
#[derive(Debug, Clone)]
struct HereDoc {
    delimiter: String,
    /// `<<-`: leading tabs are stripped from the body's lines (and the delimiter's).
    strip_tabs: bool,
    /// The word had quotes or a backslash (`<<'EOF'`, `<<"EOF"`, `<<\EOF`): the body is taken
    /// as written; otherwise the shell expands it.
    literal: bool,
}

/// Here-documents: delimiters seen on the current line, whose bodies start on the next one.
#[derive(Debug, Default)]
struct HereDocs {
    kind: Redir,
    /// The current command's standard-output file.
    cmd_stdout: Option<String>,
    /// Here-documents of the current command: (delimiter, strip tabs).
    cmd_docs: Vec<HereDoc>,
    /// Bodies to read at the next newline, with the file the command writes.
    due: Vec<(HereDoc, Option<String>)>,
}

#[derive(Debug, Clone, Default)]
pub struct ShellParse {
    pub commands: Vec<ShellCommand>,
    /// Files written by here-documents, in order.
    pub written_files: Vec<WrittenFile>,
    /// Shell-level findings (stage `shell`, origin `preflight`).
    pub diagnostics: Vec<Diagnostic>,
    /// Every command substitution (`$(...)`, `` `...` ``) outside here-documents, in text
    /// order: commands the shell runs that are not among `commands` (all of them, unlike the
    /// capped SH006 findings).
    pub substitutions: Vec<Span>,
    /// The text that was read (spans index into it).
    pub text: String,
}

/// At most this many shell diagnostics are reported for one text.
pub const MAX_DIAGNOSTICS: usize = 200;

/// Split `text` into simple commands and words.
pub fn parse(text: &str) -> ShellParse {
    parse_with_vars(text, &[])
}

/// Like [`parse`], with shell variables already set (e.g. the environment of `bash -c TEXT`).
pub fn parse_with_vars(text: &str, vars: &[(String, String)]) -> ShellParse {
    let mut p = Parser {
        src: text,
        b: text.as_bytes(),
        i: 0,
        vars: Cow::Owned(vars.iter().cloned().collect()),
        vars_unknown: Cow::Owned(HashSet::new()),
        unknown_names: None,
        out: ShellParse::default(),
        cmd: ShellCommand::default(),
        cmd_start: None,
        cmd_end: 0,
        wb: WordBuf::default(),
        redirect_pending: false,
        here: HereDocs::default(),
        line_start: true,
        spare_fixes: Vec::new(),
        no_brace: false,
        brace_budget: Cell::new(BRACE_SLACK.saturating_add(BRACE_FACTOR.saturating_mul(text.len()))),
    };
    p.run();
    p.out.text = text.to_string();
    p.out
}

/// Whether `opt` is an SGLang option that takes a value (per the default version's schema).
fn option_takes_value(opt: &str) -> bool {
    if !opt.starts_with("--") || opt.contains('=') {
        return false;
    }
    let Some(schema) = crate::schema::get(crate::schema::DEFAULT_VERSION) else { return false };
    let takes = |k: usize| schema.actions.get(k).is_some_and(|a| matches!(a.action.as_str(), "_StoreAction" | "LoRAPathAction"));
    if let Some(&k) = schema.by_option.get(opt) {
        return takes(k);
    }
    // an abbreviation (argparse allows unique prefixes)
    let mut found = false;
    for (o, &k) in &schema.by_option {
        if o.starts_with(opt) {
            if !takes(k) {
                return false;
            }
            found = true;
        }
    }
    found
}

/// Bytes that end a run of ordinary word characters.
fn is_special(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>' | b'\\' | b'\'' | b'"' | b'$' | b'`' | b'='
    )
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}
fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Whether `s` starts with `NAME=`; returns the name's length.
pub fn assignment_name_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !b.first().copied().is_some_and(is_name_start) {
        return None;
    }
    let n = b.iter().take_while(|&&c| is_name_char(c)).count();
    (b.get(n) == Some(&b'=')).then_some(n)
}

/// Quote `s` for a POSIX shell with single quotes.
pub fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `s` as one shell word: as is when every character is safe unquoted, else single-quoted
/// (`''` for the empty word).
pub fn quote_word(s: &str) -> String {
    let plain = !s.is_empty() && s.bytes().all(|c| c.is_ascii_alphanumeric() || b"_@%+=:,./-".contains(&c));
    if plain {
        s.to_string()
    } else {
        single_quote(s)
    }
}

#[derive(Default)]
struct WordBuf {
    started: bool,
    start: usize,
    end: usize,
    text: Vec<u8>,
    map: Option<Vec<usize>>,
    /// Had quotes (so an empty text is still a word).
    quoted: bool,
    /// An unquoted expansion in an assignment value is not split.
    no_split: bool,
    /// An unquoted `=` was seen (only the first one can make an assignment).
    seen_eq: bool,
    /// An unquoted `{` was seen: brace expansion may apply.
    brace: bool,
    /// See [`Word::value_unknown`].
    value_unknown: bool,
    /// Holds a command substitution (`$(...)`, `` `...` ``), kept as written.
    substituted: bool,
}

impl WordBuf {
    fn begin(&mut self, at: usize) {
        if !self.started {
            self.started = true;
            self.start = at;
            self.end = at;
        }
    }
    fn materialize(&mut self) {
        if self.map.is_none() {
            let s = self.start;
            self.map = Some((s..s + self.text.len()).collect());
        }
    }
    /// Push a byte taken from the source at `pos`.
    fn push_src(&mut self, c: u8, pos: usize) {
        if c == 0 {
            // bash drops NUL bytes from its input: the word no longer equals its source slice
            self.materialize();
            return;
        }
        if self.map.is_none() && pos != self.start + self.text.len() {
            self.materialize();
        }
        self.text.push(c);
        if let Some(m) = &mut self.map {
            m.push(pos);
        }
    }
    /// Push bytes produced by an expansion or escape, all attributed to `pos`.
    fn push_synth(&mut self, s: &[u8], pos: usize) {
        self.materialize();
        self.text.extend_from_slice(s);
        if let Some(m) = &mut self.map {
            m.extend(std::iter::repeat(pos).take(s.len()));
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    b: &'a [u8],
    i: usize,
    /// Shell variables; a brace alternative's reader borrows its parent's (cloning them per
    /// alternative would cost variables × alternatives).
    vars: Cow<'a, HashMap<String, String>>,
    /// Variables assigned from an unset required variable (`export MODEL=${MODEL:?}`): set, by
    /// the environment the script runs in, to a value not known here. Not in `vars`.
    vars_unknown: Cow<'a, HashSet<String>>,
    /// While a here-document's body is expanded: the variables it reads whose value is not
    /// known here ([`WrittenFile::unknown_variables`]).
    unknown_names: Option<Vec<String>>,
    out: ShellParse,
    cmd: ShellCommand,
    cmd_start: Option<usize>,
    cmd_end: usize,
    wb: WordBuf,
    redirect_pending: bool,
    here: HereDocs,
    line_start: bool,
    spare_fixes: Vec<Fix>,
    /// Reading a brace alternative again: no further brace expansion.
    no_brace: bool,
    /// Bytes of words brace expansion may still produce in this text. `{a,b}{c,d}...` grows
    /// the word count geometrically; bash would expand it all, we stop expanding (the word
    /// stays literal) once the words made exceed a multiple of the input's length, so any text
    /// is read in linear time and memory.
    brace_budget: Cell<usize>,
}

/// Brace expansion may produce `BRACE_SLACK + BRACE_FACTOR × text length` bytes of words.
const BRACE_SLACK: usize = 64 * 1024;
const BRACE_FACTOR: usize = 2;

impl<'a> Parser<'a> {
    fn at(&self, i: usize) -> Option<u8> {
        self.b.get(i).copied()
    }

    fn diag(&mut self, code: &str, sev: Severity, msg: impl Into<String>, span: Span, expl: &str) -> &mut Vec<Fix> {
        if self.out.diagnostics.len() >= MAX_DIAGNOSTICS {
            // pathological input: stop reporting (keeps the work linear and the report readable)
            self.spare_fixes.clear();
            return &mut self.spare_fixes;
        }
        let d = Diagnostic::preflight(code, sev, Stage::Shell, msg, span).with_explanation(expl);
        self.out.diagnostics.push(d);
        match self.out.diagnostics.last_mut() {
            Some(d) => &mut d.fixes,
            None => &mut self.spare_fixes,
        }
    }

    /// End of the UTF-8 character starting at `i`.
    fn char_end(&self, i: usize) -> usize {
        let mut j = i + 1;
        while j < self.b.len() && !self.src.is_char_boundary(j) {
            j += 1;
        }
        j.min(self.b.len())
    }

    fn push_src_range(&mut self, from: usize, to: usize) {
        let Some(bytes) = self.b.get(from..to) else { return };
        if self.wb.map.is_none() && from == self.wb.start + self.wb.text.len() && !bytes.contains(&0) {
            self.wb.text.extend_from_slice(bytes);
            return;
        }
        for (k, &c) in bytes.iter().enumerate() {
            self.wb.push_src(c, from + k);
        }
    }

    fn run(&mut self) {
        let n = self.b.len();
        while self.i < n {
            let i = self.i;
            let c = self.b.get(i).copied().unwrap_or(b' ');
            match c {
                b' ' | b'\t' => {
                    self.finish_word();
                    self.i += 1;
                }
                b'\r' if self.at(i + 1) == Some(b'\n') => {
                    self.i += 1;
                }
                b'\r' => {
                    self.finish_word();
                    self.i += 1;
                }
                b'\n' => {
                    self.end_command();
                    self.i += 1;
                    self.line_start = true;
                    if !self.here.due.is_empty() {
                        self.read_here_doc_bodies();
                    }
                }
                b'#' if !self.wb.started => {
                    while self.i < n && self.at(self.i) != Some(b'\n') {
                        self.i += 1;
                    }
                }
                b'&' if self.at(i + 1) == Some(b'>') => {
                    self.finish_word();
                    self.i += 2;
                    if self.at(self.i) == Some(b'>') {
                        self.i += 1;
                    }
                    self.redirect_pending = true;
                    self.here.kind = Redir::Stdout;
                    self.touch(i);
                }
                b';' | b'&' | b'|' | b'(' | b')' => {
                    self.end_command();
                    self.i += 1;
                    if matches!((c, self.at(self.i)), (b'&', Some(b'&')) | (b'|', Some(b'|')) | (b'|', Some(b'&')) | (b';', Some(b';'))) {
                        self.i += 1;
                    }
                }
                b'<' if self.placeholder_end(i).is_some() => {
                    let end = self.placeholder_end(i).unwrap_or(i + 1);
                    self.line_start = false;
                    self.wb.begin(i);
                    self.push_src_range(i, end);
                    let ph = self.src.get(i..end).unwrap_or("").to_string();
                    self.diag(
                        "SH007",
                        Severity::Warning,
                        format!("`{ph}` looks like a placeholder; a shell would read `<` and `>` as redirections"),
                        Span::new(i, end),
                        "Documentation often writes values to fill in as <placeholders>. Pasted into a shell, `<` reads \
                         a file and `>` writes one, so the command would fail or lose arguments. Replace the placeholder \
                         with the real value; it is checked here as the literal text.",
                    );
                    self.i = end;
                }
                b'<' | b'>' => self.redirection(i, c),
                b'\\' => self.backslash(i),
                b'\'' => {
                    self.line_start = false;
                    self.wb.begin(i);
                    self.wb.quoted = true;
                    match self.b.get(i + 1..).and_then(|r| r.iter().position(|&x| x == b'\'')) {
                        Some(p) => {
                            self.push_src_range(i + 1, i + 1 + p);
                            self.i = i + 2 + p;
                        }
                        None => {
                            self.unterminated(i, "'");
                            self.push_src_range(i + 1, n);
                            self.i = n;
                        }
                    }
                    self.wb.end = self.i;
                }
                b'"' => {
                    self.line_start = false;
                    self.wb.begin(i);
                    self.double_quoted(i);
                }
                b'$' => {
                    if self.line_start && !self.wb.started && self.cmd_start.is_none() && matches!(self.at(i + 1), Some(b' ' | b'\t')) {
                        self.diag(
                            "SH008",
                            Severity::Info,
                            "ignored a leading `$ ` prompt",
                            Span::new(i, i + 1),
                            "Documentation shows commands after a `$ ` prompt; the prompt is not part of the command \
                             (pasted into bash, `$` would be run as a command and fail).",
                        )
                        .push(Fix {
                            title: "Remove the prompt".into(),
                            applicability: Applicability::Safe,
                            edits: vec![Edit { start: i, end: i + 2, replacement: String::new() }],
                        });
                        // the prompt is part of the pasted command line
                        self.cmd_start = Some(i);
                        self.i += 2;
                        continue;
                    }
                    self.line_start = false;
                    self.wb.begin(i);
                    if self.at(i + 1) == Some(b'\'') {
                        self.ansi_c(i);
                    } else if self.at(i + 1) == Some(b'"') {
                        self.double_quoted(i + 1);
                    } else {
                        self.dollar(i, false);
                    }
                    self.wb.end = self.i;
                }
                b'`' => {
                    self.line_start = false;
                    self.wb.begin(i);
                    self.backtick(i);
                    self.wb.end = self.i;
                }
                _ => {
                    self.line_start = false;
                    self.wb.begin(i);
                    if c == b'=' && !self.wb.seen_eq {
                        self.wb.seen_eq = true;
                        self.wb.no_split = self.assignment_context();
                    }
                    // a run of ordinary bytes at once (all special bytes are ASCII, so the run
                    // ends on a character boundary)
                    let mut e = i + 1;
                    while let Some(x) = self.at(e) {
                        if is_special(x) {
                            break;
                        }
                        e += 1;
                    }
                    if !self.wb.brace && self.b.get(i..e).is_some_and(|r| r.contains(&b'{')) {
                        self.wb.brace = true;
                    }
                    self.push_src_range(i, e);
                    self.i = e;
                    self.wb.end = e;
                }
            }
        }
        self.end_command();
    }

    /// The word so far is `NAME` and we are at its `=`, in a place where the shell treats it
    /// as an assignment (start of a command, or an argument of `export`/`declare`/...).
    fn assignment_context(&self) -> bool {
        let t = &self.wb.text;
        let name_ok = t.first().copied().is_some_and(is_name_start) && t.iter().all(|&c| is_name_char(c)) && self.wb.map.is_none();
        name_ok
            && match self.cmd.words.first() {
                None => true,
                Some(w) => matches!(w.text.as_str(), "export" | "declare" | "local" | "readonly" | "typeset"),
            }
    }

    /// Read the bodies of the here-documents started on the line that just ended: each runs
    /// to a line that is exactly its delimiter (after leading tabs for `<<-`), or to the end of
    /// the text as bash does (with a warning). Body lines are not commands.
    fn read_here_doc_bodies(&mut self) {
        let n = self.b.len();
        for (HereDoc { delimiter, strip_tabs, literal }, file) in std::mem::take(&mut self.here.due) {
            let body_start = self.i;
            let mut content = String::new();
            let mut body_end = n;
            let mut closed = false;
            // Where the delimiter was probably meant to go: before the first launch command.
            let mut launch_line: Option<usize> = None;
            while self.i < n {
                let line_end = self.b.get(self.i..).and_then(|rest| rest.iter().position(|&c| c == b'\n')).map_or(n, |k| self.i + k);
                let mut line = self.src.get(self.i..line_end).unwrap_or("");
                if launch_line.is_none() && (line.contains("sglang.launch_server") || line.trim_start().starts_with("sglang serve")) {
                    launch_line = Some(self.i);
                }
                if strip_tabs {
                    line = line.trim_start_matches('\t');
                }
                let next = (line_end + 1).min(n);
                if line.strip_suffix('\r').unwrap_or(line) == delimiter {
                    body_end = self.i;
                    self.i = next;
                    closed = true;
                    break;
                }
                content.push_str(line);
                content.push('\n');
                self.i = next;
                if line_end >= n {
                    break;
                }
            }
            if !closed {
                let fixes = self.diag(
                    "SH010",
                    Severity::Warning,
                    format!("here-document delimited by end of text (wanted `{delimiter}`)"),
                    Span::new(body_start, n),
                    "A here-document (`<<WORD`) runs until a line that is exactly WORD. None was found, so the shell \
                     takes everything to the end of the text as its body, including any commands after it.",
                );
                if let Some(at) = launch_line {
                    fixes.push(Fix {
                        title: format!("End the here-document before the launch command (add a `{delimiter}` line)"),
                        applicability: Applicability::Unsafe,
                        edits: vec![Edit { start: at, end: at, replacement: format!("{delimiter}\n") }],
                    });
                }
            }
            if let Some(path) = file {
                let (content, unknown_variables) = if literal || !content.contains(['$', '`', '\\']) {
                    (content, Vec::new())
                } else {
                    self.expand_here_doc(body_start, body_end, strip_tabs)
                };
                self.out.written_files.push(WrittenFile { path, content, unknown_variables, span: Span::new(body_start, body_end) });
            }
        }
    }

    fn touch(&mut self, at: usize) {
        self.line_start = false;
        if self.cmd_start.is_none() {
            self.cmd_start = Some(at);
        }
        self.cmd_end = self.cmd_end.max(self.i.min(self.b.len()));
    }

    fn unterminated(&mut self, at: usize, what: &str) {
        let end = self.char_end(at);
        self.diag(
            "SH003",
            Severity::Error,
            format!("unterminated quote: `{what}` is never closed"),
            Span::new(at, end),
            "A shell would keep reading (waiting for more input) until the quote is closed, so everything after it \
             becomes part of one argument. It is checked here as one word up to the end of the text.",
        );
    }

    /// `<name>` placeholder starting at `i` (unquoted `<`): returns the end after `>`.
    fn placeholder_end(&self, i: usize) -> Option<usize> {
        let first = self.at(i + 1)?;
        if !(first.is_ascii_alphanumeric() || first == b'_') {
            return None;
        }
        let mut j = i + 1;
        while let Some(c) = self.at(j) {
            match c {
                b'>' => return (j > i + 1).then_some(j + 1),
                b' ' | b'\t' | b'\n' | b'\r' | b'<' | b';' | b'&' | b'|' | b'(' | b')' | b'\'' | b'"' | b'`' | b'$' => return None,
                _ => j += 1,
            }
            if j - i > 200 {
                return None;
            }
        }
        None
    }

    fn redirection(&mut self, i: usize, c: u8) {
        let mut fd_is_stdout = true;
        // `2>`: a word of digits right before is the file descriptor, not an argument.
        if self.wb.started && !self.wb.quoted && self.wb.map.is_none() && !self.wb.text.is_empty() && self.wb.text.iter().all(u8::is_ascii_digit) && self.wb.end == i {
            let start = self.wb.start;
            fd_is_stdout = self.wb.text == b"1";
            self.wb = WordBuf::default();
            if self.cmd_start.is_none() {
                self.cmd_start = Some(start);
            }
            // `--tp 2>log`: the value was meant for the option, the shell took it as a descriptor
            let after_option = self.cmd.words.last().is_some_and(|w| option_takes_value(&w.text));
            if after_option {
                let fd = self.src.get(start..i).unwrap_or("").to_string();
                self.diag(
                    "SH009",
                    Severity::Warning,
                    format!("`{fd}{}` is a redirection: the shell does not pass `{fd}` as the option's value", c as char),
                    Span::new(start, i + 1),
                    "Digits written directly before `>` or `<` name a file descriptor (as in `2>&1`), so the shell \
                     removes them from the arguments. Put a space before the redirection to pass the number.",
                )
                .push(Fix {
                    title: "Put a space before the redirection".into(),
                    applicability: Applicability::Safe,
                    edits: vec![Edit { start: i, end: i, replacement: " ".into() }],
                });
            }
        } else {
            self.finish_word();
        }
        self.i = i + 1;
        self.here.kind = Redir::Other;
        match (c, self.at(self.i)) {
            (b'>', Some(b'>' | b'|')) => {
                self.i += 1;
                if fd_is_stdout {
                    self.here.kind = Redir::Stdout;
                }
            }
            (b'>', Some(b'&')) | (b'<', Some(b'&' | b'>')) => self.i += 1,
            (b'<', Some(b'<')) => {
                self.i += 1;
                match self.at(self.i) {
                    Some(b'<') => self.i += 1, // here-string
                    Some(b'-') => {
                        self.i += 1;
                        self.here.kind = Redir::HereDoc { strip_tabs: true };
                    }
                    _ => self.here.kind = Redir::HereDoc { strip_tabs: false },
                }
            }
            (b'>', _) if fd_is_stdout => self.here.kind = Redir::Stdout,
            _ => {}
        }
        self.redirect_pending = true;
        self.touch(i);
    }

    fn backslash(&mut self, i: usize) {
        let n = self.b.len();
        match self.at(i + 1) {
            None => {
                self.diag(
                    "SH002",
                    Severity::Warning,
                    "the text ends with a line-continuation `\\`",
                    Span::new(i, i + 1),
                    "A trailing backslash continues the command on the next line, but nothing follows; the command \
                     is checked as if it ended here. Make sure nothing was left out of the paste.",
                )
                .push(Fix {
                    title: "Remove the trailing backslash".into(),
                    applicability: Applicability::Safe,
                    edits: vec![Edit { start: i, end: i + 1, replacement: String::new() }],
                });
                self.extend_to_end(n);
            }
            Some(b'\n') => self.i = i + 2,
            Some(b'\r') if self.at(i + 2) == Some(b'\n') => self.i = i + 3,
            Some(b' ' | b'\t') => {
                // Spaces after the backslash: is the rest of the line empty or a comment?
                let mut j = i + 1;
                while matches!(self.at(j), Some(b' ' | b'\t')) {
                    j += 1;
                }
                let (line_end, comment) = match self.at(j) {
                    None => (None, false),
                    Some(b'\n') => (Some(j), false),
                    Some(b'\r') if matches!(self.at(j + 1), Some(b'\n') | None) => (Some(j), false),
                    Some(b'#') => {
                        let e = self.b.get(j..).and_then(|r| r.iter().position(|&x| x == b'\n')).map(|p| j + p).unwrap_or(n);
                        let e = if e > j && self.at(e - 1) == Some(b'\r') { e - 1 } else { e };
                        (Some(e), true)
                    }
                    Some(_) => {
                        self.escaped(i);
                        return;
                    }
                };
                match line_end {
                    None => {
                        // `\` + trailing spaces at the very end of the paste.
                        self.diag(
                            "SH002",
                            Severity::Warning,
                            "the text ends with a line-continuation `\\` (followed by spaces)",
                            Span::new(i, i + 1),
                            "A trailing backslash continues the command on the next line, but nothing follows; the \
                             command is checked as if it ended here. Make sure nothing was left out of the paste.",
                        )
                        .push(Fix {
                            title: "Remove the trailing backslash".into(),
                            applicability: Applicability::Safe,
                            edits: vec![Edit { start: i, end: n, replacement: String::new() }],
                        });
                        self.extend_to_end(n);
                    }
                    Some(_) if self.out.diagnostics.len() >= MAX_DIAGNOSTICS => self.escaped(i),
                    Some(e) => {
                        let next_line = self.next_line_preview(e);
                        let what = if comment { "a comment" } else { "trailing spaces" };
                        let msg = match &next_line {
                            Some(l) => format!(
                                "broken line continuation: `\\` is followed by {what}, so the command ends here and the next line (`{l}`) runs as a separate command; SGLang never sees it"
                            ),
                            None => format!("broken line continuation: `\\` is followed by {what}, so the command ends here"),
                        };
                        self.diag(
                            "SH001",
                            Severity::Error,
                            msg,
                            Span::new(i, e),
                            "A backslash continues a command only when it is the very last character of the line. \
                             Followed by a space it escapes that space instead (passing a stray \" \" argument), and the \
                             newline then ends the command: every flag on the following lines is lost. Comments \
                             cannot be placed inside a continued command.",
                        )
                        .push(Fix {
                            title: format!("Remove the {what} after the backslash"),
                            applicability: Applicability::Safe,
                            edits: vec![Edit { start: i + 1, end: e, replacement: String::new() }],
                        });
                        self.escaped(i);
                    }
                }
            }
            Some(_) => self.escaped(i),
        }
    }

    /// A trailing `\` at the end of the text belongs to the command it would continue.
    fn extend_to_end(&mut self, n: usize) {
        self.i = n;
        if self.cmd_start.is_some() || self.wb.started {
            self.cmd_end = self.cmd_end.max(n);
        }
    }

    fn next_line_preview(&self, line_end: usize) -> Option<String> {
        let mut s = line_end;
        while let Some(c) = self.at(s) {
            if c == b'\n' || c == b'\r' {
                s += 1;
            } else {
                break;
            }
        }
        let rest = self.src.get(s..)?;
        let line = rest.lines().next()?.trim();
        if line.is_empty() {
            return None;
        }
        let mut l: String = line.chars().take(60).collect();
        if l.len() < line.len() {
            l.push('…');
        }
        Some(l)
    }

    /// `\x` outside quotes: the next character, literally.
    fn escaped(&mut self, i: usize) {
        self.line_start = false;
        self.wb.begin(i);
        self.wb.quoted = true;
        let e = self.char_end(i + 1);
        self.push_src_range(i + 1, e);
        self.i = e;
        self.wb.end = e;
    }

    /// `"..."` starting at the quote at `q`.
    fn double_quoted(&mut self, q: usize) {
        self.wb.quoted = true;
        let n = self.b.len();
        let mut j = q + 1;
        loop {
            let Some(c) = self.at(j) else {
                self.unterminated(q, "\"");
                self.i = n;
                break;
            };
            if c == b'"' {
                self.i = j + 1;
                break;
            }
            j = self.expanding_step(j, c, true);
        }
        self.wb.end = self.i;
    }

    /// One step of reading text the shell expands as it does in double quotes (a `"..."`
    /// string; a here-document's body, where `"` is an ordinary character: `in_quotes` false):
    /// the character `c` at `j` and what it starts go into the word. Returns where the next
    /// step starts.
    fn expanding_step(&mut self, j: usize, c: u8, in_quotes: bool) -> usize {
        match c {
            b'\\' => match self.at(j + 1) {
                Some(b'$' | b'`' | b'\\') => {
                    self.wb.push_src(self.b.get(j + 1).copied().unwrap_or(b'\\'), j + 1);
                    j + 2
                }
                Some(b'"') if in_quotes => {
                    self.wb.push_src(b'"', j + 1);
                    j + 2
                }
                Some(b'\n') => j + 2,
                Some(b'\r') if self.at(j + 2) == Some(b'\n') => j + 3,
                _ => {
                    self.wb.push_src(b'\\', j);
                    j + 1
                }
            },
            b'$' => {
                self.i = j;
                self.dollar(j, true);
                self.i
            }
            b'`' => {
                self.i = j;
                self.backtick(j);
                self.i
            }
            b'\r' if self.at(j + 1) == Some(b'\n') => j + 1,
            _ => {
                self.wb.push_src(c, j);
                j + 1
            }
        }
    }

    /// The body `start..end` of a here-document with an unquoted delimiter, as the shell
    /// expands it, and the variables it reads whose value is not known here. Its command
    /// substitutions are not listed among the text's (`ShellParse::substitutions`).
    fn expand_here_doc(&mut self, start: usize, end: usize, strip_tabs: bool) -> (String, Vec<String>) {
        let (word, resume, substitutions) = (std::mem::take(&mut self.wb), self.i, self.out.substitutions.len());
        self.unknown_names = Some(Vec::new());
        self.wb.begin(start);
        let mut j = start;
        let mut line_start = true;
        while j < end {
            let c = self.at(j).unwrap_or(b'\n');
            if line_start && strip_tabs && c == b'\t' {
                j += 1;
                continue;
            }
            line_start = c == b'\n';
            j = self.expanding_step(j, c, false);
        }
        let body = std::mem::replace(&mut self.wb, word);
        self.i = resume;
        self.out.substitutions.truncate(substitutions);
        let mut unknown = self.unknown_names.take().unwrap_or_default();
        crate::sorting::sort(&mut unknown);
        unknown.dedup();
        (String::from_utf8_lossy(&body.text).into_owned(), unknown)
    }

    /// `$'...'` ANSI-C quoting at `d` (the `$`).
    fn ansi_c(&mut self, d: usize) {
        self.wb.quoted = true;
        let n = self.b.len();
        let mut j = d + 2;
        loop {
            let Some(c) = self.at(j) else {
                self.unterminated(d, "$'");
                self.i = n;
                return;
            };
            match c {
                b'\'' => {
                    self.i = j + 1;
                    return;
                }
                b'\\' => {
                    let Some(e) = self.at(j + 1) else {
                        self.wb.push_src(b'\\', j);
                        j += 1;
                        continue;
                    };
                    let simple = match e {
                        b'n' => Some(b'\n'),
                        b't' => Some(b'\t'),
                        b'r' => Some(b'\r'),
                        b'a' => Some(7),
                        b'b' => Some(8),
                        b'e' | b'E' => Some(27),
                        b'f' => Some(12),
                        b'v' => Some(11),
                        b'\\' => Some(b'\\'),
                        b'\'' => Some(b'\''),
                        b'"' => Some(b'"'),
                        b'?' => Some(b'?'),
                        _ => None,
                    };
                    if let Some(v) = simple {
                        self.wb.push_synth(&[v], j);
                        j += 2;
                        continue;
                    }
                    let (radix, maxd, start) = match e {
                        b'x' => (16, 2, j + 2),
                        b'u' => (16, 4, j + 2),
                        b'U' => (16, 8, j + 2),
                        b'0'..=b'7' => (8, 3, j + 1),
                        _ => (0, 0, j + 1),
                    };
                    if radix == 0 {
                        // unknown escape: kept as is
                        self.wb.push_src(b'\\', j);
                        j += 1;
                        continue;
                    }
                    let mut k = start;
                    let mut val: u32 = 0;
                    while k < start + maxd {
                        match self.at(k).and_then(|x| (x as char).to_digit(radix)) {
                            Some(dg) => {
                                val = val.saturating_mul(radix).saturating_add(dg);
                                k += 1;
                            }
                            None => break,
                        }
                    }
                    if k == start {
                        self.wb.push_src(b'\\', j);
                        j += 1;
                        continue;
                    }
                    let ch = if matches!(e, b'u' | b'U') || val < 0x80 { char::from_u32(val).unwrap_or('\u{FFFD}') } else { '\u{FFFD}' };
                    let mut buf = [0u8; 4];
                    let s = ch.encode_utf8(&mut buf);
                    self.wb.push_synth(s.as_bytes(), j);
                    j = k;
                }
                _ => {
                    self.wb.push_src(c, j);
                    j += 1;
                }
            }
        }
    }

    /// Matching close for `$(` / `${` / backquote starting scan at `from`; linear.
    fn find_close(&self, from: usize, open: u8, close: u8) -> Option<usize> {
        let mut depth = 1usize;
        let mut j = from;
        let mut in_sq = false;
        let mut in_dq = false;
        while let Some(c) = self.at(j) {
            if in_sq {
                if c == b'\'' {
                    in_sq = false;
                }
            } else if c == b'\\' {
                j += 1;
            } else if in_dq {
                if c == b'"' {
                    in_dq = false;
                }
            } else if c == b'\'' && open != b'{' {
                in_sq = true;
            } else if c == b'"' {
                in_dq = true;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            } else if c == open {
                depth += 1;
            }
            j += 1;
        }
        None
    }

    /// `$...` expansion at `d` (not `$'`); sets `self.i` after it.
    fn dollar(&mut self, d: usize, quoted: bool) {
        let n = self.b.len();
        match self.at(d + 1) {
            Some(b'(') => {
                let arith = self.at(d + 2) == Some(b'(');
                let end = match self.find_close(d + 2, b'(', b')') {
                    Some(e) => e + 1,
                    None => {
                        self.unterminated(d, "$(");
                        n
                    }
                };
                self.push_src_range(d, end);
                self.i = end;
                if !arith {
                    self.out.substitutions.push(Span::new(d, end));
                    self.wb.substituted = true;
                }
                self.not_run_here(if arith { "arithmetic expansion" } else { "command substitution" }, d, end, arith);
            }
            Some(b'{') => {
                let close = self.find_close(d + 2, b'{', b'}');
                let Some(close) = close else {
                    self.unterminated(d, "${");
                    self.push_src_range(d, n);
                    self.i = n;
                    return;
                };
                let inner = self.src.get(d + 2..close).unwrap_or("");
                let end = close + 1;
                self.i = end;
                let ib = inner.as_bytes();
                let nl = if ib.first().copied().is_some_and(is_name_start) { ib.iter().take_while(|&&c| is_name_char(c)).count() } else { 0 };
                let name = inner.get(..nl).unwrap_or("");
                let rest = inner.get(nl..).unwrap_or("");
                if nl > 0 && rest.is_empty() {
                    self.expand_var(name, d, end, quoted, None);
                } else if nl > 0 && self.vars_unknown.contains(name) {
                    // set outside the paste: neither its value nor whether a default applies is known
                    self.push_src_range(d, end);
                    self.value_not_known(name);
                } else if nl > 0 && [":-", "-", ":=", "="].iter().any(|op| rest.starts_with(op)) {
                    let colon = rest.starts_with(':');
                    // `${NAME:=word}` also assigns the default (the `: "${PORT:=8002}"` idiom
                    // scripts use to default a variable that later lines read)
                    let assign = rest.as_bytes().get(usize::from(colon)) == Some(&b'=');
                    let default = rest.get(if colon { 2 } else { 1 }..).unwrap_or("");
                    let value = self.vars.get(name).cloned();
                    let use_default = match &value {
                        None => true,
                        Some(v) => colon && v.is_empty(),
                    };
                    if use_default {
                        // the default is written in place: keep its source offsets
                        let dstart = close - default.len();
                        let val = unquote_simple(default);
                        if assign {
                            self.vars.to_mut().insert(name.to_string(), val.clone());
                        }
                        if val == default {
                            self.push_src_range(dstart, close);
                        } else {
                            self.push_value(&val, d, quoted);
                        }
                    } else {
                        self.push_value(&value.unwrap_or_default(), d, quoted);
                    }
                } else if nl > 0 && (rest.starts_with(":?") || rest.starts_with('?')) {
                    // `${NAME:?message}`: the value, where the paste sets it; else the shell stops
                    // with the message unless the environment the script runs in sets it, so the
                    // value is not known here (`Word::value_unknown`: the check leaves it unjudged).
                    self.expand_var(name, d, end, quoted, Some(rest.starts_with(':')));
                } else {
                    self.push_src_range(d, end);
                    self.diag(
                        "SH005",
                        Severity::Warning,
                        format!("`{}` is not expanded here", preview(self.src.get(d..end).unwrap_or(""))),
                        Span::new(d, end),
                        "This parameter expansion is not evaluated by preflight; the literal text is checked instead.",
                    );
                }
            }
            Some(c) if is_name_start(c) => {
                let mut j = d + 1;
                while self.at(j).is_some_and(is_name_char) {
                    j += 1;
                }
                let name = self.src.get(d + 1..j).unwrap_or("").to_string();
                self.i = j;
                self.expand_var(&name, d, j, quoted, None);
            }
            Some(c) if c.is_ascii_digit() || matches!(c, b'@' | b'*' | b'#' | b'?' | b'$' | b'!' | b'-') => {
                self.push_src_range(d, d + 2);
                self.i = d + 2;
                self.diag(
                    "SH005",
                    Severity::Warning,
                    format!("`${}` is not expanded here", c as char),
                    Span::new(d, d + 2),
                    "Special shell parameters have no value in a pasted command; the literal text is checked instead.",
                );
            }
            _ => {
                self.wb.push_src(b'$', d);
                self.i = d + 1;
            }
        }
    }

    /// The word being read holds `name`'s expansion, whose value is not known here.
    fn value_not_known(&mut self, name: &str) {
        self.wb.value_unknown = true;
        if let Some(names) = &mut self.unknown_names {
            names.push(name.to_string());
        }
    }

    /// `name=value` in the script's own shell (a bare assignment, `export`).
    fn assign(&mut self, name: &str, value: &str, value_unknown: bool) {
        if value_unknown {
            self.vars.to_mut().remove(name);
            self.vars_unknown.to_mut().insert(name.to_string());
        } else {
            if self.vars_unknown.contains(name) {
                self.vars_unknown.to_mut().remove(name);
            }
            self.vars.to_mut().insert(name.to_string(), value.to_string());
        }
    }

    /// `$NAME` / `${NAME}`, or with `required` the `${NAME:?message}` (`Some(true)`: an empty
    /// value is refused too) / `${NAME?message}` forms: the value the paste set, else the text as
    /// written and SH005.
    fn expand_var(&mut self, name: &str, d: usize, end: usize, quoted: bool, required: Option<bool>) {
        if self.vars_unknown.contains(name) {
            self.push_src_range(d, end);
            self.value_not_known(name);
            return;
        }
        match self.vars.get(name).cloned().filter(|v| required != Some(true) || !v.is_empty()) {
            Some(v) => self.push_value(&v, d, quoted),
            None => {
                self.push_src_range(d, end);
                if required.is_some() {
                    self.value_not_known(name);
                }
                let explanation = if required.is_some() {
                    "The script needs the variable (a shell stops at this word when it is not set), so its value \
                     comes from the environment the command runs in, which preflight cannot see: the checks that \
                     would read it do not run. Define it in the paste (`export NAME=value`) to check it."
                } else {
                    "The variable's value comes from the environment the command runs in, which preflight cannot see; \
                     the literal text is checked instead. Define it in the paste (`export NAME=value`) or write the value."
                };
                self.diag(
                    "SH005",
                    Severity::Warning,
                    format!("`{}` is not expanded here: `{name}` is not set earlier in the pasted text", preview(self.src.get(d..end).unwrap_or(""))),
                    Span::new(d, end),
                    explanation,
                );
            }
        }
    }

    /// The value of an expansion; unquoted expansions are split into fields on blanks.
    fn push_value(&mut self, v: &str, d: usize, quoted: bool) {
        if quoted || self.wb.no_split {
            self.wb.push_synth(v.as_bytes(), d);
            return;
        }
        for (k, field) in v.split([' ', '\t', '\n']).enumerate() {
            if k > 0 {
                // a blank in the value ends the word
                self.wb.end = self.i;
                self.finish_word();
            }
            if !field.is_empty() {
                self.wb.begin(d);
                self.wb.push_synth(field.as_bytes(), d);
            }
        }
        self.wb.end = self.i;
    }

    fn backtick(&mut self, q: usize) {
        let n = self.b.len();
        let mut j = q + 1;
        let end = loop {
            match self.at(j) {
                None => {
                    self.unterminated(q, "`");
                    break n;
                }
                Some(b'\\') => j += 2,
                Some(b'`') => break j + 1,
                Some(_) => j += 1,
            }
        };
        let end = end.min(n);
        self.push_src_range(q, end);
        self.i = end;
        self.out.substitutions.push(Span::new(q, end));
        self.wb.substituted = true;
        self.not_run_here("command substitution", q, end, false);
    }

    /// SH006 for the expansion `what` at `start..end`, kept as written.
    fn not_run_here(&mut self, what: &str, start: usize, end: usize, arith: bool) {
        // A variable set to a command's output holds a value not known here (`finish_word`).
        let explanation = if self.wb.no_split && !arith {
            "A shell would run this and set the variable to its output; preflight does not run anything, so the \
             variable's value is not known here: the checks that read it do not run. Write the value itself to check it."
        } else {
            "A shell would run this and put its output in the command; preflight does not run anything, so the \
             literal text is checked instead. Write the value itself to check it."
        };
        self.diag("SH006", Severity::Warning, format!("{what} `{}` is not run here", preview(self.src.get(start..end).unwrap_or(""))), Span::new(start, end), explanation);
    }

    fn finish_word(&mut self) {
        if !self.wb.started {
            return;
        }
        let mut wb = std::mem::take(&mut self.wb);
        let start = wb.start;
        let end = wb.end.max(start);
        if self.cmd_start.is_none() {
            self.cmd_start = Some(start);
        }
        self.cmd_end = self.cmd_end.max(end);
        if wb.text.is_empty() && !wb.quoted {
            return;
        }
        if self.redirect_pending {
            self.redirect_pending = false;
            let target = String::from_utf8_lossy(&wb.text).into_owned();
            match self.here.kind {
                Redir::Stdout => self.here.cmd_stdout = Some(target),
                Redir::HereDoc { strip_tabs } => {
                    let literal = self.src.get(start..end).is_some_and(|raw| raw.contains(['\'', '"', '\\']));
                    self.here.cmd_docs.push(HereDoc { delimiter: target, strip_tabs, literal });
                }
                Redir::Other => {}
            }
            return;
        }
        if wb.map.is_none() && wb.text.len() != end - start {
            wb.materialize();
        }
        let text = match String::from_utf8(wb.text) {
            Ok(t) => t,
            Err(e) => {
                // cannot happen (we only copy whole characters), but never panic
                let t = String::from_utf8_lossy(e.as_bytes()).into_owned();
                wb.map = Some(vec![start; t.len()]);
                t
            }
        };
        let span = Span::new(start, end);
        if wb.brace && !self.redirect_pending && !self.no_brace {
            if let Some(words) = self.brace_words(span) {
                if self.cmd_start.is_none() {
                    self.cmd_start = Some(start);
                }
                self.cmd.words.extend(words);
                return;
            }
        }
        if self.cmd.words.is_empty() {
            let raw = self.src.get(start..end).unwrap_or("");
            if let Some(nl) = assignment_name_len(raw) {
                let name = raw.get(..nl).unwrap_or("").to_string();
                let value = text.get(nl + 1..).unwrap_or("").to_string();
                // A variable set to a command's output holds a value not known here (its text,
                // the command, is no value: expanded later, it would be split into its words).
                let value_unknown = wb.value_unknown || wb.substituted;
                self.cmd.assignments.push(Assignment { name, value, span, value_unknown });
                return;
            }
        }
        if self.cmd.words.capacity() == 0 {
            // Room for a typical launch's words at once: growing one at a time copies them each time.
            self.cmd.words.reserve(16);
        }
        // An argument of `export` (and the like) that assigns a command's output: as above.
        let assigns = wb.substituted && wb.no_split;
        self.cmd.words.push(Word { text, span, map: wb.map, value_unknown: wb.value_unknown || assigns });
    }

    /// Bash brace expansion (`{a,b}`) of the word at `span`: the words it expands to, or None
    /// when it does not apply. Each alternative is read again by the shell reader (quote
    /// removal, variables) and its bytes are mapped back to the original text.
    fn brace_words(&self, span: Span) -> Option<Vec<Word>> {
        if span.len() > 4096 || self.cmd.words.is_empty() {
            // long words: not worth the quadratic worst case; the first word: a command name
            return None;
        }
        // work budget: linear in the word's length
        let mut budget = 4 * span.len() + 64;
        let alts = brace_expand(self.b, span.start, span.end, 0, &mut budget)?;
        if alts.len() < 2 && alts.first().is_some_and(|a| a.len() == 1) {
            return None;
        }
        let made = alts.len().saturating_mul(span.len());
        let left = self.brace_budget.get().checked_sub(made)?;
        self.brace_budget.set(left);
        let mut out = Vec::new();
        for segs in alts {
            let mut text = String::new();
            let mut offs: Vec<usize> = Vec::new();
            for &(a, b) in &segs {
                text.push_str(self.src.get(a..b)?);
                offs.extend(a..b);
            }
            let mut sub = Parser {
                src: &text,
                b: text.as_bytes(),
                i: 0,
                vars: Cow::Borrowed(&*self.vars),
                vars_unknown: Cow::Borrowed(&*self.vars_unknown),
                unknown_names: None,
                out: ShellParse::default(),
                cmd: ShellCommand { words: vec![Word::verbatim("", Span::default())], ..Default::default() },
                cmd_start: None,
                cmd_end: 0,
                wb: WordBuf::default(),
                redirect_pending: false,
                here: HereDocs::default(),
                line_start: false,
                spare_fixes: Vec::new(),
                no_brace: true,
                brace_budget: Cell::new(0),
            };
            sub.run();
            for c in sub.out.commands {
                for w in c.words.into_iter().skip(1) {
                    let map: Vec<usize> = match &w.map {
                        None => (w.span.start..w.span.start + w.text.len()).map(|k| offs.get(k).copied().unwrap_or(span.start)).collect(),
                        Some(m) => m.iter().map(|&k| offs.get(k).copied().unwrap_or(span.start)).collect(),
                    };
                    out.push(Word { text: w.text, span, map: Some(map), value_unknown: w.value_unknown });
                }
            }
        }
        Some(out)
    }

    fn end_command(&mut self) {
        self.finish_word();
        self.redirect_pending = false;
        if !self.here.cmd_docs.is_empty() {
            // `cat > F <<EOF` (or `cat <<EOF > F`) and `tee F <<EOF` write the body to F.
            let tee_file = match self.cmd.words.first() {
                Some(w) if w.text == "tee" => self.cmd.words.iter().skip(1).find(|w| !w.text.starts_with('-')).map(|w| w.text.clone()),
                _ => None,
            };
            let file = self.here.cmd_stdout.take().or(tee_file);
            self.cmd.writes_here_doc = file.is_some();
            for doc in std::mem::take(&mut self.here.cmd_docs) {
                self.here.due.push((doc, file.clone()));
            }
        }
        self.here.cmd_stdout = None;
        let Some(start) = self.cmd_start.take() else {
            self.cmd = ShellCommand::default();
            return;
        };
        let mut cmd = std::mem::take(&mut self.cmd);
        cmd.span = Span::new(start, self.cmd_end.max(start));
        self.cmd_end = 0;
        if cmd.words.is_empty() && cmd.assignments.is_empty() {
            return;
        }
        if cmd.words.is_empty() {
            for a in &cmd.assignments {
                self.assign(&a.name, &a.value, a.value_unknown);
            }
        } else if cmd.words.first().is_some_and(|w| matches!(w.text.as_str(), "export" | "declare" | "readonly" | "typeset" | "local")) {
            for w in cmd.words.iter().skip(1) {
                if let Some(nl) = assignment_name_len(&w.text) {
                    if let (Some(k), Some(v)) = (w.text.get(..nl), w.text.get(nl + 1..)) {
                        self.assign(k, v, w.value_unknown);
                    }
                }
            }
        } else if cmd.words.first().is_some_and(|w| w.text == "unset") {
            for w in cmd.words.iter().skip(1) {
                self.vars.to_mut().remove(&w.text);
                if self.vars_unknown.contains(&w.text) {
                    self.vars_unknown.to_mut().remove(&w.text);
                }
            }
        }
        self.check_json(&cmd);
        self.out.commands.push(cmd);
    }

    /// SH004: unquoted JSON split by the shell.
    ///
    /// A JSON value starts at a word beginning with `{` (or at `={` in `--flag={...`) and runs
    /// over the following words until its braces balance at a word's end. Linear in the
    /// command's length: words a brace expansion made from one source word are taken once,
    /// and the end of each candidate is found through prefix sums of the words' brace balance
    /// (see `first_balanced_end`), not by rescanning the words after it.
    fn check_json(&mut self, cmd: &ShellCommand) {
        // Most commands have no brace at all.
        if !cmd.words.iter().any(|w| self.src.get(w.span.start..w.span.end).is_some_and(|r| r.contains('{'))) {
            return;
        }
        // Distinct source words: (span, index of its first and last word in cmd.words).
        let mut distinct: Vec<(Span, usize, usize)> = Vec::with_capacity(cmd.words.len());
        for (n, w) in cmd.words.iter().enumerate() {
            match distinct.last_mut() {
                Some((span, _, last)) if *span == w.span => *last = n,
                _ => distinct.push((w.span, n, n)),
            }
        }
        let raw_of = |span: Span| self.src.get(span.start..span.end).unwrap_or("");
        let balance = |r: &str| r.bytes().fold(0i64, |d, c| d + i64::from(c == b'{') - i64::from(c == b'}'));
        let quoted = |r: &str| r.contains(['"', '\'', '\\']);
        // prefix[i] = brace balance of distinct words 0..i; mangled_before[i] likewise for quotes.
        let mut prefix = Vec::with_capacity(distinct.len() + 1);
        prefix.push(0i64);
        let mut mangled_before = Vec::with_capacity(distinct.len() + 1);
        mangled_before.push(0usize);
        for &(span, _, _) in &distinct {
            let r = raw_of(span);
            prefix.push(prefix.last().copied().unwrap_or(0) + balance(r));
            mangled_before.push(mangled_before.last().copied().unwrap_or(0) + usize::from(quoted(r)));
        }
        let next_lower = next_lower_index(&prefix);
        let mut k = 0;
        let mut found: Vec<(usize, usize, usize, usize)> = Vec::new(); // (start, end, first word, last word)
        while let Some(&(span, first_word, _)) = distinct.get(k) {
            let raw = raw_of(span);
            let off = if raw.starts_with('{') {
                0
            } else if raw.starts_with('-') {
                match raw.find("={") {
                    Some(p) if !raw.get(..p).unwrap_or("").contains(['\'', '"', '\\']) => p + 1,
                    _ => {
                        k += 1;
                        continue;
                    }
                }
            } else {
                k += 1;
                continue;
            };
            let start = span.start + off;
            let head = raw.get(off..).unwrap_or("");
            // the value ends after distinct word j: the first j >= k where the braces balance
            let Some(j) = first_balanced_end(&prefix, &next_lower, k, balance(head)) else {
                k += 1;
                continue; // never closes: not JSON we can judge
            };
            let words = j - k + 1;
            let mangled = words > 1
                || quoted(head)
                || mangled_before.get(j + 1).copied().unwrap_or(0) > mangled_before.get(k + 1).copied().unwrap_or(0);
            let (end, last_word) = distinct.get(j).map(|&(sp, _, last)| (sp.end, last)).unwrap_or((span.end, first_word));
            let orig = self.src.get(start..end).unwrap_or("");
            if !mangled || !orig.contains(':') {
                k += 1;
                continue;
            }
            found.push((start, end, first_word, last_word));
            k = j + 1;
        }
        for (start, end, first_word, last_word) in found {
            let orig = self.src.get(start..end).unwrap_or("").to_string();
            let split: Vec<&str> = cmd.words.get(first_word..=last_word).unwrap_or(&[]).iter().map(|w| w.text.as_str()).collect();
            self.diag(
                "SH004",
                Severity::Warning,
                format!("unquoted JSON is changed by the shell: SGLang would receive {split:?}"),
                Span::new(start, end),
                "Without quotes the shell removes the double quotes inside the JSON and splits it at every space, \
                 so SGLang gets broken, separate arguments. Put the JSON in single quotes.",
            )
            .push(Fix {
                title: "Single-quote the JSON".into(),
                applicability: Applicability::Safe,
                edits: vec![Edit { start, end, replacement: single_quote(&orig) }],
            });
        }
    }
}

/// For each index i of `prefix`, the first index after it whose value is lower, if any
/// (a monotonic stack, linear).
fn next_lower_index(prefix: &[i64]) -> Vec<Option<usize>> {
    let mut out = vec![None; prefix.len()];
    let mut stack: Vec<usize> = Vec::with_capacity(prefix.len());
    for (i, &v) in prefix.iter().enumerate() {
        while let Some(&top) = stack.last() {
            if prefix.get(top).is_some_and(|&t| t > v) {
                if let Some(slot) = out.get_mut(top) {
                    *slot = Some(i);
                }
                stack.pop();
            } else {
                break;
            }
        }
        stack.push(i);
    }
    out
}

/// The first distinct word j >= k after which a value starting in word k, whose own part has
/// brace balance `head`, has balanced braces: `head + prefix[j+1] - prefix[k+1] <= 0`.
/// Following "next lower" links from k+1 visits only new minima, each lower by at least one,
/// so it takes at most `head` steps: linear over all words.
fn first_balanced_end(prefix: &[i64], next_lower: &[Option<usize>], k: usize, head: i64) -> Option<usize> {
    if head <= 0 {
        return Some(k);
    }
    let base = *prefix.get(k + 1)?;
    let target = base - head;
    let mut i = k + 1;
    loop {
        if *prefix.get(i)? <= target {
            return i.checked_sub(1);
        }
        i = (*next_lower.get(i)?)?;
    }
}

/// End of a quoted or `${...}`/`$(...)` region starting at `i` (which is a quote, `\\` or `$`),
/// or `i + 1` for an ordinary byte. Used by brace expansion to skip what it must not touch.
fn skip_quoted(b: &[u8], i: usize, end: usize) -> usize {
    let find = |from: usize, c: u8| b.get(from..end).and_then(|r| r.iter().position(|&x| x == c)).map(|p| from + p + 1).unwrap_or(end);
    match b.get(i) {
        Some(b'\\') => (i + 2).min(end),
        Some(b'\'') => find(i + 1, b'\''),
        Some(b'"') => {
            let mut j = i + 1;
            while j < end {
                match b.get(j) {
                    Some(b'\\') => j += 2,
                    Some(b'"') => return j + 1,
                    _ => j += 1,
                }
            }
            end
        }
        Some(b'$') if matches!(b.get(i + 1), Some(b'{')) => find(i + 2, b'}'),
        Some(b'$') if matches!(b.get(i + 1), Some(b'\'')) => {
            let mut j = i + 2;
            while j < end {
                match b.get(j) {
                    Some(b'\\') => j += 2,
                    Some(b'\'') => return j + 1,
                    _ => j += 1,
                }
            }
            end
        }
        _ => i + 1,
    }
}

/// Bash brace expansion of the raw word `b[start..end]`: each alternative as a list of
/// `(start, end)` source ranges. None when there is nothing to expand or too much.
fn brace_expand(b: &[u8], start: usize, end: usize, depth: usize, budget: &mut usize) -> Option<Vec<Vec<(usize, usize)>>> {
    const MAX_ALTS: usize = 256;
    if depth > 8 {
        return None;
    }
    // find the first `{` with a matching `}` and a top-level `,` between them
    let mut i = start;
    let mut found = None;
    while i < end {
        if b.get(i) == Some(&b'{') {
            let mut d = 0usize;
            let mut j = i;
            let mut commas = Vec::new();
            let mut close = None;
            while j < end {
                *budget = budget.checked_sub(1)?;
                match b.get(j) {
                    Some(b'{') => {
                        d += 1;
                        j += 1;
                    }
                    Some(b'}') => {
                        d = d.saturating_sub(1);
                        if d == 0 {
                            close = Some(j);
                            break;
                        }
                        j += 1;
                    }
                    Some(b',') if d == 1 => {
                        commas.push(j);
                        j += 1;
                    }
                    _ => j = skip_quoted(b, j, end),
                }
            }
            if let Some(q) = close {
                if !commas.is_empty() {
                    found = Some((i, q, commas));
                    break;
                }
            }
            i += 1;
        } else {
            i = skip_quoted(b, i, end);
        }
    }
    let (p, q, commas) = found?;
    let mut bounds = vec![p + 1];
    for c in &commas {
        bounds.push(*c);
        bounds.push(c + 1);
    }
    bounds.push(q);
    let post = match brace_expand(b, q + 1, end, depth + 1, budget) {
        Some(v) => v,
        None => vec![vec![(q + 1, end)]],
    };
    let mut out: Vec<Vec<(usize, usize)>> = Vec::new();
    for pair in bounds.chunks(2) {
        let (a, z) = match pair {
            [a, z] => (*a, *z),
            _ => continue,
        };
        let inner = match brace_expand(b, a, z, depth + 1, budget) {
            Some(v) => v,
            None => vec![vec![(a, z)]],
        };
        for e in &inner {
            for t in &post {
                if out.len() >= MAX_ALTS {
                    return None;
                }
                // building costs the segments copied: charged to the (linear) budget too
                *budget = budget.checked_sub(1 + e.len() + t.len())?;
                let mut segs = vec![(start, p)];
                segs.extend(e.iter().copied());
                segs.extend(t.iter().copied());
                segs.retain(|(x, y)| x < y);
                out.push(segs);
            }
        }
    }
    Some(out)
}

/// Quote removal for a `${VAR:-default}` default (simple cases: quotes only).
fn unquote_simple(s: &str) -> String {
    if !s.contains(['\'', '"', '\\']) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut sq = false;
    let mut dq = false;
    let mut it = s.chars();
    while let Some(c) = it.next() {
        match c {
            '\'' if !dq => sq = !sq,
            '"' if !sq => dq = !dq,
            '\\' if !sq => {
                if let Some(n) = it.next() {
                    out.push(n);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn preview(s: &str) -> String {
    if s.chars().count() <= 60 {
        return s.to_string();
    }
    let mut p: String = s.chars().take(59).collect();
    p.push('…');
    p
}
