//! `sglang/srt/speculative/spec_info.py`'s `SpeculativeAlgorithm`, as far as the checks before the
//! speculative hook can know it.

use crate::fields::f;
use crate::rules::Ctx;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Spec {
    None,
    /// NGRAM (any case): the speculative hook keeps it, upper-cased, and needs no draft model.
    Ngram,
    /// Anything else: renamed/validated by the speculative hook, which is not modelled.
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
