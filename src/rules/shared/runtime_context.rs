//! `sglang/srt/runtime_context.py`: facts about the deployment that several hooks derive the
//! same way.

use crate::fields::f;
use crate::rules::Ctx;

/// `runtime_context.attn_dp_enabled_of`: attention DP runs (`attn_dp_size > 1`) or this
/// process joins an attention-DP deployment (`ep_join_mode == "scale"`). In a release without
/// `--attn-dp-size` (0.5.18) attention DP is `--enable-dp-attention` over `--dp-size` groups:
/// `resolved.enable_dp_attention` (cleared for `dp_size == 1` by `_data_parallelism_defaults`).
pub fn attn_dp_enabled(ctx: &Ctx) -> bool {
    if legacy_dp_attention(ctx) {
        return ctx.cfg.truthy(f::enable_dp_attention);
    }
    ctx.cfg.int(f::attn_dp_size).unwrap_or(1) > 1 || ctx.cfg.is(f::ep_join_mode, "scale")
}

/// Whether the checked release names attention DP `--enable-dp-attention` with `--dp-size`
/// groups (it has no `--attn-dp-size`, so `handle_deprecated_dp_attention` does not fold them).
pub fn legacy_dp_attention(ctx: &Ctx) -> bool {
    ctx.release.schema.flag_of(f::attn_dp_size).is_none()
}

/// `runtime_context.num_dp_ranks_of`: replicas times attention-DP groups.
pub fn num_dp_ranks(ctx: &Ctx) -> i64 {
    ctx.cfg.int(f::dp_size).unwrap_or(1) * ctx.cfg.int(f::attn_dp_size).unwrap_or(1)
}

/// `torch.version.cuda >= (major, minor)` (False without CUDA).
fn cuda_at_least(hw: &crate::hardware::Hardware, want: (u32, u32)) -> bool {
    let Some(v) = hw.cuda_version else { return false };
    let mut parts = v.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let major = parts.next().unwrap_or(0);
    let minor = parts.next().unwrap_or(0);
    (major, minor) >= want
}

/// `utils.common._check_cuda_device_version`: a CUDA device whose compute-capability major is
/// one of `majors`, with at least CUDA `cuda`.
fn cuda_device(hw: &crate::hardware::Hardware, majors: &[u32], cuda: (u32, u32)) -> bool {
    hw.is_cuda() && majors.contains(&hw.capability.0) && cuda_at_least(hw, cuda)
}

/// `get_platform().is_sm90` / `is_hopper_with_cuda_12_3`.
pub fn is_sm90(hw: &crate::hardware::Hardware) -> bool {
    cuda_device(hw, &[9], (12, 3))
}

/// `get_platform().is_sm100`.
pub fn is_sm100(hw: &crate::hardware::Hardware) -> bool {
    cuda_device(hw, &[10], (12, 8))
}

/// `get_platform().is_sm100_or_sm110`.
pub fn is_sm100_or_sm110(hw: &crate::hardware::Hardware) -> bool {
    cuda_device(hw, &[10, 11], (12, 8))
}

/// `get_platform().is_sm120`.
pub fn is_sm120(hw: &crate::hardware::Hardware) -> bool {
    cuda_device(hw, &[12], (12, 8))
}

/// `get_platform().is_blackwell` (SM100, SM110, SM120).
pub fn is_blackwell(hw: &crate::hardware::Hardware) -> bool {
    cuda_device(hw, &[10, 11, 12], (12, 8))
}

/// `get_platform().has_flashinfer` (`is_flashinfer_available`): the package is there, on CUDA,
/// unless `SGLANG_IS_FLASHINFER_AVAILABLE` says no.
pub fn has_flashinfer(ctx: &Ctx) -> bool {
    let allowed = match ctx.env("SGLANG_IS_FLASHINFER_AVAILABLE") {
        Some(v) => matches!(v.to_ascii_lowercase().as_str(), "true" | "1"),
        None => true,
    };
    allowed && ctx.hw.flashinfer && ctx.hw.is_cuda()
}

/// `memory_hook.handle_gpu_memory_settings`'s `chunked_prefill_size` for a GPU of `gpu_mem_mib`
/// when the command leaves it unset (read by hooks that run before it).
pub fn default_chunked_prefill_size(gpu_mem_mib: u64) -> i64 {
    if gpu_mem_mib < 20 * 1024 {
        2048
    } else if gpu_mem_mib < 60 * 1024 {
        4096
    } else if gpu_mem_mib < 160 * 1024 {
        8192
    } else {
        16384
    }
}
