//! What changed in SGLang's command line between two releases: flags added, removed, renamed
//! (the option string went, its setting stayed under another flag), and flags whose default,
//! choices, type, arity or deprecation changed. Computed from the releases' schemas, which are
//! generated from the real packages, so the history needs no hand-kept list.

use crate::schema::{Action, Schema};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// One flag's difference between two releases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FlagChange {
    Added { flag: String, help: String },
    /// Gone, and nothing sets its field any more. `advice`: the release's own deprecation
    /// pointer where it had one ("Use --attn-dp-size <dp-size> instead ...").
    Removed { flag: String, advice: Option<String> },
    /// Gone, but its field is still set by these flags.
    Renamed { flag: String, to: Vec<String> },
    Changed { flag: String, details: Vec<String> },
}

impl FlagChange {
    pub fn flag(&self) -> &str {
        match self {
            FlagChange::Added { flag, .. } | FlagChange::Removed { flag, .. } | FlagChange::Renamed { flag, .. } | FlagChange::Changed { flag, .. } => flag,
        }
    }
}

/// The flag changes from release `from` to release `to`, by flag name.
#[derive(Debug, Clone, Serialize)]
pub struct Changes {
    pub from: String,
    pub to: String,
    pub changes: Vec<FlagChange>,
}

fn by_option(schema: &Schema) -> BTreeMap<&str, &Action> {
    // Inserted one by one (a later action's option string wins, as collect's does): collect
    // sorts the pairs first, with a whole stable sort of its own in the page's wasm.
    let mut map = BTreeMap::new();
    for a in schema.actions.iter().filter(|a| a.dest != "help") {
        for o in &a.option_strings {
            map.insert(o.as_str(), a);
        }
    }
    map
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Null => "None".to_string(),
        Value::Bool(true) => "True".to_string(),
        Value::Bool(false) => "False".to_string(),
        other => other.to_string(),
    }
}

fn deprecation(a: &Action) -> Option<String> {
    let new_flag = a.extra.as_ref().and_then(|e| e.get("new_flag")).and_then(Value::as_str);
    let help = a.help.get().unwrap_or("");
    // As the schema dump decides it: the help starts with "Deprecated" or says "(Deprecated".
    let lower = help.to_ascii_lowercase();
    let says = lower.starts_with("deprecated") || lower.contains("(deprecated") || lower.contains("[deprecated");
    if a.action.starts_with("Deprecated") || a.deprecated || says {
        Some(match new_flag {
            Some(n) => format!("use {n} instead"),
            None if says => help.split_whitespace().collect::<Vec<_>>().join(" "),
            None => "deprecated".to_string(),
        })
    } else {
        None
    }
}

fn details(old: &Action, new: &Action) -> Vec<String> {
    let mut out = Vec::new();
    let suppressed = |v: &Value| v.as_str() == Some("==SUPPRESS==");
    if old.default != new.default && !suppressed(&old.default) && !suppressed(&new.default) {
        out.push(format!("default {} → {}", show(&old.default), show(&new.default)));
    }
    if old.type_name != new.type_name {
        let t = |t: &Option<String>| t.clone().unwrap_or_else(|| "str".to_string());
        out.push(format!("type {} → {}", t(&old.type_name), t(&new.type_name)));
    }
    if old.action != new.action && !(old.action.starts_with("Deprecated") || new.action.starts_with("Deprecated")) {
        out.push(format!("action {} → {}", old.action, new.action));
    }
    if old.nargs != new.nargs {
        out.push(format!("nargs {} → {}", show(old.nargs.as_ref().unwrap_or(&Value::Null)), show(new.nargs.as_ref().unwrap_or(&Value::Null))));
    }
    let list = |c: &Option<Vec<Value>>| c.as_ref().map(|c| c.iter().map(show).collect::<Vec<_>>());
    match (list(&old.choices), list(&new.choices)) {
        (Some(a), Some(b)) if a != b => {
            let added: Vec<&String> = b.iter().filter(|c| !a.contains(c)).collect();
            let removed: Vec<&String> = a.iter().filter(|c| !b.contains(c)).collect();
            let join = |v: &[&String]| v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
            if !added.is_empty() {
                out.push(format!("choices added: {}", join(&added)));
            }
            if !removed.is_empty() {
                out.push(format!("choices removed: {}", join(&removed)));
            }
        }
        (None, Some(_)) => out.push("now restricted to fixed choices".to_string()),
        (Some(_), None) => out.push("no longer restricted to fixed choices".to_string()),
        _ => {}
    }
    let spelled = |a: &Action, b: &Action| a.option_strings.iter().filter(|o| !b.option_strings.contains(o)).cloned().collect::<Vec<_>>();
    let (gone, added) = (spelled(old, new), spelled(new, old));
    if !gone.is_empty() {
        out.push(format!("no longer spelled {}", gone.join(", ")));
    }
    if !added.is_empty() {
        out.push(format!("also spelled {}", added.join(", ")));
    }
    match (deprecation(old), deprecation(new)) {
        (None, Some(how)) => out.push(format!("deprecated: {how}")),
        (Some(_), None) => out.push("no longer deprecated".to_string()),
        _ => {}
    }
    out
}

