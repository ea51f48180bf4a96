//! Rules from SGLang's `sglang/srt/arg_groups/pd_disaggregation_hook.py`
//! (`handle_pd_disaggregation`, `handle_encoder_disaggregation`), with the helpers only these
//! hooks reach: `model_hook.handle_language_model_only`'s flag checks and
//! `validation_hook.validate_ib_devices` (also called by `parallel_hook.handle_elastic_ep`).

use super::parallel::{attn_dp_enabled, env_bool, num_dp_ranks};
use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::{Applicability, Severity, Stage};
use crate::pyvalue::{str_repr, PyValue};

const FILE: &str = "sglang/srt/arg_groups/pd_disaggregation_hook.py";
const VALIDATION: &str = "sglang/srt/arg_groups/validation_hook.py";
const MODEL_HOOK: &str = "sglang/srt/arg_groups/model_hook.py";

macro_rules! rule {
    ($name:ident, $code:literal, $kebab:literal, $site:literal, $file:expr, $func:literal, $exc:literal,
     $sev:expr, $template:literal, $expl:literal, [$($flag:literal),*], $bad:literal, $good:literal) => {
        pub static $name: Rule = Rule {
            code: $code,
            name: $kebab,
            site: $site,
            file: $file,
            function: $func,
            since: "0.5.23",
            until: None,
            exception: $exc,
            severity: $sev,
            stage: Stage::Resolve,
            template: $template,
            explanation: $expl,
            flags: &[$($flag),*],
            example_bad: $bad,
            example_good: $good,
        };
    };
}

