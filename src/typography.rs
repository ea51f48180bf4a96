//! Typography pasted from documents, chat apps and Windows terminals: characters that look
//! like shell syntax but are not, so a shell passes them on literally (or splits the command
//! where the user did not mean to). One linear pass over the text, before the shell reader;
//! every finding has stage `shell`, origin `preflight`, and a fix that puts the ASCII back.
//!
//! * `TXT001` (warning) — an en/em dash or other Unicode dash where a flag's `--` belongs
//!   (`—tp-size 2`, `–tp-size`): SGLang sees a positional word, not an option. Fix: `--`.
//! * `TXT002` (warning) — a Unicode hyphen inside a flag's name (`--tp‑size`). Fix: `-`.
//! * `TXT003` (warning) — typographic quotes (`“auto”`, `‘auto’`): the shell does not treat
//!   them as quotes, so they become part of the value. Fix: ASCII quotes.
//! * `TXT004` (warning) — invisible or blank-looking characters: zero-width characters (U+200B,
//!   U+FEFF, soft hyphen, ...), invisible operators, variation selectors, tag characters (which
//!   can carry hidden text), Hangul fillers, the braille blank and every other Unicode
//!   Default_Ignorable_Code_Point that is not a bidi control. They make a flag or value differ
//!   from what is displayed. Fix: delete them.
//! * `TXT005` (warning) — a non-breaking or other Unicode space outside quotes: the shell does
//!   not split words there, so two arguments become one. Fix: an ASCII space.
//! * `TXT006` (error) — a backtick at the end of a line: PowerShell's line continuation. In
//!   bash it opens a command substitution, the command ends early and the flags on the next
//!   lines are lost. Fix: `\`.
//! * `TXT007` (error) — a `^` at the end of a line: cmd.exe's line continuation. In bash the `^`
//!   is a literal argument and the newline ends the command. Fix: `\`.
//! * `TXT008` (warning) — control characters (NUL, ESC colour codes copied from a terminal,
//!   ...): a NUL cannot be part of an argument at all, the others are invisible. Fix: delete
//!   them (a whole `ESC [ ... m` colour sequence at once).
//! * `TXT009` (error) — bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
//!   U+061C): they reorder how the text is displayed, so the command shown is not the command
//!   that runs ("Trojan Source"). Fix: delete them.
//!
//! `TXT004` and `TXT009` are found by a separate pass over the whole text (comments, quotes,
//! here-documents, other commands: anywhere), one finding per run of such characters (runs in
//! one word are merged), at most [`MAX_HIDDEN_FINDINGS`] per code and then one summary finding
//! whose fix deletes all the rest. The other codes skip comments (`#` at the start of a word,
//! outside quotes).

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity, Stage};
use crate::span::Span;

/// Dashes that are not ASCII `-` but look like one.
fn is_unicode_dash(c: char) -> bool {
    matches!(
        c,
        '\u{2010}' // hyphen
            | '\u{2011}' // non-breaking hyphen
            | '\u{2012}' // figure dash
            | '\u{2013}' // en dash
            | '\u{2014}' // em dash
            | '\u{2015}' // horizontal bar
            | '\u{2212}' // minus sign
            | '\u{FE58}' // small em dash
            | '\u{FE63}' // small hyphen-minus
            | '\u{FF0D}' // fullwidth hyphen-minus
    )
}

