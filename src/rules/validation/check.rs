//! `validation_hook.check_server_args` (stage check) and the helpers it calls in
//! `validation_hook.py`: `check_pipeline_parallel_compat`, `validate_buckets_rule`,
//! `check_two_batch_overlap`, `validate_device_sampling_backend`,
//! `check_watermark_server_args`, `check_load_publish_args`.
//!
//! `check_server_args` runs after the whole resolution pipeline, so several fields it reads
//! were written by hooks this build does not model. Where SGLang computes them without the
//! model (platform defaults, GPU-memory defaults) they are recomputed here, with a note saying
//! where; where the final value depends on the model, the check is skipped and reported.

use super::lora;
use crate::diagnostic::Applicability;
use crate::hardware::Platform;
use crate::pyvalue::{float_repr, PyValue};
use crate::rules::{Ctx, NotRunReason};

/// A raise happened: `check_server_args` stops there, as the Python does.
pub struct Raised;
pub type Step = Result<(), Raised>;

rule!(TP_NOT_DIVISIBLE_BY_NNODES, "VAL020", "tp-times-pp-not-divisible-by-nnodes",
    "validation_hook.check_server_args#1", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "tp_size must be divisible by number of nodes",
    "Every node runs the same number of GPU workers, so tp_size × pp_size must split evenly over --nnodes (the message only names tp_size, but pp_size counts too).",
    ["--tp-size", "--pp-size", "--nnodes"], "--tp-size 1 --nnodes 2", "--tp-size 2 --nnodes 2");
rule!(NNODES_ZERO, "VAL105", "nnodes-zero",
    "", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "ZeroDivisionError", Check,
    "integer modulo by zero",
    "--nnodes 0 is accepted by the parser, but check_server_args divides tp_size × pp_size by the node count, so Python fails with a bare ZeroDivisionError. A server runs on at least one node.",
    ["--nnodes"], "--nnodes 0", "--nnodes 1");
rule!(PAGE_SIZE_ZERO, "VAL106", "page-size-zero",
    "", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "ZeroDivisionError", Check,
    "integer modulo by zero",
    "--page-size 0 passes the parser, but check_server_args checks that the chunked-prefill size is a multiple of the page size, and Python cannot take a remainder by zero. A KV-cache page holds at least one token.",
    ["--page-size"], "--page-size 0", "--page-size 1");
rule!(PP_MAX_MICRO_BATCH_SIZE, "VAL021", "pp-max-micro-batch-size-not-positive",
    "validation_hook.check_server_args#2", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "pp_max_micro_batch_size must be a positive integer or None (for auto-compute). Got: {cfg.pp_max_micro_batch_size}",
    "The pipeline-parallel micro-batch size must be at least 1; leave it unset to let SGLang compute it.",
    ["--pp-max-micro-batch-size"], "--pp-max-micro-batch-size 0", "--pp-max-micro-batch-size 1");
rule!(CUDA_GRAPH_PADDING_TORCH_COMPILE, "VAL022", "disable-cuda-graph-padding-with-torch-compile",
    "validation_hook.check_server_args#3", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "--disable-cuda-graph-padding is incompatible with --enable-torch-compile. With padding disabled, every distinct batch size gets its own torch.compile + Triton autotune cycle (O(max_batch_size) compilations) instead of the small fixed set of padded bucket sizes, causing engine initialisation to stall for many minutes. Remove --disable-cuda-graph-padding or --enable-torch-compile.",
    "Without CUDA-graph padding every batch size would be compiled separately by torch.compile, so SGLang refuses the combination.",
    ["--disable-cuda-graph-padding", "--enable-torch-compile"],
    "--disable-cuda-graph-padding --enable-torch-compile", "--enable-torch-compile");
rule!(PP_MIN_FREE_SLOTS_DELAY, "VAL023", "pp-min-free-slots-delay",
    "validation_hook.check_pipeline_parallel_compat#9", "sglang/srt/arg_groups/validation_hook.py", "check_pipeline_parallel_compat", "AssertionError", Check,
    "--min-free-slots-delay is not supported with pipeline parallelism: allocatable slots per microbatch are bounded by pp-max-micro-batch-size, so the threshold may never be reached",
    "With pipeline parallelism each micro-batch can allocate at most pp-max-micro-batch-size slots, so a free-slot threshold could stall scheduling forever.",
    ["--min-free-slots-delay", "--pp-size"], "--pp-size 2 --min-free-slots-delay 5", "--pp-size 2");
rule!(PP_SPEC_EAGLE_ONLY, "VAL098", "pp-speculative-eagle-only",
    "validation_hook.check_pipeline_parallel_compat#4", "sglang/srt/arg_groups/validation_hook.py", "check_pipeline_parallel_compat", "AssertionError", Check,
    "Pipeline parallelism currently only supports EAGLE (non-multi-layer) speculative decoding",
    "With --pp-size > 1 the only speculative decoding SGLang supports is single-layer EAGLE (and DSPARK on prefill nodes); NGRAM and the others are refused.",
    ["--pp-size", "--speculative-algorithm"], "--pp-size 2 --speculative-algorithm NGRAM", "--speculative-algorithm NGRAM");
rule!(MULTI_NODE_DP, "VAL024", "multi-node-dp-replicas",
    "validation_hook.check_server_args#4", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "multi-node data-parallel replicas are not supported; use attention DP (--attn-dp-size) across nodes",
    "Data-parallel replicas (--dp-size > 1) must all live on one node; to spread over several nodes use attention data parallelism or an external router.",
    ["--dp-size", "--nnodes"], "--tp-size 2 --dp-size 2 --nnodes 2", "--tp-size 2 --attn-dp-size 2 --nnodes 2");
rule!(BASE_GPU_ID_NEGATIVE, "VAL025", "base-gpu-id-negative",
    "validation_hook.check_server_args#5", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "base_gpu_id must be non-negative",
    "--base-gpu-id is the first CUDA device index to use; indices start at 0.",
    ["--base-gpu-id"], "--base-gpu-id -1", "--base-gpu-id 0");
rule!(GPU_ID_STEP, "VAL026", "gpu-id-step-not-positive",
    "validation_hook.check_server_args#6", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "gpu_id_step must be positive",
    "--gpu-id-step is the stride between the device indices of consecutive workers; it must be at least 1.",
    ["--gpu-id-step"], "--gpu-id-step 0", "--gpu-id-step 1");
rule!(MOE_DENSE_TP_SIZE, "VAL027", "moe-dense-tp-size-unsupported",
    "validation_hook.check_server_args#7", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "moe_dense_tp_size only supports None, 1, or tp_size currently",
    "The tensor-parallel size of the dense layers in an MoE model can only be 1 or the full --tp-size.",
    ["--moe-dense-tp-size", "--tp-size"], "--tp-size 4 --moe-dense-tp-size 2", "--tp-size 4 --moe-dense-tp-size 1");
rule!(SERVED_MODEL_NAME_COLON, "VAL028", "served-model-name-colon",
    "validation_hook.check_server_args#8", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "served_model_name cannot contain a colon (':') character. The colon is reserved for the 'model:adapter' syntax used in LoRA adapter specification. Invalid value: '{cfg.served_model_name}'",
    "Requests name a LoRA adapter as `model:adapter`, so the served model name (which defaults to --model-path) may not contain ':'. Object-store URIs (s3://, gs://, az://) are exempt.",
    ["--served-model-name", "--model-path"], "--served-model-name llama:8b", "--served-model-name llama-8b");
rule!(CHUNKED_PREFILL_PAGE_SIZE, "VAL029", "chunked-prefill-size-not-multiple-of-page-size",
    "validation_hook.check_server_args#10", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "chunked_prefill_size must be divisible by page_size",
    "Prefill chunks are cut on KV-cache page boundaries, so the final chunked prefill size (after SGLang's GPU-memory default and the division by --attn-dp-size) must be a multiple of the page size.",
    ["--chunked-prefill-size", "--page-size", "--attn-dp-size"],
    "--page-size 16 --chunked-prefill-size 100", "--page-size 16 --chunked-prefill-size 4096");
rule!(PDMUX_PP, "VAL030", "pdmux-needs-pp-1",
    "validation_hook.check_server_args#11", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "PD-Multiplexing is only supported with pipeline parallelism disabled (pp_size=1).",
    "PD-multiplexing splits one GPU's SMs between prefill and decode; it does not work with pipeline parallelism.",
    ["--enable-pdmux", "--pp-size"], "--enable-pdmux --pp-size 2", "--enable-pdmux --chunked-prefill-size -1 --disable-overlap-schedule");
rule!(PDMUX_CHUNKED_PREFILL, "VAL031", "pdmux-needs-chunked-prefill-off",
    "validation_hook.check_server_args#12", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "PD-Multiplexing is not compatible with chunked prefill.",
    "PD-multiplexing needs chunked prefill switched off (--chunked-prefill-size -1); SGLang turns it on by default.",
    ["--enable-pdmux", "--chunked-prefill-size"], "--enable-pdmux", "--enable-pdmux --chunked-prefill-size -1 --disable-overlap-schedule");
rule!(PDMUX_DISAGGREGATION, "VAL032", "pdmux-not-with-disaggregation",
    "validation_hook.check_server_args#13", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "PD-Multiplexing is not compatible with disaggregation mode.",
    "PD-multiplexing runs prefill and decode on the same GPUs, the opposite of prefill/decode disaggregation.",
    ["--enable-pdmux", "--disaggregation-mode"],
    "--enable-pdmux --chunked-prefill-size -1 --disable-overlap-schedule --disaggregation-mode prefill",
    "--enable-pdmux --chunked-prefill-size -1 --disable-overlap-schedule");
