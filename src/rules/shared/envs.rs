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
