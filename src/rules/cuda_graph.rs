//! Rules from SGLang's `sglang/srt/arg_groups/cuda_graph_hook.py`.

#[allow(unused_imports)]
use super::{Ctx, Rule};

/// Every rule in this family.
pub static RULES: &[&Rule] = &[];

/// `apply_inkling_prefill_cuda_graph_default`: not modelled yet.
pub fn apply_inkling_prefill_cuda_graph_default(_ctx: &mut Ctx) {}

/// `apply_muse_glimmer_prefill_cuda_graph_max_bs_default`: not modelled yet.
pub fn apply_muse_glimmer_prefill_cuda_graph_max_bs_default(_ctx: &mut Ctx) {}

/// `handle_cuda_graph_config`: not modelled yet.
pub fn handle_cuda_graph_config(_ctx: &mut Ctx) {}

/// `disable_prefill_cuda_graph_for_deepseek_trtllm_mla`: not modelled yet.
pub fn disable_prefill_cuda_graph_for_deepseek_trtllm_mla(_ctx: &mut Ctx) {}

/// `apply_prefill_cp_cuda_graph_default`: not modelled yet.
pub fn apply_prefill_cp_cuda_graph_default(_ctx: &mut Ctx) {}

/// `finalize_cuda_graph_prefill_max_context`: not modelled yet.
pub fn finalize_cuda_graph_prefill_max_context(_ctx: &mut Ctx) {}
