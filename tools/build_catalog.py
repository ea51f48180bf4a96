#!/usr/bin/env python3
"""Build the model catalog (`data/models/catalog.json`) and SGLang's per-release architecture lists
(`data/sglang-<release>/model-lists.json`) from public `config.json` files, by running the real
SGLang package on each.

Sources (each config keeps its source and license):
  - folders of configs with a `hub_ids.json` (hub id -> folder) and a `SOURCES.md` whose tables give
    each hub id's source (`--folder`, default: /work/shared/oracle/models and tools/recorder/models);
  - NVIDIA's aiconfigurator (Apache-2.0), a local git directory (`--aiconfigurator`): every
    `<org>--<name>_config.json` (and `_hf_quant_config.json`) in its history, newest version.

Facts are of two kinds:
  - `raw`: read from the config dict as written (the same reading `src/models.rs` applies to a pasted
    config, so a pasted copy gives the same raw facts);
  - `sglang`: what SGLang 0.5.23's `ModelConfig` computes (context length, dtype, quantization, KV
    heads, head dim, layers, and its predicates: MLA, DSA, multimodal, embedding, hybrid linear
    attention, hybrid SWA), run under the recorder's stubs (torch stubbed, offline).

Usage:
    python3 tools/build_catalog.py [--version 0.5.23] [--aiconfigurator DIR] [--folder DIR ...]
    python3 tools/build_catalog.py --version 0.5.18 --lists-only    # an older release: its lists only

The script re-runs itself in the recorder's venv of the release (~/.cache/sgl-oracle/venv-<release>).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RECORDER = os.path.join(HERE, "recorder")
STATE = os.environ.get("SGL_ORACLE_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "sgl-oracle")
AIC_VENDORED = os.path.join(HERE, "catalog-sources", "aiconfigurator")
DEFAULT_FOLDERS = ["/work/shared/oracle/models", os.path.join(RECORDER, "models"), os.path.join(HERE, "catalog-sources"), AIC_VENDORED]
# aiconfigurator configs larger than this stay in its repository (read with --aiconfigurator).
AIC_VENDOR_MAX_BYTES = 60_000
AIC_LICENSE = "Apache-2.0"
AIC_REPO = "ai-dynamo/aiconfigurator"
AIC_NAME = re.compile(r"^(?P<org>[A-Za-z0-9_.-]+?)--(?P<name>[A-Za-z0-9_.-]+?)_(?P<kind>config|hf_quant_config)\.json$")


# ---------------------------------------------------------------------------------------------
# Raw facts: the config dict as written (mirrored by src/models.rs `RawFacts::from_config`)
# ---------------------------------------------------------------------------------------------

TEXT_CONFIG_KEYS = ("text_config", "llm_config", "language_config", "thinker_config")


def text_config_key(cfg: dict):
    """The key of the sub-config holding the language model (as SGLang's get_hf_text_config picks it)."""
    arch = first_architecture(cfg) or ""
    if arch.startswith("Llava") and arch.endswith("ForCausalLM"):
        return None
    for key in TEXT_CONFIG_KEYS:
        if isinstance(cfg.get(key), dict):
            return key
    return None


def text_config_of(cfg: dict) -> dict:
    key = text_config_key(cfg)
    return cfg[key] if key else cfg


def first_architecture(cfg: dict):
    archs = cfg.get("architectures")
    if isinstance(archs, list) and archs and isinstance(archs[0], str):
        return archs[0]
    return None


def _int(d: dict, *keys):
    for k in keys:
        v = d.get(k)
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            return v
    return None


def _str(d: dict, *keys):
    for k in keys:
        v = d.get(k)
        if isinstance(v, str):
            return v
    return None


def _strs(d: dict, key: str):
    v = d.get(key)
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return v
    return None


def layer_types_summary(text: dict):
    lt = text.get("layer_types")
    if not isinstance(lt, list):
        return None
    counts: dict[str, int] = {}
    for t in lt:
        if isinstance(t, str):
            counts[t] = counts.get(t, 0) + 1
    return dict(sorted(counts.items()))


QUANT_STRING_KEYS = ("quant_method", "fmt", "quant_algo", "kv_cache_quant_algo", "activation_scheme", "format")


def quant_essentials(cfg: dict, text: dict, hf_quant):
    """`quantization_config` (top level or text config) or `hf_quant_config.json`'s essentials."""
    q = cfg.get("quantization_config")
    if not isinstance(q, dict):
        q = text.get("quantization_config")
    out = {}
    if isinstance(q, dict):
        out["from"] = "quantization_config"
        for key in QUANT_STRING_KEYS:
            if isinstance(q.get(key), str):
                out[key] = q[key]
        bits = q.get("bits")
        if isinstance(bits, int) and not isinstance(bits, bool):
            out["bits"] = bits
        block = q.get("weight_block_size")
        if isinstance(block, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in block):
            out["weight_block_size"] = block
    elif isinstance(hf_quant, dict):
        q = hf_quant.get("quantization")
        if isinstance(q, dict):
            out["from"] = "hf_quant_config.json"
            for key in ("quant_algo", "kv_cache_quant_algo"):
                if isinstance(q.get(key), str):
                    out[key] = q[key]
    return out or None


# `CONTEXT_LENGTH_KEYS` of sglang/srt/utils/hf_transformers/common.py, in its order.
CONTEXT_LENGTH_KEYS = ["max_sequence_length", "seq_length", "max_seq_len", "model_max_length", "max_position_embeddings"]


def context_length_values(text: dict):
    """The first of the keys written (not null), when its value is an integer."""
    for k in CONTEXT_LENGTH_KEYS:
        v = text.get(k)
        if v is None:
            continue
        return {k: v} if isinstance(v, int) and not isinstance(v, bool) else None
    return None


def rope_scaling_facts(text: dict):
    """What get_context_length reads of the RoPE scaling (transformers 5 keeps it in
    `rope_parameters`, taken from either key): its type, its factor, whether it names the
    pretraining length."""
    given = [text[k] for k in ("rope_parameters", "rope_scaling") if isinstance(text.get(k), dict)]
    if not given:
        return None
    rope = given[0]
    factor = rope.get("factor")
    return {
        "rope_type": rope.get("rope_type") if isinstance(rope.get("rope_type"), str) else rope.get("type") if isinstance(rope.get("type"), str) else None,
        "factor": factor if isinstance(factor, (int, float)) and not isinstance(factor, bool) else None,
        "factor_given": "factor" in rope,
        "has_original_max_position_embeddings": "original_max_position_embeddings" in rope,
        "both_keys": len(given) > 1,
    }


def raw_facts(cfg: dict, hf_quant=None) -> dict:
    text = text_config_of(cfg)
    return {
        "architecture": first_architecture(cfg),
        "model_type": _str(cfg, "model_type"),
        "text_config_key": text_config_key(cfg),
        "text_model_type": _str(text, "model_type") if text is not cfg else None,
        "hidden_size": _int(text, "hidden_size"),
        "num_attention_heads": _int(text, "num_attention_heads"),
        "num_key_value_heads": _int(text, "num_key_value_heads"),
        "head_dim": _int(text, "head_dim"),
        "num_hidden_layers": _int(text, "num_hidden_layers"),
        "routed_experts": _int(text, "n_routed_experts", "num_experts", "num_local_experts", "moe_num_experts"),
        "shared_experts": _int(text, "n_shared_experts", "num_shared_experts"),
        "experts_per_token": _int(text, "num_experts_per_tok", "moe_topk", "top_k"),
        "kv_lora_rank": _int(text, "kv_lora_rank"),
        "index_topk": _int(text, "index_topk"),
        "sliding_window": _int(text, "sliding_window"),
        "layer_types": layer_types_summary(text),
        "torch_dtype": _str(cfg, "torch_dtype", "dtype") or _str(text, "torch_dtype", "dtype"),
        "max_position_embeddings": _int(text, "max_position_embeddings"),
        "quantization": quant_essentials(cfg, text, hf_quant),
        # DSA index-topk sharing (model_hook._validate_dsa_tbo_index_sharing reads hf_config's).
        "index_topk_freq": _int(cfg, "index_topk_freq"),
        "index_topk_pattern": _str(cfg, "index_topk_pattern"),
        "indexer_types": _strs(cfg, "indexer_types"),
        # Speculative decoding (src/rules/shared/dflash_utils.rs, dspark_config.rs): the keys the
        # DFlash / DSpark draft parsers read, as written.
        "speculative_draft_keys": speculative_draft_keys(cfg),
        # Read by kv_shard_hook.handle_kv_cache_sharding's checks (ModelConfig's values).
        "attention_chunk_size": _int(text, "attention_chunk_size"),
        "num_nextn_predict_layers": _int(text, "num_nextn_predict_layers"),
        # model_overrides.kimi_k3's MoE runner default (_is_mxfp4_pack_quantized)
        "text_quant_group_formats": quant_group_formats(cfg),
        # model_overrides.nemotron_h's ModelOpt check
        "mlp_hidden_act": _str(text, "mlp_hidden_act"),
        # model_hook.handle_language_model_only prints the whole list.
        "architectures": _strs(cfg, "architectures"),
        # model_hook's Exaone branch (`hf_config.sliding_window_pattern is not None`): a string
        # as written, an integer as its decimal text.
        "sliding_window_pattern": _str(cfg, "sliding_window_pattern")
        or (str(_int(cfg, "sliding_window_pattern")) if _int(cfg, "sliding_window_pattern") is not None else None),
        # ModelConfig._derive_context_length (get_context_length on the text config), replayed
        # for a given config: the context-length keys and the RoPE scaling it reads.
        "context_length_values": context_length_values(text),
        "rope_scaling": rope_scaling_facts(text),
        # overrides._dsa_kv_cache_dtype_default / _dsa_split_backend_resolution read
        # bool(getattr(hf_config, "learnable_sink", False)).
        "learnable_sink": bool(cfg["learnable_sink"]) if "learnable_sink" in cfg else None,
        # model_overrides.deepseek_v2._deepseek_family_overrides reads get_dsa_index_kpool.
        "index_kpool": _int(cfg, "index_kpool"),
        # transformers' AutoConfig loads the config's own code (`auto_map` naming an AutoConfig)
        # for a model_type the release does not know (ModelConfig.__init__'s get_config).
        "ships_config_code": isinstance(cfg.get("auto_map"), dict) and "AutoConfig" in cfg["auto_map"],
        # ... from another repository (`repo--module.Class`): transformers' refusal without
        # --trust-remote-code names that repository (src/rules/model_config.rs custom_code_not_trusted).
        "config_code_in_other_repo": isinstance(cfg.get("auto_map"), dict) and "--" in str(cfg["auto_map"].get("AutoConfig") or ""),
    }


# The keys SGLang's DFlash / DSpark draft parsers (speculative/dflash_utils.py,
# speculative/dspark_components/dspark_config.py) read of a draft's config; the same lists as
# src/models.rs `DRAFT_KEYS` / `DRAFT_TEXT_KEYS`.
DRAFT_KEYS = (
    "dflash_config", "dspark_config", "block_size", "num_target_layers", "target_layer_ids", "mask_token", "mask_token_id",
    "projector_type", "shift_label", "pure_draft_prefix_len", "gru_hidden_dim", "emb_dim", "markov_rank", "markov_head_type",
    "dspark_block_size", "dspark_markov_rank", "dspark_markov_head_type", "dspark_noise_token_id", "dspark_target_layer_ids",
    "num_hidden_layers", "layer_types", "is_causal",
)
DRAFT_TEXT_KEYS = ("num_hidden_layers", "markov_rank", "markov_head_type", "mask_token_id", "layer_types", "is_causal")


def speculative_draft_keys(cfg: dict):
    """The DRAFT_KEYS a config has (values whole), `text_config`'s DRAFT_TEXT_KEYS under
    "text_config"; None when another language-model sub-config (transformers' pick) may hold them."""
    def sub(k):
        return isinstance(cfg.get(k), dict)
    if not sub("text_config") and any(sub(k) for k in ("llm_config", "language_config", "thinker_config")):
        return None
    out = {k: cfg[k] for k in DRAFT_KEYS if k in cfg}
    if sub("text_config"):
        out["text_config"] = {k: cfg["text_config"][k] for k in DRAFT_TEXT_KEYS if k in cfg["text_config"]}
    return out


def quant_group_formats(cfg: dict):
    """`getattr(hf_config, "text_config", hf_config).quantization_config["config_groups"]`:
    each group's `format` ("" for a group without a string one); None without that dict."""
    text = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else cfg
    q = text.get("quantization_config")
    if not isinstance(q, dict):
        return None
    groups = q.get("config_groups") or {}
    if not isinstance(groups, dict):
        return []
    return [g["format"] if isinstance(g.get("format"), str) else "" for g in groups.values() if isinstance(g, dict)]


# ---------------------------------------------------------------------------------------------
# Sources
# ---------------------------------------------------------------------------------------------

def sources_md_rows(path: str) -> dict:
    """hub id -> (source text, notes) from SOURCES.md's tables."""
    rows = {}
    if not os.path.exists(path):
        return rows
    for line in open(path, encoding="utf-8"):
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3:
            continue
        hub_id = cells[0].strip("`")
        # An optional fifth cell `license: <SPDX id>` records the source's license explicitly.
        lic = None
        if len(cells) > 4 and cells[4].startswith("license:"):
            lic = cells[4][len("license:"):].strip().strip("`") or None
        # An optional sixth cell `hf_quant: <source>` gives the source of the folder's hf_quant_config.json.
        hf_quant = None
        if len(cells) > 5 and cells[5].startswith("hf_quant:"):
            hf_quant = cells[5][len("hf_quant:"):].strip()
        rows.setdefault(hub_id, {"source": cells[2], "notes": cells[3] if len(cells) > 3 else "", "license": lic,
                                 "hf_quant": hf_quant})
    return rows


def parse_source(text: str):
    """A SOURCES.md source cell -> {repository, path, commit} or {url}; license when known."""
    m = re.match(r"github:(\S+) (\S+) @ (?:blob )?([0-9a-f]{40})", text)
    if m:
        repo, path, commit = m.groups()
        kind = "blob" if "@ blob" in text else "commit"
        src = {"repository": repo, "path": path, kind: commit}
        lic = "Apache-2.0" if repo.split("/")[0] in ("ai-dynamo", "triple-mu", "tenstorrent") else None
        return src, lic
    m = re.match(r"(https?://\S+)", text)
    if m:
        return {"url": m.group(1)}, None
    return None, None


def folder_entries(folder: str) -> list:
    ids_file = os.path.join(folder, "hub_ids.json")
    if not os.path.exists(ids_file):
        return []
    ids = json.load(open(ids_file))
    rows = sources_md_rows(os.path.join(folder, "SOURCES.md"))
    out = []
    for hub_id, local in ids.items():
        row = rows.get(hub_id)
        if row is None:
            continue
        src, lic = parse_source(row["source"])
        lic = row.get("license") or lic
        if src is None:
            continue
        d = os.path.join(folder, local)
        if not os.path.exists(os.path.join(d, "config.json")):
            continue
        e = {"hub_id": hub_id, "dir": d, "source": src, "license": lic, "notes": row["notes"]}
        if row.get("hf_quant"):
            e["hf_quant_source"] = parse_source(row["hf_quant"])[0]
        out.append(e)
    return out


def vendor_aiconfigurator(repo: str) -> int:
    """Copy aiconfigurator's configs (each file byte for byte, at most AIC_VENDOR_MAX_BYTES per
    model) into tools/catalog-sources/aiconfigurator/ with their sources, so the catalog rebuilds
    and the recorder serves them without aiconfigurator's repository."""
    work = tempfile.mkdtemp(prefix="aic-")
    entries = aiconfigurator_entries(repo, work)
    kept, too_big = [], []
    for e in entries:
        size = sum(os.path.getsize(os.path.join(e["dir"], f)) for f in os.listdir(e["dir"]))
        (kept if size <= AIC_VENDOR_MAX_BYTES else too_big).append(e)
    shutil.rmtree(AIC_VENDORED, ignore_errors=True)
    os.makedirs(AIC_VENDORED)
    ids = {}
    rows = []
    src_cell = lambda s: f"github:{s['repository']} {s['path']} @ {s['commit']}"
    for e in sorted(kept, key=lambda e: e["hub_id"].lower()):
        local = e["hub_id"].replace("/", "--")
        shutil.copytree(e["dir"], os.path.join(AIC_VENDORED, local))
        ids[e["hub_id"]] = local
        hq = f" hf_quant: {src_cell(e['hf_quant_source'])} |" if e.get("hf_quant_source") else ""
        rows.append(f"| `{e['hub_id']}` | `{local}` | {src_cell(e['source'])} |  | license: {AIC_LICENSE} |{hq}")
    with open(os.path.join(AIC_VENDORED, "hub_ids.json"), "w") as f:
        json.dump(ids, f, indent=2)
        f.write("\n")
    with open(os.path.join(AIC_VENDORED, "SOURCES.md"), "w") as f:
        f.write("# Model configs from NVIDIA's aiconfigurator: sources\n\n")
        f.write("Copied byte for byte by `python3 tools/build_catalog.py --vendor-aiconfigurator DIR` from\n"
                "[ai-dynamo/aiconfigurator](https://github.com/ai-dynamo/aiconfigurator) (© NVIDIA Corporation,\n"
                "Apache-2.0), each at the newest commit that has it (its `model_configs/` folders). The catalog\n"
                "reads them (`tools/build_catalog.py`) and the recorder serves them (`tools/recorder/sgl_oracle.py`).\n"
                "The models' own licenses are their publishers' (see each model card).\n\n")
        if too_big:
            f.write("Left in aiconfigurator's repository (over "
                    f"{AIC_VENDOR_MAX_BYTES // 1000} KB; read with `--aiconfigurator`): "
                    + ", ".join(f"`{e['hub_id']}`" for e in sorted(too_big, key=lambda e: e["hub_id"].lower())) + ".\n\n")
        f.write("| hub id | folder | source | notes | license | hf_quant_config.json |\n|---|---|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    print(f"vendored {len(kept)} aiconfigurator configs into {os.path.relpath(AIC_VENDORED, ROOT)}; "
          f"{len(too_big)} left in its repository", file=sys.stderr)
    return 0


def git(d: str, *args: str) -> str:
    return subprocess.run(["git", "-C", d] + list(args), capture_output=True, text=True, check=True).stdout


def aiconfigurator_entries(repo: str, work: str) -> list:
    """Every `<org>--<name>_config.json` of aiconfigurator's history, at the newest commit that has it."""
    log = git(repo, "log", "--format=@%H", "--name-only", "HEAD", "--", "*model_configs/*")
    newest: dict[str, tuple[str, str]] = {}  # file name -> (commit, path)
    commit = None
    for line in log.splitlines():
        if line.startswith("@"):
            commit = line[1:]
        elif line.strip() and commit:
            name = os.path.basename(line)
            newest.setdefault(name, (commit, line))
    by_id: dict[str, dict] = {}
    for name, (commit, path) in sorted(newest.items()):
        m = AIC_NAME.match(name)
        if not m:
            continue
        try:
            text = git(repo, "show", f"{commit}:{path}")
        except subprocess.CalledProcessError:
            continue  # the newest commit touching it deleted it: look for the version before
        hub_id = f"{m['org']}/{m['name']}"
        e = by_id.setdefault(hub_id, {"hub_id": hub_id, "license": AIC_LICENSE, "notes": ""})
        if m["kind"] == "config":
            e["source"] = {"repository": AIC_REPO, "path": path, "commit": commit}
            e["config_text"] = text
        else:
            e["hf_quant_source"] = {"repository": AIC_REPO, "path": path, "commit": commit}
            e["hf_quant_text"] = text
    # Files deleted at their newest commit: take the version before the deletion.
    for name, (commit, path) in sorted(newest.items()):
        m = AIC_NAME.match(name)
        if not m:
            continue
        hub_id = f"{m['org']}/{m['name']}"
        e = by_id.get(hub_id)
        key = "config_text" if m["kind"] == "config" else "hf_quant_text"
        if e is not None and key in e:
            continue
        prev = git(repo, "log", "-1", "--format=%H", f"{commit}^", "--", path).strip()
        if not prev:
            continue
        text = git(repo, "show", f"{prev}:{path}")
        e = by_id.setdefault(hub_id, {"hub_id": hub_id, "license": AIC_LICENSE, "notes": ""})
        src = {"repository": AIC_REPO, "path": path, "commit": prev}
        if key == "config_text":
            e["source"], e["config_text"] = src, text
        else:
            e["hf_quant_source"], e["hf_quant_text"] = src, text
    out = []
    for hub_id, e in sorted(by_id.items()):
        if "config_text" not in e:
            continue
        d = os.path.join(work, hub_id.replace("/", "--"))
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, "config.json"), "w").write(e.pop("config_text"))
        if "hf_quant_text" in e:
            open(os.path.join(d, "hf_quant_config.json"), "w").write(e.pop("hf_quant_text"))
        e["dir"] = d
        out.append(e)
    return out


