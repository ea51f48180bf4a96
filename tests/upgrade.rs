//! `sglang-preflight upgrade FROM TO`: what moving a command between releases changes for it,
//! as a user reads it. The verdicts on each side are the recorded ones (tests/fixtures/<release>);
//! the notes and fixes are ours.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use sglang_preflight::diagnostic::apply_edits;
use sglang_preflight::upgrade::{upgrade, NoteKind};
use sglang_preflight::CheckOptions;
use std::io::Write;
use std::process::{Command, Stdio};

/// Recorded in tests/fixtures/0.5.18 and 0.5.23 (`unknown-mamba-scheduler-strategy`): 0.5.18
/// accepts it, 0.5.23 rejects it.
const OLD: &str = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --mamba-scheduler-strategy auto";

fn run(args: &[&str], stdin: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sglang-preflight")).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn a_renamed_flag_gets_a_note_sglangs_error_and_a_respelling() {
    let text = format!("docker run lmsysorg/sglang:v0.5.18 {OLD} --tp 2  # comment");
    let u = upgrade(&text, "0.5.18", "0.5.23", &CheckOptions::default()).unwrap();
    let c = &u.commands[0];
    assert!(c.accepted_before && !c.accepted_after);
    let n = c.notes.iter().find(|n| n.kind == NoteKind::Renamed).unwrap();
    assert_eq!(n.finding.as_ref().unwrap().message, "unrecognized arguments: --mamba-scheduler-strategy auto");
    let fixed = apply_edits(&text, &n.fixes[0].edits).unwrap();
    assert_eq!(fixed, text.replace("--mamba-scheduler-strategy", "--mamba-radix-cache-strategy"));
    // The fixed command is accepted by 0.5.23 (its parser, at least).
    let after = upgrade(&fixed, "0.5.18", "0.5.23", &CheckOptions::default()).unwrap();
    assert!(after.commands[0].accepted_after, "{:?}", after.commands[0]);
}

#[test]
fn the_cli_prints_the_notes_and_exits_as_the_target_release_judges() {
    let (code, out) = run(&["upgrade", "0.5.18", "0.5.23"], OLD);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("command 1: SGLang 0.5.18 accepted → SGLang 0.5.23 rejected\n"), "{out}");
    assert!(out.contains("  1:78: --mamba-scheduler-strategy is now spelled --mamba-radix-cache-strategy (same setting).\n"), "{out}");
    assert!(out.contains("      fix: Write --mamba-radix-cache-strategy\n"), "{out}");
    // 0.5.18's start-up checks are replayed too: no parser-only caveat
    assert!(!out.contains("only the command line of SGLang 0.5.18 is replayed here"), "{out}");
    let (code, out) = run(&["upgrade", "0.5.18", "0.5.23", "--json"], "python -m sglang.launch_server --model-path m --tp-size 2");
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["commands"][0]["accepted_after"], true);
    let (code, _) = run(&["upgrade", "0.4.0", "0.5.23"], OLD);
    assert_eq!(code, 2);
}
