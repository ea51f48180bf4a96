//! Rules from SGLang's `sglang/srt/arg_groups/platform_hook.py` (the per-platform backend
//! defaults) and the runtime gates `ServerArgs.resolve_once` runs before the pipeline
//! (`hardware_backend/mlx/runtime.py::use_mlx`, `hardware_backend/mps/runtime.py`).
//!
//! What these hooks decide comes from the machine (`get_platform()`: the hardware profile) and
//! from `--device`. The profiles are CUDA, ROCm and CPU machines; a `--device` naming another
//! platform (`hpu`, `npu`, `xpu`, `mps`, `musa`) is a flag like any other to SGLang on such a
//! machine, and its flag-only assignments are reproduced here. What SGLang would do on that
//! platform's own machine needs hardware this build has no profile for: each such command says
//! so (not run, `NotRunReason::Hardware`). `handle_npu_backends` reads the NPU itself
//! (`torch_npu`), so its assignments are unknown here.

use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::{Applicability, Fix};
use crate::fields::f;
use crate::hardware::Platform;
use crate::pyvalue::PyValue;
use crate::rules::shared::cuda_graph_config::{is_locked, phase_value, with_phase, DECODE, DISABLED, FULL};
use crate::rules::shared::envs::env_bool;
use crate::rules::{raises, warns, Step};

