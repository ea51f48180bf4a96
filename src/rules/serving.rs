//! Rules from SGLang's `sglang/srt/arg_groups/serving_hook.py`.

#[allow(unused_imports)]
use super::{Ctx, Rule};

/// Every rule in this family.
pub static RULES: &[&Rule] = &[];

/// `handle_return_hidden_states_mode`: not modelled yet.
pub fn handle_return_hidden_states_mode(_ctx: &mut Ctx) {}

/// `handle_media_url_security`: not modelled yet.
pub fn handle_media_url_security(_ctx: &mut Ctx) {}

/// `handle_watermark_config`: not modelled yet.
pub fn handle_watermark_config(_ctx: &mut Ctx) {}

/// `handle_multimodal`: not modelled yet.
pub fn handle_multimodal(_ctx: &mut Ctx) {}

/// `handle_ssl_validation`: not modelled yet.
pub fn handle_ssl_validation(_ctx: &mut Ctx) {}

/// `handle_asr_validation`: not modelled yet.
pub fn handle_asr_validation(_ctx: &mut Ctx) {}

/// `handle_deprecated_args`: not modelled yet.
pub fn handle_deprecated_args(_ctx: &mut Ctx) {}

/// `handle_prefill_delayer_env_compat`: not modelled yet.
pub fn handle_prefill_delayer_env_compat(_ctx: &mut Ctx) {}

/// `handle_missing_default_values`: not modelled yet.
pub fn handle_missing_default_values(_ctx: &mut Ctx) {}

/// `handle_grammar_backend`: not modelled yet.
pub fn handle_grammar_backend(_ctx: &mut Ctx) {}

/// `handle_load_balance_method`: not modelled yet.
pub fn handle_load_balance_method(_ctx: &mut Ctx) {}

/// `handle_tokenizer_batching`: not modelled yet.
pub fn handle_tokenizer_batching(_ctx: &mut Ctx) {}

/// `handle_environment_variables`: not modelled yet.
pub fn handle_environment_variables(_ctx: &mut Ctx) {}

/// `handle_crash_dump_env`: not modelled yet.
pub fn handle_crash_dump_env(_ctx: &mut Ctx) {}

/// `handle_debug_utils`: not modelled yet.
pub fn handle_debug_utils(_ctx: &mut Ctx) {}

/// `handle_other_validations`: not modelled yet.
pub fn handle_other_validations(_ctx: &mut Ctx) {}
