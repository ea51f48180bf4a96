#!/usr/bin/env python3
"""Compare the resolution steps of a release before the hook modules (0.5.18: `ServerArgs.
_run_resolution_pipeline` calling `self._handle_*()` methods) with the hook functions of the
release the rules were written against (0.5.23: `arg_groups/<module>.py`), source against source.

    python3 tools/compare_steps.py 0.5.18 --against 0.5.23 > data/sglang-0.5.18/steps.json
    python3 tools/compare_steps.py 0.5.18 --against 0.5.23 --markdown > docs/releases/0.5.18-steps.md

For each step of the older release's pipeline (`data/sglang-<old>/pipeline.json`) it finds the
newer hook of the same name (`function-map.json` read backwards: `ServerArgs._handle_dwdp` ->
`parallel_hook.handle_dwdp`; a function of the same module and name when the step is not a
ServerArgs method), and compares the two functions and, recursively, the helpers each calls by
the same name (`self._x(...)` / `_x(server_args, ...)`, up to 3 levels), after normalising what
the move to hook modules changed without changing behaviour:

- `self` / `server_args` / `cfg = resolving_view(server_args)` / `view` are one name (`cfg`);
- `declare_resolution(server_args, "<who>", a=x, b=y)` is `cfg.a = x; cfg.b = y`, and
  `declare_default(...)` likewise;
- a helper called as a method (`self._f(a)`) or a function (`_f(server_args, a)`, `f(cfg, a)`) is
  one call `f(a)`; leading underscores of names do not count;
- docstrings, comments, logging calls (`logger.*`) and `print_deprecated_warning` are left out
  (the warning sites are compared by `tools/check_warn_sites.py`).

A step is `same` when every compared function is equal after that, `differs` otherwise (with
the first differing lines), `no counterpart` when the newer release has no hook of that name.
`same` is the evidence a hook of ours may run for the older release; a `differs` step is not
modelled there. Nothing is imported or run. SGLang is Apache-2.0 (data/NOTICE).
"""
from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pkg_of(version):
    return os.path.expanduser(f"~/.cache/sgl-oracle/venv-{version}/lib/python3.11/site-packages/sglang")


SELF_NAMES = {"self", "server_args", "cfg", "view", "resolved", "args"}


class Normalise(ast.NodeTransformer):
    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str))]
        args = [a for a in node.args.args if a.arg not in SELF_NAMES]
        node.args.args = args
        node.name = node.name.lstrip("_")
        node.body = body or [ast.Pass()]
        node.returns = None
        node.decorator_list = []
        for a in node.args.args + node.args.kwonlyargs:
            a.annotation = None
        return node

    def visit_Name(self, node):
        if node.id in SELF_NAMES:
            return ast.copy_location(ast.Name(id="cfg", ctx=node.ctx), node)
        return node

    def visit_Assign(self, node):
        self.generic_visit(node)
        # cfg = resolving_view(server_args)
        if (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "cfg"
                and isinstance(node.value, ast.Call)):
            return None
        return node

    def visit_Expr(self, node):
        v = node.value
        if isinstance(v, ast.Call):
            f = v.func
            name = f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")
            base = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
            if base.endswith("logger") or base == "logging" or name in ("print_deprecated_warning", "warn") and base in ("warnings", ""):
                return None
            if name in ("declare_resolution", "declare_default", "declare_defaults"):
                return [ast.Assign(targets=[ast.Attribute(value=ast.Name(id="cfg", ctx=ast.Load()), attr=k.arg, ctx=ast.Store())],
                                   value=self.visit(k.value), lineno=node.lineno) for k in v.keywords if k.arg]
        self.generic_visit(node)
        return node

    ALIASES = {"resolved_view": "resolved", "model_config_of": "get_model_config"}

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        # cfg.get_model_config() is model_config_of(server_args); resolved_view() is resolved()
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "cfg" and f.attr in self.ALIASES.values():
            node.func = ast.Name(id=f.attr, ctx=ast.Load())
            return node
        if isinstance(f, ast.Name) and f.id in self.ALIASES:
            node.func = ast.Name(id=self.ALIASES[f.id], ctx=ast.Load())
            if node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == "cfg":
                node.args = node.args[1:]
            return node
        # self._f(a) -> f(a); _f(cfg, a) -> f(a)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "cfg" and f.attr.startswith("_"):
            node.func = ast.Name(id=f.attr.lstrip("_"), ctx=ast.Load())
        elif isinstance(f, ast.Name):
            node.func = ast.Name(id=f.id.lstrip("_"), ctx=ast.Load())
            if node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == "cfg":
                node.args = node.args[1:]
        return node


