//! Properties over every fixture command (tests/fixtures/<release>/*.jsonl) and the bad-input corpus
//! (tests/cases/bad_input/): spans inside the input and on char boundaries, fixes that apply
//! (`apply_edits` returns Some) and remove what they fix, the same report twice. The checks
//! themselves live in `fuzz/props.rs`, shared with the fuzz targets. Linear time in the input is
//! measured by the criterion benchmarks (`benches/check.rs`, 100 KB against 1 MB of each input
//! shape), not asserted here: wall-clock ratios on a shared machine fail now and then.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

#[path = "../fuzz/props.rs"]
#[allow(dead_code)]
mod props;

use serde_json::Value;
use sglang_preflight::CheckOptions;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// (id, command, config files) of a fixture.
type Fixture = (String, String, Vec<(String, String)>);

/// Every fixture.
fn fixtures() -> Vec<Fixture> {
    let mut paths: Vec<_> = std::fs::read_dir(root().join("tests/fixtures").join(sglang_preflight::schema::DEFAULT_VERSION)).unwrap().filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    let mut out = Vec::new();
    for p in paths.iter().filter(|p| p.extension().and_then(|e| e.to_str()) == Some("jsonl")) {
        for line in std::fs::read_to_string(p).unwrap().lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
            let Some(cmd) = v.get("cmd").and_then(Value::as_str) else { continue };
            let id = v.get("id").and_then(Value::as_str).unwrap_or("?").to_string();
            let files = v
                .get("files")
                .and_then(Value::as_object)
                .map(|o| o.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect())
                .unwrap_or_default();
            out.push((id, cmd.to_string(), files));
        }
    }
    out
}

fn corpus() -> Vec<(String, String, Option<String>)> {
    let dir = root().join("tests/cases/bad_input");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(Result::ok).map(|e| e.path()).collect();
    names.sort();
    names
        .into_iter()
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("txt"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap().to_string();
            let text = std::fs::read_to_string(&p).unwrap();
            let yaml = std::fs::read_to_string(p.with_extension("yaml")).ok();
            (name, text, yaml)
        })
        .collect()
}

#[test]
fn fixture_commands_keep_the_properties() {
    let mut problems = Vec::new();
    let all = fixtures();
    assert!(!all.is_empty());
    for (id, cmd, files) in &all {
        let mut opts = CheckOptions::default();
        for (k, v) in files {
            opts.config_files.insert(k.clone(), v.clone());
        }
        for p in props::check_properties(cmd, &opts, usize::MAX) {
            problems.push(format!("{id}: {p}"));
        }
        for p in props::shell_properties(cmd) {
            problems.push(format!("{id}: {p}"));
        }
    }
    assert!(problems.is_empty(), "{} problems over {} fixtures:\n{}", problems.len(), all.len(), problems.join("\n"));
}

