//! Prefill and decode servers of one disaggregated (PD) deployment, checked as a pair: the
//! settings the KV-cache transfer needs both sides to agree on.
//!
//! SGLang starts each server on its own and accepts both; the mismatch shows when the decode
//! server first fetches the prefill server's parallel info from its bootstrap server, or when
//! KV is moved. Each condition below names, in its rule, the SGLang function where the pair
//! fails (or degrades) and SGLang's message there, as read in SGLang 0.5.23's source.
//!
//! Commands are paired by model: every decode server with the prefill servers of the same
//! `--model-path` (when both sides have several, each decode server with the nearest prefill
//! server before it, as deployments are written prefill first). A decode server whose model no
//! prefill server serves is paired with the prefill servers no decode server shares a model
//! with, when one side of those is a single command: the different model is then a finding.

use crate::check::CommandReport;
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Origin, Severity, Stage};
use crate::fields::{f, Field};
use crate::release;
use crate::rules::validation::check::may_constrain_page_size;
use crate::rules::{Ctx, Rule, Sglang};
use crate::span::Span;
use std::collections::{HashMap, HashSet};

const CONN: &str = "sglang/srt/disaggregation/common/conn.py";
const READ_IN: &str = "0.5.23";

const fn transfer(file: &'static str, function: &'static str, exception: &'static str, template: &'static str, warns: bool) -> Sglang {
    Sglang::Transfer { file, function, exception, template, warns, read_in: READ_IN }
}


