#![allow(clippy::string_slice, clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
//! Unit tests for the argparse replay, the front end and did-you-mean.

use sglang_preflight::argparse::{parse_args, py_float, py_int};
use sglang_preflight::pyjson;
use sglang_preflight::diagnostic::{apply_edits, Applicability, Severity};
use sglang_preflight::frontend::{self, yaml, ConfigFiles};
use sglang_preflight::invocation::{Entry, Invocation};
use sglang_preflight::pyvalue::PyValue;
use sglang_preflight::schema;
use sglang_preflight::shell::Word;
use sglang_preflight::span::Span;
use sglang_preflight::suggest::{closest_choice, suggest_flag};
use sglang_preflight::{check, CheckOptions};

const M: &str = "meta-llama/Llama-3.1-8B-Instruct";

fn words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut at = 0;
    for w in text.split(' ').filter(|w| !w.is_empty()) {
        let start = text[at..].find(w).unwrap() + at;
        out.push(Word::verbatim(w, Span::new(start, start + w.len())));
        at = start + w.len();
    }
    out
}

fn parse(text: &str) -> sglang_preflight::argparse::Parsed {
    parse_args(schema::get("0.5.23").unwrap(), &words(text))
}

fn first_error(text: &str) -> String {
    parse(text).diagnostics.iter().find(|d| d.is_sglang_error()).map(|d| d.message.clone()).unwrap_or_default()
}

#[test]
fn typed_values_are_stored_like_argparse() {
    let p = parse(&format!("--model-path {M} --tp 2 --mem-fraction-static 1e-1 --numa-node 0 1 --mm-process-config {{}} --trust-remote-code --served-model-name=x --model-checksum"));
    assert!(p.diagnostics.iter().all(|d| !d.is_sglang_error()), "{:?}", p.diagnostics);
    let e = &p.namespace.explicit;
    assert_eq!(e["tp_size"].value, PyValue::Int(2));
    assert_eq!(e["tp_size"].written_as, "--tp");
    assert_eq!(e["tp_size"].option, "--tp-size");
    assert_eq!(e["mem_fraction_static"].value, PyValue::Float(0.1));
    assert_eq!(e["numa_node"].value, PyValue::List(vec![PyValue::Int(0), PyValue::Int(1)]));
    assert_eq!(e["mm_process_config"].value, PyValue::Dict(vec![]));
    assert_eq!(e["trust_remote_code"].value, PyValue::Bool(true));
    assert_eq!(e["served_model_name"].value, PyValue::Str("x".into()));
    assert_eq!(e["model_checksum"].value, PyValue::Str(String::new()));
}

#[test]
fn spans_cover_flag_and_values() {
    let text = format!("--model-path {M} --numa-node 0 1 --port=30001");
    let p = parse(&text);
    let s = &p.namespace.explicit["numa_node"];
    assert_eq!(&text[s.flag_span.start..s.flag_span.end], "--numa-node");
    assert_eq!(&text[s.value_span.unwrap().start..s.value_span.unwrap().end], "0 1");
    assert_eq!(&text[s.whole_span.start..s.whole_span.end], "--numa-node 0 1");
    let s = &p.namespace.explicit["port"];
    assert_eq!(&text[s.flag_span.start..s.flag_span.end], "--port");
    assert_eq!(&text[s.value_span.unwrap().start..s.value_span.unwrap().end], "30001");
}

