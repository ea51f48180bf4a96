//! `sglang/srt/speculative/spec_info.py`'s `SpeculativeAlgorithm`, as far as the checks before the
//! speculative hook can know it. (From `speculative_hook.handle_speculative_decoding` on, the
//! resolved `speculative_algorithm` is SGLang's own: upper-cased, NEXTN -> EAGLE; see
//! `rules/speculative.rs`.)

use crate::fields::f;
use crate::rules::Ctx;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Spec {
    None,
    /// NGRAM (any case): the speculative hook keeps it, upper-cased, and needs no draft model.
    Ngram,
    /// Anything else (before the speculative hook renames and validates it).
    Other,
}

/// The speculative algorithm as far as these checks can know it.
pub fn spec_kind(ctx: &Ctx) -> Spec {
    match ctx.cfg.str(f::speculative_algorithm) {
        None => Spec::None,
        Some(s) if s.eq_ignore_ascii_case("NGRAM") => Spec::Ngram,
        Some(_) => Spec::Other,
    }
}
