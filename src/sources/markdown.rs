//! Launch commands in documentation: Markdown / MDX code blocks and reStructuredText code
//! blocks.
//!
//! Which blocks are read, by the first word of the info string or directive argument
//! (lower-cased, a `{.bash}` / `{bash}` attribute form unwrapped):
//! - shell: none, `bash`, `sh`, `shell`, `zsh`, `ksh`, `fish`, `text`, `txt`, `plaintext`,
//!   `plain` — read as a script; if a line starts with a `$ ` prompt the block is read as a
//!   terminal session instead (prompts removed, output left out, see [`Prompts::Console`]);
//! - console: `console`, `shell-session`, `shellsession`, `terminal`, `sh-session`,
//!   `bash-session` — a terminal session when it holds a `$ ` or `# ` prompt, else a script;
//! - anything else (`python`, `yaml`, `json`, `dockerfile`, ...) is not shell and is skipped.
//!
//! Markdown is parsed by `pulldown-cmark` (CommonMark: fences of any length with ``` or ~~~,
//! indented fences, indented code blocks, blocks in list items and blockquotes), whose text
//! events carry byte ranges: each line of a block maps back to the file exactly, with the
//! container's indentation and `>` marks left out. MDX has no indented code blocks: a fenced
//! block indented four spaces inside a JSX element, which CommonMark reads as an indented
//! block holding the fences, is read as the fenced block it is.

use super::{has_prompts, line_text, shell_snippet, split_lines, Line, PieceKind, Prompts, Segment, Snippet};
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

/// How a block of a given language is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Language {
    Shell,
    Console,
    Other,
}

fn language(info: &str) -> Language {
    let word = info.split_whitespace().next().unwrap_or("");
    let word = word.trim_start_matches('{').trim_end_matches('}').trim_start_matches('.');
    let word = word.split([',', '{']).next().unwrap_or("").to_ascii_lowercase();
    match word.as_str() {
        "" | "bash" | "sh" | "shell" | "zsh" | "ksh" | "fish" | "text" | "txt" | "plaintext" | "plain" => Language::Shell,
        "console" | "shell-session" | "shellsession" | "terminal" | "sh-session" | "bash-session" => Language::Console,
        _ => Language::Other,
    }
}

/// A block's lines read as its language says; `None` for other languages or empty blocks.
fn block_snippet(lines: Vec<Line>, language: Language) -> Option<Snippet> {
    let prompts = match language {
        Language::Other => return None,
        Language::Shell if has_prompts(&lines, false) => Prompts::Console,
        Language::Console if has_prompts(&lines, true) => Prompts::Console,
        Language::Shell | Language::Console => Prompts::None,
    };
    shell_snippet(lines, prompts)
}

/// The fence a line opens a fenced block with (three or more ``` or ~~~): its character, its
/// length and the info string after it.
fn fence(line: &str) -> Option<(char, usize, &str)> {
    let t = line.trim();
    let mark = t.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let info = t.trim_start_matches(mark);
    let len = t.len() - info.len();
    (len >= 3).then_some((mark, len, info))
}

/// An indented code block, read as shell; one that starts with a fence is fenced blocks
/// indented (MDX has no indented code blocks: fences indented inside a JSX element are fenced
/// blocks there), each read by its language.
fn indented_block_snippets(lines: Vec<Line>) -> Vec<Snippet> {
    let starts_fenced = lines.first().is_some_and(|l| fence(&line_text(l)).is_some());
    if !starts_fenced {
        return block_snippet(lines, Language::Shell).into_iter().collect();
    }
    let mut out = Vec::new();
    // the open fence (character, length), its language and the lines so far
    let mut open: Option<(char, usize, Language, Vec<Line>)> = None;
    for line in lines {
        let text = line_text(&line);
        match open.as_mut() {
            None => {
                // lines between fenced blocks (blank, most likely) are not code
                if let Some((mark, len, info)) = fence(&text) {
                    open = Some((mark, len, language(info), Vec::new()));
                }
            }
            Some((mark, len, lang, body)) => {
                let closes = fence(&text).is_some_and(|(m, l, info)| m == *mark && l >= *len && info.trim().is_empty());
                if closes {
                    out.extend(block_snippet(std::mem::take(body), *lang));
                    open = None;
                } else {
                    body.push(line);
                }
            }
        }
    }
    if let Some((_, _, lang, body)) = open {
        out.extend(block_snippet(body, lang));
    }
    out
}