# ---------------------------------------------------------------------------------------------
# SGLang's side (inside the venv)
# ---------------------------------------------------------------------------------------------

def _strings_in(node) -> list:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def function_def(module, name: str):
    """The definition of `name` (a function or method) in `module`'s source."""
    tree = ast.parse(open(module.__file__).read())
    found = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)
    assert found is not None, f"{name} not found in {module.__name__}"
    return found


def in_list_naming(module, function: str, member: str) -> list:
    """The strings of the `... in [...]` lists in `function` that name `member` (none: an error)."""
    found = [s for node in ast.walk(function_def(module, function))
             if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In)
             and isinstance(node.comparators[0], (ast.List, ast.Tuple)) and member in _strings_in(node.comparators[0])
             for s in _strings_in(node.comparators[0])]
    assert found, f"no list naming {member} in {module.__name__}.{function}"
    return found


def module_literal(module, name: str):
    """The value a module-level assignment of `name` writes (as the source writes it)."""
    tree = ast.parse(open(module.__file__).read())
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == name:
            return ast.literal_eval(node.value)
    raise AssertionError(f"{name} not found in {module.__name__}")


ATTENTION_BACKEND_FIELDS = ("attention_backend", "prefill_attention_backend", "decode_attention_backend",
                            "speculative_draft_attention_backend")


