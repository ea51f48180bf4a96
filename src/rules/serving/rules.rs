//! Rule metadata for `serving_hook.py` (checks live in `serving.rs`).

use super::super::Rule;
use crate::rules::{raises, warns};

pub static SRV001: Rule = Rule {
    code: "SRV001",
    name: kebab!("media-url-max-size-negative"),
    sglang: raises("utils.common.configure_media_url_security", "media_url_max_file_size_mb must be non-negative"),
    explanation: expl!("The size limit for media downloaded from client-supplied URLs cannot be negative (0 is allowed)."),
    flags: &["--media-url-max-file-size-mb"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --media-url-max-file-size-mb -1"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --media-url-max-file-size-mb 64"),
};
pub static SRV002: Rule = Rule {
    code: "SRV002",
    name: kebab!("media-domain-empty"),
    sglang: raises("utils.common._normalize_media_domain", "allowed media domains cannot be empty"),
    explanation: expl!("An entry of --allowed-media-domains is empty once surrounding spaces and trailing dots are removed."),
    flags: &["--allowed-media-domains"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains example.com ."),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains example.com"),
};
pub static SRV003: Rule = Rule {
    code: "SRV003",
    name: kebab!("media-domain-not-hostname"),
    sglang: raises("utils.common._normalize_media_domain", "Invalid allowed media domain {domain!r}: provide"),
    explanation: expl!("--allowed-media-domains takes host names, not URLs: a scheme (`://`), path, query, fragment or user part (`@`) is rejected."),
    flags: &["--allowed-media-domains"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains https://images.example.com/"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains images.example.com"),
};
pub static SRV004: Rule = Rule {
    code: "SRV004",
    name: kebab!("media-domain-with-port"),
    sglang: raises("utils.common._normalize_media_domain", "Invalid allowed media domain {domain!r}: ports"),
    explanation: expl!("A domain in --allowed-media-domains has a port; the allow-list matches host names only, on any port."),
    flags: &["--allowed-media-domains"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains example.com:8080"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains example.com"),
};
pub static SRV005: Rule = Rule {
    code: "SRV005",
    name: kebab!("media-domain-invalid"),
    sglang: raises("utils.common._normalize_media_domain", "Invalid allowed media domain {domain!r}"),
    explanation: expl!("A domain in --allowed-media-domains cannot be encoded as an IDNA host name, e.g. it has an empty label (`a..b`) or a label longer than 63 characters."),
    flags: &["--allowed-media-domains"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains a..example.com"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --allowed-media-domains a.example.com"),
};

pub static SRV006: Rule = Rule {
    code: "SRV006",
    name: kebab!("watermark-config-too-large"),
    sglang: raises("sampling.watermarking.config.load_watermark_config", "watermark config exceeds 4096 bytes"),
    explanation: expl!("The watermark configuration (inline JSON or file) may be at most 4096 bytes."),
    flags: &["--watermark-config"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV007: Rule = Rule {
    code: "SRV007",
    name: kebab!("watermark-config-bad-json"),
    sglang: raises("sampling.watermarking.config.load_watermark_config", "failed to read watermark config JSON"),
    explanation: expl!("--watermark-config starts with `{`, so SGLang reads it as inline JSON, and it is not valid JSON."),
    flags: &["--watermark-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{key: 1}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"key\": \"1f\"}'"),
};
pub static SRV008: Rule = Rule {
    code: "SRV008",
    name: kebab!("watermark-config-not-object"),
    sglang: raises("sampling.watermarking.config.load_watermark_config", "watermark config must be a JSON object"),
    explanation: expl!("The watermark configuration must be a JSON object of settings."),
    flags: &["--watermark-config"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV009: Rule = Rule {
    code: "SRV009",
    name: kebab!("watermark-config-unknown-field"),
    sglang: raises("sampling.watermarking.config.load_watermark_config", "watermark config contains unknown fields"),
    explanation: expl!("The watermark configuration may only hold key, key_b, context_window, mixing_probability, max_probability, default_enabled and enforce_all."),
    flags: &["--watermark-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"seed\": 1}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"key\": \"1\"}'"),
};
pub static SRV010: Rule = Rule {
    code: "SRV010",
    name: kebab!("watermark-config-bad-key"),
    sglang: raises("sampling.watermarking.config.load_watermark_config", "{str(error)}"),
    explanation: expl!("A watermark key (key, key_b) must be a string of 1 to 16 hex digits, optionally prefixed with 0x."),
    flags: &["--watermark-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"key\": \"xyz\"}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"key\": \"abc\"}'"),
};
pub static SRV011: Rule = Rule {
    code: "SRV011",
    name: kebab!("watermark-config-context-window"),
    sglang: raises("sampling.watermarking.config.load_watermark_config", "watermark config context_window must be an"),
    explanation: expl!("The watermark context window (tokens hashed to seed the watermark) must be an integer between 1 and 64."),
    flags: &["--watermark-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"context_window\": 0}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"context_window\": 4}'"),
};
pub static SRV012: Rule = Rule {
    code: "SRV012",
    name: kebab!("watermark-config-probability-not-number"),
    sglang: raises("sampling.watermarking.config.load_watermark_config", "watermark config {name} must be a number"),
    explanation: expl!("mixing_probability and max_probability in the watermark configuration must be JSON numbers."),
    flags: &["--watermark-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"mixing_probability\": \"0.5\"}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"mixing_probability\": 0.5}'"),
};
pub static SRV013: Rule = Rule {
    code: "SRV013",
    name: kebab!("watermark-config-flag-not-boolean"),
    sglang: raises("sampling.watermarking.config.load_watermark_config", "watermark config {name} must be a boolean"),
    explanation: expl!("default_enabled and enforce_all in the watermark configuration must be JSON true or false."),
    flags: &["--watermark-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"enforce_all\": 1}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --watermark-config '{\"enforce_all\": true}'"),
};

pub static SRV014: Rule = Rule {
    code: "SRV014",
    name: kebab!("mm-preprocess-cache-negative"),
    sglang: raises("serving_hook.handle_multimodal", "mm_preprocess_cache_size_mb must be non-negative"),
    explanation: expl!("The multimodal preprocessing cache size cannot be negative."),
    flags: &["--mm-preprocess-cache-size-mb"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mm-preprocess-cache-size-mb -1"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mm-preprocess-cache-size-mb 0"),
};
pub static SRV015: Rule = Rule {
    code: "SRV015",
    name: kebab!("mm-process-config-not-dict"),
    sglang: raises("serving_hook.handle_multimodal", "mm_process_config must be a dict, but got"),
    explanation: expl!("--mm-process-config is parsed as JSON and must be an object (per-modality processor settings)."),
    flags: &["--mm-process-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mm-process-config '[1]'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mm-process-config '{}'"),
};
pub static SRV016: Rule = Rule {
    code: "SRV016",
    name: kebab!("mm-process-config-modality-not-dict"),
    sglang: raises("serving_hook.handle_multimodal", "mm_process_config['{key}'] must be a dict,"),
    explanation: expl!("The image, video and audio entries of --mm-process-config must themselves be JSON objects."),
    flags: &["--mm-process-config"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mm-process-config '{\"image\": 1}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --mm-process-config '{\"image\": {}}'"),
};

pub static SRV017: Rule = Rule {
    code: "SRV017",
    name: kebab!("ssl-keyfile-without-certfile"),
    sglang: raises("serving_hook.handle_ssl_validation", "--ssl-keyfile requires --ssl-certfile to"),
    explanation: expl!("HTTPS needs both the private key and its certificate; only the key was given."),
    flags: &["--ssl-keyfile", "--ssl-certfile"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --ssl-keyfile key.pem"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};
pub static SRV018: Rule = Rule {
    code: "SRV018",
    name: kebab!("ssl-certfile-without-keyfile"),
    sglang: raises("serving_hook.handle_ssl_validation", "--ssl-certfile requires --ssl-keyfile to"),
    explanation: expl!("HTTPS needs both the certificate and its private key; only the certificate was given."),
    flags: &["--ssl-certfile", "--ssl-keyfile"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --ssl-certfile cert.pem"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};
pub static SRV019: Rule = Rule {
    code: "SRV019",
    name: kebab!("ssl-ca-certs-without-ssl"),
    sglang: raises("serving_hook.handle_ssl_validation", "--ssl-ca-certs has no effect without --ssl-certfile"),
    explanation: expl!("A CA bundle is only used when the server itself serves HTTPS; SGLang rejects it rather than silently ignoring it."),
    flags: &["--ssl-ca-certs"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --ssl-ca-certs ca.pem"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};
pub static SRV020: Rule = Rule {
    code: "SRV020",
    name: kebab!("ssl-keyfile-password-without-ssl"),
    sglang: raises("serving_hook.handle_ssl_validation", "--ssl-keyfile-password has no effect without"),
    explanation: expl!("A key password only matters when a key file and certificate are given."),
    flags: &["--ssl-keyfile-password"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --ssl-keyfile-password secret"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};
pub static SRV021: Rule = Rule {
    code: "SRV021",
    name: kebab!("ssl-refresh-without-ssl"),
    sglang: raises("serving_hook.handle_ssl_validation", "--enable-ssl-refresh requires --ssl-certfile"),
    explanation: expl!("Certificate hot-reloading needs a certificate and key to watch."),
    flags: &["--enable-ssl-refresh"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-ssl-refresh"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};
pub static SRV022: Rule = Rule {
    code: "SRV022",
    name: kebab!("http-worker-reuseport-needs-workers"),
    sglang: raises("serving_hook.handle_ssl_validation", "--enable-http-worker-reuseport requires --tokenizer-worker-num"),
    explanation: expl!("SO_REUSEPORT lets several tokenizer/HTTP workers share the port; with one worker, or with the HTTP/2 server, it does nothing and SGLang rejects it."),
    flags: &["--enable-http-worker-reuseport", "--tokenizer-worker-num", "--enable-http2"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-http-worker-reuseport"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-http-worker-reuseport --tokenizer-worker-num 2"),
};
pub static SRV023: Rule = Rule {
    code: "SRV023",
    name: kebab!("http2-max-streams-range"),
    sglang: raises("serving_hook.handle_ssl_validation", "--http2-max-concurrent-streams must be between"),
    explanation: expl!("The HTTP/2 concurrent-stream limit must fit HTTP/2's 32-bit setting and be at least 1."),
    flags: &["--http2-max-concurrent-streams", "--enable-http2"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-http2 --http2-max-concurrent-streams 0"),
    example_good: ex!(""),
};
pub static SRV024: Rule = Rule {
    code: "SRV024",
    name: kebab!("http2-window-range"),
    sglang: raises("serving_hook.handle_ssl_validation", "--http2-initial-connection-window-size must"),
    explanation: expl!("The HTTP/2 connection flow-control window must be between 1 KiB and 2^31-1 bytes."),
    flags: &["--http2-initial-connection-window-size", "--enable-http2"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-http2 --http2-initial-connection-window-size 100"),
    example_good: ex!(""),
};
pub static SRV025: Rule = Rule {
    code: "SRV025",
    name: kebab!("http2-needs-granian"),
    sglang: raises("serving_hook.handle_ssl_validation", "--enable-http2 requires the 'granian' package."),
    explanation: expl!("HTTP/2 is served by Granian, an optional extra that a plain `pip install sglang` does not include."),
    flags: &["--enable-http2"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-http2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};

pub static SRV026: Rule = Rule {
    code: "SRV026",
    name: kebab!("asr-buffer-not-positive"),
    sglang: raises("serving_hook.handle_asr_validation", "--asr-max-buffer-seconds must be positive"),
    explanation: expl!("The longest audio a transcription session may buffer must be at least 1 second."),
    flags: &["--asr-max-buffer-seconds"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --asr-max-buffer-seconds 0"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --asr-max-buffer-seconds 60"),
};
pub static SRV027: Rule = Rule {
    code: "SRV027",
    name: kebab!("asr-sessions-not-positive"),
    sglang: raises("serving_hook.handle_asr_validation", "--asr-max-concurrent-sessions must be positive"),
    explanation: expl!("At least one concurrent transcription session must be allowed."),
    flags: &["--asr-max-concurrent-sessions"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --asr-max-concurrent-sessions 0"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --asr-max-concurrent-sessions 32"),
};

pub static SRV028: Rule = Rule {
    code: "SRV028",
    name: kebab!("fast-image-processor-conflict"),
    sglang: raises("serving_hook.handle_deprecated_args", "--disable-fast-image-processor conflicts"),
    explanation: expl!("The deprecated --disable-fast-image-processor means the PIL image processor, which contradicts the backend chosen with --image-processor-backend."),
    flags: &["--disable-fast-image-processor", "--image-processor-backend"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disable-fast-image-processor --image-processor-backend torchvision"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --image-processor-backend pil"),
};
pub static SRV029: Rule = Rule {
    code: "SRV029",
    name: kebab!("grpc-timeout-not-positive"),
    sglang: raises("serving_hook.handle_deprecated_args", "--grpc-response-timeout-secs must be positive"),
    explanation: expl!("The gRPC response timeout must be at least 1 second."),
    flags: &["--grpc-response-timeout-secs"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-response-timeout-secs 0"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-response-timeout-secs 300"),
};
pub static SRV030: Rule = Rule {
    code: "SRV030",
    name: kebab!("grpc-port-range"),
    sglang: raises("serving_hook.handle_deprecated_args", "--grpc-port / SGLANG_GRPC_PORT ({cfg.grpc_port})"),
    explanation: expl!("The gRPC port (from --grpc-port, SGLANG_GRPC_PORT, or --port + 10000 for the legacy --smg-grpc-mode/--grpc-mode server) is not a valid TCP port."),
    flags: &["--grpc-port", "--port", "--smg-grpc-mode", "--grpc-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-port 70000"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-port 50051"),
};
pub static SRV031: Rule = Rule {
    code: "SRV031",
    name: kebab!("grpc-worker-threads"),
    sglang: raises("serving_hook.handle_deprecated_args", "SGLANG_GRPC_WORKER_THREADS ({cfg.grpc_worker_threads})"),
    explanation: expl!("The gRPC server needs at least one worker thread (SGLANG_GRPC_WORKER_THREADS, default 4)."),
    flags: &["--grpc-port"],
    example_bad: ex!(""),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-port 50051"),
};
pub static SRV032: Rule = Rule {
    code: "SRV032",
    name: kebab!("sidecar-args-without-sidecar"),
    sglang: raises("serving_hook.handle_deprecated_args", "--sidecar-args requires --sidecar."),
    explanation: expl!("Arguments for a sidecar process were given, but no sidecar."),
    flags: &["--sidecar-args", "--sidecar"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --sidecar-args '[\"-v\"]'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};
pub static SRV033: Rule = Rule {
    code: "SRV033",
    name: kebab!("sidecar-args-not-string-array"),
    sglang: raises("serving_hook.handle_deprecated_args", "--sidecar-args must be a JSON array of strings."),
    explanation: expl!("--sidecar-args is parsed as JSON and must be a list of strings (the sidecar's argv)."),
    flags: &["--sidecar-args"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV034: Rule = Rule {
    code: "SRV034",
    name: kebab!("sidecar-empty"),
    sglang: raises("serving_hook.handle_deprecated_args", "--sidecar must not be empty."),
    explanation: expl!("--sidecar names the sidecar program to start; it is blank."),
    flags: &["--sidecar"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV035: Rule = Rule {
    code: "SRV035",
    name: kebab!("sidecar-with-legacy-grpc"),
    sglang: raises("serving_hook.handle_deprecated_args", "--sidecar requires SGLang's native gRPC server;"),
    explanation: expl!("Sidecars talk to the native gRPC server (--grpc-port); the legacy SMG gRPC mode replaces it."),
    flags: &["--sidecar", "--smg-grpc-mode", "--grpc-mode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV036: Rule = Rule {
    code: "SRV036",
    name: kebab!("sidecar-needs-grpc-port"),
    sglang: raises("serving_hook.handle_deprecated_args", "--sidecar requires --grpc-port or SGLANG_GRPC_PORT."),
    explanation: expl!("A sidecar connects to the native gRPC server, which only starts with a gRPC port."),
    flags: &["--sidecar", "--grpc-port"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV037: Rule = Rule {
    code: "SRV037",
    name: kebab!("grpc-port-with-ray"),
    sglang: raises("serving_hook.handle_deprecated_args", "--grpc-port is not supported with --use-ray:"),
    explanation: expl!("The Ray launch path never starts the native gRPC server, so a gRPC port would silently do nothing."),
    flags: &["--grpc-port", "--use-ray"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV038: Rule = Rule {
    code: "SRV038",
    name: kebab!("grpc-port-with-encoder-only"),
    sglang: raises("serving_hook.handle_deprecated_args", "--grpc-port is not supported with --encoder-only:"),
    explanation: expl!("An encoder-only server (encoder disaggregation) runs its own server and does not start the native gRPC server."),
    flags: &["--grpc-port", "--encoder-only"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV039: Rule = Rule {
    code: "SRV039",
    name: kebab!("grpc-port-with-tokenizer-workers"),
    sglang: raises("serving_hook.handle_deprecated_args", "Native gRPC does not yet support --tokenizer-worker-num"),
    explanation: expl!("The native gRPC server works with a single tokenizer worker only."),
    flags: &["--grpc-port", "--tokenizer-worker-num"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV040: Rule = Rule {
    code: "SRV040",
    name: kebab!("grpc-port-with-api-key"),
    sglang: raises("serving_hook.handle_deprecated_args", "--grpc-port is incompatible with --api-key/--admin-api-key:"),
    explanation: expl!("API keys are enforced by the HTTP middleware; the native gRPC listener would expose the model without them, so SGLang refuses the combination."),
    flags: &["--grpc-port", "--api-key", "--admin-api-key"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

pub static SRV041: Rule = Rule {
    code: "SRV041",
    name: kebab!("two-tokenizer-batching-modes"),
    sglang: raises("serving_hook.handle_tokenizer_batching", "Cannot enable both --enable-tokenizer-batch-encode"),
    explanation: expl!("Batch encoding of whole requests and the dynamic batch tokenizer are two alternative ways of batching tokenization; only one may be on."),
    flags: &["--enable-tokenizer-batch-encode", "--enable-dynamic-batch-tokenizer"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-tokenizer-batch-encode --enable-dynamic-batch-tokenizer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --enable-dynamic-batch-tokenizer"),
};

pub static SRV121: Rule = Rule {
    code: "SRV121",
    name: kebab!("keep-mm-feature-on-device-transport-conflict"),
    sglang: raises("serving_hook.handle_multimodal_feature_transport", "--keep-mm-feature-on-device conflicts with"),
    explanation: expl!("In SGLang 0.5.18 --keep-mm-feature-on-device is a deprecated spelling of --mm-feature-transport cuda_ipc, so it cannot be combined with another transport."),
    flags: &["--keep-mm-feature-on-device", "--mm-feature-transport"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV122: Rule = Rule {
    code: "SRV122",
    name: kebab!("mm-cuda-vmm-with-rust-server"),
    sglang: raises("serving_hook.handle_multimodal_feature_transport", "--mm-feature-transport=cuda_vmm is not supported with SGLANG_RUST_SERVER."),
    explanation: expl!("In SGLang 0.5.18 the Rust HTTP server (SGLANG_RUST_SERVER) does not carry CUDA VMM feature handles."),
    flags: &["--mm-feature-transport"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV042: Rule = Rule {
    code: "SRV042",
    name: kebab!("mm-cuda-vmm-needs-cuda"),
    sglang: raises("serving_hook.handle_multimodal_feature_transport", "--mm-feature-transport=cuda_vmm requires"),
    explanation: expl!("Sharing multimodal features through CUDA virtual memory only works on NVIDIA GPUs."),
    flags: &["--mm-feature-transport"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV043: Rule = Rule {
    code: "SRV043",
    name: kebab!("mm-cuda-vmm-with-pp"),
    sglang: raises("serving_hook.handle_multimodal_feature_transport", "--mm-feature-transport=cuda_vmm does not"),
    explanation: expl!("The CUDA VMM feature pool lives on one GPU and is not wired into pipeline-parallel stages."),
    flags: &["--mm-feature-transport", "--pp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV044: Rule = Rule {
    code: "SRV044",
    name: kebab!("mm-cuda-ipc-needs-cuda"),
    sglang: raises("serving_hook.handle_multimodal_feature_transport", "--mm-feature-transport=cuda_ipc requires"),
    explanation: expl!("CUDA IPC transport of multimodal features (also selected by SGLANG_USE_CUDA_IPC_TRANSPORT=1) only works on NVIDIA GPUs."),
    flags: &["--mm-feature-transport"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV045: Rule = Rule {
    code: "SRV045",
    name: kebab!("mm-cuda-ipc-multi-node"),
    sglang: raises("serving_hook.handle_multimodal_feature_transport", "--mm-feature-transport=cuda_ipc only supports"),
    explanation: expl!("CUDA IPC handles cannot cross machines; with --nnodes > 1 use cpu (or cuda_vmm on GB200/GB300)."),
    flags: &["--mm-feature-transport", "--nnodes"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV046: Rule = Rule {
    code: "SRV046",
    name: kebab!("fp4-indexer-needs-blackwell-or-gfx95"),
    sglang: raises("serving_hook.handle_environment_variables", "--enable-deepseek-v4-fp4-indexer requires"),
    explanation: expl!("The FP4 DeepSeek-V4 indexer kernels exist only for Blackwell (SM100/SM120) and AMD gfx95 (MI355X) GPUs."),
    flags: &["--enable-deepseek-v4-fp4-indexer"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

pub static SRV047: Rule = Rule {
    code: "SRV047",
    name: kebab!("chat-template-kwargs-not-object"),
    sglang: raises("serving_hook.handle_other_validations", "--default-chat-template-kwargs must decode"),
    explanation: expl!("Default chat-template arguments are keyword arguments, so the JSON must be an object."),
    flags: &["--default-chat-template-kwargs"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --default-chat-template-kwargs '[1]'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --default-chat-template-kwargs '{\"enable_thinking\": false}'"),
};
pub static SRV048: Rule = Rule {
    code: "SRV048",
    name: kebab!("prefill-complete-needs-optimistic-prefill"),
    sglang: raises("serving_hook.handle_other_validations", "prefill_complete requires optimistic prefill,"),
    explanation: expl!("On a prefill server the prefill_complete decode allocation policy relies on optimistic prefill, which is off (--optimistic-prefill-attempts is 0, or SGLang turned it off for pipeline parallelism or the hierarchical-cache setup)."),
    flags: &["--disaggregation-decode-allocation-policy", "--optimistic-prefill-attempts", "--disaggregation-mode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV049: Rule = Rule {
    code: "SRV049",
    name: kebab!("limit-mm-data-unknown-modality"),
    sglang: raises("serving_hook.handle_other_validations", "Invalid modality '{modality}' in --limit-mm-data-per-request.Allowed"),
    explanation: expl!("--limit-mm-data-per-request may only limit image, video and audio items. (SGLang prints the allowed modalities from a Python set, so their order varies between runs.)"),
    flags: &["--limit-mm-data-per-request"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --limit-mm-data-per-request '{\"text\": 1}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --limit-mm-data-per-request '{\"image\": 1}'"),
};
pub static SRV050: Rule = Rule {
    code: "SRV050",
    name: kebab!("preferred-sampling-params-watermark"),
    sglang: raises("serving_hook.handle_other_validations", "watermark is not supported in --preferred-sampling-params"),
    explanation: expl!("Watermarking cannot be made a server-wide default sampling parameter; configure it with --watermark-config or per request."),
    flags: &["--preferred-sampling-params"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --preferred-sampling-params '{\"watermark\": {}}'"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --preferred-sampling-params '{\"temperature\": 0.7}'"),
};

pub static SRV101: Rule = Rule {
    code: "SRV101",
    name: kebab!("disable-fast-image-processor-deprecated"),
    sglang: warns("serving_hook.handle_deprecated_args", "--disable-fast-image-processor is deprecated;"),
    explanation: expl!("SGLang maps the deprecated flag to --image-processor-backend pil."),
    flags: &["--disable-fast-image-processor"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --disable-fast-image-processor"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --image-processor-backend pil"),
};
pub static SRV102: Rule = Rule {
    code: "SRV102",
    name: kebab!("tool-call-parser-renamed"),
    sglang: warns("serving_hook.handle_deprecated_args", "The tool_call_parser '{cfg.tool_call_parser}'"),
    explanation: expl!("The qwen25 and glm45 tool-call parsers were renamed to qwen and glm; SGLang uses the new name."),
    flags: &["--tool-call-parser"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tool-call-parser qwen25"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tool-call-parser qwen"),
};
pub static SRV103: Rule = Rule {
    code: "SRV103",
    name: kebab!("flashinfer-allreduce-fusion-flag-deprecated"),
    sglang: warns("serving_hook.handle_deprecated_args", "--enable-flashinfer-allreduce-fusion is deprecated."),
    explanation: expl!("SGLang maps the deprecated flag to --flashinfer-allreduce-fusion-backend auto."),
    flags: &["--enable-flashinfer-allreduce-fusion"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --enable-flashinfer-allreduce-fusion"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --flashinfer-allreduce-fusion-backend auto"),
};
pub static SRV104: Rule = Rule {
    code: "SRV104",
    name: kebab!("attention-backend-alias-deprecated"),
    sglang: warns("serving_hook.handle_deprecated_args", "--{attr.replace('_', '-')}={old} is deprecated;"),
    explanation: expl!("The attention backends `compressed` and `tokenspeed_mla` were renamed to `dsv4` and `cutedsl_mla` (a tokenspeed_mla prefill backend becomes trtllm_mla, since cutedsl_mla is decode-only)."),
    flags: &["--attention-backend", "--decode-attention-backend", "--prefill-attention-backend", "--speculative-draft-attention-backend"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --attention-backend tokenspeed_mla"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --attention-backend cutedsl_mla --kv-cache-dtype fp8_e4m3"),
};
pub static SRV120: Rule = Rule {
    code: "SRV120",
    name: kebab!("attention-backend-compressed-deprecated"),
    sglang: warns("serving_hook.handle_deprecated_args", "--{attr.replace('_', '-')}=compressed is deprecated; use 'dsv4' instead."),
    explanation: expl!("SGLang 0.5.18 renames the attention backend `compressed` to `dsv4` (its only backend alias; tokenspeed_mla is still a backend of its own there)."),
    flags: &["--attention-backend", "--decode-attention-backend", "--prefill-attention-backend", "--speculative-draft-attention-backend"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV123: Rule = Rule {
    code: "SRV123",
    name: kebab!("keep-mm-feature-on-device-deprecated"),
    sglang: warns("serving_hook.handle_multimodal_feature_transport", "--keep-mm-feature-on-device is deprecated;"),
    explanation: expl!("SGLang 0.5.18 maps the deprecated --keep-mm-feature-on-device to --mm-feature-transport cuda_ipc (later releases drop the flag)."),
    flags: &["--keep-mm-feature-on-device"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV124: Rule = Rule {
    code: "SRV124",
    name: kebab!("optimistic-prefill-l2-write-back-only"),
    sglang: warns("serving_hook.handle_other_validations", "Optimistic prefill only supports L2 hierarchical cache with write-back policy"),
    explanation: expl!("SGLang 0.5.18 turns optimistic prefill off on a prefill server whose hierarchical cache has a storage backend or a write policy other than write_back (later releases also keep write_through, SRV117)."),
    flags: &["--optimistic-prefill-attempts", "--enable-hierarchical-cache", "--hicache-write-policy", "--hicache-storage-backend"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV125: Rule = Rule {
    code: "SRV125",
    name: kebab!("optimistic-prefill-mamba-radix-cache"),
    sglang: warns("serving_hook.handle_other_validations", "Optimistic prefill does not support models that use mamba radix cache."),
    explanation: expl!("SGLang 0.5.18 turns optimistic prefill off on a prefill server for hybrid (Mamba-style) models whose prefix cache is the mamba radix cache."),
    flags: &["--optimistic-prefill-attempts", "--disaggregation-mode"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV105: Rule = Rule {
    code: "SRV105",
    name: kebab!("tokenspeed-mla-forces-fp8-kv"),
    sglang: warns("serving_hook.handle_deprecated_args", "tokenspeed_mla required FP8 KV; setting --kv-cache-dtype=fp8_e4m3."),
    explanation: expl!("The deprecated tokenspeed_mla backend implied an FP8 (e4m3) KV cache; SGLang keeps that behaviour by setting the KV cache dtype."),
    flags: &["--attention-backend", "--decode-attention-backend", "--kv-cache-dtype"],
    example_bad: ex!("--model-path deepseek-ai/DeepSeek-V3 --attention-backend tokenspeed_mla"),
    example_good: ex!("--model-path deepseek-ai/DeepSeek-V3 --attention-backend cutedsl_mla --kv-cache-dtype fp8_e4m3"),
};
pub static SRV106: Rule = Rule {
    code: "SRV106",
    name: kebab!("grpc-mode-deprecated"),
    sglang: warns("serving_hook.handle_deprecated_args", "--grpc-mode is deprecated and will be removed"),
    explanation: expl!("--grpc-mode is an old name for --smg-grpc-mode."),
    flags: &["--grpc-mode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --grpc-mode"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --smg-grpc-mode"),
};
pub static SRV107: Rule = Rule {
    code: "SRV107",
    name: kebab!("skip-tokenizer-init-detokenizer-workers"),
    sglang: warns("serving_hook.handle_tokenizer_batching", "skip_tokenizer_init=True leaves no decode"),
    explanation: expl!("Without a tokenizer there is nothing to detokenize, so extra detokenizer workers are dropped."),
    flags: &["--skip-tokenizer-init", "--detokenizer-worker-num"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init --detokenizer-worker-num 2"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init"),
};
pub static SRV108: Rule = Rule {
    code: "SRV108",
    name: kebab!("skip-tokenizer-init-batch-encode"),
    sglang: warns("serving_hook.handle_tokenizer_batching", "skip_tokenizer_init=True ignores --enable-tokenizer-batch-encode;"),
    explanation: expl!("Without a tokenizer there is no encoding to batch."),
    flags: &["--skip-tokenizer-init", "--enable-tokenizer-batch-encode"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init --enable-tokenizer-batch-encode"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init"),
};
pub static SRV109: Rule = Rule {
    code: "SRV109",
    name: kebab!("skip-tokenizer-init-dynamic-batch"),
    sglang: warns("serving_hook.handle_tokenizer_batching", "skip_tokenizer_init=True ignores --enable-dynamic-batch-tokenizer;"),
    explanation: expl!("Without a tokenizer there is no encoding to batch."),
    flags: &["--skip-tokenizer-init", "--enable-dynamic-batch-tokenizer"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init --enable-dynamic-batch-tokenizer"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --skip-tokenizer-init"),
};
pub static SRV110: Rule = Rule {
    code: "SRV110",
    name: kebab!("cuda-ipc-env-deprecated"),
    sglang: warns("serving_hook.handle_multimodal_feature_transport", "SGLANG_USE_CUDA_IPC_TRANSPORT is deprecated;"),
    explanation: expl!("The environment variable is replaced by --mm-feature-transport."),
    flags: &["--mm-feature-transport"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV111: Rule = Rule {
    code: "SRV111",
    name: kebab!("mm-transport-overrides-env"),
    sglang: warns("serving_hook.handle_multimodal_feature_transport", "--mm-feature-transport={requested_transport} overrides"),
    explanation: expl!("Both the flag and the legacy environment variable choose the multimodal feature transport, and they disagree; the flag wins."),
    flags: &["--mm-feature-transport"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV112: Rule = Rule {
    code: "SRV112",
    name: kebab!("mm-transport-inactive-encoder-only"),
    sglang: warns("serving_hook.handle_multimodal_feature_transport", "--mm-feature-transport={requested_transport} does"),
    explanation: expl!("An encoder-only server ships its outputs with --encoder-transfer-backend; the GPU feature transport does not apply."),
    flags: &["--mm-feature-transport", "--encoder-only"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV113: Rule = Rule {
    code: "SRV113",
    name: kebab!("debug-cuda-graph-unsupported-device"),
    sglang: warns("serving_hook.handle_environment_variables", "--debug-cuda-graph is not supported on non"),
    explanation: expl!("Breakable CUDA graph debugging needs a CUDA or ROCm GPU."),
    flags: &["--debug-cuda-graph"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV114: Rule = Rule {
    code: "SRV114",
    name: kebab!("debug-cuda-graph-enabled"),
    sglang: warns("serving_hook.handle_environment_variables", "Debug mode for CUDA graph is enabled via"),
    explanation: expl!("--debug-cuda-graph runs every operation eagerly through the breakable graph path: useful for debugging, slow for serving."),
    flags: &["--debug-cuda-graph"],
    example_bad: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct --debug-cuda-graph"),
    example_good: ex!("--model-path meta-llama/Llama-3.1-8B-Instruct"),
};
pub static SRV115: Rule = Rule {
    code: "SRV115",
    name: kebab!("coredump-dir-placeholder"),
    sglang: warns("serving_hook.handle_crash_dump_env", "Cannot pre-create CUDA coredump directory"),
    explanation: expl!("The CUDA core-dump path has a % placeholder other than %h in its directory part, so SGLang cannot create the directory ahead of time."),
    flags: &["--crash-dump-folder"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV116: Rule = Rule {
    code: "SRV116",
    name: kebab!("optimistic-prefill-no-pp"),
    sglang: warns("serving_hook.handle_other_validations", "Optimistic prefill does not support pp_size"),
    explanation: expl!("SGLang turns optimistic prefill off under pipeline parallelism."),
    flags: &["--optimistic-prefill-attempts", "--pp-size"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV117: Rule = Rule {
    code: "SRV117",
    name: kebab!("optimistic-prefill-hicache-mode"),
    sglang: warns("serving_hook.handle_other_validations", "Optimistic prefill supports L2 write-back/write-through"),
    explanation: expl!("With this hierarchical-cache setup SGLang turns optimistic prefill off."),
    flags: &["--optimistic-prefill-attempts", "--enable-hierarchical-cache", "--hicache-write-policy", "--hicache-storage-backend"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV118: Rule = Rule {
    code: "SRV118",
    name: kebab!("tensor-dump-disables-graphs"),
    sglang: warns("serving_hook.handle_other_validations", "Cuda graph and server warmup are disabled"),
    explanation: expl!("Dumping tensors needs eager execution, so SGLang disables CUDA graphs and the warm-up request."),
    flags: &["--debug-tensor-dump-output-folder"],
    example_bad: ex!(""),
    example_good: ex!(""),
};
pub static SRV119: Rule = Rule {
    code: "SRV119",
    name: kebab!("msprobe-disables-graphs"),
    sglang: warns("serving_hook.handle_other_validations", "When msProbe is enabled, cuda graph is disabled"),
    explanation: expl!("msProbe dumps only in eager mode, so SGLang disables CUDA graphs and the warm-up request."),
    flags: &["--msprobe-dump-config"],
    example_bad: ex!(""),
    example_good: ex!(""),
};

/// Every rule in this family, in pipeline order (errors, then SGLang's warnings).
pub static RULES: &[&Rule] = &[
    &SRV001, &SRV002, &SRV003, &SRV004, &SRV005, &SRV006, &SRV007, &SRV008, &SRV009, &SRV010,
    &SRV011, &SRV012, &SRV013, &SRV014, &SRV015, &SRV016, &SRV017, &SRV018, &SRV019, &SRV020,
    &SRV021, &SRV022, &SRV023, &SRV024, &SRV025, &SRV026, &SRV027, &SRV028, &SRV029, &SRV030,
    &SRV031, &SRV032, &SRV033, &SRV034, &SRV035, &SRV036, &SRV037, &SRV038, &SRV039, &SRV040,
    &SRV041, &SRV042, &SRV043, &SRV044, &SRV045, &SRV046, &SRV047, &SRV048, &SRV049, &SRV050,
    &SRV101, &SRV102, &SRV103, &SRV104, &SRV105, &SRV106, &SRV107, &SRV108, &SRV109, &SRV110,
    &SRV111, &SRV112, &SRV113, &SRV114, &SRV115, &SRV116, &SRV117, &SRV118, &SRV119, &SRV120, &SRV121, &SRV122, &SRV123, &SRV124, &SRV125,
];