/// The flag changes between two schemas, in flag-name order.
pub fn between(from: &Schema, to: &Schema) -> Changes {
    let old = by_option(from);
    let new = by_option(to);
    let mut changes = Vec::new();
    let mut flags: Vec<&str> = old.keys().chain(new.keys()).copied().collect();
    crate::sorting::sort(&mut flags);
    flags.dedup();
    // A flag with several spellings (`--tp-size`/`--tensor-parallel-size`) is one action: its
    // changes are listed once, under its first spelling that both releases have.
    let mut seen: std::collections::HashSet<*const Action> = std::collections::HashSet::new();
    for flag in flags {
        match (old.get(flag), new.get(flag)) {
            (Some(a), Some(b)) => {
                if !seen.insert(*a as *const Action) {
                    continue;
                }
                let d = details(a, b);
                if !d.is_empty() {
                    changes.push(FlagChange::Changed { flag: flag.to_string(), details: d });
                }
            }
            // A spelling dropped from an action that keeps another is listed with that action.
            (Some(a), None) if a.option_strings.iter().any(|o| new.contains_key(o.as_str())) => {}
            (Some(a), None) => match to.action_for_dest(&a.dest).filter(|b| b.dest != "help") {
                Some(b) => changes.push(FlagChange::Renamed { flag: flag.to_string(), to: b.option_strings.clone() }),
                None => changes.push(FlagChange::Removed { flag: flag.to_string(), advice: deprecation(a) }),
            },
            (None, Some(b)) => {
                // A new spelling of an old setting is listed as the rename above.
                let is_new_alias = from.action_for_dest(&b.dest).is_some();
                if !is_new_alias {
                    let help = b.help.get().unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
                    changes.push(FlagChange::Added { flag: flag.to_string(), help });
                }
            }
            (None, None) => {}
        }
    }
    Changes { from: from.sglang_version.clone(), to: to.sglang_version.clone(), changes }
}

/// The changes between two carried releases; `None` when either is not carried.
pub fn between_releases(from: &str, to: &str) -> Option<Changes> {
    Some(between(crate::schema::get(from)?, crate::schema::get(to)?))
}

fn first_sentence(text: &str) -> String {
    let cut = text.find(". ").map(|i| i + 1).unwrap_or(text.len());
    let s = text.get(..cut).unwrap_or(text);
    if s.chars().count() > 140 {
        let short: String = s.chars().take(137).collect();
        format!("{short}...")
    } else {
        s.to_string()
    }
}

