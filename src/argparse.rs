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
//! - `ARG012` `--log-level` that is not a logging level (`AttributeError` from
//!   `prepare_server_args`, right after parsing)
//! - `ARG013` one of several unrecognized arguments (preflight): each unknown flag (with the
//!   leftover values after it) gets its own finding and its own fixes; `ARG008` keeps SGLang's
//!   one message listing them all

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity, Stage};
use crate::fields::Field;
use crate::pyvalue::{str_repr, PyValue};
use crate::schema::{Action, Schema};
use crate::shell::Word;
use crate::span::Span;
use crate::suggest;

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
    /// The value is not known here: its words expand a variable unknown by design
    /// (`CheckOptions::unknown_variables`). `value` is then a stand-in (see `unknown_value`).
    pub value_unknown: bool,
    /// The `ServerArgs` field the action's dest is (None: no field of that name), found once
    /// with the schema: each check looks its settings up by field.
    pub field: Option<Field>,
}

/// Explicitly set values, by argparse `dest`. Defaults stay in the schema.
#[derive(Debug, Clone, Default)]
pub struct Namespace {
    /// (Fx-hashed: rules look fields up by name hundreds of times per command.)
    pub explicit: rustc_hash::FxHashMap<String, Setting>,
}

#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub namespace: Namespace,
    /// Errors (stage `argparse`, exception `SystemExit`; the first one is what argparse
    /// raises) and warnings (deprecated flags, repeated flags).
    pub diagnostics: Vec<Diagnostic>,
    /// `-h/--help` was given: SGLang prints its help and exits without starting.
    pub help: bool,
    /// Every option the parse consumed, in order, including repeats and ones whose value was
    /// rejected (the namespace keeps only the last valid one). For editing the command text.
    pub occurrences: Vec<Occurrence>,
}

/// One option as it appears in argv: which action, and which words it consumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// Index of the action in the schema.
    pub action: usize,
    /// The option string it resolved to (`--tp-size` for `--tp`, `--no-x` for a negation).
    pub option: String,
    /// argv indexes of the flag word and the values it took (`first..end`).
    pub words: std::ops::Range<usize>,
    /// The flag word and its values in the text.
    pub whole_span: Span,
    /// True when it came from the `--config` YAML file.
    pub from_config: bool,
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

/// argparse's name of an option in its messages (`--tp-size/--tensor-parallel-size`), written
/// only when a message is (most options never need it).
struct OptionName<'a>(&'a [String]);

impl std::fmt::Display for OptionName<'_> {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, o) in self.0.iter().enumerate() {
            if i > 0 {
                out.write_str("/")?;
            }
            out.write_str(o)?;
        }
        Ok(())
    }
}

fn option_name(a: &Action) -> OptionName<'_> {
    OptionName(&a.option_strings)
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

/// Lookup tables computed once per schema version: option strings sorted for prefix search
/// (with their registration order, which argparse lists ambiguous matches in), and the
/// required actions.
struct Tables {
    version: String,
    /// (option string, registration position, action index), sorted by option string
    sorted: Vec<(String, usize, usize)>,
    required: Vec<usize>,
}

impl Tables {
    fn build(schema: &Schema) -> Tables {
        let mut sorted: Vec<(String, usize, usize)> = schema
            .actions
            .iter()
            .enumerate()
            .flat_map(|(i, a)| a.option_strings.iter().map(move |o| (o.clone(), i)))
            .enumerate()
            .map(|(pos, (o, i))| (o, pos, i))
            .collect();
        crate::sorting::sort(&mut sorted);
        let required = schema.actions.iter().enumerate().filter(|(_, a)| a.required).map(|(i, _)| i).collect();
        Tables { version: schema.sglang_version.clone(), sorted, required }
    }

    /// Option strings starting with `prefix`, in registration order.
    fn with_prefix<'t>(&'t self, prefix: &str) -> Vec<(&'t str, usize)> {
        let start = self.sorted.partition_point(|(o, _, _)| o.as_str() < prefix);
        let mut hits: Vec<(usize, &'t str, usize)> = self
            .sorted
            .iter()
            .skip(start)
            .take_while(|(o, _, _)| o.starts_with(prefix))
            .map(|(o, pos, i)| (*pos, o.as_str(), *i))
            .collect();
        crate::sorting::sort(&mut hits);
        hits.into_iter().map(|(_, o, i)| (o, i)).collect()
    }
}

fn tables(schema: &Schema) -> std::borrow::Cow<'static, Tables> {
    static DEFAULT: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    let t = DEFAULT.get_or_init(|| match crate::schema::get(crate::schema::DEFAULT_VERSION) {
        Some(s) => Tables::build(s),
        None => Tables::build(schema),
    });
    if t.version == schema.sglang_version && t.sorted.len() == schema.by_option.len() {
        std::borrow::Cow::Borrowed(t)
    } else {
        std::borrow::Cow::Owned(Tables::build(schema))
    }
}

impl Clone for Tables {
    fn clone(&self) -> Self {
        Tables { version: self.version.clone(), sorted: self.sorted.clone(), required: self.required.clone() }
    }
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
    /// `unknown_words[i]`: word `i`'s value is unknown here (empty: none is).
    unknown_words: &'a [bool],
    parsed: Parsed,
    /// Dests already set by this parse, with the span of the setting (for repeat warnings).
    seen: Vec<usize>,
    /// The option being taken now, flag and values (for fixes that remove it).
    occurrence: Span,
}

/// Parse `argv` (the words after the launcher, after the front end and `--config` merging).
pub fn parse_args(schema: &Schema, argv: &[Word]) -> Parsed {
    parse_args_with(schema, argv, &[])
}

