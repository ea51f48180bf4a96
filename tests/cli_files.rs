//! `sglang-preflight check PATH...` on files and directories, as a user runs it: which files
//! are read, what is printed (file:line:col), the exit codes, `--fix` / `--diff`, settings files
//! and ignores; and one pasted text (stdin, one shell file) printing exactly today's report.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice, clippy::panic)]

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const MODEL: &str = "meta-llama/Llama-3.1-8B-Instruct";

/// Rejected: `lama3` is not a tool-call parser (ARG005, with the safe fix `llama3`).
fn bad() -> String {
    format!("python -m sglang.launch_server --model-path {MODEL} --tool-call-parser lama3")
}

fn good() -> String {
    format!("python -m sglang.launch_server --model-path {MODEL} --tool-call-parser llama3")
}

/// Rejected, with only unsafe fixes (CG002: dropping the flag or another value changes the server).
fn only_unsafe_fix() -> String {
    format!("python -m sglang.launch_server --model-path {MODEL} --cuda-graph-prefill-max-context 0")
}

/// A temporary directory with files in it.
struct Tree(tempfile::TempDir);

impl Tree {
    fn new(files: &[(&str, &str)]) -> Tree {
        let tree = Tree(tempfile::tempdir().unwrap());
        for (path, text) in files {
            tree.write(path, text.as_bytes());
        }
        tree
    }
    fn write(&self, path: &str, bytes: &[u8]) {
        let full = self.path(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, bytes).unwrap();
    }
    fn path(&self, path: &str) -> PathBuf {
        self.0.path().join(path)
    }
    fn read(&self, path: &str) -> String {
        std::fs::read_to_string(self.path(path)).unwrap()
    }
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.0.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }
}

struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Out {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", self.stdout, self.stderr))
    }
}

/// The CLI run in `dir` with `args`, `stdin` as its input.
fn run_with_input(dir: &Path, args: &[&str], stdin: &str) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sglang-preflight"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    Out { code: out.status.code(), stdout: String::from_utf8(out.stdout).unwrap(), stderr: String::from_utf8(out.stderr).unwrap() }
}

fn run(dir: &Path, args: &[&str]) -> Out {
    run_with_input(dir, args, "")
}

/// The files a JSON files report lists.
fn files_of(report: &Value) -> Vec<&str> {
    report["files"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap()).collect()
}

fn check_json(tree: &Tree, args: &[&str]) -> Value {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    run(tree.0.path(), &all).json()
}

#[test]
fn a_walk_reads_files_of_known_kinds_and_skips_ignored_hidden_and_unknown_ones() {
    let tree = Tree::new(&[
        ("run.sh", &format!("#!/bin/sh\n{}\n", bad())),
        ("scripts/ok.sbatch", &format!("#!/bin/bash\n#SBATCH -N 1\n{}\n", good())),
        ("scripts/other.sh", "echo no launch here\n"),
        (".gitignore", "build/\n"),
        ("build/generated.sh", &bad()),
        (".cache/launch.sh", &bad()),
        ("notes.cfg", &bad()),
    ]);
    let report = check_json(&tree, &["."]);
    assert_eq!(files_of(&report), ["run.sh", "scripts/ok.sbatch"]);
    assert_eq!(report["accepted"], false);
    assert_eq!(report["files_read"], 3, "run.sh, ok.sbatch and other.sh were read");
    // A directory named by another path shows its files under that path.
    let report = check_json(&tree, &["scripts"]);
    assert_eq!(files_of(&report), ["scripts/ok.sbatch"]);
}

