#!/usr/bin/env python3
"""SGLang's raise sites reachable from launch-time argument handling: writes raise-sites.jsonl.

    python3 tools/extract_raise_sites.py 0.5.22 > data/sglang-0.5.22/raise-sites.jsonl
    python3 tools/extract_raise_sites.py 0.5.23 --compare /work/shared/sglang-0.5.23/raise-sites.jsonl

A static scan (`ast`; no SGLang code is imported or run) of the release's installed package
(`~/.cache/sgl-oracle/venv-<V>/lib/python3.11/site-packages/sglang`, `bash tools/recorder/setup.sh
--version V`). It writes one JSON line per `raise` / `assert` (and `parser.error(...)`) in every
function reachable from `sglang serve` argument handling, in the format of the reference files
(`data/sglang-0.5.23/raise-sites.jsonl`):

- Roots, in SGLang's order (`hook_index`): `serve_frontend` (`cli/serve.py`), `prepare_server_args`
  (`server_args.prepare_server_args` and the argparse `type=` / `action=` callables it names), the
  code of `ServerArgs.resolve_once` / `__post_init__` itself (`resolve_once:self`,
  `post_init:self`), every step of the resolution pipeline (`arg_groups/pipeline.py::
  run_resolution_pipeline`, as `tools/extract_pipeline.py` reads it; for releases before the hook
  modules, the `self._handle_*()` calls of `ServerArgs._run_resolution_pipeline`), then
  `check_server_args`.
- Reachability: a name-based call graph. A function reaches every function or class it names
  (called or passed: `run_hook(f, ...)`, `type=human_readable_int`), resolved through the module's
  own definitions and its imports (also imports inside functions, relative imports, and one level
  of package re-exports); `self.m` / `cls.m` / `ClassName.m` name the method of that class or of
  its bases in the package; naming a class reaches its `__init__`, `__post_init__`, `__call__`
  and `__new__`. Calls on other objects (`cfg.x()`, `model_config.y()`) are not followed, except
  `model_config_of(...)`/`ModelConfig` which the graph reaches by name.
- `hook` is the first root (in order) that reaches the function, `hooks_reaching` every root
  that does; `hook_index` the root's position.
- `id` (`module.function#n`, numbered over the raises and asserts of that exact function in
  source order), `file`, `line`, `end_line`, `function`, `kind` (`raise`, `assert`,
  `parser.error`), `exc_type` (`raise X(...)` -> `X`; `raise X` -> `<X>`; a bare `raise` or
  `raise e` -> `<reraise>`; assert -> `AssertionError`; `parser.error` ->
  `SystemExit(parser.error)`), `message_template` (the first argument rendered as
  `tools/extract_warn_sites.py` renders messages; "" for an assert without message or an
  exception built without arguments, null for `raise X` / re-raise).
- The class flags (`pure`, `needs_model_config`, `needs_hardware`, `needs_env`, `needs_files`,
  `unreachable_from_cli`, `unreachable_reason`, `before_model_source_paths`) are not derivable
  statically with any certainty: they are carried from a reviewed reference file
  (`--classes-from`, default the nearest release with a reviewed `raise-sites.jsonl` under
  `/work/shared/` or `data/`) for a site with the same function and the same message template,
  and `classes_from` names that release; a site without a counterpart gets `classes_from: null`
  and conservative flags (`needs_model_config` true when its function is in
  `configs/model_config.py`, or reached only after the model source is resolved; `pure` false).

`--compare REF` prints how many of the reference's sites this scan finds with the same id, the
same message and exception, and lists the differences (the validation of the scan).

SGLang is Apache-2.0 (see data/NOTICE): the output quotes its message texts.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import sys
from collections import defaultdict, deque

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from extract_warn_sites import module_of, render, resolve_local  # noqa: E402

PREFIX = "sglang.srt.arg_groups."
CLASS_FIELDS = ("needs_model_config", "needs_hardware", "needs_env", "needs_files", "pure",
                "unreachable_from_cli", "unreachable_reason")


def default_pkg(version):
    return os.path.expanduser(f"~/.cache/sgl-oracle/venv-{version}/lib/python3.11/site-packages/sglang")


# ---- the package as modules and functions ---------------------------------------------------

class Func:
    __slots__ = ("mod", "qual", "node", "cls", "outer", "rel")

    def __init__(self, mod, qual, node, cls, outer, rel):
        self.mod, self.qual, self.node, self.cls, self.outer, self.rel = mod, qual, node, cls, outer, rel

    @property
    def key(self):
        return (self.mod, self.qual)


class Package:
    def __init__(self, pkg):
        self.site_root = os.path.dirname(pkg)
        self.files = {}       # dotted module -> rel path
        self.trees = {}       # dotted module -> ast
        self.funcs = {}       # (mod, qual) -> Func
        self.classes = {}     # (mod, qual) -> ClassDef
        self.toplevel = defaultdict(dict)  # mod -> name -> ("func"|"class", qual)
        self.imports = defaultdict(dict)   # mod -> alias -> ("mod", dotted) | ("name", dotted, name)
        self.nested = defaultdict(list)    # outer function key -> functions defined in it
        self.variables = defaultdict(dict)  # mod -> module-level variable -> its value expression
        self.registered = defaultdict(list)  # (module, table) -> functions registered into it by decorator
        self.bodies = {}                   # (mod, class qual) -> Func of the class body
        for dirpath, _, names in os.walk(pkg):
            for n in names:
                if not n.endswith(".py"):
                    continue
                path = os.path.join(dirpath, n)
                rel = os.path.relpath(path, self.site_root)
                dotted = rel[:-3].replace(os.sep, ".")
                if dotted.endswith(".__init__"):
                    dotted = dotted[: -len(".__init__")]
                self.files[dotted] = rel

    def tree(self, mod):
        if mod not in self.trees:
            rel = self.files.get(mod)
            if rel is None:
                self.trees[mod] = None
                return None
            try:
                src = open(os.path.join(self.site_root, rel), encoding="utf-8").read()
                t = ast.parse(src, filename=rel)
            except (SyntaxError, UnicodeDecodeError, ValueError):
                t = None
            self.trees[mod] = t
            if t is not None:
                self._index(mod, rel, t)
        return self.trees[mod]

    def _index(self, mod, rel, tree):
        is_pkg = rel.endswith("__init__.py")

        def add_imports(node, table):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        table[a.asname] = ("mod", a.name)
                    else:
                        table[a.name.split(".")[0]] = ("mod", a.name.split(".")[0])
                        table[a.name] = ("mod", a.name)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = mod.split(".")
                    keep = len(parts) - node.level + (1 if is_pkg else 0)
                    base = ".".join(parts[:keep] + ([node.module] if node.module else []))
                for a in node.names:
                    table[a.asname or a.name] = ("name", base, a.name)

        def walk(body, prefix, cls, outer):
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    qual = prefix + node.name
                    f = Func(mod, qual, node, cls, outer, rel)
                    self.funcs[(mod, qual)] = f
                    if outer is not None and cls is None:
                        self.nested[outer.key].append(f)
                    self._decorators.append(f)
                    if not prefix:
                        self.toplevel[mod][node.name] = ("func", qual)
                    walk(node.body, qual + ".", None, f)
                elif isinstance(node, ast.ClassDef):
                    qual = prefix + node.name
                    self.classes[(mod, qual)] = node
                    # the class body's own statements (field declarations naming argparse
                    # `type=` callables, tables of handlers): run when the class is defined
                    self.bodies[(mod, qual)] = Func(mod, qual + ".<body>", node, qual, outer, rel)
                    if not prefix:
                        self.toplevel[mod][node.name] = ("class", qual)
                    walk(node.body, qual + ".", qual, outer)
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    if not prefix:
                        add_imports(node, self.imports[mod])
                elif isinstance(node, (ast.Assign, ast.AnnAssign)) and not prefix and node.value is not None:
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        if isinstance(t, ast.Name):
                            self.variables[mod][t.id] = node.value
                elif isinstance(node, (ast.If, ast.Try, ast.With)) and not prefix:
                    subs = list(getattr(node, "body", [])) + list(getattr(node, "orelse", []))
                    for h in getattr(node, "handlers", []):
                        subs += h.body
                    subs += list(getattr(node, "finalbody", []))
                    walk(subs, prefix, cls, outer)
        self._decorators = []
        walk(tree.body, "", None, None)
        for f in self._decorators:
            for d in f.node.decorator_list:
                if isinstance(d, ast.Call):
                    for kind, m, q in self.name_targets(mod, d.func, None):
                        if kind == "func" and "regist" in q.lower():
                            # the module-level tables the decorator writes to
                            self.tree(m)
                            deco = self.funcs.get((m, q))
                            tables, todo, done = set(), [deco] if deco else [], set()
                            while todo and len(done) < 8:
                                g = todo.pop()
                                done.add(g.qual)
                                for n in ast.walk(g.node):
                                    if isinstance(n, ast.Name) and n.id in self.variables[m]:
                                        tables.add(n.id)
                                    elif isinstance(n, ast.Name) and self.toplevel[m].get(n.id, ("", ""))[0] == "func":
                                        h = self.funcs.get((m, self.toplevel[m][n.id][1]))
                                        if h is not None and h.qual not in done:
                                            todo.append(h)
                            for t in tables:
                                self.registered[(m, t)].append(f)

    # -- resolution

    def lookup(self, mod, name, depth=0):
        """What `name` is at module level of `mod`: [("func"|"class", mod, qual)] or a module."""
        if depth > 4 or self.tree(mod) is None:
            return []
        top = self.toplevel[mod].get(name)
        if top:
            return [(top[0], mod, top[1])]
        imp = self.imports[mod].get(name)
        if imp:
            return self.resolve_import(imp, depth + 1)
        return []

    def resolve_import(self, imp, depth=0):
        if imp[0] == "mod":
            return [("mod", imp[1], None)] if imp[1] in self.files else []
        _, base, name = imp
        sub = f"{base}.{name}" if base else name
        if sub in self.files:
            return [("mod", sub, None)]
        if base in self.files:
            return self.lookup(base, name, depth)
        return []

    def class_methods(self, mod, cls_qual, name, depth=0):
        """The method `name` of class `cls_qual` or of its bases (found by name)."""
        if depth > 6:
            return []
        if (mod, f"{cls_qual}.{name}") in self.funcs:
            return [self.funcs[(mod, f"{cls_qual}.{name}")]]
        node = self.classes.get((mod, cls_qual))
        if node is None:
            return []
        out = []
        for b in node.bases:
            for kind, bmod, bqual in self.name_targets(mod, b, None):
                if kind == "class":
                    out += self.class_methods(bmod, bqual, name, depth + 1)
        return out

    def name_targets(self, mod, expr, func_imports):
        """What an expression `a` or `a.b.c` names (functions, classes, modules)."""
        if isinstance(expr, ast.Name):
            if func_imports and expr.id in func_imports:
                return self.resolve_import(func_imports[expr.id])
            return self.lookup(mod, expr.id)
        if isinstance(expr, ast.Attribute):
            out = []
            for kind, m, q in self.name_targets(mod, expr.value, func_imports):
                if kind == "mod":
                    self.tree(m)
                    out += self.lookup(m, expr.attr)
                    sub = f"{m}.{expr.attr}"
                    if sub in self.files:
                        out.append(("mod", sub, None))
                elif kind == "class":
                    out += [("func", f.mod, f.qual) for f in self.class_methods(m, q, expr.attr)]
            return out
        return []


CTOR_METHODS = ("__init__", "__post_init__", "__call__", "__new__")

# Where argument handling ends: the server itself (launched once the arguments are resolved and
# checked) and the diffusion runtime (`sglang serve` of a diffusion model). The search does not
# enter these modules.
STOP_MODULES = ("sglang.launch_server", "sglang.srt.entrypoints", "sglang.multimodal_gen",
                "sglang.srt.managers", "sglang.srt.model_executor.model_runner",
                "sglang.srt.model_executor.runner")


def stopped(key):
    mod = key[0]
    return any(mod == m or mod.startswith(m + ".") for m in STOP_MODULES)


def callees(pkg, f):
    """Functions `f` reaches by naming them."""
    out = []
    mod = f.mod
    # imports inside the function (and enclosing functions)
    local_imports = {}
    scope = f
    chain = []
    while scope is not None:
        chain.append(scope)
        scope = scope.outer
    for s in reversed(chain):
        for n in ast.walk(s.node):
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                tmp = {}
                if isinstance(n, ast.Import):
                    for a in n.names:
                        if a.asname:
                            tmp[a.asname] = ("mod", a.name)
                        else:
                            tmp[a.name.split(".")[0]] = ("mod", a.name.split(".")[0])
                            tmp[a.name] = ("mod", a.name)
                else:
                    base = n.module or ""
                    if n.level:
                        parts = mod.split(".")
                        is_pkg = f.rel.endswith("__init__.py")
                        keep = len(parts) - n.level + (1 if is_pkg else 0)
                        base = ".".join(parts[:keep] + ([n.module] if n.module else []))
                    for a in n.names:
                        tmp[a.asname or a.name] = ("name", base, a.name)
                local_imports.update(tmp)
    # nested functions visible by name
    nested = {}
    for s in chain:
        for g in pkg.nested.get(s.key, ()):
            nested.setdefault(g.node.name, g)

    def own_nodes(node):
        """The nodes of `node`'s body, not of nested functions or classes (their defaults and
        decorators are evaluated here, but nothing SGLang raises there)."""
        stack = list(ast.iter_child_nodes(node))
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name in nested:
                    continue
                continue
            yield n
            stack.extend(ast.iter_child_nodes(n))

    def targets_of(kind, m, q):
        if kind == "func":
            g = pkg.funcs.get((m, q))
            return [g] if g else []
        if kind == "class":
            res = [pkg.bodies[(m, q)]] if (m, q) in pkg.bodies else []
            for meth in CTOR_METHODS:
                res += pkg.class_methods(m, q, meth)
            return res
        return []

    # local variables and parameters of a known class: `x = Cls(...)`, `x: Cls`,
    # `x = f(...)` where `f` is annotated `-> Cls`
    def ann_class(m0, ann):
        if ann is None:
            return None
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            try:
                ann = ast.parse(ann.value, mode="eval").body
            except SyntaxError:
                return None
        for v in ast.walk(ann):
            if isinstance(v, (ast.Name, ast.Attribute)):
                for kind, m, q in pkg.name_targets(m0, v, local_imports if m0 == mod else None):
                    if kind == "class":
                        return (m, q)
        return None

    typed = {}
    args = getattr(f.node, "args", None)
    params = (args.posonlyargs + args.args + args.kwonlyargs) if args else []
    for a in params:
        c = ann_class(mod, a.annotation)
        if c:
            typed[a.arg] = c
    for n in own_nodes(f.node):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Call):
            for kind, m, q in pkg.name_targets(mod, n.value.func, local_imports):
                if kind == "class":
                    typed[n.targets[0].id] = (m, q)
                elif kind == "func" and (m, q) in pkg.funcs:
                    c = ann_class(m, pkg.funcs[(m, q)].node.returns)
                    if c:
                        typed[n.targets[0].id] = c

    # a registry module: reaching it reaches what its decorators registered
    # a registry table (a module-level container a registering decorator fills): reading it
    # reaches what was registered
    for n in own_nodes(f.node):
        key = None
        if isinstance(n, ast.Name):
            if (mod, n.id) in pkg.registered:
                key = (mod, n.id)
            else:
                imp = local_imports.get(n.id) or pkg.imports[mod].get(n.id)
                if imp and imp[0] == "name":
                    key = (imp[1], imp[2])
        elif isinstance(n, ast.Attribute) and isinstance(n.value, (ast.Name, ast.Attribute)):
            for kind, m, _ in pkg.name_targets(mod, n.value, local_imports):
                if kind == "mod":
                    key = (m, n.attr)
        if key is not None and key in pkg.registered:
            out += pkg.registered[key]
    pkg.tree(mod)
    for n in own_nodes(f.node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier():
            top = pkg.toplevel[mod].get(n.value)
            if top and top[0] == "func":
                out += targets_of("func", mod, top[1])
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            if n.id in nested:
                out.append(nested[n.id])
                continue
            if n.id not in local_imports and n.id in pkg.variables[mod] and n.id not in pkg.toplevel[mod]:
                # a module-level table of functions (`_HANDLERS = {"x": _handle_x}`)
                for v in ast.walk(pkg.variables[mod][n.id]):
                    if isinstance(v, (ast.Name, ast.Attribute)) and isinstance(v.ctx, ast.Load):
                        for kind, m, q in pkg.name_targets(mod, v, None):
                            out += targets_of(kind, m, q)
                continue
            for kind, m, q in pkg.name_targets(mod, n, local_imports):
                out += targets_of(kind, m, q)
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load):
            base = n.value
            if isinstance(base, ast.Name) and base.id in ("self", "cls") and f.cls:
                out += pkg.class_methods(mod, f.cls, n.attr)
            elif isinstance(base, ast.Name) and base.id in ("self", "cls") and f.outer and f.outer.cls:
                out += pkg.class_methods(mod, f.outer.cls, n.attr)
            elif isinstance(base, ast.Name) and base.id in typed:
                m, q = typed[base.id]
                out += pkg.class_methods(m, q, n.attr)
            elif isinstance(base, (ast.Name, ast.Attribute)):
                for kind, m, q in pkg.name_targets(mod, n, local_imports):
                    out += targets_of(kind, m, q)
    return out


# ---- raise sites ----------------------------------------------------------------------------

def exc_name(e):
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        return e.attr
    return ast.unparse(e)


def sites_of(f):
    """(kind, exc_type, template, node) of each raise/assert/parser.error in `f`'s own body."""
    found = []
    stack = list(ast.iter_child_nodes(f.node))
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Raise):
            exc = n.exc
            if exc is None:
                found.append(("raise", "<reraise>", None, n))
            elif isinstance(exc, ast.Call):
                name = exc_name(exc.func)
                if exc.args:
                    tmpl = render(resolve_local(exc.args[0], n, f.node))
                else:
                    kw = next((k.value for k in exc.keywords if k.arg in ("msg", "message")), None)
                    tmpl = render(kw) if kw is not None else ""
                found.append(("raise", name, tmpl, n))
            elif isinstance(exc, (ast.Name, ast.Attribute)) and exc_name(exc)[:1].isupper():
                found.append(("raise", f"<{exc_name(exc)}>", None, n))
            else:
                found.append(("raise", "<reraise>", None, n))
        elif isinstance(n, ast.Assert):
            tmpl = "" if n.msg is None else render(resolve_local(n.msg, n, f.node))
            found.append(("assert", "AssertionError", tmpl, n))
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "error"
              and isinstance(n.func.value, ast.Name) and n.func.value.id == "parser" and n.args):
            found.append(("parser.error", "SystemExit(parser.error)", render(resolve_local(n.args[0], n, f.node)), n))
        stack.extend(ast.iter_child_nodes(n))
    found.sort(key=lambda t: (t[3].lineno, t[3].col_offset))
    return found