def normalised(fn: ast.FunctionDef) -> list[str]:
    tree = Normalise().visit(ast.fix_missing_locations(ast.parse(ast.unparse(fn))))
    ast.fix_missing_locations(tree)
    return ast.unparse(tree).splitlines()


class Source:
    def __init__(self, pkg):
        self.pkg = pkg
        self.cache = {}

    def module(self, rel):
        if rel not in self.cache:
            path = os.path.join(self.pkg, rel)
            self.cache[rel] = ast.parse(open(path, encoding="utf-8").read()) if os.path.exists(path) else None
        return self.cache[rel]

    def function(self, rel, qual):
        tree = self.module(rel)
        if tree is None:
            return None
        body = tree.body
        node = None
        for part in qual.split("."):
            node = next((n for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and n.name == part), None)
            if node is None:
                return None
            body = node.body
        return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def helper_calls(fn) -> list[str]:
    """Names (without leading underscores) of helpers `fn` calls as `self._x()` / `_x(...)` / `x(server_args)`."""
    out = []
    for n in ast.walk(fn):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
                out.append(f.attr)
            elif isinstance(f, ast.Name) and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id in ("server_args", "self"):
                out.append(f.id)
            elif isinstance(f, ast.Name) and f.id.startswith("_"):
                out.append(f.id)
    seen, res = set(), []
    for x in out:
        if x not in seen:
            seen.add(x)
            res.append(x)
    return res


def find_new_helper(new: Source, module_rel: str, name: str):
    """A helper of the newer release: in the hook's module, else any arg_groups module."""
    for cand in (name, "_" + name.lstrip("_"), name.lstrip("_")):
        fn = new.function(module_rel, cand)
        if fn is not None:
            return module_rel, fn
    base = os.path.join(new.pkg, "srt", "arg_groups")
    for f in sorted(os.listdir(base)):
        if f.endswith(".py"):
            rel = f"srt/arg_groups/{f}"
            for cand in (name, "_" + name.lstrip("_"), name.lstrip("_")):
                fn = new.function(rel, cand)
                if fn is not None:
                    return rel, fn
    return None, None


def compare(old: Source, new: Source, old_fn, new_rel, new_fn, depth=0, seen=None):
    """[(old name, new name, diff lines)] of the pair and of the helpers they call alike."""
    seen = seen if seen is not None else set()
    key = (old_fn.name, new_fn.name)
    if key in seen:
        return []
    seen.add(key)
    a, b = normalised(old_fn), normalised(new_fn)
    diff = [] if a == b else list(difflib.unified_diff(a, b, "0.5.18", "newer", n=0, lineterm=""))[2:]
    out = [(old_fn.name, new_fn.name, diff)]
    if depth >= 3:
        return out
    new_helpers = {h.lstrip("_"): h for h in helper_calls(new_fn)}
    for h in helper_calls(old_fn):
        if h.lstrip("_") not in new_helpers:
            continue
        ofn = old.function("srt/server_args.py", f"ServerArgs.{h}") or old.function("srt/server_args.py", h)
        if ofn is None:
            _, ofn = find_new_helper(old, "srt/server_args.py", h)
        if ofn is None:
            continue
        rel, nfn = find_new_helper(new, new_rel, new_helpers[h.lstrip("_")])
        if nfn is None:
            continue
        out += compare(old, new, ofn, rel, nfn, depth + 1, seen)
    return out


