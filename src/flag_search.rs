//! What the command builder knows beyond the schema: a ranked flag search (by SGLang's option
//! strings, their snake_case field name, vLLM's name for the same setting, and the help text),
//! and which choices of a flag the command, hardware or model at hand would make SGLang reject,
//! with SGLang's own error, found by checking the command with each choice in place.

use crate::check::{self, CheckOptions};
use crate::diagnostic::Severity;
use crate::flag_edit::{self, FlagValue};
use crate::schema::{Action, Schema};
use serde::Serialize;

/// How a flag matched a query; the order is the ranking (best first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// The query is one of its option strings or its field name (`tp_size`).
    Exact,
    /// The query is vLLM's name for it (`--tensor-parallel-size`).
    Vllm,
    /// An option string starts with the query.
    Prefix,
    /// Every word of the query starts a word of an option string.
    Word,
    /// An option string contains the query.
    Name,
    /// Only the help text has it.
    Help,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FlagMatch {
    /// The flag's main option string (as the builder and `set_flag` name it).
    pub option: String,
    #[serde(rename = "match")]
    pub kind: MatchKind,
    /// The vLLM flag the query named, for a `vllm` match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vllm: Option<&'static str>,
}

/// A query or option as compared: lower case, without leading dashes, `_` read as `-`.
fn normalize(s: &str) -> String {
    s.trim().trim_start_matches('-').to_lowercase().replace('_', "-")
}

/// How `action` matches the normalized query `q` (words `terms`), if it does.
fn match_kind(action: &Action, q: &str, terms: &[&str], help: &str) -> Option<MatchKind> {
    let names: Vec<String> = action.option_strings.iter().map(|o| normalize(o)).chain(std::iter::once(normalize(&action.dest))).collect();
    if names.iter().any(|n| n == q) {
        return Some(MatchKind::Exact);
    }
    if names.iter().any(|n| n.starts_with(q)) {
        return Some(MatchKind::Prefix);
    }
    let starts_a_word = |t: &str| names.iter().any(|n| n.split('-').any(|w| w.starts_with(t)));
    if terms.iter().all(|t| starts_a_word(t)) {
        return Some(MatchKind::Word);
    }
    let in_name = |t: &str| names.iter().any(|n| n.contains(t));
    if terms.iter().all(|t| in_name(t)) {
        return Some(MatchKind::Name);
    }
    if terms.iter().all(|t| in_name(t) || help.contains(t)) {
        return Some(MatchKind::Help);
    }
    None
}

/// The flags matching `query`, best first: exact names, vLLM's names, option prefixes, word
/// starts, name substrings, then help text; ties in the schema's order. Empty for an empty query.
pub fn search(schema: &Schema, query: &str) -> Vec<FlagMatch> {
    let q = normalize(query);
    if q.is_empty() {
        return Vec::new();
    }
    // Words of the query, as the option strings' words are (`tp size` finds `--tp-size`).
    let spaced = q.replace('-', " ");
    let terms: Vec<&str> = spaced.split_whitespace().collect();
    let joined = terms.join("-");
    let mut found: Vec<(MatchKind, usize, FlagMatch)> = Vec::new();
    for (i, a) in schema.actions.iter().enumerate() {
        if a.action == "_HelpAction" {
            continue;
        }
        let help = a.help.get().unwrap_or("").to_lowercase();
        let Some(kind) = match_kind(a, &joined, &terms, &help) else { continue };
        found.push((kind, i, FlagMatch { option: flag_edit::main_option(a).to_string(), kind, vllm: None }));
    }
    for (vllm, sglang) in crate::vllm::renamed_flags() {
        if normalize(vllm) != joined {
            continue;
        }
        let Some(&i) = schema.by_option.get(sglang) else { continue };
        let Some(a) = schema.actions.get(i) else { continue };
        found.retain(|(_, j, _)| *j != i);
        found.push((MatchKind::Vllm, i, FlagMatch { option: flag_edit::main_option(a).to_string(), kind: MatchKind::Vllm, vllm: Some(vllm) }));
    }
    // Best kind first, each in the schema's order (by buckets: no sort to carry in the wasm).
    let kinds = [MatchKind::Exact, MatchKind::Vllm, MatchKind::Prefix, MatchKind::Word, MatchKind::Name, MatchKind::Help];
    kinds.iter().flat_map(|k| found.iter().filter(move |(kind, _, _)| kind == k).map(|(_, _, m)| m.clone())).collect()
}

/// One choice of a flag, and whether the command at hand would have SGLang reject it.
#[derive(Debug, Clone, Serialize)]
pub struct ChoiceVerdict {
    pub choice: String,
    /// The command gives the flag this value now.
    pub current: bool,
    /// The first error the command gets with this choice that it does not get now (SGLang's
    /// message, or preflight's for what fails on the GPU node); absent when it gets none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejected: Option<Rejection>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Rejection {
    pub code: String,
    pub exception: Option<String>,
    pub message: String,
}

/// The choices of the flag `option` for command `index` of `text`, each checked with `opts`
/// with that choice in place (edited as the builder would). `None` when the flag has no
/// choices or takes several values.
pub fn choice_verdicts(text: &str, opts: &CheckOptions, index: usize, option: &str) -> Option<Vec<ChoiceVerdict>> {
    let release = crate::release::get(&opts.sglang_version)?;
    let schema = &release.schema;
    let action = schema.action(option)?;
    let choices = action.choices.as_ref()?;
    if matches!(&action.nargs, Some(serde_json::Value::String(n)) if n == "+" || n == "*") {
        return None;
    }
    let errors = |t: &str| -> Vec<crate::diagnostic::Diagnostic> {
        let mut r = check::check(t, opts);
        if r.commands.len() <= index {
            return Vec::new();
        }
        r.commands.swap_remove(index).diagnostics.into_iter().filter(|d| d.severity == Severity::Error).collect()
    };
    let before = errors(text);
    let current = flag_edit::command_flags(text, schema, index).values.get(flag_edit::main_option(action)).cloned();
    let mut out = Vec::with_capacity(choices.len());
    for c in choices {
        let choice = match c {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let is_current = matches!(&current, Some(flag_edit::ShownValue::Text(v)) if *v == choice);
        let rejected = if is_current {
            // what it gets now is the command's own verdict, shown on its cards
            None
        } else {
            match flag_edit::set_flag(text, schema, index, option, &FlagValue::Text(choice.clone())) {
                Ok(Some(applied)) => errors(&applied.text)
                    .into_iter()
                    .find(|d| !before.iter().any(|b| b.code == d.code && b.message == d.message))
                    .map(|d| Rejection { code: d.code.to_string(), exception: d.exception.clone(), message: d.message }),
                _ => None,
            }
        };
        out.push(ChoiceVerdict { choice, current: is_current, rejected });
    }
    Some(out)
}
