//! The command builder's view of a command and its edits: which flags a launch command sets
//! (as SGLang's argparse reads them: abbreviations, `--flag=value`, repeats, behind wrappers),
//! and "set flag X to V / remove X / toggle X" as byte edits of the user's text that keep every
//! other byte (wrappers, `export` lines, comments, the other commands of a paste).

use crate::argparse::{self, Occurrence};
use crate::diagnostic::Edit;
use crate::edits::{self, Applied};
use crate::frontend::{self, ConfigFiles};
use crate::invocation::{self, Entry, Invocation};
use crate::schema::{Action, Schema};
use crate::shell::{self, quote_word, Word};
use crate::span::Span;
use serde::Serialize;
use std::collections::BTreeMap;

/// What the builder wants a flag to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagValue {
    /// Not on the command line.
    Unset,
    /// A switch given (`--enable-x`), or a `BooleanOptionalAction` given positively.
    On,
    /// A `BooleanOptionalAction` given negatively (`--no-x`); for a plain switch, same as unset.
    Off,
    /// The value(s) as typed: one value, or several separated by whitespace for flags that take
    /// several (`nargs` `+`, `*` or a count).
    Text(String),
}

/// A flag's value as the command sets it, for the builder's controls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ShownValue {
    /// A switch: true when given (or given positively), false for `--no-x`.
    Switch(bool),
    /// The value words as SGLang receives them, joined by single spaces.
    Text(String),
}

/// The flags one launch command sets on its command line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CommandFlags {
    /// Which command of the text (0-based), `None` when the text has none.
    pub command: Option<usize>,
    pub entry: Option<Entry>,
    /// By the flag's main option string (`--tp-size`, also when written `--tp`); a repeated
    /// flag shows its last value, the one argparse keeps.
    pub values: BTreeMap<String, ShownValue>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    UnknownFlag(String),
    NoSuchCommand(usize),
    /// The launch sits inside a `bash -c` string: a value that needs quoting would need it twice.
    NeedsQuotingTwice,
    /// An unterminated quote in the command would swallow the new words.
    UnterminatedQuote,
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::UnknownFlag(flag) => write!(f, "{flag} is not a flag of this SGLang version"),
            EditError::NoSuchCommand(i) => write!(f, "there is no launch command number {}", i + 1),
            EditError::NeedsQuotingTwice => {
                write!(f, "this launch is inside a quoted `bash -c` string: edit a value that needs quotes by hand")
            }
            EditError::UnterminatedQuote => write!(f, "the command has an unterminated quote: close it first"),
        }
    }
}

/// The main option string of an action: its first long one (`--tp-size`), as argparse names it.
pub fn main_option(action: &Action) -> &str {
    action.option_strings.iter().find(|o| o.starts_with("--")).or(action.option_strings.first()).map(String::as_str).unwrap_or("")
}

/// Actions that take no value word (switches and constants).
pub fn takes_no_value(action: &Action) -> bool {
    matches!(action.nargs, Some(serde_json::Value::Number(ref n)) if n.as_u64() == Some(0))
        || matches!(
            action.action.as_str(),
            "_StoreTrueAction"
                | "_StoreFalseAction"
                | "_StoreConstAction"
                | "_CountAction"
                | "BooleanOptionalAction"
                | "DeprecatedStoreTrueAction"
                | "DeprecatedStoreConstAction"
                | "_HelpAction"
        )
}

/// Actions whose value is a list of words (`nargs` `+`, `*` or a count).
fn takes_several_values(action: &Action) -> bool {
    match &action.nargs {
        Some(serde_json::Value::String(s)) => s == "+" || s == "*",
        Some(serde_json::Value::Number(_)) => !takes_no_value(action),
        _ => false,
    }
}

fn is_boolean_optional(action: &Action) -> bool {
    action.action == "BooleanOptionalAction"
}

