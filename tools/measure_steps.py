#!/usr/bin/env python3
"""Measure a parser-only release's modelled steps against its recorded fixtures, at every stage.

    python3 tools/measure_steps.py 0.5.18 [--list] [--all-steps]
    python3 tools/measure_steps.py 0.5.22      # a hook-module release: 0.5.23's hooks on its pipeline

Builds with `SGLANG_PREFLIGHT_MODEL_CHECKS=<version>` (build.rs then replays the release's start-up
checks although its `status.json` says parser-only: for 0.5.18 the steps whose source is the
same as a 0.5.23 hook, `data/sglang-0.5.18/steps.json`; the other steps and
`ServerArgs.check_server_args` are not modelled), runs the conformance test on
`tests/fixtures/<version>/` (every stage compared), and sorts each difference by where SGLang
raised: the recorded message is matched against the release's raise sites
(`data/sglang-<version>/raise-sites.jsonl`, placeholders as wildcards) to find the step (`hook`).

- "SGLang raises in a step not modelled ..., we accept": the check did not run here, and the
  report says so (`not_modelled`): no claim is wrong.
- everything else is a disagreement: SGLang raises in a step we run and we accept, we raise
  another error (often: an earlier step we do not model raises first in SGLang, or sets what a
  later step reads), or we claim a warning SGLang did not print.

For 0.5.18 the steps that run are those whose source is the same as a 0.5.23 hook's and those
`REPLAYED_AS_WRITTEN` in src/rules/pipeline.rs lists (a hook modelled with 0.5.18's differences);
`--all-steps` runs every step that has a hook of its name, to list what modelling the rest as
0.5.18 writes it has left (each disagreement tagged with the step where SGLang raised).

It also counts, by the step SGLang raised in, the rejected commands the test lets through because
that step is not run here (`CONFORMANCE_LIST_NOT_MODELLED`).

The figures are written down in `docs/releases/0.5.18-measured.md`. `--list` prints the
disagreements. The build afterwards is the experimental one: run `cargo build` again to return
to the normal tables (the variable is then unset).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def template_parts(template: str):
    """A template's pieces in order: (True, placeholder) or (False, its literal text)."""
    for p in re.split(r"(\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})", template):
        if p.startswith("{") and p.endswith("}") and not p.startswith("{{"):
            yield True, p
        else:
            yield False, p.replace("{{", "{").replace("}}", "}")


def to_re(template: str):
    out = "".join(".*" if placeholder else re.escape(text) for placeholder, text in template_parts(template))
    return re.compile("^" + out + "$", re.S)


