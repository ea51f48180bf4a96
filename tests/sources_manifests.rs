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

/// Where snippet bytes `span` are in the file.
fn file_range(snippet: &Snippet, span: Range<usize>) -> Range<usize> {
    let mapped = sglang_preflight::sources::map_span(snippet, sglang_preflight::span::Span::new(span.start, span.end));
    mapped.start..mapped.end
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
                PieceKind::JsonString => "json string",
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
    assert!(found.findings.iter().all(|d| d.code != "SRC001"), "{:?}", found.findings);
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
    assert!(matches!(found.snippets[0].pieces[1].kind, PieceKind::Element(exec::Style::Json)));
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

// ---------------------------------------------------------------------------------------------
// LeaderWorkerSet: `bash -c` with a literal block

const LEADER_WORKER_SET: &str = r#"apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
spec:
  leaderWorkerTemplate:
    leaderTemplate:
      spec:
        containers:
          - name: sglang-leader
            command:
              - /bin/bash
              - -c
              - |
                python3 -m sglang.launch_server \
                  --model-path deepseek-ai/DeepSeek-V3 \
                  --tp 16 --nnodes 2 --node-rank 0 \
                  --max-running-requests lots
            env:
              - name: LWS_GROUP_SIZE
                value: "2"
"#;

#[test]
fn bash_c_block_is_shell_text_each_line_without_its_indentation() {
    let [snippet] = yaml::extract(LEADER_WORKER_SET).try_into().unwrap();
    assert_eq!(
        snippet.text,
        "export LWS_GROUP_SIZE=2\npython3 -m sglang.launch_server \\\n  --model-path deepseek-ai/DeepSeek-V3 \\\n  --tp 16 --nnodes 2 --node-rank 0 \\\n  --max-running-requests lots\n"
    );
    // every byte of the script is the file's own, line by line
    let p = pieces(LEADER_WORKER_SET, &snippet);
    assert_eq!(p[1], ("python3 -m sglang.launch_server \\\n".into(), "verbatim", "python3 -m sglang.launch_server \\\n".into()));
    assert_eq!(p[2].2, "  --model-path deepseek-ai/DeepSeek-V3 \\\n");
    assert!(p[1..].iter().all(|(text, kind, bytes)| *kind == "verbatim" && text == bytes));
    let errs = errors(LEADER_WORKER_SET, &snippet);
    assert_eq!(errs[0].0, "ARG004");
    assert_eq!(errs[0].1, "argument --max-running-requests: invalid int value: 'lots'");
    assert_eq!(errs[0].2, "lots");
}

// ---------------------------------------------------------------------------------------------
// docker-compose: string command (shell text), list command (exec form), environment

const COMPOSE: &str = r#"services:
  router:
    image: lmsysorg/sglang:latest
    command: python3 -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --port 30000 --tool-call-parser qwen25x
    environment:
      - SGLANG_HOST_IP=0.0.0.0
      - HF_TOKEN
  worker:
    image: lmsysorg/sglang:latest
    entrypoint: ["python3", "-m", "sglang.launch_server"]
    command: ["--model-path", "Qwen/Qwen2.5-7B-Instruct", "--tp-size", "two"]
    environment:
      SGLANG_LOG_LEVEL: debug
      EMPTY:
"#;

#[test]
fn compose_string_command_is_shell_text_and_list_command_follows_the_entrypoint() {
    let [router, worker] = yaml::extract(COMPOSE).try_into().unwrap();
    // `HF_TOKEN` alone takes the host's value: not known, not exported
    assert_eq!(
        router.text,
        "export SGLANG_HOST_IP=0.0.0.0\npython3 -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --port 30000 --tool-call-parser qwen25x"
    );
    assert_eq!(pieces(COMPOSE, &router)[0].2, "SGLANG_HOST_IP=0.0.0.0");
    assert_eq!(pieces(COMPOSE, &router)[1].1, "verbatim");
    assert_eq!(errors(COMPOSE, &router)[0].2, "qwen25x");

    assert_eq!(
        worker.text,
        "export SGLANG_LOG_LEVEL=debug\npython3 -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --tp-size two"
    );
    let errs = errors(COMPOSE, &worker);
    assert_eq!((errs[0].0.as_str(), errs[0].2.as_str()), ("ARG004", "\"two\""));
    // a value replaced: written as a flow item, quoted because a plain `2` would be a number
    let at = start_of(&worker, "two");
    let file = edited(COMPOSE, &worker, Edit { start: at, end: at + 3, replacement: "2".into() });
    assert!(file.contains(r#"command: ["--model-path", "Qwen/Qwen2.5-7B-Instruct", "--tp-size", "2"]"#));
    // appended: new items, quoted like the others
    let end = worker.text.len();
    let file = edited(COMPOSE, &worker, Edit { start: end, end, replacement: " --enable-metrics --port 30001".into() });
    assert!(file.contains(r#""--tp-size", "two", "--enable-metrics", "--port", "30001"]"#));
    let doc = &yaml_rust2::YamlLoader::load_from_str(&file).unwrap()[0];
    let command: Vec<&str> = doc["services"]["worker"]["command"].as_vec().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(command, ["--model-path", "Qwen/Qwen2.5-7B-Instruct", "--tp-size", "two", "--enable-metrics", "--port", "30001"]);
}

// ---------------------------------------------------------------------------------------------
// SkyPilot: `run: |` with `envs`

const SKYPILOT: &str = r#"resources:
  accelerators: H100:8
envs:
  MODEL: meta-llama/Llama-3.1-70B-Instruct
  TP: 8
setup: pip install "sglang[all]"
run: |
  python -m sglang.launch_server --model-path $MODEL --tp-size $TP \
    --port 30000 --tool-call-parser llama4x
"#;

#[test]
fn skypilot_run_gets_its_envs() {
    let [snippet] = yaml::extract(SKYPILOT).try_into().unwrap();
    assert_eq!(
        snippet.text,
        "export MODEL=meta-llama/Llama-3.1-70B-Instruct\nexport TP=8\npython -m sglang.launch_server --model-path $MODEL --tp-size $TP \\\n  --port 30000 --tool-call-parser llama4x\n"
    );
    // `$TP` is 8: no invalid int; only the bad parser name, on the file's bytes
    let errs = errors(SKYPILOT, &snippet);
    assert_eq!(errs.len(), 1);
    assert_eq!((errs[0].0.as_str(), errs[0].2.as_str()), ("ARG005", "llama4x"));
    let report = sglang_preflight::check(&snippet.text, &Default::default());
    assert_eq!(report.commands[0].argv[..4], owned(&["--model-path", "meta-llama/Llama-3.1-70B-Instruct", "--tp-size", "8"]));
}

// ---------------------------------------------------------------------------------------------
// GitHub Actions: `run:` with `env:` at three levels and `${{ }}` expressions

const WORKFLOW: &str = r#"name: smoke
on: push
env:
  MODEL: Qwen/Qwen2.5-0.5B-Instruct
jobs:
  serve:
    runs-on: [self-hosted, gpu]
    env:
      TP: 1
    steps:
      - uses: actions/checkout@v4
      - name: launch
        env:
          HF_TOKEN: ${{ secrets.HF_TOKEN }}
        run: python -m sglang.launch_server --model-path $MODEL --tp-size $TP --served-model-name ${{ matrix.name }} --tool-call-parser llama4x
"#;

#[test]
fn actions_run_gets_workflow_job_and_step_env_and_expressions_become_unset_variables() {
    let found = yaml::extract_with_findings(WORKFLOW);
    let [snippet] = found.snippets.as_slice() else { panic!() };
    // the secret is an expression: its value is not known, not exported
    assert_eq!(
        snippet.text,
        "export MODEL=Qwen/Qwen2.5-0.5B-Instruct\nexport TP=1\npython -m sglang.launch_server --model-path $MODEL --tp-size $TP --served-model-name ${MATRIX_NAME} --tool-call-parser llama4x"
    );
    let p = pieces(WORKFLOW, snippet);
    assert!(p.contains(&("${MATRIX_NAME}".into(), "synthetic", "${{ matrix.name }}".into())));
    // one warning, at the expression inside the launch (not at the secret of an env entry)
    assert_eq!(found.findings.len(), 1);
    let warning = &found.findings[0];
    assert_eq!(warning.code, "SRC002");
    assert_eq!(&WORKFLOW[warning.span.start..warning.span.end], "${{ matrix.name }}");
    assert!(!warning.explanation.is_empty());
    // the rest of the command is checked around it
    assert_eq!(errors(WORKFLOW, snippet).iter().map(|e| (e.0.as_str(), e.2.as_str())).collect::<Vec<_>>(), [("ARG005", "llama4x")]);
    assert!(codes(snippet).contains(&"SH005".to_string()));
}

// ---------------------------------------------------------------------------------------------
// Helm: `{{ ... }}` everywhere, control structures on their own lines

const HELM: &str = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-sglang
spec:
  replicas: {{ .Values.replicas }}
  template:
    spec:
      containers:
        - name: sglang
          {{- if .Values.gpu }}
          resources:
            limits:
              nvidia.com/gpu: {{ .Values.gpus }}
          {{- end }}
          command: ["python3", "-m", "sglang.launch_server"]
          args:
            - --model-path
            - {{ .Values.model | quote }}
            - --served-model-name
            - "{{ .Values.name }}-chat"
            - --tool-call-parser
            - llama4x
"#;

#[test]
fn helm_templates_parse_as_placeholders_and_are_checked_around() {
    let found = yaml::extract_with_findings(HELM);
    let [snippet] = found.snippets.as_slice() else { panic!("{:?}", found.findings) };
    assert_eq!(
        snippet.text,
        r#"python3 -m sglang.launch_server --model-path "${VALUES_MODEL_QUOTE}" --served-model-name "${VALUES_NAME}-chat" --tool-call-parser llama4x"#
    );
    let warned: Vec<&str> = found.findings.iter().map(|d| &HELM[d.span.start..d.span.end]).collect();
    assert_eq!(warned, ["{{ .Values.model | quote }}", "{{ .Values.name }}"]);
    assert!(found.findings.iter().all(|d| d.code == "SRC002"));
    assert_eq!(errors(HELM, snippet).iter().map(|e| (e.0.as_str(), e.2.as_str())).collect::<Vec<_>>(), [("ARG005", "llama4x")]);
    // a templated item is not rewritten (its value is not known)
    let at = start_of(snippet, "\"${VALUES_NAME}");
    let end = end_of(snippet, "-chat\"");
    assert_eq!(exec::map_edit(snippet, &Edit { start: at, end, replacement: "x".into() }), None);
    // the plain items still take fixes
    let fix = &first_error(snippet, "ARG005").fixes[0];
    let file = edited(HELM, snippet, fix.edits[0].clone());
    assert!(file.ends_with("            - --tool-call-parser\n            - llama3\n"));
}

// ---------------------------------------------------------------------------------------------
// Dockerfiles

const DOCKERFILE_EXEC: &str = r#"# syntax=docker/dockerfile:1
FROM lmsysorg/sglang:latest AS base
ARG REVISION=main
ENV HF_HOME=/models PORT="30000"
ENV SGLANG_LOG info
ENTRYPOINT ["python3", "-m", "sglang.launch_server"]
CMD ["--model-path", "Qwen/Qwen2.5-7B-Instruct", \
     "--tool-call-parser", "llama4x"]
"#;

#[test]
fn dockerfile_exec_entrypoint_and_cmd_are_one_argv_with_the_stage_env() {
    let [snippet] = dockerfile::extract(DOCKERFILE_EXEC).try_into().unwrap();
    // ARG is a build-time value: not in the container's environment
    assert_eq!(
        snippet.text,
        "export HF_HOME=/models\nexport PORT=30000\nexport SGLANG_LOG=info\npython3 -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --tool-call-parser llama4x"
    );
    let p = pieces(DOCKERFILE_EXEC, &snippet);
    assert_eq!(p[0], ("export HF_HOME=/models\n".into(), "synthetic", "HF_HOME=/models".into()));
    assert_eq!(p[1].2, "PORT=\"30000\"");
    assert_eq!(p[2].2, "SGLANG_LOG info");
    assert_eq!(p[3], ("python3".into(), "element", "\"python3\"".into()));
    assert_eq!(errors(DOCKERFILE_EXEC, &snippet)[0].2, "\"llama4x\"");

    let fix = &first_error(&snippet, "ARG005").fixes[0];
    let file = edited(DOCKERFILE_EXEC, &snippet, fix.edits[0].clone());
    assert!(file.contains("\"--tool-call-parser\", \"llama3\"]"));
    assert_eq!(docker_argv(&file)[3], "llama3");

    let end = snippet.text.len();
    let file = edited(DOCKERFILE_EXEC, &snippet, Edit { start: end, end, replacement: " --tp-size 2".into() });
    assert!(file.contains(r#""--tool-call-parser", "llama4x", "--tp-size", "2"]"#));
    assert_eq!(docker_argv(&file)[2..], owned(&["--tool-call-parser", "llama4x", "--tp-size", "2"]));

    // removing the last CMD pair: the separator goes with it, the array stays JSON
    let (start, stop) = (end_of(&snippet, "Instruct"), end);
    let file = edited(DOCKERFILE_EXEC, &snippet, Edit { start, end: stop, replacement: String::new() });
    assert!(file.contains("CMD [\"--model-path\", \"Qwen/Qwen2.5-7B-Instruct\"]"));
    assert_eq!(docker_argv(&file), owned(&["--model-path", "Qwen/Qwen2.5-7B-Instruct"]));

    // every CMD item removed: `CMD []`, the ENTRYPOINT untouched
    let start = start_of(&snippet, "--model-path");
    let file = edited(DOCKERFILE_EXEC, &snippet, Edit { start, end, replacement: String::new() });
    assert!(file.contains("ENTRYPOINT [\"python3\", \"-m\", \"sglang.launch_server\"]\nCMD []\n"), "{file}");
    // from the ENTRYPOINT into the CMD: two arrays, not one edit
    let start = end_of(&snippet, "sglang.launch_server");
    assert_eq!(exec::map_edit(&snippet, &Edit { start, end, replacement: String::new() }), None);
}

const DOCKERFILE_SHELL: &str = "FROM lmsysorg/sglang:latest
ENV TP=2
CMD python3 -m sglang.launch_server \\
    --model-path Qwen/Qwen2.5-7B-Instruct \\
    # the port the service expects
    --tp-size $TP --port 30000 --tool-call-parser llama4x
";

#[test]
fn dockerfile_shell_form_keeps_its_continuations_and_drops_comment_lines() {
    let [snippet] = dockerfile::extract(DOCKERFILE_SHELL).try_into().unwrap();
    assert_eq!(
        snippet.text,
        "export TP=2\npython3 -m sglang.launch_server \\\n    --model-path Qwen/Qwen2.5-7B-Instruct \\\n    --tp-size $TP --port 30000 --tool-call-parser llama4x"
    );
    assert!(pieces(DOCKERFILE_SHELL, &snippet)[1..].iter().all(|(text, kind, bytes)| *kind == "verbatim" && text == bytes));
    let errs = errors(DOCKERFILE_SHELL, &snippet);
    assert_eq!(errs.iter().map(|e| (e.0.as_str(), e.2.as_str())).collect::<Vec<_>>(), [("ARG005", "llama4x")]);
    let report = sglang_preflight::check(&snippet.text, &Default::default());
    assert_eq!(report.commands[0].argv[2..4], owned(&["--tp-size", "2"]));
}

const DOCKERFILE_STAGES: &str = r#"ARG TP=4
FROM lmsysorg/sglang:latest AS one
ENV ONLY_IN_ONE=1
CMD ["sh", "-c", "python3 -m sglang.launch_server --model-path \"m1\" --tp-size x"]

FROM lmsysorg/sglang:latest AS two
ARG TP
RUN --mount=type=cache,target=/root/.cache python3 -m sglang.launch_server --model-path m2 --tp-size $TP --help
RUN <<EOF
python3 -m sglang.launch_server --model-path m3 --help
EOF
CMD ["echo", "not a launch"]
"#;

#[test]
fn dockerfile_stages_reset_variables_and_sh_c_and_heredocs_are_shell_text() {
    let snippets = dockerfile::extract(DOCKERFILE_STAGES);
    let texts: Vec<&str> = snippets.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            // stage one's CMD, found when the stage ends: the JSON string is shell text
            "export ONLY_IN_ONE=1\npython3 -m sglang.launch_server --model-path \"m1\" --tp-size x",
            // RUN sees build arguments (`ARG TP` takes the default given before the first FROM),
            // and not stage one's ENV; its build flags (`--mount=...`) are not the command
            "export TP=4\npython3 -m sglang.launch_server --model-path m2 --tp-size $TP --help",
            "export TP=4\npython3 -m sglang.launch_server --model-path m3 --help\n",
        ]
    );
    let stage_one = &snippets[0];
    // the escaped quote stands for `\"` in the file
    assert!(pieces(DOCKERFILE_STAGES, stage_one).contains(&("\"".into(), "synthetic", "\\\"".into())));
    assert_eq!(errors(DOCKERFILE_STAGES, stage_one)[0].2, "x");
}

// ---------------------------------------------------------------------------------------------
// Scalars of every style map back byte for byte where they can

#[test]
fn quoted_and_folded_scalars_map_their_own_bytes_and_mark_escapes_and_folds() {
    let file = concat!(
        "a: \"python -m sglang.launch_server --model-path \\\"m\\\" \\\n",
        "   --tp-size x\"\n",
        "b: 'python -m sglang.launch_server --model-path ''m''\n",
        "   --tp-size y'\n",
        "c: >\n",
        "  python -m sglang.launch_server\n",
        "  --model-path m --tp-size z\n",
        "d: python -m sglang.launch_server\n",
        "   --model-path m --tp-size w\n",
    );
    let snippets = yaml::extract(file);
    let texts: Vec<&str> = snippets.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "python -m sglang.launch_server --model-path \"m\" --tp-size x",
            "python -m sglang.launch_server --model-path 'm' --tp-size y",
            "python -m sglang.launch_server --model-path m --tp-size z\n",
            "python -m sglang.launch_server --model-path m --tp-size w",
        ]
    );
    for snippet in &snippets {
        for (text, kind, bytes) in pieces(file, snippet) {
            match kind {
                "verbatim" => assert_eq!(text, bytes),
                // an escape (`\"`), a folded line break, an escaped line break's nothing
                _ => assert!(["\\\"", "\n", "\n   "].contains(&bytes.as_str()), "{text:?} at {bytes:?}"),
            }
        }
        let value = snippet.text.trim_end().rsplit(' ').next().unwrap();
        assert_eq!(errors(file, snippet)[0].2, value, "{}", snippet.text);
    }
    // the doubled quote of a single-quoted scalar is the quote once, at its first byte: only
    // the folded line break is not the file's own
    assert_eq!(pieces(file, &snippets[1]).iter().filter(|(_, kind, _)| *kind != "verbatim").count(), 1);
}

#[test]
fn text_that_only_mentions_sglang_is_not_a_launch() {
    let file = "a: pip install sglang\nb: [python3, -m, sglang.check_env]\nc: {command: [python3, app.py], args: [--serve]}\n";
    assert!(yaml::extract_with_findings(file).snippets.is_empty());
    assert!(dockerfile::extract("FROM x\nRUN pip install sglang\nCMD [\"python3\", \"app.py\"]\n").is_empty());
}

// ---------------------------------------------------------------------------------------------
// Hostile files: no panic, no blow-up, one clear finding when the YAML is broken

#[test]
fn yaml_that_does_not_parse_gives_one_finding_and_nothing_else() {
    let file = "run: |\n  python -m sglang.launch_server --model-path m\n bad: [unclosed\n";
    let found = yaml::extract_with_findings(file);
    assert!(found.snippets.is_empty());
    assert_eq!(found.findings.len(), 1);
    assert_eq!(found.findings[0].code, "SRC001");
    assert!(found.findings[0].message.starts_with("This file is not valid YAML ("));
    assert_eq!(found.findings[0].message, "This file is not valid YAML (while parsing a block mapping, did not find expected key); its launch commands are not checked");
    // on the line where the YAML goes wrong
    assert_eq!(sglang_preflight::sources::line_column(file, found.findings[0].span.start).0, 3);
    assert!(found.findings[0].span.start <= file.len());
    // broken YAML with no launch in it is none of our business
    assert!(yaml::extract_with_findings("a: [unclosed\n").findings.is_empty());
}

/// Linear work on these inputs takes well under a second (debug build); a quadratic path takes
/// minutes. The bound leaves room for a busy machine.
fn quickly<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let out = f();
    assert!(started.elapsed() < Duration::from_secs(20), "{what} took {:?}", started.elapsed());
    out
}

#[test]
fn alias_bombs_are_not_expanded() {
    // each level refers to the one before four times: 4^30 values if expanded
    let mut file = String::from("l0: &l0 [\"python -m sglang.launch_server --model-path m\", x]\n");
    for k in 1..30 {
        let before = format!("*l{}", k - 1);
        file.push_str(&format!("l{k}: &l{k} [{before}, {before}, {before}, {before}]\n"));
    }
    let found = quickly("alias bomb", || yaml::extract_with_findings(&file));
    // the launch is read once, where it is written
    assert_eq!(found.snippets.len(), 1);
}

#[test]
fn ten_thousand_args_and_deep_nesting_and_huge_lines_stay_linear() {
    let mut file = String::from("command: [python3, -m, sglang.launch_server]\nargs:\n");
    for k in 0..10_000 {
        file.push_str(&format!("  - --arg-{k}\n"));
    }
    let found = quickly("10k args", || yaml::extract(&file));
    assert_eq!(found[0].pieces.iter().filter(|p| matches!(p.kind, PieceKind::Element(_))).count(), 10_003);
    let last = found[0].text.len();
    let edit = quickly("edit after 10k args", || exec::map_edit(&found[0], &Edit { start: last, end: last, replacement: " --x".into() }));
    assert_eq!(edit.unwrap().replacement, "\n  - --x");
    let from = end_of(&found[0], "sglang.launch_server --arg-0");
    let edit = quickly("removing 10k items", || exec::map_edit(&found[0], &Edit { start: from, end: last, replacement: String::new() }));
    assert_eq!(apply_edits(&file, &[edit.unwrap()]).unwrap(), "command: [python3, -m, sglang.launch_server]\nargs:\n  - --arg-0\n");

    let templated = format!("run: python -m sglang.launch_server --model-path m {}\n", "--x {{ .Values.x }} ".repeat(100_000));
    let found = quickly("100k templates on one line", || yaml::extract_with_findings(&templated));
    assert_eq!(found.findings.len(), 100_000);

    let deep = format!("{}python -m sglang.launch_server{}", "[".repeat(20_000), "]".repeat(20_000));
    quickly("deep nesting", || yaml::extract_with_findings(&deep));
    let deep_block = (0..2_000).map(|k| format!("{}- \n", " ".repeat(k))).collect::<String>();
    quickly("deep block nesting", || yaml::extract_with_findings(&deep_block));

    let huge = format!("run: python -m sglang.launch_server --model-path m {}\n", "--x y ".repeat(200_000));
    let found = quickly("huge line", || yaml::extract(&huge));
    assert_eq!(found.len(), 1);
    let huge_json = format!("CMD [\"python3\", \"-m\", \"sglang.launch_server\"{}]\n", ", \"--x\"".repeat(200_000));
    assert_eq!(quickly("huge JSON", || dockerfile::extract(&huge_json)).len(), 1);
}

#[test]
fn broken_dockerfiles_and_truncated_files_do_not_panic() {
    // an unterminated JSON array is shell form, as Docker reads it
    let [snippet] = dockerfile::extract("CMD [\"python3\", \"-m\", \"sglang.launch_server\"\n").try_into().unwrap();
    assert_eq!(snippet.text, "[\"python3\", \"-m\", \"sglang.launch_server\"");
    for text in ["CMD [\"\\", "CMD [\"a\\u12", "RUN <<", "RUN <<EOF\npython -m sglang.launch_server", "CMD \\", "ENV", "ARG =", "# escape=`\nCMD python -m sglang.launch_server `\n --tp 2"] {
        dockerfile::extract(text);
    }
    // every prefix of every fixture, cut anywhere (also inside a character)
    for file in [DEPLOYMENT, LEADER_WORKER_SET, COMPOSE, SKYPILOT, WORKFLOW, HELM, "a: \"é\\u00e9 python -m sglang.launch_server ü\"\n"] {
        for cut in 0..file.len() {
            if let Some(prefix) = file.get(..cut) {
                for snippet in yaml::extract_with_findings(prefix).snippets {
                    check_pieces_cover(prefix, &snippet);
                }
            }
        }
    }
    for file in [DOCKERFILE_EXEC, DOCKERFILE_SHELL, DOCKERFILE_STAGES] {
        for cut in 0..file.len() {
            for snippet in dockerfile::extract(&file[..cut]) {
                check_pieces_cover(&file[..cut], &snippet);
            }
        }
    }
}

/// The pieces cover the snippet in order, and every file range is inside the file on character
/// boundaries; Verbatim pieces are the file's bytes.
fn check_pieces_cover(file: &str, snippet: &Snippet) {
    let mut at = 0;
    for p in &snippet.pieces {
        assert_eq!(p.snippet.start, at, "{snippet:?}");
        assert!(p.snippet.end > p.snippet.start);
        at = p.snippet.end;
        assert!(file.get(p.file.clone()).is_some(), "{p:?} outside {file:?}");
        if p.kind == PieceKind::Verbatim {
            assert_eq!(&snippet.text[p.snippet.clone()], &file[p.file.clone()]);
        }
    }
    assert_eq!(at, snippet.text.len());
}

#[test]
fn multi_byte_text_maps_by_bytes() {
    let file = "# ümlaut ☃\nrun: \"python -m sglang.launch_server --model-path ☃ --tp-size é\"\n";
    let [snippet] = yaml::extract(file).try_into().unwrap();
    check_pieces_cover(file, &snippet);
    assert_eq!(errors(file, &snippet)[0].2, "é");
}

#[test]
fn several_documents_are_all_read() {
    let file = "command: [python3, -m, sglang.launch_server, --tp, a]\n---\nrun: python -m sglang.launch_server --tp b\n...\n---\n- sglang serve --model-path m --tp c\n";
    let snippets = yaml::extract(file);
    assert_eq!(snippets.len(), 3);
    let values: Vec<String> = snippets.iter().map(|s| errors(file, s)[0].2.clone()).collect();
    assert_eq!(values, ["a", "b", "c"]);
}

// ---------------------------------------------------------------------------------------------
// Kubernetes `$(NAME)`: the kubelet expands the container's declared variables in command/args

const LWS_WORKER: &str = r#"workerTemplate:
  spec:
    containers:
      - name: sglang-worker
        command: ["python3", "-m", "sglang.launch_server"]
        args:
          - --model-path
          - $(MODEL)
          - --tp-size
          - $(TP)
          - --dist-init-addr
          - $(LWS_LEADER_ADDRESS):20000
          - --node-rank
          - $(LWS_WORKER_INDEX)
          - --tool-call-parser
          - $(PARSER)
          - --served-model-name
          - $$(MODEL)
        env:
          - name: MODEL
            value: deepseek-ai/DeepSeek-V3
          - name: TP
            value: "16"
          - name: PARSER
            valueFrom: {configMapKeyRef: {name: sglang, key: parser}}
      - name: sidecar
        command: [sh, -c, "python3 -m sglang.launch_server --model-path $(MODEL) --tp $(TP)"]
"#;

#[test]
fn kubelet_references_take_declared_values_and_unknown_ones_stay_variables() {
    let [worker, sidecar] = yaml::extract(LWS_WORKER).try_into().unwrap();
    assert_eq!(
        worker.text,
        "export MODEL=deepseek-ai/DeepSeek-V3\nexport TP=16\npython3 -m sglang.launch_server --model-path \"deepseek-ai/DeepSeek-V3\" --tp-size \"16\" \
         --dist-init-addr \"${LWS_LEADER_ADDRESS}:20000\" --node-rank \"${LWS_WORKER_INDEX}\" --tool-call-parser \"${PARSER}\" \
         --served-model-name \"\\$(MODEL)\""
    );
    let report = sglang_preflight::check(&worker.text, &Default::default());
    assert_eq!(report.commands[0].argv[..4], owned(&["--model-path", "deepseek-ai/DeepSeek-V3", "--tp-size", "16"]));
    // `$$` is the kubelet's escape for one `$`
    assert_eq!(report.commands[0].argv.last().unwrap(), "$(MODEL)");
    // an item with a reference is shown where it is written, and not rewritten by fixes
    assert!(pieces(LWS_WORKER, &worker).contains(&("\"16\"".into(), "synthetic", "$(TP)".into())));
    let at = start_of(&worker, "\"16\"");
    assert_eq!(exec::map_edit(&worker, &Edit { start: at, end: at + 4, replacement: "8".into() }), None);

    // another container of the same pod has no `env`: its references are left as written
    assert_eq!(sidecar.text, "python3 -m sglang.launch_server --model-path $(MODEL) --tp $(TP)");
}

// ---------------------------------------------------------------------------------------------
// Edits written as the shell text's own bytes inside a quoted scalar: checked before writing

#[test]
fn an_edit_that_would_break_the_quoting_is_caught_before_writing() {
    let file = "command: [\"/bin/bash\", \"-c\", \"python -m sglang.launch_server --model-path m --tp 2\"]\n";
    let [snippet] = yaml::extract(file).try_into().unwrap();
    assert_eq!(snippet.text, "python -m sglang.launch_server --model-path m --tp 2");
    let at = end_of(&snippet, "--tp 2");
    let file_at = file_range(&snippet, at..at).start;
    let write = |replacement: &str| apply_edits(file, &[Edit { start: file_at, end: file_at, replacement: replacement.into() }]).unwrap();
    // plain words fit inside the double-quoted string
    assert!(yaml::edit_keeps_file(file, &write(" --tp-size 2")));
    // a `"` would end the YAML string early
    assert!(!yaml::edit_keeps_file(file, &write(" --json-model-override-args \"{}\"")));

    let docker = "CMD [\"sh\", \"-c\", \"python3 -m sglang.launch_server --model-path m\"]\n";
    let [snippet] = dockerfile::extract(docker).try_into().unwrap();
    let at = file_range(&snippet, snippet.text.len()..snippet.text.len()).start;
    let write = |replacement: &str| apply_edits(docker, &[Edit { start: at, end: at, replacement: replacement.into() }]).unwrap();
    assert!(dockerfile::edit_keeps_file(docker, &write(" --tp 2")));
    assert!(!dockerfile::edit_keeps_file(docker, &write(" --x \"y\"")));
}

#[test]
fn crlf_files_map_like_lf_files() {
    let lf = "spec:\n  containers:\n    - command:\n        - python3\n        - -m\n        - sglang.launch_server\n      args: [--tp-size, x]\n    - command: [bash, -c]\n      args:\n        - |\n          python -m sglang.launch_server \\\n            --tp-size y\n";
    let crlf = lf.replace('\n', "\r\n");
    for file in [lf, crlf.as_str()] {
        let snippets = yaml::extract(file);
        let texts: Vec<&str> = snippets.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["python3 -m sglang.launch_server --tp-size x", "python -m sglang.launch_server \\\n  --tp-size y\n"]);
        for s in &snippets {
            check_pieces_cover(file, s);
        }
        assert_eq!(errors(file, &snippets[0])[0].2, "x");
        assert_eq!(errors(file, &snippets[1])[0].2, "y");
        let end = snippets[0].text.len();
        let edit = exec::map_edit(&snippets[0], &Edit { start: start_of(&snippets[0], "--tp"), end, replacement: String::new() }).unwrap();
        let edited = apply_edits(file, &[edit]).unwrap();
        assert!(edited.contains("args: []"), "{edited}");
        // a plain flow sequence gets plain items where YAML reads them as the same strings
        let edit = exec::map_edit(&snippets[0], &Edit { start: end, end, replacement: " --port 30000".into() }).unwrap();
        let edited = apply_edits(file, &[edit]).unwrap();
        assert!(edited.contains("args: [--tp-size, x, --port, \"30000\"]"), "{edited}");
    }
}

// ---------------------------------------------------------------------------------------------
// docker compose interpolates `$VAR` from the host before the container sees the command

const COMPOSE_INTERPOLATION: &str = r#"services:
  sglang:
    image: lmsysorg/sglang:latest
    command: ["python3", "-m", "sglang.launch_server", "--model-path", "${MODEL:-Qwen/Qwen2.5-7B-Instruct}", "--port", "$$PORT"]
    environment:
      PORT: "30000"
      TP: ${TP:-1}
  shell:
    image: lmsysorg/sglang:latest
    command: sh -c "python3 -m sglang.launch_server --model-path m --port $PORT --tp-size $$TP"
    environment:
      - PORT=30000
      - TP=2
"#;

#[test]
fn compose_interpolation_comes_from_the_host_and_double_dollar_is_one_dollar() {
    let [exec_form, shell] = yaml::extract(COMPOSE_INTERPOLATION).try_into().unwrap();
    // `${MODEL:-...}` is the host's value or the default; `$$PORT` reaches the container as `$PORT`
    // (no shell in exec form: the literal text); `TP: ${TP:-1}` depends on the host: not exported
    assert_eq!(
        exec_form.text,
        "export PORT=30000\npython3 -m sglang.launch_server --model-path \"${MODEL:-Qwen/Qwen2.5-7B-Instruct}\" --port \"\\$PORT\""
    );
    let report = sglang_preflight::check(&exec_form.text, &Default::default());
    assert_eq!(report.commands[0].argv, owned(&["--model-path", "Qwen/Qwen2.5-7B-Instruct", "--port", "$PORT"]));
    // in shell text, `$PORT` is the host's (not the service's environment): unset here;
    // `$$TP` is the container shell's `$TP`, from the service's environment
    assert_eq!(shell.text, "export TP=2\nsh -c \"python3 -m sglang.launch_server --model-path m --port ${PORT} --tp-size $TP\"");
    assert!(pieces(COMPOSE_INTERPOLATION, &shell).contains(&("${PORT}".into(), "synthetic", "$PORT".into())));
    let report = sglang_preflight::check(&shell.text, &Default::default());
    assert_eq!(report.commands[0].argv[4..], owned(&["--tp-size", "2"]));
}

#[test]
fn a_launch_handed_to_another_program_is_read_as_shell_text() {
    let file = "command: [/opt/run-with-retries.sh]\nargs: [\"python -m sglang.launch_server --model-path m --tp-size z\"]\n";
    let [snippet] = yaml::extract(file).try_into().unwrap();
    assert_eq!(snippet.text, "python -m sglang.launch_server --model-path m --tp-size z");
    assert_eq!(errors(file, &snippet)[0].2, "z");
}

#[test]
fn jinja_statements_on_their_own_lines_read_as_comments() {
    let file = "{# an Ansible template #}\nspec:\n  containers:\n    - name: s\n{% if gpu %}\n      resources: {limits: {nvidia.com/gpu: 8}}\n{% endif %}\n      command: [python3, -m, sglang.launch_server, --model-path, \"{{ model }}\", --tp-size, z, --x, \"${#ARR}\"]\n";
    let found = yaml::extract_with_findings(file);
    let [snippet] = found.snippets.as_slice() else { panic!("{:?}", found.findings) };
    assert_eq!(snippet.text, "python3 -m sglang.launch_server --model-path \"${MODEL}\" --tp-size z --x '${#ARR}'");
    assert_eq!(errors(file, snippet)[0].2, "z");
    assert_eq!(yaml::find_templates("a {# b {{ c }} d"), vec![Range { start: 7, end: 14 }]);
}