#[test]
fn include_reads_matching_files_of_any_kind_and_exclude_drops_files_and_directories() {
    let tree = Tree::new(&[
        ("run.sh", &bad()),
        ("deploy/serve.cfg", &bad()),
        ("deploy/old/serve.sh", &bad()),
        ("vendor/x.sh", &bad()),
    ]);
    let report = check_json(&tree, &[".", "--include", "deploy/**"]);
    assert_eq!(files_of(&report), ["deploy/old/serve.sh", "deploy/serve.cfg"]);
    let report = check_json(&tree, &[".", "--exclude", "vendor", "--exclude", "deploy/old/**"]);
    assert_eq!(files_of(&report), ["run.sh"]);
    // A file named on the command line is excluded too (as pre-commit names every file).
    let report = check_json(&tree, &["run.sh", "vendor/x.sh", "--exclude", "vendor/**"]);
    assert_eq!(files_of(&report), ["run.sh"]);
}

#[test]
fn text_output_is_path_line_column_then_explanation_and_fixes_then_a_summary() {
    let tree = Tree::new(&[("a.sh", &format!("#!/bin/sh\n# serve\n{}\n", bad())), ("b.sh", &good())]);
    let out = run(tree.0.path(), &["check", "a.sh", "b.sh"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let column = bad().find("lama3").unwrap() + 1;
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[0].starts_with(&format!("a.sh:3:{column}: error[ARG005] SystemExit: argument --tool-call-parser: invalid choice: 'lama3'")), "{}", out.stdout);
    assert!(lines[1].starts_with("    ") && !lines[1].trim().is_empty(), "explanation: {}", out.stdout);
    assert_eq!(lines[2], "    fix (safe): Use 'llama3'");
    assert_eq!(lines[3], "");
    assert_eq!(lines[4], "SGLang 0.5.23 on 8×H100 would reject 1 of 2 launches in 2 files (2 files read): 1 error");
    // Every check on these commands ran (a catalog model whose hooks are modelled): no "Not run
    // here" line (tests/not_run.rs has the CLI's line for a model nothing is known of).
    assert_eq!(lines.len(), 5, "{}", out.stdout);
}

#[test]
fn json_output_gives_each_file_and_command_its_line_and_column() {
    let text = format!("#!/bin/sh\nset -e\n  {}\n", bad());
    let tree = Tree::new(&[("dir/run.sh", &text)]);
    let report = check_json(&tree, &["dir"]);
    assert_eq!(report["sglang_version"], "0.5.23");
    assert_eq!(report["hardware"], "8×H100");
    assert_eq!(report["accepted"], false);
    let file = &report["files"][0];
    assert_eq!(file["file"], "dir/run.sh");
    assert_eq!(file["kind"], "shell");
    assert_eq!(file["accepted"], false);
    let command = &file["commands"][0];
    assert_eq!((command["line"].as_u64(), command["column"].as_u64()), (Some(3), Some(3)));
    assert_eq!(command["entry"], "launch_server");
    // Spans are bytes of the file.
    let span = &command["diagnostics"][0]["span"];
    let (start, end) = (span["start"].as_u64().unwrap() as usize, span["end"].as_u64().unwrap() as usize);
    assert_eq!(&text[start..end], "lama3");
}

#[test]
fn exit_codes_over_all_files() {
    let tree = Tree::new(&[("ok/a.sh", &good()), ("ok/b.md", "# no launch\n"), ("empty/.keep", ""), ("bad/a.sh", &bad())]);
    let code = |args: &[&str]| run(tree.0.path(), args).code;
    assert_eq!(code(&["check", "ok"]), Some(0), "every launch would start");
    assert_eq!(code(&["check", "empty"]), Some(0), "no launch in a tree is fine");
    assert_eq!(code(&["check", "ok", "bad"]), Some(1), "one rejected launch");
    assert_eq!(code(&["check", "ok", "missing"]), Some(2), "a path that is not there");
    assert_eq!(code(&["check", "ok", "--exclude", "[z-a]"]), Some(2), "a bad glob");
    assert_eq!(code(&["check", "ok", "--format", "yaml"]), Some(2));
    assert_eq!(code(&["check", "ok", "--unsafe-fixes"]), Some(2), "--unsafe-fixes without --fix or --diff");
}

#[test]
fn a_walked_file_that_is_not_utf8_is_one_finding_and_the_others_are_still_checked() {
    let tree = Tree::new(&[("a.sh", &good())]);
    let mut latin1 = bad().into_bytes();
    latin1.extend_from_slice(b" # caf\xe9\n");
    tree.write("b.sh", &latin1);
    tree.write("c.txt", b"no mention of the server, caf\xe9\n");
    let out = run(tree.0.path(), &["check", "--format", "json", "."]);
    assert_eq!(out.code, Some(1));
    let report = out.json();
    assert_eq!(files_of(&report), ["a.sh", "b.sh"], "c.txt cannot hold a launch: skipped quietly");
    assert_eq!(report["files"][0]["accepted"], true);
    let finding = &report["files"][1]["diagnostics"][0];
    assert_eq!(finding["code"], "IO001");
    assert!(finding["message"].as_str().unwrap().contains("not UTF-8"), "{finding}");
    // Named on the command line, it is a usage error, as it always was.
    let out = run(tree.0.path(), &["check", "a.sh", "b.sh"]);
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("b.sh: input is not valid UTF-8"), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}

#[cfg(unix)]
#[test]
fn fix_rewrites_the_file_in_place_keeping_its_permissions_and_every_byte_outside_the_fix() {
    use std::os::unix::fs::PermissionsExt;
    let before = format!("#!/bin/sh\n# keep  this  spacing\t\n{} \\\n  --port 30000   # trailing comment\necho done\n", bad());
    let tree = Tree::new(&[("serve.sh", &before), ("other.sh", &good())]);
    std::fs::set_permissions(tree.path("serve.sh"), std::fs::Permissions::from_mode(0o754)).unwrap();
    let out = run(tree.0.path(), &["check", "--fix", "."]);
    assert_eq!(out.code, Some(0), "the fixed file passes: {}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("serve.sh: fixed 1 finding"), "{}", out.stderr);
    assert_eq!(tree.read("serve.sh"), before.replacen("lama3", "llama3", 1));
    assert_eq!(std::fs::metadata(tree.path("serve.sh")).unwrap().permissions().mode() & 0o7777, 0o754);
    assert_eq!(tree.read("other.sh"), good(), "a file without fixes is not written");
    assert_eq!(tree.names(), ["other.sh", "serve.sh"], "no temporary file is left behind");
    // Checking again finds nothing to fix.
    assert_eq!(run(tree.0.path(), &["check", "."]).code, Some(0));
}

#[test]
fn fix_applies_unsafe_fixes_only_when_asked() {
    let before = format!("{}\n", only_unsafe_fix());
    let tree = Tree::new(&[("serve.sh", &before)]);
    let out = run(tree.0.path(), &["check", "--fix", "serve.sh"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_eq!(tree.read("serve.sh"), before);
    let out = run(tree.0.path(), &["check", "--fix", "--unsafe-fixes", "serve.sh"]);
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    assert_eq!(tree.read("serve.sh"), format!("python -m sglang.launch_server --model-path {MODEL}\n"));
}

#[test]
fn diff_prints_what_fix_would_change_and_writes_nothing() {
    let before = format!("# serve\n{}\n", bad());
    let tree = Tree::new(&[("serve.sh", &before), ("notes.md", "nothing\n")]);
    let out = run(tree.0.path(), &["check", "--diff", "."]);
    assert_eq!(out.code, Some(1), "the files as they stand would be rejected");
    let want = format!("--- a/serve.sh\n+++ b/serve.sh\n@@ -1,2 +1,2 @@\n # serve\n-{}\n+{}\n", bad(), bad().replace("lama3", "llama3"));
    assert_eq!(out.stdout, want);
    assert_eq!(tree.read("serve.sh"), before);
}

#[test]
fn fix_on_stdin_prints_the_fixed_text() {
    let tree = Tree::new(&[]);
    let out = run_with_input(tree.0.path(), &["check", "--fix", "-"], &format!("{}\n", bad()));
    assert_eq!(out.stdout, format!("{}\n", good()));
    assert_eq!(out.code, Some(0));
    let out = run_with_input(tree.0.path(), &["check", "--diff"], &format!("{}\n", bad()));
    assert!(out.stdout.starts_with("--- a/-\n+++ b/-\n"), "{}", out.stdout);
    assert_eq!(out.code, Some(1));
}

#[test]
fn settings_are_found_from_the_current_directory_upward_and_the_command_line_overrides_them() {
    let tree = Tree::new(&[
        ("sglang-preflight.toml", "gpu = \"h200\"\ngpus = 2\nignore = [\"ARG005\"]\nexclude = [\"vendor/**\"]\n"),
        ("project/run.sh", &bad()),
        ("project/vendor/x.sh", &only_unsafe_fix()),
        ("vendor/y.sh", &only_unsafe_fix()),
    ]);
    let in_project = tree.path("project");
    // ARG005 is ignored, vendor/ (relative to the settings file) is not checked.
    let out = run(&tree.path("project"), &["check", "--format", "json", "."]);
    let report = out.json();
    assert_eq!(report["hardware"], "2×H200");
    assert_eq!(files_of(&report), ["run.sh", "vendor/x.sh"], "only the settings directory's vendor/ is excluded");
    assert_eq!(report["files"][0]["accepted"], true, "{report}");
    // The command line wins over the settings file.
    let report = run(&in_project, &["check", "--format", "json", "--gpus", "4", "--gpu", "b200", "run.sh", "vendor/x.sh"]).json();
    assert_eq!(report["hardware"], "4×B200");
    // --no-settings reads none.
    let out = run(&in_project, &["check", "--no-settings", "run.sh"]);
    assert_eq!(out.code, Some(1));
    // --settings names one.
    tree.write("other.toml", b"gpu = \"mi300x\"\n");
    let report = run(&in_project, &["check", "--format", "json", "--settings", "../other.toml", "run.sh", "vendor/x.sh"]).json();
    assert_eq!(report["hardware"], "8×MI300X");
}

#[test]
fn pyproject_settings_live_in_the_tool_table() {
    let tree = Tree::new(&[("pyproject.toml", "[project]\nname = \"x\"\n\n[tool.sglang-preflight]\ngpu = \"a100\"\n"), ("run.sh", &good())]);
    let out = run(tree.0.path(), &["check", "--show-settings"]);
    assert_eq!(out.code, Some(0));
    assert!(out.stdout.contains("gpu = \"a100\"  # ") && out.stdout.contains("pyproject.toml"), "{}", out.stdout);
    // A pyproject.toml without the table does not stop the search upward.
    let nested = Tree::new(&[("sglang-preflight.toml", "gpu = \"l40s\"\n"), ("sub/pyproject.toml", "[project]\nname = \"y\"\n")]);
    let out = run(&nested.path("sub"), &["check", "--show-settings"]);
    assert!(out.stdout.contains("gpu = \"l40s\""), "{}", out.stdout);
}

#[test]
fn show_settings_prints_each_value_with_where_it_came_from() {
    let tree = Tree::new(&[("sglang-preflight.toml", "gpu = \"h200\"\nignore = [\"ARG009\"]\n")]);
    let out = run(tree.0.path(), &["check", "--show-settings", "--gpus", "2", "--ignore", "TXT004"]);
    assert_eq!(out.code, Some(0));
    let settings_file = std::fs::canonicalize(tree.path("sglang-preflight.toml")).unwrap();
    let from_file = |line: &str| out.stdout.lines().any(|l| l.starts_with(line) && (l.ends_with(&settings_file.display().to_string()) || l.ends_with("sglang-preflight.toml")));
    assert!(from_file("gpu = \"h200\"  # "), "{}", out.stdout);
    assert!(out.stdout.contains("sglang-version = \"0.5.23\"  # default"), "{}", out.stdout);
    assert!(out.stdout.contains("gpus = 2  # command line"), "{}", out.stdout);
    assert!(from_file("    \"ARG009\",  # "), "{}", out.stdout);
    assert!(out.stdout.contains("    \"TXT004\",  # command line"), "{}", out.stdout);
}

#[test]
fn a_settings_file_with_an_unknown_key_or_value_is_a_usage_error_that_names_it() {
    let cases = [
        ("ignores = [\"ARG009\"]\n", "unknown key `ignores` (did you mean `ignore`?)"),
        ("sglang_version = \"0.5.23\"\n", "unknown key `sglang_version` (did you mean `sglang-version`?)"),
        ("gpus = \"two\"\n", "`gpus` must be a whole number of GPUs"),
        ("gpu = \"h1000\"\n", "unknown GPU preset \"h1000\" (did you mean h100?)"),
        ("ignore = [\"ARG08\"]\n", "unknown code \"ARG08\" (did you mean ARG008?)"),
        ("sglang-version = \"0.1\"\n", "SGLang 0.1 is not supported"),
        ("exclude = \"vendor\"\n", "`exclude` must be a list of strings"),
        ("gpu = \n", "sglang-preflight.toml"),
    ];
    for (toml, want) in cases {
        let tree = Tree::new(&[("sglang-preflight.toml", toml), ("run.sh", &good())]);
        let out = run(tree.0.path(), &["check", "run.sh"]);
        assert_eq!(out.code, Some(2), "{toml}");
        assert!(out.stderr.contains(want), "{toml}: {}", out.stderr);
        assert!(out.stdout.is_empty());
    }
    let tree = Tree::new(&[("run.sh", &good())]);
    let out = run(tree.0.path(), &["check", "--ignore", "ARG08", "run.sh"]);
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("(did you mean ARG008?)"), "{}", out.stderr);
}

#[test]
fn ignored_codes_drop_findings_from_files_and_from_a_paste() {
    let tree = Tree::new(&[("a.sh", &bad()), ("b.sh", &good())]);
    let dir = tree.0.path();
    assert_eq!(run(dir, &["check", "a.sh", "b.sh"]).code, Some(1));
    assert_eq!(run(dir, &["check", "--ignore", "ARG005", "a.sh", "b.sh"]).code, Some(0));
    // A family's letters ignore all its codes; comma-separated lists work.
    assert_eq!(run(dir, &["check", "--ignore", "TXT,ARG", "a.sh", "b.sh"]).code, Some(0));
    // One pasted text: today's report without the ignored findings.
    let out = run_with_input(dir, &["check", "--format", "json", "--ignore", "ARG005"], &bad());
    assert_eq!(out.code, Some(0));
    let report = out.json();
    assert_eq!(report["accepted"], true);
    assert!(report["commands"][0]["diagnostics"].as_array().unwrap().iter().all(|d| d["code"] != "ARG005"));
}

#[test]
fn stdin_and_one_named_shell_file_print_todays_report_unchanged() {
    use sglang_preflight::{check, CheckOptions};
    let text = format!("#!/bin/sh\n{}\n", bad());
    let tree = Tree::new(&[("run.sh", &text)]);
    let today = format!("{}\n", serde_json::to_string_pretty(&check(&text, &CheckOptions::default())).unwrap());
    let out = run_with_input(tree.0.path(), &["check", "--format", "json"], &text);
    assert_eq!((out.code, out.stdout.as_str()), (Some(1), today.as_str()));
    let out = run(tree.0.path(), &["check", "--format", "json", "run.sh"]);
    assert_eq!((out.code, out.stdout.as_str()), (Some(1), today.as_str()));
    let snapshot = sglang_preflight::snapshot::render(&text, &check(&text, &CheckOptions::default()));
    assert_eq!(run_with_input(tree.0.path(), &["check", "--format", "snapshot", "-"], &text).stdout, snapshot);
    // Stdin's text is today's: a numbered command with its findings, then the verdict line.
    let out = run_with_input(tree.0.path(), &["check"], &text);
    assert!(out.stdout.starts_with("command 1 (line 2): rejected\n"), "{}", out.stdout);
    assert!(out.stdout.ends_with("SGLang 0.5.23 on 8×H100 would reject this: 1 error.\n"), "{}", out.stdout);
    // A single shell text with no launch is still a paste without a verdict: exit 1.
    tree.write("empty.sh", b"echo hi\n");
    assert_eq!(run(tree.0.path(), &["check", "empty.sh"]).code, Some(1));
    // With --files (pre-commit names the files a commit changes, maybe one) it is a file like
    // any other: no launch is fine, and the output is the files'.
    let out = run(tree.0.path(), &["check", "--files", "empty.sh"]);
    assert_eq!(out.code, Some(0));
    assert_eq!(out.stdout, "SGLang 0.5.23 on 8×H100: no launch command found (1 file read)\n");
    let report = run(tree.0.path(), &["check", "--files", "--format", "json", "run.sh"]).json();
    assert_eq!(files_of(&report), ["run.sh"]);
}

#[test]
fn launches_in_markdown_and_yaml_are_reported_where_they_are_written() {
    let markdown = format!("# Serving\n\nRun:\n\n```bash\n$ {}\n```\n", bad());
    let manifest = format!(
        "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: sglang\n      command: [\"python\", \"-m\", \"sglang.launch_server\"]\n      args: [\"--model-path\", \"{MODEL}\", \"--tool-call-parser\", \"lama3\"]\n"
    );
    let tree = Tree::new(&[("docs/serve.md", &markdown), ("k8s/pod.yaml", &manifest)]);
    let out = run(tree.0.path(), &["check", "."]);
    assert_eq!(out.code, Some(1));
    let md_column = format!("$ {}", bad()).find("lama3").unwrap() + 1;
    assert!(out.stdout.contains(&format!("docs/serve.md:6:{md_column}: error[ARG005]")), "{}", out.stdout);
    let yaml_line = manifest.lines().position(|l| l.contains("lama3")).unwrap() + 1;
    let yaml_column = manifest.lines().nth(yaml_line - 1).unwrap().find("lama3").unwrap();
    // The element as written, quotes included, or its value just inside them.
    assert!(
        out.stdout.contains(&format!("k8s/pod.yaml:{yaml_line}:{yaml_column}: error[ARG005]")) || out.stdout.contains(&format!("k8s/pod.yaml:{yaml_line}:{}: error[ARG005]", yaml_column + 1)),
        "{}",
        out.stdout
    );
    // --fix edits the list element in the list's own syntax.
    let out = run(tree.0.path(), &["check", "--fix", "."]);
    assert_eq!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    assert_eq!(tree.read("docs/serve.md"), markdown.replace("lama3", "llama3"));
    // The element is rewritten in the list's syntax: quoted, or as a plain scalar.
    let fixed = tree.read("k8s/pod.yaml");
    assert!(fixed == manifest.replace("\"lama3\"", "\"llama3\"") || fixed == manifest.replace("\"lama3\"", "llama3"), "{fixed}");
}

#[test]
fn github_and_sarif_formats_cover_every_file() {
    let tree = Tree::new(&[("a.sh", &format!("\n{}\n", bad())), ("b/c.sh", &bad())]);
    let out = run(tree.0.path(), &["check", "--format", "github", "."]);
    assert_eq!(out.code, Some(1));
    assert!(out.stdout.lines().any(|l| l.starts_with("::error file=a.sh,line=2,")), "{}", out.stdout);
    assert!(out.stdout.lines().any(|l| l.starts_with("::error file=b/c.sh,line=1,")), "{}", out.stdout);
    let out = run(tree.0.path(), &["check", "--format", "sarif", "."]);
    assert_eq!(out.code, Some(1));
    let log = out.json();
    assert_eq!(log["version"], "2.1.0");
    let uris: Vec<&str> = log["runs"][0]["results"].as_array().unwrap().iter().map(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap()).collect();
    assert!(uris.contains(&"a.sh") && uris.contains(&"b/c.sh"), "{uris:?}");
}

#[test]
fn snapshot_format_for_files_is_each_file_s_snapshot_under_its_name() {
    use sglang_preflight::{check, CheckOptions};
    let tree = Tree::new(&[("a.sh", &bad()), ("b/c.sh", &good())]);
    let out = run(tree.0.path(), &["check", "--format", "snapshot", "."]);
    assert_eq!(out.code, Some(1));
    let snapshot = |text: &str| sglang_preflight::snapshot::render(text, &check(text, &CheckOptions::default()));
    assert_eq!(out.stdout, format!("== a.sh ==\n{}== b/c.sh ==\n{}", snapshot(&bad()), snapshot(&good())));
}

#[test]
fn a_pasted_text_that_names_its_release_is_checked_against_it_unless_one_is_chosen() {
    let tree = Tree::new(&[]);
    // The image names 0.5.18, which still had --mamba-scheduler-strategy (0.5.20 renamed it).
    let text = "docker run --gpus all lmsysorg/sglang:v0.5.18 \\\n  python3 -m sglang.launch_server --model-path m --mamba-scheduler-strategy no_buffer\n";
    let named = run_with_input(tree.0.path(), &["check", "--format", "json", "-"], text).json();
    assert_eq!(named["sglang_version"], "0.5.18");
    assert_eq!(named["accepted"], true, "0.5.18 still had --mamba-scheduler-strategy");
    // (0.5.18's start-up checks are modelled: checked at every stage)
    assert_ne!(named["parser_only"], true);
    let chosen = run_with_input(tree.0.path(), &["check", "--format", "json", "--sglang-version", "0.5.23", "-"], text).json();
    assert_eq!(chosen["sglang_version"], "0.5.23");
    assert_eq!(chosen["accepted"], false);
}

#[test]
fn compare_releases_says_which_releases_parse_a_text_differently() {
    let tree = Tree::new(&[]);
    let text = "python -m sglang.launch_server --model-path m --mamba-scheduler-strategy no_buffer\n";
    let out = run_with_input(tree.0.path(), &["check", "--format", "json", "--compare-releases", "-"], text).json();
    let others = out["other_releases"].as_array().unwrap();
    let on = |v: &str| others.iter().find(|o| o["sglang_version"] == v).unwrap_or_else(|| panic!("{v} missing: {others:?}"));
    // The flag was renamed in 0.5.20: the releases before still parse it; those after judge it
    // as 0.5.23 does, so they are not listed.
    assert_eq!(on("0.5.18")["parser_accepts"], true);
    assert_eq!(on("0.5.19")["parser_accepts"], true);
    assert!(others.iter().all(|o| o["sglang_version"] != "0.5.20" && o["sglang_version"] != "0.5.22"), "{others:?}");
    let text_out = run_with_input(tree.0.path(), &["check", "--compare-releases", "-"], text);
    assert!(text_out.stdout.contains("On SGLang 0.5.18: its command-line parser accepts it."), "{}", text_out.stdout);
}

#[test]
fn changes_lists_what_changed_between_two_releases() {
    let tree = Tree::new(&[]);
    let out = run(tree.0.path(), &["changes", "0.5.18", "0.5.23", "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let json = out.json();
    let renamed = json["changes"].as_array().unwrap().iter().find(|c| c["flag"] == "--mamba-scheduler-strategy").unwrap();
    assert_eq!(renamed["kind"], "renamed");
    assert_eq!(renamed["to"][0], "--mamba-radix-cache-strategy");
    let md = run(tree.0.path(), &["changes", "0.5.22", "0.5.23"]);
    assert!(md.stdout.starts_with("## SGLang 0.5.22 → 0.5.23\n"), "{}", md.stdout);
    assert_eq!(run(tree.0.path(), &["changes", "0.4.0", "0.5.23"]).code, Some(2));
}
