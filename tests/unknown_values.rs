//! Values the checker cannot know (issue 13): a template in a file (`{{ .Values.tp }}`, read as
//! the unset variable `${VALUES_TP}`) or a Kubernetes variable whose value is not in the file
//! makes its flag's value unknown. SGLang's verdict on that value is not claimed either way:
//! argparse does not judge it, and a check that reads it is not run (and said so), while the
//! checks that do not read it still report what SGLang raises.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice, clippy::panic)]

use sglang_preflight::diagnostic::{Diagnostic, Severity};
use sglang_preflight::rules::NotRunReason;
use sglang_preflight::sources::{check_file, yaml, FileReport, Kind};
use sglang_preflight::{check, CheckOptions};

/// A Kubernetes container whose args are `args` (YAML flow items, as written).
fn pod(args: &str) -> String {
    format!("spec:\n  containers:\n    - name: sglang\n      command: [\"python3\", \"-m\", \"sglang.launch_server\"]\n      args: [{args}]\n")
}

fn c_not_run(report: &FileReport) -> Vec<&sglang_preflight::rules::NotRun> {
    report.commands.iter().flat_map(|c| c.command.not_run.iter()).collect()
}

fn check_yaml(text: &str) -> FileReport {
    check_file("pod.yaml", Kind::Yaml, text, &CheckOptions::default())
}

fn findings(report: &FileReport) -> Vec<&Diagnostic> {
    report.diagnostics.iter().chain(report.commands.iter().flat_map(|c| c.command.diagnostics.iter())).collect()
}

fn codes(report: &FileReport, severity: Severity) -> Vec<&str> {
    findings(report).into_iter().filter(|d| d.severity == severity).map(|d| d.code.as_str()).collect()
}

fn unknown_value_checks(report: &FileReport) -> usize {
    report.commands.iter().flat_map(|c| c.command.not_run.iter()).filter(|n| n.reason == NotRunReason::UnknownValue).count()
}

const HELM: &str = r#"spec:
  containers:
    - name: sglang
      command: ["python3", "-m", "sglang.launch_server"]
      args:
        - --model-path
        - "{{ .Values.model }}"
        - --tp-size
        - "{{ .Values.tp }}"
        - --dp-size
        - "3"
        - --enable-dp-attention
"#;

#[test]
fn a_check_that_reads_a_templated_value_is_not_run_and_says_so() {
    // With a known tp-size of 1 SGLang raises PAR022 (tp-size must be a multiple of dp-size) ...
    let known = check("python -m sglang.launch_server --model-path m --tp-size 1 --dp-size 3 --enable-dp-attention", &CheckOptions::default());
    assert!(known.commands[0].diagnostics.iter().any(|d| d.code == "PAR022"), "{:#?}", known.commands[0].diagnostics);
    // ... with a templated one nobody knows whether it does: no SGLang error, no type error.
    let report = check_yaml(HELM);
    assert_eq!(codes(&report, Severity::Error), Vec::<&str>::new(), "{:#?}", findings(&report));
    assert_eq!(findings(&report).iter().filter(|d| d.code == "SRC002").count(), 2);
    assert!(report.accepted);
    // the tp-size check, the chunked-prefill warning SGLang logs only once past it, and the
    // model source's load (a templated --model-path)
    assert_eq!(unknown_value_checks(&report), 3);
    assert!(c_not_run(&report).iter().any(|n| n.site == "parallel_hook.handle_data_parallelism#2"), "{:?}", c_not_run(&report));
    let c = &report.commands[0].command;
    assert!(c.not_run.iter().any(|n| n.site == "configs.model_config.load_pointer_head" && n.reason == NotRunReason::UnknownValue), "{:?}", c.not_run);
    let note = sglang_preflight::summary::commands_not_run_note(std::iter::once(c)).unwrap();
    assert!(note.contains("3 checks depend on values not known here (templates, or variables set outside the paste)"), "{note}");
}

#[test]
fn the_template_variables_are_the_files_unknown_values() {
    assert_eq!(yaml::extract_with_findings(HELM).unknown_variables, ["VALUES_MODEL", "VALUES_TP"]);
}

