//! Rules from SGLang's `sglang/srt/arg_groups/serving_hook.py` (and the helpers it calls:
//! `utils.common.configure_media_url_security`, `sampling.watermarking.config.load_watermark_config`).
//!
//! Hooks are ported in SGLang's order with the same value changes (`declare_resolution`), so the
//! families that run later read what SGLang's later hooks read.

use super::shared::cuda_graph_config as cuda_graph;
use super::shared::envs::env_int;
use super::shared::json_fix;
use super::{site, Args, Ctx, NotRunReason, Rule, Step};
use crate::diagnostic::{Applicability, Edit, Fix};
use crate::fields::{f, Field};
use crate::pyvalue::{str_repr, PyValue};

mod rules;
pub use rules::*;


// ---------------------------------------------------------------------------------------------
// Helpers.

/// Python's `type(x)` as an f-string prints it.
fn py_type(v: &PyValue) -> &'static str {
    match v {
        PyValue::None => "<class 'NoneType'>",
        PyValue::Bool(_) => "<class 'bool'>",
        PyValue::Int(_) | PyValue::BigInt(_) => "<class 'int'>",
        PyValue::Float(_) => "<class 'float'>",
        PyValue::Str(_) => "<class 'str'>",
        PyValue::List(_) => "<class 'list'>",
        PyValue::Dict(_) => "<class 'dict'>",
    }
}

