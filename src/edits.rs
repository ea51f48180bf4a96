//! Applying edits (a fix's, or the command builder's) to the pasted text: the new text, and
//! where the change landed in it so the page can select it.

use crate::diagnostic::{apply_edits, Edit};
use crate::span::Span;
use serde::Serialize;

/// The text after some edits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Applied {
    pub text: String,
    /// Byte span, in the new text, of what the first edit (by position) wrote.
    pub changed: Span,
}

/// Apply `edits` (byte offsets into `text`, non-overlapping, any order). `None` when they do
/// not fit `text` (out of range, inside a character, overlapping): the text they were made for
/// has changed since.
pub fn apply(text: &str, edits: &[Edit]) -> Option<Applied> {
    let new_text = apply_edits(text, edits)?;
    let first = edits.iter().min_by_key(|e| (e.start, e.end));
    let changed = first.map(|e| Span::new(e.start, e.start + e.replacement.len())).unwrap_or_default();
    Some(Applied { text: new_text, changed })
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used)] // a failed expectation fails the test
mod tests {
    use super::*;

    fn edit(start: usize, end: usize, replacement: &str) -> Edit {
        Edit { start, end, replacement: replacement.into() }
    }

    #[test]
    fn applies_in_any_order_and_reports_the_first_change() {
        let text = "python -m sglang.launch_server --tp 2 --dp 3";
        let tp = text.find("2").unwrap_or(0);
        let dp = text.find("3").unwrap_or(0);
        let out = apply(text, &[edit(dp, dp + 1, "1"), edit(tp, tp + 1, "4")]);
        let Some(out) = out else { panic!("edits fit") };
        assert_eq!(out.text, "python -m sglang.launch_server --tp 4 --dp 1");
        assert_eq!(out.changed, Span::new(tp, tp + 1));
    }

    #[test]
    fn refuses_edits_that_do_not_fit() {
        assert_eq!(apply("abc", &[edit(2, 9, "")]), None);
        assert_eq!(apply("abc", &[edit(0, 2, ""), edit(1, 3, "")]), None);
        // inside a multi-byte character
        assert_eq!(apply("×", &[edit(1, 1, "x")]), None);
    }

    #[test]
    fn keeps_bytes_outside_the_edit() {
        let text = "# launch\nexport A=1\ndocker run --gpus all img \\\n  python3 -m sglang.launch_server --model-path m # ok\necho done\n";
        let at = text.find("--model-path m").unwrap_or(0) + "--model-path ".len();
        let Some(out) = apply(text, &[edit(at, at + 1, "'my model'")]) else { panic!("edit fits") };
        assert_eq!(out.text.get(..at), text.get(..at));
        assert_eq!(out.text.get(at + "'my model'".len()..), text.get(at + 1..));
        assert_eq!(out.text.get(out.changed.start..out.changed.end), Some("'my model'"));
    }
}
