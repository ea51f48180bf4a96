//! `model_overrides/kimi_k3.py`: `_kimi_k3_overrides` (decode context parallelism's attention
//! backends and its checks, the SM100 attention defaults) and `_kimi_k3_moe_runner_overrides`,
//! both registered for `KimiK3ForConditionalGeneration`, replayed in that order.

use super::{str_value, Declarations, Provided};
use crate::diagnostic::Applicability;
use crate::fields::f;
use crate::pyvalue::{str_repr, PyValue};
use crate::rules::shared::model_override_base;
use crate::rules::shared::runtime_context::is_sm100;
use crate::rules::{raises, site, Args, Ctx, NotRunReason, Rule};

pub static DCP_DSPARK_NEEDS_STATIC_VERIFY: Rule = Rule {
    code: "MH030",
    name: kebab!("kimi-k3-dcp-dspark-needs-static-ragged-verify"),
    sglang: raises("model_overrides.kimi_k3._kimi_k3_overrides", "Kimi-K3 DCP + DSPARK currently requires"),
    explanation: expl!("With decode context parallelism (--dcp-size above 1), Kimi-K3's DSPARK target verify runs on the decode attention backend's DCP path, which has been validated only with the static ragged-verify layout; SGLang refuses SGLANG_RAGGED_VERIFY_MODE=compact or cap-accept there."),
    flags: &["--dcp-size", "--speculative-algorithm"],
    example_bad: ex!("SGLANG_RAGGED_VERIFY_MODE=compact python -m sglang.launch_server --model-path moonshotai/Kimi-K3 --tp-size 8 --dcp-size 8 --speculative-algorithm DSPARK"),
    example_good: ex!("python -m sglang.launch_server --model-path moonshotai/Kimi-K3 --tp-size 8 --dcp-size 8 --speculative-algorithm DSPARK"),
};

pub static DCP_DECODE_BACKEND: Rule = Rule {
    code: "MH031",
    name: kebab!("kimi-k3-dcp-decode-attention-backend"),
    sglang: raises("model_overrides.kimi_k3._kimi_k3_overrides", "Decode attention backend for Kimi-K3 DCP must be"),
    explanation: expl!("Kimi-K3 with decode context parallelism (--dcp-size above 1) decodes with an MLA kernel that merges the partial attention of the DCP ranks: only cutedsl_mla (the default) and aiter have it."),
    flags: &["--dcp-size", "--decode-attention-backend", "--attention-backend"],
    example_bad: ex!("--model-path moonshotai/Kimi-K3 --tp-size 8 --dcp-size 8 --decode-attention-backend triton"),
    example_good: ex!("--model-path moonshotai/Kimi-K3 --tp-size 8 --decode-attention-backend triton"),
};

pub static DCP_CUTEDSL_NEEDS_FLASHINFER: Rule = Rule {
    code: "MH032",
    name: kebab!("kimi-k3-dcp-cutedsl-needs-flashinfer"),
    sglang: raises("model_overrides.kimi_k3._require_kimi_k3_cutedsl_dcp_support", "Kimi-K3 DCP with decode_attention_backend='cutedsl_mla' requires FlashInfer"),
    explanation: expl!("Kimi-K3's decode context parallelism decodes with cutedsl_mla unless --decode-attention-backend aiter is given, and that kernel comes from FlashInfer (0.6.17 or newer): on a machine without FlashInfer (ROCm, CPU) SGLang stops."),
    flags: &["--dcp-size", "--decode-attention-backend"],
    example_bad: ex!("--model-path moonshotai/Kimi-K3 --tp-size 8 --dcp-size 8"),
    example_good: ex!("--model-path moonshotai/Kimi-K3 --tp-size 8"),
};

pub static DCP_AITER_NEEDS_GLUON: Rule = Rule {
    code: "MH033",
    name: kebab!("kimi-k3-dcp-aiter-needs-gluon-mla"),
    sglang: raises("model_overrides.kimi_k3._require_kimi_k3_aiter_gluon_dcp_support", "Kimi-K3 DCP with decode_attention_backend='aiter' requires"),
    explanation: expl!("Kimi-K3's decode context parallelism with --decode-attention-backend aiter needs aiter's Gluon MLA kernel (ROCm, aiter with Triton 3.7 or newer, SGLANG_AITER_MLA_GLUON not turned off); without it SGLang stops."),
    flags: &["--dcp-size", "--decode-attention-backend"],
    example_bad: ex!("--model-path moonshotai/Kimi-K3 --tp-size 8 --dcp-size 8 --decode-attention-backend aiter"),
    example_good: ex!("--model-path moonshotai/Kimi-K3 --tp-size 8 --decode-attention-backend aiter"),
};

