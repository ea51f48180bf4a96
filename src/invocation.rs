//! Finding the SGLang launch inside each shell command: `python -m sglang.launch_server`,
//! `sglang serve`, behind wrappers (`uv run`, `nohup`, `numactl`, `srun`, `docker run IMAGE`,
//! `env`, `sudo`, `time`, `exec`, ...), with environment from `VAR=value` prefixes, earlier
//! `export` lines, `env K=V` and `docker run -e K=V`.
//!
//! A command is an SGLang launch when a launcher (`python* [interpreter options] -m
//! sglang.launch_server`, `sglang serve`) appears among its words and its first word is not a
//! program whose arguments are only text (`echo`, `grep`, `git`, ... [`TEXT_ONLY`]): whatever
//! comes before the launcher is a wrapper that runs it (`nsys profile -o x`, `py-spy record --`,
//! `taskset -c 0-7`, `accelerate launch`, a site's own script), its options skipped, with no
//! list of wrapper names. Only the wrappers that change the launch's environment are known by
//! name ([`WRAPPERS`]: `env`, `sudo`, `docker run`, ...), each up to the program it runs.
//! Everything after the launcher is SGLang's argv.

use crate::diagnostic::Diagnostic;
use crate::shell::{assignment_name_len, ShellCommand, ShellParse, Word};
use crate::span::Span;
use serde::Serialize;
use std::collections::{HashMap, HashSet};

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
    /// Where this command's own words set a variable (`NAME=value` before it, or after `env` /
    /// `sudo`), by name: a fix can remove the assignment. Not for a launch in a `bash -c`
    /// string, nor for `export` lines or `docker -e`.
    pub env_places: Vec<(String, Span)>,
    /// The whole command's span.
    pub span: Span,
    /// Found inside a `bash -c` string: its words are inside that string's quotes in the text.
    pub nested: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Located {
    pub invocations: Vec<Invocation>,
    pub diagnostics: Vec<Diagnostic>,
    /// Every other command the shell would run (see [`AlsoRuns`]), in text order.
    pub also_runs: Vec<AlsoRuns>,
}

/// A command the pasted text runs besides the SGLang launch(es) and harmless set-up: what you
/// see is what runs, so nothing the paste does goes unlisted.
///
/// Listed: every simple command (each side of a pipeline or list, each line) that is not
/// * an SGLang launch, wrappers in front of it included (`docker run ... IMAGE`, `env K=V`,
///   `nohup`, `timeout 60`, `bash -c "..."` around a launch: the string's other commands are
///   listed themselves),
/// * a variable assignment (`K=V`) or `export`/`declare`/`typeset`/`readonly`/`local`/`unset`
///   without a command substitution in it,
/// * `cd`, `pushd`, `popd`, `set` (shell options), `true`, `:`,
/// * a here-document written to a file: `cat > F <<EOF` / `cat <<EOF > F` / `tee [-a] F <<EOF`
///   (the body is data, not commands);
///
/// and every command substitution (`$(...)`, `` `...` ``, not `$((...))` arithmetic), wherever
/// it is, unless it lies inside a command already listed. Comments and here-document bodies
/// are not commands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AlsoRuns {
    /// The command as written, quotes and redirections included.
    pub span: Span,
    /// The text at `span`, cut to [`ALSO_RUNS_TEXT_CHARS`] characters (then ending in `…`).
    pub text: String,
}

/// At most this many characters of a command are quoted in [`AlsoRuns::text`].
pub const ALSO_RUNS_TEXT_CHARS: usize = 200;

impl AlsoRuns {
    pub fn new(text: &str, span: Span) -> AlsoRuns {
        let written = text.get(span.start..span.end).unwrap_or("");
        let mut shown: String = written.chars().take(ALSO_RUNS_TEXT_CHARS).collect();
        if shown.len() < written.len() {
            shown.push('…');
        }
        AlsoRuns { span, text: shown }
    }
}

/// At most this many `P0003` findings are listed one by one; the rest make one summary.
pub const MAX_ALSO_RUNS_FINDINGS: usize = 100;