#[test]
fn bad_input_corpus_keeps_the_properties() {
    let mut problems = Vec::new();
    for (name, text, yaml) in corpus() {
        let opts = props::options(yaml.as_deref());
        for p in props::check_properties(&text, &opts, 50) {
            problems.push(format!("{name}: {p}"));
        }
        for p in props::shell_properties(&text) {
            problems.push(format!("{name}: {p}"));
        }
        for p in props::argparse_properties(&text, yaml.as_deref()) {
            problems.push(format!("{name}: {p}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Hand-written hostile snippets (the fuzz targets find more; these run on every `cargo test`).
#[test]
fn hostile_snippets_keep_the_properties() {
    let m = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct";
    let snippets = [
        format!("{m} --tp-size \u{201c}2\u{201d} \u{2014}dp 2 --x\u{200b}y"),
        format!("{m} `\r\n --tp 2 `\r\n --dp 2"),
        format!("{m} --served-model-name 'é\u{301}' --tp=\u{ff12}"),
        format!("{m} --json-model-override-args '{{\"a\": [1, {{\"b\": \"\u{1f600}\"}}]}}'"),
        format!("{m} --tp\u{a0}2 --dp\u{2011}size 2 --\u{1b}[0mtp 2\0"),
        format!("A=1 B=$A {m} --tp $((1+1)) $(echo --dp 2) \"${{X:-é}}\""),
        format!("{m} --config cfg.yaml --config cfg.yaml"),
        "sglang serve é --model-type \u{2014}".to_string(),
        "sglang serve --model-path=\u{feff}x --tp=".to_string(),
        "'\"\\`$(${{".to_string(),
        "é".repeat(100),
    ];
    let mut problems = Vec::new();
    for s in &snippets {
        for yaml in [None, Some("tp_size: 2\nmodel_path: é\n"), Some("- 1"), Some("a: &a [é, *a]")] {
            let opts = props::options(yaml);
            problems.extend(props::check_properties(s, &opts, 50).into_iter().map(|p| format!("{s:?}: {p}")));
            problems.extend(props::argparse_properties(s, yaml).into_iter().map(|p| format!("{s:?}: {p}")));
        }
        problems.extend(props::shell_properties(s).into_iter().map(|p| format!("{s:?}: {p}")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Found by the `check` fuzz target: the MP001 fix "Unquote the value so the shell splits it
/// into separate arguments" leaves the same MP001 (same code, start and message).
#[test]
fn fuzz_found_mp001_fix_keeps_the_diagnostic() {
    let text = format!(
        "python3 -m sglang.launch_server --model-path=\"meta-llama/Lla{}ma-3.1 --served-model-name='x y'",
        "\0".repeat(80)
    );
    let problems = props::check_properties(&text, &CheckOptions::default(), usize::MAX);
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Found by the `argparse` fuzz target in CI: `sglang serve MODEL --config cfg.yaml` whose file
/// holds `model-type: llm` leaves words from the file among the unknown ones, and their removal
/// fix spanned backwards (the file's words are not in argv order in the text).
#[test]
fn fuzz_found_unknown_words_from_the_config_file() {
    let problems = props::argparse_properties(" meta-llama/Llama-3.1-8B-Instruct --config cfg.yaml", Some("model-type: llm\n"));
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Found by the `check` fuzz target (a seed from the fixtures): PAR047 is SGLang's bare
/// `assert`, whose message is empty in SGLang too.
#[test]
fn fuzz_found_eplb_fixture() {
    let text = "python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --tp-size 2 --enable-eplb";
    let problems = props::check_properties(text, &props::options(None), 4);
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Found by the `check` fuzz target in CI: a command ending inside an unterminated quote
/// swallows flags that fixes append, so such fixes must be advice only.
#[test]
fn fuzz_found_append_fix_inside_unterminated_quote() {
    let text = "python -m sglang.launch_server --model-path Qwen/Qwen3-30B-A3B --moe-runner-backend lora_triton --lora-paths a=/x\"--lora-backend triton_v2 --init-expert-location foo";
    let problems = props::check_properties(text, &props::options(None), usize::MAX);
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Found by the `check` fuzz target: with `--model-path="a b"` the quotes are inside the flag
/// word, so the MP001 unquote fix must rewrite flag and value together.
#[test]
fn fuzz_found_mp001_fix_on_equals_form() {
    let text = "python3 -m sglang.launch_server --model-path=\"meta-llama/Llama-3.1-8B-Ins 0.5truct\" --tp=2";
    let problems = props::check_properties(text, &props::options(None), usize::MAX);
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Found by the `check` fuzz target: after `--` every word is positional, so a fix cannot add
/// flags by appending them.
#[test]
fn fuzz_found_append_after_double_dash() {
    let text = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --enable-return-aux-hidden-states --";
    let problems = props::check_properties(text, &props::options(None), usize::MAX);
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Found by the `shell` fuzz target: one word brace-expanded into hundreds, each starting an
/// unclosed `{`, made the unquoted-JSON check rescan the rest of the command per word
/// (1.4 s for this 1 KB input). The 1 MB versions are in tests/cases/bad_input (gen-1mb-*).
#[test]
fn fuzz_found_brace_words_with_open_json() {
    let data = std::fs::read(root().join("tests/cases/bad_input/fuzz-found/shell-brace-json-timeout.bin")).unwrap();
    let text = String::from_utf8_lossy(&data);
    let problems = props::shell_properties(&text);
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Found by the `check` fuzz target: a launch inside `bash -c "..."` whose fix writes a quoted
/// value (VAL028's --served-model-name '...'): inside the outer double quotes the inserted quotes
/// mean something else, so the fix left the error in place. Such fixes are advice there.
#[test]
fn fuzz_found_quoted_fix_inside_bash_c_string() {
    let data = std::fs::read(root().join("tests/cases/bad_input/fuzz-found/check-bash-c-quoted-fix.bin")).unwrap();
    let (text, yaml) = props::split_input(&data);
    let problems = props::check_properties(&text, &props::options(yaml.as_deref()), usize::MAX);
    assert!(problems.is_empty(), "{problems:#?}");
    // and a plain fix inside the same kind of string stays an edit
    let cmd = "bash -c \"python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --dcp-size 2 --disaggregation-decode-retraction-backup host_pool\"";
    let report = sglang_preflight::check(cmd, &sglang_preflight::CheckOptions::default());
    let edits: usize = report.commands[0].diagnostics.iter().flat_map(|d| &d.fixes).map(|f| f.edits.len()).sum();
    assert!(edits > 0, "{:#?}", report.commands[0].diagnostics);
}