def declared_attention_fields(fn) -> set:
    """The attention-backend fields a model override provider may declare: the string keys of
    the dicts it builds (`{"attention_backend": ...}`, `overrides["attention_backend"] = ...`)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys.update(k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.slice, ast.Constant):
            keys.add(node.slice.value)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "dict":
            keys.update(k.arg for k in node.keywords if k.arg)
    return keys & set(ATTENTION_BACKEND_FIELDS)


def predicate_substrings(fn) -> list:
    """The strings of the `register_model_override_predicate(lambda arch: ...)` decorating `fn`."""
    found = []
    for deco in function_def(sys.modules[fn.__module__], fn.__name__).decorator_list:
        if isinstance(deco, ast.Call) and ast.unparse(deco.func).endswith("register_model_override_predicate"):
            found.extend(_strings_in(deco.args[0]))
    return found


def release_lists(sglang_dir: str) -> dict:
    """SGLang's hard-coded architecture lists, read from the release's source (AST) and modules."""
    mc_path = os.path.join(sglang_dir, "srt", "configs", "model_config.py")
    tree = ast.parse(open(mc_path).read())
    funcs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}

    # MLA: the branches of ModelConfig._derive_model_shapes that set attention_arch = MLA.
    mla, mla_conditional = [], []
    for node in ast.walk(funcs["_derive_model_shapes"]):
        if not isinstance(node, ast.If):
            continue
        sets_mla = any(
            isinstance(s, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "attention_arch" for t in s.targets)
            and isinstance(s.value, ast.Attribute) and s.value.attr == "MLA"
            for s in node.body)
        if not sets_mla:
            continue
        tests = node.test.values if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.Or) else [node.test]
        for t in tests:
            names = [s for s in _strings_in(t) if s[:1].isupper()]
            if isinstance(t, ast.Compare) and names:
                mla.extend(names)
            elif names:
                mla_conditional.extend(names)

    def tuple_in(func: str) -> list:
        return [s for s in _strings_in(funcs[func]) if s[:1].isupper()]

    # Multimodal architectures SGLang serves text-only unless --enable-multimodal (ModelConfig.__init__).
    mm_disabled = []
    for node in ast.walk(funcs["__init__"]):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "mm_disabled_models" for t in node.targets):
            mm_disabled = _strings_in(node.value)

    import sglang.srt.configs.model_config as M

    lists = {
        "mla_architectures": sorted(set(mla)),
        "mla_architectures_conditional": sorted(set(mla_conditional)),
        "dsa_architectures_with_index_topk": sorted(set(tuple_in("is_deepseek_dsa"))),
        "multimodal_architectures": sorted(set(M.multimodal_model_archs)),
        "multimodal_disabled_by_default_architectures": sorted(set(mm_disabled)),
        "multimodal_needs_sub_configs_architectures": sorted(set(M.MIMO_V2_MULTIMODAL_ARCHS)),
        "non_generation_architectures": sorted(set(tuple_in("is_generation_model"))),
        # (SWA_SINK_ARCHS and PURE_SSM_ARCHITECTURES are 0.5.19+: before, none)
        "hybrid_swa_architectures": sorted(set(tuple_in("is_hybrid_swa_model"))
                                           | set(getattr(M, "SWA_SINK_ARCHS", ())) | set(M.MIMO_V2_MODEL_ARCHS)),
        "pure_ssm_architectures": sorted(set(getattr(M, "PURE_SSM_ARCHITECTURES", ()))),
    }
    # Hybrid linear attention (hybrid_arch.mambaish_config): decided by config class; their model_types.
    import sglang.srt.configs.hybrid_arch as H
    hy_tree = ast.parse(open(H.__file__).read())
    unconditional, conditional = set(), set()
    for fn in ast.walk(hy_tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
                names = [n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)]
                for name in names:
                    cls = getattr(H, name, None)
                    mt = getattr(cls, "model_type", None)
                    if isinstance(mt, str) and mt:
                        unconditional.add(mt)
        for node in ast.walk(fn):
            if isinstance(node, ast.Compare) and any(isinstance(c, ast.Constant) and c.value == "glm5_next" for c in node.comparators):
                unconditional.add("glm5_next")
    # Classes whose match also needs a config value (use_kda, has_lightning_layers, mamba layers...).
    for name in ("BailingHybridConfig", "MiniCPMHybridConfig", "GraniteMoeHybridConfig", "InklingModelConfig", "InklingMMConfig"):
        mt = getattr(getattr(H, name, None), "model_type", None)
        if isinstance(mt, str) and mt in unconditional:
            unconditional.discard(mt)
            conditional.add(mt)
    # model_hook: --enable-cp-decode-attn-tp accepts these architectures only.
    from sglang.srt.layers.cp.cp_decode_attn_tp import CP_DECODE_ATTN_TP_SUPPORTED_ARCHS
    lists["cp_decode_attn_tp_supported_architectures"] = sorted(CP_DECODE_ATTN_TP_SUPPORTED_ARCHS)
    # The model override providers (arg_groups/model_overrides, overrides.py): architectures with
    # one, by name, and the substrings the predicate-keyed ones match.
    # (before the hook modules, 0.5.18, the registry is overrides.py's own)
    import importlib
    import sglang.srt.arg_groups.overrides  # noqa: F401  (registers the providers)
    try:
        B = importlib.import_module("sglang.srt.arg_groups.model_override_base")
    except ImportError:
        B = sglang.srt.arg_groups.overrides
    lists["model_override_architectures"] = sorted(set(B._MODEL_OVERRIDE_FNS) | set(B.MODEL_OVERRIDES))
    # model_hook.handle_mamba_radix_cache (overrides._mamba_radix_cache_resolution,
    # supports_mamba_cache_extra_buffer): the hybrid Mamba architectures by name, and those
    # whose extra_buffer strategy is supported; the linear-attention specs registered by name.
    from sglang.srt.arg_groups import overrides as O
    from sglang.srt.configs import linear_attn_model_registry as LR
    lists["mamba_radix_cache_architectures"] = sorted(O._MAMBA_RADIX_CACHE_ARCHS)
    lists["mamba_extra_buffer_architectures"] = sorted(O._MAMBA_EXTRA_BUFFER_ARCHS)
    lists["linear_attn_spec_architectures"] = sorted({a for spec in LR._LINEAR_ATTN_MODEL_REGISTRY for a in spec.arch_names})
    substrings, attention_substrings = [], []
    for predicate, fn in B._PREDICATE_OVERRIDE_FNS:
        # the decorator's lambda, read from the provider's module (inspect.getsource gives a
        # lambda's first line only, and 0.5.18's spans two)
        found = predicate_substrings(fn)
        # the predicate is `"X" in arch or "Y" in arch`: each substring must match, nothing else checked
        assert found and all(predicate(x) for x in found) and not predicate("LlamaForCausalLM"), found
        substrings.extend(found)
        if declared_attention_fields(fn):
            attention_substrings.extend(found)
    lists["model_override_architecture_substrings"] = sorted(set(substrings))
    # The attention-backend fields each architecture's providers may declare (the keys of the
    # dicts they return), and the substrings of the predicate-keyed providers that declare one.
    attention_fields = {}
    for arch, fns in B._MODEL_OVERRIDE_FNS.items():
        fields = sorted({f for fn in fns for f in declared_attention_fields(fn)})
        if fields:
            attention_fields[arch] = fields
    lists["model_override_attention_fields"] = dict(sorted(attention_fields.items()))
    lists["model_override_attention_substrings"] = sorted(set(attention_substrings))
    # The DeepSeek family: the architectures `_deepseek_family_overrides` is registered for, and
    # those of the model-specific step's DeepSeek branch (`model_arch in [...]` naming
    # DeepseekV3ForCausalLM; model_hook.handle_model_specific_adjustments, before the hook modules
    # ServerArgs._handle_model_specific_adjustments).
    lists["deepseek_family_override_architectures"] = sorted(
        arch for arch, fns in B._MODEL_OVERRIDE_FNS.items() if any(fn.__name__ == "_deepseek_family_overrides" for fn in fns))
    import sglang.srt.server_args as SA_
    try:
        MH = importlib.import_module("sglang.srt.arg_groups.model_hook")
        step_sources = [(MH, "handle_model_specific_adjustments")]
    except ImportError:
        step_sources = [(SA_, "_handle_model_specific_adjustments")]
    family_branch = []
    for mod, name in step_sources:
        step_tree = ast.parse(open(mod.__file__).read())
        step_fn = next(n for n in ast.walk(step_tree) if isinstance(n, ast.FunctionDef) and n.name == name)
        for node in ast.walk(step_fn):
            if (isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "model_arch"
                    and isinstance(node.ops[0], ast.In) and isinstance(node.comparators[0], ast.List)):
                names = _strings_in(node.comparators[0])
                if "DeepseekV3ForCausalLM" in names:
                    family_branch.extend(names)
    assert family_branch, "the model-specific step's DeepSeek branch not found"
    lists["deepseek_family_hook_architectures"] = sorted(set(family_branch))
    # The FlashInfer AllReduce Fusion auto-enable pass's architectures.
    lists["flashinfer_allreduce_fusion_architectures"] = sorted(O._FLASHINFER_ALLREDUCE_FUSION_ARCHS)
    # Deterministic inference: the backends it accepts (and those that keep the radix cache), as
    # the source writes them (platform plugins may extend them at run time), and the DeepSeek
    # architectures of the `_deterministic_is_deepseek_model` pass and of the handler's own list.
    try:
        choices_mod = importlib.import_module("sglang.srt.arg_groups.choices")
    except ImportError:
        import sglang.srt.server_args as choices_mod
    lists["deterministic_attention_backend_choices"] = module_literal(choices_mod, "DETERMINISTIC_ATTENTION_BACKEND_CHOICES")
    lists["radix_supported_deterministic_attention_backends"] = module_literal(choices_mod, "RADIX_SUPPORTED_DETERMINISTIC_ATTENTION_BACKEND")
    lists["deterministic_deepseek_pass_architectures"] = sorted(set(in_list_naming(O, "_deterministic_is_deepseek_model", "DeepseekV2ForCausalLM")))
    try:
        AH = importlib.import_module("sglang.srt.arg_groups.attention_hook")
        handler = (AH, "handle_deterministic_inference")
    except ImportError:
        handler = (SA_, "_handle_deterministic_inference")
    lists["deterministic_deepseek_handler_architectures"] = sorted(set(in_list_naming(*handler, "DeepseekV2ForCausalLM")))
    # ModelConfig's SWA_SINK_ARCHS (null where the release has none: it detects sinks otherwise)
    lists["swa_sink_architectures"] = sorted(M.SWA_SINK_ARCHS) if hasattr(M, "SWA_SINK_ARCHS") else None
    # Every architecture a branch of the model-specific step names (`model_arch == ...`,
    # `model_arch in [...]`), the DeepSeek family's included.
    branch_archs = []
    for mod, name in step_sources:
        step_fn = function_def(mod, name)
        for node in ast.walk(step_fn):
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "model_arch":
                branch_archs.extend(s for c in node.comparators for s in _strings_in(c))
    lists["model_specific_branch_architectures"] = sorted(set(branch_archs))
    # The attention backends a branch of the model-specific step accepts (`supported_backends =
    # [...]`, `accepted_backends = (...)`, `attention_backend in {...}`), in the source's order
    # (the messages print them), for each architecture of the nearest `model_arch` test around it.
    branch_backends = {}

    def arch_test_names(test) -> list:
        return [s for node in ast.walk(test)
                if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "model_arch"
                for c in node.comparators for s in _strings_in(c)]

    def backend_lists(node, archs):
        if isinstance(node, ast.If) and arch_test_names(node.test):
            for stmt in node.body:
                backend_lists(stmt, arch_test_names(node.test))
            for stmt in node.orelse:
                backend_lists(stmt, archs)
            return
        found = None
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id.endswith("_backends")
                and isinstance(node.value, (ast.List, ast.Tuple))):
            found = node.value
        elif (isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In) and ast.unparse(node.left) == "attention_backend"
                and isinstance(node.comparators[0], (ast.Set, ast.List, ast.Tuple))):
            found = node.comparators[0]
        if found is not None and archs:
            for arch in archs:
                assert arch not in branch_backends, arch
                branch_backends[arch] = [e.value for e in found.elts]
        for child in ast.iter_child_nodes(node):
            backend_lists(child, archs)

    for mod, name in step_sources:
        backend_lists(function_def(mod, name), [])
    lists["model_branch_attention_backends"] = dict(sorted(branch_backends.items()))
    # speculative_hook._handle_eagle_family: the MTP targets whose draft defaults to their own
    # checkpoint (its `model_arch in [...]` naming HYV3ForCausalLM).
    SH = importlib.import_module("sglang.srt.arg_groups.speculative_hook")
    lists["eagle_self_draft_architectures"] = sorted(set(in_list_naming(SH, "_handle_eagle_family", "HYV3ForCausalLM")))
    # adaptive_spec_params.resolve_candidate_steps_from_config() on DEFAULT_ADAPTIVE_CONFIG.
    from sglang.srt.speculative.adaptive_spec_params import resolve_candidate_steps_from_config
    lists["adaptive_candidate_steps"] = list(resolve_candidate_steps_from_config(None))
    # kv_cache_hook.handle_kv4_compatibility's backend lists (`KV4_*_BACKEND_CHOICES = [...]`).
    try:
        KVH = importlib.import_module("sglang.srt.arg_groups.kv_cache_hook")
        kv4 = (KVH, "handle_kv4_compatibility")
    except ImportError:
        kv4 = (SA_, "_handle_kv4_compatibility")
    kv4_choices = {}
    for node in ast.walk(function_def(*kv4)):
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and re.fullmatch(r"KV4_[A-Z0-9_]*_CHOICES", node.targets[0].id)):
            assert node.targets[0].id not in kv4_choices, node.targets[0].id
            kv4_choices[node.targets[0].id] = ast.literal_eval(node.value)
    assert kv4_choices, "handle_kv4_compatibility's backend lists not found"
    lists["kv4_backend_choices"] = dict(sorted(kv4_choices.items()))
    # moe_hook: the architectures FlashInfer MegaMOE is validated for
    # (validate_flashinfer_megamoe_model's `validated_architectures`) and the DeepEP v2 models
    # SGLang registers itself (configs/moe_model_registry.py); none before the releases that have them.
    megamoe = []
    try:
        MOE = importlib.import_module("sglang.srt.arg_groups.moe_hook")
        moe_tree = ast.parse(open(MOE.__file__).read())
        fn = next((n for n in ast.walk(moe_tree) if isinstance(n, ast.FunctionDef) and n.name == "validate_flashinfer_megamoe_model"), None)
        for node in ast.walk(fn) if fn else ():
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "validated_architectures" for t in node.targets):
                megamoe = _strings_in(node.value)
    except ImportError:
        pass
    lists["megamoe_validated_architectures"] = sorted(set(megamoe))
    # ModelConfig's is_deepseek_v4 / is_minimax_sparse (validate_hisparse's model class reads them)
    lists["deepseek_v4_architectures"] = sorted(set(tuple_in("is_deepseek_v4")))
    lists["minimax_sparse_architectures"] = sorted(set(tuple_in("is_minimax_sparse")))
    # dllm.config.DllmConfig.from_server_args: the diffusion LMs (DLLM_PARAMS' keys)
    import sglang.srt.dllm.config as DC
    dllm_tree = ast.parse(open(DC.__file__).read())
    dllm = [k.value for node in ast.walk(dllm_tree)
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "DLLM_PARAMS" for t in node.targets)
            and isinstance(node.value, ast.Dict)
            for k in node.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    assert dllm, "DLLM_PARAMS not found"
    lists["dllm_architectures"] = sorted(set(dllm))
    # ... and each one's block size and mask token id where DLLM_PARAMS writes them as numbers
    def literal_int(node):
        try:
            v = ast.literal_eval(node)
        except ValueError:
            return None
        return v if isinstance(v, int) else None

    params = {}
    for node in ast.walk(dllm_tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "DLLM_PARAMS" for t in node.targets):
            for k, v in zip(node.value.keys, node.value.values):
                if isinstance(k, ast.Constant) and isinstance(v, ast.Dict):
                    params[k.value] = {ik.value: literal_int(iv) for ik, iv in zip(v.keys, v.values)
                                       if isinstance(ik, ast.Constant) and ik.value in ("block_size", "mask_id")
                                       and literal_int(iv) is not None}
    lists["dllm_params"] = dict(sorted(params.items()))
    # layers.layernorm_sp (none before the release that has it)
    try:
        SP = importlib.import_module("sglang.srt.layers.layernorm_sp")
        lists["layernorm_sp_muse_architectures"] = sorted(SP.MUSE_SP_ARCHITECTURES)
        lists["layernorm_sp_supported_architectures"] = sorted(SP.SP_SUPPORTED_ARCHITECTURES)
    except ImportError:
        lists["layernorm_sp_muse_architectures"] = []
        lists["layernorm_sp_supported_architectures"] = []
    try:
        REG = importlib.import_module("sglang.srt.configs.moe_model_registry")
        lists["deepep_v2_architectures"] = sorted(REG._DEEPEP_V2_MODELS)
    except ImportError:
        lists["deepep_v2_architectures"] = []
    # model_hook.handle_language_model_only: the architectures --language-model-only accepts, in
    # SGLang's order (its message prints the list).
    from sglang.srt.server_args import ServerArgs
    lists["language_model_only_architectures"] = list(ServerArgs.LANGUAGE_MODEL_ONLY_ARCHITECTURES)
    # pd_disaggregation_hook.handle_encoder_disaggregation (before the hook modules,
    # ServerArgs._handle_encoder_disaggregation): `model_arch not in [...]`.
    import sglang.srt.arg_groups.pd_disaggregation_hook as PDH
    import sglang.srt.server_args as SA
    pd_fn = None
    for mod, name in ((PDH, "handle_encoder_disaggregation"), (SA, "_handle_encoder_disaggregation")):
        pd_tree = ast.parse(open(mod.__file__).read())
        pd_fn = pd_fn or next((n for n in ast.walk(pd_tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)
    encoder_archs = [s for node in ast.walk(pd_fn)
                     if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "model_arch"
                     and isinstance(node.ops[0], ast.NotIn) and isinstance(node.comparators[0], ast.List)
                     for s in _strings_in(node.comparators[0])]
    assert encoder_archs, "handle_encoder_disaggregation's architecture list not found"
    lists["encoder_disaggregation_architectures"] = sorted(set(encoder_archs))
    # Model types SGLang loads with config classes of its own (they may compute what a
    # transformers class keeps as written, such as the context length).
    from sglang.srt.utils.hf_transformers.common import _CONFIG_REGISTRY
    lists["sglang_config_model_types"] = sorted(_CONFIG_REGISTRY)
    # Model types the release's transformers has a config class for (others need remote code).
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES
    lists["transformers_config_model_types"] = sorted(CONFIG_MAPPING_NAMES)
    lists["hybrid_linear_attention_model_types"] = sorted(unconditional)
    lists["hybrid_linear_attention_model_types_conditional"] = sorted(conditional)
    # ModelConfig.is_encoder_decoder (kv_shard_hook's encoder-decoder check reads it).
    lists["encoder_decoder_architectures"] = sorted(set(tuple_in("is_encoder_decoder_model")))
    lists.update(quantization_lists(sglang_dir))
    lists.update(attention_heads_lists(funcs["_derive_model_shapes"]))
    return lists


def attention_heads_lists(derive_model_shapes) -> dict:
    """ModelConfig._derive_model_shapes reads `self.hf_text_config.num_attention_heads` as an
    attribute (0.5.18; later releases use getattr with a default): a config class that has no
    such attribute unless config.json writes the key raises AttributeError there. For such a
    release, the model types whose config class (SGLang's own, else transformers') is its own
    text config (get_hf_text_config) and lacks the attribute when built with its defaults (its
    __init__ defaults and attribute_map), with the class name the message prints; the classes
    without `hidden_size` either are left out (SGLang reads hidden_size first there)."""
    reads = any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Attribute) and t.attr == "num_attention_heads" for t in node.targets)
        and isinstance(node.value, ast.Attribute) and node.value.attr == "num_attention_heads"
        for node in ast.walk(derive_model_shapes))
    classes = {}
    if reads:
        import logging
        import warnings
        from sglang.srt.utils.hf_transformers.common import _CONFIG_REGISTRY, get_hf_text_config
        from transformers.models.auto.configuration_auto import CONFIG_MAPPING
        logging.disable(logging.WARNING)
        for model_type in sorted(set(CONFIG_MAPPING.keys()) | set(_CONFIG_REGISTRY)):
            cls = _CONFIG_REGISTRY.get(model_type) or CONFIG_MAPPING[model_type]
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    config = cls()
                    text_is_itself = get_hf_text_config(config) is config
            except Exception:  # noqa: BLE001 - a class that needs arguments is not decided
                continue
            if text_is_itself and not hasattr(config, "num_attention_heads") and hasattr(config, "hidden_size"):
                classes[model_type] = cls.__name__
        logging.disable(logging.NOTSET)
    return {"model_config_reads_num_attention_heads": reads, "text_configs_without_num_attention_heads": classes}


def quantization_lists(sglang_dir: str) -> dict:
    """What ModelConfig._verify_quantization checks a method against, read from the release's
    source (AST): the registry `QUANTIZATION_METHODS` (`BASE_QUANTIZATION_METHODS` in its order,
    then each platform's `update`, with its condition as written: the error message lists the
    methods in this order) and `_verify_quantization`'s own lists."""
    q_path = os.path.join(sglang_dir, "srt", "layers", "quantization", "__init__.py")
    q_tree = ast.parse(open(q_path).read())

    def keys(node) -> list:
        assert isinstance(node, ast.Dict), ast.dump(node)[:200]
        return [k.value for k in node.keys if isinstance(k, ast.Constant)]

    # Which class's `override_quantization_method` each method runs (`_verify_quantization` asks
    # every registered method, in the registry's order, whether it re-derives the checkpoint's
    # method): the classes the source names, looked up in the imported module (its final
    # bindings) and resolved along their MRO; methods that inherit QuantizationConfig's (which
    # returns None) are left out.
    import sglang.srt.layers.quantization as Q
    from sglang.srt.layers.quantization.base_config import QuantizationConfig

    def overrides(node) -> dict:
        out = {}
        for k, v in zip(node.keys, node.values):
            assert isinstance(k, ast.Constant) and isinstance(v, ast.Name), ast.dump(v)[:200]
            cls = getattr(Q, v.id)
            owner = next(c for c in cls.__mro__ if "override_quantization_method" in vars(c))
            if owner is not QuantizationConfig:
                out[k.value] = owner.__name__
        return out

    registry = []
    for node in q_tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == "BASE_QUANTIZATION_METHODS":
            registry.append({"when": None, "methods": keys(node.value), "overrides": overrides(node.value)})
        elif isinstance(target, ast.Name) and target.id == "QUANTIZATION_METHODS":
            # `{**BASE_QUANTIZATION_METHODS}`: the same registry
            assert isinstance(node.value, ast.Dict) and node.value.keys == [None], ast.dump(node.value)[:200]
        elif isinstance(node, ast.If):
            assert not node.orelse, ast.unparse(node.test)
            for stmt in node.body:
                call = stmt.value if isinstance(stmt, ast.Expr) else None
                if isinstance(call, ast.Call) and ast.unparse(call.func) == "BASE_QUANTIZATION_METHODS.update":
                    registry.append({"when": ast.unparse(node.test), "methods": keys(call.args[0]), "overrides": overrides(call.args[0])})
    assert registry and registry[0]["when"] is None, "BASE_QUANTIZATION_METHODS not found"
    mc_tree = ast.parse(open(os.path.join(sglang_dir, "srt", "configs", "model_config.py")).read())
    verify = next(n for n in ast.walk(mc_tree) if isinstance(n, ast.FunctionDef) and n.name == "_verify_quantization")
    local = {}
    for node in ast.walk(verify):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id in (
                "rocm_supported_quantization", "optimized_quantization_methods", "compatible_quantization_methods"):
            assert node.targets[0].id not in local, node.targets[0].id
            local[node.targets[0].id] = ast.literal_eval(node.value)
    supported = next(n for n in ast.walk(verify) if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "supported_quantization")
    assert ast.unparse(supported.value) == "[*QUANTIZATION_METHODS]", ast.unparse(supported.value)
    requant = next(ast.literal_eval(n.value) for n in mc_tree.body
                   if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name) and n.targets[0].id == "REQUANTIZATION_METHODS")
    return {
        "quantization_registry": registry,
        "modelopt_quant_algo_rules": modelopt_quant_algo_rules(),
        "rocm_supported_quantization": local["rocm_supported_quantization"],
        "optimized_quantization_methods": local["optimized_quantization_methods"],
        "compatible_quantization_methods": local["compatible_quantization_methods"],
        "requantization_methods": requant,
    }