rule!(HOST_RECEIVE_RANGE, "PD001", "decode-host-receive-threshold-range", "pd_disaggregation_hook.handle_pd_disaggregation#1", FILE,
    "handle_pd_disaggregation", "ValueError", Severity::Error,
    "--disaggregation-decode-host-receive-threshold must be between 0 and 1",
    "The threshold is a fraction of the decode KV pool; 1 (the default) turns host-side receive buffering off.",
    ["--disaggregation-decode-host-receive-threshold"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 1.5",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 0.9");
rule!(HOST_RECEIVE_FEATURES, "PD002", "decode-host-receive-excludes-hisparse-role-switch", "pd_disaggregation_hook.handle_pd_disaggregation#2", FILE,
    "handle_pd_disaggregation", "ValueError", Severity::Error,
    "Decode host receive does not yet support HiSparse or role switching",
    "Buffering received KV in host memory (threshold below 1) is not implemented together with HiSparse or runtime PD role switching.",
    ["--disaggregation-decode-host-receive-threshold", "--enable-hisparse", "--enable-pd-role-switch"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 0.9 --enable-pd-role-switch",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 0.9");
rule!(HOST_RECEIVE_NEEDS_HOST_POOL, "PD003", "decode-host-receive-needs-host-pool", "pd_disaggregation_hook.handle_pd_disaggregation#3", FILE,
    "handle_pd_disaggregation", "ValueError", Severity::Error,
    "Decode host KV buffering requires host_pool retraction",
    "Host-side KV buffering on the decode server shares the host KV pool, so retracted requests must also be backed up there (host_pool), not as CPU tensors.",
    ["--disaggregation-decode-host-receive-threshold", "--disaggregation-decode-retraction-backup"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 0.9 --disaggregation-decode-retraction-backup cpu_tensor",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 0.9 --disaggregation-decode-retraction-backup host_pool");
rule!(DECODE_RADIX_HISPARSE, "PD005", "decode-radix-cache-excludes-hisparse", "pd_disaggregation_hook.handle_pd_disaggregation#5", FILE,
    "handle_pd_disaggregation", "ValueError", Severity::Error,
    "--disaggregation-decode-enable-radix-cache is incompatible with --enable-hisparse",
    "The experimental decode-side radix cache cannot be combined with HiSparse attention's KV management.",
    ["--disaggregation-decode-enable-radix-cache", "--enable-hisparse"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-radix-cache --enable-hisparse",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-radix-cache");
rule!(DECODE_RADIX_FAKE, "PD006", "decode-radix-cache-excludes-fake-transfer", "pd_disaggregation_hook.handle_pd_disaggregation#6", FILE,
    "handle_pd_disaggregation", "ValueError", Severity::Error,
    "--disaggregation-decode-enable-radix-cache is incompatible with --disaggregation-transfer-backend fake",
    "The fake transfer backend moves no KV, so there is nothing for a decode radix cache to reuse.",
    ["--disaggregation-decode-enable-radix-cache", "--disaggregation-transfer-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-radix-cache --disaggregation-transfer-backend fake",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-transfer-backend fake");
rule!(PREFILL_FAKE, "PD007", "prefill-excludes-fake-transfer", "pd_disaggregation_hook.handle_pd_disaggregation#7", FILE,
    "handle_pd_disaggregation", "AssertionError", Severity::Error,
    "Prefill server does not support 'fake' as the transfer backend",
    "The fake transfer backend only exists for synthetic decode benchmarks; a prefill server needs a real KV transfer backend.",
    ["--disaggregation-mode", "--disaggregation-transfer-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend fake",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend mooncake");
rule!(STAGING_BUFFER_BACKEND, "PD008", "staging-buffer-needs-mooncake-or-nixl", "pd_disaggregation_hook.handle_pd_disaggregation#8", FILE,
    "handle_pd_disaggregation", "ValueError", Severity::Error,
    "SGLANG_DISAGG_STAGING_BUFFER requires disaggregation_transfer_backend='mooncake' or 'nixl', got '{cfg.disaggregation_transfer_backend}'.",
    "The PD staging buffer (environment variable SGLANG_DISAGG_STAGING_BUFFER) is only implemented for the Mooncake and NIXL transfer backends.",
    ["--disaggregation-transfer-backend"],
    "SGLANG_DISAGG_STAGING_BUFFER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-transfer-backend fake",
    "SGLANG_DISAGG_STAGING_BUFFER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-transfer-backend mooncake");
rule!(ROLE_SWITCH_FEATURES, "PD009", "pd-role-switch-unsupported-features", "pd_disaggregation_hook.handle_pd_disaggregation#9", FILE,
    "handle_pd_disaggregation", "ValueError", Severity::Error,
    "--enable-pd-role-switch does not rebuild role-specific state for the following features: {', '.join(unsupported)}. Remove these options or drop --enable-pd-role-switch.",
    "Switching a server between prefill and decode at run time does not rebuild the state of EP, MoE all-to-all, PP, DCP, speculative decoding or DP-attention local broadcast.",
    ["--enable-pd-role-switch", "--ep-size", "--moe-a2a-backend", "--pp-size", "--dcp-size", "--speculative-algorithm"],
    "--model-path Qwen/Qwen3-30B-A3B --disaggregation-mode prefill --enable-pd-role-switch --tp-size 2 --ep-size 2",
    "--model-path Qwen/Qwen3-30B-A3B --disaggregation-mode prefill --enable-pd-role-switch --tp-size 2");
rule!(PREFILL_COMPLETE_UNSUPPORTED, "PD010", "prefill-complete-allocation-unsupported", "pd_disaggregation_hook._validate_prefill_complete#1", FILE,
    "_validate_prefill_complete", "ValueError", Severity::Error,
    "--disaggregation-decode-allocation-policy prefill_complete does not yet support {', '.join(unsupported)}",
    "The prefill_complete allocation policy is a narrow, Mooncake-only PD mode without attention TP, context parallelism, HiCache on decode and several other features.",
    ["--disaggregation-decode-allocation-policy", "--disaggregation-mode", "--disaggregation-transfer-backend", "--tp-size"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-allocation-policy prefill_complete",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-allocation-policy prefill_complete");
rule!(RUST_SERVER_BOOTSTRAP_PORT, "PD011", "rust-server-bootstrap-port-is-api-port", "pd_disaggregation_hook._alias_bootstrap_port_to_api_port#1", FILE,
    "_alias_bootstrap_port_to_api_port", "ValueError", Severity::Error,
    "SGLANG_RUST_SERVER serves the PD KV bootstrap registry on the api port itself; --disaggregation-bootstrap-port {cfg.disaggregation_bootstrap_port} conflicts with --port {cfg.port}. Drop --disaggregation-bootstrap-port (decode nodes and the PD router must then target the prefill api port).",
    "With the Rust HTTP server (SGLANG_RUST_SERVER) a prefill server answers KV bootstrap requests on its API port, so a different explicit bootstrap port cannot be honoured.",
    ["--disaggregation-bootstrap-port", "--port"],
    "SGLANG_RUST_SERVER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-bootstrap-port 9000",
    "SGLANG_RUST_SERVER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill");

rule!(DCP_PREFILL_WARNING, "PD020", "dcp-on-prefill-server", "", FILE, "handle_pd_disaggregation", "", Severity::Warning,
    "DCP on a PD prefill server is supported when prefill and decode use the same DCP layout, but it usually adds communication overhead without improving prefill performance.",
    "Decode context parallelism mainly helps decode; on a prefill server it costs communication and only works if decode uses the same DCP layout.",
    ["--dcp-size", "--disaggregation-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --disaggregation-mode prefill",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --disaggregation-mode prefill");
rule!(DECODE_RADIX_DP_WARNING, "PD021", "decode-radix-cache-with-dp-attention", "", FILE, "handle_pd_disaggregation", "", Severity::Warning,
    "EXPERIMENTAL: Decode radix cache with DP attention. Requires prefix-aware DP rank routing for optimal cache hits.",
    "Under attention DP, each DP rank has its own decode radix cache; hits need a router that sends shared prefixes to the same rank.",
    ["--disaggregation-decode-enable-radix-cache", "--attn-dp-size"], "", "");
rule!(DECODE_RADIX_ENABLED_WARNING, "PD022", "decode-radix-cache-experimental", "", FILE, "handle_pd_disaggregation", "", Severity::Warning,
    "EXPERIMENTAL: Radix cache is enabled for decode server",
    "The radix cache on a PD decode server is experimental.",
    ["--disaggregation-decode-enable-radix-cache"], "", "");
rule!(DECODE_RADIX_DISABLED_WARNING, "PD023", "decode-radix-cache-disabled", "", FILE, "handle_pd_disaggregation", "", Severity::Warning,
    "Radix cache is disabled for decode server",
    "A PD decode server receives its KV cache from prefill, so SGLang turns its radix (prefix) cache off unless --disaggregation-decode-enable-radix-cache is given.",
    ["--disaggregation-mode"], "", "");

rule!(PREFIX_MM_CACHE_NEEDS_ENCODER, "PD030", "prefix-mm-cache-needs-encoder-only", "pd_disaggregation_hook.handle_encoder_disaggregation#1", FILE,
    "handle_encoder_disaggregation", "ValueError", Severity::Error,
    "--enable-prefix-mm-cache requires --encoder-only to be enabled",
    "The multimodal prefix cache lives on the encoder server of encoder disaggregation.",
    ["--enable-prefix-mm-cache", "--encoder-only"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-prefix-mm-cache", "--model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(ENCODER_AND_LANGUAGE_ONLY, "PD031", "encoder-only-excludes-language-only", "pd_disaggregation_hook.handle_encoder_disaggregation#2", FILE,
    "handle_encoder_disaggregation", "ValueError", Severity::Error,
    "Cannot set --encoder-only and --language-only together",
    "A server is either the encoder half or the language half of encoder disaggregation, not both.",
    ["--encoder-only", "--language-only"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --encoder-only --language-only", "--model-path meta-llama/Llama-3.1-8B-Instruct --language-only");
rule!(ENCODER_ONLY_WITH_PD, "PD032", "encoder-only-excludes-pd", "pd_disaggregation_hook.handle_encoder_disaggregation#3", FILE,
    "handle_encoder_disaggregation", "ValueError", Severity::Error,
    "Cannot set --encoder-only and --disaggregation-mode prefill/decode together",
    "An encoder-only server runs no language model, so it cannot be a PD prefill or decode server.",
    ["--encoder-only", "--disaggregation-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --encoder-only --disaggregation-mode prefill",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --encoder-only");
rule!(LANGUAGE_MODEL_ONLY_FLAGS, "PD033", "language-model-only-excludes-encoder-flags", "model_hook.handle_language_model_only#1", MODEL_HOOK,
    "handle_language_model_only", "ValueError", Severity::Error,
    "--language-model-only cannot be combined with {name}",
    "--language-model-only loads only the text model, so flags that need the vision/audio encoder or encoder disaggregation make no sense with it.",
    ["--language-model-only", "--encoder-only", "--language-only", "--enable-prefix-mm-cache", "--enable-broadcast-mm-inputs-process", "--mm-enable-dp-encoder"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --language-model-only --language-only",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --language-only");

rule!(IB_EMPTY, "PD040", "ib-device-empty", "validation_hook.validate_ib_devices#1", VALIDATION, "validate_ib_devices", "ValueError", Severity::Error,
    "No valid IB devices specified",
    "An InfiniBand device list that is empty or only spaces names no device; leave the flag out to let Mooncake discover devices.",
    ["--disaggregation-ib-device", "--mooncake-ib-device"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device ' '",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill");
rule!(IB_NO_SYSFS, "PD041", "ib-sysfs-missing", "validation_hook.validate_ib_devices#2", VALIDATION, "validate_ib_devices", "RuntimeError", Severity::Error,
    "InfiniBand sysfs path not found: {ib_sysfs_path}. Please ensure InfiniBand drivers are installed.",
    "Explicit IB devices are checked against /sys/class/infiniband; on a machine without InfiniBand drivers that folder does not exist.",
    ["--disaggregation-ib-device", "--mooncake-ib-device"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_0",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill");
rule!(IB_GROUP_EMPTY, "PD043", "ib-device-group-empty", "validation_hook.validate_ib_devices._normalize_device_group#2", VALIDATION,
    "_normalize_device_group", "ValueError", Severity::Error,
    "No valid IB devices specified for {context}",
    "The comma-separated IB device list contains no device name.",
    ["--disaggregation-ib-device", "--mooncake-ib-device"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device ,",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_0");
rule!(IB_UNKNOWN, "PD044", "ib-device-unknown", "validation_hook.validate_ib_devices._normalize_device_group#3", VALIDATION,
    "_normalize_device_group", "ValueError", Severity::Error,
    "Invalid IB devices specified for {context}: {invalid_devices}. Available devices: {sorted(available_devices)}",
    "Every IB device named must exist under /sys/class/infiniband on this machine.",
    ["--disaggregation-ib-device", "--mooncake-ib-device"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_9",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-ib-device mlx5_0");
rule!(IB_AUTO_WARNING, "PD045", "ib-device-auto-discovery", "", VALIDATION, "validate_ib_devices", "", Severity::Warning,
    "No IB devices specified for Mooncake backend, falling back to auto discovery.",
    "Mooncake picks InfiniBand devices itself when none are named.",
    ["--disaggregation-ib-device", "--mooncake-ib-device"], "", "");
rule!(IB_DUPLICATE_WARNING, "PD046", "ib-device-duplicate", "", VALIDATION, "_normalize_device_group", "", Severity::Warning,
    "Duplicate IB devices specified for {context}: {raw_value}. Deduplicating to: {unique}",
    "An IB device listed twice is used once.",
    ["--disaggregation-ib-device", "--mooncake-ib-device"], "", "");

/// Every rule in this family.
pub static RULES: &[&Rule] = &[
    &HOST_RECEIVE_RANGE,
    &HOST_RECEIVE_FEATURES,
    &HOST_RECEIVE_NEEDS_HOST_POOL,
    &DECODE_RADIX_HISPARSE,
    &DECODE_RADIX_FAKE,
    &PREFILL_FAKE,
    &STAGING_BUFFER_BACKEND,
    &ROLE_SWITCH_FEATURES,
    &PREFILL_COMPLETE_UNSUPPORTED,
    &RUST_SERVER_BOOTSTRAP_PORT,
    &DCP_PREFILL_WARNING,
    &DECODE_RADIX_DP_WARNING,
    &DECODE_RADIX_ENABLED_WARNING,
    &DECODE_RADIX_DISABLED_WARNING,
    &PREFIX_MM_CACHE_NEEDS_ENCODER,
    &ENCODER_AND_LANGUAGE_ONLY,
    &ENCODER_ONLY_WITH_PD,
    &LANGUAGE_MODEL_ONLY_FLAGS,
    &IB_EMPTY,
    &IB_NO_SYSFS,
    &IB_GROUP_EMPTY,
    &IB_UNKNOWN,
    &IB_AUTO_WARNING,
    &IB_DUPLICATE_WARNING,
];

fn int(ctx: &Ctx, dest: &str, default: i64) -> i64 {
    ctx.cfg.int(dest).unwrap_or(default)
}

fn backend(ctx: &Ctx) -> String {
    ctx.cfg.str("disaggregation_transfer_backend").unwrap_or("mooncake").to_string()
}

/// `handle_pd_disaggregation`.
pub fn handle_pd_disaggregation(ctx: &mut Ctx) {
    if ctx.cfg.is("disaggregation_transfer_backend", "mooncake_tcp") {
        // os.environ.setdefault("MC_FORCE_TCP", "1"); mooncake with TCP transport.
        ctx.cfg.set("disaggregation_transfer_backend", PyValue::Str("mooncake".into()));
        ctx.cfg.set("disaggregation_ib_device", PyValue::None);
    }
    let mode = ctx.cfg.str("disaggregation_mode").unwrap_or("null").to_string();

    if ctx.cfg.is("disaggregation_decode_allocation_policy", "prefill_complete") {
        if !validate_prefill_complete(ctx, &mode) {
            return;
        }
        if mode == "prefill" && int(ctx, "optimistic_prefill_attempts", 0) == 0 {
            ctx.cfg.set("optimistic_prefill_attempts", PyValue::Int(1));
        }
    }

    let dcp = int(ctx, "dcp_size", 1);
    if mode == "prefill" && dcp > 1 {
        ctx.warn(&DCP_PREFILL_WARNING, DCP_PREFILL_WARNING.template.to_string(), &["dcp_size"], vec![]);
    }

    let threshold = ctx.cfg.float("disaggregation_decode_host_receive_threshold").unwrap_or(1.0);
    if !(0.0..=1.0).contains(&threshold) {
        let fixes = vec![ctx.fix_remove(
            "Drop the threshold (no host receive buffering)",
            "disaggregation_decode_host_receive_threshold",
            Applicability::Unsafe,
        )];
        return ctx.raise(&HOST_RECEIVE_RANGE, HOST_RECEIVE_RANGE.template.to_string(), &["disaggregation_decode_host_receive_threshold"], fixes);
    }
    if threshold < 1.0 {
        if ctx.cfg.truthy("enable_hisparse") || ctx.cfg.truthy("enable_pd_role_switch") {
            let dest = if ctx.cfg.truthy("enable_hisparse") { "enable_hisparse" } else { "enable_pd_role_switch" };
            let fixes = vec![ctx.fix_remove(
                "Drop --disaggregation-decode-host-receive-threshold",
                "disaggregation_decode_host_receive_threshold",
                Applicability::Unsafe,
            )];
            return ctx.raise(&HOST_RECEIVE_FEATURES, HOST_RECEIVE_FEATURES.template.to_string(), &["disaggregation_decode_host_receive_threshold", dest], fixes);
        }
        if ctx.cfg.is("disaggregation_decode_retraction_backup", "cpu_tensor") {
            let fixes = vec![
                ctx.fix_set(
                    "Back up retracted requests in the host pool",
                    "disaggregation_decode_retraction_backup",
                    "--disaggregation-decode-retraction-backup",
                    "host_pool",
                    Applicability::Unsafe,
                ),
                ctx.fix_remove(
                    "Drop --disaggregation-decode-host-receive-threshold",
                    "disaggregation_decode_host_receive_threshold",
                    Applicability::Unsafe,
                ),
            ];
            return ctx.raise(
                &HOST_RECEIVE_NEEDS_HOST_POOL,
                HOST_RECEIVE_NEEDS_HOST_POOL.template.to_string(),
                &["disaggregation_decode_retraction_backup", "disaggregation_decode_host_receive_threshold"],
                fixes,
            );
        }
        ctx.cfg.set("disaggregation_decode_retraction_backup", PyValue::Str("host_pool".into()));
    }

    // pd_disaggregation_hook.handle_pd_disaggregation#4 (decode DCP transfer backend): every
    // backend argparse accepts is allowed ('mooncake_tcp' became 'mooncake' above).

    if mode == "decode" {
        if ctx.cfg.truthy("disaggregation_decode_enable_radix_cache") {
            if ctx.cfg.truthy("enable_hisparse") {
                let fixes = vec![ctx.fix_remove("Drop --enable-hisparse", "enable_hisparse", Applicability::Unsafe)];
                return ctx.raise(&DECODE_RADIX_HISPARSE, DECODE_RADIX_HISPARSE.template.to_string(), &["disaggregation_decode_enable_radix_cache", "enable_hisparse"], fixes);
            }
            if backend(ctx) == "fake" {
                let fixes = vec![ctx.fix_remove(
                    "Drop --disaggregation-decode-enable-radix-cache",
                    "disaggregation_decode_enable_radix_cache",
                    Applicability::Safe,
                )];
                return ctx.raise(
                    &DECODE_RADIX_FAKE,
                    DECODE_RADIX_FAKE.template.to_string(),
                    &["disaggregation_decode_enable_radix_cache", "disaggregation_transfer_backend"],
                    fixes,
                );
            }
            if attn_dp_enabled(ctx) {
                ctx.warn(&DECODE_RADIX_DP_WARNING, DECODE_RADIX_DP_WARNING.template.to_string(), &["disaggregation_decode_enable_radix_cache"], vec![]);
            }
            ctx.cfg.set("disable_radix_cache", PyValue::Bool(false));
            ctx.warn(&DECODE_RADIX_ENABLED_WARNING, DECODE_RADIX_ENABLED_WARNING.template.to_string(), &["disaggregation_decode_enable_radix_cache"], vec![]);
        } else {
            ctx.cfg.set("disable_radix_cache", PyValue::Bool(true));
            ctx.warn(&DECODE_RADIX_DISABLED_WARNING, DECODE_RADIX_DISABLED_WARNING.template.to_string(), &["disaggregation_mode"], vec![]);
        }
        if ctx.cfg.is_none("disaggregation_decode_extra_slots") {
            let mut extra = 0;
            if let Some(mrr) = ctx.cfg.int("max_running_requests") {
                let ranks = num_dp_ranks(ctx).max(1);
                let per_worker = mrr.div_euclid(ranks).max(1);
                if per_worker <= 32 {
                    extra = per_worker * 2;
                }
            }
            ctx.cfg.set("disaggregation_decode_extra_slots", PyValue::Int(extra));
        }
    } else if mode == "prefill" {
        if backend(ctx) == "fake" {
            let fixes = vec![ctx.fix_set(
                "Use the mooncake transfer backend",
                "disaggregation_transfer_backend",
                "--disaggregation-transfer-backend",
                "mooncake",
                Applicability::Unsafe,
            )];
            return ctx.raise(&PREFILL_FAKE, PREFILL_FAKE.template.to_string(), &["disaggregation_transfer_backend", "disaggregation_mode"], fixes);
        }
        if env_bool(ctx, "SGLANG_RUST_SERVER") && !alias_bootstrap_port_to_api_port(ctx) {
            return;
        }
    }

    if mode == "prefill" || mode == "decode" {
        let b = backend(ctx);
        if env_bool(ctx, "SGLANG_DISAGG_STAGING_BUFFER") && b != "mooncake" && b != "nixl" {
            let fixes = vec![ctx.fix_set(
                "Use the mooncake transfer backend",
                "disaggregation_transfer_backend",
                "--disaggregation-transfer-backend",
                "mooncake",
                Applicability::Unsafe,
            )];
            let msg = format!(
                "SGLANG_DISAGG_STAGING_BUFFER requires disaggregation_transfer_backend='mooncake' or 'nixl', got '{b}'."
            );
            return ctx.raise(&STAGING_BUFFER_BACKEND, msg, &["disaggregation_transfer_backend"], fixes);
        }
        if ctx.cfg.truthy("enable_pd_role_switch") {
            // Read after the hooks before this one; ep_size / moe_a2a_backend are the raw values
            // here (the MoE hooks that change them run later).
            let mut unsupported: Vec<String> = Vec::new();
            let mut dests: Vec<&str> = vec!["enable_pd_role_switch"];
            let ep = int(ctx, "ep_size", 1);
            if ep > 1 {
                unsupported.push(format!("expert parallelism (--ep-size {ep})"));
                dests.push("ep_size");
            }
            let a2a = ctx.cfg.str("moe_a2a_backend").unwrap_or("none").to_string();
            if a2a != "none" {
                unsupported.push(format!("MoE all-to-all (--moe-a2a-backend {a2a})"));
                dests.push("moe_a2a_backend");
            }
            let pp = int(ctx, "pp_size", 1);
            if pp > 1 {
                unsupported.push(format!("pipeline parallelism (--pp-size {pp})"));
                dests.push("pp_size");
            }
            if attn_dp_enabled(ctx) && ctx.cfg.truthy("enable_dp_attention_local_control_broadcast") {
                unsupported.push("DP attention local control broadcast".into());
                dests.push("enable_dp_attention_local_control_broadcast");
            }
            if dcp > 1 {
                unsupported.push(format!("decode context parallelism (--dcp-size {dcp})"));
                dests.push("dcp_size");
            }
            if !ctx.cfg.is_none("speculative_algorithm") {
                unsupported.push(format!("speculative decoding (--speculative-algorithm {})", ctx.cfg.get("speculative_algorithm").py_str()));
                dests.push("speculative_algorithm");
            }
            if !unsupported.is_empty() {
                let mut fixes = vec![ctx.fix_remove("Drop --enable-pd-role-switch", "enable_pd_role_switch", Applicability::Unsafe)];
                for d in dests.iter().skip(1) {
                    fixes.push(ctx.fix_remove(format!("Keep role switching: drop the {d} setting"), d, Applicability::Unsafe));
                }
                let msg = format!(
                    "--enable-pd-role-switch does not rebuild role-specific state for the following features: {}. Remove these options or drop --enable-pd-role-switch.",
                    unsupported.join(", ")
                );
                ctx.raise(&ROLE_SWITCH_FEATURES, msg, &dests, fixes);
            }
        }
    }
}

/// `_validate_prefill_complete`; false when it raised.
fn validate_prefill_complete(ctx: &mut Ctx, mode: &str) -> bool {
    let mut unsupported: Vec<&str> = Vec::new();
    if mode != "prefill" && mode != "decode" {
        unsupported.push("aggregated serving");
    }
    if backend(ctx) != "mooncake" {
        unsupported.push("transfer backends other than Mooncake");
    }
    if int(ctx, "pp_size", 1) != 1 || int(ctx, "attn_cp_size", 1) != 1 || int(ctx, "dcp_size", 1) != 1 {
        unsupported.push("pipeline or attention context parallelism");
    }
    // Reads enable_dp_attention, which handle_deprecated_dp_attention has already cleared.
    let attn_dp = if ctx.cfg.truthy("enable_dp_attention") { int(ctx, "dp_size", 1) } else { 1 };
    if int(ctx, "tp_size", 1) != attn_dp {
        unsupported.push("attention tensor parallelism greater than one");
    }
    if ctx.cfg.truthy("enable_pdmux") || !ctx.cfg.is("decoupled_spec_role", "null") {
        unsupported.push("PD multiplexing or decoupled speculation");
    }
    if ctx.cfg.truthy("enable_pd_role_switch") {
        unsupported.push("runtime PD role switching");
    }
    if ctx.cfg.truthy("encoder_only") || ctx.cfg.truthy("language_only") {
        unsupported.push("encoder disaggregation");
    }
    if ctx.cfg.truthy("enable_hisparse") {
        unsupported.push("HiSparse");
    }
    if ctx.cfg.float("disaggregation_decode_host_receive_threshold").unwrap_or(1.0) < 1.0 {
        unsupported.push("decode host KV buffering");
    }
    let hicache = ctx.cfg.truthy("enable_hierarchical_cache");
    if mode == "decode" && (ctx.cfg.truthy("disaggregation_decode_enable_radix_cache") || hicache) {
        unsupported.push("decode radix cache or decode HiCache");
    }
    if mode == "prefill"
        && hicache
        && (!ctx.cfg.is_none("hicache_storage_backend") || !ctx.cfg.is("hicache_write_policy", "write_back"))
    {
        unsupported.push("prefill HiCache other than L2 write_back");
    }
    if env_bool(ctx, "SGLANG_DISAGG_STAGING_BUFFER") {
        unsupported.push("staging buffers");
    }
    if env_bool(ctx, "SGLANG_RUST_SERVER") {
        unsupported.push("the Rust bootstrap registry");
    }
    if unsupported.is_empty() {
        return true;
    }
    let fixes = vec![ctx.fix_remove(
        "Use the default allocation policy (early)",
        "disaggregation_decode_allocation_policy",
        Applicability::Unsafe,
    )];
    let msg = format!(
        "--disaggregation-decode-allocation-policy prefill_complete does not yet support {}",
        unsupported.join(", ")
    );
    ctx.raise(&PREFILL_COMPLETE_UNSUPPORTED, msg, &["disaggregation_decode_allocation_policy"], fixes);
    false
}

/// `_alias_bootstrap_port_to_api_port` (SGLANG_RUST_SERVER on a prefill server); false when it
/// raised or could not be checked.
fn alias_bootstrap_port_to_api_port(ctx: &mut Ctx) -> bool {
    // rust_server_serves_kv_bootstrap: the built-in backends' bootstrap servers (mooncake, nixl,
    // ascend) subclass CommonKVBootstrapServer. 'mori' needs the optional `mori` package, which a
    // standard install lacks (SGLang fails importing it); 'fake' has no bootstrap server.
    match backend(ctx).as_str() {
        "mooncake" | "nixl" | "ascend" => {}
        "mori" => {
            ctx.skip("pd_disaggregation_hook._alias_bootstrap_port_to_api_port#1", NotRunReason::NotImplemented);
            return false;
        }
        _ => return true,
    }
    let port = int(ctx, "port", 30000);
    let bootstrap = int(ctx, "disaggregation_bootstrap_port", 8998);
    if bootstrap != 8998 && bootstrap != port {
        let fixes = vec![ctx.fix_remove(
            "Drop --disaggregation-bootstrap-port (bootstrap on the API port)",
            "disaggregation_bootstrap_port",
            Applicability::Unsafe,
        )];
        let msg = format!(
            "SGLANG_RUST_SERVER serves the PD KV bootstrap registry on the api port itself; --disaggregation-bootstrap-port {bootstrap} conflicts with --port {port}. Drop --disaggregation-bootstrap-port (decode nodes and the PD router must then target the prefill api port)."
        );
        ctx.raise(&RUST_SERVER_BOOTSTRAP_PORT, msg, &["disaggregation_bootstrap_port", "port"], fixes);
        return false;
    }
    if bootstrap != port {
        ctx.cfg.set("disaggregation_bootstrap_port", PyValue::Int(port));
    }
    true
}

/// `validation_hook.validate_ib_devices` for the plain comma-separated form, against the
/// profile's `/sys/class/infiniband` (`mlx5_0`.. as the recorder's profiles list them).
/// Returns the normalized value, or None when it raised (or the form could not be checked:
/// JSON mappings and `.json` files are skipped).
pub(crate) fn validate_ib_devices(ctx: &mut Ctx, device: Option<&str>, dest: &'static str) -> Option<PyValue> {
    let Some(raw) = device else {
        ctx.warn(&IB_AUTO_WARNING, IB_AUTO_WARNING.template.to_string(), &[dest], vec![]);
        return Some(PyValue::None);
    };
    let normalized = raw.trim();
    if normalized.is_empty() {
        let fixes = vec![ctx.fix_remove("Drop the empty device list (auto discovery)", dest, Applicability::Safe)];
        ctx.raise(&IB_EMPTY, IB_EMPTY.template.to_string(), &[dest], fixes);
        return None;
    }
    if ctx.hw.ib_devices == 0 {
        let fixes = vec![ctx.fix_remove("Drop the device list (auto discovery)", dest, Applicability::Unsafe)];
        ctx.raise(
            &IB_NO_SYSFS,
            "InfiniBand sysfs path not found: /sys/class/infiniband. Please ensure InfiniBand drivers are installed.".into(),
            &[dest],
            fixes,
        );
        return None;
    }
    if normalized.ends_with(".json") || normalized.starts_with('{') {
        ctx.skip("validation_hook.validate_ib_devices#4", NotRunReason::Files);
        return None;
    }
    let available: Vec<String> = (0..ctx.hw.ib_devices).map(|i| format!("mlx5_{i}")).collect();
    let context = "all GPUs";
    let devices: Vec<&str> = normalized.split(',').map(str::trim).filter(|d| !d.is_empty()).collect();
    if devices.is_empty() {
        ctx.raise(&IB_GROUP_EMPTY, format!("No valid IB devices specified for {context}"), &[dest], vec![]);
        return None;
    }
    let mut unique: Vec<&str> = Vec::new();
    for d in &devices {
        if !unique.contains(d) {
            unique.push(d);
        }
    }
    if unique.len() != devices.len() {
        ctx.warn(
            &IB_DUPLICATE_WARNING,
            format!("Duplicate IB devices specified for {context}: {normalized}. Deduplicating to: {}", unique.join(",")),
            &[dest],
            vec![],
        );
    }
    let invalid: Vec<&str> = unique.iter().copied().filter(|d| !available.iter().any(|a| a == d)).collect();
    if !invalid.is_empty() {
        let mut sorted = available.clone();
        sorted.sort();
        let list = |v: &[&str]| format!("[{}]", v.iter().map(|s| str_repr(s)).collect::<Vec<_>>().join(", "));
        let avail: Vec<&str> = sorted.iter().map(String::as_str).collect();
        let valid: Vec<&str> = unique.iter().copied().filter(|d| available.iter().any(|a| a == d)).collect();
        let mut fixes = Vec::new();
        if !valid.is_empty() {
            let flag = ctx.cfg.setting(dest).map(|s| s.option.clone()).unwrap_or_default();
            if !flag.is_empty() {
                fixes.push(ctx.fix_set("Keep only the devices that exist", dest, &flag, &valid.join(","), Applicability::Unsafe));
            }
        }
        fixes.push(ctx.fix_remove("Drop the device list (auto discovery)", dest, Applicability::Unsafe));
        let msg = format!(
            "Invalid IB devices specified for {context}: {}. Available devices: {}",
            list(&invalid),
            list(&avail)
        );
        ctx.raise(&IB_UNKNOWN, msg, &[dest], fixes);
        return None;
    }
    Some(PyValue::Str(unique.join(",")))
}

/// `handle_encoder_disaggregation`.
pub fn handle_encoder_disaggregation(ctx: &mut Ctx) {
    // model_hook.handle_language_model_only: the flag checks come before the model config.
    if ctx.cfg.truthy("language_model_only") {
        for (dest, name) in [
            ("encoder_only", "--encoder-only"),
            ("language_only", "--language-only"),
            ("enable_prefix_mm_cache", "--enable-prefix-mm-cache"),
            ("enable_broadcast_mm_inputs_process", "--enable-broadcast-mm-inputs-process"),
            ("mm_enable_dp_encoder", "--mm-enable-dp-encoder"),
        ] {
            if ctx.cfg.truthy(dest) {
                // Dropping --language-model-only instead is also a choice, but whether the
                // model then suits the remaining encoder flags depends on its architecture.
                let fixes = vec![ctx.fix_remove(format!("Drop {name}"), dest, Applicability::Unsafe)];
                let msg = format!("--language-model-only cannot be combined with {name}");
                return ctx.raise(&LANGUAGE_MODEL_ONLY_FLAGS, msg, &[dest, "language_model_only"], fixes);
            }
        }
        ctx.skip("model_hook.handle_language_model_only#2", NotRunReason::ModelConfig);
        ctx.skip("model_hook.handle_language_model_only#3", NotRunReason::ModelConfig);
        return;
    }
    let encoder_only = ctx.cfg.truthy("encoder_only");
    let language_only = ctx.cfg.truthy("language_only");
    if ctx.cfg.truthy("enable_prefix_mm_cache") && !encoder_only {
        let fixes = vec![ctx.fix_remove("Drop --enable-prefix-mm-cache", "enable_prefix_mm_cache", Applicability::Unsafe)];
        return ctx.raise(&PREFIX_MM_CACHE_NEEDS_ENCODER, PREFIX_MM_CACHE_NEEDS_ENCODER.template.to_string(), &["enable_prefix_mm_cache"], fixes);
    }
    if encoder_only && language_only {
        let fixes = vec![
            ctx.fix_remove("Run the encoder half: drop --language-only", "language_only", Applicability::Unsafe),
            ctx.fix_remove("Run the language half: drop --encoder-only", "encoder_only", Applicability::Unsafe),
        ];
        return ctx.raise(&ENCODER_AND_LANGUAGE_ONLY, ENCODER_AND_LANGUAGE_ONLY.template.to_string(), &["encoder_only", "language_only"], fixes);
    }
    let mode = ctx.cfg.str("disaggregation_mode").unwrap_or("null").to_string();
    if encoder_only && mode != "null" {
        let fixes = vec![
            ctx.fix_remove("Drop --disaggregation-mode", "disaggregation_mode", Applicability::Unsafe),
            ctx.fix_remove("Drop --encoder-only", "encoder_only", Applicability::Unsafe),
        ];
        return ctx.raise(&ENCODER_ONLY_WITH_PD, ENCODER_ONLY_WITH_PD.template.to_string(), &["encoder_only", "disaggregation_mode"], fixes);
    }
    if (backend(ctx) == "mooncake" && (mode == "prefill" || mode == "decode")) || ctx.cfg.is("encoder_transfer_backend", "mooncake") {
        let dev = ctx.cfg.str("disaggregation_ib_device").map(str::to_string);
        match validate_ib_devices(ctx, dev.as_deref(), "disaggregation_ib_device") {
            Some(v) => ctx.cfg.set("disaggregation_ib_device", v),
            None => return,
        }
    }
    // The rest reads the model's architecture: encoder_transfer_backend 'auto' resolution and
    // the encoder-disaggregation architecture checks.
    if encoder_only || language_only {
        ctx.skip("pd_disaggregation_hook.handle_encoder_disaggregation#4", NotRunReason::ModelConfig);
        if language_only && ctx.cfg.truthy("enable_adaptive_dispatch_to_encoder") {
            ctx.skip("pd_disaggregation_hook.handle_encoder_disaggregation#5", NotRunReason::ModelConfig);
        }
    }
}