rule!(PDMUX_OVERLAP, "VAL033", "pdmux-needs-overlap-schedule-off",
    "validation_hook.check_server_args#14", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "PD-Multiplexing is not compatible with overlap schedule.",
    "PD-multiplexing needs the overlap scheduler disabled (--disable-overlap-schedule).",
    ["--enable-pdmux", "--disable-overlap-schedule"],
    "--enable-pdmux --chunked-prefill-size -1", "--enable-pdmux --chunked-prefill-size -1 --disable-overlap-schedule");
rule!(TOKENIZER_WORKER_NUM, "VAL034", "tokenizer-worker-num-not-positive",
    "validation_hook.check_server_args#15", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "Tokenizer worker num must >= 1",
    "At least one tokenizer worker process is needed.",
    ["--tokenizer-worker-num"], "--tokenizer-worker-num 0", "--tokenizer-worker-num 1");
rule!(DETOKENIZER_WORKER_NUM, "VAL035", "detokenizer-worker-num-not-positive",
    "validation_hook.check_server_args#16", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "Detokenizer worker num must >= 1",
    "At least one detokenizer worker process is needed.",
    ["--detokenizer-worker-num"], "--detokenizer-worker-num 0", "--detokenizer-worker-num 1");
rule!(MM_PROCESSOR_WORKER_NUM, "VAL036", "mm-processor-worker-num-negative",
    "validation_hook.check_server_args#17", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "Multimodal processor worker num must >= 0",
    "The number of multimodal processor workers cannot be negative (0 means process in the tokenizer manager).",
    ["--mm-processor-worker-num"], "--mm-processor-worker-num -1", "--mm-processor-worker-num 0");
rule!(MM_IO_WORKER_NUM, "VAL037", "mm-io-worker-num-negative",
    "validation_hook.check_server_args#18", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "Multimodal I/O worker num must >= 0",
    "The number of multimodal I/O workers cannot be negative.",
    ["--mm-io-worker-num"], "--mm-io-worker-num -1", "--mm-io-worker-num 0");
rule!(BUCKETS_RULE_TYPE, "VAL038", "tokens-buckets-unknown-rule",
    "validation_hook.validate_buckets_rule#2", "sglang/srt/arg_groups/validation_hook.py", "validate_buckets_rule", "AssertionError", Check,
    "Unsupported {arg_name} rule type: '{rule}'. Must be one of: 'tse', 'default', 'custom'",
    "The first word of a metrics bucket specification names the rule: tse, default or custom.",
    ["--prompt-tokens-buckets", "--generation-tokens-buckets"], "--prompt-tokens-buckets foo", "--prompt-tokens-buckets default");
rule!(BUCKETS_TSE_LEN, "VAL039", "tokens-buckets-tse-arity",
    "validation_hook.validate_buckets_rule#3", "sglang/srt/arg_groups/validation_hook.py", "validate_buckets_rule", "AssertionError", Check,
    "{arg_name} TSE rule requires exactly 4 parameters: ['tse', middle, base, count], got {len(buckets_rule)}",
    "The tse bucket rule takes exactly three numbers after `tse`: middle, base and count.",
    ["--prompt-tokens-buckets", "--generation-tokens-buckets"], "--prompt-tokens-buckets tse 1000 2", "--prompt-tokens-buckets tse 1000 2 8");
rule!(BUCKETS_TSE_PARAMS, "VAL040", "tokens-buckets-tse-not-numeric",
    "validation_hook.validate_buckets_rule#4", "sglang/srt/arg_groups/validation_hook.py", "validate_buckets_rule", "AssertionError", Check,
    "{arg_name} TSE rule parameters must be: ['tse', <float:middle>, <float:base>, <int:count>]",
    "middle and base must parse as numbers and count as a whole number (Python int(): `8`, not `8.0` or `1e3`).",
    ["--prompt-tokens-buckets", "--generation-tokens-buckets"], "--prompt-tokens-buckets tse a 2 8", "--prompt-tokens-buckets tse 1000 2 8");
rule!(BUCKETS_TSE_BASE, "VAL041", "tokens-buckets-tse-base",
    "validation_hook.validate_buckets_rule#5", "sglang/srt/arg_groups/validation_hook.py", "validate_buckets_rule", "AssertionError", Check,
    "{arg_name} TSE base must be larger than 1, got: {base}",
    "The tse rule spaces buckets geometrically; its base must be greater than 1.",
    ["--prompt-tokens-buckets", "--generation-tokens-buckets"], "--prompt-tokens-buckets tse 1000 1 8", "--prompt-tokens-buckets tse 1000 2 8");
rule!(BUCKETS_TSE_COUNT, "VAL042", "tokens-buckets-tse-count",
    "validation_hook.validate_buckets_rule#6", "sglang/srt/arg_groups/validation_hook.py", "validate_buckets_rule", "AssertionError", Check,
    "{arg_name} TSE count must be positive, got: {count}",
    "The tse rule needs at least one bucket.",
    ["--prompt-tokens-buckets", "--generation-tokens-buckets"], "--prompt-tokens-buckets tse 1000 2 0", "--prompt-tokens-buckets tse 1000 2 8");
rule!(BUCKETS_TSE_MIDDLE, "VAL043", "tokens-buckets-tse-middle",
    "validation_hook.validate_buckets_rule#7", "sglang/srt/arg_groups/validation_hook.py", "validate_buckets_rule", "AssertionError", Check,
    "{arg_name} TSE middle must be positive, got: {middle}",
    "The tse rule's middle bucket boundary must be greater than 0.",
    ["--prompt-tokens-buckets", "--generation-tokens-buckets"], "--prompt-tokens-buckets tse 0 2 8", "--prompt-tokens-buckets tse 1000 2 8");
rule!(BUCKETS_DEFAULT_LEN, "VAL044", "tokens-buckets-default-arity",
    "validation_hook.validate_buckets_rule#8", "sglang/srt/arg_groups/validation_hook.py", "validate_buckets_rule", "AssertionError", Check,
    "{arg_name} default rule should only have one parameter: ['default'], got {len(buckets_rule)}",
    "The default bucket rule takes no values.",
    ["--prompt-tokens-buckets", "--generation-tokens-buckets"], "--generation-tokens-buckets default 1", "--generation-tokens-buckets default");
rule!(BUCKETS_CUSTOM_LEN, "VAL045", "tokens-buckets-custom-empty",
    "validation_hook.validate_buckets_rule#9", "sglang/srt/arg_groups/validation_hook.py", "validate_buckets_rule", "AssertionError", Check,
    "{arg_name} custom rule requires at least one bucket value: ['custom', value1, ...]",
    "The custom bucket rule lists the bucket boundaries after `custom`; at least one is needed.",
    ["--prompt-tokens-buckets", "--generation-tokens-buckets"], "--generation-tokens-buckets custom", "--generation-tokens-buckets custom 128 1024");
rule!(BUCKETS_CUSTOM_NUMERIC, "VAL046", "tokens-buckets-custom-not-numeric",
    "validation_hook.validate_buckets_rule#10", "sglang/srt/arg_groups/validation_hook.py", "validate_buckets_rule", "AssertionError", Check,
    "{arg_name} custom rule bucket values must be numeric",
    "Every custom bucket boundary must parse as a number.",
    ["--prompt-tokens-buckets", "--generation-tokens-buckets"], "--generation-tokens-buckets custom a", "--generation-tokens-buckets custom 128");
rule!(BUCKETS_CUSTOM_DUPLICATES, "VAL047", "tokens-buckets-custom-duplicates",
    "validation_hook.validate_buckets_rule#11", "sglang/srt/arg_groups/validation_hook.py", "validate_buckets_rule", "AssertionError", Check,
    "{arg_name} custom rule bucket values should not contain duplicates",
    "Custom bucket boundaries must be distinct numbers (`1` and `1.0` count as the same).",
    ["--prompt-tokens-buckets", "--generation-tokens-buckets"], "--generation-tokens-buckets custom 1 1", "--generation-tokens-buckets custom 1 2");
rule!(BUCKETS_CUSTOM_NEGATIVE, "VAL048", "tokens-buckets-custom-negative",
    "validation_hook.validate_buckets_rule#12", "sglang/srt/arg_groups/validation_hook.py", "validate_buckets_rule", "AssertionError", Check,
    "{arg_name} custom rule bucket values should be non-negative",
    "Token-count bucket boundaries cannot be negative.",
    ["--prompt-tokens-buckets", "--generation-tokens-buckets"], "--generation-tokens-buckets custom 1 -1", "--generation-tokens-buckets custom 1 2");
rule!(PRIORITY_SCHEDULE_POLICY, "VAL049", "priority-scheduling-policy",
    "validation_hook.check_server_args#19", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "To use priority scheduling, schedule_policy must be 'fcfs' or 'lof'. '{cfg.schedule_policy}' is not supported.",
    "Priority scheduling orders requests by priority first and breaks ties with the schedule policy, which must then be fcfs or lof.",
    ["--enable-priority-scheduling", "--schedule-policy"],
    "--enable-priority-scheduling --schedule-policy lpm", "--enable-priority-scheduling --schedule-policy fcfs");
warning_rule!(W_PRIORITY_NO_DEFAULT, "VAL050", "priority-scheduling-without-default-priority",
    "sglang/srt/arg_groups/validation_hook.py", "check_server_args", Check,
    "--default-priority-value is not set while --enable-priority-scheduling is enabled. Requests without explicit priority will have priority=None, resulting in priority='None' string labels in Prometheus metrics.",
    "Requests that carry no priority get None; setting --default-priority-value gives them a number.",
    ["--enable-priority-scheduling", "--default-priority-value"],
    "--enable-priority-scheduling", "--enable-priority-scheduling --default-priority-value 0");
warning_rule!(W_PRIORITY_PREEMPTION_NO_EFFECT, "VAL051", "disable-priority-preemption-no-effect",
    "sglang/srt/arg_groups/validation_hook.py", "check_server_args", Check,
    "--disable-priority-preemption has no effect without --enable-priority-scheduling",
    "Priority preemption only exists under priority scheduling, so disabling it does nothing here.",
    ["--disable-priority-preemption", "--enable-priority-scheduling"],
    "--disable-priority-preemption", "--disable-priority-preemption --enable-priority-scheduling");
