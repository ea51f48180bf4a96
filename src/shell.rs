//! Reading pasted shell text the way a POSIX shell would split it into commands and words,
//! keeping byte spans back into the original text.
//!
//! OWNER: shell helper. Interface is fixed; the implementation below is a placeholder.

use crate::diagnostic::Diagnostic;
use crate::span::Span;

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
}

impl Word {
    /// A word that is the verbatim slice `span` of the original text.
    pub fn verbatim(text: &str, span: Span) -> Word {
        Word { text: text.to_string(), span, map: None }
    }

    /// A word with no place of its own in the text (e.g. produced from a `--config` file):
    /// every sub-span is `anchor`.
    pub fn synthetic(text: String, anchor: Span) -> Word {
        let map = Some(vec![anchor.start; text.len()]);
        Word { text, span: anchor, map }
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
                let e = if end == 0 { s } else { map.get(end - 1).map(|&m| m + 1).unwrap_or(self.span.end) };
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
}

/// One simple command: leading assignments, then words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShellCommand {
    pub assignments: Vec<Assignment>,
    pub words: Vec<Word>,
    pub span: Span,
}

#[derive(Debug, Clone, Default)]
pub struct ShellParse {
    pub commands: Vec<ShellCommand>,
    /// Shell-level findings (stage `shell`, origin `preflight`).
    pub diagnostics: Vec<Diagnostic>,
}

/// Split `text` into simple commands and words.
pub fn parse(text: &str) -> ShellParse {
    // Placeholder: whitespace split on one line. Replaced by the real reader.
    let mut cmd = ShellCommand::default();
    let mut i = 0;
    for w in text.split_ascii_whitespace() {
        let start = text.get(i..).and_then(|t| t.find(w)).map(|p| p + i).unwrap_or(i);
        let span = Span::new(start, start + w.len());
        i = span.end;
        cmd.words.push(Word::verbatim(w, span));
    }
    cmd.span = Span::new(0, text.len());
    ShellParse { commands: vec![cmd], diagnostics: Vec::new() }
}
