//! Rules from SGLang's `sglang/srt/arg_groups/serving_hook.py` (and the helpers it calls:
//! `utils.common.configure_media_url_security`, `sampling.watermarking.config.load_watermark_config`).
//!
//! Hooks are ported in SGLang's order with the same value changes (`declare_resolution`), so the
//! families that run later read what SGLang's later hooks read.

use super::cuda_graph;
use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::{Applicability, Edit, Fix};
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

/// Python's `int(text)` for environment values: surrounding whitespace, a sign, and single
/// underscores between digits.
fn python_int(text: &str) -> Option<i64> {
    let t = text.trim();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') || digits.contains("__") {
        return None;
    }
    if !digits.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return None;
    }
    let n: i64 = digits.replace('_', "").parse().ok()?;
    Some(if neg { -n } else { n })
}

/// `EnvInt(default).get()`: an unparsable value falls back to the default (with a Python
/// `warnings.warn`, not a logged warning).
fn env_int(ctx: &Ctx, name: &str, default: Option<i64>) -> Option<i64> {
    match ctx.env(name) {
        None => default,
        Some(v) => python_int(v).or(default),
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
    match ctx.env(name).map(str::to_ascii_lowercase).as_deref() {
        Some("true" | "1" | "yes" | "y") => true,
        Some("false" | "0" | "no" | "n") => false,
        _ => default,
    }
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
fn fix_rewrite_list(ctx: &Ctx, title: &str, dest: &str, flag: &str, values: &[String], app: Applicability) -> Fix {
    if values.is_empty() {
        return ctx.fix_remove(title, dest, app);
    }
    match ctx.cfg.setting(dest) {
        Some(s) if !s.from_config => Fix {
            title: title.to_string(),
            applicability: app,
            edits: vec![Edit {
                start: s.whole_span.start,
                end: s.whole_span.end,
                replacement: format!("{flag} {}", values.iter().map(|v| shell_word(v)).collect::<Vec<_>>().join(" ")),
            }],
        },
        _ => Fix::advice(title),
    }
}

fn display(title: impl Into<String>) -> Fix {
    Fix::advice(title)
}

/// Remove-the-flag fix, only when the flag is on the command line.
fn remove_if_set(ctx: &Ctx, title: &str, dest: &str, app: Applicability) -> Option<Fix> {
    ctx.cfg.is_explicit(dest).then(|| ctx.fix_remove(title, dest, app))
}

// ---------------------------------------------------------------------------------------------
// handle_return_hidden_states_mode

/// `handle_return_hidden_states_mode`. Its raise (a mode other than None/'last'/'full') is
/// unreachable: argparse's choices reject other values first.
pub fn handle_return_hidden_states_mode(ctx: &mut Ctx) {
    let mode = ctx.cfg.get("return_hidden_states_mode").clone();
    match mode.as_str() {
        None if mode.is_none()
            && (ctx.cfg.truthy("enable_return_hidden_states") || ctx.cfg.truthy("enable_return_aux_hidden_states")) =>
        {
            ctx.cfg.set("return_hidden_states_mode", PyValue::Str("full".into()));
        }
        Some("last" | "full") => ctx.cfg.set("enable_return_hidden_states", PyValue::Bool(true)),
        _ => {}
    }
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
pub fn handle_media_url_security(ctx: &mut Ctx) {
    let max_mb = ctx.cfg.get("media_url_max_file_size_mb").clone();
    if max_mb.as_float().is_some_and(|v| v < 0.0) {
        let fixes = vec![ctx.fix_set(
            "Use the default limit of 64 MB",
            "media_url_max_file_size_mb",
            "--media-url-max-file-size-mb",
            "64",
            Applicability::Unsafe,
        )];
        ctx.raise(&SRV001, SRV001.template.to_string(), &["media_url_max_file_size_mb"], fixes);
        return;
    }
    let domains: Vec<PyValue> = match ctx.cfg.get("allowed_media_domains") {
        PyValue::List(l) => l.clone(),
        PyValue::None => Vec::new(),
        other => vec![other.clone()],
    };
    let mut normalized: Vec<String> = Vec::new();
    let mut unknown = false;
    for d in &domains {
        let Some(text) = d.as_str() else {
            // "allowed media domains must be strings": unreachable from the command line.
            return;
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
                let (rule, msg, title) = match e {
                    DomainError::Empty => (&SRV002, SRV002.template.to_string(), "Drop the empty domain"),
                    DomainError::HostnameOnly(dom) => (
                        &SRV003,
                        format!("Invalid allowed media domain {}: provide a hostname only", str_repr(&dom)),
                        "Keep only the host name",
                    ),
                    DomainError::Port(dom) => (
                        &SRV004,
                        format!("Invalid allowed media domain {}: ports are not supported", str_repr(&dom)),
                        "Drop the port",
                    ),
                    DomainError::Invalid(dom) => (
                        &SRV005,
                        format!("Invalid allowed media domain {}", str_repr(&dom)),
                        "Drop the invalid domain",
                    ),
                };
                let app = if fixed.is_empty() { Applicability::Unsafe } else { Applicability::Safe };
                let title = if fixed.is_empty() {
                    "Drop --allowed-media-domains (media URLs from any domain are allowed)"
                } else {
                    title
                };
                let fixes = vec![fix_rewrite_list(ctx, title, "allowed_media_domains", "--allowed-media-domains", &fixed, app)];
                ctx.raise(rule, msg, &["allowed_media_domains"], fixes);
                return;
            }
        }
    }
    if unknown {
        ctx.skip("utils.common._normalize_media_domain#5", NotRunReason::NotImplemented);
        return;
    }
    normalized.sort();
    normalized.dedup();
    ctx.cfg.set("allowed_media_domains", PyValue::List(normalized.into_iter().map(PyValue::Str).collect()));
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
pub fn handle_watermark_config(ctx: &mut Ctx) {
    let Some(source) = ctx.cfg.str("watermark_config").map(str::to_string) else { return };
    if !source.trim_start().starts_with('{') {
        ctx.skip("sampling.watermarking.config._read_config_file#1", NotRunReason::Files);
        ctx.skip("sampling.watermarking.config._read_config_file#2", NotRunReason::Files);
        return;
    }
    let fail = |ctx: &mut Ctx, rule: &'static Rule, msg: String| {
        let fixes = vec![display("Fix the JSON given to --watermark-config (keys: key, key_b, context_window, mixing_probability, max_probability, default_enabled, enforce_all)")];
        ctx.raise(rule, msg, &["watermark_config"], fixes);
    };
    if source.len() > 4096 {
        fail(ctx, &SRV006, SRV006.template.to_string());
        return;
    }
    let raw = match serde_json::from_str::<serde_json::Value>(&source) {
        Ok(v) => PyValue::from_json(&v),
        Err(_) => {
            // Python's json also accepts NaN/Infinity literals, which serde_json does not.
            if ["NaN", "Infinity"].iter().any(|w| source.contains(w)) {
                ctx.skip("sampling.watermarking.config.load_watermark_config#2", NotRunReason::NotImplemented);
                return;
            }
            fail(ctx, &SRV007, SRV007.template.to_string());
            return;
        }
    };
    let PyValue::Dict(items) = &raw else {
        fail(ctx, &SRV008, SRV008.template.to_string());
        return;
    };
    if items.iter().any(|(k, _)| !WATERMARK_FIELDS.contains(&k.as_str())) {
        fail(ctx, &SRV009, SRV009.template.to_string());
        return;
    }
    for name in ["key", "key_b"] {
        if let Some(v) = dict_get(&raw, name).filter(|v| !v.is_none()) {
            if let Some(e) = watermark_key_error(v) {
                fail(ctx, &SRV010, e.to_string());
                return;
            }
        }
    }
    if let Some(cw) = dict_get(&raw, "context_window").filter(|v| !v.is_none()) {
        let ok = matches!(cw, PyValue::Int(i) if (1..=64).contains(i));
        if !ok {
            fail(ctx, &SRV011, SRV011.template.to_string());
            return;
        }
    }
    for name in ["mixing_probability", "max_probability"] {
        if let Some(v) = dict_get(&raw, name).filter(|v| !v.is_none()) {
            if !matches!(v, PyValue::Int(_) | PyValue::BigInt(_) | PyValue::Float(_)) {
                fail(ctx, &SRV012, format!("watermark config {name} must be a number"));
                return;
            }
        }
    }
    for name in ["default_enabled", "enforce_all"] {
        if let Some(v) = dict_get(&raw, name).filter(|v| !v.is_none()) {
            if !matches!(v, PyValue::Bool(_)) {
                fail(ctx, &SRV013, format!("watermark config {name} must be a boolean"));
                return;
            }
        }
    }
    for name in WATERMARK_FIELDS {
        if let Some(v) = dict_get(&raw, name).filter(|v| !v.is_none()) {
            ctx.cfg.set(&format!("watermark_{name}"), v.clone());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// handle_multimodal

/// `handle_multimodal`: validate --mm-process-config before model loading.
pub fn handle_multimodal(ctx: &mut Ctx) {
    if ctx.cfg.float("mm_preprocess_cache_size_mb").is_some_and(|v| v < 0.0) {
        let fixes = vec![ctx.fix_set(
            "Use 0 (no preprocessing cache)",
            "mm_preprocess_cache_size_mb",
            "--mm-preprocess-cache-size-mb",
            "0",
            Applicability::Unsafe,
        )];
        ctx.raise(&SRV014, SRV014.template.to_string(), &["mm_preprocess_cache_size_mb"], fixes);
        return;
    }
    let cfg = ctx.cfg.get("mm_process_config").clone();
    if cfg.is_none() {
        return;
    }
    if !matches!(cfg, PyValue::Dict(_)) {
        let fixes = vec![
            ctx.fix_remove("Drop --mm-process-config", "mm_process_config", Applicability::Unsafe),
            display("Give --mm-process-config a JSON object, e.g. '{\"image\": {...}}'"),
        ];
        ctx.raise(&SRV015, format!("mm_process_config must be a dict, but got {}", py_type(&cfg)), &["mm_process_config"], fixes);
        return;
    }
    for key in ["image", "video", "audio"] {
        if let Some(v) = dict_get(&cfg, key) {
            if !matches!(v, PyValue::Dict(_)) {
                let fixes = vec![display(format!("Make the \"{key}\" entry of --mm-process-config a JSON object"))];
                ctx.raise(
                    &SRV016,
                    format!("mm_process_config['{key}'] must be a dict, but got {}", py_type(v)),
                    &["mm_process_config"],
                    fixes,
                );
                return;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// handle_ssl_validation

/// `handle_ssl_validation`: SSL flags consistent, files present (not checked here), HTTP/2 limits.
pub fn handle_ssl_validation(ctx: &mut Ctx) {
    let key = ctx.cfg.truthy("ssl_keyfile");
    let cert = ctx.cfg.truthy("ssl_certfile");
    if key && !cert {
        let fixes = vec![
            ctx.fix_remove("Drop --ssl-keyfile (serve plain HTTP)", "ssl_keyfile", Applicability::Unsafe),
            display("Add --ssl-certfile with the certificate that goes with the key"),
        ];
        ctx.raise(&SRV017, SRV017.template.to_string(), &["ssl_keyfile"], fixes);
        return;
    }
    if cert && !key {
        let fixes = vec![
            ctx.fix_remove("Drop --ssl-certfile (serve plain HTTP)", "ssl_certfile", Applicability::Unsafe),
            display("Add --ssl-keyfile with the private key of the certificate"),
        ];
        ctx.raise(&SRV018, SRV018.template.to_string(), &["ssl_certfile"], fixes);
        return;
    }
    if !cert && !key {
        if ctx.cfg.truthy("ssl_ca_certs") {
            let fixes = vec![ctx.fix_remove("Drop --ssl-ca-certs (it has no effect without SSL)", "ssl_ca_certs", Applicability::Safe)];
            ctx.raise(&SRV019, SRV019.template.to_string(), &["ssl_ca_certs"], fixes);
            return;
        }
        if ctx.cfg.truthy("ssl_keyfile_password") {
            let fixes = vec![ctx.fix_remove(
                "Drop --ssl-keyfile-password (it has no effect without SSL)",
                "ssl_keyfile_password",
                Applicability::Safe,
            )];
            ctx.raise(&SRV020, SRV020.template.to_string(), &["ssl_keyfile_password"], fixes);
            return;
        }
    }
    // os.path.isfile checks on the key, certificate and CA files: SGLang reads the file system.
    if key {
        ctx.skip("serving_hook.handle_ssl_validation#5", NotRunReason::Files);
    }
    if cert {
        ctx.skip("serving_hook.handle_ssl_validation#6", NotRunReason::Files);
    }
    if ctx.cfg.truthy("ssl_ca_certs") {
        ctx.skip("serving_hook.handle_ssl_validation#7", NotRunReason::Files);
    }
    if ctx.cfg.truthy("enable_ssl_refresh") && !(cert && key) {
        let fixes = vec![ctx.fix_remove(
            "Drop --enable-ssl-refresh (there is no certificate to refresh)",
            "enable_ssl_refresh",
            Applicability::Safe,
        )];
        ctx.raise(&SRV021, SRV021.template.to_string(), &["enable_ssl_refresh"], fixes);
        return;
    }
    let http2 = ctx.cfg.truthy("enable_http2");
    if ctx.cfg.truthy("enable_http_worker_reuseport") && (ctx.cfg.int("tokenizer_worker_num") == Some(1) || http2) {
        let mut fixes = vec![ctx.fix_remove(
            "Drop --enable-http-worker-reuseport",
            "enable_http_worker_reuseport",
            Applicability::Unsafe,
        )];
        if !http2 {
            fixes.push(ctx.fix_set(
                "Run 2 tokenizer workers",
                "tokenizer_worker_num",
                "--tokenizer-worker-num",
                "2",
                Applicability::Unsafe,
            ));
        }
        ctx.raise(&SRV022, SRV022.template.to_string(), &["enable_http_worker_reuseport", "tokenizer_worker_num"], fixes);
        return;
    }
    if http2 {
        let streams = ctx.cfg.get("http2_max_concurrent_streams").as_float();
        if !streams.is_some_and(|s| 0.0 < s && s < 4294967296.0) {
            let fixes = vec![ctx.fix_set(
                "Use the default of 200 streams",
                "http2_max_concurrent_streams",
                "--http2-max-concurrent-streams",
                "200",
                Applicability::Unsafe,
            )];
            ctx.raise(&SRV023, SRV023.template.to_string(), &["http2_max_concurrent_streams"], fixes);
            return;
        }
        let window = ctx.cfg.get("http2_initial_connection_window_size").as_float();
        if !window.is_some_and(|w| (1024.0..2147483648.0).contains(&w)) {
            let fixes = vec![ctx.fix_set(
                "Use the default window of 1048576 bytes",
                "http2_initial_connection_window_size",
                "--http2-initial-connection-window-size",
                "1048576",
                Applicability::Unsafe,
            )];
            ctx.raise(&SRV024, SRV024.template.to_string(), &["http2_initial_connection_window_size"], fixes);
            return;
        }
        // `import granian`: granian is the optional `sglang[http2]` extra, absent from a
        // standard `pip install sglang`. So #13 (--enable-ssl-refresh with HTTP/2) is never reached.
        let fixes = vec![
            ctx.fix_remove("Drop --enable-http2 (serve HTTP/1.1 with Uvicorn)", "enable_http2", Applicability::Unsafe),
            display("Install the extra: pip install \"sglang[http2]\""),
        ];
        ctx.raise(&SRV025, SRV025.template.to_string(), &["enable_http2"], fixes);
    }
}

// ---------------------------------------------------------------------------------------------
// handle_asr_validation

pub fn handle_asr_validation(ctx: &mut Ctx) {
    let buf = ctx.cfg.get("asr_max_buffer_seconds").clone();
    if buf.as_float().is_some_and(|v| v <= 0.0) {
        let fixes = vec![ctx.fix_set(
            "Use the default of 60 seconds",
            "asr_max_buffer_seconds",
            "--asr-max-buffer-seconds",
            "60",
            Applicability::Unsafe,
        )];
        ctx.raise(
            &SRV026,
            format!("--asr-max-buffer-seconds must be positive (got {}).", buf.py_str()),
            &["asr_max_buffer_seconds"],
            fixes,
        );
        return;
    }
    let sess = ctx.cfg.get("asr_max_concurrent_sessions").clone();
    if sess.as_float().is_some_and(|v| v <= 0.0) {
        let fixes = vec![ctx.fix_set(
            "Use the default of 32 sessions",
            "asr_max_concurrent_sessions",
            "--asr-max-concurrent-sessions",
            "32",
            Applicability::Unsafe,
        )];
        ctx.raise(
            &SRV027,
            format!("--asr-max-concurrent-sessions must be positive (got {}).", sess.py_str()),
            &["asr_max_concurrent_sessions"],
            fixes,
        );
    }
}

// ---------------------------------------------------------------------------------------------
// handle_deprecated_args

pub fn handle_deprecated_args(ctx: &mut Ctx) {
    if ctx.cfg.truthy("disable_fast_image_processor") {
        let backend = ctx.cfg.get("image_processor_backend").clone();
        if !matches!(backend.as_str(), Some("auto" | "pil")) {
            let fixes = vec![
                ctx.fix_remove(
                    "Drop --disable-fast-image-processor (keep the chosen image processor backend)",
                    "disable_fast_image_processor",
                    Applicability::Unsafe,
                ),
                ctx.fix_set(
                    "Use the PIL image processor, as --disable-fast-image-processor asks",
                    "image_processor_backend",
                    "--image-processor-backend",
                    "pil",
                    Applicability::Unsafe,
                ),
            ];
            ctx.raise(
                &SRV028,
                format!(
                    "--disable-fast-image-processor conflicts with --image-processor-backend={}.",
                    backend.py_str()
                ),
                &["disable_fast_image_processor", "image_processor_backend"],
                fixes,
            );
            return;
        }
        let mut fixes = Vec::new();
        if let Some(s) = ctx.cfg.setting("disable_fast_image_processor").filter(|s| !s.from_config) {
            if !ctx.cfg.is_explicit("image_processor_backend") {
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
        ctx.warn(&SRV101, SRV101.template.to_string(), &["disable_fast_image_processor"], fixes);
        ctx.cfg.set("image_processor_backend", PyValue::Str("pil".into()));
    }

    let parser = ctx.cfg.str("tool_call_parser").map(str::to_string);
    let renamed_parser = match parser.as_deref() {
        Some("qwen25") => Some("qwen"),
        Some("glm45") => Some("glm"),
        _ => None,
    };
    if let (Some(old), Some(new)) = (parser.as_deref(), renamed_parser) {
        let fixes = vec![ctx.fix_set(
            format!("Use --tool-call-parser {new}"),
            "tool_call_parser",
            "--tool-call-parser",
            new,
            Applicability::Safe,
        )];
        ctx.warn(&SRV102,
            format!("The tool_call_parser '{old}' is deprecated. Please use '{new}' instead."),
            &["tool_call_parser"],
            fixes,
        );
        ctx.cfg.set("tool_call_parser", PyValue::Str(new.into()));
    }

    if ctx.cfg.truthy("enable_flashinfer_allreduce_fusion") && ctx.cfg.is_none("flashinfer_allreduce_fusion_backend") {
        let mut fixes = Vec::new();
        if let Some(s) = ctx.cfg.setting("enable_flashinfer_allreduce_fusion").filter(|s| !s.from_config) {
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
        ctx.warn(&SRV103, SRV103.template.to_string(), &["enable_flashinfer_allreduce_fusion"], fixes);
        ctx.cfg.set("flashinfer_allreduce_fusion_backend", PyValue::Str("auto".into()));
    }
    ctx.cfg.set("enable_flashinfer_allreduce_fusion", PyValue::Bool(false));

    // Deprecated attention-backend aliases.
    let mut renamed: Vec<(&str, PyValue)> = Vec::new();
    for attr in ["attention_backend", "decode_attention_backend", "prefill_attention_backend", "speculative_draft_attention_backend"] {
        let old = ctx.cfg.str(attr).map(str::to_string);
        let new = match old.as_deref() {
            Some("compressed") => "dsv4",
            Some("tokenspeed_mla") => "cutedsl_mla",
            _ => continue,
        };
        let old = old.unwrap_or_default();
        let flag = format!("--{}", attr.replace('_', "-"));
        let fixes = vec![ctx.fix_set(format!("Use {flag} {new}"), attr, &flag, new, Applicability::Safe)];
        ctx.warn(&SRV104, format!("{flag}={old} is deprecated; use '{new}' instead."), &[attr], fixes);
        renamed.push((attr, PyValue::Str(new.into())));
    }
    for r in renamed.iter_mut() {
        if r.0 == "prefill_attention_backend" && r.1.as_str() == Some("cutedsl_mla") {
            // cutedsl_mla is decode-only.
            r.1 = PyValue::Str("trtllm_mla".into());
        }
    }
    if ctx.cfg.is("attention_backend", "tokenspeed_mla") || ctx.cfg.is("decode_attention_backend", "tokenspeed_mla") {
        if !ctx.cfg.is("kv_cache_dtype", "fp8_e4m3") {
            let fixes = vec![ctx.fix_set(
                "Say --kv-cache-dtype fp8_e4m3 explicitly",
                "kv_cache_dtype",
                "--kv-cache-dtype",
                "fp8_e4m3",
                Applicability::Safe,
            )];
            ctx.warn(&SRV105, SRV105.template.to_string(), &["kv_cache_dtype", "attention_backend"], fixes);
            renamed.push(("kv_cache_dtype", PyValue::Str("fp8_e4m3".into())));
        }
        if !ctx.cfg.is_none("speculative_algorithm") && ctx.cfg.is("speculative_attention_mode", "prefill") {
            renamed.push(("speculative_attention_mode", PyValue::Str("decode".into())));
        }
    }
    for (k, v) in renamed {
        ctx.cfg.set(k, v);
    }

    if ctx.cfg.truthy("grpc_mode") && !ctx.cfg.truthy("smg_grpc_mode") {
        let mut fixes = Vec::new();
        if let Some(s) = ctx.cfg.setting("grpc_mode").filter(|s| !s.from_config) {
            fixes.push(Fix {
                title: "Use --smg-grpc-mode (the legacy SMG gRPC server --grpc-mode starts)".into(),
                applicability: Applicability::Safe,
                edits: vec![Edit { start: s.whole_span.start, end: s.whole_span.end, replacement: "--smg-grpc-mode".into() }],
            });
        }
        ctx.warn(&SRV106, SRV106.template.to_string(), &["grpc_mode"], fixes);
        ctx.cfg.set("smg_grpc_mode", PyValue::Bool(true));
    }

    let threads = env_int(ctx, "SGLANG_GRPC_WORKER_THREADS", Some(4));
    ctx.cfg.set("grpc_worker_threads", threads.map(PyValue::Int).unwrap_or(PyValue::None));
    let port_env = env_int(ctx, "SGLANG_GRPC_PORT", None);
    if ctx.cfg.is_none("grpc_port") {
        if let Some(p) = port_env {
            ctx.cfg.set("grpc_port", PyValue::Int(p));
        }
    }
    let legacy = ctx.cfg.truthy("smg_grpc_mode") || ctx.cfg.truthy("grpc_mode");
    if legacy && ctx.cfg.is_none("grpc_port") {
        if let Some(port) = ctx.cfg.int("port") {
            ctx.cfg.set("grpc_port", PyValue::Int(port + 10000));
        }
    }

    if ctx.cfg.float("grpc_response_timeout_secs").is_some_and(|v| v <= 0.0) {
        let fixes = vec![ctx.fix_set(
            "Use the default of 300 seconds",
            "grpc_response_timeout_secs",
            "--grpc-response-timeout-secs",
            "300",
            Applicability::Unsafe,
        )];
        ctx.raise(&SRV029, SRV029.template.to_string(), &["grpc_response_timeout_secs"], fixes);
        return;
    }

    let grpc_port = ctx.cfg.get("grpc_port").clone();
    if let Some(p) = grpc_port.as_int() {
        if !(1..=65535).contains(&p) {
            let mut fixes = Vec::new();
            if ctx.cfg.is_explicit("grpc_port") {
                fixes.push(ctx.fix_remove("Drop --grpc-port (no native gRPC server)", "grpc_port", Applicability::Unsafe));
            } else if ctx.env("SGLANG_GRPC_PORT").is_some() {
                fixes.push(display("Set SGLANG_GRPC_PORT to a port between 1 and 65535"));
            } else if legacy {
                fixes.push(ctx.fix_set(
                    "Give the legacy gRPC server its own port (it defaults to --port + 10000)",
                    "grpc_port",
                    "--grpc-port",
                    "50051",
                    Applicability::Unsafe,
                ));
            }
            ctx.raise(
                &SRV030,
                format!("--grpc-port / SGLANG_GRPC_PORT ({p}) must be between 1 and 65535"),
                &["grpc_port", "port", "smg_grpc_mode", "grpc_mode"],
                fixes,
            );
            return;
        }
        if let Some(t) = threads.filter(|t| *t < 1) {
            let fixes = vec![display("Set SGLANG_GRPC_WORKER_THREADS to 1 or more (default 4)")];
            ctx.raise(&SRV031, format!("SGLANG_GRPC_WORKER_THREADS ({t}) must be >= 1"), &["grpc_port"], fixes);
            return;
        }
    }

    let native = !grpc_port.is_none() && !legacy;
    let sidecar = ctx.cfg.get("sidecar").clone();
    let sidecar_args = ctx.cfg.get("sidecar_args").clone();
    if !sidecar_args.is_none() {
        if sidecar.is_none() {
            let fixes = vec![ctx.fix_remove("Drop --sidecar-args", "sidecar_args", Applicability::Safe)];
            ctx.raise(&SRV032, SRV032.template.to_string(), &["sidecar_args"], fixes);
            return;
        }
        let ok = matches!(&sidecar_args, PyValue::List(l) if l.iter().all(|a| matches!(a, PyValue::Str(_))));
        if !ok {
            let fixes = vec![display("Write --sidecar-args as a JSON array of strings, e.g. '[\"--verbose\"]'")];
            ctx.raise(&SRV033, SRV033.template.to_string(), &["sidecar_args"], fixes);
            return;
        }
    }
    if let Some(s) = sidecar.as_str() {
        if s.trim().is_empty() {
            let fixes = vec![ctx.fix_remove("Drop the empty --sidecar", "sidecar", Applicability::Safe)];
            ctx.raise(&SRV034, SRV034.template.to_string(), &["sidecar"], fixes);
            return;
        }
        if legacy {
            let mut fixes = Vec::new();
            fixes.extend(remove_if_set(ctx, "Drop --smg-grpc-mode (use the native gRPC server)", "smg_grpc_mode", Applicability::Unsafe));
            fixes.extend(remove_if_set(ctx, "Drop --grpc-mode (use the native gRPC server)", "grpc_mode", Applicability::Unsafe));
            if fixes.len() < 2 {
                fixes.push(ctx.fix_remove("Drop --sidecar", "sidecar", Applicability::Unsafe));
            }
            // Removing only one of two legacy flags leaves the other: offer dropping both.
            if ctx.cfg.is_explicit("smg_grpc_mode") && ctx.cfg.is_explicit("grpc_mode") {
                fixes.clear();
                let a = ctx.fix_remove("", "smg_grpc_mode", Applicability::Unsafe);
                let b = ctx.fix_remove("", "grpc_mode", Applicability::Unsafe);
                fixes.push(Fix {
                    title: "Drop --smg-grpc-mode and --grpc-mode (use the native gRPC server)".into(),
                    applicability: Applicability::Unsafe,
                    edits: a.edits.into_iter().chain(b.edits).collect(),
                });
                fixes.push(ctx.fix_remove("Drop --sidecar", "sidecar", Applicability::Unsafe));
            }
            ctx.raise(&SRV035, SRV035.template.to_string(), &["sidecar", "smg_grpc_mode", "grpc_mode"], fixes);
            return;
        }
        if grpc_port.is_none() {
            let fixes = vec![
                ctx.fix_set("Start the native gRPC server on port 50051", "grpc_port", "--grpc-port", "50051", Applicability::Unsafe),
                ctx.fix_remove("Drop --sidecar", "sidecar", Applicability::Unsafe),
            ];
            ctx.raise(&SRV036, SRV036.template.to_string(), &["sidecar"], fixes);
            return;
        }
    }
    if native {
        let drop_port = |ctx: &Ctx| -> Vec<Fix> {
            if ctx.cfg.is_explicit("grpc_port") {
                vec![ctx.fix_remove("Drop --grpc-port (no native gRPC server)", "grpc_port", Applicability::Unsafe)]
            } else {
                vec![display("Unset SGLANG_GRPC_PORT (no native gRPC server)")]
            }
        };
        if ctx.cfg.truthy("use_ray") {
            let mut fixes = drop_port(ctx);
            fixes.extend(remove_if_set(ctx, "Drop --use-ray", "use_ray", Applicability::Unsafe));
            ctx.raise(&SRV037, SRV037.template.to_string(), &["grpc_port", "use_ray"], fixes);
            return;
        }
        if ctx.cfg.truthy("encoder_only") {
            let fixes = drop_port(ctx);
            ctx.raise(&SRV038, SRV038.template.to_string(), &["grpc_port", "encoder_only"], fixes);
            return;
        }
        if ctx.cfg.int("tokenizer_worker_num").is_some_and(|n| n > 1) {
            let mut fixes = drop_port(ctx);
            fixes.push(ctx.fix_set(
                "Run one tokenizer worker",
                "tokenizer_worker_num",
                "--tokenizer-worker-num",
                "1",
                Applicability::Unsafe,
            ));
            ctx.raise(&SRV039, SRV039.template.to_string(), &["grpc_port", "tokenizer_worker_num"], fixes);
            return;
        }
        if ctx.cfg.truthy("api_key") || ctx.cfg.truthy("admin_api_key") {
            let fixes = drop_port(ctx);
            ctx.raise(&SRV040, SRV040.template.to_string(), &["grpc_port", "api_key", "admin_api_key"], fixes);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// handle_prefill_delayer_env_compat, handle_missing_default_values, handle_grammar_backend,
// handle_load_balance_method

pub fn handle_prefill_delayer_env_compat(ctx: &mut Ctx) {
    if env_bool(ctx, "SGLANG_SCHEDULER_DECREASE_PREFILL_IDLE", false) {
        ctx.cfg.set("enable_prefill_delayer", PyValue::Bool(true));
    }
    if let Some(x) = env_int(ctx, "SGLANG_PREFILL_DELAYER_MAX_DELAY_PASSES", None).filter(|x| *x != 0) {
        ctx.cfg.set("prefill_delayer_max_delay_passes", PyValue::Int(x));
    }
    if let Some(x) = env_float(ctx, "SGLANG_PREFILL_DELAYER_TOKEN_USAGE_LOW_WATERMARK").filter(|x| *x != 0.0) {
        ctx.cfg.set("prefill_delayer_token_usage_low_watermark", PyValue::Float(x));
    }
}

pub fn handle_missing_default_values(ctx: &mut Ctx) {
    let model_path = ctx.cfg.get("model_path").clone();
    if ctx.cfg.is_none("tokenizer_path") {
        ctx.cfg.set("tokenizer_path", model_path.clone());
    }
    if ctx.cfg.is_none("served_model_name") {
        ctx.cfg.set("served_model_name", model_path);
    }
    if ctx.cfg.is_none("device") {
        // get_device(): "cpu" with SGLANG_USE_CPU_ENGINE, else "cuda" when torch sees a GPU
        // (ROCm included).
        let device = if ctx.hw.platform == crate::hardware::Platform::Cpu { "cpu" } else { "cuda" };
        ctx.cfg.set("device", PyValue::Str(device.into()));
    }
    if let Some(d) = ctx.cfg.str("device").map(|d| d.split(':').next().unwrap_or_default().to_string()) {
        ctx.cfg.set("device", PyValue::Str(d));
    }
    if ctx.cfg.is_none("random_seed") {
        // random.randint(0, 1 << 30): any value; nothing downstream checks it.
        ctx.cfg.set("random_seed", PyValue::Int(0));
    }
    if ctx.cfg.is_none("mm_process_config") {
        ctx.cfg.set("mm_process_config", PyValue::Dict(Vec::new()));
    }
    if env_bool(ctx, "SGLANG_USE_MODELSCOPE", false) {
        // handle_modelscope_paths downloads from ModelScope.
        ctx.skip("model_path_hook.handle_modelscope_paths", NotRunReason::Network);
    }
    let draft_q = ctx.cfg.get("speculative_draft_model_quantization").clone();
    ctx.cfg.set("_speculative_draft_quantization_explicitly_set", PyValue::Bool(!draft_q.is_none()));
    if draft_q.is_none() {
        let q = ctx.cfg.get("quantization").clone();
        ctx.cfg.set("speculative_draft_model_quantization", q);
    }
    let unquant = ctx.cfg.is("quantization", "unquant");
    if unquant {
        ctx.cfg.set("quantization", PyValue::None);
    }
    ctx.cfg.set("_quantization_explicitly_unset", PyValue::Bool(unquant));
    if ctx.cfg.is("speculative_draft_model_quantization", "unquant") {
        ctx.cfg.set("speculative_draft_model_quantization", PyValue::None);
    }
}

pub fn handle_grammar_backend(ctx: &mut Ctx) {
    if ctx.cfg.is_none("grammar_backend") {
        ctx.cfg.set("grammar_backend", PyValue::Str("xgrammar".into()));
    }
}

/// `handle_load_balance_method`. Its raise (an unknown disaggregation mode) is unreachable:
/// argparse's choices reject other modes first.
pub fn handle_load_balance_method(ctx: &mut Ctx) {
    if ctx.cfg.is("load_balance_method", "auto") {
        let m = if ctx.cfg.is("disaggregation_mode", "prefill") { "follow_bootstrap_room" } else { "round_robin" };
        ctx.cfg.set("load_balance_method", PyValue::Str(m.into()));
    }
}

// ---------------------------------------------------------------------------------------------
// handle_tokenizer_batching

pub fn handle_tokenizer_batching(ctx: &mut Ctx) {
    if ctx.cfg.truthy("enable_tokenizer_batch_encode") && ctx.cfg.truthy("enable_dynamic_batch_tokenizer") {
        let fixes = vec![
            ctx.fix_remove(
                "Keep --enable-dynamic-batch-tokenizer, drop --enable-tokenizer-batch-encode",
                "enable_tokenizer_batch_encode",
                Applicability::Unsafe,
            ),
            ctx.fix_remove(
                "Keep --enable-tokenizer-batch-encode, drop --enable-dynamic-batch-tokenizer",
                "enable_dynamic_batch_tokenizer",
                Applicability::Unsafe,
            ),
        ];
        ctx.raise(
            &SRV041,
            SRV041.template.to_string(),
            &["enable_tokenizer_batch_encode", "enable_dynamic_batch_tokenizer"],
            fixes,
        );
        return;
    }
    if ctx.cfg.truthy("skip_tokenizer_init") && !env_bool(ctx, "SGLANG_RUST_SERVER", false) {
        let n = ctx.cfg.get("detokenizer_worker_num").clone();
        if n.as_int() != Some(1) {
            let fixes = remove_if_set(ctx, "Drop --detokenizer-worker-num", "detokenizer_worker_num", Applicability::Safe)
                .into_iter()
                .collect();
            ctx.warn(&SRV107,
                format!(
                    "skip_tokenizer_init=True leaves no decode work for detokenizer workers; forcing detokenizer_worker_num=1 (requested {}).",
                    n.py_str()
                ),
                &["detokenizer_worker_num", "skip_tokenizer_init"],
                fixes,
            );
            ctx.cfg.set("detokenizer_worker_num", PyValue::Int(1));
        }
        if ctx.cfg.truthy("enable_tokenizer_batch_encode") {
            let fixes = remove_if_set(ctx, "Drop --enable-tokenizer-batch-encode", "enable_tokenizer_batch_encode", Applicability::Safe)
                .into_iter()
                .collect();
            ctx.warn(&SRV108, SRV108.template.to_string(), &["enable_tokenizer_batch_encode"], fixes);
            ctx.cfg.set("enable_tokenizer_batch_encode", PyValue::Bool(false));
        }
        if ctx.cfg.truthy("enable_dynamic_batch_tokenizer") {
            let fixes = remove_if_set(ctx, "Drop --enable-dynamic-batch-tokenizer", "enable_dynamic_batch_tokenizer", Applicability::Safe)
                .into_iter()
                .collect();
            ctx.warn(&SRV109, SRV109.template.to_string(), &["enable_dynamic_batch_tokenizer"], fixes);
            ctx.cfg.set("enable_dynamic_batch_tokenizer", PyValue::Bool(false));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// handle_environment_variables (+ handle_multimodal_feature_transport)

/// `handle_multimodal_feature_transport`. Returns false when it raised.
fn handle_multimodal_feature_transport(ctx: &mut Ctx) -> bool {
    let requested = ctx.cfg.str("mm_feature_transport").map(str::to_string);
    let legacy_set = ctx.env("SGLANG_USE_CUDA_IPC_TRANSPORT").is_some();
    let legacy_on = env_bool(ctx, "SGLANG_USE_CUDA_IPC_TRANSPORT", false);
    let encoder_only = ctx.cfg.truthy("encoder_only");
    let mut transport: String = match requested {
        None => {
            if legacy_set {
                let t = if legacy_on { "cuda_ipc" } else { "cpu" };
                let fixes = vec![ctx.fix_set(
                    format!("Say --mm-feature-transport {t}"),
                    "mm_feature_transport",
                    "--mm-feature-transport",
                    t,
                    Applicability::Safe,
                )];
                ctx.warn(&SRV110,
                    format!("SGLANG_USE_CUDA_IPC_TRANSPORT is deprecated; use --mm-feature-transport={t} instead."),
                    &[],
                    fixes,
                );
                t.to_string()
            } else if encoder_only {
                "cpu".to_string()
            } else {
                // Multimodal models on CUDA: cpu on one node; cuda_vmm is only auto-selected on
                // several GB200/GB300 nodes with an IMEX channel and a model that opted in.
                if ctx.hw.mnnvl_fabric && ctx.hw.is_cuda() && ctx.cfg.int("nnodes").unwrap_or(1) > 1 {
                    ctx.skip("serving_hook.handle_multimodal_feature_transport#1", NotRunReason::ModelConfig);
                }
                "cpu".to_string()
            }
        }
        Some(t) => {
            if legacy_set && legacy_on != (t == "cuda_ipc") {
                let fixes = vec![display("Unset SGLANG_USE_CUDA_IPC_TRANSPORT (--mm-feature-transport replaces it)")];
                ctx.warn(&SRV111,
                    format!(
                        "--mm-feature-transport={t} overrides the conflicting legacy SGLANG_USE_CUDA_IPC_TRANSPORT={} setting.",
                        i32::from(legacy_on)
                    ),
                    &["mm_feature_transport"],
                    fixes,
                );
            }
            t
        }
    };
    if encoder_only && (transport == "cuda_ipc" || transport == "cuda_vmm") {
        let fixes = remove_if_set(ctx, "Drop --mm-feature-transport (it does not apply to encoder-only serving)", "mm_feature_transport", Applicability::Safe)
            .into_iter()
            .collect();
        ctx.warn(&SRV112,
            format!(
                "--mm-feature-transport={transport} does not control encoder-only output transfer; using cpu for this inactive transport. Select --encoder-transfer-backend for encoder outputs."
            ),
            &["mm_feature_transport", "encoder_only"],
            fixes,
        );
        transport = "cpu".to_string();
    }
    let to_cpu = |ctx: &Ctx| -> Vec<Fix> {
        if ctx.cfg.is_explicit("mm_feature_transport") {
            vec![ctx.fix_set(
                "Send multimodal features over the CPU",
                "mm_feature_transport",
                "--mm-feature-transport",
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
            ctx.raise(&SRV042, SRV042.template.to_string(), &["mm_feature_transport"], fixes);
            return false;
        }
        if ctx.cfg.int("pp_size") != Some(1) {
            let fixes = to_cpu(ctx);
            ctx.raise(&SRV043, SRV043.template.to_string(), &["mm_feature_transport", "pp_size"], fixes);
            return false;
        }
    }
    if transport == "cuda_ipc" {
        if !ctx.hw.is_cuda() {
            let fixes = to_cpu(ctx);
            ctx.raise(&SRV044, SRV044.template.to_string(), &["mm_feature_transport"], fixes);
            return false;
        }
        if ctx.cfg.int("nnodes") != Some(1) {
            let fixes = to_cpu(ctx);
            ctx.raise(&SRV045, SRV045.template.to_string(), &["mm_feature_transport", "nnodes"], fixes);
            return false;
        }
    }
    ctx.cfg.set("mm_feature_transport", PyValue::Str(transport));
    true
}

pub fn handle_environment_variables(ctx: &mut Ctx) {
    if !handle_multimodal_feature_transport(ctx) {
        return;
    }
    if ctx.cfg.truthy("debug_cuda_graph") {
        if !(ctx.hw.is_cuda() || ctx.hw.is_hip()) {
            let fixes = remove_if_set(ctx, "Drop --debug-cuda-graph", "debug_cuda_graph", Applicability::Safe).into_iter().collect();
            ctx.warn(&SRV113, SRV113.template.to_string(), &["debug_cuda_graph"], fixes);
            ctx.cfg.set("debug_cuda_graph", PyValue::Bool(false));
        } else {
            ctx.warn(&SRV114, SRV114.template.to_string(), &["debug_cuda_graph"], Vec::new());
        }
    }
    if ctx.cfg.truthy("enable_deepseek_v4_fp4_indexer") {
        let sm100 = ctx.hw.is_cuda() && ctx.hw.capability.0 == 10;
        let sm120 = ctx.hw.is_cuda() && ctx.hw.capability.0 == 12;
        let gfx95 = ctx.hw.is_hip() && ctx.hw.gcn_arch.is_some_and(|a| a.contains("gfx95"));
        if !(sm100 || sm120 || gfx95) {
            let fixes = vec![ctx.fix_remove(
                "Drop --enable-deepseek-v4-fp4-indexer (use the default indexer)",
                "enable_deepseek_v4_fp4_indexer",
                Applicability::Unsafe,
            )];
            ctx.raise(&SRV046, SRV046.template.to_string(), &["enable_deepseek_v4_fp4_indexer"], fixes);
        }
    }
    // SGLANG_OPT_FP8_WO_A_GEMM: whether DeepGEMM supports it depends on the installed kernels
    // (deep_gemm_wrapper); its "Disabling SGLANG_OPT_FP8_WO_A_GEMM" warning is not claimed here.
}

// ---------------------------------------------------------------------------------------------
// handle_crash_dump_env, handle_debug_utils

pub fn handle_crash_dump_env(ctx: &mut Ctx) {
    let Some(folder) = ctx.cfg.str("crash_dump_folder").filter(|f| !f.is_empty()).map(str::to_string) else { return };
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
        return;
    }
    if dir.contains('%') {
        ctx.warn(&SRV115,
            format!(
                "Cannot pre-create CUDA coredump directory {dir}: only %h is supported in the directory part of CUDA_COREDUMP_FILE; coredumps may fail to write."
            ),
            &["crash_dump_folder"],
            Vec::new(),
        );
    }
}

pub fn handle_debug_utils(ctx: &mut Ctx) {
    if env_bool(ctx, "SGLANG_IS_IN_CI", false) && ctx.cfg.is_none("soft_watchdog_timeout") {
        ctx.cfg.set("soft_watchdog_timeout", PyValue::Int(300));
    }
}

// ---------------------------------------------------------------------------------------------
// handle_other_validations

pub fn handle_other_validations(ctx: &mut Ctx) {
    let kwargs = ctx.cfg.get("default_chat_template_kwargs").clone();
    if !kwargs.is_none() && !matches!(kwargs, PyValue::Dict(_)) {
        let fixes = vec![
            ctx.fix_remove("Drop --default-chat-template-kwargs", "default_chat_template_kwargs", Applicability::Unsafe),
            display("Write the kwargs as a JSON object, e.g. '{\"enable_thinking\": false}'"),
        ];
        ctx.raise(&SRV047, SRV047.template.to_string(), &["default_chat_template_kwargs"], fixes);
        return;
    }

    if ctx.cfg.int("optimistic_prefill_attempts").unwrap_or(0) > 0 && ctx.cfg.is("disaggregation_mode", "prefill") {
        if ctx.cfg.int("pp_size").unwrap_or(1) > 1 {
            let fixes = remove_if_set(ctx, "Drop --optimistic-prefill-attempts", "optimistic_prefill_attempts", Applicability::Safe)
                .into_iter()
                .collect();
            ctx.warn(&SRV116, SRV116.template.to_string(), &["optimistic_prefill_attempts", "pp_size"], fixes);
            ctx.cfg.set("optimistic_prefill_attempts", PyValue::Int(0));
        } else if ctx.cfg.truthy("enable_hierarchical_cache") {
            let storage_none = ctx.cfg.is_none("hicache_storage_backend");
            let policy = ctx.cfg.str("hicache_write_policy").unwrap_or_default().to_string();
            let ok = if storage_none {
                policy == "write_back" || policy == "write_through"
            } else {
                ctx.cfg.is("hicache_host_memory_mode", "buffer_only") && policy == "write_through"
            };
            if !ok {
                let fixes = remove_if_set(ctx, "Drop --optimistic-prefill-attempts", "optimistic_prefill_attempts", Applicability::Safe)
                    .into_iter()
                    .collect();
                ctx.warn(&SRV117, SRV117.template.to_string(), &["optimistic_prefill_attempts", "enable_hierarchical_cache"], fixes);
                ctx.cfg.set("optimistic_prefill_attempts", PyValue::Int(0));
            }
        }
    }

    if ctx.cfg.is("disaggregation_decode_allocation_policy", "prefill_complete")
        && ctx.cfg.is("disaggregation_mode", "prefill")
        && ctx.cfg.int("optimistic_prefill_attempts").unwrap_or(0) <= 0
    {
        let mut fixes = vec![ctx.fix_set(
            "Use the early allocation policy",
            "disaggregation_decode_allocation_policy",
            "--disaggregation-decode-allocation-policy",
            "early",
            Applicability::Unsafe,
        )];
        if !ctx.cfg.is_explicit("optimistic_prefill_attempts") {
            fixes.push(ctx.fix_set(
                "Enable optimistic prefill (1 attempt)",
                "optimistic_prefill_attempts",
                "--optimistic-prefill-attempts",
                "1",
                Applicability::Unsafe,
            ));
        }
        ctx.raise(
            &SRV048,
            SRV048.template.to_string(),
            &["disaggregation_decode_allocation_policy", "optimistic_prefill_attempts"],
            fixes,
        );
        return;
    }

    let disable_graphs = |ctx: &mut Ctx| {
        cuda_graph::with_phase(ctx, cuda_graph::DECODE, "backend", PyValue::Str(cuda_graph::DISABLED.into()));
        cuda_graph::with_phase(ctx, cuda_graph::PREFILL, "backend", PyValue::Str(cuda_graph::DISABLED.into()));
        ctx.cfg.set("skip_server_warmup", PyValue::Bool(true));
    };
    if !ctx.cfg.is_none("debug_tensor_dump_output_folder") {
        ctx.warn(&SRV118, SRV118.template.to_string(), &["debug_tensor_dump_output_folder"], Vec::new());
        disable_graphs(ctx);
    }
    if !ctx.cfg.is_none("msprobe_dump_config") {
        ctx.warn(&SRV119, SRV119.template.to_string(), &["msprobe_dump_config"], Vec::new());
        disable_graphs(ctx);
    }

    let mut limit = ctx.cfg.get("limit_mm_data_per_request").clone();
    if limit.truthy() {
        if let PyValue::Str(s) = &limit {
            match serde_json::from_str::<serde_json::Value>(s) {
                Ok(v) => {
                    limit = PyValue::from_json(&v);
                    ctx.cfg.set("limit_mm_data_per_request", limit.clone());
                }
                Err(_) => {
                    ctx.skip("serving_hook.handle_other_validations#3", NotRunReason::NotImplemented);
                    return;
                }
            }
        }
        if let PyValue::Dict(items) = &limit {
            if let Some((bad, _)) = items.iter().find(|(k, _)| !["image", "video", "audio"].contains(&k.as_str())) {
                // `list(allowed_modalities)` lists a Python set: its order changes from one
                // process to the next (string hash randomisation). We print the source order.
                let bad = bad.clone();
                let fixed: Vec<&str> = items.iter().map(|(k, _)| k.as_str()).filter(|k| ["image", "video", "audio"].contains(k)).collect();
                let fixes = vec![display(format!(
                    "Keep only image, video and audio limits{}",
                    if fixed.is_empty() { String::new() } else { format!(" ({})", fixed.join(", ")) }
                ))];
                ctx.raise(
                    &SRV049,
                    format!(
                        "Invalid modality '{bad}' in --limit-mm-data-per-request.Allowed modalities are: ['image', 'video', 'audio']"
                    ),
                    &["limit_mm_data_per_request"],
                    fixes,
                );
                return;
            }
        }
    }

    let mut prefs = ctx.cfg.get("preferred_sampling_params").clone();
    if prefs.truthy() {
        if let PyValue::Str(s) = &prefs {
            match serde_json::from_str::<serde_json::Value>(s) {
                Ok(v) => {
                    prefs = PyValue::from_json(&v);
                    ctx.cfg.set("preferred_sampling_params", prefs.clone());
                }
                Err(_) => {
                    ctx.skip("serving_hook.handle_other_validations#4", NotRunReason::NotImplemented);
                    return;
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
            Some(true) => {
                let fixes = vec![display("Remove \"watermark\" from --preferred-sampling-params (request it per request instead)")];
                ctx.raise(&SRV050, SRV050.template.to_string(), &["preferred_sampling_params"], fixes);
                return;
            }
            Some(false) => {}
            None => {
                ctx.skip("serving_hook.handle_other_validations#4", NotRunReason::NotImplemented);
                return;
            }
        }
        if ctx.cfg.truthy("skip_tokenizer_init") {
            // SamplingParams(**params).normalize(None): the sampling-parameter checks are not
            // modelled here.
            ctx.skip("sampling.sampling_params.SamplingParams.normalize", NotRunReason::NotImplemented);
        }
    }
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
        assert_eq!(python_int(" 12 "), Some(12));
        assert_eq!(python_int("1_000"), Some(1000));
        assert_eq!(python_int("-3"), Some(-3));
        assert_eq!(python_int("1__0"), None);
        assert_eq!(python_int("x"), None);
    }
}
