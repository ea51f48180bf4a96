#!/usr/bin/env python3
"""Which `ServerArgs` fields each resolution step may assign, from the installed package's source.

    python3 tools/extract_writes.py [--version 0.5.23] > data/sglang-0.5.23/pipeline-writes.json

For every step of `data/sglang-<version>/pipeline.json` (and `validation_hook.check_server_args`)
it lists the fields the step's function may write, transitively through the sglang functions it
calls. A write is any of:

- `declare_resolution(server_args, source, field=..., **decls)` (0.5.23's resolution record):
  the keywords, and the keys of `decls` when they can be read (a dict literal, `dict(k=...)`, a
  local dict filled with `d["k"] = ...` / `d.update(...)`, or what a called function returns);
- `server_args.field = ...`, `cfg.field = ...`, `args.field = ...` and `setattr(x, "field", ...)`
  for a name `field` that is a ServerArgs field (the schema's dests and
  `data/server-args-extra-fields.txt`);
- the keys of the dicts a post-process pass returns (`run_post_process_pass(server_args, f)`,
  `@register_post_process`);
- a model override (`collect_model_override_declarations`: `MODEL_OVERRIDES` and every provider
  registered with `register_model_override*` / `_register_for`): the union of their keys;
- `record_foreign_defaults(server_args, source, fn)` and method calls on objects
  (`algo.handle_server_args(server_args)`): every function of the package with that method
  name (over-approximated: a field a step cannot write makes nothing wrong, a missed one would).

A release before the hook modules (0.5.18) resolves in `ServerArgs` methods
(`server_args.ServerArgs._handle_x`): there `self` is the record, `self._other()` is the class's
method, a parameter a call hands the record is the record in the callee,
`declare_late_resolution`/`_late_resolution` keywords are writes, `materialize_declarations`
writes what the stash may hold (model overrides, post-process passes), and
`validation_hook.check_server_args` is `ServerArgs.check_server_args`.

A step whose writes cannot all be read (a `**decls` of unknown keys, a `setattr` with a
computed name, a plugin's callback with no definition in the package) also says `"any": true`:
it may write any field. Calls are resolved through each module's imports and local functions;
calls into other packages write nothing of ServerArgs'. SGLang is Apache-2.0 (data/NOTICE).
"""

from __future__ import annotations

import argparse
import ast
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ANY = "*"
# Names a hook gives the ServerArgs record or a view of it.
RECORD_NAMES = {"server_args", "cfg", "args", "sa", "view", "recorder"}
# The class whose methods resolve a release before the hook modules (`self` is the record).
RECORD_CLASS = "ServerArgs"
RECORD_MODULE = "sglang.srt.server_args"
# The check run after resolution, as the release data names it (src/rules/pipeline.rs).
CHECK_SERVER_ARGS = "validation_hook.check_server_args"
PROVIDER_DECORATORS = {"register_model_override", "register_model_override_predicate", "_register_for"}


def package_root(version: str) -> str:
    home = os.environ.get("SGL_ORACLE_HOME", os.path.expanduser("~/.cache/sgl-oracle"))
    hits = glob.glob(os.path.join(home, f"venv-{version}", "lib", "python3*", "site-packages", "sglang"))
    if not hits:
        sys.exit(f"no sglang {version} venv: run tools/recorder/setup.sh --version {version}")
    return hits[0]


def field_names(version: str) -> set[str]:
    with open(os.path.join(ROOT, "data", f"sglang-{version}", "schema.json")) as f:
        schema = json.load(f)
    names = {a["dest"] for a in schema["actions"] if a.get("dest") and a["dest"] != "help"}
    extra = os.path.join(ROOT, "data", "server-args-extra-fields.txt")
    if os.path.exists(extra):
        with open(extra) as f:
            names |= {l.strip() for l in f if l.strip() and not l.startswith("#")}
    return names