# ---- roots ----------------------------------------------------------------------------------

def pipeline_doc(pkg_path, version):
    """The release's resolution pipeline as `pipeline.json` writes it (tools/extract_pipeline.py)."""
    import extract_pipeline
    return extract_pipeline.pipeline_of(pkg_path, version)


def flat_steps(steps):
    for s in steps:
        if "step" in s:
            yield s["step"]
        for k in ("then", "else"):
            if k in s:
                yield from flat_steps(s[k])


def roots_of(pkg, pkg_path, version):
    """[(hook label, [Func])] in SGLang's order."""
    roots = []

    def funcs(mod, qual):
        pkg.tree(mod)
        g = pkg.funcs.get((mod, qual))
        return [g] if g else []

    roots.append(("serve_frontend", funcs("sglang.cli.serve", "serve")))
    prep = funcs("sglang.srt.server_args", "prepare_server_args")
    # The flag declarations that `add_cli_args` reads (0.5.19 on: `arg_groups/fields/`, fields
    # of classes whose metadata names `type=` parsers and `action=` classes).
    for mod in sorted(pkg.files):
        if mod.startswith("sglang.srt.arg_groups.fields"):
            tree = pkg.tree(mod)
            if tree is not None:
                prep.append(Func(mod, "<module>", tree, None, None, pkg.files[mod]))
                prep += [b for (m, _), b in sorted(pkg.bodies.items()) if m == mod]
    roots.append(("prepare_server_args", prep))
    doc = pipeline_doc(pkg_path, version)
    sa = "sglang.srt.server_args"
    pkg.tree(sa)
    if doc["source"].startswith("sglang/srt/server_args.py"):
        roots.append(("post_init:self", funcs(sa, "ServerArgs.__setattr__")))
        for step in flat_steps(doc["steps"]):
            if step.startswith("server_args.ServerArgs."):
                qual = step[len("server_args."):]
                roots.append((qual.split(".")[-1], funcs(sa, qual)))
            else:
                name = step.rsplit(".", 1)[-1]
                got = []
                for kind, m, q in pkg.lookup(sa, name):
                    if kind == "func":
                        got += funcs(m, q)
                if not got:
                    # imported inside the dispatcher: the argument-handling module defining it
                    got = [g for (m, q), g in sorted(pkg.funcs.items()) if q == name and m.startswith("sglang.srt.arg_groups")]
                roots.append((name, got))
        roots.append(("check_server_args", funcs(sa, "ServerArgs.check_server_args")))
        # the dispatcher itself, last: it raises nothing of its own, and each step it calls is
        # a root above
        roots.append(("post_init:dispatch", funcs(sa, "ServerArgs.__post_init__") + funcs(sa, "ServerArgs._run_resolution_pipeline")))
    else:
        # resolve_once: what runs before the pipeline (`pre`), the pipeline, what runs after it
        # (`post_mps`), then the method's own raises (`self`).
        pre, post = split_at_pipeline(pkg, sa)
        roots.append(("resolve_once:pre", pre))
        for step in flat_steps(doc["steps"]):
            mod, name = step.rsplit(".", 1)
            full = mod if mod.startswith("sglang.") else PREFIX + mod
            roots.append((name, funcs(full, name)))
        roots.append(("resolve_once:post_mps", post))
        roots.append(("resolve_once:self", funcs(sa, "ServerArgs.resolve_once") + funcs(sa, "ServerArgs.__post_init__")
                      + funcs(sa, "ServerArgs.__setattr__")))
        vh = "sglang.srt.arg_groups.validation_hook"
        roots.append(("check_server_args", funcs(vh, "check_server_args") + funcs(sa, "ServerArgs.check_server_args")))
    # Calls through a looked-up class that the call graph cannot follow:
    # `get_algorithm_cls(cfg.dllm_algorithm).configure_server_args(server_args)` in the dLLM hook
    # reaches every algorithm's `configure_server_args`.
    for label, fs in roots:
        if label == "handle_dllm_inference":
            algorithms = "sglang.srt.dllm.algorithm."
            for mod in sorted(m for m in pkg.files if m.startswith(algorithms)):
                pkg.tree(mod)
                fs += [g for (m, q), g in sorted(pkg.funcs.items()) if m == mod and q.endswith(".configure_server_args")]
    return roots, doc