pub static MLX_RUNTIME: Rule = Rule {
    code: "PLAT001",
    name: kebab!("mlx-backend-needs-apple-silicon"),
    sglang: raises("hardware_backend.mlx.runtime._validate_runtime", "SGLANG_USE_MLX requires stable Torch 2.13.x and MLX >= 0.32.0, but MLX is not installed"),
    explanation: expl!("SGLANG_USE_MLX=1 opts into the MLX backend for Apple silicon. SGLang validates that runtime before anything else and refuses to start when MLX (with an MPS device) is not there, as on a CUDA, ROCm or x86 CPU server, where MLX is normally not installed (were it installed, SGLang would still stop, on the missing MPS/Metal device). Unset the variable on such machines."),
    flags: &[],
    example_bad: ex!("SGLANG_USE_MLX=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct"),
    example_good: ex!("SGLANG_USE_MLX=0 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static MPS_RUNTIME: Rule = Rule {
    code: "PLAT002",
    name: kebab!("mps-device-not-available"),
    sglang: raises("hardware_backend.mps.runtime.validate_mps_runtime", "The SGLang MPS backend requires an available PyTorch MPS device"),
    explanation: expl!("--device mps runs on Apple silicon's Metal (MPS) device. Before resolving anything SGLang checks that PyTorch sees an MPS device; a CUDA, ROCm or CPU server has none, so it stops. Drop --device (SGLang picks the machine's own device) or run on a Mac."),
    flags: &["--device"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --device mps"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --device cuda"),
};

pub static NPU_WITHOUT_TORCH_NPU: Rule = Rule {
    code: "PLAT003",
    name: kebab!("npu-device-without-torch-npu"),
    sglang: raises("utils.common.get_npu_memory_capacity", "torch_npu is required when run on npu device."),
    explanation: expl!("--device npu runs on Huawei Ascend NPUs. Resolving its defaults, SGLang asks the NPU for its memory through torch_npu, Ascend's PyTorch extension; a CUDA, ROCm or CPU server has neither the NPUs nor torch_npu, so SGLang stops there. Drop --device (SGLang picks the machine's own device) or run on an Ascend machine with torch_npu installed."),
    flags: &["--device"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --device npu"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --device cuda"),
};

pub static NCCL_PRE_WARM_IGNORED: Rule = Rule {
    code: "PLAT101",
    name: kebab!("pre-warm-nccl-ignored-off-gpu"),
    sglang: warns("platform_hook.handle_nccl_pre_warm", "pre_warm_nccl is only applicable for CUDA or HIP hardware"),
    explanation: expl!("--pre-warm-nccl warms up NCCL (or RCCL / HCCL) communicators at start-up; a machine without CUDA, ROCm or Ascend NPUs has none, so SGLang turns the flag off and goes on."),
    flags: &["--pre-warm-nccl"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --pre-warm-nccl"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static SYMM_MEM_UNSUPPORTED: Rule = Rule {
    code: "PLAT102",
    name: kebab!("symm-mem-needs-cuda-or-rocm"),
    sglang: warns("platform_hook.handle_symm_mem_device_support", "--enable-symm-mem is not supported on non CUDA/HIP devices"),
    explanation: expl!("NCCL symmetric memory (--enable-symm-mem) exists only on CUDA and ROCm GPUs (its allocator builds a CUDA plugin linked against NCCL). On other machines SGLang turns it off and goes on."),
    flags: &["--enable-symm-mem"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-symm-mem"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static XPU_DECODE_BACKEND: Rule = Rule {
    code: "PLAT103",
    name: kebab!("xpu-decode-graph-backend-unsupported"),
    sglang: warns("platform_hook.handle_xpu_backends", "XPU platform only supports decode backend 'full'"),
    explanation: expl!("On Intel XPU the decode CUDA graph can only be captured whole ('full') or not at all; another decode backend asked for with --device xpu is replaced by 'disabled' (decode runs eagerly)."),
    flags: &["--device", "--cuda-graph-backend-decode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --device xpu --cuda-graph-backend-decode breakable"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --device xpu --cuda-graph-backend-decode full"),
};

/// Every rule in this family.
pub static RULES: &[&Rule] = &[&MLX_RUNTIME, &MPS_RUNTIME, &NPU_WITHOUT_TORCH_NPU, &NCCL_PRE_WARM_IGNORED, &SYMM_MEM_UNSUPPORTED, &XPU_DECODE_BACKEND];

/// Devices SGLang knows whose machines have no hardware profile here.
const UNPROFILED_DEVICES: [&str; 5] = ["hpu", "npu", "xpu", "mps", "musa"];

/// Whether `--device` names a platform without a hardware profile here.
pub fn unprofiled_device(ctx: &Ctx) -> Option<&'static str> {
    let device = ctx.cfg.str(f::device)?;
    let device = device.split(':').next().unwrap_or_default();
    UNPROFILED_DEVICES.iter().copied().find(|d| *d == device)
}

/// `is_host_cpu_arm64()`: the host CPU of the profile. The recorder's profiles are x86_64 hosts
/// except GB200's Grace CPU (arm64).
fn host_cpu_arm64(ctx: &Ctx) -> bool {
    ctx.hw.preset == "gb200"
}

/// `get_platform().is_cuda or is_hip` (the machine, not `--device`).
fn cuda_or_hip(ctx: &Ctx) -> bool {
    matches!(ctx.hw.platform, Platform::Cuda | Platform::Rocm)
}

/// `ServerArgs.resolve_once` before `run_resolution_pipeline`: `use_mlx()` (which validates the
/// MLX runtime when SGLANG_USE_MLX is set), then the MPS runtime for an explicit `--device mps`.
pub fn resolve_once_runtime_gates(ctx: &mut Ctx) -> Step {
    if env_bool(ctx, "SGLANG_USE_MLX") {
        // _validate_runtime: `import mlx.core` first. None of the profiles is Apple silicon;
        // MLX is not installed there (an installed MLX would fail on the MPS device instead).
        let fix = Fix::advice("Unset SGLANG_USE_MLX (the MLX backend runs on Apple silicon only)");
        ctx.raise(&MLX_RUNTIME, &[], &[], vec![fix])?;
    }
    let explicitly_mps = ctx.cfg.setting(f::device).is_some()
        && ctx.cfg.get(f::device).py_str().split(':').next() == Some("mps");
    if explicitly_mps {
        // validate_mps_runtime: Torch >= 2.13.0 (the release pins 2.14.1), then
        // torch.backends.mps.is_available(): no profile has an MPS device.
        let fixes = vec![
            ctx.fix_remove("Drop --device (use the machine's own device)", f::device, Applicability::Unsafe),
        ];
        ctx.raise(&MPS_RUNTIME, &[], &[f::device], fixes)?;
    }
    Ok(())
}

/// `handle_hardware_runtime_validation`: calls `use_mlx()`, which `resolve_once` already called
/// (and which raised there when SGLANG_USE_MLX is set): see [`resolve_once_runtime_gates`].
pub fn handle_hardware_runtime_validation(_ctx: &mut Ctx) -> Step {
    Ok(())
}

/// `handle_hpu_backends`.
pub fn handle_hpu_backends(ctx: &mut Ctx) -> Step {
    if ctx.cfg.is(f::device, "hpu") {
        ctx.skip_unlisted("platform_hook.handle_hpu_backends", NotRunReason::Hardware);
        ctx.cfg.set(f::attention_backend, PyValue::Str("torch_native".into()));
        ctx.cfg.set(f::sampling_backend, PyValue::Str("pytorch".into()));
    }
    Ok(())
}

/// `handle_cpu_backends`.
pub fn handle_cpu_backends(ctx: &mut Ctx) -> Step {
    if ctx.cfg.is(f::device, "cpu") {
        if ctx.cfg.is_none(f::attention_backend) {
            let backend = if host_cpu_arm64(ctx) { "torch_native" } else { "intel_amx" };
            ctx.cfg.set(f::attention_backend, PyValue::Str(backend.into()));
        }
        ctx.cfg.set(f::sampling_backend, PyValue::Str("pytorch".into()));
    }
    Ok(())
}

/// `handle_npu_backends`: `hardware_backend.npu.utils.set_default_server_args` reads the NPU
/// (`torch_npu`, its memory and SoC). No hardware profile is an Ascend machine with torch_npu:
/// the memory query (`get_npu_memory_capacity`) fails to import it; were one added, what it
/// assigns would be unknown here.
pub fn handle_npu_backends(ctx: &mut Ctx) -> Step {
    if ctx.cfg.is(f::device, "npu") {
        if matches!(ctx.hw.platform, Platform::Cuda | Platform::Rocm | Platform::Cpu) {
            let fixes = vec![ctx.fix_remove("Drop --device (use the machine's own device)", f::device, Applicability::Unsafe)];
            ctx.raise(&NPU_WITHOUT_TORCH_NPU, &[], &[f::device], fixes)?;
        }
        ctx.skip_unlisted("platform_hook.handle_npu_backends", NotRunReason::Hardware);
        for field in [f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend, f::chunked_prefill_size, f::page_size, f::cuda_graph_config] {
            let v = ctx.cfg.get(field).clone();
            ctx.cfg.set_unknown(field, v);
        }
    }
    Ok(())
}

/// `handle_mps_backends`: with `use_mlx()` false (it raised before the pipeline otherwise).
pub fn handle_mps_backends(ctx: &mut Ctx) -> Step {
    if ctx.cfg.is(f::device, "mps") {
        ctx.skip_unlisted("platform_hook.handle_mps_backends", NotRunReason::Hardware);
        if !env_bool(ctx, "SGLANG_USE_MLX") {
            ctx.cfg.set(f::disable_overlap_schedule, PyValue::Bool(true));
        }
    }
    Ok(())
}

/// `handle_xpu_backends`.
pub fn handle_xpu_backends(ctx: &mut Ctx) -> Step {
    if !ctx.cfg.is(f::device, "xpu") {
        return Ok(());
    }
    ctx.skip_unlisted("platform_hook.handle_xpu_backends", NotRunReason::Hardware);
    if ctx.cfg.is_none(f::sampling_backend) && has_intel_xpu_sampling(ctx) {
        ctx.cfg.set(f::sampling_backend, PyValue::Str("intel_xpu".into()));
    }
    if ctx.cfg.is_none(f::enable_fused_qk_norm_rope) {
        ctx.cfg.set(f::enable_fused_qk_norm_rope, PyValue::Bool(true));
    }
    if !is_locked(ctx, DECODE, "backend") {
        with_phase(ctx, DECODE, "backend", PyValue::Str(DISABLED.into()));
        return Ok(());
    }
    let decode = phase_value(ctx, DECODE, "backend");
    if !matches!(decode.as_str(), Some(DISABLED) | Some(FULL)) {
        let shown = decode.py_str();
        let fixes = vec![
            ctx.fix_set("Capture the whole decode step (full)", f::cuda_graph_backend_decode, FULL, Applicability::Unsafe),
            ctx.fix_set("Pin the decode CUDA graph off (what SGLang does)", f::cuda_graph_backend_decode, DISABLED, Applicability::Safe),
        ];
        ctx.warn(&XPU_DECODE_BACKEND, &[("cfg.cuda_graph_config.decode.backend", &shown)], &[f::cuda_graph_backend_decode, f::cuda_graph_config, f::device], fixes);
        with_phase(ctx, DECODE, "backend", PyValue::Str(DISABLED.into()));
    }
    Ok(())
}

/// Whether the release has the `intel_xpu` sampling backend (0.5.18's --sampling-backend choices
/// lack it, and its XPU step sets no sampling default; its fused QK-norm RoPE flag defaults to
/// False, so the other XPU default does not apply either).
fn has_intel_xpu_sampling(ctx: &Ctx) -> bool {
    ctx.release
        .schema
        .action_for_dest("sampling_backend")
        .and_then(|a| a.choices.as_ref())
        .is_some_and(|c| c.iter().any(|v| v.as_str() == Some("intel_xpu")))
}

/// `handle_symm_mem_device_support`.
pub fn handle_symm_mem_device_support(ctx: &mut Ctx) -> Step {
    if ctx.cfg.truthy(f::enable_symm_mem) && !cuda_or_hip(ctx) {
        let fixes = vec![ctx.fix_remove("Drop --enable-symm-mem (SGLang turns it off here)", f::enable_symm_mem, Applicability::Safe)];
        ctx.warn(&SYMM_MEM_UNSUPPORTED, &[], &[f::enable_symm_mem], fixes);
        ctx.cfg.set(f::enable_symm_mem, PyValue::Bool(false));
    }
    Ok(())
}

/// `handle_platform_defaults`: `current_platform.apply_server_args_defaults`, a plugin interface
/// that no in-tree platform implements (the base is a no-op): nothing to do for the profiles.
pub fn handle_platform_defaults(_ctx: &mut Ctx) -> Step {
    Ok(())
}

/// `handle_amd_specifics`. (It also sets the process environment's GPU_PINNED_MIN_XFER_SIZE
/// default: not a field.)
pub fn handle_amd_specifics(ctx: &mut Ctx) -> Step {
    if ctx.hw.platform == Platform::Rocm {
        ctx.cfg.set(f::triton_attention_num_kv_splits, PyValue::Int(16));
    }
    Ok(())
}

/// `handle_nccl_pre_warm`: CUDA, HIP or NPU machines only (no profile is an NPU machine).
pub fn handle_nccl_pre_warm(ctx: &mut Ctx) -> Step {
    if ctx.cfg.truthy(f::pre_warm_nccl) && !cuda_or_hip(ctx) {
        let fixes = vec![ctx.fix_remove("Drop --pre-warm-nccl (SGLang ignores it here)", f::pre_warm_nccl, Applicability::Safe)];
        ctx.warn(&NCCL_PRE_WARM_IGNORED, &[], &[f::pre_warm_nccl], fixes);
        ctx.cfg.set(f::pre_warm_nccl, PyValue::Bool(false));
    }
    Ok(())
}

/// `overrides._sampling_backend_default` (a post-process pass): flashinfer when
/// `get_platform().has_flashinfer` (`is_flashinfer_available`: SGLANG_IS_FLASHINFER_AVAILABLE
/// not false, the package importable, and a CUDA machine), else pytorch.
pub fn sampling_backend_default(ctx: &mut Ctx) -> Step {
    if ctx.cfg.is_none(f::sampling_backend) {
        let has_flashinfer = ctx.env_bool("SGLANG_IS_FLASHINFER_AVAILABLE", true) && ctx.hw.flashinfer && ctx.hw.is_cuda();
        let backend = if has_flashinfer { "flashinfer" } else { "pytorch" };
        ctx.cfg.set(f::sampling_backend, PyValue::Str(backend.into()));
    }
    Ok(())
}
