//! Our shell reading against a real shell: every case of tests/cases/input_shapes.jsonl (except
//! those marked `"bash": false`, which are deliberately broken for bash) is run by real bash
//! with the launchers and wrappers replaced by stubs that record the argv bash gives them
//! (NUL-separated, to a file). In each recorded argv we find the SGLang launcher
//! (`-m sglang.launch_server`, `sglang serve`) and compare the words after it with our
//! `Invocation.args`, and the environment the stub saw with our `Invocation.env`. The files the
//! case writes with here-documents (real `cat`) are compared with our `ShellParse::written_files`.
//!
//! Skipped (with a note) when bash is not installed.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use serde_json::Value;
use sglang_preflight::{invocation, shell};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Commands replaced by stubs found on PATH (so `exec`, `env`, `nohup`, `sudo` run them too).
const STUBS: &[&str] = &[
    "python", "python3", "python3.10", "python3.11", "python3.12", "sglang", "docker", "podman", "uv", "nohup", "numactl",
    "srun", "env", "sudo", "nice", "taskset", "stdbuf", "timeout", "echo", "cd", "pip", "conda",
];

/// Interpreter paths used in the cases: defined as bash functions (bash allows `/` in names).
const PATH_FUNCS: &[&str] = &["/usr/bin/python3.11", "/usr/bin/python3", ".venv/bin/python", "/opt/venv/bin/sglang"];

fn bash() -> Option<PathBuf> {
    ["/bin/bash", "/usr/bin/bash"].iter().map(PathBuf::from).find(|p| p.exists())
}

/// One recorded program run: argv (argv[0] as invoked) and the environment it saw.
#[derive(Debug)]
struct Run {
    argv: Vec<String>,
    env: BTreeMap<String, String>,
}

fn setup(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for name in STUBS {
        let p = bin.join(name);
        // record argv, then the environment (`/usr/bin/env -0` by absolute path: `env` is a stub)
        let script = "#!/bin/sh\n{ printf '%s\\0' '@@ARGV' \"${0##*/}\" \"$@\"; printf '%s\\0' '@@ENV'; /usr/bin/env -0; } > \"$STUB_OUT/$$\"\n";
        std::fs::write(&p, script).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    // real shells for `bash -c` / `sh -c` cases (their commands then run the stubs too)
    #[cfg(unix)]
    for (name, real) in [("bash", "/bin/bash"), ("sh", "/bin/sh"), ("cat", "/bin/cat"), ("tee", "/usr/bin/tee")] {
        let _ = std::os::unix::fs::symlink(real, bin.join(name));
    }
    bin
}

fn run_bash(bash: &Path, dir: &Path, bin: &Path, cmd: &str) -> Vec<Run> {
    // one file per recorded run (background jobs may run at the same time)
    let out = dir.join("out");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let work = dir.join("work");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let mut script = String::new();
    for f in PATH_FUNCS {
        script.push_str(&format!(
            "function {f} {{ {{ printf '%s\\0' '@@ARGV' '{f}' \"$@\"; printf '%s\\0' '@@ENV'; /usr/bin/env -0; }} > \"$STUB_OUT/f$BASHPID.$((++STUBN))\"; }}\n"
        ));
    }
    script.push_str("cd() { :; }\n");
    // The brief: CRLF line ends are read like LF.
    script.push_str(&cmd.replace("\r\n", "\n"));
    script.push_str("\n\nwait\n");
    let status = Command::new(bash)
        .arg("--noprofile")
        .arg("--norc")
        .arg("-c")
        .arg(&script)
        .current_dir(&work)
        .env_clear()
        .env("PATH", bin)
        .env("STUB_OUT", &out)
        .env("HOME", &work)
        .output()
        .unwrap();
    let _ = status;
    let mut data = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&out).unwrap().filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    for f in files {
        data.extend(std::fs::read(f).unwrap_or_default());
        data.push(0);
    }
    let mut runs: Vec<Run> = Vec::new();
    let mut in_env = false;
    let fields: Vec<&[u8]> = data.split(|&b| b == 0).collect();
    for f in fields {
        let s = String::from_utf8_lossy(f).into_owned();
        if s == "@@ARGV" {
            runs.push(Run { argv: Vec::new(), env: BTreeMap::new() });
            in_env = false;
        } else if s == "@@ENV" {
            in_env = true;
        } else if let Some(r) = runs.last_mut() {
            if in_env {
                if let Some((k, v)) = s.split_once('=') {
                    r.env.insert(k.to_string(), v.to_string());
                }
            } else {
                r.argv.push(s);
            }
        }
    }
    runs
}

