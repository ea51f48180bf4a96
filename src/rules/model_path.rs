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
use crate::pyvalue::PyValue;
use crate::rules::{raises, warns, Sglang, Step};

/// Where SGLang first loads the model source (through `huggingface_hub`, whose repo-id
/// validation raises the errors below).
const LOAD_POINTER_HEAD: &str = "configs.model_config.load_pointer_head";

pub static REPO_ID_SHAPE: Rule = Rule {
    code: "MP001",
    name: kebab!("model-path-repo-id-shape"),
    sglang: Sglang::Python { function: LOAD_POINTER_HEAD, raised_by: "huggingface_hub.utils._validators.validate_repo_id", exception: "OSError", template: "Repo id must use alphanumeric chars, '-', '_' or '.'. The name cannot start or end with '-' or '.' and the maximum length is 96: '{repo_id}'.", raises_in: None },
    explanation: expl!("The model path is neither a local folder nor a valid Hugging Face repo id (\"name\" or \"org/name\" with letters, digits, '-', '_', '.'). This usually means several arguments were quoted together into one word, a placeholder such as <your-model> or $MODEL was left unexpanded, or the path has a typo."),
    flags: &["--model-path"],
    example_bad: ex!("--model-path 'meta-llama/Llama-3.1-8B-Instruct --tp 2'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp 2"),
};

