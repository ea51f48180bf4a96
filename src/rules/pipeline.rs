//! The order of SGLang's resolution is data: `data/sglang-<release>/pipeline.json`, extracted
//! from the release's `sglang/srt/arg_groups/pipeline.py::run_resolution_pipeline` by
//! `tools/extract_pipeline.py`. This file only says which of our functions model each step
//! ([`STEPS`]) and how each condition reads ([`CONDITIONS`]); steps this build does not model
//! yet are counted as `not_modelled` in their place, so each report says which of SGLang's
//! checks it did not run. Then `check_server_args`.
//!
//! A hook stops at its first raise (`Step`); the pipeline goes on with the next hook, so one
//! report holds every error SGLang would raise in turn as the command is fixed.

use super::{attention, boundary_reduction, cuda_graph, dllm, expert_pack, hicache, kv_cache, kv_shard, layernorm_sp, lora, mamba, megakernel, mega_moe, memory, model, model_config, model_path, monokernel, moe, parallel, pd_disaggregation, platform, serving, shared, speculative, validation, Ctx, Step};
use super::NotRunReason;
use crate::fields::{f, Field};
use crate::resolved::UnknownReason;
use crate::release::{PipelineStep, Release, ReleaseData, StepWrites};
use std::sync::Mutex;

type Hook = fn(&mut Ctx) -> Step;

