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
//! | `lora_hook.py`, `lora/marlin_lora_temp/policy.py` | `lora.rs` |
//! | `cuda_graph_hook.py` | `cuda_graph.rs` |
//! | `moe_hook.py` | `moe.rs` |
//! | `mega_moe_hook.py` | `mega_moe.rs` |
//! | `expert_pack_hook.py` | `expert_pack.rs` |
//! | `speculative_hook.py` (+ `spec_info`, `ragged_verify`, `adaptive_spec_params` helpers) | `speculative.rs` |
//! | `attention_hook.py` (+ its `overrides.py` passes, `_page_size_default`) | `attention.rs` |
//! | `mamba_hook.py` | `mamba.rs` |
//! | `model_path_hook.py` + the first model-source load (repo id validation) | `model_path.rs` |
//! | `configs/model_config.py` (flag-only parts) | `model_config.rs` |
//! | `platform_hook.py` (+ the MLX / MPS runtime gates of `resolve_once`) | `platform.rs` |
//! | `memory_hook.py` | `memory.rs` |
//! | `kv_shard_hook.py` | `kv_shard.rs` |
//! | `layernorm_sp_hook.py` | `layernorm_sp.rs` |
//! | `dllm_hook.py` (+ `dllm/config.py`, the dLLM post-process passes) | `dllm.rs` |
//! | `model_hook.py` | `model.rs` |
//! | `boundary_reduction.py` | `boundary_reduction.rs` |
//! | `kernel_plugins/nvidia/binding.py` | `megakernel.rs` |
//! | `kernel_plugins/amd/binding.py` | `monokernel.rs` |
//!
//! SGLang's shared modules (`runtime_context.py`, `environ.py`, `overrides.py`'s constants,
//! `model_executor/cuda_graph_config.py`, `validation_hook.validate_ib_devices`, the speculative
//! algorithm) are in `shared/`: families import them, never each other.
//!
//! `pipeline.rs` mirrors `pipeline.py::run_resolution_pipeline`: the order of the hooks.

pub mod attention;
pub mod cuda_graph;
pub mod expert_pack;
pub mod boundary_reduction;
pub mod dllm;
pub mod hicache;
pub mod kv_cache;
pub mod kv_shard;
pub mod layernorm_sp;
pub mod lora;
pub mod memory;
pub mod mega_moe;
pub mod mamba;
pub mod model_config;
pub mod model_path;
pub mod moe;
pub mod megakernel;
pub mod model;
pub mod monokernel;
pub mod parallel;
pub mod pd_disaggregation;
pub mod pipeline;
pub mod platform;
pub mod runtime;
pub mod serving;
pub mod shared;
pub mod speculative;
pub mod validation;

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Origin, Severity, Stage};
use crate::fields::Field;
use crate::hardware::Hardware;
use crate::release::{self, Release, Site, SiteRef};
use crate::resolved::ResolvedConfig;
use crate::span::Span;
use serde::Serialize;

/// A rule: what is ours (code, name, explanation, examples, the flags involved) and which of
/// SGLang's sites it reproduces. SGLang's exception, message, source location and the releases
/// the rule applies to come from the release tables (`crate::release`), never from here.
#[derive(Debug)]
pub struct Rule {
    /// Stable code, e.g. `PD003`. Prefix per family.
    pub code: &'static str,
    /// Stable kebab-case name, e.g. `host-pool-retraction-needs-dcp-1`.
    pub name: &'static str,
    /// What SGLang does that this rule reproduces.
    pub sglang: Sglang,
    /// What it means and when it happens, in our own words.
    pub explanation: &'static str,
    /// Flags (option strings) involved, for the compatibility matrix and the reference.
    pub flags: &'static [&'static str],
    /// A command that triggers it and the same command fixed (args after the launcher, or a
    /// whole command when it needs an environment variable).
    pub example_bad: &'static str,
    pub example_good: &'static str,
}