warning_rule!(W_DEFAULT_PRIORITY_NO_EFFECT, "VAL052", "default-priority-value-no-effect",
    "sglang/srt/arg_groups/validation_hook.py", "check_server_args", Check,
    "--default-priority-value has no effect without --enable-priority-scheduling",
    "A default priority is only used by the priority scheduler.",
    ["--default-priority-value", "--enable-priority-scheduling"],
    "--default-priority-value 3", "--default-priority-value 3 --enable-priority-scheduling");
rule!(RETRACTION_PRIORITY, "VAL053", "retraction-policy-priority-needs-priority-scheduling",
    "validation_hook.check_server_args#20", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "ValueError", Check,
    "--retraction-policy priority requires --enable-priority-scheduling",
    "Retracting by priority needs request priorities, which only exist with priority scheduling.",
    ["--retraction-policy", "--enable-priority-scheduling"],
    "--retraction-policy priority", "--retraction-policy priority --enable-priority-scheduling");
rule!(SCHEDULE_CONSERVATIVENESS, "VAL054", "schedule-conservativeness-negative",
    "validation_hook.check_server_args#21", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "schedule_conservativeness must be non-negative",
    "--schedule-conservativeness scales the scheduler's memory reservation; it cannot be negative.",
    ["--schedule-conservativeness"], "--schedule-conservativeness -1", "--schedule-conservativeness 1.0");
rule!(MINDSPORE_NPU, "VAL055", "mindspore-needs-npu",
    "validation_hook.check_server_args#22", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "AssertionError", Check,
    "MindSpore model impl is only supported on Ascend npu.",
    "--model-impl mindspore runs models through MindSpore, which SGLang only supports on Huawei Ascend NPUs.",
    ["--model-impl"], "--model-impl mindspore", "--model-impl auto");
rule!(INSTANTTENSOR_DEVICE, "VAL056", "instanttensor-needs-cuda",
    "validation_hook.check_server_args#23", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "ValueError", Check,
    "InstantTensor requires a CUDA-compatible device (including CUDA and ROCm); got {cfg.device!r}.",
    "The instanttensor load format loads weights straight into GPU memory, so it needs --device cuda (CUDA or ROCm).",
    ["--load-format", "--device"], "--load-format instanttensor --device cpu", "--load-format safetensors --device cpu");
rule!(METRICS_LABELS_HEADER, "VAL057", "metrics-custom-labels-need-header",
    "validation_hook.check_server_args#24", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "ValueError", Check,
    "Please set --tokenizer-metrics-custom-labels-header when setting --tokenizer-metrics-allowed-custom-labels.",
    "Custom metric labels are read from an HTTP header; with an empty header name there is nowhere to read them from.",
    ["--tokenizer-metrics-allowed-custom-labels", "--tokenizer-metrics-custom-labels-header"],
    "--tokenizer-metrics-allowed-custom-labels team --tokenizer-metrics-custom-labels-header ''",
    "--tokenizer-metrics-allowed-custom-labels team");
rule!(EXPORT_METRICS_DIR, "VAL058", "export-metrics-to-file-needs-dir",
    "validation_hook.check_server_args#25", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "ValueError", Check,
    "--export-metrics-to-file-dir is required when --export-metrics-to-file is enabled",
    "Exporting metrics to files needs the directory to write them to.",
    ["--export-metrics-to-file", "--export-metrics-to-file-dir"],
    "--export-metrics-to-file", "--export-metrics-to-file --export-metrics-to-file-dir /tmp/metrics");
rule!(TWO_BATCH_OVERLAP, "VAL059", "two-batch-overlap-needs-a2a-or-attn-dp",
    "validation_hook.check_two_batch_overlap#1", "sglang/srt/arg_groups/validation_hook.py", "check_two_batch_overlap", "ValueError", Check,
    "When enabling two batch overlap without an EP a2a backend (moe_a2a_backend='none'), attention DP (--attn-dp-size) is required (DeepSeek-V4 non-EP DP TBO path).",
    "Two-batch overlap hides communication behind the other micro-batch's compute; it needs an expert-parallel all-to-all backend (--moe-a2a-backend) or, without one, attention data parallelism.",
    ["--enable-two-batch-overlap", "--moe-a2a-backend", "--attn-dp-size"],
    "--enable-two-batch-overlap", "--enable-two-batch-overlap --tp-size 8 --moe-a2a-backend deepep");
rule!(QUANT_COMM_TP, "VAL060", "quant-communications-needs-tp",
    "validation_hook.check_server_args#26", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "ValueError", Check,
    "Communications quantization is only used with tp_size != 1",
    "Quantized communication compresses tensor-parallel all-reduces; with --tp-size 1 there is no communication to compress.",
    ["--enable-quant-communications", "--tp-size"], "--enable-quant-communications", "--tp-size 2");
rule!(QUANT_COMM_NPU, "VAL061", "quant-communications-needs-npu",
    "validation_hook.check_server_args#27", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "ValueError", Check,
    "Communications quantization is only supported for NPU device",
    "Quantized communication is implemented for Ascend NPUs only.",
    ["--enable-quant-communications", "--device"], "--enable-quant-communications --tp-size 2", "--tp-size 2");
rule!(SAMPLING_BACKEND_XPU, "VAL062", "sampling-backend-intel-xpu-needs-xpu",
    "validation_hook.validate_device_sampling_backend#1", "sglang/srt/arg_groups/validation_hook.py", "validate_device_sampling_backend", "ValueError", Check,
    "--sampling-backend intel_xpu requires --device xpu, got --device {device}",
    "The intel_xpu sampling kernels only exist on Intel GPUs.",
    ["--sampling-backend", "--device"], "--sampling-backend intel_xpu", "--sampling-backend flashinfer");
rule!(GRPC_PORT_EQUALS_PORT, "VAL063", "grpc-port-equals-port",
    "validation_hook.check_server_args#28", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "ValueError", Check,
    "--grpc-port ({cfg.grpc_port}) must differ from --port ({cfg.port})",
    "The gRPC server and the HTTP server would bind the same port.",
    ["--grpc-port", "--port"], "--grpc-port 30000", "--grpc-port 30001");
rule!(GC_THRESHOLD_LEN, "VAL064", "gc-threshold-too-many",
    "validation_hook.check_server_args#29", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "ValueError", Check,
    "When setting gc_threshold, it must contain 1 to 3 integers.",
    "--gc-threshold is passed to Python's gc.set_threshold, which takes at most three generation thresholds.",
    ["--gc-threshold"], "--gc-threshold 1 2 3 4", "--gc-threshold 1 2 3");
rule!(KV_CANARY_SWEEP, "VAL065", "kv-canary-sweep-needs-canary",
    "validation_hook.check_server_args#30", "sglang/srt/arg_groups/validation_hook.py", "check_server_args", "ValueError", Check,
    "--kv-canary-sweep-interval requires --kv-canary in {{log, raise}}",
    "A periodic KV-canary sweep checks canaries that only exist when --kv-canary is log or raise.",
    ["--kv-canary-sweep-interval", "--kv-canary"], "--kv-canary-sweep-interval 10", "--kv-canary-sweep-interval 10 --kv-canary log");
rule!(WATERMARK_DEVICE, "VAL067", "watermark-needs-cuda",
    "validation_hook.check_watermark_server_args#2", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "--enable-watermark requires --device cuda, got {cfg.device!r}",
    "Output watermarking is implemented with CUDA sampling kernels.",
    ["--enable-watermark", "--device"], "--enable-watermark --device cpu", "--enable-watermark");
rule!(WATERMARK_CUSTOM_LOGIT, "VAL068", "watermark-not-with-custom-logit-processor",
    "validation_hook.check_watermark_server_args#9", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "--enable-watermark is incompatible with --enable-custom-logit-processor",
    "A custom logit processor could undo the watermark bias, so the two cannot be combined.",
    ["--enable-watermark", "--enable-custom-logit-processor"],
    "--enable-watermark --enable-custom-logit-processor", "--enable-watermark");
rule!(WATERMARK_SAMPLING_BACKEND, "VAL069", "watermark-custom-sampling-backend",
    "validation_hook.check_watermark_server_args#10", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "--enable-watermark does not support custom sampling backends; got --sampling-backend {cfg.sampling_backend!r}",
    "Watermarking hooks into SGLang's built-in samplers only.",
    ["--enable-watermark", "--sampling-backend"], "", "");
rule!(WATERMARK_DLLM, "VAL070", "watermark-not-with-dllm",
    "validation_hook.check_watermark_server_args#11", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "--enable-watermark is not supported with diffusion LLM",
    "Diffusion LLM decoding does not sample token by token, so the watermark cannot be applied.",
    ["--enable-watermark", "--dllm-algorithm"], "", "");
rule!(WATERMARK_PD, "VAL071", "watermark-not-with-pd-disaggregation",
    "validation_hook.check_watermark_server_args#12", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "--enable-watermark is not supported with PD disaggregation",
    "Watermark state is not carried between prefill and decode servers.",
    ["--enable-watermark", "--disaggregation-mode"],
    "--enable-watermark --disaggregation-mode prefill", "--disaggregation-mode prefill");
rule!(WATERMARK_REJECTION_SAMPLING, "VAL074", "watermark-not-with-rejection-sampling",
    "validation_hook.check_watermark_server_args#15", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "--enable-watermark is incompatible with --speculative-use-rejection-sampling",
    "Rejection sampling for speculative decoding would change the watermarked distribution.",
    ["--enable-watermark", "--speculative-use-rejection-sampling"],
    "--enable-watermark --speculative-use-rejection-sampling", "--enable-watermark");
