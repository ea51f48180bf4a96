//! Rules from SGLang's `sglang/srt/arg_groups/hicache_hook.py`: the hierarchical (host/storage)
//! KV cache, its host-memory sizing, layout/IO normalisation and the unified-cache external
//! linker. (`UnifiedCacheLinkerConfig.from_dict`, which `handle_hicache` calls for the
//! `dynamic` linker, is ported here too.)

use super::{Ctx, Rule};
use crate::diagnostic::Applicability;
use crate::fields::{f, Field};
use crate::pyvalue::{str_repr, PyValue};
use crate::rules::{raises, site, warns, Args, Step};

pub static HOST_FRACTION_RANGE: Rule = Rule {
    code: "HIC001",
    name: kebab!("hicache-host-memory-fraction-range"),
    sglang: raises("hicache_hook.handle_hicache_ratio_default", "--hicache-host-memory-fraction must be in"),
    explanation: expl!("--hicache-host-memory-fraction is the share of free host memory HiCache may size its host pool from; it must be above 0 and at most 1."),
    flags: &["--hicache-host-memory-fraction"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-host-memory-fraction 1.5"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-host-memory-fraction 0.5"),
};

pub static LINKER_CONFIG_NOT_OBJECT: Rule = Rule {
    code: "HIC002",
    name: kebab!("linker-config-not-json-object"),
    sglang: raises("hicache_hook.handle_hicache", "--unified-cache-external-linker-config must"),
    explanation: expl!("The external linker configuration must be a JSON object ({...}), not a list, string or number."),
    flags: &["--unified-cache-external-linker-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-config '[1]'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static LINKER_CONFIG_INVALID: Rule = Rule {
    code: "HIC003",
    name: kebab!("dynamic-linker-config-invalid"),
    sglang: raises("mem_cache.unified_cache.linker_config.UnifiedCacheLinkerConfig.from_dict", "{flag} must be a JSON object."),
    explanation: expl!("The dynamic external linker is loaded from --unified-cache-external-linker-config, so with --unified-cache-external-linker-backend dynamic that option must be given, as a JSON object with 'linker' and 'linker_module_path'."),
    flags: &["--unified-cache-external-linker-config", "--unified-cache-external-linker-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker --unified-cache-external-linker-backend dynamic"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker"),
};

pub static LINKER_CONFIG_UNKNOWN_FIELDS: Rule = Rule {
    code: "HIC020",
    name: kebab!("dynamic-linker-config-unknown-fields"),
    sglang: raises("mem_cache.unified_cache.linker_config.UnifiedCacheLinkerConfig.from_dict", "{flag}: unknown fields: {sorted(unknown)}"),
    explanation: expl!("The dynamic linker configuration accepts only 'linker', 'linker_module_path' and 'linker_extra_config'; put other settings inside 'linker_extra_config'."),
    flags: &["--unified-cache-external-linker-config", "--unified-cache-external-linker-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\", \"linker_module_path\": \"y\", \"zeta\": 1}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\", \"linker_module_path\": \"y\"}'"),
};

pub static LINKER_CONFIG_EMPTY_NAME: Rule = Rule {
    code: "HIC021",
    name: kebab!("dynamic-linker-config-needs-names"),
    sglang: raises("mem_cache.unified_cache.linker_config.UnifiedCacheLinkerConfig.from_dict", "{flag}: {name} must be a non-empty string."),
    explanation: expl!("The dynamic linker is imported from 'linker_module_path' and looked up by 'linker'; both must be given as non-blank strings."),
    flags: &["--unified-cache-external-linker-config", "--unified-cache-external-linker-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\"}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\", \"linker_module_path\": \"y\"}'"),
};

pub static LINKER_CONFIG_EXTRA_NOT_OBJECT: Rule = Rule {
    code: "HIC022",
    name: kebab!("dynamic-linker-extra-config-not-object"),
    sglang: raises("mem_cache.unified_cache.linker_config.UnifiedCacheLinkerConfig.from_dict", "{flag}: linker_extra_config must be a JSON"),
    explanation: expl!("'linker_extra_config' is handed to the dynamic linker as keyword settings, so it must be a JSON object."),
    flags: &["--unified-cache-external-linker-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\", \"linker_module_path\": \"y\", \"linker_extra_config\": [1]}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\", \"linker_module_path\": \"y\", \"linker_extra_config\": {}}'"),
};

pub static MLA_DEDUP_NEEDS_MOONCAKE: Rule = Rule {
    code: "HIC004",
    name: kebab!("linker-mla-dedup-needs-mooncake-linker"),
    sglang: raises("hicache_hook.handle_hicache", "--enable-linker-mla-dedup requires the Mooncake"),
    explanation: expl!("MLA deduplication is a feature of the Mooncake external linker, so it needs --enable-unified-cache-external-linker with the mooncake linker backend."),
    flags: &["--enable-linker-mla-dedup", "--enable-unified-cache-external-linker", "--unified-cache-external-linker-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linker-mla-dedup"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linker-mla-dedup --enable-unified-cache-external-linker"),
};

pub static LINKER_NEEDS_RADIX: Rule = Rule {
    code: "HIC005",
    name: kebab!("external-linker-needs-default-radix-cache"),
    sglang: raises("hicache_hook.handle_hicache", "--enable-unified-cache-external-linker requires"),
    explanation: expl!("The external linker attaches to SGLang's default radix prefix cache, so the radix cache must stay on and no other radix cache backend can be chosen."),
    flags: &["--enable-unified-cache-external-linker", "--disable-radix-cache", "--radix-cache-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker --disable-radix-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker"),
};

pub static LINKER_VS_HICACHE: Rule = Rule {
    code: "HIC006",
    name: kebab!("external-linker-vs-hicache"),
    sglang: raises("hicache_hook.handle_hicache", "--enable-unified-cache-external-linker and"),
    explanation: expl!("The external linker and HiCache are two alternative host/storage tiers for the KV cache; pick one."),
    flags: &["--enable-unified-cache-external-linker", "--enable-hierarchical-cache"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker --enable-hierarchical-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker"),
};

pub static LINKER_NO_STORAGE: Rule = Rule {
    code: "HIC007",
    name: kebab!("external-linker-ignores-storage-backend"),
    sglang: raises("hicache_hook.handle_hicache", "--enable-unified-cache-external-linker does"),
    explanation: expl!("The external linker brings its own storage tier; --hicache-storage-backend only configures HiCache. Drop it."),
    flags: &["--enable-unified-cache-external-linker", "--hicache-storage-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker --hicache-storage-backend file"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker"),
};

pub static HOST_POOL_UNSIZED: Rule = Rule {
    code: "HIC008",
    name: kebab!("hicache-host-pool-unsized"),
    sglang: raises("hicache_hook.validate_hicache_host_memory_mode", "--hicache-host-memory-mode {cfg.hicache_host_memory_mode}"),
    explanation: expl!("The HiCache host pool needs a size, from --hicache-size or --hicache-ratio. SGLang fills in a default ratio earlier in resolution, so from the command line this guard does not fire."),
    flags: &["--hicache-host-memory-mode", "--hicache-size", "--hicache-ratio"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

pub static BUFFER_ONLY_NEEDS_STORAGE: Rule = Rule {
    code: "HIC009",
    name: kebab!("hicache-buffer-only-needs-storage"),
    sglang: raises("hicache_hook.validate_hicache_host_memory_mode", "--hicache-host-memory-mode buffer_only requires"),
    explanation: expl!("In buffer_only mode host memory only stages KV on its way to storage, so a storage backend must be configured."),
    flags: &["--hicache-host-memory-mode", "--hicache-storage-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-host-memory-mode buffer_only"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-host-memory-mode buffer_only --hicache-storage-backend file"),
};

pub static BUFFER_ONLY_NOT_ON_DECODE: Rule = Rule {
    code: "HIC010",
    name: kebab!("hicache-buffer-only-not-on-decode"),
    sglang: raises("hicache_hook.validate_hicache_host_memory_mode", "--hicache-host-memory-mode buffer_only is"),
    explanation: expl!("A PD decode server's prefetch and offload paths do not go through the buffer_only staging pipeline. Use the default cache mode on decode servers."),
    flags: &["--hicache-host-memory-mode", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --hicache-host-memory-mode buffer_only --hicache-storage-backend file"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --hicache-storage-backend file"),
};

pub static LAYOUT_VS_RECEIVE_THRESHOLD: Rule = Rule {
    code: "HIC011",
    name: kebab!("hicache-layout-vs-host-receive"),
    sglang: raises("hicache_hook.handle_hicache", "The resolved HiCache storage layout {cfg.hicache_mem_layout!r}"),
    explanation: expl!("With --disaggregation-decode-host-receive-threshold below 1, the decode server receives KV into a layer_first host pool shared with HiCache; a storage backend that forces another layout cannot share it."),
    flags: &["--disaggregation-decode-host-receive-threshold", "--hicache-mem-layout", "--hicache-storage-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-host-receive-threshold 0.5 --enable-hierarchical-cache --hicache-storage-backend mooncake"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-host-receive-threshold 0.5 --enable-hierarchical-cache --hicache-storage-backend file"),
};

pub static DCP_L3_BUFFER_ONLY: Rule = Rule {
    code: "HIC012",
    name: kebab!("hicache-dcp-rejects-buffer-only"),
    sglang: raises("hicache_hook.resolve_hicache_dcp_compatibility", "HiCache L3 with DCP does not support buffer_only"),
    explanation: expl!("With decode context parallelism, HiCache's storage tier needs a real host cache, not the buffer_only staging mode."),
    flags: &["--hicache-host-memory-mode", "--dcp-size", "--hicache-storage-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache --hicache-storage-backend file --hicache-host-memory-mode buffer_only"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache --hicache-storage-backend file"),
};

pub static DCP_SPEC: Rule = Rule {
    code: "HIC013",
    name: kebab!("hicache-dcp-spec-only-dspark"),
    sglang: raises("hicache_hook.resolve_hicache_dcp_compatibility", "HiCache with --dcp-size > 1 only supports"),
    explanation: expl!("Only DSPARK's draft KV can live in a HiCache host pool sharded by decode context parallelism."),
    flags: &["--enable-hierarchical-cache", "--dcp-size", "--speculative-algorithm"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache --speculative-algorithm EAGLE"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache"),
};

pub static DCP_LMCACHE: Rule = Rule {
    code: "HIC014",
    name: kebab!("hicache-dcp-rejects-lmcache"),
    sglang: raises("hicache_hook.resolve_hicache_dcp_compatibility", "--enable-lmcache with --dcp-size > 1 is not"),
    explanation: expl!("LMCache cannot map KV indices sharded across decode-context-parallel ranks."),
    flags: &["--enable-lmcache", "--dcp-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache --enable-lmcache"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache"),
};

pub static DCP_HISPARSE: Rule = Rule {
    code: "HIC015",
    name: kebab!("hicache-dcp-rejects-hisparse"),
    sglang: raises("hicache_hook.resolve_hicache_dcp_compatibility", "--enable-hisparse with --dcp-size > 1 is"),
    explanation: expl!("HiSparse's host pool does not translate KV indices sharded by decode context parallelism."),
    flags: &["--enable-hisparse", "--dcp-size"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache --enable-hisparse"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache"),
};

pub static KERNEL_IO_TO_DIRECT: Rule = Rule {
    code: "HIC016",
    name: kebab!("hicache-page-first-direct-uses-direct-io"),
    sglang: warns("hicache_hook.resolve_layout_io_compatibility", "Kernel io backend does not support page first"),
    explanation: expl!("The page_first_direct host layout can only be copied with the direct IO backend, so SGLang switches --hicache-io-backend to direct."),
    flags: &["--hicache-mem-layout", "--hicache-io-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-mem-layout page_first_direct"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-mem-layout page_first_direct --hicache-io-backend direct"),
};

pub static DIRECT_IO_TO_PAGE_FIRST_DIRECT: Rule = Rule {
    code: "HIC017",
    name: kebab!("hicache-direct-io-uses-page-first-direct"),
    sglang: warns("hicache_hook.resolve_layout_io_compatibility", "Page first layout is not supported with direct"),
    explanation: expl!("The direct IO backend cannot copy the page_first host layout, so SGLang switches --hicache-mem-layout to page_first_direct."),
    flags: &["--hicache-mem-layout", "--hicache-io-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-io-backend direct"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-io-backend direct --hicache-mem-layout page_first_direct"),
};

pub static STORAGE_LAYER_FIRST: Rule = Rule {
    code: "HIC018",
    name: kebab!("hicache-storage-rejects-layer-first"),
    sglang: warns("hicache_hook.resolve_storage_layout_compatibility", "Mooncake"),
    explanation: expl!("The Mooncake and Ascend MemCache storage backends need a page-major host layout, so SGLang replaces layer_first."),
    flags: &["--hicache-storage-backend", "--hicache-mem-layout"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-storage-backend mooncake --hicache-mem-layout layer_first"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-storage-backend mooncake"),
};

pub static UNIFIED_LAYOUT_IO: Rule = Rule {
    code: "HIC019",
    name: kebab!("hicache-unified-memory-uses-kernel-io"),
    sglang: warns("hicache_hook.resolve_unified_memory_layout_io", "--enable-unified-memory: the direct io backend"),
    explanation: expl!("The unified memory pool's KV rows are strided, which the direct copy path cannot handle; SGLang uses the page_first layout and kernel IO instead."),
    flags: &["--enable-unified-memory", "--hicache-mem-layout", "--hicache-io-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --enable-hierarchical-cache --hicache-mem-layout page_first_direct"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --enable-hierarchical-cache"),
};

/// Every rule in this family.
pub static DCP_NEEDS_MLA: Rule = Rule {
    code: "HIC023",
    name: kebab!("hicache-dcp-needs-mla-model"),
    sglang: raises("hicache_hook.resolve_hicache_dcp_compatibility", "HiCache with --dcp-size > 1 is only supported"),
    explanation: expl!("With decode context parallelism each rank holds a shard of every page; HiCache translates those indices only in the MLA host pool (MLATokenToKVPoolHost), so HiCache with --dcp-size > 1 works for MLA models (DeepSeek, Kimi, GLM-4.7-Flash ...) only."),
    flags: &["--enable-hierarchical-cache", "--dcp-size"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --tp-size 2 --dcp-size 2 --enable-hierarchical-cache"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache"),
};

pub static DCP_NO_L3: Rule = Rule {
    code: "HIC024",
    name: kebab!("hicache-dcp-rejects-storage-backend"),
    sglang: raises("hicache_hook.resolve_hicache_dcp_compatibility", "--hicache-storage-backend (L3) with --dcp-size > 1"),
    explanation: expl!("Up to SGLang 0.5.22, HiCache with decode context parallelism (--dcp-size > 1) runs with the host tier (L1/L2) only: under DCP each rank holds its own interleaved MLA KV shard, and the storage tier's rank-0 backup and keys are not DCP-aware. Drop --hicache-storage-backend (or --dcp-size)."),
    flags: &["--hicache-storage-backend", "--dcp-size", "--enable-hierarchical-cache"],
    example_bad: ex!(""),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache"),
};

pub static RULES: &[&Rule] = &[
    &HOST_FRACTION_RANGE,
    &LINKER_CONFIG_NOT_OBJECT,
    &LINKER_CONFIG_INVALID,
    &LINKER_CONFIG_UNKNOWN_FIELDS,
    &LINKER_CONFIG_EMPTY_NAME,
    &LINKER_CONFIG_EXTRA_NOT_OBJECT,
    &MLA_DEDUP_NEEDS_MOONCAKE,
    &LINKER_NEEDS_RADIX,
    &LINKER_VS_HICACHE,
    &LINKER_NO_STORAGE,
    &HOST_POOL_UNSIZED,
    &BUFFER_ONLY_NEEDS_STORAGE,
    &BUFFER_ONLY_NOT_ON_DECODE,
    &LAYOUT_VS_RECEIVE_THRESHOLD,
    &DCP_L3_BUFFER_ONLY,
    &DCP_SPEC,
    &DCP_LMCACHE,
    &DCP_HISPARSE,
    &KERNEL_IO_TO_DIRECT,
    &DIRECT_IO_TO_PAGE_FIRST_DIRECT,
    &STORAGE_LAYER_FIRST,
    &UNIFIED_LAYOUT_IO,
    &DCP_NEEDS_MLA,
    &DCP_NO_L3,
];

fn opt_str(ctx: &Ctx, field: Field) -> Option<String> {
    ctx.cfg.str(field).map(str::to_string)
}

/// `handle_hicache_ratio_default`
pub fn handle_hicache_ratio_default(ctx: &mut Ctx) -> Step {
    if let Some(f) = ctx.cfg.float(f::hicache_host_memory_fraction) {
        if !(f > 0.0 && f <= 1.0) {
            let fixes = vec![ctx.fix_remove(
                "Remove --hicache-host-memory-fraction (default 0.8)",
                f::hicache_host_memory_fraction,
                Applicability::Unsafe,
            )];
            ctx.raise(&HOST_FRACTION_RANGE, &[], &[f::hicache_host_memory_fraction], fixes)?;
        }
    }
    let ratio_none = ctx.cfg.is_none(f::hicache_ratio);
    let decode = ctx.cfg.is(f::disaggregation_mode, "decode");
    let size = ctx.cfg.int(f::hicache_size).unwrap_or(0);
    if ratio_none && !decode {
        let r = if ctx.cfg.is(f::hicache_host_memory_mode, "buffer_only") { 1.2 } else { 2.0 };
        ctx.cfg.set(f::hicache_ratio, PyValue::Float(r));
    }
    // Read before the declaration above takes effect (SGLang collects the fields first).
    // (0.5.18 has no --hicache-host-memory-fraction: nothing to turn off)
    if (!ratio_none || size > 0) && HOST_FRACTION_RANGE.applies_to(ctx.release) {
        ctx.cfg.set(f::hicache_host_memory_fraction, PyValue::None);
    }
    Ok(())
}

/// `UnifiedCacheLinkerConfig.from_dict` (mem_cache/unified_cache/linker_config.py).
fn validate_linker_config(ctx: &mut Ctx, config: &PyValue) -> bool {
    const FLAG: &str = "--unified-cache-external-linker-config";
    fn fail(ctx: &mut Ctx, rule: &'static Rule, args: &Args) -> bool {
        let fixes = vec![ctx.fix_set(
            "Use the mooncake linker backend",
            f::unified_cache_external_linker_backend,
            "mooncake",
            Applicability::Unsafe,
        )];
        let _ = ctx.raise(rule, args, &[f::unified_cache_external_linker_config, f::unified_cache_external_linker_backend], fixes);
        false
    }
    let PyValue::Dict(items) = config else {
        return fail(ctx, &LINKER_CONFIG_INVALID, &[("flag", &FLAG)]);
    };
    let mut unknown: Vec<&str> = items
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !matches!(*k, "linker" | "linker_module_path" | "linker_extra_config"))
        .collect();
    if !unknown.is_empty() {
        crate::sorting::sort(&mut unknown);
        unknown.dedup();
        let list: Vec<String> = unknown.iter().map(|k| str_repr(k)).collect();
        let sorted_unknown = format!("[{}]", list.join(", "));
        return fail(ctx, &LINKER_CONFIG_UNKNOWN_FIELDS, &[("flag", &FLAG), ("sorted(unknown)", &sorted_unknown)]);
    }
    let get = |k: &str| items.iter().rev().find(|(kk, _)| kk == k).map(|(_, v)| v);
    for name in ["linker", "linker_module_path"] {
        let ok = matches!(get(name), Some(PyValue::Str(s)) if !s.trim().is_empty());
        if !ok {
            return fail(ctx, &LINKER_CONFIG_EMPTY_NAME, &[("flag", &FLAG), ("name", &name)]);
        }
    }
    if let Some(extra) = get("linker_extra_config") {
        if !matches!(extra, PyValue::Dict(_)) {
            return fail(ctx, &LINKER_CONFIG_EXTRA_NOT_OBJECT, &[("flag", &FLAG)]);
        }
    }
    true
}

/// `handle_hicache`
pub fn handle_hicache(ctx: &mut Ctx) -> Step {
    let config = ctx.cfg.get(f::unified_cache_external_linker_config).clone();
    if !config.is_none() && !matches!(config, PyValue::Dict(_)) {
        let fixes = vec![ctx.fix_remove(
            "Remove --unified-cache-external-linker-config",
            f::unified_cache_external_linker_config,
            Applicability::Unsafe,
        )];
        ctx.raise(&LINKER_CONFIG_NOT_OBJECT, &[], &[f::unified_cache_external_linker_config], fixes)?;
    }
    let linker = ctx.cfg.truthy(f::enable_unified_cache_external_linker);
    let linker_backend = opt_str(ctx, f::unified_cache_external_linker_backend);
    if linker_backend.as_deref() == Some("dynamic") && (linker || !config.is_none()) && !validate_linker_config(ctx, &config) {
        return Ok(());
    }
    if ctx.cfg.truthy(f::enable_linker_mla_dedup) && (!linker || linker_backend.as_deref() != Some("mooncake")) {
        let mut fixes = Vec::new();
        if !linker && linker_backend.as_deref() == Some("mooncake") {
            fixes.push(ctx.fix_add_flag(
                "Add --enable-unified-cache-external-linker",
                f::enable_unified_cache_external_linker,
                Applicability::Unsafe,
            ));
        }
        fixes.push(ctx.fix_remove("Remove --enable-linker-mla-dedup", f::enable_linker_mla_dedup, Applicability::Safe));
        ctx.raise(&MLA_DEDUP_NEEDS_MOONCAKE, &[], &[f::enable_linker_mla_dedup], fixes)?;
    }
    if linker {
        if ctx.cfg.truthy(f::disable_radix_cache) || !ctx.cfg.is_none(f::radix_cache_backend) {
            let dest = if ctx.cfg.truthy(f::disable_radix_cache) { f::disable_radix_cache } else { f::radix_cache_backend };
            let fixes = vec![
                ctx.fix_remove(format!("Remove {}", if dest == f::disable_radix_cache { "--disable-radix-cache" } else { "--radix-cache-backend" }), dest, Applicability::Unsafe),
                ctx.fix_remove("Remove --enable-unified-cache-external-linker", f::enable_unified_cache_external_linker, Applicability::Unsafe),
            ];
            ctx.raise(&LINKER_NEEDS_RADIX, &[], &[f::enable_unified_cache_external_linker, dest], fixes)?;
        }
        if ctx.cfg.truthy(f::enable_hierarchical_cache) {
            let fixes = vec![
                ctx.fix_remove("Remove --enable-hierarchical-cache", f::enable_hierarchical_cache, Applicability::Unsafe),
                ctx.fix_remove("Remove --enable-unified-cache-external-linker", f::enable_unified_cache_external_linker, Applicability::Unsafe),
            ];
            ctx.raise(&LINKER_VS_HICACHE, &[], &[f::enable_unified_cache_external_linker, f::enable_hierarchical_cache], fixes)?;
        }
        if !ctx.cfg.is_none(f::hicache_storage_backend) {
            let fixes = vec![ctx.fix_remove("Remove --hicache-storage-backend", f::hicache_storage_backend, Applicability::Safe)];
            ctx.raise(&LINKER_NO_STORAGE, &[], &[f::hicache_storage_backend, f::enable_unified_cache_external_linker], fixes)?;
        }
        return Ok(());
    }

    let decode = ctx.cfg.is(f::disaggregation_mode, "decode");
    let backup = ctx.cfg.get(f::disaggregation_decode_retraction_backup).clone();
    let backup_host = backup.is_none() || backup.as_str() == Some("host_pool");
    if !(ctx.cfg.truthy(f::enable_hierarchical_cache)
        || ctx.cfg.truthy(f::disaggregation_decode_enable_offload_kvcache)
        || (decode && backup_host))
    {
        return Ok(());
    }

    // (0.5.18 has no host memory modes)
    if HOST_POOL_UNSIZED.applies_to(ctx.release) && !validate_hicache_host_memory_mode(ctx) {
        return Ok(());
    }

    let threshold = ctx.cfg.float(f::disaggregation_decode_host_receive_threshold).unwrap_or(1.0);
    if threshold < 1.0 {
        ctx.cfg.set(f::hicache_mem_layout, PyValue::Str("layer_first".into()));
    }

    resolve_layout_io_compatibility(ctx);
    resolve_storage_layout_compatibility(ctx);
    resolve_unified_memory_layout_io(ctx);
    if threshold < 1.0 && !ctx.cfg.is(f::hicache_mem_layout, "layer_first") {
        let layout = ctx.cfg.get(f::hicache_mem_layout).repr();
        let args: &Args = &[("cfg.hicache_mem_layout", &layout)];
        let fixes = vec![ctx.fix_remove(
            "Remove --disaggregation-decode-host-receive-threshold",
            f::disaggregation_decode_host_receive_threshold,
            Applicability::Unsafe,
        )];
        ctx.raise(&LAYOUT_VS_RECEIVE_THRESHOLD, args, &[f::disaggregation_decode_host_receive_threshold, f::hicache_storage_backend, f::hicache_mem_layout], fixes)?;
    }

    resolve_hicache_dcp_compatibility(ctx);
    Ok(())
}

/// `validate_hicache_host_memory_mode`. Returns false when it raised.
fn validate_hicache_host_memory_mode(ctx: &mut Ctx) -> bool {
    // #1 (mode not in cache/buffer_only) is unreachable: argparse choices.
    let mode = opt_str(ctx, f::hicache_host_memory_mode).unwrap_or_default();
    let decode = ctx.cfg.is(f::disaggregation_mode, "decode");
    if ctx.cfg.int(f::hicache_size).unwrap_or(0) <= 0 && ctx.cfg.is_none(f::hicache_ratio) && !decode {
        let args: &Args = &[("cfg.hicache_host_memory_mode", &mode)];
        let _ = ctx.raise(&HOST_POOL_UNSIZED, args, &[f::hicache_host_memory_mode], vec![]);
        return false;
    }
    if mode == "cache" {
        return true;
    }
    if ctx.cfg.is_none(f::hicache_storage_backend) {
        let fixes = vec![
            ctx.fix_set("Add --hicache-storage-backend file", f::hicache_storage_backend, "file", Applicability::Unsafe),
            ctx.fix_remove("Remove --hicache-host-memory-mode (cache mode)", f::hicache_host_memory_mode, Applicability::Unsafe),
        ];
        let _ = ctx.raise(&BUFFER_ONLY_NEEDS_STORAGE, &[], &[f::hicache_host_memory_mode], fixes);
        return false;
    }
    if ctx.cfg.is(f::hicache_write_policy, "write_back") {
        // logger.info only.
        ctx.cfg.set(f::hicache_write_policy, PyValue::Str("write_through".into()));
    }
    if decode {
        let fixes = vec![ctx.fix_remove("Remove --hicache-host-memory-mode (cache mode)", f::hicache_host_memory_mode, Applicability::Unsafe)];
        let _ = ctx.raise(&BUFFER_ONLY_NOT_ON_DECODE, &[], &[f::hicache_host_memory_mode, f::disaggregation_mode], fixes);
        return false;
    }
    true
}

/// `resolve_layout_io_compatibility`
fn resolve_layout_io_compatibility(ctx: &mut Ctx) {
    if ctx.cfg.is(f::hicache_mem_layout, "page_first_direct") && ctx.cfg.is(f::hicache_io_backend, "kernel") {
        ctx.cfg.set(f::hicache_io_backend, PyValue::Str("direct".into()));
        let fixes = vec![ctx.fix_set("Set --hicache-io-backend direct", f::hicache_io_backend, "direct", Applicability::Safe)];
        ctx.warn(&KERNEL_IO_TO_DIRECT, &[], &[f::hicache_mem_layout, f::hicache_io_backend], fixes);
    }
    if ctx.cfg.is(f::hicache_mem_layout, "page_first") && ctx.cfg.is(f::hicache_io_backend, "direct") {
        ctx.cfg.set(f::hicache_mem_layout, PyValue::Str("page_first_direct".into()));
        let fixes = vec![ctx.fix_set(
            "Set --hicache-mem-layout page_first_direct",
            f::hicache_mem_layout,
            "page_first_direct",
            Applicability::Safe,
        )];
        ctx.warn(&DIRECT_IO_TO_PAGE_FIRST_DIRECT, &[], &[f::hicache_io_backend, f::hicache_mem_layout], fixes);
    }
}

/// `resolve_storage_layout_compatibility`
fn resolve_storage_layout_compatibility(ctx: &mut Ctx) {
    let storage = opt_str(ctx, f::hicache_storage_backend);
    // Mooncake's DCP multi-buffer pages came when L3 storage was allowed with DCP (0.5.23)
    if storage.as_deref() == Some("mooncake") && ctx.cfg.int(f::dcp_size).unwrap_or(1) > 1 && !DCP_NO_L3.applies_to(ctx.release) {
        return;
    }
    // Ascend MemCache joined Mooncake here when the warning came to name it (0.5.20)
    let npu_memcache = ctx.release.warn_site(&site("hicache_hook.resolve_storage_layout_compatibility", "Mooncake/Ascend MemCache")).is_some();
    let rewritten = storage.as_deref() == Some("mooncake") || (npu_memcache && storage.as_deref() == Some("npu_memcache"));
    if !rewritten || !ctx.cfg.is(f::hicache_mem_layout, "layer_first") {
        return;
    }
    let io = opt_str(ctx, f::hicache_io_backend).unwrap_or_default();
    let new_layout = match io.as_str() {
        "direct" => "page_first_direct",
        "kernel" => "page_first",
        _ => "layer_first",
    };
    ctx.cfg.set(f::hicache_mem_layout, PyValue::Str(new_layout.into()));
    let args: &Args = &[("new_layout", &new_layout), ("cfg.hicache_io_backend", &io)];
    ctx.warn(&STORAGE_LAYER_FIRST, args, &[f::hicache_mem_layout, f::hicache_storage_backend], vec![]);
}

/// `resolve_unified_memory_layout_io`
fn resolve_unified_memory_layout_io(ctx: &mut Ctx) {
    if !UNIFIED_LAYOUT_IO.applies_to(ctx.release) || !ctx.cfg.truthy(f::enable_unified_memory) || !ctx.cfg.is(f::hicache_mem_layout, "page_first_direct") {
        return;
    }
    ctx.cfg.set(f::hicache_mem_layout, PyValue::Str("page_first".into()));
    ctx.cfg.set(f::hicache_io_backend, PyValue::Str("kernel".into()));
    ctx.warn(&UNIFIED_LAYOUT_IO, &[], &[f::hicache_mem_layout, f::hicache_io_backend], vec![]);
}

/// `resolve_hicache_dcp_compatibility`
fn resolve_hicache_dcp_compatibility(ctx: &mut Ctx) {
    if ctx.cfg.int(f::dcp_size).unwrap_or(1) <= 1 || !ctx.cfg.truthy(f::enable_hierarchical_cache) {
        return;
    }
    // up to 0.5.22: no storage tier (L3) at all with DCP
    if !ctx.cfg.is_none(f::hicache_storage_backend) && DCP_NO_L3.applies_to(ctx.release) {
        let fixes = vec![
            ctx.fix_remove("Remove --hicache-storage-backend (L1/L2 only)", f::hicache_storage_backend, Applicability::Unsafe),
            ctx.fix_remove("Remove --dcp-size (no decode context parallelism)", f::dcp_size, Applicability::Unsafe),
        ];
        let _ = ctx.raise(&DCP_NO_L3, &[], &[f::hicache_storage_backend, f::dcp_size], fixes);
        return;
    }
    if !ctx.cfg.is_none(f::hicache_storage_backend) && ctx.cfg.is(f::hicache_host_memory_mode, "buffer_only") && DCP_L3_BUFFER_ONLY.applies_to(ctx.release) {
        let fixes = vec![ctx.fix_remove("Remove --hicache-host-memory-mode (cache mode)", f::hicache_host_memory_mode, Applicability::Unsafe)];
        let _ = ctx.raise(&DCP_L3_BUFFER_ONLY, &[], &[f::hicache_host_memory_mode, f::dcp_size], fixes);
        return;
    }
    if !matches!(opt_str(ctx, f::speculative_algorithm).as_deref(), None | Some("DSPARK")) {
        let fixes = vec![ctx.fix_remove("Remove --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe)];
        let _ = ctx.raise(&DCP_SPEC, &[], &[f::speculative_algorithm, f::dcp_size], fixes);
        return;
    }
    if ctx.cfg.truthy(f::enable_lmcache) {
        let fixes = vec![ctx.fix_remove("Remove --enable-lmcache", f::enable_lmcache, Applicability::Unsafe)];
        let _ = ctx.raise(&DCP_LMCACHE, &[], &[f::enable_lmcache, f::dcp_size], fixes);
        return;
    }
    if ctx.cfg.truthy(f::enable_hisparse) {
        let fixes = vec![ctx.fix_remove("Remove --enable-hisparse", f::enable_hisparse, Applicability::Unsafe)];
        let _ = ctx.raise(&DCP_HISPARSE, &[], &[f::enable_hisparse, f::dcp_size], fixes);
        return;
    }
    // #5: MLA models only (use_mla_backend: the model's attention arch).
    let Some(is_mla) = ctx.model_fact(site("hicache_hook.resolve_hicache_dcp_compatibility", "HiCache with --dcp-size > 1 is only supported"), |m| m.derived.is_mla) else { return };
    if !is_mla {
        let fixes = vec![
            ctx.fix_remove("Remove --dcp-size (no decode context parallelism)", f::dcp_size, Applicability::Unsafe),
            ctx.fix_remove("Remove --enable-hierarchical-cache", f::enable_hierarchical_cache, Applicability::Unsafe),
        ];
        let _ = ctx.raise(&DCP_NEEDS_MLA, &[], &[f::dcp_size, f::enable_hierarchical_cache], fixes);
    }
}