/// The SGLang behaviour a rule reproduces.
#[derive(Debug, Clone, Copy, Serialize)]
pub enum Sglang {
    /// A `raise` / `assert` of SGLang's (`raise-sites.jsonl`).
    Raises(SiteRef),
    /// A warning SGLang logs and goes on (`warn-sites.jsonl`).
    Warns(SiteRef),
    /// A raise whose exception SGLang catches and raises again as another (`raise
    /// AssertionError(str(exc))`): the message is `site`'s, the exception `by`'s.
    Reraised { site: SiteRef, by: SiteRef },
    /// An exception Python itself (or a library SGLang calls) raises while SGLang runs
    /// `function`: there is no raise site in SGLang's source to read it from. `raises_in`:
    /// whether `release`'s code there can raise it, from the release's data, where not every
    /// release that has `function` can (a later one reads the value with a default); None:
    /// every release that has it.
    Python { function: &'static str, raised_by: &'static str, exception: &'static str, template: &'static str, #[serde(skip_serializing)] raises_in: Option<fn(&Release) -> bool> },
    /// A condition of the KV transfer between a PD prefill server and a decode server
    /// (`crate::pairs`): each server starts, and the pair fails (or degrades) when they
    /// connect. `function` (`module.Class.method`, in `file`) is where, `exception` and
    /// `template` what SGLang raises or logs there ("" when it says nothing), as read in the
    /// source of SGLang `read_in`; `warns`: the pair works, worse or only under conditions.
    Transfer {
        file: &'static str,
        function: &'static str,
        exception: &'static str,
        template: &'static str,
        warns: bool,
        read_in: &'static str,
    },
    /// A failure after resolution, on the GPU node (a backend's or kernel's initialisation),
    /// that depends only on flags and hardware: the recorder cannot reach it, so it is reported
    /// as preflight's warning (origin `preflight`, never a recorded verdict). `function` (in
    /// `file`) is where SGLang fails, `exception` and `template` what it raises there, as read
    /// in the source of SGLang `read_in` ("" when SGLang has no message of its own: a CUDA
    /// error). See `runtime.rs`.
    Runtime { file: &'static str, function: &'static str, exception: &'static str, template: &'static str, read_in: &'static str },
}

/// The rule reproduces the raise site of SGLang's `function` (`module.function`) whose message
/// starts with `message`.
pub const fn raises(function: &'static str, message: &'static str) -> Sglang {
    Sglang::Raises(SiteRef { function, message, nth: 0 })
}

/// Same, for the `nth` (from 0) of several sites of `function` with that message (bare asserts).
pub const fn raises_nth(function: &'static str, message: &'static str, nth: u8) -> Sglang {
    Sglang::Raises(SiteRef { function, message, nth })
}

/// The rule reproduces the warning SGLang's `function` logs with a message starting `message`.
pub const fn warns(function: &'static str, message: &'static str) -> Sglang {
    Sglang::Warns(SiteRef { function, message, nth: 0 })
}

/// A site reference for `Ctx::skip` (checks not run).
pub const fn site(function: &'static str, message: &'static str) -> SiteRef {
    SiteRef { function, message, nth: 0 }
}

/// Same, the `nth` of several sites with that message.
pub const fn site_nth(function: &'static str, message: &'static str, nth: u8) -> SiteRef {
    SiteRef { function, message, nth }
}

/// Stops a hook: SGLang raised. Hooks are `fn(&mut Ctx) -> Step` and `ctx.raise(..)?`: `Ok` (a
/// site the release lacks, a check not decidable here) goes on with the hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raised;

/// What a hook returns: `Ok(())` to go on, `Err(Raised)` when SGLang raised.
pub type Step = Result<(), Raised>;

impl Rule {
    pub fn severity(&self) -> Severity {
        match self.sglang {
            Sglang::Warns(_) | Sglang::Transfer { warns: true, .. } | Sglang::Runtime { .. } => Severity::Warning,
            _ => Severity::Error,
        }
    }

    /// The site this rule reproduces in `release` (None for Python's own exceptions, or when
    /// the release does not have it).
    pub fn site(&self, release: &Release) -> Option<&'static Site> {
        match &self.sglang {
            Sglang::Raises(s) | Sglang::Reraised { site: s, .. } => release.raise_site(s),
            Sglang::Warns(s) => release.warn_site(s),
            Sglang::Python { .. } | Sglang::Transfer { .. } | Sglang::Runtime { .. } => None,
        }
    }

    /// Whether SGLang `release` has what this rule reproduces.
    pub fn applies_to(&self, release: &Release) -> bool {
        match &self.sglang {
            Sglang::Python { function, raises_in, .. } => release.has_function(function) && raises_in.map_or(true, |raises| raises(release)),
            Sglang::Transfer { read_in, .. } | Sglang::Runtime { read_in, .. } => release.version == *read_in,
            Sglang::Reraised { by, .. } => self.site(release).is_some() && release.raise_site(by).is_some(),
            _ => self.site(release).is_some(),
        }
    }

    /// SGLang's exception class ("" for a warning) and message template in `release`.
    pub fn sglang_text(&self, release: &Release) -> Option<(&'static str, &'static str)> {
        match &self.sglang {
            Sglang::Python { exception, template, .. } | Sglang::Transfer { exception, template, .. } | Sglang::Runtime { exception, template, .. } => {
                Some((exception, template))
            }
            Sglang::Warns(_) => self.site(release).map(|s| ("", s.template)),
            Sglang::Raises(_) => self.site(release).map(|s| (s.exception, s.template)),
            Sglang::Reraised { site, by } => Some((release.raise_site(by)?.exception, release.raise_site(site)?.template)),
        }
    }

    /// The rule's metadata joined with SGLang's facts from the release tables (for the
    /// reference, the page and `reference --json`).
    pub fn info(&self) -> RuleInfo {
        let newest = release::get(release::DEFAULT_VERSION);
        let mut applies: Vec<&str> = release::with_checks().filter(|r| self.applies_to(r)).map(|r| r.version).collect();
        if applies.is_empty() {
            // a check only older releases have (0.5.18's own, replayed as that release writes it)
            applies = release::all().filter(|r| self.applies_to(r)).map(|r| r.version).collect();
        }
        let site = newest.and_then(|r| self.site(r)).or_else(|| release::all().find_map(|r| self.site(r)));
        let (file, function) = match (&self.sglang, site) {
            (Sglang::Python { raised_by, function, .. }, _) => (format!("{raised_by} (via {function})"), (*raised_by).to_string()),
            (Sglang::Transfer { file, function, .. } | Sglang::Runtime { file, function, .. }, _) => ((*file).to_string(), (*function).to_string()),
            (_, Some(s)) => (s.file.to_string(), s.function.rsplit('.').next().unwrap_or("").to_string()),
            (_, None) => (String::new(), String::new()),
        };
        let text = newest.and_then(|r| self.sglang_text(r)).or_else(|| release::all().find_map(|r| self.sglang_text(r)));
        let in_check = match &self.sglang {
            Sglang::Python { function, .. } => function.ends_with(".check_server_args"),
            Sglang::Transfer { .. } | Sglang::Runtime { .. } => true,
            _ => site.is_some_and(|s| s.hook == "check_server_args"),
        };
        let stage = if in_check { Stage::Check } else { Stage::Resolve };
        RuleInfo {
            code: self.code,
            name: self.name,
            site: site.filter(|_| matches!(self.sglang, Sglang::Raises(_) | Sglang::Reraised { .. })).map(Site::id).unwrap_or(""),
            reraised_by: match &self.sglang {
                Sglang::Reraised { by, .. } => newest.and_then(|r| r.raise_site(by)).map(Site::id),
                _ => None,
            },
            warning_site: site.filter(|_| matches!(self.sglang, Sglang::Warns(_))).map(Site::id),
            file,
            function,
            since: applies.last().copied().unwrap_or(""),
            until: match applies.first() {
                Some(v) if *v != release::DEFAULT_VERSION => Some(v),
                _ => None,
            },
            exception: text.map(|t| t.0).unwrap_or(""),
            severity: self.severity(),
            stage,
            template: text.map(|t| t.1).unwrap_or(""),
            explanation: self.explanation,
            flags: self.flags,
            example_bad: self.example_bad,
            example_good: self.example_good,
        }
    }
}

/// A rule's metadata with SGLang's facts, as the reference and the page show it.
#[derive(Debug, Clone, Serialize)]
pub struct RuleInfo {
    pub code: &'static str,
    pub name: &'static str,
    /// The raise site's id in the newest release that has it (`module.function#n`; "" for
    /// warnings and Python's own exceptions).
    pub site: &'static str,
    /// For a re-raised exception: the id of the site that raises it again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reraised_by: Option<&'static str>,
    /// For a warning: its id in `warn-sites.jsonl`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning_site: Option<&'static str>,
    pub file: String,
    pub function: String,
    /// Oldest and newest carried release the rule applies to (None: still current).
    pub since: &'static str,
    pub until: Option<&'static str>,
    pub exception: &'static str,
    pub severity: Severity,
    pub stage: Stage,
    pub template: &'static str,
    pub explanation: &'static str,
    pub flags: &'static [&'static str],
    pub example_bad: &'static str,
    pub example_good: &'static str,
}

