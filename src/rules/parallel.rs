//! Rules from SGLang's `sglang/srt/arg_groups/parallel_hook.py`.

#[allow(unused_imports)]
use super::{Ctx, Rule};

/// Every rule in this family.
pub static RULES: &[&Rule] = &[];

/// `handle_deprecated_dp_attention`: not modelled yet.
pub fn handle_deprecated_dp_attention(_ctx: &mut Ctx) {}

/// `validate_prefill_cp_platform`: not modelled yet.
pub fn validate_prefill_cp_platform(_ctx: &mut Ctx) {}

/// `handle_decode_context_parallelism`: not modelled yet.
pub fn handle_decode_context_parallelism(_ctx: &mut Ctx) {}

/// `handle_dwdp`: not modelled yet.
pub fn handle_dwdp(_ctx: &mut Ctx) {}

/// `handle_data_parallelism`: not modelled yet.
pub fn handle_data_parallelism(_ctx: &mut Ctx) {}

/// `handle_context_parallelism`: not modelled yet.
pub fn handle_context_parallelism(_ctx: &mut Ctx) {}

/// `handle_shared_experts_tp`: not modelled yet.
pub fn handle_shared_experts_tp(_ctx: &mut Ctx) {}

/// `handle_eplb_and_dispatch`: not modelled yet.
pub fn handle_eplb_and_dispatch(_ctx: &mut Ctx) {}

/// `handle_expert_distribution_metrics`: not modelled yet.
pub fn handle_expert_distribution_metrics(_ctx: &mut Ctx) {}

/// `handle_elastic_ep`: not modelled yet.
pub fn handle_elastic_ep(_ctx: &mut Ctx) {}
