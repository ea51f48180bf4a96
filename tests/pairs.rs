//! PD pairs: a prefill and a decode server in one text are checked together for what the KV
//! transfer needs both to agree on (`src/pairs.rs`, rules PAIR001-PAIR010).
//!
//! Each mismatch below is a specification: the paste, the code, the command it is reported on
//! (0-based), the text its span covers, its severity; then applying each of its fixes with
//! edits makes the finding go away, and nothing else of the paste changes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice, clippy::panic)]

use sglang_preflight::diagnostic::{apply_edits, Applicability, Diagnostic, Severity};
use sglang_preflight::hardware::{Hardware, PRESETS};
use sglang_preflight::{check, CheckOptions, Report};

const P: &str = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill";
const D: &str = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1";

fn pair_findings(report: &Report) -> Vec<(usize, &Diagnostic)> {
    report
        .commands
        .iter()
        .enumerate()
        .flat_map(|(i, c)| c.diagnostics.iter().filter(|d| d.code.starts_with("PAIR")).map(move |d| (i, d)))
        .collect()
}

fn codes(text: &str) -> Vec<String> {
    pair_findings(&check(text, &CheckOptions::default())).iter().map(|(_, d)| d.code.clone()).collect()
}

/// `text` has exactly one pair finding: `code` on command `on`, over `span_text`, with
/// `severity`; each of its fixes with edits, applied, removes it.
fn assert_finding(text: &str, code: &str, on: usize, span_text: &str, severity: Severity) {
    let report = check(text, &CheckOptions::default());
    let found = pair_findings(&report);
    assert_eq!(found.len(), 1, "{text}\nexpected only {code}, got {:?}", found.iter().map(|(_, d)| &d.code).collect::<Vec<_>>());
    let (i, d) = found[0];
    assert_eq!((d.code.as_str(), i, d.severity), (code, on, severity), "{text}");
    assert_eq!(&text[d.span.start..d.span.end], span_text, "{code} span");
    assert!(report.commands.iter().all(|c| c.accepted), "a pair finding does not change SGLang's verdict on each server");
    let with_edits: Vec<_> = d.fixes.iter().filter(|f| !f.edits.is_empty()).collect();
    for fix in with_edits {
        let fixed = apply_edits(text, &fix.edits).unwrap();
        assert!(!codes(&fixed).contains(&code.to_string()), "{code}: after fix `{}`:\n{fixed}", fix.title);
    }
}

#[test]
fn a_matching_pair_has_no_pair_finding() {
    assert_eq!(codes(&format!("{P}\n{D}")), Vec::<String>::new());
    let same = "--page-size 16 --kv-cache-dtype fp8_e4m3 --disaggregation-transfer-backend nixl --tp-size 2";
    assert_eq!(codes(&format!("{P} {same}\n{D} {same}")), Vec::<String>::new());
}

#[test]
fn a_lone_prefill_or_decode_server_has_no_pair_finding() {
    assert_eq!(codes(&format!("{P} --page-size 64")), Vec::<String>::new());
    assert_eq!(codes(&format!("{D} --page-size 64")), Vec::<String>::new());
    // two decode servers are not a pair
    assert_eq!(codes(&format!("{D} --page-size 64\n{D} --port 30002")), Vec::<String>::new());
}

#[test]
fn different_models_are_a_warning_on_the_decode_model_path() {
    let text = format!("{P}\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode decode --port 30001");
    assert_finding(&text, "PAIR001", 1, "--model-path Qwen/Qwen3-8B", Severity::Warning);
}

#[test]
fn transfer_backends_must_match() {
    // not written on the decode server: the finding is on its launcher
    assert_finding(&format!("{P} --disaggregation-transfer-backend nixl\n{D}"), "PAIR002", 1, "python -m sglang.launch_server", Severity::Error);
    assert_finding(&format!("{P}\n{D} --disaggregation-transfer-backend nixl"), "PAIR002", 1, "--disaggregation-transfer-backend nixl", Severity::Error);
    // mooncake_tcp resolves to mooncake (with TCP forced)
    assert_eq!(codes(&format!("{P} --disaggregation-transfer-backend mooncake_tcp\n{D}")), Vec::<String>::new());
}