#[test]
fn argparse_messages() {
    assert_eq!(first_error(&format!("--model-path {M} --tp x")), "argument --tp-size/--tensor-parallel-size: invalid int value: 'x'");
    assert_eq!(first_error(&format!("--model-path {M} --tp")), "argument --tp-size/--tensor-parallel-size: expected one argument");
    assert_eq!(first_error(&format!("--model-path {M} --trust-remote-code=true")), "argument --trust-remote-code: ignored explicit argument 'true'");
    assert_eq!(first_error("--tp 2"), "the following arguments are required: --model-path/--model");
    assert_eq!(first_error(&format!("--model-path {M} --foo 1 --bar")), "unrecognized arguments: --foo 1 --bar");
    // an error while consuming wins over unrecognized arguments that come earlier
    assert_eq!(first_error(&format!("--model-path {M} --foo --tp x")), "argument --tp-size/--tensor-parallel-size: invalid int value: 'x'");
    // ambiguity is raised while scanning, before any consumption error
    assert!(first_error(&format!("--model-path {M} --tp x --cuda-graph 4")).starts_with("ambiguous option: --cuda-graph could match --cuda-graph-config, "));
    assert_eq!(first_error(&format!("--model-path {M} --random-seed -1")), "");
    assert_eq!(first_error(&format!("--model-path {M} --max-total-tokens 1k")), "");
    assert_eq!(
        first_error(&format!("--model-path {M} --cuda-graph-config {{x}}")),
        "argument --cuda-graph-config: --cuda-graph-config must be JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
    );
    assert!(first_error(&format!("--model-path {M} --attention-backend Triton")).starts_with("argument --attention-backend: invalid choice: 'Triton' (choose from 'triton', "));
}

#[test]
fn deprecated_flags_warn_with_sglang_text() {
    let p = parse(&format!("--model-path {M} --enable-dp-attention"));
    let w = p.diagnostics.iter().find(|d| d.severity == Severity::Warning).unwrap();
    assert_eq!(w.message, "'--enable-dp-attention' is deprecated and will be removed in a future release. Use '--attn-dp-size <dp-size>' instead.");
    assert_eq!(p.namespace.explicit["enable_dp_attention"].value, PyValue::Bool(true));
}

#[test]
fn repeated_flag_last_wins_with_warning() {
    let p = parse(&format!("--model-path {M} --tp 2 --tp 4"));
    assert_eq!(p.namespace.explicit["tp_size"].value, PyValue::Int(4));
    assert!(p.diagnostics.iter().any(|d| d.code == "ARG010"));
}

#[test]
fn did_you_mean() {
    let s = schema::get("0.5.23").unwrap();
    let r = suggest_flag(s, "--reasoning_parser");
    assert_eq!(r[0].replacement.as_deref(), Some("--reasoning-parser"));
    assert_eq!(r[0].applicability, Applicability::Safe);
    assert_eq!(suggest_flag(s, "--max-model-len")[0].replacement.as_deref(), Some("--context-length"));
    assert_eq!(suggest_flag(s, "--max-num-seqs")[0].replacement.as_deref(), Some("--max-running-requests"));
    assert_eq!(suggest_flag(s, "--gpu-memory-utilization")[0].applicability, Applicability::Unsafe);
    let r = suggest_flag(s, "--enable-prefix-caching");
    assert_eq!(r[0].replacement, None);
    assert_eq!(suggest_flag(s, "--tp-szie")[0].replacement.as_deref(), Some("--tp-size"));
    assert_eq!(suggest_flag(s, "--trsut-remote-code")[0].replacement.as_deref(), Some("--trust-remote-code"));
    assert_eq!(suggest_flag(s, "--Trust_Remote_Code")[0].replacement.as_deref(), Some("--trust-remote-code"));
    assert_eq!(suggest_flag(s, "--enable-ep-moe")[0].applicability, Applicability::Display);
    assert!(suggest_flag(s, "--completely-unrelated-thing-xyz").is_empty());
    assert_eq!(closest_choice("Triton", &["triton".into(), "fa3".into()]).as_deref(), Some("triton"));
    assert_eq!(closest_choice("flashinfr", &["flashinfer".into(), "fa3".into()]).as_deref(), Some("flashinfer"));
    assert_eq!(closest_choice("zzzzzz", &["flashinfer".into(), "fa3".into()]), None);
}

