//! The page's examples: real scenarios people launch, each on the hardware it is meant for.
//! `tests/cases/examples.jsonl` holds the same commands, recorded against real SGLang, and
//! `tests/examples.rs` keeps the two in step (so what the menu shows is what was recorded).

use serde::Serialize;

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Example {
    /// The case id in `tests/cases/examples.jsonl`.
    pub id: &'static str,
    /// The menu's label.
    pub title: &'static str,
    /// One sentence on what it shows.
    pub about: &'static str,
    /// The hardware preset it is checked on (`crate::hardware::PRESETS`).
    pub gpu: &'static str,
    pub command: &'static str,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        id: "example-pd-decode-dcp",
        title: "PD decode server with decode context parallelism",
        about: "A prefill/decode-disaggregated decode server with DCP and a host-pool retraction backup.",
        gpu: "h100",
        command: "python -m sglang.launch_server \\\n  --model-path meta-llama/Llama-3.1-8B-Instruct \\\n  --disaggregation-mode decode \\\n  --dcp-size 2 \\\n  --disaggregation-decode-retraction-backup host_pool",
    },
    Example {
        id: "example-deepseek-mtp-dp-attention",
        title: "DeepSeek-V3 with MTP and DP attention on 8×H200",
        about: "Speculative decoding (EAGLE/MTP) with data-parallel attention across eight GPUs.",
        gpu: "h200",
        command: "python3 -m sglang.launch_server \\\n  --model-path deepseek-ai/DeepSeek-V3 \\\n  --tp 8 --dp 8 --enable-dp-attention \\\n  --speculative-algorithm EAGLE \\\n  --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 \\\n  --trust-remote-code",
    },
    Example {
        id: "example-hybrid-b200",
        title: "A hybrid Mamba model (Nemotron-3 Nano) on B200",
        about: "Nemotron-H models mix Mamba-2 layers with attention layers.",
        gpu: "b200",
        command: "python -m sglang.launch_server \\\n  --model-path nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 \\\n  --tp-size 4 \\\n  --mem-fraction-static 0.85",
    },
    Example {
        id: "example-lora",
        title: "LoRA serving",
        about: "Adapters loaded at run time, four per batch, up to rank 64.",
        gpu: "h100",
        command: "python -m sglang.launch_server \\\n  --model-path meta-llama/Llama-3.1-8B-Instruct \\\n  --enable-lora \\\n  --max-loras-per-batch 4 \\\n  --max-lora-rank 64 \\\n  --lora-target-modules all",
    },
    Example {
        id: "example-docker",
        title: "A docker launch",
        about: "The launch inside `docker run`: the wrapper's own options are not SGLang's.",
        gpu: "h100",
        command: "docker run --gpus all --shm-size 32g -p 30000:30000 \\\n  -v ~/.cache/huggingface:/root/.cache/huggingface \\\n  --ipc=host lmsysorg/sglang:latest \\\n  python3 -m sglang.launch_server \\\n    --model-path meta-llama/Llama-3.1-8B-Instruct \\\n    --host 0.0.0.0 --port 30000",
    },
    Example {
        id: "example-gpt-oss-tp-too-big",
        title: "gpt-oss-120b asking for more GPUs than one node has",
        about: "`sglang serve` with tensor parallelism 16 on an 8-GPU node.",
        gpu: "h100",
        command: "sglang serve openai/gpt-oss-120b --tp-size 16 --tool-call-parser gpt-oss --reasoning-parser gpt-oss",
    },
];