/// Programs whose presence in a paste deserves a warning rather than a note: shells and
/// interpreters (a pipeline into `sh` runs whatever was downloaded), downloaders, deleters,
/// privilege changers.
const RISKY: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "fish", "eval", "source", ".", "exec", "curl", "wget", "rm", "dd", "mkfs", "shred", "sudo",
    "su", "doas", "chmod", "chown", "nc", "ncat", "socat", "python", "python3", "perl", "ruby", "node", "base64", "xargs", "crontab",
    "ssh", "scp",
];

fn is_risky(text: &str) -> bool {
    text.split(|c: char| c.is_whitespace() || matches!(c, '|' | ';' | '&' | '(' | ')' | '`' | '$' | '"' | '\''))
        .any(|w| RISKY.contains(&basename(w)) || w.strip_prefix("python").is_some_and(|r| r.bytes().all(|b| b.is_ascii_digit() || b == b'.')))
}

/// One `P0003` finding per command in `also_runs` (a warning for shells, downloaders, `rm`,
/// ...; else a note), at most [`MAX_ALSO_RUNS_FINDINGS`], then one summary.
pub fn also_runs_diagnostics(also_runs: &[AlsoRuns]) -> Vec<Diagnostic> {
    use crate::diagnostic::{Severity, Stage};
    let explanation = "Besides the SGLang launch, the pasted text runs this command. Preflight checks only the launch; \
                       know what every other command does before you paste the text into a terminal (a page can hide \
                       `; curl ... | sh` far to the right or many lines below the part you read). Harmless set-up \
                       (variable assignments, `export`, `cd`, here-documents written to files) is not listed.";
    let mut out: Vec<Diagnostic> = also_runs
        .iter()
        .take(MAX_ALSO_RUNS_FINDINGS)
        .map(|a| {
            let severity = if is_risky(&a.text) { Severity::Warning } else { Severity::Info };
            let oneline: String = a.text.split_whitespace().collect::<Vec<_>>().join(" ");
            Diagnostic::preflight("P0003", severity, Stage::Shell, format!("this paste also runs: `{oneline}`"), a.span).with_explanation(explanation)
        })
        .collect();
    let rest = also_runs.get(MAX_ALSO_RUNS_FINDINGS..).unwrap_or(&[]);
    if let (Some(first), Some(last)) = (rest.first(), rest.last()) {
        let severity = if rest.iter().any(|a| is_risky(&a.text)) { Severity::Warning } else { Severity::Info };
        out.push(
            Diagnostic::preflight(
                "P0003",
                severity,
                Stage::Shell,
                format!("this paste also runs {} more commands (listed in `also_runs`)", rest.len()),
                first.span.cover(last.span),
            )
            .with_explanation(explanation),
        );
    }
    out
}

/// Set-up commands that run nothing else and change nothing outside the shell.
fn is_harmless(cmd: &ShellCommand) -> bool {
    let Some(first) = cmd.words.first() else { return true };
    match first.text.as_str() {
        "export" | "declare" | "typeset" | "readonly" | "local" | "unset" | "cd" | "pushd" | "popd" | "set" | "true" | ":" => true,
        "cat" => cmd.writes_here_doc && cmd.words.iter().skip(1).all(|w| w.text == "-"),
        "tee" => cmd.writes_here_doc && cmd.words.iter().skip(1).all(|w| !w.text.starts_with('-') || w.text == "-a" || w.text == "--append"),
        _ => false,
    }
}

/// Programs that run another command given on their command line, whose effect on the launch's
/// environment is modelled (docker clears it, `env` and `sudo` set it, ...).
const WRAPPERS: &[&str] = &[
    "nohup", "numactl", "srun", "env", "time", "exec", "sudo", "docker", "podman", "uv", "nice", "taskset", "stdbuf",
    "timeout", "command", "setsid", "ionice", "chrt", "conda", "mamba", "micromamba", "poetry", "pdm", "hatch", "pipenv",
    "pixi", "rye", "uvx", "mpirun", "salloc", "apptainer", "singularity", "enroot", "caffeinate", "xvfb-run",
];

