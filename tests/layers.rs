//! The rule layer's shape: families mirror SGLang's hook modules and import only the shared
//! layer (`src/rules/shared/`), never each other, as SGLang's hook modules import its shared
//! modules rather than each other.

use std::path::Path;

const FAMILIES: &[&str] =
    &["attention", "boundary_reduction", "cuda_graph", "dllm", "expert_pack", "hicache", "kv_cache", "kv_shard", "layernorm_sp", "lora", "mamba", "megakernel", "mega_moe", "memory", "model", "model_config", "model_path", "monokernel", "moe", "parallel", "pd_disaggregation", "platform", "runtime", "serving", "speculative", "validation"];

fn family_of(path: &Path, rules: &Path) -> Option<String> {
    let rel = path.strip_prefix(rules).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?.trim_end_matches(".rs").to_string();
    FAMILIES.contains(&first.as_str()).then_some(first)
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn families_import_the_shared_layer_not_each_other() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let mut files = Vec::new();
    rust_files(&rules, &mut files);
    let mut problems = Vec::new();
    for file in &files {
        let Some(family) = family_of(file, &rules) else { continue };
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for other in FAMILIES.iter().filter(|f| **f != family) {
            for pattern in [format!("super::{other}"), format!("crate::rules::{other}"), format!("super::super::{other}")] {
                if text.contains(&pattern) {
                    problems.push(format!("{} (family {family}) uses {pattern}", file.display()));
                }
            }
        }
    }
    assert!(!files.is_empty());
    assert!(problems.is_empty(), "families import each other:\n{}", problems.join("\n"));
}

#[test]
fn every_family_file_is_known() {
    // A new family must be added to FAMILIES above (and to `rules::all_rules`).
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
    let mut unknown: Vec<String> = std::fs::read_dir(&rules)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(|n| n.trim_end_matches(".rs").to_string()))
        .filter(|n| !FAMILIES.contains(&n.as_str()) && !["mod", "pipeline", "shared"].contains(&n.as_str()))
        .collect();
    unknown.sort();
    unknown.dedup();
    assert!(unknown.is_empty(), "files in src/rules that are no known family: {unknown:?}");
}

#[test]
fn old_lora_codes_redirect() {
    let rule = sglang_preflight::rules::by_code("VAL080");
    assert_eq!(rule.map(|r| r.code), Some("LORA005"));
    assert!(sglang_preflight::rules::all_rules().iter().all(|r| !r.code.starts_with("VAL") || !sglang_preflight::rules::lora::REDIRECTS.iter().any(|(old, _)| *old == r.code)));
}

#[test]
fn rules_name_their_sites_by_message_not_by_order() {
    use sglang_preflight::rules::{all_rules, Sglang};
    let mut problems = Vec::new();
    for rule in all_rules() {
        // every release whose sites are read (its checks replayed or not): a reference that
        // starts several messages there would give that release's range the wrong site
        for release in sglang_preflight::release::with_sites() {
            let (site, warning) = match &rule.sglang {
                Sglang::Raises(s) | Sglang::Reraised { site: s, .. } => (s, false),
                Sglang::Warns(s) => (s, true),
                Sglang::Python { .. } | Sglang::Transfer { .. } | Sglang::Runtime { .. } => continue,
            };
            if rule.applies_to(release) && !release.names_by_content(site, warning) {
                problems.push(format!("{} in {}: {:?} starts more than one message", rule.code, release.version, site.message));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_rule_finds_its_site_in_the_newest_release() {
    // The release tables keep only the sites of functions the rules name (build.rs): a rule
    // whose site is missing would silently never fire.
    let newest = sglang_preflight::release::get(sglang_preflight::release::DEFAULT_VERSION);
    assert!(newest.is_some());
    let Some(newest) = newest else { return };
    // (A check only an older release has, SGLang 0.5.18's NemotronH triton refusal say, names
    // that release's site: it must find it there.)
    let older_only = |r: &&sglang_preflight::rules::Rule| sglang_preflight::release::with_sites().any(|rel| rel.version != newest.version && r.applies_to(rel));
    let missing: Vec<&str> = sglang_preflight::rules::all_rules().iter().filter(|r| !r.applies_to(newest) && !older_only(r)).map(|r| r.code).collect();
    assert!(missing.is_empty(), "rules whose site no release's table has (the newest's, or an older release's for its own check): {missing:?}");
}
