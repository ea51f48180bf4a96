#!/usr/bin/env python3
"""SGLang's warnings reachable from launch-time argument handling: writes warn-sites.jsonl.

    python3 tools/extract_warn_sites.py --version 0.5.23 > data/sglang-0.5.23/warn-sites.jsonl
    python3 tools/extract_warn_sites.py --sglang PATH/TO/site-packages/sglang --version 0.5.18 > ...

The companion of `data/sglang-<version>/raise-sites.jsonl`: one JSON line per warning call in
the SGLang source, found with `ast` (no SGLang code is imported or run). The package is the
recorder's venv (`bash tools/recorder/setup.sh [--version V]` creates
`~/.cache/sgl-oracle/venv-V/lib/python3.11/site-packages/sglang`).

Which calls count as warnings ("kind"):
- `logger.warning(...)`, `logger.warn(...)` (any name ending in `logger`, `log`, and the
  `logging` module), `warnings.warn(...)`;
- `print_deprecated_warning(...)` (SGLang's wrapper in `arg_groups/argparse_actions.py`, which
  logs its argument with a yellow ANSI colour: the template is the argument);
- `logger.info(...)` only with `--include-info`. The project's rules do not reproduce info logs
  (they are commented "logger.info only" in src/rules), so they are left out by default.

Which files ("scope"):
- "launch": every module under `sglang/srt/arg_groups/`, `sglang/srt/server_args.py`,
  `sglang/srt/server_args_config_parser.py` / `sglang/srt/utils/server_args_config_parser.py`,
  everything under `sglang/cli/`, `sglang/srt/configs/model_config.py`;
- "raise-site-file": any other file named by `file` in raise-sites.jsonl (of this version if
  present, else of 0.5.23). Every warning in such a file is listed (a file reached by argument
  handling is listed whole; its other functions may never run at launch).

Fields, as raise-sites.jsonl:
- `id`: `module.function#n`. The module is the file's path relative to `sglang/srt/arg_groups/`
  for files there, else relative to `sglang/srt/`, else to `sglang/` (so `cli.serve`);
  `pkg/__init__.py` is `pkg`. `function` is qualified by enclosing classes and functions
  (`Class.method`, `outer.inner`), `<module>` at module level. `n` counts the warnings of that
  exact function in source order, from 1.
- `file`, `line`, `end_line` (of the call), `function`, `kind`.
- `message_template`: the message rendered as raise-sites renders messages:
  string literal parts verbatim with `{` / `}` doubled; f-string fields `{expr}`,
  `{expr!r}`, `{expr!s}`, `{expr:spec}` with `expr` as `ast.unparse` writes it (so quotes are
  normalised to '...'); `{x=}` becomes `x={x!r}` (how Python parses it); implicit
  concatenation joined; a local variable holding the message is replaced by the string last
  assigned to it before the call in the same function (raise-sites does the same); `a + b` joined with non-string operands as `{expr}`; any other
  message expression (a variable, a call) is `{expr}`.
  %-style: `logger.warning("a %s b %r", x, y)` and `"a %s" % x` substitute the arguments in
  order into the literal parts: `%s`/`%d`/`%i`/`%u` -> `{x}`, `%r` -> `{x!r}`, `%a` -> `{x!a}`,
  a specifier with flags/width/precision or another type keeps them as a format spec
  (`%.2f` -> `{x:.2f}`, `%5d` -> `{x:5d}`), `%(name)s` -> `{name}`, `%%` -> `%`. A specifier
  without an argument is left as written. `"...{}".format(a, k=b)` substitutes the same way.
  Keyword arguments of the logger call (`exc_info=`, `stacklevel=`) are ignored.
  `null` when the call has no message argument.
- `hook`: the resolution hook reaching the function, derived only when cheap and certain:
  the hook raise-sites.jsonl gives a raise site in the same function (or in the enclosing
  function of a nested one), else the function's own name when `arg_groups/pipeline.py` runs
  it with `run_hook(...)`, else null. `hooks_reaching` likewise from raise-sites, else null.
- `scope`: "launch" or "raise-site-file" (above); `category` for `warnings.warn` (the warning
  class as written, null when not given).

SGLang is Apache-2.0 (see data/NOTICE): the output quotes its message texts.
"""
import argparse
import ast
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LAUNCH_FILES = (
    "sglang/srt/server_args.py",
    "sglang/srt/server_args_config_parser.py",
    "sglang/srt/utils/server_args_config_parser.py",
    "sglang/srt/configs/model_config.py",
)
LAUNCH_DIRS = ("sglang/srt/arg_groups/", "sglang/cli/")

