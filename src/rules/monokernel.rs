//! SGLang's `sglang/srt/kernel_plugins/amd/binding.py::handle_amd_monokernel`
//! (`--enable-amd-monokernel`, formerly `--monokernel-backend amd`).
//!
//! It raises one `ValueError` listing every reason the setup cannot run
//! (`monokernel_disable_reasons`: the registered monokernel backend on the serving machine, the
//! model's architecture and sizes, the device's ISA), then fits the decode CUDA-graph batch
//! sizes to the kernel's widths. Both need the model's config: reported as not run.

use super::{Ctx, Rule};
use crate::fields::f;
use crate::rules::{site, Step};

pub static RULES: &[&Rule] = &[];

/// `handle_amd_monokernel`.
pub fn handle_amd_monokernel(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.truthy(f::enable_amd_monokernel) {
        return Ok(());
    }
    ctx.model_config(site("kernel_plugins.amd.binding.handle_amd_monokernel", "{FLAG} cannot run this setup"));
    Ok(())
}
