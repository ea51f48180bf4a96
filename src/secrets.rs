//! Secrets stay out of links: the values of tokens, keys and passwords in a pasted command are
//! replaced by a placeholder (`<HF_TOKEN>`) in the text a permalink carries. The editor keeps
//! the real text; only what goes into a URL is redacted.
//!
//! What counts as a secret, read over [`crate::shell`]'s words (so quoting, `--flag=value`,
//! line continuations and `bash -c '...'` scripts are handled, and only value bytes change):
//!
//! * an assignment or `NAME=value` word whose name is a secret's (`HF_TOKEN`, `*_TOKEN`,
//!   `*_API_KEY`, `*_SECRET`, `*_PASSWORD`, anything with `SECRET` in it): before a command
//!   (`HF_TOKEN=... python ...`), on its own line, after `export`/`env`/`declare`, as docker's
//!   `-e NAME=value` / `--env "NAME=value"` / `--env=NAME=value`, or any `--opt=NAME=value`;
//! * the value of a flag whose name ends in `token`, `api-key`, `secret`, `password`
//!   (`--api-key`, `--admin-api-key`, `--ssl-keyfile-password`, `--hf-token`, `--token`), as
//!   the next word or after `=`; SGLang abbreviations of those flags (`--api-k`) too.
//!
//! Not redacted: empty values, references to variables (`$HF_TOKEN`, `${HF_TOKEN}`), and values
//! that already are a `<placeholder>` (so redacting twice changes nothing).

use crate::shell::{self, Word};
use crate::span::Span;
use serde::Serialize;

/// One value replaced by a placeholder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Redaction {
    /// The value's bytes in the original text (quotes around the value stay outside).
    pub span: Span,
    /// The secret's name as the placeholder spells it (`HF_TOKEN`, `API_KEY`).
    pub name: String,
    /// What replaced the value: `<HF_TOKEN>`.
    pub placeholder: String,
}

/// The text for a link, and what was replaced (spans into the original text, in order).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Redacted {
    pub text: String,
    pub redacted: Vec<Redaction>,
}

/// How deep `bash -c '...'` scripts inside scripts are read.
const MAX_DEPTH: usize = 3;

/// `text` with every secret value replaced by `<NAME>`; everything else byte for byte.
pub fn redact_for_link(text: &str) -> Redacted {
    let mut found = Vec::new();
    find_in(text, 0, &mut found);
    crate::sorting::sort_by_key(&mut found, |(s, _)| (s.start, s.end));
    let mut out = String::with_capacity(text.len());
    let mut redacted = Vec::new();
    let mut at = 0usize;
    for (span, name) in found {
        // overlapping or not on the text's character boundaries: skip (never expected)
        if span.start < at || span.end <= span.start || !text.is_char_boundary(span.start) || !text.is_char_boundary(span.end) {
            continue;
        }
        let (Some(before), Some(_)) = (text.get(at..span.start), text.get(span.start..span.end)) else {
            continue;
        };
        let placeholder = format!("<{name}>");
        out.push_str(before);
        out.push_str(&placeholder);
        at = span.end;
        redacted.push(Redaction { span, name, placeholder });
    }
    out.push_str(text.get(at..).unwrap_or(""));
    Redacted { text: out, redacted }
}

