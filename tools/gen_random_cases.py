#!/usr/bin/env python3
"""A differential sweep: random launch commands from the schema, for recording against real SGLang.

    python3 tools/gen_random_cases.py --seed 1 -n 600 -o /tmp/sweep.jsonl
    python3 tools/recorder/record.py --out-dir /tmp/sweep-fixtures /tmp/sweep.jsonl
    CONFORMANCE_DIR=/tmp/sweep-fixtures cargo test --test conformance   # every difference listed

Each command is a real model path plus 2-6 flags, mostly flags some rule reads (rules'
metadata), with values SGLang's users write (each choice, small and typical sizes, switches),
on a random hardware profile. The hand-written rule cases test each rule alone; the sweep tests
how rules combine and which one fires first, where faithfulness breaks unnoticed. Differences
found are fixed in the core and the commands kept as fixtures (tests/cases/random_sweep*.jsonl).

`--themed` (with --catalog-models) aims where the plain sweep is thin: 4-9 flags, the model
drawn family by family (MLA, DSA, hybrid Mamba/linear, sliding window, MoE, multimodal,
embedding, diffusion LLM, quantized checkpoints, dense), and most commands built around one
theme (speculative decoding with a catalog draft model, PD disaggregation, DP attention,
hierarchical cache, LoRA, quantization against the checkpoint's own) before the random flags;
some give their value flags in a `--config` YAML file instead.
"""
import argparse
import json
import os
import random
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = json.load(open(os.path.join(ROOT, "data", "sglang-0.5.23", "schema.json")))
SCHEMA_CHOICES = {a["dest"]: [str(c) for c in a["choices"]] for a in SCHEMA["actions"] if a.get("choices")}
MODELS = [
    "meta-llama/Llama-3.1-8B-Instruct",
    "Qwen/Qwen3-8B",
    "deepseek-ai/DeepSeek-V3",
    "Qwen/Qwen3-30B-A3B",
]
PROFILES = ["h100"] * 6 + ["b200", "b200", "a100", "mi300x", "l40s", "cpu", "h200", "gb200"]
INTS = ["0", "1", "2", "4", "8", "16", "64", "256", "4096", "32768", "-1"]
FLOATS = ["0", "0.5", "0.8", "0.9", "1.0", "1.5"]
# Values for string flags that take something specific (others get a plain word).
STRINGS = {
    "dtype": ["auto", "bfloat16", "float16"],
    "kv_cache_dtype": ["auto", "fp8_e4m3", "bfloat16"],
    "quantization": ["fp8", "awq", "gptq", "w8a8_fp8"],
    "load_format": ["auto", "dummy"],
    "host": ["0.0.0.0", "127.0.0.1"],
    "served_model_name": ["my-model"],
    "chat_template": ["chatml"],
    "tokenizer_path": ["meta-llama/Llama-3.1-8B-Instruct"],
    "disaggregation_transfer_backend": ["mooncake", "nixl", "fake"],
    "hicache_storage_backend": ["file", "mooncake", "hf3fs"],
    "speculative_algorithm": ["NGRAM"],
}


