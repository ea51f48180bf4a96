//! The SGLang release a pasted text names for itself: the image it runs
//! (`lmsysorg/sglang:v0.5.20`, `lmsysorg/sglang:v0.5.20-cu129`) or the package it installs
//! (`pip install sglang==0.5.19`, `"sglang[all]==0.5.19"`). A command written for a pinned
//! release is best checked against that release.

use crate::span::Span;
use serde::Serialize;

/// A release named in the text, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReleaseHint {
    /// `0.5.20`
    pub version: String,
    /// The whole naming text (`lmsysorg/sglang:v0.5.20`, `sglang==0.5.19`).
    pub span: Span,
}

/// `X.Y.Z` (digits and dots, starting with a digit) at the start of `s`: its length.
fn version_len(s: &str) -> usize {
    let n = s.bytes().take_while(|b| b.is_ascii_digit() || *b == b'.').count();
    let v = s.get(..n).unwrap_or("").trim_end_matches('.');
    if v.split('.').count() >= 2 && v.split('.').all(|p| !p.is_empty()) {
        v.len()
    } else {
        0
    }
}

/// Every release the text names, in text order (linear in the text).
pub fn all_hints(text: &str) -> Vec<ReleaseHint> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices("sglang") {
        // `sglang` must be a whole name: not `pysglang`, not `sglang_router`.
        let before = at.checked_sub(1).and_then(|i| bytes.get(i)).copied();
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
            continue;
        }
        let after = at + "sglang".len();
        let Some(rest) = text.get(after..) else { continue };
        // `sglang[all]==0.5.19`: skip the extras.
        let (extras, rest2) = match rest.strip_prefix('[') {
            Some(r) => match r.find(']') {
                Some(close) if close < 64 => (close + 2, r.get(close + 1..).unwrap_or("")),
                _ => continue,
            },
            None => (0, rest),
        };
        let (sep, tail) = if let Some(t) = rest2.strip_prefix("==") {
            (2, t)
        } else if let Some(t) = rest2.strip_prefix(":v") {
            // an image tag: only for images (`lmsysorg/sglang:v0.5.20`, `sglang:v0.5.20`)
            (2, t)
        } else if let Some(t) = rest2.strip_prefix(':').filter(|t| t.starts_with(|c: char| c.is_ascii_digit())) {
            (1, t)
        } else {
            continue;
        };
        let n = version_len(tail);
        if n == 0 {
            continue;
        }
        let start = text.get(..at).map(|b| b.rfind(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == '=').map(|i| i + 1).unwrap_or(0)).unwrap_or(at);
        let end = after + extras + sep + n;
        out.push(ReleaseHint { version: tail.get(..n).unwrap_or("").to_string(), span: Span::new(start.min(at), end) });
    }
    out
}

/// The release to check `text` against, if it names one: the last one named before the first
/// launch at `launch_start` (what the launch runs on), else the first one named after it.
pub fn hint(text: &str, launch_start: usize) -> Option<ReleaseHint> {
    let all = all_hints(text);
    let before = all.iter().rfind(|h| h.span.start < launch_start).cloned();
    before.or_else(|| all.into_iter().next())
}

/// The release `check` with `release_from_text` would use for `text`: [`hint`] before the first
/// SGLang launcher the text holds (an image a `docker run` in front of it names counts).
pub fn for_text(text: &str) -> Option<ReleaseHint> {
    // Most texts name no release: skip reading the shell words then.
    if all_hints(text).is_empty() {
        return None;
    }
    let located = crate::invocation::locate(&crate::shell::parse(text));
    hint(text, located.invocations.first().map(|i| i.launcher.start).unwrap_or(text.len()))
}