/// Secret values in `text` (spans into `text`), recursing into `sh -c` scripts.
fn find_in(text: &str, depth: usize, found: &mut Vec<(Span, String)>) {
    let parsed = shell::parse(text);
    for cmd in &parsed.commands {
        for a in &cmd.assignments {
            if let Some(name) = secret_env_name(&a.name) {
                let raw_start = a.span.start.saturating_add(a.name.len()).saturating_add(1);
                if let Some(span) = raw_value_span(text, Span::new(raw_start, a.span.end), &a.value) {
                    found.push((span, name));
                }
            }
        }
        let words = &cmd.words;
        let mut i = 0usize;
        while let Some(w) = words.get(i) {
            i += 1;
            let t = w.text.as_str();
            // NAME=value (export, env, docker -e VALUE, --build-arg ...)
            if let Some(hit) = env_word(w, 0) {
                found.push(hit);
                continue;
            }
            if !t.starts_with('-') {
                // a script run by a shell: `bash -c '...'`
                if depth < MAX_DEPTH && i >= 2 && words.get(i - 2).is_some_and(|p| p.text == "-c") && t.contains([' ', '=', '\n']) {
                    script_word(w, depth, found);
                }
                continue;
            }
            let (opt, eq) = match t.find('=') {
                Some(k) => (t.get(..k).unwrap_or(t), Some(k)),
                None => (t, None),
            };
            // -eNAME=value (docker's short option with its value glued on), --env=NAME=value
            if t.starts_with("-e") && !t.starts_with("--") {
                if let Some(hit) = env_word(w, 2) {
                    found.push(hit);
                    continue;
                }
            }
            if let Some(hit) = eq.and_then(|k| env_word(w, k + 1)) {
                found.push(hit);
                continue;
            }
            let Some(name) = secret_flag_name(opt) else { continue };
            match eq {
                Some(k) => {
                    if let Some(span) = word_value_span(w, k + 1) {
                        found.push((span, name));
                    }
                }
                None => {
                    if let Some(v) = words.get(i).filter(|v| !v.text.starts_with('-')) {
                        if let Some(span) = word_value_span(v, 0) {
                            found.push((span, name));
                        }
                        i += 1;
                    }
                }
            }
        }
    }
}

/// The span of a word's text from byte `from` on, when it is a value to redact.
fn word_value_span(w: &Word, from: usize) -> Option<Span> {
    let value = w.text.get(from..)?;
    if !redactable(value) {
        return None;
    }
    let span = w.sub_span(from, w.text.len());
    (span.start >= w.span.start && span.end <= w.span.end && span.end > span.start).then_some(span)
}

/// `NAME=value` starting at byte `from` of the word, with a secret NAME: the value's span and
/// the name.
fn env_word(w: &Word, from: usize) -> Option<(Span, String)> {
    let rest = w.text.get(from..)?;
    let nl = shell::assignment_name_len(rest)?;
    let name = secret_env_name(rest.get(..nl)?)?;
    Some((word_value_span(w, from + nl + 1)?, name))
}

/// The value span of an assignment: its raw bytes, inside the quotes when the value is one
/// quoted string.
fn raw_value_span(text: &str, raw: Span, value: &str) -> Option<Span> {
    if !redactable(value) {
        return None;
    }
    let s = text.get(raw.start..raw.end)?;
    let b = s.as_bytes();
    let quoted = b.len() >= 2 && matches!(b.first(), Some(b'\'' | b'"')) && b.first() == b.last();
    let span = if quoted { Span::new(raw.start + 1, raw.end - 1) } else { raw };
    (span.end > span.start).then_some(span)
}

/// A `bash -c` script word: its own secrets, mapped back to the original text.
fn script_word(w: &Word, depth: usize, found: &mut Vec<(Span, String)>) {
    let mut inner = Vec::new();
    find_in(&w.text, depth + 1, &mut inner);
    for (s, name) in inner {
        let span = w.sub_span(s.start, s.end);
        // Only a contiguous stretch of the original (a value not split by quoting): the bytes
        // between the mapped ends must be exactly the value.
        let contiguous = match &w.map {
            None => true,
            Some(map) => map.get(s.start..s.end).is_some_and(|m| m.windows(2).all(|p| matches!(p, [a, b] if *b == *a + 1))),
        };
        if contiguous && span.end > span.start && span.len() == s.len() {
            found.push((span, name));
        }
    }
}

/// Whether a value is worth hiding: not empty, not a variable reference, not a placeholder.
fn redactable(value: &str) -> bool {
    let v = value.trim();
    if v.is_empty() || (v.starts_with('<') && v.ends_with('>')) {
        return false;
    }
    let var = v.strip_prefix("${").and_then(|x| x.strip_suffix('}')).or_else(|| v.strip_prefix('$')).unwrap_or("");
    let is_var = !var.is_empty() && shell::assignment_name_len(&format!("{var}=")).is_some();
    !is_var
}

/// The placeholder name of a secret environment variable, or None.
fn secret_env_name(name: &str) -> Option<String> {
    let up = name.to_ascii_uppercase();
    const EXACT: [&str; 5] = ["TOKEN", "API_KEY", "APIKEY", "SECRET", "PASSWORD"];
    const SUFFIX: [&str; 8] = ["_TOKEN", "_API_KEY", "_APIKEY", "_SECRET", "_PASSWORD", "_PASSWD", "_SECRET_KEY", "_ACCESS_KEY"];
    let secret = EXACT.contains(&up.as_str()) || SUFFIX.iter().any(|s| up.ends_with(s)) || up.contains("SECRET");
    secret.then(|| name.to_string())
}