/// SGLang's argv inside a recorded run: the words after `-m sglang.launch_server` or
/// `sglang serve`, searched independently of our wrapper handling.
fn sglang_args(argv: &[String]) -> Option<Vec<String>> {
    for i in 0..argv.len() {
        let w = argv[i].as_str();
        let base = w.rsplit('/').next().unwrap_or(w);
        if w == "-msglang.launch_server" {
            return Some(argv[i + 1..].to_vec());
        }
        if w == "-m" && argv.get(i + 1).map(String::as_str) == Some("sglang.launch_server") {
            return Some(argv[i + 2..].to_vec());
        }
        if base == "sglang" && argv.get(i + 1).map(String::as_str) == Some("serve") {
            return Some(argv[i + 2..].to_vec());
        }
    }
    None
}

#[test]
fn our_words_match_real_bash() {
    let Some(bash) = bash() else {
        eprintln!("bash not found: skipped");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = std::fs::read_to_string(root.join("tests/cases/input_shapes.jsonl")).unwrap();
    let dir = std::env::temp_dir().join(format!("sglp-shell-vs-bash-{}", std::process::id()));
    let bin = setup(&dir);
    let (mut checked, mut failures) = (0, Vec::new());
    for line in cases.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("//")) {
        let case: Value = serde_json::from_str(line).unwrap();
        if case.get("bash") == Some(&Value::Bool(false)) {
            continue;
        }
        let id = case["id"].as_str().unwrap().to_string();
        let cmd = case["cmd"].as_str().unwrap();
        let runs = run_bash(&bash, &dir, &bin, cmd);
        let theirs: Vec<(&Run, Vec<String>)> = runs.iter().filter_map(|r| sglang_args(&r.argv).map(|a| (r, a))).collect();
        let parsed = shell::parse(cmd);
        // What bash wrote with here-documents (a file whose text reads a variable not known
        // here is not compared: bash stops at it, or takes the environment's value; nor one
        // without its end line, which would take this harness's own lines after the case).
        let unterminated = parsed.diagnostics.iter().any(|d| d.code == "SH010");
        for f in parsed.written_files.iter().filter(|f| f.unknown_variables.is_empty() && !f.path.starts_with('/') && !unterminated) {
            if let Ok(theirs) = std::fs::read_to_string(dir.join("work").join(&f.path)) {
                if theirs != f.content {
                    failures.push(format!("{id}: we read {} as {:?}, bash wrote {theirs:?}", f.path, f.content));
                }
            } else {
                failures.push(format!("{id}: bash wrote no {}", f.path));
            }
        }
        let ours = invocation::locate(&parsed).invocations;
        checked += 1;
        if theirs.len() != ours.len() {
            failures.push(format!("{id}: bash ran SGLang {} times, we found {} invocations\n    bash runs: {:?}", theirs.len(), ours.len(), runs.iter().map(|r| &r.argv).collect::<Vec<_>>()));
            continue;
        }
        // background jobs (`&`) may record in any order: match by argv
        let mut unmatched: Vec<&(&Run, Vec<String>)> = theirs.iter().collect();
        for inv in &ours {
            let args: Vec<String> = inv.args.iter().map(|w| w.text.clone()).collect();
            match unmatched.iter().position(|(_, a)| a == &args) {
                Some(p) => {
                    let (run, _) = unmatched.remove(p);
                    // Stubbed wrappers (`env`, `docker`, `sudo`...) do not run the launcher, so the
                    // environment is only compared when bash ran the launcher itself.
                    let direct = run.argv.first().map(|a| a.contains("python") || a.ends_with("sglang")).unwrap_or(false);
                    if direct {
                        for (k, v) in &inv.env {
                            if run.env.get(k) != Some(v) {
                                failures.push(format!("{id}: we say env {k}={v:?}, bash ran it with {:?}", run.env.get(k)));
                            }
                        }
                    }
                }
                None => failures.push(format!(
                    "{id}: our argv {args:?} is not what bash passed: {:?}",
                    theirs.iter().map(|(_, a)| a).collect::<Vec<_>>()
                )),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("shell vs bash: {} of {checked} cases agree", checked - failures.len());
    assert!(checked >= 40, "too few cases checked against bash: {checked}");
    assert!(failures.is_empty(), "{} differences from real bash:\n{}", failures.len(), failures.join("\n"));
}
