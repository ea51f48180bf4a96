//! CPython 3.11 `argparse` as SGLang configures it (`ArgumentParser(prog="sglang serve")`,
//! allow_abbrev on), replayed over the schema: same acceptance, same first error, same text.
//! Unlike argparse we keep going after an error, so every problem is reported.
//!
//! The replay follows `ArgumentParser._parse_known_args`: every word is first classified
//! (`_parse_optional`: exact option, `--opt=value`, unique prefix, ambiguous prefix — which
//! argparse reports at once —, negative-number-like or spaced words as arguments, `--`), then
//! options are consumed left to right (`_match_argument` over the `O`/`A`/`-` pattern,
//! `_get_values` / `_get_value` / `_check_value`, the action's `__call__`), then required
//! options are checked, then leftovers are reported as "unrecognized arguments".
//!
//! Codes (all stage `argparse`):
//! - `ARG001` ambiguous option (argparse raises it while scanning, before anything else)
//! - `ARG002` explicit argument given to an option that takes none (`--flag=true`)
//! - `ARG003` missing value(s): expected one / at least one / N argument(s)
//! - `ARG004` value conversion failed (`invalid int value: 'x'`, type-specific messages)
//! - `ARG005` invalid choice
//! - `ARG006` LoRA path JSON error (`JSONDecodeError` / `AssertionError` out of LoRAPathAction)
//! - `ARG007` required option missing (`--model-path`)
//! - `ARG008` unrecognized arguments (one error listing all of them, with did-you-mean fixes)
//! - `ARG009` deprecated flag (SGLang's own warning)
//! - `ARG010` the same option given twice: the last one wins (preflight warning)
//! - `ARG011` `-h/--help`: SGLang prints help and exits (info)

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity, Stage};
use crate::pyvalue::{str_repr, PyValue};
use crate::schema::{Action, Schema};
use crate::shell::Word;
use crate::span::Span;
use crate::suggest;
use std::collections::HashMap;

/// A value the command sets explicitly, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    pub value: PyValue,
    /// The option string as written (`--tp`), or the YAML key for config-file values.
    pub written_as: String,
    /// The canonical (first long) option string of the action (`--tp-size`).
    pub option: String,
    /// Span of the flag word (or the `--flag` part of `--flag=value`).
    pub flag_span: Span,
    /// Span of the value (word or `=value` part), if any.
    pub value_span: Option<Span>,
    /// Everything to delete to drop this setting from the command (flag and its values).
    pub whole_span: Span,
    /// True when it came from the `--config` YAML file, not the command line.
    pub from_config: bool,
}

/// Explicitly set values, by argparse `dest`. Defaults stay in the schema.
#[derive(Debug, Clone, Default)]
pub struct Namespace {
    pub explicit: HashMap<String, Setting>,
}

#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub namespace: Namespace,
    /// Errors (stage `argparse`, exception `SystemExit`; the first one is what argparse
    /// raises) and warnings (deprecated flags, repeated flags).
    pub diagnostics: Vec<Diagnostic>,
    /// `-h/--help` was given: SGLang prints its help and exits without starting.
    pub help: bool,
}

/// How a word was classified by `_parse_optional`.
#[derive(Debug, Clone)]
enum Class {
    /// An argument (`A` in argparse's pattern).
    Arg,
    /// `--`: everything after it is an argument.
    DashDash,
    /// An option; `action` is None for an unknown one.
    Opt { action: Option<usize>, option: String, explicit: Option<(String, usize)> },
}

fn option_name(a: &Action) -> String {
    a.option_strings.join("/")
}

