//! Rules from SGLang's `sglang/srt/arg_groups/kv_cache_hook.py`.

#[allow(unused_imports)]
use super::{Ctx, Rule};

/// Every rule in this family.
pub static RULES: &[&Rule] = &[];

/// `validate_prefill_only_disable_kv_cache_args`: not modelled yet.
pub fn validate_prefill_only_disable_kv_cache_args(_ctx: &mut Ctx) {}

/// `handle_nvfp4_prefill_kv_dequant_dtype`: not modelled yet.
pub fn handle_nvfp4_prefill_kv_dequant_dtype(_ctx: &mut Ctx) {}

/// `handle_kv4_compatibility`: not modelled yet.
pub fn handle_kv4_compatibility(_ctx: &mut Ctx) {}

/// `handle_mxfp8_kv_cache_compatibility`: not modelled yet.
pub fn handle_mxfp8_kv_cache_compatibility(_ctx: &mut Ctx) {}

/// `handle_prefill_only_disable_kv_cache`: not modelled yet.
pub fn handle_prefill_only_disable_kv_cache(_ctx: &mut Ctx) {}

/// `handle_cache_compatibility`: not modelled yet.
pub fn handle_cache_compatibility(_ctx: &mut Ctx) {}

/// `handle_page_major_kv_layout`: not modelled yet.
pub fn handle_page_major_kv_layout(_ctx: &mut Ctx) {}

/// `handle_unified_memory_pool`: not modelled yet.
pub fn handle_unified_memory_pool(_ctx: &mut Ctx) {}