pub static MODEL_DIFFERS: Rule = Rule {
    code: "PAIR001",
    name: kebab!("pd-pair-model-differs"),
    sglang: transfer(CONN, "CommonKVManager.try_ensure_parallel_info", "", "", true),
    explanation: expl!("The decode server receives the prefill server's KV cache page by page and layer by layer, addressed by its own model's layout; SGLang compares the two servers' page size, KV cache dtype and layouts when they connect (try_ensure_parallel_info), not their models. Two paths may name the same weights (a hub id and a local copy), so this is a warning; different models give wrong output or a failed transfer."),
    flags: &["--model-path", "--disaggregation-mode"],
    example_bad: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode decode --port 30001 --base-gpu-id 1"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1"),
};
pub static TRANSFER_BACKEND_DIFFERS: Rule = Rule {
    code: "PAIR002",
    name: kebab!("pd-pair-transfer-backend-differs"),
    sglang: transfer("sglang/srt/disaggregation/mooncake/conn.py", "KVArgsRegisterInfo.from_zmq", "", "", false),
    explanation: expl!("Each side loads the KV manager of its own transfer backend: the prefill server's bootstrap thread reads the decode server's registration in its backend's message layout (Mooncake's and NIXL's `KVArgsRegisterInfo.from_zmq` read different frames), and with `fake` the decode server never registers. The transfer cannot happen; both servers need the same --disaggregation-transfer-backend."),
    flags: &["--disaggregation-transfer-backend", "--disaggregation-mode"],
    example_bad: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend nixl\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --disaggregation-transfer-backend nixl\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1 --disaggregation-transfer-backend nixl"),
};
pub static PAGE_SIZE_DIFFERS: Rule = Rule {
    code: "PAIR003",
    name: kebab!("pd-pair-page-size-differs"),
    sglang: transfer(
        CONN,
        "CommonKVManager.try_ensure_parallel_info",
        "RuntimeError",
        "Page size mismatch: prefill server has page_size={info.page_size}, but decode server has page_size={self.kv_args.page_size}. Both servers must use the same --page-size value.",
        false,
    ),
    explanation: expl!("KV is transferred in pages, so both servers need the same page size; the decode server raises when it first fetches the prefill server's parallel info. Page sizes come from --page-size or the default (1, or 64 on ROCm with the vectorized_5d AITER layout); an attention backend that sets its own page size (FlashMLA, TRT-LLM, FA4, ...) can still move it, and then this is a warning."),
    flags: &["--page-size", "--disaggregation-mode"],
    example_bad: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --page-size 16\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --page-size 16\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1 --page-size 16"),
};
pub static KV_CACHE_DTYPE_DIFFERS: Rule = Rule {
    code: "PAIR004",
    name: kebab!("pd-pair-kv-cache-dtype-differs"),
    sglang: transfer(
        CONN,
        "CommonKVManager.try_ensure_parallel_info",
        "RuntimeError",
        "KV cache dtype mismatch: prefill server has kv_cache_dtype={info.kv_cache_dtype}, but decode server has kv_cache_dtype={self.kv_cache_dtype_str}. Both servers must use the same --kv-cache-dtype value.",
        false,
    ),
    explanation: expl!("SGLang compares the two servers' KV cache dtype strings as written (`bf16` and `bfloat16` differ). `auto` stays `auto`, except for a model whose quantization config has an FP8 KV cache, where it becomes `fp8_e4m3` (mem_cache/kv_cache_dtype.py configure_kv_cache_dtype): `auto` against `fp8_e4m3` depends on the model and is a warning."),
    flags: &["--kv-cache-dtype", "--disaggregation-mode"],
    example_bad: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --kv-cache-dtype fp8_e5m2\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --kv-cache-dtype fp8_e5m2\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1 --kv-cache-dtype fp8_e5m2"),
};
pub static PP_SIZE_LAYOUT: Rule = Rule {
    code: "PAIR005",
    name: kebab!("pd-pair-decode-pp-size"),
    sglang: transfer(
        CONN,
        "CommonKVManager._resolve_rank_mapping",
        "AssertionError",
        "Decode pp size ({self.pp_size}) should be equal to prefill pp size ({info.pp_size}) or 1",
        false,
    ),
    explanation: expl!("The decode server maps the prefill server's pipeline stages onto its own: it must have the same pipeline-parallel size, or 1. SGLang asserts this when the decode server first fetches the prefill server's parallel info (the assert's message is a one-element tuple, so it prints in parentheses)."),
    flags: &["--pp-size", "--disaggregation-mode"],
    example_bad: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --pp-size 2\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 2 --pp-size 4"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --pp-size 2\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 2 --pp-size 2"),
};
pub static ATTENTION_TP_DIFFERS: Rule = Rule {
    code: "PAIR006",
    name: kebab!("pd-pair-attention-tp-differs"),
    sglang: transfer(
        CONN,
        "CommonKVManager._resolve_rank_mapping",
        "",
        "Performance is NOT guaranteed when using different TP sizes for non-MLA models. ",
        true,
    ),
    explanation: expl!("Attention TP is --tp-size divided by the attention DP and attention CP sizes. With different attention TP sizes each decode rank pulls KV heads from several prefill ranks (or a share of one); for MLA models (DeepSeek, Kimi, ...) the latent cache is not split by head and this is fine, for other models SGLang warns that performance is not guaranteed. Some layouts cannot be resliced at all: an MXFP8 KV cache (`--kv-cache-dtype mxfp8`) on a non-MLA model, MiniMax sparse attention, and MLA with prefill `--enable-kv-cache-sharding` all raise in try_ensure_parallel_info / _resolve_rank_mapping. Which case applies depends on the model, which preflight does not read."),
    flags: &["--tp-size", "--disaggregation-mode", "--attn-dp-size", "--attn-cp-size"],
    example_bad: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --tp-size 2\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 2 --tp-size 4"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --tp-size 2\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 2 --tp-size 2"),
};
pub static DECODE_DCP_PREFILL_CP: Rule = Rule {
    code: "PAIR007",
    name: kebab!("pd-pair-decode-dcp-needs-prefill-attn-cp-1"),
    sglang: transfer(
        CONN,
        "CommonKVManager.try_ensure_parallel_info",
        "RuntimeError",
        "PD decode DCP currently requires prefill attention CP=1, got {info.attn_cp_size}.",
        false,
    ),
    explanation: expl!("A decode server with decode context parallelism (--dcp-size above 1) re-splits the received KV by context itself, which it only does for a prefill server without attention context parallelism."),
    flags: &["--dcp-size", "--attn-cp-size"],
    example_bad: ex!("python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode prefill --tp-size 8 --attn-cp-size 2 --trust-remote-code\npython -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode decode --port 30001 --tp-size 8 --dcp-size 2 --trust-remote-code"),
    example_good: ex!("python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode prefill --tp-size 8 --trust-remote-code\npython -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode decode --port 30001 --tp-size 8 --dcp-size 2 --trust-remote-code"),
};
pub static DECODE_DCP_PREFILL_SHARDING: Rule = Rule {
    code: "PAIR008",
    name: kebab!("pd-pair-decode-dcp-excludes-prefill-kv-sharding"),
    sglang: transfer(
        CONN,
        "CommonKVManager.try_ensure_parallel_info",
        "RuntimeError",
        "PD decode DCP does not support a prefill with --enable-kv-cache-sharding.",
        false,
    ),
    explanation: expl!("With --enable-kv-cache-sharding each prefill rank owns only some of the KV pages, which a decode server with decode context parallelism (--dcp-size above 1) cannot gather."),
    flags: &["--enable-kv-cache-sharding", "--dcp-size"],
    example_bad: ex!("python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode prefill --tp-size 8 --page-size 64 --enable-kv-cache-sharding --trust-remote-code\npython -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode decode --port 30001 --tp-size 8 --dcp-size 2 --page-size 64 --trust-remote-code"),
    example_good: ex!("python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode prefill --tp-size 8 --page-size 64 --enable-kv-cache-sharding --trust-remote-code\npython -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 --disaggregation-mode decode --port 30001 --tp-size 8 --dcp-size 1 --page-size 64 --trust-remote-code"),
};
pub static BOOTSTRAP_PORT_CLASH: Rule = Rule {
    code: "PAIR009",
    name: kebab!("pd-pair-bootstrap-port-clash"),
    sglang: transfer(CONN, "CommonKVBootstrapServer._run_server", "", "Server error: {str(e)}", true),
    explanation: expl!("Each prefill server starts a bootstrap server on --host at --disaggregation-bootstrap-port (default 8998). On one machine a second prefill server (or another server's --port) on the same port cannot bind: SGLang logs the error and the prefill server runs without its bootstrap server, so its decode servers never find it. SGLang says as much for role switching (managers/disagg_service.py: \"give each one a distinct --disaggregation-bootstrap-port or the bind will conflict\"). Servers written for different machines are fine, so this is a warning."),
    flags: &["--disaggregation-bootstrap-port", "--port", "--host"],
    example_bad: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill --port 30002 --base-gpu-id 2"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill --port 30002 --base-gpu-id 2 --disaggregation-bootstrap-port 8999"),
};
pub static DECODE_SPECULATIVE_ONLY: Rule = Rule {
    code: "PAIR010",
    name: kebab!("pd-pair-decode-eagle-without-prefill-eagle"),
    sglang: transfer(
        "sglang/srt/disaggregation/prefill.py",
        "SchedulerDisaggregationPrefillMixin.process_batch_result_disagg_prefill",
        "",
        "",
        true,
    ),
    explanation: expl!("An EAGLE-family decode server (EAGLE, EAGLE3, NEXTN) starts drafting from the hidden states and top-k draft tokens the prefill server sends with the KV (decode.py DecodeTransferQueue._commit_transfer_to_req); a prefill server sends them only when it runs EAGLE itself (`if self.spec_algorithm.is_eagle()`), so the decode server's first draft starts from empty buffers. Give the prefill server the same speculative settings."),
    flags: &["--speculative-algorithm", "--disaggregation-mode"],
    example_bad: ex!("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode decode --port 30001 --base-gpu-id 1 --speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B"),
    example_good: ex!("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode prefill --speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B\npython -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode decode --port 30001 --base-gpu-id 1 --speculative-algorithm EAGLE --speculative-draft-model-path Qwen/Qwen3-0.6B"),
};

