//! The order of SGLang's resolution: a line-for-line mirror of
//! `sglang/srt/arg_groups/pipeline.py::run_resolution_pipeline` (0.5.23), then
//! `check_server_args`. Hooks from modules this build does not model yet are named in their
//! place (`not_modelled`): the order stays reviewable against SGLang's file, and each report
//! says which of SGLang's checks it did not run.
//!
//! A hook stops at its first raise (`Step`); the pipeline goes on with the next hook, so one
//! report holds every error SGLang would raise in turn as the command is fixed.

use crate::fields::f;
use super::{cuda_graph, hicache, kv_cache, model_config, model_path, parallel, pd_disaggregation, serving, validation, Ctx};

/// Run resolution (`ServerArgs.resolve_once`), stage `resolve`.
pub fn run_resolution_pipeline(ctx: &mut Ctx) {
    ctx.run(parallel::handle_deprecated_dp_attention);
    ctx.not_modelled("mega_moe_hook.handle_mega_moe");
    ctx.run(serving::handle_return_hidden_states_mode);
    ctx.run(serving::handle_media_url_security);
    ctx.run(serving::handle_watermark_config);
    ctx.run(hicache::handle_hicache_ratio_default);
    ctx.not_modelled("memory_hook.handle_offload_compatibility");
    ctx.run(validation::validate_prefill_decode_interval);
    ctx.run(validation::validate_response_store);
    ctx.run(validation::validate_sampling_mask_max_tokens);
    ctx.run(validation::handle_aux_hidden_state_capture);
    ctx.run(parallel::validate_prefill_cp_platform);
    ctx.not_modelled("platform_hook.handle_hardware_runtime_validation");
    if matches!(ctx.cfg.str(f::model_path).map(str::to_ascii_lowercase).as_deref(), Some("none") | Some("dummy")) {
        ctx.not_modelled("boundary_reduction.resolve_boundary_reduction");
        return;
    }
    // model_path_hook.handle_model_source_paths, then apply_muse_spark_env_defaults, which
    // loads the model source first (repo id validation)
    ctx.run(model_path::handle_model_source_paths);
    ctx.run(serving::handle_multimodal);
    ctx.run(serving::handle_ssl_validation);
    ctx.run(serving::handle_asr_validation);
    ctx.run(serving::handle_deprecated_args);
    ctx.run(serving::handle_prefill_delayer_env_compat);
    ctx.run(serving::handle_missing_default_values);
    ctx.not_modelled("expert_pack_hook.handle_expert_pack");
    ctx.run(pd_disaggregation::handle_pd_disaggregation);
    ctx.run(kv_cache::validate_prefill_only_disable_kv_cache_args);
    ctx.run(parallel::handle_decode_context_parallelism);
    // The first hook that builds ModelConfig (parses --json-model-override-args).
    ctx.run(model_config::model_config_init);
    ctx.run(cuda_graph::apply_inkling_prefill_cuda_graph_default);
    ctx.run(cuda_graph::apply_muse_glimmer_prefill_cuda_graph_max_bs_default);
    ctx.run(parallel::handle_dwdp);
    ctx.run(cuda_graph::handle_cuda_graph_config);
    ctx.not_modelled("platform_hook.handle_hpu_backends");
    ctx.not_modelled("platform_hook.handle_cpu_backends");
    ctx.not_modelled("platform_hook.handle_npu_backends");
    ctx.not_modelled("platform_hook.handle_mps_backends");
    ctx.not_modelled("platform_hook.handle_xpu_backends");
    ctx.not_modelled("platform_hook.handle_symm_mem_device_support");
    ctx.not_modelled("platform_hook.handle_platform_defaults");
    ctx.not_modelled("memory_hook.handle_gpu_memory_settings");
    ctx.not_modelled("model_hook.handle_model_specific_adjustments");
    ctx.run(validation::default_unset_prefill_decode_interval);
    ctx.not_modelled("memory_hook.handle_offload_compatibility");
    ctx.not_modelled("overrides._sampling_backend_default");
    ctx.not_modelled("attention_hook.handle_deterministic_inference");
    ctx.run(kv_cache::handle_nvfp4_prefill_kv_dequant_dtype);
    ctx.not_modelled("attention_hook.handle_attention_backend_compatibility");
    ctx.run(cuda_graph::disable_prefill_cuda_graph_for_deepseek_trtllm_mla);
    ctx.not_modelled("mamba_hook.handle_mamba_backend");
    ctx.not_modelled("mamba_hook.handle_int8_mamba_checkpoint");
    ctx.not_modelled("attention_hook.handle_linear_attn_backend");
    ctx.run(kv_cache::handle_kv4_compatibility);
    ctx.run(kv_cache::handle_mxfp8_kv_cache_compatibility);
    ctx.not_modelled("overrides._page_size_default");
    ctx.not_modelled("platform_hook.handle_amd_specifics");
    ctx.not_modelled("platform_hook.handle_nccl_pre_warm");
    ctx.run(serving::handle_grammar_backend);
    ctx.not_modelled("attention_hook.handle_multi_item_scoring");
    ctx.run(kv_cache::handle_prefill_only_disable_kv_cache);
    ctx.run(hicache::handle_hicache);
    ctx.run(parallel::handle_data_parallelism);
    ctx.run(serving::handle_load_balance_method);
    ctx.run(parallel::handle_context_parallelism);
    // if cfg.enable_prefill_cp: apply_prefill_cp_cuda_graph_default (cuda_graph_hook)
    if ctx.cfg.truthy(f::enable_prefill_cp) {
        ctx.run(cuda_graph::apply_prefill_cp_cuda_graph_default);
    }
    ctx.not_modelled("kv_shard_hook.handle_kv_cache_sharding");
    ctx.not_modelled("moe_hook.handle_moe_kernel_config");
    ctx.not_modelled("moe_hook.handle_a2a_moe");
    ctx.run(parallel::handle_shared_experts_tp);
    ctx.run(parallel::handle_eplb_and_dispatch);
    ctx.run(parallel::handle_expert_distribution_metrics);
    ctx.run(parallel::handle_elastic_ep);
    ctx.run(validation::validate_experimental_sgl_marlin);
    ctx.not_modelled("overrides._pipeline_parallel_overlap_disable");
    ctx.not_modelled("speculative_hook.handle_speculative_decoding");
    ctx.not_modelled("boundary_reduction.resolve_boundary_reduction");
    ctx.not_modelled("layernorm_sp_hook.handle_layernorm_sp");
    ctx.not_modelled("moe_hook.validate_flashinfer_a2a_token_budget");
    ctx.not_modelled("mega_moe_hook.validate_mega_moe_token_budget_for_model");
    ctx.not_modelled("model_path_hook.handle_load_format");
    ctx.run(pd_disaggregation::handle_encoder_disaggregation);
    ctx.run(serving::handle_tokenizer_batching);
    ctx.run(serving::handle_environment_variables);
    ctx.run(kv_cache::handle_cache_compatibility);
    ctx.run(kv_cache::handle_page_major_kv_layout);
    ctx.run(kv_cache::handle_unified_memory_pool);
    ctx.not_modelled("dllm_hook.handle_dllm_inference");
    ctx.run(serving::handle_crash_dump_env);
    ctx.run(serving::handle_debug_utils);
    ctx.run(serving::handle_other_validations);
    ctx.not_modelled("model_hook.handle_model_capability_adjustments");
    ctx.not_modelled("binding.handle_nvidia_megakernel");
    ctx.not_modelled("binding.handle_amd_monokernel");
    ctx.run(cuda_graph::finalize_cuda_graph_prefill_max_context);
    ctx.not_modelled("kv_shard_hook.handle_kv_cache_sharding");
    ctx.not_modelled("moe_hook.validate_deepep_v2_speculative_draft");
    ctx.not_modelled("moe_hook.validate_deepep_v2_dispatch_token_budget");
}

/// `ServerArgs.check_server_args()`, stage `check` (run by the engine right after resolution).
pub fn check_server_args(ctx: &mut Ctx) {
    ctx.run(validation::check_server_args);
}
