//! `sglang/srt/arg_groups/overrides.py`: constants several hooks decide by.

/// `overrides._A2A_EP_SPANNING_BACKENDS`: the MoE all-to-all backends for which `_a2a_ep_size`
/// sets `ep_size` to `tp_size`.
pub const A2A_EP_SPANNING_BACKENDS: &[&str] =
    &["megamoe", "deepep", "deepep_v2", "mooncake", "nixl", "ascend_fuseep", "flashinfer", "flashinfer_megamoe", "mori", "pplx"];

use crate::fields::f;
use crate::pyvalue::PyValue;
use crate::rules::{warns, Ctx, Rule, Step};

pub static PP_DISABLES_OVERLAP: Rule = Rule {
    code: "OVR001",
    name: "pipeline-parallel-disables-overlap-schedule",
    sglang: warns("overrides._pipeline_parallel_overlap_disable", "Pipeline parallelism is incompatible with overlap schedule."),
    explanation: "With pipeline parallelism (--pp-size above 1) SGLang runs without the overlap scheduler (CPU scheduling is not overlapped with GPU work), as --disable-overlap-schedule does.",
    flags: &["--pp-size", "--disable-overlap-schedule"],
    example_bad: "--model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2",
    example_good: "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2",
};

/// The rules of `overrides.py`'s passes that run as pipeline steps of their own.
pub static RULES: &[&Rule] = &[&PP_DISABLES_OVERLAP];

/// `_pipeline_parallel_overlap_disable` (a post-process pass run as a pipeline step).
pub fn pipeline_parallel_overlap_disable(ctx: &mut Ctx) -> Step {
    if ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 {
        let fixes = if ctx.cfg.truthy(f::disable_overlap_schedule) {
            vec![]
        } else {
            // SGLang logs this with or without the flag: advice, not an edit leaving the warning.
            vec![crate::diagnostic::Fix::advice("To make it explicit, write --disable-overlap-schedule (SGLang still logs this)")]
        };
        ctx.warn(&PP_DISABLES_OVERLAP, &[], &[f::pp_size], fixes);
        ctx.cfg.set(f::disable_overlap_schedule, PyValue::Bool(true));
    }
    Ok(())
}