pub static ROUTER_BOOTSTRAP_PORT: Rule = Rule {
    code: "PAIR011",
    name: kebab!("pd-pair-router-bootstrap-port"),
    sglang: transfer(CONN, "CommonKVManager.try_ensure_parallel_info", "", "Error fetching prefill server info from bootstrap: {e}", true),
    explanation: expl!("The router tells each decode server where a request's prefill server bootstraps (`--prefill URL BOOTSTRAP_PORT`); the decode server then asks that port for the prefill server's parallel info (decode.py `_bootstrap_addr`). A port other than the prefill server's --disaggregation-bootstrap-port (default 8998) reaches no bootstrap server: SGLang logs the error and the requests fail. Matched by the URL's port and the server's --port; it depends on the router command, so this is a warning."),
    flags: &["--disaggregation-bootstrap-port", "--port"],
    example_bad: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --port 30000 --disaggregation-bootstrap-port 9001\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1\npython -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 8998 --decode http://127.0.0.1:30001"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill --port 30000 --disaggregation-bootstrap-port 9001\npython -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode --port 30001 --base-gpu-id 1\npython -m sglang_router.launch_router --pd-disaggregation --prefill http://127.0.0.1:30000 9001 --decode http://127.0.0.1:30001"),
};

/// Every pair rule.
pub static RULES: &[&Rule] = &[
    &MODEL_DIFFERS,
    &TRANSFER_BACKEND_DIFFERS,
    &PAGE_SIZE_DIFFERS,
    &KV_CACHE_DTYPE_DIFFERS,
    &PP_SIZE_LAYOUT,
    &ATTENTION_TP_DIFFERS,
    &DECODE_DCP_PREFILL_CP,
    &DECODE_DCP_PREFILL_SHARDING,
    &BOOTSTRAP_PORT_CLASH,
    &DECODE_SPECULATIVE_ONLY,
    &ROUTER_BOOTSTRAP_PORT,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Prefill,
    Decode,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Prefill => "prefill",
            Role::Decode => "decode",
        }
    }
}

/// Where a command writes one of the compared fields, for spans and fixes.
#[derive(Debug, Clone)]
struct Written {
    field: Field,
    /// The flag that writes the field in this release (for appended fixes).
    flag: String,
    /// The whole `--flag value` on the command line (None: not written, or from `--config`).
    span: Option<Span>,
    /// Where removing the flag starts: the blanks before it go too.
    remove_from: usize,
    from_config: bool,
}

/// What one launch brings to a PD pair: its role and the resolved values both sides must
/// agree on (after SGLang's resolution hooks, defaults included), and where they are written.
#[derive(Debug, Clone)]
pub struct PdServer {
    /// The command's index in the report.
    pub command: usize,
    pub role: Role,
    pub model_path: String,
    pub transfer_backend: String,
    pub page_size: i64,
    /// False when an attention backend may still set its own page size (then not known).
    pub page_size_known: bool,
    pub kv_cache_dtype: String,
    pub pp_size: i64,
    /// `tp_size // attn_dp_size // attn_cp_size` (runtime_context.derive_attn_tp_size).
    pub attn_tp_size: i64,
    pub attn_cp_size: i64,
    pub dcp_size: i64,
    pub kv_cache_sharding: bool,
    /// The speculative algorithm as written (None without one).
    pub speculative: Option<String>,
    pub bootstrap_port: Option<i64>,
    pub port: Option<i64>,
    pub host: String,
    /// `--dist-init-addr` and `--node-rank` of a multi-node server: its commands on other
    /// nodes are one server, not two.
    pub dist_init_addr: Option<String>,
    pub node_rank: i64,
    /// 1-based line of the command, named in the other command's findings. `check` sets it in
    /// the checked text; to pair commands found in several texts of one file, set it to the
    /// line in the file.
    pub line: usize,
    pub launcher: Span,
    append_at: usize,
    can_append: bool,
    written: Vec<Written>,
}

const COMPARED: &[Field] = &[
    f::model_path,
    f::disaggregation_transfer_backend,
    f::page_size,
    f::kv_cache_dtype,
    f::pp_size,
    f::tp_size,
    f::attn_cp_size,
    f::dcp_size,
    f::enable_kv_cache_sharding,
    f::speculative_algorithm,
    f::disaggregation_bootstrap_port,
    f::port,
];

