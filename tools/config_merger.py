#!/usr/bin/env python3
"""Which `--config` merger a SGLang release has, found by running the release's own
`ConfigArgumentMerger` on a small parser (the schema key `config_merger`).

    python3 tools/config_merger.py WHEEL data/sglang-0.5.20/schema.json   # writes the key
    (tools/dump_schema.py calls `variant()` on the installed package's merger)

The merger module imports only the standard library and PyYAML, so it runs from the wheel's source
text without installing SGLang. Its behaviour on three probes names the variant:
- `dest_keyed` (0.5.18-0.5.22): YAML keys are matched to actions by `dest` only; only
  `_StoreAction` and `_StoreTrueAction` are supported (any other action with option strings is
  refused, keyed by its dest, the last such action of a dest winning);
- `option_keyed` (0.5.23): keys are `dest` or any long option (dashes as underscores); switches and
  every single-value action are supported, and a key some supported action reads stays usable.
Another behaviour is a merger not modelled yet: the tool stops and says so.
SGLang is Apache-2.0 (data/NOTICE).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import types
import zipfile

VARIANTS = {
    # (a switch's alias long option is a switch key, a custom single-value action is supported,
    #  a dest shared with a supported action stays usable)
    (False, False, False): "dest_keyed",
    (True, True, True): "option_keyed",
}


class _OneValue(argparse.Action):
    """A custom single-value action, as SGLang's deprecated aliases are."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)


class _Switch(argparse.Action):
    def __init__(self, option_strings, dest, **kw):
        super().__init__(option_strings, dest, nargs=0, **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, False)


def _converts(merger_cls, parser, config: dict):
    """The merger's argument list for `config`, or the ValueError text it raises."""
    merger = merger_cls(parser=parser)
    try:
        return merger._convert_config_to_args(config)
    except ValueError as e:
        return str(e)


def variant(merger_cls) -> str:
    p = argparse.ArgumentParser()
    p.add_argument("--enable-x", "--x-alias", dest="enable_x", action="store_true")
    alias_switch = _converts(merger_cls, p, {"x-alias": True}) == ["--x-alias"]

    p = argparse.ArgumentParser()
    p.add_argument("--old-name", dest="old_name", action=_OneValue)
    one_value = isinstance(_converts(merger_cls, p, {"old-name": 1}), list)

    p = argparse.ArgumentParser()
    p.add_argument("--shared", dest="shared")
    p.add_argument("--shared-off", dest="shared", action=_Switch)
    shared_usable = isinstance(_converts(merger_cls, p, {"shared": 1}), list)

    probe = (alias_switch, one_value, shared_usable)
    if probe not in VARIANTS:
        raise SystemExit(f"config_merger: a --config merger not modelled yet (probe {probe}): model it in src/frontend.rs")
    return VARIANTS[probe]


def merger_from_wheel(wheel: str):
    with zipfile.ZipFile(wheel) as z:
        names = [n for n in z.namelist() if n.endswith("/server_args_config_parser.py") and n.startswith("sglang/srt/")]
        if len(names) != 1:
            raise SystemExit(f"config_merger: no single server_args_config_parser.py in {wheel}: {names}")
        source = z.read(names[0]).decode()
    module = types.ModuleType("server_args_config_parser")
    exec(compile(source, names[0], "exec"), module.__dict__)
    return module.ConfigArgumentMerger


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("wheel")
    ap.add_argument("schema", help="the release's schema.json, whose config_merger key is written")
    args = ap.parse_args()
    name = variant(merger_from_wheel(args.wheel))
    with open(args.schema) as f:
        schema = json.load(f)
    schema["config_merger"] = name
    # Same layout as dump_schema.py writes; the key goes before the actions.
    ordered = {k: v for k, v in schema.items() if k != "actions"}
    ordered["actions"] = schema["actions"]
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(args.schema)))
    with os.fdopen(fd, "w") as f:
        json.dump(ordered, f, indent=1)
    os.replace(tmp, args.schema)
    print(f"{args.schema}: config_merger = {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
