//! Finding the SGLang launch inside each shell command: `python -m sglang.launch_server`,
//! `sglang serve`, behind wrappers (`uv run`, `nohup`, `numactl`, `srun`, `docker run IMAGE`,
//! `env`, `sudo`, `time`, `exec`, ...), with environment from `VAR=value` prefixes, earlier
//! `export` lines, `env K=V` and `docker run -e K=V`.
//!
//! A command is an SGLang launch when its first word is the launcher itself or a known wrapper,
//! and a launcher (`python* [interpreter options] -m sglang.launch_server`, `sglang serve`)
//! appears among its words. Everything after the launcher is SGLang's argv.

use crate::diagnostic::Diagnostic;
use crate::shell::{assignment_name_len, ShellParse, Word};
use crate::span::Span;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// `sglang serve ...` (front end with positional model path and `--model-type`).
    Serve,
    /// `python -m sglang.launch_server ...`
    LaunchServer,
}

#[derive(Debug, Clone)]
pub struct Invocation {
    pub entry: Entry,
    /// Span of the launcher words (`python -m sglang.launch_server`, `sglang serve`).
    pub launcher: Span,
    /// The words after the launcher, exactly as the shell passes them to SGLang.
    pub args: Vec<Word>,
    /// Environment SGLang would see from the pasted text (prefix assignments, `export`s,
    /// `docker run -e`), in order; later entries win.
    pub env: Vec<(String, String)>,
    /// The whole command's span.
    pub span: Span,
}