/// The shell snippets of a Markdown or MDX file's code blocks, in file order.
pub fn extract_markdown(text: &str) -> Vec<Snippet> {
    let mut out = Vec::new();
    // a block's language: `None` for an indented block
    let mut block: Option<(Option<Language>, Vec<Segment>)> = None;
    for (event, range) in Parser::new_ext(text, Options::empty()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match &kind {
                    CodeBlockKind::Fenced(info) => Some(language(info)),
                    CodeBlockKind::Indented => None,
                };
                block = Some((lang, Vec::new()));
            }
            Event::Text(t) => {
                if let Some((_, segments)) = block.as_mut() {
                    // Text the parser made up (a tab's columns turned into spaces) is shown at
                    // its place but never edited.
                    let kind = if text.get(range.clone()) == Some(&*t) { PieceKind::Verbatim } else { PieceKind::Synthetic };
                    segments.push(Segment { text: t.to_string(), file: range, kind });
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((lang, segments)) = block.take() {
                    let lines = split_lines(segments);
                    match lang {
                        Some(lang) => out.extend(block_snippet(lines, lang)),
                        None => out.extend(indented_block_snippets(lines)),
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Leading spaces and tabs of a line.
fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// The language a reStructuredText code directive line names (`.. code-block:: bash`, `..
/// code:: shell`, `.. sourcecode:: console`), if it is one.
fn code_directive(line: &str) -> Option<Language> {
    let rest = line.trim_start().strip_prefix("..")?.trim_start();
    ["code-block::", "code::", "sourcecode::"]
        .iter()
        .find_map(|d| rest.strip_prefix(d))
        .map(|arg| language(arg.trim()))
}

/// The shell snippets of a reStructuredText file's code blocks: `code-block` / `code` /
/// `sourcecode` directives (options lines skipped) and `::` literal blocks, by the same
/// language rules as Markdown (a literal block has no language: read as shell).
pub fn extract_rst(text: &str) -> Vec<Snippet> {
    // Every line with its byte range (its `\n` included).
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        lines.push((at, line));
        at += line.len();
    }
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&(_, line)) = lines.get(i) {
        i += 1;
        let opener_indent = indent_of(line);
        let lang = if let Some(lang) = code_directive(line) {
            // options (`:caption: ...`) indented under the directive
            while lines.get(i).is_some_and(|&(_, l)| !is_blank(l) && indent_of(l) > opener_indent && l.trim_start().starts_with(':')) {
                i += 1;
            }
            lang
        } else if line.trim_end().ends_with("::") && !line.trim_start().starts_with("..") {
            Language::Shell
        } else {
            continue;
        };
        // The body: the lines after it indented past the opener, blank lines among them.
        let body_start = i;
        while lines.get(i).is_some_and(|&(_, l)| is_blank(l) || indent_of(l) > opener_indent) {
            i += 1;
        }
        let body = lines.get(body_start..i).unwrap_or_default();
        let Some(indent) = body.iter().filter(|(_, l)| !is_blank(l)).map(|(_, l)| indent_of(l)).min() else { continue };
        // leading and trailing blank lines are not part of the block
        let first = body.iter().position(|(_, l)| !is_blank(l)).unwrap_or(0);
        let last = body.iter().rposition(|(_, l)| !is_blank(l)).map(|p| p + 1).unwrap_or(0);
        let block_lines: Vec<Line> = body
            .get(first..last)
            .unwrap_or_default()
            .iter()
            .map(|&(start, l)| {
                let skip = indent.min(indent_of(l));
                vec![Segment { text: l.get(skip..).unwrap_or_default().to_string(), file: start + skip..start + l.len(), kind: PieceKind::Verbatim }]
            })
            .collect();
        out.extend(block_snippet(block_lines, lang));
    }
    out
}