/// The pipeline steps this build models, by the name the release data gives them, and the
/// functions that model each (in order).
const STEPS: &[(&str, &[Hook])] = &[
    ("parallel_hook.handle_deprecated_dp_attention", &[parallel::handle_deprecated_dp_attention]),
    ("mega_moe_hook.handle_mega_moe", &[mega_moe::handle_mega_moe]),
    ("serving_hook.handle_return_hidden_states_mode", &[serving::handle_return_hidden_states_mode]),
    ("serving_hook.handle_media_url_security", &[serving::handle_media_url_security]),
    ("serving_hook.handle_watermark_config", &[serving::handle_watermark_config]),
    ("hicache_hook.handle_hicache_ratio_default", &[hicache::handle_hicache_ratio_default]),
    ("memory_hook.handle_offload_compatibility", &[memory::handle_offload_compatibility]),
    ("validation_hook.validate_prefill_decode_interval", &[validation::validate_prefill_decode_interval]),
    ("validation_hook.validate_response_store", &[validation::validate_response_store]),
    ("validation_hook.validate_sampling_mask_max_tokens", &[validation::validate_sampling_mask_max_tokens]),
    ("validation_hook.handle_aux_hidden_state_capture", &[validation::handle_aux_hidden_state_capture]),
    ("parallel_hook.validate_prefill_cp_platform", &[parallel::validate_prefill_cp_platform]),
    ("platform_hook.handle_hardware_runtime_validation", &[platform::handle_hardware_runtime_validation]),
    // both in the dummy-model branch and after speculative decoding
    ("boundary_reduction.resolve_boundary_reduction", &[boundary_reduction::resolve_boundary_reduction]),
    ("model_path_hook.handle_model_source_paths", &[model_path::handle_model_source_paths]),
    // its model-source load (repo id validation) is checked by handle_model_source_paths; its
    // get_config is the first load of the model's config
    ("muse_spark_hook.apply_muse_spark_env_defaults", &[model_config::muse_spark_get_config]),
    ("serving_hook.handle_multimodal", &[serving::handle_multimodal]),
    ("serving_hook.handle_ssl_validation", &[serving::handle_ssl_validation]),
    ("serving_hook.handle_asr_validation", &[serving::handle_asr_validation]),
    ("serving_hook.handle_deprecated_args", &[serving::handle_deprecated_args]),
    ("serving_hook.handle_prefill_delayer_env_compat", &[serving::handle_prefill_delayer_env_compat]),
    ("serving_hook.handle_missing_default_values", &[serving::handle_missing_default_values]),
    ("expert_pack_hook.handle_expert_pack", &[expert_pack::handle_expert_pack]),
    ("pd_disaggregation_hook.handle_pd_disaggregation", &[pd_disaggregation::handle_pd_disaggregation]),
    ("kv_cache_hook.validate_prefill_only_disable_kv_cache_args", &[kv_cache::validate_prefill_only_disable_kv_cache_args]),
    ("parallel_hook.handle_decode_context_parallelism", &[parallel::handle_decode_context_parallelism]),
    // the first step that builds ModelConfig (parses --json-model-override-args)
    ("cuda_graph_hook.apply_inkling_prefill_cuda_graph_default", &[model_config::model_config_init, cuda_graph::apply_inkling_prefill_cuda_graph_default]),
    ("cuda_graph_hook.apply_muse_glimmer_prefill_cuda_graph_max_bs_default", &[cuda_graph::apply_muse_glimmer_prefill_cuda_graph_max_bs_default]),
    ("parallel_hook.handle_dwdp", &[parallel::handle_dwdp]),
    ("cuda_graph_hook.handle_cuda_graph_config", &[cuda_graph::handle_cuda_graph_config]),
    ("platform_hook.handle_hpu_backends", &[platform::handle_hpu_backends]),
    ("platform_hook.handle_cpu_backends", &[platform::handle_cpu_backends]),
    ("platform_hook.handle_npu_backends", &[platform::handle_npu_backends]),
    ("platform_hook.handle_mps_backends", &[platform::handle_mps_backends]),
    ("platform_hook.handle_xpu_backends", &[platform::handle_xpu_backends]),
    ("platform_hook.handle_symm_mem_device_support", &[platform::handle_symm_mem_device_support]),
    ("platform_hook.handle_platform_defaults", &[platform::handle_platform_defaults]),
    // 0.5.18: OOT platform plugins' defaults (the built-in platforms' hook does nothing; no OOT
    // platform is modelled), then the device memory `handle_gpu_memory_settings` reads (it
    // computes it itself, as 0.5.23's does)
    ("server_args.current_platform.apply_server_args_defaults", &[]),
    ("server_args.get_device_memory_capacity", &[]),
    ("memory_hook.handle_gpu_memory_settings", &[memory::handle_gpu_memory_settings]),
    ("model_hook.handle_model_specific_adjustments", &[model::handle_model_specific_adjustments]),
    ("validation_hook.default_unset_prefill_decode_interval", &[validation::default_unset_prefill_decode_interval]),
    ("overrides._sampling_backend_default", &[platform::sampling_backend_default]),
    // 0.5.18 runs the same pass from a ServerArgs method
    ("server_args.ServerArgs._handle_sampling_backend", &[platform::sampling_backend_default]),
    ("attention_hook.handle_deterministic_inference", &[attention::handle_deterministic_inference]),
    ("kv_cache_hook.handle_nvfp4_prefill_kv_dequant_dtype", &[kv_cache::handle_nvfp4_prefill_kv_dequant_dtype]),
    ("attention_hook.handle_attention_backend_compatibility", &[attention::handle_attention_backend_compatibility]),
    ("cuda_graph_hook.disable_prefill_cuda_graph_for_deepseek_trtllm_mla", &[cuda_graph::disable_prefill_cuda_graph_for_deepseek_trtllm_mla]),
    ("mamba_hook.handle_mamba_backend", &[mamba::handle_mamba_backend]),
    ("mamba_hook.handle_int8_mamba_checkpoint", &[mamba::handle_int8_mamba_checkpoint]),
    ("attention_hook.handle_linear_attn_backend", &[attention::handle_linear_attn_backend]),
    ("kv_cache_hook.handle_kv4_compatibility", &[kv_cache::handle_kv4_compatibility]),
    ("kv_cache_hook.handle_mxfp8_kv_cache_compatibility", &[kv_cache::handle_mxfp8_kv_cache_compatibility]),
    ("platform_hook.handle_amd_specifics", &[platform::handle_amd_specifics]),
    ("platform_hook.handle_nccl_pre_warm", &[platform::handle_nccl_pre_warm]),
    ("overrides._page_size_default", &[attention::page_size_default]),
    // 0.5.18's step that runs the same pass at its legacy slot (after _handle_mxfp8_kv_cache_compatibility)
    ("server_args.ServerArgs._handle_page_size", &[attention::page_size_default]),
    ("serving_hook.handle_grammar_backend", &[serving::handle_grammar_backend]),
    ("attention_hook.handle_multi_item_scoring", &[attention::handle_multi_item_scoring]),
    ("kv_cache_hook.handle_prefill_only_disable_kv_cache", &[kv_cache::handle_prefill_only_disable_kv_cache]),
    ("hicache_hook.handle_hicache", &[hicache::handle_hicache]),
    ("parallel_hook.handle_data_parallelism", &[parallel::handle_data_parallelism]),
    ("serving_hook.handle_load_balance_method", &[serving::handle_load_balance_method]),
    ("parallel_hook.handle_context_parallelism", &[parallel::handle_context_parallelism]),
    ("cuda_graph_hook.apply_prefill_cp_cuda_graph_default", &[cuda_graph::apply_prefill_cp_cuda_graph_default]),
    ("moe_hook.handle_moe_kernel_config", &[moe::handle_moe_kernel_config]),
    ("moe_hook.handle_a2a_moe", &[moe::handle_a2a_moe]),
    // runs twice: here and after finalize_cuda_graph_prefill_max_context
    ("kv_shard_hook.handle_kv_cache_sharding", &[kv_shard::handle_kv_cache_sharding]),
    ("parallel_hook.handle_shared_experts_tp", &[parallel::handle_shared_experts_tp]),
    ("parallel_hook.handle_eplb_and_dispatch", &[parallel::handle_eplb_and_dispatch]),
    ("parallel_hook.handle_expert_distribution_metrics", &[parallel::handle_expert_distribution_metrics]),
    ("parallel_hook.handle_elastic_ep", &[parallel::handle_elastic_ep]),
    ("validation_hook.validate_experimental_sgl_marlin", &[lora::validate_experimental_sgl_marlin]),
    ("overrides._pipeline_parallel_overlap_disable", &[shared::overrides::pipeline_parallel_overlap_disable]),
    ("moe_hook.validate_flashinfer_a2a_token_budget", &[moe::validate_flashinfer_a2a_token_budget]),
    ("mega_moe_hook.validate_mega_moe_token_budget_for_model", &[mega_moe::validate_mega_moe_token_budget_for_model]),
    ("speculative_hook.handle_speculative_decoding", &[speculative::handle_speculative_decoding]),
    ("layernorm_sp_hook.handle_layernorm_sp", &[layernorm_sp::handle_layernorm_sp]),
    ("model_path_hook.handle_load_format", &[model_path::handle_load_format]),
    ("pd_disaggregation_hook.handle_encoder_disaggregation", &[pd_disaggregation::handle_encoder_disaggregation]),
    ("serving_hook.handle_tokenizer_batching", &[serving::handle_tokenizer_batching]),
    ("serving_hook.handle_environment_variables", &[serving::handle_environment_variables]),
    ("kv_cache_hook.handle_cache_compatibility", &[kv_cache::handle_cache_compatibility]),
    ("kv_cache_hook.handle_page_major_kv_layout", &[kv_cache::handle_page_major_kv_layout]),
    ("kv_cache_hook.handle_unified_memory_pool", &[kv_cache::handle_unified_memory_pool]),
    ("dllm_hook.handle_dllm_inference", &[dllm::handle_dllm_inference]),
    ("serving_hook.handle_crash_dump_env", &[serving::handle_crash_dump_env]),
    ("serving_hook.handle_debug_utils", &[serving::handle_debug_utils]),
    ("serving_hook.handle_other_validations", &[serving::handle_other_validations]),
    ("moe_hook.validate_deepep_v2_speculative_draft", &[moe::validate_deepep_v2_speculative_draft]),
    ("moe_hook.validate_deepep_v2_dispatch_token_budget", &[moe::validate_deepep_v2_dispatch_token_budget]),
    ("model_hook.handle_model_capability_adjustments", &[model::handle_model_capability_adjustments]),
    ("sglang.srt.kernel_plugins.nvidia.binding.handle_nvidia_megakernel", &[megakernel::handle_nvidia_megakernel]),
    ("sglang.srt.kernel_plugins.amd.binding.handle_amd_monokernel", &[monokernel::handle_amd_monokernel]),
    ("cuda_graph_hook.finalize_cuda_graph_prefill_max_context", &[cuda_graph::finalize_cuda_graph_prefill_max_context]),
    // 0.5.18's end of resolution: the stashed declarations are applied to the fields (the
    // resolving view already shows them; code that reads a field itself sees them from here on).
    ("server_args.materialize_declarations", &[shared::overrides::materialize_declarations]),
    // 0.5.18's steps without a hook of their name (`ServerArgs` methods 0.5.23 dropped or folded)
    // runs twice: before the model's defaults and after them
    ("server_args.ServerArgs._handle_legacy_cp_arguments", &[parallel::handle_legacy_cp_arguments]),
    ("server_args.ServerArgs._handle_dcp_validation", &[parallel::handle_dcp_validation]),
    ("server_args.ServerArgs._handle_pipeline_parallelism", &[shared::overrides::pipeline_parallel_overlap_disable]),
    ("server_args.ServerArgs._validate_cutedsl_a2a_token_budget", &[moe::validate_cutedsl_a2a_token_budget]),
];

