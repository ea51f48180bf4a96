//! `sglang/srt/arg_groups/overrides.py`: constants several hooks decide by.

/// `overrides._A2A_EP_SPANNING_BACKENDS`: the MoE all-to-all backends for which `_a2a_ep_size`
/// sets `ep_size` to `tp_size`.
pub const A2A_EP_SPANNING_BACKENDS: &[&str] =
    &["megamoe", "deepep", "deepep_v2", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "flashinfer_megamoe", "mori", "pplx"];
