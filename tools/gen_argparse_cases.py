#!/usr/bin/env python3
"""Generate argparse / cli / config conformance cases from the schema.

    python3 tools/gen_argparse_cases.py            # writes tests/cases/{argparse,cli,config}.jsonl

For each kind of action (switch, BooleanOptionalAction, deprecated, typed store with every
type SGLang uses, choices, nargs ?/*/+) it picks several flags and writes a valid command, the
same command broken in each way argparse rejects (bad value, missing value, explicit value to a
switch, bad choice), abbreviated and `--flag=value` forms; plus hand-written real-world
commands. Commands use only shell-safe words (no quotes), one line each, so they read the same
under any shell reader. Both launchers are used.

Cases whose real verdict is decided after argparse (resolution/validation) are dropped by
`--filter FIXTURES`: after a first recording, keep only cases decided in our stages.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = json.load(open(os.path.join(ROOT, "data", "sglang-0.5.23", "schema.json")))
M = "meta-llama/Llama-3.1-8B-Instruct"
LS = f"python -m sglang.launch_server --model-path {M}"
SV = f"sglang serve --model-path {M}"
SVP = f"sglang serve {M}"

ACTIONS = [a for a in SCHEMA["actions"] if a["dest"] != "help"]
OPTS = [o for a in SCHEMA["actions"] for o in a["option_strings"]]


def unique_prefix(opt):
    """Shortest prefix (at least 3 chars shorter) that names only this option, or None."""
    for n in range(len(opt) - 1, 3, -1):
        pass
    best = None
    for n in range(len(opt) - 1, 4, -1):
        p = opt[:n]
        hits = [o for o in OPTS if o.startswith(p)]
        if hits == [opt]:
            best = p
        else:
            break
    return best if best and len(best) <= len(opt) - 2 else None


def pick(pred, n):
    out = [a for a in ACTIONS if pred(a)]
    if len(out) <= n:
        return out
    step = len(out) / n
    return [out[int(i * step)] for i in range(n)]


cases = {"argparse": [], "cli": [], "config": []}
ids = set()


def add(suite, cid, cmd, files=None):
    cid = cid.replace("/", "_")
    base, k = cid, 2
    while cid in ids:
        cid = f"{base}-{k}"
        k += 1
    ids.add(cid)
    c = {"id": cid, "cmd": cmd}
    if files:
        c["files"] = files
    cases[suite].append(c)


def launcher(i):
    return (LS, SV, SVP)[i % 3]


def name(a):
    return [o for o in a["option_strings"] if o.startswith("--")][0]


# --- switches -----------------------------------------------------------------------------
for i, a in enumerate(pick(lambda a: a["action"] == "_StoreTrueAction", 14)):
    f, L = name(a), launcher(i)
    add("argparse", f"ARG002-trigger-{f}", f"{L} {f}=true")
    add("argparse", f"ARG002-near-{f}", f"{L} {f}")
    if i % 2 == 0:
        add("argparse", f"switch-false-{f}", f"{L} {f}=false")
        add("argparse", f"switch-empty-{f}", f"{L} {f}=")
        add("argparse", f"switch-value-word-{f}", f"{L} {f} true")
    p = unique_prefix(f)
    if p:
        add("argparse", f"switch-abbrev-{f}", f"{L} {p}")
        add("argparse", f"switch-abbrev-explicit-{f}", f"{L} {p}=1")

# --- BooleanOptionalAction ----------------------------------------------------------------
for i, a in enumerate(pick(lambda a: a["action"] == "BooleanOptionalAction", 6)):
    f, L = name(a), launcher(i)
    neg = a["option_strings"][1]
    add("argparse", f"boolopt-{f}", f"{L} {f}")
    add("argparse", f"boolopt-neg-{f}", f"{L} {neg}")
    add("argparse", f"boolopt-explicit-{f}", f"{L} {neg}=yes")

# --- deprecated ---------------------------------------------------------------------------
add("argparse", "ARG009-trigger", f"{LS} --disable-cuda-graph")
add("argparse", "ARG009-near", f"{LS} --cuda-graph-backend-decode disabled --cuda-graph-backend-prefill disabled")
add("argparse", "deprecated-dp-attention", f"{SV} --enable-dp-attention --tp 2 --dp 2")
add("argparse", "deprecated-dp-attention-abbrev", f"{SV} --enable-dp-att --tp 2 --dp 2")
add("argparse", "deprecated-dp-attention-explicit", f"{SV} --enable-dp-attention=1 --tp 2 --dp 2")
add("argparse", "deprecated-cuda-graph-explicit", f"{LS} --disable-cuda-graph=true")
add("argparse", "deprecated-monokernel-amd", f"{LS} --monokernel-backend amd")
add("argparse", "deprecated-monokernel-bad-choice", f"{LS} --monokernel-backend nvidia")
add("argparse", "deprecated-monokernel-missing", f"{LS} --monokernel-backend")

# --- typed stores -------------------------------------------------------------------------
VALUES = {
    "int": (["4", "=4", " 16", "+8", "1_024", "010"], ["x", "1.5", "1e3", "4k", "0x10", "1__0", "_1"]),
    "float": (["0.5", "=0.25", "1e-1", ".5", "5.", "1_0.5", "+0.3"], ["x", "1,5", "0.5.1", "e3", "1e", "0x1"]),
}
for ty, (good, bad) in VALUES.items():
    sel = pick(lambda a, ty=ty: a["action"] == "_StoreAction" and a["type"] == ty and a["nargs"] is None and not a["choices"], 10)
    for i, a in enumerate(sel):
        f, L = name(a), launcher(i)
        g = good[i % len(good)]
        sep = "" if g.startswith("=") else " "
        add("argparse", f"ARG004-near-{f}", f"{L} {f}{sep}{g.strip()}" if not g.startswith(" ") else f"{L} {f} {g.strip()}")
        add("argparse", f"ARG004-trigger-{f}", f"{L} {f} {bad[i % len(bad)]}")
        add("argparse", f"type-eq-bad-{f}", f"{L} {f}={bad[(i + 1) % len(bad)]}")
        add("argparse", f"ARG003-trigger-{f}", f"{L} {f}")
        add("argparse", f"missing-before-flag-{f}", f"{L} {f} --trust-remote-code")
        add("argparse", f"empty-eq-{f}", f"{L} {f}=")
        p = unique_prefix(f)
        if p:
            add("argparse", f"abbrev-{f}", f"{L} {p} {good[0]}")
            add("argparse", f"abbrev-eq-bad-{f}", f"{L} {p}={bad[0]}")

# str stores without choices
for i, a in enumerate(pick(lambda a: a["action"] == "_StoreAction" and a["type"] == "str" and a["nargs"] is None and not a["choices"] and a["dest"] not in ("model_path", "config"), 8)):
    f, L = name(a), launcher(i)
    add("argparse", f"str-missing-{f}", f"{L} {f}")
    add("argparse", f"str-dash-value-{f}", f"{L} {f} -x")
    add("argparse", f"str-neg-number-{f}", f"{L} {f} -1")

# choices
for i, a in enumerate(pick(lambda a: a["action"] == "_StoreAction" and a["choices"] and a["nargs"] is None, 16)):
    f, L = name(a), launcher(i)
    ch = a["choices"]
    good = ch[i % len(ch)]
    add("argparse", f"ARG005-near-{f}", f"{L} {f} {good}")
    if isinstance(good, str):
        add("argparse", f"ARG005-trigger-{f}", f"{L} {f} {good.upper() if good.upper() != good else good + 'x'}")
        add("argparse", f"choice-typo-eq-{f}", f"{L} {f}={good[:-1] if len(good) > 2 else 'zz'}")
    else:
        add("argparse", f"ARG005-trigger-{f}", f"{L} {f} 99")
        add("argparse", f"choice-int-bad-{f}", f"{L} {f} x")
    add("argparse", f"choice-missing-{f}", f"{L} {f}")

# nargs + / * / ?
for i, a in enumerate(pick(lambda a: a["nargs"] == "+", 10)):
    f, L = name(a), launcher(i)
    v = {"int": ["1", "2"], "float": ["0.1", "1.0"], "str": ["a", "b"]}.get(a["type"], ["a", "b"])
    bad = {"int": "x", "float": "y"}.get(a["type"])
    add("argparse", f"plus-two-{f}", f"{L} {f} {' '.join(v)}")
    add("argparse", f"plus-eq-{f}", f"{L} {f}={v[0]}")
    add("argparse", f"plus-none-{f}", f"{L} {f}")
    add("argparse", f"plus-none-before-flag-{f}", f"{L} {f} --trust-remote-code")
    if bad:
        add("argparse", f"plus-bad-item-{f}", f"{L} {f} {v[0]} {bad}")
for i, a in enumerate(pick(lambda a: a["nargs"] == "*" and a["action"] == "_StoreAction", 4)):
    f, L = name(a), launcher(i)
    val = a["choices"][0] if a["choices"] else "a"
    add("argparse", f"star-zero-{f}", f"{L} {f}")
    add("argparse", f"star-one-{f}", f"{L} {f} {val}")
    add("argparse", f"star-then-flag-{f}", f"{L} {f} --trust-remote-code")
    if a["choices"]:
        add("argparse", f"star-bad-choice-{f}", f"{L} {f} {val} nope")
add("argparse", "optional-none", f"{LS} --model-checksum")
add("argparse", "optional-value", f"{LS} --model-checksum abc")
add("argparse", "optional-eq", f"{SV} --model-checksum=abc")
add("argparse", "optional-before-flag", f"{SV} --model-checksum --trust-remote-code")
add("argparse", "optional-two-values", f"{SV} --model-checksum a b")

# special types
for t, good, bads in [
    ("json.loads", ["{}", "[1,2]", "1", "null", "NaN"], ["{x}", "[1,", "nul", "{}x", "'a'"]),
    ("sglang.srt.utils.common.json_list_type", ["[1,2]", "[]", "3"], ["x", "[1,", "NaN", "{x}"]),
    ("sglang.srt.utils.common.human_readable_int", ["1k", "2Ki", "2.5k", "1024", "1M"], ["x", "1.5Ki", "1e3", "1K", "1kB"]),
    ("sglang.srt.utils.common.nullable_str", ["None", "abc"], []),
]:
    sel = [a for a in ACTIONS if a["type"] == t]
    for i, a in enumerate(sel):
        f, L = name(a), launcher(i)
        for k, g in enumerate(good[:3] if i else good):
            add("argparse", f"{t.rsplit('.', 1)[-1]}-ok-{f}-{k}", f"{L} {f} {g}")
        for k, b in enumerate(bads[:2] if i else bads):
            add("argparse", f"{t.rsplit('.', 1)[-1]}-bad-{f}-{k}", f"{L} {f} {b}")
for f in ("--cuda-graph-backend-decode", "--cuda-graph-backend-prefill"):
    add("argparse", f"cg-backend-ok-{f}", f"{LS} {f} full")
    add("argparse", f"cg-backend-removed-{f}", f"{LS} {f} tc_piecewise")
    add("argparse", f"cg-backend-case-{f}", f"{LS} {f} FULL")
for k, v in enumerate(["{}", "5", "[1]", "{x}", "{", "[]x", "null", "1.5", "true"]):
    add("argparse", f"cg-config-{k}", f"{LS} --cuda-graph-config {v}")

# LoRA paths
add("argparse", "ARG006-trigger", f"{LS} --lora-paths {{}}")
add("argparse", "ARG006-near", f"{LS} --lora-paths adapter=/tmp/a")
add("argparse", "lora-json-bad", f"{LS} --lora-paths {{x}}")
add("argparse", "lora-json-bad2", f"{SV} --lora-paths a {{1}}")
add("argparse", "lora-open-brace-only", f"{SV} --lora-paths {{bad")
add("argparse", "lora-zero", f"{SV} --lora-paths")

# ambiguity
amb = {}
for o in OPTS:
    for n in range(6, len(o)):
        p = o[:n]
        hits = [x for x in OPTS if x.startswith(p)]
        if len(hits) > 1 and p not in OPTS:
            amb.setdefault(len(hits), set()).add(p)
chosen = []
for k in sorted(amb):
    chosen.extend(sorted(amb[k])[:: max(1, len(amb[k]) // 3)][:3])
for i, p in enumerate(chosen[:24]):
    add("argparse", f"ARG001-trigger-{p}", f"{launcher(i)} {p} 1")
add("argparse", "ARG001-near", f"{LS} --cuda-graph-max-bs-decode 8")
add("argparse", "cuda-graph-max-bs-ambiguous", f"{LS} --cuda-graph-max-bs 8")
add("argparse", "ambiguous-eq", f"{LS} --cuda-graph-max-bs=8")
add("argparse", "ambiguous-after-bad-value", f"{LS} --tp x --cuda-graph 4")
add("argparse", "ambiguous-two", f"{LS} --cuda-graph-bs 1 --cuda-graph 4")

# unknown flags, did-you-mean, extras
for cid, extra in [
    ("reasoning-underscore", "--reasoning_parser qwen3"),
    ("tool-call-underscore", "--tool_call_parser llama3"),
    ("tp-underscore", "--tp_size 2"),
    ("enable-ep-moe", "--enable-ep-moe --tp 2"),
    ("enable-deepep-moe", "--enable-deepep-moe"),
    ("mamba-scheduler-strategy", "--mamba-scheduler-strategy auto"),
    ("vllm-max-model-len", "--max-model-len 4096"),
    ("vllm-gpu-mem", "--gpu-memory-utilization 0.9"),
    ("vllm-max-num-seqs", "--max-num-seqs 64"),
    ("vllm-enable-reasoning", "--enable-reasoning"),
    ("vllm-prefix-caching", "--enable-prefix-caching"),
    ("vllm-enforce-eager", "--enforce-eager"),
    ("vllm-seed", "--seed 1"),
    ("vllm-swap-space", "--swap-space 4"),
    ("typo-tp-szie", "--tp-szie 2"),
    ("typo-mem-fraction", "--mem-fracton-static 0.8"),
    ("typo-trust", "--trust-remote-cod"),
    ("typo-trsut", "--trsut-remote-code"),
    ("typo-context", "--context-lenght 4096"),
    ("single-dash-tp", "-tp 2"),
    ("single-dash-port", "-port 30000"),
    ("unknown-foo", "--foo"),
    ("unknown-foo-eq", "--foo=bar"),
    ("unknown-many", "--foo 1 --bar --baz=2"),
    ("stray-positional", "extra"),
    ("stray-two", "extra more --trust-remote-code"),
    ("dashdash-end", "--"),
    ("dashdash-then-flag", "-- --tp 2"),
    ("dashdash-value", "--tp -- 2"),
    ("negative-seed", "--random-seed -1"),
    ("negative-float-like", "--random-seed -.5"),
    ("dash-only", "-"),
    ("repeat-tp", "--tp 2 --tp 1"),
    ("repeat-port", "--port 30001 --port 30002"),
    ("bad-then-unknown", "--tp x --foo"),
    ("unknown-then-bad", "--foo --tp x"),
    ("missing-then-unknown", "--foo --port"),
    ("help", "--help"),
    ("help-short", "-h"),
    ("help-after-error", "--tp x -h"),
    ("help-explicit", "-hx"),
    ("help-long-explicit", "--help=1"),
    ("config-eq", "--config=cfg.yaml"),
    ("eq-in-value", "--served-model-name a=b"),
    ("spaceless-short", "-tp2"),
]:
    for j, L in enumerate((LS, SV)):
        if j and cid.startswith(("typo-", "vllm-s", "unknown-foo-", "negative-float")):
            continue
        add("argparse", f"unknown-{cid}" if j == 0 else f"unknown-{cid}-serve", f"{L} {extra}")
add("argparse", "ARG008-trigger", f"{LS} --reasoning_parser qwen3")
add("argparse", "ARG008-near", f"{LS} --reasoning-parser qwen3")
add("argparse", "ARG010-trigger", f"{LS} --tp 2 --tp 1")
add("argparse", "ARG010-near", f"{LS} --tp 1")

# required
add("argparse", "ARG007-trigger", "python -m sglang.launch_server --tp 2")
add("argparse", "ARG007-near", f"python -m sglang.launch_server --model {M} --tp 2")
add("argparse", "required-abbrev", f"python -m sglang.launch_server --model-p {M}")
add("argparse", "required-eq", f"python -m sglang.launch_server --model-path={M}")
add("argparse", "required-and-unknown", "python -m sglang.launch_server --foo")
add("argparse", "required-and-bad", "python -m sglang.launch_server --tp x")
add("argparse", "required-empty", "python -m sglang.launch_server")
add("argparse", "required-missing-value", "python -m sglang.launch_server --model-path")

# --- front end (sglang serve) -------------------------------------------------------------
C = [
    ("CLI001-trigger", f"sglang serve --model-path {M} --model-type"),
    ("CLI001-near", f"sglang serve --model-path {M} --model-type llm"),
    ("CLI002-trigger", f"sglang serve --model-type= --model-path {M}"),
    ("CLI002-near", f"sglang serve --model-type=llm --model-path {M}"),
    ("CLI003-trigger", f"sglang serve --model-type lm --model-path {M}"),
    ("CLI003-near", f"sglang serve --model-type auto --model-path {M}"),
    ("CLI003-foo", f"sglang serve --model-type=foo {M}"),
    ("CLI004-trigger", "sglang serve --tp 2"),
    ("CLI004-near", f"sglang serve {M} --tp 2"),
    ("CLI004-abbrev", f"sglang serve --model-p {M}"),
    ("CLI004-model", f"sglang serve --model {M}"),
    ("CLI004-model-eq", f"sglang serve --model={M}"),
    ("CLI004-model-path-last", "sglang serve --tp 2 --model-path"),
    ("CLI004-empty", "sglang serve"),
    ("CLI004-help", "sglang serve --help"),
    ("CLI004-help-short", "sglang serve -h --tp x"),
    ("positional-then-flags", f"sglang serve {M} --port 30001"),
    ("positional-two", f"sglang serve {M} other"),
    ("positional-and-flag", f"sglang serve {M} --model-path {M}"),
    ("model-type-llm-positional", f"sglang serve --model-type llm {M}"),
    ("model-type-twice", f"sglang serve --model-type foo --model-type llm {M}"),
    ("model-type-then-unknown", f"sglang serve --model-type bad --foo"),
    ("model-type-missing-then-model", f"sglang serve {M} --model-type"),
    ("serve-unknown", f"sglang serve {M} --foo"),
    ("serve-dashdash-model", f"sglang serve -- {M}"),
    ("serve-model-missing-value-other", f"sglang serve --model-path --tp 2"),
    ("ls-model-type", f"python -m sglang.launch_server --model-path {M} --model-type llm"),
    ("ls-positional", f"python -m sglang.launch_server {M}"),
]
for cid, cmd in C:
    add("cli", cid, cmd)

# --- --config -----------------------------------------------------------------------------
Y = "cfg.yaml"
CFG = [
    ("CFG001-trigger", f"{LS} --config {Y} --config b.yaml", {Y: "tp-size: 1\n", "b.yaml": "port: 30001\n"}),
    ("CFG001-near", f"{LS} --config {Y}", {Y: "tp-size: 1\n"}),
    ("CFG002-trigger", f"{LS} --config", None),
    ("CFG002-near", f"{LS} --config {Y}", {Y: "port: 30001\n"}),
    ("CFG003-trigger", f"{LS} --config cfg.json", {"cfg.json": "{}"}),
    ("CFG003-near", f"{LS} --config cfg.yml", {"cfg.yml": "port: 30001\n"}),
    ("CFG003-nosuffix", f"{LS} --config cfg", None),
    ("CFG003-upper", f"{LS} --config CFG.YAML", {"CFG.YAML": "port: 30001\n"}),
    ("CFG004-trigger", f"{LS} --config missing.yaml", None),
    ("CFG006-trigger", f"{LS} --config {Y}", {Y: "- tp-size\n- 2\n"}),
    ("CFG006-scalar", f"{LS} --config {Y}", {Y: "hello\n"}),
    ("CFG006-near", f"{LS} --config {Y}", {Y: "tp-size: 2\n"}),
    ("CFG-empty-file", f"{LS} --config {Y}", {Y: ""}),
    ("CFG-comment-only", f"{LS} --config {Y}", {Y: "# nothing\n"}),
    ("CFG007-trigger", f"{LS} --config {Y}", {Y: "lora-paths:\n  - a\n"}),
    ("CFG007-near", f"{LS} --lora-paths a", None),
    ("CFG007-boolopt", f"{LS} --config {Y}", {Y: "enable-tf32-matmul: true\n"}),
    ("CFG007-deprecated", f"{LS} --config {Y}", {Y: "disable_cuda_graph: true\n"}),
    ("CFG008-trigger", f"{LS} --config={Y}", {Y: "tp-size: 2\n"}),
    ("CFG008-near", f"{LS} --config {Y}", {Y: "port: 30001\n"}),
    ("config-model-path", f"python -m sglang.launch_server --config {Y}", {Y: f"model-path: {M}\n"}),
    ("config-model-path-serve", f"sglang serve --config {Y}", {Y: f"model-path: {M}\n"}),
    ("config-model-path-underscore", f"python -m sglang.launch_server --config {Y}", {Y: f"model_path: {M}\n"}),
    ("config-underscore-key", f"{LS} --config {Y}", {Y: "tp_size: 2\n"}),
    ("config-store-true-true", f"{LS} --config {Y}", {Y: "trust-remote-code: true\n"}),
    ("config-store-true-false", f"{LS} --config {Y}", {Y: "trust-remote-code: false\n"}),
    ("config-store-true-underscore", f"{LS} --config {Y}", {Y: "trust_remote_code: true\n"}),
    ("config-store-true-yes", f"{LS} --config {Y}", {Y: "trust-remote-code: yes\n"}),
    ("config-store-true-string", f"{LS} --config {Y}", {Y: "trust-remote-code: 'true'\n"}),
    ("config-bool-for-valued", f"{LS} --config {Y}", {Y: "port: true\n"}),
    ("config-int", f"{LS} --config {Y}", {Y: "port: 30001\nrandom-seed: 7\n"}),
    ("config-octal", f"{LS} --config {Y}", {Y: "random-seed: 010\n"}),
    ("config-float", f"{LS} --config {Y}", {Y: "mem-fraction-static: 0.8\n"}),
    ("config-float-exp-string", f"{LS} --config {Y}", {Y: "mem-fraction-static: 1e-1\n"}),
    ("config-bad-int", f"{LS} --config {Y}", {Y: "port: abc\n"}),
    ("config-bad-choice", f"{LS} --config {Y}", {Y: "load-format: nope\n"}),
    ("config-null", f"{LS} --config {Y}", {Y: "port: null\n"}),
    ("config-null-nullable", f"{LS} --config {Y}", {Y: "served-model-name: ~\n"}),
    ("config-list", f"{LS} --config {Y}", {Y: "numa-node: [0, 1]\n"}),
    ("config-list-empty", f"{LS} --config {Y}", {Y: "numa-node: []\n"}),
    ("config-list-bad", f"{LS} --config {Y}", {Y: "numa-node: [a]\n"}),
    ("config-list-for-scalar", f"{LS} --config {Y}", {Y: "port: [1, 2]\n"}),
    ("config-dict-json", f"{LS} --config {Y}", {Y: "mm-process-config:\n  a: 1\n"}),
    ("config-dict-cg", f"{LS} --config {Y}", {Y: "cuda-graph-config:\n  decode:\n    max_bs: 8\n"}),
    ("config-dict-cg-bad", f"{LS} --config {Y}", {Y: "cuda-graph-config:\n  decode:\n    size: 8\n"}),
    ("config-unknown-key", f"{LS} --config {Y}", {Y: "max-model-len: 4096\n"}),
    ("config-cli-overrides", f"{LS} --config {Y} --port 30002", {Y: "port: 30001\n"}),
    ("config-cli-bad-overrides", f"{LS} --config {Y} --port 30002", {Y: "port: abc\n"}),
    ("config-before-cli-error", f"{LS} --tp x --config {Y}", {Y: "port: abc\n"}),
    ("config-ambiguous-key", f"{LS} --config {Y}", {Y: "cuda-graph: 4\n"}),
    ("config-abbrev-key", f"{LS} --config {Y}", {Y: "trust-remote: true\n"}),
    ("config-deprecated-dp", f"{LS} --config {Y} --tp 2 --dp 2", {Y: "enable-dp-attention: true\n"}),
    ("config-monokernel", f"{LS} --config {Y}", {Y: "monokernel-backend: nvidia\n"}),
    ("config-anchor", f"{LS} --config {Y}", {Y: "a: &p 30001\nport: *p\n"}),
    ("config-quoted-int", f"{LS} --config {Y}", {Y: "port: '30001'\n"}),
    ("config-serve-positional", f"sglang serve {M} --config {Y}", {Y: "port: 30001\n"}),
    ("config-help", f"{LS} --config missing.yaml --help", None),
    ("config-switch-explicit", f"{LS} --config {Y}", {Y: "disable-radix-cache: 1\n"}),
    ("config-value-with-space", f"{LS} --config {Y}", {Y: "served-model-name: my model\n"}),
    ("config-hex", f"{LS} --config {Y}", {Y: "random-seed: 0x10\n"}),
    ("config-underscore-num", f"{LS} --config {Y}", {Y: "random-seed: 1_000\n"}),
    ("config-human-int", f"{LS} --config {Y}", {Y: "max-total-tokens: 1k\n"}),
]
for cid, cmd, files in CFG:
    add("config", cid, cmd, files)

if __name__ == "__main__":
    keep = None
    if len(sys.argv) > 1 and sys.argv[1] == "--filter":
        # keep only cases whose real verdict is decided in the front end / argparse
        keep = set()
        for suite in cases:
            p = os.path.join(ROOT, "tests", "fixtures", "0.5.23", f"{suite}.jsonl")
            if not os.path.exists(p):
                continue
            for line in open(p):
                fx = json.loads(line)
                ok = all(c["verdict"] in ("ok", "help") or c.get("stage") in ("cli", "config", "argparse", "prepare")
                         for c in fx["commands"])
                ok = ok and all(c["verdict"] != "ok" or not c.get("warnings") or True for c in fx["commands"])
                if ok:
                    keep.add(fx["id"])
    for suite, cs in cases.items():
        if keep is not None:
            cs = [c for c in cs if c["id"] in keep]
        with open(os.path.join(ROOT, "tests", "cases", f"{suite}.jsonl"), "w") as f:
            for c in cs:
                f.write(json.dumps(c) + "\n")
        print(f"{suite}: {len(cs)} cases")