rule!(WATERMARK_RUST_SERVER, "VAL075", "watermark-not-with-rust-server",
    "validation_hook.check_watermark_server_args#16", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "--enable-watermark is not supported with SGLANG_RUST_SERVER",
    "The Rust HTTP server does not implement watermarking.",
    ["--enable-watermark"], "", "");
rule!(WATERMARK_CONFIG_NEEDS_ENABLE, "VAL099", "watermark-config-needs-enable-watermark",
    "validation_hook.check_watermark_server_args#1", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "--watermark-config requires --enable-watermark",
    "--watermark-config only sets up the watermark; it is switched on by --enable-watermark, so a config without it is taken as a mistake.",
    ["--watermark-config", "--enable-watermark"],
    "--watermark-config '{\"key\": \"ab12\"}'", "--watermark-config '{\"key\": \"ab12\"}' --enable-watermark");
rule!(WATERMARK_KEY_B_NEEDS_KEY, "VAL100", "watermark-key-b-needs-key",
    "validation_hook.check_watermark_server_args#4", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "watermark key_b requires a server key",
    "key_b is the second key of a two-key watermark mix; it only makes sense next to the primary \"key\" in --watermark-config.",
    ["--watermark-config", "--enable-watermark"],
    "--enable-watermark --watermark-config '{\"key_b\": \"cd34\"}'", "--enable-watermark --watermark-config '{\"key\": \"ab12\", \"key_b\": \"cd34\"}'");
rule!(WATERMARK_MIXING_RANGE, "VAL101", "watermark-mixing-probability-range",
    "validation_hook.check_watermark_server_args#5", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "watermark mixing_probability must be strictly between 0 and 1",
    "mixing_probability is how often the second key (key_b) is used instead of the first; 0 or 1 would mean only one key, which is a one-key watermark.",
    ["--watermark-config", "--enable-watermark"],
    "--enable-watermark --watermark-config '{\"key\": \"ab12\", \"key_b\": \"cd34\", \"mixing_probability\": 1}'",
    "--enable-watermark --watermark-config '{\"key\": \"ab12\", \"key_b\": \"cd34\", \"mixing_probability\": 0.3}'");
rule!(WATERMARK_MIXING_NEEDS_KEY_B, "VAL102", "watermark-mixing-probability-needs-key-b",
    "validation_hook.check_watermark_server_args#6", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "watermark mixing_probability requires key_b",
    "A mixing_probability other than the default 0.5 chooses between two keys, so it needs key_b as well as key.",
    ["--watermark-config", "--enable-watermark"],
    "--enable-watermark --watermark-config '{\"key\": \"ab12\", \"mixing_probability\": 0.3}'",
    "--enable-watermark --watermark-config '{\"key\": \"ab12\"}'");
rule!(WATERMARK_MAX_PROBABILITY_RANGE, "VAL103", "watermark-max-probability-range",
    "validation_hook.check_watermark_server_args#7", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "watermark max_probability must be greater than 0 and at most 1",
    "max_probability caps the probability of a watermarked token; it is a probability, so it must lie in (0, 1].",
    ["--watermark-config", "--enable-watermark"],
    "--enable-watermark --watermark-config '{\"max_probability\": 0}'", "--enable-watermark --watermark-config '{\"max_probability\": 0.9}'");
rule!(WATERMARK_DEFAULTS_NEED_KEY, "VAL104", "watermark-default-enabled-needs-key",
    "validation_hook.check_watermark_server_args#8", "sglang/srt/arg_groups/validation_hook.py", "check_watermark_server_args", "ValueError", Check,
    "watermark default_enabled and enforce_all require a server key",
    "default_enabled and enforce_all watermark requests that did not bring their own key, so the server needs its own \"key\" in --watermark-config.",
    ["--watermark-config", "--enable-watermark"],
    "--enable-watermark --watermark-config '{\"enforce_all\": true}'", "--enable-watermark --watermark-config '{\"key\": \"ab12\", \"enforce_all\": true}'");
rule!(LOAD_PUBLISH_NEEDS_KV_EVENTS, "VAL076", "load-publish-endpoint-needs-kv-events",
    "validation_hook.check_load_publish_args#1", "sglang/srt/arg_groups/validation_hook.py", "check_load_publish_args", "ValueError", Check,
    "--load-publish-endpoint requires --kv-events-config: routers discover the load range through /server_info's kv_events block, absent without a publisher.",
    "Load publishing is advertised through the KV-events publisher, so --kv-events-config with an active publisher is required.",
    ["--load-publish-endpoint", "--kv-events-config"], "--load-publish-endpoint auto", "--load-publish-endpoint off");

rule!(LOAD_PUBLISH_INACTIVE_PUBLISHER, "VAL077", "load-publish-endpoint-needs-active-publisher",
    "validation_hook.check_load_publish_args#3", "sglang/srt/arg_groups/validation_hook.py", "check_load_publish_args", "ValueError", Check,
    "--load-publish-endpoint needs an active --kv-events-config publisher; got publisher='null' or an empty endpoint.",
    "Load publishing rides on the KV-events publisher, so --kv-events-config must name a real publisher (e.g. zmq, the default is null) with an endpoint.",
    ["--load-publish-endpoint", "--kv-events-config"],
    "--load-publish-endpoint auto --kv-events-config {}",
    "--load-publish-endpoint off --kv-events-config {}");

