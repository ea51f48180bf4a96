//! Rule metadata for `serving_hook.py` (checks live in `serving.rs`).

use super::super::Rule;
use crate::diagnostic::{Severity, Stage};

const FILE: &str = "sglang/srt/arg_groups/serving_hook.py";
const COMMON: &str = "sglang/srt/utils/common.py";
const WATERMARK: &str = "sglang/srt/sampling/watermarking/config.py";

macro_rules! rule {
    ($id:ident, $code:literal, $name:literal, $site:literal, $file:expr, $func:literal, $exc:literal,
     $tmpl:literal, $expl:literal, [$($flag:literal),*], $bad:expr, $good:expr) => {
        pub static $id: Rule = Rule {
            code: $code,
            name: $name,
            site: $site,
            file: $file,
            function: $func,
            since: "0.5.23",
            until: None,
            exception: $exc,
            severity: Severity::Error,
            stage: Stage::Resolve,
            template: $tmpl,
            explanation: $expl,
            flags: &[$($flag),*],
            example_bad: $bad,
            example_good: $good,
        };
    };
}

macro_rules! warning {
    ($id:ident, $code:literal, $name:literal, $func:literal, $tmpl:literal, $expl:literal, [$($flag:literal),*], $bad:expr, $good:expr) => {
        pub static $id: Rule = Rule {
            code: $code,
            name: $name,
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
            flags: &[$($flag),*],
            example_bad: $bad,
            example_good: $good,
        };
    };
}