impl PdServer {
    /// The command's PD facts from its resolved configuration, once SGLang's hooks have run;
    /// None unless it is a PD prefill or decode server, and when a fact compared depends on a
    /// value not known here (a template's): the pair is then not judged.
    pub fn from_ctx(ctx: &Ctx, command: usize) -> Option<PdServer> {
        let cfg = &ctx.cfg;
        // The page size first: attention_hook has resolved it (known, final), or it waits on the
        // backend the model's default makes SGLang pick (unknown: compared as given, not certain).
        cfg.forget_reads();
        if cfg.setting_place(f::page_size).is_some_and(|s| s.value_unknown) {
            return None;
        }
        let page_final = !cfg.is_unknown(f::page_size) && !cfg.is_none(f::page_size);
        let page_given = if page_final { cfg.int(f::page_size) } else { cfg.setting_place(f::page_size).and_then(|s| s.value.as_int()) };
        let page_known = page_final || !may_constrain_page_size(ctx);
        cfg.forget_reads();
        let role = match cfg.str(f::disaggregation_mode) {
            Some("prefill") => Role::Prefill,
            Some("decode") => Role::Decode,
            _ => return None,
        };
        let int_or = |field: Field, default: i64| cfg.int(field).unwrap_or(default);
        // overrides._page_size_default: 64 on ROCm with the vectorized_5d AITER layout, else 1.
        let page_size = page_given.unwrap_or_else(|| {
            let layout = ctx.env("SGLANG_AITER_KV_CACHE_LAYOUT").unwrap_or("nhd").to_lowercase();
            if ctx.hw.is_hip() && layout == "vectorized_5d" {
                64
            } else {
                1
            }
        });
        let tp = int_or(f::tp_size, 1);
        let attn_dp = int_or(f::attn_dp_size, 1).max(1);
        let attn_cp = int_or(f::attn_cp_size, 1).max(1);
        Some(PdServer {
            command,
            role,
            model_path: cfg.str(f::model_path).unwrap_or("").trim_end_matches('/').to_string(),
            transfer_backend: cfg.str(f::disaggregation_transfer_backend).unwrap_or("mooncake").to_string(),
            page_size,
            page_size_known: page_known && cfg.is_none(f::dllm_algorithm),
            kv_cache_dtype: cfg.str(f::kv_cache_dtype).unwrap_or("auto").to_string(),
            pp_size: int_or(f::pp_size, 1),
            attn_tp_size: tp / attn_dp / attn_cp,
            attn_cp_size: attn_cp,
            dcp_size: int_or(f::dcp_size, 1),
            kv_cache_sharding: cfg.truthy(f::enable_kv_cache_sharding),
            speculative: cfg.str(f::speculative_algorithm).map(str::to_string),
            bootstrap_port: cfg.int(f::disaggregation_bootstrap_port),
            port: cfg.int(f::port),
            host: cfg.str(f::host).unwrap_or("127.0.0.1").to_string(),
            dist_init_addr: cfg.str(f::dist_init_addr).map(str::to_string),
            node_rank: int_or(f::node_rank, 0),
            line: 0,
            launcher: ctx.fallback_span,
            append_at: ctx.append_at,
            can_append: ctx.can_append,
            written: COMPARED
                .iter()
                .map(|&field| {
                    let setting = cfg.setting_place(field);
                    let span = setting.filter(|s| !s.from_config).map(|s| s.whole_span);
                    let start = span.map(|s| s.start).unwrap_or(0);
                    let blanks = ctx.text.get(..start).map(|t| t.len() - t.trim_end_matches([' ', '\t']).len()).unwrap_or(0);
                    Written { field, flag: ctx.flag(field).into_owned(), span, remove_from: start.saturating_sub(blanks), from_config: setting.is_some_and(|s| s.from_config) }
                })
                .collect(),
        })
        .filter(|_| !cfg.read_unknown())
    }

    fn written(&self, field: Field) -> Option<&Written> {
        self.written.iter().find(|w| w.field == field)
    }

    /// Where a finding about `field` points: the flag, or the launcher when it is not written.
    fn span_of(&self, field: Field) -> Span {
        self.written(field).and_then(|w| w.span).unwrap_or(self.launcher)
    }

    /// Fix: set `field` to `value` on this command (replace the flag where written, else append).
    /// Only plain words are written, so the edit reads the same inside `bash -c "..."`.
    fn fix_set(&self, title: String, field: Field, value: &str, applicability: Applicability) -> Fix {
        let Some(w) = self.written(field) else { return Fix::advice(title) };
        let plain = !value.is_empty() && value.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:@+,".contains(c));
        if w.from_config || !plain {
            return Fix::advice(title);
        }
        match w.span {
            Some(span) => Fix { title, applicability, edits: vec![Edit { start: span.start, end: span.end, replacement: format!("{} {value}", w.flag) }] },
            None if !self.can_append => Fix::advice(title),
            None => Fix { title, applicability, edits: vec![Edit { start: self.append_at, end: self.append_at, replacement: format!(" {} {value}", w.flag) }] },
        }
    }

    /// Fix: remove the flag that writes `field` (and the blanks before it).
    fn fix_remove(&self, title: String, field: Field, applicability: Applicability) -> Fix {
        let Some(w) = self.written(field) else { return Fix::advice(title) };
        let Some(span) = w.span else { return Fix::advice(title) };
        Fix { title, applicability, edits: vec![Edit { start: w.remove_from, end: span.end, replacement: String::new() }] }
    }

    /// One server across nodes: the commands of a multi-node server on different nodes.
    fn same_server_as(&self, other: &PdServer) -> bool {
        self.dist_init_addr.is_some() && self.dist_init_addr == other.dist_init_addr && self.node_rank != other.node_rank
    }

