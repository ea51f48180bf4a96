//! Rules from SGLang's `sglang/srt/arg_groups/hicache_hook.py`: the hierarchical (host/storage)
//! KV cache, its host-memory sizing, layout/IO normalisation and the unified-cache external
//! linker. (`UnifiedCacheLinkerConfig.from_dict`, which `handle_hicache` calls for the
//! `dynamic` linker, is ported here too.)

use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::{Applicability, Severity, Stage};
use crate::pyvalue::{str_repr, PyValue};

const FILE: &str = "sglang/srt/arg_groups/hicache_hook.py";

macro_rules! err_rule {
    ($name:ident, $code:expr, $slug:expr, $site:expr, $func:expr, $exc:expr, $tmpl:expr, $expl:expr, $flags:expr, $bad:expr, $good:expr) => {
        pub static $name: Rule = Rule {
            code: $code,
            name: $slug,
            site: $site,
            file: FILE,
            function: $func,
            since: "0.5.23",
            until: None,
            exception: $exc,
            severity: Severity::Error,
            stage: Stage::Resolve,
            template: $tmpl,
            explanation: $expl,
            flags: $flags,
            example_bad: $bad,
            example_good: $good,
        };
    };
}

macro_rules! warn_rule {
    ($name:ident, $code:expr, $slug:expr, $func:expr, $tmpl:expr, $expl:expr, $flags:expr, $bad:expr, $good:expr) => {
        pub static $name: Rule = Rule {
            code: $code,
            name: $slug,
            site: "",
            file: FILE,
            function: $func,
            since: "0.5.23",
            until: None,
            exception: "",
            severity: Severity::Warning,
            stage: Stage::Resolve,
            template: $tmpl,
            explanation: $expl,
            flags: $flags,
            example_bad: $bad,
            example_good: $good,
        };
    };
}