#[test]
fn page_sizes_must_match() {
    assert_finding(&format!("{P} --page-size 16\n{D} --page-size 32"), "PAIR003", 1, "--page-size 32", Severity::Error);
    assert_finding(&format!("{P} --page-size 16\n{D}"), "PAIR003", 1, "python -m sglang.launch_server", Severity::Error);
    // fa4 moves the page size only on SM100 (overrides._fa4_page_constraint): on this H100 the
    // resolved page size is final, so the mismatch is certain
    assert_finding(&format!("{P} --page-size 16 --attention-backend fa4\n{D}"), "PAIR003", 1, "python -m sglang.launch_server", Severity::Error);
    // trtllm_mha moves a page size of 3 to 64 (overrides._mla_backend_page_constraints): 64 is compared
    assert_finding(&format!("{P} --page-size 3 --attention-backend trtllm_mha\n{D} --page-size 16"), "PAIR003", 1, "--page-size 16", Severity::Error);
}

#[test]
fn kv_cache_dtypes_must_match_as_strings() {
    assert_finding(&format!("{P} --kv-cache-dtype fp8_e5m2\n{D}"), "PAIR004", 1, "python -m sglang.launch_server", Severity::Error);
    // SGLang compares the strings: bf16 and bfloat16 differ
    assert_finding(&format!("{P} --kv-cache-dtype bf16\n{D} --kv-cache-dtype bfloat16"), "PAIR004", 1, "--kv-cache-dtype bfloat16", Severity::Error);
    // auto is fp8_e4m3 for a model with an FP8 KV cache: the model decides
    assert_finding(&format!("{P} --kv-cache-dtype fp8_e4m3\n{D}"), "PAIR004", 1, "python -m sglang.launch_server", Severity::Warning);
}

#[test]
fn decode_pp_size_is_the_prefills_or_1() {
    assert_finding(&format!("{P} --pp-size 2\n{D} --pp-size 4"), "PAIR005", 1, "--pp-size 4", Severity::Error);
    assert_eq!(codes(&format!("{P} --pp-size 2\n{D}")), Vec::<String>::new());
}

#[test]
fn different_attention_tp_is_a_warning_with_advice() {
    let text = format!("{P} --tp 2\n{D} --tp 4");
    assert_finding(&text, "PAIR006", 1, "--tp 4", Severity::Warning);
    let report = check(&text, &CheckOptions::default());
    let (_, d) = pair_findings(&report)[0];
    assert!(d.fixes.iter().all(|f| f.applicability == Applicability::Display));
    // attention TP is tp / attention DP: tp 4 with attention DP 2 is attention TP 2
    assert_eq!(codes(&format!("{P} --tp 2\n{D} --tp 4 --enable-dp-attention --dp 2")), Vec::<String>::new());
}

#[test]
fn decode_dcp_needs_prefill_attention_cp_1_and_no_kv_sharding() {
    let p = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode prefill --tp-size 8 --trust-remote-code --page-size 64";
    let d = "python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode decode --port 30001 --tp-size 8 --trust-remote-code --page-size 64";
    // prefill attention TP 8 / CP 2 = 4, as the decode server's, so only the CP layout differs
    let d4 = d.replace("--tp-size 8", "--tp-size 4");
    assert_finding(&format!("{p} --attn-cp-size 2\n{d4} --dcp-size 2"), "PAIR007", 1, "--dcp-size 2", Severity::Error);
    assert_finding(&format!("{p} --enable-kv-cache-sharding\n{d} --dcp-size 2"), "PAIR008", 0, "--enable-kv-cache-sharding", Severity::Error);
}

#[test]
fn eagle_on_the_decode_server_only_is_a_warning() {
    let p = "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill";
    let d = "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode decode --port 30001";
    let spec = "--speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B";
    assert_finding(&format!("{p}\n{d} {spec}"), "PAIR010", 1, "--speculative-algorithm EAGLE", Severity::Warning);
    assert_eq!(codes(&format!("{p} {spec}\n{d} {spec}")), Vec::<String>::new());
    // NGRAM needs nothing from the prefill server
    assert_eq!(codes(&format!("{p}\n{d} --speculative-algorithm NGRAM")), Vec::<String>::new());
}