def flat(steps):
    for s in steps:
        if "step" in s:
            yield s["step"]
        for k in ("then", "else"):
            yield from flat(s.get(k, []))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("version")
    ap.add_argument("--against", default="0.5.23")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    data = os.path.join(ROOT, "data", f"sglang-{a.version}")
    pipeline = json.load(open(os.path.join(data, "pipeline.json")))
    fmap = json.load(open(os.path.join(data, "function-map.json")))["functions"]
    back = {}
    for newer, was in fmap.items():
        back.setdefault(was, newer)
    new_pipeline = json.load(open(os.path.join(ROOT, "data", f"sglang-{a.against}", "pipeline.json")))
    new_steps = set(flat(new_pipeline["steps"]))
    old, new = Source(pkg_of(a.version)), Source(pkg_of(a.against))
    rows = []
    for step in flat(pipeline["steps"]):
        row = {"step": step, "hook": None, "in_pipeline": False, "status": "no counterpart", "functions": []}
        name = step.rsplit(".", 1)[-1]
        if step.startswith("server_args.ServerArgs."):
            hook = back.get(step)
            ofn = old.function("srt/server_args.py", step[len("server_args."):])
        else:
            hook, ofn = None, None
            _, ofn = find_new_helper(old, "srt/server_args.py", name)
        if hook is None and ofn is not None:
            # the same name in a hook module of both releases (0.5.18 already had some:
            # pd_disaggregation_hook, speculative_hook), or only in the newer one
            for n in flat(new_pipeline["steps"]):
                if n.rsplit(".", 1)[-1].lstrip("_") == name.lstrip("_") and not n.startswith("sglang."):
                    hook = n
                    break
        if hook:
            mod, name = hook.rsplit(".", 1)
            rel = f"srt/arg_groups/{mod.replace('.', '/')}.py"
            nfn = new.function(rel, name)
            row["hook"] = hook
            row["in_pipeline"] = hook in new_steps
            if ofn is not None and nfn is not None:
                pairs = compare(old, new, ofn, rel, nfn)
                row["functions"] = [{"old": o, "new": n, "same": not d, "diff": d[:12]} for o, n, d in pairs]
                row["status"] = "same" if all(not d for _, _, d in pairs) else "differs"
        rows.append(row)
    # then check_server_args (run after resolution): ServerArgs.check_server_args in 0.5.18
    ofn = old.function("srt/server_args.py", "ServerArgs.check_server_args")
    nfn = new.function("srt/arg_groups/validation_hook.py", "check_server_args")
    row = {"step": "server_args.ServerArgs.check_server_args", "hook": "validation_hook.check_server_args", "in_pipeline": False,
           "status": "no counterpart", "functions": []}
    if ofn is not None and nfn is not None:
        pairs = compare(old, new, ofn, "srt/arg_groups/validation_hook.py", nfn)
        row["functions"] = [{"old": o, "new": n, "same": not d, "diff": d[:12]} for o, n, d in pairs]
        row["status"] = "same" if all(not d for _, _, d in pairs) else "differs"
    rows.append(row)
    doc = {"sglang_version": a.version, "against": a.against, "source": "tools/compare_steps.py", "steps": rows}
    if not a.markdown:
        json.dump(doc, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return
    print(f"# SGLang {a.version}: resolution steps against {a.against}'s hooks\n")
    print(f"Generated by `python3 tools/compare_steps.py {a.version} --against {a.against} --markdown` from the two "
          f"releases' source (see the tool's docstring for what counts as the same). {len(rows)} steps in "
          f"`ServerArgs._run_resolution_pipeline` order (`data/sglang-{a.version}/pipeline.json`).\n")
    counts = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    print(", ".join(f"{v} {k}" for k, v in sorted(counts.items())) + ".\n")
    print(f"| # | {a.version} step | {a.against} hook | source | functions compared |\n| --- | --- | --- | --- | --- |")
    for i, r in enumerate(rows):
        fns = ", ".join(f"`{f['old']}`" + ("" if f["same"] else " (differs)") for f in r["functions"])
        print(f"| {i} | `{r['step']}` | {('`' + r['hook'] + '`') if r['hook'] else '-'} | {r['status']} | {fns} |")
    print("\n## Differences\n")
    for r in rows:
        for f in r["functions"]:
            if not f["same"]:
                print(f"### `{r['step']}`: `{f['old']}` / `{f['new']}`\n\n```diff")
                for line in f["diff"]:
                    print(line)
                print("```\n")


if __name__ == "__main__":
    main()