/// Bidirectional formatting controls: embeddings, overrides, isolates and marks.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Invisible or blank-looking characters (bidi controls excepted): Unicode's
/// Default_Ignorable_Code_Point set, plus the braille blank (U+2800), which displays as a
/// space but is a letter-like symbol to the shell.
fn is_hidden(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}' // soft hyphen
            | '\u{034F}' // combining grapheme joiner
            | '\u{115F}' | '\u{1160}' // Hangul choseong/jungseong fillers
            | '\u{17B4}' | '\u{17B5}' // Khmer inherent vowels
            | '\u{180B}'..='\u{180F}' // Mongolian free variation selectors, vowel separator
            | '\u{200B}'..='\u{200D}' // zero-width space, non-joiner, joiner
            | '\u{2060}'..='\u{2065}' // word joiner, invisible operators
            | '\u{206A}'..='\u{206F}' // deprecated format characters
            | '\u{2800}' // braille pattern blank
            | '\u{3164}' // Hangul filler
            | '\u{FE00}'..='\u{FE0F}' // variation selectors
            | '\u{FEFF}' // zero-width no-break space (BOM)
            | '\u{FFA0}' // halfwidth Hangul filler
            | '\u{FFF0}'..='\u{FFF8}' // unassigned, default ignorable
            | '\u{1BCA0}'..='\u{1BCA3}' // shorthand format controls
            | '\u{1D173}'..='\u{1D17A}' // musical symbol format controls
            | '\u{E0000}'..='\u{E0FFF}' // tags, variation selectors supplement, unassigned
    )
}

fn is_control(c: char) -> bool {
    (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || ('\u{7f}'..='\u{9f}').contains(&c)
}

fn is_unicode_space(c: char) -> bool {
    matches!(c, '\u{00A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}')
}

fn is_smart_double(c: char) -> bool {
    matches!(c, '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{00AB}' | '\u{00BB}' | '\u{FF02}')
}

fn is_smart_single(c: char) -> bool {
    matches!(c, '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{FF07}')
}

fn char_name(c: char) -> String {
    let name = match c {
        '\u{2010}' => "hyphen",
        '\u{2011}' => "non-breaking hyphen",
        '\u{2012}' => "figure dash",
        '\u{2013}' => "en dash",
        '\u{2014}' => "em dash",
        '\u{2015}' => "horizontal bar",
        '\u{2212}' => "minus sign",
        '\u{FE58}' => "small em dash",
        '\u{FE63}' => "small hyphen-minus",
        '\u{FF0D}' => "fullwidth hyphen-minus",
        '\u{200B}' => "zero-width space",
        '\u{200C}' => "zero-width non-joiner",
        '\u{200D}' => "zero-width joiner",
        '\u{2060}' => "word joiner",
        '\u{FEFF}' => "zero-width no-break space (BOM)",
        '\u{00AD}' => "soft hyphen",
        '\u{180E}' => "Mongolian vowel separator",
        '\u{180B}'..='\u{180D}' | '\u{180F}' => "Mongolian variation selector",
        '\u{034F}' => "combining grapheme joiner",
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' => "Hangul filler",
        '\u{2061}' => "function application",
        '\u{2062}' => "invisible times",
        '\u{2063}' => "invisible separator",
        '\u{2064}' => "invisible plus",
        '\u{2800}' => "braille pattern blank",
        '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => "variation selector",
        '\u{E0000}'..='\u{E007F}' => "tag character",
        '\u{202A}' => "left-to-right embedding",
        '\u{202B}' => "right-to-left embedding",
        '\u{202C}' => "pop directional formatting",
        '\u{202D}' => "left-to-right override",
        '\u{202E}' => "right-to-left override",
        '\u{2066}' => "left-to-right isolate",
        '\u{2067}' => "right-to-left isolate",
        '\u{2068}' => "first strong isolate",
        '\u{2069}' => "pop directional isolate",
        '\u{200E}' => "left-to-right mark",
        '\u{200F}' => "right-to-left mark",
        '\u{061C}' => "Arabic letter mark",
        '\u{00A0}' => "no-break space",
        '\u{202F}' => "narrow no-break space",
        '\u{3000}' => "ideographic space",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => "typographic double quote",
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => "typographic single quote",
        '\u{00AB}' | '\u{00BB}' => "guillemet",
        '\u{FF02}' | '\u{FF07}' => "fullwidth quote",
        _ => "",
    };
    if name.is_empty() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("U+{:04X} {name}", c as u32)
    }
}

fn fix(title: impl Into<String>, edits: Vec<Edit>) -> Fix {
    Fix { title: title.into(), applicability: Applicability::Safe, edits }
}

fn edit(start: usize, end: usize, replacement: &str) -> Edit {
    Edit { start, end, replacement: replacement.to_string() }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    None,
    Single,
    Double,
}