LOG_WARN = {"warning", "warn"}


def default_pkg(version):
    return os.path.expanduser(
        f"~/.cache/sgl-oracle/venv-{version}/lib/python3.11/site-packages/sglang")


def module_of(rel):
    """`sglang/srt/arg_groups/parallel_hook.py` -> `parallel_hook`, as raise-sites ids."""
    p = rel[:-3] if rel.endswith(".py") else rel
    for prefix in ("sglang/srt/arg_groups/", "sglang/srt/", "sglang/"):
        if p.startswith(prefix):
            p = p[len(prefix):]
            break
    parts = p.split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


# ---- rendering ------------------------------------------------------------------------------

def esc(s):
    return s.replace("{", "{{").replace("}", "}}")


def field(node):
    return "{" + ast.unparse(node) + "}"


def render_spec(spec):
    """A format spec (JoinedStr) as written after ':'."""
    out = []
    for v in spec.values:
        if isinstance(v, ast.Constant):
            out.append(str(v.value))
        else:
            out.append(render_formatted(v))
    return "".join(out)


def render_formatted(v):
    s = "{" + ast.unparse(v.value)
    if v.conversion and v.conversion != -1:
        s += "!" + chr(v.conversion)
    if v.format_spec is not None:
        s += ":" + render_spec(v.format_spec)
    return s + "}"


def is_str(node):
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(node, ast.JoinedStr) \
        or (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)) and is_str(node.left))


