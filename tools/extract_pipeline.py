#!/usr/bin/env python3
"""Write SGLang's resolution pipeline order as data, from the installed package's source.

    python3 tools/extract_pipeline.py [--version 0.5.23] > data/sglang-0.5.23/pipeline.json

Reads `sglang/srt/arg_groups/pipeline.py::run_resolution_pipeline` with `ast` (needs the
recorder's venv for that version: `bash tools/recorder/setup.sh --version V`) and lists its steps
in order: every `run_hook(f, server_args)`, `run_post_process_pass(server_args, f)` and direct
`f(server_args)` call as `{"step": "module.function"}` (module relative to `sglang.srt.arg_groups`,
as the raise-site ids name it), `if` statements as `{"if": "<condition source>", "then": [...],
"else": [...]}`, and `return` as `{"return": true}`. Assignments and imports are not steps.
SGLang is Apache-2.0 (data/NOTICE).
"""

from __future__ import annotations

import argparse
import ast
import glob
import json
import os
import sys

PREFIX = "sglang.srt.arg_groups."


def source_of(version: str) -> str:
    home = os.environ.get("SGL_ORACLE_HOME", os.path.expanduser("~/.cache/sgl-oracle"))
    hits = glob.glob(os.path.join(home, f"venv-{version}", "lib", "python3*", "site-packages", "sglang", "srt", "arg_groups", "pipeline.py"))
    if not hits:
        sys.exit(f"no sglang {version} venv: run tools/recorder/setup.sh --version {version}")
    with open(hits[0]) as f:
        return f.read()


def qualified(name: str, imports: dict[str, str]) -> str:
    module = imports.get(name, "pipeline")
    return f"{module}.{name}"


def steps_of(body, imports) -> list:
    out = []
    for node in body:
        if isinstance(node, ast.ImportFrom) and node.module:
            module = node.module[len(PREFIX):] if node.module.startswith(PREFIX) else node.module
            for alias in node.names:
                imports[alias.asname or alias.name] = module
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            call = node.value
            func = call.func.id if isinstance(call.func, ast.Name) else None
            if func == "run_hook" and call.args and isinstance(call.args[0], ast.Name):
                out.append({"step": qualified(call.args[0].id, imports)})
            elif func == "run_post_process_pass" and len(call.args) > 1 and isinstance(call.args[1], ast.Name):
                out.append({"step": qualified(call.args[1].id, imports), "post_process": True})
            elif func:
                out.append({"step": qualified(func, imports)})
        elif isinstance(node, ast.If):
            step = {"if": ast.unparse(node.test), "then": steps_of(node.body, imports)}
            if node.orelse:
                step["else"] = steps_of(node.orelse, imports)
            out.append(step)
        elif isinstance(node, ast.Return):
            out.append({"return": True})
    return out


def server_args_steps(body) -> list:
    """SGLang before the hook modules (0.5.18): `ServerArgs._run_resolution_pipeline` calls
    `self._handle_*()` methods in order; each is a step `server_args.ServerArgs.<method>`, a call
    of a module-level function (`get_device_memory_capacity(self.device)`) or of another
    object (`current_platform.apply_server_args_defaults(self)`) a step named as written."""
    out = []
    for node in body:
        call = None
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            call = node.value
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            call = node.value
        if call is not None:
            f = call.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
                out.append({"step": f"server_args.ServerArgs.{f.attr}"})
            elif isinstance(f, ast.Name):
                out.append({"step": f"server_args.{f.id}"})
            else:
                out.append({"step": f"server_args.{ast.unparse(f)}"})
        elif isinstance(node, ast.If):
            step = {"if": ast.unparse(node.test), "then": server_args_steps(node.body)}
            if node.orelse:
                step["else"] = server_args_steps(node.orelse)
            out.append(step)
        elif isinstance(node, ast.Return):
            out.append({"return": True})
    return out


def pipeline_of(pkg: str | None, version: str) -> dict:
    """The pipeline document of the release installed at `pkg` (the `sglang` package folder;
    None: the recorder's venv of `version`)."""
    if pkg is None:
        text = source_of(version)
    else:
        path = os.path.join(pkg, "srt", "arg_groups", "pipeline.py")
        text = open(path).read() if os.path.exists(path) else ""
    tree = ast.parse(text)
    fn = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "run_resolution_pipeline"), None)
    if fn is None:
        # Before the hook modules: ServerArgs.__post_init__ -> _run_resolution_pipeline.
        sa = open(os.path.join(pkg, "srt", "server_args.py")).read()
        tree = ast.parse(sa)
        fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_run_resolution_pipeline")
        return {
            "sglang_version": version,
            "source": "sglang/srt/server_args.py::ServerArgs._run_resolution_pipeline",
            "steps": server_args_steps(fn.body),
        }
    imports: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            module = node.module[len(PREFIX):] if node.module.startswith(PREFIX) else node.module
            for alias in node.names:
                imports[alias.asname or alias.name] = module
    return {
        "sglang_version": version,
        "source": "sglang/srt/arg_groups/pipeline.py::run_resolution_pipeline",
        "steps": steps_of(fn.body, imports),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", default="0.5.23")
    args = ap.parse_args()
    home = os.environ.get("SGL_ORACLE_HOME", os.path.expanduser("~/.cache/sgl-oracle"))
    hits = glob.glob(os.path.join(home, f"venv-{args.version}", "lib", "python3*", "site-packages", "sglang"))
    if not hits:
        sys.exit(f"no sglang {args.version} venv: run tools/recorder/setup.sh --version {args.version}")
    doc = pipeline_of(hits[0], args.version)
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