rule!(SRV001, "SRV001", "media-url-max-size-negative", "utils.common.configure_media_url_security#1", COMMON, "configure_media_url_security", "ValueError",
    "media_url_max_file_size_mb must be non-negative",
    "The size limit for media downloaded from client-supplied URLs cannot be negative (0 is allowed).",
    ["--media-url-max-file-size-mb"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --media-url-max-file-size-mb -1",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --media-url-max-file-size-mb 64");
rule!(SRV002, "SRV002", "media-domain-empty", "utils.common._normalize_media_domain#2", COMMON, "_normalize_media_domain", "ValueError",
    "allowed media domains cannot be empty",
    "An entry of --allowed-media-domains is empty once surrounding spaces and trailing dots are removed.",
    ["--allowed-media-domains"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains example.com .",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains example.com");
rule!(SRV003, "SRV003", "media-domain-not-hostname", "utils.common._normalize_media_domain#3", COMMON, "_normalize_media_domain", "ValueError",
    "Invalid allowed media domain {domain!r}: provide a hostname only",
    "--allowed-media-domains takes host names, not URLs: a scheme (`://`), path, query, fragment or user part (`@`) is rejected.",
    ["--allowed-media-domains"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains https://images.example.com/",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains images.example.com");
rule!(SRV004, "SRV004", "media-domain-with-port", "utils.common._normalize_media_domain#4", COMMON, "_normalize_media_domain", "ValueError",
    "Invalid allowed media domain {domain!r}: ports are not supported",
    "A domain in --allowed-media-domains has a port; the allow-list matches host names only, on any port.",
    ["--allowed-media-domains"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains example.com:8080",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains example.com");
rule!(SRV005, "SRV005", "media-domain-invalid", "utils.common._normalize_media_domain#5", COMMON, "_normalize_media_domain", "ValueError",
    "Invalid allowed media domain {domain!r}",
    "A domain in --allowed-media-domains cannot be encoded as an IDNA host name, e.g. it has an empty label (`a..b`) or a label longer than 63 characters.",
    ["--allowed-media-domains"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains a..example.com",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains a.example.com");

rule!(SRV006, "SRV006", "watermark-config-too-large", "sampling.watermarking.config.load_watermark_config#1", WATERMARK, "load_watermark_config", "WatermarkConfigError",
    "watermark config exceeds 4096 bytes",
    "The watermark configuration (inline JSON or file) may be at most 4096 bytes.",
    ["--watermark-config"], "", "");
rule!(SRV007, "SRV007", "watermark-config-bad-json", "sampling.watermarking.config.load_watermark_config#2", WATERMARK, "load_watermark_config", "WatermarkConfigError",
    "failed to read watermark config JSON",
    "--watermark-config starts with `{`, so SGLang reads it as inline JSON, and it is not valid JSON.",
    ["--watermark-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{key: 1}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"key\": \"1f\"}'");
rule!(SRV008, "SRV008", "watermark-config-not-object", "sampling.watermarking.config.load_watermark_config#3", WATERMARK, "load_watermark_config", "WatermarkConfigError",
    "watermark config must be a JSON object",
    "The watermark configuration must be a JSON object of settings.",
    ["--watermark-config"], "", "");
rule!(SRV009, "SRV009", "watermark-config-unknown-field", "sampling.watermarking.config.load_watermark_config#4", WATERMARK, "load_watermark_config", "WatermarkConfigError",
    "watermark config contains unknown fields",
    "The watermark configuration may only hold key, key_b, context_window, mixing_probability, max_probability, default_enabled and enforce_all.",
    ["--watermark-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"seed\": 1}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"key\": \"1\"}'");
rule!(SRV010, "SRV010", "watermark-config-bad-key", "sampling.watermarking.config.load_watermark_config#5", WATERMARK, "load_watermark_config", "WatermarkConfigError",
    "{str(error)}",
    "A watermark key (key, key_b) must be a string of 1 to 16 hex digits, optionally prefixed with 0x.",
    ["--watermark-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"key\": \"xyz\"}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"key\": \"abc\"}'");
rule!(SRV011, "SRV011", "watermark-config-context-window", "sampling.watermarking.config.load_watermark_config#6", WATERMARK, "load_watermark_config", "WatermarkConfigError",
    "watermark config context_window must be an integer from 1 to 64",
    "The watermark context window (tokens hashed to seed the watermark) must be an integer between 1 and 64.",
    ["--watermark-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"context_window\": 0}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"context_window\": 4}'");
rule!(SRV012, "SRV012", "watermark-config-probability-not-number", "sampling.watermarking.config.load_watermark_config#7", WATERMARK, "load_watermark_config", "WatermarkConfigError",
    "watermark config {name} must be a number",
    "mixing_probability and max_probability in the watermark configuration must be JSON numbers.",
    ["--watermark-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"mixing_probability\": \"0.5\"}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"mixing_probability\": 0.5}'");
rule!(SRV013, "SRV013", "watermark-config-flag-not-boolean", "sampling.watermarking.config.load_watermark_config#8", WATERMARK, "load_watermark_config", "WatermarkConfigError",
    "watermark config {name} must be a boolean",
    "default_enabled and enforce_all in the watermark configuration must be JSON true or false.",
    ["--watermark-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"enforce_all\": 1}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"enforce_all\": true}'");

rule!(SRV014, "SRV014", "mm-preprocess-cache-negative", "serving_hook.handle_multimodal#1", FILE, "handle_multimodal", "ValueError",
    "mm_preprocess_cache_size_mb must be non-negative",
    "The multimodal preprocessing cache size cannot be negative.",
    ["--mm-preprocess-cache-size-mb"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --mm-preprocess-cache-size-mb -1",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --mm-preprocess-cache-size-mb 0");
rule!(SRV015, "SRV015", "mm-process-config-not-dict", "serving_hook.handle_multimodal#2", FILE, "handle_multimodal", "TypeError",
    "mm_process_config must be a dict, but got {type(cfg.mm_process_config)}",
    "--mm-process-config is parsed as JSON and must be an object (per-modality processor settings).",
    ["--mm-process-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --mm-process-config '[1]'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --mm-process-config '{}'");
rule!(SRV016, "SRV016", "mm-process-config-modality-not-dict", "serving_hook.handle_multimodal#3", FILE, "handle_multimodal", "TypeError",
    "mm_process_config['{key}'] must be a dict, but got {type(cfg.mm_process_config[key])}",
    "The image, video and audio entries of --mm-process-config must themselves be JSON objects.",
    ["--mm-process-config"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --mm-process-config '{\"image\": 1}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --mm-process-config '{\"image\": {}}'");

rule!(SRV017, "SRV017", "ssl-keyfile-without-certfile", "serving_hook.handle_ssl_validation#1", FILE, "handle_ssl_validation", "ValueError",
    "--ssl-keyfile requires --ssl-certfile to be specified as well.",
    "HTTPS needs both the private key and its certificate; only the key was given.",
    ["--ssl-keyfile", "--ssl-certfile"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --ssl-keyfile key.pem", "--model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(SRV018, "SRV018", "ssl-certfile-without-keyfile", "serving_hook.handle_ssl_validation#2", FILE, "handle_ssl_validation", "ValueError",
    "--ssl-certfile requires --ssl-keyfile to be specified as well.",
    "HTTPS needs both the certificate and its private key; only the certificate was given.",
    ["--ssl-certfile", "--ssl-keyfile"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --ssl-certfile cert.pem", "--model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(SRV019, "SRV019", "ssl-ca-certs-without-ssl", "serving_hook.handle_ssl_validation#3", FILE, "handle_ssl_validation", "ValueError",
    "--ssl-ca-certs has no effect without --ssl-certfile and --ssl-keyfile.",
    "A CA bundle is only used when the server itself serves HTTPS; SGLang rejects it rather than silently ignoring it.",
    ["--ssl-ca-certs"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --ssl-ca-certs ca.pem", "--model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(SRV020, "SRV020", "ssl-keyfile-password-without-ssl", "serving_hook.handle_ssl_validation#4", FILE, "handle_ssl_validation", "ValueError",
    "--ssl-keyfile-password has no effect without --ssl-certfile and --ssl-keyfile.",
    "A key password only matters when a key file and certificate are given.",
    ["--ssl-keyfile-password"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --ssl-keyfile-password secret", "--model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(SRV021, "SRV021", "ssl-refresh-without-ssl", "serving_hook.handle_ssl_validation#8", FILE, "handle_ssl_validation", "ValueError",
    "--enable-ssl-refresh requires --ssl-certfile and --ssl-keyfile to be specified.",
    "Certificate hot-reloading needs a certificate and key to watch.",
    ["--enable-ssl-refresh"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-ssl-refresh", "--model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(SRV022, "SRV022", "http-worker-reuseport-needs-workers", "serving_hook.handle_ssl_validation#9", FILE, "handle_ssl_validation", "ValueError",
    "--enable-http-worker-reuseport requires --tokenizer-worker-num > 1 and has no effect with --enable-http2.",
    "SO_REUSEPORT lets several tokenizer/HTTP workers share the port; with one worker, or with the HTTP/2 server, it does nothing and SGLang rejects it.",
    ["--enable-http-worker-reuseport", "--tokenizer-worker-num", "--enable-http2"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-http-worker-reuseport",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-http-worker-reuseport --tokenizer-worker-num 2");
rule!(SRV023, "SRV023", "http2-max-streams-range", "serving_hook.handle_ssl_validation#10", FILE, "handle_ssl_validation", "ValueError",
    "--http2-max-concurrent-streams must be between 1 and 4294967295.",
    "The HTTP/2 concurrent-stream limit must fit HTTP/2's 32-bit setting and be at least 1.",
    ["--http2-max-concurrent-streams", "--enable-http2"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-http2 --http2-max-concurrent-streams 0", "");
rule!(SRV024, "SRV024", "http2-window-range", "serving_hook.handle_ssl_validation#11", FILE, "handle_ssl_validation", "ValueError",
    "--http2-initial-connection-window-size must be between 1024 and 2147483647.",
    "The HTTP/2 connection flow-control window must be between 1 KiB and 2^31-1 bytes.",
    ["--http2-initial-connection-window-size", "--enable-http2"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-http2 --http2-initial-connection-window-size 100", "");
rule!(SRV025, "SRV025", "http2-needs-granian", "serving_hook.handle_ssl_validation#12", FILE, "handle_ssl_validation", "ValueError",
    "--enable-http2 requires the 'granian' package. Install it with: pip install \"sglang[http2]\"",
    "HTTP/2 is served by Granian, an optional extra that a plain `pip install sglang` does not include.",
    ["--enable-http2"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-http2", "--model-path meta-llama/Llama-3.1-8B-Instruct");

rule!(SRV026, "SRV026", "asr-buffer-not-positive", "serving_hook.handle_asr_validation#1", FILE, "handle_asr_validation", "ValueError",
    "--asr-max-buffer-seconds must be positive (got {cfg.asr_max_buffer_seconds}).",
    "The longest audio a transcription session may buffer must be at least 1 second.",
    ["--asr-max-buffer-seconds"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --asr-max-buffer-seconds 0",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --asr-max-buffer-seconds 60");
rule!(SRV027, "SRV027", "asr-sessions-not-positive", "serving_hook.handle_asr_validation#2", FILE, "handle_asr_validation", "ValueError",
    "--asr-max-concurrent-sessions must be positive (got {cfg.asr_max_concurrent_sessions}).",
    "At least one concurrent transcription session must be allowed.",
    ["--asr-max-concurrent-sessions"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --asr-max-concurrent-sessions 0",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --asr-max-concurrent-sessions 32");

rule!(SRV028, "SRV028", "fast-image-processor-conflict", "serving_hook.handle_deprecated_args#1", FILE, "handle_deprecated_args", "ValueError",
    "--disable-fast-image-processor conflicts with --image-processor-backend={cfg.image_processor_backend}.",
    "The deprecated --disable-fast-image-processor means the PIL image processor, which contradicts the backend chosen with --image-processor-backend.",
    ["--disable-fast-image-processor", "--image-processor-backend"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disable-fast-image-processor --image-processor-backend torchvision",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --image-processor-backend pil");
rule!(SRV029, "SRV029", "grpc-timeout-not-positive", "serving_hook.handle_deprecated_args#2", FILE, "handle_deprecated_args", "ValueError",
    "--grpc-response-timeout-secs must be positive",
    "The gRPC response timeout must be at least 1 second.",
    ["--grpc-response-timeout-secs"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-response-timeout-secs 0",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-response-timeout-secs 300");
rule!(SRV030, "SRV030", "grpc-port-range", "serving_hook.handle_deprecated_args#3", FILE, "handle_deprecated_args", "ValueError",
    "--grpc-port / SGLANG_GRPC_PORT ({cfg.grpc_port}) must be between 1 and 65535",
    "The gRPC port (from --grpc-port, SGLANG_GRPC_PORT, or --port + 10000 for the legacy --smg-grpc-mode/--grpc-mode server) is not a valid TCP port.",
    ["--grpc-port", "--port", "--smg-grpc-mode", "--grpc-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-port 70000",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-port 50051");
rule!(SRV031, "SRV031", "grpc-worker-threads", "serving_hook.handle_deprecated_args#4", FILE, "handle_deprecated_args", "ValueError",
    "SGLANG_GRPC_WORKER_THREADS ({cfg.grpc_worker_threads}) must be >= 1",
    "The gRPC server needs at least one worker thread (SGLANG_GRPC_WORKER_THREADS, default 4).",
    ["--grpc-port"],
    "",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-port 50051");
rule!(SRV032, "SRV032", "sidecar-args-without-sidecar", "serving_hook.handle_deprecated_args#5", FILE, "handle_deprecated_args", "ValueError",
    "--sidecar-args requires --sidecar.",
    "Arguments for a sidecar process were given, but no sidecar.",
    ["--sidecar-args", "--sidecar"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --sidecar-args '[\"-v\"]'", "--model-path meta-llama/Llama-3.1-8B-Instruct");
rule!(SRV033, "SRV033", "sidecar-args-not-string-array", "serving_hook.handle_deprecated_args#6", FILE, "handle_deprecated_args", "ValueError",
    "--sidecar-args must be a JSON array of strings.",
    "--sidecar-args is parsed as JSON and must be a list of strings (the sidecar's argv).",
    ["--sidecar-args"], "", "");
rule!(SRV034, "SRV034", "sidecar-empty", "serving_hook.handle_deprecated_args#7", FILE, "handle_deprecated_args", "ValueError",
    "--sidecar must not be empty.",
    "--sidecar names the sidecar program to start; it is blank.",
    ["--sidecar"], "", "");
rule!(SRV035, "SRV035", "sidecar-with-legacy-grpc", "serving_hook.handle_deprecated_args#8", FILE, "handle_deprecated_args", "ValueError",
    "--sidecar requires SGLang's native gRPC server; it cannot be combined with --smg-grpc-mode/--grpc-mode.",
    "Sidecars talk to the native gRPC server (--grpc-port); the legacy SMG gRPC mode replaces it.",
    ["--sidecar", "--smg-grpc-mode", "--grpc-mode"], "", "");
rule!(SRV036, "SRV036", "sidecar-needs-grpc-port", "serving_hook.handle_deprecated_args#9", FILE, "handle_deprecated_args", "ValueError",
    "--sidecar requires --grpc-port or SGLANG_GRPC_PORT.",
    "A sidecar connects to the native gRPC server, which only starts with a gRPC port.",
    ["--sidecar", "--grpc-port"], "", "");
rule!(SRV037, "SRV037", "grpc-port-with-ray", "serving_hook.handle_deprecated_args#10", FILE, "handle_deprecated_args", "ValueError",
    "--grpc-port is not supported with --use-ray: the Ray serve launch path does not start the native gRPC server.",
    "The Ray launch path never starts the native gRPC server, so a gRPC port would silently do nothing.",
    ["--grpc-port", "--use-ray"], "", "");
rule!(SRV038, "SRV038", "grpc-port-with-encoder-only", "serving_hook.handle_deprecated_args#11", FILE, "handle_deprecated_args", "ValueError",
    "--grpc-port is not supported with --encoder-only: encoder disaggregation uses its own server.",
    "An encoder-only server (encoder disaggregation) runs its own server and does not start the native gRPC server.",
    ["--grpc-port", "--encoder-only"], "", "");
rule!(SRV039, "SRV039", "grpc-port-with-tokenizer-workers", "serving_hook.handle_deprecated_args#12", FILE, "handle_deprecated_args", "ValueError",
    "Native gRPC does not yet support --tokenizer-worker-num > 1. Unset --grpc-port or set --tokenizer-worker-num 1.",
    "The native gRPC server works with a single tokenizer worker only.",
    ["--grpc-port", "--tokenizer-worker-num"], "", "");
rule!(SRV040, "SRV040", "grpc-port-with-api-key", "serving_hook.handle_deprecated_args#13", FILE, "handle_deprecated_args", "ValueError",
    "--grpc-port is incompatible with --api-key/--admin-api-key: the native gRPC listener bypasses HTTP auth middleware.",
    "API keys are enforced by the HTTP middleware; the native gRPC listener would expose the model without them, so SGLang refuses the combination.",
    ["--grpc-port", "--api-key", "--admin-api-key"], "", "");

rule!(SRV041, "SRV041", "two-tokenizer-batching-modes", "serving_hook.handle_tokenizer_batching#1", FILE, "handle_tokenizer_batching", "ValueError",
    "Cannot enable both --enable-tokenizer-batch-encode and --enable-dynamic-batch-tokenizer. Please choose one tokenizer batching approach.",
    "Batch encoding of whole requests and the dynamic batch tokenizer are two alternative ways of batching tokenization; only one may be on.",
    ["--enable-tokenizer-batch-encode", "--enable-dynamic-batch-tokenizer"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-tokenizer-batch-encode --enable-dynamic-batch-tokenizer",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --enable-dynamic-batch-tokenizer");

rule!(SRV042, "SRV042", "mm-cuda-vmm-needs-cuda", "serving_hook.handle_multimodal_feature_transport#1", FILE, "handle_multimodal_feature_transport", "ValueError",
    "--mm-feature-transport=cuda_vmm requires NVIDIA CUDA.",
    "Sharing multimodal features through CUDA virtual memory only works on NVIDIA GPUs.",
    ["--mm-feature-transport"], "", "");
rule!(SRV043, "SRV043", "mm-cuda-vmm-with-pp", "serving_hook.handle_multimodal_feature_transport#2", FILE, "handle_multimodal_feature_transport", "ValueError",
    "--mm-feature-transport=cuda_vmm does not support pipeline parallelism.",
    "The CUDA VMM feature pool lives on one GPU and is not wired into pipeline-parallel stages.",
    ["--mm-feature-transport", "--pp-size"], "", "");
rule!(SRV044, "SRV044", "mm-cuda-ipc-needs-cuda", "serving_hook.handle_multimodal_feature_transport#3", FILE, "handle_multimodal_feature_transport", "ValueError",
    "--mm-feature-transport=cuda_ipc requires NVIDIA CUDA.",
    "CUDA IPC transport of multimodal features (also selected by SGLANG_USE_CUDA_IPC_TRANSPORT=1) only works on NVIDIA GPUs.",
    ["--mm-feature-transport"], "", "");
rule!(SRV045, "SRV045", "mm-cuda-ipc-multi-node", "serving_hook.handle_multimodal_feature_transport#4", FILE, "handle_multimodal_feature_transport", "ValueError",
    "--mm-feature-transport=cuda_ipc only supports a single node.",
    "CUDA IPC handles cannot cross machines; with --nnodes > 1 use cpu (or cuda_vmm on GB200/GB300).",
    ["--mm-feature-transport", "--nnodes"], "", "");
rule!(SRV046, "SRV046", "fp4-indexer-needs-blackwell-or-gfx95", "serving_hook.handle_environment_variables#1", FILE, "handle_environment_variables", "ValueError",
    "--enable-deepseek-v4-fp4-indexer requires SM100, SM120, or gfx95 GPUs with FP4 indexer support.",
    "The FP4 DeepSeek-V4 indexer kernels exist only for Blackwell (SM100/SM120) and AMD gfx95 (MI355X) GPUs.",
    ["--enable-deepseek-v4-fp4-indexer"], "", "");

rule!(SRV047, "SRV047", "chat-template-kwargs-not-object", "serving_hook.handle_other_validations#1", FILE, "handle_other_validations", "ValueError",
    "--default-chat-template-kwargs must decode to a JSON object",
    "Default chat-template arguments are keyword arguments, so the JSON must be an object.",
    ["--default-chat-template-kwargs"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --default-chat-template-kwargs '[1]'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --default-chat-template-kwargs '{\"enable_thinking\": false}'");
rule!(SRV048, "SRV048", "prefill-complete-needs-optimistic-prefill", "serving_hook.handle_other_validations#2", FILE, "handle_other_validations", "ValueError",
    "prefill_complete requires optimistic prefill, but the resolved model/cache configuration disabled it.",
    "On a prefill server the prefill_complete decode allocation policy relies on optimistic prefill, which is off (--optimistic-prefill-attempts is 0, or SGLang turned it off for pipeline parallelism or the hierarchical-cache setup).",
    ["--disaggregation-decode-allocation-policy", "--optimistic-prefill-attempts", "--disaggregation-mode"], "", "");
rule!(SRV049, "SRV049", "limit-mm-data-unknown-modality", "serving_hook.handle_other_validations#3", FILE, "handle_other_validations", "ValueError",
    "Invalid modality '{modality}' in --limit-mm-data-per-request.Allowed modalities are: {list(allowed_modalities)}",
    "--limit-mm-data-per-request may only limit image, video and audio items. (SGLang prints the allowed modalities from a Python set, so their order varies between runs.)",
    ["--limit-mm-data-per-request"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --limit-mm-data-per-request '{\"text\": 1}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --limit-mm-data-per-request '{\"image\": 1}'");
rule!(SRV050, "SRV050", "preferred-sampling-params-watermark", "serving_hook.handle_other_validations#4", FILE, "handle_other_validations", "ValueError",
    "watermark is not supported in --preferred-sampling-params",
    "Watermarking cannot be made a server-wide default sampling parameter; configure it with --watermark-config or per request.",
    ["--preferred-sampling-params"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --preferred-sampling-params '{\"watermark\": {}}'",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --preferred-sampling-params '{\"temperature\": 0.7}'");

warning!(SRV101, "SRV101", "disable-fast-image-processor-deprecated", "handle_deprecated_args",
    "--disable-fast-image-processor is deprecated; use --image-processor-backend=pil instead.",
    "SGLang maps the deprecated flag to --image-processor-backend pil.",
    ["--disable-fast-image-processor"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --disable-fast-image-processor",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --image-processor-backend pil");
warning!(SRV102, "SRV102", "tool-call-parser-renamed", "handle_deprecated_args",
    "The tool_call_parser '{old}' is deprecated. Please use '{new}' instead.",
    "The qwen25 and glm45 tool-call parsers were renamed to qwen and glm; SGLang uses the new name.",
    ["--tool-call-parser"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tool-call-parser qwen25",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tool-call-parser qwen");
warning!(SRV103, "SRV103", "flashinfer-allreduce-fusion-flag-deprecated", "handle_deprecated_args",
    "--enable-flashinfer-allreduce-fusion is deprecated. Please use --flashinfer-allreduce-fusion-backend=auto instead.",
    "SGLang maps the deprecated flag to --flashinfer-allreduce-fusion-backend auto.",
    ["--enable-flashinfer-allreduce-fusion"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --enable-flashinfer-allreduce-fusion",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --flashinfer-allreduce-fusion-backend auto");
warning!(SRV104, "SRV104", "attention-backend-alias-deprecated", "handle_deprecated_args",
    "--{attr}={old} is deprecated; use '{new}' instead.",
    "The attention backends `compressed` and `tokenspeed_mla` were renamed to `dsv4` and `cutedsl_mla` (a tokenspeed_mla prefill backend becomes trtllm_mla, since cutedsl_mla is decode-only).",
    ["--attention-backend", "--decode-attention-backend", "--prefill-attention-backend", "--speculative-draft-attention-backend"],
    "--model-path deepseek-ai/DeepSeek-V3 --attention-backend tokenspeed_mla",
    "--model-path deepseek-ai/DeepSeek-V3 --attention-backend cutedsl_mla --kv-cache-dtype fp8_e4m3");
warning!(SRV105, "SRV105", "tokenspeed-mla-forces-fp8-kv", "handle_deprecated_args",
    "tokenspeed_mla required FP8 KV; setting --kv-cache-dtype=fp8_e4m3.",
    "The deprecated tokenspeed_mla backend implied an FP8 (e4m3) KV cache; SGLang keeps that behaviour by setting the KV cache dtype.",
    ["--attention-backend", "--decode-attention-backend", "--kv-cache-dtype"],
    "--model-path deepseek-ai/DeepSeek-V3 --attention-backend tokenspeed_mla",
    "--model-path deepseek-ai/DeepSeek-V3 --attention-backend cutedsl_mla --kv-cache-dtype fp8_e4m3");
warning!(SRV106, "SRV106", "grpc-mode-deprecated", "handle_deprecated_args",
    "--grpc-mode is deprecated and will be removed in a future version. Use --smg-grpc-mode for the legacy SMG gRPC server, or --grpc-port for the native gRPC server.",
    "--grpc-mode is an old name for --smg-grpc-mode.",
    ["--grpc-mode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-mode",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --smg-grpc-mode");
warning!(SRV107, "SRV107", "skip-tokenizer-init-detokenizer-workers", "handle_tokenizer_batching",
    "skip_tokenizer_init=True leaves no decode work for detokenizer workers; forcing detokenizer_worker_num=1 (requested {cfg.detokenizer_worker_num}).",
    "Without a tokenizer there is nothing to detokenize, so extra detokenizer workers are dropped.",
    ["--skip-tokenizer-init", "--detokenizer-worker-num"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init --detokenizer-worker-num 2",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init");
warning!(SRV108, "SRV108", "skip-tokenizer-init-batch-encode", "handle_tokenizer_batching",
    "skip_tokenizer_init=True ignores --enable-tokenizer-batch-encode; disabling it.",
    "Without a tokenizer there is no encoding to batch.",
    ["--skip-tokenizer-init", "--enable-tokenizer-batch-encode"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init --enable-tokenizer-batch-encode",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init");
warning!(SRV109, "SRV109", "skip-tokenizer-init-dynamic-batch", "handle_tokenizer_batching",
    "skip_tokenizer_init=True ignores --enable-dynamic-batch-tokenizer; disabling it.",
    "Without a tokenizer there is no encoding to batch.",
    ["--skip-tokenizer-init", "--enable-dynamic-batch-tokenizer"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init --enable-dynamic-batch-tokenizer",
    "--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init");
warning!(SRV110, "SRV110", "cuda-ipc-env-deprecated", "handle_multimodal_feature_transport",
    "SGLANG_USE_CUDA_IPC_TRANSPORT is deprecated; use --mm-feature-transport={transport} instead.",
    "The environment variable is replaced by --mm-feature-transport.",
    ["--mm-feature-transport"], "", "");
warning!(SRV111, "SRV111", "mm-transport-overrides-env", "handle_multimodal_feature_transport",
    "--mm-feature-transport={transport} overrides the conflicting legacy SGLANG_USE_CUDA_IPC_TRANSPORT={0|1} setting.",
    "Both the flag and the legacy environment variable choose the multimodal feature transport, and they disagree; the flag wins.",
    ["--mm-feature-transport"], "", "");
warning!(SRV112, "SRV112", "mm-transport-inactive-encoder-only", "handle_multimodal_feature_transport",
    "--mm-feature-transport={transport} does not control encoder-only output transfer; using cpu for this inactive transport. Select --encoder-transfer-backend for encoder outputs.",
    "An encoder-only server ships its outputs with --encoder-transfer-backend; the GPU feature transport does not apply.",
    ["--mm-feature-transport", "--encoder-only"], "", "");
warning!(SRV113, "SRV113", "debug-cuda-graph-unsupported-device", "handle_environment_variables",
    "--debug-cuda-graph is not supported on non CUDA/HIP devices. Disabling breakable CUDA graph.",
    "Breakable CUDA graph debugging needs a CUDA or ROCm GPU.",
    ["--debug-cuda-graph"], "", "");
warning!(SRV114, "SRV114", "debug-cuda-graph-enabled", "handle_environment_variables",
    "Debug mode for CUDA graph is enabled via breakable CUDA graph. All operations will run eagerly through the graph capture/replay path.",
    "--debug-cuda-graph runs every operation eagerly through the breakable graph path: useful for debugging, slow for serving.",
    ["--debug-cuda-graph"],
    "--model-path meta-llama/Llama-3.1-8B-Instruct --debug-cuda-graph", "--model-path meta-llama/Llama-3.1-8B-Instruct");
warning!(SRV115, "SRV115", "coredump-dir-placeholder", "handle_crash_dump_env",
    "Cannot pre-create CUDA coredump directory {coredump_dir}: only %h is supported in the directory part of CUDA_COREDUMP_FILE; coredumps may fail to write.",
    "The CUDA core-dump path has a % placeholder other than %h in its directory part, so SGLang cannot create the directory ahead of time.",
    ["--crash-dump-folder"], "", "");
warning!(SRV116, "SRV116", "optimistic-prefill-no-pp", "handle_other_validations",
    "Optimistic prefill does not support pp_size > 1",
    "SGLang turns optimistic prefill off under pipeline parallelism.",
    ["--optimistic-prefill-attempts", "--pp-size"], "", "");
warning!(SRV117, "SRV117", "optimistic-prefill-hicache-mode", "handle_other_validations",
    "Optimistic prefill supports L2 write-back/write-through or L3 buffer-only write-through hierarchical cache",
    "With this hierarchical-cache setup SGLang turns optimistic prefill off.",
    ["--optimistic-prefill-attempts", "--enable-hierarchical-cache", "--hicache-write-policy", "--hicache-storage-backend"], "", "");
warning!(SRV118, "SRV118", "tensor-dump-disables-graphs", "handle_other_validations",
    "Cuda graph and server warmup are disabled because of using tensor dump mode",
    "Dumping tensors needs eager execution, so SGLang disables CUDA graphs and the warm-up request.",
    ["--debug-tensor-dump-output-folder"], "", "");
warning!(SRV119, "SRV119", "msprobe-disables-graphs", "handle_other_validations",
    "When msProbe is enabled, cuda graph is disabled because msProbe only supports dump in eager mode, warmup is disabled(skip_server_warmup=True) because there is no need to dump data for this stage.",
    "msProbe dumps only in eager mode, so SGLang disables CUDA graphs and the warm-up request.",
    ["--msprobe-dump-config"], "", "");

/// Every rule in this family, in pipeline order (errors, then SGLang's warnings).
pub static RULES: &[&Rule] = &[
    &SRV001, &SRV002, &SRV003, &SRV004, &SRV005, &SRV006, &SRV007, &SRV008, &SRV009, &SRV010,
    &SRV011, &SRV012, &SRV013, &SRV014, &SRV015, &SRV016, &SRV017, &SRV018, &SRV019, &SRV020,
    &SRV021, &SRV022, &SRV023, &SRV024, &SRV025, &SRV026, &SRV027, &SRV028, &SRV029, &SRV030,
    &SRV031, &SRV032, &SRV033, &SRV034, &SRV035, &SRV036, &SRV037, &SRV038, &SRV039, &SRV040,
    &SRV041, &SRV042, &SRV043, &SRV044, &SRV045, &SRV046, &SRV047, &SRV048, &SRV049, &SRV050,
    &SRV101, &SRV102, &SRV103, &SRV104, &SRV105, &SRV106, &SRV107, &SRV108, &SRV109, &SRV110,
    &SRV111, &SRV112, &SRV113, &SRV114, &SRV115, &SRV116, &SRV117, &SRV118, &SRV119,
];