fn negative_option(action: &Action) -> String {
    action
        .option_strings
        .iter()
        .find(|o| o.starts_with("--no-"))
        .cloned()
        .unwrap_or_else(|| format!("--no-{}", main_option(action).trim_start_matches("--")))
}

/// One launch command of the text as argparse reads its command line.
struct ParsedCommand {
    inv: Invocation,
    argv: Vec<Word>,
    occurrences: Vec<Occurrence>,
}

fn parse_command(schema: &Schema, inv: Invocation) -> ParsedCommand {
    // No config files: the builder edits the command line, and values from a `--config` file
    // are not words of the text.
    let fe = frontend::run_with(Some(schema), &inv, &ConfigFiles::new());
    let parsed = argparse::parse_args_with(schema, &fe.argv, &fe.from_config);
    let occurrences = parsed.occurrences.into_iter().filter(|o| !o.from_config).collect();
    ParsedCommand { inv, argv: fe.argv, occurrences }
}

/// The value an occurrence gives, as the builder shows it.
fn shown_value(action: &Action, occ: &Occurrence, argv: &[Word]) -> ShownValue {
    if takes_no_value(action) {
        return ShownValue::Switch(!(is_boolean_optional(action) && occ.option.starts_with("--no-")));
    }
    let flag = argv.get(occ.words.start);
    if occ.words.len() == 1 {
        // `--flag=value` (or a flag missing its value)
        let explicit = flag.and_then(|w| w.text.split_once('=')).map(|(_, v)| v.to_string());
        return ShownValue::Text(explicit.unwrap_or_default());
    }
    let values: Vec<&str> = argv.get(occ.words.start + 1..occ.words.end).unwrap_or_default().iter().map(|w| w.text.as_str()).collect();
    ShownValue::Text(values.join(" "))
}

/// The flags command `index` of `text` sets on its command line.
pub fn command_flags(text: &str, schema: &Schema, index: usize) -> CommandFlags {
    let parsed = shell::parse(text);
    let Some(inv) = invocation::locate(&parsed).invocations.into_iter().nth(index) else { return CommandFlags::default() };
    let entry = inv.entry;
    let cmd = parse_command(schema, inv);
    let mut values = BTreeMap::new();
    for occ in &cmd.occurrences {
        let Some(action) = schema.actions.get(occ.action) else { continue };
        if action.action == "_HelpAction" {
            continue;
        }
        values.insert(main_option(action).to_string(), shown_value(action, occ, &cmd.argv));
    }
    CommandFlags { command: Some(index), entry: Some(entry), values }
}

/// One flag as a command writes it: which action, the option as typed, where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenSetting {
    /// The action's main option string (`--tp-size`, also when written `--tp`).
    pub main_option: String,
    /// The option string argparse resolved the typed word to (`--tp-size` for `--tp`).
    pub resolved_option: String,
    /// The option part of the flag word as typed (`--tp` in `--tp=2`).
    pub written: String,
    /// The option part of the flag word in the text (quotes included); `None` inside a
    /// nested string whose bytes are not the word's (a `bash -c '...'` with escapes).
    pub option_span: Option<Span>,
    /// The flag word and its values in the text.
    pub whole_span: Span,
    pub value: ShownValue,
}

/// Every flag command `index` of `text` writes on its command line, in order (repeats kept).
pub fn command_settings(text: &str, schema: &Schema, index: usize) -> Vec<WrittenSetting> {
    let parsed = shell::parse(text);
    let Some(inv) = invocation::locate(&parsed).invocations.into_iter().nth(index) else { return Vec::new() };
    let cmd = parse_command(schema, inv);
    let mut out = Vec::new();
    for occ in &cmd.occurrences {
        let Some(action) = schema.actions.get(occ.action) else { continue };
        let Some(word) = cmd.argv.get(occ.words.start) else { continue };
        if action.action == "_HelpAction" {
            continue;
        }
        let written = word.text.split_once('=').map(|(o, _)| o).unwrap_or(&word.text).to_string();
        // The option's bytes are the word's own only when the word is written verbatim.
        let verbatim = word.map.is_none() && text.get(word.span.start..word.span.end) == Some(word.text.as_str());
        let option_span = verbatim.then(|| Span::new(word.span.start, word.span.start + written.len()));
        out.push(WrittenSetting {
            main_option: main_option(action).to_string(),
            resolved_option: occ.option.clone(),
            written,
            option_span,
            whole_span: occ.whole_span,
            value: shown_value(action, occ, &cmd.argv),
        });
    }
    out
}