def modelopt_quant_algo_rules():
    """The ModelOpt override's (`QuantizationConfig._modelopt_override_quantization_method`)
    branch for `--quantization modelopt` (the generic method, auto-detected from the checkpoint's
    upper-cased `quant_algo`), as rules tried in order: `{"test": "equals" | "contains", "algo",
    "method"}`. From `_MODELOPT_QUANT_ALGO_TO_METHOD` where the branch maps through
    `canonicalize_modelopt_quant_algo` (0.5.23), else from its if/elif chain of
    `quant_algo == "X"` / `"X" in quant_algo or ...` tests returning a method (0.5.18)."""
    from sglang.srt.layers.quantization.base_config import QuantizationConfig

    fn = ast.parse(textwrap.dedent(inspect.getsource(QuantizationConfig._modelopt_override_quantization_method)))
    branch = next(n for n in ast.walk(fn) if isinstance(n, ast.If) and ast.unparse(n.test) == "user_quant == 'modelopt'")
    calls = {ast.unparse(n.func) for n in ast.walk(branch) if isinstance(n, ast.Call)}
    if "canonicalize_modelopt_quant_algo" in calls:
        import sglang.srt.layers.modelopt_utils as MU

        canon = ast.parse(textwrap.dedent(inspect.getsource(MU.canonicalize_modelopt_quant_algo)))
        ret = [ast.unparse(n.value) for n in ast.walk(canon) if isinstance(n, ast.Return) and n.value is not None]
        # (a non-string algorithm returns None)
        assert set(ret) == {"None", "_MODELOPT_QUANT_ALGO_TO_METHOD.get(quant_algo.upper())"}, ret
        return [{"test": "equals", "algo": k, "method": v} for k, v in MU._MODELOPT_QUANT_ALGO_TO_METHOD.items()]
    assert len(branch.body) == 1 and isinstance(branch.body[0], ast.If), ast.unparse(branch)
    rules = []
    node = branch.body[0]
    while node is not None:
        assert len(node.body) == 1 and isinstance(node.body[0], ast.Return) and isinstance(node.body[0].value, ast.Constant), ast.unparse(node)
        method = node.body[0].value.value
        tests = node.test.values if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.Or) else [node.test]
        for t in tests:
            assert isinstance(t, ast.Compare) and len(t.ops) == 1, ast.unparse(t)
            if isinstance(t.ops[0], ast.Eq) and ast.unparse(t.left) == "quant_algo" and isinstance(t.comparators[0], ast.Constant):
                rules.append({"test": "equals", "algo": t.comparators[0].value, "method": method})
            elif isinstance(t.ops[0], ast.In) and isinstance(t.left, ast.Constant) and ast.unparse(t.comparators[0]) == "quant_algo":
                rules.append({"test": "contains", "algo": t.left.value, "method": method})
            else:
                raise AssertionError(ast.unparse(t))
        assert len(node.orelse) <= 1, ast.unparse(node)
        node = node.orelse[0] if node.orelse else None
        assert node is None or isinstance(node, ast.If), ast.unparse(node)
    return rules


