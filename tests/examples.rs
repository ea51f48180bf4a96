//! The page's examples (src/examples.rs) are the recorded cases of tests/cases/examples.jsonl,
//! command for command and on the same hardware, so the conformance test holds our verdict on
//! each to SGLang's; and each runs on a preset this build has.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use serde_json::Value;
use sglang_preflight::examples::EXAMPLES;

#[test]
fn every_example_is_a_recorded_case() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cases: Vec<Value> = std::fs::read_to_string(format!("{root}/tests/cases/examples.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let fixtures = std::fs::read_to_string(format!("{root}/tests/fixtures/{}/examples.jsonl", sglang_preflight::schema::DEFAULT_VERSION)).unwrap();
    assert_eq!(cases.len(), EXAMPLES.len(), "one case per example");
    for e in EXAMPLES {
        let case = cases.iter().find(|c| c["id"] == e.id).unwrap_or_else(|| panic!("{} has no case", e.id));
        assert_eq!(case["cmd"], e.command, "{}", e.id);
        assert_eq!(case["profile"], e.gpu, "{}", e.id);
        assert!(fixtures.lines().any(|l| serde_json::from_str::<Value>(l).unwrap()["id"] == e.id), "{} is not recorded", e.id);
        assert!(sglang_preflight::hardware::Hardware::preset(e.gpu, None).is_some(), "{}", e.gpu);
    }
}
