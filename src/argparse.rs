//! CPython 3.11 `argparse` as SGLang configures it (`ArgumentParser(prog="sglang serve")`,
//! allow_abbrev on), replayed over the schema: same acceptance, same first error, same text.
//! Unlike argparse we keep going after an error, so every problem is reported.
//!
//! OWNER: argparse helper. Interface is fixed; the implementation below is a placeholder.

use crate::diagnostic::Diagnostic;
use crate::pyvalue::PyValue;
use crate::schema::Schema;
use crate::shell::Word;
use crate::span::Span;
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
}

/// Parse `argv` (the words after the launcher, after the front end and `--config` merging).
pub fn parse_args(schema: &Schema, argv: &[Word]) -> Parsed {
    // Placeholder: exact option strings with one value, no errors.
    let mut parsed = Parsed::default();
    let mut i = 0;
    while let Some(w) = argv.get(i) {
        i += 1;
        let Some(action) = schema.action(&w.text) else { continue };
        let takes_value = action.action == "_StoreAction";
        let (value, value_span) = if takes_value {
            match argv.get(i) {
                Some(v) => {
                    i += 1;
                    (PyValue::Str(v.text.clone()), Some(v.span))
                }
                None => (PyValue::None, None),
            }
        } else {
            (PyValue::Bool(true), None)
        };
        let whole = value_span.map(|v| w.span.cover(v)).unwrap_or(w.span);
        parsed.namespace.explicit.insert(
            action.dest.clone(),
            Setting {
                value,
                written_as: w.text.clone(),
                option: action.option_strings.first().cloned().unwrap_or_default(),
                flag_span: w.span,
                value_span,
                whole_span: whole,
                from_config: false,
            },
        );
    }
    parsed
}