/// The device SGLang runs on: `--device`, else `get_device()` (serving_hook's
/// `handle_missing_default_values`): "cpu" on a CPU-only box, "cuda" on CUDA and ROCm.
pub fn device(ctx: &Ctx) -> String {
    if let Some(d) = ctx.cfg.str("device") {
        return d.to_string();
    }
    match ctx.hw.platform {
        Platform::Cpu => "cpu".into(),
        Platform::Cuda | Platform::Rocm => "cuda".into(),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Spec {
    None,
    /// NGRAM (any case): the speculative hook keeps it, upper-cased, and needs no draft model.
    Ngram,
    /// Anything else: renamed/validated by the speculative hook, which is not modelled.
    Other,
}

/// The speculative algorithm as far as these checks can know it.
pub fn spec_kind(ctx: &Ctx) -> Spec {
    match ctx.cfg.str("speculative_algorithm") {
        None => Spec::None,
        Some(s) if s.eq_ignore_ascii_case("NGRAM") => Spec::Ngram,
        Some(_) => Spec::Other,
    }
}

/// `runtime_context.attn_dp_enabled_of`.
pub fn attn_dp_enabled(ctx: &Ctx) -> bool {
    ctx.cfg.int("attn_dp_size").unwrap_or(1) > 1 || ctx.cfg.is("ep_join_mode", "scale")
}

fn int(ctx: &Ctx, dest: &str) -> i64 {
    ctx.cfg.int(dest).unwrap_or(0)
}

/// Raise and stop.
fn fail(ctx: &mut Ctx, rule: &'static crate::rules::Rule, message: String, dests: &[&str], fixes: Vec<crate::diagnostic::Fix>) -> Step {
    ctx.raise(rule, message, dests, fixes);
    Err(Raised)
}

/// `check_server_args`.
pub fn check_server_args(ctx: &mut Ctx) {
    // SGLang only gets here when resolution raised nothing; if it did, the checks still run
    // (their errors are worth showing), and `Ctx::warn` drops the warnings SGLang never prints.
    let _ = run(ctx);
}

fn run(ctx: &mut Ctx) -> Step {
    let tp = int(ctx, "tp_size");
    let pp = int(ctx, "pp_size");
    let nnodes = int(ctx, "nnodes");

    if !ctx.cfg.is("ep_join_mode", "scale") && nnodes == 0 {
        // `(tp_size * pp_size) % nnodes` in the assert itself.
        let fix = ctx.fix_set("Run on one node (--nnodes 1)", "nnodes", "--nnodes", "1", Applicability::Safe);
        return fail(ctx, &NNODES_ZERO, NNODES_ZERO.template.into(), &["nnodes"], vec![fix]);
    }
    if !ctx.cfg.is("ep_join_mode", "scale") && nnodes != 0 && (tp * pp).rem_euclid(nnodes) != 0 {
        let mut fixes = vec![];
        let per = (tp * pp + nnodes - 1) / nnodes.max(1);
        if pp == 1 && nnodes > 0 {
            fixes.push(ctx.fix_set(
                format!("Use --tp-size {} ({} per node)", per * nnodes, per),
                "tp_size",
                "--tp-size",
                &(per * nnodes).to_string(),
                Applicability::Unsafe,
            ));
        }
        fixes.push(ctx.fix_set("Run on one node", "nnodes", "--nnodes", "1", Applicability::Unsafe));
        return fail(ctx, &TP_NOT_DIVISIBLE_BY_NNODES, TP_NOT_DIVISIBLE_BY_NNODES.template.into(), &["tp_size", "nnodes", "pp_size"], fixes);
    }

    let pmb = ctx.cfg.get("pp_max_micro_batch_size").clone();
    if pmb.as_int().is_some_and(|v| v < 1) {
        let fixes = vec![
            ctx.fix_remove("Let SGLang compute it (drop the flag)", "pp_max_micro_batch_size", Applicability::Safe),
            ctx.fix_set("Use 1", "pp_max_micro_batch_size", "--pp-max-micro-batch-size", "1", Applicability::Unsafe),
        ];
        return fail(
            ctx,
            &PP_MAX_MICRO_BATCH_SIZE,
            format!("pp_max_micro_batch_size must be a positive integer or None (for auto-compute). Got: {}", pmb.py_str()),
            &["pp_max_micro_batch_size"],
            fixes,
        );
    }

    if ctx.cfg.truthy("disable_cuda_graph_padding") && ctx.cfg.truthy("enable_torch_compile") {
        let fixes = vec![
            ctx.fix_remove("Drop --disable-cuda-graph-padding", "disable_cuda_graph_padding", Applicability::Unsafe),
            ctx.fix_remove("Drop --enable-torch-compile", "enable_torch_compile", Applicability::Unsafe),
        ];
        return fail(ctx, &CUDA_GRAPH_PADDING_TORCH_COMPILE, CUDA_GRAPH_PADDING_TORCH_COMPILE.template.into(), &["disable_cuda_graph_padding", "enable_torch_compile"], fixes);
    }

    if pp > 1 {
        check_pipeline_parallel_compat(ctx)?;
    }

    if int(ctx, "dp_size") > 1 && nnodes != 1 {
        let fix = ctx.fix_remove("Drop --dp-size (use --attn-dp-size across nodes instead)", "dp_size", Applicability::Unsafe);
        return fail(ctx, &MULTI_NODE_DP, MULTI_NODE_DP.template.into(), &["dp_size", "nnodes"], vec![fix]);
    }

    if int(ctx, "base_gpu_id") < 0 {
        let fix = ctx.fix_set("Start at GPU 0", "base_gpu_id", "--base-gpu-id", "0", Applicability::Unsafe);
        return fail(ctx, &BASE_GPU_ID_NEGATIVE, BASE_GPU_ID_NEGATIVE.template.into(), &["base_gpu_id"], vec![fix]);
    }
    if int(ctx, "gpu_id_step") < 1 {
        let fix = ctx.fix_set("Use consecutive GPUs", "gpu_id_step", "--gpu-id-step", "1", Applicability::Unsafe);
        return fail(ctx, &GPU_ID_STEP, GPU_ID_STEP.template.into(), &["gpu_id_step"], vec![fix]);
    }

    if let Some(m) = ctx.cfg.int("moe_dense_tp_size") {
        if m != 1 && m != tp {
            let fixes = vec![
                ctx.fix_set("Use 1", "moe_dense_tp_size", "--moe-dense-tp-size", "1", Applicability::Unsafe),
                ctx.fix_remove("Drop --moe-dense-tp-size (dense layers use --tp-size)", "moe_dense_tp_size", Applicability::Unsafe),
            ];
            return fail(ctx, &MOE_DENSE_TP_SIZE, MOE_DENSE_TP_SIZE.template.into(), &["moe_dense_tp_size", "tp_size"], fixes);
        }
    }

    // served_model_name defaults to model_path (serving_hook.handle_missing_default_values).
    let served = ctx
        .cfg
        .str("served_model_name")
        .or_else(|| ctx.cfg.str("model_path"))
        .unwrap_or_default()
        .to_string();
    let lower = served.to_lowercase();
    let runai = ["s3://", "gs://", "az://"].iter().any(|p| lower.starts_with(p));
    if !runai && served.contains(':') {
        let fixed = served.replace(':', "-");
        let fix = ctx.fix_set(
            format!("Serve it as '{fixed}'"),
            "served_model_name",
            "--served-model-name",
            &shell_quote(&fixed),
            Applicability::Safe,
        );
        return fail(
            ctx,
            &SERVED_MODEL_NAME_COLON,
            format!(
                "served_model_name cannot contain a colon (':') character. The colon is reserved for the 'model:adapter' syntax used in LoRA adapter specification. Invalid value: '{served}'"
            ),
            &["served_model_name", "model_path"],
            vec![fix],
        );
    }

    lora::check_lora_server_args(ctx)?;

    // NGRAM: the speculative hook turns mixed chunk off ("The mixed chunked prefill are disabled
    // because of using ngram speculative decoding."), so the assert cannot fire.
    if spec_kind(ctx) == Spec::Other && ctx.cfg.truthy("enable_mixed_chunk") {
        // The speculative hook (not modelled) may turn mixed chunk off first (NGRAM does), and
        // `SpeculativeAlgorithm.supports_mixed_chunk()` is per worker.
        ctx.skip("validation_hook.check_server_args#9", NotRunReason::NotImplemented);
    }

    check_chunked_prefill(ctx)?;

    if ctx.cfg.truthy("enable_pdmux") {
        if pp != 1 {
            let fix = ctx.fix_set("Use --pp-size 1", "pp_size", "--pp-size", "1", Applicability::Unsafe);
            return fail(ctx, &PDMUX_PP, PDMUX_PP.template.into(), &["pp_size", "enable_pdmux"], vec![fix]);
        }
        match final_chunked_prefill_size(ctx) {
            Some(-1) => {}
            Some(_) => {
                let fix = ctx.fix_set("Turn chunked prefill off", "chunked_prefill_size", "--chunked-prefill-size", "-1", Applicability::Safe);
                return fail(ctx, &PDMUX_CHUNKED_PREFILL, PDMUX_CHUNKED_PREFILL.template.into(), &["chunked_prefill_size", "enable_pdmux"], vec![fix]);
            }
            None => {
                ctx.skip("validation_hook.check_server_args#12", NotRunReason::NotImplemented);
                return Ok(());
            }
        }
        if !ctx.cfg.is("disaggregation_mode", "null") {
            let fixes = vec![
                ctx.fix_remove("Drop --disaggregation-mode", "disaggregation_mode", Applicability::Unsafe),
                ctx.fix_remove("Drop --enable-pdmux", "enable_pdmux", Applicability::Unsafe),
            ];
            return fail(ctx, &PDMUX_DISAGGREGATION, PDMUX_DISAGGREGATION.template.into(), &["disaggregation_mode", "enable_pdmux"], fixes);
        }
        if !overlap_schedule_disabled(ctx) {
            let fix = ctx.fix_add_flag("Add --disable-overlap-schedule", "--disable-overlap-schedule", Applicability::Safe);
            return fail(ctx, &PDMUX_OVERLAP, PDMUX_OVERLAP.template.into(), &["enable_pdmux"], vec![fix]);
        }
        // The torch-version warning embeds the installed torch version: not reproduced.
    }

    for (dest, flag, min, rule) in [
        ("tokenizer_worker_num", "--tokenizer-worker-num", 1, &TOKENIZER_WORKER_NUM),
        ("detokenizer_worker_num", "--detokenizer-worker-num", 1, &DETOKENIZER_WORKER_NUM),
        ("mm_processor_worker_num", "--mm-processor-worker-num", 0, &MM_PROCESSOR_WORKER_NUM),
        ("mm_io_worker_num", "--mm-io-worker-num", 0, &MM_IO_WORKER_NUM),
    ] {
        if ctx.cfg.int(dest).is_some_and(|v| v < min) {
            let fix = ctx.fix_set(format!("Use {min}"), dest, flag, &min.to_string(), Applicability::Safe);
            let fix2 = ctx.fix_remove("Drop the flag (use the default)", dest, Applicability::Safe);
            return fail(ctx, rule, rule.template.into(), &[dest], vec![fix, fix2]);
        }
    }
    validate_buckets_rule(ctx, "--prompt-tokens-buckets", "prompt_tokens_buckets")?;
    validate_buckets_rule(ctx, "--generation-tokens-buckets", "generation_tokens_buckets")?;

    let priority = ctx.cfg.truthy("enable_priority_scheduling");
    if priority {
        let policy = ctx.cfg.get("schedule_policy").clone();
        if !matches!(policy.as_str(), Some("fcfs") | Some("lof")) {
            let fixes = vec![
                ctx.fix_set("Use --schedule-policy fcfs", "schedule_policy", "--schedule-policy", "fcfs", Applicability::Unsafe),
                ctx.fix_set("Use --schedule-policy lof", "schedule_policy", "--schedule-policy", "lof", Applicability::Unsafe),
            ];
            return fail(
                ctx,
                &PRIORITY_SCHEDULE_POLICY,
                format!(
                    "To use priority scheduling, schedule_policy must be 'fcfs' or 'lof'. '{}' is not supported.",
                    policy.py_str()
                ),
                &["schedule_policy", "enable_priority_scheduling"],
                fixes,
            );
        }
        if ctx.cfg.is_none("default_priority_value") {
            let fix = ctx.fix_set("Give requests without a priority 0", "default_priority_value", "--default-priority-value", "0", Applicability::Unsafe);
            ctx.warn(&W_PRIORITY_NO_DEFAULT, W_PRIORITY_NO_DEFAULT.template.into(), &["enable_priority_scheduling"], vec![fix]);
        }
    } else {
        if ctx.cfg.truthy("disable_priority_preemption") {
            let fix = ctx.fix_remove("Drop --disable-priority-preemption", "disable_priority_preemption", Applicability::Safe);
            ctx.warn(&W_PRIORITY_PREEMPTION_NO_EFFECT, W_PRIORITY_PREEMPTION_NO_EFFECT.template.into(), &["disable_priority_preemption"], vec![fix]);
        }
        if !ctx.cfg.is_none("default_priority_value") {
            let fix = ctx.fix_remove("Drop --default-priority-value", "default_priority_value", Applicability::Safe);
            ctx.warn(&W_DEFAULT_PRIORITY_NO_EFFECT, W_DEFAULT_PRIORITY_NO_EFFECT.template.into(), &["default_priority_value"], vec![fix]);
        }
    }
    if ctx.cfg.is("retraction_policy", "priority") && !priority {
        let fixes = vec![
            ctx.fix_add_flag("Enable priority scheduling", "--enable-priority-scheduling", Applicability::Unsafe),
            ctx.fix_remove("Drop --retraction-policy priority", "retraction_policy", Applicability::Unsafe),
        ];
        return fail(ctx, &RETRACTION_PRIORITY, RETRACTION_PRIORITY.template.into(), &["retraction_policy"], fixes);
    }

    // overrides._hisparse_validation -> hisparse_hook.validate_hisparse: its first check needs
    // the model's hf_config (is it a DSA / DeepSeek-V4 / MiniMax-M3 model?).
    if ctx.cfg.truthy("enable_hisparse") {
        ctx.skip("hisparse_hook.validate_hisparse#1", NotRunReason::ModelConfig);
    }

    // handle_data_parallelism multiplies it by 0.3 under attention DP: the sign is unchanged.
    if ctx.cfg.float("schedule_conservativeness").is_some_and(|v| v < 0.0) {
        let fix = ctx.fix_set("Use the default 1.0", "schedule_conservativeness", "--schedule-conservativeness", "1.0", Applicability::Unsafe);
        return fail(ctx, &SCHEDULE_CONSERVATIVENESS, SCHEDULE_CONSERVATIVENESS.template.into(), &["schedule_conservativeness"], vec![fix]);
    }

    // None of the hardware profiles is an Ascend NPU.
    if ctx.cfg.is("model_impl", "mindspore") {
        let fix = ctx.fix_set("Use --model-impl auto", "model_impl", "--model-impl", "auto", Applicability::Unsafe);
        return fail(ctx, &MINDSPORE_NPU, MINDSPORE_NPU.template.into(), &["model_impl"], vec![fix]);
    }

    let dev = device(ctx);
    if ctx.cfg.is("load_format", "instanttensor") && dev != "cuda" {
        let fix = ctx.fix_set("Use --load-format auto", "load_format", "--load-format", "auto", Applicability::Unsafe);
        return fail(
            ctx,
            &INSTANTTENSOR_DEVICE,
            format!(
                "InstantTensor requires a CUDA-compatible device (including CUDA and ROCm); got {}.",
                PyValue::Str(dev.clone()).repr()
            ),
            &["load_format", "device"],
            vec![fix],
        );
    }

    if !ctx.cfg.truthy("tokenizer_metrics_custom_labels_header") && ctx.cfg.truthy("tokenizer_metrics_allowed_custom_labels") {
        let fix = ctx.fix_set(
            "Read labels from the default x-custom-labels header",
            "tokenizer_metrics_custom_labels_header",
            "--tokenizer-metrics-custom-labels-header",
            "x-custom-labels",
            Applicability::Safe,
        );
        return fail(ctx, &METRICS_LABELS_HEADER, METRICS_LABELS_HEADER.template.into(), &["tokenizer_metrics_custom_labels_header", "tokenizer_metrics_allowed_custom_labels"], vec![fix]);
    }
    if ctx.cfg.truthy("export_metrics_to_file") && ctx.cfg.is_none("export_metrics_to_file_dir") {
        let fix = ctx.fix_set("Write them to ./metrics", "export_metrics_to_file_dir", "--export-metrics-to-file-dir", "./metrics", Applicability::Unsafe);
        return fail(ctx, &EXPORT_METRICS_DIR, EXPORT_METRICS_DIR.template.into(), &["export_metrics_to_file"], vec![fix]);
    }

    // check_two_batch_overlap. moe_a2a_backend may still be rewritten by moe hooks that are not
    // modelled (only with --enable-waterfill, which forces deepep).
    if ctx.cfg.truthy("enable_two_batch_overlap") && ctx.cfg.is("moe_a2a_backend", "none") && !attn_dp_enabled(ctx) {
        if ctx.cfg.truthy("enable_waterfill") {
            ctx.skip("validation_hook.check_two_batch_overlap#1", NotRunReason::NotImplemented);
        } else {
            let fix = ctx.fix_remove("Drop --enable-two-batch-overlap", "enable_two_batch_overlap", Applicability::Unsafe);
            return fail(ctx, &TWO_BATCH_OVERLAP, TWO_BATCH_OVERLAP.template.into(), &["enable_two_batch_overlap", "moe_a2a_backend"], vec![fix]);
        }
    }

    if ctx.cfg.truthy("enable_quant_communications") {
        let fix = ctx.fix_remove("Drop --enable-quant-communications", "enable_quant_communications", Applicability::Safe);
        if tp == 1 {
            return fail(ctx, &QUANT_COMM_TP, QUANT_COMM_TP.template.into(), &["enable_quant_communications", "tp_size"], vec![fix]);
        }
        if dev != "npu" {
            return fail(ctx, &QUANT_COMM_NPU, QUANT_COMM_NPU.template.into(), &["enable_quant_communications"], vec![fix]);
        }
    }

    if ctx.cfg.is("sampling_backend", "intel_xpu") && dev != "xpu" {
        let fix = ctx.fix_remove("Drop --sampling-backend (use the platform default)", "sampling_backend", Applicability::Safe);
        return fail(
            ctx,
            &SAMPLING_BACKEND_XPU,
            format!("--sampling-backend intel_xpu requires --device xpu, got --device {dev}"),
            &["sampling_backend"],
            vec![fix],
        );
    }

    let grpc = ctx.cfg.get("grpc_port").clone();
    let port = ctx.cfg.get("port").clone();
    let grpc_mode = ctx.cfg.truthy("smg_grpc_mode") || ctx.cfg.truthy("grpc_mode");
    if !grpc_mode && !grpc.is_none() && grpc == port {
        let next = port.as_int().map(|p| (p + 1).to_string()).unwrap_or_else(|| "30001".into());
        let fix = ctx.fix_set(format!("Serve gRPC on {next}"), "grpc_port", "--grpc-port", &next, Applicability::Unsafe);
        return fail(
            ctx,
            &GRPC_PORT_EQUALS_PORT,
            format!("--grpc-port ({}) must differ from --port ({})", grpc.py_str(), port.py_str()),
            &["grpc_port", "port"],
            vec![fix],
        );
    }

    if let Some(l) = ctx.cfg.get("gc_threshold").as_list() {
        if !l.is_empty() && l.len() > 3 {
            let first: Vec<String> = l.iter().take(3).map(PyValue::py_str).collect();
            let fix = ctx.fix_set("Keep the first three thresholds", "gc_threshold", "--gc-threshold", &first.join(" "), Applicability::Unsafe);
            return fail(ctx, &GC_THRESHOLD_LEN, GC_THRESHOLD_LEN.template.into(), &["gc_threshold"], vec![fix]);
        }
    }

    if int(ctx, "kv_canary_sweep_interval") > 0 && ctx.cfg.is("kv_canary", "none") {
        let fixes = vec![
            ctx.fix_set("Log canary violations", "kv_canary", "--kv-canary", "log", Applicability::Unsafe),
            ctx.fix_remove("Drop --kv-canary-sweep-interval", "kv_canary_sweep_interval", Applicability::Unsafe),
        ];
        return fail(ctx, &KV_CANARY_SWEEP, "--kv-canary-sweep-interval requires --kv-canary in {log, raise}".into(), &["kv_canary_sweep_interval", "kv_canary"], fixes);
    }

    check_watermark_server_args(ctx, &dev)?;
    check_load_publish_args(ctx)
}

/// `check_pipeline_parallel_compat` (pp_size > 1).
fn check_pipeline_parallel_compat(ctx: &mut Ctx) -> Step {
    // disable_overlap_schedule: overrides._pipeline_parallel_overlap_disable sets it whenever
    // pp_size > 1, so the first assert cannot fire.
    match spec_kind(ctx) {
        Spec::None => {}
        Spec::Ngram => {
            // NGRAM is neither DSPARK nor EAGLE: the EAGLE-only assert fires.
            let fixes = vec![
                ctx.fix_remove("Drop --speculative-algorithm (keep pipeline parallelism)", "speculative_algorithm", Applicability::Unsafe),
                ctx.fix_set("Use --pp-size 1 (keep NGRAM speculation)", "pp_size", "--pp-size", "1", Applicability::Unsafe),
            ];
            return fail(ctx, &PP_SPEC_EAGLE_ONLY, PP_SPEC_EAGLE_ONLY.template.into(), &["speculative_algorithm", "pp_size"], fixes);
        }
        Spec::Other => {
            // The speculative hook (not modelled) rewrites the algorithm (NEXTN -> EAGLE, ...) and
            // needs the draft model's config.
            ctx.skip("validation_hook.check_pipeline_parallel_compat#4", NotRunReason::ModelConfig);
        }
    }
    if !ctx.cfg.is_none("min_free_slots_delay") {
        let fix = ctx.fix_remove("Drop --min-free-slots-delay", "min_free_slots_delay", Applicability::Unsafe);
        return fail(ctx, &PP_MIN_FREE_SLOTS_DELAY, PP_MIN_FREE_SLOTS_DELAY.template.into(), &["min_free_slots_delay", "pp_size"], vec![fix]);
    }
    Ok(())
}

/// Whether the overlap scheduler ends up disabled: the flag, or the overrides that force it
/// (`_pipeline_parallel_overlap_disable`, `_dllm_overlap_disable`, `_sparse_head_overlap_disable`).
fn overlap_schedule_disabled(ctx: &Ctx) -> bool {
    ctx.cfg.truthy("disable_overlap_schedule")
        || ctx.cfg.int("pp_size").unwrap_or(1) > 1
        || !ctx.cfg.is_none("dllm_algorithm")
        || ctx.env("SGLANG_EMBEDDINGS_SPARSE_HEAD").is_some()
}

/// The chunked prefill size `check_server_args` sees, or None when an unmodelled hook decides it.
/// - `memory_hook.handle_gpu_memory_settings`: unset -> by GPU memory (per-GPU MiB).
/// - `attention_hook.handle_multi_item_scoring`: --enable-mis -> -1.
/// - `parallel_hook.handle_data_parallelism`: attention DP -> `// attn_dp_size`.
/// - `kv_shard_hook.handle_kv_cache_sharding` rounds it (not modelled -> None).
pub fn final_chunked_prefill_size(ctx: &Ctx) -> Option<i64> {
    if ctx.cfg.truthy("enable_kv_cache_sharding") {
        return None;
    }
    let current = ctx.cfg.get("chunked_prefill_size");
    let explicit = ctx.cfg.setting("chunked_prefill_size").map(|s| &s.value);
    // A value another family already derived (not the command's) is taken as final.
    if let Some(v) = current.as_int() {
        if explicit != Some(current) {
            return Some(v);
        }
    }
    let mut size = match current.as_int() {
        Some(v) => v,
        None => {
            if ctx.hw.platform == Platform::Cpu {
                return None; // get_cpu_memory_capacity: NUMA-dependent, not modelled
            }
            let mem = ctx.hw.gpu_mem_mib;
            if mem < 20 * 1024 {
                2048
            } else if mem < 60 * 1024 {
                4096
            } else if mem < 160 * 1024 {
                8192
            } else {
                16384
            }
        }
    };
    if ctx.cfg.truthy("enable_mis") {
        size = -1;
    }
    if attn_dp_enabled(ctx) {
        let dp = ctx.cfg.int("attn_dp_size").unwrap_or(1).max(1);
        size = size.div_euclid(dp);
    }
    Some(size)
}

/// The chunked-prefill / page-size assert.
fn check_chunked_prefill(ctx: &mut Ctx) -> Step {
    const SITE: &str = "validation_hook.check_server_args#10";
    let Some(c) = final_chunked_prefill_size(ctx) else {
        ctx.skip(SITE, NotRunReason::NotImplemented);
        return Ok(());
    };
    if c <= 0 || ctx.cfg.is("disaggregation_mode", "decode") {
        return Ok(());
    }
    if !ctx.cfg.is_none("dllm_algorithm") {
        ctx.skip(SITE, NotRunReason::ModelConfig); // overrides._dllm_page_size: the model's block size
        return Ok(());
    }
    // overrides._page_size_default: 64 on ROCm with the vectorized_5d AITER layout, else 1.
    let p = match ctx.cfg.int("page_size") {
        Some(p) => p,
        None => {
            let layout = ctx.env("SGLANG_AITER_KV_CACHE_LAYOUT").unwrap_or("nhd").to_lowercase();
            if ctx.hw.is_hip() && layout == "vectorized_5d" {
                64
            } else {
                1
            }
        }
    };
    if p == 0 {
        // `chunked_prefill_size % page_size` with a zero page size, unless an attention backend
        // constraint may still move it (then decided by the backend, not modelled).
        if may_constrain_page_size(ctx) {
            ctx.skip(SITE, NotRunReason::NotImplemented);
            return Ok(());
        }
        let fix = ctx.fix_set("Use the default page size (--page-size 1)", "page_size", "--page-size", "1", Applicability::Safe);
        return fail(ctx, &PAGE_SIZE_ZERO, PAGE_SIZE_ZERO.template.into(), &["page_size"], vec![fix]);
    }
    // Attention-backend constraints (overrides._mla_backend_page_constraints, _fa4_page_constraint,
    // _intel_xpu_page_constraint) can still move page_size to 64 or 128. The generic default
    // backend (model_override_base.get_default_attn_backend) is one of those only on SM100
    // (trtllm_mha / fa4); elsewhere only an explicit backend (or an NVFP4 KV cache, which
    // kv_cache_hook pairs with trtllm_mha) can move it. When it may move, decide only when
    // every outcome agrees.
    let may_move = may_constrain_page_size(ctx);
    if c % p == 0 && (!may_move || c % 128 == 0) {
        return Ok(());
    }
    if c % p != 0 && (!may_move || c % 64 != 0) {
        let mut fixes = vec![];
        // A multiple of the page size, and of 128 when a backend may still move the page size.
        let unit = if may_move { lcm(p, 128) } else { p };
        let rounded = (c / unit).max(1) * unit;
        if ctx.cfg.is_explicit("chunked_prefill_size") && !attn_dp_enabled(ctx) {
            fixes.push(ctx.fix_set(
                format!("Round the chunk size to {rounded}"),
                "chunked_prefill_size",
                "--chunked-prefill-size",
                &rounded.to_string(),
                Applicability::Safe,
            ));
        }
        if ctx.cfg.is_explicit("page_size") {
            fixes.push(ctx.fix_remove("Drop --page-size (use the backend's default)", "page_size", Applicability::Unsafe));
        }
        return fail(ctx, &CHUNKED_PREFILL_PAGE_SIZE, CHUNKED_PREFILL_PAGE_SIZE.template.into(), &["chunked_prefill_size", "page_size", "attn_dp_size"], fixes);
    }
    ctx.skip(SITE, NotRunReason::ModelConfig);
    Ok(())
}

/// Quote a value for the shell when it needs it.
fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=+@%,".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

fn lcm(a: i64, b: i64) -> i64 {
    let (mut x, mut y) = (a.abs(), b.abs());
    while y != 0 {
        (x, y) = (y, x % y);
    }
    if x == 0 { 0 } else { a.abs() / x * b.abs() }
}

/// Whether an attention backend that rewrites page_size may be in use (see check_chunked_prefill).
fn may_constrain_page_size(ctx: &Ctx) -> bool {
    const CONSTRAINING: &[&str] = &["flashmla", "trtllm_mla", "cutedsl_mla", "tokenspeed_mla", "trtllm_mha", "hpc_ops", "fa4", "intel_xpu"];
    let explicit_backend = ["attention_backend", "prefill_attention_backend", "decode_attention_backend", "speculative_draft_attention_backend"]
        .iter()
        .any(|d| ctx.cfg.str(d).is_some_and(|b| CONSTRAINING.contains(&b)));
    let backend_unset = ctx.cfg.is_none("attention_backend");
    let sm100 = ctx.hw.is_cuda() && ctx.hw.capability.0 == 10;
    let fp4_kv = ctx.cfg.str("kv_cache_dtype").is_some_and(|d| d.contains("fp4"));
    explicit_backend || fp4_kv || (sm100 && backend_unset)
}

/// Python `float(s)` for the strings people type (whitespace, underscores between digits,
/// inf/nan spellings).
pub fn py_float(s: &str) -> Option<f64> {
    let t = s.trim();
    let cleaned = strip_underscores(t)?;
    let lower = cleaned.to_ascii_lowercase();
    let body = lower.trim_start_matches(['+', '-']);
    if matches!(body, "inf" | "infinity" | "nan") {
        return lower.parse::<f64>().ok().or(Some(if lower.starts_with('-') { f64::NEG_INFINITY } else { f64::INFINITY }));
    }
    if body.is_empty() || !body.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-')) {
        return None;
    }
    cleaned.parse::<f64>().ok()
}

/// Python `int(s)`.
pub fn py_int(s: &str) -> Option<i64> {
    let t = s.trim();
    let cleaned = strip_underscores(t)?;
    let body = cleaned.strip_prefix(['+', '-']).unwrap_or(&cleaned);
    if body.is_empty() || !body.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    cleaned.parse::<i64>().ok()
}

/// Python allows single underscores between digits.
fn strip_underscores(s: &str) -> Option<String> {
    if !s.contains('_') {
        return Some(s.to_string());
    }
    let chars: Vec<char> = s.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c == '_' {
            let before = i.checked_sub(1).and_then(|j| chars.get(j)).is_some_and(|c| c.is_ascii_digit());
            let after = chars.get(i + 1).is_some_and(|c| c.is_ascii_digit());
            if !(before && after) {
                return None;
            }
        }
    }
    Some(s.replace('_', ""))
}

