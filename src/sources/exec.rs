//! Exec-form lists (a Kubernetes container's `command` + `args`, docker-compose `command` as a
//! list, a Dockerfile `CMD ["python3", ...]`): argv with no shell. Written into a snippet as
//! shell-quoted words; edits come back as list elements in the list's own syntax.

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

/// A snippet edit that touches exec-form elements (or the space between them), as an edit of
/// the file in the list's own syntax; `None` when it cannot be written there.
pub fn map_edit(snippet: &super::Snippet, edit: &crate::diagnostic::Edit) -> Option<crate::diagnostic::Edit> {
    let _ = (snippet, edit);
    None
}