def split_at_pipeline(pkg, sa):
    """Pseudo-functions for the statements of `ServerArgs.resolve_once` before and after its
    `run_resolution_pipeline(self)` call."""
    f = pkg.funcs.get((sa, "ServerArgs.resolve_once"))
    if f is None:
        return [], []
    for block in ast.walk(f.node):
        body = getattr(block, "body", None)
        if not isinstance(body, list):
            continue
        for i, st in enumerate(body):
            if (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Name)
                    and st.value.func.id == "run_resolution_pipeline"):
                mk = lambda stmts, tag: Func(sa, f"ServerArgs.resolve_once.<{tag}>", ast.Module(body=stmts, type_ignores=[]), "ServerArgs", None, f.rel)
                return [mk(body[:i], "pre")], [mk(body[i + 1:], "post")]
    return [], []


def reach(pkg, roots):
    """For each Func key: the root labels reaching it, in root order. A root's search stops at
    the functions of the other roots (`serve` constructs ServerArgs, which runs the pipeline:
    those sites belong to the later roots)."""
    reached = defaultdict(list)
    cache = {}
    root_of = {}
    for label, fs in roots:
        for f in fs:
            root_of.setdefault(f.key, label)
    for label, fs in roots:
        seen = set()
        q = deque(fs)
        while q:
            f = q.popleft()
            if f.key in seen:
                continue
            seen.add(f.key)
            if (root_of.get(f.key, label) != label or stopped(f.key)) and f not in fs:
                continue
            if label not in reached[f.key]:
                reached[f.key].append(label)
            if f.key not in cache:
                cache[f.key] = callees(pkg, f)
            for g in cache[f.key]:
                if g.key not in seen:
                    q.append(g)
    return reached