    fn eagle_family(&self) -> bool {
        self.speculative.as_deref().is_some_and(|s| ["EAGLE", "EAGLE3", "NEXTN", "FROZEN_KV_MTP"].iter().any(|e| s.eq_ignore_ascii_case(e)))
    }
}

/// Which prefill server each decode server is checked against: (prefill, decode) indexes
/// into `servers`, in text order. Linear in the number of servers.
fn pairs(servers: &[PdServer]) -> Vec<(usize, usize)> {
    let mut by_model: HashMap<&str, (Vec<usize>, Vec<usize>)> = HashMap::new();
    for (i, s) in servers.iter().enumerate() {
        let entry = by_model.entry(s.model_path.as_str()).or_default();
        match s.role {
            Role::Prefill => entry.0.push(i),
            Role::Decode => entry.1.push(i),
        }
    }
    let mut out = Vec::new();
    let (mut lone_prefills, mut lone_decodes) = (Vec::new(), Vec::new());
    for (prefills, decodes) in by_model.values() {
        match (prefills.as_slice(), decodes.as_slice()) {
            ([], d) => lone_decodes.extend_from_slice(d),
            (p, []) => lone_prefills.extend_from_slice(p),
            (p, d) => match_up(p, d, &mut out),
        }
    }
    crate::sorting::sort(&mut lone_prefills);
    crate::sorting::sort(&mut lone_decodes);
    // A different model on each side: only when one side is a single server, so the pairing
    // is not a guess among several.
    if lone_prefills.len() == 1 || lone_decodes.len() == 1 {
        match_up(&lone_prefills, &lone_decodes, &mut out);
    }
    crate::sorting::sort(&mut out);
    out
}

/// Pairs among the prefill and decode servers `p` and `d` (sorted text positions): all of
/// them when one side is a single server, else each decode server with the nearest prefill
/// server before it (or the first one, when none is before it).
fn match_up(p: &[usize], d: &[usize], out: &mut Vec<(usize, usize)>) {
    if p.len() == 1 || d.len() == 1 {
        out.extend(p.iter().flat_map(|&pi| d.iter().map(move |&di| (pi, di))));
        return;
    }
    for &di in d {
        let before = p.partition_point(|&pi| pi < di);
        if let Some(&pi) = before.checked_sub(1).and_then(|i| p.get(i)).or_else(|| p.first()) {
            out.push((pi, di));
        }
    }
}

/// A finding about a PD pair.
#[derive(Debug, Clone)]
pub struct PairFinding {
    /// The server (an index into the servers given) the finding is on.
    pub on: usize,
    /// The two servers it is about (`on` and the other one).
    pub between: (usize, usize),
    pub diagnostic: Diagnostic,
    /// For each of the diagnostic's fixes, the server whose command its edits change (a fix
    /// may align the other command of the pair).
    pub fix_on: Vec<usize>,
}

fn finding(rule: &'static Rule, severity: Severity, span: Span, message: String, explanation: String) -> Diagnostic {
    Diagnostic {
        code: rule.code.to_string(),
        severity,
        origin: Origin::Preflight,
        stage: Stage::Check,
        exception: None,
        message,
        span,
        explanation: if explanation.is_empty() { rule.explanation.to_string() } else { format!("{explanation} {}", rule.explanation) },
        fixes: Vec::new(),
    }
}

/// What SGLang raises or logs for `rule`, rendered with `args`, as a sentence for explanations.
fn sglang_says(rule: &Rule, args: &crate::rules::Args) -> String {
    let Sglang::Transfer { exception, template, warns, .. } = rule.sglang else { return String::new() };
    if template.is_empty() {
        return String::new();
    }
    let message = release::render(template, args);
    match (warns, exception) {
        (true, _) | (_, "") => format!("SGLang logs: \"{}\".", message.trim_end()),
        (false, "AssertionError") => format!("SGLang raises AssertionError: ('{message}',)."),
        (false, e) => format!("SGLang raises {e}: \"{message}\"."),
    }
}

/// Collects the findings of one pair: each on the decode server `di` or the prefill server
/// `pi`, with fixes on either.
struct PairOut<'o> {
    pi: usize,
    di: usize,
    out: &'o mut Vec<PairFinding>,
}

impl PairOut<'_> {
    fn push(&mut self, on: usize, diagnostic: Diagnostic, fixes: Vec<(usize, Fix)>) {
        let (fix_on, fixes): (Vec<usize>, Vec<Fix>) = fixes.into_iter().unzip();
        self.out.push(PairFinding { on, between: (self.pi, self.di), diagnostic: Diagnostic { fixes, ..diagnostic }, fix_on });
    }
}

