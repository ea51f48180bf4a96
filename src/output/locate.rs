//! Where findings are in a file, as tools show it: 1-based lines and character columns, the
//! file's path as a relative, forward-slash reference, and every finding of a checked file.

use crate::diagnostic::Diagnostic;
use crate::sources::FileReport;

/// A 1-based line and a 1-based column counted in characters (Unicode code points).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineColumn {
    pub line: usize,
    pub column: usize,
}

/// The line and column of a set of byte offsets in one text, found in a single pass over it
/// (a file can carry many findings on one long line: no per-finding rescans).
pub struct Locator {
    /// Sorted by offset, no duplicates.
    found: Vec<(usize, LineColumn)>,
    len: usize,
}

impl Locator {
    /// Locate `offsets` in `text`. Offsets past the end are taken as the end; an offset inside
    /// a character is taken as the next character's start.
    pub fn new(text: &str, offsets: impl IntoIterator<Item = usize>) -> Locator {
        let len = text.len();
        let mut wanted: Vec<usize> = offsets.into_iter().map(|o| o.min(len)).collect();
        crate::sorting::sort(&mut wanted);
        wanted.dedup();
        let mut found = Vec::with_capacity(wanted.len());
        let mut chars = text.char_indices().peekable();
        let mut at = LineColumn { line: 1, column: 1 };
        for offset in wanted {
            while let Some(&(position, ch)) = chars.peek() {
                if position >= offset {
                    break;
                }
                if ch == '\n' {
                    at = LineColumn { line: at.line + 1, column: 1 };
                } else {
                    at.column += 1;
                }
                chars.next();
            }
            found.push((offset, at));
        }
        Locator { found, len }
    }

    /// `offset`, or the end of the text when it lies past it.
    pub fn clamp(&self, offset: usize) -> usize {
        offset.min(self.len)
    }

    /// The line and column of `offset` (one of those given to [`Locator::new`]; others get the
    /// position of the nearest given offset before them).
    pub fn at(&self, offset: usize) -> LineColumn {
        let offset = offset.min(self.len);
        let index = self.found.partition_point(|(o, _)| *o <= offset);
        index.checked_sub(1).and_then(|i| self.found.get(i)).map(|(_, lc)| *lc).unwrap_or(LineColumn { line: 1, column: 1 })
    }
}

/// Every finding of a checked file: those outside any launch, then each launch's, in report
/// order (deterministic: the order `check` gives them).
pub fn findings(file: &FileReport) -> impl Iterator<Item = &Diagnostic> {
    file.diagnostics.iter().chain(file.commands.iter().flat_map(|c| c.command.diagnostics.iter()))
}

/// Every byte offset a renderer needs located in a file: each finding's span and each fix
/// edit's ends.
pub fn offsets(file: &FileReport) -> impl Iterator<Item = usize> + '_ {
    findings(file).flat_map(|d| {
        [d.span.start, d.span.end]
            .into_iter()
            .chain(d.fixes.iter().flat_map(|f| f.edits.iter().flat_map(|e| [e.start, e.end])))
    })
}

/// The path as tools reference it from the repository root: forward slashes, no leading `./`.
pub fn display_path(path: &str) -> String {
    let mut forward = path.replace('\\', "/");
    while let Some(rest) = forward.strip_prefix("./") {
        forward = rest.to_string();
    }
    forward
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_character_columns_of_offsets() {
        let text = "ab\nçd\n\nx";
        let locator = Locator::new(text, [0, 1, 3, 5, 6, 7, 8, 100]);
        assert_eq!(locator.at(0), LineColumn { line: 1, column: 1 });
        assert_eq!(locator.at(1), LineColumn { line: 1, column: 2 });
        assert_eq!(locator.at(3), LineColumn { line: 2, column: 1 });
        // `ç` is two bytes, one column.
        assert_eq!(locator.at(5), LineColumn { line: 2, column: 2 });
        assert_eq!(locator.at(6), LineColumn { line: 2, column: 3 });
        assert_eq!(locator.at(7), LineColumn { line: 3, column: 1 });
        assert_eq!(locator.at(8), LineColumn { line: 4, column: 1 });
        // Past the end: the end.
        assert_eq!(locator.at(100), LineColumn { line: 4, column: 2 });
    }

    #[test]
    fn an_offset_inside_a_character_is_the_next_character() {
        let locator = Locator::new("çx", [1]);
        assert_eq!(locator.at(1), LineColumn { line: 1, column: 2 });
    }

    #[test]
    fn paths_are_relative_with_forward_slashes() {
        assert_eq!(display_path("./docs/a.md"), "docs/a.md");
        assert_eq!(display_path(".\\k8s\\pod.yaml"), "k8s/pod.yaml");
        assert_eq!(display_path("scripts/run.sh"), "scripts/run.sh");
    }
}