/// Everything a rule can read, and where it reports.
pub struct Ctx<'a> {
    pub cfg: ResolvedConfig<'a>,
    /// The SGLang release being checked: its schema and its sites.
    pub release: &'static Release,
    pub hw: &'a Hardware,
    /// `SGLANG_*` and other environment variables given in the pasted command.
    pub env: &'a [(String, String)],
    /// Where the command's own words set them (`Invocation::env_places`), for fixes.
    pub env_places: &'a [(String, crate::span::Span)],
    /// Files the command names that SGLang reads at start-up (`--config`, `--watermark-config`),
    /// by the path as written, when the check was given them (or the paste writes them).
    pub files: &'a crate::frontend::ConfigFiles,
    /// The original pasted text (fix edits are byte edits on it).
    pub text: &'a str,
    /// Where new flags are appended by fixes: end of the last argument of the invocation.
    pub append_at: usize,
    /// False when text appended there would not become new arguments (the command ends inside
    /// an unterminated quote): fixes that add flags are then advice only.
    pub can_append: bool,
    /// Span used when a diagnostic has no better place (the launcher).
    pub fallback_span: Span,
    /// What is known of the model `--model-path` names (catalog, a given config), if anything.
    pub model: Option<crate::models::ModelFacts<'a>>,
    /// The same for `--speculative-draft-model-path`.
    pub draft_model: Option<crate::models::ModelFacts<'a>>,
    /// SGLang already stopped before resolution (front end, config or argparse error).
    pub earlier_error: bool,
    /// The step of SGLang's start-up running now (resolution, then `check_server_args`).
    pub stage: Stage,
    pub diagnostics: Vec<Diagnostic>,
    /// Checks that were not run, with why (shown as "N checks need the model's config").
    pub not_run: Vec<NotRun>,
    /// SGLang hooks on this command's path that this build does not model yet.
    pub not_modelled: Vec<&'static str>,
    /// The hooks running now run on a branch of the pipeline taken on a value not known here.
    pub on_unknown_branch: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct NotRun {
    /// The site's id in the checked release (`module.function#n`).
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
    /// The check read a value not known here (a template's: `CheckOptions::unknown_variables`).
    UnknownValue,
    /// What SGLang does there depends on a machine this build has no hardware profile for
    /// (`--device hpu|npu|xpu|mps|musa`).
    Hardware,
}

