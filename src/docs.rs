//! The rule reference and the compatibility matrix, generated from the rules' metadata
//! (`docs/rules.md`, `docs/compatibility.md`; kept current by `tests/docs.rs`).

use crate::check::{check, CheckOptions};
use crate::rules::{all_rules, Rule, RuleInfo, Sglang};
use std::collections::BTreeMap;
use std::fmt::Write;

const LAUNCH: &str = "python -m sglang.launch_server ";

/// The command an example stands for: the args after the launcher, or a whole command when it
/// starts with an environment assignment or a launcher (as `tests/metadata.rs` reads them).
fn example_command(example: &str) -> String {
    let first = example.split_whitespace().next().unwrap_or_default();
    let env_assignment = first.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !name.starts_with(|c: char| c.is_ascii_digit())
    });
    if env_assignment || ["python", "python3", "sglang"].contains(&first) {
        example.to_string()
    } else {
        format!("{LAUNCH}{example}")
    }
}

fn fixes_offered(rule: &Rule) -> Vec<String> {
    if rule.example_bad.is_empty() {
        return Vec::new();
    }
    let report = check(&example_command(rule.example_bad), &CheckOptions::default());
    report
        .commands
        .iter()
        .flat_map(|c| &c.diagnostics)
        .find(|d| d.code == rule.code)
        .map(|d| d.fixes.iter().map(|f| format!("{} ({:?})", f.title, f.applicability)).collect())
        .unwrap_or_default()
}

/// Markdown reference: one entry per rule.
pub fn rules_reference() -> String {
    let mut out = String::new();
    let rules = all_rules();
    let _ = writeln!(out, "# Rule reference\n");
    let _ = writeln!(
        out,
        "Generated from the rules' metadata by `cargo run -- reference` (checked by `tests/docs.rs`). \
         {} rules. Messages are SGLang's own (Apache-2.0, SGLang project); explanations are ours.\n",
        rules.len()
    );
    for rule in &rules {
        let r: RuleInfo = rule.info();
        let _ = writeln!(out, "## {} `{}`\n", r.code, r.name);
        let kind = if r.exception.is_empty() { "warning".to_string() } else { format!("`{}`", r.exception) };
        let until = r.until.map(|u| format!(" to {u}")).unwrap_or_else(|| " on".to_string());
        if let Sglang::Transfer { exception, .. } = rule.sglang {
            // a PD pair condition: both servers start; it shows when they connect
            let kind = if exception.is_empty() { "no exception".to_string() } else { format!("`{exception}`") };
            let severity = format!("{:?}", r.severity).to_lowercase();
            let _ = writeln!(out, "- SGLang: `{}` `{}`, {kind} when the servers of a PD pair run together ({severity}; each server starts on its own), read in SGLang {}{until}", r.file, r.function, r.since);
        } else if let Sglang::Runtime { exception, .. } = rule.sglang {
            // after resolution, on the GPU node: preflight's warning, not a recorded verdict
            let kind = if exception.is_empty() { "a CUDA error (no message of SGLang's)".to_string() } else { format!("`{exception}`") };
            let _ = writeln!(out, "- Preflight's runtime warning (not a recorded verdict): SGLang fails in `{}` `{}` with {kind} when the server starts on the GPU node, read in SGLang {}{until}", r.file, r.function, r.since);
        } else {
            let _ = writeln!(out, "- SGLang: `{}` `{}` ({}), {kind}, SGLang {}{until}", r.file, r.function, r.warning_site.unwrap_or(r.site), r.since);
        }
        if !r.template.is_empty() {
            let _ = writeln!(out, "- Message: `{}`", r.template.replace('`', "'"));
        }
        if !r.flags.is_empty() {
            let _ = writeln!(out, "- Flags: {}", r.flags.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", "));
        }
        let _ = writeln!(out, "\n{}\n", r.explanation);
        let fixes = fixes_offered(rule);
        if !fixes.is_empty() {
            let _ = writeln!(out, "Fixes offered:");
            for f in fixes {
                let _ = writeln!(out, "- {f}");
            }
            let _ = writeln!(out);
        }
        if !r.example_bad.is_empty() {
            let _ = writeln!(out, "Before:\n\n```sh\n{}\n```\n", example_command(r.example_bad));
        }
        if !r.example_good.is_empty() {
            let _ = writeln!(out, "After:\n\n```sh\n{}\n```\n", example_command(r.example_good));
        }
    }
    other_codes(&mut out);
    redirected_codes(&mut out);
    out
}

/// Codes that rules had before they moved family; the old code still finds the rule.
fn redirected_codes(out: &mut String) {
    let _ = writeln!(out, "\n## Redirected codes\n");
    let _ = writeln!(out, "The LoRA rules were part of the validation family; their old codes still name them.\n");
    let _ = writeln!(out, "| old code | code |\n| --- | --- |");
    for (old, new) in crate::rules::lora::REDIRECTS {
        let _ = writeln!(out, "| {old} | {new} |");
    }
}

/// The codes of the shell reader, the front end and the argparse layer (not rules).
fn other_codes(out: &mut String) {
    let _ = writeln!(out, "## Other codes
");
    let _ = writeln!(
        out,
        "Codes emitted while reading the text, by `sglang serve`'s front end, the `--config` loader and \
         argparse, before any rule runs (`src/codes.rs`). \"sglang\" ones are SGLang's own errors and \
         warnings, with its exact message.\n"
    );
    let _ = writeln!(out, "| code | stage | from | meaning |\n| --- | --- | --- | --- |");
    for c in crate::codes::CODES {
        let stage = format!("{:?}", c.stage).to_lowercase();
        let origin = format!("{:?}", c.origin).to_lowercase();
        let _ = writeln!(out, "| {} | {stage} | {origin} | {} |", c.code, c.meaning.replace('|', "\\|"));
    }
}

/// Markdown matrix: which flags exclude each other, and by which rule.
pub fn compatibility_matrix() -> String {
    let mut pairs: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for r in all_rules() {
        for (i, a) in r.flags.iter().enumerate() {
            for b in r.flags.iter().skip(i + 1) {
                let key = if a <= b { (*a, *b) } else { (*b, *a) };
                pairs.entry(key).or_default().push(r.code);
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(out, "# Compatibility matrix\n");
    let _ = writeln!(
        out,
        "Pairs of flags that constrain each other in SGLang's checks, with the rules that relate them \
         (see `rules.md`). Generated from the rules' metadata; {} pairs.\n",
        pairs.len()
    );
    let _ = writeln!(out, "| flag | flag | rules |\n| --- | --- | --- |");
    for ((a, b), codes) in &pairs {
        let _ = writeln!(out, "| `{a}` | `{b}` | {} |", codes.join(", "));
    }
    out
}
