//! The explain view: a command in, one row per flag as written out, each with SGLang's help
//! text and default, the value SGLang runs with, the findings on it and the checks not run.
#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::panic, clippy::string_slice)]

use sglang_preflight::explain::{explain, ExplainedFlag, RunsWith};
use sglang_preflight::resolved::UnknownReason;
use sglang_preflight::resolved_report::Source;
use sglang_preflight::CheckOptions;

const L: &str = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct";

fn flags(text: &str) -> Vec<ExplainedFlag> {
    let e = explain(text, &CheckOptions::default());
    assert_eq!(e.commands.len(), 1, "one command in {text:?}");
    e.commands.into_iter().next().unwrap().flags
}

#[test]
fn every_flag_as_written_with_its_span_help_and_default() {
    let text = format!("{L} --tp 2 --log-level=debug --enable-metrics");
    let rows = flags(&text);
    let written: Vec<&str> = rows.iter().map(|f| &text[f.span.start..f.span.end]).collect();
    assert_eq!(written, ["--model-path meta-llama/Llama-3.1-8B-Instruct", "--tp 2", "--log-level=debug", "--enable-metrics"]);
    let tp = &rows[1];
    assert_eq!((tp.written.as_str(), tp.option.as_str(), tp.dest.as_str(), tp.value.as_deref()), ("--tp", "--tp-size", "tp_size", Some("2")));
    assert_eq!(tp.help.as_deref(), Some("The tensor parallelism size."));
    assert_eq!(tp.default.as_deref(), Some("1"));
    let span = tp.option_span.unwrap();
    assert_eq!(&text[span.start..span.end], "--tp");
    let log = &rows[2];
    assert_eq!((log.written.as_str(), log.value.as_deref(), log.default.as_deref()), ("--log-level", Some("debug"), Some("'info'")));
    assert_eq!(rows[3].value, None, "a switch has no value");
}

#[test]
fn runs_with_the_resolved_value_and_says_where_it_came_from() {
    let rows = flags(&format!("{L} --tp-size 2 --log-level debug"));
    match &rows[1].runs_with {
        RunsWith::Resolved { repr, source, set_by } => assert_eq!((repr.as_str(), *source, *set_by), ("2", Source::Command, None)),
        other => panic!("tp_size is reported as resolved: {other:?}"),
    }
    // log_level is not among the reported fields: argparse's value, with no step that changes it
    match &rows[2].runs_with {
        RunsWith::Parsed { repr, may_change } => {
            assert_eq!(repr, "'debug'");
            assert!(may_change.is_empty(), "{may_change:?}");
        }
        other => panic!("log_level runs with what argparse gives: {other:?}"),
    }
}

#[test]
fn a_value_a_start_up_step_derives_names_the_step() {
    // `--enable-dp-attention` is deprecated: a step turns it into --attn-dp-size and clears it
    let rows = flags(&format!("{L} --tp-size 2 --dp-size 2 --enable-dp-attention"));
    let dpa = rows.iter().find(|f| f.option == "--enable-dp-attention").unwrap();
    match &dpa.runs_with {
        RunsWith::Resolved { source: Source::Derived, set_by: Some(step), .. } => assert!(step.contains("dp_attention"), "{step}"),
        other => panic!("derived by a step: {other:?}"),
    }
    assert!(dpa.findings.iter().any(|d| d.code == "ARG009"), "the deprecation warning is on the flag: {:?}", dpa.findings);
}

#[test]
fn a_value_not_known_here_says_why_and_checks_not_run_are_listed() {
    // a model nothing is known of: the backend SGLang runs with is not known (the model hooks,
    // which may change it, are not modelled for it; what else they read decides the wording)
    let rows = flags("python -m sglang.launch_server --model-path /models/private-model --attention-backend fa3");
    let ab = &rows[1];
    assert!(
        matches!(ab.runs_with, RunsWith::Unknown { reason: UnknownReason::ModelConfig | UnknownReason::UnknownValue, step } if step.starts_with("model_hook.")),
        "{:?}",
        ab.runs_with
    );
    // a catalog model whose hooks are modelled: the backend written is the one it runs with
    let rows = flags(&format!("{L} --attention-backend fa3"));
    assert!(matches!(rows[1].runs_with, RunsWith::Resolved { source: Source::Command, .. }), "{:?}", rows[1].runs_with);
    // a model nothing is known of (not in the catalog, no config given)
    let rows = flags("python -m sglang.launch_server --model-path /models/private-model --speculative-algorithm EAGLE --tp 8");
    let spec = rows.iter().find(|f| f.option == "--speculative-algorithm").unwrap();
    assert!(!spec.checks_not_run.is_empty(), "EAGLE's checks that need the model's config did not run");
    let model = rows.iter().find(|f| f.option == "--model-path").unwrap();
    assert!(model.checks_not_run.is_empty(), "no check that did not run names --model-path: {:?}", model.checks_not_run);
}

