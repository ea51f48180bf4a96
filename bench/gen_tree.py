#!/usr/bin/env python3
"""Write a repository-like tree for the scan benchmark (bench/scan.sh).

    python3 bench/gen_tree.py DIR [--files 10000] [--launches 300] [--seed 13]

Most files are ordinary source and text (Python, Rust, JSON, prose Markdown, configs); a few
hundred hold SGLang launches, as repositories keep them: shell scripts and Markdown docs mostly,
some Kubernetes manifests and Dockerfiles; about one launch in five has a mistake SGLang
rejects. A `.gitignore`d build directory holds more launches that a scan must not read.
Deterministic for a seed.
"""

import argparse
import os
import random

MODELS = ["meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen3-8B", "deepseek-ai/DeepSeek-V3", "mistralai/Mistral-7B-Instruct-v0.3"]
GOOD_FLAGS = ["--tp-size 2", "--mem-fraction-static 0.85", "--context-length 32768", "--port 30000",
              "--host 0.0.0.0", "--enable-metrics", "--tool-call-parser llama3", "--chunked-prefill-size 4096"]
BAD_FLAGS = ["--tool-call-parser lama3", "--tp 2 --tp-size 4", "--mem-fraction-statc 0.8", "--cuda-graph-prefill-max-context 0"]


def launch_args(rng, bad):
    flags = rng.sample(GOOD_FLAGS, 3)
    if bad:
        flags.append(rng.choice(BAD_FLAGS))
    return f"--model-path {rng.choice(MODELS)} " + " ".join(flags)


def launch(rng, bad):
    entry = rng.choice(["python -m sglang.launch_server", "python3 -m sglang.launch_server", "sglang serve"])
    return f"{entry} {launch_args(rng, bad)}"


def shell_script(rng, bad):
    return f"#!/bin/bash\nset -euo pipefail\nexport CUDA_VISIBLE_DEVICES=0,1\n# start the server\n{launch(rng, bad)} \\\n  --log-level info\n"


def markdown_doc(rng, bad):
    prose = "\n".join(f"Paragraph {i}: how to serve models with SGLang on a cluster." for i in range(rng.randint(3, 12)))
    return f"# Serving\n\n{prose}\n\n```bash\n$ {launch(rng, bad)}\n```\n\nThen query it:\n\n```python\nimport openai\n```\n"


def manifest(rng, bad):
    args = launch_args(rng, bad).split()
    quoted = ", ".join(f'"{a}"' for a in args)
    return ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: sglang\nspec:\n  template:\n    spec:\n"
            "      containers:\n        - name: server\n          image: lmsysorg/sglang:latest\n"
            f"          command: [\"python3\", \"-m\", \"sglang.launch_server\"]\n          args: [{quoted}]\n")


def dockerfile(rng, bad):
    return f"FROM lmsysorg/sglang:latest\nENV HF_HOME=/models\nCMD {launch(rng, bad)}\n"


def ordinary(rng, i):
    kind = rng.choice(["py", "rs", "json", "md", "txt", "toml", "js", "yaml", "sh"])
    body = "\n".join(f"line {j} of file {i}: nothing to see here" for j in range(rng.randint(20, 80)))
    if kind == "py":
        body = "\n".join(f"def f{j}(x):\n    return x * {j}\n" for j in range(rng.randint(10, 40)))
    elif kind == "json":
        body = "{" + ", ".join(f'"k{j}": {j}' for j in range(rng.randint(20, 100))) + "}"
    elif kind == "sh":
        body = "#!/bin/sh\n" + "\n".join(f"echo step {j}" for j in range(rng.randint(5, 30)))
    elif kind == "yaml":
        body = "\n".join(f"key{j}: value{j}" for j in range(rng.randint(5, 30)))
    return kind, body + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dir")
    p.add_argument("--files", type=int, default=10000)
    p.add_argument("--launches", type=int, default=300)
    p.add_argument("--seed", type=int, default=13)
    a = p.parse_args()
    rng = random.Random(a.seed)
    makers = [(shell_script, "sh", 0.45), (markdown_doc, "md", 0.35), (manifest, "yaml", 0.12), (dockerfile, "Dockerfile", 0.08)]
    written = 0

    def write(rel, text):
        path = os.path.join(a.dir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    for i in range(a.files):
        d = f"pkg{i % 40}/mod{i % 7}/sub{i % 3}"
        if i < a.launches:
            r = rng.random()
            for make, ext, share in makers:
                if r < share:
                    break
                r -= share
            name = f"{d}/Dockerfile.{i}" if ext == "Dockerfile" else f"{d}/launch{i}.{ext}"
            write(name, make(rng, rng.random() < 0.2))
        else:
            ext, body = ordinary(rng, i)
            write(f"{d}/file{i}.{ext}", body)
        written += 1
    # Ignored: never read.
    write(".gitignore", "build/\n")
    for i in range(200):
        write(f"build/gen{i}.sh", shell_script(rng, True))
    print(f"{written} files ({a.launches} with launches) in {a.dir}, plus 200 ignored")


if __name__ == "__main__":
    main()
