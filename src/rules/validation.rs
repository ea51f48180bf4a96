//! Rules from SGLang's `sglang/srt/arg_groups/validation_hook.py`.

#[allow(unused_imports)]
use super::{Ctx, Rule};

/// Every rule in this family.
pub static RULES: &[&Rule] = &[];

/// `validate_prefill_decode_interval`: not modelled yet.
pub fn validate_prefill_decode_interval(_ctx: &mut Ctx) {}

/// `validate_response_store`: not modelled yet.
pub fn validate_response_store(_ctx: &mut Ctx) {}

/// `validate_sampling_mask_max_tokens`: not modelled yet.
pub fn validate_sampling_mask_max_tokens(_ctx: &mut Ctx) {}

/// `handle_aux_hidden_state_capture`: not modelled yet.
pub fn handle_aux_hidden_state_capture(_ctx: &mut Ctx) {}

/// `default_unset_prefill_decode_interval`: not modelled yet.
pub fn default_unset_prefill_decode_interval(_ctx: &mut Ctx) {}

/// `validate_experimental_sgl_marlin`: not modelled yet.
pub fn validate_experimental_sgl_marlin(_ctx: &mut Ctx) {}

/// `check_server_args`: not modelled yet.
pub fn check_server_args(_ctx: &mut Ctx) {}
