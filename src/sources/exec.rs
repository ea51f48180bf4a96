//! Exec-form lists (a Kubernetes container's `command` + `args`, docker-compose `command` as a
//! list, a Dockerfile `CMD ["python3", ...]`): argv with no shell. Written into a snippet as
//! shell-quoted words; edits come back as list elements in the list's own syntax.
//!
//! Snippets are put together with `Builder`. Between two elements of one exec-form argv the
//! snippet has a one-space [`PieceKind::Synthetic`] separator whose anchor is exactly the file
//! bytes between the two items when they are neighbours in one list (`, ` or `\n  - `), and an
//! empty anchor at the second item otherwise (the last `ENTRYPOINT` item and the first `CMD`
//! item): [`map_edit`] reads that to keep an edit inside one list.

use super::{Piece, PieceKind, Snippet};
use crate::diagnostic::Edit;
use crate::shell;
use std::ops::Range;

/// How a list's elements are written, so a replacement element can be written the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Style {
    /// A JSON array of strings (Dockerfile exec form, a YAML flow sequence of quoted strings).
    Json,
    /// A YAML block sequence item `- value`, at this indentation (bytes before the `-`).
    YamlBlock { indent: usize },
    /// A YAML flow sequence item (`[a, "b"]`).
    YamlFlow,
}

/// Snippet text and its pieces, built front to back.
#[derive(Debug, Default)]
pub(crate) struct Builder {
    text: String,
    pieces: Vec<Piece>,
}

impl Builder {
    /// Text that is the file's bytes from `file_start` on, one for one.
    pub(crate) fn verbatim(&mut self, text: &str, file_start: usize) {
        if text.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(text);
        let file = file_start..file_start + text.len();
        if let Some(last) = self.pieces.last_mut() {
            if last.kind == PieceKind::Verbatim && last.snippet.end == start && last.file.end == file.start {
                last.snippet.end = self.text.len();
                last.file.end = file.end;
                return;
            }
        }
        self.pieces.push(Piece { snippet: start..self.text.len(), file, kind: PieceKind::Verbatim });
    }

    /// Text of our own, shown at `anchor` in the file.
    pub(crate) fn synthetic(&mut self, text: &str, anchor: Range<usize>) {
        self.push(text, anchor, PieceKind::Synthetic);
    }

    /// One exec-form element, written as the shell word `word`, from the item at `file`.
    pub(crate) fn element(&mut self, word: &str, file: Range<usize>, style: Option<Style>) {
        // an item whose syntax is not known is still checked, but edits cannot be written back
        let kind = style.map(PieceKind::Element).unwrap_or(PieceKind::Synthetic);
        self.push(word, file, kind);
    }

    fn push(&mut self, text: &str, file: Range<usize>, kind: PieceKind) {
        if text.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.pieces.push(Piece { snippet: start..self.text.len(), file, kind });
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    pub(crate) fn finish(self) -> Snippet {
        Snippet { text: self.text, pieces: self.pieces }
    }
}

/// One item of an exec-form list, read from the file.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    /// The string the program receives.
    pub value: String,
    /// The item's bytes in the file, quotes included.
    pub file: Range<usize>,
    /// `None` when the item's list syntax is not known (its edits are then advice).
    pub style: Option<Style>,
    /// The shell word written for it in the snippet (`quote_word(value)` unless part of the
    /// value is unknown, e.g. a template).
    pub word: String,
}

/// Write `argv` into `out` as words separated by one space. `same_list[k]` says whether item
/// `k` follows item `k - 1` in the same list (see the module docs).
pub(crate) fn write_argv(out: &mut Builder, argv: &[Item], same_list: &[bool]) {
    let mut previous: Option<&Item> = None;
    for (k, item) in argv.iter().enumerate() {
        if let Some(p) = previous {
            let neighbours = same_list.get(k).copied().unwrap_or(false) && p.file.end <= item.file.start;
            let anchor = if neighbours { p.file.end..item.file.start } else { item.file.start..item.file.start };
            out.synthetic(" ", anchor);
        }
        out.element(&item.word, item.file.clone(), item.style.clone());
        previous = Some(item);
    }
}

/// An element of a snippet, by its piece.
struct El<'a> {
    piece: &'a Piece,
    /// The piece's index in the snippet.
    index: usize,
    style: &'a Style,
}