/// The words that give `action` the value `value` (without the option).
fn value_words(action: &Action, value: &str) -> Vec<String> {
    if takes_several_values(action) {
        value.split_whitespace().map(quote_word).collect()
    } else {
        vec![quote_word(value)]
    }
}

/// The whole setting as written for a new occurrence: `--tp-size 2`, `--no-x`.
fn rendering(action: &Action, value: &FlagValue) -> Option<String> {
    match value {
        FlagValue::Unset => None,
        FlagValue::On => Some(main_option(action).to_string()),
        FlagValue::Off => is_boolean_optional(action).then(|| negative_option(action)),
        FlagValue::Text(v) => {
            let words = value_words(action, v);
            Some(std::iter::once(main_option(action).to_string()).chain(words).collect::<Vec<_>>().join(" "))
        }
    }
}

/// The edit that drops an occurrence, with the blanks (and a line continuation) before it, so
/// no double space or empty continuation line is left.
fn removal(text: &str, occ: &Occurrence) -> Edit {
    let bytes = text.as_bytes();
    let blank = |i: usize| matches!(bytes.get(i), Some(b' ') | Some(b'\t'));
    let mut start = occ.whole_span.start;
    while start > 0 && blank(start - 1) {
        start -= 1;
    }
    if start >= 2 && bytes.get(start - 2) == Some(&b'\\') && bytes.get(start - 1) == Some(&b'\n') {
        start -= 2;
        while start > 0 && blank(start - 1) {
            start -= 1;
        }
    }
    Edit { start, end: occ.whole_span.end, replacement: String::new() }
}

/// Where a new flag goes, and the separator before it: after the command's last word, on a new
/// continuation line when the command is written one flag per line.
fn insertion(text: &str, cmd: &ParsedCommand, words: &str) -> Edit {
    // After a `--` argparse reads every word as positional: new flags go before it.
    if let Some(dd) = cmd.argv.iter().find(|w| w.text == "--" && w.map.is_none()) {
        return Edit { start: dd.span.start, end: dd.span.start, replacement: format!("{words} ") };
    }
    let at = cmd.inv.args.last().map(|w| w.span.end).unwrap_or(cmd.inv.launcher.end);
    let written = text.get(cmd.inv.launcher.start..at).unwrap_or("");
    let separator = if written.contains("\\\n") {
        let line_start = text.get(..at).and_then(|t| t.rfind('\n')).map(|i| i + 1).unwrap_or(0);
        let indent: String = if line_start <= cmd.inv.launcher.start {
            "  ".into()
        } else {
            text.get(line_start..at).unwrap_or("").chars().take_while(|c| *c == ' ' || *c == '\t').collect()
        };
        format!(" \\\n{indent}")
    } else {
        " ".to_string()
    };
    Edit { start: at, end: at, replacement: format!("{separator}{words}") }
}

