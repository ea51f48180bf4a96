//! SGLang's `sglang/srt/kernel_plugins/nvidia/binding.py::handle_nvidia_megakernel`
//! (`--enable-nvidia-megakernel`).
//!
//! It raises one `ValueError` listing every reason the setup cannot run: whether the
//! `nvidia_megakernel` plugin is installed on the serving machine, then the model's
//! architecture, sizes and dtypes (`megakernel_disable_reasons`), and `--enable-amd-monokernel`
//! given too. The message lists them all, so it cannot be written without the model's config
//! and the machine's packages: the check is reported as not run.

use super::{Ctx, Rule};
use crate::fields::f;
use crate::rules::{site, Step};

pub static RULES: &[&Rule] = &[];

/// `handle_nvidia_megakernel`.
pub fn handle_nvidia_megakernel(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.truthy(f::enable_nvidia_megakernel) {
        return Ok(());
    }
    ctx.model_config(site("kernel_plugins.nvidia.binding.handle_nvidia_megakernel", "{FLAG} cannot run this setup"));
    Ok(())
}