class Package:
    """Every function of sglang/srt by module, with each module's imports."""

    def __init__(self, root: str):
        self.root = root
        self.funcs: dict[tuple[str, str], ast.AST] = {}  # (module, qualified name) -> def
        self.module_of_func: dict[int, str] = {}
        self.qualname: dict[int, str] = {}  # id(def) -> qualified name in its module
        self.classes: set[tuple[str, str]] = set()  # (module, class name)
        self.imports: dict[str, dict[str, tuple[str, str | None]]] = {}  # module -> alias -> (module, name)
        self.methods: dict[str, list[tuple[str, ast.AST]]] = {}  # bare name -> defs (methods and functions)
        self.providers: list[tuple[str, ast.AST]] = []
        self.post_process: set[str] = set()
        self.model_overrides_keys: set[str] = set()
        base = os.path.dirname(root)
        for path in sorted(glob.glob(os.path.join(root, "srt", "**", "*.py"), recursive=True)):
            rel = os.path.relpath(path, base)[:-3].replace(os.sep, ".")
            module = rel[: -len(".__init__")] if rel.endswith(".__init__") else rel
            try:
                tree = ast.parse(open(path, encoding="utf-8").read())
            except (SyntaxError, UnicodeDecodeError):
                continue
            self._index(module, tree)

    def _index(self, module: str, tree: ast.Module):
        imports = self.imports.setdefault(module, {})
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                src = node.module
                if node.level:
                    parts = module.split(".")
                    src = ".".join(parts[: len(parts) - node.level] + ([node.module] if node.module else []))
                for alias in node.names:
                    imports[alias.asname or alias.name] = (src, alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    imports[alias.asname or alias.name.split(".")[0]] = (alias.name if alias.asname else alias.name.split(".")[0], None)

        def visit(body, prefix):
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    q = f"{prefix}{node.name}"
                    self.funcs[(module, q)] = node
                    self.module_of_func[id(node)] = module
                    self.qualname[id(node)] = q
                    self.methods.setdefault(node.name, []).append((module, node))
                    for d in node.decorator_list:
                        name = d.func if isinstance(d, ast.Call) else d
                        dn = name.id if isinstance(name, ast.Name) else name.attr if isinstance(name, ast.Attribute) else ""
                        if dn in PROVIDER_DECORATORS:
                            self.providers.append((module, node))
                        if dn == "register_post_process":
                            self.post_process.add(node.name)
                    visit(node.body, q + ".")
                elif isinstance(node, ast.ClassDef):
                    self.classes.add((module, f"{prefix}{node.name}"))
                    visit(node.body, f"{prefix}{node.name}.")
                elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "MODEL_OVERRIDES" for t in node.targets):
                    self._override_table(node.value)
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "MODEL_OVERRIDES" and node.value:
                    self._override_table(node.value)
        visit(tree.body, "")

    def _override_table(self, value):
        if isinstance(value, ast.Dict):
            for v in value.values:
                if isinstance(v, ast.Dict):
                    self.model_overrides_keys |= {k.value for k in v.keys if isinstance(k, ast.Constant)}

    def resolve(self, module: str, name: str):
        """The def a bare name means in `module` (a local function or an imported one)."""
        if (module, name) in self.funcs:
            return module, self.funcs[(module, name)]
        imp = self.imports.get(module, {}).get(name)
        if imp and imp[1] is not None:
            src, orig = imp
            if (src, orig) in self.funcs:
                return src, self.funcs[(src, orig)]
            # re-exported through a package's __init__ or another module
            src_imp = self.imports.get(src, {}).get(orig)
            if src_imp and src_imp[1] is not None and (src_imp[0], src_imp[1]) in self.funcs:
                return src_imp[0], self.funcs[(src_imp[0], src_imp[1])]
        return None

    def resolve_attr(self, module: str, base: str, attr: str):
        imp = self.imports.get(module, {}).get(base)
        if imp:
            target = imp[0] if imp[1] is None else f"{imp[0]}.{imp[1]}"
            if (target, attr) in self.funcs:
                return target, self.funcs[(target, attr)]
        return None


