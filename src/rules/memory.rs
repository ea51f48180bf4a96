//! Rules from SGLang's `sglang/srt/arg_groups/memory_hook.py`: the PLE offload checks and the
//! GPU-memory heuristics (`handle_gpu_memory_settings`): `chunked_prefill_size`, the decode and
//! prefill CUDA-graph batch sizes, `torch_compile_max_bs` on CPU and `mem_fraction_static`,
//! from the machine's memory (the hardware profile).
//!
//! What is not known here is marked so on the resolved configuration, never guessed:
//! - `mem_fraction_static` (when not given) needs the model's config (`is_multimodal`, the ViT
//!   size, MLA) and is unknown; the value kept is the one for a text-only, non-MLA model.
//! - the prefill CUDA-graph `max_bs` defaults to `chunked_prefill_size`, capped at 8192 for MLA
//!   models: above 8192 it needs the model's attention architecture.
//! - on a CPU machine the memory is per NUMA node (`get_cpu_memory_capacity`), which the profile
//!   does not give: the sizes derived from it are unknown.
//! - the Qwen3-VL decode-graph expansion needs the model's type on large Hopper GPUs.

use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::{Applicability, Edit, Fix};
use crate::fields::f;
use crate::hardware::Platform;
use crate::pyvalue::PyValue;
use crate::rules::shared::cuda_graph_config::{dict_get, dict_set, is_locked, prefill_batch_sizes, BREAKABLE, DECODE, DISABLED, PREFILL};
use crate::rules::shared::runtime_context::attn_dp_enabled;
use crate::rules::{raises, site, warns, Step};