/// Markdown for one pair of releases (a `##` section).
pub fn markdown(c: &Changes) -> String {
    let mut out = format!("## SGLang {} → {}\n\n", c.from, c.to);
    let count = |k: fn(&FlagChange) -> bool| c.changes.iter().filter(|x| k(x)).count();
    let (added, removed, renamed, changed) = (
        count(|x| matches!(x, FlagChange::Added { .. })),
        count(|x| matches!(x, FlagChange::Removed { .. })),
        count(|x| matches!(x, FlagChange::Renamed { .. })),
        count(|x| matches!(x, FlagChange::Changed { .. })),
    );
    out.push_str(&format!("{added} added, {removed} removed, {renamed} renamed, {changed} changed.\n\n"));
    if c.changes.is_empty() {
        return out;
    }
    let section = |out: &mut String, title: &str, lines: Vec<String>| {
        if !lines.is_empty() {
            out.push_str(&format!("**{title}**\n\n"));
            for l in lines {
                out.push_str(&format!("- {l}\n"));
            }
            out.push('\n');
        }
    };
    let esc = |s: &str| s.replace('|', "\\|").replace('<', "&lt;").replace('>', "&gt;");
    section(
        &mut out,
        "Removed",
        c.changes
            .iter()
            .filter_map(|x| match x {
                FlagChange::Removed { flag, advice } => Some(match advice {
                    Some(a) => format!("`{flag}` (it was deprecated: {})", esc(&first_sentence(a))),
                    None => format!("`{flag}`"),
                }),
                _ => None,
            })
            .collect(),
    );
    section(
        &mut out,
        "Renamed (the setting is now written by)",
        c.changes
            .iter()
            .filter_map(|x| match x {
                FlagChange::Renamed { flag, to } => {
                    Some(format!("`{flag}` → {}", to.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")))
                }
                _ => None,
            })
            .collect(),
    );
    section(
        &mut out,
        "Changed",
        c.changes
            .iter()
            .filter_map(|x| match x {
                FlagChange::Changed { flag, details } => Some(format!("`{flag}`: {}", esc(&details.join("; ")))),
                _ => None,
            })
            .collect(),
    );
    section(
        &mut out,
        "Added",
        c.changes
            .iter()
            .filter_map(|x| match x {
                FlagChange::Added { flag, help } if help.is_empty() => Some(format!("`{flag}`")),
                FlagChange::Added { flag, help } => Some(format!("`{flag}`: {}", esc(&first_sentence(help)))),
                _ => None,
            })
            .collect(),
    );
    out
}

/// `docs/changes.md`: every carried release against the one before it, newest first.
pub fn history() -> String {
    let versions = crate::schema::SUPPORTED_VERSIONS;
    let mut out = String::from(
        "# What changed in SGLang's launch flags\n\n\
         Generated by `sglang-preflight reference --write` from the flag schemas of the SGLang releases this \
         build carries (each generated from the real package: `tools/dump_schema.py`); do not edit by hand. \
         Flag names, defaults, choices and help texts are SGLang's (Copyright the SGLang project authors, \
         Apache License 2.0; see `data/NOTICE`).\n\n\
         A flag is *renamed* when its option string is gone but its setting is still written by another flag; \
         *removed* when nothing sets it any more. Abbreviations follow from the flag set: a prefix that named one \
         flag can name two after an addition (`sglang-preflight check --sglang-version X` tells).\n\n",
    );
    for pair in versions.windows(2) {
        if let [newer, older] = pair {
            if let Some(c) = between_releases(older, newer) {
                out.push_str(&markdown(&c));
            }
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)] // a failed expectation fails the test
mod tests {
    use super::*;

    fn changes(from: &str, to: &str) -> Changes {
        match between_releases(from, to) {
            Some(c) => c,
            None => panic!("{from} and {to} are carried"),
        }
    }

    fn find<'a>(c: &'a Changes, flag: &str) -> Option<&'a FlagChange> {
        c.changes.iter().find(|x| x.flag() == flag)
    }

    #[test]
    fn a_release_against_itself_has_no_changes() {
        assert!(changes("0.5.23", "0.5.23").changes.is_empty());
    }

    #[test]
    fn flags_gone_since_0_5_18_are_removed_or_renamed() {
        let c = changes("0.5.18", "0.5.23");
        // The option string went and nothing else writes its field.
        assert!(matches!(find(&c, "--collect-tokens-histogram"), Some(FlagChange::Removed { .. })), "{:?}", find(&c, "--collect-tokens-histogram"));
        // The option string went; its field is written by a new flag.
        assert_eq!(
            find(&c, "--mamba-scheduler-strategy"),
            Some(&FlagChange::Renamed { flag: "--mamba-scheduler-strategy".into(), to: vec!["--mamba-radix-cache-strategy".into()] })
        );
        // Each direction is the other's mirror.
        let back = changes("0.5.23", "0.5.18");
        for x in &c.changes {
            match x {
                FlagChange::Removed { flag, .. } => {
                    assert!(matches!(find(&back, flag), Some(FlagChange::Added { .. })), "{flag}")
                }
                FlagChange::Added { flag, .. } => {
                    assert!(matches!(find(&back, flag), Some(FlagChange::Removed { .. } | FlagChange::Renamed { .. })), "{flag}")
                }
                _ => {}
            }
        }
    }

    #[test]
    fn every_flag_of_either_release_is_accounted_for() {
        let (a, b) = (crate::schema::get("0.5.18").unwrap(), crate::schema::get("0.5.23").unwrap());
        let c = between(a, b);
        let old = by_option(a);
        let new = by_option(b);
        for flag in old.keys() {
            if !new.contains_key(flag) {
                assert!(find(&c, flag).is_some(), "{flag} went unreported");
            }
        }
        for (flag, action) in &new {
            if !old.contains_key(flag) && a.action_for_dest(&action.dest).is_none() {
                assert!(matches!(find(&c, flag), Some(FlagChange::Added { .. })), "{flag} went unreported");
            }
        }
    }

    #[test]
    fn history_lists_every_consecutive_pair() {
        let h = history();
        let versions = crate::schema::SUPPORTED_VERSIONS;
        assert_eq!(h.matches("\n## SGLang ").count(), versions.len().saturating_sub(1), "{h}");
    }
}

/// How another release's parser judges a text differently from the checked one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReleaseDifference {
    pub sglang_version: String,
    /// Whether every command gets through that release's command-line parsing.
    pub parser_accepts: bool,
    /// That release's parser-stage errors that the checked release does not give, with fixes
    /// (spans into the same text), and the checked release's that it does not give.
    pub only_there: Vec<crate::diagnostic::Diagnostic>,
    pub only_here: Vec<crate::diagnostic::Diagnostic>,
}