/// The release to check against when `text` names `hint` (`what`: "text" or "file"), and the
/// finding that says so: P0004 when this build carries it, else P0005 and `default` stays.
pub fn decide(hint: ReleaseHint, default: &str, what: &str) -> (String, crate::diagnostic::Diagnostic) {
    use crate::diagnostic::{Diagnostic, Severity, Stage};
    if crate::release::get(&hint.version).is_some() {
        let note = Diagnostic::preflight("P0004", Severity::Info, Stage::Shell, format!("Checked against SGLang {}, the release this {what} names.", hint.version), hint.span)
            .with_explanation("A command is judged by the release it runs on: flags come and go between releases. Choose another release explicitly to see how it would judge the command.");
        (hint.version, note)
    } else {
        let note = Diagnostic::preflight(
            "P0005",
            Severity::Warning,
            Stage::Shell,
            format!("This {what} names SGLang {}, which this build does not carry: checked against SGLang {default} instead.", hint.version),
            hint.span,
        )
        .with_explanation(format!(
            "Flags and checks change between releases, so the verdict may differ on {}. Releases carried: {}.",
            hint.version,
            crate::release::KNOWN_VERSIONS.join(", ")
        ));
        (default.to_string(), note)
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing, clippy::string_slice)] // a failed expectation fails the test
mod tests {
    use super::*;

    fn named(text: &str) -> Vec<(String, &str)> {
        all_hints(text).into_iter().map(|h| (h.version, &text[h.span.start..h.span.end])).collect()
    }

    #[test]
    fn docker_images_name_their_release() {
        assert_eq!(
            named("docker run --gpus all lmsysorg/sglang:v0.5.20 python3 -m sglang.launch_server --model-path m"),
            vec![("0.5.20".to_string(), "lmsysorg/sglang:v0.5.20")]
        );
        assert_eq!(named("image: lmsysorg/sglang:v0.5.21-cu129-amd64"), vec![("0.5.21".to_string(), "lmsysorg/sglang:v0.5.21")]);
        assert_eq!(named("docker pull lmsysorg/sglang:latest"), vec![]);
    }

    #[test]
    fn pip_pins_name_their_release() {
        assert_eq!(named("pip install sglang==0.5.19"), vec![("0.5.19".to_string(), "sglang==0.5.19")]);
        assert_eq!(named("uv pip install \"sglang[all]==0.5.18\""), vec![("0.5.18".to_string(), "sglang[all]==0.5.18")]);
        // ranges, other packages and module names are not pins
        assert_eq!(named("pip install 'sglang>=0.5.19' sglang-router==0.2.1 python -m sglang.launch_server"), vec![]);
    }

    #[test]
    fn the_release_before_the_launch_wins() {
        let text = "pip install sglang==0.5.19\npip install sglang==0.5.20\npython -m sglang.launch_server --model-path m\n# later: sglang==0.5.23";
        let launch = text.find("python").unwrap();
        assert_eq!(hint(text, launch).map(|h| h.version), Some("0.5.20".to_string()));
        assert_eq!(hint("python -m sglang.launch_server # on sglang==0.5.21", 0).map(|h| h.version), Some("0.5.21".to_string()));
        assert_eq!(hint("python -m sglang.launch_server --model-path m", 0), None);
    }

    #[test]
    fn the_image_the_launch_runs_in_wins_over_an_earlier_pin() {
        let text = "pip install sglang==0.5.19\ndocker run --gpus all lmsysorg/sglang:v0.5.20 python3 -m sglang.launch_server --model-path m";
        assert_eq!(for_text(text).map(|h| h.version), Some("0.5.20".to_string()));
    }

    #[test]
    fn for_text_is_the_release_check_uses() {
        let opts = crate::CheckOptions { release_from_text: true, ..crate::CheckOptions::default() };
        for (text, version, named) in [
            ("docker run lmsysorg/sglang:v0.5.20 python -m sglang.launch_server --model-path m\n# sglang==0.5.21", "0.5.20", "lmsysorg/sglang:v0.5.20"),
            ("pip install sglang==0.5.19\npip install sglang==0.5.22\npython -m sglang.launch_server --model-path m # sglang==0.5.21", "0.5.22", "sglang==0.5.22"),
        ] {
            let h = for_text(text).unwrap();
            assert_eq!((h.version.as_str(), &text[h.span.start..h.span.end]), (version, named));
            assert_eq!(crate::check(text, &opts).sglang_version, version);
        }
        assert_eq!(for_text("python -m sglang.launch_server --model-path m"), None);
    }
}
