//! `sglang/srt/runtime_context.py`: facts about the deployment that several hooks derive the
//! same way.

use crate::fields::f;
use crate::rules::Ctx;

/// `runtime_context.attn_dp_enabled_of`: attention DP runs (`attn_dp_size > 1`) or this
/// process joins an attention-DP deployment (`ep_join_mode == "scale"`).
pub fn attn_dp_enabled(ctx: &Ctx) -> bool {
    ctx.cfg.int(f::attn_dp_size).unwrap_or(1) > 1 || ctx.cfg.is(f::ep_join_mode, "scale")
}

/// `runtime_context.num_dp_ranks_of`: replicas times attention-DP groups.
pub fn num_dp_ranks(ctx: &Ctx) -> i64 {
    ctx.cfg.int(f::dp_size).unwrap_or(1) * ctx.cfg.int(f::attn_dp_size).unwrap_or(1)
}