/// A snippet edit that touches exec-form elements (or the space between them), as an edit of
/// the file in the list's own syntax; `None` when it cannot be written there.
///
/// * An edit inside one element (replacing it whole, part of it, or inserting at its ends):
///   the element's new words replace it (an insertion at its end keeps the item as written and
///   adds the new words as items after it; likewise at its start).
/// * An edit from the start or end of element `a` to the start or end of element `b` of the same
///   list: the items in between are replaced by the replacement's words, separators included.
pub fn map_edit(snippet: &Snippet, edit: &crate::diagnostic::Edit) -> Option<crate::diagnostic::Edit> {
    if edit.end < edit.start {
        return None;
    }
    let elements: Vec<El> = snippet
        .pieces
        .iter()
        .enumerate()
        .filter_map(|(index, p)| match &p.kind {
            PieceKind::Element(style) => Some(El { piece: p, index, style }),
            _ => None,
        })
        .collect();
    // the element an offset is in or at the edge of (elements are at least one byte and never touch)
    let at = |offset: usize| elements.iter().position(|e| e.piece.snippet.start <= offset && offset <= e.piece.snippet.end);
    let a = at(edit.start)?;
    let b = at(edit.end)?;
    let first = elements.get(a)?;
    let last = elements.get(b)?;
    let style = first.style;
    // every element from a to b must be in one list
    for k in a..b {
        let (Some(x), Some(y)) = (elements.get(k), elements.get(k + 1)) else { return None };
        if x.style != y.style || !neighbours(snippet, x, y) {
            return None;
        }
    }
    let words = words_of(&edit.replacement)?;
    if a == b {
        return edit_inside(snippet, &elements, a, edit);
    }
    let starts_at_start = edit.start == first.piece.snippet.start;
    let ends_at_end = edit.end == last.piece.snippet.end;
    let starts_at_end = edit.start == first.piece.snippet.end;
    let ends_at_start = edit.end == last.piece.snippet.start;
    let sep = separator(style);
    let items = |ws: &[String]| -> Option<String> {
        let rendered: Option<Vec<String>> = ws.iter().map(|w| render_item(w, style)).collect();
        Some(rendered?.join(&sep))
    };
    let (start, end, replacement) = if starts_at_end && ends_at_end {
        // `… a| b c|` : the items after a, up to b, with the separator before them
        let r = if words.is_empty() { String::new() } else { format!("{sep}{}", items(&words)?) };
        (first.piece.file.end, last.piece.file.end, r)
    } else if starts_at_start && ends_at_start {
        // `|a b |c`
        let r = if words.is_empty() { String::new() } else { format!("{}{sep}", items(&words)?) };
        (first.piece.file.start, last.piece.file.start, r)
    } else if starts_at_start && ends_at_end {
        if words.is_empty() {
            return remove_items(snippet, &elements, a, b);
        }
        (first.piece.file.start, last.piece.file.end, items(&words)?)
    } else if starts_at_end && ends_at_start && !words.is_empty() {
        // only the space between: new items in between
        (first.piece.file.end, last.piece.file.start, format!("{sep}{}{sep}", items(&words)?))
    } else {
        return None;
    };
    Some(Edit { start, end, replacement })
}

/// Whether `y` follows `x` in the same list: the separator between them is anchored at exactly
/// the file bytes between the two items.
fn neighbours(snippet: &Snippet, x: &El, y: &El) -> bool {
    let (xp, yp) = (x.piece, y.piece);
    y.index == x.index + 2
        && snippet.pieces.get(x.index + 1).is_some_and(|p| {
            p.kind == PieceKind::Synthetic && p.snippet.start == xp.snippet.end && p.snippet.end == yp.snippet.start && p.file == (xp.file.end..yp.file.start) && !p.file.is_empty()
        })
}

/// The words a piece of shell text is read as; `None` when it is not plain words.
fn words_of(text: &str) -> Option<Vec<String>> {
    if text.trim().is_empty() {
        return Some(Vec::new());
    }
    let parsed = shell::parse(text);
    if parsed.commands.len() != 1 || !parsed.diagnostics.is_empty() {
        return None;
    }
    let command = parsed.commands.first()?;
    if !command.assignments.is_empty() {
        return None;
    }
    Some(command.words.iter().map(|w| w.text.clone()).collect())
}

