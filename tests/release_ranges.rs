//! Every rule's releases, decided again from each carried release's own JSON files
//! (`data/sglang-<v>/raise-sites.jsonl`, `warn-sites.jsonl`, `function-map.json`), independently
//! of the build's tables: a rule applies to a release exactly when that release has the site the
//! rule names (the same function, or the `ServerArgs` method that function was in a release
//! before the hook modules; a template equal to the rule's message, else starting with it), and
//! in that release the rule reports that site's own exception and message. The reviewable table
//! is `docs/releases/rule-ranges.md` (kept current by `tests/docs.rs`).

use serde_json::Value;
use sglang_preflight::release::{self, SiteRef};
use sglang_preflight::rules::{all_rules, Sglang};
use std::collections::BTreeMap;
use std::path::Path;

struct Sites {
    /// function -> (exception, template) of its sites, in file order.
    by_function: BTreeMap<String, Vec<(String, String)>>,
}

fn read_sites(path: &Path) -> Option<Sites> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut by_function: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).ok()?;
        let id = v.get("id").and_then(Value::as_str)?;
        let function = id.split('#').next()?.to_string();
        let exception = v.get("exc_type").and_then(Value::as_str).unwrap_or("").to_string();
        let template = v.get("message_template").and_then(Value::as_str).unwrap_or("").to_string();
        by_function.entry(function).or_default().push((exception, template));
    }
    Some(Sites { by_function })
}

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The function `function` was in this release, by its `function-map.json` (a nested function
/// of a mapped one maps with it).
fn mapped(function: &str, map: &Value) -> Option<String> {
    let parts: Vec<&str> = function.split('.').collect();
    for cut in (2..=parts.len()).rev() {
        let head = parts.get(..cut)?.join(".");
        if let Some(was) = map.get("functions").and_then(|f| f.get(&head)).and_then(Value::as_str) {
            let rest = parts.get(cut..).unwrap_or(&[]);
            return Some(std::iter::once(was).chain(rest.iter().copied()).collect::<Vec<_>>().join("."));
        }
    }
    None
}

/// The site `site` names in these sites, read as the rules read them: the template equal to the
/// message if any, else those starting with it; the `nth`.
fn find(sites: &Sites, map: &Value, site: &SiteRef) -> Option<(String, String)> {
    let own = sites.by_function.get(site.function);
    let list = match own {
        Some(l) => l,
        None => sites.by_function.get(&mapped(site.function, map)?)?,
    };
    // a placeholder read through another receiver (`{self.x}` in 0.5.18, `{cfg.x}`) is the same text
    let message = words(&release::receiverless(site.message));
    let text = |t: &str| words(&release::receiverless(t));
    let exact: Vec<&(String, String)> = list.iter().filter(|(_, t)| text(t) == message).collect();
    let found: Vec<&(String, String)> =
        if !exact.is_empty() || message.is_empty() { exact } else { list.iter().filter(|(_, t)| text(t).starts_with(&message)).collect() };
    found.get(usize::from(site.nth)).map(|s| (*s).clone())
}

#[test]
fn every_rule_range_is_each_releases_own_source() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut problems = Vec::new();
    let mut decided = 0usize;
    for r in release::all() {
        let dir = data.join(format!("sglang-{}", r.version));
        let raises = read_sites(&dir.join("raise-sites.jsonl"));
        let warns = read_sites(&dir.join("warn-sites.jsonl"));
        let map: Value = std::fs::read_to_string(dir.join("function-map.json")).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(Value::Null);
        // The build reads the same files: a release has tables exactly when it has the files.
        let has_table = !r.data.raise_sites.is_empty();
        if raises.is_some() != has_table {
            problems.push(format!("{}: raise-sites.jsonl present {} but the build's table is empty {}", r.version, raises.is_some(), r.data.raise_sites.is_empty()));
        }
        for rule in all_rules() {
            let expected = match &rule.sglang {
                Sglang::Raises(s) => match &raises {
                    Some(sites) => find(sites, &map, s),
                    None => continue,
                },
                Sglang::Reraised { site, by } => match &raises {
                    Some(sites) => match (find(sites, &map, site), find(sites, &map, by)) {
                        (Some((_, template)), Some((exception, _))) => Some((exception, template)),
                        _ => None,
                    },
                    None => continue,
                },
                Sglang::Warns(s) => match &warns {
                    Some(sites) => find(sites, &map, s).map(|(_, t)| (String::new(), t)),
                    None => continue,
                },
                // Not a raise or warning site: SGLang's Python, a transfer, a failure after start-up.
                Sglang::Python { .. } | Sglang::Transfer { .. } | Sglang::Runtime { .. } => continue,
            };
            decided += 1;
            let ours = if rule.applies_to(r) { rule.sglang_text(r).map(|(e, t)| (e.to_string(), t.to_string())) } else { None };
            if ours != expected {
                problems.push(format!("{} in {}: the release's files say {expected:?}, the rule {ours:?}", rule.code, r.version));
            }
        }
    }
    assert!(decided > 0);
    assert!(problems.is_empty(), "{} differences:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_table_covers_every_rule_and_release() {
    let table = sglang_preflight::docs::rule_ranges_table();
    assert_eq!(table.len(), all_rules().len());
    for (rule, cells) in &table {
        assert_eq!(cells.len(), release::all().count(), "{}", rule.code);
    }
    // The newest release decides every rule (tests/layers.rs: each finds its site there), but
    // a check only an older release has, which finds its site there.
    let newest = release::DEFAULT_VERSION;
    for (rule, cells) in &table {
        let last = cells.iter().find(|(v, _)| *v == newest).map(|(_, c)| c.clone());
        let older_only = !matches!(last, Some(sglang_preflight::docs::RangeCell::Site { .. }))
            && cells.iter().any(|(v, c)| *v != newest && matches!(c, sglang_preflight::docs::RangeCell::Site { .. }));
        if !matches!(rule.sglang, Sglang::Transfer { .. }) && !older_only {
            assert!(matches!(last, Some(sglang_preflight::docs::RangeCell::Site { .. })), "{}: {last:?}", rule.code);
        }
    }
}

#[test]
fn intermediate_releases_stay_parser_only_until_their_pipeline_agrees() {
    // 0.5.19 to 0.5.22 carry raise sites and a pipeline order (for the ranges) but their
    // start-up checks are not replayed: `status.json` says so, and reports say parser only.
    for v in ["0.5.19", "0.5.20", "0.5.22"] {
        let r = release::get(v);
        assert!(r.is_some_and(|r| !r.data.raise_sites.is_empty() && !r.data.pipeline.is_empty() && !r.data.checks_modelled), "{v}");
    }
    assert!(release::get(release::DEFAULT_VERSION).is_some_and(|r| r.data.checks_modelled));
}

/// The `{expressions}` of a message template (the f-string's fields, `!r` / `:spec` left out).
fn placeholders(template: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0usize, String::new());
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if depth == 0 && chars.peek() == Some(&'{') => {
                chars.next();
            }
            '{' => {
                if depth > 0 {
                    cur.push(c);
                }
                depth += 1;
            }
            '}' if depth == 0 => {}
            '}' => {
                depth -= 1;
                if depth == 0 {
                    let expr = cur.split("!r").next().unwrap_or("").split(':').next().unwrap_or("").to_string();
                    out.push(expr);
                    cur.clear();
                } else {
                    cur.push(c);
                }
            }
            _ if depth > 0 => cur.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn each_releases_message_renders_from_the_values_the_hook_gives() {
    // A hook passes the values of the newest release's placeholders; an older release's
    // template must ask for the same values (read through another receiver at most:
    // `self.tp_size` in 0.5.18 for `cfg.tp_size`), or the rule would print `{...}` there.
    let newest = release::get(release::DEFAULT_VERSION);
    assert!(newest.is_some());
    let Some(newest) = newest else { return };
    // A hook may also pass an older release's name for a value (`("model_arch", ..)` beside
    // `("hf_config.architectures[0]", ..)`): accepted when the file declaring the rule passes
    // an argument under that exact name.
    let sources = rule_sources();
    let passes = |code: &str, placeholder: &str| {
        let declared = format!("code: \"{code}\"");
        let arg = format!("(\"{placeholder}\",");
        sources.iter().any(|text| text.contains(&declared) && text.contains(&arg))
    };
    let mut problems = Vec::new();
    for rule in all_rules() {
        let Some((_, new_template)) = rule.sglang_text(newest) else { continue };
        let wanted: Vec<String> = placeholders(new_template).iter().map(|p| release::receiverless(p)).collect();
        for r in release::with_sites() {
            if !rule.applies_to(r) {
                continue;
            }
            let Some((_, template)) = rule.sglang_text(r) else { continue };
            for p in placeholders(template) {
                if !wanted.contains(&release::receiverless(&p)) && !passes(rule.code, &p) {
                    problems.push(format!("{} in {}: {{{p}}} is not one of {}'s placeholders", rule.code, r.version, newest.version));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The text of every file under src/rules/.
fn rule_sources() -> Vec<String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    let mut out = Vec::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules"), &mut out);
    out
}