/// `validate_buckets_rule(arg_name, buckets_rule)`.
fn validate_buckets_rule(ctx: &mut Ctx, arg: &str, dest: &str) -> Step {
    let Some(list) = ctx.cfg.get(dest).as_list().map(|l| l.iter().map(PyValue::py_str).collect::<Vec<_>>()) else {
        return Ok(());
    };
    let Some(rule) = list.first() else { return Ok(()) };
    let n = list.len();
    let d = [dest];
    match rule.as_str() {
        "tse" => {
            if n != 4 {
                return fail(ctx, &BUCKETS_TSE_LEN, format!("{arg} TSE rule requires exactly 4 parameters: ['tse', middle, base, count], got {n}"), &d, vec![]);
            }
            let parsed = (
                list.get(1).and_then(|s| py_float(s)),
                list.get(2).and_then(|s| py_float(s)),
                list.get(3).and_then(|s| py_int(s)),
            );
            let (Some(middle), Some(base), Some(count)) = parsed else {
                return fail(ctx, &BUCKETS_TSE_PARAMS, format!("{arg} TSE rule parameters must be: ['tse', <float:middle>, <float:base>, <int:count>]"), &d, vec![]);
            };
            if base.is_nan() || base <= 1.0 {
                return fail(ctx, &BUCKETS_TSE_BASE, format!("{arg} TSE base must be larger than 1, got: {}", float_repr(base)), &d, vec![]);
            }
            if count <= 0 {
                return fail(ctx, &BUCKETS_TSE_COUNT, format!("{arg} TSE count must be positive, got: {count}"), &d, vec![]);
            }
            if middle.is_nan() || middle <= 0.0 {
                return fail(ctx, &BUCKETS_TSE_MIDDLE, format!("{arg} TSE middle must be positive, got: {}", float_repr(middle)), &d, vec![]);
            }
        }
        "default" => {
            if n != 1 {
                let fix = ctx.fix_set("Use the default rule alone", dest, arg, "default", Applicability::Safe);
                return fail(ctx, &BUCKETS_DEFAULT_LEN, format!("{arg} default rule should only have one parameter: ['default'], got {n}"), &d, vec![fix]);
            }
        }
        "custom" => {
            if n < 2 {
                return fail(ctx, &BUCKETS_CUSTOM_LEN, format!("{arg} custom rule requires at least one bucket value: ['custom', value1, ...]"), &d, vec![]);
            }
            let mut values = Vec::new();
            for s in list.iter().skip(1) {
                match py_float(s) {
                    Some(v) => values.push(v),
                    None => return fail(ctx, &BUCKETS_CUSTOM_NUMERIC, format!("{arg} custom rule bucket values must be numeric"), &d, vec![]),
                }
            }
            let dup = values.iter().enumerate().any(|(i, a)| values.iter().skip(i + 1).any(|b| a == b));
            if dup {
                return fail(ctx, &BUCKETS_CUSTOM_DUPLICATES, format!("{arg} custom rule bucket values should not contain duplicates"), &d, vec![]);
            }
            if !values.iter().all(|v| *v >= 0.0) {
                return fail(ctx, &BUCKETS_CUSTOM_NEGATIVE, format!("{arg} custom rule bucket values should be non-negative"), &d, vec![]);
            }
        }
        other => {
            let fix = ctx.fix_set("Use the default buckets", dest, arg, "default", Applicability::Unsafe);
            return fail(
                ctx,
                &BUCKETS_RULE_TYPE,
                format!("Unsupported {arg} rule type: '{other}'. Must be one of: 'tse', 'default', 'custom'"),
                &d,
                vec![fix],
            );
        }
    }
    Ok(())
}