fn nargs_of(a: &Action) -> Nargs {
    match &a.nargs {
        None | Some(serde_json::Value::Null) => Nargs::One,
        Some(serde_json::Value::Number(n)) => Nargs::Exact(n.as_u64().unwrap_or(0) as usize),
        Some(serde_json::Value::String(s)) => match s.as_str() {
            "?" => Nargs::Optional,
            "*" => Nargs::ZeroOrMore,
            "+" => Nargs::OneOrMore,
            _ => Nargs::One,
        },
        Some(_) => Nargs::One,
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Nargs {
    One,
    Optional,
    ZeroOrMore,
    OneOrMore,
    Exact(usize),
}

/// All option strings of the schema in argparse's registration order, with their action.
/// Borrowed from the schema, so nothing is allocated per call.
fn option_strings(schema: &Schema) -> impl Iterator<Item = (&str, usize)> {
    schema
        .actions
        .iter()
        .enumerate()
        .flat_map(|(i, a)| a.option_strings.iter().map(move |o| (o.as_str(), i)))
}

fn is_negative_number(s: &str) -> bool {
    // ^-\d+$|^-\d*\.\d+$
    let Some(rest) = s.strip_prefix('-') else { return false };
    let digits = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
    if digits(rest) {
        return true;
    }
    match rest.split_once('.') {
        Some((a, b)) => (a.is_empty() || a.chars().all(|c| c.is_ascii_digit())) && digits(b),
        None => false,
    }
}

struct Ctx<'a> {
    schema: &'a Schema,
    words: &'a [Word],
    parsed: Parsed,
    /// Dests already set by this parse, with the span of the setting (for repeat warnings).
    seen: Vec<usize>,
}

/// Parse `argv` (the words after the launcher, after the front end and `--config` merging).
pub fn parse_args(schema: &Schema, argv: &[Word]) -> Parsed {
    parse_args_with(schema, argv, &[])
}

/// Like [`parse_args`], with `from_config[i]` telling whether word `i` came from the
/// `--config` file (its settings get `from_config: true`).
pub fn parse_args_with(schema: &Schema, argv: &[Word], from_config: &[bool]) -> Parsed {
    let mut ctx = Ctx { schema, words: argv, parsed: Parsed::default(), seen: Vec::new() };
    // SGLang's launchers look for the exact words `-h`/`--help` before parsing.
    if let Some(w) = argv.iter().find(|w| w.text == "-h" || w.text == "--help") {
        ctx.help(w.span);
        return ctx.parsed;
    }
    // 1. classify every word (`_parse_optional`); ambiguity is raised right here.
    let mut classes: Vec<Class> = Vec::with_capacity(argv.len());
    let mut after_dd = false;
    for w in argv {
        if after_dd {
            classes.push(Class::Arg);
            continue;
        }
        if w.text == "--" {
            after_dd = true;
            classes.push(Class::DashDash);
            continue;
        }
        match parse_optional(schema, &w.text) {
            Parsed1::Arg => classes.push(Class::Arg),
            Parsed1::Opt(action, option, explicit) => classes.push(Class::Opt { action, option: option.to_string(), explicit }),
            Parsed1::Ambiguous(cands) => {
                ctx.ambiguous(w, &cands);
                classes.push(Class::Opt { action: None, option: "?".into(), explicit: None });
            }
        }
    }
    // 2. consume options left to right.
    let mut extras: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < argv.len() {
        let Some(class) = classes.get(i) else { break };
        match class {
            Class::Arg | Class::DashDash => {
                extras.push(i);
                i += 1;
            }
            Class::Opt { action: None, .. } => {
                extras.push(i);
                i += 1;
            }
            Class::Opt { action: Some(ai), option, explicit } => {
                let cfg = from_config.get(i).copied().unwrap_or(false);
                let (ai, option, explicit) = (*ai, option.clone(), explicit.clone());
                i = ctx.consume_optional(i, ai, &option, explicit, &classes, cfg);
                if ctx.parsed.help {
                    return ctx.parsed;
                }
            }
        }
    }
    // 3. required options.
    let missing: Vec<String> = schema
        .actions
        .iter()
        .enumerate()
        .filter(|(i, a)| a.required && !ctx.seen.contains(i))
        .map(|(_, a)| option_name(a))
        .collect();
    if !missing.is_empty() {
        let at = argv.last().map(|w| Span::empty_at(w.span.end)).unwrap_or_default();
        let mut d = Diagnostic::sglang_error(
            "ARG007",
            Stage::Argparse,
            "SystemExit",
            format!("the following arguments are required: {}", missing.join(", ")),
            at,
        )
        .with_explanation("SGLang needs to know which model to serve: pass `--model-path <hub id or local folder>`.");
        d.fixes.push(Fix {
            title: "Add --model-path".into(),
            applicability: Applicability::Display,
            edits: vec![Edit { start: at.start, end: at.end, replacement: " --model-path <MODEL>".into() }],
        });
        ctx.parsed.diagnostics.push(d);
    }
    // 4. unrecognized arguments.
    if !extras.is_empty() {
        ctx.unrecognized(&extras, &classes);
    }
    ctx.parsed
}

enum Parsed1<'s> {
    Arg,
    Opt(Option<usize>, &'s str, Option<(String, usize)>),
    Ambiguous(Vec<&'s str>),
}

fn parse_optional<'s>(schema: &'s Schema, arg: &str) -> Parsed1<'s> {
    if arg.is_empty() || !arg.starts_with('-') {
        return Parsed1::Arg;
    }
    if let Some((o, &i)) = schema.by_option.get_key_value(arg) {
        return Parsed1::Opt(Some(i), o.as_str(), None);
    }
    if arg.len() == 1 {
        return Parsed1::Arg;
    }
    if let Some((opt, val)) = arg.split_once('=') {
        if let Some((o, &i)) = schema.by_option.get_key_value(opt) {
            return Parsed1::Opt(Some(i), o.as_str(), Some((val.to_string(), opt.len() + 1)));
        }
    }
    // _get_option_tuples
    let mut tuples: Vec<(usize, &'s str, Option<(String, usize)>)> = Vec::new();
    if arg.starts_with("--") {
        if schema.allow_abbrev {
            let (prefix, explicit) = match arg.split_once('=') {
                Some((p, v)) => (p, Some((v.to_string(), p.len() + 1))),
                None => (arg, None),
            };
            for (o, i) in option_strings(schema) {
                if o.starts_with(prefix) {
                    tuples.push((i, o, explicit.clone()));
                }
            }
        }
    } else {
        let short = arg.get(..2).unwrap_or(arg);
        let short_explicit = arg.get(2..).unwrap_or("");
        for (o, i) in option_strings(schema) {
            if o == short {
                tuples.push((i, o, Some((short_explicit.to_string(), 2))));
            } else if o.starts_with(arg) {
                tuples.push((i, o, None));
            }
        }
    }
    if tuples.len() > 1 {
        return Parsed1::Ambiguous(tuples.into_iter().map(|t| t.1).collect());
    }
    if let Some((i, o, e)) = tuples.pop() {
        return Parsed1::Opt(Some(i), o, e);
    }
    if is_negative_number(arg) || arg.contains(' ') {
        return Parsed1::Arg;
    }
    Parsed1::Opt(None, "", None)
}

impl<'a> Ctx<'a> {
    fn error(&mut self, code: &str, exc: &str, msg: String, span: Span) -> &mut Diagnostic {
        self.parsed.diagnostics.push(Diagnostic::sglang_error(code, Stage::Argparse, exc, msg, span));
        let n = self.parsed.diagnostics.len();
        #[allow(clippy::indexing_slicing)]
        &mut self.parsed.diagnostics[n - 1]
    }

    fn ambiguous(&mut self, w: &Word, cands: &[&str]) {
        let flag_len = w.text.find('=').unwrap_or(w.text.len());
        let flag_span = w.sub_span(0, flag_len);
        let msg = format!("ambiguous option: {} could match {}", w.text, cands.join(", "));
        let d = self.error("ARG001", "SystemExit", msg, flag_span);
        d.explanation = "argparse accepts any unique prefix of a flag, but this prefix starts several flags, so SGLang cannot tell which one you mean. Write the full flag name.".into();
        for c in cands {
            d.fixes.push(Fix {
                title: format!("Use {c}"),
                applicability: Applicability::Unsafe,
                edits: vec![Edit { start: flag_span.start, end: flag_span.end, replacement: (*c).to_string() }],
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn consume_optional(
        &mut self,
        start: usize,
        ai: usize,
        option: &str,
        explicit: Option<(String, usize)>,
        classes: &[Class],
        from_config: bool,
    ) -> usize {
        let schema = self.schema;
        let Some(action) = schema.actions.get(ai) else { return start + 1 };
        let Some(word) = self.words.get(start) else { return start + 1 };
        let nargs = nargs_of(action);
        let opt_len = explicit.as_ref().map(|(_, off)| off.saturating_sub(1)).unwrap_or(word.text.len());
        let flag_span = word.sub_span(0, opt_len);
        let name = option_name(action);
        if let Some((value, off)) = explicit {
            let count = match nargs {
                Nargs::Exact(0) => 0,
                Nargs::Exact(1) | Nargs::One | Nargs::Optional | Nargs::ZeroOrMore | Nargs::OneOrMore => 1,
                Nargs::Exact(n) => {
                    let msg = format!("argument {name}: expected {n} arguments");
                    self.error("ARG003", "SystemExit", msg, flag_span);
                    return start + 1;
                }
            };
            let value_span = word.sub_span(off, word.text.len());
            if count == 0 {
                let single = option.as_bytes().get(1).is_some_and(|&c| c != b'-');
                if single && !value.is_empty() {
                    // -hX: more single-dash options in the tail; only -h exists.
                    if action.action == "_HelpAction" && value.chars().all(|c| c == 'h') {
                        self.help(word.span);
                        return start + 1;
                    }
                }
                let msg = format!("argument {name}: ignored explicit argument {}", str_repr(&value));
                let d = self.error("ARG002", "SystemExit", msg, value_span);
                d.explanation = format!("`{option}` is a switch: it takes no value. Give the flag alone to turn it on.");
                let eq_span = word.sub_span(off.saturating_sub(1), word.text.len());
                let lower = value.to_ascii_lowercase();
                if matches!(lower.as_str(), "true" | "1" | "yes" | "on") {
                    d.fixes.push(Fix {
                        title: format!("Write `{option}` alone"),
                        applicability: Applicability::Safe,
                        edits: vec![Edit { start: eq_span.start, end: eq_span.end, replacement: String::new() }],
                    });
                } else if matches!(lower.as_str(), "false" | "0" | "no" | "off") {
                    d.fixes.push(Fix {
                        title: format!("Drop `{}` (off is the default)", word.text),
                        applicability: Applicability::Safe,
                        edits: vec![Edit { start: word.span.start, end: word.span.end, replacement: String::new() }],
                    });
                }
                return start + 1;
            }
            let vals = vec![(value, value_span)];
            self.take_action(ai, option, flag_span, vals, word.span, from_config);
            return start + 1;
        }
        // Match following argument words.
        let mut n_args = 0usize;
        while let Some(Class::Arg) = classes.get(start + 1 + n_args) {
            n_args += 1;
        }
        let take = match nargs {
            Nargs::One => {
                if n_args >= 1 {
                    1
                } else {
                    self.missing_value(&name, "expected one argument", flag_span, word, action);
                    return start + 1;
                }
            }
            Nargs::Optional => n_args.min(1),
            Nargs::ZeroOrMore => n_args,
            Nargs::OneOrMore => {
                if n_args >= 1 {
                    n_args
                } else {
                    self.missing_value(&name, "expected at least one argument", flag_span, word, action);
                    return start + 1;
                }
            }
            Nargs::Exact(n) => {
                if n_args >= n {
                    n
                } else {
                    let msg = if n == 1 { "expected 1 argument".to_string() } else { format!("expected {n} arguments") };
                    self.missing_value(&name, &msg, flag_span, word, action);
                    return start + 1;
                }
            }
        };
        let vals: Vec<(String, Span)> = self
            .words
            .iter()
            .skip(start + 1)
            .take(take)
            .map(|w| (w.text.clone(), w.span))
            .collect();
        let whole = vals.last().map(|(_, s)| word.span.cover(*s)).unwrap_or(word.span);
        if action.action == "_HelpAction" {
            self.help(word.span);
            return start + 1;
        }
        self.take_action(ai, option, flag_span, vals, whole, from_config);
        start + 1 + take
    }

    fn help(&mut self, span: Span) {
        self.parsed.help = true;
        self.parsed.diagnostics.push(
            Diagnostic::preflight("ARG011", Severity::Info, Stage::Argparse, "-h/--help: SGLang prints its help text and exits without starting a server.", span)
                .with_explanation("With `-h`/`--help` on the command line nothing else is checked by SGLang."),
        );
    }

    fn missing_value(&mut self, name: &str, what: &str, flag_span: Span, word: &Word, action: &Action) {
        let msg = format!("argument {name}: {what}");
        let d = self.error("ARG003", "SystemExit", msg, flag_span);
        let metavar = action
            .choices
            .as_ref()
            .map(|c| c.iter().map(json_plain).collect::<Vec<_>>().join("|"))
            .unwrap_or_else(|| "<VALUE>".into());
        d.explanation = format!(
            "`{}` needs a value, but the next word is another flag or the end of the command. Words that start with `-` (other than negative numbers) are read as flags.",
            word.text
        );
        d.fixes.push(Fix {
            title: format!("Give `{}` a value", word.text),
            applicability: Applicability::Display,
            edits: vec![Edit { start: word.span.end, end: word.span.end, replacement: format!(" {metavar}") }],
        });
    }

    /// `take_action`: `_get_values`, then the action's `__call__`.
    fn take_action(&mut self, ai: usize, option: &str, flag_span: Span, vals: Vec<(String, Span)>, whole: Span, from_config: bool) {
        let schema = self.schema;
        let Some(action) = schema.actions.get(ai) else { return };
        let name = option_name(action);
        let nargs = nargs_of(action);
        let mut strings: Vec<(String, Span)> = vals;
        if let Some(p) = strings.iter().position(|(s, _)| s == "--") {
            strings.remove(p);
        }
        let value_span = match (strings.first(), strings.last()) {
            (Some(a), Some(b)) => Some(a.1.cover(b.1)),
            _ => None,
        };
        // _get_values
        let value: PyValue = if strings.is_empty() && nargs == Nargs::Optional {
            let c = PyValue::from_json(&action.r#const);
            match &c {
                PyValue::Str(s) => match self.convert(action, &name, s, flag_span) {
                    Some(v) => v,
                    None => return,
                },
                _ => c,
            }
        } else if strings.len() == 1 && matches!(nargs, Nargs::One | Nargs::Optional) {
            let Some((s, sp)) = strings.first() else { return };
            match self.convert(action, &name, s, *sp) {
                Some(v) => {
                    if !self.check_choice(action, &name, &v, *sp) {
                        return;
                    }
                    v
                }
                None => return,
            }
        } else if nargs == Nargs::Exact(0) {
            PyValue::List(Vec::new())
        } else {
            let mut out = Vec::with_capacity(strings.len());
            for (s, sp) in &strings {
                match self.convert(action, &name, s, *sp) {
                    Some(v) => out.push(v),
                    None => return,
                }
            }
            for (v, (_, sp)) in out.iter().zip(&strings) {
                if !self.check_choice(action, &name, v, *sp) {
                    return;
                }
            }
            PyValue::List(out)
        };
        // the action itself
        let stored = match action.action.as_str() {
            "_StoreTrueAction" => PyValue::Bool(true),
            "_StoreFalseAction" => PyValue::Bool(false),
            "_StoreConstAction" => PyValue::from_json(&action.r#const),
            "BooleanOptionalAction" => PyValue::Bool(!option.starts_with("--no-")),
            "DeprecatedStoreTrueAction" | "DeprecatedStoreConstAction" | "DeprecatedAliasStoreAction" | "DeprecatedAction" => {
                let new_flag = action.extra.as_ref().and_then(|e| e.get("new_flag")).and_then(|v| v.as_str());
                let replacement = new_flag.map(|f| format!(" Use '{f}' instead.")).unwrap_or_default();
                let msg = if action.action == "DeprecatedAction" {
                    format!("The command line argument '{option}' is deprecated and will be removed in future versions.")
                } else {
                    format!("'{option}' is deprecated and will be removed in a future release.{replacement}")
                };
                let mut d = Diagnostic::sglang_error("ARG009", Stage::Argparse, "", msg, flag_span);
                d.severity = Severity::Warning;
                d.exception = None;
                d.explanation = "This flag still works in this release but is scheduled for removal.".into();
                self.parsed.diagnostics.push(d);
                match action.action.as_str() {
                    "DeprecatedStoreTrueAction" => PyValue::Bool(true),
                    "DeprecatedStoreConstAction" => action
                        .extra
                        .as_ref()
                        .and_then(|e| e.get("const_value"))
                        .map(PyValue::from_json)
                        .unwrap_or(PyValue::None),
                    _ => value,
                }
            }
            "LoRAPathAction" => match self.lora_paths(value, value_span.unwrap_or(flag_span)) {
                Some(v) => v,
                None => return,
            },
            _ => value,
        };
        // record
        if self.seen.contains(&ai) || self.parsed.namespace.explicit.contains_key(&action.dest) {
            if let Some(prev) = self.parsed.namespace.explicit.get(&action.dest) {
                if !prev.from_config && !from_config {
                    let d = Diagnostic::preflight(
                        "ARG010",
                        Severity::Warning,
                        Stage::Argparse,
                        format!("`{}` is given more than once; the last value wins.", prev.written_as),
                        prev.whole_span,
                    )
                    .with_explanation("argparse keeps only the last occurrence of a repeated option; earlier ones are silently ignored.")
                    .with_fix(Fix {
                        title: "Remove the earlier occurrence".into(),
                        applicability: Applicability::Safe,
                        edits: vec![Edit { start: prev.whole_span.start, end: prev.whole_span.end, replacement: String::new() }],
                    });
                    self.parsed.diagnostics.push(d);
                }
            }
        }
        if !self.seen.contains(&ai) {
            self.seen.push(ai);
        }
        let canonical = action
            .option_strings
            .iter()
            .find(|o| o.starts_with("--"))
            .or(action.option_strings.first())
            .cloned()
            .unwrap_or_default();
        self.parsed.namespace.explicit.insert(
            action.dest.clone(),
            Setting {
                value: stored,
                written_as: option.to_string(),
                option: canonical,
                flag_span,
                value_span,
                whole_span: whole,
                from_config,
            },
        );
    }

    fn lora_paths(&mut self, value: PyValue, span: Span) -> Option<PyValue> {
        let PyValue::List(items) = value else { return Some(PyValue::List(Vec::new())) };
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            let PyValue::Str(s) = item else { continue };
            let t = py_strip(&s);
            if t.starts_with('{') && t.ends_with('}') {
                match pyjson::loads(t) {
                    Ok(obj) => {
                        let has = |k: &str| match &obj {
                            PyValue::Dict(d) => d.iter().any(|(kk, _)| kk == k),
                            PyValue::List(l) => l.iter().any(|v| v.as_str() == Some(k)),
                            PyValue::Str(x) => x.contains(k),
                            _ => false,
                        };
                        if !(has("lora_path") && has("lora_name")) {
                            let msg = format!(
                                "{} looks like a JSON str, but it does not contain 'lora_name' and 'lora_path' keys.",
                                str_repr(t)
                            );
                            self.error("ARG006", "AssertionError", msg, span).explanation =
                                "A `--lora-paths` entry written as JSON must be an object with both `lora_name` and `lora_path`.".into();
                            return None;
                        }
                        out.push(obj);
                    }
                    Err(e) => {
                        self.error("ARG006", "JSONDecodeError", e, span).explanation =
                            "A `--lora-paths` entry that starts with `{` and ends with `}` is read as JSON, and this one is not valid JSON.".into();
                        return None;
                    }
                }
            } else {
                out.push(PyValue::Str(t.to_string()));
            }
        }
        Some(PyValue::List(out))
    }

    fn check_choice(&mut self, action: &Action, name: &str, v: &PyValue, span: Span) -> bool {
        let Some(choices) = &action.choices else { return true };
        let cs: Vec<PyValue> = choices.iter().map(PyValue::from_json).collect();
        if cs.iter().any(|c| py_eq(c, v)) {
            return true;
        }
        let msg = format!(
            "argument {name}: invalid choice: {} (choose from {})",
            v.repr(),
            cs.iter().map(PyValue::repr).collect::<Vec<_>>().join(", ")
        );
        let d = self.error("ARG005", "SystemExit", msg, span);
        d.explanation = "This flag accepts only the listed values (exact spelling, case-sensitive).".into();
        if let PyValue::Str(s) = v {
            let names: Vec<String> = cs.iter().map(PyValue::py_str).collect();
            if let Some(best) = suggest::closest_choice(s, &names) {
                d.fixes.push(Fix {
                    title: format!("Use '{best}'"),
                    applicability: Applicability::Safe,
                    edits: vec![Edit { start: span.start, end: span.end, replacement: best }],
                });
            }
        }
        false
    }

    /// `_get_value`: the type callable.
    fn convert(&mut self, action: &Action, name: &str, s: &str, span: Span) -> Option<PyValue> {
        let ty = action.type_name.as_deref().unwrap_or("str");
        let short = ty.rsplit('.').next().unwrap_or(ty);
        let res: Result<PyValue, ConvErr> = match short {
            "int" => py_int(s).ok_or(ConvErr::Value),
            "float" => py_float(s).map(PyValue::Float).ok_or(ConvErr::Value),
            "loads" => pyjson::loads(s).map_err(|_| ConvErr::Value),
            "json_list_type" => serde_json::from_str::<serde_json::Value>(s)
                .map(|v| PyValue::from_json(&v))
                .map_err(|_| ConvErr::Type(format!("Invalid JSON list: {s}. Please provide a valid JSON list."))),
            "human_readable_int" => human_readable_int(s).map_err(ConvErr::Type),
            "nullable_str" => Ok(if s.is_empty() || s == "None" { PyValue::None } else { PyValue::Str(s.to_string()) }),
            "parse_cuda_graph_backend_arg" => {
                if s == "tc_piecewise" {
                    Err(ConvErr::Type("tc_piecewise was removed; select breakable, full, or disabled".into()))
                } else {
                    Ok(PyValue::Str(s.to_string()))
                }
            }
            "parse_cuda_graph_config_arg" => parse_cuda_graph_config(s).map_err(ConvErr::Type),
            _ => Ok(PyValue::Str(s.to_string())),
        };
        match res {
            Ok(v) => Some(v),
            Err(ConvErr::Value) => {
                let msg = format!("argument {name}: invalid {short} value: {}", str_repr(s));
                let d = self.error("ARG004", "SystemExit", msg, span);
                d.explanation = match short {
                    "int" => "This flag takes a whole number (Python `int()`: digits, optional sign and `_` separators).".into(),
                    "float" => "This flag takes a number (Python `float()`).".into(),
                    _ => "This flag takes a JSON value; check quotes (the shell removes one level) and brackets.".into(),
                };
                None
            }
            Err(ConvErr::Type(m)) => {
                self.error("ARG004", "SystemExit", format!("argument {name}: {m}"), span).explanation =
                    "SGLang's converter for this flag rejected the value.".into();
                None
            }
        }
    }

    fn unrecognized(&mut self, extras: &[usize], classes: &[Class]) {
        let words: Vec<&Word> = extras.iter().filter_map(|&i| self.words.get(i)).collect();
        let msg = format!("unrecognized arguments: {}", words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" "));
        let span = match (words.first(), words.last()) {
            (Some(a), Some(b)) => a.span.cover(b.span),
            _ => Span::default(),
        };
        let mut d = Diagnostic::sglang_error("ARG008", Stage::Argparse, "SystemExit", msg, span);
        let mut notes: Vec<String> = Vec::new();
        for &i in extras {
            let (Some(w), Some(Class::Opt { action: None, option, .. })) = (self.words.get(i), classes.get(i)) else {
                continue;
            };
            if !option.is_empty() {
                continue; // ambiguous, reported already
            }
            let flag_len = w.text.find('=').unwrap_or(w.text.len());
            let flag = w.text.get(..flag_len).unwrap_or(&w.text);
            let fspan = w.sub_span(0, flag_len);
            for s in suggest::suggest_flag(self.schema, flag) {
                if let Some(n) = &s.note {
                    notes.push(n.clone());
                }
                let edits = match &s.replacement {
                    Some(r) => vec![Edit { start: fspan.start, end: fspan.end, replacement: r.clone() }],
                    None => {
                        // drop the flag (and the value words that follow it)
                        let mut end = w.span;
                        let mut j = i + 1;
                        while let (Some(Class::Arg), Some(nw)) = (classes.get(j), self.words.get(j)) {
                            if s.drop_values == 0 || j > i + s.drop_values {
                                break;
                            }
                            end = end.cover(nw.span);
                            j += 1;
                        }
                        vec![Edit { start: end.start, end: end.end, replacement: String::new() }]
                    }
                };
                d.fixes.push(Fix {
                    title: s.title.clone(),
                    applicability: s.applicability,
                    edits,
                });
            }
        }
        let mut expl = String::from("argparse does not know these words: flags SGLang does not have (check the spelling: flags use `-`, not `_`), or values left over after a flag took what it accepts.");
        for n in notes {
            expl.push(' ');
            expl.push_str(&n);
        }
        d.explanation = expl;
        self.parsed.diagnostics.push(d);
    }
}

enum ConvErr {
    Value,
    Type(String),
}

fn json_plain(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn py_eq(a: &PyValue, b: &PyValue) -> bool {
    match (a, b) {
        (PyValue::Int(x), PyValue::Float(y)) | (PyValue::Float(y), PyValue::Int(x)) => (*x as f64) == *y,
        (PyValue::Bool(x), PyValue::Int(y)) | (PyValue::Int(y), PyValue::Bool(x)) => i64::from(*x) == *y,
        _ => a == b,
    }
}

/// Python `str.strip()` (whitespace).
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

/// Python `int(s)` for a str argument (base 10).
pub fn py_int(s: &str) -> Option<PyValue> {
    let t = py_strip(s);
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, t.get(1..)?),
        Some(b'+') => (false, t.get(1..)?),
        _ => (false, t),
    };
    if body.is_empty() || body.starts_with('_') || body.ends_with('_') || body.contains("__") {
        return None;
    }
    let mut digits = String::with_capacity(body.len());
    for c in body.chars() {
        if c == '_' {
            continue;
        }
        let d = c.to_digit(10)?;
        digits.push(char::from_digit(d, 10)?);
    }
    let trimmed = digits.trim_start_matches('0');
    let trimmed = if trimmed.is_empty() { "0" } else { trimmed };
    let text = if neg && trimmed != "0" { format!("-{trimmed}") } else { trimmed.to_string() };
    Some(match text.parse::<i64>() {
        Ok(i) => PyValue::Int(i),
        Err(_) => PyValue::BigInt(text),
    })
}

/// Python `float(s)` for a str argument.
pub fn py_float(s: &str) -> Option<f64> {
    let t = py_strip(s);
    let (sign, body) = match t.as_bytes().first() {
        Some(b'-') => (-1.0, t.get(1..)?),
        Some(b'+') => (1.0, t.get(1..)?),
        _ => (1.0, t),
    };
    let lower = body.to_ascii_lowercase();
    match lower.as_str() {
        "inf" | "infinity" => return Some(sign * f64::INFINITY),
        "nan" => return Some(f64::NAN),
        _ => {}
    }
    // digits with single underscores between digits; optional fraction and exponent
    let bytes = body.as_bytes();
    let mut clean = String::with_capacity(body.len());
    let mut prev_digit = false;
    let mut seen_digit = false;
    let mut i = 0;
    let mut state = 0; // 0 int, 1 frac, 2 exp-sign, 3 exp
    while let Some(&c) = bytes.get(i) {
        match c {
            b'0'..=b'9' => {
                clean.push(c as char);
                prev_digit = true;
                seen_digit = true;
                if state == 2 {
                    state = 3;
                }
            }
            b'_' => {
                if !prev_digit || !bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    return None;
                }
                prev_digit = false;
            }
            b'.' if state == 0 => {
                clean.push('.');
                state = 1;
                prev_digit = false;
            }
            b'e' | b'E' if state <= 1 && seen_digit => {
                clean.push('e');
                state = 2;
                prev_digit = false;
                if let Some(&sg) = bytes.get(i + 1) {
                    if sg == b'+' || sg == b'-' {
                        clean.push(sg as char);
                        i += 1;
                    }
                }
            }
            _ => return None,
        }
        i += 1;
    }
    if !seen_digit || state == 2 || clean.ends_with('e') || clean.ends_with('+') || clean.ends_with('-') {
        return None;
    }
    clean.parse::<f64>().ok().map(|f| sign * f)
}

fn human_readable_int(value: &str) -> Result<PyValue, String> {
    let v = py_strip(value);
    let suffixes: [(&str, u32, bool); 8] =
        [("Ki", 10, true), ("Mi", 20, true), ("Gi", 30, true), ("Ti", 40, true), ("k", 3, false), ("M", 6, false), ("G", 9, false), ("T", 12, false)];
    for (suf, exp, iec) in suffixes {
        let Some(number) = v.strip_suffix(suf) else { continue };
        let (ip, fp) = match number.split_once('.') {
            Some((a, b)) => (a, Some(b)),
            None => (number, None),
        };
        let dig = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
        if !dig(ip) || fp.is_some_and(|f| !dig(f)) {
            continue;
        }
        if iec {
            if fp.is_some() {
                let int_part = ip.trim_start_matches('0');
                let int_part = if int_part.is_empty() { "0" } else { int_part };
                return Err(format!(
                    "Decimals are not allowed with IEC suffixes like '{suf}'. Use an integer IEC value such as '{int_part}{suf}', or an SI value such as '{number}{}'.",
                    suf.get(..1).unwrap_or("")
                ));
            }
            let n: i128 = ip.parse().map_err(|_| String::new())?;
            let r = n.checked_mul(1i128 << exp).unwrap_or(i128::MAX);
            return Ok(i64::try_from(r).map(PyValue::Int).unwrap_or_else(|_| PyValue::BigInt(r.to_string())));
        }
        // Decimal(number) * 10**exp, truncated toward zero
        let frac = fp.unwrap_or("");
        let mut digits = String::from(ip);
        let e = exp as usize;
        if frac.len() >= e {
            digits.push_str(frac.get(..e).unwrap_or(""));
        } else {
            digits.push_str(frac);
            digits.push_str(&"0".repeat(e - frac.len()));
        }
        return py_int(&digits).ok_or_else(String::new);
    }
    py_int(v).ok_or_else(|| {
        format!(
            "Invalid integer value: '{v}'. Use a plain integer, SI suffixes (1k, 1M), or IEC suffixes (1Ki, 1Mi). Suffixes are case-sensitive."
        )
    })
}

fn py_type_name(v: &PyValue) -> &'static str {
    match v {
        PyValue::None => "NoneType",
        PyValue::Bool(_) => "bool",
        PyValue::Int(_) | PyValue::BigInt(_) => "int",
        PyValue::Float(_) => "float",
        PyValue::Str(_) => "str",
        PyValue::List(_) => "list",
        PyValue::Dict(_) => "dict",
    }
}

fn parse_cuda_graph_config(raw: &str) -> Result<PyValue, String> {
    let parsed = pyjson::loads(raw).map_err(|e| format!("--cuda-graph-config must be JSON: {e}"))?;
    let PyValue::Dict(items) = parsed else {
        return Err(format!("--cuda-graph-config must be a JSON object, got {}", py_type_name(&parsed)));
    };
    let mut out: Vec<(String, PyValue)> = Vec::new();
    for (phase, settings) in items {
        let allowed: &[&str] = match phase.as_str() {
            "decode" => &["backend", "max_bs", "bs"],
            "prefill" => &["backend", "max_bs", "bs", "max_context_size", "full_prefill_max_req", "full_prefill_prefix_chunk_tokens", "max_seq_len"],
            _ => return Err(format!("--cuda-graph-config: unknown phase '{phase}', expected one of ('decode', 'prefill')")),
        };
        let PyValue::Dict(kv) = settings else {
            return Err(format!("--cuda-graph-config['{phase}'] must be a JSON object, got {}", py_type_name(&settings)));
        };
        if kv.iter().any(|(k, v)| k == "backend" && v.as_str() == Some("tc_piecewise")) {
            return Err("tc_piecewise was removed; select breakable, full, or disabled".into());
        }
        let mut res: Vec<(String, PyValue)> = Vec::new();
        for (k, v) in kv {
            if !allowed.contains(&k.as_str()) {
                let tuple = format!("({})", allowed.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(", "));
                return Err(format!("--cuda-graph-config['{phase}']: unknown key '{k}', expected one of {tuple}"));
            }
            dict_set(&mut res, k, v);
        }
        dict_set(&mut out, phase, PyValue::Dict(res));
    }
    Ok(PyValue::Dict(out))
}

fn dict_set(d: &mut Vec<(String, PyValue)>, k: String, v: PyValue) {
    if let Some(slot) = d.iter_mut().find(|(kk, _)| *kk == k) {
        slot.1 = v;
    } else {
        d.push((k, v));
    }
}

/// Python's `json.loads` (the C scanner of CPython 3.11), with its exact error messages.
pub mod pyjson {
    use crate::pyvalue::PyValue;

    struct P<'a> {
        s: &'a [char],
    }

    fn err_at(chars: &[char], msg: &str, pos: usize) -> String {
        let before = chars.get(..pos).unwrap_or(chars);
        let lineno = before.iter().filter(|&&c| c == '\n').count() + 1;
        let colno = match before.iter().rposition(|&c| c == '\n') {
            Some(nl) => pos - nl,
            None => pos + 1,
        };
        format!("{msg}: line {lineno} column {colno} (char {pos})")
    }

    /// Parse `text` like `json.loads`; the error is `str(JSONDecodeError)`.
    pub fn loads(text: &str) -> Result<PyValue, String> {
        let chars: Vec<char> = text.chars().collect();
        if chars.first() == Some(&'\u{feff}') {
            return Err(err_at(&chars, "Unexpected UTF-8 BOM (decode using utf-8-sig)", 0));
        }
        let p = P { s: &chars };
        let start = p.ws(0);
        let (v, end) = p.value(start, 0).map_err(|(m, pos)| err_at(&chars, &m, pos))?;
        let end = p.ws(end);
        if end != chars.len() {
            return Err(err_at(&chars, "Extra data", end));
        }
        Ok(v)
    }

    type R<T> = Result<T, (String, usize)>;

    impl<'a> P<'a> {
        fn at(&self, i: usize) -> Option<char> {
            self.s.get(i).copied()
        }
        fn ws(&self, mut i: usize) -> usize {
            while matches!(self.at(i), Some(' ' | '\t' | '\n' | '\r')) {
                i += 1;
            }
            i
        }
        fn starts(&self, i: usize, lit: &str) -> bool {
            lit.chars().enumerate().all(|(k, c)| self.at(i + k) == Some(c))
        }
        fn value(&self, i: usize, depth: usize) -> R<(PyValue, usize)> {
            if depth > 900 {
                return Err(("maximum recursion depth exceeded".into(), i));
            }
            match self.at(i) {
                Some('"') => self.string(i + 1).map(|(s, e)| (PyValue::Str(s), e)),
                Some('{') => self.object(i + 1, depth),
                Some('[') => self.array(i + 1, depth),
                Some('n') if self.starts(i, "null") => Ok((PyValue::None, i + 4)),
                Some('t') if self.starts(i, "true") => Ok((PyValue::Bool(true), i + 4)),
                Some('f') if self.starts(i, "false") => Ok((PyValue::Bool(false), i + 5)),
                Some('N') if self.starts(i, "NaN") => Ok((PyValue::Float(f64::NAN), i + 3)),
                Some('I') if self.starts(i, "Infinity") => Ok((PyValue::Float(f64::INFINITY), i + 8)),
                Some('-') if self.starts(i, "-Infinity") => Ok((PyValue::Float(f64::NEG_INFINITY), i + 9)),
                Some(c) if c == '-' || c.is_ascii_digit() => self.number(i),
                _ => Err(("Expecting value".into(), i)),
            }
        }
        fn number(&self, start: usize) -> R<(PyValue, usize)> {
            let mut i = start;
            if self.at(i) == Some('-') {
                i += 1;
            }
            match self.at(i) {
                Some('0') => i += 1,
                Some(c) if c.is_ascii_digit() => {
                    while self.at(i).is_some_and(|c| c.is_ascii_digit()) {
                        i += 1;
                    }
                }
                _ => return Err(("Expecting value".into(), start)),
            }
            let mut is_float = false;
            if self.at(i) == Some('.') && self.at(i + 1).is_some_and(|c| c.is_ascii_digit()) {
                is_float = true;
                i += 1;
                while self.at(i).is_some_and(|c| c.is_ascii_digit()) {
                    i += 1;
                }
            }
            if matches!(self.at(i), Some('e' | 'E')) {
                let mut j = i + 1;
                if matches!(self.at(j), Some('+' | '-')) {
                    j += 1;
                }
                if self.at(j).is_some_and(|c| c.is_ascii_digit()) {
                    while self.at(j).is_some_and(|c| c.is_ascii_digit()) {
                        j += 1;
                    }
                    is_float = true;
                    i = j;
                }
            }
            let text: String = self.s.get(start..i).unwrap_or(&[]).iter().collect();
            if is_float {
                Ok((PyValue::Float(text.parse().unwrap_or(f64::NAN)), i))
            } else {
                Ok((text.parse::<i64>().map(PyValue::Int).unwrap_or(PyValue::BigInt(text)), i))
            }
        }
        fn string(&self, start: usize) -> R<(String, usize)> {
            let mut out = String::new();
            let mut i = start;
            loop {
                let Some(c) = self.at(i) else {
                    return Err(("Unterminated string starting at".into(), start - 1));
                };
                match c {
                    '"' => return Ok((out, i + 1)),
                    '\\' => {
                        let Some(e) = self.at(i + 1) else {
                            return Err(("Unterminated string starting at".into(), start - 1));
                        };
                        match e {
                            '"' => out.push('"'),
                            '\\' => out.push('\\'),
                            '/' => out.push('/'),
                            'b' => out.push('\u{8}'),
                            'f' => out.push('\u{c}'),
                            'n' => out.push('\n'),
                            'r' => out.push('\r'),
                            't' => out.push('\t'),
                            'u' => {
                                let hex: String = self.s.get(i + 2..i + 6).unwrap_or(&[]).iter().collect();
                                let Some(mut cp) = (hex.len() == 4).then(|| u32::from_str_radix(&hex, 16).ok()).flatten() else {
                                    return Err(("Invalid \\uXXXX escape".into(), i + 1));
                                };
                                i += 4;
                                if (0xd800..0xdc00).contains(&cp) && self.at(i + 2) == Some('\\') && self.at(i + 3) == Some('u') {
                                    let hex2: String = self.s.get(i + 4..i + 8).unwrap_or(&[]).iter().collect();
                                    if let Some(lo) = (hex2.len() == 4).then(|| u32::from_str_radix(&hex2, 16).ok()).flatten() {
                                        if (0xdc00..0xe000).contains(&lo) {
                                            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                                            i += 6;
                                        }
                                    }
                                }
                                out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                            }
                            _ => return Err(("Invalid \\escape".into(), i)),
                        }
                        i += 2;
                    }
                    c if (c as u32) < 0x20 => return Err(("Invalid control character at".into(), i)),
                    c => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
        }
        fn object(&self, start: usize, depth: usize) -> R<(PyValue, usize)> {
            let mut items: Vec<(String, PyValue)> = Vec::new();
            let mut i = self.ws(start);
            if self.at(i) == Some('}') {
                return Ok((PyValue::Dict(items), i + 1));
            }
            loop {
                if self.at(i) != Some('"') {
                    return Err(("Expecting property name enclosed in double quotes".into(), i));
                }
                let (k, e) = self.string(i + 1)?;
                i = self.ws(e);
                if self.at(i) != Some(':') {
                    return Err(("Expecting ':' delimiter".into(), i));
                }
                i = self.ws(i + 1);
                let (v, e) = self.value(i, depth + 1)?;
                super::dict_set(&mut items, k, v);
                i = self.ws(e);
                match self.at(i) {
                    Some('}') => return Ok((PyValue::Dict(items), i + 1)),
                    Some(',') => {
                        i = self.ws(i + 1);
                    }
                    _ => return Err(("Expecting ',' delimiter".into(), i)),
                }
            }
        }
        fn array(&self, start: usize, depth: usize) -> R<(PyValue, usize)> {
            let mut items = Vec::new();
            let mut i = self.ws(start);
            if self.at(i) == Some(']') {
                return Ok((PyValue::List(items), i + 1));
            }
            loop {
                let (v, e) = self.value(i, depth + 1)?;
                items.push(v);
                i = self.ws(e);
                match self.at(i) {
                    Some(']') => return Ok((PyValue::List(items), i + 1)),
                    Some(',') => i = self.ws(i + 1),
                    _ => return Err(("Expecting ',' delimiter".into(), i)),
                }
            }
        }
    }
}
