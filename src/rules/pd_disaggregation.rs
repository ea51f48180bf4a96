//! Rules from SGLang's `sglang/srt/arg_groups/pd_disaggregation_hook.py`.

#[allow(unused_imports)]
use super::{Ctx, Rule};

/// Every rule in this family.
pub static RULES: &[&Rule] = &[];

/// `handle_pd_disaggregation`: not modelled yet.
pub fn handle_pd_disaggregation(_ctx: &mut Ctx) {}

/// `handle_encoder_disaggregation`: not modelled yet.
pub fn handle_encoder_disaggregation(_ctx: &mut Ctx) {}