/// `cfg.model_path.lower() in ["none", "dummy"]`: the dummy-model short circuit.
fn dummy_model(ctx: &Ctx) -> bool {
    matches!(ctx.cfg.str(f::model_path).map(str::to_ascii_lowercase).as_deref(), Some("none") | Some("dummy"))
}

fn prefill_cp(ctx: &Ctx) -> bool {
    ctx.cfg.truthy(f::enable_prefill_cp)
}

/// Steps whose functions run (their flag-only parts and their not-run checks) but which still
/// count as not modelled: they derive values from the model's config that are not replayed. Their
/// functions say so (`Ctx::not_modelled`) on each path where that holds.
const PARTLY_MODELLED: &[&str] = &["model_hook.handle_model_specific_adjustments", "model_hook.handle_model_capability_adjustments"];

/// For a release before the hook modules: the hooks whose model also replays that release's
/// step of the same name where its source differs (`steps.json`: "differs"), by the branches
/// the hook takes on the release's own sites and lists. Each entry is measured against the
/// release's recorded fixtures (`tools/measure_steps.py <version> --all-steps` lists what
/// every counterpart would still get wrong); a step not listed is reported as not modelled.
const REPLAYED_AS_WRITTEN: &[(&str, &[&str])] = &[(
    "0.5.18",
    &[
        // kv_cache, hicache
        "hicache_hook.handle_hicache_ratio_default",
        "kv_cache_hook.handle_mxfp8_kv_cache_compatibility",
        "kv_cache_hook.handle_prefill_only_disable_kv_cache",
        "hicache_hook.handle_hicache",
        "kv_cache_hook.handle_cache_compatibility",
        // attention, mamba
        "attention_hook.handle_deterministic_inference",
        "attention_hook.handle_attention_backend_compatibility",
        "attention_hook.handle_multi_item_scoring",
        "attention_hook.handle_linear_attn_backend",
        "mamba_hook.handle_mamba_backend",
        "mamba_hook.handle_int8_mamba_checkpoint",
        // serving, pd, cuda_graph, memory, platform
        "serving_hook.handle_return_hidden_states_mode",
        "serving_hook.handle_ssl_validation",
        "serving_hook.handle_deprecated_args",
        "serving_hook.handle_missing_default_values",
        "pd_disaggregation_hook.handle_pd_disaggregation",
        "cuda_graph_hook.handle_cuda_graph_config",
        "platform_hook.handle_npu_backends",
        "platform_hook.handle_xpu_backends",
        "memory_hook.handle_gpu_memory_settings",
        "platform_hook.handle_amd_specifics",
        "platform_hook.handle_nccl_pre_warm",
        "serving_hook.handle_environment_variables",
        "serving_hook.handle_other_validations",
        // parallel, moe, load_format, dllm
        "parallel_hook.handle_dwdp",
        "parallel_hook.handle_data_parallelism",
        "parallel_hook.handle_context_parallelism",
        "moe_hook.handle_moe_kernel_config",
        "moe_hook.handle_a2a_moe",
        "parallel_hook.handle_expert_distribution_metrics",
        "parallel_hook.handle_elastic_ep",
        "model_path_hook.handle_load_format",
        "dllm_hook.handle_dllm_inference",
        // model hook: 0.5.18 raises none of the capability hook's checks (their flags are not
        // 0.5.18's); what it assigns is on the paths the hook counts as not modelled
        "model_hook.handle_model_capability_adjustments",
        // encoder disaggregation: 0.5.18's architecture list (the release's builtin lists), no
        // Muse Spark check (its site is absent), no deepseek_v41 exemption for
        // --language-model-only with PD
        "pd_disaggregation_hook.handle_encoder_disaggregation",
        // the same check through 0.5.18's own config API; the warning is the release's text
        "cuda_graph_hook.disable_prefill_cuda_graph_for_deepseek_trtllm_mla",
        // model hook: the model-specific step (its 0.5.18 branches on the release's lists and
        // raise sites)
        "model_hook.handle_model_specific_adjustments",
        // speculative decoding and the KV-layout steps that read what it decides (0.5.18's
        // branches: UNO, adaptive steps, the EAGLE family's mixed-chunk and rejection-sampling
        // checks, DSpark's gamma; KV4 as 0.5.18 writes it)
        "speculative_hook.handle_speculative_decoding",
        "kv_cache_hook.handle_kv4_compatibility",
        // check_server_args as 0.5.18 writes it (VAL149-152; its sites, messages and lists)
        "validation_hook.check_server_args",
        // the page-major KV layout (its Triton-only assert reads the attention backends through
        // 0.5.18's declaration stash: the model override providers' attention backend, else the
        // default `_get_default_attn_backend` picks) and the unified memory pool after it
        "kv_cache_hook.handle_page_major_kv_layout",
        "kv_cache_hook.handle_unified_memory_pool",
    ],
)];