/// Programs whose arguments are text, not a command they run: a launch written after them is
/// printed, searched for or edited, not started. Any other program in front of a launch
/// (profilers such as `nsys profile -o x`, `py-spy record --`, `accelerate launch`, launchers
/// this list has never heard of) is taken to run it, with its own options skipped.
const TEXT_ONLY: &[&str] = &[
    "echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "cat", "less", "more", "head", "tail", "man", "which", "whereis",
    "type", "ls", "git", "pip", "pip3", "apt", "apt-get", "sed", "awk", "vi", "vim", "nano", "code", "emacs", "history",
    "alias", "printenv", "pgrep", "pkill", "kill", "killall", "ps", "wc", "sort", "uniq", "tr", "cut", "jq", "yq",
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

/// Set `k=v`; later entries win, so a long list just grows (keeps this linear).
fn set(env: &mut Vec<(String, String)>, k: &str, v: &str) {
    if env.len() < 64 {
        env.retain(|(n, _)| n != k);
    }
    env.push((k.to_string(), v.to_string()));
}

/// Find every SGLang invocation in the parsed text.
pub fn locate(parsed: &ShellParse) -> Located {
    locate_at(parsed, 0)
}

fn is_shell(w: &str) -> bool {
    matches!(basename(w), "bash" | "sh" | "zsh" | "dash" | "ksh")
}

/// `bash [options] -c STRING` at `words[j]`: the index of STRING.
fn shell_c_at(words: &[Word], j: usize) -> Option<usize> {
    if !is_shell(&words.get(j)?.text) {
        return None;
    }
    let mut k = j + 1;
    let mut c = false;
    while let Some(w) = words.get(k) {
        let t = w.text.as_str();
        if !t.starts_with('-') || t == "-" || t == "--" {
            break;
        }
        if t == "-o" || t == "+o" || t == "-O" || t == "+O" || t == "--rcfile" || t == "--init-file" {
            k += 2;
            continue;
        }
        if !t.starts_with("--") && t.contains('c') {
            c = true;
        }
        k += 1;
    }
    if words.get(k).is_some_and(|w| w.text == "--") {
        k += 1;
    }
    (c && k < words.len()).then_some(k)
}

/// Maps offsets of `w.text` to offsets in the original text.
fn outer_offset(w: &Word, o: usize) -> usize {
    match &w.map {
        None => w.span.start + o.min(w.text.len()),
        Some(m) => m.get(o).copied().unwrap_or(w.span.end),
    }
}

fn outer_span(w: &Word, s: Span) -> Span {
    let a = outer_offset(w, s.start);
    let b = if s.end > s.start { outer_offset(w, s.end - 1) + 1 } else { a };
    Span::new(a.min(b), b.max(a))
}

/// The SGLang launches inside a `bash -c` string word `w`, with spans in the original text.
/// Returns whether it holds any (else the whole `bash -c` command is another command).
fn inner_invocations(w: &Word, env: &[(String, String)], depth: usize, out: &mut Located) -> bool {
    let inner = crate::shell::parse_with_vars(&w.text, env);
    let found = locate_at(&inner, depth + 1);
    if found.invocations.is_empty() {
        return false;
    }
    for mut d in inner.diagnostics.into_iter().chain(found.diagnostics) {
        d.span = outer_span(w, d.span);
        // edits inside a quoted string would need re-quoting: offered only on the outer text
        d.fixes.clear();
        out.diagnostics.push(d);
    }
    for a in found.also_runs {
        let span = outer_span(w, a.span);
        out.also_runs.push(AlsoRuns { span, text: a.text });
    }
    for inv in found.invocations {
        let args = inv
            .args
            .into_iter()
            .map(|a| {
                let map: Vec<usize> = match &a.map {
                    None => (0..a.text.len()).map(|k| outer_offset(w, a.span.start + k)).collect(),
                    Some(m) => m.iter().map(|&o| outer_offset(w, o)).collect(),
                };
                let span = outer_span(w, a.span);
                let verbatim = map.len() == span.len() && map.iter().enumerate().all(|(k, &o)| o == span.start + k);
                Word { text: a.text, span, map: if verbatim { None } else { Some(map) }, value_unknown: a.value_unknown }
            })
            .collect();
        let mut e = env.to_vec();
        for (k, v) in inv.env {
            set(&mut e, &k, &v);
        }
        out.invocations.push(Invocation {
            entry: inv.entry,
            launcher: outer_span(w, inv.launcher),
            args,
            env: e,
            env_places: Vec::new(),
            span: outer_span(w, inv.span),
            nested: true,
        });
    }
    true
}

fn locate_at(parsed: &ShellParse, depth: usize) -> Located {
    let mut out = Located::default();
    // shell variables and which of them are exported, as the paste runs
    let mut vars: HashMap<String, String> = HashMap::new();
    let mut exported: Vec<(String, String)> = Vec::new();
    // `export NAME` before NAME has a value: exported once it gets one
    let mut export_names: HashSet<String> = HashSet::new();
    let listed_before = out.also_runs.len();
    for cmd in &parsed.commands {
        let words = &cmd.words;
        let Some(first) = words.first() else {
            for a in &cmd.assignments {
                vars.insert(a.name.clone(), a.value.clone());
                if export_names.contains(&a.name) {
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
                        vars.insert(k.to_string(), v.to_string());
                        if any_x {
                            set(&mut exported, k, v);
                            export_names.insert(k.to_string());
                        }
                    } else if any_x {
                        if let Some(v) = vars.get(t) {
                            set(&mut exported, t, v);
                        }
                        export_names.insert(t.to_string());
                    }
                }
                continue;
            }
            "unset" => {
                for w in words.iter().skip(1) {
                    vars.remove(&w.text);
                    if export_names.remove(&w.text) {
                        exported.retain(|(n, _)| n != &w.text);
                    }
                }
                continue;
            }
            _ => {}
        }
        // Is this a launch? The first word is the launcher or a wrapper.
        let direct = launcher_at(words, 0);
        let found = match direct {
            Some(f) => Some((0, f)),
            None if !TEXT_ONLY.contains(&basename(&first.text)) => (1..words.len()).find_map(|j| launcher_at(words, j).map(|f| (j, f))),
            None => None,
        };
        // ... or a shell running a command string: `bash -c "python -m sglang.launch_server ..."`
        let shell_c = match found {
            Some(_) => None,
            None if WRAPPERS.contains(&basename(&first.text)) || is_shell(&first.text) => {
                (0..words.len()).find_map(|j| shell_c_at(words, j).map(|s| (j, s)))
            }
            None => None,
        };
        let j = match (found, shell_c) {
            (Some((j, _)), _) | (None, Some((j, _))) => j,
            (None, None) => {
                if !is_harmless(cmd) {
                    out.also_runs.push(AlsoRuns::new(parsed_text(parsed), cmd.span));
                }
                continue;
            }
        };

        // Environment: exported vars, prefix assignments, then what the wrappers add.
        let mut env = exported.clone();
        let mut env_places: Vec<(String, Span)> = Vec::new();
        // a variable the paste also exports stays set when these are removed: no place for it
        let exported_too = |n: &str| exported.iter().any(|(x, _)| x == n);
        for a in &cmd.assignments {
            set(&mut env, &a.name, &a.value);
            if !exported_too(&a.name) {
                env_places.push((a.name.clone(), a.span));
            }
        }
        let mut mode = "";
        // docker: before its subcommand (`run`), then in its options, until the image
        let mut docker_in_options = false;
        let mut k = 0;
        while k < j {
            let t = words.get(k).map(|w| w.text.as_str()).unwrap_or("");
            let b = basename(t);
            if WRAPPERS.contains(&b) && (mode != "docker" || k == 0) && !t.starts_with('-') {
                mode = b;
                docker_in_options = false;
                if b == "podman" {
                    mode = "docker";
                }
                if b == "docker" {
                    // the container does not inherit the host's environment
                    env.clear();
                    env_places.clear();
                }
                if b == "sudo" {
                    // sudo resets the environment unless -E / --preserve-env
                    let keep = words.get(k + 1..j).unwrap_or(&[]).iter().any(|w| {
                        let t = w.text.as_str();
                        t == "-E" || t.starts_with("--preserve-env") || (t.starts_with('-') && !t.starts_with("--") && t.contains('E'))
                    });
                    if !keep {
                        env.clear();
                        env_places.clear();
                    }
                }
                k += 1;
                continue;
            }
            match mode {
                "env" | "sudo" => {
                    if let Some(nl) = assignment_name_len(t) {
                        set(&mut env, t.get(..nl).unwrap_or(""), t.get(nl + 1..).unwrap_or(""));
                        if let Some(w) = words.get(k).filter(|_| !exported_too(t.get(..nl).unwrap_or(""))) {
                            env_places.push((t.get(..nl).unwrap_or("").to_string(), w.span));
                        }
                    } else if mode == "env" && (t == "-u" || t == "--unset") {
                        if let Some(n) = words.get(k + 1) {
                            env.retain(|(x, _)| x != &n.text);
                        }
                        k += 1;
                    } else if mode == "env" && (t == "-i" || t == "--ignore-environment" || t == "-") {
                        env.clear();
                        env_places.clear();
                    } else if t.starts_with('-') {
                        // an option of env's or sudo's that takes a value: skip the value
                        let with_value: &[&str] = if mode == "env" {
                            &["-C", "--chdir", "-S", "--split-string"]
                        } else {
                            &["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role", "--type", "--other-user", "--command-timeout"]
                        };
                        if with_value.contains(&t) {
                            k += 1;
                        }
                    } else {
                        // the program env or sudo runs: its words are its own
                        mode = "";
                    }
                }
                "docker" if !docker_in_options => {
                    // `docker run`, `docker container run`, `docker exec`
                    if matches!(t, "run" | "exec" | "create") {
                        docker_in_options = true;
                    }
                }
                "docker" if !(t.starts_with('-') && t.len() > 1) => {
                    // the image (or for exec, the container): what follows is the command it runs
                    mode = "";
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
                        // another option: skip its value word unless it has none (a switch, `--x=v`, `-pVALUE`)
                        let switch = t.contains('=')
                            || matches!(
                                t,
                                "--rm" | "--init" | "--privileged" | "--detach" | "--interactive" | "--tty" | "--read-only" | "--publish-all"
                                    | "--no-healthcheck" | "--oom-kill-disable" | "--quiet" | "--help" | "--use-api-socket"
                            )
                            || (!t.starts_with("--") && t.bytes().skip(1).all(|c| b"dirtPq".contains(&c)))
                            || (!t.starts_with("--") && t.len() > 2);
                        if !switch {
                            k += 1;
                        }
                        None
                    };
                    if let Some(s) = spec {
                        match assignment_name_len(s) {
                            Some(nl) => set(&mut env, s.get(..nl).unwrap_or(""), s.get(nl + 1..).unwrap_or("")),
                            None => {
                                // `-e NAME` passes the host's value
                                let host = exported.iter().rev().find(|(n, _)| n == s).cloned();
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

        let Some((_, (entry, argstart))) = found else {
            if let Some((_, si)) = shell_c {
                let launches = match words.get(si) {
                    Some(w) if depth < 4 => inner_invocations(w, &env, depth, &mut out),
                    _ => false,
                };
                if !launches {
                    out.also_runs.push(AlsoRuns::new(parsed_text(parsed), cmd.span));
                }
            }
            continue;
        };
        let launcher = match (words.get(j), words.get(argstart.saturating_sub(1))) {
            (Some(a), Some(b)) => a.span.cover(b.span),
            _ => cmd.span,
        };
        out.invocations.push(Invocation {
            entry,
            launcher,
            args: words.get(argstart..).unwrap_or(&[]).to_vec(),
            env,
            env_places,
            span: cmd.span,
            nested: false,
        });
    }
    add_substitutions(parsed, listed_before, &mut out);
    out
}

/// The text `parsed` was read from.
fn parsed_text(parsed: &ShellParse) -> &str {
    parsed.text.as_str()
}

/// Command substitutions run too: each one not inside a command already listed. Linear
/// (both lists are in text order).
fn add_substitutions(parsed: &ShellParse, from: usize, out: &mut Located) {
    if parsed.substitutions.is_empty() {
        return;
    }
    let listed: Vec<Span> = out.also_runs.get(from..).unwrap_or(&[]).iter().map(|a| a.span).collect();
    let mut k = 0usize;
    let mut last: Option<Span> = None;
    let mut extra = Vec::new();
    for &s in &parsed.substitutions {
        if last == Some(s) {
            continue;
        }
        last = Some(s);
        while listed.get(k).is_some_and(|l| l.end <= s.start) {
            k += 1;
        }
        let inside = listed.get(k).is_some_and(|l| l.start <= s.start && s.end <= l.end);
        if !inside {
            extra.push(AlsoRuns::new(parsed_text(parsed), s));
        }
    }
    out.also_runs.extend(extra);
    // (crate::sorting's one sort, not a slice sort of its own)
    let mut tail = out.also_runs.split_off(from.min(out.also_runs.len()));
    crate::sorting::sort_by_key(&mut tail, |a| (a.span.start, a.span.end));
    out.also_runs.extend(tail);
}

/// The paths written after `--config` in each SGLang invocation of `text`: the files the CLI
/// reads (or the page's YAML pane stands for).
pub fn config_paths(text: &str) -> Vec<String> {
    let parsed = crate::shell::parse(text);
    let invocations = locate(&parsed).invocations;
    invocations.iter().flat_map(|inv| config_paths_in(inv.args.iter().map(|w| w.text.as_str()))).collect()
}

/// The paths written after `--config` in one command's argv (the words after the launcher).
pub fn config_paths_in<'a>(argv: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    values_after(argv, "--config")
}

/// The files a `--watermark-config` names in each SGLang invocation of `text` (a value that is
/// not inline JSON is a path SGLang reads at start-up).
pub fn watermark_config_paths(text: &str) -> Vec<String> {
    let parsed = crate::shell::parse(text);
    let invocations = locate(&parsed).invocations;
    invocations
        .iter()
        .flat_map(|inv| values_after(inv.args.iter().map(|w| w.text.as_str()), "--watermark-config"))
        .filter(|v| !v.trim_start().starts_with('{'))
        .collect()
}

/// The words after each `flag` (or the text after `flag=`) in an argv.
fn values_after<'a>(argv: impl IntoIterator<Item = &'a str>, flag: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = argv.into_iter();
    while let Some(w) = words.next() {
        if w == flag {
            if let Some(p) = words.next() {
                out.push(p.to_string());
            }
        } else if let Some(v) = w.strip_prefix(flag).and_then(|rest| rest.strip_prefix('=')) {
            out.push(v.to_string());
        }
    }
    out
}

#[cfg(test)]
mod config_path_tests {
    use super::config_paths;

    #[test]
    fn config_paths_of_every_command() {
        let text = "python -m sglang.launch_server --config a.yaml --model-path m\n# --config c.yaml\ndocker run img sglang serve m --config b.yml\n";
        assert_eq!(config_paths(text), vec!["a.yaml".to_string(), "b.yml".to_string()]);
        assert!(config_paths("python -m sglang.launch_server --config").is_empty());
    }
}

#[cfg(test)]
mod wrapper_tests {
    use super::locate;
    use crate::shell;

    fn launches(text: &str) -> Vec<Vec<String>> {
        locate(&shell::parse(text)).invocations.iter().map(|i| i.args.iter().map(|w| w.text.clone()).collect()).collect()
    }

    #[test]
    fn the_launch_is_found_behind_any_wrapper() {
        let want = vec![vec!["--model-path".to_string(), "m".to_string(), "--tp-size".to_string(), "2".to_string()]];
        for text in [
            "nsys profile -o report --trace=cuda,nvtx python -m sglang.launch_server --model-path m --tp-size 2",
            "ncu --set full python3 -m sglang.launch_server --model-path m --tp-size 2",
            "py-spy record -o out.svg -- python -m sglang.launch_server --model-path m --tp-size 2",
            "taskset -c 0-15 timeout 600 stdbuf -oL python -m sglang.launch_server --model-path m --tp-size 2",
            "env -u CUDA_VISIBLE_DEVICES chrt -f 10 ionice -c2 python -m sglang.launch_server --model-path m --tp-size 2",
            "sudo -E accelerate-like-launcher --flag python -m sglang.launch_server --model-path m --tp-size 2",
            "some-cluster-run --gpus 8 -- sglang serve --model-path m --tp-size 2",
        ] {
            assert_eq!(launches(text), want, "{text}");
        }
    }

    #[test]
    fn a_launch_written_as_text_is_not_run() {
        for text in [
            "echo python -m sglang.launch_server --model-path m",
            "grep -r 'python -m sglang.launch_server' .",
            "git commit -m 'python -m sglang.launch_server --model-path m'",
        ] {
            assert!(launches(text).is_empty(), "{text}");
        }
    }
}