err_rule!(HOST_FRACTION_RANGE, "HIC001", "hicache-host-memory-fraction-range",
    "hicache_hook.handle_hicache_ratio_default#1", "handle_hicache_ratio_default", "ValueError",
    "--hicache-host-memory-fraction must be in (0, 1].",
    "--hicache-host-memory-fraction is the share of free host memory HiCache may size its host pool from; it must be above 0 and at most 1.",
    &["--hicache-host-memory-fraction"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-host-memory-fraction 1.5",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-host-memory-fraction 0.5");

const HH: &str = "handle_hicache";

err_rule!(LINKER_CONFIG_NOT_OBJECT, "HIC002", "linker-config-not-json-object",
    "hicache_hook.handle_hicache#1", HH, "ValueError",
    "--unified-cache-external-linker-config must be a JSON object.",
    "The external linker configuration must be a JSON object ({...}), not a list, string or number.",
    &["--unified-cache-external-linker-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-config '[1]'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct");

err_rule!(LINKER_CONFIG_INVALID, "HIC003", "dynamic-linker-config-invalid",
    "mem_cache.unified_cache.linker_config.UnifiedCacheLinkerConfig.from_dict#1", FROM_DICT, "ValueError",
    "{flag} must be a JSON object.",
    "The dynamic external linker is loaded from --unified-cache-external-linker-config, so with --unified-cache-external-linker-backend dynamic that option must be given, as a JSON object with 'linker' and 'linker_module_path'.",
    &["--unified-cache-external-linker-config", "--unified-cache-external-linker-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker --unified-cache-external-linker-backend dynamic",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker");

const FROM_DICT: &str = "UnifiedCacheLinkerConfig.from_dict";

err_rule!(LINKER_CONFIG_UNKNOWN_FIELDS, "HIC020", "dynamic-linker-config-unknown-fields",
    "mem_cache.unified_cache.linker_config.UnifiedCacheLinkerConfig.from_dict#2", FROM_DICT, "ValueError",
    "{flag}: unknown fields: {sorted(unknown)}",
    "The dynamic linker configuration accepts only 'linker', 'linker_module_path' and 'linker_extra_config'; put other settings inside 'linker_extra_config'.",
    &["--unified-cache-external-linker-config", "--unified-cache-external-linker-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\", \"linker_module_path\": \"y\", \"zeta\": 1}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\", \"linker_module_path\": \"y\"}'");

err_rule!(LINKER_CONFIG_EMPTY_NAME, "HIC021", "dynamic-linker-config-needs-names",
    "mem_cache.unified_cache.linker_config.UnifiedCacheLinkerConfig.from_dict#3", FROM_DICT, "ValueError",
    "{flag}: {name} must be a non-empty string.",
    "The dynamic linker is imported from 'linker_module_path' and looked up by 'linker'; both must be given as non-blank strings.",
    &["--unified-cache-external-linker-config", "--unified-cache-external-linker-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\"}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\", \"linker_module_path\": \"y\"}'");

err_rule!(LINKER_CONFIG_EXTRA_NOT_OBJECT, "HIC022", "dynamic-linker-extra-config-not-object",
    "mem_cache.unified_cache.linker_config.UnifiedCacheLinkerConfig.from_dict#4", FROM_DICT, "ValueError",
    "{flag}: linker_extra_config must be a JSON object.",
    "'linker_extra_config' is handed to the dynamic linker as keyword settings, so it must be a JSON object.",
    &["--unified-cache-external-linker-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\", \"linker_module_path\": \"y\", \"linker_extra_config\": [1]}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --unified-cache-external-linker-backend dynamic --unified-cache-external-linker-config '{\"linker\": \"x\", \"linker_module_path\": \"y\", \"linker_extra_config\": {}}'");

err_rule!(MLA_DEDUP_NEEDS_MOONCAKE, "HIC004", "linker-mla-dedup-needs-mooncake-linker",
    "hicache_hook.handle_hicache#2", HH, "ValueError",
    "--enable-linker-mla-dedup requires the Mooncake linker.",
    "MLA deduplication is a feature of the Mooncake external linker, so it needs --enable-unified-cache-external-linker with the mooncake linker backend.",
    &["--enable-linker-mla-dedup", "--enable-unified-cache-external-linker", "--unified-cache-external-linker-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linker-mla-dedup",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-linker-mla-dedup --enable-unified-cache-external-linker");

err_rule!(LINKER_NEEDS_RADIX, "HIC005", "external-linker-needs-default-radix-cache",
    "hicache_hook.handle_hicache#3", HH, "ValueError",
    "--enable-unified-cache-external-linker requires the default UnifiedRadixCache with radix caching enabled.",
    "The external linker attaches to SGLang's default radix prefix cache, so the radix cache must stay on and no other radix cache backend can be chosen.",
    &["--enable-unified-cache-external-linker", "--disable-radix-cache", "--radix-cache-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker --disable-radix-cache",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker");

err_rule!(LINKER_VS_HICACHE, "HIC006", "external-linker-vs-hicache",
    "hicache_hook.handle_hicache#4", HH, "ValueError",
    "--enable-unified-cache-external-linker and --enable-hierarchical-cache are mutually exclusive.",
    "The external linker and HiCache are two alternative host/storage tiers for the KV cache; pick one.",
    &["--enable-unified-cache-external-linker", "--enable-hierarchical-cache"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker --enable-hierarchical-cache",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker");

err_rule!(LINKER_NO_STORAGE, "HIC007", "external-linker-ignores-storage-backend",
    "hicache_hook.handle_hicache#5", HH, "ValueError",
    "--enable-unified-cache-external-linker does not use --hicache-storage-backend.",
    "The external linker brings its own storage tier; --hicache-storage-backend only configures HiCache. Drop it.",
    &["--enable-unified-cache-external-linker", "--hicache-storage-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker --hicache-storage-backend file",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-cache-external-linker");

const VM: &str = "validate_hicache_host_memory_mode";

err_rule!(HOST_POOL_UNSIZED, "HIC008", "hicache-host-pool-unsized",
    "hicache_hook.validate_hicache_host_memory_mode#2", VM, "ValueError",
    "--hicache-host-memory-mode {cfg.hicache_host_memory_mode} requires a host pool size: pass --hicache-size or --hicache-ratio.",
    "The HiCache host pool needs a size, from --hicache-size or --hicache-ratio. SGLang fills in a default ratio earlier in resolution, so from the command line this guard does not fire.",
    &["--hicache-host-memory-mode", "--hicache-size", "--hicache-ratio"],
    "",
    "");

err_rule!(BUFFER_ONLY_NEEDS_STORAGE, "HIC009", "hicache-buffer-only-needs-storage",
    "hicache_hook.validate_hicache_host_memory_mode#3", VM, "ValueError",
    "--hicache-host-memory-mode buffer_only requires a storage backend (--hicache-storage-backend): host memory is only a staging buffer and all cached data lives in storage.",
    "In buffer_only mode host memory only stages KV on its way to storage, so a storage backend must be configured.",
    &["--hicache-host-memory-mode", "--hicache-storage-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-host-memory-mode buffer_only",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-host-memory-mode buffer_only --hicache-storage-backend file");

err_rule!(BUFFER_ONLY_NOT_ON_DECODE, "HIC010", "hicache-buffer-only-not-on-decode",
    "hicache_hook.validate_hicache_host_memory_mode#4", VM, "ValueError",
    "--hicache-host-memory-mode buffer_only is not supported on decode instances: the decode-side prefetch and offload paths bypass the buffer-mode pipeline, fetching without its prefix context and never consuming its staged holds. Prefill instances share the standard scheduler path and are supported.",
    "A PD decode server's prefetch and offload paths do not go through the buffer_only staging pipeline. Use the default cache mode on decode servers.",
    &["--hicache-host-memory-mode", "--disaggregation-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --hicache-host-memory-mode buffer_only --hicache-storage-backend file",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --hicache-storage-backend file");

err_rule!(LAYOUT_VS_RECEIVE_THRESHOLD, "HIC011", "hicache-layout-vs-host-receive",
    "hicache_hook.handle_hicache#6", HH, "ValueError",
    "The resolved HiCache storage layout {cfg.hicache_mem_layout!r} cannot share the layer_first decode host pool used by KV transfer",
    "With --disaggregation-decode-host-receive-threshold below 1, the decode server receives KV into a layer_first host pool shared with HiCache; a storage backend that forces another layout cannot share it.",
    &["--disaggregation-decode-host-receive-threshold", "--hicache-mem-layout", "--hicache-storage-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-host-receive-threshold 0.5 --enable-hierarchical-cache --hicache-storage-backend mooncake",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-host-receive-threshold 0.5 --enable-hierarchical-cache --hicache-storage-backend file");

const DCP: &str = "resolve_hicache_dcp_compatibility";

err_rule!(DCP_L3_BUFFER_ONLY, "HIC012", "hicache-dcp-rejects-buffer-only",
    "hicache_hook.resolve_hicache_dcp_compatibility#1", DCP, "NotImplementedError",
    "HiCache L3 with DCP does not support buffer_only host memory.",
    "With decode context parallelism, HiCache's storage tier needs a real host cache, not the buffer_only staging mode.",
    &["--hicache-host-memory-mode", "--dcp-size", "--hicache-storage-backend"],
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache --hicache-storage-backend file --hicache-host-memory-mode buffer_only",
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache --hicache-storage-backend file");

err_rule!(DCP_SPEC, "HIC013", "hicache-dcp-spec-only-dspark",
    "hicache_hook.resolve_hicache_dcp_compatibility#2", DCP, "NotImplementedError",
    "HiCache with --dcp-size > 1 only supports DSPARK speculative decoding; other draft-model host pools have no DCP index translation.",
    "Only DSPARK's draft KV can live in a HiCache host pool sharded by decode context parallelism.",
    &["--enable-hierarchical-cache", "--dcp-size", "--speculative-algorithm"],
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache --speculative-algorithm EAGLE",
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache");

err_rule!(DCP_LMCACHE, "HIC014", "hicache-dcp-rejects-lmcache",
    "hicache_hook.resolve_hicache_dcp_compatibility#3", DCP, "NotImplementedError",
    "--enable-lmcache with --dcp-size > 1 is not supported: LMCache has no DCP-aware index translation.",
    "LMCache cannot map KV indices sharded across decode-context-parallel ranks.",
    &["--enable-lmcache", "--dcp-size"],
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache --enable-lmcache",
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache");

err_rule!(DCP_HISPARSE, "HIC015", "hicache-dcp-rejects-hisparse",
    "hicache_hook.resolve_hicache_dcp_compatibility#4", DCP, "NotImplementedError",
    "--enable-hisparse with --dcp-size > 1 is not supported: the HiSparse host pool is constructed without DCP translation.",
    "HiSparse's host pool does not translate KV indices sharded by decode context parallelism.",
    &["--enable-hisparse", "--dcp-size"],
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache --enable-hisparse",
    "--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --dcp-size 2 --enable-hierarchical-cache");

warn_rule!(KERNEL_IO_TO_DIRECT, "HIC016", "hicache-page-first-direct-uses-direct-io", "resolve_layout_io_compatibility",
    "Kernel io backend does not support page first direct layout, switching to direct io backend",
    "The page_first_direct host layout can only be copied with the direct IO backend, so SGLang switches --hicache-io-backend to direct.",
    &["--hicache-mem-layout", "--hicache-io-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-mem-layout page_first_direct",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-mem-layout page_first_direct --hicache-io-backend direct");

warn_rule!(DIRECT_IO_TO_PAGE_FIRST_DIRECT, "HIC017", "hicache-direct-io-uses-page-first-direct", "resolve_layout_io_compatibility",
    "Page first layout is not supported with direct IO backend, switching to page first direct layout",
    "The direct IO backend cannot copy the page_first host layout, so SGLang switches --hicache-mem-layout to page_first_direct.",
    &["--hicache-mem-layout", "--hicache-io-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-io-backend direct",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-io-backend direct --hicache-mem-layout page_first_direct");

warn_rule!(STORAGE_LAYER_FIRST, "HIC018", "hicache-storage-rejects-layer-first", "resolve_storage_layout_compatibility",
    "Mooncake/Ascend MemCache storage backend does not support layer_first layout, switching to {new_layout} layout for {cfg.hicache_io_backend} io backend",
    "The Mooncake and Ascend MemCache storage backends need a page-major host layout, so SGLang replaces layer_first.",
    &["--hicache-storage-backend", "--hicache-mem-layout"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-storage-backend mooncake --hicache-mem-layout layer_first",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hierarchical-cache --hicache-storage-backend mooncake");

warn_rule!(UNIFIED_LAYOUT_IO, "HIC019", "hicache-unified-memory-uses-kernel-io", "resolve_unified_memory_layout_io",
    "--enable-unified-memory: the direct io backend cannot copy the unified pool's strided KV rows, switching to the page_first layout with the kernel io backend",
    "The unified memory pool's KV rows are strided, which the direct copy path cannot handle; SGLang uses the page_first layout and kernel IO instead.",
    &["--enable-unified-memory", "--hicache-mem-layout", "--hicache-io-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --enable-hierarchical-cache --hicache-mem-layout page_first_direct",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-unified-memory --enable-hierarchical-cache");

/// Every rule in this family.
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
];

fn opt_str(ctx: &Ctx, dest: &str) -> Option<String> {
    ctx.cfg.str(dest).map(str::to_string)
}

/// `handle_hicache_ratio_default`
pub fn handle_hicache_ratio_default(ctx: &mut Ctx) {
    if let Some(f) = ctx.cfg.float("hicache_host_memory_fraction") {
        if !(f > 0.0 && f <= 1.0) {
            let fixes = vec![ctx.fix_remove(
                "Remove --hicache-host-memory-fraction (default 0.8)",
                "hicache_host_memory_fraction",
                Applicability::Unsafe,
            )];
            ctx.raise(&HOST_FRACTION_RANGE, HOST_FRACTION_RANGE.template.to_string(), &["hicache_host_memory_fraction"], fixes);
            return;
        }
    }
    let ratio_none = ctx.cfg.is_none("hicache_ratio");
    let decode = ctx.cfg.is("disaggregation_mode", "decode");
    let size = ctx.cfg.int("hicache_size").unwrap_or(0);
    if ratio_none && !decode {
        let r = if ctx.cfg.is("hicache_host_memory_mode", "buffer_only") { 1.2 } else { 2.0 };
        ctx.cfg.set("hicache_ratio", PyValue::Float(r));
    }
    // Read before the declaration above takes effect (SGLang collects the fields first).
    if !ratio_none || size > 0 {
        ctx.cfg.set("hicache_host_memory_fraction", PyValue::None);
    }
}

/// `UnifiedCacheLinkerConfig.from_dict` (mem_cache/unified_cache/linker_config.py).
fn validate_linker_config(ctx: &mut Ctx, config: &PyValue) -> bool {
    const FLAG: &str = "--unified-cache-external-linker-config";
    let dests = ["unified_cache_external_linker_config", "unified_cache_external_linker_backend"];
    let fail = |ctx: &mut Ctx, rule: &'static Rule, msg: String| {
        let fixes = vec![ctx.fix_set(
            "Use the mooncake linker backend",
            "unified_cache_external_linker_backend",
            "--unified-cache-external-linker-backend",
            "mooncake",
            Applicability::Unsafe,
        )];
        ctx.raise(rule, msg, &dests, fixes);
        false
    };
    let PyValue::Dict(items) = config else {
        return fail(ctx, &LINKER_CONFIG_INVALID, format!("{FLAG} must be a JSON object."));
    };
    let mut unknown: Vec<&str> = items
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !matches!(*k, "linker" | "linker_module_path" | "linker_extra_config"))
        .collect();
    if !unknown.is_empty() {
        unknown.sort_unstable();
        unknown.dedup();
        let list: Vec<String> = unknown.iter().map(|k| str_repr(k)).collect();
        return fail(ctx, &LINKER_CONFIG_UNKNOWN_FIELDS, format!("{FLAG}: unknown fields: [{}]", list.join(", ")));
    }
    let get = |k: &str| items.iter().rev().find(|(kk, _)| kk == k).map(|(_, v)| v);
    for name in ["linker", "linker_module_path"] {
        let ok = matches!(get(name), Some(PyValue::Str(s)) if !s.trim().is_empty());
        if !ok {
            return fail(ctx, &LINKER_CONFIG_EMPTY_NAME, format!("{FLAG}: {name} must be a non-empty string."));
        }
    }
    if let Some(extra) = get("linker_extra_config") {
        if !matches!(extra, PyValue::Dict(_)) {
            return fail(ctx, &LINKER_CONFIG_EXTRA_NOT_OBJECT, format!("{FLAG}: linker_extra_config must be a JSON object."));
        }
    }
    true
}

/// `handle_hicache`
pub fn handle_hicache(ctx: &mut Ctx) {
    let config = ctx.cfg.get("unified_cache_external_linker_config").clone();
    if !config.is_none() && !matches!(config, PyValue::Dict(_)) {
        let fixes = vec![ctx.fix_remove(
            "Remove --unified-cache-external-linker-config",
            "unified_cache_external_linker_config",
            Applicability::Unsafe,
        )];
        ctx.raise(&LINKER_CONFIG_NOT_OBJECT, LINKER_CONFIG_NOT_OBJECT.template.to_string(), &["unified_cache_external_linker_config"], fixes);
        return;
    }
    let linker = ctx.cfg.truthy("enable_unified_cache_external_linker");
    let linker_backend = opt_str(ctx, "unified_cache_external_linker_backend");
    if linker_backend.as_deref() == Some("dynamic") && (linker || !config.is_none()) && !validate_linker_config(ctx, &config) {
        return;
    }
    if ctx.cfg.truthy("enable_linker_mla_dedup") && (!linker || linker_backend.as_deref() != Some("mooncake")) {
        let mut fixes = Vec::new();
        if !linker && linker_backend.as_deref() == Some("mooncake") {
            fixes.push(ctx.fix_add_flag(
                "Add --enable-unified-cache-external-linker",
                "--enable-unified-cache-external-linker",
                Applicability::Unsafe,
            ));
        }
        fixes.push(ctx.fix_remove("Remove --enable-linker-mla-dedup", "enable_linker_mla_dedup", Applicability::Safe));
        ctx.raise(&MLA_DEDUP_NEEDS_MOONCAKE, MLA_DEDUP_NEEDS_MOONCAKE.template.to_string(), &["enable_linker_mla_dedup"], fixes);
        return;
    }
    if linker {
        if ctx.cfg.truthy("disable_radix_cache") || !ctx.cfg.is_none("radix_cache_backend") {
            let dest = if ctx.cfg.truthy("disable_radix_cache") { "disable_radix_cache" } else { "radix_cache_backend" };
            let fixes = vec![
                ctx.fix_remove(format!("Remove {}", if dest == "disable_radix_cache" { "--disable-radix-cache" } else { "--radix-cache-backend" }), dest, Applicability::Unsafe),
                ctx.fix_remove("Remove --enable-unified-cache-external-linker", "enable_unified_cache_external_linker", Applicability::Unsafe),
            ];
            ctx.raise(&LINKER_NEEDS_RADIX, LINKER_NEEDS_RADIX.template.to_string(), &["enable_unified_cache_external_linker", dest], fixes);
            return;
        }
        if ctx.cfg.truthy("enable_hierarchical_cache") {
            let fixes = vec![
                ctx.fix_remove("Remove --enable-hierarchical-cache", "enable_hierarchical_cache", Applicability::Unsafe),
                ctx.fix_remove("Remove --enable-unified-cache-external-linker", "enable_unified_cache_external_linker", Applicability::Unsafe),
            ];
            ctx.raise(&LINKER_VS_HICACHE, LINKER_VS_HICACHE.template.to_string(), &["enable_unified_cache_external_linker", "enable_hierarchical_cache"], fixes);
            return;
        }
        if !ctx.cfg.is_none("hicache_storage_backend") {
            let fixes = vec![ctx.fix_remove("Remove --hicache-storage-backend", "hicache_storage_backend", Applicability::Safe)];
            ctx.raise(&LINKER_NO_STORAGE, LINKER_NO_STORAGE.template.to_string(), &["hicache_storage_backend", "enable_unified_cache_external_linker"], fixes);
        }
        return;
    }

    let decode = ctx.cfg.is("disaggregation_mode", "decode");
    let backup = ctx.cfg.get("disaggregation_decode_retraction_backup").clone();
    let backup_host = backup.is_none() || backup.as_str() == Some("host_pool");
    if !(ctx.cfg.truthy("enable_hierarchical_cache")
        || ctx.cfg.truthy("disaggregation_decode_enable_offload_kvcache")
        || (decode && backup_host))
    {
        return;
    }

    if !validate_hicache_host_memory_mode(ctx) {
        return;
    }

    let threshold = ctx.cfg.float("disaggregation_decode_host_receive_threshold").unwrap_or(1.0);
    if threshold < 1.0 {
        ctx.cfg.set("hicache_mem_layout", PyValue::Str("layer_first".into()));
    }

    resolve_layout_io_compatibility(ctx);
    resolve_storage_layout_compatibility(ctx);
    resolve_unified_memory_layout_io(ctx);
    if threshold < 1.0 && !ctx.cfg.is("hicache_mem_layout", "layer_first") {
        let layout = ctx.cfg.get("hicache_mem_layout").repr();
        let msg = format!("The resolved HiCache storage layout {layout} cannot share the layer_first decode host pool used by KV transfer");
        let fixes = vec![ctx.fix_remove(
            "Remove --disaggregation-decode-host-receive-threshold",
            "disaggregation_decode_host_receive_threshold",
            Applicability::Unsafe,
        )];
        ctx.raise(&LAYOUT_VS_RECEIVE_THRESHOLD, msg, &["disaggregation_decode_host_receive_threshold", "hicache_storage_backend", "hicache_mem_layout"], fixes);
        return;
    }

    resolve_hicache_dcp_compatibility(ctx);
}

/// `validate_hicache_host_memory_mode`. Returns false when it raised.
fn validate_hicache_host_memory_mode(ctx: &mut Ctx) -> bool {
    // #1 (mode not in cache/buffer_only) is unreachable: argparse choices.
    let mode = opt_str(ctx, "hicache_host_memory_mode").unwrap_or_default();
    let decode = ctx.cfg.is("disaggregation_mode", "decode");
    if ctx.cfg.int("hicache_size").unwrap_or(0) <= 0 && ctx.cfg.is_none("hicache_ratio") && !decode {
        let msg = format!("--hicache-host-memory-mode {mode} requires a host pool size: pass --hicache-size or --hicache-ratio.");
        ctx.raise(&HOST_POOL_UNSIZED, msg, &["hicache_host_memory_mode"], vec![]);
        return false;
    }
    if mode == "cache" {
        return true;
    }
    if ctx.cfg.is_none("hicache_storage_backend") {
        let fixes = vec![
            ctx.fix_set("Add --hicache-storage-backend file", "hicache_storage_backend", "--hicache-storage-backend", "file", Applicability::Unsafe),
            ctx.fix_remove("Remove --hicache-host-memory-mode (cache mode)", "hicache_host_memory_mode", Applicability::Unsafe),
        ];
        ctx.raise(&BUFFER_ONLY_NEEDS_STORAGE, BUFFER_ONLY_NEEDS_STORAGE.template.to_string(), &["hicache_host_memory_mode"], fixes);
        return false;
    }
    if ctx.cfg.is("hicache_write_policy", "write_back") {
        // logger.info only.
        ctx.cfg.set("hicache_write_policy", PyValue::Str("write_through".into()));
    }
    if decode {
        let fixes = vec![ctx.fix_remove("Remove --hicache-host-memory-mode (cache mode)", "hicache_host_memory_mode", Applicability::Unsafe)];
        ctx.raise(&BUFFER_ONLY_NOT_ON_DECODE, BUFFER_ONLY_NOT_ON_DECODE.template.to_string(), &["hicache_host_memory_mode", "disaggregation_mode"], fixes);
        return false;
    }
    true
}

/// `resolve_layout_io_compatibility`
fn resolve_layout_io_compatibility(ctx: &mut Ctx) {
    if ctx.cfg.is("hicache_mem_layout", "page_first_direct") && ctx.cfg.is("hicache_io_backend", "kernel") {
        ctx.cfg.set("hicache_io_backend", PyValue::Str("direct".into()));
        let fixes = vec![ctx.fix_set("Set --hicache-io-backend direct", "hicache_io_backend", "--hicache-io-backend", "direct", Applicability::Safe)];
        ctx.warn(&KERNEL_IO_TO_DIRECT, KERNEL_IO_TO_DIRECT.template.to_string(), &["hicache_mem_layout", "hicache_io_backend"], fixes);
    }
    if ctx.cfg.is("hicache_mem_layout", "page_first") && ctx.cfg.is("hicache_io_backend", "direct") {
        ctx.cfg.set("hicache_mem_layout", PyValue::Str("page_first_direct".into()));
        let fixes = vec![ctx.fix_set(
            "Set --hicache-mem-layout page_first_direct",
            "hicache_mem_layout",
            "--hicache-mem-layout",
            "page_first_direct",
            Applicability::Safe,
        )];
        ctx.warn(&DIRECT_IO_TO_PAGE_FIRST_DIRECT, DIRECT_IO_TO_PAGE_FIRST_DIRECT.template.to_string(), &["hicache_io_backend", "hicache_mem_layout"], fixes);
    }
}

/// `resolve_storage_layout_compatibility`
fn resolve_storage_layout_compatibility(ctx: &mut Ctx) {
    let storage = opt_str(ctx, "hicache_storage_backend");
    if storage.as_deref() == Some("mooncake") && ctx.cfg.int("dcp_size").unwrap_or(1) > 1 {
        return;
    }
    if !matches!(storage.as_deref(), Some("mooncake") | Some("npu_memcache")) || !ctx.cfg.is("hicache_mem_layout", "layer_first") {
        return;
    }
    let io = opt_str(ctx, "hicache_io_backend").unwrap_or_default();
    let new_layout = match io.as_str() {
        "direct" => "page_first_direct",
        "kernel" => "page_first",
        _ => "layer_first",
    };
    ctx.cfg.set("hicache_mem_layout", PyValue::Str(new_layout.into()));
    let msg = format!(
        "Mooncake/Ascend MemCache storage backend does not support layer_first layout, switching to {new_layout} layout for {io} io backend"
    );
    ctx.warn(&STORAGE_LAYER_FIRST, msg, &["hicache_mem_layout", "hicache_storage_backend"], vec![]);
}

/// `resolve_unified_memory_layout_io`
fn resolve_unified_memory_layout_io(ctx: &mut Ctx) {
    if !ctx.cfg.truthy("enable_unified_memory") || !ctx.cfg.is("hicache_mem_layout", "page_first_direct") {
        return;
    }
    ctx.cfg.set("hicache_mem_layout", PyValue::Str("page_first".into()));
    ctx.cfg.set("hicache_io_backend", PyValue::Str("kernel".into()));
    ctx.warn(&UNIFIED_LAYOUT_IO, UNIFIED_LAYOUT_IO.template.to_string(), &["hicache_mem_layout", "hicache_io_backend"], vec![]);
}

/// `resolve_hicache_dcp_compatibility`
fn resolve_hicache_dcp_compatibility(ctx: &mut Ctx) {
    if ctx.cfg.int("dcp_size").unwrap_or(1) <= 1 || !ctx.cfg.truthy("enable_hierarchical_cache") {
        return;
    }
    if !ctx.cfg.is_none("hicache_storage_backend") && ctx.cfg.is("hicache_host_memory_mode", "buffer_only") {
        let fixes = vec![ctx.fix_remove("Remove --hicache-host-memory-mode (cache mode)", "hicache_host_memory_mode", Applicability::Unsafe)];
        ctx.raise(&DCP_L3_BUFFER_ONLY, DCP_L3_BUFFER_ONLY.template.to_string(), &["hicache_host_memory_mode", "dcp_size"], fixes);
        return;
    }
    if !matches!(opt_str(ctx, "speculative_algorithm").as_deref(), None | Some("DSPARK")) {
        let fixes = vec![ctx.fix_remove("Remove --speculative-algorithm", "speculative_algorithm", Applicability::Unsafe)];
        ctx.raise(&DCP_SPEC, DCP_SPEC.template.to_string(), &["speculative_algorithm", "dcp_size"], fixes);
        return;
    }
    if ctx.cfg.truthy("enable_lmcache") {
        let fixes = vec![ctx.fix_remove("Remove --enable-lmcache", "enable_lmcache", Applicability::Unsafe)];
        ctx.raise(&DCP_LMCACHE, DCP_LMCACHE.template.to_string(), &["enable_lmcache", "dcp_size"], fixes);
        return;
    }
    if ctx.cfg.truthy("enable_hisparse") {
        let fixes = vec![ctx.fix_remove("Remove --enable-hisparse", "enable_hisparse", Applicability::Unsafe)];
        ctx.raise(&DCP_HISPARSE, DCP_HISPARSE.template.to_string(), &["enable_hisparse", "dcp_size"], fixes);
        return;
    }
    // #5: MLA models only (use_mla_backend reads the model's config).
    ctx.skip("hicache_hook.resolve_hicache_dcp_compatibility#5", NotRunReason::ModelConfig);
}
