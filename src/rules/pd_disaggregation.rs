//! Rules from SGLang's `sglang/srt/arg_groups/pd_disaggregation_hook.py`
//! (`handle_pd_disaggregation`, `handle_encoder_disaggregation`), with the helpers only these
//! hooks reach: `model_hook.handle_language_model_only` (its flag checks, and with the model's
//! facts its PD and architecture checks). The encoder-disaggregation architecture check runs with
//! the model's architecture. The IB device checks they call are in `shared::ib_devices`.

use super::shared::envs::env_bool;
use super::shared::ib_devices::validate_ib_devices;
use super::shared::runtime_context::{attn_dp_enabled, num_dp_ranks};
use super::{Ctx, NotRunReason, Rule};
use crate::diagnostic::Applicability;
use crate::pyvalue::PyValue;
use crate::fields::{f, Field};
use crate::rules::{raises, site, warns, Args, Step};

pub static HOST_RECEIVE_RANGE: Rule = Rule {
    code: "PD001",
    name: kebab!("decode-host-receive-threshold-range"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "--disaggregation-decode-host-receive-threshold"),
    explanation: expl!("The threshold is a fraction of the decode KV pool; 1 (the default) turns host-side receive buffering off."),
    flags: &["--disaggregation-decode-host-receive-threshold"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 1.5"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 0.9"),
};
pub static HOST_RECEIVE_FEATURES: Rule = Rule {
    code: "PD002",
    name: kebab!("decode-host-receive-excludes-hisparse-role-switch"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "Decode host receive does not yet support"),
    explanation: expl!("Buffering received KV in host memory (threshold below 1) is not implemented together with HiSparse or runtime PD role switching."),
    flags: &["--disaggregation-decode-host-receive-threshold", "--enable-hisparse", "--enable-pd-role-switch"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 0.9 --enable-pd-role-switch"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 0.9"),
};
pub static HOST_RECEIVE_NEEDS_HOST_POOL: Rule = Rule {
    code: "PD003",
    name: kebab!("decode-host-receive-needs-host-pool"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "Decode host KV buffering requires host_pool"),
    explanation: expl!("Host-side KV buffering on the decode server shares the host KV pool, so retracted requests must also be backed up there (host_pool), not as CPU tensors."),
    flags: &["--disaggregation-decode-host-receive-threshold", "--disaggregation-decode-retraction-backup"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 0.9 --disaggregation-decode-retraction-backup cpu_tensor"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-host-receive-threshold 0.9 --disaggregation-decode-retraction-backup host_pool"),
};
pub static DECODE_RADIX_HISPARSE: Rule = Rule {
    code: "PD005",
    name: kebab!("decode-radix-cache-excludes-hisparse"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "--disaggregation-decode-enable-radix-cache is incompatible with --enable-hisparse"),
    explanation: expl!("The experimental decode-side radix cache cannot be combined with HiSparse attention's KV management."),
    flags: &["--disaggregation-decode-enable-radix-cache", "--enable-hisparse"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-radix-cache --enable-hisparse"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-radix-cache"),
};
pub static DECODE_RADIX_FAKE: Rule = Rule {
    code: "PD006",
    name: kebab!("decode-radix-cache-excludes-fake-transfer"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "--disaggregation-decode-enable-radix-cache is incompatible with --disaggregation-transfer-backend"),
    explanation: expl!("The fake transfer backend moves no KV, so there is nothing for a decode radix cache to reuse."),
    flags: &["--disaggregation-decode-enable-radix-cache", "--disaggregation-transfer-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-enable-radix-cache --disaggregation-transfer-backend fake"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-transfer-backend fake"),
};
pub static PREFILL_FAKE: Rule = Rule {
    code: "PD007",
    name: kebab!("prefill-excludes-fake-transfer"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "Prefill server does not support 'fake' as"),
    explanation: expl!("The fake transfer backend only exists for synthetic decode benchmarks; a prefill server needs a real KV transfer backend."),
    flags: &["--disaggregation-mode", "--disaggregation-transfer-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend fake"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend mooncake"),
};
pub static STAGING_BUFFER_BACKEND: Rule = Rule {
    code: "PD008",
    name: kebab!("staging-buffer-needs-mooncake-or-nixl"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "SGLANG_DISAGG_STAGING_BUFFER requires disaggregation_transfer_backend='mooncake'"),
    explanation: expl!("The PD staging buffer (environment variable SGLANG_DISAGG_STAGING_BUFFER) is only implemented for the Mooncake and NIXL transfer backends."),
    flags: &["--disaggregation-transfer-backend"],
    example_bad: ex!("SGLANG_DISAGG_STAGING_BUFFER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-transfer-backend fake"),
    example_good: ex!("SGLANG_DISAGG_STAGING_BUFFER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-transfer-backend mooncake"),
};
pub static ROLE_SWITCH_FEATURES: Rule = Rule {
    code: "PD009",
    name: kebab!("pd-role-switch-unsupported-features"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "--enable-pd-role-switch does not rebuild"),
    explanation: expl!("Switching a server between prefill and decode at run time does not rebuild the state of EP, MoE all-to-all, PP, DCP, speculative decoding or DP-attention local broadcast."),
    flags: &["--enable-pd-role-switch", "--ep-size", "--moe-a2a-backend", "--pp-size", "--dcp-size", "--speculative-algorithm"],
    example_bad: ex!("--model-path Qwen/Qwen3-30B-A3B --disaggregation-mode prefill --enable-pd-role-switch --tp-size 2 --ep-size 2"),
    example_good: ex!("--model-path Qwen/Qwen3-30B-A3B --disaggregation-mode prefill --enable-pd-role-switch --tp-size 2"),
};
pub static PREFILL_COMPLETE_UNSUPPORTED: Rule = Rule {
    code: "PD010",
    name: kebab!("prefill-complete-allocation-unsupported"),
    sglang: raises("pd_disaggregation_hook._validate_prefill_complete", "--disaggregation-decode-allocation-policy"),
    explanation: expl!("The prefill_complete allocation policy is a narrow, Mooncake-only PD mode without attention TP, context parallelism, HiCache on decode and several other features."),
    flags: &["--disaggregation-decode-allocation-policy", "--disaggregation-mode", "--disaggregation-transfer-backend", "--tp-size"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-decode-allocation-policy prefill_complete"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --disaggregation-decode-allocation-policy prefill_complete"),
};
pub static RUST_SERVER_BOOTSTRAP_PORT: Rule = Rule {
    code: "PD011",
    name: kebab!("rust-server-bootstrap-port-is-api-port"),
    sglang: raises("pd_disaggregation_hook._alias_bootstrap_port_to_api_port", "SGLANG_RUST_SERVER serves the PD KV bootstrap"),
    explanation: expl!("With the Rust HTTP server (SGLANG_RUST_SERVER) a prefill server answers KV bootstrap requests on its API port, so a different explicit bootstrap port cannot be honoured."),
    flags: &["--disaggregation-bootstrap-port", "--port"],
    example_bad: ex!("SGLANG_RUST_SERVER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-bootstrap-port 9000"),
    example_good: ex!("SGLANG_RUST_SERVER=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill"),
};

pub static DCP_PREFILL_WARNING: Rule = Rule {
    code: "PD020",
    name: kebab!("dcp-on-prefill-server"),
    sglang: warns("pd_disaggregation_hook.handle_pd_disaggregation", "DCP on a PD prefill server is supported when"),
    explanation: expl!("Decode context parallelism mainly helps decode; on a prefill server it costs communication and only works if decode uses the same DCP layout."),
    flags: &["--dcp-size", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --dcp-size 2 --disaggregation-mode prefill"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --disaggregation-mode prefill"),
};
pub static DECODE_RADIX_DP_WARNING: Rule = Rule {
    code: "PD021",
    name: kebab!("decode-radix-cache-with-dp-attention"),
    sglang: warns("pd_disaggregation_hook.handle_pd_disaggregation", "EXPERIMENTAL: Decode radix cache with DP"),
    explanation: expl!("Under attention DP, each DP rank has its own decode radix cache; hits need a router that sends shared prefixes to the same rank."),
    flags: &["--disaggregation-decode-enable-radix-cache", "--attn-dp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static DECODE_RADIX_ENABLED_WARNING: Rule = Rule {
    code: "PD022",
    name: kebab!("decode-radix-cache-experimental"),
    sglang: warns("pd_disaggregation_hook.handle_pd_disaggregation", "EXPERIMENTAL: Radix cache is enabled for"),
    explanation: expl!("The radix cache on a PD decode server is experimental."),
    flags: &["--disaggregation-decode-enable-radix-cache"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static DECODE_RADIX_DISABLED_WARNING: Rule = Rule {
    code: "PD023",
    name: kebab!("decode-radix-cache-disabled"),
    sglang: warns("pd_disaggregation_hook.handle_pd_disaggregation", "Radix cache is disabled for decode server"),
    explanation: expl!("A PD decode server receives its KV cache from prefill, so SGLang turns its radix (prefix) cache off unless --disaggregation-decode-enable-radix-cache is given."),
    flags: &["--disaggregation-mode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

pub static PREFIX_MM_CACHE_NEEDS_ENCODER: Rule = Rule {
    code: "PD030",
    name: kebab!("prefix-mm-cache-needs-encoder-only"),
    sglang: raises("pd_disaggregation_hook.handle_encoder_disaggregation", "--enable-prefix-mm-cache requires --encoder-only"),
    explanation: expl!("The multimodal prefix cache lives on the encoder server of encoder disaggregation."),
    flags: &["--enable-prefix-mm-cache", "--encoder-only"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-prefix-mm-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};
pub static ENCODER_AND_LANGUAGE_ONLY: Rule = Rule {
    code: "PD031",
    name: kebab!("encoder-only-excludes-language-only"),
    sglang: raises("pd_disaggregation_hook.handle_encoder_disaggregation", "Cannot set --encoder-only and --language-only"),
    explanation: expl!("A server is either the encoder half or the language half of encoder disaggregation, not both."),
    flags: &["--encoder-only", "--language-only"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --encoder-only --language-only"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --language-only"),
};
pub static ENCODER_ONLY_WITH_PD: Rule = Rule {
    code: "PD032",
    name: kebab!("encoder-only-excludes-pd"),
    sglang: raises("pd_disaggregation_hook.handle_encoder_disaggregation", "Cannot set --encoder-only and --disaggregation-mode"),
    explanation: expl!("An encoder-only server runs no language model, so it cannot be a PD prefill or decode server."),
    flags: &["--encoder-only", "--disaggregation-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --encoder-only --disaggregation-mode prefill"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --encoder-only"),
};
pub static LANGUAGE_MODEL_ONLY_FLAGS: Rule = Rule {
    code: "PD033",
    name: kebab!("language-model-only-excludes-encoder-flags"),
    sglang: raises("model_hook.handle_language_model_only", "--language-model-only cannot be combined"),
    explanation: expl!("--language-model-only loads only the text model, so flags that need the vision/audio encoder or encoder disaggregation make no sense with it."),
    flags: &["--language-model-only", "--encoder-only", "--language-only", "--enable-prefix-mm-cache", "--enable-broadcast-mm-inputs-process", "--mm-enable-dp-encoder"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --language-model-only --language-only"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --language-only"),
};
pub static LANGUAGE_MODEL_ONLY_WITH_PD: Rule = Rule {
    code: "PD047",
    name: kebab!("language-model-only-excludes-pd"),
    sglang: raises("model_hook.handle_language_model_only", "--language-model-only is incompatible with"),
    explanation: expl!("--language-model-only serves the text model of a multimodal checkpoint without its encoders; its KV transfer to or from a PD peer is not the standard one, so SGLang refuses --disaggregation-mode prefill/decode with it (DeepSeek-V4.1, model_type deepseek_v41, is the exception: its text-only workers use the standard path)."),
    flags: &["--language-model-only", "--disaggregation-mode"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --language-model-only --disaggregation-mode prefill"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V4-Flash --tp-size 8 --language-model-only"),
};
pub static LANGUAGE_MODEL_ONLY_ARCH: Rule = Rule {
    code: "PD048",
    name: kebab!("language-model-only-unsupported-architecture"),
    sglang: raises("model_hook.handle_language_model_only", "--language-model-only does not support {architectures}."),
    explanation: expl!("--language-model-only skips loading a checkpoint's encoders, which SGLang has only for the architectures it lists (none of the config's `architectures` is one of them); a text-only model needs no such flag."),
    flags: &["--language-model-only"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --language-model-only"),
    example_good: ex!("--model-path Qwen/Qwen3-8B"),
};
pub static ENCODER_DISAGGREGATION_ARCH: Rule = Rule {
    code: "PD049",
    name: kebab!("encoder-disaggregation-unsupported-architecture"),
    sglang: raises("pd_disaggregation_hook.handle_encoder_disaggregation", "Model type {model_arch} is not supported"),
    explanation: expl!("--encoder-only and --language-only split a multimodal model into an encoder server and a language server; SGLang has the split only for the multimodal architectures it lists."),
    flags: &["--encoder-only", "--language-only"],
    example_bad: ex!("--model-path Qwen/Qwen3-8B --encoder-only"),
    example_good: ex!("--model-path Qwen/Qwen3-VL-8B-Instruct --encoder-only"),
};

/// Every rule in this family.
pub static DECODE_DCP_BACKEND: Rule = Rule {
    code: "PD050",
    name: kebab!("decode-dcp-transfer-backend"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "PD decode DCP requires --disaggregation-transfer-backend mooncake or nixl"),
    explanation: expl!("In SGLang 0.5.18 a decode server with decode context parallelism (--dcp-size > 1) receives its KV cache relaid out by the Mooncake or NIXL transfer backends only."),
    flags: &["--dcp-size", "--disaggregation-transfer-backend", "--disaggregation-mode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static DECODE_DCP_RADIX: Rule = Rule {
    code: "PD051",
    name: kebab!("decode-dcp-radix-cache"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "PD decode DCP currently requires chunk cache; --disaggregation-decode-enable-radix-cache"),
    explanation: expl!("In SGLang 0.5.18 a decode server with decode context parallelism keeps a chunk cache: the decode radix cache is not supported with it."),
    flags: &["--dcp-size", "--disaggregation-decode-enable-radix-cache", "--disaggregation-mode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static DECODE_DCP_HICACHE: Rule = Rule {
    code: "PD052",
    name: kebab!("decode-dcp-hierarchical-cache"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "PD decode DCP currently requires chunk cache; --enable-hierarchical-cache"),
    explanation: expl!("In SGLang 0.5.18 a decode server with decode context parallelism keeps a chunk cache: the hierarchical cache is not supported with it."),
    flags: &["--dcp-size", "--enable-hierarchical-cache", "--disaggregation-mode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static DECODE_RADIX_SPECULATIVE: Rule = Rule {
    code: "PD053",
    name: kebab!("decode-radix-cache-excludes-speculative"),
    sglang: raises("pd_disaggregation_hook.handle_pd_disaggregation", "--disaggregation-decode-enable-radix-cache is incompatible with speculative decoding"),
    explanation: expl!("SGLang 0.5.18 does not combine the decode server's radix cache with speculative decoding (later releases do)."),
    flags: &["--disaggregation-decode-enable-radix-cache", "--speculative-algorithm"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static DECODE_CHUNK_CACHE_WARNING: Rule = Rule {
    code: "PD054",
    name: kebab!("decode-server-chunk-cache"),
    sglang: warns("pd_disaggregation_hook.handle_pd_disaggregation", "KV cache is forced as chunk cache for decode server"),
    explanation: expl!("SGLang 0.5.18's wording of PD023: a decode server keeps a chunk cache (no radix cache) unless --disaggregation-decode-enable-radix-cache is given."),
    flags: &["--disaggregation-mode", "--disaggregation-decode-enable-radix-cache"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

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
    &DECODE_DCP_BACKEND,
    &DECODE_DCP_RADIX,
    &DECODE_DCP_HICACHE,
    &DECODE_RADIX_SPECULATIVE,
    &DECODE_CHUNK_CACHE_WARNING,
    &PREFIX_MM_CACHE_NEEDS_ENCODER,
    &ENCODER_AND_LANGUAGE_ONLY,
    &ENCODER_ONLY_WITH_PD,
    &LANGUAGE_MODEL_ONLY_FLAGS,
    &LANGUAGE_MODEL_ONLY_WITH_PD,
    &LANGUAGE_MODEL_ONLY_ARCH,
    &ENCODER_DISAGGREGATION_ARCH,
];

fn int(ctx: &Ctx, field: Field, default: i64) -> i64 {
    ctx.cfg.int(field).unwrap_or(default)
}

fn backend(ctx: &Ctx) -> String {
    ctx.cfg.str(f::disaggregation_transfer_backend).unwrap_or("mooncake").to_string()
}

/// `handle_pd_disaggregation`.
pub fn handle_pd_disaggregation(ctx: &mut Ctx) -> Step {
    if ctx.cfg.is(f::disaggregation_transfer_backend, "mooncake_tcp") {
        // os.environ.setdefault("MC_FORCE_TCP", "1"); mooncake with TCP transport.
        ctx.cfg.set(f::disaggregation_transfer_backend, PyValue::Str("mooncake".into()));
        ctx.cfg.set(f::disaggregation_ib_device, PyValue::None);
    }
    let mode = ctx.cfg.str(f::disaggregation_mode).unwrap_or("null").to_string();

    if ctx.cfg.is(f::disaggregation_decode_allocation_policy, "prefill_complete") {
        validate_prefill_complete(ctx, &mode)?;
        if mode == "prefill" && int(ctx, f::optimistic_prefill_attempts, 0) == 0 {
            ctx.cfg.set(f::optimistic_prefill_attempts, PyValue::Int(1));
        }
    }

    let dcp = int(ctx, f::dcp_size, 1);
    if mode == "prefill" && dcp > 1 {
        ctx.warn(&DCP_PREFILL_WARNING, &[], &[f::dcp_size], vec![]);
    }

    let threshold = ctx.cfg.float(f::disaggregation_decode_host_receive_threshold).unwrap_or(1.0);
    if !(0.0..=1.0).contains(&threshold) {
        let fixes = vec![ctx.fix_remove(
            "Drop the threshold (no host receive buffering)",
            f::disaggregation_decode_host_receive_threshold,
            Applicability::Unsafe,
        )];
        ctx.raise(&HOST_RECEIVE_RANGE, &[], &[f::disaggregation_decode_host_receive_threshold], fixes)?;
    }
    if threshold < 1.0 {
        if ctx.cfg.truthy(f::enable_hisparse) || ctx.cfg.truthy(f::enable_pd_role_switch) {
            let dest = if ctx.cfg.truthy(f::enable_hisparse) { f::enable_hisparse } else { f::enable_pd_role_switch };
            let fixes = vec![ctx.fix_remove(
                "Drop --disaggregation-decode-host-receive-threshold",
                f::disaggregation_decode_host_receive_threshold,
                Applicability::Unsafe,
            )];
            ctx.raise(&HOST_RECEIVE_FEATURES, &[], &[f::disaggregation_decode_host_receive_threshold, dest], fixes)?;
        }
        if ctx.cfg.is(f::disaggregation_decode_retraction_backup, "cpu_tensor") {
            let fixes = vec![
                ctx.fix_set(
                    "Back up retracted requests in the host pool",
                    f::disaggregation_decode_retraction_backup,
                    "host_pool",
                    Applicability::Unsafe,
                ),
                ctx.fix_remove(
                    "Drop --disaggregation-decode-host-receive-threshold",
                    f::disaggregation_decode_host_receive_threshold,
                    Applicability::Unsafe,
                ),
            ];
            ctx.raise(
                &HOST_RECEIVE_NEEDS_HOST_POOL,
                &[],
                &[f::disaggregation_decode_retraction_backup, f::disaggregation_decode_host_receive_threshold],
                fixes,
            )?;
        }
        ctx.cfg.set(f::disaggregation_decode_retraction_backup, PyValue::Str("host_pool".into()));
    }

    // pd_disaggregation_hook.handle_pd_disaggregation#4 (decode DCP transfer backend): every
    // backend argparse accepts is allowed ('mooncake_tcp' became 'mooncake' above). 0.5.18's
    // decode DCP takes mooncake or nixl and a chunk cache only.
    if mode == "decode" && dcp > 1 && DECODE_DCP_BACKEND.applies_to(ctx.release) {
        let b = backend(ctx);
        if b != "mooncake" && b != "nixl" {
            let fixes = vec![ctx.fix_set("Use the mooncake transfer backend", f::disaggregation_transfer_backend, "mooncake", Applicability::Unsafe)];
            let repr = crate::pyvalue::str_repr(&b);
            ctx.raise(&DECODE_DCP_BACKEND, &[("cfg.disaggregation_transfer_backend!r", &repr), ("cfg.disaggregation_transfer_backend", &repr)], &[f::disaggregation_transfer_backend, f::dcp_size], fixes)?;
        }
        if ctx.cfg.truthy(f::disaggregation_decode_enable_radix_cache) {
            let fixes = vec![ctx.fix_remove("Drop --disaggregation-decode-enable-radix-cache", f::disaggregation_decode_enable_radix_cache, Applicability::Unsafe)];
            ctx.raise(&DECODE_DCP_RADIX, &[], &[f::disaggregation_decode_enable_radix_cache, f::dcp_size], fixes)?;
        }
        if ctx.cfg.truthy(f::enable_hierarchical_cache) {
            let fixes = vec![ctx.fix_remove("Drop --enable-hierarchical-cache", f::enable_hierarchical_cache, Applicability::Unsafe)];
            ctx.raise(&DECODE_DCP_HICACHE, &[], &[f::enable_hierarchical_cache, f::dcp_size], fixes)?;
        }
    }
    let legacy = DECODE_CHUNK_CACHE_WARNING.applies_to(ctx.release);

    if mode == "decode" {
        if ctx.cfg.truthy(f::disaggregation_decode_enable_radix_cache) {
            if ctx.cfg.truthy(f::enable_hisparse) {
                let fixes = vec![ctx.fix_remove("Drop --enable-hisparse", f::enable_hisparse, Applicability::Unsafe)];
                ctx.raise(&DECODE_RADIX_HISPARSE, &[], &[f::disaggregation_decode_enable_radix_cache, f::enable_hisparse], fixes)?;
            }
            if backend(ctx) == "fake" {
                let fixes = vec![ctx.fix_remove(
                    "Drop --disaggregation-decode-enable-radix-cache",
                    f::disaggregation_decode_enable_radix_cache,
                    Applicability::Safe,
                )];
                ctx.raise(
                    &DECODE_RADIX_FAKE,
                    &[],
                    &[f::disaggregation_decode_enable_radix_cache, f::disaggregation_transfer_backend],
                    fixes,
                )?;
            }
            if DECODE_RADIX_SPECULATIVE.applies_to(ctx.release) && !ctx.cfg.is_none(f::speculative_algorithm) {
                let alg = ctx.cfg.get(f::speculative_algorithm).py_str();
                let fixes = vec![ctx.fix_remove(
                    "Drop --disaggregation-decode-enable-radix-cache",
                    f::disaggregation_decode_enable_radix_cache,
                    Applicability::Unsafe,
                )];
                ctx.raise(
                    &DECODE_RADIX_SPECULATIVE,
                    &[("server_args.speculative_algorithm", &alg)],
                    &[f::disaggregation_decode_enable_radix_cache, f::speculative_algorithm],
                    fixes,
                )?;
            }
            // 0.5.18 reads `enable_dp_attention` (its resolved view)
            let dp_attention = if legacy { ctx.cfg.truthy(f::enable_dp_attention) } else { attn_dp_enabled(ctx) };
            if dp_attention {
                ctx.warn(&DECODE_RADIX_DP_WARNING, &[], &[f::disaggregation_decode_enable_radix_cache], vec![]);
            }
            ctx.cfg.set(f::disable_radix_cache, PyValue::Bool(false));
            ctx.warn(&DECODE_RADIX_ENABLED_WARNING, &[], &[f::disaggregation_decode_enable_radix_cache], vec![]);
        } else {
            ctx.cfg.set(f::disable_radix_cache, PyValue::Bool(true));
            // one of the two wordings is the release's
            ctx.warn(&DECODE_RADIX_DISABLED_WARNING, &[], &[f::disaggregation_mode], vec![]);
            ctx.warn(&DECODE_CHUNK_CACHE_WARNING, &[], &[f::disaggregation_mode], vec![]);
        }
        if ctx.cfg.is_none(f::disaggregation_decode_extra_slots) {
            let mut extra = 0;
            if let Some(mrr) = ctx.cfg.int(f::max_running_requests) {
                let per_worker = if legacy {
                    // 0.5.18: max_running_requests // max(1, dp_size)
                    mrr.div_euclid(int(ctx, f::dp_size, 1).max(1))
                } else {
                    mrr.div_euclid(num_dp_ranks(ctx).max(1)).max(1)
                };
                if per_worker <= 32 {
                    extra = per_worker * 2;
                }
            }
            ctx.cfg.set(f::disaggregation_decode_extra_slots, PyValue::Int(extra));
        }
    } else if mode == "prefill" {
        if backend(ctx) == "fake" {
            let fixes = vec![ctx.fix_set(
                "Use the mooncake transfer backend",
                f::disaggregation_transfer_backend,
                "mooncake",
                Applicability::Unsafe,
            )];
            ctx.raise(&PREFILL_FAKE, &[], &[f::disaggregation_transfer_backend, f::disaggregation_mode], fixes)?;
        }
        if env_bool(ctx, "SGLANG_RUST_SERVER") && !alias_bootstrap_port_to_api_port(ctx, legacy) {
            return Ok(());
        }
    }

    if mode == "prefill" || mode == "decode" {
        let b = backend(ctx);
        if env_bool(ctx, "SGLANG_DISAGG_STAGING_BUFFER") && b != "mooncake" && b != "nixl" {
            let fixes = vec![ctx.fix_set(
                "Use the mooncake transfer backend",
                f::disaggregation_transfer_backend,
                "mooncake",
                Applicability::Unsafe,
            )];
            let args: &Args = &[("cfg.disaggregation_transfer_backend", &b)];
            ctx.raise(&STAGING_BUFFER_BACKEND, args, &[f::disaggregation_transfer_backend], fixes)?;
        }
        if ctx.cfg.truthy(f::enable_pd_role_switch) {
            // Read after the hooks before this one; ep_size / moe_a2a_backend are the raw values
            // here (the MoE hooks that change them run later).
            let mut unsupported: Vec<String> = Vec::new();
            let mut dests: Vec<Field> = vec![f::enable_pd_role_switch];
            let ep = int(ctx, f::ep_size, 1);
            if ep > 1 {
                unsupported.push(format!("expert parallelism (--ep-size {ep})"));
                dests.push(f::ep_size);
            }
            let a2a = ctx.cfg.str(f::moe_a2a_backend).unwrap_or("none").to_string();
            if a2a != "none" {
                unsupported.push(format!("MoE all-to-all (--moe-a2a-backend {a2a})"));
                dests.push(f::moe_a2a_backend);
            }
            let pp = int(ctx, f::pp_size, 1);
            if pp > 1 {
                unsupported.push(format!("pipeline parallelism (--pp-size {pp})"));
                dests.push(f::pp_size);
            }
            if attn_dp_enabled(ctx) && ctx.cfg.truthy(f::enable_dp_attention_local_control_broadcast) {
                unsupported.push("DP attention local control broadcast".into());
                dests.push(f::enable_dp_attention_local_control_broadcast);
            }
            if dcp > 1 {
                unsupported.push(format!("decode context parallelism (--dcp-size {dcp})"));
                dests.push(f::dcp_size);
            }
            if !ctx.cfg.is_none(f::speculative_algorithm) {
                unsupported.push(format!("speculative decoding (--speculative-algorithm {})", ctx.cfg.get(f::speculative_algorithm).py_str()));
                dests.push(f::speculative_algorithm);
            }
            if !unsupported.is_empty() {
                let mut fixes = vec![ctx.fix_remove("Drop --enable-pd-role-switch", f::enable_pd_role_switch, Applicability::Unsafe)];
                for d in dests.iter().skip(1) {
                    fixes.push(ctx.fix_remove(format!("Keep role switching: drop the {} setting", d.name()), *d, Applicability::Unsafe));
                }
                let args: &Args = &[("', '.join(unsupported)", &unsupported.join(", "))];
                ctx.raise(&ROLE_SWITCH_FEATURES, args, &dests, fixes)?;
            }
        }
    }
    Ok(())
}

/// `_validate_prefill_complete`; `Err` when it raised.
fn validate_prefill_complete(ctx: &mut Ctx, mode: &str) -> Step {
    let mut unsupported: Vec<&str> = Vec::new();
    if mode != "prefill" && mode != "decode" {
        unsupported.push("aggregated serving");
    }
    if backend(ctx) != "mooncake" {
        unsupported.push("transfer backends other than Mooncake");
    }
    if int(ctx, f::pp_size, 1) != 1 || int(ctx, f::attn_cp_size, 1) != 1 || int(ctx, f::dcp_size, 1) != 1 {
        unsupported.push("pipeline or attention context parallelism");
    }
    // Reads enable_dp_attention, which handle_deprecated_dp_attention has already cleared.
    let attn_dp = if ctx.cfg.truthy(f::enable_dp_attention) { int(ctx, f::dp_size, 1) } else { 1 };
    if int(ctx, f::tp_size, 1) != attn_dp {
        unsupported.push("attention tensor parallelism greater than one");
    }
    if ctx.cfg.truthy(f::enable_pdmux) || !ctx.cfg.is(f::decoupled_spec_role, "null") {
        unsupported.push("PD multiplexing or decoupled speculation");
    }
    if ctx.cfg.truthy(f::enable_pd_role_switch) {
        unsupported.push("runtime PD role switching");
    }
    if ctx.cfg.truthy(f::encoder_only) || ctx.cfg.truthy(f::language_only) {
        unsupported.push("encoder disaggregation");
    }
    if ctx.cfg.truthy(f::enable_hisparse) {
        unsupported.push("HiSparse");
    }
    if ctx.cfg.float(f::disaggregation_decode_host_receive_threshold).unwrap_or(1.0) < 1.0 {
        unsupported.push("decode host KV buffering");
    }
    let hicache = ctx.cfg.truthy(f::enable_hierarchical_cache);
    if mode == "decode" && (ctx.cfg.truthy(f::disaggregation_decode_enable_radix_cache) || hicache) {
        unsupported.push("decode radix cache or decode HiCache");
    }
    if mode == "prefill"
        && hicache
        && (!ctx.cfg.is_none(f::hicache_storage_backend) || !ctx.cfg.is(f::hicache_write_policy, "write_back"))
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
        return Ok(());
    }
    let fixes = vec![ctx.fix_remove(
        "Use the default allocation policy (early)",
        f::disaggregation_decode_allocation_policy,
        Applicability::Unsafe,
    )];
    let args: &Args = &[("', '.join(unsupported)", &unsupported.join(", "))];
    ctx.raise(&PREFILL_COMPLETE_UNSUPPORTED, args, &[f::disaggregation_decode_allocation_policy], fixes)
}

/// `_alias_bootstrap_port_to_api_port` (SGLANG_RUST_SERVER on a prefill server); false when it
/// raised or could not be checked.
fn alias_bootstrap_port_to_api_port(ctx: &mut Ctx, legacy: bool) -> bool {
    // rust_server_serves_kv_bootstrap: the built-in backends' bootstrap servers (mooncake, nixl,
    // ascend) subclass CommonKVBootstrapServer. 'mori' needs the optional `mori` package, which a
    // standard install lacks (SGLang fails importing it); 'fake' has no bootstrap server.
    // 0.5.18 asks no backend.
    match backend(ctx).as_str() {
        _ if legacy => {}
        "mooncake" | "nixl" | "ascend" => {}
        "mori" => {
            ctx.skip(site("pd_disaggregation_hook._alias_bootstrap_port_to_api_port", "SGLANG_RUST_SERVER serves the PD KV bootstrap"), NotRunReason::NotImplemented);
            return false;
        }
        _ => return true,
    }
    let port = int(ctx, f::port, 30000);
    let bootstrap = int(ctx, f::disaggregation_bootstrap_port, 8998);
    if bootstrap != 8998 && bootstrap != port {
        let fixes = vec![ctx.fix_remove(
            "Drop --disaggregation-bootstrap-port (bootstrap on the API port)",
            f::disaggregation_bootstrap_port,
            Applicability::Unsafe,
        )];
        let args: &Args = &[("cfg.disaggregation_bootstrap_port", &bootstrap), ("cfg.port", &port)];
        return ctx.raise(&RUST_SERVER_BOOTSTRAP_PORT, args, &[f::disaggregation_bootstrap_port, f::port], fixes).is_ok();
    }
    if bootstrap != port {
        ctx.cfg.set(f::disaggregation_bootstrap_port, PyValue::Int(port));
    }
    true
}

/// `handle_encoder_disaggregation`.
pub fn handle_encoder_disaggregation(ctx: &mut Ctx) -> Step {
    // model_hook.handle_language_model_only: the flag checks come before the model config.
    if ctx.cfg.truthy(f::language_model_only) {
        for (dest, name) in [
            (f::encoder_only, "--encoder-only"),
            (f::language_only, "--language-only"),
            (f::enable_prefix_mm_cache, "--enable-prefix-mm-cache"),
            (f::enable_broadcast_mm_inputs_process, "--enable-broadcast-mm-inputs-process"),
            (f::mm_enable_dp_encoder, "--mm-enable-dp-encoder"),
        ] {
            if ctx.cfg.truthy(dest) {
                // Dropping --language-model-only instead is also a choice, but whether the
                // model then suits the remaining encoder flags depends on its architecture.
                let fixes = vec![ctx.fix_remove(format!("Drop {name}"), dest, Applicability::Unsafe)];
                let args: &Args = &[("name", &name)];
                ctx.raise(&LANGUAGE_MODEL_ONLY_FLAGS, args, &[dest, f::language_model_only], fixes)?;
            }
        }
        if !language_model_only_fits_model(ctx)? {
            return Ok(());
        }
    }
    let encoder_only = ctx.cfg.truthy(f::encoder_only);
    let language_only = ctx.cfg.truthy(f::language_only);
    if ctx.cfg.truthy(f::enable_prefix_mm_cache) && !encoder_only {
        let fixes = vec![ctx.fix_remove("Drop --enable-prefix-mm-cache", f::enable_prefix_mm_cache, Applicability::Unsafe)];
        ctx.raise(&PREFIX_MM_CACHE_NEEDS_ENCODER, &[], &[f::enable_prefix_mm_cache], fixes)?;
    }
    if encoder_only && language_only {
        let fixes = vec![
            ctx.fix_remove("Run the encoder half: drop --language-only", f::language_only, Applicability::Unsafe),
            ctx.fix_remove("Run the language half: drop --encoder-only", f::encoder_only, Applicability::Unsafe),
        ];
        ctx.raise(&ENCODER_AND_LANGUAGE_ONLY, &[], &[f::encoder_only, f::language_only], fixes)?;
    }
    let mode = ctx.cfg.str(f::disaggregation_mode).unwrap_or("null").to_string();
    if encoder_only && mode != "null" {
        let fixes = vec![
            ctx.fix_remove("Drop --disaggregation-mode", f::disaggregation_mode, Applicability::Unsafe),
            ctx.fix_remove("Drop --encoder-only", f::encoder_only, Applicability::Unsafe),
        ];
        ctx.raise(&ENCODER_ONLY_WITH_PD, &[], &[f::encoder_only, f::disaggregation_mode], fixes)?;
    }
    if (backend(ctx) == "mooncake" && (mode == "prefill" || mode == "decode")) || ctx.cfg.is(f::encoder_transfer_backend, "mooncake") {
        let dev = ctx.cfg.str(f::disaggregation_ib_device).map(str::to_string);
        match validate_ib_devices(ctx, dev.as_deref(), f::disaggregation_ib_device) {
            Some(v) => ctx.cfg.set(f::disaggregation_ib_device, v),
            None => return Ok(()),
        }
    }
    // The rest reads the model's architecture (`architectures[0]`): encoder_transfer_backend
    // 'auto' resolution (not a reported value) and the encoder-disaggregation architecture checks.
    if encoder_only || language_only {
        let needs = site("pd_disaggregation_hook.handle_encoder_disaggregation", "Model type {model_arch} is not supported");
        let Some(arch) = ctx.model_fact(needs, |m| m.architecture).map(str::to_string) else {
            if language_only && ctx.cfg.truthy(f::enable_adaptive_dispatch_to_encoder) {
                ctx.model_config(site("pd_disaggregation_hook.handle_encoder_disaggregation", "Muse language-only servers do not load local"));
            }
            return Ok(());
        };
        let supported = ctx.release.model_lists().map(|l| &l.encoder_disaggregation_architectures).filter(|l| !l.is_empty());
        let Some(supported) = supported else {
            ctx.skip(needs, NotRunReason::NotImplemented);
            return Ok(());
        };
        if !supported.contains(&arch) {
            let dest = if encoder_only { f::encoder_only } else { f::language_only };
            let name = if encoder_only { "--encoder-only" } else { "--language-only" };
            let fixes = vec![ctx.fix_remove(format!("Drop {name} (serve the model whole)"), dest, Applicability::Unsafe)];
            ctx.raise(&ENCODER_DISAGGREGATION_ARCH, &[("model_arch", &arch)], &[dest], fixes)?;
        }
        // Muse Spark's language-only servers: no public config of the architecture to record.
        if arch == "MuseSparkForConditionalGeneration" && language_only && ctx.cfg.truthy(f::enable_adaptive_dispatch_to_encoder) {
            ctx.skip(site("pd_disaggregation_hook.handle_encoder_disaggregation", "Muse language-only servers do not load local"), NotRunReason::NotImplemented);
        }
    }
    Ok(())
}

/// `handle_language_model_only`'s model checks (past its flag checks): Ok(true) when the model
/// takes --language-model-only, Ok(false) when that could not be decided (recorded as not run).
fn language_model_only_fits_model(ctx: &mut Ctx) -> Result<bool, crate::rules::Raised> {
    let mode = ctx.cfg.str(f::disaggregation_mode).unwrap_or("null").to_string();
    let with_pd = site("model_hook.handle_language_model_only", "--language-model-only is incompatible with");
    let unsupported = site("model_hook.handle_language_model_only", "--language-model-only does not support {architectures}.");
    if mode != "null" && !language_model_only_exempts_deepseek_v41(ctx) {
        let fixes = vec![ctx.fix_remove("Drop --disaggregation-mode", f::disaggregation_mode, Applicability::Unsafe)];
        ctx.raise(&LANGUAGE_MODEL_ONLY_WITH_PD, &[], &[f::language_model_only, f::disaggregation_mode], fixes)?;
    } else if mode != "null" {
        // `hf_config.model_type`: a config that lacks it leaves it to its class, not known here.
        let Some(model_type) = ctx.model_fact(with_pd, |m| m.architecture.and(m.model_type)).map(str::to_string) else {
            ctx.model_config(unsupported);
            return Ok(false);
        };
        if model_type != "deepseek_v41" {
            let fixes = vec![ctx.fix_remove("Drop --disaggregation-mode", f::disaggregation_mode, Applicability::Unsafe)];
            ctx.raise(&LANGUAGE_MODEL_ONLY_WITH_PD, &[], &[f::language_model_only, f::disaggregation_mode], fixes)?;
        }
    }
    // The message prints the config's whole `architectures` list.
    let Some(architectures) = ctx.model_fact(unsupported, |m| m.raw.and_then(|r| r.architectures.clone())) else {
        return Ok(false);
    };
    let supported = ctx.release.model_lists().map(|l| l.language_model_only_architectures.clone()).filter(|l| !l.is_empty());
    let Some(supported) = supported else {
        ctx.skip(unsupported, NotRunReason::NotImplemented);
        return Ok(false);
    };
    if !architectures.iter().any(|a| supported.contains(a)) {
        let (shown, listed) = (py_list(&architectures), py_list(&supported));
        let args: &Args = &[("architectures", &shown), ("list(server_args.LANGUAGE_MODEL_ONLY_ARCHITECTURES)", &listed)];
        let fixes = vec![ctx.fix_remove("Drop --language-model-only", f::language_model_only, Applicability::Safe)];
        ctx.raise(&LANGUAGE_MODEL_ONLY_ARCH, args, &[f::language_model_only], fixes)?;
    }
    Ok(true)
}

/// Whether `handle_language_model_only` lets a DeepSeek-V4.1 (`model_type` deepseek_v41) run
/// --language-model-only under PD disaggregation: not in 0.5.18, whose step is a `ServerArgs`
/// method (`function-map.json`) that refuses any --disaggregation-mode.
fn language_model_only_exempts_deepseek_v41(ctx: &Ctx) -> bool {
    !ctx.release.data.before_hook_modules()
}

/// Python's `repr` of a list of strings.
fn py_list<S: AsRef<str>>(items: &[S]) -> String {
    let parts: Vec<String> = items.iter().map(|s| crate::pyvalue::str_repr(s.as_ref())).collect();
    format!("[{}]", parts.join(", "))
}