def literal_len(template: str) -> int:
    """The length of a template's literal text, its placeholders left out."""
    return sum(len(text) for placeholder, text in template_parts(template) if not placeholder)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("version")
    ap.add_argument("--list", action="store_true", help="print each disagreement")
    ap.add_argument("--log", help="classify this conformance output instead of running the test")
    ap.add_argument("--all-steps", action="store_true",
                    help="run every step that has a hook of the same name, also where its source differs "
                         "(SGLANG_PREFLIGHT_ALL_STEPS): what modelling them as that release writes them has left")
    a = ap.parse_args()
    v = a.version
    if a.log:
        log = open(a.log, encoding="utf-8").read()
    else:
        env = dict(os.environ, SGLANG_PREFLIGHT_MODEL_CHECKS=v, CONFORMANCE_FILTER=f"{v}/", CARGO_INCREMENTAL="0",
                   CONFORMANCE_LIST_NOT_MODELLED="1")
        if a.all_steps:
            env["SGLANG_PREFLIGHT_ALL_STEPS"] = v
        proc = subprocess.run(["cargo", "test", "--locked", "--test", "conformance", "--", "--nocapture"], cwd=ROOT, env=env,
                              capture_output=True, text=True)
        log = proc.stdout + proc.stderr
    data = os.path.join(ROOT, "data", f"sglang-{v}")
    sites = [json.loads(l) for l in open(os.path.join(data, "raise-sites.jsonl"), encoding="utf-8")]
    if os.path.exists(os.path.join(data, "steps.json")):
        # before the hook modules: the steps whose source is the hook's
        steps = json.load(open(os.path.join(data, "steps.json"), encoding="utf-8"))["steps"]
        # (and those src/rules/pipeline.rs replays as written; with --all-steps every counterpart)
        replayed = re.search(r'\(\s*"' + re.escape(v) + r'",\s*&\[([^\]]*)\]',
                             open(os.path.join(ROOT, "src", "rules", "pipeline.rs"), encoding="utf-8").read(), re.S)
        # (a `//` comment, e.g. a hook commented out while measuring, lists nothing)
        replayed = set(re.findall(r'"([\w.]+)"', re.sub(r"//[^\n]*", "", replayed.group(1)))) if replayed else set()
        run = {s["step"].rsplit(".", 1)[-1] for s in steps
               if s["status"] == "same" or (s.get("hook") and (a.all_steps or s["hook"] in replayed))}
    else:
        # a hook-module release: the steps of its pipeline.json that src/rules/pipeline.rs models
        modelled = set(re.findall(r'^\s*\("([\w.]+)", &\[', open(os.path.join(ROOT, "src", "rules", "pipeline.rs"), encoding="utf-8").read(), re.M))
        pipeline = json.load(open(os.path.join(data, "pipeline.json"), encoding="utf-8"))

        def flat(steps):
            for st in steps:
                if "step" in st:
                    yield st["step"]
                for k in ("then", "else"):
                    yield from flat(st.get(k, []))
        run = {n.rsplit(".", 1)[-1] for n in flat(pipeline["steps"]) if n in modelled} | {"check_server_args"}
    # (a template that is all placeholders, `raise ValueError(msg)`, names no step)
    pats = [(to_re(s["message_template"]), s["hook"], literal_len(s["message_template"])) for s in sites
            if len(re.sub(r"\{[^{}]*\}", "", s["message_template"] or "").strip()) >= 8]

    def hooks_of(msg):
        # the most specific templates explain the message (as tests/conformance.rs reads it)
        matching = [(h, n) for r, h, n in pats if r.match(msg)]
        best = max((n for _, n in matching), default=0)
        return {h for h, n in matching if n == best}

    m = re.search(r"conformance: (\d+) of (\d+) fixtures match", log)
    if not m:
        sys.exit("no conformance summary in the output:\n" + log[-3000:])
    agree, total = int(m.group(1)), int(m.group(2))
    cats = collections.Counter()
    listed = []
    for block in re.split(r"\n(?=" + re.escape(v) + r"/)", log):
        if not block.startswith(f"{v}/"):
            continue
        rej = re.search(r"SGLang rejects at (\w+) with ([\w<>()]+): (.*); we accept", block)
        raised = re.search(r"SGLang (?:rejects|raises) at \w+ (?:with )?[\w<>()]+: (.*?)(?:; we accept| we raise|$)", block, re.M)
        if raised:
            # where SGLang raised, for --list (grep a step's own disagreements)
            head, _, rest = block.partition("\n")
            block = head + "  [SGLang raised in: " + (", ".join(sorted(hooks_of(raised.group(1)))) or "?") + "]\n" + rest
        if rej:
            hs = hooks_of(rej.group(3))
            if hs & run:
                cats["SGLang raises in a step we run; we accept"] += 1
                listed.append(block)
            elif "check_server_args" in hs:
                cats["SGLang raises in check_server_args (not modelled for this release); we accept"] += 1
            else:
                cats["SGLang raises in a resolve step not modelled for this release; we accept"] += 1
            continue
        if "SGLang accepts, we say" in block:
            cats["SGLang accepts; we raise"] += 1
        elif "we raise at" in block:
            cats["both raise, another error"] += 1
        elif "we claim SGLang warns" in block:
            cats["we claim a warning SGLang did not print"] += 1
        else:
            cats["other"] += 1
        listed.append(block)
    not_modelled = sum(n for k, n in cats.items() if "not modelled" in k)
    print(f"SGLang {v}, every stage, {len(run)} modelled steps running:")
    print(f"  {agree} of {total} fixtures agree; {total - agree} differ:")
    for k, n in cats.most_common():
        print(f"    {n:5d}  {k}")
    print(f"  agreement counting a check that did not run (and says so) as no claim: "
          f"{agree + not_modelled} of {total}; disagreements: {total - agree - not_modelled}")
    # rejected commands the test lets through: SGLang raised in a step not run here (the report
    # says so), by that step
    passed = collections.Counter()
    for msg in re.findall(r"^raised in a step not modelled: \S+ \S+: (.*)$", log, re.M):
        passed[", ".join(sorted(hooks_of(msg))) or "?"] += 1
    if passed:
        print(f"  rejections let through because SGLang raised in a step not run: {sum(passed.values())}")
        for k, n in passed.most_common():
            print(f"    {n:5d}  {k}")
    if a.list:
        for b in listed:
            print("---\n" + b.strip()[:600])


if __name__ == "__main__":
    main()