/// All typographic findings in `text`, in text order.
pub fn lint(text: &str) -> Vec<Diagnostic> {
    // Every finding needs a non-ASCII character, a control byte, or a PowerShell/cmd
    // continuation character: plain ASCII text without those has none (the common case).
    let plain = text.bytes().all(|b| matches!(b, b'\t' | b'\n' | b'\r' | 0x20..=0x7e) && b != b'`' && b != b'^');
    if plain {
        return Vec::new();
    }
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |k: usize| chars.get(k).map(|&(o, _)| o).unwrap_or(text.len());
    let mut out = Vec::new();
    let mut quote = Quote::None;
    // Start of the current word (char index), and whether it looks like a flag name still
    // being read (begins with dashes, no `=` yet).
    let mut in_word = false;
    let mut in_flag_name = false;
    let mut k = 0usize;
    // Smart single quotes are only fixed when they pair up: a lone `’` becomes an unbalanced
    // ASCII quote. Collected first, decided at the end.
    let mut singles: Vec<(usize, char, Quote)> = Vec::new();
    while let Some(&(at, c)) = chars.get(k) {
        let prev = k.checked_sub(1).and_then(|p| chars.get(p)).map(|&(_, c)| c);
        let next = chars.get(k + 1).map(|&(_, c)| c);
        let word_start = !in_word;
        match quote {
            Quote::Single => {
                if c == '\'' {
                    quote = Quote::None;
                }
            }
            Quote::Double => match c {
                '"' => quote = Quote::None,
                '\\' => k += 1,
                _ => {}
            },
            Quote::None => match c {
                '\'' => quote = Quote::Single,
                '"' => quote = Quote::Double,
                '\\' => {
                    k += 1;
                    in_word = true;
                    k += 1;
                    continue;
                }
                '#' if word_start => {
                    // Comment to end of line.
                    while let Some(&(_, c)) = chars.get(k) {
                        if c == '\n' {
                            break;
                        }
                        k += 1;
                    }
                    continue;
                }
                _ => {}
            },
        }

        // Word boundaries (outside quotes only).
        if quote == Quote::None && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '|' || c == '&') {
            in_word = false;
            in_flag_name = false;
        } else if !is_unicode_space(c) || quote != Quote::None {
            if !in_word {
                in_word = true;
                in_flag_name = c == '-' || is_unicode_dash(c);
            }
            if c == '=' {
                in_flag_name = false;
            }
        }

        let at_word_start = word_start || (matches!(prev, Some('"' | '\'')) && in_flag_name);
        if (c == '-' || is_unicode_dash(c)) && at_word_start {
            // A run of dashes at the start of a word, followed by a letter: a flag.
            let mut j = k;
            while chars.get(j).is_some_and(|&(_, d)| d == '-' || is_unicode_dash(d)) {
                j += 1;
            }
            let run = chars.get(k..j).unwrap_or(&[]);
            let after = chars.get(j).map(|&(_, c)| c);
            if run.iter().any(|&(_, d)| is_unicode_dash(d)) && after.is_some_and(|a| a.is_ascii_alphabetic()) {
                let start = at;
                let end = end_of(j);
                let written = text.get(start..end).unwrap_or("");
                // A single letter name (`–h`) is a short option; anything longer is long.
                let rest = chars.get(j..).unwrap_or(&[]);
                let name_end = rest.iter().take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').count();
                let dashes = if name_end == 1 { "-" } else { "--" };
                let flag_text = text.get(start..end_of(j + name_end)).unwrap_or("");
                let mut names: Vec<String> = run.iter().filter(|(_, d)| is_unicode_dash(*d)).map(|&(_, d)| char_name(d)).collect();
                names.dedup();
                out.push(
                    Diagnostic::preflight(
                        "TXT001",
                        Severity::Warning,
                        Stage::Shell,
                        format!("`{flag_text}` starts with `{written}` ({}), not `{dashes}`: SGLang will not see an option", names.join(", ")),
                        Span::new(start, end),
                    )
                    .with_explanation(
                        "Word processors, chat apps and some documentation sites turn `--` into an en or em dash. \
                         A shell passes the dash through as an ordinary character, so SGLang receives a word that \
                         does not start with `--` and rejects it as an unrecognized argument.",
                    )
                    .with_fix(fix(format!("Replace `{written}` with `{dashes}`"), vec![edit(start, end, dashes)])),
                );
            }
            k = j.max(k + 1);
            continue;
        } else if is_unicode_dash(c) {
            // A Unicode hyphen inside the name of a flag (`--tp‑size`).
            if in_flag_name && prev.is_some_and(|p| p.is_ascii_alphanumeric()) && next.is_some_and(|n| n.is_ascii_alphanumeric()) {
                let end = end_of(k + 1);
                out.push(
                    Diagnostic::preflight(
                        "TXT002",
                        Severity::Warning,
                        Stage::Shell,
                        format!("`{c}` ({}) inside a flag name is not the ASCII hyphen `-`", char_name(c)),
                        Span::new(at, end),
                    )
                    .with_explanation(
                        "The flag looks right but one of its hyphens is a different character (often a \
                         non-breaking hyphen added by a document editor), so SGLang does not recognize the option.",
                    )
                    .with_fix(fix("Replace it with `-`", vec![edit(at, end, "-")])),
                );
            }
        } else if is_control(c) {
            // A run of control characters, with ANSI CSI sequences (`ESC [ params final`) whole.
            let mut j = k;
            while let Some(&(_, d)) = chars.get(j) {
                if d == '\u{1b}' && chars.get(j + 1).is_some_and(|&(_, b)| b == '[') {
                    let mut e = j + 2;
                    while chars.get(e).is_some_and(|&(_, p)| ('\u{30}'..='\u{3f}').contains(&p) || ('\u{20}'..='\u{2f}').contains(&p)) {
                        e += 1;
                    }
                    if chars.get(e).is_some_and(|&(_, f)| ('\u{40}'..='\u{7e}').contains(&f)) {
                        e += 1;
                    }
                    j = e;
                } else if is_control(d) {
                    j += 1;
                } else {
                    break;
                }
            }
            let j = j.max(k + 1);
            let end = end_of(j);
            let mut names: Vec<String> = chars
                .get(k..j)
                .unwrap_or(&[])
                .iter()
                .filter(|(_, d)| is_control(*d))
                .map(|&(_, d)| match d {
                    '\0' => "NUL".to_string(),
                    '\u{1b}' => "ESC".to_string(),
                    d => format!("U+{:04X}", d as u32),
                })
                .collect();
            names.dedup();
            out.push(
                Diagnostic::preflight(
                    "TXT008",
                    Severity::Warning,
                    Stage::Shell,
                    format!("control character{} ({}) in the text", if names.len() == 1 && j == k + 1 { "" } else { "s" }, names.join(", ")),
                    Span::new(at, end),
                )
                .with_explanation(
                    "Control characters do not belong in a command: a NUL byte cannot be passed in an argument at all \
                     (bash drops it), and escape sequences such as terminal colour codes come from copying a terminal's \
                     output. They are invisible here but change the words SGLang receives.",
                )
                .with_fix(fix("Delete them", vec![edit(at, end, "")])),
            );
            k = j;
            continue;
        } else if is_unicode_space(c) && quote == Quote::None {
            let end = end_of(k + 1);
            out.push(
                Diagnostic::preflight(
                    "TXT005",
                    Severity::Warning,
                    Stage::Shell,
                    format!("{} is not a space to the shell: the words on both sides stay one argument", char_name(c)),
                    Span::new(at, end),
                )
                .with_explanation(
                    "A shell splits words only at ASCII spaces, tabs and newlines. A no-break or other Unicode space \
                     looks the same but joins a flag and its value (or two flags) into a single argument.",
                )
                .with_fix(fix("Replace it with an ASCII space", vec![edit(at, end, " ")])),
            );
            in_word = false;
            in_flag_name = false;
        } else if is_smart_double(c) {
            let replacement = if quote == Quote::Double { "\\\"" } else { "\"" };
            let end = end_of(k + 1);
            out.push(smart_quote(c, at, end, replacement));
        } else if is_smart_single(c) {
            let apostrophe = prev.is_some_and(char::is_alphanumeric) && next.is_some_and(char::is_alphanumeric);
            if !apostrophe && quote != Quote::Single {
                singles.push((at, c, quote));
            }
        } else if (c == '`' || c == '^') && quote != Quote::Single && matches!(prev, Some(' ' | '\t')) {
            // Line-end continuation of PowerShell (`) or cmd.exe (^)?
            let mut j = k + 1;
            while chars.get(j).is_some_and(|&(_, d)| d == ' ' || d == '\t' || d == '\r') {
                j += 1;
            }
            let at_line_end = matches!(chars.get(j), Some(&(_, '\n')));
            // Only when another line follows with more of the command.
            let more = chars.get(j + 1..).unwrap_or(&[]).iter().any(|&(_, d)| !d.is_whitespace());
            if at_line_end && more {
                // Replace the marker and any trailing blanks (but keep a CR of CRLF).
                let mut cut = k + 1;
                while chars.get(cut).is_some_and(|&(_, d)| d == ' ' || d == '\t') {
                    cut += 1;
                }
                let end = end_of(cut);
                let (code, who, bash) = if c == '`' {
                    (
                        "TXT006",
                        "PowerShell",
                        "In bash a backtick starts a command substitution that runs to the next backtick; the command \
                         ends at the following newline and the flags after it are not passed to SGLang.",
                    )
                } else {
                    (
                        "TXT007",
                        "cmd.exe",
                        "In bash `^` is an ordinary argument and the newline ends the command; the flags on the next \
                         lines run as a separate command and are not passed to SGLang.",
                    )
                };
                out.push(
                    Diagnostic::preflight(
                        code,
                        Severity::Error,
                        Stage::Shell,
                        format!("`{c}` at the end of a line is {who}'s line continuation, not bash's (`\\`)"),
                        Span::new(at, end_of(k + 1)),
                    )
                    .with_explanation(format!(
                        "This command was written for Windows {who}, where `{c}` continues a command on the next line. {bash}"
                    ))
                    .with_fix(fix(format!("Replace `{c}` with `\\`"), vec![edit(at, end, "\\")])),
                );
                // Bash would open a substitution here; we deliberately do not track it.
            }
        }
        k += 1;
    }

    // Pair the typographic single quotes: fixable only when their number is even.
    let pairable = singles.iter().filter(|(_, _, q)| *q == Quote::None).count() % 2 == 0;
    for (at, c, q) in singles {
        let end = at + c.len_utf8();
        let d = smart_quote(c, at, end, "'");
        if q == Quote::None && !pairable {
            out.push(Diagnostic { fixes: Vec::new(), ..d });
        } else {
            out.push(d);
        }
    }
    out.extend(hidden(text));
    crate::sorting::sort_by_key(&mut out, |d| (d.span.start, d.span.end));
    cap_hidden(group(text, out))
}