def sglang_facts(d: str) -> dict:
    from sglang.srt.configs.model_config import AttentionArch, ModelConfig, is_deepseek_dsa, is_generation_model
    from sglang.srt.configs.hybrid_arch import mambaish_config

    mc = ModelConfig(model_path=d, trust_remote_code=True)
    archs = list(mc.hf_config.architectures or [])
    dtype = str(mc.dtype).replace("torch.", "")
    return {
        # The architecture SGLang sees: its own config classes may rewrite the one written
        # (Olmo3Config serves Olmo3ForCausalLM as Olmo2ForCausalLM).
        "architecture": archs[0] if archs else None,
        "context_length": mc.context_len,
        "dtype": dtype,
        "quantization": mc.quantization,
        "num_kv_heads": mc.get_total_num_kv_heads(),
        "num_attention_heads": mc.get_total_num_attention_heads(),
        "head_dim": mc.head_dim,
        "num_hidden_layers": mc.num_hidden_layers,
        "is_mla": mc.attention_arch == AttentionArch.MLA,
        "is_dsa": bool(is_deepseek_dsa(mc.hf_text_config)),
        "is_multimodal": bool(mc.is_multimodal),
        "is_embedding": not is_generation_model(archs),
        "is_hybrid_linear_attention": mambaish_config(mc) is not None,
        "is_hybrid_swa": bool(mc.is_hybrid_swa),
        # Speculative decoding (src/rules/speculative.rs): the draft parsers' keys as get_config
        # gives them.
        "speculative_draft_attrs": speculative_draft_attrs(d),
        # Read by the attention and KV-cache families (default backend, page-major layout).
        "has_asymmetric_kv": bool(mc.has_asymmetric_kv),
        "has_attention_sinks": bool(mc.has_attention_sinks),
        "uses_mamba_radix_cache": uses_mamba_radix_cache(mc),
        # Read by the Mamba radix cache's extra-buffer check against the page size
        # (src/rules/model/mamba_hook.rs).
        "mamba_chunk_size": mamba_chunk_size(mc),
        # Read by the diffusion-LM checks (src/rules/dllm.rs).
        "dllm": dllm_facts(mc),
        "diffusion_gemma_tie_check": diffusion_gemma_tie_check(mc),
    }


