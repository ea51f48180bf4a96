#!/usr/bin/env python3
"""How many of SGLang's raise sites this build checks, by class: writes docs/coverage.md.

    python3 tools/coverage.py            # (re)write docs/coverage.md
    python3 tools/coverage.py --check    # fail if docs/coverage.md is stale or a site is unaccounted

Inputs, all in this repository:
- data/sglang-<version>/raise-sites.jsonl: every raise/assert reachable from `sglang serve`
  argument handling in that SGLang release, with its class (needs the model's config, the
  hardware, env vars, files; unreachable from any command). Generated from the SGLang package;
  see data/NOTICE.
- the rules' metadata (`sglang-preflight reference --json`): a rule names the site it reproduces.
- src/: sites checked outside the rule tables (the `sglang serve` front end, `--config` merging,
  argparse type converters) are found by their message text; sites a check declines to run
  (`ctx.skip(site, NotRunReason::...)`) by their id.
- NOT_CHECKED below: why each remaining in-scope site is not checked. --check fails when an
  in-scope site is neither checked nor named there, so a new gap cannot go unnoticed.

"In scope" is the modules of the rules issue: validation, parallel, KV-cache, HiCache, PD
disaggregation, serving, platform and memory hooks (with the MLX / MPS runtime gates), and the
launch front end. Other modules (speculative decoding,
MoE, attention, LoRA, ...) are counted, not listed.
disaggregation and serving hooks, and the launch front end, and the speculative-decoding hook with
the helpers it calls (spec_info, ragged_verify, adaptive_spec_params). Other modules (MoE,
attention, LoRA, ...) are counted, not listed.
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSION = "0.5.23"

IN_SCOPE_FILES = (
    "sglang/srt/arg_groups/validation_hook.py",
    "sglang/srt/arg_groups/parallel_hook.py",
    "sglang/srt/arg_groups/kv_cache_hook.py",
    "sglang/srt/arg_groups/hicache_hook.py",
    "sglang/srt/arg_groups/pd_disaggregation_hook.py",
    "sglang/srt/arg_groups/serving_hook.py",
    "sglang/cli/serve.py",
    "sglang/cli/serve_backends.py",
    "sglang/srt/arg_groups/argparse_actions.py",
    "sglang/srt/utils/server_args_config_parser.py",
    "sglang/srt/model_executor/cuda_graph_config.py",
    "sglang/srt/arg_groups/platform_hook.py",
    "sglang/srt/arg_groups/memory_hook.py",
    "sglang/srt/hardware_backend/mlx/runtime.py",
    "sglang/srt/hardware_backend/mps/runtime.py",
    "sglang/srt/arg_groups/moe_hook.py",
    "sglang/srt/arg_groups/mega_moe_hook.py",
    "sglang/srt/arg_groups/expert_pack_hook.py",
    "sglang/srt/model_loader/expert_pack_runtime.py",
    "sglang/srt/arg_groups/speculative_hook.py",
    "sglang/srt/speculative/spec_info.py",
    "sglang/srt/speculative/ragged_verify.py",
    "sglang/srt/speculative/adaptive_spec_params.py",
    "sglang/srt/arg_groups/attention_hook.py",
    "sglang/srt/arg_groups/mamba_hook.py",
)

# In-scope sites that are reachable, do not need the model's config, and are not checked: why.
NOT_CHECKED = {
    "kv_cache_hook._validate_unified_memory_dcp#2": "needs an MLA model with sliding-window layers: no config the recorder serves (nor the catalog) is both, so SGLang's refusal cannot be recorded; an MLA model known not to be hybrid-SWA passes it, one that is is reported as not run",
    "kv_shard_hook.handle_kv_cache_sharding#13": "unreachable: hicache_hook rejects --hicache-host-memory-mode buffer_only without --hicache-storage-backend, and KV sharding rejects a storage backend (#12) before this check",
    "model_overrides.minimax_m3._minimax_m3_overrides#1": "reached only with a MiniMax-M3.1 NVFP4 checkpoint (quantization_config mxfp8 with NVFP4-packed experts, resolved as minimax_m3_nvfp4, which is not a --quantization choice); no public config of one was found (the public MiniMax-M3 configs are bf16 `minimax_m3`, which transformers cannot load, and nvidia/MiniMax-M3-NVFP4, a ModelOpt MIXED_PRECISION checkpoint)",
    "model_overrides.minimax_m3._minimax_m3_overrides#2": "reached only with a MiniMax-M3.1 NVFP4 checkpoint (quantization_config mxfp8 with NVFP4-packed experts, resolved as minimax_m3_nvfp4, which is not a --quantization choice); no public config of one was found (the public MiniMax-M3 configs are bf16 `minimax_m3`, which transformers cannot load, and nvidia/MiniMax-M3-NVFP4, a ModelOpt MIXED_PRECISION checkpoint)",
    "model_overrides.minimax_m3._minimax_m3_overrides#3": "reached only with a MiniMax-M3.1 NVFP4 checkpoint (quantization_config mxfp8 with NVFP4-packed experts, resolved as minimax_m3_nvfp4, which is not a --quantization choice); no public config of one was found (the public MiniMax-M3 configs are bf16 `minimax_m3`, which transformers cannot load, and nvidia/MiniMax-M3-NVFP4, a ModelOpt MIXED_PRECISION checkpoint)",
    "model_overrides.minimax_m3._minimax_m3_overrides#4": "reached only with a MiniMax-M3.1 NVFP4 checkpoint (quantization_config mxfp8 with NVFP4-packed experts, resolved as minimax_m3_nvfp4, which is not a --quantization choice); no public config of one was found (the public MiniMax-M3 configs are bf16 `minimax_m3`, which transformers cannot load, and nvidia/MiniMax-M3-NVFP4, a ModelOpt MIXED_PRECISION checkpoint)",
    "model_overrides.minimax_m3._minimax_m3_overrides#5": "reached only with a MiniMax-M3.1 NVFP4 checkpoint (quantization_config mxfp8 with NVFP4-packed experts, resolved as minimax_m3_nvfp4, which is not a --quantization choice); no public config of one was found (the public MiniMax-M3 configs are bf16 `minimax_m3`, which transformers cannot load, and nvidia/MiniMax-M3-NVFP4, a ModelOpt MIXED_PRECISION checkpoint)",
    "model_overrides.minimax_m3._minimax_m3_overrides#6": "reached only with a MiniMax-M3.1 NVFP4 checkpoint (quantization_config mxfp8 with NVFP4-packed experts, resolved as minimax_m3_nvfp4, which is not a --quantization choice); no public config of one was found (the public MiniMax-M3 configs are bf16 `minimax_m3`, which transformers cannot load, and nvidia/MiniMax-M3-NVFP4, a ModelOpt MIXED_PRECISION checkpoint)",
    "model_overrides.minimax_m3._minimax_m3_overrides#7": "reached only with a MiniMax-M3.1 NVFP4 checkpoint (quantization_config mxfp8 with NVFP4-packed experts, resolved as minimax_m3_nvfp4, which is not a --quantization choice); no public config of one was found (the public MiniMax-M3 configs are bf16 `minimax_m3`, which transformers cannot load, and nvidia/MiniMax-M3-NVFP4, a ModelOpt MIXED_PRECISION checkpoint)",
    "model_overrides.minimax_m3._minimax_m3_overrides#8": "reached only with a MiniMax-M3.1 NVFP4 checkpoint (quantization_config mxfp8 with NVFP4-packed experts, resolved as minimax_m3_nvfp4, which is not a --quantization choice); no public config of one was found (the public MiniMax-M3 configs are bf16 `minimax_m3`, which transformers cannot load, and nvidia/MiniMax-M3-NVFP4, a ModelOpt MIXED_PRECISION checkpoint)",
    "model_overrides.minimax_m3._minimax_m3_overrides#9": "reached only with a MiniMax-M3.1 NVFP4 checkpoint (quantization_config mxfp8 with NVFP4-packed experts, resolved as minimax_m3_nvfp4, which is not a --quantization choice); no public config of one was found (the public MiniMax-M3 configs are bf16 `minimax_m3`, which transformers cannot load, and nvidia/MiniMax-M3-NVFP4, a ModelOpt MIXED_PRECISION checkpoint)",
    "model_overrides.minimax_m3._minimax_m3_overrides#10": "reached only with a MiniMax-M3.1 NVFP4 checkpoint (quantization_config mxfp8 with NVFP4-packed experts, resolved as minimax_m3_nvfp4, which is not a --quantization choice); no public config of one was found (the public MiniMax-M3 configs are bf16 `minimax_m3`, which transformers cannot load, and nvidia/MiniMax-M3-NVFP4, a ModelOpt MIXED_PRECISION checkpoint)",
    "configs.minimax_vl.configure_minimax_m3_dspark#1": "reached only with a MiniMax-M3.1 DSpark draft checkpoint config (dspark_config / dflash_config in a MiniMax-M3 config); no public config of one was found",
    "configs.minimax_vl.configure_minimax_m3_dspark#2": "reached only with a MiniMax-M3.1 DSpark draft checkpoint config (dspark_config / dflash_config in a MiniMax-M3 config); no public config of one was found",
    "model_overrides.gpt_oss._gpt_oss_overrides#1": "Intel XPU platform only (get_platform().is_xpu); no hardware profile models one",
    "validation_hook.validate_standard_mps_server_args#1": "Apple MPS platform only; no hardware profile models a Mac (the oracle's profiles are CUDA, ROCm and CPU)",
    "validation_hook.validate_standard_mps_server_args#2": "Apple MPS platform only; no hardware profile models a Mac",
    "validation_hook.validate_standard_mps_server_args#3": "Apple MPS platform only; no hardware profile models a Mac",
    "serving_hook.handle_ssl_validation#13": "reached only when the certificate and key files exist (SGLang checks the file system first) and the optional granian package is installed",
    "validation_hook.validate_ib_devices#3": "reads /sys/class/infiniband on the serving machine",
    "parallel_hook.validate_prefill_cp_platform#1": "MUSA (Moore Threads) platform only; no hardware profile models one",
    "model_executor.cuda_graph_config.with_phase#1": "an internal invariant: every caller passes one of the fixed phase names, whatever the command says",
    "hardware_backend.mps.runtime.validate_mps_runtime#1": "Torch older than 2.13.0: SGLang 0.5.23 pins torch 2.14.1, the Torch of every hardware profile",
    "hardware_backend.mps.runtime.validate_mps_runtime#3": "reached only on a Mac, after Torch found an MPS device; no hardware profile models a Mac",
    # --load-format expert_pack preparing a raw GGUF: reached only when --model-path is a GGUF file on the serving machine
    "model_loader.expert_pack_runtime.resolve_kimi_tokenizer#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime.resolve_kimi_tokenizer#2": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime.prepare_kimi_model_metadata#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime._expert_pack_path#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime._expert_pack_tools_dir#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime.ensure_kimi_assets#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime.ensure_kimi_assets#2": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime._deepseek_gguf_value#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime._deepseek_model_config_from_gguf#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime._deepseek_model_config_from_gguf#2": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime._deepseek_model_config_from_gguf#3": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime._write_deepseek_tokenizer_from_gguf#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime._prepare_deepseek_model_metadata#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime._deepseek_digest#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime._prepare_deepseek_pack#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime.prepare_raw_expert_pack_server_args#1": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "model_loader.expert_pack_runtime.prepare_raw_expert_pack_server_args#2": "raw GGUF preparation for --load-format expert_pack: reached only when --model-path is a GGUF file on the serving machine (handle_expert_pack is listed as not run: files)",
    "moe_hook.validate_deepep_v2_model_architecture#1": "unreachable: an instance:// --model-path never gets this far. SGLang builds a remote URL's ModelConfig by pulling its config through create_remote_connector(model_path) with no device, and RemoteInstanceConnector's device check then fails (AttributeError: 'NoneType' object has no attribute 'type', connector/remote_instance.py:19). attention_hook.handle_attention_backend_compatibility builds the ModelConfig on every path, before handle_a2a_moe runs. Recorded on 0.5.23: instance://x stops with that AttributeError in handle_cuda_graph_config, in handle_gpu_memory_settings (with the prefill graph off), or in handle_attention_backend_compatibility (with the prefill graph size and --mem-fraction-static given), on H100 and MI300X",
    "parallel_hook.handle_shared_experts_tp#2": "unreachable: an instance:// --model-path never gets this far. SGLang builds a remote URL's ModelConfig by pulling its config through create_remote_connector(model_path) with no device, and RemoteInstanceConnector's device check then fails (AttributeError: 'NoneType' object has no attribute 'type', connector/remote_instance.py:19). attention_hook.handle_attention_backend_compatibility builds the ModelConfig on every path, before handle_shared_experts_tp runs. Recorded on 0.5.23: instance://x stops with that AttributeError in handle_cuda_graph_config, in handle_gpu_memory_settings (with the prefill graph off), or in handle_attention_backend_compatibility (with the prefill graph size and --mem-fraction-static given), on H100 and MI300X",
    "speculative_hook._handle_ngram#1": "needs a device other than cuda, cpu and xpu (npu, musa, hpu ...); no hardware profile models one, and on the modelled platforms such a --device fails earlier (importing its runtime)",
    "speculative_hook._handle_dspark#11": "cannot fire: when neither --speculative-dspark-block-size nor the draft's config gives gamma and --speculative-num-draft-tokens is unset, SGLang defaults gamma to 7 just before",
    "speculative_hook._resolve_dflash_draft_attention_backend.get_fallback_backend#1": "out-of-tree platform plugins only; the hardware profiles are SGLang's in-tree CUDA, ROCm and CPU platforms",
    "speculative_hook._resolve_dflash_draft_attention_backend.get_fallback_backend#2": "out-of-tree platform plugins only; the hardware profiles are SGLang's in-tree CUDA, ROCm and CPU platforms",
    "speculative_hook._check_oot_speculative_algorithm#1": "out-of-tree platform plugins only; the hardware profiles are SGLang's in-tree CUDA, ROCm and CPU platforms",
    # needing the model's config as well
    "attention_hook.handle_linear_attn_backend#4": "raised only below CUDA 13; every CUDA hardware profile carries CUDA 13 (SGLang 0.5.23 pins cu13 kernels)",
    "mamba_hook.handle_mamba_backend#6": "FlashInfer installed without its mamba module; the hardware profiles ship FlashInfer whole or not at all (the latter is mamba_hook.handle_mamba_backend#7)",
    "attention_hook._check_xpu_dcp#1": "Intel XPU platform only; no hardware profile models one",
    "attention_hook._check_xpu_dcp#2": "Intel XPU platform only; no hardware profile models one",
    "attention_hook._check_xpu_dcp#3": "Intel XPU platform only; no hardware profile models one",
    "attention_hook._check_xpu_dcp#4": "Intel XPU platform only; no hardware profile models one",
    "attention_hook._check_xpu_dcp#5": "Intel XPU platform only; no hardware profile models one",
    "attention_hook._check_xpu_dcp#6": "Intel XPU platform only; no hardware profile models one",
    "attention_hook._check_xpu_dcp#7": "Intel XPU platform only; no hardware profile models one",
    "attention_hook._check_xpu_dcp#8": "Intel XPU platform only; no hardware profile models one",
    "attention_hook._check_xpu_dcp#9": "Intel XPU platform only; no hardware profile models one",
    "mamba_hook.validate_mamba_extra_buffer#6": "asserts that the chunk size mamba_cache_chunk_size just computed is not None; it always returns an int (an internal invariant)",
    "validation_hook.validate_mps_model_config#1": "Apple MPS platform only; no hardware profile models a Mac",
    "validation_hook.validate_mps_model_config#2": "Apple MPS platform only; no hardware profile models a Mac",
    "validation_hook.validate_mps_model_config#3": "Apple MPS platform only; no hardware profile models a Mac",
    # model-dependent sites outside the in-scope modules
    "model_hook.handle_model_specific_adjustments#1": "Ascend NPU platform only (get_platform().is_npu); no hardware profile models one",
    "configs.model_config.get_dsa_index_head_dim#1": "an internal invariant: on the launch path it is called from ModelConfig's MLA set-up for DSA models only (is_deepseek_dsa)",
    "configs.model_config.get_dsa_index_topk#1": "an internal invariant: on the launch path it is called from model_hook's DeepSeek-family branch for DSA models only (is_deepseek_dsa)",
    "configs.model_config.get_hybrid_layer_ids#1": "decided by the checkpoint's config alone (an Inkling config listing a local layer twice), whatever the command; no Inkling config is in the catalog or among the recorder's models",
    "configs.model_config.get_hybrid_layer_ids#2": "decided by the checkpoint's config alone (an Inkling local layer id outside the model's layers), whatever the command; no Inkling config is in the catalog or among the recorder's models",
    "configs.model_config.ModelConfig.get_total_num_kv_heads#1": "decided by the checkpoint's config alone (a nemotron-nas / DeciLM config whose every attention block is a no-op), whatever the command; no nemotron-nas config is in the catalog or among the recorder's models",
    "configs.model_config.ModelConfig.get_total_num_kv_heads#2": "decided by the checkpoint's config alone (a nemotron-nas / DeciLM config whose attention blocks group their heads differently), whatever the command; no nemotron-nas config is in the catalog or among the recorder's models, so SGLang's refusal cannot be recorded",
    "utils.hf_transformers.common.get_hf_text_config#1": "decided by the checkpoint's config alone (an llm_config without num_attention_heads), whatever the command; every catalog model passes it (the catalog is built by SGLang's own ModelConfig)",
    "utils.hf_transformers.common.get_hf_text_config#2": "decided by the checkpoint's config alone (a text_config without num_attention_heads), whatever the command; every catalog model passes it (the catalog is built by SGLang's own ModelConfig)",
    "layers.attention.qsa.config._parse_compressed#1": "decided by the checkpoint's config alone (a Qwen4-Exp config's compressed QSA indexer settings: a value not positive), whatever the command; no Qwen4-Exp config is in the catalog or among the recorder's models",
    "layers.attention.qsa.config._parse_compressed#2": "decided by the checkpoint's config alone (a Qwen4-Exp config's compressed QSA indexer settings: indexer_kv_heads other than 1), whatever the command; no Qwen4-Exp config is in the catalog or among the recorder's models",
    "layers.attention.qsa.config._parse_compressed#3": "decided by the checkpoint's config alone (a Qwen4-Exp config's compressed QSA indexer settings: indexer_compress_ratio below 2), whatever the command; no Qwen4-Exp config is in the catalog or among the recorder's models",
    "layers.attention.qsa.config._parse_compressed#4": "decided by the checkpoint's config alone (a Qwen4-Exp config's compressed QSA indexer settings: indexer_budget not a multiple of indexer_compress_ratio), whatever the command; no Qwen4-Exp config is in the catalog or among the recorder's models",
    "layers.attention.qsa.config._parse_compressed#5": "decided by the checkpoint's config alone (a Qwen4-Exp config's compressed QSA indexer settings: a block top-k fast_topk_v2 has no kernel for), whatever the command; no Qwen4-Exp config is in the catalog or among the recorder's models",
    "model_loader.utils.resolve_transformers_arch#1": "reached only from the multimodal feature transport's CUDA VMM probe: a multi-node GB200/GB300 MNNVL machine with an IMEX channel mounted (/dev/nvidia-caps-imex-channels/channel0 on the serving machine), then the installed Transformers' model classes and the checkpoint's remote code (auto_map)",
    "model_loader.utils.resolve_transformers_arch#2": "reached only from the multimodal feature transport's CUDA VMM probe: a multi-node GB200/GB300 MNNVL machine with an IMEX channel mounted (/dev/nvidia-caps-imex-channels/channel0 on the serving machine), then loading the checkpoint's remote code (auto_map)",
    "model_loader.utils.resolve_transformers_arch#3": "reached only from the multimodal feature transport's CUDA VMM probe: a multi-node GB200/GB300 MNNVL machine with an IMEX channel mounted (/dev/nvidia-caps-imex-channels/channel0 on the serving machine), then the Transformers implementation's own backend-compatibility flag",
}

# In-scope sites checked outside the rule tables whose message cannot be found by its text.
CHECKED_ELSEWHERE = {
    "speculative.dflash_utils.parse_dflash_draft_config#1": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#2": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#3": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#4": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#5": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#6": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#7": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#8": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#9": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#10": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#11": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#12": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#13": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#14": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#15": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils.parse_dflash_draft_config#16": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils._parse_optional_int#1": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dflash_utils._parse_optional_int#2": "src/rules/shared/dflash_utils.rs (SGLang catches it: its message is the Error: of SPEC124's warning, _handle_dflash#3)",
    "speculative.dspark_components.dspark_config.parse_dspark_draft_config#1": "src/rules/shared/dspark_config.rs (SGLang catches it: its message is the Error: of SPEC127's warning, _handle_dspark#3)",
    "speculative.dspark_components.dspark_config.parse_dspark_draft_config#2": "src/rules/shared/dspark_config.rs (SGLang catches it: its message is the Error: of SPEC127's warning, _handle_dspark#3)",
    "speculative.dspark_components.dspark_config.parse_dspark_draft_config#3": "src/rules/shared/dspark_config.rs (SGLang catches it: its message is the Error: of SPEC127's warning, _handle_dspark#3)",
    "speculative.dspark_components.dspark_config.parse_dspark_draft_config#4": "src/rules/shared/dspark_config.rs (SGLang catches it: its message is the Error: of SPEC127's warning, _handle_dspark#3)",
    "speculative.dspark_components.dspark_config.parse_dspark_draft_config#5": "src/rules/shared/dspark_config.rs (SGLang catches it: its message is the Error: of SPEC127's warning, _handle_dspark#3)",
    "utils.server_args_config_parser.ConfigArgumentMerger._parse_yaml_config#1": "src/frontend.rs (yaml.safe_load's error, re-raised: CFG005)",
    "model_executor.cuda_graph_config.parse_cuda_graph_backend_arg#1": "src/argparse.rs (ARG004 with the release's message, probed on the real type function: the schema's type_facts.removed_backend_message)",
}

REASON_TEXT = {
    "ModelConfig": "needs the model's config",
    "Files": "reads files on the serving machine",
    "Network": "needs the network",
    "NotImplemented": "not implemented yet",
    "Hardware": "needs hardware without a profile here",
}


def load_sites(version):
    with open(os.path.join(ROOT, "data", f"sglang-{version}", "raise-sites.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def load_rules():
    exe = os.path.join(ROOT, "target", "debug", "sglang-preflight")
    cmd = [exe] if os.path.exists(exe) and os.environ.get("COVERAGE_NO_BUILD") else ["cargo", "run", "-q", "--"]
    out = subprocess.run(cmd + ["reference", "--json"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def source_files():
    texts = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "src", "**", "*.rs"), recursive=True)):
        with open(path) as f:
            texts[os.path.relpath(path, ROOT)] = f.read()
    return texts


def literal_chunks(template):
    """The literal parts of an f-string template, longest first (placeholders removed)."""
    parts = [p.strip() for p in re.split(r"\{[^{}]*\}", template or "")]
    return sorted((p for p in parts if len(p) >= 12), key=len, reverse=True)


_SKIPPED = None
# Site references that name a site by the order of its function's sites, not by its message.
AMBIGUOUS = []


def _normalized(text):
    return " ".join((text or "").split())


def resolve(rows, message):
    """The sites a reference's message names, as `src/release.rs::find` picks them: those whose
    whole template is the message if any, else those whose template starts with it."""
    want = _normalized(message)
    exact = [r for r in rows if _normalized(r.get("message_template")) == want]
    if exact or want == "":
        return exact
    return [r for r in rows if _normalized(r.get("message_template")).startswith(want)]


def skip_reason(text, m):
    """The NotRunReason of the site reference `m` in `text`: `ctx.model_config(site(..))` is
    ModelConfig; `ctx.skip(site(..), NotRunReason::X)` is X; a `SITE` constant takes the reason of
    the `ctx.skip(SITE, ..)` / `ctx.model_config(SITE)` that uses it. None for other references."""
    before = text[max(0, m.start() - 60): m.start()]
    const = re.search(r"const (\w+): SiteRef = $", before)
    if const:
        name = const.group(1)
        if re.search(r"ctx\.model_config\(" + name + r"\)", text):
            return "ModelConfig"
        used = re.search(r"ctx\.skip\(" + name + r",\s*NotRunReason::(\w+)", text)
        return used.group(1) if used else None
    if before.endswith("ctx.model_config("):
        return "ModelConfig"
    if before.endswith("ctx.skip("):
        used = re.match(r",\s*NotRunReason::(\w+)", text[m.end():])
        return used.group(1) if used else None
    return None


def skipped_sites(sources):
    """Site id -> NotRunReason for every `ctx.skip(site("module.function", "message start"), ...)`
    and `ctx.model_config(site(..))` (also `site_nth(.., n)` and `SITE` constants), resolved against the
    raise sites as the core resolves them (`src/release.rs`)."""
    global _SKIPPED
    if _SKIPPED is not None:
        return _SKIPPED
    by_function = {}
    for row in load_sites(VERSION):
        by_function.setdefault(row["id"].split("#")[0], []).append(row)
    found = {}
    pattern = re.compile(r'site(?:_nth)?\("([^"]+)",\s*"((?:[^"\\]|\\.)*)"(?:,\s*(\d+))?\)')
    for text in sources.values():
        for m in pattern.finditer(text):
            function, message, nth = m.group(1), m.group(2).replace('\\"', '"').replace("\\\\", "\\"), int(m.group(3) or 0)
            reason = skip_reason(text, m)
            if not reason:
                continue
            rows = resolve(by_function.get(function, []), message)
            if len({_normalized(r.get("message_template")) for r in rows}) > 1:
                AMBIGUOUS.append(f"{function}: {message!r} starts {len(rows)} different messages")
            if nth < len(rows):
                found[rows[nth]["id"]] = reason
    _SKIPPED = found
    return found


def classify(site, rule_sites, sources):
    """(status, detail) for one site."""
    sid = site["id"]
    if sid in rule_sites:
        return "rule", ", ".join(rule_sites[sid])
    if sid in CHECKED_ELSEWHERE:
        return "checked", CHECKED_ELSEWHERE[sid]
    if sid in skipped_sites(sources):
        return "not_run", skipped_sites(sources)[sid]
    # By the message's longest literal part, long enough to be that message's own (a generic
    # part such as "is not supported" appears in unrelated text and credited sites falsely).
    chunk = next(iter(literal_chunks(site.get("message_template"))), "")
    if len(chunk) >= 20:
        for path, text in sources.items():
            if not path.startswith("src/rules/") and chunk in text:
                return "checked", path
    if sid in NOT_CHECKED:
        return "named", NOT_CHECKED[sid]
    return "unaccounted", ""


def site_class(site):
    if site["unreachable_from_cli"]:
        return "unreachable"
    if site["needs_model_config"]:
        return "model"
    return "reachable"


def by_module(rows, keep):
    """The rows `keep` selects, grouped by SGLang file, the largest group first."""
    groups = collections.defaultdict(list)
    for r in rows:
        if keep(r):
            groups[r[0]["file"]].append(r)
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def render(version, sites, rules, sources):
    rule_sites = collections.defaultdict(list)
    for r in rules:
        if r["site"]:
            rule_sites[r["site"]].append(r["code"])
        if r.get("reraised_by"):
            rule_sites[r["reraised_by"]].append(r["code"])
    rows = []
    for s in sites:
        status, detail = classify(s, rule_sites, sources)
        rows.append((s, site_class(s), s["file"] in IN_SCOPE_FILES, status, detail))

    out = []
    w = out.append
    w("# Raise-site coverage")
    w("")
    w(f"Generated by `python3 tools/coverage.py` from `data/sglang-{version}/raise-sites.jsonl` (SGLang {version}'s")
    w("raise and assert sites reachable from launch-argument handling; Apache-2.0, SGLang project) and the")
    w("rules' metadata. Checked to be current by `python3 tools/coverage.py --check` in the test command.")
    w("")
    w("A site is **checked** when a rule reproduces it (`rule`) or the front end / argparse layer raises its")
    w("message (`front end`); **not run** when the check is reached but needs what a pasted command does not")
    w("give (the model's config, files), which the report says per command; **named** when it is not checked,")
    w("with the reason below.")
    w("")
    w("## In scope: the hook modules this build models (see `IN_SCOPE_FILES`) and the launch front end")
    w("")
    w("| Class | Sites | Rule | Front end | Not run | Named below | Unaccounted |")
    w("|---|---:|---:|---:|---:|---:|---:|")
    for cls, label in (("reachable", "Reachable, no model config"), ("model", "Needs the model's config"), ("unreachable", "Unreachable from any command")):
        sel = [r for r in rows if r[2] and r[1] == cls]
        c = collections.Counter(r[3] for r in sel)
        w(f"| {label} | {len(sel)} | {c['rule']} | {c['checked']} | {c['not_run']} | {c['named']} | {c['unaccounted']} |")
    w("")
    reachable = [r for r in rows if r[2] and r[1] == "reachable"]
    done = sum(1 for r in reachable if r[3] in ("rule", "checked"))
    w(f"Reachable sites not needing the model's config: **{done} of {len(reachable)} checked**; the rest are")
    w("listed here with the reason.")
    w("")
    w("| Site | SGLang message | Why not checked |")
    w("|---|---|---|")
    for s, cls, ins, status, detail in reachable:
        if status in ("rule", "checked"):
            continue
        why = REASON_TEXT.get(detail, detail) if status == "not_run" else (detail or "UNACCOUNTED")
        if status == "not_run":
            why = f"not run: {why}"
        msg = (s.get("message_template") or "").replace("|", "\\|").replace("\n", " ")
        if len(msg) > 90:
            msg = msg[:87] + "..."
        w(f"| `{s['id']}` | {msg} | {why} |")
    w("")
    w("Sites needing the model's config are reported per command as not run when the command reaches them,")
    w("except these:")
    w("")
    for s, cls, ins, status, detail in rows:
        if ins and cls == "model" and status not in ("rule", "checked", "not_run"):
            w(f"- `{s['id']}`: {detail or 'UNACCOUNTED'}")
    w("")
    # Every module, in scope or not: how far the model's facts reach SGLang's model-dependent sites.
    w("## Sites that need the model's config, by module")
    w("")
    w("Checked: a rule reproduces the site and runs when the model's facts are known (built-in catalog,")
    w("a given `config.json`, a local folder). Not run: reached, and reported per command as not run.")
    w("Named: listed above with the reason it is not checked (a platform no hardware profile models, files")
    w("on the serving machine, a caller not modelled). Not yet: neither checked nor reported (modules")
    w("outside the in-scope list).")
    w("")
    w("| Module | Sites | Checked | Not run | Named | Not yet |")
    w("|---|---:|---:|---:|---:|---:|")
    totals = collections.Counter()
    for f, sel in by_module(rows, lambda r: r[1] == "model"):
        c = collections.Counter("checked" if r[3] in ("rule", "checked") else r[3] for r in sel)
        totals.update(c)
        totals["sites"] += len(sel)
        w(f"| `{f}` | {len(sel)} | {c['checked']} | {c['not_run']} | {c['named']} | {c['unaccounted']} |")
    w(f"| all | {totals['sites']} | {totals['checked']} | {totals['not_run']} | {totals['named']} | {totals['unaccounted']} |")
    w("")
    w("## Other modules (a later issue)")
    w("")
    w("| Module | Sites | Reachable without model config | Checked |")
    w("|---|---:|---:|---:|")
    for f, sel in by_module(rows, lambda r: not r[2]):
        reach = sum(1 for r in sel if r[1] == "reachable")
        checked = sum(1 for r in sel if r[3] in ("rule", "checked"))
        w(f"| `{f}` | {len(sel)} | {reach} | {checked} |")
    w("")
    total_checked = sum(1 for r in rows if r[3] in ("rule", "checked"))
    w(f"All modules: {len(rows)} sites, {total_checked} checked.")
    unaccounted = [r[0]["id"] for r in rows if r[2] and r[1] != "unreachable" and r[3] == "unaccounted"]
    return "\n".join(out) + "\n", unaccounted


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", default=VERSION)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text, unaccounted = render(args.version, load_sites(args.version), load_rules(), source_files())
    path = os.path.join(ROOT, "docs", "coverage.md")
    if unaccounted:
        print("coverage: in-scope sites neither checked nor named in tools/coverage.py NOT_CHECKED:", file=sys.stderr)
        for sid in unaccounted:
            print(f"  {sid}", file=sys.stderr)
    for problem in AMBIGUOUS:
        print(f"coverage: a not-run site reference names its site by order: {problem}", file=sys.stderr)
    if args.check:
        if AMBIGUOUS:
            return 1
        with open(path) as f:
            current = f.read()
        if current != text:
            print("coverage: docs/coverage.md is stale: run python3 tools/coverage.py", file=sys.stderr)
            return 1
        if unaccounted:
            return 1
        print("coverage: docs/coverage.md is current")
        return 0
    with open(path, "w") as f:
        f.write(text)
    print(f"coverage: wrote {os.path.relpath(path, ROOT)}")
    return 1 if unaccounted else 0


if __name__ == "__main__":
    sys.exit(main())