/// At most this many `TXT004` findings (and as many `TXT009`) are listed one by one; the rest
/// of each code make one summary finding whose fix deletes them all.
pub const MAX_HIDDEN_FINDINGS: usize = 100;

/// At most this many distinct characters are named in one finding's message.
const MAX_NAMES: usize = 4;

/// `TXT004` and `TXT009`: one finding per run of hidden (or of bidi) characters, anywhere in
/// the text. One pass, constant work per character.
fn hidden(text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some((at, c)) = it.next() {
        let bidi = is_bidi_control(c);
        if !bidi && !is_hidden(c) {
            continue;
        }
        let same_class = |d: char| if bidi { is_bidi_control(d) } else { is_hidden(d) };
        let mut end = at + c.len_utf8();
        let mut count = 1usize;
        let mut names: Vec<char> = vec![c];
        let mut more_names = false;
        // Tag characters U+E0020..U+E007E mirror ASCII: text hidden in plain sight.
        let mut tagged = String::new();
        let note_tag = |d: char, tagged: &mut String| {
            if let Some(a) = (d as u32).checked_sub(0xE0000).filter(|a| (0x20..0x7f).contains(a)).and_then(char::from_u32) {
                if tagged.len() < 80 {
                    tagged.push(a);
                }
            }
        };
        note_tag(c, &mut tagged);
        while let Some(&(o, d)) = it.peek() {
            if !same_class(d) {
                break;
            }
            it.next();
            end = o + d.len_utf8();
            count += 1;
            note_tag(d, &mut tagged);
            if !names.contains(&d) {
                if names.len() < MAX_NAMES {
                    names.push(d);
                } else {
                    more_names = true;
                }
            }
        }
        let mut listed: Vec<String> = names.iter().map(|&d| char_name(d)).collect();
        listed.dedup();
        if more_names {
            listed.push("…".to_string());
        }
        let listed = listed.join(", ");
        let them = if count == 1 { "it" } else { "them" };
        let span = Span::new(at, end);
        let d = if bidi {
            let what = if count == 1 { "a bidirectional control character" } else { "bidirectional control characters" };
            Diagnostic::preflight(
                "TXT009",
                Severity::Error,
                Stage::Shell,
                format!("{what} ({listed}): the text is displayed reordered, so what you see is not what runs"),
                span,
            )
            .with_explanation(
                "Bidirectional controls change the order in which the characters after them are displayed (the \
                 \"Trojan Source\" trick): a comment can appear to end before text that the shell actually runs, a \
                 quoted value can appear to hold flags that are really outside it, or the other way round. The shell \
                 ignores the display order and reads the characters as stored. A launch command never needs them.",
            )
        } else {
            let what = if count == 1 { "an invisible character" } else { "invisible characters" };
            let hidden_text = if tagged.is_empty() { String::new() } else { format!("; as tag characters they spell `{tagged}`") };
            Diagnostic::preflight("TXT004", Severity::Warning, Stage::Shell, format!("{what} ({listed}) in the command{hidden_text}"), span)
                .with_explanation(
                    "Zero-width and other invisible or blank-looking characters (joiners, variation selectors, tag \
                     characters, Hangul fillers, the braille blank, ...) are part of the text even though they show \
                     as nothing or as a space: a flag or value containing one is not the flag or value it looks like, \
                     and a blank that is not a space does not separate words. They come from copying out of web \
                     pages, chat apps and PDFs, or are planted to hide text.",
                )
        };
        out.push(d.with_fix(fix(format!("Delete {them}"), vec![edit(at, end, "")])));
    }
    out
}

