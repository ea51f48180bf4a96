//! `sglang/srt/model_executor/cuda_graph_config.py`: the resolved `CudaGraphConfig` and SGLang's
//! helpers over it, shared by the hooks that read or change it (cuda_graph, serving, parallel).
//!
//! SGLang resolves `cuda_graph_config` into a `CudaGraphConfig` dataclass (one `PhaseConfig` per
//! phase). Here it is kept in the resolved configuration as a `PyValue::Dict`
//! `{"decode": {...}, "prefill": {...}}` whose phase dicts hold every `PhaseConfig` field, and the
//! set `server_args._cuda_graph_config_locked` as a list of `"phase.key"` strings under
//! [`LOCKED_FIELD`].

use crate::fields::{f, Field};
use crate::pyvalue::PyValue;
use crate::rules::Ctx;

/// `Phase` in `cuda_graph_config.py`.
pub const DECODE: &str = "decode";
pub const PREFILL: &str = "prefill";
pub const PHASES: [&str; 2] = [DECODE, PREFILL];

/// `Backend` in `cuda_graph_config.py`.
pub const FULL: &str = "full";
pub const BREAKABLE: &str = "breakable";
pub const DISABLED: &str = "disabled";
/// `ALLOWED_BACKENDS_PER_PHASE` (the same tuple for both phases in 0.5.23).
pub const ALLOWED_BACKENDS: [&str; 3] = [FULL, BREAKABLE, DISABLED];

/// Where `server_args._cuda_graph_config_locked` is kept: a list of `"phase.key"` strings.
pub const LOCKED_FIELD: Field = f::_cuda_graph_config_locked;


// ---------------------------------------------------------------------------------------------
// The CudaGraphConfig value and SGLang's helpers over it.

/// `PhaseConfig` fields in declaration order, with their defaults (backend aside).
const PHASE_FIELDS: [&str; 8] = [
    "backend",
    "max_bs",
    "bs",
    "tc_compiler",
    "max_context_size",
    "full_prefill_max_req",
    "full_prefill_prefix_chunk_tokens",
    "max_seq_len",
];

fn default_phase(backend: &str) -> PyValue {
    PyValue::Dict(
        PHASE_FIELDS
            .iter()
            .map(|f| {
                let v = match *f {
                    "backend" => PyValue::Str(backend.to_string()),
                    "tc_compiler" => PyValue::Str("eager".to_string()),
                    _ => PyValue::None,
                };
                (f.to_string(), v)
            })
            .collect(),
    )
}

/// `default_cuda_graph_config()`: decode `full`; prefill `breakable` on CUDA
/// (`default_prefill_backend`: `is_cuda()`), else `disabled`.
pub fn default_cuda_graph_config(ctx: &Ctx) -> PyValue {
    let prefill = if ctx.hw.is_cuda() { BREAKABLE } else { DISABLED };
    PyValue::Dict(vec![(DECODE.to_string(), default_phase(FULL)), (PREFILL.to_string(), default_phase(prefill))])
}

/// Whether `cuda_graph_config` has been resolved into a config (by `handle_cuda_graph_config`).
pub fn is_resolved(v: &PyValue) -> bool {
    match v {
        PyValue::Dict(items) => {
            items.len() == 2
                && PHASES.iter().all(|p| {
                    items.iter().any(|(k, v)| {
                        k == p && matches!(v, PyValue::Dict(f) if f.iter().any(|(n, _)| n == "tc_compiler"))
                    })
                })
        }
        _ => false,
    }
}

/// `cfg.cuda_graph_config.<phase>.<key>` on the resolved config (None before it is resolved).
pub fn phase_value(ctx: &Ctx, phase: &str, key: &str) -> PyValue {
    let cfg = ctx.cfg.get(f::cuda_graph_config);
    if !is_resolved(cfg) {
        return PyValue::None;
    }
    dict_get(cfg, phase).map(|p| dict_get(p, key).cloned().unwrap_or(PyValue::None)).unwrap_or(PyValue::None)
}

/// `cfg.cuda_graph_config.<phase>.backend` as a string (None before resolution, or when the JSON
/// gave a non-string backend).
pub fn phase_backend(ctx: &Ctx, phase: &str) -> Option<String> {
    phase_value(ctx, phase, "backend").as_str().map(str::to_string)
}

/// `declare_resolution(cuda_graph_config=with_phase(cfg.cuda_graph_config, phase, key=value))`.
/// Does nothing before `handle_cuda_graph_config` has resolved the config.
pub fn with_phase(ctx: &mut Ctx, phase: &str, key: &str, value: PyValue) {
    ctx.cfg.set_changed(f::cuda_graph_config, |cfg| {
        if !is_resolved(cfg) {
            return false;
        }
        if let PyValue::Dict(phases) = cfg {
            for (name, fields) in phases.iter_mut() {
                if name == phase {
                    dict_set(fields, key, value.clone());
                }
            }
        }
        true
    });
}

/// `(phase, key) in server_args._cuda_graph_config_locked`.
pub fn is_locked(ctx: &Ctx, phase: &str, key: &str) -> bool {
    // `f"{phase}.{key}"`, compared in place
    let is_want = |s: &str| s.strip_prefix(phase).and_then(|r| r.strip_prefix('.')) == Some(key);
    ctx.cfg.get(LOCKED_FIELD).as_list().map(|l| l.iter().any(|v| v.as_str().is_some_and(is_want))).unwrap_or(false)
}

pub fn dict_get<'v>(v: &'v PyValue, key: &str) -> Option<&'v PyValue> {
    match v {
        PyValue::Dict(items) => items.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

pub fn dict_set(d: &mut PyValue, key: &str, value: PyValue) {
    if let PyValue::Dict(items) = d {
        if let Some(slot) = items.iter_mut().find(|(k, _)| k == key) {
            slot.1 = value;
        } else {
            items.push((key.to_string(), value));
        }
    }
}

/// `generate_prefill_cuda_graph_batch_sizes` (cuda_graph_hook): the prefill batch sizes up to
/// `max_bs` (used by the CUDA-graph and the memory hooks).
pub fn prefill_batch_sizes(max_bs: i64) -> Vec<i64> {
    // the 50 sizes up to 4096 in one allocation (4608 and up are rare)
    let mut v: Vec<i64> = Vec::with_capacity(64);
    v.extend((4..33).step_by(4));
    v.extend((48..257).step_by(16));
    v.extend((288..513).step_by(32));
    v.extend((576..1025).step_by(64));
    v.extend((1280..4097).step_by(256));
    if max_bs >= 4608 {
        v.extend((4608..=max_bs).step_by(512));
    }
    v.retain(|s| *s <= max_bs);
    v
}
