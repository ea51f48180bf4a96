//! `sglang/srt/environ.py`: how SGLang reads its environment variables.

use crate::rules::Ctx;

/// How SGLang's `EnvBool` reads a variable's text: true/1/yes/y and false/0/no/n,
/// case-insensitive; None for other text (SGLang raises on read, or falls back to a default).
pub fn parse_env_bool(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "y" => Some(true),
        "false" | "0" | "no" | "n" => Some(false),
        _ => None,
    }
}

/// SGLang's `EnvBool` (`envs.X.get()`) set true. Other text makes SGLang raise on read; we treat
/// it as unset.
pub fn env_bool(ctx: &Ctx, name: &str) -> bool {
    ctx.env(name).and_then(parse_env_bool) == Some(true)
}

/// Python's `int(text)` for environment values: surrounding whitespace, a sign, and single
/// underscores between digits.
pub fn python_int(text: &str) -> Option<i64> {
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
pub fn env_int(ctx: &Ctx, name: &str, default: Option<i64>) -> Option<i64> {
    match ctx.env(name) {
        None => default,
        Some(v) => python_int(v).or(default),
    }
}