/// The edits that make `action` take `value` in an existing command.
fn edits_for(text: &str, action: &Action, ai: usize, value: &FlagValue, cmd: &ParsedCommand) -> Vec<Edit> {
    let occs: Vec<&Occurrence> = cmd.occurrences.iter().filter(|o| o.action == ai).collect();
    let empty_list = matches!(value, FlagValue::Text(v) if takes_several_values(action) && v.trim().is_empty());
    let unset = matches!(value, FlagValue::Unset) || (matches!(value, FlagValue::Off) && !is_boolean_optional(action)) || empty_list;
    if unset {
        // every occurrence: with one left, argparse would still set the flag
        return occs.iter().map(|o| removal(text, o)).collect();
    }
    let Some(last) = occs.last() else {
        return rendering(action, value).map(|words| insertion(text, cmd, &words)).into_iter().collect();
    };
    let flag = cmd.argv.get(last.words.start);
    match value {
        FlagValue::Unset => Vec::new(),
        FlagValue::On | FlagValue::Off => {
            let want = if matches!(value, FlagValue::Off) { negative_option(action) } else { main_option(action).to_string() };
            let is_negative = last.option.starts_with("--no-") && is_boolean_optional(action);
            if is_negative == matches!(value, FlagValue::Off) || !takes_no_value(action) {
                return Vec::new(); // already so (keep the user's spelling)
            }
            flag.map(|w| Edit { start: w.span.start, end: w.span.end, replacement: want }).into_iter().collect()
        }
        FlagValue::Text(v) => {
            let words = value_words(action, v);
            if takes_no_value(action) {
                return Vec::new();
            }
            let values = cmd.argv.get(last.words.start + 1..last.words.end).unwrap_or_default();
            match (values.first(), values.last(), flag) {
                // `--tp 2`: replace the value words only, keep the flag as written
                (Some(first), Some(end), _) => vec![Edit { start: first.span.start, end: end.span.end, replacement: words.join(" ") }],
                (_, _, Some(w)) => match w.text.split_once('=') {
                    // `--tp=2`: one value stays in the word; several need their own words
                    Some((opt, _)) if words.len() == 1 => {
                        vec![Edit { start: w.span.start, end: w.span.end, replacement: format!("{}={}", quote_word(opt), words.join(" ")) }]
                    }
                    Some((opt, _)) => {
                        vec![Edit { start: w.span.start, end: w.span.end, replacement: format!("{} {}", quote_word(opt), words.join(" ")) }]
                    }
                    // the flag is missing its value: give it one
                    None => vec![Edit { start: w.span.end, end: w.span.end, replacement: format!(" {}", words.join(" ")) }],
                },
                _ => Vec::new(),
            }
        }
    }
}

/// Make command `index` of `text` give the flag `option` (any of its option strings, exactly)
/// the value `value`, editing only the bytes of that setting. `Ok(None)` when the command
/// already says so. Without any launch command in the text, setting a flag starts one.
pub fn set_flag(text: &str, schema: &Schema, index: usize, option: &str, value: &FlagValue) -> Result<Option<Applied>, EditError> {
    let edits = set_flag_edits(text, schema, index, option, value)?;
    if edits.is_empty() {
        return Ok(None);
    }
    Ok(edits::apply(text, &edits))
}

/// The edits [`set_flag`] makes (none when the command already says so), for a fix.
pub fn set_flag_edits(text: &str, schema: &Schema, index: usize, option: &str, value: &FlagValue) -> Result<Vec<Edit>, EditError> {
    let (ai, action) = schema
        .actions
        .iter()
        .enumerate()
        .find(|(_, a)| a.action != "_HelpAction" && a.option_strings.iter().any(|o| o == option))
        .ok_or_else(|| EditError::UnknownFlag(option.to_string()))?;
    let parsed = shell::parse(text);
    let invocations = invocation::locate(&parsed).invocations;
    let edits = match invocations.into_iter().nth(index) {
        Some(inv) => {
            let unterminated = parsed.diagnostics.iter().any(|d| d.code == "SH003" && inv.span.start <= d.span.start && d.span.start <= inv.span.end);
            let nested = inv.nested;
            let cmd = parse_command(schema, inv);
            let edits = edits_for(text, action, ai, value, &cmd);
            if unterminated && !edits.is_empty() {
                return Err(EditError::UnterminatedQuote);
            }
            if nested && edits.iter().any(|e| e.replacement.contains(['"', '\'', '\\', '$', '`'])) {
                return Err(EditError::NeedsQuotingTwice);
            }
            edits
        }
        None if index == 0 => match rendering(action, value) {
            // no launch command yet: start one after whatever the text holds
            Some(words) if text.trim().is_empty() => {
                vec![Edit { start: 0, end: text.len(), replacement: format!("python -m sglang.launch_server {words}") }]
            }
            Some(words) => {
                let newline = if text.ends_with('\n') { "" } else { "\n" };
                vec![Edit { start: text.len(), end: text.len(), replacement: format!("{newline}python -m sglang.launch_server {words}") }]
            }
            None => Vec::new(),
        },
        None => return Err(EditError::NoSuchCommand(index)),
    };
    Ok(edits)
}

