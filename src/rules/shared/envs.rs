//! `sglang/srt/environ.py`: how SGLang reads its environment variables.

use crate::rules::Ctx;

/// SGLang's `EnvBool` (`envs.X.get()`): true/1/yes/y and false/0/no/n, case-insensitive.
/// Other text makes SGLang raise on read; we treat it as unset.
pub fn env_bool(ctx: &Ctx, name: &str) -> bool {
    matches!(ctx.env(name).map(str::to_ascii_lowercase).as_deref(), Some("true" | "1" | "yes" | "y"))
}
