//! The rule engine: SGLang's resolution hooks and `check_server_args`, replayed in SGLang's
//! order over the resolved configuration. One file per SGLang hook module, so a new SGLang
//! release is reviewed file against file:
//!
//! | SGLang module (`sglang/srt/arg_groups/`) | here |
//! | --- | --- |
//! | `parallel_hook.py` | `parallel.rs` |
//! | `kv_cache_hook.py` | `kv_cache.rs` |
//! | `hicache_hook.py` | `hicache.rs` |
//! | `pd_disaggregation_hook.py` | `pd_disaggregation.rs` |
//! | `serving_hook.py` | `serving.rs` |
//! | `validation_hook.py` (`check_server_args` and validators) | `validation.rs` |
//! | `cuda_graph_hook.py`, `model_executor/cuda_graph_config.py` | `cuda_graph.rs` |
//! | `model_path_hook.py` + the first model-source load (repo id validation) | `model_path.rs` |
//! | `configs/model_config.py` (flag-only parts) | `model_config.rs` |
//!
//! `pipeline.rs` mirrors `pipeline.py::run_resolution_pipeline`: the order of the hooks.

pub mod cuda_graph;
pub mod hicache;
pub mod kv_cache;
pub mod model_config;
pub mod model_path;
pub mod parallel;
pub mod pd_disaggregation;
pub mod pipeline;
pub mod serving;
pub mod validation;

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Origin, Severity, Stage};
use crate::hardware::Hardware;
use crate::resolved::ResolvedConfig;
use crate::span::Span;
use serde::Serialize;

/// A rule's metadata, kept next to its check. Documentation and the compatibility matrix are
/// generated from these.
#[derive(Debug, Serialize)]
pub struct Rule {
    /// Stable code, e.g. `PD003`. Prefix per family.
    pub code: &'static str,
    /// Stable kebab-case name, e.g. `host-pool-retraction-needs-dcp-1`.
    pub name: &'static str,
    /// The raise site in `raise-sites.jsonl` (`module.function#n`), or "" for a warning of
    /// SGLang's that is not a raise site.
    pub site: &'static str,
    /// SGLang source file and function, e.g. `sglang/srt/arg_groups/pd_disaggregation_hook.py`.
    pub file: &'static str,
    pub function: &'static str,
    /// First SGLang version with this rule, and the last (None = still current).
    pub since: &'static str,
    pub until: Option<&'static str>,
    /// `ValueError`, `AssertionError`, ... ; "" for warnings.
    pub exception: &'static str,
    pub severity: Severity,
    pub stage: Stage,
    /// SGLang's message template with `{placeholders}` as in its f-string.
    pub template: &'static str,
    /// What it means and when it happens, in our own words.
    pub explanation: &'static str,
    /// Flags (option strings) involved, for the compatibility matrix and the reference.
    pub flags: &'static [&'static str],
    /// A command that triggers it and the same command fixed (args after the launcher).
    pub example_bad: &'static str,
    pub example_good: &'static str,
}

/// Everything a rule can read, and where it reports.
pub struct Ctx<'a> {
    pub cfg: ResolvedConfig<'a>,
    pub hw: &'a Hardware,
    /// `SGLANG_*` and other environment variables given in the pasted command.
    pub env: &'a [(String, String)],
    /// The original pasted text (fix edits are byte edits on it).
    pub text: &'a str,
    /// Where new flags are appended by fixes: end of the last argument of the invocation.
    pub append_at: usize,
    /// False when text appended there would not become new arguments (the command ends inside
    /// an unterminated quote): fixes that add flags are then advice only.
    pub can_append: bool,
    /// Span used when a diagnostic has no better place (the launcher).
    pub fallback_span: Span,
    /// Whether the model's config is known (it never is yet: model-dependent checks skip).
    pub model_config_known: bool,
    /// SGLang already stopped before resolution (front end, config or argparse error).
    pub earlier_error: bool,
    pub diagnostics: Vec<Diagnostic>,
    /// Checks that were not run, with why (shown as "N checks need the model's config").
    pub not_run: Vec<NotRun>,
    /// SGLang hooks on this command's path that this build does not model yet.
    pub not_modelled: Vec<&'static str>,
}