/// The hook that runs `step` of `data`'s release: its own name, a hook of the same source, or
/// a counterpart replayed as written.
fn hook_for(step: &'static str, data: &'static ReleaseData) -> &'static str {
    let replayed = |hook: &str| REPLAYED_AS_WRITTEN.iter().any(|(v, hooks)| *v == data.version && hooks.contains(&hook));
    data.same_steps
        .iter()
        .find(|(s, _)| *s == step)
        .or_else(|| data.counterparts.iter().find(|(s, hook)| *s == step && replayed(hook)))
        .map(|(_, hook)| *hook)
        .unwrap_or(step)
}

/// Whether checking `release` runs a model of its step `step` (`pipeline.json`'s name, or the
/// function name alone as raise sites name the step that reaches them: `_handle_dwdp`,
/// `check_server_args`): false for a step reported as not modelled on every path.
pub fn runs_step(release: &Release, step: &str) -> bool {
    let data = release.data;
    let named = |full: &str| full == step || full.rsplit('.').next() == Some(step);
    if named("server_args.ServerArgs.check_server_args") || named(CHECK_SERVER_ARGS) {
        return !data.before_hook_modules() || hook_for("server_args.ServerArgs.check_server_args", data) == CHECK_SERVER_ARGS;
    }
    // Asked twice for every command checked (`model_config`): read from the release's compiled
    // pipeline, where each step already has the hook that runs it, and kept with it (walking the
    // pipeline and splitting every step's name was ~2% of a check in the page's wasm).
    fn any_runs(steps: &[Compiled], named: &dyn Fn(&str) -> bool) -> bool {
        steps.iter().any(|s| match s {
            Compiled::Run(info, _) => named(info.name),
            Compiled::NotModelled(_) | Compiled::Return => false,
            Compiled::If(_, then, otherwise) => any_runs(then, named) || any_runs(otherwise, named),
            Compiled::Unreadable(_, infos) => infos.iter().any(|i| named(i.name) && STEPS.iter().any(|(n, _)| *n == i.hook)),
        })
    }
    let built = built(release);
    let mut answers = built.runs_step.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, runs)) = answers.iter().find(|(name, _)| name == step) {
        return *runs;
    }
    let runs = any_runs(built.steps, &named);
    answers.push((step.to_string(), runs));
    runs
}