class Writes:
    def __init__(self, pkg: Package, fields: set[str]):
        self.pkg = pkg
        self.fields = fields
        self.memo: dict[int, set[str]] = {}
        self._provider_keys: set[str] | None = None

    def provider_keys(self) -> set[str]:
        if self._provider_keys is None:
            self._provider_keys = set()  # guards recursion
            keys = set(self.pkg.model_overrides_keys)
            for module, fn in self.pkg.providers:
                keys |= self.returned_keys(module, fn)
                keys |= self.of(module, fn)
            self._provider_keys = keys
        return self._provider_keys

    def stash_keys(self) -> set[str]:
        """What `materialize_declarations` (0.5.18) may write: the stash holds the model
        overrides' declarations and the dicts the post-process passes return."""
        keys = set(self.provider_keys())
        for (module, _), fn in list(self.pkg.funcs.items()):
            if fn.name in self.pkg.post_process:
                keys |= self.returned_keys(module, fn) | self.of(module, fn)
        return keys

    def returned_keys(self, module: str, fn) -> set[str]:
        out: set[str] = set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and node.value is not None:
                out |= self.dict_keys(module, fn, node.value)
        return out

    def dict_keys(self, module: str, fn, expr) -> set[str]:
        """The keys of the dict `expr` evaluates to inside `fn` (ANY when they cannot be read)."""
        if isinstance(expr, ast.Dict):
            out: set[str] = set()
            for k, v in zip(expr.keys, expr.values):
                if k is None:
                    out |= self.dict_keys(module, fn, v)
                elif isinstance(k, ast.Constant) and isinstance(k.value, str):
                    out.add(k.value)
                else:
                    out |= self.key_values(fn, k)
            return out
        if isinstance(expr, ast.Constant) and expr.value is None:
            return set()
        if isinstance(expr, ast.DictComp):
            return self.key_values(fn, expr.key, expr.generators)
        if isinstance(expr, ast.IfExp):
            return self.dict_keys(module, fn, expr.body) | self.dict_keys(module, fn, expr.orelse)
        if isinstance(expr, ast.BoolOp):
            return set().union(*(self.dict_keys(module, fn, v) for v in expr.values))
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
            return self.dict_keys(module, fn, expr.left) | self.dict_keys(module, fn, expr.right)
        if isinstance(expr, ast.Call):
            if isinstance(expr.func, ast.Name) and expr.func.id == "dict":
                out = {k.arg for k in expr.keywords if k.arg}
                for k in expr.keywords:
                    if k.arg is None:
                        out |= self.dict_keys(module, fn, k.value)
                for a in expr.args:
                    out |= self.dict_keys(module, fn, a)
                return out
            target = self.callee(module, expr)
            if target:
                return self.returned_keys(*target)
            name = expr.func.attr if isinstance(expr.func, ast.Attribute) else getattr(expr.func, "id", "")
            if name in ("_invoke_provider",):
                return self.provider_keys()
            if os.environ.get("WRITES_DEBUG"):
                print(f"  unread call {ast.unparse(expr)[:80]} in {module}.{fn.name}", file=sys.stderr)
            return {ANY}
        if isinstance(expr, ast.Name):
            return self.local_dict_keys(module, fn, expr.id)
        if os.environ.get("WRITES_DEBUG"):
            print(f"  unread {ast.unparse(expr)[:80]} in {module}.{fn.name}", file=sys.stderr)
        return {ANY}

    def local_dict_keys(self, module: str, fn, name: str) -> set[str]:
        out: set[str] = set()
        found = False
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Name) and t.id == name:
                        found = True
                        out |= self.dict_keys(module, fn, node.value)
                    elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name:
                        found = True
                        out |= self.key_values(fn, t.slice)
                    elif isinstance(t, ast.Tuple) and any(isinstance(e, ast.Name) and e.id == name for e in t.elts):
                        found = True
                        out.add(ANY)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name and node.value:
                found = True
                out |= self.dict_keys(module, fn, node.value)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
                out |= self.dict_keys(module, fn, node.value)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("update", "setdefault")
                  and isinstance(node.func.value, ast.Name) and node.func.value.id == name):
                if node.func.attr == "setdefault":
                    k = node.args[0] if node.args else None
                    out.add(k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else ANY)
                else:
                    out |= {k.arg for k in node.keywords if k.arg}
                    for a in node.args:
                        out |= self.dict_keys(module, fn, a)
            elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name) and node.target.id == name:
                found = True
                # `for source, declared in collect_model_override_declarations(...)`: model overrides
                out |= self.iter_keys(module, fn, node.iter)
            elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Tuple) and any(
                    isinstance(e, ast.Name) and e.id == name for e in node.target.elts):
                found = True
                out |= self.iter_keys(module, fn, node.iter)
            elif isinstance(node, ast.arguments) and any(a.arg == name for a in node.args + node.kwonlyargs):
                found = True
                out.add(ANY)
        if not found:
            out.add(ANY)
        if ANY in out and os.environ.get("WRITES_DEBUG"):
            print(f"  unread dict {name} in {module}.{fn.name}", file=sys.stderr)
        return out

    def key_values(self, fn, key, generators=()) -> set[str]:
        """The strings a dict key expression can be: a constant, a loop variable over constants,
        or an f-string's fields with that prefix (`f"watermark_{field}"`)."""
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return {key.value}
        if isinstance(key, ast.JoinedStr) and key.values and isinstance(key.values[0], ast.Constant):
            prefix = key.values[0].value
            return {f for f in self.fields if f.startswith(prefix)} or {ANY}
        if isinstance(key, ast.Name):
            loops = [g for g in generators] + [n for n in ast.walk(fn) if isinstance(n, ast.For)]
            for loop in loops:
                if isinstance(loop.target, ast.Name) and loop.target.id == key.id:
                    it = loop.iter
                    if isinstance(it, ast.Name):  # `fields = ("a", "b")` ... `for f in fields`
                        bound = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
                                 and any(isinstance(t, ast.Name) and t.id == it.id for t in n.targets)]
                        it = bound[0] if len(bound) == 1 else it
                    if isinstance(it, (ast.Tuple, ast.List)) and all(
                            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in it.elts):
                        return {e.value for e in it.elts}
            for loop in loops:  # `for key, value in (("a", 1), ("b", 2))`
                t, it = loop.target, loop.iter
                if isinstance(t, ast.Tuple) and isinstance(it, (ast.Tuple, ast.List)):
                    at = [i for i, e in enumerate(t.elts) if isinstance(e, ast.Name) and e.id == key.id]
                    rows = [e for e in it.elts if isinstance(e, ast.Tuple) and len(e.elts) == len(t.elts)]
                    if at and len(rows) == len(it.elts):
                        vals = [r.elts[at[0]] for r in rows]
                        if all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in vals):
                            return {v.value for v in vals}
        if os.environ.get("WRITES_DEBUG"):
            print(f"  unread key {ast.unparse(key)[:80]} in {fn.name}", file=sys.stderr)
        return {ANY}

    def iter_keys(self, module: str, fn, it) -> set[str]:
        if isinstance(it, ast.Call):
            target = self.callee(module, it)
            if target and target[1].name == "collect_model_override_declarations":
                return self.provider_keys()
        return {ANY}

    def callee(self, module: str, call: ast.Call):
        f = call.func
        if isinstance(f, ast.Name):
            return self.pkg.resolve(module, f.id)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            return self.pkg.resolve_attr(module, f.value.id, f.attr)
        return None

    def methods_named(self, name: str):
        return self.pkg.methods.get(name, [])

    def of(self, module: str, fn, extra: frozenset = frozenset()) -> set[str]:
        found = self._of(module, fn, extra)
        if ANY in found and os.environ.get("WRITES_DEBUG"):
            print(f"any: {module}.{getattr(fn, 'name', '?')}", file=sys.stderr)
        return found

    def records_of(self, fn, extra: frozenset) -> set[str]:
        """The names `fn` gives the record: the usual ones, `self` in a method of ServerArgs
        (a release before the hook modules resolves in ServerArgs' own methods), and the
        parameters a caller handed the record (`extra`)."""
        records = RECORD_NAMES | extra
        if self.record_method(fn):
            records = records | {"self"}
        return records

    def record_method(self, fn) -> bool:
        return self.pkg.qualname.get(id(fn), "").startswith(RECORD_CLASS + ".")

    def is_record(self, expr, records) -> bool:
        return isinstance(expr, ast.Name) and (expr.id in records or "server_args" in expr.id)

    def _of(self, module: str, fn, extra: frozenset = frozenset()) -> set[str]:
        key = (id(fn), extra) if extra else id(fn)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = set()  # a cycle adds nothing more
        out: set[str] = set()
        records = self.records_of(fn, extra)
        if fn.name == "materialize_declarations":
            # applies the stash (setattr of its keys): the model overrides' declarations and
            # every post-process pass's
            self.memo[key] = self.stash_keys()
            return self.memo[key]
        if fn.name in self.pkg.post_process:
            out |= self.returned_keys(module, fn)
        for node in ast.walk(fn):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                        if isinstance(el, ast.Attribute) and el.attr in self.fields and self.is_record(el.value, records):
                            out.add(el.attr)
            elif isinstance(node, ast.Call):
                out |= self.call_writes(module, fn, node, records)
        self.memo[key] = out
        return out

    def call_writes(self, module: str, fn, call: ast.Call, records=RECORD_NAMES) -> set[str]:
        f = call.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        out: set[str] = set()
        if name in ("declare_resolution", "declare_late_resolution", "_late_resolution"):
            for k in call.keywords:
                if k.arg:
                    out.add(k.arg)
                else:
                    out |= self.dict_keys(module, fn, k.value)
            return out
        if name == "setattr" and len(call.args) >= 2:
            k = call.args[1]
            if isinstance(k, ast.Constant) and isinstance(k.value, str):
                if k.value in self.fields:
                    out.add(k.value)
            else:
                base = call.args[0]
                if self.is_record(base, records):
                    # a loop over constant names (`for attr in ("a", "b"): setattr(self, attr, ...)`)
                    out |= self.key_values(fn, k)
                    if ANY in out and os.environ.get("WRITES_DEBUG"):
                        print(f"  setattr {ast.unparse(call)[:80]} in {module}.{fn.name}", file=sys.stderr)
            return out
        if name == "run_post_process_pass" and len(call.args) > 1:
            target = self.fn_ref(module, call.args[1])
            if target:
                out |= self.returned_keys(*target) | self.of(*target)
            return out
        if name == "record_foreign_defaults" and len(call.args) > 2:
            ref = call.args[2]
            target = self.fn_ref(module, ref)
            cands = [target] if target else (self.methods_named(ref.attr) if isinstance(ref, ast.Attribute) else [])
            # A callback no module of the package defines is a plugin's (none is installed with
            # SGLang): it writes nothing here.
            for m, d in cands:
                out |= self.param_writes(d) | self.of(m, d)
            return out
        if name == "_invoke_provider":
            return self.provider_keys()
        target = self.callee(module, call) or self.record_method_callee(module, fn, call, records)
        if target:
            return self.of(*target, self.handed_record(target[1], call, records))
        # a method of an object that is handed the record: any function of that name
        if isinstance(f, ast.Attribute) and any(self.is_record(a, records) for a in call.args):
            for m, d in self.methods_named(f.attr):
                out |= self.of(m, d)
        return out

    def record_method_callee(self, module: str, fn, call: ast.Call, records):
        """`self._other()` (or `server_args._other()`) from a method of ServerArgs: that method."""
        f = call.func
        if not (self.record_method(fn) and isinstance(f, ast.Attribute) and self.is_record(f.value, records)):
            return None
        q = (module, f"{RECORD_CLASS}.{f.attr}")
        return (module, self.pkg.funcs[q]) if q in self.pkg.funcs else None

    def handed_record(self, target, call: ast.Call, records) -> frozenset:
        """The parameters of `target` a call hands the record (when not named as a record already):
        their attribute writes are the record's."""
        params = [a.arg for a in target.args.posonlyargs + target.args.args]
        if params and params[0] in ("self", "cls") and isinstance(call.func, ast.Attribute):
            params = params[1:]  # bound: the call's arguments start after it
        names = {params[i] for i, a in enumerate(call.args) if i < len(params) and self.is_record(a, records)}
        names |= {k.arg for k in call.keywords if k.arg and self.is_record(k.value, records)}
        return frozenset(n for n in names if n not in RECORD_NAMES and "server_args" not in n)

    def param_writes(self, fn) -> set[str]:
        """Fields a callback assigns on its first (non-self) parameter."""
        params = [a.arg for a in fn.args.args if a.arg != "self"]
        if not params:
            return set()
        p = params[0]
        out = set()
        for node in ast.walk(fn):
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == p and t.attr in self.fields:
                        out.add(t.attr)
        return out

    def fn_ref(self, module: str, ref):
        if isinstance(ref, ast.Name):
            return self.pkg.resolve(module, ref.id)
        if isinstance(ref, ast.Attribute) and isinstance(ref.value, ast.Name):
            return self.pkg.resolve_attr(module, ref.value.id, ref.attr)
        return None