/// Keep the first [`MAX_HIDDEN_FINDINGS`] `TXT004` and `TXT009` findings; fold the rest of
/// each code into one summary (span from the first to the last folded one, one fix deleting
/// all of them). `diags` is in text order; so is the result.
fn cap_hidden(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let slot = |code: &str| match code {
        "TXT004" => Some(0usize),
        "TXT009" => Some(1usize),
        _ => None,
    };
    let mut seen = [0usize; 2];
    let mut folded: [Option<(Diagnostic, usize)>; 2] = [None, None];
    let mut out = Vec::with_capacity(diags.len().min(4 * MAX_HIDDEN_FINDINGS));
    for d in diags {
        let Some(i) = slot(&d.code) else {
            out.push(d);
            continue;
        };
        let (Some(n), Some(f)) = (seen.get_mut(i), folded.get_mut(i)) else { continue };
        *n += 1;
        if *n <= MAX_HIDDEN_FINDINGS {
            out.push(d);
            continue;
        }
        match f {
            None => *f = Some((d, 1)),
            Some((sum, k)) => {
                *k += 1;
                sum.span = sum.span.cover(d.span);
                let edits = d.fixes.into_iter().flat_map(|x| x.edits);
                match sum.fixes.first_mut() {
                    Some(x) => x.edits.extend(edits),
                    None => sum.fixes.push(fix("Delete them", edits.collect())),
                }
            }
        }
    }
    let mut summaries = false;
    for (sum, k) in folded.into_iter().flatten() {
        summaries = true;
        let mut sum = sum;
        let what = if sum.code == "TXT009" { "bidirectional control characters" } else { "invisible characters" };
        sum.message = format!("{what} in {k} more places (not listed one by one)");
        if let Some(x) = sum.fixes.first_mut() {
            x.title = "Delete all of them".to_string();
        }
        out.push(sum);
    }
    if summaries {
        crate::sorting::sort_by_key(&mut out, |d| (d.span.start, d.span.end));
    }
    out
}