# ---- classes carried from a reviewed reference ----------------------------------------------

def norm(t):
    return " ".join((t or "").split())


def references_for(version):
    """The reviewed raise-sites.jsonl of other releases (`data/`, else `/work/shared/`), nearest
    release first: [(version, path)]."""
    key = lambda v: tuple(int(p) for p in v.split("."))
    found = {}
    for base in (os.path.join(ROOT, "data"), "/work/shared"):
        if not os.path.isdir(base):
            continue
        for d in sorted(os.listdir(base)):
            p = os.path.join(base, d, "raise-sites.jsonl")
            if d.startswith("sglang-") and os.path.exists(p):
                v = d[len("sglang-"):]
                if v != version and not _generated(p):
                    found.setdefault(v, p)
    return sorted(found.items(), key=lambda kv: (abs(key(kv[0])[2] - key(version)[2]), -key(kv[0])[2]))


def _generated(path):
    with open(path, encoding="utf-8") as fh:
        first = fh.readline()
    return '"classes_from"' in first


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("version")
    ap.add_argument("--sglang", help="path of the installed sglang package (default: the recorder's venv)")
    ap.add_argument("--classes-from", help="reviewed raise-sites.jsonl to carry the class flags from")
    ap.add_argument("--compare", help="reference raise-sites.jsonl: print the agreement instead of the sites")
    ap.add_argument("--pipeline-out", help="also write the pipeline order (pipeline.json) here")
    ap.add_argument("--function-map", metavar="NEWER",
                    help="print, as JSON, which ServerArgs method of this release each hook-module function of release NEWER was")
    a = ap.parse_args()
    pkg_path = os.path.abspath(a.sglang or default_pkg(a.version))
    if not os.path.isdir(pkg_path):
        sys.exit(f"no sglang package at {pkg_path}: run `bash tools/recorder/setup.sh --version {a.version}`")
    if a.function_map:
        doc = {"sglang_version": a.version, "against": a.function_map,
               "source": "tools/extract_raise_sites.py --function-map (ServerArgs methods named as the hook functions)",
               "functions": function_map(pkg_path, default_pkg(a.function_map))}
        json.dump(doc, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return
    pkg = Package(pkg_path)
    # Registries fill when their modules are imported: read every module of the argument
    # handling packages up front (decorator registrations, `model_overrides/`).
    for mod in list(pkg.files):
        if mod.startswith(("sglang.srt.arg_groups", "sglang.cli")):
            pkg.tree(mod)
    roots, doc = roots_of(pkg, pkg_path, a.version)
    if a.pipeline_out:
        with open(a.pipeline_out, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
    order = {label: i for i, (label, _) in enumerate(roots)}
    reached = reach(pkg, roots)

    refs = [(os.path.basename(os.path.dirname(os.path.abspath(a.classes_from))).replace("sglang-", ""), a.classes_from)] \
        if a.classes_from else references_for(a.version)
    classes = {}
    for ref_version, ref_path in refs:
        if not os.path.exists(ref_path) or os.path.getsize(ref_path) == 0:
            continue
        for line in open(ref_path, encoding="utf-8"):
            r = json.loads(line)
            fn = r["id"].split("#")[0]
            classes.setdefault((fn, norm(r["message_template"]), r["exc_type"]), (ref_version, r))
    model_source = order.get("_handle_model_source_paths", order.get("handle_model_source_paths", 10**6))

    out = []
    for key in sorted((k for k in reached if k in pkg.funcs and "<" not in k[1]), key=lambda k: (pkg.funcs[k].rel, pkg.funcs[k].node.lineno)):
        f = pkg.funcs.get(key)
        if f is None or "<" in f.qual:
            continue
        labels = sorted(reached[key], key=lambda l: order[l])
        idmod = module_of(f.rel)
        n = 0
        for kind, exc, tmpl, node in sites_of(f):
            n += 1
            fid = f"{idmod}.{f.qual}"
            row = {
                "id": f"{fid}#{n}",
                "file": f.rel,
                "line": node.lineno,
                "end_line": node.end_lineno,
                "function": f.qual,
                "hook": labels[0],
                "hook_index": order[labels[0]],
                "hooks_reaching": labels,
                "before_model_source_paths": order[labels[0]] < model_source,
                "kind": kind,
                "exc_type": exc,
                "message_template": tmpl,
            }
            found = classes.get((fid, norm(tmpl), exc))
            if found is not None:
                ref_version, ref = found
                for k in CLASS_FIELDS:
                    row[k] = ref.get(k)
                row["classes_from"] = ref_version
            else:
                needs_model = f.rel.endswith("configs/model_config.py") or order[labels[0]] > model_source
                row.update({"needs_model_config": needs_model, "needs_hardware": False, "needs_env": False,
                            "needs_files": False, "pure": False, "unreachable_from_cli": False,
                            "unreachable_reason": None, "classes_from": None})
            out.append(row)

    if a.compare:
        compare(out, a.compare)
        return
    for r in out:
        sys.stdout.write(json.dumps(r) + "\n")
    carried = sum(1 for r in out if r["classes_from"])
    print(f"extract_raise_sites: {len(out)} raise sites in {len({r['file'] for r in out})} files, "
          f"{len(roots)} roots; classes carried from {', '.join(v for v, _ in refs)} for {carried}", file=sys.stderr)


def function_map(old_pkg_path, new_pkg_path):
    """For a release before the hook modules (0.5.18): which of its `ServerArgs` methods each
    hook-module function of a later release (`arg_groups/<module>.py`, as the site ids name it)
    was, by name (`parallel_hook.handle_dwdp` was `ServerArgs._handle_dwdp`). Whether the logic
    is the same is decided by comparing the sources (the report, `docs/releases/0.5.18.md`),
    not here: the map only lets a rule find the release's site of the same message."""
    old = Package(old_pkg_path)
    sa = "sglang.srt.server_args"
    old.tree(sa)
    methods = {q.split(".", 1)[1] for (m, q) in old.funcs if m == sa and q.startswith("ServerArgs.") and q.count(".") == 1}
    new = Package(new_pkg_path)
    out = {}
    for mod in sorted(new.files):
        if not mod.startswith(PREFIX) or mod.count(".") != 3:
            continue
        rel = new.files[mod]
        new.tree(mod)
        for name, (kind, qual) in sorted(new.toplevel[mod].items()):
            if kind != "func" or new.funcs.get((mod, qual)) is None or new.funcs[(mod, qual)].rel != rel:
                continue
            old_mod = mod.replace("sglang.srt.", "sglang/srt/").replace(".", "/") + ".py"
            if os.path.exists(os.path.join(old.site_root, old_mod)):
                old.tree(mod)
                if (mod, qual) in old.funcs:
                    continue  # the same function is there
            for cand in ("_" + name, name):
                if cand in methods:
                    out[f"{module_of(rel)}.{qual}"] = f"server_args.ServerArgs.{cand}"
                    break
    # The model override providers and their registry (`arg_groups/model_overrides/<model>.py`,
    # `model_override_base.py`) were functions of the release's `arg_groups/overrides.py`.
    ov = PREFIX + "overrides"
    if ov in old.files:
        old.tree(ov)
        old_funcs = {q for (m, q) in old.funcs if m == ov and "." not in q}
        for mod in sorted(new.files):
            if not (mod.startswith(PREFIX + "model_overrides.") or mod == PREFIX + "model_override_base"):
                continue
            rel = new.files[mod]
            new.tree(mod)
            for name, (kind, qual) in sorted(new.toplevel[mod].items()):
                if kind != "func" or new.funcs.get((mod, qual)) is None or new.funcs[(mod, qual)].rel != rel:
                    continue
                if qual in old_funcs:
                    out[f"{module_of(rel)}.{qual}"] = f"overrides.{qual}"
    return out


def compare(ours, ref_path):
    ref = [json.loads(l) for l in open(ref_path, encoding="utf-8")]
    by_id = {r["id"]: r for r in ours}
    same_id = same_all = same_hook = 0
    missing, differ = [], []
    for r in ref:
        o = by_id.get(r["id"])
        if o is None:
            missing.append(r)
            continue
        same_id += 1
        if norm(o["message_template"]) == norm(r["message_template"]) and o["exc_type"] == r["exc_type"]:
            same_all += 1
        else:
            differ.append((r, o))
        same_hook += o["hook"] == r["hook"]
    ref_ids = {r["id"] for r in ref}
    extra = [o for o in ours if o["id"] not in ref_ids]
    print(f"reference {len(ref)} sites; ours {len(ours)}")
    print(f"  same id: {same_id}; same id, message and exception: {same_all}; same hook: {same_hook}")
    print(f"  reference sites we miss: {len(missing)}; ours not in the reference: {len(extra)}")
    for r in missing:
        print(f"  MISSING {r['id']} [{r['hook']}] {r['exc_type']}: {(r['message_template'] or '')[:70]!r}")
    for r, o in differ:
        print(f"  DIFFER {r['id']}: {r['exc_type']} {(r['message_template'] or '')[:60]!r} / ours {o['exc_type']} {(o['message_template'] or '')[:60]!r}")
    fns = defaultdict(int)
    for o in extra:
        fns[o["id"].split("#")[0]] += 1
    for fn, c in sorted(fns.items()):
        print(f"  EXTRA {fn} ({c})")


if __name__ == "__main__":
    main()