pub static RULES: &[&Rule] = &[&DCP_DSPARK_NEEDS_STATIC_VERIFY, &DCP_DECODE_BACKEND, &DCP_CUTEDSL_NEEDS_FLASHINFER, &DCP_AITER_NEEDS_GLUON];

/// Both providers, in their registration order.
pub fn kimi_k3_providers(ctx: &mut crate::rules::Ctx) -> Provided {
    let Some(mut out) = kimi_k3_overrides(ctx)? else { return Ok(None) };
    let Some(moe) = kimi_k3_moe_runner_overrides(ctx) else { return Ok(None) };
    out.extend(moe);
    Ok(Some(out))
}

/// `attention_backends_of(cfg)` of the command as given.
fn attention_backends_of(ctx: &Ctx) -> (Option<String>, Option<String>) {
    model_override_base::attention_backends_of(ctx, ctx.cfg.str(f::attention_backend).filter(|s| !s.is_empty()))
}

fn py_repr(v: &Option<String>) -> String {
    v.as_deref().map(str_repr).unwrap_or_else(|| "None".to_string())
}

/// Whether this release's Kimi-K3 DCP decodes with `backend`: its message names the backends
/// it accepts ('cutedsl_mla' or 'aiter' in 0.5.23, 'cutedsl_mla' or 'tokenspeed_mla' in 0.5.18).
fn dcp_accepts(ctx: &Ctx, backend: &str) -> bool {
    DCP_DECODE_BACKEND.sglang_text(ctx.release).is_some_and(|(_, template)| template.contains(&format!("'{backend}'")))
}

fn remove_dcp(ctx: &Ctx) -> crate::diagnostic::Fix {
    ctx.fix_remove("Remove --dcp-size (no decode context parallelism)", f::dcp_size, Applicability::Unsafe)
}