/// An edit within element `k` (or at its edges).
fn edit_inside(snippet: &Snippet, elements: &[El], k: usize, edit: &Edit) -> Option<Edit> {
    let el = elements.get(k)?;
    let piece = el.piece;
    let word_text = snippet.text.get(piece.snippet.clone())?;
    let old = words_of(word_text)?;
    let [old] = old.as_slice() else { return None };
    let rel_start = edit.start.checked_sub(piece.snippet.start)?;
    let rel_end = edit.end.checked_sub(piece.snippet.start)?;
    let new_text = format!("{}{}{}", word_text.get(..rel_start)?, edit.replacement, word_text.get(rel_end..)?);
    let words = words_of(&new_text)?;
    let sep = separator(el.style);
    let render = |ws: &[String]| -> Option<String> {
        let rendered: Option<Vec<String>> = ws.iter().map(|w| render_item(w, el.style)).collect();
        Some(rendered?.join(&sep))
    };
    match words.as_slice() {
        [] => remove_items(snippet, elements, k, k),
        // the item stays as the user wrote it; the new words go after it
        [first, rest @ ..] if first == old && !rest.is_empty() => {
            Some(Edit { start: piece.file.end, end: piece.file.end, replacement: format!("{sep}{}", render(rest)?) })
        }
        [rest @ .., last] if last == old && !rest.is_empty() => {
            Some(Edit { start: piece.file.start, end: piece.file.start, replacement: format!("{}{sep}", render(rest)?) })
        }
        _ => Some(Edit { start: piece.file.start, end: piece.file.end, replacement: render(&words)? }),
    }
}

/// Delete items `a..=b` with one separator (the one before them, else the one after them); a
/// flow or JSON list may become empty (`[]`), a block sequence may not (it would turn null).
fn remove_items(snippet: &Snippet, elements: &[El], a: usize, b: usize) -> Option<Edit> {
    let first = elements.get(a)?;
    let last = elements.get(b)?;
    let same = |x: &El, y: &El| x.style == y.style && neighbours(snippet, x, y);
    if let Some(before) = a.checked_sub(1).and_then(|p| elements.get(p)).filter(|p| same(p, first)) {
        return Some(Edit { start: before.piece.file.end, end: last.piece.file.end, replacement: String::new() });
    }
    if let Some(after) = elements.get(b + 1).filter(|n| same(last, n)) {
        return Some(Edit { start: first.piece.file.start, end: after.piece.file.start, replacement: String::new() });
    }
    match first.style {
        Style::Json | Style::YamlFlow => Some(Edit { start: first.piece.file.start, end: last.piece.file.end, replacement: String::new() }),
        Style::YamlBlock { .. } => None,
    }
}

/// What goes between two items of a list.
fn separator(style: &Style) -> String {
    match style {
        Style::Json | Style::YamlFlow => ", ".to_string(),
        Style::YamlBlock { indent } => format!("\n{}- ", " ".repeat(*indent)),
    }
}

/// `word` as one item of a list of this style.
pub fn render_item(word: &str, style: &Style) -> Option<String> {
    match style {
        Style::Json => serde_json::to_string(word).ok(),
        Style::YamlBlock { .. } | Style::YamlFlow if yaml_plain_is_string(word) => Some(word.to_string()),
        // YAML's double-quoted style reads JSON string escapes
        Style::YamlBlock { .. } | Style::YamlFlow => serde_json::to_string(word).ok(),
    }
}

/// Whether `word` written as a plain YAML scalar (block or flow) reads back as this string:
/// only flag- and path-like characters, and nothing YAML 1.1 resolves to a number, boolean,
/// null, timestamp or merge key. Kubernetes `args` must be strings, so `2` is quoted.
fn yaml_plain_is_string(word: &str) -> bool {
    let b = word.as_bytes();
    let Some(&first) = b.first() else { return false };
    let safe_chars = b.iter().all(|&c| c.is_ascii_alphanumeric() || b"_./-+=".contains(&c));
    let looks_numeric = first.is_ascii_digit() || (b"-+.".contains(&first) && b.get(1).is_some_and(|c| c.is_ascii_digit() || *c == b'.'));
    safe_chars && !looks_numeric && word != "=" && crate::frontend::yaml::resolve_plain(word).is_none()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn items_are_quoted_when_plain_yaml_would_change_them() {
        let block = Style::YamlBlock { indent: 2 };
        assert_eq!(render_item("--tp-size", &block).unwrap(), "--tp-size");
        assert_eq!(render_item("2", &block).unwrap(), "\"2\"");
        assert_eq!(render_item("yes", &block).unwrap(), "\"yes\"");
        assert_eq!(render_item("null", &Style::YamlFlow).unwrap(), "\"null\"");
        assert_eq!(render_item("a:b", &Style::YamlFlow).unwrap(), "\"a:b\"");
        assert_eq!(render_item("#x", &block).unwrap(), "\"#x\"");
        assert_eq!(render_item("-1", &block).unwrap(), "\"-1\"");
        assert_eq!(render_item("org/model-7B", &block).unwrap(), "org/model-7B");
        assert_eq!(render_item("say \"hi\"", &Style::Json).unwrap(), "\"say \\\"hi\\\"\"");
    }
}
