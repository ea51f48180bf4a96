//! Launches in the manifests people keep — Kubernetes, LeaderWorkerSet, docker-compose,
//! SkyPilot, GitHub Actions, Helm templates, Dockerfiles — read as the checker reads a paste:
//! each file gives snippets of shell text whose every byte maps back to what the user wrote;
//! SGLang's errors land on the file's bytes, and fixes come back as edits in the file's own
//! list syntax (re-parsed here to prove it).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice, clippy::panic)]

use sglang_preflight::diagnostic::{apply_edits, Diagnostic, Edit};
use sglang_preflight::sources::{dockerfile, exec, yaml, PieceKind, Snippet};
use std::ops::Range;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Test-local helpers (the shared `sources::map_span` is another helper's part)

/// Where snippet bytes `span` are in the file: Verbatim pieces byte for byte, other pieces at
/// their whole file range.
fn file_range(snippet: &Snippet, span: Range<usize>) -> Range<usize> {
    let at = |offset: usize, end: bool| {
        let piece = snippet
            .pieces
            .iter()
            .find(|p| if end { p.snippet.start < offset && offset <= p.snippet.end } else { p.snippet.start <= offset && offset < p.snippet.end })
            .unwrap();
        match piece.kind {
            PieceKind::Verbatim => piece.file.start + (offset - piece.snippet.start),
            _ if end => piece.file.end,
            _ => piece.file.start,
        }
    };
    if span.is_empty() {
        let s = at(span.start, false);
        return s..s;
    }
    at(span.start, false)..at(span.end, true)
}

/// The file bytes each piece of the snippet stands for, in order.
fn pieces(file: &str, snippet: &Snippet) -> Vec<(String, &'static str, String)> {
    snippet
        .pieces
        .iter()
        .map(|p| {
            let kind = match p.kind {
                PieceKind::Verbatim => "verbatim",
                PieceKind::Element(_) => "element",
                PieceKind::Synthetic => "synthetic",
            };
            (snippet.text[p.snippet.clone()].to_string(), kind, file[p.file.clone()].to_string())
        })
        .collect()
}

/// The SGLang errors of a snippet's launches: code, message and the file bytes at the span.
fn errors(file: &str, snippet: &Snippet) -> Vec<(String, String, String)> {
    let report = sglang_preflight::check(&snippet.text, &Default::default());
    report
        .commands
        .iter()
        .flat_map(|c| c.diagnostics.iter())
        .filter(|d| d.is_sglang_error())
        .map(|d| (d.code.clone(), d.message.clone(), file[file_range(snippet, d.span.start..d.span.end)].to_string()))
        .collect()
}

fn first_error(snippet: &Snippet, code: &str) -> Diagnostic {
    let report = sglang_preflight::check(&snippet.text, &Default::default());
    report.commands.iter().flat_map(|c| c.diagnostics.iter()).find(|d| d.code == code).cloned().unwrap()
}

fn codes(snippet: &Snippet) -> Vec<String> {
    let report = sglang_preflight::check(&snippet.text, &Default::default());
    report.commands.iter().flat_map(|c| c.diagnostics.iter()).map(|d| d.code.clone()).collect()
}

/// The file after one snippet edit, written in the list's syntax.
fn edited(file: &str, snippet: &Snippet, edit: Edit) -> String {
    let mapped = exec::map_edit(snippet, &edit).unwrap_or_else(|| panic!("{edit:?} cannot be written in the file"));
    apply_edits(file, &[mapped]).unwrap()
}

/// The argv of the only launch of a YAML file (re-extracted: the file must still parse).
fn yaml_argv(file: &str) -> Vec<String> {
    assert!(yaml_rust2::YamlLoader::load_from_str(file).is_ok(), "not YAML any more:\n{file}");
    let found = yaml::extract_with_findings(file);
    assert!(found.findings.iter().all(|d| d.code != "SRC002"), "{:?}", found.findings);
    argv_of(&found.snippets)
}

fn docker_argv(file: &str) -> Vec<String> {
    argv_of(&dockerfile::extract(file))
}

fn argv_of(snippets: &[Snippet]) -> Vec<String> {
    let [snippet] = snippets else { panic!("expected one launch, found {}", snippets.len()) };
    let report = sglang_preflight::check(&snippet.text, &Default::default());
    report.commands[0].argv.clone()
}

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

fn end_of(snippet: &Snippet, word: &str) -> usize {
    snippet.text.find(word).unwrap() + word.len()
}

fn start_of(snippet: &Snippet, word: &str) -> usize {
    snippet.text.find(word).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Kubernetes: exec-form command + args, env

const DEPLOYMENT: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: sglang
spec:
  template:
    spec:
      containers:
        - name: server
          image: lmsysorg/sglang:latest
          command: ["python3", "-m", "sglang.launch_server"]
          args:
            - --model-path
            - meta-llama/Llama-3.1-8B-Instruct
            - --tp
            - "2"
            - --tool-call-parser
            - llama4x
          env:
            - name: HF_TOKEN
              valueFrom:
                secretKeyRef: {name: hf, key: token}
            - name: SGLANG_PORT
              value: "30000"
"#;

#[test]
fn kubernetes_command_and_args_are_one_argv_with_no_shell() {
    let found = yaml::extract_with_findings(DEPLOYMENT);
    assert!(found.findings.is_empty());
    let [snippet] = found.snippets.as_slice() else { panic!() };
    // the secret's value is not in the file: not exported (`$HF_TOKEN` would stay unexpanded)
    assert_eq!(
        snippet.text,
        "export SGLANG_PORT=30000\npython3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp 2 --tool-call-parser llama4x"
    );
    let p = pieces(DEPLOYMENT, snippet);
    assert_eq!(p[0], ("export SGLANG_PORT=30000\n".into(), "synthetic", "SGLANG_PORT".into()));
    assert_eq!(p[1], ("python3".into(), "element", "\"python3\"".into()));
    assert_eq!(p[2], (" ".into(), "synthetic", ", ".into()));
    // from the last `command` item to the first `args` item: two lists, an empty anchor
    assert_eq!(p[6], (" ".into(), "synthetic", "".into()));
    assert_eq!(p[7], ("--model-path".into(), "element", "--model-path".into()));
    assert_eq!(p[8], (" ".into(), "synthetic", "\n            - ".into()));
    assert_eq!(p[11], ("--tp".into(), "element", "--tp".into()));
    assert_eq!(p[13], ("2".into(), "element", "\"2\"".into()));
    assert_eq!(
        errors(DEPLOYMENT, snippet),
        vec![("ARG005".into(), first_error(snippet, "ARG005").message, "llama4x".into())]
    );
}

#[test]
fn kubernetes_fixes_are_written_as_block_sequence_items() {
    let snippet = &yaml::extract(DEPLOYMENT)[0];
    // SGLang's own fix for the bad choice: replace the element
    let fix = &first_error(snippet, "ARG005").fixes[0];
    let file = edited(DEPLOYMENT, snippet, fix.edits[0].clone());
    assert!(file.contains("            - --tool-call-parser\n            - llama3\n"));
    assert_eq!(yaml_argv(&file).last().unwrap(), "llama3");

    // a flag appended at the end of the command: new items, the number quoted (args are strings)
    let end = snippet.text.len();
    let file = edited(DEPLOYMENT, snippet, Edit { start: end, end, replacement: " --tp-size 2".into() });
    assert!(file.contains("            - llama4x\n            - --tp-size\n            - \"2\"\n          env:"));
    assert_eq!(yaml_argv(&file)[4..], owned(&["--tool-call-parser", "llama4x", "--tp-size", "2"]));

    // a flag removed with its value, from the end of the word before it (as fixes remove flags)
    let (start, stop) = (end_of(snippet, "Instruct"), end_of(snippet, "--tp 2"));
    let file = edited(DEPLOYMENT, snippet, Edit { start, end: stop, replacement: String::new() });
    assert_eq!(yaml_argv(&file), owned(&["--model-path", "meta-llama/Llama-3.1-8B-Instruct", "--tool-call-parser", "llama4x"]));

    // a flag and its value replaced (`--tp 2` → `--tp-size 4`)
    let (start, stop) = (start_of(snippet, "--tp 2"), end_of(snippet, "--tp 2"));
    let file = edited(DEPLOYMENT, snippet, Edit { start, end: stop, replacement: "--tp-size 4".into() });
    assert!(file.contains("            - --tp-size\n            - \"4\"\n"));
    assert_eq!(yaml_argv(&file)[2..4], owned(&["--tp-size", "4"]));
}

#[test]
fn edits_that_cannot_be_written_in_the_list_are_refused() {
    let snippet = &yaml::extract(DEPLOYMENT)[0];
    // across the two lists (`command` → `args`)
    let (start, stop) = (end_of(snippet, "-m"), end_of(snippet, "--model-path"));
    assert_eq!(exec::map_edit(snippet, &Edit { start, end: stop, replacement: String::new() }), None);
    // inside the exported variables
    assert_eq!(exec::map_edit(snippet, &Edit { start: 0, end: 6, replacement: "unset".into() }), None);
    // half of one word and half of the next
    let at = start_of(snippet, "--tp 2") + 2;
    assert_eq!(exec::map_edit(snippet, &Edit { start: at, end: at + 4, replacement: "x".into() }), None);
}