/// `_kimi_k3_overrides`.
fn kimi_k3_overrides(ctx: &mut Ctx) -> Provided {
    let mut out = Declarations::new();
    if ctx.cfg.int(f::dcp_size).unwrap_or(1) > 1 {
        if ctx.cfg.truthy(f::enable_symm_mem) {
            out.push((f::enable_symm_mem, PyValue::Bool(false)));
        }
        if ctx.cfg.is(f::speculative_algorithm, "DSPARK") {
            // `read_ragged_verify_mode()`
            let mode = ctx.env("SGLANG_RAGGED_VERIFY_MODE").unwrap_or("static").to_string();
            match mode.as_str() {
                "static" => {}
                "cap-accept" | "compact" => {
                    let got = str_repr(&mode);
                    let fixes = vec![ctx.fix_unset_env("Unset SGLANG_RAGGED_VERIFY_MODE (static verify)", "SGLANG_RAGGED_VERIFY_MODE", Applicability::Unsafe)];
                    ctx.raise(&DCP_DSPARK_NEEDS_STATIC_VERIFY, &[("ragged_mode.value", &got)], &[f::dcp_size, f::speculative_algorithm], fixes)?;
                    return Ok(None);
                }
                _ => {
                    // an invalid mode: `read_ragged_verify_mode` raises (speculative decoding's check)
                    ctx.skip_unlisted("speculative.ragged_verify.read_ragged_verify_mode", NotRunReason::NotImplemented);
                    return Ok(None);
                }
            }
            out.push((f::speculative_attention_mode, str_value("decode")));
        }
        let (prefill, decode) = attention_backends_of(ctx);
        // SGLang 0.5.18 decodes with cutedsl_mla or tokenspeed_mla (no aiter), and then picks
        // the DCP communication backend by the device's NVLink fabric: not replayed.
        let tokenspeed_release = dcp_accepts(ctx, "tokenspeed_mla");
        match decode.as_deref() {
            Some("tokenspeed_mla") if tokenspeed_release => return Ok(None),
            None | Some("cutedsl_mla") => {
                // `_require_kimi_k3_cutedsl_dcp_support`: FlashInfer's import, then its signature.
                if !ctx.hw.flashinfer {
                    let fixes = vec![remove_dcp(ctx)];
                    ctx.raise(&DCP_CUTEDSL_NEEDS_FLASHINFER, &[], &[f::dcp_size, f::decode_attention_backend], fixes)?;
                    return Ok(None);
                }
                // Whether the installed FlashInfer's MLA decode takes `enable_dcp` (0.6.17 or
                // newer) is a fact of the installation, not of the command.
                ctx.skip(site("model_overrides.kimi_k3._require_kimi_k3_cutedsl_dcp_support", "Kimi-K3 DCP with decode_attention_backend='cutedsl_mla' requires enable_dcp"), NotRunReason::NotImplemented);
                out.push((f::prefill_attention_backend, str_value("trtllm_mla")));
                out.push((f::decode_attention_backend, str_value("cutedsl_mla")));
            }
            Some("aiter") if dcp_accepts(ctx, "aiter") => {
                // `_require_kimi_k3_aiter_gluon_dcp_support`: `_gluon_fn()` is None when turned
                // off, or without aiter (every profile but ROCm's lacks it).
                let gluon_off = !ctx.env_bool("SGLANG_AITER_MLA_GLUON", true);
                if gluon_off || !ctx.hw.is_hip() {
                    let fixes = vec![remove_dcp(ctx)];
                    ctx.raise(&DCP_AITER_NEEDS_GLUON, &[], &[f::dcp_size, f::decode_attention_backend], fixes)?;
                    return Ok(None);
                }
                // On ROCm it depends on the installed aiter and Triton (Gluon's cga_layout).
                ctx.skip(site("model_overrides.kimi_k3._require_kimi_k3_aiter_gluon_dcp_support", "Kimi-K3 DCP with decode_attention_backend='aiter' requires"), NotRunReason::NotImplemented);
                let prefill_backend = if prefill.as_deref() == Some("triton") { "triton" } else { "aiter" };
                out.push((f::prefill_attention_backend, str_value(prefill_backend)));
                out.push((f::decode_attention_backend, str_value("aiter")));
            }
            Some(_) => {
                let shown = py_repr(&decode);
                let fixes = vec![
                    ctx.fix_remove("Remove --decode-attention-backend (cutedsl_mla by default)", f::decode_attention_backend, Applicability::Unsafe),
                    remove_dcp(ctx),
                ];
                let args: &Args = &[("decode_backend", &shown)];
                ctx.raise(&DCP_DECODE_BACKEND, args, &[f::dcp_size, f::decode_attention_backend, f::attention_backend], fixes)?;
                return Ok(None);
            }
        }
        if tokenspeed_release {
            return Ok(None);
        }
        if ctx.cfg.is_none(f::dcp_replicate_q_proj) && matches!(ctx.cfg.str(f::dcp_comm_backend), Some("a2a" | "fi_a2a")) {
            out.push((f::dcp_replicate_q_proj, PyValue::Bool(true)));
        }
        return Ok(Some(out));
    }
    if !(is_sm100(ctx.hw) && matches!(ctx.hw.sm(), 100 | 103)) {
        return Ok(Some(out));
    }
    let backends_unset = model_override_base::is_attention_backend_not_set(ctx);
    if !ctx.cfg.is(f::speculative_algorithm, "DSPARK") {
        if backends_unset {
            out.push((f::decode_attention_backend, str_value("trtllm_mla")));
            out.push((f::prefill_attention_backend, str_value("trtllm_mla")));
        }
        return Ok(Some(out));
    }
    let backend = if backends_unset {
        out.push((f::decode_attention_backend, str_value("trtllm_mla")));
        out.push((f::prefill_attention_backend, str_value("trtllm_mla")));
        Some("trtllm_mla".to_string())
    } else {
        attention_backends_of(ctx).1
    };
    // `_dspark_verify_on_decode_backend(backend, q_len)`: whatever the verify width
    if matches!(backend.as_deref(), Some("trtllm_mla" | "cutedsl_mla")) {
        out.push((f::speculative_attention_mode, str_value("decode")));
    }
    Ok(Some(out))
}

/// `_kimi_k3_moe_runner_overrides`: FlashInfer's MXFP4 MoE on SM100 / SM103 / SM107 for an
/// MXFP4-packed checkpoint when the runner is automatic. None without the model's raw config.
fn kimi_k3_moe_runner_overrides(ctx: &Ctx) -> Option<Declarations> {
    if !(ctx.cfg.is(f::moe_runner_backend, "auto") && is_sm100(ctx.hw) && matches!(ctx.hw.sm(), 100 | 103 | 107)) {
        return Some(Declarations::new());
    }
    let raw = ctx.model.and_then(|m| m.raw)?;
    // `_is_mxfp4_pack_quantized(hf_config)`
    let mxfp4 = raw.text_quant_group_formats.as_deref().unwrap_or(&[]).iter().any(|f| f.contains("mxfp4"));
    Some(if mxfp4 { vec![(f::moe_runner_backend, str_value("flashinfer_mxfp4"))] } else { Declarations::new() })
}