fn dict_get<'v>(v: &'v PyValue, key: &str) -> Option<&'v PyValue> {
    match v {
        PyValue::Dict(items) => items.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

/// `EnvFloat(default).get()`.
fn env_float(ctx: &Ctx, name: &str) -> Option<f64> {
    ctx.env(name).and_then(|v| {
        let t = v.trim().to_ascii_lowercase();
        match t.as_str() {
            "inf" | "+inf" | "infinity" | "+infinity" => Some(f64::INFINITY),
            "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
            "nan" | "+nan" | "-nan" => Some(f64::NAN),
            _ => t.replace('_', "").parse::<f64>().ok(),
        }
    })
}

/// `EnvBool(default).get()`: true/1/yes/y, false/0/no/n (case-insensitive); anything else
/// falls back to the default.
fn env_bool(ctx: &Ctx, name: &str, default: bool) -> bool {
    ctx.env(name).and_then(crate::rules::shared::envs::parse_env_bool).unwrap_or(default)
}

/// A word as a POSIX shell would need it written.
fn shell_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_.:/,=+@%".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A fix that rewrites a list-valued flag with new values (or drops it when none are left).
fn fix_rewrite_list(ctx: &Ctx, title: &str, field: Field, values: &[String], app: Applicability) -> Fix {
    if values.is_empty() {
        return ctx.fix_remove(title, field, app);
    }
    match ctx.cfg.setting(field) {
        Some(s) if !s.from_config => Fix {
            title: title.to_string(),
            applicability: app,
            edits: vec![Edit {
                start: s.whole_span.start,
                end: s.whole_span.end,
                replacement: format!("{} {}", ctx.flag(field), values.iter().map(|v| shell_word(v)).collect::<Vec<_>>().join(" ")),
            }],
        },
        _ => Fix::advice(title),
    }
}

fn display(title: impl Into<String>) -> Fix {
    Fix::advice(title)
}

/// Remove-the-flag fix, only when the flag is on the command line.
fn remove_if_set(ctx: &Ctx, title: &str, field: Field, app: Applicability) -> Option<Fix> {
    ctx.cfg.is_explicit(field).then(|| ctx.fix_remove(title, field, app))
}

// ---------------------------------------------------------------------------------------------
// handle_return_hidden_states_mode

/// `handle_return_hidden_states_mode`. Its raise (a mode other than None/'last'/'full') is
/// unreachable: argparse's choices reject other values first.
pub fn handle_return_hidden_states_mode(ctx: &mut Ctx) -> Step {
    let mode = ctx.cfg.get(f::return_hidden_states_mode).clone();
    match mode.as_str() {
        None if mode.is_none()
            && (ctx.cfg.truthy(f::enable_return_hidden_states) || ctx.cfg.truthy(f::enable_return_aux_hidden_states)) =>
        {
            ctx.cfg.set(f::return_hidden_states_mode, PyValue::Str("full".into()));
        }
        Some("last" | "full") => ctx.cfg.set(f::enable_return_hidden_states, PyValue::Bool(true)),
        _ => {}
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_media_url_security

enum DomainError {
    Empty,
    HostnameOnly(String),
    Port(String),
    Invalid(String),
}

/// Python's `str(IPv6Address)` (3.11): lowercase hextets without leading zeros, the leftmost
/// longest run (of two or more) of zero hextets as `::`; IPv4-mapped addresses stay in hex.
fn python_ipv6(a: std::net::Ipv6Addr) -> String {
    let hextets: Vec<String> = a.segments().iter().map(|s| format!("{s:x}")).collect();
    let (mut best_start, mut best_len, mut start, mut len) = (usize::MAX, 0usize, usize::MAX, 0usize);
    for (i, h) in hextets.iter().enumerate() {
        if h == "0" {
            len += 1;
            if start == usize::MAX {
                start = i;
            }
            if len > best_len {
                best_len = len;
                best_start = start;
            }
        } else {
            len = 0;
            start = usize::MAX;
        }
    }
    if best_len > 1 {
        let end = best_start + best_len;
        let mut parts: Vec<String> = hextets.get(..best_start).unwrap_or_default().to_vec();
        parts.push(String::new());
        parts.extend(hextets.get(end..).unwrap_or_default().iter().cloned());
        if end == hextets.len() {
            parts.push(String::new());
        }
        if best_start == 0 {
            parts.insert(0, String::new());
        }
        parts.join(":")
    } else {
        hextets.join(":")
    }
}

/// `_normalize_media_domain`. Ok(None) when the answer needs what this build does not model
/// (non-ASCII IDNA names, IPv6 scope ids).
fn normalize_media_domain(domain: &str) -> Result<Option<String>, DomainError> {
    let domain = domain.trim().trim_end_matches('.');
    if domain.is_empty() {
        return Err(DomainError::Empty);
    }
    if domain.contains("://") || domain.chars().any(|c| "/?#@".contains(c)) {
        return Err(DomainError::HostnameOnly(domain.to_string()));
    }
    let bare = if domain.starts_with('[') && domain.ends_with(']') && domain.len() >= 2 {
        domain.get(1..domain.len() - 1).unwrap_or_default()
    } else {
        domain
    };
    if let Ok(v4) = bare.parse::<std::net::Ipv4Addr>() {
        return Ok(Some(v4.to_string()));
    }
    if let Ok(v6) = bare.parse::<std::net::Ipv6Addr>() {
        return Ok(Some(python_ipv6(v6)));
    }
    if bare.contains(':') {
        if bare.contains('%') {
            // Python accepts IPv6 scope ids ("fe80::1%eth0"); not modelled.
            return Ok(None);
        }
        return Err(DomainError::Port(bare.to_string()));
    }
    if !bare.is_ascii() {
        return Ok(None);
    }
    // encodings.idna, ASCII fast path: every label but the last must be 1..63 bytes, the last < 64.
    let labels: Vec<&str> = bare.split('.').collect();
    let (last, init) = match labels.split_last() {
        Some(x) => x,
        None => return Err(DomainError::Empty),
    };
    if init.iter().any(|l| l.is_empty() || l.len() >= 64) || last.len() >= 64 {
        return Err(DomainError::Invalid(bare.to_string()));
    }
    Ok(Some(bare.to_ascii_lowercase()))
}

/// `handle_media_url_security` → `configure_media_url_security`.
pub fn handle_media_url_security(ctx: &mut Ctx) -> Step {
    let max_mb = ctx.cfg.get(f::media_url_max_file_size_mb).clone();
    if max_mb.as_float().is_some_and(|v| v < 0.0) {
        let fixes = vec![ctx.fix_set(
            "Use the default limit of 64 MB",
            f::media_url_max_file_size_mb,
            "64",
            Applicability::Unsafe,
        )];
        ctx.raise(&SRV001, &[], &[f::media_url_max_file_size_mb], fixes)?;
    }
    let domains: Vec<PyValue> = match ctx.cfg.get(f::allowed_media_domains) {
        PyValue::List(l) => l.clone(),
        PyValue::None => Vec::new(),
        other => vec![other.clone()],
    };
    let mut normalized: Vec<String> = Vec::new();
    let mut unknown = false;
    for d in &domains {
        let Some(text) = d.as_str() else {
            // "allowed media domains must be strings": unreachable from the command line.
            return Ok(());
        };
        match normalize_media_domain(text) {
            Ok(Some(n)) => normalized.push(n),
            Ok(None) => unknown = true,
            Err(e) => {
                // The fix: the same list with this entry repaired (or dropped).
                let fixed: Vec<String> = domains
                    .iter()
                    .filter_map(|x| x.as_str())
                    .filter_map(|x| {
                        if x != text {
                            return Some(x.to_string());
                        }
                        repair_domain(x)
                    })
                    .collect();
                // `{domain!r}` in the templates of SRV003-SRV005.
                let (rule, domain, title) = match e {
                    DomainError::Empty => (&SRV002, None, "Drop the empty domain"),
                    DomainError::HostnameOnly(dom) => (&SRV003, Some(str_repr(&dom)), "Keep only the host name"),
                    DomainError::Port(dom) => (&SRV004, Some(str_repr(&dom)), "Drop the port"),
                    DomainError::Invalid(dom) => (&SRV005, Some(str_repr(&dom)), "Drop the invalid domain"),
                };
                let app = if fixed.is_empty() { Applicability::Unsafe } else { Applicability::Safe };
                let title = if fixed.is_empty() {
                    "Drop --allowed-media-domains (media URLs from any domain are allowed)"
                } else {
                    title
                };
                let fixes = vec![fix_rewrite_list(ctx, title, f::allowed_media_domains, &fixed, app)];
                let args: Vec<(&str, &dyn std::fmt::Display)> = match &domain {
                    Some(d) => vec![("domain", d)],
                    None => Vec::new(),
                };
                ctx.raise(rule, &args, &[f::allowed_media_domains], fixes)?;
            }
        }
    }
    if unknown {
        ctx.skip(site("utils.common._normalize_media_domain", "Invalid allowed media domain {domain!r}"), NotRunReason::NotImplemented);
        return Ok(());
    }
    crate::sorting::sort(&mut normalized);
    normalized.dedup();
    ctx.cfg.set(f::allowed_media_domains, PyValue::List(normalized.into_iter().map(PyValue::Str).collect()));
    Ok(())
}

/// What the user most likely meant by a domain SGLang rejects: the host name of a URL, without
/// user info, path or port. None when nothing usable is left.
fn repair_domain(d: &str) -> Option<String> {
    let mut s = d.trim().to_string();
    if let Some((_, rest)) = s.split_once("://") {
        s = rest.to_string();
    }
    if let Some(i) = s.find(['/', '?', '#']) {
        s.truncate(i);
    }
    if let Some((_, host)) = s.rsplit_once('@') {
        s = host.to_string();
    }
    if s.starts_with('[') {
        if let Some(i) = s.find(']') {
            s.truncate(i + 1);
        }
    } else if s.matches(':').count() == 1 {
        if let Some((h, _)) = s.split_once(':') {
            s = h.to_string();
        }
    }
    let s = s.trim_end_matches('.').to_string();
    match normalize_media_domain(&s) {
        Ok(_) if !s.is_empty() => Some(s),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// handle_watermark_config

const WATERMARK_FIELDS: [&str; 7] =
    ["key", "key_b", "context_window", "mixing_probability", "max_probability", "default_enabled", "enforce_all"];

/// `parse_watermark_key`: the error text, if any.
fn watermark_key_error(v: &PyValue) -> Option<&'static str> {
    let Some(s) = v.as_str() else { return Some("watermark key must be a hex string") };
    let digits = if s.to_lowercase().starts_with("0x") { s.chars().skip(2).collect::<String>() } else { s.to_string() };
    let n = digits.chars().count();
    if !(1..=16).contains(&n) {
        return Some("watermark key must contain 1 to 16 hex digits");
    }
    if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Some("watermark key must contain only hex digits");
    }
    None
}

/// `handle_watermark_config` → `load_watermark_config` for inline JSON; a file path is read
/// from disk by SGLang and not checked here.
pub fn handle_watermark_config(ctx: &mut Ctx) -> Step {
    let Some(value) = ctx.cfg.str(f::watermark_config).map(str::to_string) else { return Ok(()) };
    // `load_watermark_config`: inline JSON, else the file at that path (read up to 4097
    // characters), when the check was given it.
    let source = if value.trim_start().starts_with('{') {
        value
    } else if let Some(text) = ctx.files.get(&value) {
        text.chars().take(4097).collect()
    } else {
        ctx.skip(site("sampling.watermarking.config._read_config_file", "watermark config must be a readable regular"), NotRunReason::Files);
        ctx.skip(site("sampling.watermarking.config._read_config_file", "failed to read watermark config JSON"), NotRunReason::Files);
        return Ok(());
    };
    // `drop`: the keys an edit of an inline config leaves out; none: the config itself
    fn fail(ctx: &mut Ctx, rule: &'static Rule, args: &Args, drop: &[&str]) -> Step {
        let mut fixes = vec![if drop.is_empty() {
            ctx.fix_remove("Remove --watermark-config (SGLang's default watermark settings)", f::watermark_config, Applicability::Unsafe)
        } else {
            json_fix::watermark_config_without(ctx, drop)
        }];
        fixes.push(display("Fix the JSON given to --watermark-config (keys: key, key_b, context_window, mixing_probability, max_probability, default_enabled, enforce_all)"));
        ctx.raise(rule, args, &[f::watermark_config], fixes)
    }
    if source.len() > 4096 {
        return fail(ctx, &SRV006, &[], &[]);
    }
    let raw = match serde_json::from_str::<serde_json::Value>(&source) {
        Ok(v) => PyValue::from_json(&v),
        Err(_) => {
            // Python's json also accepts NaN/Infinity literals, which serde_json does not.
            if ["NaN", "Infinity"].iter().any(|w| source.contains(w)) {
                ctx.skip(site("sampling.watermarking.config.load_watermark_config", "failed to read watermark config JSON"), NotRunReason::NotImplemented);
                return Ok(());
            }
            return fail(ctx, &SRV007, &[], &[]);
        }
    };
    let PyValue::Dict(items) = &raw else {
        return fail(ctx, &SRV008, &[], &[]);
    };
    let unknown: Vec<&str> = items.iter().map(|(k, _)| k.as_str()).filter(|k| !WATERMARK_FIELDS.contains(k)).collect();
    if !unknown.is_empty() {
        let unknown: Vec<String> = unknown.into_iter().map(str::to_string).collect();
        let unknown: Vec<&str> = unknown.iter().map(String::as_str).collect();
        return fail(ctx, &SRV009, &[], &unknown);
    }
    for name in ["key", "key_b"] {
        if let Some(v) = dict_get(&raw, name).filter(|v| !v.is_none()) {
            if let Some(e) = watermark_key_error(v) {
                return fail(ctx, &SRV010, &[("str(error)", &e)], &[name]);
            }
        }
    }
    if let Some(cw) = dict_get(&raw, "context_window").filter(|v| !v.is_none()) {
        let ok = matches!(cw, PyValue::Int(i) if (1..=64).contains(i));
        if !ok {
            return fail(ctx, &SRV011, &[], &["context_window"]);
        }
    }
    for name in ["mixing_probability", "max_probability"] {
        if let Some(v) = dict_get(&raw, name).filter(|v| !v.is_none()) {
            if !matches!(v, PyValue::Int(_) | PyValue::BigInt(_) | PyValue::Float(_)) {
                return fail(ctx, &SRV012, &[("name", &name)], &[name]);
            }
        }
    }
    for name in ["default_enabled", "enforce_all"] {
        if let Some(v) = dict_get(&raw, name).filter(|v| !v.is_none()) {
            if !matches!(v, PyValue::Bool(_)) {
                return fail(ctx, &SRV013, &[("name", &name)], &[name]);
            }
        }
    }
    for name in WATERMARK_FIELDS {
        if let Some(v) = dict_get(&raw, name).filter(|v| !v.is_none()) {
            // `watermark_context_window` is not a known field (data/server-args-extra-fields.txt):
            // that value is not kept.
            if let Some(field) = Field::from_name(&format!("watermark_{name}")) {
                ctx.cfg.set(field, v.clone());
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_multimodal

/// `handle_multimodal`: validate --mm-process-config before model loading.
pub fn handle_multimodal(ctx: &mut Ctx) -> Step {
    if ctx.cfg.float(f::mm_preprocess_cache_size_mb).is_some_and(|v| v < 0.0) {
        let fixes = vec![ctx.fix_set(
            "Use 0 (no preprocessing cache)",
            f::mm_preprocess_cache_size_mb,
            "0",
            Applicability::Unsafe,
        )];
        ctx.raise(&SRV014, &[], &[f::mm_preprocess_cache_size_mb], fixes)?;
    }
    let cfg = ctx.cfg.get(f::mm_process_config).clone();
    if cfg.is_none() {
        return Ok(());
    }
    if !matches!(cfg, PyValue::Dict(_)) {
        let fixes = vec![
            ctx.fix_remove("Drop --mm-process-config", f::mm_process_config, Applicability::Unsafe),
            display("Give --mm-process-config a JSON object, e.g. '{\"image\": {...}}'"),
        ];
        ctx.raise(&SRV015, &[("type(cfg.mm_process_config)", &py_type(&cfg))], &[f::mm_process_config], fixes)?;
    }
    for key in ["image", "video", "audio"] {
        if let Some(v) = dict_get(&cfg, key) {
            if !matches!(v, PyValue::Dict(_)) {
                let fixes = vec![
                    json_fix::without_keys(ctx, &cfg, &[key], f::mm_process_config, &format!("Drop the \"{key}\" entry of --mm-process-config")),
                    display(format!("Make the \"{key}\" entry of --mm-process-config a JSON object")),
                ];
                ctx.raise(
                    &SRV016,
                    &[("key", &key), ("type(cfg.mm_process_config[key])", &py_type(v))],
                    &[f::mm_process_config],
                    fixes,
                )?;
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_ssl_validation

/// `handle_ssl_validation`: SSL flags consistent, files present (not checked here), HTTP/2 limits.
pub fn handle_ssl_validation(ctx: &mut Ctx) -> Step {
    let key = ctx.cfg.truthy(f::ssl_keyfile);
    let cert = ctx.cfg.truthy(f::ssl_certfile);
    if key && !cert {
        let fixes = vec![
            ctx.fix_remove("Drop --ssl-keyfile (serve plain HTTP)", f::ssl_keyfile, Applicability::Unsafe),
            display("Add --ssl-certfile with the certificate that goes with the key"),
        ];
        ctx.raise(&SRV017, &[], &[f::ssl_keyfile], fixes)?;
    }
    if cert && !key {
        let fixes = vec![
            ctx.fix_remove("Drop --ssl-certfile (serve plain HTTP)", f::ssl_certfile, Applicability::Unsafe),
            display("Add --ssl-keyfile with the private key of the certificate"),
        ];
        ctx.raise(&SRV018, &[], &[f::ssl_certfile], fixes)?;
    }
    if !cert && !key {
        if ctx.cfg.truthy(f::ssl_ca_certs) {
            let fixes = vec![ctx.fix_remove("Drop --ssl-ca-certs (it has no effect without SSL)", f::ssl_ca_certs, Applicability::Safe)];
            ctx.raise(&SRV019, &[], &[f::ssl_ca_certs], fixes)?;
        }
        if ctx.cfg.truthy(f::ssl_keyfile_password) {
            let fixes = vec![ctx.fix_remove(
                "Drop --ssl-keyfile-password (it has no effect without SSL)",
                f::ssl_keyfile_password,
                Applicability::Safe,
            )];
            ctx.raise(&SRV020, &[], &[f::ssl_keyfile_password], fixes)?;
        }
    }
    // os.path.isfile checks on the key, certificate and CA files: SGLang reads the file system.
    if key {
        ctx.skip(site("serving_hook.handle_ssl_validation", "SSL key file not found: '{cfg.ssl_keyfile}'."), NotRunReason::Files);
    }
    if cert {
        ctx.skip(site("serving_hook.handle_ssl_validation", "SSL certificate file not found: '{cfg.ssl_certfile}'."), NotRunReason::Files);
    }
    if ctx.cfg.truthy(f::ssl_ca_certs) {
        ctx.skip(site("serving_hook.handle_ssl_validation", "SSL CA certificates file not found: '{cfg.ssl_ca_certs}'."), NotRunReason::Files);
    }
    if ctx.cfg.truthy(f::enable_ssl_refresh) && !(cert && key) {
        let fixes = vec![ctx.fix_remove(
            "Drop --enable-ssl-refresh (there is no certificate to refresh)",
            f::enable_ssl_refresh,
            Applicability::Safe,
        )];
        ctx.raise(&SRV021, &[], &[f::enable_ssl_refresh], fixes)?;
    }
    let http2 = ctx.cfg.truthy(f::enable_http2);
    if ctx.cfg.truthy(f::enable_http_worker_reuseport) && (ctx.cfg.int(f::tokenizer_worker_num) == Some(1) || http2) {
        let mut fixes = vec![ctx.fix_remove(
            "Drop --enable-http-worker-reuseport",
            f::enable_http_worker_reuseport,
            Applicability::Unsafe,
        )];
        if !http2 {
            fixes.push(ctx.fix_set(
                "Run 2 tokenizer workers",
                f::tokenizer_worker_num,
                "2",
                Applicability::Unsafe,
            ));
        }
        ctx.raise(&SRV022, &[], &[f::enable_http_worker_reuseport, f::tokenizer_worker_num], fixes)?;
    }
    if http2 {
        let streams = ctx.cfg.get(f::http2_max_concurrent_streams).as_float();
        if !streams.is_some_and(|s| 0.0 < s && s < 4294967296.0) {
            let fixes = vec![ctx.fix_set(
                "Use the default of 200 streams",
                f::http2_max_concurrent_streams,
                "200",
                Applicability::Unsafe,
            )];
            ctx.raise(&SRV023, &[], &[f::http2_max_concurrent_streams], fixes)?;
        }
        // a check 0.5.18 does not have (nor the flag)
        let window = ctx.cfg.get(f::http2_initial_connection_window_size).as_float();
        if SRV024.applies_to(ctx.release) && !window.is_some_and(|w| (1024.0..2147483648.0).contains(&w)) {
            let fixes = vec![ctx.fix_set(
                "Use the default window of 1048576 bytes",
                f::http2_initial_connection_window_size,
                "1048576",
                Applicability::Unsafe,
            )];
            ctx.raise(&SRV024, &[], &[f::http2_initial_connection_window_size], fixes)?;
        }
        // `import granian`: granian is the optional `sglang[http2]` extra, absent from a
        // standard `pip install sglang`. So #13 (--enable-ssl-refresh with HTTP/2) is never reached.
        let fixes = vec![
            ctx.fix_remove("Drop --enable-http2 (serve HTTP/1.1 with Uvicorn)", f::enable_http2, Applicability::Unsafe),
            display("Install the extra: pip install \"sglang[http2]\""),
        ];
        let _ = ctx.raise(&SRV025, &[], &[f::enable_http2], fixes);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_asr_validation

pub fn handle_asr_validation(ctx: &mut Ctx) -> Step {
    let buf = ctx.cfg.get(f::asr_max_buffer_seconds).clone();
    if buf.as_float().is_some_and(|v| v <= 0.0) {
        let fixes = vec![ctx.fix_set(
            "Use the default of 60 seconds",
            f::asr_max_buffer_seconds,
            "60",
            Applicability::Unsafe,
        )];
        ctx.raise(
            &SRV026,
            &[("cfg.asr_max_buffer_seconds", &buf.py_str())],
            &[f::asr_max_buffer_seconds],
            fixes,
        )?;
    }
    let sess = ctx.cfg.get(f::asr_max_concurrent_sessions).clone();
    if sess.as_float().is_some_and(|v| v <= 0.0) {
        let fixes = vec![ctx.fix_set(
            "Use the default of 32 sessions",
            f::asr_max_concurrent_sessions,
            "32",
            Applicability::Unsafe,
        )];
        let _ = ctx.raise(
            &SRV027,
            &[("cfg.asr_max_concurrent_sessions", &sess.py_str())],
            &[f::asr_max_concurrent_sessions],
            fixes,
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_deprecated_args

pub fn handle_deprecated_args(ctx: &mut Ctx) -> Step {
    if ctx.cfg.truthy(f::disable_fast_image_processor) {
        let backend = ctx.cfg.get(f::image_processor_backend).clone();
        if !matches!(backend.as_str(), Some("auto" | "pil")) {
            let fixes = vec![
                ctx.fix_remove(
                    "Drop --disable-fast-image-processor (keep the chosen image processor backend)",
                    f::disable_fast_image_processor,
                    Applicability::Unsafe,
                ),
                ctx.fix_set(
                    "Use the PIL image processor, as --disable-fast-image-processor asks",
                    f::image_processor_backend,
                    "pil",
                    Applicability::Unsafe,
                ),
            ];
            ctx.raise(
                &SRV028,
                &[("cfg.image_processor_backend", &backend.py_str())],
                &[f::disable_fast_image_processor, f::image_processor_backend],
                fixes,
            )?;
        }
        let mut fixes = Vec::new();
        if let Some(s) = ctx.cfg.setting(f::disable_fast_image_processor).filter(|s| !s.from_config) {
            if !ctx.cfg.is_explicit(f::image_processor_backend) {
                fixes.push(Fix {
                    title: "Use --image-processor-backend pil".into(),
                    applicability: Applicability::Safe,
                    edits: vec![Edit {
                        start: s.whole_span.start,
                        end: s.whole_span.end,
                        replacement: "--image-processor-backend pil".into(),
                    }],
                });
            }
        }
        ctx.warn(&SRV101, &[], &[f::disable_fast_image_processor], fixes);
        ctx.cfg.set(f::image_processor_backend, PyValue::Str("pil".into()));
    }

    let parser = ctx.cfg.str(f::tool_call_parser).map(str::to_string);
    let renamed_parser = match parser.as_deref() {
        Some("qwen25") => Some("qwen"),
        Some("glm45") => Some("glm"),
        _ => None,
    };
    if let (Some(old), Some(new)) = (parser.as_deref(), renamed_parser) {
        let fixes = vec![ctx.fix_set(
            format!("Use --tool-call-parser {new}"),
            f::tool_call_parser,
            new,
            Applicability::Safe,
        )];
        ctx.warn(&SRV102,
            &[("cfg.tool_call_parser", &old), ("deprecated_tool_call_parsers[cfg.tool_call_parser]", &new)],
            &[f::tool_call_parser],
            fixes,
        );
        ctx.cfg.set(f::tool_call_parser, PyValue::Str(new.into()));
    }

    if ctx.cfg.truthy(f::enable_flashinfer_allreduce_fusion) && ctx.cfg.is_none(f::flashinfer_allreduce_fusion_backend) {
        let mut fixes = Vec::new();
        if let Some(s) = ctx.cfg.setting(f::enable_flashinfer_allreduce_fusion).filter(|s| !s.from_config) {
            fixes.push(Fix {
                title: "Use --flashinfer-allreduce-fusion-backend auto".into(),
                applicability: Applicability::Safe,
                edits: vec![Edit {
                    start: s.whole_span.start,
                    end: s.whole_span.end,
                    replacement: "--flashinfer-allreduce-fusion-backend auto".into(),
                }],
            });
        }
        ctx.warn(&SRV103, &[], &[f::enable_flashinfer_allreduce_fusion], fixes);
        ctx.cfg.set(f::flashinfer_allreduce_fusion_backend, PyValue::Str("auto".into()));
    }
    ctx.cfg.set(f::enable_flashinfer_allreduce_fusion, PyValue::Bool(false));

    // Deprecated attention-backend aliases. A release whose warning names only `compressed`
    // (0.5.18) renames it in place and knows no tokenspeed_mla alias.
    let aliases_table = !SRV120.applies_to(ctx.release);
    let mut renamed: Vec<(Field, PyValue)> = Vec::new();
    for attr in [f::attention_backend, f::decode_attention_backend, f::prefill_attention_backend, f::speculative_draft_attention_backend] {
        let old = ctx.cfg.str(attr).map(str::to_string);
        let new = match old.as_deref() {
            Some("compressed") => "dsv4",
            Some("tokenspeed_mla") if aliases_table => "cutedsl_mla",
            _ => continue,
        };
        let old = old.unwrap_or_default();
        let dashed = attr.name().replace('_', "-");
        let fixes = vec![ctx.fix_set(format!("Use --{dashed} {new}"), attr, new, Applicability::Safe)];
        if !aliases_table {
            ctx.warn(&SRV120, &[("attr.replace('_', '-')", &dashed)], &[attr], fixes);
            ctx.cfg.set(attr, PyValue::Str(new.into()));
            continue;
        }
        ctx.warn(&SRV104, &[("attr.replace('_', '-')", &dashed), ("old", &old), ("aliases[old]", &new)], &[attr], fixes);
        renamed.push((attr, PyValue::Str(new.into())));
    }
    for r in renamed.iter_mut() {
        if r.0 == f::prefill_attention_backend && r.1.as_str() == Some("cutedsl_mla") {
            // cutedsl_mla is decode-only.
            r.1 = PyValue::Str("trtllm_mla".into());
        }
    }
    if aliases_table && (ctx.cfg.is(f::attention_backend, "tokenspeed_mla") || ctx.cfg.is(f::decode_attention_backend, "tokenspeed_mla")) {
        if !ctx.cfg.is(f::kv_cache_dtype, "fp8_e4m3") {
            let fixes = vec![ctx.fix_set(
                "Say --kv-cache-dtype fp8_e4m3 explicitly",
                f::kv_cache_dtype,
                "fp8_e4m3",
                Applicability::Safe,
            )];
            ctx.warn(&SRV105, &[], &[f::kv_cache_dtype, f::attention_backend], fixes);
            renamed.push((f::kv_cache_dtype, PyValue::Str("fp8_e4m3".into())));
        }
        if !ctx.cfg.is_none(f::speculative_algorithm) && ctx.cfg.is(f::speculative_attention_mode, "prefill") {
            renamed.push((f::speculative_attention_mode, PyValue::Str("decode".into())));
        }
    }
    for (k, v) in renamed {
        ctx.cfg.set(k, v);
    }

    if ctx.cfg.truthy(f::grpc_mode) && !ctx.cfg.truthy(f::smg_grpc_mode) {
        let mut fixes = Vec::new();
        if let Some(s) = ctx.cfg.setting(f::grpc_mode).filter(|s| !s.from_config) {
            fixes.push(Fix {
                title: "Use --smg-grpc-mode (the legacy SMG gRPC server --grpc-mode starts)".into(),
                applicability: Applicability::Safe,
                edits: vec![Edit { start: s.whole_span.start, end: s.whole_span.end, replacement: "--smg-grpc-mode".into() }],
            });
        }
        ctx.warn(&SRV106, &[], &[f::grpc_mode], fixes);
        ctx.cfg.set(f::smg_grpc_mode, PyValue::Bool(true));
    }

    let threads = env_int(ctx, "SGLANG_GRPC_WORKER_THREADS", Some(4));
    ctx.cfg.set(f::grpc_worker_threads, threads.map(PyValue::Int).unwrap_or(PyValue::None));
    let port_env = env_int(ctx, "SGLANG_GRPC_PORT", None);
    if ctx.cfg.is_none(f::grpc_port) {
        if let Some(p) = port_env {
            ctx.cfg.set(f::grpc_port, PyValue::Int(p));
        }
    }
    let legacy = ctx.cfg.truthy(f::smg_grpc_mode) || ctx.cfg.truthy(f::grpc_mode);
    if legacy && ctx.cfg.is_none(f::grpc_port) {
        if let Some(port) = ctx.cfg.int(f::port) {
            ctx.cfg.set(f::grpc_port, PyValue::Int(port + 10000));
        }
    }

    if ctx.cfg.float(f::grpc_response_timeout_secs).is_some_and(|v| v <= 0.0) {
        let fixes = vec![ctx.fix_set(
            "Use the default of 300 seconds",
            f::grpc_response_timeout_secs,
            "300",
            Applicability::Unsafe,
        )];
        ctx.raise(&SRV029, &[], &[f::grpc_response_timeout_secs], fixes)?;
    }

    let grpc_port = ctx.cfg.get(f::grpc_port).clone();
    if let Some(p) = grpc_port.as_int() {
        if !(1..=65535).contains(&p) {
            let mut fixes = Vec::new();
            if ctx.cfg.is_explicit(f::grpc_port) {
                fixes.push(ctx.fix_remove("Drop --grpc-port (no native gRPC server)", f::grpc_port, Applicability::Unsafe));
            } else if ctx.env("SGLANG_GRPC_PORT").is_some() {
                fixes.push(display("Set SGLANG_GRPC_PORT to a port between 1 and 65535"));
            } else if legacy {
                fixes.push(ctx.fix_set(
                    "Give the legacy gRPC server its own port (it defaults to --port + 10000)",
                    f::grpc_port,
                    "50051",
                    Applicability::Unsafe,
                ));
            }
            ctx.raise(
                &SRV030,
                &[("cfg.grpc_port", &p)],
                &[f::grpc_port, f::port, f::smg_grpc_mode, f::grpc_mode],
                fixes,
            )?;
        }
        if let Some(t) = threads.filter(|t| *t < 1) {
            let fixes = vec![ctx.fix_unset_env("Unset SGLANG_GRPC_WORKER_THREADS (its default: 4)", "SGLANG_GRPC_WORKER_THREADS", Applicability::Unsafe)];
            ctx.raise(&SRV031, &[("cfg.grpc_worker_threads", &t)], &[f::grpc_port], fixes)?;
        }
    }

    let native = !grpc_port.is_none() && !legacy;
    let sidecar = ctx.cfg.get(f::sidecar).clone();
    let sidecar_args = ctx.cfg.get(f::sidecar_args).clone();
    if !sidecar_args.is_none() {
        if sidecar.is_none() {
            let fixes = vec![ctx.fix_remove("Drop --sidecar-args", f::sidecar_args, Applicability::Safe)];
            ctx.raise(&SRV032, &[], &[f::sidecar_args], fixes)?;
        }
        let ok = matches!(&sidecar_args, PyValue::List(l) if l.iter().all(|a| matches!(a, PyValue::Str(_))));
        if !ok {
            let fixes = vec![
                ctx.fix_remove("Drop --sidecar-args (the sidecar gets no extra arguments)", f::sidecar_args, Applicability::Unsafe),
                display("Write --sidecar-args as a JSON array of strings, e.g. '[\"--verbose\"]'"),
            ];
            ctx.raise(&SRV033, &[], &[f::sidecar_args], fixes)?;
        }
    }
    if let Some(s) = sidecar.as_str() {
        if s.trim().is_empty() {
            let fixes = vec![ctx.fix_remove("Drop the empty --sidecar", f::sidecar, Applicability::Safe)];
            ctx.raise(&SRV034, &[], &[f::sidecar], fixes)?;
        }
        if legacy {
            let mut fixes = Vec::new();
            fixes.extend(remove_if_set(ctx, "Drop --smg-grpc-mode (use the native gRPC server)", f::smg_grpc_mode, Applicability::Unsafe));
            fixes.extend(remove_if_set(ctx, "Drop --grpc-mode (use the native gRPC server)", f::grpc_mode, Applicability::Unsafe));
            if fixes.len() < 2 {
                fixes.push(ctx.fix_remove("Drop --sidecar", f::sidecar, Applicability::Unsafe));
            }
            // Removing only one of two legacy flags leaves the other: offer dropping both.
            if ctx.cfg.is_explicit(f::smg_grpc_mode) && ctx.cfg.is_explicit(f::grpc_mode) {
                fixes.clear();
                let a = ctx.fix_remove("", f::smg_grpc_mode, Applicability::Unsafe);
                let b = ctx.fix_remove("", f::grpc_mode, Applicability::Unsafe);
                fixes.push(Fix {
                    title: "Drop --smg-grpc-mode and --grpc-mode (use the native gRPC server)".into(),
                    applicability: Applicability::Unsafe,
                    edits: a.edits.into_iter().chain(b.edits).collect(),
                });
                fixes.push(ctx.fix_remove("Drop --sidecar", f::sidecar, Applicability::Unsafe));
            }
            ctx.raise(&SRV035, &[], &[f::sidecar, f::smg_grpc_mode, f::grpc_mode], fixes)?;
        }
        if grpc_port.is_none() {
            let fixes = vec![
                ctx.fix_set("Start the native gRPC server on port 50051", f::grpc_port, "50051", Applicability::Unsafe),
                ctx.fix_remove("Drop --sidecar", f::sidecar, Applicability::Unsafe),
            ];
            ctx.raise(&SRV036, &[], &[f::sidecar], fixes)?;
        }
    }
    if native {
        let drop_port = |ctx: &Ctx| -> Vec<Fix> {
            if ctx.cfg.is_explicit(f::grpc_port) {
                vec![ctx.fix_remove("Drop --grpc-port (no native gRPC server)", f::grpc_port, Applicability::Unsafe)]
            } else {
                vec![display("Unset SGLANG_GRPC_PORT (no native gRPC server)")]
            }
        };
        if ctx.cfg.truthy(f::use_ray) {
            let mut fixes = drop_port(ctx);
            fixes.extend(remove_if_set(ctx, "Drop --use-ray", f::use_ray, Applicability::Unsafe));
            ctx.raise(&SRV037, &[], &[f::grpc_port, f::use_ray], fixes)?;
        }
        if ctx.cfg.truthy(f::encoder_only) {
            let fixes = drop_port(ctx);
            ctx.raise(&SRV038, &[], &[f::grpc_port, f::encoder_only], fixes)?;
        }
        if ctx.cfg.int(f::tokenizer_worker_num).is_some_and(|n| n > 1) {
            let mut fixes = drop_port(ctx);
            fixes.push(ctx.fix_set(
                "Run one tokenizer worker",
                f::tokenizer_worker_num,
                "1",
                Applicability::Unsafe,
            ));
            ctx.raise(&SRV039, &[], &[f::grpc_port, f::tokenizer_worker_num], fixes)?;
        }
        if ctx.cfg.truthy(f::api_key) || ctx.cfg.truthy(f::admin_api_key) {
            let fixes = drop_port(ctx);
            let _ = ctx.raise(&SRV040, &[], &[f::grpc_port, f::api_key, f::admin_api_key], fixes);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_prefill_delayer_env_compat, handle_missing_default_values, handle_grammar_backend,
// handle_load_balance_method

pub fn handle_prefill_delayer_env_compat(ctx: &mut Ctx) -> Step {
    if env_bool(ctx, "SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE", false) {
        ctx.cfg.set(f::enable_prefill_delayer, PyValue::Bool(true));
    }
    if let Some(x) = env_int(ctx, "SGLANG_PREFILL_DELAYER_MAX_DELAY_PASSES", None).filter(|x| *x != 0) {
        ctx.cfg.set(f::prefill_delayer_max_delay_passes, PyValue::Int(x));
    }
    if let Some(x) = env_float(ctx, "SGLANG_PREFILL_DELAYER_TOKEN_USAGE_LOW_WATERMARK").filter(|x| *x != 0.0) {
        ctx.cfg.set(f::prefill_delayer_token_usage_low_watermark, PyValue::Float(x));
    }
    Ok(())
}

pub fn handle_missing_default_values(ctx: &mut Ctx) -> Step {
    let model_path = ctx.cfg.get(f::model_path).clone();
    if ctx.cfg.is_none(f::tokenizer_path) {
        ctx.cfg.set(f::tokenizer_path, model_path.clone());
    }
    if ctx.cfg.is_none(f::served_model_name) {
        ctx.cfg.set(f::served_model_name, model_path);
    }
    if ctx.cfg.is_none(f::device) {
        // get_device(): "cpu" with SGLANG_USE_CPU_ENGINE, else "cuda" when torch sees a GPU
        // (ROCm included).
        let device = if ctx.hw.platform == crate::hardware::Platform::Cpu { "cpu" } else { "cuda" };
        ctx.cfg.set(f::device, PyValue::Str(device.into()));
    }
    if let Some(d) = ctx.cfg.str(f::device).map(|d| d.split(':').next().unwrap_or_default().to_string()) {
        ctx.cfg.set(f::device, PyValue::Str(d));
    }
    if ctx.cfg.is_none(f::random_seed) {
        // random.randint(0, 1 << 30): any value; nothing downstream checks it.
        ctx.cfg.set(f::random_seed, PyValue::Int(0));
    }
    if ctx.cfg.is_none(f::mm_process_config) {
        ctx.cfg.set(f::mm_process_config, PyValue::Dict(Vec::new()));
    }
    if env_bool(ctx, "SGLANG_USE_MODELSCOPE", false) {
        // handle_modelscope_paths downloads from ModelScope.
        // Not a raise site (no `site(..)` names it): recorded by its function, as before.
        ctx.skip_unlisted("model_path_hook.handle_modelscope_paths", NotRunReason::Network);
    }
    let draft_q = ctx.cfg.get(f::speculative_draft_model_quantization).clone();
    ctx.cfg.set(f::_speculative_draft_quantization_explicitly_set, PyValue::Bool(!draft_q.is_none()));
    if draft_q.is_none() {
        let q = ctx.cfg.get(f::quantization).clone();
        ctx.cfg.set(f::speculative_draft_model_quantization, q);
    }
    let unquant = ctx.cfg.is(f::quantization, "unquant");
    if unquant {
        ctx.cfg.set(f::quantization, PyValue::None);
    }
    ctx.cfg.set(f::_quantization_explicitly_unset, PyValue::Bool(unquant));
    if ctx.cfg.is(f::speculative_draft_model_quantization, "unquant") {
        ctx.cfg.set(f::speculative_draft_model_quantization, PyValue::None);
    }
    Ok(())
}

pub fn handle_grammar_backend(ctx: &mut Ctx) -> Step {
    if ctx.cfg.is_none(f::grammar_backend) {
        ctx.cfg.set(f::grammar_backend, PyValue::Str("xgrammar".into()));
    }
    Ok(())
}

/// `handle_load_balance_method`. Its raise (an unknown disaggregation mode) is unreachable:
/// argparse's choices reject other modes first.
pub fn handle_load_balance_method(ctx: &mut Ctx) -> Step {
    if ctx.cfg.is(f::load_balance_method, "auto") {
        let m = if ctx.cfg.is(f::disaggregation_mode, "prefill") { "follow_bootstrap_room" } else { "round_robin" };
        ctx.cfg.set(f::load_balance_method, PyValue::Str(m.into()));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_tokenizer_batching

pub fn handle_tokenizer_batching(ctx: &mut Ctx) -> Step {
    if ctx.cfg.truthy(f::enable_tokenizer_batch_encode) && ctx.cfg.truthy(f::enable_dynamic_batch_tokenizer) {
        let fixes = vec![
            ctx.fix_remove(
                "Keep --enable-dynamic-batch-tokenizer, drop --enable-tokenizer-batch-encode",
                f::enable_tokenizer_batch_encode,
                Applicability::Unsafe,
            ),
            ctx.fix_remove(
                "Keep --enable-tokenizer-batch-encode, drop --enable-dynamic-batch-tokenizer",
                f::enable_dynamic_batch_tokenizer,
                Applicability::Unsafe,
            ),
        ];
        ctx.raise(
            &SRV041,
            &[],
            &[f::enable_tokenizer_batch_encode, f::enable_dynamic_batch_tokenizer],
            fixes,
        )?;
    }
    if ctx.cfg.truthy(f::skip_tokenizer_init) && !env_bool(ctx, "SGLANG_RUST_SERVER", false) {
        let n = ctx.cfg.get(f::detokenizer_worker_num).clone();
        if n.as_int() != Some(1) {
            let fixes = remove_if_set(ctx, "Drop --detokenizer-worker-num", f::detokenizer_worker_num, Applicability::Safe)
                .into_iter()
                .collect();
            ctx.warn(&SRV107,
                &[("cfg.detokenizer_worker_num", &n.py_str())],
                &[f::detokenizer_worker_num, f::skip_tokenizer_init],
                fixes,
            );
            ctx.cfg.set(f::detokenizer_worker_num, PyValue::Int(1));
        }
        if ctx.cfg.truthy(f::enable_tokenizer_batch_encode) {
            let fixes = remove_if_set(ctx, "Drop --enable-tokenizer-batch-encode", f::enable_tokenizer_batch_encode, Applicability::Safe)
                .into_iter()
                .collect();
            ctx.warn(&SRV108, &[], &[f::enable_tokenizer_batch_encode], fixes);
            ctx.cfg.set(f::enable_tokenizer_batch_encode, PyValue::Bool(false));
        }
        if ctx.cfg.truthy(f::enable_dynamic_batch_tokenizer) {
            let fixes = remove_if_set(ctx, "Drop --enable-dynamic-batch-tokenizer", f::enable_dynamic_batch_tokenizer, Applicability::Safe)
                .into_iter()
                .collect();
            ctx.warn(&SRV109, &[], &[f::enable_dynamic_batch_tokenizer], fixes);
            ctx.cfg.set(f::enable_dynamic_batch_tokenizer, PyValue::Bool(false));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_environment_variables (+ handle_multimodal_feature_transport)

/// `handle_multimodal_feature_transport`. Returns false when it raised.
fn handle_multimodal_feature_transport(ctx: &mut Ctx) -> bool {
    let mut requested = ctx.cfg.str(f::mm_feature_transport).map(str::to_string);
    // 0.5.18's deprecated --keep-mm-feature-on-device (the flag later releases dropped)
    if ctx.cfg.truthy(f::keep_mm_feature_on_device) {
        if let Some(t) = requested.as_deref().filter(|t| *t != "cuda_ipc") {
            let t = t.to_string();
            let fixes = vec![
                ctx.fix_remove("Drop --keep-mm-feature-on-device", f::keep_mm_feature_on_device, Applicability::Unsafe),
                ctx.fix_set("Use --mm-feature-transport cuda_ipc", f::mm_feature_transport, "cuda_ipc", Applicability::Unsafe),
            ];
            let _ = ctx.raise(&SRV121, &[("requested_transport", &t)], &[f::keep_mm_feature_on_device, f::mm_feature_transport], fixes);
            return false;
        }
        requested = Some("cuda_ipc".to_string());
        let fixes = remove_if_set(ctx, "Drop --keep-mm-feature-on-device (features then go over the CPU)", f::keep_mm_feature_on_device, Applicability::Unsafe).into_iter().collect();
        ctx.warn(&SRV123, &[], &[f::keep_mm_feature_on_device], fixes);
    }
    let legacy_set = ctx.env("SGLANG_USE_CUDA_IPC_TRANSPORT").is_some();
    let legacy_on = env_bool(ctx, "SGLANG_USE_CUDA_IPC_TRANSPORT", false);
    let encoder_only = ctx.cfg.truthy(f::encoder_only);
    let mut transport: String = match requested {
        None => {
            if legacy_set {
                let t = if legacy_on { "cuda_ipc" } else { "cpu" };
                let fixes = vec![ctx.fix_set(
                    format!("Say --mm-feature-transport {t}"),
                    f::mm_feature_transport,
                    t,
                    Applicability::Safe,
                )];
                ctx.warn(&SRV110,
                    &[("requested_transport", &t)],
                    &[],
                    fixes,
                );
                t.to_string()
            } else if encoder_only {
                "cpu".to_string()
            } else {
                // Multimodal models on CUDA: cpu on one node; cuda_vmm is only auto-selected on
                // several GB200/GB300 nodes with an IMEX channel and a model that opted in.
                if ctx.hw.mnnvl_fabric && ctx.hw.is_cuda() && ctx.cfg.int(f::nnodes).unwrap_or(1) > 1 {
                    ctx.model_config(site("serving_hook.handle_multimodal_feature_transport", "--mm-feature-transport=cuda_vmm requires"));
                }
                "cpu".to_string()
            }
        }
        Some(t) => {
            if legacy_set && legacy_on != (t == "cuda_ipc") {
                let fixes = vec![display("Unset SGLANG_USE_CUDA_IPC_TRANSPORT (--mm-feature-transport replaces it)")];
                ctx.warn(&SRV111,
                    &[("requested_transport", &t), ("int(legacy_ipc_enabled)", &i32::from(legacy_on))],
                    &[f::mm_feature_transport],
                    fixes,
                );
            }
            t
        }
    };
    if encoder_only && (transport == "cuda_ipc" || transport == "cuda_vmm") {
        // `cpu`, not dropping the flag: unset, a model's provider may choose cuda_ipc again
        // (Qwen3-VL's does)
        let fixes = vec![ctx.fix_set(
            "Use --mm-feature-transport cpu (encoder outputs go by --encoder-transfer-backend)",
            f::mm_feature_transport,
            "cpu",
            Applicability::Safe,
        )];
        ctx.warn(&SRV112,
            &[("requested_transport", &transport)],
            &[f::mm_feature_transport, f::encoder_only],
            fixes,
        );
        transport = "cpu".to_string();
    }
    let to_cpu = |ctx: &Ctx| -> Vec<Fix> {
        if ctx.cfg.is_explicit(f::mm_feature_transport) {
            vec![ctx.fix_set(
                "Send multimodal features over the CPU",
                f::mm_feature_transport,
                "cpu",
                Applicability::Unsafe,
            )]
        } else {
            vec![display("Unset SGLANG_USE_CUDA_IPC_TRANSPORT")]
        }
    };
    if transport == "cuda_vmm" {
        if !ctx.hw.is_cuda() {
            let fixes = to_cpu(ctx);
            let _ = ctx.raise(&SRV042, &[], &[f::mm_feature_transport], fixes);
            return false;
        }
        if ctx.cfg.int(f::pp_size) != Some(1) {
            let fixes = to_cpu(ctx);
            let _ = ctx.raise(&SRV043, &[], &[f::mm_feature_transport, f::pp_size], fixes);
            return false;
        }
        if SRV122.applies_to(ctx.release) && env_bool(ctx, "SGLANG_RUST_SERVER", false) {
            let fixes = to_cpu(ctx);
            let _ = ctx.raise(&SRV122, &[], &[f::mm_feature_transport], fixes);
            return false;
        }
    }
    if transport == "cuda_ipc" {
        if !ctx.hw.is_cuda() {
            let fixes = to_cpu(ctx);
            let _ = ctx.raise(&SRV044, &[], &[f::mm_feature_transport], fixes);
            return false;
        }
        if ctx.cfg.int(f::nnodes) != Some(1) {
            let fixes = to_cpu(ctx);
            let _ = ctx.raise(&SRV045, &[], &[f::mm_feature_transport, f::nnodes], fixes);
            return false;
        }
    }
    ctx.cfg.set(f::mm_feature_transport, PyValue::Str(transport));
    true
}

pub fn handle_environment_variables(ctx: &mut Ctx) -> Step {
    if !handle_multimodal_feature_transport(ctx) {
        return Ok(());
    }
    if ctx.cfg.truthy(f::debug_cuda_graph) {
        if !(ctx.hw.is_cuda() || ctx.hw.is_hip()) {
            let fixes = remove_if_set(ctx, "Drop --debug-cuda-graph", f::debug_cuda_graph, Applicability::Safe).into_iter().collect();
            ctx.warn(&SRV113, &[], &[f::debug_cuda_graph], fixes);
            ctx.cfg.set(f::debug_cuda_graph, PyValue::Bool(false));
        } else {
            ctx.warn(&SRV114, &[], &[f::debug_cuda_graph], Vec::new());
        }
    }
    if ctx.cfg.truthy(f::enable_deepseek_v4_fp4_indexer) {
        let sm100 = ctx.hw.is_cuda() && ctx.hw.capability.0 == 10;
        let sm120 = ctx.hw.is_cuda() && ctx.hw.capability.0 == 12;
        // gfx95 only where the release's message names it (not 0.5.18's)
        let gfx95_supported = ctx
            .release
            .raise_site(&site("serving_hook.handle_environment_variables", "--enable-deepseek-v4-fp4-indexer requires SM100, SM120, or gfx95"))
            .is_some();
        let gfx95 = gfx95_supported && ctx.hw.is_hip() && ctx.hw.gcn_arch.is_some_and(|a| a.contains("gfx95"));
        if !(sm100 || sm120 || gfx95) {
            let fixes = vec![ctx.fix_remove(
                "Drop --enable-deepseek-v4-fp4-indexer (use the default indexer)",
                f::enable_deepseek_v4_fp4_indexer,
                Applicability::Unsafe,
            )];
            let _ = ctx.raise(&SRV046, &[], &[f::enable_deepseek_v4_fp4_indexer], fixes);
        }
    }
    // SGLANG_OPT_FP8_WO_A_GEMM: whether DeepGEMM supports it depends on the installed kernels
    // (deep_gemm_wrapper); its "Disabling SGLANG_OPT_FP8_WO_A_GEMM" warning is not claimed here.
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_crash_dump_env, handle_debug_utils

pub fn handle_crash_dump_env(ctx: &mut Ctx) -> Step {
    let Some(folder) = ctx.cfg.str(f::crash_dump_folder).filter(|f| !f.is_empty()).map(str::to_string) else { return Ok(()) };
    let file = ctx.env("CUDA_COREDUMP_FILE").map(str::to_string).unwrap_or_else(|| format!("{folder}/%h/core.cuda.%t.%p"));
    // os.path.dirname(file.replace("%h", hostname)); the host name is not known here.
    let dir = match file.rfind('/') {
        Some(i) => {
            let head = file.get(..i).unwrap_or_default();
            let trimmed = head.trim_end_matches('/');
            if trimmed.is_empty() { head.to_string() } else { trimmed.to_string() }
        }
        None => String::new(),
    };
    if dir.contains("%h") {
        // The warning text would hold the host name; only claim it when it does not.
        return Ok(());
    }
    if dir.contains('%') {
        ctx.warn(&SRV115,
            &[("coredump_dir", &dir)],
            &[f::crash_dump_folder],
            Vec::new(),
        );
    }
    Ok(())
}

pub fn handle_debug_utils(ctx: &mut Ctx) -> Step {
    if env_bool(ctx, "SGLANG_IS_IN_CI", false) && ctx.cfg.is_none(f::soft_watchdog_timeout) {
        ctx.cfg.set(f::soft_watchdog_timeout, PyValue::Int(300));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// handle_other_validations

pub fn handle_other_validations(ctx: &mut Ctx) -> Step {
    let kwargs = ctx.cfg.get(f::default_chat_template_kwargs).clone();
    if !kwargs.is_none() && !matches!(kwargs, PyValue::Dict(_)) {
        let fixes = vec![
            ctx.fix_remove("Drop --default-chat-template-kwargs", f::default_chat_template_kwargs, Applicability::Unsafe),
            display("Write the kwargs as a JSON object, e.g. '{\"enable_thinking\": false}'"),
        ];
        ctx.raise(&SRV047, &[], &[f::default_chat_template_kwargs], fixes)?;
    }

    if ctx.cfg.int(f::optimistic_prefill_attempts).unwrap_or(0) > 0 && ctx.cfg.is(f::disaggregation_mode, "prefill") {
        if ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 {
            let fixes = remove_if_set(ctx, "Drop --optimistic-prefill-attempts", f::optimistic_prefill_attempts, Applicability::Safe)
                .into_iter()
                .collect();
            ctx.warn(&SRV116, &[], &[f::optimistic_prefill_attempts, f::pp_size], fixes);
            ctx.cfg.set(f::optimistic_prefill_attempts, PyValue::Int(0));
        } else if SRV124.applies_to(ctx.release) {
            // 0.5.18: L2 write-back only, then the mamba radix cache (the model's)
            let storage_none = ctx.cfg.is_none(f::hicache_storage_backend);
            if ctx.cfg.truthy(f::enable_hierarchical_cache) && !(storage_none && ctx.cfg.is(f::hicache_write_policy, "write_back")) {
                let fixes = remove_if_set(ctx, "Drop --optimistic-prefill-attempts", f::optimistic_prefill_attempts, Applicability::Safe).into_iter().collect();
                ctx.warn(&SRV124, &[], &[f::optimistic_prefill_attempts, f::enable_hierarchical_cache], fixes);
                ctx.cfg.set(f::optimistic_prefill_attempts, PyValue::Int(0));
            } else {
                match ctx.model.as_ref().and_then(|m| m.computed).and_then(|c| c.uses_mamba_radix_cache) {
                    Some(false) => {}
                    Some(true) => {
                        let fixes = remove_if_set(ctx, "Drop --optimistic-prefill-attempts", f::optimistic_prefill_attempts, Applicability::Safe).into_iter().collect();
                        ctx.warn(&SRV125, &[], &[f::optimistic_prefill_attempts], fixes);
                        ctx.cfg.set(f::optimistic_prefill_attempts, PyValue::Int(0));
                    }
                    None => {
                        let v = ctx.cfg.get(f::optimistic_prefill_attempts).clone();
                        ctx.cfg.set_unknown(f::optimistic_prefill_attempts, v);
                    }
                }
            }
        } else if ctx.cfg.truthy(f::enable_hierarchical_cache) {
            let storage_none = ctx.cfg.is_none(f::hicache_storage_backend);
            let policy = ctx.cfg.str(f::hicache_write_policy).unwrap_or_default().to_string();
            let ok = if storage_none {
                policy == "write_back" || policy == "write_through"
            } else {
                ctx.cfg.is(f::hicache_host_memory_mode, "buffer_only") && policy == "write_through"
            };
            if !ok {
                let fixes = remove_if_set(ctx, "Drop --optimistic-prefill-attempts", f::optimistic_prefill_attempts, Applicability::Safe)
                    .into_iter()
                    .collect();
                ctx.warn(&SRV117, &[], &[f::optimistic_prefill_attempts, f::enable_hierarchical_cache], fixes);
                ctx.cfg.set(f::optimistic_prefill_attempts, PyValue::Int(0));
            }
        }
    }

    if ctx.cfg.is(f::disaggregation_decode_allocation_policy, "prefill_complete")
        && ctx.cfg.is(f::disaggregation_mode, "prefill")
        && ctx.cfg.int(f::optimistic_prefill_attempts).unwrap_or(0) <= 0
    {
        let mut fixes = vec![ctx.fix_set(
            "Use the early allocation policy",
            f::disaggregation_decode_allocation_policy,
            "early",
            Applicability::Unsafe,
        )];
        if !ctx.cfg.is_explicit(f::optimistic_prefill_attempts) {
            fixes.push(ctx.fix_set(
                "Enable optimistic prefill (1 attempt)",
                f::optimistic_prefill_attempts,
                "1",
                Applicability::Unsafe,
            ));
        }
        ctx.raise(
            &SRV048,
            &[],
            &[f::disaggregation_decode_allocation_policy, f::optimistic_prefill_attempts],
            fixes,
        )?;
    }

    let disable_graphs = |ctx: &mut Ctx| {
        cuda_graph::with_phase(ctx, cuda_graph::DECODE, "backend", PyValue::Str(cuda_graph::DISABLED.into()));
        cuda_graph::with_phase(ctx, cuda_graph::PREFILL, "backend", PyValue::Str(cuda_graph::DISABLED.into()));
        ctx.cfg.set(f::skip_server_warmup, PyValue::Bool(true));
    };
    if !ctx.cfg.is_none(f::debug_tensor_dump_output_folder) {
        ctx.warn(&SRV118, &[], &[f::debug_tensor_dump_output_folder], Vec::new());
        disable_graphs(ctx);
    }
    if !ctx.cfg.is_none(f::msprobe_dump_config) {
        ctx.warn(&SRV119, &[], &[f::msprobe_dump_config], Vec::new());
        disable_graphs(ctx);
    }

    let mut limit = ctx.cfg.get(f::limit_mm_data_per_request).clone();
    if limit.truthy() {
        if let PyValue::Str(s) = &limit {
            match serde_json::from_str::<serde_json::Value>(s) {
                Ok(v) => {
                    limit = PyValue::from_json(&v);
                    ctx.cfg.set(f::limit_mm_data_per_request, limit.clone());
                }
                Err(_) => {
                    ctx.skip(site("serving_hook.handle_other_validations", "Invalid modality '{modality}' in --limit-mm-data-per-request.Allowed"), NotRunReason::NotImplemented);
                    return Ok(());
                }
            }
        }
        if let PyValue::Dict(items) = &limit {
            if let Some((bad, _)) = items.iter().find(|(k, _)| !["image", "video", "audio"].contains(&k.as_str())) {
                // `list(allowed_modalities)` lists a Python set: its order changes from one
                // process to the next (string hash randomisation). We print the source order.
                let bad = bad.clone();
                let fixed: Vec<&str> = items.iter().map(|(k, _)| k.as_str()).filter(|k| ["image", "video", "audio"].contains(k)).collect();
                let others: Vec<&str> = items.iter().map(|(k, _)| k.as_str()).filter(|k| !["image", "video", "audio"].contains(k)).collect();
                let title = format!(
                    "Keep only image, video and audio limits{}",
                    if fixed.is_empty() { String::new() } else { format!(" ({})", fixed.join(", ")) }
                );
                let fixes = vec![json_fix::without_keys(ctx, &limit, &others, f::limit_mm_data_per_request, &title)];
                ctx.raise(
                    &SRV049,
                    &[("modality", &bad), ("list(allowed_modalities)", &"['image', 'video', 'audio']")],
                    &[f::limit_mm_data_per_request],
                    fixes,
                )?;
            }
        }
    }

    let mut prefs = ctx.cfg.get(f::preferred_sampling_params).clone();
    if prefs.truthy() {
        if let PyValue::Str(s) = &prefs {
            match serde_json::from_str::<serde_json::Value>(s) {
                Ok(v) => {
                    prefs = PyValue::from_json(&v);
                    ctx.cfg.set(f::preferred_sampling_params, prefs.clone());
                }
                Err(_) => {
                    ctx.skip(site("serving_hook.handle_other_validations", "watermark is not supported in --preferred-sampling-params"), NotRunReason::NotImplemented);
                    return Ok(());
                }
            }
        }
        let has_watermark = match &prefs {
            PyValue::Dict(items) => Some(items.iter().any(|(k, _)| k == "watermark")),
            PyValue::List(items) => Some(items.iter().any(|v| v.as_str() == Some("watermark"))),
            PyValue::Str(s) => Some(s.contains("watermark")),
            _ => None,
        };
        match has_watermark {
            // a check 0.5.18 does not have
            Some(_) if !SRV050.applies_to(ctx.release) => {}
            Some(true) => {
                let title = "Remove \"watermark\" from --preferred-sampling-params (request it per request instead)";
                let fixes = vec![json_fix::without_keys(ctx, &prefs, &["watermark"], f::preferred_sampling_params, title)];
                ctx.raise(&SRV050, &[], &[f::preferred_sampling_params], fixes)?;
            }
            Some(false) => {}
            None => {
                ctx.skip(site("serving_hook.handle_other_validations", "watermark is not supported in --preferred-sampling-params"), NotRunReason::NotImplemented);
                return Ok(());
            }
        }
        if ctx.cfg.truthy(f::skip_tokenizer_init) {
            // SamplingParams(**params).normalize(None): the sampling-parameter checks are not
            // modelled here.
            // Not a raise site (no `site(..)` names it): recorded by its function, as before.
            ctx.skip_unlisted("sampling.sampling_params.SamplingParams.normalize", NotRunReason::NotImplemented);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_normalise_like_python() {
        let n = |d: &str| match normalize_media_domain(d) {
            Ok(Some(s)) => s,
            Ok(None) => "?".into(),
            Err(DomainError::Empty) => "E".into(),
            Err(DomainError::HostnameOnly(_)) => "H".into(),
            Err(DomainError::Port(_)) => "P".into(),
            Err(DomainError::Invalid(_)) => "I".into(),
        };
        assert_eq!(n("Example.COM."), "example.com");
        assert_eq!(n(" . "), "E");
        assert_eq!(n("http://x.com"), "H");
        assert_eq!(n("x.com:8080"), "P");
        assert_eq!(n("a..b"), "I");
        assert_eq!(n("[::1]"), "::1");
        assert_eq!(n("2001:db8:0:0:1:0:0:1"), "2001:db8::1:0:0:1");
        assert_eq!(n("::ffff:1.2.3.4"), "::ffff:102:304");
        assert_eq!(n("10.0.0.1"), "10.0.0.1");
    }

    #[test]
    fn python_int_parsing() {
        use crate::rules::shared::envs::python_int;
        assert_eq!(python_int(" 12 "), Some(12));
        assert_eq!(python_int("1_000"), Some(1000));
        assert_eq!(python_int("-3"), Some(-3));
        assert_eq!(python_int("1__0"), None);
        assert_eq!(python_int("x"), None);
    }
}