/// The findings for one prefill/decode pair.
fn check_pair(servers: &[PdServer], pi: usize, di: usize, out: &mut Vec<PairFinding>) {
    let (Some(p), Some(d)) = (servers.get(pi), servers.get(di)) else { return };
    let (p_line, d_line) = (p.line, d.line);
    let mut out = PairOut { pi, di, out };

    if p.model_path != d.model_path {
        let fixes = vec![(di, d.fix_set(format!("Serve {} on the decode server too", p.model_path), f::model_path, &p.model_path, Applicability::Unsafe))];
        out.push(
            di,
            finding(
                &MODEL_DIFFERS,
                Severity::Warning,
                d.span_of(f::model_path),
                format!("This decode server serves `{}`, its prefill server (line {p_line}) `{}`.", d.model_path, p.model_path),
                format!("Paired with the prefill server on line {p_line} (the only one no decode server shares a model with)."),
            ),
            fixes,
        );
    }

    if p.transfer_backend != d.transfer_backend {
        let fixes = vec![
            (di, d.fix_set(format!("Use the prefill server's backend ({}) here", p.transfer_backend), f::disaggregation_transfer_backend, &p.transfer_backend, Applicability::Safe)),
            (pi, p.fix_set(format!("Use this backend ({}) on the prefill server (line {p_line})", d.transfer_backend), f::disaggregation_transfer_backend, &d.transfer_backend, Applicability::Safe)),
        ];
        out.push(
            di,
            finding(
                &TRANSFER_BACKEND_DIFFERS,
                Severity::Error,
                d.span_of(f::disaggregation_transfer_backend),
                format!(
                    "Transfer backend `{}` differs from the prefill server's `{}` (line {p_line}): the two servers cannot exchange KV.",
                    d.transfer_backend, p.transfer_backend
                ),
                String::new(),
            ),
            fixes,
        );
    }

    if p.page_size != d.page_size {
        let known = p.page_size_known && d.page_size_known;
        let says = sglang_says(&PAGE_SIZE_DIFFERS, &[("info.page_size", &p.page_size), ("self.kv_args.page_size", &d.page_size)]);
        let unknown = if known { "" } else { " An attention backend may still change a page size, so this is not certain." };
        let fixes = vec![
            (di, d.fix_set(format!("Use the prefill server's page size ({}) here", p.page_size), f::page_size, &p.page_size.to_string(), Applicability::Safe)),
            (pi, p.fix_set(format!("Use this page size ({}) on the prefill server (line {p_line})", d.page_size), f::page_size, &d.page_size.to_string(), Applicability::Safe)),
        ];
        out.push(
            di,
            finding(
                &PAGE_SIZE_DIFFERS,
                if known { Severity::Error } else { Severity::Warning },
                d.span_of(f::page_size),
                format!("Page size {} differs from the prefill server's {} (line {p_line}).", d.page_size, p.page_size),
                format!("{says}{unknown}"),
            ),
            fixes,
        );
    }

    if p.kv_cache_dtype != d.kv_cache_dtype {
        // "auto" becomes "fp8_e4m3" for a model with an FP8 KV cache in its quantization config.
        let both = [p.kv_cache_dtype.as_str(), d.kv_cache_dtype.as_str()];
        let model_decides = both.contains(&"auto") && both.contains(&"fp8_e4m3");
        let says = sglang_says(&KV_CACHE_DTYPE_DIFFERS, &[("info.kv_cache_dtype", &p.kv_cache_dtype), ("self.kv_cache_dtype_str", &d.kv_cache_dtype)]);
        let unknown = if model_decides { " `auto` is `fp8_e4m3` for a model whose quantization config has an FP8 KV cache; preflight does not read the model." } else { "" };
        let fixes = vec![
            (di, d.fix_set(format!("Use the prefill server's KV cache dtype ({}) here", p.kv_cache_dtype), f::kv_cache_dtype, &p.kv_cache_dtype, Applicability::Safe)),
            (pi, p.fix_set(format!("Use this KV cache dtype ({}) on the prefill server (line {p_line})", d.kv_cache_dtype), f::kv_cache_dtype, &d.kv_cache_dtype, Applicability::Safe)),
        ];
        out.push(
            di,
            finding(
                &KV_CACHE_DTYPE_DIFFERS,
                if model_decides { Severity::Warning } else { Severity::Error },
                d.span_of(f::kv_cache_dtype),
                format!("KV cache dtype `{}` differs from the prefill server's `{}` (line {p_line}).", d.kv_cache_dtype, p.kv_cache_dtype),
                format!("{says}{unknown}"),
            ),
            fixes,
        );
    }

    if d.pp_size != p.pp_size && d.pp_size != 1 {
        let says = sglang_says(&PP_SIZE_LAYOUT, &[("self.pp_size", &d.pp_size), ("info.pp_size", &p.pp_size)]);
        let mut fixes = vec![(di, d.fix_set(format!("Use the prefill server's pipeline-parallel size ({}) here", p.pp_size), f::pp_size, &p.pp_size.to_string(), Applicability::Unsafe))];
        if p.pp_size != 1 {
            fixes.push((di, d.fix_set("Use no pipeline parallelism here (--pp-size 1)".to_string(), f::pp_size, "1", Applicability::Unsafe)));
        }
        out.push(
            di,
            finding(
                &PP_SIZE_LAYOUT,
                Severity::Error,
                d.span_of(f::pp_size),
                format!("Pipeline-parallel size {} is neither the prefill server's {} (line {p_line}) nor 1.", d.pp_size, p.pp_size),
                says,
            ),
            fixes,
        );
    }

    if p.attn_tp_size != d.attn_tp_size {
        let says = sglang_says(&ATTENTION_TP_DIFFERS, &[]);
        out.push(
            di,
            finding(
                &ATTENTION_TP_DIFFERS,
                Severity::Warning,
                d.span_of(f::tp_size),
                format!("Attention TP size {} differs from the prefill server's {} (line {p_line}).", d.attn_tp_size, p.attn_tp_size),
                format!("For a model without MLA attention {says}"),
            ),
            vec![(di, Fix::advice(format!("Use attention TP {} on both servers unless the model uses MLA", p.attn_tp_size)))],
        );
    }

    if d.dcp_size > 1 && p.attn_cp_size != 1 {
        let says = sglang_says(&DECODE_DCP_PREFILL_CP, &[("info.attn_cp_size", &p.attn_cp_size)]);
        out.push(
            di,
            finding(
                &DECODE_DCP_PREFILL_CP,
                Severity::Error,
                d.span_of(f::dcp_size),
                format!("Decode context parallelism (DCP {}) needs a prefill server with attention CP 1; the prefill server (line {p_line}) has {}.", d.dcp_size, p.attn_cp_size),
                says,
            ),
            vec![(di, d.fix_remove("Drop decode context parallelism here".to_string(), f::dcp_size, Applicability::Unsafe))],
        );
    }

    if d.dcp_size > 1 && p.kv_cache_sharding {
        let says = sglang_says(&DECODE_DCP_PREFILL_SHARDING, &[]);
        out.push(
            pi,
            finding(
                &DECODE_DCP_PREFILL_SHARDING,
                Severity::Error,
                p.span_of(f::enable_kv_cache_sharding),
                format!("KV cache sharding on this prefill server cannot feed the decode server on line {d_line}, which uses decode context parallelism (DCP {}).", d.dcp_size),
                says,
            ),
            vec![(pi, p.fix_remove("Drop --enable-kv-cache-sharding from this prefill server".to_string(), f::enable_kv_cache_sharding, Applicability::Unsafe))],
        );
    }

    if d.eagle_family() && !p.eagle_family() {
        let algorithm = d.speculative.as_deref().unwrap_or_default();
        out.push(
            di,
            finding(
                &DECODE_SPECULATIVE_ONLY,
                Severity::Warning,
                d.span_of(f::speculative_algorithm),
                format!("This decode server drafts with {algorithm}, but its prefill server (line {p_line}) runs no EAGLE speculative decoding to send it draft hidden states."),
                String::new(),
            ),
            vec![(pi, Fix::advice(format!("Give the prefill server (line {p_line}) the same speculative settings")))],
        );
    }
}

