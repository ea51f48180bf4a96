//! The front end (`sglang serve` / `--config` YAML) and argparse over the whitespace-split
//! words of arbitrary text, for both entry points. Input: words, optionally followed by
//! `props::YAML_SEPARATOR` and a YAML config named by `--config cfg.yaml` in the words.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../props.rs"]
#[allow(dead_code)]
mod props;

fuzz_target!(|data: &[u8]| {
    let (text, yaml) = props::split_input(data);
    let problems = props::argparse_properties(&text, yaml.as_deref());
    if !problems.is_empty() {
        panic!("{:?} yaml={:?}\n{problems:#?}", text, yaml);
    }
});
