//! `validation_hook.check_server_args` (stage check) and the helpers it calls in
//! `validation_hook.py`: `check_pipeline_parallel_compat`, `validate_buckets_rule`,
//! `check_two_batch_overlap`, `validate_device_sampling_backend`,
//! `check_watermark_server_args`, `check_load_publish_args`.
//!
//! `check_server_args` runs after the whole resolution pipeline, so several fields it reads
//! were written by hooks this build does not model. Where SGLang computes them without the
//! model (platform defaults, GPU-memory defaults) they are recomputed here, with a note saying
//! where; where the final value depends on the model, the check is skipped and reported.

use crate::diagnostic::Applicability;
use crate::fields::{f, Field};
use crate::hardware::Platform;
use crate::pyvalue::{float_repr, PyValue};
use crate::release::SiteRef;
use crate::rules::shared::kv_events;
use crate::rules::shared::runtime_context::{attn_dp_enabled, num_dp_ranks};
use crate::rules::shared::envs::env_bool;
use crate::rules::{raises, site, warns, Ctx, NotRunReason, Rule, Sglang, Step};


pub static TP_NOT_DIVISIBLE_BY_NNODES: Rule = Rule {
    code: "VAL020",
    name: kebab!("tp-times-pp-not-divisible-by-nnodes"),
    sglang: raises("validation_hook.check_server_args", "tp_size must be divisible by number of nodes"),
    explanation: expl!("Every node runs the same number of GPU workers, so tp_size × pp_size must split evenly over --nnodes (the message only names tp_size, but pp_size counts too)."),
    flags: &["--tp-size", "--pp-size", "--nnodes"],
    example_bad: ex!("--tp-size 1 --nnodes 2"),
    example_good: ex!("--tp-size 2 --nnodes 2"),
};
pub static NNODES_ZERO: Rule = Rule {
    code: "VAL105",
    name: kebab!("nnodes-zero"),
    sglang: Sglang::Python { function: "validation_hook.check_server_args", raised_by: "int.__mod__", exception: "ZeroDivisionError", template: "integer modulo by zero", raises_in: None },
    explanation: expl!("--nnodes 0 is accepted by the parser, but check_server_args divides tp_size × pp_size by the node count, so Python fails with a bare ZeroDivisionError. A server runs on at least one node."),
    flags: &["--nnodes"],
    example_bad: ex!("--nnodes 0"),
    example_good: ex!("--nnodes 1"),
};
pub static PAGE_SIZE_ZERO: Rule = Rule {
    code: "VAL106",
    name: kebab!("page-size-zero"),
    sglang: Sglang::Python { function: "validation_hook.check_server_args", raised_by: "int.__mod__", exception: "ZeroDivisionError", template: "integer modulo by zero", raises_in: None },
    explanation: expl!("--page-size 0 passes the parser, but check_server_args checks that the chunked-prefill size is a multiple of the page size, and Python cannot take a remainder by zero. A KV-cache page holds at least one token."),
    flags: &["--page-size"],
    example_bad: ex!("--page-size 0"),
    example_good: ex!("--page-size 1"),
};
pub static PP_MAX_MICRO_BATCH_SIZE: Rule = Rule {
    code: "VAL021",
    name: kebab!("pp-max-micro-batch-size-not-positive"),
    sglang: raises("validation_hook.check_server_args", "pp_max_micro_batch_size must be a positive"),
    explanation: expl!("The pipeline-parallel micro-batch size must be at least 1; leave it unset to let SGLang compute it."),
    flags: &["--pp-max-micro-batch-size"],
    example_bad: ex!("--pp-max-micro-batch-size 0"),
    example_good: ex!("--pp-max-micro-batch-size 1"),
};
pub static CUDA_GRAPH_PADDING_TORCH_COMPILE: Rule = Rule {
    code: "VAL022",
    name: kebab!("disable-cuda-graph-padding-with-torch-compile"),
    sglang: raises("validation_hook.check_server_args", "--disable-cuda-graph-padding is incompatible"),
    explanation: expl!("Without CUDA-graph padding every batch size would be compiled separately by torch.compile, so SGLang refuses the combination."),
    flags: &["--disable-cuda-graph-padding", "--enable-torch-compile"],
    example_bad: ex!("--disable-cuda-graph-padding --enable-torch-compile"),
    example_good: ex!("--enable-torch-compile"),
};
pub static PP_MIN_FREE_SLOTS_DELAY: Rule = Rule {
    code: "VAL023",
    name: kebab!("pp-min-free-slots-delay"),
    sglang: raises("validation_hook.check_pipeline_parallel_compat", "--min-free-slots-delay is not supported with"),
    explanation: expl!("With pipeline parallelism each micro-batch can allocate at most pp-max-micro-batch-size slots, so a free-slot threshold could stall scheduling forever."),
    flags: &["--min-free-slots-delay", "--pp-size"],
    example_bad: ex!("--pp-size 2 --min-free-slots-delay 5"),
    example_good: ex!("--pp-size 2"),
};
pub static PP_SPEC_EAGLE_ONLY: Rule = Rule {
    code: "VAL098",
    name: kebab!("pp-speculative-eagle-only"),
    sglang: raises("validation_hook.check_pipeline_parallel_compat", "Pipeline parallelism currently only supports"),
    explanation: expl!("With --pp-size > 1 the only speculative decoding SGLang supports is single-layer EAGLE (and DSPARK on prefill nodes); NGRAM and the others are refused."),
    flags: &["--pp-size", "--speculative-algorithm"],
    example_bad: ex!("--pp-size 2 --speculative-algorithm NGRAM"),
    example_good: ex!("--speculative-algorithm NGRAM"),
};
pub static MIXED_CHUNK_SPEC: Rule = Rule {
    code: "VAL140",
    name: kebab!("mixed-chunk-unsupported-speculative-algorithm"),
    sglang: raises("validation_hook.check_server_args", "enable_mixed_chunk is not supported with"),
    explanation: expl!("Mixed chunked prefill degrades running requests to plain one-token decodes inside a mixed step; only EAGLE, EAGLE3, DFLASH and DSPARK have a verified resume path. The speculative hook turns it off for the other real algorithms, so this fires for --speculative-algorithm NONE (a name SGLang accepts and then treats as no speculation)."),
    flags: &["--enable-mixed-chunk", "--speculative-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm none --enable-mixed-chunk"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-mixed-chunk"),
};
pub static WATERMARK_SPEC_ALGORITHM: Rule = Rule {
    code: "VAL141",
    name: kebab!("watermark-speculative-algorithm"),
    sglang: raises("validation_hook.check_watermark_server_args", "--enable-watermark supports speculative algorithms"),
    explanation: expl!("Watermarking biases sampling; with speculation it is implemented for the NGRAM, EAGLE (NEXTN) and EAGLE3 verify paths only."),
    flags: &["--enable-watermark", "--speculative-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-watermark --speculative-algorithm STANDALONE --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-watermark --speculative-algorithm NGRAM"),
};
pub static WATERMARK_PP_SPEC: Rule = Rule {
    code: "VAL142",
    name: kebab!("watermark-pipeline-parallel-speculation"),
    sglang: raises("validation_hook.check_watermark_server_args", "--enable-watermark is not supported with pipeline-parallel"),
    explanation: expl!("Watermarking is not implemented for speculative decoding split over pipeline stages."),
    flags: &["--enable-watermark", "--pp-size"],
    example_bad: ex!("SGLANG_ENABLE_PP_SPEC=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --enable-watermark --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"),
    example_good: ex!("SGLANG_ENABLE_PP_SPEC=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"),
};
pub static PP_SPEC_DSPARK: Rule = Rule {
    code: "VAL143",
    name: kebab!("pp-spec-env-not-for-dspark"),
    sglang: raises("validation_hook.check_pipeline_parallel_compat", "SGLANG_ENABLE_PP_SPEC does not support DSPARK"),
    explanation: expl!("SGLANG_ENABLE_PP_SPEC's pipeline-parallel relay carries an EAGLE-shaped draft tree; pipeline-parallel DSPARK on a PD prefill server uses its own relay, so leave the variable unset."),
    flags: &["--speculative-algorithm", "--pp-size"],
    example_bad: ex!("SGLANG_ENABLE_PP_SPEC=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --disaggregation-mode prefill --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dspark-block-size 4"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --disaggregation-mode prefill --speculative-algorithm DSPARK --speculative-draft-model-path meta-llama/Llama-3.1-8B-Instruct --speculative-dspark-block-size 4"),
};
pub static PP_SPEC_DISAGGREGATION: Rule = Rule {
    code: "VAL144",
    name: kebab!("pp-spec-env-no-disaggregation"),
    sglang: raises("validation_hook.check_pipeline_parallel_compat", "SGLANG_ENABLE_PP_SPEC is not compatible with --disaggregation-mode"),
    explanation: expl!("With SGLANG_ENABLE_PP_SPEC the pipeline stages relay EAGLE's draft state themselves, which replaces the PD prefill relay: it works on a plain (non-disaggregated) server only."),
    flags: &["--disaggregation-mode", "--pp-size"],
    example_bad: ex!("SGLANG_ENABLE_PP_SPEC=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --disaggregation-mode prefill --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"),
    example_good: ex!("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --disaggregation-mode prefill --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"),
};
pub static PP_SPEC_ADAPTIVE: Rule = Rule {
    code: "VAL145",
    name: kebab!("pp-spec-env-no-adaptive"),
    sglang: raises("validation_hook.check_pipeline_parallel_compat", "SGLANG_ENABLE_PP_SPEC is not compatible with --speculative-adaptive"),
    explanation: expl!("The pipeline relay slices speculative results by the configured number of draft tokens, which adaptive speculation changes at run time."),
    flags: &["--speculative-adaptive", "--pp-size"],
    example_bad: ex!("SGLANG_ENABLE_PP_SPEC=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --speculative-algorithm EAGLE --speculative-adaptive"),
    example_good: ex!("SGLANG_ENABLE_PP_SPEC=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"),
};
pub static PP_SPEC_ATTN_DP: Rule = Rule {
    code: "VAL146",
    name: kebab!("pp-spec-env-no-attention-dp"),
    sglang: raises("validation_hook.check_pipeline_parallel_compat", "SGLANG_ENABLE_PP_SPEC is not compatible with attention DP"),
    explanation: expl!("Every pipeline stage rebuilds the same verify batch from relayed state, so all stages must see the same batch; attention DP splits it per DP rank."),
    flags: &["--attn-dp-size", "--pp-size"],
    example_bad: ex!("SGLANG_ENABLE_PP_SPEC=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --tp-size 2 --attn-dp-size 2 --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"),
    example_good: ex!("SGLANG_ENABLE_PP_SPEC=1 python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --tp-size 2 --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"),
};
pub static PP_SPEC_PREFILL_ONLY: Rule = Rule {
    code: "VAL147",
    name: kebab!("pp-speculation-prefill-only"),
    sglang: raises("validation_hook.check_pipeline_parallel_compat", "PP + speculative decoding (MTP) is only supported"),
    explanation: expl!("Pipeline parallelism with EAGLE/MTP speculation runs on PD prefill servers (--disaggregation-mode prefill), or anywhere with the experimental SGLANG_ENABLE_PP_SPEC=1."),
    flags: &["--pp-size", "--speculative-algorithm"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --pp-size 2 --disaggregation-mode prefill --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"),
};
pub static PP_OVERLAP_OR_SPEC: Rule = Rule {
    code: "VAL149",
    name: kebab!("pp-overlap-or-speculative"),
    sglang: raises("validation_hook.check_server_args", "Pipeline parallelism is not compatible with overlap schedule"),
    explanation: expl!("SGLang 0.5.18 runs pipeline parallelism without speculative decoding only (later releases allow single-layer EAGLE). The overlap scheduler is turned off for --pp-size > 1 during resolution, so in practice this fires for any --speculative-algorithm with --pp-size > 1."),
    flags: &["--pp-size", "--speculative-algorithm"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static PP_MIN_FREE_SLOTS_DELAY_CHECK: Rule = Rule {
    code: "VAL150",
    name: kebab!("pp-min-free-slots-delay-check"),
    sglang: raises("validation_hook.check_server_args", "--min-free-slots-delay is not supported with"),
    explanation: expl!("With pipeline parallelism each micro-batch can allocate at most pp-max-micro-batch-size slots, so a free-slot threshold could stall scheduling forever (0.5.18 checks it in check_server_args itself; later releases in check_pipeline_parallel_compat, VAL023)."),
    flags: &["--min-free-slots-delay", "--pp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static MULTI_NODE_DP_WITHOUT_DP_ATTENTION: Rule = Rule {
    code: "VAL151",
    name: kebab!("multi-node-dp-without-dp-attention"),
    sglang: raises("validation_hook.check_server_args", "multi-node data parallel is not supported unless dp attention"),
    explanation: expl!("In SGLang 0.5.18 data-parallel replicas (--dp-size > 1) can span several nodes only with --enable-dp-attention."),
    flags: &["--dp-size", "--nnodes", "--enable-dp-attention"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static MIXED_CHUNK_WITH_SPEC: Rule = Rule {
    code: "VAL152",
    name: kebab!("mixed-chunk-with-speculative"),
    sglang: raises("validation_hook.check_server_args", "enable_mixed_chunk is required for speculative decoding"),
    explanation: expl!("SGLang 0.5.18 refuses mixed chunked prefill with any speculative algorithm still set after resolution (the message says 'required' but means 'not allowed'); its speculative hook already turns it off (with a warning) for each algorithm it handles, so this fires for a name the hook handles none of, such as 'none'."),
    flags: &["--enable-mixed-chunk", "--speculative-algorithm"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static MULTI_NODE_DP: Rule = Rule {
    code: "VAL024",
    name: kebab!("multi-node-dp-replicas"),
    sglang: raises("validation_hook.check_server_args", "multi-node data-parallel replicas are not"),
    explanation: expl!("Data-parallel replicas (--dp-size > 1) must all live on one node; to spread over several nodes use attention data parallelism or an external router."),
    flags: &["--dp-size", "--nnodes"],
    example_bad: ex!("--tp-size 2 --dp-size 2 --nnodes 2"),
    example_good: ex!("--tp-size 2 --attn-dp-size 2 --nnodes 2"),
};
pub static BASE_GPU_ID_NEGATIVE: Rule = Rule {
    code: "VAL025",
    name: kebab!("base-gpu-id-negative"),
    sglang: raises("validation_hook.check_server_args", "base_gpu_id must be non-negative"),
    explanation: expl!("--base-gpu-id is the first CUDA device index to use; indices start at 0."),
    flags: &["--base-gpu-id"],
    example_bad: ex!("--base-gpu-id -1"),
    example_good: ex!("--base-gpu-id 0"),
};
pub static GPU_ID_STEP: Rule = Rule {
    code: "VAL026",
    name: kebab!("gpu-id-step-not-positive"),
    sglang: raises("validation_hook.check_server_args", "gpu_id_step must be positive"),
    explanation: expl!("--gpu-id-step is the stride between the device indices of consecutive workers; it must be at least 1."),
    flags: &["--gpu-id-step"],
    example_bad: ex!("--gpu-id-step 0"),
    example_good: ex!("--gpu-id-step 1"),
};
pub static MOE_DENSE_TP_SIZE: Rule = Rule {
    code: "VAL027",
    name: kebab!("moe-dense-tp-size-unsupported"),
    sglang: raises("validation_hook.check_server_args", "moe_dense_tp_size only supports None, 1,"),
    explanation: expl!("The tensor-parallel size of the dense layers in an MoE model can only be 1 or the full --tp-size."),
    flags: &["--moe-dense-tp-size", "--tp-size"],
    example_bad: ex!("--tp-size 4 --moe-dense-tp-size 2"),
    example_good: ex!("--tp-size 4 --moe-dense-tp-size 1"),
};
pub static SERVED_MODEL_NAME_COLON: Rule = Rule {
    code: "VAL028",
    name: kebab!("served-model-name-colon"),
    sglang: raises("validation_hook.check_server_args", "served_model_name cannot contain a colon"),
    explanation: expl!("Requests name a LoRA adapter as `model:adapter`, so the served model name (which defaults to --model-path) may not contain ':'. Object-store URIs (s3://, gs://, az://) are exempt."),
    flags: &["--served-model-name", "--model-path"],
    example_bad: ex!("--served-model-name llama:8b"),
    example_good: ex!("--served-model-name llama-8b"),
};
pub static CHUNKED_PREFILL_PAGE_SIZE: Rule = Rule {
    code: "VAL029",
    name: kebab!("chunked-prefill-size-not-multiple-of-page-size"),
    sglang: raises("validation_hook.check_server_args", "chunked_prefill_size must be divisible by"),
    explanation: expl!("Prefill chunks are cut on KV-cache page boundaries, so the final chunked prefill size (after SGLang's GPU-memory default and the division by --attn-dp-size) must be a multiple of the page size."),
    flags: &["--chunked-prefill-size", "--page-size", "--attn-dp-size"],
    example_bad: ex!("--page-size 16 --chunked-prefill-size 100"),
    example_good: ex!("--page-size 16 --chunked-prefill-size 4096"),
};
pub static PDMUX_PP: Rule = Rule {
    code: "VAL030",
    name: kebab!("pdmux-needs-pp-1"),
    sglang: raises("validation_hook.check_server_args", "PD-Multiplexing is only supported with pipeline"),
    explanation: expl!("PD-multiplexing splits one GPU's SMs between prefill and decode; it does not work with pipeline parallelism."),
    flags: &["--enable-pdmux", "--pp-size"],
    example_bad: ex!("--enable-pdmux --pp-size 2"),
    example_good: ex!("--enable-pdmux --chunked-prefill-size -1 --disable-overlap-schedule"),
};
pub static PDMUX_CHUNKED_PREFILL: Rule = Rule {
    code: "VAL031",
    name: kebab!("pdmux-needs-chunked-prefill-off"),
    sglang: raises("validation_hook.check_server_args", "PD-Multiplexing is not compatible with chunked"),
    explanation: expl!("PD-multiplexing needs chunked prefill switched off (--chunked-prefill-size -1); SGLang turns it on by default."),
    flags: &["--enable-pdmux", "--chunked-prefill-size"],
    example_bad: ex!("--enable-pdmux"),
    example_good: ex!("--enable-pdmux --chunked-prefill-size -1 --disable-overlap-schedule"),
};
pub static PDMUX_DISAGGREGATION: Rule = Rule {
    code: "VAL032",
    name: kebab!("pdmux-not-with-disaggregation"),
    sglang: raises("validation_hook.check_server_args", "PD-Multiplexing is not compatible with disaggregation"),
    explanation: expl!("PD-multiplexing runs prefill and decode on the same GPUs, the opposite of prefill/decode disaggregation."),
    flags: &["--enable-pdmux", "--disaggregation-mode"],
    example_bad: ex!("--enable-pdmux --chunked-prefill-size -1 --disable-overlap-schedule --disaggregation-mode prefill"),
    example_good: ex!("--enable-pdmux --chunked-prefill-size -1 --disable-overlap-schedule"),
};
pub static PDMUX_OVERLAP: Rule = Rule {
    code: "VAL033",
    name: kebab!("pdmux-needs-overlap-schedule-off"),
    sglang: raises("validation_hook.check_server_args", "PD-Multiplexing is not compatible with overlap"),
    explanation: expl!("PD-multiplexing needs the overlap scheduler disabled (--disable-overlap-schedule)."),
    flags: &["--enable-pdmux", "--disable-overlap-schedule"],
    example_bad: ex!("--enable-pdmux --chunked-prefill-size -1"),
    example_good: ex!("--enable-pdmux --chunked-prefill-size -1 --disable-overlap-schedule"),
};
pub static TOKENIZER_WORKER_NUM: Rule = Rule {
    code: "VAL034",
    name: kebab!("tokenizer-worker-num-not-positive"),
    sglang: raises("validation_hook.check_server_args", "Tokenizer worker num must >= 1"),
    explanation: expl!("At least one tokenizer worker process is needed."),
    flags: &["--tokenizer-worker-num"],
    example_bad: ex!("--tokenizer-worker-num 0"),
    example_good: ex!("--tokenizer-worker-num 1"),
};
pub static DETOKENIZER_WORKER_NUM: Rule = Rule {
    code: "VAL035",
    name: kebab!("detokenizer-worker-num-not-positive"),
    sglang: raises("validation_hook.check_server_args", "Detokenizer worker num must >= 1"),
    explanation: expl!("At least one detokenizer worker process is needed."),
    flags: &["--detokenizer-worker-num"],
    example_bad: ex!("--detokenizer-worker-num 0"),
    example_good: ex!("--detokenizer-worker-num 1"),
};
pub static MM_PROCESSOR_WORKER_NUM: Rule = Rule {
    code: "VAL036",
    name: kebab!("mm-processor-worker-num-negative"),
    sglang: raises("validation_hook.check_server_args", "Multimodal processor worker num must >= 0"),
    explanation: expl!("The number of multimodal processor workers cannot be negative (0 means process in the tokenizer manager)."),
    flags: &["--mm-processor-worker-num"],
    example_bad: ex!("--mm-processor-worker-num -1"),
    example_good: ex!("--mm-processor-worker-num 0"),
};
pub static MM_IO_WORKER_NUM: Rule = Rule {
    code: "VAL037",
    name: kebab!("mm-io-worker-num-negative"),
    sglang: raises("validation_hook.check_server_args", "Multimodal I/O worker num must >= 0"),
    explanation: expl!("The number of multimodal I/O workers cannot be negative."),
    flags: &["--mm-io-worker-num"],
    example_bad: ex!("--mm-io-worker-num -1"),
    example_good: ex!("--mm-io-worker-num 0"),
};
pub static BUCKETS_RULE_TYPE: Rule = Rule {
    code: "VAL038",
    name: kebab!("tokens-buckets-unknown-rule"),
    sglang: raises("validation_hook.validate_buckets_rule", "Unsupported {arg_name} rule type: '{rule}'."),
    explanation: expl!("The first word of a metrics bucket specification names the rule: tse, default or custom."),
    flags: &["--prompt-tokens-buckets", "--generation-tokens-buckets"],
    example_bad: ex!("--prompt-tokens-buckets foo"),
    example_good: ex!("--prompt-tokens-buckets default"),
};
pub static BUCKETS_TSE_LEN: Rule = Rule {
    code: "VAL039",
    name: kebab!("tokens-buckets-tse-arity"),
    sglang: raises("validation_hook.validate_buckets_rule", "{arg_name} TSE rule requires exactly 4 parameters:"),
    explanation: expl!("The tse bucket rule takes exactly three numbers after `tse`: middle, base and count."),
    flags: &["--prompt-tokens-buckets", "--generation-tokens-buckets"],
    example_bad: ex!("--prompt-tokens-buckets tse 1000 2"),
    example_good: ex!("--prompt-tokens-buckets tse 1000 2 8"),
};
pub static BUCKETS_TSE_PARAMS: Rule = Rule {
    code: "VAL040",
    name: kebab!("tokens-buckets-tse-not-numeric"),
    sglang: raises("validation_hook.validate_buckets_rule", "{arg_name} TSE rule parameters must be: ['tse',"),
    explanation: expl!("middle and base must parse as numbers and count as a whole number (Python int(): `8`, not `8.0` or `1e3`)."),
    flags: &["--prompt-tokens-buckets", "--generation-tokens-buckets"],
    example_bad: ex!("--prompt-tokens-buckets tse a 2 8"),
    example_good: ex!("--prompt-tokens-buckets tse 1000 2 8"),
};
pub static BUCKETS_TSE_BASE: Rule = Rule {
    code: "VAL041",
    name: kebab!("tokens-buckets-tse-base"),
    sglang: raises("validation_hook.validate_buckets_rule", "{arg_name} TSE base must be larger than 1,"),
    explanation: expl!("The tse rule spaces buckets geometrically; its base must be greater than 1."),
    flags: &["--prompt-tokens-buckets", "--generation-tokens-buckets"],
    example_bad: ex!("--prompt-tokens-buckets tse 1000 1 8"),
    example_good: ex!("--prompt-tokens-buckets tse 1000 2 8"),
};
pub static BUCKETS_TSE_COUNT: Rule = Rule {
    code: "VAL042",
    name: kebab!("tokens-buckets-tse-count"),
    sglang: raises("validation_hook.validate_buckets_rule", "{arg_name} TSE count must be positive, got:"),
    explanation: expl!("The tse rule needs at least one bucket."),
    flags: &["--prompt-tokens-buckets", "--generation-tokens-buckets"],
    example_bad: ex!("--prompt-tokens-buckets tse 1000 2 0"),
    example_good: ex!("--prompt-tokens-buckets tse 1000 2 8"),
};
pub static BUCKETS_TSE_MIDDLE: Rule = Rule {
    code: "VAL043",
    name: kebab!("tokens-buckets-tse-middle"),
    sglang: raises("validation_hook.validate_buckets_rule", "{arg_name} TSE middle must be positive, got:"),
    explanation: expl!("The tse rule's middle bucket boundary must be greater than 0."),
    flags: &["--prompt-tokens-buckets", "--generation-tokens-buckets"],
    example_bad: ex!("--prompt-tokens-buckets tse 0 2 8"),
    example_good: ex!("--prompt-tokens-buckets tse 1000 2 8"),
};
pub static BUCKETS_DEFAULT_LEN: Rule = Rule {
    code: "VAL044",
    name: kebab!("tokens-buckets-default-arity"),
    sglang: raises("validation_hook.validate_buckets_rule", "{arg_name} default rule should only have"),
    explanation: expl!("The default bucket rule takes no values."),
    flags: &["--prompt-tokens-buckets", "--generation-tokens-buckets"],
    example_bad: ex!("--generation-tokens-buckets default 1"),
    example_good: ex!("--generation-tokens-buckets default"),
};
pub static BUCKETS_CUSTOM_LEN: Rule = Rule {
    code: "VAL045",
    name: kebab!("tokens-buckets-custom-empty"),
    sglang: raises("validation_hook.validate_buckets_rule", "{arg_name} custom rule requires at least"),
    explanation: expl!("The custom bucket rule lists the bucket boundaries after `custom`; at least one is needed."),
    flags: &["--prompt-tokens-buckets", "--generation-tokens-buckets"],
    example_bad: ex!("--generation-tokens-buckets custom"),
    example_good: ex!("--generation-tokens-buckets custom 128 1024"),
};
pub static BUCKETS_CUSTOM_NUMERIC: Rule = Rule {
    code: "VAL046",
    name: kebab!("tokens-buckets-custom-not-numeric"),
    sglang: raises("validation_hook.validate_buckets_rule", "{arg_name} custom rule bucket values must"),
    explanation: expl!("Every custom bucket boundary must parse as a number."),
    flags: &["--prompt-tokens-buckets", "--generation-tokens-buckets"],
    example_bad: ex!("--generation-tokens-buckets custom a"),
    example_good: ex!("--generation-tokens-buckets custom 128"),
};
pub static BUCKETS_CUSTOM_DUPLICATES: Rule = Rule {
    code: "VAL047",
    name: kebab!("tokens-buckets-custom-duplicates"),
    sglang: raises("validation_hook.validate_buckets_rule", "{arg_name} custom rule bucket values should not"),
    explanation: expl!("Custom bucket boundaries must be distinct numbers (`1` and `1.0` count as the same)."),
    flags: &["--prompt-tokens-buckets", "--generation-tokens-buckets"],
    example_bad: ex!("--generation-tokens-buckets custom 1 1"),
    example_good: ex!("--generation-tokens-buckets custom 1 2"),
};
pub static BUCKETS_CUSTOM_NEGATIVE: Rule = Rule {
    code: "VAL048",
    name: kebab!("tokens-buckets-custom-negative"),
    sglang: raises("validation_hook.validate_buckets_rule", "{arg_name} custom rule bucket values should be"),
    explanation: expl!("Token-count bucket boundaries cannot be negative."),
    flags: &["--prompt-tokens-buckets", "--generation-tokens-buckets"],
    example_bad: ex!("--generation-tokens-buckets custom 1 -1"),
    example_good: ex!("--generation-tokens-buckets custom 1 2"),
};
pub static PRIORITY_SCHEDULE_POLICY: Rule = Rule {
    code: "VAL049",
    name: kebab!("priority-scheduling-policy"),
    sglang: raises("validation_hook.check_server_args", "To use priority scheduling, schedule_policy"),
    explanation: expl!("Priority scheduling orders requests by priority first and breaks ties with the schedule policy, which must then be fcfs or lof."),
    flags: &["--enable-priority-scheduling", "--schedule-policy"],
    example_bad: ex!("--enable-priority-scheduling --schedule-policy lpm"),
    example_good: ex!("--enable-priority-scheduling --schedule-policy fcfs"),
};
pub static W_PRIORITY_NO_DEFAULT: Rule = Rule {
    code: "VAL050",
    name: kebab!("priority-scheduling-without-default-priority"),
    sglang: warns("validation_hook.check_server_args", "--default-priority-value is not set while"),
    explanation: expl!("Requests that carry no priority get None; setting --default-priority-value gives them a number."),
    flags: &["--enable-priority-scheduling", "--default-priority-value"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-priority-scheduling"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-priority-scheduling --default-priority-value 0"),
};
pub static W_PRIORITY_PREEMPTION_NO_EFFECT: Rule = Rule {
    code: "VAL051",
    name: kebab!("disable-priority-preemption-no-effect"),
    sglang: warns("validation_hook.check_server_args", "--disable-priority-preemption has no effect"),
    explanation: expl!("Priority preemption only exists under priority scheduling, so disabling it does nothing here."),
    flags: &["--disable-priority-preemption", "--enable-priority-scheduling"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disable-priority-preemption"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disable-priority-preemption --enable-priority-scheduling --default-priority-value 0"),
};
pub static W_DEFAULT_PRIORITY_NO_EFFECT: Rule = Rule {
    code: "VAL052",
    name: kebab!("default-priority-value-no-effect"),
    sglang: warns("validation_hook.check_server_args", "--default-priority-value has no effect without"),
    explanation: expl!("A default priority is only used by the priority scheduler."),
    flags: &["--default-priority-value", "--enable-priority-scheduling"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --default-priority-value 3"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --default-priority-value 3 --enable-priority-scheduling"),
};
pub static RETRACTION_PRIORITY: Rule = Rule {
    code: "VAL053",
    name: kebab!("retraction-policy-priority-needs-priority-scheduling"),
    sglang: raises("validation_hook.check_server_args", "--retraction-policy priority requires --enable-priority-scheduling"),
    explanation: expl!("Retracting by priority needs request priorities, which only exist with priority scheduling."),
    flags: &["--retraction-policy", "--enable-priority-scheduling"],
    example_bad: ex!("--retraction-policy priority"),
    example_good: ex!("--retraction-policy priority --enable-priority-scheduling"),
};
pub static HISPARSE_MODEL: Rule = Rule {
    code: "VAL148",
    name: kebab!("hisparse-needs-sparse-attention-model"),
    sglang: raises("hisparse_hook.validate_hisparse", "--enable-hisparse is only supported for DSA"),
    explanation: expl!("Hierarchical sparse attention (--enable-hisparse) offloads the KV cache of models with sparse attention: DeepSeek Sparse Attention models (DeepSeek V3.2, GLM-5 ..., whose config has index_topk), DeepSeek V4 and MiniMax M3 sparse. Other models cannot use it: leave it out."),
    flags: &["--enable-hisparse"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-hisparse --disable-radix-cache"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disable-radix-cache"),
};
pub static SCHEDULE_CONSERVATIVENESS: Rule = Rule {
    code: "VAL054",
    name: kebab!("schedule-conservativeness-negative"),
    sglang: raises("validation_hook.check_server_args", "schedule_conservativeness must be non-negative"),
    explanation: expl!("--schedule-conservativeness scales the scheduler's memory reservation; it cannot be negative."),
    flags: &["--schedule-conservativeness"],
    example_bad: ex!("--schedule-conservativeness -1"),
    example_good: ex!("--schedule-conservativeness 1.0"),
};
pub static MINDSPORE_NPU: Rule = Rule {
    code: "VAL055",
    name: kebab!("mindspore-needs-npu"),
    sglang: raises("validation_hook.check_server_args", "MindSpore model impl is only supported on"),
    explanation: expl!("--model-impl mindspore runs models through MindSpore, which SGLang only supports on Huawei Ascend NPUs."),
    flags: &["--model-impl"],
    example_bad: ex!("--model-impl mindspore"),
    example_good: ex!("--model-impl auto"),
};
pub static INSTANTTENSOR_DEVICE: Rule = Rule {
    code: "VAL056",
    name: kebab!("instanttensor-needs-cuda"),
    sglang: raises("validation_hook.check_server_args", "InstantTensor requires a CUDA-compatible"),
    explanation: expl!("The instanttensor load format loads weights straight into GPU memory, so it needs --device cuda (CUDA or ROCm)."),
    flags: &["--load-format", "--device"],
    example_bad: ex!("--load-format instanttensor --device cpu"),
    example_good: ex!("--load-format safetensors --device cpu"),
};
pub static METRICS_LABELS_HEADER: Rule = Rule {
    code: "VAL057",
    name: kebab!("metrics-custom-labels-need-header"),
    sglang: raises("validation_hook.check_server_args", "Please set --tokenizer-metrics-custom-labels-header"),
    explanation: expl!("Custom metric labels are read from an HTTP header; with an empty header name there is nowhere to read them from."),
    flags: &["--tokenizer-metrics-allowed-custom-labels", "--tokenizer-metrics-custom-labels-header"],
    example_bad: ex!("--tokenizer-metrics-allowed-custom-labels team --tokenizer-metrics-custom-labels-header ''"),
    example_good: ex!("--tokenizer-metrics-allowed-custom-labels team"),
};
pub static EXPORT_METRICS_DIR: Rule = Rule {
    code: "VAL058",
    name: kebab!("export-metrics-to-file-needs-dir"),
    sglang: raises("validation_hook.check_server_args", "--export-metrics-to-file-dir is required"),
    explanation: expl!("Exporting metrics to files needs the directory to write them to."),
    flags: &["--export-metrics-to-file", "--export-metrics-to-file-dir"],
    example_bad: ex!("--export-metrics-to-file"),
    example_good: ex!("--export-metrics-to-file --export-metrics-to-file-dir /tmp/metrics"),
};
pub static TWO_BATCH_OVERLAP: Rule = Rule {
    code: "VAL059",
    name: kebab!("two-batch-overlap-needs-a2a-or-attn-dp"),
    sglang: raises("validation_hook.check_two_batch_overlap", "When enabling two batch overlap without an"),
    explanation: expl!("Two-batch overlap hides communication behind the other micro-batch's compute; it needs an expert-parallel all-to-all backend (--moe-a2a-backend) or, without one, attention data parallelism."),
    flags: &["--enable-two-batch-overlap", "--moe-a2a-backend", "--attn-dp-size"],
    example_bad: ex!("--enable-two-batch-overlap"),
    example_good: ex!("--enable-two-batch-overlap --tp-size 8 --moe-a2a-backend deepep"),
};
pub static QUANT_COMM_TP: Rule = Rule {
    code: "VAL060",
    name: kebab!("quant-communications-needs-tp"),
    sglang: raises("validation_hook.check_server_args", "Communications quantization is only used"),
    explanation: expl!("Quantized communication compresses tensor-parallel all-reduces; with --tp-size 1 there is no communication to compress."),
    flags: &["--enable-quant-communications", "--tp-size"],
    example_bad: ex!("--enable-quant-communications"),
    example_good: ex!("--tp-size 2"),
};
pub static QUANT_COMM_NPU: Rule = Rule {
    code: "VAL061",
    name: kebab!("quant-communications-needs-npu"),
    sglang: raises("validation_hook.check_server_args", "Communications quantization is only supported"),
    explanation: expl!("Quantized communication is implemented for Ascend NPUs only."),
    flags: &["--enable-quant-communications", "--device"],
    example_bad: ex!("--enable-quant-communications --tp-size 2"),
    example_good: ex!("--tp-size 2"),
};
pub static SAMPLING_BACKEND_XPU: Rule = Rule {
    code: "VAL062",
    name: kebab!("sampling-backend-intel-xpu-needs-xpu"),
    sglang: raises("validation_hook.validate_device_sampling_backend", "--sampling-backend intel_xpu requires --device"),
    explanation: expl!("The intel_xpu sampling kernels only exist on Intel GPUs."),
    flags: &["--sampling-backend", "--device"],
    example_bad: ex!("--sampling-backend intel_xpu"),
    example_good: ex!("--sampling-backend flashinfer"),
};
pub static GRPC_PORT_EQUALS_PORT: Rule = Rule {
    code: "VAL063",
    name: kebab!("grpc-port-equals-port"),
    sglang: raises("validation_hook.check_server_args", "--grpc-port ({cfg.grpc_port}) must differ"),
    explanation: expl!("The gRPC server and the HTTP server would bind the same port."),
    flags: &["--grpc-port", "--port"],
    example_bad: ex!("--grpc-port 30000"),
    example_good: ex!("--grpc-port 30001"),
};
pub static GC_THRESHOLD_LEN: Rule = Rule {
    code: "VAL064",
    name: kebab!("gc-threshold-too-many"),
    sglang: raises("validation_hook.check_server_args", "When setting gc_threshold, it must contain"),
    explanation: expl!("--gc-threshold is passed to Python's gc.set_threshold, which takes at most three generation thresholds."),
    flags: &["--gc-threshold"],
    example_bad: ex!("--gc-threshold 1 2 3 4"),
    example_good: ex!("--gc-threshold 1 2 3"),
};
pub static KV_CANARY_SWEEP: Rule = Rule {
    code: "VAL065",
    name: kebab!("kv-canary-sweep-needs-canary"),
    sglang: raises("validation_hook.check_server_args", "--kv-canary-sweep-interval requires --kv-canary"),
    explanation: expl!("A periodic KV-canary sweep checks canaries that only exist when --kv-canary is log or raise."),
    flags: &["--kv-canary-sweep-interval", "--kv-canary"],
    example_bad: ex!("--kv-canary-sweep-interval 10"),
    example_good: ex!("--kv-canary-sweep-interval 10 --kv-canary log"),
};
pub static WATERMARK_DEVICE: Rule = Rule {
    code: "VAL067",
    name: kebab!("watermark-needs-cuda"),
    sglang: raises("validation_hook.check_watermark_server_args", "--enable-watermark requires --device cuda,"),
    explanation: expl!("Output watermarking is implemented with CUDA sampling kernels."),
    flags: &["--enable-watermark", "--device"],
    example_bad: ex!("--enable-watermark --device cpu"),
    example_good: ex!("--enable-watermark"),
};
pub static WATERMARK_CUSTOM_LOGIT: Rule = Rule {
    code: "VAL068",
    name: kebab!("watermark-not-with-custom-logit-processor"),
    sglang: raises("validation_hook.check_watermark_server_args", "--enable-watermark is incompatible with --enable-custom-logit-processor"),
    explanation: expl!("A custom logit processor could undo the watermark bias, so the two cannot be combined."),
    flags: &["--enable-watermark", "--enable-custom-logit-processor"],
    example_bad: ex!("--enable-watermark --enable-custom-logit-processor"),
    example_good: ex!("--enable-watermark"),
};
pub static WATERMARK_SAMPLING_BACKEND: Rule = Rule {
    code: "VAL069",
    name: kebab!("watermark-custom-sampling-backend"),
    sglang: raises("validation_hook.check_watermark_server_args", "--enable-watermark does not support custom"),
    explanation: expl!("Watermarking hooks into SGLang's built-in samplers only."),
    flags: &["--enable-watermark", "--sampling-backend"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static WATERMARK_DLLM: Rule = Rule {
    code: "VAL070",
    name: kebab!("watermark-not-with-dllm"),
    sglang: raises("validation_hook.check_watermark_server_args", "--enable-watermark is not supported with diffusion"),
    explanation: expl!("Diffusion LLM decoding does not sample token by token, so the watermark cannot be applied."),
    flags: &["--enable-watermark", "--dllm-algorithm"],
    example_bad: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence --enable-watermark"),
    example_good: ex!("--model-path JetLM/SDAR-4B-Chat --trust-remote-code --dllm-algorithm LowConfidence"),
};
pub static WATERMARK_PD: Rule = Rule {
    code: "VAL071",
    name: kebab!("watermark-not-with-pd-disaggregation"),
    sglang: raises("validation_hook.check_watermark_server_args", "--enable-watermark is not supported with PD"),
    explanation: expl!("Watermark state is not carried between prefill and decode servers."),
    flags: &["--enable-watermark", "--disaggregation-mode"],
    example_bad: ex!("--enable-watermark --disaggregation-mode prefill"),
    example_good: ex!("--disaggregation-mode prefill"),
};
pub static WATERMARK_REJECTION_SAMPLING: Rule = Rule {
    code: "VAL074",
    name: kebab!("watermark-not-with-rejection-sampling"),
    sglang: raises("validation_hook.check_watermark_server_args", "--enable-watermark is incompatible with --speculative-use-rejection-sampling"),
    explanation: expl!("Rejection sampling for speculative decoding would change the watermarked distribution."),
    flags: &["--enable-watermark", "--speculative-use-rejection-sampling"],
    example_bad: ex!("--enable-watermark --speculative-use-rejection-sampling"),
    example_good: ex!("--enable-watermark"),
};
pub static WATERMARK_RUST_SERVER: Rule = Rule {
    code: "VAL075",
    name: kebab!("watermark-not-with-rust-server"),
    sglang: raises("validation_hook.check_watermark_server_args", "--enable-watermark is not supported with SGLANG_RUST_SERVER"),
    explanation: expl!("The Rust HTTP server does not implement watermarking."),
    flags: &["--enable-watermark"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static WATERMARK_CONFIG_NEEDS_ENABLE: Rule = Rule {
    code: "VAL099",
    name: kebab!("watermark-config-needs-enable-watermark"),
    sglang: raises("validation_hook.check_watermark_server_args", "--watermark-config requires --enable-watermark"),
    explanation: expl!("--watermark-config only sets up the watermark; it is switched on by --enable-watermark, so a config without it is taken as a mistake."),
    flags: &["--watermark-config", "--enable-watermark"],
    example_bad: ex!("--watermark-config '{\"key\": \"ab12\"}'"),
    example_good: ex!("--watermark-config '{\"key\": \"ab12\"}' --enable-watermark"),
};
pub static WATERMARK_KEY_B_NEEDS_KEY: Rule = Rule {
    code: "VAL100",
    name: kebab!("watermark-key-b-needs-key"),
    sglang: raises("validation_hook.check_watermark_server_args", "watermark key_b requires a server key"),
    explanation: expl!("key_b is the second key of a two-key watermark mix; it only makes sense next to the primary \"key\" in --watermark-config."),
    flags: &["--watermark-config", "--enable-watermark"],
    example_bad: ex!("--enable-watermark --watermark-config '{\"key_b\": \"cd34\"}'"),
    example_good: ex!("--enable-watermark --watermark-config '{\"key\": \"ab12\", \"key_b\": \"cd34\"}'"),
};
pub static WATERMARK_MIXING_RANGE: Rule = Rule {
    code: "VAL101",
    name: kebab!("watermark-mixing-probability-range"),
    sglang: raises("validation_hook.check_watermark_server_args", "watermark mixing_probability must be strictly"),
    explanation: expl!("mixing_probability is how often the second key (key_b) is used instead of the first; 0 or 1 would mean only one key, which is a one-key watermark."),
    flags: &["--watermark-config", "--enable-watermark"],
    example_bad: ex!("--enable-watermark --watermark-config '{\"key\": \"ab12\", \"key_b\": \"cd34\", \"mixing_probability\": 1}'"),
    example_good: ex!("--enable-watermark --watermark-config '{\"key\": \"ab12\", \"key_b\": \"cd34\", \"mixing_probability\": 0.3}'"),
};
pub static WATERMARK_MIXING_NEEDS_KEY_B: Rule = Rule {
    code: "VAL102",
    name: kebab!("watermark-mixing-probability-needs-key-b"),
    sglang: raises("validation_hook.check_watermark_server_args", "watermark mixing_probability requires key_b"),
    explanation: expl!("A mixing_probability other than the default 0.5 chooses between two keys, so it needs key_b as well as key."),
    flags: &["--watermark-config", "--enable-watermark"],
    example_bad: ex!("--enable-watermark --watermark-config '{\"key\": \"ab12\", \"mixing_probability\": 0.3}'"),
    example_good: ex!("--enable-watermark --watermark-config '{\"key\": \"ab12\"}'"),
};
pub static WATERMARK_MAX_PROBABILITY_RANGE: Rule = Rule {
    code: "VAL103",
    name: kebab!("watermark-max-probability-range"),
    sglang: raises("validation_hook.check_watermark_server_args", "watermark max_probability must be greater"),
    explanation: expl!("max_probability caps the probability of a watermarked token; it is a probability, so it must lie in (0, 1]."),
    flags: &["--watermark-config", "--enable-watermark"],
    example_bad: ex!("--enable-watermark --watermark-config '{\"max_probability\": 0}'"),
    example_good: ex!("--enable-watermark --watermark-config '{\"max_probability\": 0.9}'"),
};
pub static WATERMARK_DEFAULTS_NEED_KEY: Rule = Rule {
    code: "VAL104",
    name: kebab!("watermark-default-enabled-needs-key"),
    sglang: raises("validation_hook.check_watermark_server_args", "watermark default_enabled and enforce_all"),
    explanation: expl!("default_enabled and enforce_all watermark requests that did not bring their own key, so the server needs its own \"key\" in --watermark-config."),
    flags: &["--watermark-config", "--enable-watermark"],
    example_bad: ex!("--enable-watermark --watermark-config '{\"enforce_all\": true}'"),
    example_good: ex!("--enable-watermark --watermark-config '{\"key\": \"ab12\", \"enforce_all\": true}'"),
};
pub static LOAD_PUBLISH_NEEDS_KV_EVENTS: Rule = Rule {
    code: "VAL076",
    name: kebab!("load-publish-endpoint-needs-kv-events"),
    sglang: raises("validation_hook.check_load_publish_args", "--load-publish-endpoint requires --kv-events-config:"),
    explanation: expl!("Load publishing is advertised through the KV-events publisher, so --kv-events-config with an active publisher is required."),
    flags: &["--load-publish-endpoint", "--kv-events-config"],
    example_bad: ex!("--load-publish-endpoint auto"),
    example_good: ex!("--load-publish-endpoint off"),
};

pub static LOAD_PUBLISH_INACTIVE_PUBLISHER: Rule = Rule {
    code: "VAL077",
    name: kebab!("load-publish-endpoint-needs-active-publisher"),
    sglang: raises("validation_hook.check_load_publish_args", "--load-publish-endpoint needs an active --kv-events-config"),
    explanation: expl!("Load publishing rides on the KV-events publisher, so --kv-events-config must name a real publisher (e.g. zmq, the default is null) with an endpoint."),
    flags: &["--load-publish-endpoint", "--kv-events-config"],
    example_bad: ex!("--load-publish-endpoint auto --kv-events-config {}"),
    example_good: ex!("--load-publish-endpoint off --kv-events-config {}"),
};

pub static KV_EVENTS_CONFIG_NOT_PARSEABLE: Rule = Rule {
    code: "VAL160",
    name: kebab!("kv-events-config-not-parseable"),
    sglang: raises("validation_hook.check_load_publish_args", "--kv-events-config is not parseable: {e}"),
    explanation: expl!("With --load-publish-endpoint on, SGLang reads --kv-events-config at start-up as a KVEventsConfig: one JSON object (pydantic's model_validate_json) with string publisher, endpoint and topic, an optional string replay_endpoint, an optional boolean bind, integer buffer_steps, hwm and max_queue_size and a format of \"default\" or \"dynamo\". Text that is not such an object stops the launch with pydantic's error, which names the line and column or the field. (The link in that error names the pydantic release installed; the text here is pydantic 2.14's.)"),
    flags: &["--kv-events-config", "--load-publish-endpoint"],
    example_bad: ex!("--load-publish-endpoint auto --kv-events-config '{\"publisher\": \"zmq\",}'"),
    example_good: ex!("--load-publish-endpoint auto --kv-events-config '{\"publisher\": \"zmq\"}'"),
};

pub static LOAD_PUBLISH_RANGE_UNUSABLE: Rule = Rule {
    code: "VAL161",
    name: kebab!("load-publish-endpoint-range-unusable"),
    sglang: raises("validation_hook.check_load_publish_args", "{reason}"),
    explanation: expl!("The load publisher binds one port per DP rank (data-parallel replicas x attention-DP groups) from a base port: with auto, right after the KV-events range, which needs a tcp:// endpoint on a wildcard host (*, 0.0.0.0 or ::) to pack after; with an explicit tcp:// address, that address, which must be a wildcard host too, must not overlap the KV-events (or replay) range, and needs a tcp:// KV-events endpoint for routers to discover it. The range must also end at or below port 65535."),
    flags: &["--load-publish-endpoint", "--kv-events-config", "--dp-size", "--attn-dp-size"],
    example_bad: ex!("--load-publish-endpoint auto --kv-events-config '{\"publisher\": \"zmq\", \"endpoint\": \"tcp://localhost:5557\"}'"),
    example_good: ex!("--load-publish-endpoint auto --kv-events-config '{\"publisher\": \"zmq\", \"endpoint\": \"tcp://*:5557\"}'"),
};

/// The device SGLang runs on: `--device`, else `get_device()` (serving_hook's
/// `handle_missing_default_values`): "cpu" on a CPU-only box, "cuda" on CUDA and ROCm.
pub fn device(ctx: &Ctx) -> String {
    if let Some(d) = ctx.cfg.str(f::device) {
        return d.to_string();
    }
    match ctx.hw.platform {
        Platform::Cpu => "cpu".into(),
        Platform::Cuda | Platform::Rocm => "cuda".into(),
    }
}

fn int(ctx: &Ctx, field: Field) -> i64 {
    ctx.cfg.int(field).unwrap_or(0)
}


/// `validate_hisparse`'s first check: the model class; when it passes, the rest of
/// `validate_hisparse` (`shared::hisparse_hook`).
fn hisparse_model(ctx: &mut Ctx) -> Step {
    let site_ref = site("hisparse_hook.validate_hisparse", "--enable-hisparse is only supported for DSA");
    // `index_topk` is read from the top-level config: known when it is the text config too. A
    // family inferred from the name alone does not decide a raise.
    let known = ctx.model_fact(site_ref, |m| {
        let raw = m.raw.filter(|r| r.text_config_key.is_none() && m.from != crate::models::FactsFrom::InferredFamily)?;
        Some((m.architecture?, raw.index_topk.is_some()))
    });
    let Some((arch, index_topk)) = known else { return Ok(()) };
    // `is_deepseek_dsa` (with `index_topk` in the config), `is_deepseek_v4`, `is_minimax_sparse`,
    // by the config's first architecture: the release's lists (none known without them)
    let Some(lists) = ctx.release.model_lists() else {
        ctx.model_config(site_ref);
        return Ok(());
    };
    let named = |list: &[String]| list.iter().any(|a| a == arch);
    let dsa = named(&lists.dsa_architectures_with_index_topk) && index_topk;
    // MiniMax M3 sparse models take HiSparse after 0.5.18
    let m3 = arch.starts_with("MiniMaxM3Sparse");
    if dsa || ((named(&lists.deepseek_v4_architectures) || named(&lists.minimax_sparse_architectures)) && !(m3 && crate::rules::shared::hisparse_hook::hisparse_0_5_18(ctx))) {
        return crate::rules::shared::hisparse_hook::validate_hisparse_after_model_class(ctx, arch);
    }
    let fixes = vec![ctx.fix_remove("Drop --enable-hisparse", f::enable_hisparse, Applicability::Safe)];
    ctx.raise(&HISPARSE_MODEL, &[], &[f::enable_hisparse], fixes)
}

/// `check_server_args`, up to its call to `lora_hook.check_lora_server_args`.
/// SGLang only gets here when resolution raised nothing; if it did, the checks still run
/// (their errors are worth showing), and `Ctx::warn` drops the warnings SGLang never prints.
pub fn check_server_args(ctx: &mut Ctx) -> Step {
    let tp = int(ctx, f::tp_size);
    let pp = int(ctx, f::pp_size);
    let nnodes = int(ctx, f::nnodes);

    if !ctx.cfg.is(f::ep_join_mode, "scale") && nnodes == 0 {
        // `(tp_size * pp_size) % nnodes` in the assert itself.
        let fix = ctx.fix_set("Run on one node (--nnodes 1)", f::nnodes, "1", Applicability::Safe);
        ctx.raise(&NNODES_ZERO, &[], &[f::nnodes], vec![fix])?;
    }
    if !ctx.cfg.is(f::ep_join_mode, "scale") && nnodes != 0 && (tp * pp).rem_euclid(nnodes) != 0 {
        let mut fixes = vec![];
        let per = (tp * pp + nnodes - 1) / nnodes.max(1);
        if pp == 1 && nnodes > 0 {
            fixes.push(ctx.fix_set(
                format!("Use --tp-size {} ({} per node)", per * nnodes, per),
                f::tp_size,
                &(per * nnodes).to_string(),
                Applicability::Unsafe,
            ));
        }
        fixes.push(ctx.fix_set("Run on one node", f::nnodes, "1", Applicability::Unsafe));
        ctx.raise(&TP_NOT_DIVISIBLE_BY_NNODES, &[], &[f::tp_size, f::nnodes, f::pp_size], fixes)?;
    }

    let pmb = ctx.cfg.get(f::pp_max_micro_batch_size).clone();
    if pmb.as_int().is_some_and(|v| v < 1) {
        let fixes = vec![
            ctx.fix_remove("Let SGLang compute it (drop the flag)", f::pp_max_micro_batch_size, Applicability::Safe),
            ctx.fix_set("Use 1", f::pp_max_micro_batch_size, "1", Applicability::Unsafe),
        ];
        ctx.raise(
            &PP_MAX_MICRO_BATCH_SIZE,
            &[("cfg.pp_max_micro_batch_size", &pmb.py_str())],
            &[f::pp_max_micro_batch_size],
            fixes,
        )?;
    }

    if ctx.cfg.truthy(f::disable_cuda_graph_padding) && ctx.cfg.truthy(f::enable_torch_compile) {
        let fixes = vec![
            ctx.fix_remove("Drop --disable-cuda-graph-padding", f::disable_cuda_graph_padding, Applicability::Unsafe),
            ctx.fix_remove("Drop --enable-torch-compile", f::enable_torch_compile, Applicability::Unsafe),
        ];
        ctx.raise(&CUDA_GRAPH_PADDING_TORCH_COMPILE, &[], &[f::disable_cuda_graph_padding, f::enable_torch_compile], fixes)?;
    }

    if pp > 1 {
        if PP_OVERLAP_OR_SPEC.applies_to(ctx.release) {
            check_pipeline_parallel_inline(ctx)?;
        } else {
            check_pipeline_parallel_compat(ctx)?;
        }
    }

    if MULTI_NODE_DP_WITHOUT_DP_ATTENTION.applies_to(ctx.release) {
        // 0.5.18: replicas may span nodes with DP attention
        if int(ctx, f::dp_size) > 1 && nnodes != 1 && !ctx.cfg.truthy(f::enable_dp_attention) {
            let fixes = vec![
                ctx.fix_add_flag("Add --enable-dp-attention", f::enable_dp_attention, Applicability::Unsafe),
                ctx.fix_remove("Drop --dp-size", f::dp_size, Applicability::Unsafe),
            ];
            ctx.raise(&MULTI_NODE_DP_WITHOUT_DP_ATTENTION, &[], &[f::dp_size, f::nnodes], fixes)?;
        }
    } else if int(ctx, f::dp_size) > 1 && nnodes != 1 {
        let fix = ctx.fix_remove("Drop --dp-size (use --attn-dp-size across nodes instead)", f::dp_size, Applicability::Unsafe);
        ctx.raise(&MULTI_NODE_DP, &[], &[f::dp_size, f::nnodes], vec![fix])?;
    }

    if int(ctx, f::base_gpu_id) < 0 {
        let fix = ctx.fix_set("Start at GPU 0", f::base_gpu_id, "0", Applicability::Unsafe);
        ctx.raise(&BASE_GPU_ID_NEGATIVE, &[], &[f::base_gpu_id], vec![fix])?;
    }
    if int(ctx, f::gpu_id_step) < 1 {
        let fix = ctx.fix_set("Use consecutive GPUs", f::gpu_id_step, "1", Applicability::Unsafe);
        ctx.raise(&GPU_ID_STEP, &[], &[f::gpu_id_step], vec![fix])?;
    }

    if let Some(m) = ctx.cfg.int(f::moe_dense_tp_size) {
        if m != 1 && m != tp {
            let fixes = vec![
                ctx.fix_set("Use 1", f::moe_dense_tp_size, "1", Applicability::Unsafe),
                ctx.fix_remove("Drop --moe-dense-tp-size (dense layers use --tp-size)", f::moe_dense_tp_size, Applicability::Unsafe),
            ];
            ctx.raise(&MOE_DENSE_TP_SIZE, &[], &[f::moe_dense_tp_size, f::tp_size], fixes)?;
        }
    }

    // served_model_name defaults to model_path (serving_hook.handle_missing_default_values).
    let served = ctx
        .cfg
        .str(f::served_model_name)
        .or_else(|| ctx.cfg.str(f::model_path))
        .unwrap_or_default()
        .to_string();
    let lower = served.to_lowercase();
    let runai = ["s3://", "gs://", "az://"].iter().any(|p| lower.starts_with(p));
    if !runai && served.contains(':') {
        let fixed = served.replace(':', "-");
        let fix = ctx.fix_set(
            format!("Serve it as '{fixed}'"),
            f::served_model_name,
            &shell_quote(&fixed),
            Applicability::Safe,
        );
        ctx.raise(
            &SERVED_MODEL_NAME_COLON,
            &[("cfg.served_model_name", &served)],
            &[f::served_model_name, f::model_path],
            vec![fix],
        )?;
    }

    Ok(())
}

/// The rest of `check_server_args`, after its call to `lora_hook.check_lora_server_args`.
pub fn check_server_args_after_lora(ctx: &mut Ctx) -> Step {
    let tp = int(ctx, f::tp_size);
    let pp = int(ctx, f::pp_size);

    // 0.5.18: any speculative algorithm still set refuses mixed chunk.
    if MIXED_CHUNK_WITH_SPEC.applies_to(ctx.release) {
        if ctx.cfg.truthy(f::enable_mixed_chunk) && !ctx.cfg.is_none(f::speculative_algorithm) {
            let fixes = vec![
                ctx.fix_remove("Drop --enable-mixed-chunk", f::enable_mixed_chunk, Applicability::Unsafe),
                ctx.fix_remove("Drop --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe),
            ];
            ctx.raise(&MIXED_CHUNK_WITH_SPEC, &[], &[f::enable_mixed_chunk, f::speculative_algorithm], fixes)?;
        }
    }
    // The speculative hook turned mixed chunk off for the algorithms that do not support it
    // (NGRAM, STANDALONE, UNO, FROZEN_KV_MTP); "NONE" (SpeculativeAlgorithm.NONE) is left.
    else if ctx.cfg.truthy(f::enable_mixed_chunk) {
        if let Some(alg) = ctx.cfg.str(f::speculative_algorithm).map(str::to_string) {
            let known = ["DFLASH", "UNO", "DSPARK", "EAGLE", "EAGLE3", "FROZEN_KV_MTP", "STANDALONE", "NGRAM", "NONE"];
            if known.contains(&alg.to_uppercase().as_str()) && !matches!(alg.to_uppercase().as_str(), "EAGLE" | "EAGLE3" | "DFLASH" | "DSPARK") {
                let fixes = vec![
                    ctx.fix_remove("Drop --enable-mixed-chunk", f::enable_mixed_chunk, Applicability::Unsafe),
                    ctx.fix_remove("Drop --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe),
                ];
                ctx.raise(&MIXED_CHUNK_SPEC, &[("cfg.speculative_algorithm", &alg)], &[f::enable_mixed_chunk, f::speculative_algorithm], fixes)?;
            }
        }
    }

    check_chunked_prefill(ctx)?;

    if ctx.cfg.truthy(f::enable_pdmux) {
        if pp != 1 {
            let fix = ctx.fix_set("Use --pp-size 1", f::pp_size, "1", Applicability::Unsafe);
            ctx.raise(&PDMUX_PP, &[], &[f::pp_size, f::enable_pdmux], vec![fix])?;
        }
        match final_chunked_prefill_size(ctx) {
            Some(-1) => {}
            Some(_) => {
                let fix = ctx.fix_set("Turn chunked prefill off", f::chunked_prefill_size, "-1", Applicability::Safe);
                ctx.raise(&PDMUX_CHUNKED_PREFILL, &[], &[f::chunked_prefill_size, f::enable_pdmux], vec![fix])?;
            }
            None => {
                ctx.skip(site("validation_hook.check_server_args", "PD-Multiplexing is not compatible with chunked"), NotRunReason::NotImplemented);
                return Ok(());
            }
        }
        if !ctx.cfg.is(f::disaggregation_mode, "null") {
            let fixes = vec![
                ctx.fix_remove("Drop --disaggregation-mode", f::disaggregation_mode, Applicability::Unsafe),
                ctx.fix_remove("Drop --enable-pdmux", f::enable_pdmux, Applicability::Unsafe),
            ];
            ctx.raise(&PDMUX_DISAGGREGATION, &[], &[f::disaggregation_mode, f::enable_pdmux], fixes)?;
        }
        if !overlap_schedule_disabled(ctx) {
            let fix = ctx.fix_add_flag("Add --disable-overlap-schedule", f::disable_overlap_schedule, Applicability::Safe);
            ctx.raise(&PDMUX_OVERLAP, &[], &[f::enable_pdmux], vec![fix])?;
        }
        // The torch-version warning embeds the installed torch version: not reproduced.
    }

    for (field, min, rule) in [
        (f::tokenizer_worker_num, 1, &TOKENIZER_WORKER_NUM),
        (f::detokenizer_worker_num, 1, &DETOKENIZER_WORKER_NUM),
        (f::mm_processor_worker_num, 0, &MM_PROCESSOR_WORKER_NUM),
        (f::mm_io_worker_num, 0, &MM_IO_WORKER_NUM),
    ] {
        if ctx.cfg.int(field).is_some_and(|v| v < min) {
            let fix = ctx.fix_set(format!("Use {min}"), field, &min.to_string(), Applicability::Safe);
            let fix2 = ctx.fix_remove("Drop the flag (use the default)", field, Applicability::Safe);
            ctx.raise(rule, &[], &[field], vec![fix, fix2])?;
        }
    }
    validate_buckets_rule(ctx, "--prompt-tokens-buckets", f::prompt_tokens_buckets)?;
    validate_buckets_rule(ctx, "--generation-tokens-buckets", f::generation_tokens_buckets)?;

    let priority = ctx.cfg.truthy(f::enable_priority_scheduling);
    if priority {
        let policy = ctx.cfg.get(f::schedule_policy).clone();
        if !matches!(policy.as_str(), Some("fcfs") | Some("lof")) {
            let fixes = vec![
                ctx.fix_set("Use --schedule-policy fcfs", f::schedule_policy, "fcfs", Applicability::Unsafe),
                ctx.fix_set("Use --schedule-policy lof", f::schedule_policy, "lof", Applicability::Unsafe),
            ];
            ctx.raise(
                &PRIORITY_SCHEDULE_POLICY,
                &[("cfg.schedule_policy", &policy.py_str())],
                &[f::schedule_policy, f::enable_priority_scheduling],
                fixes,
            )?;
        }
        if ctx.cfg.is_none(f::default_priority_value) {
            let fix = ctx.fix_set("Give requests without a priority 0", f::default_priority_value, "0", Applicability::Unsafe);
            ctx.warn(&W_PRIORITY_NO_DEFAULT, &[], &[f::enable_priority_scheduling], vec![fix]);
        }
    } else {
        if ctx.cfg.truthy(f::disable_priority_preemption) {
            let fix = ctx.fix_remove("Drop --disable-priority-preemption", f::disable_priority_preemption, Applicability::Safe);
            ctx.warn(&W_PRIORITY_PREEMPTION_NO_EFFECT, &[], &[f::disable_priority_preemption], vec![fix]);
        }
        if !ctx.cfg.is_none(f::default_priority_value) {
            let fix = ctx.fix_remove("Drop --default-priority-value", f::default_priority_value, Applicability::Safe);
            ctx.warn(&W_DEFAULT_PRIORITY_NO_EFFECT, &[], &[f::default_priority_value], vec![fix]);
        }
    }
    if ctx.cfg.is(f::retraction_policy, "priority") && !priority {
        let fixes = vec![
            ctx.fix_add_flag("Enable priority scheduling", f::enable_priority_scheduling, Applicability::Unsafe),
            ctx.fix_remove("Drop --retraction-policy priority", f::retraction_policy, Applicability::Unsafe),
        ];
        ctx.raise(&RETRACTION_PRIORITY, &[], &[f::retraction_policy], fixes)?;
    }

    // overrides._hisparse_validation -> hisparse_hook.validate_hisparse: its first check needs
    // the model's hf_config (is it a DSA / DeepSeek-V4 / MiniMax-M3 model?).
    if ctx.cfg.truthy(f::enable_hisparse) {
        hisparse_model(ctx)?;
    }

    // handle_data_parallelism multiplies it by 0.3 under attention DP: the sign is unchanged.
    if ctx.cfg.float(f::schedule_conservativeness).is_some_and(|v| v < 0.0) {
        let fix = ctx.fix_set("Use the default 1.0", f::schedule_conservativeness, "1.0", Applicability::Unsafe);
        ctx.raise(&SCHEDULE_CONSERVATIVENESS, &[], &[f::schedule_conservativeness], vec![fix])?;
    }

    // None of the hardware profiles is an Ascend NPU.
    if ctx.cfg.is(f::model_impl, "mindspore") {
        let fix = ctx.fix_set("Use --model-impl auto", f::model_impl, "auto", Applicability::Unsafe);
        ctx.raise(&MINDSPORE_NPU, &[], &[f::model_impl], vec![fix])?;
    }

    let dev = device(ctx);
    if ctx.cfg.is(f::load_format, "instanttensor") && dev != "cuda" {
        let fix = ctx.fix_set("Use --load-format auto", f::load_format, "auto", Applicability::Unsafe);
        ctx.raise(
            &INSTANTTENSOR_DEVICE,
            &[("cfg.device", &PyValue::Str(dev.clone()).repr())],
            &[f::load_format, f::device],
            vec![fix],
        )?;
    }

    if !ctx.cfg.truthy(f::tokenizer_metrics_custom_labels_header) && ctx.cfg.truthy(f::tokenizer_metrics_allowed_custom_labels) {
        let fix = ctx.fix_set(
            "Read labels from the default x-custom-labels header",
            f::tokenizer_metrics_custom_labels_header,
            
            "x-custom-labels",
            Applicability::Safe,
        );
        ctx.raise(&METRICS_LABELS_HEADER, &[], &[f::tokenizer_metrics_custom_labels_header, f::tokenizer_metrics_allowed_custom_labels], vec![fix])?;
    }
    if ctx.cfg.truthy(f::export_metrics_to_file) && ctx.cfg.is_none(f::export_metrics_to_file_dir) {
        let fix = ctx.fix_set("Write them to ./metrics", f::export_metrics_to_file_dir, "./metrics", Applicability::Unsafe);
        ctx.raise(&EXPORT_METRICS_DIR, &[], &[f::export_metrics_to_file], vec![fix])?;
    }

    // check_two_batch_overlap. moe_a2a_backend may still be rewritten by moe hooks that are not
    // modelled (only with --enable-waterfill, which forces deepep).
    if ctx.cfg.truthy(f::enable_two_batch_overlap) && ctx.cfg.is(f::moe_a2a_backend, "none") && !tbo_has_dp_or_cp(ctx) {
        if ctx.cfg.truthy(f::enable_waterfill) {
            ctx.skip(site("validation_hook.check_two_batch_overlap", "When enabling two batch overlap without an"), NotRunReason::NotImplemented);
        } else {
            let fix = ctx.fix_remove("Drop --enable-two-batch-overlap", f::enable_two_batch_overlap, Applicability::Unsafe);
            ctx.raise(&TWO_BATCH_OVERLAP, &[], &[f::enable_two_batch_overlap, f::moe_a2a_backend], vec![fix])?;
        }
    }

    if ctx.cfg.truthy(f::enable_quant_communications) {
        let fix = ctx.fix_remove("Drop --enable-quant-communications", f::enable_quant_communications, Applicability::Safe);
        if tp == 1 {
            ctx.raise(&QUANT_COMM_TP, &[], &[f::enable_quant_communications, f::tp_size], vec![fix.clone()])?;
        }
        if dev != "npu" {
            ctx.raise(&QUANT_COMM_NPU, &[], &[f::enable_quant_communications], vec![fix])?;
        }
    }

    if ctx.cfg.is(f::sampling_backend, "intel_xpu") && dev != "xpu" {
        let fix = ctx.fix_remove("Drop --sampling-backend (use the platform default)", f::sampling_backend, Applicability::Safe);
        ctx.raise(
            &SAMPLING_BACKEND_XPU,
            &[("device", &dev)],
            &[f::sampling_backend],
            vec![fix],
        )?;
    }

    let grpc = ctx.cfg.get(f::grpc_port).clone();
    let port = ctx.cfg.get(f::port).clone();
    let grpc_mode = ctx.cfg.truthy(f::smg_grpc_mode) || ctx.cfg.truthy(f::grpc_mode);
    if !grpc_mode && !grpc.is_none() && grpc == port {
        let next = port.as_int().map(|p| (p + 1).to_string()).unwrap_or_else(|| "30001".into());
        let fix = ctx.fix_set(format!("Serve gRPC on {next}"), f::grpc_port, &next, Applicability::Unsafe);
        ctx.raise(
            &GRPC_PORT_EQUALS_PORT,
            &[("cfg.grpc_port", &grpc.py_str()), ("cfg.port", &port.py_str())],
            &[f::grpc_port, f::port],
            vec![fix],
        )?;
    }

    if let Some(l) = ctx.cfg.get(f::gc_threshold).as_list() {
        if !l.is_empty() && l.len() > 3 {
            let first: Vec<String> = l.iter().take(3).map(PyValue::py_str).collect();
            let fix = ctx.fix_set("Keep the first three thresholds", f::gc_threshold, &first.join(" "), Applicability::Unsafe);
            ctx.raise(&GC_THRESHOLD_LEN, &[], &[f::gc_threshold], vec![fix])?;
        }
    }

    if int(ctx, f::kv_canary_sweep_interval) > 0 && ctx.cfg.is(f::kv_canary, "none") {
        let fixes = vec![
            ctx.fix_set("Log canary violations", f::kv_canary, "log", Applicability::Unsafe),
            ctx.fix_remove("Drop --kv-canary-sweep-interval", f::kv_canary_sweep_interval, Applicability::Unsafe),
        ];
        ctx.raise(&KV_CANARY_SWEEP, &[], &[f::kv_canary_sweep_interval, f::kv_canary], fixes)?;
    }

    check_watermark_server_args(ctx, &dev)?;
    check_load_publish_args(ctx)
}

/// 0.5.18's pipeline-parallel asserts, inline in `check_server_args` (pp_size > 1):
/// `disable_overlap_schedule and speculative_algorithm is None`, then `min_free_slots_delay is None`.
fn check_pipeline_parallel_inline(ctx: &mut Ctx) -> Step {
    // disable_overlap_schedule: overrides._pipeline_parallel_overlap_disable (0.5.18's
    // _handle_pipeline_parallelism) sets it whenever pp_size > 1.
    if !ctx.cfg.is_none(f::speculative_algorithm) || !overlap_schedule_disabled(ctx) {
        let fixes = vec![
            ctx.fix_remove("Drop --speculative-algorithm (keep pipeline parallelism)", f::speculative_algorithm, Applicability::Unsafe),
            ctx.fix_set("Use --pp-size 1 (keep speculative decoding)", f::pp_size, "1", Applicability::Unsafe),
        ];
        ctx.raise(&PP_OVERLAP_OR_SPEC, &[], &[f::speculative_algorithm, f::pp_size], fixes)?;
    }
    if !ctx.cfg.is_none(f::min_free_slots_delay) {
        let fix = ctx.fix_remove("Drop --min-free-slots-delay", f::min_free_slots_delay, Applicability::Unsafe);
        ctx.raise(&PP_MIN_FREE_SLOTS_DELAY_CHECK, &[], &[f::min_free_slots_delay, f::pp_size], vec![fix])?;
    }
    Ok(())
}

/// `check_pipeline_parallel_compat` (pp_size > 1).
fn check_pipeline_parallel_compat(ctx: &mut Ctx) -> Step {
    // disable_overlap_schedule: overrides._pipeline_parallel_overlap_disable sets it whenever
    // pp_size > 1, so the first assert cannot fire. The algorithm is the speculative hook's
    // (upper-cased, NEXTN -> EAGLE).
    let pp_spec = env_bool(ctx, "SGLANG_ENABLE_PP_SPEC");
    match ctx.cfg.str(f::speculative_algorithm).map(str::to_string).as_deref() {
        None => {}
        // the speculative hook refused pipeline-parallel DSPARK outside PD prefill already
        Some("DSPARK") if pp_spec => {
            let fix = ctx.fix_unset_env("Unset SGLANG_ENABLE_PP_SPEC", "SGLANG_ENABLE_PP_SPEC", Applicability::Safe);
            ctx.raise(&PP_SPEC_DSPARK, &[], &[f::speculative_algorithm, f::pp_size], vec![fix])?;
        }
        Some("DSPARK") => {}
        Some(alg) => {
            if alg.to_uppercase() != "EAGLE" || ctx.cfg.truthy(f::enable_multi_layer_eagle) {
                let fixes = vec![
                    ctx.fix_remove("Drop --speculative-algorithm (keep pipeline parallelism)", f::speculative_algorithm, Applicability::Unsafe),
                    ctx.fix_set(format!("Use --pp-size 1 (keep {alg} speculation)"), f::pp_size, "1", Applicability::Unsafe),
                ];
                ctx.raise(&PP_SPEC_EAGLE_ONLY, &[], &[f::speculative_algorithm, f::pp_size], fixes)?;
            }
            if pp_spec {
                if !ctx.cfg.is(f::disaggregation_mode, "null") {
                    let fix = ctx.fix_remove("Drop --disaggregation-mode", f::disaggregation_mode, Applicability::Unsafe);
                    ctx.raise(&PP_SPEC_DISAGGREGATION, &[], &[f::disaggregation_mode, f::pp_size], vec![fix])?;
                }
                if ctx.cfg.truthy(f::speculative_adaptive) {
                    let fix = ctx.fix_remove("Drop --speculative-adaptive", f::speculative_adaptive, Applicability::Safe);
                    ctx.raise(&PP_SPEC_ADAPTIVE, &[], &[f::speculative_adaptive, f::pp_size], vec![fix])?;
                }
                if attn_dp_enabled(ctx) {
                    let fix = ctx.fix_remove("Drop --attn-dp-size", f::attn_dp_size, Applicability::Unsafe);
                    ctx.raise(&PP_SPEC_ATTN_DP, &[], &[f::attn_dp_size, f::pp_size], vec![fix])?;
                }
            } else if !ctx.cfg.is(f::disaggregation_mode, "prefill") {
                let fixes = vec![
                    ctx.fix_set("Use --pp-size 1", f::pp_size, "1", Applicability::Unsafe),
                    ctx.fix_remove("Drop --speculative-algorithm", f::speculative_algorithm, Applicability::Unsafe),
                ];
                ctx.raise(&PP_SPEC_PREFILL_ONLY, &[], &[f::pp_size, f::speculative_algorithm], fixes)?;
            }
        }
    }
    if !ctx.cfg.is_none(f::min_free_slots_delay) {
        let fix = ctx.fix_remove("Drop --min-free-slots-delay", f::min_free_slots_delay, Applicability::Unsafe);
        ctx.raise(&PP_MIN_FREE_SLOTS_DELAY, &[], &[f::min_free_slots_delay, f::pp_size], vec![fix])?;
    }
    Ok(())
}

/// `check_two_batch_overlap`'s way out without an all-to-all backend: attention DP; in 0.5.18
/// (whose message asks for --enable-dp-attention) `enable_dp_attention`, or HIP's DSA prefill
/// context parallelism in round-robin-split mode.
fn tbo_has_dp_or_cp(ctx: &Ctx) -> bool {
    let asks_enable_dp_attention = ctx
        .release
        .raise_site(&site("validation_hook.check_two_batch_overlap", "When enabling two batch overlap without an EP a2a backend (moe_a2a_backend='none'), --enable-dp-attention is required"))
        .is_some();
    if asks_enable_dp_attention {
        let cp_tbo = ctx.hw.platform == Platform::Rocm
            && ctx.cfg.truthy(f::enable_dsa_prefill_context_parallel)
            && ctx.cfg.is(f::dsa_prefill_cp_mode, "round-robin-split");
        return ctx.cfg.truthy(f::enable_dp_attention) || cp_tbo;
    }
    attn_dp_enabled(ctx)
}

/// Whether the overlap scheduler ends up disabled: the flag, or the overrides that force it
/// (`_pipeline_parallel_overlap_disable`, `_dllm_overlap_disable`, `_sparse_head_overlap_disable`).
fn overlap_schedule_disabled(ctx: &Ctx) -> bool {
    ctx.cfg.truthy(f::disable_overlap_schedule)
        || ctx.cfg.int(f::pp_size).unwrap_or(1) > 1
        || !ctx.cfg.is_none(f::dllm_algorithm)
        || ctx.env("SGLANG_EMBEDDINGS_SPARSE_HEAD").is_some()
}

/// The chunked prefill size `check_server_args` sees, or None when an unmodelled hook decides it.
/// - `memory_hook.handle_gpu_memory_settings`: unset -> by GPU memory (per-GPU MiB).
/// - `attention_hook.handle_multi_item_scoring`: --enable-mis -> -1.
/// - `parallel_hook.handle_data_parallelism`: attention DP -> `// attn_dp_size`.
/// - `kv_shard_hook.handle_kv_cache_sharding` rounds it (not modelled -> None).
pub fn final_chunked_prefill_size(ctx: &Ctx) -> Option<i64> {
    if ctx.cfg.truthy(f::enable_kv_cache_sharding) {
        return None;
    }
    if ctx.cfg.truthy(f::enable_mis) {
        // -1 (and -1 // attn_dp_size stays -1)
        return Some(-1);
    }
    if ctx.cfg.is_unknown(f::chunked_prefill_size) {
        return None; // e.g. a CPU host's memory per NUMA node (memory_hook)
    }
    let current = ctx.cfg.get(f::chunked_prefill_size);
    let explicit = ctx.cfg.setting(f::chunked_prefill_size).map(|s| &s.value);
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
            crate::rules::shared::runtime_context::default_chunked_prefill_size(ctx.hw.gpu_mem_mib)
        }
    };
    if ctx.cfg.truthy(f::enable_mis) {
        size = -1;
    }
    if attn_dp_enabled(ctx) {
        let dp = ctx.cfg.int(f::attn_dp_size).unwrap_or(1).max(1);
        size = size.div_euclid(dp);
    }
    Some(size)
}

/// The chunked-prefill / page-size assert.
fn check_chunked_prefill(ctx: &mut Ctx) -> Step {
    const SITE: SiteRef = site("validation_hook.check_server_args", "chunked_prefill_size must be divisible by");
    let Some(c) = final_chunked_prefill_size(ctx) else {
        ctx.skip(SITE, NotRunReason::NotImplemented);
        return Ok(());
    };
    if c <= 0 || ctx.cfg.is(f::disaggregation_mode, "decode") {
        return Ok(());
    }
    if !ctx.cfg.is_none(f::dllm_algorithm) {
        ctx.model_config(SITE); // overrides._dllm_page_size: the model's block size
        return Ok(());
    }
    // attention_hook and overrides._page_size_default have resolved page_size: when it is known
    // it is final. When it is not (a default backend chosen from the model may move it), the
    // logic below decides only where every backend's outcome agrees, from the page size given.
    let earlier_unknown = ctx.cfg.read_unknown();
    let page_final = !ctx.cfg.is_unknown(f::page_size) && !ctx.cfg.is_none(f::page_size);
    // overrides._page_size_default: 64 on ROCm with the vectorized_5d AITER layout, else 1.
    let p = match ctx.cfg.int(f::page_size) {
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
    if !earlier_unknown {
        // the outcomes below hold for every backend the model could make SGLang pick
        ctx.cfg.forget_reads();
    }
    if p == 0 {
        // `chunked_prefill_size % page_size` with a zero page size, unless an attention backend
        // constraint may still move it (then decided by the backend, not modelled).
        if !page_final && may_constrain_page_size(ctx) {
            ctx.skip(SITE, NotRunReason::NotImplemented);
            return Ok(());
        }
        let fix = ctx.fix_set("Use the default page size (--page-size 1)", f::page_size, "1", Applicability::Safe);
        ctx.raise(&PAGE_SIZE_ZERO, &[], &[f::page_size], vec![fix])?;
    }
    // Attention-backend constraints (overrides._mla_backend_page_constraints, _fa4_page_constraint,
    // _intel_xpu_page_constraint) can still move page_size to 64 or 128. The generic default
    // backend (model_override_base.get_default_attn_backend) is one of those only on SM100
    // (trtllm_mha / fa4); elsewhere only an explicit backend (or an NVFP4 KV cache, which
    // kv_cache_hook pairs with trtllm_mha) can move it. When it may move, decide only when
    // every outcome agrees.
    let may_move = !page_final && may_constrain_page_size(ctx);
    if !earlier_unknown {
        ctx.cfg.forget_reads();
    }
    if c % p == 0 && (!may_move || c % 128 == 0) {
        return Ok(());
    }
    if c % p != 0 && (!may_move || c % 64 != 0) {
        let mut fixes = vec![];
        // A multiple of the page size, and of 128 when a backend may still move the page size.
        let unit = if may_move { lcm(p, 128) } else { p };
        let rounded = (c / unit).max(1) * unit;
        if ctx.cfg.is_explicit(f::chunked_prefill_size) && !attn_dp_enabled(ctx) {
            fixes.push(ctx.fix_set(
                format!("Round the chunk size to {rounded}"),
                f::chunked_prefill_size,
                &rounded.to_string(),
                Applicability::Safe,
            ));
        }
        if ctx.cfg.is_explicit(f::page_size) {
            fixes.push(ctx.fix_remove("Drop --page-size (use the backend's default)", f::page_size, Applicability::Unsafe));
        }
        ctx.raise(&CHUNKED_PREFILL_PAGE_SIZE, &[], &[f::chunked_prefill_size, f::page_size, f::attn_dp_size], fixes)?;
    }
    ctx.model_config(SITE);
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
pub(crate) fn may_constrain_page_size(ctx: &Ctx) -> bool {
    const CONSTRAINING: &[&str] = &["flashmla", "trtllm_mla", "cutedsl_mla", "tokenspeed_mla", "trtllm_mha", "hpc_ops", "fa4", "intel_xpu"];
    let explicit_backend = [f::attention_backend, f::prefill_attention_backend, f::decode_attention_backend, f::speculative_draft_attention_backend]
        .iter()
        .any(|&d| ctx.cfg.str(d).is_some_and(|b| CONSTRAINING.contains(&b)));
    let backend_unset = ctx.cfg.is_none(f::attention_backend);
    let sm100 = ctx.hw.is_cuda() && ctx.hw.capability.0 == 10;
    let fp4_kv = ctx.cfg.str(f::kv_cache_dtype).is_some_and(|d| d.contains("fp4"));
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
fn validate_buckets_rule(ctx: &mut Ctx, arg: &str, field: Field) -> Step {
    let Some(list) = ctx.cfg.get(field).as_list().map(|l| l.iter().map(PyValue::py_str).collect::<Vec<_>>()) else {
        return Ok(());
    };
    let Some(rule) = list.first() else { return Ok(()) };
    let n = list.len();
    let d = [field];
    // SGLang's default buckets: right for any rule the user got wrong
    let default_buckets = |ctx: &Ctx| ctx.fix_set("Use the default buckets", field, "default", Applicability::Unsafe);
    match rule.as_str() {
        "tse" => {
            if n != 4 {
                ctx.raise(&BUCKETS_TSE_LEN, &[("arg_name", &arg), ("len(buckets_rule)", &n)], &d, vec![default_buckets(ctx)])?;
            }
            let parsed = (
                list.get(1).and_then(|s| py_float(s)),
                list.get(2).and_then(|s| py_float(s)),
                list.get(3).and_then(|s| py_int(s)),
            );
            let (Some(middle), Some(base), Some(count)) = parsed else {
                return ctx.raise(&BUCKETS_TSE_PARAMS, &[("arg_name", &arg)], &d, vec![default_buckets(ctx)]);
            };
            if base.is_nan() || base <= 1.0 {
                ctx.raise(&BUCKETS_TSE_BASE, &[("arg_name", &arg), ("base", &float_repr(base))], &d, vec![default_buckets(ctx)])?;
            }
            if count <= 0 {
                ctx.raise(&BUCKETS_TSE_COUNT, &[("arg_name", &arg), ("count", &count)], &d, vec![default_buckets(ctx)])?;
            }
            if middle.is_nan() || middle <= 0.0 {
                ctx.raise(&BUCKETS_TSE_MIDDLE, &[("arg_name", &arg), ("middle", &float_repr(middle))], &d, vec![default_buckets(ctx)])?;
            }
        }
        "default" => {
            if n != 1 {
                let fix = ctx.fix_set("Use the default rule alone", field, "default", Applicability::Safe);
                ctx.raise(&BUCKETS_DEFAULT_LEN, &[("arg_name", &arg), ("len(buckets_rule)", &n)], &d, vec![fix])?;
            }
        }
        "custom" => {
            if n < 2 {
                ctx.raise(&BUCKETS_CUSTOM_LEN, &[("arg_name", &arg)], &d, vec![default_buckets(ctx)])?;
            }
            let mut values = Vec::new();
            for s in list.iter().skip(1) {
                match py_float(s) {
                    Some(v) => values.push(v),
                    None => ctx.raise(&BUCKETS_CUSTOM_NUMERIC, &[("arg_name", &arg)], &d, vec![default_buckets(ctx)])?,
                }
            }
            let dup = values.iter().enumerate().any(|(i, a)| values.iter().skip(i + 1).any(|b| a == b));
            // the bucket values as written, with those `keep` refuses left out
            let custom_without = |keep: &dyn Fn(usize, f64) -> bool| -> Vec<String> {
                let kept = list.iter().skip(1).zip(&values).enumerate().filter(|(i, (_, v))| keep(*i, **v)).map(|(_, (s, _))| s.clone());
                std::iter::once("custom".to_string()).chain(kept).collect()
            };
            if dup {
                let words = custom_without(&|i, v| !values.iter().take(i).any(|w| *w == v));
                let fixes = vec![ctx.fix_set("List each bucket value once", field, &words.join(" "), Applicability::Safe), default_buckets(ctx)];
                ctx.raise(&BUCKETS_CUSTOM_DUPLICATES, &[("arg_name", &arg)], &d, fixes)?;
            }
            if !values.iter().all(|v| *v >= 0.0) {
                let words = custom_without(&|_, v| v >= 0.0);
                let mut fixes = Vec::new();
                if words.len() > 1 {
                    fixes.push(ctx.fix_set("Drop the negative bucket values", field, &words.join(" "), Applicability::Unsafe));
                }
                fixes.push(default_buckets(ctx));
                ctx.raise(&BUCKETS_CUSTOM_NEGATIVE, &[("arg_name", &arg)], &d, fixes)?;
            }
        }
        other => {
            let fix = ctx.fix_set("Use the default buckets", field, "default", Applicability::Unsafe);
            ctx.raise(
                &BUCKETS_RULE_TYPE,
                &[("arg_name", &arg), ("rule", &other)],
                &d,
                vec![fix],
            )?;
        }
    }
    Ok(())
}

/// `check_watermark_server_args`. The key/window/probability fields come from the
/// --watermark-config file (serving_hook.handle_watermark_config); without a file they keep
/// their defaults, which pass.
fn check_watermark_server_args(ctx: &mut Ctx, dev: &str) -> Step {
    use crate::rules::shared::json_fix::watermark_config_without as without;
    let enabled = ctx.cfg.truthy(f::enable_watermark);
    if let Some(source) = ctx.cfg.str(f::watermark_config) {
        if !source.trim_start().starts_with('{') {
            // A file path: handle_watermark_config reads it (and may raise) before this.
            ctx.skip(site("validation_hook.check_watermark_server_args", "--watermark-config requires --enable-watermark"), NotRunReason::Files);
            return Ok(());
        }
        if !enabled {
            let fixes = vec![
                ctx.fix_add_flag("Add --enable-watermark", f::enable_watermark, Applicability::Unsafe),
                ctx.fix_remove("Drop --watermark-config", f::watermark_config, Applicability::Unsafe),
            ];
            ctx.raise(&WATERMARK_CONFIG_NEEDS_ENABLE, &[], &[f::watermark_config], fixes)?;
        }
    }
    if !enabled {
        return Ok(());
    }
    if dev != "cuda" {
        let fix = ctx.fix_remove("Drop --enable-watermark", f::enable_watermark, Applicability::Unsafe);
        ctx.raise(&WATERMARK_DEVICE, &[("cfg.device", &PyValue::Str(dev.into()).repr())], &[f::device, f::enable_watermark], vec![fix])?;
    }
    // The fields handle_watermark_config resolved from an inline --watermark-config (it already
    // rejected malformed keys and context windows), else the dataclass defaults.
    let key = !ctx.cfg.is_none(f::watermark_key);
    let key_b = !ctx.cfg.is_none(f::watermark_key_b);
    if key_b && !key {
        ctx.raise(&WATERMARK_KEY_B_NEEDS_KEY, &[], &[f::watermark_config], vec![without(ctx, &["key_b"]), crate::diagnostic::Fix::advice("Add a \"key\" to --watermark-config, or remove \"key_b\"")])?;
    }
    let mixing = ctx.cfg.float(f::watermark_mixing_probability).unwrap_or(0.5);
    if !(0.0 < mixing && mixing < 1.0) {
        ctx.raise(&WATERMARK_MIXING_RANGE, &[], &[f::watermark_config], vec![without(ctx, &["mixing_probability"]), crate::diagnostic::Fix::advice("Set \"mixing_probability\" in --watermark-config to a value between 0 and 1, e.g. 0.5")])?;
    }
    if !key_b && mixing != 0.5 {
        ctx.raise(&WATERMARK_MIXING_NEEDS_KEY_B, &[], &[f::watermark_config], vec![without(ctx, &["mixing_probability"]), crate::diagnostic::Fix::advice("Remove \"mixing_probability\" from --watermark-config, or add a \"key_b\"")])?;
    }
    let max_probability = ctx.cfg.float(f::watermark_max_probability).unwrap_or(1.0);
    if !(0.0 < max_probability && max_probability <= 1.0) {
        ctx.raise(&WATERMARK_MAX_PROBABILITY_RANGE, &[], &[f::watermark_config], vec![without(ctx, &["max_probability"]), crate::diagnostic::Fix::advice("Set \"max_probability\" in --watermark-config to a value in (0, 1], e.g. 1")])?;
    }
    if (ctx.cfg.truthy(f::watermark_default_enabled) || ctx.cfg.truthy(f::watermark_enforce_all)) && !key {
        ctx.raise(&WATERMARK_DEFAULTS_NEED_KEY, &[], &[f::watermark_config], vec![without(ctx, &["default_enabled", "enforce_all"]), crate::diagnostic::Fix::advice("Add a server \"key\" to --watermark-config")])?;
    }
    if ctx.cfg.truthy(f::enable_custom_logit_processor) {
        let fix = ctx.fix_remove("Drop --enable-custom-logit-processor", f::enable_custom_logit_processor, Applicability::Unsafe);
        ctx.raise(&WATERMARK_CUSTOM_LOGIT, &[], &[f::enable_custom_logit_processor], vec![fix])?;
    }
    let sb = ctx.cfg.get(f::sampling_backend).clone();
    if let Some(s) = sb.as_str() {
        if !matches!(s, "flashinfer" | "pytorch" | "ascend" | "intel_xpu") {
            let fix = ctx.fix_remove("Drop --sampling-backend (SGLang picks a built-in sampler)", f::sampling_backend, Applicability::Unsafe);
            ctx.raise(&WATERMARK_SAMPLING_BACKEND, &[("cfg.sampling_backend", &sb.repr())], &[f::sampling_backend], vec![fix])?;
        }
    }
    if !ctx.cfg.is_none(f::dllm_algorithm) {
        let fix = ctx.fix_remove("Drop --enable-watermark", f::enable_watermark, Applicability::Unsafe);
        ctx.raise(&WATERMARK_DLLM, &[], &[f::dllm_algorithm, f::enable_watermark], vec![fix])?;
    }
    if !ctx.cfg.is(f::disaggregation_mode, "null") {
        let fix = ctx.fix_remove("Drop --enable-watermark", f::enable_watermark, Applicability::Unsafe);
        ctx.raise(&WATERMARK_PD, &[], &[f::disaggregation_mode, f::enable_watermark], vec![fix])?;
    }
    // The algorithm as the speculative hook left it (upper-cased, NEXTN -> EAGLE).
    if let Some(alg) = ctx.cfg.str(f::speculative_algorithm).map(str::to_string) {
        if !matches!(alg.as_str(), "NGRAM" | "EAGLE" | "EAGLE3") {
            let fix = ctx.fix_remove("Drop --enable-watermark", f::enable_watermark, Applicability::Unsafe);
            ctx.raise(&WATERMARK_SPEC_ALGORITHM, &[("cfg.speculative_algorithm", &PyValue::Str(alg).repr())], &[f::speculative_algorithm, f::enable_watermark], vec![fix])?;
        }
        if ctx.cfg.int(f::pp_size).unwrap_or(1) > 1 {
            let fix = ctx.fix_remove("Drop --enable-watermark", f::enable_watermark, Applicability::Unsafe);
            ctx.raise(&WATERMARK_PP_SPEC, &[], &[f::pp_size, f::enable_watermark], vec![fix])?;
        }
    }
    if ctx.cfg.truthy(f::speculative_use_rejection_sampling) {
        let fix = ctx.fix_remove("Drop --speculative-use-rejection-sampling", f::speculative_use_rejection_sampling, Applicability::Unsafe);
        ctx.raise(&WATERMARK_REJECTION_SAMPLING, &[], &[f::speculative_use_rejection_sampling], vec![fix])?;
    }
    if ctx.env_bool("SGLANG_RUST_SERVER", false) {
        let fixes = vec![
            ctx.fix_unset_env("Unset SGLANG_RUST_SERVER (the Python server watermarks)", "SGLANG_RUST_SERVER", Applicability::Unsafe),
            ctx.fix_remove("Drop --enable-watermark", f::enable_watermark, Applicability::Unsafe),
        ];
        ctx.raise(&WATERMARK_RUST_SERVER, &[], &[f::enable_watermark], fixes)?;
    }
    Ok(())
}

/// `check_load_publish_args`.
fn check_load_publish_args(ctx: &mut Ctx) -> Step {
    let mode = ctx.cfg.str(f::load_publish_endpoint).unwrap_or("").trim().to_string();
    if mode.is_empty() || mode.eq_ignore_ascii_case("off") {
        return Ok(());
    }
    if !ctx.cfg.truthy(f::kv_events_config) {
        let fix = ctx.fix_remove("Drop --load-publish-endpoint", f::load_publish_endpoint, Applicability::Unsafe);
        ctx.raise(&LOAD_PUBLISH_NEEDS_KV_EVENTS, &[], &[f::load_publish_endpoint], vec![fix])?;
    }
    // KVEventsConfig.from_cli: pydantic's model_validate_json, its ValidationError text
    let text = ctx.cfg.str(f::kv_events_config).unwrap_or("").to_string();
    let cfg = match kv_events::from_cli(&text) {
        kv_events::FromCli::Ok(cfg) => cfg,
        kv_events::FromCli::Err(e) => {
            let fix = ctx.fix_remove("Drop --load-publish-endpoint", f::load_publish_endpoint, Applicability::Unsafe);
            return ctx.raise(&KV_EVENTS_CONFIG_NOT_PARSEABLE, &[("e", &e)], &[f::kv_events_config], vec![fix]);
        }
        kv_events::FromCli::Unknown => {
            ctx.skip(site("validation_hook.check_load_publish_args", "--kv-events-config is not parseable: {e}"), NotRunReason::NotImplemented);
            return Ok(());
        }
    };
    if cfg.publisher == "null" || cfg.endpoint.is_empty() {
        let fix = ctx.fix_remove("Drop --load-publish-endpoint", f::load_publish_endpoint, Applicability::Unsafe);
        ctx.raise(&LOAD_PUBLISH_INACTIVE_PUBLISHER, &[], &[f::kv_events_config, f::load_publish_endpoint], vec![fix])?;
    }
    let dp_size = num_dp_ranks(ctx);
    match kv_events::resolve_load_pub_range(Some(&cfg.endpoint), cfg.replay_endpoint.as_deref(), dp_size, &mode) {
        kv_events::LoadPubRange::Fine => Ok(()),
        kv_events::LoadPubRange::Reason(reason) => {
            let fix = ctx.fix_remove("Drop --load-publish-endpoint", f::load_publish_endpoint, Applicability::Unsafe);
            ctx.raise(&LOAD_PUBLISH_RANGE_UNUSABLE, &[("reason", &reason)], &[f::load_publish_endpoint, f::kv_events_config], vec![fix])
        }
        kv_events::LoadPubRange::Unknown => {
            ctx.skip(site("validation_hook.check_load_publish_args", "{reason}"), NotRunReason::NotImplemented);
            Ok(())
        }
    }
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