/// Whether this build models the pipeline step `name` (as `pipeline.json` names it).
pub fn is_modelled(name: &str) -> bool {
    STEPS.iter().any(|(n, _)| *n == name) && !PARTLY_MODELLED.contains(&name)
}

type Condition = fn(&Ctx) -> bool;

/// The pipeline's conditions, by their source text in the release data.
const CONDITIONS: &[(&str, Condition)] = &[
    ("cfg.model_path.lower() in ['none', 'dummy']", dummy_model),
    ("self.model_path.lower() in ['none', 'dummy']", dummy_model),
    ("cfg.enable_prefill_cp", prefill_cp),
];

/// A release's pipeline with each step looked up once (the check runs it for every command).
enum Compiled {
    Run(StepInfo, &'static [Hook]),
    NotModelled(StepInfo),
    If(Condition, Vec<Compiled>, Vec<Compiled>),
    /// A condition this build cannot read: neither branch is claimed to have run (the steps
    /// of both are listed: what they may assign is not known).
    Unreadable(&'static str, Vec<StepInfo>),
    Return,
}

/// A step as the release data names it, with what it may assign looked up once.
struct StepInfo {
    name: &'static str,
    /// The hook that runs it (its own name, or 0.5.23's hook replaying an older release's step)
    hook: &'static str,
    writes: Option<&'static StepWrites>,
    partly_modelled: bool,
}

impl StepInfo {
    fn of(name: &'static str, data: &'static ReleaseData) -> StepInfo {
        let hook = hook_for(name, data);
        StepInfo { name, hook, writes: data.writes_of(name), partly_modelled: PARTLY_MODELLED.contains(&hook) }
    }
}

fn compile(steps: &'static [PipelineStep], data: &'static ReleaseData) -> Vec<Compiled> {
    steps
        .iter()
        .map(|step| match step {
            PipelineStep::Hook(name) => {
                // a release before the hook modules: a step whose source is the hook's
                let hook = hook_for(name, data);
                match STEPS.iter().find(|(n, _)| *n == hook) {
                    Some((_, hooks)) => Compiled::Run(StepInfo::of(name, data), hooks),
                    None => Compiled::NotModelled(StepInfo::of(name, data)),
                }
            }
            PipelineStep::If { condition, then, otherwise } => match CONDITIONS.iter().find(|(c, _)| c == condition) {
                Some((_, holds)) => Compiled::If(*holds, compile(then, data), compile(otherwise, data)),
                None => Compiled::Unreadable(condition, hook_names(then).into_iter().chain(hook_names(otherwise)).map(|name| StepInfo::of(name, data)).collect()),
            },
            PipelineStep::Return => Compiled::Return,
        })
        .collect()
}

/// A release's compiled pipeline, built when it is first checked: a carried release's, or one
/// registered at run time with its check data (`release::register`: the page's 0.5.18). Kept as
/// the release's tables are, for the life of the program: their address names them.
fn compiled(release: &Release) -> &'static [Compiled] {
    built(release).steps
}

/// A release's compiled pipeline and what has been asked of it.
struct Built {
    /// The release's tables' address.
    key: usize,
    steps: &'static [Compiled],
    /// `runs_step`'s answers by step name.
    runs_step: Mutex<Vec<(String, bool)>>,
}

fn built(release: &Release) -> &'static Built {
    static BUILT: Mutex<Vec<&'static Built>> = Mutex::new(Vec::new());
    let key = std::ptr::from_ref(release.data) as usize;
    let mut built = BUILT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(b) = built.iter().find(|b| b.key == key) {
        return b;
    }
    let steps: &'static [Compiled] = compile(release.data.pipeline, release.data).leak();
    let b: &'static Built = Box::leak(Box::new(Built { key, steps, runs_step: Mutex::new(Vec::new()) }));
    built.push(b);
    b
}