/// Two prefill servers (or a prefill server and another server's HTTP port) on one bootstrap
/// port, on the same `--host`. Linear: servers are grouped by (host, port).
fn bootstrap_clashes(servers: &[PdServer], out: &mut Vec<PairFinding>) {
    let mut taken: HashSet<i64> = servers.iter().flat_map(|o| [o.bootstrap_port, o.port]).flatten().collect();
    // suggested ports only go up, so finding free ones stays linear over all clashes
    let mut next_free = 0i64;
    let mut first_at: HashMap<(&str, i64), usize> = HashMap::new();
    let mut http_at: HashMap<(&str, i64), usize> = HashMap::new();
    for (i, s) in servers.iter().enumerate() {
        if let Some(port) = s.port {
            http_at.entry((s.host.as_str(), port)).or_insert(i);
        }
    }
    for (i, s) in servers.iter().enumerate() {
        if s.role != Role::Prefill {
            continue;
        }
        let Some(port) = s.bootstrap_port else { continue };
        // a host the shell expands is not known: no guess whether two servers share it
        if s.host.contains('$') {
            continue;
        }
        let key = (s.host.as_str(), port);
        let earlier = match first_at.get(&key) {
            Some(&j) => servers.get(j).filter(|o| !o.same_server_as(s)).map(|o| (j, o, "bootstrap port")),
            None => {
                first_at.insert(key, i);
                None
            }
        };
        let http = http_at.get(&key).filter(|&&j| j != i).and_then(|&j| Some((j, servers.get(j)?, "HTTP port")));
        let Some((j, other, what)) = earlier.or(http) else { continue };
        next_free = next_free.max(port.saturating_add(1));
        while taken.contains(&next_free) && next_free < i64::MAX {
            next_free += 1;
        }
        taken.insert(next_free);
        let fix = if next_free <= 65535 {
            s.fix_set(
                format!("Give this prefill server its own bootstrap port ({next_free}); the router must name it"),
                f::disaggregation_bootstrap_port,
                &next_free.to_string(),
                Applicability::Unsafe,
            )
        } else {
            Fix::advice("Give this prefill server its own bootstrap port; the router must name it")
        };
        let diagnostic = finding(
            &BOOTSTRAP_PORT_CLASH,
            Severity::Warning,
            s.span_of(f::disaggregation_bootstrap_port),
            format!(
                "Bootstrap port {port} on host {} is also the {what} of the {} server on line {}: on one machine this prefill server's bootstrap server cannot bind.",
                s.host,
                other.role.name(),
                other.line
            ),
            String::new(),
        );
        out.push(PairFinding { on: i, between: (j.min(i), j.max(i)), diagnostic: Diagnostic { fixes: vec![fix], ..diagnostic }, fix_on: vec![i] });
    }
}

/// A prefill server as a PD router command names it: `--prefill URL BOOTSTRAP_PORT`.
#[derive(Debug, Clone)]
pub struct RouterPrefill {
    /// The URL's host and port.
    pub host: String,
    pub port: i64,
    pub bootstrap_port: i64,
    /// The bootstrap port word, when it is written as it reads (an edit can replace it).
    pub bootstrap_port_span: Option<Span>,
    /// Where the router command starts in its text, and its 1-based line (set by the caller,
    /// as for [`PdServer::line`]).
    pub at: usize,
    pub line: usize,
}