#[test]
fn fixes_are_text_edits_that_apply() {
    let text = format!("python -m sglang.launch_server --model-path {M} --reasoning_parser qwen3 --max-model-len 4096");
    let r = check(&text, &CheckOptions::default());
    // two unknown flags: SGLang's one ARG008, and a finding of each flag's own with its fixes
    assert_eq!(r.commands[0].diagnostics.iter().filter(|d| d.code == "ARG008").count(), 1);
    assert_eq!(r.commands[0].diagnostics.iter().filter(|d| d.code == "ARG013").count(), 2);
    let edits: Vec<_> = r.commands[0].diagnostics.iter().filter(|d| d.code == "ARG013").flat_map(|d| d.fixes.iter()).filter(|f| f.applicability == Applicability::Safe).flat_map(|f| f.edits.clone()).collect();
    let fixed = apply_edits(&text, &edits).unwrap();
    assert_eq!(fixed, format!("python -m sglang.launch_server --model-path {M} --reasoning-parser qwen3 --context-length 4096"));
    assert!(check(&fixed, &CheckOptions::default()).commands[0].diagnostics.iter().all(|d| d.code != "ARG008"));
    // SGLang's one error applies every flag's first fix at once: the same text
    let arg008 = r.commands[0].diagnostics.iter().find(|d| d.code == "ARG008").unwrap();
    let all_at_once = arg008.fixes.first().unwrap();
    assert_eq!(all_at_once.applicability, Applicability::Safe);
    assert_eq!(apply_edits(&text, &all_at_once.edits).as_deref(), Some(fixed.as_str()));
}

#[test]
fn python_number_parsing() {
    for (s, v) in [("1_000", 1000.0), ("1e3", 1000.0), (" 2 ", 2.0), ("1_0.5", 10.5), (".5", 0.5), ("5.", 5.0), ("+0.3", 0.3)] {
        assert_eq!(py_float(s), Some(v), "{s}");
    }
    assert!(py_float("inf").unwrap().is_infinite());
    assert!(py_float("nan").unwrap().is_nan());
    for s in ["1__0", "1e", "e3", "0x1", "1_e3", "1e_3", "", "1,5"] {
        assert_eq!(py_float(s), None, "{s}");
    }
    assert_eq!(py_int(" 010 "), Some(PyValue::Int(10)));
    assert_eq!(py_int("1_024"), Some(PyValue::Int(1024)));
    assert_eq!(py_int("-0"), Some(PyValue::Int(0)));
    assert_eq!(py_int("99999999999999999999"), Some(PyValue::BigInt("99999999999999999999".into())));
    for s in ["1.5", "0x10", "_1", "1_", "", "+"] {
        assert_eq!(py_int(s), None, "{s}");
    }
}

