//! The rule reference and the compatibility matrix, generated from the rules' metadata
//! (`docs/rules.md`, `docs/compatibility.md`; kept current by `tests/docs.rs`).

use crate::check::{check, CheckOptions};
use crate::rules::{all_rules, Rule, RuleInfo, Sglang};
use std::collections::BTreeMap;
use std::fmt::Write;

const LAUNCH: &str = "python -m sglang.launch_server ";

/// The command an example stands for: the args after the launcher, or a whole command when it
/// starts with an environment assignment or a launcher (as `tests/metadata.rs` reads them).
pub(crate) fn example_command(example: &str) -> String {
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

pub(crate) fn fixes_offered(rule: &Rule) -> Vec<String> {
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
    // A check only releases whose start-up checks are not replayed have: the releases with its site.
    let ranges: std::collections::HashMap<&str, String> = rule_ranges_table().iter().map(|(rule, cells)| (rule.code, range_text(cells))).collect();
    for rule in &rules {
        let r: RuleInfo = rule.info();
        let _ = writeln!(out, "## {} `{}`\n", r.code, r.name);
        let kind = if r.exception.is_empty() { "warning".to_string() } else { format!("`{}`", r.exception) };
        let until = match r.until {
            Some(u) if u == r.since => " only".to_string(),
            Some(u) => format!(" to {u}"),
            None => " on".to_string(),
        };
        let (since, until) = match ranges.get(r.code) {
            Some(range) if r.since.is_empty() => (format!("{range} (start-up checks not replayed yet)"), String::new()),
            _ => (r.since.to_string(), until),
        };
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
            let _ = writeln!(out, "- SGLang: `{}` `{}` ({}), {kind}, SGLang {since}{until}", r.file, r.function, r.warning_site.unwrap_or(r.site));
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

/// Each pair of flags one rule names together (the smaller flag first), with the rules.
pub fn flag_pairs() -> BTreeMap<(&'static str, &'static str), Vec<&'static str>> {
    let mut pairs: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for r in all_rules() {
        for (i, a) in r.flags.iter().enumerate() {
            for b in r.flags.iter().skip(i + 1) {
                let key = if a <= b { (*a, *b) } else { (*b, *a) };
                pairs.entry(key).or_default().push(r.code);
            }
        }
    }
    pairs
}

/// Markdown matrix: which flags exclude each other, and by which rule.
pub fn compatibility_matrix() -> String {
    let pairs = flag_pairs();
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

/// How a rule stands in one carried release, read from that release's own sites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RangeCell {
    /// The release has the rule's site, with this message template (and exception).
    Site { exception: &'static str, template: &'static str },
    /// The release's sites are read and the rule's site is not among them.
    Absent,
    /// Not decided from this release's data: it has no site table of that kind (raise sites
    /// for a raise, warning sites for a warning).
    NoData,
}

/// Each rule's standing in every carried release, oldest release first: the rule applies where
/// the release has the site the rule names (same function, or for a release before the hook
/// modules the `ServerArgs` method that function was; same message template).
pub fn rule_ranges_table() -> Vec<(&'static Rule, Vec<(&'static str, RangeCell)>)> {
    let mut releases: Vec<&'static crate::release::Release> = crate::release::all().collect();
    releases.reverse();
    all_rules()
        .into_iter()
        .map(|rule| {
            let cells = releases
                .iter()
                .map(|r| {
                    let has_raises = !r.data.raise_sites.is_empty();
                    let has_warns = !r.data.warn_sites.is_empty();
                    let cell = match rule.sglang {
                        Sglang::Transfer { read_in, .. } => match rule.sglang_text(r) {
                            Some((exception, template)) if r.version == read_in => RangeCell::Site { exception, template },
                            _ => RangeCell::NoData,
                        },
                        Sglang::Warns(_) if !has_warns => RangeCell::NoData,
                        Sglang::Raises(_) | Sglang::Reraised { .. } | Sglang::Python { .. } if !has_raises => RangeCell::NoData,
                        _ => match rule.sglang_text(r).filter(|_| rule.applies_to(r)) {
                            Some((exception, template)) => RangeCell::Site { exception, template },
                            None => RangeCell::Absent,
                        },
                    };
                    (r.version, cell)
                })
                .collect();
            (rule, cells)
        })
        .collect()
}

/// `docs/releases/rule-ranges.md`: every rule's releases, as each release's source decides.
pub fn rule_ranges() -> String {
    let table = rule_ranges_table();
    let mut releases: Vec<&'static crate::release::Release> = crate::release::all().collect();
    releases.reverse();
    let mut out = String::new();
    let _ = writeln!(out, "# Rule ranges by release\n");
    let _ = writeln!(
        out,
        "Generated by `cargo run -- reference --write` from each release's raise and warning sites \
         (`data/sglang-<version>/raise-sites.jsonl`, `warn-sites.jsonl`; checked current by `tests/docs.rs`, and \
         against the JSON files themselves by `tests/release_ranges.rs`). A rule applies to a release when the \
         release has the site the rule names: the same SGLang function (for 0.5.18, before the hook modules, the \
         `ServerArgs` method that function was, `data/sglang-0.5.18/function-map.json`) and a message template \
         that starts with the rule's message. In each release the rule reports that release's own exception and \
         message.\n"
    );
    let _ = writeln!(out, "`yes`: the site is there with the newest release's message (placeholders may read other expressions, `{{self.tp_size}}` in 0.5.18 for `{{cfg.tp_size}}`: the same text is printed); `yes (a)`, `yes (b)`: there with another text (listed below the table); `-`: not there; `?`: not read (the release has no site table of that kind).\n");
    let _ = writeln!(out, "| release | raise sites | warning sites | start-up checks |\n| --- | --- | --- | --- |");
    for r in &releases {
        let checks = if r.data.checks_modelled { "replayed" } else { "not replayed (parser stage only)" };
        let yes_no = |b: bool| if b { "read" } else { "none" };
        let _ = writeln!(out, "| {} | {} | {} | {checks} |", r.version, yes_no(!r.data.raise_sites.is_empty()), yes_no(!r.data.warn_sites.is_empty()));
    }
    let _ = writeln!(out);
    let header: Vec<&str> = releases.iter().map(|r| r.version).collect();
    let _ = writeln!(out, "| rule | SGLang function | {} | range |", header.join(" | "));
    let _ = writeln!(out, "| --- | --- | {}--- |", "--- | ".repeat(header.len()));
    let mut differing: Vec<String> = Vec::new();
    for (rule, cells) in &table {
        let function = match rule.sglang {
            Sglang::Raises(s) | Sglang::Warns(s) | Sglang::Reraised { site: s, .. } => s.function,
            Sglang::Python { function, .. } | Sglang::Transfer { function, .. } | Sglang::Runtime { function, .. } => function,
        };
        let newest = cells.iter().rev().find_map(|(_, c)| match c {
            RangeCell::Site { exception, template } => Some((*exception, *template)),
            _ => None,
        });
        // the same text when only the placeholders' expressions differ (`{self.tp_size}` in
        // 0.5.18, `{cfg.tp_size}` later): the message printed is the same
        let same = |e: &str, t: &str| newest.is_some_and(|(ne, nt)| ne == e && message_text(nt) == message_text(t));
        // other messages, lettered in order of the releases (newest message first)
        let mut others: Vec<(&'static str, &'static str)> = Vec::new();
        let mut row = Vec::new();
        for (_, cell) in cells {
            row.push(match cell {
                RangeCell::Site { exception, template } if same(exception, template) => "yes".to_string(),
                RangeCell::Site { exception, template } => {
                    let i = others.iter().position(|o| o.0 == *exception && message_text(o.1) == message_text(template)).unwrap_or_else(|| {
                        others.push((exception, template));
                        others.len() - 1
                    });
                    format!("yes ({})", char::from(b'a' + (i as u8 % 26)))
                }
                RangeCell::Absent => "-".to_string(),
                RangeCell::NoData => "?".to_string(),
            });
        }
        let range = range_text(cells);
        let _ = writeln!(out, "| {} | `{}` | {} | {range} |", rule.code, function, row.join(" | "));
        if !others.is_empty() {
            let shown = |exception: &str, template: &str| {
                let exception = if exception.is_empty() { "warning".to_string() } else { format!("`{exception}`") };
                format!("{exception} `{}`", template.replace('`', "'"))
            };
            let newest_in = cells.iter().rev().find(|(_, c)| matches!(c, RangeCell::Site { .. })).map(|(v, _)| *v).unwrap_or("");
            let mut text = format!("- **{}**: {newest_in}: {}", rule.code, shown(newest.map(|n| n.0).unwrap_or(""), newest.map(|n| n.1).unwrap_or("")));
            for (i, (exception, template)) in others.iter().enumerate() {
                let versions: Vec<&str> = cells
                    .iter()
                    .filter(|(_, c)| matches!(c, RangeCell::Site { exception: e, template: t } if e == exception && message_text(t) == message_text(template)))
                    .map(|(v, _)| *v)
                    .collect();
                let _ = write!(text, "; ({}) {}: {}", char::from(b'a' + (i as u8 % 26)), versions.join(", "), shown(exception, template));
            }
            differing.push(text.replace('\n', " ").replace('|', "\\|"));
        }
    }
    let _ = writeln!(out, "\n## Messages that differ between releases\n");
    if differing.is_empty() {
        let _ = writeln!(out, "None.");
    }
    for d in differing {
        let _ = writeln!(out, "{d}");
    }
    out
}

/// A message template's text with each `{expression}` as `{}`, whitespace collapsed: two
/// templates with the same text print the same message for the same values.
pub fn message_text(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut depth = 0usize;
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if depth == 0 && chars.peek() == Some(&'{') => {
                chars.next();
                out.push_str("{{");
            }
            '}' if depth == 0 && chars.peek() == Some(&'}') => {
                chars.next();
                out.push_str("}}");
            }
            '{' => {
                if depth == 0 {
                    out.push_str("{}");
                }
                depth += 1;
            }
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `0.5.19 on`, `0.5.18 to 0.5.20`, `0.5.20, 0.5.22 on`, with `?` releases left out (not read):
/// the releases where the rule's site is, as runs of consecutive read releases.
pub(crate) fn range_text(cells: &[(&'static str, RangeCell)]) -> String {
    let read: Vec<(&str, bool)> = cells.iter().filter(|(_, c)| *c != RangeCell::NoData).map(|(v, c)| (*v, matches!(c, RangeCell::Site { .. }))).collect();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, (_, has)) in read.iter().enumerate() {
        if !has {
            continue;
        }
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => runs.push((i, i)),
        }
    }
    if runs.is_empty() {
        return "none read".to_string();
    }
    let last = read.len().saturating_sub(1);
    let name = |i: usize| read.get(i).map(|(v, _)| *v).unwrap_or("");
    runs.iter()
        .map(|&(a, b)| match (a == 0, b == last) {
            (true, true) => format!("all read ({} on)", name(a)),
            (_, true) => format!("{} on", name(a)),
            _ if a == b => name(a).to_string(),
            _ => format!("{} to {}", name(a), name(b)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}
