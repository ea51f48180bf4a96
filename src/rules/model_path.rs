//! The model source: what SGLang's `model_path_hook.py` and the first config load
//! (`configs/model_config.py::load_pointer_head`, through `huggingface_hub`) reject before any
//! model-specific check. A model path that is not a local folder is taken as a Hugging Face
//! repo id, and `huggingface_hub.utils.validate_repo_id` raises (as `OSError`) on malformed ids —
//! typically a quoted string holding several arguments, or a placeholder left in.
//!
//! What we cannot know here is whether a path exists on the machine that will run SGLang, so
//! anything that looks like a filesystem path is left alone, and a well-formed repo id is assumed
//! to exist (the model's config is not read: see `not_run`).

use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::{Applicability, Fix};
use crate::fields::f;
use crate::rules::{Sglang, Step};

pub static REPO_ID_SHAPE: Rule = Rule {
    code: "MP001",
    name: "model-path-repo-id-shape",
    sglang: Sglang::Python { function: "configs.model_config.load_pointer_head", raised_by: "huggingface_hub.utils._validators.validate_repo_id", exception: "OSError", template: "Repo id must use alphanumeric chars, '-', '_' or '.'. The name cannot start or end with '-' or '.' and the maximum length is 96: '{repo_id}'." },
    explanation: "The model path is neither a local folder nor a valid Hugging Face repo id (\"name\" or \"org/name\" with letters, digits, '-', '_', '.'). This usually means several arguments were quoted together into one word, a placeholder such as <your-model> or $MODEL was left unexpanded, or the path has a typo.",
    flags: &["--model-path"],
    example_bad: "--model-path 'meta-llama/Llama-3.1-8B-Instruct --tp 2'",
    example_good: "--model-path meta-llama/Llama-3.1-8B-Instruct --tp 2",
};

pub static REPO_ID_DOUBLE: Rule = Rule {
    code: "MP002",
    name: "model-path-repo-id-double-dash-or-dot",
    sglang: Sglang::Python { function: "configs.model_config.load_pointer_head", raised_by: "huggingface_hub.utils._validators.validate_repo_id", exception: "OSError", template: "Cannot have -- or .. in repo_id: '{repo_id}'." },
    explanation: "Hugging Face repo ids cannot contain '--' or '..'. A cache folder name such as models--org--name is not a repo id: use org/name, or the full local path to the snapshot folder.",
    flags: &["--model-path"],
    example_bad: "--model-path models--meta-llama--Llama-3.1-8B-Instruct",
    example_good: "--model-path meta-llama/Llama-3.1-8B-Instruct",
};

pub static REPO_ID_GIT: Rule = Rule {
    code: "MP003",
    name: "model-path-repo-id-dot-git",
    sglang: Sglang::Python { function: "configs.model_config.load_pointer_head", raised_by: "huggingface_hub.utils._validators.validate_repo_id", exception: "OSError", template: "Repo_id cannot end by '.git': '{repo_id}'." },
    explanation: "A git clone URL suffix is not part of a Hugging Face repo id: drop the trailing .git.",
    flags: &["--model-path"],
    example_bad: "--model-path meta-llama/Llama-3.1-8B-Instruct.git",
    example_good: "--model-path meta-llama/Llama-3.1-8B-Instruct",
};

pub static RULES: &[&Rule] = &[&REPO_ID_SHAPE, &REPO_ID_DOUBLE, &REPO_ID_GIT];

/// `huggingface_hub`'s REPO_ID_REGEX, ASCII: `(\b[\w\-.]{1,96}\b/)?\b[\w\-.]{1,96}\b`.
fn repo_id_regex_matches(id: &str) -> bool {
    let part_ok = |p: &str| {
        let b = p.as_bytes();
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        !b.is_empty()
            && b.len() <= 96
            && b.iter().all(|&c| word(c) || c == b'-' || c == b'.')
            // \b at both ends: the first and last characters must be word characters.
            && b.first().is_some_and(|&c| word(c))
            && b.last().is_some_and(|&c| word(c))
    };
    match id.split_once('/') {
        Some((ns, name)) => part_ok(ns) && part_ok(name),
        None => part_ok(id),
    }
}

/// Looks like a filesystem path, which may well exist where SGLang will run.
fn looks_like_local_path(p: &str) -> bool {
    p.starts_with('/') || p.starts_with("./") || p.starts_with("../") || p.starts_with('~') || p.matches('/').count() > 1
        || p.contains('\\')
}

/// Placeholders the shell reader already warned about: the real value is unknown.
fn is_placeholder(p: &str) -> bool {
    // ':' takes another path in SGLang (a revision or adapter lookup against the Hub).
    p.contains(':') || p.contains('$') || p.contains('<') || p.contains('>') || p.contains('`') || p.contains('{')
}

/// Where SGLang first loads the model source (`apply_muse_spark_env_defaults` →
/// `load_pointer_head`, right after `handle_model_source_paths`).
pub fn handle_model_source_paths(ctx: &mut Ctx) -> Step {
    let Some(path) = ctx.cfg.str(f::model_path).map(str::to_string) else { return Ok(()) };
    if path.eq_ignore_ascii_case("none") || path.eq_ignore_ascii_case("dummy") {
        return Ok(());
    }
    if looks_like_local_path(&path) || is_placeholder(&path) {
        // Not a site of SGLang's (the Hub lookup is huggingface_hub's): recorded under our own id.
        ctx.skip_unlisted("model_source_paths:local_path", NotRunReason::Files);
        return Ok(());
    }
    let rule: &'static Rule = if !repo_id_regex_matches(&path) {
        &REPO_ID_SHAPE
    } else if path.contains("--") || path.contains("..") {
        &REPO_ID_DOUBLE
    } else if path.ends_with(".git") {
        &REPO_ID_GIT
    } else {
        return Ok(());
    };
    let mut fixes: Vec<Fix> = Vec::new();
    // Several arguments quoted into one word: split them back into words.
    // Only when the first word would then be a valid repo id (else the fix would not help).
    let first_word_ok = path.split_whitespace().next().is_some_and(|w| repo_id_regex_matches(w) && !w.contains("--") && !w.contains(".."));
    if path.contains(' ') && rule.code == "MP001" && first_word_ok && !path.contains(['"', '\'', '\\', '$', '`']) {
        if let Some(s) = ctx.cfg.setting(f::model_path).filter(|s| !s.from_config) {
            // Rewrite the flag and its value together: with `--model-path="..."` the quotes are
            // inside the flag word, so replacing the value alone would keep them.
            fixes.push(Fix {
                title: "Unquote the value so the shell splits it into separate arguments".into(),
                applicability: Applicability::Unsafe,
                edits: vec![crate::diagnostic::Edit {
                    start: s.whole_span.start,
                    end: s.whole_span.end,
                    replacement: format!("{} {path}", s.written_as),
                }],
            });
        }
    }
    if rule.code == "MP003" {
        let trimmed = path.trim_end_matches(".git").to_string();
        fixes.push(ctx.fix_set("Drop the trailing .git", f::model_path, &trimmed, Applicability::Safe));
    }
    ctx.raise(rule, &[("repo_id", &path)], &[f::model_path], fixes)
}