#[derive(Debug, Clone, Serialize)]
pub struct NotRun {
    pub site: &'static str,
    pub reason: NotRunReason,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NotRunReason {
    ModelConfig,
    Files,
    Network,
    NotImplemented,
}

impl<'a> Ctx<'a> {
    /// Environment variable as SGLang would see it.
    pub fn env(&self, name: &str) -> Option<&str> {
        self.env.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// SGLang's `get_bool_env_var`: "true"/"1" (case-insensitive) are true.
    pub fn env_bool(&self, name: &str, default: bool) -> bool {
        match self.env(name) {
            Some(v) => matches!(v.to_ascii_lowercase().as_str(), "true" | "1"),
            None => default,
        }
    }

    /// The span to point at for these fields: the first one set on the command line, else
    /// the launcher.
    pub fn span_of(&self, dests: &[&str]) -> Span {
        dests
            .iter()
            .filter_map(|d| self.cfg.setting(d))
            .map(|s| s.whole_span)
            .next()
            .unwrap_or(self.fallback_span)
    }

    /// Report an error SGLang raises (`rule.exception`) with its formatted message.
    pub fn raise(&mut self, rule: &'static Rule, message: String, dests: &[&str], fixes: Vec<Fix>) {
        let span = self.span_of(dests);
        self.diagnostics.push(Diagnostic {
            code: rule.code.to_string(),
            severity: rule.severity,
            origin: Origin::Sglang,
            stage: rule.stage,
            exception: if rule.exception.is_empty() { None } else { Some(rule.exception.to_string()) },
            message,
            span,
            explanation: rule.explanation.to_string(),
            fixes,
        });
    }

    /// Report a warning SGLang logs (it changes a value and goes on). SGLang stops at its first
    /// exception, so a warning it would log after one is never printed: none is reported then.
    pub fn warn(&mut self, rule: &'static Rule, message: String, dests: &[&str], fixes: Vec<Fix>) {
        if self.earlier_error || self.diagnostics.iter().any(Diagnostic::is_sglang_error) {
            return;
        }
        let span = self.span_of(dests);
        self.diagnostics.push(Diagnostic {
            code: rule.code.to_string(),
            severity: Severity::Warning,
            origin: Origin::Sglang,
            stage: rule.stage,
            exception: None,
            message,
            span,
            explanation: rule.explanation.to_string(),
            fixes,
        });
    }

    /// A hook of SGLang's pipeline this build does not model yet: whatever it checks is not run.
    /// Counted, not listed, in each report (the list is the same for every command: it is
    /// `pipeline.rs`); a hook SGLang calls twice counts once.
    /// Record that `hook` would run here but is not modelled (duplicates are removed once, at
    /// the end, rather than searched for on every call).
    pub fn not_modelled(&mut self, hook: &'static str) {
        self.not_modelled.push(hook);
    }

    pub fn skip(&mut self, site: &'static str, reason: NotRunReason) {
        self.not_run.push(NotRun { site, reason });
    }

    /// Fix: set `--flag value` (replace the value where the flag is given, else append).
    /// `dest` is the field the flag writes.
    pub fn fix_set(&self, title: impl Into<String>, dest: &str, flag: &str, value: &str, applicability: Applicability) -> Fix {
        let title = title.into();
        match self.cfg.setting(dest) {
            Some(s) if s.from_config => Fix::advice(title),
            Some(s) => Fix {
                title,
                applicability,
                edits: vec![Edit { start: s.whole_span.start, end: s.whole_span.end, replacement: format!("{flag} {value}") }],
            },
            None if !self.can_append => Fix::advice(title),
            None => Fix {
                title,
                applicability,
                edits: vec![Edit { start: self.append_at, end: self.append_at, replacement: format!(" {flag} {value}") }],
            },
        }
    }

    /// Fix: add a store_true flag (or remove nothing if already there).
    pub fn fix_add_flag(&self, title: impl Into<String>, flag: &str, applicability: Applicability) -> Fix {
        if !self.can_append {
            return Fix::advice(title);
        }
        Fix {
            title: title.into(),
            applicability,
            edits: vec![Edit { start: self.append_at, end: self.append_at, replacement: format!(" {flag}") }],
        }
    }

    /// Fix: remove the flag that set `dest` (and its value) from the command.
    pub fn fix_remove(&self, title: impl Into<String>, dest: &str, applicability: Applicability) -> Fix {
        let title = title.into();
        match self.cfg.setting(dest) {
            Some(s) if !s.from_config => {
                // Also take the whitespace before the flag so no double space is left.
                let mut start = s.whole_span.start;
                let bytes = self.text.as_bytes();
                while start > 0 && matches!(bytes.get(start - 1), Some(b' ') | Some(b'\t')) {
                    start -= 1;
                }
                Fix { title, applicability, edits: vec![Edit { start, end: s.whole_span.end, replacement: String::new() }] }
            }
            _ => Fix::advice(title),
        }
    }
}

/// Every rule this build knows, in pipeline order of their families.
pub fn all_rules() -> Vec<&'static Rule> {
    let mut v: Vec<&'static Rule> = Vec::new();
    v.extend_from_slice(parallel::RULES);
    v.extend_from_slice(model_path::RULES);
    v.extend_from_slice(model_config::RULES);
    v.extend_from_slice(serving::RULES);
    v.extend_from_slice(hicache::RULES);
    v.extend_from_slice(validation::RULES);
    v.extend_from_slice(pd_disaggregation::RULES);
    v.extend_from_slice(kv_cache::RULES);
    v.extend_from_slice(cuda_graph::RULES);
    v
}