pub static REPO_ID_DOUBLE: Rule = Rule {
    code: "MP002",
    name: kebab!("model-path-repo-id-double-dash-or-dot"),
    sglang: Sglang::Python { function: LOAD_POINTER_HEAD, raised_by: "huggingface_hub.utils._validators.validate_repo_id", exception: "OSError", template: "Cannot have -- or .. in repo_id: '{repo_id}'.", raises_in: None },
    explanation: expl!("Hugging Face repo ids cannot contain '--' or '..'. A cache folder name such as models--org--name is not a repo id: use org/name, or the full local path to the snapshot folder."),
    flags: &["--model-path"],
    example_bad: ex!("--model-path models--meta-llama--Llama-3.1-8B-Instruct"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static REPO_ID_GIT: Rule = Rule {
    code: "MP003",
    name: kebab!("model-path-repo-id-dot-git"),
    sglang: Sglang::Python { function: LOAD_POINTER_HEAD, raised_by: "huggingface_hub.utils._validators.validate_repo_id", exception: "OSError", template: "Repo_id cannot end by '.git': '{repo_id}'.", raises_in: None },
    explanation: expl!("A git clone URL suffix is not part of a Hugging Face repo id: drop the trailing .git."),
    flags: &["--model-path"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct.git"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static REMOTE_INSTANCE_INCOMPLETE: Rule = Rule {
    code: "MP011",
    name: kebab!("remote-instance-load-needs-seed-address"),
    sglang: warns("model_path_hook.handle_load_format", "Fallback load_format to 'auto' due to incomplete remote instance weight loader settings."),
    explanation: expl!("--load-format remote_instance copies weights from a running seed instance, named by --remote-instance-weight-loader-seed-instance-ip and --remote-instance-weight-loader-seed-instance-service-port. Without both, SGLang loads the weights from the model path instead (load format auto)."),
    flags: &["--load-format", "--remote-instance-weight-loader-seed-instance-ip", "--remote-instance-weight-loader-seed-instance-service-port"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --load-format remote_instance"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --load-format remote_instance --remote-instance-weight-loader-seed-instance-ip 10.0.0.1 --remote-instance-weight-loader-seed-instance-service-port 30000 --remote-instance-weight-loader-send-weights-group-ports '[30001]'"),
};

pub static REMOTE_INSTANCE_NCCL_PORTS: Rule = Rule {
    code: "MP012",
    name: kebab!("remote-instance-nccl-load-needs-group-ports"),
    sglang: warns("model_path_hook.handle_load_format", "Fallback load_format to 'auto' due to incomplete remote instance weight loader NCCL"),
    explanation: expl!("The NCCL remote-instance weight loader (the default --remote-instance-weight-loader-backend) needs --remote-instance-weight-loader-send-weights-group-ports; without them SGLang loads the weights from the model path instead (load format auto)."),
    flags: &["--load-format", "--remote-instance-weight-loader-send-weights-group-ports"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --load-format remote_instance --remote-instance-weight-loader-seed-instance-ip 10.0.0.1 --remote-instance-weight-loader-seed-instance-service-port 30000"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --load-format remote_instance --remote-instance-weight-loader-seed-instance-ip 10.0.0.1 --remote-instance-weight-loader-seed-instance-service-port 30000 --remote-instance-weight-loader-send-weights-group-ports '[30001]'"),
};

pub static WEIGHT_CACHE_SPECULATIVE: Rule = Rule {
    code: "MP013",
    name: kebab!("weight-cache-rejects-speculative-decoding"),
    sglang: raises("model_path_hook.handle_load_format", "--weight-cache-mode is not supported together with speculative"),
    explanation: expl!("The weight cache daemon exports the target model's weights only, not a speculative draft model's, so --weight-cache-mode daemon/client cannot be used with --speculative-algorithm."),
    flags: &["--weight-cache-mode", "--speculative-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --weight-cache-mode client --speculative-algorithm NGRAM"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm NGRAM"),
};

pub static RULES: &[&Rule] = &[&REPO_ID_SHAPE, &REPO_ID_DOUBLE, &REPO_ID_GIT, &REMOTE_INSTANCE_INCOMPLETE, &REMOTE_INSTANCE_NCCL_PORTS, &WEIGHT_CACHE_SPECULATIVE];

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
        // Not a site of SGLang's (the Hub lookup is huggingface_hub's): named by the function
        // SGLang loads the source in. A path may exist where SGLang runs; a placeholder's value
        // (a shell variable the paste does not set, `<model>`) is not known here.
        let reason = if is_placeholder(&path) { NotRunReason::UnknownValue } else { NotRunReason::Files };
        ctx.skip_unlisted(LOAD_POINTER_HEAD, reason);
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
    // A Hugging Face cache folder's name (`models--org--name`): the repo id it caches.
    if rule.code == "MP002" {
        let repo = path.strip_prefix("models--").and_then(|rest| rest.split_once("--")).map(|(org, name)| format!("{org}/{name}"));
        if let Some(repo) = repo.filter(|r| repo_id_regex_matches(r) && !r.contains("--") && !r.contains("..")) {
            fixes.push(ctx.fix_set(format!("Use the repo id {repo}"), f::model_path, &repo, Applicability::Unsafe));
        }
    }
    if rule.code == "MP003" {
        let trimmed = path.trim_end_matches(".git").to_string();
        fixes.push(ctx.fix_set("Drop the trailing .git", f::model_path, &trimmed, Applicability::Safe));
    }
    ctx.raise(rule, &[("repo_id", &path)], &[f::model_path], fixes)
}

/// `runai_utils.is_runai_obj_uri`: an object-store URI (`s3://`, `gs://`, `az://`, any case).
fn is_runai_obj_uri(path: &str) -> bool {
    let lower = path.to_lowercase();
    ["s3://", "gs://", "az://"].iter().any(|s| lower.starts_with(s))
}

/// `utils.common.is_remote_url`: `re.match(r"(.+)://(.*)", url)` (`.` stops at a newline).
fn is_remote_url(path: &str) -> bool {
    let line = path.split('\n').next().unwrap_or("");
    line.find("://").is_some_and(|i| i > 0)
}

/// `model_path_hook.handle_load_format`.
pub fn handle_load_format(ctx: &mut Ctx) -> Step {
    let path = ctx.cfg.str(f::model_path).unwrap_or("").to_string();
    let load_format = ctx.cfg.str(f::load_format).unwrap_or("auto").to_string();
    // _gguf_quantization and check_gguf_file: a GGUF file on the serving machine.
    if matches!(load_format.as_str(), "auto" | "gguf") && path.to_ascii_lowercase().ends_with(".gguf") {
        ctx.skip_unlisted("model_path_hook.handle_load_format:gguf_file", NotRunReason::Files);
    }
    // is_mistral_native_format: the checkpoint's file list (Hub or local folder); only Mistral
    // checkpoints ship the consolidated weights it looks for.
    let lower = path.to_lowercase();
    if load_format == "auto" && ["mistral", "stral", "pixtral"].iter().any(|n| lower.contains(n)) {
        ctx.skip_unlisted("model_path_hook.is_mistral_native_format", NotRunReason::Network);
    }
    if is_runai_obj_uri(&path) {
        ctx.cfg.set(f::load_format, PyValue::Str("runai_streamer".into()));
    } else if is_remote_url(&path) {
        ctx.cfg.set(f::load_format, PyValue::Str("remote".into()));
    }
    if ctx.cfg.str(f::speculative_draft_model_path).is_some_and(is_runai_obj_uri) && ctx.cfg.is_none(f::speculative_draft_load_format) {
        ctx.cfg.set(f::speculative_draft_load_format, PyValue::Str("runai_streamer".into()));
    }
    if ctx.cfg.is_none(f::custom_weight_loader) {
        ctx.cfg.set(f::custom_weight_loader, PyValue::List(Vec::new()));
    }
    if ctx.cfg.is(f::load_format, "remote_instance") {
        let backend = ctx.cfg.str(f::remote_instance_weight_loader_backend).unwrap_or("").to_string();
        let seed_missing = ctx.cfg.is_none(f::remote_instance_weight_loader_seed_instance_ip)
            || ctx.cfg.is_none(f::remote_instance_weight_loader_seed_instance_service_port);
        if backend != "modelexpress" && seed_missing {
            ctx.cfg.set(f::load_format, PyValue::Str("auto".into()));
            ctx.warn(&REMOTE_INSTANCE_INCOMPLETE, &[], &[f::load_format], Vec::new());
        } else if ctx.cfg.is_none(f::remote_instance_weight_loader_send_weights_group_ports) && backend == "nccl" {
            ctx.cfg.set(f::load_format, PyValue::Str("auto".into()));
            ctx.warn(&REMOTE_INSTANCE_NCCL_PORTS, &[], &[f::load_format], Vec::new());
        } else if backend == "transfer_engine" {
            // validate_transfer_engine: whether mooncake.engine imports on the serving machine.
            ctx.skip_unlisted("model_path_hook.validate_transfer_engine", NotRunReason::Files);
        }
    }
    if ctx.cfg.truthy(f::remote_instance_weight_loader_start_seed_via_transfer_engine) {
        ctx.skip_unlisted("model_path_hook.validate_transfer_engine", NotRunReason::Files);
    }
    // #1 (load_format 'ipc_cache') cannot be reached: not a --load-format choice.
    if !ctx.cfg.is(f::weight_cache_mode, "off") && !ctx.cfg.is_none(f::speculative_algorithm) {
        let fixes = vec![
            ctx.fix_remove("Remove --weight-cache-mode", f::weight_cache_mode, Applicability::Unsafe),
            ctx.fix_remove("Remove --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe),
        ];
        ctx.raise(&WEIGHT_CACHE_SPECULATIVE, &[], &[f::weight_cache_mode, f::speculative_algorithm], fixes)?;
    }
    Ok(())
}