/// Whether an option's name (without dashes, lower case, `_` as `-`) names a secret value.
fn secret_option(norm: &str) -> bool {
    const EXACT: [&str; 5] = ["token", "api-key", "apikey", "secret", "password"];
    const SUFFIX: [&str; 6] = ["-token", "-api-key", "-apikey", "-secret", "-password", "-passwd"];
    EXACT.contains(&norm) || SUFFIX.iter().any(|s| norm.ends_with(s))
}

fn normalize(opt: &str) -> String {
    opt.trim_start_matches('-').to_ascii_lowercase().replace('_', "-")
}

/// The placeholder name of a secret-valued flag (`--api-key` → `API_KEY`), or None. SGLang
/// abbreviations (a unique prefix of a secret flag of the default version) count.
fn secret_flag_name(opt: &str) -> Option<String> {
    if !opt.starts_with('-') || opt == "-" || opt == "--" {
        return None;
    }
    let placeholder = |o: &str| normalize(o).replace('-', "_").to_ascii_uppercase();
    if secret_option(&normalize(opt)) {
        return Some(placeholder(opt));
    }
    if !opt.starts_with("--") || opt.len() < 4 {
        return None;
    }
    let schema = crate::schema::get(crate::schema::DEFAULT_VERSION)?;
    if schema.by_option.contains_key(opt) {
        return None;
    }
    let mut hit: Option<&str> = None;
    for o in schema.by_option.keys().filter(|o| o.starts_with(opt)) {
        if !secret_option(&normalize(o)) {
            return None; // an abbreviation of (also) a non-secret flag
        }
        // several secret flags (`--a` of `--api-key`, `--admin-api-key`): ambiguous for
        // argparse, still a secret; name it after the shortest
        if hit.map_or(true, |h| o.len() < h.len()) {
            hit = Some(o.as_str());
        }
    }
    hit.map(placeholder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_names() {
        assert!(secret_env_name("HF_TOKEN").is_some());
        assert!(secret_env_name("AWS_SECRET_ACCESS_KEY").is_some());
        assert!(secret_env_name("OPENAI_API_KEY").is_some());
        assert!(secret_env_name("MAX_TOKENS").is_none());
        assert!(secret_env_name("CUDA_VISIBLE_DEVICES").is_none());
    }

    #[test]
    fn flags() {
        assert_eq!(secret_flag_name("--api-key").as_deref(), Some("API_KEY"));
        assert_eq!(secret_flag_name("--admin-api-key").as_deref(), Some("ADMIN_API_KEY"));
        assert_eq!(secret_flag_name("--ssl-keyfile-password").as_deref(), Some("SSL_KEYFILE_PASSWORD"));
        assert_eq!(secret_flag_name("--api-k").as_deref(), Some("API_KEY"));
        assert_eq!(secret_flag_name("--max-total-tokens"), None);
        assert_eq!(secret_flag_name("--ssl-keyfile"), None);
        assert_eq!(secret_flag_name("--tokenizer-path"), None);
        assert_eq!(secret_flag_name("--skip-tokenizer-init"), None);
    }

    #[test]
    fn redactable_values() {
        assert!(redactable("hf_abc"));
        assert!(!redactable(""));
        assert!(!redactable("$HF_TOKEN"));
        assert!(!redactable("${HF_TOKEN}"));
        assert!(!redactable("<HF_TOKEN>"));
        assert!(redactable("$abc-def"));
    }

    #[test]
    fn no_secret_no_change() {
        let t = "python -m sglang.launch_server --model-path m --tp 2";
        let r = redact_for_link(t);
        assert_eq!(r.text, t);
        assert!(r.redacted.is_empty());
    }

    #[test]
    fn export_line() {
        let t = "export HF_TOKEN=hf_abcdef\npython -m sglang.launch_server --model-path m";
        let r = redact_for_link(t);
        assert_eq!(r.text, "export HF_TOKEN=<HF_TOKEN>\npython -m sglang.launch_server --model-path m");
        assert_eq!(r.redacted, vec![Redaction { span: Span::new(16, 25), name: "HF_TOKEN".into(), placeholder: "<HF_TOKEN>".into() }]);
    }
}
