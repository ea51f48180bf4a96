//! A report never implies that SGLang accepts what was not checked: the hooks of SGLang's
//! pipeline this build does not model are counted on every command, and the CLI says so.
#![allow(clippy::indexing_slicing, clippy::unwrap_used)]

use sglang_preflight::{check, CheckOptions};

const L: &str = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct";
/// A model neither the catalog nor a given config knows.
const UNKNOWN: &str = "python -m sglang.launch_server --model-path /models/private-model";

/// The distinct steps of the release's pipeline (`data/sglang-0.5.23/pipeline.json`, all
/// branches) that this build does not model.
fn distinct_unmodelled_hooks_in_pipeline() -> usize {
    fn walk(steps: &serde_json::Value, out: &mut Vec<String>) {
        for s in steps.as_array().into_iter().flatten() {
            if let Some(name) = s["step"].as_str() {
                out.push(name.to_string());
            }
            walk(&s["then"], out);
            walk(&s["else"], out);
        }
    }
    let data: serde_json::Value = serde_json::from_str(include_str!("../data/sglang-0.5.23/pipeline.json")).unwrap();
    let mut hooks = Vec::new();
    walk(&data["steps"], &mut hooks);
    hooks.retain(|h| !sglang_preflight::rules::pipeline::is_modelled(h));
    hooks.sort_unstable();
    hooks.dedup();
    hooks.len()
}

#[test]
fn every_command_counts_the_hooks_not_modelled() {
    // A model nothing is known of: the model hooks' paths are not modelled.
    let report = check(&format!("{UNKNOWN} --tp-size 2"), &CheckOptions::default());
    let c = &report.commands[0];
    assert!(c.accepted);
    let want = distinct_unmodelled_hooks_in_pipeline();
    assert_eq!(c.not_modelled_hooks, want);
    // A catalog model whose path through them is modelled: none left.
    let report = check(&format!("{L} --tp-size 2"), &CheckOptions::default());
    assert_eq!(report.commands[0].not_modelled_hooks, 0);
}

#[test]
fn a_dummy_model_stops_resolution_early_and_help_runs_nothing() {
    let full = check(L, &CheckOptions::default()).commands[0].not_modelled_hooks;
    let dummy = check("python -m sglang.launch_server --model-path dummy", &CheckOptions::default()).commands[0].not_modelled_hooks;
    // The dummy model returns before most hooks: fewer of them are left unmodelled (none, once
    // all its hooks are modelled).
    assert!(dummy < full || full == 0, "dummy {dummy}, full {full}");
    let help = check(&format!("{L} --help"), &CheckOptions::default());
    assert_eq!(help.commands[0].not_modelled_hooks, 0);
}

#[test]
fn the_cli_says_what_was_not_run_next_to_an_accept() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sglang-preflight"))
        .args(["check", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            if let Some(stdin) = child.stdin.as_mut() {
                stdin.write_all(format!("{UNKNOWN} --tp-size 2").as_bytes())?;
            }
            child.wait_with_output()
        })
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    assert!(out.contains("would accept this"), "{out}");
    let want = format!("{} of SGLang's start-up hooks are not modelled yet", distinct_unmodelled_hooks_in_pipeline());
    assert!(out.contains(&want), "{out}");
}

/// Which of `handle_kv4_compatibility`'s backend asserts is reached depends on the model's
/// attention (MLA or not) and on an FA4 prefill: for a model nothing is known of, the report
/// names the pair that applies; for a known model the assert is run (none is listed).
#[test]
fn kv4_backend_asserts_not_run_are_the_ones_on_this_path() {
    let sites = |cmd: &str| -> Vec<&'static str> {
        let r = check(cmd, &CheckOptions { hardware: sglang_preflight::hardware::Hardware::preset("b200", None).unwrap(), ..Default::default() });
        r.commands[0].not_run.iter().map(|n| n.site).filter(|s| s.starts_with("kv_cache_hook.handle_kv4_compatibility#")).collect()
    };
    let unknown_model = "python -m sglang.launch_server --model-path /models/private-model";
    let plain = sites(&format!("{unknown_model} --kv-cache-dtype fp4_mx_block16 --attention-backend triton"));
    assert_eq!(plain, ["kv_cache_hook.handle_kv4_compatibility#11", "kv_cache_hook.handle_kv4_compatibility#12"]);
    let fa4 = sites(&format!("{unknown_model} --kv-cache-dtype fp4_mx_block16 --prefill-attention-backend fa4 --decode-attention-backend triton"));
    assert_eq!(fa4, ["kv_cache_hook.handle_kv4_compatibility#9", "kv_cache_hook.handle_kv4_compatibility#10"]);
    let known = sites(&format!("{L} --kv-cache-dtype fp4_mx_block16 --attention-backend triton"));
    assert!(known.is_empty(), "{known:?}");
}