fn is_opening_quote(c: char) -> bool {
    matches!(c, '\u{201C}' | '\u{201E}' | '\u{2018}' | '\u{201A}' | '\u{00AB}')
}

/// One finding per thing to fix: a pair of typographic quotes, the invisible or control
/// characters of one word, the Windows continuations of one command. Its fix repairs all of
/// it at once (applying one fix must leave a command that works).
fn group(text: &str, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let between = |a: &Diagnostic, b: &Diagnostic| text.get(a.span.end..b.span.start);
    let mut out: Vec<(Diagnostic, usize)> = Vec::new();
    for d in diags {
        if let Some((cur, n)) = out.last_mut() {
            let gap = between(cur, &d);
            let same_word = gap.is_some_and(|g| !g.contains([' ', '\t', '\n', '\r']));
            let merge = cur.code == d.code
                && match d.code.as_str() {
                    "TXT003" => {
                        let opening = text.get(cur.span.start..).and_then(|t| t.chars().next()).is_some_and(is_opening_quote);
                        let closing = text.get(d.span.start..).and_then(|t| t.chars().next()).is_some_and(|c| !is_opening_quote(c));
                        same_word || (*n == 1 && opening && closing && gap.is_some_and(|g| !g.contains('\n')))
                    }
                    "TXT004" | "TXT008" => same_word,
                    "TXT006" | "TXT007" => gap.is_some_and(|g| g.matches('\n').count() == 1),
                    _ => false,
                };
            if merge {
                *n += 1;
                let both_fixable = !cur.fixes.is_empty() && !d.fixes.is_empty();
                let edits: Vec<Edit> = d.fixes.into_iter().flat_map(|f| f.edits).collect();
                if both_fixable {
                    if let Some(f) = cur.fixes.first_mut() {
                        f.edits.extend(edits);
                    }
                } else {
                    cur.fixes.clear();
                }
                let n = *n;
                match cur.code.as_str() {
                    "TXT006" | "TXT007" => {
                        // The span stays on the first marker; the fix covers every line.
                        let c = if cur.code == "TXT006" { '`' } else { '^' };
                        let who = if cur.code == "TXT006" { "PowerShell" } else { "cmd.exe" };
                        cur.message = format!("`{c}` at the end of {n} lines is {who}'s line continuation, not bash's (`\\`)");
                        if let Some(f) = cur.fixes.first_mut() {
                            f.title = format!("Replace the {n} line-end `{c}` with `\\`");
                        }
                    }
                    _ => {
                        cur.span = cur.span.cover(d.span);
                        let written = text.get(cur.span.start..cur.span.end).unwrap_or("");
                        let shown: String = written.chars().take(60).collect();
                        let ellipsis = if shown.len() < written.len() { "…" } else { "" };
                        cur.message = match cur.code.as_str() {
                            "TXT003" => format!("`{shown}{ellipsis}`: typographic quotes are not shell quotes; they become part of the value"),
                            "TXT004" => format!("invisible characters inside `{shown}{ellipsis}`"),
                            _ => "control characters inside one word".to_string(),
                        };
                        if let Some(f) = cur.fixes.first_mut() {
                            f.title = match cur.code.as_str() {
                                "TXT003" => "Use ASCII quotes".to_string(),
                                _ => "Delete them".to_string(),
                            };
                        }
                    }
                }
                continue;
            }
        }
        out.push((d, 1));
    }
    out.into_iter().map(|(d, _)| d).collect()
}