#[test]
fn a_rejected_command_runs_with_nothing_and_the_error_is_on_its_flag() {
    let text = format!("{L} --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool");
    let e = explain(&text, &CheckOptions::default());
    assert!(!e.commands[0].accepted);
    let rows = &e.commands[0].flags;
    assert!(rows.iter().all(|f| matches!(f.runs_with, RunsWith::Rejected)));
    let backup = rows.iter().find(|f| f.option == "--disaggregation-decode-retraction-backup").unwrap();
    assert_eq!(backup.findings.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["KV029"]);
    let model = rows.iter().find(|f| f.option == "--model-path").unwrap();
    assert!(model.findings.is_empty());
}

#[test]
fn a_repeated_flag_is_listed_each_time_and_the_earlier_is_overridden() {
    let rows = flags(&format!("{L} --tp 2 --port 1 --tp-size 4"));
    let tps: Vec<(bool, Option<&str>)> = rows.iter().filter(|f| f.dest == "tp_size").map(|f| (f.overridden, f.value.as_deref())).collect();
    assert_eq!(tps, [(true, Some("2")), (false, Some("4"))]);
}

#[test]
fn several_commands_and_wrappers() {
    let text = "# two servers\nexport A=1\npython -m sglang.launch_server --model-path a --tp 2 &\nsglang serve b --port 31000\n";
    let e = explain(text, &CheckOptions::default());
    assert_eq!(e.commands.len(), 2);
    let second: Vec<&str> = e.commands[1].flags.iter().map(|f| &text[f.span.start..f.span.end]).collect();
    assert_eq!(second, ["b", "--port 31000"], "`sglang serve`'s model is its positional --model-path");
    assert_eq!(e.commands[1].flags[0].option, "--model-path");
    assert!(explain("echo hi", &CheckOptions::default()).commands.is_empty());
}

#[test]
fn an_older_release_is_parser_only() {
    let opts = CheckOptions { sglang_version: "0.5.20".into(), ..Default::default() };
    let e = explain(&format!("{L} --tp 2"), &opts);
    assert!(e.commands[0].parser_only);
    assert!(matches!(&e.commands[0].flags[1].runs_with, RunsWith::ParserOnly { repr } if repr == "2"));
}

#[test]
fn the_cli_prints_text_and_json() {
    let run = |args: &[&str]| {
        use std::io::Write;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sglang-preflight"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(format!("{L} --tp 2").as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (code, text) = run(&["explain"]);
    assert_eq!(code, Some(0));
    assert!(text.contains("--tp 2\n    --tp-size (written --tp)\n    The tensor parallelism size.\n    default: 1\n    runs with: 2 (from the command)\n"), "{text}");
    let (code, json) = run(&["explain", "--json", "--gpu", "a100"]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["hardware"], "8×A100");
    assert_eq!(v["commands"][0]["flags"][1]["runs_with"], serde_json::json!({"status": "resolved", "repr": "2", "source": "command", "set_by": null}));
}

#[test]
fn spans_stay_in_the_text_on_hostile_input() {
    let texts = [
        "# ünïcödé 🚀\npython -m sglang.launch_server --model-path “m” --tp-size 2 --tp-size=4 --reasoning_parser qwen3 --no-such-flag",
        "bash -c \"python -m sglang.launch_server --model-path 'm x' --tp 2\"",
        "python -m sglang.launch_server --model-path 'm --tp 2",
        "sglang serve --tp",
        "python -m sglang.launch_server --model-path m -- --tp 2",
        "python -m sglang.launch_server --help --tp 2",
    ];
    for text in texts {
        for c in explain(text, &CheckOptions::default()).commands {
            for f in c.flags {
                let whole = text.get(f.span.start..f.span.end);
                assert!(whole.is_some(), "{text:?}: span {:?} is not in the text", f.span);
                if let Some(o) = f.option_span {
                    assert_eq!(text.get(o.start..o.end), Some(f.written.as_str()), "{text:?}");
                    assert!(f.span.start <= o.start && o.end <= f.span.end, "{text:?}");
                }
            }
        }
    }
}