#[test]
fn a_templated_choice_is_not_an_invalid_choice() {
    let report = check_yaml(&pod(r#""--model-path", "m", "--attention-backend", "{{ .Values.backend }}""#));
    assert!(!findings(&report).iter().any(|d| d.code == "ARG005"), "{:#?}", findings(&report));
    assert_eq!(codes(&report, Severity::Error), Vec::<&str>::new());
    assert_eq!(codes(&report, Severity::Warning), ["SRC002"]);
}

#[test]
fn a_check_that_does_not_read_the_templated_value_still_reports() {
    // tests/fixtures/0.5.23/rules_cuda_graph.jsonl, CG002-trigger, with a templated tp-size
    let paste = check(
        "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --cuda-graph-prefill-max-context 0",
        &CheckOptions::default(),
    );
    let expected: Vec<(&str, &str)> = paste.commands[0].diagnostics.iter().filter(|d| d.is_sglang_error()).map(|d| (d.code.as_str(), d.message.as_str())).collect();
    assert_eq!(expected.iter().map(|e| e.0).collect::<Vec<_>>(), ["CG002"]);
    let file = pod(r#""--model-path", "meta-llama/Llama-3.1-8B-Instruct", "--cuda-graph-prefill-max-context", "0", "--tp-size", "{{ .Values.tp }}""#);
    let report = check_yaml(&file);
    let got: Vec<(&str, &str)> = findings(&report).into_iter().filter(|d| d.is_sglang_error()).map(|d| (d.code.as_str(), d.message.as_str())).collect();
    assert_eq!(got, expected);
    assert!(!report.accepted);
}

#[test]
fn a_later_known_value_wins_over_a_templated_one() {
    let file = pod(r#""--model-path", "m", "--tp-size", "{{ .Values.tp }}", "--tp-size", "1", "--dp-size", "3", "--enable-dp-attention""#);
    let report = check_yaml(&file);
    assert!(codes(&report, Severity::Error).contains(&"PAR022"), "{:#?}", findings(&report));
    assert_eq!(unknown_value_checks(&report), 0);
}

#[test]
fn a_kubernetes_variable_with_no_value_in_the_file_is_unknown() {
    let file = "spec:\n  containers:\n    - name: sglang\n      command: [\"python3\", \"-m\", \"sglang.launch_server\"]\n      args: [\"--model-path\", \"m\", \"--tp-size\", \"$(TP)\"]\n      env:\n        - name: TP\n          valueFrom:\n            secretKeyRef: {name: s, key: tp}\n";
    assert_eq!(yaml::extract_with_findings(file).unknown_variables, ["TP"]);
    let report = check_yaml(file);
    assert!(!findings(&report).iter().any(|d| d.code == "ARG004"), "{:#?}", findings(&report));
    assert_eq!(codes(&report, Severity::Error), Vec::<&str>::new());
}

#[test]
fn a_paste_with_an_unset_variable_is_judged_as_written() {
    // In a paste `$PORT` is an unset variable: SGLang receives the text `$PORT` and says so.
    let report = check("python -m sglang.launch_server --model-path m --port $PORT", &CheckOptions::default());
    let c = &report.commands[0];
    let arg004 = c.diagnostics.iter().find(|d| d.code == "ARG004").expect("ARG004");
    assert_eq!(arg004.message, "argument --port: invalid int value: '$PORT'");
    assert!(c.not_run.iter().all(|n| n.reason != NotRunReason::UnknownValue));
}

#[test]
fn a_variable_the_script_requires_and_the_paste_does_not_set_is_unknown() {
    // `${NAME:?message}` never reaches SGLang as written: a shell passes NAME's value or stops.
    // Judged as written, the `:` made it a served model name with a colon (VAL028) and the port
    // an invalid int (ARG004); its value is not known here, so neither is claimed.
    let report = check("python -m sglang.launch_server --model-path ${MODEL:?set MODEL} --port ${PORT:?}", &CheckOptions::default());
    let c = &report.commands[0];
    assert!(report.accepted, "{:#?}", c.diagnostics);
    assert_eq!(c.diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["SH005", "SH005"]);
    assert!(c.not_run.iter().any(|n| n.reason == NotRunReason::UnknownValue), "{:#?}", c.not_run);
    // Set earlier in the paste, it is the value, checked as any other.
    let set = check("MODEL=Qwen/Qwen3-8B\nPORT=x\npython -m sglang.launch_server --model-path ${MODEL:?set MODEL} --port ${PORT:?}", &CheckOptions::default());
    let c = &set.commands[0];
    assert_eq!(c.diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["ARG004"]);
    assert_eq!(c.diagnostics[0].message, "argument --port: invalid int value: 'x'");
}

#[test]
fn a_required_variable_in_single_quotes_is_the_literal_text_sglang_receives() {
    // Single quotes keep `${NAME:?}` from the shell: SGLang receives those characters, colon
    // included, and rejects them as a served model name (recorded: SH005-required-single-quoted).
    let report = check("python -m sglang.launch_server --model-path m --served-model-name '${NAME:?}'", &CheckOptions::default());
    let c = &report.commands[0];
    assert!(!report.accepted);
    assert_eq!(c.diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["VAL028"]);
    assert!(c.not_run.iter().all(|n| n.reason != NotRunReason::UnknownValue), "{:#?}", c.not_run);
}

#[test]
fn a_config_value_a_here_document_takes_from_an_unset_required_variable_is_unknown() {
    // bash writes the file only where NAME is set (else it stops): that value is not known here
    let text = "cat > cfg.yaml <<EOF\nserved-model-name: ${NAME:?}\nEOF\npython -m sglang.launch_server --model-path m --config cfg.yaml";
    let report = check(text, &CheckOptions::default());
    assert!(report.accepted, "{:#?}", report.commands[0].diagnostics);
    assert!(report.commands[0].not_run.iter().any(|n| n.reason == NotRunReason::UnknownValue), "{:#?}", report.commands[0].not_run);
    // with a quoted delimiter the file holds those characters, colon included
    let quoted = check(&text.replace("<<EOF", "<<'EOF'"), &CheckOptions::default());
    assert_eq!(quoted.commands[0].diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["VAL028"]);
}

#[test]
fn a_variable_assigned_from_a_required_one_is_unknown_too() {
    // `export NAME=${NAME:?}` keeps the environment's NAME (or stops): `$NAME` later is that
    // value, not known here, even where a default is written (`${NAME:-a:b}`).
    for launch in ["--served-model-name $NAME", "--served-model-name ${NAME:-a:b}", "--port \"$NAME\""] {
        let text = format!("export NAME=${{NAME:?set it}}\npython -m sglang.launch_server --model-path m {launch}");
        let report = check(&text, &CheckOptions::default());
        assert!(report.accepted, "{launch}: {:#?}", report.commands[0].diagnostics);
        assert!(report.commands[0].diagnostics.iter().all(|d| d.severity != Severity::Error), "{launch}");
    }
    // Assigned again (or unset), it is known again.
    let report = check("NAME=${NAME:?}\nNAME=a:b\npython -m sglang.launch_server --model-path m --served-model-name $NAME", &CheckOptions::default());
    assert_eq!(report.commands[0].diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["VAL028"]);
}

#[test]
fn check_options_can_name_unknown_variables_for_a_paste() {
    let opts = CheckOptions { unknown_variables: vec!["PORT".into()], ..CheckOptions::default() };
    let report = check("python -m sglang.launch_server --model-path m --port $PORT", &opts);
    assert!(report.accepted, "{:#?}", report.commands[0].diagnostics);
}

#[test]
fn a_pd_pair_that_differs_only_by_a_templated_value_is_not_judged() {
    let pair = |prefill_page: &str| {
        format!(
            "spec:\n  containers:\n    - name: prefill\n      command: [\"python3\", \"-m\", \"sglang.launch_server\"]\n      args: [\"--model-path\", \"a/x\", \"--disaggregation-mode\", \"prefill\", \"--page-size\", \"{prefill_page}\"]\n    - name: decode\n      command: [\"python3\", \"-m\", \"sglang.launch_server\"]\n      args: [\"--model-path\", \"a/x\", \"--disaggregation-mode\", \"decode\", \"--page-size\", \"16\", \"--port\", \"30001\"]\n"
        )
    };
    // the pair check exists: a known, different page size is a finding
    assert!(codes(&check_yaml(&pair("32")), Severity::Error).contains(&"PAIR003"));
    let report = check_yaml(&pair("{{ .Values.page }}"));
    assert!(!findings(&report).iter().any(|d| d.code.starts_with("PAIR")), "{:#?}", findings(&report));
}