def rule_flags():
    out = subprocess.run(["cargo", "run", "-q", "--", "reference", "--json"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    flags = set()
    for r in json.loads(out):
        flags.update(f for f in r["flags"] if f.startswith("--"))
    return flags


# Free-text flags (paths, names, URLs) are left out: a made-up value only tests whether a file
# or hub repository exists, which no pasted command can tell.
def wanted(action):
    if action.get("choices") or action["dest"] in STRINGS:
        return True
    if action["action"] not in ("_StoreAction", "LoRAPathAction"):
        return True
    t = action.get("type") or ""
    return t in ("int", "float") or t.endswith(("human_readable_int", "json_list_type")) or t == "json.loads"


def value_for(action, rng):
    dest = action["dest"]
    if action.get("choices"):
        return rng.choice([str(c) for c in action["choices"]])
    if dest in STRINGS:
        return rng.choice(STRINGS[dest])
    t = action.get("type")
    if t == "int" or (t or "").endswith("human_readable_int"):
        return rng.choice(INTS)
    if t == "float":
        return rng.choice(FLOATS)
    if t == "json.loads" or (t or "").endswith("json_list_type"):
        return rng.choice(["'{}'", "'[]'"])
    return rng.choice(["x", "auto", "none"])


def words_for(action, rng):
    opt = max(action["option_strings"], key=lambda o: (o.startswith("--"), -len(o)))
    kind = action["action"]
    if kind in ("_StoreTrueAction", "DeprecatedStoreTrueAction", "DeprecatedStoreConstAction", "_StoreConstAction"):
        return [opt]
    if kind == "BooleanOptionalAction":
        return [rng.choice([o for o in action["option_strings"] if o.startswith("--")])]
    nargs = action.get("nargs")
    if nargs in ("*", "+"):
        return [opt] + [value_for(action, rng) for _ in range(rng.choice([1, 1, 2]))]
    if nargs == "?" and rng.random() < 0.3:
        return [opt]
    return [opt, value_for(action, rng)]


# The catalog's families, by what SGLang's ModelConfig says of each model (--themed draws a
# family first, so the few models of a rare family are launched as often as the many dense ones).
def families(kinds, models):
    def fam(m):
        s, r = kinds[m]["sglang"], kinds[m]["raw"]
        out = []
        if s.get("is_dsa"):
            out.append("dsa")
        elif s.get("is_mla"):
            out.append("mla")
        if s.get("is_hybrid_linear_attention"):
            out.append("hybrid_linear")
        if s.get("is_hybrid_swa"):
            out.append("swa")
        if s.get("is_multimodal"):
            out.append("multimodal")
        if s.get("is_embedding"):
            out.append("embedding")
        if s.get("dllm"):
            out.append("dllm")
        if r.get("routed_experts"):
            out.append("moe")
        if s.get("quantization"):
            out.append("quantized")
        return out or ["dense"]
    table = {}
    for m in models:
        for f in fam(m):
            table.setdefault(f, []).append(m)
    return table


SPEC_ALGORITHMS = ["EAGLE", "EAGLE3", "NEXTN", "MTP", "NGRAM", "DFLASH", "DSPARK", "STANDALONE", "FROZEN_KV_MTP"]
# Draft models the recorder serves (a small dense model, a DFlash draft, the target itself).
DRAFTS = ["Qwen/Qwen3-0.6B", "meta-llama/Llama-3.1-8B-Instruct", "z-lab/Muse-Glimmer-30B-DFlash2"]
SMALL = ["1", "2", "3", "4", "8", "16"]


def theme_words(theme, model, rng):
    """One theme's flags, as users write them together."""
    w = []
    if theme == "spec":
        w += ["--speculative-algorithm", rng.choice(SPEC_ALGORITHMS)]
        if rng.random() < 0.6:
            w += ["--speculative-draft-model-path", rng.choice(DRAFTS + [model])]
        for flag in ("--speculative-num-steps", "--speculative-eagle-topk", "--speculative-num-draft-tokens"):
            if rng.random() < 0.5:
                w += [flag, rng.choice(SMALL + ["0", "-1"])]
    elif theme == "pd":
        w += ["--disaggregation-mode", rng.choice(["prefill", "decode", "null"])]
        if rng.random() < 0.6:
            w += ["--disaggregation-transfer-backend", rng.choice(["mooncake", "nixl", "fake", "mori", "ascend"])]
        if rng.random() < 0.4:
            w += ["--tp-size", rng.choice(["1", "2", "4", "8"])]
    elif theme == "dp_attention":
        tp = rng.choice(["1", "2", "4", "8", "16"])
        w += ["--tp-size", tp, "--dp-size", rng.choice(["1", "2", "4", "8", tp])]
        if rng.random() < 0.85:
            w += ["--enable-dp-attention"]
        if rng.random() < 0.3:
            w += ["--ep-size", rng.choice(["1", "8", tp])]
        if rng.random() < 0.3:
            w += ["--moe-a2a-backend", rng.choice(["deepep", "none", "mooncake", "flashinfer"])]
    elif theme == "hicache":
        w += ["--enable-hierarchical-cache"]
        for flag, vals in (("--hicache-ratio", ["0.5", "1.0", "2", "4"]), ("--hicache-size", ["0", "16", "64"]),
                           ("--hicache-mem-layout", ["layer_first", "page_first", "page_first_direct", "page_first_kv_split", "page_head"]),
                           ("--hicache-io-backend", ["direct", "kernel"]),
                           ("--hicache-write-policy", ["write_back", "write_through", "write_through_selective"]),
                           ("--hicache-storage-backend", ["file", "mooncake", "hf3fs", "nixl"]),
                           ("--page-size", ["1", "16", "64"])):
            if rng.random() < 0.35:
                w += [flag, rng.choice(vals)]
    elif theme == "lora":
        w += ["--enable-lora"] if rng.random() < 0.8 else []
        for flag, vals in (("--max-lora-rank", ["8", "16", "64"]),
                           ("--lora-target-modules", ["all", "q_proj", "qkv_proj", "gate_up_proj", "embed_tokens", "lm_head"]),
                           ("--lora-backend", ["triton", "csgmv", "torch_native", "triton_v2"]),
                           ("--max-loras-per-batch", ["1", "4", "8"]), ("--max-loaded-loras", ["1", "4", "16"])):
            if rng.random() < 0.4:
                w += [flag, rng.choice(vals)]
    elif theme == "quant":
        q = rng.choice(SCHEMA_CHOICES["quantization"])
        w += ["--quantization", q]
        if rng.random() < 0.4:
            w += ["--kv-cache-dtype", rng.choice(["fp8_e4m3", "fp8_e5m2", "bfloat16", "auto", "fp4_e2m1"])]
        if rng.random() < 0.3:
            w += ["--dtype", rng.choice(["auto", "bfloat16", "float16", "float32"])]
    return w


THEMES = ["spec", "spec", "pd", "dp_attention", "hicache", "lora", "quant", None]


def yaml_scalar(word):
    # a flag's value as YAML reads back the same string
    return word if all(c.isalnum() or c in "._-" for c in word) and not word.lstrip("-").replace(".", "").isdigit() else json.dumps(word)


def to_config(words, schema_by_opt, rng):
    """Moves some of the command's flags into a --config YAML file (the rest stay on the line)."""
    groups, i = [], 0
    while i < len(words):
        j = i + 1
        while j < len(words) and not words[j].startswith("--"):
            j += 1
        groups.append(words[i:j])
        i = j
    line, yaml = [], []
    for g in groups:
        a = schema_by_opt.get(g[0])
        if a and rng.random() < 0.6 and a.get("nargs") not in ("*", "+") and len(g) <= 2 and not g[-1].startswith("'"):
            key = g[0][2:]
            if len(g) == 1:
                yaml.append(f"{key}: true")
            else:
                value = g[1]
                yaml.append(f"{key}: {value if value.lstrip('-').replace('.', '', 1).isdigit() else yaml_scalar(value)}")
        else:
            line += g
    return line, "\n".join(yaml) + "\n" if yaml else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-n", type=int, default=500)
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--prefix", default="sweep")
    ap.add_argument("--catalog-models", action="store_true",
                    help="draw the model from every catalog model the recorder serves (tools/gen_catalog_cases.py), "
                         "so flags meet each model's own checks, not only the four stand-ins'")
    ap.add_argument("--themed", action="store_true",
                    help="4-9 flags, the model drawn by family, most commands around one theme, some with --config (needs --catalog-models)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    models = MODELS
    blackwell_unanswerable = set()
    if args.catalog_models:
        import gen_catalog_cases as cat
        models = cat.served_hub_ids()
        kinds = cat.catalog()["models"]
        # the launches the catalog sweep leaves out on Blackwell (the recorder cannot answer them)
        blackwell_unanswerable = {m for m in models if kinds[m]["raw"].get("model_type") in cat.LEFT_OUT_BY_MODEL_TYPE}
    ruled = rule_flags()
    actions = [a for a in SCHEMA["actions"] if a["dest"] not in ("help", "model_path", "config")
               and any(o.startswith("--") for o in a["option_strings"]) and wanted(a)]
    ruled_actions = [a for a in actions if set(a["option_strings"]) & ruled]
    by_family = families(kinds, models) if args.themed else {}
    by_opt = {o: a for a in actions for o in a["option_strings"]}
    with open(args.out, "w") as f:
        for i in range(args.n):
            words = []
            seen = set()
            if args.themed:
                model = rng.choice(by_family[rng.choice(sorted(by_family))])
                theme = rng.choice(THEMES)
                words = theme_words(theme, model, rng) if theme else []
                seen = {by_opt[w]["dest"] for w in words if w in by_opt}
                count = rng.randint(4, 9) - len([w for w in words if w.startswith("--")])
            else:
                count = rng.randint(2, 6)
            for _ in range(max(count, 0)):
                a = rng.choice(ruled_actions if rng.random() < 0.8 else actions)
                if a["dest"] in seen:
                    continue
                seen.add(a["dest"])
                words += words_for(a, rng)
            if not args.themed:
                model = rng.choice(models)
            files = None
            if args.themed and rng.random() < 0.12:
                words, text = to_config(words, by_opt, rng)
                if text:
                    words += ["--config", "cfg.yaml"]
                    files = {"cfg.yaml": text}
            cmd = f"python -m sglang.launch_server --model-path {model} " + " ".join(words)
            case = {"id": f"{args.prefix}-{args.seed}-{i}", "cmd": cmd}
            if files:
                case["files"] = files
            profile = rng.choice([p for p in PROFILES if not (model in blackwell_unanswerable and p in ("b200", "gb200"))])
            if profile != "h100":
                case["profile"] = profile
            f.write(json.dumps(case) + "\n")


if __name__ == "__main__":
    main()