#[test]
fn two_prefill_servers_on_one_bootstrap_port_clash() {
    let q = "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill --port 30002 --base-gpu-id 2";
    assert_finding(&format!("{P}\n{q}"), "PAIR009", 1, "python -m sglang.launch_server", Severity::Warning);
    assert_finding(&format!("{P} --disaggregation-bootstrap-port 9000\n{q} --disaggregation-bootstrap-port 9000"), "PAIR009", 1, "--disaggregation-bootstrap-port 9000", Severity::Warning);
    // a bootstrap port that is another server's HTTP port
    assert_finding(&format!("{P} --disaggregation-bootstrap-port 30001\n{D}"), "PAIR009", 0, "--disaggregation-bootstrap-port 30001", Severity::Warning);
    // two clashing prefill servers get different free ports
    let report = check(&format!("{P}\n{q}\n{q} --port 30003"), &CheckOptions::default());
    let ports: Vec<&str> = pair_findings(&report).iter().map(|(_, d)| d.fixes[0].edits[0].replacement.as_str()).collect();
    assert_eq!(ports, vec![" --disaggregation-bootstrap-port 8999", " --disaggregation-bootstrap-port 9000"]);
    // different hosts, a host the shell expands, or the nodes of one multi-node prefill server
    // do not clash
    assert_eq!(codes(&format!("{P} --host '$IP'\n{q} --host '$IP'")), Vec::<String>::new());
    assert_eq!(codes(&format!("{P} --host 10.0.0.1\n{q} --host 10.0.0.2")), Vec::<String>::new());
    let node = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --dist-init-addr 10.0.0.1:5000 --nnodes 2 --tp-size 16";
    assert_eq!(codes(&format!("{node} --node-rank 0\n{node} --node-rank 1")), Vec::<String>::new());
}

#[test]
fn two_pairs_in_one_paste_are_paired_by_model() {
    let q_p = "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill --port 30010 --disaggregation-bootstrap-port 9000 --page-size 32";
    let q_d = "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode decode --port 30011 --page-size 32";
    // each pair agrees; across the pairs the page sizes differ, which is no finding
    assert_eq!(codes(&format!("{P}\n{q_p}\n{D}\n{q_d}")), Vec::<String>::new());
    // a mismatch inside one pair is reported on that pair's decode server only
    let report = check(&format!("{P}\n{q_p}\n{D} --page-size 8\n{q_d}"), &CheckOptions::default());
    let found: Vec<(usize, &str)> = pair_findings(&report).iter().map(|(i, d)| (*i, d.code.as_str())).collect();
    assert_eq!(found, vec![(2, "PAIR003")]);
}

#[test]
fn two_pairs_of_one_model_are_paired_by_position() {
    // prefill A, decode A, prefill B, decode B: each decode server with the prefill server before it
    let a = "--page-size 16";
    let b = "--page-size 32 --disaggregation-bootstrap-port 9000 --port 30010";
    let text = format!("{P} {a}\n{D} {a}\n{P} {b}\n{D} {b} --port 30011");
    assert_eq!(codes(&text), Vec::<String>::new());
}

#[test]
fn a_compose_file_pasted_with_both_servers() {
    let text = "services:
  prefill:
    image: lmsysorg/sglang:latest
    command: python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --page-size 16 --host 0.0.0.0
  decode:
    image: lmsysorg/sglang:latest
    command: python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --host 0.0.0.0
";
    assert_finding(text, "PAIR003", 1, "python3 -m sglang.launch_server", Severity::Error);
    let report = check(text, &CheckOptions::default());
    let (_, d) = pair_findings(&report)[0];
    assert!(d.message.contains("(line 4)"), "names the prefill server's line: {}", d.message);
}

#[test]
fn pair_findings_are_the_same_on_every_hardware_preset_and_never_panic() {
    let text = format!("{P} --page-size 16 --kv-cache-dtype fp8_e5m2 --pp-size 2 --tp 2\n{D} --pp-size 4 --tp 4 --page-size 999999999999999999999 --disaggregation-bootstrap-port 9223372036854775807");
    for hw in std::iter::once(Hardware::default_h100()).chain(PRESETS.iter().cloned()) {
        let report = check(&text, &CheckOptions { hardware: hw, ..Default::default() });
        for (_, d) in pair_findings(&report) {
            for fix in &d.fixes {
                assert!(apply_edits(&text, &fix.edits).is_some());
            }
        }
    }
}