/// Drop every argument of command `index` (the builder's reset), keeping the launcher and
/// everything around the command. `None` when there is nothing to drop.
pub fn clear_flags(text: &str, index: usize) -> Option<Applied> {
    let parsed = shell::parse(text);
    let inv = invocation::locate(&parsed).invocations.into_iter().nth(index)?;
    let end = inv.args.last()?.span.end;
    edits::apply(text, &[Edit { start: inv.launcher.end, end, replacement: String::new() }])
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing, clippy::string_slice)] // a failed expectation fails the test
mod tests {
    use super::*;

    fn schema() -> &'static Schema {
        crate::schema::get(crate::schema::DEFAULT_VERSION).unwrap()
    }

    fn set(text: &str, option: &str, value: FlagValue) -> String {
        set_at(text, 0, option, value)
    }

    fn set_at(text: &str, index: usize, option: &str, value: FlagValue) -> String {
        match set_flag(text, schema(), index, option, &value) {
            Ok(Some(applied)) => applied.text,
            Ok(None) => text.to_string(),
            Err(e) => panic!("{e}"),
        }
    }

    fn text(v: &str) -> FlagValue {
        FlagValue::Text(v.into())
    }

    /// Everything before `from` and after `to` (in the old text) is byte-for-byte the same.
    fn only_changed(old: &str, new: &str, from: usize, to: usize) {
        assert_eq!(old.as_bytes()[..from], new.as_bytes()[..from], "bytes before the edit changed");
        let tail = old.len() - to;
        assert_eq!(old.as_bytes()[to..], new.as_bytes()[new.len() - tail..], "bytes after the edit changed");
    }

    #[test]
    fn abbreviation_is_recognised_and_its_value_replaced() {
        let old = "python -m sglang.launch_server --model-path m --tp 2";
        let new = set(old, "--tp-size", text("4"));
        assert_eq!(new, "python -m sglang.launch_server --model-path m --tp 4");
        let flags = command_flags(old, schema(), 0);
        assert_eq!(flags.values.get("--tp-size"), Some(&ShownValue::Text("2".into())));
    }

    #[test]
    fn equals_form_keeps_its_shape() {
        let old = "python -m sglang.launch_server --model-path m --tp-size=2 --host 0.0.0.0";
        assert_eq!(set(old, "--tp-size", text("8")), "python -m sglang.launch_server --model-path m --tp-size=8 --host 0.0.0.0");
        assert_eq!(command_flags(old, schema(), 0).values.get("--tp-size"), Some(&ShownValue::Text("2".into())));
        assert_eq!(set(old, "--tp-size", FlagValue::Unset), "python -m sglang.launch_server --model-path m --host 0.0.0.0");
    }

    #[test]
    fn repeated_flag_shows_the_last_and_removal_drops_all() {
        let old = "python -m sglang.launch_server --model-path m --tp-size 2 --port 1 --tp-size 4";
        assert_eq!(command_flags(old, schema(), 0).values.get("--tp-size"), Some(&ShownValue::Text("4".into())));
        assert_eq!(set(old, "--tp-size", text("8")), "python -m sglang.launch_server --model-path m --tp-size 2 --port 1 --tp-size 8");
        assert_eq!(set(old, "--tp-size", FlagValue::Unset), "python -m sglang.launch_server --model-path m --port 1");
    }

    #[test]
    fn values_are_quoted_for_the_shell() {
        let old = "python -m sglang.launch_server --model-path m";
        assert_eq!(set(old, "--served-model-name", text("my model")), "python -m sglang.launch_server --model-path m --served-model-name 'my model'");
        assert_eq!(set(old, "--api-key", text("it's")), "python -m sglang.launch_server --model-path m --api-key 'it'\\''s'");
        let quoted = "python -m sglang.launch_server --model-path m --served-model-name 'my model'";
        assert_eq!(command_flags(quoted, schema(), 0).values.get("--served-model-name"), Some(&ShownValue::Text("my model".into())));
    }

    #[test]
    fn switches_toggle() {
        let old = "python -m sglang.launch_server --model-path m";
        let on = set(old, "--enable-metrics", FlagValue::On);
        assert_eq!(on, "python -m sglang.launch_server --model-path m --enable-metrics");
        assert_eq!(command_flags(&on, schema(), 0).values.get("--enable-metrics"), Some(&ShownValue::Switch(true)));
        assert_eq!(set(&on, "--enable-metrics", FlagValue::On), on);
        assert_eq!(set(&on, "--enable-metrics", FlagValue::Off), old);
    }

    #[test]
    fn boolean_optional_flags_negate() {
        let Some(action) = schema().actions.iter().find(|a| a.action == "BooleanOptionalAction") else { return };
        let main = main_option(action).to_string();
        let neg = negative_option(action);
        let old = format!("python -m sglang.launch_server --model-path m {main}");
        let off = set(&old, &main, FlagValue::Off);
        assert_eq!(off, format!("python -m sglang.launch_server --model-path m {neg}"));
        assert_eq!(command_flags(&off, schema(), 0).values.get(&main), Some(&ShownValue::Switch(false)));
        assert_eq!(set(&off, &main, FlagValue::On), old);
    }

    #[test]
    fn lists_take_one_word_per_value() {
        let Some(action) = schema().actions.iter().find(|a| takes_several_values(a) && a.choices.is_none()) else { return };
        let main = main_option(action).to_string();
        let old = "python -m sglang.launch_server --model-path m";
        let new = set(old, &main, text(" a  b c "));
        assert_eq!(new, format!("{old} {main} a b c"));
        assert_eq!(command_flags(&new, schema(), 0).values.get(&main), Some(&ShownValue::Text("a b c".into())));
        assert_eq!(set(&new, &main, text("d")), format!("{old} {main} d"));
        assert_eq!(set(&new, &main, text("  ")), old);
    }

    #[test]
    fn wrapped_docker_command_with_comments_keeps_every_other_byte() {
        let old = "# serve the model\nexport HF_TOKEN=abc  # secret\ndocker run --gpus all -e A=1 lmsysorg/sglang:latest \\\n    python3 -m sglang.launch_server \\\n    --model-path Qwen/Qwen2.5-7B \\\n    --tp 2 \\\n    --port 30000  # default port\necho started\n";
        // change a value
        let new = set(old, "--tp-size", text("4"));
        let at = old.find("--tp 2").unwrap() + "--tp ".len();
        only_changed(old, &new, at, at + 1);
        assert_eq!(&new[at..at + 1], "4");
        // add a flag: a new continuation line after the last word, same indent
        let new = set(old, "--enable-metrics", FlagValue::On);
        let end = old.find("30000").unwrap() + "30000".len();
        only_changed(old, &new, end, end);
        assert_eq!(&new[end..end + " \\\n    --enable-metrics".len()], " \\\n    --enable-metrics");
        // remove a flag: its line goes, nothing else
        let new = set(old, "--tp-size", FlagValue::Unset);
        let from = old.find(" \\\n    --tp 2").unwrap();
        only_changed(old, &new, from, from + " \\\n    --tp 2".len());
        assert_eq!(new.len(), old.len() - " \\\n    --tp 2".len());
    }

    #[test]
    fn two_command_paste_edits_only_the_chosen_command() {
        let old = "python -m sglang.launch_server --model-path a --tp-size 2 &\npython -m sglang.launch_server --model-path b --port 31000\n";
        let new = set_at(old, 1, "--tp-size", text("2"));
        let at = old.find("31000").unwrap() + "31000".len();
        only_changed(old, &new, at, at);
        assert_eq!(&new[at..at + " --tp-size 2".len()], " --tp-size 2");
        let new = set_at(old, 0, "--tp-size", text("8"));
        let at = old.find("2 &").unwrap();
        only_changed(old, &new, at, at + 1);
        assert_eq!(command_flags(old, schema(), 1).values.get("--port"), Some(&ShownValue::Text("31000".into())));
        assert_eq!(command_flags(old, schema(), 1).values.get("--tp-size"), None);
        assert!(matches!(set_flag(old, schema(), 2, "--tp-size", &text("1")), Err(EditError::NoSuchCommand(2))));
    }

    #[test]
    fn serve_entry_and_flag_missing_its_value() {
        let old = "sglang serve Qwen/Qwen2.5-7B --tp-size";
        assert_eq!(set(old, "--tp-size", text("2")), "sglang serve Qwen/Qwen2.5-7B --tp-size 2");
        let flags = command_flags(old, schema(), 0);
        assert_eq!(flags.entry, Some(Entry::Serve));
        assert_eq!(flags.values.get("--model-path"), Some(&ShownValue::Text("Qwen/Qwen2.5-7B".into())));
        assert_eq!(set(old, "--model-path", text("m2")), "sglang serve m2 --tp-size");
    }

    #[test]
    fn new_command_when_the_text_has_none() {
        assert_eq!(set("", "--model-path", text("m")), "python -m sglang.launch_server --model-path m");
        assert_eq!(set("# notes", "--model-path", text("m")), "# notes\npython -m sglang.launch_server --model-path m");
        assert_eq!(set("", "--model-path", FlagValue::Unset), "");
    }

    #[test]
    fn nested_bash_c_refuses_values_that_need_quotes() {
        let old = "bash -c \"python -m sglang.launch_server --model-path m\"";
        assert_eq!(set(old, "--tp-size", text("2")), "bash -c \"python -m sglang.launch_server --model-path m --tp-size 2\"");
        assert!(matches!(set_flag(old, schema(), 0, "--served-model-name", &text("a b")), Err(EditError::NeedsQuotingTwice)));
    }

    #[test]
    fn flags_before_a_double_dash() {
        let old = "python -m sglang.launch_server --model-path m -- x";
        assert_eq!(set(old, "--tp-size", text("2")), "python -m sglang.launch_server --model-path m --tp-size 2 -- x");
    }

    #[test]
    fn unknown_flags_are_refused() {
        assert!(matches!(set_flag("", schema(), 0, "--no-such-flag", &text("1")), Err(EditError::UnknownFlag(_))));
    }

    #[test]
    fn clear_keeps_the_launcher_and_the_rest() {
        let old = "export A=1\nnohup python -m sglang.launch_server --model-path m \\\n  --tp 2 > log.txt 2>&1 &\necho hi\n";
        let Some(out) = clear_flags(old, 0) else { panic!("has flags") };
        assert_eq!(out.text, "export A=1\nnohup python -m sglang.launch_server > log.txt 2>&1 &\necho hi\n");
        assert_eq!(clear_flags("echo hi", 0), None);
    }
}