def diffusion_gemma_tie_check(mc):
    """How `Gemma4Renoise.configure_server_args`' tied-embeddings test ends on this config, its
    condition read from the release's source and run on the config SGLang loads: "tied" (it
    passes), "untied" (its ValueError), or the AttributeError's text (a config with tied top-level
    embeddings and no `text_config`). None for a release without the algorithm."""
    try:
        from sglang.srt.dllm.algorithm.gemma4_renoise import Gemma4Renoise
    except ImportError:
        return None
    source = inspect.getsource(Gemma4Renoise.configure_server_args)
    test = re.search(r"if not \((.*?)\):\s*raise ValueError\(\"DiffusionGemma requires tied word embeddings\"\)", source, re.S)
    if not test:
        raise SystemExit("build_catalog: Gemma4Renoise's tied-embeddings test changed: update diffusion_gemma_tie_check")
    try:
        tied = eval("(" + test.group(1) + ")", {"getattr": getattr}, {"hf_config": mc.hf_config})
    except AttributeError as e:
        return f"AttributeError: {e}"
    return "tied" if tied else "untied"


def speculative_draft_attrs(d: str):
    """DRAFT_KEYS as attributes of the config SGLang's get_config loads (class defaults included),
    the text config's DRAFT_TEXT_KEYS (as dflash_utils._get_text_config picks it) under
    "text_config"; None when a value is not JSON (not met in practice)."""
    from sglang.srt.speculative.dflash_utils import _get_text_config
    from sglang.srt.utils.hf_transformers_utils import get_config

    cfg = get_config(d, trust_remote_code=True)
    missing = object()

    def attrs(obj, keys):
        out = {}
        for k in keys:
            v = obj.get(k, missing) if isinstance(obj, dict) else getattr(obj, k, missing)
            if v is not missing:
                out[k] = v
        return out

    out = attrs(cfg, DRAFT_KEYS)
    text = _get_text_config(cfg)
    if text is not None and text is not cfg:
        out["text_config"] = attrs(text, DRAFT_TEXT_KEYS)
    try:
        return json.loads(json.dumps(out))
    except (TypeError, ValueError):
        return None


