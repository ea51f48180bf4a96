//! Diagnostics are data: what SGLang (or preflight) says, where, why, and how to fix it.

use crate::span::Span;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// Who would say this: SGLang itself (its exact message), or preflight (our own finding).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Sglang,
    Preflight,
}

/// The step of SGLang's start-up (or of reading the pasted text) a diagnostic belongs to,
/// in the order SGLang runs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    Shell,
    Cli,
    Config,
    Argparse,
    Resolve,
    Check,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Applying it keeps the user's intent; may be applied without review.
    Safe,
    /// Changes what the server does; the user should choose.
    Unsafe,
    /// Advice only; cannot be applied to the text mechanically.
    Display,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub title: String,
    pub applicability: Applicability,
    pub edits: Vec<Edit>,
}

impl Fix {
    /// Advice only: a fix the user applies by hand (no edit can be offered safely).
    pub fn advice(title: impl Into<String>) -> Fix {
        Fix { title: title.into(), applicability: Applicability::Display, edits: vec![] }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub code: String,
    pub severity: Severity,
    pub origin: Origin,
    pub stage: Stage,
    /// Python exception class SGLang raises (`SystemExit` for argparse errors), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exception: Option<String>,
    pub message: String,
    pub span: Span,
    pub explanation: String,
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    /// An error SGLang itself raises, with its exact message.
    pub fn sglang_error(code: &str, stage: Stage, exception: &str, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            code: code.to_string(),
            severity: Severity::Error,
            origin: Origin::Sglang,
            stage,
            exception: Some(exception.to_string()),
            message: message.into(),
            span,
            explanation: String::new(),
            fixes: Vec::new(),
        }
    }

    /// A finding of our own (shell traps, suggestions, notes).
    pub fn preflight(code: &str, severity: Severity, stage: Stage, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            code: code.to_string(),
            severity,
            origin: Origin::Preflight,
            stage,
            exception: None,
            message: message.into(),
            span,
            explanation: String::new(),
            fixes: Vec::new(),
        }
    }

    pub fn with_explanation(mut self, text: impl Into<String>) -> Self {
        self.explanation = text.into();
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fixes.push(fix);
        self
    }

    pub fn is_sglang_error(&self) -> bool {
        self.origin == Origin::Sglang && self.severity == Severity::Error
    }
}

/// Apply edits (non-overlapping, any order) to `text`. Returns None when an edit is out of
/// range, splits a character, or overlaps another.
pub fn apply_edits(text: &str, edits: &[Edit]) -> Option<String> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    crate::sorting::sort_by_key(&mut sorted, |e| (e.start, e.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for e in sorted {
        if e.start < at || e.end < e.start || !text.is_char_boundary(e.start) || !text.is_char_boundary(e.end) {
            return None;
        }
        out.push_str(text.get(at..e.start)?);
        out.push_str(&e.replacement);
        at = e.end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}