/// The values a hook computed for the placeholders of SGLang's message template, by the
/// placeholder's expression (`("cfg.tp_size", &tp)`).
pub type Args<'x> = [(&'x str, &'x dyn std::fmt::Display)];

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
    pub fn span_of(&self, fields: &[Field]) -> Span {
        fields.iter().filter_map(|&f| self.cfg.setting_place(f)).map(|s| s.whole_span).next().unwrap_or(self.fallback_span)
    }

    /// SGLang raises what `rule` reproduces, its message rendered from this release's template
    /// with `args`. Returns the `Err` that stops the hook. A rule whose site this release does
    /// not have reports nothing and does not stop.
    ///
    /// When the hook read a value not known here, whether SGLang raises is not known: the check
    /// is recorded as not run, and the hook goes on as if it had not raised.
    pub fn raise(&mut self, rule: &'static Rule, args: &Args, fields: &[Field], fixes: Vec<Fix>) -> Step {
        let Some((exception, template)) = rule.sglang_text(self.release) else { return Ok(()) };
        if self.depends_on_unknown() {
            self.not_run_for_unknown(rule);
            return Ok(());
        }
        let message = release::render(template, args);
        // SGLang stops at its first exception: the same error from a later step (two hooks that
        // check the same thing) is the one already reported.
        let exception = if exception.is_empty() { None } else { Some(exception.to_string()) };
        if self.diagnostics.iter().any(|d| d.is_sglang_error() && d.exception == exception && d.message == message) {
            return Err(Raised);
        }
        let span = self.span_of(fields);
        self.diagnostics.push(Diagnostic {
            code: rule.code.to_string(),
            severity: Severity::Error,
            origin: Origin::Sglang,
            stage: self.stage,
            exception,
            message,
            span,
            explanation: rule.explanation.to_string(),
            fixes,
        });
        Err(Raised)
    }

    /// SGLang logs the warning `rule` reproduces (it changes a value and goes on). SGLang stops
    /// at its first exception, so a warning it would log after one is never printed: none is
    /// reported then.
    pub fn warn(&mut self, rule: &'static Rule, args: &Args, fields: &[Field], fixes: Vec<Fix>) {
        if self.earlier_error || self.diagnostics.iter().any(Diagnostic::is_sglang_error) {
            return;
        }
        let Some((_, template)) = rule.sglang_text(self.release) else { return };
        if self.depends_on_unknown() {
            self.not_run_for_unknown(rule);
            return;
        }
        let span = self.span_of(fields);
        self.diagnostics.push(Diagnostic {
            code: rule.code.to_string(),
            severity: Severity::Warning,
            origin: Origin::Sglang,
            stage: self.stage,
            exception: None,
            message: release::render(template, args),
            span,
            explanation: rule.explanation.to_string(),
            fixes,
        });
    }

    /// Run one hook of SGLang's pipeline. A raise stops that hook, not the pipeline: the
    /// later hooks still run, so every error is found at once.
    pub fn run(&mut self, hook: fn(&mut Ctx) -> Step) {
        self.cfg.forget_reads();
        let _ = hook(self);
    }

    /// Run hooks that SGLang runs as one function: the first raise stops the rest.
    pub fn run_in_turn(&mut self, hooks: &[fn(&mut Ctx) -> Step]) {
        for hook in hooks {
            self.cfg.forget_reads();
            if hook(self).is_err() {
                return;
            }
        }
    }

    /// Whether what the running hook would report now depends on a value not known here: it
    /// read one (since it started), or it runs on a branch taken on one.
    fn depends_on_unknown(&self) -> bool {
        self.cfg.read_unknown() || self.on_unknown_branch || self.cfg.read_model_dependent()
    }

    /// `rule`'s check read a value not known here: not run, rather than reported.
    fn not_run_for_unknown(&mut self, rule: &'static Rule) {
        let site = match &rule.sglang {
            Sglang::Python { function, .. } | Sglang::Transfer { function, .. } | Sglang::Runtime { function, .. } => Some(*function),
            _ => rule.site(self.release).map(Site::id),
        };
        // A value SGLang takes from the model's config (and no template's value): that config.
        let model = self.cfg.read_model_dependent() && !self.cfg.read_unknown() && !self.on_unknown_branch;
        let reason = if model { NotRunReason::ModelConfig } else { NotRunReason::UnknownValue };
        if let Some(site) = site {
            self.not_run.push(NotRun { site, reason });
        }
    }

    /// Record that `hook` would run here but is not modelled (counted, not listed, in each
    /// report: the list is `pipeline.rs`; duplicates are removed once, at the end).
    pub fn not_modelled(&mut self, hook: &'static str) {
        self.not_modelled.push(hook);
    }

    /// A check at `needed_by` that reads the model's config and is not modelled with the model's
    /// facts yet: recorded as not run, for want of the model's config when nothing is known of
    /// the model, else as not modelled (the facts are known; the check is not written).
    pub fn model_config(&mut self, needed_by: SiteRef) {
        let reason = if self.model.is_some() { NotRunReason::NotImplemented } else { NotRunReason::ModelConfig };
        self.skip(needed_by, reason);
    }

    /// One fact of the model for the check at `needed_by` (`|m| m.derived.is_mla`): when it is
    /// not known (no model facts, or this fact is not among them), the check is recorded as not
    /// run for want of the model's config and None is returned.
    pub fn model_fact<T>(&mut self, needed_by: SiteRef, fact: impl FnOnce(&crate::models::ModelFacts<'a>) -> Option<T>) -> Option<T> {
        let value = self.model.as_ref().and_then(fact);
        if value.is_none() {
            self.skip(needed_by, NotRunReason::ModelConfig);
        }
        value
    }

    /// A check SGLang would run here that this build cannot decide, and why.
    pub fn skip(&mut self, site: SiteRef, reason: NotRunReason) {
        if let Some(s) = self.release.raise_site(&site) {
            self.not_run.push(NotRun { site: s.id(), reason });
        }
    }

    /// A check SGLang runs that has no raise site in the release data (a lookup on the serving
    /// machine or the network, a library's own validation), named by where SGLang runs it.
    pub fn skip_unlisted(&mut self, check: &'static str, reason: NotRunReason) {
        self.not_run.push(NotRun { site: check, reason });
    }

    /// The flag that writes `field` in this release (for fixes), or `--field-name`.
    pub fn flag(&self, field: Field) -> std::borrow::Cow<'static, str> {
        let schema: &'static crate::schema::Schema = &self.release.schema;
        match schema.flag_of(field) {
            Some(flag) => std::borrow::Cow::Borrowed(flag),
            None => std::borrow::Cow::Owned(format!("--{}", field.name().replace('_', "-"))),
        }
    }

    /// Fix: set `field`'s flag to `value` (replace the value where the flag is given, else append).
    pub fn fix_set(&self, title: impl Into<String>, field: Field, value: &str, applicability: Applicability) -> Fix {
        let title = title.into();
        let flag = self.flag(field);
        match self.cfg.setting_place(field) {
            Some(s) if s.from_config => Fix::advice(title),
            Some(s) => Fix {
                title,
                applicability,
                edits: vec![Edit { start: s.whole_span.start, end: s.whole_span.end, replacement: [&*flag, " ", value].concat() }],
            },
            None if !self.can_append => Fix::advice(title),
            None => Fix {
                title,
                applicability,
                edits: vec![Edit { start: self.append_at, end: self.append_at, replacement: [" ", &*flag, " ", value].concat() }],
            },
        }
    }

    /// Fix: remove where the command sets environment variable `name` (`NAME=value` before it,
    /// or after `env`); advice when it is set elsewhere (an `export` line, `docker -e`, ...).
    pub fn fix_unset_env(&self, title: impl Into<String>, name: &str, applicability: Applicability) -> Fix {
        let title = title.into();
        let places: Vec<Span> = self.env_places.iter().filter(|(n, _)| n == name).map(|(_, s)| *s).collect();
        if places.is_empty() {
            return Fix::advice(title);
        }
        let bytes = self.text.as_bytes();
        let edits = places
            .iter()
            .map(|s| {
                // and the blanks after it, so the command keeps its first word in place
                let mut end = s.end;
                while matches!(bytes.get(end), Some(b' ') | Some(b'\t')) {
                    end += 1;
                }
                Edit { start: s.start, end, replacement: String::new() }
            })
            .collect();
        Fix { title, applicability, edits }
    }

    /// Fix: add `field`'s store_true flag.
    pub fn fix_add_flag(&self, title: impl Into<String>, field: Field, applicability: Applicability) -> Fix {
        if !self.can_append {
            return Fix::advice(title);
        }
        Fix {
            title: title.into(),
            applicability,
            edits: vec![Edit { start: self.append_at, end: self.append_at, replacement: format!(" {}", self.flag(field)) }],
        }
    }

    /// Fix: remove the flag that set `field` (and its value) from the command.
    pub fn fix_remove(&self, title: impl Into<String>, field: Field, applicability: Applicability) -> Fix {
        let title = title.into();
        match self.cfg.setting_place(field) {
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

/// The rule with this code, also under a code it had before (see `lora::REDIRECTS`).
pub fn by_code(code: &str) -> Option<&'static Rule> {
    let code = lora::REDIRECTS.iter().find(|(old, _)| *old == code).map(|(_, new)| *new).unwrap_or(code);
    all_rules().into_iter().find(|r| r.code == code)
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
    v.extend_from_slice(lora::RULES);
    v.extend_from_slice(pd_disaggregation::RULES);
    v.extend_from_slice(shared::ib_devices::RULES);
    v.extend_from_slice(kv_cache::RULES);
    v.extend_from_slice(cuda_graph::RULES);
    v.extend_from_slice(platform::RULES);
    v.extend_from_slice(memory::RULES);
    v.extend_from_slice(mega_moe::RULES);
    v.extend_from_slice(moe::RULES);
    v.extend_from_slice(shared::overrides::RULES);
    v.extend_from_slice(speculative::RULES);
    v.extend_from_slice(attention::RULES);
    v.extend_from_slice(mamba::RULES);
    v.extend_from_slice(shared::mooncake_transfer_engine::RULES);
    v.extend_from_slice(kv_shard::RULES);
    v.extend_from_slice(layernorm_sp::RULES);
    v.extend_from_slice(model::RULES);
    v.extend_from_slice(model::overrides::kimi_k3::RULES);
    v.extend_from_slice(model::overrides::nemotron_h::RULES);
    v.extend_from_slice(model::mamba_hook::RULES);
    v.extend_from_slice(model::deepseek_v4_hook::RULES);
    v.extend_from_slice(model::overrides::deepseek_v2::RULES);
    v.extend_from_slice(shared::overrides::SLOT_RULES);
    v.extend_from_slice(shared::overrides::DSA_RULES);
    v.extend_from_slice(shared::model_override_base::RULES);
    v.extend_from_slice(shared::hisparse_hook::RULES);
    v.extend_from_slice(dllm::RULES);
    v.extend_from_slice(crate::pairs::RULES);
    v.extend_from_slice(runtime::RULES);
    v
}

#[cfg(test)]
mod tests {
    /// Every rule's example commands are written `ex!("...")`, its explanation `expl!("...")` and
    /// its name `kebab!("...")` (src/lib.rs), so the page's wasm goes without them;
    /// `python3 tools/wrap_rule_texts.py` wraps the ones that are not.
    #[test]
    fn rule_texts_are_left_out_of_the_wasm() {
        let mut dirs = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")];
        let mut bare = Vec::new();
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    for field in [concat!("example_bad", ": "), concat!("example_good", ": "), concat!("explanation", ": ")] {
                        for (i, _) in text.match_indices(field) {
                            let rest = text.get(i + field.len()..).unwrap_or(")");
                            if rest.starts_with('"') || rest.starts_with("r\"") || rest.starts_with("r#") {
                                bare.push(format!("{}: {}", path.display(), rest.lines().next().unwrap_or("")));
                            }
                        }
                    }
                    // A rule's name: the line after its code.
                    let mut lines = text.lines().map(str::trim_start).peekable();
                    while let Some(line) = lines.next() {
                        if line.starts_with(concat!("code", ": \"")) && lines.peek().is_some_and(|next| next.starts_with(concat!("name", ": \""))) {
                            bare.push(format!("{}: {}", path.display(), lines.peek().unwrap_or(&"")));
                        }
                    }
                }
            }
        }
        assert!(bare.is_empty(), "example commands not in ex!(..), explanations not in expl!(..), names not in kebab!(..): {bare:#?}");
    }
}
