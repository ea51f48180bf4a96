//! The generated reference and compatibility matrix must be current.
//! Regenerate with `cargo run -- reference --write`.

use std::path::Path;

fn assert_current(path: &str, generated: String) {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let committed = std::fs::read_to_string(&full).unwrap_or_default();
    assert!(committed == generated, "{path} is out of date: run `cargo run -- reference --write`");
}

#[test]
fn rule_reference_is_current() {
    assert_current("docs/rules.md", sglang_preflight::docs::rules_reference());
}

#[test]
fn compatibility_matrix_is_current() {
    assert_current("docs/compatibility.md", sglang_preflight::docs::compatibility_matrix());
}

#[test]
fn release_history_is_current() {
    assert_current("docs/changes.md", sglang_preflight::changes::history());
}

#[test]
fn rule_ranges_are_current() {
    assert_current("docs/releases/rule-ranges.md", sglang_preflight::docs::rule_ranges());
}