#[test]
fn python_json_errors() {
    for (s, e) in [
        ("{x}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
        ("[1,", "Expecting value: line 1 column 4 (char 3)"),
        ("{}x", "Extra data: line 1 column 3 (char 2)"),
        ("", "Expecting value: line 1 column 1 (char 0)"),
        ("{\"a\" 1}", "Expecting ':' delimiter: line 1 column 6 (char 5)"),
        ("{\"a\":1,}", "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"),
        ("\"abc", "Unterminated string starting at: line 1 column 1 (char 0)"),
        ("\"a\\qb\"", "Invalid \\escape: line 1 column 3 (char 2)"),
        ("  \n {\"a\":\n x}", "Expecting value: line 3 column 2 (char 11)"),
        ("01", "Extra data: line 1 column 2 (char 1)"),
    ] {
        assert_eq!(pyjson::loads(s).unwrap_err().message, e, "{s}");
    }
    assert_eq!(pyjson::loads("NaN").map(|v| v.repr()), Ok("nan".into()));
}

fn inv(entry: Entry, text: &str) -> Invocation {
    Invocation { entry, launcher: Span::new(0, 0), args: words(text), env: vec![], env_places: vec![], span: Span::new(0, text.len()), nested: false }
}

#[test]
fn serve_front_end() {
    let fe = frontend::run(&inv(Entry::Serve, &format!("{M} --model-type llm --tp 2")), &ConfigFiles::new());
    let argv: Vec<&str> = fe.argv.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(argv, vec!["--model-path", M, "--tp", "2"]);
    let fe = frontend::run(&inv(Entry::Serve, &format!("--model-p {M}")), &ConfigFiles::new());
    assert_eq!(fe.diagnostics[0].message, "Error: --model-path is required. Please provide the path to the model.");
    let fe = frontend::run(&inv(Entry::Serve, &format!("--model-type foo {M}")), &ConfigFiles::new());
    assert_eq!(fe.diagnostics[0].message, "Unknown serve backend 'foo'. Available values: auto, llm, diffusion.");
}

#[test]
fn config_merging() {
    let mut files = ConfigFiles::new();
    files.insert("c.yaml".into(), "tp-size: 2\ntrust-remote-code: true\nnuma-node: [0, 1]\nmm-process-config: {a: 1.5}\nport: 010\n".into());
    let fe = frontend::run(&inv(Entry::LaunchServer, &format!("--model-path {M} --config c.yaml --port 1")), &files);
    let argv: Vec<&str> = fe.argv.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(
        argv,
        vec!["--tp-size", "2", "--trust-remote-code", "--numa-node", "0", "1", "--mm-process-config", "{\"a\": 1.5}", "--port", "8", "--model-path", M, "--port", "1"]
    );
    assert_eq!(fe.from_config.iter().filter(|&&b| b).count(), 10);
    let fe = frontend::run(&inv(Entry::LaunchServer, &format!("--model-path {M} --config=c.yaml")), &files);
    assert!(fe.diagnostics.iter().any(|d| d.code == "CFG008"));
}

#[test]
fn yaml_bomb_is_bounded() {
    let bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
    let t = std::time::Instant::now();
    assert!(matches!(yaml::load(bomb), Err(yaml::LoadError::TooLarge)));
    assert!(t.elapsed().as_secs() < 5);
}

#[test]
fn yaml_1_1_scalars() {
    use yaml::resolve_plain as r;
    assert_eq!(r("yes"), Some(PyValue::Bool(true)));
    assert_eq!(r("Off"), Some(PyValue::Bool(false)));
    assert_eq!(r("~"), Some(PyValue::None));
    assert_eq!(r("010"), Some(PyValue::Int(8)));
    assert_eq!(r("0x10"), Some(PyValue::Int(16)));
    assert_eq!(r("1_000"), Some(PyValue::Int(1000)));
    assert_eq!(r("1e3"), None);
    assert_eq!(r("1.0e+3"), Some(PyValue::Float(1000.0)));
    assert_eq!(r("0.85"), Some(PyValue::Float(0.85)));
    assert_eq!(r("5."), Some(PyValue::Float(5.0)));
}

#[test]
fn typical_command_is_fast() {
    let s = schema::get("0.5.23").unwrap();
    let w = words(&format!("--model-path {M} --tp 2 --mem-fraction-static 0.8 --trust-remote-code --port 30001 --reasoning-parser qwen3 --enable-metrics"));
    let _ = parse_args(s, &w);
    let n = 2000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(parse_args(s, &w));
    }
    let per = t.elapsed().as_micros() / n;
    // generous bound for unoptimised test builds on a shared machine
    eprintln!("parse_args: {per} µs per typical command (this build)");
    assert!(per < 2000, "{per} µs per parse");
}

#[test]
fn fixes_for_config_values_do_not_edit_the_command() {
    let mut opts = CheckOptions::default();
    opts.config_files.insert("c.yaml".into(), "max-model-len: 4096\nattention-backend: Triton\n".into());
    let text = format!("python -m sglang.launch_server --model-path {M} --config c.yaml");
    let r = check(&text, &opts);
    let diags = &r.commands[0].diagnostics;
    assert!(diags.iter().any(|d| d.is_sglang_error()));
    for d in diags {
        for f in &d.fixes {
            assert!(f.edits.is_empty() || f.applicability != Applicability::Display, "{f:?}");
            for e in &f.edits {
                assert!(e.end <= text.find("--config").unwrap() || e.start >= text.len(), "{d:?}");
            }
        }
    }
}