#[test]
fn servers_found_in_several_texts_of_one_file_pair_up() {
    // e.g. two services of a manifest, each extracted as its own text: the caller checks each,
    // sets each server's line in the file and pairs them all
    let (_, mut prefill) = sglang_preflight::check::check_with_pd_servers(&format!("{P} --page-size 16"), &CheckOptions::default());
    let (_, mut decode) = sglang_preflight::check::check_with_pd_servers(D, &CheckOptions::default());
    assert_eq!((prefill.len(), decode.len()), (1, 1));
    prefill[0].line = 12;
    decode[0].line = 30;
    let servers = vec![prefill.remove(0), decode.remove(0)];
    let found = sglang_preflight::pairs::pair_findings(&servers);
    assert_eq!(found.len(), 1);
    let f = &found[0];
    assert_eq!((f.diagnostic.code.as_str(), f.on, f.between), ("PAIR003", 1, (0, 1)));
    assert!(f.diagnostic.message.contains("(line 12)"), "{}", f.diagnostic.message);
    // the first fix edits the decode server's text, the second the prefill server's
    assert_eq!(f.fix_on, vec![1, 0]);
    assert_eq!(apply_edits(D, &f.diagnostic.fixes[0].edits).unwrap(), format!("{D} --page-size 16"));
    assert_eq!(apply_edits(&format!("{P} --page-size 16"), &f.diagnostic.fixes[1].edits).unwrap(), format!("{P} --page-size 1"));
}

#[test]
fn many_servers_pair_in_linear_time() {
    // 300 deployments of one model, each prefill server followed by its decode server
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!("{P} --page-size {} --port {} --disaggregation-bootstrap-port {}\n", i + 1, 20000 + 2 * i, 40000 + i));
        text.push_str(&format!("{D} --page-size {} --port {}\n", i + 1, 20001 + 2 * i));
    }
    assert_eq!(codes(&text), Vec::<String>::new());
}

#[test]
fn a_router_naming_another_bootstrap_port_is_a_warning() {
    let p = format!("{P} --port 30000 --disaggregation-bootstrap-port 9001");
    let router = |port: &str| format!("python -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 {port} --decode http://127.0.0.1:30001");
    let text = format!("{p}\n{D}\n{}", router("8998"));
    let report = check(&text, &CheckOptions::default());
    let found = pair_findings(&report);
    assert_eq!(found.len(), 1);
    let (on, d) = found[0];
    assert_eq!((d.code.as_str(), on, d.severity, &text[d.span.start..d.span.end]), ("PAIR011", 0, Severity::Warning, "--disaggregation-bootstrap-port 9001"));
    assert!(d.message.contains("(line 3)"));
    // either fix aligns them: the prefill server's flag, or the router's word
    for fix in &d.fixes {
        let fixed = apply_edits(&text, &fix.edits).unwrap();
        assert!(!codes(&fixed).contains(&"PAIR011".to_string()), "{fixed}");
    }
    assert_eq!(codes(&format!("{p}\n{D}\n{}", router("9001"))), Vec::<String>::new());
    // a router entry no prefill server in the paste answers is not guessed at
    assert_eq!(codes(&format!("{p}\n{D}\n{}", router("8998").replace(":30000", ":31000"))), Vec::<String>::new());
}

/// A file's launches are paired across its snippets (a compose file's services, a page's code
/// blocks), with the file's line numbers, and a fix for the other server edits that server's
/// bytes in the file.
#[test]
fn servers_in_different_snippets_of_a_file_are_paired() {
    use sglang_preflight::sources::{check_file, Kind};
    let file = "services:\n  prefill:\n    command: python3 -m sglang.launch_server --model-path m --disaggregation-mode prefill --page-size 64\n  decode:\n    command: >\n      python3 -m sglang.launch_server --model-path m\n      --disaggregation-mode decode --page-size 32\n";
    let report = check_file("compose.yaml", Kind::Yaml, file, &sglang_preflight::CheckOptions::default());
    let findings: Vec<_> = report.commands.iter().flat_map(|c| c.command.diagnostics.iter().map(move |d| (c.line, d))).filter(|(_, d)| d.code == "PAIR003").collect();
    assert_eq!(findings.len(), 1, "{findings:?}");
    let (line, d) = findings[0];
    assert_eq!(line, 6, "on the decode server");
    assert!(d.message.contains("(line 3)"), "the prefill server's line in the file: {}", d.message);
    assert_eq!(&file[d.span.start..d.span.end], "--page-size 32");
    // Each fix edits its own server's bytes in the file, and the finding is gone afterwards.
    for fix in &d.fixes {
        let fixed = sglang_preflight::diagnostic::apply_edits(file, &fix.edits).unwrap();
        assert_eq!(fixed.matches("--page-size 64").count() + fixed.matches("--page-size 32").count(), 2, "{fixed}");
        let again = check_file("compose.yaml", Kind::Yaml, &fixed, &sglang_preflight::CheckOptions::default());
        assert!(again.commands.iter().all(|c| c.command.diagnostics.iter().all(|d| d.code != "PAIR003")), "{fixed}");
    }
}