def step_definition(pkg: Package, name: str):
    """The def a step names: `hook_module.func` (a hook module of sglang/srt/arg_groups, or a
    full module path), or `module.Class.method` under sglang/srt (`server_args.ServerArgs._handle_x`,
    a release before the hook modules). Such a release runs `ServerArgs.check_server_args` where
    0.5.23 runs `validation_hook.check_server_args`: the step keeps the hook's name."""
    module, func = name.rsplit(".", 1)
    full = module if module.startswith("sglang.") else f"sglang.srt.arg_groups.{module}"
    target = pkg.resolve(full, func)
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        if target is not None:
            break
        module = ".".join(parts[:i])
        full = module if module.startswith("sglang.") else f"sglang.srt.{module}"
        q = ".".join(parts[i:])
        if (full, q) in pkg.funcs:
            target = full, pkg.funcs[(full, q)]
        elif i == len(parts) - 1:  # a function the module imports (`server_args.handle_speculative_decoding`)
            target = pkg.resolve(full, q)
    if target is None and name == CHECK_SERVER_ARGS:
        q = (RECORD_MODULE, f"{RECORD_CLASS}.check_server_args")
        target = (RECORD_MODULE, pkg.funcs[q]) if q in pkg.funcs else None
    return target


def step_names(steps) -> list[str]:
    out = []
    for s in steps:
        if "step" in s:
            out.append(s["step"])
        for k in ("then", "else"):
            out.extend(step_names(s.get(k, [])))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--version", default="0.5.23")
    a = ap.parse_args()
    root = package_root(a.version)
    with open(os.path.join(ROOT, "data", f"sglang-{a.version}", "pipeline.json")) as f:
        pipeline = json.load(f)
    fields = field_names(a.version)
    pkg = Package(root)
    w = Writes(pkg, fields)
    names = list(dict.fromkeys(step_names(pipeline["steps"]) + [CHECK_SERVER_ARGS]))
    steps = {}
    for name in names:
        target = step_definition(pkg, name)
        if target is not None:
            found = w.of(*target)
        elif name.count(".") >= 2 and pkg.methods.get(name.rsplit(".", 1)[1]):
            # a method of an object handed the record (`current_platform.apply_server_args_defaults(self)`):
            # any function of that name, its first parameter being the record
            found = set()
            for m, d in pkg.methods[name.rsplit(".", 1)[1]]:
                params = [p.arg for p in d.args.args if p.arg not in ("self", "cls")]
                found |= w.of(m, d, frozenset(params[:1]) - RECORD_NAMES)
        else:
            steps[name] = {"any": True, "fields": [], "note": "definition not found"}
            continue
        if name in [s.get("step") for s in _flat(pipeline["steps"]) if s.get("post_process")]:
            found |= w.returned_keys(*target)
        entry = {"fields": sorted(x for x in found if x != ANY and x in fields)}
        if ANY in found:
            entry["any"] = True
        steps[name] = entry
    doc = {
        "sglang_version": a.version,
        "source": "tools/extract_writes.py over sglang/srt (declare_resolution, post-process passes, "
                  "model overrides, attribute and setattr writes, transitively)",
        "steps": steps,
    }
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")
    n_any = sum(1 for s in steps.values() if s.get("any"))
    print(f"extract_writes: {len(steps)} steps, {n_any} may write any field", file=sys.stderr)


def _flat(steps):
    for s in steps:
        yield s
        for k in ("then", "else"):
            yield from _flat(s.get(k, []))


if __name__ == "__main__":
    main()