fn parser_errors(report: &crate::Report) -> Vec<crate::diagnostic::Diagnostic> {
    use crate::diagnostic::Stage;
    report
        .commands
        .iter()
        .flat_map(|c| c.diagnostics.iter())
        .filter(|d| d.is_sglang_error() && matches!(d.stage, Stage::Cli | Stage::Config | Stage::Argparse))
        .cloned()
        .collect()
}

/// The other carried releases whose command-line parsing judges `text` differently from the
/// release `checked` was made with (the flags they know, their choices and types), newest
/// first. Only the parser stage is compared: it is exact for every carried release.
pub fn judged_differently(text: &str, checked: &crate::Report, opts: &crate::CheckOptions) -> Vec<ReleaseDifference> {
    let here = parser_errors(checked);
    let key = |d: &crate::diagnostic::Diagnostic| (d.code.clone(), d.message.clone(), d.span);
    let mut out = Vec::new();
    for version in crate::schema::SUPPORTED_VERSIONS.iter().filter(|v| **v != checked.sglang_version) {
        let other = crate::check(text, &crate::CheckOptions { sglang_version: (*version).to_string(), release_from_text: false, ..opts.clone() });
        let there = parser_errors(&other);
        let only_there: Vec<_> = there.iter().filter(|d| !here.iter().any(|h| key(h) == key(d))).cloned().collect();
        let only_here: Vec<_> = here.iter().filter(|h| !there.iter().any(|d| key(h) == key(d))).cloned().collect();
        if !only_there.is_empty() || !only_here.is_empty() {
            out.push(ReleaseDifference { sglang_version: (*version).to_string(), parser_accepts: there.is_empty(), only_there, only_here });
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)] // a failed expectation fails the test
mod difference_tests {
    use super::*;

    #[test]
    fn a_flag_renamed_since_0_5_18_is_judged_differently_there() {
        let text = "python -m sglang.launch_server --model-path m --mamba-scheduler-strategy no_buffer";
        let opts = crate::CheckOptions::default();
        let report = crate::check(text, &opts);
        let diff = judged_differently(text, &report, &opts);
        // 0.5.23 rejects the old spelling; the releases that still had it accept it.
        let old = diff.iter().find(|d| d.sglang_version == "0.5.18").unwrap();
        assert!(old.parser_accepts);
        assert!(old.only_here.iter().any(|d| d.message.contains("unrecognized arguments: --mamba-scheduler-strategy")), "{old:?}");
        assert!(old.only_there.is_empty());
    }

    #[test]
    fn a_command_every_release_parses_alike_has_no_differences() {
        let text = "python -m sglang.launch_server --model-path m --tp-size 2";
        let opts = crate::CheckOptions::default();
        assert!(judged_differently(text, &crate::check(text, &opts), &opts).is_empty());
    }
}
