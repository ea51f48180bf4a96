//! SGLang's `sglang/srt/arg_groups/boundary_reduction.py::resolve_boundary_reduction`: the
//! collective used at layer boundaries (`--boundary-reduction`), resolved once after the
//! speculative paths. A post-process pass: it raises nothing and logs nothing.
//!
//! `auto` becomes `rs+rsv` for the dummy model, else the model's own default (read from its
//! config's architectures and model type), which is not known here: the value is marked unknown.
//! (The draft's `speculative_boundary_reduction` is not a flag's field.)

use super::{Ctx, Rule};
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::Step;

pub static RULES: &[&Rule] = &[];

/// `resolve_boundary_reduction`.
pub fn resolve_boundary_reduction(ctx: &mut Ctx) -> Step {
    let requested = ctx.cfg.str(f::boundary_reduction).unwrap_or("auto").to_string();
    if requested != "auto" {
        return Ok(());
    }
    let dummy = ctx.cfg.str(f::model_path).is_some_and(|p| p.eq_ignore_ascii_case("none") || p.eq_ignore_ascii_case("dummy"));
    if dummy {
        ctx.cfg.set(f::boundary_reduction, PyValue::Str("rs+rsv".into()));
        return Ok(());
    }
    // model_boundary_reduction(hf_config): no raise site, a value only.
    ctx.cfg.mark_unknown(f::boundary_reduction);
    Ok(())
}
