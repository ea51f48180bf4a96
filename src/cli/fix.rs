//! `--fix` and `--diff`: apply the fixes the checks offer, check again, repeat; write the result
//! atomically, or show it as a unified diff.

use sglang_preflight::diagnostic::{apply_edits, Applicability, Diagnostic, Edit};
use sglang_preflight::sources::FileReport;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// Fixing can uncover findings the first check could not reach (SGLang stops at its first
/// error); a fix that undoes another would go on for ever: stop after this many rounds.
const MAX_ROUNDS: usize = 10;

pub struct Fixed {
    pub text: String,
    /// Findings whose fix was applied, over all rounds.
    pub applied: usize,
    /// The check of the text as it was.
    pub first: FileReport,
    /// The check of the fixed text.
    pub last: FileReport,
}

/// Apply fixes to `text` round by round: in each, per finding the first fix of an allowed
/// applicability that has edits, skipping those that overlap or touch one already taken (they
/// are offered again by the next round's check), and those after which the file would no
/// longer be a file of its kind (`keeps(before, after)`: YAML that still parses, ...).
pub fn fix(text: &str, unsafe_fixes: bool, check: impl Fn(&str) -> FileReport, keeps: impl Fn(&str, &str) -> bool) -> Fixed {
    let first = check(text);
    let mut current = text.to_string();
    let mut last = first.clone();
    let mut applied = 0;
    for _ in 0..MAX_ROUNDS {
        let (groups, _) = choose_edits(&last, &current, unsafe_fixes);
        // Each finding's edits are kept only if the file stays readable with them.
        let mut edits: Vec<Edit> = Vec::new();
        let mut findings = 0;
        for group in groups {
            let trial: Vec<Edit> = edits.iter().chain(group.iter()).cloned().collect();
            if apply_edits(&current, &trial).is_some_and(|t| keeps(&current, &t)) {
                edits = trial;
                findings += 1;
            }
        }
        let Some(next) = (findings > 0).then(|| apply_edits(&current, &edits)).flatten() else { break };
        if next == current {
            break;
        }
        current = next;
        applied += findings;
        last = check(&current);
    }
    Fixed { text: current, applied, first, last }
}

/// The edits to apply to `text` this round, one group per finding they fix, and how many.
fn choose_edits(report: &FileReport, text: &str, unsafe_fixes: bool) -> (Vec<Vec<Edit>>, usize) {
    // Taken edits by start, pairwise apart (not even touching): a closed-interval set.
    let mut taken: BTreeMap<usize, usize> = BTreeMap::new();
    let mut edits = Vec::new();
    let mut findings = 0;
    let all: Vec<&Diagnostic> = report.diagnostics.iter().chain(report.commands.iter().flat_map(|c| c.command.diagnostics.iter())).collect();
    for d in all {
        let allowed = |a: Applicability| a == Applicability::Safe || (unsafe_fixes && a == Applicability::Unsafe);
        let Some(fix) = d.fixes.iter().find(|f| allowed(f.applicability) && !f.edits.is_empty()) else { continue };
        let fits = |e: &Edit| e.start <= e.end && e.end <= text.len() && text.is_char_boundary(e.start) && text.is_char_boundary(e.end);
        let apart_from = |set: &BTreeMap<usize, usize>, e: &Edit| set.range(..=e.end).next_back().map_or(true, |(_, &end)| end < e.start);
        let mut trial = taken.clone();
        let mut ok = true;
        for e in &fix.edits {
            if !fits(e) || !apart_from(&trial, e) {
                ok = false;
                break;
            }
            trial.insert(e.start, e.end);
        }
        if ok {
            taken = trial;
            edits.push(fix.edits.clone());
            findings += 1;
        }
    }
    (edits, findings)
}

/// Replace the file at `path` with `text`, atomically (a temporary file in the same directory,
/// renamed over it), keeping its permissions, and only if it still holds `original`.
pub fn write_atomically(path: &Path, original: &[u8], text: &str) -> Result<(), String> {
    let shown = path.display();
    // Through a symlink, the file it points to is the one replaced.
    let target = std::fs::canonicalize(path).map_err(|e| format!("cannot write {shown}: {e}"))?;
    let now = std::fs::read(&target).map_err(|e| format!("cannot write {shown}: {e}"))?;
    if now != original {
        return Err(format!("{shown} changed while it was being checked; not written"));
    }
    let metadata = std::fs::metadata(&target).map_err(|e| format!("cannot write {shown}: {e}"))?;
    let dir = target.parent().ok_or_else(|| format!("cannot write {shown}: no parent directory"))?;
    let mut temp = tempfile::Builder::new().prefix(".sglang-preflight-").tempfile_in(dir).map_err(|e| format!("cannot write {shown}: {e}"))?;
    temp.write_all(text.as_bytes()).and_then(|()| temp.as_file().sync_all()).map_err(|e| format!("cannot write {shown}: {e}"))?;
    std::fs::set_permissions(temp.path(), metadata.permissions()).map_err(|e| format!("cannot write {shown}: {e}"))?;
    keep_owner(temp.path(), &metadata);
    temp.persist(&target).map_err(|e| format!("cannot write {shown}: {}", e.error))?;
    Ok(())
}

/// The new file keeps the old one's owner where we may set it (as root, or our own file).
#[cfg(unix)]
fn keep_owner(path: &Path, old: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let _ = std::os::unix::fs::chown(path, Some(old.uid()), Some(old.gid()));
}