/// Like [`parse_args`], with `from_config[i]` telling whether word `i` came from the
/// `--config` file (its settings get `from_config: true`).
/// How many unknown flags get did-you-mean fixes in one command.
const MAX_SUGGESTED_FLAGS: usize = 64;

pub fn parse_args_with(schema: &Schema, argv: &[Word], from_config: &[bool]) -> Parsed {
    parse_args_unknown(schema, argv, from_config, &[])
}

/// Like [`parse_args_with`], with `unknown_words[i]` telling whether word `i` expands a value
/// unknown here (a template): the option it is the value of is not judged (no `ARG004` /
/// `ARG005`); its setting is marked [`Setting::value_unknown`].
pub fn parse_args_unknown(schema: &Schema, argv: &[Word], from_config: &[bool], unknown_words: &[bool]) -> Parsed {
    let mut parsed = Parsed::default();
    // at most one setting per word: no rehashing as the options are stored
    parsed.namespace.explicit.reserve(argv.len());
    let mut ctx = Ctx { schema, words: argv, unknown_words, parsed, seen: Vec::new(), occurrence: Span::default() };
    // SGLang's launchers look for the exact words `-h`/`--help` before parsing.
    if let Some(w) = argv.iter().find(|w| w.text == "-h" || w.text == "--help") {
        ctx.help(w.span);
        return ctx.parsed;
    }
    let tabs = tables(schema);
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
        match parse_optional(schema, &tabs, &w.text) {
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
            Class::Opt { action: None, option, .. } => {
                if option == "?" {
                    // ambiguous (already reported): argparse stops there; skip its values
                    i += 1;
                    while let Some(Class::Arg) = classes.get(i) {
                        i += 1;
                    }
                    continue;
                }
                extras.push(i);
                i += 1;
            }
            Class::Opt { action: Some(ai), option, explicit } => {
                let cfg = from_config.get(i).copied().unwrap_or(false);
                let (ai, option, explicit) = (*ai, option.clone(), explicit.clone());
                let first = i;
                i = ctx.consume_optional(i, ai, &option, explicit, &classes, cfg);
                let end = i.max(first + 1);
                let whole_span = match (argv.get(first), argv.get(end - 1)) {
                    (Some(a), Some(b)) => a.span.cover(b.span),
                    _ => Span::default(),
                };
                ctx.parsed.occurrences.push(Occurrence { action: ai, option, words: first..end, whole_span, from_config: cfg });
                if ctx.parsed.help {
                    return ctx.parsed;
                }
            }
        }
    }
    // 3. required options.
    let missing: Vec<String> = tabs
        .required
        .iter()
        .filter(|i| !ctx.seen.contains(i))
        .filter_map(|&i| schema.actions.get(i))
        .map(|a| option_name(a).to_string())
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
        // a misspelt required flag among the unrecognized words (`--model_path X`): respell it
        let required: Vec<&str> = tabs
            .required
            .iter()
            .filter(|i| !ctx.seen.contains(i))
            .filter_map(|&i| schema.actions.get(i))
            .flat_map(|a| a.option_strings.iter().map(String::as_str))
            .collect();
        for &i in &extras {
            let (Some(w), Some(Class::Opt { action: None, option, .. })) = (argv.get(i), classes.get(i)) else { continue };
            if !option.is_empty() {
                continue;
            }
            let flag_len = w.text.find('=').unwrap_or(w.text.len());
            let flag = w.text.get(..flag_len).unwrap_or(&w.text);
            let respelt = suggest::suggest_flag(schema, flag)
                .into_iter()
                .find(|s| s.applicability != Applicability::Display && s.replacement.as_deref().is_some_and(|r| required.contains(&r)));
            if let Some(r) = respelt.and_then(|s| s.replacement) {
                let fspan = w.sub_span(0, flag_len);
                d.fixes.push(Fix {
                    title: format!("Write `{flag}` as `{r}`"),
                    applicability: Applicability::Safe,
                    edits: vec![Edit { start: fspan.start, end: fspan.end, replacement: r }],
                });
                break;
            }
        }
        // advice only: there is no value we could fill in
        d.fixes.push(Fix { title: "Add `--model-path <MODEL>`".into(), applicability: Applicability::Display, edits: Vec::new() });
        ctx.parsed.diagnostics.push(d);
    }
    // 4. unrecognized arguments.
    if !extras.is_empty() {
        ctx.unrecognized(&extras, &classes);
    }
    // Fixes must not edit the `--config FILE` words on behalf of a value inside the file.
    let config_spans: Vec<Span> =
        argv.iter().zip(from_config).filter(|(_, &c)| c).map(|(w, _)| w.span).collect();
    if !config_spans.is_empty() {
        for d in &mut ctx.parsed.diagnostics {
            for f in &mut d.fixes {
                // touching counts: an empty edit at a config word's end (its words share the `--config FILE` span)
                let hits = f.edits.iter().any(|e| config_spans.iter().any(|s| e.start <= s.end && s.start <= e.end));
                if hits {
                    f.edits.clear();
                    f.applicability = Applicability::Display;
                    f.title = format!("In the config file: {}", f.title);
                }
            }
        }
    }
    // 5. prepare_server_args: logging.basicConfig(level=getattr(logging, log_level.upper()))
    if let Some(setting) = ctx.parsed.namespace.explicit.get("log_level").filter(|s| !s.value_unknown) {
        if let PyValue::Str(level) = &setting.value {
            let up = level.to_uppercase();
            if !matches!(up.as_str(), "CRITICAL" | "FATAL" | "ERROR" | "WARN" | "WARNING" | "INFO" | "DEBUG" | "NOTSET") {
                let span = setting.value_span.unwrap_or(setting.flag_span);
                let mut d = Diagnostic::sglang_error(
                    "ARG012",
                    Stage::Argparse,
                    "AttributeError",
                    format!("module 'logging' has no attribute '{up}'"),
                    span,
                )
                .with_explanation("`--log-level` must name a Python logging level: debug, info, warning, error or critical.");
                if let Some(best) = suggest::closest_choice(level, &["debug".into(), "info".into(), "warning".into(), "error".into(), "critical".into()]) {
                    d.fixes.push(Fix { title: format!("Use {best}"), applicability: Applicability::Safe, edits: vec![Edit { start: span.start, end: span.end, replacement: best }] });
                } else {
                    // other loggers' names for Python's levels; else SGLang's default
                    let (best, applicability) = match up.as_str() {
                        "VERBOSE" | "TRACE" | "ALL" | "DBG" => ("debug", Applicability::Safe),
                        "ERR" => ("error", Applicability::Safe),
                        "CRIT" | "PANIC" => ("critical", Applicability::Safe),
                        "NOTICE" => ("info", Applicability::Safe),
                        _ => ("info", Applicability::Unsafe),
                    };
                    d.fixes.push(Fix { title: format!("Use {best}"), applicability, edits: vec![Edit { start: span.start, end: span.end, replacement: best.to_string() }] });
                }
                ctx.parsed.diagnostics.push(d);
            }
        }
    }
    ctx.parsed
}