/// Run resolution (`ServerArgs.resolve_once`), stage `resolve`, in the checked release's order.
pub fn run_resolution_pipeline(ctx: &mut Ctx) {
    let steps = compiled(ctx.release);
    // resolve_once's runtime gates (MLX, MPS) run before the pipeline's first step
    ctx.run(platform::resolve_once_runtime_gates);
    run_steps(ctx, steps);
}

/// Returns true when a `return` step ended resolution.
fn run_steps(ctx: &mut Ctx, steps: &[Compiled]) -> bool {
    for step in steps {
        match step {
            Compiled::Run(step, hooks) => {
                ctx.cfg.start_step(step.name);
                let before = ctx.not_run.len();
                let not_modelled_before = ctx.not_modelled.len();
                hooks.iter().for_each(|hook| ctx.run(*hook));
                let marked = ctx.not_modelled.get(not_modelled_before..).unwrap_or(&[]);
                let path_not_modelled = marked.contains(&step.name) || marked.contains(&step.hook);
                if step.partly_modelled && path_not_modelled {
                    // What it derives from the model's config on this path is not replayed: each
                    // field it may assign is unknown unless its modelled part assigned it.
                    mark_unassigned_writes(ctx, step, UnknownReason::ModelConfig);
                }
                after_step(ctx, step, before);
            }
            Compiled::NotModelled(step) => {
                ctx.not_modelled(step.name);
                mark_writes(ctx, step, UnknownReason::NotModelled);
            }
            Compiled::Unreadable(condition, steps) => {
                ctx.not_modelled(condition);
                for step in steps {
                    mark_writes(ctx, step, UnknownReason::NotModelled);
                }
            }
            Compiled::If(holds, then, otherwise) => {
                ctx.cfg.forget_reads();
                let branch = if holds(ctx) { then } else { otherwise };
                // a branch taken on a value not known here may not be SGLang's
                let outer = ctx.on_unknown_branch;
                ctx.on_unknown_branch |= ctx.cfg.read_unknown();
                let returned = run_steps(ctx, branch);
                ctx.on_unknown_branch = outer;
                if returned {
                    return true;
                }
            }
            Compiled::Return => return true,
        }
    }
    false
}