def render(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return esc(node.value)
    if isinstance(node, ast.JoinedStr):
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(esc(str(v.value)))
            else:
                out.append(render_formatted(v))
        return "".join(out)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and (is_str(node.left) or is_str(node.right)):
        return render(node.left) + render(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and is_str(node.left):
        args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        return percent_subst(render(node.left), args)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
            and isinstance(node.func.value, (ast.Constant, ast.JoinedStr)) and is_str(node.func.value)):
        return format_subst(node.func.value, node.args, node.keywords)
    return field(node)


def segments(tmpl):
    """Split a rendered template into (is_field, text) pieces."""
    out, i, lit = [], 0, []
    while i < len(tmpl):
        c = tmpl[i]
        if c in "{}" and tmpl[i:i + 2] in ("{{", "}}"):
            lit.append(tmpl[i:i + 2]); i += 2; continue
        if c == "{":
            depth, j = 0, i
            while j < len(tmpl):
                if tmpl[j] == "{": depth += 1
                elif tmpl[j] == "}":
                    depth -= 1
                    if depth == 0: break
                j += 1
            if lit: out.append((False, "".join(lit))); lit = []
            out.append((True, tmpl[i:j + 1])); i = j + 1; continue
        lit.append(c); i += 1
    if lit: out.append((False, "".join(lit)))
    return out


PCT = re.compile(r"%(?:\((\w+)\))?([#0\- +]*)(\*|\d+)?(?:\.(\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])")


def percent_subst(tmpl, args):
    args = list(args)
    pos = 0

    def sub(m):
        nonlocal pos
        name, flags, width, prec, typ = m.groups()
        if typ == "%":
            return "%"
        if name:
            return "{" + name + "}"
        if pos >= len(args) or isinstance(args[pos], ast.Starred):
            return m.group(0)
        expr = ast.unparse(args[pos]); pos += 1
        if typ == "r":
            return "{" + expr + "!r}"
        if typ == "a":
            return "{" + expr + "!a}"
        spec = (flags or "") + (width or "") + ("." + prec if prec else "")
        if typ in "sdiu" and not spec:
            return "{" + expr + "}"
        return "{" + expr + ":" + spec + ("d" if typ in "iu" else ("" if typ == "s" else typ)) + "}"

    out = []
    for is_field, text in segments(tmpl):
        out.append(text if is_field else PCT.sub(sub, text))
    return "".join(out)


def format_subst(fmt, args, keywords):
    tmpl = render(fmt)
    kw = {k.arg: k.value for k in keywords if k.arg}
    auto = 0
    out = []
    for is_field, text in segments(tmpl):
        if not is_field:
            out.append(text); continue
        m = re.fullmatch(r"\{([^!:{}]*)((?:![rsa])?(?::.*)?)\}", text)
        if not m:
            out.append(text); continue
        key, rest = m.groups()
        if key == "":
            node = args[auto] if auto < len(args) else None; auto += 1
        elif key.isdigit():
            node = args[int(key)] if int(key) < len(args) else None
        else:
            node = kw.get(key)
        out.append("{" + ast.unparse(node) + rest + "}" if node is not None else text)
    return "".join(out)


# ---- finding calls --------------------------------------------------------------------------

def call_kind(call, include_info):
    f = call.func
    if isinstance(f, ast.Name) and f.id == "print_deprecated_warning":
        return "print_deprecated_warning"
    if not isinstance(f, ast.Attribute):
        return None
    base = f.value
    name = base.id if isinstance(base, ast.Name) else (base.attr if isinstance(base, ast.Attribute) else None)
    if name is None:
        return None
    if name == "warnings" and f.attr == "warn":
        return "warnings.warn"
    loggerish = name == "logging" or name.lower().endswith("logger") or name in ("log", "_log")
    if loggerish and (f.attr in LOG_WARN or (include_info and f.attr == "info")):
        return f"{name}.{f.attr}"
    return None


class Finder(ast.NodeVisitor):
    def __init__(self, include_info):
        self.stack, self.found, self.include_info, self.fn = [], [], include_info, []

    def _scope(self, node):
        self.stack.append(node.name)
        self.fn.append(node)
        self.generic_visit(node)
        self.fn.pop()
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scope

    def visit_Call(self, node):
        kind = call_kind(node, self.include_info)
        if kind:
            self.found.append((".".join(self.stack) or "<module>", kind, node, self.fn[-1] if self.fn else None))
        self.generic_visit(node)


def resolve_local(node, call, fn):
    """A message passed as a local variable: the string it was last assigned before the call
    in the same function (as raise-sites.jsonl does: `msg = f"..."; raise ValueError(msg)`)."""
    if not isinstance(node, ast.Name) or fn is None:
        return node
    best = None
    for n in ast.walk(fn):
        if (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                and n.targets[0].id == node.id and n.lineno < call.lineno and is_str(n.value)):
            if best is None or n.lineno > best.lineno:
                best = n
    return best.value if best is not None else node


def message_of(kind, call, fn=None):
    if not call.args:
        msg = next((k.value for k in call.keywords if k.arg in ("msg", "message")), None)
        return None if msg is None else render(msg)
    first = resolve_local(call.args[0], call, fn)
    if kind in ("warnings.warn", "print_deprecated_warning"):
        return render(first)
    tmpl = render(first)
    rest = call.args[1:]
    return percent_subst(tmpl, rest) if rest and is_str(first) else tmpl


def category_of(kind, call):
    if kind != "warnings.warn":
        return None
    if len(call.args) > 1:
        return ast.unparse(call.args[1])
    k = next((k.value for k in call.keywords if k.arg == "category"), None)
    return ast.unparse(k) if k is not None else None


# ---- hooks ----------------------------------------------------------------------------------

def pipeline_hooks(pkg):
    p = os.path.join(pkg, "srt/arg_groups/pipeline.py")
    if not os.path.exists(p):
        return set()
    tree = ast.parse(open(p, encoding="utf-8").read())
    hooks = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "run_hook" and n.args:
            if isinstance(n.args[0], ast.Name):
                hooks.add(n.args[0].id)
    return hooks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--version", default="0.5.23")
    ap.add_argument("--sglang", help="path of the installed sglang package (default: the recorder's venv)")
    ap.add_argument("--raise-sites", help="raise-sites.jsonl for the file list and hooks "
                    "(default: data/sglang-<version>/raise-sites.jsonl, else 0.5.23's)")
    ap.add_argument("--include-info", action="store_true", help="also list logger.info calls")
    a = ap.parse_args()
    pkg = os.path.abspath(a.sglang or default_pkg(a.version))
    if not os.path.isdir(pkg):
        sys.exit(f"no sglang package at {pkg}: run `bash tools/recorder/setup.sh --version {a.version}`")
    site_root = os.path.dirname(pkg)

    rs_path = a.raise_sites
    if rs_path is None:
        rs_path = os.path.join(ROOT, "data", f"sglang-{a.version}", "raise-sites.jsonl")
        if not os.path.exists(rs_path):
            rs_path = os.path.join(ROOT, "data", "sglang-0.5.23", "raise-sites.jsonl")
    raise_sites = [json.loads(l) for l in open(rs_path, encoding="utf-8")]
    same_version = f"sglang-{a.version}" in rs_path

    files = {}
    for d in LAUNCH_DIRS:
        for p in sorted(glob.glob(os.path.join(site_root, d, "**", "*.py"), recursive=True)):
            files[os.path.relpath(p, site_root)] = "launch"
    for f in LAUNCH_FILES:
        if os.path.exists(os.path.join(site_root, f)):
            files[f] = "launch"
    for r in raise_sites:
        if r["file"] not in files and os.path.exists(os.path.join(site_root, r["file"])):
            files[r["file"]] = "raise-site-file"

    # Hooks from raise sites of the same function (only when the raise sites are this version's).
    fn_hook = {}
    if same_version:
        for r in raise_sites:
            fn_hook.setdefault((r["file"], r["function"]), (r.get("hook"), r.get("hooks_reaching")))
    run_hooks = pipeline_hooks(pkg)

    def hook_of(rel, func):
        parts = func.split(".")
        for i in range(len(parts), 0, -1):
            h = fn_hook.get((rel, ".".join(parts[:i])))
            if h and h[0]:
                return h
        for p in reversed(parts):
            if p in run_hooks and rel.startswith("sglang/srt/arg_groups/"):
                return p, None
        return None, None

    counts = {}
    out = []
    for rel in sorted(files):
        src = open(os.path.join(site_root, rel), encoding="utf-8").read()
        fnd = Finder(a.include_info)
        fnd.visit(ast.parse(src, filename=rel))
        mod = module_of(rel)
        for func, kind, call, fn in sorted(fnd.found, key=lambda t: (t[2].lineno, t[2].col_offset)):
            key = f"{mod}.{func}" if func != "<module>" else f"{mod}.<module>"
            counts[key] = counts.get(key, 0) + 1
            hook, reaching = hook_of(rel, func)
            out.append({
                "id": f"{key}#{counts[key]}",
                "file": rel,
                "line": call.lineno,
                "end_line": call.end_lineno,
                "function": func,
                "hook": hook,
                "hooks_reaching": reaching,
                "kind": kind,
                "category": category_of(kind, call),
                "message_template": message_of(kind, call, fn),
                "scope": files[rel],
            })
    for r in out:
        sys.stdout.write(json.dumps(r) + "\n")
    print(f"extract_warn_sites: {len(out)} warn sites in {len({r['file'] for r in out})} files "
          f"({sum(r['scope'] == 'launch' for r in out)} in launch modules) from {pkg}", file=sys.stderr)


if __name__ == "__main__":
    main()