def uses_mamba_radix_cache(mc) -> bool:
    """overrides._mamba_radix_cache_resolution's test: the model arms the Mamba radix cache."""
    from sglang.srt.arg_groups import overrides as O
    from sglang.srt.configs.linear_attn_model_registry import get_linear_attn_spec

    hf_config = mc.hf_config
    arch = (hf_config.architectures or [None])[0]
    in_branch = arch in O._MAMBA_RADIX_CACHE_ARCHS
    if arch == "GraniteMoeHybridForCausalLM":
        in_branch = any(t == "mamba" for t in getattr(hf_config, "layer_types", []))
    spec = get_linear_attn_spec(hf_config)
    return bool((spec is not None and spec.uses_mamba_radix_cache) or in_branch)


def config_code_file(folder: str, cfg: dict):
    """The `configuration_*.py` that `auto_map`'s AutoConfig names, when the folder holds it."""
    ref = (cfg.get("auto_map") or {}).get("AutoConfig") if isinstance(cfg.get("auto_map"), dict) else None
    if not isinstance(ref, str) or "--" in ref:
        return None
    name = ref.rsplit(".", 1)[0] + ".py"
    return name if os.path.exists(os.path.join(folder, name)) else None


def dllm_facts(mc):
    """What `DllmConfig.from_server_args` reads from a diffusion LM's config (DLLM_PARAMS'
    architectures; None for others): the vocabulary size, the JointThresholdInDel token ids, and
    the checkpoint's block size and expert capacity (LLaDA2's block routing); an attribute the
    config does not have is left out."""
    from sglang.srt.dllm import config as DC

    archs = list(mc.hf_config.architectures or [])
    dllm_tree = ast.parse(open(DC.__file__).read())
    known = {k.value for node in ast.walk(dllm_tree)
             if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "DLLM_PARAMS" for t in node.targets)
             for k in node.value.keys if isinstance(k, ast.Constant)}
    if not archs or archs[0] not in known:
        return None
    out = {"vocab_size": mc.vocab_size}
    missing = object()
    for key in ("delete_token_id", "split_token_id", "block_size", "expert_capacity"):
        v = getattr(mc.hf_config, key, missing)
        if v is not missing:
            out[key] = v
    return json.loads(json.dumps(out))


