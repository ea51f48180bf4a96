//! Rules from SGLang's `sglang/srt/arg_groups/hicache_hook.py`.

#[allow(unused_imports)]
use super::{Ctx, Rule};

/// Every rule in this family.
pub static RULES: &[&Rule] = &[];

/// `handle_hicache_ratio_default`: not modelled yet.
pub fn handle_hicache_ratio_default(_ctx: &mut Ctx) {}

/// `handle_hicache`: not modelled yet.
pub fn handle_hicache(_ctx: &mut Ctx) {}
