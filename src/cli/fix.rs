//! `--fix` and `--diff`: apply the fixes the checks offer, check again, repeat; write the result
//! atomically, or show it as a unified diff.

use sglang_preflight::diagnostic::Diagnostic;
use sglang_preflight::fix_all::fix_all;
use sglang_preflight::sources::FileReport;
use std::io::Write;
use std::path::Path;

pub struct Fixed {
    pub text: String,
    /// Findings whose fix was applied, over all rounds.
    pub applied: usize,
    /// The check of the text as it was.
    pub first: FileReport,
    /// The check of the fixed text.
    pub last: FileReport,
}

/// Apply fixes to `text` round by round (the core's [`fix_all`]: per finding the first fix of an
/// allowed applicability, overlapping ones left for the next round, none after which the file
/// would no longer be a file of its kind, `keeps(before, after)`).
pub fn fix(text: &str, unsafe_fixes: bool, check: impl Fn(&str) -> FileReport, keeps: impl Fn(&str, &str) -> bool) -> Fixed {
    let fixed = fix_all(
        text,
        unsafe_fixes,
        check,
        |r: &FileReport| -> Vec<&Diagnostic> { r.diagnostics.iter().chain(r.commands.iter().flat_map(|c| c.command.diagnostics.iter())).collect() },
        keeps,
    );
    Fixed { text: fixed.text, applied: fixed.applied, first: fixed.first, last: fixed.last }
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