/// (action index, option string, explicit `=value` and its offset in the word)
type OptionTuple<'s> = (usize, &'s str, Option<(String, usize)>);

enum Parsed1<'s> {
    Arg,
    Opt(Option<usize>, &'s str, Option<(String, usize)>),
    Ambiguous(Vec<&'s str>),
}

fn parse_optional<'s>(schema: &'s Schema, tabs: &Tables, arg: &str) -> Parsed1<'s> {
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
    let mut tuples: Vec<OptionTuple<'s>> = Vec::new();
    if arg.starts_with("--") {
        if schema.allow_abbrev {
            let (prefix, explicit) = match arg.split_once('=') {
                Some((p, v)) => (p, Some((v.to_string(), p.len() + 1))),
                None => (arg, None),
            };
            for (o, i) in tabs.with_prefix(prefix) {
                if let Some((k, _)) = schema.by_option.get_key_value(o) {
                    tuples.push((i, k.as_str(), explicit.clone()));
                }
            }
        }
    } else {
        let short = arg.get(..2).unwrap_or(arg);
        let short_explicit = arg.get(2..).unwrap_or("");
        let mut hits = tabs.with_prefix(short);
        hits.retain(|(o, _)| *o == short || o.starts_with(arg));
        for (o, i) in hits {
            let Some((k, _)) = schema.by_option.get_key_value(o) else { continue };
            if o == short {
                tuples.push((i, k.as_str(), Some((short_explicit.to_string(), 2))));
            } else {
                tuples.push((i, k.as_str(), None));
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

    /// Fix: the flag's default in place of a value SGLang rejected, when the default is a value
    /// the flag can take (`valid`). Unsafe: the default is SGLang's choice, not the user's.
    fn default_fix(&self, action: &Action, span: Span, valid: impl Fn(&PyValue, &str) -> bool) -> Option<Fix> {
        let default = self.schema.defaults.get(&action.dest)?;
        if matches!(default, PyValue::None | PyValue::List(_)) {
            return None;
        }
        let text = default.py_str();
        if !valid(default, &text) {
            return None;
        }
        let flag = crate::flag_edit::main_option(action);
        Some(Fix {
            title: format!("Use {flag}'s default {}", crate::shell::quote_word(&text)),
            applicability: Applicability::Unsafe,
            edits: vec![Edit { start: span.start, end: span.end, replacement: crate::shell::quote_word(&text) }],
        })
    }

    /// Fix: remove the option being taken (flag and values) so SGLang uses its default; none
    /// for a required option (it has no default).
    fn remove_occurrence_fix(&self, action: &Action) -> Option<Fix> {
        let whole = self.occurrence;
        if action.required || whole.is_empty() {
            return None;
        }
        Some(Fix {
            title: format!("Remove {} (SGLang uses its default)", crate::flag_edit::main_option(action)),
            applicability: Applicability::Unsafe,
            edits: vec![Edit { start: whole.start, end: whole.end, replacement: String::new() }],
        })
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
                if action.action == "_HelpAction" {
                    // `--help=x`: the word asks for the help text, not a server
                    d.explanation = format!("`{option}` takes no value; alone it prints SGLang's help and exits without starting.");
                    d.fixes.push(Fix {
                        title: format!("Remove `{}`", word.text),
                        applicability: Applicability::Unsafe,
                        edits: vec![Edit { start: word.span.start, end: word.span.end, replacement: String::new() }],
                    });
                    return start + 1;
                }
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
                } else if value.is_empty() && action.action != "_HelpAction" {
                    // `--flag=` (often `--flag=$VAR` with VAR unset): on or off is the user's call
                    d.fixes.push(Fix {
                        title: format!("Drop `{}` (leave the switch off)", word.text),
                        applicability: Applicability::Unsafe,
                        edits: vec![Edit { start: word.span.start, end: word.span.end, replacement: String::new() }],
                    });
                    d.fixes.push(Fix {
                        title: format!("Write `{option}` alone (turn it on)"),
                        applicability: Applicability::Unsafe,
                        edits: vec![Edit { start: eq_span.start, end: eq_span.end, replacement: String::new() }],
                    });
                }
                return start + 1;
            }
            let vals = vec![(value, value_span)];
            let written = word.text.split('=').next().unwrap_or(&word.text).to_string();
            let unknown = self.unknown_words.get(start).copied().unwrap_or(false);
            self.take_action(ai, option, &written, flag_span, vals, word.span, from_config, unknown);
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
                    // `--model-path -name`: a value starting with `-` read as an unknown flag
                    let unknown_next = matches!(classes.get(start + 1), Some(Class::Opt { action: None, option, .. }) if option.is_empty());
                    if let (true, Some(next)) = (unknown_next, self.words.get(start + 1)) {
                        let fix = Fix {
                            title: format!("Give `{}` the value `{}` as `{}={}`", word.text, next.text, word.text, next.text),
                            applicability: Applicability::Unsafe,
                            edits: vec![Edit { start: word.span.end, end: next.span.start, replacement: "=".into() }],
                        };
                        if let Some(d) = self.parsed.diagnostics.last_mut() {
                            d.fixes.insert(0, fix);
                        }
                    }
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
        let written = word.text.clone();
        let unknown = self.unknown_words.get(start + 1..start + 1 + take).is_some_and(|u| u.contains(&true));
        self.take_action(ai, option, &written, flag_span, vals, whole, from_config, unknown);
        start + 1 + take
    }

    fn help(&mut self, span: Span) {
        self.parsed.help = true;
        self.parsed.diagnostics.push(
            Diagnostic::preflight("ARG011", Severity::Info, Stage::Argparse, "-h/--help: SGLang prints its help text and exits without starting a server.", span)
                .with_explanation("With `-h`/`--help` on the command line nothing else is checked by SGLang."),
        );
    }

    fn missing_value(&mut self, name: &OptionName<'_>, what: &str, flag_span: Span, word: &Word, action: &Action) {
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
        // advice only: the value is the user's to choose
        d.fixes.push(Fix { title: format!("Give `{}` a value: `{} {metavar}`", word.text, word.text), applicability: Applicability::Display, edits: Vec::new() });
        // or leave the flag out: SGLang then uses its default (a required one has none)
        if !action.required {
            d.fixes.push(Fix {
                title: format!("Remove `{}` (SGLang uses its default)", word.text),
                applicability: Applicability::Unsafe,
                edits: vec![Edit { start: word.span.start, end: word.span.end, replacement: String::new() }],
            });
        }
    }

    /// `take_action`: `_get_values`, then the action's `__call__`.
    #[allow(clippy::too_many_arguments)]
    fn take_action(&mut self, ai: usize, option: &str, written: &str, flag_span: Span, vals: Vec<(String, Span)>, whole: Span, from_config: bool, unknown: bool) {
        let schema = self.schema;
        let Some(action) = schema.actions.get(ai) else { return };
        let name = option_name(action);
        let nargs = nargs_of(action);
        self.occurrence = whole;
        let mut strings: Vec<(String, Span)> = vals;
        if let Some(p) = strings.iter().position(|(s, _)| s == "--") {
            strings.remove(p);
        }
        let value_span = match (strings.first(), strings.last()) {
            (Some(a), Some(b)) => Some(a.1.cover(b.1)),
            _ => None,
        };
        // _get_values
        let value: PyValue = if unknown {
            self.unknown_value(action, &name, &strings, matches!(nargs, Nargs::One | Nargs::Optional))
        } else if strings.is_empty() && nargs == Nargs::Optional {
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
            "LoRAPathAction" => match self.lora_paths(action, value, value_span.unwrap_or(flag_span), &strings.iter().map(|(_, sp)| *sp).collect::<Vec<_>>()) {
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
                written_as: if from_config {
                    written.trim_start_matches("--").to_string()
                } else {
                    written.to_string()
                },
                option: canonical,
                flag_span,
                value_span,
                whole_span: whole,
                from_config,
                value_unknown: unknown,
                field: schema.field_of_action.get(ai).copied().flatten(),
            },
        );
    }

    fn lora_paths(&mut self, action: &Action, value: PyValue, span: Span, item_spans: &[Span]) -> Option<PyValue> {
        let PyValue::List(items) = value else { return Some(PyValue::List(Vec::new())) };
        let mut out = Vec::with_capacity(items.len());
        for (n, item) in items.into_iter().enumerate() {
            let PyValue::Str(s) = item else { continue };
            let t = py_strip(&s);
            if t.starts_with('{') && t.ends_with('}') {
                match crate::pyjson::loads(t) {
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
                            let fix = lora_keys_fix(&obj);
                            // nothing to build an entry from, and nothing else given: no adapter
                            let remove = if fix.is_none() && item_spans.len() == 1 {
                                self.remove_occurrence_fix(action)
                            } else {
                                None
                            };
                            let d = self.error("ARG006", "AssertionError", msg, span);
                            d.fixes.extend(remove);
                            d.explanation = "A `--lora-paths` entry written as JSON must be an object with both `lora_name` and `lora_path`.".into();
                            if let (Some((title, json)), Some(at)) = (fix, item_spans.get(n)) {
                                d.fixes.push(Fix {
                                    title,
                                    applicability: Applicability::Unsafe,
                                    edits: vec![Edit { start: at.start, end: at.end, replacement: crate::shell::single_quote(&json) }],
                                });
                            }
                            return None;
                        }
                        out.push(obj);
                    }
                    Err(e) => {
                        self.error("ARG006", e.exception, e.message, span).explanation =
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

    fn check_choice(&mut self, action: &Action, name: &OptionName<'_>, v: &PyValue, span: Span) -> bool {
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
        // the flag's default, when it is one of the choices (a value the text leaves to a
        // variable is the user's to fill in)
        let unexpanded = matches!(v, PyValue::Str(s) if s.contains('$'));
        let default = self.schema.defaults.get(&action.dest).filter(|dv| !unexpanded && cs.iter().any(|c| py_eq(c, dv))).map(PyValue::py_str);
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
        // no close spelling: the default
        if d.fixes.is_empty() {
            if let Some(text) = default {
                d.fixes.push(Fix {
                    title: format!("Use the default '{text}'"),
                    applicability: Applicability::Unsafe,
                    edits: vec![Edit { start: span.start, end: span.end, replacement: crate::shell::quote_word(&text) }],
                });
            }
        }
        // a variable the shell did not expand: its default stands in for it (the user may
        // rather set the variable)
        if unexpanded && self.parsed.diagnostics.last().is_some_and(|d| d.fixes.is_empty()) {
            let fix = self.default_fix(action, span, |dv, _| cs.iter().any(|c| py_eq(c, dv)));
            if let (Some(fix), Some(d)) = (fix, self.parsed.diagnostics.last_mut()) {
                d.fixes.push(fix);
            }
        }
        // nothing close and no default among the choices: leave the flag out
        if self.parsed.diagnostics.last().is_some_and(|d| d.fixes.is_empty()) {
            let fix = self.remove_occurrence_fix(action);
            if let (Some(fix), Some(d)) = (fix, self.parsed.diagnostics.last_mut()) {
                d.fixes.push(fix);
            }
        }
        false
    }

    /// `_get_values` for words whose value is unknown here: not judged (no error). The words
    /// as written when they convert to an allowed value, else the flag's default: the resolved
    /// value always has a type and value the flag can give, so the rules' arithmetic holds.
    fn unknown_value(&mut self, action: &Action, name: &OptionName<'_>, strings: &[(String, Span)], single: bool) -> PyValue {
        let reported = self.parsed.diagnostics.len();
        let mut values = Vec::with_capacity(strings.len());
        for (s, sp) in strings {
            match self.convert(action, name, s, *sp) {
                Some(v) => values.push(v),
                None => break,
            }
        }
        self.parsed.diagnostics.truncate(reported);
        let allowed = |v: &PyValue| action.choices.as_ref().map_or(true, |cs| cs.iter().any(|c| py_eq(&PyValue::from_json(c), v)));
        if values.len() != strings.len() || !values.iter().all(allowed) {
            return self.schema.defaults.get(&action.dest).cloned().unwrap_or(PyValue::None);
        }
        match values.pop() {
            Some(v) if single && values.is_empty() => v,
            last => {
                values.extend(last);
                PyValue::List(values)
            }
        }
    }

    /// `_get_value`: the type callable.
    fn convert(&mut self, action: &Action, name: &OptionName<'_>, s: &str, span: Span) -> Option<PyValue> {
        let ty = action.type_name.as_deref().unwrap_or("str");
        let short = ty.rsplit('.').next().unwrap_or(ty);
        let res: Result<PyValue, ConvErr> = match short {
            "int" => py_int(s).ok_or(ConvErr::Value),
            "float" => py_float(s).map(PyValue::Float).ok_or(ConvErr::Value),
            "loads" => crate::pyjson::loads(s).map_err(|e| if e.exception == "JSONDecodeError" { ConvErr::Value } else { ConvErr::Raw(e.exception, e.message) }),
            "json_list_type" => serde_json::from_str::<serde_json::Value>(s)
                .map(|v| PyValue::from_json(&v))
                .map_err(|_| ConvErr::Type(format!("Invalid JSON list: {s}. Please provide a valid JSON list."))),
            "human_readable_int" => human_readable_int(s).map_err(ConvErr::Type),
            "nullable_str" => Ok(if s.is_empty() || s == "None" { PyValue::None } else { PyValue::Str(s.to_string()) }),
            "parse_cuda_graph_backend_arg" => match removed_backend_message(action) {
                Some(message) if s == "tc_piecewise" => Err(ConvErr::Type(message.to_string())),
                _ => Ok(PyValue::Str(s.to_string())),
            },
            "parse_cuda_graph_config_arg" => parse_cuda_graph_config(action, s),
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
                for (title, value, applicability) in suggest::number_fixes(short, s) {
                    d.fixes.push(Fix { title, applicability, edits: vec![Edit { start: span.start, end: span.end, replacement: value }] });
                }
                // no reading of the value as a number: the default, else no value at all
                if self.parsed.diagnostics.last().is_some_and(|d| d.fixes.is_empty()) {
                    let converts = |_: &PyValue, text: &str| match short {
                        "int" => py_int(text).is_some(),
                        "float" => py_float(text).is_some(),
                        _ => crate::pyjson::loads(text).is_ok(),
                    };
                    let fix = self.default_fix(action, span, converts).or_else(|| self.remove_occurrence_fix(action));
                    if let (Some(fix), Some(d)) = (fix, self.parsed.diagnostics.last_mut()) {
                        d.fixes.push(fix);
                    }
                }
                None
            }
            Err(ConvErr::Raw(exc, m)) => {
                self.error("ARG004", exc, m, span).explanation = "SGLang's converter for this flag failed with an unexpected error.".into();
                None
            }
            Err(ConvErr::Type(m)) => {
                let removed = (short == "parse_cuda_graph_backend_arg").then(|| removed_backend_replacement(&m)).flatten();
                let d = self.error("ARG004", "SystemExit", format!("argument {name}: {m}"), span);
                d.explanation = "SGLang's converter for this flag rejected the value.".into();
                if let Some(new) = removed {
                    d.explanation = format!("This value was removed from SGLang; `{new}` is the backend that took its place (its piecewise CUDA graphs).");
                    d.fixes.push(Fix {
                        title: format!("Use '{new}'"),
                        applicability: Applicability::Safe,
                        edits: vec![Edit { start: span.start, end: span.end, replacement: new }],
                    });
                } else if let Some(fix) = self.remove_occurrence_fix(action) {
                    // the converter's own rules: leave the value to SGLang's default
                    if let Some(d) = self.parsed.diagnostics.last_mut() {
                        d.fixes.push(fix);
                    }
                }
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
        // Each unknown flag (with the stray values after it) also gets a finding of its own, with
        // its own fixes, when there are several: SGLang's one message stays as it is.
        let groups = unrecognized_groups(extras, classes);
        let split = groups.len() > 1;
        let mut own: Vec<Diagnostic> = Vec::new();
        if split {
            // the first ones only: a paste with thousands of unknown flags needs SGLang's one error
            for g in groups.iter().take(MAX_SUGGESTED_FLAGS) {
                let ws: Vec<&Word> = g.iter().filter_map(|&i| self.words.get(i)).collect();
                let (Some(first), Some(last)) = (ws.first(), ws.last()) else { continue };
                let quoted = |ws: &[&Word]| ws.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
                let is_opt = g.first().is_some_and(|&i| matches!(classes.get(i), Some(Class::Opt { .. })));
                let (message, explanation) = if is_opt {
                    let values = ws.get(1..).unwrap_or(&[]);
                    let with = if values.is_empty() { String::new() } else { format!(" (and the value `{}` after it)", quoted(values)) };
                    (
                        format!("unknown flag `{}`{with}", first.text),
                        format!("SGLang has no flag `{}`; its argparse rejects it with the other unrecognized arguments (ARG008).", first.text),
                    )
                } else {
                    (
                        format!("leftover argument `{}`", quoted(&ws)),
                        "No flag takes this value (a value after a flag that takes none, or one too many); SGLang's argparse rejects it with the other unrecognized arguments (ARG008).".to_string(),
                    )
                };
                own.push(
                    Diagnostic::preflight("ARG013", Severity::Error, Stage::Argparse, message, first.span.cover(last.span))
                        .with_explanation(explanation),
                );
            }
        }
        let mut notes: Vec<String> = Vec::new();
        // Suggestions for the first unknown flags only: a paste with thousands of them needs the
        // one error, not thousands of did-you-means (and the search is per flag).
        let mut suggested = 0usize;
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
            suggested += 1;
            if suggested > MAX_SUGGESTED_FLAGS {
                continue;
            }
            // the finding of this flag's own (when split), holding its fixes
            let mine = split.then(|| own.iter().position(|o| o.span.start == w.span.start)).flatten();
            for s in suggest::suggest_flag(self.schema, flag) {
                if let Some(n) = &s.note {
                    match mine.and_then(|k| own.get_mut(k)) {
                        Some(o) => {
                            o.explanation.push(' ');
                            o.explanation.push_str(n);
                        }
                        None => notes.push(n.clone()),
                    }
                }
                let edits = match &s.replacement {
                    Some(_) if s.applicability == Applicability::Display => Vec::new(),
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
                let fix = Fix { title: s.title.clone(), applicability: s.applicability, edits };
                match mine.and_then(|k| own.get_mut(k)) {
                    Some(o) => o.fixes.push(fix),
                    None => d.fixes.push(fix),
                }
            }
        }
        // A switch's value written as a word of its own (`--flag true`), and a `--` no flag needed.
        let mut extra_set: Option<std::collections::HashSet<usize>> = None;
        for &i in extras {
            let Some(w) = self.words.get(i) else { continue };
            let fixes = match classes.get(i) {
                Some(Class::Arg) => {
                    if !matches!(w.text.to_ascii_lowercase().as_str(), "true" | "1" | "yes" | "on" | "false" | "0" | "no" | "off") {
                        continue;
                    }
                    let set = extra_set.get_or_insert_with(|| extras.iter().copied().collect());
                    let switch = i.checked_sub(1).filter(|p| !set.contains(p)).and_then(|p| match classes.get(p) {
                        Some(Class::Opt { action: Some(ai), explicit: None, .. }) => {
                            let a = self.schema.actions.get(*ai)?;
                            (nargs_of(a) == Nargs::Exact(0) && a.action != "_HelpAction").then(|| self.words.get(p)).flatten()
                        }
                        _ => None,
                    });
                    let Some(sw) = switch else { continue };
                    match w.text.to_ascii_lowercase().as_str() {
                        "true" | "1" | "yes" | "on" => vec![Fix {
                            title: format!("Write `{}` alone", sw.text),
                            applicability: Applicability::Safe,
                            edits: vec![Edit { start: sw.span.end, end: w.span.end, replacement: String::new() }],
                        }],
                        "false" | "0" | "no" | "off" => vec![Fix {
                            title: format!("Drop `{} {}` (off is the default)", sw.text, w.text),
                            applicability: Applicability::Safe,
                            edits: vec![Edit { start: sw.span.start, end: w.span.end, replacement: String::new() }],
                        }],
                        _ => continue,
                    }
                }
                Some(Class::DashDash) => vec![Fix {
                    title: "Remove the `--`".into(),
                    // the words after it become flags again
                    applicability: if extras.last() == Some(&i) { Applicability::Safe } else { Applicability::Unsafe },
                    edits: vec![Edit { start: w.span.start, end: w.span.end, replacement: String::new() }],
                }],
                _ => continue,
            };
            let mine = split.then(|| own.iter().position(|o| o.span.start <= w.span.start && w.span.end <= o.span.end)).flatten();
            match mine.and_then(|k| own.get_mut(k)) {
                Some(o) => o.fixes.extend(fixes),
                None => d.fixes.extend(fixes),
            }
        }
        // A group with no edit that fixes it: remove its words (the user may have meant
        // another flag; nothing close exists).
        let machine = |f: &Fix| !f.edits.is_empty() && f.applicability != Applicability::Display;
        for (k, g) in groups.iter().enumerate().take(MAX_SUGGESTED_FLAGS) {
            let ws: Vec<&Word> = g.iter().filter_map(|&i| self.words.get(i)).collect();
            let Some(first) = ws.first() else { continue };
            let target = if split { own.get_mut(k) } else { Some(&mut d) };
            let Some(target) = target else { continue };
            if target.fixes.iter().any(machine) {
                continue;
            }
            let quoted = ws.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
            // the option right before argv word `j`, when it takes exactly one value word
            let takes_one = |j: usize| match classes.get(j) {
                Some(Class::Opt { action: Some(ai), explicit: None, .. }) => {
                    self.schema.actions.get(*ai).is_some_and(|a| matches!(nargs_of(a), Nargs::One | Nargs::Exact(1)))
                }
                _ => false,
            };
            let before = g.first().and_then(|i| i.checked_sub(1));
            let first_is_opt = g.first().is_some_and(|&i| matches!(classes.get(i), Some(Class::Opt { .. })));
            if let (Some(p), true) = (before, first_is_opt) {
                if takes_one(p) {
                    // `--model-path -name`: argparse refused a value that starts with `-`
                    if let Some(opt) = self.words.get(p) {
                        target.fixes.push(Fix {
                            title: format!("Give `{}` the value `{}` as `{}={}`", opt.text, first.text, opt.text, first.text),
                            applicability: Applicability::Unsafe,
                            edits: vec![Edit { start: opt.span.end, end: first.span.start, replacement: "=".into() }],
                        });
                        continue;
                    }
                }
            }
            // a piece of JSON the shell split off its value: removing it breaks the value
            if !first_is_opt && quoted.contains(['{', '}', '[', ']']) {
                continue;
            }
            // every word's place: words the `--config` file gave are not in argv order in the text
            let whole = ws.iter().map(|w| w.span).fold(first.span, Span::cover);
            target.fixes.push(Fix {
                title: format!("Remove `{quoted}`"),
                applicability: Applicability::Unsafe,
                edits: vec![Edit { start: whole.start, end: whole.end, replacement: String::new() }],
            });
        }
        // SGLang's one error, when each word has its own finding: every one's first fix at once
        if split {
            let mut edits: Vec<Edit> = Vec::new();
            let mut titles: Vec<&str> = Vec::new();
            let mut applicability = Applicability::Safe;
            for o in &own {
                let Some(f) = o.fixes.iter().find(|f| machine(f)) else { continue };
                let overlaps = f.edits.iter().any(|e| edits.iter().any(|x| e.start < x.end && x.start < e.end || e.start == x.start));
                if overlaps {
                    continue;
                }
                edits.extend(f.edits.iter().cloned());
                titles.push(&f.title);
                if f.applicability == Applicability::Unsafe {
                    applicability = Applicability::Unsafe;
                }
            }
            if !edits.is_empty() {
                crate::sorting::sort_by_key(&mut edits, |e| (e.start, e.end));
                let title = format!("Fix each: {}", titles.join("; "));
                d.fixes.push(Fix { title, applicability, edits });
            }
        }
        let mut expl = String::from("argparse does not know these words: flags SGLang does not have (check the spelling: flags use `-`, not `_`), or values left over after a flag took what it accepts.");
        for n in notes {
            expl.push(' ');
            expl.push_str(&n);
        }
        if split {
            expl.push_str(" Each of them has a finding of its own below, with its fixes.");
        }
        d.explanation = expl;
        self.parsed.diagnostics.push(d);
        self.parsed.diagnostics.extend(own);
    }
}

/// The unrecognized words in groups: each unknown option with the leftover values right after
/// it, and each run of stray values before any option. Indexes into argv.
fn unrecognized_groups(extras: &[usize], classes: &[Class]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut prev: Option<usize> = None;
    for &i in extras {
        let is_opt = matches!(classes.get(i), Some(Class::Opt { .. }));
        let follows = prev.is_some_and(|p| p + 1 == i);
        match groups.last_mut() {
            Some(g) if follows && !is_opt => g.push(i),
            _ => groups.push(vec![i]),
        }
        prev = Some(i);
    }
    groups
}

enum ConvErr {
    /// ValueError/TypeError: argparse's "invalid <type> value: 'x'"
    Value,
    /// ArgumentTypeError: its own message
    Type(String),
    /// Any other exception escapes argparse as is (e.g. RecursionError from json.loads)
    Raw(&'static str, String),
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
    // The usual value starts and ends with a visible ASCII character: nothing to strip, no
    // search character by character.
    let visible = |b: Option<&u8>| b.is_some_and(u8::is_ascii_graphic);
    if visible(s.as_bytes().first()) && visible(s.as_bytes().last()) {
        return s;
    }
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
    // the usual case, plain ASCII digits that fit: no copy
    if body.len() <= 18 && body.bytes().all(|b| b.is_ascii_digit()) {
        let n: i64 = body.parse().ok()?;
        return Some(PyValue::Int(if neg { -n } else { n }));
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
    // the usual case, `12` / `0.85` / `.5` / `3.`: Rust reads these exactly as Python does
    let (int_part, frac_part) = body.split_once('.').unwrap_or((body, ""));
    let plain = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    if (!int_part.is_empty() || !frac_part.is_empty()) && plain(int_part) && plain(frac_part) {
        return body.parse::<f64>().ok().map(|x| sign * x);
    }
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

/// What the release's type function says of the removed `tc_piecewise` backend, if it rejects it.
/// A `--lora-paths` JSON object without `lora_name` / `lora_path`, completed where its own
/// keys say what they are: `name`/`path` renamed, a missing `lora_name` taken from the path's
/// last component. None when the object does not name a path (nothing valid to fill in) or
/// holds values other than strings and booleans. (title, the object as JSON)
fn lora_keys_fix(obj: &PyValue) -> Option<(String, String)> {
    let PyValue::Dict(items) = obj else { return None };
    let get = |keys: &[&str]| items.iter().find(|(k, _)| keys.contains(&k.as_str())).and_then(|(_, v)| v.as_str());
    let path = get(&["lora_path", "path", "adapter_path", "lora"])?;
    let name_given = get(&["lora_name", "name", "adapter_name"]);
    let name = match name_given {
        Some(n) => n.to_string(),
        None => path.trim_end_matches('/').rsplit('/').next().filter(|b| !b.is_empty())?.to_string(),
    };
    let renamed = ["lora_path", "path", "adapter_path", "lora", "lora_name", "name", "adapter_name"];
    let mut out = serde_json::Map::new();
    out.insert("lora_name".into(), serde_json::Value::String(name.clone()));
    out.insert("lora_path".into(), serde_json::Value::String(path.to_string()));
    for (k, v) in items.iter().filter(|(k, _)| !renamed.contains(&k.as_str())) {
        let v = match v {
            PyValue::Str(s) => serde_json::Value::String(s.clone()),
            PyValue::Bool(b) => serde_json::Value::Bool(*b),
            _ => return None,
        };
        out.insert(k.clone(), v);
    }
    let json = serde_json::to_string(&serde_json::Value::Object(out)).ok()?;
    let title = match name_given {
        Some(_) => "Name the keys `lora_name` and `lora_path`".to_string(),
        None => format!("Add `\"lora_name\": \"{name}\"` (named after the adapter's folder)"),
    };
    Some((title, json))
}

/// The first value a "X was removed; select A, B, or C" message offers (SGLang lists the
/// successor first: `tc_piecewise` → `breakable`).
fn removed_backend_replacement(message: &str) -> Option<String> {
    let options = message.split_once("; select ")?.1;
    let first = options.split([',', ' ']).find(|w| !w.is_empty() && *w != "or")?;
    Some(first.to_string())
}

fn removed_backend_message(action: &Action) -> Option<&str> {
    action.type_facts.as_ref()?.get("removed_backend_message")?.as_str()
}

/// `--cuda-graph-config`'s phases and each phase's keys in this release (and the text its
/// messages print for them), from the schema's probe of the real type function.
struct CudaGraphConfigKeys<'a> {
    facts: Option<&'a serde_json::Value>,
}

impl<'a> CudaGraphConfigKeys<'a> {
    fn phases_text(&self) -> &'a str {
        self.facts.and_then(|f| f.get("phases_text")?.as_str()).unwrap_or("('decode', 'prefill')")
    }
    fn allowed(&self, phase: &str) -> Option<(Vec<&'a str>, &'a str)> {
        let facts = self.facts?;
        let keys = facts.get("allowed_keys")?.get(phase)?.as_array()?.iter().filter_map(serde_json::Value::as_str).collect();
        let text = facts.get("allowed_keys_text")?.get(phase)?.as_str()?;
        Some((keys, text))
    }
}

fn parse_cuda_graph_config(action: &Action, raw: &str) -> Result<PyValue, ConvErr> {
    let parsed = crate::pyjson::loads(raw).map_err(|e| {
        if e.exception == "JSONDecodeError" {
            ConvErr::Type(format!("--cuda-graph-config must be JSON: {}", e.message))
        } else {
            ConvErr::Raw(e.exception, e.message)
        }
    })?;
    let keys = CudaGraphConfigKeys { facts: action.type_facts.as_ref() };
    parse_cuda_graph_config_value(parsed, &keys, removed_backend_message(action)).map_err(ConvErr::Type)
}

fn parse_cuda_graph_config_value(parsed: PyValue, keys: &CudaGraphConfigKeys, removed_backend: Option<&str>) -> Result<PyValue, String> {
    let PyValue::Dict(items) = parsed else {
        return Err(format!("--cuda-graph-config must be a JSON object, got {}", parsed.type_name()));
    };
    let mut out: Vec<(String, PyValue)> = Vec::new();
    for (phase, settings) in items {
        let Some((allowed, allowed_text)) = keys.allowed(&phase) else {
            return Err(format!("--cuda-graph-config: unknown phase '{phase}', expected one of {}", keys.phases_text()));
        };
        let PyValue::Dict(kv) = settings else {
            return Err(format!("--cuda-graph-config['{phase}'] must be a JSON object, got {}", settings.type_name()));
        };
        if let Some(message) = removed_backend {
            if kv.iter().any(|(k, v)| k == "backend" && v.as_str() == Some("tc_piecewise")) {
                return Err(message.to_string());
            }
        }
        let mut res: Vec<(String, PyValue)> = Vec::new();
        for (k, v) in kv {
            if !allowed.contains(&k.as_str()) {
                return Err(format!("--cuda-graph-config['{phase}']: unknown key '{k}', expected one of {allowed_text}"));
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