/// `check_watermark_server_args`. The key/window/probability fields come from the
/// --watermark-config file (serving_hook.handle_watermark_config); without a file they keep
/// their defaults, which pass.
fn check_watermark_server_args(ctx: &mut Ctx, dev: &str) -> Step {
    let enabled = ctx.cfg.truthy("enable_watermark");
    if let Some(source) = ctx.cfg.str("watermark_config") {
        if !source.trim_start().starts_with('{') {
            // A file path: handle_watermark_config reads it (and may raise) before this.
            ctx.skip("validation_hook.check_watermark_server_args#1", NotRunReason::Files);
            return Ok(());
        }
        if !enabled {
            let fixes = vec![
                ctx.fix_add_flag("Add --enable-watermark", "--enable-watermark", Applicability::Unsafe),
                ctx.fix_remove("Drop --watermark-config", "watermark_config", Applicability::Unsafe),
            ];
            return fail(ctx, &WATERMARK_CONFIG_NEEDS_ENABLE, WATERMARK_CONFIG_NEEDS_ENABLE.template.into(), &["watermark_config"], fixes);
        }
    }
    if !enabled {
        return Ok(());
    }
    if dev != "cuda" {
        let fix = ctx.fix_remove("Drop --enable-watermark", "enable_watermark", Applicability::Unsafe);
        return fail(ctx, &WATERMARK_DEVICE, format!("--enable-watermark requires --device cuda, got {}", PyValue::Str(dev.into()).repr()), &["device", "enable_watermark"], vec![fix]);
    }
    // The fields handle_watermark_config resolved from an inline --watermark-config (it already
    // rejected malformed keys and context windows), else the dataclass defaults.
    let key = !ctx.cfg.is_none("watermark_key");
    let key_b = !ctx.cfg.is_none("watermark_key_b");
    if key_b && !key {
        return fail(ctx, &WATERMARK_KEY_B_NEEDS_KEY, WATERMARK_KEY_B_NEEDS_KEY.template.into(), &["watermark_config"], vec![crate::diagnostic::Fix::advice("Add a \"key\" to --watermark-config, or remove \"key_b\"")]);
    }
    let mixing = ctx.cfg.float("watermark_mixing_probability").unwrap_or(0.5);
    if !(0.0 < mixing && mixing < 1.0) {
        return fail(ctx, &WATERMARK_MIXING_RANGE, WATERMARK_MIXING_RANGE.template.into(), &["watermark_config"], vec![crate::diagnostic::Fix::advice("Set \"mixing_probability\" in --watermark-config to a value between 0 and 1, e.g. 0.5")]);
    }
    if !key_b && mixing != 0.5 {
        return fail(ctx, &WATERMARK_MIXING_NEEDS_KEY_B, WATERMARK_MIXING_NEEDS_KEY_B.template.into(), &["watermark_config"], vec![crate::diagnostic::Fix::advice("Remove \"mixing_probability\" from --watermark-config, or add a \"key_b\"")]);
    }
    let max_probability = ctx.cfg.float("watermark_max_probability").unwrap_or(1.0);
    if !(0.0 < max_probability && max_probability <= 1.0) {
        return fail(ctx, &WATERMARK_MAX_PROBABILITY_RANGE, WATERMARK_MAX_PROBABILITY_RANGE.template.into(), &["watermark_config"], vec![crate::diagnostic::Fix::advice("Set \"max_probability\" in --watermark-config to a value in (0, 1], e.g. 1")]);
    }
    if (ctx.cfg.truthy("watermark_default_enabled") || ctx.cfg.truthy("watermark_enforce_all")) && !key {
        return fail(ctx, &WATERMARK_DEFAULTS_NEED_KEY, WATERMARK_DEFAULTS_NEED_KEY.template.into(), &["watermark_config"], vec![crate::diagnostic::Fix::advice("Add a server \"key\" to --watermark-config")]);
    }
    if ctx.cfg.truthy("enable_custom_logit_processor") {
        let fix = ctx.fix_remove("Drop --enable-custom-logit-processor", "enable_custom_logit_processor", Applicability::Unsafe);
        return fail(ctx, &WATERMARK_CUSTOM_LOGIT, WATERMARK_CUSTOM_LOGIT.template.into(), &["enable_custom_logit_processor"], vec![fix]);
    }
    let sb = ctx.cfg.get("sampling_backend").clone();
    if let Some(s) = sb.as_str() {
        if !matches!(s, "flashinfer" | "pytorch" | "ascend" | "intel_xpu") {
            return fail(
                ctx,
                &WATERMARK_SAMPLING_BACKEND,
                format!("--enable-watermark does not support custom sampling backends; got --sampling-backend {}", sb.repr()),
                &["sampling_backend"],
                vec![],
            );
        }
    }
    if !ctx.cfg.is_none("dllm_algorithm") {
        return fail(ctx, &WATERMARK_DLLM, WATERMARK_DLLM.template.into(), &["dllm_algorithm"], vec![]);
    }
    if !ctx.cfg.is("disaggregation_mode", "null") {
        let fix = ctx.fix_remove("Drop --enable-watermark", "enable_watermark", Applicability::Unsafe);
        return fail(ctx, &WATERMARK_PD, WATERMARK_PD.template.into(), &["disaggregation_mode", "enable_watermark"], vec![fix]);
    }
    // NGRAM passes both speculative checks (a pipeline-parallel NGRAM run already failed in
    // check_pipeline_parallel_compat); other algorithms are renamed by the speculative hook first.
    if spec_kind(ctx) == Spec::Other {
        ctx.skip("validation_hook.check_watermark_server_args#13", NotRunReason::NotImplemented);
        return Ok(());
    }
    if ctx.cfg.truthy("speculative_use_rejection_sampling") {
        let fix = ctx.fix_remove("Drop --speculative-use-rejection-sampling", "speculative_use_rejection_sampling", Applicability::Unsafe);
        return fail(ctx, &WATERMARK_REJECTION_SAMPLING, WATERMARK_REJECTION_SAMPLING.template.into(), &["speculative_use_rejection_sampling"], vec![fix]);
    }
    if ctx.env_bool("SGLANG_RUST_SERVER", false) {
        return fail(ctx, &WATERMARK_RUST_SERVER, WATERMARK_RUST_SERVER.template.into(), &["enable_watermark"], vec![]);
    }
    Ok(())
}

