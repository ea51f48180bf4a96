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
"""
import argparse
import json
import os
import random
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = json.load(open(os.path.join(ROOT, "data", "sglang-0.5.23", "schema.json")))
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-n", type=int, default=500)
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--prefix", default="sweep")
    ap.add_argument("--catalog-models", action="store_true",
                    help="draw the model from every catalog model the recorder serves (tools/gen_catalog_cases.py), "
                         "so flags meet each model's own checks, not only the four stand-ins'")
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
    with open(args.out, "w") as f:
        for i in range(args.n):
            words = []
            seen = set()
            for _ in range(rng.randint(2, 6)):
                a = rng.choice(ruled_actions if rng.random() < 0.8 else actions)
                if a["dest"] in seen:
                    continue
                seen.add(a["dest"])
                words += words_for(a, rng)
            model = rng.choice(models)
            cmd = f"python -m sglang.launch_server --model-path {model} " + " ".join(words)
            case = {"id": f"{args.prefix}-{args.seed}-{i}", "cmd": cmd}
            profile = rng.choice([p for p in PROFILES if not (model in blackwell_unanswerable and p in ("b200", "gb200"))])
            if profile != "h100":
                case["profile"] = profile
            f.write(json.dumps(case) + "\n")


if __name__ == "__main__":
    main()
