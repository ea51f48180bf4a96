//! SGLang's `sglang/srt/arg_groups/expert_pack_hook.py` (`handle_expert_pack`, with
//! `model_loader/expert_pack_runtime.py` where it prepares a raw GGUF). With
//! `--load-format expert_pack` SGLang collects every problem into one message, and most of them
//! are about files on the serving machine (the pack, its manifest, the model directory or GGUF
//! shard, the model's config): the check is listed as not run, and what it writes when it passes
//! (CUDA graph and shared-experts fusion off) is written as unknown.

use super::{Ctx, NotRunReason};
use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::{site, Step};

/// `handle_expert_pack`.
pub fn handle_expert_pack(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.is(f::load_format, "expert_pack") {
        return Ok(());
    }
    ctx.skip(site("expert_pack_hook.handle_expert_pack", "Invalid expert_pack configuration:"), NotRunReason::Files);
    ctx.cfg.set_unknown(f::disable_cuda_graph, PyValue::Bool(true));
    ctx.cfg.set_unknown(f::disable_shared_experts_fusion, PyValue::Bool(true));
    Ok(())
}