#[derive(Debug, Clone, Default)]
pub struct Located {
    pub invocations: Vec<Invocation>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Programs that run another command given on their command line.
const WRAPPERS: &[&str] = &[
    "nohup", "numactl", "srun", "env", "time", "exec", "sudo", "docker", "podman", "uv", "nice", "taskset", "stdbuf",
    "timeout", "command", "setsid", "ionice", "chrt", "conda", "mamba", "micromamba", "poetry", "pdm", "hatch", "pipenv",
    "pixi", "rye", "uvx", "mpirun", "salloc", "apptainer", "singularity", "enroot", "caffeinate", "xvfb-run",
];

fn basename(s: &str) -> &str {
    s.rsplit('/').next().unwrap_or(s)
}

/// `python`, `python3`, `python3.11`, `/usr/bin/python3`, `.venv/bin/python`, `pypy3`.
pub fn is_python(word: &str) -> bool {
    let b = basename(word);
    let rest = b.strip_prefix("python").or_else(|| b.strip_prefix("pypy"));
    match rest {
        Some(r) => r.bytes().all(|c| c.is_ascii_digit() || c == b'.'),
        None => false,
    }
}

/// If `words[j]` starts a launcher, its entry and the index of the first SGLang argument.
fn launcher_at(words: &[Word], j: usize) -> Option<(Entry, usize)> {
    let w = words.get(j)?.text.as_str();
    if basename(w) == "sglang" {
        return (words.get(j + 1)?.text == "serve").then_some((Entry::Serve, j + 2));
    }
    if !is_python(w) {
        return None;
    }
    // interpreter options before -m
    let mut k = j + 1;
    while let Some(o) = words.get(k) {
        let o = o.text.as_str();
        if o == "-m" {
            let m = words.get(k + 1)?.text.as_str();
            return is_launch_module(m).then_some((Entry::LaunchServer, k + 2));
        }
        if let Some(m) = o.strip_prefix("-m") {
            return is_launch_module(m).then_some((Entry::LaunchServer, k + 1));
        }
        if o == "-X" || o == "-W" || o == "--check-hash-based-pycs" {
            k += 2;
        } else if o.starts_with('-') && o.len() > 1 && o != "-c" && o != "-" {
            // combined flags like `-uB`, or `-Wignore`, `-Xdev`
            if let Some(last) = o.strip_prefix('-').and_then(|f| f.find('m')) {
                // `-um sglang.launch_server`
                if !o.starts_with("-W") && !o.starts_with("-X") && !o.starts_with("--") {
                    let after = o.get(last + 2..).unwrap_or("");
                    if after.is_empty() {
                        let m = words.get(k + 1)?.text.as_str();
                        return is_launch_module(m).then_some((Entry::LaunchServer, k + 2));
                    }
                    return is_launch_module(after).then_some((Entry::LaunchServer, k + 1));
                }
            }
            k += 1;
        } else {
            // a script path
            return (o.ends_with("sglang/launch_server.py")).then_some((Entry::LaunchServer, k + 1));
        }
    }
    None
}

fn is_launch_module(m: &str) -> bool {
    m == "sglang.launch_server"
}

fn set(env: &mut Vec<(String, String)>, k: &str, v: &str) {
    env.retain(|(n, _)| n != k);
    env.push((k.to_string(), v.to_string()));
}

/// Find every SGLang invocation in the parsed text.
pub fn locate(parsed: &ShellParse) -> Located {
    let mut out = Located::default();
    // shell variables and which of them are exported, as the paste runs
    let mut vars: Vec<(String, String)> = Vec::new();
    let mut exported: Vec<(String, String)> = Vec::new();
    // `export NAME` before NAME has a value: exported once it gets one
    let mut export_names: Vec<String> = Vec::new();
    for cmd in &parsed.commands {
        let words = &cmd.words;
        let Some(first) = words.first() else {
            for a in &cmd.assignments {
                set(&mut vars, &a.name, &a.value);
                if exported.iter().any(|(n, _)| n == &a.name) || export_names.contains(&a.name) {
                    set(&mut exported, &a.name, &a.value);
                }
            }
            continue;
        };
        match first.text.as_str() {
            "export" | "declare" | "typeset" => {
                let mut any_x = first.text == "export";
                for w in words.iter().skip(1) {
                    let t = w.text.as_str();
                    if t.starts_with('-') {
                        any_x |= t.contains('x');
                        continue;
                    }
                    if let Some(nl) = assignment_name_len(t) {
                        let (k, v) = (t.get(..nl).unwrap_or(""), t.get(nl + 1..).unwrap_or(""));
                        set(&mut vars, k, v);
                        if any_x {
                            set(&mut exported, k, v);
                        }
                    } else if any_x {
                        match vars.iter().find(|(n, _)| n == t).cloned() {
                            Some((_, v)) => set(&mut exported, t, &v),
                            None => export_names.push(t.to_string()),
                        }
                    }
                }
                continue;
            }
            "unset" => {
                for w in words.iter().skip(1) {
                    vars.retain(|(n, _)| n != &w.text);
                    exported.retain(|(n, _)| n != &w.text);
                    export_names.retain(|n| n != &w.text);
                }
                continue;
            }
            _ => {}
        }
        // Is this a launch? The first word is the launcher or a wrapper.
        let direct = launcher_at(words, 0);
        let found = match direct {
            Some(f) => Some((0, f)),
            None if WRAPPERS.contains(&basename(&first.text)) => (1..words.len()).find_map(|j| launcher_at(words, j).map(|f| (j, f))),
            None => None,
        };
        let Some((j, (entry, argstart))) = found else { continue };

        // Environment: exported vars, prefix assignments, then what the wrappers add.
        let mut env = exported.clone();
        for a in &cmd.assignments {
            set(&mut env, &a.name, &a.value);
        }
        let mut mode = "";
        let mut k = 0;
        while k < j {
            let t = words.get(k).map(|w| w.text.as_str()).unwrap_or("");
            let b = basename(t);
            if WRAPPERS.contains(&b) && (mode != "docker" || k == 0) && !t.starts_with('-') {
                mode = b;
                if b == "podman" {
                    mode = "docker";
                }
                if b == "docker" {
                    // the container does not inherit the host's environment
                    env.clear();
                }
                if b == "sudo" {
                    // sudo resets the environment unless -E / --preserve-env
                    let keep = words.get(k + 1..j).unwrap_or(&[]).iter().any(|w| {
                        let t = w.text.as_str();
                        t == "-E" || t.starts_with("--preserve-env") || (t.starts_with('-') && !t.starts_with("--") && t.contains('E'))
                    });
                    if !keep {
                        env.clear();
                    }
                }
                k += 1;
                continue;
            }
            match mode {
                "env" | "sudo" => {
                    if let Some(nl) = assignment_name_len(t) {
                        set(&mut env, t.get(..nl).unwrap_or(""), t.get(nl + 1..).unwrap_or(""));
                    } else if mode == "env" && (t == "-u" || t == "--unset") {
                        if let Some(n) = words.get(k + 1) {
                            env.retain(|(x, _)| x != &n.text);
                        }
                        k += 1;
                    } else if mode == "env" && (t == "-i" || t == "--ignore-environment" || t == "-") {
                        env.clear();
                    }
                }
                "docker" => {
                    let spec = if t == "-e" || t == "--env" {
                        k += 1;
                        words.get(k).map(|w| w.text.as_str())
                    } else if let Some(s) = t.strip_prefix("--env=") {
                        Some(s)
                    } else if t.starts_with("-e") && !t.starts_with("--") && t.len() > 2 {
                        t.get(2..)
                    } else {
                        None
                    };
                    if let Some(s) = spec {
                        match assignment_name_len(s) {
                            Some(nl) => set(&mut env, s.get(..nl).unwrap_or(""), s.get(nl + 1..).unwrap_or("")),
                            None => {
                                // `-e NAME` passes the host's value
                                let host = exported.iter().find(|(n, _)| n == s).cloned();
                                if let Some((n, v)) = host {
                                    set(&mut env, &n, &v);
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
            k += 1;
        }

        let launcher = match (words.get(j), words.get(argstart.saturating_sub(1))) {
            (Some(a), Some(b)) => a.span.cover(b.span),
            _ => cmd.span,
        };
        out.invocations.push(Invocation {
            entry,
            launcher,
            args: words.get(argstart..).unwrap_or(&[]).to_vec(),
            env,
            span: cmd.span,
        });
    }
    out
}