fn smart_quote(c: char, at: usize, end: usize, replacement: &str) -> Diagnostic {
    Diagnostic::preflight(
        "TXT003",
        Severity::Warning,
        Stage::Shell,
        format!("`{c}` ({}) is not a shell quote: it becomes part of the value", char_name(c)),
        Span::new(at, end),
    )
    .with_explanation(
        "Documents and chat apps replace straight quotes with curly ones. The shell only treats ASCII `'` and `\"` \
         as quotes, so SGLang receives the curly quotes as characters of the argument.",
    )
    .with_fix(fix(format!("Replace it with `{replacement}`"), vec![edit(at, end, replacement)]))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::diagnostic::apply_edits;

    fn codes(text: &str) -> Vec<String> {
        lint(text).into_iter().map(|d| d.code).collect()
    }

    fn fixed(text: &str) -> String {
        let edits: Vec<Edit> = lint(text).into_iter().flat_map(|d| d.fixes).flat_map(|f| f.edits).collect();
        apply_edits(text, &edits).unwrap()
    }

    #[test]
    fn dashes() {
        let t = "python -m sglang.launch_server \u{2014}tp-size 2 \u{2013}dtype auto";
        assert_eq!(codes(t), ["TXT001", "TXT001"]);
        assert_eq!(fixed(t), "python -m sglang.launch_server --tp-size 2 --dtype auto");
        assert_eq!(fixed("x \u{2013}h"), "x -h");
        assert_eq!(fixed("x -\u{2013}tp 2"), "x --tp 2");
        assert_eq!(fixed("x --tp\u{2011}size 2"), "x --tp-size 2");
        // Dashes in values and prose are left alone.
        assert!(codes("x --served-model-name a\u{2014}b --x '{\"a\": \"\u{2014}b\"}'").is_empty());
        assert!(codes("x --foo=a\u{2011}b").is_empty());
        assert!(codes("# use \u{2014}tp-size\nx").is_empty());
        assert!(codes("x 1 \u{2014} 2").is_empty());
    }

    #[test]
    fn quotes() {
        let t = "x --dtype \u{201C}auto\u{201D} --y \u{2018}a b\u{2019}";
        assert_eq!(codes(t), ["TXT003", "TXT003"]);
        assert_eq!(lint(t)[0].span, Span::new(10, 20));
        assert_eq!(lint(t)[0].fixes[0].edits.len(), 2);
        assert_eq!(fixed(t), "x --dtype \"auto\" --y 'a b'");
        assert!(codes("x --name it\u{2019}s").is_empty());
        // A lone curly single quote: reported, not fixed.
        let d = lint("x --name \u{2019}a");
        assert_eq!(d.len(), 1);
        assert!(d[0].fixes.is_empty());
        assert_eq!(fixed("x \"a\u{201C}b\""), "x \"a\\\"b\"");
    }

    #[test]
    fn invisible_and_spaces() {
        assert_eq!(fixed("x --tp\u{200B}\u{200B}-size 2"), "x --tp-size 2");
        assert_eq!(codes("x --tp\u{200B}-size 2"), ["TXT004"]);
        assert_eq!(fixed("x --tp\u{00A0}2"), "x --tp 2");
        assert!(codes("x 'a\u{00A0}b'").is_empty());
    }

    #[test]
    fn controls() {
        assert_eq!(fixed("x --tp 2\0 --y \u{1b}[1;33m3\u{1b}[0m\u{7}"), "x --tp 2 --y 3");
        assert_eq!(codes("a\u{1b}[31mb"), ["TXT008"]);
        assert_eq!(codes("a\0\0b\u{85}"), ["TXT008"]);
        assert_eq!(codes("a\0 b\u{85}"), ["TXT008", "TXT008"]);
        assert!(codes("a\tb\r\n").is_empty());
    }

    #[test]
    fn windows_continuations() {
        let t = "python -m sglang.launch_server `\r\n  --model-path m `  \n  --tp 2\n";
        assert_eq!(codes(t), ["TXT006"]);
        assert!(lint(t)[0].message.contains("2 lines"));
        assert_eq!(fixed(t), "python -m sglang.launch_server \\\r\n  --model-path m \\\n  --tp 2\n");
        assert_eq!(fixed("a ^\n --tp 2"), "a \\\n --tp 2");
        assert!(codes("a `date`\nb").is_empty());
        assert!(codes("a --x 2 `\n").is_empty());
        assert!(codes("a --x=`\nfoo`").is_empty());
    }
}
