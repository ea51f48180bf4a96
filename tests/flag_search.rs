//! The builder's search (a query in, flags out, best first) and its choices that the command at
//! hand would make SGLang reject (a command in, one verdict per choice out).
#![allow(clippy::indexing_slicing, clippy::unwrap_used)]

use sglang_preflight::flag_search::{choice_verdicts, search, MatchKind};
use sglang_preflight::hardware::Hardware;
use sglang_preflight::CheckOptions;

fn schema() -> &'static sglang_preflight::schema::Schema {
    sglang_preflight::schema::get(sglang_preflight::schema::DEFAULT_VERSION).unwrap()
}

fn top(query: &str, n: usize) -> Vec<(String, MatchKind)> {
    search(schema(), query).into_iter().take(n).map(|m| (m.option, m.kind)).collect()
}

#[test]
fn an_exact_name_ranks_first_then_prefixes() {
    let found = top("tp-size", 3);
    assert_eq!(found[0], ("--tp-size".to_string(), MatchKind::Exact));
    assert!(found[1..].iter().all(|(_, k)| *k > MatchKind::Exact));
    // `--page-size` is exact; `--page-size-...` flags would only be prefixes
    assert_eq!(top("--page-size", 1), [("--page-size".to_string(), MatchKind::Exact)]);
    // a prefix of one name only
    assert_eq!(top("disaggregation-decode-retract", 1)[0].1, MatchKind::Prefix);
}

#[test]
fn finds_a_flag_by_its_field_name_and_its_vllm_name() {
    assert_eq!(top("tp_size", 1), [("--tp-size".to_string(), MatchKind::Exact)]);
    assert_eq!(top("mem_fraction_static", 1), [("--mem-fraction-static".to_string(), MatchKind::Exact)]);
    let m = search(schema(), "--tensor-parallel-size");
    assert_eq!((m[0].option.as_str(), m[0].kind, m[0].vllm), ("--tp-size", MatchKind::Vllm, Some("--tensor-parallel-size")));
    assert_eq!(top("max-model-len", 1), [("--context-length".to_string(), MatchKind::Vllm)]);
    assert_eq!(top("gpu_memory_utilization", 1), [("--mem-fraction-static".to_string(), MatchKind::Vllm)]);
}

#[test]
fn words_then_names_then_help_text() {
    // "retraction backup" starts words of one flag's name
    let found = top("retraction backup", 1);
    assert_eq!(found, [("--disaggregation-decode-retraction-backup".to_string(), MatchKind::Word)]);
    let all = search(schema(), "weights");
    let kinds: Vec<MatchKind> = all.iter().map(|m| m.kind).collect();
    let mut sorted = kinds.clone();
    sorted.sort();
    assert_eq!(kinds, sorted, "ranked best first");
    assert!(kinds.contains(&MatchKind::Help), "--model-path's help speaks of weights");
    assert!(all.iter().any(|m| m.option == "--model-path" && m.kind == MatchKind::Help));
    assert!(search(schema(), "  ").is_empty());
    assert!(search(schema(), "no-such-thing-at-all").is_empty());
}

#[test]
fn a_choice_the_hardware_rejects_carries_sglangs_error() {
    let text = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --tp 8";
    let opts = CheckOptions { hardware: Hardware::preset("a100", None).unwrap(), ..Default::default() };
    let verdicts = choice_verdicts(text, &opts, 0, "--attention-backend").unwrap();
    let mla = verdicts.iter().find(|v| v.choice == "trtllm_mla").unwrap();
    let r = mla.rejected.as_ref().unwrap();
    assert_eq!(r.code, "ATTN004");
    assert!(r.message.starts_with("TRTLLM MLA backend is only supported on Blackwell"), "{}", r.message);
    let triton = verdicts.iter().find(|v| v.choice == "triton").unwrap();
    assert!(triton.rejected.is_none(), "{:?}", triton.rejected);
    assert!(verdicts.iter().all(|v| !v.current));
}

#[test]
fn a_choice_the_command_rejects_and_the_current_one() {
    // host_pool retraction needs --dcp-size 1: with --dcp-size 2 that choice is rejected
    let text = "python -m sglang.launch_server --model-path m --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup cpu_tensor";
    let verdicts = choice_verdicts(text, &CheckOptions::default(), 0, "--disaggregation-decode-retraction-backup").unwrap();
    let current: Vec<&str> = verdicts.iter().filter(|v| v.current).map(|v| v.choice.as_str()).collect();
    assert_eq!(current, ["cpu_tensor"]);
    let host = verdicts.iter().find(|v| v.choice == "host_pool").unwrap();
    assert_eq!(host.rejected.as_ref().map(|r| r.code.as_str()), Some("KV029"));
    // no choices, or several values: nothing to judge
    assert!(choice_verdicts(text, &CheckOptions::default(), 0, "--tp-size").is_none());
}
