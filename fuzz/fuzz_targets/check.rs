//! The whole check: command text plus an optional YAML config file (after
//! `props::YAML_SEPARATOR`). Spans in bounds and on char boundaries, fixes apply, applying a
//! fix removes (or moves) the diagnostic it fixes, the same input gives the same report.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../props.rs"]
#[allow(dead_code)]
mod props;

fuzz_target!(|data: &[u8]| {
    let (text, yaml) = props::split_input(data);
    let opts = props::options(yaml.as_deref());
    let problems = props::check_properties(&text, &opts, 4);
    if !problems.is_empty() {
        panic!("{:?} yaml={:?}\n{problems:#?}", text, yaml);
    }
});
