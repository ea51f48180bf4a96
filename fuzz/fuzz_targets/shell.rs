//! shell::parse + invocation::locate over arbitrary text: no panic, spans in the input and on
//! char boundaries (words, word maps, sub-spans, diagnostics, fixes), determinism.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../props.rs"]
#[allow(dead_code)]
mod props;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let problems = props::shell_properties(&text);
    if !problems.is_empty() {
        panic!("{:?}\n{problems:#?}", text);
    }
});