def mamba_chunk_size(mc):
    """The chunk size `overrides.mamba_cache_chunk_size` compares with the page size: the config's
    `mamba_chunk_size` (its class's default or alias included), else the FLA kernels' CHUNK_SIZE;
    None for a model that does not arm the Mamba radix cache (never asked)."""
    if not uses_mamba_radix_cache(mc):
        return None
    try:
        from sglang.kernels.ops.attention.fla.chunk_delta_h import CHUNK_SIZE as FLA_CHUNK_SIZE
    except ImportError:
        FLA_CHUNK_SIZE = 64  # as SGLang falls back
    return getattr(mc.hf_config, "mamba_chunk_size", FLA_CHUNK_SIZE)


def run_in_venv(args) -> int:
    sys.path.insert(0, RECORDER)
    import sgl_oracle  # noqa: E402

    sgl_oracle.Worker(None, args.version)  # stubs, offline, simulated hardware
    import sglang

    sglang_dir = os.path.dirname(sglang.__file__)
    lists = release_lists(sglang_dir)
    lists_path = os.path.join(ROOT, "data", f"sglang-{args.version}", "model-lists.json")
    with open(lists_path, "w") as f:
        json.dump({"sglang_version": args.version, "generated_by": "tools/build_catalog.py",
                   "from": "sglang/srt/configs/model_config.py, sglang/srt/configs/hybrid_arch.py, sglang/srt/layers/cp/cp_decode_attn_tp.py, sglang/srt/arg_groups/model_override_base.py, sglang/srt/server_args.py, sglang/srt/arg_groups/pd_disaggregation_hook.py, sglang/srt/layers/quantization/__init__.py, sglang/srt/arg_groups/overrides.py, sglang/srt/arg_groups/choices.py, sglang/srt/arg_groups/attention_hook.py, sglang/srt/arg_groups/model_hook.py, sglang/srt/arg_groups/speculative_hook.py, sglang/srt/speculative/adaptive_spec_params.py, sglang/srt/arg_groups/kv_cache_hook.py", **lists},
                  f, indent=1, sort_keys=False)
        f.write("\n")
    if args.lists_only:
        return 0

    work = tempfile.mkdtemp(prefix="catalog-")
    entries = []
    seen = set()
    for folder in args.folder:
        for e in folder_entries(folder):
            if e["hub_id"] not in seen:
                seen.add(e["hub_id"])
                entries.append(e)
            elif e["license"]:
                # The recorder's SOURCES.md has no license column: a later folder's row (the
                # catalog sources') that records the same file's license takes its place.
                at = next(i for i, x in enumerate(entries) if x["hub_id"] == e["hub_id"])
                if not entries[at]["license"]:
                    entries[at] = e
    if args.aiconfigurator:
        for e in aiconfigurator_entries(args.aiconfigurator, work):
            if e["hub_id"] not in seen:
                seen.add(e["hub_id"])
                entries.append(e)

    models, failed = {}, {}
    for e in sorted(entries, key=lambda e: e["hub_id"].lower()):
        if not e["license"]:
            failed[e["hub_id"]] = "left out: the license of its source is not recorded"
            continue
        src_dir = e["dir"]
        cfg = json.load(open(os.path.join(src_dir, "config.json")))
        hq_path = os.path.join(src_dir, "hf_quant_config.json")
        hf_quant = json.load(open(hq_path)) if os.path.exists(hq_path) else None
        # SGLang runs on a copy without `auto_map` (its custom code is not available offline; the
        # model_type is known locally), as the recorder's model folders do (SOURCES.md); a folder
        # that holds the config code `auto_map` names (the diffusion LMs', whose model types
        # nothing registers) keeps it, with the code, as the recorder serves it.
        run_dir = os.path.join(work, "run", e["hub_id"].replace("/", "--"))
        os.makedirs(run_dir, exist_ok=True)
        code = config_code_file(src_dir, cfg)
        run_cfg = cfg if code else {k: v for k, v in cfg.items() if k != "auto_map"}
        if code:
            shutil.copy(os.path.join(src_dir, code), os.path.join(run_dir, code))
        json.dump(run_cfg, open(os.path.join(run_dir, "config.json"), "w"))
        if hf_quant is not None:
            shutil.copy(hq_path, os.path.join(run_dir, "hf_quant_config.json"))
        try:
            computed = sglang_facts(run_dir)
        except BaseException as exc:  # noqa: BLE001 - a config SGLang rejects is reported, not fatal
            failed[e["hub_id"]] = f"{type(exc).__name__}: {str(exc)[:300]}"
            continue
        record = {"raw": raw_facts(cfg, hf_quant), "sglang": computed, "source": e["source"],
                  "license": e["license"]}
        if e.get("hf_quant_source"):
            record["hf_quant_source"] = e["hf_quant_source"]
        if e.get("notes"):
            record["notes"] = e["notes"]
        models[e["hub_id"]] = record
    shutil.rmtree(work, ignore_errors=True)

    # Aliases: hub ids the recorder's folders map to the same file as a catalog entry.
    aliases = {}
    for folder in args.folder:
        ids_file = os.path.join(folder, "hub_ids.json")
        if not os.path.exists(ids_file):
            continue
        ids = json.load(open(ids_file))
        for alias, local in ids.items():
            if alias in models:
                continue
            same = [h for h, l in ids.items() if l == local and h in models]
            if same:
                aliases[alias] = same[0]

    out = {
        "sglang_version": args.version,
        "generated_by": "tools/build_catalog.py",
        "models": models,
        "aliases": aliases,
        "left_out": failed,
    }
    path = os.path.join(ROOT, "data", "models", "catalog.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"), sort_keys=False)
        f.write("\n")
    archs = {m["raw"]["architecture"] for m in models.values()}
    print(f"catalog: {len(models)} models, {len(aliases)} aliases, {len(archs)} architectures; "
          f"{len(failed)} configs left out (SGLang did not load them, or no license)", file=sys.stderr)
    for k, v in failed.items():
        print(f"  left out: {k}: {v}", file=sys.stderr)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", default="0.5.23")
    ap.add_argument("--aiconfigurator", help="local git directory of ai-dynamo/aiconfigurator")
    ap.add_argument("--folder", action="append", help="folder with hub_ids.json and SOURCES.md")
    ap.add_argument("--vendor-aiconfigurator", metavar="DIR",
                    help="copy aiconfigurator's configs (git directory DIR) into tools/catalog-sources/aiconfigurator, then stop")
    ap.add_argument("--lists-only", action="store_true",
                    help="write only data/sglang-<version>/model-lists.json (the catalog is 0.5.23's: for an older release only its lists)")
    ap.add_argument("--in-venv", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if not args.folder:
        args.folder = DEFAULT_FOLDERS
    if args.in_venv:
        return run_in_venv(args)
    if args.vendor_aiconfigurator:
        return vendor_aiconfigurator(args.vendor_aiconfigurator)
    python = os.path.join(STATE, f"venv-{args.version}", "bin", "python")
    if not os.path.exists(python):
        sys.exit(f"{python} missing: run tools/recorder/setup.sh --version {args.version}")
    cmd = [python, os.path.abspath(__file__), "--in-venv", "--version", args.version]
    for f in args.folder:
        cmd += ["--folder", f]
    if args.aiconfigurator:
        cmd += ["--aiconfigurator", args.aiconfigurator]
    if args.lists_only:
        cmd += ["--lists-only"]
    return subprocess.call(cmd, stdout=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