/// `check_load_publish_args`.
fn check_load_publish_args(ctx: &mut Ctx) -> Step {
    let mode = ctx.cfg.str("load_publish_endpoint").unwrap_or("").trim().to_string();
    if mode.is_empty() || mode.eq_ignore_ascii_case("off") {
        return Ok(());
    }
    if !ctx.cfg.truthy("kv_events_config") {
        let fix = ctx.fix_remove("Drop --load-publish-endpoint", "load_publish_endpoint", Applicability::Unsafe);
        return fail(ctx, &LOAD_PUBLISH_NEEDS_KV_EVENTS, LOAD_PUBLISH_NEEDS_KV_EVENTS.template.into(), &["load_publish_endpoint"], vec![fix]);
    }
    // KVEventsConfig.from_cli (pydantic model_validate_json): decided only for a JSON object whose
    // keys and value types surely validate; its error texts are pydantic's, not reproduced.
    let text = ctx.cfg.str("kv_events_config").unwrap_or("").to_string();
    let parsed: Option<serde_json::Map<String, serde_json::Value>> = serde_json::from_str(&text).ok();
    let simple = parsed.filter(|o| {
        o.iter().all(|(k, v)| match k.as_str() {
            "publisher" | "endpoint" | "topic" => v.is_string(),
            "replay_endpoint" => v.is_string() || v.is_null(),
            "bind" => v.is_boolean() || v.is_null(),
            _ => false,
        })
    });
    let Some(obj) = simple else {
        ctx.skip("validation_hook.check_load_publish_args#2", NotRunReason::NotImplemented);
        return Ok(());
    };
    let publisher = obj.get("publisher").and_then(serde_json::Value::as_str).unwrap_or("null");
    let endpoint = obj.get("endpoint").and_then(serde_json::Value::as_str).unwrap_or("tcp://*:5557");
    if publisher == "null" || endpoint.is_empty() {
        let fix = ctx.fix_remove("Drop --load-publish-endpoint", "load_publish_endpoint", Applicability::Unsafe);
        return fail(ctx, &LOAD_PUBLISH_INACTIVE_PUBLISHER, LOAD_PUBLISH_INACTIVE_PUBLISHER.template.into(), &["kv_events_config", "load_publish_endpoint"], vec![fix]);
    }
    // resolve_load_pub_range (ports, overlap with the KV range): not modelled.
    ctx.skip("validation_hook.check_load_publish_args#4", NotRunReason::NotImplemented);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_number_parsing() {
        assert_eq!(py_float("1e3"), Some(1000.0));
        assert_eq!(py_float(" 2.5 "), Some(2.5));
        assert_eq!(py_float("1_000"), Some(1000.0));
        assert_eq!(py_float("a"), None);
        assert_eq!(py_float("1__0"), None);
        assert_eq!(py_int("3"), Some(3));
        assert_eq!(py_int("3.0"), None);
        assert_eq!(py_int("1e3"), None);
        assert_eq!(py_int("-2"), Some(-2));
    }
}