pub static PLE_WITH_LAYER_OFFLOAD: Rule = Rule {
    code: "MEM001",
    name: kebab!("ple-offload-with-layer-offload"),
    sglang: raises("memory_hook.handle_offload_compatibility", "--ple-offload-embedding cannot be combined with"),
    explanation: expl!("--ple-offload-embedding keeps the per-layer-embedding (PLE) table pinned in host memory; generic layer offload (--cpu-offload-gb above 0 or --offload-group-size above 0) would copy that table back to the GPU, so SGLang refuses the combination. Use one or the other."),
    flags: &["--ple-offload-embedding", "--cpu-offload-gb", "--offload-group-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --ple-offload-embedding --cpu-offload-gb 4"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --ple-offload-embedding"),
};

pub static PLE_FILE_NEEDS_OFFLOAD: Rule = Rule {
    code: "MEM002",
    name: kebab!("ple-file-backend-needs-ple-offload"),
    sglang: raises("memory_hook.handle_offload_compatibility", "--ple-offload-backend file requires --ple-offload-embedding"),
    explanation: expl!("The 'file' PLE backend is where the offloaded per-layer-embedding table lives, so it cannot be used with the PLE offload turned off (--no-ple-offload-embedding). Turn the offload on, or keep the default backend."),
    flags: &["--ple-offload-backend", "--no-ple-offload-embedding"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --ple-offload-backend file --no-ple-offload-embedding"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --ple-offload-backend file --ple-offload-embedding"),
};

pub static CPU_GRAPH_BS_POSITIVE: Rule = Rule {
    code: "MEM003",
    name: kebab!("cpu-graph-batch-sizes-not-positive"),
    sglang: raises("memory_hook.handle_gpu_memory_settings", "cuda_graph_config[decode].bs should contain positive batch sizes"),
    explanation: expl!("On the CPU device the decode graph is built with torch.compile up to --torch-compile-max-bs (or the largest of the decode batch sizes given with --cuda-graph-bs-decode). That limit must be at least 1."),
    flags: &["--torch-compile-max-bs", "--cuda-graph-bs-decode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --device cpu --torch-compile-max-bs -1"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --device cpu --torch-compile-max-bs 16"),
};

pub static SYMM_MEM_PREALLOC_DEFAULT: Rule = Rule {
    code: "MEM101",
    name: kebab!("symm-mem-prealloc-default"),
    sglang: warns("memory_hook.handle_gpu_memory_settings", "Symmetric memory is enabled, setting symmetric memory prealloc size"),
    explanation: expl!("With --enable-symm-mem SGLang preallocates an NCCL symmetric-memory pool per GPU; unless SGLANG_SYMM_MEM_PREALLOC_GB_SIZE says how large, it takes 4 GB and says so. That memory is not available to the KV cache."),
    flags: &["--enable-symm-mem"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8 --enable-symm-mem"),
    example_good: ex!("SGLANG_SYMM_MEM_PREALLOC_GB_SIZE=4 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 8 --enable-symm-mem"),
};

pub static CPU_MEMORY_UNKNOWN: Rule = Rule {
    code: "MEM102",
    name: kebab!("cpu-memory-unknown-with-omp-binding"),
    sglang: warns("utils.common.get_cpu_memory_capacity", "SGLANG_CPU_OMP_THREADS_BIND is set for explicit control"),
    explanation: expl!("On the CPU device SGLang sizes its defaults from the host memory of one NUMA node. With the OpenMP threads of each TP rank bound by hand (SGLANG_CPU_OMP_THREADS_BIND) it cannot tell which memory a rank gets, so it falls back to small defaults (chunked prefill 4096, mem_fraction_static 0.95) and asks for --max-total-tokens to keep the KV cache within memory."),
    flags: &["--device"],
    example_bad: ex!("SGLANG_CPU_OMP_THREADS_BIND=0-31 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --device cpu"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --device cpu"),
};

/// Every rule in this family.
pub static RULES: &[&Rule] = &[&PLE_WITH_LAYER_OFFLOAD, &PLE_FILE_NEEDS_OFFLOAD, &CPU_GRAPH_BS_POSITIVE, &SYMM_MEM_PREALLOC_DEFAULT, &CPU_MEMORY_UNKNOWN];

const DEFAULT_PP_PREFILL_CUDA_GRAPH_MAX_TOKENS: i64 = 8192;

/// `handle_offload_compatibility`. The pipeline runs it twice (again after the model overrides,
/// which may declare the PLE default); the second run sees what the first saw unless a model
/// override changed it, so a finding of the first is not reported twice.
pub fn handle_offload_compatibility(ctx: &mut Ctx) -> Step {
    if ctx.diagnostics.iter().any(|d| d.code == PLE_WITH_LAYER_OFFLOAD.code || d.code == PLE_FILE_NEEDS_OFFLOAD.code) {
        return Ok(());
    }
    let gt0 = |v: &PyValue| v.as_float().is_some_and(|x| x > 0.0);
    if ctx.cfg.truthy(f::ple_offload_embedding) && (gt0(ctx.cfg.get(f::cpu_offload_gb)) || gt0(ctx.cfg.get(f::offload_group_size))) {
        let mut fixes = Vec::new();
        if ctx.cfg.is_explicit(f::cpu_offload_gb) {
            fixes.push(ctx.fix_remove("Drop --cpu-offload-gb (keep the PLE offload)", f::cpu_offload_gb, Applicability::Unsafe));
        }
        if ctx.cfg.is_explicit(f::offload_group_size) {
            fixes.push(ctx.fix_remove("Drop --offload-group-size (keep the PLE offload)", f::offload_group_size, Applicability::Unsafe));
        }
        fixes.push(ctx.fix_remove("Drop --ple-offload-embedding (keep the layer offload)", f::ple_offload_embedding, Applicability::Unsafe));
        ctx.raise(&PLE_WITH_LAYER_OFFLOAD, &[], &[f::ple_offload_embedding, f::cpu_offload_gb, f::offload_group_size], fixes)?;
    }
    if ctx.cfg.is(f::ple_offload_backend, "file") && ctx.cfg.get(f::ple_offload_embedding) == &PyValue::Bool(false) {
        let mut fixes = Vec::new();
        if let Some(place) = ctx.cfg.setting_place(f::ple_offload_embedding).filter(|p| !p.from_config) {
            fixes.push(Fix {
                title: "Turn the PLE offload on (--ple-offload-embedding)".into(),
                applicability: Applicability::Unsafe,
                edits: vec![Edit { start: place.whole_span.start, end: place.whole_span.end, replacement: "--ple-offload-embedding".into() }],
            });
        }
        fixes.push(ctx.fix_remove("Drop --ple-offload-backend file", f::ple_offload_backend, Applicability::Unsafe));
        ctx.raise(&PLE_FILE_NEEDS_OFFLOAD, &[], &[f::ple_offload_backend, f::ple_offload_embedding], fixes)?;
    }
    Ok(())
}

/// The machine's memory as `get_device_memory_capacity(cfg.device)` reports it, in MiB
/// (`Known(None)`: SGLang has no figure and uses its fallbacks), or `Unknown`.
enum GpuMem {
    Known(Option<f64>),
    Unknown,
}

fn device_memory_capacity(ctx: &mut Ctx, device: &str) -> GpuMem {
    match ctx.hw.platform {
        // is_cuda() / is_hip() come first, whatever --device says.
        Platform::Cuda | Platform::Rocm => GpuMem::Known(Some(ctx.hw.gpu_mem_mib as f64)),
        Platform::Cpu => match device {
            "cpu" => {
                // get_cpu_memory_capacity: host memory per NUMA node, unless the OMP threads
                // are bound by hand (then SGLang does not know, and says so).
                if ctx.env("SGLANG_CPU_OMP_THREADS_BIND").is_some_and(|v| !v.is_empty()) {
                    let fixes = vec![Fix::advice("Give --max-total-tokens so the KV cache fits each rank's memory")];
                    ctx.warn(&CPU_MEMORY_UNKNOWN, &[], &[f::device], fixes);
                    GpuMem::Known(None)
                } else {
                    GpuMem::Unknown
                }
            }
            "mps" | "hpu" | "npu" | "xpu" | "musa" => GpuMem::Unknown,
            _ => GpuMem::Known(None),
        },
    }
}

/// `generate_decode_cuda_graph_batch_sizes` (cuda_graph_hook).
fn decode_batch_sizes(ctx: &Ctx, max_bs: i64) -> Vec<i64> {
    let mut v: Vec<i64> = if ctx.cfg.truthy(f::disable_cuda_graph_padding) {
        (1..=max_bs).collect()
    } else if ctx.cfg.is_none(f::speculative_algorithm) {
        // up to 512: 5 + 31 + 15 sizes, and max_bs, in one allocation
        let mut v = Vec::with_capacity(64);
        v.extend([1, 2, 4, 8, 12]);
        v.extend((16..257).step_by(8));
        v.extend((272..512).step_by(16));
        if max_bs >= 512 {
            v.extend((512..=max_bs).step_by(32));
        }
        v
    } else {
        let mut v: Vec<i64> = Vec::with_capacity(64);
        v.extend(1..9);
        v.extend((10..33).step_by(2));
        v.extend((40..65).step_by(4));
        v.extend((72..257).step_by(8));
        if max_bs >= 272 {
            v.extend((272..=max_bs).step_by(16));
        }
        v
    };
    v.retain(|b| *b <= max_bs);
    if !v.contains(&max_bs) {
        v.push(max_bs);
    }
    v
}

/// `generate_cpu_graph_batch_sizes` (cuda_graph_hook), for `torch_compile_max_bs` = `max_bs`.
fn cpu_batch_sizes(ctx: &Ctx, max_bs: i64) -> Vec<i64> {
    let mut v: Vec<i64> = if ctx.cfg.truthy(f::disable_cuda_graph_padding) {
        (1..=max_bs).collect()
    } else {
        // Built by insert: collecting into a BTreeSet sorts first (a stable sort of its own in the wasm).
        let mut set = std::collections::BTreeSet::new();
        set.extend(1..17);
        set.extend((18..31).step_by(2));
        set.extend((32..81).step_by(4));
        if max_bs >= 84 {
            set.extend((84..=max_bs).step_by(8));
        }
        set.insert(max_bs);
        set.into_iter().collect()
    };
    v.retain(|b| *b <= max_bs);
    v
}


fn ints(v: &[i64]) -> PyValue {
    PyValue::List(v.iter().map(|b| PyValue::Int(*b)).collect())
}

/// A phase's key in the local copy of the CUDA-graph config.
fn get<'a>(config: &'a PyValue, phase: &str, key: &str) -> &'a PyValue {
    static NONE: PyValue = PyValue::None;
    dict_get(config, phase).and_then(|p| dict_get(p, key)).unwrap_or(&NONE)
}

fn put(config: &mut PyValue, phase: &str, key: &str, value: PyValue) {
    if let PyValue::Dict(phases) = config {
        if let Some((_, fields)) = phases.iter_mut().find(|(n, _)| n == phase) {
            dict_set(fields, key, value);
        }
    }
}

/// A batch-size list as ints (None when an element is not one).
fn int_list(v: &PyValue) -> Option<Vec<i64>> {
    v.as_list()?.iter().map(PyValue::as_int).collect()
}

/// Python's `round(x, 3)` (correctly rounded, ties to even).
fn round3(x: f64) -> f64 {
    format!("{x:.3}").parse().unwrap_or(x)
}

/// SGLang 0.5.18's `ServerArgs._handle_gpu_memory_settings` (a release before the hook modules,
/// `function-map.json`): 2048 tokens and 24/80 decode graphs on 20-35 GiB GPUs, 2048 prefill
/// graph tokens for MLA models, and neither the max-running-requests clamp, the Qwen3-VL decode
/// expansion nor the pipeline-parallel prefill-graph cap.
fn legacy_memory_settings(ctx: &Ctx) -> bool {
    ctx.release.data.before_hook_modules()
}

/// `handle_gpu_memory_settings`.
pub fn handle_gpu_memory_settings(ctx: &mut Ctx) -> Step {
    const ASSERT: crate::release::SiteRef = site("memory_hook.handle_gpu_memory_settings", "cuda_graph_config[decode].bs should contain positive batch sizes");
    let device = ctx.cfg.str(f::device).unwrap_or_default().to_string();
    let gpu = device_memory_capacity(ctx, &device);
    let mem_unknown = matches!(gpu, GpuMem::Unknown);
    if mem_unknown && device != "cpu" {
        // the device's own memory probe on a machine of another kind
        ctx.skip_unlisted("memory_hook.handle_gpu_memory_settings", NotRunReason::Hardware);
    }
    // The figure kept when unknown: a large host's (the buckets are the same above 160 GiB).
    let gpu_mem: Option<f64> = match gpu {
        GpuMem::Known(m) => m,
        GpuMem::Unknown => Some((ctx.hw.host_mem_gib * 1024) as f64),
    };
    let legacy = legacy_memory_settings(ctx);
    // Set before the CUDA graph config is read: SGLang derives it from the GPU memory alone, so a
    // graph config not known here does not make it unknown.
    if ctx.cfg.is_none(f::chunked_prefill_size) {
        let chunked = match gpu_mem {
            Some(m) if m < 20.0 * 1024.0 => 2048,
            Some(m) if m < 35.0 * 1024.0 && legacy => 2048,
            Some(m) if m < 60.0 * 1024.0 => 4096,
            Some(m) if m < 160.0 * 1024.0 => 8192,
            Some(_) => 16384,
            None => 4096,
        };
        if mem_unknown {
            ctx.cfg.set_unknown(f::chunked_prefill_size, PyValue::Int(chunked));
        } else {
            ctx.cfg.set(f::chunked_prefill_size, PyValue::Int(chunked));
        }
    }
    // Updated in place and set at the end: moved out when a step derived it (handle_cuda_graph_config
    // does), else copied. Nothing below reads it through `ctx.cfg` until it is set again.
    let taken = ctx.cfg.take_derived(f::cuda_graph_config);
    let was_taken = taken.is_some();
    let mut config = match taken {
        Some(v) => v,
        None => ctx.cfg.get(f::cuda_graph_config).clone(),
    };
    if !matches!(config, PyValue::Dict(_)) {
        if was_taken {
            ctx.cfg.put_back(f::cuda_graph_config, config);
        }
        return Ok(());
    }
    // Whether the local copy holds a value not known here.
    let mut config_unknown = ctx.cfg.read_unknown();
    // The CPU path can stop before the new value is set: the old one stays then.
    let unchanged = (was_taken && device == "cpu").then(|| config.clone());
    let decode_max_bs_is_default = get(&config, DECODE, "max_bs").is_none();
    let tp = ctx.cfg.int(f::tp_size).unwrap_or(1);

    // GPU-dependent decode graph defaults: (below TP 4, from TP 4).
    let (small_tp, large_tp) = match gpu_mem {
        Some(m) if m < 20.0 * 1024.0 => (8, 8),
        Some(m) if m < 35.0 * 1024.0 && legacy => (24, 80),
        Some(m) if m < 35.0 * 1024.0 => (48, 160),
        Some(m) if m < 60.0 * 1024.0 => (32, 160),
        Some(m) if m < 160.0 * 1024.0 => (256, 512),
        Some(_) => (512, 512),
        None => (160, 160),
    };
    let max_bs = if tp < 4 { small_tp } else { large_tp };
    if decode_max_bs_is_default {
        put(&mut config, DECODE, "max_bs", PyValue::Int(max_bs));
        config_unknown |= mem_unknown;
    }

    let mrr = ctx.cfg.int(f::max_running_requests);
    let cur = get(&config, DECODE, "max_bs").as_int();
    if let (false, true, Some(mrr), Some(cur)) = (legacy, decode_max_bs_is_default, mrr, cur) {
        if cur > mrr {
            put(&mut config, DECODE, "max_bs", PyValue::Int(mrr));
        }
    }

    // qwen3_vl.expand_multimodal_decode_graph_to_running_limit
    let cur = get(&config, DECODE, "max_bs").as_int();
    if let (false, Some(m), Some(mrr), Some(cur)) = (legacy, gpu_mem, mrr, cur) {
        if mrr <= 512 && cur < mrr && !is_locked(ctx, DECODE, "max_bs") && !is_locked(ctx, DECODE, "bs") {
            // large_hopper_qwen3_vl_model_type: is_sm90_supported() and >= 60 GiB, then the model
            let sm90 = ctx.hw.is_cuda() && ctx.hw.capability.0 == 9 && cuda_at_least(ctx, (12, 3));
            if sm90 && m >= 60.0 * 1024.0 {
                config_unknown = true; // Qwen3-VL raises it to max_running_requests
            }
        }
    }

    // CUDA graph batch-size materialization.
    if device != "cpu" {
        let max_bs = get(&config, DECODE, "max_bs").as_int();
        match (get(&config, DECODE, "bs"), max_bs) {
            (PyValue::None, Some(max_bs)) => put(&mut config, DECODE, "bs", ints(&decode_batch_sizes(ctx, max_bs))),
            (PyValue::None, None) => config_unknown = true,
            (bs, _) => match int_list(bs).and_then(|b| b.into_iter().max()) {
                Some(top) => put(&mut config, DECODE, "max_bs", PyValue::Int(top)),
                None => {
                    // max() of an empty or non-int list: Python's own error, not modelled
                    ctx.skip(ASSERT, NotRunReason::NotImplemented);
                    config_unknown = true;
                }
            },
        }
    } else {
        let bs = get(&config, DECODE, "bs");
        if !bs.is_none() {
            match int_list(bs).and_then(|b| b.into_iter().max()) {
                Some(top) => ctx.cfg.set(f::torch_compile_max_bs, PyValue::Int(top)),
                None => {
                    ctx.skip(ASSERT, NotRunReason::NotImplemented);
                    if let Some(old) = unchanged {
                        ctx.cfg.put_back(f::cuda_graph_config, old);
                    }
                    return Ok(());
                }
            }
        } else {
            let tcmb = ctx.cfg.get(f::torch_compile_max_bs).clone();
            if tcmb.truthy() {
                ctx.cfg.set(f::torch_compile_max_bs, tcmb);
            } else {
                let v = get(&config, DECODE, "max_bs").clone();
                if config_unknown {
                    ctx.cfg.set_unknown(f::torch_compile_max_bs, v);
                } else {
                    ctx.cfg.set(f::torch_compile_max_bs, v);
                }
            }
            let top = ctx.cfg.int(f::torch_compile_max_bs).unwrap_or(0);
            put(&mut config, DECODE, "bs", ints(&cpu_batch_sizes(ctx, top)));
        }
        let tcmb = ctx.cfg.get(f::torch_compile_max_bs).clone();
        if !tcmb.as_float().is_some_and(|x| x > 0.0) {
            let fixes = vec![
                ctx.fix_set("Use a positive torch.compile batch-size limit", f::torch_compile_max_bs, "32", Applicability::Unsafe),
            ];
            if let Some(old) = unchanged {
                ctx.cfg.put_back(f::cuda_graph_config, old);
            }
            ctx.raise(&CPU_GRAPH_BS_POSITIVE, &[], &[f::torch_compile_max_bs, f::cuda_graph_bs_decode], fixes)?;
        }
        config_unknown |= ctx.cfg.read_unknown();
        put(&mut config, DECODE, "max_bs", tcmb);
    }

    let chunked = ctx.cfg.get(f::chunked_prefill_size).clone();
    let chunked_unknown = ctx.cfg.read_unknown();
    if get(&config, PREFILL, "max_bs").is_none() {
        config_unknown |= chunked_unknown;
        // min(8192, chunked) for MLA models (use_mla_backend reads the model's config): the
        // same value unless the chunk is above 8192. 0.5.18: 2048 for MLA models.
        // (the model's MLA fact decides it when known)
        let mla = ctx.model.as_ref().and_then(|m| m.derived.is_mla);
        let mut max_bs = chunked.as_int();
        if legacy {
            match mla {
                Some(true) => max_bs = Some(2048),
                Some(false) => {}
                None => config_unknown |= chunked.as_int() != Some(2048),
            }
        } else if chunked.as_float().is_some_and(|c| c > 8192.0) {
            // A model known not to be MLA keeps the chunk. (An MLA model's is capped at 8192, but
            // later steps that turn an MLA model's prefill graph off are not all replayed (the
            // DeepSeek trtllm_mla default under prefill CP): its config stays not known.)
            if mla != Some(false) {
                config_unknown = true;
            }
        }
        if let (false, Some(m)) = (legacy, max_bs) {
            let pp = ctx.cfg.int(f::pp_size).unwrap_or(1);
            if pp > 1
                && get(&config, PREFILL, "backend").as_str() == Some(BREAKABLE)
                && !is_locked(ctx, PREFILL, "bs")
                && m > DEFAULT_PP_PREFILL_CUDA_GRAPH_MAX_TOKENS
            {
                max_bs = Some(DEFAULT_PP_PREFILL_CUDA_GRAPH_MAX_TOKENS);
            }
        }
        if let (Some(m), Some(t)) = (max_bs, ctx.cfg.int(f::max_total_tokens)) {
            max_bs = Some(m.min(t));
        }
        if let Some(m) = max_bs {
            if ctx.cfg.str(f::model_path).is_some_and(|p| p.to_lowercase().contains("llama-2")) {
                max_bs = Some(m.min(4096));
            }
        }
        match max_bs {
            Some(m) => put(&mut config, PREFILL, "max_bs", PyValue::Int(m)),
            None => {
                put(&mut config, PREFILL, "max_bs", chunked.clone());
                config_unknown = true;
            }
        }
    }
    if get(&config, PREFILL, "bs").is_none() {
        match get(&config, PREFILL, "max_bs").as_int() {
            Some(m) => put(&mut config, PREFILL, "bs", ints(&prefill_batch_sizes(m))),
            None => config_unknown = true,
        }
    }
    if config_unknown {
        ctx.cfg.set_unknown(f::cuda_graph_config, config);
    } else {
        ctx.cfg.set(f::cuda_graph_config, config);
    }

    // Static memory and runtime headroom.
    if ctx.cfg.is_none(f::mem_fraction_static) {
        // model_config_of(server_args).is_multimodal (and the ViT size, MLA): the model's
        // config. Kept: the figure for a text-only, non-MLA model, marked unknown.
        let value = mem_fraction_static_text_model(ctx, ctx.cfg.peek(f::cuda_graph_config), gpu_mem);
        ctx.cfg.set_unknown(f::mem_fraction_static, PyValue::Float(value));
    }

    // Symmetric-memory preallocation (reads nothing derived above).
    ctx.cfg.forget_reads();
    if ctx.cfg.truthy(f::enable_symm_mem) && ctx.env("SGLANG_SYMM_MEM_PREALLOC_GB_SIZE").is_none() {
        let fixes = vec![Fix::advice("Set SGLANG_SYMM_MEM_PREALLOC_GB_SIZE in the environment (in GB, e.g. 4) to choose the pool size")];
        ctx.warn(&SYMM_MEM_PREALLOC_DEFAULT, &[], &[f::enable_symm_mem], fixes);
    }
    Ok(())
}

/// `tuple(map(int, torch.version.cuda.split(".")[:2])) >= want`.
fn cuda_at_least(ctx: &Ctx, want: (u32, u32)) -> bool {
    let Some(v) = ctx.hw.cuda_version else { return false };
    let mut parts = v.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let got = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    got >= want
}

/// `mem_fraction_static` as `handle_gpu_memory_settings` computes it for a model that is not
/// multimodal and does not use MLA, without post-capture KV sizing.
fn mem_fraction_static_text_model(ctx: &Ctx, config: &PyValue, gpu_mem: Option<f64>) -> f64 {
    let Some(gpu_mem) = gpu_mem else { return if legacy_memory_settings(ctx) { 0.88 } else { 0.95 } };
    let mode = ctx.cfg.str(f::disaggregation_mode).unwrap_or("null").to_string();
    let tp = ctx.cfg.int(f::tp_size).unwrap_or(1) as f64;
    let pp = ctx.cfg.int(f::pp_size).unwrap_or(1) as f64;
    let decode_max_bs = get(config, DECODE, "max_bs").as_int().unwrap_or(0);
    let activation_tokens: i64 = if mode == "decode" {
        let running = ctx.cfg.int(f::max_running_requests).filter(|v| *v != 0).unwrap_or(if decode_max_bs != 0 { decode_max_bs } else { 1 });
        let draft = ctx.cfg.int(f::speculative_num_draft_tokens).filter(|v| *v != 0).unwrap_or(1);
        (running * draft).max(2048)
    } else {
        let chunked = ctx.cfg.int(f::chunked_prefill_size).unwrap_or(0);
        if chunked > 0 {
            chunked.max(2048)
        } else {
            ctx.cfg.int(f::max_prefill_tokens).unwrap_or(0).max(2048)
        }
    };
    let mut reserved = 512.0;
    reserved += activation_tokens as f64 * 1.5;
    reserved += tp * pp / 8.0 * 1024.0;
    reserved += reserve_for_graph_mb(ctx, config, &mode);
    if gpu_mem > 60.0 * 1024.0 {
        reserved = f64::max(reserved, 10.0 * 1024.0);
    }
    let a2a_deepep = ctx.cfg.is(f::moe_a2a_backend, "deepep");
    if mode != "prefill" && get(config, DECODE, "backend").as_str() != Some(DISABLED) && a2a_deepep {
        reserved += 2.0 * 1024.0;
    }
    round3((gpu_mem - reserved) / gpu_mem)
}

/// `reserve_for_graph_mb` for a non-MLA model.
fn reserve_for_graph_mb(ctx: &Ctx, config: &PyValue, mode: &str) -> f64 {
    let decode_max_bs = get(config, DECODE, "max_bs").as_int().unwrap_or(0) as f64;
    let mut reserved = 0.0;
    if mode != "prefill" && get(config, DECODE, "backend").as_str() != Some(DISABLED) {
        reserved += decode_max_bs * 2.0;
    }
    if attn_dp_enabled(ctx) && mode != "prefill" {
        let attn_dp = ctx.cfg.int(f::attn_dp_size).unwrap_or(1) as f64;
        reserved += decode_max_bs * attn_dp * 3.0;
        if decode_max_bs > 300.0 {
            reserved += decode_max_bs * attn_dp * 1.5;
        }
    }
    let prefill_backend = get(config, PREFILL, "backend");
    if mode != "decode" && prefill_backend.as_str() != Some(DISABLED) {
        let n = get(config, PREFILL, "bs").as_list().map(<[PyValue]>::len).unwrap_or(0);
        reserved += (n * 8) as f64;
        if prefill_backend.as_str() == Some(BREAKABLE) && ctx.cfg.is(f::moe_a2a_backend, "deepep") {
            reserved += 1024.0;
        }
    }
    reserved
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failed expectation fails the test
mod tests {
    use super::*;

    /// Python's `round(x, 3)`, values from CPython 3.11.
    #[test]
    fn round3_is_pythons() {
        assert_eq!(round3(0.0625), 0.062);
        assert_eq!(round3(1.0005), 1.0);
        assert_eq!(round3(0.8125), 0.812);
        assert_eq!(round3((81559.0 - 13520.0) / 81559.0), 0.834);
    }

    /// `generate_prefill_cuda_graph_batch_sizes`, compared with the Python function's output.
    #[test]
    fn prefill_sizes_are_sglangs() {
        let v = prefill_batch_sizes(8192);
        assert_eq!(v.len(), 58);
        assert_eq!(v.last(), Some(&8192));
        assert!(prefill_batch_sizes(-1).is_empty());
    }
}