/// `ServerArgs.check_server_args()`, stage `check` (run by the engine right after resolution).
pub fn check_server_args(ctx: &mut Ctx) {
    // A release before the hook modules runs `ServerArgs.check_server_args`: modelled only where
    // its source is the hook's (`steps.json`).
    let data = ctx.release.data;
    if data.before_hook_modules() && hook_for("server_args.ServerArgs.check_server_args", data) != CHECK_SERVER_ARGS {
        ctx.not_modelled("server_args.ServerArgs.check_server_args");
        // what it may assign (its late LoRA resolution) is not known
        mark_writes(ctx, &StepInfo::of(CHECK_SERVER_ARGS, data), UnknownReason::NotModelled);
        return;
    }
    // validation_hook.check_server_args calls lora_hook.check_lora_server_args midway: one
    // function in SGLang, so a raise in any part stops the rest.
    ctx.cfg.start_step(CHECK_SERVER_ARGS);
    let before = ctx.not_run.len();
    ctx.run_in_turn(&[validation::check_server_args, lora::check_lora_server_args, validation::check_server_args_after_lora]);
    after_step(ctx, &StepInfo::of(CHECK_SERVER_ARGS, data), before);
}

/// `check_server_args` as the release data names it.
const CHECK_SERVER_ARGS: &str = "validation_hook.check_server_args";

/// The hooks a branch names (nested conditions included).
fn hook_names(steps: &'static [PipelineStep]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for step in steps {
        match step {
            PipelineStep::Hook(name) => out.push(*name),
            PipelineStep::If { then, otherwise, .. } => {
                out.extend(hook_names(then));
                out.extend(hook_names(otherwise));
            }
            PipelineStep::Return => {}
        }
    }
    out
}

/// A modelled step ran: when it could not decide everything here (it needed the model's
/// config, skipped a check, or read a value not known here), what it may assign is not known.
fn after_step(ctx: &mut Ctx, step: &StepInfo, not_run_before: usize) {
    let skipped = ctx.not_run.get(not_run_before..).unwrap_or(&[]);
    let reason = if skipped.iter().any(|n| n.reason == NotRunReason::ModelConfig) {
        Some(UnknownReason::ModelConfig)
    } else if skipped.iter().any(|n| n.reason == NotRunReason::UnknownValue) {
        Some(UnknownReason::UnknownValue)
    } else if !skipped.is_empty() {
        Some(UnknownReason::CheckNotRun)
    } else if ctx.on_unknown_branch {
        Some(UnknownReason::UnknownValue)
    } else {
        // computed from values that need the model's config, or from others not known here
        ctx.cfg.step_unknown_reason()
    };
    if let Some(reason) = reason {
        mark_writes(ctx, step, reason);
    }
}

/// Every field `step` may assign that it did not assign (as modelled) is not known after it.
fn mark_unassigned_writes(ctx: &mut Ctx, step: &StepInfo, reason: UnknownReason) {
    let fields: Vec<Field> = match step.writes {
        Some(w) if !w.any => w.fields.to_vec(),
        _ => Field::all().collect(),
    };
    for field in fields {
        if ctx.cfg.derived_by(field) != Some(step.name) {
            ctx.cfg.mark_uncertain(field, step.name, reason);
        }
    }
}

/// Every field `step` may assign (`pipeline-writes.json`) is not known after it, for `reason`.
fn mark_writes(ctx: &mut Ctx, step: &StepInfo, reason: UnknownReason) {
    match step.writes {
        Some(w) if !w.any => {
            for &field in w.fields {
                ctx.cfg.mark_uncertain(field, step.name, reason);
            }
        }
        // a step whose writes are not all known (or not listed) may assign any field
        _ => {
            for field in Field::all() {
                ctx.cfg.mark_uncertain(field, step.name, reason);
            }
        }
    }
}