/// The prefill servers the PD router commands among `commands` name with a bootstrap port
/// (`python -m sglang_router.launch_router --pd-disaggregation --prefill URL PORT ...`).
pub fn router_prefills(text: &str, commands: &[crate::shell::ShellCommand]) -> Vec<RouterPrefill> {
    let mut out = Vec::new();
    for cmd in commands {
        if !cmd.words.iter().any(|w| w.text == "sglang_router.launch_router" || w.text.ends_with("sglang_router/launch_router.py")) {
            continue;
        }
        let mut words = cmd.words.iter().peekable();
        while let Some(w) = words.next() {
            if w.text != "--prefill" {
                continue;
            }
            let Some(url) = words.next_if(|u| u.text.starts_with("http://") || u.text.starts_with("https://")) else { continue };
            let Some(port_word) = words.next_if(|p| !p.text.starts_with('-')) else { continue };
            let Ok(bootstrap_port) = port_word.text.parse::<i64>() else { continue };
            let authority = url.text.split("://").nth(1).unwrap_or("").split('/').next().unwrap_or("");
            let Some((host, port)) = authority.rsplit_once(':') else { continue };
            let Ok(port) = port.parse::<i64>() else { continue };
            let written_as_read = text.get(port_word.span.start..port_word.span.end) == Some(port_word.text.as_str());
            out.push(RouterPrefill {
                host: host.to_string(),
                port,
                bootstrap_port,
                bootstrap_port_span: written_as_read.then_some(port_word.span),
                at: cmd.span.start,
                line: 0,
            });
        }
    }
    out
}

/// Hosts that may be the same machine: equal, or one of them a wildcard, loopback or a name
/// the shell expands.
fn may_be_same_host(a: &str, b: &str) -> bool {
    let any = |h: &str| matches!(h, "0.0.0.0" | "::" | "[::]" | "127.0.0.1" | "localhost" | "") || h.contains('$');
    a == b || any(a) || any(b)
}

/// Router entries whose bootstrap port is not their prefill server's. The prefill server is
/// the one prefill server whose --port is the URL's on a host that may be the URL's.
fn router_mismatches(servers: &[PdServer], routers: &[RouterPrefill], out: &mut Vec<PairFinding>) {
    let mut by_port: HashMap<i64, Vec<usize>> = HashMap::new();
    for (i, s) in servers.iter().enumerate() {
        if let (Role::Prefill, Some(port)) = (s.role, s.port) {
            by_port.entry(port).or_default().push(i);
        }
    }
    for r in routers {
        let Some(candidates) = by_port.get(&r.port) else { continue };
        let mut matching = candidates.iter().filter(|&&i| servers.get(i).is_some_and(|s| may_be_same_host(&s.host, &r.host)));
        let (Some(&i), None) = (matching.next(), matching.next()) else { continue };
        let Some(s) = servers.get(i) else { continue };
        let Some(expected) = s.bootstrap_port else { continue };
        if expected == r.bootstrap_port {
            continue;
        }
        let mut fixes = vec![s.fix_set(
            format!("Bootstrap this prefill server on the router's port ({})", r.bootstrap_port),
            f::disaggregation_bootstrap_port,
            &r.bootstrap_port.to_string(),
            Applicability::Safe,
        )];
        let mut fix_on = vec![i];
        // the router's word is not a command of the report: its edit rides on this finding
        if let Some(span) = r.bootstrap_port_span {
            fixes.push(Fix {
                title: format!("Name this server's bootstrap port ({expected}) in the router command (line {})", r.line),
                applicability: Applicability::Safe,
                edits: vec![Edit { start: span.start, end: span.end, replacement: expected.to_string() }],
            });
            fix_on.push(i);
        }
        let diagnostic = finding(
            &ROUTER_BOOTSTRAP_PORT,
            Severity::Warning,
            s.span_of(f::disaggregation_bootstrap_port),
            format!(
                "The router (line {}) sends decode servers to bootstrap port {} for this prefill server, which bootstraps on {expected}.",
                r.line, r.bootstrap_port
            ),
            String::new(),
        );
        out.push(PairFinding { on: i, between: (i, i), diagnostic: Diagnostic { fixes, ..diagnostic }, fix_on });
    }
}

/// The findings about the PD pairs among `servers` (their `line`s set), in no particular
/// order. Spans and fix edits are in the coordinates of the text each server was checked in
/// (`fix_on` says which server each fix edits; a router finding's second fix edits the router
/// command's text). Linear in the number of servers.
pub fn pair_findings(servers: &[PdServer]) -> Vec<PairFinding> {
    let mut found = Vec::new();
    for (pi, di) in pairs(servers) {
        check_pair(servers, pi, di, &mut found);
    }
    bootstrap_clashes(servers, &mut found);
    found
}

/// Check the PD prefill/decode pairs among `servers`, all found in `text`, and add the
/// findings to the commands they concern (`PdServer::command` indexes `commands`).
pub fn check_pairs(text: &str, servers: &mut [PdServer], shell_commands: &[crate::shell::ShellCommand], commands: &mut [CommandReport]) {
    let newlines: Vec<usize> = text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i).collect();
    let line_of = |at: usize| newlines.partition_point(|&i| i < at) + 1;
    for s in servers.iter_mut() {
        s.line = line_of(s.launcher.start);
    }
    let mut found = pair_findings(servers);
    if !servers.is_empty() {
        let mut routers = router_prefills(text, shell_commands);
        for r in &mut routers {
            r.line = line_of(r.at);
        }
        router_mismatches(servers, &routers, &mut found);
    }
    for PairFinding { on, diagnostic, .. } in found {
        let Some(report) = servers.get(on).and_then(|s| commands.get_mut(s.command)) else { continue };
        // a decode server paired with the prefill servers of one multi-node deployment gets a
        // finding once
        if report.diagnostics.iter().any(|d| d.code == diagnostic.code && d.span == diagnostic.span) {
            continue;
        }
        report.diagnostics.push(diagnostic);
    }
}