#[cfg(not(unix))]
fn keep_owner(_: &Path, _: &std::fs::Metadata) {}

/// `old` → `new` as a unified diff with `a/` and `b/` headers (nothing when equal).
pub fn unified_diff(shown: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    similar::TextDiff::from_lines(old, new).unified_diff().context_radius(3).header(&format!("a/{shown}"), &format!("b/{shown}")).to_string()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)] // a failed expectation fails the test
mod tests {
    use super::*;
    use sglang_preflight::diagnostic::{Fix, Severity, Stage};
    use sglang_preflight::span::Span;

    fn finding(fixes: Vec<Fix>) -> Diagnostic {
        let mut d = Diagnostic::preflight("TXT003", Severity::Warning, Stage::Shell, "m", Span::empty_at(0));
        d.fixes = fixes;
        d
    }

    fn fix_of(applicability: Applicability, edits: &[(usize, usize, &str)]) -> Fix {
        Fix { title: "t".into(), applicability, edits: edits.iter().map(|&(start, end, r)| Edit { start, end, replacement: r.into() }).collect() }
    }

    fn report(diagnostics: Vec<Diagnostic>) -> FileReport {
        FileReport {
            file: "f".into(),
            kind: sglang_preflight::sources::Kind::Shell,
            accepted: true,
            commands: vec![],
            diagnostics,
            suppressed: 0,
            sglang_version: "0.5.23".into(),
            parser_only: false,
        }
    }

    #[test]
    fn takes_per_finding_the_first_allowed_fix_with_edits_and_skips_overlaps() {
        let text = "abcdefghij";
        let r = report(vec![
            finding(vec![fix_of(Applicability::Display, &[]), fix_of(Applicability::Safe, &[(0, 2, "X")])]),
            // overlaps the first: left for the next round
            finding(vec![fix_of(Applicability::Safe, &[(1, 3, "Y")])]),
            // touches the first's end: also left
            finding(vec![fix_of(Applicability::Safe, &[(2, 2, "Z")])]),
            // unsafe: only with --unsafe-fixes
            finding(vec![fix_of(Applicability::Unsafe, &[(5, 6, "U")])]),
            finding(vec![fix_of(Applicability::Safe, &[(8, 10, "W")])]),
        ]);
        let (groups, n) = choose_edits(&r, text, false);
        assert_eq!(n, 2);
        assert_eq!(apply_edits(text, &groups.concat()).unwrap(), "XcdefghW");
        let (groups, n) = choose_edits(&r, text, true);
        assert_eq!(n, 3);
        assert_eq!(apply_edits(text, &groups.concat()).unwrap(), "XcdeUghW");
    }

    #[test]
    fn an_edit_that_does_not_fit_the_text_is_not_taken() {
        let r = report(vec![finding(vec![fix_of(Applicability::Safe, &[(3, 99, "")])]), finding(vec![fix_of(Applicability::Safe, &[(1, 1, "×")])])]);
        let (edits, n) = choose_edits(&r, "×yz", false);
        assert_eq!((edits.len(), n), (0, 0));
    }

    #[test]
    fn a_fix_after_which_the_file_is_no_longer_readable_is_left_out() {
        // Two findings: one writes a `"` (say, inside a double-quoted YAML scalar), one a plain word.
        let check = |t: &str| {
            let mut findings = Vec::new();
            if t.starts_with('a') {
                findings.push(finding(vec![fix_of(Applicability::Safe, &[(0, 1, "\"")])]));
            }
            if t.ends_with('z') {
                findings.push(finding(vec![fix_of(Applicability::Safe, &[(t.len() - 1, t.len(), "Z")])]));
            }
            report(findings)
        };
        let fixed = fix("abz", false, check, |_, after| !after.contains('"'));
        assert_eq!((fixed.text.as_str(), fixed.applied), ("abZ", 1));
    }

    #[test]
    fn stops_when_a_round_changes_nothing_and_after_ten_rounds() {
        // A fix that always offers to append: bounded.
        let grows = fix("x", false, |t| report(vec![finding(vec![fix_of(Applicability::Safe, &[(t.len(), t.len(), "x")])])]), |_, _| true);
        assert_eq!(grows.text, "x".repeat(11));
        assert_eq!(grows.applied, 10);
        let same = fix("x", false, |_| report(vec![finding(vec![fix_of(Applicability::Safe, &[(0, 1, "x")])])]), |_, _| true);
        assert_eq!((same.text.as_str(), same.applied), ("x", 0));
    }

    #[test]
    fn a_file_is_written_only_if_it_still_holds_what_was_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.sh");
        std::fs::write(&path, "new since\n").unwrap();
        let err = write_atomically(&path, b"as read\n", "fixed\n").unwrap_err();
        assert!(err.contains("changed while it was being checked"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new since\n");
    }

    #[cfg(unix)]
    #[test]
    fn through_a_symlink_the_file_it_points_to_is_replaced_and_the_link_stays() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.sh");
        let link = dir.path().join("link.sh");
        std::fs::write(&target, "old\n").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomically(&link, b"old\n", "new\n").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new\n");
    }

    #[test]
    fn diffs_are_unified_with_file_headers() {
        let diff = unified_diff("run.sh", "a\nb\nc\n", "a\nB\nc\n");
        assert_eq!(diff, "--- a/run.sh\n+++ b/run.sh\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
        assert_eq!(unified_diff("run.sh", "a\n", "a\n"), "");
    }
}
